#!/usr/bin/env python3
"""Rewind and forecast costs (ARCHITECTURE.md section 7, issue "rewind, branch, forecast").

    python benchmarks/bench_timeline.py [--games 500] [--jobs 2]

* Timeline: a whole 10-turn game of Struggle scenario 4 (the program's player), then the
  window's document looking back: the first look (the timeline is built: one replay), then
  single steps back and forward and turn steps, each timed as ``GameDocument.look_at`` plus
  the board the window then draws (medians and worst of each kind).
* Forecast: 500 games from the start of Struggle scenario 4 with ``--jobs 2`` (the budget is
  5 s), and the cost of one forecast game for each game (one worker, from a position a few
  actions in).

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def whole_game():
    from struggle_desktop.games import get_game
    from struggle_desktop.simulate import play_game

    return play_game(get_game("struggle"), "4", 11, {}, "bot")


def timeline(session) -> None:
    from PySide6.QtCore import QCoreApplication

    from struggle_desktop.engine.session import Session
    from struggle_desktop.ui.document import GameDocument

    QCoreApplication.instance() or QCoreApplication([])
    document = GameDocument(autosave=False)
    # A game the window holds keeps its log: replay it the way the window has it.
    kept = Session.new(session.game, session.scenario, session.seed, session.options)
    for entry in session.actions:
        kept.perform(entry["role"], entry["action"], copy=False)
    document.install_session(kept)
    n = document.history_length

    def timed(k: int) -> float:
        start = time.perf_counter()
        document.look_at(k)
        document.board   # what the window draws next
        return time.perf_counter() - start

    first = timed(n - 1)
    back = [timed(k) for k in range(n - 2, n - 42, -1)]
    forward = [timed(k) for k in range(n - 41, n - 1)]
    starts = document.turn_starts()
    turns = [timed(k) for k in reversed(starts)]
    jumps = [timed(k) for k in (0, n // 2, 5, n - 3, n // 3)]
    print(f"timeline of Struggle scenario 4, {n} actions, {len(starts)} turns:")
    print(f"  first look back (the timeline built): {1000 * first:.0f} ms")
    for name, times in (("action back", back), ("action forward", forward),
                        ("turn step", turns), ("jump anywhere", jumps)):
        print(f"  {name:>15}: median {1000 * statistics.median(times):.1f} ms, "
              f"worst {1000 * max(times):.1f} ms ({len(times)} steps)")


def forecasts(games: int, jobs: int) -> None:
    from struggle_desktop import forecast as forecasting
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    start = forecasting.start_of("struggle", "4", 1)
    summary = forecasting.forecast(start, games, seed=1, jobs=jobs)
    print(f"forecast, {games} games from the start of Struggle scenario 4, --jobs {jobs}: "
          f"{summary['seconds']:.2f} s ({summary['games_per_second']:.0f} games/s)")
    print("cost of one forecast game (one worker):")
    for game_id, scenario, options, count in (
            ("struggle", "4", {}, 100), ("battles", "civil-war", {}, 100),
            ("nobles", "standard", {"houses": 2, "seat1": "ai", "seat2": "ai"}, 10),
            ("nobles", "standard", {"houses": 4, "seat1": "ai", "seat2": "ai", "seat3": "ai",
                                    "seat4": "ai"}, 4),
            ("freedom", "a3", {}, 200)):
        game = get_game(game_id)
        session = Session.new(game, scenario, 3, options)
        summary = forecasting.forecast(forecasting.start_from(session), count, seed=1)
        label = f"{game_id} {scenario}" + (f" ({options['houses']} houses)" if "houses" in options else "")
        print(f"  {label:>30}: {1000 * summary['seconds'] / count:.1f} ms a game "
              f"({count} games)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        os.environ["STRUGGLE_DESKTOP_HOME"] = home
        timeline(whole_game())
        forecasts(args.games, args.jobs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
