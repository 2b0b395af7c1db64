"""The Freedom chit-mug view (FIG-CHIT) driven through its own buttons: a stand-in window
performs each action on a real Session and refreshes the view with the acting role's view and
legal actions, as the Freedom window does. What the view shows is checked against the state."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.ui.freedom.chits_view import ChitMugView, chit_choices, view_of
from tests.ui.freedom_standin import StandIn, open_mode_view

#: Set to a folder to write the screenshot there as well (docs/screenshots for the docs).
SHOTS = os.environ.get("STRUGGLE_DESKTOP_SHOTS")
EVENT_WORDS = {"applied": "applied", "same": "same event", "blocked": "blocked",
               "void": "void", "ignored": "ignored", "no_mission": "no mission",
               "not applied": "not applied"}


@pytest.fixture
def open_view(qtbot):
    def make(scenario="b1", seed=1, options=None, wrap=False):
        return open_mode_view(qtbot, ChitMugView, scenario, seed, options, wrap=wrap)
    return make


def click(qtbot, view: ChitMugView, action: dict) -> None:
    button = view.prompt.find(action)
    assert button is not None, (action, [a for a, _ in view.prompt.buttons])
    assert button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def cells(table) -> list[list[str]]:
    return [[table.item(r, c).text() for c in range(table.columnCount())]
            for r in range(table.rowCount())]


def check_shown(view: ChitMugView, state: dict) -> None:
    """The counts and statuses on screen are the state's."""
    mug_text = view.mug.text()
    if state["options"]["chit_method"] == "mug" and state["outcome"] is None:
        assert f"{len(state['mug'])} of 36 chits left" in mug_text
    shown = " ".join(t for table in (view.drawn, view.groups) for row in cells(table)
                     for t in row) + view.report.text.toPlainText()
    for chit in state["mug"]:
        # The mug is hidden: no chit still in it is named anywhere.
        assert not re.search(rf"\b{chit}\b", shown)
    rows = cells(view.drawn)
    assert len(rows) == len(state["drawn"])
    for row, d in zip(rows, state["drawn"]):
        assert row[2] == d["chit"]
        assert row[1].lower().startswith(d["draw"].replace("_", "-"))
        if d["event"] is not None:
            assert EVENT_WORDS[d["event"]] in row[5]
    groups = cells(view.groups)
    assert [r[0] for r in groups] == [g["id"] for g in state["groups"]]
    for row, g in zip(groups, state["groups"]):
        assert row[1].startswith(g["mission"])
        assert row[4].startswith(f"{len(g['letters'])}:" if g["letters"] else "none")
        # A group still drawing when the environs is resolved has finished, not "drawing".
        drawing = "drawing" if state["outcome"] is None else "finished"
        assert {"active": drawing}.get(g["status"], g["status"]) == row[3]
        if g["count"] is not None:
            assert row[5].startswith(f"count {g['count']}")
    regular = sum(1 for d in state["drawn"] if d["draw"] == "regular")
    assert f"Regular draws: {regular} of {state['environs']['size']}" in view.bonus.text()


def play_out(qtbot, host: StandIn, view: ChitMugView, choose=None) -> list[str]:
    """Answer every prompt through the view's buttons (``choose(pending, legal)`` picks,
    else draw / the first button) until the report; returns the prompt kinds met."""
    kinds = []
    while host.state["outcome"] is None:
        pending = host.state["pending"]
        kinds.append(pending["kind"])
        legal = host.game.legal_actions(host.state, pending["role"])
        assert [a for a, _ in view.prompt.buttons] == legal   # one button per legal answer
        action = choose(pending, legal) if choose else None
        if action is None:
            action = {"verb": "draw"} if {"verb": "draw"} in legal else legal[0]
        click(qtbot, view, action)
        check_shown(view, host.state)
        assert len(kinds) < 100
    return kinds


