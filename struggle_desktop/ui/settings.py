"""The window's own settings (dock layout, recent files, watch speed, crash flag).

Stored as an INI file in the user's config folder (``engine.paths.user_config_dir``), so that
``STRUGGLE_DESKTOP_HOME`` moves them too: tests and portable installs never touch the real
user's settings.
"""

from __future__ import annotations

from PySide6.QtCore import QSettings

from struggle_desktop.engine.paths import user_config_dir


def app_settings() -> QSettings:
    folder = user_config_dir()
    folder.mkdir(parents=True, exist_ok=True)
    return QSettings(str(folder / "desktop.ini"), QSettings.Format.IniFormat)
