"""The dock panels against real games: each shows what the board says, and the controls
emit what the window listens to."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from struggle_desktop.ui.docks.cup import CupDock, MarkersDock
from struggle_desktop.ui.docks.dice import DiceDock, die_words, faces_of, roll_reason
from struggle_desktop.ui.docks.log import LogDock, split_refs
from struggle_desktop.ui.docks.stack import StackDock
from struggle_desktop.ui.docks.tracks import (
    ChaosIndexDock,
    ResourcesDock,
    markers_per_round,
    victory_level_of,
    victory_levels,
)
from struggle_desktop.ui.docks.turn import TurnDock, continue_state, done_action
from struggle_desktop.ui.docks.style import half_points
from struggle_desktop.ui.document import GameDocument

ALL_DOCKS = (ChaosIndexDock, ResourcesDock, TurnDock, CupDock, MarkersDock, LogDock, DiceDock,
             StackDock)


def new_document(actions: int = 40, scenario: str = "4") -> GameDocument:
    doc = GameDocument(autosave=False)
    doc.new_game("struggle", scenario, 3, {"all": "on"})
    advance(doc, actions)
    return doc


def bots_choice(doc: GameDocument) -> dict | None:
    """The bot's action (the player these positions were written with, whichever player the
    Hint asks), or None when nothing is waiting."""
    if doc.waiting_role is None or doc.game.outcome(doc.state) is not None:
        return None
    return doc.program_action("bot")


def advance(doc: GameDocument, actions: int, until=None):
    """Play the bot's choices; stop early when ``until(result)`` holds. Returns the last
    result."""
    result = None
    for _ in range(actions):
        action = bots_choice(doc)
        if action is None:
            break
        result = doc.perform(action)
        assert result.ok, result.reason
        if until is not None and until(result):
            break
    return result


@pytest.fixture
def doc(qapp):
    return new_document()


def shown(qtbot, dock):
    qtbot.addWidget(dock)
    dock.show()
    qtbot.waitExposed(dock)
    return dock.ensure_widget()


# ------------------------------------------------------------------------------ every panel
def test_object_names_are_the_stable_layout_ids(qapp):
    doc = GameDocument(autosave=False)
    expected = {ChaosIndexDock: "dock-chaos-index", ResourcesDock: "dock-resources",
                TurnDock: "dock-turn", CupDock: "dock-cup", MarkersDock: "dock-markers",
                LogDock: "dock-log",
                DiceDock: "dock-dice", StackDock: "dock-stack"}
    for cls, name in expected.items():
        assert cls(doc).objectName() == name
    assert LogDock.default_area == Qt.DockWidgetArea.BottomDockWidgetArea
    assert DiceDock.default_area == Qt.DockWidgetArea.BottomDockWidgetArea


def test_widgets_are_built_only_when_needed(qtbot, doc):
    for cls in ALL_DOCKS:
        dock = cls(doc)
        qtbot.addWidget(dock)
        doc.changed.emit()          # a hidden panel ignores changes
        assert not dock.widget_built
        dock.ensure_widget()
        assert dock.widget_built and dock.widget() is not None


def test_every_panel_copes_with_no_game(qtbot, qapp):
    doc = GameDocument(autosave=False)
    for cls in ALL_DOCKS:
        dock = cls(doc)
        shown(qtbot, dock)
    turn = TurnDock(doc)
    shown(qtbot, turn)
    assert not turn.continue_button.isEnabled()
    assert turn.continue_button.toolTip() == "No game is open."


# ------------------------------------------------------------------------------ Chaos Index
def test_chaos_index_track_shows_the_ci_its_band_and_the_victory_levels(qtbot, doc):
    board = doc.board
    dock = ChaosIndexDock(doc)
    widget = shown(qtbot, dock)
    ci = board["ci"]
    assert widget.ci_value.text() in (str(ci), str(int(ci)))
    track = widget.ci_track
    assert track.value == ci
    # the marker sits at ci/100 of the bar
    bar = track.bar_rect()
    assert track.marker_x() == pytest.approx(bar.left() + bar.width() * ci / 100)
    per_round = next(b["markers"] for b in board["ci_bands"] if ci <= b["to"])
    assert markers_per_round(board["ci_bands"], ci) == per_round
    assert f"{per_round} event markers" in widget.ci_note.text()
    assert track.band_at(track.marker_x()).label == str(per_round)
    # bands labelled with the markers per round, coloured from calm to turmoil
    assert [b.label for b in track.bands] == [str(b["markers"]) for b in board["ci_bands"]
                                              if b["to"] > b["from"]]
    # VP and the scenario's victory bands
    vp = board["vp"]
    assert widget.vp_value.text() == str(vp)
    assert widget.vp_track.value == vp
    levels = [b.label.lower() for b in widget.vp_track.bands]
    assert levels[:-1] == sorted(board["victory_bands"], key=board["victory_bands"].get)
    collapse = board["victory_bands"]["collapse"]
    assert widget.vp_track.band_at(widget.vp_track.x_of(collapse)).label == "Collapse"
    assert widget.vp_track.band_at(widget.vp_track.x_of(collapse + 1)).label != "Collapse"
    assert victory_level_of(board["victory_bands"], vp).capitalize() in widget.vp_note.text()


def test_victory_levels_read_at_or_below_each_threshold():
    bands = {"collapse": 15, "decline": 20, "survival": 25, "expanding": 30}
    assert victory_levels(bands)[0] == ("collapse", 0, 15)
    assert victory_levels(bands)[-1] == ("galactic", 31, None)
    assert [victory_level_of(bands, v) for v in (15, 16, 30, 31)] == [
        "collapse", "decline", "expanding", "galactic"]


def test_the_ci_track_follows_a_change(qtbot, doc):
    dock = ChaosIndexDock(doc)
    widget = shown(qtbot, dock)
    before = doc.board["ci"]
    advance(doc, 200, until=lambda r: doc.board["ci"] != before)
    assert doc.board["ci"] != before
    assert widget.ci_track.value == doc.board["ci"]


# ------------------------------------------------------------------------------ resources
def test_resources_show_rp_its_last_change_leaders_and_markers_available(qtbot, doc):
    board = doc.board
    dock = ResourcesDock(doc)
    widget = shown(qtbot, dock)
    assert widget.rp_value.text() == str(board["rp"])
    assert widget.vp_value.text() == str(board["vp"])
    last_rp = [e for e in doc.log_entries() if e["kind"] == "rp"][-1]
    before, after = last_rp["text"].split(":")[0].split()[-3::2]
    assert f"({before} → {after})" in widget.rp_change.text()
    assert widget.leaders.values == sorted(board["imperial_leaders"], reverse=True)
    assert widget.markers.title() == "Imperial markers available"
    assert widget.markers.counts == board["available"]
    for kind, count in board["available"].items():
        assert widget.markers.rows[kind][1].text() == str(count)


def test_markers_available_box_counts_what_the_board_holds(qtbot, doc):
    dock = MarkersDock(doc)
    shown(qtbot, dock)
    assert dock.box.title() == "Imperial markers available"
    assert dock.box.counts == doc.board["available"]
    advance(doc, 400, until=lambda r: any(e["kind"] == "marker" and "Markers Available" in e["text"]
                                          for e in r.new_entries))
    assert dock.box.counts == doc.board["available"]
    assert [dock.box.rows[k][1].text() for k in doc.board["available"]] == [
        str(v) for v in doc.board["available"].values()]


# ------------------------------------------------------------------------------ turn
def test_turn_dock_shows_turn_phase_decision_and_continue(qtbot, doc):
    board = doc.board
    dock = TurnDock(doc)
    widget = shown(qtbot, dock)
    assert widget.turn_label.text() == f"Turn {board['turn']} of {board['turns']}"
    assert widget.phases.names == board["phases"]
    assert widget.phases.current == board["phase"]
    assert board["phase_name"] in widget.phase_label.text()
    assert board["prompt"]["text"] in widget.decision.text()
    button = widget.continue_button
    assert button.text().startswith("Continue")
    assert button.isEnabled() == (done_action(board) is not None)


def test_phase_track_names_every_phase_compact_or_expanded(qtbot, doc):
    board = doc.board
    dock = TurnDock(doc)
    widget = shown(qtbot, dock)
    phases = widget.phases
    assert not dock.phase_names_shown
    compact_height = phases.heightForWidth(300)
    current = board["phase"]
    badge = phases.badge_rect(current)
    assert phases.phase_at(badge.center().x(), badge.center().y()) == current
    assert phases.describe(current) == f"Phase {current}: {board['phase_name']} (now)"
    assert phases.describe(1).endswith("(done this turn)")
    dock.show_phase_names(True)
    assert dock.phase_names_shown and phases.heightForWidth(300) > compact_height
    row = phases.row_rect(14)
    assert phases.phase_at(row.center().x(), row.center().y()) == 14


def test_continue_emits_and_is_disabled_with_a_reason_without_a_done_action(qtbot, doc):
    dock = TurnDock(doc)
    widget = shown(qtbot, dock)
    advance(doc, 200, until=lambda r: done_action(doc.board) is not None)
    assert widget.continue_button.isEnabled()
    with qtbot.waitSignal(dock.continue_requested, timeout=1000):
        qtbot.mouseClick(widget.continue_button, Qt.MouseButton.LeftButton)
    # the window's override holds for the position on show, then yields to the board again
    dock.set_continue(False, "Continue → next move", "Watching the Chaos side")
    assert not widget.continue_button.isEnabled()
    assert widget.continue_button.text() == "Continue → next move"
    assert widget.continue_button.toolTip() == "Watching the Chaos side"
    with qtbot.assertNotEmitted(dock.continue_requested):
        qtbot.mouseClick(widget.continue_button, Qt.MouseButton.LeftButton)
    doc.perform(done_action(doc.board))
    assert widget.continue_button.text().startswith("Continue")


def test_continue_state_without_done_names_the_decision():
    board = {"turn": 1, "next_step": "Phase 3: Usurpation", "outcome": None,
             "phases": ["Chaos Events", "Chaos Operations", "Usurpation"],
             "prompt": {"text": "Choose a sector", "actions": [{"action": {"verb": "place"},
                                                                  "label": "Place"}]}}
    enabled, text, why = continue_state(board)
    assert not enabled and text == "Continue"       # where it stops is not known
    assert "Choose a sector" in why
    stop = {"turn": 1, "phase": 3, "over": False, "chance": False}
    assert continue_state(board, stop)[1] == "Continue → Phase 3: Usurpation"
    next_turn = continue_state(board, dict(stop, turn=2))[1]
    assert next_turn == "Continue → Turn 2, phase 3: Usurpation"
    assert continue_state(board, dict(stop, chance=True))[1] == "Continue"
    board["prompt"]["actions"].append({"action": {"verb": "done"}, "label": "Done"})
    assert continue_state(board)[0]
    board["outcome"] = {"result": "decline"}
    assert continue_state(board)[:2] == (False, "The game is over")


def test_speed_selector_emits_the_chosen_speed(qtbot, doc):
    dock = TurnDock(doc)
    assert dock.speed == "fast"
    widget = shown(qtbot, dock)
    assert widget.speed_buttons["fast"].isChecked()
    with qtbot.waitSignal(dock.speed_changed, timeout=1000) as blocker:
        qtbot.mouseClick(widget.speed_buttons["step"], Qt.MouseButton.LeftButton)
    assert blocker.args == ["step"] and dock.speed == "step"
    with qtbot.waitSignal(dock.speed_changed, timeout=1000) as blocker:
        dock.set_speed("instant")
    assert blocker.args == ["instant"] and widget.speed_buttons["instant"].isChecked()
    with pytest.raises(ValueError):
        dock.set_speed("slow")


# ------------------------------------------------------------------------------ cup
def test_cup_shows_the_count_and_each_marker_drawn_this_turn(qtbot, doc):
    cup = doc.board["cup"]
    assert cup["drawn"], "the fixture game should have drawn markers this turn"
    dock = CupDock(doc)
    widget = shown(qtbot, dock)
    assert widget.remaining_label.text() == f"{cup['remaining']} markers in the cup"
    assert widget.gauge.remaining == cup["remaining"]
    assert widget.discarded_label.text() == f"{cup['discarded']} discarded"
    assert widget.drawn == cup["drawn"] and widget.effects == cup["effects"]
    shown_text = widget.markers.toPlainText()
    assert f"Drawn this turn ({len(cup['drawn'])})" in shown_text
    for k, marker in enumerate(cup["drawn"], start=1):
        assert f"{k}. {marker['name']}" in shown_text
        assert " ".join(marker["effect"].split()) in " ".join(shown_text.split())
    for marker in cup["effects"]:
        assert marker["name"] in shown_text


# ------------------------------------------------------------------------------ log
def test_log_lists_every_entry_and_grows_by_exactly_the_new_ones(qtbot, doc):
    dock = LogDock(doc)
    shown(qtbot, dock)
    model = dock.model
    assert model.rowCount() == len(doc.log_entries())
    before = model.rowCount()
    result = advance(doc, 1)
    assert result.new_entries
    assert model.rowCount() == before + len(result.new_entries)
    assert model.entry(model.rowCount() - 1) == result.new_entries[-1]


def test_log_starts_over_for_another_game(qtbot, doc):
    dock = LogDock(doc)
    shown(qtbot, dock)
    doc.new_game("struggle", "3", 5, {})
    assert dock.model.entries == doc.log_entries()


def sector_ref_row(dock: LogDock) -> tuple[int, str]:
    """The newest row whose text mentions one of its sector references."""
    model = dock.model
    for row in range(model.rowCount() - 1, -1, -1):
        for segment in model.segments(row):
            if segment.ref.startswith("sector:") and not segment.chip:
                return row, segment.ref
    raise AssertionError("no sector reference in the log")


def ref_point(dock: LogDock, row: int, ref: str) -> QPoint:
    view = dock.view
    index = dock.model.index(row, 0)
    view.scrollTo(index)
    QApplication.processEvents()        # let the view lay out after the resize
    rect = view.visualRect(index)
    assert rect.width() > 400, rect
    where = next(w for w, segment, _ in view.delegate.layout(rect, row).pieces
                 if segment.ref == ref)
    return where.center()


@pytest.fixture
def sector_link(qtbot, doc):
    """A shown log, the row and sector reference of a link in it, and where it is drawn."""
    dock = LogDock(doc)
    shown(qtbot, dock)
    dock.resize(900, 300)
    row, ref = sector_ref_row(dock)
    return dock, row, ref, ref_point(dock, row, ref)


def test_clicking_a_sector_reference_activates_it(qtbot, sector_link):
    dock, _row, ref, point = sector_link
    with qtbot.waitSignal(dock.ref_activated, timeout=1000) as blocker:
        qtbot.mouseClick(dock.view.viewport(), Qt.MouseButton.LeftButton, pos=point)
    assert blocker.args == [ref] and ref.startswith("sector:")


def test_hovering_a_reference_reports_it_and_leaving_clears_it(qtbot, sector_link):
    dock, row, ref, point = sector_link
    viewport = dock.view.viewport()
    with qtbot.waitSignal(dock.ref_hovered, timeout=1000) as blocker:
        qtbot.mouseMove(viewport, point)
    assert blocker.args == [ref]
    rect = dock.view.visualRect(dock.model.index(row, 0))
    with qtbot.waitSignal(dock.ref_hovered, timeout=1000) as blocker:
        qtbot.mouseMove(viewport, QPoint(rect.left() + 5, rect.center().y()))   # the "T2 P9"
    assert blocker.args == [""]


def test_references_become_links_and_unmentioned_ones_chips():
    segments = split_refs("CG-30 (force F9) placed in 45: IE #6 recruits", ["CG-30", "sector:45"])
    assert [(s.text, s.ref) for s in segments if s.ref] == [("CG-30", "CG-30"),
                                                            ("45", "sector:45")]
    segments = split_refs("Rebellion strikes", ["REBELLION", "sector:07"])
    assert [(s.text, s.chip) for s in segments if s.ref] == [("REBELLION", True),
                                                             ("sector 07", True)]
    # a number inside a die name or another ID is not the sector
    assert not [s for s in split_refs("d10 roll; CG-10 here", ["sector:10"]) if s.ref and not s.chip]


def test_the_filter_narrows_the_rows(qtbot, doc):
    dock = LogDock(doc)
    shown(qtbot, dock)
    total = dock.model.rowCount()
    unit = next(r for e in reversed(doc.log_entries()) for r in e["refs"] if "-" in r)
    dock.set_filter(unit)
    expected = [e for e in doc.log_entries() if unit in e["refs"] or unit in e["text"]]
    assert 0 < dock.model.rowCount() == len(expected) < total
    dock.set_filter("")
    assert dock.model.rowCount() == total


def test_the_log_follows_the_newest_entry_unless_scrolled_up(qtbot, doc):
    dock = LogDock(doc)
    shown(qtbot, dock)
    dock.resize(700, 250)
    view = dock.view
    advance(doc, 3)
    qtbot.waitUntil(lambda: view.at_bottom())
    bar = view.verticalScrollBar()
    assert bar.maximum() > 0
    bar.setValue(0)         # the player scrolls up to read
    advance(doc, 3)
    assert bar.value() == 0
    dock.ensure_widget().scroll_to_newest()
    advance(doc, 3)
    qtbot.waitUntil(lambda: view.at_bottom())


# ------------------------------------------------------------------------------ dice
def test_dice_panel_shows_the_faces_of_a_real_roll(qtbot, doc):
    dock = DiceDock(doc)
    shown(qtbot, dock)
    result = advance(doc, 300, until=lambda r: any(e.get("dice") for e in r.new_entries))
    rolls = [e for e in result.new_entries if e.get("dice")]
    assert dock.rolls == rolls          # picked up from the log on "changed"
    dock.show_entries([])               # an action without dice keeps the earlier rolls
    assert dock.rolls == rolls and "No dice" in dock.content.heading.text()
    dock.show_entries(result.new_entries)
    widget = dock.content
    assert widget.model.rowCount() == len(rolls)
    record = rolls[0]["dice"][-1]
    shapes = faces_of(record)
    if record["die"] == "d10":
        assert shapes == [("d10", str(record["face"]), "")]
    assert str(record["face"]) in die_words(record) or record["die"] == "2d10"
    assert roll_reason(rolls[0]) in rolls[0]["text"]


def test_die_shapes_for_each_kind_of_roll():
    assert faces_of({"die": "d10", "face": 0}) == [("d10", "0", "")]
    assert faces_of({"die": "d6", "face": 4}) == [("d6", "4", "")]
    assert faces_of({"die": "2d10", "face": 47}) == [("d10", "4", ""), ("d10", "7", "")]
    assert faces_of({"die": "pick70", "face": 3}) == [("lot", "3", "of 70")]
    words = die_words({"die": "d10", "face": 5, "modifiers": [["military", 1]], "result": 6})
    assert words == "d10 5 +1 military = 6"
    assert roll_reason({"text": "AERT for the Randoids in 23: d10 5 +1 x = 6",
                        "dice": [{"die": "d10"}]}) == "AERT for the Randoids in 23"


# ------------------------------------------------------------------------------ stack
def test_stack_inspector_lists_exactly_the_pieces_of_the_sector(qtbot, doc):
    dock = StackDock(doc)
    shown(qtbot, dock)
    board = doc.board
    busiest = max(board["sectors"], key=lambda n: len(board["sectors"][n]["pieces"]))
    dock.show_sector(busiest)
    assert dock.piece_ids() == board["sectors"][busiest]["pieces"]
    assert len(dock.piece_ids()) > 2
    first = dock.content.list.item(0)
    assert first.toolTip() == board["pieces"][dock.piece_ids()[0]]["tooltip"]
    assert dock.content.heading.text().startswith(f"{busiest:02d}")
    dock.show_sector(-1)
    assert dock.piece_ids() == []


def test_stack_inspector_follows_changes(qtbot, doc):
    dock = StackDock(doc)
    shown(qtbot, dock)
    core = 1
    dock.show_sector(core)
    advance(doc, 200, until=lambda r: any(e["kind"] in ("move", "place", "eliminate")
                                          and "sector:01" in e["refs"] for e in r.new_entries))
    assert dock.piece_ids() == doc.board["sectors"][core]["pieces"]


# ------------------------------------------------------------------------------ the moment shown
def set_up_document(scenario: str = "3", seed: int = 1) -> GameDocument:
    doc = GameDocument(autosave=False)
    doc.new_game("struggle", scenario, seed, {})
    return doc


def test_the_tracks_show_no_value_during_set_up_until_the_scenario_sets_it(qtbot, qapp):
    """During set-up the game holds 0 for the Chaos Index and the RP; the scenario's
    starting values are put in when set-up ends. The panels said "0" meanwhile."""
    doc = set_up_document()
    assert doc.board["turn"] == 0 and doc.board["ci"] == 0
    docks = [ChaosIndexDock(doc), ResourcesDock(doc)]      # (kept: a dock has no parent)
    ci, resources = (shown(qtbot, dock) for dock in docks)
    assert ci.ci_value.text() == "–" and ci.ci_track.value is None
    assert "set-up ends" in ci.ci_note.text()
    assert resources.rp_value.text() == "–"
    doc.perform({"verb": "auto_place"})
    assert doc.board["ci"] > 0
    assert ci.ci_value.text() == half_points(doc.board["ci"])
    assert resources.rp_value.text() == str(doc.board["rp"])


def frames_of_the_first_chaos_turn(doc: GameDocument):
    result = doc.perform({"verb": "auto_place"})
    assert result.ok and result.frames
    return result


def test_during_a_playback_the_panels_show_the_step_on_show(qtbot, qapp):
    """RP, its last change and the log are those of the step on show, not of the end of
    the action (the RP said 14 while the line under it said "14 → 50")."""
    doc = set_up_document()
    result = frames_of_the_first_chaos_turn(doc)
    final_rp = doc.board["rp"]
    resources_dock, log_dock = ResourcesDock(doc), LogDock(doc)
    resources = shown(qtbot, resources_dock)
    shown(qtbot, log_dock)
    changes = [f for f in result.frames
               if f.board["rp"] != final_rp and any(e["kind"] == "rp" for e in
                                                    doc.log_entries()[:f.board["log_size"]])]
    assert changes, "no step of this turn shows other RP than its end: pick another seed"
    frame = changes[0]
    doc.show_step(frame.board)
    for dock in (resources_dock, log_dock):
        dock.refresh()
    assert resources.rp_value.text() == str(frame.board["rp"])
    assert f"→ {frame.board['rp']})" in resources.rp_change.text()
    assert log_dock.model.rowCount() == frame.board["log_size"]
    assert log_dock.model.entry(log_dock.model.rowCount() - 1) is \
        doc.log_entries()[frame.board["log_size"] - 1]
    doc.show_step(None)
    for dock in (resources_dock, log_dock):
        dock.refresh()
    assert resources.rp_value.text() == str(final_rp)
    assert log_dock.model.rowCount() == len(doc.log_entries())


STOP = re.compile(r"^Continue → (?:Turn (\d+), phase|Phase) (\d+):")


def test_continue_names_the_phase_where_play_really_stops(qtbot, qapp):
    """The button named the next phase ("Phase 12") and play went on to Phase 14: it now
    names the phase of the next decision, or just "Continue" when dice and draws come
    first (then where it stops is not known before playing)."""
    doc = set_up_document()
    dock = TurnDock(doc)
    widget = shown(qtbot, dock)
    doc.perform({"verb": "auto_place"})
    skipped = unknown = 0
    for _ in range(400):
        if doc.board["outcome"] or doc.board["turn"] > 2:
            break
        action = bots_choice(doc)
        if doc.board["prompt"]["kind"] == "end_of_turn":
            action = done_action(doc.board) or action    # on to the Chaos side's turn
        if action["verb"] != "done":
            doc.perform(action)
            continue
        text = widget.continue_button.text()
        turn, phase = doc.board["turn"], doc.board["phase"]
        start = len(doc.log_entries())
        doc.perform(action)
        found = STOP.match(text)
        if found is None:
            assert text == "Continue"
            assert any(e["kind"] in ("roll", "draw") or e.get("dice")
                       for e in doc.log_entries(start)), "a stop known beforehand not named"
            unknown += 1
            continue
        assert doc.board["prompt"] is not None
        assert int(found.group(2)) == doc.board["phase"]
        assert int(found.group(1) or turn) == doc.board["turn"]
        skipped += (doc.board["turn"], doc.board["phase"]) != (turn, phase + 1)
    assert skipped and unknown, "both kinds of Continue should have been met"


def test_a_long_prompt_is_shown_whole_in_a_narrow_turn_panel(qtbot, qapp):
    """The decision's words were cut off at the rule ID ("SGE-…"): the label takes the
    height its text needs at its width, the ID never breaks, and the tooltip says it all."""
    doc = set_up_document()
    dock = TurnDock(doc)
    widget = shown(qtbot, dock)
    dock.resize(220, 200)
    qtbot.wait(20)
    label = widget.decision
    prompt = doc.board["prompt"]
    assert label.height() >= label.heightForWidth(label.width())
    assert prompt["text"] in label.toolTip() and prompt["rule"] in label.toolTip()
    assert prompt["rule"].replace("-", "\u2011") in label.text()
    assert widget.speed_note.isVisible()          # choose the speed before the Chaos turn
    doc.perform({"verb": "auto_place"})
    assert not widget.speed_note.isVisible()
