"""Noble Houses' map generator (struggle_desktop.games.nobles.mapgen): the scripted-dice example
and the properties of NH-MAP-14, the roll order of NH-MAP-13, and the jump graph of NH-MAP-18
on hand-made maps."""

import doctest
import json
from collections import deque

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from struggle_desktop.engine.hexgrid import Hex, HexGrid, distance
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.nobles import mapgen
from struggle_desktop.games.nobles.mapgen import (
    MapGenerationError,
    build_map,
    check_settings,
    destinations,
    generate_map,
    hex_key,
    homeworld_corners,
    is_valid,
    jump_graph,
    key_hex,
    obstacle_hexes,
    stargate_links,
    system_hexes,
    unreachable_systems,
)

# The world table of rules-nobles.md, in its order: the four homeworlds, then the 20 others.
HOMEWORLDS = ["Lortran", "Gurati", "Kadesh", "Nitrix"]
WORLDS = ["Quayat", "Parallax", "Mercurium", "Frost", "Computus", "Bolavor", "Aquara", "Punah",
          "Griddox", "Yoravar", "Zenceti", "Eden", "Mox", "Hellish", "Dalton", "Bazarium",
          "Seedeen", "Pyreen", "Scorch", "Marx"]
CORNERS = {Hex(1, 1), Hex(10, 1), Hex(1, 10), Hex(10, 10)}

#: Hexes for the 20 non-home worlds that, with the four homeworlds, make a valid map at range 3
#: (checked in test_the_scripted_layout_is_valid). The first three are NH-MAP-14's example.
LAYOUT = [(3, 4), (5, 5), (10, 5), (4, 1), (7, 1), (1, 4), (1, 7), (4, 7), (7, 4), (7, 7),
          (4, 10), (7, 10), (10, 7), (3, 2), (8, 2), (2, 8), (8, 8), (5, 2), (5, 8), (9, 3)]


class ScriptedDice:
    """A stand-in for Rng that hands out the given faces in order: ``below(n)`` gives a
    scripted face 1..n as face - 1 (the generator reads it back as face), ``d6()`` a face."""

    def __init__(self, faces):
        self.faces = deque(faces)

    def below(self, n):
        face = self.faces.popleft()
        assert 1 <= face <= n, f"scripted face {face} is not on a die with {n} faces"
        return face - 1

    def d6(self):
        face = self.faces.popleft()
        assert 1 <= face <= 6
        return face


def faces(*hexes):
    """The d10 faces that roll these hexes, x then y each."""
    return [c for h in hexes for c in h]


def generate(rng, settings=None, jump_range=3, seats=("Lortran", "Gurati"), **kw):
    return generate_map(rng, list(seats), HOMEWORLDS, WORLDS, settings, jump_range, **kw)


def world_hex(game_map, name):
    return Hex(*game_map["worlds"][name])


def kinds(game_map):
    counts = {}
    for feature in game_map["features"].values():
        counts[feature["kind"]] = counts.get(feature["kind"], 0) + 1
    return counts


def test_docstring_examples():
    assert doctest.testmod(mapgen).failed == 0


# ---------------------------------------------------------------------- scripted dice
def test_the_scripted_layout_is_valid():
    """NH-MAP-18: the layout the scripted tests use passes the connectivity check."""
    layout = build_map({**homeworld_corners(HOMEWORLDS, HOMEWORLDS),
                        **dict(zip(WORLDS, LAYOUT))})
    assert is_valid(layout, 3)


