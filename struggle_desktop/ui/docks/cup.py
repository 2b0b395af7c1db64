"""The event cup dock: how many chaos event markers remain in the cup (a count only — the
rules keep the contents hidden), how many were discarded, each marker drawn this turn with
its effect in the project's words, and the effects in play.

Read from ``board["cup"]``: ``remaining``, ``discarded``, ``drawn`` [{id, name, effect,
rule}] and ``effects`` [{id, name, effect}].
"""

from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPixmap
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.style import nobreak, paint_swatch, ui_font

CUP_COLOUR = QColor("#5b4a8a")
RULE_GREY = "#8a8f98"


class CupGauge(QWidget):
    """A drawn cup with the number of markers left in it."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.remaining: int | None = None
        self.setFixedSize(64, 58)

    def set_remaining(self, remaining: int | None) -> None:
        self.remaining = remaining
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(64, 58)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        cup = QPainterPath()
        cup.moveTo(4, 8)
        cup.lineTo(w - 4, 8)
        cup.cubicTo(w - 6, h * 0.75, w * 0.7, h - 2, w / 2, h - 2)
        cup.cubicTo(w * 0.3, h - 2, 6, h * 0.75, 4, 8)
        painter.setPen(QPen(CUP_COLOUR.darker(150), 1.5))
        painter.setBrush(CUP_COLOUR)
        painter.drawPath(cup)
        painter.setBrush(CUP_COLOUR.lighter(140))
        painter.drawEllipse(QRectF(4, 3, w - 8, 10))
        painter.setPen(QColor("#ffffff"))
        painter.setFont(ui_font(14, bold=True))
        text = "–" if self.remaining is None else str(self.remaining)
        painter.drawText(QRectF(0, 14, w, h - 20), Qt.AlignmentFlag.AlignCenter, text)


def marker_chip(kind: str) -> QPixmap:
    """A small Imperial marker with the kind's initial."""
    pixmap = QPixmap(24, 18)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    paint_swatch(painter, QRectF(1, 1, 22, 16), "imp", kind[:1].upper())
    painter.end()
    return pixmap


