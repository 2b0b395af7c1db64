"""Where the counters of one sector go, and the badge that tells what a pile holds.

A sector has a few precomputed slots (``scene.label_plan``), each room for one counter. When
its counters outnumber the slots they are piled up, and three things keep a pile honest:

* **Sides apart.** Imperial counters, Chaos counters and aliens never share a pile while the
  sector can give each side a spot of its own: a sector with fewer slots than sides gets a
  spot more where a counter still fits (or, failing that, its slot split in two spots a
  little apart), so an enemy is never hidden under a friend.
* **Offsets that stay home.** Each counter of a pile sits a few map units up and aside of the
  one below (like cardboard counters stacked on a table), in a direction that keeps every
  counter's centre, and most of the counter, inside the sector's own polygon, and that
  leans away from the sector's other piles rather than over them.
* **A badge.** The top of every pile of two or more counters carries the number of pieces in
  it, in the colour of their side; a pile that could not be split shows one number per side
  ("3 | 2"). The badge keeps a minimum size on screen, so it can be read at the whole-map zoom.

Nothing here knows the rules: a piece's ``side`` is all it reads.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem

from struggle_desktop.ui.map.counters import UNIT_SIZE, draw_text, text_width

#: The order in which sides take the slots (the player's own side first) and their colours.
SIDE_ORDER = ("imp", "alien", "chaos")
SIDE_COLOURS = {"imp": QColor("#2f6fd6"), "chaos": QColor("#c8322a"), "alien": QColor("#8e44c9")}
SIDE_NAMES = {"imp": "Imperial", "chaos": "Chaos", "alien": "alien"}

#: How far apart the counters of a pile are (map units), at most and at least, and the most
#: a whole pile may spread (a pile of ten stays a pile).
PILE_STEP, PILE_MIN_STEP, PILE_SPREAD = 6.0, 1.0, 16.0
#: A counter of a pile keeps at least this far from the spots and counters of other piles.
PILE_CLEAR = UNIT_SIZE * 0.5
#: ... and stays this much nearer its own spot than any other pile's.
PILE_CELL = 12.0
#: A spot found for a side that has none must be this far from the others (map units) ...
SPOT_APART = UNIT_SIZE * 0.7
#: ... else one slot is split into spots this far apart, at most and at least.
SPLIT_MAX, SPLIT_MIN = 15.0, 6.0
#: At most this much of a counter may overhang its sector's rim (map units).
OVERHANG = 6.0

#: Directions a pile may lean, preferred first: up and to the right, like a real stack.
_DIRECTIONS = [(1, -1), (-1, -1), (1, 1), (-1, 1), (1, 0), (-1, 0), (0, -1), (0, 1)]


def side_class(piece: dict) -> str:
    side = str(piece.get("side") or "")
    return side if side in SIDE_COLOURS else "chaos"


@dataclass
class Pile:
    """One spot of a sector and the counter groups on it, bottom first."""
    anchor: QPointF
    groups: list[list[dict]] = field(default_factory=list)
    positions: list[QPointF] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        """Pieces per side on this spot, in SIDE_ORDER."""
        out: dict[str, int] = {}
        for group in self.groups:
            for piece in group:
                side = side_class(piece)
                out[side] = out.get(side, 0) + 1
        return {s: out[s] for s in SIDE_ORDER if s in out}


class SectorShape:
    """What the pile layout asks of a sector: is a counter at this point inside it, and clear
    of its label? Answers are remembered (the geometry never changes)."""

    def __init__(self, path: QPainterPath, polygon, label_rect: QRectF):
        self.path, self.polygon, self.label_rect = path, polygon, label_rect
        self._fits: dict[tuple[int, int, bool], bool] = {}
        self.extra_spots: dict[tuple, list[QPointF]] = {}

    def fits(self, point: QPointF, clear_of_label: bool = True) -> bool:
        key = (round(point.x() * 4), round(point.y() * 4), clear_of_label)
        known = self._fits.get(key)
        if known is None:
            known = self._fits[key] = self._test(point, clear_of_label)
        return known

    def _test(self, point: QPointF, clear_of_label: bool) -> bool:
        if not self.polygon.containsPoint(point, Qt.FillRule.OddEvenFill):
            return False
        half = UNIT_SIZE / 2 - OVERHANG
        if not self.path.contains(QRectF(point.x() - half, point.y() - half, 2 * half, 2 * half)):
            return False
        if clear_of_label:
            body = UNIT_SIZE / 2 - 3.0
            return not self.label_rect.intersects(
                QRectF(point.x() - body, point.y() - body, 2 * body, 2 * body))
        return True


def lay_out(shape: SectorShape, slots: list[QPointF], groups: list[list[dict]]) -> list[Pile]:
    """The piles of a sector: one per slot while there are enough slots, else as few piles
    as there are spots, each side on spots of its own."""
    ordered = sorted(slots, key=lambda p: (round(p.y() / 8), p.x()))
    if len(groups) <= len(slots):
        spots = sorted(slots[:len(groups)], key=lambda p: (round(p.y() / 8), p.x()))
        return [Pile(pos, [group], [QPointF(pos)]) for pos, group in zip(spots, groups)]
    by_side: dict[str, list[list[dict]]] = {}
    for group in groups:
        by_side.setdefault(side_class(group[0]), []).append(group)
    sides = [s for s in SIDE_ORDER if s in by_side]
    spots = list(ordered)
    if len(spots) < len(sides):
        spots = _more_spots(shape, spots, len(sides))
    piles: list[Pile] = []
    if len(spots) >= len(sides):
        # Each side gets spots in proportion to its counters, at least one.
        share = _shares([len(by_side[s]) for s in sides], len(spots))
        start = 0
        for side, count in zip(sides, share):
            mine = [Pile(QPointF(p)) for p in spots[start:start + count]]
            start += count
            for k, group in enumerate(by_side[side]):
                mine[k % len(mine)].groups.append(group)
            piles.extend(mine)
    else:
        # No room to keep every side apart: sides share spots, each side together on its
        # spot (the badge gives one count per side).
        piles = [Pile(QPointF(p)) for p in spots]
        for k, side in enumerate(sides):
            piles[k % len(piles)].groups.extend(by_side[side])
    for pile in piles:
        others = [q.anchor for q in piles if q is not pile]
        # Keep clear of the other piles: their spots, and the counters of those laid out.
        taken = others + [p for q in piles if q is not pile for p in q.positions]
        pile.positions = _pile_positions(shape, pile.anchor, len(pile.groups), others, taken)
    return piles


def _shares(counts: list[int], spots: int) -> list[int]:
    """Spots per side: at least one each, the rest in proportion to the counters."""
    share = [1] * len(counts)
    for _ in range(spots - len(counts)):
        # The next spot goes to the side with the most counters per spot.
        k = max(range(len(counts)), key=lambda i: counts[i] / share[i])
        share[k] += 1
    return share


def _more_spots(shape: SectorShape, spots: list[QPointF], wanted: int) -> list[QPointF]:
    """``wanted`` spots for a sector with fewer slots: the free places of the sector farthest
    from the spots so far (a counter there may overhang the rim a little more than in a
    slot); failing that, the first spot split in two a little apart. Remembered per sector."""
    key = (tuple((round(p.x(), 1), round(p.y(), 1)) for p in spots), wanted)
    known = shape.extra_spots.get(key)
    if known is None:
        known = shape.extra_spots[key] = _find_spots(shape, spots, wanted)
    return [QPointF(p) for p in known]


def _find_spots(shape: SectorShape, spots: list[QPointF], wanted: int) -> list[QPointF]:
    if not spots:
        return spots
    chosen = list(spots)
    area = shape.path.boundingRect()
    for clear in (True, False):
        grid = [QPointF(area.left() + 3 * i, area.top() + 3 * j)
                for i in range(int(area.width() / 3) + 1) for j in range(int(area.height() / 3) + 1)]
        free = [p for p in grid if shape.fits(p, clear)]
        while len(chosen) < wanted and free:
            best = max(free, key=lambda p: min(math.hypot(p.x() - c.x(), p.y() - c.y())
                                                for c in chosen))
            if min(math.hypot(best.x() - c.x(), best.y() - c.y()) for c in chosen) < SPOT_APART:
                break
            chosen.append(best)
        if len(chosen) >= wanted:
            return chosen
    # No room elsewhere: split the first spot into spots a little apart.
    base = spots[0]
    missing = wanted - len(spots) + 1
    for clear in (True, False):
        distance = SPLIT_MAX
        while distance >= SPLIT_MIN:
            for dx, dy in [(1, 0), (1, -1), (0, 1), (1, 1)]:
                norm = math.hypot(dx, dy)
                ux, uy = dx / norm * distance, dy / norm * distance
                # The spots on a line through the base spot, centred on it.
                points = [QPointF(base.x() + ux * (k - (missing - 1) / 2),
                                  base.y() + uy * (k - (missing - 1) / 2)) for k in range(missing)]
                if all(shape.fits(p, clear) for p in points):
                    return points + spots[1:]
            distance -= 3.0
    return spots


def _pile_positions(shape: SectorShape, anchor: QPointF, count: int,
                    others: list[QPointF] = (), taken: list[QPointF] = ()) -> list[QPointF]:
    """Where each of ``count`` counters of a pile sits, bottom first: leaning from the anchor
    in the first direction that keeps them all inside the sector and clear of the points
    ``taken`` by other piles, away from the sector's other piles (``others``) where it can,
    so that no pile leans over its neighbour."""
    if count <= 1:
        return [QPointF(anchor)] * count
    directions = list(_DIRECTIONS)
    if others:
        ax = anchor.x() - sum(p.x() for p in others) / len(others)
        ay = anchor.y() - sum(p.y() for p in others) / len(others)
        if ax or ay:        # the most nearly away from them first
            directions.sort(key=lambda d: -(d[0] * ax + d[1] * ay) / math.hypot(*d))
    step = min(PILE_STEP, PILE_SPREAD / (count - 1))

    def apart(point: QPointF) -> bool:
        # Nearer its own spot than any other pile's (each pile leans into its own share of
        # the sector), and clear of the counters of the piles laid out already.
        own = math.hypot(point.x() - anchor.x(), point.y() - anchor.y())
        return all(math.hypot(point.x() - q.x(), point.y() - q.y()) - own >= PILE_CELL
                   for q in others) and \
            all(math.hypot(point.x() - q.x(), point.y() - q.y()) >= PILE_CLEAR for q in taken)

    for clear, keep_apart in ((True, True), (False, True), (True, False), (False, False)):
        s = step
        while s >= PILE_MIN_STEP:
            for dx, dy in directions:
                norm = math.hypot(dx, dy)
                ux, uy = dx / norm * s, dy / norm * s
                points = [QPointF(anchor.x() + ux * k, anchor.y() + uy * k) for k in range(count)]
                if all(shape.fits(p, clear) and (not keep_apart or apart(p))
                       for p in points[1:]):
                    return points
            s -= 1.0
    # A sliver of a sector: the counters sit on the anchor itself, which is inside.
    return [QPointF(anchor) for _ in range(count)]


# ======================================================================== the badge
BADGE_TEXT = 7          # map units
#: The badge's text is never smaller than this on screen (pixels) ...
BADGE_MIN_PX = 9.0
#: ... unless that would make it more than this many times its size on the map.
BADGE_MAX_GROWTH = 2.2


def grown(painter: QPainter, min_px: float, size: float, most: float) -> float:
    """How much to enlarge something ``size`` map units high so that it is at least
    ``min_px`` pixels high at the painter's scale (never more than ``most`` times)."""
    scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    if scale <= 0:
        return 1.0
    return max(1.0, min(most, min_px / (size * scale)))


