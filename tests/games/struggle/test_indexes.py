"""The rules context's sector and force indexes, kept up to date between actions.

``Ctx`` builds its where-is-what indexes once and the primitives keep them current; the game
module keeps one context alive across actions (``shared_context``). These tests play whole
games and compare the kept indexes with freshly built ones after every action, and check that
a change made through another context is noticed.
"""

from __future__ import annotations

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.struggle.context import CHAOS

from .helpers import context, new_game, put_unit


def fresh_indexes(game, state: dict) -> tuple[dict, dict, dict]:
    ctx = game.context(state)
    return ctx._index(), ctx._by_force, ctx.imperial_mobile_sectors()


@pytest.mark.parametrize("scenario,options,policy", [
    ("4", {}, "bot"), ("1", {"all": "on"}, "random"), ("6", {}, "bot")])
def test_kept_indexes_match_a_rebuild_after_every_action(game, scenario, options, policy):
    session = Session.new(game, scenario, 11, options, record_digests=False)
    rng = Rng.from_seed(11, stream=99)
    actions = 0
    while game.outcome(session.state) is None and actions < 400:
        state = session.state
        action = game.choose_action(state, "imperial", policy, rng)
        session.perform("imperial", action, copy=False)
        actions += 1
        kept = game.shared_context(state)
        assert kept is game.shared_context(state)          # kept, not rebuilt
        kept_indexes = kept._index(), kept._by_force, kept.imperial_mobile_sectors()
        assert kept_indexes == fresh_indexes(game, state), f"after action {actions}"
    assert actions > 50


def test_shared_context_notices_changes_made_elsewhere(game):
    state = new_game("1", seed=2)
    kept = game.shared_context(state)
    before = kept.mobile_at(20)
    uid = put_unit(state, "SF", 20, side=CHAOS)      # through another context
    ctx = game.shared_context(state)
    assert ctx is not kept and ctx.mobile_at(20) == before + [uid]
    other = context(state)
    other.set_loc(uid, 21)
    assert game.shared_context(state).mobile_at(21)[-1:] == [uid]
    assert uid not in game.shared_context(state).mobile_at(20)
