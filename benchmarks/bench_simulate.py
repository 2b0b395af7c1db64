#!/usr/bin/env python3
"""Headless simulation throughput per Struggle scenario, on one core (budget: scenario 4 with
the bot at >= 50 games per second). ``games/s`` is wall time (what ``simulate`` reports);
``cpu g/s`` uses this process's CPU time, steadier when other work shares the machine.

    python benchmarks/bench_simulate.py [--games N] [--policy bot|random] [--scenarios 1,4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import simulate  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--policy", default="bot")
    parser.add_argument("--scenarios", default="1,2,3,4,5,6,7")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    game = get_game("struggle")
    game.warm_up()   # load the tables and the map first: start-up is not part of the rate
    print(f"{'scenario':>8} {'policy':>7} {'games':>6} {'turns':>6} {'actions':>8} {'games/s':>8} "
          f"{'cpu g/s':>8}")
    for scenario in args.scenarios.split(","):
        cpu = time.process_time()
        report = simulate(game, scenario, args.games, args.seed,
                          options={"policy": args.policy}, jobs=1)
        cpu = time.process_time() - cpu
        print(f"{scenario:>8} {args.policy:>7} {report['games']:>6} {report['turns_mean']:>6.1f} "
              f"{report.get('actions_mean', 0):>8.0f} {report['games_per_second']:>8.2f} "
              f"{report['games'] / cpu:>8.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
