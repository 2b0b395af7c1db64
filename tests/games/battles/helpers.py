"""Helpers for the Battles rules tests: positions built by hand, scripted dice, a driver.

>>> dice = ScriptedDice([6, 2])
>>> dice.d6(), dice.d6(), dice.left
(6, 2, 0)
"""

from __future__ import annotations

from struggle_desktop.games.battles import GAME


class ScriptedDice:
    """A generator that gives the listed d6 faces in order and fails on anything else: a die
    beyond the stream, or a random draw (BFG-SETUP-8 lets tests script dice this way)."""

    def __init__(self, faces):
        self.faces = list(faces)

    @property
    def left(self) -> int:
        return len(self.faces)

    def d6(self) -> int:
        assert self.faces, "a die was rolled beyond the scripted stream"
        return self.faces.pop(0)

    def below(self, n: int) -> int:
        raise AssertionError(f"an unscripted random draw among {n}")


def position(blue=(), red=(), combat=3, political=1, resource=1, region=1, options=None,
             resolver="blue", resolve=True, ci=50):
    """A state with the listed fleets deployed in ``region`` in line-up order, values C/P/R
    there, and (``resolve``) the resolution of that region about to start."""
    state = GAME.setup("civil-war", seed=1, options=options or {})
    for number in range(1, 7):
        for slot, value in (("C", combat), ("P", political), ("R", resource)):
            state["regions"][str(number)][slot] = {"chit": f"{slot}{value}", "value": value,
                                                   "plus": 0}
    seq = 0
    for fid in [*blue, *red]:
        seq += 1
        state["fleets"][fid].update(at="map", region=region, seq=seq)
    state["seq"] = seq
    state["turn"], state["phase"], state["ci"] = 1, "actions", ci
    state["stack"] = ([{"proc": "resolve", "region": region, "resolver": resolver,
                        "step": "start", "round": 0}] if resolve else [])
    return state


def drive(state, dice, actions):
    """Advance with ``dice``, then answer each pending prompt with the next action of
    ``actions`` (``(role, action)`` pairs, checked against the waiting role); returns the
    state once the actions are used up and the automated steps after them have run."""
    GAME.advance(state, rng=dice)
    for role, action in actions:
        pending = state["pending"]
        assert pending is not None, f"nothing waits for {role} {action}"
        assert pending["role"] == role, f"{pending['role']} is asked ({pending['kind']}), not {role}"
        state = GAME.apply(state, role, action, copy=False)
        GAME.advance(state, rng=dice)
    return state


def target(firer, aim, single=False):
    action = {"verb": "target", "firer": firer, "target": aim}
    if single:
        action["shot"] = "single"
    return action


def targets(role, pairs):
    """The target declarations of ``role``: ``[(firer, target), ...]``."""
    return [(role, target(f, t)) for f, t in pairs]


def at(state, fid):
    fleet = state["fleets"][fid]
    return fleet["at"], fleet["region"], fleet["owner"]


def where(state, place, owner=None):
    return sorted(f for f, v in state["fleets"].items()
                  if v["at"] == place and (owner is None or v["owner"] == owner)
                  and (place not in ("pool", "supply")))


def in_region(state, region, owner):
    return sorted(f for f, v in state["fleets"].items()
                  if v["region"] == region and v["owner"] == owner)