def test_b1_from_start_to_report_through_the_buttons(open_view, qtbot):
    host, view = open_view("b1", seed=1)
    state = host.state
    assert "Urban environs, size 3" in view.header.text()
    assert "Imperial controls the planet" in view.situation.text()
    assert [r[0] for r in cells(view.groups)] == ["G1", "G2"]
    assert view.prompt.find({"verb": "draw"}) is not None
    check_shown(view, state)
    kinds = play_out(qtbot, host, view)
    assert set(kinds) == {"chit_next"}
    state = host.state
    # The end: no buttons, the report lists each group's letters and what the players apply.
    assert view.prompt.buttons == []
    assert "resolved" in view.prompt.text.text()
    report = view.report.text.toPlainText()
    assert view.report.title().startswith("Report")
    for entry in state["outcome"]:
        assert entry["text"] in report
    for g in state["groups"]:
        assert f"{g['id']} ({g['mission']}): {len(g['letters'])} letter(s)" in report
    assert f"{len(state['drawn'])} distinct chits were drawn" in report
    assert f"the {len(state['drawn'])} chits drawn are back in it" in view.mug.text()


def test_stop_a_group_between_draws(open_view, qtbot):
    host, view = open_view("b1", seed=1)
    click(qtbot, view, {"verb": "stop", "group": "G2"})
    g2 = next(g for g in host.state["groups"] if g["id"] == "G2")
    assert g2["status"] == "stopped"
    assert cells(view.groups)[1][3] == "stopped"
    # G2 can no longer be stopped; G1 still can.
    assert view.prompt.find({"verb": "stop", "group": "G2"}) is None
    assert view.prompt.find({"verb": "stop", "group": "G1"}) is not None
    play_out(qtbot, host, view)
    assert "G2 (I)" in view.report.text.toPlainText()
    assert "stopped by the player" in view.report.text.toPlainText()


def test_drama_and_the_other_players_bid(open_view, qtbot):
    host, view = open_view("b1", seed=1, options={"drama": True})
    pending = host.state["pending"]
    assert pending["kind"] == "chit_drama"
    chit = pending["chit"]
    assert view.prompt.find({"verb": "keep"}).text() == f"Keep {chit}"
    click(qtbot, view, {"verb": "drama"})
    assert host.state["pending"]["kind"] == "chit_drama_bid"
    assert host.state["pending"]["role"] == "enemy"
    assert "the Imperial (other player) decides" in view.prompt.note.text()
    assert view.prompt.find({"verb": "bid", "choice": "harder_for_them"}).text() == \
        "Make their bid one turn harder"
    click(qtbot, view, {"verb": "bid", "choice": "easier_for_me"})
    kinds = play_out(qtbot, host, view,
                     lambda p, legal: {"verb": "keep"} if p["kind"] == "chit_drama" else None)
    assert "chit_drama" in kinds
    assert "Drama: the imperial makes its own bid one turn easier" in \
        view.report.text.toPlainText()


def test_enemy_losses_and_medical_aid(open_view, qtbot):
    """Seed 70 draws Medical Aid! and Locals raid Enemy Forces! in regular draws."""
    host, view = open_view("b1", seed=70, wrap=True)

    def choose(pending, legal):
        if pending["kind"] == "chit_medical_aid":
            assert view.prompt.find({"verb": "none"}).text() == "Nobody needs healing"
            return {"verb": "heal", "character": "G1 leader"}
        if pending["kind"] == "chit_enemy_loss":
            assert pending["role"] == "enemy"
            assert view.prompt.find({"verb": "lose_unit"}).text() == "Lose one unit here"
            return {"verb": "pdb_down"}
        return None
    kinds = play_out(qtbot, host, view, choose)
    assert {"chit_medical_aid", "chit_enemy_loss"} <= set(kinds)
    report = view.report.text.toPlainText()
    assert "Medical Aid!: G1 leader heals one wound" in report
    assert "puts its PDB down" in report


