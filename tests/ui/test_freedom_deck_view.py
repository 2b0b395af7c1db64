"""The Freedom events-deck view (FIG-EVT) driven through its own buttons and forms: a stand-in
window performs each action on a real Session and refreshes the view with the acting side's
view and legal actions, as the Freedom window does. The track and the counters on screen are
checked against the state, and nothing hidden from the side on screen is ever shown."""

from __future__ import annotations

import os
import re
from itertools import combinations
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QLabel, QListWidget,
                               QPlainTextEdit, QTabWidget)

from struggle_desktop.games.freedom.deck import THIEF_TARGETS
from struggle_desktop.ui.freedom.deck_view import DeckView
from tests.ui.freedom_standin import StandIn, open_mode_view

SHOTS = os.environ.get("STRUGGLE_DESKTOP_SHOTS")
SIDES = ("rebel", "imperial")


@pytest.fixture
def open_view(qtbot):
    def make(scenario="c1", seed=1, options=None, wrap=False):
        return open_mode_view(qtbot, DeckView, scenario, seed, options, wrap=wrap,
                              checks=(check_private, check_track), idle_role="rebel",
                              log_when_wrapped=False)
    return make


# ====================================================================== reading the screen
def shown_texts(view: DeckView) -> list[str]:
    """Every text the view shows: labels, buttons, lists, combos, the report and the log
    (controls of an answered prompt, hidden and waiting to be deleted, are not shown)."""
    out = []

    def visible(kind):
        return [w for w in view.findChildren(kind) if w.isVisibleTo(view)]
    out += [w.text() for w in visible(QLabel)]
    out += [w.text() for w in visible(QAbstractButton)]
    for w in visible(QListWidget):
        out += [w.item(i).text() for i in range(w.count())]
    for w in visible(QComboBox):
        out += [w.itemText(i) for i in range(w.count())]
    # The report and log tabs count whichever tab is in front.
    out += [w.toPlainText() for w in view.findChildren(QPlainTextEdit)]
    for w in visible(QTabWidget):
        out += [w.tabText(i) for i in range(w.count())]
    return out


def named(card: str, texts: list[str]) -> bool:
    """Whether ``card`` (G#1, not G#19) is named in any of ``texts``."""
    pattern = re.compile(rf"(?<![\w#]){re.escape(card)}(?!\d)")
    return any(pattern.search(t) for t in texts)


def list_texts(widget: QListWidget) -> list[str]:
    return [widget.item(i).text() for i in range(widget.count())]


def check_private(host: StandIn, role: str) -> None:
    """Nothing the side on screen may not see is shown: the cards in the decks and the
    removed ones, both secret decks, the other side's hand (but its historic cards) and the
    other side's private log entries."""
    state = host.state
    places = state["places"]
    hidden = set(places["g_deck"]) | set(places["m_deck"]) | set(places["removed"])
    for side in SIDES:
        if side != role:
            hidden |= set(places["secret_decks"][side])
            hidden |= {c for c in places["hands"][side] if not c.startswith("H#")}
    # A side's own secret deck is face-down too, but the side has seen the cards it drew
    # and put back (FIG-EVT-12): only the ones it never drew count.
    own = set(places["secret_decks"].get(role, []))
    own -= set((state.get("pending") or {}).get("cards", []))
    for e in state["log"]:
        if e.get("private") == role:
            own = {c for c in own if not named(c, [e["text"]])}
    hidden |= own
    for box in ("new", "due"):
        hidden |= {e["card"] for e in places[box] if not e["up"]}
    # A card hidden now may have been seen before (played, then back in a hand by a manual
    # move): only cards never shown to anybody count. In these tests none comes back.
    seen = {e["card"] for box in ("new", "due") for e in places[box] if e["up"]}
    seen |= set(places["discard"]) | set(places["lasting"]) | set(places["retired"])
    # H#2 and H#3 go face-down on top of the G deck at set-up for all to know (FIG-EVT-3).
    seen |= {"H#2", "H#3"}
    texts = shown_texts(host.view)
    leaks = sorted(c for c in hidden - seen if named(c, texts))
    assert not leaks, f"the {role} sees {leaks}"
    for e in state["log"]:
        if e.get("private") not in (None, role):
            assert not any(e["text"] in t for t in texts), e["text"]


