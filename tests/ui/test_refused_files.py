"""Files that cannot hurt: a file the window cannot play gives one short warning and leaves the
open game exactly as it was (same window, game, actions, file name, unsaved flag, undo), by
every way of opening one; a good save of another game still opens in its own window; and what
interrupted saves left behind goes at start, and nothing else does."""

from __future__ import annotations

import json
import os
import shutil
import time
from argparse import Namespace
from contextlib import contextmanager
from pathlib import Path

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from struggle_desktop.ui.main_window import MainWindow
from struggle_desktop.ui.shell import OPEN_WINDOWS, clean_leftovers
from tests.ui.helpers import window_maker

GOLDEN = Path(__file__).resolve().parents[1] / "games" / "battles" / "golden"
BATTLES_SAVE = GOLDEN / "civil-war-bot-seed3.json"


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, MainWindow)


@pytest.fixture
def dialogs(monkeypatch):
    """Every message box the window shows, recorded instead of waiting for a click:
    ``dialogs["warning"]`` holds (title, text) pairs, and so on. A "save first?" question
    is answered Cancel (a refused file must never ask it)."""
    shown: dict[str, list] = {"warning": [], "information": [], "question": []}

    def recorder(kind, answer):
        def box(parent, title, text, *args, **kwargs):
            shown[kind].append((title, text))
            return answer
        return box
    monkeypatch.setattr(QMessageBox, "warning", recorder("warning", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "information",
                        recorder("information", QMessageBox.StandardButton.Ok))
    monkeypatch.setattr(QMessageBox, "question",
                        recorder("question", QMessageBox.StandardButton.Cancel))
    return shown


@pytest.fixture
def playing(make_window, tmp_path):
    """A Struggle game with a file name, unsaved changes and something to undo."""
    window = make_window()
    window.set_speed("instant")
    assert window.new_game("struggle", "3", 1, {})
    window.perform({"verb": "auto_place"})
    assert window._save_to(tmp_path / "mine.sgsave")
    for _ in range(10):                 # up to an action that can be undone
        window.document.perform(window.document.hint())     # (no odds dialog)
        if window.document.undo_reason() is None:
            break
    assert window.document.dirty and window.document.undo_reason() is None
    before = len(OPEN_WINDOWS)
    yield window
    for other in OPEN_WINDOWS[before:]:
        other.document.dirty = False
        other.close()
    del OPEN_WINDOWS[before:]


def picture(window) -> dict:
    """What must not change when a file is refused."""
    doc = window.document
    return {"visible": window.isVisible(), "game": doc.game.id, "session": id(doc.session),
            "actions": len(doc.session.actions), "digest": doc.game.digest(doc.state),
            "path": doc.path, "dirty": doc.dirty, "undo": (len(doc._undo), doc.undo_label()),
            "redo": len(doc._redo), "title": window.windowTitle()}


# ------------------------------------------------------------------ the files
def battles_save(**changes):
    document = json.loads(BATTLES_SAVE.read_text())
    for key, change in changes.items():
        change(document)
    return json.dumps(document)


def write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


def _bogus_action(document):
    document["actions"][5]["action"]["verb"] = "bogus"


def _wrong_digest(document):
    document["digests"][-1]["digest"] = "0" * len(document["digests"][-1]["digest"])


def _freedom_passwd(folder: Path) -> Path:
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    path = folder / "environs.sgsave"
    Session.new(get_game("freedom"), "custom", 1, {}).save(path)
    document = json.loads(path.read_text())
    document["options"]["context"] = "/etc/passwd"
    return write(path, json.dumps(document))


def _fifo(folder: Path) -> Path:
    path = folder / "pipe.sgsave"
    os.mkfifo(path)
    return path


def _dev_zero(folder: Path) -> Path:
    path = folder / "zero.sgsave"
    path.symlink_to("/dev/zero")
    return path


def _folder(folder: Path) -> Path:
    path = folder / "folder.sgsave"
    path.mkdir()
    return path


REFUSED = {
    "another game's save, an action changed": lambda d: write(
        d / "battles.sgsave", battles_save(a=_bogus_action)),
    "another game's save, a wrong digest": lambda d: write(
        d / "battles.sgsave", battles_save(a=_wrong_digest)),
    "a truncated save": lambda d: write(
        d / "cut.sgsave", BATTLES_SAVE.read_text()[: BATTLES_SAVE.stat().st_size // 2]),
    "an empty file": lambda d: write(d / "empty.sgsave", ""),
    "a folder": _folder,
    "a FIFO": _fifo,
    "a symlink to /dev/zero": _dev_zero,
    "1,000 levels of nesting": lambda d: write(
        d / "deep.sgsave", '{"format": "struggle-desktop-save", "x": '
        + "[" * 1000 + "]" * 1000 + "}"),
    "a game this program does not know": lambda d: write(
        d / "chess.sgsave", battles_save(a=lambda doc: doc.update(game="chess"))),
    "a Freedom save naming /etc/passwd": _freedom_passwd,
}


def assert_refused_once(dialogs, window, before):
    assert [title for title, _ in dialogs["warning"]] == ["Cannot open the game"]
    text = dialogs["warning"][0][1]
    assert 0 < len(text) < 400 and "\n" not in text and "root:" not in text
    assert "Traceback" not in text
    assert dialogs["question"] == [] and dialogs["information"] == []
    assert picture(window) == before
    assert window in [w for w in QApplication.topLevelWidgets() if w.isVisible()]


@pytest.mark.parametrize("kind", list(REFUSED))
def test_file_open_of_a_bad_file_changes_nothing(playing, dialogs, tmp_path, monkeypatch, kind):
    from PySide6.QtWidgets import QFileDialog

    path = REFUSED[kind](tmp_path)
    before = picture(playing)
    recent = playing.recent_files()
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), ""))
    windows = len(OPEN_WINDOWS)
    playing.act_open.trigger()
    assert_refused_once(dialogs, playing, before)
    assert len(OPEN_WINDOWS) == windows          # no window of another screen was made
    assert playing.recent_files() == recent


