"""Help → How to Play (F1): the player's guide, ``docs/playing.md``, inside the window.

The guide is one Markdown file with its screenshots beside it (a source checkout's ``docs/``,
an installed wheel's ``_data/docs/``). The dialog lists its ``##`` sections on the left and
opens at the section of the game on screen; a last section, "Controls of this window", is
made from the window itself: the mouse's controls and every command with its keys, so it can
never disagree with the menus.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QDialogButtonBox, QHBoxLayout, QListWidget, QTextBrowser,
                               QVBoxLayout, QWidget)

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.errors import StruggleError, one_line
from struggle_desktop.engine.paths import docs_dir
from struggle_desktop.ui.fit import resize_to_fit

GUIDE_NAME = "playing.md"
CONTROLS_TITLE = "Controls of this window"

#: The mouse on every map, in the player's words (the window may add its own).
MAP_CONTROLS = [
    ("Drag a counter", "move or place it; the sectors it may go to light up"),
    ("Click a sector or hex", "answer the question there, or show what is there"),
    ("Mouse wheel", "zoom in and out around the pointer"),
    ("Drag the empty map", "pan; Space also ends the current step while the map has focus"),
    ("Hover", "what is under the pointer, in the status bar and a small pop-up"),
]


#: The guide is a few dozen kilobytes; anything much larger is not the guide.
GUIDE_LIMIT = 1024 * 1024


def guide_path() -> Path:
    return docs_dir() / GUIDE_NAME


def read_guide() -> str:
    """The guide's text, read like every file the program reads (engine/untrusted.py):
    a regular file, of a sane size."""
    return untrusted.read_bytes(guide_path(), GUIDE_LIMIT, what="guide").decode("utf-8")


def sections(text: str) -> list[tuple[str, str]]:
    """The guide cut at its ``## `` headings: (title, Markdown) pairs; what comes before the
    first heading is the introduction.

    >>> [title for title, _ in sections("Intro\\n## One\\nx\\n## Two\\ny\\n")]
    ['Introduction', 'One', 'Two']
    """
    parts: list[tuple[str, str]] = []
    title, lines = "Introduction", []
    for line in text.splitlines():
        match = re.match(r"^## (.+)$", line)
        if match:
            if any(s.strip() for s in lines):
                parts.append((title, "\n".join(lines)))
            title, lines = match.group(1).strip(), [line]
        else:
            lines.append(line)
    if any(s.strip() for s in lines):
        parts.append((title, "\n".join(lines)))
    return parts


def controls_markdown(rows: list[tuple[str, str]], mouse: list[tuple[str, str]]) -> str:
    """The window's own controls as a Markdown section."""
    out = [f"## {CONTROLS_TITLE}", "", "**The mouse**", ""]
    out += [f"- **{what}**: {does}" for what, does in mouse]
    out += ["", "**Commands and their keys**", "", "| command | keys |", "|---|---|"]
    out += [f"| {html.escape(name)} | {keys or '—'} |" for name, keys in rows]
    return "\n".join(out)


class GuideDialog(QDialog):
    """The guide, a section at a time, opened at ``start`` (a section title, matched loosely)."""

    def __init__(self, parent: QWidget | None = None, start: str = "",
                 controls: str = ""):
        super().__init__(parent)
        self.setWindowTitle("How to Play")
        self.setObjectName("guide-dialog")
        try:
            text = read_guide()
        except (StruggleError, UnicodeDecodeError) as exc:
            text = f"## The guide cannot be shown\n\n{one_line(str(exc))}"
        self.parts = sections(text) + ([(CONTROLS_TITLE, controls)] if controls else [])
        self.index = QListWidget()
        self.index.addItems([title for title, _ in self.parts])
        # As wide as the longest title (within reason), so no title is cut.
        self.index.setFixedWidth(min(380, self.index.sizeHintForColumn(0)
                                     + 2 * self.index.frameWidth() + 12))
        self.page = QTextBrowser()
        self.page.setOpenExternalLinks(True)
        self.page.setSearchPaths([str(guide_path().parent)])
        self.index.currentRowChanged.connect(self.show_part)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(self.index)
        row.addWidget(self.page, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row, 1)
        layout.addWidget(buttons)
        resize_to_fit(self, 1000, 760)
        self.index.setCurrentRow(self.find(start))

    def find(self, start: str) -> int:
        words = start.lower().split()
        for row, (title, _) in enumerate(self.parts):
            if words and all(w in title.lower() for w in words):
                return row
        return 0

    def show_part(self, row: int) -> None:
        if 0 <= row < len(self.parts):
            self.page.setMarkdown(self.parts[row][1])
            self.page.verticalScrollBar().setValue(0)

    def section_titles(self) -> list[str]:
        return [title for title, _ in self.parts]

    def keyPressEvent(self, event) -> None:   # noqa: N802 - Qt's name
        if event.key() == Qt.Key.Key_F1:
            self.reject()
            return
        super().keyPressEvent(event)
