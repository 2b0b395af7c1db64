"""Learn to Play, Struggle: the guided first game (``assets/guides/struggle.yaml``) is played to
its end through the window, at 1366x768, by the gestures each step asks for (a drag from the
tray or on the map, a click on a sector and the attack's odds window, an answer and Do it, the
button the step points at, Next: mouse and drop events on the widgets). Every step's target
must exist, be in view on the screen and not be covered by the callout, which stays over the
map beside a sector (the panels' lists and buttons are left free); while the Chaos side's
moves are narrated, so must each move's sector, and each move must have its sentence.
A change of the rules, the dice or the window that breaks the guide's story fails here. (The
Battles and Noble Houses guides are played by their own tests.)

The window runs in a child process: the offscreen screen's size is fixed when the application
starts (``conftest.offscreen_platform``).
"""

from __future__ import annotations

import pytest

from conftest import run_on_screen


PROBE = r"""
import json, os, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QPoint, QRect, QSettings, Qt, QTimer
from PySide6.QtCore import QPointF
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton
from struggle_desktop.ui.docks.tray import piece_mime
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.learn.loader import available_guides, load_guide
from struggle_desktop.ui.learn.runner import GuideRunner
from struggle_desktop.ui.screens import window_class

app = make_application()
problems, walked, told, odds, story = [], [], [], [], []
SHOTS = os.environ.get("GUIDE_SHOTS")       # a folder: a picture of every step (to look at)
path = os.environ.get("GUIDE_FILE")         # another guide file (to see this test fail)
guides = [load_guide(path)] if path else [g for g in available_guides()
                                          if g.id == "struggle-first-game"]


def settle():
    for _ in range(10):
        app.processEvents()


def click(button):
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    settle()


def roll_the_die():
    # The attack's odds window (modal): what it shows is kept, then "Roll the die".
    dialog = QApplication.activeModalWidget()
    if dialog is None or dialog.objectName() != "combat-dialog":
        QTimer.singleShot(50, roll_the_die)
        return
    odds.append(" ".join(w.text() for w in dialog.findChildren(type(dialog.roll_button))))
    from PySide6.QtWidgets import QLabel
    odds.append(" ".join(label.text() for label in dialog.findChildren(QLabel)))
    settle()
    note = dialog.findChild(QLabel, "learn-dialog-note")
    odds.append(note.text() if note is not None and note.isVisible() else "")
    screen = dialog.screen().availableGeometry()
    if not screen.contains(dialog.frameGeometry()):
        problems.append(f"the odds window {dialog.frameGeometry().getRect()} leaves the screen")
    if SHOTS:
        dialog.grab().save(os.path.join(SHOTS, "odds.png"))
    dialog.roll_button.click()


def answer(window, runner, wanted):
    # The normal means of each kind of answer: a drag, a click on the map, the button the
    # step points at, or the answer's line in the Decision list and Do it.
    while window.playback.active:         # the Chaos side's steps on show: "Show the end now"
        click(window.turn_dock.continue_button)
    verb = wanted["verb"]
    view = window.view
    name = runner.step.target.get("widget")
    pointed = runner.find_widget(name) if name else None
    if verb == "place":                   # a drop from the Set-up panel onto the sector
        at = view.mapFromScene(window.scene.sector_center(wanted["at"]))
        mime = piece_mime(wanted["unit"])
        move, left, none = Qt.DropAction.MoveAction, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        app.sendEvent(view.viewport(), QDragEnterEvent(at, move, mime, left, none))
        app.sendEvent(view.viewport(), QDragMoveEvent(at + QPoint(1, 1), move, mime, left, none))
        app.sendEvent(view.viewport(), QDropEvent(QPointF(at), move, mime, left, none))
    elif verb == "move":                  # a drag of the counter on the map
        item = window.scene.piece_item(wanted["unit"])
        start = view.mapFromScene(item.sceneBoundingRect().center())
        end = view.mapFromScene(window.scene.sector_center(wanted["to"]))
        left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
        QTest.mousePress(view.viewport(), left, none, start)
        QTest.mouseMove(view.viewport(), start + QPoint(6, 6))
        QTest.mouseMove(view.viewport(), (start + end) / 2)
        QTest.mouseMove(view.viewport(), end)
        QTest.mouseRelease(view.viewport(), left, none, end)
    elif verb in ("buy_unit", "attack"):  # a click on the sector, then the menu's line
        at = view.mapFromScene(window.scene.sector_center(wanted["at"]))
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
        settle()
        menu = window.sector_menu
        if menu is not None and menu.isVisible():
            act = next(a for a in menu.actions()
                       if all(a.data().get(k) == v for k, v in wanted.items()))
            menu.close()
            if verb == "attack":
                QTimer.singleShot(0, roll_the_die)
            act.trigger()
    elif isinstance(pointed, QPushButton) and pointed.objectName() != "decision-do-it":
        click(pointed)                    # Continue, Done recruiting: the button shown
    elif verb == "done":
        click(window.turn_dock.continue_button)
    else:
        dock = window.decision_dock
        dock.raise_()
        settle()
        items = [dock.choices.item(i) for i in range(dock.choices.count())]
        item = next(i for i in items if all(
            (i.data(Qt.ItemDataRole.UserRole) or {}).get(k) == v for k, v in wanted.items()))
        dock.choices.setCurrentItem(item)
        click(dock.do_button)
    settle()


for guide in guides:
    settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
    window = window_class(guide.game)(settings=settings)
    window.show()
    settle()
    runner = GuideRunner(window, guide)
    assert runner.start()
    screen = window.screen().availableGeometry()
    def look(where):
        target = runner.target_rect()
        if target is None:
            problems.append(f"{where}: its target {step.target} is missing or hidden")
        else:
            on_screen = QRect(window.mapToGlobal(target.topLeft()), target.size())
            if not screen.contains(on_screen.center()):
                problems.append(f"{where}: its target lies off the screen at {on_screen.getRect()}")
            box = runner.callout.geometry()
            if box.intersects(target) and target.width() < window.width() // 2:
                problems.append(f"{where}: the callout {box.getRect()} covers its target")
            if not window.rect().contains(box):
                problems.append(f"{where}: the callout {box.getRect()} leaves the window")
            centre = window.centralWidget()
            over_map = QRect(centre.mapTo(window, QPoint(0, 0)), centre.size())
            if runner._sector_of(runner.step) is not None and not over_map.contains(box):
                # Beside a sector the box stays over the map: the panels' lists and
                # buttons (the attack's line, Do it) are left free.
                problems.append(f"{where}: the callout {box.getRect()} covers the panels")
        if SHOTS:
            name = f"{len(walked) + 1:02d}-{where.split()[-1]}.png"
            window.grab().save(os.path.join(SHOTS, name))

    for k, step in enumerate(guide.steps):
        settle()
        where = f"{guide.id} step {k + 1} ({step.id})"
        if runner.index != k:
            problems.append(f"{where}: the guide is at step {runner.index + 1}")
            break
        look(where)
        before = len(window.document.session.actions)
        if step.narrate:
            # One move of the Chaos side at a time, each told and pointed at, until the
            # guide goes on by itself after the last.
            for move in range(100):
                if runner.index != k:
                    break
                if runner._told:
                    told.append(runner._told["lines"])
                    look(f"{where} move {move + 1}")
                click(runner.callout.next)
            if runner.index == k:
                problems.append(f"{where}: the narration did not end")
        elif step.wanted is None:
            click(runner.callout.next)
        else:
            if runner.callout.next.isVisible():
                problems.append(f"{where}: Next is offered before the move is made")
            answer(window, runner, step.wanted)
            if len(window.document.session.actions) == before:
                problems.append(f"{where}: {step.wanted} was not performed")
                break
        walked.append(step.id)
    if runner.active:
        problems.append(f"{guide.id}: the guide did not finish after its last step")
    story = [e["text"] for e in window.document.log_entries()]
    window.document.dirty = False
    window.close()
print(json.dumps({"problems": problems, "walked": walked, "told": told, "odds": odds,
                  "story": story}))
"""


