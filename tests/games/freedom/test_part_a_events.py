"""The Random Events table (the FIG-RE rules: each test names the row it checks), Coup Aborted
(FIG-CA-1) and the rules of the steps that decide whether and whom an event strikes (FIG-MIS-6,
FIG-MIS-7, FIG-MIS-8, FIG-MIS-9, FIG-MIS-10, FIG-MIS-11, FIG-MIS-12, FIG-MIS-13), each checked
on a one-step environs with scripted dice."""

from __future__ import annotations

import pytest

from tests.games.freedom.helpers import (ScriptedDice, answers, at_hook, changes, char, drive,
                                         group, make, new, notes, rolls, stop_at_bonus)

D_GROUP = [{"mission": "D", "leader": "Vudot Vodot", "members": ["Zina Adora"]}]
#: Success 52 scores C and I: nothing for the groups below.
NOTHING = "p2d6:5,2"


def one_step(event: str, after: str = NOTHING, decide=None, assignment=D_GROUP, **context):
    """One step (event ``event`` = "t,u", then ``after``: the faces that follow, success roll
    included), stopped at the first bonus roll."""
    state = make(assignment=assignment, **context)
    return drive(state, ScriptedDice(f"p2d6:{event} {after}"), decide, stop=stop_at_bonus)


# ----------------------------------------------------------------------------- the rows
def test_fig_re_1_accident_hurts_a_random_character_of_the_active_groups():
    """FIG-RE-1 (2 hits), FIG-MIS-8 (characters of active groups, leader first: d2 2 is Zina),
    FIG-HOOK-8 (hits recorded, nothing decided), FIG-MIS-13 (Ly Mantok, off mission, immune)."""
    state = one_step("1,1", f"d2:2 {NOTHING}",
                     characters=[{"name": "Vudot Vodot", "side": "rebel"},
                                 {"name": "Zina Adora", "side": "rebel"},
                                 {"name": "Ly Mantok", "side": "rebel"}])
    assert ("FIG-RE-1", "d2:2", 2) in rolls(state)
    assert char(state, "Zina Adora")["hits"] == 2 and not char(state, "Zina Adora")["dead"]
    assert char(state, "Vudot Vodot")["hits"] == 0 and char(state, "Ly Mantok")["hits"] == 0


def test_fig_re_2_patrol_from_a_random_enemy_ground_unit():
    """FIG-RE-2: the group first (d2), then the unit (d2) among the ground units (not the landed
    starship), then FIG-HOOK-3 with the unit's data."""
    seen = {}

    def decide(state, p):
        if p["kind"] == "hook":
            seen.update(p["data"])
            return {"verb": "result", "result": "no_effect"}
        return None

    units = [{"id": "U1", "side": "imperial", "kind": "2nd_line", "af": 2},
             {"id": "U2", "side": "imperial", "kind": "landed_starship", "af": 5},
             {"id": "U3", "side": "imperial", "kind": "stormtrooper", "af": 3, "leader": 2}]
    assignment = D_GROUP[:1] + [{"mission": "I", "leader": "Ly Mantok"}]
    assignment[0] = {"mission": "D", "leader": "Vudot Vodot"}
    state = one_step("1,2", f"d2:1 d2:2 {NOTHING}", decide, assignment=assignment, units=units,
                     characters=[{"name": "Vudot Vodot", "side": "rebel"},
                                 {"name": "Ly Mantok", "side": "rebel"}])
    assert [r[:2] for r in rolls(state, "FIG-RE-2")] == [("FIG-RE-2", "d2:1"),
                                                        ("FIG-RE-2", "d2:2")]
    assert seen["unit"]["id"] == "U3" and "leader 2" in seen["source"]
    assert any("FIG-HOOK-3" == e["rule"] for e in state["log"])


def test_fig_re_2_militia_patrol_or_no_event_checked_before_any_roll():
    """FIG-RE-2: no enemy ground unit but the enemy controls the planet: a militia and
    conscript patrol; neither: no event and no die rolled."""
    state = one_step("1,2", NOTHING, units=[])
    hook = next(e for e in state["log"] if e["rule"] == "FIG-HOOK-3")
    assert hook["auto_default"]
    assert rolls(state, "FIG-RE-2") == []
    state = one_step("1,2", NOTHING, units=[], controller="none")
    assert "no patrol" in notes(state, "FIG-RE-2")[-1]
    assert not [e for e in state["log"] if e["rule"] == "FIG-HOOK-3"]


