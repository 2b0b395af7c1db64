"""The Noble Houses window driven as players would: jumpships dragged on the map with their
cargo, refused drops, the decision panel, program houses, hand-overs, files and undo."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.rng import Rng
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import NOBLES_TERRAIN as TERRAIN
from tests.ui.helpers import drag, save_before_two_people_declare, window_maker



def pause_program(win) -> None:
    win.program.paused = True       # no program house moves while the window closes


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, NoblesWindow, before_close=pause_program)


def start(win, seats=("human", "human"), seed=3, **extra):
    options = {"houses": len(seats), **TERRAIN, **extra}
    for i, who in enumerate(seats):
        options[f"seat{i + 1}"] = who
    assert win.new_game("nobles", "standard", seed, options)


def human_move(win, rng=None):
    """What a person would do now: confirm a hand-over, let the program move, or take a
    random legal action for the seated house through the window (busy more often than done)."""
    if win.overlay.isVisible():
        win.take_seat()
        return True
    doc = win.document
    role = doc.waiting_role
    if role is None:
        return False
    if win.seats()[role] != "human":
        win.program_step()
        return True
    assert role == doc.seat, "the window acts only for the seated house"
    rng = rng or Rng.from_seed(len(doc.session.actions), 3)
    legal = doc.legal_actions()
    busy = [a for a in legal if a["verb"] != "done"]
    action = busy[rng.below(len(busy))] if busy and rng.below(3) else legal[rng.below(len(legal))]
    assert win.perform(action)
    return True


def play_until(win, predicate, limit=3000):
    for _ in range(limit):
        QApplication.processEvents()
        if predicate(win):
            return True
        if not human_move(win):
            return predicate(win)
    return False


def seated(kind, role=None):
    """The seated house is asked ``kind`` (and, given ``role``, it is that house)."""
    def check(w):
        p = w.document.state["pending"] or {}
        return (p.get("kind") == kind and not w.overlay.isVisible()
                and w.document.waiting_role == w.document.seat
                and (role is None or p["role"] == role))
    return check


def can_jump_with_cargo(w):
    """A movement prompt of the seated house with a ship that can load something and jump."""
    if not seated("move")(w):
        return False
    acts = w.prompt_actions()
    ships = {a["ship"] for a in acts if a["verb"] == "load"}
    return any(a["verb"] == "jump" and a["ship"] in ships for a in acts)


# ------------------------------------------------------------------ the map
def test_the_map_shows_the_position_and_follows_the_house_to_act(make_window):
    """NH-SIM-1: everything is public, so with two people the screen follows whoever must
    act (no hand-over outside simultaneous declarations); the title names the house."""
    win = make_window()
    start(win)
    seen = set()
    assert play_until(win, lambda w: w.document.state["turn"] >= 2)
    for _ in range(300):
        role = win.document.waiting_role
        if role:
            assert win.document.seat == role and not win.overlay.isVisible()
            assert win.house_title(role) in win.windowTitle()
            seen.add(role)
        if len(seen) == 2:
            break
        assert human_move(win)
    assert seen == {"A", "B"}
    board = win.document.board
    assert len(win.scene.hex_items) == board["map"]["width"] * board["map"]["height"]


# ------------------------------------------------------------------ jumps
def test_dragging_a_jumpship_jumps_it_with_the_ticked_cargo(make_window, qtbot):
    """NH-MOV-6, NH-MOV-8: the held ship lights its legal destinations; the units ticked in
    the Ship panel are loaded first, then the ship jumps to the hex it is dropped on."""
    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    acts = win.prompt_actions()
    load = next(a for a in acts if a["verb"] == "load"
                and any(j["verb"] == "jump" and j["ship"] == a["ship"] for j in acts))
    ship, unit = load["ship"], load["unit"]
    win.select_ship(ship)
    dock = win.cargo_dock
    dock.ensure_widget()
    rows = [dock.units.item(k) for k in range(dock.units.count())]
    row = next(r for r in rows if r.data(Qt.ItemDataRole.UserRole) == unit)
    row.setCheckState(Qt.CheckState.Checked)            # tick it: nothing is performed yet
    assert win.document.state["units"][unit]["ship"] is None
    targets = win.drop_targets(ship)
    assert targets
    x, y = (int(v) for v in targets[-1].split(","))
    before = len(win.document.session.actions)
    drag(qtbot, win.view, win.scene.tokens[ship], win.scene.centre((x, y)))
    done = [e["action"] for e in win.document.session.actions[before:]]
    assert done == [{"verb": "load", "ship": ship, "unit": unit},
                    {"verb": "jump", "ship": ship, "to": [x, y]}]
    units = win.document.state["units"]
    assert units[ship]["hex"] == [x, y] and units[unit]["hex"] == [x, y]
    assert units[unit]["ship"] == ship


def test_holding_a_jumpship_lights_exactly_its_legal_destinations(make_window, qtbot):
    from PySide6.QtTest import QTest

    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    ship = next(a["ship"] for a in win.prompt_actions() if a["verb"] == "jump")
    legal = {(a["to"][0], a["to"][1]) for a in win.prompt_actions()
             if a["verb"] == "jump" and a["ship"] == ship}
    win.selected_ship = None
    win.redraw()
    viewport = win.view.viewport()
    point = win.view.mapFromScene(win.scene.tokens[ship].sceneBoundingRect().center())
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert len(win.scene._target_marks) == len(legal)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_a_drop_where_the_ship_cannot_go_is_refused_with_the_reason(make_window, qtbot):
    """NH-MOV-5, NH-MOV-6: a drop on a hex out of reach (or an obstacle) changes nothing and
    the status bar gives the rules' reason (check_action's text); the ticks are not loaded."""
    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    load = next(a for a in win.prompt_actions() if a["verb"] == "load")
    ship = load["ship"]
    win.select_ship(ship)
    win.toggle_cargo(ship, load["unit"], True)
    legal = set(win.drop_targets(ship))
    board = win.document.board
    here = board["units"][ship]["hex"]
    wrong = next(h["hex"] for h in board["map"]["hexes"]
                 if h["key"] not in legal and h["hex"] != here)
    before = len(win.document.session.actions)
    digest = win.document.game.digest(win.document.state)
    drag(qtbot, win.view, win.scene.tokens[ship], win.scene.centre(wrong))
    assert len(win.document.session.actions) == before
    assert win.document.game.digest(win.document.state) == digest
    reason = win.document.game.check_action(win.document.state, "A" if ship[0] == "A" else "B",
                                            {"verb": "jump", "ship": ship, "to": wrong})
    assert reason and win.status_text.text().startswith(f"Not possible: {reason}; it may go to ")


def test_click_a_ship_then_a_lit_hex_to_jump(make_window, qtbot):
    """The same move without dragging: click the ship (its destinations light up), click a
    lit hex."""
    from PySide6.QtTest import QTest

    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    jump = next(a for a in win.prompt_actions() if a["verb"] == "jump")
    ship = jump["ship"]
    viewport = win.view.viewport()
    for target in (win.scene.tokens[ship].sceneBoundingRect().center(),
                   win.scene.centre(jump["to"])):
        point = win.view.mapFromScene(target)
        QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                         point)
        qtbot.wait(10)
    assert win.document.session.actions[-1]["action"] == jump


# ------------------------------------------------------------------ panels
def test_the_decision_panel_answers_a_prompt(make_window):
    """Recruiting (NH-REC-3) is answered in the decision panel: pick a line, Do it."""
    win = make_window()
    start(win)
    assert play_until(win, lambda w: seated("recruit")(w)
                      and any(a["verb"] == "buy" for a in w.prompt_actions()))
    dock = win.decision_dock
    dock.ensure_widget()
    row = next(k for k in range(dock.choices.count())
               if dock.choices.item(k).data(Qt.ItemDataRole.UserRole)["verb"] == "buy")
    item = dock.choices.item(row)
    action = item.data(Qt.ItemDataRole.UserRole)
    assert item.text().startswith(f"Buy {action['unit']} on {action['world']} for ")
    before = win.document.state["houses"][win.document.seat]["solats"]
    dock.choices.setCurrentItem(item)
    dock.do_button.click()
    assert win.document.session.actions[-1]["action"] == action
    assert win.document.state["houses"][win.document.session.actions[-1]["role"]]["solats"] < before


def test_noble_actions_are_grouped_by_actor_and_taken_by_double_click(make_window):
    """Section 15: the Actions panel (allies and Noble actions) lists each Noble's, ally's
    and Pyreen's actions by kind; activating one performs it."""
    win = make_window()
    start(win)
    assert play_until(win, lambda w: seated("noble_action")(w)
                      and any(a["verb"] == "act" for a in w.prompt_actions()))
    dock = win.actions_dock
    dock.ensure_widget()
    top = dock.tree.topLevelItem(0)
    leaf = top.child(0).child(0)
    action = leaf.data(0, Qt.ItemDataRole.UserRole)
    assert action["verb"] == "act"
    before = len(win.document.session.actions)
    dock.tree.itemActivated.emit(leaf, 0)
    assert len(win.document.session.actions) == before + 1
    assert win.document.session.actions[-1]["action"] == action


