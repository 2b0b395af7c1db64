"""The level and balance tools with ``--cluster``: the same figures as with ``--jobs``, and a
bad ``--cluster`` is one ``error:`` line with exit code 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("distributed")

from tools import levels, struggle_levels  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def test_struggle_levels_on_a_cluster_plays_the_same_games():
    on_cluster, _ = struggle_levels.play("4", "bot", 6, 3, 1, cluster="local:2")
    alone, _ = struggle_levels.play("4", "bot", 6, 3, 1)
    assert on_cluster == alone and len(alone) == 6


def test_noble_houses_fights_on_a_cluster_are_those_of_one_process():
    assert levels.fights(2, 2, "easy", 5, 1, cluster="local:2") == levels.fights(2, 2, "easy",
                                                                                  5, 1)


@pytest.mark.parametrize("tool, argv", [
    ("balance.py", ["--games", "2", "--scenarios", "4"]),
    ("levels.py", ["--battles", "1", "--seeds", "1"]),
    ("struggle_levels.py", ["--games", "2", "--scenarios", "4"]),
])
def test_a_bad_cluster_is_one_error_line(tool, argv):
    done = subprocess.run([sys.executable, str(ROOT / "tools" / tool), *argv, "--cluster",
                           "tcp://nowhere"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.startswith("error: --cluster takes") and done.stderr.count("\n") == 1
