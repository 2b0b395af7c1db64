"""The main window driven like a player would: mouse drags on the map, the panels, the menus
and their shortcuts, files, undo, free placement and watching the automated steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent, QObject, QRect, QStandardPaths, Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from struggle_desktop.ui import main_window as main_window_module

from struggle_desktop.ui.docks.style import half_points
from struggle_desktop.ui.document import autosave_paths
from struggle_desktop.ui.main_window import MainWindow
from struggle_desktop.ui.shell import crashed_game_waiting, mark_running
from struggle_desktop.ui.settings import app_settings
from tests.ui.helpers import drag


@pytest.fixture
def make_window(qtbot):
    """Main windows that close at the end of the test without asking to save."""
    made = []

    def make(show=True):
        win = MainWindow()      # not qtbot.addWidget: it would close before dirty is cleared
        made.append(win)
        if show:
            win.show()
            qtbot.waitExposed(win)
        return win
    yield make
    for win in made:
        win.document.dirty = False   # no "save first?" question: it would wait for a click
        win.close()
        win.deleteLater()


@pytest.fixture
def window(make_window):
    win = make_window()
    win.set_speed("instant")
    return win


def start(window, scenario="3", seed=1):
    assert window.new_game("struggle", scenario, seed, {})
    window.perform({"verb": "auto_place"})


def play_until(window, kind, limit=300):
    """Take the program's hint until a prompt of ``kind`` waits."""
    doc = window.document
    for _ in range(limit):
        if doc.board["prompt"] and doc.board["prompt"]["kind"] == kind:
            return True
        if doc.board["outcome"]:
            return False
        action = doc.hint()
        if action["verb"] == "attack":
            doc.perform(action)       # skip the odds dialog in these helpers
        else:
            window.perform(action)
    return False


def movable_piece(window):
    """An Imperial unit with a legal move, and one sector it may go to."""
    for pid in window.document.board["pieces"]:
        targets = window.drag_targets(pid)
        if targets and window.scene.piece_item(pid) is not None:
            return pid, targets
    raise AssertionError("no movable counter on the map")


def units_of_type_in(board, unit_type, sector):
    return sorted(pid for pid in board["sectors"][sector]["pieces"]
                  if board["pieces"][pid]["kind"] == "unit" and board["pieces"][pid]["type"] == unit_type
                  and board["pieces"][pid]["side"] == "imp")


def test_dragging_a_counter_onto_a_legal_sector_moves_it(window, qtbot):
    start(window)
    assert play_until(window, "movement")
    pid, targets = movable_piece(window)
    piece = window.document.board["pieces"][pid]
    target = next(n for n in targets if n != piece["sector"])
    before = units_of_type_in(window.document.board, piece["type"], target)
    actions = len(window.document.session.actions)
    drag(qtbot, window.view, window.scene.piece_item(pid), window.scene.sector_center(target))
    assert len(window.document.session.actions) == actions + 1
    last = window.document.session.actions[-1]["action"]
    assert last["verb"] == "move" and last["to"] == target
    assert len(units_of_type_in(window.document.board, piece["type"], target)) == len(before) + 1


def test_dropping_on_an_illegal_sector_returns_the_counter_with_the_reason(window, qtbot):
    start(window)
    assert play_until(window, "movement")
    pid, targets = movable_piece(window)
    item = window.scene.piece_item(pid)
    home = item.sceneBoundingRect().center()
    illegal = next(n for n in window.document.board["sectors"] if n not in targets
                   and n != window.document.board["pieces"][pid]["sector"])
    digest = window.document.game.digest(window.document.state)
    drag(qtbot, window.view, item, window.scene.sector_center(illegal))
    assert window.document.game.digest(window.document.state) == digest
    assert window.status_text.text().startswith("Not possible")
    assert len(window.status_text.text()) > len("Not possible: ")
    again = window.scene.piece_item(pid)
    assert again is not None and (again.sceneBoundingRect().center() - home).manhattanLength() < 1


