"""Part B rules, one environs at a time with scripted mug orders and dice (rules-freedom.md
section 3). Each test cites the rules it exercises."""

from __future__ import annotations

import copy

import pytest

from struggle_desktop.engine.errors import DataError
from struggle_desktop.games.freedom import chits
from struggle_desktop.games.freedom.chits_data import ChitTables, chit_tables
from struggle_desktop.games.freedom.data import FreedomData

from .test_part_b_helpers import ScriptedRng, d6, d66, data, dk, legal, order, reply, run, texts

MUGS = {"urban": "U", "wild": "W", "special": "S"}


def context(**over) -> dict:
    base = {"environs_type": "urban", "size": 3, "phasing_side": "rebel",
            "enemy_controls_planet": True, "enemy_units": 1, "creature": None,
            "groups": [{"id": "G1", "mission": "D", "bonus_draws": 0}]}
    base.update(over)
    return base


def start(ctx_dict: dict, draws=(), dice=(), options=None, side_draws=None):
    """A state for ``ctx_dict`` run to its first prompt; the mug order starts with ``draws``
    and ``dice`` follow the shuffle (``side_draws``: the separate bonus-only mug's order,
    scripted where it is shuffled: pass it inside ``dice`` with ``side_order``)."""
    scenario = {"id": "t", "kind": "chit-mug", "context": ctx_dict}
    state = chits.new_state(data(), scenario, options or {}, seed=1)
    mug = chit_tables(data()).mug(state["environs"]["mug"])
    script = []
    needs_mug = (any(not g["bonus_only"] for g in state["groups"])
                 and state["environs"]["size"] > 0
                 and state["options"]["chit_method"] == "mug")
    if needs_mug:
        script += order(mug, list(draws))
    rng = ScriptedRng(script + list(dice))
    ctx = chits.ChitContext(state, rng=rng)
    run(ctx)
    return ctx


def side_order(mug_type: str, draws) -> list:
    return order(chit_tables(data()).mug(mug_type), list(draws))


def drive(ctx, *answers) -> None:
    """Answer prompts: each queued ``(kind, action)`` when its kind comes up; ``chit_next`` is
    answered with draw unless an answer for it is queued."""
    queue = list(answers)
    while ctx.state["pending"] is not None:
        kind = ctx.state["pending"]["kind"]
        if queue and queue[0][0] == kind:
            reply(ctx, queue.pop(0)[1], kind=kind)
        elif kind == "chit_next":
            reply(ctx, {"verb": "draw"}, kind=kind)
        else:
            raise AssertionError(f"unexpected prompt {kind}: {ctx.state['pending']['text']}")
    assert not queue, f"answers left: {queue}"


def play(ctx_dict, draws=(), dice=(), answers=(), options=None):
    ctx = start(ctx_dict, draws, dice, options)
    drive(ctx, *answers)
    assert ctx.rng.left == 0, f"{ctx.rng.left} scripted answers left"
    return ctx.state


def grp(state, gid):
    return next(g for g in state["groups"] if g["id"] == gid)


def letters(state, gid):
    return [(x["letter"], x["chit"], x["draw"]) for x in grp(state, gid)["letters"]]


def reports(state):
    return [e["text"] for e in state["report"]]


def events(state):
    return [(d["chit"], d["event"]) for d in state["drawn"]]


# ============================================================================ data and inputs
def test_three_mugs_and_the_letter_allocation():
    # FIG-CHIT-2, FIG-CHIT-3: 36 chits a mug, ids U-/W-/S-<D66>, letters as allocated.
    t = chit_tables(data())
    for mug, prefix in MUGS.items():
        ids = t.mug(mug)
        assert len(ids) == 36 and ids[0] == f"{prefix}-11" and ids[-1] == f"{prefix}-66"
        assert sum(len(t.by_id(i).letters) for i in ids) == 61
    assert t.chit("urban", 21).label() == "H · Contacts! · I"
    assert t.chit("urban", 66).label() == "D · Coup fails! (3) · –"
    assert t.chit("special", 45).label() == "F · Creature attacks! (two bots) · P"


def test_a_changed_letter_fails_the_load_check():
    # FIG-CHIT-2: the mug letters must add up to the allocation table.
    tables = copy.deepcopy(dict(data().tables.tables))
    tables["chit_results"]["mugs"]["urban"][0]["letter1"] = "A"
    fake = FreedomData(use_overrides=False)
    fake.__dict__["tables"] = tables
    with pytest.raises(DataError, match="FIG-CHIT-2"):
        ChitTables(fake)


def test_a_one_sided_contradiction_fails_the_load_check():
    # FIG-CHIT-11: contradictions are symmetric.
    tables = copy.deepcopy(dict(data().tables.tables))
    for e in tables["chit_action_events"]["events"]:
        if e["event"] == "Shelter!":
            e["contradicts"] = []
    fake = FreedomData(use_overrides=False)
    fake.__dict__["tables"] = tables
    with pytest.raises(DataError, match="FIG-CHIT-11"):
        ChitTables(fake)


