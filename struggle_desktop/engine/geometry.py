"""Plane geometry for map cells: pure Python, no numpy or shapely (this runs in the program).

A *polygon* is a list of ``[x, y]`` vertices (lists or tuples of int/float). It is an open
ring: the closing edge from the last vertex back to the first is implied, and a repeated
closing vertex (first == last) is tolerated and ignored.

Maps built for this engine obey SGE-MAP-8: neighbouring cells use *identical* vertex
coordinates along the boundary they share. Under that rule a shared boundary is a set of
polygon edges that appear, vertex for vertex, in both outlines, so adjacency is found by
hashing undirected vertex pairs in O(total edges) (:func:`edge_adjacency`). Cells that meet
at a single point share no edge and are not adjacent (SGE-MAP-7). :func:`t_junctions` finds
the one way this can go wrong (a vertex of one cell lying inside an edge of another), and
:func:`partition_problems` proves that a set of cells tiles one region with no overlaps and
no holes.

Coordinates follow the canvas: origin top left, y pointing down.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Hashable, Iterable, Mapping, Sequence

Point = tuple[float, float]

_EPS_REL = 4.0e-16  # a little more than the rounding error bound of orient() in doubles


def _ring(poly: Sequence[Sequence[float]]) -> list[Point]:
    """The polygon as a list of (x, y) tuples without a repeated closing vertex."""
    pts = [(p[0], p[1]) for p in poly]
    if len(pts) > 1 and pts[0] == pts[-1]:
        pts.pop()
    return pts


def orient(a: Sequence[float], b: Sequence[float], c: Sequence[float]) -> int:
    """Sign of the cross product (b - a) x (c - a): +1, -1, or 0 when a, b, c are collinear.

    Exact: when the floating-point result is too small to trust, it is recomputed with
    fractions (every float is an exact rational).
    """
    t1 = (b[0] - a[0]) * (c[1] - a[1])
    t2 = (b[1] - a[1]) * (c[0] - a[0])
    det = t1 - t2
    bound = _EPS_REL * (abs(t1) + abs(t2))
    if det > bound:
        return 1
    if det < -bound:
        return -1
    fa = (Fraction(a[0]), Fraction(a[1]))
    exact = ((Fraction(b[0]) - fa[0]) * (Fraction(c[1]) - fa[1])
             - (Fraction(b[1]) - fa[1]) * (Fraction(c[0]) - fa[0]))
    return (exact > 0) - (exact < 0)


def polygon_area(poly: Sequence[Sequence[float]]) -> float:
    """Signed area by the shoelace formula.

    Positive when the vertices run counter-clockwise in y-up axes, which on the y-down
    canvas is *clockwise on screen*; negative for the other direction. Take ``abs()`` for
    the plain area.
    """
    pts = _ring(poly)
    n = len(pts)
    s = 0.0
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        s += x1 * y2 - x2 * y1
    return s / 2.0


def centroid(poly: Sequence[Sequence[float]]) -> Point:
    """Area centroid (centre of mass) of a simple polygon; the vertex mean if it has no area.

    The centroid of a non-convex polygon may lie outside it; see :func:`point_in_polygon`.
    """
    pts = _ring(poly)
    n = len(pts)
    if n == 0:
        raise ValueError("empty polygon")
    ox, oy = pts[0]  # work relative to a vertex for accuracy
    a2 = cx = cy = 0.0
    for i in range(n):
        x1, y1 = pts[i][0] - ox, pts[i][1] - oy
        x2, y2 = pts[(i + 1) % n][0] - ox, pts[(i + 1) % n][1] - oy
        cross = x1 * y2 - x2 * y1
        a2 += cross
        cx += (x1 + x2) * cross
        cy += (y1 + y2) * cross
    if a2 == 0:
        return (sum(p[0] for p in pts) / n, sum(p[1] for p in pts) / n)
    return (ox + cx / (3.0 * a2), oy + cy / (3.0 * a2))


def _on_segment(p: Point, a: Point, b: Point) -> bool:
    """True if p lies on the closed segment a-b (p, a, b known to be collinear)."""
    return (min(a[0], b[0]) <= p[0] <= max(a[0], b[0])
            and min(a[1], b[1]) <= p[1] <= max(a[1], b[1]))


def segments_touch(a: Point, b: Point, c: Point, d: Point) -> bool:
    """True if the closed segments a-b and c-d have at least one point in common."""
    o1, o2 = orient(a, b, c), orient(a, b, d)
    o3, o4 = orient(c, d, a), orient(c, d, b)
    if o1 * o2 < 0 and o3 * o4 < 0:
        return True  # proper crossing
    if o1 == 0 and _on_segment(c, a, b):
        return True
    if o2 == 0 and _on_segment(d, a, b):
        return True
    if o3 == 0 and _on_segment(a, c, d):
        return True
    if o4 == 0 and _on_segment(b, c, d):
        return True
    return False


def is_simple(poly: Sequence[Sequence[float]]) -> bool:
    """True if the polygon is simple: at least 3 vertices, no zero-length edge, non-zero area,
    and no two edges meet except consecutive edges at their common vertex.

    Runs a sort-and-sweep over the edges' x-extents, so typical outlines cost about
    O(n log n) rather than O(n^2).
    """
    pts = _ring(poly)
    n = len(pts)
    if n < 3 or len(set(pts)) != n:  # a repeated vertex is a pinch or a zero-length edge
        return False
    if polygon_area(pts) == 0:
        return False
    # Consecutive edges a-b, b-c may only share b: they must not fold back onto each other.
    for i in range(n):
        a, b, c = pts[i - 1], pts[i], pts[(i + 1) % n]
        if orient(a, b, c) == 0 and ((b[0] - a[0]) * (c[0] - b[0])
                                     + (b[1] - a[1]) * (c[1] - b[1])) < 0:
            return False
    if n == 3:
        return True
    edges = []
    for i in range(n):
        a, b = pts[i], pts[(i + 1) % n]
        edges.append((min(a[0], b[0]), max(a[0], b[0]), min(a[1], b[1]), max(a[1], b[1]), i))
    edges.sort()
    active: list[tuple] = []
    for e in edges:
        xmin = e[0]
        active = [f for f in active if f[1] >= xmin]
        i = e[4]
        a, b = pts[i], pts[(i + 1) % n]
        for f in active:
            j = f[4]
            if f[3] < e[2] or e[3] < f[2]:
                continue
            if (i - j) % n in (1, n - 1):
                continue  # consecutive edges, checked above
            if segments_touch(a, b, pts[j], pts[(j + 1) % n]):
                return False
        active.append(e)
    return True


def point_in_polygon(pt: Sequence[float], poly: Sequence[Sequence[float]]) -> bool:
    """True if the point lies strictly inside the polygon (even-odd rule).

    Points exactly on the outline may go either way; use :func:`distance_to_outline` when
    that matters.
    """
    x, y = pt[0], pt[1]
    pts = _ring(poly)
    inside = False
    n = len(pts)
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        if (y1 > y) != (y2 > y):
            xc = x1 + (y - y1) * (x2 - x1) / (y2 - y1)
            if xc > x:
                inside = not inside
    return inside


def distance_to_outline(pt: Sequence[float], poly: Sequence[Sequence[float]]) -> float:
    """Shortest Euclidean distance from the point to the polygon's outline."""
    px, py = pt[0], pt[1]
    pts = _ring(poly)
    best = float("inf")
    n = len(pts)
    for i in range(n):
        x1, y1 = pts[i]
        x2, y2 = pts[(i + 1) % n]
        dx, dy = x2 - x1, y2 - y1
        ll = dx * dx + dy * dy
        t = 0.0 if ll == 0 else max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / ll))
        qx, qy = x1 + t * dx - px, y1 + t * dy - py
        best = min(best, (qx * qx + qy * qy) ** 0.5)
    return best


