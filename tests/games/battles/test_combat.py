"""Combat rules (rules-battles.md section 7): rounds, segments, firers, targets, dice, results,
the World Ship single shot, the end of combat, the canonical dice order and the runaway guard.
Every test builds a position, drives the prompts with scripted dice and checks the state."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import (ScriptedDice, at, drive, in_region, position, rolls,
                                         target, targets, where)

STAY = {"verb": "stay"}
LEAVE = {"verb": "disengage"}


def firers_offered(state, role):
    return sorted({a["firer"] for a in GAME.legal_actions(state, role) if a["verb"] == "target"})


def targets_offered(state, role, firer):
    return sorted({a["target"] for a in GAME.legal_actions(state, role)
                   if a["verb"] == "target" and a["firer"] == firer})


# ------------------------------------------------------------------ rounds and segments
def test_rounds_repeat_until_one_side_is_left_and_each_has_three_segments():
    """BFG-CMB-1, BFG-CMB-2, BFG-PUR-1: an IO against an IO fires in the Military segment,
    then in the Morph segment, then both players choose to stay; a second round follows,
    and the fight stops as soon as one side is gone."""
    state = position(blue=["B-IO1"], red=["R-IO1"], combat=3)
    dice = ScriptedDice([1, 1, 1, 1,            # round 1 Military: B-IO1, R-IO1
                         1, 1, 1, 1,            # round 1 Morph
                         6, 1, 1, 1])           # round 2 Military: B-IO1 eliminates R-IO1
    drive(state, dice, [])
    assert state["pending"]["kind"] == "disengage" and state["pending"]["role"] == "blue"
    assert [e["rule"] for e in state["log"] if e["kind"] == "roll"] == [
        "BFG-CMB-9", "BFG-CMB-9", "BFG-CMB-10", "BFG-CMB-10"]
    assert state["battle"]["round"] == 1 and dice.left == 4
    drive(state, dice, [("blue", STAY)])
    assert state["pending"]["kind"] == "disengage" and state["pending"]["role"] == "red"
    drive(state, dice, [("red", STAY)])
    # Round 2: R-IO1 is eliminated in the Military segment; no Morph segment, no choice.
    assert state["pending"]["kind"] == "garrison" and state["battle"]["round"] == 2
    assert where(state, "common") == ["R-IO1"]
    assert dice.left == 0


# ------------------------------------------------------------------ who fires, at whom
def test_only_fleets_with_a_value_in_the_segment_fire():
    """BFG-CMB-3: SFs fire only in the Military segment and CGs only in Morph."""
    state = position(blue=["B-SF1", "B-CG1"], red=["R-SF1", "R-CG1"])
    dice = ScriptedDice([1, 1, 1, 1, 1, 1, 1, 1])
    drive(state, dice, [])
    assert state["battle"]["segment"] == "mil"
    assert firers_offered(state, "blue") == ["B-SF1"]
    drive(state, dice, [("blue", target("B-SF1", "R-CG1"))])
    assert firers_offered(state, "red") == ["R-SF1"]
    drive(state, dice, [("red", target("R-SF1", "B-SF1"))])
    assert state["battle"]["segment"] == "morph"
    assert firers_offered(state, "blue") == ["B-CG1"]
    drive(state, dice, [("blue", target("B-CG1", "R-CG1"))])
    assert firers_offered(state, "red") == ["R-CG1"]
    drive(state, dice, [("red", target("R-CG1", "B-SF1"))])
    assert state["pending"]["kind"] == "disengage"
    assert len(rolls(state)) == 4 and all(len(r) == 2 for r in rolls(state))
    assert dice.left == 0


@pytest.mark.parametrize("ci, blue_dice, red_dice", [(20, 1, 3), (50, 2, 2), (80, 3, 1)])
def test_trans_humans_fire_with_their_value_at_the_current_ci(ci, blue_dice, red_dice):
    """BFG-CMB-3, BFG-CMB-8: a TH rolls as many dice as its CI-dependent value, in both
    segments."""
    state = position(blue=["B-TH1"], red=["R-TH1"], ci=ci)
    dice = ScriptedDice([1] * (2 * (blue_dice + red_dice)))
    drive(state, dice, [])
    assert state["pending"]["kind"] == "disengage"
    assert [len(r) for r in rolls(state)] == [blue_dice, red_dice, blue_dice, red_dice]
    assert dice.left == 0


def test_every_eligible_fleet_must_fire_at_one_enemy_fleet():
    """BFG-CMB-4: the declaration goes on until every firer has a target; only enemy fleets
    in the region can be picked; a declaration may be taken back before the last one."""
    state = position(blue=["B-SF1", "B-SF2"], red=["R-SF1", "R-SF2", "R-SF3"])
    dice = ScriptedDice([1] * 10)
    drive(state, dice, [])
    assert all(a["verb"] in ("target", "untarget") for a in GAME.legal_actions(state, "blue"))
    assert targets_offered(state, "blue", "B-SF1") == ["R-SF1", "R-SF2", "R-SF3"]
    with pytest.raises(IllegalAction):
        GAME.apply(state, "blue", target("B-SF1", "B-SF2"))
    drive(state, dice, [("blue", target("B-SF1", "R-SF1"))])
    assert state["pending"]["role"] == "blue"           # B-SF2 has not fired yet
    assert {"verb": "untarget", "firer": "B-SF1"} in GAME.legal_actions(state, "blue")
    drive(state, dice, [("blue", {"verb": "untarget", "firer": "B-SF1"})])
    assert firers_offered(state, "blue") == ["B-SF1", "B-SF2"]
    drive(state, dice, targets("blue", [("B-SF1", "R-SF3"), ("B-SF2", "R-SF2")]))
    assert state["pending"]["role"] == "red"
    assert state["battle"]["targets"]["blue"] == {
        "B-SF1": {"target": "R-SF3", "single": False},
        "B-SF2": {"target": "R-SF2", "single": False}}


def test_no_doubling_up_while_firers_do_not_outnumber_targets():
    """BFG-CMB-5, BFG-CMB-6: with E <= T a target already picked is no longer offered; with
    E > T the last firers are held to the targets still uncovered."""
    state = position(blue=["B-SF1", "B-SF2"], red=["R-SF1", "R-SF2", "R-SF3"])
    drive(state, ScriptedDice([]), [("blue", target("B-SF1", "R-SF1"))])
    assert targets_offered(state, "blue", "B-SF2") == ["R-SF2", "R-SF3"]
    drive(state, ScriptedDice([]), [("blue", target("B-SF2", "R-SF2"))])
    # Red: E = 3 against T = 2. The first may double, but then the others must cover.
    assert targets_offered(state, "red", "R-SF1") == ["B-SF1", "B-SF2"]
    drive(state, ScriptedDice([]), [("red", target("R-SF1", "B-SF1")),
                                    ("red", target("R-SF2", "B-SF1"))])
    assert targets_offered(state, "red", "R-SF3") == ["B-SF2"]


def test_the_resolving_player_declares_first_and_dice_wait_for_both():
    """BFG-CMB-7: with Red resolving, Red declares every target, then Blue; the targets are
    open (Blue's view shows Red's); no die is rolled before Blue's last declaration."""
    state = position(blue=["B-SF1", "B-SF2"], red=["R-SF1", "R-SF2"], resolver="red")
    dice = ScriptedDice([1] * 8)
    drive(state, dice, [])
    assert state["pending"]["role"] == "red"
    drive(state, dice, targets("red", [("R-SF1", "B-SF2"), ("R-SF2", "B-SF1")]))
    assert state["pending"]["role"] == "blue" and dice.left == 8
    seen = GAME.view(state, "blue")["battle"]["targets"]["red"]
    assert {f: d["target"] for f, d in seen.items()} == {"R-SF1": "B-SF2", "R-SF2": "B-SF1"}
    drive(state, dice, [("blue", target("B-SF1", "R-SF1"))])
    assert dice.left == 8
    drive(state, dice, [("blue", target("B-SF2", "R-SF2"))])
    assert dice.left == 0 and state["pending"]["kind"] == "disengage"
    assert rolls(state) == [[1, 1]] * 4