class PileBadge(QGraphicsItem):
    """The number of pieces on one spot, at the top-left corner of its top counter: one
    rounded tab per side, in that side's colour. Takes no mouse button (a click falls to the
    counter or the sector beneath) but has a tooltip."""

    def __init__(self, counts: dict[str, int], sector: int):
        super().__init__()
        self.counts = dict(counts)
        self.sector = sector
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setAcceptHoverEvents(False)
        words = " and ".join(f"{n} {SIDE_NAMES[s]}" for s, n in self.counts.items())
        self.setToolTip(f"{sum(self.counts.values())} counters on this spot: {words}")
        self._parts = [(str(n), SIDE_COLOURS[s]) for s, n in self.counts.items()]
        self._width = sum(text_width(t, BADGE_TEXT, True) + 5.0 for t, _ in self._parts)
        self._height = BADGE_TEXT + 3.0
        most = BADGE_MAX_GROWTH
        # (0, 0) is the badge's bottom-left corner: it grows up and to the right, away from
        # the counter it sits on. Room for the largest size.
        self._bounds = QRectF(-2, -self._height * most - 2, self._width * most + 4,
                              self._height * most + 4)

    @property
    def text(self) -> str:
        return " | ".join(t for t, _ in self._parts)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        """The badge at its size on the map (not the room kept for growing): only there does
        it give its tooltip instead of the counter's."""
        path = QPainterPath()
        path.addRect(QRectF(0, -self._height, self._width, self._height))
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        growth = grown(painter, BADGE_MIN_PX, BADGE_TEXT, BADGE_MAX_GROWTH)
        painter.save()
        painter.scale(growth, growth)
        width, height = self._width, self._height
        x = 0.0
        rect = QRectF(x, -height, width, height)
        painter.setPen(QPen(QColor(250, 250, 255), 0.9))
        painter.setBrush(QColor(10, 10, 16))
        painter.drawRoundedRect(rect.adjusted(-0.8, -0.8, 0.8, 0.8), 3.5, 3.5)
        for text, colour in self._parts:
            w = text_width(text, BADGE_TEXT, True) + 5.0
            part = QRectF(x, -height, w, height)
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(colour)
            painter.drawRoundedRect(part.adjusted(0.5, 0.5, -0.5, -0.5), 3.0, 3.0)
            draw_text(painter, part.center().x(), part.center().y() + 0.2, text, BADGE_TEXT,
                      True, QColor("#ffffff"))
            x += w
        painter.restore()


__all__ = ["Pile", "PileBadge", "SectorShape", "lay_out", "side_class", "grown"]
