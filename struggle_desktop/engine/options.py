"""Reading option values the way every game's command line and dialog give them.

>>> parse_bool("nexus", "on"), parse_bool("nexus", False)
(True, False)
>>> parse_int("max_turns", " 60", 1, 999)
60
>>> parse_int("max_turns", "1000000000", 1, 999)
Traceback (most recent call last):
...
struggle_desktop.engine.errors.BadOption: option max_turns must be from 1 to 999, not '1000000000'
>>> parse_int("max_turns", True, 1, 999)
Traceback (most recent call last):
...
struggle_desktop.engine.errors.BadOption: option max_turns takes a whole number, not True
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.errors import BadOption

TRUE_WORDS = {"1", "true", "on", "yes"}
FALSE_WORDS = {"0", "false", "off", "no"}


def parse_bool(key: str, value: Any) -> bool:
    """An on/off option from a bool or a word (on/off, true/false, yes/no, 1/0); BadOption
    naming ``key`` otherwise."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in TRUE_WORDS:
        return True
    if text in FALSE_WORDS:
        return False
    raise BadOption(f"option {key} takes on/off (true/false), not {value!r}")


def parse_int(key: str, value: Any, low: int, high: int) -> int:
    """A whole-number option within its allowed range ``low..high`` (the range the option's
    spec gives, so that no value can make a game run away); BadOption naming ``key`` and the
    range otherwise. A bool is not a number here (``True`` is no count of turns)."""
    if isinstance(value, bool):
        raise BadOption(f"option {key} takes a whole number, not {value!r}")
    try:
        number = int(str(value).strip())
    except ValueError:
        raise BadOption(f"option {key} takes a whole number, not {value!r}") from None
    if not low <= number <= high:
        raise BadOption(f"option {key} must be from {low} to {high}, not {value!r}")
    return number
