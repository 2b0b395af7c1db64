"""Regression tests from the rules audit of events.py, imperial.py and aliens.py.

Each test names in its docstring the rule IDs it exercises. The first group failed before the
audit's fixes; the second pins down interplays the audit checked (CI multipliers with event
changes, set-up removals, Chaos Colonization, purchases and the Nexus) so they stay right.
"""

from __future__ import annotations

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import GAME, events
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (add_alien, ScriptedRng, act, begin_phase, clear_map, context,
                                          legal, new_game, put_force, put_system, put_unit, run,
                                          sector_faces, set_ci, set_pool)

DATA = GAME.data


# ============================================================================ builders
def empty_game(turn: int = 2, **options) -> dict:
    """Scenario 1 with every optional rule on (then ``options``), map cleared, at the start of
    Phase 1 of ``turn``, no Repression marker available."""
    state = clear_map(new_game("1", seed=1, options={"all": True}))
    state["options"].update(options)
    state["available"]["repression"] = 0
    begin_phase(state, 1, turn=turn)
    return state


def phase1_with(state: dict, pool: list[str], draws: int, dice=(), fallback: bool = False):
    """Run Phase 1 on the pool given with N already fixed at ``draws``."""
    set_pool(state, pool)
    state["stack"] = [{"proc": "phase1", "left": draws, "ev": None, "no_redraw": []}]
    rng = ScriptedRng(dice, fallback=Rng.from_seed(7) if fallback else None)
    run(state, rng)
    return rng


def resolve(state: dict, m: str, dice=()):
    """Call marker m's resolver once with scripted dice."""
    ctx = context(state, ScriptedRng(dice))
    ev = {"marker": m}
    state["in_event"] = True
    result = events.MARKERS[m](ctx, ev)
    state["in_event"] = False
    ctx.close()
    return result


def put_system_with(state: dict, n: int, side: str, morph: int) -> str:
    """A system unit with the given morph factor, taken from the system pool."""
    counter = next(c for c in state["system_pool"] if DATA.system_counters[c][1] == morph)
    ctx = context(state)
    ctx.place_system(n, side, "TEST", counter=counter)
    ctx.close()
    return counter




# ============================================================================ fixed by the audit
@pytest.mark.parametrize("marker, option", [("EXPEDITION", "expeditions"),
                                            ("TH-APPEAR", "trans_humans"),
                                            ("ENLIGHTENMENT", "illumination"),
                                            ("ELITES", "illumination")])
def test_marker_without_its_rule_leaves_play_and_a_replacement_is_drawn(marker, option):
    """SGE-POOL-4, SGE-POOL-10, SGE-SEQ-3: a marker whose optional rule is off is removed from
    play and a replacement, not counted in N, is drawn in its place; nothing is offered for it
    (no Institute cancellation is wasted on it)."""
    state = empty_game(**{option: False})
    put_system(state, 12, IMP)
    state["institutes"] = [{"loc": 12, "placed": 1}]          # could cancel a revealed marker
    removed = state["removed"].count(marker)
    # draw 1: the marker (1 of 2) -> replacement: STORM (1 of 1), which the Institute may cancel
    phase1_with(state, [marker, "STORM"], 1, dice=[0, 0])
    assert state["pending"]["kind"] == "event_institute" and state["pending"]["marker"] == "STORM"
    act(state, {"verb": "allow_event"})
    assert state["stack"] == [] and state["pending"] is None
    assert state["removed"].count(marker) == removed + 1
    assert state["discard"] == ["STORM"] and state["pool"] == []
    assert state["effects"] == [] and state["expedition_sites"] == []
    assert "SGE-POOL-4" in [e["rule"] for e in state["log"]]


def test_mutant_in_a_sector_of_only_io_units_is_a_draw_with_no_effect():
    """SGE-EV-MUTANT, SGE-POOL-18, SGE-IO-2, SGE-POOL-11, SGE-POOL-10: a sector holding only
    Imperial Order units does hold mobile units, so there is no substitute; the IO units stay
    Imperial and out of its stack, the Mutant gets no unit and is discarded, and the draw
    counts."""
    state = empty_game()
    io = put_unit(state, "IO", 20)
    put_unit(state, "SF", 30)
    # draw 1: MUTANT (1 of 2), sector 20; N = 1, so STORM stays in the pool
    phase1_with(state, ["MUTANT", "STORM"], 1, dice=[0, *sector_faces(20)])
    assert state["stack"] == []
    assert state["discard"] == ["MUTANT"] and state["pool"] == ["STORM"]
    assert state["forces"] == {} and state["units"][io]["side"] == IMP
    assert state["units"][io]["force"] is None


