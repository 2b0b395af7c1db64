"""The set-up tray: the starting forces, leaders and Nexus markers waiting beside the map, as
counters the player drags onto it (VASSAL's way of setting up a game by hand).

The pieces come from ``board["tray"]`` (the game's presentation); where each may go comes from
the prompt's answers (their ``drop``), as for a counter already on the map. A drag carries the
piece's ID as ``PIECE_MIME`` data; the map view accepts it and the window performs the answer
whose drop matches (``MainWindow.tray_dropped``). The tray is empty, and says so, once set-up
is over.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QMimeData, QObject, QPointF, QSize, Qt
from PySide6.QtGui import QDrag, QIcon, QPainter, QPixmap
from PySide6.QtWidgets import QAbstractItemView, QListWidget, QListWidgetItem, QWidget

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.map.counters import paint_piece

#: The MIME type of a piece dragged from the tray: its ID, UTF-8.
PIECE_MIME = "application/x-struggle-desktop-piece"
ICON_SIZE = 44
#: The tray shows at least this many full rows of counters (more scroll in the list).
ROWS_SHOWN = 2
PieceRole = Qt.ItemDataRole.UserRole + 1


def piece_icon(piece: dict, size: int = ICON_SIZE) -> QIcon:
    """The piece's counter, drawn as the map draws it, on a transparent square."""
    pixmap = QPixmap(size, size)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(QPointF(size / 2, size / 2))
    scale = size / 34.0     # the map's counters are about 30 map units across
    painter.scale(scale, scale)
    paint_piece(painter, piece)
    painter.end()
    return QIcon(pixmap)


def piece_mime(piece_id: str) -> QMimeData:
    """What a drag from the tray carries: the piece's ID."""
    mime = QMimeData()
    mime.setData(PIECE_MIME, piece_id.encode("utf-8"))
    return mime


class TrayList(QListWidget):
    """The tray's counters; dragging one starts a drag the map accepts.

    Its cells are of one size (a counter and two lines of its name), so it asks for
    ``ROWS_SHOWN`` whole rows exactly: the panel around it then has no scroll bar of its own,
    and only the list scrolls (it showed 1.3 rows inside two nested scroll bars)."""

    def __init__(self):
        super().__init__()
        self.setViewMode(QListWidget.ViewMode.IconMode)
        self.setIconSize(QSize(ICON_SIZE, ICON_SIZE))
        self.setResizeMode(QListWidget.ResizeMode.Adjust)
        self.setMovement(QListWidget.Movement.Static)
        line = self.fontMetrics().lineSpacing()
        self.setGridSize(QSize(ICON_SIZE + 16, ICON_SIZE + 2 * line + 8))
        self.setWordWrap(True)
        self.setDragEnabled(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def rows_height(self, rows: int = ROWS_SHOWN) -> int:
        """The height that shows ``rows`` whole rows of counters."""
        return rows * self.gridSize().height() + 2 * self.frameWidth() + 2

    def sizeHint(self) -> QSize:   # noqa: N802 - Qt's name
        return QSize(super().sizeHint().width(), self.rows_height())

    def minimumSizeHint(self) -> QSize:   # noqa: N802 - Qt's name
        return QSize(super().minimumSizeHint().width(), self.rows_height())

    def startDrag(self, actions) -> None:   # noqa: N802 - Qt's name
        item = self.currentItem()
        if item is None:
            return
        drag = QDrag(self)
        drag.setMimeData(piece_mime(item.data(PieceRole)))
        drag.setPixmap(item.icon().pixmap(ICON_SIZE, ICON_SIZE))
        drag.setHotSpot(drag.pixmap().rect().center())
        drag.exec(Qt.DropAction.MoveAction)


class TrayDock(DockPanel):
    object_name = "dock-tray"
    title = "Tray"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        box, layout = self.column()
        self.heading = self.wrapped_label()
        self.list = TrayList()
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        return box

    def update_widget(self) -> None:
        board = self.document.board
        pieces = (board or {}).get("tray") or []
        self.list.clear()
        if not pieces:
            self.heading.setText("Nothing waits to be placed: the tray fills at the set-up "
                                 "of a game.")
            return
        self.heading.setText("Drag each counter onto the map: the sectors where it may go "
                             "light up. Leaders go onto a unit.")
        for piece in pieces:
            text = piece["id"] if piece["kind"] == "unit" else piece["label"]
            if piece.get("count", 1) > 1:
                text = f"{text} x{piece['count']}"
            item = QListWidgetItem(piece_icon(piece), text)
            item.setData(PieceRole, piece["id"])
            item.setToolTip(piece.get("tooltip", ""))
            self.list.addItem(item)

    def piece_ids(self) -> list[str]:
        return [self.list.item(r).data(PieceRole) for r in range(self.list.count())]


class TrayDropTarget(QObject):
    """Lets a map view take pieces dragged from the tray: while one hovers the map, the
    sectors it may go to light up (as for a counter on the map); a drop calls
    ``window.tray_dropped(piece, sector, counters under the pointer)``.

    It watches the view's viewport rather than changing the view: the view stays the map's
    own business, and a drag from anywhere else is left to it."""

    def __init__(self, view, window):
        super().__init__(view)
        self.view = view
        self.window = window
        self._piece: str | None = None
        view.setAcceptDrops(True)
        view.viewport().setAcceptDrops(True)
        view.viewport().installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:   # noqa: N802 - Qt's name
        kind = event.type()
        if kind == QEvent.Type.DragEnter and event.mimeData().hasFormat(PIECE_MIME):
            self._piece = bytes(event.mimeData().data(PIECE_MIME)).decode("utf-8")
            scene = self.view.scene()
            if scene is not None:
                scene.highlight(self.window.drop_entries(self._piece))
            event.acceptProposedAction()
            return True
        if self._piece is None:
            return False
        if kind == QEvent.Type.DragMove:
            event.acceptProposedAction()
            return True
        if kind in (QEvent.Type.DragLeave, QEvent.Type.Drop):
            piece, self._piece = self._piece, None
            scene = self.view.scene()
            if scene is not None:
                scene.clear_highlight()
            if kind == QEvent.Type.Drop and scene is not None:
                point = self.view.mapToScene(event.position().toPoint())
                onto = [pid for item in scene.items(point)
                        for pid in getattr(item, "piece_ids", ())]
                event.acceptProposedAction()
                sector = scene.sector_at(point)
                if sector is not None and sector > 0:
                    self.window.tray_dropped(piece, sector, onto)
            return True
        return False
