"""The Freedom New Environs form (ui/freedom/environs_form.py): environs built through its
widgets play to their end headless; groups are formed by drag and drop (or the buttons) and
say at once why the engine refuses them; scenarios a1..a5 survive a round trip; damaged input
gets the engine's message naming the field; and a screenshot of a filled form."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.catalog import load_rule_list, rule_list_path
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.freedom import GAME, environs
from struggle_desktop.ui.freedom.environs_form import EnvironsForm
from struggle_desktop.ui.freedom.pickers import set_combo_value

ROOT = Path(__file__).resolve().parents[2]
SCREENSHOT = ROOT / "docs" / "screenshots" / "freedom-form.png"


# ------------------------------------------------------------------------------ helpers
@pytest.fixture
def form(qtbot):
    dialog = EnvironsForm(GAME)
    qtbot.addWidget(dialog)
    return dialog


def choose(combo, value) -> None:
    index = combo.findData(value)
    assert index >= 0, f"{value!r} is not offered"
    combo.setCurrentIndex(index)


def pick(qtbot, form, name: str) -> None:
    """Pick a character from the bonus chart picker, as a user would: select, press Add."""
    choose(form.chart_side, GAME.data.chart_row(name).side)
    form.character_picker.select_name(name)
    qtbot.mouseClick(form.pick_button, Qt.MouseButton.LeftButton)


def drag(source, name: str, target) -> None:
    """pytest-qt's drag-and-drop recipe: QTest cannot run a real QDrag (its nested loop waits
    for a mouse that never moves), so the drag's own data (the source list's mimeData) is sent
    to the target's viewport as the enter, move and drop events a real drag would deliver."""
    source.select_name(name)
    drop_mime(source.mimeData([source.currentItem()]), target)


def drop_mime(mime, target) -> None:
    """The enter, move and drop events of a drag carrying ``mime`` over ``target``."""
    viewport = target.viewport()
    centre = viewport.rect().center()
    actions = Qt.DropAction.CopyAction | Qt.DropAction.MoveAction
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    enter = QDragEnterEvent(centre, actions, mime, buttons, keys)
    QApplication.sendEvent(viewport, enter)
    assert enter.isAccepted()
    move = QDragMoveEvent(centre + QPoint(1, 1), actions, mime, buttons, keys)
    QApplication.sendEvent(viewport, move)
    assert move.isAccepted()
    drop = QDropEvent(QPointF(centre), actions, mime, buttons, keys)
    QApplication.sendEvent(viewport, drop)
    assert drop.isAccepted()


def play_out(session: Session) -> dict:
    """Every prompt answered by the ``simple`` policy until the environs is resolved."""
    rng = Rng.from_seed(4, stream=99)
    for _ in range(500):
        outcome = GAME.outcome(session.state)
        if outcome is not None:
            return outcome
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "simple", rng))
    raise AssertionError("the Mission phase did not end")


def assert_named_report(outcome: dict) -> None:
    """The report is not empty and each line names a rule of the Freedom rule list."""
    known = {r["id"] for r in load_rule_list(rule_list_path("freedom"))["rules"]}
    assert outcome["changes"], "the outcome report is empty"
    for change in outcome["changes"]:
        assert change["rule"] in known and change["text"]


def fill_rebel_diplomacy(qtbot, form) -> None:
    """A size 4 wild environs, loyalty loyal, an Imperial unit; Vudot Vodot leads Zina Adora
    (dragged into the group) on Diplomacy; Ly Mantok stays out."""
    choose(form.phasing, "rebel")
    form.size.setValue(4)
    choose(form.env_type, "wild")
    choose(form.loyalty, "loyal")
    form.units.add_row()
    form.units.editor(0, "af").setValue(2)
    choose(form.units.editor(0, "kind"), "1st_line")
    form.races.clear()
    choose(form.race_combo, "Rhones")
    qtbot.mouseClick(form.race_add, Qt.MouseButton.LeftButton)
    for name in ("Vudot Vodot", "Zina Adora", "Ly Mantok"):
        pick(qtbot, form, name)
    form.character_flag("Zina Adora", "home_planet_here", True)
    form.character_flag("Vudot Vodot", "diplomacy", 3)
    group = form.groups[0]
    choose(group.mission, "D")
    drag(form.free_list, "Vudot Vodot", group.member_list)
    drag(form.free_list, "Zina Adora", group.member_list)
    choose(group.leader, "Vudot Vodot")
    form.tabs.setCurrentIndex(3)


