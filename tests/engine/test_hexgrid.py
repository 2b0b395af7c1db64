"""Hex-map geometry (struggle_desktop.engine.hexgrid): the test vectors of the Noble Houses
map rules and properties on the 10 x 10 board (and a few other sizes)."""

import doctest
import math
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from struggle_desktop.engine import hexgrid
from struggle_desktop.engine.hexgrid import (
    Cube,
    Hex,
    HexGrid,
    distance,
    from_cube,
    to_cube,
)

GRID = HexGrid()
ALL = GRID.hexes()

hexes = st.builds(Hex, st.integers(1, 10), st.integers(1, 10))
sizes = st.floats(min_value=0.5, max_value=500.0, allow_nan=False, allow_infinity=False)


def table_neighbours(x, y):
    """NH-MAP-3's table written out literally, before dropping off-board hexes."""
    if y % 2:
        return [(x + 1, y), (x - 1, y), (x - 1, y - 1), (x, y - 1), (x - 1, y + 1), (x, y + 1)]
    return [(x + 1, y), (x - 1, y), (x, y - 1), (x + 1, y - 1), (x, y + 1), (x + 1, y + 1)]


def bfs_steps(start, passable=lambda h: True):
    """Plain breadth-first step counts on the board, as an oracle."""
    steps = {start: 0}
    queue = deque([start])
    while queue:
        h = queue.popleft()
        for n in GRID.neighbours(h):
            if n not in steps and passable(n):
                steps[n] = steps[h] + 1
                queue.append(n)
    return steps


def test_docstring_examples():
    assert doctest.testmod(hexgrid).failed == 0


# ------------------------------------------------------------------------ the rules' vectors
def test_board_is_ten_by_ten_with_one_based_offset_coordinates():
    """NH-MAP-1: 10 x 10 hexes; NH-MAP-2: (x, y) from (1, 1) at the top left to (10, 10)."""
    assert len(ALL) == 100 and len(set(ALL)) == 100
    assert ALL[0] == (1, 1) and ALL[9] == (10, 1) and ALL[-1] == (10, 10)
    assert (0, 1) not in GRID and (1, 11) not in GRID and (10, 10) in GRID
    with pytest.raises(ValueError):
        GRID.neighbours((11, 1))


def test_even_rows_are_drawn_shifted_right_by_half_a_hex():
    """NH-MAP-2: pointy-topped odd-r layout, rows with even y shifted right."""
    size = 10
    w = math.sqrt(3) * size
    (x1, y1), (x2, y2), (x3, y3) = (GRID.center(h, size) for h in [(1, 1), (1, 2), (1, 3)])
    assert x2 - x1 == pytest.approx(w / 2) and x3 == pytest.approx(x1)
    assert y2 - y1 == pytest.approx(1.5 * size) and y3 - y2 == pytest.approx(1.5 * size)
    # pointy top: the first vertex is straight above the centre
    top = GRID.corners_of((1, 1), size)[0]
    assert top == pytest.approx((x1, y1 - size))


@pytest.mark.parametrize("hex_, expected", [
    ((5, 5), {(4, 4), (5, 4), (4, 5), (6, 5), (4, 6), (5, 6)}),
    ((5, 6), {(5, 5), (6, 5), (4, 6), (6, 6), (5, 7), (6, 7)}),
    ((1, 1), {(2, 1), (1, 2)}),
    ((10, 10), {(9, 10), (10, 9)}),
    ((10, 1), {(9, 1), (9, 2), (10, 2)}),
    ((1, 10), {(1, 9), (2, 9), (2, 10)}),
])
def test_neighbour_vectors(hex_, expected):
    """NH-MAP-3's test vectors."""
    found = GRID.neighbours(hex_)
    assert set(found) == expected and len(found) == len(expected)


