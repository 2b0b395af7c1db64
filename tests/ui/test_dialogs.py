"""The dialogs: new game, combat odds, recruitment, house rules, About (pytest-qt).

Every dialog is shown with ``show()`` and driven through its widgets; the one modal path
(``choose_new_game`` / ``ask_attack``) is closed by a timer that presses the button a player
would press.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QComboBox, QApplication, QDialog

from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games.struggle.data import without_documented
from struggle_desktop.ui.dialogs import (AboutDialog, CombatDialog, HouseRulesDialog,
                                         NewGameDialog, RecruitDialog, RecruitPanel, ask_attack,
                                         choose_new_game, combat_summary, show_result)
from struggle_desktop.ui.dialogs.combat import percent
from struggle_desktop.ui.dialogs.house_rules import house_rules_html
from struggle_desktop.ui.dialogs.new_game import band_ranges, parse_seed
from struggle_desktop.ui.document import GameDocument

DIALOG_SOURCES = Path(__file__).resolve().parents[2] / "struggle_desktop" / "ui" / "dialogs"


# ------------------------------------------------------------------------------ helpers
def play_until(document: GameDocument, wanted, limit: int = 400) -> None:
    """Let the program's own player answer until ``wanted(document)`` holds."""
    for _ in range(limit):
        if wanted(document):
            return
        action = document.hint()
        assert action is not None, "the game ended before the wanted prompt"
        assert document.perform(action).ok
    raise AssertionError("the wanted prompt was not reached")


def attacks(document: GameDocument) -> list[dict]:
    return [a for a in document.legal_actions() if a["verb"] == "attack"]


def at_combat(document: GameDocument) -> bool:
    return document.board["prompt"]["kind"] == "combat" and bool(attacks(document))


def at_recruitment(document: GameDocument) -> bool:
    return document.board["prompt"]["kind"] == "recruitment"


def new_document(seed: int = 3, scenario: str = "4") -> GameDocument:
    document = GameDocument(autosave=False)
    document.new_game("struggle", scenario, seed, {})
    return document


@pytest.fixture(scope="module")
def combat_document(game):
    """Scenario 4, seed 3, played by the bot up to an Imperial combat prompt."""
    document = new_document()
    play_until(document, at_combat)
    return document


@pytest.fixture
def recruit_document(game, qapp):
    document = new_document()
    play_until(document, at_recruitment)
    return document


def click_later(find_button) -> None:
    """Press a button of the modal dialog that is about to open."""
    def press():
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, press)   # not shown yet: look again
            return
        find_button(dialog).click()
    QTimer.singleShot(0, press)


# ------------------------------------------------------------------------------ new game
def test_new_game_opens_on_scenario_3_with_a_random_seed_and_its_bands(qtbot, game):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.scenario_id() == "3"
    assert dialog.seed() == int(dialog.seed_edit.text())
    assert "5 turns" in dialog.length_label.text()
    # The victory bands of scenario 3 as the game sets them up, with the range of each level.
    bands = game.setup("3", 1)["victory"]
    for level, vp in band_ranges(bands):
        assert level.capitalize() in dialog.victory_label.text()
        assert vp in dialog.victory_label.text()
    assert band_ranges({"collapse": 20, "decline": 25, "survival": 30, "expanding": 35}) == [
        ("collapse", "20 or less"), ("decline", "21–25"), ("survival", "26–30"),
        ("expanding", "31–35"), ("galactic", "36 or more")]


def test_new_game_locks_the_rules_a_scenario_requires(qtbot, game):
    scenarios = {s["id"]: s for s in game.scenarios()}
    required = set(scenarios["5"]["required_options"])
    assert required, "scenario 5 should require optional rules"
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.select_scenario("5")
    for key in ("imperial_order", "trans_humans", "nexus", "illumination", "stargates",
                "increased_resources", "expeditions"):
        box = dialog.option_box(key)
        if key in required:
            assert box.isChecked() and not box.isEnabled()
            assert "scenario 5" in box.toolTip()
        else:
            assert box.isEnabled() and not box.isChecked()
    # A scenario without requirements frees them again (and does not leave them on).
    assert not scenarios["2"]["required_options"]
    dialog.select_scenario("2")
    assert all(dialog.option_box(k).isEnabled() and not dialog.option_box(k).isChecked()
               for k in required)
    dialog.option_box("stargates").setChecked(True)
    dialog.set_seed(77)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted
    choice = dialog.choice()
    assert choice["scenario"] == "2" and choice["options"]["stargates"] is True
    assert choice["options"]["trans_humans"] is False


