"""The track docks: the Chaos Index with its events-per-round bands and the Victory Point
track with the scenario's victory bands (``ChaosIndexDock``), and the Empire's resources —
Resource Points, leaders and the Imperial markers available (``ResourcesDock``).

Everything shown is read from the board dict (``ci``, ``ci_bands``, ``vp``,
``victory_bands``, ``rp``, ``imperial_leaders``, ``available``) and from the log for the last
change of the Resource Points; nothing about the rules is known here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFontMetricsF, QPainter, QPainterPath, QPalette, QPen
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QSizePolicy,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.cup import MarkersAvailableBox
from struggle_desktop.ui.docks.style import (
    ACCENT,
    blend,
    dim_text,
    half_points,
    readable_on,
    signed,
    ui_font,
)

CALM = QColor("#5aa469")
UNREST = QColor("#e3c547")
TURMOIL = QColor("#c0392b")

#: The level above the last threshold of ``victory_bands`` (victory.yaml's last level): the
#: board lists only the levels that have an upper limit.
TOP_VICTORY_LEVEL = "galactic"


def heat(t: float) -> QColor:
    """Green through yellow to red as ``t`` goes from 0 to 1."""
    return blend(CALM, UNREST, t * 2) if t < 0.5 else blend(UNREST, TURMOIL, t * 2 - 1)


@dataclass
class Band:
    """One coloured stretch of a track, in track units (``start`` < ``end``)."""
    start: float
    end: float
    colour: QColor
    label: str
    tooltip: str


# ------------------------------------------------------------------------------ what to show
def markers_per_round(ci_bands: list[dict], ci: float) -> int | None:
    """Event markers drawn per round at ``ci``: bands read in order, upper limits inclusive."""
    for band in ci_bands:
        if ci <= band["to"]:
            return band["markers"]
    return ci_bands[-1]["markers"] if ci_bands else None


def ci_track_bands(ci_bands: list[dict]) -> list[Band]:
    top = max((b["markers"] for b in ci_bands), default=1) or 1
    out = []
    for band in ci_bands:
        if band["to"] <= band["from"]:
            continue        # the single point "CI 0" has no width on the bar; the tooltip names it
        out.append(Band(band["from"], band["to"], heat(band["markers"] / top), str(band["markers"]),
                        f"CI above {half_points(band['from'])} up to {half_points(band['to'])}: "
                        f"{band['markers']} event markers drawn per round"))
    return out


def victory_levels(victory_bands: dict) -> list[tuple[str, int | None, int | None]]:
    """(level, lowest VP, highest VP) from the lowest level up; the top level has no upper
    limit. A level is reached with VP at or below its threshold."""
    ordered = sorted(victory_bands.items(), key=lambda kv: kv[1])
    out, low = [], 0
    for level, limit in ordered:
        out.append((level, low, limit))
        low = limit + 1
    out.append((TOP_VICTORY_LEVEL, low, None))
    return out


def victory_level_of(victory_bands: dict, vp: int) -> str:
    for level, _low, high in victory_levels(victory_bands):
        if high is None or vp <= high:
            return level
    return TOP_VICTORY_LEVEL


def vp_range_text(low: int, high: int | None) -> str:
    if high is None:
        return f"{low} VP or more"
    if low == 0:
        return f"{high} VP or fewer"
    return f"{low}–{high} VP"


def vp_track_bands(victory_bands: dict, vp_max: int) -> list[Band]:
    levels = victory_levels(victory_bands)
    out = []
    for k, (level, low, high) in enumerate(levels):
        top = vp_max if high is None else min(high, vp_max)
        if top < low:
            continue
        out.append(Band(low - 0.5, top + 0.5, heat(1 - k / max(1, len(levels) - 1)),
                        level.capitalize(), f"{level.capitalize()}: {vp_range_text(low, high)}"))
    return out


def before_start(board: dict, key: str) -> bool:
    """Whether ``board[key]`` (the Chaos Index, the RP) is not set yet: during set-up the
    game holds 0 there until the scenario's starting value is put in at its end."""
    return board.get("turn") == 0 and not board.get(key)


