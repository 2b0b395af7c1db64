"""Noble Houses' seeded map generator (rules-nobles.md section 1, NH-MAP-13): pure functions.

Nothing here knows a game state. :func:`generate_map` takes a generator, the world names and the
terrain settings and returns a plain, JSON-ready dict; the other functions read such a dict
(system hexes, one jump's destinations, the jump graph, validation). Hand-made maps for tests and
scenarios come from :func:`build_map`.

**Dice.** The rules' d10 has faces 1-10 (a physical die's "0" reads as 10). Here a coordinate
die with k faces is always read as ``rng.below(k) + 1``: faces 1..k, so the d10 of NH-MAP-12 is
``below(10) + 1`` and the dW and dH of larger boards (NH-OPT-3) come the same way. The engine's
``Rng.d10()`` (faces 0-9) is *not* used. Obstacle types use ``rng.d6()``. So a scripted generator
for tests needs only ``below(n)`` and ``d6()``.

**The map dict** (every key a string, every hex a list ``[x, y]``)::

    {
      "width": 10, "height": 10,
      "worlds": {"Lortran": [1, 1], "Quayat": [3, 4], ...},       # all 24, in placement order
      "features": {                                                # one entry per used hex
        "1,1": {"kind": "world", "name": "Lortran"},
        "6,2": {"kind": "obstacle", "obstacle": "nebula"},         # or black_hole, supernova
        "4,8": {"kind": "jump_station"},
        "9,3": {"kind": "empty_system"},
        "2,6": {"kind": "stargate", "pair": 0, "to": [8, 9]},
        ...
      },
      "stargates": [[[2, 6], [8, 9]]],                             # pairs in roll order, A then B
      # added by generate_map only:
      "settings": {"obstacles": 1, "jump_stations": 1, "empty_systems": 1, "stargate_pairs": 1},
      "jump_range": 3,
      "attempts": 1,                                               # maps built, the kept one included
    }

A feature key is ``"x,y"`` (:func:`hex_key`); one hex holds at most one feature (NH-MAP-8), so
``features`` is the whole map, and hexes not in it are empty space.

>>> from struggle_desktop.engine.rng import Rng
>>> homes = ["Lortran", "Gurati", "Kadesh", "Nitrix"]
>>> others = ["Quayat", "Parallax", "Mercurium", "Frost", "Computus", "Bolavor", "Aquara",
...           "Punah", "Griddox", "Yoravar", "Zenceti", "Eden", "Mox", "Hellish", "Dalton",
...           "Bazarium", "Seedeen", "Pyreen", "Scorch", "Marx"]
>>> m = generate_map(Rng.from_seed(42), ["Kadesh", "Lortran"], homes, others,
...                  {"obstacles": 4, "stargate_pairs": 1})
>>> [m["worlds"][name] for name in homes]       # seats 1 and 2, then the unused in table order
[[10, 10], [10, 1], [1, 1], [1, 10]]
>>> len(m["worlds"]), len(m["features"]), len(m["stargates"])
(24, 30, 1)
>>> is_valid(m, 3)
True
>>> m == generate_map(Rng.from_seed(42), ["Kadesh", "Lortran"], homes, others,
...                   {"obstacles": 4, "stargate_pairs": 1})
True

Hand-made: a homeworld shut in by two obstacles (the example of the movement rules).

>>> walled = build_map({"Lortran": (1, 1), "Quayat": (3, 1)}, obstacles=[(2, 1), (1, 2)])
>>> destinations(walled, (1, 1), 3), unreachable_systems(walled, 3)
({}, [Hex(x=3, y=1)])
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from struggle_desktop.engine.hexgrid import Hex, HexGrid, distance

@dataclass(frozen=True)
class MapRules:
    """The generator's [DECIDED] values (NH-MAP-13, NH-MAP-16, NH-MAP-17), read from the
    editable table ``assets/tables/nobles/map_settings.yaml`` (:meth:`from_table`)."""

    #: NH-MAP-16: setting -> (lowest, highest) count.
    ranges: Mapping[str, tuple[int, int]]
    #: NH-MAP-13 step 3: the obstacle type for d6 faces 1-6.
    obstacle_by_d6: tuple[str, ...]
    #: NH-MAP-17: the two ends of a stargate pair are at least this far apart.
    stargate_min_distance: int
    #: NH-MAP-13 step 7: maps tried before giving up.
    max_attempts: int

    @classmethod
    def from_table(cls, table: Mapping[str, Any]) -> "MapRules":
        return cls(ranges={name: (row["min"], row["max"]) for name, row in table["settings"].items()},
                   obstacle_by_d6=tuple(table["obstacle_by_d6"]),
                   stargate_min_distance=table["stargate_min_distance"],
                   max_attempts=table["max_attempts"])


def default_rules() -> MapRules:
    """The map rules of the shipped (or the player's overriding) map_settings table."""
    from struggle_desktop.games.nobles.data import default_data

    return MapRules.from_table(default_data()["map_settings"])


#: NH-MAP-18: every system hex must be reachable from here.
VALIDATION_START = Hex(1, 1)
#: The standard board (NH-MAP-1).
STANDARD_GRID = HexGrid(10, 10)

#: NH-MAP-6: the features a hex may hold, the optional terrain of NH-MAP-15 among them.
KINDS = ("world", "obstacle", "jump_station", "empty_system", "stargate")
#: NH-MAP-9: where a jumpship may begin or end a move. Obstacles and empty space are not. Jump
#: stations, empty systems and stargates may be entered though no one controls them
#: (NH-WORLD-7, NH-WORLD-8).
SYSTEM_KINDS = frozenset({"world", "jump_station", "empty_system", "stargate"})

HexLike = tuple[int, int]
GameMap = dict[str, Any]


class Dice(Protocol):
    """What the generator needs from an ``Rng``."""

    def below(self, n: int) -> int: ...

    def d6(self) -> int: ...


class MapGenerationError(RuntimeError):
    """No valid map within the allowed attempts (NH-MAP-13 step 7)."""


class _NoRoom(Exception):
    """A free roll has no eligible hex left: the attempt is abandoned (see _free_roll)."""


# ------------------------------------------------------------------------------ keys
def hex_key(h: HexLike) -> str:
    """The ``features`` key of a hex: ``(3, 4)`` -> ``"3,4"``."""
    return f"{h[0]},{h[1]}"


def key_hex(key: str) -> Hex:
    """The inverse of :func:`hex_key`: ``"3,4"`` -> ``Hex(3, 4)``."""
    x, y = key.split(",")
    return Hex(int(x), int(y))


# ------------------------------------------------------------------------------ inputs
def check_settings(settings: Mapping[str, int] | None,
                   rules: MapRules | None = None) -> dict[str, int]:
    """NH-MAP-16's settings, every one present, checked against the rules' ranges.

    Missing settings are 0 (the default); an unknown name or a value out of range is a
    ValueError naming it.
    """
    ranges = (rules or default_rules()).ranges
    given = dict(settings or {})
    unknown = sorted(set(given) - set(ranges))
    if unknown:
        raise ValueError(f"unknown map settings {unknown}; known: {sorted(ranges)}")
    checked = {}
    for name, (low, high) in ranges.items():
        value = given.get(name, 0)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ValueError(f"map setting {name} must be an integer from {low} to {high}, "
                             f"not {value!r}")
        checked[name] = value
    return checked


def seat_corners(grid: HexGrid) -> list[Hex]:
    """The corners in seat order (NH-MAP-11): seat 1 top left, seat 2 bottom right, seat 3
    top right, seat 4 bottom left. Seats 1 and 2 get the two equivalent corners (NH-MAP-5)."""
    w, h = grid.width, grid.height
    return [Hex(1, 1), Hex(w, h), Hex(w, 1), Hex(1, h)]


def homeworld_corners(seat_homeworlds: Sequence[str], homeworlds: Sequence[str],
                      grid: HexGrid = STANDARD_GRID) -> dict[str, Hex]:
    """Homeworld -> corner (NH-MAP-10, NH-MAP-11).

    ``seat_homeworlds`` are the houses' homeworlds in seat order; ``homeworlds`` all four in
    the world table's order. The homeworlds no house chose take the corners left, in table order,
    the corners taken in seat order: every homeworld is on the map, the unused ones as neutral
    worlds (NH-WORLD-4).
    """
    if len(homeworlds) != 4 or len(set(homeworlds)) != 4:
        raise ValueError(f"need the four different homeworlds, not {list(homeworlds)}")
    if len(seat_homeworlds) > 4 or len(set(seat_homeworlds)) != len(seat_homeworlds):
        raise ValueError(f"each of at most 4 seats needs its own homeworld: "
                         f"{list(seat_homeworlds)}")
    strangers = [name for name in seat_homeworlds if name not in homeworlds]
    if strangers:
        raise ValueError(f"not homeworlds: {strangers}")
    order = list(seat_homeworlds) + [name for name in homeworlds if name not in seat_homeworlds]
    return dict(zip(order, seat_corners(grid)))


# ------------------------------------------------------------------------------ building
def build_map(worlds: Mapping[str, HexLike],
              obstacles: Mapping[HexLike, str] | Iterable[HexLike] = (),
              jump_stations: Iterable[HexLike] = (),
              empty_systems: Iterable[HexLike] = (),
              stargates: Iterable[tuple[HexLike, HexLike]] = (),
              width: int = 10, height: int = 10) -> GameMap:
    """A map dict from placed features (the generator's output, or a hand-made map).

    ``obstacles`` maps hex -> ``"nebula"``, ``"black_hole"`` or ``"supernova"``; a plain list
    of hexes makes nebulas. A ValueError is raised for a hex off the board, a second feature
    on a hex (NH-MAP-7, NH-MAP-8) or an unknown obstacle type.
    """
    grid = HexGrid(width, height)
    features: dict[str, dict[str, Any]] = {}

    def put(h: HexLike, feature: dict[str, Any]) -> None:
        if not grid.contains(h):
            raise ValueError(f"{tuple(h)} is off the {width}x{height} board")
        key = hex_key(h)
        if key in features:
            raise ValueError(f"{tuple(h)} already holds {features[key]}; one feature per hex")
        features[key] = feature

    for name, h in worlds.items():
        put(h, {"kind": "world", "name": name})
    typed = obstacles.items() if isinstance(obstacles, Mapping) else ((h, "nebula")
                                                                       for h in obstacles)
    kinds = set(default_rules().obstacle_by_d6)
    for h, kind in typed:
        if kind not in kinds:
            raise ValueError(f"unknown obstacle type {kind!r}; known: {sorted(kinds)}")
        put(h, {"kind": "obstacle", "obstacle": kind})
    for h in jump_stations:
        put(h, {"kind": "jump_station"})
    for h in empty_systems:
        put(h, {"kind": "empty_system"})
    pairs = []
    for i, (a, b) in enumerate(stargates):
        put(a, {"kind": "stargate", "pair": i, "to": [b[0], b[1]]})
        put(b, {"kind": "stargate", "pair": i, "to": [a[0], a[1]]})
        pairs.append([[a[0], a[1]], [b[0], b[1]]])
    return {
        "width": width,
        "height": height,
        "worlds": {name: [h[0], h[1]] for name, h in worlds.items()},
        "features": features,
        "stargates": pairs,
    }


# ------------------------------------------------------------------------------ generating
def _die(rng: Dice, faces: int) -> int:
    """A die with faces 1..faces (see the module docstring: a d10 is below(10) + 1)."""
    return rng.below(faces) + 1


def _free_roll(rng: Dice, grid: HexGrid, taken: set[Hex],
               extra: Callable[[Hex], bool] = lambda h: True) -> Hex:
    """NH-MAP-13's free roll: a die for x, a die for y, both again while the hex is a corner,
    already taken, or fails the step's extra condition.

    If no hex of the board could ever pass, rolling on would never end; then the attempt is
    abandoned instead (_NoRoom), as if validation had failed, and the dice stream goes on. This
    only happens to a stargate's second end on a crowded board. The check rolls no dice.
    """
    corners = set(grid.corners())

    def eligible(h: Hex) -> bool:
        return h not in corners and h not in taken and extra(h)

    if not any(eligible(h) for h in grid.hexes()):
        raise _NoRoom
    while True:
        x = _die(rng, grid.width)
        y = _die(rng, grid.height)
        h = Hex(x, y)
        if eligible(h):
            return h


def _place_everything(rng: Dice, grid: HexGrid, corners: Mapping[str, Hex],
                      worlds: Sequence[str], counts: Mapping[str, int],
                      stargate_min_distance: int, obstacle_by_d6: Sequence[str]) -> GameMap:
    """Steps 1 to 6 of NH-MAP-13, rolling in exactly the rules' order."""
    taken: set[Hex] = set(corners.values())            # step 1: the homeworlds

    def roll(extra: Callable[[Hex], bool] = lambda h: True) -> Hex:
        h = _free_roll(rng, grid, taken, extra)
        taken.add(h)
        return h

    placed = dict(corners)
    for name in worlds:                                  # step 2: table order
        placed[name] = roll()
    obstacles = {}
    for _ in range(counts["obstacles"]):                 # step 3: the hex, then its type
        h = roll()
        obstacles[h] = obstacle_by_d6[rng.d6() - 1]
    stations = [roll() for _ in range(counts["jump_stations"])]       # step 4
    empties = [roll() for _ in range(counts["empty_systems"])]        # step 5
    gates = []
    for _ in range(counts["stargate_pairs"]):            # step 6: end A, then a far end B
        a = roll()
        b = roll(lambda h, a=a: distance(a, h) >= stargate_min_distance)
        gates.append((a, b))
    return build_map(placed, obstacles, stations, empties, gates, grid.width, grid.height)


def generate_map(rng: Dice, seat_homeworlds: Sequence[str], homeworlds: Sequence[str],
                 worlds: Sequence[str], settings: Mapping[str, int] | None = None,
                 jump_range: int = 3, *, width: int = 10, height: int = 10,
                 rules: MapRules | None = None, max_attempts: int | None = None,
                 stargate_min_distance: int | None = None) -> GameMap:
    """A random valid map (NH-MAP-13), as the dict of the module docstring.

    - ``rng``: the game's generator (anything with ``below(n)`` and ``d6()``); it is advanced
      by exactly the dice rolled, so the game state can store it afterwards.
    - ``seat_homeworlds``: the houses' homeworlds in seat order (NH-MAP-11).
    - ``homeworlds``: the four homeworlds in the world table's order; ``worlds``: the 20 others
      in table order (Quayat first, Marx last). They are placed in these orders.
    - ``settings``: NH-MAP-16's counts (see :func:`check_settings`).
    - ``jump_range``: the R of validation (NH-MAP-18): 3, or 4 with the variant.

    Maps failing validation are discarded and step 1 starts again on the same dice stream;
    after ``max_attempts`` failures a MapGenerationError names the settings.
    - ``rules``: the generator's decided values (default: the map_settings table);
      ``max_attempts`` and ``stargate_min_distance`` override two of them.
    """
    rules = rules or default_rules()
    max_attempts = rules.max_attempts if max_attempts is None else max_attempts
    if stargate_min_distance is None:
        stargate_min_distance = rules.stargate_min_distance
    counts = check_settings(settings, rules)
    if isinstance(jump_range, bool) or not isinstance(jump_range, int) or jump_range < 1:
        raise ValueError(f"the jump range must be a positive integer, not {jump_range!r}")
    grid = HexGrid(width, height)
    corners = homeworld_corners(seat_homeworlds, homeworlds, grid)
    if len(worlds) != 20 or len(set(worlds)) != 20 or set(worlds) & set(homeworlds):
        raise ValueError("need the 20 different non-home worlds in table order")
    needed = len(worlds) + counts["obstacles"] + counts["jump_stations"] \
        + counts["empty_systems"] + 2 * counts["stargate_pairs"]
    room = len(grid.hexes()) - len(set(grid.corners()))
    if needed > room:
        raise ValueError(f"{needed} features do not fit the {room} free hexes of a "
                         f"{width}x{height} board")
    for attempt in range(1, max_attempts + 1):
        try:
            game_map = _place_everything(rng, grid, corners, worlds, counts,
                                         stargate_min_distance, rules.obstacle_by_d6)
        except _NoRoom:
            continue
        if not unreachable_systems(game_map, jump_range):          # step 7
            game_map.update(settings=counts, jump_range=jump_range, attempts=attempt)
            return game_map
    described = ", ".join(f"{name}={value}" for name, value in counts.items())
    raise MapGenerationError(
        f"no valid map in {max_attempts} attempts with {described}, jump range {jump_range}, "
        f"board {width}x{height}: try fewer obstacles or a longer jump range")


# ------------------------------------------------------------------------------ reading
def grid_of(game_map: GameMap) -> HexGrid:
    """The board of a map dict."""
    return HexGrid(game_map.get("width", 10), game_map.get("height", 10))


def hexes_of_kind(game_map: GameMap, *kinds: str) -> list[Hex]:
    """The hexes holding a feature of one of ``kinds``, in board order (rows from the top)."""
    found = [key_hex(k) for k, f in game_map["features"].items() if f["kind"] in kinds]
    return sorted(found, key=lambda h: (h.y, h.x))


def system_hexes(game_map: GameMap) -> list[Hex]:
    """NH-MAP-9: hexes with a world, jump station, empty star system or stargate, in board
    order."""
    return hexes_of_kind(game_map, *SYSTEM_KINDS)


def obstacle_hexes(game_map: GameMap) -> list[Hex]:
    """Hexes no jumpship may enter (NH-MOV-5), in board order."""
    return hexes_of_kind(game_map, "obstacle")


def stargate_links(game_map: GameMap) -> dict[Hex, list[Hex]]:
    """Each stargate end -> the hex it crosses to (both ways), for HexGrid.reachable."""
    links: dict[Hex, list[Hex]] = {}
    for a, b in game_map["stargates"]:
        links.setdefault(Hex(*a), []).append(Hex(*b))
        links.setdefault(Hex(*b), []).append(Hex(*a))
    return links


def _mover(game_map: GameMap, jump_range: int) -> Callable[[HexLike], dict[Hex, int]]:
    """start -> {destination: fewest steps}; the board, obstacles and links read once."""
    grid = grid_of(game_map)
    blocked = set(obstacle_hexes(game_map))
    systems = set(system_hexes(game_map))
    links = stargate_links(game_map)

    def move(start: HexLike) -> dict[Hex, int]:
        # NH-MOV-3, NH-MOV-6: at most R steps, never into an obstacle (NH-MOV-5), ending in
        # any system hex (NH-MOV-4); a stargate crossing is free, once per move (NH-MOV-7).
        reach = grid.reachable(start, jump_range, passable=lambda h: h not in blocked,
                               links=links)
        return {h: n for h, n in reach.items() if h in systems and h != start}

    return move


def map_signature(game_map: GameMap) -> tuple:
    """What movement depends on, as a hashable value: board size, features and gate pairs."""
    return (game_map.get("width", 10), game_map.get("height", 10),
            tuple(sorted((key, f["kind"]) for key, f in game_map["features"].items())),
            tuple((tuple(a), tuple(b)) for a, b in game_map["stargates"]))


_JUMP_TABLES: dict[tuple, dict[Hex, dict[Hex, int]]] = {}


def jump_table(game_map: GameMap, jump_range: int) -> dict[Hex, dict[Hex, int]]:
    """Every system hex -> its one-jump destinations (as :func:`destinations`), computed once
    per map and range: a game asks for the same few hexes thousands of times."""
    key = (map_signature(game_map), jump_range)
    table = _JUMP_TABLES.get(key)
    if table is None:
        if len(_JUMP_TABLES) > 64:          # a long session plays many maps: stay small
            _JUMP_TABLES.clear()
        move = _mover(game_map, jump_range)
        table = _JUMP_TABLES[key] = {h: move(h) for h in system_hexes(game_map)}
    return table


def destinations(game_map: GameMap, start: HexLike, jump_range: int) -> dict[Hex, int]:
    """The system hexes a jumpship at ``start`` can reach in one move -> the fewest hexes
    moved (a stargate crossing counts 0), ordered by distance then board order."""
    return _mover(game_map, jump_range)(start)


def jump_graph(game_map: GameMap, jump_range: int) -> dict[Hex, list[Hex]]:
    """NH-MAP-18's jump graph: every system hex -> the system hexes one move away, stargate
    partners included, each list in board order."""
    move = _mover(game_map, jump_range)
    links = stargate_links(game_map)
    graph = {}
    for h in system_hexes(game_map):
        targets = set(move(h)) | set(links.get(h, ()))   # the pair edge, stated explicitly
        graph[h] = sorted(targets, key=lambda t: (t.y, t.x))
    return graph


def unreachable_systems(game_map: GameMap, jump_range: int,
                        start: HexLike = VALIDATION_START) -> list[Hex]:
    """The system hexes the jump graph does not connect to ``start``, in board order; empty
    for a valid map (NH-MAP-18)."""
    move = _mover(game_map, jump_range)
    links = stargate_links(game_map)
    start = Hex(*start)
    seen = {start}
    queue = deque([start])
    # Breadth-first over the jump graph, building each node's edges only when it is reached.
    while queue:
        here = queue.popleft()
        for there in list(move(here)) + links.get(here, []):
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return [h for h in system_hexes(game_map) if h not in seen]


def is_valid(game_map: GameMap, jump_range: int) -> bool:
    """NH-MAP-18: every system hex is reachable from (1, 1) in the jump graph."""
    return not unreachable_systems(game_map, jump_range)
