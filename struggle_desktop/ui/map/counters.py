"""Counters and markers drawn from board data: shapes, colours, glyphs and the stack rules.

Every counter is a ``CounterItem`` (a ``QGraphicsObject`` so its position can be animated) that
paints itself with vector primitives in map units, so it stays crisp at every zoom and in PDF.
Paths, gradients and fonts are built once and shared; ``paint`` only looks them up.

Imperial and Chaos pieces differ in colour *and* in shape and glyph, so colour-blind players
can tell them apart: Imperial counters are rounded squares with a light rim and a five-point
star; Chaos counters have clipped corners, a dark rim and an eight-arrow chaos star. System
units are planets (Imperial: smooth rim; Chaos: spiked rim). Force markers are pennants.
"""

from __future__ import annotations

import math
from functools import cache, lru_cache

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontMetricsF,
    QLinearGradient,
    QPainter,
    QPainterPath,
    QPen,
    QPolygonF,
    QStaticText,
    QTransform,
)
from PySide6.QtWidgets import QGraphicsObject, QStyleOptionGraphicsItem

FONT_FAMILY = "DejaVu Sans"

#: Size of one counter and of one stack slot, in map units (the map canvas is 1000 units wide,
#: so at the default 1600x1000 view one unit is about one pixel).
UNIT_SIZE = 26.0
PLANET_SIZE = 25.0
MARKER_SIZE = 22.0
SLOT_STEP = UNIT_SIZE + 1.5

# ------------------------------------------------------------------------------ colours
IMP_LIGHT, IMP_DARK, IMP_RIM = QColor("#4a86d8"), QColor("#1c3f7c"), QColor("#e3eeff")
CHAOS_LIGHT, CHAOS_DARK, CHAOS_RIM = QColor("#d2423a"), QColor("#6e1512"), QColor("#1a0504")
TEXT_LIGHT, TEXT_DARK = QColor("#ffffff"), QColor("#1b1b22")
GOLD = QColor("#f2c84b")
#: The smallest text on the map, in map units (badges, tags, marker names): at the first view
#: on a laptop screen (a scale of 1, see view.LEGIBLE_SCALE) it is 9 pixels tall.
SMALL_TEXT = 9

#: Each Independent Empire has its own hue (shown on its sectors, units and marker).
IE_COLOURS = {1: QColor("#ff9f1c"), 2: QColor("#2ec4b6"), 3: QColor("#b388ff"),
              4: QColor("#ff5d8f"), 5: QColor("#c5e063"), 6: QColor("#d4a373")}
FORCE_COLOURS = {"usurper": QColor("#ffd166"), "invader": QColor("#e8e8f0"),
                 "mutant": QColor("#70e000")}
ALIEN_COLOUR = QColor("#8e44c9")


def force_colour(kind: str, ie: int | None = None) -> QColor:
    """The hue of a Chaos force: its Independent Empire's colour or its kind's colour."""
    if kind == "ie" and ie in IE_COLOURS:
        return IE_COLOURS[ie]
    return FORCE_COLOURS.get(kind, QColor("#bbbbbb"))


def ie_number(label: str) -> int | None:
    """The number in a force label such as "IE 5" (the board names IE forces this way)."""
    digits = "".join(ch for ch in label if ch.isdigit())
    return int(digits) if digits else None


# ------------------------------------------------------------------------------ fonts
@cache
def font(pixel_size: int, bold: bool = False) -> QFont:
    """A DejaVu Sans font sized in map units. Pixel sizes (not points) keep text in proportion
    with the map on every device, PDF included; no hinting, so it scales evenly when zoomed."""
    f = QFont(FONT_FAMILY)
    f.setPixelSize(pixel_size)
    f.setBold(bold)
    f.setHintingPreference(QFont.HintingPreference.PreferNoHinting)
    f.setStyleStrategy(QFont.StyleStrategy.PreferAntialias)
    return f


@cache
def metrics(pixel_size: int, bold: bool = False) -> QFontMetricsF:
    return QFontMetricsF(font(pixel_size, bold))