def test_the_lost_wild_chits_are_in_the_wild_mug():
    # FIG-CHIT-4: Wild 11 and 12 restored from the D66 column.
    t = chit_tables(data())
    assert t.by_id("W-11").recovered and t.by_id("W-12").recovered
    assert t.by_id("W-11").label() == "R · Civil Disorder! · –"
    assert t.by_id("W-12").label() == "R · Populace goes wild! · –"
    assert "W-11" in t.mug("wild") and not t.by_id("W-13").recovered


def test_chit_defects_as_decided():
    # FIG-CHIT-5: Wild 54 is the search version; Special 32 keeps its Wild event and acts.
    t = chit_tables(data())
    assert t.by_id("W-54").version == "search"
    assert t.by_id("W-56").event == "Enemy Agent!"
    state = play(context(environs_type="special", size=1,
                         groups=[{"id": "G1", "mission": "B", "bonus_draws": 2}]),
                 ["S-32", "S-11"])
    assert grp(state, "G1")["count"] == 1
    assert letters(state, "G1") == [("B", "S-32", "regular")]


@pytest.mark.parametrize("bad, message", [
    ({"groups": [{"id": "G1", "mission": "D"}, {"id": "G2", "mission": "D"}]}, "same mission"),
    ({"cells": [{"id": "c1", "mission": "D"}]}, "same mission"),
    ({"phasing_side": "imperial", "cells": [{"id": "c1", "mission": "S"}]}, "Rebel Cells"),
    ({"environs_type": "orbit"}, "orbit box"),
    ({"groups": [{"id": "G1", "mission": "D", "colour": "red"}]}, "colour"),
    ({"groups": [{"id": "G1", "mission": "Z"}]}, "groups/0/mission"),
])
def test_a_bad_context_is_refused(bad, message):
    # FIG-CHIT-1: the Part B inputs are checked.
    with pytest.raises(DataError, match=message):
        chits.new_state(data(), {"id": "t", "context": context(**bad)}, {}, seed=1)


def test_inputs_are_logged_and_the_state_holds_them():
    # FIG-CHIT-1, FIG-GEN-6
    ctx = start(context(groups=[{"id": "G1", "mission": "D", "bonus_draws": -2,
                                 "members": ["Bridne Murcada", "Thysa Kymbo"],
                                 "diplomat": True}], flags={"trap_infiltrated": True}),
                ["U-31"])
    state = ctx.state
    assert state["groups"][0]["members"] == ["Bridne Murcada", "Thysa Kymbo"]
    assert state["flags"]["trap_infiltrated"] is True
    assert texts(state, "FIG-CHIT-1")[0] == ("Rebel missions in the urban environs, size 3: "
                                              "groups G1 D (-2 bonus)")


# ============================================================================ drawing
def test_draws_without_replacement_and_all_return():
    # FIG-CHIT-6: one shuffle, every chit drawn once, all back at the end.
    # Contacts! and Planetary Event! give the group two bonus draws
    state = play(context(size=6, groups=[{"id": "G1", "mission": "D", "bonus_draws": 0}]),
                 ["U-13", "U-22", "U-25", "U-26", "U-31", "U-36", "U-41", "U-42"],
                 answers=[("chit_medical_aid", {"verb": "none"})])
    drawn = [d["chit"] for d in state["drawn"]]
    assert drawn == ["U-13", "U-22", "U-25", "U-26", "U-31", "U-36", "U-41", "U-42"]
    assert len(set(drawn)) == len(drawn)
    assert state["mug"] == []
    assert state["outcome"][-1]["text"] == "8 distinct chits were drawn and go back into the mug"


def test_a_stopped_group_keeps_its_letters_and_draws_no_more():
    # FIG-CHIT-7: the phasing player stops a group between draws.
    ctx = start(context(size=3, groups=[{"id": "G1", "mission": "D", "bonus_draws": 1},
                                        {"id": "G2", "mission": "F", "bonus_draws": 1}]),
                ["U-23", "U-25", "U-24", "U-36"])
    assert ctx.state["pending"]["kind"] == "chit_next"
    assert {"verb": "stop", "group": "G1"} in legal(ctx)
    reply(ctx, {"verb": "stop", "group": "G1"}, kind="chit_next", role="phasing")
    assert {"verb": "stop", "group": "G1"} not in legal(ctx)
    drive(ctx)
    state = ctx.state
    assert letters(state, "G1") == [("D", "U-23", "regular")]
    assert letters(state, "G2") == [("F", "U-25", "regular")]
    assert grp(state, "G1")["status"] == "stopped" and grp(state, "G1")["count"] is None
    assert "stopped by the player" in state["outcome"][0]["text"]


