#!/usr/bin/env python3
"""Decision time of the Battles program player (budget: each decision within 1 s, BFG-AI
section 16) and games per second of the baseline and of the stronger level.

For each policy it plays ``--games`` games of each scenario through the same driver as
``simulate`` and times every decision of the program player, grouped by prompt kind
(``action``, ``deploy``, ``disengage``, ...): count, mean and maximum in milliseconds. With
``strong-blue``/``strong-red`` only the strong side's decisions are counted. Times are wall
time, so other work on the machine inflates them; ``cpu`` is this process's CPU time.

    python benchmarks/bench_battles_ai.py [--games 4] [--seed 1] [--scenarios civil-war,invasion]
                                          [--policies bot,strong-blue,strong-red]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.simulate import PLAYER_STREAM, game_seed


def timed_game(game, scenario: str, seed: int, policy: str, times: dict) -> None:
    session = Session.new(game, scenario, seed, {}, record_digests=False)
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    while game.outcome(session.state) is None:
        pending = session.state["pending"]
        role = pending["role"]
        start, cpu = time.perf_counter(), time.process_time()
        action = game.choose_action(session.state, role, policy, rng)
        spent, cpu = time.perf_counter() - start, time.process_time() - cpu
        if policy in ("bot", "strong") or policy == f"strong-{role}":
            times[pending["kind"]].append((spent, cpu))
        session.perform(role, action, copy=False)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenarios", default="civil-war,invasion")
    parser.add_argument("--policies", default="bot,strong-blue,strong-red")
    args = parser.parse_args()
    game = get_game("battles")
    game.warm_up()
    worst = worst_cpu = 0.0
    for scenario in args.scenarios.split(","):
        for policy in args.policies.split(","):
            times: dict[str, list[float]] = defaultdict(list)
            wall, cpu = time.perf_counter(), time.process_time()
            for k in range(args.games):
                timed_game(game, scenario, game_seed(args.seed, k), policy, times)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            print(f"{scenario} {policy}: {args.games / wall:.2f} games/s "
                  f"({args.games / cpu:.2f} cpu)")
            for kind in sorted(times):
                wall = [w for w, _ in times[kind]]
                cpu = [c for _, c in times[kind]]
                print(f"    {kind:>18} n={len(wall):>5} mean={1000 * sum(wall) / len(wall):7.1f} ms"
                      f" max={1000 * max(wall):7.1f} ms (cpu mean {1000 * sum(cpu) / len(cpu):7.1f}"
                      f" max {1000 * max(cpu):7.1f})")
                if policy != "bot":
                    worst = max(worst, max(wall))
                    worst_cpu = max(worst_cpu, max(cpu))
    print(f"worst strong decision: {1000 * worst:.0f} ms wall, {1000 * worst_cpu:.0f} ms cpu")
    return 0


if __name__ == "__main__":
    sys.exit(main())
