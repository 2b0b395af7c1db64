"""The real program started as the desktop starts it, on a virtual X screen: no terminal
(stdin from /dev/null, stderr to a pipe nobody shows). What the person sees is read from the
X server by ``xdotool`` (window names as the title bar shows them, Qt's display name included).

* a damaged save double-clicked: a dialog says why, and the program still exits 2 with its
  ``error:`` line;
* a home whose folders cannot be written: the window starts and says so;
* a Battles window's title names Battles and ends with the program's name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.virtual_screen import virtual_screen

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(not (shutil.which("Xvfb") and shutil.which("xdotool")),
                                reason="needs Xvfb and xdotool")


@pytest.fixture(scope="module")
def screen():
    with virtual_screen("1366x768", 140) as display:
        yield display


def desktop_env(display: str, home: Path, **extra: str) -> dict:
    env = {key: value for key, value in os.environ.items()
           if key not in ("QT_QPA_PLATFORM", "STRUGGLE_DESKTOP_AUTOPILOT")}
    env.update(DISPLAY=display, QT_QPA_PLATFORM="xcb", PYTHONPATH=str(ROOT),
               STRUGGLE_DESKTOP_HOME=str(home), **extra)
    return env


def start(env: dict, *argv: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "struggle_desktop", *argv], cwd=ROOT, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def window_named(display: str, pattern: str) -> str:
    """The id of the first window whose name matches ``pattern`` (waits up to a minute)."""
    found = subprocess.run(["xdotool", "search", "--sync", "--onlyvisible", "--name", pattern],
                           env=dict(os.environ, DISPLAY=display), capture_output=True,
                           text=True, timeout=60)
    assert found.returncode == 0 and found.stdout.split(), found.stderr
    return found.stdout.split()[0]


def name_of(display: str, window: str) -> str:
    return subprocess.run(["xdotool", "getwindowname", window], env=dict(os.environ,
                          DISPLAY=display), capture_output=True, text=True,
                          timeout=30).stdout.strip()


def press(display: str, window: str, key: str) -> None:
    subprocess.run(["xdotool", "windowfocus", "--sync", window, "key", key],
                   env=dict(os.environ, DISPLAY=display), timeout=30, check=True)


def test_a_damaged_save_opened_from_the_desktop_is_a_dialog(screen, tmp_path):
    kaputt = tmp_path / "kaputt.sgsave"
    kaputt.write_text("garbage{", encoding="utf-8")
    program = start(desktop_env(screen, tmp_path / "home"), "open", str(kaputt))
    try:
        box = window_named(screen, "^Cannot start")
        assert name_of(screen, box) == "Cannot start — Struggle Desktop"
        press(screen, box, "Return")
        out, err = program.communicate(timeout=60)
    finally:
        if program.poll() is None:
            program.kill()
            program.communicate()
    assert program.returncode == 2 and out == ""
    assert err.startswith("error:") and "is not a save file" in err and "Traceback" not in err


def test_a_home_that_cannot_be_written_still_starts_the_window(screen, tmp_path):
    home = tmp_path / "home-is-a-file"
    home.write_text("")
    program = start(desktop_env(screen, home))
    try:
        notice = window_named(screen, "^Some of your folders cannot be written")
        press(screen, notice, "Return")
        window_named(screen, "^New Game")        # then the program goes on as usual
        assert program.poll() is None
    finally:
        program.kill()
        _, err = program.communicate(timeout=60)
    assert "Traceback" not in err
    assert home.read_text() == ""


def test_a_battles_title_names_battles_and_the_program(screen, tmp_path):
    go_on = tmp_path / "go-on"
    program = start(desktop_env(screen, tmp_path / "home",
                                STRUGGLE_DESKTOP_AUTOPILOT=f"await={go_on};quit"),
                    "play", "--game", "battles", "--scenario", "civil-war", "--seed", "1")
    try:
        window = window_named(screen, "Battles for the Galactic Empire")
        title = name_of(screen, window)
    finally:
        go_on.write_text("")
        try:
            program.communicate(timeout=60)
        finally:
            if program.poll() is None:
                program.kill()
                program.communicate()
    assert title.endswith("Battles for the Galactic Empire — Struggle Desktop"), title
    assert "Struggle for the Galactic Empire" not in title
