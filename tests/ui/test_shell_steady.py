"""The shared shell and its dialogs stay readable and say why (issue: a table that stays
still under the hand).

* The New Game dialog shows every scenario's name, description and rule IDs without a
  horizontal scroll bar, and opens on the game on screen.
* Help → How to Play scales its pictures to the width of the page.
* The History chart counts turns in whole numbers and names its event marks; the Forecast
  panel says what it is and how to run one before any forecast (no empty axes).
* Quitting an untouched new game asks nothing.
* A restored layout gives every panel at least its minimum width, and a panel's minimum
  width does not change between questions.
* Every greyed shell command says why, in its tooltip and, for its key, in the status bar.

The dialogs are tested at the width they open with on a 1366x768 screen and on a 1920x1080 one
(both 940 px: ``resize_to_fit`` caps them), and narrower still.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QSettings, Qt
from PySide6.QtWidgets import QAbstractButton, QApplication, QLabel, QMessageBox

from struggle_desktop.ui.dialogs.new_game import NewGameDialog
from struggle_desktop.ui.screens import has_screen, window_class

from tests.ui.helpers import window_maker
from tests.ui.probes import wheel

#: A game of each kind, as a new user would start it.
GAMES = [("struggle", "3"), ("battles", "civil-war"), ("nobles", "standard"), ("freedom", "a1")]
#: The New Game dialog's width on both screens, and a narrower one.
DIALOG_WIDTHS = [940, 800]


@pytest.fixture
def settings(tmp_path):
    return QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)


@pytest.fixture
def open_window(qtbot, settings):
    made = []

    def make(game_id, scenario=None):
        win = window_class(game_id)(settings=settings)
        made.append(win)
        win.resize(1600, 1000)
        win.show()
        qtbot.waitExposed(win)
        if scenario is not None:
            win.new_game(game_id, scenario, 7, {})
        return win
    yield make
    for win in made:
        win.document.dirty = False
        win.close()
        win.deleteLater()


def settle(qtbot, ms: int = 30) -> None:
    QApplication.processEvents()
    qtbot.wait(ms)


# ------------------------------------------------------------------------------ New Game
def clipped_parts(dialog: NewGameDialog) -> list[str]:
    """What of the scenario on show cannot be read without scrolling sideways: a horizontal
    scroll bar with somewhere to go, a label or box reaching past the visible pane, a text
    that does not fit its widget."""
    problems = []
    scroll = dialog.details_scroll
    if scroll.horizontalScrollBar().maximum() > 0:
        problems.append(f"details scroll sideways by {scroll.horizontalScrollBar().maximum()} px")
    viewport = scroll.viewport()
    for widget in [*dialog.details_inner.findChildren(QLabel),
                   *dialog.details_inner.findChildren(QAbstractButton)]:
        if not widget.isVisible() or not widget.text():
            continue
        right = widget.mapTo(viewport, QPoint(widget.width(), 0)).x()
        if right > viewport.width() + 1:
            problems.append(f"{widget.text()[:30]!r} reaches {right} px of a "
                            f"{viewport.width()} px pane")
        unwrapped = isinstance(widget, QAbstractButton) or not widget.wordWrap()
        if unwrapped and widget.sizeHint().width() > widget.width() + 1:
            problems.append(f"{widget.text()[:30]!r} needs {widget.sizeHint().width()} px, "
                            f"has {widget.width()}")
    names = dialog.scenario_list
    if names.horizontalScrollBar().maximum() > 0:
        problems.append("the scenario list scrolls sideways")
    for row in range(names.count()):
        item = names.item(row)
        rect = names.visualItemRect(item)
        needed = names.fontMetrics().boundingRect(
            rect.adjusted(0, 0, 0, 10_000), Qt.TextFlag.TextWordWrap, item.text())
        if needed.width() > rect.width() or rect.right() > names.viewport().width():
            problems.append(f"scenario {item.text().splitlines()[0]!r} is cut off")
    return problems


@pytest.mark.parametrize("width", DIALOG_WIDTHS)
@pytest.mark.parametrize("game_id", [g for g, _ in GAMES if has_screen(g)])
def test_new_game_dialog_shows_every_scenario_without_sideways_scrolling(qtbot, game_id, width):
    dialog = NewGameDialog(current=game_id)
    qtbot.addWidget(dialog)
    dialog.resize(width, 700)
    dialog.show()
    qtbot.waitExposed(dialog)
    problems = []
    for row in range(dialog.scenario_list.count()):
        dialog.scenario_list.setCurrentRow(row)
        settle(qtbot, 5)
        problems += [f"{game_id} {dialog.scenario_id()} at {dialog.width()} px: {p}"
                     for p in clipped_parts(dialog)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("game_id, scenario", GAMES[1:])
def test_new_game_opens_on_the_game_on_screen(open_window, monkeypatch, game_id, scenario):
    win = open_window(game_id, scenario)
    seen = []

    def look(dialog):
        seen.append(dialog.game_combo.currentData())
        return QMessageBox.DialogCode.Rejected        # cancelled: nothing changes

    monkeypatch.setattr(NewGameDialog, "exec", look)
    win.act_new.trigger()
    assert seen == [game_id]


# ------------------------------------------------------------------------------ quitting
@pytest.mark.parametrize("game_id, scenario", GAMES)
def test_quitting_an_untouched_new_game_asks_nothing(open_window, monkeypatch, game_id,
                                                     scenario):
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *args, **kw: asked.append(args) or QMessageBox.StandardButton.Cancel)
    win = open_window(game_id, scenario)
    assert win.document.dirty        # not saved: the window would have asked before
    win.act_quit.trigger()
    assert asked == [] and not win.isVisible()


def test_quitting_after_an_action_still_asks(open_window, monkeypatch):
    asked = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *args, **kw: asked.append(args) or QMessageBox.StandardButton.Cancel)
    win = open_window("struggle", "3")
    assert win.autopilot_step()
    win.act_quit.trigger()
    assert len(asked) == 1 and win.isVisible()     # cancelled: the game stays


# ------------------------------------------------------------------------------ the guide
@pytest.mark.parametrize("width", [1000, 700])
def test_guide_pictures_fit_the_width_of_the_page(qtbot, width):
    from struggle_desktop.ui.dialogs.guide import GuideDialog

    dialog = GuideDialog(None, "Struggle")
    qtbot.addWidget(dialog)
    dialog.resize(width, 700)
    dialog.show()
    qtbot.waitExposed(dialog)
    with_pictures = [row for row, (_, text) in enumerate(dialog.parts) if "![" in text]
    assert len(with_pictures) >= 3, "the guide should show some screenshots"
    problems = []
    for row in with_pictures:
        dialog.index.setCurrentRow(row)
        settle(qtbot, 5)
        bar = dialog.page.horizontalScrollBar()
        if bar.maximum() > 0:
            problems.append(f"{dialog.parts[row][0]!r} scrolls sideways by {bar.maximum()} px")
    assert problems == [], "\n".join(problems)
    # Narrower still: the pictures follow the page.
    dialog.resize(width - 150, 700)
    settle(qtbot)
    assert dialog.page.horizontalScrollBar().maximum() == 0


# ------------------------------------------------------------------------------ charts
@pytest.fixture
def played(qtbot):
    """Struggle's scenario 1 a few turns on (the History chart has several points)."""
    from struggle_desktop.ui.main_window import MainWindow
    from tests.ui.test_timeline import play

    maker = window_maker(qtbot, MainWindow)
    make = next(maker)
    win = make()
    win.set_speed("instant")
    assert win.new_game("struggle", "1", 3, {})
    play(win, 60)
    yield win
    next(maker, None)


