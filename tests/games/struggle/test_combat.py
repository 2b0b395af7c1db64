"""Rules tests for combat.py: strengths, modifiers, the Combat Results Table, how each result
is applied, where converted units go, the CI changes of combat and the Chaos attack type."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.combat import (apply_result, chaos_attack, column_of,
                                                    compute_odds, imperial_attack_reason,
                                                    modifiers, preview, resolve, result_for,
                                                    strengths, struck_units)
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (put_system, RULES_CRT, empty_galaxy as empty, ScriptedRng, context, put_force,
                                          put_unit)

ALL = {"all": True}
DATA = GAME.data



# ============================================================================ builders


def system(state: dict, n: int, side: str, counter: str, ie: int | None = None) -> str:
    """A system counter with the values of ``counter`` in sector n (see helpers.put_system)."""
    return put_system(state, n, side, ie=ie, like=counter)


def make_ie(state: dict, number: int, home: int, counter: str, leader: int = 2) -> None:
    """An IE whose home system ``counter`` is in ``home``; its leader comes from the pool."""
    state["chaos_leaders"].remove(leader)
    state["ies"][str(number)] = {"home": home, "leader": leader, "sectors": [home],
                                 "arises": False, "leader_marker": True}
    system(state, home, CHAOS, counter, ie=number)


def fight(state: dict, n: int, attacker: str, kind: str, face: int) -> dict:
    """Resolve one combat with the die showing ``face``."""
    rng = ScriptedRng([face])
    ctx = context(state, rng)
    try:
        out = resolve(ctx, n, attacker, kind, "TEST")
    finally:
        ctx.close()
    assert rng.left == []
    return out


def ci_change2(state: dict, before: int) -> int:
    return state["ci2"] - before


# ============================================================================ the table
@pytest.mark.parametrize("diff, column", [
    (-40, 0), (-4, 0), (-3, 1), (-1, 1), (0, 2), (2, 2), (3, 3), (5, 3), (6, 4), (8, 4),
    (9, 5), (40, 5)])
def test_crt_column_edges(diff, column):
    """SGE-CMB-8: each differential band includes both of its edges; the outer bands are
    open-ended."""
    assert column_of(SimpleNamespace(data=DATA), diff) == column


def test_crt_rows_match_the_rules_and_are_open_ended():
    """SGE-CMB-8, SGE-DICE-5: every cell is the rules' table; a modified roll below 0 reads
    row 0 and one above 9 reads row 9."""
    ctx = SimpleNamespace(data=DATA)
    for row in range(10):
        for col in range(6):
            assert result_for(ctx, col, row) == RULES_CRT[row][col], (row, col)
    for col in range(6):
        assert result_for(ctx, col, -7) == RULES_CRT[0][col]
        assert result_for(ctx, col, 15) == RULES_CRT[9][col]


@pytest.mark.parametrize("defence_counter, face, expected", [
    ("S31", 2, "D1"),    # attack 5 vs 2: +3, the first column of "+3 to +5"
    ("S45", 2, "-"),     # attack 5 vs 3: +2, the last column of "0 to +2"
    ("S45", 4, "D1"),
])
def test_real_combat_at_a_column_edge(defence_counter, face, expected):
    """SGE-CMB-6, SGE-CMB-8: a differential at the edge of a band reads that band's column."""
    state = empty()
    system(state, 10, CHAOS, defence_counter)
    put_unit(state, "SF", 10)
    put_unit(state, "AF", 10)
    out = fight(state, 10, "imp", "mil", face)
    assert out["odds"]["attack"] == 5
    assert out["result"] == expected


# ============================================================================ strengths
def test_imperial_attack_strengths_and_parentheses():
    """SGE-CMB-3, SGE-CMB-6, SGE-REC-4: every Imperial mobile unit attacks, leaving its
    parenthesized factor out; every Chaos unit of every force, the Rebels and the Chaos system
    defend, parenthesized factors included."""
    state = empty()
    system(state, 10, CHAOS, "S45")            # 3-2
    put_unit(state, "SF", 10)                  # 2/0
    put_unit(state, "CG", 10)                  # (1)/2
    put_unit(state, "AF", 10)                  # 3/1
    put_unit(state, "CG", 10, side=CHAOS)      # Rebel (1)/2
    put_force(state, "usurper", 10, ["SF"])    # 2/0
    ctx = context(state)
    assert strengths(ctx, 10, "imp", "mil") == (2 + 0 + 3, 1 + 2 + 3)
    assert strengths(ctx, 10, "imp", "morph") == (0 + 2 + 1, 2 + 0 + 2)


