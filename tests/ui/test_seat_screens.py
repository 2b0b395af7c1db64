"""A seat's screen is a function of that seat's view (ARCHITECTURE.md section 5; BFG-HID-3,
BFG-HID-4, BFG-HID-5, BFG-HID-11, NH-SIM-2, FIG-EVT): after a hand-over nothing on screen was
made for the player before.

The property is checked on the real windows (offscreen) with twin games: two windows play the
same game, and differ only in what the side that hands the computer over keeps to itself:
the words it typed in the Decision and Log filters (their undo histories included), the
number of its secret steps (a fleet moved about its display before the plan is done), the
chits chance gave it (its secret draws came out otherwise), the nuke a house declared it
launches (or holds back). At every hand-over screen, and once the next player has taken the seat, every
text, number and image every widget of the two windows holds must be the same
(``screen_of``): labels, buttons, line edits and what their Undo brings back, list, tree and
table models, tooltips, the window title, the status bar, the timeline bar's words and
slider (which move over moments every seat may see, so the other side's secret steps are
not counted), the map scene's items and a picture of it, every panel (docked or floated).

Before the panels were built afresh at each seat change, the Dice panel kept the other
side's secret draws, and the Decision filter's undo and the Log filter kept its words; before
the hand-over screen disabled what is behind it and covered floated panels, Tab reached the
widgets behind and a floated panel showed its contents.
"""

from __future__ import annotations

import hashlib
from contextlib import contextmanager

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QAbstractListModel, QCoreApplication, QEvent, QRectF, Qt
from PySide6.QtGui import QImage, QPainter
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSlider,
                               QAbstractSpinBox, QApplication, QComboBox, QDockWidget,
                               QGraphicsView, QLabel, QLineEdit, QPlainTextEdit, QProgressBar,
                               QTextEdit, QWidget)

from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles.context import Ctx
from struggle_desktop.ui.battles.window import BattlesWindow
from struggle_desktop.ui.freedom.window import FreedomWindow
from struggle_desktop.ui.nobles.window import NoblesWindow

TWO_PEOPLE = {"blue_player": "human", "red_player": "human"}
SCREEN = (1366, 768)


# ====================================================================== what a screen holds
def settle_events() -> None:
    """Let the window finish: pending events, and the widgets of the seat before deleted."""
    for _ in range(2):
        QApplication.processEvents()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)


def undo_trail(edit: QLineEdit) -> list[str]:
    """What Ctrl+Z would bring back in ``edit``, step by step (then redone, as it was)."""
    trail, steps = [], 0
    while edit.isUndoAvailable() and steps < 30:
        edit.undo()
        steps += 1
        trail.append(edit.text())
    for _ in range(steps):
        edit.redo()
    return trail


def model_rows(model, parent=None, depth=0) -> list:
    from PySide6.QtCore import QModelIndex
    parent = parent or QModelIndex()
    rows = []
    try:
        columns = max(1, model.columnCount(parent))
    except TypeError:        # a list model keeps its one column to itself
        columns = 1
    for r in range(model.rowCount(parent)):
        for c in range(columns):
            index = model.index(r, c, parent)
            rows.append((depth, r, c, *(str(model.data(index, role)) for role in (
                Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.ToolTipRole,
                Qt.ItemDataRole.UserRole, Qt.ItemDataRole.CheckStateRole))))
        first = model.index(r, 0, parent)
        if depth < 4 and not isinstance(model, QAbstractListModel) and model.rowCount(first):
            rows += model_rows(model, first, depth + 1)      # a tree's branches
    return rows


