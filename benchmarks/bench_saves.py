#!/usr/bin/env python3
"""Save and load (replay and verify) of a 10-turn Struggle game (budget: <= 100 ms each).

    python benchmarks/bench_saves.py [--scenario 4] [--repeat 5]
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


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenario", default="4")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    game = get_game("struggle")
    game.data_digest()
    session = Session.new(game, args.scenario, args.seed, {})
    rng = Rng.from_seed(args.seed, stream=99)
    while game.outcome(session.state) is None:
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot", rng))
    turns = session.state["turn"]
    saves, loads = [], []
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "game.json"
        for _ in range(args.repeat):
            t = time.perf_counter()
            session.save(path)
            saves.append(time.perf_counter() - t)
            t = time.perf_counter()
            Session.load({"struggle": game}, path)
            loads.append(time.perf_counter() - t)
        size = path.stat().st_size
    print(f"scenario {args.scenario}: {turns} turns, {len(session.actions)} actions, "
          f"{size / 1024:.0f} KiB")
    print(f"save: median {statistics.median(saves) * 1000:.1f} ms")
    print(f"load (replay + digest checks): median {statistics.median(loads) * 1000:.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
