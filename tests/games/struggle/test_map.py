"""The shipped galaxy map, assets/maps/struggle-galaxy.yaml, against the map rules.

Each test names the rules it checks. The map is read once with yaml.safe_load; tests that
break it work on deep copies.
"""

import copy
import math
from pathlib import Path

import networkx as nx
import pytest
import yaml

from struggle_desktop.engine import geometry
from struggle_desktop.games.struggle.galaxy import (
    MapError,
    MapIssue,
    check_galaxy,
    load_galaxy,
)

REPO = Path(__file__).resolve().parents[3]
MAP_PATH = REPO / "assets" / "maps" / "struggle-galaxy.yaml"

ARMS = ["Norma", "Scutum-Centaurus", "Sagittarius", "Orion", "Perseus", "Outer"]

# SGE-MAP-15, transcribed from the rules reference: number -> (name, arm, system symbol)
ROSTER = {
    1: ("Imperial Core", "Core", True), 2: ("Norma Gate", "Norma", True),
    3: ("Scutum Gate", "Scutum-Centaurus", True), 4: ("Sagittarius Gate", "Sagittarius", True),
    5: ("Orion Gate", "Orion", True), 6: ("Perseus Gate", "Perseus", True),
    7: ("Camelopardalis Drift", "Outer", False), 8: ("Ara Cluster", "Norma", True),
    9: ("Centaurus Prime", "Scutum-Centaurus", True), 10: ("Lagoon", "Sagittarius", True),
    11: ("Sol March", "Orion", True), 12: ("Cassiopeia", "Perseus", True),
    13: ("Lynx Bastion", "Outer", True), 14: ("Circinus", "Norma", True),
    15: ("Crux Shoals", "Scutum-Centaurus", False), 16: ("Trifid", "Sagittarius", True),
    17: ("Cygnus", "Orion", True), 18: ("Cepheus", "Perseus", True),
    19: ("Ursa Drift", "Outer", False), 20: ("Norma Deep", "Norma", True),
    21: ("Hadar", "Scutum-Centaurus", True), 22: ("Star Cloud Reach", "Sagittarius", False),
    23: ("Lyra", "Orion", True), 24: ("Double Cluster Drift", "Perseus", False),
    25: ("Draco", "Outer", True), 26: ("Triangulum Australe", "Norma", True),
    27: ("Musca", "Scutum-Centaurus", True), 28: ("Omega Nebula", "Sagittarius", True),
    29: ("Gould Belt", "Orion", False), 30: ("Auriga", "Perseus", True),
    31: ("Halcyon", "Outer", True), 32: ("Lupus March", "Norma", True),
    33: ("Coalsack Marches", "Scutum-Centaurus", True), 34: ("Aquila Rift", "Sagittarius", False),
    35: ("Rigel", "Orion", True), 36: ("Heart Nebula", "Perseus", True),
    37: ("Far Cygnus", "Outer", True), 38: ("Kestrel Drift", "Norma", False),
    39: ("Carina", "Scutum-Centaurus", True), 40: ("Serpens", "Sagittarius", True),
    41: ("Betelgeuse", "Orion", True), 42: ("Monoceros", "Perseus", True),
    43: ("Morrow's Reach", "Outer", True), 44: ("Vantor's Veil", "Norma", False),
    45: ("Eta Carinae", "Scutum-Centaurus", True), 46: ("Eagle Nebula", "Sagittarius", True),
    47: ("Horsehead", "Orion", True), 48: ("Gemini", "Perseus", True),
    49: ("Tyrean Throne", "Outer", True), 50: ("Norma Terminus", "Norma", True),
    51: ("Vela Drift", "Scutum-Centaurus", False),
    52: ("Sagittarius Terminus", "Sagittarius", True), 53: ("Puppis", "Orion", True),
    54: ("Algol Drift", "Perseus", False), 55: ("Rim of Night", "Outer", True),
    56: ("Centaurus Terminus", "Scutum-Centaurus", True),
    57: ("Perseus Terminus", "Perseus", True), 58: ("Orion Verge", "Rim", False),
    59: ("Sable Gap", "Inter-arm", False), 60: ("Hollow Reach", "Inter-arm", False),
    61: ("Grey Expanse", "Inter-arm", False), 62: ("Local Gap", "Inter-arm", False),
    63: ("Dusk Reach", "Inter-arm", False), 64: ("Shadow Gap", "Inter-arm", False),
    65: ("Ashfall Expanse", "Inter-arm", False), 66: ("Ember Gap", "Inter-arm", False),
    67: ("Mirren Gulf", "Inter-arm", False), 68: ("Tethys Drift", "Inter-arm", False),
    69: ("Karst Gulf", "Inter-arm", False), 70: ("Veil of Sorrows", "Inter-arm", False),
    71: ("Lacuna Prime", "Inter-arm", False), 72: ("Silent Deep", "Inter-arm", False),
    73: ("Last Light", "Inter-arm", False), 74: ("Farholm", "Inter-arm", False),
    75: ("Wraith Expanse", "Inter-arm", False), 76: ("Edge of Night", "Inter-arm", False),
}


