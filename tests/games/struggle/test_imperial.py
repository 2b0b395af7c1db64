"""Rules tests for imperial.py: Phases 7-12 and 14 and their prompts."""

from __future__ import annotations

import itertools

import pytest

from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.context import CHAOS, IMP
from struggle_desktop.games.struggle.imperial import (maintenance_bill, reachable,
                                                      recruit_options)
from tests.games.struggle.helpers import (ScriptedRng, act, begin_phase, clear_map, context,
                                          legal, new_game, put_force, put_system, put_unit,
                                          run, set_ci)

GALAXY = GAME.data.galaxy
ALL = {"all": True}
NONE = {"imperial_order": False, "trans_humans": False, "nexus": False, "illumination": False,
        "stargates": False, "increased_resources": False, "expeditions": False}


# ============================================================================ builders
def empty(turn: int = 2, options: dict | None = None, rp: int = 0) -> dict:
    """An empty galaxy on ``turn`` with every optional rule on unless told otherwise.
    Scenario 2 forces no option on, so ``NONE`` really switches them all off."""
    state = clear_map(new_game("2", 1, ALL if options is None else options))
    state["turn"] = turn
    state["turn_flags"] = {}
    state["effects"] = []
    state["rp"] = rp
    state["available"] = {"repression": 0, "illumination": 0}
    return state


def phase(state: dict, k: int, dice=()) -> dict:
    begin_phase(state, k, turn=state["turn"])
    return run(state, ScriptedRng(dice))


def reason(state: dict, action: dict) -> str | None:
    return GAME.check_action(state, "imperial", action)


def agree(state: dict, candidates) -> None:
    """The prompt's checker accepts exactly the actions of its legal list."""
    listed = legal(state)
    for action in listed:
        assert reason(state, action) is None, action
    for action in candidates:
        assert (reason(state, action) is None) == (action in listed), action


def add_alien(state: dict, kind: str, loc: int) -> None:
    state["next_seq"] += 1
    state["aliens"].append({"kind": kind, "loc": loc, "placed": state["turn"],
                            "seq": state["next_seq"]})


def sector_at_distance(start: int, d: int, avoid=()) -> int:
    return next(n for n in GALAXY.numbers if GALAXY.dist[start][n] == d and n not in avoid)


# ============================================================================ Phase 7
def test_income_counts_effective_rv_and_skips_a_nebula_sector():
    """SGE-SEQ-9, SGE-RES-5, SGE-IRS-2, SGE-EV-NEBULA: income is the effective RV of every
    Imperial system, +1 with Increased Resources, none from a Living Nebula sector."""
    state = empty(rp=3)
    put_system(state, 2, IMP, rv=2)
    put_system(state, 3, IMP, rv=3)
    state["systems"]["3"]["irs"] = True
    put_system(state, 4, CHAOS, rv=4)
    put_system(state, 5, IMP, rv=4)
    add_alien(state, "NEBULA", 5)
    phase(state, 7)
    assert state["rp"] == 3 + 2 + 4
    assert state["stack"] == [] and state["pending"] is None


# ============================================================================ Phase 8
def test_maintenance_bill_units_and_nexus_doubled_by_elites():
    """SGE-RES-6, SGE-EV-ELITES: each unit's upkeep plus 1 RP per Nexus, 2 under Elites."""
    state = empty()
    put_system(state, 1, IMP)
    put_system(state, 8, IMP)
    put_unit(state, "SF", 1)
    put_unit(state, "WS", 1)
    state["nexus"] = [1, 8]
    ctx = context(state)
    assert maintenance_bill(ctx) == 1 + 2 + 2
    state["effects"] = ["ELITES"]
    assert maintenance_bill(ctx) == 1 + 2 + 4


