"""The Decision panel's filter: a new question clears it, and a filter that hides every answer
says so (a new user once found "program" still typed in the box at the next question, whose
list then looked empty)."""

from __future__ import annotations

import pytest

from tests.ui.helpers import struggle_window


@pytest.fixture
def window(qtbot):
    yield from struggle_window(qtbot)


def shown_labels(panel) -> list[str]:
    return [panel.choices.item(r).text() for r in range(panel.choices.count())
            if not panel.choices.item(r).isHidden()]


def test_a_new_question_clears_the_filter(window):
    assert window.new_game("struggle", "3", 1, {})
    panel_dock = window.decision_dock
    panel_dock.filter.setText("program")
    assert [label.lower() for label in shown_labels(panel_dock)] == [
        "let the program place everything"]
    window.perform({"verb": "auto_place"})
    prompt = window.document.board["prompt"]
    assert prompt is not None and prompt["kind"] != "setup_placement"
    assert panel_dock.filter.text() == ""
    assert len(shown_labels(panel_dock)) == len(prompt["actions"]) > 0


def test_a_filter_hiding_every_answer_says_so_and_offers_to_clear_it(window, qtbot):
    assert window.new_game("struggle", "3", 1, {})
    dock = window.decision_dock
    dock.filter.setText("no such answer anywhere")
    assert shown_labels(dock) == []
    assert dock.hidden_note.isVisible()
    total = dock.choices.count()
    assert f"0 of {total} shown" in dock.hidden_note.text()
    dock.hidden_note.linkActivated.emit("clear")
    assert dock.filter.text() == "" and not dock.hidden_note.isVisible()
    assert len(shown_labels(dock)) == total


def test_the_same_question_keeps_the_filter(window):
    """Answering one of several moves asks the same question again: the filter stays."""
    assert window.new_game("struggle", "3", 1, {})
    dock = window.decision_dock
    dock.filter.setText("nexus")
    board_before = window.document.board
    dock.update_widget()        # the same question drawn again
    assert window.document.board is board_before and dock.filter.text() == "nexus"


def test_a_status_message_lasts_until_the_game_moves_on(window):
    assert window.new_game("struggle", "3", 1, {})
    assert not window.perform({"verb": "no such verb"})
    refusal = window.status_text.text()
    assert refusal.startswith("Not possible")
    window.decision_dock.update_widget()      # the same moment drawn again: still said
    assert window.status_text.text() == refusal
    assert window.perform({"verb": "auto_place"})
    assert window.status_text.text() != refusal


def test_the_same_question_keeps_its_rows_and_a_second_double_click_gives_nothing_else(
        window, qtbot):
    """A purchase or a move asks the same question again: the answers that are gone stay a
    turn, greyed out, where they were, so a second double-click on the same spot never
    becomes another answer (once, two purchases on a world and a double-click bought a
    different unit than the one under the pointer)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    assert window.new_game("struggle", "3", 1, {})
    dock = window.decision_dock
    rows_before = [dock.choices.item(r).text() for r in range(dock.choices.count())]
    row = next(r for r in range(dock.choices.count())
               if dock.choices.item(r).data(Qt.ItemDataRole.UserRole)["verb"] == "place")
    item = dock.choices.item(row)
    dock.choices.scrollToItem(item)
    point = dock.choices.visualItemRect(item).center()
    placed = item.data(Qt.ItemDataRole.UserRole)

    def double_click():
        viewport, left = dock.choices.viewport(), Qt.MouseButton.LeftButton
        QTest.mouseClick(viewport, left, pos=point)
        QTest.mouseDClick(viewport, left, pos=point)

    double_click()
    assert window.document.session.actions[-1]["action"] == placed
    assert dock.choices.item(row).text() == rows_before[row]        # nothing slid up
    assert not dock.choices.item(row).flags() & Qt.ItemFlag.ItemIsEnabled
    actions = len(window.document.session.actions)
    double_click()
    assert len(window.document.session.actions) == actions           # the greyed row: nothing
