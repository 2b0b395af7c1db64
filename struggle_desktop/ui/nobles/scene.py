"""The Noble Houses map as a QGraphicsScene: the hex grid with its worlds and terrain, the houses'
stacks, and the jumpships the player drags.

The scene draws a ``board`` (games/nobles/presentation.py) and reports gestures; it never changes
the game. Hex geometry comes from ``engine.hexgrid.HexGrid`` (pointy-topped, odd-r offset rows,
NH-MAP-2): centres, corners and the hex under the pointer.

What a hex shows (every word 14 map units tall: readable, at least 9 screen pixels, when the
whole map is fitted to a window on a 1366x768 screen):

* a world: its name, type and income, the Govern bonus as a gold "+1" in the top corner, the
  owner's colour as the fill and a thick border, a crown on a homeworld (a double rim on a
  chosen one);
* terrain: a nebula (violet cloud), a black hole (dark disc with a glowing ring), a supernova
  (starburst), an Imperial jump station (a station glyph), an empty star system (a star), a
  stargate (a ring with its pair's number, and a dashed line to the other end); empty space is
  plain;
* the units that move on their own (jumpships, Self Transport armies) as a row of tokens: a
  jumpship's hull with its number, a Self Transport army's box with its code, the cargo count
  in a white box inside the token; what has no room in the row is counted on a "+N" mark;
* per house a stack line on the house colour: the house letter, armies counted by unit code,
  Nobles (♛) and nukes (☢), or where the hex has no room for the codes, the count of armies
  (the codes are in the line's tooltip and the Hex panel).

The columns are numbered above the map and the rows left of it: hex (column,row).

Colour is never the only clue: stacks and tokens carry the house letter.

Gestures, as signals the window turns into actions:

* ``ship_dropped(ship, "x,y")`` — a token dragged to a hex (``""`` off the map);
* ``ship_clicked(ship)`` and ``hex_clicked("x,y")``;
* ``pickup_refused(ship)`` — a token that may not move now was dragged (it stays where it
  is and the window says why).

While a token is held, ``drop_targets(ship)`` (set by the window: the legal ``jump`` actions)
says which hexes to light.
"""

from __future__ import annotations

import math
from typing import Callable

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen,
                           QPolygonF, QRadialGradient)
from PySide6.QtWidgets import (QApplication, QGraphicsObject, QGraphicsPolygonItem,
                               QGraphicsScene)

from struggle_desktop.engine.hexgrid import HexGrid

FONT = "DejaVu Sans"
HOUSE_COLOURS = {"A": QColor("#3b82f6"), "B": QColor("#ef4444"), "C": QColor("#22c55e"),
                 "D": QColor("#f59e0b")}
SPACE = QColor("#131a2b")
HEX_FILL = QColor("#1c2438")
HEX_EDGE = QColor("#34405c")
WORLD_FILL = QColor("#2c3650")
TEXT = QColor("#eef2f8")
MUTED = QColor("#9aa6bd")
GOLD = QColor("#f2c84b")
ACCENT = QColor("#ffffff")        # held ship, lit destinations (no house is white)
GATE = QColor("#38d6e8")
FIGHT = QColor("#ff5a4f")
WATCH = QColor("#ffd24a")        # what a program house just did (its jump, its fight)
INK = QColor("#10131a")

#: The height of every word on the board, in map units, and every label is laid out for it.
#: The whole 10x10 map fitted to a laptop screen's window (1366x768) is drawn at about 0.66
#: screen pixels a unit (0.62 with the timeline bar open): 9.2 pixels, a bare margin over
#: the 9 under which text is hard to read. Larger words would not fit a hex's width there
#: (a hex is 65 to 70 screen pixels wide), so the first view zooms in instead.
TEXT_PX = 14
#: The words' height on screen at the first view: where the whole map would draw them
#: smaller, the first view shows the map at this size about the player's homeworld, and Fit
#: to Window (Ctrl+0) shows it whole.
FIRST_VIEW_PX = 10.5
MARGIN = 8.0           # round the map, right and bottom
LEFT = 24.0            # the left margin: the row numbers
HEADER = 48.0          # the strip above the map: turn, step, and the houses' legend
TOP = HEADER + 16.0    # ... and the column numbers
TOKEN_H = 18.0
TOKEN_NUMBER_W = 20.0  # a token's hull, round its number (at least)
BADGE_W = 15.0         # its cargo count, in a white box at the stern end
TOKEN_GAP = 2.0
STATIC = "static"      # item data of the map's own drawing, kept between boards
#: Where things sit in a hex, as fractions of its size below (+) or above (-) the centre.
#: A pointy-topped hex is its full width only between -0.5 and +0.5: the words sit there, the
#: Govern mark in the top corner.
GOVERN_Y, TITLE_Y, SUBTITLE_Y, ICON_Y, TOKENS_Y = -0.8, -0.55, -0.28, -0.28, -0.11
#: The widest a label may be in a hex, as a fraction of its size (the hex is 1.73 wide).
LABEL_W = 1.62


