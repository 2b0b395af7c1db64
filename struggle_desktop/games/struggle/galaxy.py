"""The Struggle galaxy map: validation (SGE-MAP-13) and the derived graph the rules use.

The map arrives as the already-parsed YAML dictionary of SGE-MAP-1 (the data loader reads
the file and checks its schema). :func:`check_galaxy` checks it against the map rules and
returns the problems, split as SGE-MAP-13 says: breaking SGE-MAP-1, SGE-MAP-2, SGE-MAP-3,
SGE-MAP-5, SGE-MAP-7, SGE-MAP-8 or SGE-MAP-9 is an error, breaking SGE-MAP-4, SGE-MAP-6,
SGE-MAP-10 or SGE-MAP-11 is only a warning, because a user's map of the printed game may
differ from the project's reconstruction. :func:`load_galaxy`
refuses a map with errors (raising :class:`MapError`, which names the rule) and otherwise
builds a :class:`Galaxy`.

Adjacency is never taken on trust: it is derived from the outlines (SGE-MAP-7, SGE-MAP-8)
by :mod:`struggle_desktop.engine.geometry`. Distances are counted in steps across shared
edges between sectors; Void cells are never on a path (SGE-MAP-12).
"""

from __future__ import annotations

from functools import cached_property

import math
import re
from collections import deque
from dataclasses import dataclass
from typing import Any, Iterable


from struggle_desktop.engine import geometry
from struggle_desktop.engine.errors import DataError

# SGE-MAP-1
ARMS = ("Core", "Norma", "Scutum-Centaurus", "Sagittarius", "Orion", "Perseus", "Outer",
        "Inter-arm", "Rim")
# SGE-MAP-10: the six spiral arms in their order round the Core
SPIRAL_ARMS = ("Norma", "Scutum-Centaurus", "Sagittarius", "Orion", "Perseus", "Outer")
SECTOR_COUNT = 76                    # SGE-MAP-2
CORE = 1                             # SGE-MAP-3
SYSTEM_COUNT = 46                    # SGE-MAP-4
HIGHEST_SYSTEM = 57                  # SGE-MAP-4
REQUIRED_SYSTEMS = (1, 13, 17, 49, 57)                                  # SGE-MAP-4
SYSTEM_BANDS = ((1, 9, 8), (1, 17, 15), (1, 25, 20), (1, 40, 32), (26, 57, 26))  # SGE-MAP-4
LISTED_VOID_ADJACENT = (50, 52, 53, 55, 56, 57, 58) + tuple(range(71, 77))     # SGE-MAP-6
VOID_FREE_RADIUS = 3                 # SGE-MAP-6: nothing this close to the Core is Void-adjacent
RIM = 58                             # SGE-MAP-9
HARD_RULES = ("SGE-MAP-1", "SGE-MAP-2", "SGE-MAP-3", "SGE-MAP-5", "SGE-MAP-7", "SGE-MAP-8",
              "SGE-MAP-9")           # SGE-MAP-13
SOFT_RULES = ("SGE-MAP-4", "SGE-MAP-6", "SGE-MAP-10", "SGE-MAP-11")  # SGE-MAP-13
_VOID_ID = re.compile(r"^V[0-9]+$")


@dataclass(frozen=True)
class MapIssue:
    """One broken map rule: the rule ID and a message a person can read."""

    rule: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule}: {self.message}"


class MapError(DataError):
    """The map breaks a hard rule (SGE-MAP-13) and cannot be used.

    ``rule_id`` and ``message`` describe the first problem; ``issues`` holds all of them.
    """

    def __init__(self, rule_id: str, message: str, issues: Iterable[MapIssue] = ()):
        self.rule_id = rule_id
        self.message = message
        self.issues = tuple(issues) or (MapIssue(rule_id, message),)
        more = len(self.issues) - 1
        tail = f" (and {more} more problem{'s' if more > 1 else ''})" if more > 0 else ""
        super().__init__(f"{rule_id}: {message}{tail}")


