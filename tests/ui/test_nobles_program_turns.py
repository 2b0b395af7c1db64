"""A program house's turn shown to the person on the Noble Houses map (issue 28): its jumps
and fights marked at the speed chosen (Step waits for Continue, Instant shows the result at
once), and the end of the game (NH-VIC-1 conquest, NH-VIC-4 last house standing) naming who
won and how."""

from __future__ import annotations

import pytest

from struggle_desktop.ui.nobles.watch import program_marks
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import window_maker
from tests.ui.test_nobles_window import play_until, seated, start


def pause_program(win) -> None:
    win.program.paused = True
    win.holding = True          # (paused stays paused: nothing acts while the window closes)


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, NoblesWindow, before_close=pause_program)


def person_acts(win) -> None:
    """The person does the least: Done when it is a choice, else the first legal action."""
    legal = win.document.legal_actions()
    done = next((a for a in legal if a["verb"] == "done"), None)
    assert win.perform(done or legal[0])


def drive_until(win, predicate, limit=3000) -> bool:
    """Play as a person who always finishes at once, the program house stepping through
    ``program_step`` (the event loop's timer does the same), until ``predicate(win)``."""
    for _ in range(limit):
        if predicate(win):
            return True
        role = win.document.waiting_role
        if role is None:
            return predicate(win)
        if win.seats()[role] == "human":
            person_acts(win)
        elif win.program.to_move():
            win.program_step()
        else:
            return predicate(win)
    return False


def test_step_marks_a_program_jump_on_the_map_and_waits_for_continue(make_window, qtbot):
    """NH-MOV-6 seen by the person: at Step, the program house's jump is drawn as an arrow
    from the hex the ship left (on the person's own board before it) to where it is now, the
    status bar says it, and the program waits for Continue (beside the speeds in the status bar)."""
    win = make_window()
    win.set_speed("step")
    start(win, seats=("human", "ai"))
    assert win.watch_bar.isVisible() and win.watch_bar.buttons["step"].isChecked()
    assert drive_until(win, lambda w: w.holding and any(
        m["kind"] == "jump" for m in w.scene.watch_marks))
    jump = next(m for m in win.scene.watch_marks if m["kind"] == "jump")
    board = win.document.board              # the seated person's view
    assert board["seat"] == "A" and win.document.seat == "A"
    assert board["units"][jump["unit"]]["hex"] == jump["to"]
    assert board["units"][jump["unit"]]["owner"] == "B"
    assert jump["from"] != jump["to"]
    assert win.scene.watch_items and all(i.scene() is win.scene for i in win.scene.watch_items)
    assert jump["text"] in win.status_text.text()
    assert win.watch_bar.continue_button.isEnabled()
    # The program waits: its timer would not act, and a step asked for does nothing.
    actions = len(win.document.session.actions)
    assert win.program.to_move() is None
    win.program_step()
    qtbot.wait(200)
    assert len(win.document.session.actions) == actions
    win.watch_bar.continue_button.click()
    qtbot.waitUntil(lambda: len(win.document.session.actions) > actions, timeout=10000)
    # The person's own action takes the marks away.
    win.set_speed("instant")
    qtbot.waitUntil(lambda: win.document.waiting_role == "A"
                    or win.document.board.get("outcome") is not None, timeout=20000)
    if win.document.waiting_role == "A":
        person_acts(win)
        assert win.scene.watch_marks == [] and win.scene.watch_items == []


def test_instant_plays_the_program_turn_at_once_and_shows_the_result(make_window):
    """At Instant one program step plays every action the program house has to take until a
    person is asked again: the board drawn is the final one, with nothing marked."""
    win = make_window()
    win.set_speed("instant")
    start(win, seats=("human", "ai"))
    assert drive_until(win, lambda w: w.document.state["turn"] >= 2
                       and seated("move", "A")(w))
    before = len(win.document.session.actions)
    person_acts(win)        # A ends its movement: B moves next, or the battle follows
    assert drive_until(win, lambda w: w.document.waiting_role == "B")
    acted = len(win.document.session.actions)
    win.program_step()      # (the event loop's timer calls this once)
    assert win.document.waiting_role in ("A", None)
    assert len(win.document.session.actions) > acted + 1 > before
    assert win.scene.watch_marks == [] and not win.holding
    assert win.scene.board["log_size"] == win.document.board["log_size"]   # drawn: the end
    assert win.document.board["waiting_for"] in ("A", None)