# ------------------------------------------------------------------ dice and results
def test_a_tactical_chit_adds_one_die_in_the_only_segment_it_can():
    """BFG-CMB-8: an AF with a Tactical chit rolls 3 + 1 dice; here only the fourth die is a
    6, and it eliminates the target."""
    state = position(blue=["B-AF1"], red=["R-CG1"], combat=1)
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    state["fleets"]["B-AF1"]["tactical"] = "Tactical-1"
    dice = ScriptedDice([1, 1, 1, 6])
    drive(state, dice, [])
    assert rolls(state) == [[1, 1, 1, 6]]
    assert where(state, "common") == ["R-CG1"]
    assert state["pending"]["kind"] == "garrison" and dice.left == 0


def test_a_tactical_die_goes_to_the_segment_its_owner_picks():
    """BFG-CMB-8: an IO (2/2) with its Tactical die put on Morph rolls 2 Military dice and
    3 Morph dice; its third Morph die, a 6, sends the enemy IO home (BFG-CMB-10)."""
    state = position(blue=["B-IO1"], red=["R-IO1"])
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    state["fleets"]["B-IO1"]["tactical"] = "Tactical-1"
    dice = ScriptedDice([1, 1, 1, 1, 1, 1, 6, 1, 1])
    drive(state, dice, [])
    assert state["pending"]["kind"] == "tactical_segment"
    drive(state, dice, [("blue", {"verb": "segment", "fleet": "B-IO1", "segment": "morph"})])
    assert rolls(state) == [[1, 1], [1, 1], [1, 1, 6], [1, 1]]
    assert at(state, "R-IO1") == ("display", None, "red")
    assert dice.left == 0


