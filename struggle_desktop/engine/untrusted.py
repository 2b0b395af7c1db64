"""The one way the program reads a file it did not just write: saves, YAML tables and their
user overrides, scenario files and the environs files given on the command line.

Players trade saves and house-rule tables, so every such file is untrusted input. The limits
are enforced here, in one place, before anything else looks at the content:

- **regular files only**: a folder, a named pipe or a device (also behind a symlink) is
  refused without reading it; the file is opened without blocking, so a pipe with no writer
  cannot hang the program, and the check is made on the opened file itself;
- **a byte limit**: at most ``max_bytes + 1`` bytes are ever read, whatever the file claims;
- **a nesting limit** (``MAX_DEPTH`` levels of lists and mappings; real files use under 20),
  checked on the raw text before a parser could recurse or crash on it;
- **a node limit**: JSON values, and YAML nodes *as expanded through aliases*, so a few
  hundred bytes of YAML aliases ("billion laughs") are refused before anything expands them;
- **short messages**: every refusal raises the caller's error class (a ``StruggleError``)
  with one line that quotes at most a short excerpt of the file (``errors.excerpt``).

Nothing here executes content: JSON through ``json``, YAML through a safe loader only.

>>> parse_json(b'{"a": [1, 2]}', "x.json")
{'a': [1, 2]}
>>> parse_json(b"[" * 100 + b"]" * 100, "deep.json")
Traceback (most recent call last):
...
struggle_desktop.engine.errors.DataError: deep.json is nested too deeply (more than 50 levels)
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from dataclasses import dataclass
from itertools import accumulate
from pathlib import Path
from typing import Any

import yaml

from struggle_desktop.engine.errors import DataError, StruggleError, excerpt, one_line

#: Lists and mappings inside each other; real saves use 9 levels and schemas 15.
MAX_DEPTH = 50

# libyaml's safe loader parses the same documents as yaml.safe_load, many times faster.
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Limits:
    """What one kind of file may hold."""
    max_bytes: int
    #: JSON values, or YAML nodes counted as expanded through their aliases.
    max_nodes: int
    max_depth: int = MAX_DEPTH


#: Saves: the longest real games write a few MB (a 464 KB save holds 35,000 values). 32 MiB
#: and a million values keep a hostile file to a few hundred MB of memory.
SAVE_LIMITS = Limits(max_bytes=32 * 1024 * 1024, max_nodes=1_000_000)
#: Tables, overrides, scenarios and environs files: the largest shipped table has about
#: 12,000 nodes in 70 KB.
YAML_LIMITS = Limits(max_bytes=4 * 1024 * 1024, max_nodes=250_000)


def _size(n: int) -> str:
    return f"{n / (1024 * 1024):.0f} MB" if n >= 1024 * 1024 else f"{n} bytes"


# ------------------------------------------------------------------------------ bytes
def read_bytes(path: Path | str, max_bytes: int, error: type[StruggleError] = DataError,
               what: str = "file") -> bytes:
    """The content of the regular file ``path``, refused with ``error`` if it is anything
    else or holds more than ``max_bytes``."""
    name = str(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) \
        | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise error(f"{name}: no such file") from None
    except IsADirectoryError:
        raise error(f"{name} is a folder, not a {what}") from None
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise error(f"{name} is a folder, not a {what}")
        if not stat.S_ISREG(info.st_mode):
            raise error(f"{name} is not a regular file (a pipe, device or socket): "
                        f"it is not read")
        if info.st_size > max_bytes:
            raise error(f"{name} is too large to be a {what} ({_size(info.st_size)}; "
                        f"at most {_size(max_bytes)})")
        chunks, total = [], 0
        while total <= max_bytes:       # the size may have lied (a growing file, /proc)
            chunk = os.read(fd, max_bytes + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise error(f"{name} is too large to be a {what} (more than {_size(max_bytes)})")
        return b"".join(chunks)
    except OSError as exc:
        raise error(f"cannot read {name}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------ JSON
_BRACKET_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}
_NOT_BRACKETS = bytes(b for b in range(256) if b not in _BRACKET_STEP)


def _outside_strings(raw: bytes) -> bytes:
    """What of a JSON text lies outside its strings. Escaped backslashes go first, then
    escaped quotes, so every quote left opens or closes a string (a few times faster than a
    regular expression on a large save).

    >>> _outside_strings(rb'{"a\\"[": ["\\\\", 1]}')
    b'{: [, 1]}'
    """
    unescaped = raw.replace(b"\\\\", b"").replace(b'\\"', b"")
    return b"".join(unescaped.split(b'"')[0::2])


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:20]} is out of range")
    return value


def parse_json(raw: bytes, source: str, limits: Limits = SAVE_LIMITS,
               error: type[StruggleError] = DataError, what: str = "JSON file") -> Any:
    """Parse ``raw`` as strict JSON (no NaN or Infinity) within ``limits``."""
    # Depth and size are read off the brackets and commas outside strings, before json
    # parses anything: a parser's recursion must never be what stops a hostile file.
    if len(raw) > limits.max_bytes:
        raise error(f"{source} is too large to be a {what} ({_size(len(raw))}; "
                    f"at most {_size(limits.max_bytes)})")
    strings = raw.count(b'"') // 2      # checked first: each string costs memory to skip
    if strings > limits.max_nodes:
        raise error(f"{source} holds too many values (at most {limits.max_nodes})")
    skeleton = _outside_strings(raw)
    brackets = skeleton.translate(None, _NOT_BRACKETS)
    if brackets and max(accumulate(map(_BRACKET_STEP.__getitem__, brackets))) > limits.max_depth:
        raise error(f"{source} is nested too deeply (more than {limits.max_depth} levels)")
    values = skeleton.count(b",") + skeleton.count(b":") + len(brackets) // 2 + 1
    if values > limits.max_nodes:
        raise error(f"{source} holds too many values ({values}; at most {limits.max_nodes})")
    try:
        return json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant,
                          parse_float=_finite_float)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise error(f"{source} is not a {what} (damaged, truncated or not JSON)") from None


def read_json(path: Path | str, limits: Limits = SAVE_LIMITS,
              error: type[StruggleError] = DataError, what: str = "JSON file") -> Any:
    """``read_bytes`` then ``parse_json``: the one way a JSON file is read."""
    return parse_json(read_bytes(path, limits.max_bytes, error, what), str(path), limits,
                      error, what)


# ------------------------------------------------------------------------------ YAML
#: What may open or close a flow collection, quote a scalar or start a comment, with what
#: comes before it on its line (to tell where a node may start).
_FLOW_MARK = re.compile(r"[\[\]{}'\"#]")


def _check_flow_nesting(text: str, source: str, limits: Limits,
                        error: type[StruggleError]) -> None:
    """Refuse flow collections (``[[[`` or ``{a: {a:``) nested deeper than
    ``limits.max_depth``, read off the text alone.

    A parser may read far ahead before it hands over its first event (libyaml looks up to
    1024 characters ahead for a key), and newer libyaml releases stop deep flow nesting in
    that look-ahead with a limit and a message of their own. This pass needs no parser, so
    our limit acts first with our message, whatever the library's version. It counts only
    brackets where a node may start (at the start of a line or after ``- : , [ { ?``) and
    skips quoted scalars and comments, so brackets inside plain text are not mistaken for
    nesting; block nesting is left to the event walk.

    >>> _check_flow_nesting("a: [b, {c: [d]}, e[f]: 'x[[['] # [[", "ok.yaml", YAML_LIMITS, DataError)
    >>> _check_flow_nesting("[" * 60, "deep.yaml", YAML_LIMITS, DataError)
    Traceback (most recent call last):
    ...
    struggle_desktop.engine.errors.DataError: deep.yaml is nested too deeply (more than 50 levels)
    """
    depth = 0
    last_opener = -1        # where the last bracket counted as an opener stands
    position = 0
    while (mark := _FLOW_MARK.search(text, position)) is not None:
        at = mark.start()
        char = text[at]
        line_start = text.rfind("\n", 0, at) + 1
        position = at + 1
        if char == "#":
            if at == line_start or text[at - 1] in " \t":     # a comment: skip the line
                newline = text.find("\n", at)
                position = len(text) if newline < 0 else newline + 1
            continue
        if char in "]}":
            depth -= 1 if depth else 0
            continue
        if not _node_may_start(text, line_start, at, last_opener, depth):
            continue
        if char in "'\"":
            position = _end_of_quoted(text, at)
        else:
            depth += 1
            last_opener = at
            if depth > limits.max_depth:
                raise error(f"{source} is nested too deeply (more than {limits.max_depth} levels)")


def _node_may_start(text: str, line_start: int, at: int, last_opener: int, depth: int) -> bool:
    """Whether a node may start at ``at``: first on its line, or after an indicator (a
    block entry's ``-``, a key's ``:`` or ``?``, a flow entry's ``,``, or a bracket that
    itself opened a collection)."""
    before = text[line_start:at].rstrip(" \t")
    if not before:
        return True
    prev = line_start + len(before) - 1
    indicator = text[prev]
    if indicator in ":?":
        return True
    if indicator == "-":
        return prev == line_start or text[prev - 1] in " \t"
    if indicator == ",":
        return depth > 0
    return indicator in "[{" and prev == last_opener


def _end_of_quoted(text: str, at: int) -> int:
    """Where the quoted scalar that opens at ``at`` ends (just past its closing quote, or
    the end of the text if it never closes: the parser then says what is wrong)."""
    quote = text[at]
    position = at + 1
    while True:
        end = text.find(quote, position)
        if end < 0:
            return len(text)
        if quote == "'" and text.startswith("''", end):         # '' is a quote inside '...'
            position = end + 2
        elif quote == '"' and _escaped(text, end):
            position = end + 1
        else:
            return end + 1


def _escaped(text: str, at: int) -> bool:
    """Whether the character at ``at`` follows an odd number of backslashes."""
    backslashes = 0
    while at - backslashes - 1 >= 0 and text[at - backslashes - 1] == "\\":
        backslashes += 1
    return backslashes % 2 == 1


def _check_yaml_events(text: str, source: str, limits: Limits,
                       error: type[StruggleError]) -> None:
    """Walk the parser's events (libyaml's parser does not recurse) and refuse the document
    if it nests deeper than ``limits.max_depth`` or, counting every alias as a copy of what
    it names, holds more than ``limits.max_nodes`` nodes. Stops at the first excess, so a
    hostile document costs no more than the limits."""
    nodes = 0
    depth = 0
    #: per open collection: [anchor, nodes before it, its depth, deepest depth inside]
    open_collections: list[list] = []
    anchored: dict[str, tuple[int, int]] = {}    # anchor -> (expanded nodes, levels)

    def reach(deepest: int) -> None:
        if deepest > limits.max_depth:
            raise error(f"{source} is nested too deeply (more than {limits.max_depth} levels)")
        if open_collections and deepest > open_collections[-1][3]:
            open_collections[-1][3] = deepest

    for event in yaml.parse(text, Loader=_SafeLoader):
        if isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            reach(depth)
            open_collections.append([event.anchor, nodes, depth, depth])
            nodes += 1
        elif isinstance(event, yaml.CollectionEndEvent):
            anchor, before, level, deepest = open_collections.pop()
            if anchor is not None:
                anchored[anchor] = (nodes - before, deepest - level + 1)
            reach(deepest)
            depth -= 1
        elif isinstance(event, yaml.ScalarEvent):
            nodes += 1
            reach(depth + 1)
            if event.anchor is not None:
                anchored[event.anchor] = (1, 1)
        elif isinstance(event, yaml.AliasEvent):
            count, levels = anchored.get(event.anchor, (1, 1))
            nodes += count
            reach(depth + levels)
        if nodes > limits.max_nodes:
            raise error(f"{source} holds too many values once its aliases are expanded "
                        f"(more than {limits.max_nodes})")


def parse_yaml(text: str, source: str, limits: Limits = YAML_LIMITS,
               error: type[StruggleError] = DataError) -> Any:
    """Parse one YAML document with a safe loader, within ``limits``."""
    try:
        _check_flow_nesting(text, source, limits, error)
        _check_yaml_events(text, source, limits, error)
        return yaml.load(text, Loader=_SafeLoader)  # noqa: S506 - a safe loader
    except yaml.YAMLError as exc:
        raise error(f"{source} is not valid YAML: {exc}") from None
    except RecursionError:
        raise error(f"{source} is nested too deeply") from None


def read_yaml(path: Path | str, limits: Limits = YAML_LIMITS,
              error: type[StruggleError] = DataError, what: str = "data file") -> Any:
    """The one way a YAML file is read: ``read_bytes``, strict UTF-8, ``parse_yaml``."""
    raw = read_bytes(path, limits.max_bytes, error, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise error(f"{path} is not a text file in UTF-8 (byte {exc.start})") from None
    return parse_yaml(text, str(path), limits, error)


# ------------------------------------------------------------------------------ messages
def schema_problem(error: Any) -> str:
    """What a jsonschema error says, quoting at most an excerpt of the offending value
    (its own message quotes the whole value)."""
    if error.validator == "type":
        return f"{excerpt(error.instance)} is not of type {excerpt(error.validator_value)}"
    if error.validator == "const":
        return f"{excerpt(error.instance)} was expected to be {excerpt(error.validator_value)}"
    if error.validator == "enum":
        return f"{excerpt(error.instance)} is not one of {excerpt(error.validator_value, 100)}"
    if error.validator == "additionalProperties" and isinstance(error.instance, dict):
        # jsonschema lists every unexpected key: in a file that is not the document asked
        # for, those are its lines. Name the first one only.
        schema = error.schema if isinstance(error.schema, dict) else {}
        known = schema.get("properties", {})
        patterns = list(schema.get("patternProperties", {}))
        unexpected = [key for key in error.instance if key not in known
                      and not any(re.search(pattern, str(key)) for pattern in patterns)]
        if unexpected:
            more = len(unexpected) - 1
            return (f"unexpected field {excerpt(unexpected[0], 40)}"
                    + (f" (and {more} more)" if more else ""))
    message = error.message
    quoted = repr(error.instance)
    if message.startswith(quoted):           # "'<the whole value>' does not match ..."
        message = excerpt(error.instance) + message[len(quoted):]
    return one_line(message, 160)


__all__ = ["Limits", "MAX_DEPTH", "SAVE_LIMITS", "YAML_LIMITS", "excerpt", "parse_json",
           "parse_yaml", "read_bytes", "read_json", "read_yaml", "schema_problem"]
