"""The real program under a virtual screen (Xvfb): start it on a scenario, let it play a few
steps, take a screenshot and save the game — then check the save replays.

Skipped where Xvfb is not installed (``.ci/run`` installs it on CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.virtual_screen import virtual_screen as start_virtual_screen

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def virtual_screen():
    if shutil.which("Xvfb") is None:
        pytest.skip("Xvfb is not installed")
    with start_virtual_screen("1920x1200", 91) as display:
        yield display


def play_and_check(virtual_screen, tmp_path, game: str, scenario: str, steps: int,
                   min_colours: int) -> int:
    """Start the real program on ``game``, let the autopilot take ``steps`` steps, take a
    screenshot and save; check the picture is not blank and the save verifies. Returns the
    number of actions the save holds."""
    shot, save = tmp_path / f"{game}.png", tmp_path / f"{game}.sgsave"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"steps={steps};shot={shot};save={save};quit")
    done = subprocess.run([sys.executable, "-m", "struggle_desktop", "play", "--game", game,
                           "--scenario", scenario, "--seed", "5"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr

    from PySide6.QtGui import QImage
    image = QImage(str(shot))
    assert image.width() >= 800 and image.height() >= 600
    # Not a blank window: the table and the panels give many different colours.
    colours = {image.pixel(x, y) for x in range(0, image.width(), 37)
               for y in range(0, image.height(), 37)}
    assert len(colours) > min_colours

    verified = subprocess.run([sys.executable, "-m", "struggle_desktop", "verify", str(save),
                               "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    return json.loads(verified.stdout)["actions"]


def test_the_real_window_plays_a_step_and_saves_a_screenshot(virtual_screen, tmp_path):
    assert play_and_check(virtual_screen, tmp_path, "struggle", "3", 3, 50) == 3


def test_the_real_battles_window_plays_against_the_program_and_saves(virtual_screen, tmp_path):
    """The Battles screen in the real program: Blue (the autopilot, taking hints) against the
    program's Red; the screenshot is not blank and the save replays."""
    assert play_and_check(virtual_screen, tmp_path, "battles", "civil-war", 60, 30) >= 60


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
@pytest.mark.parametrize("game", ["battles", "nobles"])
def test_the_hand_over_screen_of_the_real_window_keeps_the_secret(virtual_screen, tmp_path,
                                                                  game):
    """BFG-HID-4, NH-SIM-2: two people at the real window. One side acts (Battles: from the
    start; Noble Houses: declares its launches in a nuclear exchange), the hand-over screen
    comes up, and the player who just finished presses Space, Enter and Alt+E (sent by
    xdotool as real keys).
    The screen stays up, no menu opens, and nothing the window shows or would show in a
    menu names the action just taken (the Edit menu once read "Undo <that action>")."""
    if game == "battles":
        start = ["play", "--game", "battles", "--scenario", "civil-war", "--seed", "5",
                 "--option", "red_player=human"]
    else:
        from tests.ui.helpers import save_before_two_people_declare

        exchange = tmp_path / "exchange.sgsave"
        save_before_two_people_declare(exchange)
        start = ["open", str(exchange)]
    mark, go = tmp_path / "mark.json", tmp_path / "go"
    texts, shot = tmp_path / "texts.json", tmp_path / "handover.png"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"handover=600;mark={mark};await={go};"
                                          f"texts={texts};shot={shot};quit")
    program = subprocess.Popen([sys.executable, "-m", "struggle_desktop", *start],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(1200):
            if mark.exists() or program.poll() is not None:
                break
            time.sleep(0.1)
        assert mark.exists(), program.communicate(timeout=10)[1][-2000:]
        secret = json.loads(mark.read_text())["action"]
        keys = dict(env, STRUGGLE_DESKTOP_AUTOPILOT="")
        # The pointer over the window gives it the keyboard (no window manager here).
        subprocess.run(["xdotool", "mousemove", "400", "300"], env=keys, check=True, timeout=30)
        for key in ("space", "Return", "KP_Enter", "alt+e"):
            subprocess.run(["xdotool", "key", key], env=keys, check=True, timeout=30)
            time.sleep(0.3)
        go.write_text("go")
        _, err = program.communicate(timeout=120)
    finally:
        if program.poll() is None:
            program.kill()
    assert program.returncode == 0 and "Traceback" not in err, err[-2000:]
    shown = json.loads(texts.read_text())
    assert shown["covered"] and shown["seat"] == "public"
    assert not shown["menu_bar_enabled"] and shown["popup"] is None
    words = json.dumps(shown)
    assert secret and secret not in words, (secret, words)
    assert shot.exists()


class MouseDriver:
    """Drives the real window like a person, through ``serve=DIR`` (ui/app.py): reads where
    things are on the screen, then moves, presses and releases the X pointer with xdotool."""

    def __init__(self, folder: Path, env: dict, program: subprocess.Popen):
        self.folder, self.env, self.program = folder, env, program
        self.seen = 0.0

    def look(self, command: str = "look") -> dict:
        screen = self.folder / "screen.json"
        before = screen.stat().st_mtime_ns if screen.exists() else 0
        if command:
            (self.folder / "next.part").write_text(command)
            os.replace(self.folder / "next.part", self.folder / "next")
        for _ in range(600):
            if screen.exists() and screen.stat().st_mtime_ns != before:
                return json.loads(screen.read_text())
            assert self.program.poll() is None, self.program.communicate()[1][-2000:]
            time.sleep(0.05)
        raise AssertionError("the window did not answer")

    def xdo(self, *args) -> None:
        subprocess.run(["xdotool", *map(str, args)], env=self.env, check=True, timeout=30)

    def drag(self, start, end) -> None:
        """Press at ``start``, move there in steps, release at ``end``."""
        self.xdo("mousemove", *start)
        time.sleep(0.1)
        self.xdo("mousedown", 1)
        for k in range(1, 9):
            x = start[0] + (end[0] - start[0]) * k // 8
            y = start[1] + (end[1] - start[1]) * k // 8
            self.xdo("mousemove", x, y)
            time.sleep(0.05)
        time.sleep(0.15)
        self.xdo("mouseup", 1)
        time.sleep(0.3)

    def double_click(self, at) -> None:
        self.xdo("mousemove", *at)
        time.sleep(0.1)
        self.xdo("click", "--repeat", 2, "--delay", 80, 1)
        time.sleep(0.3)

    def click(self, at) -> None:
        self.xdo("mousemove", *at)
        time.sleep(0.1)
        self.xdo("click", 1)
        time.sleep(0.3)


@pytest.mark.skipif(shutil.which("xdotool") is None, reason="xdotool is not installed")
def test_set_up_from_the_tray_and_a_turn_by_mouse_then_save_and_reopen(virtual_screen,
                                                                        tmp_path):
    """SGE-SEQ-21: a person sets up scenario 3 by dragging counters from the tray onto the map
    (the last ones by the program, with its button), plays turn 1 by mouse alone (a unit
    dragged in the movement phase, every other step ended with Continue), saves, and the
    reopened save holds exactly that game."""
    serve = tmp_path / "serve"
    serve.mkdir()
    save = tmp_path / "game.sgsave"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"serve={serve};quit")
    program = subprocess.Popen([sys.executable, "-m", "struggle_desktop", "play", "--game",
                                "struggle", "--scenario", "3", "--seed", "5"], cwd=ROOT, env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    mouse = MouseDriver(serve, dict(env, STRUGGLE_DESKTOP_AUTOPILOT=""), program)
    try:
        screen = mouse.look(command="")
        assert screen["prompt"] == "setup_placement" and screen["tray"]
        placed = 0
        for _ in range(3):                     # three units by hand, from the tray
            unit = next(p for p in screen["tray"] if not p["id"].startswith(("leader", "nexus")))
            home = screen["sectors"].get("1") or next(iter(screen["sectors"].values()))
            mouse.drag(unit["at"], home)
            after = mouse.look()
            assert unit["id"] in after["pieces"], f"{unit['id']} was not placed"
            assert unit["id"] not in [p["id"] for p in after["tray"]]
            screen, placed = after, placed + 1
        assert placed == 3
        moved = False
        for _ in range(60):                    # the rest of set-up and turn 1, by mouse
            if screen["turn"] and screen["turn"] >= 2 or screen["outcome"]:
                break
            if screen["prompt"] == "movement" and not moved and screen["moves"]:
                piece, targets = next(iter(screen["moves"].items()))
                target = next((str(n) for n in targets if str(n) in screen["sectors"]), None)
                if piece in screen["pieces"] and target is not None:
                    mouse.drag(screen["pieces"][piece], screen["sectors"][target])
                    moved, screen = True, mouse.look()
                    continue
            if screen["prompt"] == "setup_placement":      # the rest by the program's button
                mouse.double_click(screen["answers"]["auto_place"])
            elif screen["continue"]:
                mouse.click(screen["continue"])
            else:                              # a question of an event: its first answer
                assert screen["answers"], f"nothing to click at {screen['prompt']}"
                mouse.double_click(next(iter(screen["answers"].values())))
            screen = mouse.look()
        if not (screen["turn"] >= 2 or screen["outcome"]):
            mouse.look(f"shot {tmp_path / 'stuck.png'}")
            os.environ.get("KEEP_E2E") and shutil.copy(tmp_path / "stuck.png", "/tmp/stuck.png")
        assert screen["turn"] >= 2 or screen["outcome"], screen
        mouse.look(f"save {save}")
        (serve / "next").write_text("done")
        _, err = program.communicate(timeout=120)
    finally:
        if program.poll() is None:
            program.kill()
    assert program.returncode == 0 and "Traceback" not in err, err[-2000:]
    verified = subprocess.run([sys.executable, "-m", "struggle_desktop", "verify", str(save),
                               "--json"], cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=120)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    document = json.loads(save.read_text())
    verbs = [entry["action"]["verb"] for entry in document["actions"]]
    assert verbs[:3] == ["place", "place", "place"] and "auto_place" in verbs
    assert moved and "move" in verbs, "a unit was dragged in the movement phase"
    assert document["snapshot"]["turn"] >= 2 or document["snapshot"]["outcome"]


def test_the_real_window_forecasts_a_saved_game_and_steps_back(virtual_screen, tmp_path):
    """Open a save in the real program, run a forecast in the Forecast panel (its games in
    worker processes the window starts), then step back three actions: the window says it
    is looking back, where, and what the forecast rests on."""
    save, texts, shot = tmp_path / "game.sgsave", tmp_path / "texts.json", tmp_path / "f.png"
    env = dict(os.environ, DISPLAY=virtual_screen, QT_QPA_PLATFORM="xcb",
               PYTHONPATH=str(ROOT), STRUGGLE_DESKTOP_HOME=str(tmp_path / "home"),
               STRUGGLE_DESKTOP_AUTOPILOT=f"steps=12;save={save};quit")
    done = subprocess.run([sys.executable, "-m", "struggle_desktop", "play", "--game", "struggle",
                           "--scenario", "3", "--seed", "5"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr[-2000:]
    env["STRUGGLE_DESKTOP_AUTOPILOT"] = f"forecast=60;back=3;texts={texts};shot={shot};quit"
    done = subprocess.run([sys.executable, "-m", "struggle_desktop", "open", str(save)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr
    shown = json.loads(texts.read_text())
    assert shown["looking_back"] and shown["timeline"].startswith("Action 9 of 12")
    assert "looking back at action 9 of 12" in shown["title"]
    assert "60 games" in shown["forecast"] and "From action 12" in shown["forecast"]
    from PySide6.QtGui import QImage
    assert not QImage(str(shot)).isNull()