def system_sector_count(board: dict) -> int:
    """The most VP there can be: one per system sector on the map."""
    return sum(1 for sector in board.get("sectors", {}).values() if sector.get("system"))


RP_CHANGE = re.compile(r"(-?\d+)\s*->\s*(-?\d+)(?::\s*(.*))?$")


def last_rp_change(entries: list[dict]) -> dict | None:
    """The newest Resource Points entry of ``entries`` as {before, after, why, entry}."""
    for entry in reversed(entries):
        if entry.get("kind") != "rp":
            continue
        found = RP_CHANGE.search(entry.get("text", ""))
        if found is None:
            return {"before": None, "after": None, "why": entry.get("text", ""), "entry": entry}
        return {"before": int(found.group(1)), "after": int(found.group(2)),
                "why": found.group(3) or "", "entry": entry}
    return None


# ------------------------------------------------------------------------------ the painted track
class BandTrack(QWidget):
    """A horizontal track: coloured bands with their labels, tick numbers below, and a
    marker above pointing at the current value. Hovering a band tells what it means."""

    BAR_HEIGHT = 20
    MARKER_HEIGHT = 22
    TICK_HEIGHT = 16
    SIDE_MARGIN = 12

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.low, self.high = 0.0, 100.0
        self.bands: list[Band] = []
        self.ticks: list[float] = []
        self.value: float | None = None
        self.value_text = ""
        self.explanation = ""
        self.setMinimumWidth(200)
        self.setFixedHeight(self.sizeHint().height())
        self.setMouseTracking(True)

    def set_track(self, low: float, high: float, bands: list[Band], ticks: list[float],
                  value: float | None, value_text: str, explanation: str) -> None:
        self.low, self.high = low, high
        self.bands, self.ticks = bands, ticks
        self.value, self.value_text = value, value_text
        self.explanation = explanation
        self.setToolTip(explanation)
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(280, self.MARKER_HEIGHT + self.BAR_HEIGHT + self.TICK_HEIGHT + 4)

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.sizeHint().height())

    # geometry
    def bar_rect(self) -> QRectF:
        return QRectF(self.SIDE_MARGIN, self.MARKER_HEIGHT,
                      self.width() - 2 * self.SIDE_MARGIN, self.BAR_HEIGHT)

    def x_of(self, value: float) -> float:
        bar = self.bar_rect()
        span = (self.high - self.low) or 1.0
        t = (min(max(value, self.low), self.high) - self.low) / span
        return bar.left() + t * bar.width()

    def value_at(self, x: float) -> float:
        bar = self.bar_rect()
        t = (x - bar.left()) / (bar.width() or 1.0)
        return self.low + t * (self.high - self.low)

    def band_at(self, x: float) -> Band | None:
        value = self.value_at(x)
        return next((b for b in self.bands if b.start <= value <= b.end), None)

    def marker_x(self) -> float | None:
        return None if self.value is None else self.x_of(self.value)

    # painting
    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        bar = self.bar_rect()
        text_colour = self.palette().color(QPalette.ColorRole.WindowText)
        outline = QPainterPath()
        outline.addRoundedRect(bar, 4, 4)
        painter.save()
        painter.setClipPath(outline)
        painter.fillRect(bar, self.palette().color(QPalette.ColorRole.Base))
        label_font = ui_font(8, bold=True)
        metrics = QFontMetricsF(label_font)
        painter.setFont(label_font)
        for band in self.bands:
            left, right = self.x_of(band.start), self.x_of(band.end)
            rect = QRectF(left, bar.top(), right - left, bar.height())
            painter.fillRect(rect, band.colour)
            painter.setPen(QPen(band.colour.darker(135), 1))
            painter.drawLine(QPointF(right, bar.top()), QPointF(right, bar.bottom()))
            text = fit_label(band.label, metrics, rect.width() - 4)
            if text:
                painter.setPen(readable_on(band.colour))
                painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
        painter.restore()
        painter.setPen(QPen(text_colour, 1))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(bar, 4, 4)
        # ticks and their numbers
        tick_font = ui_font(7.5)
        painter.setFont(tick_font)
        tick_metrics = QFontMetricsF(tick_font)
        painter.setPen(dim_text(self))
        for value in self.ticks:
            x = self.x_of(value)
            painter.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3))
            text = half_points(value)
            w = tick_metrics.horizontalAdvance(text)
            painter.drawText(QPointF(x - w / 2, bar.bottom() + 3 + tick_metrics.ascent()), text)
        self._paint_marker(painter, bar)
        painter.end()

    def _paint_marker(self, painter: QPainter, bar: QRectF) -> None:
        x = self.marker_x()
        if x is None:
            return
        font = ui_font(8.5, bold=True)
        metrics = QFontMetricsF(font)
        w = metrics.horizontalAdvance(self.value_text) + 10
        h = self.MARKER_HEIGHT - 7
        left = min(max(x - w / 2, 0.0), self.width() - w)
        box = QRectF(left, 0, w, h)
        painter.setPen(QPen(ACCENT.darker(170), 1))
        painter.setBrush(ACCENT)
        pointer = QPainterPath()
        pointer.addRoundedRect(box, 3, 3)
        arrow = QPainterPath()
        arrow.moveTo(x - 5, h - 0.5)
        arrow.lineTo(x + 5, h - 0.5)
        arrow.lineTo(x, bar.top() + 3)
        arrow.closeSubpath()
        painter.drawPath(pointer.united(arrow))
        # a line through the bar so the exact position reads against any band colour
        painter.setPen(QPen(QColor("#111111"), 2))
        painter.drawLine(QPointF(x, bar.top()), QPointF(x, bar.bottom()))
        painter.setPen(readable_on(ACCENT))
        painter.setFont(font)
        painter.drawText(box, Qt.AlignmentFlag.AlignCenter, self.value_text)

    def event(self, event) -> bool:
        if event.type() == event.Type.ToolTip:
            band = self.band_at(event.position().x() if hasattr(event, "position")
                                else event.pos().x())
            text = self.explanation if band is None else f"{band.tooltip}\n\n{self.explanation}"
            QToolTip.showText(event.globalPos(), text, self)
            return True
        return super().event(event)


