"""A per-user cache of data that is slow to check but never changes between runs.

Parsing and validating every table (jsonschema) and checking the galaxy map's geometry take
about a second, which the desktop window cannot afford at each start (budget: an interactive
window in <= 1 s). Results are stored under the user cache folder, keyed by a SHA-256 of the
exact bytes of every source file, the program version and a format number: a changed or
overridden file simply misses the cache and is checked again, so a cached result is always
the result of checking those very bytes.

The cache holds pickles written by this program in the user's own folder. A file that cannot
be read back (damaged, written by another Python) is ignored and rebuilt.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from pathlib import Path
from typing import Callable, Iterable, TypeVar

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import user_cache_dir

T = TypeVar("T")

#: Bump when the shape of cached objects changes.
CACHE_FORMAT = 1
#: A source larger than this is not cached (build() then reads it under its own limits).
MAX_SOURCE_BYTES = 64 * 1024 * 1024
#: Set to "0" to switch the cache off (tests of the checks themselves, debugging).
ENV_SWITCH = "STRUGGLE_DESKTOP_DATA_CACHE"


def enabled() -> bool:
    return os.environ.get(ENV_SWITCH, "1") != "0"


def _key(kind: str, sources: Iterable[Path], extra: bytes = b"") -> str:
    from struggle_desktop import __version__

    h = hashlib.sha256(f"{kind}\0{CACHE_FORMAT}\0{__version__}".encode())
    h.update(extra + b"\0")
    for path in sources:
        h.update(str(path.name).encode() + b"\0")
        # Bounded and regular files only: a source may be a user's override file.
        h.update(untrusted.read_bytes(path, MAX_SOURCE_BYTES))
        h.update(b"\0")
    return h.hexdigest()[:32]


def cached(kind: str, sources: Iterable[Path], build: Callable[[], T], extra: bytes = b"") -> T:
    """``build()``, or its stored result for these exact source bytes (and ``extra``: other
    key material, such as data already in memory)."""
    if not enabled():
        return build()
    sources = list(sources)
    try:
        key = _key(kind, sources, extra)
    except (OSError, DataError):
        return build()          # an unreadable source: let build() report it properly
    folder = user_cache_dir() / "data"
    target = folder / f"{kind}-{key}.pickle"
    try:
        with open(target, "rb") as handle:
            return pickle.load(handle)
    except Exception:           # noqa: BLE001 - missing or unreadable: rebuild
        pass
    value = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for old in folder.glob(f"{kind}-*.pickle"):
            old.unlink(missing_ok=True)    # one entry per kind: the cache stays small
        with tempfile.NamedTemporaryFile(dir=folder, delete=False) as handle:
            pickle.dump(value, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, target)
    except OSError:
        pass                    # a read-only home still runs, only slower
    return value