@pytest.fixture(scope="module")
def walk(tmp_path_factory):
    """One walk of the guide through the window (a child process), for the tests below."""
    return run_on_screen(PROBE, tmp_path_factory.mktemp("learn-play"))


def test_the_struggle_guide_plays_to_its_end_at_1366x768(walk):
    """SGE-SEQ-1 (a whole turn), SGE-CMB-15 (the odds before the roll): every step, every
    narrated move of the Chaos side with its own sentence, and the attack's odds window."""
    report = walk
    assert report["problems"] == [], "\n".join(report["problems"])
    from struggle_desktop.ui.learn.loader import guide_for
    assert report["walked"] == [s.id for s in guide_for("struggle").steps]
    # The Chaos side's moves were told one by one, each in the game's own words.
    lines = [line for move in report["told"] for line in move]
    assert len(report["told"]) >= 5 and all(move for move in report["told"])
    assert any("Invader force" in line and "move" in line for line in lines)
    # The attack was walked through its odds window before the die was rolled.
    assert report["odds"] and "Roll the die" in report["odds"][0].replace("&", "")
    assert "1 your attack against 1 their defence" in report["odds"][1]
    assert "60 %" in report["odds"][1]
    # The guide goes on inside the odds window: its words for it are at its top.
    assert "The odds: 1 against 1" in report["odds"][2]


#: What the steps' words say happened (struggle.yaml, seed 11), as the game's log says it.
STORY = [
    "Chaos Events: 6 draw(s)",                          # turn-panel: six draws at 50
    "Aliens—Biomech Predators appears in 50",           # biomech
    "Chaos Index 50 -> 43",                             # chaos-index
    "Suppression of Invaders Appear: d10 0",            # chaos-moves: the die came up 0
    "Resource Points 20 -> 92",                         # income
    "maintenance of 26 RP",                             # maintenance
    "Resource Points 66 -> 63: SF recruited",           # recruit: 3 RP
    "Rebel force in 45: 1 unit(s) move from 45 to 66",  # move: the Rebel fleet in 66
    "AF-05 moves 01 -> 66 (3 MA)",                      # move: 3 movement points
    "Combat die: d10 8",                                # attack-result: the die showed 8
    "Combat result in 66: D2",
    "AF-01 in 66 changes side and is now Imperial",
    "Chaos Index 44 -> 42",
    "Resource Points 63 -> 56: extropy operation",      # extropy: 7 RP
    "The extropy operation leaves the CI unchanged",    # end-turn: the index stays at 42
]


def test_the_struggle_guide_tells_what_happens(walk):
    """The facts the steps state (draws, dice, RP, the attack's result) are in the log of the
    game the guide played: a change of the dice or the rules that makes a step's words
    untrue fails here. (SGE-CMB-9: the Rebels change sides.)"""
    log = "\n".join(walk["story"])
    missing = [fact for fact in STORY if fact not in log]
    assert missing == []