def font(px: float = TEXT_PX, bold: bool = False) -> QFont:
    f = QFont(FONT)
    f.setPixelSize(round(px))
    f.setBold(bold)
    return f


def house_colour(letter: str | None) -> QColor:
    return HOUSE_COLOURS.get(letter or "", MUTED)


def tint(colour: QColor, base: QColor, amount: float) -> QColor:
    """``amount`` of ``colour`` over ``base``."""
    return QColor.fromRgbF(base.redF() + (colour.redF() - base.redF()) * amount,
                           base.greenF() + (colour.greenF() - base.greenF()) * amount,
                           base.blueF() + (colour.blueF() - base.blueF()) * amount)


def key_of(h) -> str:
    return f"{h[0]},{h[1]}"


# =================================================================================== items
class HexItem(QGraphicsPolygonItem):
    """One hex of the board (the scene finds hexes by position; this carries the tooltip)."""

    def __init__(self, polygon: QPolygonF, key: str):
        super().__init__(polygon)
        self.key = key


def dragged(event) -> bool:
    """Whether the pointer has gone far enough since the press for a drag, not a click (Qt's
    own distance, on the screen: a click's jitter at a small zoom stays a click)."""
    left = Qt.MouseButton.LeftButton
    return ((event.screenPos() - event.buttonDownScreenPos(left)).manhattanLength()
            >= QApplication.startDragDistance())


class ShipToken(QGraphicsObject):
    """A jumpship or a Self Transport army: the house colour, a hull shape, its number and a
    badge with its cargo count. Drags are reported to the scene; the token always goes back
    to where the board puts it."""

    def __init__(self, scene: "NoblesScene", unit: dict):
        super().__init__()
        self.board_scene = scene
        self.unit = unit
        self.unit_id = unit["id"]
        self.highlight: QColor | None = None
        self.selected = False
        self.setToolTip(unit["tooltip"])
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._press: QPointF | None = None
        self._home = QPointF()
        self._refused = False             # this press dragged a token that may not move
        self.setZValue(20)

    @property
    def number(self) -> str:
        return self.label_of(self.unit)

    @property
    def cargo(self) -> int:
        return len(self.unit.get("cargo") or [])

    @staticmethod
    def label_of(unit: dict) -> str:
        """A jumpship shows its number ("JS3" -> "3": its pointed hull says jumpship); a Self
        Transport army its code and number ("CR1")."""
        code = unit["id"].split("-", 1)[-1]
        if unit["category"] == "jumpship":
            return code.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ") or code
        return code

    @staticmethod
    def number_width(unit: dict) -> float:
        text = QFontMetricsF(font(bold=True)).horizontalAdvance(ShipToken.label_of(unit))
        return max(TOKEN_NUMBER_W, math.ceil(text) + 10)

    @staticmethod
    def width_for(unit: dict) -> float:
        return ShipToken.number_width(unit) + (BADGE_W if unit.get("cargo") else 0.0)

    @property
    def width(self) -> float:
        return self.width_for(self.unit)

    def badge_rect(self) -> QRectF | None:
        """Where the cargo count is drawn (item coordinates): inside the token's own box,
        so it stays in the token's hex and off the hex's words."""
        if not self.cargo:
            return None
        left = self.number_width(self.unit)
        return QRectF(left - 2, 2, BADGE_W - 1, TOKEN_H - 4)

    def boundingRect(self) -> QRectF:
        return QRectF(-2, -2, self.width + 4, TOKEN_H + 4)

    def hull(self) -> QPainterPath:
        path = QPainterPath()
        w, h = self.width, TOKEN_H
        if self.unit["category"] == "jumpship":       # a hull with a pointed bow
            path.addPolygon(QPolygonF([QPointF(0, 1), QPointF(w - 6, 0), QPointF(w, h / 2),
                                       QPointF(w - 6, h), QPointF(0, h - 1)]))
        else:                                          # a Self Transport army: a rounded box
            path.addRoundedRect(QRectF(0, 0, w, h), 5, 5)
        path.closeSubpath()
        return path

    def texts(self) -> list[tuple[str, QFont]]:
        """The words the token draws, with their fonts (its number, its cargo count)."""
        out = [(self.number, font(bold=True))]
        if self.cargo:
            out.append((str(self.cargo), font(bold=True)))
        return out

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = house_colour(self.unit["owner"])
        moved = self.unit["moved"]
        fill = QColor(colour) if not moved else tint(colour, HEX_FILL, 0.55)
        painter.setBrush(fill)
        if self.highlight is not None or self.selected:
            painter.setPen(QPen(self.highlight or ACCENT, 2.6))
        else:
            painter.setPen(QPen(QColor("#0b0e16"), 1.0))
        painter.drawPath(self.hull())
        painter.setPen(TEXT if moved else INK)      # light on a moved (darkened) hull
        painter.setFont(font(bold=True))
        painter.drawText(QRectF(0, 0, self.number_width(self.unit) - 3, TOKEN_H),
                         Qt.AlignmentFlag.AlignCenter, self.number)
        badge = self.badge_rect()
        if badge is not None:
            painter.setBrush(QColor("white"))
            painter.setPen(QPen(INK, 0.8))
            painter.drawRoundedRect(badge, 3, 3)
            painter.setPen(INK)
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, str(self.cargo))

    # ------------------------------------------------------------------ dragging
    def mousePressEvent(self, event) -> None:
        self._press = event.scenePos()
        self._home = self.pos()
        self._z = self.zValue()
        self._refused = False
        self.setZValue(100)
        if self.board_scene.draggable(self.unit_id):
            self.board_scene.show_targets(self.unit_id)
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if self._press is None:
            return
        if not self.board_scene.draggable(self.unit_id):
            # It stays put; the first move of a drag says why (once), as the Struggle map
            # does, instead of letting the token go back without a word.
            if dragged(event) and not self._refused:
                self._refused = True
                self.setCursor(Qt.CursorShape.ForbiddenCursor)
                self.board_scene.pickup_refused.emit(self.unit_id)
            return
        self.setPos(self._home + event.scenePos() - self._press)

    def mouseReleaseEvent(self, event) -> None:
        press, self._press = self._press, None
        refused, self._refused = self._refused, False
        self.setZValue(getattr(self, "_z", 20))
        self.board_scene.clear_targets()
        if press is None:
            return
        moved = (event.scenePos() - press).manhattanLength() > 6
        self.setPos(self._home)
        if refused:
            self.setCursor(Qt.CursorShape.PointingHandCursor)   # it has said why
        elif moved and self.board_scene.draggable(self.unit_id):
            self.board_scene.drop(self.unit_id, event.scenePos())
        elif self.board_scene.draggable(self.unit_id) or not dragged(event):
            self.board_scene.ship_clicked.emit(self.unit_id)
        else:
            self.board_scene.pickup_refused.emit(self.unit_id)   # no move came in between


