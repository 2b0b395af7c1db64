"""The decision panel: what the game is waiting for, and every answer the rules allow.

The map handles the answers that are "this piece to that sector" (drag a counter, click a
sector); this panel lists all legal answers in words, so every prompt — including the ones
inside events (Leviathan, Crusade, Alliance...) — can be answered with the mouse or the
keyboard alone. A filter box narrows long lists (movement offers hundreds of moves). A new
question clears the filter (a filter typed for the last one would hide this one's answers), and
a filter that hides every answer says so, with a link that clears it.
"""

from __future__ import annotations

import json

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QLineEdit, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.base import DockPanel

def action_key(action: dict) -> str:
    """An action's identity in the list: its canonical JSON."""
    return json.dumps(action, sort_keys=True)


#: Verbs shown first: the ones that end a step or answer yes/no.
PROMINENT_VERBS = ("done", "auto_place", "pay")


class DecisionDock(DockPanel):
    object_name = "dock-decision"
    title = "Decision"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    #: The player picked this action in the list (the window performs it).
    action_chosen = Signal(dict)
    #: The player asked for the program's suggestion.
    hint_requested = Signal()

    def create_widget(self) -> QWidget:
        self._question: tuple | None = None    # the prompt the list shows answers to
        self._asked: tuple | None = None       # its kind and role: the same question again?
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.prompt_label.font()
        font.setBold(True)
        self.prompt_label.setFont(font)
        self.rule_label = QLabel()
        self.rule_label.setStyleSheet("color: gray")
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the choices (a number, a unit, a place or a chit)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.hidden_note = QLabel()
        self.hidden_note.setWordWrap(True)
        self.hidden_note.setStyleSheet("color: #a05a00")
        self.hidden_note.linkActivated.connect(lambda _link: self.filter.clear())
        self.hidden_note.hide()
        self.choices = QListWidget()
        self.choices.setAlternatingRowColors(True)
        # Several answers in view even when the panel shares a laptop screen's column.
        self.choices.setMinimumHeight(self.choices.fontMetrics().height() * 5)
        self.choices.itemActivated.connect(self._activated)
        self.do_button = QPushButton("&Do it")
        self.do_button.clicked.connect(self._do_selected)
        self.hint_button = QPushButton("&Hint")
        self.hint_button.setToolTip("Select what the program's own player would choose here")
        self.hint_button.clicked.connect(self.hint_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint_button)
        buttons.addStretch(1)
        buttons.addWidget(self.do_button)
        layout.addWidget(self.prompt_label)
        layout.addWidget(self.rule_label)
        layout.addWidget(self.filter)
        layout.addWidget(self.hidden_note)
        layout.addWidget(self.choices, 1)
        layout.addLayout(buttons)
        return box

    def update_widget(self) -> None:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if prompt is None:
            self.choices.clear()
            self._asked = None
        if board is None:
            self.prompt_label.setText("No game is open.")
            self.rule_label.clear()
        elif board.get("outcome"):
            outcome = board["outcome"]
            self.prompt_label.setText(f"The game is over: {outcome.get('result', '')}. "
                                      f"{outcome.get('text', '')}".strip())
            self.rule_label.clear()
        elif prompt is None:
            self.prompt_label.setText("The program is playing…")
            self.rule_label.clear()
        else:
            question = (prompt.get("kind"), prompt.get("role"), prompt["text"])
            if question != self._question:
                self._question = question
                self.filter.blockSignals(True)     # the list is filled below
                self.filter.clear()
                self.filter.blockSignals(False)
            self.prompt_label.setText(prompt["text"])
            self.rule_label.setText(f"Rule {prompt['rule']}" if prompt.get("rule") else "")
            ordered = sorted(prompt["actions"], key=lambda a: (
                a["action"]["verb"] not in PROMINENT_VERBS, a["map"]))
            asked = (prompt.get("kind"), prompt.get("role"))
            self._fill(ordered, keep_rows=asked == self._asked)
            self._asked = asked
        self._apply_filter(self.filter.text())
        enabled = any(self.choices.item(r).flags() & Qt.ItemFlag.ItemIsEnabled
                      for r in range(self.choices.count()))
        self.do_button.setEnabled(enabled)
        self.hint_button.setEnabled(enabled)

    def _fill(self, entries: list[dict], keep_rows: bool) -> None:
        """List ``entries``. The same question asked again (another purchase, another move)
        keeps its rows in place: an answer no longer possible stays one turn, greyed out,
        where it was, so the rows never slide under the pointer and a second double-click
        never gives another answer than the one under it; new answers go at the end."""
        if not keep_rows:
            self.choices.clear()
            for entry in entries:
                self.choices.addItem(self._dress(QListWidgetItem(), entry))
            return
        by_key = {action_key(e["action"]): e for e in entries}
        current = self.choices.currentItem()
        for row in reversed(range(self.choices.count())):
            item = self.choices.item(row)
            entry = by_key.pop(action_key(item.data(Qt.ItemDataRole.UserRole)), None)
            if entry is not None:
                self._dress(item, entry)
            elif item.flags() & Qt.ItemFlag.ItemIsEnabled:
                item.setFlags(Qt.ItemFlag.NoItemFlags)        # gone: greyed, for one turn
                item.setToolTip("No longer possible")
                if item is current:
                    self.choices.setCurrentItem(None)
            else:
                self.choices.takeItem(row)                    # gone a turn ago: removed
        for entry in by_key.values():
            self.choices.addItem(self._dress(QListWidgetItem(), entry))

    @staticmethod
    def _dress(item: QListWidgetItem, entry: dict) -> QListWidgetItem:
        item.setText(entry["label"])
        item.setData(Qt.ItemDataRole.UserRole, entry["action"])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        tip = entry.get("tip") or ""
        if entry["map"]:
            tip = f"{tip}\n\nYou can also do this on the map" if tip else (
                "You can also do this on the map")
        item.setToolTip(tip or entry["label"])
        return item

    # ------------------------------------------------------------------ helpers
    def _apply_filter(self, text: str) -> None:
        words = text.lower().split()
        shown = 0
        for row in range(self.choices.count()):
            item = self.choices.item(row)
            label = item.text().lower()
            item.setHidden(not all(w in label for w in words))
            shown += not item.isHidden()
        total = self.choices.count()
        if words and shown == 0 and total:
            self.hidden_note.setText(f"0 of {total} shown: no answer matches the filter. "
                                     "<a href='clear'>Clear the filter</a>")
            self.hidden_note.show()
        else:
            self.hidden_note.hide()

    def _activated(self, item: QListWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.action_chosen.emit(item.data(Qt.ItemDataRole.UserRole))

    def _do_selected(self) -> None:
        item = self.choices.currentItem()
        usable = Qt.ItemFlag.ItemIsEnabled
        if item is None or item.isHidden() or not item.flags() & usable:
            visible = [self.choices.item(r) for r in range(self.choices.count())
                       if not self.choices.item(r).isHidden()
                       and self.choices.item(r).flags() & usable]
            if len(visible) != 1:
                self.document.message.emit("Pick one of the choices first")
                return
            item = visible[0]
        self.action_chosen.emit(item.data(Qt.ItemDataRole.UserRole))

    def select_action(self, action: dict) -> bool:
        """Select the row of ``action`` (used by Hint); False if it is not listed."""
        self.ensure_widget()
        self.filter.clear()
        for row in range(self.choices.count()):
            item = self.choices.item(row)
            if item.data(Qt.ItemDataRole.UserRole) == action:
                self.choices.setCurrentItem(item)
                self.choices.scrollToItem(item)
                return True
        return False
