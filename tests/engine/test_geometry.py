"""Plane geometry of map cells (struggle_desktop.engine.geometry), on small hand-made shapes."""

import pytest

from struggle_desktop.engine import geometry as g


def square(x, y, size=1):
    """Clockwise on screen (y down), which is positive for polygon_area."""
    return [[x, y], [x + size, y], [x + size, y + size], [x, y + size]]


def test_polygon_area_is_signed_shoelace():
    sq = square(0, 0, 2)
    assert g.polygon_area(sq) == 4
    assert g.polygon_area(sq[::-1]) == -4
    assert g.polygon_area(sq + [sq[0]]) == 4  # a repeated closing vertex is ignored


def test_centroid():
    assert g.centroid(square(2, 4, 2)) == pytest.approx((3, 5))
    # an L shape: two unit squares side by side and one on top of the left one
    ell = [[0, 0], [0, 2], [1, 2], [1, 1], [2, 1], [2, 0]]
    cx, cy = g.centroid(ell)
    assert (cx, cy) == pytest.approx((5 / 6, 5 / 6))


def test_is_simple():
    assert g.is_simple(square(0, 0))
    assert g.is_simple([[0, 0], [4, 0], [4, 4], [2, 1], [0, 4]])  # concave is fine
    assert not g.is_simple([[0, 0], [2, 2], [2, 0], [0, 2]])       # bow tie
    assert not g.is_simple([[0, 0], [1, 0]])                       # too few vertices
    assert not g.is_simple([[0, 0], [1, 0], [2, 0]])               # no area
    assert not g.is_simple([[0, 0], [2, 0], [1, 0], [1, 1]])       # folds back on itself
    assert not g.is_simple([[0, 0], [1, 0], [1, 1], [1, 1], [0, 1]])  # repeated vertex
    # touches itself: a vertex lies on a non-adjacent edge
    assert not g.is_simple([[0, 0], [4, 0], [4, 4], [2, 0], [0, 4]])
    # pinched: the same point visited twice
    assert not g.is_simple([[0, 0], [2, 2], [4, 0], [4, 4], [2, 2], [0, 4]])


def test_is_simple_on_a_many_sided_outline():
    import math
    circle = [[100 * math.cos(2 * math.pi * i / 500), 100 * math.sin(2 * math.pi * i / 500)]
              for i in range(500)]
    assert g.is_simple(circle)
    circle[250], circle[251] = circle[251], circle[250]  # crossing made by a swap
    assert not g.is_simple(circle)


def test_orient_is_exact_near_collinear():
    assert g.orient((0.1, 0.1), (0.2, 0.2), (0.3, 0.3)) == 0
    assert g.orient((0, 0), (1, 1), (2, 2.000000000001)) == 1


def test_shared_edge_makes_cells_adjacent_sge_map_8():
    """SGE-MAP-8: two cells are adjacent iff their outlines share a segment."""
    cells = {"a": square(0, 0), "b": square(1, 0), "c": square(5, 5)}
    assert g.edge_adjacency(cells) == {frozenset("ab")}


def test_corner_contact_is_not_adjacency_sge_map_7():
    """SGE-MAP-7, SGE-MAP-8: squares that touch only at a corner are not adjacent."""
    cells = {"a": square(0, 0), "b": square(1, 1)}
    assert g.edge_adjacency(cells) == set()
    # a 2x2 block: the diagonal pairs meet at the centre point only
    block = {"nw": square(0, 0), "ne": square(1, 0), "sw": square(0, 1), "se": square(1, 1)}
    pairs = g.edge_adjacency(block)
    assert frozenset(("nw", "se")) not in pairs
    assert frozenset(("ne", "sw")) not in pairs
    assert pairs == {frozenset(p) for p in (("nw", "ne"), ("nw", "sw"), ("ne", "se"),
                                             ("sw", "se"))}
    assert g.partition_problems(block) == []