# ------------------------------------------------------------------------------ the two games
def test_a_rebel_diplomacy_built_with_the_widgets_plays_to_its_end(qtbot, form):
    fill_rebel_diplomacy(qtbot, form)
    assert form.check() is None and form.ok_button.isEnabled()
    ctx = form.context()
    assert ctx["phasing_side"] == "rebel" and ctx["size"] == 4 and ctx["type"] == "wild"
    assert ctx["loyalty"] == "loyal" and ctx["races"] == ["Rhones"]
    assert ctx["units"] == [{"id": "U1", "side": "imperial", "kind": "1st_line", "af": 2}]
    assert ctx["assignment"] == [{"mission": "D", "leader": "Vudot Vodot",
                                  "members": ["Zina Adora"]}]
    zina = next(c for c in ctx["characters"] if c["name"] == "Zina Adora")
    assert zina == {"name": "Zina Adora", "side": "rebel", "home_planet_here": True}
    assert form.groups[0].status.text() == "Ready."
    assert form.free_list.names() == ["Ly Mantok"]

    session = Session.new(GAME, "custom", 11, {"context": ctx})
    outcome = play_out(session)
    assert_named_report(outcome)
    assert any(c["rule"] == "FIG-MIS-24" and "D (Diplomacy" in c["text"]
               for c in outcome["changes"])
    valid = [e["text"] for e in session.state["log"] if e["rule"] == "FIG-MIS-4"]
    assert valid == ["G1 = D (Diplomacy) with Vudot Vodot, Zina Adora: valid (no special "
                     "requirement)"]


def fill_imperial_coup(qtbot, form) -> None:
    """The keyboard/button way: an Imperial coup (rating 2, the last by the Rebel) on a
    planet in dissent; Jon Kidu selected in the list and added to a C group with Add
    selected; Thysa Kimbo stays out."""
    choose(form.phasing, "imperial")
    form.coup_rating.setValue(2)
    choose(form.last_coup, "rebel")
    choose(form.loyalty, "dissent")
    pick(qtbot, form, "Jon Kidu")
    pick(qtbot, form, "Thysa Kimbo")
    form.character_flag("Jon Kidu", "intelligence", 3)
    group = form.groups[0]
    choose(group.mission, "C")
    form.free_list.select_name("Jon Kidu")
    qtbot.mouseClick(group.add_button, Qt.MouseButton.LeftButton)
    assert group.members == ["Jon Kidu"]
    qtbot.waitUntil(lambda: group.status.text() == "Ready.")


def test_an_imperial_coup_built_with_the_buttons_plays_to_its_end(qtbot, form):
    """The keyboard/button way: select in the list, press Add selected."""
    fill_imperial_coup(qtbot, form)
    assert form.ok_button.isEnabled()
    ctx = form.context()
    assert ctx["coup_rating"] == 2 and ctx["last_coup_by"] == "rebel"
    assert ctx["assignment"] == [{"mission": "C", "leader": "Jon Kidu"}]
    assert {"name": "Jon Kidu", "side": "imperial", "intelligence": 3} in ctx["characters"]

    session = Session.new(GAME, "custom", 5, {"context": ctx})
    outcome = play_out(session)
    assert_named_report(outcome)
    assert any("C (Coup" in c["text"] for c in outcome["changes"])


