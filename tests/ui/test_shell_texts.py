"""The shell's file dialogs name the game they save, whichever screen is open."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QFileDialog

from struggle_desktop.ui.screens import window_class


@pytest.mark.parametrize("game_id, scenario, title", [
    ("battles", "civil-war", "Battles for the Galactic Empire saves"),
    ("struggle", "3", "Struggle for the Galactic Empire saves")])
def test_save_as_names_the_game_it_saves(qtbot, monkeypatch, game_id, scenario, title):
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *args: (asked.append(args[3]), ("", ""))[1])
    window = window_class(game_id)()
    qtbot.addWidget(window)
    assert window.new_game(game_id, scenario, 1, {})
    assert window.save_as() is False
    assert asked and asked[0].startswith(title)
    assert "Struggle" not in asked[0] or game_id == "struggle"
    window.document.dirty = False


@pytest.mark.parametrize("game_id, scenario", [("struggle", "3"), ("battles", "civil-war"),
                                               ("nobles", "standard"), ("freedom", "a1")])
def test_each_window_title_names_its_own_game_then_the_program(qtbot, game_id, scenario):
    """Qt ends every title with the application's display name: it is the program's name,
    "Struggle Desktop", and the title before it names the window's own game, before a game is
    open and during one (not "struggle_desktop", not Struggle's title in another game)."""
    from struggle_desktop.games import get_game
    from struggle_desktop.ui.app import make_application

    app = make_application()
    assert app.applicationDisplayName() == "Struggle Desktop"
    title = get_game(game_id).title
    window = window_class(game_id)()
    qtbot.addWidget(window)
    assert window.windowTitle() == title
    assert window.new_game(game_id, scenario, 1, {})
    shown = window.windowTitle()
    assert shown.count(title) == 1 and "struggle_desktop" not in shown     # named once
    assert game_id == "struggle" or "Struggle for the Galactic Empire" not in shown
    window.document.dirty = False
