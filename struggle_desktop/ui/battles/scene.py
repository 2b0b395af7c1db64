"""The Battles table as a QGraphicsScene: the Chaos Index track, the six regions, both displays
and, during a fight, the battle mini-map.

The scene draws a ``board`` (games/battles/presentation.py) and reports gestures; it never
changes the game. Counters are drawn from data (side colour, type, military-morph values, a
badge for a Tactical chit, a corner of the old colour for a converted fleet). Imperial counters
are squares and Chaos counters have notched corners, so colour is never the only clue.

Gestures, as signals the window turns into actions:

* ``fleet_dropped(fleet, target)``: a counter dragged onto a region (``"region:N"``), onto a
  display (``"display:SIDE"``), or in the battle mini-map onto another counter
  (``"fleet:ID"``) or the open map (``"battle"``); a drop onto a counter outside the
  mini-map counts as one on the region or display it stands in;
* ``region_clicked(n)`` and ``fleet_clicked(id)``: a press and release in place (a drag,
  of a counter or across the table, is never a click, wherever it ends);
* ``pickup_refused(id)``: a counter that may not move now was dragged (it stays where it is
  and the window says why);
* ``fight_closed()``: the Close button of a finished fight's mini-map (the window keeps a
  fight's mini-map open after its end, drawn from ``show_board(board, finished_fight)``).

Which counters may be dragged is asked of ``draggable(fleet_id)`` (set by the window).
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QPointF, QRectF, QSizeF, Qt, QTimer, Signal
from PySide6.QtGui import (QBrush, QColor, QFont, QPainter, QPainterPath, QPen, QPolygonF)
from PySide6.QtWidgets import (QApplication, QGraphicsObject, QGraphicsRectItem,
                               QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsTextItem)

FONT = "DejaVu Sans"
COLOURS = {"blue": QColor("#2d6cb5"), "red": QColor("#b5332e")}
LIGHT = {"blue": QColor("#dce8f7"), "red": QColor("#f7dedc")}
INK = QColor("#1d232b")
PAPER = QColor("#f4f1ea")
MUTED = QColor("#7a7f87")
ACCENT = QColor("#e0a526")

#: The table's size in scene units. Its text is at least ``TEXT_PT`` (16 units at 96 dpi):
#: the whole table fits the view of a 1366x768 screen at about 0.6 pixels a unit, and its
#: smallest text is then still 9-10 pixels tall (tests/ui/test_battles_steady.py measures it).
WIDTH, HEIGHT = 1400.0, 840.0
TEXT_PT = 12.0
TITLE_PT = 13.0
COUNTER = 50.0
GAP = 6.0
#: The top band: the turn (above Blue's display), the Chaos Index track (above the regions)
#: and who wins where (above Red's display), each in a column of its own so no word of one
#: runs into another.
TURN_BOX = QRectF(8, 6, 236, 74)
TRACK = QRectF(252, 8, 896, 72)
THRESHOLDS_BOX = QRectF(1156, 6, 236, 74)
DISPLAYS = {"blue": QRectF(8, 88, 236, 744), "red": QRectF(1156, 88, 236, 744)}
REGIONS_AREA = QRectF(252, 88, 896, 744)
#: In the battle mini-map (relative to its top left): the line under the title that says who
#: disengages, and the top of the firing lines (their headers sit 28 above it).
BATTLE_WORDS = QRectF(12, 38, 872, 24)
FIRING_TOP = 100.0
#: The finished fight's Close button, at the mini-map's top right (relative to its top left).
CLOSE_BUTTON = QRectF(896 - 12 - 100, 8, 100, 30)


def font(size: float, bold: bool = False) -> QFont:
    f = QFont(FONT)
    f.setPointSizeF(size)
    f.setBold(bold)
    return f


def unplaced_fleets(board: dict) -> list[str]:
    """The seat's fleets still on its display that a deployment must place: every one but
    the Trans-humans, which may stay back (the game offers Done once this is empty)."""
    seat = board["seat"]
    player = board["players"].get(seat)
    if player is None:
        return []
    return [f for f in player["display"]
            if f not in player["plan"] and board["fleets"][f]["type"] != "TH"]


def deployment_note(board: dict | None) -> tuple[str, str] | None:
    """While the seat deploys: what is left before Done (title, detail), else None."""
    prompt = (board or {}).get("prompt")
    if not prompt or prompt["kind"] != "deploy":
        return None
    if any(e["action"]["verb"] == "done" for e in prompt["actions"]):
        held = [f for f in board["players"][board["seat"]]["display"]
                if f not in board["players"][board["seat"]]["plan"]]
        return ("Every fleet is placed",
                "Click Done deploying, under the table"
                + (" (Trans-humans may stay back)" if held else ""))
    left = len(unplaced_fleets(board))
    return (f"Place every fleet first: {left} left" if left else "Place every fleet first",
            "Drag each onto a region; Done comes when all are placed")


def region_rect(column: int, row: int) -> QRectF:
    w = (REGIONS_AREA.width() - 2 * GAP) / 3
    h = (REGIONS_AREA.height() - GAP) / 2
    return QRectF(REGIONS_AREA.left() + column * (w + GAP), REGIONS_AREA.top() + row * (h + GAP),
                  w, h)


# =================================================================================== counters
def dragged(event) -> bool:
    """Whether the pointer has gone far enough since the press for a drag, not a click (Qt's
    own distance, on the screen: a click's jitter at a small zoom stays a click)."""
    left = Qt.MouseButton.LeftButton
    return ((event.screenPos() - event.buttonDownScreenPos(left)).manhattanLength()
            >= QApplication.startDragDistance())


class CounterItem(QGraphicsObject):
    """One fleet counter. Drags are reported to the scene, which decides what a drop means;
    the counter always goes back to where the board puts it."""

    def __init__(self, scene: "BattlesScene", fleet: dict, planned: bool = False):
        super().__init__()
        self.board_scene = scene
        self.fleet = fleet
        self.fleet_id = fleet["id"]
        self.planned = planned            # the seat's own secret deployment, not yet revealed
        self.highlight: QColor | None = None
        self.setToolTip(fleet["tooltip"] + ("\n(planned: you assigned it here; revealed when "
                                            "both players are done)" if planned else ""))
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._press: QPointF | None = None
        self._home = QPointF()
        self._refused = False             # this press dragged a counter that may not move
        self.setZValue(10)

    def boundingRect(self) -> QRectF:
        if self.fleet["tactical"]:
            return QRectF(-11, -11, COUNTER + 13, COUNTER + 13)     # the badge off its corner
        return QRectF(-2, -2, COUNTER + 4, COUNTER + 4)

    def shape(self) -> QPainterPath:
        """Where the counter takes the mouse: the counter itself, not its badge's corner."""
        path = QPainterPath()
        path.addRect(QRectF(-2, -2, COUNTER + 4, COUNTER + 4))
        return path

    def shape_path(self) -> QPainterPath:
        path = QPainterPath()
        r = QRectF(0, 0, COUNTER, COUNTER)
        if self.fleet["owner"] == "red":       # notched corners for Chaos
            c = 8.0
            path.addPolygon(QPolygonF([QPointF(c, 0), QPointF(COUNTER - c, 0),
                                       QPointF(COUNTER, c), QPointF(COUNTER, COUNTER - c),
                                       QPointF(COUNTER - c, COUNTER), QPointF(c, COUNTER),
                                       QPointF(0, COUNTER - c), QPointF(0, c)]))
            path.closeSubpath()
        else:
            path.addRoundedRect(r, 4, 4)
        return path

    def paint(self, painter: QPainter, option, widget=None) -> None:
        owner = self.fleet["owner"]
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        fill = QColor(COLOURS[owner])
        if self.planned:
            fill.setAlpha(150)
        painter.setBrush(fill)
        pen = QPen(self.highlight if self.highlight else INK, 3 if self.highlight else 1.2)
        if self.planned:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        path = self.shape_path()
        painter.drawPath(path)
        if self.fleet["converted"]:            # a corner of the colour it came from
            other = "red" if owner == "blue" else "blue"
            painter.setBrush(COLOURS[other])
            painter.setPen(Qt.PenStyle.NoPen)
            painter.drawPolygon(QPolygonF([QPointF(COUNTER - 11, 0), QPointF(COUNTER, 0),
                                           QPointF(COUNTER, 11)]))
        # Two lines the size of the table's text: the fleet's type and number, and its
        # Military-Morph values.
        painter.setPen(QColor("white"))
        painter.setFont(font(TEXT_PT, bold=True))
        painter.drawText(QRectF(0, 3, COUNTER, 22), Qt.AlignmentFlag.AlignHCenter,
                         self.fleet_id.split("-")[1])
        painter.setFont(font(TEXT_PT))
        painter.drawText(QRectF(0, 24, COUNTER, 22), Qt.AlignmentFlag.AlignHCenter,
                         f"{self.fleet['mil']}-{self.fleet['morph']}")
        if self.fleet["tactical"]:
            painter.setBrush(ACCENT)
            painter.setPen(QPen(INK, 1))
            badge = QRectF(-10, -10, 19, 19)       # off the corner: clear of the words
            painter.drawEllipse(badge)
            painter.setPen(INK)
            painter.setFont(font(TEXT_PT, bold=True))
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, "T")
        for k in range(self.fleet["hits"]):
            painter.setBrush(QColor("black"))
            painter.drawEllipse(QRectF(4 + 7 * k, COUNTER - 6, 5, 5))

    # ------------------------------------------------------------------ dragging
    def mousePressEvent(self, event) -> None:
        self._press = event.scenePos()
        self._home = self.pos()
        self._z = self.zValue()
        self._refused = False
        self.setZValue(100)
        if self.board_scene.draggable(self.fleet_id):
            self.board_scene.show_targets(self.fleet_id)   # where it may go, while held
        event.accept()

    def mouseMoveEvent(self, event) -> None:
        if self._press is None:
            return
        if not self.board_scene.draggable(self.fleet_id):
            # It stays put; the first move of a drag says why (once), as the Struggle map
            # does, instead of letting the counter go back without a word.
            if dragged(event) and not self._refused:
                self._refused = True
                self.setCursor(Qt.CursorShape.ForbiddenCursor)
                self.board_scene.pickup_refused.emit(self.fleet_id)
            return
        self.setPos(self._home + event.scenePos() - self._press)

    def mouseReleaseEvent(self, event) -> None:
        press, self._press = self._press, None
        refused, self._refused = self._refused, False
        self.setZValue(getattr(self, "_z", 10))
        self.board_scene.clear_targets()
        if press is None:
            return
        moved = (event.scenePos() - press).manhattanLength() > 6
        self.setPos(self._home)
        if refused:
            self.setCursor(Qt.CursorShape.PointingHandCursor)   # it has said why
        elif moved and self.board_scene.draggable(self.fleet_id):
            self.board_scene.drop(self.fleet_id, event.scenePos())
        elif self.board_scene.draggable(self.fleet_id) or not dragged(event):
            self.board_scene.fleet_clicked.emit(self.fleet_id)
        else:
            self.board_scene.pickup_refused.emit(self.fleet_id)  # no move came in between


