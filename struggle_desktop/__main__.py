"""``python -m struggle_desktop`` is the same program as ``struggle-desktop``."""

import sys

from struggle_desktop.cli import main

sys.exit(main())
