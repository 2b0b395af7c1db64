"""What every game run on the procedure stack (engine/flow.py) does the same way: list and
check the legal actions of the waiting prompt, apply a checked action as its answer, advance
through the automated steps, digest a position, and hand the window's reads to the game's
presentation module.

A game module subclasses :class:`FlowGame` and sets ``rules`` (its ``RulesRegistry``),
``presentation`` (the dotted name of its presentation module: ``map_layout``, ``board``,
``describe_action``, ``log_entries`` and optionally ``preview``, imported on first use so the
command line never loads it), ``invariants_module`` and ``catalog_module``, and ``load_data``
(what gives its tables, ``data``); it provides ``context(state, **generator)`` (its flow
Context; the keyword, such as ``rng`` or ``dice``, lets tests script the dice). The words of
a refusal can be changed by overriding :meth:`game_over_reason`, :meth:`wrong_role_reason`
and :meth:`refusal` (or by registering ``@rules.explain`` checks that give their own).

A game whose questions are costly to answer from scratch may keep work between calls in a
*cache*: ``new_cache()`` makes one, the session that owns a game in progress keeps it
(``Session.cache``) and hands it back as ``cache=`` to every call, and ``context_for`` turns it
into the context those calls work through. The game object itself keeps nothing between
calls, so two sessions in one process never see each other's state. Without a cache every
call starts afresh.
"""

from __future__ import annotations

import importlib
from typing import Any

from struggle_desktop.engine.actions import copy_action
from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.flow import answer, clone_state, run
from struggle_desktop.engine.registry import RulesRegistry