def test_fig_re_4_civil_war():
    """FIG-RE-4: loyalty to neutral; active C, D, E, R aborted (levels lost, FIG-MIS-12); active
    B, F, H, S +1 bonus roll; a starred row counts once (FIG-MIS-9)."""
    assignment = [{"mission": "D", "leader": "Vudot Vodot"}, {"mission": "S", "leader": "Ly Mantok",
                                                               "target": "U1"}]
    state = one_step("1,4", "p2d6:4,3", assignment=assignment, loyalty="patriotic",
                     characters=[{"name": "Vudot Vodot", "side": "rebel"},
                                 {"name": "Ly Mantok", "side": "rebel"}])
    assert state["environs"]["loyalty"] == "neutral"
    assert ("FIG-RE-4", "Civil war: loyalty goes from patriotic to neutral") in changes(
        {"outcome": state["changes"]})
    assert group(state, "G1")["status"] == "aborted"
    assert group(state, "G2")["bonus_adj"] == 1 and group(state, "G2")["level"] == 1
    assert state["flags"]["occurred"] == ["FIG-RE-4"]


def test_fig_re_4_keeps_a_rebellion_state():
    """FIG-RE-4: keeps a rebellion state."""
    state = one_step("1,4", "", planet_state="in_rebellion", loyalty=None,
                     controller="none")
    assert state["environs"]["planet_state"] == "in_rebellion"
    assert group(state, "G1")["status"] == "aborted"


def test_fig_re_5_the_phasing_player_chooses_the_pdb_or_the_weakest_unit():
    """FIG-RE-5: with a PDB up and two weakest units the phasing player is asked; the unit is
    damaged."""
    units = [{"id": "U1", "side": "imperial", "kind": "2nd_line", "af": 2},
             {"id": "U2", "side": "imperial", "kind": "conscript", "af": 2},
             {"id": "U3", "side": "imperial", "kind": "1st_line", "af": 3}]
    asked = []

    def decide(state, p):
        if p["kind"] == "raid":
            asked.append(p["options"])
            return {"verb": "raid", "target": "U2"}
        return None

    state = one_step("1,5", NOTHING, decide, units=units, pdb=1)
    assert asked == [["pdb", "U1", "U2"]]
    assert state["environs"]["units"][1]["damaged"] and not state["environs"]["pdb_down"]
    state = one_step("1,5", NOTHING, units=[], pdb=1)
    assert state["environs"]["pdb_down"]


def test_fig_re_6_atrocity_is_the_imperial_players_and_starred():
    """FIG-RE-6 with FIG-HOOK-5: the Imperial role answers; a second 16 is no event
    (FIG-MIS-9)."""
    roles = []

    def decide(state, p):
        if p["kind"] == "hook" and p["hook"] == "atrocity":
            roles.append(p["role"])
            return {"verb": "atrocity", "committed": True}
        return None

    state = make(size=2, assignment=D_GROUP)
    state = drive(state, ScriptedDice(f"p2d6:1,6 {NOTHING} p2d6:1,6 {NOTHING}"), decide,
                  stop=stop_at_bonus)
    assert roles == ["enemy"]
    assert [r for r, _ in changes({"outcome": state["changes"]}, "reminder")] == ["FIG-HOOK-5"]
    assert "FIG-RE-6 has already happened" in notes(state, "FIG-MIS-9")[0]


def test_fig_re_8_and_fig_mis_13_detection_reaches_everyone():
    """FIG-RE-8: every phasing character here is detected, on a mission or not (FIG-MIS-13)."""
    state = one_step("2,2", NOTHING, characters=[{"name": "Vudot Vodot", "side": "rebel"},
                                                 {"name": "Zina Adora", "side": "rebel"},
                                                 {"name": "Kogus", "side": "rebel"}])
    assert all(c["detected"] for c in state["environs"]["characters"])


def test_fig_re_9_search_and_fig_re_14_forbids_it():
    """FIG-RE-9: detection, then the enemy searches a random group (FIG-HOOK-4, role enemy);
    after FIG-RE-14 the detection still happens but the search does not."""
    hooks = []

    def decide(state, p):
        if p["kind"] == "hook":
            hooks.append((p["hook"], p["role"], p["group"]))
        return None

    state = one_step("2,3", NOTHING, decide)
    assert hooks == [("search", "enemy", "G1")]
    hooks.clear()
    state = make(size=2, assignment=D_GROUP)
    state = drive(state, ScriptedDice(f"p2d6:4,5 {NOTHING} p2d6:2,4 {NOTHING}"), decide,
                  stop=stop_at_bonus)
    assert hooks == []
    assert char(state, "Vudot Vodot")["detected"]
    assert notes(state, "FIG-RE-14")[-1].startswith("Friendly locals forbid searches")


