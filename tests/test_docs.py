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


def readme_commands() -> list[str]:
    """The commands of the README's first code block: the two a newcomer needs."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line and not line.startswith("#")]


def test_ci_runs_the_readme_test_command():
    """CI runs exactly the README's second command (after installing system packages), so a
    README that does not work on a fresh machine turns CI red."""
    install_and_play, install_and_test = readme_commands()
    assert "play --game" in install_and_play and "pytest" in install_and_test
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().splitlines()
    assert ci[-1] == install_and_test
    # Both make the virtual environment they use: the distribution's Python refuses to install
    # into itself (PEP 668).
    for command in (install_and_play, install_and_test):
        assert command.startswith("python3 -m venv .venv && .venv/bin/python -m pip install ")