def test_chaos_attack_strengths_only_the_acting_force_attacks():
    """SGE-CMB-3, SGE-CMB-6: only the acting force's mobile units attack (not other forces,
    not the Rebels, not the Chaos system); every Imperial unit defends, system included."""
    state = empty()
    system(state, 12, IMP, "S41")                       # 2-3
    put_unit(state, "CF", 12)                           # (1)/1
    fid = put_force(state, "usurper", 12, ["SF", "CG"])
    put_force(state, "invader", 12, ["WS"])
    put_unit(state, "AF", 12, side=CHAOS)               # a Rebel
    ctx = context(state)
    assert strengths(ctx, 12, fid, "mil") == (2 + 0, 1 + 2)
    assert strengths(ctx, 12, fid, "morph") == (0 + 2, 1 + 3)
    assert strengths(ctx, 12, "rebels", "mil") == (3, 3)


def test_system_units_never_attack():
    """SGE-CMB-3, SGE-RES-3: a system unit in the sector adds nothing to its side's attack."""
    state = empty()
    system(state, 10, IMP, "S53")
    put_unit(state, "SF", 10)
    fid = put_force(state, "usurper", 10, ["SF"])
    ctx = context(state)
    assert strengths(ctx, 10, "imp", "mil") == (2, 2)
    state2 = empty()
    system(state2, 10, CHAOS, "S53")
    put_unit(state2, "SF", 10)
    fid = put_force(state2, "usurper", 10, ["SF"])
    assert strengths(context(state2), 10, fid, "mil") == (2, 2)


def test_chaos_trans_human_factors_follow_the_ci():
    """SGE-TH-2, SGE-TH-4, SGE-CMB-6: a Chaos TH in a force counts its CI-dependent factor
    in the force's attack."""
    for ci, expected in ((20, 1), (50, 2), (80, 3)):
        state = empty(ci=ci)
        put_unit(state, "SF", 10)
        fid = put_force(state, "invader", 10, ["TH", "SF"])
        attack, _ = strengths(context(state), 10, fid, "mil")
        assert attack == expected + 2, ci


# ============================================================================ modifiers
def test_imperial_attack_modifiers():
    """SGE-CMB-7, SGE-POOL-18: the best Imperial leader in the sector adds, the best leader
    among the Chaos forces present subtracts (the Mutant's 5 never counts); Militarism and
    Pacifism change Imperial attacks and cancel each other."""
    state = empty()
    put_unit(state, "SF", 10, leader=1)
    put_unit(state, "AF", 10, leader=3)
    state["ies"]["1"] = {"home": 49, "leader": 2, "sectors": [49], "arises": False,
                         "leader_marker": False}
    put_force(state, "ie", 10, ["SF"], leader=2, ie=1)
    put_force(state, "invader", 10, ["SF"], leader=4)
    put_force(state, "mutant", 10, ["CG"], leader=5)
    ctx = context(state)
    assert modifiers(ctx, 10, "imp", "mil") == [("Imperial leader", 3), ("Chaos leader", -4)]
    state["effects"] = ["MILITARISM"]
    assert modifiers(ctx, 10, "imp", "mil")[-1] == ("Militarism/Pacifism", 1)
    assert modifiers(ctx, 10, "imp", "morph")[-1] == ("Militarism/Pacifism", -1)
    state["effects"] = ["PACIFISM"]
    assert modifiers(ctx, 10, "imp", "mil")[-1] == ("Militarism/Pacifism", -1)
    assert modifiers(ctx, 10, "imp", "morph")[-1] == ("Militarism/Pacifism", 1)
    state["effects"] = ["PACIFISM", "MILITARISM"]
    assert len(modifiers(ctx, 10, "imp", "mil")) == 2


def test_chaos_attack_modifiers():
    """SGE-CMB-7, SGE-POOL-18: a Chaos attack adds its own force's leader and subtracts the
    best Imperial leader; the Mutant attacks without a leader modifier; Militarism does not
    touch Chaos attacks."""
    state = empty()
    put_unit(state, "SF", 10, leader=2)
    put_unit(state, "SF", 10, leader=1)
    inv = put_force(state, "invader", 10, ["SF"], leader=3)
    mutant = put_force(state, "mutant", 10, ["CG"], leader=5)
    state["effects"] = ["MILITARISM"]
    ctx = context(state)
    assert modifiers(ctx, 10, inv, "mil") == [("Chaos leader", 3), ("Imperial leader", -2)]
    assert modifiers(ctx, 10, mutant, "morph") == [("Imperial leader", -2)]
    assert modifiers(ctx, 10, "rebels", "mil") == [("Imperial leader", -2)]


