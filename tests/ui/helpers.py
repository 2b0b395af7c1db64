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


def window_maker(qtbot, window_class, size=(1600, 1000), before_close=None):
    """The body of a ``make_window`` fixture (``yield from window_maker(qtbot, Cls)``):
    ``make()`` opens a shown window of ``size``; at the end of the test every window made
    closes without asking to save. Not ``qtbot.addWidget``: it would close the window before
    ``dirty`` is cleared, and the "save first?" question would wait for a click."""
    made = []

    def make():
        win = window_class()
        made.append(win)
        win.resize(*size)
        win.show()
        qtbot.waitExposed(win)
        return win
    yield make
    for win in made:
        if before_close is not None:
            before_close(win)
        win.document.dirty = False
        win.close()
        win.deleteLater()
