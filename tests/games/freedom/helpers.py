"""Helpers for the Freedom Part A tests: scripted dice in the notation of rules-freedom.md
section 6, a driver that answers prompts, and readers of the log.

>>> dice = ScriptedDice("d10:7 | p2d6:2,5 2d6:2,3 d3:3")
>>> dice.faces("d10"), dice.faces("p2d6"), dice.left
([7], [2, 5], 2)
"""

from __future__ import annotations

from typing import Callable

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.data import default_data
from struggle_desktop.games.freedom.environs import normalize
from struggle_desktop.games.freedom.resolver import new_state

#: A small Rebel environs for rules tests: size 1 (one step), urban, loyalty neutral, held by
#: the Imperial side with one 2nd line unit; Vudot Vodot and Zina Adora here; nobody to
#: recruit (no recruitment roll). Tests change what they need with :func:`make`.
BASE = {
    "location": "environs", "size": 1, "type": "urban", "phasing_side": "rebel",
    "planet_state": "loyalty", "loyalty": "neutral", "controller": "imperial",
    "units": [{"id": "U1", "side": "imperial", "kind": "2nd_line", "af": 2}],
    "characters": [{"name": "Vudot Vodot", "side": "rebel"},
                   {"name": "Zina Adora", "side": "rebel"}],
    "unrecruited": {"rebel": [], "imperial": []},
}


class ScriptedDice:
    """Faces given in order as ``die:faces`` tokens (``p2d6:t,u``, ``2d6:a,b``, ``d10:n``,
    ``d6:n``, ``dk:n``); ``|`` separates the script's parts and is skipped. A roll of another
    die than the next token, or beyond the script, fails the test (section 6, "Unused
    faces")."""

    def __init__(self, script: str = ""):
        self.tokens = [t for t in script.split() if t != "|"]
        self.used: list[str] = []

    @property
    def left(self) -> int:
        return len(self.tokens)

    def faces(self, die: str) -> list[int]:
        assert self.tokens, f"a {die} was rolled beyond the script (after {self.used})"
        token = self.tokens.pop(0)
        name, _, faces = token.partition(":")
        assert name == die, f"the script has {token} where a {die} is rolled (after {self.used})"
        self.used.append(token)
        return [int(f) for f in faces.split(",")]


Decide = Callable[[dict, dict], dict | None]


def new(scenario: str, seed: int = 1, options: dict | None = None, environs: dict | None = None
        ) -> dict:
    """A set-up state; ``environs`` changes fields of the scenario's context before play."""
    state = GAME.setup(scenario, seed, options or {})
    if environs:
        state["environs"].update(clone(environs))
    return state


def make(seed: int = 1, options: dict | None = None, **context) -> dict:
    """A state from :data:`BASE` with ``context`` fields replaced (a value None removes the
    field), checked like a scenario's context."""
    raw = clone(BASE)
    for key, value in context.items():
        if value is None:
            raw.pop(key, None)
        else:
            raw[key] = clone(value)
    data = default_data()
    env = normalize(raw, data)
    values = {"recruit_choice": "random", "continue_steps_when_idle": False}
    values.update(options or {})
    return new_state(data, {"id": "test"}, env, seed, values, Rng.from_seed(seed))


def stop_at_bonus(state: dict) -> bool:
    """Stop the drive once the Bonus Dice Rolls segment asks its first roll."""
    return state["pending"]["kind"] == "bonus_roll"


def drive(state: dict, dice: ScriptedDice | None, decide: Decide | None = None,
          stop: Callable[[dict], bool] | None = None) -> dict:
    """Run the state to its end (or until ``stop(state)``), answering each prompt with
    ``decide(state, pending)``, or the simple player's answer when it returns None. Every
    answer must be legal. With scripted dice, the script must be used up exactly."""
    rng = Rng.from_seed(5, stream=99)
    GAME.advance(state, dice=dice)
    while GAME.outcome(state) is None:
        if stop is not None and stop(state):
            if dice is not None:
                assert dice.left == 0, f"faces left over: {dice.tokens}"
            return state
        pending = state["pending"]
        assert pending is not None, "dead end: nothing pending and no outcome"
        action = decide(state, pending) if decide else None
        if action is None:
            action = GAME.choose_action(state, pending["role"], "simple", rng)
        assert action in GAME.legal_actions(state, pending["role"]), (action, pending)
        state = GAME.apply(state, pending["role"], action, copy=False)
        GAME.advance(state, dice=dice)
    if dice is not None:
        assert dice.left == 0, f"faces left over: {dice.tokens}"
    return state


def answers(*rules: tuple[Callable[[dict, dict], bool], dict]) -> Decide:
    """A decider from ``(test, action)`` pairs: each pair answers the first prompt it matches
    and is then used up."""
    queue = list(rules)

    def decide(state: dict, pending: dict) -> dict | None:
        for i, (test, action) in enumerate(queue):
            if test(state, pending):
                del queue[i]
                return action
        return None

    decide.queue = queue     # type: ignore[attr-defined]
    return decide


def at_call_off(step: int) -> Callable[[dict, dict], bool]:
    return lambda state, p: p["kind"] == "call_off" and state["turn"] == step


def at_hook(kind: str, group: str | None = None) -> Callable[[dict, dict], bool]:
    return lambda state, p: (p["kind"] == "hook" and p["hook"] == kind
                             and (group is None or p["group"] == group))


def rolls(state: dict, rule: str | None = None) -> list[tuple[str, str, int]]:
    """``(rule, "die:faces", result)`` of every logged roll, in order."""
    out = []
    for e in state["log"]:
        if e["kind"] == "roll" and (rule is None or e["rule"] == rule):
            d = e["dice"][0]
            out.append((e["rule"], f"{d['die']}:{','.join(map(str, d['faces']))}", d["result"]))
    return out


def notes(state: dict, rule: str) -> list[str]:
    return [e["text"] for e in state["log"] if e["rule"] == rule and e["kind"] != "roll"]


def rules_logged(state: dict) -> list[str]:
    return [e["rule"] for e in state["log"]]


def changes(state: dict, kind: str | None = None) -> list[tuple[str, str]]:
    """``(rule, text)`` of the outcome report's lines (of one kind)."""
    return [(c["rule"], c["text"]) for c in state["outcome"]
            if kind is None or c["kind"] == kind]


def char(state: dict, name: str) -> dict:
    return next(c for c in state["environs"]["characters"] if c["name"] == name)


def group(state: dict, gid: str) -> dict:
    return next(g for g in state["groups"] if g["id"] == gid)


def save_load_and_play_on(session, path, seed: int) -> None:
    """Save ``session`` to ``path`` and load it by replay to the same digest; then the session
    and the loaded copy, both played to the end by random players seeded alike, end alike."""
    from struggle_desktop.engine.session import Session

    session.save(path)
    loaded, report = Session.load({"freedom": GAME}, path)
    assert report.ok and GAME.digest(loaded.state) == GAME.digest(session.state)
    for s in (session, loaded):
        player = Rng.from_seed(seed, stream=77)
        while GAME.outcome(s.state) is None:
            role = s.state["pending"]["role"]
            s.perform(role, GAME.choose_action(s.state, role, "random", player))
    assert GAME.digest(loaded.state) == GAME.digest(session.state)
