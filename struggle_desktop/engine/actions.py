"""Comparing actions as JSON values, the way every game checks an action against its list.

>>> action_in({"verb": "resolve", "region": 2}, [{"verb": "resolve", "region": 2}])
True
>>> action_in({"verb": "resolve", "region": True}, [{"verb": "resolve", "region": 1}])
False
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone

#: Value types an action holds by value: a flat action of these is copied with dict().
_SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def copy_action(action: dict) -> dict:
    """The action's own copy for the state (the caller keeps its dict): a plain copy for the
    usual flat action, a deep one (``clone``) when a value is a list or a dict.

    >>> nested = {"verb": "assign", "group": ["a", "b"]}
    >>> copy_action(nested)["group"] is nested["group"]
    False
    """
    for value in action.values():
        if type(value) not in _SCALAR_TYPES:
            return clone(action)
    return dict(action)


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