# ============================================================================ military results
def test_military_defender_result_eliminates_weak_units_and_lowers_the_ci():
    """SGE-CMB-1, SGE-CMB-9, SGE-CMB-14, SGE-CI-2: a D2 military result eliminates every
    defending unit with military 2 or less, mobile and system (parenthesized factors count);
    units go back to the mix, the system to the pool, the sector stays a system sector; the
    CI falls by 1 per Chaos mobile unit and by the system's RV."""
    state = empty()
    for _ in range(3):
        put_unit(state, "AF", 10)
    put_unit(state, "WS", 10)                        # attack 12
    rebel = put_unit(state, "SF", 10, side=CHAOS)    # 2
    fid = put_force(state, "usurper", 10, ["CG", "AF"], leader=0)
    members = {state["units"][u]["type"]: u for u in state["units"]
               if state["units"][u]["force"] == fid}
    cg, af = members["CG"], members["AF"]
    system(state, 10, CHAOS, "S16")                  # 2-0, RV 1; defence 2+1+3+2 = 8
    before = state["ci2"]
    out = fight(state, 10, "imp", "mil", 5)           # +4: column +3..+5, roll 5 -> D2
    assert out["result"] == "D2"
    assert sorted(out["struck"]) == sorted([rebel, cg, "system:10"])
    assert rebel not in state["units"] and cg not in state["units"]
    assert af in state["units"] and state["units"][af]["force"] == fid
    assert rebel in state["mix"]["SF"] and cg in state["mix"]["CG"]
    assert "10" not in state["systems"] and "S16" in state["system_pool"]
    assert GAME.data.galaxy.is_system[10]
    assert ci_change2(state, before) == 2 * (-1 - 1 - 1)


def test_military_attacker_result_strikes_the_imperial_side_as_chaos_combat():
    """SGE-CMB-9, SGE-CI-3, SGE-LDR-4: an A result of the Empire's own attack strikes its own
    mobile units and its system unit in the sector, and counts as lost to Chaos combat: +2 per
    mobile unit and +2 x RV for the system; a leader on a lost unit is eliminated."""
    state = empty()
    system(state, 10, IMP, "S01")                    # 1-0, RV 1
    sf = put_unit(state, "SF", 10, leader=1)
    cg = put_unit(state, "CG", 10)
    af = put_unit(state, "AF", 10)                   # attack 2 + 0 + 3 = 5
    put_unit(state, "WS", 10, side=CHAOS)
    put_unit(state, "WS", 10, side=CHAOS)
    put_unit(state, "WS", 10, side=CHAOS)            # defence 9: -4, column 0
    before = state["ci2"]
    out = fight(state, 10, "imp", "mil", 0)           # 0 + 1 (leader) = 1 -> A2
    assert out["result"] == "A2"
    assert sorted(out["struck"]) == sorted([sf, cg, "system:10"])
    assert af in state["units"] and sf not in state["units"] and cg not in state["units"]
    assert state["imp_leaders"].count(1) == 3
    assert "10" not in state["systems"]
    assert ci_change2(state, before) == 2 * (2 + 2 + 2 * 1)


def test_military_attacker_result_of_a_chaos_attack_counts_as_imperial_combat():
    """SGE-CMB-9, SGE-CI-3: an A result of a Chaos attack strikes every Chaos unit in the
    sector (other forces and the Chaos system too) and counts as lost to Imperial combat:
    -1 per mobile unit, -RV for the system."""
    state = empty()
    system(state, 10, CHAOS, "S16")                  # 2-0 RV 1
    fid = put_force(state, "usurper", 10, ["SF"], leader=0)
    other = put_force(state, "invader", 10, ["CG"], leader=0)
    strong = put_force(state, "invader", 10, ["WS"], leader=0)
    for _ in range(2):
        put_unit(state, "WS", 10)                    # defence 6 vs attack 2: -4
    before = state["ci2"]
    out = fight(state, 10, fid, "mil", 2)             # column 0, roll 2 -> A2
    assert out["result"] == "A2"
    assert fid not in state["forces"] and other not in state["forces"]
    assert strong in state["forces"]
    assert "10" not in state["systems"]
    assert ci_change2(state, before) == 2 * (-1 - 1 - 1)
    assert "USURPER" not in state["discard"]          # put_force made no marker


# ============================================================================ morph results
def test_morph_defender_result_converts_chaos_units_to_ordinary_imperial_units():
    """SGE-CMB-1, SGE-CMB-9, SGE-CMB-10, SGE-CI-2: a D2 morph result of an Imperial attack
    converts every Chaos unit with morph 2 or less (morph 0 included); they become ordinary
    Imperial units; an IE system converted leaves its IE (its marker goes); the CI falls by 2
    per mobile unit and 2 x RV for the system. The IE itself and its leader stay
    (SGE-LDR-8)."""
    state = empty()
    make_ie(state, 1, 14, "S53", leader=2)
    system(state, 8, CHAOS, "S21", ie=1)              # 1-2 RV 2, next to the home
    assert state["ies"]["1"]["sectors"] == [8, 14]
    fid = put_force(state, "ie", 8, ["CG", "SF"], leader=2, ie=1)
    put_unit(state, "WS", 8)
    put_unit(state, "CG", 8)
    put_unit(state, "CG", 8)                          # attack 3 + 2 + 2 = 7
    # defence 2 + 0 + 2 = 4: +3, column 3; roll 7 - 2 (IE leader) = 5 -> D2
    before = state["ci2"]
    out = fight(state, 8, "imp", "morph", 7)
    assert out["result"] == "D2"
    assert len(out["struck"]) == 3
    assert state["systems"]["8"]["side"] == IMP and state["systems"]["8"]["ie"] is None
    assert state["ies"]["1"]["sectors"] == [14]
    converted = [u for u in out["struck"] if not u.startswith("system")]
    for uid in converted:
        assert state["units"][uid]["side"] == IMP and state["units"][uid]["force"] is None
    assert fid not in state["forces"]                 # no units left: the force ends
    assert state["ies"]["1"]["leader"] == 2 and state["chaos_leaders"].count(2) == 2
    assert ci_change2(state, before) == 2 * (-2 - 2 - 2 * 2)