# ------------------------------------------------------------------------------ groups
def test_a_refused_group_says_why_in_words_and_blocks_ok(qtbot, form):
    pick(qtbot, form, "Vudot Vodot")
    group = form.groups[0]
    choose(group.mission, "C")                  # no coup rating here
    drag(form.free_list, "Vudot Vodot", group.member_list)
    qtbot.waitUntil(lambda: group.status.text().startswith("Refused"))
    assert group.status.text() == "Refused: the environs has no coup rating."
    assert not form.ok_button.isEnabled()
    # The whole document's refusal names the group in words, not by a field path.
    assert "group 1 (C (Coup), led by Vudot Vodot) is refused" in form.message
    assert "no coup rating" in form.message and "assignment/" not in form.message
    assert form.error.isVisibleTo(form) and form.error.text() == form.message
    form.coup_rating.setValue(1)               # the engine changes its mind
    qtbot.waitUntil(lambda: group.status.text().startswith("Ready"))
    # The coup's leader needs an intelligence the form has not been given: the game asks.
    assert group.status.text() == "Ready; the game will ask for Vudot Vodot's intelligence."
    assert form.ok_button.isEnabled() and form.message is None


def test_a_second_group_with_the_same_mission_and_a_dash_leader_are_refused(qtbot, form):
    for name in ("Vudot Vodot", "Zina Adora", "Oneste Woada"):
        pick(qtbot, form, name)
    first = form.groups[0]
    drag(form.free_list, "Vudot Vodot", first.member_list)
    qtbot.mouseClick(form.add_group_button, Qt.MouseButton.LeftButton)
    second = form.groups[1]
    # Add group starts on a mission no group has (it began on group 1's D, refused at once).
    assert second.letter != first.letter == "D"
    drag(form.free_list, "Zina Adora", second.member_list)
    form.check()
    assert second.status.text() == "Ready."
    # Chosen by hand, the same mission is refused, and the form says why.
    set_combo_value(second.mission, "D")
    form.check()
    assert first.status.text() == "Ready."
    assert second.status.text() == "Refused: another group already has mission D here."
    third = form.add_group({"mission": "A"})
    drag(form.free_list, "Oneste Woada", third.member_list)
    form.check()
    assert third.status.text().startswith("Refused: Oneste Woada cannot lead mission A")


def test_a_character_dragged_from_the_bonus_chart_is_entered_in_the_environs(qtbot, form):
    """The chart's row dropped on "In this environs" enters the character (the drop did
    nothing); a second drop of him, or a variant row, is refused with the reason shown."""
    choose(form.chart_side, "rebel")
    drag(form.character_picker, "Vudot Vodot", form.character_list)
    assert form.character("Vudot Vodot") is not None
    assert form.character_list.names() == ["Vudot Vodot"]
    assert form.drop_note.isHidden()
    drag(form.character_picker, "Vudot Vodot", form.character_list)
    assert [c["name"] for c in form._characters] == ["Vudot Vodot"]
    assert not form.drop_note.isHidden()
    assert "already in this environs" in form.drop_note.text()
    picker = form.character_picker
    variant = next(name for name, row in picker.rows().items() if row.variant_of is not None)
    row = list(picker.rows()).index(variant)
    drop_mime(picker.mimeData([picker.item(row, 0)]), form.character_list)
    assert form.character(variant) is None
    assert "variant row" in form.drop_note.text()


def test_add_group_starts_on_a_free_mission_or_says_why_not(qtbot, form):
    """Each added group starts on a mission no other group has (FIG-MIS-4); once every
    mission of the side has a group, Add group adds none and says why."""
    qtbot.mouseClick(form.add_group_button, Qt.MouseButton.LeftButton)
    for _ in range(40):
        before = len(form.groups)
        qtbot.mouseClick(form.add_group_button, Qt.MouseButton.LeftButton)
        if len(form.groups) == before:
            break
    letters = [g.letter for g in form.groups]
    assert len(letters) == len(set(letters)) > 2
    assert form.free_missions() == []
    assert not form.group_note.isHidden()
    assert "every mission" in form.group_note.text()