# ----------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def raw():
    """The map as yaml.safe_load reads it (with libyaml's safe loader when present: the
    same result, several times faster)."""
    with MAP_PATH.open(encoding="utf-8") as fh:
        if hasattr(yaml, "CSafeLoader"):
            return yaml.load(fh, Loader=yaml.CSafeLoader)
        return yaml.safe_load(fh)


@pytest.fixture
def data(raw):
    """A private copy of the map that a test may break."""
    return copy.deepcopy(raw)


@pytest.fixture(scope="module")
def galaxy(raw):
    return load_galaxy(copy.deepcopy(raw))


@pytest.fixture(scope="module")
def sectors(raw):
    return {s["number"]: s for s in raw["sectors"]}


@pytest.fixture(scope="module")
def cells(raw):
    """Every outline, sectors by number and Void cells by id."""
    out = {s["number"]: s["polygon"] for s in raw["sectors"]}
    out.update({v["id"]: v["polygon"] for v in raw["void_cells"]})
    return out


@pytest.fixture(scope="module")
def adjacency(cells):
    """Derived adjacency of all cells (SGE-MAP-8): cell -> set of cells."""
    adj = {c: set() for c in cells}
    for pair in geometry.edge_adjacency(cells):
        a, b = tuple(pair)
        adj[a].add(b)
        adj[b].add(a)
    return adj


def nb(galaxy, n):
    return set(galaxy.neighbours[n])


def rules_of(issues):
    return {i.rule for i in issues}


# ----------------------------------------------------------------------------- the file


def test_file_fields_sge_map_1(raw):
    """SGE-MAP-1: the top-level fields, the canvas and every entry's fields and types."""
    assert set(raw) == {"id", "title", "reconstructed", "rules", "canvas", "sectors",
                        "void_cells"}
    assert raw["id"] == "struggle-galaxy"
    assert isinstance(raw["title"], str) and raw["title"]
    assert raw["reconstructed"] is True
    assert raw["canvas"] == {"width": 1000, "height": 1000}
    assert {f"SGE-MAP-{i}" for i in range(1, 12)} <= set(raw["rules"])
    allowed = {"Core", "Norma", "Scutum-Centaurus", "Sagittarius", "Orion", "Perseus", "Outer",
               "Inter-arm", "Rim"}
    for s in raw["sectors"]:
        assert {"number", "name", "arm", "is_system", "is_core", "polygon"} <= set(s)
        assert set(s) <= {"number", "name", "arm", "is_system", "is_core", "polygon",
                          "label_at", "neighbours"}
        assert s["arm"] in allowed
        assert isinstance(s["is_system"], bool) and isinstance(s["is_core"], bool)
    ids = [v["id"] for v in raw["void_cells"]]
    assert ids == [f"V{i:02d}" for i in range(1, len(ids) + 1)]
    assert set(raw["void_cells"][0]) == {"id", "polygon"}


def test_coordinates_on_canvas_and_file_small_sge_map_1(raw):
    """SGE-MAP-1: all points are [x, y] pairs on the 1000 x 1000 canvas, at most one
    decimal; the file stays small."""
    assert MAP_PATH.stat().st_size < 300_000
    polys = [s["polygon"] for s in raw["sectors"]] + [v["polygon"] for v in raw["void_cells"]]
    for poly in polys:
        assert 3 <= len(poly) <= 200
        for x, y in poly:
            assert 0 <= x <= 1000 and 0 <= y <= 1000
            assert round(x, 1) == x and round(y, 1) == y


def test_sector_numbers_sge_map_2(raw):
    """SGE-MAP-2: sectors 01 to 76, each exactly once, no gaps."""
    numbers = [s["number"] for s in raw["sectors"]]
    assert sorted(numbers) == list(range(1, 77))
    assert len(set(numbers)) == 76


