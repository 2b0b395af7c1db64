#!/usr/bin/env python3
"""Long fuzz runs: random legal actions over many seeds, every scenario, options off and on.

    python tools/fuzz.py --game struggle --seeds 200 --jobs 2
    python tools/fuzz.py --game battles --seeds 200 --jobs 2
    python tools/fuzz.py --game nobles --seeds 200 --jobs 2 --options h2,h3,h4,terrain

Prints one line per scenario and option set (``all`` is the game's ``all=on``), then every
failure (seed, scenario, problem), and exits 1 if any game failed. The test suite runs the
same fuzzer on a few seeds (tests/games/struggle/test_fuzz.py, tests/games/battles/test_play.py).
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.engine.fuzz import fuzz_game  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402

OPTION_SETS = {"off": {}, "all": {"all": "on"}}


def option_sets(game) -> dict[str, dict]:
    """The named option sets a game offers the fuzzer (``fuzz_option_sets``), else off/all."""
    return getattr(game, "fuzz_option_sets", OPTION_SETS)


def _run(args: tuple) -> dict:
    game_id, scenario, seed, options_name = args
    game = get_game(game_id)
    r = fuzz_game(game, scenario, seed, option_sets(game)[options_name])
    return {"scenario": scenario, "seed": seed, "options": options_name, "ok": r.ok,
            "outcome": r.outcome, "actions": r.actions, "problems": r.problems}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="struggle")
    parser.add_argument("--seeds", type=int, default=200)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--scenarios", default=None, help="comma list (default: all)")
    parser.add_argument("--options", default=None,
                        help="comma list of option sets (default: all the game offers)")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    game = get_game(args.game)
    scenarios = args.scenarios.split(",") if args.scenarios else [s["id"] for s in game.scenarios()]
    names = args.options.split(",") if args.options else list(option_sets(game))
    unknown = [n for n in names if n not in option_sets(game)]
    if unknown:
        parser.error(f"unknown option sets {unknown} (known: {', '.join(option_sets(game))})")
    work = [(args.game, sc, seed, opt) for sc in scenarios for opt in names
            for seed in range(args.first_seed, args.first_seed + args.seeds)]
    start = time.time()
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(_run, work, chunksize=8))
    else:
        results = [_run(w) for w in work]
    failures = [r for r in results if not r["ok"]]
    summary: dict[tuple, list] = {}
    for r in results:
        summary.setdefault((r["scenario"], r["options"]), []).append(r)
    for (sc, opt), rs in summary.items():
        outcomes: dict[str, int] = {}
        for r in rs:
            outcomes[str(r["outcome"])] = outcomes.get(str(r["outcome"]), 0) + 1
        bad = sum(1 for r in rs if not r["ok"])
        print(f"scenario {sc} options {opt}: {len(rs)} games, {bad} failed, outcomes {outcomes}")
    for r in failures[:20]:
        print(f"FAIL scenario {r['scenario']} options {r['options']} seed {r['seed']}:")
        for p in r["problems"][:3]:
            print("   ", p)
    print(f"{len(results)} games in {time.time() - start:.1f} s, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