def fit_label(text: str, metrics: QFontMetricsF, width: float) -> str:
    """The label, or a shorter form of it, that fits ``width`` ("Survival" -> "Surv." -> "S")."""
    for candidate in (text, text[:4] + "." if len(text) > 5 else text, text[:1]):
        if metrics.horizontalAdvance(candidate) <= width:
            return candidate
    return ""


def big_number_label() -> QLabel:
    label = QLabel()
    label.setFont(ui_font(15, bold=True))
    label.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
    return label


def heading_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setFont(ui_font(9.5, bold=True))
    return label


def note_label() -> QLabel:
    label = QLabel()
    label.setFont(ui_font(8.5))
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def separator() -> QFrame:
    line = QFrame()
    line.setFrameShape(QFrame.Shape.HLine)
    line.setFrameShadow(QFrame.Shadow.Sunken)
    return line


# ------------------------------------------------------------------------------ Chaos Index dock
class ChaosIndexWidget(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(3)
        row = QHBoxLayout()
        row.addWidget(heading_label("Chaos Index"))
        self.ci_value = big_number_label()
        row.addWidget(self.ci_value)
        layout.addLayout(row)
        self.ci_track = BandTrack()
        layout.addWidget(self.ci_track)
        self.ci_note = note_label()
        layout.addWidget(self.ci_note)
        layout.addSpacing(4)
        layout.addWidget(separator())
        row = QHBoxLayout()
        row.addWidget(heading_label("Victory Points"))
        self.vp_value = big_number_label()
        row.addWidget(self.vp_value)
        layout.addLayout(row)
        self.vp_track = BandTrack()
        layout.addWidget(self.vp_track)
        self.vp_note = note_label()
        layout.addWidget(self.vp_note)
        layout.addStretch(1)
        self.show_board(None)

    def show_board(self, board: dict | None) -> None:
        if board is None:
            self.ci_value.setText("–")
            self.vp_value.setText("–")
            self.ci_track.set_track(0, 100, [], [], None, "", "No game is open.")
            self.vp_track.set_track(0, 1, [], [], None, "", "No game is open.")
            self.ci_note.setText("No game is open.")
            self.vp_note.setText("")
            return
        self._show_ci(board)
        self._show_vp(board)

    def _show_ci(self, board: dict) -> None:
        if before_start(board, "ci"):
            self.ci_value.setText("–")
            self.ci_value.setToolTip("The Chaos Index is set when set-up ends")
            bands = board.get("ci_bands", [])
            top = max((b["to"] for b in bands), default=100)
            self.ci_track.set_track(0, top, ci_track_bands(bands),
                                    [b["to"] for b in bands if b["to"] > b["from"]] + [0],
                                    None, "", "The Chaos Index is set when set-up ends.")
            self.ci_note.setText("Not set yet: the scenario's starting Chaos Index is put on "
                                 "the track when set-up ends.")
            return
        ci = float(board["ci"])
        bands = board.get("ci_bands", [])
        top = max((b["to"] for b in bands), default=100)
        per_round = markers_per_round(bands, ci)
        self.ci_value.setText(half_points(ci))
        self.ci_value.setToolTip(f"Chaos Index {half_points(ci)} of {half_points(top)}")
        zero_band = next((b for b in bands if b["to"] <= b["from"]), None)
        lines = ["The Chaos Index, 0 to " + half_points(top) + " in half points.",
                 ("The number in each coloured band is how many chaos event markers are drawn "
                  "per round while the Chaos Index is in that band.")]
        if zero_band is not None:
            lines.append(f"At exactly {half_points(zero_band['to'])}: "
                         f"{zero_band['markers']} markers per round.")
        self.ci_track.set_track(0, top, ci_track_bands(bands),
                                [b["to"] for b in bands if b["to"] > b["from"]] + [0],
                                ci, half_points(ci), "\n".join(lines))
        if per_round is not None:
            self.ci_note.setText(f"At this Chaos Index {per_round} event markers are drawn "
                                 "per round of Chaos Events.")
        else:
            self.ci_note.setText("")

    def _show_vp(self, board: dict) -> None:
        vp = int(board["vp"])
        victory = board.get("victory_bands") or {}
        vp_max = max(system_sector_count(board), vp, max(victory.values(), default=0) + 1)
        self.vp_value.setText(str(vp))
        self.vp_value.setToolTip(f"{vp} Victory Points: one per Imperial system sector")
        # every fifth VP and the top, without a fifth so close to the top that they overlap
        ticks = [v for v in range(0, vp_max + 1, 5) if v == vp_max or vp_max - v >= 3] + [vp_max]
        if victory:
            levels = victory_levels(victory)
            explanation = ("Victory Points: one per system sector the Empire controls. "
                           "The scenario's victory levels:\n" + "\n".join(
                               f"  {level.capitalize()}: {vp_range_text(low, high)}"
                               for level, low, high in levels))
            level = victory_level_of(victory, vp)
            turns = board.get("turns")
            when = (f" if the game ended now (it is judged after turn {turns})" if turns
                    else " if the game were judged now")
            note = f"{level.capitalize()}{when}."
            nxt = next(((name, low) for name, low, _high in levels if low > vp), None)
            if nxt is not None:
                note += f" {nxt[1]} VP for {nxt[0].capitalize()}."
        else:
            explanation = "Victory Points: one per system sector the Empire controls."
            note = "This scenario has no victory levels by Victory Points."
        self.vp_track.set_track(-0.5, vp_max + 0.5, vp_track_bands(victory, vp_max) if victory
                                else [], ticks, vp, str(vp), explanation)
        self.vp_note.setText(note)


class ChaosIndexDock(DockPanel):
    """The Chaos Index track with its events-per-round bands, and the VP with the victory
    levels of the scenario."""

    object_name = "dock-chaos-index"
    title = "Chaos Index"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def create_widget(self) -> QWidget:
        return ChaosIndexWidget()

    def update_widget(self) -> None:
        self._widget.show_board(self.document.board)


# ------------------------------------------------------------------------------ resources dock
class LeaderTokens(QWidget):
    """The values of the Imperial leaders available, drawn as small round tokens."""

    SIZE = 22

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.values: list[int] = []
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_values(self, values: list[int]) -> None:
        self.values = sorted(values, reverse=True)
        if self.values:
            self.setToolTip("Imperial leaders available, by value: "
                            + ", ".join(str(v) for v in self.values))
        else:
            self.setToolTip("No Imperial leader is available.")
        self.updateGeometry()
        self.update()

    def sizeHint(self) -> QSize:
        return QSize(max(1, len(self.values)) * (self.SIZE + 4), self.SIZE + 2)

    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        if not self.values:
            painter.setPen(dim_text(self))
            painter.setFont(ui_font(8.5))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignVCenter, "none")
            return
        painter.setFont(ui_font(8.5, bold=True))
        gold = QColor("#d4af37")
        for k, value in enumerate(self.values):
            rect = QRectF(1 + k * (self.SIZE + 4), 1, self.SIZE, self.SIZE)
            painter.setPen(QPen(gold.darker(160), 1.2))
            painter.setBrush(gold)
            painter.drawEllipse(rect)
            painter.setPen(QColor("#2a2106"))
            painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(value))


