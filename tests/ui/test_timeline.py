"""The timeline in the window: looking back shows exactly the position a replay reaches, in
every game's window and from the seated player's view; nothing can be played, undone or
autosaved meanwhile; Save keeps the game as it is now; playing on from an earlier moment
makes a new file (the old one unchanged) or replaces the game after the player agreed; a log
entry's "Go to This Moment" finds when it was written; in hot-seat games with several
people, playing on from the past is not offered."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine import saves
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.ui.battles.window import BattlesWindow
from struggle_desktop.ui.document import autosave_path
from struggle_desktop.ui.freedom.window import FreedomWindow
from struggle_desktop.ui.main_window import MainWindow
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import window_maker

#: (window, game, scenario, options, actions to play)
WINDOWS = [
    (MainWindow, "struggle", "3", {}, 40),
    (BattlesWindow, "battles", "civil-war", {"blue_player": "human", "red_player": "human"}, 30),
    (NoblesWindow, "nobles", "standard", {"houses": 2, "seat1": "human", "seat2": "human"}, 25),
    (FreedomWindow, "freedom", "a3", {}, 12),
]


def play(window, actions: int) -> None:
    """Let the program's player take ``actions`` actions through the document (for whichever
    role waits: the tests here are about the record, not the seats)."""
    doc = window.document
    policy = tuple(getattr(doc.game, "policies", ("bot",)))[0]
    rng = Rng.from_seed(4, stream=99)
    for _ in range(actions):
        role = doc.waiting_role
        if role is None:
            break
        assert doc.perform(doc.session.choose(role, policy, rng), role).ok


def replayed(session: Session, k: int) -> Session:
    fresh = Session.new(session.game, session.scenario, session.seed, session.options)
    for entry in session.actions[:k]:
        fresh.perform(entry["role"], entry["action"])
    return fresh


@pytest.fixture(params=WINDOWS, ids=[w[1] for w in WINDOWS])
def window(request, qtbot):
    cls, game, scenario, options, actions = request.param

    def stop_programs(win):
        if hasattr(win, "program"):
            win.program.paused = True
    maker = window_maker(qtbot, cls, before_close=stop_programs)
    make = next(maker)
    win = make()
    if hasattr(win, "set_speed"):
        win.set_speed("instant")
    assert win.new_game(game, scenario, 7, options)
    play(win, actions)
    overlay = getattr(win, "overlay", None)
    for _ in range(3):           # a person sits at the table (the hand-over screen is gone)
        if overlay is None or not overlay.isVisible():
            break
        win.take_seat()
    assert overlay is None or not overlay.isVisible()
    yield win
    next(maker, None)


def test_looking_back_shows_the_replayed_position_in_every_window(window):
    doc = window.document
    present = doc.present
    n = doc.history_length
    shown = doc.moments()
    m = len(shown) - 1
    assert n >= 10 and m >= 10 and shown[-1] == n
    # Where one person plays, every action is a moment; where several people share the game
    # (here two people in Battles and Noble Houses), the moments every seat may see.
    assert doc.shared == (doc.game.id in ("battles", "nobles"))
    assert shown == list(range(n + 1)) or doc.shared
    for i in (m - 1, 0, m // 2, 3, m - 4):
        k = shown[i]
        window.look_at(k)
        assert doc.looking_back and doc.position == k and doc.moment_index() == i
        expected = replayed(present, k)
        assert doc.game.digest(doc.state) == doc.game.digest(expected.state)
        # What the window draws is that position as the seat saw it.
        assert doc.board == doc.game.board(expected.state, doc.seat)
        assert window.timeline_bar.slider.value() == i
        unit = "moment" if doc.shared else "action"
        assert f"looking back at {unit} {i} of {m}" in window.windowTitle()
        assert window.timeline_bar.where.text().startswith(f"{unit.capitalize()} {i} of {m}")
    window.back_to_present()
    assert not doc.looking_back and doc.session is present and doc.position == n


def test_steps_and_turns_move_through_the_game(window):
    doc = window.document
    shown = doc.moments()
    m = len(shown) - 1
    window.act_step_back.trigger()
    assert doc.position == shown[m - 1]
    window.act_step_forward.trigger()
    assert not doc.looking_back
    window.look_at(shown[5])
    window.act_step_back.trigger()
    window.act_step_back.trigger()
    assert doc.position == shown[3]
    starts = doc.turn_starts()
    assert set(starts) <= set(shown)
    window.act_turn_forward.trigger()
    later = [k for k in starts if k > shown[3]]
    assert doc.position == (later[0] if later else shown[m]) or not doc.looking_back
    window.look_at(shown[m - 1])
    window.act_turn_back.trigger()
    earlier = [k for k in starts if k < shown[m - 1]]
    assert doc.position == (earlier[-1] if earlier else 0)
    window.timeline_bar.slider.setValue(2)
    assert doc.position == shown[2]
    window.act_present.trigger()
    assert not doc.looking_back


def test_nothing_is_played_undone_or_autosaved_while_looking_back(window, tmp_path):
    doc = window.document
    autosave = autosave_path()
    before = autosave.read_bytes()
    n = doc.history_length
    window.look_at(doc.moments()[-3])
    assert not window.act_undo.isEnabled() and not window.act_redo.isEnabled()
    assert doc.legal_actions() == [] and doc.waiting_role is None and doc.hint() is None
    result = doc.perform({"verb": "continue"}, doc.game.roles[0])
    assert not result.ok and "looking back" in result.reason
    for _ in range(20):
        QApplication.processEvents()
    assert autosave.read_bytes() == before
    assert doc.history_length == n
    # Save keeps the game as it is now, not the moment on show.
    path = tmp_path / "now.sgsave"
    assert window._save_to(path)
    assert len(saves.read_document(path)["actions"]) == n
    assert doc.looking_back and doc.position == doc.moments()[-3]


def test_playing_on_as_a_new_game_leaves_the_old_file_as_it_was(window, tmp_path):
    doc = window.document
    old = tmp_path / "old.sgsave"
    assert window._save_to(old)
    original = old.read_bytes()
    present = doc.present
    k = doc.moments()[6]
    window.look_at(k)
    new = tmp_path / "new.sgsave"
    assert window.play_on_in(new)
    assert old.read_bytes() == original
    assert not doc.looking_back and doc.path == new and doc.history_length == k
    loaded = Session.from_document(doc.game, saves.read_document(new))[0]
    assert loaded.actions == present.actions[:k]
    # The same actions from there lead where the old game went.
    for entry in present.actions[k:]:
        assert doc.perform(entry["action"], entry["role"]).ok
    assert doc.game.digest(doc.state) == doc.game.digest(present.state)


def test_playing_on_in_place_drops_the_later_actions(window, tmp_path):
    doc = window.document
    path = tmp_path / "game.sgsave"
    assert window._save_to(path)
    n = doc.history_length
    k = doc.moments()[4]
    window.look_at(k)
    assert window.play_on_in(None)
    assert doc.path == path and doc.history_length == k and not doc.looking_back
    assert len(saves.read_document(path)["actions"]) == k
    assert f"{n - k} later actions dropped" in window.status_text.text()


def test_a_log_entry_leads_to_the_moment_it_was_written(window):
    doc = window.document
    log = window.log_dock
    log.ensure_widget()
    entries = doc.log_entries(0)
    index = len(entries) * 2 // 3
    log.go_to_entry(index)
    k = doc.position
    assert doc.looking_back or k == doc.history_length
    shown = doc.log_entries(0)
    assert len(shown) > index and shown[index] == entries[index]
    shown = doc.moments()
    assert k in shown
    i = shown.index(k)
    if i > 0:       # the moment before did not have it yet
        before = replayed(doc.present, shown[i - 1])
        assert len(doc.game.log_entries(before.state, 0, role=doc.seat)) <= index


def test_hot_seat_with_two_people_offers_no_play_on(qtbot, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    told = []
    monkeypatch.setattr(QMessageBox, "information",
                        lambda parent, title, text: told.append(text))
    maker = window_maker(qtbot, BattlesWindow)
    make = next(maker)
    win = make()
    assert win.new_game("battles", "civil-war", 3,
                        {"blue_player": "human", "red_player": "human"})
    play(win, 8)
    win.look_at(3)
    assert win.branch_refusal() is not None
    win.play_on_from_here()
    assert told and "Several people" in told[0]
    assert win.document.looking_back and win.document.history_length == 8
    win.program.paused = True
    next(maker, None)


def test_against_the_program_looking_back_stops_it_and_play_on_is_offered(qtbot):
    maker = window_maker(qtbot, BattlesWindow)
    make = next(maker)
    win = make()
    assert win.new_game("battles", "civil-war", 3, {"blue_player": "human", "red_player": "bot"})
    for _ in range(200):
        QApplication.processEvents()
        if win.document.waiting_role == "blue" and not win.overlay.isVisible():
            break
    play(win, 1)
    n = win.document.history_length
    win.look_at(1)
    for _ in range(50):
        QApplication.processEvents()
    assert win.document.history_length == n      # the program did not act meanwhile
    assert win.branch_refusal() is None
    # The past is drawn as the person at the table saw it.
    assert win.document.seat == "blue"
    win.program.paused = True
    next(maker, None)


def test_the_bar_comes_up_while_looking_back_and_stays_when_asked(window):
    bar = window.timeline_bar
    assert bar.isHidden()                       # a laptop screen keeps its height
    window.act_step_back.trigger()
    assert not bar.isHidden() and bar.looking_back_items[0].isVisible()
    window.act_present.trigger()
    assert bar.isHidden()
    window.act_timeline_bar.trigger()           # Show Timeline Bar
    assert not bar.isHidden()
    window.act_step_back.trigger()
    window.act_present.trigger()
    assert not bar.isHidden()


def test_no_forecast_between_people_who_hide_things_from_each_other(qtbot):
    """A forecast plays on with every hidden hand as it stands: at a table of two people it
    would tell one what the other hides. Against the program it is offered."""
    maker = window_maker(qtbot, BattlesWindow)
    make = next(maker)
    win = make()
    assert win.new_game("battles", "civil-war", 3,
                        {"blue_player": "human", "red_player": "human"})
    dock = win.forecast_dock
    win.show_panel(dock)
    assert not dock.run_button.isEnabled() and "Several people" in dock.note.text()
    dock.start()
    assert dock.done and dock.summaries == []
    win.program.paused = True
    next(maker, None)


def test_a_new_game_is_never_written_over_the_game_being_played(window, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    warned = []
    monkeypatch.setattr(QMessageBox, "warning", lambda parent, title, text: warned.append(text))
    doc = window.document
    path = tmp_path / "game.sgsave"
    assert window._save_to(path)
    original = path.read_bytes()
    window.look_at(3)
    assert not window.play_on_in(path)
    assert warned and "holds the game you are playing" in warned[0]
    assert path.read_bytes() == original and doc.looking_back
