"""Setting up by hand from the tray (SGE-SEQ-21), and the Eliminated box.

A drag from the tray is a platform drag-and-drop (``QDrag``), which an offscreen test cannot
run; the tests send the map's viewport the events such a drag delivers (enter, move, drop),
with the data the tray's drag carries (``piece_mime``), so the map's handling and the
window's answer are the real ones."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QDragEnterEvent, QDragMoveEvent, QDropEvent
from PySide6.QtWidgets import QApplication

from struggle_desktop.ui.docks.eliminated import eliminations
from struggle_desktop.ui.docks.tray import piece_mime
from tests.ui.helpers import struggle_window


@pytest.fixture
def window(qtbot):
    yield from struggle_window(qtbot)


def drop_from_tray(window, piece_id: str, scene_point: QPointF) -> None:
    """Deliver to the map what a drag of ``piece_id`` from the tray delivers."""
    viewport = window.view.viewport()
    at = window.view.mapFromScene(scene_point)
    mime = piece_mime(piece_id)
    buttons, keys = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    move = Qt.DropAction.MoveAction
    QApplication.sendEvent(viewport, QDragEnterEvent(at, move, mime, buttons, keys))
    QApplication.sendEvent(viewport, QDragMoveEvent(at + QPoint(1, 1), move, mime, buttons, keys))
    QApplication.sendEvent(viewport, QDropEvent(QPointF(at), move, mime, buttons, keys))


def test_the_tray_holds_what_set_up_places_and_comes_forward(window):
    assert window.new_game("struggle", "3", 1, {})
    tray = window.tray_dock
    board = window.document.board
    waiting = [p["id"] for p in board["tray"]]
    assert tray.content and tray.piece_ids() == waiting
    assert any(pid.startswith("leader:") for pid in waiting) and "nexus" in waiting
    assert not tray.visibleRegion().isEmpty()        # in front of the tracks it shares
    window.perform({"verb": "auto_place"})
    assert window.document.board["tray"] == [] and tray.piece_ids() == []
    assert not window.ci_dock.visibleRegion().isEmpty()


def test_a_unit_dragged_from_the_tray_is_placed_where_it_is_dropped(window):
    assert window.new_game("struggle", "3", 1, {})
    board = window.document.board
    unit = next(p["id"] for p in board["tray"] if p["kind"] == "unit")
    targets = window.drop_entries(unit)
    sector = sorted(targets)[0]
    drop_from_tray(window, unit, window.scene.sector_center(sector))
    after = window.document.board
    assert after["pieces"][unit]["sector"] == sector
    assert unit not in [p["id"] for p in after["tray"]]


def test_a_leader_goes_onto_the_unit_it_is_dropped_on_and_nexus_markers_onto_systems(window):
    assert window.new_game("struggle", "3", 1, {})
    board = window.document.board
    units = [p["id"] for p in board["tray"] if p["kind"] == "unit"]
    sector = sorted(window.drop_entries(units[0]))[0]
    for uid in units[:2]:
        drop_from_tray(window, uid, window.scene.sector_center(sector))
    leader = next(p["id"] for p in window.document.board["tray"] if p["kind"] == "leader")
    item = window.scene.piece_item(units[1])
    drop_from_tray(window, leader, item.sceneBoundingRect().center())
    led = [uid for uid, u in window.document.state["units"].items() if u["leader"]]
    assert len(led) == 1 and led[0] in item.piece_ids      # a unit of the counter dropped on
    nexus_sectors = sorted(window.drop_entries("nexus"))
    drop_from_tray(window, "nexus", window.scene.sector_center(nexus_sectors[0]))
    assert nexus_sectors[0] in window.document.state["nexus"]


def test_a_drop_where_the_piece_cannot_go_says_why(window):
    assert window.new_game("struggle", "3", 1, {})
    board = window.document.board
    unit = next(p["id"] for p in board["tray"] if p["kind"] == "unit")
    allowed = window.drop_entries(unit)
    refused = next(n for n in sorted(board["sectors"]) if n not in allowed)
    drop_from_tray(window, unit, window.scene.sector_center(refused))
    assert window.document.board["pieces"].get(unit) is None
    assert window.status_text.text().startswith(f"Not possible: {unit} cannot be placed")


def test_the_eliminated_box_lists_the_eliminations_of_the_log():
    entries = [{"kind": "eliminate", "turn": 1, "refs": ["SF-03", "sector:17"],
                "text": "SF-03 eliminated in 17: combat"},
               {"kind": "move", "turn": 1, "refs": ["AF-01"], "text": "AF-01 moves"},
               {"kind": "eliminate", "turn": 2, "refs": ["sector:05", "CG-01"],
                "text": "CG-01 eliminated in 05: event"}]
    rows = eliminations(entries)
    assert [(r["turn"], r["piece"], r["sector"]) for r in rows] == [(2, "CG-01", 5),
                                                                   (1, "SF-03", 17)]


def test_the_eliminated_box_fills_as_a_game_is_played(window):
    assert window.new_game("struggle", "4", 3, {})
    doc = window.document
    window.perform({"verb": "auto_place"})
    for _ in range(200):
        if any(e["kind"] == "eliminate" for e in doc.log_entries(0)):
            break
        action = doc.hint()
        doc.perform(action)
    expected = eliminations(doc.log_entries(0))
    assert expected, "some counter was eliminated"
    window.eliminated_dock.show()
    window.eliminated_dock.raise_()
    panel = window.eliminated_dock
    panel.update_widget()
    assert panel.list.count() == len(expected)
    assert expected[0]["text"] in panel.list.item(0).text()