def test_nh_map_14_scripted_example():
    """NH-MAP-14: with the d10 stream 1,1, 3,4, 3,4, 5,5, 10,10, 10,5, ... Quayat lands on
    (3,4) ((1,1) is a corner), Parallax on (5,5) ((3,4) is taken), Mercurium on (10,5)
    ((10,10) is a corner). NH-MAP-12: one d10 per coordinate, the 20 worlds in table order
    (NH-MAP-13 step 2), and nothing else is rolled for a map without terrain."""
    stream = [1, 1, 3, 4, 3, 4, 5, 5, 10, 10, 10, 5] + faces(*LAYOUT[3:])
    dice = ScriptedDice(stream)
    m = generate(dice)
    assert world_hex(m, "Quayat") == (3, 4)
    assert world_hex(m, "Parallax") == (5, 5)
    assert world_hex(m, "Mercurium") == (10, 5)
    assert [world_hex(m, name) for name in WORLDS] == LAYOUT
    assert list(m["worlds"]) == ["Lortran", "Gurati", "Kadesh", "Nitrix"] + WORLDS
    assert m["attempts"] == 1 and not dice.faces          # every scripted die used, no more
    assert m["features"]["3,4"] == {"kind": "world", "name": "Quayat"}
    assert m["settings"] == {"obstacles": 0, "jump_stations": 0, "empty_systems": 0,
                             "stargate_pairs": 0}
    assert m["jump_range"] == 3 and m["stargates"] == []


def test_nh_map_13_roll_order_of_every_step():
    """NH-MAP-13 steps 3-6: each obstacle's free roll then its d6 type; jump stations; empty
    star systems; stargate end A then end B, B rolled again while closer than 6 (NH-MAP-17)
    or on a corner, as for any free roll."""
    stream = (faces(*LAYOUT)
              + faces((2, 5)) + [4]                        # obstacle 1: a black hole
              + faces((2, 5), (6, 6)) + [6]                # obstacle 2: (2,5) is taken
              + faces((9, 5))                              # jump station
              + faces((1, 10), (5, 10))                    # empty system: (1,10) is a corner
              + faces((3, 3))                              # stargate A
              + faces((4, 4), (1, 1), (3, 4), (8, 9)))     # B: near, corner, taken, good
    dice = ScriptedDice(stream)
    m = generate(dice, {"obstacles": 2, "jump_stations": 1, "empty_systems": 1,
                        "stargate_pairs": 1})
    assert not dice.faces and m["attempts"] == 1
    assert distance((3, 3), (4, 4)) < 6 <= distance((3, 3), (8, 9))
    f = m["features"]
    assert f["2,5"] == {"kind": "obstacle", "obstacle": "black_hole"}
    assert f["6,6"] == {"kind": "obstacle", "obstacle": "supernova"}
    assert f["9,5"] == {"kind": "jump_station"}
    assert f["5,10"] == {"kind": "empty_system"}
    assert f["3,3"] == {"kind": "stargate", "pair": 0, "to": [8, 9]}
    assert f["8,9"] == {"kind": "stargate", "pair": 0, "to": [3, 3]}
    assert m["stargates"] == [[[3, 3], [8, 9]]]
    assert list(f)[24:] == ["2,5", "6,6", "9,5", "5,10", "3,3", "8,9"]   # in roll order


@pytest.mark.parametrize("roll, kind", [(1, "nebula"), (2, "nebula"), (3, "black_hole"),
                                        (4, "black_hole"), (5, "supernova"), (6, "supernova")])
def test_nh_map_13_obstacle_type_by_d6(roll, kind):
    """NH-MAP-13 step 3: after its hex, an obstacle's type by d6 (1-2, 3-4, 5-6)."""
    dice = ScriptedDice(faces(*LAYOUT) + faces((6, 6)) + [roll])
    m = generate(dice, {"obstacles": 1})
    assert m["features"]["6,6"] == {"kind": "obstacle", "obstacle": kind}