def test_roster_sge_map_15(raw):
    """SGE-MAP-15, SGE-MAP-1: names, arms and system flags exactly as in the roster; names
    unique."""
    got = {s["number"]: (s["name"], s["arm"], s["is_system"]) for s in raw["sectors"]}
    assert got == ROSTER
    names = [s["name"] for s in raw["sectors"]]
    assert len(set(names)) == len(names)


def test_system_sectors_sge_map_4(sectors):
    """SGE-MAP-4: 46 system sectors, all in 01-57, with the stated distribution."""
    systems = {n for n, s in sectors.items() if s["is_system"]}
    assert len(systems) == 46
    assert max(systems) <= 57
    assert {1, 13, 17, 49, 57} <= systems
    assert not systems & set(range(58, 77))

    def count(lo, hi):
        return sum(1 for n in systems if lo <= n <= hi)

    assert count(1, 9) == 8
    assert count(1, 17) == 15
    assert count(1, 25) == 20
    assert count(1, 40) == 32
    assert count(26, 57) == 26


def test_system_sectors_lie_on_the_arms_sge_map_14(sectors):
    """SGE-MAP-14: system symbols mark the settled arms; the regions between are sparse."""
    for n, s in sectors.items():
        if s["is_system"]:
            assert s["arm"] not in ("Inter-arm", "Rim")


def test_core_sge_map_3(raw, sectors):
    """SGE-MAP-3: sector 01 is the only Core, a system sector, at the centre of the canvas."""
    cores = [s["number"] for s in raw["sectors"] if s["is_core"]]
    assert cores == [1]
    core = sectors[1]
    assert core["is_system"] and core["arm"] == "Core"
    assert geometry.point_in_polygon((500, 500), core["polygon"])
    assert geometry.centroid(core["polygon"]) == pytest.approx((500, 500), abs=0.5)
    # the centre of the whole map is the centre of the canvas too
    everything = [p for c in raw["sectors"] + raw["void_cells"] for p in c["polygon"]]
    xs, ys = [p[0] for p in everything], [p[1] for p in everything]
    assert (min(xs) + max(xs)) / 2 == pytest.approx(500, abs=1)
    assert (min(ys) + max(ys)) / 2 == pytest.approx(500, abs=1)


# ----------------------------------------------------------------------------- geometry


def test_polygons_are_simple_sge_map_8(cells):
    """SGE-MAP-8: no outline intersects itself."""
    bad = [c for c, poly in cells.items() if not geometry.is_simple(poly)]
    assert bad == []


def test_cells_tile_one_region_without_overlap_or_holes_sge_map_8(cells):
    """SGE-MAP-8: identical shared vertices (no T-junctions), every edge shared by at most
    two cells, and the cell areas add up to the area inside the single outer outline."""
    assert geometry.t_junctions(cells) == []
    uses = {}
    for c, poly in cells.items():
        for i, p in enumerate(poly):
            q = poly[(i + 1) % len(poly)]
            key = tuple(sorted((tuple(p), tuple(q))))
            uses.setdefault(key, []).append(c)
    assert max(len(v) for v in uses.values()) == 2
    assert all(len(set(v)) == len(v) for v in uses.values())
    cycles, problems = geometry.outline_cycles(cells)
    assert problems == [] and len(cycles) == 1
    outer = geometry.polygon_area(cycles[0])
    total = sum(abs(geometry.polygon_area(p)) for p in cells.values())
    assert total == pytest.approx(outer, rel=1e-9)
    assert geometry.partition_problems(cells) == []
    # and the outline is the rim of a disc round the Core, well inside the canvas
    r = [math.hypot(x - 500, y - 500) for x, y in cycles[0]]
    assert min(r) > 480 and max(r) < 500


def test_no_overlap_by_shapely_sge_map_8(cells):
    """SGE-MAP-8: cross-check with shapely (a development dependency) that no two cells
    overlap and that together they form one region with no holes."""
    shapely = pytest.importorskip("shapely")
    from shapely.geometry import Polygon
    from shapely.strtree import STRtree
    ids = list(cells)
    polys = [Polygon(cells[c]) for c in ids]
    assert all(p.is_valid for p in polys)
    tree = STRtree(polys)
    for i, p in enumerate(polys):
        for j in tree.query(p):
            if j > i:
                assert p.intersection(polys[j]).area < 1e-6, (ids[i], ids[j])
    union = shapely.union_all(polys)
    assert union.geom_type == "Polygon"
    assert len(union.interiors) == 0
    assert union.area == pytest.approx(sum(p.area for p in polys), rel=1e-9)


