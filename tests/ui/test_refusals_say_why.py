"""Refused actions say why, on the real windows: Undo and Redo by their keys in every game's
window (after a roll as well as with nothing to take back), a Noble Houses jumpship dropped
out of range names where it may go, and a Struggle counter an event asks to move can be dragged
(or the refusal says where to click)."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.hexgrid import distance
from struggle_desktop.engine.rng import Rng
from struggle_desktop.ui.battles.window import BattlesWindow
from struggle_desktop.ui.freedom.window import FreedomWindow
from struggle_desktop.ui.main_window import MainWindow
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import NOBLES_TERRAIN, drag, window_maker

#: One game of each window, started as a player would from the New Game dialog.
GAMES = {
    "struggle": (MainWindow, "3", {}),
    "battles": (BattlesWindow, "civil-war", {"blue_player": "human", "red_player": "bot"}),
    "nobles": (NoblesWindow, "standard",
               {"houses": 2, **NOBLES_TERRAIN, "seat1": "human", "seat2": "human"}),
    "freedom": (FreedomWindow, "a1", {}),
}


@pytest.fixture
def open_game(qtbot):
    """``open_game(game_id, seed, options)``: a shown window of that game with a new game
    on it (the options of ``GAMES`` unless given)."""
    makers = []

    def make(game_id: str, seed: int = 5, options: dict | None = None):
        cls, scenario, default_options = GAMES[game_id]
        options = default_options if options is None else options
        maker = window_maker(qtbot, cls, before_close=_pause_program)
        makers.append(maker)
        win = next(maker)()
        assert win.new_game(game_id, scenario, seed, dict(options))
        if hasattr(win, "set_speed"):
            win.set_speed("instant")
        win.activateWindow()
        win.windowHandle().requestActivate()
        qtbot.waitUntil(win.isActiveWindow)
        return win
    yield make
    for maker in makers:
        next(maker, None)            # closes the windows without asking to save


def _pause_program(win) -> None:
    program = getattr(win, "program", None)
    if program is not None and hasattr(program, "paused"):
        program.paused = True


def press(win, key) -> None:
    """A key pressed while the window is the active one (the keys reach its shortcuts)."""
    QTest.keySequence(win, QKeySequence(key))
    QApplication.processEvents()


def take_the_seat(win) -> None:
    overlay = getattr(win, "overlay", None)
    if overlay is not None and overlay.isVisible():
        win.take_seat()


def play_until_a_roll(win, limit: int = 400) -> bool:
    """The program's choice for whoever waits, through the window, until the seated
    player's own last action involved chance (so Undo is refused for it)."""
    doc = win.document
    for n in range(limit):
        QApplication.processEvents()
        take_the_seat(win)
        reason = doc.undo_reason() or ""
        if "chance" in reason and doc._undo and doc._undo[-1].role in ("", doc.seat):
            return True
        role = doc.waiting_role
        if role is None:
            return False
        if role != doc.seat and hasattr(win, "program_step"):
            win.program_step()
            continue
        action = doc.game.choose_action(doc.state, role, "bot", Rng.from_seed(n, 3))
        if not win.perform(action):
            doc.perform(action, role=role)
    return False


# ------------------------------------------------------------------ Undo and Redo
@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_refused_undo_and_redo_keys_say_why_in_every_window(open_game, game_id):
    """Ctrl+Z with nothing to take back, and Ctrl+Shift+Z / Ctrl+Y with nothing to do again,
    used to do nothing at all in three of the four windows (their menu entries are greyed,
    so the keys never fired): each now puts its reason in the status bar."""
    win = open_game(game_id)
    take_the_seat(win)
    win.document._undo.clear()           # a fresh position: nothing to take back
    win.document.changed.emit()
    assert win.document.undo_reason() is not None and not win.act_undo.isEnabled()
    win.show_message("")
    press(win, QKeySequence.StandardKey.Undo)
    assert win.status_text.text().startswith("Cannot undo: "), win.status_text.text()
    assert win.document.undo_reason() in win.status_text.text()
    for key in ("Ctrl+Shift+Z", "Ctrl+Y"):
        win.show_message("")
        press(win, key)
        assert win.status_text.text() == "Cannot redo: there is nothing to redo"
    # Pointed at in the Edit menu, the greyed entries show the same reasons.
    edit = next(a.menu() for a in win.menuBar().actions() if a.text() == "&Edit")
    assert edit.toolTipsVisible()
    assert win.act_undo.toolTip() == win.document.undo_reason()
    assert win.act_redo.toolTip() == "there is nothing to redo"


def test_the_undo_keys_tell_nothing_under_a_hand_over_screen(open_game):
    """BFG-HID-4: while the hand-over screen hides the table no key acts, and the refused
    Undo keys do not speak either (the next player has not taken the seat yet)."""
    win = open_game("battles", options={"blue_player": "human", "red_player": "human"})
    assert win.overlay.isVisible() and not win.menuBar().isEnabled()
    win.show_message("")
    for key in (QKeySequence.StandardKey.Undo, "Ctrl+Y"):
        press(win, key)
        assert win.status_text.text() == ""