def test_morph_attacker_result_sends_imperial_units_to_the_leftmost_force():
    """SGE-CMB-9, SGE-CMB-10, SGE-IO-2, SGE-LDR-4, SGE-CI-3: an A2 morph result of the
    Empire's own attack converts its units with morph 2 or less (never IO) into the Chaos
    force leftmost on the Chaos Operations Table (a Usurper before an IE); the Imperial system
    becomes a Rebel system because that force is no IE; the CI rises by 1 per unit and the
    RV; a leader on a converted unit is eliminated."""
    state = empty()
    make_ie(state, 1, 49, "S53", leader=2)
    system(state, 11, IMP, "S21")                     # 1-2 RV 2
    sf = put_unit(state, "SF", 11)
    cg = put_unit(state, "CG", 11)
    io = put_unit(state, "IO", 11)
    af = put_unit(state, "AF", 11, leader=1)          # attack 0 + 2 + 2 + 1 = 5
    ie_force = put_force(state, "ie", 11, ["WS"], leader=2, ie=1)
    usurper = put_force(state, "usurper", 11, ["WS", "WS"], leader=1)   # defence 9: -4
    before = state["ci2"]
    out = fight(state, 11, "imp", "morph", 2)         # 2 + 1 - 2 = 1 -> A2
    assert out["result"] == "A2"
    assert sorted(out["struck"]) == sorted([sf, cg, af, "system:11"])
    for uid in (sf, cg, af):
        assert state["units"][uid]["side"] == CHAOS and state["units"][uid]["force"] == usurper
    assert state["units"][io]["side"] == IMP
    assert state["units"][af]["leader"] is None and state["imp_leaders"].count(1) == 3
    assert state["systems"]["11"]["side"] == CHAOS and state["systems"]["11"]["ie"] is None
    assert 11 not in state["ies"]["1"]["sectors"]
    assert ie_force in state["forces"]
    assert ci_change2(state, before) == 2 * (1 + 1 + 1 + 2)


def test_morph_attacker_result_system_joins_the_leftmost_ie():
    """SGE-CMB-10, SGE-CMB-9: with an IE force the leftmost force in the sector (an Invader
    is further right), the Empire's own converted system joins that IE and an IE marker goes
    on the sector; the converted mobile units join the IE force."""
    state = empty()
    make_ie(state, 2, 26, "S53", leader=2)
    system(state, 20, IMP, "S06")                     # 0-1 RV 1
    sf = put_unit(state, "SF", 20)
    inv = put_force(state, "invader", 20, ["WS"], leader=1)
    ie_force = put_force(state, "ie", 20, ["WS"], leader=2, ie=2)   # defence 6 vs 0
    out = fight(state, 20, "imp", "morph", 0)          # column 0, roll 0 - 2 -> A3
    assert out["result"] == "A3"
    assert state["units"][sf]["force"] == ie_force
    assert state["systems"]["20"]["side"] == CHAOS and state["systems"]["20"]["ie"] == 2
    assert 20 in state["ies"]["2"]["sectors"]
    assert inv in state["forces"]


def test_morph_attacker_result_beside_only_a_home_detachment_joins_it():
    """SGE-CMB-10, SGE-IE-5: an IE's home detachment is a force of its IE in the sector: the
    Empire's units turned by an A result of its own attack there join it (not the Rebels)."""
    state = empty()
    make_ie(state, 1, 14, "S53", leader=2)
    det = put_force(state, "ie", 14, ["WS", "WS"], leader=2, ie=1)
    state["forces"][det]["detachment"] = True
    put_unit(state, "SF", 14, side=CHAOS)              # a Rebel there too
    sf = put_unit(state, "SF", 14)
    out = fight(state, 14, "imp", "morph", 0)          # 0 vs 9: column 0, roll 0 - 2: A3
    assert out["result"] == "A3"
    assert state["units"][sf]["side"] == CHAOS and state["units"][sf]["force"] == det


