"""The base class of every dock panel.

Modelled on Frescobaldi's panels: the dock has a stable ``objectName`` (so
``QMainWindow.saveState`` can restore the layout between runs) and builds its widget only the
first time it is shown, so start-up does not pay for panels the player keeps closed.

A panel reads the open game through ``document`` (ui/document.py) and re-renders in
``refresh()`` whenever the document says it changed; it never edits the state.

The panel's widget sits in a scroll area: a dock then asks the window for little height of its
own, so a column of panels fits a 1366x768 laptop screen (a panel taller than its share
scrolls) instead of stretching the window beyond the screen.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDockWidget, QFrame, QLabel, QScrollArea, QVBoxLayout, QWidget


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
        self.visibilityChanged.connect(self._on_visibility)
        document.changed.connect(self.refresh)

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
            # As wide as the panel needs: only the height gives way to a small screen.
            scroller.setMinimumWidth(self._widget.minimumSizeHint().width()
                                     + scroller.verticalScrollBar().sizeHint().width())
            self.setWidget(scroller)
            self.update_widget()
        return self._widget

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

    def refresh(self) -> None:
        if self._widget is not None and self.isVisible():
            self.update_widget()

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
