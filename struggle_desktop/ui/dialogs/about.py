"""About: the program, its version, the games it plays and the licences of what it ships."""

from __future__ import annotations

import html
import platform

import PySide6
from PySide6.QtCore import qVersion
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QLabel, QTextBrowser, QVBoxLayout,
                               QWidget)

from struggle_desktop import __version__
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games import ALL_GAME_IDS, REGISTRY
from struggle_desktop.ui.screens import has_screen
from struggle_desktop.ui.dialogs import heading, muted
from struggle_desktop.ui.dialogs.new_game import GAME_TITLES
from struggle_desktop.ui.fit import resize_to_fit

PROGRAM = "Struggle Desktop"
FONT_LICENCE = "fonts/DejaVu-LICENSE.txt"


def program_version() -> str:
    """The program's version: written once, in ``struggle_desktop/__init__.py``, which the
    package's metadata, ``--version`` and this box all read."""
    return __version__


def game_status(game_id: str) -> str:
    if has_screen(game_id):
        return "playable"
    if game_id in REGISTRY:
        return "on the command line only (simulate, catalog, verify) for now"
    return "coming later"


def about_html() -> str:
    games = "".join(f"<li>{html.escape(GAME_TITLES.get(g, g))} — {game_status(g)}</li>"
                    for g in ALL_GAME_IDS)
    licence = assets_dir() / FONT_LICENCE
    licence_note = (f" The full text is in <code>{html.escape(str(licence))}</code>."
                    if licence.is_file() else "")
    return (
        "<p>Play science-fiction board wargames on your own computer, offline. In Struggle "
        "for the Galactic Empire you lead the Empire and the program plays the forces of "
        "Chaos.</p>"
        f"<p><b>Games</b></p><ul>{games}</ul>"
        "<p><b>Licences</b></p><ul>"
        "<li>The program: MIT licence.</li>"
        "<li>DejaVu Sans fonts: the Bitstream Vera licence with public-domain DejaVu changes; "
        f"free to use and redistribute.{licence_note}</li>"
        "<li>Qt and PySide6: LGPL v3.</li></ul>"
        "<p>The rules are implemented from the project's own rule list; where the rules are "
        "silent the program's decisions are listed under Help › House rules.</p>")


class AboutDialog(QDialog):
    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWindowTitle(f"About {PROGRAM}")
        self.setObjectName("about-dialog")
        layout = QVBoxLayout(self)
        layout.addWidget(heading(PROGRAM, scale=1.6))
        self.version_label = QLabel(f"Version {program_version()}")
        layout.addWidget(self.version_label)
        layout.addWidget(muted(f"PySide6 {PySide6.__version__}, Qt {qVersion()}, "
                               f"Python {platform.python_version()}"))
        self.text = QTextBrowser()
        self.text.setOpenExternalLinks(True)
        self.text.setHtml(about_html())
        layout.addWidget(self.text, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        resize_to_fit(self, 540, 500)