def test_the_houses_panel_lists_every_house(make_window):
    win = make_window()
    start(win, seats=("human", "human", "human"))
    assert play_until(win, lambda w: w.document.state["turn"] >= 1)
    win.houses_dock.ensure_widget()
    text = win.houses_dock.text.toPlainText()
    for h in win.document.board["houses"]:
        assert h["name"] in text and f"{h['solats']} Solats" in text
        for ally in h["allies"]:
            assert ally["shown_as"] in text


# ------------------------------------------------------------------ program houses
def test_a_program_house_plays_its_turn(make_window, qtbot):
    """NH-SIM-3, NH-AI-1: the program's house answers its own prompts through the event
    loop, one action at a time, until a person's decision is waited for."""
    win = make_window()
    start(win, seats=("human", "ai"))
    assert play_until(win, lambda w: w.document.state["turn"] >= 1
                      and seated("recruit", "A")(w))
    # A finishes; B (the program) then recruits on its own, and the game comes back to A.
    assert win.perform({"verb": "done"})
    qtbot.waitUntil(lambda: win.document.waiting_role == "A", timeout=20000)
    roles = [e["role"] for e in win.document.session.actions]
    assert "B" in roles
    assert win.document.seat == "A"


# ------------------------------------------------------------------ hand-over
def test_two_people_declaring_in_one_fight_hand_over_behind_an_opaque_screen(make_window,
                                                                             tmp_path):
    """NH-SIM-2: before a person's launch (or sacrifice) when another person also declares
    in that fight, the hand-over screen covers the window — also when such a save is opened —
    the board beneath is the public one (no prompt) and the shortcuts are off; "continue"
    brings the prompt. The other person's declaration then waits behind the screen again,
    and is not shown before both have declared."""
    session = save_before_two_people_declare(tmp_path / "nukes.sgsave")
    win = make_window()
    assert win.open_file(tmp_path / "nukes.sgsave") is win
    handovers = 0
    for _ in range(200):
        QApplication.processEvents()
        kind = (win.document.state["pending"] or {}).get("kind")
        if win.overlay.isVisible():
            handovers += 1
            assert kind in ("launch", "sacrifice")
            assert win.document.seat == "public" and win.document.board["prompt"] is None
            assert not any(a.isEnabled() for a in win.actions())
            assert not win.menuBar().isEnabled()          # no Alt+E under the screen
            assert win.act_undo.text() == "&Undo"         # it once named the other's launch
            assert win.overlay.geometry() == win.rect()
            assert (win.document.board.get("exchange") or {}).get("launches") is None
            role = win.overlay.role
            assert role == win.document.waiting_role
            win.overlay.button.click()
            assert win.document.seat == role and not win.overlay.isVisible()
            assert win.document.board["prompt"]["kind"] == kind
            assert win.act_undo.text() == "&Undo" and "Launch" not in win.act_undo.toolTip()
            continue
        if kind not in ("launch", "sacrifice"):
            break
        assert human_move(win)
    assert handovers == 2, "each person declared behind the hand-over screen"
    assert session.state["pending"]["kind"] in ("launch", "sacrifice")


