"""Issue 6's new-user check, through the screen only: a Rebel Diplomacy and an Imperial Coup
are entered in the New Environs form with its own widgets (no table read: the form offers the
charts' names and values), started from the window's Game menu, resolved with the resolution
view's buttons, and the summary says what to change on the board."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog

from struggle_desktop.ui.freedom import environs_form
from tests.ui.test_freedom_form import fill_imperial_coup, fill_rebel_diplomacy
# make_window is the window tests' fixture: imported by name, pytest finds it here too.
from tests.ui.test_freedom_window import click, make_window, play_until  # noqa: F401


def summary_shown(win) -> bool:
    return bool(win.document.board.get("outcome"))


@pytest.mark.parametrize("fill, mission, board_change", [
    (fill_rebel_diplomacy, "D (Diplomacy", "Loyalty shifts toward the rebel"),
    (fill_imperial_coup, "C (Coup", "Loyalty shifts toward the imperial"),
])
def test_a_new_user_sets_up_and_resolves_a_mission_through_the_screen(
        make_window, qtbot, monkeypatch, fill, mission, board_change):  # noqa: F811
    def filled_by_the_user(form):
        fill(qtbot, form)
        assert form.ok_button.isEnabled(), form.message
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(environs_form.EnvironsForm, "exec", filled_by_the_user)
    win = make_window()
    win.act_environs.trigger()
    QApplication.processEvents()
    assert win.document.state["scenario"] == "custom"
    assert play_until(qtbot, win, summary_shown)
    changes = [line["text"] for line in win.document.board["outcome"]["lines"]]
    assert any(mission in text for text in changes)
    click(qtbot, win, "freedom-copy")
    copied = QGuiApplication.clipboard().text()
    assert mission in copied
    # The mission's level decides whether the loyalty moves; when it does, the summary says so.
    level = next(g["level"] for g in win.document.state["groups"])
    assert (board_change in copied) == (level > 0)