def test_an_unexpected_error_while_replaying_becomes_the_same_warning(playing, dialogs,
                                                                      tmp_path, monkeypatch):
    """Whatever a hostile file provokes that nobody foresaw: one short line naming its kind."""
    from struggle_desktop.engine.session import Session

    def explode(*args, **kwargs):
        raise KeyError("root:x:0:0:root:/root:/bin/bash")
    monkeypatch.setattr(Session, "from_document", explode)
    path = write(tmp_path / "battles.sgsave", BATTLES_SAVE.read_text())
    before = picture(playing)
    assert playing.open_file(path) is None
    assert_refused_once(dialogs, playing, before)
    assert dialogs["warning"][0][1] == \
        "cannot open battles.sgsave: the file could not be replayed (KeyError)"


def test_a_bad_file_from_the_recent_files_menu(playing, dialogs, tmp_path):
    path = write(tmp_path / "battles.sgsave", BATTLES_SAVE.read_text())
    playing.add_recent(path)
    write(path, battles_save(a=_bogus_action))           # damaged since
    before = picture(playing)
    entry = next(a for a in playing.recent_menu.actions() if a.toolTip() == str(path.resolve()))
    entry.trigger()
    assert_refused_once(dialogs, playing, before)


def test_a_bad_file_from_the_new_game_dialog(playing, dialogs, tmp_path, monkeypatch):
    import struggle_desktop.ui.dialogs.new_game as new_game

    path = _fifo(tmp_path)
    monkeypatch.setattr(new_game, "choose_new_game",
                        lambda parent, recent, **_: {"kind": "open", "path": str(path)})
    before = picture(playing)
    playing.act_new.trigger()
    assert_refused_once(dialogs, playing, before)


def test_open_file_at_start_up_gives_one_warning(dialogs, tmp_path, monkeypatch):
    """``struggle-desktop open FILE`` (the file went bad after the command line checked it):
    one warning, an empty window, no traceback."""
    from struggle_desktop.ui import app

    path = write(tmp_path / "deep.sgsave", "[" * 1000 + "]" * 1000)
    with program_started(monkeypatch) as started:
        assert app.main(Namespace(command="open", file=str(path), game_id="struggle")) == 0
        assert len(started()) == 1 and started()[0].document.session is None
        assert [title for title, _ in dialogs["warning"]] == ["Cannot open the game"]
        assert len(dialogs["warning"][0][1]) < 400


@contextmanager
def program_started(monkeypatch):
    """Run the program's start without an event loop; yields a function that lists the main
    windows it started. They are closed afterwards."""
    monkeypatch.setattr(QApplication, "exec", lambda self: 0)     # no event loop
    before = set(QApplication.topLevelWidgets())
    font = QApplication.font()          # main sets the program's own

    def started() -> list:
        return [w for w in QApplication.topLevelWidgets()
                if isinstance(w, MainWindow) and w not in before]

    try:
        yield started
    finally:
        for window in started():
            window.close()
            window.deleteLater()
        QApplication.setFont(font)