def test_nh_map_13_failed_validation_restarts_on_the_same_stream():
    """NH-MAP-13 step 7 and NH-MAP-18: the first map walls (1,1) in with obstacles at (2,1)
    and (1,2), so it is discarded; step 1 starts again with the next dice."""
    first = faces(*LAYOUT) + faces((2, 1)) + [1] + faces((1, 2)) + [5]
    moved = [(6, 6)] + LAYOUT[1:]                     # the second map is a little different
    second = faces(*moved) + faces((2, 5)) + [3] + faces((9, 9)) + [6]
    dice = ScriptedDice(first + second)
    m = generate(dice, {"obstacles": 2})
    assert not dice.faces
    assert m["attempts"] == 2
    assert world_hex(m, "Quayat") == (6, 6)
    assert obstacle_hexes(m) == [Hex(2, 5), Hex(9, 9)]
    assert m["features"]["2,5"]["obstacle"] == "black_hole"
    # The discarded map really fails validation, for the reason given.
    walled = build_map(dict(zip(WORLDS, LAYOUT)) | homeworld_corners(HOMEWORLDS, HOMEWORLDS),
                       {(2, 1): "nebula", (1, 2): "supernova"})
    assert unreachable_systems(walled, 3) == [h for h in system_hexes(walled) if h != (1, 1)]


def test_nh_map_13_gives_up_after_1000_failed_attempts(monkeypatch):
    """NH-MAP-13 step 7: 1,000 failed maps, then an error naming the settings."""
    checked = []
    monkeypatch.setattr(mapgen, "unreachable_systems",
                        lambda m, r: checked.append(m) or [Hex(1, 1)])
    with pytest.raises(MapGenerationError) as error:
        generate(Rng.from_seed(3), {"obstacles": 5, "empty_systems": 2}, 4)
    assert len(checked) == 1000
    message = str(error.value)
    assert "1000 attempts" in message and "obstacles=5" in message
    assert "empty_systems=2" in message and "jump range 4" in message


def test_nh_map_13_really_impossible_settings_fail_too():
    """A jump range of 1 strands almost every world, so no map passes NH-MAP-18."""
    with pytest.raises(MapGenerationError, match="30 attempts.*jump range 1"):
        generate(Rng.from_seed(5), jump_range=1, max_attempts=30)


def test_a_free_roll_with_no_eligible_hex_abandons_the_attempt():
    """The free roll would re-roll for ever when no hex can pass (here: a stargate minimum
    distance nothing reaches); the attempt is abandoned like a failed validation, rolling no
    more dice, and the error follows after the allowed attempts."""
    per_attempt = faces(*LAYOUT) + faces((3, 3))       # the worlds and end A, then no room
    dice = ScriptedDice(per_attempt * 3)
    with pytest.raises(MapGenerationError, match="3 attempts"):
        generate(dice, {"stargate_pairs": 1}, max_attempts=3, stargate_min_distance=99)
    assert not dice.faces


# ---------------------------------------------------------------------- inputs
@pytest.mark.parametrize("seats, expected", [
    (["Lortran", "Gurati"], {"Lortran": (1, 1), "Gurati": (10, 10), "Kadesh": (10, 1),
                             "Nitrix": (1, 10)}),
    (["Nitrix", "Kadesh"], {"Nitrix": (1, 1), "Kadesh": (10, 10), "Lortran": (10, 1),
                            "Gurati": (1, 10)}),
    (["Gurati", "Nitrix", "Lortran"], {"Gurati": (1, 1), "Nitrix": (10, 10),
                                       "Lortran": (10, 1), "Kadesh": (1, 10)}),
    (["Kadesh", "Lortran", "Nitrix", "Gurati"], {"Kadesh": (1, 1), "Lortran": (10, 10),
                                                 "Nitrix": (10, 1), "Gurati": (1, 10)}),
])
def test_nh_map_11_seats_take_their_corners_and_the_rest_go_in_table_order(seats, expected):
    """NH-MAP-10: homeworlds in the corners; NH-MAP-11: seat 1 (1,1), seat 2 (10,10), seat 3
    (10,1), seat 4 (1,10); unused homeworlds fill the corners left in table order."""
    assert homeworld_corners(seats, HOMEWORLDS) == expected
    m = generate(Rng.from_seed(11), seats=seats)
    assert {name: world_hex(m, name) for name in HOMEWORLDS} == expected


