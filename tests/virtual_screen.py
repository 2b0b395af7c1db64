"""A virtual X screen (Xvfb) for the tests that run the real program in a real window."""

from __future__ import annotations

import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator


@contextmanager
def virtual_screen(size: str, first_number: int) -> Iterator[str]:
    """Start Xvfb with one screen of ``size`` ("1366x768") on the first free display number
    from ``first_number`` on, and yield its DISPLAY value (":93"); the server stops after."""
    for number in range(first_number, first_number + 40):
        if not Path(f"/tmp/.X11-unix/X{number}").exists() and not Path(f"/tmp/.X{number}-lock").exists():
            break
    server = subprocess.Popen(["Xvfb", f":{number}", "-screen", "0", f"{size}x24", "-nolisten",
                               "tcp"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if Path(f"/tmp/.X11-unix/X{number}").exists():
                break
            time.sleep(0.05)
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(timeout=10)
