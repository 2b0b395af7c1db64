"""Rules tests for setup.py: the set-up order, the player's placements and what each scenario
puts on the map (systems, units, leaders, markers, pool, schedule, tracks)."""

from __future__ import annotations

from collections import Counter

import pytest

from struggle_desktop.engine.errors import BadOption, IllegalAction
from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.context import CHAOS, IMP
from struggle_desktop.games.struggle.setup import pick_ie_site
from tests.games.struggle.helpers import (act, clear_map, context, legal, new_game, run_until)

DATA = GAME.data
G = DATA.galaxy
NONE = {"imperial_order": False, "trans_humans": False, "nexus": False, "illumination": False,
        "stargates": False, "increased_resources": False, "expeditions": False}

# What each scenario sets up (section 14.2): Imperial and Chaos system ranges with the shipped
# map's counts, Imperial units, leaders, Nexus sites, Available box, RP, CI, turns, bands.
SCENARIOS = {
    "1": dict(imp=(1, 40, 32), chaos=(41, 57, 14),
              units={"IO": 2, "AF": 4, "SF": 8, "CG": 6, "CF": 3, "WS": 1}, leaders=[1, 2],
              nexus=[1], available={"repression": 2, "illumination": 2}, rp=20, ci=50,
              turns=20, bands={"collapse": 26, "decline": 31, "survival": 36, "expanding": 41}),
    "3": dict(imp=(1, 25, 20), chaos=(26, 57, 26),
              units={"IO": 2, "AF": 3, "SF": 5, "CG": 3, "CF": 2}, leaders=[3],
              nexus=[1, 13, 17], available={"repression": 0, "illumination": 2}, rp=15, ci=80,
              turns=5, bands={"collapse": 20, "decline": 25, "survival": 30, "expanding": 35}),
    "4": dict(imp=(1, 17, 15), chaos=(18, 57, 31),
              units={"IO": 3, "AF": 3, "CG": 3, "WS": 1}, leaders=[2], nexus=[1],
              available={"repression": 2, "illumination": 2}, rp=20, ci=70, turns=10,
              bands={"collapse": 15, "decline": 20, "survival": 25, "expanding": 30}),
    "5": dict(imp=(1, 9, 8), chaos=(10, 57, 38), units={"IO": 2, "AF": 2}, leaders=[],
              nexus=[1], available={"repression": 4, "illumination": 0}, rp=10, ci=80,
              turns=10, bands={"collapse": 15, "decline": 20, "survival": 25, "expanding": 30}),
    "6": dict(imp=(1, 1, 1), chaos=(2, 57, 45), units={"TH": 5}, leaders=[1, 1, 1], nexus=[],
              available={"repression": 0, "illumination": 4}, rp=5, ci=70, turns=10,
              bands={"collapse": 5, "decline": 10, "survival": 15, "expanding": 20}),
}


def system_sectors(lo: int, hi: int) -> list[int]:
    return [n for n in G.system_sectors if lo <= n <= hi]


def sides(state: dict, side: str) -> list[int]:
    return sorted(int(k) for k, s in state["systems"].items() if s["side"] == side)


def first(state: dict, pred) -> int:
    return next(k for k, e in enumerate(state["log"]) if pred(e))


def last(state: dict, pred) -> int:
    return max(k for k, e in enumerate(state["log"]) if pred(e))


def at_placement(scenario: str, seed: int = 1, options: dict | None = None) -> dict:
    state = GAME.advance(GAME.setup(scenario, seed, options))
    assert state["pending"]["kind"] == "setup_placement"
    return state


def finish_setup(state: dict) -> dict:
    """Auto-place and stop when the set-up is over, before turn 1 begins."""
    GAME.apply(state, "imperial", {"verb": "auto_place"}, copy=False)
    return run_until(state, lambda st: [f["proc"] for f in st["stack"]] == ["game"])


def total(state: dict, n: int) -> int:
    mil, morph, rv = DATA.system_counters[state["systems"][str(n)]["id"]]
    return mil + morph + rv


