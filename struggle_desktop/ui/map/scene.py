"""The galaxy as a QGraphicsScene: the sky, the sectors with their labels, and the counters.

The scene is built once from the game's ``map_layout`` (polygons in map units, 1000 across)
and re-populated from ``board`` dicts by ``show_board``. It knows nothing of the rules: the
window tells it through ``set_drag_rules`` where a picked-up counter may go and why it may not
go elsewhere, and listens to its signals.

Layers, bottom to top: the sky and the Void (``drawBackground``, static, so a view may cache
it), sectors, highlights and the selection, counters, the last moves' marks (``marks.py``:
faint, given by the window with ``show_last_moves``), the piles' badges, the Chaos-turn
emphasis (which asks the view to bring it on screen: ``wants_visible``), a fanned-out stack,
and the counter being dragged. An exported picture leaves out what only the pointer put on the
map (``without_pointer_marks``).

Stacks: identical units in a sector are drawn as one counter with a "×n" badge and the
counters are laid out in precomputed slots that keep clear of the sector's label. When the
counters outnumber the slots they are piled up (``stacks.py``): each side on spots of its own,
every counter inside its sector, and a badge on each pile with its count per side. A crowded
sector (collapsed counters, or more counters than slots) fans every piece out on hover or
click until the pointer leaves; the fan's card takes no click of its own: a click on it
reaches the sector drawn under it.

Gestures on a counter: while the window has set drag rules, a press on a counter never pans
the map. A counter with somewhere to go is picked up; one without is not, and dragging it
says why (``drop_refused`` with the window's ``pickup_refusal`` reason) instead of moving the
map silently.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import (
    QEasingCurve,
    QEvent,
    QLineF,
    QPoint,
    QPointF,
    QRectF,
    Qt,
    QTimer,
    QVariantAnimation,
    Signal,
)
from PySide6.QtGui import (
    QBrush,
    QColor,
    QImage,
    QPainter,
    QPainterPath,
    QPen,
    QPixmapCache,
    QPolygonF,
    QRadialGradient,
)
from PySide6.QtWidgets import (
    QApplication,
    QGraphicsItem,
    QGraphicsObject,
    QGraphicsScene,
    QStyleOptionGraphicsItem,
    QToolTip,
)

from struggle_desktop.engine.datacache import cached
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.ui.map.counters import (
    GOLD,
    IE_COLOURS,
    SLOT_STEP,
    SMALL_TEXT,
    UNIT_SIZE,
    CounterItem,
    draw_text,
    force_colour,
    group_pieces,
    ie_number,
    paint_piece,
    text_width,
)
from struggle_desktop.ui.map.fonts import ensure_fonts
from struggle_desktop.ui.map.marks import Move, MoveMarks, Trace
from struggle_desktop.ui.map.stacks import Pile, PileBadge, SectorShape, lay_out

MARGIN = 40.0                       # sky shown round the canvas when the whole map is fitted
Z_SECTOR, Z_HIGHLIGHT, Z_SELECTION, Z_COUNTER = 0.0, 5.0, 6.0, 10.0
Z_MARKS = 18.0                      # last-move marks: thin, over the counters, under badges
Z_BADGE = 19.0                      # above every counter, below the Chaos-turn emphasis
Z_EMPHASIS, Z_FAN, Z_DRAG = 20.0, 30.0, 40.0
PIN_KINDS = {"nexus", "stargate", "institute", "expedition"}
PIN_SCALE = 0.72
FAN_DELAY_MS = 350                  # hover this long over a crowded sector to fan it out
RETURN_MS = 180                     # the refused counter's ghost slides home in this time

#: Muted fills by arm; sectors without a system are darker (they are empty space).
ARM_COLOURS = {"Core": "#6e5a22", "Norma": "#1d4f63", "Scutum-Centaurus": "#1d5940",
               "Sagittarius": "#4a316a", "Orion": "#283f73", "Perseus": "#62284d",
               "Outer": "#434b5a", "Inter-arm": "#141a28", "Rim": "#141a28"}
OWNER_COLOURS = {"imp": QColor("#3f8cff"), "chaos": QColor("#e6453a")}
LABEL_NUMBER = QColor("#f6ecd0")
LABEL_NAME = QColor("#cdd6ea")
#: Zoomed out until sector names would be smaller than this on screen (pixels), a label
#: shows its number alone, grown to at least NUMBER_MIN_PX (at most NUMBER_MAX_GROWTH times):
#: the whole map on a laptop then reads "01 ... 76" instead of a smudge of 4-pixel names.
NAME_MIN_PX, NUMBER_MIN_PX, NUMBER_MAX_GROWTH = 6.0, 9.0, 2.0

#: Highlight kinds: fill, rim, rim width (map units), dashed.
#: Highlight kinds: a wash mixed into the sector's fill (colour, strength; None for none), the
#: rim colour, the rim width (map units), dashed or not. All opaque (see SectorStyle._apply).
HIGHLIGHT_STYLES = {
    "legal": ((QColor("#5aff96"), 0.30), QColor("#8cffaf"), 2.6, False),
    "target": ((QColor("#ff4632"), 0.30), QColor("#ff785a"), 2.6, True),
    "hover": ((QColor("#ffffff"), 0.22), QColor("#ffffff"), 2.2, False),
    "drop": (None, QColor("#e6fff0"), 3.4, False),
    "nodrop": (None, QColor("#ff6e6e"), 2.4, True),
    "selected": (None, QColor("#fff6c8"), 2.6, True),
}
#: When a sector has several washes, the first of these wins.
WASH_ORDER = ("target", "legal", "hover")


def _path_of(points) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def _mix(a: QColor, b: QColor, t: float, alpha: int = 255) -> QColor:
    return QColor(int(a.red() + (b.red() - a.red()) * t), int(a.green() + (b.green() - a.green()) * t),
                  int(a.blue() + (b.blue() - a.blue()) * t), alpha)


def _chord(polygon: list, x: float, y: float) -> float:
    """Width of the polygon along the horizontal line through (x, y), around x."""
    crossings = []
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 <= y < y2) or (y2 <= y < y1):
            crossings.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
    crossings.sort()
    for left, right in zip(crossings[::2], crossings[1::2]):
        if left <= x <= right:
            return right - left
    return 0.0


# ======================================================================== geometry
@dataclass
class SectorGeometry:
    """Everything about a sector's drawing that never changes: computed once per scene."""
    number: int
    name: str
    arm: str
    system: bool
    core: bool
    polygon: QPolygonF
    path: QPainterPath
    rect: QRectF
    centre: QPointF                      # the layout's label point: inside the sector
    label_lines: list[tuple[str, int, bool]] = field(default_factory=list)
    label_rect: QRectF = field(default_factory=QRectF)
    slots: list[QPointF] = field(default_factory=list)
    band: QPainterPath = field(default_factory=QPainterPath)
    shape: SectorShape | None = None     # the pile layout's questions, made on first use

    def pile_shape(self) -> SectorShape:
        if self.shape is None:
            self.shape = SectorShape(self.path, self.polygon, self.label_rect)
        return self.shape


def _label_lines(sector: dict, width: float) -> tuple[list[tuple[str, int, bool]], float, float]:
    """The number line and one or two name lines, fitted to ``width`` map units."""
    number = f"{sector['number']:02d}"
    lines = [(number, 13, True)]
    name = sector["name"]
    size = 9
    if text_width(name, size) > width and " " in name:
        words = name.split(" ")
        best = min(range(1, len(words)), key=lambda k: max(
            text_width(" ".join(words[:k]), size), text_width(" ".join(words[k:]), size)))
        lines += [(" ".join(words[:best]), size, False), (" ".join(words[best:]), size, False)]
    else:
        lines.append((name, size, False))
    widths = [text_width(t, s, b) for t, s, b in lines]
    widths[0] += 11 if sector["system"] else 0          # the system symbol beside the number
    height = 14.0 + 10.5 * (len(lines) - 1)
    return lines, min(max(widths), width), height


