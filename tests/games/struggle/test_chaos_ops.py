"""Rules tests for chaos_ops.py: Chaos Operations (Phase 2) with the Alliance prompts,
Usurpation (Phase 3), the Independent Empires (Phase 4, founding and recruiting) and Chaos
Colonization (Phase 5)."""

from __future__ import annotations

import pytest

from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.chaos_ops import (available_resources, conquest_candidates,
                                                       establish_ie, nearest_threatened,
                                                       threatened)
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (put_system, empty_galaxy as empty, ScriptedRng, act, begin_phase, context,
                                          legal, put_force, put_unit, run)

ALL = {"all": True}
DATA = GAME.data
G = DATA.galaxy

# The Chaos Operations Table of the rules (SGE-OPS-4): (op, attack) for faces 0..9.
RULES_OPS = {
    "usurper": [("attrition", False), ("none", False), ("move_lower", False),
                ("move_higher", False), ("move_one_toward_core", True),
                ("move_toward_core", False), ("move_toward_core", True),
                ("move_toward_core", True), ("stay", True), ("move_toward_core", True)],
    "ie": [("attrition", False), ("none", False), ("move_threatened", False),
           ("move_threatened", False), ("move_threatened", True),
           ("move_threatened_or_conquest", True), ("move_threatened_or_conquest", True),
           ("stay", True), ("move_threatened_or_conquest", True),
           ("move_threatened_or_conquest", True)],
    "invader": [("attrition", False), ("move_away", False), ("move_higher", False),
                ("move_lower", False), ("move_one_toward_core", True),
                ("move_one_toward_core", True), ("move_toward_core", True),
                ("move_toward_core", True), ("move_toward_core", True), ("stay", True)],
    "rebel": [("attrition", False), ("attrition", False), ("none", False), ("none", False),
              ("none", False), ("none", False), ("move_lower", True), ("move_higher", True),
              ("stay", True), ("move_one_toward_core", True)],
}


# ============================================================================ builders


def system(state: dict, n: int, side: str, like: str = "S21", ie: int | None = None) -> str:
    """A system counter with the values of ``like`` in sector n (see helpers.put_system)."""
    return put_system(state, n, side, ie=ie, like=like)


def make_ie(state: dict, number: int, home: int, sectors=(), like: str = "S21",
            leader: int = 1, units=()) -> str | None:
    """An IE with its home system (values of ``like``), more IE sectors (no system unit
    unless the caller puts one there) and a mobile force of ``units`` at home."""
    state["chaos_leaders"].remove(leader)
    state["ies"][str(number)] = {"home": home, "leader": leader, "sectors": [home],
                                 "arises": False, "leader_marker": True}
    system(state, home, CHAOS, like, ie=number)
    for n in sectors:
        state["ies"][str(number)]["sectors"].append(n)
    state["ies"][str(number)]["sectors"].sort()
    if units:
        return put_force(state, "ie", home, units, leader=leader, ie=number)
    return None


def members(state: dict, fid: str) -> list[str]:
    return sorted(u for u, rec in state["units"].items() if rec["force"] == fid)


def loc(state: dict, fid: str) -> int:
    return state["units"][members(state, fid)[0]]["loc"]


def phase(state: dict, k: int, dice=()) -> ScriptedRng:
    """Run Phase k alone with scripted dice; every scripted value must be used."""
    begin_phase(state, k, turn=state["turn"])
    rng = ScriptedRng(dice)
    run(state, rng)
    return rng


def ops_rolls(state: dict) -> list[str]:
    """The names of the actors that rolled on the Chaos Operations Table, in order."""
    return [e["text"].split(":")[0] for e in state["log"] if e["rule"] == "SGE-OPS-3"]


def combats(state: dict) -> list[str]:
    return [e["text"] for e in state["log"] if e["rule"] == "SGE-CMB-6"]


# ============================================================================ the table
@pytest.mark.parametrize("column", sorted(RULES_OPS))
def test_chaos_operations_table_matches_the_rules(column):
    """SGE-OPS-4: every face of every column is the rules' result."""
    rows = DATA["chaos_operations"]["results"][column]
    assert [(r["op"], r["attack"]) for r in rows] == RULES_OPS[column]


# ============================================================================ order
def test_subphases_and_order_within_them():
    """SGE-SEQ-4, SGE-OPS-2, SGE-OPS-3, SGE-INV-4, SGE-REB-2: Usurper and Mutant forces
    first (by sector, then by entry into play), then IE forces in IE-number order wherever
    they stand, then Invaders, then each sector's Rebels; every force rolls one unmodified die
    on its own column (the Rebels have no leader)."""
    state = empty()
    late_usurper = put_force(state, "usurper", 20, ["SF"], leader=3)
    usurper = put_force(state, "usurper", 10, ["SF"], leader=2)
    mutant = put_force(state, "mutant", 10, ["CG"], leader=5)
    ie2 = make_ie(state, 2, 30, units=["SF"])
    ie1 = make_ie(state, 1, 40, units=["SF"])
    invader = put_force(state, "invader", 5, ["SF"], leader=1)
    put_unit(state, "SF", 3, side=CHAOS)
    put_unit(state, "SF", 3, side=CHAOS)
    put_unit(state, "CG", 2, side=CHAOS)
    # Usurper/Mutant 1 = No Operations; IE 1 = No Operations; Invader 9 = + Attack (no
    # Imperial unit: nothing happens); Rebels 2 = No Operations.
    rng = phase(state, 2, [1, 1, 1, 1, 1, 9, 2, 2])
    assert rng.left == []
    assert ops_rolls(state) == [
        f"Usurper force {usurper}", f"Mutant force {mutant}", f"Usurper force {late_usurper}",
        f"IE #1 force ({ie1})", f"IE #2 force ({ie2})", f"Invader force {invader}",
        "Rebel force in 02", "Rebel force in 03"]
    rolls = [e for e in state["log"] if e["rule"] == "SGE-OPS-3"]
    assert all(e["dice"][0]["modifiers"] == [] for e in rolls)
    assert "(invader)" in rolls[5]["text"] and "(rebel)" in rolls[6]["text"]
    assert state["stack"] == [] and combats(state) == []