def test_adjacency_needs_a_shared_edge_sge_map_7(cells, adjacency):
    """SGE-MAP-7, SGE-MAP-8: cells that meet at a single point are not adjacent. The shipped
    map has such corner contacts (arm tips and Void cells); none counts as adjacency."""
    by_vertex = {}
    for c, poly in cells.items():
        for p in poly:
            by_vertex.setdefault(tuple(p), set()).add(c)
    touching = set()
    for owners in by_vertex.values():
        for a in owners:
            for b in owners:
                if str(a) < str(b):
                    touching.add((a, b))
    corner_only = {(a, b) for a, b in touching if b not in adjacency[a]}
    assert (50, "V02") in corner_only  # Norma's tip meets the Void over gap 1 at a corner
    assert len(corner_only) >= 12
    for a, b in corner_only:
        assert b not in adjacency[a] and a not in adjacency[b]


def test_neighbours_field_equals_derived_adjacency_sge_map_1_sge_map_8(raw, adjacency):
    """SGE-MAP-1, SGE-MAP-8: the optional neighbours lists equal the adjacency derived from
    the outlines."""
    for s in raw["sectors"]:
        derived = sorted(m for m in adjacency[s["number"]] if isinstance(m, int))
        assert s["neighbours"] == derived, s["number"]


def test_adjacency_is_symmetric_sge_map_8(galaxy):
    """SGE-MAP-8: adjacency is a relation between two cells, the same both ways."""
    for n, ms in galaxy.neighbours.items():
        assert n not in ms
        assert list(ms) == sorted(ms)
        for m in ms:
            assert n in galaxy.neighbours[m]


# ----------------------------------------------------------------------------- the Void


def test_void_ring_is_closed_sge_map_5_sge_map_6(cells, adjacency, raw):
    """SGE-MAP-5, SGE-MAP-6: the Void is a closed ring of cells round every sector: the map's
    outer outline is made of Void edges only, no sector reaches it, and the Void cells
    form one ring."""
    voids = [v["id"] for v in raw["void_cells"]]
    assert len(voids) >= 3
    cycles, _ = geometry.outline_cycles(cells)
    rim = set(cycles[0])
    for s in raw["sectors"]:
        assert not rim & {tuple(p) for p in s["polygon"]}, s["number"]
    void_graph = nx.Graph()
    void_graph.add_nodes_from(voids)
    void_graph.add_edges_from((a, b) for a in voids for b in adjacency[a] if b in voids)
    assert nx.is_connected(void_graph)
    assert all(d == 2 for _, d in void_graph.degree)  # a ring, not a chain
    assert len(nx.cycle_basis(void_graph)) == 1
    for v in voids:  # every Void cell is on the rim
        assert rim & {tuple(p) for p in cells[v]}


def test_void_adjacent_sectors_sge_map_6(galaxy):
    """SGE-MAP-6: the listed sectors are Void-adjacent and nothing within distance 3 of
    the Core is. (This map makes the listed ones the only Void-adjacent sectors.)"""
    listed = {50, 52, 53, 55, 56, 57, 58} | set(range(71, 77))
    assert listed <= galaxy.void_adjacent
    assert galaxy.void_adjacent == listed
    assert not {n for n in galaxy.void_adjacent if galaxy.dist_to_core[n] <= 3}
    assert galaxy.within(1, 3).isdisjoint(galaxy.void_adjacent)


# ----------------------------------------------------------------------------- layout


def test_core_touches_exactly_ring_one_sge_map_10(galaxy):
    """SGE-MAP-10: the Core is adjacent to exactly 02-07."""
    assert galaxy.neighbours[1] == (2, 3, 4, 5, 6, 7)