def check_track(host: StandIn, role: str) -> None:
    """The counts and places on screen are the state's."""
    view, state = host.view, host.state
    places = state["places"]
    decks = view.decks.text()
    assert f"G deck: {len(places['g_deck'])} cards" in decks
    assert f"M deck: {len(places['m_deck'])} cards" in decks
    assert f"Removed unseen: {len(places['removed'])}" in decks
    for box, widget in (("new", view.new), ("due", view.due)):
        lines = widget.texts()
        assert len(lines) == len(places[box])
        assert widget.title().endswith(f"({len(places[box])})")
        for line, e in zip(lines, places[box]):
            if e["up"]:
                assert e["card"] in line
            else:
                assert "face-down" in line
    assert len(view.discard.texts()) == len(places["discard"])
    assert [t.split()[0] for t in view.lasting.texts()] == places["lasting"]
    assert [t.split()[0] for t in view.historic.texts()] == places["historic"]
    for side in SIDES:
        facts = view.sides[side].facts.text()
        assert f"General Research: {state['general_research'][side]}" in facts
        assert f"Secret deck: {len(places['secret_decks'][side])} cards" in facts
        assert ("First Right" in facts) == (state["first_right"] == side)
        hand = list_texts(view.sides[side].hand)
        if side == role:
            assert [t.split()[0] for t in hand] == places["hands"][side]
        else:
            assert f"Hand: {len(places['hands'][side])} card(s), hidden" in \
                view.sides[side].hand_label.text()
            assert [t.split()[0] for t in hand] == [c for c in places["hands"][side]
                                                     if c.startswith("H#")]
    assert f"game turn {state['turn']}" in view.header.text()


def click(qtbot, view: DeckView, action: dict) -> None:
    button = view.prompt.find(action)
    assert button is not None, (action, [a for a, _ in view.prompt.buttons])
    assert button.isVisible() and button.isEnabled()
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def choose_in_combo(qtbot, view: DeckView, action: dict) -> None:
    for combo, button in view.prompt.choices:
        for i in range(combo.count()):
            if combo.itemData(i) == action:
                combo.setCurrentIndex(i)
                qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
                return
    raise AssertionError(f"no form offers {action}")


# ====================================================================== C1 as the script says
C1_SCRIPT = {
    # (turn, prompt kind, side): the answer; everything else is OK / done / the first card.
    (4, "deck_play", "rebel"): {"verb": "pass"},
    (4, "deck_play", "imperial"): {"verb": "play", "card": "IS#4"},
    (5, "deck_play", "rebel"): {"verb": "play", "card": "RS#1"},
    (5, "deck_contest", "imperial"): {"verb": "contest"},
    (5, "deck_forced_play", "imperial"): {"verb": "play", "card": "IS#2"},
    (6, "deck_play", "rebel"): {"verb": "pass"},
    (6, "deck_play", "imperial"): {"verb": "pass"},
    (7, "deck_play", "rebel"): {"verb": "play", "card": "RS#5"},
}


def play_c1(qtbot, host: StandIn, view: DeckView, until=None) -> list[tuple]:
    met = []
    while host.state["outcome"] is None:
        pending = host.state["pending"]
        key = (host.state["turn"], pending["kind"], pending["role"])
        met.append(key)
        if until is not None and until(key):
            return met
        legal = host.game.legal_actions(host.state, pending["role"])
        action = C1_SCRIPT.get(key)
        if action is None:
            action = next((a for a in ({"verb": "ok"}, {"verb": "done"}) if a in legal),
                          legal[0])
        assert action in legal, (key, action, legal)
        click(qtbot, view, action)
        assert len(met) < 200
    return met