def test_maintenance_pay_and_voluntary_disband():
    """SGE-SEQ-10, SGE-RES-6, SGE-RES-8, SGE-LDR-4: with enough RP the player pays or first
    disbands units at will; a disbanded unit's leader is lost; no CI change."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    sf = put_unit(state, "SF", 1, leader=3)
    put_unit(state, "WS", 1)
    ci = state["ci2"]
    phase(state, 8)
    assert state["pending"]["kind"] == "maintenance"
    assert {"verb": "pay"} in legal(state)
    assert not [a for a in legal(state) if a["verb"] == "drop_nexus"]
    act(state, {"verb": "disband", "unit": sf})
    assert sf not in state["units"] and 3 in state["imp_leaders"] and state["ci2"] == ci
    act(state, {"verb": "pay"})
    assert state["rp"] == 8 and state["stack"] == []


def test_maintenance_short_of_rp_forces_choices_and_lost_nexus_raises_ci():
    """SGE-RES-8, SGE-NEX-4, SGE-CI-2: when the bill exceeds the RP there is no "pay" until
    units are disbanded or Nexus markers dropped; a dropped Nexus raises the CI."""
    state = empty(rp=3)
    put_system(state, 1, IMP)
    put_system(state, 8, IMP)
    put_unit(state, "SF", 1)
    put_unit(state, "SF", 8)
    state["nexus"] = [1, 8]
    ci = state["ci2"]
    phase(state, 8)
    verbs = {a["verb"] for a in legal(state)}
    assert "pay" not in verbs and {"disband", "drop_nexus"} <= verbs
    with pytest.raises(IllegalAction):
        GAME.apply(state, "imperial", {"verb": "pay"})
    act(state, {"verb": "drop_nexus", "at": 8})
    assert state["nexus"] == [1] and state["ci2"] == ci + 2     # +1 outside the Core
    act(state, {"verb": "pay"})
    assert state["rp"] == 0 and state["stack"] == []


def test_free_units_are_maintained_like_bought_ones():
    """SGE-REC-10: a unit received for free (here a WS placed as an Expedition's Lost Fleet
    would be) is on the maintenance bill."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    ctx = context(state)
    before = maintenance_bill(ctx)
    ctx.place_unit("WS", IMP, 1, "SGE-EXP-3", why="Lost Fleet")
    assert maintenance_bill(ctx) == before + GAME.data.unit_types["WS"].upkeep


@pytest.mark.parametrize("rp", [2, 20])
def test_maintenance_checker_agrees_with_the_list(rp):
    """SGE-RES-8: the fast check accepts exactly the listed maintenance actions, short of
    RP or not."""
    state = empty(rp=rp)
    put_system(state, 1, IMP)
    put_system(state, 8, IMP)
    units = [put_unit(state, "SF", 1), put_unit(state, "SF", 8, side=CHAOS)]
    state["nexus"] = [1, 8]
    phase(state, 8)
    agree(state, [{"verb": "pay"}, {"verb": "done"}, {"verb": "pay", "x": 1}]
          + [{"verb": "disband", "unit": u} for u in units + ["SF-99", 3]]
          + [{"verb": "drop_nexus", "at": n} for n in (1, 2, 8, "8")])


def test_maintenance_prompt_skipped_when_nothing_is_owed():
    """SGE-SEQ-10: no units and no Nexus, no bill, no question."""
    state = empty(rp=5)
    phase(state, 8)
    assert state["pending"] is None and state["rp"] == 5


# ============================================================================ Phase 9
def test_recruits_limited_by_effective_rv_per_sector_and_turn():
    """SGE-SEQ-11, SGE-REC-8: a unit costs its recruit price and goes to an Imperial
    system; a sector takes at most its effective RV in new units per turn."""
    state = empty(rp=30)
    put_system(state, 1, IMP, rv=2)
    phase(state, 9)
    assert state["pending"]["kind"] == "recruitment"
    act(state, {"verb": "buy_unit", "type": "SF", "at": 1})
    act(state, {"verb": "buy_unit", "type": "CG", "at": 1})
    assert state["rp"] == 30 - 3 - 3
    assert sorted(u["type"] for u in state["units"].values() if u["loc"] == 1) == ["CG", "SF"]
    assert "RV" in reason(state, {"verb": "buy_unit", "type": "SF", "at": 1})
    state["systems"]["1"]["irs"] = True
    assert reason(state, {"verb": "buy_unit", "type": "SF", "at": 1}) is None