@pytest.mark.parametrize("a, arm", list(enumerate(ARMS)))
def test_arms_run_in_rings_sge_map_10(galaxy, a, arm):
    """SGE-MAP-10: ring k of an arm is sector 6k-4+a; consecutive sectors along the arm
    are adjacent (Norma 01-02-08-...-50; 56 after 51; 57 after 54)."""
    chain = [1] + [6 * k - 4 + a for k in range(1, 10)]
    if arm == "Scutum-Centaurus":
        chain.append(56)
    if arm == "Perseus":
        chain.append(57)
    if arm == "Norma":
        assert chain == [1, 2, 8, 14, 20, 26, 32, 38, 44, 50]
    for n in chain[1:]:
        assert galaxy.arm[n] == arm
    for x, y in zip(chain, chain[1:]):
        assert y in nb(galaxy, x), (x, y)
    # going out along an arm never brings a sector closer to the Core
    dists = [galaxy.dist_to_core[n] for n in chain]
    assert dists == sorted(dists)


def test_arm_tips_sge_map_10(galaxy):
    """SGE-MAP-10: 56 is the tip of Scutum-Centaurus after 51, 57 the tip of Perseus after
    54; 50, 52, 53 and 55 end their arms at ring 9."""
    assert 51 in nb(galaxy, 56) and galaxy.arm[56] == "Scutum-Centaurus"
    assert 54 in nb(galaxy, 57) and galaxy.arm[57] == "Perseus"
    for tip in (50, 52, 53, 55):
        same_arm = [m for m in galaxy.neighbours[tip] if galaxy.arm[m] == galaxy.arm[tip]]
        assert same_arm == [tip - 6]


@pytest.mark.parametrize("g", range(1, 7))
def test_gap_sectors_sge_map_10(galaxy, g):
    """SGE-MAP-10: gap g lies between arm g and arm g+1 (Outer and Norma close the circle):
    inner 58+g, middle 64+g, outer 70+g, each touching both arms, in order outwards."""
    left, right = ARMS[g - 1], ARMS[g % 6]
    inner, middle, outer = 58 + g, 64 + g, 70 + g
    for n in (inner, middle, outer):
        assert galaxy.arm[n] == "Inter-arm"
        arms = {galaxy.arm[m] for m in galaxy.neighbours[n]}
        assert {left, right} <= arms, n
        assert arms <= {left, right, "Inter-arm", "Rim"}, n
    assert middle in nb(galaxy, inner) and outer in nb(galaxy, middle)
    assert outer not in nb(galaxy, inner)
    assert galaxy.dist_to_core[inner] < galaxy.dist_to_core[middle] \
        < galaxy.dist_to_core[outer]
    # the inner sector starts beside ring 1
    assert {6 * 1 - 4 + (g - 1), 6 * 1 - 4 + g % 6} <= nb(galaxy, inner)


def test_every_sector_touches_a_lower_one_sge_map_10(galaxy):
    """SGE-MAP-10: every sector except 01 is adjacent to a lower-numbered sector."""
    for n in galaxy.numbers:
        if n != 1:
            assert galaxy.lower_neighbour(n) is not None, n
    assert galaxy.lower_neighbour(1) is None


def test_sector_58_sge_map_9_sge_map_10(galaxy):
    """SGE-MAP-9, SGE-MAP-10: 58 (Rim) lies beyond Orion's tip 53, touches 53 and 73, has no
    neighbour numbered 59-72, so the lowest-numbered sector above it that it touches is 73."""
    assert galaxy.arm[58] == "Rim"
    assert {53, 73} <= nb(galaxy, 58)
    assert not nb(galaxy, 58) & set(range(59, 73))
    assert galaxy.higher_neighbour(58) == 73
    assert galaxy.lower_neighbour(58) == 53
    assert galaxy.dist_to_core[58] == galaxy.dist_to_core[53] + 1  # beyond the tip


def test_scenario_constraints_sge_map_11(galaxy):
    """SGE-MAP-11: 01, 13 and 17 pairwise apart; 49 and 57 apart; one connected graph."""
    for a, b in ((1, 13), (1, 17), (13, 17), (49, 57)):
        assert b not in nb(galaxy, a)
    assert nx.is_connected(galaxy.graph)
    assert galaxy.graph.number_of_nodes() == 76


def test_core_reachable_from_everywhere_sge_map_11_sge_map_12(galaxy):
    """SGE-MAP-11, SGE-MAP-12: every sector has a path to the Core; distances are the BFS
    step counts over shared edges, with no Void cell on any path."""
    assert set(galaxy.dist_to_core) == set(range(1, 77))
    expected = nx.single_source_shortest_path_length(galaxy.graph, 1)
    assert galaxy.dist_to_core == expected
    assert all(isinstance(m, int) for ms in galaxy.neighbours.values() for m in ms)
    for n in (2, 17, 33, 58, 76):
        assert galaxy.dist[n] == nx.single_source_shortest_path_length(galaxy.graph, n)
        for m in galaxy.numbers:
            assert galaxy.dist[n][m] == galaxy.dist[m][n]


