"""The harness of the steady-table checks (``test_table_steady``): a played game per window,
walked through the window as a player answers, checked at every step.

It runs in a child process whose offscreen screen is the one the test gives (the screen size
is fixed when the application starts: ``conftest.offscreen_platform``); ``main`` plays every
walk and prints one JSON object: per walk, the kinds of question met, the program's seats,
and the problems of each check:

* ``still``: before each answer every enabled control in view (buttons, spin and combo boxes,
  rows of lists) is noted with its place on screen and its meaning; after the answer, a control
  whose middle now holds another enabled control of another meaning has moved under the hand,
  unless its panel was replaced with a visible change of title (another title, another panel
  brought forward); a list row still offered must be where it was;
* ``width``: no docked panel on show narrows from one answer to the next (in a window of the
  same width: the Freedom panels did, before they held their widths), nor shows less than its
  content needs (the content's minimum size hint, up to ``PANEL_SHARE`` of the window, beyond
  which a panel scrolls), after every answer and when a layout saved with the panels
  squeezed is opened again on the same game;
* ``reach``: the answer lists and the push buttons of every panel on show are whole in view
  (not clipped by the window, a scroll area, a splitter or a dock) at every step, and for the
  Struggle window with the timeline bar, the Forecast or the History open too;
* ``why``: at the first question of each kind and every tenth answer, each refused gesture
  puts a reason on screen (in the status bar, or as the greyed entry's or button's tooltip)
  and plays nothing: the key of every greyed menu command (Undo after a roll...), a drop on
  the board where the counter may not go and a click on each greyed button
  (``steady_refusals``); ``why-pickup``: the same for a counter that may not move at all now;
* ``text``: the board's words at the first view are at least 9 px tall on screen (times the
  screen's scale factor), and the board zooms with Ctrl+wheel and with Ctrl++ / Ctrl+-.

Every answer of the seated player is ``answer`` (the program's bot policy drawn from a seed of
the number of actions), and the program's seats play as in the window: ``reference_kinds``
plays the same game headless with the same choices, so the test knows every kind of question
the walk must meet.
"""

from __future__ import annotations

import json
import sys
import tempfile

from tests.ui import steady_refusals

#: The walks: name, game, scenario, seed, options, most answers.
WALKS = [
    ("struggle", "struggle", "3", 1, {}, 140),
    ("battles", "battles", "civil-war", 1, {"blue_player": "human", "red_player": "bot"}, 120),
    ("nobles", "nobles", "standard", 1,
     {"houses": 2, "obstacles": 3, "jump_stations": 1, "empty_systems": 1,
      "stargate_pairs": 1, "seat1": "human", "seat2": "ai"}, 90),
    ("freedom-a1", "freedom", "a1", 1, {}, 60),
    ("freedom-b1", "freedom", "b1", 1, {}, 60),
    ("freedom-c1", "freedom", "c1", 1, {}, 80),
]

CHECKS = ["still", "width", "reach", "why", "why-pickup", "why-click", "text"]
MIN_TEXT_PX = 9.0
MAX_PROBLEMS = 8          # per walk and check: enough to name the defect
#: A panel widens for its content up to this share of its window; beyond, it scrolls
#: (ui/docks/base.py: the board keeps its room).
PANEL_SHARE = 0.35
#: Every this many answers the refused gestures are tried (each costs a redraw or two).
WHY_EVERY = 10


