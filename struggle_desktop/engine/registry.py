"""Where a game's rules modules register their procedures and their prompts' legal actions.

A procedure (engine/flow.py) is registered by name with ``@rules.procedure("name")``. A
procedure that needs a player calls ``ctx.ask(kind, text, role=...)``; ``@rules.legal("kind")``
registers the function listing that prompt's legal actions, and ``game.apply`` accepts only a
listed action.

>>> rules = RulesRegistry()
>>> @rules.procedure("hello")
... def hello(ctx, frame):
...     ctx.pop()
>>> sorted(rules.procedures)
['hello']
"""

from __future__ import annotations

from typing import Callable


class RulesRegistry:
    """One game's procedures (name -> function) and legal-action listers (prompt kind ->
    function)."""

    def __init__(self) -> None:
        self.procedures: dict[str, Callable] = {}
        self.legal_actions: dict[str, Callable] = {}

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
