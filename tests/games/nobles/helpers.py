"""Helpers for the Noble Houses rules tests: hand-made boards, scripted dice, a driver.

>>> dice = ScriptedDice([6, 2])
>>> dice.d6(), dice.d6(), dice.left
(6, 2, 0)
"""

from __future__ import annotations

from struggle_desktop.engine import flow
from struggle_desktop.engine.actions import action_in
from struggle_desktop.games.nobles import combat  # noqa: F401  (registers its procedures)
from struggle_desktop.games.nobles.context import Ctx
from struggle_desktop.games.nobles.data import default_data
from struggle_desktop.games.nobles.mapgen import build_map
from struggle_desktop.games.nobles.registry import RULES
from struggle_desktop.games.nobles.setup import empty_state


class ScriptedDice:
    """A generator that gives the listed d6 faces in order and fails on anything else: a die
    beyond the stream, or a random draw."""

    def __init__(self, faces=()):
        self.faces = list(faces)

    @property
    def left(self) -> int:
        return len(self.faces)

    def d6(self) -> int:
        assert self.faces, "a die was rolled beyond the scripted stream"
        return self.faces.pop(0)

    def below(self, n: int) -> int:
        raise AssertionError(f"an unscripted random draw among {n}")


def board(worlds=None, houses=4, order=None, phase=8):
    """A state with the map ``worlds`` (name -> hex), every world neutral, no units, an empty
    stack, turn 1 and ``phase`` (8: Battle). ``order`` is the initiative order."""
    state = empty_state(default_data(), {"houses": houses},
                        game_map=build_map(worlds or {"Bolavor": (5, 5)}))
    state.update(stack=[], turn=1, phase=phase)
    if order is not None:
        state["order"] = list(order)
    return state


def put(state, owner, unit_type, h, ship=None, moved=None, home=None) -> str:
    """Place a unit and return its id; a unit ``ship`` carries has moved unless told."""
    uid = Ctx(state, RULES.procedures, default_data()).new_unit(owner, unit_type, h, home=home)
    unit = state["units"][uid]
    if ship is not None:
        unit["ship"] = ship
        unit["moved"] = True
    if moved is not None:
        unit["moved"] = moved
    return uid


def control(state, world, house):
    state["worlds"][world]["controller"] = house


def legal(ctx) -> list[dict]:
    pending = ctx.state["pending"]
    return RULES.legal_actions[pending["kind"]](ctx, pending)


def start(state, proc, dice=()):
    """Push ``proc`` (as turn.py does at step 7 or 8) and run until a prompt or the end.
    Returns the context (its ``rng`` is the scripted dice)."""
    ctx = Ctx(state, RULES.procedures, default_data(), rng=ScriptedDice(dice))
    ctx.push(proc)
    flow.run(ctx)
    return ctx


def reply(ctx, role, action):
    """Answer the pending prompt as ``role`` with a legal ``action``, then run on."""
    pending = ctx.state["pending"]
    assert pending is not None, f"nothing waits for {role} {action}"
    assert pending["role"] == role, f"{pending['role']} is asked ({pending['kind']}), not {role}"
    assert action_in(action, legal(ctx)), f"{action} is not legal for {pending}"
    flow.answer(ctx.state, action)
    flow.run(ctx)


def play(ctx, answers):
    """Answer the prompts in turn: ``answers`` is a list of ``(role, action)``."""
    for role, action in answers:
        reply(ctx, role, action)


def rolls(state, rule=None) -> list[list[int]]:
    """The faces of every logged roll (with ``rule``), one list per log entry."""
    return [[d["face"] for d in entry["dice"]] for entry in state["log"]
            if entry["kind"] == "roll" and (rule is None or entry["rule"] == rule)]


def notes(state, rule) -> list[str]:
    return [entry["text"] for entry in state["log"]
            if entry["rule"] == rule and entry["kind"] != "roll"]


def volley_rolls(state) -> list[tuple[str, list[int]]]:
    """(unit id, faces) of every battle volley roll, in order."""
    return [(entry["refs"][0], [d["face"] for d in entry["dice"]]) for entry in state["log"]
            if entry["kind"] == "roll" and entry["rule"] == "NH-BAT-7"]


def command(noble, army):
    return {"verb": "command", "noble": noble, "army": army}


def lose(uid):
    return {"verb": "lose", "unit": uid}


DONE = {"verb": "done"}
