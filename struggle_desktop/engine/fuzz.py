"""A random-legal-action fuzzer for any game module.

It plays whole games choosing uniformly among the legal actions (with its own generator, never
the game's) and stops at the first exception, broken invariant, dead end (a game that waits
for nobody, or a prompt with no legal action) or runaway game. Every so often it also sends an
action that is not legal and checks that it is refused without touching the state.

The test suite runs a few seeds; ``tools/fuzz.py`` runs hundreds in worker processes.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field

from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session

BOGUS_ACTIONS = ({"verb": "no-such-verb"}, {"verb": "move", "unit": "XX-99", "to": 999}, {})


@dataclass
class FuzzResult:
    scenario: str
    seed: int
    options: dict
    actions: int = 0
    outcome: str | None = None
    turns: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems


def fuzz_game(game, scenario: str, seed: int, options: dict | None = None,
              max_actions: int = 50_000, check_every: int = 1, bogus_every: int = 37) -> FuzzResult:
    result = FuzzResult(scenario, seed, dict(options or {}))
    rng = Rng.from_seed(seed, stream=77)
    try:
        session = Session.new(game, scenario, seed, options or {}, record_digests=False)
        invariants = getattr(game, "invariants", None)
        while game.outcome(session.state) is None:
            state = session.state
            pending = state.get("pending")
            if pending is None:
                result.problems.append("dead end: no outcome and nothing pending")
                break
            legal = game.legal_actions(state, pending["role"])
            if not legal:
                result.problems.append(f"dead end: prompt {pending['kind']} has no legal action")
                break
            if result.actions % bogus_every == 0:
                before = digest(state)
                for bogus in BOGUS_ACTIONS:
                    try:
                        game.apply(state, pending["role"], bogus)
                        result.problems.append(f"illegal action accepted: {bogus}")
                    except IllegalAction:
                        pass
                if digest(state) != before:
                    result.problems.append("a refused action changed the state")
            action = legal[rng.below(len(legal))]
            session.perform(pending["role"], action, copy=False)
            result.actions += 1
            if invariants is not None and result.actions % check_every == 0:
                found = invariants(session.state)
                if found:
                    result.problems.extend(f"after action {result.actions} {action}: {p}" for p in found)
                    break
            if result.actions >= max_actions:
                result.problems.append(f"runaway: {max_actions} actions without an end")
                break
        out = game.outcome(session.state)
        result.outcome = out["result"] if out else None
        result.turns = session.state.get("turn", 0)
    except Exception as exc:  # the fuzzer's job is to report every failure, whatever it is
        result.problems.append(f"{type(exc).__name__}: {exc}\n{traceback.format_exc()}")
    return result