def build_geometry(sector: dict, plan: dict | None = None) -> SectorGeometry:
    """A sector's drawing geometry; ``plan`` (from ``label_plan``) saves the slow search."""
    points = [tuple(p) for p in sector["polygon"]]
    polygon = QPolygonF([QPointF(x, y) for x, y in points])
    path = _path_of(points)
    ax, ay = sector["label_at"]
    geo = SectorGeometry(sector["number"], sector["name"], sector["arm"], bool(sector["system"]),
                         bool(sector.get("core")), polygon, path, path.boundingRect(),
                         QPointF(ax, ay))
    plan = plan or label_plan(sector)
    geo.label_lines = [tuple(line) for line in plan["lines"]]
    geo.label_rect = QRectF(*plan["label_rect"])
    geo.slots = [QPointF(x, y) for x, y in plan["slots"]]
    # An inner band along the rim, tinted by the sector's owner.
    geo.band = _inner_band(points, 4.5)
    return geo


def label_plan(sector: dict) -> dict:
    """Where a sector's label plate goes and where its counters sit, as plain numbers:
    {"lines", "label_rect": [x, y, w, h], "slots": [[x, y]...]}. This search is the slow part
    of building a scene, so its results are kept between runs (``layout_geometry``)."""
    points = [tuple(p) for p in sector["polygon"]]
    path = _path_of(points)
    ax, ay = sector["label_at"]
    r = path.boundingRect()
    chord = max(_chord(points, ax, ay), 40.0)
    lines, width, height = _label_lines(sector, chord - 8)

    # Counter slots: a grid, tried at several phases, of places where a counter fits (it may
    # overhang the rim a little: rims are thin lines). Computed once; the label goes where it
    # leaves the most slots, as near the layout's label point as possible.
    fit = UNIT_SIZE / 2 - 2.5          # this much of the counter must be inside the sector
    half = UNIT_SIZE / 2 + 1.0         # and this much must keep clear of the label
    grids = []
    for fx in (0.0, 0.25, 0.5, 0.75):
        for fy in (0.0, 0.25, 0.5, 0.75):
            fits = []
            y = r.top() + fit + fy * SLOT_STEP
            while y <= r.bottom() - fit:
                x = r.left() + fit + fx * SLOT_STEP
                while x <= r.right() - fit:
                    if path.contains(QRectF(x - fit, y - fit, 2 * fit, 2 * fit)):
                        fits.append((x, y))
                    x += SLOT_STEP
                y += SLOT_STEP
            grids.append(fits)

    wanted = 6                          # enough for almost every position seen in play
    grids.sort(key=len, reverse=True)
    most = len(grids[0])

    def score(count: int, distance: float) -> float:
        return min(count, wanted) * 100 - distance + min(count, 10)

    best = None
    # Arm sectors are curved bands at every angle: try the label along every direction,
    # nearest first, and stop when no farther place could do better.
    offsets = [(0.0, 0.0)] + [(d * math.cos(a * math.pi / 6), d * math.sin(a * math.pi / 6))
                              for d in (7, 14, 21, 28, 35) for a in range(12)]
    for dx, dy in offsets:
        distance = math.hypot(dx, dy)
        if best is not None and best[0] >= score(most, distance):
            break
        lx, ly = ax + dx, ay + dy
        plate = QRectF(lx - width / 2 + 7, ly - height / 2 + 4, width - 14, height - 8)
        if (dx or dy) and not path.contains(plate):
            continue                    # a moved label must stay inside its own sector
        left, right = lx - width / 2 - 2 - half, lx + width / 2 + 2 + half
        top, bottom = ly - height / 2 - 1 - half, ly + height / 2 + 1 + half
        for fits in grids:
            if best is not None and score(len(fits), distance) <= best[0]:
                break                   # grids are sorted: none of the rest can win
            free = [(x, y) for x, y in fits if not (left < x < right and top < y < bottom)]
            value = score(len(free), distance)
            if best is None or value > best[0]:
                best = (value, QRectF(lx - width / 2 - 2, ly - height / 2 - 1, width + 4,
                                      height + 2), free)
    if best is None:
        best = (0, QRectF(ax - width / 2 - 2, ay - height / 2 - 1, width + 4, height + 2), [])
    _, label_rect, free = best
    slots = _compact_order([QPointF(x, y) for x, y in free], label_rect.center())
    if not slots:
        below = QPointF(ax, label_rect.bottom() + UNIT_SIZE / 2 + 1)
        slots = [below if path.contains(below) else QPointF(ax, ay)]
    return {"lines": [list(line) for line in lines],
            "label_rect": [label_rect.x(), label_rect.y(), label_rect.width(),
                           label_rect.height()],
            "slots": [[p.x(), p.y()] for p in slots]}


def _inner_band(points: list[tuple[float, float]], width: float) -> QPainterPath:
    """A ring just inside the polygon's rim, as straight lines only (a stroked-and-intersected
    path has thousands of curve elements and fills several times slower)."""
    area = sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(points, points[1:] + points[:1]))
    inward = 1.0 if area > 0 else -1.0          # which side of each edge is inside
    count = len(points)
    inset = []
    for k in range(count):
        (x0, y0), (x1, y1), (x2, y2) = points[k - 1], points[k], points[(k + 1) % count]
        normals = []
        for ax, ay, bx, by in ((x0, y0, x1, y1), (x1, y1, x2, y2)):
            length = math.hypot(bx - ax, by - ay) or 1.0
            normals.append((-(by - ay) / length * inward, (bx - ax) / length * inward))
        nx, ny = normals[0][0] + normals[1][0], normals[0][1] + normals[1][1]
        norm = math.hypot(nx, ny) or 1.0
        nx, ny = nx / norm, ny / norm
        cos_half = max(nx * normals[0][0] + ny * normals[0][1], 0.5)   # miter, limited
        inset.append((x1 + nx * width / cos_half, y1 + ny * width / cos_half))
    band = QPainterPath()
    band.setFillRule(Qt.FillRule.OddEvenFill)
    band.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    band.closeSubpath()
    band.addPolygon(QPolygonF([QPointF(x, y) for x, y in inset]))
    band.closeSubpath()
    return band


_GEOMETRY_CACHE: dict[int, list[SectorGeometry]] = {}
_SKY_CACHE: dict[int, Sky] = {}


def _layout_key(layout: dict) -> int:
    return hash((tuple(layout["canvas"]),
                 tuple((s["number"], s["name"], tuple(s["label_at"]),
                        tuple(tuple(p) for p in s["polygon"])) for s in layout["sectors"]),
                 tuple(tuple(tuple(p) for p in v["polygon"]) for v in layout.get("voids", []))))


def layout_geometry(layout: dict) -> list[SectorGeometry]:
    """The geometry of every sector, computed once per distinct layout (it takes a while and
    every scene of a run, the window's and each render's, uses the same map)."""
    key = _layout_key(layout)
    if key not in _GEOMETRY_CACHE:
        plans = layout_plans(layout)
        _GEOMETRY_CACHE[key] = [build_geometry(s, plan)
                                for s, plan in zip(layout["sectors"], plans)]
    return _GEOMETRY_CACHE[key]


def layout_plans(layout: dict) -> list[dict]:
    """Every sector's ``label_plan``, from the per-user data cache when this very layout,
    this drawing code and these fonts were planned before (a start-up saving of ~0.2 s)."""
    import json

    sources = [Path(__file__), *sorted((assets_dir() / "fonts").glob("*.ttf"))]
    material = json.dumps([layout["canvas"], layout["sectors"]], sort_keys=True).encode()
    return cached("map-label-plans", sources,
                  lambda: [label_plan(s) for s in layout["sectors"]], extra=material)


def layout_sky(layout: dict, sectors: list[SectorGeometry]) -> Sky:
    """The sky of a layout, also made once: it never changes."""
    key = _layout_key(layout)
    if key not in _SKY_CACHE:
        voids = [_path_of(v["polygon"]) for v in layout.get("voids", [])]
        _SKY_CACHE[key] = Sky(layout, sectors, voids)
    return _SKY_CACHE[key]


def _compact_order(slots: list[QPointF], anchor: QPointF) -> list[QPointF]:
    """Slots in the order they fill: each next one nearest to the block so far, so a few
    counters sit together next to the label instead of scattering over the sector."""
    left = list(slots)
    chosen: list[QPointF] = []
    cx, cy = anchor.x(), anchor.y()
    while left:
        nxt = min(left, key=lambda p: (p.x() - cx) ** 2 + (p.y() - cy) ** 2)
        left.remove(nxt)
        chosen.append(nxt)
        k = len(chosen)
        # The centre of the block, with the label counting as one member.
        cx = (anchor.x() + sum(p.x() for p in chosen)) / (k + 1)
        cy = (anchor.y() + sum(p.y() for p in chosen)) / (k + 1)
    return chosen


