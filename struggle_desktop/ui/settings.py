"""The window's own settings (dock layout, recent files, watch speed, crash flag), and whether
the user's folders can be written at all.

Stored as an INI file in the user's config folder (``engine.paths.user_config_dir``), so that
``STRUGGLE_DESKTOP_HOME`` moves them too: tests and portable installs never touch the real
user's settings.

A home that cannot be written (read-only, ``HOME=/nonexistent``, a full disk) must not stop the
window: the settings then live in memory for this run (``QSettings`` keeps what it is given and
only fails, quietly, to write it), and ``unwritable_folders`` says which of the user's folders
(settings, autosaves, cache) will not keep anything, for the window to tell the player once.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from PySide6.QtCore import QSettings

from struggle_desktop.engine.paths import user_cache_dir, user_config_dir, user_data_dir

#: The user's folders the window writes, and what is lost when one cannot be written.
USER_FOLDERS = (
    ("settings", user_config_dir, "the window's layout and recent files are kept only until "
                                  "the program ends"),
    ("autosave", user_data_dir, "games are not autosaved, so one that is not saved is lost "
                                "if the program ends abruptly"),
    ("cache", user_cache_dir, "the game tables are checked anew at each start (slower)"),
)


def app_settings() -> QSettings:
    """The settings file, or settings in memory for this run when its folder cannot be made
    (they are read from the file if one is there, never written)."""
    folder = user_config_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass        # in memory: unwritable_folders() tells the window so
    return QSettings(str(folder / "desktop.ini"), QSettings.Format.IniFormat)


def writable(folder: Path) -> str | None:
    """None if ``folder`` can be made and a file written in it, else why not (a short reason)."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except (OSError, ValueError) as exc:     # ValueError: a path with a NUL in it
        return getattr(exc, "strerror", None) or type(exc).__name__
    return None


def unwritable_folders() -> list[tuple[str, Path, str, str]]:
    """The user's folders that cannot be written: (what, folder, why, what is lost), in the
    order of ``USER_FOLDERS``."""
    found = []
    for what, where, lost in USER_FOLDERS:
        folder = where()
        why = writable(folder)
        if why is not None:
            found.append((what, folder, why, lost))
    return found
