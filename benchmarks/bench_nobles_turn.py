#!/usr/bin/env python3
"""Noble Houses program house, the time of a whole house turn (NH-AI-1: each decision within
1 s): every decision one house makes in one game turn added up (its purchases, moves, Noble
actions and battle choices), then the median and the worst over the games, and the slowest
single decision.

    python benchmarks/bench_nobles_turn.py [--games 2] [--seed 1] [--houses 4] [--level hard]
                                           [--turn-limit 60]

Games run as ``simulate`` runs them (every seat the program's). CPU time of this process, so
other work on the machine disturbs it less than wall time would.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.rng import Rng  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import PLAYER_STREAM, game_seed, program_options  # noqa: E402


def house_turns(game, seed: int, options: dict) -> tuple[dict, list[float]]:
    """(turn, house) -> CPU seconds of its decisions, and every decision's time."""
    session = Session.new(game, "standard", seed, program_options(game, options),
                          record_digests=False)
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    turns: dict[tuple[int, str], float] = defaultdict(float)
    decisions = []
    while game.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        start = time.process_time()
        action = game.choose_action(session.state, role, "bot", rng)
        spent = time.process_time() - start
        turns[(session.state["turn"], role)] += spent
        decisions.append(spent)
        session.perform(role, action, copy=False)
    return turns, decisions


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--houses", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--turn-limit", type=int, default=60)
    args = parser.parse_args()
    game = get_game("nobles")
    game.warm_up()
    options = {"houses": args.houses, "ai_difficulty": args.level,
               "turn_limit": args.turn_limit}
    every_turn, every_decision = [], []
    for k in range(args.games):
        turns, decisions = house_turns(game, game_seed(args.seed, k), options)
        every_turn += turns.values()
        every_decision += decisions
    every_turn.sort()
    print(f"{args.games} games, {args.houses} houses at {args.level}, "
          f"turn limit {args.turn_limit}: {len(every_turn)} house turns, "
          f"{len(every_decision)} decisions")
    print(f"house turn: median {statistics.median(every_turn) * 1000:.0f} ms, "
          f"90th {every_turn[int(len(every_turn) * 0.9)] * 1000:.0f} ms, "
          f"worst {every_turn[-1] * 1000:.0f} ms")
    print(f"one decision: median {statistics.median(every_decision) * 1000:.1f} ms, "
          f"worst {max(every_decision) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