def test_each_force_acts_once_even_after_moving_onto_another():
    """SGE-OPS-2, SGE-OPS-1: a Rebel force that moves into a sector whose Rebels have not
    acted yet does not act again there; the Rebels there act as their own force."""
    state = empty()
    put_unit(state, "SF", 10, side=CHAOS)         # Move Higher (7) takes it to 16
    put_unit(state, "SF", 16, side=CHAOS)
    phase(state, 2, [7, 2])
    assert ops_rolls(state) == ["Rebel force in 10", "Rebel force in 16"]
    assert sorted(u["loc"] for u in state["units"].values()) == [16, 16]


def test_a_rebel_force_attacks_alone_after_moving_onto_other_rebels():
    """SGE-OPS-1, SGE-CMB-3, SGE-OPS-13: Rebels formed into one force at the start of the
    subphase attack with their own units only, not with Rebels they meet after a move."""
    state = empty()
    put_unit(state, "SF", 10, side=CHAOS)
    put_unit(state, "WS", 16, side=CHAOS)
    put_unit(state, "WS", 16, side=CHAOS)
    put_unit(state, "AF", 16)
    # 10's Rebels: 7 = Move Higher + Attack -> 16, attack (die 0); 16's Rebels: 2 = none.
    phase(state, 2, [7, 0, 2])
    assert len(combats(state)) == 1
    # The SF alone: morph 0 against the AF's 1 (with the two WS it would be 6 against 1).
    assert "0 against 1" in combats(state)[0]


# ============================================================================ simple results
def test_attrition_result_loses_one_unit_and_does_nothing_else():
    """SGE-OPS-15, SGE-CI-4: one unit of the force, picked at random, is eliminated with no CI
    change; the force neither moves nor attacks, even beside Imperial units."""
    state = empty()
    fid = put_force(state, "usurper", 10, ["SF", "CG"], leader=1)
    first, second = members(state, fid)
    put_unit(state, "SF", 10)
    before = state["ci2"]
    phase(state, 2, [0, 1])                          # attrition; victim 2 of 2
    assert members(state, fid) == [first]
    assert second in state["mix"][second.split("-")[0]]
    assert loc(state, fid) == 10 and combats(state) == [] and state["ci2"] == before


def test_no_operations_result():
    """SGE-OPS-16: the force neither moves nor attacks."""
    state = empty()
    fid = put_force(state, "usurper", 10, ["WS", "WS"], leader=1)
    put_unit(state, "SF", 10)
    phase(state, 2, [1])
    assert loc(state, fid) == 10 and combats(state) == []


def test_plus_attack_without_a_move_and_after_a_move():
    """SGE-OPS-13, SGE-OPS-14: "+ Attack" attacks the Imperial units of the force's sector
    whether or not it moved: here once in place, once in the sector it moved into."""
    state = empty()
    fid = put_force(state, "usurper", 10, ["WS"], leader=0)
    put_unit(state, "SF", 10)
    phase(state, 2, [8, 9])                          # 8 = + Attack (no move); combat die 9
    assert len(combats(state)) == 1 and loc(state, fid) == 10
    state = empty()
    fid = put_force(state, "usurper", 20, ["WS"], leader=0)
    put_unit(state, "SF", 59)
    phase(state, 2, [4, 9])                          # one sector toward the Core: 59, attack
    assert loc(state, fid) == 59
    assert len(combats(state)) == 1 and "in 59" in combats(state)[0]


# ============================================================================ moves
def test_move_toward_the_core_uses_the_slowest_ma_and_random_ties():
    """SGE-OPS-5, SGE-OPS-6, SGE-OPS-7, SGE-OPS-17: the force moves its slowest unit's MA
    along a shortest path to the Core, picking at random among equally short steps, through
    sectors that hold Imperial units."""
    state = empty()
    fid = put_force(state, "usurper", 20, ["AF", "SF"], leader=1)   # MA 3 and 2: moves 2
    put_unit(state, "AF", 59)
    # 5 = Move Toward the Core; 20 -> 59 (only step), 59 -> 2 or 3: pick 2 of 2.
    rng = phase(state, 2, [5, 1])
    assert rng.left == [] and loc(state, fid) == 3


def test_move_toward_the_core_stops_at_the_core_and_stays_there():
    """SGE-OPS-6, SGE-OPS-7: a force stops early on reaching the Core, and one in the Core
    stays."""
    state = empty()
    fid = put_force(state, "usurper", 2, ["AF"], leader=1)           # MA 3
    core = put_force(state, "usurper", 1, ["AF"], leader=1)
    phase(state, 2, [5, 5])
    assert loc(state, fid) == 1 and loc(state, core) == 1


