"""The Struggle map's text can be read at the first view on a laptop screen: every sector name
and every counter's words are drawn at least 9 pixels tall on screen (the font's pixel size
times the view's scale), at the size of the window's map on a 1366x768 screen (556x487). Once
the whole map was shown there, its sector names some 4 pixels tall, then zoomed to names of
6.75 pixels. The text is measured as it is painted: every prepared text the map draws is
recorded with the font and the painter's transform of that moment."""

from __future__ import annotations

import pytest
from PySide6.QtGui import QImage, QPainter

from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.ui.map.scene import GalaxyScene
from tests.ui.helpers import shown_view

MIN_PX = 9.0
LAPTOP_MAP = (556, 487)         # the map view of the window on a 1366x768 screen


@pytest.fixture(scope="module")
def game():
    return get_game("struggle")


def painted_text(view, monkeypatch) -> list[tuple[str, float]]:
    """(text, on-screen height in pixels) of every text the view paints."""
    drawn = []
    original = QPainter.drawStaticText

    def record(painter, point, prepared):
        scale = painter.worldTransform().m22()
        drawn.append((prepared.text(), painter.font().pixelSize() * abs(scale)))
        return original(painter, point, prepared)

    monkeypatch.setattr(QPainter, "drawStaticText", record)
    image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32)
    painter = QPainter(image)
    view.render(painter)
    painter.end()
    monkeypatch.undo()
    return drawn


def board_scene(game, scenario="3", seed=1):
    scene = GalaxyScene(game.map_layout())
    state = Session.new(game, scenario, seed).state
    scene.show_board(game.board(state, "imperial"))
    return scene


def test_the_first_view_at_1366x768_draws_every_text_at_least_9_px(qtbot, game, monkeypatch):
    scene = board_scene(game)
    view = shown_view(qtbot, scene, *LAPTOP_MAP)
    view.first_view()
    drawn = painted_text(view, monkeypatch)
    names = {geo.name for geo in scene.geometry.values()} if hasattr(scene, "geometry") else set()
    assert drawn, "the map painted no text"
    # Sector names (the words of the labels) are among what is drawn.
    assert any(text in names or any(text in n for n in names) for text, _ in drawn)
    small = sorted({(text, round(px, 2)) for text, px in drawn if px < MIN_PX - 1e-6},
                   key=lambda t: t[1])
    assert small == [], f"text under {MIN_PX} px at the first view: {small[:12]}"


def test_the_first_view_shows_a_good_part_of_the_map_and_whole_map_still_shows_all(qtbot, game):
    """Read at 9 px, the laptop's first view shows a part of the galaxy round the Core (the
    overview shows the rest); Whole Map (Ctrl+0) still fits everything."""
    scene = board_scene(game)
    view = shown_view(qtbot, scene, *LAPTOP_MAP)
    view.first_view()
    seen = view.mapToScene(view.viewport().rect()).boundingRect()
    assert seen.contains(scene.sector_center(1))
    assert seen.width() >= 0.4 * scene.map_rect().width()
    view.zoom_reset()
    assert view.mapToScene(view.viewport().rect()).boundingRect().contains(scene.map_rect())


# ---------------------------------------------------------------------- the tray's counters
def icon_image(item):
    return item.icon().pixmap(48, 48).toImage()