def test_sweep_of_empire_offers_a_base_scenario_and_locks_its_rules(qtbot, game):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.select_scenario("7")
    assert dialog.sweep_box.isVisible()
    assert "no limit" in dialog.length_label.text()
    dialog.base_combo.setCurrentIndex(dialog.base_combo.findData("6"))
    base_required = set(next(s for s in game.scenarios() if s["id"] == "6")["required_options"])
    locked = {k for k in dialog._option_boxes if not dialog.option_box(k).isEnabled()}
    assert locked == base_required
    dialog.max_turns_spin.setValue(12)
    dialog.set_seed("5")
    dialog._start()
    choice = dialog.choice()
    assert choice["options"]["base"] == "6" and choice["options"]["max_turns"] == 12
    # What the dialog returns is what the game accepts.
    toggles, base, sweep, max_turns = game.normalize_options("7", choice["options"])
    assert sweep and base["id"] == "6" and max_turns == 12
    assert all(toggles[k] for k in base_required)


def test_new_game_returns_the_edited_seed(qtbot):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.seed_edit.clear()
    qtbot.keyClicks(dialog.seed_edit, "424242")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted
    choice = dialog.choice()
    assert choice["kind"] == "new" and choice["game"] == "struggle"
    assert choice["scenario"] == "3" and choice["seed"] == 424242
    assert choice["options"]["imperial_order"] is True   # scenario 3 requires it


def test_new_game_by_keyboard_alone(qtbot):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.keyClick(dialog.scenario_list, Qt.Key.Key_Down)          # 3 -> 4
    assert dialog.scenario_id() == "4"
    # Tab goes from the scenario list through the free option boxes to the seed.
    chain, widget = [], dialog.scenario_list
    for _ in range(300):
        widget = widget.nextInFocusChain()
        if widget.isEnabled() and widget.isVisibleTo(dialog) and \
                widget.focusPolicy() & Qt.FocusPolicy.TabFocus:
            chain.append(widget)
        if widget is dialog.seed_edit:
            break
    free = [b for b in dialog._option_boxes.values() if b.isEnabled()]
    assert chain == [*free, dialog.seed_edit]
    dialog.seed_edit.setFocus()
    dialog.seed_edit.selectAll()
    qtbot.keyClicks(dialog.seed_edit, "31337")
    qtbot.keyClick(dialog.seed_edit, Qt.Key.Key_Return)           # the default button
    assert dialog.choice()["scenario"] == "4" and dialog.choice()["seed"] == 31337


@pytest.mark.parametrize("text", ["12ab", "-4", "", "1.5"])
def test_new_game_rejects_a_bad_seed_with_a_message(qtbot, text):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.seed_edit.setText(text)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.choice() is None
    assert dialog.error.isVisible() and "seed" in dialog.error.text().lower()
    with pytest.raises(ValueError):
        parse_seed(text)
    # Fixed, it goes through and the message is gone.
    dialog.seed_edit.setText("9")
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.choice()["seed"] == 9 and not dialog.error.isVisible()


def test_new_seed_button_writes_a_fresh_seed(qtbot):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.seed_edit.setText("not a seed")
    qtbot.mouseClick(dialog.new_seed_button, Qt.MouseButton.LeftButton)
    assert dialog.seed_edit.text().isdigit()
    assert 0 <= dialog.seed() < 10**9


def test_new_game_shows_the_games_message_for_a_bad_choice(qtbot, monkeypatch):
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()

    def refuse(scenario, options):
        raise BadOption("scenario 3 requires the optional rule nexus")
    monkeypatch.setattr(dialog._game, "normalize_options", refuse)
    qtbot.mouseClick(dialog.start_button, Qt.MouseButton.LeftButton)
    assert dialog.isVisible() and dialog.choice() is None
    assert dialog.error.text() == "scenario 3 requires the optional rule nexus"