def test_a_good_save_of_another_game_still_switches_windows(playing, dialogs, tmp_path,
                                                           monkeypatch):
    from struggle_desktop.ui.battles.window import BattlesWindow

    path = tmp_path / "battles.sgsave"
    shutil.copyfile(BATTLES_SAVE, path)
    # The unsaved Struggle game: the player is asked, and lets it go.
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Discard)
    opened = playing.open_file(path)
    assert isinstance(opened, BattlesWindow) and opened.isVisible()
    assert not playing.isVisible()
    assert opened.document.game.id == "battles" and opened.document.path == path
    assert len(opened.document.session.actions) == len(json.loads(path.read_text())["actions"])
    assert not opened.document.dirty and dialogs["warning"] == []
    assert path.resolve() in [p.resolve() for p in opened.recent_files()]
    assert opened.status_text.text().startswith("Opened battles.sgsave")


# ------------------------------------------------------------------ leftovers at start
def test_stale_temporaries_go_at_start_and_nothing_else(qapp, tmp_path):
    from struggle_desktop.engine.paths import user_data_dir
    from struggle_desktop.ui.settings import app_settings

    data = user_data_dir()
    data.mkdir(parents=True, exist_ok=True)
    games = tmp_path / "games"
    games.mkdir()
    mine = games / "mine.sgsave"
    mine.write_text("{}")
    settings = app_settings()
    settings.setValue("files/recent", [str(mine)])
    old = time.time() - 3600

    def leave(folder: Path, name: str, stale: bool) -> Path:
        path = folder / name
        path.write_text("half a save")
        if stale:
            os.utime(path, (old, old))
        return path
    stale = [leave(data, ".autosave.sgsave.abcd1234.tmp", True),
             leave(data, ".autosave-1.sgsave.a_b_c_d_.tmp", True),
             leave(data, ".other.json.zz99yy88.tmp", True),
             leave(games, ".mine.sgsave.k2j3h4g5.tmp", True)]
    kept = [leave(data, ".autosave.sgsave.fresh123.tmp", False),      # a save in progress
            leave(games, ".mine.sgsave.fresh456.tmp", False),
            leave(data, ".bashrc.tmp", True), leave(data, "notes.tmp", True),
            leave(games, ".bashrc.tmp", True), leave(games, "notes.tmp", True),
            # Beside a recent file, only that file's temporaries are its business.
            leave(games, ".theirs.sgsave.k2j3h4g5.tmp", True)]
    assert clean_leftovers(settings) == len(stale)
    assert [p for p in stale if p.exists()] == []
    assert [p for p in kept if not p.exists()] == []
    assert mine.read_text() == "{}"


def test_cleaning_survives_odd_recent_entries(qapp, tmp_path):
    from struggle_desktop.ui.settings import app_settings

    settings = app_settings()
    settings.setValue("files/recent", [str(tmp_path / "gone" / "x.sgsave"), "/", "a\x00b"])
    assert clean_leftovers(settings) == 0


def test_open_at_start_up_shows_the_session_the_command_line_checked(dialogs, tmp_path,
                                                                     monkeypatch):
    """``struggle-desktop open FILE`` replays the save once, on the command line, and the
    window shows that very session: the file is not read or replayed a second time."""
    from struggle_desktop import cli
    from struggle_desktop.engine import saves
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    path = tmp_path / "game.sgsave"
    session = Session.new(get_game("struggle"), "3", 5)
    session.perform("imperial", {"verb": "auto_place"})
    session.save(path)
    reads = []
    real_read = saves.read_document
    monkeypatch.setattr(saves, "read_document", lambda p: reads.append(p) or real_read(p))
    with program_started(monkeypatch) as started:
        assert cli.main(["open", str(path)]) == 0
        assert len(started()) == 1 and len(reads) == 1
        shown = started()[0].document
        assert shown.path == path and len(shown.session.actions) == 1 and not shown.dirty
        assert dialogs["warning"] == []


def test_a_save_the_system_hands_over_opens_in_the_window(playing, dialogs, tmp_path):
    """macOS gives a save double-clicked in the Finder to the running program as a FileOpen
    event: it opens like File > Open (here a Battles save, in the Battles window), and a bad
    one is refused the same way."""
    from PySide6.QtGui import QFileOpenEvent

    from struggle_desktop.ui.app import front_window, listen_for_opened_files

    app = QApplication.instance()
    listen_for_opened_files(app)
    listen_for_opened_files(app)                        # a second call adds nothing
    before = picture(playing)
    QApplication.sendEvent(app, QFileOpenEvent(str(_fifo(tmp_path))))
    assert_refused_once(dialogs, playing, before)

    playing.document.dirty = False                     # (no "save first?" question)
    path = write(tmp_path / "battles.sgsave", BATTLES_SAVE.read_text())
    QApplication.sendEvent(app, QFileOpenEvent(str(path)))
    shown = front_window()
    assert shown is not playing and shown.document.game.id == "battles"
    assert "battles.sgsave" in shown.windowTitle()
