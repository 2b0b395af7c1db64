"""A counter that may not move now, dragged, stays where it is and the status bar says why
(as on the Struggle map), in the game's words; on the Battles table a click on a region that
may not be resolved says why too, and a drag is never taken for a click. Each was seen
failing before: the fleet or jumpship went back without a word, the click did nothing and
said nothing, a drag across the table from one region to another resolved the second."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QApplication

from struggle_desktop.ui.battles.scene import CounterItem
from struggle_desktop.ui.battles.window import BattlesWindow
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui import test_battles_window as battles
from tests.ui import test_nobles_window as nobles
from tests.ui.helpers import window_maker
from tests.ui.steady_refusals import click, drag


@pytest.fixture
def make_battles(qtbot):
    yield from window_maker(qtbot, BattlesWindow)


@pytest.fixture
def make_nobles(qtbot):
    yield from window_maker(qtbot, NoblesWindow, before_close=nobles.pause_program)


def bare_point(scene, n: int) -> QPointF:
    """A point of region ``n`` with no counter on it."""
    rect = scene.region_rects[n]
    for dx in range(8, int(rect.width()), 12):
        for dy in range(8, int(rect.height()), 12):
            at = QPointF(rect.left() + dx, rect.top() + dy)
            if not any(isinstance(i, CounterItem) for i in scene.items(at)):
                return at
    raise AssertionError(f"region {n} is covered with counters")


def said(win, gesture) -> str:
    """Make ``gesture``: nothing may be played; returns what the status bar says."""
    played = len(win.document.session.actions)
    win.show_message("")
    gesture()
    QApplication.processEvents()
    assert len(win.document.session.actions) == played, "the gesture played an answer"
    return win.status_text.text()


def test_battles_the_other_sides_fleet_dragged_while_deploying_says_whose_it_is(make_battles):
    """BFG-DEP-1: Blue deploys Blue's fleets; Red's, dragged onto a region, stays and the
    status bar says whose fleet it is."""
    win = make_battles()
    battles.start(win)
    assert battles.play_until(win, battles.waiting("deploy"))
    scene = win.scene
    red = next(f for f in sorted(scene.counters)
               if win.document.board["fleets"][f]["owner"] == "red" and not win.draggable(f))
    home = scene.counters[red].pos()
    text = said(win, lambda: drag(win.view, scene.counters[red].sceneBoundingRect().center(),
                                  scene.region_rects[2].center()))
    assert text == f"Not possible: {red} is Red's fleet, not Blue's"
    assert red not in win.document.board["players"]["blue"]["plan"]
    assert scene.counters[red].pos() == home


def test_battles_a_fleet_dragged_when_none_moves_says_what_is_asked(make_battles):
    """BFG-ACT-3: in the Actions phase no fleet is dragged; the status bar says so, with the
    question, and how a region is resolved."""
    win = make_battles()
    battles.start(win)
    assert battles.play_until(win, battles.waiting("action"))
    scene = win.scene
    fleet = next(f for f in sorted(scene.counters)
                 if win.document.board["fleets"][f]["owner"] == "blue")
    prompt = win.document.board["prompt"]["text"]
    text = said(win, lambda: drag(win.view, scene.counters[fleet].sceneBoundingRect().center(),
                                  scene.counters[fleet].sceneBoundingRect().center()
                                  + QPointF(0, 60)))
    assert text == (f"Not possible: no fleet is dragged now ({prompt}); click a region to "
                    "resolve it, or answer in the Decision panel")


def test_battles_a_resolved_region_clicked_says_so_and_a_drag_is_no_click(make_battles):
    """BFG-ACT-4: while a region to resolve is asked, a click on one resolved this turn says
    so; a drag across the bare table from it onto a region that may be resolved resolves
    nothing."""
    win = make_battles()
    battles.start(win)

    def one_resolved(w):
        return battles.waiting("action")(w) and any(
            r["resolved"] for r in w.document.state["regions"].values())
    assert battles.play_until(win, one_resolved)
    win.close_finished_fight()
    QApplication.processEvents()
    scene = win.scene
    assert scene.battle_rect is None
    resolvable = {a["region"] for a in win.prompt_actions() if a["verb"] == "resolve"}
    done = next(n for n in sorted(scene.region_rects) if n not in resolvable)
    name = win.document.game.data.region_names[done]
    text = said(win, lambda: click(win.view, bare_point(scene, done)))
    assert text.startswith(f"Not possible: {name} has been resolved this turn; still to "
                           "resolve: "), text
    target = min(resolvable)
    said(win, lambda: drag(win.view, bare_point(scene, done), bare_point(scene, target)))


def test_nobles_a_jumpship_dragged_outside_the_movement_says_what_is_asked(make_nobles):
    """NH-MOV-13: jumpships move in the Movement phase; dragged while houses recruit, one
    stays and the status bar says no ship jumps now, with the phase and the question."""
    win = make_nobles()
    nobles.start(win, seats=("human", "ai"))
    assert nobles.play_until(win, nobles.seated("recruit"))
    board = win.document.board
    ship = next(u for u in sorted(win.scene.tokens)
                if board["units"][u]["owner"] == board["seat"] and board["units"][u]["is_ship"])
    here = tuple(board["units"][ship]["hex"])
    other = next(tuple(h["hex"]) for h in board["map"]["hexes"] if tuple(h["hex"]) != here)
    token = win.scene.tokens[ship]
    text = said(win, lambda: drag(win.view, token.sceneBoundingRect().center(),
                                  win.scene.centre(other)))
    assert text == (f"Not possible: no ship jumps now ({board['phase_name']}: "
                    f"{board['prompt']['text']})")
    assert tuple(win.document.board["units"][ship]["hex"]) == here


def test_battles_a_click_that_jitters_a_little_is_still_a_click(make_battles):
    """BFG-GAR-1: a fleet clicked to join the garrison, with the pointer moving a few pixels
    between press and release (less than a drag), joins it; on a small table (the view
    scaled down) such a click used to count as a drag of a fleet that may not be dragged,
    and did nothing."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    win = make_battles()
    battles.start(win, seed=1)
    assert battles.play_until(win, lambda w: battles.waiting("garrison")(w) and any(
        a["verb"] == "garrison_add" for a in w.prompt_actions()))
    win.resize(900, 620)
    QApplication.processEvents()
    win.view.fit()
    QApplication.processEvents()
    assert win.view.transform().m11() < 0.8     # 5 pixels are over 6 units of the table
    fleet = next(a["fleet"] for a in win.prompt_actions() if a["verb"] == "garrison_add")
    assert not win.draggable(fleet)
    viewport = win.view.viewport()
    at = win.view.mapFromScene(win.scene.counters[fleet].sceneBoundingRect().center())
    played = len(win.document.session.actions)
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(viewport, left, none, at)
    QTest.mouseMove(viewport, at + QPoint(3, 2))
    QTest.mouseRelease(viewport, left, none, at + QPoint(3, 2))
    QApplication.processEvents()
    assert len(win.document.session.actions) == played + 1
    assert win.document.session.actions[-1]["action"] == {"verb": "garrison_add",
                                                          "fleet": fleet}