class FlowGame:
    """The GameModule methods that flow-based games share."""

    rules: RulesRegistry
    presentation: str = ""
    #: The dotted names of the modules with ``problems(game, state)`` (the invariants) and
    #: ``build_catalog(game)``, imported on first use: playing never needs them.
    invariants_module: str = ""
    catalog_module: str = ""
    #: What the window's charts draw (see engine/game.py): nothing, unless a game says.
    chart_tracks: tuple[str, ...] = ()
    chart_marks: tuple[str, ...] = ()
    outcome_order: tuple[str, ...] = ()

    def __init__(self, data: Any = None):
        self._data = data

    @property
    def data(self) -> Any:
        """The game's tables, loaded and validated on first use (``load_data``) unless the
        game was made with its own."""
        if self._data is None:
            self._data = self.load_data()
        return self._data

    def load_data(self) -> Any:
        raise NotImplementedError

    def invariants(self, state: dict) -> list[str]:
        """Broken invariants of ``state`` (empty when all is well); the fuzzers and property
        tests check them after every action."""
        return importlib.import_module(self.invariants_module).problems(self, state)

    def catalog(self) -> dict:
        """What the game contains, as one JSON-ready dict (``struggle-desktop catalog``)."""
        return importlib.import_module(self.catalog_module).build_catalog(self)

    # ------------------------------------------------------------------ actions
    def new_cache(self) -> Any:
        """What a session keeps for this game between calls (see the module docstring);
        None: this game keeps nothing."""
        return None

    def context_for(self, state: dict, cache: Any = None, **generator) -> Any:
        """The context that the calls below work through on ``state``: a new one, unless the
        game keeps one in ``cache``."""
        return self.context(state, **generator)

    def legal_actions(self, state: dict, role: str, cache: Any = None) -> list[dict]:
        p = state.get("pending")
        if p is None or p["role"] != role or state.get("outcome") is not None:
            return []
        return self.rules.legal_actions[p["kind"]](self.context_for(state, cache), p)

    def check_action(self, state: dict, role: str, action: Any, cache: Any = None) -> str | None:
        """None if ``action`` is legal now, else the reason in a player's words."""
        if state.get("outcome") is not None:
            return self.game_over_reason()
        p = state.get("pending")
        if p is None:
            return "no decision is waiting"
        if role != p["role"]:
            return self.wrong_role_reason(p, role)
        if not isinstance(action, dict) or not isinstance(action.get("verb"), str):
            return "an action must be an object with a verb"
        return self.verdict(self.context_for(state, cache), p, action)

    def verdict(self, ctx, pending: dict, action: dict) -> str | None:
        """None if a well-formed action of the right player is legal now, else the reason:
        the prompt kind's ``@rules.explain`` check says it, else ``refusal`` does."""
        explain = self.rules.explanations.get(pending["kind"])
        if explain is not None:
            return explain(ctx, pending, action)
        if self.rules.is_legal(ctx, pending, action):
            return None
        return self.refusal(ctx, pending, action)

    def game_over_reason(self) -> str:
        return "the game is over"

    def wrong_role_reason(self, pending: dict, role: str) -> str:
        return f"it is {pending['role']}'s decision, not {role}'s"

    def refusal(self, ctx, pending: dict, action: dict) -> str:
        """Why a well-formed action of the right player is not legal now."""
        return f"{action.get('verb')} is not possible now ({pending['text']})"

    def apply(self, state: dict, role: str, action: dict, copy: bool = True,
              cache: Any = None) -> dict:
        """The state with ``action`` given as the answer to the waiting prompt (a new copy
        unless ``copy`` is False); IllegalAction, and nothing changed, if it is not legal."""
        reason = self.check_action(state, role, action, cache=cache)
        if reason is not None:
            raise IllegalAction(reason)
        new = clone_state(state) if copy else state
        answer(new, copy_action(action))
        return new

    def advance(self, state: dict, on_step=None, cache: Any = None, **generator) -> dict:
        """Run the automated steps in place and return the same state. ``generator`` goes to
        the game's ``context`` (``rng=`` or ``dice=``: tests script their dice this way).
        ``on_step(state)`` is called after each step (see engine.flow.run); the generator's
        position is written back into the state only at the end, so it must not roll dice."""
        ctx = self.context_for(state, cache, **generator)
        try:
            run(ctx, on_step=on_step)
        finally:
            ctx.close()
        return state

    def next_stop(self, state: dict, role: str, action: dict) -> dict | None:
        """Where play would stop if ``role`` took ``action`` now, worked out on a copy:
        ``{"turn", "phase", "over", "chance"}``, the turn and phase of the next decision,
        ``over`` if the game would end first, ``chance`` if the game's generator moved on the
        way (a die or a draw decides where play stops: a window must then not name it, nor
        hint at what the dice will do). None if ``action`` is not legal now."""
        if self.check_action(state, role, action) is not None:
            return None
        after = self.advance(self.apply(state, role, action, copy=True))
        return {"turn": after.get("turn"), "phase": after.get("phase"),
                "over": self.outcome(after) is not None,
                "chance": "rng" not in state or after.get("rng") != state.get("rng")}

    # ------------------------------------------------------------------ positions and data
    def outcome(self, state: dict) -> dict | None:
        return state.get("outcome")

    def digest(self, state: dict) -> str:
        """A hash of the position: the whole state but the log."""
        return digest({k: v for k, v in state.items() if k != "log"})

    def data_digest(self) -> str:
        return self.data.data_digest

    def warm_up(self) -> None:
        self.data.data_digest

    def overrides(self) -> dict:
        return dict(self.data.tables.overrides)

    # ------------------------------------------------------------------ the window's reads
    def _presentation(self):
        return importlib.import_module(self.presentation)

    def map_layout(self) -> dict:
        return self._presentation().map_layout(self)

    def board(self, state: dict, role: str = "public") -> dict:
        """What the screen draws for ``role``; built from its view."""
        return self._presentation().board(self, state, role)

    def describe_action(self, state: dict, action: dict) -> str:
        return self._presentation().describe_action(self, state, action)

    def preview(self, state: dict, action: dict) -> dict | None:
        """What a player should know before choosing ``action`` (a game's presentation may
        define ``preview``: Struggle's combat odds), or None."""
        preview = getattr(self._presentation(), "preview", None)
        return preview(self, state, action) if preview is not None else None

    def log_entries(self, state: dict, start: int = 0, role: str = "public") -> list[dict]:
        return self._presentation().log_entries(self, state, start, role)
