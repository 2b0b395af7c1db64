"""Rules tests for Phase 1 (Chaos Events) and the 39 chaos event markers (events.py).

Positions start from Scenario 1 with the map cleared (``empty_game``); markers are forced either
by calling their resolver directly (``resolve``) or by running Phase 1 on a chosen pool with a
chosen number of draws (``phase1_with``). Dice are scripted with ``ScriptedRng``: a random
sector takes two values (``sector_faces``), a d10 one value, a draw from n things one value
below n. Each test's docstring names the rule IDs it exercises.
"""

from __future__ import annotations

import json

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import GAME, events
from struggle_desktop.games.struggle.combat import imperial_event_modifiers
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (ScriptedRng, act, begin_phase, clear_map, context,
                                          legal, marker_count, new_game, put_force, put_system,
                                          put_unit, run, sector_faces, set_ci, set_pool)

G = GAME.data.galaxy
DATA = GAME.data


def empty_game(turn: int = 2, **options) -> dict:
    """Scenario 1, map cleared, at the start of Phase 1 of ``turn``; options as given; no
    Repression marker available (tests of Suppression add them)."""
    state = clear_map(new_game("1", seed=1))
    state["options"].update(options)
    state["available"]["repression"] = 0
    begin_phase(state, 1, turn=turn)
    return state


def resolve(state: dict, m: str, dice=(), ev: dict | None = None, fallback: bool = False):
    """Call marker m's resolver once with scripted dice; returns (result, ev, rng)."""
    rng = ScriptedRng(dice, fallback=Rng.from_seed(5) if fallback else None)
    ctx = context(state, rng)
    ev = ev if ev is not None else {"marker": m}
    result = events.MARKERS[m](ctx, ev)
    ctx.close()
    return result, ev, rng


def phase1_with(state: dict, pool: list[str], draws: int, dice=(), fallback: bool = False,
                discard=()) -> ScriptedRng:
    """Run Phase 1 with the pool given and N already fixed at ``draws`` (skips steps 1-2)."""
    set_pool(state, pool, discard)
    state["stack"] = [{"proc": "phase1", "left": draws, "ev": None, "no_redraw": []}]
    rng = ScriptedRng(dice, fallback=Rng.from_seed(5) if fallback else None)
    run(state, rng)
    return rng


def rules_logged(state: dict) -> set[str]:
    return {e["rule"] for e in state["log"]}


# ============================================================================ number of draws
@pytest.mark.parametrize("ci, expected", [(0, 0), (0.5, 2), (20, 2), (20.5, 4), (40, 4), (41, 6),
                                          (60, 6), (79.5, 8), (80, 8), (80.5, 10), (99, 10)])