def test_mutant_in_an_empty_sector_still_takes_a_substitute():
    """SGE-EV-MUTANT, SGE-POOL-3, SGE-POOL-10: a sector with no mobile unit at all sends the
    Mutant back to the pool; the substitute is not counted."""
    state = empty_game()
    put_unit(state, "IO", 20)
    # draw 1: MUTANT (1 of 2), sector 21 empty -> back; substitute: STORM (1 of 2)
    phase1_with(state, ["MUTANT", "STORM"], 1, dice=[0, *sector_faces(21), 0])
    assert state["stack"] == [] and state["discard"] == ["STORM"] and state["pool"] == ["MUTANT"]


@pytest.mark.parametrize("kind, dice", [("BIOMECH", [0]), ("DARK-EMPIRE", [0]), ("PROBE", [0, 0])])
def test_alien_result_on_turn_one_obeys_the_cap_for_a_lost_nexus(kind, dice):
    """SGE-CI-9, SGE-CI-8, SGE-NEX-4, SGE-CI-2, SGE-EV-BIOMECH, SGE-EV-DARK-EMPIRE,
    SGE-EV-PROBE: the AERT result of an alien drawn on turn 1 is a later effect of its marker,
    so a Nexus lost with the system it wipes raises the CI only up to 95."""
    state = empty_game(turn=1)
    put_system(state, 12, IMP, rv=1)
    state["nexus"] = [12]
    set_ci(state, 94.5)
    add_alien(state, kind, 12)
    begin_phase(state, 6, turn=1)
    run(state, ScriptedRng(dice))
    assert "12" not in state["systems"] and state["nexus"] == []
    assert state["ci2"] == 2 * 95 and state["in_event"] is False


def test_alien_result_after_turn_one_is_not_capped():
    """SGE-CI-9, SGE-NEX-4, SGE-CI-2, SGE-EV-BIOMECH: after turn 1 the same Nexus loss raises
    the CI in full (no cap)."""
    state = empty_game(turn=2)
    put_system(state, 12, IMP, rv=1)
    state["nexus"] = [12]
    set_ci(state, 94.5)
    add_alien(state, "BIOMECH", 12)
    begin_phase(state, 6, turn=2)
    run(state, ScriptedRng([0]))
    assert state["nexus"] == [] and state["ci2"] == 2 * 95.5


# ============================================================================ interplays checked
def test_leviathan_halves_event_suppression_and_nexus_changes():
    """SGE-CI-6, SGE-CI-5, SGE-EV-SMASH, SGE-SUP-3, SGE-EV-WEB-RAIDERS: under Leviathan every CI
    change is halved, half points kept: an event's die, a Suppression's +1 and a lost
    Nexus."""
    state = empty_game()
    put_system(state, 1, IMP)
    put_system(state, 12, IMP)
    state["leviathan"] = True
    state["nexus"] = [12]
    state["available"]["repression"] = 1
    set_ci(state, 50)
    resolve(state, "SMASH", [3])
    assert state["ci2"] == 2 * 51.5
    put_unit(state, "SF", 20)
    phase1_with(state, ["USURPER"], 1, dice=[0])
    act(state, {"verb": "suppress"}, ScriptedRng([4]))            # cancelled, CI +1 halved
    assert state["ci2"] == 2 * 52
    resolve(state, "WEB-RAIDERS", [0])                             # Nexus lost, +1 halved
    assert state["nexus"] == [] and state["ci2"] == 2 * 52.5


def test_ci_change_order_multiplier_then_cap_then_floor():
    """SGE-CI-13, SGE-CI-7, SGE-CI-9, SGE-CI-1, SGE-EV-SMASH, SGE-EV-CULT: Spectacle doubles
    first, the turn-1 cap then cuts the doubled rise at 95, and a doubled fall stops at 0;
    Spectacle with Leviathan changes nothing."""
    state = empty_game(turn=1)
    state["effects"] = ["SPECTACLE"]
    set_ci(state, 92)
    resolve(state, "SMASH", [2])                                   # +2 x2 = +4, cut to 95
    assert state["ci2"] == 2 * 95
    set_ci(state, 3)
    resolve(state, "CULT", [2])                                    # -2 x2 = -4, floor 0
    assert state["ci2"] == 0
    put_system(state, 1, IMP)
    state["leviathan"] = True
    set_ci(state, 40)
    resolve(state, "SMASH", [3])                                   # x2 and x1/2: +3
    assert state["ci2"] == 2 * 43