# ----------------------------------------------------------------------------- helpers


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def _is_point(p: Any) -> bool:
    return isinstance(p, (list, tuple)) and len(p) == 2 and all(_is_number(c) for c in p)


def _polygon_problem(poly: Any) -> str | None:
    if not isinstance(poly, (list, tuple)) or len(poly) < 3:
        return "polygon must be a list of at least 3 [x, y] points"
    if not all(_is_point(p) for p in poly):
        return "polygon points must be [x, y] pairs of numbers"
    return None


def _bfs(adj: dict[int, tuple[int, ...]], start: int) -> dict[int, int]:
    """Distances from start to every sector it can reach (SGE-MAP-12)."""
    dist = {start: 0}
    queue = deque([start])
    while queue:
        n = queue.popleft()
        for m in adj[n]:
            if m not in dist:
                dist[m] = dist[n] + 1
                queue.append(m)
    return dist


class _Analysis:
    """Everything check_galaxy finds out, kept so load_galaxy need not work it out twice."""

    def __init__(self):
        self.errors: list[MapIssue] = []
        self.warnings: list[MapIssue] = []
        self.sectors: dict[int, dict] = {}
        self.voids: dict[str, list] = {}
        self.neighbours: dict[int, tuple[int, ...]] = {}
        self.void_adjacent: frozenset[int] = frozenset()
        self.dist: dict[int, dict[int, int]] = {}

    def error(self, rule: str, message: str) -> None:
        self.errors.append(MapIssue(rule, message))

    def warn(self, rule: str, message: str) -> None:
        self.warnings.append(MapIssue(rule, message))


# ----------------------------------------------------------------------------- checks


def _check_structure(data: Any, an: _Analysis) -> bool:
    """SGE-MAP-1: the fields and their types. False if the rest cannot be checked."""
    rule = "SGE-MAP-1"
    if not isinstance(data, dict):
        an.error(rule, "the map must be a mapping of fields")
        return False
    for key in ("id", "title"):
        if not isinstance(data.get(key), str) or not data.get(key):
            an.error(rule, f"'{key}' must be a non-empty string")
    if not isinstance(data.get("reconstructed"), bool):
        an.error(rule, "'reconstructed' must be true or false")
    canvas = data.get("canvas")
    if not (isinstance(canvas, dict) and _is_number(canvas.get("width"))
            and _is_number(canvas.get("height"))
            and canvas["width"] > 0 and canvas["height"] > 0):
        an.error(rule, "'canvas' must give a positive 'width' and 'height'")
    sectors = data.get("sectors")
    if not isinstance(sectors, list) or not sectors:
        an.error(rule, "'sectors' must be a non-empty list")
        return False
    voids = data.get("void_cells")
    if not isinstance(voids, list):
        an.error(rule, "'void_cells' must be a list")
        return False
    ok = True
    names: dict[str, int] = {}
    for i, s in enumerate(sectors):
        where = f"sector entry {i + 1}"
        if not isinstance(s, dict):
            an.error(rule, f"{where} must be a mapping")
            ok = False
            continue
        num = s.get("number")
        if not isinstance(num, int) or isinstance(num, bool):
            an.error(rule, f"{where}: 'number' must be an integer")
            ok = False
            continue
        where = f"sector {num}"
        name = s.get("name")
        if not isinstance(name, str) or not name.strip():
            an.error(rule, f"{where}: 'name' must be a non-empty string")
        elif name in names and names[name] != num:
            an.error(rule, f"{where}: the name {name!r} is also used by sector {names[name]}")
        else:
            names[name] = num
        if s.get("arm") not in ARMS:
            an.error(rule, f"{where}: 'arm' must be one of {', '.join(ARMS)}")
        for flag in ("is_system", "is_core"):
            if not isinstance(s.get(flag), bool):
                an.error(rule, f"{where}: '{flag}' must be true or false")
        problem = _polygon_problem(s.get("polygon"))
        if problem:
            an.error(rule, f"{where}: {problem}")
            ok = False
        if "label_at" in s and not _is_point(s["label_at"]):
            an.error(rule, f"{where}: 'label_at' must be an [x, y] pair of numbers")
        if "neighbours" in s:
            nb = s["neighbours"]
            if not (isinstance(nb, list) and all(isinstance(n, int) and not isinstance(n, bool)
                                                 for n in nb)):
                an.error(rule, f"{where}: 'neighbours' must be a list of sector numbers")
    seen_ids: set[str] = set()
    for i, v in enumerate(voids):
        if not isinstance(v, dict):
            an.error(rule, f"void cell entry {i + 1} must be a mapping")
            ok = False
            continue
        vid = v.get("id")
        if not isinstance(vid, str) or not _VOID_ID.match(vid):
            an.error(rule, f"void cell entry {i + 1}: 'id' must look like V01")
            ok = False
            continue
        if vid in seen_ids:
            an.error(rule, f"void cell id {vid} is used twice")
            ok = False
        seen_ids.add(vid)
        problem = _polygon_problem(v.get("polygon"))
        if problem:
            an.error(rule, f"void cell {vid}: {problem}")
            ok = False
    return ok