def test_draws_per_ci_band(ci, expected):
    """SGE-CI-10: one round draws 2 x ceil(CI / 20) markers, read from the ci_track table."""
    state = empty_game(turn=2)
    set_ci(state, ci)
    assert events.draws_this_turn(context(state)) == expected
    if ci > 0:
        assert expected == 2 * -(-int(ci * 2) // 40)


@pytest.mark.parametrize("scenario, expected", [("1", 6), ("3", 16), ("6", 24)])
def test_first_turn_rounds(scenario, expected):
    """SGE-CI-11, SGE-CI-12: turn 1 draws rounds x markers per round at the starting CI
    (Scenario 1: one round at CI 50; Scenario 3: two at CI 80; Scenario 6: three at CI 70)."""
    state = new_game(scenario, seed=2)
    begin_phase(state, 1, turn=1)
    assert events.draws_this_turn(context(state)) == expected
    begin_phase(state, 1, turn=2)      # later turns: one round
    assert events.draws_this_turn(context(state)) == expected // state["scenario_rules"]["first_turn_rounds"]


def test_institute_on_chaos_system_adds_a_draw():
    """SGE-CI-10, SGE-EV-INSTITUTE, SGE-POOL-17: an Institute on a Chaos system placed before
    this turn adds one draw; not on the turn it arrives, not on an Imperial system, not
    without a system unit."""
    state = empty_game(turn=3)
    set_ci(state, 30)                                        # 4 per round
    put_system(state, 12, CHAOS)
    put_system(state, 13, IMP)
    state["institutes"] = [{"loc": 12, "placed": 2}]
    assert events.draws_this_turn(context(state)) == 5
    state["institutes"] = [{"loc": 12, "placed": 3}]
    assert events.draws_this_turn(context(state)) == 4
    state["institutes"] = [{"loc": 13, "placed": 1}]
    assert events.draws_this_turn(context(state)) == 4
    state["institutes"] = [{"loc": 14, "placed": 1}]         # no system unit there
    assert events.draws_this_turn(context(state)) == 4


def test_phase_draws_n_markers_one_at_a_time():
    """SGE-SEQ-3, SGE-POOL-2: N is computed at the start of the phase and markers are drawn
    one by one without replacement, each draw logged; the phase then ends."""
    state = empty_game(turn=2)
    set_ci(state, 20)
    set_pool(state, ["STORM"] * 5)
    run(state, ScriptedRng([4, 0]))
    assert state["stack"] == [] and state["pending"] is None
    assert state["pool"] == ["STORM"] * 3 and state["discard"] == ["STORM"] * 2
    draws = [e for e in state["log"] if e["rule"] == "SGE-POOL-2"]
    assert [e["text"].split("(")[1].split(")")[0] for e in draws] == ["5 of 5", "1 of 4"]
    assert state["in_event"] is False


def test_empty_pool_takes_the_discard_pile_back():
    """SGE-POOL-3: an empty pool is refilled from the discard pile; with both empty the phase
    ends at once."""
    state = empty_game()
    phase1_with(state, [], 2, dice=[0, 0], discard=["STORM", "STORM"])
    assert state["pool"] == [] and state["discard"] == ["STORM", "STORM"]
    assert any(e["rule"] == "SGE-POOL-3" and "shuffled back" in e["text"] for e in state["log"])
    state = empty_game()
    phase1_with(state, [], 3)
    assert state["stack"] == []
    assert "both empty" in state["log"][-1]["text"]


def test_phase_state_survives_a_save_at_a_prompt():
    """SGE-SEQ-3, SGE-RES-9: Phase 1 resumes from a saved prompt (JSON round trip) exactly as
    the uninterrupted game does."""
    state = empty_game()
    state["rp"] = 2
    for n in (12, 13, 14):
        put_unit(state, "SF", n)
    phase1_with(state, ["TROOPS-PAY"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_unpaid"
    saved = json.loads(json.dumps(state))
    act(state, {"verb": "leave_unpaid", "unit": "SF-01"}, ScriptedRng([1]))
    act(saved, {"verb": "leave_unpaid", "unit": "SF-01"}, ScriptedRng([1]))
    state.pop("rng"), saved.pop("rng")
    assert state == saved
    assert state["stack"] == [] and state["rp"] == 0 and state["units"]["SF-01"]["side"] == CHAOS


# ============================================================================ Institute cancel
def test_institute_cancels_a_revealed_marker_once_per_turn():
    """SGE-EV-INSTITUTE, SGE-POOL-10, SGE-SEQ-3: an Institute on an Imperial system placed
    earlier lets the player send one revealed marker back to the pool, unresolved and with no
    substitute (the draw still counts); once per turn."""
    state = empty_game(turn=3)
    put_system(state, 12, IMP)
    state["institutes"] = [{"loc": 12, "placed": 2}]
    start_ci = state["ci2"]
    phase1_with(state, ["SMASH", "STORM"], 2, dice=[0])
    assert state["pending"]["kind"] == "event_institute"
    assert legal(state) == [{"verb": "cancel_event"}, {"verb": "allow_event"}]
    act(state, {"verb": "cancel_event"}, ScriptedRng([0]))   # the 2nd draw: STORM, no offer
    assert state["stack"] == [] and state["pending"] is None
    assert state["pool"] == ["SMASH"] and state["discard"] == ["STORM"]
    assert state["ci2"] == start_ci
    assert state["turn_flags"]["institute_cancel_used"] is True


def test_institute_cancel_not_offered_on_its_first_turn_or_on_chaos():
    """SGE-EV-INSTITUTE: no cancellation on the turn it was placed, nor from a Chaos system."""
    state = empty_game(turn=3)
    put_system(state, 12, IMP)
    state["institutes"] = [{"loc": 12, "placed": 3}]
    phase1_with(state, ["STORM"], 1, dice=[0])
    assert state["pending"] is None and state["discard"] == ["STORM"]
    state = empty_game(turn=3)
    put_system(state, 12, CHAOS)
    state["institutes"] = [{"loc": 12, "placed": 1}]
    phase1_with(state, ["STORM"], 1, dice=[0])
    assert state["pending"] is None and state["discard"] == ["STORM"]


# ============================================================================ Suppression
@pytest.mark.parametrize("face, suppressed, ci_change", [(0, False, 1), (2, False, 1), (3, True, 1),
                                                          (6, True, 1), (7, True, 0), (9, True, 0)])
def test_suppression_outcomes(face, suppressed, ci_change):
    """SGE-SUP-1, SGE-SUP-2, SGE-SUP-3, SGE-REP-2, SGE-EV-REBELLION: a Repression marker buys
    one Suppression roll; 0-2 fails (CI +1, the Rebellion happens), 3-6 cancels with CI +1,
    7-9 cancels with no CI change; no second attempt on the same marker."""
    state = empty_game()
    state["available"]["repression"] = 2
    uid = put_unit(state, "SF", 12)
    start = state["ci2"]
    phase1_with(state, ["REBELLION"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_suppression"
    assert legal(state) == [{"verb": "suppress"}, {"verb": "no_suppression"}]
    act(state, {"verb": "suppress"}, ScriptedRng([face] + ([] if suppressed else sector_faces(12))))
    assert state["pending"] is None and state["stack"] == []
    assert state["available"]["repression"] == 1
    assert state["ci2"] - start == 2 * ci_change
    assert state["discard"] == ["REBELLION"]
    assert state["units"][uid]["side"] == (IMP if suppressed else CHAOS)


def test_suppression_needs_rule_marker_and_a_suppressible_event():
    """SGE-SUP-1, SGE-SUP-2: no offer without a Repression marker, without the Illumination
    rule, or for a marker Suppression cannot target (the Mutant)."""
    state = empty_game()
    put_unit(state, "SF", 12)
    state["available"]["repression"] = 0
    phase1_with(state, ["REBELLION"], 1, dice=[0, *sector_faces(12)])
    assert state["pending"] is None
    state = empty_game(illumination=False)
    state["available"]["repression"] = 3
    put_unit(state, "SF", 12)
    phase1_with(state, ["REBELLION"], 1, dice=[0, *sector_faces(12)])
    assert state["pending"] is None
    state = empty_game()
    state["available"]["repression"] = 3
    put_unit(state, "SF", 12)
    phase1_with(state, ["MUTANT"], 1, dice=[0, *sector_faces(12)])
    assert state["pending"] is None and state["available"]["repression"] == 3


def test_suppression_ci_increase_is_not_capped_on_turn_1():
    """SGE-CI-9, SGE-SUP-3: on turn 1 a Suppression's CI rise is not an event increase and
    passes 95."""
    state = empty_game(turn=1)
    state["available"]["repression"] = 1
    set_ci(state, 95)
    phase1_with(state, ["USURPER"], 1, dice=[0])
    act(state, {"verb": "suppress"}, ScriptedRng([4]))
    assert state["ci2"] == 2 * 96


# ============================================================================ substitutes, copies
def test_second_spectacle_goes_back_for_a_substitute():
    """SGE-POOL-9, SGE-EV-SPECTACLE, SGE-POOL-10, SGE-CI-7: a Spectacle drawn while one is
    active returns to the pool and a substitute (not counted) is drawn; CI changes double."""
    state = empty_game()
    state["effects"] = ["SPECTACLE"]
    start = state["ci2"]
    # draw 1: SPECTACLE (1 of 3) -> substitute among the two others: STORM; draw 2: CULT, d10 3
    phase1_with(state, ["SPECTACLE", "STORM", "CULT"], 2, dice=[0, 0, 0, 3])
    assert state["stack"] == []
    assert state["pool"] == ["SPECTACLE"]
    assert sorted(state["discard"]) == ["CULT", "STORM"]
    assert state["ci2"] == start - 2 * 6


def test_first_spectacle_lasts_the_turn():
    """SGE-EV-SPECTACLE, SGE-POOL-6: the first Spectacle goes to the turn's effects."""
    state = empty_game()
    result, _, _ = resolve(state, "SPECTACLE")
    assert result == events.DONE and state["effects"] == ["SPECTACLE"]


def test_second_copies_of_institute_leviathan_mutant_have_no_effect():
    """SGE-POOL-9, SGE-POOL-10: a second Institute, Leviathan or Mutant in play is discarded
    with no effect (and with no prompt), counting as a draw."""
    state = empty_game()
    put_system(state, 1, IMP)
    put_system(state, 12, CHAOS)
    put_unit(state, "SF", 12)
    state["institutes"] = [{"loc": 12, "placed": 1}]
    state["leviathan"] = True
    put_force(state, "mutant", 20, ["SF"], leader=5, marker="MUTANT")
    units = dict(state["units"])
    phase1_with(state, ["INSTITUTE", "LEVIATHAN", "MUTANT"], 3, dice=[0, 0, 0])
    assert state["pending"] is None and state["stack"] == []
    assert sorted(state["discard"]) == ["INSTITUTE", "LEVIATHAN", "MUTANT"]
    assert state["institutes"] == [{"loc": 12, "placed": 1}] and state["units"] == units


def test_institute_without_system_unit_is_replaced_and_not_counted():
    """SGE-EV-INSTITUTE, SGE-POOL-10, SGE-SEQ-3: an Institute landing where there is no system
    unit returns to the pool and a substitute is drawn that does not count toward N."""
    state = empty_game()
    put_system(state, 12, IMP)
    # draw INSTITUTE (1 of 2); sector 15 has no system -> back; substitute STORM (1 of 2)
    phase1_with(state, ["INSTITUTE", "STORM"], 1, dice=[0, *sector_faces(15), 0])
    assert state["stack"] == []
    assert state["pool"] == ["INSTITUTE"] and state["discard"] == ["STORM"]
    assert state["institutes"] == []


def test_institute_placed_on_a_system_unit():
    """SGE-EV-INSTITUTE: it settles in a random sector with a system unit, either side."""
    state = empty_game(turn=4)
    put_system(state, 12, CHAOS)
    result, _, _ = resolve(state, "INSTITUTE", sector_faces(12))
    assert result == events.DONE
    assert state["institutes"] == [{"loc": 12, "placed": 4}]


def test_mutant_in_an_empty_sector_is_replaced():
    """SGE-EV-MUTANT, SGE-POOL-3: no mobile unit in the rolled sector sends the Mutant back to
    the pool for a substitute."""
    state = empty_game()
    put_unit(state, "SF", 12)
    result, _, _ = resolve(state, "MUTANT", sector_faces(20))
    assert result == events.SUBSTITUTE and state["pool"][-1] == "MUTANT"
    assert not state["forces"]


def test_impossible_effect_is_discarded_as_a_draw():
    """SGE-POOL-11: a marker whose effect cannot happen is discarded with no effect (here:
    Imperial Leader Arises with no Imperial mobile unit, the Mutant with no unit anywhere)."""
    state = empty_game()
    result, _, _ = resolve(state, "LEADER")
    assert result == events.DONE and state["discard"] == ["LEADER"]
    result, _, _ = resolve(state, "MUTANT")
    assert result == events.DONE and state["discard"] == ["LEADER", "MUTANT"]
    assert "SGE-POOL-11" in rules_logged(state)


# ============================================================================ turn 1 cap
def test_turn_one_cap_on_event_increases():
    """SGE-CI-8, SGE-CI-9, SGE-EV-SMASH: on turn 1 a marker's CI rise stops at 95, and is
    ignored above 95; on turn 2 it is not capped."""
    state = empty_game(turn=1)
    set_ci(state, 93)
    phase1_with(state, ["SMASH"], 1, dice=[0, 7])
    assert state["ci2"] == 2 * 95 and state["in_event"] is False
    state = empty_game(turn=1)
    set_ci(state, 96)
    phase1_with(state, ["SMASH"], 1, dice=[0, 7])
    assert state["ci2"] == 2 * 96
    state = empty_game(turn=2)
    set_ci(state, 93)
    phase1_with(state, ["SMASH"], 1, dice=[0, 7])
    assert state["ci2"] == 2 * 100 and state["outcome"]["result"] == "collapse"


def test_web_raiders_nexus_loss_is_capped_on_turn_one():
    """SGE-CI-9, SGE-EV-WEB-RAIDERS, SGE-NEX-4: a Nexus lost to Web Raiders on turn 1 raises
    the CI only up to 95."""
    state = empty_game(turn=1)
    put_system(state, 1, IMP)
    state["nexus"] = [1]
    set_ci(state, 94.5)
    phase1_with(state, ["WEB-RAIDERS"], 1, dice=[0, 0])
    assert state["nexus"] == [] and state["ci2"] == 2 * 95


# ============================================================================ scheduled items
def test_scheduled_markers_join_the_pool_before_drawing():
    """SGE-POOL-7, SGE-POOL-8, SGE-SEQ-3: this turn's scheduled markers join the pool at step 1
    of Phase 1 and leave the turn track; later items wait."""
    state = empty_game(turn=2)
    set_ci(state, 0)
    set_pool(state, [])
    state["scheduled"] = [{"turn": 2, "join_pool": {"USURPER": 1, "REBELLION": 2}},
                          {"turn": 3, "join_pool": {"REBELLION": 1}}]
    run(state, ScriptedRng([]))
    assert sorted(state["pool"]) == ["REBELLION", "REBELLION", "USURPER"]
    assert state["scheduled"] == [{"turn": 3, "join_pool": {"REBELLION": 1}}]


def test_scenario_5_th_usurper_arrives_at_step_1():
    """SGE-USU-4, SGE-POOL-7, SGE-POOL-8, SGE-LDR-7, SGE-SUP-2: Scenario 5 places a Chaos TH
    under a Usurper marker in a random sector on turn 1, with a leader from the random leader
    table, no search, no Suppression offer."""
    state = new_game("5", seed=3)
    begin_phase(state, 1, turn=1)
    set_ci(state, 0)                                   # no draws: only the scheduled item
    assert "USURPER" not in state["pool"]
    free_th = list(state["mix"]["TH"])
    run(state, ScriptedRng([*sector_faces(33), 7]))    # face 7 -> leader 3
    assert state["pending"] is None and state["stack"] == []
    (fid, force), = [(k, f) for k, f in state["forces"].items() if f["kind"] == "usurper"]
    assert force["marker"] == "USURPER" and force["leader"] == 3
    (uid,) = [u for u, rec in state["units"].items() if rec["force"] == fid]
    assert uid == free_th[0]
    assert state["units"][uid] == {"type": "TH", "side": CHAOS, "loc": 33, "force": fid, "leader": None}
    assert all(item["turn"] != 1 for item in state["scheduled"])


def test_scenario_5_turn_one_rebellion_limit():
    """SGE-POOL-21, SGE-EV-REBELLION, SGE-SEQ-3: on turn 1 of Scenario 5, after two Rebellions,
    a third is set aside and a substitute is drawn in its place."""
    state = empty_game(turn=1)
    state["scenario_rules"]["turn1_rebellion_limit"] = 2
    # each Rebellion: draw 1 of k, then a random sector whose search finds nothing
    dice = [0, 1, 0, 0, 1, 0, 0, 0]
    phase1_with(state, ["REBELLION", "REBELLION", "REBELLION", "STORM"], 3, dice=dice)
    assert state["stack"] == []
    assert state["set_aside"] == ["REBELLION"]
    assert state["discard"] == ["REBELLION", "REBELLION", "STORM"]
    assert state["turn_flags"]["rebellions_resolved"] == 2


# ============================================================================ aliens
@pytest.mark.parametrize("alien", events.ALIENS)
def test_alien_lands_in_a_random_system_sector(alien):
    """SGE-ALN-1, SGE-DICE-6 and the alien's own rule (SGE-EV-BIOMECH, SGE-EV-DARK-EMPIRE,
    SGE-EV-HIVE, SGE-EV-NEBULA, SGE-EV-MESSIAH, SGE-EV-PROBE, SGE-EV-RANDOIDS): a roll on a
    non-system sector is rolled again; the marker is recorded with its turn and sequence."""
    assert not G.is_system[15] and G.is_system[12]
    state = empty_game(turn=3)
    seq = state["next_seq"]
    result, _, _ = resolve(state, alien, [*sector_faces(15), *sector_faces(12)])
    assert result == events.DONE
    assert state["aliens"] == [{"kind": alien, "loc": 12, "placed": 3, "seq": seq + 1}]
    assert state["next_seq"] == seq + 1 and alien not in state["discard"]


@pytest.mark.parametrize("alien", ["BIOMECH", "DARK-EMPIRE"])
def test_biomech_and_dark_empire_avoid_their_own_kind(alien):
    """SGE-EV-BIOMECH, SGE-EV-DARK-EMPIRE: a sector already holding one of the same kind is
    rolled again; another alien kind does not matter."""
    state = empty_game()
    state["aliens"] = [{"kind": alien, "loc": 12, "placed": 1, "seq": 1},
                       {"kind": "HIVE", "loc": 13, "placed": 1, "seq": 2}]
    resolve(state, alien, [*sector_faces(12), *sector_faces(13)])
    assert state["aliens"][-1]["loc"] == 13 and state["aliens"][-1]["kind"] == alien


# ============================================================================ Alliance
def test_alliance_single_choice_needs_no_prompt():
    """SGE-EV-ALLIANCE, SGE-POOL-19: with only one group of Chaos units (Rebels here) the
    designation is made without asking; the marker waits for Phase 2."""
    state = empty_game()
    put_unit(state, "SF", 20, side=CHAOS)
    result, _, _ = resolve(state, "ALLIANCE")
    assert result == events.DONE
    assert state["alliance"] == {"sector": 20, "kind": "rebel", "force": None}
    assert "ALLIANCE" not in state["discard"]


def test_alliance_prompt_lists_forces_and_rebels():
    """SGE-EV-ALLIANCE, SGE-POOL-19: every force by sector (the Mutant as a Usurper-type force,
    no IE home detachment) and each sector's Rebels; the choice is stored for Phase 2."""
    state = empty_game()
    usurper = put_force(state, "usurper", 20, ["SF"], marker="USURPER")
    mutant = put_force(state, "mutant", 20, ["CG"], leader=5, marker="MUTANT")
    put_unit(state, "AF", 20, side=CHAOS)
    invader = put_force(state, "invader", 30, ["SF", "SF"], marker="INVADERS")
    detachment = put_force(state, "ie", 30, ["CG"], ie=5)
    state["forces"][detachment]["detachment"] = True
    phase1_with(state, ["ALLIANCE"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_alliance"
    assert legal(state) == [
        {"verb": "alliance", "sector": 20, "kind": "usurper", "force": usurper},
        {"verb": "alliance", "sector": 20, "kind": "usurper", "force": mutant},
        {"verb": "alliance", "sector": 20, "kind": "rebel", "force": None},
        {"verb": "alliance", "sector": 30, "kind": "invader", "force": invader}]
    act(state, {"verb": "alliance", "sector": 30, "kind": "invader", "force": invader})
    assert state["alliance"] == {"sector": 30, "kind": "invader", "force": invader}
    assert state["stack"] == [] and state["in_event"] is False


def test_alliance_without_chaos_units_or_twice():
    """SGE-EV-ALLIANCE, SGE-POOL-11: no Chaos mobile unit means no effect; a second Alliance
    while one designation waits has no effect either."""
    state = empty_game()
    resolve(state, "ALLIANCE")
    assert state["discard"] == ["ALLIANCE"] and state["alliance"] is None
    put_unit(state, "SF", 20, side=CHAOS)
    resolve(state, "ALLIANCE")
    resolve(state, "ALLIANCE")
    assert state["alliance"] == {"sector": 20, "kind": "rebel", "force": None}
    assert state["discard"] == ["ALLIANCE", "ALLIANCE"]


# ============================================================================ Attrition
def test_attrition_moves_up_to_the_next_system_unit():
    """SGE-EV-ATTRITION, SGE-POOL-12, SGE-DICE-6, SGE-CI-4: a roll above 57 is rerolled; from a
    non-system sector the search goes up past empty system sectors to a system unit of either
    side, which is eliminated with no CI change."""
    assert not G.is_system[15] and G.is_system[16] and G.is_system[17]
    state = empty_game()
    put_system(state, 17, CHAOS)
    put_system(state, 12, IMP)
    ci = state["ci2"]
    result, _, _ = resolve(state, "ATTRITION", [6, 0, *sector_faces(15)])
    assert result == events.DONE
    assert "17" not in state["systems"] and "12" in state["systems"]
    assert state["ci2"] == ci and state["discard"] == ["ATTRITION"]


def test_attrition_turns_back_down_at_57():
    """SGE-EV-ATTRITION, SGE-POOL-12, SGE-DICE-7: with nothing up to 57 the search goes back
    below the rolled sector to the nearest system unit."""
    state = empty_game()
    put_system(state, 50, IMP)
    put_system(state, 12, IMP)
    resolve(state, "ATTRITION", sector_faces(57))
    assert "50" not in state["systems"] and "12" in state["systems"]


def test_attrition_with_no_system_unit_has_no_effect():
    """SGE-POOL-12, SGE-POOL-11: no system unit anywhere: no effect."""
    state = empty_game()
    result, _, _ = resolve(state, "ATTRITION", sector_faces(30))
    assert result == events.DONE and state["discard"] == ["ATTRITION"]


def test_attrition_emptying_a_sector_removes_its_alien():
    """SGE-ALN-4, SGE-EV-ATTRITION, SGE-EV-BIOMECH: when the eliminated system was the last
    unit of its sector, the alien marker there leaves play."""
    state = empty_game()
    put_system(state, 17, CHAOS)
    put_system(state, 20, CHAOS)
    put_unit(state, "SF", 20)
    state["aliens"] = [{"kind": "BIOMECH", "loc": 17, "placed": 1, "seq": 1},
                       {"kind": "RANDOIDS", "loc": 20, "placed": 1, "seq": 2}]
    resolve(state, "ATTRITION", sector_faces(17))
    resolve(state, "ATTRITION", sector_faces(20))
    assert [a["kind"] for a in state["aliens"]] == ["RANDOIDS"]


# ============================================================================ payments
def test_reforms_paid_in_full():
    """SGE-EV-REFORMS, SGE-RES-9: 1 RP per Imperial system unit, all paid when RP suffice."""
    state = empty_game()
    for n in (12, 13, 14):
        put_system(state, n, IMP)
    put_system(state, 16, CHAOS)
    state["rp"] = 5
    result, _, _ = resolve(state, "REFORMS")
    assert result == events.DONE and state["rp"] == 2 and state["discard"] == ["REFORMS"]


def test_reforms_short_of_rp_player_picks_unpaid_systems():
    """SGE-EV-REFORMS, SGE-RES-9, SGE-POOL-20: the player leaves systems unpaid
    one at a time; each rolls, 0-2 turns it into a Rebel system, 3-9 keeps it Imperial."""
    state = empty_game()
    for n in (12, 13, 14, 16):
        put_system(state, n, IMP)
    state["rp"] = 2
    phase1_with(state, ["REFORMS"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_unpaid"
    assert legal(state) == [{"verb": "leave_unpaid", "sector": n} for n in (12, 13, 14, 16)]
    act(state, {"verb": "leave_unpaid", "sector": 16})
    assert legal(state) == [{"verb": "leave_unpaid", "sector": n} for n in (12, 13, 14)]
    act(state, {"verb": "leave_unpaid", "sector": 12}, ScriptedRng([3, 2]))   # 12: 3, 16: 2
    assert state["stack"] == [] and state["rp"] == 0
    assert state["systems"]["12"]["side"] == IMP
    assert state["systems"]["16"]["side"] == CHAOS and state["systems"]["16"]["ie"] is None


def test_reforms_with_no_rp_asks_nothing():
    """SGE-RES-9, SGE-EV-REFORMS: with 0 RP every system is unpaid; there is no choice."""
    state = empty_game()
    put_system(state, 12, IMP)
    put_system(state, 13, IMP)
    state["rp"] = 0
    result, _, _ = resolve(state, "REFORMS", [0, 9])
    assert result == events.DONE
    assert state["systems"]["12"]["side"] == CHAOS and state["systems"]["13"]["side"] == IMP


def test_troops_demand_pay_exempts_io_and_flips_unpaid_units():
    """SGE-EV-TROOPS-PAY, SGE-RES-9, SGE-IO-2, SGE-POOL-20, SGE-LDR-4: IO units owe nothing;
    an unpaid unit rolling 0-2 becomes a Rebel and its leader is lost to the pool."""
    state = empty_game()
    put_unit(state, "IO", 12)
    sf = put_unit(state, "SF", 12, leader=3)
    cg = put_unit(state, "CG", 13)
    state["rp"] = 1
    result, ev, _ = resolve(state, "TROOPS-PAY")
    assert result == events.ASK
    assert legal(state) == [{"verb": "leave_unpaid", "unit": cg}, {"verb": "leave_unpaid", "unit": sf}]
    ev["answer"] = {"verb": "leave_unpaid", "unit": sf}
    result, _, _ = resolve(state, "TROOPS-PAY", [1], ev=ev)
    assert result == events.DONE and state["rp"] == 0
    assert state["units"][sf]["side"] == CHAOS and state["units"][sf]["force"] is None
    assert state["units"][sf]["leader"] is None and 3 in state["imp_leaders"]
    assert state["units"][cg]["side"] == IMP


# ============================================================================ simple markers
def test_colonization_waits_for_phase_5():
    """SGE-EV-COLONIZATION, SGE-POOL-6: the marker is counted for the Chaos Colonization Phase."""
    state = empty_game()
    resolve(state, "COLONIZATION")
    resolve(state, "COLONIZATION")
    assert state["colonizations"] == 2 and "COLONIZATION" not in state["discard"]


def test_cult_and_smash_move_the_ci_by_a_die():
    """SGE-EV-CULT, SGE-EV-SMASH: the CI falls or rises by one d10."""
    state = empty_game()
    set_ci(state, 50)
    resolve(state, "CULT", [4])
    assert state["ci2"] == 2 * 46
    resolve(state, "SMASH", [9])
    assert state["ci2"] == 2 * 55
    assert state["discard"] == ["CULT", "SMASH"]


def test_tech_advance_and_collapse():
    """SGE-EV-TECH-ADVANCE, SGE-EV-TECH-COLLAPSE, SGE-RES-4: RP rise by a die, fall by a die
    but not below 0."""
    state = empty_game()
    state["rp"] = 3
    resolve(state, "TECH-ADVANCE", [6])
    assert state["rp"] == 9
    resolve(state, "TECH-COLLAPSE", [4])
    assert state["rp"] == 5
    resolve(state, "TECH-COLLAPSE", [8])
    assert state["rp"] == 0


def test_robots_pay_per_imperial_system():
    """SGE-EV-ROBOTS: 1 RP per Imperial system unit (Chaos ones do not count)."""
    state = empty_game()
    for n in (12, 13, 14):
        put_system(state, n, IMP)
    put_system(state, 16, CHAOS)
    state["rp"] = 1
    resolve(state, "ROBOTS")
    assert state["rp"] == 4


def test_storm_does_nothing():
    """SGE-EV-STORM: discarded with no effect."""
    state = empty_game()

    def board() -> str:
        return json.dumps({k: v for k, v in state.items() if k not in ("log", "discard")}, sort_keys=True)

    before = board()
    result, _, rng = resolve(state, "STORM")
    assert result == events.DONE and state["discard"] == ["STORM"] and rng.used == 0
    assert board() == before


@pytest.mark.parametrize("m", ["PARANOIA", "ENLIGHTENMENT", "ELITES", "MILITARISM", "PACIFISM"])
def test_turn_effects_are_recorded(m):
    """SGE-POOL-6, SGE-POOL-13, SGE-EV-PARANOIA, SGE-EV-ENLIGHTENMENT, SGE-EV-ELITES,
    SGE-EV-MILITARISM, SGE-EV-PACIFISM: the marker stays in the turn's effects."""
    state = empty_game()
    resolve(state, m)
    assert state["effects"] == [m] and m not in state["discard"]


def test_militarism_and_pacifism_cancel():
    """SGE-EV-MILITARISM, SGE-EV-PACIFISM: alone each shifts Imperial attacks; both in effect,
    neither applies."""
    state = empty_game()
    resolve(state, "MILITARISM")
    limits = DATA["combat_limits"]["militarism"]
    assert imperial_event_modifiers(context(state)) == (limits["military"], limits["morph"])
    resolve(state, "PACIFISM")
    assert state["effects"] == ["MILITARISM", "PACIFISM"]
    assert imperial_event_modifiers(context(state)) == (0, 0)


# ============================================================================ Defection
def test_defection_turns_every_chaos_unit_imperial():
    """SGE-EV-DEFECTION, SGE-POOL-20, SGE-IE-8, SGE-OPS-1: Chaos mobile units leave their
    forces (an emptied force ends) and the Chaos system turns Imperial; an IE home that defects
    dissolves the IE."""
    state = empty_game()
    put_system(state, 20, CHAOS, ie=5)
    state["ies"]["5"] = {"home": 20, "leader": 2, "sectors": [20], "arises": False, "leader_marker": True}
    fid = put_force(state, "usurper", 20, ["SF", "CG"], marker="USURPER")
    rebel = put_unit(state, "AF", 20, side=CHAOS)
    result, _, _ = resolve(state, "DEFECTION", sector_faces(20))
    assert result == events.DONE
    assert all(u["side"] == IMP and u["force"] is None for u in state["units"].values())
    assert state["units"][rebel]["side"] == IMP
    assert state["systems"]["20"]["side"] == IMP and state["systems"]["20"]["ie"] is None
    assert fid not in state["forces"] and "5" not in state["ies"]
    assert sorted(state["discard"]) == ["DEFECTION", "USURPER"]


def test_defection_in_a_sector_without_chaos_units():
    """SGE-EV-DEFECTION: no Chaos unit there, nothing happens."""
    state = empty_game()
    put_unit(state, "SF", 20)
    result, _, _ = resolve(state, "DEFECTION", sector_faces(20))
    assert result == events.DONE and state["discard"] == ["DEFECTION"]
    assert state["units"]["SF-01"]["side"] == IMP


# ============================================================================ free units
def test_empire_corps_any_sector_sf_or_cg():
    """SGE-EV-CORPS, SGE-POOL-16, SGE-REC-6: one free SF or CG from the mix in any numbered
    sector; a type missing from the mix is not offered."""
    state = empty_game()
    phase1_with(state, ["CORPS"], 1, dice=[0])
    actions = legal(state)
    assert len(actions) == 2 * len(G.numbers)
    assert {"verb": "corps", "type": "CG", "at": 76} in actions
    act(state, {"verb": "corps", "type": "CG", "at": 76})
    (uid,) = state["units"]
    assert state["units"][uid]["type"] == "CG" and state["units"][uid]["loc"] == 76
    assert state["units"][uid]["side"] == IMP and state["discard"] == ["CORPS"]
    state["mix"]["SF"] = []
    phase1_with(state, ["CORPS"], 1, dice=[0])
    assert {a["type"] for a in legal(state)} == {"CG"}


def test_galactic_crusade_up_to_the_effective_rv():
    """SGE-EV-CRUSADE, SGE-POOL-16: an Imperial-controlled sector receives 1 to RV units in any
    SF/CG mix; Chaos sectors are not offered."""
    state = empty_game()
    put_system(state, 12, IMP, rv=2)
    put_system(state, 13, CHAOS, rv=4)
    phase1_with(state, ["CRUSADE"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_crusade"
    assert legal(state) == [{"verb": "crusade", "at": 12, "sf": sf, "cg": cg}
                            for sf, cg in ((1, 0), (0, 1), (2, 0), (1, 1), (0, 2))]
    act(state, {"verb": "crusade", "at": 12, "sf": 1, "cg": 1})
    assert sorted(u["type"] for u in state["units"].values()) == ["CG", "SF"]
    assert all(u["loc"] == 12 and u["side"] == IMP for u in state["units"].values())


def test_galactic_crusade_increased_resources_and_single_choice():
    """SGE-POOL-16, SGE-IRS-2, SGE-EV-CRUSADE: the effective RV counts an Increased Resources
    marker; a single possible choice is made without a prompt."""
    state = empty_game()
    put_system(state, 12, IMP, rv=1)
    state["systems"]["12"]["irs"] = True
    assert len(events.crusade_choices(context(state))) == 5
    state["systems"]["12"]["irs"] = False
    state["mix"]["CG"] = []
    result, _, _ = resolve(state, "CRUSADE")
    assert result == events.DONE and [u["type"] for u in state["units"].values()] == ["SF"]


# ============================================================================ Expedition
def test_expedition_possible_picks_a_new_site():
    """SGE-EV-EXPEDITION, SGE-DICE-6: a random sector; one that already has a marker is
    replaced by another pick."""
    state = empty_game(expeditions=True)
    state["expedition_sites"] = [40]
    resolve(state, "EXPEDITION", [*sector_faces(40), *sector_faces(66)])
    assert state["expedition_sites"] == [40, 66]


# ============================================================================ Imperial Leader
def test_imperial_leader_arises_on_the_chosen_unit():
    """SGE-EV-LEADER, SGE-LDR-3, SGE-DICE-9: a random leader from the Imperial pool goes on the
    Imperial mobile unit the player picks (units with a leader are not offered)."""
    state = empty_game()
    state["imp_leaders"] = [1, 2, 3]
    a = put_unit(state, "SF", 12)
    b = put_unit(state, "CG", 13)
    put_unit(state, "AF", 14, leader=2)
    assert state["imp_leaders"] == [1, 3]
    phase1_with(state, ["LEADER"], 1, dice=[0, 1])            # draw; leader 2 of 2 -> value 3
    assert state["pending"]["kind"] == "event_leader" and state["pending"]["leader"] == 3
    assert legal(state) == [{"verb": "place_leader", "unit": u} for u in sorted((a, b))]
    act(state, {"verb": "place_leader", "unit": b})
    assert state["units"][b]["leader"] == 3 and state["imp_leaders"] == [1]


def test_imperial_leader_single_unit_and_empty_pool():
    """SGE-EV-LEADER, SGE-POOL-11: one eligible unit takes the leader without a prompt; an
    empty leader pool gives no effect."""
    state = empty_game()
    state["imp_leaders"] = [2]
    uid = put_unit(state, "SF", 12)
    result, _, _ = resolve(state, "LEADER")
    assert result == events.DONE and state["units"][uid]["leader"] == 2 and state["imp_leaders"] == []
    state["units"][uid]["leader"] = None
    result, _, _ = resolve(state, "LEADER")
    assert state["discard"] == ["LEADER", "LEADER"] and state["units"][uid]["leader"] is None


# ============================================================================ IE Arises
def test_ie_arises_searches_down_and_wraps():
    """SGE-EV-IE-ARISES, SGE-DICE-7, SGE-DICE-8, SGE-IE-1, SGE-IE-9: from the rolled sector the
    search goes down, past 01 to 76 and on down, to a system unit outside any IE; the lowest
    free number #1 is used; an Imperial home flips to Chaos with no CI change."""
    state = empty_game()
    put_system(state, 40, IMP)
    put_system(state, 2, CHAOS, ie=5)                    # already in an IE: skipped
    state["ies"]["5"] = {"home": 2, "leader": 1, "sectors": [2], "arises": False, "leader_marker": True}
    ci = state["ci2"]
    result, _, _ = resolve(state, "IE-ARISES", sector_faces(3), fallback=True)
    assert result == events.DONE
    assert state["ies"]["1"]["home"] == 40 and state["ies"]["1"]["arises"] is True
    assert state["systems"]["40"]["side"] == CHAOS and state["systems"]["40"]["ie"] == 1
    assert state["ci2"] == ci and "IE-ARISES" not in state["discard"]


def test_ie_arises_number_choice():
    """SGE-IE-1, SGE-EV-IE-ARISES: #1-#4 first, then #5 or #6; none free, no effect."""
    state = empty_game()
    ctx = context(state)
    for taken, expected in (([], 1), ([1, 2], 3), ([1, 2, 3, 4], 5), ([1, 2, 3, 4, 5], 6),
                            ([1, 2, 3, 4, 5, 6], None)):
        state["ies"] = {str(k): {} for k in taken}
        assert events.free_ie_number(ctx) == expected
    put_system(state, 12, CHAOS)
    result, _, rng = resolve(state, "IE-ARISES")
    assert result == events.DONE and state["discard"] == ["IE-ARISES"] and rng.used == 0


# ============================================================================ Invaders
def test_invaders_from_the_leader_pool_enter_at_the_rim():
    """SGE-EV-INVADERS, SGE-INV-1, SGE-INV-2, SGE-INV-3: leadership drawn from the Chaos leader
    pool (one die per point, faces read on the Invader table, a TH result is an SF without
    the Trans-humans rule); the entry moves outward to a Void-adjacent sector."""
    assert 40 not in G.void_adjacent and G.away_from_core(40) == ()
    assert 30 not in G.void_adjacent and G.away_from_core(30) == (74,) and 74 in G.void_adjacent
    state = empty_game(trans_humans=False)
    state["chaos_leaders"] = [1, 2, 4]
    dice = [1, 5, 9, *sector_faces(30)]                   # leader 2; faces 5 (SF+CG), 9 (TH->SF)
    result, _, _ = resolve(state, "INVADERS", dice)
    assert result == events.DONE
    (fid, force), = state["forces"].items()
    assert force["kind"] == "invader" and force["leader"] == 2 and force["leader_marker"] is True
    assert force["marker"] == "INVADERS" and state["chaos_leaders"] == [1, 4]
    units = [u for u in state["units"].values() if u["force"] == fid]
    assert sorted(u["type"] for u in units) == ["CG", "SF", "SF"]
    assert {u["loc"] for u in units} == {74} and {u["side"] for u in units} == {CHAOS}


def test_invaders_with_empty_leader_pool_use_the_random_value():
    """SGE-INV-1, SGE-LDR-7, SGE-EV-INVADERS: with no Chaos leader marker the rating comes
    from the random leader table (and no marker goes back when the force ends)."""
    state = empty_game(trans_humans=True)
    state["chaos_leaders"] = []
    result, _, _ = resolve(state, "INVADERS", [0, 9, *sector_faces(74)])   # face 0 -> 1; TH
    (force,) = state["forces"].values()
    assert force["leader"] == 1 and force["leader_marker"] is False
    assert [u["type"] for u in state["units"].values()] == ["TH"]


# ============================================================================ Leviathan
def test_leviathan_accept_or_return():
    """SGE-EV-LEVIATHAN, SGE-CI-5: with an Imperial Core the player accepts (CI changes are
    then halved) or returns it to the pool."""
    state = empty_game()
    put_system(state, 1, IMP)
    phase1_with(state, ["LEVIATHAN"], 1, dice=[0])
    assert state["pending"]["kind"] == "event_leviathan" and state["in_event"] is True
    assert legal(state) == [{"verb": "accept_leviathan"}, {"verb": "return_leviathan"}]
    act(state, {"verb": "accept_leviathan"}, ScriptedRng([4]))
    assert state["leviathan"] is True and state["in_event"] is False
    assert marker_count(state, "LEVIATHAN") == 0
    before = state["ci2"]
    resolve(state, "SMASH", [3])
    assert state["ci2"] - before == 3              # +3 halved = 1.5 points = 3 half points
    state = empty_game()
    put_system(state, 1, IMP)
    phase1_with(state, ["LEVIATHAN"], 1, dice=[0])
    act(state, {"verb": "return_leviathan"})
    assert state["leviathan"] is False and state["pool"] == ["LEVIATHAN"]


def test_leviathan_without_imperial_core_is_discarded():
    """SGE-EV-LEVIATHAN: no Imperial system in the Core: discarded, nothing asked."""
    state = empty_game()
    put_system(state, 1, CHAOS)
    result, _, _ = resolve(state, "LEVIATHAN")
    assert result == events.DONE and state["discard"] == ["LEVIATHAN"] and state["pending"] is None


# ============================================================================ Mutant
def test_mutant_seizes_every_mobile_unit_of_its_sector():
    """SGE-EV-MUTANT, SGE-POOL-18, SGE-POOL-20, SGE-IO-2, SGE-LDR-4, SGE-OPS-1: Imperial units
    flip into the Mutant force (their leaders are lost), IO stays Imperial, other force
    markers there end (leader markers back to the Chaos pool) and every Chaos unit joins."""
    state = empty_game()
    sf = put_unit(state, "SF", 20, leader=2)
    io = put_unit(state, "IO", 20)
    rebel = put_unit(state, "CG", 20, side=CHAOS)
    usurper = put_force(state, "usurper", 20, ["AF"], marker="USURPER")
    invader = put_force(state, "invader", 20, ["WS"], leader=3, marker="INVADERS")
    state["forces"][invader]["leader_marker"] = True
    state["chaos_leaders"].remove(3)
    other = put_unit(state, "SF", 30)
    result, _, _ = resolve(state, "MUTANT", sector_faces(20))
    assert result == events.DONE
    (fid, force), = state["forces"].items()
    assert force["kind"] == "mutant" and force["marker"] == "MUTANT"
    assert force["leader"] == DATA["usurpation"]["mutant_leadership"]
    members = sorted(u for u, rec in state["units"].items() if rec["force"] == fid)
    assert len(members) == 4 and sf in members and rebel in members and io not in members
    assert state["units"][io]["side"] == IMP and state["units"][other]["side"] == IMP
    assert state["units"][sf]["leader"] is None and 2 in state["imp_leaders"]
    assert usurper not in state["forces"] and 3 in state["chaos_leaders"]
    assert sorted(state["discard"]) == ["INVADERS", "USURPER"]


@pytest.mark.parametrize("where", ["member", "home"])
def test_the_mutant_takes_its_sector_out_of_an_ie(where):
    """SGE-POOL-18 [amended], SGE-IE-8: the Mutant removes the IE marker of its sector. A
    member sector leaves the IE, which keeps its other sectors; the home sector's IE
    dissolves, its other systems becoming Rebel systems."""
    state = empty_game()
    put_system(state, 40, CHAOS, ie=5)
    put_system(state, 41, CHAOS, ie=5)
    state["ies"]["5"] = {"home": 40, "leader": 1, "sectors": [40, 41], "arises": False,
                         "leader_marker": True}
    n = 41 if where == "member" else 40
    put_unit(state, "CG", n, side=CHAOS)
    result, _, _ = resolve(state, "MUTANT", sector_faces(n))
    assert result == events.DONE
    assert state["systems"][str(n)]["ie"] is None
    if where == "member":
        assert state["ies"]["5"]["sectors"] == [40] and state["systems"]["40"]["ie"] == 5
    else:
        assert "5" not in state["ies"] and state["systems"]["41"]["ie"] is None
        assert state["systems"]["41"]["side"] == CHAOS


# ============================================================================ Power Struggle
def test_power_struggle_rolls_for_each_leader():
    """SGE-EV-POWER-STRUGGLE, SGE-LDR-4: 0-4 loses the leader (back to the pool), 5-9 keeps it;
    leaders are rolled for in sector order."""
    state = empty_game()
    state["imp_leaders"] = [1, 2, 3]
    a = put_unit(state, "SF", 30, leader=1)
    b = put_unit(state, "SF", 12, leader=3)
    result, _, _ = resolve(state, "POWER-STRUGGLE", [4, 5])      # 12 first: lost; 30: kept
    assert state["units"][b]["leader"] is None and state["units"][a]["leader"] == 1
    assert sorted(state["imp_leaders"]) == [2, 3]


# ============================================================================ Rebellion
def test_rebellion_searches_up_and_flips_the_sector():
    """SGE-EV-REBELLION, SGE-DICE-7, SGE-DICE-8, SGE-IO-2, SGE-LDR-5, SGE-POOL-20: the search
    skips a sector holding only IO; every Imperial unit of the found sector turns Rebel
    (system included) and every Imperial leader there is removed, even on an IO unit."""
    state = empty_game()
    put_unit(state, "IO", 14)
    io = put_unit(state, "IO", 20, leader=2)
    sf = put_unit(state, "SF", 20)
    put_system(state, 20, IMP)
    put_unit(state, "SF", 30)
    result, _, _ = resolve(state, "REBELLION", sector_faces(13))
    assert result == events.DONE
    assert state["units"][sf]["side"] == CHAOS and state["units"][sf]["force"] is None
    assert state["units"][io]["side"] == IMP and state["units"][io]["leader"] is None
    assert state["systems"]["20"]["side"] == CHAOS
    assert state["units"]["SF-02"]["side"] == IMP


def test_rebellion_reverses_downward_past_76():
    """SGE-DICE-7, SGE-DICE-8, SGE-EV-REBELLION: with nothing above the start, the search goes
    back down from the start; an Imperial system alone qualifies."""
    state = empty_game()
    put_system(state, 12, IMP)
    resolve(state, "REBELLION", sector_faces(60))
    assert state["systems"]["12"]["side"] == CHAOS


def test_rebellion_finding_nothing_has_no_effect():
    """SGE-DICE-8, SGE-EV-REBELLION: a search that finds nothing discards the marker."""
    state = empty_game()
    put_unit(state, "IO", 12)
    result, _, _ = resolve(state, "REBELLION", sector_faces(5))
    assert result == events.DONE and state["discard"] == ["REBELLION"]


# ============================================================================ Trans-humans
def test_trans_humans_odd_imperial_even_rebel():
    """SGE-EV-TH-APPEAR, SGE-DICE-2, SGE-DICE-3: an odd roll gives an Imperial TH; an even one
    (0 included) a Rebel TH."""
    state = empty_game(trans_humans=True)
    resolve(state, "TH-APPEAR", [*sector_faces(20), 7])
    resolve(state, "TH-APPEAR", [*sector_faces(30), 0])
    sides = {u["loc"]: (u["side"], u["force"]) for u in state["units"].values()}
    assert sides == {20: (IMP, None), 30: (CHAOS, None)}


def test_rebel_trans_human_joins_the_leftmost_force():
    """SGE-POOL-15, SGE-EV-TH-APPEAR, SGE-DICE-9: a Rebel TH joins the Usurper/Mutant-type
    force before an IE or Invader one, picked at random among several of that type."""
    state = empty_game(trans_humans=True)
    put_force(state, "invader", 20, ["SF"], marker="INVADERS")
    put_force(state, "ie", 20, ["SF"], ie=5)
    first = put_force(state, "usurper", 20, ["SF"], marker="USURPER")
    second = put_force(state, "mutant", 20, ["SF"], leader=5, marker="MUTANT")
    resolve(state, "TH-APPEAR", [*sector_faces(20), 2, 1])       # even; 2nd of the two
    (th,) = [u for u in state["units"].values() if u["type"] == "TH"]
    assert th["side"] == CHAOS and th["force"] == second
    assert first in state["forces"]


def test_trans_humans_without_the_rule_or_counters():
    """SGE-POOL-4, SGE-POOL-11, SGE-EV-TH-APPEAR: without the rule the marker leaves play and
    a replacement is drawn; with the rule but no TH counter left it has no effect."""
    state = empty_game(trans_humans=False)
    removed = state["removed"].count("TH-APPEAR")
    result, _, rng = resolve(state, "TH-APPEAR")
    assert result == events.SUBSTITUTE and rng.used == 0
    assert state["removed"].count("TH-APPEAR") == removed + 1
    assert "TH-APPEAR" not in state["discard"] + state["pool"]
    state = empty_game(trans_humans=True)
    state["mix"]["TH"] = []
    result, _, rng = resolve(state, "TH-APPEAR")
    assert result == events.DONE and state["discard"] == ["TH-APPEAR"] and rng.used == 0


# ============================================================================ Usurper
def test_usurper_searches_down_with_wrap_and_forms_a_force():
    """SGE-EV-USURPER, SGE-DICE-7, SGE-DICE-8, SGE-LDR-7, SGE-IO-2: from the rolled sector the
    search goes down (past 01 to 76), skipping sectors with only IO or only a system; the
    Imperial mobile units found flip into a Usurper force with a random leader value."""
    state = empty_game()
    put_unit(state, "IO", 2)
    put_system(state, 3, IMP)
    sf = put_unit(state, "SF", 70, leader=1)
    cg = put_unit(state, "CG", 70)
    io = put_unit(state, "IO", 70)
    put_unit(state, "SF", 60)
    result, _, _ = resolve(state, "USURPER", [*sector_faces(3), 5])   # face 5 -> leader 2
    assert result == events.DONE
    (fid, force), = state["forces"].items()
    assert force == {**force, "kind": "usurper", "leader": 2, "marker": "USURPER"}
    assert {u for u, rec in state["units"].items() if rec["force"] == fid} == {sf, cg}
    assert state["units"][io]["side"] == IMP and state["units"]["SF-02"]["side"] == IMP
    assert 1 in state["imp_leaders"]


def test_usurper_with_no_imperial_mobile_units():
    """SGE-DICE-8, SGE-EV-USURPER: no Imperial mobile unit that can flip: no effect."""
    state = empty_game()
    put_unit(state, "IO", 12)
    put_system(state, 13, IMP)
    result, _, _ = resolve(state, "USURPER", sector_faces(40))
    assert result == events.DONE and state["discard"] == ["USURPER"] and not state["forces"]


# ============================================================================ Web Raiders
def test_web_raiders_roll_for_each_nexus():
    """SGE-EV-WEB-RAIDERS, SGE-NEX-4, SGE-CI-2: each Nexus is lost on 0-2 (CI +2 on the Core,
    +1 elsewhere) and kept on 3-9."""
    state = empty_game()
    for n in (1, 13, 17):
        put_system(state, n, IMP)
    state["nexus"] = [17, 1, 13]
    ci = state["ci2"]
    resolve(state, "WEB-RAIDERS", [2, 3, 0])                     # 01 lost, 13 kept, 17 lost
    assert state["nexus"] == [13]
    assert state["ci2"] - ci == 2 * 3


def test_web_raiders_without_the_nexus_rule():
    """SGE-EV-WEB-RAIDERS, SGE-POOL-11: without the Nexus rule it does nothing."""
    state = empty_game(nexus=False)
    put_system(state, 1, IMP)
    state["nexus"] = [1]
    result, _, rng = resolve(state, "WEB-RAIDERS")
    assert result == events.DONE and state["nexus"] == [1] and rng.used == 0


# ============================================================================ coverage
def test_every_pool_marker_has_a_resolver():
    """SGE-POOL-1: each of the 39 marker kinds of the pool table is resolved by events.py."""
    ids = {m["id"] for m in DATA["event_pool"]["markers"]}
    assert len(ids) == 39 and ids == set(events.MARKERS)