def interior_point(poly: Sequence[Sequence[float]]) -> Point:
    """A point inside a simple polygon, for a label: the centroid if it lies inside,
    otherwise the middle of the widest horizontal span across the polygon."""
    c = centroid(poly)
    if point_in_polygon(c, poly):
        return c
    pts = _ring(poly)
    ys = [p[1] for p in pts]
    lo, hi = min(ys), max(ys)
    best, best_w = c, -1.0
    n = len(pts)
    for i in range(1, 64):
        y = lo + (hi - lo) * (i + 0.5) / 64.5
        xs = []
        for j in range(n):
            (x1, y1), (x2, y2) = pts[j], pts[(j + 1) % n]
            if (y1 > y) != (y2 > y):
                xs.append(x1 + (y - y1) * (x2 - x1) / (y2 - y1))
        xs.sort()
        for a, b in zip(xs[::2], xs[1::2]):
            if b - a > best_w:
                best, best_w = ((a + b) / 2, y), b - a
    return best


def _edges(pts: list[Point]) -> Iterable[tuple[Point, Point]]:
    n = len(pts)
    for i in range(n):
        yield pts[i], pts[(i + 1) % n]


def _ukey(p: Point, q: Point) -> tuple[Point, Point]:
    """Undirected edge key. Coordinates compare by value, so 500 and 500.0 are one vertex."""
    return (p, q) if p <= q else (q, p)


