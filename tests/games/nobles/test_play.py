"""Whole Noble Houses games: the set-up from a seed, random legal play with the position
checks after every action (the short version of ``tools/fuzz.py --game nobles``), and
replays."""

from __future__ import annotations

from collections import Counter

import pytest

from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME
from struggle_desktop.games.nobles.mapgen import is_valid

CORNERS = [[1, 1], [10, 10], [10, 1], [1, 10]]


def set_up(houses, seed=5, **options):
    state = GAME.setup("standard", seed, {"houses": houses, "seat1": "ai", **options})
    GAME.advance(state)
    while state["pending"]["kind"] == "homeworld_army":
        role = state["pending"]["role"]
        GAME.apply(state, role, GAME.legal_actions(state, role)[0], copy=False)
        GAME.advance(state)
    return state


@pytest.mark.parametrize("houses", [2, 3, 4])
def test_the_set_up_gives_every_house_its_forces_on_its_homeworld(houses):
    """NH-SETUP-1, NH-SETUP-4, NH-SETUP-5, NH-SETUP-6, NH-ALLY-2, NH-ALLY-5, NH-ALLY-6,
    NH-WORLD-3, NH-MAP-11: each house holds its homeworld in its seat's corner with 3 Nobles,
    3 House Troops, a nuke, 2 jumpships, 2 homeworld armies and its allies' units (tagged);
    3d6 Solats; every other world is neutral and empty."""
    state = set_up(houses)
    assert state["pending"]["kind"] not in ("homeworld", "homeworld_army")
    per_house = GAME.data.allies_per_house[houses]
    held = []
    for i, (letter, house) in enumerate(state["houses"].items()):
        home = house["homeworld"]
        assert state["map"]["worlds"][home] == CORNERS[i]
        assert state["worlds"][home]["controller"] == letter
        assert len(house["allies"]) == per_house
        held += house["allies"]
        mine = [u for u in state["units"].values() if u["owner"] == letter]
        assert all(u["hex"] == CORNERS[i] for u in mine)
        kinds = Counter(u["type"] for u in mine if u["ally"] is None)
        assert kinds["Noble"] == 3 and kinds["Jumpship"] == 2
        assert kinds["Nuclear Arsenal"] == 1 and kinds["House Troops"] == 3
        own = set(GAME.data.worlds[home].recruits) - {"House Troops"}
        assert sum(n for t, n in kinds.items() if t in own) == 2
        tagged = Counter(u["ally"] for u in mine if u["ally"])
        assert tagged == Counter({a: sum(GAME.data.allies[a].units.values())
                                  for a in house["allies"] if GAME.data.allies[a].units})
    assert len(state["unassigned"]) == 17 - per_house * houses
    assert sorted(held + state["unassigned"]) == sorted(GAME.data.allies)
    homes = {h["homeworld"] for h in state["houses"].values()}
    for world, row in state["worlds"].items():
        if world not in homes:
            assert row["controller"] is None
            assert not [u for u in state["units"].values()
                        if u["hex"] == state["map"]["worlds"][world]]
    assert is_valid(state["map"], 3)


def test_the_set_up_uses_its_dice_in_order():
    """NH-SETUP-3, NH-SETUP-2, NH-ALLY-3: homeworld draws, then the map, then the ally deal,
    then the Solats, in seat order."""
    state = set_up(3)
    rules = [e["rule"] for e in state["log"] if e["kind"] in ("roll", "draw", "note")]
    first = {rule: rules.index(rule) for rule in reversed(rules)}
    assert first["NH-SETUP-2"] < first["NH-MAP-13"] < first["NH-ALLY-3"] < first["NH-SETUP-4"]
    solats = [e for e in state["log"] if e["rule"] == "NH-SETUP-4" and e["kind"] == "roll"]
    assert [e["text"].split(" of house ")[1][0] for e in solats] == ["A", "B", "C"]
    starts = [e["text"] for e in state["log"] if "starts on" in e["text"]]
    for e, start in zip(solats, starts, strict=True):
        assert start.endswith(f"with {sum(d['face'] for d in e['dice'])} Solats")