def test_fig_re_10_and_fig_re_20_change_bonus_rolls():
    """FIG-RE-10: +1 to every active group; FIG-RE-20: -1 to one random group (FIG-BDR-10)."""
    assert group(one_step("2,6"), "G1")["bonus_adj"] == 1
    assert group(one_step("5,6"), "G1")["bonus_adj"] == -1


def test_fig_re_13_a_possession_for_a_random_group_the_player_names_the_carrier():
    """FIG-RE-13: a group (one candidate: no roll), a possession drawn from the pool (d3), and
    the phasing player says which member carries it."""
    def decide(state, p):
        if p["kind"] == "receiver":
            assert p["members"] == ["Vudot Vodot", "Zina Adora"]
            return {"verb": "give", "character": "Zina Adora"}
        return None

    state = one_step("4,1", f"d3:2 {NOTHING}", decide,
                     possession_pool=["Rare Gems", "Charsot", "HES Rifle"])
    assert char(state, "Zina Adora")["possessions"] == ["Charsot"]
    assert state["environs"]["possession_pool"] == ["Rare Gems", "HES Rifle"]


def test_fig_re_13_gives_a_mulligan_to_the_imperial_side_or_on_an_empty_pool():
    """FIG-RE-13: gives a mulligan to the Imperial side or on an empty pool."""
    state = one_step("4,2", NOTHING, possession_pool=[])
    assert state["environs"]["mulligans"]["rebel"] == 1
    imperial = {"phasing_side": "imperial", "characters": [{"name": "Jon Kidu",
                                                            "side": "imperial"}],
                "units": [{"side": "rebel", "kind": "irregular", "af": 1}]}
    state = one_step("4,3", NOTHING, assignment=[{"mission": "D", "leader": "Jon Kidu"}],
                     **imperial)
    assert state["environs"]["mulligans"]["imperial"] == 1


def test_fig_re_15_enemy_spy_aborts_a_random_mission_and_detects():
    """FIG-RE-15: enemy spy aborts a random mission and detects."""
    assignment = [{"mission": "D", "leader": "Vudot Vodot"}, {"mission": "I", "leader": "Zina Adora"}]
    state = one_step("5,1", f"d2:2 {NOTHING}", assignment=assignment)
    assert group(state, "G2")["status"] == "aborted" and group(state, "G1")["status"] == "active"
    assert char(state, "Vudot Vodot")["detected"]


def test_fig_re_16_aborts_only_a_rebel_r_and_detects_anyway():
    """FIG-RE-16: a Rebel R ends; an Imperial R does not; everyone is detected either way."""
    state = one_step("5,2", "", assignment=[{"mission": "R", "leader": "Vudot Vodot"}],
                     loyalty="unrest")
    assert group(state, "G1")["status"] == "aborted" and char(state, "Zina Adora")["detected"]
    imperial = {"phasing_side": "imperial", "planet_state": "in_rebellion", "loyalty": None,
                "controller": "none", "characters": [{"name": "Jon Kidu", "side": "imperial"}],
                "units": []}
    state = one_step("5,2", NOTHING, assignment=[{"mission": "R", "leader": "Jon Kidu"}],
                     **imperial)
    assert group(state, "G1")["status"] == "active" and char(state, "Jon Kidu")["detected"]


def test_fig_re_17_wrong_soldier_patrol_or_capture():
    """FIG-RE-17: T ends; the target unit raises a patrol (FIG-HOOK-3), or, with a leader,
    the group is captured; everyone is detected."""
    t = [{"mission": "T", "leader": "Vudot Vodot", "target": "U1"}]
    state = one_step("5,3", "", assignment=t)
    assert group(state, "G1")["status"] == "aborted"
    assert any(e["rule"] == "FIG-HOOK-3" for e in state["log"])
    led = [{"id": "U1", "side": "imperial", "kind": "2nd_line", "af": 2, "leader": 1}]
    state = one_step("5,3", "", assignment=t, units=led)
    assert char(state, "Vudot Vodot")["captured"] and not char(state, "Zina Adora")["captured"]
    assert char(state, "Zina Adora")["detected"]