def test_regular_draws_are_never_reduced_and_stop_when_nobody_draws():
    # FIG-CHIT-7: Delayed by Rumors! cannot cut the regular draws; with every group stopped
    # the rest are not made.
    state = play(context(size=3, groups=[{"id": "G1", "mission": "Q", "bonus_draws": 0},
                                         {"id": "G2", "mission": "D", "bonus_draws": 0}]),
                 ["U-33", "U-34", "U-46"])
    assert [d["draw"] for d in state["drawn"]] == ["regular"] * 3
    assert grp(state, "G2")["count"] == 0
    ctx = start(context(size=3), ["U-46", "U-23"])
    reply(ctx, {"verb": "stop", "group": "G1"}, kind="chit_next")
    assert ctx.state["outcome"] is not None
    assert "no group is left drawing: the remaining 2 regular draw(s) are not made" in texts(
        ctx.state, "FIG-CHIT-7")


def test_bonus_counts_floor_at_zero_and_chit_k_scores_for_counts_of_k():
    # FIG-CHIT-8: negative counts mean no bonus draws; bonus chit k counts for counts >= k.
    state = play(context(size=1, groups=[{"id": "G1", "mission": "D", "bonus_draws": -3},
                                         {"id": "G2", "mission": "I", "bonus_draws": 2}]),
                 ["U-21", "U-23", "U-52"])
    assert [grp(state, g)["count"] for g in ("G1", "G2")] == [0, 3]
    # Contacts! gave +1: G1 -2 -> 0 bonus draws, G2 3; D on bonus 1 does not count for G1.
    assert letters(state, "G1") == []
    assert letters(state, "G2") == [("I", "U-21", "regular"), ("I", "U-52", "bonus")]
    assert "FIG-CHIT-8" in [e["rule"] for e in state["log"]]
    assert texts(state, "FIG-CHIT-8") == ["bonus counts G1 0, G2 3: 3 shared bonus chits to draw"]


def test_events_do_not_apply_on_bonus_draws():
    # FIG-CHIT-9: an Enemy Agent! drawn as a bonus chit aborts nothing.
    state = play(context(size=1, groups=[{"id": "G1", "mission": "I", "bonus_draws": 1}]),
                 ["U-22", "U-56"])
    assert grp(state, "G1")["status"] == "active"
    assert letters(state, "G1") == [("I", "U-56", "bonus")]
    assert state["detection"] is None
    assert events(state)[1] == ("U-56", "not applied")


# ============================================================================ precedence
def test_same_event_acts_only_once():
    # FIG-CHIT-10: Security Measures! (detected) then (found): nobody is attacked.
    state = play(context(size=2), ["U-46", "U-53"])
    assert events(state) == [("U-46", "applied"), ("U-53", "same")]
    assert not any("attacks" in r for r in reports(state))
    assert "Security Measures! already happened here: only its letters count" in texts(
        state, "FIG-CHIT-10")


def test_an_absorbed_event_still_counts_as_the_first():
    # FIG-CHIT-10, FIG-CHIT-13: Professor Mareg absorbs the creature; the next Creature
    # attacks! cannot hit another group.
    state = play(context(size=2, creature="Gach",
                         groups=[{"id": "G1", "mission": "D", "holders": ["Professor Mareg"]},
                                 {"id": "G2", "mission": "F"}]),
                 ["U-44", "U-45"], dice=dk(2, 1))
    assert events(state) == [("U-44", "applied"), ("U-45", "same")]
    assert "Professor Mareg lets G1 ignore the attack of Gach" in texts(state, "FIG-CHIT-13")
    assert not any("attack" in r for r in reports(state))


def test_a_blocked_event_does_not_count_and_a_void_one_stops_blocking():
    # FIG-CHIT-10, FIG-CHIT-11, FIG-CHIT-12: Shelter! first; Surveillance Systems! voids it;
    # then Security Measures! may apply (the seed's own example).
    state = play(context(size=4), ["U-24", "U-46", "U-35", "U-51"])
    assert events(state) == [("U-24", "applied"), ("U-46", "blocked"), ("U-35", "applied"),
                             ("U-51", "applied")]
    assert state["events"]["Shelter!"] == "void"
    assert state["detection"] == "detected"
    assert ("Surveillance Systems! overrules Shelter!: its effect is undone and later chits of "
            "it are ignored here") in texts(state, "FIG-CHIT-12")


def test_contacts_and_delayed_by_rumors_contradict():
    # FIG-CHIT-11, FIG-CHIT-14: whichever comes first blocks the other.
    state = play(context(size=2), ["U-22", "U-33", "U-11"])
    assert events(state) == [("U-22", "applied"), ("U-33", "blocked"), ("U-11", "not applied")]
    assert grp(state, "G1")["count"] == 1


def test_tracks_lost_overrules_security_measures_both_ways():
    # FIG-CHIT-12: after Security Measures! everyone becomes undetected again; drawn first,
    # Tracks lost in Wilderness! makes later Security Measures! void.
    wild = dict(environs_type="wild", size=2)
    state = play(context(**wild), ["W-51", "W-36"])
    assert state["detection"] == "undetected" and state["events"]["Security Measures!"] == "void"
    state = play(context(**wild), ["W-36", "W-52"])
    assert events(state) == [("W-36", "applied"), ("W-52", "void")]
    assert state["detection"] == "undetected"