# ============================================================================ order
def test_setup_order_items_4_2_3_then_placements_then_6_7_1_10():
    """SGE-SEQ-2: Imperial systems (item 4), then Chaos systems (2), then Chaos forces (3:
    the IEs and Rebels), then the Imperial forces wait for the player (5); the markers of the
    Available box (6), the RP (7) and the CI (1) come only after the placements."""
    state = at_placement("3")
    place = [k for k, e in enumerate(state["log"]) if e["rule"] == "SGE-SEQ-2"
             and e["kind"] == "place"]
    imp = [k for k in place if state["log"][k]["text"].startswith("Imperial")]
    chaos = [k for k in place if state["log"][k]["text"].startswith("Chaos")]
    assert len(imp) == 20 and len(chaos) == 26 and max(imp) < min(chaos)
    forces = first(state, lambda e: e["rule"] in ("SGE-IE-3", "SGE-REB-3"))
    assert forces > max(chaos)
    assert state["ci2"] == 0 and state["rp"] == 0
    assert state["available"] == {"repression": 0, "illumination": 0}
    assert all(u["loc"] is None for u in state["units"].values() if u["side"] == IMP)
    finish_setup(state)
    placed = last(state, lambda e: e["rule"] == "SGE-SEQ-21" and e["kind"] != "marker"
                  or e["text"].startswith("Nexus placed"))
    available = first(state, lambda e: e["text"].startswith("Imperial Markers Available"))
    tracks = first(state, lambda e: e["text"].startswith("Starting Chaos Index"))
    assert placed < available < tracks
    assert state["ci2"] == 160 and state["rp"] == 15 and state["turn"] == 0


def test_setup_step_3_takes_scheduled_markers_out_first_and_leviathan_last():
    """SGE-SEQ-2, SGE-POOL-22, SGE-POOL-7: the markers a scenario schedules leave the pool
    before the first item; the Leviathan on the Core is placed with the special rules
    (item 10), after the CI is set."""
    state = new_game("5", 2)
    schedule = first(state, lambda e: e["rule"] == "SGE-POOL-7")
    systems = first(state, lambda e: e["rule"] == "SGE-SEQ-2" and e["kind"] == "place")
    assert schedule < systems
    tracks = first(state, lambda e: e["text"].startswith("Starting Chaos Index"))
    leviathan = first(state, lambda e: e["text"].startswith("A Leviathan from the pool"))
    assert tracks < leviathan


def test_scenario_2_forms_its_chaos_forces_after_its_item_5():
    """SGE-SEQ-2, SGE-SEQ-20: Civil War flips its placed units after the placements (its
    item 3 depends on item 5)."""
    state = at_placement("2")
    assert not [u for u in state["units"].values() if u["side"] == CHAOS]
    state = GAME.advance(GAME.apply(state, "imperial", {"verb": "auto_place"}))
    flips = [e for e in state["log"] if e["rule"] == "SGE-SEQ-20" and e["kind"] == "convert"]
    placed = last(state, lambda e: e["rule"] == "SGE-SEQ-21")
    assert flips and state["log"].index(flips[0]) > placed


# ============================================================================ pools
def test_markers_of_switched_off_rules_leave_the_pool_at_setup():
    """SGE-POOL-5, SGE-POOL-4, SGE-POOL-1: without their optional rules Expedition Possible,
    Galactic Enlightenment, Imperial Elites and Trans-humans Appear are removed from play at
    set-up; with every rule on the pool holds all 100 markers."""
    off = new_game("2", 1, NONE)
    out = Counter(off["removed"])
    assert out == Counter({"EXPEDITION": 4, "ENLIGHTENMENT": 1, "ELITES": 1, "TH-APPEAR": 3})
    assert not set(out) & set(off["pool"])
    assert len(off["pool"]) == 100 - 9
    on = new_game("2", 1, {"all": True})
    assert on["removed"] == [] and len(on["pool"]) == 100


def test_system_units_are_drawn_at_random_from_the_mix():
    """SGE-RES-1, SGE-RES-3: every system unit on the map is a counter of the mix, with its
    military, morph and RV, on its Imperial or Chaos side; the draws differ between seeds;
    the counters not on the map stay in the system pool."""
    a, b = new_game("1", 1), new_game("1", 2)
    for state in (a, b):
        for key, s in state["systems"].items():
            assert s["id"] in DATA.system_counters and s["side"] in (IMP, CHAOS)
            assert G.is_system[int(key)]
        assert len(state["systems"]) + len(state["system_pool"]) == len(DATA.system_counters)
    assert {k: s["id"] for k, s in a["systems"].items()} != \
        {k: s["id"] for k, s in b["systems"].items()}


