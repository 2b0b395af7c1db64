"""The stronger level of the Battles program player (policy ``strong``): its choices are legal,
repeatable for a given seed, and come from its own view alone (BFG-HID-10).

How much stronger it plays is measured with ``simulate`` (docs/balance.md), not here: a
statistical test would take minutes.
"""

from __future__ import annotations

import json

from struggle_desktop.engine.actions import action_in
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.battles import GAME, ai
from tests.games.battles.helpers import bot_until


def waiting(kind, role):
    return lambda s: (s["pending"] is not None and s["pending"]["kind"] == kind
                      and s["pending"]["role"] == role)


def strong_choice(state, role, seed=3):
    ai._PLANS.clear()                        # no plan kept from an earlier decision
    return GAME.choose_action(state, role, "strong", Rng.from_seed(seed))


def other_hidden(state, side):
    """A copy of ``state`` in which ``side``'s hand (and deployment plan) is different, and
    which every other view shows the same as before."""
    changed = json.loads(json.dumps(state))
    player = changed["players"][side]
    pool = changed["players"][side]["own_chits"] or changed["chit_pool"]
    swap = min(len(pool), len(player["hand"]))
    assert swap, "nothing to swap the hand with"
    player["hand"][:swap], pool[:swap] = pool[:swap], player["hand"][:swap]
    player["deploy"] = [[fid, 7 - region] for fid, region in player["deploy"]]
    return changed


def test_strong_action_is_legal_repeatable_and_reads_only_the_view():
    """BFG-HID-10: on its action (turn 2, the other hand unknown to it) the stronger level
    answers a listed action, the same one for the same seed, and the same one when the other
    player's hidden hand is different."""
    state = GAME.setup("civil-war", seed=4, options={})
    state = bot_until(state, lambda s: s["turn"] >= 2 and waiting("action", "blue")(s))
    assert state["players"]["red"]["hand"], "the test needs a hidden hand"
    legal = GAME.legal_actions(state, "blue")
    choice = strong_choice(state, "blue")
    assert action_in(choice, legal)
    assert strong_choice(state, "blue") == choice
    changed = other_hidden(state, "red")
    assert changed["players"]["red"]["hand"] != state["players"]["red"]["hand"]
    assert GAME.view(changed, "blue", with_log=False) == GAME.view(state, "blue", with_log=False)
    assert strong_choice(changed, "blue") == choice


def test_strong_deployment_is_legal_repeatable_and_reads_only_the_view():
    """BFG-HID-10: Blue deploys after Red; the stronger level's assignment does not depend on
    Red's secret plan or hand, and is the same for the same seed."""
    state = GAME.setup("civil-war", seed=6, options={})
    state = bot_until(state, waiting("deploy", "blue"))
    assert state["players"]["red"]["deploy"], "Red has planned in secret"
    legal = GAME.legal_actions(state, "blue")
    choice = strong_choice(state, "blue")
    assert action_in(choice, legal)
    assert strong_choice(state, "blue", seed=3) == choice
    changed = other_hidden(state, "red")
    assert GAME.view(changed, "blue", with_log=False) == GAME.view(state, "blue", with_log=False)
    assert strong_choice(changed, "blue") == choice


def test_strong_games_repeat_for_a_seed():
    """A whole turn of the stronger level against the baseline repeats for a given seed."""
    def first_turn(seed):
        state = GAME.setup("invasion", seed=seed, options={})
        return bot_until(state, lambda s: s["turn"] >= 2, policy="strong-red", seed=seed)

    ai._PLANS.clear()
    first = first_turn(8)
    ai._PLANS.clear()
    assert GAME.digest(first_turn(8)) == GAME.digest(first)