def test_int_and_float_coordinates_are_the_same_vertex_sge_map_8():
    """SGE-MAP-8: identical vertices are compared by value (500 == 500.0)."""
    cells = {"a": [[0, 0], [0, 1], [1, 1], [1, 0]],
             "b": [[1.0, 0.0], [1.0, 1.0], [2.0, 1.0], [2.0, 0.0]]}
    assert g.edge_adjacency(cells) == {frozenset("ab")}


def test_t_junction_is_found_sge_map_8():
    """SGE-MAP-8: a boundary shared without identical vertices is reported."""
    tall = [[0, 0], [0, 2], [1, 2], [1, 0]]
    cells = {"tall": tall, "top": square(1, 0), "bottom": square(1, 1)}
    found = g.t_junctions(cells)
    assert found == [("tall", (1, 1), "bottom"), ("tall", (1, 1), "top")]
    # the edge hash cannot see the contact of "tall" with the other two
    assert g.edge_adjacency(cells) == {frozenset(("top", "bottom"))}
    assert any("inside an edge" in p for p in g.partition_problems(cells))
    # with the vertex added to the tall cell, all is well
    cells["tall"] = [[0, 0], [0, 2], [1, 2], [1, 1], [1, 0]]
    assert g.t_junctions(cells) == []
    assert g.partition_problems(cells) == []
    assert g.edge_adjacency(cells) == {frozenset(("tall", "top")),
                                       frozenset(("tall", "bottom")),
                                       frozenset(("top", "bottom"))}


def test_partition_finds_overlap_holes_and_bad_polygons_sge_map_8():
    """SGE-MAP-8: cells may not overlap, leave holes, or be self-intersecting."""
    # a 3x3 frame of four cells round an empty middle; n and s carry the corner vertices
    # of w and e on their long edges
    ring = {"n": [[0, 0], [3, 0], [3, 1], [2, 1], [1, 1], [0, 1]],
            "s": [[0, 2], [1, 2], [2, 2], [3, 2], [3, 3], [0, 3]],
            "w": [[0, 1], [1, 1], [1, 2], [0, 2]],
            "e": [[2, 1], [3, 1], [3, 2], [2, 2]]}
    problems = g.partition_problems(ring)
    assert problems and "2 separate loops" in problems[0]  # a hole in the middle
    ring["c"] = square(1, 1)
    assert g.partition_problems(ring) == []
    overlap = {"a": square(0, 0, 2), "b": square(1, 0, 2)}
    assert g.partition_problems(overlap)
    stacked = {"a": square(0, 0), "b": square(0, 0)}
    assert any("twice" in p for p in g.partition_problems(stacked))
    bowtie = {"a": [[0, 0], [2, 2], [2, 0], [0, 2]]}
    assert g.partition_problems(bowtie) == ["polygon of a is not simple"]


def test_outline_of_a_tiling():
    block = {"nw": square(0, 0), "ne": square(1, 0), "sw": square(0, 1), "se": square(1, 1)}
    cycles, problems = g.outline_cycles(block)
    assert problems == []
    assert len(cycles) == 1
    assert sorted(cycles[0]) == sorted({(0, 0), (1, 0), (2, 0), (2, 1), (2, 2), (1, 2),
                                        (0, 2), (0, 1)})
    assert g.polygon_area(cycles[0]) == 4


def test_point_queries():
    c_shape = [[0, 0], [0, 3], [3, 3], [3, 2], [1, 2], [1, 1], [3, 1], [3, 0]]
    assert not g.point_in_polygon(g.centroid(c_shape), c_shape)  # the centroid is outside
    p = g.interior_point(c_shape)
    assert g.point_in_polygon(p, c_shape)
    assert g.interior_point(square(0, 0, 4)) == pytest.approx((2, 2))
    assert g.distance_to_outline((2, 2), square(0, 0, 4)) == pytest.approx(2)
    assert g.distance_to_outline((5, 2), square(0, 0, 4)) == pytest.approx(1)
    assert g.segments_touch((0, 0), (2, 2), (0, 2), (2, 0))
    assert g.segments_touch((0, 0), (2, 0), (2, 0), (3, 5))
    assert not g.segments_touch((0, 0), (1, 0), (2, 0), (3, 0))