def test_a_whole_turn_through_the_panels(window, qtbot, monkeypatch):
    """Continue ends steps; other decisions are taken from the decision list with Do it;
    attacks go through the odds dialog (accepted here)."""
    import struggle_desktop.ui.dialogs.combat as combat_dialog

    shown = []
    monkeypatch.setattr(combat_dialog, "ask_attack",
                        lambda parent, document, action: shown.append(action) or True)
    start(window)
    doc = window.document
    turn = doc.board["turn"]
    window.decision_dock.show()
    window.decision_dock.ensure_widget()
    window.turn_dock.show()
    for _ in range(300):
        if doc.board["turn"] > turn or doc.board["outcome"]:
            break
        hint = doc.hint()
        if hint["verb"] == "done":
            window.continue_game()
        else:
            assert window.decision_dock.select_action(hint)
            qtbot.mouseClick(window.decision_dock.do_button, Qt.MouseButton.LeftButton)
    assert doc.board["turn"] == turn + 1 or doc.board["outcome"]
    assert all(a["verb"] == "attack" for a in shown)


def test_save_and_open_through_the_menus(window, make_window, tmp_path, monkeypatch):
    start(window)
    target = tmp_path / "mine.sgsave"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.act_save_as.trigger()
    assert target.exists() and not window.document.dirty
    assert window.document.path == target
    digest = window.document.game.digest(window.document.state)

    other = make_window(show=False)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(target), ""))
    other.act_open.trigger()
    assert other.document.game.digest(other.document.state) == digest
    assert target.resolve() in [p.resolve() for p in other.recent_files()]


def test_every_menu_command_has_a_keyboard_shortcut(window):
    def walk(menu):
        for action in menu.actions():
            if action.menu() is not None:
                yield from walk(action.menu())
            elif action.text() and not action.isSeparator():
                yield action
    exempt_menus = {"Open &Recent", "&Panels"}
    missing = []
    for top in window.menuBar().actions():
        for action in walk(top.menu()):
            if top.menu().title() in exempt_menus or _in_submenu(top.menu(), action, exempt_menus):
                continue
            if action.text() in ("&About…", "Reset &Layout"):
                continue
            if action.shortcut().isEmpty():
                missing.append(action.text())
    assert missing == []


def _in_submenu(menu, action, titles) -> bool:
    for entry in menu.actions():
        sub = entry.menu()
        if sub is not None and (sub.title() in titles and action in sub.actions()
                                or _in_submenu(sub, action, titles)):
            return True
    return False


def test_undo_shortcut_and_refusal_across_a_roll(window, qtbot):
    start(window)                       # turn 1 rolled dice and drew markers
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    digest = window.document.game.digest(window.document.state)
    QTest.keySequence(window, QKeySequence(QKeySequence.StandardKey.Undo))
    assert window.document.game.digest(window.document.state) == digest
    assert not window.act_undo.isEnabled() and "chance" in window.act_undo.toolTip()
    # The key is refused with a word, not in silence.
    assert window.status_text.text().startswith("Cannot undo: ")
    assert "chance" in window.status_text.text()
    window.show_message("")
    window.undo()
    assert window.status_text.text().startswith("Cannot undo")


def test_free_placement_moves_a_unit_anywhere_and_logs_it(window, qtbot):
    start(window)
    board = window.document.board
    pid = next(p for p, v in board["pieces"].items() if v["kind"] == "unit" and v["side"] == "imp")
    item = window.scene.piece_item(pid)
    if item is None:
        pytest.skip("the unit is drawn in a collapsed stack")
    window.act_free.trigger()
    far = max(board["sectors"], key=lambda n: (window.scene.sector_center(n) - item.sceneBoundingRect().center()).manhattanLength())
    drag(qtbot, window.view, item, window.scene.sector_center(far))
    last = window.document.log_entries()[-1]
    assert last["kind"] == "adjust" and "by hand" in last["text"]
    assert window.document.session.actions[-1]["action"]["verb"] == "adjust"


def test_log_reference_click_centres_and_selects_the_sector(window):
    start(window)
    window.log_dock.ref_activated.emit("sector:40")
    assert window.scene.selected_sector == 40