# ----------------------------------------------------------------------------- the API


def test_galaxy_attributes_sge_map_12(galaxy, sectors):
    """SGE-MAP-12: the helpers for distance and direction, and the Galaxy's attributes."""
    assert galaxy.numbers == tuple(range(1, 77))
    assert galaxy.core == 1
    assert len(galaxy.system_sectors) == 46
    assert galaxy.name[43] == "Morrow's Reach"
    assert galaxy.is_system[57] and not galaxy.is_system[58]
    assert set(galaxy.polygon) == set(galaxy.label_at) == set(range(1, 77))
    assert len(galaxy.void_cells) == 12
    assert galaxy.warnings == ()
    assert set(galaxy.graph.edges) == {(n, m) for n in galaxy.numbers
                                       for m in galaxy.neighbours[n] if n < m}
    assert galaxy.within(1, 1) == frozenset(range(1, 8))
    assert galaxy.within(30, 0) == frozenset({30})
    assert galaxy.within(30, 2) == frozenset(
        m for m in galaxy.numbers if galaxy.dist[30][m] <= 2)
    for n in galaxy.numbers:
        d = galaxy.dist_to_core[n]
        for m in galaxy.toward_core(n):
            assert galaxy.dist_to_core[m] == d - 1 and m in nb(galaxy, n)
        for m in galaxy.away_from_core(n):
            assert galaxy.dist_to_core[m] == d + 1 and m in nb(galaxy, n)
        if n != 1:
            assert galaxy.toward_core(n)
    assert galaxy.toward_core(1) == ()
    assert galaxy.away_from_core(1) == (2, 3, 4, 5, 6, 7)
    assert galaxy.toward_core(8) == (2,)
    assert galaxy.higher_neighbour(1) == 2
    assert galaxy.lower_neighbour(13) == 7
    assert galaxy.higher_neighbour(76) is None
    assert galaxy.distance(1, 58) == galaxy.dist_to_core[58]
    assert galaxy.is_void_adjacent(58) and not galaxy.is_void_adjacent(1)


def test_labels_and_sizes_leave_room_sge_map_16(raw, galaxy):
    """SGE-MAP-16: each sector shows its number, name and counters, so its label_at lies
    well inside it and no sector is a sliver (each is at least 0.2 % of the disc)."""
    disc = math.pi * 494 ** 2
    for s in raw["sectors"]:
        poly = s["polygon"]
        assert geometry.point_in_polygon(s["label_at"], poly), s["number"]
        assert geometry.distance_to_outline(s["label_at"], poly) >= 12, s["number"]
        assert abs(geometry.polygon_area(poly)) >= 0.002 * disc, s["number"]
        assert galaxy.label_at[s["number"]] == tuple(s["label_at"])


# ----------------------------------------------------------------------------- validation


def test_shipped_map_is_clean_sge_map_13(raw):
    """SGE-MAP-13: the shipped map passes check_galaxy with no errors and no warnings."""
    errors, warnings = check_galaxy(copy.deepcopy(raw))
    assert errors == []
    assert warnings == []


def test_missing_sector_names_sge_map_2_sge_map_13(data):
    """SGE-MAP-2, SGE-MAP-13: removing sector 58 is refused, naming SGE-MAP-2."""
    data["sectors"] = [s for s in data["sectors"] if s["number"] != 58]
    for s in data["sectors"]:
        s.pop("neighbours")
    errors, _ = check_galaxy(data)
    assert "SGE-MAP-2" in rules_of(errors)
    assert any("58" in e.message for e in errors if e.rule == "SGE-MAP-2")
    with pytest.raises(MapError) as info:
        load_galaxy(data)
    assert info.value.rule_id == "SGE-MAP-2"
    assert "SGE-MAP-2" in str(info.value)


def test_58_touching_a_gap_sector_sge_map_9_sge_map_13(data):
    """SGE-MAP-9, SGE-MAP-13: if 58 touches a sector numbered 59-72 (here 73 is renumbered
    60 and 60 becomes 73) the map is refused, naming SGE-MAP-9."""
    for s in data["sectors"]:
        s.pop("neighbours")
        if s["number"] == 73:
            s["number"] = 60
        elif s["number"] == 60:
            s["number"] = 73
    errors, _ = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-9"}
    assert any("59-72" in e.message and "60" in e.message for e in errors)
    assert any("adjacent to sector 73" in e.message for e in errors)
    with pytest.raises(MapError) as info:
        load_galaxy(data)
    assert info.value.rule_id == "SGE-MAP-9"