# ======================================================================== the sky
class Sky:
    """The deep-space background: a gradient with a faint glow along the spiral arms (one soft
    image, drawn scaled: it has no edges to blur) and a seeded star field drawn as points, so
    the stars stay pin-sharp at every zoom."""

    def __init__(self, layout: dict, sectors: list[SectorGeometry], voids: list[QPainterPath]):
        width, height = layout["canvas"]
        self.rect = QRectF(-MARGIN, -MARGIN, width + 2 * MARGIN, height + 2 * MARGIN)
        self.base = QColor("#03040b")
        self.glow = self._glow_image(width, height, sectors)
        rng = random.Random(19770531)          # the same sky on every run
        self.stars: list[tuple[QPen, QPolygonF]] = []
        span = (-width, 2 * width, -height, 2 * height)
        for count, size, alpha in ((1700, 1.0, 120), (500, 1.4, 170), (120, 2.0, 220),
                                   (25, 2.8, 255)):
            pts = QPolygonF([QPointF(rng.uniform(span[0], span[1]), rng.uniform(span[2], span[3]))
                             for _ in range(count)])
            tint = rng.choice(("#ffffff", "#cfe0ff", "#fff1d6"))
            colour = QColor(tint)
            colour.setAlpha(alpha)
            pen = QPen(colour, size)
            pen.setCosmetic(True)                 # a star is a dot on screen, not on the map
            pen.setCapStyle(Qt.PenCapStyle.RoundCap)
            self.stars.append((pen, pts))
        self.voids = voids
        self.void_fill = QColor(7, 7, 13)           # opaque: see SectorStyle._apply
        self.void_hatch = self._hatch(layout)
        self.hatch_pen = QPen(QColor(40, 35, 58), 1.5)
        self.void_pen = QPen(QColor(120, 100, 150, 110), 1.0)
        self.void_pen.setCosmetic(True)

    def _glow_image(self, width: float, height: float, sectors: list[SectorGeometry]) -> QImage:
        size = 384                 # a soft glow: more pixels would add nothing but time
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(self.base)
        p = QPainter(image)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.scale(size / self.rect.width(), size / self.rect.height())
        p.translate(-self.rect.left(), -self.rect.top())
        centre = QPointF(width / 2, height / 2)
        halo = QRadialGradient(centre, width * 0.58)
        halo.setColorAt(0.0, QColor(64, 52, 110, 200))
        halo.setColorAt(0.35, QColor(26, 28, 70, 150))
        halo.setColorAt(1.0, QColor(0, 0, 0, 0))
        p.fillRect(self.rect, halo)
        p.setPen(Qt.PenStyle.NoPen)
        for geo in sectors:                     # the arms glow in their own hue
            if geo.arm in ("Inter-arm", "Rim"):
                continue
            hue = QColor(ARM_COLOURS.get(geo.arm, "#333"))
            glow = QRadialGradient(geo.centre, 85)
            glow.setColorAt(0, _mix(hue, QColor("white"), 0.25, 70))
            glow.setColorAt(1, QColor(0, 0, 0, 0))
            p.setBrush(glow)
            p.drawEllipse(geo.centre, 85, 85)
        core = QRadialGradient(centre, 170)
        core.setColorAt(0, QColor(255, 226, 150, 150))
        core.setColorAt(0.4, QColor(200, 150, 80, 50))
        core.setColorAt(1, QColor(0, 0, 0, 0))
        p.setBrush(core)
        p.drawEllipse(centre, 170, 170)
        p.end()
        return image

    @staticmethod
    def _hatch(layout: dict) -> list[QLineF]:
        """Diagonal hatching of the Void cells as line segments clipped to each cell (computed
        here: a hatch built by path intersection paints some thirty times slower)."""
        lines = []
        step = 11.0
        for void in layout.get("voids", []):
            pts = [tuple(p) for p in void["polygon"]]
            sums = [x + y for x, y in pts]
            c = math.floor(min(sums) / step) * step
            while c < max(sums):
                # Where the line x + y = c crosses the cell's edges, ordered along the line.
                hits = []
                for (x1, y1), (x2, y2) in zip(pts, pts[1:] + pts[:1]):
                    s1, s2 = x1 + y1 - c, x2 + y2 - c
                    if (s1 < 0) != (s2 < 0):
                        t = s1 / (s1 - s2)
                        hits.append(x1 + t * (x2 - x1))
                hits.sort()
                for a, b in zip(hits[::2], hits[1::2]):
                    lines.append(QLineF(a, c - a, b, c - b))
                c += step
        return lines

    def colour_at(self, point: QPointF) -> QColor:
        """The sky's colour at a point of the map (sectors blend their fill with it)."""
        size = self.glow.width()
        x = int((point.x() - self.rect.left()) / self.rect.width() * size)
        y = int((point.y() - self.rect.top()) / self.rect.height() * size)
        return self.glow.pixelColor(min(max(x, 0), size - 1), min(max(y, 0), size - 1))

    def paint(self, painter: QPainter, rect: QRectF) -> None:
        painter.fillRect(rect, self.base)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        painter.drawImage(self.rect, self.glow)
        painter.restore()
        for pen, pts in self.stars:
            painter.setPen(pen)
            painter.drawPoints(pts)


# ======================================================================== sectors
class SectorStyle:
    """How one sector looks now (its owner's tint) and its tooltip. Not an item: every sector
    is drawn by the one MapLayer."""

    def __init__(self, geo: SectorGeometry, sky_colour: QColor):
        self.geo = geo
        self.number = geo.number
        self.owner: str | None = None
        self.ie: int | None = None
        self.tooltip = f"{geo.number:02d} {geo.name}"
        self.washes: set[str] = set()             # highlight kinds shown on this sector
        base = QColor(ARM_COLOURS.get(geo.arm, "#1b1f2a"))
        self.base = base if geo.system else base.darker(165)
        self.sky_colour = sky_colour
        self._apply()

    def set_state(self, owner: str | None, ie: int | None, tooltip: str) -> bool:
        """Take the board's owner, Independent Empire and tooltip; True if the look changed."""
        self.tooltip = tooltip or self.tooltip
        if (owner, ie) == (self.owner, self.ie):
            return False
        self.owner, self.ie = owner, ie
        self._apply()
        return True

    def set_wash(self, kind: str, on: bool) -> bool:
        """Show or hide a highlight wash; True if the look changed."""
        if (kind in self.washes) == on:
            return False
        if on:
            self.washes.add(kind)
        else:
            self.washes.discard(kind)
        self._apply()
        return True

    def _apply(self) -> None:
        tint = OWNER_COLOURS.get(self.owner or "")
        if self.ie in IE_COLOURS:
            tint = IE_COLOURS[self.ie]
        strength = 0.1 if self.geo.core else (0.3 if self.owner else 0.12)
        fill = _mix(self.base, tint, strength) if tint is not None else QColor(self.base)
        # Every colour here is opaque, blended in advance with the sky behind the sector:
        # on the raster engine a translucent fill of a large area is an order of magnitude
        # slower to paint.
        fill = _mix(self.sky_colour, fill, 0.8 if self.geo.system else 0.72)
        wash = next((HIGHLIGHT_STYLES[k][0] for k in WASH_ORDER if k in self.washes), None)
        if wash is not None:
            fill = _mix(fill, wash[0], wash[1])
        self.fill = QBrush(fill)
        self.band = _mix(fill, tint, 0.62 if self.owner else 0.42) if tint is not None else None
        self.plate = _mix(fill, QColor(4, 6, 16), 0.5)


