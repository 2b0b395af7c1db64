"""Controls that stay still under the hand.

A combo box or spin box takes the mouse wheel as soon as the pointer is over it, even when
the player only meant to scroll the panel it sits in: the panel stops scrolling and the
box's value changes unseen (a purchase then went to another sector). Here such a box takes
the wheel only while it has the keyboard focus (a click or Tab gives it that); otherwise the
wheel goes on to the panel around it, which scrolls. (Qt's usual way, ignoring the event so
that it goes to the parent, works only for the platform's own wheel events.)
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QWidget

#: The kinds of box that change their value with the wheel.
WHEEL_BOXES = (QComboBox, QAbstractSpinBox)


class _WheelGuard(QObject):
    """Passes a wheel event over an unfocused box on to the widgets around it (one guard
    for all boxes)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:   # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Wheel and isinstance(watched, QWidget) \
                and not watched.hasFocus():
            pass_on(watched, event)
            event.accept()      # handed on here: Qt must not hand it on a second time
            return True         # the box never sees it
        return False


def pass_on(widget: QWidget, event: QWheelEvent) -> None:
    """Offer the wheel ``event`` over ``widget`` to its parent, then the parent's parent...
    until one takes it (the viewport of the scroll area the panel sits in scrolls). Qt hands
    on only the wheel events of the platform, not those sent by the program (a test's):
    this way both go the same way."""
    point = event.position()
    child = widget
    while not child.isWindow() and child.parentWidget() is not None:
        point = point + QPointF(child.pos())
        parent = child.parentWidget()
        offer = QWheelEvent(point, event.globalPosition(), event.pixelDelta(),
                            event.angleDelta(), event.buttons(), event.modifiers(),
                            event.phase(), event.inverted(), event.source())
        offer.setAccepted(False)
        QApplication.sendEvent(parent, offer)
        if offer.isAccepted():
            return
        child = parent


_guard: _WheelGuard | None = None


def _the_guard() -> _WheelGuard:
    global _guard
    if _guard is None:
        _guard = _WheelGuard(QApplication.instance())
    return _guard


def ignore_wheel_unless_focused(widget: QWidget) -> QWidget:
    """Let ``widget`` (a combo or spin box) take the wheel only while it has the focus. Its
    focus policy becomes StrongFocus: the default of some styles (WheelFocus) gives the box
    the focus on the first turn of the wheel, which would defeat the point. Returns it."""
    widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    widget.installEventFilter(_the_guard())    # (installed once: Qt drops a repeat)
    return widget


def guard_wheels(root: QWidget) -> None:
    """Apply ``ignore_wheel_unless_focused`` to every combo and spin box inside ``root``
    (a panel's widgets built since are guarded by calling it again)."""
    for kind in WHEEL_BOXES:
        for box in root.findChildren(kind):
            ignore_wheel_unless_focused(box)
