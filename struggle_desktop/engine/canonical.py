"""Canonical JSON and digests: the same data gives the same bytes and hash on any machine."""

from __future__ import annotations

import hashlib
import json
import marshal
from typing import Any


def canonical_json(data: Any) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest(data: Any) -> str:
    """SHA-256 of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical_json(data).encode("ascii")).hexdigest()


def clone(data: Any) -> Any:
    """A deep copy of plain JSON-like data (dicts, lists, str, int, float, bool, None).

    marshal is used only as a fast in-memory copier of our own objects; nothing read from a
    file ever goes through it.
    """
    return marshal.loads(marshal.dumps(data))
