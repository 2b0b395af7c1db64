"""The direct checks of one action (``@rules.check`` for Noble actions, movement and
purchases) agree with the lists of legal actions: every listed action passes, and actions
changed in one field pass exactly when the changed action is listed too. They are what
``apply`` and save replay use."""

from __future__ import annotations

import copy

import pytest

from struggle_desktop.engine.actions import action_in
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME
from struggle_desktop.games.nobles.registry import RULES


def variants(action: dict, legal: list[dict]) -> list:
    """``action`` changed one field at a time, to values taken from other legal actions and
    to values of the wrong JSON type, plus an extra and a missing key."""
    out = []
    for key in action:
        for other in legal:
            if key in other and other[key] != action[key]:
                out.append({**action, key: other[key]})
        out.append({**action, key: [action[key]]})
        out.append({**action, key: True})
        out.append({k: v for k, v in action.items() if k != key})
    out.append({**action, "extra": 1})
    out.append({"verb": "done", "actor": action.get("actor")})
    return out


@pytest.mark.parametrize("kind", ["noble_action", "move", "recruit"])
def test_the_direct_check_agrees_with_the_list(kind):
    session = Session.new(GAME, "standard", 11, {"houses": 3, "turn_limit": 3, "seat1": "ai",
                                                 "seat2": "ai", "seat3": "ai"})
    rng = Rng.from_seed(11, stream=5)
    checked = 0
    assert kind in RULES.action_checks or kind in RULES.explanations
    while GAME.outcome(session.state) is None:
        state = session.state
        pending = state["pending"]
        if pending["kind"] == kind:
            ctx = GAME.context(state)
            legal = RULES.legal_actions[kind](ctx, pending)
            sample = [legal[rng.below(len(legal))] for _ in range(6)] + [legal[-1]]
            for action in sample:
                assert RULES.is_legal(ctx, pending, copy.deepcopy(action))
                for changed in variants(action, legal)[:40]:
                    assert RULES.is_legal(ctx, pending, changed) == action_in(changed, legal), \
                        changed
                    checked += 1
        role = pending["role"]
        session.perform(role, GAME.choose_action(state, role, "random", rng), copy=False)
    assert checked > 200


def test_the_quick_whether_questions_agree_with_the_lists():
    """The steps ask only whether a house has something to do (has_noble_action, has_move,
    has_buy): at every position of a random game, for every house, the answer is whether
    the full list is empty or not."""
    from struggle_desktop.games.nobles import turn

    session = Session.new(GAME, "standard", 12, {"houses": 3, "turn_limit": 3, "seat1": "ai",
                                                 "seat2": "ai", "seat3": "ai"})
    rng = Rng.from_seed(12, stream=5)
    seen = {True: 0, False: 0}
    while GAME.outcome(session.state) is None:
        ctx = GAME.context(session.state)
        for house in ctx.alive():
            for quick, full in ((turn.has_noble_action, turn.noble_actions_of),
                                (turn.has_move, turn.moves), (turn.has_buy, turn.buys)):
                answer = quick(ctx, house)
                assert answer == bool(full(ctx, house)), (quick.__name__, house)
                seen[answer] += 1
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "random", rng),
                        copy=False)
    assert seen[True] > 50 and seen[False] > 50