def test_move_one_sector_toward_the_core():
    """SGE-OPS-6: "Move one Sector toward Core" moves exactly one step, whatever the MA."""
    state = empty()
    fid = put_force(state, "invader", 26, ["AF"], leader=1)          # MA 3
    phase(state, 2, [4])
    assert loc(state, fid) == 59


def test_trans_human_sets_the_slowest_ma():
    """SGE-TH-4, SGE-OPS-5: a Chaos TH is an ordinary member of its force: its MA of 2 holds
    back an AF."""
    state = empty()
    fid = put_force(state, "invader", 26, ["AF", "TH"], leader=1)
    rng = phase(state, 2, [6, 0])                    # Move Toward the Core + Attack
    assert rng.left == []                            # 26 -> 59 -> (2 or 3: one draw)
    assert G.dist_to_core[loc(state, fid)] == G.dist_to_core[26] - 2


def test_living_nebula_holds_a_force_and_stops_one_entering():
    """SGE-OPS-7, SGE-OPS-10, SGE-EV-NEBULA: a force cannot leave a Living Nebula sector, and a
    force moving into one stops there."""
    state = empty()
    stuck = put_force(state, "usurper", 20, ["AF"], leader=1)
    state["aliens"] = [{"kind": "NEBULA", "loc": 20, "placed": 1, "seq": 1}]
    phase(state, 2, [5])
    assert loc(state, stuck) == 20
    state = empty()
    fid = put_force(state, "usurper", 26, ["AF"], leader=1)          # MA 3: 26-59-2/3
    state["aliens"] = [{"kind": "NEBULA", "loc": 59, "placed": 1, "seq": 1}]
    phase(state, 2, [5])
    assert loc(state, fid) == 59


def test_move_away_from_the_core():
    """SGE-OPS-8, SGE-MAP-5, SGE-OPS-10: one step farther from the Core, at random among
    several; a force next to the Void does not move; nor does one without a farther
    neighbour."""
    state = empty()
    one = put_force(state, "invader", 8, ["SF"], leader=1)           # only 14 is farther
    many = put_force(state, "invader", 59, ["SF"], leader=1)         # six farther sectors
    rim = put_force(state, "invader", 53, ["SF"], leader=1)          # next to the Void
    flat = put_force(state, "invader", 14, ["SF"], leader=1)         # no farther neighbour
    # Invaders act by sector: 08, 14, 53, 59. 1 = Move Away from Core.
    rng = phase(state, 2, [1, 1, 1, 1, 3])
    assert rng.left == []
    assert loc(state, one) == 14
    assert loc(state, flat) == 14
    assert loc(state, rim) == 53
    assert G.away_from_core(59) == (14, 15, 20, 26, 32, 65)
    assert loc(state, many) == 26                  # draw 4 of 6


def test_move_higher_and_lower():
    """SGE-OPS-9, SGE-MAP-9: Move Higher goes to the neighbour with the next higher number
    (58 goes to 73), Move Lower to the one with the next lower number."""
    state = empty()
    low = put_force(state, "usurper", 14, ["SF"], leader=1)
    high = put_force(state, "usurper", 20, ["SF"], leader=1)
    edge = put_force(state, "usurper", 58, ["SF"], leader=1)
    phase(state, 2, [2, 3, 3])                    # 14: Move Lower; 20: Higher; 58: Higher
    assert loc(state, low) == 8
    assert loc(state, high) == 26
    assert loc(state, edge) == 73


def test_a_force_in_the_core_stays_on_move_lower_and_leaves_on_move_higher():
    """SGE-OPS-9 [amended]: a force in the Core stays there on Move Lower; on Move Higher it
    leaves for the neighbour with the next higher number (sector 2)."""
    state = empty()
    a = put_force(state, "usurper", 1, ["SF"], leader=1)
    b = put_force(state, "usurper", 1, ["SF"], leader=1)
    phase(state, 2, [2, 3])                       # a: Move Lower; b: Move Higher
    assert loc(state, a) == 1
    assert loc(state, b) == G.higher_neighbour(1) == 2


def test_no_way_to_go_still_attacks():
    """SGE-OPS-10, SGE-OPS-13: a Rebel force in 76 (no higher-numbered neighbour) stays on
    Move Higher + Attack and still attacks."""
    assert G.higher_neighbour(76) is None
    state = empty()
    put_unit(state, "WS", 76, side=CHAOS)
    put_unit(state, "SF", 76)
    phase(state, 2, [7, 0])
    assert len(combats(state)) == 1 and "in 76" in combats(state)[0]


# ============================================================================ IE moves
def test_threatened_sectors():
    """SGE-IE-6: an IE sector is threatened by Imperial mobile units or by mobile units of a
    Usurper, Mutant, Invader or other IE force in it or next to it; Rebels, the IE's own
    units and Imperial system units do not threaten it."""
    state = empty()
    make_ie(state, 1, 26, sectors=[20, 32], units=["SF"])
    make_ie(state, 2, 49, units=["SF"])
    ctx = context(state)
    assert not any(threatened(ctx, 1, n) for n in (20, 26, 32))
    put_unit(state, "SF", 38, side=CHAOS)           # a Rebel next to 32
    system(state, 14, IMP)                           # an Imperial system next to 20
    ctx.invalidate()
    assert not threatened(ctx, 1, 32) and not threatened(ctx, 1, 20)
    put_unit(state, "SF", 14)                        # an Imperial mobile unit next to 20
    ctx.invalidate()
    assert threatened(ctx, 1, 20) and not threatened(ctx, 1, 26)
    put_force(state, "ie", 65, ["SF"], leader=1, ie=2)   # IE #2's units next to 32
    ctx.invalidate()
    assert threatened(ctx, 1, 32)
    for kind in ("usurper", "mutant", "invader"):
        s2 = empty()
        make_ie(s2, 1, 26, units=["SF"])
        put_force(s2, kind, 76, ["SF"], leader=1)
        assert threatened(context(s2), 1, 26), kind


