"""Rules tests for turn.py and the continuous checks: the 14 phases of a turn, the end of the
turn, victory bands, Collapse at CI 100, Universal Victory in Sweep of Empire and the result
record."""

from __future__ import annotations

import pytest

from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (ScriptedRng, begin_phase, clear_map, context, legal,
                                          new_game, put_force, put_system, put_unit, run,
                                          set_ci)

DATA = GAME.data
G = DATA.galaxy
ALL = {"all": True}
NO_EXPEDITIONS = {"all": True, "expeditions": False}


def quiet(scenario: str = "2", options: dict | None = None, turn: int = 3, ci: float = 0,
          seed: int = 1) -> dict:
    """An empty galaxy where a turn needs no decision: CI 0 (no event draws), no RP, nothing
    in the Available box."""
    state = clear_map(new_game(scenario, seed, ALL if options is None else options))
    state["turn"] = turn
    state["turn_flags"] = {}
    state["effects"] = []
    state["set_aside"] = []
    state["rp"] = 0
    state["available"] = {"repression": 0, "illumination": 0}
    set_ci(state, ci)
    state["log"] = []
    return state


def systems_in(state: dict, sectors, side: str = IMP) -> None:
    ctx = context(state)
    for n in sectors:
        ctx.place_system(n, side, "TEST", counter=state["system_pool"][0])
    ctx.close()


def phase_numbers(state: dict) -> list[int]:
    return [int(e["text"].split()[1].rstrip(":")) for e in state["log"]
            if e["rule"] == "SGE-SEQ-1" and e["kind"] == "phase"]


# ============================================================================ the turn
@pytest.mark.parametrize("options, phases", [
    (ALL, list(range(1, 15))),
    (NO_EXPEDITIONS, [k for k in range(1, 15) if k != 13]),
])
def test_a_turn_runs_its_phases_in_order(options, phases):
    """SGE-SEQ-1, SGE-SEQ-4, SGE-SEQ-5: a turn is phases 1 to 14 in order (Phase 13 only with
    the Expeditions rule); a Usurper force acts in Phase 2 and rolls for usurpation in
    Phase 3."""
    state = quiet(options=options)
    fid = put_force(state, "usurper", 30, ["SF"], leader=1)
    state["stack"] = [{"proc": "turn", "next_phase": 1}]
    rng = ScriptedRng([1, 4])          # Phase 2: No Operations; Phase 3: 4 + 1 = no effect
    run(state, rng)
    assert rng.left == [] and state["stack"] == [] and state["outcome"] is None
    assert phase_numbers(state) == phases
    ops = next(k for k, e in enumerate(state["log"]) if e["rule"] == "SGE-OPS-3")
    usu = next(k for k, e in enumerate(state["log"]) if e["rule"] == "SGE-USU-2")
    assert state["log"][ops]["phase"] == 2 and state["log"][usu]["phase"] == 3
    assert fid in state["forces"]


def test_game_turns_advance_and_stop_after_the_last():
    """SGE-SEQ-1, SGE-SEQ-16, SGE-VIC-2: turns follow one another, each starting with Phase 1,
    and the scenario's last turn ends the game with its victory level."""
    state = quiet(turn=8)
    state["stack"] = [{"proc": "game"}]
    run(state)
    assert state["turn"] == 10 and state["outcome"]["result"] == "collapse"
    starts = [e["turn"] for e in state["log"] if e["rule"] == "SGE-SEQ-1" and e["kind"] == "turn"]
    assert starts == [9, 10]


def test_end_of_turn_discards_this_turn_markers_and_returns_set_asides():
    """SGE-SEQ-16, SGE-POOL-6, SGE-POOL-21: at the end of the turn the markers that last the
    turn are discarded and set-aside markers go back to the pool; no victory check before
    the last turn."""
    state = quiet(turn=3)
    state["effects"] = ["SPECTACLE", "PACIFISM"]
    state["set_aside"] = ["REBELLION"]
    pool = len(state["pool"])
    begin_phase(state, 14, turn=3)
    run(state)
    assert state["effects"] == [] and state["set_aside"] == []
    assert state["discard"][-2:] == ["SPECTACLE", "PACIFISM"]
    assert len(state["pool"]) == pool + 1 and state["outcome"] is None


