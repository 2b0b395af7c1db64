#!/usr/bin/env python3
"""Decision time of Struggle's stronger Imperial player (policy ``strong``, search.py; the
hint's player, which must decide well within 1 s) against today's bot, and games per second.

For each scenario and policy it plays ``--games`` games through the same driver as
``simulate`` (the player's own generator, stream 99 of the game seed) and times every
decision, grouped by prompt kind: count, median, mean and maximum in milliseconds, and the
worst and median decision over all kinds. Times are wall time, so other work on the machine
inflates them; ``cpu`` is this process's CPU time.

    python benchmarks/bench_struggle_strong.py [--games 4] [--seed 1] [--scenarios 1,...,7]
                                               [--policies bot,strong]
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
from struggle_desktop.simulate import PLAYER_STREAM, game_seed  # noqa: E402


def timed_game(game, scenario: str, seed: int, policy: str, times: dict) -> None:
    """One game, every decision by ``policy``, each timed into ``times[kind]``."""
    session = Session.new(game, scenario, seed, {}, record_digests=False, keep_log=False)
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    while game.outcome(session.state) is None:
        pending = session.state["pending"]
        role = pending["role"]
        start, cpu = time.perf_counter(), time.process_time()
        action = session.choose(role, policy, rng)
        times[pending["kind"]].append((time.perf_counter() - start, time.process_time() - cpu))
        session.perform(role, action, copy=False)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scenarios", default="1,2,3,4,5,6,7")
    parser.add_argument("--policies", default="bot,strong")
    args = parser.parse_args()
    game = get_game("struggle")
    game.warm_up()
    overall: dict[str, list[float]] = defaultdict(list)
    for scenario in args.scenarios.split(","):
        for policy in args.policies.split(","):
            times: dict[str, list[tuple[float, float]]] = defaultdict(list)
            wall, cpu = time.perf_counter(), time.process_time()
            for k in range(args.games):
                timed_game(game, scenario, game_seed(args.seed, k), policy, times)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            every = [t for ts in times.values() for t, _c in ts]
            overall[policy].extend(every)
            print(f"scenario {scenario}, {policy}: {args.games / wall:.2f} games/s "
                  f"({wall:.2f} s wall, {cpu:.2f} s cpu); {len(every)} decisions, median "
                  f"{1000 * statistics.median(every):.2f} ms, worst {1000 * max(every):.1f} ms")
            for kind, ts in sorted(times.items(), key=lambda item: -max(t for t, _ in item[1])):
                walls = [t for t, _c in ts]
                print(f"    {kind:<20} {len(ts):5d}  median {1000 * statistics.median(walls):7.2f} ms"
                      f"  mean {1000 * statistics.fmean(walls):7.2f} ms  max {1000 * max(walls):7.1f} ms"
                      f"  (cpu max {1000 * max(c for _t, c in ts):.1f} ms)")
    for policy, every in overall.items():
        print(f"all scenarios, {policy}: {len(every)} decisions, median "
              f"{1000 * statistics.median(every):.2f} ms, 99th percentile "
              f"{1000 * statistics.quantiles(every, n=100)[98]:.1f} ms, worst "
              f"{1000 * max(every):.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
