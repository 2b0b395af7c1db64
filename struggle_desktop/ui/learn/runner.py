"""The guide runner: one step at a time, a callout beside the thing the step is about.

The runner never plays for the person. It starts the guide's game (its scenario and seed, so
the dice tell the story the steps describe), then listens to the document's ``changed`` signal:
when the actions performed since the step began include the one the step asks for, the next
step comes; any other action gets the step's hint (the game took it as usual; Undo or Leave
are offered). A move the game refuses is refused as always (status bar) and the callout adds
the hint. Back goes back one step and takes back, by the game's ordinary Undo, the actions
performed since that step began; an action Undo refuses (a die was rolled) stays, and the
callout says why. Restart starts the guide's game afresh, Leave closes the callout and the game
goes on as an ordinary one.

A step that *narrates* tells the other side's moves one at a time while the window plays them
back at Step speed: each in the game's own words (its log lines), pointing at where it
happened; Next (or the window's own Continue) shows the next, and after the last the guide goes
on. The guide sets Step speed for it (a step early: frames are collected only when watched)
and gives the player's own speed back after it. A window that can be narrated has the signals ``watch_step_shown(dict)`` (``index``,
``total``, ``lines``, ``rules``, ``sectors`` of the step on show) and ``watch_over()``, a
``playback`` with ``active``, ``speed``/``set_speed`` and ``continue_game``; in any other
window a narrating step is read like any other.

Help > Learn to Play with several guides installed offers the one of the game on screen in a
small chooser that lists each guide's title and summary (``choose_guide``); the New Game
dialog's button starts the guide of the game selected there.

The callout sits beside its target without covering it; beside a sector it stays over the map
(the map scrolls to make room), so the panels' lists and buttons stay free. A step may also
have words for a window its action opens (``dialog``: the odds window of an attack): they are
put at the top of that window while it is open.

Targets are named by stable means, so a guide survives a change of layout: a panel or widget
by its objectName, a sector by the game's number for it, or a spot on a game's own board by a
name the window resolves (``board: "hex:0304"``; the window's ``guide_target_rect(name)``
returns its rectangle in window coordinates, brought into view, or None).
"""

from __future__ import annotations

