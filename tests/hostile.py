"""Hostile files the tests of untrusted input share: each stands for a class of files that
once crashed, hung or flooded the program."""

from __future__ import annotations

import os
from pathlib import Path

POSIX = hasattr(os, "mkfifo")


def billion_laughs(levels: int = 9) -> str:
    """A few hundred bytes of YAML whose aliases expand to 9**levels strings."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        prev, name = chr(96 + i), chr(97 + i)
        lines.append(f"{name}: &{name} [" + ",".join([f"*{prev}"] * 9) + "]")
    return "\n".join(lines) + "\n"


def hostile_files(folder: Path) -> dict[str, tuple[Path, str]]:
    """name -> (file, a word its refusal must contain)."""
    made: dict[str, tuple[Path, str]] = {}
    laughs = folder / "laughs.yaml"
    laughs.write_text(billion_laughs(), encoding="utf-8")
    made["billion laughs"] = (laughs, "aliases")
    deep = folder / "deep.yaml"
    deep.write_text("[" * 100_000, encoding="utf-8")
    made["deep nesting"] = (deep, "nested too deeply")
    big = folder / "big.yaml"
    with open(big, "wb") as handle:
        handle.truncate(64 * 1024 * 1024)      # sparse: costs no disk
    made["too large"] = (big, "too large")
    if POSIX:
        fifo = folder / "pipe.yaml"
        os.mkfifo(fifo)
        made["named pipe"] = (fifo, "not a regular file")
        zero = folder / "zero.yaml"
        zero.symlink_to("/dev/zero")
        made["symlink to /dev/zero"] = (zero, "not a regular file")
    return made
