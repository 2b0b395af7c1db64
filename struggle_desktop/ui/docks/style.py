"""Shared look of the dock panels: the font, side colours, number formats and small painters.

Every dock reads only the board and log dicts; what they share is how things look, kept here
so the tracks, the stack inspector and the log agree on colours and wording of numbers.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPalette, QPolygonF
from PySide6.QtWidgets import QLabel, QWidget

FONT_FAMILY = "DejaVu Sans"


def nobreak(rule: str) -> str:
    """A rule ID (or a text of them) with non-breaking hyphens (U+2011), so that a wrapping
    label moves it to the next line whole, never splitting it at "BFG-" | "OPT-2"."""
    return rule.replace("-", "\u2011")

#: Side colours. Imperial and Chaos also differ in shape wherever a swatch is drawn
#: (square against notched), so the colours are never the only clue.
SIDE_COLOURS = {
    "imp": QColor("#2d6cb5"),
    "chaos": QColor("#b5332e"),
    "alien": QColor("#3f8f4f"),
}
NEUTRAL = QColor("#7a7f87")
ACCENT = QColor("#e0a526")      # the current CI / VP / phase


def ui_font(point_size: float = 9.0, bold: bool = False) -> QFont:
    font = QFont(FONT_FAMILY)
    font.setPointSizeF(point_size)
    font.setBold(bold)
    return font


def side_colour(side: str | None) -> QColor:
    return SIDE_COLOURS.get(side or "", NEUTRAL)


def half_points(value: float) -> str:
    """63.5 -> "63.5", 64.0 -> "64": the CI moves in halves, whole values need no decimals."""
    value = float(value)
    return str(int(value)) if value.is_integer() else f"{value:.1f}"


def signed(n: float) -> str:
    text = half_points(abs(n))
    return f"+{text}" if n > 0 else (f"−{text}" if n < 0 else "±0")


def blend(a: QColor, b: QColor, t: float) -> QColor:
    t = max(0.0, min(1.0, t))
    return QColor.fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                           a.greenF() + (b.greenF() - a.greenF()) * t,
                           a.blueF() + (b.blueF() - a.blueF()) * t)


def dim_text(widget: QWidget) -> QColor:
    """Secondary text: the palette's text colour halfway to the background."""
    pal = widget.palette()
    return blend(pal.color(QPalette.ColorRole.WindowText), pal.color(QPalette.ColorRole.Window),
                 0.45)


def readable_on(background: QColor) -> QColor:
    """Black or white, whichever reads better on ``background``."""
    luminance = 0.299 * background.redF() + 0.587 * background.greenF() + 0.114 * background.blueF()
    return QColor("#111111") if luminance > 0.55 else QColor("#ffffff")


def caption_label(text: str, parent: QWidget | None = None) -> QLabel:
    """A small bold heading inside a panel."""
    label = QLabel(text, parent)
    label.setFont(ui_font(8.5, bold=True))
    return label


def paint_swatch(painter: QPainter, rect: QRectF, side: str | None, text: str = "") -> None:
    """A tiny counter: Imperial square, Chaos with a notched corner, aliens round."""
    colour = side_colour(side)
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(colour.darker(150))
    painter.setBrush(colour)
    if side == "chaos":
        cut = rect.height() * 0.32
        painter.drawPolygon(QPolygonF([rect.topLeft(), QPointF(rect.right() - cut, rect.top()),
                                       QPointF(rect.right(), rect.top() + cut), rect.bottomRight(),
                                       rect.bottomLeft()]))
    elif side == "alien":
        painter.drawEllipse(rect)
    else:
        painter.drawRoundedRect(rect, 2, 2)
    if text:
        font = ui_font(6.5, bold=True)
        painter.setFont(font)
        painter.setPen(readable_on(colour))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, text)
    painter.restore()


def d10_path(rect: QRectF) -> QPainterPath:
    """The outline of a ten-sided die seen from above: a kite."""
    path = QPainterPath()
    cx = rect.center().x()
    path.moveTo(cx, rect.top())
    path.lineTo(rect.right(), rect.top() + rect.height() * 0.42)
    path.lineTo(cx, rect.bottom())
    path.lineTo(rect.left(), rect.top() + rect.height() * 0.42)
    path.closeSubpath()
    return path


#: Pip positions of a d6 face on a 3x3 grid (column, row).
D6_PIPS = {1: [(1, 1)], 2: [(0, 0), (2, 2)], 3: [(0, 0), (1, 1), (2, 2)],
           4: [(0, 0), (2, 0), (0, 2), (2, 2)], 5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
           6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)]}

DIE_FILL = QColor("#f4efe4")
DIE_EDGE = QColor("#4a4438")
DIE_INK = QColor("#1d1a15")


def paint_d10(painter: QPainter, rect: QRectF, face: int, highlight: bool = False) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(DIE_EDGE)
    painter.setBrush(ACCENT.lighter(150) if highlight else DIE_FILL)
    painter.drawPath(d10_path(rect))
    # the lower facets, so the kite reads as a ten-sided die
    facet = QColor(DIE_EDGE)
    facet.setAlphaF(0.45)
    painter.setPen(facet)
    low = QPointF(rect.center().x(), rect.top() + rect.height() * 0.74)
    painter.drawLine(QPointF(rect.left(), rect.top() + rect.height() * 0.42), low)
    painter.drawLine(QPointF(rect.right(), rect.top() + rect.height() * 0.42), low)
    painter.drawLine(low, QPointF(rect.center().x(), rect.bottom()))
    painter.setPen(DIE_INK)
    painter.setFont(ui_font(max(6.0, rect.height() * 0.30), bold=True))
    text_rect = QRectF(rect.left(), rect.top() + rect.height() * 0.18, rect.width(),
                       rect.height() * 0.5)
    painter.drawText(text_rect, Qt.AlignmentFlag.AlignCenter, str(face))
    painter.restore()


def paint_d6(painter: QPainter, rect: QRectF, face: int) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(DIE_EDGE)
    painter.setBrush(DIE_FILL)
    painter.drawRoundedRect(rect, rect.width() * 0.18, rect.width() * 0.18)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(DIE_INK)
    step = rect.width() / 4
    radius = rect.width() * 0.09
    for col, row in D6_PIPS.get(face, []):
        painter.drawEllipse(QPointF(rect.left() + step * (col + 1), rect.top() + step * (row + 1)),
                            radius, radius)
    if face not in D6_PIPS:     # not a d6 face: say it in digits rather than draw nothing
        painter.setPen(DIE_INK)
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(face))
    painter.restore()


def paint_token(painter: QPainter, rect: QRectF, top: str, bottom: str) -> None:
    """A drawn lot ("3 of 70"): a round chip with the pick over the number of choices."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(DIE_EDGE)
    painter.setBrush(QColor("#e6dcc4"))
    painter.drawEllipse(rect)
    painter.setPen(DIE_INK)
    painter.setFont(ui_font(max(6.0, rect.height() * 0.26), bold=True))
    upper = QRectF(rect.left(), rect.top() + rect.height() * 0.12, rect.width(), rect.height() * 0.42)
    painter.drawText(upper, Qt.AlignmentFlag.AlignCenter, top)
    painter.setFont(ui_font(max(5.5, rect.height() * 0.16)))
    lower = QRectF(rect.left(), rect.top() + rect.height() * 0.52, rect.width(), rect.height() * 0.3)
    painter.drawText(lower, Qt.AlignmentFlag.AlignCenter, bottom)
    painter.restore()
