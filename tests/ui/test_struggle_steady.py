"""The Struggle window stays still under the hand and keeps its commands in reach (issue of a
table that stays still):

* the mouse wheel over a combo box it has not been given scrolls the panel, never the box's
  value (the Recruitment panel's Sector box went from 01 to 06 and the next Buy placed the
  fleet there);
* on a 1366x768 screen, with the default layout and with the timeline bar, the Forecast or
  the History open, the answer list, Do it, Hint, Continue, the watch buttons and each
  panel's main buttons are whole on screen without scrolling, and the tray shows two full
  rows of counters in one scroll area;
* only the tab bars of the panel groups are on screen (no stale one left over the panels);
* after an answer, no enabled button has moved, and none under the pointer has become
  another one.

The screen size runs in a process of its own, as in ``test_window_fits``.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QScrollArea

from conftest import run_on_screen
from struggle_desktop.ui.steady import guard_wheels, ignore_wheel_unless_focused
from tests.ui.helpers import struggle_window
from tests.ui.probes import wheel


@pytest.fixture
def window(qtbot, monkeypatch):
    """A window laid out for a 1366x768 screen, as large as it opens there."""
    import struggle_desktop.ui.main_window as main_window_module
    monkeypatch.setattr(main_window_module, "available_geometry",
                        lambda widget=None: QRect(0, 0, 1366, 768))
    yield from struggle_window(qtbot, size=(1284, 721))


def to_recruitment(window) -> None:
    assert window.new_game("struggle", "3", 1, {})
    window.perform({"verb": "auto_place"})
    doc = window.document
    for _ in range(300):
        prompt = doc.board["prompt"]
        if prompt and prompt["kind"] == "recruitment":
            return
        action = doc.hint()
        if action["verb"] == "attack":
            doc.perform(action)          # no odds dialog in a test
        else:
            window.perform(action)
    raise AssertionError("no recruitment came")


def test_the_wheel_over_the_sector_box_scrolls_the_recruitment_panel_not_the_sector(
        window, qtbot):
    to_recruitment(window)
    window.recruit_dock.raise_()
    panel = window.recruit_dock.panel
    assert panel.select("buy_unit", "AF")
    combo = panel.sector_combo
    assert combo.count() > 1 and combo.isEnabled()
    # A short panel, as on a small screen: its buttons are below the fold.
    window.resizeDocks([window.recruit_dock], [150], Qt.Orientation.Vertical)
    qtbot.wait(20)
    scroller = window.recruit_dock.findChild(QScrollArea)
    bar = scroller.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(0)
    chosen = combo.currentData()
    window.view.setFocus()
    wheel(combo)
    assert combo.currentData() == chosen, "the wheel changed the sector the player chose"
    assert bar.value() > 0, "the wheel did not scroll the panel"
    assert not combo.hasFocus()
    # Given the focus (a click, Tab), the box takes the wheel as a box should.
    combo.setFocus()
    qtbot.waitUntil(combo.hasFocus)
    wheel(combo)
    assert combo.currentData() != chosen
    # And the next Buy places the unit where the box says.
    sector = combo.currentData()
    assert panel.buy()
    assert any(p.get("type") == "AF" and p.get("sector") == sector
               for p in window.document.board["pieces"].values())


def test_every_combo_and_spin_box_of_the_window_ignores_the_wheel_unfocused(window, qtbot):
    """Whatever panel holds it (one built later too), a box of the window is guarded."""
    from PySide6.QtWidgets import QComboBox, QSpinBox

    to_recruitment(window)
    for dock in window.docks:
        dock.show()
    qtbot.wait(20)
    boxes = [box for dock in window.docks for kind in (QComboBox, QSpinBox)
             for box in dock.findChildren(kind)]
    assert boxes
    for box in boxes:
        assert box.focusPolicy() == Qt.FocusPolicy.StrongFocus, box.objectName()
    # The helper on its own: a spin box left alone keeps its value under the wheel.
    spin = QSpinBox()
    spin.setRange(0, 9)
    qtbot.addWidget(spin)
    ignore_wheel_unless_focused(spin)
    spin.show()
    wheel(spin, 1)
    assert spin.value() == 0
    guard_wheels(spin)                     # a repeat changes nothing
    wheel(spin, 1)
    assert spin.value() == 0


# ------------------------------------------------------------------------------ in reach
#: Run in a child process at 1366x768; prints one JSON list of problems.
REACH_PROBE = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QScrollArea
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.fit import fits
from struggle_desktop.ui.main_window import MainWindow
from tests.ui.probes import settle, whole

app = make_application()
problems = []


def check(moment, names):
    settle()
    if not fits(window):
        problems.append(f"{moment}: the window does not fit the screen")
    for name, widget in names:
        if not whole(widget, window):
            problems.append(f"{moment}: {name} is not whole in view "
                            f"({widget.visibleRegion().boundingRect().getRect()} of "
                            f"{widget.rect().getRect()})")


def turn_controls():
    turn = window.turn_dock.content
    return [("Continue", turn.continue_button)] + [
        (f"watch {speed}", button) for speed, button in turn.speed_buttons.items()]


def decision_controls():
    dock = window.decision_dock
    dock.content
    return [("the answer list", dock.choices), ("Do it", dock.do_button),
            ("Hint", dock.hint_button)]


def recruit_controls():
    panel = window.recruit_dock.panel
    return [("the purchase list", panel.tree), ("Buy", panel.buy_button),
            ("Done recruiting", panel.done_button), ("the Sector box", panel.sector_combo)]


def tray_rows(moment):
    tray = window.tray_dock
    scroller = tray.findChild(QScrollArea)
    if scroller.verticalScrollBar().maximum() > 0:
        problems.append(f"{moment}: the tray's panel scrolls around its list")
    view = tray.list
    first = view.visualItemRect(view.item(0))
    rows = view.viewport().height() // max(1, first.height() + 2 * view.spacing())
    if rows < 2:
        problems.append(f"{moment}: the tray shows {view.viewport().height()} px: "
                        f"{rows} full row(s) of counters")


def tab_bars(moment):
    # One tab bar on screen per group of tabbed panels: Qt left the first bar of a group on
    # screen (over the panels, its tabs doing nothing) when it made a second one.
    from PySide6.QtWidgets import QTabBar
    bars = [bar for bar in window.findChildren(QTabBar) if bar.isVisible()
            and bar.parentWidget() is window and window.rect().intersects(bar.geometry())]
    groups = {frozenset([dock, *window.tabifiedDockWidgets(dock)]) for dock in window.docks
              if dock.isVisible() and not dock.isFloating()}
    tabbed = [group for group in groups if sum(d.isVisible() for d in group) > 1]
    if len(bars) != len(tabbed):
        problems.append(f"{moment}: {len(bars)} tab bars on screen for {len(tabbed)} groups "
                        "of tabbed panels")


def situations(moment, names, extra=None):
    check(moment, names)
    tab_bars(moment)
    if extra:
        extra(moment)
    window.timeline_bar.show()
    check(moment + " with the timeline bar", names)
    window.timeline_bar.hide()
    for chart in (window.forecast_dock, window.history_dock):
        window.show_panel(chart)
        check(f"{moment} with {chart.windowTitle()} open", names)
        chart.hide()


settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
window = MainWindow(settings=settings)
window.show()
window.set_speed("instant")
window.new_game("struggle", "3", 1, {})
situations("at set-up", turn_controls() + decision_controls() + [("the tray", window.tray_dock.list)],
           tray_rows)
window.perform({"verb": "auto_place"})
situations("in play", turn_controls() + decision_controls())
doc = window.document
for _ in range(300):
    prompt = doc.board["prompt"]
    if prompt and prompt["kind"] == "recruitment":
        break
    action = doc.hint()
    (doc.perform if action["verb"] == "attack" else window.perform)(action)
situations("at recruitment", turn_controls() + recruit_controls())
window.document.dirty = False
window.close()
print(json.dumps(problems))
"""