def test_human_seats_choose_their_homeworld_and_program_seats_draw():
    """NH-SETUP-2, NH-SIM-3: seat 1 (a person) is asked first; the program seat draws from
    the rest."""
    state = GAME.advance(GAME.setup("standard", 2, {"houses": 2}))
    assert state["pending"]["kind"] == "homeworld" and state["pending"]["role"] == "A"
    assert len(GAME.legal_actions(state, "A")) == 4
    GAME.apply(state, "A", {"verb": "homeworld", "world": "Kadesh"}, copy=False)
    GAME.advance(state)
    assert state["houses"]["A"]["homeworld"] == "Kadesh"
    assert state["houses"]["B"]["homeworld"] in ("Lortran", "Gurati", "Nitrix")
    assert state["map"]["worlds"]["Kadesh"] == [1, 1]


def test_a_homeworld_with_two_unit_types_asks_which_armies():
    """NH-SETUP-5: Gurati offers Berserkers and Commandos, asked twice; the choice is kept."""
    state = GAME.advance(GAME.setup("standard", 2, {"houses": 2}))
    GAME.apply(state, "A", {"verb": "homeworld", "world": "Gurati"}, copy=False)
    GAME.advance(state)
    picks = []
    while state["pending"]["kind"] == "homeworld_army" and state["pending"]["role"] == "A":
        options = {a["unit"] for a in GAME.legal_actions(state, "A")}
        assert options == {"Anthrosynthetic Berserkers", "Cyborg Commandos"}
        pick = sorted(options)[len(picks) % 2]
        picks.append(pick)
        GAME.apply(state, "A", {"verb": "take", "unit": pick}, copy=False)
        GAME.advance(state)
    assert len(picks) == 2
    kinds = Counter(u["type"] for u in state["units"].values() if u["owner"] == "A")
    assert kinds["Anthrosynthetic Berserkers"] == 1 and kinds["Cyborg Commandos"] == 1


@pytest.mark.parametrize("option_set", ["h2", "h3", "h4", "terrain"])
def test_random_play_keeps_every_invariant(option_set):
    """NH-SIM-3, NH-VIC-5, NH-OPT-2, NH-OPT-3, NH-MAP-16: whole games of random legal actions
    for every seat count and a crowded map with the variants end (here at a 10-turn limit)
    without an error or a broken invariant, and illegal actions are refused."""
    for seed in (1, 2):
        result = fuzz_game(GAME, "standard", seed, GAME.fuzz_option_sets[option_set])
        assert result.ok, result.problems[:3]
        assert result.outcome.endswith("turn-limit") or result.outcome.endswith("last-house")


def test_replaying_the_actions_gives_the_same_position():
    """NH-AI-1 (replays rely on it): a saved action list replays to the same digest."""
    session = Session.new(GAME, "standard", 9, {"houses": 3, "seat1": "ai", "turn_limit": 3},
                          record_digests=False)
    from struggle_desktop.engine.rng import Rng
    rng = Rng.from_seed(4, stream=77)
    while GAME.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        legal = GAME.legal_actions(session.state, role)
        session.perform(role, legal[rng.below(len(legal))], copy=False)
    again = Session.new(GAME, "standard", 9, {"houses": 3, "seat1": "ai", "turn_limit": 3},
                        record_digests=False)
    for role, action in [(a["role"], a["action"]) for a in session.actions]:
        again.perform(role, action, copy=False)
    assert GAME.digest(again.state) == GAME.digest(session.state)


def test_bot_vs_random_gives_house_a_to_the_program_and_the_rest_to_random_play():
    """The ``bot-vs-random`` policy of docs/balance.md: A decides as ``bot`` would, every
    other house as ``random`` would, from the same player generator."""
    from struggle_desktop.engine.rng import Rng

    session = Session.new(GAME, "standard", 5, {"houses": 3, "turn_limit": 2, "seat1": "ai"})
    seen = Counter()
    while GAME.outcome(session.state) is None and sum(seen.values()) < 150:
        state = session.state
        role = state["pending"]["role"]
        expected_policy = "bot" if role == "A" else "random"
        expected = GAME.choose_action(state, role, expected_policy, Rng.from_seed(9, stream=4))
        action = GAME.choose_action(state, role, "bot-vs-random", Rng.from_seed(9, stream=4))
        assert action == expected
        seen[expected_policy] += 1
        session.perform(role, action)
    assert seen["bot"] and seen["random"]
