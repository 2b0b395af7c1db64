"""The rules context's sector and force indexes, kept up to date between actions.

``Ctx`` builds its where-is-what indexes once and the primitives keep them current; a session
keeps one context alive across its actions in its cache (``Session.cache``, a
``StruggleCache``). These tests play whole games and compare the kept indexes with freshly
built ones after every action, check that a change made through the session is seen, and that
the game object itself keeps nothing of a session, so two sessions never see each other.
"""

from __future__ import annotations

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.struggle.context import Ctx
from struggle_desktop.games.struggle.game import StruggleGame

from .helpers import put_unit


def fresh_indexes(game, state: dict) -> tuple[dict, dict, dict]:
    ctx = game.context(state)
    return ctx._index(), ctx._by_force, ctx.imperial_mobile_sectors()


def kept_indexes(ctx: Ctx) -> tuple[dict, dict, dict]:
    return ctx._index(), ctx._by_force, ctx.imperial_mobile_sectors()


@pytest.mark.parametrize("scenario,options,policy", [
    ("4", {}, "bot"), ("1", {"all": "on"}, "random"), ("6", {}, "bot")])
def test_kept_indexes_match_a_rebuild_after_every_action(game, scenario, options, policy):
    session = Session.new(game, scenario, 11, options, record_digests=False)
    rng = Rng.from_seed(11, stream=99)
    actions = 0
    while game.outcome(session.state) is None and actions < 400:
        session.perform("imperial", session.choose("imperial", policy, rng), copy=False)
        actions += 1
        kept = session.cache.ctx
        assert session.cache.context(session.state) is kept    # kept, not rebuilt
        assert kept_indexes(kept) == fresh_indexes(game, session.state), f"after action {actions}"
    assert actions > 50


def test_a_manual_adjustment_through_the_session_is_seen(game):
    session = Session.new(game, "1", 2, {})
    state = session.perform("imperial", {"verb": "auto_place"}, copy=False)
    kept = session.cache.context(state)
    uid = next(u for u, rec in state["units"].items()
               if rec["loc"] not in (None, 21) and rec["side"] == "imp")
    session.perform("imperial", {"verb": "adjust", "unit": uid, "to": 21}, copy=False)
    assert session.cache.context(session.state) is kept
    assert uid in kept.mobile_at(21)
    assert kept_indexes(kept) == fresh_indexes(game, session.state)


def test_forget_drops_a_context_after_a_change_by_hand(game):
    session = Session.new(game, "1", 2, {})
    state = session.perform("imperial", {"verb": "auto_place"}, copy=False)
    kept = session.cache.context(state)
    uid = put_unit(state, "SF", 20, side="chaos")      # through another context: not seen
    session.cache.forget()
    ctx = session.cache.context(state)
    assert ctx is not kept and uid in ctx.mobile_at(20)


def refers_to(value, target, depth: int = 4) -> bool:
    """Whether ``value`` is ``target`` or holds it (in containers and object attributes)."""
    if value is target:
        return True
    if depth == 0:
        return False
    if isinstance(value, dict):
        items = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        items = list(value)
    elif hasattr(value, "__dict__") and not isinstance(value, type):
        items = list(vars(value).values())
    else:
        return False
    return any(refers_to(item, target, depth - 1) for item in items)


def test_the_game_object_keeps_nothing_of_a_session(game):
    """Caches belong to the session that plays: after a session's program player chose and
    performed actions, nothing on the game object (its tables aside) refers to the session's
    position or to a rules context."""
    own = StruggleGame(game.data)
    session = Session.new(own, "4", 3, {}, record_digests=False)
    rng = Rng.from_seed(3, stream=99)
    for _ in range(30):
        session.perform("imperial", session.choose("imperial", "bot", rng), copy=False)
    own.legal_actions(session.state, "imperial")
    kept = {name: value for name, value in vars(own).items() if name != "_data"}
    assert not refers_to(kept, session.state)
    assert not any(isinstance(v, Ctx) or refers_to(v, session.cache.ctx) for v in kept.values())


def play(session: Session, rng: Rng) -> bool:
    """One action of the program's player; False once the game is over."""
    if session.game.outcome(session.state) is not None:
        return False
    session.perform("imperial", session.choose("imperial", "bot", rng), copy=False)
    return True


def test_two_sessions_played_in_turn_end_as_each_played_alone(game):
    alone = []
    for seed in (5, 6):
        session = Session.new(game, "4", seed, {}, record_digests=False)
        rng = Rng.from_seed(seed, stream=99)
        while play(session, rng):
            pass
        alone.append(game.digest(session.state))
    sessions = [Session.new(game, "4", seed, {}, record_digests=False) for seed in (5, 6)]
    rngs = [Rng.from_seed(seed, stream=99) for seed in (5, 6)]
    going = [True, True]
    while any(going):
        for i in (0, 1):
            going[i] = going[i] and play(sessions[i], rngs[i])
    assert [game.digest(s.state) for s in sessions] == alone
