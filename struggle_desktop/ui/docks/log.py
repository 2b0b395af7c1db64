"""The log dock: every log entry, one line each — turn and phase, the text with its sector,
unit and marker references drawn as links, and the rule ID small and dim at the right.

Built for thousands of entries: a ``QListView`` over a list model that only appends the new
rows after each action (it resets only when the history was rewound, by undo or by opening
another game), with uniform row heights and a delegate that paints just the visible rows.

Signals: ``ref_hovered(str)`` — the reference under the mouse ("" when none), for the map to
highlight; ``ref_activated(str)`` — a reference clicked (or the first one of the row chosen
with Enter), for the map to centre on.

A row's context menu has **Go to This Moment**: the whole window then shows the game as it was
when that entry was written (``GameDocument.moment_of_log_entry`` and ``look_at``).
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QPoint,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMenu,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.style import blend, ui_font

EntryRole = Qt.ItemDataRole.UserRole + 1

#: A thin bar at the left of each row says at a glance what kind of entry it is.
KIND_COLOURS = {
    "roll": QColor("#8e6bbf"), "draw": QColor("#8e6bbf"),
    "combat": QColor("#c0392b"), "eliminate": QColor("#7b241c"),
    "move": QColor("#2d6cb5"), "place": QColor("#3c8dbc"), "convert": QColor("#d35400"),
    "ci": QColor("#e0a526"), "rp": QColor("#27ae60"), "marker": QColor("#16a085"),
    "adjust": QColor("#7f8c8d"),
}
HEADER_KINDS = {"turn", "phase"}
SECTOR_PREFIX = "sector:"


# ------------------------------------------------------------------------------ references
@dataclass(frozen=True)
class Segment:
    """A run of a row's text; ``ref`` is set when it is a link."""
    text: str
    ref: str = ""
    chip: bool = False      # a reference the text does not mention, shown after it


def ref_label(ref: str) -> str:
    """How a reference reads when the text does not mention it: ``sector:12`` as "sector 12",
    ``region:3`` as "region 3", a counter as its id."""
    kind, colon, name = ref.partition(":")
    return f"{kind} {name}" if colon and name else ref


def ref_pattern(ref: str) -> str:
    """Where ``ref`` appears in an entry's text: a sector as its number, the rest as is."""
    needle = ref.removeprefix(SECTOR_PREFIX)
    return rf"(?<![\w.-]){re.escape(needle)}(?![\w-])"


def split_refs(text: str, refs: list[str]) -> list[Segment]:
    """The text cut into plain runs and links; references it never mentions come last as
    chips, so every reference of an entry can be clicked."""
    refs = [str(r) for r in refs if r]
    if not refs:
        return [Segment(text)]
    unique = list(dict.fromkeys(refs))
    pattern = re.compile("|".join(f"(?P<r{k}>{ref_pattern(r)})" for k, r in enumerate(unique)))
    segments: list[Segment] = []
    mentioned: set[str] = set()
    at = 0
    for found in pattern.finditer(text):
        ref = unique[int(found.lastgroup[1:])]
        if found.start() > at:
            segments.append(Segment(text[at:found.start()]))
        segments.append(Segment(found.group(), ref))
        mentioned.add(ref)
        at = found.end()
    if at < len(text):
        segments.append(Segment(text[at:]))
    for ref in unique:
        if ref not in mentioned:
            segments.append(Segment(ref_label(ref), ref, chip=True))
    return segments


def when(entry: dict) -> str:
    """The short time column: "T2 P9", or "Set-up" before the first turn."""
    if not entry.get("turn"):
        return "Set-up"
    phase = entry.get("phase")
    # Struggle numbers its phases; a game whose phases are named shows the name's start.
    return f"T{entry.get('turn')} " + (f"P{phase}" if isinstance(phase, int) else str(phase)[:7])


def entry_tooltip(entry: dict) -> str:
    time = (f"Turn {entry.get('turn')}, phase {entry.get('phase')}" if entry.get("turn")
            else "Set-up")
    head = f"{time} · {entry.get('rule', '')}"
    lines = [head] + textwrap.wrap(entry.get("text", ""), 90)
    for die in entry.get("dice") or []:
        mods = "".join(f" {'+' if n >= 0 else '−'}{abs(n)} {label}"
                       for label, n in die.get("modifiers", []))
        lines.append(f"Die {die.get('die')}: {die.get('face')}{mods} = {die.get('result')}")
    if entry.get("refs"):
        lines.append("Refers to: " + ", ".join(ref_label(str(r)) for r in entry["refs"]))
    return "\n".join(lines)