# ------------------------------------------------------------------ files and undo
def test_save_and_open_give_the_same_game(make_window, tmp_path):
    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    path = tmp_path / "nobles.sgsave"
    assert win._save_to(path)
    other = make_window()
    assert other.open_file(path) is other
    assert other.document.game.digest(other.document.state) == \
        win.document.game.digest(win.document.state)
    assert other.document.seat == win.document.seat
    assert other.document.board["map"] == win.document.board["map"]
    assert len(other.scene.hex_items) == len(win.scene.hex_items)


def test_a_noble_houses_save_opened_from_the_struggle_window_opens_in_its_screen(
        make_window, qtbot, tmp_path):
    """The shell opens a save in the screen of its game (screens.SCREENS)."""
    from struggle_desktop.ui.main_window import MainWindow
    from struggle_desktop.ui.shell import OPEN_WINDOWS

    win = make_window()
    start(win)
    assert play_until(win, lambda w: w.document.state["turn"] >= 1)
    path = tmp_path / "n.sgsave"
    assert win._save_to(path)
    struggle = MainWindow()
    struggle.show()
    qtbot.waitExposed(struggle)
    before = len(OPEN_WINDOWS)
    try:
        opened = struggle.open_file(path)
        assert isinstance(opened, NoblesWindow) and opened.isVisible()
        assert not struggle.isVisible()
        assert opened.document.game.digest(opened.document.state) == \
            win.document.game.digest(win.document.state)
    finally:
        for other in OPEN_WINDOWS[before:]:
            other.document.dirty = False
            other.close()
        del OPEN_WINDOWS[before:]


