"""Rules tests for aliens.py: Phase 6 (Alien Conflict), the alien queries and Phase 13
(Expeditions)."""

from __future__ import annotations

import pytest

from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.aliens import (aert_result, after_event_losses,
                                                    alien_blocks_attack, messiah_zone,
                                                    nebula_at)
from struggle_desktop.games.struggle.context import CHAOS, IMP
from tests.games.struggle.helpers import (add_alien, ScriptedRng, act, begin_phase, clear_map, context,
                                          legal, new_game, put_system, put_unit, run, set_ci)

GALAXY = GAME.data.galaxy
ALL = {"all": True}


# ============================================================================ builders
def empty(turn: int = 2, options: dict | None = None) -> dict:
    """An empty galaxy on ``turn`` with every optional rule on (unless told otherwise)."""
    state = clear_map(new_game("3", 1, ALL if options is None else options))
    state["turn"] = turn
    state["turn_flags"] = {}
    return state




def kinds_at(state: dict, n: int) -> list[str]:
    return sorted(a["kind"] for a in state["aliens"] if a["loc"] == n)


def rolls(state: dict) -> list[dict]:
    """Dice rolled in Phases 6 and 13 (set-up rolls left out)."""
    return [e for e in state["log"] if e["kind"] == "roll" and e["phase"] in (6, 13)]


def phase6(state: dict, dice) -> dict:
    begin_phase(state, 6, turn=state["turn"])
    return run(state, ScriptedRng(dice))


def phase13(state: dict, dice=()) -> dict:
    begin_phase(state, 13, turn=state["turn"])
    return run(state, ScriptedRng(dice))


# ============================================================================ AERT and queries
def test_aert_bands_are_open_ended():
    """SGE-ALN-2, SGE-DICE-5: 2 or less Negative, 3-7 Indeterminate, 8 or more Positive,
    with no clamping of modified rolls."""
    ctx = context(empty())
    assert [aert_result(ctx, v) for v in (-4, 2, 3, 7, 8, 19)] == [
        "negative", "negative", "indeterminate", "indeterminate", "positive", "positive"]


def test_attack_prohibitions_of_hive_randoids_and_messiah_zone():
    """SGE-CMB-5, SGE-EV-HIVE, SGE-EV-RANDOIDS, SGE-EV-MESSIAH, SGE-MAP-12: the Hive forbids
    military attacks in its sector, the Randoids morph attacks, and the Messiah's zone (radius
    = turns since placement) both."""
    state = empty(turn=4)
    add_alien(state, "HIVE", 2)
    add_alien(state, "RANDOIDS", 3)
    add_alien(state, "MESSIAH", 50, placed=2)
    assert GALAXY.dist[50][2] > 2 and GALAXY.dist[50][3] > 2
    ctx = context(state)
    assert alien_blocks_attack(ctx, 2, "mil") and alien_blocks_attack(ctx, 2, "morph") is None
    assert alien_blocks_attack(ctx, 3, "morph") and alien_blocks_attack(ctx, 3, "mil") is None
    assert messiah_zone(ctx) == GALAXY.within(50, 2)
    far = next(n for n in GALAXY.numbers if GALAXY.dist[50][n] == 3 and n not in (2, 3))
    near = next(n for n in GALAXY.numbers if GALAXY.dist[50][n] == 2)
    assert alien_blocks_attack(ctx, near, "mil") and alien_blocks_attack(ctx, near, "morph")
    assert alien_blocks_attack(ctx, far, "mil") is None
    assert alien_blocks_attack(ctx, 1, "mil") is None


def test_messiah_zone_on_its_first_turn_is_its_own_sector():
    """SGE-EV-MESSIAH: on the turn of placement only the Messiah's own sector is closed."""
    state = empty(turn=3)
    add_alien(state, "MESSIAH", 10)
    ctx = context(state)
    assert messiah_zone(ctx) == frozenset({10})
    assert nebula_at(ctx, 10) is False


