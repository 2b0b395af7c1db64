"""Save files: one JSON document, written atomically, read without executing anything.

Layout (ARCHITECTURE.md section 4): a header (``format``, ``format_version``, ``app_version``,
``game``, ``rules_version``, ``data_digest``, ``overrides``, ``scenario``, ``options``,
``seed``), the full ``actions`` list, periodic ``digests`` of the state after given action
counts, and the latest ``snapshot``. Loading replays the actions from the set-up and compares
the digests (see ``session.Session.load``).

Old files are brought up to date by the functions in ``MIGRATIONS`` (``version -> function``
returning the document at ``version + 1``).
"""

from __future__ import annotations

import json
import os
import re
import stat
import tempfile
import time
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

from struggle_desktop import __version__
from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import SaveError

FORMAT = "struggle-desktop-save"
FORMAT_VERSION = 1

#: format_version -> function(document) -> document of format_version + 1
MIGRATIONS: dict[int, Callable[[dict], dict]] = {}

#: What a save may hold (bytes, values, nesting), checked before parsing: the longest real
#: games come nowhere near it.
SAVE_LIMITS = untrusted.SAVE_LIMITS

SAVE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["format", "format_version", "game", "scenario", "options", "seed", "actions",
                 "digests", "snapshot", "rules_version", "data_digest", "app_version"],
    "properties": {
        "format": {"const": FORMAT},
        "format_version": {"type": "integer", "minimum": 1},
        "app_version": {"type": "string"},
        "game": {"type": "string"},
        "rules_version": {"type": "string"},
        "data_digest": {"type": "string"},
        "overrides": {"type": "object"},
        "scenario": {"type": "string"},
        "options": {"type": "object"},
        "seed": {"type": "integer"},
        "actions": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["role", "action"],
                "properties": {"role": {"type": "string"}, "action": {"type": "object"}},
            },
        },
        "digests": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["after", "digest"],
                "properties": {"after": {"type": "integer", "minimum": 0},
                               "digest": {"type": "string"}},
            },
        },
        "snapshot": {"type": "object"},
    },
}


@lru_cache(maxsize=1)
def _validator():
    # Imported on first use: jsonschema costs ~0.1 s at start-up, and only reading a save
    # needs it.
    import jsonschema

    return jsonschema.Draft202012Validator(SAVE_SCHEMA)


def make_document(
    *, game: str, rules_version: str, data_digest: str, overrides: dict, scenario: str,
    options: dict, seed: int, actions: list[dict], digests: list[dict], snapshot: dict,
) -> dict:
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "game": game,
        "rules_version": rules_version,
        "data_digest": data_digest,
        "overrides": overrides,
        "scenario": scenario,
        "options": options,
        "seed": seed,
        "actions": actions,
        "digests": digests,
        "snapshot": snapshot,
    }


#: The first bytes of every save this program writes: file managers recognise a save by them
#: (the MIME type's magic match in packaging/linux), whatever its name.
SAVE_MAGIC = '{"format":"%s"' % FORMAT


def save_text(document: dict) -> str:
    """The save's JSON text: ``format`` and ``format_version`` first, so that a file begins
    with ``SAVE_MAGIC``; every other key, at every depth, sorted, so the same game gives the
    same bytes.

    >>> save_text({"seed": 1, "format": FORMAT, "actions": [{"b": 1, "a": 2}], "format_version": 1})
    '{"format":"struggle-desktop-save","format_version":1,"actions":[{"a":2,"b":1}],"seed":1}'
    """
    first = [key for key in ("format", "format_version") if key in document]
    order = first + sorted(key for key in document if key not in first)
    return "{" + ",".join(
        json.dumps(key) + ":" + json.dumps(document[key], separators=(",", ":"), sort_keys=True)
        for key in order) + "}"


def write_atomic(path: Path | str, document: dict) -> None:
    """Write to a temporary file in the same folder, flush, fsync, then replace: a crash
    leaves either the old file or the new one, never half of one.

    Saving over a file keeps its permissions; saving to a symlink writes the file it names
    and leaves the link as it is. Leftover temporaries of earlier interrupted saves of the
    same file are removed at its first save in this process (the autosave is written after
    every action: its folder is not listed each time)."""
    link = Path(path)
    path = Path(os.path.realpath(link))
    try:
        info = path.stat()
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise SaveError(f"{link} is not a regular file: it is left as it is")
    path.parent.mkdir(parents=True, exist_ok=True)
    text = save_text(document)
    mode = stat.S_IMODE(info.st_mode) if info is not None else 0o666 & ~_umask()
    if path not in _CLEANED:
        clean_stale_temporaries(path.parent, path.name)
        _CLEANED.add(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


#: Save files whose folder was cleaned of their leftovers in this process.
_CLEANED: set[Path] = set()
#: The ending of the temporary file of a save in progress (``.<name>.<random>.tmp``).
TEMP_SUFFIX = ".tmp"
#: A temporary file this old is a leftover: a save takes milliseconds.
STALE_AFTER_SECONDS = 60.0
_TEMPORARY = re.compile(r"\.(?P<name>.+)\.[a-z0-9_]{8}" + re.escape(TEMP_SUFFIX))


def clean_stale_temporaries(folder: Path | str, name: str | None = None,
                            older_than: float = STALE_AFTER_SECONDS) -> int:
    """Remove what interrupted saves left in ``folder``: temporaries of the save ``name``,
    or (``name=None``) of any save file (``.sgsave`` or ``.json``), older than
    ``older_than`` seconds. Returns how many were removed; never fails."""
    removed = 0
    now = time.time()
    try:
        entries = list(os.scandir(folder))
    except (OSError, ValueError):       # ValueError: a name with a NUL (a hand-edited setting)
        return 0
    for entry in entries:
        match = _TEMPORARY.fullmatch(entry.name)
        if match is None:
            continue
        if name is not None and match["name"] != name:
            continue
        if name is None and not match["name"].endswith(SAVE_SUFFIXES):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if stat.S_ISREG(info.st_mode) and now - info.st_mtime >= older_than:
                os.unlink(entry.path)
                removed += 1
        except OSError:
            pass
    return removed


#: File names the program gives saves (its own autosaves and the Save dialog's default).
SAVE_SUFFIXES = (".sgsave", ".json")


@lru_cache(maxsize=1)
def _umask() -> int:
    """The process's umask (only readable by setting it), for the mode of a new save."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def read_document(path: Path | str) -> dict:
    """Read, migrate and check a save file (through ``engine/untrusted.py``, whose limits
    apply). The file itself is never modified."""
    path = Path(path)
    document = untrusted.read_json(path, SAVE_LIMITS, SaveError, what="save file")
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise SaveError(f"{path} is not a struggle_desktop save file")
    document = migrate(document, str(path))
    # The first error is enough, and only it is ever described: a hostile file may hold
    # millions of wrong values.
    error = next(iter(_validator().iter_errors(document)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "(top level)"
        raise SaveError(f"{path} is damaged: {where}: {untrusted.schema_problem(error)}")
    return document


def migrate(document: dict, source: str = "save") -> dict:
    version = document.get("format_version")
    if not isinstance(version, int) or version < 1:
        raise SaveError(f"{source}: unknown save format version {version!r}")
    if version > FORMAT_VERSION:
        raise SaveError(
            f"{source} was written by a newer version of the program "
            f"(save format {version}, this program reads up to {FORMAT_VERSION})")
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(f"{source}: no migration from save format {version}")
        document = step(document)
        version += 1
        document["format_version"] = version
    return document