def test_fig_re_18_political_dispute_asks_the_diplomacy_it_needs():
    """FIG-RE-18: the D leader's diplomacy is asked of its owner (FIG-CTX-9); below 2 the
    mission ends; 2 or more it goes on."""
    asked = []

    def low(state, p):
        if p["kind"] == "value":
            asked.append((p["character"], p["field"], p["role"]))
            return {"verb": "enter", "value": 1}
        return None

    state = one_step("5,4", "", low)
    assert asked == [("Vudot Vodot", "diplomacy", "phasing")]
    assert group(state, "G1")["status"] == "aborted"
    state = one_step("5,4", NOTHING, characters=[{"name": "Vudot Vodot", "side": "rebel",
                                                  "diplomacy": 2},
                                                 {"name": "Zina Adora", "side": "rebel"}])
    assert group(state, "G1")["status"] == "active"


def test_fig_re_19_protocol_blunder_aborts_d_and_shifts_toward_the_enemy():
    """FIG-RE-19: protocol blunder aborts D and shifts toward the enemy."""
    state = one_step("5,5", "")
    assert group(state, "G1")["status"] == "aborted"
    assert state["environs"]["loyalty"] == "loyal"
    state = one_step("5,5", NOTHING, assignment=[{"mission": "I", "leader": "Vudot Vodot"}])
    assert state["environs"]["loyalty"] == "neutral"       # no D: no effect at all


def test_fig_re_21_and_fig_ca_1_coup_aborted_rows():
    """FIG-RE-21 and FIG-CA-1: 2 all die, 3 all captured, 4 one random member captured (dk)
    and everyone detected, 6 a shift and detection, 7+ nothing more; a shift is one space
    toward the enemy; without an active C the row does nothing."""
    coup = [{"mission": "C", "leader": "Vudot Vodot", "members": ["Zina Adora"]}]
    base = dict(assignment=coup, coup_rating=2,
                characters=[{"name": "Vudot Vodot", "side": "rebel", "intelligence": 3},
                            {"name": "Zina Adora", "side": "rebel"}])
    state = one_step("6,1", "2d6:1,1", **base)
    assert char(state, "Vudot Vodot")["dead"] and char(state, "Zina Adora")["dead"]
    assert state["environs"]["loyalty"] == "loyal"
    state = one_step("6,2", "2d6:1,2", **base)
    assert char(state, "Vudot Vodot")["captured"] and char(state, "Zina Adora")["captured"]
    state = one_step("6,3", "2d6:2,2 d2:2", **base)
    assert char(state, "Zina Adora")["captured"] and not char(state, "Vudot Vodot")["captured"]
    assert char(state, "Vudot Vodot")["detected"]
    state = one_step("6,1", "2d6:3,3", **base)
    assert state["environs"]["loyalty"] == "loyal" and char(state, "Zina Adora")["detected"]
    state = one_step("6,1", "2d6:6,6", **base)
    assert state["environs"]["loyalty"] == "neutral" and not char(state, "Zina Adora")["detected"]
    assert group(state, "G1")["status"] == "aborted"
    state = one_step("6,2", NOTHING)
    assert notes(state, "FIG-RE-21")[-1] == "No active C mission: no effect"


def test_fig_re_22_and_fig_re_23_are_remembered():
    """FIG-RE-22 and FIG-RE-23: are remembered."""
    assert one_step("6,4")["flags"]["populace_wild"]
    state = make(assignment=D_GROUP)
    state = drive(state, ScriptedDice(f"p2d6:6,6 {NOTHING}"))
    assert state["flags"]["bonus_cancelled"] and group(state, "G1")["rolled"] == 0


def test_fig_re_3_and_fig_re_7_ignore_later_events_entirely():
    """FIG-MIS-10: after FIG-RE-3 a creature attack is ignored; after FIG-RE-7 an event that
    would abort (FIG-MIS-11) is ignored, but one that would abort nothing applies (FIG-RE-16
    with no Rebel R still detects)."""
    state = make(size=2, assignment=D_GROUP)
    state = drive(state, ScriptedDice(f"p2d6:1,3 {NOTHING} p2d6:3,1 {NOTHING}"),
                  stop=stop_at_bonus)
    assert "out of season" in notes(state, "FIG-MIS-10")[0]
    state = make(size=3, assignment=D_GROUP)
    state = drive(state, ScriptedDice(f"p2d6:2,1 {NOTHING} p2d6:5,5 {NOTHING} "
                                      f"p2d6:5,2 {NOTHING}"), stop=stop_at_bonus)
    assert group(state, "G1")["status"] == "active" and state["environs"]["loyalty"] == "neutral"
    assert "FIG-RE-19 would abort G1" in notes(state, "FIG-MIS-11")[0]
    assert char(state, "Vudot Vodot")["detected"]         # FIG-RE-16 applied


