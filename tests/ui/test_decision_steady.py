"""The Decision panel holds still and shows whole answers, in the window of a 1366x768 screen.

A new user found long answers cut off ("...sector 04 Sagittarius Ga", no wrap, no tooltip),
answered questions piling up as greyed rows above the answers of the question asked now, and
the Do it and Hint buttons out of their place. Now: a long answer wraps onto a second line
(its row grows) and its tooltip holds its whole text; an answer no longer possible stays
greyed only while the pointer is over the list (so a second double-click on the same spot
never gives another answer), and goes when the pointer leaves or the answer came from
elsewhere; Do it and Hint keep their place on the screen whatever the answers."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.ui.helpers import struggle_window
from tests.ui.probes import settle

LAPTOP_WINDOW = (1366, 740)      # the window on a 1366x768 screen (less the task bar)


@pytest.fixture
def window(qtbot):
    yield from struggle_window(qtbot, size=LAPTOP_WINDOW)


def rows(dock):
    return [dock.choices.item(r) for r in range(dock.choices.count())]


def enabled(item) -> bool:
    return bool(item.flags() & Qt.ItemFlag.ItemIsEnabled)


def test_a_long_answer_wraps_and_its_tooltip_holds_all_of_it(window):
    assert window.new_game("struggle", "3", 7, {})
    settle(5)
    dock = window.decision_dock
    line = QFontMetrics(dock.choices.font()).height()
    room = dock.choices.viewport().width()
    long = [item for item in rows(dock)
            if QFontMetrics(dock.choices.font()).horizontalAdvance(item.text()) > room]
    assert long, "no answer wider than the list at this size (the test needs one)"
    for item in long[:10]:
        rect = dock.choices.visualItemRect(item)
        assert rect.height() >= 2 * line - 2, f"{item.text()!r} is on one line, cut off"
        assert rect.right() <= room, f"{item.text()!r} runs out of the list"
        assert item.text() in item.toolTip()
    assert dock.choices.horizontalScrollBar().maximum() == 0 or \
        not dock.choices.horizontalScrollBar().isVisible()


def test_an_answer_from_elsewhere_leaves_no_greyed_rows(window):
    """An answer given on the map or with Do it (the pointer is not over the list) leaves
    only the answers of the question asked now, in the list's first rows."""
    assert window.new_game("struggle", "3", 7, {})
    dock = window.decision_dock
    place = next(item for item in rows(dock)
                 if item.data(Qt.ItemDataRole.UserRole)["verb"] == "place")
    QTest.mouseMove(window.view.viewport(), QPoint(20, 20))      # the pointer on the map
    assert window.perform(place.data(Qt.ItemDataRole.UserRole))
    settle(5)
    assert all(enabled(item) for item in rows(dock)), [
        item.text() for item in rows(dock) if not enabled(item)]
    labels = [e["label"] for e in window.document.board["prompt"]["actions"]]
    assert sorted(item.text() for item in rows(dock)) == sorted(labels)


def test_greyed_rows_go_when_the_pointer_leaves_the_list(window, qtbot):
    """Answered with a double-click in the list, the answers no longer possible stay greyed
    in their place while the pointer is there (tests/ui/test_decision_panel.py), and go
    when it leaves the list."""
    assert window.new_game("struggle", "3", 7, {})
    dock = window.decision_dock
    item = next(item for item in rows(dock)
                if item.data(Qt.ItemDataRole.UserRole)["verb"] == "place")
    dock.choices.scrollToItem(item)
    point = dock.choices.visualItemRect(item).center()
    viewport = dock.choices.viewport()
    QTest.mouseMove(viewport, point)
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    QTest.mouseDClick(viewport, Qt.MouseButton.LeftButton, pos=point)
    settle(5)
    assert any(not enabled(row) for row in rows(dock))       # held while the pointer is there
    QApplication.sendEvent(viewport, QEvent(QEvent.Type.Leave))
    QTest.mouseMove(window.view.viewport(), QPoint(20, 20))
    settle(5)
    assert all(enabled(row) for row in rows(dock))


def test_do_it_and_hint_keep_their_place_as_the_answers_change(window):
    """Over the first questions of a game (set-up, then the turn's), each answer changing
    the list, its filter note, the question's text: Do it and Hint stay where they were."""
    assert window.new_game("struggle", "3", 7, {})
    settle(5)
    dock = window.decision_dock

    def places():
        return (dock.do_button.mapTo(window, QPoint(0, 0)),
                dock.hint_button.mapTo(window, QPoint(0, 0)),
                dock.do_button.visibleRegion().boundingRect().size(),
                dock.hint_button.visibleRegion().boundingRect().size())

    first = places()
    assert first[2] == dock.do_button.size() and first[3] == dock.hint_button.size()
    moments = 0
    for _ in range(12):
        prompt = window.document.board.get("prompt")
        if not prompt:
            break
        dock.filter.setText("no such answer anywhere")      # the note above the list
        settle(5)
        assert places() == first, "the filter's note moved the buttons"
        dock.filter.clear()
        entries = sorted(prompt["actions"], key=lambda e: -len(e["label"]))
        assert window.perform(entries[0]["action"])
        settle(5)
        if window.document.board.get("prompt"):
            moments += 1
            assert places() == first, f"moved after {entries[0]['label']!r}"
    assert moments >= 3