def test_markers_needing_an_off_rule_leave_the_pool_at_set_up():
    """SGE-POOL-5: with the Expeditions, Illumination and Trans-humans rules off,
    their markers are out of the pool from the start (removed from play), so N draws only
    among the others."""
    state = new_game("2", seed=3)
    for m in ("EXPEDITION", "TH-APPEAR", "ENLIGHTENMENT", "ELITES"):
        assert m not in state["pool"]
        assert state["removed"].count(m) == DATA.markers[m]["count"]
    assert len(state["pool"]) == 100 - sum(DATA.markers[m]["count"] for m in
                                           ("EXPEDITION", "TH-APPEAR", "ENLIGHTENMENT", "ELITES"))


def test_colonization_marker_places_a_system_in_phase_5():
    """SGE-EV-COLONIZATION, SGE-SEQ-7, SGE-POOL-14, SGE-POOL-6: the marker waits for the Chaos
    Colonization Phase, which puts a Chaos system unit in the highest-numbered empty system
    sector (an IE's if its mobile force stands there, else a Rebel one) and then discards
    it."""
    state = empty_game()
    for n in DATA.galaxy.system_sectors:
        if n not in (49, 50, 56, 57):
            put_system(state, n, IMP)
    put_system(state, 57, CHAOS)
    state["ies"]["5"] = {"home": 49, "leader": 1, "sectors": [], "arises": False,
                         "leader_marker": False}
    put_system(state, 49, CHAOS, ie=5)
    fid = put_force(state, "ie", 56, ["SF"], ie=5)
    assert resolve(state, "COLONIZATION") == events.DONE
    assert resolve(state, "COLONIZATION") == events.DONE
    assert state["colonizations"] == 2 and "COLONIZATION" not in state["discard"]
    begin_phase(state, 5)
    run(state, ScriptedRng([0, 0]))
    assert state["systems"]["56"]["side"] == CHAOS and state["systems"]["56"]["ie"] == 5
    assert 56 in state["ies"]["5"]["sectors"] and fid in state["forces"]
    assert state["systems"]["50"]["side"] == CHAOS and state["systems"]["50"]["ie"] is None
    assert state["discard"].count("COLONIZATION") == 2 and state["colonizations"] == 0


def test_leaders_are_never_for_sale():
    """SGE-LDR-6: recruitment offers units and markers only; a leader cannot be bought."""
    state = empty_game()
    put_system(state, 12, IMP, rv=4)
    state["rp"] = 50
    begin_phase(state, 9)
    run(state)
    assert state["pending"]["kind"] == "recruitment"
    actions = legal(state)
    assert {a["verb"] for a in actions} == {"buy_unit", "buy_marker", "done"}
    assert not [a for a in actions if "leader" in str(a.get("marker", a.get("type", "")))]
    assert GAME.check_action(state, "imperial", {"verb": "buy_marker", "marker": "leader"})


def test_aliens_and_events_leave_a_nexus_alone_while_its_system_stands():
    """SGE-NEX-5, SGE-ALN-5, SGE-EV-HIVE, SGE-EV-DEFECTION: a Hive's Negative result costs only
    the committed leader and a Defection in the sector flips only the Chaos units; the Nexus
    there stays and the CI does not move, since its Imperial system still stands."""
    state = empty_game()
    put_system_with(state, 12, IMP, morph=0)
    state["nexus"] = [12]
    sf = put_unit(state, "SF", 12, leader=1)
    put_unit(state, "AF", 12, side=CHAOS)
    add_alien(state, "HIVE", 12)
    ci = state["ci2"]
    begin_phase(state, 6)
    run(state)
    act(state, {"verb": "commit_leader", "unit": sf}, ScriptedRng([0]))   # 0 + AF morph 1 + 1
    assert state["units"][sf]["leader"] is None and 1 in state["imp_leaders"]
    assert [a["kind"] for a in state["aliens"]] == ["HIVE"]
    resolve(state, "DEFECTION", sector_faces(12))
    assert state["nexus"] == [12] and state["ci2"] == ci
    assert all(u["side"] == IMP for u in state["units"].values())