@pytest.mark.parametrize("faces, place", [((6, 1), "common"), ((1, 6), "common"),
                                          ((5, 2), "display"), ((4, 3), "map"),
                                          ((2, 1), "map")])
def test_military_results(faces, place):
    """BFG-CMB-9, BFG-CMB-13: in the Military segment a 6 eliminates (to the common pool), a
    5 returns the target to base, 1 to 4 do nothing."""
    state = position(blue=["B-SF1"], red=["R-CG1"], combat=1)
    dice = ScriptedDice([*faces, 1, 1])     # then R-CG1's Morph dice if it is still there
    drive(state, dice, [])
    assert state["fleets"]["R-CG1"]["at"] == place
    assert state["fleets"]["R-CG1"]["owner"] == "red"
    assert state["pending"]["kind"] == ("disengage" if place == "map" else "garrison")


@pytest.mark.parametrize("faces, place, owner", [((6, 1), "map", "blue"),
                                                 ((5, 1), "display", "red"),
                                                 ((4, 4), "map", "red")])
def test_morph_results(faces, place, owner):
    """BFG-CMB-10, BFG-CMB-13: in the Morph segment a 6 converts the target (it flips and
    stays in the region for the converter), a 5 returns it, 1 to 4 do nothing."""
    state = position(blue=["B-CG1"], red=["R-SF1"])
    dice = ScriptedDice([1, 1, *faces])     # R-SF1's Military dice, then B-CG1's Morph dice
    drive(state, dice, [])
    fleet = state["fleets"]["R-SF1"]
    assert (fleet["at"], fleet["owner"]) == (place, owner)
    if place == "map":
        assert fleet["region"] == 1
    assert dice.left == 0


def test_a_morph_six_sends_an_imperial_order_home_instead_of_converting_it():
    """BFG-CMB-10, BFG-COMP-9: a 6 against an IO in the Morph segment returns it to base; it
    is never converted."""
    state = position(blue=["B-CG1"], red=["R-IO1"])
    dice = ScriptedDice([1, 1,             # R-IO1 Military at B-CG1
                         6, 6,             # B-CG1 Morph at R-IO1
                         1, 1])            # R-IO1 Morph (it still fires)
    drive(state, dice, [])
    assert at(state, "R-IO1") == ("display", None, "red")
    assert dice.left == 0


@pytest.mark.parametrize("first, second", [((5, 1), (6, 1)), ((6, 1), (5, 1)), ((5, 6), (1, 1))])
def test_the_most_severe_result_applies(first, second):
    """BFG-CMB-11: a 5 and a 6 on one target, from one firer or two, eliminate it."""
    state = position(blue=["B-SF1", "B-SF2"], red=["R-CG1"])
    drive(state, ScriptedDice([*first, *second]), [])
    assert where(state, "common") == ["R-CG1"]
    assert where(state, "display", "red") == []


def test_both_sides_fire_before_results_and_combat_may_leave_nobody():
    """BFG-CMB-12, BFG-CMB-18: both SFs eliminate each other in the same segment; the fight
    ends at once with no fleets left, and the region is resolved with no controller."""
    state = position(blue=["B-SF1"], red=["R-SF1"])
    dice = ScriptedDice([6, 1, 6, 1])
    drive(state, dice, [])
    assert where(state, "common") == ["B-SF1", "R-SF1"]
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
    assert state["stack"] == [] and state["pending"] is None and dice.left == 0