def test_nobles_panning_the_map_is_no_click_on_a_hex(make_nobles):
    """A drag on the empty map pans it and selects nothing: the hex under the pointer stays
    the same while the map moves with it, so the release used to count as a click there."""
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    win = make_nobles()
    nobles.start(win, seats=("human", "ai"))
    assert nobles.play_until(win, nobles.seated("recruit"))
    view, scene = win.view, win.scene
    for _ in range(4):
        view.zoom_in()
    QApplication.processEvents()
    win.selected_hex = win.selected_ship = None
    win.redraw()
    port = view.viewport().rect()
    start = next(QPoint(x, y) for y in range(port.height() // 4, port.height(), 7)
                 for x in range(port.width() // 4, port.width(), 7)
                 if scene.hex_key_at(view.mapToScene(QPoint(x, y))) is not None
                 and not any(type(i).__name__ in ("ShipToken", "MoreMark")
                             for i in scene.items(view.mapToScene(QPoint(x, y)))))
    before = view.mapToScene(start)
    viewport = view.viewport()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    QTest.mousePress(viewport, left, none, start)
    for step in range(1, 9):
        QTest.mouseMove(viewport, start - QPoint(12 * step, 8 * step))
    QTest.mouseRelease(viewport, left, none, start - QPoint(96, 64))
    QApplication.processEvents()
    assert (view.mapToScene(start - QPoint(96, 64)) - before).manhattanLength() < 8, \
        "the map did not pan with the pointer"
    assert win.selected_hex is None