@pytest.mark.parametrize("game_id", ["battles", "struggle"])
def test_undo_after_a_roll_says_the_roll_is_why(open_game, game_id):
    """README: Undo takes back any action that did not roll a die; after a roll Ctrl+Z
    says so in the status bar instead of doing nothing."""
    win = open_game(game_id)
    assert play_until_a_roll(win)
    digest = win.document.game.digest(win.document.state)
    win.show_message("")
    press(win, QKeySequence.StandardKey.Undo)
    assert win.document.game.digest(win.document.state) == digest
    text = win.status_text.text()
    assert text.startswith("Cannot undo: ") and "chance" in text and "roll" in text


# ------------------------------------------------------------------ Noble Houses: a jump out of range
def test_a_jumpship_dropped_out_of_range_is_told_where_it_may_go(open_game, qtbot):
    """NH-MOV-5: a jumpship dropped beyond its range is refused; the status bar gives the
    rules' reason and then where the ship may go, nearest to the drop first (it used to say
    only "jump is not possible now")."""
    from tests.ui.test_nobles_window import play_until as nobles_play_until
    from tests.ui.test_nobles_window import seated

    win = open_game("nobles", seed=3)

    def a_ship_can_jump(w):
        return seated("move")(w) and any(a["verb"] == "jump" for a in w.prompt_actions())
    assert nobles_play_until(win, a_ship_can_jump)
    ship = next(a["ship"] for a in win.prompt_actions() if a["verb"] == "jump")
    legal = set(win.drop_targets(ship))
    board = win.document.board
    here = tuple(board["units"][ship]["hex"])
    far = max((tuple(h["hex"]) for h in board["map"]["hexes"] if h["key"] not in legal),
              key=lambda h: distance(here, h))
    nearest = min(legal, key=lambda k: (distance(far, _hex(k)), _hex(k)))
    before = len(win.document.session.actions)
    win.show_message("")
    drag(qtbot, win.view, win.scene.tokens[ship], win.scene.centre(far))
    assert len(win.document.session.actions) == before
    text = win.status_text.text()
    assert text.startswith("Not possible: ") and "; it may go to " in text, text
    x, y = _hex(nearest)
    assert text.split("; it may go to ")[1].startswith(f"({x},{y})"), text


def _hex(key: str) -> tuple[int, int]:
    x, y = key.split(",")
    return int(x), int(y)


# ------------------------------------------------------------------ Struggle: the Alliance move
def reach_a_rebel_alliance_move(win) -> dict:
    """Scenario 3, seed 2: within a few answers the Alliance event asks the Imperial player
    where the Rebel force in sector 26 moves (SGE-EV-ALLIANCE). Returns the prompt."""
    doc = win.document
    for n in range(200):
        prompt = doc.board["prompt"]
        if prompt and prompt["kind"] == "alliance_move":
            return prompt
        pending = doc.state["pending"]
        assert pending is not None
        action = doc.game.choose_action(doc.state, pending["role"], "bot", Rng.from_seed(n, 3))
        assert win.perform(action)
    raise AssertionError("no Alliance move was asked")


def test_the_rebel_force_the_alliance_moves_is_dragged_to_its_destination(open_game, qtbot):
    """SGE-EV-ALLIANCE: the Rebel force the event asks to move goes where it is dragged, as a
    click on the destination already did (the drag used to be refused with "no counter moves
    now"); a drop where it cannot go says where it may go."""
    win = open_game("struggle", seed=2)
    prompt = reach_a_rebel_alliance_move(win)
    doc = win.document
    rebel = doc.state["pending"]["actor"]["units"][0]
    here = doc.board["pieces"][rebel]["sector"]
    legal = sorted(e["action"]["to"] for e in prompt["actions"]
                   if e["action"]["verb"] == "alliance_move" and e["action"]["to"] != here)
    assert legal
    item = win.scene.piece_item(rebel)
    # A drop where the force cannot go: refused, with where it may go.
    wrong = next(n for n in sorted(doc.board["sectors"]) if n not in legal and n != here)
    before = len(doc.session.actions)
    win.show_message("")
    drag(qtbot, win.view, item, win.scene.sector_center(wrong))
    assert len(doc.session.actions) == before
    text = win.status_text.text()
    assert text.startswith("Not possible: ") and f"may go to {legal[0]:02d}" in text, text
    # A drop on a destination moves it.
    win.show_final()
    item = win.scene.piece_item(rebel)
    drag(qtbot, win.view, item, win.scene.sector_center(legal[-1]))
    assert len(doc.session.actions) == before + 1
    assert doc.session.actions[-1]["action"] == {"verb": "alliance_move", "to": legal[-1]}
    assert doc.state["units"][rebel]["loc"] == legal[-1]
