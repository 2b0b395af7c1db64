"""Rules tests for the Actions phase (ACT) of rules-battles.md section 6: initiative, the
alternation of actions, resolutions, TH deployment and the end of the phase."""

from __future__ import annotations

import pytest

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import (
    ScriptedDice,
    acting,
    at,
    at_step,
    drive,
    place,
    position,
    to_display,
)


def initiative(dice):
    """A turn-1 position whose Actions phase is about to begin; returns (state, dice)."""
    state = position(resolve=False)
    state["phase"] = "actions"
    at_step(state, "actions")
    dice = ScriptedDice(dice)
    GAME.advance(state, rng=dice)
    return state, dice


@pytest.mark.parametrize("faces, first", [([5, 2], "blue"), ([1, 6], "red"), ([2, 3], "red")])
def test_the_higher_initiative_roll_acts_first(faces, first):
    """BFG-ACT-1: each player rolls a d6 (Blue's die first); the higher takes the first
    action."""
    state, dice = initiative(faces)
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == first
    assert dice.left == 0


def test_initiative_ties_are_rolled_again():
    """BFG-ACT-2: ties re-roll until the dice differ."""
    state, dice = initiative([3, 3, 6, 6, 2, 4])
    assert state["pending"]["role"] == "red" and dice.left == 0
    assert sum(e["rule"] == "BFG-ACT-2" for e in state["log"]) == 2


def test_initiative_is_rolled_every_turn():
    """BFG-ACT-2: turn 2 rolls its own initiative."""
    state = position(resolve=False)
    state["phase"] = "actions"
    at_step(state, "actions", turn=2)
    dice = ScriptedDice([1, 4])
    GAME.advance(state, rng=dice)
    assert state["pending"]["role"] == "red" and dice.left == 0


def test_players_alternate_one_action_at_a_time():
    """BFG-ACT-3, BFG-ACT-9: Blue resolves an empty region (no dice), then Red acts, then
    Blue; an action is a resolution, a chit or a TH deployment."""
    state = position(resolve=False)
    to_display(state, "R-TH1")
    acting(state, "blue")
    state["players"]["red"]["hand"] = ["Build-3"]
    state["players"]["red"]["own_chits"].remove("Build-3")
    dice = ScriptedDice([])
    drive(state, dice, [("blue", {"verb": "resolve", "region": 3})])
    assert state["regions"]["3"]["resolved"] and state["regions"]["3"]["controller"] is None
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"
    verbs = {a["verb"] for a in GAME.legal_actions(state, "red")}
    assert verbs == {"resolve", "play", "deploy_th"}
    drive(state, dice, [("red", {"verb": "deploy_th", "fleets": ["R-TH1"], "region": 1})])
    assert state["pending"]["role"] == "blue"


def test_a_resolved_region_is_not_resolved_again():
    """BFG-ACT-4: once resolved, a region leaves the list of regions to resolve."""
    state = position(resolve=False)
    acting(state, "blue")
    drive(state, ScriptedDice([]), [("blue", {"verb": "resolve", "region": 2})])
    regions = {a["region"] for a in GAME.legal_actions(state, "red") if a["verb"] == "resolve"}
    assert regions == {1, 3, 4, 5, 6}


def test_there_is_no_pass():
    """BFG-ACT-5: with no chit and no TH, the only actions are resolutions."""
    state = position(resolve=False)
    acting(state, "blue")
    GAME.advance(state, rng=ScriptedDice([]))
    legal = GAME.legal_actions(state, "blue")
    assert legal and {a["verb"] for a in legal} == {"resolve"}
    assert all(a["verb"] != "pass" for a in legal)


def test_the_phase_ends_when_the_sixth_region_is_resolved():
    """BFG-ACT-6: Blue resolves the last region; Red, holding chits and a TH, gets no further
    action, and the turn moves on to Politics and Build."""
    state = position(resolve=False)
    for n in range(1, 6):
        state["regions"][str(n)]["resolved"] = True
    to_display(state, "R-TH1")
    acting(state, "blue")
    state["players"]["red"]["hand"] = ["Illumination-3"]
    state["players"]["red"]["own_chits"].remove("Illumination-3")
    state["players"]["blue"]["banked"] = 2        # so that Blue is asked in the Build phase
    drive(state, ScriptedDice([]), [("blue", {"verb": "resolve", "region": 6})])
    assert state["phase"] == "build"
    assert state["pending"]["kind"] == "build" and state["pending"]["role"] == "blue"
    assert state["players"]["red"]["hand"] == ["Illumination-3"]
    assert at(state, "R-TH1") == ("display", None, "red")
    assert any(e["rule"] == "BFG-ACT-6" for e in state["log"])


def test_trans_human_deployment_places_any_held_back_th_into_one_unresolved_region():
    """BFG-ACT-7: Blue may bring one or both held-back TH into one unresolved region (never a
    resolved one); both arrive there together."""
    state = position(resolve=False)
    to_display(state, "B-TH1", "B-TH2")
    state["regions"]["4"]["resolved"] = True
    acting(state, "blue")
    GAME.advance(state, rng=ScriptedDice([]))
    deploys = [a for a in GAME.legal_actions(state, "blue") if a["verb"] == "deploy_th"]
    groups = {tuple(a["fleets"]) for a in deploys}
    assert groups == {("B-TH1",), ("B-TH2",), ("B-TH1", "B-TH2")}
    assert {a["region"] for a in deploys} == {1, 2, 3, 5, 6}
    drive(state, ScriptedDice([]), [("blue", {"verb": "deploy_th", "fleets": ["B-TH1", "B-TH2"],
                                              "region": 5})])
    assert at(state, "B-TH1") == ("map", 5, "blue") and at(state, "B-TH2") == ("map", 5, "blue")
    assert not state["regions"]["5"]["resolved"]
    assert state["pending"]["role"] == "red"


def test_resolving_an_empty_region_rolls_nothing_and_leaves_no_controller():
    """BFG-ACT-9: an empty region is marked resolved with no controller; no die is rolled
    although fleets stand in the other regions."""
    state = position(blue=["B-SF1"], red=["R-SF1"], region=2, resolve=False)
    place(state, "R-SF2", 3)
    acting(state, "red")
    dice = ScriptedDice([])
    drive(state, dice, [("red", {"verb": "resolve", "region": 6})])
    assert state["regions"]["6"]["resolved"] and state["regions"]["6"]["controller"] is None
    assert not [e for e in state["log"] if e["kind"] == "roll"]
    assert any(e["rule"] == "BFG-ACT-9" for e in state["log"])
    assert state["pending"]["role"] == "blue"
