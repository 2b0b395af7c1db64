"""The Battles window driven like players would: against the program, hot-seat with hand-overs,
drags on the table, files and undo."""

from __future__ import annotations

import json

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.rng import Rng
from struggle_desktop.ui.battles.window import BattlesWindow
from tests.ui.helpers import drag, window_maker


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, BattlesWindow)


def start(win, blue="human", red="bot", scenario="civil-war", seed=5):
    assert win.new_game("battles", scenario, seed, {"blue_player": blue, "red_player": red})


def human_move(win):
    """What a player would do now: confirm a hand-over, or take the program's suggestion
    for the seated player through the window (the decision list's path)."""
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
    assert role == doc.seat, "the window acts only for the seated player"
    action = doc.game.choose_action(doc.state, role, "bot",
                                    Rng.from_seed(len(doc.session.actions), 3))
    assert win.perform(action)
    return True


def play_until(win, predicate, limit=4000):
    for _ in range(limit):
        QApplication.processEvents()
        if predicate(win):
            return True
        if not human_move(win):
            return predicate(win)
    return False


def waiting(kind):
    return lambda w: (w.document.state["pending"] or {}).get("kind") == kind \
        and not w.overlay.isVisible() and w.document.waiting_role == w.document.seat


# ------------------------------------------------------------------ against the program
def test_against_the_program_the_screen_always_shows_the_persons_view(make_window):
    """BFG-HID-9: no hand-overs; the person's hand is shown; the program's hand and plan
    never are; the program's turns are played by the window."""
    win = make_window()
    start(win)
    assert win.document.seat == "blue"
    assert play_until(win, lambda w: w.document.state["turn"] >= 2
                      and w.document.state["phase"] == "actions")
    assert not win.overlay.isVisible()
    board = win.document.board
    assert board["seat"] == "blue" and board["hand"] is not None
    red = win.document.state["players"]["red"]
    assert board["players"]["red"]["hand_count"] == len(red["hand"])
    shown = json.dumps(board)
    assert not [c for c in red["hand"] if f'"{c}"' in shown]
    assert win.hand_dock.chits.count() == len(board["hand"])


def test_a_whole_game_against_the_program_reaches_its_end(make_window):
    win = make_window()
    start(win, seed=8)
    assert play_until(win, lambda w: w.document.board.get("outcome") is not None, limit=6000)
    assert "wins on turn" in win.document.board["outcome"]["text"]


# ------------------------------------------------------------------ hot-seat
def test_hot_seat_hands_over_with_an_opaque_screen_and_nothing_private_beneath(make_window):
    """BFG-HID-4, BFG-HID-5, BFG-HID-1: two people; whenever the game waits for the other
    colour the hand-over screen covers the window, the document shows the public view (no
    hand, no plan, no prompt), every shortcut is off and the title is neutral; "I am Red:
    continue" brings Red's view."""
    win = make_window()
    start(win, blue="human", red="human")
    handovers = 0
    for _ in range(3000):
        QApplication.processEvents()
        if win.overlay.isVisible():
            handovers += 1
            board = win.document.board
            assert win.document.seat == "public"
            assert board["hand"] is None and board["prompt"] is None
            assert all(not p["plan"] for p in board["players"].values())
            assert not any(a.isEnabled() for a in win.actions())
            assert win.windowTitle() == win.document.game.title     # Qt adds the program's name
            assert win.overlay.geometry() == win.rect()
            assert win.hand_dock.chits.count() == 0
            role = win.overlay.role
            assert role == win.document.waiting_role
            win.overlay.button.click()
            assert win.document.seat == role and not win.overlay.isVisible()
            if handovers >= 6:
                break
            continue
        assert human_move(win)
    assert handovers >= 6


def test_while_blue_deploys_nothing_of_reds_secret_plan_is_drawn(make_window):
    """BFG-DEP-1, BFG-HID-3: Red assigns first; Blue's table shows Red's fleets still on
    Red's display and none of them planned in a region."""
    win = make_window()
    start(win, blue="human", red="human")
    assert play_until(win, lambda w: waiting("deploy")(w) and w.document.seat == "blue"
                      and w.document.state["players"]["red"]["deploy"])
    plan = dict(win.document.state["players"]["red"]["deploy"])
    board = win.document.board
    assert board["players"]["red"]["plan"] == {}
    for fid in plan:
        assert fid in board["players"]["red"]["display"]
        item = win.scene.counters[fid]
        assert not item.planned