def test_undo_takes_back_a_load(make_window):
    """An undo after a load puts the unit back on the ground; after a die is rolled it is
    refused."""
    win = make_window()
    start(win)
    assert play_until(win, can_jump_with_cargo)
    load = next(a for a in win.prompt_actions() if a["verb"] == "load")
    assert win.perform(load)
    assert win.document.state["units"][load["unit"]]["ship"] == load["ship"]
    assert win.act_undo.isEnabled()
    win.undo()
    assert win.document.state["units"][load["unit"]]["ship"] is None
    assert load in win.prompt_actions()


def test_when_the_only_person_is_eliminated_the_game_is_lost_and_may_play_on(make_window,
                                                                             qtbot):
    """NH-VIC-3, NH-VIC-7: the person's house loses everything (the test takes its units,
    worlds, allies and Solats away mid-turn); at the end of the turn the rules eliminate it,
    the window says the game is lost and the program houses wait until "Let the program
    houses play on"."""
    win = make_window()
    start(win, seats=("human", "ai", "ai"))
    assert play_until(win, lambda w: seated("recruit", "A")(w))
    state = win.document.state
    for uid in [u for u, row in state["units"].items() if row["owner"] == "A"]:
        del state["units"][uid]
    for row in state["worlds"].values():
        if row["controller"] == "A":
            row["controller"] = None
    house = state["houses"]["A"]
    state["unassigned"] += house["allies"]
    house["allies"], house["ally_uses"], house["solats"] = [], {}, 0
    turn = state["turn"]
    assert win.perform({"verb": "done"})
    qtbot.waitUntil(lambda: not win.document.state["houses"]["A"]["alive"], timeout=30000)
    assert win.document.state["turn"] == turn + 1 or win.document.state["phase"] <= 1
    assert win.banner.isVisible() and "lost" in win.banner_text.text()
    assert win.play_on_button.isVisible() and win.program.paused
    actions = len(win.document.session.actions)
    qtbot.wait(300)
    assert len(win.document.session.actions) == actions      # the program waits
    win.play_on_button.click()
    qtbot.waitUntil(lambda: len(win.document.session.actions) > actions, timeout=10000)
    assert "watching" in win.banner_text.text()


# ------------------------------------------------------------------ the new-game dialog
def test_the_new_game_dialog_offers_the_whole_number_options_as_spin_boxes(qtbot):
    """NH-OPT-2, NH-OPT-3, NH-MAP-16: map size and terrain counts are spin boxes bounded by
    the game's ranges; the chosen values reach the game's options and pass its check."""
    from struggle_desktop.games import get_game
    from struggle_desktop.ui.dialogs.new_game import NewGameDialog

    dialog = NewGameDialog(game_ids=["struggle", "nobles"])
    qtbot.addWidget(dialog)
    dialog._load_game("nobles")
    specs = get_game("nobles").options()
    for key, spec in specs.items():
        if spec["type"] == "int":
            spin = dialog.option_spin(key)
            assert spin.value() == spec["default"]
            if "max" in spec:
                assert (spin.minimum(), spin.maximum()) == (spec["min"], spec["max"])
    dialog.option_spin("width").setValue(14)
    dialog.option_spin("obstacles").setValue(3)
    dialog.option_spin("turn_limit").setValue(20)
    choice = dialog.validate()
    assert choice is not None and choice["game"] == "nobles"
    assert choice["options"]["width"] == 14 and choice["options"]["obstacles"] == 3
    stored = get_game("nobles").normalize_options(choice["scenario"], choice["options"])
    assert stored["map_size"][0] == 14 and stored["terrain"]["obstacles"] == 3
    assert stored["turn_limit"] == 20
    # Struggle's turn limit of scenario 7 keeps its own row.
    dialog._load_game("struggle")
    assert "max_turns" not in dialog._option_spins