def test_dragging_moves_between_groups_and_back_out(qtbot, form):
    pick(qtbot, form, "Vudot Vodot")
    pick(qtbot, form, "Zina Adora")
    first = form.groups[0]
    second = form.add_group()
    drag(form.free_list, "Vudot Vodot", first.member_list)
    drag(form.free_list, "Zina Adora", first.member_list)
    assert first.members == ["Vudot Vodot", "Zina Adora"] and form.free_list.names() == []
    drag(first.member_list, "Zina Adora", second.member_list)
    assert first.members == ["Vudot Vodot"] and second.members == ["Zina Adora"]
    drag(second.member_list, "Zina Adora", form.free_list)
    assert second.members == [] and form.free_list.names() == ["Zina Adora"]
    first.member_list.select_name("Vudot Vodot")
    qtbot.keyClick(first.member_list, Qt.Key.Key_Delete)
    assert first.members == [] and set(form.free_list.names()) == {"Vudot Vodot", "Zina Adora"}
    # Empty groups are left to the game's assignment prompt.
    assert "assignment" not in form.context() and form.check() is None
    session = Session.new(GAME, "custom", 1, {"context": form.context()})
    assert session.state["pending"]["kind"] == "assign"


def test_targets_and_ships_are_the_engines_choices(qtbot, form):
    form.set_context(GAME.data.scenarios["a4"]["context"])
    sabotage = form.groups[1]
    offered = [sabotage.target.itemData(i) for i in range(sabotage.target.count())]
    assert offered == ["", "pdb", "U1"]
    assert sabotage.target.currentData() == "pdb" and sabotage.torture.isHidden()
    form.set_context(GAME.data.scenarios["a5"]["context"])
    quest = form.groups[0]
    assert quest.ship.currentData() == "Solar Merchant" and not quest.ship.isHidden()
    assert quest.torture.isHidden()


def test_a_sovereign_goes_along_and_a_camp_performs_alone(qtbot, form):
    """An NPC sovereign is entered under Forces, added to the characters and dragged into a
    group like a character; a camp performs its mission alone; an empty group is left out."""
    form.sovereigns.add_row({"name": "Duke Ormal", "alignment": "pro_rebel"})
    pick(qtbot, form, "Vudot Vodot")
    choose(form.sovereign_choice, "Duke Ormal")
    qtbot.mouseClick(form.add_sovereign_button, Qt.MouseButton.LeftButton)
    diplomacy = form.groups[0]
    drag(form.free_list, "Vudot Vodot", diplomacy.member_list)
    drag(form.free_list, "Duke Ormal", diplomacy.member_list)
    summon = form.add_group({"mission": "E"})
    form.cells.add_row({"id": "Camp 1", "kind": "camp"})
    info = form.add_group({"mission": "I"})
    choose(info.performer, "Camp 1")
    assert form.check() is None                 # the empty group is left out
    assert diplomacy.status.text() == "Ready."
    assert diplomacy.member_list.item(1).text() == "Duke Ormal — sovereign"
    assert info.status.text() == "Ready."
    assert summon.status.text().startswith("Empty")
    form.remove_group(summon)
    assert form.check() is None
    ctx = form.context()
    assert {"name": "Duke Ormal", "side": "rebel", "npc_sovereign": True} in ctx["characters"]
    assert ctx["assignment"] == [
        {"mission": "D", "leader": "Vudot Vodot", "members": ["Duke Ormal"]},
        {"mission": "I", "performer": "Camp 1"}]
    outcome = play_out(Session.new(GAME, "custom", 3, {"context": ctx}))
    assert_named_report(outcome)


def test_a_summoning_names_its_sovereign_and_is_refused_in_words(qtbot, form):
    form.sovereigns.add_row({"name": "Duke Ormal", "alignment": "pro_rebel"})
    pick(qtbot, form, "Vudot Vodot")
    group = form.groups[0]
    choose(group.mission, "E")
    drag(form.free_list, "Vudot Vodot", group.member_list)
    form.check()
    assert group.target.currentData() == "Duke Ormal"     # the only sovereign to summon
    assert group.status.text() == ("Refused: at least 2 planets of the Empire must be in "
                                   "rebellion (now 0).")
    form.in_rebellion.setValue(2)
    qtbot.waitUntil(lambda: group.status.text() == "Ready.")
    assert form.context()["assignment"] == [{"mission": "E", "leader": "Vudot Vodot",
                                             "target": "Duke Ormal"}]


