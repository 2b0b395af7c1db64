"""Why a chit cannot be played: the refusal names the rule's reason, not only "not possible"
(a new player once saw a Tactical chit refused without a word of why)."""

from __future__ import annotations

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles import GAME


def session_at(kind: str) -> Session:
    """A civil-war game played by the program on both sides until a ``kind`` prompt waits."""
    session = Session.new(GAME, "civil-war", 3, {})
    rng = Rng.from_seed(3, stream=99)
    for _ in range(400):
        pending = session.state["pending"]
        if pending["kind"] == kind:
            return session
        session.perform(pending["role"], session.choose(pending["role"], "bot", rng))
    raise AssertionError(f"no {kind} prompt")


def test_a_chit_outside_the_actions_phase_says_when_chits_are_played():
    """BFG-ACT-3: a chit is played as an action of the Actions phase."""
    session = session_at("build")
    role = session.state["pending"]["role"]
    session.state["players"][role]["hand"].append("Tactical-1")
    reason = GAME.check_action(session.state, role, {"verb": "play", "chit": "Tactical-1",
                                                     "fleet": "B-SF1"})
    assert reason.startswith("chits are played as an action of the Actions phase")


def test_a_tactical_chit_on_a_fleet_that_cannot_take_it_says_which_fleets_can():
    """BFG-CHIT-12, BFG-CHIT-13: a Tactical chit goes on one of the player's fleets in an
    unresolved region, not a World Ship, not one that carries a Tactical chit already."""
    session = session_at("action")
    state = session.state
    role = state["pending"]["role"]
    state["players"][role]["hand"].append("Tactical-1")
    reason = GAME.check_action(state, role, {"verb": "play", "chit": "Tactical-1",
                                             "fleet": "no-such-fleet"})
    assert "unresolved region" in reason and "no-such-fleet is not one" in reason
    reason = GAME.check_action(state, role, {"verb": "play", "chit": "Tactical-9",
                                             "fleet": "no-such-fleet"})
    assert reason == "Tactical-9 is not in your hand"
