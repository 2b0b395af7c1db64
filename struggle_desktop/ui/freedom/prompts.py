"""The forms of the Part A prompts, built from the prompt's legal actions.

``build_form(prompt, board, act)`` returns the widget for one prompt of the board
(games/freedom/presentation.py): the group form of the assignment (FIG-MIS-3), Continue at the
call-off prompt (the Call off buttons are in the groups table), Roll / Stop rolling in the
bonus segment (FIG-MIS-19), the mulligan offer (FIG-MIS-23), the players' results of fights,
patrols, searches, torture, seats and atrocities (FIG-HOOK), missing ratings (FIG-CTX-9) and the
phasing player's choices. ``act(action)`` carries an action out and returns None, or the rules'
reason when the game refuses it — which the group form shows under its buttons. The step
forms (call-off, bonus rolls, mulligans: ``step_form``) keep a place for every step button,
so one that comes after a click is never where the clicked one was.

No rule lives here: every button is a legal action of the prompt (or, in the group form, a
combination the game checks and explains), every label comes from the board.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QSize, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QFormLayout, QFrame, QGridLayout,
                               QGroupBox, QHBoxLayout, QLabel, QPushButton, QScrollArea,
                               QSpinBox, QVBoxLayout, QWidget)

Act = Callable[[dict], "str | None"]
#: Above this many answers a prompt without a form of its own points to the Decision panel.
MAX_BUTTONS = 16
REFUSED_STYLE = "color: #b3261e; font-weight: bold;"
PRIMARY_STYLE = "font-weight: bold; padding: 4px 14px;"
#: The Mission phase's step answers (FIG-MIS-16, FIG-MIS-19, FIG-MIS-23) as (slot, words),
#: each with a place of its own in one row, in this order: a form shows its own buttons
#: and keeps the others' places empty, so a button that comes after a click is never where
#: the clicked one was (on a wide screen Roll came where Continue had been clicked, and a
#: second click rolled a bonus die).
STEP_SLOTS = (("continue", "Continue"), ("roll", "Roll"), ("stop", "Stop rolling"),
              ("keep", "Keep the roll"), ("mulligan", "Spend a mulligan"))
#: The height of a step question's place, with its note, in lines (a longer one scrolls in
#: place): the row of step buttons under it is at the same height for every step.
STEP_TEXT_LINES = 5


def label(text: str, bold: bool = False, wrap: bool = True, muted: bool = False) -> QLabel:
    widget = QLabel(text)
    widget.setWordWrap(wrap)
    widget.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    style = []
    if bold:
        style.append("font-weight: bold")
    if muted:
        style.append("color: #5f6670")
    if style:
        widget.setStyleSheet("; ".join(style) + ";")
    return widget


def action_button(text: str, action: dict, act: Act, name: str = "",
                  primary: bool = False) -> QPushButton:
    button = QPushButton(text)
    button.setObjectName(name or f"act-{action.get('verb')}")
    button.setProperty("action", action)
    if primary:
        button.setDefault(True)
        button.setStyleSheet(PRIMARY_STYLE)
    button.clicked.connect(lambda _=False, a=dict(action): act(a))
    return button


def find(actions: list[dict], **match) -> dict | None:
    """The legal action with these keys, or None."""
    for entry in actions:
        a = entry["action"]
        if all(a.get(k) == v for k, v in match.items()):
            return entry
    return None


def build_form(prompt: dict, board: dict, act: Act) -> QWidget:
    kind = prompt["kind"]
    builder = {"call_off": call_off_form, "bonus_roll": bonus_form, "mulligan": mulligan_form,
               "hook": hook_form, "value": value_form, "assign": AssignForm}.get(kind)
    if builder is None:
        return choice_form(prompt, board, act)
    return builder(prompt, board, act)


# ================================================================== simple prompts
def row_of(*widgets: QWidget, stretch_end: bool = True) -> QHBoxLayout:
    row = QHBoxLayout()
    for w in widgets:
        row.addWidget(w)
    if stretch_end:
        row.addStretch(1)
    return row


def form_column(title: str) -> tuple[QWidget, QVBoxLayout]:
    """A prompt's form: a box whose column starts with the question in bold."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(label(title, bold=True))
    return box, column