class MoreMark(QGraphicsObject):
    """"+N" at the end of a hex's token row: the units that move on their own with no room
    in the row. A click picks the first of them (the Ship panel lists them all)."""

    def __init__(self, scene: "NoblesScene", hidden: list[str]):
        super().__init__()
        self.board_scene = scene
        self.hidden = hidden
        self.label = f"+{len(hidden)}"
        self.setToolTip("Also here: " + ", ".join(hidden) + " (click to pick the first; the "
                        "Ship panel lists them all)")
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setZValue(20)

    @staticmethod
    def width_for(count: int) -> float:
        text = QFontMetricsF(font(bold=True)).horizontalAdvance(f"+{count}")
        return math.ceil(text) + 8

    def boundingRect(self) -> QRectF:
        return QRectF(0, 0, self.width_for(len(self.hidden)), TOKEN_H)

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setBrush(QColor("#dfe5f0"))
        painter.setPen(QPen(INK, 0.8))
        painter.drawRoundedRect(self.boundingRect().adjusted(0.5, 0.5, -0.5, -0.5), 4, 4)
        painter.setFont(font(bold=True))
        painter.drawText(self.boundingRect(), Qt.AlignmentFlag.AlignCenter, self.label)

    def text(self) -> str:
        return self.label

    def texts(self) -> list[tuple[str, QFont]]:
        return [(self.label, font(bold=True))]

    def mousePressEvent(self, event) -> None:
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        self.board_scene.ship_clicked.emit(self.hidden[0])


