"""The four region-resolution examples of seed 001 section 12, with the dice of rules-battles.md
section 17 scripted in canonical order (BFG-CMB-19). Each test checks the intermediate states
listed there, the end state, and that no die beyond the stream is rolled."""

from __future__ import annotations

import pytest

from tests.games.battles.helpers import (ScriptedDice, at, drive, in_region, position,
                                         targets, where)

STAY = {"verb": "stay"}
LEAVE = {"verb": "disengage"}


def test_example_1_uncontested_garrison():
    """BFG-EX-1, BFG-ACT-8, BFG-GAR-1, BFG-GAR-2, BFG-GAR-5: one Blue SF garrisons a region
    of Combat 1 without combat or dice."""
    state = position(blue=["B-SF1"], combat=1)
    dice = ScriptedDice([])
    drive(state, dice, [("blue", {"verb": "garrison_add", "fleet": "B-SF1"}),
                        ("blue", {"verb": "garrison_done"})])
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] == "blue"
    assert at(state, "B-SF1") == ("garrison", 1, "blue")
    assert dice.left == 0 and state["stack"] == []


def test_example_1_declining_the_garrison():
    """BFG-EX-1 negative check, BFG-GAR-3: declining sends the SF home, nobody controls."""
    state = position(blue=["B-SF1"], combat=1)
    drive(state, ScriptedDice([]), [("blue", {"verb": "no_garrison"})])
    assert state["regions"]["1"]["controller"] is None and state["regions"]["1"]["resolved"]
    assert at(state, "B-SF1") == ("display", None, "blue")


def test_example_2_mutual_losses_and_a_garrison_too_weak():
    """BFG-EX-2, BFG-CMB-6, BFG-CMB-9, BFG-PUR-7, BFG-GAR-3: three SFs against two; one SF
    each is eliminated; Red disengages; two SFs (4) cannot hold Combat 4."""
    state = position(blue=["B-SF1", "B-SF2", "B-SF3"], red=["R-SF1", "R-SF2"], combat=4)
    dice = ScriptedDice([6, 2, 1, 3, 4, 2, 6, 3, 2, 4])
    drive(state, dice, [
        *targets("blue", [("B-SF1", "R-SF1"), ("B-SF2", "R-SF2"), ("B-SF3", "R-SF1")]),
        *targets("red", [("R-SF1", "B-SF1"), ("R-SF2", "B-SF2")]),
    ])
    # After the Military segment (no morph firers, so straight to disengagement):
    assert state["pending"]["kind"] == "disengage"
    assert in_region(state, 1, "blue") == ["B-SF2", "B-SF3"]
    assert in_region(state, 1, "red") == ["R-SF2"]
    assert where(state, "common") == ["B-SF1", "R-SF1"]
    drive(state, dice, [("blue", STAY), ("red", LEAVE)])
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
    assert where(state, "display", "blue") == ["B-SF2", "B-SF3"]
    assert where(state, "display", "red") == ["R-SF2"]
    assert where(state, "common") == ["B-SF1", "R-SF1"]
    assert dice.left == 0


EX3_STREAM_A = [5, 3, 2, 1, 4, 3, 6, 2, 6, 4, 3, 2, 1, 2, 3, 4, 1, 2, 6, 3]