@pytest.mark.parametrize("seats", [["Lortran", "Lortran"], ["Lortran", "Quayat"],
                                   HOMEWORLDS + ["Lortran"]])
def test_bad_seat_homeworlds_are_refused(seats):
    """NH-MAP-11: one to four different homeworlds, one per seat."""
    with pytest.raises(ValueError):
        generate(Rng.from_seed(1), seats=seats)


def test_nh_map_16_settings_default_to_zero_and_are_range_checked():
    """NH-MAP-16: obstacles 0-8, jump stations 0-4, empty star systems 0-4, stargate pairs
    0-1, all 0 by default."""
    assert check_settings(None) == {"obstacles": 0, "jump_stations": 0, "empty_systems": 0,
                                    "stargate_pairs": 0}
    top = {"obstacles": 8, "jump_stations": 4, "empty_systems": 4, "stargate_pairs": 1}
    assert check_settings(top) == top
    for name, too_many in [("obstacles", 9), ("jump_stations", 5), ("empty_systems", 5),
                           ("stargate_pairs", 2)]:
        with pytest.raises(ValueError, match=f"{name} must be an integer from 0 to"):
            generate(Rng.from_seed(1), {name: too_many})
        with pytest.raises(ValueError, match=name):
            check_settings({name: -1})
    with pytest.raises(ValueError, match="unknown map settings"):
        check_settings({"asteroids": 1})
    with pytest.raises(ValueError):
        check_settings({"obstacles": True})
    with pytest.raises(ValueError):
        check_settings({"obstacles": 1.0})


def test_other_bad_inputs_are_refused():
    with pytest.raises(ValueError, match="jump range"):
        generate(Rng.from_seed(1), jump_range=0)
    with pytest.raises(ValueError, match="20 different non-home worlds"):
        generate_map(Rng.from_seed(1), ["Lortran"], HOMEWORLDS, WORLDS[:-1])
    with pytest.raises(ValueError, match="20 different non-home worlds"):
        generate_map(Rng.from_seed(1), ["Lortran"], HOMEWORLDS, WORLDS[:-1] + ["Quayat"])
    with pytest.raises(ValueError, match="four different homeworlds"):
        generate_map(Rng.from_seed(1), ["Lortran"], HOMEWORLDS[:3], WORLDS)
    with pytest.raises(ValueError, match="do not fit"):   # 20 + 8 + 4 + 4 + 2 > 36 - 4
        generate(Rng.from_seed(1), {"obstacles": 8, "jump_stations": 4, "empty_systems": 4,
                                    "stargate_pairs": 1}, width=6, height=6)


# ---------------------------------------------------------------------- properties
terrain = st.fixed_dictionaries({
    "obstacles": st.integers(0, 8),
    "jump_stations": st.integers(0, 4),
    "empty_systems": st.integers(0, 4),
    "stargate_pairs": st.integers(0, 1),
})
seat_lists = st.integers(2, 4).flatmap(
    lambda n: st.permutations(HOMEWORLDS).map(lambda p: list(p[:n])))


def connected_by_bfs(graph, start=(1, 1)):
    start = Hex(*start)
    seen, queue = {start}, deque([start])
    while queue:
        for there in graph[queue.popleft()]:
            if there not in seen:
                seen.add(there)
                queue.append(there)
    return seen


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 2**64 - 1), terrain=terrain, jump_range=st.sampled_from([3, 4]),
       seats=seat_lists)