def scene_of(view: QGraphicsView) -> list:
    scene = view.scene()
    if scene is None:
        return ["no scene"]
    rows = []
    for item in scene.items(Qt.SortOrder.AscendingOrder):
        text = (item.toPlainText() if hasattr(item, "toPlainText")
                else item.text() if hasattr(item, "text") else "")
        rows.append((type(item).__name__, round(item.pos().x(), 2), round(item.pos().y(), 2),
                     item.zValue(), item.isVisible(), item.toolTip(), text,
                     repr(getattr(item, "fleet", None)), repr(getattr(item, "unit", None))))
    image = QImage(480, 300, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    scene.render(painter, QRectF(0, 0, 480, 300), scene.sceneRect())
    painter.end()
    rows.append(("picture", hashlib.sha256(bytes(image.constBits())).hexdigest()))
    return rows


def widget_facts(w: QWidget) -> tuple:
    facts: list = [type(w).__name__, w.objectName(), w.isHidden(), w.isEnabled(), w.toolTip()]
    if w.isWindow():
        facts.append(w.windowTitle())
    if isinstance(w, QLabel):
        facts.append(w.text())
    elif isinstance(w, QAbstractButton):
        facts += [w.text(), w.isChecked()]
    elif isinstance(w, QLineEdit):
        facts += [w.text(), w.placeholderText(), undo_trail(w), w.isRedoAvailable()]
    elif isinstance(w, QTextEdit):
        facts.append(w.toHtml())
    elif isinstance(w, QPlainTextEdit):
        facts.append(w.toPlainText())
    elif isinstance(w, QComboBox):
        facts += [w.currentText(), [w.itemText(k) for k in range(w.count())]]
    elif isinstance(w, QAbstractSpinBox):
        facts.append(w.text())
    elif isinstance(w, QAbstractSlider):
        facts += [w.minimum(), w.maximum(), w.value()]
    elif isinstance(w, QProgressBar):
        facts += [w.minimum(), w.maximum(), w.value(), w.text()]
    elif isinstance(w, QDockWidget):
        facts += [w.windowTitle(), w.isFloating()]
    if isinstance(w, QAbstractItemView) and w.model() is not None:
        current = w.currentIndex()
        facts += [model_rows(w.model()), (current.row(), current.column()),
                  sorted((i.row(), i.column()) for i in w.selectionModel().selectedIndexes())
                  if w.selectionModel() else []]
    if isinstance(w, QGraphicsView):
        facts.append(scene_of(w))
    return tuple(facts)


def screen_of(win) -> list:
    """Every text, number and image the window's widgets hold (its floated panels too),
    with the commands' words and the window title, in the order of the widget tree."""
    settle_events()
    rows: list = [("title", win.windowTitle())]
    rows += [("command", a.text(), a.toolTip(), a.isEnabled(), a.isChecked())
             for a in win.actions()]

    def walk(widget: QWidget, path: str) -> None:
        rows.append((path, *widget_facts(widget)))
        for k, child in enumerate(c for c in widget.children() if isinstance(c, QWidget)):
            walk(child, f"{path}/{k}")

    walk(win, "window")
    return rows


def assert_same_screen(a, b, when: str) -> None:
    left, right = screen_of(a), screen_of(b)
    if left != right:
        only_a = [r for r in left if r not in right][:4]
        only_b = [r for r in right if r not in left][:4]
        pytest.fail(f"{when}: the twins' screens differ\n  one: {only_a}\n  other: {only_b}"
                    [:4000])


# ====================================================================== a panel
def test_a_panel_keeps_nothing_across_a_seat_change(qtbot):
    """Whatever a panel keeps for a seat, in its widget or in attributes of its own, a seat
    change drops it: the widget is new, drawn from the new seat's view, and every attribute
    is as the window made it (what the window gave it, a callback, stays)."""
    from PySide6.QtWidgets import QMainWindow

    from struggle_desktop.ui.docks.base import DockPanel
    from struggle_desktop.ui.document import GameDocument

    class Notes(DockPanel):
        object_name = "dock-notes"
        title = "Notes"

        def __init__(self, document, parent=None):
            super().__init__(document, parent)
            self.seen: list[str] = []
            self.callback = None

        def create_widget(self):
            self.box = QLineEdit()
            return self.box

        def update_widget(self):
            self.seen.append(self.document.seat)
            self.last_seat = self.document.seat

    window = QMainWindow()
    qtbot.addWidget(window)
    doc = GameDocument(window, autosave=False)
    doc.new_game("battles", "civil-war", 5, dict(TWO_PEOPLE))
    notes = Notes(doc, window)
    notes.callback = print                 # given by the window while it builds its panels
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, notes)
    notes.settle()
    window.show()
    qtbot.waitExposed(window)
    old_box = notes.ensure_widget()
    QTest.keyClicks(old_box, "Move-3")
    doc.set_seat("red")                    # the change signal redraws it
    assert notes.seen == ["blue", "red"]
    doc.set_seat("blue", quiet=True)
    notes.reset_for_seat()
    assert notes.box is not old_box and notes.box.text() == ""
    assert not notes.box.isUndoAvailable()
    assert notes.seen == ["blue"] and notes.last_seat == "blue"      # drawn afresh
    assert notes.callback is print
    settle_events()
    assert notes.widget().widget() is notes.box


