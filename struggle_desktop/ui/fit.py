"""Sizes that fit the screen the window is on, and a message that fits its place.

The commonest laptop screen is 1366x768, and what a window manager leaves of it (panels, title
bars) is less. Every window and dialog asks here for its first size instead of using a fixed
one, so its buttons are never below the screen's edge; a larger screen still gets the size the
window was designed for.
"""

from __future__ import annotations

from PySide6.QtCore import QRect, QSize, Qt
from PySide6.QtGui import QGuiApplication, QPainter
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget

#: The share of the available screen a window or dialog may take at most: room for the
#: window's frame and title bar, which ``availableGeometry`` does not count.
SCREEN_SHARE = 0.94


def available_geometry(widget: QWidget | None = None) -> QRect:
    """What the screen of ``widget`` (else the primary screen) leaves for windows."""
    screen = widget.screen() if widget is not None else None
    screen = screen or QGuiApplication.primaryScreen()
    return screen.availableGeometry()


def fitted(width: int, height: int, widget: QWidget | None = None,
           share: float = SCREEN_SHARE) -> QSize:
    """``width`` x ``height``, made smaller where the screen is smaller."""
    room = available_geometry(widget)
    return QSize(min(width, int(room.width() * share)), min(height, int(room.height() * share)))


def resize_to_fit(widget: QWidget, width: int, height: int) -> None:
    """Give ``widget`` its preferred size, or as much of it as the screen allows."""
    widget.resize(fitted(width, height, widget))


def fits(widget: QWidget) -> bool:
    """Whether the whole of ``widget``'s frame lies on what its screen leaves for windows."""
    return available_geometry(widget).contains(widget.frameGeometry())


class StatusLabel(QLabel):
    """A one-line message (the status bar's) that fits the room it is given: a message wider
    than its place is drawn cut with "…", the whole of it in the tooltip (at 150 % a message
    ran under the buttons beside it with no sign that more followed). ``text()`` stays whole,
    and the label never asks the window for more width."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)

    def setText(self, text: str) -> None:  # noqa: N802 - Qt's name
        super().setText(text)
        self._update_tip()

    def resizeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self._update_tip()

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - Qt's name
        return QSize(0, super().minimumSizeHint().height())

    def shown(self) -> str:
        """The words as drawn: the whole message, or its start and "…"."""
        return self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                             self.contentsRect().width())

    def _update_tip(self) -> None:
        self.setToolTip(self.text() if self.shown() != self.text() else "")

    def paintEvent(self, event) -> None:  # noqa: N802 - Qt's name
        painter = QPainter(self)
        painter.setPen(self.palette().color(self.foregroundRole()))
        align = self.alignment() | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(self.contentsRect(), int(align), self.shown())
