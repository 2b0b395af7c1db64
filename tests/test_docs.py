"""The generated part of the house-rules page matches the shipped tables and rule list."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_house_rules_page_is_up_to_date():
    """The house-rules page lists every reconstructed table and decided rule; regenerate with
    `python tools/make_house_rules.py` when a table changes."""
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "make_house_rules.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, "docs/house-rules.md is stale: run tools/make_house_rules.py"
