"""Small helpers shared by the window tests."""

from __future__ import annotations

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