def step_form(prompt: dict, note: str, offered: dict[str, tuple[str, dict]],
              act: Act) -> QWidget:
    """A Mission phase step: the question and ``note`` in a place of fixed height, then one
    row with a place for each of ``STEP_SLOTS``; ``offered`` (slot -> (words, action)) fills
    some, the first of them the default. Every place is the size of its words on a default
    button, shown or not, so no button ever stands where another step's was."""
    box = QWidget()
    column = QVBoxLayout(box)
    column.setContentsMargins(0, 0, 0, 0)
    words = QWidget()
    words_column = QVBoxLayout(words)
    words_column.setContentsMargins(0, 0, 0, 0)
    question = label(prompt["text"], bold=True)
    words_column.addWidget(question)
    if note:
        words_column.addWidget(label(note, muted=True))
    words_column.addStretch(1)
    place = QScrollArea()
    place.setObjectName("freedom-step-words")
    place.setWidget(words)
    place.setWidgetResizable(True)
    place.setFrameShape(QFrame.Shape.NoFrame)
    place.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
    place.viewport().setAutoFillBackground(False)     # the box's own background
    words.setAutoFillBackground(False)
    place.setFixedHeight(question.fontMetrics().lineSpacing() * STEP_TEXT_LINES + 6)
    column.addWidget(place)
    row = QHBoxLayout()
    first = next((slot for slot, _ in STEP_SLOTS if slot in offered), None)
    for slot, default_words in STEP_SLOTS:
        text, action = offered.get(slot, (default_words, None))
        size = _step_size(text)
        if action is None:
            spacer = QWidget()
            spacer.setObjectName(f"freedom-{slot}-place")
            spacer.setFixedSize(size)
            row.addWidget(spacer)
            continue
        button = action_button(text, action, act, f"freedom-{slot}", primary=slot == first)
        button.setFixedSize(size)
        row.addWidget(button)
    row.addStretch(1)
    column.addLayout(row)
    return box


def _step_size(text: str) -> QSize:
    """The size of a default step button showing ``text``."""
    probe = QPushButton(text)
    probe.setStyleSheet(PRIMARY_STYLE)
    probe.ensurePolished()
    return probe.sizeHint()


def call_off_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """FIG-MIS-16: Continue here; each active group's Call off button is in its table row."""
    go = find(prompt["actions"], verb="continue")
    return step_form(prompt, "A called-off group keeps its levels, is immune from now on and "
                     "rolls no bonus dice. Use its Call off button in the groups table "
                     "below, or go on:",
                     {"continue": ("Continue", go["action"])} if go is not None else {}, act)


def bonus_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """FIG-MIS-19: one bonus roll at a time, or stop the group."""
    gid = prompt.get("group")
    group = next((g for g in board.get("groups", []) if g["id"] == gid), None)
    note = (f"Only {group['mission']} ({group['mission_name']}) counts on these rolls; level "
            f"{group['level']} so far, {group['rolled']} of {group['count']} dice rolled."
            if group is not None else "")
    offered = {}
    roll = find(prompt["actions"], verb="roll")
    stop = find(prompt["actions"], verb="stop")
    if roll is not None:
        offered["roll"] = ("Roll", roll["action"])
    if stop is not None:
        offered["stop"] = ("Stop rolling", stop["action"])
    return step_form(prompt, note, offered, act)


def mulligan_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """FIG-MIS-23: keep the roll, or spend a mulligan to roll it again."""
    offered = {}
    keep = find(prompt["actions"], verb="keep")
    again = find(prompt["actions"], verb="mulligan")
    if keep is not None:
        offered["keep"] = ("Keep the roll", keep["action"])
    if again is not None:
        held = prompt.get("held")
        offered["mulligan"] = ("Spend a mulligan" + (f" ({held} held)" if held is not None
                                                     else ""), again["action"])
    return step_form(prompt, "", offered, act)