# ============================================================================ scenarios
@pytest.mark.parametrize("sid", sorted(SCENARIOS))
def test_scenario_setup(sid):
    """SGE-SCN-1, SGE-SCN-3, SGE-SCN-4, SGE-SCN-5, SGE-SCN-6, SGE-SEQ-21, SGE-VIC-1: the
    Imperial and Chaos system sectors, the Imperial units (placed in Imperial-controlled
    sectors, or anywhere in Scenario 6), the leaders on Imperial mobile units, the Nexus
    markers, the Available box, RP, CI, length and victory bands of each scenario; every
    counter and marker is conserved."""
    spec = SCENARIOS[sid]
    state = new_game(sid, 3)
    lo, hi, count = spec["imp"]
    assert sides(state, IMP) == system_sectors(lo, hi) and len(sides(state, IMP)) == count
    lo, hi, count = spec["chaos"]
    assert sides(state, CHAOS) == system_sectors(lo, hi) and len(sides(state, CHAOS)) == count
    imperial = [u for u in state["units"].values() if u["side"] == IMP]
    assert Counter(u["type"] for u in imperial) == Counter(spec["units"])
    for u in imperial:
        assert u["loc"] is not None
        if sid != "6":
            assert state["systems"][str(u["loc"])]["side"] == IMP
    assert sorted(u["leader"] for u in imperial if u["leader"]) == sorted(spec["leaders"])
    assert sorted(state["nexus"]) == spec["nexus"]
    assert state["available"] == spec["available"]
    assert (state["rp"], state["ci2"], state["turns"]) == (spec["rp"], 2 * spec["ci"], spec["turns"])
    assert state["victory"] == spec["bands"]
    assert GAME.invariants(state) == []


def test_scenario_1_rebels_stand_on_their_chaos_systems():
    """SGE-SCN-1, SGE-REB-3, SGE-REB-1: Rebels come from one IE Recruiting roll per Chaos
    system and stand in those sectors as Chaos units of no force."""
    state = new_game("1", 3)
    chaos = [u for u in state["units"].values() if u["side"] == CHAOS]
    assert chaos and state["forces"] == {} and state["ies"] == {}
    for u in chaos:
        assert u["force"] is None and state["systems"][str(u["loc"])]["side"] == CHAOS
    rolls = [e for e in state["log"] if e["rule"] == "SGE-REB-3" and e["kind"] == "roll"]
    assert len(rolls) == 14


def test_scenario_2_civil_war():
    """SGE-SCN-2, SGE-SEQ-20, SGE-CI-14, SGE-DICE-2, SGE-DICE-3, SGE-REB-1: every system
    sector gets a system, Imperial on an even roll (0 included) and a Rebel system on an odd
    one; 2 AF, 6 SF, 8 CG and 4 CF are placed, at most 2 in a sector, and each flips to a
    Rebel on an odd roll; the CI starts at 70 and the RP at 0."""
    state = new_game("2", 4)
    rolls = {e["text"].split(": ")[1].split()[-1]: e["dice"][0]["face"]
             for e in state["log"] if e["rule"] == "SGE-DICE-2"}
    assert len(state["systems"]) == len(G.system_sectors)
    for n in G.system_sectors:
        face = rolls[f"{n:02d}"]
        s = state["systems"][str(n)]
        assert s["side"] == (IMP if face % 2 == 0 else CHAOS) and s["ie"] is None
    assert Counter(u["type"] for u in state["units"].values()) == \
        Counter({"AF": 2, "SF": 6, "CG": 8, "CF": 4})
    for uid, u in state["units"].items():
        assert u["side"] == (IMP if rolls[uid] % 2 == 0 else CHAOS) and u["force"] is None
    per_sector = Counter(u["loc"] for u in state["units"].values())
    assert max(per_sector.values()) <= 2
    assert state["ci2"] == 140 and state["rp"] == 0 and state["forces"] == {}
    assert state["turns"] == 10 and state["nexus"] == []


