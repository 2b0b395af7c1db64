"""Every board zooms like Struggle's map: Ctrl+wheel about the pointer, Ctrl+plus and
Ctrl+minus, Ctrl+0 fits the whole board to the window again (the Battles table and the Noble
Houses hex map, on real shown windows with a game on them)."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QKeySequence, QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from struggle_desktop.ui.battles.window import BattlesWindow
from struggle_desktop.ui.nobles.window import NoblesWindow
from tests.ui.helpers import NOBLES_TERRAIN, window_maker

BOARDS = {
    "battles": (BattlesWindow, "civil-war", {"blue_player": "human", "red_player": "bot"}),
    "nobles": (NoblesWindow, "standard",
               {"houses": 2, **NOBLES_TERRAIN, "seat1": "human", "seat2": "human"}),
}


def _pause_program(win) -> None:
    program = getattr(win, "program", None)
    if program is not None and hasattr(program, "paused"):
        program.paused = True


@pytest.fixture
def open_board(qtbot):
    """``open_board(game_id)``: a shown, active window of that game with a new game on it,
    its board fitted to the window."""
    makers = []

    def make(game_id: str):
        cls, scenario, options = BOARDS[game_id]
        maker = window_maker(qtbot, cls, size=(1366, 768), before_close=_pause_program)
        makers.append(maker)
        win = next(maker)()
        assert win.new_game(game_id, scenario, 5, dict(options))
        _pause_program(win)
        if win.overlay.isVisible():
            win.take_seat()
        win.activateWindow()
        win.windowHandle().requestActivate()
        qtbot.waitUntil(win.isActiveWindow)
        QApplication.processEvents()        # the fit queued when the board was first shown
        win.view.fit()
        return win
    yield make
    for maker in makers:
        next(maker, None)


def press(win, key: str) -> None:
    QTest.keySequence(win, QKeySequence(key))
    QApplication.processEvents()


def ctrl_wheel(view, at: QPoint, notches: int = 1) -> None:
    """Turn the wheel ``notches`` clicks away from the user with Ctrl held, pointer at ``at``."""
    viewport = view.viewport()
    event = QWheelEvent(QPointF(at), QPointF(viewport.mapToGlobal(at)), QPoint(0, 0),
                        QPoint(0, 120 * notches), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.ControlModifier, Qt.ScrollPhase.NoScrollPhase,
                        False)
    QApplication.sendEvent(viewport, event)
    QApplication.processEvents()


def scale(view) -> float:
    return view.transform().m11()


def whole_board_shown(view) -> bool:
    shown = view.mapToScene(view.viewport().rect()).boundingRect()
    return shown.adjusted(-1, -1, 1, 1).contains(view.scene().map_rect())


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_ctrl_wheel_zooms_the_board_about_the_pointer(open_board, game_id):
    win = open_board(game_id)
    view = win.view
    fitted = scale(view)
    port = view.viewport().rect()
    at = QPoint(port.width() // 3, port.height() // 3)      # off the middle on purpose
    under = view.mapToScene(at)
    ctrl_wheel(view, at, 2)
    assert scale(view) > fitted * 1.4, "two notches of Ctrl+wheel zoom in"
    # The board point under the pointer stays under it (to a pixel or two).
    back = view.mapFromScene(under)
    assert abs(back.x() - at.x()) <= 2 and abs(back.y() - at.y()) <= 2
    ctrl_wheel(view, at, -1)
    assert fitted < scale(view) < fitted * 1.4, "a notch towards the user zooms out"


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_ctrl_plus_and_minus_zoom_and_ctrl_0_fits_the_board_again(open_board, game_id):
    win = open_board(game_id)
    view = win.view
    press(win, "Ctrl+0")
    fitted = scale(view)
    assert whole_board_shown(view)
    press(win, "Ctrl++")
    press(win, "Ctrl++")
    zoomed = scale(view)
    assert zoomed > fitted * 1.4, "Ctrl+plus zooms in"
    assert not whole_board_shown(view)
    press(win, "Ctrl+-")
    assert fitted < scale(view) < zoomed, "Ctrl+minus zooms out"
    press(win, "Ctrl+0")
    assert scale(view) == pytest.approx(fitted)
    assert whole_board_shown(view), "Ctrl+0 fits the whole board to the window"


@pytest.mark.parametrize("game_id", sorted(BOARDS))
def test_the_view_menu_offers_the_zoom_commands_with_their_keys(open_board, game_id):
    win = open_board(game_id)
    view_menu = next(a.menu() for a in win.menuBar().actions() if a.text() == "&View")
    keys = {a.text().replace("&", ""): [s.toString() for s in a.shortcuts()]
            for a in view_menu.actions() if not a.isSeparator()}
    assert "Ctrl++" in keys["Zoom In"]
    assert "Ctrl+-" in keys["Zoom Out"]
    assert "Ctrl+0" in keys["Fit to Window"]
