"""The bundles' entry point: the same program as the ``struggle-desktop`` command.

PyInstaller freezes this file into the bundle's executable. ``freeze_support`` lets the worker
processes of ``simulate --jobs J`` start from the frozen executable on the platforms that spawn
them (Windows, macOS); on Linux it does nothing.
"""

import multiprocessing
import os
import sys

from struggle_desktop.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()
    # Windows starts a windowed executable with no standard streams at all; the program's
    # one-line messages then go nowhere instead of failing.
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))
    sys.exit(main())