def test_scenario_3_independent_empires():
    """SGE-SCN-3, SGE-IE-3, SGE-IE-9, SGE-LDR-1, SGE-IO-1: IE #5 at 49 and IE #6 at 57, each
    with a leader drawn from the Chaos pool and an extra SF and CG; Rebels only on Chaos
    systems outside the IEs; the Empire's "3" leader on one of its mobile units; IO units in
    play with their rule forced on."""
    state = new_game("3", 5)
    assert state["ies"]["5"]["home"] == 49 and state["ies"]["6"]["home"] == 57
    drawn = [state["ies"][k]["leader"] for k in ("5", "6")]
    assert all(state["ies"][k]["leader_marker"] for k in ("5", "6"))
    assert Counter(state["chaos_leaders"]) + Counter(drawn) == Counter(DATA["leaders"]["chaos"])
    ie_sectors = set(state["ies"]["5"]["sectors"]) | set(state["ies"]["6"]["sectors"])
    assert not set(state["ies"]["5"]["sectors"]) & set(state["ies"]["6"]["sectors"])
    for number, home in (("5", 49), ("6", 57)):
        rec = state["ies"][number]
        assert len(rec["sectors"]) <= rec["leader"] + 1
        assert set(rec["sectors"]) - {home} <= set(G.neighbours[home])
        fid = next(f for f, r in state["forces"].items() if r["ie"] == int(number))
        types = Counter(u["type"] for u in state["units"].values() if u["force"] == fid)
        assert types["SF"] >= 1 and types["CG"] >= 1
        assert {u["loc"] for u in state["units"].values() if u["force"] == fid} == {home}
    for u in state["units"].values():
        if u["side"] == CHAOS and u["force"] is None:
            assert u["loc"] not in ie_sectors
            assert state["systems"][str(u["loc"])]["side"] == CHAOS
    holders = [u for u in state["units"].values() if u["leader"]]
    assert [u["leader"] for u in holders] == [3] and holders[0]["side"] == IMP
    assert state["options"]["imperial_order"] is True
    assert sum(u["type"] == "IO" for u in state["units"].values()) == 2


@pytest.mark.parametrize("sid", ["4", "6"])
def test_scenario_ie_sites_take_the_highest_totals(sid):
    """SGE-IE-10, SGE-SCN-4, SGE-SCN-6: IE #5's home is the Chaos system with the highest
    mil + morph + RV (ties to the lower number); IE #6's the best of the rest more than two
    sectors away from it."""
    state = new_game(sid, 6)
    chaos = sides(state, CHAOS)
    h5 = min(chaos, key=lambda n: (-total(state, n), n))
    rest = [n for n in chaos if n != h5 and G.dist[h5][n] > 2]
    h6 = min(rest, key=lambda n: (-total(state, n), n))
    assert state["ies"]["5"]["home"] == h5 and state["ies"]["6"]["home"] == h6


def test_pick_ie_site_ties_distance_and_ownership():
    """SGE-IE-10: the total is mil + morph + RV; a tie goes to the lower sector; a second site
    within distance 2 of the first is skipped; Imperial and IE systems are no candidates."""
    state = clear_map(new_game("2", 1))
    ctx = context(state)

    def put(n, side, values, ie=None):
        counter = next(c for c in state["system_pool"] if DATA.system_counters[c] == values)
        ctx.place_system(n, side, "TEST", counter=counter, ie=ie)

    put(43, CHAOS, (3, 3, 4))           # 10
    put(49, CHAOS, (3, 3, 4))           # 10, next to 43
    put(55, CHAOS, (4, 2, 4))           # 10, two steps from 43
    put(16, CHAOS, (2, 3, 3))           # 8
    put(11, CHAOS, (3, 2, 3))           # 8
    put(2, IMP, (3, 3, 4))              # Imperial: never a site
    state["ies"]["1"] = {"home": 31, "leader": 1, "sectors": [31], "arises": False,
                         "leader_marker": False}
    put(31, CHAOS, (4, 2, 4), ie=1)     # an IE's system: never a site
    assert G.dist[43][49] == 1 and G.dist[43][55] == 2
    assert G.dist[43][11] > 2 and G.dist[43][16] > 2
    assert pick_ie_site(ctx, []) == 43
    assert pick_ie_site(ctx, [43]) == 11
    ctx.close()


