"""Where a game's rules modules register their procedures and their prompts' legal actions.

A procedure (engine/flow.py) is registered by name with ``@rules.procedure("name")``. A
procedure that needs a player calls ``ctx.ask(kind, text, role=...)``; ``@rules.legal("kind")``
registers the function listing that prompt's legal actions, and ``game.apply`` accepts only a
listed action. Where listing every action only to find one is costly (hundreds of targets),
``@rules.check("kind")`` registers a function that answers "is this one action listed?"
directly; it must agree with the list exactly (the games' tests compare the two).
``@rules.explain("kind")`` registers such a check that also says *why* an action is refused,
in a player's words (Struggle's prompts do: "not enough Resource Points", not just "no").

>>> rules = RulesRegistry()
>>> @rules.procedure("hello")
... def hello(ctx, frame):
...     ctx.pop()
>>> sorted(rules.procedures)
['hello']
"""

from __future__ import annotations

from typing import Callable

from struggle_desktop.engine.actions import action_in


class RulesRegistry:
    """One game's procedures (name -> function), legal-action listers (prompt kind ->
    function) and, for some prompt kinds, direct checkers of one action."""

    def __init__(self) -> None:
        self.procedures: dict[str, Callable] = {}
        self.legal_actions: dict[str, Callable] = {}
        self.action_checks: dict[str, Callable] = {}
        self.explanations: dict[str, Callable] = {}

    def procedure(self, name: str):
        def register(fn):
            self.procedures[name] = fn
            return fn
        return register

    def legal(self, kind: str):
        def register(fn):
            self.legal_actions[kind] = fn
            return fn
        return register

    def check(self, kind: str):
        """Register ``fn(ctx, pending, action) -> bool``: whether ``action`` is one of the
        prompt's legal actions, without listing them all."""
        def register(fn):
            self.action_checks[kind] = fn
            return fn
        return register

    def explain(self, kind: str):
        """Register ``fn(ctx, pending, action) -> str | None``: None when ``action`` is one of
        the prompt's legal actions, else the reason it is not. It serves as the kind's check."""
        def register(fn):
            self.explanations[kind] = fn
            return fn
        return register

    def is_legal(self, ctx, pending: dict, action: dict) -> bool:
        """Whether ``action`` is one of the legal actions of ``pending``."""
        explain = self.explanations.get(pending["kind"])
        if explain is not None:
            return explain(ctx, pending, action) is None
        check = self.action_checks.get(pending["kind"])
        if check is not None:
            return check(ctx, pending, action)
        return action_in(action, self.legal_actions[pending["kind"]](ctx, pending))