# ====================================================================== Battles twins
@contextmanager
def other_chance(on: bool):
    """While ``on``, Red's secret chit draws (BFG-HID-3) come out otherwise: the same draws
    of the same generator, each another face, so Red holds other chits and nothing public
    changes."""
    if not on:
        yield
        return
    original = Ctx.draw_secret_index

    def drawn_otherwise(ctx, side, k, rule, why):
        index = original(ctx, side, k, rule, why)
        if side != "red" or k <= 1:
            return index
        index = (index + 1) % k
        if ctx.keeps_log:
            private = ctx.state["log"][-1]["private"]
            private["text"] = f"{why}: {index + 1} of {k}"
            private["dice"][0]["face"] = private["dice"][0]["result"] = index + 1
        return index

    Ctx.draw_secret_index = drawn_otherwise
    try:
        yield
    finally:
        Ctx.draw_secret_index = original


def type_into(edit: QLineEdit, words: str) -> None:
    """Type ``words`` as a player would (each key a step of the box's undo history)."""
    if words:
        edit.setFocus()
        QTest.keyClicks(edit, words)


def take_seat_by_key(win) -> None:
    """The next player presses the initial of their side on the hand-over screen."""
    role = win.overlay.role
    QTest.keyClick(win.overlay, win.overlay.seat_key(role))
    assert not win.overlay.isVisible() and win.document.seat == role


def seat_turn(win, words: tuple[str, str], detours: int, answers: list | None,
              chance: bool = False) -> list[dict]:
    """The seated player's turn, up to the next hand-over: type ``words`` in the Decision and
    Log filters, then answer (the hint's answers, or ``answers`` given), with ``detours``
    extra moves of the first fleet placed when the answers deploy. Returns the answers."""
    win.decision_dock.ensure_widget()
    type_into(win.decision_dock.filter, words[0])
    type_into(win.log_dock.ensure_widget().filter, words[1])
    given_answers = answers is not None
    answers = list(answers or [])
    done: list[dict] = []
    with other_chance(chance):
        for _ in range(200):
            if win.overlay.isVisible() or win.document.waiting_role is None:
                break
            action = answers.pop(0) if given_answers else win.document.hint()
            if action.get("verb") == "assign" and detours:
                # Secret steps first: the fleet about to be placed goes elsewhere and back.
                elsewhere = [x for x in win.document.legal_actions()
                             if x.get("verb") == "assign" and x["fleet"] == action["fleet"]
                             and x != action]
                for d in range(detours):
                    assert win.perform(elsewhere[d % len(elsewhere)])
                detours = 0
            assert action is not None and win.perform(action), action
            done.append(action)
            settle_events()
            if given_answers and not answers:
                break
    return done


def battles_twins(qtbot, floated: bool, timeline: bool) -> tuple:
    windows = []
    for _ in range(2):
        win = BattlesWindow()
        win.program.paused = True
        win.resize(*SCREEN)
        win.show()
        qtbot.waitExposed(win)
        if floated:
            win.dice_dock.setFloating(True)
            win.dice_dock.move(win.geometry().right() - 300, win.geometry().top() + 80)
        if timeline:
            win.act_timeline_bar.trigger()
        assert win.new_game("battles", "civil-war", 5, dict(TWO_PEOPLE))
        windows.append(win)
    return tuple(windows)


def close_all(*windows) -> None:
    for win in windows:
        if hasattr(win, "program"):
            win.program.paused = True
        win.document.dirty = False
        win.close()
        win.deleteLater()
    settle_events()


def play_battles_twins(a, b, hand_overs: int, words_a, words_b, detours, chance=False,
                       compare_seated=lambda role: True) -> int:
    """Play the twins to ``hand_overs`` hand-overs, comparing at each; the side that hands
    over typed ``words_a``/``words_b`` and (twin b) took ``detours`` more secret steps."""
    compared = 0
    for k in range(hand_overs * 2 + 6):
        if a.document.waiting_role is None or compared >= hand_overs:
            break
        if a.overlay.isVisible():
            assert b.overlay.isVisible()
            role = a.overlay.role
            assert_same_screen(a, b, f"hand-over screen {compared + 1} (to {role})")
            take_seat_by_key(a)
            with other_chance(chance):
                take_seat_by_key(b)
            if compare_seated(role):
                assert_same_screen(a, b, f"after hand-over {compared + 1}, {role} seated")
            compared += 1
            continue
        turn_words = words_a[k % len(words_a)], words_b[k % len(words_b)]
        answers = seat_turn(a, (turn_words[0], turn_words[0][::-1]), 0, None)
        deploys = any(x.get("verb") == "assign" for x in answers)
        seat_turn(b, (turn_words[1], turn_words[1][::-1]), detours if deploys else 0, answers,
                  chance)
        assert a.overlay.isVisible() == b.overlay.isVisible()
    return compared