@lru_cache(maxsize=8192)
def static_text(text: str, pixel_size: int, bold: bool = False) -> tuple[QStaticText, float, float]:
    """A prepared text with its width and height. Drawing prepared text is about five times
    faster than laying it out on every paint, which keeps a full repaint within budget."""
    prepared = QStaticText(text)
    prepared.setTextFormat(Qt.TextFormat.PlainText)
    prepared.setPerformanceHint(QStaticText.PerformanceHint.AggressiveCaching)
    prepared.prepare(QTransform(), font(pixel_size, bold))
    size = prepared.size()
    return prepared, size.width(), size.height()


def text_width(text: str, pixel_size: int, bold: bool = False) -> float:
    return static_text(text, pixel_size, bold)[1]


def draw_text(painter: QPainter, cx: float, cy: float, text: str, pixel_size: int, bold: bool,
              colour: QColor, max_width: float = 0.0) -> None:
    """Text centred on (cx, cy), squeezed horizontally when wider than ``max_width`` (DejaVu
    Sans has no condensed face; a slight squeeze reads better than a smaller size)."""
    if not text:
        return
    prepared, width, height = static_text(text, pixel_size, bold)
    painter.setFont(font(pixel_size, bold))
    painter.setPen(colour)
    if max_width and width > max_width:
        painter.save()
        painter.translate(cx, cy)
        painter.scale(max_width / width, 1.0)
        painter.drawStaticText(QPointF(-width / 2, -height / 2), prepared)
        painter.restore()
    else:
        painter.drawStaticText(QPointF(cx - width / 2, cy - height / 2), prepared)


def draw_fitted_text(painter: QPainter, rect: QRectF, text: str, pixel_size: int, bold: bool,
                     colour: QColor) -> None:
    """Text centred in ``rect`` and squeezed to its width when needed."""
    centre = rect.center()
    draw_text(painter, centre.x(), centre.y(), text, pixel_size, bold, colour, rect.width())


# ------------------------------------------------------------------------------ shapes
def _polygon_path(points) -> QPainterPath:
    path = QPainterPath()
    path.addPolygon(QPolygonF([QPointF(x, y) for x, y in points]))
    path.closeSubpath()
    return path


def star_path(cx: float, cy: float, outer: float, inner: float, points: int) -> QPainterPath:
    pts = []
    for k in range(points * 2):
        r = outer if k % 2 == 0 else inner
        a = -math.pi / 2 + k * math.pi / points
        pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return _polygon_path(pts)


def chaos_star_path(cx: float, cy: float, r: float) -> QPainterPath:
    """The eight-arrow chaos star: eight spokes with arrowheads round a small disc."""
    path = QPainterPath()
    path.setFillRule(Qt.FillRule.WindingFill)
    path.addEllipse(QPointF(cx, cy), r * 0.32, r * 0.32)
    for k in range(8):
        a = k * math.pi / 4
        ca, sa = math.cos(a), math.sin(a)
        px, py = -sa, ca   # perpendicular
        w, head, tip = r * 0.09, r * 0.27, r
        # (distance along the spoke, distance across it) of the arrow's outline
        outline = [(0, -w), (tip - head, -w), (tip - head, -head * 0.8), (tip, 0),
                   (tip - head, head * 0.8), (tip - head, w), (0, w)]
        path.addPath(_polygon_path([(cx + ca * along + px * side, cy + sa * along + py * side)
                                    for along, side in outline]))
    return path


def clipped_square(half: float, cut: float) -> QPainterPath:
    h, c = half, cut
    return _polygon_path([(-h + c, -h), (h - c, -h), (h, -h + c), (h, h - c), (h - c, h),
                          (-h + c, h), (-h, h - c), (-h, -h + c)])


def rounded_square(half: float, radius: float) -> QPainterPath:
    path = QPainterPath()
    path.addRoundedRect(QRectF(-half, -half, 2 * half, 2 * half), radius, radius)
    return path


