"""Exceptions shared by the engine, the games, the command line and the UI.

Every one of them carries a message a player can read; the command line prints it after
``error:`` and the UI shows it in the status bar or a dialog. None of them is a crash.

Messages often quote what they refuse, and what they refuse may come from a hostile file (a
50 MB string, a value built from YAML aliases). So a message is made one line and at most
``MAX_MESSAGE`` characters when the exception is made, whoever made it; ``excerpt`` quotes a
value briefly in the first place.

>>> str(DataError("bad value " + "x" * 1000)).count("x") < 400
True
>>> excerpt("a" * 100, 10)
"'aaaaaaaaaa…' (100 characters)"
"""

from __future__ import annotations

import reprlib
from typing import Any

#: The longest message any of these exceptions carries.
MAX_MESSAGE = 300


#: Control characters (terminal escape sequences among them) are shown, never sent.
_CONTROLS = {code: f"\\x{code:02x}" for code in (*range(0x20), *range(0x7F, 0xA0))}


def printable(text: str) -> str:
    """``text`` with its control characters and lone surrogates written as escapes."""
    return text.translate(_CONTROLS).encode("utf-8", "backslashreplace").decode("utf-8")


def one_line(text: Any, limit: int = MAX_MESSAGE) -> str:
    r"""``text`` on one line, at most ``limit`` characters, that any terminal or dialog can
    show as it is: control characters and lone surrogates (a save may hold both) are
    written as escapes. The start and the end are kept, since the start says what went
    wrong and the end often says why.

    >>> one_line("a\x1b[2J b\udfff\n  c")
    'a\\x1b[2J b\\udfff c'
    """
    text = str(text)
    if len(text) > 4 * limit:           # no need to split a huge text only to cut it
        text = text[: 3 * limit] + " " + text[-limit:]
    text = printable(" ".join(text.split()))
    if len(text) <= limit:
        return text
    tail = limit // 4
    return text[: limit - tail - 3] + " … " + text[-tail:]


def _short_repr(limit: int) -> reprlib.Repr:
    short = reprlib.Repr()
    short.maxlevel, short.maxdict, short.maxlist, short.maxtuple, short.maxset = 3, 4, 6, 6, 6
    short.maxstring, short.maxother, short.maxlong = limit, limit, 40
    return short


def excerpt(value: Any, limit: int = 60) -> str:
    """A short quotation of ``value`` for a message: its repr if that is short, else its
    start (and a string's length). Never builds the repr of a large value."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return repr(value[:limit])[:-1] + f"…' ({len(value)} characters)"
    try:
        text = _short_repr(limit).repr(value)
    except Exception:           # noqa: BLE001 - e.g. an int past Python's digit limit
        return f"a value of type {type(value).__name__}"
    return text if len(text) <= 2 * limit else text[: 2 * limit] + "…"


class StruggleError(Exception):
    """Base class: an error with a message meant for people, not a traceback."""

    def __init__(self, message: Any = "", *args: Any):
        super().__init__(one_line(str(message)), *args)


class IllegalAction(StruggleError):
    """The action is not among the legal actions of the current position."""


class DataError(StruggleError):
    """A table, map or scenario file is missing or fails its schema or its rules."""


class SaveError(StruggleError):
    """A save file cannot be read: damaged, truncated, foreign or from a newer program."""


class BadOption(StruggleError):
    """An unknown game, scenario or option, or an option with a bad value."""


class RunawayError(RuntimeError):
    """The flow ran far more automated steps than any legal game needs: a rules bug."""