def test_no_recruits_where_chaos_mobile_units_stand_or_without_a_system():
    """SGE-REC-8, SGE-RES-7: only Imperial-controlled sectors (holding an Imperial system)
    free of Chaos mobile units recruit."""
    state = empty(rp=30)
    put_system(state, 1, IMP)
    put_system(state, 2, IMP)
    put_system(state, 3, CHAOS)
    put_unit(state, "SF", 2, side=CHAOS)
    phase(state, 9)
    assert {a["at"] for a in legal(state) if a["verb"] == "buy_unit"} == {1}
    assert "Chaos" in reason(state, {"verb": "buy_unit", "type": "SF", "at": 2})
    assert reason(state, {"verb": "buy_unit", "type": "SF", "at": 3}) is not None
    assert reason(state, {"verb": "buy_unit", "type": "SF", "at": 7}) is not None


def test_io_and_th_need_their_optional_rules():
    """SGE-IO-3, SGE-TH-1, SGE-TH-3, SGE-REC-8: IO and TH units can be bought only with
    their optional rules."""
    state = empty(rp=30, options=NONE)
    put_system(state, 1, IMP, rv=4)
    phase(state, 9)
    assert "imperial_order" in reason(state, {"verb": "buy_unit", "type": "IO", "at": 1})
    assert "trans_humans" in reason(state, {"verb": "buy_unit", "type": "TH", "at": 1})
    state = empty(rp=30)
    put_system(state, 1, IMP, rv=4)
    phase(state, 9)
    act(state, {"verb": "buy_unit", "type": "IO", "at": 1})
    act(state, {"verb": "buy_unit", "type": "TH", "at": 1})
    assert state["rp"] == 30 - 6 - 4


def test_no_unit_bought_without_a_counter_in_the_mix():
    """SGE-REC-6: the player can never buy more units than there are counters left."""
    state = empty(rp=30)
    put_system(state, 1, IMP, rv=4)
    while state["mix"]["WS"]:
        put_unit(state, "WS", 1)
    phase(state, 9)
    assert "mix" in reason(state, {"verb": "buy_unit", "type": "WS", "at": 1})


def test_nexus_purchase_obeys_placement_price_and_stock():
    """SGE-NEX-1, SGE-NEX-2, SGE-REC-9, SGE-REC-7: 5 RP, an Imperial sector with no Nexus in
    or next to it, within the stock of six."""
    state = empty(rp=100)
    for n in (1, 2, 8, 9, 10, 11, 12, 13, 14):
        put_system(state, n, IMP)
    state["nexus"] = [1]
    phase(state, 9)
    sites = {a["at"] for a in legal(state) if a.get("marker") == "nexus"}
    assert sites and not sites & ({1} | set(GALAXY.neighbours[1]))
    target = min(sites)
    act(state, {"verb": "buy_marker", "marker": "nexus", "at": target})
    assert target in state["nexus"] and state["rp"] == 95
    state["nexus"] = [1, 2, 3, 4, 5, 6]
    assert "in use" in reason(state, {"verb": "buy_marker", "marker": "nexus", "at": 14})


