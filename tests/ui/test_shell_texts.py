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