def test_chaos_morph_defender_result_units_join_the_attacker_system_joins_its_ie():
    """SGE-CMB-10, SGE-CI-2: Imperial defenders converted by an IE force's attack join that
    force, and the converted Imperial system joins the IE (an IE marker on the sector);
    +1 CI per mobile unit and + RV for the system."""
    state = empty()
    make_ie(state, 1, 14, "S53", leader=1)
    system(state, 8, IMP, "S06")                      # 0-1 RV 1
    sf = put_unit(state, "SF", 8, leader=2)
    af = put_unit(state, "AF", 8)
    ws = put_unit(state, "WS", 8)                     # defence 0 + 1 + 3 + 1 = 5
    fid = put_force(state, "ie", 8, ["WS", "WS", "CG", "CG"], leader=1, ie=1)   # attack 10
    before = state["ci2"]
    out = fight(state, 8, fid, "morph", 3)            # +5: col 3; 3 + 1 - 2 = 2 -> D1
    assert out["result"] == "D1"
    assert sorted(out["struck"]) == sorted([sf, af, "system:8"])
    for uid in (sf, af):
        assert state["units"][uid]["side"] == CHAOS and state["units"][uid]["force"] == fid
    assert state["units"][ws]["side"] == IMP
    assert state["imp_leaders"].count(2) == 2
    assert state["systems"]["8"]["ie"] == 1 and 8 in state["ies"]["1"]["sectors"]
    assert ci_change2(state, before) == 2 * (1 + 1 + 1)


def test_chaos_morph_defender_result_of_usurper_and_rebels():
    """SGE-CMB-10: a Usurper's conversions join it and the system becomes a Rebel system;
    Imperial units converted by a Rebel attack become Rebels."""
    state = empty()
    system(state, 9, IMP, "S06")
    sf = put_unit(state, "SF", 9)
    fid = put_force(state, "usurper", 9, ["CG", "CG"], leader=0)   # 4 vs 1: +3
    out = fight(state, 9, fid, "morph", 2)             # -> D1
    assert out["result"] == "D1"
    assert state["units"][sf]["force"] == fid
    assert state["systems"]["9"]["side"] == CHAOS and state["systems"]["9"]["ie"] is None

    state = empty()
    sf = put_unit(state, "SF", 9)
    put_unit(state, "CG", 9, side=CHAOS)
    put_unit(state, "CG", 9, side=CHAOS)               # 4 vs 0: +4
    out = fight(state, 9, "rebels", "morph", 3)        # -> D1
    assert out["result"] == "D1"
    assert state["units"][sf]["side"] == CHAOS and state["units"][sf]["force"] is None


def test_chaos_morph_attacker_result_converts_chaos_units_as_imperial_combat():
    """SGE-CMB-9, SGE-CI-3: an A1 morph result of a Chaos attack converts every Chaos unit in
    the sector with morph 1 or less (the attackers, the Rebels and the Chaos system) to the
    Empire, counted as lost to Imperial combat: -2 per mobile unit and -2 x RV."""
    state = empty()
    system(state, 10, CHAOS, "S01")                    # 1-0 RV 1
    fid = put_force(state, "usurper", 10, ["SF", "CG"], leader=1)
    members = {state["units"][u]["type"]: u for u in state["units"]
               if state["units"][u]["force"] == fid}
    rebel = put_unit(state, "SF", 10, side=CHAOS)
    for _ in range(3):
        put_unit(state, "WS", 10)                      # defence 9 vs 2: -7
    before = state["ci2"]
    out = fight(state, 10, fid, "morph", 3)             # 3 + 1 = 4 -> A1
    assert out["result"] == "A1"
    struck_mobile = [u for u in out["struck"] if not u.startswith("system")]
    assert sorted(struck_mobile) == sorted([members["SF"], rebel])
    assert state["units"][members["CG"]]["side"] == CHAOS     # morph 2: untouched
    for uid in struck_mobile:
        assert state["units"][uid]["side"] == IMP and state["units"][uid]["force"] is None
    assert state["systems"]["10"]["side"] == IMP
    assert ci_change2(state, before) == 2 * (-2 - 2 - 2 * 1)


def test_imperial_order_never_converts():
    """SGE-IO-2, SGE-CMB-9: a D3 morph result of a Chaos attack converts every Imperial unit
    with morph 3 or less except the IO units."""
    state = empty()
    io = put_unit(state, "IO", 10)
    sf = put_unit(state, "SF", 10)
    fid = put_force(state, "usurper", 10, ["WS"] * 4, leader=0)   # 12 vs 2: +10
    out = fight(state, 10, fid, "morph", 5)              # -> D3
    assert out["result"] == "D3"
    assert out["struck"] == [sf]
    assert state["units"][io]["side"] == IMP


