"""Learn to Play, Struggle: its guide is played to its end through the window, at 1366x768,
by the gestures each step asks for (a drag from the tray or on the map, a click on a sector, an
answer and Do it, Continue, Next: mouse and drop events on the widgets); every step's target must exist, be in view on the screen
and not be covered by the callout. A change of the rules, the dice or the window that breaks
a guide's story fails here. (Another game's guide has a test of its own, such as
test_learn_battles.py.)

The window runs in a child process: the offscreen screen's size is fixed when the application
starts (``conftest.offscreen_platform``).
"""

from __future__ import annotations

from conftest import run_on_screen


PROBE = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QPoint, QRect, QSettings, Qt
from PySide6.QtCore import QPointF
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtTest import QTest
from struggle_desktop.ui.docks.tray import piece_mime
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.learn.loader import available_guides
from struggle_desktop.ui.learn.runner import GuideRunner
from struggle_desktop.ui.screens import window_class

app = make_application()
problems, walked = [], []


def settle():
    for _ in range(10):
        app.processEvents()


def click(button):
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    settle()


def answer(window, wanted):
    # The normal means of each kind of answer: a drag, a click on the map, Continue, or the
    # answer's line in the Decision list and Do it.
    while window.playback.active:         # the Chaos side's steps on show: "Show the end now"
        click(window.turn_dock.continue_button)
    verb = wanted["verb"]
    view = window.view
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
    elif verb == "buy_unit":              # a click on the sector, then the menu's line
        at = view.mapFromScene(window.scene.sector_center(wanted["at"]))
        QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
        settle()
        menu = window.sector_menu
        if menu is not None and menu.isVisible():
            act = next(a for a in menu.actions()
                       if all(a.data().get(k) == v for k, v in wanted.items()))
            menu.close()
            act.trigger()
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


for guide in [g for g in available_guides() if g.game == "struggle"]:
    settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
    window = window_class(guide.game)(settings=settings)
    window.show()
    settle()
    runner = GuideRunner(window, guide)
    assert runner.start()
    screen = window.screen().availableGeometry()
    for k, step in enumerate(guide.steps):
        settle()
        where = f"{guide.id} step {k + 1} ({step.id})"
        if runner.index != k:
            problems.append(f"{where}: the guide is at step {runner.index + 1}")
            break
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
        before = len(window.document.session.actions)
        if step.wanted is None:
            click(runner.callout.next)
        else:
            if runner.callout.next.isVisible():
                problems.append(f"{where}: Next is offered before the move is made")
            answer(window, step.wanted)
            if len(window.document.session.actions) == before:
                problems.append(f"{where}: {step.wanted} was not performed")
                break
        walked.append(step.id)
    if runner.active:
        problems.append(f"{guide.id}: the guide did not finish after its last step")
    window.document.dirty = False
    window.close()
print(json.dumps({"problems": problems, "walked": walked}))
"""


def test_every_guide_plays_to_its_end_at_1366x768(tmp_path):
    report = run_on_screen(PROBE, tmp_path)
    assert report["problems"] == [], "\n".join(report["problems"])
    from struggle_desktop.ui.learn.loader import available_guides
    assert report["walked"] == [s.id for g in available_guides() if g.game == "struggle"
                                  for s in g.steps]
