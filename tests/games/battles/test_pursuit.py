"""Disengagement and pursuit fire (rules-battles.md section 8), driven through the prompts of a
region resolution with scripted dice."""

from __future__ import annotations

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import (ScriptedDice, at, drive, position, put, rolls, target,
                                         where)

STAY = {"verb": "stay"}
LEAVE = {"verb": "disengage"}
PURSUE = {"verb": "pursue"}


def after_one_quiet_round(blue, red, combat=1, options=None, misses=0, setup=None, acts=()):
    """A position where round 1 has been fought without effect and the disengagement choice
    waits for Blue (the resolving player); ``misses`` is the number of dice of that round."""
    state = position(blue=blue, red=red, combat=combat, options=options)
    if setup:
        setup(state)
    dice = ScriptedDice([1] * misses)
    drive(state, dice, list(acts))
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    return state


def test_secret_choice_is_hidden_until_both_have_chosen():
    """BFG-PUR-2, BFG-PUR-3: with the default secret disengagement, Blue (resolving) chooses
    first but nothing of it shows (in the public battle record or in Red's view) until Red
    has chosen too; then both are revealed."""
    state = after_one_quiet_round(["B-SF1"], ["R-SF1"], misses=4)
    assert GAME.normalize_options("civil-war", {})[0]["secret_disengagement"] is True
    drive(state, ScriptedDice([]), [("blue", LEAVE)])
    assert state["pending"]["kind"] == "disengage" and state["pending"]["role"] == "red"
    red_view = GAME.view(state, "red")
    assert red_view["battle"]["disengaged"] == {}
    assert not any("Blue disengages" in e["text"] for e in red_view["log"])
    drive(state, ScriptedDice([]), [("red", STAY)])
    reveal = [e for e in state["log"] if e["rule"] == "BFG-PUR-2"]
    assert reveal and "Blue disengages" in reveal[-1]["text"] and "Red stays" in reveal[-1]["text"]


def test_open_choice_is_declared_by_the_resolving_player_first():
    """BFG-PUR-3: with secret disengagement off, Blue (resolving) declares openly and Red
    sees it before choosing."""
    state = after_one_quiet_round(["B-SF1"], ["R-SF1"], misses=4,
                                  options={"secret_disengagement": False})
    assert state["pending"]["role"] == "blue"
    drive(state, ScriptedDice([]), [("blue", LEAVE)])
    assert state["pending"]["role"] == "red"
    assert GAME.view(state, "red")["battle"]["disengaged"] == {"blue": True}


def test_both_disengage_everyone_goes_home_and_nobody_controls():
    """BFG-PUR-4, BFG-PUR-5: both disengage; every fleet, Blue's old garrison included, goes
    to its display, and the region is resolved with no controller."""
    def old_garrison(state):
        put(state, "B-SF2", "garrison", 1)
        state["regions"]["1"]["controller"] = "blue"

    state = after_one_quiet_round(["B-SF1"], ["R-SF1"], combat=3, misses=6,
                                  setup=old_garrison,
                                  acts=[("red", target("R-SF1", "B-SF2"))])
    dice = ScriptedDice([])
    drive(state, dice, [("blue", LEAVE), ("red", LEAVE)])
    assert where(state, "display", "blue") == ["B-SF1", "B-SF2"]
    assert where(state, "display", "red") == ["R-SF1"]
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
    assert state["stack"] == [] and dice.left == 0


def test_the_staying_side_may_decline_pursuit():
    """BFG-PUR-6: Blue stays with an AF, Red leaves; Blue is asked and declines: no dice,
    Red's fleets go home, Blue goes on to the Garrison segment."""
    state = after_one_quiet_round(["B-AF1"], ["R-SF1"], misses=5)
    dice = ScriptedDice([])
    drive(state, dice, [("blue", STAY), ("red", LEAVE)])
    assert state["pending"]["kind"] == "pursue" and state["pending"]["role"] == "blue"
    drive(state, dice, [("blue", {"verb": "no_pursuit"})])
    assert at(state, "R-SF1") == ("display", None, "red")
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "blue"
    assert len(rolls(state, "BFG-PUR-8")) == 0


def test_no_pursuit_without_an_alpha_fleet_even_if_the_leaving_side_has_one():
    """BFG-PUR-7: the staying side has no AF: no pursuit prompt and no dice, although the
    leaving side has an AF."""
    state = after_one_quiet_round(["B-SF1"], ["R-AF1"], misses=5)
    dice = ScriptedDice([])
    drive(state, dice, [("blue", STAY), ("red", LEAVE)])
    assert at(state, "R-AF1") == ("display", None, "red")
    assert state["pending"]["kind"] == "garrison"
    assert not rolls(state, "BFG-PUR-8") and dice.left == 0


