"""The Build phase (rules-battles.md section 11), run from a ``build_phase`` frame on hand-made
states: income, own force pool, common pool access and order, flipping, carry-over."""

from __future__ import annotations

import pytest

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import ScriptedDice, at, hand_state, put, set_region

PHASE = {"proc": "build_phase", "opening": False}
COST = {"SF": 2, "CG": 2, "AF": 3, "IO": 4, "WS": 6}


def build_state(scenario="civil-war", ci=50, **rp):
    state = hand_state(scenario, ci=ci, stack=[PHASE])
    for side, amount in rp.items():
        state["players"][side]["rp"] = amount
    return state


def empty_pool(state, side, keep=()):
    """Move every non-TH fleet of ``side`` out of its force pool (to the display) but
    ``keep``."""
    for fid, fleet in state["fleets"].items():
        if fleet["owner"] == side and fleet["at"] == "pool" and fid not in keep:
            put(state, fid, "display")


def types_offered(state, role):
    return sorted(a["type"] for a in GAME.legal_actions(state, role) if a["verb"] == "build")


def build(state, role, code=None):
    action = {"verb": "build", "type": code} if code else {"verb": "done"}
    assert state["pending"]["kind"] == "build" and state["pending"]["role"] == role
    GAME.apply(state, role, action, copy=False)
    GAME.advance(state, rng=ScriptedDice([]))


def test_income_adds_carry_over_regions_build_chits_and_garrisoned_world_ships():
    """BFG-BLD-1: Blue has 4 carried + R 3 + R 2 of its two regions + 2 banked + 2 for its WS
    in a garrison = 13; Red has R 1 + 2 for its garrisoned WS = 3; banked RP are used up."""
    state = build_state(blue=4)
    state["players"]["blue"]["banked"] = 2
    set_region(state, 1, R=3)
    set_region(state, 2, R=2)
    put(state, "B-WS1", "garrison", 1)
    put(state, "B-SF1", "garrison", 2)
    put(state, "R-WS1", "garrison", 3)
    for number, side in ((1, "blue"), (2, "blue"), (3, "red")):
        state["regions"][str(number)]["controller"] = side
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["players"]["blue"]["rp"] == 13 and state["players"]["blue"]["banked"] == 0
    assert state["players"]["red"]["rp"] == 3


def test_a_world_ship_outside_a_garrison_yields_nothing():
    """BFG-BLD-1: a WS deployed on the map but not in the garrison gives no RP."""
    state = build_state()
    put(state, "B-WS1", "map", 1)
    put(state, "B-SF1", "garrison", 1)
    state["regions"]["1"]["controller"] = "blue"
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["players"]["blue"]["rp"] == 1          # R 1 of the region only


def test_building_from_the_own_force_pool_at_cost_onto_the_display():
    """BFG-BLD-2, BFG-BLD-3: with 3 RP Blue may build an SF, a CG or an AF (not an IO or a
    WS); the AF built costs 3 and waits on Blue's display."""
    state = build_state(blue=3)
    GAME.advance(state, rng=ScriptedDice([]))
    assert types_offered(state, "blue") == ["AF", "CG", "SF"]
    build(state, "blue", "AF")
    assert at(state, "B-AF1") == ("display", None, "blue")
    assert state["players"]["blue"]["rp"] == 0
    assert state["stack"] == []


@pytest.mark.parametrize("code", sorted(COST))
def test_build_costs(code):
    """BFG-BLD-3, BFG-COMP-12: each type costs its mil + morph value."""
    state = build_state(blue=6)
    GAME.advance(state, rng=ScriptedDice([]))
    build(state, "blue", code)
    assert state["players"]["blue"]["rp"] == 6 - COST[code]
    assert state["fleets"][f"B-{code}1"]["at"] == "display"


def test_trans_humans_are_never_offered_for_building():
    """BFG-BLD-11: with 30 RP every buildable type is offered but TH; a side whose force pool
    is empty and whose TH sit in the supply is not asked at all."""
    state = build_state(blue=30, red=30)
    empty_pool(state, "red")
    GAME.advance(state, rng=ScriptedDice([]))
    assert types_offered(state, "blue") == ["AF", "CG", "IO", "SF", "WS"]
    build(state, "blue")
    assert state["stack"] == [] and state["pending"] is None      # Red never asked
    assert all(state["fleets"][f"R-TH{n}"]["at"] == "supply" for n in (1, 2, 3))


def test_the_common_pool_opens_only_once_the_own_pool_is_built_out():
    """BFG-BLD-4, BFG-BLD-9: Blue's last SF must be built first; then the Red AF in the common
    pool is offered, and once built it is Blue's."""
    state = build_state(blue=10)
    empty_pool(state, "blue", keep=["B-SF10"])
    put(state, "R-AF1", "common")
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["source"] == "own" and types_offered(state, "blue") == ["SF"]
    build(state, "blue", "SF")
    assert state["pending"]["source"] == "common" and types_offered(state, "blue") == ["AF"]
    build(state, "blue", "AF")
    assert at(state, "R-AF1") == ("display", None, "blue")
    assert state["players"]["blue"]["rp"] == 5


