"""The base class of every dock panel.

Modelled on Frescobaldi's panels: the dock has a stable ``objectName`` (so
``QMainWindow.saveState`` can restore the layout between runs) and builds its widget only the
first time it is shown, so start-up does not pay for panels the player keeps closed.

A panel reads the open game through ``document`` (ui/document.py) and re-renders in
``refresh()`` whenever the document says it changed; it never edits the state.

A seat's screen is a function of that seat's view (ARCHITECTURE.md section 5). When the seat
changes hands the window calls ``reset_for_seat`` on every panel: the widget goes, with every
text, filter, undo history, selection, scroll position and tooltip in it, and every attribute
the panel keeps outside it is put back as it was when the window had made the panel
(``settle``). The widget is then built again from the new seat's view (at once when the panel
is on screen, else when it is first shown). So a panel cannot carry anything from one seat to
the next, whatever it keeps and wherever: what it shows comes from ``create_widget`` and
``update_widget`` reading ``document``. What a window gives a panel for good (a callback) it
gives while it builds the panels, before ``settle``.

The panel's widget sits in a scroll area: a dock then asks the window for little height of its
own, so a column of panels fits a 1366x768 laptop screen (a panel taller than its share
scrolls) instead of stretching the window beyond the screen.

Its width is the other way: the scroll area is as wide as the widget needs, and that minimum
only ever grows (``_fit_width``, after every build and update). A minimum that followed each
question's content would widen and narrow the panel between questions, move every control
in it and the panels beside it, and a narrow moment would be saved as the layout; a seat
change, which builds the widget afresh, keeps it too.
"""

from __future__ import annotations

import copy

from PySide6.QtCore import QObject, Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget


def fresh_copy(value):
    """A copy of ``value`` nobody else changes: plain data (lists, dicts, sets of numbers and
    strings...) copied all through, a container of anything else copied one level; any
    other value (a callback, a Qt object) is itself."""
    if isinstance(value, (list, dict, set, tuple)):
        return copy.deepcopy(value) if plain_data(value) else copy.copy(value)
    return value


def plain_data(value) -> bool:
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, dict):
        return all(plain_data(k) and plain_data(v) for k, v in value.items())
    if isinstance(value, (list, set, tuple, frozenset)):
        return all(plain_data(v) for v in value)
    return False


#: What a panel keeps through a seat change: its widget (replaced by its own code), the record
#: of how it was made, and its minimum width (stable: a seat change must not move the panels).
UNSETTLED = ("_widget", "_settled", "_min_width")
#: A panel widens for its content up to this share of its window's width.
MAX_WINDOW_SHARE = 0.35


class DockPanel(QDockWidget):
    #: Stable identifiers: changing them forgets the saved layout.
    object_name = ""
    title = ""
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(self.title, parent)
        assert self.object_name, "every panel needs a stable object_name"
        self.setObjectName(self.object_name)
        self.document = document
        self._widget: QWidget | None = None
        self._settled: dict | None = None      # the attributes as the window made them
        self._min_width = 0                    # the widest the panel has needed (grows only)
        self.visibilityChanged.connect(self._on_visibility)
        document.changed.connect(self.refresh)

    # ------------------------------------------------------------ seats
    def settle(self) -> None:
        """Remember the panel as its window made it (the window calls this once it has
        built and wired every panel, before any game is drawn): ``reset_for_seat`` puts
        every attribute back to this."""
        self._settled = {name: fresh_copy(value) for name, value in vars(self).items()
                         if name not in UNSETTLED}

    def reset_for_seat(self) -> None:
        """Forget everything drawn or remembered for the seat before: drop the widget, put
        every attribute back as ``settle`` found it, and build the widget again from the
        document (now if the panel is on screen, else when it is shown)."""
        assert self._settled is not None, f"{self.object_name}: settle() was never called"
        self.stop_work()
        old = self.widget()
        if old is not None:
            # The panel hears no more of its old widget (an event filter on a list's viewport).
            for part in [old, *old.findChildren(QObject)]:
                part.removeEventFilter(self)
            old.hide()
        self._widget = None
        for name in [n for n in vars(self) if n not in self._settled
                     and n not in UNSETTLED]:
            delattr(self, name)           # made by create_widget or since: made again
        for name, value in self._settled.items():
            # Copied: the panel fills its own containers again, the record stays as made.
            setattr(self, name, fresh_copy(value))
        if old is not None:
            old.deleteLater()
            if not self.isHidden():
                self.ensure_widget()      # drawn from the new seat's view at once

    def stop_work(self) -> None:
        """Stop what the panel runs in the background (a forecast) before it is reset."""

    @property
    def widget_built(self) -> bool:
        return self._widget is not None

    def ensure_widget(self) -> QWidget:
        """Build the panel's widget now (tests and the first show call this) and return it
        (``widget()`` is the scroll area around it)."""
        if self._widget is None:
            self._widget = self.create_widget()
            scroller = QScrollArea()
            scroller.setObjectName(f"{self.object_name}-scroller")
            scroller.setWidgetResizable(True)
            scroller.setFrameShape(QFrame.Shape.NoFrame)
            scroller.setWidget(self._widget)
            previous = self.widget()
            self.setWidget(scroller)
            if previous is not None:
                previous.deleteLater()    # the widget of an earlier seat (reset_for_seat)
            self.update_widget()
            self._fit_width()
        return self._widget

    def _fit_width(self) -> None:
        """As wide as the panel has ever needed: only the height gives way to a small screen,
        and the width never narrows between questions (see the module's docstring)."""
        scroller = self.widget()
        if self._widget is None or scroller is None:
            return
        need = (self._widget.minimumSizeHint().width()
                + scroller.verticalScrollBar().sizeHint().width())
        if self._min_width:
            # A text that will not wrap may ask for much: the panel grows, but never past a
            # share of its window (the board keeps its room; beyond, the panel scrolls).
            window = self.parentWidget()
            cap = int(MAX_WINDOW_SHARE * window.width()) if window is not None else need
            need = min(need, max(cap, self._min_width))
        self._min_width = max(self._min_width, need)
        if scroller.minimumWidth() != self._min_width:
            scroller.setMinimumWidth(self._min_width)

    @property
    def content(self) -> QWidget:
        """The panel's own widget, built if need be."""
        return self.ensure_widget()

    def _on_visibility(self, visible: bool) -> None:
        if not visible:
            return
        if self._widget is None:
            self.ensure_widget()
        else:
            self.update_widget()   # it missed the changes made while it was hidden
            self._fit_width()

    def refresh(self) -> None:
        if self._widget is not None and self.isVisible():
            self.update_widget()
            self._fit_width()

    # ------------------------------------------------------------ for subclasses
    @staticmethod
    def column() -> tuple[QWidget, QVBoxLayout]:
        """A panel's usual body: a widget whose layout stacks its parts, with the panels'
        margins."""
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        return box, layout

    @staticmethod
    def wrapped_label(text: str = "") -> QLabel:
        """A label whose text wraps to the panel's width."""
        label = QLabel(text)
        label.setWordWrap(True)
        return label

    def create_widget(self) -> QWidget:
        raise NotImplementedError

    def update_widget(self) -> None:
        """Re-read ``self.document.board`` (may be None when no game is open)."""