def pennant(half: float) -> QPainterPath:
    """A banner with a pointed foot: the force markers."""
    h = half
    return _polygon_path([(-h, -h), (h, -h), (h, h * 0.45), (0, h), (-h, h * 0.45)])


def spiked_circle(r: float, spikes: int = 12) -> QPainterPath:
    pts = []
    for k in range(spikes * 2):
        a = k * math.pi / spikes
        rr = r if k % 2 == 0 else r * 0.86
        pts.append((rr * math.cos(a), rr * math.sin(a)))
    return _polygon_path(pts)


def hexagon(r: float) -> QPainterPath:
    return _polygon_path([(r * math.cos(math.pi / 6 + k * math.pi / 3),
                           r * math.sin(math.pi / 6 + k * math.pi / 3)) for k in range(6)])


class _Art:
    """Shapes, brushes and pens shared by every counter (built on first use, after the
    QApplication exists)."""

    def __init__(self) -> None:
        h = UNIT_SIZE / 2
        self.imp_body = rounded_square(h, 3.2)
        self.chaos_body = clipped_square(h, 5.5)
        self.body_rect = QRectF(-h, -h, 2 * h, 2 * h)
        # The side's symbol, large and faint behind the text: a five-point star for the
        # Empire, the eight-arrow star for Chaos.
        self.imp_glyph = star_path(0, 0.5, h - 1.0, (h - 1.0) * 0.42, 5)
        self.chaos_glyph = chaos_star_path(0, 0, h - 1.2)
        # Opaque colours throughout (blended in advance): on the raster engine a translucent
        # fill of a detailed shape costs ten to twenty times an opaque one.
        self.imp_glyph_colour = QColor("#5180c4")
        self.chaos_glyph_colour = QColor("#b8433b")
        band = QPainterPath()
        band.addRect(QRectF(-h, h - 4.2, 2 * h, 4.2))
        self.chaos_band = self.chaos_body.intersected(band)
        self.imp_band = self.imp_body.intersected(band)
        self.imp_fill = self._vertical(IMP_LIGHT, IMP_DARK, h)
        self.chaos_fill = self._vertical(CHAOS_LIGHT, CHAOS_DARK, h)
        self.imp_pen = QPen(IMP_RIM, 1.3)
        self.imp_pen.setJoinStyle(Qt.PenJoinStyle.RoundJoin)
        self.chaos_pen = QPen(CHAOS_RIM, 1.5)
        self.chaos_pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
        self.chaos_inner_pen = QPen(QColor("#d9897a"), 0.6)
        self.chaos_inner = clipped_square(h - 1.4, 4.9)

        r = PLANET_SIZE / 2
        self.planet = QPainterPath()
        self.planet.addEllipse(QPointF(0, 0), r, r)
        self.planet_spikes = spiked_circle(r + 2.4, 14)
        self.imp_planet = self._sphere(QColor("#86b6f2"), QColor("#2556a3"), QColor("#0c1d3c"), r)
        self.chaos_planet = self._sphere(QColor("#f09070"), QColor("#a3281c"), QColor("#3a0806"), r)
        self.planet_rect = QRectF(-r, -r, 2 * r, 2 * r)

        m = MARKER_SIZE / 2
        self.pennant = pennant(UNIT_SIZE / 2)
        self.diamond = _polygon_path([(0, -m - 2), (m + 2, 0), (0, m + 2), (-m - 2, 0)])
        self.hexagon = hexagon(m)
        self.ring = QPainterPath()
        self.ring.addEllipse(QPointF(0, 0), m, m)
        inner_ring = QPainterPath()
        inner_ring.addEllipse(QPointF(0, 0), m * 0.58, m * 0.58)
        self.ring = self.ring.subtracted(inner_ring)
        self.book = rounded_square(m * 0.92, 2.0)
        self.flag = _polygon_path([(-m, -m), (m, -m * 0.55), (-m * 0.35, -m * 0.05),
                                   (-m * 0.35, m), (-m, m)])
        self.marker_rect = QRectF(-m, -m, 2 * m, 2 * m)
        self.dark_pen = QPen(QColor(12, 12, 18), 1.2)
        self.light_pen = QPen(QColor(225, 225, 235), 1.0)
        self.edge = QColor(6, 6, 10)      # the counter's thickness, seen below and right
        self.badge_pen = QPen(QColor(20, 14, 0), 0.8)

    @staticmethod
    def _vertical(top: QColor, bottom: QColor, h: float) -> QBrush:
        g = QLinearGradient(0, -h, 0, h)
        g.setColorAt(0, top)
        g.setColorAt(1, bottom)
        return QBrush(g)

    @staticmethod
    def _sphere(light: QColor, mid: QColor, dark: QColor, r: float) -> QBrush:
        """Light from above. A vertical gradient: each
        scanline is one colour, which the raster engine fills fast; a radial or diagonal
        one looks a little rounder but paints some fifteen times slower."""
        g = QLinearGradient(QPointF(0, -r), QPointF(0, r))
        g.setColorAt(0, light)
        g.setColorAt(0.5, mid)
        g.setColorAt(1, dark)
        return QBrush(g)