def test_watching_step_by_step(window):
    """The map and the track panels show each automated step; skipping shows the end."""
    window.set_speed("step")
    assert window.new_game("struggle", "3", 1, {})
    window.ci_dock.show()
    window.ci_dock.ensure_widget()
    window.perform({"verb": "auto_place"})
    assert window.playback.active
    first = window.playback.index
    window.continue_game()
    assert window.playback.index == first + 1
    frame = window.playback.frames[window.playback.index]
    assert window.document.board is frame.board
    # Step on to a moment when the Chaos Index differs from the end of the action's steps:
    # the track shows the step's value, not the final one.
    final_ci = window.document.state["ci2"] / 2
    while frame.board["ci"] == final_ci and window.playback.index < len(window.playback.frames) - 1:
        window.continue_game()
        frame = window.playback.frames[window.playback.index]
    assert frame.board["ci"] != final_ci, "every step had the final CI: pick another seed"
    assert window.ci_dock.content.ci_value.text() == half_points(frame.board["ci"])
    window.skip_playback()
    assert not window.playback.active and not window.document.showing_step
    final = window.document.board
    assert final["turn"] >= 1 and window.ci_dock.content.ci_value.text() == half_points(final["ci"])



def test_dock_layout_persists_between_runs(make_window):
    first = make_window()
    first.cup_dock.hide()
    first.close()
    second = make_window()
    assert second.cup_dock.isHidden() and not second.log_dock.isHidden()


def test_offer_to_resume_after_a_crash(window, make_window):
    start(window)
    settings = app_settings()
    mark_running(settings)             # the run "crashed": no clean exit recorded
    waiting = crashed_game_waiting(settings)
    assert waiting is not None
    other = make_window(show=False)
    assert other.resume_autosave(waiting)
    assert other.document.path is None and other.document.dirty
    assert other.document.game.digest(other.document.state) == \
        window.document.game.digest(window.document.state)


def crash_after_three_autosaves(window):
    """A game whose three kept autosaves hold 2, 1 and 0 actions; then the run "crashes"."""
    assert window.new_game("struggle", "3", 1, {})
    window.document.perform({"verb": "auto_place"})
    window.document.perform(window.document.hint())
    counts = [len(json.loads(p.read_text())["actions"]) for p in autosave_paths()]
    assert counts == [2, 1, 0]
    mark_running(app_settings())


@pytest.fixture
def boxes(monkeypatch):
    """Warnings and notes shown, recorded instead of waiting for a click."""
    shown = {"warning": [], "information": []}
    for kind in shown:
        monkeypatch.setattr(QMessageBox, kind, lambda parent, title, text, *a, kind=kind, **k:
                            shown[kind].append((title, text)) or QMessageBox.StandardButton.Ok)
    return shown


@pytest.mark.parametrize("damage", ["an action changed", "truncated"])
def test_resume_falls_back_to_the_autosave_before_a_damaged_one(window, make_window, boxes,
                                                                damage):
    crash_after_three_autosaves(window)
    newest, previous, _ = autosave_paths()
    document = json.loads(newest.read_text())
    if damage == "an action changed":
        document["actions"][-1]["action"]["verb"] = "bogus"
        newest.write_text(json.dumps(document))
    else:
        newest.write_text(newest.read_text()[:500])
    waiting = crashed_game_waiting(app_settings())
    assert waiting == newest
    other = make_window(show=False)
    assert other.resume_autosave(waiting)
    assert len(other.document.session.actions) == 1
    assert other.document.path is None and other.document.dirty
    assert other.status_text.text() == ("Resumed from the older autosave autosave-1.sgsave: "
                                        "the newest could not be read")
    assert len(boxes["information"]) == 1
    note = boxes["information"][0][1]
    assert note.startswith("The newest autosave could not be read (")
    assert "resumed from the one before it (autosave-1.sgsave)" in note
    if damage == "an action changed":
        assert note.endswith(", 1 action earlier.")
    else:
        assert note.endswith("which holds 1 action of Struggle for the Galactic Empire.")
    assert boxes == {"warning": [], "information": [("Resumed from an older autosave", note)]}
    # An autosave is not one of the player's files.
    assert not any(p.name.startswith("autosave") for p in other.recent_files())


