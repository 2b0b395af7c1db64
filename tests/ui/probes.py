"""Small looks at a window that the window tests share, in the test's own process and in the
child processes that run a window at a laptop's size (``conftest.run_on_screen``: a probe
there does ``from tests.ui.probes import settle, whole``, the checkout being on its path).

Only Qt is imported here, so that a probe's child process loads nothing else of the tests.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QApplication, QWidget


def settle(rounds: int = 30) -> None:
    """Let Qt handle what is waiting (layouts, queued calls) ``rounds`` times over: a window
    laid out anew needs a few rounds before its panels have their places. (What was handed
    to ``deleteLater`` is not deleted yet, as in the moment before the event loop does.)"""
    for _ in range(rounds):
        QApplication.processEvents()


def whole(widget: QWidget, window: QWidget | None = None) -> bool:
    """The widget is on screen whole: shown, not clipped by a scroll area, a collapsed
    splitter or a panel's edge, and (given its ``window``) inside that window."""
    region = widget.visibleRegion()
    if not widget.isVisible() or region.isEmpty() or region.boundingRect() != widget.rect():
        return False
    return window is None or window.rect().contains(
        widget.mapTo(window, widget.rect().bottomRight()))


def wheel(widget: QWidget, steps: int = -1) -> None:
    """Turn the mouse wheel ``steps`` notches (negative: towards the player, which scrolls
    down) over ``widget``'s middle, as the platform delivers it."""
    at = QPointF(widget.rect().center())
    event = QWheelEvent(at, QPointF(widget.mapToGlobal(at.toPoint())), QPoint(0, 0),
                        QPoint(0, 120 * steps), Qt.MouseButton.NoButton,
                        Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(widget, event)
