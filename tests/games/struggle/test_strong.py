"""The stronger Imperial player (policy ``strong``, search.py): legal, reproducible, blind to
what the Imperial player cannot see, and usable by ``simulate`` and the hint.

Rules: SGE-POOL-1 and SGE-POOL-2 (the event pool's composition is published and every marker
that leaves it is seen, so the player may rebuild the cup's contents but not its order),
SGE-RES-3 (the system pool is every system counter off the map), SGE-EXP-3 (the Expedition
cup: two of each marker, each returned after use), SGE-DICE-10 (the game's own generator is
the game's secret).
"""

from __future__ import annotations

import random

import pytest

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.game import hint_policy
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.games.struggle import GAME, search
from struggle_desktop.simulate import PLAYER_STREAM, game_seed, simulate


def positions(scenario: str, seed: int, every: int = 1, limit: int = 400):
    """The positions of one game the strong player plays (each a fresh copy, log dropped),
    every ``every``-th decision."""
    session = Session.new(GAME, scenario, seed, record_digests=False, keep_log=False)
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    k = 0
    while GAME.outcome(session.state) is None and k < limit:
        if k % every == 0:
            copy = clone({key: v for key, v in session.state.items() if key != "log"})
            copy["log"] = []
            yield copy
        action = session.choose("imperial", "strong", rng)
        session.perform("imperial", action, copy=False)
        k += 1


def hide_differently(state: dict, salt: int) -> dict:
    """``state`` with everything the Imperial player cannot see changed: the game's
    generator, the order and contents of the event cup (same size), the order of the system
    pool and of the Expedition cup."""
    changed = clone(state)
    r = random.Random(salt)
    changed["rng"] = [r.getrandbits(64), r.getrandbits(63) * 2 + 1]
    kinds = sorted({m["id"] for m in GAME.data["event_pool"]["markers"]})
    changed["pool"] = [r.choice(kinds) for _ in state["pool"]]
    r.shuffle(changed["system_pool"])
    r.shuffle(changed["expedition_cup"])
    return changed


def test_strong_is_a_policy_and_the_hint_player():
    assert "strong" in GAME.policies and GAME.policies[0] == "bot"
    assert hint_policy(GAME) == "strong"
    for other in ("battles", "nobles", "freedom"):
        assert hint_policy(get_game(other)) == "bot"


def test_every_action_is_legal():
    """Every decision of two short games is among the legal actions."""
    for seed in (game_seed(31, 0), game_seed(31, 1)):
        for state in positions("3", seed):
            action = GAME.choose_action(state, "imperial", "strong", Rng.from_seed(5))
            assert GAME.check_action(state, "imperial", action) is None, action
            assert action in GAME.legal_actions(state, "imperial")


def test_same_position_and_generator_give_the_same_action():
    for state in positions("5", game_seed(32, 0), every=7):
        first = GAME.choose_action(state, "imperial", "strong", Rng.from_seed(11))
        again = GAME.choose_action(clone(state), "imperial", "strong", Rng.from_seed(11))
        assert first == again


def test_the_player_reads_no_secret():
    """Changing what the view hides (the game's generator, the cup's order and contents)
    leaves the view and the strong player's action unchanged, at searched decisions too."""
    searched = overruled = 0
    for scenario, seed in (("3", game_seed(33, 0)), ("4", game_seed(33, 1))):
        for k, state in enumerate(positions(scenario, seed, every=3, limit=150)):
            changed = hide_differently(state, k)
            assert changed["pool"] != state["pool"] or not state["pool"]
            assert GAME.view(changed, "imperial") == GAME.view(state, "imperial")
            mine = GAME.choose_action(state, "imperial", "strong", Rng.from_seed(k))
            theirs = GAME.choose_action(changed, "imperial", "strong", Rng.from_seed(k))
            assert mine == theirs
            if state["pending"]["kind"] in search.SEARCHED:
                searched += 1
                habit, _known = search.habit(GAME, state, Rng.from_seed(k), GAME.new_cache())
                overruled += mine != habit
    # The look-ahead ran, and its playouts chose another move than the habits' several times.
    assert searched >= 5 and overruled >= 3


def test_imagined_state_rebuilds_the_cups_from_public_knowledge():
    """The imagined event cup holds exactly the markers the real cup holds (in its own order):
    the composition follows from the published pool and what has been seen; the system pool
    and the Expedition cup likewise. The generator is the player's, not the game's."""
    for state in positions("4", game_seed(34, 0), every=5, limit=200):
        sim = search.imagined_state(GAME, state, 99)
        assert sorted(sim["pool"]) == sorted(state["pool"])
        assert sorted(sim["system_pool"]) == sorted(state["system_pool"])
        assert sorted(sim["expedition_cup"]) == sorted(state["expedition_cup"])
        assert sim["rng"] != state["rng"]
        assert {k: v for k, v in sim.items() if k not in search.HIDDEN and k != "log"} == \
            {k: v for k, v in state.items() if k not in search.HIDDEN and k != "log"}


def test_short_simulate_with_strong_is_deterministic():
    first = simulate("struggle", "3", 3, 7, {"policy": "strong"})
    again = simulate("struggle", "3", 3, 7, {"policy": "strong"})
    assert first["errors"] == 0 and first["completed"] == 3
    assert first["digest"] == again["digest"]
    bot = simulate("struggle", "3", 3, 7, {"policy": "bot"})
    assert bot["digest"] != first["digest"]


def test_unknown_policy_is_refused():
    from struggle_desktop.engine.errors import BadOption

    state = next(positions("3", 1))
    with pytest.raises(BadOption):
        GAME.choose_action(state, "imperial", "stronger", Rng.from_seed(1))