def test_core_rules_sge_map_3_sge_map_13(data):
    """SGE-MAP-3, SGE-MAP-13: a second Core, or a Core without a system, is refused."""
    data["sectors"][1]["is_core"] = True
    errors, _ = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-3"}
    data["sectors"][1]["is_core"] = False
    data["sectors"][0]["is_system"] = False
    errors, warnings = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-3"}
    assert "SGE-MAP-4" in rules_of(warnings)  # and 45 systems is only a warning


def test_structure_sge_map_1(data):
    """SGE-MAP-1: a missing field or a bad value is refused, naming SGE-MAP-1."""
    del data["sectors"][5]["polygon"]
    data["sectors"][6]["arm"] = "Andromeda"
    errors, _ = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-1"}
    assert len(errors) == 2
    with pytest.raises(MapError) as info:
        load_galaxy(data)
    assert info.value.rule_id == "SGE-MAP-1"
    assert len(info.value.issues) == 2
    assert check_galaxy("not a map")[0] == [MapIssue("SGE-MAP-1",
                                                     "the map must be a mapping of fields")]


def test_neighbours_field_must_match_sge_map_1(data):
    """SGE-MAP-1, SGE-MAP-8: a neighbours list that differs from the outlines is refused."""
    s = data["sectors"][29]
    assert s["number"] == 30
    s["neighbours"] = s["neighbours"][1:] + [1]
    errors, _ = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-1"}
    assert len(errors) == 2  # one listed wrongly, one left out


def test_corner_contact_listed_as_neighbour_sge_map_7():
    """SGE-MAP-7: listing a sector that touches only at a corner as a neighbour is refused
    (a tiny 2 x 2 map inside a ring of Void cells)."""
    def sq(x, y, w=100):
        return [[x, y], [x + w, y], [x + w, y + w], [x, y + w]]

    sectors = [
        {"number": 1, "name": "A", "arm": "Core", "is_system": True, "is_core": True,
         "polygon": sq(450, 450), "neighbours": [2, 3, 4]},
        {"number": 2, "name": "B", "arm": "Norma", "is_system": True, "is_core": False,
         "polygon": sq(550, 450)},
        {"number": 3, "name": "C", "arm": "Norma", "is_system": True, "is_core": False,
         "polygon": sq(450, 550)},
        {"number": 4, "name": "D", "arm": "Norma", "is_system": True, "is_core": False,
         "polygon": sq(550, 550)},
    ]
    # the frame between the 2 x 2 block and a square rim, cut into two Void cells
    voids = [{"id": "V01", "polygon": [[350, 350], [750, 350], [750, 750], [650, 650],
                                       [650, 550], [650, 450], [550, 450], [450, 450]]},
             {"id": "V02", "polygon": [[750, 750], [350, 750], [350, 350], [450, 450],
                                       [450, 550], [450, 650], [550, 650], [650, 650]]}]
    data = {"id": "tiny", "title": "Tiny", "reconstructed": True,
            "canvas": {"width": 1000, "height": 1000}, "sectors": sectors, "void_cells": voids}
    errors, _ = check_galaxy(data)
    assert "SGE-MAP-7" in rules_of(errors)
    assert any("only at a point" in e.message for e in errors if e.rule == "SGE-MAP-7")
    assert not {"SGE-MAP-8", "SGE-MAP-3", "SGE-MAP-5"} & rules_of(errors)


def test_gap_between_neighbours_sge_map_8(data):
    """SGE-MAP-8: dropping one vertex of a curved shared boundary leaves a sliver of a hole
    between two sectors; the map is refused."""
    poly = data["sectors"][29]["polygon"]
    other = {tuple(p) for s in data["sectors"] if s["number"] != 30 for p in s["polygon"]}
    # a vertex of 30 shared with a neighbour, whose two polygon neighbours are shared too
    i = next(i for i in range(1, len(poly) - 1)
             if {tuple(poly[i - 1]), tuple(poly[i]), tuple(poly[i + 1])} <= other)
    del poly[i]
    errors, _ = check_galaxy(data)
    assert "SGE-MAP-8" in rules_of(errors)
    assert any("no holes" in e.message for e in errors)
    with pytest.raises(MapError) as info:
        load_galaxy(data)
    assert info.value.rule_id == "SGE-MAP-8"


