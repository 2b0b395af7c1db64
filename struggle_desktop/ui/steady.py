"""Controls that stay still under the hand.

A combo box, spin box or slider takes the mouse wheel as soon as the pointer is over it, even
when the player only meant to scroll the panel it sits in: the panel stops scrolling and the
box's value changes unseen (a purchase then went to another sector). Here such a box takes
the wheel only while it has the keyboard focus (a click or Tab gives it that); otherwise the
wheel goes on to the panel around it, which scrolls. (Qt's usual way, ignoring the event so
that it goes to the parent, works only for the platform's own wheel events.)

One guard does it for the whole program (``guard_wheels``, installed on the application by
the window shell): it watches every widget, so a panel shown late, a form built afresh for
each question or a dialog is guarded with no call of its own. Two things make it so:

* as a box is made ready to be shown (Qt's Polish event) its focus policy becomes
  StrongFocus: the default of combo and spin boxes (WheelFocus) gives a box the focus on the
  first turn of the wheel, before any filter sees the turn, which would defeat the point;
* a wheel event for a box without the focus is handed on to the widgets around it.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QSlider, QWidget

#: The kinds of control that change their value with the wheel. (Not every QAbstractSlider:
#: a scroll bar is what the wheel is meant to move.)
WHEEL_BOXES = (QComboBox, QAbstractSpinBox, QSlider)


class _WheelGuard(QObject):
    """Watches every widget of the application: a box gets a focus policy the wheel does not
    change, and the wheel over an unfocused box goes to the widgets around it."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:   # noqa: N802 - Qt's name
        kind = event.type()      # first, and cheap: every event of the program passes here
        if kind == QEvent.Type.Wheel:
            if isinstance(watched, WHEEL_BOXES) and not watched.hasFocus():
                pass_on(watched, event)
                event.accept()      # handed on here: Qt must not hand it on a second time
                return True         # the box never sees it
        elif kind == QEvent.Type.Polish and isinstance(watched, WHEEL_BOXES):
            no_wheel_focus(watched)
        return False


def no_wheel_focus(widget: QWidget) -> None:
    """A box that would take the focus from the wheel (WheelFocus) takes it from a click or
    Tab only (StrongFocus); a box that takes no focus is left so."""
    if widget.focusPolicy() == Qt.FocusPolicy.WheelFocus:
        widget.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


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


def _guards(app: QApplication) -> bool:
    """The guard is installed on ``app`` (not on an application since gone)."""
    try:
        return _guard is not None and _guard.parent() is app
    except RuntimeError:        # its application was deleted, and the guard with it
        return False


def guard_wheels(root: QWidget | None = None) -> None:
    """Guard every box of the application, now and made later (once: a repeat changes
    nothing). The boxes already made inside ``root`` get their focus policy at once rather
    than when they are next made ready to be shown."""
    global _guard
    app = QApplication.instance()
    if not _guards(app):
        _guard = _WheelGuard(app)
        app.installEventFilter(_guard)
    if root is not None:
        if isinstance(root, WHEEL_BOXES):
            no_wheel_focus(root)
        for kind in WHEEL_BOXES:
            for box in root.findChildren(kind):
                no_wheel_focus(box)


def ignore_wheel_unless_focused(widget: QWidget) -> QWidget:
    """Let ``widget`` (a combo or spin box, a slider) take the wheel only while it has the
    focus: the application's guard, and its focus policy at once. Returns it."""
    guard_wheels(widget)
    return widget