def test_conditional_overrules_need_their_mission():
    # FIG-CHIT-12, FIG-CHIT-17: Rebellion falters! without an R mission does nothing at all,
    # so Shelter! stands; with R it detects, aborts R and overrules Shelter!.
    state = play(context(size=2), ["U-24", "U-14"])
    assert events(state) == [("U-24", "applied"), ("U-14", "no_mission")]
    assert state["detection"] == "undetected" and state["events"]["Shelter!"] == "applied"
    state = play(context(size=2, groups=[{"id": "G1", "mission": "R"},
                                         {"id": "G2", "mission": "D"}]), ["U-11", "U-14"])
    assert grp(state, "G1")["status"] == "aborted" and grp(state, "G1")["lost"] == [
        {"letter": "R", "chit": "U-11", "draw": "regular", "k": 1}]
    assert state["detection"] == "detected" and state["events"]["Shelter!"] == "void"


def test_wrong_soldier_needs_a_t_mission_and_captures_with_an_enemy_leader():
    # FIG-CHIT-12, FIG-CHIT-16, FIG-CHIT-17: Wrong Soldier contacted! acts only with T.
    state = play(context(size=1), ["U-61"])
    assert events(state) == [("U-61", "no_mission")]
    state = play(context(size=2, enemy_leader=True,
                         groups=[{"id": "G1", "mission": "T", "members": ["Rayner Derban"]}]),
                 ["U-32", "U-61"])
    assert grp(state, "G1")["status"] == "aborted"
    assert letters(state, "G1") == [] and len(grp(state, "G1")["lost"]) == 1
    assert "the T group (Rayner Derban) is captured by the enemy leader" in reports(state)
    state = play(context(size=1, groups=[{"id": "G1", "mission": "T"}]), ["U-61"])
    assert ("a squad of the imperial units here attacks the T group (G1 leader); the players "
            "fight it out") in reports(state)


# ============================================================================ immunities
def test_norrocks_ignore_the_creature_then_roll():
    # FIG-CHIT-13
    state = play(context(size=1, creature="Crunge",
                         groups=[{"id": "G1", "mission": "F", "holders": ["Norrocks"]}]),
                 ["U-45"])
    assert "Norrocks lets G1 ignore the attack of Crunge" in texts(state, "FIG-CHIT-13")
    assert "Norrocks must roll for becoming inoperable (their card)" in reports(state)


def test_yarro_latac_ignores_sentry_robots_but_mareg_does_not():
    # FIG-CHIT-13, FIG-CHIT-17: two bots attack where the Empire controls the planet.
    yarro = play(context(size=1, groups=[{"id": "G1", "mission": "F",
                                          "holders": ["Yarro Latac"]}]), ["U-45"])
    assert "Yarro Latac lets G1 ignore the attack of 2 sentry robots" in texts(yarro,
                                                                                "FIG-CHIT-13")
    mareg = play(context(size=1, groups=[{"id": "G1", "mission": "F",
                                          "holders": ["Professor Mareg"]}]), ["U-45"])
    assert ("2 sentry robots attack G1 (G1 leader); the players fight it out"
            in reports(mareg))


def test_yarro_latac_ignores_the_security_robot_norrocks_do_not():
    # FIG-CHIT-13: Security Measures! (found) with no enemy unit sends one sentry robot.
    base = dict(size=1, enemy_units=0)
    yarro = play(context(**base, groups=[{"id": "G1", "mission": "S",
                                          "holders": ["Yarro Latac"]}]), ["U-53"])
    assert "Yarro Latac lets G1 ignore the sentry robot" in texts(yarro, "FIG-CHIT-13")
    norrocks = play(context(**base, groups=[{"id": "G1", "mission": "S",
                                             "holders": ["Norrocks"]}]), ["U-53"])
    assert "one sentry robot attacks G1 (G1 leader); the players fight it out" in reports(
        norrocks)


def test_oneste_woada_may_ignore_locals():
    # FIG-CHIT-13: a "may" immunity is the phasing player's choice.
    ctx = start(context(size=1, groups=[{"id": "G1", "mission": "F",
                                         "holders": ["Oneste Woada"]}]), ["U-41"])
    assert ctx.state["pending"]["kind"] == "chit_immunity"
    reply(ctx, {"verb": "ignore"}, role="phasing")
    assert "Oneste Woada lets G1 ignore Locals attack!" in texts(ctx.state, "FIG-CHIT-13")
    ctx = start(context(size=1, groups=[{"id": "G1", "mission": "F",
                                         "holders": ["Oneste Woada"]}]), ["U-41"])
    reply(ctx, {"verb": "accept"})
    assert "the locals attack G1 (G1 leader); the players fight it out" in reports(ctx.state)