def test_when_no_autosave_plays_one_warning_then_the_new_game_dialog(window, make_window,
                                                                   boxes, monkeypatch):
    from struggle_desktop.ui import app

    crash_after_three_autosaves(window)
    for path, junk in zip(autosave_paths(), ["", "[" * 1000, '{"format": 1}']):
        path.write_text(junk)
    other = make_window(show=False)
    asked = []
    monkeypatch.setattr(other, "new_game_dialog", lambda: asked.append(True))
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: QMessageBox.StandardButton.Yes)
    app.offer_resume(other, crashed_game_waiting(app_settings()))
    assert boxes["information"] == [] and len(boxes["warning"]) == 1
    title, text = boxes["warning"][0]
    assert title == "Cannot resume the game"
    assert text.startswith("None of the 3 autosaves could be read. The newest: ")
    assert asked == [True] and other.document.session is None


def test_an_older_autosave_is_offered_when_the_newest_is_missing(window):
    """A crash between the rotation and the write of the new autosave."""
    crash_after_three_autosaves(window)
    autosave_paths()[0].unlink()
    assert crashed_game_waiting(app_settings()) == autosave_paths()[1]
    for path in autosave_paths()[1:]:
        path.unlink()
    assert crashed_game_waiting(app_settings()) is None


def test_render_command_draws_the_opening(tmp_path):
    from PySide6.QtGui import QImage

    from struggle_desktop import cli

    out = tmp_path / "map.png"
    assert cli.main(["render", "--game", "struggle", "--scenario", "3", "--out", str(out),
                     "--size", "800x500"]) == 0
    image = QImage(str(out))
    assert (image.width(), image.height()) == (800, 500)


def test_scenario_3_played_to_its_end_with_the_panels(window, qtbot, monkeypatch):
    """A new user's whole game: every decision taken by clicking Continue or a listed choice
    and Do it (attacks accepted in the odds dialog), until the game ends."""
    import struggle_desktop.ui.dialogs.combat as combat_dialog

    monkeypatch.setattr(combat_dialog, "ask_attack", lambda parent, document, action: True)
    assert window.new_game("struggle", "3", 11, {})
    doc = window.document
    window.decision_dock.show()
    window.decision_dock.ensure_widget()
    for _ in range(600):
        if doc.board["outcome"]:
            break
        hint = doc.hint()
        if hint["verb"] == "done" and window.turn_dock.continue_button.isEnabled():
            qtbot.mouseClick(window.turn_dock.continue_button, Qt.MouseButton.LeftButton)
        else:
            window.decision_dock.show()
            window.decision_dock.raise_()
            assert window.decision_dock.select_action(hint)
            qtbot.mouseClick(window.decision_dock.do_button, Qt.MouseButton.LeftButton)
    outcome = doc.board["outcome"]
    assert outcome and outcome["result"] in doc.board["victory_levels"] + ["turn-limit", "universal"]
    assert "game is over" in window.status_text.text()
    # The log explains the automated steps: every entry names its rule.
    assert all(entry["rule"] for entry in doc.log_entries())


@pytest.mark.parametrize("kind", ["png", "pdf"])
def test_export_the_map_through_the_menu(window, tmp_path, monkeypatch, kind):
    start(window)
    target = tmp_path / f"map.{kind}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    (window.act_export_png if kind == "png" else window.act_export_pdf).trigger()
    assert target.exists() and target.stat().st_size > 10_000
    assert window.status_text.text() == f"Map saved as {target}"
    head = target.read_bytes()[:8]
    assert head.startswith(b"\x89PNG") if kind == "png" else head.startswith(b"%PDF")


def test_log_reference_hover_highlights_its_sector(window):
    start(window)
    window.log_dock.ref_hovered.emit("sector:12")
    assert window.scene.highlighted("hover") == {12}
    window.log_dock.ref_hovered.emit("")
    assert window.scene.highlighted("hover") == set()


