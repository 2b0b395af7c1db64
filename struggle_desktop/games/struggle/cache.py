"""What one Struggle session keeps between its calls: the rules context with its indexes, and
the action its player last chose knowing it legal.

A Struggle position is asked many questions between two actions (the legal actions, a check
of the chosen one, the bot's reading of the map), and rebuilding the context's where-is-what
indexes for each would cost a third of a simulated game. ``Session.new`` asks the game for a
cache (``StruggleGame.new_cache``) and hands it back to every call as ``cache=``; the game
object keeps nothing, so two sessions in one process never see each other's state.

The contract: the state the cache works on is changed only through calls given this cache
(``Session.perform`` does exactly that). A state changed any other way needs ``forget()``.

>>> from struggle_desktop.games.struggle import GAME
>>> cache = GAME.new_cache()
>>> state = GAME.advance(GAME.setup("3", seed=1), cache=cache)
>>> kept = cache.context(state)
>>> cache.context(state) is kept
True
>>> cache.context(GAME.setup("3", seed=1)) is kept    # another state: a new context
False
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle.context import Ctx
from struggle_desktop.games.struggle.data import StruggleData


class StruggleCache:
    def __init__(self, data: StruggleData):
        self.data = data
        #: The context on the state last worked on, kept while it describes that state.
        self.ctx: Ctx | None = None
        #: See ``vouch``.
        self._vouched: tuple | None = None

    def context(self, state: dict) -> Ctx:
        """The kept context when it is on ``state`` and still current, with the state's
        generator; otherwise a new one, which is kept. Callers other than the rules' own run
        (``advance``) must not roll its dice."""
        ctx = self.ctx
        if ctx is None or ctx.state is not state or not ctx.current():
            ctx = self.ctx = Ctx(state, self.data)
            return ctx
        # The state's generator: the kept context wrote it back at its last close, unless
        # the state's was replaced since.
        rng, saved = ctx.rng, state["rng"]
        if rng.state != saved[0] or rng.inc != saved[1]:
            ctx.rng = Rng.from_json(saved)
        return ctx

    def forget(self) -> None:
        """Drop everything kept: the state was changed outside the calls given this cache."""
        self.ctx = None
        self._vouched = None

    def vouch(self, state: dict, action: dict) -> None:
        """Remember that ``action`` is legal in ``state`` as it is now: the program's player
        took it from the legal actions or checked it just before (``choose_action``), so the
        session's ``apply`` need not work the same legality out again. The position is
        identified by its prompt (a new dict at every ask), the kept context and the changes
        it made to units, the tracks and the log's length (the rules and manual adjustments
        log every change), so a state changed after the choice is checked again; so is an
        action changed after it. (A simulation's dropped log has no length to compare, but
        nothing changes its state by hand.)"""
        ctx = self.ctx
        self._vouched = (state, state["pending"], ctx, ctx.edits if ctx else 0, state["rp"],
                         state["ci2"], len(state["log"]), action, dict(action))

    def vouched(self, state: dict, action: Any) -> bool:
        """Whether ``action`` is the very action last vouched for, unchanged, in the very
        position it was vouched in."""
        if self._vouched is None:
            return False
        (vouched_state, pending, ctx, edits, rp, ci2, log_length, vouched_action,
         shallow_copy) = self._vouched
        if not (state is vouched_state and action is vouched_action
                and state["pending"] is pending and self.ctx is ctx
                and (ctx.edits if ctx else 0) == edits and state["rp"] == rp
                and state["ci2"] == ci2 and len(state["log"]) == log_length
                and len(action) == len(shallow_copy)):
            return False
        # The very action object, holding the very values it held when chosen.
        for key, value in shallow_copy.items():
            if action.get(key, shallow_copy) is not value:
                return False
        return True