# ============================================================================ continuous checks
def test_continuous_checks_in_their_order():
    """SGE-SEQ-17, SGE-EV-LEVIATHAN, SGE-NEX-4, SGE-STG-3, SGE-OPS-1, SGE-IE-8, SGE-CI-2: after
    a change the checks run in order: Leviathan ends without an Imperial Core (so the Nexus
    lost there next counts in full, +2, not halved), Nexus and Stargates without an Imperial
    system go, a force without units ends, an IE without its home dissolves, a strong Chaos
    force sends the Institute back."""
    state = quiet(ci=50)
    put_system(state, 1, CHAOS)
    put_system(state, 2, IMP)
    put_system(state, 4, IMP)
    put_system(state, 30, CHAOS)
    state["leviathan"] = True
    state["nexus"] = [1, 2, 8]
    state["stargates"] = [3, 4]
    ctx = context(state)
    empty_force = ctx.new_force("invader", 2, "TEST", marker="INVADERS")
    ctx.close()
    state["chaos_leaders"].remove(3)
    state["ies"]["1"] = {"home": 20, "leader": 3, "sectors": [20, 26], "arises": True,
                         "leader_marker": True}
    ie_unit = put_unit(state, "SF", 26, side=CHAOS, force=put_force(state, "ie", 26, [], ie=1))
    state["institutes"] = [{"loc": 30, "placed": 1}]
    put_force(state, "usurper", 30, ["WS", "WS"])
    before = state["ci2"]
    ctx = context(state)
    ctx.checks()
    ctx.close()
    assert state["leviathan"] is False and "LEVIATHAN" in state["discard"]
    assert state["nexus"] == [2] and state["ci2"] - before == 2 * (2 + 1)
    assert state["stargates"] == [4]
    assert empty_force not in state["forces"] and "INVADERS" in state["discard"]
    assert "1" not in state["ies"] and state["units"][ie_unit]["force"] is None
    assert state["chaos_leaders"].count(3) == 2 and "IE-ARISES" in state["discard"]
    assert state["institutes"] == [] and "INSTITUTE" in state["pool"]
    order = ["SGE-EV-LEVIATHAN", "SGE-NEX-4", "SGE-STG-3", "SGE-OPS-1", "SGE-IE-8",
             "SGE-EV-INSTITUTE"]
    firsts = [next(k for k, e in enumerate(state["log"]) if e["rule"] == rule) for rule in order]
    assert firsts == sorted(firsts)


def test_collapse_comes_first_and_ends_the_game_at_once():
    """SGE-SEQ-17, SGE-VIC-3, SGE-VIC-6, SGE-CI-1: the CI reaching 100 ends the game in
    Collapse at once, whatever the VP; the result records level, VP, CI and turn; the CI has
    no cap and later changes are ignored."""
    state = quiet(ci=99.5, turn=4)
    systems_in(state, G.system_sectors)
    state["nexus"] = [1]
    ctx = context(state)
    ctx.remove_system(1, "TEST", "test")                # the Core's Nexus goes: +2
    ctx.change_ci(-10, "after the end", "TEST")
    ctx.close()
    assert state["outcome"] == {"result": "collapse", "vp": 45, "ci": 101.5, "turn": 4}
    assert state["ci2"] == 203
    assert GAME.legal_actions(state, "imperial") == []


def test_collapse_in_sweep_of_empire():
    """SGE-VIC-3, SGE-SCN-7: Collapse at CI 100 ends a Sweep of Empire game too."""
    state = quiet(scenario="7", options={"base": "1"}, ci=98)
    assert state["sweep"] is True
    ctx = context(state)
    ctx.change_ci(2, "test", "TEST")
    ctx.close()
    assert state["outcome"]["result"] == "collapse"