def test_nh_map_14_properties_of_every_generated_map(seed, terrain, jump_range, seats):
    """NH-MAP-14's properties for any seed and settings: the corners hold the homeworlds
    (NH-MAP-10, NH-MAP-11), 24 worlds on 24 hexes (NH-MAP-7), the requested terrain counts
    (NH-MAP-16), stargate ends at least 6 apart and both system hexes (NH-MAP-17), one feature
    per hex (NH-MAP-8), the map passes NH-MAP-18; and the same seed gives the same map."""
    m = generate(Rng.from_seed(seed), terrain, jump_range, seats=seats)
    corners = homeworld_corners(seats, HOMEWORLDS)
    assert {name: world_hex(m, name) for name in HOMEWORLDS} == corners
    assert all(m["features"][hex_key(c)]["kind"] == "world" for c in CORNERS)
    # 24 worlds on 24 hexes, each hex listed once and agreeing with "worlds".
    assert list(m["worlds"]) == list(corners) + WORLDS
    assert len({tuple(h) for h in m["worlds"].values()}) == 24
    for name, h in m["worlds"].items():
        assert m["features"][hex_key(h)] == {"kind": "world", "name": name}
    # Requested counts, and nothing else on the board: one feature per hex.
    expected = {"world": 24, "obstacle": terrain["obstacles"],
                "jump_station": terrain["jump_stations"],
                "empty_system": terrain["empty_systems"],
                "stargate": 2 * terrain["stargate_pairs"]}
    assert kinds(m) == {k: n for k, n in expected.items() if n}
    assert len(m["features"]) == sum(expected.values())
    assert all(HexGrid().contains(key_hex(k)) for k in m["features"])
    assert len(m["stargates"]) == terrain["stargate_pairs"]
    for a, b in m["stargates"]:
        assert distance(a, b) >= 6
        assert Hex(*a) in system_hexes(m) and Hex(*b) in system_hexes(m)
    # Valid, and the jump graph agrees with the validation's search; moves can be reversed.
    assert is_valid(m, jump_range) and unreachable_systems(m, jump_range) == []
    graph = jump_graph(m, jump_range)
    assert set(graph) == set(system_hexes(m))
    assert connected_by_bfs(graph) == set(graph)
    assert all(a in graph[b] for a in graph for b in graph[a])
    assert m["settings"] == terrain and m["jump_range"] == jump_range and m["attempts"] >= 1
    # JSON-ready, and reproducible.
    assert json.loads(json.dumps(m)) == m
    assert generate(Rng.from_seed(seed), terrain, jump_range, seats=seats) == m


def test_same_seed_same_map_and_generator_state_different_seeds_different_maps():
    """NH-MAP-14: reproducible from seed and settings; NH-MAP-13: the dice come from the
    game's generator, which is left where the map generation stopped."""
    full = {"obstacles": 6, "jump_stations": 2, "empty_systems": 2, "stargate_pairs": 1}
    a, b = Rng.from_seed(2024), Rng.from_seed(2024)
    assert generate(a, full) == generate(b, full)
    assert a.to_json() == b.to_json() and a.to_json() != Rng.from_seed(2024).to_json()
    maps = [json.dumps(generate(Rng.from_seed(seed), full), sort_keys=True)
            for seed in range(20)]
    assert len(set(maps)) == 20
    # The settings change the map too (the dice are used for other things).
    assert generate(Rng.from_seed(7)) != generate(Rng.from_seed(7), {"obstacles": 1})


def test_larger_boards_roll_each_coordinate_over_their_own_size():
    """NH-OPT-3: on a W x H board the homeworlds take its corners and coordinates are rolled
    over the board's own width and height."""
    m = generate(Rng.from_seed(9), {"obstacles": 8}, width=12, height=15)
    assert m["width"] == 12 and m["height"] == 15
    assert {tuple(world_hex(m, n)) for n in HOMEWORLDS} == {(1, 1), (12, 15), (12, 1), (1, 15)}
    assert is_valid(m, 3)
    placed = [key_hex(k) for k in m["features"]][4:]      # all but the homeworlds
    assert all(1 <= x <= 12 and 1 <= y <= 15 for x, y in placed)
    assert any(x > 10 or y > 10 for x, y in placed)


# ---------------------------------------------------------------------- hand-made maps
def homes(**extra):
    return {"Lortran": (1, 1), "Gurati": (10, 10), "Kadesh": (10, 1), "Nitrix": (1, 10),
            **extra}


