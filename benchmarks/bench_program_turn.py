#!/usr/bin/env python3
"""How long the program's players keep the window waiting (issue 19's budgets).

    python benchmarks/bench_program_turn.py [--turns 6] [--level normal|easy|hard] [--skip-hint]

* Noble Houses: a game of 4 houses, house A a person's seat played here by the program too, in
  the window's document (``GameDocument.perform`` with ``program_action``, the path the
  window's program player takes). For each program house's turn: the computing time of all
  its actions (the window adds a 60 ms pause between actions so the person can follow them,
  not counted) and its longest single action (the longest the window is blocked).
  Budget: a program house's turn <= 0.5 s.
* Struggle: Hint (``GameDocument.hint``) at every decision of a game of scenario 4.
  Budget: <= 1 s.

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


def nobles(turns: int, level: str) -> None:
    from struggle_desktop.ui.document import GameDocument

    document = GameDocument(autosave=False)
    options = {"houses": 4, "seat1": "human", "seat2": "ai", "seat3": "ai", "seat4": "ai",
               "ai_difficulty": level}
    document.new_game("nobles", "standard", 5, options)
    per_turn: dict[tuple, list[float]] = {}
    while document.state.get("turn", 0) <= turns and document.waiting_role is not None:
        role = document.waiting_role
        start = time.perf_counter()
        document.perform(document.program_action("bot"), role)
        spent = time.perf_counter() - start
        if role != "A":
            per_turn.setdefault((document.state.get("turn"), role), []).append(spent)
    totals = [sum(v) for v in per_turn.values()]
    longest = [max(v) for v in per_turn.values()]
    actions = [len(v) for v in per_turn.values()]
    print(f"Noble Houses, 4 houses, {len(per_turn)} program-house turns "
          f"(turns 1-{turns}, ai_difficulty={level}):")
    print(f"  computing per turn: median {statistics.median(totals):.2f} s, "
          f"worst {max(totals):.2f} s ({statistics.median(actions):.0f} actions a turn)")
    print(f"  longest single action: median {1000 * statistics.median(longest):.0f} ms, "
          f"worst {1000 * max(longest):.0f} ms")


def struggle_hint() -> None:
    from struggle_desktop.ui.document import GameDocument

    document = GameDocument(autosave=False)
    document.new_game("struggle", "4", 3, {})
    times = []
    while document.waiting_role is not None and len(times) < 400:
        start = time.perf_counter()
        action = document.hint()
        times.append(time.perf_counter() - start)
        if action is None or not document.perform(action).ok:
            break
    print(f"Struggle Hint, scenario 4, {len(times)} decisions: median "
          f"{1000 * statistics.median(times):.1f} ms, worst {1000 * max(times):.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=6)
    parser.add_argument("--level", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--skip-hint", action="store_true", help="Noble Houses only")
    args = parser.parse_args()
    from PySide6.QtCore import QCoreApplication

    app = QCoreApplication.instance() or QCoreApplication([])   # documents are QObjects
    with tempfile.TemporaryDirectory() as home:
        os.environ["STRUGGLE_DESKTOP_HOME"] = home
        nobles(args.turns, args.level)
        if not args.skip_hint:
            struggle_hint()
    app.processEvents()
    return 0


if __name__ == "__main__":
    sys.exit(main())
