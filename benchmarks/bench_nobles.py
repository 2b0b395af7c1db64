#!/usr/bin/env python3
"""Noble Houses speed, one core: program-only games per second for 2, 3 and 4 houses, the
time of one program decision (NH-AI-1 allows at most 1 s), and the load (full replay) of a
finished game's save.

    python benchmarks/bench_nobles.py [--games 3] [--seed 1] [--houses 2,3,4]

``games/s`` is wall time; ``cpu g/s`` this process's CPU time, steadier when other work
shares the machine. Games run as ``simulate`` runs them (every seat the program's, the
unattended 30-turn limit).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.rng import Rng  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import PLAYER_STREAM, game_seed, program_options  # noqa: E402


def play(game, seed: int, houses: int) -> tuple[Session, list[float]]:
    """One program-only game; the time of each program decision."""
    session = Session.new(game, "standard", seed, program_options(game, {"houses": houses}),
                          record_digests=False)
    rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    times = []
    while game.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        start = time.perf_counter()
        action = game.choose_action(session.state, role, "bot", rng)
        times.append(time.perf_counter() - start)
        session.perform(role, action, copy=False)
    return session, times


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--houses", default="2,3,4")
    args = parser.parse_args()
    game = get_game("nobles")
    game.warm_up()
    print(f"{'houses':>6} {'games':>5} {'turns':>5} {'actions':>7} {'games/s':>7} {'cpu g/s':>7} "
          f"{'decide mean':>11} {'p99':>7} {'max':>7} {'load':>7}")
    for houses in map(int, args.houses.split(",")):
        wall, cpu = time.perf_counter(), time.process_time()
        decisions, sessions = [], []
        for k in range(args.games):
            session, times = play(game, game_seed(args.seed, k), houses)
            decisions += times
            sessions.append(session)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        decisions.sort()
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / "game.json"
            sessions[-1].save(path)
            start = time.perf_counter()
            Session.load({"nobles": game}, path)
            load = time.perf_counter() - start
        turns = statistics.mean(s.state["turn"] for s in sessions)
        actions = statistics.mean(len(s.actions) for s in sessions)
        print(f"{houses:>6} {args.games:>5} {turns:>5.1f} {actions:>7.0f} "
              f"{args.games / wall:>7.3f} {args.games / cpu:>7.3f} "
              f"{statistics.mean(decisions) * 1000:>9.1f}ms "
              f"{decisions[int(len(decisions) * 0.99)] * 1000:>5.1f}ms "
              f"{decisions[-1] * 1000:>5.0f}ms {load:>6.2f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
