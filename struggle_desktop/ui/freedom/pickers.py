"""Small widgets of the Freedom environs form: chart pickers, editable record tables, pools
and the character lists that mission groups are built from by drag and drop.

Nothing here knows a rule. The chart pickers show the bonus dice rolls charts as the data
module gives them (``FreedomData.bonus_chart``); the tables and lists only hold what the
players type, and the form hands it to the engine to be judged.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QMimeData, Qt, Signal
from PySide6.QtGui import QFont, QKeySequence
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QHBoxLayout,
                               QHeaderView, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QSpinBox, QTableWidget, QTableWidgetItem,
                               QVBoxLayout, QWidget)

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import StruggleError

#: The drag payload of a character: {"name": ..., "origin": list id}.
CHARACTER_MIME = "application/x-struggle-freedom-character"
#: A dragged character is a name and where it came from: a few hundred bytes.
DROP_LIMITS = untrusted.Limits(max_bytes=64 * 1024, max_nodes=100, max_depth=4)
NAME_ROLE = Qt.ItemDataRole.UserRole
#: What a spin box shows for a rating or value the players have not entered (None).
UNSET = "—"


# ------------------------------------------------------------------------------ combo helpers
def fill_combo(combo: QComboBox, items: Iterable[tuple[str, str]]) -> None:
    """Replace the combo's items by (value, label) pairs, keeping the current value if it is
    still offered."""
    current = combo.currentData()
    combo.blockSignals(True)
    combo.clear()
    for value, label in items:
        combo.addItem(label, value)
    index = combo.findData(current)
    combo.setCurrentIndex(index if index >= 0 else 0)
    combo.blockSignals(False)


def set_combo_value(combo: QComboBox, value: str) -> None:
    """Select ``value``; a value the combo does not offer is added as it is, so a damaged
    context loses nothing and the engine can name what is wrong with it."""
    index = combo.findData(value)
    if index < 0:
        combo.addItem(f"{value} (not a known value)", value)
        index = combo.count() - 1
    combo.setCurrentIndex(index)


def optional_spin(maximum: int, tip: str = "") -> QSpinBox:
    """A spin box whose lowest step (-1) means "not entered" (shown as a dash)."""
    spin = QSpinBox()
    spin.setRange(-1, maximum)
    spin.setSpecialValueText(UNSET)
    spin.setValue(-1)
    spin.setToolTip(tip)
    return spin


def spin_value(spin: QSpinBox) -> int | None:
    """The number shown, or None where an optional box shows its dash."""
    if spin.specialValueText() and spin.value() == spin.minimum():
        return None
    return spin.value()


def set_spin(spin: QSpinBox, value: Any) -> None:
    """Show ``value`` (None: not entered); a number past the box's range widens it rather than
    being cut, so the engine still sees what was given."""
    if value is None:
        spin.setValue(spin.minimum())
        return
    if isinstance(value, bool) or not isinstance(value, int):
        value = spin.minimum()
    if value > spin.maximum():
        spin.setMaximum(value)
    if value < spin.minimum():
        spin.setMinimum(value)
    spin.setValue(value)


# ------------------------------------------------------------------------------ chart pickers
def cell_text(cell) -> str:
    """A chart cell as printed: ``4``, ``8 (2)``; a dash where the chart has one."""
    if cell is None:
        return "–"
    return f"{cell.base} ({cell.alt})" if cell.alt is not None else str(cell.base)


class ChartPicker(QTableWidget):
    """One bonus dice rolls chart of one side: a name column and one column per mission
    letter with the chart's value. Rows already taken are greyed; double-click or Enter picks
    the current row (:attr:`picked`)."""

    picked = Signal(str)

    def __init__(self, data, kind: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.data = data
        self.kind = kind
        self.side = "rebel"
        self._extras: list[str] = []
        self._taken: set[str] = set()
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setAlternatingRowColors(True)
        self.verticalHeader().setVisible(False)
        self.verticalHeader().setDefaultSectionSize(22)
        self.setWordWrap(False)
        self.itemDoubleClicked.connect(lambda _item: self._pick())
        # A character's row may be dragged into the list of the environs (drag only: the
        # chart itself never changes by a drop).
        self.setDragEnabled(kind == "character")
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragOnly if kind == "character"
                             else QAbstractItemView.DragDropMode.NoDragDrop)
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.set_side("rebel")

    @property
    def origin(self) -> str:
        """Where a drag from this chart comes from, as the drop target reads it."""
        return f"chart-{self.kind}"

    def mimeTypes(self) -> list[str]:      # noqa: N802 - Qt's name
        return [CHARACTER_MIME]

    def mimeData(self, items) -> QMimeData:     # noqa: N802 - Qt's name
        """The dragged row's name (a variant row or a row already taken drags nothing the
        drop target accepts: it names why on the drop)."""
        row = items[0].row() if items else -1
        item = self.item(row, 0) if row >= 0 else None
        name = item.data(NAME_ROLE) if item is not None else None
        if name is None and 0 <= row < len(self.rows()):
            name = list(self.rows())[row]        # a variant row: the target says why not
        return character_mime(str(name or ""), self.origin)

    def supportedDropActions(self) -> Qt.DropAction:   # noqa: N802 - Qt's name
        return Qt.DropAction.CopyAction

    def keyPressEvent(self, event) -> None:     # noqa: N802 - Qt's name
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self._pick()
            return
        super().keyPressEvent(event)

    def rows(self) -> dict:
        return dict(self.data.bonus_chart(self.side, self.kind))

    def set_side(self, side: str) -> None:
        self.side = side
        self._fill()

    def set_extras(self, names: Sequence[str]) -> None:
        """Possessions the players added that have no chart values (FIG-CTX-10)."""
        self._extras = [n for n in names if n]
        self._fill()

    def set_taken(self, names: Iterable[str]) -> None:
        self._taken = set(names)
        for r in range(self.rowCount()):
            item = self.item(r, 0)
            name = item.data(NAME_ROLE)
            if name is None:
                continue
            taken = name in self._taken
            if self.kind == "character":
                shown = self.data.display_name(name)
                item.setToolTip(f"{shown}: already in this environs" if taken else
                                f"{shown}: double-click to add, or drag it across")
            for c in range(self.columnCount()):
                cell = self.item(r, c)
                if cell is not None:
                    flags = cell.flags()
                    enabled = Qt.ItemFlag.ItemIsEnabled
                    cell.setFlags(flags & ~enabled if taken else flags | enabled)

    def _fill(self) -> None:
        rows = self.rows()
        letters = [x for x in self.data.mission_letters
                   if any(r.has_column(x) for r in rows.values())]
        self.clear()
        self.setColumnCount(1 + len(letters))
        self.setHorizontalHeaderLabels(["Name"] + letters)
        for k, letter in enumerate(letters, start=1):
            self.horizontalHeaderItem(k).setToolTip(
                f"{letter}: {self.data.mission(letter).name} — the value this adds to the "
                f"bonus count (in brackets: when going along without leading)")
        names = list(rows) + [x for x in self._extras if x not in rows]
        self.setRowCount(len(names))
        italic = QFont(self.font())
        italic.setItalic(True)
        for r, name in enumerate(names):
            row = rows.get(name)
            shown = self.data.display_name(name)
            item = QTableWidgetItem(shown)
            if row is not None and row.variant_of is not None:
                # A variant row is never entered itself: the base character's "variant" flag
                # (or his companion) selects it, so it is shown for reading only.
                item.setText(f"{shown} (variant)")
                item.setFont(italic)
                item.setToolTip(f"Variant row of {self.data.display_name(row.variant_of)}: used "
                                f"instead of his own row when the variant applies; pick "
                                f"{self.data.display_name(row.variant_of)}")
            else:
                item.setData(NAME_ROLE, name)
                item.setToolTip(f"{shown}: double-click to add")
            if row is None:
                item.setToolTip(f"{name}: a possession of your own, without chart values")
            self.setItem(r, 0, item)
            for k, letter in enumerate(letters, start=1):
                text = cell_text(row.cell(letter)) if row is not None else ""
                cell = QTableWidgetItem(text)
                cell.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                if row is not None and row.variant_of is not None:
                    cell.setFont(italic)
                self.setItem(r, k, cell)
            if row is not None and row.variant_of is not None:
                for c in range(self.columnCount()):
                    self.item(r, c).setFlags(Qt.ItemFlag.NoItemFlags)
        header = self.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        for k in range(1, self.columnCount()):
            header.setSectionResizeMode(k, QHeaderView.ResizeMode.ResizeToContents)
        self.set_taken(self._taken)

    def current_name(self) -> str | None:
        """The canonical name of the selected row (None for a variant row or no selection)."""
        row = self.currentRow()
        if row < 0 or self.item(row, 0) is None:
            return None
        name = self.item(row, 0).data(NAME_ROLE)
        return None if name is None or name in self._taken else name

    def select_name(self, name: str) -> None:
        for r in range(self.rowCount()):
            if self.item(r, 0).data(NAME_ROLE) == name:
                self.setCurrentCell(r, 0)
                return

    def _pick(self) -> None:
        name = self.current_name()
        if name is not None:
            self.picked.emit(name)


# ------------------------------------------------------------------------------ record tables
@dataclass
class Column:
    """One column of a :class:`RecordTable`: a context field and how it is edited.

    ``kind`` is ``text``, ``choice`` (``choices`` = (value, label) pairs), ``int``,
    ``optional`` (an int that may be left unset, shown as a dash) or ``bool``. A record leaves
    out a field whose value equals ``omit`` (the engine's own default), so the context stays as
    short as one written by hand."""

    key: str
    title: str
    kind: str = "text"
    choices: Sequence[tuple[str, str]] = ()
    default: Any = None
    maximum: int = 999
    omit: Any = field(default_factory=lambda: _NEVER)
    tip: str = ""


class _Never:
    def __eq__(self, other):            # equal to nothing, so nothing is left out
        return False

    __hash__ = object.__hash__


_NEVER = _Never()


#: A record table's row height, and the rows it always has room for (so a laptop screen shows
#: several records at once; the form scrolls instead of squeezing the table).
ROW_HEIGHT = 30
MIN_ROWS = 4


class RecordTable(QWidget):
    """An editable list of records (units, sovereigns, cells...): one row per record, one
    widget per field, Add and Remove buttons. :attr:`changed` fires on every edit."""

    changed = Signal()

    def __init__(self, columns: Sequence[Column], noun: str,
                 defaults: Callable[[int], dict] | None = None, parent: QWidget | None = None,
                 widths: dict[str, int] | None = None):
        super().__init__(parent)
        self.columns = list(columns)
        self.noun = noun
        self.defaults = defaults or (lambda _n: {})
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.table = QTableWidget(0, len(self.columns))
        self.table.setHorizontalHeaderLabels([c.title for c in self.columns])
        for k, col in enumerate(self.columns):
            if col.tip:
                self.table.horizontalHeaderItem(k).setToolTip(col.tip)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.verticalHeader().setDefaultSectionSize(ROW_HEIGHT)
        for k, col in enumerate(self.columns):
            if widths and col.key in widths:
                self.table.horizontalHeader().setSectionResizeMode(
                    k, QHeaderView.ResizeMode.Interactive)
                self.table.setColumnWidth(k, widths[col.key])
        self.table.setMinimumHeight(self.height_for_rows(MIN_ROWS))
        layout.addWidget(self.table, 1)
        buttons = QHBoxLayout()
        self.add_button = QPushButton(f"Add {noun}")
        self.remove_button = QPushButton(f"Remove {noun}")
        self.add_button.clicked.connect(lambda: self.add_row())
        self.remove_button.clicked.connect(self.remove_current)
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.remove_button)
        buttons.addStretch(1)
        layout.addLayout(buttons)

    def height_for_rows(self, rows: int) -> int:
        """The table's height that shows ``rows`` rows whole, with its header, frame and a
        horizontal scroll bar (a narrow dialog may need one)."""
        table = self.table
        return (table.horizontalHeader().sizeHint().height() + rows * ROW_HEIGHT
                + 2 * table.frameWidth() + table.horizontalScrollBar().sizeHint().height())

    def rows_shown(self) -> float:
        """How many rows the table's viewport has room for now."""
        return self.table.viewport().height() / ROW_HEIGHT

    # rows -----------------------------------------------------------------------------
    def add_row(self, record: dict | None = None) -> int:
        values = dict(self.defaults(self.table.rowCount()))
        values.update(record or {})
        row = self.table.rowCount()
        self.table.insertRow(row)
        for k, col in enumerate(self.columns):
            self.table.setCellWidget(row, k, self._editor(col, values.get(col.key, col.default)))
        self.changed.emit()
        return row

    def remove_current(self) -> None:
        row = self.table.currentRow()
        if row < 0 and self.table.rowCount():
            row = self.table.rowCount() - 1
        if row >= 0:
            self.table.removeRow(row)
            self.changed.emit()

    def set_records(self, records: Iterable[dict]) -> None:
        self.blockSignals(True)
        self.table.setRowCount(0)
        for record in records:
            self.add_row(record)
        self.blockSignals(False)
        self.changed.emit()

    def records(self) -> list[dict]:
        """The rows as context records, fields equal to their ``omit`` value left out."""
        out = []
        for row in range(self.table.rowCount()):
            record = {}
            for k, col in enumerate(self.columns):
                value = self._value(col, self.table.cellWidget(row, k))
                if not (col.omit == value):
                    record[col.key] = value
            out.append(record)
        return out

    def editor(self, row: int, key: str) -> QWidget:
        """The widget editing ``key`` in ``row`` (tests and the form fill it directly)."""
        k = next(i for i, c in enumerate(self.columns) if c.key == key)
        widget = self.table.cellWidget(row, k)
        return widget.findChild(QCheckBox) if isinstance(widget, _Centered) else widget

    # editors ----------------------------------------------------------------------------
    def _editor(self, col: Column, value: Any) -> QWidget:
        if col.kind == "choice":
            combo = QComboBox()
            for v, label in col.choices:
                combo.addItem(label, v)
            set_combo_value(combo, "" if value is None else value)
            combo.currentIndexChanged.connect(lambda _i: self.changed.emit())
            widget: QWidget = combo
        elif col.kind in ("int", "optional"):
            spin = optional_spin(col.maximum) if col.kind == "optional" else QSpinBox()
            if col.kind == "int":
                spin.setRange(0, col.maximum)
            set_spin(spin, value)
            spin.valueChanged.connect(lambda _v: self.changed.emit())
            widget = spin
        elif col.kind == "bool":
            widget = _Centered(bool(value))
            widget.box.toggled.connect(lambda _b: self.changed.emit())
        else:
            edit = QLineEdit("" if value is None else str(value))
            edit.textChanged.connect(lambda _t: self.changed.emit())
            widget = edit
        if col.tip:
            widget.setToolTip(col.tip)
        return widget

    @staticmethod
    def _value(col: Column, widget: QWidget) -> Any:
        if col.kind == "choice":
            value = widget.currentData()
            return None if value == "" else value
        if col.kind == "int":
            return widget.value()
        if col.kind == "optional":
            return spin_value(widget)
        if col.kind == "bool":
            return widget.box.isChecked()
        return widget.text().strip()


class _Centered(QWidget):
    """A check box centred in a table cell."""

    def __init__(self, checked: bool):
        super().__init__()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.box = QCheckBox()
        self.box.setChecked(checked)
        layout.addWidget(self.box)


# ------------------------------------------------------------------------------ pools
class PoolList(QWidget):
    """An ordered pool of names (unrecruited characters, out-of-play possessions): either the
    engine's default (the check box "Default", the field left out of the context) or the names
    ticked in the list, in list order."""

    changed = Signal()

    def __init__(self, title: str, default_text: str, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(QLabel(f"<b>{title}</b>"))
        self.default_box = QCheckBox(default_text)
        self.default_box.setChecked(True)
        self.default_box.toggled.connect(self._toggle)
        layout.addWidget(self.default_box)
        self.list = QListWidget()
        self.list.setEnabled(False)
        self.list.itemChanged.connect(lambda _i: self.changed.emit())
        layout.addWidget(self.list, 1)
        self._label: Callable[[str], str] = str
        self._excluded: set[str] = set()

    def set_universe(self, names: Sequence[str], label: Callable[[str], str] = str) -> None:
        """The names that may be in the pool, in their usual order; the ticks are kept."""
        self._label = label
        value = self.value()
        self._rebuild(list(names), value)

    def _rebuild(self, universe: list[str], value: list[str] | None) -> None:
        chosen = list(value or [])
        order = chosen + [n for n in universe if n not in chosen]
        self.list.blockSignals(True)
        self.list.clear()
        for name in order:
            item = QListWidgetItem(self._label(name))
            item.setData(NAME_ROLE, name)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Checked if name in chosen
                               else Qt.CheckState.Unchecked)
            self.list.addItem(item)
        self.list.blockSignals(False)
        self.set_excluded(self._excluded)

    def set_excluded(self, names: Iterable[str]) -> None:
        """Names that are in play here, greyed and marked in the list: leaving the default does
        not tick them (ticked anyway, the game says why it refuses them)."""
        self._excluded = set(names)
        italic = QFont(self.list.font())
        italic.setItalic(True)
        default = self.default_box.isChecked()
        self.list.blockSignals(True)
        for i in range(self.list.count()):
            item = self.list.item(i)
            name = item.data(NAME_ROLE)
            out = name in self._excluded
            item.setText(f"{self._label(name)} (in play here)" if out else self._label(name))
            item.setFont(italic if out else self.list.font())
            if default:
                # The default's content, shown ticked for reading (the list is disabled).
                item.setCheckState(Qt.CheckState.Unchecked if out else Qt.CheckState.Checked)
        self.list.blockSignals(False)

    def universe(self) -> list[str]:
        return [self.list.item(i).data(NAME_ROLE) for i in range(self.list.count())]

    def value(self) -> list[str] | None:
        """None for the default, else the ticked names in list order."""
        if self.default_box.isChecked():
            return None
        return [self.list.item(i).data(NAME_ROLE) for i in range(self.list.count())
                if self.list.item(i).checkState() == Qt.CheckState.Checked]

    def set_value(self, value: list[str] | None, universe: Sequence[str]) -> None:
        self.blockSignals(True)
        self.default_box.setChecked(value is None)
        self._rebuild(list(universe), value)
        self.blockSignals(False)
        self.changed.emit()

    def _toggle(self, default: bool) -> None:
        # Leaving the default starts from what it holds right now, already shown ticked.
        self.list.setEnabled(not default)
        self.set_excluded(self._excluded)
        self.changed.emit()


# ------------------------------------------------------------------------------ drag and drop
def character_mime(name: str, origin: str) -> QMimeData:
    mime = QMimeData()
    mime.setData(CHARACTER_MIME, json.dumps({"name": name, "origin": origin}).encode("utf-8"))
    mime.setText(name)
    return mime


def read_character_mime(mime: QMimeData) -> tuple[str, str] | None:
    if not mime.hasFormat(CHARACTER_MIME):
        return None
    try:
        # Another program may drop data of this type too: read it as any untrusted JSON.
        payload = untrusted.parse_json(bytes(mime.data(CHARACTER_MIME)), "dropped data",
                                       DROP_LIMITS)
        return str(payload["name"]), str(payload["origin"])
    except (StruggleError, KeyError, TypeError):
        return None


class NameList(QListWidget):
    """A list of characters that can be dragged out and dropped onto: the free characters of
    the groups tab (``origin`` "free") or a group's members (``origin`` its id). A drop emits
    :attr:`dropped` (name, where it came from); the form moves the character and redraws both
    lists, so the lists themselves never change on their own. Delete emits
    :attr:`delete_pressed` (the keyboard way to take a member out)."""

    dropped = Signal(str, str)
    delete_pressed = Signal()

    def __init__(self, origin: str, parent: QWidget | None = None):
        super().__init__(parent)
        self.origin = origin
        self.setDragEnabled(True)
        self.setAcceptDrops(True)
        self.setDropIndicatorShown(True)
        self.setDragDropMode(QAbstractItemView.DragDropMode.DragDrop)
        # Copy, so that the view never deletes the dragged row itself (the form redraws).
        self.setDefaultDropAction(Qt.DropAction.CopyAction)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)

    def set_names(self, entries: Iterable[tuple[str, str, str]]) -> None:
        """(name, label, tooltip) per row; the selection is kept where it can be."""
        current = self.current_name()
        self.clear()
        for name, label, tip in entries:
            item = QListWidgetItem(label)
            item.setData(NAME_ROLE, name)
            item.setToolTip(tip)
            self.addItem(item)
            if name == current:
                self.setCurrentItem(item)

    def names(self) -> list[str]:
        return [self.item(i).data(NAME_ROLE) for i in range(self.count())]

    def set_labels(self, labels: dict[str, str]) -> None:
        """New texts for some rows, by name, without rebuilding the list."""
        for i in range(self.count()):
            item = self.item(i)
            text = labels.get(item.data(NAME_ROLE))
            if text is not None:
                item.setText(text)

    def current_name(self) -> str | None:
        item = self.currentItem()
        return item.data(NAME_ROLE) if item is not None else None

    def select_name(self, name: str) -> None:
        for i in range(self.count()):
            if self.item(i).data(NAME_ROLE) == name:
                self.setCurrentRow(i)
                return

    # drag -------------------------------------------------------------------------------
    def mimeTypes(self) -> list[str]:      # noqa: N802 - Qt's name
        return [CHARACTER_MIME]

    def mimeData(self, items) -> QMimeData:     # noqa: N802 - Qt's name
        name = items[0].data(NAME_ROLE) if items else ""
        return character_mime(name, self.origin)

    def supportedDropActions(self) -> Qt.DropAction:   # noqa: N802 - Qt's name
        return Qt.DropAction.CopyAction | Qt.DropAction.MoveAction

    # drop -------------------------------------------------------------------------------
    def dragEnterEvent(self, event) -> None:    # noqa: N802 - Qt's name
        if event.mimeData().hasFormat(CHARACTER_MIME):
            event.setDropAction(Qt.DropAction.CopyAction)
            event.accept()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:     # noqa: N802 - Qt's name
        self.dragEnterEvent(event)

    def dropEvent(self, event) -> None:         # noqa: N802 - Qt's name
        got = read_character_mime(event.mimeData())
        if got is None:
            event.ignore()
            return
        event.setDropAction(Qt.DropAction.CopyAction)
        event.accept()
        name, origin = got
        if origin != self.origin:
            self.dropped.emit(name, origin)

    def keyPressEvent(self, event) -> None:     # noqa: N802 - Qt's name
        if event.matches(QKeySequence.StandardKey.Delete) or event.key() == Qt.Key.Key_Backspace:
            self.delete_pressed.emit()
            return
        super().keyPressEvent(event)

