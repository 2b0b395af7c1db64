"""Offscreen rendering of the map: images, PNG and PDF export, the bundled font."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QFontDatabase, QImage, QPainter

from struggle_desktop.engine.session import Session
from struggle_desktop.ui.map.render import (
    _source_rect,
    ensure_fonts,
    export_pdf,
    export_png,
    render_image,
    scene_image,
)
from struggle_desktop.ui.map.scene import GalaxyScene


@pytest.fixture(scope="module")
def layout(game):
    return game.map_layout()


@pytest.fixture(scope="module")
def placed_board(game):
    session = Session.new(game, "3", 1)
    session.perform("imperial", {"verb": "auto_place"})
    return game.board(session.state, "imperial")


def distinct_colours(image: QImage, step: int = 7) -> int:
    return len({image.pixel(x, y) for x in range(0, image.width(), step)
                for y in range(0, image.height(), step)})


def test_the_bundled_font_is_registered(qapp):
    ensure_fonts()
    assert "DejaVu Sans" in QFontDatabase.families()


def test_render_image_has_the_asked_size_and_draws_the_map(qapp, layout, placed_board):
    image = render_image(layout, placed_board, (800, 500))
    assert (image.width(), image.height()) == (800, 500)
    assert distinct_colours(image) > 200          # a picture, not a blank or flat fill
    # The map is centred: the Core's gold rim lies near the middle of the image.
    golden = sum(1 for x in range(340, 460) for y in range(190, 310)
                 if _is_gold(image.pixelColor(x, y)))
    assert golden > 20
    # The sides of a wide image are sky (dark), not blank paper.
    assert all(image.pixelColor(5, y).lightness() < 80 for y in range(0, 500, 25))


def _is_gold(c: QColor) -> bool:
    return c.red() > 180 and c.green() > 150 and c.blue() < 120


def test_the_counters_are_drawn(qapp, layout, placed_board):
    empty = render_image(layout, None, (600, 600))
    full = render_image(layout, placed_board, (600, 600))
    changed = sum(1 for x in range(0, 600, 3) for y in range(0, 600, 3)
                  if empty.pixel(x, y) != full.pixel(x, y))
    assert changed > 2000


def test_rendering_is_deterministic(qapp, layout, placed_board):
    """The star field is seeded: the same board renders to the same pixels."""
    assert render_image(layout, placed_board, (400, 300)) == \
        render_image(layout, placed_board, (400, 300))


def test_export_png_and_pdf(qapp, layout, placed_board, tmp_path):
    scene = GalaxyScene(layout)
    scene.show_board(placed_board)
    png = tmp_path / "map.png"
    assert export_png(scene, png, (640, 640))
    image = QImage(str(png))
    assert (image.width(), image.height()) == (640, 640) and distinct_colours(image) > 200
    pdf = tmp_path / "map.pdf"
    export_pdf(scene, pdf)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 20_000
    assert b"DejaVu" in data            # text went in as text, in the bundled font
    # Exporting leaves the window's scene as it was (its items cache themselves again).
    assert scene.map_layer.cacheMode() == scene.map_layer.CacheMode.DeviceCoordinateCache


def test_exports_leave_out_the_selection_and_keep_it_on_screen(qapp, layout, placed_board,
                                                                tmp_path):
    scene = GalaxyScene(layout)
    scene.show_board(placed_board)

    def as_on_screen() -> QImage:
        """The scene drawn as the view draws it, pointer marks and all."""
        image = QImage(500, 500, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(0)
        painter = QPainter(image)
        painter.setRenderHints(QPainter.RenderHint.Antialiasing
                               | QPainter.RenderHint.TextAntialiasing)
        target = QRectF(0, 0, 500, 500)
        scene.render(painter, target, _source_rect(scene, target))
        painter.end()
        return image

    plain, plain_on_screen = scene_image(scene, (500, 500)), as_on_screen()
    scene.select_sector(40)
    scene.highlight([12], "hover")
    assert as_on_screen() != plain_on_screen          # both are drawn on screen ...
    assert scene_image(scene, (500, 500)) == plain    # ... and neither in the export
    assert export_png(scene, tmp_path / "map.png", (50, 50))
    # The window still shows them after the export.
    assert scene.selected_sector == 40 and scene._selection.isVisible()
    assert scene.highlighted("hover") == {12} and scene.sectors[12].washes == {"hover"}
    assert as_on_screen() != plain_on_screen