# ============================================================================ Phase 6
def test_alien_markers_roll_in_sector_then_placement_order():
    """SGE-ALN-1, SGE-ALN-3, SGE-SEQ-8: every alien marker rolls the AERT once in Phase 6,
    ascending sector, then placement order, even in empty sectors."""
    state = empty()
    add_alien(state, "NEBULA", 10)
    add_alien(state, "RANDOIDS", 10)
    add_alien(state, "HIVE", 4)
    phase6(state, [5, 5, 5])
    texts = [e["text"] for e in rolls(state)]
    assert len(texts) == 3
    assert "the Hive in 04" in texts[0]
    assert "the Living Nebula in 10" in texts[1]
    assert "the Randoids in 10" in texts[2]
    assert state["pending"] is None and state["stack"] == []
    assert len(state["aliens"]) == 3      # Indeterminate: these three stay


def test_biomech_adds_military_of_both_sides_with_parentheses_and_wipes_on_indeterminate():
    """SGE-EV-BIOMECH, SGE-REC-3, SGE-REC-4, SGE-ALN-5, SGE-IRS-3: the roll adds every
    unit's military (parenthesized CG included, both sides, the system unit too);
    Indeterminate eliminates all units and the other alien markers there, with no CI change,
    and the marker too; the lost system's Increased Resources marker goes with it."""
    state = empty()
    counter = put_system(state, 12, IMP, rv=1)
    state["systems"]["12"]["irs"] = True
    sys_mil = GAME.data.system_counters[counter][0]
    put_unit(state, "SF", 12)
    put_unit(state, "CG", 12)
    put_unit(state, "AF", 12, side=CHAOS)
    add_alien(state, "BIOMECH", 12)
    add_alien(state, "HIVE", 12)
    ci_before = state["ci2"]
    phase6(state, [0])
    roll = rolls(state)[0]["dice"][0]
    total = 2 + 1 + 3 + sys_mil
    assert roll["result"] == total and 3 <= total <= 7
    assert not [u for u in state["units"].values() if u["loc"] == 12]
    assert str(12) not in state["systems"] and counter in state["system_pool"]
    assert state["aliens"] == []
    assert sorted(state["discard"][-2:]) == ["BIOMECH", "HIVE"]
    assert state["ci2"] == ci_before
    assert "SGE-IRS-3" in [e["rule"] for e in state["log"] if e["phase"] == 6]


@pytest.mark.parametrize("kind, face", [("BIOMECH", 0), ("DARK-EMPIRE", 0), ("PROBE", 0)])
def test_an_alien_wipe_out_returns_the_institute_to_the_pool(kind, face):
    """SGE-EV-INSTITUTE, SGE-ALN-4 [amended]: an alien result that eliminates every unit of
    the Institute's sector (Biomech Predators, Dark Empire, the Probe) returns it to the pool;
    other alien markers there are not driven off by an alien result."""
    state = empty()
    put_system(state, 12, IMP, rv=1)
    put_unit(state, "CG", 12)
    add_alien(state, kind, 12)
    state["institutes"].append({"loc": 12, "placed": 1})
    pool = state["pool"].count("INSTITUTE")
    phase6(state, [face, 5])
    assert not [u for u in state["units"].values() if u["loc"] == 12]
    assert state["institutes"] == [] and state["pool"].count("INSTITUTE") == pool + 1


def test_biomech_negative_keeps_the_marker_and_kills_the_committed_leader():
    """SGE-EV-BIOMECH, SGE-ALN-3, SGE-LDR-4, SGE-LDR-5: the player may commit a leader;
    on Negative the units and the leader used are eliminated and the marker stays."""
    state = empty()
    cf = put_unit(state, "CF", 30, leader=1)
    add_alien(state, "BIOMECH", 30)
    phase6(state, [])
    assert state["pending"]["kind"] == "alien_leader"
    assert legal(state) == [{"verb": "commit_leader", "unit": cf}, {"verb": "no_leader"}]
    act(state, {"verb": "commit_leader", "unit": cf}, ScriptedRng([0]))
    roll = rolls(state)[0]["dice"][0]
    assert roll["result"] == 2   # CF (1) + leader 1
    assert cf not in state["units"]
    assert 1 in state["imp_leaders"] and state["imp_leaders"].count(1) == 3
    assert kinds_at(state, 30) == ["BIOMECH"]