def test_stargate_and_increased_resources_purchases():
    """SGE-STG-3, SGE-IRS-1, SGE-IRS-2, SGE-REC-9: a Stargate (5 RP) in an Imperial sector
    without one; Increased Resources (6 RP) on an Imperial system with RV below 4, once."""
    state = empty(rp=40)
    put_system(state, 1, IMP, rv=4)
    put_system(state, 2, IMP, rv=3)
    phase(state, 9)
    act(state, {"verb": "buy_marker", "marker": "stargate", "at": 2})
    assert state["stargates"] == [2] and state["rp"] == 35
    assert reason(state, {"verb": "buy_marker", "marker": "stargate", "at": 2}) is not None
    assert "RV" in reason(state, {"verb": "buy_marker", "marker": "increased_resources", "at": 1})
    act(state, {"verb": "buy_marker", "marker": "increased_resources", "at": 2})
    assert state["systems"]["2"]["irs"] and state["rp"] == 29
    assert context(state).effective_rv(state["systems"]["2"]) == 4
    assert reason(state, {"verb": "buy_marker", "marker": "increased_resources", "at": 2})


def test_repression_batches_and_bans():
    """SGE-REP-1, SGE-REC-9, SGE-EV-PARANOIA, SGE-EV-ENLIGHTENMENT: one RP buys one
    Repression marker, two under Paranoia (within the stock of eight), none under Galactic
    Enlightenment."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    phase(state, 9)
    act(state, {"verb": "buy_marker", "marker": "repression"})
    assert state["available"]["repression"] == 1 and state["rp"] == 9
    state["effects"] = ["PARANOIA"]
    act(state, {"verb": "buy_marker", "marker": "repression"})
    assert state["available"]["repression"] == 3 and state["rp"] == 8
    state["available"]["repression"] = 7
    act(state, {"verb": "buy_marker", "marker": "repression"})
    assert state["available"]["repression"] == 8
    state["available"]["repression"] = 0
    state["effects"] = ["ENLIGHTENMENT"]
    assert "Enlightenment" in reason(state, {"verb": "buy_marker", "marker": "repression"})


def test_illumination_price_bans_and_stock():
    """SGE-ILL-1, SGE-ILL-2, SGE-EV-ENLIGHTENMENT, SGE-EV-ELITES, SGE-EV-PARANOIA:
    2 RP, 1 RP under Enlightenment, none under Elites or Paranoia, at most six."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    phase(state, 9)
    act(state, {"verb": "buy_marker", "marker": "illumination"})
    assert state["available"]["illumination"] == 1 and state["rp"] == 8
    state["effects"] = ["ENLIGHTENMENT"]
    act(state, {"verb": "buy_marker", "marker": "illumination"})
    assert state["rp"] == 7
    for effect in ("ELITES", "PARANOIA"):
        state["effects"] = [effect]
        assert reason(state, {"verb": "buy_marker", "marker": "illumination"}) is not None
    state["effects"] = []
    state["available"]["illumination"] = 6
    assert "in use" in reason(state, {"verb": "buy_marker", "marker": "illumination"})


def test_markers_need_their_optional_rules():
    """SGE-SEQ-19: with the optional rules off, no Nexus, Stargate, Increased Resources,
    Repression or Illumination marker is offered."""
    state = empty(rp=50, options=NONE)
    put_system(state, 1, IMP, rv=1)
    phase(state, 9)
    assert not [a for a in legal(state) if a["verb"] == "buy_marker"]
    for marker in ("nexus", "stargate", "increased_resources"):
        assert reason(state, {"verb": "buy_marker", "marker": marker, "at": 1}) is not None
    for marker in ("repression", "illumination"):
        assert reason(state, {"verb": "buy_marker", "marker": marker}) is not None


def test_recruitment_prompt_skipped_when_nothing_can_be_bought():
    """SGE-SEQ-11: with no RP there is nothing to decide."""
    state = empty(rp=0)
    put_system(state, 1, IMP)
    phase(state, 9)
    assert state["pending"] is None and state["stack"] == []