def fight_fates(board: dict, battle: dict) -> dict[str, list[str]]:
    """Where the fleets of a fight that has just ended went, read from ``board`` (drawn after
    it): ``garrison`` (they hold the region), ``return`` (back on a display) and
    ``eliminate`` (to the common pool or a Trans-human supply)."""
    fates: dict[str, list[str]] = {"garrison": [], "return": [], "eliminate": []}
    fleets = board["fleets"]
    seen = []
    for fid in (battle["firing"]["blue"] + battle["firing"]["red"]
                + [r["fleet"] for r in battle["removed"]]):
        if fid in seen or fid not in fleets:
            continue
        seen.append(fid)
        at = fleets[fid]["at"]
        if at == "garrison" and fleets[fid]["region"] == battle["region"]:
            fates["garrison"].append(fid)
        elif at == "display":
            fates["return"].append(fid)
        elif at in ("common", "supply"):
            fates["eliminate"].append(fid)
    return fates


class CloseButton(QGraphicsRectItem):
    """A button on the table: a click on it tells the scene the finished fight was seen."""

    def __init__(self, scene: "BattlesScene", rect: QRectF):
        super().__init__(rect)
        self.board_scene = scene
        self.setPen(QPen(INK, 1.5))
        self.setBrush(QBrush(ACCENT))
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setToolTip("Close the finished fight's view and show the regions again")

    def mousePressEvent(self, event) -> None:
        event.accept()

    def mouseReleaseEvent(self, event) -> None:
        if self.rect().contains(event.pos()):
            # After this event: the redraw it brings removes this very item.
            scene = self.board_scene
            QTimer.singleShot(0, scene, scene.fight_closed.emit)


