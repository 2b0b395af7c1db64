"""Hex-map geometry for games played on a rectangle of hexes: pure Python, no Qt.

Written for Noble Houses (rules-nobles.md, NH-MAP-1, NH-MAP-2, NH-MAP-3, NH-MAP-4, NH-MAP-5)
but game-agnostic: it knows hexes, the board's bounds, neighbours, distances, paths and pixels,
never terrain or units.

Conventions (NH-MAP-2):

- A hex is ``Hex(x, y)``, 1-based: x is the column (1 at the left), y the row (1 at the top).
  Plain ``(x, y)`` tuples are accepted wherever a hex is expected.
- Hexes are pointy-topped in an "odd-r" offset layout: rows with *even* y are drawn shifted
  right by half a hex. With ``c = x - 1`` and ``r = y - 1`` the shifted rows are those with
  odd r, the usual odd-r convention.
- Distance, lines and rounding work in cube coordinates ``Cube(q, r, s)`` with
  ``q + r + s == 0`` (NH-MAP-4).

>>> grid = HexGrid(10, 10)
>>> grid.neighbours(Hex(5, 5))          # east, west, north-west, north-east, south-west, south-east
[Hex(x=6, y=5), Hex(x=4, y=5), Hex(x=4, y=4), Hex(x=5, y=4), Hex(x=4, y=6), Hex(x=5, y=6)]
>>> grid.neighbours((1, 1))             # a corner: off-board neighbours are dropped
[Hex(x=2, y=1), Hex(x=1, y=2)]
>>> distance((1, 1), (10, 10))
14
>>> to_cube((4, 3))
Cube(q=2, r=2, s=-4)
>>> from_cube(Cube(2, 2, -4))
Hex(x=4, y=3)
>>> grid.line((1, 1), (4, 1))
[Hex(x=1, y=1), Hex(x=2, y=1), Hex(x=3, y=1), Hex(x=4, y=1)]
>>> len(grid.within((5, 5), 1)), grid.corners()
(7, [Hex(x=1, y=1), Hex(x=10, y=1), Hex(x=1, y=10), Hex(x=10, y=10)])

Movement with obstacles: hexes reachable from (1, 1) in at most 2 steps when (2, 1) is blocked;
the caller then keeps the destinations its rules allow.

>>> grid.reachable((1, 1), 2, passable=lambda h: h != (2, 1))      # hex -> fewest moves
{Hex(x=1, y=1): 0, Hex(x=1, y=2): 1, Hex(x=2, y=2): 2, Hex(x=1, y=3): 2, Hex(x=2, y=3): 2}

Pixels (screen axes: y points down). ``size`` is the circumradius of a hex; the board's
bounding box starts at (0, 0), so hex (1, 1) is centred at ``(sqrt(3) * size / 2, size)``.

>>> grid.center((1, 1), 10)
(8.660254037844386, 10.0)
>>> grid.hex_at(8.7, 10.0, 10), grid.hex_at(-5.0, -5.0, 10)
(Hex(x=1, y=1), None)
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

Point = tuple[float, float]


class Hex(NamedTuple):
    """A hex in offset coordinates, 1-based (NH-MAP-2)."""

    x: int
    y: int


class Cube(NamedTuple):
    """A hex in cube coordinates; ``q + r + s == 0``."""

    q: int
    r: int
    s: int


#: The six directions in the order of the neighbour table of NH-MAP-3: east, west, north-west,
#: north-east, south-west, south-east. In cube terms these are the same for both row parities.
DIRECTIONS: tuple[Cube, ...] = (
    Cube(+1, 0, -1), Cube(-1, 0, +1),   # E, W
    Cube(0, -1, +1), Cube(+1, -1, 0),   # NW, NE
    Cube(-1, +1, 0), Cube(0, +1, -1),   # SW, SE
)

_SQRT3 = math.sqrt(3.0)
# Lines: a lerp point can fall exactly on the edge between two hexes. Nudging both ends by this
# tiny, unequal offset breaks every such tie the same way each time (see HexGrid.line).
_NUDGE = (1e-6, 2e-6, -3e-6)


# ------------------------------------------------------------------------ coordinates
def to_cube(h: tuple[int, int]) -> Cube:
    """Offset (x, y) -> cube (q, r, s), exactly as NH-MAP-4 gives it."""
    c, r = h[0] - 1, h[1] - 1
    q = c - (r - (r & 1)) // 2   # r & 1 is 0 or 1 for negative r too, so off-board hexes work
    return Cube(q, r, -q - r)


def from_cube(cube: tuple[int, int, int]) -> Hex:
    """Cube (q, r, s) -> offset ``Hex(x, y)``; the inverse of :func:`to_cube`."""
    q, r = cube[0], cube[1]
    return Hex(q + (r - (r & 1)) // 2 + 1, r + 1)


def distance(a: tuple[int, int], b: tuple[int, int]) -> int:
    """Steps between two hexes on an empty, unbounded grid: max(|dq|, |dr|, |ds|) (NH-MAP-4).

    A rectangle of hexes needs no detours, so this is also the step count on the board.
    """
    ca, cb = to_cube(a), to_cube(b)
    return max(abs(ca.q - cb.q), abs(ca.r - cb.r), abs(ca.s - cb.s))


def cube_round(q: float, r: float, s: float) -> Cube:
    """The cube hex containing the fractional cube point (q, r, s).

    Round each coordinate, then recompute the one that moved most so that q + r + s == 0.
    """
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Cube(int(rq), int(rr), int(rs))


def cube_line(a: tuple[int, int], b: tuple[int, int], nudge: float = 1.0) -> list[Hex]:
    """The hexes of the straight line from a to b on an unbounded grid, a and b included.

    ``nudge`` (+1 or -1) picks the side on which ties on hex edges fall; see
    :meth:`HexGrid.line`, which also keeps the line on the board.
    """
    n = distance(a, b)
    ca, cb = to_cube(a), to_cube(b)
    ea = [ca[i] + nudge * _NUDGE[i] for i in range(3)]
    eb = [cb[i] + nudge * _NUDGE[i] for i in range(3)]
    if n == 0:
        return [Hex(*a)]
    return [from_cube(cube_round(*(ea[i] + (eb[i] - ea[i]) * k / n for i in range(3))))
            for k in range(n + 1)]


# ---------------------------------------------------------------------------- the board
@dataclass(frozen=True)
class HexGrid:
    """A board of ``width`` x ``height`` hexes (NH-MAP-1: 10 x 10) in the odd-r layout."""

    width: int = 10
    height: int = 10

    def __post_init__(self):
        if self.width < 1 or self.height < 1:
            raise ValueError(f"a hex grid needs at least one hex, not {self.width}x{self.height}")

    # ------------------------------------------------------------------ hexes and bounds
    def contains(self, h: tuple[int, int]) -> bool:
        """True when h lies on the board."""
        return 1 <= h[0] <= self.width and 1 <= h[1] <= self.height

    __contains__ = contains

    def hexes(self) -> list[Hex]:
        """Every hex of the board, row by row from the top, each row left to right."""
        return [Hex(x, y) for y in range(1, self.height + 1) for x in range(1, self.width + 1)]

    def corners(self) -> list[Hex]:
        """The corner hexes: top left, top right, bottom left, bottom right (NH-MAP-5).

        Top left and bottom right have 2 neighbours, the other two 3 (on boards of 2+ rows).
        Duplicates are dropped on one-row or one-column boards.
        """
        found = [Hex(1, 1), Hex(self.width, 1), Hex(1, self.height), Hex(self.width, self.height)]
        return list(dict.fromkeys(found))

    def _check(self, h: tuple[int, int]) -> Hex:
        if not self.contains(h):
            raise ValueError(f"{tuple(h)} is not on the {self.width}x{self.height} board")
        return Hex(*h)

    # ------------------------------------------------------------------ graph
    def neighbours(self, h: tuple[int, int]) -> list[Hex]:
        """The on-board neighbours of h, in the order of NH-MAP-3's table: east, west,
        north-west, north-east, south-west, south-east."""
        c = to_cube(self._check(h))
        found = (from_cube(Cube(c.q + d.q, c.r + d.r, c.s + d.s)) for d in DIRECTIONS)
        return [n for n in found if self.contains(n)]

    def distance(self, a: tuple[int, int], b: tuple[int, int]) -> int:
        """Steps between two hexes of the board (NH-MAP-4); same as the module's
        :func:`distance`."""
        return distance(self._check(a), self._check(b))

    def within(self, h: tuple[int, int], n: int) -> list[Hex]:
        """Every hex of the board at distance <= n from h (h included), in board order."""
        centre = self._check(h)
        # Only rows within n can qualify; scanning them is simpler than walking cube ranges
        # and keeps the board's row-major order.
        rows = range(max(1, centre.y - n), min(self.height, centre.y + n) + 1)
        cols = range(max(1, centre.x - n), min(self.width, centre.x + n) + 1)
        return [Hex(x, y) for y in rows for x in cols if distance(centre, (x, y)) <= n]

    def ring(self, h: tuple[int, int], n: int) -> list[Hex]:
        """The hexes of the board at distance exactly n from h.

        Walked clockwise on screen, starting with the hex n steps east of h; off-board hexes
        are skipped. ``ring(h, 0)`` is ``[h]``; a negative n gives ``[]``.
        """
        centre = self._check(h)
        if n <= 0:
            return [centre] if n == 0 else []
        c = to_cube(centre)
        east = DIRECTIONS[0]
        cur = Cube(c.q + east.q * n, c.r + east.r * n, c.s + east.s * n)
        found = []
        # From the east corner, clockwise on screen, the six sides run SW, W, NW, NE, E, SE.
        for i in (4, 1, 2, 3, 0, 5):
            d = DIRECTIONS[i]
            for _ in range(n):
                hx = from_cube(cur)
                if self.contains(hx):
                    found.append(hx)
                cur = Cube(cur.q + d.q, cur.r + d.r, cur.s + d.s)
        return found

    def line(self, a: tuple[int, int], b: tuple[int, int]) -> list[Hex]:
        """The hexes of the straight line from a to b, both included: distance(a, b) + 1
        hexes, each a neighbour of the one before.

        Where the line runs exactly along hex edges the ties are broken by a fixed nudge, so
        the result is always the same. A vertical line down the first or last column can run
        along the board's zigzag edge; then the nudge is turned the other way round so that
        the line stays on the board (it always can: the segment between two centres never
        leaves the board's outline).
        """
        a, b = self._check(a), self._check(b)
        hexes = cube_line(a, b)
        if not all(self.contains(h) for h in hexes):
            hexes = cube_line(a, b, nudge=-1.0)
        return hexes

    def reachable(self, start: tuple[int, int], steps: int,
                  passable: Callable[[Hex], bool] | None = None,
                  links: Mapping[Hex, Iterable[tuple[int, int]]] | None = None) -> dict[Hex, int]:
        """Hexes reachable from ``start`` in at most ``steps`` moves, each move to a neighbour,
        entering only hexes for which ``passable(hex)`` is true -> the fewest moves needed.

        Written for jump ranges such as Noble Houses' (NH-MOV-3, NH-MOV-4, NH-MOV-5, NH-MOV-6,
        NH-MOV-7, NH-MAP-18): the path may cross any passable hex, and the caller keeps the
        destinations its rules allow (there: system hexes other than the start)::

            reach = grid.reachable(ship, 3, passable=lambda h: h not in obstacles)
            moves = [h for h in reach if h in systems and h != ship]

        - ``start`` is always in the result (0 moves), whether passable or not.
        - ``passable`` applies to every hex the path enters, its end included; None means
          every hex of the board.
        - ``links`` are free crossings such as stargates: from a hex ``h`` the path may jump to
          any hex of ``links[h]`` (if it is passable) for 0 moves, at most once per path. A
          crossing may be taken at the start, on the way, or after the last move.

        The result is ordered by moves, then in board order.
        """
        start = self._check(start)
        ok = passable or (lambda h: True)
        links = links or {}
        # States are (hex, crossed a link yet?). Moves cost 1 and crossings 0: a 0-1 BFS
        # (crossings go to the front of the queue) finds the fewest moves for every state.
        best: dict[tuple[Hex, bool], int] = {(start, False): 0}
        queue = deque([(start, False)])
        while queue:
            state = queue.popleft()
            here, crossed = state
            moves = best[state]
            if not crossed:
                for target in links.get(here, ()):
                    target = Hex(*target)
                    nxt = (target, True)
                    if self.contains(target) and ok(target) and best.get(nxt, moves + 1) > moves:
                        best[nxt] = moves
                        queue.appendleft(nxt)
            if moves >= steps:
                continue
            for n in self.neighbours(here):
                nxt = (n, crossed)
                if ok(n) and best.get(nxt, moves + 2) > moves + 1:
                    best[nxt] = moves + 1
                    queue.append(nxt)
        fewest: dict[Hex, int] = {}
        for (h, _), moves in best.items():
            fewest[h] = min(moves, fewest.get(h, moves))
        return dict(sorted(fewest.items(), key=lambda item: (item[1], item[0].y, item[0].x)))

    # ------------------------------------------------------------------ pixels
    def center(self, h: tuple[int, int], size: float) -> Point:
        """Pixel centre of h for hexes of circumradius ``size``; the board's bounding box
        starts at (0, 0) and y points down."""
        w = _SQRT3 * size
        c, r = h[0] - 1, h[1] - 1
        return (w * (c + 0.5 * (r & 1)) + w / 2, 1.5 * size * r + size)

    def corners_of(self, h: tuple[int, int], size: float) -> list[Point]:
        """The 6 vertices of h's polygon, clockwise on screen from the top vertex."""
        cx, cy = self.center(h, size)
        return [(cx + size * math.cos(math.radians(a)), cy + size * math.sin(math.radians(a)))
                for a in (-90, -30, 30, 90, 150, 210)]

    def hex_at(self, px: float, py: float, size: float) -> Hex | None:
        """The hex of the board containing pixel (px, py), or None off the board.

        A point exactly on an edge goes to one of the two hexes, always the same one.
        """
        # Relative to the centre of (1, 1), which is cube (0, 0, 0).
        x = px - _SQRT3 * size / 2
        y = py - size
        q = (_SQRT3 / 3 * x - y / 3) / size
        r = (2 / 3 * y) / size
        h = from_cube(cube_round(q, r, -q - r))
        return h if self.contains(h) else None

    def board_size_px(self, size: float) -> Point:
        """Width and height in pixels of the board's bounding box for hexes of circumradius
        ``size``."""
        w = _SQRT3 * size
        shifted = 0.5 if self.height > 1 else 0.0   # the shifted rows stick out half a hex
        return (w * (self.width + shifted), 1.5 * size * (self.height - 1) + 2 * size)