def test_move_to_the_nearest_threatened_sector_ties_to_the_lowest():
    """SGE-OPS-11, SGE-OPS-12: the IE force moves toward the nearest threatened sector of its
    IE (ties to the lower number), up to its MA; a force already in a threatened sector
    stays; with nothing threatened "Move to a threatened Sector" does not move."""
    state = empty()
    fid = make_ie(state, 1, 26, sectors=[20, 32], units=["SF"])
    put_unit(state, "SF", 14)                        # threatens 20 (next to 14)
    put_unit(state, "SF", 38)                        # threatens 32 (next to 38)
    ctx = context(state)
    assert nearest_threatened(ctx, 1, 26) == 20      # both at distance 1: the lower
    phase(state, 2, [2])
    assert loc(state, fid) == 20
    phase(state, 2, [3])
    assert loc(state, fid) == 20                     # already in a threatened sector
    state = empty()
    fid = make_ie(state, 1, 26, sectors=[20], units=["SF"])
    phase(state, 2, [2])
    assert loc(state, fid) == 26


def test_threatened_move_may_stop_short():
    """SGE-OPS-12, SGE-OPS-5: the force walks a shortest path toward the target and stops
    when its MA is spent."""
    state = empty()
    fid = make_ie(state, 1, 50, sectors=[14], units=["CF"])    # MA 1
    put_unit(state, "SF", 8)                                    # threatens 14
    assert G.dist[50][14] > 1
    rng = phase(state, 2, [2, 0])
    assert len(rng.left) <= 1
    assert G.dist[loc(state, fid)][14] == G.dist[50][14] - 1
    assert G.dist[50][loc(state, fid)] == 1


def test_move_toward_the_next_conquest_when_nothing_is_threatened():
    """SGE-OPS-11, SGE-OPS-12, SGE-IE-7: "Move to a threatened Sector / next Sector to be
    conquered" with nothing threatened heads for the top conquest candidate and attacks
    there."""
    state = empty()
    fid = make_ie(state, 1, 26, units=["AF"])
    system(state, 32, CHAOS)                         # a Rebel system next to 26: priority 1
    phase(state, 2, [5])
    assert loc(state, fid) == 32


def test_conquest_candidate_priorities():
    """SGE-IE-7: Rebel systems without Imperial units first, then Imperial systems (weakest
    Imperial units there first, the system unit included), then empty system sectors, then
    the rest; ties to the highest number; other IEs' sectors are no candidates."""
    state = empty()
    # IE #1 holds 14 (home) and 59: candidates 2 3 8 9 15 20 26 32 64 65 70.
    make_ie(state, 1, 14, sectors=[59], units=["SF"])
    make_ie(state, 2, 32)                            # IE #2 holds 32
    system(state, 8, CHAOS)                          # Rebel system: priority 1
    system(state, 9, CHAOS)
    put_unit(state, "SF", 9)                         # a Rebel system with an Imperial unit
    system(state, 2, IMP, like="S01")                # Imperial 1-0 and an SF (2-0): total 3
    put_unit(state, "SF", 2)
    system(state, 3, IMP, like="S53")                # Imperial 3-3: total 6
    ctx = context(state)
    order = conquest_candidates(ctx, 1)
    assert 32 not in order and 14 not in order and 59 not in order
    assert order == [8, 2, 3, 26, 20, 70, 65, 64, 15, 9]


# ============================================================================ Alliance
def alliance_state(kind: str = "usurper") -> tuple[dict, str]:
    state = empty()
    fid = put_force(state, kind, 26, ["AF", "SF"], leader=2)        # MA 2
    state["alliance"] = {"sector": 26, "kind": kind, "force": fid}
    return state, fid


def test_alliance_force_is_moved_by_the_player_and_may_attack():
    """SGE-EV-ALLIANCE, SGE-POOL-19, SGE-OPS-3, SGE-CMB-2: the designated force does not roll;
    the player moves it within its slowest MA (no roll) and then decides to attack; the marker
    is discarded when the phase ends."""
    state, fid = alliance_state()
    put_unit(state, "SF", 20)
    phase(state, 2)
    assert state["pending"]["kind"] == "alliance_move"
    dests = sorted(a["to"] for a in legal(state))
    assert dests == sorted(G.within(26, 2))
    assert ops_rolls(state) == []
    act(state, {"verb": "alliance_move", "to": 20})
    assert loc(state, fid) == 20
    assert state["pending"]["kind"] == "alliance_attack"
    assert legal(state) == [{"verb": "alliance_attack"}, {"verb": "no_attack"}]
    act(state, {"verb": "alliance_attack"}, rng=ScriptedRng([5]))
    assert len(combats(state)) == 1 and "in 20" in combats(state)[0]
    assert state["alliance"] is None and "ALLIANCE" in state["discard"]
    assert state["stack"] == []