def test_combat_ends_after_the_military_segment_and_skips_the_rest_of_the_round():
    """BFG-CMB-18, BFG-PUR-1: Red's only fleet is sent home in the Military segment; the
    Morph segment and the disengagement choice are skipped (the Blue CG never rolls)."""
    state = position(blue=["B-SF1", "B-CG1"], red=["R-SF1"], combat=3)
    dice = ScriptedDice([5, 1, 1, 1])
    drive(state, dice, [("red", target("R-SF1", "B-CG1"))])
    assert at(state, "R-SF1") == ("display", None, "red")
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "blue"
    assert dice.left == 0 and len(rolls(state)) == 2


def test_an_eliminated_trans_human_goes_back_to_its_owners_supply():
    """BFG-CMB-14: a Red TH eliminated by a 6 is back in Red's TH supply, not the common
    pool."""
    state = position(blue=["B-SF1"], red=["R-TH1"], ci=50)
    dice = ScriptedDice([6, 1, 1, 1])      # B-SF1 at R-TH1, R-TH1 (2/2) at B-SF1
    drive(state, dice, [])
    fleet = state["fleets"]["R-TH1"]
    assert (fleet["at"], fleet["owner"]) == ("supply", "red")
    assert "R-TH1" not in [f for f, v in state["fleets"].items() if v["at"] == "common"]
    assert dice.left == 0


def test_a_converted_fleet_fires_for_its_new_owner_at_the_end_of_its_line_up():
    """BFG-CMB-15, BFG-CMB-19: B-SF1, converted in round 1, fires for Red in round 2 after
    R-SF1 (although it was deployed before every Red fleet), and goes home to Red."""
    state = position(blue=["B-SF1", "B-SF2", "B-SF3"], red=["R-CG1", "R-SF1"], combat=6)
    dice = ScriptedDice([
        1, 1, 1, 1, 1, 1, 1, 1,               # R1 Military: B-SF1..3, R-SF1
        6, 1,                                 # R1 Morph: R-CG1 converts B-SF1
        1, 1, 1, 1, 1, 1, 6, 1,               # R2 Military: B-SF2, B-SF3, R-SF1, B-SF1
        1, 1,                                 # R2 Morph: R-CG1 at B-SF2
    ])
    drive(state, dice, [
        *targets("blue", [("B-SF1", "R-SF1"), ("B-SF2", "R-CG1"), ("B-SF3", "R-CG1")]),
        ("red", target("R-SF1", "B-SF2")),
        ("red", target("R-CG1", "B-SF1")),
    ])
    assert at(state, "B-SF1") == ("map", 1, "red")
    assert in_region(state, 1, "red") == ["B-SF1", "R-CG1", "R-SF1"]
    drive(state, dice, [("blue", STAY), ("red", STAY)])
    assert firers_offered(state, "red") == []          # Red's turn to declare comes later
    drive(state, dice, targets("blue", [("B-SF2", "R-CG1"), ("B-SF3", "R-SF1")]))
    assert firers_offered(state, "red") == ["B-SF1", "R-SF1"]
    drive(state, dice, targets("red", [("R-SF1", "B-SF2"), ("B-SF1", "B-SF3")]))
    # The 6 is the fourth pair of the segment: B-SF1's, so B-SF3 (its target) is gone.
    assert where(state, "common") == ["B-SF3"]
    # Red's 6 (three SF-sized fleets) cannot hold Combat 6: all go home.
    drive(state, dice, [("blue", LEAVE), ("red", STAY)])
    assert at(state, "B-SF1") == ("display", None, "red")
    assert at(state, "B-SF2") == ("display", None, "blue")
    assert dice.left == 0


def test_dice_follow_the_line_up_order_within_a_side():
    """BFG-CMB-19: B-SF2 was deployed before B-SF1, so its dice come first."""
    state = position(blue=["B-SF2", "B-SF1"], red=["R-SF1", "R-SF2"], combat=6)
    dice = ScriptedDice([6, 1, 1, 1, 1, 1, 1, 1])
    drive(state, dice, [*targets("blue", [("B-SF1", "R-SF1"), ("B-SF2", "R-SF2")]),
                        *targets("red", [("R-SF1", "B-SF1"), ("R-SF2", "B-SF2")])])
    assert where(state, "common") == ["R-SF2"]
    assert dice.left == 0