def test_advisor_android_may_ignore_breach_of_protocol():
    # FIG-CHIT-13, FIG-CHIT-17
    base = context(size=2, groups=[{"id": "G1", "mission": "D", "holders": ["Advisor Android"]}])
    state = play(base, ["U-23", "U-63"], answers=[("chit_immunity", {"verb": "ignore"})])
    assert grp(state, "G1")["status"] == "active" and len(letters(state, "G1")) == 1
    state = play(base, ["U-23", "U-63"], answers=[("chit_immunity", {"verb": "accept"})])
    assert grp(state, "G1")["status"] == "aborted"
    assert "loyalty moves one space toward the imperial" in reports(state)


# ============================================================================ bonus draws
def test_contacts_and_planetary_event_are_separate_gains():
    # FIG-CHIT-14
    state = play(context(size=2, groups=[{"id": "G1", "mission": "E", "bonus_draws": 0}]),
                 ["U-21", "U-36", "U-11", "U-12"])
    assert grp(state, "G1")["count"] == 2


def test_subtracting_events_reversed_or_ignored_by_side_flags():
    # FIG-CHIT-14: Unfamiliar Food Substance! and Delayed by Rumors! are separate losses.
    wild = dict(environs_type="wild", size=2, groups=[{"id": "G1", "mission": "E",
                                                       "bonus_draws": 3}])
    state = play(context(**wild), ["W-33", "W-35", "W-11"])
    assert grp(state, "G1")["count"] == 1
    state = play(context(**wild, flags={"reverse_subtracting": True}),
                 ["W-33", "W-35", "W-11", "W-12", "W-13", "W-14", "W-15"])
    assert grp(state, "G1")["count"] == 5
    state = play(context(**wild, flags={"ignore_subtracting": True}),
                 ["W-33", "W-35", "W-11", "W-12", "W-13"])
    assert grp(state, "G1")["count"] == 3
    assert texts(state, "FIG-CHIT-14")[0] == ("Delayed by Rumors! is ignored: the rebel ignores "
                                              "subtracting events")


def test_enemy_agent_turned_by_the_trap_or_ignored():
    # FIG-CHIT-14, FIG-CHIT-17: with the Trap! infiltrated the Rebel gains a draw instead.
    base = dict(size=1, groups=[{"id": "G1", "mission": "E", "bonus_draws": 0}])
    state = play(context(**base, flags={"trap_infiltrated": True}), ["U-56", "U-11"])
    assert grp(state, "G1")["status"] == "active" and grp(state, "G1")["count"] == 1
    assert state["detection"] is None
    state = play(context(**base, flags={"ignore_enemy_agent": True}), ["U-56"])
    assert grp(state, "G1")["status"] == "active" and state["detection"] is None
    state = play(context(**base), ["U-56"])
    assert grp(state, "G1")["status"] == "aborted" and state["detection"] == "detected"


# ============================================================================ letters, aborts
def test_letters_keep_their_chit_and_origin():
    # FIG-CHIT-15: regular and bonus letters recorded with their chit.
    state = play(context(size=1, groups=[{"id": "G1", "mission": "D", "bonus_draws": 2}]),
                 ["U-23", "U-25", "U-24"])
    assert letters(state, "G1") == [("D", "U-23", "regular"), ("D", "U-24", "bonus")]
    assert state["outcome"][0]["chits"] == ["U-23", "U-24"]


def test_an_abort_takes_every_letter():
    # FIG-CHIT-16: Enemy Agent! aborts one random mission and its letters are lost;
    # FIG-GEN-5: the random group is a d2 over the groups in assignment order (face 1: G1).
    state = play(context(size=2, groups=[{"id": "G1", "mission": "D", "bonus_draws": 2},
                                         {"id": "G2", "mission": "I", "bonus_draws": 2}]),
                 ["U-23", "U-56", "U-24", "U-52"], dice=dk(2, 1))
    g1 = grp(state, "G1")
    assert g1["status"] == "aborted" and g1["letters"] == [] and len(g1["lost"]) == 1
    assert letters(state, "G2") == [("I", "U-56", "regular"), ("I", "U-52", "bonus")]
    assert "G1 (D) is aborted by Enemy Agent!, losing 1 letter(s) (FIG-CHIT-16)" in reports(
        state)
    pick = next(e for e in state["log"] if e["kind"] == "draw" and e["dice"])
    assert pick["dice"][0]["die"] == "d2" and pick["dice"][0]["face"] == 1


# ============================================================================ action events
def test_breach_of_protocol_versions_and_diplomats():
    # FIG-CHIT-17: (abort) spares a diplomat's group; (abort & shift) only loses the shift.
    state = play(context(size=1), ["U-62"])
    assert grp(state, "G1")["status"] == "aborted" and not any("loyalty" in r
                                                                for r in reports(state))
    state = play(context(size=1, groups=[{"id": "G1", "mission": "D", "diplomat": True}]),
                 ["U-62"])
    assert grp(state, "G1")["status"] == "active"
    state = play(context(size=1, groups=[{"id": "G1", "mission": "D", "diplomat": True}]),
                 ["U-63"])
    assert grp(state, "G1")["status"] == "aborted"
    assert not any("loyalty" in r for r in reports(state))
    state = play(context(size=1, groups=[{"id": "G1", "mission": "E"}]), ["U-63"])
    assert events(state) == [("U-63", "no_mission")]