# ------------------------------------------------------------------ the purchase list
def double_click(qtbot, widget, point):
    """A real double-click as Qt delivers it: press, release, double-click, release."""
    for send in (qtbot.mousePress, qtbot.mouseRelease, qtbot.mouseDClick, qtbot.mouseRelease):
        send(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def rich_on_its_homeworld(w):
    """The seated house recruits with two purchases to make on its homeworld and Solats for
    more (seed 3: Nitrix, whose purchases are used up after two)."""
    if not seated("recruit")(w):
        return False
    house = w.document.state["houses"][w.document.seat]
    home = [a for a in w.prompt_actions()
            if a["verb"] == "buy" and a["world"] == house["homeworld"]]
    return len(home) >= 2 and house["solats"] >= 20


def test_buying_twice_on_a_world_then_double_clicking_buys_nothing_unintended(make_window, qtbot):
    """NH-REC-3: after two purchases on a homeworld its other purchases are gone. In the
    Recruit panel they stay in place, greyed, saying why, so a third double-click on the same
    spot buys nothing (the rows once closed up and it bought a unit of another world); the
    selection stays on the row it was on."""
    win = make_window()
    start(win, seats=("human", "ai"))
    assert play_until(win, rich_on_its_homeworld)
    dock = win.recruit_dock
    assert dock.isVisible()                        # brought forward by the recruit prompt
    rows = dock.list
    home = win.document.state["houses"][win.document.seat]["homeworld"]
    row = next(k for k in range(rows.count())
               if (rows.item(k).data(Qt.ItemDataRole.UserRole + 1) or {}).get("world") == home)
    wanted = rows.item(row).data(Qt.ItemDataRole.UserRole + 1)
    spot = rows.visualItemRect(rows.item(row)).center()
    start_count = len(win.document.session.actions)
    for bought in (1, 2):
        double_click(qtbot, rows.viewport(), spot)
        assert len(win.document.session.actions) == start_count + bought
        assert win.document.session.actions[-1]["action"] == wanted
    assert not any(a["verb"] == "buy" and a["world"] == home for a in win.prompt_actions())
    # The row under the pointer is still the same purchase, now greyed with the reason.
    item = rows.itemAt(spot)
    assert item.data(Qt.ItemDataRole.UserRole + 1) == wanted
    assert rows.currentItem() is item
    assert "purchases used up" in item.text()
    assert f"{home}: two purchases made this turn" in item.toolTip()
    assert "two purchases made this turn" in dock.note.text()
    assert f"{home}: two purchases made this turn" in win.status_text.text()
    double_click(qtbot, rows.viewport(), spot)
    assert len(win.document.session.actions) == start_count + 2       # nothing unintended
    assert win.status_text.text().startswith("Not possible:")


def test_a_double_click_counts_only_on_the_row_it_was_pressed_on(make_window, qtbot):
    """If the row under the pointer is another purchase by the time the double-click arrives
    (the list was filled again between the press and the double-click), nothing is bought."""
    win = make_window()
    start(win, seats=("human", "ai"))
    assert play_until(win, rich_on_its_homeworld)
    dock = win.recruit_dock
    rows = dock.list
    first = next(k for k in range(rows.count())
                 if rows.item(k).data(Qt.ItemDataRole.UserRole + 1))
    spot = rows.visualItemRect(rows.item(first)).center()
    qtbot.mousePress(rows.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     spot)
    qtbot.mouseRelease(rows.viewport(), Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier, spot)
    # The rows change under the pointer: another purchase now sits where the press landed.
    rows.item(first).setData(Qt.ItemDataRole.UserRole, "another purchase")
    before = len(win.document.session.actions)
    qtbot.mouseDClick(rows.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                      spot)
    assert len(win.document.session.actions) == before
    assert "nothing was bought" in win.status_text.text()