_art: _Art | None = None


def art() -> _Art:
    global _art
    if _art is None:
        _art = _Art()
    return _art


@lru_cache(maxsize=64)
def _tinted_vertical(colour_name: str) -> QBrush:
    c = QColor(colour_name)
    return _Art._vertical(c.lighter(125), c.darker(150), UNIT_SIZE / 2)


# ------------------------------------------------------------------------------ stacks
def stack_key(piece: dict) -> tuple | str:
    """Pieces with the same key are drawn as one counter with a count badge: plain mobile
    units of one type, side and force. Leaders, systems and markers are always shown alone."""
    if piece.get("kind") == "unit" and not piece.get("leader"):
        return ("unit", piece.get("type"), piece.get("side"), piece.get("force"),
                piece.get("values"))
    return str(piece.get("id"))


def group_pieces(pieces: list[dict]) -> list[list[dict]]:
    """Identical pieces gathered into groups, in the order their first member is drawn."""
    groups: dict[object, list[dict]] = {}
    for p in pieces:
        groups.setdefault(stack_key(p), []).append(p)
    return list(groups.values())


def counter_extent(piece: dict) -> float:
    """Half the size of the square a piece's counter occupies."""
    kind = piece.get("kind")
    if kind == "unit" or kind == "force":
        return UNIT_SIZE / 2
    if kind == "system":
        return PLANET_SIZE / 2 + 2.4
    return MARKER_SIZE / 2 + 2