def test_fig_mis_11_political_dispute_under_a_lucky_strike_depends_on_diplomacy():
    """FIG-MIS-11 reads the actual situation: a diplomat of 3 would not be aborted, so the row
    applies (and does nothing)."""
    state = make(size=2, assignment=D_GROUP,
                 characters=[{"name": "Vudot Vodot", "side": "rebel", "diplomacy": 3},
                             {"name": "Zina Adora", "side": "rebel"}])
    state = drive(state, ScriptedDice(f"p2d6:2,1 {NOTHING} p2d6:5,4 {NOTHING}"),
                  stop=stop_at_bonus)
    assert notes(state, "FIG-MIS-11") == []
    assert "diplomacy 3 holds" in notes(state, "FIG-RE-18")[-1]


def test_fig_mis_8_cells_and_camps_are_never_struck():
    """FIG-MIS-8, FIG-MSN-15: a camp's group is active and scores, but an event aimed at a
    group picks among the character groups only, and the camp ignores civil war."""
    assignment = [{"mission": "D", "leader": "Vudot Vodot"}, {"mission": "S", "performer": "Camp 1",
                                                               "target": "U1"}]
    state = one_step("1,4", "p2d6:4,3", assignment=assignment,
                     cells=[{"id": "Camp 1", "kind": "camp"}])
    assert group(state, "G1")["status"] == "aborted"
    assert group(state, "G2")["status"] == "active" and group(state, "G2")["level"] == 1
    assert group(state, "G2")["bonus_adj"] == 0


@pytest.mark.parametrize("event", ["1,1", "1,2", "3,1", "3,5", "4,1", "5,1", "5,6"])
def test_fig_mis_8_no_candidate_no_effect(event):
    """FIG-MIS-8: with no active character group, an event aimed at one has no effect and
    rolls nothing (only the camp is out, and it ignores events)."""
    state = make(assignment=[{"mission": "S", "performer": "Camp 1", "target": "U1"}],
                 cells=[{"id": "Camp 1", "kind": "camp"}], races=["Anons"], creature="Gragg")
    state = drive(state, ScriptedDice(f"p2d6:{event} p2d6:4,3"))
    assert [r[0] for r in rolls(state)] == ["FIG-MIS-6", "FIG-MS-1"]
    assert group(state, "G1")["level"] == 1


def test_fig_mis_6_fig_mis_14_one_success_roll_for_all_active_groups():
    """FIG-MIS-6: a step is the event, then one success roll shared by every active group;
    FIG-MIS-14: each group whose letter shows gains a level (42 "S I")."""
    assignment = [{"mission": "S", "leader": "Vudot Vodot", "target": "U1"},
                  {"mission": "I", "leader": "Zina Adora"}, ]
    state = one_step("2,6", "p2d6:4,2", assignment=assignment)
    assert [group(state, g)["level"] for g in ("G1", "G2")] == [1, 1]
    assert len(rolls(state, "FIG-MS-1")) == 1


def test_fig_mis_16_call_off_keeps_levels_and_immunity():
    """FIG-MIS-16: a group called off keeps its level, is no longer a target and gets no bonus
    rolls; FIG-MIS-17: with nothing active the remaining steps are skipped, unless the option
    asks for full-length segments."""
    decide = answers((lambda s, p: p["kind"] == "call_off",
                      {"verb": "call_off", "group": "G1"}))
    state = make(size=3, assignment=D_GROUP)
    state = drive(state, ScriptedDice("p2d6:2,6 p2d6:1,3"), decide)
    assert group(state, "G1")["status"] == "called_off" and group(state, "G1")["level"] == 1
    assert state["turn"] == 1 and "remaining 2 steps are skipped" in notes(state, "FIG-MIS-17")[0]
    assert state["environs"]["loyalty"] == "dissent"
    decide = answers((lambda s, p: p["kind"] == "call_off",
                      {"verb": "call_off", "group": "G1"}))
    state = make(size=3, assignment=D_GROUP, options={"continue_steps_when_idle": True})
    state = drive(state, ScriptedDice("p2d6:2,6 p2d6:1,3 p2d6:1,1 p2d6:2,2"), decide)
    assert state["turn"] == 3
    assert char(state, "Vudot Vodot")["hits"] == 0      # FIG-RE-1 found nobody on a mission
    assert char(state, "Vudot Vodot")["detected"]       # but FIG-RE-8 reaches everyone