class ResourcesWidget(QWidget):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(4)
        row = QHBoxLayout()
        row.addWidget(heading_label("Resource Points"))
        self.rp_value = big_number_label()
        row.addWidget(self.rp_value)
        layout.addLayout(row)
        self.rp_change = note_label()
        layout.addWidget(self.rp_change)
        row = QHBoxLayout()
        row.addWidget(heading_label("Victory Points"))
        self.vp_value = big_number_label()
        self.vp_value.setFont(ui_font(12, bold=True))
        row.addWidget(self.vp_value)
        layout.addLayout(row)
        layout.addWidget(separator())
        layout.addWidget(heading_label("Imperial leaders available"))
        self.leaders = LeaderTokens()
        layout.addWidget(self.leaders)
        self.markers = MarkersAvailableBox()
        layout.addWidget(self.markers)
        layout.addStretch(1)

    def show_board(self, board: dict | None, rp_change: dict | None) -> None:
        if board is None:
            self.rp_value.setText("–")
            self.vp_value.setText("–")
            self.rp_change.setText("No game is open.")
            self.leaders.set_values([])
            self.markers.set_counts({})
            return
        if before_start(board, "rp"):
            self.rp_value.setText("–")
            self.rp_value.setToolTip("The Resource Points are set when set-up ends")
        else:
            self.rp_value.setText(str(board["rp"]))
            self.rp_value.setToolTip(f"{board['rp']} Resource Points to spend")
        self.vp_value.setText(str(board["vp"]))
        self.vp_value.setToolTip("Victory Points: one per Imperial system sector")
        self.rp_change.setText(describe_rp_change(rp_change))
        self.rp_change.setToolTip(rp_change["entry"]["text"] if rp_change else "")
        self.leaders.set_values(list(board.get("imperial_leaders") or []))
        self.markers.set_counts(board.get("available"))


