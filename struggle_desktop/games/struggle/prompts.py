"""Player decisions: each prompt kind has a generator of its legal actions.

A procedure that needs the player calls ``ctx.ask(kind, text, ...)``; the game's ``apply``
accepts only an action from ``legal(kind)`` (or, for prompts with very many actions, one that
the kind's ``check`` accepts, which must agree with the list: a test checks that), stores it in
the asking frame as ``"answer"``, and the procedure runs again.
"""

from __future__ import annotations

from typing import Callable

from struggle_desktop.engine.actions import action_in, same_json  # noqa: F401 (used by the rules modules)
from struggle_desktop.games.struggle.context import Ctx

LegalFn = Callable[[Ctx, dict], list[dict]]
CheckFn = Callable[[Ctx, dict, dict], "str | None"]

LEGAL: dict[str, LegalFn] = {}
CHECK: dict[str, CheckFn] = {}


def prompt(kind: str):
    """Register the legal-action generator of a prompt kind."""
    def register(fn: LegalFn) -> LegalFn:
        LEGAL[kind] = fn
        return fn
    return register


def checker(kind: str):
    """Register a fast legality check for a prompt kind: returns None when the action is
    legal, else the reason, in words a player understands."""
    def register(fn: CheckFn) -> CheckFn:
        CHECK[kind] = fn
        return fn
    return register


def yes_no(yes: str, no: str) -> LegalFn:
    def legal(ctx: Ctx, p: dict) -> list[dict]:
        return [{"verb": yes}, {"verb": no}]
    return legal