# ------------------------------------------------------------------------------ the item
class CounterItem(QGraphicsObject):
    """One counter on the map. It shows ``pieces[0]`` and stands for every piece in
    ``pieces`` (identical units collapsed into one counter show a "×n" badge)."""

    def __init__(self, pieces: list[dict], force_hues: dict[str, QColor] | None = None,
                 parent=None):
        super().__init__(parent)
        self.pieces = list(pieces)
        self.piece = self.pieces[0]
        self.kind = self.piece.get("kind", "unit")
        self.side = self.piece.get("side", "imp")
        self.count = len(self.pieces)
        self.sector = self.piece.get("sector")
        self.home = QPointF(0, 0)          # where the stack layout put it
        self.in_fan = False
        self.buried = False                # under another counter of a pile: no "×n" badge
        hue = (force_hues or {}).get(self.piece.get("force") or "")
        self.force_hue = hue
        extent = counter_extent(self.piece) + 3.0   # room for badges that stick out
        self._bounds = QRectF(-extent, -extent, 2 * extent, 2 * extent)
        if self.count > 1:      # the "×n" badge may grow at a small zoom (_count_badge)
            grow = 9 * COUNT_MAX_GROWTH
            self._bounds = self._bounds.adjusted(0, 0, grow * 0.5, grow * 0.6)
        self.setAcceptedMouseButtons(Qt.MouseButton.LeftButton)
        self.setAcceptHoverEvents(False)
        self._update_tooltip()

    @property
    def piece_ids(self) -> list[str]:
        return [str(p["id"]) for p in self.pieces]

    def set_count(self, count: int) -> None:
        """Shown count (a collapsed counter lends one unit to a drag and shows one fewer)."""
        self.count = count
        self.update()

    def _update_tooltip(self) -> None:
        tip = str(self.piece.get("tooltip") or self.piece.get("label") or "")
        if len(self.pieces) > 1:
            ids = ", ".join(self.piece_ids)
            tip = f"{len(self.pieces)} identical counters: {ids}\n{tip}"
        self.setToolTip(tip)

    # QGraphicsItem -------------------------------------------------------------------
    def boundingRect(self) -> QRectF:
        return self._bounds

    def shape(self) -> QPainterPath:
        path = QPainterPath()
        r = counter_extent(self.piece)
        path.addRect(QRectF(-r, -r, 2 * r, 2 * r))
        return path

    # The scene decides what a press, a move and a release mean (pick up, drag, drop, click):
    # it knows the drag rules and the sectors.
    def mousePressEvent(self, event) -> None:
        scene = self.scene()
        if scene is None or not scene.counter_pressed(self, event):
            event.ignore()          # not draggable: the press falls through to the map

    def mouseMoveEvent(self, event) -> None:
        if self.scene() is not None:
            self.scene().counter_moved(self, event)

    def mouseReleaseEvent(self, event) -> None:
        if self.scene() is not None:
            self.scene().counter_released(self, event)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget=None) -> None:
        detail = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
        # A counter under others of a pile would show only scraps of its badge: the pile's
        # own badge counts it.
        count = 1 if self.buried else self.count
        paint_piece(painter, self.piece, count, self.force_hue, detail >= 0.3)


def paint_piece(painter: QPainter, piece: dict, count: int = 1, force_hue: QColor | None = None,
                with_text: bool = True) -> None:
    """Draw one piece's counter centred on (0, 0); also used by the legend and the fan."""
    kind = piece.get("kind", "unit")
    if kind == "unit":
        _paint_unit(painter, piece, force_hue, with_text)
    elif kind == "system":
        _paint_system(painter, piece, with_text)
    elif kind == "force":
        _paint_force(painter, piece, with_text)
    else:
        _paint_marker(painter, piece, with_text)
    if count > 1 and with_text:
        _count_badge(painter, count)


def _drop_shadow(painter: QPainter, path: QPainterPath) -> None:
    """A dark copy just below and right: the edge of a cardboard counter. Opaque on purpose
    (a translucent shadow costs more than the rest of the counter)."""
    painter.translate(1.2, 1.5)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(art().edge)
    painter.drawPath(path)
    painter.translate(-1.2, -1.5)


def _paint_unit(painter: QPainter, piece: dict, force_hue: QColor | None, with_text: bool) -> None:
    a = art()
    imperial = piece.get("side") == "imp"
    body = a.imp_body if imperial else a.chaos_body
    _drop_shadow(painter, body)
    painter.setPen(a.imp_pen if imperial else a.chaos_pen)
    painter.setBrush(a.imp_fill if imperial else a.chaos_fill)
    painter.drawPath(body)
    painter.setPen(Qt.PenStyle.NoPen)
    if not imperial:
        if force_hue is not None:          # which Chaos force the unit belongs to
            painter.setBrush(force_hue)
            painter.drawPath(a.chaos_band)
        painter.setPen(a.chaos_inner_pen)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawPath(a.chaos_inner)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(a.chaos_glyph_colour)
        painter.drawPath(a.chaos_glyph)
    else:
        painter.setBrush(a.imp_glyph_colour)
        painter.drawPath(a.imp_glyph)
    if not with_text:
        return
    h = UNIT_SIZE / 2
    draw_fitted_text(painter, QRectF(-h + 3, -h + 1.2, 2 * h - 4, 13), str(piece.get("label", "")),
                     11, True, TEXT_LIGHT)
    # The factors are what a player reads most: as large as the counter allows.
    draw_fitted_text(painter, QRectF(-h + 1.2, 0.6, 2 * h - 2.4, 10.5), str(piece.get("values", "")),
                     10, True, QColor("#f3f3f3") if imperial else QColor("#ffe9e0"))
    if piece.get("leader"):
        _leader_badge(painter, QPointF(h - 1.5, -h + 1.5), str(piece["leader"]))