def test_recruitment_checker_agrees_with_the_list():
    """SGE-REC-8, SGE-REC-9: the fast check accepts exactly the listed purchases."""
    state = empty(rp=12)
    for n, rv in ((1, 1), (2, 3), (8, 2)):
        put_system(state, n, IMP, rv=rv)
    put_system(state, 9, CHAOS)
    put_unit(state, "SF", 8, side=CHAOS)
    state["nexus"] = [1]
    phase(state, 9)
    candidates = [{"verb": "buy_unit", "type": t, "at": n}
                  for t in list(GAME.data.unit_types) + ["XX"] for n in (1, 2, 3, 8, 9, 70)]
    candidates += [{"verb": "buy_marker", "marker": m, "at": n}
                   for m in ("nexus", "stargate", "increased_resources", "repression")
                   for n in (1, 2, 8, 9)]
    candidates += [{"verb": "buy_marker", "marker": m} for m in ("repression", "illumination",
                                                                 "nexus")]
    candidates += [{"verb": "done"}, {"verb": "buy_unit", "type": "SF", "at": "2"},
                   {"verb": "fly"}]
    agree(state, candidates)
    assert reason(state, {"verb": "buy_unit", "type": "SF", "at": True}) is not None
    assert recruit_options(context(state)) == legal(state)[:-1]


# ============================================================================ Phase 10
def test_reachable_spends_one_ma_per_step_and_tracks_ma_used():
    """SGE-SEQ-12: a unit reaches every sector within its MA, across shared edges; MA spent
    earlier in the phase counts; Chaos units do not block."""
    state = empty()
    sf = put_unit(state, "SF", 1)
    for m in GALAXY.neighbours[1]:
        put_unit(state, "AF", m, side=CHAOS)
    ctx = context(state)
    assert reachable(ctx, sf) == {m: d for m, d in GALAXY.dist[1].items() if 1 <= d <= 2}
    phase(state, 10)
    step = GALAXY.neighbours[1][0]
    act(state, {"verb": "move", "unit": sf, "to": step})
    assert state["units"][sf]["loc"] == step
    assert reachable(context(state), sf) == {m: 1 for m in GALAXY.neighbours[step]}
    far = sector_at_distance(step, 2)
    assert "cannot reach" in reason(state, {"verb": "move", "unit": sf, "to": far})


def test_nebula_sector_can_be_entered_but_not_left_or_crossed():
    """SGE-SEQ-12, SGE-EV-NEBULA: no unit leaves a Living Nebula sector, so it never lies on
    a path; a unit inside it cannot move."""
    state = empty()
    sf = put_unit(state, "AF", 1)
    trap = GALAXY.neighbours[1][0]
    add_alien(state, "NEBULA", trap)
    ctx = context(state)
    costs = reachable(ctx, sf)
    assert costs[trap] == 1
    only_via_trap = [m for m in GALAXY.neighbours[trap]
                     if GALAXY.dist[1][m] == 2
                     and not any(k in GALAXY.neighbours[1] and k != trap
                                 for k in GALAXY.neighbours[m])]
    for m in only_via_trap:
        assert costs.get(m, 0) > 2
    inside = put_unit(state, "AF", trap)
    assert reachable(ctx, inside) == {}


def test_stargate_hop_costs_one_ma():
    """SGE-STG-1, SGE-STG-2: from a Stargate sector to any other Stargate sector for 1 MA."""
    state = empty()
    put_system(state, 1, IMP)
    put_system(state, 50, IMP)
    state["stargates"] = [1, 50]
    sf = put_unit(state, "SF", 1)
    costs = reachable(context(state), sf)
    assert costs[50] == 1
    assert all(costs[m] == 2 for m in GALAXY.neighbours[50] if GALAXY.dist[1][m] > 2)


def test_no_stacking_limit():
    """SGE-SEQ-18: any number of units of both sides share a sector: a unit may move into a
    sector that already holds twenty Imperial and twenty Chaos units."""
    state = empty()
    crowded = GALAXY.neighbours[1][0]
    for _ in range(20):
        put_unit(state, "SF", crowded)
        put_unit(state, "AF", crowded, side=CHAOS)
    sf = put_unit(state, "SF", 1)
    phase(state, 10)
    assert reason(state, {"verb": "move", "unit": sf, "to": crowded}) is None
    act(state, {"verb": "move", "unit": sf, "to": crowded})
    here = [u for u in state["units"].values() if u["loc"] == crowded]
    assert state["units"][sf]["loc"] == crowded
    assert sum(u["side"] == IMP for u in here) == 21
    assert sum(u["side"] == CHAOS for u in here) == 20