def test_a_leader_and_the_nexus_markers_in_the_tray_look_different(qtbot, monkeypatch):
    """At set-up the Tray holds the Imperial leaders and the Nexus markers. They were drawn
    with one icon (a green flag saying "EXP", an expedition site's): the leader of value 3
    and "Nexus x3" could only be told apart by the name under them. A leader is drawn with
    its value, the Nexus markers as the map's Nexus ("NEX")."""
    from struggle_desktop.ui.docks.tray import PieceRole, piece_icon
    from struggle_desktop.ui.map.counters import paint_piece
    from tests.ui.helpers import struggle_window

    window = next(gen := struggle_window(qtbot))
    try:
        assert window.new_game("struggle", "3", 7, {})
        tray = window.tray_dock
        tray.ensure_widget()
        items = {tray.list.item(r).data(PieceRole): tray.list.item(r)
                 for r in range(tray.list.count())}
        pieces = {p["id"]: p for p in window.document.board["tray"]}
        leaders = [pid for pid in items if pid.startswith("leader:")]
        assert leaders and "nexus" in items
        nexus_icon = icon_image(items["nexus"])
        for pid in leaders:
            assert icon_image(items[pid]) != nexus_icon, f"{pid} looks like the Nexus markers"
        # What each says: the leader its value, the Nexus its name.
        for piece, words in [(pieces[leaders[0]], pieces[leaders[0]]["label"]),
                             (pieces["nexus"], "NEX")]:
            drawn = []
            original = QPainter.drawStaticText
            monkeypatch.setattr(QPainter, "drawStaticText", lambda p, pt, text: (
                drawn.append(text.text()), original(p, pt, text))[1])
            image = QImage(40, 40, QImage.Format.Format_ARGB32)
            painter = QPainter(image)
            painter.translate(20, 20)
            paint_piece(painter, piece)
            painter.end()
            monkeypatch.undo()
            assert words in drawn and "EXP" not in drawn, (piece["id"], drawn)
        # ... and neither looks like an expedition site, whose flag they once both wore.
        site = piece_icon({"id": "site", "kind": "expedition", "label": "Expedition"})
        site_image = site.pixmap(48, 48).toImage()
        assert site_image not in (nexus_icon, icon_image(items[leaders[0]]))
    finally:
        next(gen, None)


# ---------------------------------------------------------------- the real window, 1366x768
#: Run in a child process with a 1366x768 screen; prints the map view's size, its scale and
#: the smallest text it paints at the first view (text, pixels).
PROBE = r"""
import json, sys, tempfile
sys.path.insert(0, sys.argv[1])
from PySide6.QtCore import QSettings
from PySide6.QtGui import QImage, QPainter
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.screens import window_class

app = make_application()
settings = QSettings(tempfile.mkstemp(suffix=".ini")[1], QSettings.Format.IniFormat)
window = window_class("struggle")(settings=settings)
window.show()
window.new_game("struggle", "3", 7, {})
for _ in range(20):
    app.processEvents()
view = window.view
drawn = []
original = QPainter.drawStaticText
def record(painter, point, prepared):
    drawn.append((prepared.text(), painter.font().pixelSize() * abs(painter.worldTransform().m22())))
    return original(painter, point, prepared)
QPainter.drawStaticText = record
image = QImage(view.viewport().size(), QImage.Format.Format_ARGB32)
painter = QPainter(image)
view.render(painter)
painter.end()
QPainter.drawStaticText = original
window.document.dirty = False
window.close()
print(json.dumps({"size": list(view.viewport().size().toTuple()), "scale": view.transform().m11(),
                  "count": len(drawn), "smallest": sorted(drawn, key=lambda t: t[1])[:5]}))
"""


def test_the_windows_map_at_1366x768_draws_every_text_at_least_9_px(tmp_path):
    """The real window on a 1366x768 screen (a process of its own: the offscreen screen's
    size is fixed when the application starts), its map as it first opens."""
    from conftest import run_on_screen

    found = run_on_screen(PROBE, tmp_path)
    width, height = found["size"]
    assert width <= 700 and height <= 600, f"the map is {width}x{height}: not a laptop's"
    assert found["count"] > 50, "the map painted little text"
    assert found["smallest"][0][1] >= MIN_PX - 1e-6, found["smallest"]


def test_the_whole_map_on_a_laptop_shows_every_sector_number_at_least_9_px(qtbot, game,
                                                                           monkeypatch):
    """Whole Map (Ctrl+0) on a laptop once drew every label some 4 pixels tall: now each
    sector's number alone, grown to be read (its name is in the tooltip and the Stack
    panel)."""
    scene = board_scene(game)
    view = shown_view(qtbot, scene, *LAPTOP_MAP)
    view.zoom_reset()
    drawn = painted_text(view, monkeypatch)
    numbers = {f"{n:02d}" for n in scene.geometry}
    sizes = {text: px for text, px in drawn if text in numbers}
    assert set(sizes) == numbers
    assert min(sizes.values()) >= MIN_PX - 1e-6, sorted(sizes.items(), key=lambda t: t[1])[:5]
    names = {geo.name for geo in scene.geometry.values()}
    assert not [text for text, px in drawn if text in names and px < 6]