# ------------------------------------------------------------------ drags
def test_dragging_a_fleet_from_the_display_to_a_region_deploys_it(make_window, qtbot):
    """BFG-DEP-1: the drag is an assign action; the fleet shows as planned in that region."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    fid = win.document.board["players"]["blue"]["display"][0]
    region = win.scene.region_rects[3]
    drag(qtbot, win.view, win.scene.counters[fid], region.center())
    assert win.document.session.actions[-1]["action"] == {"verb": "assign", "fleet": fid,
                                                          "region": 3}
    assert win.document.board["players"]["blue"]["plan"][fid] == 3
    assert win.scene.counters[fid].planned


def test_dropping_a_fleet_nowhere_changes_nothing_and_says_why(make_window, qtbot):
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    fid = win.document.board["players"]["blue"]["display"][0]
    before = len(win.document.session.actions)
    drag(qtbot, win.view, win.scene.counters[fid], QPointF(700, 40))   # on the CI track
    assert len(win.document.session.actions) == before
    assert win.status_text.text().startswith("Not possible")


def test_dragging_a_firer_onto_an_enemy_fleet_targets_it(make_window, qtbot):
    """BFG-CMB-4: in the battle mini-map, a firer dropped on an enemy counter declares it."""
    win = make_window()
    start(win, seed=5)
    assert play_until(win, waiting("targets"))
    actions = [a for a in win.prompt_actions() if a["verb"] == "target" and "shot" not in a]
    chosen = actions[0]
    drag(qtbot, win.view, win.scene.counters[chosen["firer"]],
         win.scene.counters[chosen["target"]].sceneBoundingRect().center())
    last = win.document.session.actions[-1]["action"]
    assert last == chosen


# ------------------------------------------------------------------ files and undo
def test_undo_takes_back_a_deployment_step_but_not_the_reveal(make_window):
    """BFG-HID-11: an assignment can be undone; after both plans are revealed, undo says no."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    fid = win.document.board["players"]["blue"]["display"][0]
    assert win.perform({"verb": "assign", "fleet": fid, "region": 2})
    assert win.document.undo_reason() is None
    win.undo()
    assert win.document.board["players"]["blue"]["plan"] == {}
    assert play_until(win, lambda w: w.document.state["phase"] == "actions")
    reason = win.document.undo_reason()
    assert reason is not None


def test_a_saved_hot_seat_game_opens_behind_a_hand_over(make_window, tmp_path):
    """BFG-HID-11: loading a hot-seat save shows the hand-over screen first."""
    win = make_window()
    start(win, blue="human", red="human")
    assert play_until(win, lambda w: w.document.state["phase"] == "deploy"
                      and not w.overlay.isVisible())
    path = tmp_path / "hot.sgsave"
    assert win._save_to(path)
    other = make_window()
    assert other.open_file(path)
    assert other.overlay.isVisible() and other.document.seat == "public"
    assert other.document.game.digest(other.document.state) == \
        win.document.game.digest(win.document.state)


def test_with_open_hands_only_secret_steps_are_handed_over(make_window):
    """BFG-HID-8: with open hands both hands show and the seat follows the game, except that
    deployment (and secret disengagement) still go behind the hand-over screen."""
    win = make_window()
    assert win.new_game("battles", "civil-war", 5, {"blue_player": "human",
                                                    "red_player": "human", "open_hands": True})
    seen_open_switch = False
    for _ in range(1500):
        QApplication.processEvents()
        if win.overlay.isVisible():
            assert win._secret_prompt()
            win.take_seat()
            continue
        board = win.document.board
        if board["seat"] in ("blue", "red"):
            other = "red" if board["seat"] == "blue" else "blue"
            assert board["players"][other]["chits"] == win.document.state["players"][other]["hand"]
        before = win.document.seat
        assert human_move(win)
        if win.document.seat != before and not win.overlay.isVisible():
            seen_open_switch = True
        if win.document.state["phase"] == "build":
            break
    assert seen_open_switch


def test_a_played_chit_hands_over_to_the_other_player_for_repression(make_window):
    """BFG-HID-7: after Blue plays a chit in a hot-seat game, Red is asked behind the
    hand-over screen whether to repress it; the prompt offers Pass whether or not Red holds a
    Repression chit, and Repress only if it does."""
    win = make_window()
    start(win, blue="human", red="human", seed=5)

    def blue_may_play(w):
        return (waiting("action")(w) and w.document.seat == "blue"
                and any(a["verb"] == "play" for a in w.prompt_actions()))
    assert play_until(win, blue_may_play)
    play = next(a for a in win.prompt_actions() if a["verb"] == "play")
    assert win.perform(play)
    assert win.overlay.isVisible() and win.overlay.role == "red"
    win.take_seat()
    prompt = win.document.board["prompt"]
    assert prompt["kind"] == "react"
    verbs = [e["action"]["verb"] for e in prompt["actions"]]
    holds = any(c.startswith("Repression") for c in win.document.state["players"]["red"]["hand"])
    assert "pass" in verbs and ("repress" in verbs) == holds