def test_the_main_commands_are_in_reach_on_a_laptop_screen(tmp_path):
    problems = run_on_screen(REACH_PROBE, tmp_path)
    assert problems == [], "\n".join(problems)


# ------------------------------------------------------------------------------ stays still
def buttons_under_hand(window) -> list[tuple[QRect, QAbstractButton]]:
    """Where every enabled button in view in the window's panels is (window coordinates)."""
    found = []
    for dock in window.docks:
        if not dock.isVisible() or dock.visibleRegion().isEmpty():
            continue
        for button in dock.findChildren(QAbstractButton):
            if button.isVisible() and button.isEnabled() \
                    and button.visibleRegion().contains(button.rect().center()):
                found.append((QRect(button.mapTo(window, QPoint(0, 0)), button.size()),
                              button))
    return found


def name_of(button) -> str:
    return repr(button.text() or button.toolTip() or button.objectName())


def moved_under_hand(window, before) -> list[str]:
    """The buttons of ``before`` that moved, or whose middle now holds another enabled
    button. A panel brought forward in place of another (its tab) is a change the player
    sees, and a button that went or was greyed takes no click: both are left out."""
    moved = []
    for place, button in before:
        dock = next(d for d in window.docks if d.isAncestorOf(button))
        if dock.visibleRegion().isEmpty() or not button.isVisible():
            continue                     # another panel's tab came forward there
        now = window.childAt(place.center())
        while now is not None and not isinstance(now, QAbstractButton) and now is not window:
            now = now.parentWidget()
        if isinstance(now, QAbstractButton) and now is not button and now.isEnabled():
            moved.append(f"{name_of(button)} became {name_of(now)}")
        elif button.isEnabled():
            there = QRect(button.mapTo(window, QPoint(0, 0)), button.size())
            if there.topLeft() != place.topLeft():
                moved.append(f"{name_of(button)} moved from {place.getRect()} to "
                             f"{there.getRect()}")
    return moved


