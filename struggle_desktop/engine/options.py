"""Reading option values the way every game's command line and dialog give them.

>>> parse_bool("nexus", "on"), parse_bool("nexus", False)
(True, False)
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
