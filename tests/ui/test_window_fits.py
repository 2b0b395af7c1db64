"""Every game window fits the screen it opens on: the commonest laptop screen (1366x768) and a
desktop one (1920x1080). After the start, after every panel has been shown and after Reset
Layout, the window's frame lies on the screen, every panel in view has room to be read and
every list in view shows several rows; the dialogs fit too.

Each screen size runs in a process of its own: the offscreen platform's screen is fixed when
the application starts (``conftest.offscreen_platform``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import offscreen_platform

ROOT = Path(__file__).resolve().parents[2]

#: A game of each kind, as a new user would start it.
GAMES = [("struggle", "3"), ("battles", "civil-war"), ("nobles", "standard"), ("freedom", "a1")]

#: Run in a child process; prints one JSON list of problems.
PROBE = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QAbstractItemView, QDialog
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.fit import fits
from struggle_desktop.ui.screens import window_class

MIN_PANEL_HEIGHT = 60    # a title and two lines of text
MIN_ROWS = 3

app = make_application()
problems = []


def settle():
    for _ in range(20):
        app.processEvents()


def check(window, moment):
    settle()
    where = f"{window.game_id} {moment}"
    if not fits(window):
        problems.append(f"{where}: the window {window.frameGeometry().getRect()} is not on "
                        f"the screen {window.screen().availableGeometry().getRect()}")
    for dock in window.docks:
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue                    # behind another panel's tab
        if dock.height() < MIN_PANEL_HEIGHT:
            problems.append(f"{where}: panel {dock.objectName()} is {dock.height()} px tall")
        for view in dock.findChildren(QAbstractItemView):
            if not view.isVisible():
                continue
            row = view.sizeHintForRow(0) if view.model() and view.model().rowCount() else -1
            row = row if row > 0 else view.fontMetrics().height()
            rows = view.viewport().height() / row
            if rows < MIN_ROWS:
                problems.append(f"{where}: a list of {dock.objectName()} shows {rows:.1f} rows")


def check_dialog(dialog, name):
    dialog.show()
    settle()
    if not fits(dialog):
        problems.append(f"dialog {name} {dialog.frameGeometry().getRect()} is not on the "
                        f"screen {dialog.screen().availableGeometry().getRect()}")
    dialog.close()


for game_id, scenario in json.loads(sys.argv[2]):
    settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
    window = window_class(game_id)(settings=settings)
    window.show()
    window.new_game(game_id, scenario, 7, {})
    check(window, "at the start")
    for dock in window.docks:
        dock.show()
    check(window, "with every panel shown")
    window.reset_layout()
    check(window, "after Reset Layout")
    if game_id == "struggle":
        from struggle_desktop.ui.dialogs.about import AboutDialog
        from struggle_desktop.ui.dialogs.house_rules import HouseRulesDialog
        from struggle_desktop.ui.dialogs.new_game import NewGameDialog
        check_dialog(NewGameDialog(window), "New Game")
        check_dialog(HouseRulesDialog(window.document.game, window), "House Rules")
        check_dialog(AboutDialog(window), "About")
    window.document.dirty = False
    window.close()
print(json.dumps(problems))
"""


@pytest.mark.parametrize("width, height", [(1366, 768), (1920, 1080)])
def test_every_window_fits_the_screen(width, height, tmp_path):
    env = dict(os.environ, STRUGGLE_DESKTOP_HOME=str(tmp_path),
               QT_QPA_PLATFORM=offscreen_platform(
                   {"name": "probe", "x": 0, "y": 0, "width": width, "height": height,
                    "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}))
    done = subprocess.run([sys.executable, "-c", PROBE, str(ROOT), json.dumps(GAMES)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    problems = json.loads(done.stdout.strip().splitlines()[-1])
    assert problems == [], "\n".join(problems)
