#!/usr/bin/env python3
"""Desktop budgets of ARCHITECTURE.md section 7, measured offscreen:

* start-up: a fresh process to an interactive main window with a scenario loaded, against a
  bare PySide6 ``QMainWindow`` started the same way in the same run (ratio <= 2, <= 1.0 s);
* full repaint of the map view at 1600x1000 on a busy position (median <= 16 ms);
* one drag step of a counter (a mouse move while dragging; <= 2 ms);
* resident memory of the window with a game loaded (<= 250 MB).

    python benchmarks/bench_gui.py [--repeats 5]

Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

BARE_WINDOW = """
import time; t0 = time.perf_counter()
from PySide6.QtWidgets import QApplication, QMainWindow
app = QApplication([]); w = QMainWindow(); w.resize(1600, 1000); w.show(); app.processEvents()
print(time.perf_counter() - t0)
"""

PROGRAM_WINDOW = """
import time; t0 = time.perf_counter()
import sys; sys.path.insert(0, {root!r})
from struggle_desktop.ui.app import make_application
from struggle_desktop.ui.main_window import MainWindow
app = make_application(); w = MainWindow(); w.show()
w.new_game("struggle", "4", 1, {{}}); app.processEvents()
w.view.viewport().repaint(); app.processEvents()
print(time.perf_counter() - t0)
"""


def timed_process(code: str, home: Path) -> float:
    """Wall time of a whole process, interpreter start included."""
    env = dict(os.environ, STRUGGLE_DESKTOP_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                   check=True)
    return time.perf_counter() - start


def startup(repeats: int, home: Path) -> None:
    bare = [timed_process(BARE_WINDOW, home) for _ in range(repeats)]
    ours = [timed_process(PROGRAM_WINDOW.format(root=str(ROOT)), home) for _ in range(repeats)]
    b, o = statistics.median(bare), statistics.median(ours)
    print(f"start-up (process start to interactive window, median of {repeats}):")
    print(f"  bare QMainWindow      {b * 1000:7.0f} ms")
    print(f"  struggle, scenario 4  {o * 1000:7.0f} ms   ratio {o / b:.2f}  (budget <= 1.0 s, <= 2x)")


def busy_window():
    """The window on a scenario-4 game a few turns in (the busiest position we play)."""
    from struggle_desktop.ui.app import make_application
    from struggle_desktop.ui.main_window import MainWindow

    app = make_application()
    window = MainWindow()
    window.set_speed("instant")
    window.show()
    window.new_game("struggle", "4", 3, {"all": "on"})
    window.document.watch = False
    for _ in range(80):
        action = window.document.hint()
        if action is None:
            break
        window.document.perform(action)
    app.processEvents()
    return app, window


def repaint(window, app, repeats: int) -> None:
    from PySide6.QtGui import QImage, QPainter

    window.resize(1600, 1000)
    view = window.view
    view.resize(1600, 1000)
    view.zoom_reset()
    app.processEvents()
    image = QImage(1600, 1000, QImage.Format.Format_ARGB32_Premultiplied)

    def median_render() -> float:
        times = []
        for _ in range(max(repeats * 10, 30)):
            painter = QPainter(image)
            start = time.perf_counter()
            view.render(painter)
            times.append(time.perf_counter() - start)
            painter.end()
        return statistics.median(times) * 1000

    cached = median_render()
    # The scene keeps device-pixel pictures of the map and counters; after a zoom change (or on
    # the first paint) everything is drawn from vectors again: that is the worst case.
    window.scene.set_item_caching(False)
    uncached = median_render()
    window.scene.set_item_caching(True)
    print(f"full repaint of a 1600x1000 map view: median {cached:.1f} ms with the item pictures "
          f"cached, {uncached:.1f} ms drawing every item from vectors (budget <= 16 ms)")


def drag_step(window, app) -> None:
    from PySide6.QtCore import QPoint, Qt
    from PySide6.QtTest import QTest

    view, scene = window.view, window.scene
    board = window.document.board
    movable = next((pid for pid, p in board["pieces"].items() if p["kind"] == "unit"
                    and p["side"] == "imp"), None)
    item = scene.piece_item(movable) if movable else None
    if item is None:
        print("drag step: no Imperial counter to drag")
        return
    window.toggle_free_placement(True)   # every sector is a target: the worst case
    start_point = view.mapFromScene(item.sceneBoundingRect().center())
    QTest.mousePress(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier,
                     start_point)
    times = []
    for k in range(60):
        target = start_point + QPoint(3 * k % 200, 2 * k % 150)
        start = time.perf_counter()
        QTest.mouseMove(view.viewport(), target)
        app.processEvents()
        times.append(time.perf_counter() - start)
    QTest.mouseRelease(view.viewport(), Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier, start_point)
    window.toggle_free_placement(False)
    print(f"drag step (mouse move while dragging, repaint included): median "
          f"{statistics.median(times) * 1000:.2f} ms (budget <= 2 ms)")


def memory() -> None:
    rss = None
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) / 1024
    print(f"resident memory with a game loaded: {rss:.0f} MB (budget <= 250 MB)")


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    import tempfile
    with tempfile.TemporaryDirectory() as home:
        os.environ["STRUGGLE_DESKTOP_HOME"] = home
        startup(args.repeats, Path(home))
        app, window = busy_window()
        repaint(window, app, args.repeats)
        drag_step(window, app)
        memory()
        window.document.dirty = False
        window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