def test_move_stack_moves_only_units_that_can_reach():
    """SGE-SEQ-12: units may move together; a stack move takes every unit able to get there."""
    state = empty()
    sf = put_unit(state, "SF", 1)
    ws = put_unit(state, "WS", 1)
    target = sector_at_distance(1, 2)
    phase(state, 10)
    act(state, {"verb": "move_stack", "from": 1, "to": target})
    assert state["units"][sf]["loc"] == target and state["units"][ws]["loc"] == 1
    assert state["turn_flags"]["ma_used"][sf] == 2


def test_leader_changes_units_only_within_its_sector():
    """SGE-LDR-3: during movement a leader may move to another Imperial mobile unit without a
    leader in the same sector."""
    state = empty()
    a = put_unit(state, "SF", 1, leader=2)
    b = put_unit(state, "SF", 1)
    c = put_unit(state, "SF", 2)
    d = put_unit(state, "SF", 1, leader=1)
    phase(state, 10)
    assert reason(state, {"verb": "move_leader", "unit": a, "to_unit": c}) is not None
    assert reason(state, {"verb": "move_leader", "unit": a, "to_unit": d}) is not None
    act(state, {"verb": "move_leader", "unit": a, "to_unit": b})
    assert state["units"][b]["leader"] == 2 and state["units"][a]["leader"] is None


def test_movement_checker_agrees_with_the_list():
    """SGE-SEQ-12, SGE-STG-2, SGE-LDR-3: the fast check accepts exactly the listed moves."""
    state = empty()
    put_system(state, 1, IMP)
    put_system(state, 9, IMP)
    state["stargates"] = [1, 9]
    units = [put_unit(state, "SF", 1, leader=1), put_unit(state, "WS", 1),
             put_unit(state, "CF", 9), put_unit(state, "AF", 9, side=CHAOS)]
    add_alien(state, "NEBULA", 3)
    put_unit(state, "SF", 3)
    phase(state, 10)
    sectors = list(GALAXY.numbers) + [0, 99, "1"]
    candidates = [{"verb": "move", "unit": u, "to": n} for u in units + ["SF-99"] for n in sectors]
    candidates += [{"verb": "move_stack", "from": n, "to": m}
                   for n, m in itertools.product((1, 3, 9, 20), sectors)]
    candidates += [{"verb": "move_leader", "unit": a, "to_unit": b}
                   for a, b in itertools.product(units, units)]
    candidates += [{"verb": "done"}, {"verb": "move", "unit": units[0]}]
    agree(state, candidates)


def test_movement_prompt_skipped_without_imperial_units():
    """SGE-SEQ-12: nothing can move, nothing to ask."""
    state = empty()
    put_unit(state, "SF", 1, side=CHAOS)
    phase(state, 10)
    assert state["pending"] is None and state["stack"] == []


# ============================================================================ Phase 11
def test_one_attack_of_each_type_per_sector_and_turn():
    """SGE-SEQ-13, SGE-CMB-4: each sector allows one military and one morph attack a turn."""
    state = empty()
    put_unit(state, "AF", 20)
    put_unit(state, "SF", 20, side=CHAOS)
    phase(state, 11)
    assert state["pending"]["kind"] == "combat"
    assert {(a["at"], a["type"]) for a in legal(state) if a["verb"] == "attack"} == {
        (20, "mil"), (20, "morph")}
    act(state, {"verb": "attack", "at": 20, "type": "mil"}, ScriptedRng([4]))
    assert "already" in reason(state, {"verb": "attack", "at": 20, "type": "mil"})
    assert state["turn_flags"]["attacks"] == {"20:mil": 1}