class MapLayer(QGraphicsItem):
    """The static map in one item: the Void, every sector (fill by arm, owner band, rim) and
    every label. One item, so a cached repaint copies one picture instead of a hundred
    overlapping ones; it is redrawn only when the zoom or a sector's owner changes."""

    def __init__(self, sky: Sky, sectors: dict[int, SectorStyle]):
        super().__init__()
        self.sky, self.sectors = sky, sectors
        self.setZValue(Z_SECTOR)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)   # presses fall to the scene
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        bounds = QRectF()
        for v in sky.voids:
            bounds = bounds.united(v.boundingRect())
        for style in sectors.values():
            bounds = bounds.united(style.geo.rect).united(style.geo.label_rect.adjusted(0, -7, 4, 0))
        self._bounds = bounds.adjusted(-4, -4, 4, 4)
        self.rim = QPen(QColor(150, 162, 196), 0.9)
        self.rim.setCosmetic(True)              # a hairline at every zoom
        self.core_rim = QPen(GOLD, 3.0)
        self.sun_pen = QPen(QColor("#ffecaa"), 0.8)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        exposed = option.exposedRect
        sky = self.sky
        painter.setBrush(sky.void_fill)
        painter.setPen(sky.void_pen)
        for v in sky.voids:
            painter.drawPath(v)
        painter.setPen(sky.hatch_pen)
        painter.drawLines(sky.void_hatch)
        visible = [s for s in self.sectors.values() if s.geo.rect.intersects(exposed)]
        painter.setPen(Qt.PenStyle.NoPen)
        for style in visible:
            painter.setBrush(style.fill)
            painter.drawPath(style.geo.path)
            if style.band is not None:
                painter.setBrush(style.band)
                painter.drawPath(style.geo.band)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.setPen(self.rim)
        for style in visible:
            painter.drawPath(style.geo.path)
        core = [s for s in visible if s.geo.core]
        if core:
            painter.setPen(self.core_rim)
            painter.drawPath(core[0].geo.path)
        detail = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        if detail >= 0.3:                   # too small to read otherwise (the overview)
            compact = detail * 9 < NAME_MIN_PX
            for style in self.sectors.values():
                if style.geo.label_rect.intersects(exposed):
                    if compact:
                        self._paint_number(painter, style, detail)
                    else:
                        self._paint_label(painter, style)

    def _paint_number(self, painter: QPainter, style: SectorStyle, detail: float) -> None:
        """Zoomed far out: the sector's number alone on its plate, grown to be read."""
        geo = style.geo
        number, size, bold = geo.label_lines[0]
        growth = max(1.0, min(NUMBER_MAX_GROWTH, NUMBER_MIN_PX / (size * detail)))
        centre = geo.label_rect.center()
        width = text_width(number, size, bold) + 6
        painter.save()
        painter.translate(centre)
        painter.scale(growth, growth)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.plate)
        painter.drawRoundedRect(QRectF(-width / 2, -size / 2 - 1, width, size + 2), 3, 3)
        draw_text(painter, 0, 0, number, size, bold, GOLD if geo.core else LABEL_NUMBER)
        painter.restore()

    def _paint_label(self, painter: QPainter, style: SectorStyle) -> None:
        """The number (with a small sun for a system sector), the name, the IE tag."""
        geo = style.geo
        r = geo.label_rect
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(style.plate)
        painter.drawRoundedRect(r, 4, 4)
        number, size, bold = geo.label_lines[0]
        y = r.top() + 1 + 7
        if geo.system:
            nw = text_width(number, size, bold)
            sx = r.center().x() - (nw + 11) / 2 + 4
            painter.setBrush(QColor("#ffd36b"))
            painter.setPen(self.sun_pen)
            painter.drawEllipse(QPointF(sx, y), 3.4, 3.4)
            draw_text(painter, sx + 7 + nw / 2, y, number, size, bold,
                      GOLD if geo.core else LABEL_NUMBER)
        else:
            draw_text(painter, r.center().x(), y, number, size, bold, LABEL_NUMBER)
        y += 12
        for text, size, bold in geo.label_lines[1:]:
            draw_text(painter, r.center().x(), y, text, size, bold, LABEL_NAME, r.width() - 2)
            y += 10.5
        if style.ie:
            tag = f"IE {style.ie}"
            w = text_width(tag, SMALL_TEXT, True) + 5
            tag_rect = QRectF(r.right() - w + 2, r.top() - 6, w, 11)
            painter.setPen(QPen(QColor(10, 10, 16), 0.6))
            painter.setBrush(IE_COLOURS.get(style.ie, GOLD))
            painter.drawRoundedRect(tag_rect, 3, 3)
            draw_text(painter, tag_rect.center().x(), tag_rect.center().y(), tag, SMALL_TEXT,
                      True, QColor("#15151c"))


# ======================================================================== overlays
def round_pens(*pens: QPen, cap: Qt.PenCapStyle | None = None) -> list[QPen]:
    """Pens for outlines drawn over one another (a dark halo, then the bright line)."""
    for pen in pens:
        pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        if cap is not None:
            pen.setCapStyle(cap)
    return list(pens)


def stroke(painter: QPainter, pens: list[QPen], paths: list[QPainterPath]) -> None:
    painter.setBrush(Qt.BrushStyle.NoBrush)
    for pen in pens:
        painter.setPen(pen)
        for path in paths:
            painter.drawPath(path)


class HighlightItem(QGraphicsItem):
    """A sector's rim drawn bright in one of the HIGHLIGHT_STYLES, over a dark halo so it
    shows on any fill. (The kind's wash is in the map layer: see SectorStyle.set_wash.)"""

    def __init__(self, geo: SectorGeometry, kind: str):
        super().__init__()
        self.geo, self.kind = geo, kind
        _, rim, width, dashed = HIGHLIGHT_STYLES[kind]
        self.pens = round_pens(QPen(QColor(8, 10, 16), width + 2.6),
                               QPen(rim, width, Qt.PenStyle.DashLine if dashed
                                    else Qt.PenStyle.SolidLine))
        self.setZValue({"selected": Z_SELECTION, "drop": Z_SELECTION + 0.5,
                        "nodrop": Z_SELECTION + 0.5}.get(kind, Z_HIGHLIGHT))
        self._bounds = geo.rect.adjusted(-5, -5, 5, 5)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        stroke(painter, self.pens, [self.geo.path])


class EmphasisItem(QGraphicsItem):
    """What the Chaos side just did: amber rings round sectors, an arrow for a move, a caption."""

    def __init__(self, scene: GalaxyScene, sectors: list[int], arrow, text: str):
        super().__init__()
        self.setZValue(Z_EMPHASIS)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.rings = [scene.geometry[n].path for n in sectors if n in scene.geometry]
        self.ring_pens = round_pens(QPen(QColor(255, 190, 60, 80), 10.0),
                                    QPen(QColor("#ffc34d"), 3.4))
        self.arrow_pens = round_pens(QPen(QColor(20, 10, 0, 200), 6.5),
                                     QPen(QColor("#ffd36b"), 3.2), cap=Qt.PenCapStyle.RoundCap)
        bounds = QRectF()
        for path in self.rings:
            bounds = bounds.united(path.boundingRect())
        self.arrow = QPainterPath()
        self.head = QPainterPath()
        if arrow and arrow[0] in scene.geometry and arrow[1] in scene.geometry:
            a, b = scene.sector_center(arrow[0]), scene.sector_center(arrow[1])
            dx, dy = b.x() - a.x(), b.y() - a.y()
            length = math.hypot(dx, dy) or 1.0
            ux, uy = dx / length, dy / length
            start = QPointF(a.x() + ux * 10, a.y() + uy * 10)
            end = QPointF(b.x() - ux * 14, b.y() - uy * 14)
            bend = QPointF((start.x() + end.x()) / 2 - uy * length * 0.18,
                           (start.y() + end.y()) / 2 + ux * length * 0.18)
            self.arrow.moveTo(start)
            self.arrow.quadTo(bend, end)
            # The head points along the curve's last stretch.
            tx, ty = end.x() - bend.x(), end.y() - bend.y()
            tl = math.hypot(tx, ty) or 1.0
            tx, ty = tx / tl, ty / tl
            tip = QPointF(end.x() + tx * 8, end.y() + ty * 8)
            self.head.addPolygon(QPolygonF([tip, QPointF(end.x() - ty * 7, end.y() + tx * 7),
                                            QPointF(end.x() + ty * 7, end.y() - tx * 7)]))
            self.head.closeSubpath()
            bounds = bounds.united(self.arrow.boundingRect()).united(self.head.boundingRect())
        self.caption = text.strip()
        self.caption_rect = QRectF()
        self.caption_lines: list[str] = []
        if self.caption:
            self.caption_lines = _wrap(self.caption, 11, 300)
            w = max(text_width(t, 11) for t in self.caption_lines) + 14
            h = 14 * len(self.caption_lines) + 8
            anchor = bounds.center() if not bounds.isNull() else QPointF(500, 500)
            top = (bounds.top() - h - 8) if not bounds.isNull() else anchor.y()
            if top < 0:
                top = bounds.bottom() + 8
            rect = QRectF(anchor.x() - w / 2, top, w, h)
            canvas = scene.sceneRect()
            rect.moveLeft(min(max(rect.left(), canvas.left() + 4), canvas.right() - w - 4))
            self.caption_rect = rect
            bounds = bounds.united(rect)
        self._bounds = bounds.adjusted(-12, -12, 12, 12)
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def boundingRect(self) -> QRectF:
        return self._bounds

    def focus_rect(self) -> QRectF:
        """What must be on screen for the step to be read: the caption and the arrow, else
        the ringed sectors (scene units)."""
        rect = QRectF(self.caption_rect)
        for part in ((self.arrow.boundingRect().united(self.head.boundingRect()),)
                     if not self.arrow.isEmpty() else [p.boundingRect() for p in self.rings]):
            rect = part if rect.isNull() else rect.united(part)
        return rect.adjusted(-6, -6, 6, 6) if not rect.isNull() else rect

    def paint(self, painter: QPainter, option, widget=None) -> None:
        stroke(painter, self.ring_pens, self.rings)
        if not self.arrow.isEmpty():
            stroke(painter, self.arrow_pens, [self.arrow])
            painter.setPen(QPen(QColor(20, 10, 0, 200), 1.2))
            painter.setBrush(QColor("#ffd36b"))
            painter.drawPath(self.head)
        if self.caption_lines:
            r = self.caption_rect
            painter.setPen(QPen(QColor("#ffc34d"), 1.2))
            painter.setBrush(QColor(10, 10, 20, 225))
            painter.drawRoundedRect(r, 5, 5)
            y = r.top() + 4 + 7
            for line in self.caption_lines:
                draw_text(painter, r.center().x(), y, line, 11, False, QColor("#fff4dc"))
                y += 14