def test_copy_puts_the_report_on_the_clipboard(open_view, qtbot):
    host, view = open_view("b1", seed=1)
    play_out(qtbot, host, view)
    QApplication.clipboard().clear()
    assert view.report.copy_button.isEnabled()
    qtbot.mouseClick(view.report.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied == view.report.text.toPlainText()
    assert copied.startswith("Rebel missions, urban environs, game turn 1:")
    assert "G1 (D)" in copied and "G2 (I)" in copied
    assert "Copied" in view.report.caption.text()


def test_a_refused_action_leaves_the_view_as_it_was(open_view, qtbot):
    host, view = open_view("b1", seed=1)
    before = cells(view.drawn)
    assert view.prompt.act({"verb": "stop", "group": "G9"}) is False
    assert host.refused and cells(view.drawn) == before


def test_every_prompt_kind_gets_worded_buttons():
    view = {"groups": [{"id": "G1", "mission": "D"}]}
    cases = {
        "chit_next": [{"verb": "draw"}, {"verb": "stop", "group": "G1"},
                      {"verb": "heal", "character": "Zina Adora"}],
        "chit_drama": [{"verb": "keep"}, {"verb": "drama"}],
        "chit_drama_bid": [{"verb": "bid", "choice": "harder_for_them"},
                           {"verb": "bid", "choice": "easier_for_me"}],
        "chit_immunity": [{"verb": "ignore"}, {"verb": "accept"}],
        "chit_enemy_loss": [{"verb": "lose_unit"}, {"verb": "pdb_down"}],
        "chit_medical_aid": [{"verb": "heal", "character": "Zina Adora"}, {"verb": "later"},
                             {"verb": "none"}],
        "chit_accident": [{"verb": "wound", "character": "Zina Adora"}],
    }
    for kind, legal in cases.items():
        pending = {"kind": kind, "chit": "U-31", "holder": "Oneste Woada"}
        rows = chit_choices(pending, legal, view)
        actions = [a for _, items in rows for _, a in items]
        labels = [label for _, items in rows for label, _ in items]
        assert actions == legal, kind
        assert all(label and "verb" not in label for label in labels), (kind, labels)
    rows = dict(chit_choices({"kind": "chit_next"}, cases["chit_next"], view))
    assert rows["Stop drawing:"][0][0] == "Stop G1 (D)"
    assert rows["Medical Aid! heals:"][0][0] == "Zina Adora"


def test_view_of_reads_a_view_or_a_presentation_board():
    game = get_game("freedom")
    state = Session.new(game, "b1", 1).state
    view = game.view(state, "phasing")
    assert view_of(view) is view
    assert view_of({"kind": "chit-mug", "seat": "phasing", "view": view}) is view
    assert view_of(None) is None


def test_screenshot_mid_play(open_view, qtbot, tmp_path):
    """The picture for the docs: b1 with four chits drawn, the next draw waiting."""
    from PySide6.QtGui import QFont

    from struggle_desktop.ui.map.render import ensure_fonts

    ensure_fonts()
    app = QApplication.instance()
    font = app.font()
    app.setFont(QFont("DejaVu Sans", 10))      # the program's font (ui/app.py)
    try:
        host, view = open_view("b1", seed=6)
        while len(host.state["drawn"]) < 4:
            legal = host.game.legal_actions(host.state, host.role())
            # Medical Aid! is kept for later, so that it shows as waiting.
            click(qtbot, view, next(a for a in ({"verb": "later"}, {"verb": "draw"}, legal[0])
                                    if a in legal))
        assert host.state["outcome"] is None
        qtbot.wait(50)
    finally:
        app.setFont(font)
    image = view.grab().toImage()
    assert (image.width(), image.height()) == (1200, 800)
    path = tmp_path / "freedom-chits.png"
    assert image.save(str(path))
    if SHOTS:
        assert image.save(str(Path(SHOTS) / "freedom-chits.png"))
