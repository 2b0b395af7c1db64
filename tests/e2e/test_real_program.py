"""The real program under a virtual screen (Xvfb): start it on a scenario, let it play a few
steps, take a screenshot and save the game — then check the save replays.

Skipped where Xvfb is not installed (``.ci/run`` installs it on CI).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def virtual_screen():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    for number in range(91, 120):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1920x1200x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(100):
        if Path(f"/tmp/.X11-unix/X{number}").exists():
            break
        time.sleep(0.05)
    yield f":{number}"
    server.terminate()
    server.wait(timeout=10)


def test_the_real_window_plays_a_step_and_saves_a_screenshot(virtual_screen, tmp_path):
    shot, save = tmp_path / "window.png", tmp_path / "game.sgsave"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"steps=3;shot={shot};save={save};quit")
    done = subprocess.run([sys.executable, "-m", "struggle_desktop", "play", "--game", "struggle",
                           "--scenario", "3", "--seed", "5"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr

    from PySide6.QtGui import QImage
    image = QImage(str(shot))
    assert image.width() >= 800 and image.height() >= 600
    # Not a blank window: the map and the panels give many different colours.
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
               for y in range(0, image.height(), 37)}
    assert len(colours) > 50

    verified = subprocess.run([sys.executable, "-m", "struggle_desktop", "verify", str(save),
                               "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    import json
    assert json.loads(verified.stdout)["actions"] == 3


def test_the_real_battles_window_plays_against_the_program_and_saves(virtual_screen, tmp_path):
    """The Battles screen in the real program: Blue (the autopilot, taking hints) against the
    program's Red; the screenshot is not blank and the save replays."""
    shot, save = tmp_path / "battles.png", tmp_path / "battles.sgsave"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"steps=60;shot={shot};save={save};quit")
    done = subprocess.run([sys.executable, "-m", "struggle_desktop", "play", "--game", "battles",
                           "--scenario", "civil-war", "--seed", "5"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    from PySide6.QtGui import QImage
    image = QImage(str(shot))
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
               for y in range(0, image.height(), 37)}
    assert image.width() >= 800 and len(colours) > 30
    verified = subprocess.run([sys.executable, "-m", "struggle_desktop", "verify", str(save),
                               "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    import json
    assert json.loads(verified.stdout)["actions"] >= 60