def test_clicking_a_sector_declares_an_attack_after_the_odds(window, qtbot, monkeypatch):
    """SGE-CMB-15: the odds are shown before the roll; clicking the sector starts it."""
    import struggle_desktop.ui.dialogs.combat as combat_dialog

    shown = []

    def accept(parent, document, action):
        shown.append(document.preview(action))
        return True
    monkeypatch.setattr(combat_dialog, "ask_attack", accept)
    for seed in (3, 4, 5, 6):
        assert window.new_game("struggle", "4", seed, {})
        window.document.dirty = False
        window.perform({"verb": "auto_place"})
        if play_until(window, "combat") and any(
                a["verb"] == "attack" for a in window.document.legal_actions()):
            break
    else:
        pytest.skip("no attack offered in these games")
    attack = next(a for a in window.document.legal_actions() if a["verb"] == "attack")
    actions = len(window.document.session.actions)
    viewport = window.view.viewport()
    point = window.view.mapFromScene(window.scene.sector_center(attack["at"]))
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)
    if len(window.document.session.actions) == actions:
        # Two kinds of attack in that sector: the window offers them in a menu.
        menu = window.sector_menu
        assert menu is not None and menu.isVisible()
        labels = [a.text() for a in menu.actions()]
        assert any("military" in t for t in labels) or any("morpho" in t for t in labels)
        menu.actions()[0].trigger()
    assert len(window.document.session.actions) == actions + 1
    done = window.document.session.actions[-1]["action"]
    assert done["verb"] == "attack" and done["at"] == attack["at"]
    assert shown and abs(sum(shown[0]["results"].values()) - 1) < 1e-9


def test_space_continues_on_the_map_but_not_in_the_decision_list(window, qtbot):
    start(window)
    assert play_until(window, "movement")
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: window.isActiveWindow())
    actions = len(window.document.session.actions)
    window.decision_dock.show()
    window.decision_dock.ensure_widget()
    window.decision_dock.choices.setFocus()
    qtbot.waitUntil(lambda: window.decision_dock.choices.hasFocus())
    QTest.keyClick(window.decision_dock.choices, Qt.Key.Key_Space)
    assert len(window.document.session.actions) == actions      # no phase ended by accident
    window.view.setFocus()
    qtbot.waitUntil(lambda: window.view.hasFocus())
    QTest.keyClick(window.view, Qt.Key.Key_Space)
    assert window.document.session.actions[-1]["action"] == {"verb": "done"}


# ------------------------------------------------------------------------------ watching
def test_step_walks_the_chaos_side_only_not_the_players_own_moves(window):
    """Step stopped after each of the player's own purchases and moves ("Next step (1 of
    1)"); those are done by the player and need no stepping through."""
    window.set_speed("step")
    start(window)
    assert window.playback.active           # the Chaos side's first turn
    window.skip_playback()
    assert play_until(window, "movement")
    move = next(a for a in window.document.legal_actions() if a["verb"] in ("move", "move_stack"))
    assert window.perform(move)
    assert not window.playback.active and not window.document.showing_step
    assert window.turn_dock.continue_button.text().startswith("Continue")