def test_new_game_opens_a_recent_file(qtbot, tmp_path):
    saved = tmp_path / "empire.sgsave"
    saved.write_text("{}")
    gone = tmp_path / "gone.sgsave"
    dialog = NewGameDialog(recent=[gone, saved])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.select_recent(gone)
    assert not dialog.open_button.isEnabled()        # a missing file cannot be opened
    dialog.select_recent(saved)
    assert dialog.open_button.isEnabled()
    qtbot.mouseClick(dialog.open_button, Qt.MouseButton.LeftButton)
    assert dialog.choice() == {"kind": "open", "path": saved}


def test_games_not_yet_playable_are_listed_but_disabled(qtbot, monkeypatch):
    """A game this build does not have (Freedom, taken out of the registry and the screens)
    is listed greyed out, "coming later"."""
    from struggle_desktop import games
    from struggle_desktop.ui import screens

    monkeypatch.delitem(games.REGISTRY, "freedom")
    monkeypatch.setattr(screens, "DESKTOP_GAMES", ("struggle", "battles", "nobles"))
    dialog = NewGameDialog(game_ids=["struggle", "battles", "freedom"])
    qtbot.addWidget(dialog)
    model = dialog.game_combo.model()
    states = {dialog.game_combo.itemData(i): model.item(i).isEnabled()
              for i in range(dialog.game_combo.count())}
    assert states == {"struggle": True, "battles": True, "freedom": False}
    assert "coming later" in dialog.game_combo.itemText(2)


def test_a_game_without_a_window_says_to_use_the_command_line(qtbot, monkeypatch):
    """A game that plays headless but has no window (here Freedom, its screen taken away):
    choosing it in the dialog explains where to play it, offers no scenario and cannot be
    started; choosing another game again works."""
    from struggle_desktop.ui import screens

    monkeypatch.setattr(screens, "DESKTOP_GAMES", ("struggle", "battles", "nobles"))
    dialog = NewGameDialog(game_ids=["struggle", "freedom"])
    qtbot.addWidget(dialog)
    dialog.show()
    index = dialog.game_combo.findData("freedom")
    assert dialog.game_combo.model().item(index).isEnabled()
    assert "command line only" in dialog.game_combo.itemText(index)
    dialog.game_combo.setCurrentIndex(index)
    message = dialog.error.text()
    assert "no window for Freedom in the Galaxy missions yet" in message
    assert "use the command line" in message and "--game freedom" in message
    assert dialog.error.isVisible() and not dialog.start_button.isEnabled()
    assert dialog.scenario_list.count() == 0
    assert dialog.validate() is None
    assert dialog.choice() is None
    dialog.game_combo.setCurrentIndex(dialog.game_combo.findData("struggle"))
    assert dialog.start_button.isEnabled() and not dialog.error.isVisible()
    assert dialog.scenario_list.count() > 0


def test_battles_offers_who_plays_each_colour_and_the_invader_only_for_invasion(qtbot):
    """BFG-HID-1: each colour is a person or the program; the choice goes into the options
    (and so into the save). Who invades is asked only in the invasion scenario."""
    dialog = NewGameDialog(game_ids=["struggle", "battles"])
    qtbot.addWidget(dialog)
    dialog.game_combo.setCurrentIndex(dialog.game_combo.findData("battles"))
    dialog.select_scenario("civil-war")
    red = dialog.findChild(QComboBox, "option-red_player")
    red.setCurrentIndex(red.findData("human"))
    choice = dialog.validate()
    assert choice["game"] == "battles" and choice["scenario"] == "civil-war"
    assert choice["options"]["blue_player"] == "human" and choice["options"]["red_player"] == "human"
    assert "invader" not in choice["options"]
    assert not dialog.findChild(QComboBox, "option-invader").isEnabled()
    dialog.select_scenario("invasion")
    assert dialog.findChild(QComboBox, "option-invader").isEnabled()
    assert dialog.validate()["options"]["invader"] == "red"


def test_choose_new_game_returns_the_choice_or_none(qtbot):
    click_later(lambda d: d.start_button)
    choice = choose_new_game(None, [])
    assert choice is not None and choice["kind"] == "new" and choice["scenario"] == "3"
    click_later(lambda d: d.cancel_button)
    assert choose_new_game(None, []) is None