# =================================================================================== the scene
class BattlesScene(QGraphicsScene):
    fleet_dropped = Signal(str, str)
    region_clicked = Signal(int)
    fleet_clicked = Signal(str)
    #: A counter that may not move now was dragged: it stays, the window says why.
    pickup_refused = Signal(str)
    #: The player closed the finished fight's mini-map.
    fight_closed = Signal()

    def __init__(self, layout: dict, parent=None):
        super().__init__(parent)
        self.layout = layout
        self.setSceneRect(QRectF(0, 0, WIDTH, HEIGHT))
        self.setBackgroundBrush(PAPER)
        self.draggable: Callable[[str], bool] = lambda _fid: False
        #: Where a held counter may be dropped: "region:N", "display:side", "fleet:ID".
        self.drop_targets: Callable[[str], list[str]] = lambda _fid: []
        self._target_marks: list = []
        self.counters: dict[str, CounterItem] = {}
        self.region_rects = {r["number"]: region_rect(r["column"], r["row"])
                             for r in layout["regions"]}
        self.battle_rect: QRectF | None = None
        self.board: dict | None = None
        self.note_text = ""
        self.close_button: CloseButton | None = None
        self._press_taken = False         # the last press went to an item (a counter...)

    def map_rect(self) -> QRectF:
        return self.sceneRect()

    def spot_rect(self, name: str) -> QRectF | None:
        """Where the named spot of the table is drawn now (scene units), for a guided game's
        steps: ``region:N`` (a region, 1-6), ``fleet:B-AF1`` (a counter on the table or, in a
        fight, on the battle map), ``display:blue`` or ``display:red``, ``track:ci`` (the
        Chaos Index track) and ``battle:map`` (the battle map while it is open). None if it is
        not on the table now."""
        kind, _, what = name.partition(":")
        if kind == "region" and what.isdigit():
            return self.region_rects.get(int(what))
        if kind == "fleet" and what in self.counters and self.counters[what].scene() is self:
            return self.counters[what].sceneBoundingRect()
        if kind == "display":
            return DISPLAYS.get(what)
        if kind == "track" and what == "ci":
            return QRectF(TRACK)
        if kind == "battle" and what == "map":
            return QRectF(self.battle_rect) if self.battle_rect is not None else None
        return None

    # ------------------------------------------------------------------ gestures
    def drop(self, fleet_id: str, pos: QPointF) -> None:
        if self.battle_rect is not None and self.battle_rect.contains(pos):
            # Only in the battle mini-map is a counter a target; elsewhere a drop onto a
            # counter means the region or display it stands in.
            for item in self.items(pos):
                if isinstance(item, CounterItem) and item.fleet_id != fleet_id:
                    self.fleet_dropped.emit(fleet_id, f"fleet:{item.fleet_id}")
                    return
            self.fleet_dropped.emit(fleet_id, "battle")
            return
        for n, rect in self.region_rects.items():
            if rect.contains(pos):
                self.fleet_dropped.emit(fleet_id, f"region:{n}")
                return
        for side, rect in DISPLAYS.items():
            if rect.contains(pos):
                self.fleet_dropped.emit(fleet_id, f"display:{side}")
                return
        self.fleet_dropped.emit(fleet_id, "")

    def mousePressEvent(self, event) -> None:
        super().mousePressEvent(event)
        self._press_taken = self.mouseGrabberItem() is not None

    def mouseReleaseEvent(self, event) -> None:
        """A click on a region: a press on the bare table let go where it was. A release that
        ends a counter's drag, a pan, or any drag across the table is no click (a counter
        that may not move, dragged onto a region whose fight may be resolved, resolved it)."""
        taken, self._press_taken = self._press_taken, False
        super().mouseReleaseEvent(event)
        if taken or event.button() != Qt.MouseButton.LeftButton:
            return
        if event.isAccepted() and self.mouseGrabberItem() is not None:
            return
        if dragged(event):
            return
        pos = event.scenePos()
        if any(isinstance(i, CounterItem) for i in self.items(pos)):
            return
        if self.battle_rect is not None and self.battle_rect.contains(pos):
            return
        for n, rect in self.region_rects.items():
            if rect.contains(pos):
                self.region_clicked.emit(n)
                return

    # ------------------------------------------------------------------ drawing
    def show_board(self, board: dict | None, finished_fight: dict | None = None) -> None:
        """Draw ``board``; ``finished_fight`` (the last fight's entry, from before it ended)
        keeps the mini-map open on where that fight's fleets went."""
        self.clear()
        self.close_button = None
        self._target_marks = []
        self.counters = {}
        self.battle_rect = None
        self.board = board
        self.note_text = ""          # the deployment note on the seat's display, if any
        if board is None:
            return
        self._track(board)
        seat = board["seat"]
        plan = board["players"][seat]["plan"] if seat in board["players"] else {}
        for side in ("blue", "red"):
            self._display(board, side, plan)
        for region in board["regions"]:
            self._region(board, region, plan)
        if board["battle"]:
            self._battle(board, board["battle"])
        elif finished_fight is not None:
            self._battle(board, finished_fight, over=True)
        self._text_z = 1

    def _text(self, text: str, rect: QRectF, size=TEXT_PT, bold=False, colour=INK,
              align=Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
              ) -> QGraphicsSimpleTextItem:
        item = self.addSimpleText(text, font(size, bold))
        item.setBrush(colour)
        br = item.boundingRect()
        x = rect.left()
        if align & Qt.AlignmentFlag.AlignHCenter:
            x = rect.center().x() - br.width() / 2
        elif align & Qt.AlignmentFlag.AlignRight:
            x = rect.right() - br.width()
        y = rect.center().y() - br.height() / 2 if align & Qt.AlignmentFlag.AlignVCenter else rect.top()
        item.setPos(x, y)
        item.setZValue(self._text_z)
        return item

    _text_z = 1

    def _counter(self, fleet: dict, x: float, y: float, planned: bool = False) -> CounterItem:
        item = CounterItem(self, fleet, planned)
        item.setPos(x, y)
        self.addItem(item)
        self.counters[fleet["id"]] = item
        return item

    def _grid(self, board: dict, fids: list[str], rect: QRectF, planned=()) -> list[CounterItem]:
        per_row = max(1, int((rect.width() + GAP) // (COUNTER + GAP)))
        return [self._counter(board["fleets"][fid], rect.left() + (k % per_row) * (COUNTER + GAP),
                              rect.top() + (k // per_row) * (COUNTER + GAP), planned=fid in planned)
                for k, fid in enumerate(fids)]

    def _track(self, board: dict) -> None:
        """The turn (left), the Chaos Index 0-100 with this turn's thresholds (middle) and who
        wins where (right): Red wins at or below the left mark, Blue at or above the right one
        (BFG-VIC-3)."""
        t = board["thresholds"]
        scale = TRACK.width() / 100.0
        x_of = lambda v: TRACK.left() + max(0, min(100, v)) * scale    # noqa: E731
        track = self.addRect(TRACK, QPen(INK, 1), QBrush(QColor("white")))
        track.setToolTip(f"Chaos Index {board['ci']}: Red wins at ≤ {t['red_at_most']}, "
                         f"Blue at ≥ {t['blue_at_least']} at the end of this turn")
        red_zone = QRectF(TRACK.left(), TRACK.top(), max(0, t["red_at_most"]) * scale, TRACK.height())
        blue_zone = QRectF(x_of(t["blue_at_least"]), TRACK.top(),
                           TRACK.right() - x_of(t["blue_at_least"]), TRACK.height())
        for zone, side in ((red_zone, "red"), (blue_zone, "blue")):
            item = self.addRect(zone, QPen(Qt.PenStyle.NoPen), QBrush(LIGHT[side]))
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # The marker in the upper half, the scale's numbers in the lower: they never meet.
        for v in range(0, 101, 10):
            self.addLine(x_of(v), TRACK.bottom() - 6, x_of(v), TRACK.bottom(), QPen(MUTED, 1))
            # The end numbers stay inside the track (nothing else's words are beside it).
            left = max(TRACK.left() + 2, min(TRACK.right() - 42, x_of(v) - 20))
            align = (Qt.AlignmentFlag.AlignLeft if v == 0 else Qt.AlignmentFlag.AlignRight
                     if v == 100 else Qt.AlignmentFlag.AlignHCenter)
            self._text(str(v), QRectF(left, TRACK.bottom() - 28, 40, 22), colour=MUTED,
                       align=align | Qt.AlignmentFlag.AlignVCenter)
        ci = board["ci"]
        marker = QRectF(x_of(ci) - 24, TRACK.top() + 4, 48, 32)
        self.addRect(marker, QPen(INK, 1.5), QBrush(ACCENT))
        self._text(str(ci), marker, TITLE_PT, bold=True, align=Qt.AlignmentFlag.AlignCenter)
        box = TURN_BOX
        self._text(f"Turn {board['turn']} of {board['last_turn']}",
                   QRectF(box.left(), box.top(), box.width(), 26), TITLE_PT, bold=True)
        self._text(board["phase_name"], QRectF(box.left(), box.top() + 28, box.width(), 24))
        box = THRESHOLDS_BOX
        self._text(f"Red wins at ≤ {t['red_at_most']}",
                   QRectF(box.left(), box.top(), box.width(), 24), bold=True,
                   colour=COLOURS["red"])
        self._text(f"Blue wins at ≥ {t['blue_at_least']}",
                   QRectF(box.left(), box.top() + 26, box.width(), 24), bold=True,
                   colour=COLOURS["blue"])
        self._text("(Chaos Index, end of turn)",
                   QRectF(box.left(), box.top() + 50, box.width(), 22), colour=MUTED)

    def _display(self, board: dict, side: str, plan: dict) -> None:
        rect = DISPLAYS[side]
        player = board["players"][side]
        self.addRect(rect, QPen(COLOURS[side], 2), QBrush(LIGHT[side]))
        self._text(f"{player['name']} display", QRectF(rect.left() + 8, rect.top() + 4,
                                                       rect.width() - 16, 26), TITLE_PT,
                   bold=True, colour=COLOURS[side])
        chits = (len(board["hand"]) if board["seat"] == side and board["hand"] is not None
                 else player["hand_count"])
        lines = [f"RP {player['rp']}" + (f" (+{player['banked']} banked)" if player["banked"] else ""),
                 f"{chits} chits in hand, {player['own_chits']} in own pool",
                 "Force pool: " + (", ".join(f"{n} {c}" for c, n in player["force_pool"].items())
                                   or "empty"),
                 f"Trans-humans in supply: {player['th_supply']}"]
        # Each line wraps inside the display rather than running out of it.
        y = rect.top() + 32
        for k, line in enumerate(lines):
            item = self._wrapped(line, QPointF(rect.left() + 4, y), rect.width() - 8)
            if k == 1:
                item.setToolTip(self._chits_tooltip(board, side))
            y += item.boundingRect().height() - 4
        counters_top = y + 8
        note = deployment_note(board) if side == board["seat"] else None
        if note is not None:
            box = self._note(QPointF(rect.left() + 6, counters_top - 4), rect.width() - 12,
                             *note)
            counters_top = box.bottom() + 8
        bottom = rect.bottom() - 8
        if side == "blue":
            # The count only: the list would run out of the display (it is in the tooltip).
            common = board["common_pool"]
            pool = self._text(f"Common pool: {len(common)} fleets",
                              QRectF(rect.left() + 8, rect.bottom() - 28, rect.width() - 16, 24),
                              colour=MUTED)
            pool.setToolTip("Common pool: " + (", ".join(common) or "empty"))
            bottom = rect.bottom() - 32
        fids = [f for f in player["display"] if f not in plan]
        self._grid(board, fids, QRectF(rect.left() + 8, counters_top, rect.width() - 16,
                                       bottom - counters_top))

    def _wrapped(self, text: str, at: QPointF, width: float, size: float = TEXT_PT,
                 colour: QColor = INK) -> QGraphicsTextItem:
        """``text`` in the table's font, wrapped to ``width``, its top left at ``at``."""
        item = QGraphicsTextItem()
        item.setFont(font(size))
        item.setDefaultTextColor(colour)
        item.setTextWidth(width)
        item.setPlainText(text)
        item.setPos(at)
        item.setZValue(self._text_z)
        self.addItem(item)
        return item

    def _note(self, at: QPointF, width: float, title: str, detail: str) -> QRectF:
        """A highlighted note on a display, what the seat must still do (deployment), its
        words wrapped to ``width``; returns the box it takes."""
        text = QGraphicsTextItem()
        text.setFont(font(TEXT_PT))        # the item's own font: the size it is drawn at
        text.setTextWidth(width - 8)
        text.setHtml(f"<b>{title}</b><br><span style='color:#4a4f57'>{detail}</span>")
        box = QRectF(at, QSizeF(width, text.boundingRect().height() + 4))
        frame = self.addRect(box, QPen(ACCENT, 2), QBrush(QColor("#fff4d6")))
        frame.setToolTip(f"{title}\n{detail}")
        text.setPos(at + QPointF(4, 2))
        text.setZValue(self._text_z)
        self.addItem(text)
        self.note_text = title
        return box

    @staticmethod
    def _chits_tooltip(board: dict, side: str) -> str:
        """What the chits of ``side`` are, as far as the seat may know: its own hand with what
        each chit does, the other hand only when hands are open."""
        if board["seat"] == side and board["hand"] is not None:
            return "\n".join(f"{c['chit']}: {c['effect']}" for c in board["hand"]) \
                or "No chits in hand"
        shown = board["players"][side]["chits"]
        if shown is not None:
            return f"{side.capitalize()} holds: {', '.join(shown) or 'nothing'}"
        return (f"{side.capitalize()} holds {board['players'][side]['hand_count']} chits, "
                "face down")

    def _region(self, board: dict, region: dict, plan: dict) -> None:
        n = region["number"]
        rect = self.region_rects[n]
        controller = region["controller"]
        fill = LIGHT[controller] if controller else QColor("white")
        pen = QPen(COLOURS[controller] if controller else MUTED, 3 if controller else 1.5)
        box = self.addRect(rect, pen, QBrush(fill))
        box.setToolTip(region["tooltip"])
        chip_w = 46
        self._text(f"{n}  {region['name']}",
                   QRectF(rect.left() + 8, rect.top() + 4, rect.width() - 16 - 3 * chip_w, 26),
                   TITLE_PT, bold=True)
        for k, slot in enumerate("CPR"):
            chip = QRectF(rect.right() - 3 * chip_w + k * chip_w - 4, rect.top() + 5,
                          chip_w - 4, 26)
            self.addRect(chip, QPen(INK, 1), QBrush(QColor("#fff8dc")))
            value = region[slot]
            text = f"{slot}{value if value is not None else '?'}" + ("+" if region["upgraded"][slot] else "")
            self._text(text, chip, bold=True, align=Qt.AlignmentFlag.AlignCenter)
        status = []
        if controller:
            status.append(f"held by {controller.capitalize()}")
        if region["resolved"]:
            status.append("resolved")
        self._text(", ".join(status), QRectF(rect.left() + 8, rect.top() + 32, rect.width() - 16, 22),
                   colour=MUTED)
        top = rect.top() + 56
        garrison_h = COUNTER + 16
        half = (rect.height() - 56 - garrison_h - 6) / 2
        planned_here = [f for f, r in plan.items() if r == n]
        for k, side in enumerate(("blue", "red")):
            area = QRectF(rect.left() + 8, top + k * half, rect.width() - 16, half - 4)
            fids = region["deployed"][side] + [f for f in planned_here
                                               if board["fleets"][f]["owner"] == side]
            self._grid(board, fids, area, planned=planned_here)
        label = QRectF(rect.left() + 6, rect.bottom() - garrison_h - 6, rect.width() - 12,
                       garrison_h)
        self.addRect(label, QPen(MUTED, 1, Qt.PenStyle.DashLine), QBrush(Qt.BrushStyle.NoBrush))
        garrison = region["garrison"]["blue"] + region["garrison"]["red"]
        if garrison:
            self._grid(board, garrison, label.adjusted(4, 8, -4, -2))
        else:
            self._text("garrison", label, colour=MUTED, align=Qt.AlignmentFlag.AlignCenter)
        if region["resolved"]:
            shade = self.addRect(rect, QPen(Qt.PenStyle.NoPen), QBrush(QColor(0, 0, 0, 25)))
            shade.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def _battle(self, board: dict, battle: dict, over: bool = False) -> None:
        """The battle mini-map over the regions: each side's firing line, the targets as
        arrows, and the fleets already sent home or eliminated in this fight. A fight that is
        ``over`` (the last fight, kept until the player closes it) shows where every fleet of
        it went: its garrison on the firing lines, the others in Return to base and
        Eliminated, and a Close button."""
        self._text_z = 27
        rect = REGIONS_AREA
        self.battle_rect = rect
        panel = self.addRect(rect, QPen(INK, 2), QBrush(QColor("white")))
        panel.setZValue(25)        # above the regions and their counters
        if over:
            fates = fight_fates(board, battle)
            region = next(r for r in board["regions"] if r["number"] == battle["region"])
            holder = region["controller"]
            title = (f"Battle in {battle['name']} is over: "
                     + (f"{holder.capitalize()} holds it" if holder else "nobody holds it"))
            firing = {side: [f for f in fates["garrison"] if board["fleets"][f]["owner"] == side]
                      for side in ("blue", "red")}
            removed = {"return": fates["return"], "eliminate": fates["eliminate"]}
            headers = {side: "Garrison" for side in ("blue", "red")}   # in the side's colour
            self._close_button(rect)
        else:
            segment = {"mil": "Military", "morph": "Morph"}.get(battle["segment"], "")
            title = (f"Battle in {battle['name']} (Combat {battle['combat']}) — round "
                     f"{battle['round']}" + (f", {segment} segment" if segment else ""))
            firing = battle["firing"]
            removed = {key: [r["fleet"] for r in battle["removed"] if r["result"] == key]
                       for key in ("return", "eliminate")}
            headers = {side: f"{side.capitalize()} firing" for side in ("blue", "red")}
        title_width = rect.width() - 24 - (CLOSE_BUTTON.width() + 12 if over else 0)
        self._text(title, QRectF(rect.left() + 12, rect.top() + 8, title_width, 28), TITLE_PT,
                   bold=True)
        # Each side's firing line is a column (two counters wide), Blue on the left and Red on
        # the right, so the target arrows cross the open middle. The columns start below the
        # title and the disengagement line (BATTLE_WORDS), so their headers never overlap them.
        column = 2 * COUNTER + GAP
        top = rect.top() + FIRING_TOP
        lines = {"blue": QRectF(rect.left() + 40, top, column, 440),
                 "red": QRectF(rect.right() - 40 - column, top, column, 440)}
        fighting = []
        for side, area in lines.items():
            self.addRect(area.adjusted(-8, -32, 8, 8), QPen(COLOURS[side], 1.5),
                         QBrush(LIGHT[side])).setZValue(26)
            self._text(headers[side], QRectF(area.left() - 8, area.top() - 30, column + 16, 24),
                       bold=True, colour=COLOURS[side], align=Qt.AlignmentFlag.AlignCenter)
            fighting += self._grid(board, [f for f in firing[side] if f in board["fleets"]],
                                   area)
        for item in fighting:
            item.setZValue(30)
        # A target stays declared after the volley; a firer or target that has since left
        # the fight (returned to base: its counter is back on a display) gets no arrow, or
        # a stale arrow would reach out of the mini-map into that display.
        on_the_lines = {item.fleet_id: item for item in fighting}
        for side in ("blue", "red"):
            for firer, order in ({} if over else battle["targets"].get(side, {})).items():
                a, b = on_the_lines.get(firer), on_the_lines.get(order["target"])
                if a is None or b is None:
                    continue
                start = a.pos() + QPointF(COUNTER / 2, COUNTER / 2)
                end = b.pos() + QPointF(COUNTER / 2, COUNTER / 2)
                self._arrow(start, end, COLOURS[side], 4 if order.get("single") else 2.5)
        boxes = {"return": QRectF(rect.left() + 40, rect.bottom() - 160, rect.width() / 2 - 60, 148),
                 "eliminate": QRectF(rect.center().x() + 20, rect.bottom() - 160,
                                     rect.width() / 2 - 60, 148)}
        names = {"return": "Return to base", "eliminate": "Eliminated"}
        for key, box in boxes.items():
            self.addRect(box, QPen(MUTED, 1), QBrush(QColor("#f0f0f0"))).setZValue(26)
            self._text(names[key], QRectF(box.left() + 8, box.top() + 2, box.width() - 16, 24),
                       bold=True, colour=MUTED)
            shown = self._grid(board, [f for f in removed[key] if f in board["fleets"]][:14],
                               QRectF(box.left() + 8, box.top() + 30, box.width() - 16, 112))
            for item in shown:
                item.setZValue(29)
                self.counters.pop(item.fleet_id, None)    # not a fleet of the fight any more
        if over:
            for item in fighting:
                self.counters.pop(item.fleet_id, None)    # the fight is over: nothing to drag
        if battle["disengaged"] and not over:
            words = ", ".join(f"{s.capitalize()} {'disengages' if v else 'stays'}"
                              for s, v in battle["disengaged"].items())
            self._text(words, BATTLE_WORDS.translated(rect.topLeft()), bold=True, colour=INK)

    def _close_button(self, panel: QRectF) -> None:
        """The finished fight's Close button (its place is kept free of the title)."""
        button = CloseButton(self, CLOSE_BUTTON.translated(panel.topLeft()))
        button.setZValue(32)
        self.addItem(button)
        label = self._text("Close", button.rect(), bold=True,
                           align=Qt.AlignmentFlag.AlignCenter)
        label.setZValue(33)
        label.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.close_button = button

    def _arrow(self, start: QPointF, end: QPointF, colour: QColor, width: float) -> None:
        """A target arrow from a firer to its target, its head at the target's edge; drawn over
        the counters, a little transparent, so a long arrow never hides behind another one."""
        import math
        colour = QColor(colour)
        colour.setAlpha(210)
        dx, dy = end.x() - start.x(), end.y() - start.y()
        length = math.hypot(dx, dy) or 1.0
        ux, uy = dx / length, dy / length
        tip = QPointF(end.x() - ux * COUNTER / 2, end.y() - uy * COUNTER / 2)
        line = self.addLine(start.x(), start.y(), tip.x(), tip.y(), QPen(colour, width))
        head = QPolygonF([tip, QPointF(tip.x() - ux * 14 - uy * 7, tip.y() - uy * 14 + ux * 7),
                          QPointF(tip.x() - ux * 14 + uy * 7, tip.y() - uy * 14 - ux * 7)])
        arrowhead = self.addPolygon(head, QPen(colour, 1), QBrush(colour))
        for item in (line, arrowhead):
            item.setZValue(31)
            item.setAcceptedMouseButtons(Qt.MouseButton.NoButton)

    def show_targets(self, fleet_id: str) -> None:
        """Light the places the held counter may be dropped on (ARCHITECTURE section 5)."""
        self.clear_targets()
        pen = QPen(ACCENT, 5)
        fleets = []
        for target in self.drop_targets(fleet_id):
            kind, _, name = target.partition(":")
            rect = (self.region_rects.get(int(name)) if kind == "region"
                    else DISPLAYS.get(name) if kind == "display" else None)
            if rect is not None:
                mark = self.addRect(rect.adjusted(2, 2, -2, -2), pen)
                mark.setZValue(40)
                mark.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
                self._target_marks.append(mark)
            elif kind == "fleet":
                fleets.append(name)
        self.set_highlight(fleets, ACCENT)

    def clear_targets(self) -> None:
        for mark in self._target_marks:
            if mark.scene() is self:
                self.removeItem(mark)
        self._target_marks = []
        self.set_highlight([])

    def set_highlight(self, fleet_ids, colour: QColor | None = None) -> None:
        for fid, item in self.counters.items():
            item.highlight = colour if fid in fleet_ids else None
            item.update()


def render_image(layout: dict, board: dict | None, size=(1600, 1000)):
    """The table of ``board`` as an image of ``size`` pixels (the ``render`` command)."""
    from struggle_desktop.ui.map.render import ensure_fonts, scene_image

    ensure_fonts()
    scene = BattlesScene(layout)
    scene.show_board(board)
    return scene_image(scene, size)
