"""The Freedom window stays still under the hand, keeps its commands in reach and speaks a
player's words (the issue of a table that stays still):

* after "+1 General Research" between two Events Segments a "−1" no longer appears where the
  "+1" was: every step has a button of its own in a fixed place, greyed while refused;
* "OK, noted" (a card's text) and Continue (between the Mission Action steps) stay in one
  place from one question to the next, whatever the length of the text above them;
* after "Stop G1" the "Stop G2" button does not come where G1's was (G1's stays, greyed),
  and the hand-over screen's button after Done never comes where a control of the table
  was, so a second click does nothing else;
* after any answer, no enabled control under the pointer has become another one, unless its
  panel was replaced as a whole with a visible change of title (played games of a1, b1, c1);
* the right-hand panels keep their width from question to question, and never go below
  their minimum;
* at a laptop's size (1366x768) the answer buttons, the answer list, Hint and Do it are
  shown whole without scrolling;
* a card's text is shown once (the banner and the answer list name the card only), so the
  answer list keeps its rows;
* the outcome is in words ("G1 D Diplomacy: level 0", not "D0"; no "seed 003 L1706-1708"),
  and a chit-mug group is no longer "drawing" once the environs is resolved.
"""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QWidget

from struggle_desktop.ui.freedom.window import PANEL_MIN_WIDTH, FreedomWindow
from tests.ui.helpers import window_maker
from tests.ui.probes import settle, wheel, whole

#: The window's size on a 1366x768 screen once the frame and the desktop's bars are off.
LAPTOP = (1284, 721)


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, FreedomWindow, size=LAPTOP)


def start(win, scenario: str, seed: int = 7) -> None:
    assert win.new_game("freedom", scenario, seed, {})
    settle(3)


def panel_title(widget: QWidget) -> str:
    """The title of the panel a control is in: its nearest titled box, else its dock."""
    parent = widget.parentWidget()
    while parent is not None:
        if isinstance(parent, QGroupBox) and parent.title():
            return parent.title()
        if parent.windowTitle():
            return parent.windowTitle()
        parent = parent.parentWidget()
    return ""


def controls(win) -> dict[tuple[int, int], tuple[str, str]]:
    """The enabled buttons in view, by the window point at their middle: (text, panel)."""
    found = {}
    for button in win.findChildren(QAbstractButton):
        if (button.window() is win and button.isEnabled() and whole(button)
                and not win.overlay.isAncestorOf(button)):
            point = button.mapTo(win, button.rect().center())
            found[point.toTuple()] = (button.text(), panel_title(button))
    return found


def control_at(win, point: tuple[int, int]) -> tuple[str, str] | None:
    widget = win.childAt(QPoint(*point))
    while widget is not None and not isinstance(widget, QAbstractButton):
        if widget is win:
            return None
        widget = widget.parentWidget()
    if widget is None or not widget.isEnabled():
        return None
    return (widget.text(), panel_title(widget))


def centre_view(win):
    return win.modes.currentWidget()


def shown_button(win, action: dict) -> QAbstractButton | None:
    """The centre view's button that sends ``action``, if it is shown."""
    view = centre_view(win)
    prompt = getattr(view, "prompt", None)
    if prompt is not None and hasattr(prompt, "find"):
        found = prompt.find(action)
        return found if found is not None and found.isVisible() else None
    for button in view.findChildren(QAbstractButton):
        if button.isVisible() and button.property("action") == action:
            return button
    return None


def answer(qtbot, win) -> dict | None:
    """The hint's answer, clicked on its button in the centre view when it has one, else
    given as the Decision panel would; None at the end. A hand-over screen is confirmed
    first (that is not an answer)."""
    doc = win.document
    if win.overlay.isVisible():
        win.take_seat()
        settle(3)
    if doc.board.get("outcome") or not doc.board.get("prompt"):
        return None
    action = doc.hint()
    button = shown_button(win, action)
    if button is not None:
        qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    else:
        assert win.perform(action), action
    settle(3)
    return action


def play(qtbot, win, limit=400, each=None) -> int:
    """Answer until the end (or ``limit`` answers); ``each(before, action)`` after each."""
    answers = 0
    for _ in range(limit):
        if win.overlay.isVisible():
            win.take_seat()
            settle(3)
        before = controls(win)
        action = answer(qtbot, win)
        if action is None:
            break
        answers += 1
        if each is not None:
            each(before, action)
    return answers


