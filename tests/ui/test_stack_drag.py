"""Dragging a whole stack: Shift held when a counter is picked up moves every unit of its
sector that can go along (the movement prompt's "move the stack" answer), as one drag."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.ui.helpers import struggle_window


@pytest.fixture
def window(qtbot):
    yield from struggle_window(qtbot, size=(1600, 1000))


def shift_drag(qtbot, view, item, target_point) -> None:
    viewport = view.viewport()
    shift = Qt.KeyboardModifier.ShiftModifier
    start = view.mapFromScene(item.sceneBoundingRect().center())
    end = view.mapFromScene(target_point)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, shift, start)
    QTest.mouseMove(viewport, start + QPoint(6, 6))
    QTest.mouseMove(viewport, (start + end) / 2)
    QTest.mouseMove(viewport, end)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, shift, end)
    qtbot.wait(20)


def test_shift_drag_moves_the_whole_stack(window, qtbot):
    assert window.new_game("struggle", "3", 1, {})
    doc = window.document
    window.perform({"verb": "auto_place"})
    for _ in range(300):
        prompt = doc.board["prompt"]
        if prompt and prompt["kind"] == "movement" and any(
                e["action"]["verb"] == "move_stack" for e in prompt["actions"]):
            break
        doc.perform(doc.hint())
    stacks = [e["action"] for e in doc.board["prompt"]["actions"]
              if e["action"]["verb"] == "move_stack"]
    assert stacks, "a movement prompt offers to move a stack"
    move = stacks[0]
    source, target = move["from"], move["to"]
    movers = [uid for uid, u in doc.state["units"].items()
              if u["loc"] == source and u["side"] == "imp"]
    item = next(i for i in window.scene.counter_items()
                if i.sector == source and set(i.piece_ids) & set(movers))
    shift_drag(qtbot, window.view, item, window.scene.sector_center(target))
    last = doc.session.actions[-1]["action"]
    assert last == move
    moved = [uid for uid in movers if doc.state["units"][uid]["loc"] == target]
    assert len(moved) >= 2 or len(moved) == len(movers)