def _wrap(text: str, size: int, width: float) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        trial = f"{line} {word}".strip()
        if line and text_width(trial, size) > width:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines[:4]


class FanPanel(QGraphicsItem):
    """The dark card behind a fanned-out stack, titled with the sector."""

    def __init__(self, rect: QRectF, title: str):
        super().__init__()
        self.rect, self.title = rect, title
        self.setZValue(Z_FAN)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return self.rect.adjusted(-2, -2, 2, 2)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setPen(QPen(QColor(230, 230, 255, 200), 1.2))
        painter.setBrush(QColor(8, 10, 22))
        painter.drawRoundedRect(self.rect, 6, 6)
        draw_text(painter, self.rect.center().x(), self.rect.top() + 9, self.title, 9, True,
                  LABEL_NUMBER, self.rect.width() - 8)


class GhostItem(QGraphicsObject):
    """A faint copy of a refused counter sliding back home; the real one is already there."""

    def __init__(self, piece: dict, count: int, hue):
        super().__init__()
        self.piece, self.count, self.hue = piece, count, hue
        self.setZValue(Z_DRAG)
        self.setOpacity(0.55)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def boundingRect(self) -> QRectF:
        return QRectF(-17, -17, 34, 34)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        paint_piece(painter, self.piece, self.count, self.hue)


# ======================================================================== the scene
@dataclass
class _Drag:
    item: CounterItem                    # the counter pressed
    piece_id: str                        # the one piece that moves
    targets: dict
    press_scene: QPointF
    press_screen: QPoint
    moving: CounterItem | None = None    # follows the pointer once the drag has started
    origin: QPointF = field(default_factory=QPointF)
    split: bool = False                  # moving is a single taken from a collapsed counter
    over: int = -1                       # the sector under the pointer
    z: float = Z_COUNTER                 # the moving counter's place in the stacking order
    refused: bool = False                # held, but it may not move: a drag only says why
    whole: bool = False                  # the whole stack moves (Shift held at the press)
    told: bool = False                   # ... and it has been said