def test_alliance_declined_attack_and_no_target():
    """SGE-EV-ALLIANCE, SGE-POOL-19: "no_attack" fights nothing; with no Imperial unit in the
    destination there is no attack question."""
    state, fid = alliance_state()
    put_unit(state, "SF", 20)
    phase(state, 2)
    act(state, {"verb": "alliance_move", "to": 20})
    act(state, {"verb": "no_attack"})
    assert combats(state) == [] and state["stack"] == []
    state, fid = alliance_state()
    phase(state, 2)
    act(state, {"verb": "alliance_move", "to": 26})
    assert state["pending"] is None and state["stack"] == [] and loc(state, fid) == 26


def test_alliance_ie_force_ends_at_home_or_next_to_it():
    """SGE-EV-ALLIANCE, SGE-POOL-19: an IE force moved under Alliance may only end in its
    home sector or next to it."""
    state = empty()
    fid = make_ie(state, 1, 26, units=["AF", "SF"])
    state["alliance"] = {"sector": 26, "kind": "ie", "force": fid}
    phase(state, 2)
    dests = sorted(a["to"] for a in legal(state))
    assert dests == sorted({26, *G.neighbours[26]})


def test_alliance_moves_rebels_and_respects_the_nebula():
    """SGE-EV-ALLIANCE, SGE-POOL-19, SGE-REB-1: Rebels can be moved under Alliance; a force in
    a Living Nebula sector cannot leave it (no move question)."""
    state = empty()
    rebel = put_unit(state, "SF", 26, side=CHAOS)
    state["alliance"] = {"sector": 26, "kind": "rebel", "force": None}
    phase(state, 2)
    assert state["pending"]["kind"] == "alliance_move"
    act(state, {"verb": "alliance_move", "to": 32})
    assert state["units"][rebel]["loc"] == 32 and state["stack"] == []
    state, fid = alliance_state()
    state["aliens"] = [{"kind": "NEBULA", "loc": 26, "placed": 1, "seq": 1}]
    put_unit(state, "SF", 26)
    phase(state, 2)
    assert state["pending"]["kind"] == "alliance_attack"
    act(state, {"verb": "no_attack"})
    assert loc(state, fid) == 26


def test_alliance_move_cannot_pass_through_a_living_nebula():
    """SGE-POOL-19, SGE-EV-NEBULA: the player's move may end in a Living Nebula sector but not
    pass through it, since no force may leave such a sector."""
    state, fid = alliance_state()
    phase(state, 2)
    assert 2 in {a["to"] for a in legal(state)}           # 26 - 59 - 02
    state, fid = alliance_state()
    state["aliens"] = [{"kind": "NEBULA", "loc": 59, "placed": 1, "seq": 1}]
    phase(state, 2)
    dests = {a["to"] for a in legal(state)}
    assert 59 in dests and 2 not in dests and 3 not in dests
    assert 14 in dests                                     # 26 - 20 - 14 avoids it


def test_alliance_attack_follows_the_chaos_attack_type():
    """SGE-POOL-19, SGE-CMB-13, SGE-CMB-5: the Alliance attack takes the type with the larger
    differential; where no attack may start (the Messiah's zone) there is no attack
    question."""
    state, fid = alliance_state()
    put_unit(state, "CG", 26)                        # mil (1) / morph 2: mil is better
    phase(state, 2)
    act(state, {"verb": "alliance_move", "to": 26})
    act(state, {"verb": "alliance_attack"}, rng=ScriptedRng([0]))
    assert "Military attack" in combats(state)[0]
    state, fid = alliance_state()
    put_unit(state, "CG", 26)
    state["aliens"] = [{"kind": "MESSIAH", "loc": 26, "placed": 2, "seq": 1}]
    phase(state, 2)
    act(state, {"verb": "alliance_move", "to": 26})
    assert state["pending"] is None and combats(state) == []


# ============================================================================ Usurpation
def usurpation_state(n: int = 10, kind: str = "usurper", leader: int = 1,
                     codes=("SF", "SF")) -> tuple[dict, str]:
    state = empty()
    marker = "MUTANT" if kind == "mutant" else "USURPER"
    fid = put_force(state, kind, n, list(codes), leader=leader, marker=marker)
    return state, fid


def usurpation_roll(state: dict) -> dict:
    return next(e for e in state["log"] if e["rule"] == "SGE-USU-2")["dice"][0]


def test_usurpation_order_and_modifiers():
    """SGE-SEQ-5, SGE-USU-2: every Usurper and Mutant force rolls in ascending sector order;
    the roll adds the leader value (the Mutant's is 5), +2 in the Core and -1 for each
    Imperial leader in its sector or next to it."""
    state = empty()
    far = put_force(state, "usurper", 30, ["SF"], leader=2)
    core = put_force(state, "usurper", 1, ["SF"], leader=1)
    mutant = put_force(state, "mutant", 12, ["CG"], leader=5)
    put_force(state, "invader", 2, ["SF"], leader=4)      # no usurpation roll
    put_unit(state, "SF", 1, leader=1)
    put_unit(state, "SF", 2, leader=2)
    put_unit(state, "SF", 8, leader=3)                    # two steps away: not near
    phase(state, 3, [4, 4, 4])
    rolls = [e for e in state["log"] if e["rule"] == "SGE-USU-2"]
    assert [e["text"].split(":")[0] for e in rolls] == [
        f"Usurper force {core}", f"Mutant force {mutant}", f"Usurper force {far}"]
    mods = [dict(map(tuple, e["dice"][0]["modifiers"])) for e in rolls]
    assert mods[0] == {"leader": 1, "in the Core": 2, "Imperial leaders near": -2}
    assert mods[1] == {"leader": 5}
    assert mods[2] == {"leader": 2}