def drawn_turn_ticks(chart) -> list[float]:
    axis = chart.getAxis("bottom")
    low, high = chart.getViewBox().viewRange()[0]
    return [v for _, values in axis.tickValues(low, high, axis.width()) for v in values]


def test_history_chart_counts_whole_turns(played, qtbot):
    dock = played.history_dock
    played.show_panel(dock)
    settle(qtbot)
    ticks = drawn_turn_ticks(dock.chart)
    assert ticks and all(float(t).is_integer() for t in ticks), ticks
    # Looking back to the first turn (a range of one turn and a half) too.
    played.look_at(played.document.turn_starts()[1])
    settle(qtbot)
    ticks = drawn_turn_ticks(dock.chart)
    assert ticks and all(float(t).is_integer() for t in ticks), ticks


def test_history_marks_have_labels(played, qtbot):
    import pyqtgraph as pg

    dock = played.history_dock
    played.show_panel(dock)
    # An event of each kind the game marks, written in a turn of the log as the chart reads it.
    dock._mark(2, ["A leader appears in sector 04 Sagittarius Gate", "Aliens land"])
    lines = [item for item in dock.chart.getPlotItem().items if isinstance(item, pg.InfiniteLine)]
    assert lines
    for line in lines:
        label = getattr(line, "label", None)
        assert label is not None and label.isVisible(), "a mark without a label"
        assert label.toPlainText().startswith(f"T{int(line.value())}: ")
        assert line.toolTip()
    assert "A leader appears" in lines[-1].label.toPlainText()


