"""The timeline bar: move through the whole game, action by action and turn by turn.

A tool bar at the foot of every game window: buttons for a turn back, an action back, an action
forward and a turn forward, a slider over every moment of the game, and where it stands
("Action 37 of 120 · turn 3"). While an earlier moment is on show the bar turns amber and
says so, with **Back to the present** and **Play on from here…** beside it; the map, the panels
and the log all show the game as it was then, read-only (``GameDocument.look_at``).

The bar is hidden until it is wanted, so that a laptop screen keeps its height for the panels:
it comes up by itself while the game is shown as it was (and goes again after), or for good
with Timeline > Show Timeline Bar.

Where several people share the game, the bar moves over the moments every seat may see
(``GameDocument.moments``) and counts them ("Moment 9 of 31"): another side's secret steps
are one step, so their number does not show. While the bar is hidden it is not kept up to
date (in such a game that would replay the whole game at the first change); it catches up
when it is shown.

The commands themselves are the window's (``GameWindow.timeline_actions``: the Timeline
menu and its keys); the bar's buttons trigger them.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy, QSlider, QStyle, QToolBar, QToolButton

#: The bar's colour while the game is shown as it was.
LOOKING_BACK_STYLE = ("#timeline-bar { background: #f3c969; } "
                      "#timeline-bar QLabel { color: #3d2c00; } "
                      "#timeline-present, #timeline-play-on { border: 1px solid #8a6d1f; "
                      "border-radius: 3px; padding: 2px 8px; background: #fbe3a1; "
                      "color: #3d2c00; }")


class TimelineBar(QToolBar):
    """Buttons, a slider and the moment on show; amber while looking back."""

    def __init__(self, window, actions: dict):
        super().__init__("Timeline", window)
        self.setObjectName("timeline-bar")
        self.setMovable(False)
        self.window_ = window
        self.document = window.document
        style = self.style()
        icons = {"turn_back": QStyle.StandardPixmap.SP_MediaSkipBackward,
                 "step_back": QStyle.StandardPixmap.SP_MediaSeekBackward,
                 "step_forward": QStyle.StandardPixmap.SP_MediaSeekForward,
                 "turn_forward": QStyle.StandardPixmap.SP_MediaSkipForward}
        for key, icon in icons.items():
            actions[key].setIcon(style.standardIcon(icon))
        for key in ("turn_back", "step_back"):
            self.addAction(actions[key])
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setObjectName("timeline-slider")
        self.slider.setMinimumWidth(120)
        self.slider.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.slider.setToolTip("Every moment of the game: drag to look back")
        self.slider.valueChanged.connect(self._slid)
        self.addWidget(self.slider)
        for key in ("step_forward", "turn_forward"):
            self.addAction(actions[key])
        self.where = QLabel()
        self.where.setObjectName("timeline-where")
        self.where.setMinimumWidth(self.where.fontMetrics().horizontalAdvance(
            "Moment 9999 of 9999 · turn 99") + 12)
        self.addWidget(self.where)
        self.banner = QLabel("<b>Looking back</b>: the game as it was, read-only")
        self.banner.setObjectName("timeline-banner")
        self.banner_action = self.addWidget(self.banner)
        # Shown while looking back only: the window's commands on buttons of their own (an
        # action hidden in the bar would be hidden in the menu too).
        self.looking_back_items = [self.banner_action]
        for key in ("present", "play_on"):
            button = QToolButton()
            button.setObjectName(f"timeline-{key.replace('_', '-')}")
            button.setDefaultAction(actions[key])
            button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            button.setAutoRaise(False)
            self.looking_back_items.append(self.addWidget(button))
        self.shown_for_looking_back = False
        self.document.changed.connect(self.refresh)
        self.refresh()

    def _slid(self, value: int) -> None:
        doc = self.document
        if doc.session is not None and value != doc.moment_index():
            self.window_.look_at(doc.moments()[value])

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self.refresh()

    def refresh(self) -> None:
        doc = self.document
        has_game = doc.session is not None
        if has_game and (not self.isHidden() or doc.looking_back):
            self._show_where(doc)
        elif not has_game:
            self.slider.setEnabled(False)
            self.where.setText("")
        back = doc.looking_back
        for item in self.looking_back_items:
            item.setVisible(back)
        self.setStyleSheet(LOOKING_BACK_STYLE if back else "")
        if back and self.isHidden():
            self.shown_for_looking_back = True
            self.show()
        elif not back and self.shown_for_looking_back:
            self.shown_for_looking_back = False
            self.hide()

    def _show_where(self, doc) -> None:
        """The slider and the words for the moment on show."""
        total = doc.moment_count()
        self.slider.blockSignals(True)
        self.slider.setRange(0, total)
        self.slider.setValue(doc.moment_index())
        self.slider.blockSignals(False)
        self.slider.setEnabled(total > 0)
        turn = doc.state.get("turn")
        when = f" · turn {turn}" if isinstance(turn, int) and not isinstance(turn, bool) else ""
        words = doc.moment_words()
        self.where.setText(f"{words[0].upper()}{words[1:]}{when}")
