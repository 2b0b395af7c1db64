"""``pipx install .``, the way in for a player who has Python (the README's "Installing").

pipx installs the checkout into a virtual environment of its own and puts the
``struggle-desktop`` command in its bin folder. Here both folders are temporary, and pipx does
what it does on a player's machine: it builds the package in an isolated build environment and
installs the dependencies from the package index (pip's cache makes that quick after the
README's install). Nothing is borrowed from the interpreter the tests run on: with
``--system-site-packages`` the new environment would see the *base* interpreter's packages,
whatever happens to be installed there, not the test environment's. What is checked is that
the package pipx builds carries the program and its data, and that the command it links works
from another folder: its version, a simulation with the checkout's digest, and a rendered map.
The program must be the environment's own copy, not the one the tests run.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import struggle_desktop

ROOT = Path(__file__).resolve().parents[2]
SIMULATE = ["simulate", "--game", "struggle", "--scenario", "2", "--games", "2", "--seed", "5",
            "--json"]
PROBE = ("import json, struggle_desktop; from struggle_desktop.engine import paths; "
         "print(json.dumps([struggle_desktop.__file__, str(paths.data_root())]))")

pytestmark = pytest.mark.slow


def test_pipx_installs_a_working_command(tmp_path):
    # pipx comes with the test extras into the environment the tests run in, whose bin
    # folder need not be on PATH (the README runs `.venv/bin/python -m pytest`).
    if importlib.util.find_spec("pipx") is None:
        if os.environ.get("CI"):
            pytest.fail("pipx is not installed (it is in the test extras)")
        pytest.skip("pipx is not installed")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "PIP_"))}
    env.update(PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"),
               PIPX_MAN_DIR=str(tmp_path / "man"), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               QT_QPA_PLATFORM="offscreen")
    done = subprocess.run(
        [sys.executable, "-m", "pipx", "install", "--python", sys.executable, str(ROOT)],
        env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    command = tmp_path / "bin" / "struggle-desktop"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    def run(*args: str) -> subprocess.CompletedProcess:
        result = subprocess.run([str(command), *args], cwd=elsewhere, env=env,
                                capture_output=True, text=True, timeout=300)
        assert result.returncode == 0, result.stderr[-2000:]
        return result

    assert run("--version").stdout.strip() == f"struggle-desktop {struggle_desktop.__version__}"
    venv = tmp_path / "pipx" / "venvs" / "struggle-desktop"
    probe = subprocess.run([str(venv / "bin" / "python"), "-c", PROBE], cwd=elsewhere, env=env,
                           capture_output=True, text=True, timeout=60)
    package, data = json.loads(probe.stdout)
    assert Path(package).is_relative_to(venv) and Path(data).is_relative_to(venv)

    ours = subprocess.run([sys.executable, "-m", "struggle_desktop", *SIMULATE], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert json.loads(run(*SIMULATE).stdout)["digest"] == json.loads(ours.stdout)["digest"]
    run("render", "--game", "nobles", "--scenario", "standard", "--seed", "1", "--out",
        str(elsewhere / "map.png"), "--size", "640x400")
    assert (elsewhere / "map.png").stat().st_size > 1000
