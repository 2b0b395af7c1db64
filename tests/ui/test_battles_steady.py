"""The Battles window keeps its commands and its words in reach and still under the hand:

* in reach: at 1366x768 the answer list, Hint and Do it are shown whole without scrolling, and
  so is a button of its own for each step's "Done" (Done deploying was far down the answer
  list: a player found it only by typing "done" in the filter);
* readable: the table's text at the first view is at least 9 px tall on a 1366x768 screen
  (font pixel size times the view's scale), and no word on the table overlaps another (the
  turn ran into the Chaos Index track);
* a fight's mini-map stays open after the fight's end, showing where its fleets went, until
  the player closes it or answers the next question;
* after any answer, no enabled control under the pointer has become another one.

The screen-size checks run in a child process each: the offscreen screen's size is fixed when
the application starts (``conftest.offscreen_platform``).
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication

from conftest import run_on_screen
from struggle_desktop.ui.battles.window import BattlesWindow
from tests.ui.helpers import window_maker


#: Shared by the child process and the tests here: the table's words and where they are.
TEXTS = r'''
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem


def board_texts(scene):
    """(words, scene rectangle of the words, font pixel size) of every text on the table a
    player can see: the words under an open battle mini-map are hidden by it."""
    out = []
    for item in scene.items():
        if isinstance(item, QGraphicsSimpleTextItem):
            words, rect = item.text(), item.sceneBoundingRect()
        elif isinstance(item, QGraphicsTextItem):
            margin = item.document().documentMargin()
            words = item.toPlainText()
            rect = item.sceneBoundingRect().adjusted(margin, margin, -margin, -margin)
        else:
            continue
        if not words.strip() or not item.isVisible():
            continue
        if (scene.battle_rect is not None and item.zValue() < 25
                and scene.battle_rect.intersects(rect)):
            continue
        out.append((words, rect, QFontInfo(item.font()).pixelSize()))
    return out


def overlaps(scene):
    """Every pair of the table's visible texts whose rectangles meet."""
    texts = board_texts(scene)
    return [f"{a!r} overlaps {b!r}" for k, (a, ra, _) in enumerate(texts)
            for b, rb, _ in texts[k + 1:] if ra.intersects(rb)]
'''
exec(TEXTS)

#: Run in a child process on a screen of the given size; prints one JSON object.
PROBE = TEXTS + r'''
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.battles.window import BattlesWindow
from tests.ui.probes import settle, whole

app = make_application()
report = {"problems": []}


def check_reach(win, moment):
    dock = win.decision_dock
    for name in ("choices", "do_button", "hint_button"):
        if not whole(getattr(dock, name)):
            report["problems"].append(f"{moment}: the Decision panel's {name} is cut off")
    for button in getattr(win.table_dock, "step_buttons", {}).values():
        if not whole(button):
            report["problems"].append(f"{moment}: {button.text()!r} is cut off")


def reachable_done(win, words):
    """How the answer ``words`` is reached at once: its own enabled button shown whole, or
    its row in the answer list in view without scrolling; None if it is not."""
    from PySide6.QtWidgets import QPushButton
    for button in win.findChildren(QPushButton):
        if button.text().replace("&", "") == words and button.isEnabled() and whole(button):
            return "button"
    choices = win.decision_dock.choices
    for row in range(choices.count()):
        item = choices.item(row)
        if item.text() == words and not item.isHidden():
            rect = choices.visualItemRect(item)
            if whole(choices) and choices.viewport().rect().contains(rect):
                return "row"
    return None


settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
win = BattlesWindow(settings=settings)
win.show()
win.new_game("battles", "civil-war", 5, {"blue_player": "human", "red_player": "bot"})
settle()
if win.overlay.isVisible():
    win.take_seat()
settle()
scale = win.view.transform().m11()
report["scale"] = scale
report["smallest"] = sorted((px * scale, words) for words, _, px in board_texts(win.scene))[:3]
report["problems"] += [f"at the start: {o}" for o in overlaps(win.scene)]
check_reach(win, "at the start")
doc = win.document
for _ in range(400):
    settle()
    if win.overlay.isVisible():
        win.take_seat()
        continue
    prompt = (doc.board or {}).get("prompt")
    if prompt and prompt["kind"] == "deploy" and any(
            e["action"]["verb"] == "done" for e in prompt["actions"]):
        break
    if doc.waiting_role != doc.seat:
        win.program_step()
        continue
    action = doc.hint()
    if action["verb"] == "done" and prompt["kind"] == "deploy":
        break
    win.perform(action)