WORDS = st.text(alphabet="abcdeMovTac-3 ", max_size=6)


@settings(max_examples=4, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@example(words_a=["Move-3"], words_b=[""], detours=2, floated=True, timeline=True)
@given(words_a=st.lists(WORDS, min_size=1, max_size=3),
       words_b=st.lists(WORDS, min_size=1, max_size=3),
       detours=st.integers(0, 3), floated=st.booleans(), timeline=st.booleans())
def test_battles_twins_look_the_same_after_every_hand_over(qtbot, words_a, words_b, detours,
                                                            floated, timeline):
    """BFG-HID-3, BFG-HID-4, BFG-HID-11: two people play Civil War (seed 5) in two windows
    whose players type other words in their filters and, in the second, move a fleet about
    more while planning their deployment. At every hand-over screen and after every seat
    taken, the windows hold exactly the same."""
    a, b = battles_twins(qtbot, floated, timeline)
    try:
        assert play_battles_twins(a, b, 5, words_a, words_b, detours) == 5
    finally:
        close_all(a, b)


@pytest.mark.parametrize("words", [("", ""), ("Move-3", "Tactical-3")],
                         ids=["the-draws-alone", "and-the-filters"])
def test_reds_secret_draws_leave_nothing_on_blues_screen(qtbot, words):
    """BFG-HID-3, BFG-HID-4, BFG-HID-5 (issue: Civil War, seed 5, two people): Blue builds, Done; Red
    builds, Done (turn 1's draw), deploys, Done; Blue takes the seat. Twins whose Red drew
    other chits and moved a fleet about twice more (and typed its chits into both filters, or
    nothing) show Blue the same screen, the Dice panel (floated) and the filters' undo
    included."""
    a, b = battles_twins(qtbot, floated=True, timeline=True)
    try:
        compared = play_battles_twins(a, b, 3, [words[0]], [words[1]], 2, chance=True,
                                      compare_seated=lambda role: role == "blue")
        assert compared == 3
        assert b.document.history_length == a.document.history_length + 2
        # Red's draws were drawn apart: the twins hold other hands.
        hands = [w.document.state["players"]["red"]["hand"] for w in (a, b)]
        assert hands[0] != hands[1]
    finally:
        close_all(a, b)


# ====================================================================== the hand-over screen
@pytest.fixture
def handing_over(qtbot):
    """A two-person Battles window (Dice panel floated, timeline bar on) at its second
    hand-over: Blue has built and passes the computer to Red."""
    win, other = battles_twins(qtbot, floated=True, timeline=True)
    take_seat_by_key(win)
    seat_turn(win, ("Move", "Tactical"), 0, None)
    assert win.overlay.isVisible() and win.overlay.role == "red"
    settle_events()
    yield win
    close_all(win, other)


def test_the_hand_over_screen_covers_floated_panels(handing_over):
    """BFG-HID-4: a panel floated out of the window shows nothing while the hand-over screen
    is up: a cover lies over all of it, above everything the panel holds, until the seat is
    taken."""
    win = handing_over
    dice = win.dice_dock
    assert dice.isFloating() and dice.isVisible()
    covers = [c for c in win.overlay.covers if c.dock is dice]
    assert len(covers) == 1 and covers[0].isVisible()
    cover = covers[0]
    assert cover.geometry().contains(dice.rect())
    above = [c for c in dice.children()[dice.children().index(cover) + 1:]
             if isinstance(c, QWidget) and c.isVisible()]
    assert above == []
    take_seat_by_key(win)
    assert not win.overlay.covers and dice.isEnabled()


def test_the_hand_over_screen_keeps_the_keyboard(handing_over):
    """BFG-HID-4: while the hand-over screen is up, Tab and Shift+Tab leave the keyboard focus
    on it, and with the timeline bar on neither they nor the arrow keys step its slider or
    the moment on show; the seat taken, the window works again."""
    win = handing_over
    doc = win.document
    slider = win.timeline_bar.slider
    before = slider.value(), doc.position
    win.activateWindow()
    win.overlay.setFocus()
    for key in (Qt.Key.Key_Tab, Qt.Key.Key_Tab, Qt.Key.Key_Backtab, Qt.Key.Key_Left,
                Qt.Key.Key_Right, Qt.Key.Key_Home, Qt.Key.Key_PageUp, Qt.Key.Key_Tab,
                Qt.Key.Key_Left):
        QTest.keyClick(QApplication.focusWidget() or win.overlay, key)
        assert QApplication.focusWidget() in (None, win.overlay), key
    assert (slider.value(), doc.position) == before and not doc.looking_back
    assert not slider.isEnabled() and not win.decision_dock.isEnabled()
    take_seat_by_key(win)
    assert win.timeline_bar.isEnabled() and win.decision_dock.isEnabled()
    assert slider.isEnabled()


# ====================================================================== Noble Houses twins
def nobles_twins(qtbot, tmp_path) -> tuple:
    """Two windows on a two-person game at a nuclear exchange (seed 6, turn 11): house A is
    asked first whether to launch, then house B (NH-SIM-2). The Decision panel is floated and
    the timeline bar is on."""
    from tests.ui.helpers import save_before_two_people_declare

    base = save_before_two_people_declare(tmp_path / "exchange.sgsave")
    windows = []
    for _ in range(2):
        win = NoblesWindow()
        win.resize(*SCREEN)
        win.show()
        qtbot.waitExposed(win)
        win.decision_dock.setFloating(True)
        win.act_timeline_bar.trigger()
        win.document.install_session(Session(base.game, base.scenario, base.seed,
                                             dict(base.options), base.state,
                                             list(base.actions), list(base.digests)))
        windows.append(win)
    return tuple(windows)


def test_a_houses_declaration_leaves_nothing_on_the_next_houses_screen(qtbot, tmp_path):
    """NH-SIM-2: house A declares in secret, then house B. In one twin A types its nuke into
    the Decision and Log filters and launches it; in the other A types nothing and holds it
    back. House B is shown the same hand-over screen, and the same screen once seated, the
    filters' undo histories included."""
    a, b = nobles_twins(qtbot, tmp_path)
    try:
        for win in (a, b):
            assert win.overlay.isVisible() and win.overlay.role == "A"
        assert_same_screen(a, b, "the hand-over screen to house A")
        for win in (a, b):
            take_seat_by_key(win)
            assert win.document.state["pending"]["kind"] == "launch"
        launch = next(x for x in a.document.legal_actions() if x["verb"] == "launch")
        hold = next(x for x in b.document.legal_actions() if x["verb"] == "hold")
        nuke = a.document.state["pending"]["nuke"]
        a.decision_dock.ensure_widget()
        type_into(a.decision_dock.filter, nuke)
        type_into(a.log_dock.ensure_widget().filter, nuke)
        assert a.perform(launch) and b.perform(hold)
        settle_events()
        for win in (a, b):
            assert win.overlay.isVisible() and win.overlay.role == "B"
        assert_same_screen(a, b, "the hand-over screen to house B")
        for win in (a, b):
            take_seat_by_key(win)
        assert_same_screen(a, b, "house B seated")
    finally:
        close_all(a, b)


# ====================================================================== Freedom's events deck
def test_the_events_decks_sides_see_nothing_the_other_typed(qtbot):
    """FIG-EVT: the events deck (c1, seed 1) hands the computer over between its two sides.
    In one twin each side types words into the Decision and Log filters before answering,
    in the other nothing; at every hand-over screen and after every seat taken the twins
    hold the same (the deck view is built afresh for each side)."""
    a, b = FreedomWindow(), FreedomWindow()
    try:
        for win in (a, b):
            win.resize(*SCREEN)
            win.show()
            qtbot.waitExposed(win)
            win.log_dock.setFloating(True)
            assert win.new_game("freedom", "c1", 1, {})
        compared = 0
        for step in range(120):
            if a.document.waiting_role is None or compared >= 4:
                break
            if a.overlay.isVisible():
                assert b.overlay.isVisible()
                assert_same_screen(a, b, f"hand-over screen {compared + 1}")
                take_seat_by_key(a)
                take_seat_by_key(b)
                assert_same_screen(a, b, f"after hand-over {compared + 1}")
                compared += 1
                continue
            a.decision_dock.ensure_widget()
            type_into(a.decision_dock.filter, f"card {step}")
            type_into(a.log_dock.ensure_widget().filter, "secret")
            action = a.document.hint()
            assert a.perform(action) and b.perform(action)
            settle_events()
            assert a.overlay.isVisible() == b.overlay.isVisible()
        assert compared >= 2, "the deck was handed over"
    finally:
        close_all(a, b)
