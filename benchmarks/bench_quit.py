#!/usr/bin/env python3
"""How long quitting takes: from File → Quit (Ctrl+Q) to the end of the process.

Each case runs in a fresh process with its own user folder: a window of the game, a new game,
some steps of play by the program's hint (each one autosaved, as in play), the History and
Forecast panels open where asked, a short forecast run where asked; then Quit. The child
reports when Quit was triggered, when the window had closed and when the event loop ended;
the parent notes when the process was gone. The budget is half a second in all.

    python benchmarks/bench_quit.py [--repeats 3] [--profile]

``--profile`` prints where the time of the close itself goes (cProfile, the first case);
``--plain-exit`` ends the process as before ``ui.app.leave_quickly`` (with the interpreter's
last garbage collections), for comparison; ``--cases WORDS`` runs some cases only.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (name, game, scenario, steps of play, extras)
CASES = [
    ("Struggle, untouched new game", "struggle", "3", 0, ""),
    ("Struggle, 25 steps", "struggle", "3", 25, ""),
    ("Struggle, 25 steps, History and Forecast open, forecast run", "struggle", "3", 25,
     "charts,forecast"),
    ("Struggle, 25 steps, forecast still running", "struggle", "3", 25, "charts,running"),
    ("Battles, 40 steps", "battles", "civil-war", 40, "charts"),
    ("Noble Houses, 15 steps", "nobles", "standard", 15, "charts"),
    ("Freedom, 10 steps", "freedom", "a1", 10, "charts"),
]

CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])


def main():
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    from struggle_desktop.ui.app import make_application
    from struggle_desktop.ui.screens import window_class

    game, scenario, steps, extras, profile, plain_exit = (
        sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5].split(","), sys.argv[6] == "1",
        sys.argv[7] == "1")
    app = make_application()
    window = window_class(game)()
    window.show()
    window.new_game(game, scenario, 7, {})
    if hasattr(window, "set_speed"):
        window.set_speed("instant")
    for _ in range(steps):
        app.processEvents()
        if not window.autopilot_step():
            break
    if "charts" in extras:
        window.show_panel(window.history_dock)
        window.show_panel(window.forecast_dock)
    if "forecast" in extras:
        window.forecast_dock.games.setValue(20)
        window.forecast_dock.start()
        window.forecast_dock.wait(300)
    if "running" in extras:
        window.forecast_dock.games.setValue(2000)
        window.forecast_dock.start()
        began = time.monotonic()
        while time.monotonic() - began < 2:
            app.processEvents()
            time.sleep(0.01)
    for _ in range(20):
        app.processEvents()
    # A played game would ask "save first?": answered (no) before the clock starts.
    if not window.document.untouched:
        window.document.dirty = False
    marks = {}

    def quit_now():
        profiler = None
        if profile:
            import cProfile
            profiler = cProfile.Profile()
        marks["quit"] = time.time()
        if profiler is not None:
            profiler.enable()
        window.act_quit.trigger()
        if profiler is not None:
            profiler.disable()
        marks["closed"] = time.time()
        if profiler is not None:
            import pstats
            pstats.Stats(profiler, stream=sys.stderr).sort_stats("cumulative").print_stats(15)

    QTimer.singleShot(50, quit_now)
    app.exec()
    marks["loop_ended"] = time.time()
    print(json.dumps(marks), flush=True)
    if not plain_exit:
        from struggle_desktop.ui.app import leave_quickly
        leave_quickly()           # as ui/app.main does once its window has closed


if __name__ == "__main__":
    main()
"""


def run_case(game: str, scenario: str, steps: int, extras: str, profile: bool,
             plain_exit: bool = False) -> dict:
    with tempfile.TemporaryDirectory() as home:
        env = dict(os.environ, STRUGGLE_DESKTOP_HOME=home,
                   QT_QPA_PLATFORM=os.environ.get("QT_QPA_PLATFORM", "offscreen"))
        child = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(ROOT), game, scenario, str(steps), extras,
             "1" if profile else "0", "1" if plain_exit else "0"],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
        out, err = child.communicate(timeout=900)
        gone = time.time()
    if profile:
        print(err[-6000:])
    lines = [line for line in out.splitlines() if line.startswith("{")]
    if child.returncode != 0 or not lines:
        raise SystemExit(f"the case failed: {err[-2000:]}")
    marks = json.loads(lines[-1])
    return {"close": marks["closed"] - marks["quit"],
            "loop": marks["loop_ended"] - marks["quit"],
            "exit": gone - marks["quit"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--plain-exit", action="store_true",
                        help="end as before the fix: with the interpreter's last collections")
    parser.add_argument("--cases", default="",
                        help="only the cases whose name contains one of these words (comma)")
    args = parser.parse_args()
    print(f"{'case':64} {'close':>7} {'loop':>7} {'exit':>7}   (seconds, median of "
          f"{args.repeats})")
    words = [w.strip().lower() for w in args.cases.split(",") if w.strip()]
    for k, (name, game, scenario, steps, extras) in enumerate(CASES):
        if words and not any(w in name.lower() for w in words):
            continue
        runs = [run_case(game, scenario, steps, extras, args.profile and k == 0 and r == 0,
                         args.plain_exit) for r in range(args.repeats)]
        figures = {key: statistics.median(run[key] for run in runs) for key in runs[0]}
        print(f"{name:64} {figures['close']:7.3f} {figures['loop']:7.3f} "
              f"{figures['exit']:7.3f}", flush=True)


if __name__ == "__main__":
    main()
