"""Positions built by hand for the Noble Houses rules tests of the turn (turn.py): a fixed map,
houses on their homeworlds, units placed where a test says, one step about to run.

>>> state, ids = position(units=[("A", "House Troops", "Mox")])
>>> ids, state["units"]["A-HT1"]["hex"] == state["map"]["worlds"]["Mox"]
(['A-HT1'], True)
"""

from __future__ import annotations

from collections import deque

from struggle_desktop.engine.flow import answer, run
from struggle_desktop.games.nobles import GAME
from struggle_desktop.games.nobles.mapgen import build_map
from struggle_desktop.games.nobles.setup import empty_state

from .helpers import ScriptedDice

HOMEWORLDS = {"A": "Lortran", "B": "Gurati", "C": "Kadesh", "D": "Nitrix"}
CORNERS = {"Lortran": (1, 1), "Gurati": (10, 10), "Kadesh": (10, 1), "Nitrix": (1, 10)}
#: The 20 other worlds, in table order, on the valid layout of the map-generator tests.
LAYOUT = dict(zip(
    ["Quayat", "Parallax", "Mercurium", "Frost", "Computus", "Bolavor", "Aquara", "Punah",
     "Griddox", "Yoravar", "Zenceti", "Eden", "Mox", "Hellish", "Dalton", "Bazarium", "Seedeen",
     "Pyreen", "Scorch", "Marx"],
    [(3, 4), (5, 5), (10, 5), (4, 1), (7, 1), (1, 4), (1, 7), (4, 7), (7, 4), (7, 7), (4, 10),
     (7, 10), (10, 7), (3, 2), (8, 2), (2, 8), (8, 8), (5, 2), (5, 8), (9, 3)]))


class Dice(ScriptedDice):
    """Scripted d6 faces, and ``below`` draws as listed 0-based positions."""

    def __init__(self, faces=(), draws=()):
        super().__init__(faces)
        self.draws = deque(draws)

    def below(self, n):
        assert self.draws, f"an unscripted draw among {n}"
        k = self.draws.popleft()
        assert 0 <= k < n
        return k


def game_map(**extra):
    return build_map({**CORNERS, **LAYOUT}, **extra)


def position(houses=2, units=(), controllers=None, solats=10, allies=None, options=None,
             game_map_=None, turn=1):
    """A state of ``houses`` houses (A on Lortran, B on Gurati, C on Kadesh, D on Nitrix, each
    controlling it) with ``units`` ``(owner, type, world or (x, y), extra fields)`` placed on
    the ground, ``controllers`` (world -> letter) and ``allies`` (letter -> names). Returns the
    state and the new units' ids in order. Nothing is on the stack."""
    opts = GAME.normalize_options("standard", {"houses": houses, **(options or {})})
    state = empty_state(GAME.data, opts, game_map=game_map_ or game_map())
    state["stack"] = []
    state["turn"] = turn
    ctx = GAME.context(state)
    for letter, house in state["houses"].items():
        house["homeworld"] = HOMEWORLDS[letter]
        house["solats"] = solats
        state["worlds"][HOMEWORLDS[letter]]["controller"] = letter
    for world, letter in (controllers or {}).items():
        state["worlds"][world]["controller"] = letter
    held = set()
    for letter, names in (allies or {}).items():
        state["houses"][letter]["allies"] = list(names)
        held.update(names)
    state["unassigned"] = [a for a in GAME.data.allies if a not in held]
    from struggle_desktop.games.nobles.turn import reset_turn
    reset_turn(ctx)
    ids = []
    for owner, unit_type, where, *extra in units:
        h = ctx.world_hex(where) if isinstance(where, str) else list(where)
        uid = ctx.new_unit(owner, unit_type, h)
        if extra:
            state["units"][uid].update(extra[0])
        ids.append(uid)
    return state, ids


def run_step(state, proc, dice=(), draws=(), answers=(), phase=None, **frame):
    """Push ``proc`` and run it with scripted dice, answering the prompts in order with
    ``answers`` (see ``play``). Returns the pending prompt at the end (None when the step
    finished)."""
    state["stack"].append({"proc": proc, **frame})
    state["phase"] = phase if phase is not None else state["phase"]
    return play(state, dice, draws, answers)


def play(state, dice=(), draws=(), answers=()):
    """Run the stack with scripted dice, answering each prompt in turn with the next of
    ``answers`` (``(role, action)`` pairs, each checked legal first); every scripted die must
    be used. Returns the pending prompt at the end."""
    rng = Dice(dice, draws)
    ctx = GAME.context(state, rng=rng)
    run(ctx)
    for role, action in answers:
        pending = state["pending"]
        assert pending is not None, f"nothing waits for {role}: {action}"
        assert pending["role"] == role, f"{pending['role']} is asked ({pending['kind']})"
        reason = GAME.check_action(state, role, action)
        assert reason is None, reason
        answer(state, action)
        run(ctx)
    assert not rng.left, f"dice left unused: {rng.faces}"
    return state["pending"]


def legal(state):
    p = state["pending"]
    return GAME.legal_actions(state, p["role"]) if p else []
