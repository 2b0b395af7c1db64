"""Where the rules modules register their procedures and their prompts' legal actions.

A procedure (engine/flow.py) is registered by name with ``@procedure("name")``. A procedure
that needs a player calls ``ctx.ask(kind, text, role=side)``; ``@legal("kind")`` registers the
function listing that prompt's legal actions. ``game.apply`` accepts only a listed action.
"""

from __future__ import annotations

from typing import Callable

PROCEDURES: dict[str, Callable] = {}
LEGAL: dict[str, Callable] = {}


def procedure(name: str):
    def register(fn):
        PROCEDURES[name] = fn
        return fn
    return register


def legal(kind: str):
    def register(fn):
        LEGAL[kind] = fn
        return fn
    return register