def test_hive_sector_offers_no_military_attack():
    """SGE-CMB-5, SGE-EV-HIVE: the attack list leaves out what the aliens forbid."""
    state = empty()
    put_unit(state, "AF", 20)
    put_unit(state, "SF", 20, side=CHAOS)
    add_alien(state, "HIVE", 20)
    phase(state, 11)
    assert [a for a in legal(state) if a["verb"] == "attack"] == [
        {"verb": "attack", "at": 20, "type": "morph"}]


def test_ie_sector_held_by_the_empire_is_lost_at_the_end_of_combat():
    """SGE-IE-7: at the end of Phase 11 an IE sector with no IE system, holding Imperial
    units and no unit of that IE, loses its IE marker."""
    state = empty()
    state["chaos_leaders"].remove(2)
    state["ies"]["5"] = {"home": 49, "leader": 2, "sectors": [], "arises": False,
                         "leader_marker": True}
    put_system(state, 49, CHAOS, ie=5)
    held, kept, empty_sector = [m for m in GALAXY.neighbours[49]][:3]
    state["ies"]["5"]["sectors"] = sorted([49, held, kept, empty_sector])
    put_unit(state, "SF", held)
    put_unit(state, "SF", kept)
    fid = put_force(state, "ie", kept, ["CG"], leader=2, ie=5)
    assert fid in state["forces"]
    phase(state, 11)
    assert state["pending"]["kind"] == "combat"     # the IE's unit could be attacked
    act(state, {"verb": "done"})
    assert state["ies"]["5"]["sectors"] == sorted([49, kept, empty_sector])


# ============================================================================ Phase 12
def test_colonization_fleet_founds_an_imperial_system():
    """SGE-SEQ-14: a CF in a system sector with no system unit and no Chaos units returns to
    the mix and an Imperial system unit is drawn for the sector, once per sector and turn."""
    state = empty()
    cf = put_unit(state, "CF", 20)
    put_unit(state, "CF", 20)
    blocked = put_unit(state, "CF", 21)
    put_unit(state, "SF", 21, side=CHAOS)
    no_system = next(n for n in GALAXY.numbers if not GALAXY.is_system[n])
    elsewhere = put_unit(state, "CF", no_system)
    phase(state, 12)
    assert state["pending"]["kind"] == "colonization"
    assert reason(state, {"verb": "colonize", "unit": blocked}) is not None
    assert reason(state, {"verb": "colonize", "unit": elsewhere}) is not None
    act(state, {"verb": "colonize", "unit": cf}, ScriptedRng([0]))
    assert cf not in state["units"] and state["systems"]["20"]["side"] == IMP
    assert state["pending"] is None      # the second CF there has nothing left to do


# ============================================================================ Phase 14
def test_extropy_costs_by_systems_and_reads_the_table_once_a_turn():
    """SGE-SEQ-16, SGE-EXT-2: cost ceil(systems / 5) RP; the die reads the Extropy Table;
    one operation per turn."""
    state = empty(rp=10)
    set_ci(state, 50)
    for n in GALAXY.system_sectors[:12]:
        put_system(state, n, IMP)
    phase(state, 14)
    assert state["pending"]["kind"] == "end_of_turn"
    act(state, {"verb": "extropy"}, ScriptedRng([9]))
    assert state["rp"] == 10 - 3 and state["ci2"] == (50 - 5) * 2
    assert {"verb": "extropy"} not in legal(state)