class GalaxyScene(QGraphicsScene):
    """The galaxy map. See the module docstring; the window talks to it through the methods
    and signals below and never touches its items."""

    piece_dropped = Signal(str, int)     # piece id, the sector it was legally dropped on
    drop_refused = Signal(str, str)      # piece id, reason: a drop refused (the counter is
                                         # already back) or a counter that may not be picked up
    wants_visible = Signal(QRectF)       # scene area the view should bring on screen
    sector_clicked = Signal(int)
    sector_hovered = Signal(int)         # -1 when the pointer leaves every sector
    selection_changed = Signal(int)      # the selected sector, -1 for none

    def __init__(self, layout: dict, parent=None):
        super().__init__(parent)
        ensure_fonts()
        self.layout_data = layout
        width, height = layout["canvas"]
        self.setSceneRect(-MARGIN, -MARGIN, width + 2 * MARGIN, height + 2 * MARGIN)
        # Counters move while dragged and are rebuilt with every board: a flat list is
        # quicker than keeping a BSP tree up to date for a few hundred items.
        self.setItemIndexMethod(QGraphicsScene.ItemIndexMethod.NoIndex)
        self.geometry: dict[int, SectorGeometry] = {g.number: g for g in layout_geometry(layout)}
        self.sky = layout_sky(layout, list(self.geometry.values()))
        self.sectors: dict[int, SectorStyle] = {
            n: SectorStyle(geo, self.sky.colour_at(geo.centre)) for n, geo in self.geometry.items()}
        self.map_layer = MapLayer(self.sky, self.sectors)
        self.addItem(self.map_layer)
        # The map layer and the counters keep a picture of themselves at the view's current
        # scale (see set_item_caching); room for a whole zoomed-in screenful of them.
        QPixmapCache.setCacheLimit(max(QPixmapCache.cacheLimit(), 96 * 1024))
        self._caching = True
        self.set_item_caching(True)

        self.board: dict | None = None
        self._counters: list[CounterItem] = []
        self._badges: list[PileBadge] = []
        self._piles: dict[int, list[Pile]] = {}
        self._piece_items: dict[str, CounterItem] = {}
        self._crowded: set[int] = set()
        self._retired: list[QGraphicsItem] = []    # kept alive until the next board (see _retire)
        self._highlights: dict[str, dict[int, HighlightItem]] = {}
        self._selection: HighlightItem | None = None
        self._selected = -1
        self._emphasis: EmphasisItem | None = None
        self._moves: list[Move] = []
        self._marks: MoveMarks | None = None
        self._fan_sector = -1
        self._fan_items: list[QGraphicsItem] = []
        self._fan_rect = QRectF()
        self._ghosts: list[tuple[GhostItem, QVariantAnimation]] = []
        self._hovered = -1
        self._drag: _Drag | None = None
        self._pending_board: dict | None = None
        self._click_from: QPoint | None = None
        self._force_hues: dict[str, QColor] = {}
        self._targets: Callable[[str], dict] | None = None
        self._refusal: Callable[[str, int], str] | None = None
        self._pickup_refusal: Callable[[str], str] | None = None
        self._fan_timer = QTimer(self)
        self._fan_timer.setSingleShot(True)
        self._fan_timer.setInterval(FAN_DELAY_MS)
        self._fan_timer.timeout.connect(self._fan_timer_fired)

    # ------------------------------------------------------------------ the static map
    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:
        self.sky.paint(painter, rect)

    def set_item_caching(self, on: bool) -> None:
        """The map layer and the counters keep a picture of themselves in device pixels
        (``DeviceCoordinateCache``), redrawn from vectors whenever the scale changes: sharp at
        every zoom, and a repaint or a pan only copies pictures. Off for one-shot drawing
        (image and PDF export: a PDF must get vectors, not pictures)."""
        self._caching = on
        mode = (QGraphicsItem.CacheMode.DeviceCoordinateCache if on
                else QGraphicsItem.CacheMode.NoCache)
        for item in self.items():
            if isinstance(item, (MapLayer, CounterItem, PileBadge)):
                item.setCacheMode(mode)

    def _cache(self, item: QGraphicsItem) -> None:
        if self._caching:
            item.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def sector_tooltip(self, n: int) -> str:
        return self.sectors[n].tooltip if n in self.sectors else ""

    def helpEvent(self, event) -> None:
        """Tooltips: the topmost counter's, else the sector's under the pointer."""
        pos = event.scenePos()
        text = next((item.toolTip() for item in self.items(pos) if item.toolTip()), "")
        if not text:
            text = self.sector_tooltip(self.sector_at(pos))
        if text:
            QToolTip.showText(event.screenPos(), text, event.widget())
            event.accept()
        else:
            QToolTip.hideText()
            event.ignore()

    def sector_center(self, n: int) -> QPointF:
        """A point well inside sector ``n`` (the layout's label point)."""
        return QPointF(self.geometry[n].centre)

    def sector_at(self, pos: QPointF) -> int:
        """The sector under ``pos``, or -1 (the Void and the sky are no sector)."""
        for n, geo in self.geometry.items():
            if geo.rect.contains(pos) and geo.polygon.containsPoint(pos, Qt.FillRule.OddEvenFill):
                return n
        return -1

    def map_rect(self) -> QRectF:
        """The canvas of the map in scene units (without the sky margin)."""
        width, height = self.layout_data["canvas"]
        return QRectF(0, 0, width, height)

    # ------------------------------------------------------------------ the position
    def show_board(self, board: dict) -> None:
        """Draw every piece of ``board``. Called after every change; a board that arrives in
        the middle of a drag is drawn when the drag ends."""
        if self._drag is not None and self._drag.moving is not None:
            self._pending_board = board
            return
        self._drag = None
        self._pending_board = None
        self.board = board
        self.close_fan()
        self._retire([*self._counters, *self._badges])
        self._counters, self._piece_items, self._crowded = [], {}, set()
        self._badges, self._piles = [], {}
        pieces = board.get("pieces", {})
        self._force_hues = {str(p.get("force")): force_colour(str(p.get("type")),
                                                              ie_number(str(p.get("label", ""))))
                            for p in pieces.values() if p.get("kind") == "force"}
        by_sector: dict[int, list[dict]] = {}
        listed: set[str] = set()
        for key, sec in board.get("sectors", {}).items():
            n = int(key)
            if n in self.sectors and self.sectors[n].set_state(sec.get("owner"), sec.get("ie"),
                                                              sec.get("tooltip", "")):
                self.map_layer.update(self.geometry[n].rect.united(self.geometry[n].label_rect.adjusted(0, -7, 4, 0)))
            for pid in sec.get("pieces", []):
                if pid in pieces:
                    by_sector.setdefault(n, []).append(pieces[pid])
                    listed.add(pid)
        for pid, p in pieces.items():            # pieces a sector list forgot, if any
            if pid not in listed and isinstance(p.get("sector"), int):
                by_sector.setdefault(p["sector"], []).append(p)
        for n, sector_pieces in by_sector.items():
            if n in self.geometry:
                self._lay_out_sector(n, sector_pieces)
        self._draw_marks()

    def _lay_out_sector(self, n: int, pieces: list[dict]) -> None:
        geo = self.geometry[n]
        # Small markers (Nexus, stargate, Institute, expedition site) do not take a stack
        # slot: they are pinned, a little smaller, to the corner of the sector's label.
        pins = [p for p in pieces if p.get("kind") in PIN_KINDS]
        groups = group_pieces([p for p in pieces if p.get("kind") not in PIN_KINDS])
        piles = self._piles[n] = lay_out(geo.pile_shape(), geo.slots, groups)
        if len(groups) > len(geo.slots) or any(len(g) > 1 for g in groups):
            self._crowded.add(n)
        z = Z_COUNTER
        for pile in piles:
            top = None
            for group, pos in zip(pile.groups, pile.positions):
                if top is not None:
                    top.buried = True
                top = self._add_counter(group, n, pos, z)
                z += 0.01
            if len(pile.groups) > 1 and top is not None:
                self._add_badge(pile.counts(), n, top)
        for k, piece in enumerate(pins):
            item = self._add_counter([piece], n, self._pin_position(geo, k), z)
            item.setScale(PIN_SCALE)
            z += 0.01

    @staticmethod
    def _pin_position(geo: SectorGeometry, k: int) -> QPointF:
        """The k-th pin's place: along the first corner of the label that is inside the
        sector, else just above the label's centre."""
        r = geo.label_rect
        for x, y, dx in ((r.left() + 2, r.top() + 1, 13), (r.right() - 2, r.top() + 1, -13),
                         (r.left() + 2, r.bottom() - 1, 13), (r.right() - 2, r.bottom() - 1, -13)):
            spot = QPointF(x + dx * k, y)
            if geo.polygon.containsPoint(spot, Qt.FillRule.OddEvenFill):
                return spot
        above = QPointF(r.center().x() + 13 * k, r.top())
        if geo.polygon.containsPoint(above, Qt.FillRule.OddEvenFill):
            return above
        beside = QPointF(geo.centre.x() + 6 * k, geo.centre.y())
        inside = geo.polygon.containsPoint(beside, Qt.FillRule.OddEvenFill)
        return beside if inside else QPointF(geo.centre)      # never over a border

    def _add_counter(self, group: list[dict], n: int, pos: QPointF, z: float) -> CounterItem:
        item = CounterItem(group, self._force_hues)
        self._cache(item)
        item.sector = n
        item.home = pos
        item.setPos(pos)
        item.setZValue(z)
        self.addItem(item)
        self._counters.append(item)
        for pid in item.piece_ids:
            self._piece_items[pid] = item
        return item

    def _add_badge(self, counts: dict[str, int], n: int, top: CounterItem) -> PileBadge:
        """The count of a pile, on the top-left corner of its top counter, above the
        counter's lettering."""
        badge = PileBadge(counts, n)
        self._cache(badge)
        badge.setPos(top.pos() + QPointF(-UNIT_SIZE / 2 + 1.0, -UNIT_SIZE / 2 + 3.5))
        badge.setZValue(Z_BADGE)
        self.addItem(badge)
        self._badges.append(badge)
        return badge

    def pile_badges(self) -> list[PileBadge]:
        return list(self._badges)

    def piles(self, n: int) -> list[Pile]:
        """The spots of sector ``n`` and the counters on each, as last laid out."""
        return list(self._piles.get(n, []))

    def _retire(self, items: Iterable[QGraphicsItem]) -> None:
        """Take items off the map but keep them alive until the next board: a drop handler may
        call show_board while Qt is still inside the dropped counter's mouse event."""
        self._retired = []
        for item in items:
            if item.scene() is self:
                self.removeItem(item)
            self._retired.append(item)

    def piece_item(self, piece_id: str) -> QGraphicsItem | None:
        """The counter showing ``piece_id`` on the map (a collapsed counter shows several)."""
        return self._piece_items.get(piece_id)

    def counter_items(self) -> list[CounterItem]:
        return list(self._counters)

    def is_crowded(self, n: int) -> bool:
        return n in self._crowded

    # ------------------------------------------------------------------ highlights
    def highlight(self, sectors: Iterable[int], kind: str = "legal") -> None:
        """Mark ``sectors`` in the style ``kind`` ("legal", "target", "hover"), replacing that
        kind's earlier marks."""
        if kind not in HIGHLIGHT_STYLES or kind == "selected":
            raise ValueError(f"unknown highlight kind {kind!r}")
        self.clear_highlight(kind)
        marks = self._highlights.setdefault(kind, {})
        for n in sectors:
            n = int(n)
            if n in self.geometry and n not in marks:
                item = HighlightItem(self.geometry[n], kind)
                self.addItem(item)
                marks[n] = item
                self._wash(n, kind, True)

    def clear_highlight(self, kind: str | None = None) -> None:
        kinds = [kind] if kind is not None else [k for k in self._highlights if k not in ("drop", "nodrop")]
        for k in kinds:
            for n, item in self._highlights.pop(k, {}).items():
                self.removeItem(item)
                self._wash(n, k, False)

    def _wash(self, n: int, kind: str, on: bool) -> None:
        if self.sectors[n].set_wash(kind, on):
            self.map_layer.update(self.geometry[n].rect.united(self.geometry[n].label_rect))

    def highlighted(self, kind: str = "legal") -> set[int]:
        return set(self._highlights.get(kind, {}))

    def emphasize(self, sectors: list[int], arrow: tuple[int, int] | None = None,
                  text: str = "") -> None:
        """Show what the Chaos side just did; replaces the previous emphasis."""
        self.clear_emphasis()
        self._emphasis = EmphasisItem(self, [int(n) for n in sectors], arrow, text)
        self.addItem(self._emphasis)
        self.wants_visible.emit(self._emphasis.focus_rect())

    def clear_emphasis(self) -> None:
        if self._emphasis is not None:
            self.removeItem(self._emphasis)
            self._emphasis = None

    @property
    def emphasis(self) -> EmphasisItem | None:
        return self._emphasis

    # ------------------------------------------------------------------ last moves
    def show_last_moves(self, moves: list[Move]) -> None:
        """Mark where the units of ``moves`` came from (see marks.py); an empty list clears
        the marks. They follow the counters through every later ``show_board``."""
        self._moves = list(moves)
        self._draw_marks()

    @property
    def last_moves(self) -> list[Move]:
        return list(self._moves)

    @property
    def move_marks(self) -> MoveMarks | None:
        return self._marks

    def _draw_marks(self) -> None:
        if self._marks is not None:
            if self._marks.scene() is self:
                self.removeItem(self._marks)
            self._marks = None
        traces = []
        seen: set[tuple[int, int, str | None]] = set()
        pieces = self.board.get("pieces", {}) if self.board else {}
        for move in self._moves:
            if move.origin not in self.geometry or move.to not in self.geometry:
                continue
            side = next((pieces[p].get("side") for p in move.pieces if p in pieces), None)
            if (move.origin, move.to, side) in seen:
                continue
            seen.add((move.origin, move.to, side))
            start, free = self._departure(move.origin)
            traces.append(Trace(start, self._arrival(move), side, free))
        if traces:
            self._marks = MoveMarks(traces)
            self._marks.setZValue(Z_MARKS)
            self.addItem(self._marks)

    def _slot(self, n: int) -> QPointF:
        geo = self.geometry[n]
        return QPointF(geo.slots[0]) if geo.slots else QPointF(geo.centre)

    def _departure(self, n: int) -> tuple[QPointF, bool]:
        """Where to outline the units that left sector ``n``: a slot no counter uses now
        (True), else the first slot, where a counter stands (False)."""
        geo = self.geometry[n]
        used = {(round(p.anchor.x(), 1), round(p.anchor.y(), 1)) for p in self._piles.get(n, [])}
        for slot in geo.slots:
            if (round(slot.x(), 1), round(slot.y(), 1)) not in used:
                return QPointF(slot), True
        return self._slot(n), not used

    def _arrival(self, move: Move) -> QPointF:
        """Where the moved units are drawn now: the counter of the first one still in the
        sector it reached, else that sector's first slot."""
        for pid in move.pieces:
            item = self._piece_items.get(pid)
            if item is not None and item.sector == move.to:
                return QPointF(item.home)
        return self._slot(move.to)

    # ------------------------------------------------------------------ selection
    @property
    def selected_sector(self) -> int:
        return self._selected

    def select_sector(self, n: int) -> None:
        n = int(n) if n in self.geometry else -1
        if self._selection is not None:
            self.removeItem(self._selection)
            self._selection = None
        if n != -1:
            self._selection = HighlightItem(self.geometry[n], "selected")
            self.addItem(self._selection)
        if n != self._selected:
            self._selected = n
            self.selection_changed.emit(n)

    @contextmanager
    def without_pointer_marks(self):
        """While inside, the map leaves out what the pointer alone put on it (the selection's
        outline, a hover mark and its wash): for an exported picture. Everything is shown
        again after."""
        hidden = [self._selection] if self._selection is not None else []
        hover = self._highlights.get("hover", {})
        hidden.extend(hover.values())
        hidden = [item for item in hidden if item.isVisible()]
        for item in hidden:
            item.setVisible(False)
        for n in hover:
            self._wash(n, "hover", False)
        try:
            yield
        finally:
            for item in hidden:
                item.setVisible(True)
            for n in hover:
                self._wash(n, "hover", True)

    # ------------------------------------------------------------------ dragging
    def set_drag_rules(self, targets: Callable[[str], dict] | None,
                       refusal: Callable[[str, int], str] | None,
                       pickup_refusal: Callable[[str], str] | None = None) -> None:
        """``targets(piece_id)``: the sectors that piece may go to now (empty: it cannot be
        picked up); ``refusal(piece_id, sector)``: why a drop there is not allowed;
        ``pickup_refusal(piece_id)``: why a counter with nowhere to go cannot be picked up
        (said when the player tries to drag it)."""
        self._targets, self._refusal = targets, refusal
        self._pickup_refusal = pickup_refusal

    def counter_pressed(self, item: CounterItem, event) -> bool:
        """A press on a counter: take hold of it if one of its pieces may move. A counter
        that may not move is held too (a drag on it does not pan the map): dragging it only
        says why it stays."""
        if event.button() != Qt.MouseButton.LeftButton or self._targets is None:
            return False
        self._fan_timer.stop()
        if (event.modifiers() & Qt.KeyboardModifier.ShiftModifier
                and item.sector is not None and not item.in_fan):
            # Shift: every unit of the sector that can go along, as one drag ("stack:<n>").
            stack_id = f"stack:{item.sector}"
            targets = self._targets(stack_id)
            if targets:
                self._drag = _Drag(item, stack_id, dict(targets), QPointF(event.scenePos()),
                                   QPoint(event.screenPos()), whole=True)
                event.accept()
                return True
        for pid in item.piece_ids:
            targets = self._targets(pid)
            if targets:
                self._drag = _Drag(item, pid, dict(targets), QPointF(event.scenePos()),
                                   QPoint(event.screenPos()))
                event.accept()
                return True
        self._drag = _Drag(item, item.piece_ids[0], {}, QPointF(event.scenePos()),
                           QPoint(event.screenPos()), refused=True)
        event.accept()
        return True

    def pickup_reason(self, piece_id: str) -> str:
        """Why the counter of ``piece_id`` cannot be picked up now."""
        reason = self._pickup_refusal(piece_id) if self._pickup_refusal else ""
        return reason or f"{piece_id} cannot be moved now"

    def counter_moved(self, item: CounterItem, event) -> None:
        d = self._drag
        if d is None or d.item is not item:
            return
        if d.refused:
            travelled = (QPoint(event.screenPos()) - d.press_screen).manhattanLength()
            if not d.told and travelled >= QApplication.startDragDistance():
                d.told = True
                item.setCursor(Qt.CursorShape.ForbiddenCursor)
                self.drop_refused.emit(d.piece_id, self.pickup_reason(d.piece_id))
            return
        if d.moving is None:
            travelled = (QPoint(event.screenPos()) - d.press_screen).manhattanLength()
            if travelled < QApplication.startDragDistance():
                return
            self._start_drag(d)
        d.moving.setPos(d.origin + (event.scenePos() - d.press_scene))
        n = self.sector_at(event.scenePos())
        if n != d.over:
            d.over = n
            self._show_drop_hint(n, d)

    def _start_drag(self, d: _Drag) -> None:
        if d.item.count > 1 and not d.whole:
            piece = self.board["pieces"][d.piece_id] if self.board else d.item.piece
            # A collapsed counter lends one unit to the drag and shows one fewer.
            single = CounterItem([piece], self._force_hues)
            self._cache(single)
            single.sector, single.home, single.in_fan = d.item.sector, d.item.home, d.item.in_fan
            single.setPos(d.item.pos())
            self.addItem(single)
            d.item.set_count(d.item.count - 1)
            d.moving, d.split = single, True
        else:
            d.moving = d.item
        d.origin = QPointF(d.moving.pos())
        d.z = d.moving.zValue()
        d.moving.setZValue(Z_DRAG)
        d.moving.setCursor(Qt.CursorShape.ClosedHandCursor)
        self.highlight(d.targets.keys(), "legal")

    def _show_drop_hint(self, n: int, d: _Drag) -> None:
        for kind in ("drop", "nodrop"):
            self.clear_highlight(kind)
        home = d.item.sector
        if n == -1 or n == home:
            return
        kind = "drop" if n in d.targets else "nodrop"
        item = HighlightItem(self.geometry[n], kind)
        self.addItem(item)
        self._highlights[kind] = {n: item}

    def counter_released(self, item: CounterItem, event) -> None:
        d = self._drag
        if d is None or d.item is not item:
            return
        self._drag = None
        if d.refused and d.told:                   # a refused drag: it has said why
            item.unsetCursor()
            return
        if d.moving is None:                       # pressed and let go: a click on its sector
            # A counter of the fan's card may be drawn over another sector: the click goes
            # to the sector under the pointer, as if the card were not there.
            n = self.sector_at(event.scenePos()) if item.in_fan else item.sector
            self._click_sector(n, from_fan=item.in_fan)
            return
        for kind in ("legal", "drop", "nodrop"):
            self.clear_highlight(kind)
        d.moving.unsetCursor()
        n = self.sector_at(event.scenePos())
        pid = d.piece_id
        if n in d.targets:
            d.moving.setZValue(Z_COUNTER + 0.9)
            self.piece_dropped.emit(pid, n)
        elif n == d.item.sector:
            self._put_back(d)                       # dropped where it was: nothing to say
        else:
            if n == -1:
                reason = "dropped outside the map"
            else:
                reason = (self._refusal(pid, n) if self._refusal else "") or \
                    f"it cannot go to sector {n:02d} now"
            self._put_back(d)
            self.drop_refused.emit(pid, reason)
        if self._pending_board is not None and self._drag is None:
            self.show_board(self._pending_board)

    def cancel_drag(self) -> None:
        """Put a counter that is being dragged back where it was (Escape)."""
        d = self._drag
        if d is None or d.moving is None:
            return
        self._drag = None
        for kind in ("legal", "drop", "nodrop"):
            self.clear_highlight(kind)
        d.moving.unsetCursor()
        self._put_back(d)

    def _put_back(self, d: _Drag) -> None:
        """The counter returns to its place at once (so the state of the map is never in
        doubt) and a faint ghost slides back from where it was dropped."""
        dropped_at = QPointF(d.moving.pos())
        if d.split:
            self.removeItem(d.moving)
            self._retired.append(d.moving)
            d.item.set_count(d.item.count + 1)
            back = d.item
        else:
            d.moving.setPos(d.origin)
            d.moving.setZValue(d.z)
            back = d.moving
        self._animate_ghost(d.moving.piece, dropped_at, QPointF(back.pos()))

    def _animate_ghost(self, piece: dict, start: QPointF, end: QPointF) -> None:
        if RETURN_MS <= 0 or (start - end).manhattanLength() < 2:
            return
        ghost = GhostItem(piece, 1, self._force_hues.get(str(piece.get("force"))))
        ghost.setPos(start)
        self.addItem(ghost)
        anim = QVariantAnimation(self)
        anim.setDuration(RETURN_MS)
        anim.setStartValue(start)
        anim.setEndValue(end)
        anim.setEasingCurve(QEasingCurve.Type.OutCubic)
        anim.valueChanged.connect(ghost.setPos)

        def done() -> None:
            if ghost.scene() is self:
                self.removeItem(ghost)
            self._ghosts = [(g, a) for g, a in self._ghosts if g is not ghost]
        anim.finished.connect(done)
        self._ghosts.append((ghost, anim))
        anim.start()

    @property
    def dragging(self) -> bool:
        return self._drag is not None and self._drag.moving is not None

    # ------------------------------------------------------------------ fanning out
    def open_fan(self, n: int) -> None:
        """Show every piece of sector ``n`` side by side on a card above the map."""
        if self.board is None or n not in self.geometry:
            return
        self.close_fan()
        sec = self.board.get("sectors", {}).get(n) or self.board.get("sectors", {}).get(str(n))
        if not sec:
            return
        pieces = [self.board["pieces"][pid] for pid in sec.get("pieces", [])
                  if pid in self.board["pieces"]]
        if not pieces:
            return
        count = len(pieces)
        cols = max(1, min(count, math.ceil(math.sqrt(count * 1.6))))
        rows = math.ceil(count / cols)
        step = UNIT_SIZE + 7
        title = f"{n:02d} {self.geometry[n].name}"
        width = max(cols * step + 8, text_width(title, 9, True) + 16)
        height = rows * step + 22
        anchor = self.geometry[n].centre
        rect = QRectF(anchor.x() - width / 2, anchor.y() - height / 2, width, height)
        bounds = self.sceneRect().adjusted(4, 4, -4, -4)
        rect.moveLeft(min(max(rect.left(), bounds.left()), bounds.right() - width))
        rect.moveTop(min(max(rect.top(), bounds.top()), bounds.bottom() - height))
        panel = FanPanel(rect, title)
        self.addItem(panel)
        self._fan_items = [panel]
        left = rect.center().x() - (cols * step) / 2 + step / 2
        for k, piece in enumerate(pieces):
            item = CounterItem([piece], self._force_hues)
            self._cache(item)
            item.sector, item.in_fan = n, True
            pos = QPointF(left + (k % cols) * step, rect.top() + 20 + step / 2 + (k // cols) * step)
            item.home = pos
            item.setPos(pos)
            item.setZValue(Z_FAN + 1)
            self.addItem(item)
            self._fan_items.append(item)
        for item in [*self._counters, *self._badges]:
            if item.sector == n:
                item.setVisible(False)
        self._fan_sector, self._fan_rect = n, rect

    def close_fan(self) -> None:
        if self._fan_sector == -1:
            return
        self._fan_timer.stop()
        self._retired.extend(self._fan_items)
        for item in self._fan_items:
            if item.scene() is self:
                self.removeItem(item)
        for item in [*self._counters, *self._badges]:
            if item.sector == self._fan_sector:
                item.setVisible(True)
        self._fan_items, self._fan_sector, self._fan_rect = [], -1, QRectF()

    @property
    def fanned_sector(self) -> int:
        return self._fan_sector

    def fan_items(self) -> list[CounterItem]:
        return [i for i in self._fan_items if isinstance(i, CounterItem)]

    def _fan_timer_fired(self) -> None:
        if not self.dragging and self._hovered in self._crowded and self._fan_sector == -1:
            self.open_fan(self._hovered)

    # ------------------------------------------------------------------ pointer
    def _track_pointer(self, pos: QPointF) -> None:
        if self._fan_sector != -1 and not self.dragging:
            inside = self._fan_rect.adjusted(-6, -6, 6, 6).contains(pos)
            if not inside and self.sector_at(pos) != self._fan_sector:
                self.close_fan()
        n = self._fan_sector if (self._fan_sector != -1 and self._fan_rect.contains(pos)) \
            else self.sector_at(pos)
        if n != self._hovered:
            self._hovered = n
            self.sector_hovered.emit(n)
            self._fan_timer.stop()
            if n in self._crowded and self._fan_sector != n and not self.dragging:
                self._fan_timer.start()

    def _pointer_left(self) -> None:
        self._fan_timer.stop()
        if not self.dragging:
            self.close_fan()
        if self._hovered != -1:
            self._hovered = -1
            self.sector_hovered.emit(-1)

    def _click_sector(self, n: int, from_fan: bool = False) -> None:
        if self._fan_sector != -1 and n != self._fan_sector:
            self.close_fan()            # a click through the card on another sector
        self.select_sector(n)
        if n != -1:
            self.sector_clicked.emit(n)
            if n in self._crowded and self._fan_sector != n and not from_fan:
                self.open_fan(n)

    # Qt event handlers -------------------------------------------------------------
    def mouseMoveEvent(self, event) -> None:
        self._track_pointer(event.scenePos())
        super().mouseMoveEvent(event)

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        # Nothing took the press (no counter): the view may pan; a press released on the
        # spot is a click on the sector.
        self._click_from = None
        if not event.isAccepted() and event.button() == Qt.MouseButton.LeftButton:
            self._click_from = QPoint(event.screenPos())

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        start, self._click_from = self._click_from, None
        on_the_spot = start is not None and event.button() == Qt.MouseButton.LeftButton and \
            (QPoint(event.screenPos()) - start).manhattanLength() < QApplication.startDragDistance()
        if on_the_spot:
            # The fan's card takes no click: one on it, between its counters, is a click on
            # the sector drawn under it.
            pos = event.scenePos()
            n = self.sector_at(pos)
            self._click_sector(n, from_fan=n == self._fan_sector)

    def keyPressEvent(self, event) -> None:
        if event.key() == Qt.Key.Key_Escape and self.dragging:
            self.cancel_drag()
            event.accept()
            return
        super().keyPressEvent(event)

    def event(self, event) -> bool:
        if event.type() == QEvent.Type.Leave:
            self._pointer_left()
        return super().event(event)