#: A chain of worlds linking the four corners at range 3, away from the middle of the board.
CHAIN = dict(zip(WORLDS, [(4, 1), (7, 1), (10, 4), (10, 7), (7, 10), (4, 10), (1, 7),
                          (1, 4)]))
#: Eight obstacles around the two hexes (5,5) and (6,5).
WALL = [(4, 4), (5, 4), (6, 4), (4, 5), (7, 5), (4, 6), (5, 6), (6, 6)]


def test_nh_map_18_a_world_walled_in_by_obstacles_is_found_and_a_stargate_frees_it():
    """NH-MAP-18: a world shut in by obstacles (NH-MAP-15: jumpships cannot pass them) makes
    the map invalid; a stargate pair from inside the wall to a far hex is an edge of the jump
    graph and makes it valid (NH-MAP-17: each end a system hex)."""
    base = homes(**CHAIN, Zenceti=(5, 5))
    shut = build_map(base, WALL, jump_stations=[(6, 5)])
    assert unreachable_systems(shut, 3) == [Hex(5, 5), Hex(6, 5)]
    assert not is_valid(shut, 3) and not is_valid(shut, 4)
    assert destinations(shut, (5, 5), 4) == {Hex(6, 5): 1}
    # The same without the wall is fine: the chain and the middle are within 3 and 4.
    assert is_valid(build_map(base, [], jump_stations=[(6, 5)]), 4)

    far = Hex(2, 9)                                  # empty space near Nitrix's corner
    assert distance((6, 5), far) >= 6
    gated = build_map(base, WALL, stargates=[((6, 5), far)])
    assert unreachable_systems(gated, 3) == []
    graph = jump_graph(gated, 3)
    assert far in graph[Hex(6, 5)] and Hex(6, 5) in graph[far]
    # From Zenceti: 1 hex to the gate, across for nothing, then on to Nitrix and (1,7).
    assert destinations(gated, (5, 5), 3) == {Hex(6, 5): 1, far: 1, Hex(1, 10): 2,
                                              Hex(1, 7): 3}
    assert graph[Hex(5, 5)] == [Hex(6, 5), Hex(1, 7), far, Hex(1, 10)]
    assert stargate_links(gated) == {Hex(6, 5): [far], far: [Hex(6, 5)]}


def test_nh_map_18_walled_homeworld_fails_validation():
    """Obstacles on both neighbours of (1,1) leave it no move, so the map fails NH-MAP-18."""
    m = build_map(homes(**CHAIN), [(2, 1), (1, 2)])
    assert destinations(m, (1, 1), 4) == {}
    assert unreachable_systems(m, 4) == [h for h in system_hexes(m) if h != (1, 1)]
    # Validation starts from (1,1): from another corner only (1,1) is missing.
    assert unreachable_systems(m, 4, start=(10, 10)) == [Hex(1, 1)]


def test_nh_map_9_and_nh_map_15_which_hexes_are_destinations():
    """NH-MAP-9: worlds, jump stations, empty star systems and stargates are system hexes;
    obstacles and empty space are not. NH-MAP-15: jump stations and empty systems are valid
    destinations; nobody may enter an obstacle, even to pass through."""
    m = build_map({"Quayat": (5, 5), "Frost": (8, 5)}, {(7, 5): "supernova"},
                  jump_stations=[(5, 3)], empty_systems=[(3, 5)],
                  stargates=[((5, 7), (10, 10))])
    assert system_hexes(m) == [Hex(5, 3), Hex(3, 5), Hex(5, 5), Hex(8, 5), Hex(5, 7),
                               Hex(10, 10)]
    assert obstacle_hexes(m) == [Hex(7, 5)]
    found = destinations(m, (5, 5), 3)
    # Frost (8,5) is 3 away in a straight line through the supernova, 4 around it; the
    # stargate (5,7) is 2 away and crossing it costs nothing, so (10,10) is 2 away too.
    assert found == {Hex(5, 3): 2, Hex(3, 5): 2, Hex(5, 7): 2, Hex(10, 10): 2}
    assert destinations(m, (5, 5), 4)[Hex(8, 5)] == 4
    assert Hex(7, 5) not in destinations(m, (5, 5), 4)         # an obstacle is never a stop
    assert Hex(6, 5) not in destinations(m, (5, 5), 4)         # nor is empty space


