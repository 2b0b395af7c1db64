#!/usr/bin/env python3
"""Outcome distributions of the bot and of random play for every Struggle scenario, written as
the tables of docs/balance.md.

    python tools/balance.py --games 1000 --jobs 2 > /tmp/balance.md
    python tools/balance.py --games 1000 --cluster tcp://HOST:8786 > /tmp/balance.md

``--cluster ADDRESS|local:N`` plays the games on a Dask cluster instead of ``--jobs`` processes
(docs/cluster.md), with the same figures.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.cluster import add_cluster_options, tool_jobs  # noqa: E402
from struggle_desktop.engine.errors import StruggleError  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import simulate  # noqa: E402

LEVELS = ["collapse", "decline", "survival", "expanding", "galactic", "universal", "turn-limit"]
#: The reconstructed tables that most move each outcome, named when one outcome dominates.
TUNING = {
    "collapse": "ci_track (markers per round), event_pool (counts of CI-raising markers), "
                "chaos_operations, combat_results, ie_recruiting",
    "galactic": "event_pool, chaos_operations, combat_results, units (costs), extropy",
    "expanding": "event_pool, combat_results, extropy, units (costs)",
    "turn-limit": "extropy, illumination, event_pool (CI-lowering markers): Universal Victory "
                  "needs CI 10 or less",
}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    add_cluster_options(parser, default_jobs=2)
    parser.add_argument("--scenarios", default="1,2,3,4,5,6,7")
    args = parser.parse_args()
    try:
        return table(args)
    except StruggleError as exc:      # a bad --cluster, an unreachable or lost scheduler
        print(f"error: {exc}", file=sys.stderr)
        return 2


def table(args: argparse.Namespace) -> int:
    jobs = tool_jobs(args.jobs, args.cluster, default_jobs=2)
    game = get_game("struggle")
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True, cwd=Path(__file__).parent).stdout.strip()
    print(f"Measured on commit {commit}: {args.games} games per scenario and policy, "
          f"`simulate --seed {args.seed}`, optional rules as the scenario forces them.\n")
    print("| scenario | policy | " + " | ".join(LEVELS) + " | VP mean | turns mean | errors |")
    print("|---" * (len(LEVELS) + 5) + "|")
    notes = []
    for scenario in args.scenarios.split(","):
        for policy in ("bot", "random"):
            r = simulate(game, scenario, args.games, args.seed, options={"policy": policy},
                         jobs=jobs, cluster=args.cluster)
            total = max(1, r["completed"])
            cells = [f"{100 * r['outcomes'].get(level, 0) / total:.1f}%" for level in LEVELS]
            print(f"| {scenario} | {policy} | " + " | ".join(cells)
                  + f" | {r['vp_mean']:.1f} | {r['turns_mean']:.1f} | {r['errors']} |", flush=True)
            if policy == "bot":
                for level, count in r["outcomes"].items():
                    if count / total > 0.9:
                        notes.append(f"- Scenario {scenario}: the bot ends in `{level}` in "
                                     f"{100 * count / total:.1f}% of games. Tables to tune: "
                                     f"{TUNING.get(level, 'event_pool, combat_results')}.")
    if notes:
        print("\nOne outcome takes over 90% of the bot's games in:\n")
        print("\n".join(notes))
    return 0


if __name__ == "__main__":
    sys.exit(main())
