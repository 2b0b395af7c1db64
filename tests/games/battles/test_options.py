"""Optional rules (rules-battles.md section 14): the defaults, That's No Moon and its hit reset,
Switcheroo and Things Just Get Better and Better at the start of a turn."""

from __future__ import annotations

import pytest

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import (ScriptedDice, at, drive, hand_state, position,
                                         set_region, target, where)

STAY = {"verb": "stay"}
LEAVE = {"verb": "disengage"}
MOON = {"no_moon": True}
DEFAULTS = {"fire_main_weapon": True, "no_moon": False, "switcheroo": False,
            "switcheroo_d6": False, "better": False, "mixed_chits": False,
            "secret_disengagement": True, "open_hands": False}


def test_option_defaults_and_they_are_recorded_in_the_game():
    """BFG-OPT-1: every option is a toggle with the listed default; a new game records the
    values in its state (and so in its save), a changed one included."""
    offered = GAME.options()
    assert {k: offered[k]["default"] for k in DEFAULTS} == DEFAULTS
    assert all(offered[k]["type"] == "bool" for k in DEFAULTS)
    assert GAME.setup("civil-war", seed=1)["options"] == DEFAULTS
    changed = GAME.setup("civil-war", seed=1, options={"no_moon": "on"})["options"]
    assert changed == {**DEFAULTS, "no_moon": True}


# ------------------------------------------------------------------ That's No Moon
def test_no_moon_only_sixes_count_and_the_third_eliminates():
    """BFG-OPT-2, BFG-OPT-3, BFG-OPT-4: against a WS, 5s do nothing and each 6, Military or
    Morph, is one hit (a Morph 6 does not convert it); the third hit sends it to the common
    pool, and the count is cleared when the resolution ends."""
    state = position(blue=["B-WS1"], red=["R-SF1", "R-CG1"], combat=6, options=MOON)
    dice = ScriptedDice([1, 1, 1, 5, 6,          # R1 Military: B-WS1, R-SF1 (one hit)
                         1, 1, 1, 6, 5])         # R1 Morph: B-WS1, R-CG1 (one hit)
    drive(state, dice, [("blue", target("B-WS1", "R-SF1")),
                        ("blue", target("B-WS1", "R-CG1"))])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    ws = state["fleets"]["B-WS1"]
    assert (ws["at"], ws["owner"], ws["hits"]) == ("map", "blue", 2)
    dice = ScriptedDice([1, 1, 1, 6, 1])         # R2 Military: R-SF1's 6 is the third hit
    drive(state, dice, [("blue", STAY), ("red", STAY), ("blue", target("B-WS1", "R-SF1"))])
    assert where(state, "common") == ["B-WS1"]
    assert state["fleets"]["B-WS1"]["hits"] == 0
    assert state["regions"]["1"]["resolved"] and dice.left == 0


def test_no_moon_one_firer_can_score_several_hits():
    """BFG-OPT-3: three 6s from one WS's dice against a WS are three hits: eliminated."""
    state = position(blue=["B-WS1"], red=["R-WS1"], combat=6, options=MOON)
    dice = ScriptedDice([6, 6, 6, 1, 1, 1])
    drive(state, dice, [("blue", target("B-WS1", "R-WS1")), ("red", target("R-WS1", "B-WS1"))])
    assert where(state, "common") == ["R-WS1"] and dice.left == 0


@pytest.mark.parametrize("face, hits", [(1, 0), (2, 1), (6, 1)])
def test_no_moon_single_shot_is_one_hit_or_nothing(face, hits):
    """BFG-OPT-3: a single shot at a WS scores one hit on 2 to 6 and nothing on a 1 (it
    does not return it)."""
    state = position(blue=["B-WS1"], red=["R-WS1"], options=MOON)
    dice = ScriptedDice([face, 1, 1, 1,           # Military: single shot, R-WS1's dice
                         1, 1, 1, 1, 1, 1])       # Morph
    drive(state, dice, [("blue", target("B-WS1", "R-WS1", single=True)),
                        ("red", target("R-WS1", "B-WS1")),
                        ("blue", target("B-WS1", "R-WS1")),
                        ("red", target("R-WS1", "B-WS1"))])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    assert at(state, "R-WS1") == ("map", 1, "red")
    assert state["fleets"]["R-WS1"]["hits"] == hits


def test_no_moon_pursuit_hits_on_a_world_ship_and_the_reset():
    """BFG-OPT-3, BFG-OPT-4: two pursuit hits that Red assigns to its WS are two hits (it
    survives and goes home with Red's SF); the count is 0 once the resolution is over."""
    state = position(blue=["B-AF1"], red=["R-WS1", "R-SF1"], combat=1, options=MOON)
    dice = ScriptedDice([1, 1, 1,                 # Military: B-AF1
                         1, 1, 1, 1, 1,           # R-WS1, R-SF1
                         1, 1, 1])                # Morph: R-WS1
    drive(state, dice, [("blue", target("B-AF1", "R-SF1")),
                        ("red", target("R-WS1", "B-AF1")),     # R-SF1 then has one choice
                        ("red", target("R-WS1", "B-AF1"))])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    dice = ScriptedDice([6, 6, 1])
    drive(state, dice, [("blue", STAY), ("red", LEAVE), ("blue", {"verb": "pursue"}),
                        ("red", {"verb": "lose", "fleet": "R-WS1"})])
    assert state["fleets"]["R-WS1"]["hits"] == 1
    drive(state, dice, [("red", {"verb": "lose", "fleet": "R-WS1"})])
    assert state["fleets"]["R-WS1"]["hits"] == 2
    assert where(state, "display", "red") == ["R-SF1", "R-WS1"]
    drive(state, dice, [("blue", {"verb": "garrison_add", "fleet": "B-AF1"}),
                        ("blue", {"verb": "garrison_done"})])
    assert state["fleets"]["R-WS1"]["hits"] == 0 and dice.left == 0