@pytest.mark.parametrize("face, leaders_near, result", [
    (0, 0, "loyal"), (1, 1, "loyal"), (1, 0, "dissolution"), (2, 0, "dissolution"),
    (3, 0, "none"), (6, 0, "none"), (7, 0, "recruit"), (8, 0, "recruit"), (9, 0, "coup")])
def test_usurpation_table_bands(face, leaders_near, result):
    """SGE-USU-2: 1 or less Loyal, 2-3 Dissolution, 4-7 no effect, 8-9 Recruit, 10+ Coup
    (a leader 1 usurper outside the Core)."""
    state, fid = usurpation_state(leader=1)
    for _ in range(leaders_near):
        put_unit(state, "SF", 10, leader=1)
    phase(state, 3, [face])
    text = next(e["text"] for e in state["log"] if e["rule"] == "SGE-USU-3")
    assert text.endswith(result)


def test_loyal_returns_the_force_to_the_empire():
    """SGE-USU-3, SGE-USU-1, SGE-CI-4: on Loyal every unit turns Imperial (an ordinary
    Imperial unit) and the Usurper marker is discarded, with no CI change."""
    state, fid = usurpation_state(leader=1)
    units = members(state, fid)
    before = state["ci2"]
    phase(state, 3, [0])
    assert fid not in state["forces"] and "USURPER" in state["discard"]
    for uid in units:
        assert state["units"][uid]["side"] == IMP and state["units"][uid]["force"] is None
    assert state["ci2"] == before


def test_dissolution_leaves_rebels():
    """SGE-USU-3: on Dissolution the units stay Chaos as Rebels; the marker is discarded."""
    state, fid = usurpation_state(leader=1)
    units = members(state, fid)
    phase(state, 3, [2])
    assert fid not in state["forces"] and "USURPER" in state["discard"]
    for uid in units:
        assert state["units"][uid]["side"] == CHAOS and state["units"][uid]["force"] is None


def test_loyal_or_dissolution_ends_the_mutant():
    """SGE-USU-1, SGE-USU-3, SGE-EV-MUTANT, SGE-LDR-1: the Mutant's force follows the Usurper
    rules with leadership 5; Loyal (here with four Imperial leaders near) ends it and discards
    its marker."""
    state, fid = usurpation_state(kind="mutant", leader=5, codes=("CG",))
    for n, value in ((10, 1), (10, 1), (4, 1), (16, 2)):
        put_unit(state, "SF", n, leader=value)
    phase(state, 3, [0])                                   # 0 + 5 - 4 = 1: Loyal
    assert fid not in state["forces"] and "MUTANT" in state["discard"]
    state, fid = usurpation_state(kind="mutant", leader=5, codes=("CG",))
    for n in (10, 10, 4):
        put_unit(state, "SF", n, leader=1)
    phase(state, 3, [0])                                   # 0 + 5 - 3 = 2: Dissolution
    assert fid not in state["forces"] and "MUTANT" in state["discard"]


@pytest.mark.parametrize("codes, kind, expected", [
    (("SF", "SF"), "usurper", "SF"),
    (("CG", "CG", "SF"), "usurper", "CG"),     # morph 4 > mil 2 (parenthesized left out)
    (("AF",), "mutant", "CG"),                 # morph 1 + the Mutant's 3 > mil 3
    (("WS",), "usurper", "SF"),                # equal totals: SF
])
def test_recruit_adds_an_sf_or_a_cg(codes, kind, expected):
    """SGE-USU-3, SGE-CMB-11: Recruit adds an SF from the mix, or a CG when the force's total
    morph exceeds its total military."""
    state, fid = usurpation_state(leader=1 if kind == "usurper" else 5, kind=kind, codes=codes)
    before = members(state, fid)
    phase(state, 3, [7 if kind == "usurper" else 3])      # 8 (or 3 + 5): Recruit
    new = [u for u in members(state, fid) if u not in before]
    assert len(new) == 1 and state["units"][new[0]]["type"] == expected
    assert state["units"][new[0]]["loc"] == 10


def test_coup_in_the_core():
    """SGE-USU-3, SGE-IO-2: a Coup in the Core raises the CI by one die and each Imperial
    mobile unit there turns and joins the force on 0-2 (IO units are exempt)."""
    state, fid = usurpation_state(n=1, leader=2)
    sf = put_unit(state, "SF", 1)
    af = put_unit(state, "AF", 1)
    io = put_unit(state, "IO", 1)
    before = state["ci2"]
    # 6 + 2 + 2 = 10: Coup; CI die 4; loyalty rolls in counter order: AF 2 (turns), SF 3.
    rng = phase(state, 3, [6, 4, 2, 3])
    assert rng.left == []
    assert state["ci2"] - before == 8
    assert state["units"][af]["force"] == fid and state["units"][af]["side"] == CHAOS
    assert state["units"][sf]["side"] == IMP and state["units"][io]["side"] == IMP


