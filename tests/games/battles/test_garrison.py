"""Garrison and control (rules-battles.md section 9): the Garrison segment of a resolution,
the value test, control, and garrisons that stay into later turns."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.games.battles import GAME, turn
from tests.games.battles.helpers import (ScriptedDice, at, drive, hand_state, position, put,
                                         rolls, set_region, target, where)

ADD = "garrison_add"
DONE = {"verb": "garrison_done"}


def add(fid):
    return {"verb": ADD, "fleet": fid}


def verbs(state, role):
    return {a["verb"] for a in GAME.legal_actions(state, role)}


def test_garrison_segment_without_combat_belongs_to_the_only_side_present():
    """BFG-GAR-1, BFG-GAR-5: Blue resolves a region where only Red has fleets: no dice, Red
    is asked for the garrison and Red controls the region."""
    state = position(red=["R-SF1", "R-SF2"], combat=3)
    dice = ScriptedDice([])
    drive(state, dice, [])
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "red"
    drive(state, dice, [("red", add("R-SF1")), ("red", add("R-SF2")), ("red", DONE)])
    assert state["regions"]["1"]["controller"] == "red"
    assert not rolls(state)


def test_a_garrison_must_total_more_than_the_combat_value():
    """BFG-GAR-2: with Combat 4, one SF (2) or two (4, equal to C) may not be confirmed; two
    SFs and a CG (6) may; the chosen fleets go on the label and the rest go home."""
    state = position(blue=["B-SF1", "B-SF2", "B-CG1", "B-SF3"], combat=4)
    drive(state, ScriptedDice([]), [("blue", add("B-SF1"))])
    assert "garrison_done" not in verbs(state, "blue")
    drive(state, ScriptedDice([]), [("blue", add("B-SF2"))])
    assert "garrison_done" not in verbs(state, "blue")
    with pytest.raises(IllegalAction):
        GAME.apply(state, "blue", DONE)
    drive(state, ScriptedDice([]), [("blue", add("B-CG1"))])
    assert "garrison_done" in verbs(state, "blue")
    drive(state, ScriptedDice([]), [("blue", DONE)])
    assert where(state, "garrison") == ["B-CG1", "B-SF1", "B-SF2"]
    assert at(state, "B-SF3") == ("display", None, "blue")
    assert state["regions"]["1"]["controller"] == "blue"


def test_a_garrison_choice_can_be_changed_before_it_is_confirmed():
    """BFG-GAR-2: a fleet added may be taken off again; only the final choice garrisons."""
    state = position(blue=["B-SF1", "B-SF2", "B-AF1"], combat=2)
    drive(state, ScriptedDice([]), [("blue", add("B-SF1")), ("blue", add("B-AF1")),
                                    ("blue", {"verb": "garrison_remove", "fleet": "B-SF1"}),
                                    ("blue", DONE)])
    assert where(state, "garrison") == ["B-AF1"]
    assert where(state, "display", "blue") == ["B-SF1", "B-SF2"]


def test_no_qualifying_garrison_sends_everyone_home_without_asking():
    """BFG-GAR-3: two SFs (4) cannot hold Combat 4: no prompt, both go home, no controller."""
    state = position(blue=["B-SF1", "B-SF2"], combat=4)
    drive(state, ScriptedDice([]), [])
    assert state["pending"] is None
    assert where(state, "display", "blue") == ["B-SF1", "B-SF2"]
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None


def test_declining_a_garrison_sends_everyone_home():
    """BFG-GAR-3: a player who could garrison may decline; the region has no controller."""
    state = position(blue=["B-WS1"], combat=1)
    drive(state, ScriptedDice([]), [("blue", add("B-WS1")), ("blue", {"verb": "no_garrison"})])
    assert at(state, "B-WS1") == ("display", None, "blue")
    assert state["regions"]["1"]["controller"] is None


@pytest.mark.parametrize("ci, can", [(20, False), (50, False), (80, True)])
def test_trans_human_garrison_value_reads_the_current_ci(ci, can):
    """BFG-GAR-4, BFG-GAR-8: a Blue TH is worth 2, 4 or 6 by CI band; against Combat 5 it
    can garrison alone only at CI 71 or more."""
    state = position(blue=["B-TH1"], combat=5, ci=ci)
    drive(state, ScriptedDice([]), [])
    if can:
        drive(state, ScriptedDice([]), [("blue", add("B-TH1")), ("blue", DONE)])
        assert at(state, "B-TH1") == ("garrison", 1, "blue")
        assert state["regions"]["1"]["controller"] == "blue"
    else:
        assert state["pending"] is None
        assert at(state, "B-TH1") == ("display", None, "blue")


def test_a_tactical_chit_adds_nothing_to_a_garrison():
    """BFG-GAR-4: an SF (2) with a Tactical chit still cannot hold Combat 2."""
    state = position(blue=["B-SF1"], combat=2)
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    state["fleets"]["B-SF1"]["tactical"] = "Tactical-1"
    drive(state, ScriptedDice([]), [])
    assert state["pending"] is None and state["regions"]["1"]["controller"] is None
    assert at(state, "B-SF1") == ("display", None, "blue")


def test_an_upgraded_combat_value_counts_for_the_garrison():
    """BFG-GAR-4: an AF (3) could hold Combat 2, but not Combat 2 upgraded by +1."""
    state = position(blue=["B-AF1"], combat=2)
    set_region(state, 1, plus=1)
    drive(state, ScriptedDice([]), [])
    assert state["pending"] is None and state["regions"]["1"]["controller"] is None
    plain = position(blue=["B-AF1"], combat=2)
    drive(plain, ScriptedDice([]), [])
    assert plain["pending"]["kind"] == "garrison"


def test_converted_fleets_and_trans_humans_may_garrison():
    """BFG-GAR-8: after converting R-SF1, Blue garrisons with it and a TH (2 + 2 > 3)."""
    state = position(blue=["B-CG1", "B-TH1"], red=["R-SF1"], combat=3, ci=50)
    dice = ScriptedDice([1, 1, 1, 1,          # Military: B-TH1 at R-SF1, R-SF1 at B-CG1
                         6, 1, 1, 1])         # Morph: B-CG1 converts R-SF1; B-TH1 misses
    drive(state, dice, [("red", target("R-SF1", "B-CG1"))])
    assert state["pending"]["kind"] == "garrison" and dice.left == 0
    drive(state, dice, [("blue", add("R-SF1")), ("blue", add("B-TH1")), ("blue", DONE)])
    assert sorted(where(state, "garrison")) == ["B-TH1", "R-SF1"]
    assert state["fleets"]["R-SF1"]["owner"] == "blue"
    assert state["regions"]["1"]["controller"] == "blue"


def test_a_garrison_stays_into_the_next_turn_and_cannot_be_redeployed_or_moved():
    """BFG-GAR-6, BFG-GAR-5: at the start of the next turn the garrison is still on the
    label and its owner still controls the region; deployment offers only the fleets on the
    display, and a Move chit cannot take the garrisoned AF."""
    state = hand_state(phase="victory", turn=2, stack=[{"proc": "turn", "step": "start"}])
    put(state, "B-AF1", "garrison", 1)
    state["regions"]["1"].update(resolved=True, controller="blue")
    put(state, "B-SF1", "display")
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["kind"] == "deploy" and state["pending"]["role"] == "blue"
    region = state["regions"]["1"]
    assert not region["resolved"] and region["controller"] == "blue"
    assert at(state, "B-AF1") == ("garrison", 1, "blue")
    assert {a.get("fleet") for a in GAME.legal_actions(state, "blue")
            if a["verb"] == "assign"} == {"B-SF1"}
    ctx = GAME.context(state)
    assert turn.movers(ctx, "blue", 1) == []
    put(state, "B-AF2", "map", 1)
    assert turn.movers(ctx, "blue", 1) == ["B-AF2"]


def test_an_old_garrison_fights_and_a_new_garrison_is_chosen_from_all():
    """BFG-GAR-7: Red resolves Blue's garrisoned region; the garrison SF fires (Red's dice
    first as resolver) and eliminates R-SF1; Blue then chooses its new garrison among all its
    fleets there, and the old garrison SF goes home."""
    state = position(blue=["B-AF1"], red=["R-SF1"], combat=1, resolver="red")
    put(state, "B-SF1", "garrison", 1)
    state["regions"]["1"]["controller"] = "blue"
    dice = ScriptedDice([1, 1,                # R-SF1 at B-SF1
                         1, 1, 1, 6, 1])      # B-AF1, then B-SF1 (the 6) at R-SF1
    drive(state, dice, [("red", target("R-SF1", "B-SF1"))])
    assert where(state, "common") == ["R-SF1"]
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "blue"
    assert {a["fleet"] for a in GAME.legal_actions(state, "blue") if a["verb"] == ADD} == {
        "B-AF1", "B-SF1"}
    drive(state, dice, [("blue", add("B-AF1")), ("blue", DONE)])
    assert at(state, "B-AF1") == ("garrison", 1, "blue")
    assert at(state, "B-SF1") == ("display", None, "blue")
    assert dice.left == 0


def test_a_garrison_that_no_longer_qualifies_lapses():
    """BFG-GAR-7: two garrisoned SFs (4) held Combat 3; after a +1 upgrade (Combat 4) the
    next resolution sends them home and control lapses."""
    state = position(combat=3)
    for fid in ("B-SF1", "B-SF2"):
        put(state, fid, "garrison", 1)
    state["regions"]["1"]["controller"] = "blue"
    set_region(state, 1, plus=1)
    drive(state, ScriptedDice([]), [])
    assert where(state, "display", "blue") == ["B-SF1", "B-SF2"]
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