def _paint_system(painter: QPainter, piece: dict, with_text: bool) -> None:
    a = art()
    imperial = piece.get("side") == "imp"
    ie = piece.get("ie")
    if not imperial:
        # The spiked rim marks a Chaos-held system for players who cannot tell red from blue;
        # an Independent Empire's rim takes its hue.
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(IE_COLOURS.get(ie, QColor("#2a0705")))
        painter.drawPath(a.planet_spikes)
    else:
        _drop_shadow(painter, a.planet)
    painter.setBrush(a.imp_planet if imperial else a.chaos_planet)
    painter.setPen(a.imp_pen if imperial else QPen(QColor("#2a0705"), 1.0))
    painter.drawPath(a.planet)
    if not with_text:
        return
    r = PLANET_SIZE / 2
    draw_fitted_text(painter, QRectF(-r + 1.5, -r + 4.0, 2 * r - 3, 12), str(piece.get("values", "")),
                     11, True, TEXT_LIGHT)
    rv = piece.get("rv")
    if rv is not None:
        # Resource value: a small gold tab at the foot of the planet.
        tab = QRectF(-5.8, r - 10.6, 11.6, 10.4)
        painter.setPen(a.badge_pen)
        painter.setBrush(GOLD)
        painter.drawRoundedRect(tab, 2.0, 2.0)
        draw_fitted_text(painter, tab.adjusted(0, 0.4, 0, 0), str(rv), SMALL_TEXT, True, TEXT_DARK)
    if ie:
        _corner_tag(painter, QPointF(r - 1, -r + 1), str(ie), IE_COLOURS.get(ie, GOLD))


def _paint_force(painter: QPainter, piece: dict, with_text: bool) -> None:
    a = art()
    kind = str(piece.get("type", ""))
    label = str(piece.get("label", ""))
    hue = force_colour(kind, ie_number(label))
    _drop_shadow(painter, a.pennant)
    painter.setPen(QPen(QColor("#14080a"), 1.4))
    painter.setBrush(_tinted_vertical(hue.name()))
    painter.drawPath(a.pennant)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(CHAOS_DARK)
    painter.drawRect(QRectF(-UNIT_SIZE / 2 + 0.7, -UNIT_SIZE / 2 + 0.7, UNIT_SIZE - 1.4, 5.0))
    if not with_text:
        return
    h = UNIT_SIZE / 2
    short = {"usurper": "USURP", "invader": "INVAD", "mutant": "MUTNT"}.get(kind, label)
    draw_fitted_text(painter, QRectF(-h + 1.5, -h + 5.2, 2 * h - 3, 10), short, 9, True,
                     TEXT_DARK)
    values = str(piece.get("values", ""))
    if values:
        draw_fitted_text(painter, QRectF(-h + 3, -0.5, 2 * h - 6, 10),
                         values.replace("L", "Ldr "), SMALL_TEXT, True, TEXT_DARK)