def test_coup_outside_the_core_counts_as_recruit():
    """SGE-USU-3: outside the Core a Coup is a Recruit."""
    state, fid = usurpation_state(leader=4)
    before = state["ci2"]
    phase(state, 3, [9])
    assert len(members(state, fid)) == 3 and state["ci2"] == before


# ============================================================================ Phase 4
def test_phase4_each_ie_conquers_then_recruits_in_number_order():
    """SGE-SEQ-6, SGE-IE-7, SGE-IE-5: IE #1 then IE #2, each first conquering the sector its
    force stands in, then recruiting."""
    state = empty()
    ie2 = make_ie(state, 2, 49, like="S01", units=["SF"])
    fid = make_ie(state, 1, 26, like="S01", units=["SF"])
    ctx = context(state)
    for uid in members(state, fid):
        ctx.set_loc(uid, 32)                          # a Rebel system stands in 32
    ctx.close()
    system(state, 32, CHAOS, like="S01")
    rebel = put_unit(state, "CG", 32, side=CHAOS)
    # After the conquest IE #1 has 2 RV: one roll; IE #2 has 1 RV: one roll.
    rng = phase(state, 4, [0, 0])
    assert rng.left == []
    entries = [(e["rule"], e["text"]) for e in state["log"]
               if e["rule"] in ("SGE-IE-7", "SGE-IE-5") and e["kind"] in ("ie", "roll")]
    texts = [t for _, t in entries]
    assert texts[0].startswith("IE #1 takes 32")
    assert any(t.startswith("IE #1 recruiting") for t in texts[1:])
    assert [t for t in texts if "IE #2" in t][0].startswith("IE #2 recruiting")
    assert state["ies"]["1"]["sectors"] == [26, 32]
    assert state["systems"]["32"]["ie"] == 1
    assert state["units"][rebel]["force"] == fid
    assert ie2 in state["forces"]


def test_conquest_needs_a_candidate_free_of_imperial_and_hostile_units():
    """SGE-IE-7, SGE-INV-4: no conquest while Imperial units or another force's mobile units
    stand there; an Invader never conquers (nor recruits)."""
    for blocker in ("imperial", "invader", "other_ie"):
        state = empty()
        fid = make_ie(state, 1, 26, like="S01", units=["SF"])
        make_ie(state, 2, 49, like="S01")
        ctx = context(state)
        for uid in members(state, fid):
            ctx.set_loc(uid, 32)
        ctx.close()
        if blocker == "imperial":
            put_unit(state, "SF", 32)
        elif blocker == "invader":
            put_force(state, "invader", 32, ["SF"], leader=1)
        else:
            put_force(state, "ie", 32, ["SF"], leader=1, ie=2)
        phase(state, 4, [0, 0])
        assert 32 not in state["ies"]["1"]["sectors"], blocker
    state = empty()
    inv = put_force(state, "invader", 32, ["SF"], leader=3)
    system(state, 32, CHAOS)
    phase(state, 4)
    assert state["ies"] == {} and members(state, inv) and state["systems"]["32"]["ie"] is None


def test_recruiting_rolls_per_four_resources_with_home_rv_and_leader():
    """SGE-IE-5, SGE-IE-2, SGE-IE-4, SGE-DICE-4: ceil(resources / 4) rolls, each d10 (0 read as
    10) + home effective RV + leader; a Living Nebula sector's RV is left out; new units
    join the mobile force at home."""
    state = empty()
    fid = make_ie(state, 1, 26, like="S53", leader=2, units=["SF"])   # home RV 4
    system(state, 32, CHAOS, like="S21", ie=1)                        # RV 2
    system(state, 20, CHAOS, like="S01", ie=1)                        # RV 1
    state["systems"]["20"]["irs"] = True                              # effective RV 2
    ctx = context(state)
    assert available_resources(ctx, 1) == 8
    state["aliens"] = [{"kind": "NEBULA", "loc": 32, "placed": 1, "seq": 1}]
    assert available_resources(ctx, 1) == 6
    ctx.close()
    # 6 resources: 2 rolls. Face 0 -> 10 + 4 + 2 = 16: 2 AF; face 1 -> 7: 1 SF.
    rng = phase(state, 4, [0, 1])
    assert rng.left == []
    new = [state["units"][u]["type"] for u in members(state, fid)]
    assert sorted(new) == ["AF", "AF", "SF", "SF"]
    assert {state["units"][u]["loc"] for u in members(state, fid)} == {26}


def test_recruits_away_from_the_force_form_a_home_detachment():
    """SGE-IE-5: with the mobile force away, recruits form a home detachment that takes no
    Chaos Operations and merges into the force when both share a sector; with no mobile
    force the detachment becomes the force."""
    state = empty()
    fid = make_ie(state, 1, 26, like="S53", leader=2, units=["SF"])
    ctx = context(state)
    for uid in members(state, fid):
        ctx.set_loc(uid, 32)
    ctx.close()
    state["ies"]["1"]["sectors"].append(32)
    phase(state, 4, [1])                               # 1 + 4 + 2 = 7: SF
    det = next(f for f, rec in state["forces"].items() if rec.get("detachment"))
    assert loc(state, det) == 26 and state["forces"][det]["ie"] == 1
    phase(state, 2, [1])                               # only the mobile force rolls
    assert ops_rolls(state) == [f"IE #1 force ({fid})"]
    ctx = context(state)
    for uid in members(state, fid):
        ctx.set_loc(uid, 26)
    ctx.close()
    phase(state, 4, [1])
    assert det not in state["forces"] and len(members(state, fid)) == 3
    # No mobile force at all: the recruits become it.
    state = empty()
    make_ie(state, 1, 26, like="S53", leader=2)
    phase(state, 4, [1])
    forces = [f for f, rec in state["forces"].items() if rec["kind"] == "ie"]
    assert len(forces) == 1 and not state["forces"][forces[0]]["detachment"]


