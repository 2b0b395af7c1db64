"""The decision panel: what the game is waiting for, and every answer the rules allow.

The map handles the answers that are "this piece to that sector" (drag a counter, click a
sector); this panel lists all legal answers in words, so every prompt — including the ones
inside events (Leviathan, Crusade, Alliance...) — can be answered with the mouse or the
keyboard alone. A filter box narrows long lists (movement offers hundreds of moves). A new
question clears the filter (a filter typed for the last one would hide this one's answers), and
a filter that hides every answer says so, with a link that clears it.

The panel holds still under the hand: the question has a place of fixed height (a longer one
scrolls in it), and Hint and Do it sit right under it, so no question, answer or note ever
moves them and they are in view however short the panel. A long answer wraps (its row grows)
and its tooltip holds all of it. The list shows the answers of the question asked now; an
answer gone with the last one stays greyed in its row only while the pointer is over the list
(see ``_fill``).
"""

from __future__ import annotations

import json

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (QFrame, QHBoxLayout, QLabel, QLineEdit, QListView, QListWidget,
                               QListWidgetItem, QPushButton, QScrollArea, QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.base import DockPanel

def action_key(action: dict) -> str:
    """An action's identity in the list: its canonical JSON."""
    return json.dumps(action, sort_keys=True)


#: Verbs shown first: the ones that end a step or answer yes/no.
PROMINENT_VERBS = ("done", "auto_place", "pay")
#: The question's place holds this many lines (a longer question scrolls in it).
QUESTION_LINES = 4


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
        self._from_list = False                # the last answer was given in the list itself
        box = QWidget()
        layout = QVBoxLayout(box)
        layout.setContentsMargins(6, 6, 6, 6)
        self.prompt_label = QLabel()
        self.prompt_label.setWordWrap(True)
        self.prompt_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = self.prompt_label.font()
        font.setBold(True)
        self.prompt_label.setFont(font)
        self.prompt_label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        # The question's place is of fixed height: a longer or shorter question must not
        # move the buttons under it.
        self.question_box = QScrollArea()
        self.question_box.setObjectName("decision-question")
        self.question_box.setWidgetResizable(True)
        self.question_box.setFrameShape(QFrame.Shape.NoFrame)
        self.question_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.question_box.setWidget(self.prompt_label)
        self.question_box.setFixedHeight(self.prompt_label.fontMetrics().lineSpacing()
                                         * QUESTION_LINES + 4)
        self.rule_label = QLabel()
        self.rule_label.setStyleSheet("color: gray")
        self.rule_label.setFixedHeight(self.rule_label.fontMetrics().height())
        self.filter = QLineEdit()
        self.filter.setPlaceholderText("Filter the choices (a number, a unit, a place or a chit)")
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._apply_filter)
        self.choices = QListWidget()
        self.choices.setObjectName("decision-choices")
        self.choices.setAlternatingRowColors(True)
        # A long answer wraps onto more lines (its row grows) instead of running off the
        # side; its tooltip holds it all too.
        self.choices.setWordWrap(True)
        self.choices.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.choices.setResizeMode(QListView.ResizeMode.Adjust)
        self.choices.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._pointer_watch = _PointerWatch(self.choices.viewport(), self._drop_gone_rows)
        # Said in the emptied list itself: a note above or below it would move the rest.
        self.hidden_note = QLabel(self.choices.viewport())
        self.hidden_note.setWordWrap(True)
        self.hidden_note.setStyleSheet("color: #a05a00")
        self.hidden_note.linkActivated.connect(lambda _link: self.filter.clear())
        self.hidden_note.hide()
        # Several answers in view even when the panel shares a laptop screen's column.
        self.choices.setMinimumHeight(self.choices.fontMetrics().height() * 5)
        self.choices.itemActivated.connect(self._activated)
        self.do_button = QPushButton("&Do it")
        self.do_button.setObjectName("decision-do-it")     # (a guide's step points at it)
        self.do_button.clicked.connect(self._do_selected)
        self.hint_button = QPushButton("&Hint")
        self.hint_button.setObjectName("decision-hint")
        self.hint_button.setToolTip("Select what the program's own player would choose here")
        self.hint_button.clicked.connect(self.hint_requested)
        buttons = QHBoxLayout()
        buttons.addWidget(self.hint_button)
        buttons.addStretch(1)
        buttons.addWidget(self.do_button)
        layout.addWidget(self.question_box)
        layout.addWidget(self.rule_label)
        layout.addLayout(buttons)
        layout.addWidget(self.filter)
        layout.addWidget(self.choices, 1)
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
            self._fill(ordered, keep_rows=asked == self._asked and self._from_list)
            self._asked = asked
        self._from_list = False
        self._apply_filter(self.filter.text())
        enabled = any(self.choices.item(r).flags() & Qt.ItemFlag.ItemIsEnabled
                      for r in range(self.choices.count()))
        self.do_button.setEnabled(enabled)
        self.hint_button.setEnabled(enabled)

    def _fill(self, entries: list[dict], keep_rows: bool) -> None:
        """List ``entries``. The same question asked again (another purchase, another move)
        answered in the list (a double-click, Enter) keeps its rows in place: an answer no
        longer possible stays greyed out where it was, so the rows never slide under the pointer
        and a second double-click never gives another answer than the one under it; new
        answers go at the end. The greyed rows go when the pointer leaves the list; an
        answer given elsewhere (the map, Do it) leaves none: the list then shows only the
        answers of the question asked now."""
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
                item.setFlags(Qt.ItemFlag.NoItemFlags)        # gone: greyed, for now
                item.setToolTip(f"{item.text()}\n\nNo longer possible")
                if item is current:
                    self.choices.setCurrentItem(None)
        for entry in by_key.values():
            self.choices.addItem(self._dress(QListWidgetItem(), entry))

    def _drop_gone_rows(self) -> None:
        """The pointer has left the list: the greyed answers of the last question go."""
        if getattr(self, "choices", None) is None:
            return
        for row in reversed(range(self.choices.count())):
            if not self.choices.item(row).flags() & Qt.ItemFlag.ItemIsEnabled:
                self.choices.takeItem(row)

    @staticmethod
    def _dress(item: QListWidgetItem, entry: dict) -> QListWidgetItem:
        item.setText(entry["label"])
        item.setData(Qt.ItemDataRole.UserRole, entry["action"])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        # The whole answer first (a narrow panel wraps it), then what more there is to say.
        parts = [entry["label"], entry.get("tip") or ""]
        if entry["map"]:
            parts.append("You can also do this on the map")
        item.setToolTip("\n\n".join(part for part in parts if part))
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
            room = self.choices.viewport().width() - 12
            self.hidden_note.setFixedWidth(max(room, 60))
            self.hidden_note.setFixedHeight(self.hidden_note.heightForWidth(max(room, 60)))
            self.hidden_note.move(6, 6)
            self.hidden_note.show()
        else:
            self.hidden_note.hide()

    def _activated(self, item: QListWidgetItem) -> None:
        if item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self._from_list = True          # the pointer (or the keys) are on the list
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


class _PointerWatch(QObject):
    """Calls ``left`` when the pointer leaves ``widget``."""

    def __init__(self, widget: QWidget, left):
        super().__init__(widget)
        self._left = left
        widget.installEventFilter(self)

    def eventFilter(self, watched, event) -> bool:   # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Leave:
            self._left()
        return False
