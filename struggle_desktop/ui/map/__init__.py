"""The galaxy map: the scene (sky, sectors, counters, highlights), the view (zoom and pan), an
overview, and offscreen rendering for export and the ``render`` command.

Modules are imported where they are used, so importing this package costs nothing; the names
below are the package's interface.
"""

__all__ = [
    "GalaxyScene",
    "MapView",
    "OverviewView",
    "ensure_fonts",
    "export_pdf",
    "export_png",
    "render_image",
]


def __getattr__(name: str):
    if name == "GalaxyScene":
        from struggle_desktop.ui.map.scene import GalaxyScene
        return GalaxyScene
    if name == "MapView":
        from struggle_desktop.ui.map.view import MapView
        return MapView
    if name == "OverviewView":
        from struggle_desktop.ui.map.overview import OverviewView
        return OverviewView
    if name in ("render_image", "export_png", "export_pdf", "ensure_fonts"):
        from struggle_desktop.ui.map import render
        return getattr(render, name)
    raise AttributeError(name)