# ------------------------------------------------------------------------------ pickers
def test_the_pickers_show_each_sides_chart_values(qtbot, form):
    picker = form.character_picker
    choose(form.chart_side, "rebel")
    headers = [picker.horizontalHeaderItem(k).text() for k in range(picker.columnCount())]
    assert headers == ["Name", "A", "B", "C", "D", "E", "F", "H", "I", "J", "P", "Q", "S", "T"]
    picker.select_name("Vudot Vodot")
    row = picker.currentRow()
    values = {headers[k]: picker.item(row, k).text() for k in range(1, len(headers))}
    assert values["E"] == "8 (2)" and values["D"] == "4" and values["J"] == "–"
    choose(form.chart_side, "imperial")
    headers = [picker.horizontalHeaderItem(k).text() for k in range(picker.columnCount())]
    assert "B" not in headers and "T" not in headers
    names = {picker.item(r, 0).text() for r in range(picker.rowCount())}
    assert "Barca" in names and "Vudot Vodot" not in names
    ships = {form.ship_picker.item(r, 0).text() for r in range(form.ship_picker.rowCount())}
    assert ships == {"Imperial", "Redjac's"}
    possessions = form.possession_picker
    possessions.select_name("Helian Drug")
    cols = [possessions.horizontalHeaderItem(k).text() for k in range(possessions.columnCount())]
    assert possessions.item(possessions.currentRow(), cols.index("E")).text() == "2 (1)"


def test_picked_characters_get_flags_ratings_possessions_and_ships(qtbot, form):
    pick(qtbot, form, "Ly Mantok")
    pick(qtbot, form, "Drakir Grebb")
    form.select_character("Ly Mantok")
    form.possession_picker.select_name("PAM Bomb")
    qtbot.mouseClick(form.give_button, Qt.MouseButton.LeftButton)
    form.character_flag("Drakir Grebb", "variant", True)
    form.character_flag("Drakir Grebb", "navigation", 2)
    form.character_flag("Drakir Grebb", "detected", True)
    choose(form.chart_side, "rebel")
    form.ship_picker.select_name("Explorer")
    qtbot.mouseClick(form.ship_button, Qt.MouseButton.LeftButton)
    form.ships.editor(0, "damaged").setChecked(True)
    ctx = form.context()
    assert ctx["characters"] == [
        {"name": "Ly Mantok", "side": "rebel", "possessions": ["PAM Bomb"]},
        {"name": "Drakir Grebb", "side": "rebel", "detected": True, "variant": True,
         "navigation": 2}]
    assert ctx["spaceships"] == [{"name": "Explorer", "side": "rebel", "damaged": True}]
    assert form.check() is None
    env = environs.normalize(ctx, GAME.data)
    # The defaults the form leaves to the engine: the pools hold what is not in play here.
    assert "Ly Mantok" not in env["unrecruited"]["rebel"]
    assert "PAM Bomb" not in env["possession_pool"] and "Explorer" not in env["possession_pool"]
    assert not form.character_picker.item(form.character_picker.currentRow(), 0).flags() \
        & Qt.ItemFlag.ItemIsEnabled or form.character_picker.current_name() is None


def test_pools_default_as_the_rules_say_or_hold_the_ticked_names(qtbot, form):
    pick(qtbot, form, "Kogus")
    assert "unrecruited" not in form.context()
    pool = form.pools["rebel"]
    pool.default_box.setChecked(False)
    ticked = pool.value()
    assert "Kogus" not in ticked and len(ticked) == len(GAME.data.recruitable("rebel")) - 1
    for i in range(pool.list.count()):
        item = pool.list.item(i)
        if item.data(Qt.ItemDataRole.UserRole) != "Tourag":
            item.setCheckState(Qt.CheckState.Unchecked)
    assert form.context()["unrecruited"] == {"rebel": ["Tourag"]}
    assert form.check() is None


