"""Rules tests for deployment (DEP) of rules-battles.md section 5."""

from __future__ import annotations

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

DONE = {"verb": "done"}


def deploying(blue=(), red=()):
    """A position at the start of turn 1's Deployment with these fleets on the displays."""
    state = position(resolve=False)
    to_display(state, *blue, *red)
    state["phase"] = "deploy"
    return at_step(state, "actions", {"proc": "deployment", "sides": ["red", "blue"],
                                      "open": False})


def assign(role, fid, region):
    return (role, {"verb": "assign", "fleet": fid, "region": region})


def test_deployment_is_secret_and_revealed_together():
    """BFG-DEP-1: Red assigns first, then Blue; Blue's view holds nothing of Red's plan, and
    no fleet moves onto the map until both are done, when both plans are revealed at once."""
    state = deploying(blue=["B-SF1"], red=["R-SF1", "R-CG1"])
    dice = ScriptedDice([6, 1])                          # the initiative after deployment
    drive(state, dice, [assign("red", "R-SF1", 3), assign("red", "R-CG1", 4), ("red", DONE)])
    assert state["pending"]["kind"] == "deploy" and state["pending"]["role"] == "blue"
    assert at(state, "R-SF1") == ("display", None, "red")
    view = GAME.view(state, "blue")
    assert "deploy" not in view["players"]["red"]
    assert "R-SF1" not in str(view["players"]["red"])
    drive(state, dice, [assign("blue", "B-SF1", 3), ("blue", DONE)])
    assert at(state, "R-SF1") == ("map", 3, "red") and at(state, "R-CG1") == ("map", 4, "red")
    assert at(state, "B-SF1") == ("map", 3, "blue")
    assert state["players"]["red"]["deploy"] == [] and state["players"]["blue"]["deploy"] == []
    assert state["pending"]["kind"] == "action" and dice.left == 0


def test_every_fleet_but_a_trans_human_must_be_assigned():
    """BFG-DEP-2, BFG-DEP-3: Red cannot finish while a non-TH fleet of its display is
    unassigned; a TH left unassigned does not hold it up and stays on the display."""
    state = deploying(red=["R-SF1", "R-AF1", "R-TH1"])
    GAME.advance(state, rng=ScriptedDice([]))
    assert DONE not in GAME.legal_actions(state, "red")
    drive(state, ScriptedDice([]), [assign("red", "R-SF1", 1)])
    assert DONE not in GAME.legal_actions(state, "red")
    drive(state, ScriptedDice([6, 1]), [assign("red", "R-AF1", 2), ("red", DONE)])
    assert at(state, "R-TH1") == ("display", None, "red")
    assert at(state, "R-AF1") == ("map", 2, "red")


def test_a_held_back_trans_human_enters_later_by_an_action():
    """BFG-DEP-3: the TH kept on the display may be brought in during the Actions phase."""
    state = deploying(red=["R-SF1", "R-TH1"])
    drive(state, ScriptedDice([1, 6]), [assign("red", "R-SF1", 1), ("red", DONE)])
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"
    assert {"verb": "deploy_th", "fleets": ["R-TH1"], "region": 5} in GAME.legal_actions(
        state, "red")


def test_trans_humans_may_deploy_with_the_rest():
    """BFG-DEP-4: a TH may be included in the secret deployment."""
    state = deploying(blue=["B-TH1", "B-SF1"])
    GAME.advance(state, rng=ScriptedDice([]))
    assert {"verb": "assign", "fleet": "B-TH1", "region": 6} in GAME.legal_actions(state, "blue")
    drive(state, ScriptedDice([6, 1]), [assign("blue", "B-TH1", 6), assign("blue", "B-SF1", 6),
                                        ("blue", DONE)])
    assert at(state, "B-TH1") == ("map", 6, "blue")


def test_garrisons_stay_and_regions_with_garrisons_take_new_fleets():
    """BFG-DEP-5, BFG-DEP-6: garrison fleets are not redeployed; fleets may be deployed into
    a region held by their own garrison or by the opponent's."""
    state = deploying(blue=["B-SF1", "B-SF2"], red=["R-SF1"])
    place(state, "B-CG1", 2, at="garrison")
    place(state, "R-CG1", 4, at="garrison")
    state["regions"]["2"]["controller"] = "blue"
    state["regions"]["4"]["controller"] = "red"
    drive(state, ScriptedDice([]), [("red", {"verb": "assign", "fleet": "R-SF1", "region": 2}),
                                    ("red", DONE)])
    legal = GAME.legal_actions(state, "blue")
    assert all(a.get("fleet") != "B-CG1" for a in legal)
    assert {"verb": "assign", "fleet": "B-SF1", "region": 2} in legal    # own garrison
    assert {"verb": "assign", "fleet": "B-SF1", "region": 4} in legal    # enemy garrison
    drive(state, ScriptedDice([6, 1]), [assign("blue", "B-SF1", 2), assign("blue", "B-SF2", 4),
                                        ("blue", DONE)])
    assert state["fleets"]["B-CG1"]["at"] == "garrison" and at(state, "B-CG1")[1] == 2
    assert state["fleets"]["R-CG1"]["at"] == "garrison" and at(state, "R-CG1")[1] == 4
    assert at(state, "B-SF1") == ("map", 2, "blue") and at(state, "R-SF1") == ("map", 2, "red")
    assert at(state, "B-SF2") == ("map", 4, "blue")
    assert state["regions"]["2"]["controller"] == "blue"


def test_fleets_back_at_base_wait_for_the_next_deployment():
    """BFG-DEP-7: a TH that returns to base during the turn (here: declining a garrison) may
    not be brought back by a TH-deployment action this turn, while a TH held back since the
    deployment may; at the next Deployment the returned TH can be assigned again."""
    state = position(blue=["B-TH1"], combat=1)
    drive(state, ScriptedDice([]), [("blue", {"verb": "no_garrison"})])
    assert at(state, "B-TH1") == ("display", None, "blue")
    to_display(state, "B-TH2")                               # held back at deployment
    acting(state, "blue")
    GAME.advance(state, rng=ScriptedDice([]))
    brought = {f for a in GAME.legal_actions(state, "blue") if a["verb"] == "deploy_th"
               for f in a["fleets"]}
    assert brought == {"B-TH2"}
    # Next turn's deployment: both may be assigned.
    state["phase"] = "deploy"
    at_step(state, "actions", {"proc": "deployment", "sides": ["red", "blue"], "open": False},
            turn=2)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["kind"] == "deploy" and state["pending"]["role"] == "blue"
    assigned = {a["fleet"] for a in GAME.legal_actions(state, "blue") if a["verb"] == "assign"}
    assert assigned == {"B-TH1", "B-TH2"}