@pytest.mark.parametrize("hex_", ALL)
def test_neighbours_follow_the_table_in_its_order(hex_):
    """NH-MAP-3: the table's neighbours in the table's order, off-board ones dropped."""
    expected = [h for h in table_neighbours(*hex_) if h in GRID]
    assert GRID.neighbours(hex_) == expected


@pytest.mark.parametrize("a, b, d", [
    ((1, 1), (10, 10), 14), ((10, 1), (1, 10), 13), ((1, 1), (10, 1), 9), ((1, 1), (1, 10), 9),
    ((5, 5), (6, 6), 2), ((5, 6), (6, 5), 1), ((1, 1), (2, 2), 2), ((4, 3), (7, 8), 6),
])
def test_distance_vectors(a, b, d):
    """NH-MAP-4's test vectors, both ways round."""
    assert distance(a, b) == d == distance(b, a) == GRID.distance(a, b)


def test_cube_formula():
    """NH-MAP-4: c = x-1, r = y-1, q = c - (r - (r mod 2)) // 2, s = -q - r."""
    for x, y in ALL:
        c, r = x - 1, y - 1
        q = c - (r - (r % 2)) // 2
        assert to_cube((x, y)) == (q, r, -q - r)


def test_corners_and_their_symmetry():
    """NH-MAP-5: the four corners; (1,1) and (10,10) have 2 neighbours, (10,1) and (1,10)
    have 3; the board is symmetric under a 180-degree turn."""
    assert GRID.corners() == [(1, 1), (10, 1), (1, 10), (10, 10)]
    assert [len(GRID.neighbours(c)) for c in GRID.corners()] == [2, 3, 3, 2]

    def turn(h):
        return Hex(11 - h[0], 11 - h[1])

    for a in ALL:
        assert {turn(n) for n in GRID.neighbours(a)} == set(GRID.neighbours(turn(a)))
        for b in ALL[::7]:
            assert distance(turn(a), turn(b)) == distance(a, b)


# ------------------------------------------------------------------------ graph properties
@given(hexes, hexes)
def test_neighbour_relation_is_symmetric(a, b):
    """NH-MAP-3."""
    assert (b in GRID.neighbours(a)) == (a in GRID.neighbours(b))


@given(hexes, hexes, hexes)
def test_distance_is_a_metric(a, b, c):
    """NH-MAP-4."""
    assert (distance(a, b) == 0) == (a == b)
    assert distance(a, b) == distance(b, a)
    assert distance(a, c) <= distance(a, b) + distance(b, c)


@pytest.mark.parametrize("start", ALL)
def test_distance_is_the_step_count_on_the_empty_board(start):
    """NH-MAP-4: distance equals the number of steps between neighbours."""
    steps = bfs_steps(start)
    assert len(steps) == 100
    assert all(distance(start, h) == n for h, n in steps.items())
    assert all(distance(start, n) == 1 for n in GRID.neighbours(start))


@given(st.integers(-50, 50), st.integers(-50, 50))
def test_offset_cube_round_trip(x, y):
    cube = to_cube((x, y))
    assert sum(cube) == 0
    assert from_cube(cube) == (x, y)
    assert to_cube(from_cube(cube)) == cube


@given(hexes, hexes)
def test_line(a, b):
    line = GRID.line(a, b)
    assert len(line) == distance(a, b) + 1
    assert line[0] == a and line[-1] == b
    assert all(line[i + 1] in GRID.neighbours(line[i]) for i in range(len(line) - 1))


def test_lines_stay_on_the_board_and_are_deterministic():
    """Every line between two hexes of the board, including the vertical ones down the first
    and last columns that run along the board's zigzag edge."""
    for a in ALL:
        for b in ALL:
            line = GRID.line(a, b)
            assert all(h in GRID for h in line), (a, b, line)
    assert GRID.line((10, 2), (10, 4)) == [(10, 2), (10, 3), (10, 4)]
    assert GRID.line((1, 1), (1, 3)) == [(1, 1), (1, 2), (1, 3)]
    assert GRID.line((3, 7), (8, 2)) == GRID.line((3, 7), (8, 2))