def test_a_whole_hot_seat_game_never_shows_one_player_the_others_secrets(make_window):
    """BFG-HID-3, BFG-HID-5: two people play a game to its end; at every moment the board on
    the screen holds no hand, set-aside chits or deployment plan of the player not seated."""
    win = make_window()
    start(win, blue="human", red="human", seed=9)
    for _ in range(6000):
        QApplication.processEvents()
        board = win.document.board
        if board.get("outcome"):
            break
        seat = board["seat"]
        for side, shown in board["players"].items():
            if side != seat:
                assert shown["chits"] is None and shown["plan"] == {}
        if seat != "public":
            other = "red" if seat == "blue" else "blue"
            secret = set(win.document.state["players"][other]["hand"])
            text = json.dumps({k: v for k, v in board.items() if k not in ("prompt", "last_chit")})
            assert not [c for c in secret if f'"{c}"' in text]
        assert human_move(win)
    assert win.document.board["outcome"] is not None


@pytest.fixture
def from_struggle(make_window, qtbot, tmp_path):
    """A saved Battles game and a shown Struggle window to open it from; the Battles window
    that opens is closed at the end."""
    from struggle_desktop.ui.main_window import MainWindow
    from struggle_desktop.ui.shell import OPEN_WINDOWS

    win = make_window()
    start(win)
    path = tmp_path / "b.sgsave"
    assert win._save_to(path)
    struggle = MainWindow()
    struggle.show()
    qtbot.waitExposed(struggle)
    before = len(OPEN_WINDOWS)
    yield win, path, struggle
    for opened in OPEN_WINDOWS[before:]:
        opened.document.dirty = False
        opened.close()
    del OPEN_WINDOWS[before:]


def test_opening_a_battles_save_from_the_struggle_window_switches_screens(from_struggle):
    """The shell opens a save in the screen of its game: the Struggle window hands over to a
    new Battles window and closes."""
    win, path, struggle = from_struggle
    opened = struggle.open_file(path)
    assert isinstance(opened, BattlesWindow) and opened.isVisible()
    assert not struggle.isVisible()
    assert opened.document.game.id == "battles"
    assert opened.document.game.digest(opened.document.state) == \
        win.document.game.digest(win.document.state)


def test_resuming_a_battles_autosave_from_the_struggle_window(from_struggle):
    """After a crash the program starts on the Struggle screen; resuming a Battles autosave
    opens it in a Battles window, as an unsaved game."""
    from struggle_desktop.ui.shell import OPEN_WINDOWS

    _, path, struggle = from_struggle
    assert struggle.resume_autosave(path)
    resumed = OPEN_WINDOWS[-1]
    assert isinstance(resumed, BattlesWindow)
    assert resumed.document.path is None and resumed.document.dirty


def test_picking_up_a_fleet_lights_where_it_may_go(make_window, qtbot):
    """Holding a counter lights every region it may be deployed to; letting go clears them
    (ARCHITECTURE section 5, drag and drop)."""
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    fid = win.document.board["players"]["blue"]["display"][0]
    legal = {a["region"] for a in win.prompt_actions()
             if a["verb"] == "assign" and a["fleet"] == fid}
    viewport = win.view.viewport()
    point = win.view.mapFromScene(win.scene.counters[fid].sceneBoundingRect().center())
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert len(win.scene._target_marks) == len(legal) == 6
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    assert win.scene._target_marks == []


def test_a_firer_dropped_on_a_friend_is_refused_with_the_reason(make_window, qtbot):
    """BFG-CMB-4: targets are enemy fleets; the status bar says why a drop did nothing."""
    win = make_window()
    start(win, seed=5)
    assert play_until(win, waiting("targets"))
    shot = next(a for a in win.prompt_actions() if a["verb"] == "target")
    friend = next(f for f in win.document.board["battle"]["firing"][win.document.seat]
                  if f != shot["firer"])
    before = len(win.document.session.actions)
    drag(qtbot, win.view, win.scene.counters[shot["firer"]],
         win.scene.counters[friend].sceneBoundingRect().center())
    assert len(win.document.session.actions) == before
    assert win.status_text.text().startswith("Not possible: target is not possible now")