def test_c1_from_set_up_to_report_through_the_buttons(open_view, qtbot):
    host, view = open_view("c1", seed=1)
    assert "game turn 1 of 7" in view.header.text()
    met = play_c1(qtbot, host, view)
    kinds = {k for _, k, _ in met}
    assert {"deck_card", "deck_between", "deck_keep_secret", "deck_play", "deck_contest",
            "deck_forced_play"} <= kinds
    state = host.state
    places = state["places"]
    # C1's expected state after turn 7 (rules-freedom.md section 6), as the players see it.
    assert [e["card"] for e in places["new"]] == ["G#5"]
    assert [e["card"] for e in places["due"]] == ["RS#5"]
    assert sorted(places["discard"]) == ["G#19", "M#14", "M#2"]
    assert places["lasting"] == ["H#1", "H#3", "H#2", "IS#4", "IS#2"]
    assert state["first_right"] == "imperial"
    assert places["hands"]["rebel"] == ["RS#1"] and len(places["hands"]["imperial"]) == 1
    assert view.new.texts()[0].startswith("G#5 Space Whale Migrations (")
    assert view.due.texts() == ["RS#5 Ardorat Free Fleet allies with Rebels "
                                "(played by the Rebel)"]
    assert sorted(t.split()[0] for t in view.discard.texts()) == ["G#19", "M#14", "M#2"]
    assert "holds the First Right" in view.sides["imperial"].facts.text()
    assert "General Research: 0" in view.sides["imperial"].facts.text()
    # The end: no controls, the report with every change.
    assert view.prompt.buttons == [] and "finished" in view.prompt.text.text()
    report = view.report.text.toPlainText()
    for entry in state["outcome"]:
        assert entry["text"] in report
    assert "the imperial spends 1 General Research to contest" in report


def test_the_other_sides_prompt_is_named_not_shown(open_view, qtbot):
    host, view = open_view("c1", seed=1)
    play_c1(qtbot, host, view, until=lambda key: key == (4, "deck_play", "imperial"))
    # The imperial decides, but the rebel still sits at the screen.
    host.seat = "rebel"
    host.refresh()
    assert view.prompt.buttons == [] and view.prompt.choices == []
    assert view.prompt.text.text() == "The Imperial decides now."
    assert list_texts(view.sides["rebel"].hand)[0].startswith("RS#1")
    assert "Hand: 3 card(s), hidden" in view.sides["imperial"].hand_label.text()
    # Handed over: the imperial sees its own cards and its buttons.
    host.seat = None
    host.refresh()
    assert view.prompt.find({"verb": "play", "card": "IS#4"}).text() == \
        "Play IS#4 Galactic Games"
    assert "Hand: 2 card(s), hidden" in view.sides["rebel"].hand_label.text()


def test_manual_moves_between_segments(open_view, qtbot):
    host, view = open_view("c1", seed=1)
    play_c1(qtbot, host, view, until=lambda key: key[1:] == ("deck_between", "rebel"))
    click(qtbot, view, {"verb": "adjust", "counter": "general_research", "by": 5})
    assert host.state["general_research"]["rebel"] == 5
    click(qtbot, view, {"verb": "adjust", "counter": "force_points", "by": 1})
    assert host.state["force_points"]["rebel"] == 1
    assert "Force points: +1" in view.sides["rebel"].facts.text()
    choose_in_combo(qtbot, view, {"verb": "take_historic", "card": "H#4"})
    assert "H#4" in host.state["places"]["hands"]["rebel"]
    assert list_texts(view.sides["rebel"].hand)[-1] == "H#4 Fringe-People Alliance"
    click(qtbot, view, {"verb": "done"})
    # The imperial's turn: the rebel's historic card is shown to him, its secret ones are not.
    assert host.state["pending"]["role"] == "imperial"
    assert list_texts(view.sides["rebel"].hand) == ["H#4 Fringe-People Alliance"]
    click(qtbot, view, {"verb": "done"})
    play_c1(qtbot, host, view, until=lambda key: key[1:] == ("deck_between", "rebel")
            and host.state["places"]["lasting"])
    card = host.state["places"]["lasting"][0]
    choose_in_combo(qtbot, view, {"verb": "retire", "card": card})
    assert host.state["places"]["retired"] == [card]
    assert view.retired.isVisible() and view.retired.texts()[0].startswith(card)
    click(qtbot, view, {"verb": "finish"})
    assert host.state["outcome"] is not None
    assert "the rebel ends the events manager" in view.log.toPlainText()


