"""The stack inspector: what is in the selected sector, one row per counter or marker — a
small swatch in the side's colour and shape, the counter's name, its factors, the side or
force it belongs to, and the leader it carries.

The window calls ``show_sector(n)`` when the player selects a sector (−1 clears); the rows
come from ``board["sectors"][n]["pieces"]`` and ``board["pieces"]`` and follow every change.
``piece_activated(str)`` gives the piece ID of a row chosen with Enter or a double click.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFontMetricsF, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.style import dim_text, paint_swatch, ui_font

SIDE_WORDS = {"imp": "Imperial", "chaos": "Chaos", "alien": "Aliens"}
PieceRole = Qt.ItemDataRole.UserRole + 1
RowRole = Qt.ItemDataRole.UserRole + 2


def tooltip_parts(piece: dict) -> tuple[str, str]:
    """(name, owner) from the first tooltip line, "Alpha Fleet AF-07 (IE #5 force (F1))"."""
    first = (piece.get("tooltip") or "").split("\n", 1)[0]
    if " (" in first and first.endswith(")"):
        name, owner = first.split(" (", 1)
        return name, owner[:-1]
    return first, ""


def piece_row(piece: dict, pieces: dict) -> dict:
    """What a row shows: name, type name, factors, side or force, leader, swatch."""
    kind = piece.get("kind")
    name, owner = tooltip_parts(piece)
    side = SIDE_WORDS.get(piece.get("side"), str(piece.get("side") or ""))
    type_name = ""
    if kind == "unit":
        type_name = name[:-len(piece["id"])].strip() if name.endswith(piece["id"]) else ""
        title = piece["id"]
        force = piece.get("force")
        force_piece = pieces.get(f"force:{force}") if force else None
        if not owner and force_piece is not None:
            owner = f"{force_piece['label']} ({force})"
        side_text = owner or side
    elif kind == "system":
        title, type_name = str(piece.get("label", "")), "system unit"
        side_text = owner or side
    elif kind == "force":
        title, type_name = str(piece.get("label", "")), "force marker"
        side_text = f"{side}, force {piece.get('force', '')}"
    else:
        title = str(piece.get("label", kind or ""))
        type_name = "" if kind in ("alien",) else "marker"
        side_text = side
    values = piece.get("values", "") or ""
    if kind == "system" and piece.get("rv") is not None:
        values = f"{values}  RV {piece['rv']}"
    return {"name": title, "type_name": type_name, "values": values, "side": side_text,
            "leader": piece.get("leader") or "", "swatch": swatch_text(piece),
            "side_key": piece.get("side")}


def swatch_text(piece: dict) -> str:
    kind = piece.get("kind")
    if kind == "unit":
        return str(piece.get("type", ""))[:3]
    if kind == "system":
        return "S"
    if kind == "force":
        return str(piece.get("label", ""))[:2]
    return str(piece.get("label", ""))[:1]


def sector_heading(sector: dict) -> str:
    name = sector.get("name", "")
    arm = sector.get("arm")
    text = f"{sector.get('number', 0):02d} {name}"
    if arm and arm not in ("Core",) and arm not in name:
        text += f" ({arm} arm)"
    return text


def sector_summary(sector: dict, pieces: dict) -> str:
    parts = []
    owner = sector.get("owner")
    if not sector.get("system"):
        parts.append("no system")
    elif owner:
        parts.append(f"{SIDE_WORDS.get(owner, owner)} system")
    else:
        parts.append("empty system")
    if sector.get("ie"):
        parts.append(f"Independent Empire #{sector['ie']}")
    units = [pieces[p] for p in sector.get("pieces", []) if pieces.get(p, {}).get("kind") == "unit"]
    for side in ("imp", "chaos"):
        n = sum(1 for u in units if u.get("side") == side)
        if n:
            parts.append(f"{n} {SIDE_WORDS[side]} unit{'s' if n != 1 else ''}")
    return " · ".join(parts)


class StackRowDelegate(QStyledItemDelegate):
    """Two lines a counter: swatch, name and type, factors at the right; below, dimmer, the
    side or force and the leader."""

    HEIGHT = 38

    def sizeHint(self, option, index) -> QSize:
        return QSize(260, self.HEIGHT)

    def paint(self, painter: QPainter, option, index) -> None:
        row = index.data(RowRole)
        if row is None:
            return super().paint(painter, option, index)
        painter.save()
        rect = QRectF(option.rect)
        palette = option.palette
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        if selected:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.AlternateBase))
        text = palette.color(QPalette.ColorRole.HighlightedText if selected
                             else QPalette.ColorRole.Text)
        dim = text if selected else dim_text(self.parent())
        swatch = QRectF(rect.left() + 6, rect.top() + (rect.height() - 22) / 2, 30, 22)
        paint_swatch(painter, swatch, row["side_key"], row["swatch"])
        left = swatch.right() + 8
        values_font = ui_font(10, bold=True)
        values_width = QFontMetricsF(values_font).horizontalAdvance(row["values"]) + 10
        line1 = QRectF(left, rect.top() + 3, rect.right() - left - values_width, rect.height() / 2 - 2)
        line2 = QRectF(left, rect.center().y(), rect.right() - left - 6, rect.height() / 2 - 3)
        align = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        bold = ui_font(9, bold=True)
        painter.setFont(bold)
        painter.setPen(text)
        name_width = QFontMetricsF(bold).horizontalAdvance(row["name"] + " ")
        painter.drawText(line1, align, row["name"])
        if row["type_name"]:
            painter.setFont(ui_font(8.5))
            painter.setPen(dim)
            rest = line1.adjusted(name_width, 0, 0, 0)
            painter.drawText(rest, align, QFontMetricsF(painter.font()).elidedText(
                row["type_name"], Qt.TextElideMode.ElideRight, rest.width()))
        painter.setFont(values_font)
        painter.setPen(text)
        painter.drawText(QRectF(rect.right() - values_width, rect.top() + 3, values_width - 6,
                                rect.height() / 2 - 2),
                         Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, row["values"])
        painter.setFont(ui_font(8))
        painter.setPen(dim)
        second = row["side"] + (f"  ·  leader {row['leader']}" if row["leader"] else "")
        painter.drawText(line2, align, QFontMetricsF(painter.font()).elidedText(
            second, Qt.TextElideMode.ElideRight, line2.width()))
        painter.restore()


class StackWidget(QWidget):
    def __init__(self, dock: StackDock):
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(3)
        self.heading = QLabel()
        self.heading.setFont(ui_font(10.5, bold=True))
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.summary = QLabel()
        self.summary.setFont(ui_font(8.5))
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self.list = QListWidget()
        self.list.setUniformItemSizes(True)
        self.list.setItemDelegate(StackRowDelegate(self.list))
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.list.itemActivated.connect(
            lambda item: dock.piece_activated.emit(item.data(PieceRole)))
        layout.addWidget(self.list, 1)

    def show_stack(self, sector: dict | None, pieces: dict, message: str) -> None:
        self.list.clear()
        if sector is None:
            self.heading.setText(message)
            self.summary.setText("")
            self.heading.setToolTip("")
            return
        self.heading.setText(sector_heading(sector))
        self.heading.setToolTip(sector.get("tooltip", ""))
        self.summary.setText(sector_summary(sector, pieces))
        for pid in sector.get("pieces", []):
            piece = pieces.get(pid)
            if piece is None:
                continue
            item = QListWidgetItem(self.list)
            item.setData(RowRole, piece_row(piece, pieces))
            item.setData(PieceRole, pid)
            item.setText(pid)
            item.setToolTip(piece.get("tooltip", ""))
        if self.list.count() == 0:
            empty = QListWidgetItem("Nothing here.", self.list)
            empty.setFlags(Qt.ItemFlag.NoItemFlags)


class StackDock(DockPanel):
    """Lists the counters and markers of the selected sector."""

    object_name = "dock-stack"
    title = "Stack"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    piece_activated = Signal(str)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(document, parent)
        self._sector = -1

    @property
    def sector(self) -> int:
        return self._sector

    def show_sector(self, n: int) -> None:
        """Inspect sector ``n``; −1 clears."""
        self._sector = int(n)
        if self._widget is not None:
            self.update_widget()

    def piece_ids(self) -> list[str]:
        """The pieces listed, in order (empty when nothing is selected)."""
        if self._widget is None:
            return []
        items = (self._widget.list.item(k) for k in range(self._widget.list.count()))
        return [item.data(PieceRole) for item in items if item.data(PieceRole)]

    def create_widget(self) -> QWidget:
        return StackWidget(self)

    def update_widget(self) -> None:
        board = self.document.board
        if board is None:
            self._widget.show_stack(None, {}, "No game is open.")
            return
        sectors = board.get("sectors", {})
        sector = sectors.get(self._sector)
        if sector is None:
            message = ("Select a sector on the map to see what is there." if self._sector < 0
                       else f"There is no sector {self._sector}.")
            self._widget.show_stack(None, {}, message)
            return
        self._widget.show_stack(sector, board.get("pieces", {}), "")