def test_a_player_who_stops_before_emptying_the_pool_gets_no_common_access():
    """BFG-BLD-4: Blue stops with two fleets still in its pool: no common-pool build."""
    state = build_state(blue=10)
    empty_pool(state, "blue", keep=["B-SF10", "B-CG8"])
    put(state, "R-AF1", "common")
    GAME.advance(state, rng=ScriptedDice([]))
    build(state, "blue")
    assert state["pending"] is None and state["fleets"]["R-AF1"]["at"] == "common"


def test_trans_humans_in_supply_do_not_keep_the_pool_from_being_empty():
    """BFG-BLD-5: Blue's force pool holds nothing buildable (its TH are in the supply):
    the common pool is open to Blue."""
    state = build_state(blue=4)
    empty_pool(state, "blue")
    put(state, "R-SF1", "common")
    assert all(state["fleets"][f"B-TH{n}"]["at"] == "supply" for n in (1, 2, 3))
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["source"] == "common" and types_offered(state, "blue") == ["SF"]


def common_pool_state(scenario, ci, blue, red, red_keeps=()):
    state = build_state(scenario, ci=ci, blue=blue, red=red)
    empty_pool(state, "blue")
    empty_pool(state, "red", keep=red_keeps)
    for n in range(1, 5):
        put(state, f"B-SF{n}", "common")
        put(state, f"R-SF{n}", "common")
    return state


def test_both_build_out_their_pools_then_alternate_from_the_richer():
    """BFG-BLD-6, BFG-BLD-7, BFG-BLD-9: (Invasion) Red first builds its last own SF (5 -> 3
    RP). Then the common pool alternates one fleet at a time, starting with Blue (8 RP > 3);
    when Red cannot pay any more, Blue goes on alone. Fleets built flip to the builder."""
    state = common_pool_state("invasion", 50, blue=8, red=5, red_keeps=["R-SF10"])
    GAME.advance(state, rng=ScriptedDice([]))
    order = []
    while state["pending"] is not None:
        role, source = state["pending"]["role"], state["pending"]["source"]
        order.append((role, source))
        build(state, role, "SF")
    assert order == [("red", "own"), ("blue", "common"), ("red", "common"),
                     ("blue", "common"), ("blue", "common"), ("blue", "common")]
    assert state["players"]["blue"]["rp"] == 0 and state["players"]["red"]["rp"] == 1
    assert [f for f, v in state["fleets"].items()
            if v["at"] == "display" and v["owner"] == "red" and v["type"] == "SF"
            and f[0] == "B"] == ["B-SF2"]


def test_when_one_player_stops_the_other_goes_on():
    """BFG-BLD-6: Red stops at its first common-pool turn; Blue then builds twice in a row."""
    state = common_pool_state("invasion", 50, blue=6, red=4)
    GAME.advance(state, rng=ScriptedDice([]))
    build(state, "blue", "SF")
    build(state, "red")
    build(state, "blue", "SF")
    build(state, "blue", "SF")
    assert state["pending"] is None and state["players"]["red"]["rp"] == 4


@pytest.mark.parametrize("ci, first", [(50, "red"), (51, "blue")])
def test_a_tie_in_rp_is_broken_by_the_ci(ci, first):
    """BFG-BLD-7: equal RP: Red starts at CI 50 or less, Blue at 51 or more; each pick is
    one fleet, then the other player's turn."""
    state = common_pool_state("invasion", ci, blue=4, red=4)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["role"] == first and state["pending"]["source"] == "common"
    build(state, first, "SF")
    assert state["pending"]["role"] != first


@pytest.mark.parametrize("ci, blue, red, first", [(50, 8, 3, "red"), (51, 3, 8, "blue")])
def test_civil_war_common_pool_order_follows_the_ci_not_the_rp(ci, blue, red, first):
    """BFG-BLD-8, BFG-SCN-5: in Civil War the CI alone picks who starts the common-pool
    alternation, whoever has more RP."""
    state = common_pool_state("civil-war", ci, blue=blue, red=red)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["role"] == first and state["pending"]["source"] == "common"


@pytest.mark.parametrize("carried, region_r, kept", [(14, 0, 10), (11, 0, 10), (10, 0, 10), (7, 0, 7),
                                                     (9, 3, 10)])
def test_at_most_ten_rp_carry_over(carried, region_r, kept):
    """BFG-BLD-10: unspent RP carry over up to 10; the excess is lost."""
    state = build_state(blue=carried)
    if region_r:
        set_region(state, 1, R=region_r)
        put(state, "B-SF1", "garrison", 1)
        state["regions"]["1"]["controller"] = "blue"
    GAME.advance(state, rng=ScriptedDice([]))
    if state["pending"] is not None:
        build(state, "blue")
    assert state["players"]["blue"]["rp"] == kept