# ============================================================================ Nexus protection
def test_nexus_protection_lowers_morph_results_on_imperial_systems():
    """SGE-NEX-3: in a Nexus sector or next to one, a morph result counts one lower for the
    Imperial system unit (D3 acts as D2, D1 and A1 do nothing to it); mobile units and
    military results are not protected."""
    state = empty()
    system(state, 1, IMP, "S53")
    state["nexus"] = [1]
    system(state, 2, IMP, "S36")                        # morph 3, next to the Nexus
    system(state, 3, IMP, "S06")                        # morph 1, next to the Nexus
    system(state, 8, IMP, "S36")                        # morph 3, far away
    for n in (1, 2, 3, 8):
        put_unit(state, "SF", n)
    fid = {n: put_force(state, "usurper", n, ["CG"], leader=0) for n in (2, 3, 8)}
    ctx = context(state)
    assert "system:2" not in struck_units(ctx, 2, fid[2], "morph", "D3")
    assert "system:8" in struck_units(ctx, 8, fid[8], "morph", "D3")
    assert "system:3" in struck_units(ctx, 3, fid[3], "morph", "D2")
    assert "system:3" not in struck_units(ctx, 3, fid[3], "morph", "D1")
    assert "system:3" not in struck_units(ctx, 3, "imp", "morph", "A1")
    assert "system:3" in struck_units(ctx, 3, "imp", "morph", "A2")
    assert "system:3" in struck_units(ctx, 3, fid[3], "mil", "D1")        # S06 is 0-1
    sf3 = next(u for u in state["units"] if state["units"][u]["loc"] == 3
               and state["units"][u]["side"] == IMP)
    assert sf3 in struck_units(ctx, 3, fid[3], "morph", "D1")


def test_nexus_is_not_a_unit_in_combat():
    """SGE-NEX-5, SGE-NEX-4, SGE-CI-2: a Nexus adds nothing to a combat and no result strikes
    it; it is lost only when its sector's Imperial system goes (here eliminated in combat:
    +2 x RV for the system, +1 for the Nexus off the Core)."""
    state = empty()
    system(state, 8, IMP, "S01")                         # 1-0 RV 1
    state["nexus"] = [8]
    sf = put_unit(state, "SF", 8)
    fid = put_force(state, "usurper", 8, ["WS", "WS"], leader=0)   # 6 vs 3
    ctx = context(state)
    assert strengths(ctx, 8, fid, "mil") == (6, 3)
    state["nexus"] = []
    assert strengths(ctx, 8, fid, "mil") == (6, 3)
    state["nexus"] = [8]
    ctx.close()
    before = state["ci2"]
    out = fight(state, 8, fid, "mil", 2)                  # +3, roll 2 -> D1
    assert out["result"] == "D1"
    assert out["struck"] == ["system:8"]
    assert sf in state["units"] and state["nexus"] == []
    assert ci_change2(state, before) == 2 * (2 * 1 + 1)


# ============================================================================ the Mutant
def test_mutant_adds_three_morph_on_both_sides_but_not_in_military():
    """SGE-CMB-11, SGE-CMB-6: the Mutant adds 3 to its force's morph, attacking or
    defending; military strengths are the units' own."""
    state = empty()
    put_unit(state, "AF", 10)
    mutant = put_force(state, "mutant", 10, ["CG"], leader=5)
    ctx = context(state)
    assert strengths(ctx, 10, mutant, "morph") == (2 + 3, 1)
    assert strengths(ctx, 10, "imp", "morph") == (1, 2 + 3)
    assert strengths(ctx, 10, mutant, "mil") == (0, 3)
    assert strengths(ctx, 10, "imp", "mil") == (3, 1)


def test_only_a_three_converts_the_mutant_force():
    """SGE-CMB-12, SGE-CMB-11, SGE-EV-MUTANT: D1 and D2 morph results leave the Mutant's units
    alone (other Chaos units with low morph still convert); a D3 converts the whole force,
    even a WS, and the Mutant marker is discarded. Military results strike it normally."""
    state = empty()
    mutant = put_force(state, "mutant", 10, ["SF", "WS"], leader=5, marker="MUTANT")
    rebel = put_unit(state, "SF", 10, side=CHAOS)
    put_unit(state, "CG", 10)
    ctx = context(state)
    members = sorted(ctx.force_units(mutant))
    for result in ("D1", "D2"):
        assert struck_units(ctx, 10, "imp", "morph", result) == [rebel]
    assert sorted(struck_units(ctx, 10, "imp", "morph", "D3")) == sorted(members + [rebel])
    sf = next(u for u in members if state["units"][u]["type"] == "SF")
    assert struck_units(ctx, 10, "imp", "mil", "D2") == [sf, rebel]
    apply_result(ctx, 10, "imp", "morph", "D3", "TEST")
    ctx.close()
    assert mutant not in state["forces"] and "MUTANT" in state["discard"]
    for uid in members:
        assert state["units"][uid]["side"] == IMP