# =================================================================================== the scene
class NoblesScene(QGraphicsScene):
    ship_dropped = Signal(str, str)
    ship_clicked = Signal(str)
    hex_clicked = Signal(str)
    #: A token that may not move now was dragged: it stays, the window says why.
    pickup_refused = Signal(str)

    def __init__(self, layout: dict, parent=None):
        super().__init__(parent)
        self.layout = layout
        self.hex_size = float(layout.get("hex_size", 60.0))
        self.setBackgroundBrush(SPACE)
        self.draggable: Callable[[str], bool] = lambda _uid: False
        #: Where a held token may be dropped: hex keys "x,y".
        self.drop_targets: Callable[[str], list[str]] = lambda _uid: []
        self.grid: HexGrid | None = None
        self.board: dict | None = None
        self.hex_items: dict[str, HexItem] = {}
        self.tokens: dict[str, ShipToken] = {}
        self.stack_items: dict[tuple[str, str], list] = {}
        self.selected_ship: str | None = None
        self.selected_hex: str | None = None
        self._target_marks: list = []
        self._signature: tuple | None = None     # the map whose drawing is kept
        self._subtitles: dict = {}
        self._govern_marks: dict = {}
        #: What a program house just did, as the window's watch marks it (ui/nobles/watch.py)
        #: and the items drawn for it (redrawn with every board until cleared).
        self.watch_marks: list[dict] = []
        self.watch_items: list = []
        self.setSceneRect(QRectF(0, 0, 1100, 900))

    # ------------------------------------------------------------------ geometry
    def map_rect(self) -> QRectF:
        return self.sceneRect()

    @property
    def legible_scale(self) -> float:
        """The scale of the first view where the whole map would be smaller (ui/map/view.py);
        before the map is drawn the set-up's few words are shown whole."""
        return FIRST_VIEW_PX / TEXT_PX if self.grid is not None else 0.0

    def first_view_focus(self) -> QPointF | None:
        """Where the first view looks: the seated house's homeworld (else the middle)."""
        board = self.board or {}
        hexes = (board.get("map") or {}).get("hexes") or []
        home = next((e["hex"] for e in hexes if e.get("home_of")
                     and e["home_of"] == board.get("seat")), None)
        return self.centre(home) if home is not None and self.grid is not None else None

    def centre(self, h) -> QPointF:
        x, y = self.grid.center(h, self.hex_size)
        return QPointF(x + LEFT, y + TOP)

    def polygon(self, h, inset: float = 0.0) -> QPolygonF:
        size = self.hex_size - inset
        cx, cy = self.grid.center(h, self.hex_size)
        return QPolygonF([QPointF(cx + size * math.cos(math.radians(a)) + LEFT,
                                  cy + size * math.sin(math.radians(a)) + TOP)
                          for a in (-90, -30, 30, 90, 150, 210)]) if inset else QPolygonF(
            [QPointF(px + LEFT, py + TOP)
             for px, py in self.grid.corners_of(h, self.hex_size)])

    def hex_key_at(self, pos: QPointF) -> str | None:
        if self.grid is None:
            return None
        h = self.grid.hex_at(pos.x() - LEFT, pos.y() - TOP, self.hex_size)
        return key_of(h) if h is not None else None

    # ------------------------------------------------------------------ gestures
    def drop(self, unit_id: str, pos: QPointF) -> None:
        self.ship_dropped.emit(unit_id, self.hex_key_at(pos) or "")

    def mouseReleaseEvent(self, event) -> None:
        super().mouseReleaseEvent(event)
        if event.button() != Qt.MouseButton.LeftButton:
            return
        pos = event.scenePos()
        if any(isinstance(i, (ShipToken, MoreMark)) for i in self.items(pos)):
            return
        if dragged(event):
            # The map was panned, not clicked (on the screen: while the map pans, the spot
            # under the pointer stays the same spot of the map).
            return
        key = self.hex_key_at(pos)
        if key is not None:
            self.hex_clicked.emit(key)

    # ------------------------------------------------------------------ drawing
    def show_board(self, board: dict | None) -> None:
        """Draw ``board``. The map's own drawing (hexes, names, terrain) is kept while the map
        stays the same and only dressed in its owners' colours again; everything else (the
        header, stacks, ships, marks) is drawn anew."""
        self._target_marks = []
        self.tokens = {}
        self.stack_items = {}
        self.board = board
        game_map = (board or {}).get("map")
        signature = map_signature(game_map) if game_map else None
        if signature is None or signature != self._signature:
            self.clear()
            self.hex_items = {}
            self._subtitles = {}
            self._govern_marks = {}
            self._signature = None
        else:
            for item in self.items():
                if item.data(0) != STATIC and item.parentItem() is None:
                    self.removeItem(item)
        if board is None:
            return
        if not game_map:
            self.grid = None
            self.setSceneRect(QRectF(0, 0, 1100, 700))
            self._header(board, 1100)
            self._text("The map is drawn once every house has its homeworld.",
                       QPointF(550, 350), 14, colour=MUTED, centred=True)
            return
        if self._signature is None:
            self.grid = HexGrid(game_map["width"], game_map["height"])
            w, h = self.grid.board_size_px(self.hex_size)
            self.setSceneRect(QRectF(0, 0, max(w + LEFT + MARGIN, 1000.0), h + TOP + MARGIN))
            for entry in game_map["hexes"]:
                self._hex(entry)
            self._coordinates(game_map)
            self._gate_links(game_map)
            for item in self.items():
                item.setData(0, STATIC)
            self._signature = signature
        hexes = game_map["hexes"]
        for entry in hexes:
            self._dress(entry)
        self._header(board, self.sceneRect().width())
        fight = board.get("pending_hex") or (board.get("battle") or {}).get("hex") \
            or (board.get("exchange") or {}).get("hex")
        for entry in hexes:
            self._contents(board, entry)
        if fight:
            self._fight_mark(fight)
        if self.selected_hex in self.hex_items:
            self._select_mark(self.selected_hex)
        if self.selected_ship in self.tokens:
            self.tokens[self.selected_ship].selected = True
        self._draw_watch()

    def _dress(self, entry: dict) -> None:
        """What changes on the map itself: a world's owner (fill and border), its Govern
        bonus, and every hex's tooltip (it lists the units)."""
        key = entry["key"]
        item = self.hex_items[key]
        item.setToolTip(entry["tooltip"])
        if entry["kind"] != "world":
            return
        owner = entry.get("controller")
        item.setBrush(QBrush(tint(house_colour(owner), WORLD_FILL, 0.42) if owner
                             else WORLD_FILL))
        item.setPen(QPen(house_colour(owner), 3.2) if owner else QPen(QColor("#59657f"), 1.4))
        self._subtitles[key].setBrush(TEXT if owner else MUTED)
        self._govern_marks[key].setVisible(bool(entry["govern"]))

    def _text(self, text: str, at: QPointF, size: float = TEXT_PX, bold: bool = False, colour=TEXT,
              centred: bool = False, z: float = 5, width: float | None = None):
        f = font(size, bold)
        if width is not None:
            text = QFontMetricsF(f).elidedText(text, Qt.TextElideMode.ElideRight, width)
        item = self.addSimpleText(text, f)
        item.setBrush(colour)
        br = item.boundingRect()
        x = at.x() - br.width() / 2 if centred else at.x()
        item.setPos(x, at.y() - br.height() / 2)
        item.setZValue(z)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        return item

    def _header(self, board: dict, width: float) -> None:
        """Turn and step on the left, then one chip per house: colour, letter, name,
        Solats, income and worlds (the legend of the colours)."""
        status = f"Turn {board['turn']} · {board['phase_name']}"
        if board.get("outcome"):
            status += " · game over"
        elif board.get("waiting_for"):
            who = next((h["name"] for h in board["houses"]
                        if h["letter"] == board["waiting_for"]), board["waiting_for"])
            status += f" · {who} to act"
        self._text(status, QPointF(LEFT, 11), bold=True)
        x = LEFT
        y = 23.0
        count = max(2, len(board["houses"]))
        chip_w = (width - LEFT - MARGIN - 6 * (count - 1)) / count
        for house in board["houses"]:
            colour = house_colour(house["letter"])
            rect = QRectF(x, y, chip_w, 21)
            fill = colour if house["alive"] else tint(colour, HEX_FILL, 0.3)
            item = self.addRect(rect, QPen(QColor("#0b0e16"), 1), QBrush(fill))
            item.setToolTip(f"{house['name']}: {house['player']}")
            who = "person" if house["player"] == "human" else "AI"
            name = house["name"].split(" (")[0].removeprefix("House ")
            # Before its homeworld a house is named by its letter alone: say it once.
            named = f"{house['letter']}  {name}" if name != house["letter"] else house["letter"]
            words = (f"{named} · {who} · {house['solats']} S · "
                     f"+{house['income']} · {len(house['worlds'])} "
                     f"world{'' if len(house['worlds']) == 1 else 's'}")
            if not house["alive"]:
                words = f"{named} · eliminated"
            item = self._text(words, QPointF(x + 6, y + 10.5), bold=True, colour=INK,
                              width=chip_w - 10)
            item.setToolTip(f"{house['name']}: {house['player']}")
            x += chip_w + 6

    def _hex(self, entry: dict) -> None:
        h = entry["hex"]
        kind = entry["kind"]
        poly = self.polygon(h)
        item = HexItem(poly, entry["key"])
        item.setBrush(QBrush(WORLD_FILL if kind == "world" else HEX_FILL))
        item.setPen(QPen(HEX_EDGE, 1.0))
        item.setZValue(1 if kind != "world" else 2)
        self.addItem(item)
        self.hex_items[entry["key"]] = item
        c = self.centre(h)
        s = self.hex_size
        if kind == "world":
            self._world(entry, c)
        elif kind == "obstacle":
            self._obstacle(entry["obstacle"], c, poly)
        elif kind == "jump_station":
            self._station(c)
        elif kind == "empty_system":
            self._star(c)
        elif kind == "stargate":
            self._gate(entry, c)
        if kind in ("jump_station", "empty_system", "stargate"):
            names = {"jump_station": "jump station", "empty_system": "empty system",
                     "stargate": f"stargate {int(entry['gate'] or 0) + 1}"}
            self._text(names[kind], QPointF(c.x(), c.y() + TITLE_Y * s), colour=MUTED,
                       centred=True)

    def _world(self, entry: dict, c: QPointF) -> None:
        s = self.hex_size
        owner = entry.get("controller")
        if entry["homeworld"]:
            rim = self.addPolygon(self.polygon(entry["hex"], inset=5),
                                  QPen(house_colour(entry["home_of"]) if entry["home_of"]
                                       else QColor("#59657f"), 1.4, Qt.PenStyle.DashLine))
            rim.setZValue(3)
            rim.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        name = ("♛ " if entry["homeworld"] else "") + entry["world"]
        self._text(name, QPointF(c.x(), c.y() + TITLE_Y * s), bold=True, centred=True,
                   width=LABEL_W * s)
        subtitle = f"{entry['world_type']} {entry['base_income']}"
        item = self._text(subtitle, QPointF(c.x(), c.y() + SUBTITLE_Y * s),
                          colour=TEXT if owner else MUTED, centred=True, width=LABEL_W * s)
        self._subtitles[entry["key"]] = item
        # The Govern bonus, in gold in the hex's top corner (after the income there is no
        # room for it).
        mark = self._text("+1", QPointF(c.x(), c.y() + GOVERN_Y * s), bold=True, colour=GOLD,
                          centred=True)
        mark.setToolTip("Govern: +1 income for good")
        self._govern_marks[entry["key"]] = mark

    def _obstacle(self, kind: str | None, c: QPointF, poly: QPolygonF) -> None:
        s = self.hex_size
        if kind == "black_hole":
            glow = QRadialGradient(c, 0.55 * s)
            glow.setColorAt(0.0, QColor("#000000"))
            glow.setColorAt(0.55, QColor("#000000"))
            glow.setColorAt(0.7, QColor("#ff9a3c"))
            glow.setColorAt(1.0, QColor(255, 154, 60, 0))
            item = self.addEllipse(QRectF(c.x() - 0.55 * s, c.y() - 0.55 * s, 1.1 * s, 1.1 * s),
                                   QPen(Qt.PenStyle.NoPen), QBrush(glow))
            label = "black hole"
        elif kind == "supernova":
            burst = QPolygonF()
            for k in range(24):
                r = (0.62 if k % 2 == 0 else 0.3) * s
                a = math.radians(k * 15)
                burst.append(QPointF(c.x() + r * math.cos(a), c.y() + r * math.sin(a)))
            glow = QRadialGradient(c, 0.62 * s)
            glow.setColorAt(0.0, QColor("#fff6c0"))
            glow.setColorAt(0.45, QColor("#ffb347"))
            glow.setColorAt(1.0, QColor("#d9432b"))
            item = self.addPolygon(burst, QPen(Qt.PenStyle.NoPen), QBrush(glow))
            label = "supernova"
        else:
            cloud = QPainterPath()
            for dx, dy, r in ((-0.3, -0.1, 0.38), (0.25, -0.2, 0.34), (0.05, 0.2, 0.42),
                              (-0.25, 0.3, 0.28), (0.35, 0.25, 0.3)):
                cloud.addEllipse(QPointF(c.x() + dx * s, c.y() + dy * s), r * s, r * s)
            glow = QRadialGradient(c, 0.8 * s)
            glow.setColorAt(0.0, QColor(196, 120, 255, 230))
            glow.setColorAt(1.0, QColor(90, 50, 160, 150))
            item = self.addPath(cloud.simplified(), QPen(Qt.PenStyle.NoPen), QBrush(glow))
            label = "nebula"
        item.setZValue(2)
        item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self._text(label, QPointF(c.x(), c.y()), bold=True, colour=QColor("#ffe0d0"),
                   centred=True)

    def _station(self, c: QPointF) -> None:
        s = 0.08 * self.hex_size
        y = c.y() + ICON_Y * self.hex_size
        pen = QPen(QColor("#c8d3ea"), 1.4)
        box = self.addRect(QRectF(c.x() - s, y - s, 2 * s, 2 * s), pen, QBrush(QColor("#46536f")))
        arms = self.addLine(c.x() - 2.5 * s, y, c.x() + 2.5 * s, y, pen)
        for item in (box, arms):
            item.setZValue(3)

    def _star(self, c: QPointF) -> None:
        s = self.hex_size
        star = QPolygonF()
        for k in range(10):
            r = (0.11 if k % 2 == 0 else 0.045) * s
            a = math.radians(-90 + k * 36)
            star.append(QPointF(c.x() + r * math.cos(a), c.y() + ICON_Y * s + r * math.sin(a)))
        item = self.addPolygon(star, QPen(Qt.PenStyle.NoPen), QBrush(GOLD))
        item.setZValue(3)

    def _gate(self, entry: dict, c: QPointF) -> None:
        s = self.hex_size
        y = c.y() + ICON_Y * s
        ring = self.addEllipse(QRectF(c.x() - 0.1 * s, y - 0.1 * s, 0.2 * s, 0.2 * s),
                               QPen(GATE, 2.4), QBrush(Qt.BrushStyle.NoBrush))
        ring.setZValue(3)

    def _gate_links(self, game_map: dict) -> None:
        for k, (a, b) in enumerate(game_map.get("stargates", [])):
            ca, cb = self.centre(a), self.centre(b)
            ca.setY(ca.y() + ICON_Y * self.hex_size)
            cb.setY(cb.y() + ICON_Y * self.hex_size)
            pen = QPen(QColor(56, 214, 232, 150), 2.2, Qt.PenStyle.DashLine)
            line = self.addLine(ca.x(), ca.y(), cb.x(), cb.y(), pen)
            line.setZValue(4)
            line.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            line.setToolTip(f"Stargate pair {k + 1}: ({a[0]},{a[1]}) ↔ ({b[0]},{b[1]})")

    # ------------------------------------------------------------------ units
    def _contents(self, board: dict, entry: dict) -> None:
        """The stacks of a hex: one token row for the units that move on their own, then the
        houses' stack lines, each as wide as the hex is there (a hex narrows below its
        middle): the armies by unit code, or where there is no room for them their count
        (every code is in the line's tooltip and the Hex panel)."""
        stacks = entry.get("stacks") or []
        if not stacks:
            return
        c = self.centre(entry["hex"])
        s = self.hex_size
        units = board["units"]
        ships = [uid for st in stacks for uid in st["ships"]]
        top = c.y() + TOKENS_Y * s
        if ships:
            top = self._tokens(ships, units, c.x(), top, LABEL_W * s) + 2
        lines = [st for st in stacks if stack_words(st)]
        if not lines:
            return
        line_h = TEXT_PX + 3.0
        slots: list[tuple[float, float]] = []      # (top, width) of each line there is room for
        y = top
        while True:
            width = min(LABEL_W * s, 2 * self._half_width(y + line_h - c.y()) - 6)
            if width < 40:
                break
            slots.append((y, width))
            y += line_h + 1.5
        share = max(1, len(slots) // len(lines))
        bold = font(bold=True)
        for k, st in enumerate(lines):
            mine = slots[k * share:(k + 1) * share] if k < len(lines) - 1 else slots[k * share:]
            if not mine:
                break                                   # no room left: see the tooltip
            widths = [w - 6 for _y, w in mine]
            rows, whole = fit_rows(stack_words(st), bold, widths)
            if not whole:
                rows, whole = fit_rows(stack_summary(st), bold, widths)
            if not whole:
                rows, _ = fit_rows(stack_summary(st, short=True), bold, widths)
            colour = house_colour(st["owner"])
            for (row_y, width), text in zip(mine, rows):
                rect = QRectF(c.x() - width / 2, row_y, width, line_h)
                chip = self.addRect(rect, QPen(QColor("#0b0e16"), 0.8), QBrush(colour))
                chip.setZValue(6)
                chip.setToolTip(f"{st['owner']}: {st['summary']}")
                self.stack_items.setdefault(entry["key"], []).append(chip)
                self._text(text, QPointF(rect.left() + 3, rect.center().y()), bold=True,
                           colour=INK, z=7)

    def _half_width(self, dy: float) -> float:
        """Half the width of a (pointy-topped) hex at ``dy`` below or above its centre."""
        s = self.hex_size
        full = math.sqrt(3) / 2 * s
        dy = abs(dy)
        return full if dy <= s / 2 else max(0.0, full * (s - dy) / (s / 2))

    def _tokens(self, ships: list[str], units: dict, middle: float, top: float,
                room: float) -> float:
        """The tokens of the units that move on their own, in one row no wider than ``room``
        centred on ``middle`` (those that may move now first); returns the row's bottom.
        Those with no room are counted on a "+N" mark at the row's end: a click on it picks
        the first of them, and the Ship panel lists them all."""
        ships = sorted(ships, key=lambda uid: not self.draggable(uid))
        widths = [ShipToken.width_for(units[uid]) for uid in ships]

        def row_width(count: int) -> float:
            used = sum(widths[:count]) + TOKEN_GAP * (count - 1)
            if count < len(ships):
                used += TOKEN_GAP + MoreMark.width_for(len(ships) - count)
            return used

        count = len(ships)
        while count > 1 and row_width(count) > room:
            count -= 1
        x = middle - row_width(count) / 2
        for k, uid in enumerate(ships):
            token = ShipToken(self, units[uid])
            self.addItem(token)
            self.tokens[uid] = token
            if k < count:
                token.setPos(x, top)
                x += token.width + TOKEN_GAP
            else:
                token.setPos(x, top)
                token.setVisible(False)      # counted on the mark; picked in the Ship panel
        if count < len(ships):
            mark = MoreMark(self, ships[count:])
            mark.setPos(x, top)
            self.addItem(mark)
        return top + TOKEN_H

    def _coordinates(self, game_map: dict) -> None:
        """Column numbers above the map and row numbers left of it: a hex is (column,row),
        as the rules and the messages name it."""
        for x in range(1, game_map["width"] + 1):
            c = self.centre((x, 1))
            self._text(str(x), QPointF(c.x(), TOP - 8), colour=MUTED, centred=True, z=3)
        for y in range(1, game_map["height"] + 1):
            c = self.centre((1, y))
            self._text(str(y), QPointF(LEFT / 2, c.y()), colour=MUTED, centred=True, z=3)

    def _fight_mark(self, h) -> None:
        mark = self.addPolygon(self.polygon(h, inset=-3), QPen(FIGHT, 4, Qt.PenStyle.DashLine))
        mark.setZValue(30)
        mark.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _select_mark(self, key: str) -> None:
        x, y = (int(v) for v in key.split(","))
        mark = self.addPolygon(self.polygon((x, y), inset=2), QPen(QColor("white"), 2.2))
        mark.setZValue(29)
        mark.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    # ------------------------------------------------------------------ a program house's step
    def show_watch(self, marks: list[dict]) -> None:
        """Mark what a program house just did: an arrow from where a ship jumped to where it
        landed, a ring round each hex it fought in."""
        self.watch_marks = list(marks)
        if self.board is not None and self.grid is not None:
            self._draw_watch()

    def _draw_watch(self) -> None:
        for item in self.watch_items:
            if item.scene() is self:
                self.removeItem(item)
        self.watch_items = []
        if self.grid is None:
            return
        for mark in self.watch_marks:
            if mark["kind"] == "jump":
                self._watch_arrow(mark["from"], mark["to"])
            elif mark["kind"] == "fight":
                ring = self.addPolygon(self.polygon(mark["hex"], inset=-6),
                                       QPen(WATCH, 5), QBrush(Qt.BrushStyle.NoBrush))
                ring.setZValue(45)
                ring.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self.watch_items.append(ring)

    def _watch_arrow(self, start, end) -> None:
        a, b = self.centre(start), self.centre(end)
        # The head stops short of the centre: the ship's token there stays readable.
        length = math.hypot(b.x() - a.x(), b.y() - a.y())
        if length > self.hex_size:
            short = self.hex_size * 0.5 / length
            b = QPointF(b.x() - (b.x() - a.x()) * short, b.y() - (b.y() - a.y()) * short)
        pen = QPen(WATCH, 5, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        ring = self.addPolygon(self.polygon(end, inset=4), QPen(WATCH, 3.5),
                               QBrush(Qt.BrushStyle.NoBrush))
        line = self.addLine(a.x(), a.y(), b.x(), b.y(), pen)
        angle = math.atan2(b.y() - a.y(), b.x() - a.x())
        head = QPolygonF([b] + [QPointF(b.x() - 22 * math.cos(angle + d),
                                        b.y() - 22 * math.sin(angle + d))
                                for d in (0.45, -0.45)])
        tip = self.addPolygon(head, QPen(WATCH, 1), QBrush(WATCH))
        for item in (ring, line, tip):
            item.setZValue(45)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self.watch_items.append(item)

    # ------------------------------------------------------------------ targets
    def show_targets(self, unit_id: str) -> None:
        """Light the hexes the held token may jump to."""
        self.clear_targets()
        for key in self.drop_targets(unit_id):
            if key not in self.hex_items:
                continue
            x, y = (int(v) for v in key.split(","))
            fill = QColor(ACCENT)
            fill.setAlpha(45)
            mark = self.addPolygon(self.polygon((x, y), inset=3),
                                   QPen(ACCENT, 3.5, Qt.PenStyle.DashLine), QBrush(fill))
            mark.setZValue(40)
            mark.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
            self._target_marks.append(mark)
        token = self.tokens.get(unit_id)
        if token is not None:
            token.highlight = ACCENT
            token.update()

    def clear_targets(self) -> None:
        for mark in self._target_marks:
            if mark.scene() is self:
                self.removeItem(mark)
        self._target_marks = []
        for token in self.tokens.values():
            if token.highlight is not None:
                token.highlight = None
                token.update()

    def select(self, ship: str | None = None, hex_key: str | None = None) -> None:
        """Remember the ship and hex the player picked (drawn on the next ``show_board``)."""
        self.selected_ship = ship
        self.selected_hex = hex_key


def map_signature(game_map: dict) -> tuple:
    """What the map's own drawing depends on: its size and each hex's feature."""
    return (game_map["width"], game_map["height"],
            tuple((h["key"], h["kind"], h["world"], h["obstacle"], h["gate"], h["home_of"])
                  for h in game_map["hexes"]))


def stack_words(stack: dict) -> list[str]:
    """The words of one house's stack line: its letter, armies by unit code, Nobles, nukes."""
    words = [stack["owner"]]
    words += [f"{n}{code}" for code, n in stack["armies"].items()]
    if stack["nobles"]:
        words.append(f"♛{len(stack['nobles'])}")
    if stack["nukes"]:
        words.append(f"☢{len(stack['nukes'])}")
    return words if len(words) > 1 else []


def stack_summary(stack: dict, short: bool = False) -> list[str]:
    """A stack line for a hex with little room: its letter, how many armies (``short``: the
    number alone), Nobles and nukes."""
    words = [stack["owner"]]
    armies = sum(stack["armies"].values())
    if armies:
        words.append(str(armies) if short else f"{armies} {'army' if armies == 1 else 'armies'}")
    if stack["nobles"]:
        words.append(f"♛{len(stack['nobles'])}")
    if stack["nukes"]:
        words.append(f"☢{len(stack['nukes'])}")
    return words


def fit_rows(words: list[str], f: QFont, widths: list[float]) -> tuple[list[str], bool]:
    """``words`` in rows as wide as ``widths`` (one row per width at most); whether they all
    fit (if not, the last row is elided)."""
    metrics = QFontMetricsF(f)
    rows: list[str] = []
    row = ""
    rest = list(words)
    while rest and len(rows) < len(widths):
        width = widths[len(rows)]
        candidate = f"{row} {rest[0]}".strip()
        if metrics.horizontalAdvance(candidate) <= width or not row:
            row = candidate
            rest.pop(0)
        else:
            rows.append(row)
            row = ""
    if row:
        rows.append(row)
    whole = not rest and all(metrics.horizontalAdvance(r) <= w for r, w in zip(rows, widths))
    if not whole and rows:
        tail = " ".join([rows[-1]] + rest)
        rows[-1] = metrics.elidedText(tail, Qt.TextElideMode.ElideRight, widths[len(rows) - 1])
    return rows, whole


def render_image(layout: dict, board: dict | None, size=(1600, 1000)):
    """The map of ``board`` as an image of ``size`` pixels (the ``render`` command)."""
    from struggle_desktop.ui.map.render import ensure_fonts, scene_image

    ensure_fonts()
    scene = NoblesScene(layout)
    scene.show_board(board)
    return scene_image(scene, size)


__all__ = ["NoblesScene", "ShipToken", "MoreMark", "HexItem", "render_image", "HOUSE_COLOURS"]
