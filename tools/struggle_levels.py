#!/usr/bin/env python3
"""Struggle for the Galactic Empire: the stronger Imperial player (policy ``strong``) against
today's bot (policy ``bot``), measured by the mean victory level, for docs/balance.md.

    python tools/struggle_levels.py [--games 500] [--seed 1] [--jobs 1 | --cluster ADDRESS|local:N]
                                    [--scenarios 1,...,7]

For each scenario it plays the same ``games`` games (game ``k`` set up from
``game_seed(seed, k)``) once with each policy, through ``simulate.run_one``, the function
``simulate`` runs for every game, so the outcome counts are those of
``struggle-desktop simulate --game struggle --scenario S --games N --seed K
--option policy=P``. It prints one markdown table: the mean victory level of each policy, the
difference (strong - bot) with its standard error (that of the mean of the per-game
differences, the two policies playing the same set-ups), and each policy's outcome shares.

Victory levels count as numbers (SGE-VIC-6): collapse 0, decline 1, survival 2, expanding 3,
galactic 4, universal 5. Scenario 7 (Sweep of Empire) also ends in ``turn-limit`` when the
turn limit (40 turns by default) comes before Universal Victory; such a game counts as the
level its final VP scores on the base scenario's bands (SGE-VIC-1, SGE-VIC-2: scenario 1's,
Collapse 0-26 ... Galactic 42+), as if the base scenario had ended on that turn. A game that
fails (an error) counts as collapse and is reported.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop import cluster as dask_cluster  # noqa: E402
from struggle_desktop.engine.errors import StruggleError  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import cluster_game, run_one  # noqa: E402

LEVELS = {"collapse": 0, "decline": 1, "survival": 2, "expanding": 3, "galactic": 4,
          "universal": 5}
OUTCOMES = ("collapse", "decline", "survival", "expanding", "galactic", "universal",
            "turn-limit")
POLICIES = ("bot", "strong")


def band_level(vp: float, bands: dict) -> int:
    """The level ``vp`` victory points score on a scenario's bands (upper limits).

    >>> band_level(40, {"collapse": 26, "decline": 31, "survival": 36, "expanding": 41})
    3
    """
    for level in ("collapse", "decline", "survival", "expanding"):
        if vp <= bands[level]:
            return LEVELS[level]
    return LEVELS["galactic"]


def level_of(result: str | None, vp: float | None, bands: dict) -> int:
    """A game's victory level as a number (see the module docstring)."""
    if result == "turn-limit":
        return band_level(vp or 0, bands)
    return LEVELS.get(result or "collapse", 0)


def base_bands(scenario: str) -> dict:
    """The victory bands a scenario's games are scored on (scenario 7: its base's)."""
    game = get_game("struggle")
    _toggles, base, _sweep, _max_turns = game.normalize_options(scenario, {})
    return dict(base["victory"])


def play_chunk(args: tuple[str, str, int, list[int]]) -> list[tuple[int, str | None, float | None, bool]]:
    """Games ``indices`` of one scenario and policy: (index, result, vp, completed)."""
    scenario, policy, seed, indices = args
    game = get_game("struggle")
    game.warm_up()
    out = []
    for k in indices:
        r = run_one(game, scenario, seed, k, {}, policy)
        out.append((k, r.result, r.vp, r.completed))
    return out


def play(scenario: str, policy: str, games: int, seed: int, jobs: int,
         cluster: str | None = None) -> tuple[list, float]:
    """Every game's (index, result, vp, completed), in game order, and the seconds taken."""
    started = time.perf_counter()
    if cluster is not None:      # the games of simulate --cluster, one by one
        results: list = []
        dask_cluster.run_games(cluster, get_game("struggle"), {"policy": policy}, cluster_game,
                               ("struggle", scenario, seed, {}, policy, False), games,
                               results.extend)
        rows = sorted((r.index, r.result, r.vp, r.completed) for r, _log in results)
        return rows, time.perf_counter() - started
    size = max(1, math.ceil(games / (jobs * 4)))
    chunks = [(scenario, policy, seed, list(range(i, min(games, i + size))))
              for i in range(0, games, size)]
    if jobs == 1:
        rows = [row for chunk in chunks for row in play_chunk(chunk)]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            rows = [row for part in pool.map(play_chunk, chunks) for row in part]
    rows.sort()
    return rows, time.perf_counter() - started


def mean_se(values: list[float]) -> tuple[float, float]:
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def shares(rows: list) -> str:
    counts: dict[str, int] = {}
    for _k, result, _vp, completed in rows:
        key = result if completed else "error"
        counts[key] = counts.get(key, 0) + 1
    n = len(rows)
    parts = [f"{counts[o] / n:.1%} {o}" for o in (*OUTCOMES, "error") if counts.get(o)]
    return ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    dask_cluster.add_cluster_options(parser, default_jobs=1)
    parser.add_argument("--scenarios", default="1,2,3,4,5,6,7")
    args = parser.parse_args(argv)
    try:
        return study(args)
    except StruggleError as exc:      # a bad --cluster, an unreachable or lost scheduler
        print(f"error: {exc}", file=sys.stderr)
        return 2


def study(args: argparse.Namespace) -> int:
    args.jobs = dask_cluster.tool_jobs(args.jobs, args.cluster, default_jobs=1)
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    lines = ["| scenario | games | bot mean level | strong mean level | difference | "
             "bot outcomes | strong outcomes |",
             "|---|---|---|---|---|---|---|"]
    timing = []
    for scenario in scenarios:
        bands = base_bands(scenario)
        played = {}
        for policy in POLICIES:
            played[policy] = play(scenario, policy, args.games, args.seed, args.jobs,
                                  args.cluster)
            timing.append(f"scenario {scenario}, {policy}: {played[policy][1]:.0f} s "
                          f"({args.games / played[policy][1]:.2f} games/s)")
            print(timing[-1], file=sys.stderr, flush=True)
        levels = {p: [level_of(r, vp, bands) for _k, r, vp, _c in played[p][0]]
                  for p in POLICIES}
        bot_mean, bot_se = mean_se(levels["bot"])
        strong_mean, strong_se = mean_se(levels["strong"])
        diff, diff_se = mean_se([s - b for b, s in zip(levels["bot"], levels["strong"])])
        ratio = f" ({diff / diff_se:.1f} SE)" if diff_se > 0 else ""
        lines.append(f"| {scenario} | {args.games} | {bot_mean:.2f} ± {bot_se:.2f} | "
                     f"{strong_mean:.2f} ± {strong_se:.2f} | {diff:+.2f} ± {diff_se:.2f}{ratio} | "
                     f"{shares(played['bot'][0])} | {shares(played['strong'][0])} |")
    print("\n".join(lines))
    print()
    where = f"--cluster {args.cluster}" if args.cluster else f"--jobs {args.jobs}"
    print(f"Time ({where}): " + "; ".join(timing) + ".")
    return 0


if __name__ == "__main__":
    sys.exit(main())
