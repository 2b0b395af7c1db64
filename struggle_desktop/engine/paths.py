"""Where the program's data and the user's files live.

Data folders (``assets/``, ``scenarios/``, and the player's guide in ``docs/``) sit at the top
of a source checkout; an installed wheel carries them as ``struggle_desktop/_data/``. User folders come from platformdirs.
"""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

import platformdirs

APP_NAME = "struggle_desktop"

_PACKAGE_DIR = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def data_root() -> Path:
    """The folder that holds ``assets/`` and ``scenarios/``."""
    installed = _PACKAGE_DIR / "_data"
    if (installed / "assets").is_dir():
        return installed
    checkout = _PACKAGE_DIR.parent
    if (checkout / "assets").is_dir():
        return checkout
    raise FileNotFoundError(
        f"cannot find the program's data folders (looked in {installed} and {checkout})"
    )


def assets_dir() -> Path:
    return data_root() / "assets"


def scenarios_dir() -> Path:
    return data_root() / "scenarios"


def docs_dir() -> Path:
    """The player's guide (``playing.md``) and its screenshots."""
    return data_root() / "docs"


def user_config_dir() -> Path:
    """Per-user settings and table overrides. STRUGGLE_DESKTOP_HOME redirects every user folder
    (tests and portable installs use it)."""
    home = os.environ.get("STRUGGLE_DESKTOP_HOME")
    if home:
        return Path(home) / "config"
    return Path(platformdirs.user_config_dir(APP_NAME))


def user_data_dir() -> Path:
    """Autosaves and other files the program writes for the user."""
    home = os.environ.get("STRUGGLE_DESKTOP_HOME")
    if home:
        return Path(home) / "data"
    return Path(platformdirs.user_data_dir(APP_NAME))


def user_cache_dir() -> Path:
    """Rebuildable files (checked data); safe to delete at any time."""
    home = os.environ.get("STRUGGLE_DESKTOP_HOME")
    if home:
        return Path(home) / "cache"
    return Path(platformdirs.user_cache_dir(APP_NAME))
