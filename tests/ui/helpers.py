"""Small helpers shared by the window tests."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from struggle_desktop.ui.map.view import MapView


def shown_view(qtbot, scene, width: int, height: int) -> MapView:
    """A map view on ``scene``, shown at the default (whole-map) zoom."""
    view = MapView(scene)
    view.resize(width, height)
    view.show()
    qtbot.waitExposed(view)
    view.zoom_reset()
    qtbot.addWidget(view)
    return view


def drag(qtbot, view, item, target_scene_point):
    """Press on ``item``, move in steps and release over ``target_scene_point`` (scene
    coordinates), as a mouse would on the view's viewport."""
    viewport = view.viewport()
    start_point = view.mapFromScene(item.sceneBoundingRect().center())
    end_point = view.mapFromScene(target_scene_point)
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start_point)
    QTest.mouseMove(viewport, start_point + QPoint(6, 6))
    QTest.mouseMove(viewport, (start_point + end_point) / 2)
    QTest.mouseMove(viewport, end_point)
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, end_point)
    qtbot.wait(20)
