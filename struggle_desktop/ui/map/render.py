"""Drawing the map offscreen: PNG and PDF export, and the ``render`` command.

``render_image`` builds the very scene the window shows (scene.py) and paints it into an image
of the asked size: the whole galaxy fitted and centred, the sky filling the rest. Text is
drawn in the bundled DejaVu Sans, so a render looks the same on every machine.
"""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path

from PySide6.QtCore import QMarginsF, QRectF, QSizeF, Qt
from PySide6.QtGui import (
    QImage,
    QPageLayout,
    QPageSize,
    QPainter,
    QPdfWriter,
)

from struggle_desktop.ui.map.fonts import ensure_fonts

def _source_rect(scene, target: QRectF, margin: float = 8.0) -> QRectF:
    """The part of the scene to draw: the map with a little sky, widened to the target's
    shape so the sky (not blank paper) fills the sides."""
    rect = scene.map_rect().adjusted(-margin, -margin, margin, margin)
    aspect = target.width() / target.height()
    if rect.width() / rect.height() < aspect:
        grow = rect.height() * aspect - rect.width()
        rect.adjust(-grow / 2, 0, grow / 2, 0)
    else:
        grow = rect.width() / aspect - rect.height()
        rect.adjust(0, -grow / 2, 0, grow / 2)
    return rect


def paint_scene(scene, painter: QPainter, target: QRectF) -> None:
    """Draw the map into ``target`` straight from vectors (the items' device caches would
    only cost time in a one-shot drawing, and would put pictures instead of vectors in a
    PDF). What only the pointer put on the map (the selection's outline, a hover mark) is
    left out of the picture and shown again after it."""
    painter.setRenderHints(QPainter.RenderHint.Antialiasing
                           | QPainter.RenderHint.TextAntialiasing
                           | QPainter.RenderHint.SmoothPixmapTransform)
    caching = getattr(scene, "_caching", False)
    if caching:
        scene.set_item_caching(False)
    quiet = scene.without_pointer_marks() if hasattr(scene, "without_pointer_marks") \
        else nullcontext()
    try:
        with quiet:
            scene.render(painter, target, _source_rect(scene, target),
                         Qt.AspectRatioMode.IgnoreAspectRatio)
    finally:
        if caching:
            scene.set_item_caching(True)


def scene_image(scene, size: tuple[int, int]) -> QImage:
    width, height = int(size[0]), int(size[1])
    image = QImage(width, height, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.black)
    painter = QPainter(image)
    try:
        paint_scene(scene, painter, QRectF(0, 0, width, height))
    finally:
        painter.end()
    return image


def render_image(layout: dict, board: dict | None, size=(1600, 1000)) -> QImage:
    """The map of ``board`` (or the empty map) as an image of ``size`` pixels."""
    ensure_fonts()
    from struggle_desktop.ui.map.scene import GalaxyScene

    scene = GalaxyScene(layout)
    if board is not None:
        scene.show_board(board)
    return scene_image(scene, size)


def export_png(scene, path: str | Path, size: tuple[int, int] | None = None) -> bool:
    """Save the map as a PNG; by default 2400 pixels square, sharp enough to print."""
    return scene_image(scene, size or (2400, 2400)).save(str(path), "PNG")


def export_pdf(scene, path: str | Path) -> None:
    """The map on one square 400 mm page, as vectors (text stays text)."""
    writer = QPdfWriter(str(path))
    writer.setPageLayout(QPageLayout(QPageSize(QSizeF(400, 400), QPageSize.Unit.Millimeter,
                                               "Galaxy map"),
                                     QPageLayout.Orientation.Portrait, QMarginsF(0, 0, 0, 0)))
    writer.setResolution(300)
    writer.setTitle("Struggle for the Galactic Empire: the galaxy")
    writer.setCreator("struggle_desktop")
    painter = QPainter(writer)
    try:
        paint_scene(scene, painter, QRectF(0, 0, writer.width(), writer.height()))
    finally:
        painter.end()


__all__ = ["ensure_fonts", "export_pdf", "export_png", "render_image"]