def test_the_hand_over_screen_names_no_action_and_opens_on_no_stray_key(make_window, qtbot):
    """BFG-HID-4: under the hand-over screen, and after the seat is taken, the Edit menu never
    names the other player's last action (it used to read "Undo Disengage (back to base)");
    the menus are off; Space and Enter, which the player who just finished may still press,
    do not take the seat: only a click or the waiting colour's initial does."""
    from PySide6.QtCore import Qt

    win = make_window()
    start(win, blue="human", red="human")
    handovers = 0
    for _ in range(3000):
        QApplication.processEvents()
        if not win.overlay.isVisible():
            assert human_move(win)
            continue
        handovers += 1
        doc = win.document
        other_label = doc._undo[-1].label if doc._undo else None
        assert win.act_undo.text() == "&Undo" and not win.act_undo.isEnabled()
        assert not win.menuBar().isEnabled()
        assert not other_label or other_label not in win.status_text.text()
        assert not win.overlay.button.hasFocus()
        assert win.overlay.button.focusPolicy() == Qt.FocusPolicy.NoFocus
        for key in (Qt.Key.Key_Space, Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape):
            qtbot.keyClick(win.overlay, key)
            assert win.overlay.isVisible() and doc.seat == "public"
        role = win.overlay.role
        qtbot.keyClick(win.overlay, win.overlay.seat_key(role))
        assert not win.overlay.isVisible() and doc.seat == role
        assert win.menuBar().isEnabled()
        if other_label:
            assert other_label not in win.act_undo.text() + win.act_undo.toolTip()
            assert win.act_undo.text() == "&Undo" and not win.act_undo.isEnabled()
        if handovers >= 6:
            break
    assert handovers >= 6


def test_save_as_says_a_save_holds_every_secret(make_window):
    """A save holds the whole game, hands and plans included (it is the owner's file); in
    a game of two sides the Save As dialog says so."""
    win = make_window()
    start(win, blue="human", red="human")
    assert "hidden hands and plans" in win.save_caption()


# ------------------------------------------------------------------ chits, deployment, battle map
def double_click(qtbot, widget, point):
    """A real double-click as Qt delivers it: press, release, double-click, release."""
    from PySide6.QtCore import Qt

    for send in (qtbot.mousePress, qtbot.mouseRelease, qtbot.mouseDClick, qtbot.mouseRelease):
        send(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)


def test_each_chit_in_the_hand_says_what_it_does_and_whether_it_plays_now(make_window):
    """The Hand panel's chits have tooltips: the chit's effect (the game's words) and either
    the ways it may be played now or the game's reason why not."""
    from PySide6.QtCore import Qt

    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    hand = win.document.board["hand"]
    assert hand
    chits = win.hand_dock.chits
    for row, chit in enumerate(hand):
        tip = chits.item(row).toolTip()
        assert chit["effect"] in tip and chit["chit"] in tip
        reason = win.document.check({"verb": "play", "chit": chit["chit"]})
        assert f"Not now: {reason}" in tip          # deployment: no chit plays now
    # The displays' chit lines say what the seat may know of each hand.
    tips = [i.toolTip() for i in win.scene.items()
            if "chits in hand" in str(i.text() if hasattr(i, "text") else
                                       i.toPlainText() if hasattr(i, "toPlainText") else "")]
    assert len(tips) == 2
    assert any(hand[0]["effect"] in t for t in tips)
    assert any("face down" in t for t in tips)
    assert not any(c in " ".join(tips) for c in win.document.state["players"]["red"]["hand"])
    assert chits.item(0).data(Qt.ItemDataRole.UserRole) == hand[0]["chit"]


def test_a_chit_double_clicked_at_the_wrong_moment_gives_the_games_reason(make_window, qtbot):
    """A chit that cannot be played now says why, in the game's words (its check_action),
    not only "cannot be played now"."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    win.hand_dock.show()
    chits = win.hand_dock.chits
    row = next(k for k, c in enumerate(win.document.board["hand"])
               if c["type"] == "Tactical")
    chit = win.document.board["hand"][row]["chit"]
    before = len(win.document.session.actions)
    double_click(qtbot, chits.viewport(), chits.visualItemRect(chits.item(row)).center())
    assert len(win.document.session.actions) == before
    reason = win.document.check({"verb": "play", "chit": chit})
    assert reason and reason in win.status_text.text()
    assert win.status_text.text().startswith(f"{chit} cannot be played now: ")


def test_deployment_says_how_many_fleets_are_left_before_done(make_window):
    """BFG-DEP-2, BFG-DEP-3: Done comes only when every fleet but the Trans-humans is placed;
    until then the table and the Turn panel say how many are left."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    board = win.document.board
    display = board["players"]["blue"]["display"]
    must = [f for f in display if board["fleets"][f]["type"] != "TH"]
    assert win.scene.note_text == f"Place every fleet first: {len(must)} left"
    assert f"Place every fleet first: {len(must)} left" in win.table_dock.label.text()
    for k, fid in enumerate(must):
        assert win.perform({"verb": "assign", "fleet": fid, "region": 1 + k % 6})
        left = len(must) - k - 1
        if left:
            assert win.scene.note_text == f"Place every fleet first: {left} left"
    assert any(a["verb"] == "done" for a in win.prompt_actions())
    assert win.scene.note_text == "Every fleet is placed"