def test_end_of_turn_and_colonization_checkers_agree_with_their_lists():
    """SGE-SEQ-14, SGE-SEQ-16, SGE-ILL-3: the fast checks accept exactly the listed actions."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    put_system(state, 13, IMP)
    state["nexus"] = [13]
    state["available"]["illumination"] = 1
    cfs = [put_unit(state, "CF", 20), put_unit(state, "CF", 1), put_unit(state, "SF", 20)]
    phase(state, 12)
    agree(state, [{"verb": "colonize", "unit": u} for u in cfs + ["CF-99"]]
          + [{"verb": "done"}, {"verb": "colonize"}])
    act(state, {"verb": "done"})
    phase(state, 14)
    agree(state, [{"verb": "extropy"}, {"verb": "done"}, {"verb": "illuminate", "effect": "ci"},
                  {"verb": "illuminate", "effect": "x"}, {"verb": "extropy", "at": 1}]
          + [{"verb": "illuminate", "effect": "th", "at": n} for n in (1, 2, 13, 20, "1")])


def test_paranoia_forbids_extropy():
    """SGE-EXT-1, SGE-EV-PARANOIA: no extropy operation under Paranoia."""
    state = empty(rp=10)
    put_system(state, 1, IMP)
    state["effects"] = ["PARANOIA"]
    state["available"]["illumination"] = 1
    phase(state, 14)
    assert "Paranoia" in reason(state, {"verb": "extropy"})


def test_illumination_lowers_ci_by_half_a_die_rounded_up():
    """SGE-ILL-3: one Illumination marker a turn lowers the CI by ceil(die / 2) and returns
    to the inventory."""
    state = empty(rp=0)
    set_ci(state, 50)
    put_system(state, 1, IMP)
    state["available"]["illumination"] = 2
    phase(state, 14)
    act(state, {"verb": "illuminate", "effect": "ci"}, ScriptedRng([7]))
    assert state["ci2"] == 46 * 2 and state["available"]["illumination"] == 1
    assert state["pending"] is None     # no second Illumination this turn: the turn ends


def test_illumination_raises_a_trans_human_in_core_or_nexus():
    """SGE-ILL-3, SGE-TH-3: with the Trans-humans rule, an Imperial TH in the Core or a
    Nexus sector that is Imperial-controlled."""
    state = empty(rp=0)
    put_system(state, 1, IMP)
    put_system(state, 13, IMP)
    put_system(state, 17, CHAOS)
    state["nexus"] = [13]
    state["available"]["illumination"] = 1
    phase(state, 14)
    sites = [a["at"] for a in legal(state) if a.get("effect") == "th"]
    assert sites == [1, 13]
    act(state, {"verb": "illuminate", "effect": "th", "at": 13})
    assert [u["loc"] for u in state["units"].values() if u["type"] == "TH"] == [13]
    state = empty(rp=0, options=dict(NONE, illumination=True))
    put_system(state, 1, IMP)
    state["available"]["illumination"] = 1
    phase(state, 14)
    assert not [a for a in legal(state) if a.get("effect") == "th"]


def test_end_of_turn_discards_this_turn_markers_without_a_prompt():
    """SGE-SEQ-16: with nothing to decide the phase runs the end of the turn at once."""
    state = empty(rp=0)
    put_system(state, 1, IMP)
    state["effects"] = ["PACIFISM"]
    phase(state, 14)
    assert state["pending"] is None and state["effects"] == [] and "PACIFISM" in state["discard"]


# ============================================================================ whole games
@pytest.mark.parametrize("seed", [1, 2])
def test_random_legal_play_stays_consistent(seed):
    """SGE-SEQ-1: random legal play through every Imperial prompt ends cleanly, and each
    listed action passes the fast checks."""
    state = GAME.advance(GAME.setup("3", seed, ALL))
    rng = Rng.from_seed(seed)
    for _ in range(5000):
        if state["outcome"] is not None:
            break
        actions = legal(state)
        if state["pending"]["kind"] in ("recruitment", "movement", "combat"):
            for action in actions:
                assert reason(state, action) is None, action
        choice = actions[rng.below(len(actions))]
        GAME.apply(state, "imperial", choice, copy=False)
        GAME.advance(state)
    assert state["outcome"] is not None