@pytest.mark.parametrize("case", ["3a", "3b"])
def test_example_3_conversion_and_disengagement(case):
    """BFG-EX-3, BFG-CMB-3, BFG-CMB-10, BFG-CMB-13, BFG-CMB-15: case 3a plays the narrated
    dice; 3b adds the unnarrated 5 of R-SF3 that gives the seed's count. Both end alike."""
    stream = list(EX3_STREAM_A)
    if case == "3b":
        stream[12:14] = [5, 2]
    blue = ["B-SF1", "B-SF2", "B-SF3", "B-SF4", "B-CG1", "B-CG2"]
    red = ["R-SF1", "R-SF2", "R-SF3", "R-CG1", "R-CG2", "R-CG3"]
    state = position(blue=blue, red=red, combat=5)
    dice = ScriptedDice(stream)
    drive(state, dice, [
        *targets("blue", [("B-SF1", "R-CG1"), ("B-SF2", "R-CG2"), ("B-SF3", "R-CG3"),
                          ("B-SF4", "R-SF1")]),
        *targets("red", [("R-SF1", "B-CG1"), ("R-SF2", "B-CG2"), ("R-SF3", "B-SF1")]),
    ])
    expected_blue = ["B-CG2", "B-SF1", "B-SF2", "B-SF3", "B-SF4"]
    if case == "3b":
        expected_blue.remove("B-SF1")
        assert at(state, "B-SF1") == ("display", None, "blue")
    assert in_region(state, 1, "blue") == expected_blue
    assert in_region(state, 1, "red") == ["R-CG2", "R-CG3", "R-SF2", "R-SF3"]
    assert where(state, "common") == ["B-CG1", "R-SF1"]
    assert at(state, "R-CG1") == ("display", None, "red")
    # Morph: E = 1 for Blue, 2 for Red, all targets distinct.
    drive(state, dice, [*targets("blue", [("B-CG2", "R-CG2")]),
                        *targets("red", [("R-CG2", "B-CG2"), ("R-CG3", "B-SF2")])])
    assert at(state, "B-SF2") == ("map", 1, "red")           # converted, now Red's
    assert len(in_region(state, 1, "blue")) == (4 if case == "3a" else 3)
    assert in_region(state, 1, "red") == ["B-SF2", "R-CG2", "R-CG3", "R-SF2", "R-SF3"]
    drive(state, dice, [("blue", LEAVE), ("red", STAY),
                        ("red", {"verb": "garrison_add", "fleet": "R-SF2"}),
                        ("red", {"verb": "garrison_add", "fleet": "R-SF3"}),
                        ("red", {"verb": "garrison_add", "fleet": "B-SF2"}),
                        ("red", {"verb": "garrison_done"})])
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] == "red"
    assert in_region(state, 1, "red") == ["B-SF2", "R-SF2", "R-SF3"]
    assert all(state["fleets"][f]["at"] == "garrison" for f in ("B-SF2", "R-SF2", "R-SF3"))
    assert where(state, "display", "red") == ["R-CG1", "R-CG2", "R-CG3"]
    assert where(state, "display", "blue") == ["B-CG2", "B-SF1", "B-SF3", "B-SF4"]
    assert where(state, "common") == ["B-CG1", "R-SF1"]
    assert state["fleets"]["B-SF2"]["owner"] == "red"
    assert dice.left == 0


