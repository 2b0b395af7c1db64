"""Last-move marks: where the units that moved this turn came from.

After a move, the player's own or the Chaos side's, a faint outline is left where the units
were and a thin arrow leads from it to where they are now. The marks of a turn stay until the
next turn begins (in Struggle the Chaos phases open a turn, so during the player's own phases
they show everything that moved since the last turn began, the Chaos side's moves included).

The moves are read from the log, never from the rules: every entry of kind ``move`` or
``adjust`` (free placement) names the sector left and the sector reached as its first two
``sector:NN`` references and the units by their ids (``turn_moves``). The scene draws them
(``MoveMarks``) over the counters but thin and translucent: the outline goes on a slot that no
counter uses now when the sector has one, and is only dashed where a counter stands.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QGraphicsItem

from struggle_desktop.ui.map.counters import UNIT_SIZE

#: Log entry kinds that carry a unit from one sector to another.
MOVE_KINDS = ("move", "adjust")
#: How many log entries are read at a time while looking back for the turn's first entry.
CHUNK = 400

MARK_COLOURS = {"imp": QColor(150, 196, 255, 190), "chaos": QColor(255, 150, 132, 190),
                "alien": QColor(206, 160, 255, 190)}
NEUTRAL = QColor(220, 220, 230, 170)


@dataclass
class Move:
    """Units that went from sector ``origin`` to sector ``to``."""
    origin: int
    to: int
    pieces: list[str] = field(default_factory=list)


def sector_number(ref) -> int | None:
    """The sector a log reference names (``"sector:17"`` -> 17), else None."""
    if isinstance(ref, str) and ref.startswith("sector:"):
        try:
            return int(ref.split(":", 1)[1])
        except ValueError:
            return None
    return None


def move_of(entry: dict) -> Move | None:
    """The move a log entry records, if it records one."""
    if entry.get("kind") not in MOVE_KINDS:
        return None
    refs = entry.get("refs") or []
    sectors = [n for n in (sector_number(r) for r in refs) if n is not None]
    if len(sectors) < 2 or sectors[0] == sectors[1]:
        return None
    pieces = [r for r in refs if isinstance(r, str) and sector_number(r) is None]
    return Move(sectors[0], sectors[1], pieces)


def turn_moves(read_entries: Callable[[int], list[dict]], board: dict) -> list[Move]:
    """The moves of ``board``'s turn up to ``board`` (a step of a playback sees the moves made
    before it only). ``read_entries(start)`` gives the log from index ``start`` on, as the
    document's ``log_entries`` does; only the current turn's entries are read."""
    turn, size = board.get("turn"), board.get("log_size")
    if not isinstance(turn, int) or not isinstance(size, int) or size <= 0:
        return []
    entries: list[dict] = []
    end = size
    while end > 0:
        begin = max(0, end - CHUNK)
        part = list(read_entries(begin))[:end - begin]
        entries = part + entries
        end = begin
        if not part or any(e.get("turn") != turn for e in part[:1]):
            break           # this chunk begins before the turn: nothing earlier counts
    moves = []
    for entry in entries:
        if entry.get("turn") == turn:
            move = move_of(entry)
            if move is not None:
                moves.append(move)
    return moves


@dataclass
class Trace:
    """One mark as drawn: from where the units were to where they are, in their side's hue."""
    start: QPointF
    end: QPointF
    side: str | None
    free: bool = True          # nothing stands where the units were: the outline is filled


class MoveMarks(QGraphicsItem):
    """Every last-move mark of the map in one item: a dashed outline where units were and a
    thin arrow to where they went. Takes no mouse button."""

    def __init__(self, traces: list[Trace]):
        super().__init__()
        self.traces = traces
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        self.lines: list[tuple[QPainterPath, QPainterPath, QColor]] = []
        self.ghosts: list[tuple[QRectF, QColor, bool]] = []
        seen_ghosts: set[tuple[int, int]] = set()
        bounds = QRectF()
        half = UNIT_SIZE / 2
        for trace in traces:
            colour = MARK_COLOURS.get(trace.side or "", NEUTRAL)
            key = (round(trace.start.x()), round(trace.start.y()))
            if key not in seen_ghosts:
                seen_ghosts.add(key)
                ghost = QRectF(trace.start.x() - half, trace.start.y() - half, UNIT_SIZE, UNIT_SIZE)
                self.ghosts.append((ghost, colour, trace.free))
                bounds = bounds.united(ghost)
            line, head = self._arrow(trace.start, trace.end)
            if line is not None:
                self.lines.append((line, head, colour))
                bounds = bounds.united(line.boundingRect()).united(head.boundingRect())
        self._bounds = bounds.adjusted(-4, -4, 4, 4) if not bounds.isNull() else QRectF()
        self.halo = QPen(QColor(6, 8, 14, 150), 3.2)
        self.halo.setCapStyle(Qt.PenCapStyle.RoundCap)

    @staticmethod
    def _arrow(start: QPointF, end: QPointF):
        dx, dy = end.x() - start.x(), end.y() - start.y()
        length = math.hypot(dx, dy)
        clear = UNIT_SIZE / 2 + 1.5          # from the edge of the outline to that of the counter
        if length < 2 * clear + 4:
            return None, None
        ux, uy = dx / length, dy / length
        a = QPointF(start.x() + ux * clear, start.y() + uy * clear)
        b = QPointF(end.x() - ux * clear, end.y() - uy * clear)
        line = QPainterPath(a)
        line.lineTo(QPointF(b.x() - ux * 5, b.y() - uy * 5))
        head = QPainterPath()
        head.addPolygon(QPolygonF([b, QPointF(b.x() - ux * 7 - uy * 4, b.y() - uy * 7 + ux * 4),
                                   QPointF(b.x() - ux * 7 + uy * 4, b.y() - uy * 7 - ux * 4)]))
        head.closeSubpath()
        return line, head

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for ghost, colour, free in self.ghosts:
            pen = QPen(colour, 1.3, Qt.PenStyle.DashLine)
            painter.setPen(pen)
            fill = QColor(colour)
            fill.setAlpha(40)
            painter.setBrush(fill if free else Qt.BrushStyle.NoBrush)
            painter.drawRoundedRect(ghost, 3.5, 3.5)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for line, _head, _colour in self.lines:
            painter.setPen(self.halo)
            painter.drawPath(line)
        for line, head, colour in self.lines:
            pen = QPen(colour, 1.4)
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            painter.setPen(pen)
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawPath(line)
            painter.setPen(QPen(QColor(6, 8, 14, 150), 0.6))
            painter.setBrush(colour)
            painter.drawPath(head)


__all__ = ["Move", "MoveMarks", "Trace", "move_of", "turn_moves"]