def test_another_force_attacking_beside_the_mutant_cannot_convert_it_with_a2():
    """SGE-CMB-12, SGE-CMB-9: an A2 morph result of another Chaos force's attack strikes the
    Chaos side in the sector, but not the Mutant's force."""
    state = empty()
    mutant = put_force(state, "mutant", 10, ["CG"], leader=5)
    inv = put_force(state, "invader", 10, ["SF"], leader=1)
    put_unit(state, "SF", 10)
    ctx = context(state)
    struck = struck_units(ctx, 10, inv, "morph", "A2")
    assert struck == ctx.force_units(inv)
    assert not set(ctx.force_units(mutant)) & set(struck)


# ============================================================================ CI multipliers
def test_combat_ci_changes_under_leviathan_and_spectacle():
    """SGE-CI-5, SGE-CI-6, SGE-CI-7, SGE-CI-13: combat CI changes are halved under Leviathan
    (half points kept), doubled under Spectacle, and neither when both are in effect; the CI
    never falls below 0."""
    def one(leviathan: bool, spectacle: bool, result: str, kind: str, ci: float = 50) -> int:
        state = empty(ci=ci)
        system(state, 1, IMP, "S53")
        state["leviathan"] = leviathan
        state["effects"] = ["SPECTACLE"] if spectacle else []
        put_unit(state, "SF", 10)
        put_unit(state, "CG", 10, side=CHAOS)
        before = state["ci2"]
        ctx = context(state)
        apply_result(ctx, 10, "imp", kind, result, "TEST")
        ctx.close()
        return state["ci2"] - before

    # An Imperial SF converted (+1): x1/2, x2, x1.
    assert one(False, False, "A1", "morph") == 2
    assert one(True, False, "A1", "morph") == 1          # +0.5 kept as a half point
    assert one(False, True, "A1", "morph") == 4
    assert one(True, True, "A1", "morph") == 2
    # A Chaos CG eliminated (-1) at CI 0.5 under Spectacle: -2 stops at 0.
    assert one(False, True, "D1", "mil", ci=0.5) == -1


# ============================================================================ Chaos attack type
def test_chaos_attack_picks_the_larger_differential_ties_to_morph():
    """SGE-CMB-13, SGE-OPS-14: a Chaos force makes the attack type with the larger
    differential; on a tie it attacks in morph."""
    state = empty()
    put_unit(state, "SF", 10)                          # mil 2 / morph 0
    fid = put_force(state, "invader", 10, ["AF"], leader=0)   # mil +1, morph +1: tie
    rng = ScriptedRng([0])
    ctx = context(state, rng)
    out = chaos_attack(ctx, 10, fid, "TEST")
    ctx.close()
    assert out["odds"]["kind"] == "morph"

    state = empty()
    put_unit(state, "CG", 10)                          # mil (1) / morph 2
    fid = put_force(state, "invader", 10, ["SF", "SF"], leader=0)   # mil +3, morph -2
    ctx = context(state, ScriptedRng([0]))
    out = chaos_attack(ctx, 10, fid, "TEST")
    ctx.close()
    assert out["odds"]["kind"] == "mil"


@pytest.mark.parametrize("alien, expected", [("HIVE", "morph"), ("RANDOIDS", "mil"),
                                             ("MESSIAH", None)])
def test_chaos_attack_never_picks_a_prohibited_type(alien, expected):
    """SGE-CMB-13, SGE-CMB-5: the Hive forbids military attacks and the Randoids morph ones;
    in the Messiah's zone there is no attack at all."""
    state = empty()
    put_unit(state, "CG", 10)                          # mil (1) / morph 2
    if alien == "RANDOIDS":
        fid = put_force(state, "invader", 10, ["CG"], leader=0)     # morph better (0 vs -1)
    else:
        fid = put_force(state, "invader", 10, ["SF", "SF"], leader=0)   # mil better
    state["aliens"] = [{"kind": alien, "loc": 10, "placed": 2, "seq": 99}]
    rng = ScriptedRng([0] if expected else [])
    ctx = context(state, rng)
    out = chaos_attack(ctx, 10, fid, "TEST")
    ctx.close()
    if expected is None:
        assert out is None and state["stats"]["combats"] == 0
    else:
        assert out["odds"]["kind"] == expected


def test_chaos_forces_attack_only_imperial_units():
    """SGE-CMB-2, SGE-OPS-14: without Imperial units in its sector a Chaos force does not
    attack (other Chaos forces and Rebels are never its targets); the Empire attacks only
    where it has mobile units and Chaos units stand."""
    state = empty()
    system(state, 10, CHAOS, "S53")
    fid = put_force(state, "invader", 10, ["WS"], leader=0)
    put_force(state, "usurper", 10, ["SF"], leader=0)
    put_unit(state, "SF", 10, side=CHAOS)
    ctx = context(state, ScriptedRng([]))
    assert chaos_attack(ctx, 10, fid, "TEST") is None
    assert imperial_attack_reason(ctx, 10, "mil") is not None      # no Imperial mobile unit
    put_unit(state, "SF", 11)
    ctx.invalidate()
    assert imperial_attack_reason(ctx, 11, "mil") is not None      # nothing Chaos there
    put_unit(state, "SF", 10)
    ctx.invalidate()
    assert imperial_attack_reason(ctx, 10, "mil") is None
    assert imperial_attack_reason(ctx, 10, "morph") is None
    ctx.close()