def describe_rp_change(change: dict | None) -> str:
    if change is None:
        return "No change yet."
    entry = change["entry"]
    when = f"turn {entry.get('turn')}, phase {entry.get('phase')}"
    if change["before"] is None:
        return f"Last change ({when}): {change['why']}"
    delta = change["after"] - change["before"]
    why = f": {change['why']}" if change["why"] else ""
    return f"Last change {signed(delta)} ({change['before']} → {change['after']}){why} — {when}"


class ResourcesDock(DockPanel):
    """Resource Points with their last change, VP, and what the Empire holds in reserve:
    leaders and the Imperial markers available."""

    object_name = "dock-resources"
    title = "Resources"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    #: How far back in the log to look for the last RP change before reading all of it.
    RECENT = 400

    def create_widget(self) -> QWidget:
        return ResourcesWidget()

    def update_widget(self) -> None:
        board = self.document.board
        change = None
        if board is not None:
            # The log up to the board on show: during a playback the game's log already
            # holds what comes after the step shown, and the last change must be this step's.
            size = board.get("log_size", 0)
            start = max(0, size - self.RECENT)
            change = last_rp_change(self.document.log_entries(start)[:size - start])
            if change is None and size > self.RECENT:
                change = last_rp_change(self.document.log_entries(0)[:size])
        self._widget.show_board(board, change)
