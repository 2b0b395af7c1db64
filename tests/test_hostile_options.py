"""Hostile files given where a person names a file (``--option context=FILE``) or put where
the program looks for house rules (table overrides): every one is refused with exit 2 and
one short ``error:`` line, quickly, and without a traceback.

Each case runs the real program in a child process with a time limit, so a regression that
hangs (a named pipe read forever) fails the test instead of stopping the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hostile import hostile_files

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], home: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, STRUGGLE_DESKTOP_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    return subprocess.run([sys.executable, "-m", "struggle_desktop", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def assert_refused(done: subprocess.CompletedProcess, *words: str) -> str:
    lines = done.stderr.splitlines()
    assert done.returncode == 2, done.stderr[-1000:]
    assert len(lines) == 1 and lines[0].startswith("error: "), done.stderr[-1000:]
    assert len(lines[0]) <= 400 and "Traceback" not in done.stderr
    for word in words:
        assert word in lines[0]
    return lines[0]


@pytest.mark.slow
def test_hostile_context_files_are_refused(tmp_path):
    for name, (path, word) in hostile_files(tmp_path).items():
        done = run(["simulate", "--game", "freedom", "--scenario", "custom", "--games", "1",
                    "--seed", "1", "--option", f"context={path}"], tmp_path / "home")
        line = assert_refused(done, "option context:", word)
        assert str(path) in line, name


@pytest.mark.slow
def test_hostile_table_overrides_are_refused(tmp_path):
    for name, (path, word) in hostile_files(tmp_path).items():
        home = tmp_path / name.replace(" ", "-")
        overrides = home / "config" / "overrides" / "struggle"
        overrides.mkdir(parents=True)
        (overrides / "aert.yaml").symlink_to(path)
        assert_refused(run(["catalog", "--game", "struggle"], home), "aert.yaml", word)
