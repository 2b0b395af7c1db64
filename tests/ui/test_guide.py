"""Help → How to Play: the player's guide in the window, opened at the game on screen, with the
window's own controls (the mouse, Space, the wheel and every command with its keys)."""

from __future__ import annotations

import re

import pytest

from struggle_desktop.ui.dialogs.guide import CONTROLS_TITLE, GuideDialog, guide_path, sections
from struggle_desktop.ui.screens import window_class


@pytest.fixture
def opened(qtbot, monkeypatch):
    """``open(game_id)``: a window of that game whose F1 dialog is captured, not shown."""
    made, shown = [], []

    def fake_exec(dialog):
        shown.append(dialog)
        return 0
    monkeypatch.setattr(GuideDialog, "exec", fake_exec)

    def open_window(game_id):
        win = window_class(game_id)()
        made.append(win)
        win.show()
        qtbot.waitExposed(win)
        win.act_guide.trigger()
        return win, shown[-1]
    yield open_window
    for win in made:
        win.document.dirty = False
        win.close()


@pytest.mark.parametrize("game_id, title", [
    ("struggle", "Playing Struggle for the Galactic Empire"),
    ("battles", "Playing Battles for the Galactic Empire"),
    ("nobles", "Playing Noble Houses"),
    ("freedom", "Resolving Freedom in the Galaxy missions")])
def test_f1_opens_the_guide_at_the_game_on_screen(opened, game_id, title):
    win, dialog = opened(game_id)
    assert win.act_guide.shortcut().toString() == "F1"
    assert dialog.index.currentItem().text() == title
    assert title in dialog.page.toPlainText()


def test_the_controls_section_lists_the_mouse_and_every_command(opened):
    win, dialog = opened("struggle")
    dialog.index.setCurrentRow(dialog.section_titles().index(CONTROLS_TITLE))
    text = dialog.page.toPlainText()
    for words in ("Mouse wheel", "Drag the empty map", "Space"):
        assert words in text
    for name, keys in win.shortcut_rows():
        assert name in text and (not keys or keys in text)


def test_every_picture_of_the_guide_exists():
    text = guide_path().read_text(encoding="utf-8")
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", text)
    assert pictures, "the guide shows the screens it describes"
    missing = [p for p in pictures if not (guide_path().parent / p).is_file()]
    assert missing == []


def test_the_struggle_section_walks_through_a_turn():
    parts = dict(sections(guide_path().read_text(encoding="utf-8")))
    struggle = parts["Playing Struggle for the Galactic Empire"]
    assert "### A turn of Struggle step by step" in struggle
    for phase in ("Chaos Events", "Imperial Recruitment", "Imperial Movement", "Imperial Combat"):
        assert phase in struggle


def test_the_controls_name_undo_without_the_action_it_would_take_back(opened):
    win, _ = opened("struggle")
    assert win.new_game("struggle", "3", 1, {})
    win.perform({"verb": "auto_place"})
    assert win.act_undo.text() != "&Undo"          # the menu names the action...
    names = [name for name, _ in win.shortcut_rows()]
    assert "Undo" in names and "Redo" in names       # ...the list of commands does not
    assert not any(name.startswith("Undo ") for name in names)


def test_a_guide_that_is_not_a_readable_file_is_refused_in_one_line(qtbot, tmp_path,
                                                                    monkeypatch):
    """The guide is read through the one checked loader: a folder in its place (or a pipe,
    or a huge file) gives one short line instead of an error."""
    import struggle_desktop.ui.dialogs.guide as guide
    (tmp_path / "playing.md").mkdir()
    monkeypatch.setattr(guide, "docs_dir", lambda: tmp_path)
    dialog = GuideDialog(None, "")
    qtbot.addWidget(dialog)
    text = dialog.page.toPlainText()
    assert text.startswith("The guide cannot be shown") and "is a folder" in text