# ------------------------------------------------------------------ the World Ship
@pytest.mark.parametrize("face, place", [(1, "display"), (2, "common"), (6, "common")])
def test_world_ship_single_shot_in_the_military_segment(face, place):
    """BFG-CMB-16: one die +4: 2 to 6 eliminate, 1 returns the target; one die only."""
    state = position(blue=["B-WS1"], red=["R-CG1"])
    dice = ScriptedDice([face])
    drive(state, dice, [("blue", target("B-WS1", "R-CG1", single=True))])
    assert state["fleets"]["R-CG1"]["at"] == place
    assert rolls(state, "BFG-CMB-16") == [[face]] and dice.left == 0


@pytest.mark.parametrize("enemy, face, place, owner", [
    ("R-SF1", 1, "display", "red"), ("R-SF1", 2, "map", "blue"), ("R-SF1", 5, "map", "blue"),
    ("R-IO1", 4, "display", "red")])
def test_world_ship_single_shot_in_the_morph_segment(enemy, face, place, owner):
    """BFG-CMB-16, BFG-COMP-9: in Morph the single shot converts on 2 to 6 and returns on a
    1; a converting result sends an IO home instead."""
    state = position(blue=["B-WS1"], red=[enemy])
    morph_return_fire = [1, 1] if enemy == "R-IO1" else []
    dice = ScriptedDice([1, 1, 1, 1, 1, face, *morph_return_fire])
    drive(state, dice, [("blue", target("B-WS1", enemy)),
                        ("blue", target("B-WS1", enemy, single=True))])
    fleet = state["fleets"][enemy]
    assert (fleet["at"], fleet["owner"]) == (place, owner)
    assert dice.left == 0


def test_single_shot_is_on_by_default_chosen_per_segment_and_can_be_switched_off():
    """BFG-CMB-17: the WS owner may pick the single shot or the normal dice in each
    segment; with Fire Main Weapon off only the normal dice are offered, and a lone target
    is then taken without asking."""
    state = position(blue=["B-WS1"], red=["R-IO1"])
    dice = ScriptedDice([1, 1, 1, 1, 1,       # Military: normal dice (3), R-IO1 (2)
                         3, 1, 1])            # Morph: single shot, R-IO1 (2)
    drive(state, dice, [])
    shots = {a.get("shot") for a in GAME.legal_actions(state, "blue")}
    assert shots == {None, "single"}
    drive(state, dice, [("blue", target("B-WS1", "R-IO1"))])
    assert state["battle"]["segment"] == "morph"
    assert {a.get("shot") for a in GAME.legal_actions(state, "blue")} == {None, "single"}
    drive(state, dice, [("blue", target("B-WS1", "R-IO1", single=True))])
    assert rolls(state, "BFG-CMB-16") == [[3]] and dice.left == 0

    off = position(blue=["B-WS1"], red=["R-IO1"], options={"fire_main_weapon": False})
    dice = ScriptedDice([1] * 10)
    drive(off, dice, [])
    assert off["pending"]["kind"] == "disengage"         # no targets prompt at all
    assert rolls(off) == [[1, 1, 1], [1, 1], [1, 1, 1], [1, 1]] and dice.left == 0


# ------------------------------------------------------------------ runaway guard
def test_after_two_hundred_rounds_both_sides_disengage():
    """BFG-CMB-20, BFG-PUR-4, BFG-PUR-5: two SFs that always miss fight 200 full rounds;
    then both are treated as disengaging: home, and no controller."""
    state = position(blue=["B-SF1"], red=["R-SF1"])
    dice = ScriptedDice([1] * 800)
    drive(state, dice, [])
    for _ in range(200):
        assert state["pending"]["kind"] == "disengage"
        drive(state, dice, [("blue", STAY), ("red", STAY)])
    assert dice.left == 0 and len(rolls(state)) == 400
    assert state["pending"] is None and state["stack"] == []
    assert at(state, "B-SF1") == ("display", None, "blue")
    assert at(state, "R-SF1") == ("display", None, "red")
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
    assert any(e["rule"] == "BFG-CMB-20" for e in state["log"])
