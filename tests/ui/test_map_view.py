"""The map view (zoom, pan, centring) and the overview."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from struggle_desktop.engine.session import Session
from struggle_desktop.ui.map.overview import OverviewView
from struggle_desktop.ui.map.scene import GalaxyScene
from tests.ui.helpers import shown_view


@pytest.fixture
def scene(qapp, game):
    scene = GalaxyScene(game.map_layout())
    scene.show_board(game.board(Session.new(game, "3", 1).state, "imperial"))
    return scene


@pytest.fixture
def view(qtbot, scene):
    return shown_view(qtbot, scene, 900, 700)


def visible(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


def test_the_default_zoom_shows_the_whole_map(view, scene):
    assert view.zoom == pytest.approx(1.0)
    assert visible(view).contains(scene.map_rect())
    # ... and fills the window's short side with it (not a postage stamp).
    assert scene.map_rect().height() * view.transform().m11() > 0.9 * view.viewport().height()


def test_zoom_in_out_and_reset_change_the_transform(view):
    fitted = view.transform().m11()
    view.zoom_in()
    assert view.transform().m11() == pytest.approx(fitted * 1.25)
    view.zoom_in()
    view.zoom_out()
    assert view.zoom == pytest.approx(1.25)
    view.zoom_reset()
    assert view.transform().m11() == pytest.approx(fitted)
    for _ in range(40):
        view.zoom_in()
    assert view.zoom == pytest.approx(16.0)          # clamped
    view.fit()
    assert view.zoom == pytest.approx(1.0)


def test_the_wheel_zooms_about_the_cursor(view, scene):
    view.zoom_in()
    cursor = view.mapFromScene(scene.sector_center(40))
    before = view.mapToScene(cursor)
    event = QWheelEvent(QPointF(cursor), QPointF(view.viewport().mapToGlobal(cursor)), QPoint(),
                        QPoint(0, 120), Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier,
                        Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(view.viewport(), event)
    assert view.zoom == pytest.approx(1.25 * 1.25)
    after = view.mapToScene(cursor)
    assert (after - before).manhattanLength() < 3      # the point under the cursor stays put


def test_dragging_the_empty_map_pans_without_selecting(qtbot, view, scene):
    view.zoom_in()
    view.zoom_in()
    view.centre_on_sector(1)
    start = view.mapFromScene(scene.geometry[1].label_rect.center())
    h, v = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    viewport = view.viewport()
    with qtbot.assertNotEmitted(scene.sector_clicked):
        QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
        QTest.mouseMove(viewport, start + QPoint(30, 20))
        QTest.mouseMove(viewport, start + QPoint(80, 50))
        QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                           start + QPoint(80, 50))
    assert view.horizontalScrollBar().value() == h - 80
    assert view.verticalScrollBar().value() == v - 50


def test_centre_on_sector(view, scene):
    view.zoom_in()
    view.zoom_in()
    view.centre_on_sector(40)
    centre = view.mapToScene(view.viewport().rect().center())
    assert (centre - scene.sector_center(40)).manhattanLength() < 3


def test_the_overview_frames_the_visible_area_and_recentres_the_main_view(qtbot, view, scene):
    overview = OverviewView(view)
    overview.show()
    qtbot.addWidget(overview)
    qtbot.waitExposed(overview)
    view.zoom_in()
    view.zoom_in()
    assert overview.visible_area() == visible(view)
    target = scene.sector_center(57)
    QTest.mouseClick(overview.viewport(), Qt.MouseButton.LeftButton,
                     Qt.KeyboardModifier.NoModifier, overview.mapFromScene(target))
    centre = view.mapToScene(view.viewport().rect().center())
    assert (centre - target).manhattanLength() < 10   # one overview pixel is ~5 map units
    assert overview.transform().m11() < 0.3            # the whole map, small


# ---------------------------------------------------------------------------- following
def test_the_view_follows_a_chaos_step_callout_off_screen(view, scene):
    view.zoom_in()
    view.zoom_in()
    view.zoom_in()
    view.centre_on_sector(57)
    assert not visible(view).contains(scene.sector_center(12))
    scene.emphasize([12, 18], arrow=(12, 18), text="Chaos force F3 moves from 12 to 18")
    shown = visible(view)
    emphasis = scene.emphasis
    assert shown.contains(emphasis.caption_rect)
    assert shown.contains(emphasis.arrow.boundingRect())
    # Nothing moves when the callout is on screen already.
    h, v = view.horizontalScrollBar().value(), view.verticalScrollBar().value()
    scene.emphasize([12], text="Again")
    assert (view.horizontalScrollBar().value(), view.verticalScrollBar().value()) == (h, v)


# ---------------------------------------------------------------------------- legibility
def text_pixels(view, map_units: float) -> float:
    """On-screen size (pixels) of text that is ``map_units`` high on the map."""
    return map_units * view.transform().m11()


def test_the_first_view_on_a_laptop_screen_can_be_read(qtbot, scene):
    """The map view of the window at 1366x768 is about 556x489 pixels: the whole map there
    draws sector names (9 map units) some 4 pixels high. The first view zooms in until they
    reach 9 (tests/ui/test_map_text.py measures every text); Whole Map still shows it all."""
    from struggle_desktop.ui.map.view import LEGIBLE_SCALE
    view = shown_view(qtbot, scene, 556, 489)
    whole = view.transform().m11()
    assert text_pixels(view, 9) < 5
    view.first_view()
    assert view.transform().m11() == pytest.approx(LEGIBLE_SCALE)
    assert text_pixels(view, 9) >= 9
    # ... about the middle of the galaxy (the Core).
    assert visible(view).contains(scene.sector_center(1))
    centre = view.mapToScene(view.viewport().rect().center())
    assert (centre - scene.map_rect().center()).manhattanLength() < 5
    # The legible first view follows the window's size until the player zooms.
    view.resize(600, 520)
    QApplication.processEvents()
    assert view.transform().m11() == pytest.approx(LEGIBLE_SCALE)
    view.zoom_reset()
    assert view.transform().m11() == pytest.approx(whole, rel=0.1)
    assert visible(view).contains(scene.map_rect())


def test_the_first_view_of_a_large_window_is_the_whole_map(view, scene):
    view.zoom_in()
    view.resize(1400, 1300)
    view.first_view()
    assert view.zoom == pytest.approx(1.0)
    assert visible(view).contains(scene.map_rect())


def test_a_banner_in_the_corner_of_the_map_takes_no_click(qtbot, view, scene):
    view.set_banner("Free placement — drag any counter; press Ctrl+M again to stop")
    banner = view.banner
    assert banner.isVisible() and banner.text().startswith("Free placement")
    assert banner.geometry().topLeft() == QPoint(10, 10)
    assert banner.testAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
    # It stays in its corner while the map pans under it.
    view.zoom_in()
    view.zoom_in()
    view.horizontalScrollBar().setValue(view.horizontalScrollBar().value() + 60)
    view.verticalScrollBar().setValue(view.verticalScrollBar().value() + 40)
    QApplication.processEvents()
    assert banner.geometry().topLeft() == QPoint(10, 10)
    # A click on the banner reaches the map under it (sent to the window, so that Qt
    # itself finds the widget under the pointer).
    view.centre_on_sector(1)
    spot = banner.geometry().center()
    under = scene.sector_at(view.mapToScene(view.viewport().mapFrom(view, spot)))
    assert under != -1
    with qtbot.waitSignal(scene.sector_clicked, timeout=2000) as clicked:
        QTest.mouseClick(view.windowHandle(), Qt.MouseButton.LeftButton,
                         Qt.KeyboardModifier.NoModifier, view.mapTo(view.window(), spot))
    assert clicked.args == [under]
    view.set_banner("")
    assert not banner.isVisible()