def test_dark_empire_adds_morph_and_positive_eliminates_it():
    """SGE-EV-DARK-EMPIRE: the roll adds the morph of every unit (both sides, system unit
    included); Positive eliminates the marker and nothing else."""
    state = empty()
    counter = put_system(state, 14, CHAOS, rv=2)
    sys_morph = GAME.data.system_counters[counter][1]
    put_unit(state, "CG", 14)
    put_unit(state, "CG", 14, side=CHAOS)
    add_alien(state, "DARK-EMPIRE", 14)
    phase6(state, [4])
    assert rolls(state)[0]["dice"][0]["result"] == 4 + 2 + 2 + sys_morph >= 8
    assert state["aliens"] == [] and state["discard"][-1] == "DARK-EMPIRE"
    assert len([u for u in state["units"].values() if u["loc"] == 14]) == 2


def test_hive_negative_costs_the_leader_and_positive_removes_it():
    """SGE-EV-HIVE: morph totals count; Negative loses only the committed leader,
    Indeterminate does nothing, Positive eliminates the Hive."""
    state = empty()
    sf = put_unit(state, "SF", 16, leader=2)
    add_alien(state, "HIVE", 16)
    phase6(state, [])
    act(state, {"verb": "commit_leader", "unit": sf}, ScriptedRng([0]))
    assert rolls(state)[-1]["dice"][0]["result"] == 2   # SF morph 0 + leader 2
    assert sf in state["units"] and state["units"][sf]["leader"] is None
    assert kinds_at(state, 16) == ["HIVE"]
    phase6(state, [7])                                  # no leader left: no prompt
    assert kinds_at(state, 16) == ["HIVE"]
    phase6(state, [8])
    assert kinds_at(state, 16) == [] and state["discard"][-1] == "HIVE"


def test_randoids_add_military_and_positive_removes_them():
    """SGE-EV-RANDOIDS: the roll adds the units' military; Positive eliminates the marker."""
    state = empty()
    put_unit(state, "AF", 18)
    put_unit(state, "AF", 18, side=CHAOS)
    add_alien(state, "RANDOIDS", 18)
    phase6(state, [2])
    assert rolls(state)[0]["dice"][0]["result"] == 8
    assert state["aliens"] == []


def test_messiah_gains_one_per_turn_and_a_negative_leader_defects():
    """SGE-EV-MESSIAH: +1 per turn since placement; Negative makes the committed leader
    defect (eliminated), the Messiah stays."""
    state = empty(turn=5)
    add_alien(state, "MESSIAH", 20, placed=2)
    phase6(state, [4])
    assert rolls(state)[0]["dice"][0]["result"] == 7
    assert kinds_at(state, 20) == ["MESSIAH"]
    sf = put_unit(state, "SF", 20, leader=1)
    state["turn"] = 2                      # the turn of placement: +0
    phase6(state, [])
    act(state, {"verb": "commit_leader", "unit": sf}, ScriptedRng([1]))
    assert rolls(state)[-1]["dice"][0]["result"] == 2
    assert state["units"][sf]["leader"] is None and kinds_at(state, 20) == ["MESSIAH"]


def test_living_nebula_ignores_units_and_only_positive_ends_it():
    """SGE-EV-NEBULA: no unit totals, only a leader; Positive eliminates it."""
    state = empty()
    put_unit(state, "WS", 22)
    add_alien(state, "NEBULA", 22)
    phase6(state, [7])
    assert rolls(state)[0]["dice"][0]["modifiers"] == []
    assert nebula_at(context(state), 22)
    phase6(state, [8])
    assert not nebula_at(context(state), 22) and state["discard"][-1] == "NEBULA"


