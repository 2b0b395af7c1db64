"""A drag is not a click: on the Battles table a fleet that may not move now, dragged and let
go over a region whose fight may be resolved, resolved that fight, as a click on the region
does (the scene takes any release over a region for a click, however far the pointer went).
Found by the steady-table walk (``steady_refusals``), which therefore drops such fleets
only where no click answers. A refused drag must play nothing and say why."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from struggle_desktop.ui.battles.window import BattlesWindow
from tests.ui.helpers import window_maker
from tests.ui.steadiness import answer
from tests.ui.steady_refusals import drag


@pytest.fixture
def make_window(qtbot):
    yield from window_maker(qtbot, BattlesWindow)


def until_a_fight_may_be_resolved(win, limit: int = 300) -> list[int]:
    """Blue (the seat) against the program, the walk's answers, until blue may choose the
    region to resolve; returns those regions."""
    doc = win.document
    for _ in range(limit):
        QApplication.processEvents()
        if win.overlay.isVisible():
            win.take_seat()
        role = doc.waiting_role
        assert role is not None, "the game ended before a fight could be resolved"
        if role != doc.seat:
            win.program_step()
            continue
        regions = [a["region"] for a in win.prompt_actions() if a["verb"] == "resolve"]
        if regions:
            return regions
        assert win.perform(answer(doc.session, role))
    raise AssertionError("no fight to resolve")


def test_a_fleet_that_may_not_move_dragged_onto_a_region_plays_nothing(make_window):
    win = make_window()
    assert win.new_game("battles", "civil-war", 1, {"blue_player": "human",
                                                     "red_player": "bot"})
    win.program.step_ms = 10 ** 8        # the test steps the program itself
    regions = until_a_fight_may_be_resolved(win)
    fleet = next(f for f in sorted(win.scene.counters)
                 if win.document.board["fleets"][f]["owner"] == "blue"
                 and not win.draggable(f))
    played = len(win.document.session.actions)
    win.show_message("")
    drag(win.view, win.scene.counters[fleet].sceneBoundingRect().center(),
         win.scene.region_rects[regions[0]].center())
    QApplication.processEvents()
    assert len(win.document.session.actions) == played, "the drag resolved a fight"
    assert win.status_text.text(), "the refused drag said nothing"