def test_fast_resumes_a_playback_and_step_pauses_one(window, qtbot, monkeypatch):
    monkeypatch.setattr(main_window_module, "FAST_STEP_MS", 5)
    window.set_speed("step")
    start(window)
    playback = window.playback
    assert playback.active and playback.index == 0
    window.turn_dock.show()
    buttons = window.turn_dock.ensure_widget().speed_buttons
    qtbot.mouseClick(buttons["fast"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not playback.active, timeout=20000)
    assert not window.document.showing_step
    # A fast playback stops where it is when Step is chosen, and Continue steps on.
    monkeypatch.setattr(main_window_module, "FAST_STEP_MS", 600_000)
    window.document.dirty = False
    start(window)
    assert playback.active and playback.speed == "fast" and playback.index == 0
    qtbot.mouseClick(buttons["step"], Qt.MouseButton.LeftButton)
    assert playback.speed == "step" and not playback.timer.isActive()
    assert window.turn_dock.continue_button.text().startswith("Next step (1 of ")
    window.continue_game()
    assert playback.index == 1


def test_the_speed_chosen_in_set_up_shows_the_first_chaos_turn(make_window, qtbot):
    """"Let the program place everything" ran the Chaos side's first turn at Fast before
    the player could choose: the speed buttons and a note are there during set-up, the
    first playback uses the speed chosen, starts with the Chaos side's own first step, and
    the log and dice panels show that step's moment."""
    win = make_window()
    assert win.new_game("struggle", "3", 1, {})
    widget = win.turn_dock.ensure_widget()
    assert win.turn_dock.isVisible() and widget.speed_buttons["step"].isVisible()
    assert widget.speed_note.isVisible()
    qtbot.mouseClick(widget.speed_buttons["step"], Qt.MouseButton.LeftButton)
    win.decision_dock.show()
    win.decision_dock.raise_()
    win.decision_dock.ensure_widget()
    assert win.decision_dock.select_action({"verb": "auto_place"})
    qtbot.mouseClick(win.decision_dock.do_button, Qt.MouseButton.LeftButton)
    playback = win.playback
    assert playback.active and playback.speed == "step" and playback.index == 0
    frame = playback.frames[0]
    assert frame.entry["turn"] >= 1           # not one of the player's own placements
    assert win.turn_dock.continue_button.text().startswith("Next step (1 of ")
    doc = win.document
    size = frame.board["log_size"]
    assert win.log_dock.model.rowCount() == size
    until_now = {id(e) for e in doc.log_entries()[:size]}
    assert all(id(roll) in until_now for roll in win.dice_dock.rolls)
    win.skip_playback()
    assert win.log_dock.model.rowCount() == len(doc.log_entries())
    assert any(id(roll) not in until_now for roll in win.dice_dock.rolls)


# ------------------------------------------------------------------------------ keys
class ClaimsCtrlE(QObject):
    """What a line edit does with Ctrl+E on Linux: it claims the key (end of line)."""

    def eventFilter(self, watched, event):
        if (event.type() == QEvent.Type.ShortcutOverride and event.key() == Qt.Key.Key_E
                and event.modifiers() == Qt.KeyboardModifier.ControlModifier):
            event.accept()
            return True
        return False


def f1_presses(window, monkeypatch) -> list[str]:
    """The times F1's command runs (whatever it opens: its dialog is not shown)."""
    pressed = []
    action = next(a for a in window.actions() if QKeySequence("F1") in a.shortcuts())
    action.triggered.connect(lambda *_: pressed.append(action.text()))
    monkeypatch.setattr(QDialog, "exec", lambda self, *a: 0)
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: None)
    return pressed


def activate(window, qtbot):
    window.activateWindow()
    window.windowHandle().requestActivate()
    qtbot.waitUntil(lambda: window.isActiveWindow())


def test_window_shortcuts_work_while_a_filter_box_has_the_focus(window, qtbot, monkeypatch):
    start(window)
    asked = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda *a, **k: asked.append(a[1]) or ("", ""))
    shown = f1_presses(window, monkeypatch)
    activate(window, qtbot)
    window.log_dock.show()
    box = window.log_dock.ensure_widget().filter
    claims = ClaimsCtrlE()
    box.installEventFilter(claims)
    box.setFocus()
    qtbot.waitUntil(box.hasFocus)
    QTest.keyClick(box, Qt.Key.Key_E, Qt.KeyboardModifier.ControlModifier)
    assert asked == ["Export the map"]
    QTest.keyClick(box, Qt.Key.Key_F1)
    assert len(shown) == 1
    QTest.keyClick(box, Qt.Key.Key_A)       # typing stays the box's
    assert box.text() == "a"


def test_f1_works_at_once_after_a_file_dialog(window, qtbot, monkeypatch):
    """After the export dialog the window manager may leave another window active: the
    window takes the keyboard back, so F1 works without a click on the map first."""
    start(window)
    shown = f1_presses(window, monkeypatch)
    activate(window, qtbot)
    window.view.setFocus()
    elsewhere = QWidget()
    qtbot.addWidget(elsewhere)

    def dialog(*args, **kwargs):
        elsewhere.show()
        elsewhere.activateWindow()
        qtbot.waitUntil(elsewhere.isActiveWindow)
        return "", ""
    monkeypatch.setattr(QFileDialog, "getSaveFileName", dialog)
    window.act_export_png.trigger()
    qtbot.waitUntil(window.isActiveWindow, timeout=2000)
    assert window.view.hasFocus()
    QTest.keyClick(window.view, Qt.Key.Key_F1)
    assert len(shown) == 1