def test_each_leader_is_committed_at_most_once_per_phase():
    """SGE-ALN-3: a leader used against one alien is not offered for the next one."""
    state = empty()
    sf = put_unit(state, "SF", 24, leader=1)
    add_alien(state, "HIVE", 24)
    add_alien(state, "RANDOIDS", 24)
    phase6(state, [])
    assert state["pending"]["alien"] == "HIVE"
    act(state, {"verb": "commit_leader", "unit": sf}, ScriptedRng([5, 5]))
    assert state["pending"] is None and len(rolls(state)) == 2
    assert rolls(state)[1]["dice"][0]["result"] == 5 + 2   # SF military, no leader


def test_probe_negative_wipes_sector_and_its_ci_rise_obeys_the_turn1_cap():
    """SGE-EV-PROBE, SGE-CI-9: Negative destroys every unit and alien marker in the sector
    and adds a die to the CI, capped at 95 on turn 1; the Probe leaves play."""
    state = empty(turn=1)
    set_ci(state, 93)
    put_system(state, 26, IMP, rv=1)
    put_unit(state, "SF", 26)
    add_alien(state, "PROBE", 26)
    add_alien(state, "NEBULA", 26)
    phase6(state, [0, 6])
    assert state["ci2"] == 95 * 2
    assert not [u for u in state["units"].values() if u["loc"] == 26]
    assert "26" not in state["systems"]
    assert state["aliens"] == [] and "PROBE" in state["removed"] and "NEBULA" in state["discard"]


def test_probe_positive_gives_rp_and_lowers_ci_then_leaves_play():
    """SGE-EV-PROBE: Positive rolls two dice, the first added to RP, the second taken off
    the CI; the Probe is removed from play whatever the result."""
    state = empty(turn=3)
    set_ci(state, 50)
    state["rp"] = 4
    put_unit(state, "WS", 27)
    add_alien(state, "PROBE", 27)
    phase6(state, [9, 4, 3])
    assert state["rp"] == 8 and state["ci2"] == 47 * 2
    assert state["aliens"] == [] and state["removed"].count("PROBE") >= 1
    assert len([u for u in state["units"].values() if u["loc"] == 27]) == 1


def test_probe_from_an_earlier_turn_does_not_roll():
    """SGE-EV-PROBE: only the Alien Conflict Phase of its own turn; then it leaves play."""
    state = empty(turn=3)
    add_alien(state, "PROBE", 27, placed=2)
    phase6(state, [])
    assert rolls(state) == [] and state["aliens"] == [] and "PROBE" in state["removed"]


# ============================================================================ SGE-ALN-4
def test_event_emptying_a_sector_removes_aliens_and_institute():
    """SGE-ALN-4: when an event leaves no unit where there was one, Biomech, Dark Empire,
    Hive, Messiah and Randoids leave and the Institute returns to the pool; the Nebula and
    the Probe stay; nothing happens if the sector was empty or still holds a unit."""
    state = empty()
    for kind in ("BIOMECH", "DARK-EMPIRE", "HIVE", "MESSIAH", "RANDOIDS", "NEBULA", "PROBE"):
        add_alien(state, kind, 33)
    state["institutes"].append({"loc": 33, "placed": 1})
    pool = state["pool"].count("INSTITUTE")
    ctx = context(state)
    after_event_losses(ctx, 33, 0)
    assert len(state["aliens"]) == 7
    uid = put_unit(state, "SF", 33)
    after_event_losses(ctx, 33, 2)
    assert len(state["aliens"]) == 7
    ctx.remove_unit(uid, "TEST", "test")
    after_event_losses(ctx, 33, 1)
    assert kinds_at(state, 33) == ["NEBULA", "PROBE"]
    assert state["institutes"] == [] and state["pool"].count("INSTITUTE") == pool + 1
    assert all(e["rule"] == "SGE-ALN-4" for e in state["log"][-6:])


# ============================================================================ Phase 13
def expedition_state(sites, units_at=None, turn: int = 3) -> dict:
    state = empty(turn=turn)
    for n in sites:
        state["pool"].remove("EXPEDITION")
        state["expedition_sites"].append(n)
    return state