def test_forecast_panel_says_what_it_is_before_any_forecast(played, qtbot):
    dock = played.forecast_dock
    played.show_panel(dock)
    settle(qtbot)
    assert not dock.outcome_chart.isVisible(), "empty axes before any forecast"
    assert dock.placeholder.isVisible()
    words = dock.placeholder.text()
    assert "No forecast yet" in words and "press <b>Forecast</b>" in words
    dock.games.setValue(10)
    dock.start()
    assert dock.wait(120)
    assert dock.outcome_chart.isVisible() and not dock.placeholder.isVisible()


# ------------------------------------------------------------------------------ says why
def press(qtbot, win, key) -> None:
    """``key`` pressed while ``win`` is the active window (it reaches the shortcuts)."""
    from PySide6.QtGui import QKeySequence
    from PySide6.QtTest import QTest

    win.activateWindow()
    win.windowHandle().requestActivate()
    qtbot.waitUntil(win.isActiveWindow)
    QTest.keySequence(win, QKeySequence(key))
    QApplication.processEvents()


def test_greyed_file_commands_say_why_before_a_game(open_window, qtbot):
    win = open_window("struggle")
    for action in (win.act_save, win.act_save_as):
        assert not action.isEnabled()
        assert "no game is open" in action.toolTip()
    press(qtbot, win, "Ctrl+S")
    assert win.status_text.text().startswith("Cannot save: no game is open")
    win.status_text.clear()
    press(qtbot, win, "Alt+Left")
    assert win.status_text.text().startswith("Cannot look back: no game is open")
    assert "No recent games" in win.recent_menu.menuAction().toolTip()


@pytest.mark.parametrize("game_id, scenario", GAMES)
def test_greyed_timeline_commands_say_why(open_window, qtbot, game_id, scenario):
    win = open_window(game_id, scenario)
    assert win.autopilot_step()           # a game with a past to look back at
    settle(qtbot)
    assert win.document.history_length > 0
    # At the present: nothing later to look at, and nothing to play on from.
    for action, key, words in ((win.act_step_forward, "Alt+Right", "Cannot look further on"),
                               (win.act_turn_forward, "Alt+PgDown", "Cannot look further on"),
                               (win.act_present, "Alt+End", "Cannot go to the present"),
                               (win.act_play_on, "Alt+Home", "Cannot play on from here")):
        assert not action.isEnabled()
        assert action.toolTip().startswith(words)
        win.status_text.clear()
        press(qtbot, win, key)
        assert win.status_text.text().startswith(words), (key, win.status_text.text())
    # At the start of the game: nothing earlier.
    win.look_at(0)
    settle(qtbot)
    for action, key in ((win.act_step_back, "Alt+Left"), (win.act_turn_back, "Alt+PgUp")):
        assert not action.isEnabled()
        win.status_text.clear()
        press(qtbot, win, key)
        assert win.status_text.text().startswith("Cannot look back: this is the start")
    # Once allowed, each command works again (and says nothing of refusals).
    assert win.act_present.isEnabled()
    press(qtbot, win, "Alt+End")
    assert not win.document.looking_back


# ------------------------------------------------------------------------------ panel widths
def _question_panel(qtbot):
    """A window with one panel whose content is as wide as the question on show (a long
    answer, then a short one), as the Decision or a game's own panels are."""
    from PySide6.QtCore import QObject, Signal
    from PySide6.QtWidgets import QMainWindow, QTextEdit

    from struggle_desktop.ui.docks.base import DockPanel

    class Document(QObject):
        changed = Signal()
        question = "a short question"

    class QuestionPanel(DockPanel):
        object_name = "dock-question"
        title = "Question"

        def create_widget(self):
            box, layout = self.column()
            self.answer = QLabel()
            layout.addWidget(self.answer)
            return box

        def update_widget(self):
            self.answer.setText(self.document.question)

    document = Document()
    window = QMainWindow()
    window.setCentralWidget(QTextEdit())
    panel = QuestionPanel(document, window)
    window.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, panel)
    panel.settle()
    window.resize(1200, 700)
    window.show()
    qtbot.addWidget(window)
    qtbot.waitExposed(window)
    panel.ensure_widget()
    return window, document, panel