settle()
report["deploy_done"] = reachable_done(win, "Done deploying")
report["problems"] += [f"every fleet placed: {o}" for o in overlaps(win.scene)]
check_reach(win, "every fleet placed")
win.document.dirty = False
win.close()
print(json.dumps(report))
'''


def probe(width: int, height: int, tmp_path) -> dict:
    return run_on_screen(PROBE, tmp_path, width, height)


@pytest.fixture(scope="module")
def laptop(tmp_path_factory):
    return probe(1366, 768, tmp_path_factory.mktemp("laptop"))


def test_done_deploying_is_in_reach_at_once_at_1366x768(laptop):
    """Every fleet placed: "Done deploying" is an enabled button shown whole, or a row of the
    answer list in view, without scrolling or typing in the filter."""
    assert laptop["deploy_done"] is not None


def test_answers_hint_do_it_and_step_buttons_are_shown_whole_at_1366x768(laptop):
    assert laptop["problems"] == []


def test_the_tables_text_is_at_least_9_px_at_the_first_view_at_1366x768(laptop):
    """Font pixel size times the view's scale, for the smallest text on the table ("RP 30",
    "Force pool", "Common pool" were 5-6 px)."""
    px, words = laptop["smallest"][0]
    assert px >= 9, f"{words!r} is {px:.1f} px tall"


def test_at_1920x1080_too_everything_is_in_reach_and_no_text_overlaps(tmp_path):
    report = probe(1920, 1080, tmp_path)
    assert report["problems"] == []
    assert report["deploy_done"] is not None
    assert report["smallest"][0][0] >= 9


# ------------------------------------------------------------------ in this process
@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, BattlesWindow)


def start(win, seed=5):
    """A new game against the program, whose moves are made here one at a time (its own
    timer is paused, so a test sees each moment)."""
    assert win.new_game("battles", "civil-war", seed, {"blue_player": "human",
                                                       "red_player": "bot"})
    win.program.paused = True
    if win.overlay.isVisible():
        win.take_seat()


def program_move(win) -> None:
    """One move of the paused program."""
    win.program.paused = False
    try:
        win.program_step()
    finally:
        win.program.paused = True


def answer(win) -> bool:
    """One step of the game: the program's move, or the hint answered for the person."""
    QApplication.processEvents()
    doc = win.document
    if doc.board.get("outcome") or doc.waiting_role is None:
        return False
    if doc.waiting_role != doc.seat:
        program_move(win)
        return True
    return win.perform(doc.hint())


def test_no_word_on_the_table_overlaps_another_through_a_game(make_window):
    """The turn and phase, the Chaos Index track and its numbers, the displays' lines, the
    regions and the battle mini-map, at every step of two turns."""
    win = make_window()
    start(win)
    problems: set[str] = set()
    fights = 0
    for _ in range(600):
        problems.update(overlaps(win.scene))
        fights += win.scene.battle_rect is not None
        if win.document.board["turn"] > 2 or not answer(win):
            break
    assert fights, "no fight was seen"
    assert sorted(problems) == []


def title_of(scene) -> str:
    return next((w for w, _, _ in board_texts(scene) if w.startswith("Battle in ")), "")


def play_to_a_finished_fight(win):
    """Answer until a fight ends; returns the fight's last entry."""
    last = None
    for _ in range(800):
        battle = win.document.board["battle"]
        if battle is None and last is not None:
            return last
        last = battle
        assert answer(win)
    raise AssertionError("no fight ended")


def test_a_finished_fight_stays_on_the_table_until_the_player_closes_it(make_window, qtbot):
    """The mini-map closed the moment the last target was dropped: nobody saw the fleets go
    to Return to base or Eliminated. Now it stays, says the fight is over and who holds the
    region, and shows where each fleet went, until its Close button is clicked."""
    win = make_window()
    start(win)
    fight = play_to_a_finished_fight(win)
    QApplication.processEvents()
    scene = win.scene
    assert scene.battle_rect is not None
    assert "is over" in title_of(scene)
    board = win.document.board
    gone = [f for f in fight["firing"]["blue"] + fight["firing"]["red"]
            if board["fleets"][f]["at"] in ("display", "common", "supply")]
    assert gone, "every fleet of the fight stayed"
    shown = {w for w, _, _ in board_texts(scene)}
    assert {"Return to base", "Eliminated"} <= shown
    # Each fleet that left is drawn in the box of where it went, inside the mini-map.
    boxes = {item.fleet_id for item in scene.items() if hasattr(item, "fleet_id")
             and item.zValue() == 29}
    assert set(gone) <= boxes
    # Bot moves do not close it; the Close button does.
    button = scene.close_button
    assert button is not None
    point = win.view.mapFromScene(button.sceneBoundingRect().center())
    QTest.mouseClick(win.view.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, point)
    qtbot.waitUntil(lambda: "is over" not in title_of(win.scene))


def test_a_finished_fight_closes_when_the_player_answers_the_next_question(make_window):
    win = make_window()
    start(win)
    play_to_a_finished_fight(win)
    assert "is over" in title_of(win.scene)
    doc = win.document
    while doc.waiting_role != doc.seat:          # the program's moves leave it open
        program_move(win)
        QApplication.processEvents()
        if doc.board["battle"] is not None:
            return                               # a new fight replaced it
        assert "is over" in title_of(win.scene)
    assert win.perform(doc.hint())
    QApplication.processEvents()
    assert "is over" not in title_of(win.scene)


# ------------------------------------------------------------------ stays still
def controls(win) -> dict[tuple[int, int], tuple]:
    """The enabled controls of the window's panels, by the window point at their middle:
    step, Hint and Do it buttons, and the rows of the hand. (The answer list's rows are the
    shared Decision panel's, checked with every window's.)"""
    found = {}
    for button in win.findChildren(QAbstractButton):
        if button.isVisible() and button.isEnabled() and button.window() is win:
            point = button.mapTo(win, button.rect().center())
            found[point.toTuple()] = ("button", button.text())
    for listing in (win.hand_dock.chits,):
        if not listing.isVisible():
            continue
        for row in range(listing.count()):
            item = listing.item(row)
            rect = listing.visualItemRect(item)
            if (item.isHidden() or not item.flags() & Qt.ItemFlag.ItemIsEnabled
                    or not listing.viewport().rect().contains(rect.center())):
                continue
            point = listing.viewport().mapTo(win, rect.center())
            found[point.toTuple()] = ("row", item.text())
    return found


def control_at(win, point: tuple[int, int]) -> tuple | None:
    """The enabled control at a window point now (None: nothing enabled there)."""
    widget = win.childAt(QPoint(*point))
    if widget is None:
        return None
    if isinstance(widget, QAbstractButton):
        return ("button", widget.text()) if widget.isEnabled() else None
    listing = widget.parent()
    if listing is win.hand_dock.chits and widget is listing.viewport():
        item = listing.itemAt(widget.mapFrom(win, QPoint(*point)))
        if item is None or not item.flags() & Qt.ItemFlag.ItemIsEnabled:
            return None
        return ("row", item.text())
    return None


def test_after_any_answer_no_control_under_the_pointer_becomes_another(make_window):
    """A played game against the program, answered through the window: after each answer,
    every enabled control that was under some pointer position is still there, or is now
    disabled. A hand's row no longer slides up when a chit is played (a second double-click
    played the next chit), and each step has its own Done button (one button taking the
    next step's meaning would skip that step on a second click)."""
    win = make_window()
    start(win)
    doc = win.document
    moved: list[str] = []
    answers = plays = 0
    for _ in range(900):
        QApplication.processEvents()
        if doc.board.get("outcome") or doc.board["turn"] > 4:
            break
        if doc.waiting_role != doc.seat:
            program_move(win)
            continue
        before = controls(win)
        action = doc.hint()
        plays += action["verb"] == "play"
        assert win.perform(action)
        answers += 1
        QApplication.processEvents()
        for point, control in before.items():
            now = control_at(win, point)
            if now is None or now == control:
                continue
            moved.append(f"after {action}: {control} became {now}")
    assert answers > 30 and plays, (answers, plays)
    assert moved == []