# ------------------------------------------------------------------------------ round trip
@pytest.mark.parametrize("sid", ["a1", "a2", "a3", "a4", "a5"])
def test_each_acceptance_scenario_survives_the_form(qtbot, form, sid):
    """set_context(a_i) then context() sets up the same game as scenario a_i."""
    raw = GAME.data.scenarios[sid]["context"]
    form.set_context(raw)
    assert form.message is None
    ctx = form.context()
    assert environs.normalize(ctx, GAME.data) == environs.normalize(raw, GAME.data)
    assert ctx.get("assignment") == raw.get("assignment")
    mine = Session.new(GAME, "custom", 21, {"context": ctx})
    theirs = Session.new(GAME, sid, 21, {})
    assert GAME.outcome(mine.state) == GAME.outcome(theirs.state)
    assert play_out(mine) == play_out(theirs)
    assert mine.state["environs"] == theirs.state["environs"]


# ------------------------------------------------------------------------------ damaged input
def test_a_value_out_of_range_gets_the_engines_message_naming_the_field(qtbot, form):
    form.units.add_row()
    form.units.editor(0, "af").setValue(120)
    qtbot.waitUntil(lambda: not form.ok_button.isEnabled())
    assert form.message == "option context: units/0/af: 120 is greater than the maximum of 99"
    assert form.error.text() == form.message
    form.units.editor(0, "af").setValue(3)
    qtbot.waitUntil(form.ok_button.isEnabled)


@pytest.mark.parametrize("change, field", [
    ({"size": 12}, "size: 12 is greater than the maximum of 9"),
    ({"races": ["Rhones", "Thoks", "Borks"]}, "races: at most two races"),
    ({"units": [{"id": "U1", "side": "imperial", "kind": "dragoon", "af": 1}]},
     "units/0/kind"),
    ({"characters": [{"name": "Nobody", "side": "rebel"}]}, "characters/0/name"),
    ({"location": "orbit", "planet_state": None}, "group 1 (D (Diplomacy), led by"),
])
def test_a_damaged_context_loses_nothing_and_is_refused_naming_the_field(qtbot, form, change,
                                                                         field):
    raw = {**GAME.data.scenarios["a1"]["context"], **change}
    raw = {k: v for k, v in raw.items() if v is not None}
    form.set_context(raw)
    assert form.message is not None and field in form.message
    assert not form.ok_button.isEnabled()
    for key in change:
        if change[key] is not None and key != "location":
            assert form.context()[key] == change[key]


def test_accept_is_refused_while_the_engine_refuses(qtbot, form):
    form.set_context({**GAME.data.scenarios["a1"]["context"], "size": 12})
    form.accept()
    assert form.result() == 0 and form.isVisible() is False
    form.set_context(GAME.data.scenarios["a1"]["context"])
    form.accept()
    assert form.result() == 1


# ------------------------------------------------------------------------------ screenshot
def test_screenshot_of_a_rebel_diplomacy(qtbot, form, tmp_path):
    """The form filled for a Rebel Diplomacy, grabbed at 1200x900. Set STRUGGLE_SCREENSHOTS=1
    to write docs/screenshots/freedom-form*.png."""
    fill_rebel_diplomacy(qtbot, form)
    subvert = form.add_group({"mission": "T"})
    drag(form.free_list, "Ly Mantok", subvert.member_list)
    pick(qtbot, form, "Odene Hobar")       # left out of the groups: stays in the list
    form.sovereigns.add_row({"name": "Duke Ormal", "alignment": "pro_rebel",
                             "resource_rating": 3})
    form.resize(1200, 900)
    form.show()
    qtbot.waitExposed(form)
    assert form.check() is None and subvert.target.currentData() == "U1"
    assert subvert.status.text() == "Ready."
    write = os.environ.get("STRUGGLE_SCREENSHOTS") == "1"
    for index, suffix in ((3, ""), (2, "-characters"), (0, "-environs"), (1, "-forces"),
                          (4, "-pools")):
        form.tabs.setCurrentIndex(index)
        if index == 2:
            form.select_character("Vudot Vodot")
            form.character_picker.select_name("Vudot Vodot")
        qtbot.wait(20)
        image = form.grab().toImage()
        assert image.width() >= 1100 and image.height() >= 850
        out = (SCREENSHOT.with_name(f"freedom-form{suffix}.png") if write
               else tmp_path / f"freedom-form{suffix}.png")
        assert image.save(str(out))