@given(hexes, st.integers(0, 15))
def test_within_agrees_with_distance(h, n):
    found = GRID.within(h, n)
    assert found == [g for g in ALL if distance(h, g) <= n]   # contents and board order


@given(hexes, st.integers(0, 15))
def test_ring_agrees_with_distance(h, n):
    found = GRID.ring(h, n)
    assert len(found) == len(set(found))
    assert set(found) == {g for g in ALL if distance(h, g) == n}


def test_ring_order_and_size_in_the_middle():
    ring = GRID.ring((5, 5), 1)
    assert ring[0] == (6, 5)                                 # starts east, then clockwise
    assert ring == [(6, 5), (5, 6), (4, 6), (4, 5), (4, 4), (5, 4)]
    assert len(GRID.ring((5, 5), 2)) == 12 and GRID.ring((5, 5), 0) == [(5, 5)]
    assert GRID.ring((5, 5), -1) == []


# ------------------------------------------------------------------------ reachable
@given(hexes, st.integers(0, 15))
def test_reachable_on_an_open_board_is_within(h, n):
    reach = GRID.reachable(h, n)
    assert set(reach) == set(GRID.within(h, n))
    assert all(steps == distance(h, g) for g, steps in reach.items())


@settings(max_examples=200)
@given(hexes, st.integers(0, 6), st.sets(hexes, max_size=40))
def test_reachable_never_enters_a_blocked_hex(start, n, blocked):
    def passable(h):
        return h not in blocked

    reach = GRID.reachable(start, n, passable)
    assert reach[start] == 0
    assert all(h not in blocked for h in reach if h != start)
    # every hex has a predecessor one move closer: a path through unblocked hexes exists
    for h, steps in reach.items():
        if h != start:
            assert any(reach.get(p) == steps - 1 for p in GRID.neighbours(h))
    # and nothing is missed: an unblocked breadth-first search agrees
    oracle = {h: s for h, s in bfs_steps(start, passable).items() if s <= n}
    assert reach == oracle
    # ordered by moves
    assert list(reach.values()) == sorted(reach.values())


def test_reachable_around_obstacles():
    """The jump examples of the movement rules: range 3, obstacles block, paths go round."""
    def blocking(*obstacles):
        return lambda h: h not in obstacles

    # boxed into a corner: nothing but the start
    assert GRID.reachable((1, 1), 3, blocking((2, 1), (1, 2))) == {(1, 1): 0}
    # round one obstacle: (5,5) -> (7,5) in 3 moves, via (5,4) and (6,4)
    assert GRID.reachable((5, 5), 3, blocking((6, 5)))[(7, 5)] == 3
    # round three: 5 moves, so out of range 3
    walls = blocking((6, 5), (5, 4), (5, 6))
    assert (7, 5) not in GRID.reachable((5, 5), 3, walls)
    assert GRID.reachable((5, 5), 5, walls)[(7, 5)] == 5


def test_reachable_with_a_free_crossing():
    """A link (a stargate pair) costs no move, may be taken on the way, at the start or at
    the end, and at most once per path."""
    links = {Hex(1, 1): [Hex(10, 10)], Hex(10, 10): [Hex(1, 1)]}
    reach = GRID.reachable((2, 1), 1, links=links)
    assert reach[(10, 10)] == 1                      # a move to (1,1), then across
    assert reach[(1, 1)] == 1
    assert (9, 10) not in reach                      # would need a second move
    reach = GRID.reachable((1, 1), 2, links=links)
    assert reach[(10, 10)] == 0 and reach[(9, 9)] == 2
    # at most once: crossing back and forth gains nothing, and a chain is not followed
    chain = {Hex(1, 1): [Hex(5, 5)], Hex(5, 5): [Hex(10, 10)]}
    reach = GRID.reachable((1, 1), 0, links=chain)
    assert set(reach) == {(1, 1), (5, 5)}
    # a link into a blocked hex is not taken
    reach = GRID.reachable((1, 1), 0, passable=lambda h: h != (10, 10), links=links)
    assert set(reach) == {(1, 1)}