def test_rebels_never_recruit():
    """SGE-REB-2: Rebel units and Rebel systems take no part in Phase 4 and never recruit."""
    state = empty()
    system(state, 32, CHAOS, like="S53")
    put_unit(state, "SF", 32, side=CHAOS)
    phase(state, 4)
    assert len(state["units"]) == 1 and state["systems"]["32"]["side"] == CHAOS


# ============================================================================ founding
def test_founding_an_ie():
    """SGE-IE-3, SGE-IE-9, SGE-IE-1, SGE-LDR-1, SGE-DICE-4: the leader is drawn from the Chaos
    pool; the IE takes as many adjacent sectors as its leader value, highest first, skipping
    sectors with Imperial units and other IEs' sectors; a Rebel system there joins; it rolls
    leader-value times (d10, 0 = 10, + home RV + leader); Rebels at home and in the new
    sectors join and everything stacks at home."""
    state = empty()
    make_ie(state, 2, 49, like="S01")
    state["ies"]["2"]["sectors"].append(59)
    system(state, 20, CHAOS, like="S53")            # home, RV 4; neighbours 14 26 59 70
    put_unit(state, "SF", 70)                        # Imperial: 70 is skipped
    system(state, 26, CHAOS, like="S21")
    r26 = put_unit(state, "AF", 26, side=CHAOS)
    r20 = put_unit(state, "CG", 20, side=CHAOS)
    r8 = put_unit(state, "SF", 8, side=CHAOS)        # not a new sector: stays a Rebel
    pool = list(state["chaos_leaders"])
    pick = pool.index(2)
    rng = ScriptedRng([pick, 0, 1])
    ctx = context(state, rng)
    establish_ie(ctx, 1, 20, "SGE-IE-3", arises=False)
    ctx.close()
    assert rng.left == []
    rec = state["ies"]["1"]
    assert rec["leader"] == 2 and sorted(state["chaos_leaders"] + [2]) == sorted(pool)
    assert rec["sectors"] == [14, 20, 26]
    assert state["systems"]["26"]["ie"] == 1 and state["systems"]["20"]["ie"] == 1
    fid = next(f for f, r in state["forces"].items() if r["kind"] == "ie" and r["ie"] == 1)
    types = sorted(state["units"][u]["type"] for u in members(state, fid))
    assert types == ["AF", "AF", "AF", "CG", "SF"]   # 16: 2 AF; 7: SF; + Rebels AF, CG
    assert {state["units"][u]["loc"] for u in members(state, fid)} == {20}
    assert r26 in members(state, fid) and r20 in members(state, fid)
    assert state["units"][r8]["force"] is None and state["units"][r8]["loc"] == 8


def test_founding_on_an_imperial_home_flips_it_without_ci_change():
    """SGE-IE-9, SGE-CI-4: an Imperial home system flips to the IE with no CI change; the
    Imperial mobile units there stay where they are."""
    state = empty()
    system(state, 20, IMP, like="S01")
    sf = put_unit(state, "SF", 20)
    before = state["ci2"]
    ctx = context(state, ScriptedRng([0, 5]))        # leader 1 (first of the pool); roll 5
    establish_ie(ctx, 1, 20, "SGE-IE-3", arises=True)
    ctx.close()
    assert state["systems"]["20"]["side"] == CHAOS and state["systems"]["20"]["ie"] == 1
    assert state["units"][sf]["side"] == IMP and state["units"][sf]["loc"] == 20
    assert state["ci2"] == before


# ============================================================================ Phase 5
def test_colonization_fills_the_highest_empty_system_sectors():
    """SGE-SEQ-7, SGE-POOL-14, SGE-EV-COLONIZATION, SGE-REB-1: each Colonization marker of
    this turn puts a Chaos system unit in the highest-numbered system sector without one: an
    IE's if its mobile force stands there, else a Rebel system; then the marker is
    discarded; with no empty system sector nothing happens."""
    state = empty()
    make_ie(state, 1, 49, like="S01")
    ctx = context(state)
    for n in G.system_sectors:
        if n not in (49, 55, 57):
            ctx.place_system(n, IMP if n < 30 else CHAOS, "TEST", counter=state["system_pool"][0])
    ctx.close()
    fid = put_force(state, "ie", 55, ["SF"], leader=1, ie=1)
    state["colonizations"] = 3
    phase(state, 5, [0, 0])
    assert state["systems"]["57"]["side"] == CHAOS and state["systems"]["57"]["ie"] is None
    assert state["systems"]["55"]["side"] == CHAOS and state["systems"]["55"]["ie"] == 1
    assert 55 in state["ies"]["1"]["sectors"]
    assert state["discard"].count("COLONIZATION") == 3 and state["colonizations"] == 0
    assert fid in state["forces"]
