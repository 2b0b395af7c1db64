#!/usr/bin/env python3
"""Noble Houses program levels against each other: 2-house games, seats swapped half the time,
for the tables of docs/balance.md.

    python tools/levels.py --games 200 --jobs 2 [--pairs hard:normal,normal:easy]

For a pair ``X:Y`` it plays ``games / 2`` games with house A at level X and house B at level Y,
then as many with the levels swapped (the same seeds), every seat the program's, and counts
the winner's level. A game's ``result`` names the winning house first (``A``, ``A-turn-limit``:
the richer house when the turn limit ends the game); anything else is a draw.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop.simulate import simulate  # noqa: E402


def winner(result: str) -> str | None:
    """The winning house of a result, or None (a draw).

    >>> winner("A-turn-limit"), winner("B"), winner("draw")
    ('A', 'B', None)
    """
    head = result.split("-")[0]
    return head if head in ("A", "B", "C", "D") else None


def pair(first: str, second: str, games: int, seed: int, jobs: int) -> dict:
    """Wins by level over ``games`` games of ``first`` against ``second``, seats swapped."""
    wins = {first: 0, second: 0, "draw": 0}
    seconds = 0.0
    half = games // 2
    for a, b in ((first, second), (second, first)):
        summary = simulate("nobles", "standard", half, seed, {
            "houses": 2, "level1": a, "level2": b}, jobs=jobs)
        seconds += summary["seconds"]
        for result, count in summary["outcomes"].items():
            house = winner(result)
            level = {"A": a, "B": b}.get(house) if house else None
            wins[level or "draw"] += count
        wins["draw"] += summary["errors"]
    return {"first": first, "second": second, "games": 2 * half, "wins": wins,
            "seconds": seconds}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--pairs", default="hard:normal,normal:easy")
    args = parser.parse_args()
    print("| levels | games | first wins | second wins | draws | first's share |")
    print("|---|---|---|---|---|---|")
    for text in args.pairs.split(","):
        first, second = text.split(":")
        found = pair(first, second, args.games, args.seed, args.jobs)
        wins, games = found["wins"], found["games"]
        print(f"| {first} vs {second} | {games} | {wins[first]} | {wins[second]} | "
              f"{wins['draw']} | {100 * wins[first] / games:.0f} % |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
