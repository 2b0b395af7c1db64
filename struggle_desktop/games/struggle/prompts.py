"""Player decisions: each prompt kind has a generator of its legal actions.

A procedure that needs the player calls ``ctx.ask(kind, text, ...)``; the game's ``apply``
accepts only an action from ``legal(kind)`` (or, for prompts with very many actions, one that
the kind's ``check`` accepts, which must agree with the list: a test checks that), stores it in
the asking frame as ``"answer"``, and the procedure runs again.
"""

from __future__ import annotations

from typing import Callable

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


def action_in(action: dict, legal: list[dict]) -> bool:
    """Whether ``action`` is one of ``legal``, compared as JSON data: in Python
    ``True == 1 == 1.0``, so a plain ``in`` would accept ``{"at": true}`` or ``{"at": 20.0}``."""
    return any(same_json(action, a) for a in legal)


def same_json(a, b) -> bool:
    """Equal as JSON: the same canonical JSON text, without writing it (dicts compare by
    keys and values, lists and tuples item by item, everything else by type and value)."""
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(map(same_json, a, b))
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(v, b[k]) for k, v in a.items())
    if isinstance(a, float):
        return repr(a) == repr(b)   # -0.0 and 0.0 are different JSON
    return a == b
