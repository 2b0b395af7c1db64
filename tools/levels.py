#!/usr/bin/env python3
"""Noble Houses program levels against each other: 2-house games, seats swapped half the time,
for the tables of docs/balance.md.

    python tools/levels.py --games 200 --jobs 2 [--pairs hard:normal,normal:easy]
    python tools/levels.py --fights 100 --houses 4 --level hard --jobs 2
    python tools/levels.py --battles 100 --jobs 2 [--seeds 11,12] [--scenario civil-war]

Each takes ``--cluster ADDRESS|local:N`` instead of ``--jobs`` to play the games on a Dask
cluster (docs/cluster.md), with the same figures.

For a pair ``X:Y`` it plays ``games / 2`` games with house A at level X and house B at level Y,
then as many with the levels swapped (the same seeds), every seat the program's, and counts
the winner's level. A game's ``result`` names the winning house first (``A``, ``A-turn-limit``:
the richer house when the turn limit ends the game); anything else is a draw.

``--fights N`` plays N games with every house at one level instead and reads each game's log:
the worlds taken from another house by armies (NH-CTRL-2), those taken by Diplomacy
(NH-CTRL-3), the houses eliminated (NH-VIC-3) and how the game ended, then prints their
distribution over the games.

``--battles N`` is for Battles for the Galactic Empire: for each seed, N games with the
stronger level (policy ``strong``) as Blue against the baseline, N with it as Red, and N of the
baseline against itself on the same set-ups; it prints each side's wins by level.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from struggle_desktop import cluster as dask_cluster  # noqa: E402
from struggle_desktop.engine.errors import StruggleError  # noqa: E402
from struggle_desktop.engine.session import Session  # noqa: E402
from struggle_desktop.games import get_game  # noqa: E402
from struggle_desktop.simulate import drive, game_seed, program_options, simulate  # noqa: E402


def winner(result: str) -> str | None:
    """The winning house of a result, or None (a draw).

    >>> winner("A-turn-limit"), winner("B"), winner("draw")
    ('A', 'B', None)
    """
    head = result.split("-")[0]
    return head if head in ("A", "B", "C", "D") else None


def pair(first: str, second: str, games: int, seed: int, jobs: int,
         cluster: str | None = None) -> dict:
    """Wins by level over ``games`` games of ``first`` against ``second``, seats swapped."""
    wins = {first: 0, second: 0, "draw": 0}
    seconds = 0.0
    half = games // 2
    for a, b in ((first, second), (second, first)):
        summary = simulate("nobles", "standard", half, seed, {
            "houses": 2, "level1": a, "level2": b}, jobs=jobs, cluster=cluster)
        seconds += summary["seconds"]
        for result, count in summary["outcomes"].items():
            house = winner(result)
            level = {"A": a, "B": b}.get(house) if house else None
            wins[level or "draw"] += count
        wins["draw"] += summary["errors"]
    return {"first": first, "second": second, "games": 2 * half, "wins": wins,
            "seconds": seconds}


#: What ``--fights`` counts in each game's log, and its row in the table.
FIGHT_ROWS = {"taken": "worlds taken from another house by arms (NH-CTRL-2)",
              "homeworlds": "of them homeworlds",
              "diplomacy": "worlds taken by Diplomacy (NH-CTRL-3)",
              "battles": "battles fought to a win (NH-BAT-11)",
              "nukes": "nukes launched (NH-NUK-3)",
              "intrigue": "allies won by Intrigue (NH-NOB-15)",
              "eliminated": "houses eliminated (NH-VIC-3)",
              "turns": "turns played"}


def fight_counts(args: tuple[int, int, str, int]) -> dict:
    """One game of ``houses`` houses, all at ``level``: what its log says of the fighting."""
    seed, k, level, houses = args
    game = get_game("nobles")
    gseed = game_seed(seed, k)
    session = Session.new(game, "standard", gseed, program_options(
        game, {"houses": houses, "ai_difficulty": level}), record_digests=False)
    drive(game, session, "bot", gseed)
    counts = dict.fromkeys(FIGHT_ROWS, 0)
    homeworlds = {name for name, world in game.data.worlds.items() if world.homeworld}
    for entry in session.state["log"]:
        rule, text = entry.get("rule"), str(entry.get("text", ""))
        if rule == "NH-CTRL-2" and " from " in text:
            counts["taken"] += 1
            counts["homeworlds"] += any(ref in homeworlds for ref in entry.get("refs", ()))
        elif rule == "NH-CTRL-3":
            counts["diplomacy"] += 1
        elif rule == "NH-BAT-11" and " wins the battle" in text:
            counts["battles"] += 1
        elif rule == "NH-NUK-3" and " is launched" in text:
            counts["nukes"] += 1
        elif rule == "NH-NOB-15" and "Intrigue succeeds" in text:
            counts["intrigue"] += 1
        elif rule == "NH-VIC-3" and "no world and no army" in text:
            counts["eliminated"] += 1
    outcome = game.outcome(session.state) or {}
    return dict(counts, how=outcome.get("how"), turns=outcome.get("turn"))


def fight_game(seed: int, level: str, houses: int, k: int) -> tuple[int, dict]:
    """Game ``k``'s ``fight_counts``, with its index (a cluster's chunks come in any order)."""
    return k, fight_counts((seed, k, level, houses))


def fights(games: int, houses: int, level: str, seed: int, jobs: int,
           cluster: str | None = None) -> list[dict]:
    """``fight_counts`` of games 0..games-1 of ``seed``."""
    from concurrent.futures import ProcessPoolExecutor

    if cluster is not None:
        found: list[tuple[int, dict]] = []
        dask_cluster.run_games(cluster, get_game("nobles"),
                               {"houses": houses, "ai_difficulty": level}, fight_game,
                               (seed, level, houses), games, found.extend)
        return [counts for _k, counts in sorted(found, key=lambda kc: kc[0])]
    work = [(seed, k, level, houses) for k in range(games)]
    if jobs <= 1:
        return [fight_counts(w) for w in work]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(fight_counts, work, chunksize=4))


def print_fights(found: list[dict], houses: int, level: str) -> None:
    games = len(found)
    fighting = sum(1 for f in found if f["eliminated"] or f["taken"] >= f["turns"] / 3)
    print(f"{games} games, {houses} houses at {level}: {fighting} ({100 * fighting / games:.0f} %)"
          f" saw a house eliminated or a world taken by arms every 3 turns or more often")
    print("| per game | min | 10th | median | 90th | max | mean | games with any |")
    print("|---|---|---|---|---|---|---|---|")
    for key, label in FIGHT_ROWS.items():
        values = sorted(f[key] for f in found)
        tenth, median, ninetieth = (values[int(q * (games - 1))] for q in (0.1, 0.5, 0.9))
        print(f"| {label} | {values[0]} | {tenth} | {median} | {ninetieth} | {values[-1]} | "
              f"{sum(values) / games:.2f} | {sum(1 for v in values if v)} |")
    ends: dict[str, int] = {}
    for f in found:
        ends[f["how"]] = ends.get(f["how"], 0) + 1
    print("ended by: " + ", ".join(f"{how} {n}" for how, n in sorted(ends.items())))


def battles(games: int, seeds: list[int], scenario: str, jobs: int,
            cluster: str | None = None) -> list[dict]:
    """Per side: its wins over ``games`` games a seed when the baseline plays it and when the
    stronger level does (the other side always the baseline's)."""
    rows = []
    baseline = {seed: simulate("battles", scenario, games, seed, {"policy": "bot"}, jobs=jobs,
                               cluster=cluster)
                for seed in seeds}
    for side in ("blue", "red"):
        row = {"side": side, "games": games * len(seeds), "baseline": 0, "strong": 0,
               "errors": 0, "seconds": 0.0}
        for seed in seeds:
            strong = simulate("battles", scenario, games, seed, {"policy": f"strong-{side}"},
                              jobs=jobs, cluster=cluster)
            row["baseline"] += baseline[seed]["outcomes"].get(side, 0)
            row["strong"] += strong["outcomes"].get(side, 0)
            row["errors"] += strong["errors"] + baseline[seed]["errors"]
            row["seconds"] += strong["seconds"]
        rows.append(row)
    return rows


def print_battles(rows: list[dict], scenario: str, seeds: list[int]) -> None:
    print(f"Battles, {scenario}, seeds {', '.join(map(str, seeds))}: each side's wins against "
          "the baseline")
    print("| side | games | wins, the baseline playing it | wins, the stronger level playing it | "
          "difference | errors |")
    print("|---|---|---|---|---|---|")
    for row in rows:
        n = row["games"]
        print(f"| {row['side'].capitalize()} | {n} | {row['baseline']} "
              f"({100 * row['baseline'] / n:.1f} %) | {row['strong']} "
              f"({100 * row['strong'] / n:.1f} %) | "
              f"{100 * (row['strong'] - row['baseline']) / n:+.1f} points | "
              f"{row['errors']} |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    dask_cluster.add_cluster_options(parser, default_jobs=2)
    parser.add_argument("--pairs", default="hard:normal,normal:easy")
    parser.add_argument("--fights", type=int, default=0, metavar="N")
    parser.add_argument("--houses", type=int, default=4)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--battles", type=int, default=0, metavar="N")
    parser.add_argument("--seeds", default="11,12")
    parser.add_argument("--scenario", default="civil-war")
    args = parser.parse_args()
    try:
        return study(args)
    except StruggleError as exc:      # a bad --cluster, an unreachable or lost scheduler
        print(f"error: {exc}", file=sys.stderr)
        return 2


def study(args: argparse.Namespace) -> int:
    jobs = dask_cluster.tool_jobs(args.jobs, args.cluster, default_jobs=2)
    if args.battles:
        seeds = [int(x) for x in args.seeds.split(",")]
        print_battles(battles(args.battles, seeds, args.scenario, jobs, args.cluster),
                      args.scenario, seeds)
        return 0
    if args.fights:
        print_fights(fights(args.fights, args.houses, args.level, args.seed, jobs, args.cluster),
                     args.houses, args.level)
        return 0
    print("| levels | games | first wins | second wins | draws | first's share |")
    print("|---|---|---|---|---|---|")
    for text in args.pairs.split(","):
        first, second = text.split(":")
        found = pair(first, second, args.games, args.seed, jobs, args.cluster)
        wins, games = found["wins"], found["games"]
        print(f"| {first} vs {second} | {games} | {wins[first]} | {wins[second]} | "
              f"{wins['draw']} | {100 * wins[first] / games:.0f} % |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