def test_expedition_offered_only_where_imperial_mobile_units_stand():
    """SGE-EXP-1, SGE-SEQ-15, SGE-EXP-2, SGE-EV-EXPEDITION: in Phase 13, one prompt per
    Expedition Possible site with Imperial mobile units; declining keeps the marker."""
    state = expedition_state([10, 20])
    put_unit(state, "SF", 20)
    put_unit(state, "SF", 10, side=CHAOS)
    phase13(state)
    assert state["pending"]["kind"] == "expedition" and state["pending"]["at"] == 20
    assert legal(state) == [{"verb": "expedition"}, {"verb": "decline"}]
    act(state, {"verb": "decline"})
    assert state["pending"] is None and state["expedition_sites"] == [10, 20]


def test_expedition_negative_loses_units_and_leader_and_triggers_aln4():
    """SGE-EXP-2, SGE-EXP-4, SGE-ALN-4: Negative eliminates the units and the leader used,
    discards the marker, and an emptied sector sends its Hive away."""
    state = expedition_state([21])
    cg = put_unit(state, "CG", 21, leader=2)
    put_unit(state, "SF", 21)
    add_alien(state, "HIVE", 21)
    phase13(state)
    act(state, {"verb": "expedition", "leader": cg}, ScriptedRng([0]))
    assert not [u for u in state["units"].values() if u["loc"] == 21]
    assert state["imp_leaders"].count(2) == 2
    assert state["expedition_sites"] == [] and state["discard"][-2:] == ["EXPEDITION", "HIVE"]
    assert kinds_at(state, 21) == []


def test_expedition_indeterminate_keeps_the_marker():
    """SGE-EXP-2: Indeterminate changes nothing."""
    state = expedition_state([21])
    put_unit(state, "SF", 21)
    phase13(state)
    act(state, {"verb": "expedition"}, ScriptedRng([5]))
    assert state["expedition_sites"] == [21]
    assert len(state["units"]) == 1


@pytest.mark.parametrize("index, dice, check", [
    (0, [], lambda st, before: st["ci2"] == before["ci2"] + 10),          # Doomsday: +5
    (2, [], lambda st, before: sum(u["type"] == "WS" for u in st["units"].values()) == 1),
    (4, [6], lambda st, before: st["rp"] == before["rp"] + 6),            # Precursor Archive
    (6, [3], lambda st, before: st["ci2"] == before["ci2"] - 6),          # Psionic Relic
])
def test_expedition_positive_draws_and_returns_a_marker(index, dice, check):
    """SGE-EXP-2, SGE-EXP-3: Positive discards the site marker, draws one Expedition marker,
    applies it and puts it back in its cup."""
    state = expedition_state([23])
    set_ci(state, 50)
    put_unit(state, "SF", 23)
    before = {"ci2": state["ci2"], "rp": state["rp"]}
    cup = sorted(state["expedition_cup"])
    phase13(state)
    act(state, {"verb": "expedition"}, ScriptedRng([9, index] + dice))
    assert state["expedition_sites"] == [] and state["discard"][-1] == "EXPEDITION"
    assert sorted(state["expedition_cup"]) == cup
    assert check(state, before)


def test_seed_ship_founds_a_system_where_the_player_chooses():
    """SGE-EXP-3: the Seed Ship puts an Imperial system unit in an empty system sector of the
    player's choice that holds no Chaos units."""
    state = expedition_state([23])
    put_unit(state, "SF", 23)
    put_system(state, 1, IMP)
    put_unit(state, "SF", 2, side=CHAOS)
    phase13(state)
    act(state, {"verb": "expedition"}, ScriptedRng([9, 8]))
    assert state["pending"]["kind"] == "seed_ship"
    sites = [a["at"] for a in legal(state)]
    assert 1 not in sites and 2 not in sites and 3 in sites
    assert all(GALAXY.is_system[n] for n in sites)
    act(state, {"verb": "found", "at": 3}, ScriptedRng([0]))
    assert state["systems"]["3"]["side"] == IMP
    assert len(state["expedition_cup"]) == 10 and state["pending"] is None
