"""The turn dock: turn x of N, the fourteen phases with the current one lit, the decision
the game is waiting for, the **Continue** control that names where play will next stop for
the player (``document.where_play_stops``; just "Continue" when dice decide that), and the
speed at which the player watches the Chaos side act.

The dock does not decide what Continue does: it emits ``continue_requested`` and the window
performs the prompt's "done" action or steps its playback. By default Continue is enabled
exactly when the pending decision offers a "done" action; the window may override that for
the position it is showing with ``set_continue``.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QRectF, QSize, Qt, Signal
from PySide6.QtGui import QFontMetricsF, QPainter, QPalette, QPen
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QStylePainter,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.style import (
    ACCENT,
    blend,
    dim_text,
    readable_on,
    ui_font,
)

SPEEDS = ("step", "fast", "instant")
SPEED_TIPS = {
    "step": "Stop after each move and attack of the Chaos side; Continue shows the next one.",
    "fast": "Show each move and attack of the Chaos side briefly, one after another.",
    "instant": "Jump straight to the result of the Chaos side's turn.",
}
DONE_VERB = "done"


def done_action(board: dict | None) -> dict | None:
    """The pending decision's "done" action (what Continue performs), or None."""
    prompt = (board or {}).get("prompt") or {}
    for choice in prompt.get("actions", []):
        if choice.get("action", {}).get("verb") == DONE_VERB:
            return choice["action"]
    return None


def turn_text(board: dict) -> str:
    turn = board.get("turn", 0)
    if turn == 0:
        return "Set-up"
    turns = board.get("turns")
    return f"Turn {turn} of {turns}" if turns else f"Turn {turn} (no turn limit)"


def stop_text(board: dict, stop: dict | None) -> str:
    """Where Continue leads, in words, from ``document.where_play_stops``: the phase of the
    next decision ("Phase 14: Extropy and End of Turn", "Turn 2, phase 9: …"), or "" when
    that cannot be known before playing (dice and draws come first) or is not known."""
    if not stop or stop.get("chance"):
        return ""
    if stop.get("over"):
        return "the end of the game"
    phase = stop.get("phase")
    names = board.get("phases") or []
    if not isinstance(phase, int) or not 1 <= phase <= len(names):
        return ""
    where = f"{names[phase - 1]}"
    if stop.get("turn") != board.get("turn"):
        return f"Turn {stop.get('turn')}, phase {phase}: {where}"
    return f"Phase {phase}: {where}"


def continue_state(board: dict | None, stop: dict | None = None) -> tuple[bool, str, str]:
    """(enabled, button text, why disabled / what it does) for a board. ``stop`` is where
    the "done" answer would next wait for the player (``document.where_play_stops``): the
    button names it only when it is known, never a phase that play would run through."""
    if board is None:
        return False, "Continue", "No game is open."
    if board.get("outcome") is not None:
        return False, "The game is over", "The game is over: there is nothing to continue."
    where = stop_text(board, stop)
    text = f"Continue → {where}" if where else "Continue"
    action = done_action(board)
    prompt = board.get("prompt")
    if action is not None:
        label = next((c.get("label", "") for c in prompt["actions"]
                      if c.get("action") is action), "") or "End this step"
        if where:
            return True, text, f"{label}; play goes on until {where}, where you decide next."
        if stop and stop.get("chance"):
            return True, text, (f"{label}; play goes on until your next decision. Where that "
                                "is depends on dice and draws still to come.")
        return True, text, f"{label}; play goes on until your next decision."
    if prompt is None:
        return False, text, "The program is playing; there is no decision to close."
    return False, text, f"Decide first: {prompt.get('text', 'a decision is pending')}."