# ------------------------------------------------------------------ stays still
def to_between(qtbot, win) -> None:
    """c1 played on to the first manual moves between two Events Segments."""
    doc = win.document
    for _ in range(300):
        if win.overlay.isVisible():
            win.take_seat()
            settle(3)
        prompt = doc.board.get("prompt")
        if prompt and prompt["kind"] == "deck_between":
            return
        assert answer(qtbot, win) is not None
    raise AssertionError("no manual moves came")


def counter_buttons(win, caption: str) -> list[QAbstractButton]:
    """The step buttons of one counter, left to right: those beside its caption, or the
    row just under it."""
    view = centre_view(win)
    label = next(w for w in view.prompt.findChildren(QLabel)
                 if w.isVisible() and w.text().startswith(caption[:-1]))
    label_y = label.mapTo(win, label.rect().center()).y()

    def y(b):
        return b.mapTo(win, b.rect().center()).y()
    shown = [b for b in view.prompt.findChildren(QAbstractButton) if b.isVisible()]
    row_y = min((y(b) for b in shown if y(b) > label_y - 4), key=lambda v: abs(v - label_y))
    buttons = [b for b in shown if abs(y(b) - row_y) < 4]
    return sorted(buttons, key=lambda b: b.mapTo(win, QPoint(0, 0)).x())


def test_plus_one_general_research_clicked_twice_adds_two(make_window, qtbot):
    """A second click where "+1" was must add again: no "−1" takes its place (it undid the
    first), and the value shown after the buttons never pushes them."""
    win = make_window()
    start(win, "c1")
    to_between(qtbot, win)
    doc = win.document
    side = doc.seat
    before = doc.state["general_research"][side]
    plus = next(b for b in counter_buttons(win, "General Research:") if b.text() == "+1")
    point = plus.mapTo(win, plus.rect().center())
    rows_before = [b.text() for b in counter_buttons(win, "General Research:")]
    for clicks in (1, 2):
        there = win.childAt(point)
        assert isinstance(there, QAbstractButton) and there.text() == "+1", there
        qtbot.mouseClick(there, Qt.MouseButton.LeftButton)
        settle(3)
        assert doc.state["general_research"][side] == before + clicks
    # The same buttons in the same order: the "−" ones were there all along, greyed at zero.
    assert [b.text() for b in counter_buttons(win, "General Research:")] == rows_before
    assert "−1" in rows_before


def test_ok_noted_stays_in_one_place_for_every_card(make_window, qtbot):
    """c1 shows one card's text after another: its "OK, noted" stays where it was, however
    long the card's text (it moved from 407 to 258)."""
    win = make_window()
    start(win, "c1")
    places = set()

    def note(_before, _action):
        view = centre_view(win)
        prompt = win.document.board.get("prompt")
        if prompt and prompt["kind"] == "deck_card" and not win.overlay.isVisible():
            button = view.prompt.find({"verb": "ok"})
            places.add(button.mapTo(win, QPoint(0, 0)).toTuple())
    play(qtbot, win, each=note)
    assert len(places) == 1, places


def test_stop_clicked_twice_stops_only_that_group(make_window, qtbot):
    """b1: after "Stop G1" the next group's Stop button does not come where G1's was (a
    second click stopped G2 too); G1's button keeps its place, greyed, saying why
    (FIG-CHIT-7)."""
    win = make_window()
    start(win, "b1")
    doc = win.document
    for _ in range(100):
        prompt = doc.board.get("prompt")
        stops = [b for a, b in centre_view(win).prompt.buttons if a.get("verb") == "stop"]
        if prompt and prompt["kind"] == "chit_next" and len(stops) >= 2:
            break
        assert answer(qtbot, win) is not None
    else:
        raise AssertionError("no draw with two groups that may stop came")
    first = stops[0]
    point = first.mapTo(win, first.rect().center())
    stopped = first.text()
    qtbot.mouseClick(first, Qt.MouseButton.LeftButton)
    settle(3)
    statuses = {g["id"]: g["status"] for g in doc.state["groups"]}
    assert sorted(statuses.values()).count("stopped") == 1, statuses
    there = win.childAt(point)
    while there is not None and not isinstance(there, QAbstractButton):
        there = there.parentWidget()
    assert there is not None and there.text() == stopped and not there.isEnabled(), there
    assert "stopped" in there.toolTip()
    qtbot.mouseClick(there, Qt.MouseButton.LeftButton)     # the second click
    settle(3)
    assert {g["id"]: g["status"] for g in doc.state["groups"]} == statuses


