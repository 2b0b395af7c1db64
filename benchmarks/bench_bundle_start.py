#!/usr/bin/env python3
"""First start of the self-contained bundle against the installed package, in a real window.

    python benchmarks/bench_bundle_start.py [--bundle DIR] [--repeats 5]

Both programs are started the way a player starts them, ``struggle-desktop play --game struggle
--scenario 4 --seed 1``, on a virtual screen (Xvfb, 1366x768), with a fresh home folder each:

* the installed package: the ``struggle-desktop`` script that ``pip install .`` wrote;
* the bundle: DIR/struggle-desktop (default: build one with ``packaging/build.py`` into a
  temporary folder first).

"Start to an interactive window" is measured from the process start to the moment the window's
event loop runs its first queued instruction, with the game loaded and shown: the autopilot's
``texts=FILE`` writes FILE then, and the benchmark takes the file's time, less the autopilot's
fixed 300 ms wait. A **cold** start has an empty user cache (the first start after installing);
a **warm** one finds the checked data that an earlier start kept. Medians of ``--repeats``.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
AUTOPILOT_WAIT = 0.3      # ui/app.py starts the autopilot 300 ms after the window is shown
PLAY = ["play", "--game", "struggle", "--scenario", "4", "--seed", "1"]


def start_screen() -> tuple[subprocess.Popen, str]:
    for number in range(170, 200):
        if not Path(f"/tmp/.X11-unix/X{number}").exists():
            break
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", "1366x768x24", "-nolisten",
                               "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while not Path(f"/tmp/.X11-unix/X{number}").exists():
        time.sleep(0.02)
    return server, f":{number}"


def time_to_window(program: list[str], home: Path, display: str) -> float:
    """Seconds from the process start to the first instruction the running window handles."""
    ready = home / "ready.json"
    env = {"HOME": str(home), "PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8",
           "DISPLAY": display, "STRUGGLE_DESKTOP_AUTOPILOT": f"texts={ready};quit"}
    start = time.time()
    subprocess.run([*program, *PLAY], env=env, cwd=home, check=True, capture_output=True,
                   timeout=120)
    return ready.stat().st_mtime - start - AUTOPILOT_WAIT


def measure(name: str, program: list[str], repeats: int, display: str) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        colds = []
        for k in range(repeats):
            home = Path(scratch) / f"cold{k}"
            home.mkdir()
            colds.append(time_to_window(program, home, display))
        warm_home = Path(scratch) / "warm"
        warm_home.mkdir()
        time_to_window(program, warm_home, display)            # fills the cache
        warms = [time_to_window(program, warm_home, display) for _ in range(repeats)]
    print(f"{name:>18}: cold {statistics.median(colds):.2f} s, warm "
          f"{statistics.median(warms):.2f} s (medians of {repeats})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bundle", type=Path, default=None,
                        help="a built bundle folder (default: build one)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    # The script pip wrote beside this Python, not a version manager's shim in front of it.
    installed = Path(sysconfig.get_path("scripts")) / "struggle-desktop"
    if not installed.is_file():
        print("error: install the package first (python3 -m pip install .)", file=sys.stderr)
        return 2
    server, display = start_screen()
    try:
        with tempfile.TemporaryDirectory() as built:
            bundle = args.bundle
            if bundle is None:
                subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--dist",
                                built, "--work", str(Path(built) / "work")], check=True,
                               capture_output=True)
                bundle = Path(built) / "struggle-desktop"
            size = sum(p.stat().st_size for p in bundle.rglob("*")
                       if p.is_file() and not p.is_symlink())
            print(f"bundle: {size / 2**20:.0f} MiB in {sum(1 for _ in bundle.rglob('*'))} files")
            measure("installed package", [str(installed)], args.repeats, display)
            measure("bundle", [str(bundle / "struggle-desktop")], args.repeats, display)
    finally:
        server.terminate()
        server.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