def test_moves_around_obstacles():
    """NH-MOV-5, NH-MOV-6: the movement rules' own vectors: with an obstacle at (6,5) the move
    (5,5) -> (7,5) takes 3 steps, via (5,4) and (6,4); with obstacles at (6,5), (5,4) and (5,6)
    it takes 5, so it is out of range 3."""
    worlds = {"Quayat": (5, 5), "Frost": (7, 5)}
    one = build_map(worlds, [(6, 5)])
    assert destinations(one, (5, 5), 3) == {Hex(7, 5): 3}
    three = build_map(worlds, [(6, 5), (5, 4), (5, 6)])
    assert destinations(three, (5, 5), 3) == {} and destinations(three, (5, 5), 4) == {}
    assert destinations(three, (5, 5), 5) == {Hex(7, 5): 5}


def test_nh_map_8_one_feature_per_hex_in_hand_made_maps():
    """NH-MAP-7: one world per hex; NH-MAP-8: one feature of any kind per hex; NH-MAP-6's
    feature kinds only."""
    with pytest.raises(ValueError, match="one feature per hex"):
        build_map({"Quayat": (3, 3), "Frost": (3, 3)})
    with pytest.raises(ValueError, match="one feature per hex"):
        build_map({"Quayat": (3, 3)}, [(3, 3)])
    with pytest.raises(ValueError, match="one feature per hex"):
        build_map({}, jump_stations=[(4, 4)], stargates=[((4, 4), (9, 9))])
    with pytest.raises(ValueError, match="unknown obstacle type"):
        build_map({}, {(4, 4): "asteroid field"})
    with pytest.raises(ValueError, match="off the 10x10 board"):
        build_map({"Quayat": (11, 3)})
    m = build_map({"Quayat": (3, 3)}, {(4, 4): "nebula", (5, 5): "black_hole",
                                       (6, 6): "supernova"}, [(7, 7)], [(8, 8)],
                  [((2, 9), (9, 2))])
    assert {f["kind"] for f in m["features"].values()} == set(mapgen.KINDS)


def test_hex_keys():
    assert hex_key((3, 4)) == "3,4" and key_hex("10,1") == Hex(10, 1)
    assert all(key_hex(hex_key(h)) == h for h in HexGrid().hexes())


def test_the_generators_decided_values_come_from_the_map_settings_table():
    """NH-MAP-16, NH-MAP-17: ranges, obstacle types and the stargate distance are read from
    the editable table; a changed table changes the generator."""
    from struggle_desktop.games.nobles.data import default_data

    table = default_data()["map_settings"]
    rules = mapgen.default_rules()
    assert rules.ranges["obstacles"] == (table["settings"]["obstacles"]["min"],
                                         table["settings"]["obstacles"]["max"])
    assert rules.stargate_min_distance == table["stargate_min_distance"]
    only_supernovas = mapgen.MapRules(rules.ranges, ("supernova",) * 6, 6, 1000)
    game_map = generate(Rng.from_seed(3), {"obstacles": 4}, rules=only_supernovas)
    kinds = {f["obstacle"] for f in game_map["features"].values() if f["kind"] == "obstacle"}
    assert kinds == {"supernova"}
    wider = mapgen.MapRules({**rules.ranges, "obstacles": (0, 2)}, rules.obstacle_by_d6, 6, 1000)
    with pytest.raises(ValueError, match="obstacles"):
        generate(Rng.from_seed(3), {"obstacles": 4}, rules=wider)