class PhaseTrack(QWidget):
    """The fourteen phases of a turn: done ones dimmed, the current one lit. Compact, it is a
    strip of numbered badges (the name of each in its tooltip); expanded, one named row each."""

    ROW = 19
    BADGE = 17
    GAP = 2

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.names: list[str] = []
        self.current = 0
        self.expanded = False
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def set_phases(self, names: list[str], current: int) -> None:
        self.names, self.current = list(names), current
        self._fit()

    def set_expanded(self, expanded: bool) -> None:
        self.expanded = expanded
        self._fit()

    def _fit(self) -> None:
        self.setMinimumHeight(self.heightForWidth(self.width() or self.sizeHint().width()))
        self.updateGeometry()
        self.update()

    # geometry
    def per_row(self, width: int) -> int:
        return max(1, (width + self.GAP) // (self.BADGE + self.GAP))

    def hasHeightForWidth(self) -> bool:
        return not self.expanded

    def heightForWidth(self, width: int) -> int:
        if self.expanded:
            return max(1, len(self.names)) * self.ROW + 2
        rows = -(-max(1, len(self.names)) // self.per_row(width))
        return rows * (self.BADGE + self.GAP) + 2

    def sizeHint(self) -> QSize:
        width = 220 if self.expanded else len(self.names) * (self.BADGE + self.GAP)
        return QSize(max(width, 100), self.heightForWidth(max(width, 100)))

    def minimumSizeHint(self) -> QSize:
        return QSize(100, self.heightForWidth(self.width() or 100))

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        height = self.heightForWidth(self.width())
        if height != self.minimumHeight():
            self.setMinimumHeight(height)      # the strip may wrap to another row

    def badge_rect(self, k: int) -> QRectF:
        """The badge of phase ``k`` (1-based)."""
        if self.expanded:
            row = self.row_rect(k)
            return QRectF(row.left() + 4, row.top() + 2, row.height() - 4, row.height() - 4)
        per_row = self.per_row(self.width())
        col, line = (k - 1) % per_row, (k - 1) // per_row
        step = self.BADGE + self.GAP
        return QRectF(1 + col * step, 1 + line * step, self.BADGE, self.BADGE)

    def row_rect(self, k: int) -> QRectF:
        return QRectF(0, 1 + (k - 1) * self.ROW, self.width(), self.ROW)

    def phase_at(self, x: float, y: float) -> int:
        for k in range(1, len(self.names) + 1):
            area = self.row_rect(k) if self.expanded else self.badge_rect(k)
            if area.contains(x, y):
                return k
        return 0

    def describe(self, k: int) -> str:
        state = ("now" if k == self.current else "done this turn" if k < self.current
                 else "to come")
        return f"Phase {k}: {self.names[k - 1]} ({state})"

    def event(self, event) -> bool:
        if event.type() == event.Type.ToolTip:
            k = self.phase_at(event.pos().x(), event.pos().y())
            if k:
                QToolTip.showText(event.globalPos(), self.describe(k), self)
            else:
                QToolTip.hideText()
            return True
        return super().event(event)

    # painting
    def paintEvent(self, _event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        text = self.palette().color(QPalette.ColorRole.WindowText)
        window = self.palette().color(QPalette.ColorRole.Window)
        dim = dim_text(self)
        normal = ui_font(8.5)
        bold = ui_font(8.5, bold=True)
        for k, name in enumerate(self.names, start=1):
            badge = self.badge_rect(k)
            done, now = k < self.current, k == self.current
            if now and self.expanded:
                painter.setPen(Qt.PenStyle.NoPen)
                painter.setBrush(blend(ACCENT, window, 0.55))
                painter.drawRoundedRect(self.row_rect(k).adjusted(0, 0.5, 0, -0.5), 4, 4)
            if now:
                painter.setBrush(ACCENT)
                painter.setPen(QPen(ACCENT.darker(160), 1))
            elif done:
                painter.setBrush(blend(dim, window, 0.6) if not self.expanded
                                 else Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(dim, 1))
            else:
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.setPen(QPen(text, 1))
            painter.drawEllipse(badge)
            painter.setFont(ui_font(7, bold=True))
            painter.setPen(readable_on(ACCENT) if now else (dim if done else text))
            mark = "✓" if done and self.expanded else str(k)
            painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, mark)
            if not self.expanded:
                continue
            row = self.row_rect(k)
            painter.setFont(bold if now else normal)
            painter.setPen(dim if done else text)
            label_rect = row.adjusted(badge.right() + 6 - row.left(), 0, -4, 0)
            elided = QFontMetricsF(painter.font()).elidedText(
                name, Qt.TextElideMode.ElideRight, label_rect.width())
            painter.drawText(label_rect, Qt.AlignmentFlag.AlignVCenter, elided)


class ElidingButton(QPushButton):
    """A push button that shortens its text to its width ("Continue → Phase 14: Extr…"), so
    a long phase name never widens the panel; ``text()`` keeps the whole text."""

    def __init__(self, text: str = "", parent: QWidget | None = None):
        super().__init__(text, parent)
        # (A push button's own policy takes its text's width as its least width.)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)

    def minimumSizeHint(self) -> QSize:
        hint = super().minimumSizeHint()
        return QSize(min(hint.width(), 120), hint.height())

    def paintEvent(self, _event) -> None:
        painter = QStylePainter(self)
        option = QStyleOptionButton()
        self.initStyleOption(option)
        room = self.style().subElementRect(QStyle.SubElement.SE_PushButtonContents, option,
                                           self).width() - 6
        option.text = self.fontMetrics().elidedText(self.text(), Qt.TextElideMode.ElideRight,
                                                    max(room, 0))
        painter.drawControl(QStyle.ControlElement.CE_PushButton, option)


class WrappedLabel(QLabel):
    """A word-wrapped label that asks for the height its text needs at its width: the
    window's dock layout does not ask labels for their height at a width, and a long prompt
    was cut off at its last line."""

    def __init__(self, parent: QWidget | None = None):
        super().__init__(parent)
        self.setWordWrap(True)

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._fit()

    def setText(self, text: str) -> None:
        super().setText(text)
        self._fit()

    def _fit(self) -> None:
        height = self.heightForWidth(self.width()) if self.width() > 0 else -1
        if height > 0 and height != self.minimumHeight():
            self.setMinimumHeight(height)


class TurnWidget(QWidget):
    """The panel's body. Its controls keep their places from one question to the next: what
    changes length (the decision waiting, the note of the set-up) comes after them, and the
    phase strip keeps its room while it is hidden, so Continue and the watch buttons never
    slide under the pointer after an answer."""

    def __init__(self, dock: TurnDock):
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(5)
        self.turn_label = QLabel()
        self.turn_label.setFont(ui_font(13, bold=True))
        layout.addWidget(self.turn_label)
        self.scenario_label = QLabel()
        self.scenario_label.setFont(ui_font(8.5))
        layout.addWidget(self.scenario_label)
        phase_row = QHBoxLayout()
        self.phase_label = QLabel()
        self.phase_label.setFont(ui_font(9.5, bold=True))
        # One line whatever the phase's name (a second line pushed Continue down): the
        # names fit the panel, and a narrower panel cuts the end (the tooltip has it all).
        self.phase_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        phase_row.addWidget(self.phase_label, 1)
        self.names_button = QToolButton()
        self.names_button.setCheckable(True)
        self.names_button.setAutoRaise(True)
        self.names_button.setArrowType(Qt.ArrowType.DownArrow)
        self.names_button.setToolTip("Show the names of all the phases")
        self.names_button.toggled.connect(self.show_names)
        phase_row.addWidget(self.names_button, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(phase_row)
        self.phases = PhaseTrack()
        # Hidden during set-up, its room kept: Continue stays where it will be in play.
        policy = self.phases.sizePolicy()
        policy.setRetainSizeWhenHidden(True)
        self.phases.setSizePolicy(policy)
        layout.addWidget(self.phases)
        self.continue_button = ElidingButton("Continue")
        self.continue_button.setObjectName("turn-continue")    # (a guide's step points at it)
        self.continue_button.setFont(ui_font(10, bold=True))
        self.continue_button.setMinimumHeight(32)
        self.continue_button.setDefault(True)
        self.continue_button.clicked.connect(dock.continue_requested)
        layout.addWidget(self.continue_button)
        speed_row = QHBoxLayout()
        speed_row.setSpacing(0)
        caption = QLabel("Watch the Chaos side:")
        caption.setFont(ui_font(8.5))
        caption.setToolTip("How the automated phases are shown on the map")
        speed_row.addWidget(caption)
        speed_row.addSpacing(6)
        self.speed_group = QButtonGroup(self)
        self.speed_group.setExclusive(True)
        self.speed_buttons: dict[str, QToolButton] = {}
        for speed in SPEEDS:
            button = QToolButton()
            button.setText(speed.capitalize())
            button.setObjectName(f"watch-{speed}")
            button.setCheckable(True)
            button.setFont(ui_font(8.5))
            button.setToolTip(SPEED_TIPS[speed])
            button.setAutoRaise(False)
            # the chosen speed must read at a glance in light and dark themes alike
            button.setStyleSheet(
                "QToolButton { padding: 2px 9px; border: 1px solid palette(mid); }"
                f"QToolButton:checked {{ background: {ACCENT.name()}; color: #111111;"
                f" border-color: {ACCENT.darker(160).name()}; font-weight: bold; }}")
            self.speed_group.addButton(button)
            self.speed_buttons[speed] = button
            speed_row.addWidget(button)
            button.toggled.connect(lambda on, s=speed: on and dock.set_speed(s))
        speed_row.addStretch(1)
        layout.addLayout(speed_row)
        # During set-up: the Chaos side plays its first turn as soon as set-up ends, so the
        # player is told, just under the speeds, to choose one now. (Under them: when it goes,
        # nothing above it moves.)
        self.speed_note = WrappedLabel("Set-up ends with the Chaos side's first turn: choose "
                                       "how to watch it.")
        self.speed_note.setFont(ui_font(8.5, bold=True))
        self.speed_note.hide()
        layout.addWidget(self.speed_note)
        # The decision waiting, as long as it is: last, so its length moves no control.
        self.decision_heading = QLabel("Waiting for")
        self.decision_heading.setFont(ui_font(8, bold=True))
        layout.addWidget(self.decision_heading)
        self.decision = WrappedLabel()
        self.decision.setFont(ui_font(9))
        self.decision.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.decision)
        layout.addStretch(1)

    def show_names(self, expanded: bool) -> None:
        self.phases.set_expanded(expanded)
        self.names_button.setArrowType(Qt.ArrowType.UpArrow if expanded
                                       else Qt.ArrowType.DownArrow)
        self.names_button.setToolTip("Show only the phase numbers" if expanded
                                     else "Show the names of all the phases")


class TurnDock(DockPanel):
    """Turn and phase, the pending decision, Continue, and the watching speed.

    Signals: ``continue_requested()`` when the player presses Continue;
    ``speed_changed(str)`` with "step", "fast" or "instant"."""

    object_name = "dock-turn"
    title = "Turn"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    continue_requested = Signal()
    speed_changed = Signal(str)

    def __init__(self, document, parent: QWidget | None = None):
        super().__init__(document, parent)
        self._speed = "fast"
        # (board the override was made for, enabled, text, why): the window's word about
        # Continue holds until the document shows another position.
        self._override: tuple | None = None

    # ------------------------------------------------------------ the window's controls
    @property
    def speed(self) -> str:
        return self._speed

    def set_speed(self, speed: str) -> None:
        if speed not in SPEEDS:
            raise ValueError(f"unknown speed {speed!r} (known: {', '.join(SPEEDS)})")
        if self._widget is not None and not self._widget.speed_buttons[speed].isChecked():
            self._widget.speed_buttons[speed].setChecked(True)   # comes back here via toggled
            return
        if speed != self._speed:
            self._speed = speed
            self.speed_changed.emit(speed)

    def set_continue(self, enabled: bool, text: str, why: str) -> None:
        """Override Continue for the position on show (e.g. "Next step" during playback)."""
        self._override = (self.document.board, enabled, text, why)
        if self._widget is not None:
            self._apply_continue()

    def clear_continue_override(self) -> None:
        self._override = None
        if self._widget is not None:
            self._apply_continue()

    def show_phase_names(self, shown: bool) -> None:
        """Show every phase by name (True) or the compact strip of numbers (False)."""
        self.ensure_widget().names_button.setChecked(shown)

    @property
    def phase_names_shown(self) -> bool:
        return self._widget is not None and self._widget.phases.expanded

    def done_action(self) -> dict | None:
        """The action Continue stands for in the current position, if any."""
        return done_action(self.document.board)

    def where_play_stops(self) -> dict | None:
        """Where the "done" answer would next wait for the player, as the document works it
        out (None while a step of a playback is on show: Continue then shows the next)."""
        action = self.done_action()
        finder = getattr(self.document, "where_play_stops", None)
        if action is None or finder is None or self.document.showing_step:
            return None
        return finder(action)

    @property
    def continue_button(self) -> QPushButton:
        return self.ensure_widget().continue_button

    # ------------------------------------------------------------ rendering
    def create_widget(self) -> QWidget:
        widget = TurnWidget(self)
        widget.speed_buttons[self._speed].setChecked(True)
        return widget

    def update_widget(self) -> None:
        board = self.document.board
        w = self._widget
        if board is None:
            w.turn_label.setText("No game")
            w.scenario_label.setText("Start or open a game from the File menu.")
            w.phase_label.setText("")
            w.phases.set_phases([], 0)
            w.decision_heading.hide()
            w.decision.setText("")
        else:
            w.turn_label.setText(turn_text(board))
            title = board.get("title", "")
            w.scenario_label.setText(f"Scenario {board.get('scenario', '')}"
                                     + (f": {title}" if title else ""))
            phase = board.get("phase", 0)
            name = board.get("phase_name", "")
            w.phase_label.setText(f"Phase {phase}: {name}" if phase else (name or "Set-up"))
            w.phase_label.setToolTip(w.phase_label.text())
            names = board.get("phases")
            # Without the list of phases the track shows just the current one.
            w.phases.set_phases(names if names else ([name] if phase else []),
                                phase if names else (1 if phase else 0))
            prompt = board.get("prompt")
            outcome = board.get("outcome")
            w.decision_heading.setVisible(prompt is not None or outcome is not None)
            if outcome is not None:
                w.decision_heading.setText("Result")
                w.decision.setText(html.escape(outcome_text(outcome)))
            elif prompt is not None:
                w.decision_heading.setText("Waiting for you")
                w.decision.setText(with_rule(prompt.get("text", ""), prompt.get("rule", "")))
            else:
                w.decision.setText("")
        w.decision.setToolTip(plain_prompt(board))
        setting_up = board is not None and board.get("turn") == 0
        w.speed_note.setVisible(setting_up and board.get("prompt") is not None)
        # Every phase is still to come during set-up: the strip is hidden (its room kept).
        w.phases.setVisible(not setting_up)
        self._apply_continue()

    def _apply_continue(self) -> None:
        board = self.document.board
        if self._override is not None and self._override[0] is board:
            _board, enabled, text, why = self._override
            # the window may leave the reason out: the dock's own words then
            why = why or continue_state(board)[2]
        else:
            self._override = None
            enabled, text, why = continue_state(board, self.where_play_stops())
        button = self._widget.continue_button
        button.setEnabled(enabled)
        button.setText(text)
        button.setToolTip(why)


def with_rule(text: str, rule: str) -> str:
    """Rich text: the words, then the rule ID small and grey. The ID's hyphens do not
    break, so it wraps as a whole instead of leaving "SGE-" at a line's end."""
    tail = (f' <span style="color:#8a8f98; font-size:small">'
            f'{html.escape(rule.replace("-", NO_BREAK_HYPHEN))}</span>' if rule else "")
    return html.escape(text) + tail


#: U+2011: a hyphen a line never breaks at.
NO_BREAK_HYPHEN = "\u2011"


def plain_prompt(board: dict | None) -> str:
    """The whole decision or result in plain words (the label's tooltip)."""
    if board is None:
        return ""
    if board.get("outcome") is not None:
        return outcome_text(board["outcome"])
    prompt = board.get("prompt")
    if prompt is None:
        return ""
    rule = prompt.get("rule", "")
    return prompt.get("text", "") + (f" ({rule})" if rule else "")


def outcome_text(outcome: dict) -> str:
    result = str(outcome.get("result", "")).replace("-", " ")
    parts = [f"{result.capitalize()}"]
    details = [f"{key.upper() if key in ('vp', 'ci') else key} {value}"
               for key, value in outcome.items() if key in ("vp", "ci", "turn")]
    if details:
        parts.append("(" + ", ".join(details) + ")")
    return " ".join(parts)