def test_both_sides_alpha_fleets_shoot_and_the_owner_chooses_losses():
    """BFG-PUR-6, BFG-PUR-7, BFG-PUR-8, BFG-PUR-9: Blue pursues; Blue's AF and Red's AF each
    roll three dice (resolver first), only 6s hit, both roll before any removal; Red's two
    hits take both its fleets (to the common pool), Blue picks its one loss."""
    state = after_one_quiet_round(
        ["B-AF1", "B-SF1"], ["R-AF1", "R-SF1"], misses=10,
        acts=[("blue", target("B-AF1", "R-AF1")), ("blue", target("B-SF1", "R-SF1")),
              ("red", target("R-AF1", "B-AF1")), ("red", target("R-SF1", "B-SF1"))])
    dice = ScriptedDice([6, 5, 6,              # B-AF1: two hits on Red
                         5, 6, 4])             # R-AF1 still fires: one hit on Blue
    drive(state, dice, [("blue", STAY), ("red", LEAVE), ("blue", PURSUE)])
    assert rolls(state, "BFG-PUR-8") == [[6, 5, 6], [5, 6, 4]]
    assert state["pending"]["kind"] == "pursuit_losses" and state["pending"]["role"] == "blue"
    assert {a["fleet"] for a in GAME.legal_actions(state, "blue")} == {"B-AF1", "B-SF1"}
    drive(state, dice, [("blue", {"verb": "lose", "fleet": "B-SF1"})])
    assert where(state, "common") == ["B-SF1", "R-AF1", "R-SF1"]
    assert state["pending"]["kind"] == "garrison" and dice.left == 0


def test_only_the_staying_side_shoots_when_only_it_has_alpha_fleets():
    """BFG-PUR-6, BFG-PUR-8: Red has no AF: only Blue's three dice are rolled; one 6, and
    Red (two fleets left) chooses which one is removed."""
    state = after_one_quiet_round(
        ["B-AF1"], ["R-SF1", "R-SF2"], misses=7,
        acts=[("blue", target("B-AF1", "R-SF2"))])
    dice = ScriptedDice([2, 6, 5])
    drive(state, dice, [("blue", STAY), ("red", LEAVE), ("blue", PURSUE)])
    assert rolls(state, "BFG-PUR-8") == [[2, 6, 5]]
    assert state["pending"]["role"] == "red"
    drive(state, dice, [("red", {"verb": "lose", "fleet": "R-SF2"})])
    assert where(state, "common") == ["R-SF2"]
    assert at(state, "R-SF1") == ("display", None, "red")
    assert dice.left == 0


def test_a_tactical_chit_adds_a_pursuit_die_and_a_removed_trans_human_goes_to_supply():
    """BFG-PUR-9: an AF with a Tactical chit rolls four pursuit dice (its fourth die is the
    only 6); the hit is an elimination, and Red chooses its TH, which goes to Red's supply."""
    def tactical(state):
        state["players"]["blue"]["own_chits"].remove("Tactical-1")
        state["fleets"]["B-AF1"]["tactical"] = "Tactical-1"

    state = position(blue=["B-AF1"], red=["R-CG1", "R-TH1"], combat=1, ci=50)
    tactical(state)
    dice = ScriptedDice([1, 1, 1, 1,          # Military: B-AF1 (3 + Tactical), at R-CG1
                         1, 1,                # Military: R-TH1 (2/2) at B-AF1
                         1, 1, 1, 1])         # Morph: R-CG1, R-TH1
    drive(state, dice, [("blue", target("B-AF1", "R-CG1"))])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    dice = ScriptedDice([1, 1, 1, 6])
    drive(state, dice, [("blue", STAY), ("red", LEAVE), ("blue", PURSUE),
                        ("red", {"verb": "lose", "fleet": "R-TH1"})])
    assert rolls(state, "BFG-PUR-8") == [[1, 1, 1, 6]]
    assert state["fleets"]["R-TH1"]["at"] == "supply"
    assert at(state, "R-CG1") == ("display", None, "red")
    assert dice.left == 0


def test_after_pursuit_the_leavers_go_home_and_a_wiped_out_stayer_controls_nothing():
    """BFG-PUR-10: Blue (with its old garrison there) disengages, Red pursues with its only
    AF and loses it to Blue's return fire; Blue's survivors, the old garrison included, go
    home, and the region ends with no controller."""
    def old_garrison(state):
        put(state, "B-SF3", "garrison", 1)
        state["regions"]["1"]["controller"] = "blue"

    state = after_one_quiet_round(["B-AF1"], ["R-AF1"], misses=8, setup=old_garrison,
                                  acts=[("red", target("R-AF1", "B-SF3"))])
    dice = ScriptedDice([6, 1, 1,             # B-AF1 (resolver) fires first
                         1, 1, 1])            # R-AF1
    drive(state, dice, [("blue", LEAVE), ("red", STAY), ("red", PURSUE)])
    assert where(state, "common") == ["R-AF1"]
    assert where(state, "display", "blue") == ["B-AF1", "B-SF3"]
    region = state["regions"]["1"]
    assert region["resolved"] and region["controller"] is None
    assert state["stack"] == [] and dice.left == 0


def test_after_pursuit_the_stayer_garrisons():
    """BFG-PUR-10, BFG-GAR-1: Red leaves, Blue pursues without a hit; Red's fleets go home
    and Blue, alone now, may garrison."""
    state = after_one_quiet_round(["B-AF1"], ["R-SF1"], misses=5)
    dice = ScriptedDice([1, 2, 3])
    drive(state, dice, [("blue", STAY), ("red", LEAVE), ("blue", PURSUE)])
    assert at(state, "R-SF1") == ("display", None, "red")
    assert state["pending"]["kind"] == "garrison"
    drive(state, dice, [("blue", {"verb": "garrison_add", "fleet": "B-AF1"}),
                        ("blue", {"verb": "garrison_done"})])
    assert state["regions"]["1"]["controller"] == "blue"
    assert at(state, "B-AF1") == ("garrison", 1, "blue")