def main() -> None:
    """``python -m tests.ui.steadiness [--short] [walk...]``: the walks named (default all),
    with a third of their answers under ``--short``; one JSON line on stdout."""
    from struggle_desktop.ui.app import make_application

    app = make_application()
    args = sys.argv[1:]
    share = 3 if "--short" in args else 1
    only = [a for a in args if not a.startswith("--")]
    results = {}
    for name, *rest, most in WALKS:
        if not only or name in only:
            results[name] = Walk(app, name, *rest, most // share).run()
    print(json.dumps(results))


# ------------------------------------------------------------------ the answers
def answer(session, role: str) -> dict:
    """The walk's answer for the seated ``role``: the bot's choice, drawn from a seed of the
    number of actions so far (so a headless game makes the same choices)."""
    from struggle_desktop.engine.rng import Rng

    return session.choose(role, "bot", Rng.from_seed(len(session.actions), 3))


def program_answer(session, role: str, level: str) -> dict:
    """The program player's choice, as the window's (``GameDocument.program_action`` where one
    person plays against the program)."""
    from struggle_desktop.engine.rng import Rng

    return session.choose(role, level, Rng.from_seed(len(session.actions), 7))


def reference_kinds(game_id, scenario, seed, options, most, programs: dict) -> list[str]:
    """The kinds of question a headless game of the walk asks the seated player(s) in its
    first ``most`` answers, the roles of ``programs`` (role -> level) played by the program."""
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    game = get_game(game_id)
    session = Session.new(game, scenario, seed, dict(options))
    kinds: list[str] = []
    while session.state["pending"] and game.outcome(session.state) is None and len(kinds) < most:
        role = session.state["pending"]["role"]
        if role in programs:
            session.perform(role, program_answer(session, role, programs[role]))
            continue
        kinds.append(session.state["pending"]["kind"])
        session.perform(role, answer(session, role))
    return sorted(set(kinds))


# ------------------------------------------------------------------ controls and their meaning
def meaning(widget, row_text: str | None = None) -> str:
    """What a click there does, in the player's terms."""
    if row_text is not None:
        return f"row {row_text!r}"
    # A box's click opens its choices (its value is not the command): it is named by what
    # it chooses; a button by its words.
    text = widget.text() if hasattr(widget, "text") and not hasattr(widget, "stepBy") else ""
    if text:
        return f"{type(widget).__name__} {text!r}"
    return f"{type(widget).__name__} {widget.toolTip() or widget.objectName()!r}"


def panel_of(window, widget):
    """The panel (dock) holding ``widget``, or the window for the centre."""
    for dock in window.docks:
        if dock.isAncestorOf(widget):
            return dock
    return window


def panel_title(window, widget) -> str:
    panel = panel_of(window, widget)
    if panel is window:
        return "centre"
    return f"{panel.objectName()}:{panel.windowTitle()}"


def in_view(widget) -> bool:
    return (widget.isVisible() and widget.isEnabled()
            and widget.visibleRegion().contains(widget.rect().center()))


def controls(window) -> list[dict]:
    """Every enabled control in view: place (global), meaning, panel title, widget."""
    from PySide6.QtCore import QRect
    from PySide6.QtWidgets import (QAbstractButton, QAbstractItemView, QAbstractSpinBox,
                                   QComboBox, QListWidget, QTreeWidget)

    found = []
    for kind in (QAbstractButton, QAbstractSpinBox, QComboBox):
        for widget in window.findChildren(kind):
            if not in_view(widget) or widget.window() is not window:
                continue
            if isinstance(widget.parentWidget(), QAbstractItemView) or \
                    type(widget).__name__ == "QTabBar":
                continue
            found.append({"rect": QRect(widget.mapToGlobal(widget.rect().topLeft()),
                                        widget.size()),
                          "meaning": meaning(widget), "panel": panel_title(window, widget),
                          "widget": widget, "row": None})
    for view in window.findChildren(QAbstractItemView):
        if not in_view(view) or not isinstance(view, (QListWidget, QTreeWidget)):
            continue
        viewport = view.viewport()
        for item in _items(view):
            if not (item.flags() & item.flags().ItemIsEnabled) or item.isHidden():
                continue
            rect = view.visualItemRect(item)
            if rect.isEmpty() or not viewport.rect().contains(rect.center()):
                continue
            text = item.text(0) if isinstance(view, QTreeWidget) else item.text()
            found.append({"rect": QRect(viewport.mapToGlobal(rect.topLeft()), rect.size()),
                          "meaning": meaning(view, text), "panel": panel_title(window, view),
                          "widget": view, "row": text})
    return found


def _items(view):
    from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItemIterator

    if isinstance(view, QTreeWidget):
        it = QTreeWidgetItemIterator(view)
        while it.value():
            yield it.value()
            it += 1
    else:
        for i in range(view.count()):
            yield view.item(i)


def moved_under_hand(window, before: list[dict], after: list[dict]) -> list[str]:
    """The controls of ``before`` whose middle now holds an enabled control of another
    meaning (its panel kept its title), and the list rows still offered elsewhere."""
    problems = []
    for old in before:
        centre = old["rect"].center()
        now = [c for c in after if c["rect"].contains(centre) and c["row"] is None] or \
              [c for c in after if c["rect"].contains(centre)]
        if not now:
            continue
        new = now[0]
        if new["panel"] != old["panel"]:
            continue              # another panel, or the panel retitled: a visible change
        if old["row"] is not None:
            # The answers of a new question are another list; a row still offered must
            # stay where it was.
            same = [c for c in after if c["widget"] is old["widget"] and c["row"] == old["row"]]
            if same and not any(c["rect"].contains(centre) for c in same):
                problems.append(f"{old['meaning']} in {old['panel']} moved from "
                                f"{old['rect'].getRect()} to {same[0]['rect'].getRect()}")
            continue
        if new["widget"] is old["widget"]:
            continue              # the same control (Continue naming its next stop, a box)
        if new["meaning"] != old["meaning"]:
            problems.append(f"{old['meaning']} in {old['panel']} at {old['rect'].getRect()} "
                            f"became {new['meaning']}")
    return problems


# ------------------------------------------------------------------ in reach
def clipped(window, widget) -> bool:
    """Not whole in view: part of it is cut by the window or an ancestor's viewport."""
    region = widget.visibleRegion()
    if region.boundingRect() != widget.rect():
        return True
    corner = widget.mapTo(window, widget.rect().bottomRight())
    return not window.rect().contains(corner)


def main_controls(window) -> list[tuple[str, object]]:
    """The commands a player needs in reach: the answer lists and the push buttons of every
    panel on show (not behind another panel's tab), Continue and the centre's buttons."""
    from PySide6.QtWidgets import QAbstractItemView, QPushButton

    found = []
    for panel in [*window.docks, window.centralWidget()]:
        if panel is None or not panel.isVisible() or panel.visibleRegion().isEmpty():
            continue
        for button in panel.findChildren(QPushButton):
            if button.isVisible() and button.isEnabled() and button.window() is window:
                found.append((f"{panel.objectName() or 'centre'}: {meaning(button)}", button))
        decision = getattr(window, "decision_dock", None)
        if panel is decision:
            for view in panel.findChildren(QAbstractItemView):
                if view.isVisible():
                    found.append((f"{panel.objectName()}: the answer list", view))
    return found


# ------------------------------------------------------------------ board text
def board_view(window):
    from PySide6.QtWidgets import QGraphicsView

    views = [v for v in window.findChildren(QGraphicsView)
             if v.isVisible() and v.window() is window and v.scene() is not None]
    return max(views, key=lambda v: v.width() * v.height()) if views else None


def small_text(view) -> list[str]:
    """The board's words drawn less than ``MIN_TEXT_PX`` tall on screen."""
    from PySide6.QtWidgets import QGraphicsSimpleTextItem, QGraphicsTextItem

    small = []
    for item in view.scene().items():
        if not isinstance(item, (QGraphicsTextItem, QGraphicsSimpleTextItem)):
            continue
        if not item.isVisible() or not item.sceneBoundingRect().intersects(
                view.mapToScene(view.viewport().rect()).boundingRect()):
            continue
        text = item.toPlainText() if isinstance(item, QGraphicsTextItem) else item.text()
        if not text.strip():
            continue
        font = item.font()
        pixels = font.pixelSize() if font.pixelSize() > 0 else font.pointSizeF() * 96 / 72
        # On screen: the view's scale, times the screen's scale factor (a 150 % desktop draws
        # a logical pixel with 1.5 of the screen's).
        scale = item.deviceTransform(view.viewportTransform()).m22() * view.devicePixelRatioF()
        if pixels * abs(scale) < MIN_TEXT_PX:
            small.append(f"{text.strip()[:20]!r} {pixels * abs(scale):.1f} px")
    return small


def zooms(app, window, view) -> list[str]:
    from PySide6.QtCore import QPoint, QPointF, Qt
    from PySide6.QtGui import QKeySequence, QWheelEvent
    from PySide6.QtTest import QTest

    problems = []
    ctrl = Qt.KeyboardModifier.ControlModifier

    def scale():
        return round(view.transform().m11(), 4)

    start = scale()
    at = QPointF(view.viewport().rect().center())
    event = QWheelEvent(at, QPointF(view.viewport().mapToGlobal(at.toPoint())), QPoint(0, 0),
                        QPoint(0, 120), Qt.MouseButton.NoButton, ctrl,
                        Qt.ScrollPhase.NoScrollPhase, False)
    app.sendEvent(view.viewport(), event)
    app.processEvents()
    if scale() <= start:
        problems.append(f"Ctrl+wheel did not zoom in ({start} -> {scale()})")
    window.activateWindow()
    for key, larger in (("Ctrl++", True), ("Ctrl+-", False)):
        was = scale()
        QTest.keySequence(window, QKeySequence(key))
        app.processEvents()
        if (scale() > was) != larger or scale() == was:
            problems.append(f"{key} did not zoom ({was} -> {scale()})")
    return problems


# ------------------------------------------------------------------ panel widths
def squeezed_panels(window) -> list[str]:
    """The docked panels on show narrower than their content needs: the width the content's
    minimum size hint asks (up to ``PANEL_SHARE`` of the window) against the width its
    scroll area shows (the rest would be cut, or scrolled sideways)."""
    from PySide6.QtWidgets import QScrollArea

    cap = int(PANEL_SHARE * window.width())
    found = []
    for dock in window.docks:
        holder = dock.widget()
        if not dock.isVisible() or dock.isFloating() or holder is None or \
                dock.visibleRegion().isEmpty():
            continue
        content, room = holder, holder.width()
        if isinstance(holder, QScrollArea) and holder.widget() is not None:
            content, room = holder.widget(), holder.viewport().width()
        need = min(content.minimumSizeHint().width(), cap)
        if room < need:
            found.append(f"{dock.objectName()} shows {room} px of the {need} px its "
                         "content needs")
    return found


def panel_widths(window) -> dict[str, int]:
    """The width of every docked panel on show, and of the window."""
    return {"window": window.width(),
            **{dock.objectName(): dock.width() for dock in window.docks
               if dock.isVisible() and not dock.isFloating()
               and not dock.visibleRegion().isEmpty()}}


def narrowed(before: dict[str, int], after: dict[str, int]) -> list[str]:
    """The panels on show before and after an answer that came back narrower (in a window of
    the same width): a panel holds the widest it has needed, so nothing in it moves."""
    if before["window"] != after["window"]:
        return []
    return [f"{name} narrowed from {before[name]} to {after[name]} px"
            for name in before if name != "window" and after.get(name, 10 ** 6)
            < before[name] - 1]


# ------------------------------------------------------------------ a walk
class Walk:
    def __init__(self, app, name, game_id, scenario, seed, options, most):
        from PySide6.QtCore import QSettings

        from struggle_desktop.ui.screens import window_class

        self.app, self.name, self.most = app, name, most
        self.folder = tempfile.TemporaryDirectory()     # the layout and the saved game
        self.settings = QSettings(f"{self.folder.name}/layout.ini", QSettings.Format.IniFormat)
        self.window = window_class(game_id)(settings=self.settings)
        self.window.show()
        self.window.activateWindow()
        self.started = self.window.new_game(game_id, scenario, seed, dict(options))
        if hasattr(self.window, "set_speed"):
            self.window.set_speed("instant")
        program = getattr(self.window, "program", None)
        if program is not None:
            program.step_ms = 10 ** 8   # the walk steps the program itself, in a fixed order
        # The seats the program plays, and at which level (the headless reference plays
        # them the same way).
        self.programs = {role: program.level_of(role) for role in self.window.document.game.roles
                         if program is not None and program.level_of(role)}
        self.problems = {check: [] for check in CHECKS}
        for check in ("why-pickup", "why-click"):      # of a board, where it has them
            if check not in steady_refusals.BOARD_CHECKS.get(game_id, ()):
                self.problems[check] = None
        self.tried: dict[str, int] = {}       # refused gestures made: check and gesture
        self.kinds: list[str] = []

    def settle(self):
        for _ in range(10):
            self.app.processEvents()

    def note(self, check: str, text: str) -> None:
        if len(self.problems[check]) < MAX_PROBLEMS and text not in self.problems[check]:
            self.problems[check].append(text)

    def run(self) -> dict:
        win, doc = self.window, self.window.document
        self.settle()
        self.first_view()
        for _ in range(self.most * 3):
            self.settle()
            overlay = getattr(win, "overlay", None)
            if overlay is not None and overlay.isVisible():
                win.take_seat()
                continue
            role = doc.waiting_role
            if role is None or len(self.kinds) >= self.most:
                break
            if role in self.programs and win.program.to_move():
                win.program.step()
                continue
            kind = doc.state["pending"].get("kind", "?")
            step = f"answer {len(self.kinds) + 1} ({kind})"
            self.in_reach(step)
            sample = len(self.kinds) % WHY_EVERY == 0 or kind not in self.kinds
            if sample and self.says_why(step):
                continue               # a refused gesture was played (noted): look again
            self.kinds.append(kind)
            before, widths = controls(win), panel_widths(win)
            action = answer(doc.session, role)
            if action.get("verb") == "attack" and self.name == "struggle":
                doc.perform(action)      # the odds dialog waits for a click otherwise
            elif not win.perform(action):
                doc.perform(action, role=role)
            self.settle()
            for problem in moved_under_hand(win, before, controls(win)):
                self.note("still", f"after {step}: {problem}")
            for problem in squeezed_panels(win) + narrowed(widths, panel_widths(win)):
                self.note("width", f"after {step}: {problem}")
        self.saved_widths()
        for check in ("why-pickup", "why-click"):   # none of these gestures in this walk
            if self.problems[check] == [] and not any(k.startswith(f"{check}:")
                                                      for k in self.tried):
                self.problems[check] = None
        doc.dirty = False
        win.close()
        self.folder.cleanup()
        return {"started": bool(self.started), "kinds": sorted(set(self.kinds)),
                "answers": len(self.kinds), "programs": self.programs, "tried": self.tried,
                **self.problems}

    def first_view(self) -> None:
        view = board_view(self.window)
        if view is None:
            self.problems["text"] = None       # no board in this window
            return
        for text in small_text(view)[:MAX_PROBLEMS]:
            self.note("text", f"at the first view: {text}")
        for problem in zooms(self.app, self.window, view):
            self.note("text", problem)
        for act in ("zoom_reset", "fit_to_window"):
            if hasattr(view, act):
                getattr(view, act)()
                break

    def in_reach(self, step: str) -> None:
        win = self.window
        openers = [("", None)]
        if len(self.kinds) % 15 == 1 and hasattr(win, "timeline_bar") and self.name == "struggle":
            openers += [(" with the timeline bar", win.timeline_bar)]
            openers += [(f" with {d.windowTitle()} open", d)
                        for d in (getattr(win, "forecast_dock", None),
                                  getattr(win, "history_dock", None)) if d is not None]
        for words, extra in openers:
            if extra is not None:
                if extra is getattr(win, "timeline_bar", None):
                    extra.show()
                else:
                    win.show_panel(extra)
                self.settle()
            for label, widget in main_controls(win):
                if clipped(win, widget):
                    self.note("reach", f"at {step}{words}: {label} is cut "
                              f"({widget.visibleRegion().boundingRect().getRect()} of "
                              f"{widget.rect().getRect()})")
            if extra is not None:
                extra.hide()
                self.settle()

    def says_why(self, step: str) -> bool:
        """Each refused gesture: the key of every greyed menu command, a refused drop on the
        board and a click on each greyed button (``steady_refusals``) must put a reason on
        screen and play nothing. True if one was played."""
        from PySide6.QtGui import QAction
        from PySide6.QtTest import QTest

        win = self.window
        played = len(win.document.session.actions)
        for action in [a for a in win.findChildren(QAction)
                       if not a.isEnabled() and not a.shortcut().isEmpty() and a.text()]:
            words = f"greyed {plain(action.text())!r} ({action.shortcut().toString()})"
            self.refused(step, words, lambda a=action: QTest.keySequence(win, a.shortcut()),
                         action, "why")
        for check, words, gesture, greyed in steady_refusals.samples(win):
            self.refused(step, words, gesture, greyed, check)
        return len(win.document.session.actions) != played

    def refused(self, step: str, words: str, gesture, greyed, check: str) -> None:
        """Make ``gesture``: nothing may be played, and the status bar (or the tooltip of
        ``greyed``, the entry or button refused) must say why."""
        from PySide6.QtGui import QAction

        win, doc = self.window, self.window.document
        played = len(doc.session.actions)
        win.show_message("")
        win.activateWindow()
        gesture()
        self.settle()
        what = f"{check}: " + ("drop" if greyed is None else
                               "key" if isinstance(greyed, QAction) else "button")
        self.tried[what] = self.tried.get(what, 0) + 1
        if len(doc.session.actions) != played:
            self.note(check, f"at {step}: {words} was played, not refused")
            return
        tip = greyed.toolTip() if greyed is not None else ""
        tip_says = bool(tip) and plain(tip) != plain(greyed.text())
        if not win.status_text.text() and not tip_says:
            self.note(check, f"at {step}: {words} refused, nothing said")
        if hasattr(win, "show_final"):
            win.show_final()         # the board as the rules keep it, after a drag

    def saved_widths(self) -> None:
        """Squeeze the panels, save the layout and the game, open both in a new window: no
        panel comes back narrower than its content needs."""
        from PySide6.QtCore import Qt

        win = self.window
        docks = [d for d in win.docks if d.isVisible() and not d.isFloating()]
        win.resizeDocks(docks, [1] * len(docks), Qt.Orientation.Horizontal)
        self.settle()
        win.save_layout()
        self.settings.sync()
        path = win.document.save(f"{self.folder.name}/game.json")
        again = type(win)(settings=self.settings)
        again.show()
        self.settle()
        shown = again.open_file(path) or again
        self.settle()
        if getattr(shown, "overlay", None) is not None and shown.overlay.isVisible():
            shown.take_seat()
            self.settle()
        for problem in squeezed_panels(shown):
            self.note("width", f"opened again with the squeezed layout: {problem}")
        shown.document.dirty = False
        shown.close()


def plain(text: str) -> str:
    """A command's or tooltip's words without the accelerator mark and the ellipsis."""
    return text.replace("&", "").replace("…", "").replace("...", "").strip()


if __name__ == "__main__":
    main()