def test_example_4_three_rounds_with_conversions_and_doubling():
    """BFG-EX-4, BFG-CMB-5, BFG-CMB-6, BFG-CMB-11, BFG-CMB-12, BFG-CMB-15, BFG-CMB-18:
    the World Ship fights three rounds; converted fleets fight for their new
    side at the end of its line-up; Red's four SFs double up on the WS."""
    blue = ["B-WS1", "B-IO1", "B-AF1", "B-CG1", "B-SF1"]
    red = ["R-SF1", "R-SF2", "R-SF3", "R-SF4", "R-SF5", "R-CG1", "R-CG2", "R-CG3"]
    state = position(blue=blue, red=red, combat=3)
    dice = ScriptedDice([
        6, 3, 2, 4, 2, 1, 3, 2, 5, 1, 2, 1, 3, 4, 6, 2, 6, 1, 4, 4,     # R1 Military
        6, 2, 1, 3, 4, 5, 2, 1, 4,                                       # R1 Morph
        6, 1, 4, 5, 3, 6, 3, 2, 1, 4, 3, 1, 2,                           # R2 Military
        6, 5,                                                            # R2 Morph
        5, 2, 3, 5, 6, 2, 1, 3,                                          # R3 Military
    ])
    drive(state, dice, [
        *targets("blue", [("B-WS1", "R-CG1"), ("B-IO1", "R-CG3"), ("B-AF1", "R-CG2"),
                          ("B-SF1", "R-SF1")]),
        *targets("red", [("R-SF1", "B-WS1"), ("R-SF2", "B-IO1"), ("R-SF3", "B-AF1"),
                         ("R-SF4", "B-CG1"), ("R-SF5", "B-SF1")]),
    ])
    assert in_region(state, 1, "blue") == ["B-IO1", "B-SF1", "B-WS1"]
    assert in_region(state, 1, "red") == ["R-CG2", "R-CG3", "R-SF2", "R-SF3", "R-SF4", "R-SF5"]
    assert where(state, "common") == ["B-AF1", "B-CG1", "R-CG1"]
    assert where(state, "display", "red") == ["R-SF1"]
    drive(state, dice, [*targets("blue", [("B-WS1", "R-CG2"), ("B-IO1", "R-CG3")]),
                        *targets("red", [("R-CG2", "B-IO1"), ("R-CG3", "B-WS1")])])
    # R-CG2 still fired although converted in the same segment (simultaneity).
    assert in_region(state, 1, "blue") == ["B-SF1", "B-WS1", "R-CG2"]
    assert where(state, "display", "blue") == ["B-IO1"]
    drive(state, dice, [("blue", STAY), ("red", STAY)])
    # Round 2, Military: Red's 4 SFs against 3 Blue fleets cover all and double on the WS.
    drive(state, dice, [
        *targets("blue", [("B-WS1", "R-CG3"), ("B-SF1", "R-SF2")]),
        *targets("red", [("R-SF2", "B-WS1"), ("R-SF3", "B-WS1"), ("R-SF4", "B-SF1"),
                         ("R-SF5", "R-CG2")]),
    ])
    assert in_region(state, 1, "blue") == ["B-SF1", "R-CG2"]
    assert in_region(state, 1, "red") == ["R-SF3", "R-SF4", "R-SF5"]
    assert where(state, "common") == ["B-AF1", "B-CG1", "B-WS1", "R-CG1", "R-CG3"]
    assert where(state, "display", "red") == ["R-SF1", "R-SF2"]
    drive(state, dice, [*targets("blue", [("R-CG2", "R-SF3")])])
    assert at(state, "R-SF3") == ("map", 1, "blue")        # the 6 outranks the 5
    drive(state, dice, [("blue", STAY), ("red", STAY)])
    drive(state, dice, [
        *targets("blue", [("B-SF1", "R-SF4"), ("R-SF3", "R-SF5")]),
        *targets("red", [("R-SF4", "R-CG2"), ("R-SF5", "B-SF1")]),
    ])
    # Red has nothing left: combat ends and the round 3 Morph segment is skipped.
    assert state["pending"]["kind"] == "garrison"
    drive(state, dice, [("blue", {"verb": "garrison_add", "fleet": "B-SF1"}),
                        ("blue", {"verb": "garrison_add", "fleet": "R-SF3"}),
                        ("blue", {"verb": "garrison_done"})])
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] == "blue"
    assert in_region(state, 1, "blue") == ["B-SF1", "R-SF3"]
    assert where(state, "display", "blue") == ["B-IO1"]
    assert where(state, "display", "red") == ["R-SF1", "R-SF2", "R-SF4", "R-SF5"]
    assert where(state, "common") == ["B-AF1", "B-CG1", "B-WS1", "R-CG1", "R-CG2", "R-CG3"]
    assert state["fleets"]["R-SF3"]["owner"] == "blue"
    assert dice.left == 0


def test_canonical_dice_order_puts_the_resolver_first():
    """BFG-CMB-19: with Red resolving, Red's firers roll before Blue's."""
    state = position(blue=["B-SF1"], red=["R-SF1"], combat=1, resolver="red")
    dice = ScriptedDice([6, 1, 1, 1])        # R-SF1 rolls 6,1 first: B-SF1 is eliminated
    drive(state, dice, [])
    assert where(state, "common") == ["B-SF1"]
    assert state["fleets"]["R-SF1"]["at"] == "map"
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "red"
    assert dice.left == 0
