"""The Eliminated box: every counter eliminated so far, newest first, as the cardboard game's
box beside the map holds them.

The rows come from the log (entries of kind ``eliminate``, which name the counter and its
sector in their references), so the box needs nothing the log does not already say; a click on
a row centres the map on the sector where the counter fell (``sector_activated``).
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QListWidget, QListWidgetItem, QWidget

from struggle_desktop.ui.docks.base import DockPanel

#: Log entry kinds that put a counter in the box.
ELIMINATION_KINDS = ("eliminate",)


def eliminations(entries: list[dict]) -> list[dict]:
    """The log's eliminations, newest first: turn, counter, sector (or None) and the text.

    >>> eliminations([{"kind": "eliminate", "turn": 2, "refs": ["SF-03", "sector:17"],
    ...                "text": "SF-03 eliminated in 17: combat"}])[0]["sector"]
    17
    """
    rows = []
    for entry in entries:
        if entry.get("kind") not in ELIMINATION_KINDS:
            continue
        refs = [str(r) for r in entry.get("refs") or ()]
        sectors = [r.split(":", 1)[1] for r in refs if r.startswith("sector:")]
        pieces = [r for r in refs if ":" not in r]
        rows.append({"turn": entry.get("turn"), "piece": pieces[0] if pieces else "",
                     "sector": int(sectors[0]) if sectors and sectors[0].isdigit() else None,
                     "text": entry.get("text", "")})
    rows.reverse()
    return rows


class EliminatedDock(DockPanel):
    object_name = "dock-eliminated"
    title = "Eliminated"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    #: The player chose a row: centre the map on this sector.
    sector_activated = Signal(int)

    def create_widget(self) -> QWidget:
        box, layout = self.column()
        self.heading = self.wrapped_label()
        self.list = QListWidget()
        self.list.setAlternatingRowColors(True)
        self.list.setWordWrap(True)            # each row whole: the box is narrow
        self.list.itemActivated.connect(self._activated)
        self.list.itemClicked.connect(self._activated)
        layout.addWidget(self.heading)
        layout.addWidget(self.list, 1)
        return box

    def update_widget(self) -> None:
        rows = eliminations(self.document.log_entries(0)) if self.document.session else []
        self.list.clear()
        self.heading.setText(f"{len(rows)} counters eliminated so far" if rows
                             else "No counter has been eliminated yet.")
        for row in rows:
            item = QListWidgetItem(f"Turn {row['turn']}: {row['text']}")
            item.setData(Qt.ItemDataRole.UserRole, row["sector"])
            item.setToolTip(row["text"])
            self.list.addItem(item)

    def _activated(self, item: QListWidgetItem) -> None:
        sector = item.data(Qt.ItemDataRole.UserRole)
        if sector is not None:
            self.sector_activated.emit(int(sector))