def haystack(entry: dict) -> str:
    """What the filter box searches: text, rule ID, kind, references, turn and phase."""
    return " ".join([entry.get("text", ""), entry.get("rule", ""), entry.get("kind", ""),
                     " ".join(str(r) for r in entry.get("refs", [])),
                     f"t{entry.get('turn')} p{entry.get('phase')}"]).lower()


# ------------------------------------------------------------------------------ the model
class LogModel(QAbstractListModel):
    """All entries of the log; the rows are those passing the filter (all, by default)."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.entries: list[dict] = []
        self._rows: list[int] = []          # indices into entries, in order
        self._words: list[str] = []
        self._haystacks: dict[int, str] = {}
        self._segments: dict[int, list[Segment]] = {}

    # reading
    def rowCount(self, parent: QModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self._rows)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self.entries[self._rows[index.row()]]
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.get("text", "")
        if role == EntryRole:
            return entry
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry_tooltip(entry)
        return None

    def entry(self, row: int) -> dict:
        return self.entries[self._rows[row]]

    def entry_index(self, row: int) -> int:
        """The place in the whole log of the entry a (filtered) row shows."""
        return self._rows[row]

    def segments(self, row: int) -> list[Segment]:
        k = self._rows[row]
        found = self._segments.get(k)
        if found is None:
            entry = self.entries[k]
            found = self._segments[k] = split_refs(entry.get("text", ""), entry.get("refs", []))
        return found

    # filtering
    @property
    def filter_text(self) -> str:
        return " ".join(self._words)

    def set_filter(self, text: str) -> None:
        words = text.lower().split()
        if words == self._words:
            return
        self.beginResetModel()
        self._words = words
        self._rows = [k for k in range(len(self.entries)) if self._accepts(k)]
        self.endResetModel()

    def _accepts(self, k: int) -> bool:
        if not self._words:
            return True
        text = self._haystacks.get(k)
        if text is None:
            text = self._haystacks[k] = haystack(self.entries[k])
        return all(word in text for word in self._words)

    # changing
    def append(self, entries: list[dict]) -> None:
        if not entries:
            return
        start = len(self.entries)
        self.entries.extend(entries)
        new_rows = [k for k in range(start, len(self.entries)) if self._accepts(k)]
        if new_rows:
            first = len(self._rows)
            self.beginInsertRows(QModelIndex(), first, first + len(new_rows) - 1)
            self._rows.extend(new_rows)
            self.endInsertRows()

    def truncate(self, count: int) -> None:
        """Keep the first ``count`` entries: a playback steps back to the log of its first
        step (cheaper than a reset, and the rows kept stay where they are)."""
        if count >= len(self.entries):
            return
        first = next((row for row, k in enumerate(self._rows) if k >= count), len(self._rows))
        if first < len(self._rows):
            self.beginRemoveRows(QModelIndex(), first, len(self._rows) - 1)
            del self._rows[first:]
            del self.entries[count:]
            self.endRemoveRows()
        else:
            del self.entries[count:]
        for cache in (self._haystacks, self._segments):
            for k in [k for k in cache if k >= count]:
                del cache[k]

    def reset(self, entries: list[dict]) -> None:
        self.beginResetModel()
        self.entries = list(entries)
        self._haystacks.clear()
        self._segments.clear()
        self._rows = [k for k in range(len(self.entries)) if self._accepts(k)]
        self.endResetModel()


# ------------------------------------------------------------------------------ painting
@dataclass
class RowLayout:
    time_rect: QRect
    rule_rect: QRect
    text_rect: QRect
    pieces: list[tuple[QRect, Segment, str]]    # (where, segment, text as drawn)


class LogDelegate(QStyledItemDelegate):
    """Paints a row: kind bar, "T2 P9", the linked text, the rule ID at the right."""

    PADDING = 4
    #: The widest times: Struggle numbers its phases, the other games name them (the first
    #: seven letters, see ``when``); the column is as wide as the widest, so that "T1 actions"
    #: is not cut to "T1 action".
    TIME_WIDTH_TEXTS = ("T99 P14", "T99 mission", "T99 recruit", "T99 resolut", "T99 politic",
                        "T99 actions", "T99 victory", "T99 failure")
    RULE_WIDTH_TEXT = "SGE-EV-POWER-STRUGGLE"

    def __init__(self, view: LogView):
        super().__init__(view)
        self.view = view
        self.font = ui_font(9)
        self.bold = ui_font(9, bold=True)
        self.small = ui_font(7.5)
        self.metrics = QFontMetrics(self.font)
        self.bold_metrics = QFontMetrics(self.bold)
        self.small_metrics = QFontMetrics(self.small)
        self.time_width = max(self.small_metrics.horizontalAdvance(text)
                              for text in self.TIME_WIDTH_TEXTS) + 8
        self.rule_width = self.small_metrics.horizontalAdvance(self.RULE_WIDTH_TEXT) + 8
        # Little padding: on a laptop screen the dock is short, and every row counts.
        self.row_height = max(self.metrics.height(), self.bold_metrics.height()) + 2
        self.underlined = QFont(self.font)
        self.underlined.setUnderline(True)
        self.bold_underlined = QFont(self.bold)
        self.bold_underlined.setUnderline(True)
        self._colours_key: int | None = None
        self._colours: dict[str, QColor] = {}

    def sizeHint(self, option, index) -> QSize:
        return QSize(400, self.row_height)

    def layout(self, rect: QRect, row: int) -> RowLayout:
        model: LogModel = self.view.model()
        entry = model.entry(row)
        header = entry.get("kind") in HEADER_KINDS
        metrics = self.bold_metrics if header else self.metrics
        left = rect.left() + self.PADDING + 3
        time_rect = QRect(left, rect.top(), self.time_width, rect.height())
        # Narrow docks give the text the room and drop the rule column to the tooltip.
        rule_width = self.rule_width if rect.width() > 460 else 0
        rule_rect = QRect(rect.right() - rule_width - self.PADDING, rect.top(), rule_width,
                          rect.height())
        text_rect = QRect(time_rect.right() + 4, rect.top(),
                          rule_rect.left() - time_rect.right() - 10, rect.height())
        pieces = []
        x = text_rect.left()
        limit = text_rect.right()
        chip_gap = metrics.horizontalAdvance("  ")
        for segment in model.segments(row):
            if segment.chip:
                x += chip_gap
            width = metrics.horizontalAdvance(segment.text)
            text = segment.text
            if x + width > limit:
                text = metrics.elidedText(segment.text, Qt.TextElideMode.ElideRight, limit - x)
                width = metrics.horizontalAdvance(text)
                if not text:
                    break
            pieces.append((QRect(x, rect.top(), width, rect.height()), segment, text))
            x += width
            if x >= limit:
                break
        return RowLayout(time_rect, rule_rect, text_rect, pieces)

    def ref_at(self, rect: QRect, row: int, pos: QPoint) -> str:
        for where, segment, _text in self.layout(rect, row).pieces:
            if segment.ref and where.left() <= pos.x() <= where.right():
                return segment.ref
        return ""

    def colours(self, palette: QPalette) -> dict[str, QColor]:
        """The row colours for ``palette``, worked out once per palette, not per row."""
        key = palette.cacheKey()
        if self._colours_key != key:
            base = palette.color(QPalette.ColorRole.Base)
            text = palette.color(QPalette.ColorRole.Text)
            link = palette.color(QPalette.ColorRole.Link)
            self._colours = {
                "base": base, "text": text, "link": link,
                "dim": blend(text, base, 0.45),
                "header": blend(base, palette.color(QPalette.ColorRole.Mid), 0.35),
                "alternate": palette.color(QPalette.ColorRole.AlternateBase),
                "highlight": palette.color(QPalette.ColorRole.Highlight),
                "highlighted_text": palette.color(QPalette.ColorRole.HighlightedText),
                "chip": blend(base, link, 0.12),
            }
            self._colours_key = key
        return self._colours

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex) -> None:
        painter.save()
        row = index.row()
        model: LogModel = index.model()
        entry = model.entry(row)
        rect = option.rect
        colours = self.colours(option.palette)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        header = entry.get("kind") in HEADER_KINDS
        if selected:
            painter.fillRect(rect, colours["highlight"])
        elif header:
            painter.fillRect(rect, colours["header"])
        elif row % 2:
            painter.fillRect(rect, colours["alternate"])
        bar = KIND_COLOURS.get(entry.get("kind", ""))
        if bar is not None:
            painter.fillRect(QRect(rect.left() + 1, rect.top() + 1, 3, rect.height() - 2), bar)
        text_colour = colours["highlighted_text" if selected else "text"]
        dim = text_colour if selected else colours["dim"]
        link = text_colour if selected else colours["link"]
        layout = self.layout(rect, row)
        painter.setFont(self.small)
        painter.setPen(dim)
        align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
        painter.drawText(layout.time_rect, align, when(entry))
        if layout.rule_rect.width():
            painter.drawText(layout.rule_rect,
                             Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignRight,
                             self.small_metrics.elidedText(entry.get("rule", ""),
                                                           Qt.TextElideMode.ElideLeft,
                                                           layout.rule_rect.width()))
        hovered = self.view.hovered
        plain = self.bold if header else self.font
        for where, segment, text in layout.pieces:
            if segment.ref:
                painter.setPen(link)
                if segment.chip:
                    painter.fillRect(where.adjusted(-3, 1, 3, -1), colours["chip"])
                if hovered == (row, segment.ref):
                    painter.setFont(self.bold_underlined if header else self.underlined)
                else:
                    painter.setFont(plain)
            else:
                painter.setPen(text_colour)
                painter.setFont(plain)
            painter.drawText(where, align, text)
        painter.restore()


class LogView(QTableView):
    """The list with link hovering and clicking. A one-column table with rows of a fixed
    height: it takes new rows without laying out the old ones again (a list or tree view
    walks every row on each insertion)."""

    ref_hovered = Signal(str)
    ref_activated = Signal(str)

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.hovered: tuple[int, str] | None = None
        self._pressed: tuple[int, str] | None = None
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.horizontalHeader().hide()
        self.horizontalHeader().setStretchLastSection(True)
        self.verticalHeader().hide()
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setMouseTracking(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.delegate = LogDelegate(self)
        self.setItemDelegate(self.delegate)
        rows = self.verticalHeader()
        rows.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        rows.setDefaultSectionSize(self.delegate.row_height)
        rows.setMinimumSectionSize(1)
        self.activated.connect(self._activate_row)

    def ref_at(self, pos: QPoint) -> tuple[int, str] | None:
        index = self.indexAt(pos)
        if not index.isValid():
            return None
        ref = self.delegate.ref_at(self.visualRect(index), index.row(), pos)
        return (index.row(), ref) if ref else None

    def _set_hovered(self, hit: tuple[int, str] | None) -> None:
        if hit == self.hovered:
            return
        old, self.hovered = self.hovered, hit
        for item in (old, hit):
            if item is not None and item[0] < self.model().rowCount():
                self.viewport().update(self.visualRect(self.model().index(item[0], 0)))
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor if hit
                                  else Qt.CursorShape.ArrowCursor)
        if (old[1] if old else "") != (hit[1] if hit else ""):
            self.ref_hovered.emit(hit[1] if hit else "")

    def mouseMoveEvent(self, event) -> None:
        self._set_hovered(self.ref_at(event.position().toPoint()))
        super().mouseMoveEvent(event)

    def leaveEvent(self, event) -> None:
        self._set_hovered(None)
        super().leaveEvent(event)

    def mousePressEvent(self, event) -> None:
        self._pressed = (self.ref_at(event.position().toPoint())
                         if event.button() == Qt.MouseButton.LeftButton else None)
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event) -> None:
        hit = self.ref_at(event.position().toPoint())
        pressed, self._pressed = self._pressed, None
        super().mouseReleaseEvent(event)
        if event.button() == Qt.MouseButton.LeftButton and hit is not None and hit == pressed:
            self.ref_activated.emit(hit[1])

    def _activate_row(self, index: QModelIndex) -> None:
        """Enter (or a double click) on a row goes to its first reference."""
        refs = self.model().entry(index.row()).get("refs") or []
        if refs:
            self.ref_activated.emit(str(refs[0]))

    def at_bottom(self) -> bool:
        bar = self.verticalScrollBar()
        return bar.value() >= bar.maximum() - 2


# ------------------------------------------------------------------------------ the dock
class LogWidget(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.setSpacing(2)
        bar = QHBoxLayout()
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the log: words, a rule ID, a sector, a unit…")
        self.filter.setClearButtonEnabled(True)
        self.filter.setToolTip("Shows only the entries containing every word typed "
                               "(in the text, rule ID, kind or references; “t3” for turn 3, "
                               "“p11” for phase 11)")
        bar.addWidget(self.filter, 1)
        self.count = QLabel()
        self.count.setFont(ui_font(8))
        bar.addWidget(self.count)
        self.newest = QToolButton()
        self.newest.setText("Newest ↓")
        self.newest.setToolTip("Scroll to the newest entry and keep following new ones")
        self.newest.setEnabled(False)
        bar.addWidget(self.newest)
        layout.addLayout(bar)
        self.model = LogModel(self)
        self.view = LogView()
        self.view.setModel(self.model)
        layout.addWidget(self.view, 1)
        self.follow = True
        self.filter.textChanged.connect(self._filter_changed)
        self.newest.clicked.connect(self.scroll_to_newest)
        self.view.verticalScrollBar().valueChanged.connect(self._scrolled)
        self.view.verticalScrollBar().rangeChanged.connect(self._range_changed)

    def _filter_changed(self, text: str) -> None:
        self.model.set_filter(text)
        self._update_count()
        if self.follow:
            self.view.scrollToBottom()

    def _scrolled(self, _value: int) -> None:
        # The player scrolled up: stop following until they come back to the bottom.
        self.follow = self.view.at_bottom()
        self.newest.setEnabled(not self.follow)

    def _range_changed(self, _low: int, _high: int) -> None:
        if self.follow:
            self.view.scrollToBottom()

    def scroll_to_newest(self) -> None:
        self.follow = True
        self.view.scrollToBottom()
        self.newest.setEnabled(False)

    def append(self, entries: list[dict]) -> None:
        follow = self.follow
        self.model.append(entries)
        if follow:
            self.view.scrollToBottom()
        self._update_count()

    def truncate(self, count: int) -> None:
        self.model.truncate(count)
        self._update_count()

    def reset(self, entries: list[dict]) -> None:
        self.model.reset(entries)
        self.follow = True
        self.view.scrollToBottom()
        self._update_count()

    def _update_count(self) -> None:
        shown, total = self.model.rowCount(), len(self.model.entries)
        self.count.setText(f"{shown} of {total}" if shown != total else f"{total} entries")


class LogDock(DockPanel):
    """Every log entry with its turn, phase and rule ID; references are links.

    Signals: ``ref_hovered(str)`` and ``ref_activated(str)`` with a reference such as
    "sector:12", "CG-19" or a marker ID."""

    object_name = "dock-log"
    title = "Log"
    default_area = Qt.DockWidgetArea.BottomDockWidgetArea

    ref_hovered = Signal(str)
    ref_activated = Signal(str)

    def create_widget(self) -> QWidget:
        widget = LogWidget()
        widget.view.ref_hovered.connect(self.ref_hovered)
        widget.view.ref_activated.connect(self.ref_activated)
        widget.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        widget.view.customContextMenuRequested.connect(self._context_menu)
        return widget

    def _context_menu(self, pos: QPoint) -> None:
        index = self.view.indexAt(pos)
        if not index.isValid() or self.document.session is None:
            return
        menu = QMenu(self.view)
        go = menu.addAction("Go to This Moment")
        go.setStatusTip("Show the game as it was when this was written")
        entry = self.model.entry_index(index.row())
        go.triggered.connect(lambda: self.go_to_entry(entry))
        menu.exec(self.view.viewport().mapToGlobal(pos))

    def go_to_entry(self, entry: int) -> None:
        """Show the game as it was when entry ``entry`` of the log was written."""
        try:
            self.document.look_at(self.document.moment_of_log_entry(entry))
        except StruggleError as exc:
            self.document.message.emit(f"Cannot go there: {exc}")

    @property
    def model(self) -> LogModel:
        return self.ensure_widget().model

    @property
    def view(self) -> LogView:
        return self.ensure_widget().view

    def set_filter(self, text: str) -> None:
        self.ensure_widget().filter.setText(text)

    def update_widget(self) -> None:
        widget: LogWidget = self._widget
        entries = self.document.log_entries(0)
        board = self.document.board
        if self.document.showing_step and board and isinstance(board.get("log_size"), int):
            # A step of a playback is on show: the log as it was then, not what came after.
            entries = entries[:board["log_size"]]
        known = widget.model.entries
        # The log only grows while play goes on; a playback steps it back to its first step
        # and on again; anything else (undo, another game) rewinds it.
        if len(entries) >= len(known) and entries[:len(known)] == known:
            widget.append(entries[len(known):])
        elif known[:len(entries)] == entries:
            widget.truncate(len(entries))
        else:
            widget.reset(entries)