def _paint_marker(painter: QPainter, piece: dict, with_text: bool) -> None:
    a = art()
    kind = piece.get("kind")
    if kind == "marker":        # a marker waiting in the set-up tray: its ID says which
        kind = str(piece.get("id", "")).split(":")[0]
    if kind == "leader":
        _paint_leader(painter, piece, with_text)
        return
    label = str(piece.get("label", ""))
    m = MARKER_SIZE / 2
    if kind == "alien":
        shape, fill, pen, text_colour = a.diamond, ALIEN_COLOUR, a.light_pen, TEXT_LIGHT
        label = label.strip().split(" ")[0][:7]
    elif kind == "nexus":
        shape, fill, pen, text_colour = a.hexagon, QColor("#8fe3ff"), a.dark_pen, TEXT_DARK
        label = "NEX"
    elif kind == "stargate":
        shape, fill, pen, text_colour = a.ring, QColor("#5fd1c4"), a.dark_pen, TEXT_LIGHT
        label = ""
    elif kind == "institute":
        shape, fill, pen, text_colour = a.book, QColor("#eadbb0"), a.dark_pen, TEXT_DARK
        label = "INST"
    else:   # expedition site
        shape, fill, pen, text_colour = a.flag, QColor("#6ad17a"), a.dark_pen, TEXT_DARK
        label = "EXP"
    _drop_shadow(painter, shape)
    painter.setPen(pen)
    painter.setBrush(fill)
    painter.drawPath(shape)
    if kind == "stargate":
        painter.setPen(QPen(QColor("#e8fffb"), 0.8, Qt.PenStyle.DotLine))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawEllipse(QPointF(0, 0), m * 0.78, m * 0.78)
    if with_text and label:
        rect = QRectF(-m, -5, 2 * m, 10) if kind != "expedition" else QRectF(-m + 1, -m - 1, 2 * m - 4, 10)
        draw_fitted_text(painter, rect, label, SMALL_TEXT, True, text_colour)


def _paint_leader(painter: QPainter, piece: dict, with_text: bool) -> None:
    """A leader waiting in the set-up tray: the gold disc a leader wears on a unit, large,
    with its value (never the look of a marker: "Nexus x3" once looked like leader 3)."""
    r = MARKER_SIZE / 2 + 1
    painter.setPen(art().badge_pen)
    painter.setBrush(GOLD)
    painter.drawEllipse(QPointF(0, 0), r, r)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.drawEllipse(QPointF(0, 0), r - 2.5, r - 2.5)
    if with_text:
        draw_fitted_text(painter, QRectF(-r + 3, -8, 2 * r - 6, 16), str(piece.get("label", "")),
                         15, True, TEXT_DARK)


def _leader_badge(painter: QPainter, centre: QPointF, text: str) -> None:
    painter.setPen(art().badge_pen)
    painter.setBrush(GOLD)
    painter.drawEllipse(centre, 6.0, 6.0)
    draw_fitted_text(painter, QRectF(centre.x() - 5.5, centre.y() - 5.5, 11, 11), text, SMALL_TEXT,
                     True,
                     TEXT_DARK)


def _corner_tag(painter: QPainter, centre: QPointF, text: str, colour: QColor) -> None:
    painter.setPen(QPen(QColor(10, 10, 16), 0.8))
    painter.setBrush(colour)
    painter.drawEllipse(centre, 5.6, 5.6)
    draw_fitted_text(painter, QRectF(centre.x() - 5, centre.y() - 5, 10, 10), text, SMALL_TEXT,
                     True,
                     TEXT_DARK)


#: The "×n" badge is never drawn smaller than this on screen (pixels of text) unless that
#: would make it more than COUNT_MAX_GROWTH times its size on the map.
COUNT_MIN_PX, COUNT_MAX_GROWTH = 9.0, 1.8


def _count_badge(painter: QPainter, count: int) -> None:
    text = f"×{count}"
    w = text_width(text, SMALL_TEXT, True) + 4.5
    h = UNIT_SIZE / 2
    scale = QStyleOptionGraphicsItem.levelOfDetailFromTransform(painter.worldTransform())
    growth = max(1.0, min(COUNT_MAX_GROWTH, COUNT_MIN_PX / (SMALL_TEXT * scale))) if scale > 0 else 1.0
    painter.save()
    # Grown about the counter's bottom-right corner, so that it covers no more of the face.
    painter.translate(h + 1, h + 1)
    painter.scale(growth, growth)
    painter.translate(-h - 1, -h - 1)
    rect = QRectF(h - w + 3.5, h - 6.5, w, 10.5)
    painter.setPen(QPen(QColor("#ececf2"), 0.8))
    painter.setBrush(QColor(12, 12, 20))
    painter.drawRoundedRect(rect, 4.5, 4.5)
    draw_fitted_text(painter, rect, text, SMALL_TEXT, True, TEXT_LIGHT)
    painter.restore()