# ------------------------------------------------------------------------------ combat
def test_combat_dialog_shows_every_result_with_its_exact_chance(qtbot, combat_document):
    document = combat_document
    for action in attacks(document):
        preview = document.preview(action)
        dialog = CombatDialog(preview, board=document.board)
        qtbot.addWidget(dialog)
        assert set(dialog.rows) == set(preview["results"])
        for code, row in dialog.rows.items():
            assert row.probability == preview["results"][code]
            assert row.percent_label.text() == percent(preview["results"][code])
        shown = sum(float(r.percent_label.text().split()[0]) for r in dialog.rows.values())
        assert shown == pytest.approx(100.0)
        assert f"{preview['attack']}" == dialog.attack_box.number_label.text()
        assert f"{preview['defence']}" == dialog.defence_box.number_label.text()


def test_combat_dialog_explains_results_and_names_the_units_they_strike(qtbot, combat_document):
    document = combat_document
    seen_struck = False
    for action in attacks(document):
        preview = document.preview(action)
        dialog = CombatDialog(preview, board=document.board, column_bands=["a", "b", "c", "d",
                                                                            "e", "f"])
        qtbot.addWidget(dialog)
        assert f"column (differential {'abcdef'[preview['column']]})" in \
            dialog.column_label.text()
        for code, units in preview["affected"].items():
            row = dialog.rows[code]
            size = code[1:]
            assert f"{size} or less" in row.words_label.text()
            assert ("Defender" if code[0] == "D" else "Attacker") in row.words_label.text()
            for unit in units:
                seen_struck = True
                name = unit if not unit.startswith("system:") else "System unit"
                assert name in row.struck_label.text()
            if not units:
                assert "nothing" in row.struck_label.text()
        for name, value in preview["modifiers"]:
            assert f"{name} {value:+d}" in dialog.modifiers_label.text()
        if "-" in dialog.rows:
            assert "No effect" in dialog.rows["-"].words_label.text()
    assert seen_struck, "no attack here strikes any unit"


def test_ask_attack_is_true_only_when_the_player_rolls(qtbot, combat_document):
    action = attacks(combat_document)[0]
    click_later(lambda d: d.roll_button)
    assert ask_attack(None, combat_document, action) is True
    click_later(lambda d: d.cancel_button)
    assert ask_attack(None, combat_document, action) is False


def test_show_result_summarises_the_resolved_attack(qtbot, game):
    document = new_document()
    play_until(document, at_combat)
    action = attacks(document)[0]
    result = document.perform(action)
    assert result.ok
    text = combat_summary(result.new_entries)
    rolls = [e for e in result.new_entries if e["kind"] == "roll"]
    assert rolls and rolls[0]["text"] in text
    assert re.search(r"Combat result in \d+", text)
    box = show_result(None, result.new_entries)
    assert box is not None and box.isVisible()
    box.close()
    assert show_result(None, [{"kind": "move", "text": "x", "rule": "R"}]) is None


# ------------------------------------------------------------------------------ recruitment
def legal_purchases(document: GameDocument) -> dict[tuple, set]:
    out: dict[tuple, set] = {}
    for action in document.legal_actions():
        if action["verb"] in ("buy_unit", "buy_marker"):
            key = (action["verb"], action.get("type") or action.get("marker"))
            out.setdefault(key, set())
            if "at" in action:
                out[key].add(action["at"])
    return out


def pieces_of(board: dict, sector: int, type_: str) -> list[str]:
    return [pid for pid in board["sectors"][sector]["pieces"]
            if board["pieces"][pid]["type"] == type_]


def test_recruit_panel_offers_only_legal_sectors(qtbot, recruit_document):
    document = recruit_document
    panel = RecruitPanel(document)
    qtbot.addWidget(panel)
    legal = legal_purchases(document)
    assert legal
    for (verb, what), sectors in legal.items():
        assert panel.select(verb, what)
        assert set(panel.offered_sectors()) == sectors
    # A sector the game refuses is not offered.
    panel.select("buy_unit", "SF")
    refused = next(n for n in document.board["sectors"]
                   if n not in legal[("buy_unit", "SF")])
    assert document.check({"verb": "buy_unit", "type": "SF", "at": refused}) is not None
    assert not panel.select("buy_unit", "SF", refused)
    # Types the game does not offer now are listed but cannot be chosen.
    offered_types = {what for verb, what in legal if verb == "buy_unit"}
    for key, purchase in panel.purchases.items():
        assert purchase.available == (key in legal)
        if key[0] == "buy_unit" and key[1] not in offered_types:
            assert not panel.select(*key) and purchase.reason