def test_scenario_5_replaces_rv_1_imperial_systems():
    """SGE-SEQ-22, SGE-RES-1, SGE-SCN-5: RV-1 systems drawn for 01-09 are set aside and redrawn
    until every Imperial system has RV 2 or more; the set-aside counters return to the pool
    before the Chaos systems are drawn (and may be drawn for them)."""
    redrawn = 0
    for seed in range(1, 6):
        state = new_game("5", seed)
        for n in sides(state, IMP):
            assert DATA.system_counters[state["systems"][str(n)]["id"]][2] >= 2
        notes = [k for k, e in enumerate(state["log"]) if e["rule"] == "SGE-SEQ-22"
                 and "set aside" in e["text"]]
        redrawn += len(notes)
        if notes:
            chaos = first(state, lambda e: e["rule"] == "SGE-SEQ-2" and e["kind"] == "place"
                          and e["text"].startswith("Chaos"))
            assert max(notes) < chaos
            for k in notes:
                counter = state["log"][k]["text"].split()[1]
                s = [v for v in state["systems"].values() if v["id"] == counter]
                assert counter in state["system_pool"] or s[0]["side"] == CHAOS
        assert GAME.invariants(state) == []
    assert redrawn > 0


def test_scenario_5_schedule_and_leviathan():
    """SGE-POOL-22, SGE-SCN-5, SGE-POOL-7: the Leviathan on the Core is in effect
    and the second one leaves the game; all 8 Usurpers leave the pool: one with a TH on each
    of turns 1-5 and three joining the pool on turn 6; no Chaos mobile unit starts on the
    map."""
    state = new_game("5", 1)
    assert state["leviathan"] is True
    assert state["pool"].count("LEVIATHAN") == 0 and state["removed"].count("LEVIATHAN") == 1
    assert state["pool"].count("USURPER") == 0
    assert state["scheduled"] == [{"turn": t, "place_th_usurper": 1} for t in range(1, 6)] + \
        [{"turn": 6, "join_pool": {"USURPER": 3}}]
    assert not [u for u in state["units"].values() if u["side"] == CHAOS]
    assert state["scenario_rules"]["turn1_rebellion_limit"] == 2


def test_scenario_4_leviathan_takes_one_of_two():
    """SGE-POOL-22, SGE-SCN-4: one Leviathan from the pool is on the Core and in
    effect; the other stays in the pool."""
    state = new_game("4", 1)
    assert state["leviathan"] is True and state["pool"].count("LEVIATHAN") == 1


def test_scenario_6_schedule():
    """SGE-POOL-22, SGE-SCN-6, SGE-POOL-7: all 8 Usurpers and 12 Rebellions leave the pool;
    one Usurper joins on each of turns 2-9, one Rebellion on turns 2-5 and two on turns 6-9;
    five Imperial TH start anywhere with three "1" leaders on them."""
    state = new_game("6", 1)
    assert state["pool"].count("USURPER") == 0 and state["pool"].count("REBELLION") == 0
    expected = [{"turn": t, "join_pool": {"REBELLION": 1 if t <= 5 else 2, "USURPER": 1}}
                for t in range(2, 10)]
    assert state["scheduled"] == expected
    holders = [u for u in state["units"].values() if u["leader"]]
    assert sorted(u["leader"] for u in holders) == [1, 1, 1]
    assert all(u["type"] == "TH" and u["side"] == IMP for u in holders)


def test_sweep_of_empire_uses_the_base_scenario():
    """SGE-SCN-7: Sweep of Empire sets up its base scenario's items and has no
    turn limit."""
    state = at_placement("7", 1, {"base": "3"})
    finish_setup(state)
    assert state["sweep"] is True and state["turns"] is None and state["base"] == "3"
    assert state["ci2"] == 160 and state["rp"] == 15
    assert sorted(int(k) for k, s in state["systems"].items() if s["side"] == IMP) == \
        system_sectors(1, 25)


def test_imperial_order_units_in_scenarios_3_to_5():
    """SGE-IO-1, SGE-SEQ-19: Scenarios 3, 4 and 5 start with Imperial Order units, and the
    rule is forced on even when the player switches everything off."""
    for sid, count in (("3", 2), ("4", 3), ("5", 2)):
        with pytest.raises(BadOption):
            GAME.setup(sid, 1, {"imperial_order": False})
        forced = GAME.setup(sid, 1, {"all": False})
        assert forced["options"]["imperial_order"] is True
        state = new_game(sid, 1)
        assert state["options"]["imperial_order"] is True
        assert sum(u["type"] == "IO" and u["side"] == IMP for u in state["units"].values()) == count