def test_a_second_click_on_done_does_not_take_the_next_players_seat(make_window, qtbot):
    """c1: Done between two Events Segments hands the computer over; the hand-over's button
    does not come where Done or any other control was, so a double click on Done does not
    seat the next player (and show that side's secret cards to the one still sitting)."""
    win = make_window()
    start(win, "c1", seed=1)
    doc = win.document
    handed = 0
    for _ in range(20):
        try:
            to_between(qtbot, win)
        except AssertionError:
            break                                 # the run is over
        done = centre_view(win).prompt.find({"verb": "done"})
        assert done is not None
        before = [QRect(b.mapTo(win, QPoint(0, 0)), b.size())
                  for b in win.findChildren(QAbstractButton)
                  if b.isVisible() and b.isEnabled() and b.window() is win]
        point = done.mapTo(win, done.rect().center())
        qtbot.mouseClick(done, Qt.MouseButton.LeftButton)
        settle(3)
        if not win.overlay.isVisible():
            continue
        handed += 1
        button = win.overlay.button
        place = QRect(button.mapTo(win, QPoint(0, 0)), button.size())
        assert button.isVisible() and place.bottom() < win.height()
        assert not any(place.intersects(rect) for rect in before), (handed, place)
        qtbot.mouseClick(win.childAt(point), Qt.MouseButton.LeftButton)   # the second click
        settle(3)
        assert win.overlay.isVisible() and doc.seat == "public"
    assert handed >= 2


@pytest.mark.parametrize("scenario", ["a2", "a3"])
def test_continue_stays_in_one_place_between_the_steps(make_window, qtbot, scenario):
    """Continue (call off or go on, FIG-MIS-16) is at one place at every step (it moved as
    the environs and the groups table above it grew)."""
    win = make_window()
    start(win, scenario)
    places = []

    def note(_before, _action):
        found = [b for b in win.resolution.findChildren(QAbstractButton, "freedom-continue")
                 if b.isVisible()]
        if found:
            places.append(found[0].mapTo(win, QPoint(0, 0)).toTuple())
    play(qtbot, win, each=note)
    assert len(places) >= 2 and len(set(places)) == 1, places


@pytest.mark.parametrize("scenario", ["a1", "a4", "random", "b1", "c1"])
def test_after_any_answer_no_control_under_the_pointer_becomes_another(
        make_window, qtbot, scenario):
    """After each answer every enabled button that was in view is still there, or nothing
    enabled is there now, or its panel was replaced with a new title."""
    win = make_window()
    start(win, scenario)
    moved: list[str] = []

    def check(before, action):
        if win.overlay.isVisible():
            return                       # the whole window is covered by the hand-over
        for point, (text, title) in before.items():
            now = control_at(win, point)
            if now is None or now == (text, title) or now[1] != title:
                continue
            moved.append(f"after {action}: {text!r} in {title!r} became {now[0]!r}")
    answers = play(qtbot, win, each=check)
    assert answers >= 5
    assert moved == [], "\n".join(moved[:10])


@pytest.mark.parametrize("scenario", ["a1", "b1", "c1"])
def test_the_panels_keep_their_width_between_questions(make_window, qtbot, scenario):
    win = make_window()
    start(win, scenario)
    widths = set()

    def note(_before, _action):
        widths.add((win.decision_dock.width(), win.log_dock.width()))
    play(qtbot, win, each=note)
    assert len(widths) == 1, widths
    for dock in (win.decision_dock, win.log_dock, win.dice_dock):
        assert dock.minimumSizeHint().width() >= PANEL_MIN_WIDTH
    assert min(min(w) for w in widths) >= PANEL_MIN_WIDTH


# ------------------------------------------------------------------ in reach
@pytest.mark.parametrize("scenario, extra", [("a1", ""), ("a4", ""), ("random", ""),
                                             ("b1", ""), ("c1", ""),
                                             ("a3", "timeline"), ("b1", "history"),
                                             ("c1", "forecast")])
def test_answers_hint_and_do_it_are_whole_in_view_on_a_laptop(make_window, qtbot, scenario,
                                                             extra):
    """At 1366x768, for every question: the centre view's answer buttons, the answer list,
    Hint and Do it are whole on screen without scrolling, also with the timeline bar, the
    History or the Forecast open."""
    win = make_window()
    start(win, scenario)
    if extra == "timeline":
        win.act_timeline_bar.trigger()
    elif extra:
        win.show_panel(getattr(win, f"{extra}_dock"))
    settle(3)
    if extra:
        assert (win.timeline_bar if extra == "timeline"
                else getattr(win, f"{extra}_dock")).isVisible()
    hidden: list[str] = []

    def check(_before, _action):
        if win.overlay.isVisible() or not win.document.board.get("prompt"):
            return
        dock = win.decision_dock
        for name, widget in (("answer list", dock.choices), ("Hint", dock.hint_button),
                             ("Do it", dock.do_button)):
            if not whole(widget):
                hidden.append(f"{name} at {win.document.board['prompt']['kind']}")
        action = win.document.hint()
        button = shown_button(win, action)
        if button is not None and not whole(button):
            hidden.append(f"{button.text()!r} at {win.document.board['prompt']['kind']}")
    play(qtbot, win, each=check)
    assert hidden == [], sorted(set(hidden))