def test_recruit_buy_performs_exactly_the_chosen_purchase(qtbot, recruit_document):
    document = recruit_document
    panel = RecruitPanel(document)
    qtbot.addWidget(panel)
    panel.show()
    sectors = sorted(legal_purchases(document)[("buy_unit", "WS")])
    target = sectors[len(sectors) // 2]
    assert panel.select("buy_unit", "WS", target)
    cost = panel.purchases[("buy_unit", "WS")].cost
    assert f"for {cost} RP" in document.describe({"verb": "buy_unit", "type": "WS", "at": target})
    rp = document.board["rp"]
    before = pieces_of(document.board, target, "WS")
    with qtbot.waitSignal(panel.performed) as performed:
        qtbot.mouseClick(panel.buy_button, Qt.MouseButton.LeftButton)
    assert performed.args[0] == {"verb": "buy_unit", "type": "WS", "at": target}
    assert document.board["rp"] == rp - cost
    assert len(pieces_of(document.board, target, "WS")) == len(before) + 1
    assert document.session.actions[-1]["action"] == performed.args[0]
    # The panel stays open on the new position, for another purchase.
    assert at_recruitment(document)
    assert panel.rp_label.text() == f"{rp - cost} RP"
    assert panel.selected_key() == ("buy_unit", "WS") and panel.selected_sector() == target


def test_recruit_marker_price_is_what_the_purchase_costs(qtbot, recruit_document):
    document = recruit_document
    panel = RecruitPanel(document)
    qtbot.addWidget(panel)
    nexus_sites = sorted(legal_purchases(document).get(("buy_marker", "nexus"), ()))
    assert nexus_sites, "no Nexus site offered in this position"
    assert panel.select("buy_marker", "nexus", nexus_sites[0])
    cost = panel.purchases[("buy_marker", "nexus")].cost
    rp = document.board["rp"]
    assert panel.buy()
    assert document.board["rp"] == rp - cost
    assert pieces_of(document.board, nexus_sites[0], "nexus")


def test_recruit_done_ends_recruitment_and_closes_the_dialog(qtbot, recruit_document):
    dialog = RecruitDialog(recruit_document)
    qtbot.addWidget(dialog)
    dialog.show()
    with qtbot.waitSignal(dialog.panel.finished):
        qtbot.mouseClick(dialog.panel.done_button, Qt.MouseButton.LeftButton)
    assert recruit_document.session.actions[-1]["action"] == {"verb": "done"}
    assert not at_recruitment(recruit_document)
    assert dialog.result() == QDialog.DialogCode.Accepted
    assert not dialog.panel.buy_button.isEnabled()


def test_recruit_panel_shows_a_refusal_instead_of_failing(qtbot, recruit_document):
    def refuse(action):
        class Result:
            ok, reason = False, "the treasury is closed"
        return Result()
    panel = RecruitPanel(recruit_document, perform=refuse)
    qtbot.addWidget(panel)
    panel.show()
    rp = recruit_document.board["rp"]
    assert panel.select("buy_unit", "SF") and not panel.buy()
    assert "the treasury is closed" in panel.error.text()
    assert recruit_document.board["rp"] == rp


# ------------------------------------------------------------------------------ house rules
def leaves(value) -> list[str]:
    """Every scalar of a table as the page writes it."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in leaves(v)]
    if isinstance(value, list):
        return [s for v in value for s in leaves(v)] if value else ["none"]
    if value is None:
        return ["—"]
    if isinstance(value, bool):
        return ["yes" if value else "no"]
    return [str(value)]


def test_house_rules_list_every_reconstructed_table_with_its_values(qtbot, game):
    dialog = HouseRulesDialog(game)
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "House rules"
    text = " ".join(dialog.page_text().split())
    reconstructed = [t for t in game.catalog()["tables"] if t["reconstructed"]]
    assert len(reconstructed) > 10
    for table in reconstructed:
        assert table["title"] in text
        for rule in table["rules"]:
            assert rule in text
        shipped = yaml.safe_load((assets_dir() / "tables" / "struggle" /
                                  f"{table['id']}.yaml").read_text(encoding="utf-8"))
        # Values a table states only for the record are not offered as house rules.
        values = {k: v for k, v in without_documented(shipped).items()
                  if k not in ("id", "title", "reconstructed", "rules")}
        for leaf in leaves(values):
            assert " ".join(leaf.split()) in text, f"{table['id']}: {leaf!r} missing"


def test_house_rules_list_the_decided_rules(qtbot, game):
    page = house_rules_html(game.catalog())
    decided = [r for r in game.catalog()["rule_ids"]["rules"] if r["source"] == "DECIDED"]
    assert decided
    for rule in decided:
        assert rule["id"] in page


def test_house_rules_search_narrows_the_page(qtbot, game):
    dialog = HouseRulesDialog(game)
    qtbot.addWidget(dialog)
    qtbot.keyClicks(dialog.search_edit, "SGE-CMB-8")
    text = dialog.page_text()
    assert "Combat Results Table" in text and "Alien/Expedition Resolution Table" not in text
    assert dialog.count_label.text().startswith("1 tables")
    dialog.set_search("no such words anywhere")
    assert "Nothing mentions" in dialog.page_text()
    dialog.set_search("")
    assert "Alien/Expedition Resolution Table" in dialog.page_text()


# ------------------------------------------------------------------------------ about
def test_about_names_the_version_games_and_font_licence(qtbot):
    dialog = AboutDialog()
    qtbot.addWidget(dialog)
    from struggle_desktop import __version__
    assert dialog.version_label.text() == f"Version {__version__}"   # the one version
    text = dialog.text.toPlainText()
    assert "Struggle for the Galactic Empire — playable" in text and "DejaVu" in text
    assert "Noble Houses — playable" in text
    assert "Freedom in the Galaxy missions — playable" in text


def test_dialogs_use_the_game_object_not_rules_internals():
    for path in DIALOG_SOURCES.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "games.struggle" not in source, path.name


def test_switching_games_leaves_no_rows_of_the_old_games_options_on_screen(qtbot):
    """The old game's option rows are hidden at once, not only when Qt deletes them later."""
    from PySide6.QtWidgets import QCheckBox

    dialog = NewGameDialog(game_ids=["struggle", "battles"])
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.game_combo.setCurrentIndex(dialog.game_combo.findData("battles"))
    old = [box for box in dialog.findChildren(QCheckBox)
           if box.objectName() in ("option-nexus", "option-stargates")]
    assert old and all(box.isHidden() for box in old)     # before Qt gets to delete them
    qtbot.wait(20)          # new rows of a shown dialog appear on the next event-loop turn
    shown = {box.objectName() for box in dialog.findChildren(QCheckBox)
             if box.isVisibleTo(dialog)}
    assert "option-no_moon" in shown
    assert not any(name in shown for name in ("option-nexus", "option-stargates"))


def test_recruit_list_keeps_several_rows_and_names_units_when_built_early(qtbot, game, qapp):
    """The window builds the panel before any game is open: it then named units by their
    codes as markers ("Sf marker"), and a short dock squeezed its list to one row."""
    document = GameDocument(autosave=False)
    panel = RecruitPanel(document)
    qtbot.addWidget(panel)
    document.new_game("struggle", "4", 3, {})
    play_until(document, at_recruitment)
    item = panel._item(("buy_unit", "SF"))
    assert item is not None and item.text(0).startswith("Star Fleet")
    panel.show()
    panel.resize(380, 120)          # far less than it needs: it keeps its list readable
    qtbot.waitExposed(panel)
    row = panel.tree.visualItemRect(item).height()
    assert row > 0 and panel.tree.viewport().height() >= 4 * row


def test_house_rules_never_break_a_name_and_show_table_words_as_values(game):
    """LEVIATHAN was once broken as "LEVIATHA N" in a narrow column, and move_toward_core read
    as a stray word: names stay whole, and a table's own words are set as values to type."""
    page = house_rules_html(game.catalog())
    assert "<span style='white-space:nowrap'>LEVIATHAN</span>" in page
    assert "<code style='white-space:nowrap'>move_toward_core</code>" in page