import html

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import (QApplication, QDialog, QDialogButtonBox, QDockWidget, QFrame,
                               QHBoxLayout, QLabel, QListWidget, QListWidgetItem, QPushButton,
                               QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.style import nobreak
from struggle_desktop.ui.learn.loader import Guide, Step

#: Room kept round a sector's centre when pointing at it (window pixels).
SECTOR_HALF = 28
CALLOUT_WIDTH = 340
CHOOSER_WIDTH = 460
#: A narrated move shows at most this many of its log lines.
MOVE_LINES = 3
GAP = 10


class Callout(QFrame):
    """The step's box: title, text with its rule links, a hint line, and the step buttons."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("learn-callout")
        self.setFrameShape(QFrame.Shape.Box)
        self.setStyleSheet("#learn-callout { background: #fffbe6; border: 2px solid #c07000;"
                           " border-radius: 6px; } QLabel { color: #202020; }")
        self.setFixedWidth(CALLOUT_WIDTH)
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setObjectName("learn-heading")
        font = self.heading.font()
        font.setBold(True)
        self.heading.setFont(font)
        self.heading.setWordWrap(True)
        self.body = QLabel()
        self.body.setObjectName("learn-text")
        self.body.setWordWrap(True)
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.hint = QLabel()
        self.hint.setObjectName("learn-hint")
        self.hint.setWordWrap(True)
        self.hint.setStyleSheet("color: #a03000")
        self.hint.hide()
        buttons = QHBoxLayout()
        self.back = QPushButton("Back")
        self.back.setObjectName("learn-back")
        self.restart = QPushButton("Restart")
        self.restart.setObjectName("learn-restart")
        self.leave = QPushButton("Leave")
        self.leave.setObjectName("learn-leave")
        self.leave.setToolTip("Close the guide; the game goes on as an ordinary game")
        self.next = QPushButton("Next")
        self.next.setObjectName("learn-next")
        for button in (self.back, self.restart, self.leave, self.next):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)   # Space/Enter stay the game's
            buttons.addWidget(button)
        layout.addWidget(self.heading)
        layout.addWidget(self.body)
        layout.addWidget(self.hint)
        layout.addLayout(buttons)

    def fit(self) -> None:
        """As tall as its wrapped text needs at its fixed width (``adjustSize`` took a
        label's unwrapped height, and a long step lost its last lines)."""
        height = self.layout().totalHeightForWidth(CALLOUT_WIDTH)
        self.resize(CALLOUT_WIDTH, max(height, self.layout().totalMinimumSize().height()))


class Marker(QWidget):
    """A frame drawn round the target; mouse events go through it to what it marks."""

    def __init__(self, parent: QWidget):
        super().__init__(parent)
        self.setObjectName("learn-marker")
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground)
        self.setStyleSheet("#learn-marker { border: 3px solid #e07000; border-radius: 6px;"
                           " background: transparent; }")


class GuideRunner(QObject):
    """Runs ``guide`` in ``window`` (a game window of the guide's game)."""

    step_changed = Signal(int)
    finished = Signal()

    def __init__(self, window, guide: Guide, rules_link=None):
        super().__init__(window)
        self.window = window
        self.guide = guide
        self.index = -1
        self.active = False
        self._starts: list[int] = []      # actions performed when each step began
        self.callout = Callout(window)
        self.marker = Marker(window)
        self.callout.hide()
        self.marker.hide()
        self.callout.back.clicked.connect(self.back)
        self.callout.restart.clicked.connect(self.restart)
        self.callout.leave.clicked.connect(self.leave)
        self.callout.next.clicked.connect(self.next_step)
        self.callout.body.linkActivated.connect(self._open_rule)
        self._placing = False
        self._session = None        # the game the guide started
        self._rewinding = False     # Back is undoing: the game's changes are its own
        self._told: dict | None = None    # the other side's move a narrating step tells now
        self._speed_before: str | None = None   # the player's watching speed, given back
        self._stepping = False      # the guide set Step speed for a narration
        self._watching_windows = False    # the step's words for a window it opens
        window.installEventFilter(self)
        for name, slot in (("watch_step_shown", self._watch_step),
                           ("watch_over", self._watch_over)):
            signal = getattr(window, name, None)
            if signal is not None:
                signal.connect(slot)
        view = getattr(window, "view", None)
        if view is not None:        # a map that scrolls: the marker follows its sector
            view.horizontalScrollBar().valueChanged.connect(self._follow)
            view.verticalScrollBar().valueChanged.connect(self._follow)

    # ------------------------------------------------------------------ the guide's course
    @property
    def document(self):
        return self.window.document

    @property
    def step(self) -> Step | None:
        return self.guide.steps[self.index] if 0 <= self.index < len(self.guide.steps) else None

    def start(self) -> bool:
        """Start the guide's game and show the first step."""
        if not self.window.new_game(self.guide.game, self.guide.scenario, self.guide.seed,
                                    dict(self.guide.options)):
            return False
        if not self.active:
            self.document.changed.connect(self._changed)
            self.document.message.connect(self._message)
        if self._speed_before is None:
            self._speed_before = getattr(self.window, "speed", None)
        self.active = True
        self._session = self.document.session
        self._starts = []
        self._show(0)
        return True

    def restart(self) -> None:
        """The guide's game afresh. The game the guide started is its own: it is replaced
        without the question about unsaved changes (it is in the autosaves anyway); a game
        opened meanwhile is asked about as always."""
        if self.document.session is self._session:
            self.document.dirty = False
        self.start()

    def leave(self) -> None:
        """Close the guide; the game stays and goes on as an ordinary game."""
        if self.active:
            self.document.changed.disconnect(self._changed)
            self.document.message.disconnect(self._message)
            self._give_speed_back()
        if self._watching_windows:
            QApplication.instance().removeEventFilter(self)
            self._watching_windows = False
        self.active = False
        self.callout.hide()
        self.marker.hide()
        self.finished.emit()

    def back(self) -> None:
        """One step back, and the actions performed since that step began taken back by the
        game's ordinary Undo, last first. Undo refuses an action that rolled a die or drew
        (the rules' dice are not thrown again): that one and those before it stay, and the
        callout says so (Restart begins the guide afresh)."""
        if self.index <= 0:
            return
        back_to = self.index - 1
        refused = ""
        self._rewinding = True
        try:
            while len(self._performed()) > self._starts[back_to]:
                refused = self.document.undo_reason() or ""
                if refused:
                    break
                undo = getattr(self.window, "undo", None) or self.document.undo
                undo()          # (the window's own Undo finishes a playback on show first)
        finally:
            self._rewinding = False
        # The steps begun after what is left of the game are begun afresh when reached again.
        count = len(self._performed())
        self._starts = [start for start in self._starts[:self.index + 1] if start <= count]
        self._show(back_to)
        if refused:
            self._say_hint(f"Back cannot take this back: {refused}. It stays done; Next goes "
                           "on, and Restart begins the guide afresh.", with_step_hint=False)

    def next_step(self) -> None:
        """Next (a reading step, or a step already done when it is shown again); Finish.
        While a narrating step shows the other side's moves, Next shows the next move."""
        step = self.step
        playback = getattr(self.window, "playback", None)
        if step is not None and step.narrate and playback is not None and playback.active:
            self.window.continue_game()          # the next move, or the end of them
            return
        if self.index + 1 >= len(self.guide.steps):
            self.leave()
        else:
            self._show(self.index + 1)

    def _performed(self) -> list[dict]:
        """The person's actions so far. Where the program plays a seat (a Noble Houses or
        Battles program house), its actions are left out: they are not the step's move, and
        its own "done" must not end a step that waits for the person's."""
        session = self.document.session
        if session is None:
            return []
        people = getattr(self.window, "humans", None)
        mine = set(people()) if people is not None else None
        return [entry["action"] for entry in session.actions
                if mine is None or entry["role"] in mine]

    def _done(self, index: int) -> bool:
        """Whether the action step ``index`` asks for was performed since it began."""
        step = self.guide.steps[index]
        if step.wanted is None or index >= len(self._starts):
            return False
        return any(step.matches(a) for a in self._performed()[self._starts[index]:])

    def _show(self, index: int) -> None:
        self.index = index
        if index == len(self._starts):
            self._starts.append(len(self._performed()))
        self.callout.hint.hide()
        self._told = None
        steps = self.guide.steps
        if any(s.narrate for s in steps[index:index + 2]):
            # The moves to narrate are played back at Step speed, one per Next; the frames
            # of a playback are collected only at Step or Fast, so this is set a step early.
            self._stepping = self._watch_at("step") or self._stepping
        elif self._stepping:
            self._give_speed_back()
        if steps[index].narrate:
            QTimer.singleShot(0, self._narration_started)
        # A step whose action opens a window with words for it watches for that window.
        watching = steps[index].dialog is not None
        if watching != self._watching_windows:
            app = QApplication.instance()
            (app.installEventFilter if watching else app.removeEventFilter)(self)
            self._watching_windows = watching
        self.step_changed.emit(index)
        self.place()

    def _give_speed_back(self) -> None:
        """The player's own watching speed again, after the Step speed the guide set for a
        narration (unless the player has chosen another speed meanwhile)."""
        if self._stepping and getattr(self.window, "speed", None) == "step":
            self._watch_at(self._speed_before)
        self._stepping = False

    def _watch_at(self, speed: str | None) -> bool:
        """Watch the other side at ``speed``; whether the window's speed changed."""
        if (speed is not None and getattr(self.window, "speed", speed) != speed
                and hasattr(self.window, "set_speed")):
            self.window.set_speed(speed)
            return True
        return False

    # ------------------------------------------------------------------ narrating
    def _narration_started(self) -> None:
        """After the action that began a narrating step: its moves are on show (the step
        tells them) or there are none (the callout says so)."""
        if self.active and self.step is not None and self.step.narrate:
            self.place()

    def _watch_step(self, told: dict) -> None:
        """The window shows one of the other side's moves."""
        if self.active and self.step is not None and self.step.narrate and not self._rewinding:
            self._told = dict(told)
            self.place()

    def _watch_over(self) -> None:
        """The window has shown the last of the moves (or skipped to the end): a narrating
        step is over and the guide goes on."""
        if self.active and self.step is not None and self.step.narrate and not self._rewinding:
            self._told = None
            self.next_step()

    # ------------------------------------------------------------------ watching the game
    def _changed(self) -> None:
        step = self.step
        if not self.active or step is None or self._rewinding:
            return
        frontier = self.index == len(self._starts) - 1
        if frontier and step.wanted is not None:
            performed = self._performed()
            if len(performed) < self._starts[self.index]:     # undone past the step's start
                self._starts[self.index] = len(performed)
            if self._done(self.index):
                self.next_step()
                return
            if len(performed) > self._starts[self.index]:
                self._say_hint("That was another move than this step asks for (Undo, Ctrl+Z, "
                               "takes it back; or Leave the guide and play on).")
                return
        self.place()

    def _message(self, text: str) -> None:
        if self.active and text.startswith("Not possible") and self.step is not None:
            self._say_hint("")

    def _say_hint(self, lead: str, with_step_hint: bool = True) -> None:
        step = self.step
        words = " ".join(w for w in (lead, step.hint if step and with_step_hint else "") if w)
        self.callout.hint.setText(words or "Not this way: read the step again.")
        self.callout.hint.show()
        self.callout.fit()
        self.place()

    def _open_rule(self, link: str) -> None:
        """A rule ID's link opens the house-rules page searched for it."""
        from struggle_desktop.ui.dialogs.house_rules import HouseRulesDialog
        dialog = HouseRulesDialog(self.document.game, self.window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.set_search(link.removeprefix("rule:"))
        dialog.show()

    # ------------------------------------------------------------------ where things are
    def target_rect(self, step: Step | None = None) -> QRect | None:
        """The target of ``step`` (the current one) in window coordinates, brought into
        view (a tabbed panel raised, the map centred on a sector); None if it is missing."""
        step = step or self.step
        if step is None:
            return None
        if step is self.step and self._told and self._told.get("sectors"):
            # A narrated move: where it happened (a move: where it went).
            return self.rect_of({"sector": self._told["sectors"][-1]})
        return self.rect_of(step.target)

    def rect_of(self, target: dict) -> QRect | None:
        """A target (``widget``, ``board`` or ``sector``) in window coordinates, brought into
        view; None if it is missing or hidden."""
        if "widget" in target:
            widget = self.find_widget(target["widget"])
            if widget is None:
                return None
            dock = widget if isinstance(widget, QDockWidget) else None
            parent = widget
            while dock is None and parent is not None:
                parent = parent.parentWidget()
                dock = parent if isinstance(parent, QDockWidget) else None
            if dock is not None and (not dock.isVisible() or dock.visibleRegion().isEmpty()):
                dock.show()
                dock.raise_()
            if not widget.isVisible():
                return None
            return QRect(widget.mapTo(self.window, QPoint(0, 0)), widget.size())
        if "board" in target:
            # A spot on a game's own board (a hex, a region, a counter): the window knows
            # where it is drawn and brings it into view.
            resolve = getattr(self.window, "guide_target_rect", None)
            return resolve(target["board"]) if resolve is not None else None
        view = getattr(self.window, "view", None)
        scene = getattr(self.window, "scene", None)
        if view is None or scene is None:
            return None
        n = target["sector"]
        try:
            centre = scene.sector_center(n)
        except (KeyError, IndexError):
            return None
        shown = view.visible_area()
        inner = shown.adjusted(shown.width() * 0.15, shown.height() * 0.15,
                               -shown.width() * 0.15, -shown.height() * 0.15)
        if not inner.contains(centre):      # off the map's view, or at its very edge
            view.centre_on_sector(n)
        point = view.viewport().mapTo(self.window, view.mapFromScene(centre))
        return QRect(point.x() - SECTOR_HALF, point.y() - SECTOR_HALF,
                     2 * SECTOR_HALF, 2 * SECTOR_HALF)

    def find_widget(self, name: str) -> QWidget | None:
        if self.window.objectName() == name:
            return self.window
        return self.window.findChild(QWidget, name)

    def place(self) -> None:
        """Fill the callout for the current step and put it beside its target, never over it."""
        step = self.step
        if not self.active or step is None:
            return
        self._placing = True
        try:
            self._place(step)
        finally:
            self._placing = False

    def _place(self, step: Step) -> None:
        total = len(self.guide.steps)
        done = self._done(self.index)
        self.callout.heading.setText(f"{self.guide.title} — step {self.index + 1} of {total}"
                                     + (f": {step.title}" if step.title else ""))
        rules = list(step.rules)
        body = html.escape(step.text)
        told = self._told if step.narrate else None
        playback = getattr(self.window, "playback", None)
        moving = step.narrate and playback is not None and playback.active
        if told:
            said = list(told.get("lines", ()))
            if len(said) > MOVE_LINES:      # the first and the last; the Log has them all
                said = [said[0], f"… {len(said) - 2} more in the Log panel …", said[-1]]
            lines = "<br>".join(html.escape(line) for line in said)
            body = (f'<span style="color:#606060">{body}</span><br>'
                    f'<b>Move {told.get("index", 0) + 1} of {told.get("total", 1)}:</b> {lines}')
            rules += [r for r in told.get("rules", ()) if r not in rules]
        elif step.narrate and not moving:
            body += ("<br><i>No move of the other side is on show now; the Log panel lists "
                     "every one.</i>")
        # (A rule ID's hyphens do not break: it wraps as a whole, never as "SGE-".)
        links = ", ".join(f'<a href="rule:{r}">{html.escape(nobreak(r))}</a>'
                          for r in rules[:8])
        if links:
            body += f'<br><span style="color:#606060">Rules: {links}</span>'
        if done:
            body += "<br><i>Done already: Next goes on.</i>"
        self.callout.body.setText(body)
        last = self.index + 1 == total
        self.callout.next.setVisible(step.wanted is None or done)
        more = told is not None and told.get("index", 0) + 1 < told.get("total", 1)
        self.callout.next.setText("Next move" if moving and more
                                  else "Finish" if last else "Next")
        self.callout.back.setEnabled(self.index > 0)
        self.callout.fit()
        target = self.target_rect(step)
        if target is None:
            self.marker.hide()
            self.callout.move(self.window.width() - self.callout.width() - GAP, 60)
        else:
            where = self.beside(target, self.callout.size())
            sector = self._sector_of(step)
            if (sector is not None and not self._over_map(QRect(where, self.callout.size()))
                    and self._make_room(sector, target)):
                # The map moved so that the box fits over it beside the sector, leaving the
                # panels (the Decision list, Do it) free.
                target = self.target_rect(step)
                where = self.beside(target, self.callout.size())
            self.marker.setGeometry(target.adjusted(-4, -4, 4, 4))
            self.marker.show()
            self.marker.raise_()
            self.callout.move(where)
        self.callout.show()
        self.callout.raise_()

    def _sector_of(self, step: Step) -> int | None:
        if step is self.step and self._told and self._told.get("sectors"):
            return self._told["sectors"][-1]
        return step.target.get("sector")

    def _over_map(self, box: QRect) -> bool:
        centre = self.window.centralWidget()
        return centre is None or QRect(centre.mapTo(self.window, QPoint(0, 0)),
                                       centre.size()).contains(box)

    def _make_room(self, n: int, target: QRect) -> bool:
        """Scroll the map so that sector ``n`` sits near the side of the view it is on,
        with room for the callout on the other; False if the view is too narrow for that."""
        view = getattr(self.window, "view", None)
        if view is None:
            return False
        width = view.viewport().width()
        edge = int(width * 0.15) + SECTOR_HALF + 4        # still well inside the view
        if width - edge - SECTOR_HALF < CALLOUT_WIDTH + 2 * GAP + 8:
            return False
        now = view.viewport().mapFrom(self.window, target.center())
        goal = edge if now.x() < width / 2 else width - edge
        middle = view.viewport().rect().center()
        view.centerOn(view.mapToScene(middle + QPoint(now.x() - goal, 0)))
        return True

    def beside(self, target: QRect, size) -> QPoint:
        """A place for a box of ``size`` next to ``target``: right, left, below or above it,
        the first that fits without covering it, over the map if it can (the panels' buttons
        stay free), else anywhere in the window."""
        whole = self.window.rect().adjusted(GAP, GAP, -GAP, -GAP)
        centre = self.window.centralWidget()
        areas = [whole]
        if centre is not None and centre.isVisible():
            areas.insert(0, QRect(centre.mapTo(self.window, QPoint(0, 0)), centre.size())
                         .adjusted(GAP, GAP, -GAP, -GAP).intersected(whole))
        w, h = size.width(), size.height()
        keep_clear = target.adjusted(-4, -4, 4, 4)
        for area in areas:
            ty = min(max(target.top(), area.top()), area.bottom() - h)
            tx = min(max(target.left(), area.left()), area.right() - w)
            for x, y in ((target.right() + GAP + 4, ty), (target.left() - GAP - 4 - w, ty),
                         (tx, target.bottom() + GAP + 4), (tx, target.top() - GAP - 4 - h)):
                box = QRect(x, y, w, h)
                if area.contains(box) and not box.intersects(keep_clear):
                    return QPoint(x, y)
        # A target as large as the map itself: the box goes in the map's top right corner.
        area = areas[0]
        return QPoint(area.right() - w, area.top() + 40)

    def _follow(self) -> None:
        """The map scrolled (a playback step, the player): keep pointing at the sector."""
        step = self.step
        if (self.active and step is not None and ("sector" in step.target or self._told)
                and not self._placing):
            self.place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt's name)
        if watched is self.window and event.type() == QEvent.Type.Resize and self.active:
            self.place()
        elif (event.type() == QEvent.Type.Show and self._watching_windows and self.active
              and isinstance(watched, QWidget) and watched.isWindow()):
            self._say_in_window(watched)
        return False

    def _say_in_window(self, window: QWidget) -> None:
        """The step's words at the top of the window its action opened (the odds window):
        the guide goes on inside it."""
        step = self.step
        said = step.dialog if step is not None else None
        if (said is None or window.objectName() != said["widget"]
                or window.findChild(QLabel, "learn-dialog-note") is not None
                or window.layout() is None):
            return
        note = QLabel(f"<b>Guide:</b> {html.escape(said['text'])}")
        note.setObjectName("learn-dialog-note")
        note.setWordWrap(True)
        note.setStyleSheet("#learn-dialog-note { background: #fffbe6; color: #202020;"
                           " border: 2px solid #c07000; border-radius: 6px; padding: 3px 6px; }")
        layout = window.layout()
        if hasattr(layout, "insertWidget"):
            layout.insertWidget(0, note)
        else:
            layout.addWidget(note)
        note.show()             # (the window is already on show: a new child is not)
        # The window grows by the note's height; the rest keeps the room it had.
        room = window.width() - layout.contentsMargins().left() - layout.contentsMargins().right()
        window.resize(window.width(),
                      window.height() + note.heightForWidth(room) + max(layout.spacing(), 0))


class GuideChooser(QDialog):
    """Help > Learn to Play when several guides are installed: each guide's title and
    summary, the one of the game on screen chosen to begin with."""

    def __init__(self, guides: list[Guide], preferred_game: str | None, parent=None):
        super().__init__(parent)
        self.setObjectName("learn-chooser")
        self.setWindowTitle("Learn to Play")
        self.guides = list(guides)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("Choose a guided game:"))
        self.list = QListWidget()
        self.list.setObjectName("learn-guides")
        self.list.setFixedWidth(CHOOSER_WIDTH)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        room = CHOOSER_WIDTH - 2 * self.list.frameWidth() - 24    # (a scroll bar's room)
        for guide in self.guides:
            # The title in bold over its summary, wrapped: one row per guide.
            label = QLabel(f"<b>{html.escape(guide.title)}</b><br>{html.escape(guide.summary)}")
            label.setWordWrap(True)
            label.setContentsMargins(6, 4, 6, 6)
            label.setFixedWidth(room)
            label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
            item = QListWidgetItem()
            item.setToolTip(guide.summary or guide.title)
            item.setSizeHint(QSize(room, label.heightForWidth(room)))
            self.list.addItem(item)
            self.list.setItemWidget(item, label)
        first = next((k for k, g in enumerate(self.guides) if g.game == preferred_game), 0)
        self.list.setCurrentRow(first)
        self.list.itemActivated.connect(lambda _item: self.accept())
        layout.addWidget(self.list)
        buttons = QDialogButtonBox()
        self.start_button = buttons.addButton("&Start the guide",
                                              QDialogButtonBox.ButtonRole.AcceptRole)
        self.start_button.setObjectName("learn-start")
        buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def entries(self) -> list[str]:
        """Each guide's row as its words read ("title" then "summary")."""
        return [self.list.itemWidget(self.list.item(k)).text()
                for k in range(self.list.count())]

    def chosen(self) -> Guide | None:
        row = self.list.currentRow()
        return self.guides[row] if 0 <= row < len(self.guides) else None


def choose_guide(window, guides: list[Guide], preferred_game: str | None) -> Guide | None:
    """The guide the player picks in the chooser (None after Cancel)."""
    dialog = GuideChooser(guides, preferred_game, window)
    try:
        return dialog.chosen() if dialog.exec() == QDialog.DialogCode.Accepted else None
    finally:
        dialog.deleteLater()


def learn_to_play(window, game_id: str | None = None) -> GuideRunner | None:
    """Start a guide in the window of its game; None, after saying why, if none starts.

    With ``game_id`` (the New Game dialog's choice) the guide of that game starts at once.
    Without it (Help > Learn to Play) the only guide starts, or, with several, the chooser
    offers them, the guide of the window's game first. A game without a guide gets the
    chooser too."""
    from PySide6.QtWidgets import QMessageBox

    from struggle_desktop.engine.errors import StruggleError
    from struggle_desktop.ui.learn.loader import available_guides

    try:
        guides = available_guides()
    except StruggleError as exc:
        QMessageBox.warning(window, "Cannot start the guide", str(exc))
        return None
    if not guides:
        QMessageBox.information(window, "Learn to Play", "No guided game is installed.")
        return None
    wanted = game_id if isinstance(game_id, str) else None
    guide = next((g for g in guides if g.game == wanted), None) if wanted else None
    if guide is None:
        if len(guides) == 1:
            guide = guides[0]
        else:
            guide = choose_guide(window, guides, wanted or getattr(window, "game_id", None))
            if guide is None:
                return None
    target = window
    if getattr(window, "game_id", None) != guide.game:
        if not window.maybe_keep_changes():
            return None
        try:
            target = window.window_for(guide.game)
        except StruggleError as exc:
            QMessageBox.warning(window, "Cannot start the guide", str(exc))
            return None
    old = getattr(target, "learn_runner", None)
    if old is not None and old.active:
        old.leave()
    runner = GuideRunner(target, guide)
    target.learn_runner = runner        # the window keeps its guide alive
    return runner if runner.start() else None