def test_a_panel_never_narrows_between_questions(qtbot):
    """Its minimum width is the widest it has needed: a long answer widens it (no sideways
    scrolling), a short one after it, or a seat change that builds it afresh, does not
    narrow it again (controls would move, and the narrow layout would be saved)."""
    window, document, panel = _question_panel(qtbot)
    short, long = "a short question", "Move IO-01 (Imperial Order) to sector 04 Sagittarius"
    widths = []

    def ask(question, seat_change=False):
        document.question = question
        if seat_change:
            panel.reset_for_seat()
        else:
            document.changed.emit()
        settle(qtbot)
        widths.append(panel.minimumSizeHint().width())
        scroll = panel.widget().horizontalScrollBar()
        assert scroll.maximum() == 0, f"{question!r} scrolls sideways in the panel"
        assert panel.width() >= widths[-1]

    ask(short)
    ask(long)
    ask(short)
    ask(long, seat_change=True)
    ask(short, seat_change=True)
    assert widths[1] > widths[0], widths
    assert widths[1:] == [widths[1]] * 4, widths


@pytest.mark.parametrize("game_id", ["struggle", "freedom"])
def test_a_restored_layout_gives_each_panel_its_minimum_at_once(qtbot, settings, game_id):
    """A layout saved while the right-hand panels were squeezed below their minimum comes
    back with each at least at its minimum as soon as the window is shown."""
    first = window_class(game_id)(settings=settings)
    first.resize(1600, 1000)
    first.show()
    qtbot.waitExposed(first)
    right = [d for d in first.docks if d.isVisible() and not d.isFloating()
             and first.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
    needs = {d: d.minimumSizeHint().width() for d in right}
    for dock in right:
        dock.widget().setMinimumWidth(0)
        dock._min_width = 0
        if dock.widget().widget() is not None:
            dock.widget().widget().setMinimumWidth(0)
    first.resizeDocks(right, [40] * len(right), Qt.Orientation.Horizontal)
    first.layout().activate()
    assert any(d.width() < needs[d] for d in right), "nothing was squeezed"
    first.close()
    first.deleteLater()

    second = window_class(game_id)(settings=settings)
    second.show()                       # no event handled yet: the panels as restored
    try:
        short = [f"{d.objectName()} {d.width()} < {d.minimumSizeHint().width()}"
                 for d in second.docks if d.isVisible() and not d.isFloating()
                 and second.dockWidgetArea(d) in (Qt.DockWidgetArea.RightDockWidgetArea,
                                                  Qt.DockWidgetArea.LeftDockWidgetArea)
                 and d.width() < d.minimumSizeHint().width()]
        assert short == []
    finally:
        second.close()
        second.deleteLater()


# ------------------------------------------------------------------------------ the wheel
#: The window's size on a 1366x768 screen once the frame and the desktop's bars are off.
LAPTOP = (1284, 721)


def box_value(box):
    """What a combo box, spin box or slider holds (what a turn of the wheel would change)."""
    from PySide6.QtWidgets import QComboBox

    return box.currentIndex() if isinstance(box, QComboBox) else box.value()


@pytest.mark.parametrize("game_id, scenario", GAMES)
def test_the_wheel_over_an_unfocused_box_scrolls_its_panel_in_every_window(
        open_window, qtbot, game_id, scenario):
    """In each game's window, a panel shown late (the Forecast: built when first shown) and
    every box of every panel: the wheel over a combo or spin box the player has not given
    the focus leaves its value and scrolls the panel around it; a focused box takes it."""
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox, QSlider

    win = open_window(game_id, scenario)
    win.resize(*LAPTOP)
    dock = win.forecast_dock
    win.show_panel(dock)
    settle(qtbot)
    win.resizeDocks([dock], [90], Qt.Orientation.Vertical)     # short: its panel scrolls
    settle(qtbot)
    bar = dock.widget().verticalScrollBar()
    assert bar.maximum() > 0, "the Forecast panel does not scroll at this height"
    bar.setValue(0)
    spin = dock.games
    games = spin.value()
    win.centre.setFocus()
    assert not spin.hasFocus()
    wheel(spin)
    assert spin.value() == games, "the wheel changed the number of games"
    assert bar.value() > 0, "the wheel did not scroll the panel"
    spin.setFocus()
    qtbot.waitUntil(spin.hasFocus)
    wheel(spin)
    assert spin.value() != games, "a focused box no longer takes the wheel"

    # Every box of every panel, each panel shown (some are built when first shown).
    win.centre.setFocus()
    for panel in win.docks:
        win.show_panel(panel)
        settle(qtbot, 5)
        boxes = [box for kind in (QComboBox, QAbstractSpinBox, QSlider)
                 for box in panel.findChildren(kind) if box.isVisible() and box.isEnabled()]
        for box in boxes:
            # The policy that keeps a real wheel from giving the box the focus first.
            assert box.focusPolicy() != Qt.FocusPolicy.WheelFocus, box.objectName()
            value = box_value(box)
            for steps in (-1, 1):
                wheel(box, steps)
                assert box_value(box) == value, \
                    f"the wheel changed {type(box).__name__} {box.objectName()!r} " \
                    f"in {panel.objectName()}"


# ------------------------------------------------------------------------------ tab bars
def tab_bar_problems(win, moment: str) -> list[str]:
    """The window's tab bars on screen against its groups of tabbed panels: one bar for each
    group, and each bar's tabs bring their panel forward (Qt 6.11 leaves the bar it replaced
    on screen, its tabs doing nothing, when the panels are arranged again)."""
    from PySide6.QtWidgets import QDockWidget, QTabBar

    bars = [bar for bar in win.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if bar.isVisible() and win.rect().intersects(bar.geometry())]
    groups = {frozenset([dock, *[d for d in win.tabifiedDockWidgets(dock) if not d.isHidden()]])
              for dock in win.findChildren(QDockWidget)
              if dock.isVisible() and not dock.isFloating()}
    tabbed = [group for group in groups if len(group) > 1]
    problems = []
    if len(bars) != len(tabbed):
        problems.append(f"{moment}: {len(bars)} tab bars on screen for {len(tabbed)} groups "
                        "of tabbed panels")
    for bar in bars:
        was = bar.currentIndex()
        for k in range(bar.count()):
            bar.setCurrentIndex(k)
            QApplication.processEvents()
            title = bar.tabText(k)
            dock = next((d for d in win.findChildren(QDockWidget) if d.windowTitle() == title),
                        None)
            if dock is None or dock.visibleRegion().isEmpty():
                problems.append(f"{moment}: the tab {title!r} does not bring its panel forward")
        bar.setCurrentIndex(was)
    return problems


def before_deletions() -> None:
    """Let Qt lay the window out, but not yet delete what it handed to ``deleteLater``: the
    moment a frame may be painted with the tab bars Qt has replaced still on screen."""
    for _ in range(30):
        QApplication.processEvents()


@pytest.mark.parametrize("game_id, scenario", GAMES)
def test_only_working_tab_bars_are_on_screen_after_any_arrangement(open_window, qtbot,
                                                                   game_id, scenario):
    """After Reset Layout (twice) and with a chart panel shown among the log's tabs, even
    before Qt deletes the tab bars it replaced: one tab bar on screen per group of tabbed
    panels, each of whose tabs brings its panel forward."""
    win = open_window(game_id, scenario)
    win.resize(*LAPTOP)
    settle(qtbot)
    problems = tab_bar_problems(win, "at the start")
    for moment, change in (("after Reset Layout", win.reset_layout),
                           ("after Reset Layout again", win.reset_layout),
                           ("with the History shown", lambda: win.show_panel(win.history_dock))):
        change()
        before_deletions()
        problems += tab_bar_problems(win, moment)
    assert problems == [], "\n".join(problems)


def test_the_shell_hides_stale_tab_bars_after_a_screens_own_arrangement(qtbot, settings):
    """A screen's arrangement of its panels (``arrange_panels``, which Reset Layout runs
    after the default layout is put back) may itself leave a tab bar behind: the shell
    hides stale bars after it, not before. Battles (whose Reset Layout arranged its panels
    after the shell's sweep), with a stand-in for a bar Qt left, made by the arrangement
    over the Decision panel, where no group of tabs is."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import QTabBar

    from struggle_desktop.ui.battles.window import BattlesWindow

    left = []

    class LeavingABar(BattlesWindow):
        def arrange_panels(self):
            super().arrange_panels()
            if left != ["at the reset"]:
                return
            self.layout().activate()
            old = QTabBar(self)
            for title in ("Log", "Dice"):
                old.addTab(title)
            place = self.decision_dock.geometry()
            old.setGeometry(QRect(place.left(), place.bottom() + 1, place.width(), 27))
            old.show()
            left.append(old)

    win = LeavingABar(settings=settings)
    win.resize(*LAPTOP)
    win.show()
    qtbot.waitExposed(win)
    try:
        settle(qtbot)
        left.append("at the reset")
        win.reset_layout()
        before_deletions()
        assert len(left) == 2, "the arrangement was not made"
        assert not left[1].isVisible(), "the bar the arrangement left stays on screen"
        assert tab_bar_problems(win, "after Reset Layout") == []
    finally:
        win.document.dirty = False
        win.close()
        win.deleteLater()