# ------------------------------------------------------------------------------ a laptop screen
#: An offscreen screen of the commonest laptop size (the test runs the form in a process of its
#: own: the screen is fixed when Qt starts).
LAPTOP_SCREEN = {"screens": [{"name": "laptop", "x": 0, "y": 0, "width": 1366, "height": 768,
                              "logicalDpi": 96, "logicalBaseDpi": 96, "dpr": 1}]}
FORM_ON_THE_SCREEN = r"""
import json
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QDialogButtonBox
app = QApplication([])
from struggle_desktop.games.freedom import GAME
from struggle_desktop.ui.fit import available_geometry, fits
from struggle_desktop.ui.freedom.environs_form import EnvironsForm
from struggle_desktop.ui.freedom.pickers import RecordTable
form = EnvironsForm(GAME)
form.show()
app.processEvents()
room = available_geometry(form)
buttons = [form.ok_button, form.buttons.button(QDialogButtonBox.StandardButton.Cancel)]
out = {"fits": fits(form), "screen": [room.width(), room.height()],
       "buttons": {b.text(): room.contains(QRect(b.mapToGlobal(QPoint(0, 0)), b.size()))
                   and b.isVisible() for b in buttons},
       "rows": {}}
for k in range(form.tabs.count()):
    form.tabs.setCurrentIndex(k)
    app.processEvents()
    for table in form.tabs.currentWidget().findChildren(RecordTable):
        if table.isVisible():
            view = table.table
            row = view.verticalHeader().defaultSectionSize()
            out["rows"][table.noun] = view.viewport().height() / row
print(json.dumps(out))
"""


def test_the_form_fits_a_laptop_screen_with_its_buttons_and_several_rows(tmp_path):
    """On a 1366x768 screen the dialog takes its size from the screen (it once opened at
    1200x900, Start and Cancel below the edge): it lies on the screen, both buttons are
    inside it, and every record table (units, sovereigns, cells, atrocity units, ships)
    has room for at least four rows; a page taller than that scrolls."""
    import json
    import subprocess
    import sys

    screen = tmp_path / "laptop.json"
    screen.write_text(json.dumps(LAPTOP_SCREEN))
    env = {**os.environ, "QT_QPA_PLATFORM": f"offscreen:configfile={screen}"}
    run = subprocess.run([sys.executable, "-c", FORM_ON_THE_SCREEN], cwd=ROOT, env=env,
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(run.stdout.strip().splitlines()[-1])
    assert result["screen"] == [1366, 768]
    assert result["fits"]
    assert result["buttons"] == {"&Start": True, "Cancel": True}
    assert set(result["rows"]) == {"unit", "sovereign", "cell", "atrocity unit", "spaceship"}
    for noun, rows in result["rows"].items():
        assert rows >= 4, f"the {noun} table shows {rows:.1f} rows"


@pytest.mark.parametrize("payload", [b"[" * 100_000, b'{"name": 1}', b"\xff\xfe", b"[]",
                                     b'{"name": "' + b"x" * 100_000 + b'", "origin": "free"}'])
def test_a_foreign_drop_of_the_character_type_is_ignored(payload):
    """Another program may drop data of the character type: whatever it holds, the drop is
    ignored (deep nesting once ended in a RecursionError)."""
    from PySide6.QtCore import QMimeData

    from struggle_desktop.ui.freedom.pickers import (CHARACTER_MIME, character_mime,
                                                     read_character_mime)

    mime = QMimeData()
    mime.setData(CHARACTER_MIME, payload)
    assert read_character_mime(mime) is None
    assert read_character_mime(character_mime("Zina", "free")) == ("Zina", "free")