def test_leaders_come_only_from_the_scenario_and_the_pool():
    """SGE-LDR-6, SGE-LDR-2, SGE-LDR-1: the Imperial leaders on the map are exactly the
    scenario's; the rest stay in the Imperial leader pool (nothing else creates them)."""
    for sid in ("1", "3", "6"):
        state = new_game(sid, 1)
        on_map = [u["leader"] for u in state["units"].values() if u["leader"]]
        assert Counter(on_map) + Counter(state["imp_leaders"]) == Counter(DATA["leaders"]["imperial"])
        assert sorted(on_map) == sorted(SCENARIOS[sid]["leaders"])


# ============================================================================ placements
def test_placement_prompt_offers_only_legal_placements():
    """SGE-SEQ-21, SGE-NEX-2: units go only to Imperial-controlled sectors; a leader goes on an
    Imperial mobile unit already placed; a Nexus goes in an Imperial-controlled sector with no
    Nexus in it or next to it."""
    state = at_placement("3")
    actions = legal(state)
    imp = set(sides(state, IMP))
    places = [a for a in actions if a["verb"] == "place"]
    assert places and {a["at"] for a in places} == imp
    assert not [a for a in actions if a["verb"] == "place_leader"]
    assert {a["at"] for a in actions if a["verb"] == "place_nexus"} == imp
    uid = sorted(u for u, rec in state["units"].items() if rec["loc"] is None)[0]
    act(state, {"verb": "place", "unit": uid, "at": 13})
    assert state["units"][uid]["loc"] == 13
    assert {"verb": "place_leader", "value": 3, "unit": uid} in legal(state)
    act(state, {"verb": "place_leader", "value": 3, "unit": uid})
    assert state["units"][uid]["leader"] == 3
    act(state, {"verb": "place_nexus", "at": 1})
    sites = {a["at"] for a in legal(state) if a["verb"] == "place_nexus"}
    assert 1 not in sites and not sites & set(G.neighbours[1]) and 13 in sites
    for bad in ({"verb": "place", "unit": uid, "at": 13},
                {"verb": "place", "unit": "SF-05", "at": 30},
                {"verb": "place", "unit": [uid], "at": 13},
                {"verb": "place", "unit": {"id": uid}, "at": 13}):
        with pytest.raises(IllegalAction):
            GAME.apply(state, "imperial", bad)
    other = sorted(u for u, rec in state["units"].items() if rec["loc"] is None)[0]
    for bad_at in (13.0, True, "13", [13]):
        with pytest.raises(IllegalAction):
            GAME.apply(state, "imperial", {"verb": "place", "unit": other, "at": bad_at})
    act(state, {"verb": "auto_place"})
    assert sorted(state["nexus"]) == [1, 13, 17]          # the suggested sites by default
    assert state["turn"] >= 1 and GAME.invariants(state) == []


def test_a_fixed_nexus_is_placed_by_the_scenario_not_the_player():
    """SGE-SEQ-21, SGE-SEQ-2, SGE-SCN-1: "a Nexus in Sector 01" is no placement left to the
    player: the prompt offers no Nexus, and the Nexus goes in 01 with the Imperial markers
    (item 6), after the placements and before the tracks."""
    state = at_placement("1")
    assert not [a for a in legal(state) if a["verb"] == "place_nexus"]
    finish_setup(state)
    assert state["nexus"] == [1]
    nexus = first(state, lambda e: e["text"].startswith("Nexus placed in 01"))
    placed = last(state, lambda e: e["rule"] == "SGE-SEQ-21" and e["kind"] == "place")
    tracks = first(state, lambda e: e["text"].startswith("Starting Chaos Index"))
    assert placed < nexus < tracks
    off = at_placement("2", 1, {"nexus": True})      # Scenario 2 has no Nexus at all
    finish_setup(off)
    assert off["nexus"] == []


def test_placement_anywhere_and_at_most_two():
    """SGE-SEQ-21, SGE-SEQ-20: Scenario 6's units may go in any numbered sector; Scenario 2's
    at most two to a sector."""
    state = at_placement("6")
    assert {a["at"] for a in legal(state) if a["verb"] == "place"} == set(G.numbers)
    state = at_placement("2")
    waiting = sorted(u for u, rec in state["units"].items() if rec["loc"] is None)
    act(state, {"verb": "place", "unit": waiting[0], "at": 30})
    assert 30 in {a["at"] for a in legal(state) if a["verb"] == "place"}
    act(state, {"verb": "place", "unit": waiting[1], "at": 30})
    assert 30 not in {a["at"] for a in legal(state) if a["verb"] == "place"}