def test_flags_of_civil_disorder_populace_atrocity_and_infiltration():
    # FIG-CHIT-17: marked for the report.
    state = play(context(size=4), ["U-11", "U-12", "U-16", "U-32"])
    assert state["marks"] == ["civil_war", "populace_wild", "atrocity_allowed",
                              "enemy_revealed"]
    assert len([e for e in state["outcome"] if e["rule"] == "FIG-CHIT-17"]) == 4


def test_guide_and_scout_switch_events_off():
    # FIG-CHIT-17: Guide! ignores Locals attack!, Scout! ignores Creature attacks!.
    state = play(context(size=2), ["U-26", "U-41"])
    assert events(state) == [("U-26", "applied"), ("U-41", "ignored")]
    state = play(context(environs_type="wild", size=2, creature="Gach"), ["W-32", "W-42"])
    assert events(state) == [("W-32", "applied"), ("W-42", "ignored")]


def test_security_system_failure_switches_robots_off():
    # FIG-CHIT-5, FIG-CHIT-17: the event on no chit acts when an edited table carries it.
    tables = copy.deepcopy(dict(data().tables.tables))
    row = tables["chit_results"]["mugs"]["special"][0]
    row.update(event="Security System Failure!", version=None)
    fake = FreedomData(use_overrides=False)
    fake.__dict__["tables"] = tables
    scenario = {"id": "t", "context": context(environs_type="special", size=2)}
    state = chits.new_state(fake, scenario, {}, seed=1)
    ctx = chits.ChitContext(state, data=fake, rng=ScriptedRng(
        order(chit_tables(fake).mug("special"), ["S-11", "S-45"])))
    run(ctx)
    drive(ctx)
    assert "Creature attacks!: sentry robots are switched off here" in texts(state,
                                                                              "FIG-CHIT-17")


def test_robots_attack_only_where_the_enemy_controls_the_planet():
    # FIG-CHIT-17
    state = play(context(size=1, enemy_controls_planet=False), ["U-44"])
    assert ("Creature attacks!: 2 sentry robot(s), but they attack only where the imperial "
            "controls the planet") in texts(state, "FIG-CHIT-17")
    state = play(context(environs_type="wild", size=1), ["W-42"])
    assert "Creature attacks!: no creature is named and the chit sends no robot" in texts(
        state, "FIG-CHIT-17")


def test_locals_raid_and_disaster_strikes_the_enemy_chooses():
    # FIG-CHIT-17: the non-phasing side picks a unit or its PDB; two separate events.
    ctx = start(context(environs_type="special", size=2), ["S-15", "S-36"])
    assert ctx.state["pending"]["kind"] == "chit_enemy_loss"
    reply(ctx, {"verb": "lose_unit"}, role="enemy")
    # no unit left: Disaster strikes! can only put the PDB down, nobody is asked
    drive(ctx)
    assert ctx.state["environs"]["enemy_units"] == 0 and ctx.state["environs"]["pdb_up"] is False
    assert ("Disaster strikes!: the imperial puts its PDB down") in reports(ctx.state)


def test_medical_aid_now_or_at_a_later_regular_draw():
    # FIG-CHIT-17
    ctx = start(context(size=3, groups=[{"id": "G1", "mission": "E", "members": ["Zina Adora"]}]),
                ["U-31", "U-11", "U-12"])
    assert ctx.state["pending"]["kind"] == "chit_medical_aid"
    reply(ctx, {"verb": "later"})
    assert {"verb": "heal", "character": "Zina Adora"} in legal(ctx)
    reply(ctx, {"verb": "heal", "character": "Zina Adora"}, kind="chit_next")
    drive(ctx)
    assert "Medical Aid!: Zina Adora heals one wound" in reports(ctx.state)
    ctx = start(context(size=1), ["U-31"])
    assert {"verb": "later"} not in legal(ctx)


def test_accident_wounds_the_chosen_character():
    # FIG-CHIT-17
    state = play(context(environs_type="special", size=1,
                         groups=[{"id": "G1", "mission": "H", "members": ["Ly Mantis", "Doc"]}]),
                 ["S-35"], answers=[("chit_accident", {"verb": "wound", "character": "Doc"})])
    assert "Accident!: Doc takes one wound" in reports(state)


def test_security_measures_search_and_found():
    # FIG-CHIT-17: search needs enemy units; found is a squad, or Special Ops capture.
    state = play(context(size=1, groups=[{"id": "G1", "mission": "I"}]), ["U-52"])
    assert "the imperial units here may search for G1 (G1 leader)" in reports(state)
    state = play(context(size=1, enemy_units=0, groups=[{"id": "G1", "mission": "I"}]), ["U-52"])
    assert ("Security Measures! (search): no enemy unit here, detection only"
            in texts(state, "FIG-CHIT-17"))
    state = play(context(size=1, special_ops=True, groups=[{"id": "G1", "mission": "S"}]),
                 ["U-53"])
    assert "Special Ops capture G1 (G1 leader)" in reports(state)