def test_no_button_under_the_pointer_moves_or_becomes_another_after_an_answer(window, qtbot):
    assert window.new_game("struggle", "3", 1, {})
    qtbot.wait(20)
    doc = window.document
    answers = [{"verb": "auto_place"}]
    problems = []
    for _ in range(60):
        before = buttons_under_hand(window)
        action = answers.pop() if answers else doc.hint()
        if action["verb"] == "attack":
            doc.perform(action)
        else:
            window.perform(action)
        qtbot.wait(5)
        problems += [f"after {action['verb']}: {m}" for m in moved_under_hand(window, before)]
        if doc.board["outcome"]:
            break
    assert problems == [], "\n".join(problems[:12])


def test_pointing_at_a_sector_says_what_a_click_there_would_do(window):
    """A click on a sector may answer the question (a purchase at recruitment, an attack), so
    a player who only means to look is told before clicking, in the status bar's pointer
    text; a sector a click does nothing on says only what is there."""
    to_recruitment(window)
    by_sector: dict[int, list[dict]] = {}
    for entry in window.document.board["prompt"]["actions"]:
        if entry.get("sector") is not None:
            by_sector.setdefault(entry["sector"], []).append(entry)
    assert by_sector, "recruitment offers purchases on the map"
    n, entries = next(iter(by_sector.items()))
    window.scene.sector_hovered.emit(n)
    text = window.hover_text.text()
    if len(entries) == 1:
        assert text.endswith("a click here: " + entries[0]["label"])
    else:
        assert text.endswith(f"a click here offers {len(entries)} choices")
    quiet = next(k for k in window.document.board["sectors"] if k not in by_sector)
    window.scene.sector_hovered.emit(quiet)
    assert "a click here" not in window.hover_text.text()
