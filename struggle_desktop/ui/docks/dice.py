"""The dice dock: the dice rolled by the last action, drawn as dice — a d10 as a kite with its
face (0-9), a d6 with pips, a random sector (2d10) as its tens and units dice, a random pick
as a lot "k of N" — with the modifiers, the result, the reason and the rule ID.

The window hands over the entries of an action with ``show_entries`` (step by step while it
plays the Chaos side back: the rolls up to the step on show); on its own the dock also picks
up the rolls logged since it last looked whenever the document changes.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractListModel, QModelIndex, QRectF, QSize, Qt
from PySide6.QtGui import QFontMetricsF, QPainter, QPalette
from PySide6.QtWidgets import (
    QLabel,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.log import entry_tooltip
from struggle_desktop.ui.docks.style import (
    dim_text,
    paint_d6,
    paint_d10,
    paint_token,
    ui_font,
)

FACE = 34           # a die's size in pixels
GAP = 5
#: How far back to look for the latest rolls when the dock is first opened mid-game.
RECENT = 300


# ------------------------------------------------------------------------------ reading rolls
def faces_of(record: dict) -> list[tuple[str, str, str]]:
    """How one die record is drawn: [(shape, top text, bottom text)], shape in d10, d6, lot,
    text. A random sector (2d10) is its tens die and its units die."""
    die, face = str(record.get("die", "")), record.get("face")
    if die == "d10":
        return [("d10", str(face), "")]
    if die == "d6":
        return [("d6", str(face), "")]
    if die == "2d10" and isinstance(face, int):
        return [("d10", str(face // 10), ""), ("d10", str(face % 10), "")]
    if die == "d66" and isinstance(face, int):
        return [("d6", str(face // 10), ""), ("d6", str(face % 10), "")]
    if die.startswith("pick"):
        return [("lot", str(face), f"of {die[4:]}")]
    return [("text", str(face), die)]


def die_words(record: dict) -> str:
    """"d10 5 +1 military of the units in 23 = 6", or "3 of 70" for a pick."""
    die, face = str(record.get("die", "")), record.get("face")
    if die.startswith("pick"):
        return f"lot {face} of {die[4:]}"
    if die == "2d10" and isinstance(face, int):
        text = f"d10 tens {face // 10}, d10 units {face % 10}: {face:02d}"
    else:
        text = f"{die} {face}"
    if "read_as" in record:
        text += f" (read as {record['read_as']})"
    mods = record.get("modifiers") or []
    for label, amount in mods:
        text += f" {'+' if amount >= 0 else '−'}{abs(amount)} {label}"
    if mods or "read_as" in record:
        text += f" = {record.get('result')}"
    return text


def roll_reason(entry: dict) -> str:
    """The reason of a roll: its log text up to the die ("AERT for the Randoids in 23"), or
    all of it when the die is not named in it ("Drawn from the pool (72 of 99): Rebellion")."""
    text = entry.get("text", "")
    dice = entry.get("dice") or []
    die = str(dice[0].get("die", "")) if dice else ""
    for marker in (f": {die} ", ": random sector"):
        if die and marker in text:
            return text.split(marker, 1)[0]
    return text


def rolls_in(entries: list[dict]) -> list[dict]:
    return [e for e in entries if e.get("dice")]


def latest_rolls(entries: list[dict]) -> list[dict]:
    """The rolls of the newest turn and phase in ``entries`` that saw any."""
    rolls = rolls_in(entries)
    if not rolls:
        return []
    last = rolls[-1]
    when = (last.get("turn"), last.get("phase"))
    tail = []
    for entry in reversed(rolls):
        if (entry.get("turn"), entry.get("phase")) != when:
            break
        tail.append(entry)
    return tail[::-1]


# ------------------------------------------------------------------------------ model and painting
class DiceModel(QAbstractListModel):
    def __init__(self, parent=None):
        super().__init__(parent)
        self.rolls: list[dict] = []

    def rowCount(self, parent: QModelIndex | None = None) -> int:
        return 0 if parent is not None and parent.isValid() else len(self.rolls)

    def data(self, index: QModelIndex, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        entry = self.rolls[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return entry.get("text", "")
        if role == Qt.ItemDataRole.ToolTipRole:
            return entry_tooltip(entry)
        if role == Qt.ItemDataRole.UserRole:
            return entry
        return None

    def set_rolls(self, rolls: list[dict]) -> None:
        self.beginResetModel()
        self.rolls = list(rolls)
        self.endResetModel()


class DiceDelegate(QStyledItemDelegate):
    """A row: the dice drawn, then the reason above the die words, the result at the right."""

    HEIGHT = FACE + 10

    def sizeHint(self, option, index) -> QSize:
        return QSize(360, self.HEIGHT)

    def paint(self, painter: QPainter, option, index: QModelIndex) -> None:
        entry = index.data(Qt.ItemDataRole.UserRole)
        rect = QRectF(option.rect)
        painter.save()
        palette = option.palette
        if option.state & QStyle.StateFlag.State_Selected:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.Highlight))
        elif index.row() % 2:
            painter.fillRect(option.rect, palette.color(QPalette.ColorRole.AlternateBase))
        records = entry.get("dice") or []
        x = rect.left() + 6
        top = rect.top() + (rect.height() - FACE) / 2
        for k, record in enumerate(records):
            # Earlier records of a random sector are the rerolls; the last one counted.
            rerolled = record.get("die") == "2d10" and k < len(records) - 1
            painter.setOpacity(0.4 if rerolled else 1.0)
            for shape, upper, lower in faces_of(record):
                box = QRectF(x, top, FACE, FACE)
                if shape == "d10":
                    paint_d10(painter, box, int(upper) if upper.isdigit() else upper)
                elif shape == "d6":
                    paint_d6(painter, box.adjusted(2, 2, -2, -2), int(upper) if upper.isdigit()
                             else 0)
                elif shape == "lot":
                    paint_token(painter, box, upper, lower)
                else:
                    paint_token(painter, box, upper, lower)
                x += FACE + 3
            x += GAP
        painter.setOpacity(1.0)
        result = records[-1].get("result") if records else None
        text = palette.color(QPalette.ColorRole.Text)
        result_font = ui_font(13, bold=True)
        result_width = QFontMetricsF(result_font).horizontalAdvance("= 000") + 8
        result_rect = QRectF(rect.right() - result_width, rect.top(), result_width - 6,
                             rect.height())
        words_rect = QRectF(x + 4, rect.top() + 3, result_rect.left() - x - 8,
                            rect.height() / 2 - 3)
        detail_rect = words_rect.translated(0, rect.height() / 2 - 2)
        painter.setPen(text)
        painter.setFont(ui_font(9, bold=True))
        reason = roll_reason(entry)
        painter.drawText(words_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         QFontMetricsF(painter.font()).elidedText(
                             reason, Qt.TextElideMode.ElideRight, words_rect.width()))
        painter.setFont(ui_font(8))
        painter.setPen(dim_text(self.parent()))
        rule = entry.get("rule", "")
        detail = "; ".join(die_words(r) for r in records[-1:]) + (f"  ·  {rule}" if rule else "")
        painter.drawText(detail_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                         QFontMetricsF(painter.font()).elidedText(
                             detail, Qt.TextElideMode.ElideRight, detail_rect.width()))
        if result is not None:
            painter.setPen(text)
            painter.setFont(result_font)
            painter.drawText(result_rect, Qt.AlignmentFlag.AlignRight
                             | Qt.AlignmentFlag.AlignVCenter, f"= {result}")
        painter.restore()


class DiceWidget(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.setSpacing(3)
        self.heading = QLabel()
        self.heading.setFont(ui_font(9, bold=True))
        # Wrapped: a long heading ("No dice in the last action; earlier: …") must not widen
        # the panel beyond its dock (it scrolled sideways on a laptop screen).
        self.heading.setWordWrap(True)
        layout.addWidget(self.heading)
        self.model = DiceModel(self)
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setItemDelegate(DiceDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout.addWidget(self.view, 1)

    def show_rolls(self, rolls: list[dict], heading: str) -> None:
        self.model.set_rolls(rolls)
        self.heading.setText(heading)
        self.view.scrollToBottom()


def when_text(rolls: list[dict]) -> str:
    first, last = rolls[0], rolls[-1]
    a = (first.get("turn"), first.get("phase"))
    b = (last.get("turn"), last.get("phase"))
    if a == b:
        return f"turn {a[0]}, phase {a[1]}"
    return f"turn {a[0]} phase {a[1]} to turn {b[0]} phase {b[1]}"


def count_text(n: int) -> str:
    return f"{n} roll{'s' if n != 1 else ''}"


class DiceDock(DockPanel):
    """The dice of the last action, drawn as dice with modifiers, result, reason and rule."""

    object_name = "dock-dice"
    title = "Dice"
    default_area = Qt.DockWidgetArea.BottomDockWidgetArea

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(document, parent)
        self._seen: int | None = None       # log size the dock last read up to
        self._rolls: list[dict] = []
        self._heading = ""

    @property
    def rolls(self) -> list[dict]:
        """The log entries with dice on show."""
        return list(self._rolls)

    def show_entries(self, entries: list[dict]) -> None:
        """Show the rolls among ``entries`` (an action's new log entries). Without any, the
        earlier rolls stay on show under a heading that says the action rolled none."""
        rolls = rolls_in(entries)
        if rolls:
            self._set(rolls, f"{count_text(len(rolls))} — {when_text(rolls)}")
        elif self._rolls:
            self._set(self._rolls, "No dice in the last action; earlier: "
                      f"{count_text(len(self._rolls))} — {when_text(self._rolls)}")
        else:
            self._set([], "No dice in the last action.")

    def _set(self, rolls: list[dict], heading: str) -> None:
        self._rolls, self._heading = rolls, heading
        if self._widget is not None:
            self._widget.show_rolls(rolls, heading)

    def create_widget(self) -> QWidget:
        return DiceWidget()

    def update_widget(self) -> None:
        board = self.document.board
        if board is None:
            self._seen = None
            self._set([], "No game is open.")
            return
        if self.document.showing_step and self._seen is not None:
            # A step of a playback is on show: the window hands over that step's rolls.
            self._widget.show_rolls(self._rolls, self._heading)
            return
        size = board.get("log_size", len(self.document.log_entries(0)))
        if self._seen is None or size < self._seen:
            # First look, or the history was rewound: show the latest rolls there are (up
            # to the position on show, never the rolls that come after it).
            start = max(0, size - RECENT)
            rolls = latest_rolls(self.document.log_entries(start)[:size - start])
            self._seen = size
            if rolls:
                self._set(rolls, f"Latest: {count_text(len(rolls))} — {when_text(rolls)}")
            else:
                self._set([], "No dice rolled yet.")
            return
        if size == self._seen:
            self._widget.show_rolls(self._rolls, self._heading)
            return
        fresh = self.document.log_entries(self._seen)[:size - self._seen]
        self._seen = size
        self.show_entries(fresh)