# ------------------------------------------------------------------ words
def test_a_cards_text_is_shown_once_and_the_answer_list_keeps_its_rows(make_window, qtbot):
    win = make_window()
    start(win, "c1")
    doc = win.document
    for _ in range(50):
        prompt = doc.board.get("prompt")
        if prompt and prompt["kind"] == "deck_card" and not win.overlay.isVisible():
            break
        answer(qtbot, win)
    full = doc.state["pending"]["text"]
    card_text = full.split(": ", 1)[1]
    assert len(card_text) > 80
    dock = win.decision_dock
    dock.ensure_widget()
    shown = {"banner": win.banner_text.text(), "answer list": dock.prompt_label.text(),
             "centre": centre_view(win).prompt.text.text()}
    assert card_text in shown["centre"]
    assert [k for k, text in shown.items() if card_text[:60] in text] == ["centre"]
    # The answer list has room for several rows, not two.
    rows = dock.choices.viewport().height() / dock.choices.sizeHintForRow(0)
    assert rows >= 5, rows


def test_the_outcome_is_in_a_players_words(make_window, qtbot):
    win = make_window()
    start(win, "b1")
    play(qtbot, win)
    board = win.document.board
    assert board["outcome"]
    view = centre_view(win)
    report = view.report.text.toPlainText()
    assert "seed 003" not in report and not re.search(r"\bL\d{3,4}\b", report)
    assert "the mission's results in the rulebook" in report
    statuses = [view.groups.item(r, 3).text() for r in range(view.groups.rowCount())]
    assert "drawing" not in statuses, statuses
    assert "seed 003" not in board["outcome"]["copy_text"]
    assert "The environs is resolved." in win.banner_text.text()
    assert board["outcome"]["result"] == "the environs is resolved"


def test_the_mission_phase_result_is_in_words(make_window, qtbot):
    win = make_window()
    start(win, "a1")
    play(qtbot, win)
    outcome = win.document.board["outcome"]
    assert re.fullmatch(r"G1 D Diplomacy: (level \d+|aborted|called off at level \d+)",
                        outcome["result"]), outcome["result"]
    assert outcome["result"] in win.banner_text.text()
    assert not re.search(r"\bD\d+\b", win.banner_text.text())


# ------------------------------------------------------------------ the wheel
def test_the_wheel_over_an_unfocused_choice_does_not_change_it(make_window, qtbot):
    """The group form's boxes (built afresh for each question) and the environs form's take
    the wheel only when focused: a turn of the wheel meant to scroll changes no choice."""
    from PySide6.QtWidgets import QAbstractSpinBox, QComboBox

    from struggle_desktop.games import get_game
    from struggle_desktop.ui.freedom.environs_form import EnvironsForm

    win = make_window()
    start(win, "random", 2)              # the players form the groups in the window
    doc = win.document
    assert doc.board["prompt"]["kind"] == "assign"
    combo = win.resolution.form.mission_combo
    assert combo.count() > 1
    combo.setCurrentIndex(0)
    win.setFocus()
    wheel(combo)
    assert combo.currentIndex() == 0
    boxes = [b for kind in (QComboBox, QAbstractSpinBox) for b in win.findChildren(kind)]
    assert all(b.focusPolicy() == Qt.FocusPolicy.StrongFocus for b in boxes)

    form = EnvironsForm(get_game("freedom"), win)
    qtbot.addWidget(form)
    form.show()                 # (a box's focus policy is set as it is made ready to show)
    qtbot.waitExposed(form)
    form.add_group()            # a group and its boxes made after the form was shown
    form.check()
    settle(3)
    boxes = [b for kind in (QComboBox, QAbstractSpinBox) for b in form.findChildren(kind)]
    assert boxes and all(b.focusPolicy() == Qt.FocusPolicy.StrongFocus for b in boxes)
    mission = form.groups[-1].mission
    mission.setCurrentIndex(0)
    form.setFocus()
    wheel(mission)
    assert mission.currentIndex() == 0