def _check_numbers(data: dict, an: _Analysis) -> None:
    """SGE-MAP-2: sectors 1..76, each once."""
    count: dict[int, int] = {}
    for s in data["sectors"]:
        count[s["number"]] = count.get(s["number"], 0) + 1
    dupes = sorted(n for n, c in count.items() if c > 1)
    missing = sorted(set(range(1, SECTOR_COUNT + 1)) - set(count))
    extra = sorted(n for n in count if not 1 <= n <= SECTOR_COUNT)
    if dupes:
        an.error("SGE-MAP-2", f"sector numbers used more than once: {dupes}")
    if missing:
        an.error("SGE-MAP-2", f"sectors missing (they must run 1 to {SECTOR_COUNT} "
                              f"with no gaps): {missing}")
    if extra:
        an.error("SGE-MAP-2", f"sector numbers outside 1-{SECTOR_COUNT}: {extra}")
    for s in data["sectors"]:
        an.sectors.setdefault(s["number"], s)


def _check_core(data: dict, an: _Analysis) -> None:
    """SGE-MAP-3: sector 1 is the Core, a system sector, the only is_core, at the centre."""
    rule = "SGE-MAP-3"
    cores = sorted(n for n, s in an.sectors.items() if s.get("is_core") is True)
    if CORE not in an.sectors:
        an.error(rule, "there is no sector 1, the Core")
        return
    core = an.sectors[CORE]
    if cores != [CORE]:
        an.error(rule, f"sector 1 must be the only sector with is_core: true "
                       f"(found {cores or 'none'})")
    if core.get("is_system") is not True:
        an.error(rule, "the Core (sector 1) must be a system sector")
    # "At the centre of the galaxy": the Core contains the centre of the canvas or the
    # centre of the whole map (sectors and Void), whichever the drawing uses.
    canvas = data["canvas"]
    centre = (canvas["width"] / 2, canvas["height"] / 2)
    everything = [p for s in an.sectors.values() for p in s["polygon"]]
    everything += [p for v in data["void_cells"] for p in v["polygon"]]
    xs = [p[0] for p in everything]
    ys = [p[1] for p in everything]
    middle = ((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2)
    if not (geometry.point_in_polygon(centre, core["polygon"])
            or geometry.point_in_polygon(middle, core["polygon"])):
        an.error(rule, "the Core (sector 1) must lie at the centre of the galaxy")


def _check_void_cells(data: dict, an: _Analysis) -> None:
    """SGE-MAP-5: there is a Void, made of unnumbered cells no force may enter."""
    if not data["void_cells"]:
        an.error("SGE-MAP-5", "the map has no Void cells")
    for v in data["void_cells"]:
        an.voids[v["id"]] = v["polygon"]


def _check_geometry(an: _Analysis) -> dict:
    """SGE-MAP-7, SGE-MAP-8: outlines tile one region; adjacency from shared edges."""
    cells: dict[Any, list] = {n: s["polygon"] for n, s in an.sectors.items()}
    cells.update(an.voids)
    for problem in geometry.partition_problems(cells):
        an.error("SGE-MAP-8", problem)
    pairs = geometry.edge_adjacency(cells)
    adj: dict[Any, set] = {c: set() for c in cells}
    for pair in pairs:
        a, b = tuple(pair)
        adj[a].add(b)
        adj[b].add(a)
    an.neighbours = {n: tuple(sorted(m for m in adj[n] if isinstance(m, int)))
                     for n in an.sectors}
    an.void_adjacent = frozenset(n for n in an.sectors
                                 if any(isinstance(m, str) for m in adj[n]))
    # SGE-MAP-1 / SGE-MAP-7: an optional neighbours list must equal the derived adjacency.
    vertices = {n: {tuple(p) for p in s["polygon"]} for n, s in an.sectors.items()}
    for n, s in sorted(an.sectors.items()):
        if "neighbours" not in s:
            continue
        listed, derived = set(s["neighbours"]), set(an.neighbours[n])
        for m in sorted(listed - derived):
            if m in vertices and vertices[n] & vertices[m]:
                an.error("SGE-MAP-7", f"sector {n} lists {m} as a neighbour, but they touch "
                                      f"only at a point, which is not adjacency")
            else:
                an.error("SGE-MAP-1", f"sector {n} lists {m} as a neighbour, but their "
                                      f"outlines share no edge (SGE-MAP-8)")
        missing = sorted(derived - listed)
        if missing:
            an.error("SGE-MAP-1", f"sector {n}: 'neighbours' leaves out {missing}, which "
                                  f"share an edge with it (SGE-MAP-8)")
    return adj


def _check_rim(an: _Analysis) -> None:
    """SGE-MAP-9: 73 is the lowest-numbered sector above 58 that is adjacent to 58."""
    if RIM not in an.sectors:
        return  # already reported under SGE-MAP-2
    nb = an.neighbours[RIM]
    above = [m for m in nb if m > RIM]
    if 73 not in nb:
        an.error("SGE-MAP-9", "sector 58 must be adjacent to sector 73")
    bad = [m for m in above if m < 73]
    if bad:
        an.error("SGE-MAP-9", f"sector 58 must have no neighbour numbered 59-72, "
                              f"but it touches {bad}")


def _check_systems(an: _Analysis) -> None:
    """SGE-MAP-4 (warnings): 46 system sectors in 1-57 with the stated distribution."""
    rule = "SGE-MAP-4"
    systems = {n for n, s in an.sectors.items() if s.get("is_system") is True}
    if len(systems) != SYSTEM_COUNT:
        an.warn(rule, f"{len(systems)} system sectors, expected {SYSTEM_COUNT}")
    high = sorted(n for n in systems if n > HIGHEST_SYSTEM)
    if high:
        an.warn(rule, f"sectors above {HIGHEST_SYSTEM} must not be system sectors: {high}")
    lacking = [n for n in REQUIRED_SYSTEMS if n not in systems]
    if lacking:
        an.warn(rule, f"sectors {lacking} must be system sectors")
    for lo, hi, want in SYSTEM_BANDS:
        got = sum(1 for n in systems if lo <= n <= hi)
        if got != want:
            an.warn(rule, f"{lo:02d}-{hi:02d} holds {got} system sectors, expected {want}")


def _check_void_ring(an: _Analysis, adj: dict) -> None:
    """SGE-MAP-6 (warnings): a closed ring of Void cells round all sectors."""
    rule = "SGE-MAP-6"
    cells: dict[Any, list] = {n: s["polygon"] for n, s in an.sectors.items()}
    cells.update(an.voids)
    cycles, problems = geometry.outline_cycles(cells)
    if problems or len(cycles) != 1 or not an.voids:
        an.warn(rule, "the Void cannot be checked: the map has no single outer outline")
    else:
        outline = set(cycles[0])
        on_rim = sorted(n for n, s in an.sectors.items()
                        if outline & {tuple(p) for p in s["polygon"]})
        if on_rim:
            an.warn(rule, f"the Void must surround every sector, but {on_rim} reach the "
                          f"edge of the map")
        void_ids = list(an.voids)
        seen = {void_ids[0]}
        todo = [void_ids[0]]
        while todo:
            c = todo.pop()
            for m in adj[c]:
                if isinstance(m, str) and m not in seen:
                    seen.add(m)
                    todo.append(m)
        if len(seen) != len(void_ids):
            an.warn(rule, "the Void cells do not form one closed ring")
    missing = [n for n in LISTED_VOID_ADJACENT if n in an.sectors and n not in an.void_adjacent]
    if missing:
        an.warn(rule, f"sectors {missing} must be Void-adjacent")
    core_dist = an.dist.get(CORE, {})
    near = sorted(n for n in an.void_adjacent if core_dist.get(n, math.inf) <= VOID_FREE_RADIUS)
    if near:
        an.warn(rule, f"sectors within distance {VOID_FREE_RADIUS} of the Core must not be "
                      f"Void-adjacent: {near}")


def _check_layout(an: _Analysis) -> None:
    """SGE-MAP-10 (warnings): six arms in rings, the gaps, 58, and 'adjacent to a lower'."""
    rule = "SGE-MAP-10"
    nb = {n: set(v) for n, v in an.neighbours.items()}
    have = set(an.sectors)

    def arm_of(n):
        return an.sectors[n].get("arm") if n in an.sectors else None

    if CORE in nb and nb[CORE] != set(range(2, 8)):
        an.warn(rule, f"the Core must be adjacent to exactly 02-07, not {sorted(nb[CORE])}")
    chains = {arm: [CORE] + [6 * k - 4 + i for k in range(1, 10)]
              for i, arm in enumerate(SPIRAL_ARMS)}
    chains["Scutum-Centaurus"].append(56)
    chains["Perseus"].append(57)
    for arm, chain in chains.items():
        for n in chain[1:]:
            if n in have and arm_of(n) != arm:
                an.warn(rule, f"sector {n} should be on the {arm} arm, not {arm_of(n)}")
        for a, b in zip(chain, chain[1:]):
            if a in have and b in have and b not in nb[a]:
                an.warn(rule, f"consecutive sectors {a} and {b} of the {arm} arm are not "
                              f"adjacent")
    if arm_of(RIM) not in (None, "Rim"):
        an.warn(rule, f"sector 58 should be the Rim, not {arm_of(RIM)}")
    for g in range(1, 7):
        left, right = SPIRAL_ARMS[g - 1], SPIRAL_ARMS[g % 6]
        for n in (58 + g, 64 + g, 70 + g):
            if n not in have:
                continue
            if arm_of(n) != "Inter-arm":
                an.warn(rule, f"sector {n} should be Inter-arm, not {arm_of(n)}")
            arms = {arm_of(m) for m in nb[n]}
            if left not in arms or right not in arms:
                an.warn(rule, f"sector {n} should lie in the gap between the {left} and "
                              f"{right} arms, touching both")
    if RIM in nb:
        for m in (53, 73):
            if m in have and m not in nb[RIM]:
                an.warn(rule, f"sector 58 must touch sector {m}")
    orphans = sorted(n for n in have if n != CORE and not any(m < n for m in nb[n]))
    if orphans:
        an.warn(rule, f"sectors not adjacent to any lower-numbered sector: {orphans}")


def _check_scenarios(an: _Analysis) -> None:
    """SGE-MAP-11 (warnings): 01/13/17 apart, 49/57 apart, one connected graph."""
    rule = "SGE-MAP-11"
    nb = an.neighbours
    for a, b in ((1, 13), (1, 17), (13, 17), (49, 57)):
        if a in nb and b in nb[a]:
            an.warn(rule, f"sectors {a:02d} and {b:02d} must not be adjacent")
    if an.sectors:
        start = CORE if CORE in an.sectors else min(an.sectors)
        reach = an.dist.get(start, {})
        cut_off = sorted(set(an.sectors) - set(reach))
        if cut_off:
            an.warn(rule, f"the sectors do not form one connected graph: {cut_off} cannot be "
                          f"reached from sector {start}")


def _analyse(data: Any) -> _Analysis:
    an = _Analysis()
    if not _check_structure(data, an):
        return an
    _check_numbers(data, an)                 # SGE-MAP-2
    _check_core(data, an)                    # SGE-MAP-3
    _check_void_cells(data, an)              # SGE-MAP-5
    adj = _check_geometry(an)                # SGE-MAP-7, SGE-MAP-8 (and neighbours, MAP-1)
    an.dist = {n: _bfs(an.neighbours, n) for n in an.neighbours}  # SGE-MAP-12
    _check_rim(an)                           # SGE-MAP-9
    _check_systems(an)                       # SGE-MAP-4
    _check_void_ring(an, adj)                # SGE-MAP-6
    _check_layout(an)                        # SGE-MAP-10
    _check_scenarios(an)                     # SGE-MAP-11
    return an


def check_galaxy(data: Any) -> tuple[list[MapIssue], list[MapIssue]]:
    """Check a parsed map against the map rules (SGE-MAP-13).

    Returns ``(errors, warnings)``, lists of :class:`MapIssue`. Errors break a hard rule
    (SGE-MAP-1, SGE-MAP-2, SGE-MAP-3, SGE-MAP-5, SGE-MAP-7, SGE-MAP-8, SGE-MAP-9) and make the
    map unusable; warnings break a count, layout or scenario rule (SGE-MAP-4, SGE-MAP-6,
    SGE-MAP-10, SGE-MAP-11). The shipped map has neither.
    """
    an = _analyse(data)
    return list(an.errors), list(an.warnings)


# ----------------------------------------------------------------------------- the galaxy


class Galaxy:
    """The sector graph and drawing data of a validated map.

    Attributes: ``numbers`` (1..76), ``name``, ``arm``, ``is_system`` (dicts by number),
    ``system_sectors``, ``core`` (1), ``neighbours`` (sorted tuples), ``void_adjacent``,
    ``dist`` (all-pairs step counts, SGE-MAP-12), ``dist_to_core``, ``graph`` (networkx),
    ``polygon``, ``label_at``, ``void_cells``, ``warnings`` (SGE-MAP-13), and the map's
    ``id``, ``title``, ``reconstructed`` and ``canvas`` (width, height).
    """

    def __init__(self, data: dict, an: _Analysis):
        self.id: str = data["id"]
        self.title: str = data["title"]
        self.reconstructed: bool = data["reconstructed"]
        self.canvas: tuple[float, float] = (data["canvas"]["width"], data["canvas"]["height"])
        self.numbers: tuple[int, ...] = tuple(sorted(an.sectors))
        sec = an.sectors
        self.name: dict[int, str] = {n: sec[n]["name"] for n in self.numbers}
        self.arm: dict[int, str] = {n: sec[n]["arm"] for n in self.numbers}
        self.is_system: dict[int, bool] = {n: sec[n]["is_system"] for n in self.numbers}
        self.system_sectors: tuple[int, ...] = tuple(n for n in self.numbers
                                                     if self.is_system[n])
        self.core: int = CORE                                              # SGE-MAP-3
        self.neighbours: dict[int, tuple[int, ...]] = dict(an.neighbours)  # SGE-MAP-8
        self.void_adjacent: frozenset[int] = an.void_adjacent             # SGE-MAP-6
        self.dist: dict[int, dict[int, int]] = an.dist                    # SGE-MAP-12
        self.dist_to_core: dict[int, int] = dict(an.dist[CORE])
        self.polygon: dict[int, list] = {n: [list(p) for p in sec[n]["polygon"]]
                                         for n in self.numbers}
        self.label_at: dict[int, tuple[float, float]] = {}
        for n in self.numbers:
            if "label_at" in sec[n]:
                self.label_at[n] = (sec[n]["label_at"][0], sec[n]["label_at"][1])
            else:
                self.label_at[n] = geometry.interior_point(self.polygon[n])
        self.void_cells: dict[str, list] = {k: [list(p) for p in v]
                                            for k, v in an.voids.items()}
        self.warnings: tuple[MapIssue, ...] = tuple(an.warnings)

    def __repr__(self) -> str:
        return f"<Galaxy {self.id!r}: {len(self.numbers)} sectors>"

    @cached_property
    def graph(self):
        """The sector graph as a networkx.Graph (node = sector number), built on first use:
        the rules read the precomputed ``neighbours`` and ``dist``, and importing networkx
        costs a third of a second at start-up."""
        import networkx as nx

        graph = nx.Graph()
        graph.add_nodes_from(self.numbers)
        graph.add_edges_from((n, m) for n in self.numbers for m in self.neighbours[n] if n < m)
        return graph

    def distance(self, a: int, b: int) -> int | None:
        """Steps from a to b across shared edges (SGE-MAP-12); None if b cannot be reached."""
        return self.dist[a].get(b)

    def adjacent(self, a: int, b: int) -> bool:
        return b in self.neighbours[a]

    def within(self, n: int, r: int) -> frozenset[int]:
        """Every sector at distance r or less from n, n included (SGE-MAP-12)."""
        return frozenset(m for m, d in self.dist[n].items() if d <= r)

    def toward_core(self, n: int) -> tuple[int, ...]:
        """Neighbours one step closer to the Core (SGE-MAP-12)."""
        d = self.dist_to_core.get(n)
        if d is None:
            return ()
        return tuple(m for m in self.neighbours[n] if self.dist_to_core.get(m) == d - 1)

    def away_from_core(self, n: int) -> tuple[int, ...]:
        """Neighbours one step farther from the Core (SGE-MAP-12)."""
        d = self.dist_to_core.get(n)
        if d is None:
            return ()
        return tuple(m for m in self.neighbours[n] if self.dist_to_core.get(m) == d + 1)

    def higher_neighbour(self, n: int) -> int | None:
        """The adjacent sector with the next higher number (the lowest neighbour above n)."""
        above = [m for m in self.neighbours[n] if m > n]
        return min(above) if above else None

    def lower_neighbour(self, n: int) -> int | None:
        """The adjacent sector with the next lower number (the highest neighbour below n)."""
        below = [m for m in self.neighbours[n] if m < n]
        return max(below) if below else None

    def is_void_adjacent(self, n: int) -> bool:
        """True if n shares an edge with a Void cell (SGE-MAP-6)."""
        return n in self.void_adjacent


def load_galaxy(data: dict) -> Galaxy:
    """Validate a parsed map (SGE-MAP-13) and build its :class:`Galaxy`.

    Raises :class:`MapError` naming the first broken hard rule; warnings (SGE-MAP-4,
    SGE-MAP-6, SGE-MAP-10, SGE-MAP-11) do not stop the load and are kept in
    ``Galaxy.warnings``.
    """
    an = _analyse(data)
    if an.errors:
        first = an.errors[0]
        raise MapError(first.rule, first.message, an.errors)
    return Galaxy(data, an)
