"""The Freedom in the Galaxy window driven as the players would: a Mission phase played through
the resolution view's own buttons to the outcome summary, Copy, the group form and its
refusals, call-off and undo, the players' results of a fight, mulligans and Stop rolling,
saves, New Environs, the new-game dialog, the Part B and C scenarios and the render picture."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication, QDialog, QLabel, QPushButton, QSpinBox

from struggle_desktop.games import get_game
from struggle_desktop.ui.freedom import window as window_module
from struggle_desktop.ui.freedom.window import FreedomWindow
from tests.ui.helpers import window_maker

LIMIT = 400


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, FreedomWindow)


def start(win, scenario="a1", seed=1, options=None):
    assert win.new_game("freedom", scenario, seed, options or {})
    QApplication.processEvents()


def button(win, name: str) -> QPushButton:
    """The visible, enabled button ``name`` of the resolution view (a form replaced a moment
    ago may linger hidden until it is deleted)."""
    found = [b for b in win.resolution.findChildren(QPushButton, name) if b.isVisible()]
    assert len(found) == 1, f"{name}: {len(found)} visible buttons"
    assert found[0].isEnabled(), name
    return found[0]


def click(qtbot, win, name: str) -> None:
    qtbot.mouseClick(button(win, name), Qt.MouseButton.LeftButton)
    QApplication.processEvents()


def prompt(win) -> dict | None:
    return win.document.board.get("prompt")


def answer_with_widgets(qtbot, win) -> bool:
    """One answer as a player gives it on the resolution page: Continue, Roll, Keep, the
    default result of a fight; anything else from the Decision panel. False at the end."""
    board = win.document.board
    if board.get("outcome"):
        return False
    p = board["prompt"]
    assert p is not None, "the seat follows the player the game waits for"
    assert p["role"] == win.document.seat
    kind = p["kind"]
    name = {"call_off": "freedom-continue", "bonus_roll": "freedom-roll",
            "mulligan": "freedom-keep", "hook": "freedom-default"}.get(kind)
    if kind == "assign":
        # The form starts on a legal group: form it, then one more, then Done.
        forms = [a for a in win.document.legal_actions() if a["verb"] == "form"]
        name = ("freedom-form-group" if forms and len(win.document.state["draft"]) < 2
                else "freedom-assign-done")
    if name is not None:
        click(qtbot, win, name)
        return True
    dock = win.decision_dock
    dock.ensure_widget()
    dock.choices.setCurrentRow(0)
    qtbot.mouseClick(dock.do_button, Qt.MouseButton.LeftButton)
    return True


def play_until(qtbot, win, predicate, limit=LIMIT) -> bool:
    for _ in range(limit):
        QApplication.processEvents()
        if predicate(win):
            return True
        if not answer_with_widgets(qtbot, win):
            return predicate(win)
    return False


def waiting(kind, hook=None):
    def check(win):
        p = win.document.board.get("prompt") or {}
        return p.get("kind") == kind and (hook is None or p.get("hook") == hook)
    return check


# ------------------------------------------------------------------ a Mission phase
def test_a1_is_played_through_the_resolution_view_to_the_summary(make_window, qtbot):
    """FIG-MIS-5 step counter, FIG-GEN-3 dice as tens and units, the groups table, then the
    outcome summary of FIG-MIS-24 with each change's rule ID and what to do on the board."""
    win = make_window()
    start(win, "a1", 1)
    view = win.resolution
    assert win.centre.currentWidget() is win.game_page
    assert win.modes.currentWidget() is view
    assert view.step_label.text() == "Step 1 of 2"
    assert "Rebel player (phasing)" in win.banner_text.text()
    # The last random event and success roll: their dice are the logged faces.
    state = win.document.state
    event_roll = next(e for e in state["log"] if e["rule"] == "FIG-MIS-6" and e["dice"])
    tens, units = event_roll["dice"][0]["faces"]
    assert (view.event_box.tens.face, view.event_box.units.face) == (tens, units)
    assert view.event_box.value.text() == f"{tens}{units}"
    # (its rule ID's hyphens are non-breaking ones, so that it is never split at a line's end)
    assert "FIG-RE-" in view.event_box.text.text().replace("\u2011", "-")
    success = win.document.board["success"]
    assert view.success_box.value.text() == str(success["value"])
    for letter in success["letters"]:
        assert letter["letter"] in view.success_box.text.text()
    # The groups table: G1, Diplomacy led by Vudot Vodot with Zina Adora, active.
    table = view.table
    cells = [table.item(0, c).text() for c in range(8)]
    assert cells[:5] == ["G1", "D Diplomacy", "Vudot Vodot", "Zina Adora", "active"]
    assert view.call_off_button("G1") is not None
    # Continue through the steps; the counter follows.
    click(qtbot, win, "freedom-continue")
    assert view.step_label.text() == "Step 2 of 2"
    assert play_until(qtbot, win, lambda w: w.document.board.get("outcome") is not None)
    outcome = win.document.board["outcome"]
    code = get_game("freedom").outcome(win.document.state)["result"]
    assert outcome["code"] == code
    # The result in a player's words, not the short code of simulations ("D0").
    level = win.document.state["groups"][0]["level"]
    assert outcome["result"] == f"G1 D Diplomacy: level {level}" != code
    assert view.summary_box.isVisible() and not view.prompt_box.isVisible()
    assert outcome["result"] in view.result_label.text()
    shown = view.summary_text.toPlainText()
    for line in outcome["lines"]:
        assert line["rule"] in shown and line["text"] in shown and line["instruction"] in shown
    assert "FIG-MIS-24" in shown and "Detected: Vudot Vodot, Zina Adora" in shown
    g1 = win.document.state["groups"][0]
    assert table.item(0, 7).text().startswith(f"{g1['rolled']} of {g1['count']} rolled")
    assert view.step_label.text().startswith("Outcome report")
    assert "is over" in win.banner_text.text()