# ============================================================================ victory
BANDS_1 = [(0, "collapse"), (26, "collapse"), (27, "decline"), (31, "decline"),
           (32, "survival"), (36, "survival"), (37, "expanding"), (41, "expanding"),
           (42, "galactic"), (46, "galactic")]


@pytest.mark.parametrize("vp, level", BANDS_1)
def test_victory_bands_on_the_last_turn(vp, level):
    """SGE-VIC-1, SGE-VIC-2, SGE-VIC-6, SGE-SEQ-16: on the scenario's last turn the Imperial
    system count is read against the five bands (both edges of each band included); the
    result records level, VP, CI and turn."""
    state = quiet(scenario="1", turn=20, ci=30)
    assert state["turns"] == 20
    systems_in(state, G.system_sectors[:vp])
    systems_in(state, G.system_sectors[vp:], side=CHAOS)
    begin_phase(state, 14, turn=20)
    run(state)
    assert state["outcome"] == {"result": level, "vp": vp, "ci": 30.0, "turn": 20}


def test_no_victory_check_before_the_last_turn():
    """SGE-VIC-2, SGE-VIC-5: before the last turn of a scenario nothing is decided, not even
    with every system Imperial and the CI at 0 (Universal Victory is Sweep of Empire's)."""
    state = quiet(scenario="1", turn=19, ci=0)
    systems_in(state, G.system_sectors)
    begin_phase(state, 14, turn=19)
    run(state)
    assert state["outcome"] is None


@pytest.mark.parametrize("count, ci, won", [(46, 10, True), (46, 0, True), (46, 10.5, False),
                                            (45, 0, False)])
def test_universal_victory_in_sweep_of_empire(count, ci, won):
    """SGE-VIC-4, SGE-VIC-5, SGE-VIC-6: in Sweep of Empire, at the end of every turn, an
    Imperial system in all 46 system sectors with the CI at 10 or less wins; the turn is
    recorded."""
    state = quiet(scenario="7", options={"base": "1"}, turn=6, ci=ci)
    systems_in(state, G.system_sectors[:count])
    begin_phase(state, 14, turn=6)
    run(state)
    if won:
        assert state["outcome"] == {"result": "universal", "vp": 46, "ci": float(ci), "turn": 6}
    else:
        assert state["outcome"] is None


def test_sweep_of_empire_stops_unfinished_at_the_turn_limit():
    """SGE-VIC-5, SGE-VIC-6, SGE-SEQ-1: Sweep of Empire has no scenario length; a game stopped
    at the program's turn limit is recorded as unfinished with its turn, VP and CI."""
    state = quiet(scenario="7", options={"base": "1", "max_turns": 5}, turn=5, ci=40)
    systems_in(state, G.system_sectors[:12])
    state["stack"] = [{"proc": "game"}]
    run(state)
    assert state["outcome"] == {"result": "turn-limit", "vp": 12, "ci": 40.0, "turn": 5}
    assert state["outcome"]["result"] in DATA["victory"]["other_outcomes"]


def test_phase_9_sells_no_leaders():
    """SGE-LDR-6, SGE-SEQ-11: the recruitment prompt offers units and markers, never a
    leader."""
    state = quiet(turn=3)
    put_system(state, 1, IMP, rv=4)
    put_unit(state, "SF", 1)
    state["rp"] = 200
    pool = list(state["imp_leaders"])
    begin_phase(state, 9, turn=3)
    run(state)
    assert state["pending"]["kind"] == "recruitment"
    actions = legal(state)
    assert {a["verb"] for a in actions} == {"buy_unit", "buy_marker", "done"}
    assert not [a for a in actions if "leader" in str(a).lower()]
    assert state["imp_leaders"] == pool
