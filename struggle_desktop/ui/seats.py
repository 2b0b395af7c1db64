"""Who sits at the screen: pieces every game's screen with several players shares.

* ``HandOverOverlay``: the opaque screen between two people at one computer (BFG-HID-4,
  NH-SIM-2). It names who should sit down, lists what has just become public, and hides
  everything else until that player presses its one "continue" button: panels floated out
  of the window are covered too, and everything behind it is disabled, so neither Tab nor
  the arrow keys reach a widget behind it (the timeline's slider, a panel's filter).
* ``ProgramPlayer``: plays the program's decisions for the roles it holds, one action per
  event-loop turn (so the map visibly moves and the window stays responsive), each decided
  from the acting role's own view through ``GameDocument.program_action``.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (QAbstractButton, QAbstractSpinBox, QComboBox, QDockWidget,
                               QLabel, QPushButton, QSizePolicy, QSpacerItem, QVBoxLayout,
                               QWidget)

#: The mark of a widget the hand-over screen disabled (and enables again when it goes).
DISABLED_BEHIND = "hand-over-disabled"
#: Milliseconds between two program actions, so the board visibly moves.
PROGRAM_STEP_MS = 60


class HandOverOverlay(QWidget):
    """The opaque screen between two players: who should sit down, what has just become
    public, and one button; nothing of the game shows through.

    Taking the seat must be deliberate: the player who just finished may still press Space
    or Enter. So the button never holds the keyboard focus; the screen itself does and
    swallows every key, except the initial of the role it waits for (R for Red), which
    counts as the click. For the same reason its button never comes where one of the
    window's controls was (a double click on Done must not seat the next player). Everything
    behind it is locked (``lock_actions``)."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("hand-over")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)   # really opaque
        self.setStyleSheet("#hand-over { background: #20262e; } QLabel { color: white; }")
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        self.title = QLabel()
        self.title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title.setStyleSheet("font-size: 28pt; font-weight: bold;")
        self.news = QLabel()
        self.news.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.news.setWordWrap(True)
        self.news.setStyleSheet("font-size: 12pt;")
        self.button = QPushButton()
        self.button.setObjectName("hand-over-continue")
        self.button.setStyleSheet("font-size: 14pt; padding: 10px 30px;")
        self.button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.key_hint = QLabel()
        self.key_hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.key_hint.setStyleSheet("font-size: 10pt; color: #b8c0cc;")
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        layout.addWidget(self.title)
        layout.addSpacing(20)
        layout.addWidget(self.news)
        # The gap above the button grows when the button would come where a control of the
        # table was (``_clear_of``).
        self.gap = QSpacerItem(0, self.GAP, QSizePolicy.Policy.Minimum,
                               QSizePolicy.Policy.Fixed)
        layout.addItem(self.gap)
        layout.addWidget(self.button, 0, Qt.AlignmentFlag.AlignCenter)
        layout.addWidget(self.key_hint)
        layout.addStretch(1)
        self.role: str | None = None
        self.covers: list[PanelCover] = []     # over the panels floated out of the window
        self.hide()
        parent.installEventFilter(self)

    def setVisible(self, visible: bool) -> None:
        """Up: everything behind is disabled and floated panels are covered; down: both
        undone (``hide()`` comes here too)."""
        super().setVisible(visible)
        if visible:
            self._shut_behind()
        else:
            self._open_behind()

    def _shut_behind(self) -> None:
        """Disable every part of the window behind the screen (a disabled widget takes no
        focus, so Tab and the arrow keys stay here) and cover each floated panel."""
        window = self.parentWidget()
        for child in self._behind():
            if child.isEnabled():
                child.setEnabled(False)
                # Marked on the widget itself: the window makes and drops some of these
                # (the tab bars of tabbed panels), so no list of them is kept here.
                child.setProperty(DISABLED_BEHIND, True)
        for dock in window.findChildren(QDockWidget):
            if dock.isFloating() and not any(c.dock is dock for c in self.covers):
                self.covers.append(PanelCover(dock))

    def _open_behind(self) -> None:
        for cover in self.covers:
            cover.remove()
        self.covers = []
        for child in self._behind():
            if child.property(DISABLED_BEHIND):
                child.setProperty(DISABLED_BEHIND, None)
                child.setEnabled(True)

    def _behind(self) -> list[QWidget]:
        """The window's own parts: central widget, panels (floated too), tool bars, menu and
        status bars; not a dialog the window has open."""
        return [child for child in self.parentWidget().findChildren(
            QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
            if child is not self and (not child.isWindow() or isinstance(child, QDockWidget))]

    def focusNextPrevChild(self, _next: bool) -> bool:
        """Tab and Shift+Tab go nowhere while the screen is up."""
        return True

    def show_for(self, role: str, title: str, button: str, news: list[str]) -> None:
        """Cover the window for ``role``: ``title`` names who should sit down, ``button`` is
        the text of the one way on."""
        self.role = role
        self.title.setText(title)
        self.news.setText("\n".join(news))
        self.button.setText(button)
        self.key_hint.setText(f"Click the button, or press {self.seat_key(role)}")
        taken = self._controls_behind()          # before the screen disables them
        self.setGeometry(self.parentWidget().rect())
        self.raise_()
        self.show()
        self._clear_of(taken)
        self.setFocus()

    #: The usual gap between the news and the button, and the step it grows by.
    GAP = 20

    def _controls_behind(self) -> list[QRect]:
        """Where the window's enabled controls are (window coordinates)."""
        window = self.parentWidget()
        rects = []
        for kind in (QAbstractButton, QAbstractSpinBox, QComboBox):
            for widget in window.findChildren(kind):
                if (widget.isVisible() and widget.isEnabled() and widget.window() is window
                        and not self.isAncestorOf(widget)
                        and not widget.visibleRegion().isEmpty()):
                    rects.append(QRect(widget.mapTo(window, QPoint(0, 0)), widget.size()))
        return rects

    def _clear_of(self, taken: list[QRect]) -> None:
        """Put the button where none of ``taken`` was: a second click of the player who
        has just answered (a double click on Done) must not take the next player's seat
        and show that player's secrets to the wrong person. The gap above it grows until
        the button is clear (it stays in the screen); if no place is clear, the usual one."""
        layout = self.layout()
        for gap in range(self.GAP, max(self.GAP, self.height()), self.GAP // 2):
            self.gap.changeSize(0, gap, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
            layout.invalidate()
            layout.activate()
            place = self.button.geometry()
            if self.key_hint.geometry().bottom() >= self.height():
                break
            if not any(place.intersects(rect) for rect in taken):
                return
        self.gap.changeSize(0, self.GAP, QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        layout.invalidate()
        layout.activate()

    @staticmethod
    def seat_key(role: str) -> str:
        """The key that takes the seat of ``role``: its initial (never Space or Enter)."""
        return role[:1].upper()

    def keyPressEvent(self, event) -> None:
        plain = not (event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                          | Qt.KeyboardModifier.AltModifier
                                          | Qt.KeyboardModifier.MetaModifier))
        if (self.role and plain and not event.isAutoRepeat()
                and event.text().upper() == self.seat_key(self.role)):
            self.button.click()
        event.accept()          # every other key is swallowed: none reaches the game

    def eventFilter(self, watched, event) -> bool:
        if watched is self.parentWidget() and event.type() == QEvent.Type.Resize:
            self.setGeometry(self.parentWidget().rect())
        return False


class PanelCover(QWidget):
    """An opaque sheet over a panel floated out of the window while the hand-over screen is
    up: the panel keeps its place on the desk, and shows nothing until the seat is taken. It
    stays on top of whatever the panel builds meanwhile (a new seat's widget)."""

    def __init__(self, dock: QDockWidget):
        super().__init__(dock)
        self.dock = dock
        self.setObjectName("hand-over-cover")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setStyleSheet("#hand-over-cover { background: #20262e; } "
                           "QLabel { color: #b8c0cc; }")
        layout = QVBoxLayout(self)
        note = QLabel("Hidden while the computer is handed over")
        note.setAlignment(Qt.AlignmentFlag.AlignCenter)
        note.setWordWrap(True)
        layout.addWidget(note)
        self.setGeometry(dock.rect())
        self.raise_()
        self.show()
        dock.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.dock:
            if event.type() == QEvent.Type.Resize:
                self.setGeometry(self.dock.rect())
            elif event.type() in (QEvent.Type.ChildAdded, QEvent.Type.LayoutRequest):
                self.raise_()             # a widget the panel just built goes beneath
        return False

    def remove(self) -> None:
        self.dock.removeEventFilter(self)
        self.hide()
        self.deleteLater()


def lock_actions(window: QWidget, locked: bool) -> None:
    """While a hand-over screen is up no shortcut may act and no menu opens (BFG-HID-4,
    NH-SIM-2: Alt+E would show the Edit menu, and with it the last action's name);
    unlocking turns every command on, and the window then disables what does not apply."""
    for act in window.actions():
        if isinstance(act, QAction):
            act.setEnabled(not locked)
    menu_bar = getattr(window, "menuBar", None)
    if menu_bar is not None:
        menu_bar().setEnabled(not locked)
    update = getattr(window, "update_commands", None)
    if not locked and update is not None:
        update()          # greyed again what does not apply now (saying why)


class ProgramPlayer:
    """The program's turns, one action per event-loop turn.

    ``level_of(role)`` names the policy the program plays ``role`` with (``"bot"``,
    ``"strong"``...), or None when a person plays it; ``on_action(result)`` (optional) sees
    each performed action's result. After each action the document's change signal redraws
    the window, and the next step is scheduled if the program is still to move."""

    def __init__(self, document, level_of: Callable[[str], str | None],
                 on_action: Callable | None = None, step_ms: int = PROGRAM_STEP_MS):
        self.document = document
        self.level_of = level_of
        self.on_action = on_action
        self.step_ms = step_ms
        self.busy = False
        self.scheduled = False          # one program step waits in the event loop at most
        self.paused = False

    def to_move(self) -> str | None:
        """The level the program plays the waiting role with, or None when it is not to
        move now (a person's turn, the game is over, or it is already acting)."""
        role = self.document.waiting_role
        if role is None or self.busy or self.paused:
            return None
        return self.level_of(role)

    def schedule(self) -> None:
        if self.to_move() and not self.scheduled:
            self.scheduled = True
            QTimer.singleShot(self.step_ms, self.step)

    def step(self) -> None:
        """One action of the program for the role the game waits for (the change it makes
        schedules the next one)."""
        self.scheduled = False
        level = self.to_move()
        if level is None:
            return
        self.busy = True
        try:
            role = self.document.waiting_role
            action = self.document.program_action(level)
            result = self.document.perform(action, role)
        finally:
            self.busy = False
        if self.on_action is not None:
            self.on_action(result)
        self.schedule()


__all__ = ["HandOverOverlay", "PanelCover", "ProgramPlayer", "PROGRAM_STEP_MS", "lock_actions"]