# ============================================================================ coup, cells
@pytest.mark.parametrize("chit, face, expect", [
    ("U-64", 4, []),
    ("U-64", 5, ["Coup fails! backlash: loyalty moves 1 space toward the imperial"]),
    ("U-65", 6, ["Coup fails! backlash: loyalty moves 1 space toward the imperial",
                 "Ayo of the C group is captured"]),
    ("U-66", 6, ["Coup fails! backlash: loyalty moves 1 space toward the imperial",
                 "the whole C group (Ayo, Bey) is captured"]),
])
def test_coup_fails_backlash(chit, face, expect):
    # FIG-CHIT-18: d6 on the chit's variant; a random member for variant 2.
    dice = d6(face) + (dk(2, 1) if chit == "U-65" else [])
    state = play(context(size=1, groups=[{"id": "G1", "mission": "C", "members": ["Ayo", "Bey"]}]),
                 [chit], dice=dice)
    assert grp(state, "G1")["status"] == "aborted"
    assert [r for r in reports(state) if "backlash" in r or "captured" in r] == expect


def test_coup_fails_captures_nobody_without_enemies_here():
    # FIG-CHIT-18: the shift applies regardless, the capture needs enemy units or characters.
    state = play(context(size=1, enemy_units=0, groups=[{"id": "G1", "mission": "C"}]),
                 ["U-66"], dice=d6(6))
    assert reports(state)[-1] == "Coup fails! backlash: loyalty moves 1 space toward the imperial"
    assert "no imperial unit or character is here: nobody is captured" in texts(state,
                                                                                  "FIG-CHIT-18")


def test_rebel_cells_roll_after_the_regular_draws():
    # FIG-CHIT-23: success, nothing, another mission (taken by characters, or not) and letters.
    cells = [{"id": "c1", "mission": "D"}, {"id": "c2", "mission": "I"},
             {"id": "c3", "mission": "S"}, {"id": "c4", "mission": "S"}]
    bad = context(size=1, cells=cells)
    with pytest.raises(DataError):
        chits.new_state(data(), {"id": "t", "context": bad}, {}, seed=1)
    state = play(context(size=1, groups=[{"id": "G1", "mission": "T"}],
                         cells=[{"id": "c1", "mission": "D"}, {"id": "c2", "mission": "I"},
                                {"id": "c3", "mission": "S"}]),
                 ["U-11"], dice=d6(5, 6) + d6(3) + d6(1, 6))
    assert [c["result"] for c in state["cells"]] == [
        {"mission": "D", "letters": 2}, {"mission": None, "letters": 0},
        {"mission": None, "letters": 0}]
    assert "Rebel Cell c3: characters already perform T here, nothing happens" in texts(
        state, "FIG-CHIT-23")
    state = play(context(size=1, groups=[{"id": "G1", "mission": "E"}],
                         cells=[{"id": "c1", "mission": "I"}]),
                 ["U-11"], dice=d6(1, 2) + d6(4))
    assert state["cells"][0]["result"] == {"mission": "D", "letters": 1}
    # the log shows the cells rolling after the regular draw
    rules = [e["rule"] for e in state["log"]]
    assert rules.index("FIG-CHIT-23") > rules.index("FIG-CHIT-15")


# ============================================================================ bonus-only
def test_bonus_only_missions_draw_from_a_mug_of_their_own():
    # FIG-CHIT-19: J takes no regular draws and is hit by no event; its own mug.
    ctx = start(context(size=1, groups=[{"id": "G1", "mission": "D", "bonus_draws": 0},
                                        {"id": "G2", "mission": "J", "bonus_draws": 2}]),
                ["U-56"], dice=dk(1, 1) + side_order("urban", ["U-35", "U-45"]))
    drive(ctx)
    state = ctx.state
    assert grp(state, "G1")["status"] == "aborted" and grp(state, "G2")["status"] == "active"
    assert letters(state, "G2") == [("J", "U-35", "bonus"), ("J", "U-45", "bonus")]
    assert [d["draw"] for d in state["drawn"]] == ["regular", "bonus_only", "bonus_only"]
    assert ctx.rng.left == 0


def test_an_orbit_box_uses_the_urban_mug_for_q():
    # FIG-CHIT-19
    scenario = {"id": "t", "context": {"environs_type": "orbit", "phasing_side": "imperial",
                                       "groups": [{"id": "Q1", "mission": "Q",
                                                   "bonus_draws": 1}]}}
    state = chits.new_state(data(), scenario, {}, seed=1)
    assert state["environs"]["mug"] == "urban" and state["environs"]["size"] == 0
    ctx = chits.ChitContext(state, rng=ScriptedRng(side_order("urban", ["U-34"])))
    run(ctx)
    assert letters(state, "Q1") == [("Q", "U-34", "bonus")]
    assert state["outcome"][0]["letters"] == 1