class MarkersAvailableBox(QGroupBox):
    """The Imperial markers available box: one row per kind of marker with its count."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__("Imperial markers available", parent)
        self.setFont(ui_font(9, bold=True))
        self.grid = QGridLayout(self)
        self.grid.setContentsMargins(8, 4, 8, 6)
        self.grid.setHorizontalSpacing(10)
        self.grid.setColumnStretch(1, 1)
        self.rows: dict[str, tuple[QLabel, QLabel]] = {}
        self.chips: list[QLabel] = []
        self.counts: dict[str, int] = {}
        self.setToolTip("Markers the Empire holds in its Markers Available box, ready to be "
                        "used.")

    def set_counts(self, available: dict | None) -> None:
        available = dict(available or {})
        if list(available) != list(self.counts):
            self._rebuild(list(available))
        self.counts = available
        for kind, count in available.items():
            name, number = self.rows[kind]
            number.setText(str(count))
            name.setEnabled(bool(count))
            number.setEnabled(bool(count))
            tip = f"{count} {kind.replace('_', ' ').capitalize()} marker(s) available"
            name.setToolTip(tip)
            number.setToolTip(tip)

    def count_of(self, kind: str) -> int | None:
        return self.counts.get(kind)

    def _rebuild(self, kinds: list[str]) -> None:
        for widget in [w for pair in self.rows.values() for w in pair] + self.chips:
            widget.deleteLater()
        self.rows, self.chips = {}, []
        for row, kind in enumerate(kinds):
            chip = QLabel()
            chip.setPixmap(marker_chip(kind))
            self.grid.addWidget(chip, row, 0)
            self.chips.append(chip)
            name = QLabel(kind.replace("_", " ").capitalize())
            name.setFont(ui_font(9))
            number = QLabel()
            number.setFont(ui_font(11, bold=True))
            number.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            self.grid.addWidget(name, row, 1)
            self.grid.addWidget(number, row, 2)
            self.rows[kind] = (name, number)
        if not kinds:
            empty = QLabel("none")
            empty.setFont(ui_font(9))
            self.grid.addWidget(empty, 0, 0)
            self.rows["_empty"] = (empty, QLabel())


def marker_html(number: str, marker: dict) -> str:
    name = html.escape(marker.get("name") or marker.get("id", "?"))
    rule = marker.get("rule", "")
    rule_html = (f' <span style="color:{RULE_GREY}; font-size:small">'
                 f"{html.escape(nobreak(rule))}</span>" if rule else "")
    effect = html.escape(marker.get("effect") or "(no description)")
    return (f'<p style="margin-top:2px; margin-bottom:6px"><b>{number}{name}</b>{rule_html}<br>'
            f"{effect}</p>")


def cup_html(drawn: list[dict], effects: list[dict]) -> str:
    """The effects in play first (they bear on the decisions now), then the draws in order."""
    parts = [f"<h4 style='margin-bottom:2px'>Effects in play ({len(effects)})</h4>"]
    parts += [marker_html("", m) for m in effects] or [
        f'<p style="color:{RULE_GREY}">None.</p>']
    parts.append(f"<h4 style='margin-bottom:2px'>Drawn this turn ({len(drawn)})</h4>")
    parts += [marker_html(f"{k}. ", m) for k, m in enumerate(drawn, start=1)] or [
        f'<p style="color:{RULE_GREY}">No marker drawn yet this turn.</p>']
    return "".join(parts)


class CupWidget(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        top.setContentsMargins(8, 6, 8, 4)
        self.gauge = CupGauge()
        top.addWidget(self.gauge)
        counts = QVBoxLayout()
        counts.setSpacing(1)
        self.remaining_label = QLabel()
        self.remaining_label.setFont(ui_font(10, bold=True))
        self.discarded_label = QLabel()
        self.discarded_label.setFont(ui_font(8.5))
        hidden = QLabel("What is in the cup stays hidden.")
        hidden.setFont(ui_font(8))
        hidden.setStyleSheet(f"color: {RULE_GREY}")
        counts.addWidget(self.remaining_label)
        counts.addWidget(self.discarded_label)
        counts.addWidget(hidden)
        top.addLayout(counts, 1)
        outer.addLayout(top)
        tip = ("Chaos event markers left in the cup. Only their number is shown: which markers "
               "remain is hidden, as on the table.")
        self.gauge.setToolTip(tip)
        self.remaining_label.setToolTip(tip)
        # Rich text in a browser: it wraps and scrolls long effect texts at any dock size.
        self.markers = QTextBrowser()
        self.markers.setFont(ui_font(8.5))
        self.markers.setFrameShape(QFrame.Shape.NoFrame)
        self.markers.setOpenLinks(False)
        self.markers.document().setDocumentMargin(8)
        outer.addWidget(self.markers, 1)
        self.drawn: list[dict] = []
        self.effects: list[dict] = []
        self._shown: str | None = None

    def show_cup(self, cup: dict | None) -> None:
        if cup is None:
            self.gauge.set_remaining(None)
            self.remaining_label.setText("No game is open")
            self.discarded_label.setText("")
            self._fill([], [])
            return
        remaining = cup.get("remaining", 0)
        self.gauge.set_remaining(remaining)
        self.remaining_label.setText(f"{remaining} marker{'s' if remaining != 1 else ''} "
                                     "in the cup")
        self.discarded_label.setText(f"{cup.get('discarded', 0)} discarded")
        self._fill(cup.get("drawn", []), cup.get("effects", []))

    def _fill(self, drawn: list[dict], effects: list[dict]) -> None:
        self.drawn, self.effects = list(drawn), list(effects)
        text = cup_html(drawn, effects)
        if text == self._shown:
            return      # the same markers: keep the scroll position
        self._shown = text
        self.markers.setHtml(text)


class CupDock(DockPanel):
    """The chaos event cup: the count left, the discards, the markers drawn this turn with
    their effects, and the effects in play."""

    object_name = "dock-cup"
    title = "Event cup"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        return CupWidget()

    def update_widget(self) -> None:
        board = self.document.board
        self._widget.show_cup(None if board is None else board.get("cup", {}))


class MarkersDock(DockPanel):
    """The Imperial markers available box on its own (the resources dock shows it too).
    Its title is short: it shares a row of tabs with the Stack, the Event cup and Eliminated,
    which was 2 px too narrow for "Markers available" on a laptop screen and elided "Stack"
    to "Sta..." (its box says what the markers are)."""

    object_name = "dock-markers"
    title = "Markers"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        widget = QWidget()
        layout = QVBoxLayout(widget)
        layout.setContentsMargins(6, 6, 6, 6)
        widget.box = MarkersAvailableBox()
        layout.addWidget(widget.box)
        layout.addStretch(1)
        return widget

    @property
    def box(self) -> MarkersAvailableBox:
        return self.ensure_widget().box

    def update_widget(self) -> None:
        board = self.document.board
        self._widget.box.set_counts(None if board is None else board.get("available"))
