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

from PySide6.QtCore import QByteArray, Qt, QUrl
from PySide6.QtGui import QImage, QTextDocument, QTextImageFormat
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


class FittingBrowser(QTextBrowser):
    """A text browser whose pictures are never wider than its page: each is drawn at its own
    width or, when the page is narrower, scaled down to the page (its height in proportion),
    again whenever the page changes width. The guide's screenshots are 1366 px wide and the
    page much less, so at their own size they needed a horizontal scroll bar."""

    #: Room left beside a picture for the document's margin.
    MARGIN = 12

    def setMarkdown(self, text: str) -> None:   # noqa: N802 - Qt's name
        super().setMarkdown(text)
        self.fit_pictures()

    def resizeEvent(self, event) -> None:        # noqa: N802 - Qt's name
        super().resizeEvent(event)
        self.fit_pictures()

    def picture_size(self, name: str) -> tuple[int, int] | None:
        """A picture's own size in pixels (None: it cannot be read), read once per name."""
        sizes = self.__dict__.setdefault("_sizes", {})
        if name not in sizes:
            data = self.loadResource(QTextDocument.ResourceType.ImageResource.value, QUrl(name))
            image = data if isinstance(data, QImage) else QImage.fromData(data) \
                if isinstance(data, (QByteArray, bytes)) else QImage()
            sizes[name] = None if image.isNull() else (image.width(), image.height())
        return sizes[name]

    def fit_pictures(self) -> None:
        room = max(50, self.viewport().width() - 2 * int(self.document().documentMargin())
                   - self.MARGIN)
        block = self.document().begin()
        while block.isValid():
            it = block.begin()
            while not it.atEnd():
                fragment = it.fragment()
                form = fragment.charFormat()
                if fragment.isValid() and form.isImageFormat():
                    self._fit(block, fragment, form.toImageFormat(), room)
                it += 1
            block = block.next()

    def _fit(self, block, fragment, image: QTextImageFormat, room: int) -> None:
        natural = self.picture_size(image.name())
        if natural is None:
            return
        width, height = natural
        scale = min(1.0, room / width)
        want = (round(width * scale), round(height * scale))
        if (round(image.width()), round(image.height())) == want:
            return
        image.setWidth(want[0])
        image.setHeight(want[1])
        cursor = self.textCursor()
        cursor.setPosition(fragment.position())
        cursor.setPosition(fragment.position() + fragment.length(),
                           cursor.MoveMode.KeepAnchor)
        cursor.setCharFormat(image)


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
        self.page = FittingBrowser()
        self.page.setObjectName("guide-page")
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