def test_thief_and_planet_count_forms(open_view, qtbot):
    """M#1's possessions and M#30's planets are small forms; the answer sent is the legal one
    the form describes."""
    host, view = open_view("c1", seed=1)
    sent = []
    host.perform = lambda action: sent.append(action) or True
    board = host.game.view(host.state, "rebel")
    board["pending"] = {"kind": "deck_m1_held", "role": "rebel", "rule": "FIG-EVT-18",
                        "text": "M#1 Thief!: which possessions does the Rebel hold?"}
    legal = [{"verb": "held", "possessions": list(c)} for n in range(4)
             for c in combinations(THIEF_TARGETS, n)]
    view.refresh(board, legal)
    assert [b.text() for b in view.m1_boxes] == list(THIEF_TARGETS)
    view.m1_boxes[2].setChecked(True)
    view.m1_boxes[1].setChecked(True)
    qtbot.mouseClick(view.m1_button, Qt.MouseButton.LeftButton)
    assert sent == [{"verb": "held", "possessions": ["Charsot", "Cache of Rare Gems"]}]
    board["pending"] = {"kind": "deck_count", "role": "rebel", "rule": "FIG-EVT-22",
                        "text": "M#30: how many Ancore planets does the rebel control?"}
    view.refresh(board, [{"verb": "count", "planets": n} for n in range(7)])
    assert (view.count_spin.minimum(), view.count_spin.maximum()) == (0, 6)
    view.count_spin.setValue(2)
    qtbot.mouseClick(view.count_button, Qt.MouseButton.LeftButton)
    assert sent[-1] == {"verb": "count", "planets": 2}


def test_a_presentation_board_without_log(open_view, qtbot):
    host, view = open_view("c1", seed=1, wrap=True)
    assert not view.tabs.isTabVisible(1)          # the window's own log panel shows it
    play_c1(qtbot, host, view, until=lambda key: key[0] == 3)
    assert "Galactic Events Track — game turn 3" in view.header.text()


def test_copy_puts_the_report_on_the_clipboard(open_view, qtbot):
    host, view = open_view("c1", seed=1)
    play_c1(qtbot, host, view)
    QApplication.clipboard().clear()
    qtbot.mouseClick(view.report.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert copied == view.report.text.toPlainText()
    assert copied.startswith("Galactic events, turns up to 7:")
    assert "Turn 7: the rebel plays RS#5" in copied


def test_screenshot_mid_play(open_view, qtbot, tmp_path):
    """The picture for the docs: turn 5 of C1, the Imperial asked whether he contests the
    Rebel's play, the G#19 stack in the New box with its hidden Major card."""
    from PySide6.QtGui import QFont

    from struggle_desktop.ui.map.render import ensure_fonts

    ensure_fonts()
    app = QApplication.instance()
    font = app.font()
    app.setFont(QFont("DejaVu Sans", 10))      # the program's font (ui/app.py)
    try:
        host, view = open_view("c1", seed=1)
        play_c1(qtbot, host, view, until=lambda key: key == (5, "deck_contest", "imperial"))
        qtbot.wait(50)
    finally:
        app.setFont(font)
    image = view.grab().toImage()
    assert (image.width(), image.height()) == (1200, 800)
    assert image.save(str(tmp_path / "freedom-deck.png"))
    if SHOTS:
        assert image.save(str(Path(SHOTS) / "freedom-deck.png"))