# ------------------------------------------------------------------------ pixels
@given(sizes)
def test_hex_at_the_centre_of_every_hex(size):
    for h in ALL:
        assert GRID.hex_at(*GRID.center(h, size), size) == h


@given(hexes, sizes, st.integers(0, 5), st.floats(0.0, 1.0), st.floats(0.0, 0.999))
def test_points_inside_a_polygon_map_to_its_hex(h, size, side, t, depth):
    """A point on the polygon's outline, pulled slightly towards the centre."""
    corners = GRID.corners_of(h, size)
    (ax, ay), (bx, by) = corners[side], corners[(side + 1) % 6]
    ex, ey = ax + (bx - ax) * t, ay + (by - ay) * t
    cx, cy = GRID.center(h, size)
    px, py = cx + (ex - cx) * depth, cy + (ey - cy) * depth
    assert GRID.hex_at(px, py, size) == h


def test_polygon_shape():
    size = 20
    corners = GRID.corners_of((4, 7), size)
    cx, cy = GRID.center((4, 7), size)
    assert len(corners) == 6
    assert all(math.dist((cx, cy), p) == pytest.approx(size) for p in corners)
    assert all(math.dist(corners[i], corners[(i + 1) % 6]) == pytest.approx(size)
               for i in range(6))
    # clockwise on screen (y down): positive shoelace sum
    area2 = sum(corners[i][0] * corners[(i + 1) % 6][1] - corners[(i + 1) % 6][0] * corners[i][1]
                for i in range(6))
    assert area2 / 2 == pytest.approx(3 * math.sqrt(3) / 2 * size * size)
    # neighbours share an edge: two identical vertices (up to rounding)
    for n in GRID.neighbours((4, 7)):
        other = GRID.corners_of(n, size)
        shared = [p for p in corners if any(math.dist(p, o) < 1e-9 for o in other)]
        assert len(shared) == 2


@given(sizes)
def test_board_size_and_off_board_points(size):
    width, height = GRID.board_size_px(size)
    assert width == pytest.approx(10.5 * math.sqrt(3) * size)
    assert height == pytest.approx(15.5 * size)
    xs = [p[0] for h in ALL for p in GRID.corners_of(h, size)]
    ys = [p[1] for h in ALL for p in GRID.corners_of(h, size)]
    assert min(xs) == pytest.approx(0, abs=1e-9) and max(xs) == pytest.approx(width)
    assert min(ys) == pytest.approx(0, abs=1e-9) and max(ys) == pytest.approx(height)
    for point in [(-1, -1), (width + 1, height / 2), (width / 2, height + 1),
                  (size * 0.1, size * 0.1),       # above-left of (1,1)'s upper-left edge
                  (width - size * 0.1, size)]:    # right of (10,1): even rows stick out
        assert GRID.hex_at(*point, size) is None


def test_other_board_sizes():
    one_row = HexGrid(5, 1)
    assert one_row.board_size_px(1) == pytest.approx((5 * math.sqrt(3), 2))
    assert one_row.neighbours((3, 1)) == [(4, 1), (2, 1)]
    assert HexGrid(1, 1).corners() == [(1, 1)]
    wide = HexGrid(20, 4)
    assert wide.distance((1, 1), (20, 4)) == 21   # 3 rows down gain only 1 column
    assert wide.hex_at(*wide.center((20, 4), 7), 7) == (20, 4)
    with pytest.raises(ValueError):
        HexGrid(0, 5)


def test_hex_and_cube_are_plain_tuples():
    assert Hex(3, 4) == (3, 4) and Cube(1, 2, -3) == (1, 2, -3)
    assert hash(Hex(3, 4)) == hash((3, 4))