def value_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """FIG-CTX-9: a number the rules need and the players have not entered."""
    box, column = form_column(prompt["text"])
    spin = QSpinBox()
    spin.setObjectName("freedom-value")
    spin.setRange(int(prompt["low"]), int(prompt["high"]))
    spin.setValue(int(prompt["low"]))
    name = (f"{prompt['character']}'s {prompt['field_name']}" if prompt.get("character")
            else prompt["field_name"].capitalize())
    enter = QPushButton("Enter")
    enter.setObjectName("freedom-enter")
    enter.setDefault(True)
    enter.clicked.connect(lambda: act({"verb": "enter", "value": spin.value()}))
    column.addLayout(row_of(QLabel(f"{name}:"), spin, enter))
    column.addWidget(label(f"From {prompt['low']} to {prompt['high']}.", muted=True))
    return box


def choice_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """Any other prompt: one button per answer, labelled by the game."""
    box, column = form_column(prompt["text"])
    actions = prompt["actions"]
    if len(actions) > MAX_BUTTONS:
        column.addWidget(label(f"{len(actions)} answers: choose in the Decision panel.",
                               muted=True))
        return box
    grid = QGridLayout()
    for k, entry in enumerate(actions):
        grid.addWidget(action_button(entry["label"], entry["action"], act,
                                     f"freedom-choice-{k}", primary=(k == 0)), k // 2, k % 2)
    column.addLayout(grid)
    return box


# ================================================================== the players' results
def hook_form(prompt: dict, board: dict, act: Act) -> QWidget:
    """FIG-HOOK-1: what the prompt shows (the foe's numbers, the group's members with their
    EF and hits), the result built a piece at a time, then the outcome."""
    box, column = form_column(f"{prompt.get('hook_title', 'Result')}: {prompt['text']}")
    actions = prompt["actions"]
    hook = prompt.get("hook")
    facts = prompt.get("facts") or []
    if facts:
        grid = QFormLayout()
        grid.setHorizontalSpacing(14)
        for name, value in facts:
            grid.addRow(label(f"{name}:", bold=True, wrap=False), label(str(value)))
        frame = QFrame()
        frame.setObjectName("freedom-hook-facts")
        frame.setFrameShape(QFrame.Shape.StyledPanel)
        frame.setLayout(grid)
        column.addWidget(frame)
    if hook in ("seats", "atrocity"):
        buttons = [action_button(e["label"], e["action"], act,
                                 f"freedom-{e['action']['verb']}-{k}")
                   for k, e in enumerate(actions) if e["action"]["verb"] != "default"]
        column.addLayout(row_of(*buttons))
    else:
        members = prompt.get("members") or []
        if members:
            column.addWidget(label("Enter what happened to each member (one click per hit):",
                                   muted=True))
            grid = QGridLayout()
            for row, m in enumerate(members):
                grid.addWidget(label(m["name"], bold=True, wrap=False), row, 0)
                grid.addWidget(label(m["text"], muted=True, wrap=False), row, 1)
                for col, (verb, text) in enumerate((("hit", "+1 hit"), ("kill", "Killed"),
                                                    ("capture", "Captured")), start=2):
                    entry = find(actions, verb=verb, character=m["name"])
                    button = QPushButton(text)
                    button.setObjectName(f"freedom-{verb}-{m['name']}")
                    button.setEnabled(entry is not None)
                    if entry is not None:
                        button.clicked.connect(lambda _=False, a=entry["action"]: act(a))
                    grid.addWidget(button, row, col)
            grid.setColumnStretch(5, 1)
            column.addLayout(grid)
        extras = [e for e in actions if e["action"]["verb"] in ("flag", "unit")]
        if extras:
            column.addLayout(row_of(*[action_button(e["label"], e["action"], act,
                                                    f"freedom-extra-{k}")
                                      for k, e in enumerate(extras)]))
        entered = prompt.get("entered") or []
        results = [e for e in actions if e["action"]["verb"] == "result"]
        if results:
            column.addWidget(label("Then the outcome:", bold=True))
            grid = QGridLayout()
            for k, e in enumerate(results):
                grid.addWidget(action_button(e["label"].removeprefix("Result: "), e["action"],
                                             act, f"freedom-result-{e['action']['result']}"),
                               k // 2, k % 2)
            column.addLayout(grid)
    default = find(actions, verb="default")
    if default is not None:
        column.addLayout(row_of(action_button(f"Default answer ({prompt.get('default_text')})",
                                              default["action"], act, "freedom-default")))
    if hook not in ("seats", "atrocity"):
        # Last: what was entered grows with each click, and must not push the outcome's
        # buttons down under the pointer.
        column.addWidget(label("Entered so far: " + ("; ".join(entered) if entered
                                                     else "nothing"), muted=not entered))
    return box


# ================================================================== forming the groups
class AssignForm(QWidget):
    """FIG-MIS-3 and FIG-MIS-4: the groups formed so far (add a member, disband) and a new
    group (mission, leader or cell, target, spaceship, torture). Any combination may be tried:
    the game refuses what breaks a requirement and the reason shows here."""

    def __init__(self, prompt: dict, board: dict, act: Act):
        super().__init__()
        self.act = act
        self.assign = board.get("assign") or {}
        self.prompt = prompt
        self.setObjectName("freedom-assign")
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(label(prompt["text"], bold=True))
        row = QHBoxLayout()
        row.addWidget(self._build_groups(), 1)
        row.addWidget(self._build_new_group(), 1)
        column.addLayout(row)
        self.refusal = label("")
        self.refusal.setObjectName("freedom-refusal")
        self.refusal.setStyleSheet(REFUSED_STYLE)
        self.refusal.hide()
        column.addWidget(self.refusal)
        # A group dropped by the final check, once its missing rating was entered.
        earlier = self.assign.get("refused") or []
        if earlier:
            self.earlier = label("Refused when the ratings were known: "
                                 + "; ".join(earlier))
            self.earlier.setObjectName("freedom-refused-earlier")
            self.earlier.setStyleSheet(REFUSED_STYLE)
            column.addWidget(self.earlier)
        done = find(prompt["actions"], verb="done")
        if done is not None:
            self.done_button = action_button("Done: start the missions", done["action"],
                                             self.attempt, "freedom-assign-done")
            column.addLayout(row_of(self.done_button))

    # ------------------------------------------------------------------ building
    def _build_groups(self) -> QGroupBox:
        box = QGroupBox("Groups so far")
        grid = QGridLayout(box)
        groups = self.assign.get("groups") or []
        free = self.assign.get("free") or []
        self.join_combos: dict[str, QComboBox] = {}
        if not groups:
            grid.addWidget(label("None yet: form one on the right.", muted=True), 0, 0)
        for k, g in enumerate(groups):
            who = ", ".join(g["members"]) or g["leader"]
            text = f"{g['id']} — {g['mission']} {g['name']}: {who}"
            if g.get("target"):
                text += f" (target {g['target']})"
            grid.addWidget(label(text), 2 * k, 0, 1, 3)
            if g.get("performer") is None and free:
                combo = QComboBox()
                combo.setObjectName(f"freedom-join-{g['id']}")
                combo.addItems(free)
                self.join_combos[g["id"]] = combo
                add = QPushButton("Add member")
                add.setObjectName(f"freedom-add-{g['id']}")
                add.clicked.connect(lambda _=False, gid=g["id"]: self.join(gid))
                grid.addWidget(combo, 2 * k + 1, 0)
                grid.addWidget(add, 2 * k + 1, 1)
            disband = QPushButton("Disband")
            disband.setObjectName(f"freedom-disband-{g['id']}")
            disband.clicked.connect(lambda _=False, gid=g["id"]: self.attempt(
                {"verb": "disband", "group": gid}))
            grid.addWidget(disband, 2 * k + 1, 2)
        grid.setRowStretch(2 * len(groups) + 2, 1)
        return box

    def _build_new_group(self) -> QGroupBox:
        box = QGroupBox("New group")
        form = QFormLayout(box)
        self.mission_combo = QComboBox()
        self.mission_combo.setObjectName("freedom-mission")
        for m in self.assign.get("missions") or []:
            text = f"{m['letter']} — {m['name']}" + (" (taken)" if m["taken"] else "")
            self.mission_combo.addItem(text, m)
            self.mission_combo.setItemData(self.mission_combo.count() - 1, m["summary"],
                                           Qt.ItemDataRole.ToolTipRole)
        self.leader_combo = QComboBox()
        self.leader_combo.setObjectName("freedom-leader")
        for name in self.assign.get("free") or []:
            self.leader_combo.addItem(name, {"leader": name})
        for cell in self.assign.get("performers") or []:
            self.leader_combo.addItem(f"{cell['id']} ({cell['kind']}, no character)",
                                      {"performer": cell["id"]})
        self.target_combo = QComboBox()
        self.target_combo.setObjectName("freedom-target")
        self.ship_combo = QComboBox()
        self.ship_combo.setObjectName("freedom-ship")
        self.torture_box = QCheckBox("Torture the prisoner (FIG-MSN-11)")
        self.torture_box.setObjectName("freedom-torture")
        self.summary = label("", muted=True)
        form.addRow("&Mission:", self.mission_combo)
        form.addRow("&Leader:", self.leader_combo)
        form.addRow("&Target:", self.target_combo)
        form.addRow("&Spaceship:", self.ship_combo)
        form.addRow("", self.torture_box)
        form.addRow("", self.summary)
        self.form_button = QPushButton("&Form group")
        self.form_button.setObjectName("freedom-form-group")
        self.form_button.clicked.connect(self.form_group)
        form.addRow("", self.form_button)
        self.form_layout = form
        self.mission_combo.currentIndexChanged.connect(lambda _i: self._mission_changed())
        self._mission_changed()
        # Start on the first legal group, so that Form works at once.
        first = next((e["action"] for e in self.prompt["actions"]
                      if e["action"]["verb"] == "form"), None)
        if first is not None:
            self.select(first)
        return box

    def select(self, action: dict) -> None:
        """Set the form to ``action`` (a ``form`` action): mission, leader or cell, target."""
        for k in range(self.mission_combo.count()):
            if self.mission_combo.itemData(k)["letter"] == action["mission"]:
                self.mission_combo.setCurrentIndex(k)
        who = ({"performer": action["performer"]} if action.get("performer")
               else {"leader": action.get("leader")})
        for k in range(self.leader_combo.count()):
            if self.leader_combo.itemData(k) == who:
                self.leader_combo.setCurrentIndex(k)
        for combo, key in ((self.target_combo, "target"), (self.ship_combo, "ship")):
            k = combo.findData(action.get(key))
            if k >= 0:
                combo.setCurrentIndex(k)
        self.torture_box.setChecked(bool(action.get("torture")))

    def _mission_changed(self) -> None:
        m = self.mission_combo.currentData()
        self.target_combo.clear()
        self.ship_combo.clear()
        if not m:
            return
        if m["optional_target"]:
            self.target_combo.addItem("none", None)
        for t in m["targets"]:
            self.target_combo.addItem(t["label"], t["value"])
        if m["needs_target"] and not m["targets"]:
            self.target_combo.addItem("(no possible target here)", None)
        self.form_layout.setRowVisible(self.target_combo, bool(m["targets"] or m["needs_target"]))
        for ship in m["ships"]:
            self.ship_combo.addItem(ship, ship)
        self.form_layout.setRowVisible(self.ship_combo, m["letter"] == "J")
        self.form_layout.setRowVisible(self.torture_box, bool(m["torture"]))
        self.summary.setText(m["summary"])

    # ------------------------------------------------------------------ acting
    def form_action(self) -> dict | None:
        m = self.mission_combo.currentData()
        who = self.leader_combo.currentData()
        if not m or not who:
            return None
        action = {"verb": "form", "mission": m["letter"], **who}
        target = self.target_combo.currentData() if self.target_combo.count() else None
        if target is not None:
            action["target"] = target
        if m["letter"] == "J" and self.ship_combo.count():
            action["ship"] = self.ship_combo.currentData()
        if m["torture"] and self.torture_box.isChecked():
            action["torture"] = True
        return action

    def form_group(self) -> None:
        action = self.form_action()
        if action is None:
            self.show_refusal("Choose a mission and a leader first.")
            return
        self.attempt(action)

    def join(self, gid: str) -> None:
        combo = self.join_combos[gid]
        self.attempt({"verb": "join", "group": gid, "character": combo.currentText()})

    def attempt(self, action: dict) -> str | None:
        reason = self.act(action)
        if reason:
            # The game's reasons for a group already begin "refused: ..." (FIG-MIS-4).
            self.show_refusal(reason[:1].upper() + reason[1:] if reason.startswith("refused")
                              else f"Not possible: {reason}")
        return reason

    def show_refusal(self, text: str) -> None:
        self.refusal.setText(text)
        self.refusal.setVisible(bool(text))