def test_copy_puts_the_plain_summary_on_the_clipboard(make_window, qtbot):
    win = make_window()
    start(win, "a1", 1)
    assert not win.act_copy.isEnabled()
    assert play_until(qtbot, win, lambda w: w.document.board.get("outcome") is not None)
    QGuiApplication.clipboard().setText("")
    click(qtbot, win, "freedom-copy")
    text = QGuiApplication.clipboard().text()
    assert text == win.document.board["outcome"]["copy_text"]
    assert text.startswith("Freedom in the Galaxy — A1: Rebel diplomacy (seed 1)")
    assert "[FIG-RE-16] Detected: Vudot Vodot, Zina Adora" in text
    # The board instruction under it (its wording names the characters, or says "the
    # characters named", as games/freedom/presentation.py words it).
    flip = next(line for line in text.splitlines() if line.strip().startswith("→ Flip "))
    assert flip.rstrip().endswith("detected side.")
    assert "<" not in text                      # plain text, not the page's HTML
    assert "clipboard" in win.status_text.text()
    QGuiApplication.clipboard().setText("")
    assert win.act_copy.isEnabled()
    win.act_copy.trigger()
    assert QGuiApplication.clipboard().text() == text


# ------------------------------------------------------------------ call-off and undo
def test_call_off_by_the_groups_button_and_undo_it(make_window, qtbot):
    """FIG-MIS-16: each active group's row has a Call off button while the call-off prompt
    waits; the called-off group keeps its level; Undo brings it back (no die was rolled)."""
    win = make_window()
    start(win, "a3", 1)
    view = win.resolution
    assert prompt(win)["kind"] == "call_off"
    assert view.call_off_button("G1") and view.call_off_button("G2")
    assert view.call_off_button("G3") is None            # Q waits for the bonus segment
    qtbot.mouseClick(view.call_off_button("G1"), Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    groups = {g["id"]: g for g in win.document.state["groups"]}
    assert groups["G1"]["status"] == "called_off" and groups["G2"]["status"] == "active"
    assert prompt(win)["kind"] == "call_off"               # G2 may still be called off
    assert view.call_off_button("G1") is None and view.call_off_button("G2") is not None
    assert view.table.item(0, 4).text() == "called off"
    assert win.act_undo.isEnabled()
    win.act_undo.trigger()
    QApplication.processEvents()
    groups = {g["id"]: g for g in win.document.state["groups"]}
    assert groups["G1"]["status"] == "active"
    assert view.call_off_button("G1") is not None
    assert view.table.item(0, 4).text() == "active"
    # An answer followed by dice cannot be undone: the reason is given.
    click(qtbot, win, "freedom-continue")
    assert not win.act_undo.isEnabled() and "chance" in win.act_undo.toolTip()


def test_the_call_off_buttons_are_whole(make_window, qtbot):
    """FIG-MIS-16: each Call off button gets its whole width and height in the groups table
    (the column once sized to its empty header cut the word to "all o") and stays inside
    the table, also in the narrow window of a laptop whose panels take their share."""
    win = make_window()
    win.resize(1000, 700)         # what a laptop leaves once the panels have their share
    start(win, "a3", 1)
    qtbot.wait(20)
    view = win.resolution
    for gid in ("G1", "G2"):
        button = view.call_off_button(gid)
        assert button is not None and button.isVisible()
        want = button.sizeHint()
        assert button.width() >= want.width() and button.height() >= want.height() - 2
        column = view.table.columnWidth(view.table.columnCount() - 1)
        assert column >= want.width()
        # The whole button lies within the table's visible part.
        corner = button.mapTo(view.table.viewport(), button.rect().bottomRight())
        assert view.table.viewport().rect().contains(corner)


def test_the_chit_mug_tables_keep_their_columns_on_a_laptop(make_window, qtbot):
    """B1 in the window a 1366x768 laptop gives (the panels shown): the tables' column keeps
    most of the width, so the groups table needs no sideways scrolling (a caption that did
    not wrap once took the width and cut "Members" to "mbe")."""
    from PySide6.QtWidgets import QSplitter

    win = make_window()
    win.resize(1284, 721)
    start(win, "b1", 1)
    for dock in win.docks:
        dock.show()
    qtbot.wait(20)
    view = win.mode_view("chit-mug")
    left, right = view.findChild(QSplitter).sizes()
    assert left > right
    groups = view.groups
    assert groups.rowCount() >= 2
    assert not groups.horizontalScrollBar().isVisible()
    for c in range(groups.columnCount()):
        assert groups.columnWidth(c) >= groups.horizontalHeader().sectionSizeHint(c) - 2


# ------------------------------------------------------------------ forming the groups
def test_the_group_form_forms_joins_and_shows_a_refusal_reason(make_window, qtbot):
    """FIG-MIS-3 and FIG-MIS-4: any mission and leader can be tried; a refused group changes
    nothing and its reason (the game's check_action) shows in the form."""
    win = make_window()
    start(win, "random", 2)
    assert prompt(win)["kind"] == "assign"
    form = win.resolution.form
    assert form.objectName() == "freedom-assign"
    free = win.document.board["assign"]["free"]
    index = form.mission_combo.findText("D — Diplomacy")
    form.mission_combo.setCurrentIndex(index)
    form.leader_combo.setCurrentIndex(0)
    click(qtbot, win, "freedom-form-group")
    draft = win.document.state["draft"]
    assert [(g["id"], g["mission"], g["leader"]) for g in draft] == [("G1", "D", free[0])]
    assert win.resolution.table.item(0, 4).text() == "being formed"
    # The same mission again: refused, with the rule's reason, and nothing changes.
    form = win.resolution.form
    form.mission_combo.setCurrentIndex(form.mission_combo.findText("D — Diplomacy (taken)"))
    before = len(win.document.session.actions)
    click(qtbot, win, "freedom-form-group")
    reason = win.document.check(form.form_action())
    assert reason and "another group already has mission D" in reason and "FIG-MIS-4" in reason
    assert form.refusal.isVisible()
    assert form.refusal.text() == "R" + reason[1:]          # "Refused: ... (FIG-MIS-4)"
    assert len(win.document.session.actions) == before
    assert reason in win.status_text.text()
    # A member joins G1 through its Add button.
    combo = form.join_combos["G1"]
    joiner = combo.itemText(0)
    legal_join = {"verb": "join", "group": "G1", "character": joiner} in \
        win.document.legal_actions()
    click(qtbot, win, "freedom-add-G1")
    members = win.document.state["draft"][0]["members"]
    assert (joiner in members) == legal_join
    # Done: the groups go on their missions.
    click(qtbot, win, "freedom-assign-done")
    assert win.document.state["draft"] is None
    assert win.document.state["groups"][0]["mission"] == "D"
    assert win.resolution.step_label.text().startswith(("Step", "Bonus", "Outcome"))


# ------------------------------------------------------------------ the players' results
def test_a_fight_is_entered_by_the_enemy_with_the_foes_numbers_shown(make_window, qtbot):
    """FIG-HOOK-1 and FIG-HOOK-2: the enemy player enters the fight's result a piece at a
    time; the form shows the mob's size, AF and EF and the member's EF and hits."""
    win = make_window()
    start(win, "a2", 1)
    assert play_until(qtbot, win, waiting("hook", "combat"))
    assert win.document.seat == "enemy"
    assert "Imperial player (enemy)" in win.banner_text.text()
    page = " ".join(lbl.text() for lbl in win.resolution.form.findChildren(QLabel))
    assert "3 × Thoks (irate locals)" in page and "AF 2, EF 4 each" in page
    assert "Bridn Murcada" in page
    click(qtbot, win, "freedom-hit-Bridn Murcada")
    click(qtbot, win, "freedom-hit-Bridn Murcada")
    page = " ".join(lbl.text() for lbl in win.resolution.form.findChildren(QLabel)
                    if lbl.isVisible())
    assert "Bridn Murcada: +2 hits" in page
    click(qtbot, win, "freedom-result-characters_broke_off")
    state = win.document.state
    bridn = next(c for c in state["environs"]["characters"] if c["name"] == "Bridn Murcada")
    assert bridn["hits"] == 2
    assert any("The players report (combat)" in e["text"] and "characters_broke_off"
               in e["text"] for e in state["log"])
    assert win.document.seat == "phasing"          # the screen goes back to the phasing player
    assert play_until(qtbot, win, lambda w: w.document.board.get("outcome") is not None)
    assert "Bridn Murcada takes 2 hits" in win.resolution.summary_text.toPlainText()


def test_mulligans_and_stop_rolling(make_window, qtbot):
    """FIG-MIS-23: spend a mulligan on a roll; FIG-MIS-19: stop a group's bonus rolls."""
    win = make_window()
    start(win, "random", 1)
    assert prompt(win)["kind"] == "mulligan"
    side = win.document.state["environs"]["phasing_side"]
    held = win.document.state["environs"]["mulligans"][side]
    click(qtbot, win, "freedom-mulligan")
    assert win.document.state["environs"]["mulligans"][side] == held - 1
    assert any(e["rule"] == "FIG-MIS-23" and "re-roll" in e["text"]
               for e in win.document.state["log"])
    win.document.dirty = False
    start(win, "a1", 1)
    assert play_until(qtbot, win, waiting("bonus_roll"))
    assert button(win, "freedom-roll").isVisible()
    gid = prompt(win)["group"]
    click(qtbot, win, "freedom-stop")
    group = next(g for g in win.document.state["groups"] if g["id"] == gid)
    assert group["rolled"] < group["count"]
    assert any(e["text"] == f"{gid} stops rolling after {group['rolled']} of {group['count']}"
               for e in win.document.state["log"])


# ------------------------------------------------------------------ files
def test_save_in_the_middle_and_load_gives_the_same_position(make_window, qtbot, tmp_path):
    win = make_window()
    start(win, "a2", 1)
    assert play_until(qtbot, win, waiting("hook", "combat"))
    click(qtbot, win, "freedom-hit-Bridn Murcada")
    game = win.document.game
    digest = game.digest(win.document.state)
    path = tmp_path / "mid.sgsave"
    win.document.save(path)
    other = make_window()
    assert other.open_file(path) is other
    QApplication.processEvents()
    assert game.digest(other.document.state) == digest
    assert other.document.seat == "enemy"
    page = " ".join(lbl.text() for lbl in other.resolution.form.findChildren(QLabel)
                    if lbl.isVisible())
    assert "Bridn Murcada: +1 hit" in page
    assert play_until(qtbot, other, lambda w: w.document.board.get("outcome") is not None)


# ------------------------------------------------------------------ new games
class FakeEnvironsForm(QDialog):
    """Stands for the New Environs form (written elsewhere): accepts a1's environs without
    its assignment, so the players form the groups themselves."""

    def __init__(self, game, parent=None):
        super().__init__(parent)
        context = dict(game.data.scenarios["a1"]["context"])
        context.pop("assignment", None)
        self._context = context

    def exec(self):
        return QDialog.DialogCode.Accepted

    def context(self):
        return self._context


def test_new_environs_starts_the_players_own_environs(make_window, qtbot, monkeypatch):
    monkeypatch.setattr(window_module, "environs_form_available", lambda: True)
    monkeypatch.setattr(window_module, "environs_form_class", lambda: FakeEnvironsForm)
    win = make_window()
    win._update_environs_action()
    assert win.act_environs.isEnabled() and win.empty_environs.isEnabled()
    qtbot.mouseClick(win.empty_environs, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    state = win.document.state
    assert state["scenario"] == "custom" and state["options"]["context"]["size"] == 2
    assert prompt(win)["kind"] == "assign"
    # The New Game dialog's choice of scenario custom opens the same form.
    win.document.dirty = False                 # (else the window asks to save first)
    assert win.new_game("freedom", "custom", 77, {"recruit_choice": "chosen"})
    state = win.document.state
    assert state["scenario"] == "custom" and state["seed"] == 77
    assert state["options"]["recruit_choice"] == "chosen"


def test_new_environs_is_disabled_with_a_reason_while_the_form_is_missing(make_window,
                                                                         monkeypatch):
    monkeypatch.setattr(window_module, "environs_form_available", lambda: False)
    win = make_window()
    win._update_environs_action()
    assert not win.act_environs.isEnabled() and not win.empty_environs.isEnabled()
    assert win.act_environs.toolTip() == window_module.NO_FORM_TIP
    assert win.empty_environs.toolTip() == window_module.NO_FORM_TIP


def test_the_new_game_dialog_offers_the_freedom_scenarios(qtbot):
    """The scenarios are listed; each mode shows only its own options; the context option
    has no widget; custom is sent to the New Environs form instead of failing."""
    from struggle_desktop.ui.dialogs.new_game import NewGameDialog

    dialog = NewGameDialog(game_ids=["struggle", "freedom"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.game_combo.setCurrentIndex(dialog.game_combo.findData("freedom"))
    ids = [dialog.scenario_list.item(r).data(Qt.ItemDataRole.UserRole)
           for r in range(dialog.scenario_list.count())]
    assert {"a1", "a2", "a3", "a4", "a5", "random", "b1", "c1", "custom"} <= set(ids)
    assert dialog.findChild(QLabel, "option-context") is None
    assert "context" not in dialog.options()
    for sid, kind in (("a2", "mission-phase"), ("b1", "chit-mug"), ("c1", "events-deck")):
        dialog.select_scenario(sid)
        choice = dialog.validate()
        assert choice is not None, dialog.error.text()
        game = get_game("freedom")
        assert all(game.options()[k]["kind"] == kind for k in choice["options"])
        game.normalize_options(sid, choice["options"])
    dialog.select_scenario("b1")
    assert not dialog.option_box("continue_steps_when_idle").isVisible()
    assert dialog.option_box("drama").isVisible()
    dialog.select_scenario("custom")
    assert "New Environs" in dialog.description_label.text()
    choice = dialog.validate()
    assert choice is not None and choice["scenario"] == "custom"


# ------------------------------------------------------------------ the other modes
@pytest.mark.parametrize("scenario", ["b1", "c1"])
def test_the_chit_mug_and_the_events_deck_open_and_answer(make_window, qtbot, scenario):
    """Parts B and C open with their own view (or a note while it is missing) and every
    prompt can be answered from the Decision panel."""
    win = make_window()
    start(win, scenario, 1)
    kind = win.document.state["kind"]
    view = win.modes.currentWidget()
    assert view is win.mode_view(kind) and view is not win.resolution
    assert view.isVisible()
    assert win.document.seat == win.document.waiting_role
    dock = win.decision_dock
    dock.ensure_widget()
    assert dock.choices.count() == len(win.document.legal_actions()) > 0
    before = len(win.document.session.actions)
    dock.choices.setCurrentRow(0)
    qtbot.mouseClick(dock.do_button, Qt.MouseButton.LeftButton)
    assert len(win.document.session.actions) == before + 1


def test_the_events_deck_hands_the_computer_over_between_the_sides(make_window, qtbot):
    """FIG-EVT: each side's hand is secret, so a change of side covers the window until the
    other player confirms; meanwhile the board is the public one."""
    win = make_window()
    start(win, "c1", 1)
    for _ in range(60):
        if win.overlay.isVisible():
            break
        assert win.autopilot_step()
        QApplication.processEvents()
    assert win.overlay.isVisible()
    role = win.overlay.role
    assert win.document.seat == "public" and win.document.waiting_role == role
    assert not win.act_undo.isEnabled() and not win.act_hint.isEnabled()
    qtbot.mouseClick(win.overlay.button, Qt.MouseButton.LeftButton)
    assert not win.overlay.isVisible() and win.document.seat == role
    assert win.act_hint.isEnabled()


# ------------------------------------------------------------------ the picture
def test_render_draws_the_resolution_view(make_window):
    from struggle_desktop.ui.screens import renderer

    game = get_game("freedom")
    state = game.advance(game.setup("a1", 1))
    image = renderer("freedom")(game.map_layout(), game.board(state, "public"), (900, 600))
    assert (image.width(), image.height()) == (900, 600)
    colours = {image.pixel(x, y) for x in range(0, 900, 30) for y in range(0, 600, 30)}
    assert len(colours) > 3                      # something is drawn, not a blank page


def test_a_missing_rating_is_asked_and_a_group_it_rules_out_is_refused(make_window, qtbot,
                                                                        monkeypatch):
    """FIG-CTX-9: a rating a requirement rests on is asked when the groups are done; a
    group it rules out is dropped with the reason (FIG-MIS-4), and the form says so."""
    class CoupEnvirons(FakeEnvironsForm):
        def __init__(self, game, parent=None):
            super().__init__(game, parent)
            self._context["coup_rating"] = 1

    monkeypatch.setattr(window_module, "environs_form_class", lambda: CoupEnvirons)
    win = make_window()
    assert win.new_environs(seed=3)
    QApplication.processEvents()
    form = win.resolution.form
    form.select({"verb": "form", "mission": "C", "leader": "Vudot Vodot"})
    click(qtbot, win, "freedom-form-group")
    click(qtbot, win, "freedom-assign-done")
    p = prompt(win)
    assert p["kind"] == "value" and p["character"] == "Vudot Vodot"
    assert p["field"] == "intelligence"
    spins = [s for s in win.resolution.findChildren(QSpinBox, "freedom-value")
             if s.isVisible()]
    assert len(spins) == 1 and (spins[0].minimum(), spins[0].maximum()) == (0, 10)
    spins[0].setValue(1)
    click(qtbot, win, "freedom-enter")
    assert prompt(win)["kind"] == "assign"
    vudot = next(c for c in win.document.state["environs"]["characters"]
                 if c["name"] == "Vudot Vodot")
    assert vudot["intelligence"] == 1
    shown = [lbl.text() for lbl in win.resolution.form.findChildren(QLabel)
             if lbl.objectName() == "freedom-refused-earlier"]
    assert shown and "G1 (C) is refused" in shown[0] and "intelligence is 1" in shown[0]


def test_new_environs_with_the_real_form(make_window, monkeypatch):
    """The window and the New Environs form together: what the form accepts starts
    scenario custom (the form's exec is replaced by filling it with a1's environs)."""
    module = pytest.importorskip("struggle_desktop.ui.freedom.environs_form")

    def filled(form):
        context = dict(form_game.data.scenarios["a1"]["context"])
        context.pop("assignment")
        form.set_context(context)
        return QDialog.DialogCode.Accepted

    form_game = get_game("freedom")
    monkeypatch.setattr(module.EnvironsForm, "exec", filled)
    win = make_window()
    assert win.act_environs.isEnabled()
    win.act_environs.trigger()
    QApplication.processEvents()
    state = win.document.state
    assert state["scenario"] == "custom" and state["environs"]["size"] == 2
    assert prompt(win)["kind"] == "assign"


# ------------------------------------------------------------------ screenshots
def test_screenshots(make_window, qtbot, tmp_path):
    """A4 (seed 1) at 1600x1000: mid-phase at a call-off, the fight the enemy enters, the
    outcome summary; the group form of a random environs (seed 2) with a refusal. Set
    STRUGGLE_SCREENSHOTS=1 to write docs/screenshots/freedom-*.png."""
    import os
    from pathlib import Path

    folder = (Path(__file__).resolve().parents[2] / "docs" / "screenshots"
              if os.environ.get("STRUGGLE_SCREENSHOTS") == "1" else tmp_path)

    def shot(win, name):
        QApplication.processEvents()
        qtbot.wait(20)
        image = win.grab().toImage()
        assert (image.width(), image.height()) == (1600, 1000)
        assert image.save(str(folder / f"freedom-{name}.png"))

    win = make_window()
    start(win, "a4", 1)
    assert play_until(qtbot, win, lambda w: waiting("call_off")(w)
                      and w.document.state["turn"] >= 3)
    shot(win, "resolution")
    assert play_until(qtbot, win, waiting("hook", "combat"))
    shot(win, "fight")
    assert play_until(qtbot, win, lambda w: w.document.board.get("outcome") is not None)
    shot(win, "summary")
    win.document.dirty = False
    start(win, "random", 2)
    form = win.resolution.form
    form.select({"verb": "form", "mission": "D", "leader": "Boccanegra"})
    click(qtbot, win, "freedom-form-group")
    form = win.resolution.form
    form.select({"verb": "form", "mission": "D", "leader": "Prof. Mareg"})
    click(qtbot, win, "freedom-form-group")
    assert form.refusal.isVisible()
    shot(win, "groups")
