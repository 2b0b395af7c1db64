"""A home whose folders cannot be written (read-only, ``HOME=/nonexistent``): the window still
starts, with its settings in memory, says so once, and promises no autosave it cannot write.

The folders are made unwritable by putting a plain file where the folder should be: that holds
for any user, root too (a read-only mode does not stop root).
"""

from __future__ import annotations

from argparse import Namespace

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from struggle_desktop.ui.main_window import MainWindow
from struggle_desktop.ui.settings import unwritable_folders
from struggle_desktop.ui.shell import GameWindow


@pytest.fixture(params=["STRUGGLE_DESKTOP_HOME", "HOME"])
def blocked_home(request, tmp_path, monkeypatch):
    """A home that is a plain file: no folder can be made under it. Either the program's own
    STRUGGLE_DESKTOP_HOME, or the user's HOME, from which platformdirs makes the folders
    (``~/.config/struggle_desktop``...) as on an installed system."""
    home = tmp_path / "home-is-a-file"
    home.write_text("")
    if request.param == "HOME":
        monkeypatch.delenv("STRUGGLE_DESKTOP_HOME", raising=False)
        for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"):
            monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv(request.param, str(home))
    return home


@pytest.fixture
def boxes(monkeypatch):
    """Message boxes recorded instead of shown: (kind, title, text)."""
    shown: list = []

    def recorder(kind, answer):
        def box(parent, title, text, *args, **kwargs):
            shown.append((kind, title, text))
            return answer
        return box
    monkeypatch.setattr(QMessageBox, "warning", recorder("warning", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question",
                        recorder("question", QMessageBox.StandardButton.Cancel))
    return shown


def started_windows(before: set) -> list:
    return [w for w in QApplication.topLevelWidgets()
            if isinstance(w, GameWindow) and w not in before]


def test_the_window_starts_with_settings_in_memory_and_says_so(qtbot, blocked_home, boxes,
                                                               monkeypatch):
    from struggle_desktop.ui import app

    asked: list = []
    monkeypatch.delenv(app.AUTOPILOT_VARIABLE, raising=False)
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)     # no event loop
    monkeypatch.setattr(GameWindow, "new_game_dialog", lambda self: asked.append(self))
    before = set(QApplication.topLevelWidgets())
    font = QApplication.font()
    try:
        assert app.main(Namespace(command=None, game_id=None)) == 0     # no traceback
        windows = started_windows(before)
        assert len(windows) == 1
        window = windows[0]
        assert "settings kept in memory only" in window.status_text.text()
        assert "no autosave" in window.status_text.text()
        qtbot.waitUntil(lambda: bool(asked), timeout=5000)
        # One message, before the new-game dialog, naming each folder and what is lost.
        notices = [b for b in boxes if b[0] == "warning"]
        assert len(notices) == 1 and asked == [window]
        text = notices[0][2]
        for what in ("settings", "autosave", "cache"):
            assert f"{what} folder" in text
        assert str(blocked_home) in text
        # The settings still work for this run, in memory.
        window.settings.setValue("files/recent", ["x"])
        assert window.settings.value("files/recent") == ["x"]
        window.settings.sync()
        assert blocked_home.read_text() == ""
    finally:
        for window in started_windows(before):
            window.document.dirty = False
            window.close()
            window.deleteLater()
        QApplication.setFont(font)


def test_unwritable_folders_names_only_what_cannot_be_written(tmp_path, monkeypatch):
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path / "fine"))
    assert unwritable_folders() == []
    (tmp_path / "partly").mkdir()
    (tmp_path / "partly" / "data").write_text("")       # only the autosave folder is blocked
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path / "partly"))
    assert [what for what, *_ in unwritable_folders()] == ["autosave"]


def test_each_folder_under_the_blocked_home_is_named_and_settings_stay_in_memory(blocked_home):
    """The settings work in memory, and all three folders are named: those under
    STRUGGLE_DESKTOP_HOME, or without it the user's own under HOME (platformdirs)."""
    from struggle_desktop.engine.paths import user_cache_dir, user_config_dir, user_data_dir
    from struggle_desktop.ui.settings import app_settings

    settings = app_settings()                   # no PermissionError, no NotADirectoryError
    settings.setValue("view/speed", 3)
    assert settings.value("view/speed") == 3
    found = unwritable_folders()
    assert [(what, folder) for what, folder, *_ in found] == [
        ("settings", user_config_dir()), ("autosave", user_data_dir()),
        ("cache", user_cache_dir())]
    assert all(folder.is_relative_to(blocked_home) for _, folder, *_ in found)


def test_autosaves_and_the_layout_fail_quietly_after_the_start(qtbot, blocked_home, boxes):
    """Playing on where nothing can be written: the autosave failure is said once, not at
    every action, and closing the window (which keeps the layout) raises nothing."""
    window = MainWindow()
    qtbot.addWidget(window)
    said: list = []
    window.document.message.connect(said.append)
    window.show()
    assert window.new_game("struggle", "3", 1, {})
    window.perform({"verb": "auto_place"})
    assert window.document.autosaved is False
    assert len([line for line in said if line.startswith("Autosave failed")]) == 1
    window.document.dirty = False
    assert window.close() is True
    assert blocked_home.read_text() == ""


@pytest.mark.parametrize("blocked, promised", [(None, True), ("data", False), ("home", False)])
def test_the_quit_question_promises_the_autosave_only_when_it_was_written(
        qtbot, tmp_path, monkeypatch, boxes, blocked, promised):
    """Closing an unsaved game: "it is also kept in the autosave" only when it is: not when
    the autosave folder alone (``data``) cannot be written, nor the whole home."""
    home = tmp_path / "home"
    if blocked == "home":
        home.write_text("")
    elif blocked == "data":
        home.mkdir()
        (home / "data").write_text("")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(home))
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    assert window.new_game("struggle", "3", 1, {})
    window.perform({"verb": "auto_place"})
    assert window.document.dirty
    assert window.close() is False              # the question was answered Cancel
    questions = [text for kind, _, text in boxes if kind == "question"]
    assert len(questions) == 1
    assert ("also kept in the autosave" in questions[0]) is promised
    assert ("not kept in the autosave" in questions[0]) is not promised
    window.document.dirty = False