# ------------------------------------------------------------------------------ panels and files
LAPTOP = (1366, 728)      # a 1366x768 screen less a title bar


@pytest.fixture
def laptop(monkeypatch):
    """The window lays its panels out for a 1366x768 screen (as it does on one)."""
    monkeypatch.setattr(main_window_module, "available_geometry",
                        lambda widget=None: QRect(0, 0, 1366, 768 - 30))


def test_recruitment_shows_several_rows_and_its_buttons_after_reset_layout(make_window, qtbot,
                                                                          laptop):
    win = make_window()
    win.resize(*LAPTOP)
    win.set_speed("instant")
    start(win)
    assert play_until(win, "recruitment")
    win.reset_layout()
    win.recruit_dock.raise_()
    qtbot.wait(50)
    panel = win.recruit_dock.panel
    item = panel._item(("buy_unit", "SF"))
    row = panel.tree.visualItemRect(item).height()
    assert row > 0 and panel.tree.viewport().height() >= 4 * row
    assert not panel.buy_button.visibleRegion().isEmpty()
    assert not panel.done_button.visibleRegion().isEmpty()
    # The right column fits the screen: the window never had to grow for it.
    assert win.minimumSizeHint().height() <= LAPTOP[1] and win.height() <= LAPTOP[1]


def test_the_log_shows_eight_rows_or_more_on_a_laptop_screen(make_window, qtbot, laptop):
    win = make_window()
    win.resize(*LAPTOP)
    win.set_speed("instant")
    start(win)
    qtbot.wait(50)
    view = win.log_dock.view
    assert view.viewport().height() >= 8 * view.delegate.row_height


def test_export_starts_beside_the_save_or_in_the_pictures_folder(window, tmp_path, monkeypatch):
    start(window)
    pictures = tmp_path / "Pictures"
    pictures.mkdir()
    monkeypatch.setattr(QStandardPaths, "writableLocation", lambda location: str(
        pictures if location == QStandardPaths.StandardLocation.PicturesLocation
        else tmp_path / "missing"))
    starts = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName",
                        lambda parent, caption, where, *a, **k: starts.append(where) or ("", ""))
    window.act_export_png.trigger()
    assert Path(starts[-1]) == pictures / "map.png"
    save = tmp_path / "games" / "mine.sgsave"
    save.parent.mkdir()
    window.document.save(save)
    window.act_export_pdf.trigger()
    assert Path(starts[-1]) == save.parent / "mine-map.pdf"


def test_hint_marks_its_move_on_the_map(window):
    start(window)
    assert play_until(window, "movement")
    window.show_hint()
    item = window.decision_dock.choices.currentItem()
    entry = next(e for e in window.document.board["prompt"]["actions"]
                 if e["action"] == item.data(Qt.ItemDataRole.UserRole))
    target = entry.get("drop", {}).get("sector", entry.get("sector"))
    assert isinstance(target, int), "the hint here is a move on the map"
    emphasis = window.scene.emphasis
    assert emphasis is not None and emphasis.caption == f"Hint: {entry['label']}"
    assert window.scene.geometry[target].path in emphasis.rings
    window.perform(entry["action"])
    assert window.scene.emphasis is None


def test_reopening_a_save_brings_back_its_zoom_and_centre(make_window, tmp_path, qtbot):
    first = make_window()
    first.set_speed("instant")
    start(first)
    path = tmp_path / "kept.sgsave"
    first.document.save(path)
    first.view.set_zoom(2.5)
    first.view.centre_on_sector(40)
    centre = first.view.mapToScene(first.view.viewport().rect().center())
    first.close()
    second = make_window()
    assert second.open_file(path) is second
    qtbot.waitUntil(lambda: abs(second.view.zoom - 2.5) < 1e-3)
    now = second.view.mapToScene(second.view.viewport().rect().center())
    assert (now - centre).manhattanLength() < 2