# ============================================================================ losses
def test_ie_sector_losing_its_system_keeps_its_marker_unless_home():
    """SGE-CMB-14, SGE-IE-8, SGE-LDR-8: an IE sector whose system is eliminated keeps its IE
    marker; when the home system is eliminated the IE dissolves, its units become Rebels and
    its leader returns to the Chaos leader pool."""
    state = empty()
    make_ie(state, 1, 14, "S01", leader=3)
    system(state, 8, CHAOS, "S16", ie=1)
    fid = put_force(state, "ie", 8, ["SF"], leader=3, ie=1)
    for n in (8, 14):
        for _ in range(3):
            put_unit(state, "AF", n)
    out = fight(state, 8, "imp", "mil", 9)              # 9 vs 4: +5, roll 9 - 3 -> D2
    assert "system:8" in out["struck"]
    assert state["ies"]["1"]["sectors"] == [8, 14]       # the marker stays on 08
    assert fid not in state["forces"] and state["ies"]["1"]["leader"] == 3
    assert state["chaos_leaders"].count(3) == 1
    put_force(state, "ie", 14, ["SF"], leader=3, ie=1)
    ie_cg = put_force(state, "ie", 20, ["CG"], leader=3, ie=1)   # a detachment elsewhere
    cg = next(u for u in state["units"] if state["units"][u]["force"] == ie_cg)
    out = fight(state, 14, "imp", "mil", 9)              # 9 vs 3: +6, roll 9 - 3 -> D3
    assert "system:14" in out["struck"]
    assert "1" not in state["ies"]
    assert state["chaos_leaders"].count(3) == 2
    assert state["units"][cg]["side"] == CHAOS and state["units"][cg]["force"] is None


def test_invader_leader_returns_when_its_force_is_destroyed():
    """SGE-LDR-8, SGE-OPS-1: combat never removes a Chaos leader marker by itself; when the
    Invader force's last unit is eliminated the force ends, its marker is discarded and its
    leader marker returns to the Chaos leader pool."""
    state = empty()
    state["chaos_leaders"].remove(4)
    ctx = context(state)
    fid = ctx.new_force("invader", 4, "TEST", leader_marker=True, marker="INVADERS")
    ctx.place_unit("SF", CHAOS, 10, "TEST", force=fid)
    ctx.close()
    for _ in range(3):
        put_unit(state, "WS", 10)
    out = fight(state, 10, "imp", "mil", 9)              # 9 vs 2: +7, roll 9 - 4 -> D2
    assert out["result"] == "D2"
    assert fid not in state["forces"]
    assert 4 in state["chaos_leaders"] and "INVADERS" in state["discard"]


# ============================================================================ preview
def test_preview_shows_strengths_column_modifiers_chances_and_victims():
    """SGE-CMB-15: before an Imperial attack the preview gives both strengths, the
    differential and its column, each modifier, each result's chance and the units each
    result would strike; after a Chaos attack the log shows the same figures."""
    state = empty()
    system(state, 10, CHAOS, "S06")                     # 0-1
    sf = put_unit(state, "SF", 10)
    put_unit(state, "AF", 10, leader=1)                 # attack 5
    rebel = put_unit(state, "SF", 10, side=CHAOS)       # defence 2 + 0 = 2 -> +3, column 3
    ctx = context(state)
    p = preview(ctx, 10, "imp", "mil")
    assert (p["attack"], p["defence"], p["differential"], p["column"]) == (5, 2, 3, 3)
    assert p["modifiers"] == [["Imperial leader", 1]]
    # Rolls 1..10 on column +3..+5: "-" once, D1 three times, D2 three times, D3 three times.
    assert p["results"] == {"-": 0.1, "D1": 0.3, "D2": 0.3, "D3": 0.3}
    assert sum(p["results"].values()) == pytest.approx(1)
    assert p["affected"]["D1"] == ["system:10"]
    assert all(sf not in units for units in p["affected"].values())
    assert sorted(p["affected"]["D2"]) == sorted([rebel, "system:10"])
    odds = compute_odds(ctx, 10, "imp", "mil")
    assert odds.modifier == 1
    ctx.close()
    # A Chaos attack logs its strengths and differential.
    state = empty()
    put_unit(state, "SF", 10)
    fid = put_force(state, "invader", 10, ["WS"], leader=0)
    ctx = context(state, ScriptedRng([0]))
    chaos_attack(ctx, 10, fid, "TEST")
    ctx.close()
    texts = [e["text"] for e in state["log"] if e["rule"] == "SGE-CMB-6"]
    assert texts and "3 against 0" in texts[0] and "+3" in texts[0]