def test_fig_mis_12_an_aborted_mission_loses_its_levels_and_fails_no_roll():
    """FIG-MIS-12: level 1 lost at the abort; no bonus rolls, no failure roll (an A group)."""
    assignment = [{"mission": "A", "leader": "Vudot Vodot", "target": "Jin Voles"}]
    state = make(size=2, assignment=assignment,
                 characters=[{"name": "Vudot Vodot", "side": "rebel"},
                             {"name": "Jin Voles", "side": "imperial", "detected": True}])
    state = drive(state, ScriptedDice("p2d6:2,6 p2d6:1,1 p2d6:5,1"))
    assert group(state, "G1")["status"] == "aborted" and group(state, "G1")["level"] == 0
    assert rolls(state, "FIG-MSN-1") == [] and rolls(state, "FIG-MIS-19") == []
    assert any("level 1 is lost" in n for n in notes(state, "FIG-RE-15"))
    assert not char(state, "Jin Voles")["dead"]


def test_hook_results_can_kill_a_leader_and_a_new_one_is_named():
    """FIG-HOOK-1: a member killed in a fight leaves the group; a lost leader is replaced by
    one the phasing player names; a group with nobody left is aborted."""
    decide = answers((at_hook("search"), {"verb": "kill", "character": "Vudot Vodot"}),
                     (at_hook("search"), {"verb": "result", "result": "found"}))
    state = one_step("2,3", NOTHING, decide)
    g = group(state, "G1")
    assert g["leader"] == "Zina Adora" and g["members"] == ["Zina Adora"]
    assert char(state, "Vudot Vodot")["dead"]
    assert "Zina Adora now leads G1" in notes(state, "FIG-HOOK-1")
    decide = answers((at_hook("search"), {"verb": "capture", "character": "Vudot Vodot"}),
                     (at_hook("search"), {"verb": "result", "result": "found"}))
    state = one_step("2,3", "", decide, assignment=[{"mission": "D",
                                                          "leader": "Vudot Vodot"}])
    assert group(state, "G1")["status"] == "aborted"
    assert char(state, "Vudot Vodot")["captured"]


def test_fig_mis_7_and_fig_mis_18_j_and_q_sit_out_the_steps():
    """FIG-MIS-7, FIG-MIS-18: a Q group is not active: a success roll showing Q gives it
    nothing during the steps, and an event aimed at one group cannot pick it (the spy finds
    only the D group, no roll); it resolves in the bonus segment."""
    assignment = [{"mission": "Q", "leader": "Zina Adora", "target": "Jin Voles"},
                  {"mission": "D", "leader": "Vudot Vodot"}]
    characters = [{"name": "Vudot Vodot", "side": "rebel"}, {"name": "Zina Adora", "side": "rebel"},
                  {"name": "Jin Voles", "side": "imperial", "captured": True, "intelligence": 1}]
    state = make(size=2, assignment=assignment, characters=characters)
    state = drive(state, ScriptedDice("p2d6:2,6 p2d6:2,5 p2d6:5,1"), stop=stop_at_bonus)
    q, d = group(state, "G1"), group(state, "G2")
    assert q["status"] == "waiting" and q["level"] == 0 and q["bonus_adj"] == 0
    assert d["status"] == "aborted" and state["turn"] == 2
    assert rolls(state, "FIG-RE-15") == []
    assert state["pending"]["group"] == "G1"


def test_fig_mis_2_the_segments_come_in_order():
    """FIG-MIS-2: recruitment, assignment, the steps, the bonus rolls, the failures, the
    resolution and the report, in that order in the log (scenario A3's course)."""
    from struggle_desktop.games.freedom.resolver import SEGMENTS
    from tests.games.freedom.test_part_a_scenarios import A3, a3_decisions

    state = drive(new("a3"), ScriptedDice(A3), a3_decisions())
    order = [SEGMENTS.index(e["phase"]) for e in state["log"]]
    assert order == sorted(order)
    assert [SEGMENTS[i] for i in sorted(set(order))] == list(SEGMENTS)