def test_t_junction_sge_map_8(data):
    """SGE-MAP-8: a shared boundary must use identical vertices on both sides: a vertex
    added to one side only (a T-junction) is refused."""
    poly = data["sectors"][29]["polygon"]
    other = {tuple(p) for s in data["sectors"] if s["number"] != 30 for p in s["polygon"]}
    for i in range(len(poly)):
        p, q = tuple(poly[i]), tuple(poly[(i + 1) % len(poly)])
        m = ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)
        if {p, q} <= other and m not in (p, q) and geometry.orient(p, q, m) == 0:
            break
    else:
        pytest.fail("no shared edge with an exactly representable midpoint")
    poly.insert(i + 1, list(m))
    errors, _ = check_galaxy(data)
    assert [e.rule for e in errors][:1] == ["SGE-MAP-8"]
    assert any("identical vertices" in e.message and "of 30" in e.message for e in errors)


def test_overlap_sge_map_8(data):
    """SGE-MAP-8: a sector moved onto its neighbours is refused."""
    poly = data["sectors"][29]["polygon"]
    data["sectors"][29]["polygon"] = [[x + 15, y] for x, y in poly]
    errors, _ = check_galaxy(data)
    assert "SGE-MAP-8" in rules_of(errors)


def test_no_void_sge_map_5(data):
    """SGE-MAP-5: a map without Void cells is refused; SGE-MAP-6 warns too."""
    data["void_cells"] = []
    errors, warnings = check_galaxy(data)
    assert rules_of(errors) == {"SGE-MAP-5"}
    assert "SGE-MAP-6" in rules_of(warnings)


def test_soft_rules_only_warn_sge_map_13(data):
    """SGE-MAP-13: breaking SGE-MAP-4, SGE-MAP-6, SGE-MAP-10 or SGE-MAP-11 only warns; the
    map still loads."""
    by_number = {s["number"]: s for s in data["sectors"]}
    by_number[13]["is_system"] = False          # SGE-MAP-4: 13 must be a system, 45 in all
    by_number[20]["arm"] = "Orion"              # SGE-MAP-10: 20 is on Norma
    data["void_cells"].pop(0)                   # SGE-MAP-6: the ring is broken
    for s in data["sectors"]:                   # SGE-MAP-11: 17 <-> 19 makes 13 touch 17
        s.pop("neighbours")
        if s["number"] in (17, 19):
            s["number"] = 36 - s["number"]
    errors, warnings = check_galaxy(data)
    assert errors == []
    assert rules_of(warnings) == {"SGE-MAP-4", "SGE-MAP-6", "SGE-MAP-10", "SGE-MAP-11"}
    assert any("13" in w.message and "17" in w.message
               for w in warnings if w.rule == "SGE-MAP-11")
    g = load_galaxy(data)
    assert rules_of(g.warnings) == rules_of(warnings)
    assert 17 in g.neighbours[13] and 19 not in g.neighbours[13]


def test_optional_fields_sge_map_1(data, galaxy):
    """SGE-MAP-1: label_at and neighbours are optional; without them the adjacency is the
    same (it comes from the outlines) and each label still falls inside its sector."""
    for s in data["sectors"]:
        del s["label_at"], s["neighbours"]
    bare = load_galaxy(data)
    assert bare.neighbours == galaxy.neighbours
    assert bare.dist == galaxy.dist
    for n in bare.numbers:
        assert geometry.point_in_polygon(bare.label_at[n], bare.polygon[n])


def test_networkx_graph_matches_the_shared_edges_sge_map_7_sge_map_12(galaxy):
    """SGE-MAP-7, SGE-MAP-12: the networkx sector graph has exactly the edge-sharing pairs,
    and its shortest paths are the distances the rules use."""
    graph = galaxy.graph
    assert set(graph.nodes) == set(galaxy.numbers)
    assert {frozenset(e) for e in graph.edges} == {
        frozenset((n, m)) for n in galaxy.numbers for m in galaxy.neighbours[n]}
    lengths = dict(nx.all_pairs_shortest_path_length(graph))
    assert all(lengths[a][b] == galaxy.dist[a][b] for a in galaxy.numbers for b in galaxy.numbers)
