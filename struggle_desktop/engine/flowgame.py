"""What every game run on the procedure stack (engine/flow.py) does the same way: apply a
checked action as the answer to the waiting prompt, and advance through the automated steps.

A game module subclasses :class:`FlowGame` and provides ``check_action(state, role, action)``
(None or the reason in a player's words) and ``context(state, **generator)`` (its flow
Context; the keyword, such as ``rng`` or ``dice``, lets tests script the dice).
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.flow import answer, run


class FlowGame:
    """``apply`` and ``advance`` of the GameModule protocol for flow-based games."""

    def apply(self, state: dict, role: str, action: dict, copy: bool = True) -> dict:
        """The state with ``action`` given as the answer to the waiting prompt (a new copy
        unless ``copy`` is False); IllegalAction, and nothing changed, if it is not legal."""
        reason = self.check_action(state, role, action)
        if reason is not None:
            raise IllegalAction(reason)
        new = clone(state) if copy else state
        answer(new, clone(action))
        return new

    def advance(self, state: dict, on_step=None, **generator) -> dict:
        """Run the automated steps in place and return the same state. ``generator`` goes to
        the game's ``context`` (``rng=`` or ``dice=``: tests script their dice this way)."""
        ctx = self.context(state, **generator)
        try:
            run(ctx, on_step=on_step)
        finally:
            ctx.close()
        return state