# ------------------------------------------------------------------ start-of-turn options
def turn_start(turn, options, dice_faces):
    """Run the start of ``turn`` (no chits, no fleets to deploy) up to Blue's first action;
    the last two faces are the initiative roll."""
    state = hand_state(turn=turn, phase="victory", options=options,
                       stack=[{"proc": "turn", "step": "start"}])
    for number in range(1, 7):            # distinct chits: region n has C n, P n, R n
        set_region(state, number, C=number, P=number, R=number)
    dice = ScriptedDice(dice_faces)
    GAME.advance(state, rng=dice)
    assert state["pending"]["kind"] == "action" and dice.left == 0
    return state


def chits(state):
    return {(n, s): (state["regions"][str(n)][s]["chit"], state["regions"][str(n)][s]["plus"])
            for n in range(1, 7) for s in "CPR"}


def test_switcheroo_swaps_two_chits_from_turn_two():
    """BFG-OPT-5, BFG-OPT-6: on turn 2 the rolls 2,1 (Alpha, Combat) and 5,6 (Sigma,
    Resource) swap those chits; each keeps its number and upgrade and now counts for its new
    slot. On turn 1 nothing is rolled or swapped."""
    first = turn_start(1, {"switcheroo": True}, [6, 1])
    before = hand_state()
    for number in range(1, 7):
        set_region(before, number, C=number, P=number, R=number)
    assert chits(first) == chits(before)

    state = hand_state(turn=2, phase="victory", options={"switcheroo": True},
                       stack=[{"proc": "turn", "step": "start"}])
    for number in range(1, 7):
        set_region(state, number, C=number, P=number, R=number)
    set_region(state, 2, plus=1)                   # Alpha's C2 chit carries a +1
    dice = ScriptedDice([2, 1, 5, 6, 6, 1])
    GAME.advance(state, rng=dice)
    assert dice.left == 0
    assert state["regions"]["2"]["C"] == {"chit": "R5", "value": 5, "plus": 0}
    assert state["regions"]["5"]["R"] == {"chit": "C2", "value": 2, "plus": 1}
    ctx = GAME.context(state)
    assert ctx.slot_value(2, "C") == 5 and ctx.slot_value(5, "R") == 3


def test_switcheroo_rerolls_a_second_pick_of_the_same_chit():
    """BFG-OPT-6: the second pick 3,4 is Beta's Political chit again, so it is rolled again
    (1,5: Tau's Resource)."""
    state = turn_start(2, {"switcheroo": True}, [3, 3, 3, 4, 1, 5, 6, 1])
    assert state["regions"]["3"]["P"]["chit"] == "R1"
    assert state["regions"]["1"]["R"]["chit"] == "P3"


def test_switcheroo_with_a_d6_number_of_swaps():
    """BFG-OPT-5: with the sub-option a first d6 (2) sets the number of swaps."""
    state = turn_start(2, {"switcheroo": True, "switcheroo_d6": True},
                       [2, 1, 1, 2, 1,             # two swaps; first Tau C <-> Alpha C
                        4, 3, 6, 5,                # then Delta P <-> Omega R
                        6, 1])
    assert state["regions"]["1"]["C"]["chit"] == "C2" and state["regions"]["2"]["C"]["chit"] == "C1"
    assert state["regions"]["4"]["P"]["chit"] == "R6" and state["regions"]["6"]["R"]["chit"] == "P4"


@pytest.mark.parametrize("faces, where_, slot", [((4, 3), 4, "P"), ((6, 2), 6, "C"),
                                                 ((1, 6), 1, "R")])
def test_things_get_better_upgrades_one_chit_picked_by_two_dice(faces, where_, slot):
    """BFG-OPT-7, BFG-OPT-8: from turn 2 one chit, picked with the Switcheroo rolls, gains +1
    for good; upgrades add up (a chit at +1 goes to +2); not on turn 1."""
    turn_one = turn_start(1, {"better": True}, [6, 1])
    assert all(plus == 0 for _, plus in chits(turn_one).values())
    state = hand_state(turn=2, phase="victory", options={"better": True},
                       stack=[{"proc": "turn", "step": "start"}])
    for number in range(1, 7):
        set_region(state, number, C=number, P=number, R=number)
    state["regions"][str(where_)][slot]["plus"] = 1
    dice = ScriptedDice([*faces, 6, 1])
    GAME.advance(state, rng=dice)
    assert dice.left == 0
    changed = {k: v for k, v in chits(state).items() if v[1]}
    assert changed == {(where_, slot): (f"{slot}{where_}", 2)}
    assert GAME.context(state).slot_value(where_, slot) == where_ + 2