@pytest.mark.parametrize("how", ["conquest", "last-house", "turn-limit"])
def test_the_end_of_the_game_names_the_winner_and_the_way(make_window, qtbot, how):
    """NH-VIC-1 / NH-VIC-4 (checked at the end of the turn, NH-VIC-2): the program house B
    loses every unit, ally and Solat (the test takes them away); with every world held by A
    it is a conquest, with B's worlds left empty A is the last house standing. NH-VIC-5: the
    turn limit is this turn. The window says who won and how: a dialog, the banner above the
    map and the status bar."""
    win = make_window()
    win.set_speed("fast")
    start(win, seats=("human", "ai"))
    assert play_until(win, lambda w: seated("recruit", "A")(w))
    state = win.document.state
    if how == "turn-limit":
        state["options"]["turn_limit"] = state["turn"]      # NH-VIC-5 at this turn's end
    else:
        for uid in [u for u, row in state["units"].items() if row["owner"] == "B"]:
            del state["units"][uid]
        house = state["houses"]["B"]       # and its allies (no Diplomacy wins a world back)
        state["unassigned"] += house["allies"]
        house["allies"], house["ally_uses"], house["solats"] = [], {}, 0
        for row in state["worlds"].values():
            if how == "conquest":
                row["controller"] = "A"
            elif row["controller"] == "B":
                row["controller"] = None
    assert win.end_dialog is None
    assert drive_until(win, lambda w: w.document.board.get("outcome") is not None)
    outcome = win.document.state["outcome"]
    assert outcome["how"] == how and len(outcome["winners"]) == 1
    assert how == "turn-limit" or outcome["winners"] == ["A"]
    name = win.house_title(outcome["winners"][0])
    qtbot.waitUntil(lambda: win.end_dialog is not None and win.end_dialog.isVisible(),
                    timeout=5000)
    said = win.end_dialog.text() + "\n" + win.end_dialog.informativeText()
    assert f"{name} wins" in said
    rule, words = {"conquest": ("NH-VIC-1", "Conquest"),
                   "last-house": ("NH-VIC-4", "Last house standing"),
                   "turn-limit": ("NH-VIC-5", "Turn limit")}[how]
    assert rule in said and words in said
    assert win.banner.isVisible() and name in win.banner_text.text()
    assert name in win.status_text.text()
    assert "game over" in win.windowTitle()
    win.end_dialog.close()
    win.on_document_changed()               # once per game: not shown again
    assert not win.end_dialog.isVisible()


def test_marks_come_only_from_what_the_seated_house_sees(make_window):
    """NH-SIM-1, NH-SIM-2: the marks are read from the seat's own boards and log: a ship
    that is not on the seat's board before the action gives no arrow, and a line the seat's
    reading of the log does not hold (a declaration not revealed) gives nothing."""
    win = make_window()
    start(win, seats=("human", "ai"))
    assert play_until(win, lambda w: seated("recruit", "A")(w))
    board = win.document.board
    ship = next(u for u, row in board["units"].items() if row["is_ship"] and row["owner"] == "B")
    to = [board["units"][ship]["hex"][0] + 1, board["units"][ship]["hex"][1]]
    line = {"rule": "NH-MOV-6", "kind": "note", "text": f"{ship} jumps",
            "refs": [ship, f"hex:{to[0]},{to[1]}"]}
    assert program_marks(board, board, [line])[0]["from"] == board["units"][ship]["hex"]
    hidden = {**board, "units": {u: r for u, r in board["units"].items() if u != ship}}
    assert program_marks(hidden, board, [line]) == []
    assert program_marks(board, board, []) == []


def test_step_marks_a_fight_of_a_program_house(make_window):
    """NH-BAT-1 seen by the person: at Step, a fight the program house's answer carries on
    (its casualties, its command) is ringed on the map (the hex of the fight's log lines) and
    said in the status bar."""
    win = make_window()
    win.set_speed("step")
    start(win, seats=("human", "ai"))
    assert play_until(win, lambda w: seated("recruit", "A")(w))
    # B's armies land on A's homeworld (the test moves them): step 8 has a battle there.
    state = win.document.state
    home = next(h["hex"] for h in win.document.board["map"]["hexes"] if h["home_of"] == "A")
    for row in state["units"].values():
        if row["owner"] == "B" and row["ship"] is None:
            row["hex"] = list(home)

    def fight_shown(w):
        if w.holding:
            if any(m["kind"] == "fight" for m in w.scene.watch_marks):
                return True
            w.continue_watching()
        return False

    assert drive_until(win, fight_shown, limit=6000)
    fight = next(m for m in win.scene.watch_marks if m["kind"] == "fight")
    keys = {h["key"] for h in win.document.board["map"]["hexes"]}
    assert f"{fight['hex'][0]},{fight['hex'][1]}" in keys and fight["hex"] == list(home)
    assert fight["text"] in win.status_text.text()
    assert any(i.zValue() == 45 for i in win.scene.watch_items)
