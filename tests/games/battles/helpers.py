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


# ------------------------------------------------------------------ added for the rules tests
class ScriptedRng(ScriptedDice):
    """Scripted d6 faces and scripted random draws: ``below(n)`` gives the next listed
    position (0-based; ``None`` in the list, or an exhausted list with ``draw_default``
    set, gives that default). Records every draw's pool size in ``sizes``."""

    def __init__(self, faces=(), draws=(), draw_default=None):
        super().__init__(faces)
        self.draws = list(draws)
        self.draw_default = draw_default
        self.sizes = []

    def below(self, n: int) -> int:
        self.sizes.append(n)
        if self.draws:
            k = self.draws.pop(0)
        else:
            assert self.draw_default is not None, f"an unscripted random draw among {n}"
            k = self.draw_default
        assert 0 <= k < n, f"scripted draw {k} is outside a pool of {n}"
        return k


def at_step(state, step, *frames, turn=1):
    """Put ``state`` at step ``step`` of turn ``turn``'s frame, with ``frames``
    (procedure frames, innermost last) pushed above it; returns the state."""
    state["turn"] = turn
    state["stack"] = [{"proc": "game", "step": "turns"}, {"proc": "turn", "step": step},
                      *frames]
    state["pending"] = None
    return state


def acting(state, side, turn=1):
    """``state`` in the Actions phase with ``side`` about to choose an action."""
    state["to_act"] = side
    state["phase"] = "actions"
    return at_step(state, "politics", {"proc": "actions", "step": "act", "first": None},
                   turn=turn)


def place(state, fid, region, at="map"):
    """Put a fleet in ``region`` (deployed, or ``at="garrison"``), at the end of the line-up."""
    state["seq"] += 1
    state["fleets"][fid].update(at=at, region=region, seq=state["seq"])


def to_display(state, *fids):
    for fid in fids:
        state["fleets"][fid].update(at="display", region=None, seq=0, waiting=False)


def answer_until(state, dice, kinds, chooser=None, limit=200):
    """Answer every prompt whose kind is in ``kinds`` with ``chooser(legal)`` (default: the
    first legal action) until another kind of prompt, or none, is pending."""
    GAME.advance(state, rng=dice)
    for _ in range(limit):
        pending = state["pending"]
        if pending is None or pending["kind"] not in kinds:
            return state
        legal = GAME.legal_actions(state, pending["role"])
        action = (chooser or (lambda actions: actions[0]))(legal)
        state = GAME.apply(state, pending["role"], action, copy=False)
        GAME.advance(state, rng=dice)
    raise AssertionError("too many prompts")


# --------------------------------------------------------------- added for the rules tests
def hand_state(scenario="civil-war", combat=3, political=1, resource=1, options=None,
               ci=50, turn=1, phase="build", stack=()):
    """A state of ``scenario`` with every fleet still in its force pool (TH in supply), the
    same C/P/R in every region, no chits anywhere, and ``stack`` as the procedure stack."""
    state = GAME.setup(scenario, seed=1, options=options or {})
    for number in range(1, 7):
        for slot, value in (("C", combat), ("P", political), ("R", resource)):
            state["regions"][str(number)][slot] = {"chit": f"{slot}{value}", "value": value,
                                                   "plus": 0}
    for player in state["players"].values():
        player["own_chits"] = []
    state["chit_pool"] = []
    state.pop("defence_garrison", None)
    state["turn"], state["phase"], state["ci"] = turn, phase, ci
    state["stack"] = [dict(frame) for frame in stack]
    return state


def put(state, fid, at, region=None, owner=None):
    """Place one fleet (``at``: pool, supply, display, map, garrison, common)."""
    fleet = state["fleets"][fid]
    state["seq"] += 1
    fleet.update(at=at, region=region if at in ("map", "garrison") else None, seq=state["seq"])
    if owner is not None:
        fleet["owner"] = owner
    return fleet


def set_region(state, number, C=None, P=None, R=None, plus=None):
    """Set some values of region ``number``; ``plus`` adds an upgrade to the C slot."""
    region = state["regions"][str(number)]
    for slot, value in (("C", C), ("P", P), ("R", R)):
        if value is not None:
            region[slot] = {"chit": f"{slot}{value}", "value": value, "plus": 0}
    if plus is not None:
        region["C"]["plus"] = plus
    return region


def rolls(state, rule=None):
    """The faces of every logged d6 roll entry (with ``rule``), one list per entry."""
    return [[d["face"] for d in entry["dice"]] for entry in state["log"]
            if entry["kind"] == "roll" and (rule is None or entry["rule"] == rule)]


def bot_until(state, stop, policy="bot", seed=1, limit=5000):
    """Let the program player answer every prompt until ``stop(state)`` holds (checked after
    each automated run) or the game ends; returns the state."""
    from struggle_desktop.engine.rng import Rng

    rng = Rng.from_seed(seed, stream=99)
    GAME.advance(state)
    for _ in range(limit):
        if stop(state) or state["outcome"] is not None:
            return state
        role = state["pending"]["role"]
        action = GAME.choose_action(state, role, policy, rng)
        state = GAME.apply(state, role, action, copy=False)
        GAME.advance(state)
    raise AssertionError("the stop condition was never reached")