def test_dropping_an_unplaced_fleet_back_on_its_display_says_precisely_why(make_window, qtbot):
    """A fleet dropped on its own display (on a free spot or onto another counter there)
    changes nothing, and the status bar names the fleet and what is left to place; it is
    not the general "Not possible" refusal."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    board = win.document.board
    fid, other = board["players"]["blue"]["display"][:2]
    before = len(win.document.session.actions)
    for target in (win.scene.counters[other].sceneBoundingRect().center(),
                   QPointF(120, 800)):                     # the lower, empty part
        drag(qtbot, win.view, win.scene.counters[fid], target)
        assert len(win.document.session.actions) == before
        message = win.status_text.text()
        assert not message.startswith("Not possible")
        assert board["fleets"][fid]["label"] in message
        assert "on your display already" in message and "left)" in message


def battle_board(win):
    """The board of the first fight that has fired once (targets still declared)."""
    def fired(w):
        battle = w.document.board.get("battle")
        return bool(battle and battle["results"] and any(battle["targets"].values()))
    assert play_until(win, fired)
    return win.document.board


def test_no_target_arrow_leaves_the_battle_map(make_window):
    """A firer or target that left the fight (returned to base, its counter back on a display)
    keeps no arrow: every arrow starts and ends on the battle mini-map's firing lines."""
    import copy

    from PySide6.QtWidgets import QGraphicsLineItem

    from struggle_desktop.ui.battles.scene import DISPLAYS, REGIONS_AREA, BattlesScene

    win = make_window()
    start(win, seed=5)
    board = copy.deepcopy(battle_board(win))
    battle = board["battle"]
    # A fleet on Blue's display that is still named as a target, as after a 5 rolled at it.
    gone = board["players"]["blue"]["display"][0] if board["players"]["blue"]["display"] \
        else battle["firing"]["blue"].pop()
    if gone not in board["players"]["blue"]["display"]:
        board["players"]["blue"]["display"].append(gone)
    firer = battle["firing"]["red"][0]
    battle["targets"]["red"][firer] = {"target": gone, "single": False}
    scene = BattlesScene(win.document.layout)
    scene.show_board(board)
    arrows = [i for i in scene.items() if isinstance(i, QGraphicsLineItem) and i.zValue() == 31]
    assert arrows
    for arrow in arrows:
        line = arrow.line()
        for point in (line.p1(), line.p2()):
            assert REGIONS_AREA.contains(point)
            assert not DISPLAYS["blue"].contains(point)


def test_the_disengagement_words_never_overlap_the_firing_headers(make_window):
    """"Red disengages, Blue stays" has its own line under the battle's title."""
    import copy

    from struggle_desktop.ui.battles.scene import BattlesScene

    win = make_window()
    start(win, seed=5)
    board = copy.deepcopy(battle_board(win))
    board["battle"]["disengaged"] = {"red": True, "blue": False}
    scene = BattlesScene(win.document.layout)
    scene.show_board(board)
    texts = {i.text(): i.sceneBoundingRect() for i in scene.items() if hasattr(i, "text")
             and isinstance(i.text(), str)}
    words = texts["Red disengages, Blue stays"]
    title = next(r for t, r in texts.items() if t.startswith("Battle in "))
    for header in ("Blue firing", "Red firing"):
        assert not words.intersects(texts[header])
    assert not words.intersects(title)


def test_a_refusal_in_the_status_bar_goes_with_the_next_action(make_window, qtbot):
    """A "Not possible" message is about the gesture just made: the next action the player
    takes clears it (it used to stay for many actions)."""
    win = make_window()
    start(win)
    assert play_until(win, waiting("deploy"))
    fid = win.document.board["players"]["blue"]["display"][0]
    drag(qtbot, win.view, win.scene.counters[fid], QPointF(700, 40))   # on the CI track
    assert win.status_text.text().startswith("Not possible")
    drag(qtbot, win.view, win.scene.counters[fid], win.scene.region_rects[2].center())
    assert win.document.board["players"]["blue"]["plan"][fid] == 2
    assert not win.status_text.text().startswith("Not possible")