# ============================================================================ D66, exhaustion
def test_d66_rolls_instead_of_draws_reroll_repeats():
    # FIG-CHIT-20: a result already rolled in this environs is rolled again.
    state = play(context(size=2, groups=[{"id": "G1", "mission": "D", "bonus_draws": -1}]),
                 dice=d66(2, 3) + d66(2, 3) + d66(6, 6),
                 options={"chit_method": "d66"})
    assert [d["chit"] for d in state["drawn"]] == ["U-23", "U-66"]
    assert "23 was already rolled here: rolled again" in texts(state, "FIG-CHIT-20")


def test_d66_repeats_allowed_by_option():
    # FIG-CHIT-20: allow_repeats accepts a repeated result.
    state = play(context(size=2, groups=[{"id": "G1", "mission": "D", "bonus_draws": -1}]),
                 dice=d66(2, 3) + d66(2, 3),
                 options={"chit_method": "d66", "allow_repeats": True})
    assert [d["chit"] for d in state["drawn"]] == ["U-23", "U-23"]
    assert events(state)[1] == ("U-23", "same")


def test_mug_exhaustion_yields_nothing():
    # FIG-CHIT-21: past the 36th chit, draws give nothing and the log says so.
    mug = chit_tables(data()).mug("urban")
    quiet = [c for c in mug if c not in ("U-31", "U-15", "U-53", "U-54", "U-55", "U-56",
                                          "U-14", "U-61", "U-62", "U-63", "U-64", "U-65",
                                          "U-66", "U-41", "U-42", "U-43")]
    state = play(context(size=6, enemy_units=0, enemy_controls_planet=False,
                         groups=[{"id": "G1", "mission": "A", "bonus_draws": 36}]),
                 quiet[:6] + [c for c in mug if c not in quiet[:6]])
    assert len(state["drawn"]) == 36
    assert texts(state, "FIG-CHIT-21")[0] == "bonus draw 31: the mug is empty, the draw yields nothing"


# ============================================================================ drama
def test_drama_redraw_and_the_bid_choice():
    # FIG-CHIT-22: the chit goes back, the other side picks the bid shift, a replacement is
    # drawn and must be kept; a bonus draw may be redone too.
    mug = chit_tables(data()).mug("urban")
    ctx = start(context(size=1, groups=[{"id": "G1", "mission": "R"}]), ["U-14"],
                options={"drama": True})
    assert ctx.state["pending"]["kind"] == "chit_drama" and ctx.state["pending"]["chit"] == "U-14"
    rest = [c for c in mug if c != "U-14"]
    ctx.rng.add(order(rest + ["U-14"], ["U-11"]))
    reply(ctx, {"verb": "drama"}, role="phasing")
    assert ctx.state["pending"]["kind"] == "chit_drama_bid"
    reply(ctx, {"verb": "bid", "choice": "easier_for_me"}, role="enemy")
    # the replacement is not offered for Drama again
    state = ctx.state
    assert state["outcome"] is not None
    assert [d["chit"] for d in state["drawn"]] == ["U-11"]
    assert letters(state, "G1") == [("R", "U-11", "regular")]
    assert "the imperial makes its own bid one turn easier (for the players' bid ledger)" in texts(
        state, "FIG-CHIT-22")
    assert ctx.rng.left == 0


# ============================================================================ cards, outcome
def test_event_cards_set_flags_and_reminders():
    # FIG-CHIT-24: G#7 reverses subtracting events for the Rebel; H#1's turn-1 row lets him
    # ignore Enemy Agent!; M#14 is a reminder.
    ctx = start(context(size=2, cards=["G#7", "H#1", "M#14", "G#6"], game_turn=1,
                        groups=[{"id": "G1", "mission": "E", "bonus_draws": 0}]),
                ["U-33", "U-56", "U-11"])
    state = ctx.state
    assert state["flags"] == {"trap_infiltrated": False, "ignore_enemy_agent": True,
                              "ignore_subtracting": True, "reverse_subtracting": True}
    drive(ctx)
    assert grp(state, "G1")["count"] == 1 and grp(state, "G1")["status"] == "active"
    notes = texts(state, "FIG-CHIT-24")
    assert any(n.startswith("reminder, M#14 Emperor in a rare mood") for n in notes)
    assert not any("G#6" in n for n in notes)          # the Imperial's card, not the Rebel's


def test_outcome_points_to_the_seed_outcome_rules():
    # FIG-CHIT-25: letters per group with origin and the seed 003 pointer.
    state = play(context(size=1, groups=[{"id": "G1", "mission": "I", "bonus_draws": 1}]),
                 ["U-21", "U-34", "U-11"])
    first = state["outcome"][0]
    assert first["text"] == ("G1 (I): 2 letter(s), 1 from regular and 1 from bonus draws; seed "
                             "003 L1811-2092 says what they achieve")
    assert all("rule" in e and "text" in e for e in state["outcome"])