def edge_adjacency(cells: Mapping[Hashable, Sequence[Sequence[float]]]) -> set[frozenset]:
    """Pairs of cells whose outlines share at least one edge of positive length (SGE-MAP-8).

    ``cells`` maps a cell id to its polygon. Relies on identical vertices along shared
    boundaries (SGE-MAP-8): every undirected vertex pair is hashed once, so the cost is
    O(total edges). Cells that touch only at a vertex share no edge and are not adjacent
    (SGE-MAP-7). Zero-length edges (repeated vertices) are ignored.
    """
    owners: dict[tuple[Point, Point], set] = {}
    for cid, poly in cells.items():
        for p, q in _edges(_ring(poly)):
            if p != q:
                owners.setdefault(_ukey(p, q), set()).add(cid)
    pairs: set[frozenset] = set()
    for ids in owners.values():
        if len(ids) > 1:
            ids = sorted(ids, key=str)
            for i, a in enumerate(ids):
                for b in ids[i + 1:]:
                    pairs.add(frozenset((a, b)))
    return pairs


def t_junctions(cells: Mapping[Hashable, Sequence[Sequence[float]]]
                ) -> list[tuple[Hashable, Point, Hashable]]:
    """Vertices that lie strictly inside an edge of a cell (SGE-MAP-8 forbids them).

    Returns ``(edge_owner, vertex, vertex_owner)`` triples, sorted. A T-junction means the two
    cells do not use identical vertices along their common boundary, so the edge hash of
    :func:`edge_adjacency` would miss it. Uses a uniform grid, so it is close to linear.
    """
    rings = {cid: _ring(poly) for cid, poly in cells.items()}
    allpts = [p for pts in rings.values() for p in pts]
    if not allpts:
        return []
    xs = [p[0] for p in allpts]
    ys = [p[1] for p in allpts]
    span = max(max(xs) - min(xs), max(ys) - min(ys), 1e-9)
    size = span / 128.0
    x0, y0 = min(xs), min(ys)
    grid: dict[tuple[int, int], list] = {}
    for cid, pts in rings.items():
        for p, q in _edges(pts):
            if p == q:
                continue
            i0, i1 = int((min(p[0], q[0]) - x0) // size), int((max(p[0], q[0]) - x0) // size)
            j0, j1 = int((min(p[1], q[1]) - y0) // size), int((max(p[1], q[1]) - y0) // size)
            for i in range(i0, i1 + 1):
                for j in range(j0, j1 + 1):
                    grid.setdefault((i, j), []).append((cid, p, q))
    found = set()
    for vid, pts in rings.items():
        for v in set(pts):
            key = (int((v[0] - x0) // size), int((v[1] - y0) // size))
            for cid, p, q in grid.get(key, ()):
                if v == p or v == q:
                    continue
                if orient(p, q, v) == 0 and _on_segment(v, p, q):
                    found.add((cid, v, vid))
    return sorted(found, key=lambda t: (str(t[0]), t[1], str(t[2])))


def outline_cycles(cells: Mapping[Hashable, Sequence[Sequence[float]]]
                   ) -> tuple[list[list[Point]], list[str]]:
    """The outline of the union of the cells, as closed vertex cycles, plus any problems.

    Every cell is taken with positive orientation (see :func:`polygon_area`). Each directed
    edge cancels against the same edge run the other way in a neighbouring cell; what is
    left is the outline of the union. Problems (as readable strings) are edges used twice in
    the same direction (overlap) and outline vertices where the outline touches itself.
    """
    net: dict[tuple[Point, Point], int] = {}
    problems: list[str] = []
    for cid, poly in cells.items():
        pts = _ring(poly)
        if polygon_area(pts) < 0:
            pts.reverse()
        for p, q in _edges(pts):
            if p == q:
                continue
            k = _ukey(p, q)
            net[k] = net.get(k, 0) + (1 if k == (p, q) else -1)
    succ: dict[Point, Point] = {}
    for (p, q), m in net.items():
        if m == 0:
            continue
        if abs(m) > 1:
            problems.append(f"edge {list(p)}-{list(q)} is covered twice from the same side "
                            f"(cells overlap)")
            continue
        a, b = (p, q) if m > 0 else (q, p)
        if a in succ:
            problems.append(f"the outline touches itself at {list(a)}")
            continue
        succ[a] = b
    cycles = []
    seen: set[Point] = set()
    for start in sorted(succ):
        if start in seen:
            continue
        cyc = []
        v = start
        while v not in seen:
            seen.add(v)
            cyc.append(v)
            if v not in succ:
                problems.append(f"the outline is open at {list(v)}")
                break
            v = succ[v]
        cycles.append(cyc)
    return cycles, problems


def partition_problems(cells: Mapping[Hashable, Sequence[Sequence[float]]]) -> list[str]:
    """Why the cells do not tile one region without overlaps or holes; empty if they do.

    Checks (SGE-MAP-8): every polygon is simple; no vertex lies inside another edge
    (identical shared vertices); after cancelling shared edges the remaining edges form one
    simple, positively oriented closed loop. Together these prove the tiling: summed over
    all (simple, positively oriented) cells, the winding numbers equal the winding number
    of that loop, which is 1 inside it and 0 outside, so every point of the region lies in
    exactly one cell. The cell areas must then add up to the area inside the loop.
    """
    problems = [f"polygon of {cid} is not simple" for cid, poly in cells.items()
                if not is_simple(poly)]
    if problems:
        return problems
    for owner, v, vid in t_junctions(cells):
        problems.append(f"vertex {list(v)} of {vid} lies inside an edge of {owner} "
                        f"(shared boundaries must use identical vertices)")
    cycles, more = outline_cycles(cells)
    problems += more
    if problems:
        return problems
    if len(cycles) != 1:
        return [f"the cells' outline has {len(cycles)} separate loops: the cells must cover "
                f"one region with no holes"]
    loop = cycles[0]
    if not is_simple(loop) or polygon_area(loop) <= 0:
        return ["the outline of all cells is not a simple loop"]
    total = sum(abs(polygon_area(p)) for p in cells.values())
    outer = polygon_area(loop)
    if abs(total - outer) > 1e-6 * max(outer, 1.0):
        return [f"the cell areas add up to {total:.3f}, the outline encloses {outer:.3f}"]
    return []
