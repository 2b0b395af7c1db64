"""Watching the program houses play (issue 28): their jumps and fights shown on the map.

The speeds are the Struggle window's (``SPEEDS`` of the Turn panel: Step, Fast, Instant, the
one setting ``watch/speed``). A Noble Houses program house acts one action at a time
(ui/seats.ProgramPlayer); after each action the window asks ``program_marks`` what the seated
person should see of it, and:

* Step: the marks stay and the program waits until Continue (in the status bar);
* Fast: the marks stay for a short pause, then the program goes on;
* Instant: the program plays everything it may in one go (``WatchedProgram``'s burst) and
  only the resulting board is drawn.

What is marked is read from the seated house's own board (before and after the action) and
its own reading of the log, never from the whole position: what that house may not see
(NH-SIM-2: a declaration not yet revealed) is not in either, so it cannot show.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QButtonGroup, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from struggle_desktop.ui.docks.style import ACCENT
from struggle_desktop.ui.docks.turn import SPEEDS
from struggle_desktop.ui.seats import ProgramPlayer

#: Milliseconds a marked step stays on show at Fast (the Struggle window's Fast pause).
WATCH_FAST_MS = 450
#: At most this many program actions in one Instant burst (then the event loop has a turn).
BURST_LIMIT = 2000
SPEED_TIPS = {
    "step": "Show each jump and fight of a program house and wait for Continue.",
    "fast": "Show each jump and fight of a program house briefly, one after another.",
    "instant": "Jump straight to the result of the program houses' turns.",
}
#: The rules whose log lines belong to a fight (a battle or a nuclear exchange).
FIGHT_RULES = ("NH-BAT-", "NH-NUK-")


def hex_of_ref(ref) -> list[int] | None:
    if isinstance(ref, str) and ref.startswith("hex:"):
        x, _, y = ref[4:].partition(",")
        if x.lstrip("-").isdigit() and y.lstrip("-").isdigit():
            return [int(x), int(y)]
    return None


def program_marks(before: dict | None, after: dict | None, entries: list[dict]) -> list[dict]:
    """What the seated house sees of one program action: ``{"kind": "jump", "unit", "from",
    "to", "text"}`` for a ship it sees jump, ``{"kind": "fight", "hex", "text"}`` for each
    hex where a fight's line was logged. ``before``/``after`` are the seat's boards,
    ``entries`` the seat's reading of the action's log lines."""
    marks: list[dict] = []
    units_before = (before or {}).get("units", {})
    units_after = (after or {}).get("units", {})
    fights: dict[str, dict] = {}
    # Where a fight line names no hex (a casualty names its unit): the fight on the board.
    fight_at = [(before or {}).get(k) for k in ("pending_hex",)] + [
        ((before or {}).get(k) or {}).get("hex") for k in ("battle", "exchange")]
    for entry in entries:
        rule = entry.get("rule", "")
        refs = entry.get("refs") or []
        hexes = [h for h in (hex_of_ref(r) for r in refs) if h is not None]
        if rule == "NH-MOV-6" and refs:
            ship = refs[0]
            # Only a ship the seat sees on both boards: its own view says where it was.
            if ship in units_before and ship in units_after and hexes:
                marks.append({"kind": "jump", "unit": ship,
                              "from": list(units_before[ship]["hex"]), "to": hexes[-1],
                              "text": entry["text"]})
        elif rule.startswith(FIGHT_RULES):
            where = hexes[0] if hexes else next(
                (list(h) for h in fight_at if h), None)
            if where is None:
                where = next((list(units_before[r]["hex"]) for r in refs
                              if isinstance(r, str) and r in units_before), None)
            if where is None:
                continue
            key = f"{where[0]},{where[1]}"
            mark = fights.setdefault(key, {"kind": "fight", "hex": where, "text": entry["text"]})
            if entry.get("kind") != "roll":
                mark["text"] = entry["text"]           # the fight's last word
    return marks + list(fights.values())


class WatchedProgram(ProgramPlayer):
    """The program player that remembers the seat's board before each action (for the
    marks) and, at Instant, plays every action it may in one burst: the window is drawn
    once, at the end."""

    def __init__(self, document, level_of, on_action=None):
        super().__init__(document, level_of, on_action)
        self.board_before: dict | None = None
        self.burst = False

    def step(self) -> None:
        if not self.burst:
            self.board_before = self.document.board
            super().step()
            return
        self.scheduled = False
        done = 0
        self.document.blockSignals(True)     # nothing drawn until the burst is over
        try:
            while done < BURST_LIMIT:
                level = self.to_move()
                if level is None:
                    break
                self.busy = True
                try:
                    role = self.document.waiting_role
                    result = self.document.perform(self.document.program_action(level), role)
                finally:
                    self.busy = False
                done += 1
                if not result.ok:
                    break
        finally:
            self.document.blockSignals(False)
        if done:
            self.document.changed.emit()     # the window draws the result (and schedules)
        else:
            self.schedule()


class WatchBar(QWidget):
    """In the status bar (it takes no room from the map): how to watch the program houses
    (Step, Fast, Instant: the Struggle window's choices, styled as its Turn panel's) and
    Continue while a step waits. What the step was is the status bar's message.

    Signals: ``speed_changed(str)``, ``continue_requested()``."""

    speed_changed = Signal(str)
    continue_requested = Signal()

    def __init__(self):
        super().__init__()
        self.setObjectName("nobles-watch")
        row = QHBoxLayout(self)
        row.setContentsMargins(4, 0, 4, 0)
        row.setSpacing(0)
        caption = QLabel("Watch the program houses:")
        caption.setToolTip("How the program houses' turns are shown on the map")
        row.addWidget(caption)
        row.addSpacing(6)
        self.group = QButtonGroup(self)
        self.group.setExclusive(True)
        self.buttons: dict[str, QToolButton] = {}
        for speed in SPEEDS:
            button = QToolButton()
            button.setObjectName(f"nobles-watch-{speed}")
            button.setText(speed.capitalize())
            button.setCheckable(True)
            button.setToolTip(SPEED_TIPS[speed])
            # as the Turn panel's: the chosen speed reads at a glance in either theme
            button.setStyleSheet(
                "QToolButton { padding: 1px 8px; border: 1px solid palette(mid); }"
                f"QToolButton:checked {{ background: {ACCENT.name()}; color: #111111;"
                f" border-color: {ACCENT.darker(160).name()}; font-weight: bold; }}")
            self.group.addButton(button)
            self.buttons[speed] = button
            row.addWidget(button)
            button.toggled.connect(lambda on, s=speed: on and self.speed_changed.emit(s))
        row.addSpacing(8)
        self.continue_button = QPushButton("Continue")
        self.continue_button.setObjectName("nobles-watch-continue")
        self.continue_button.setToolTip("Show the program house's next step")
        self.continue_button.clicked.connect(self.continue_requested)
        self.continue_button.setEnabled(False)
        row.addWidget(self.continue_button)

    def set_speed(self, speed: str) -> None:
        self.buttons[speed].setChecked(True)

    def show_step(self, waiting: bool) -> None:
        """A step is on show: ``waiting`` for Continue or not."""
        self.continue_button.setEnabled(waiting)


__all__ = ["WatchBar", "WatchedProgram", "program_marks", "WATCH_FAST_MS"]
