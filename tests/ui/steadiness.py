"""The harness of the steady-table checks (``test_table_steady``): a played game per window,
walked through the window as a player answers, checked at every step.

It runs in a child process whose offscreen screen is the laptop's 1366x768 (the screen size is
fixed when the application starts: ``conftest.offscreen_platform``); ``main`` plays every walk
and prints one JSON object: per walk, the kinds of question met and the problems of each check:

* ``still``: before each answer every enabled control in view (buttons, spin and combo boxes,
  rows of lists) is noted with its place on screen and its meaning; after the answer, a control
  whose middle now holds another enabled control of another meaning has moved under the hand,
  unless its panel was replaced with a visible change of title (another title, another panel
  brought forward); a list row still offered must be where it was;
* ``width``: a layout saved with the panels squeezed comes back no narrower than their minimum;
* ``reach``: the answer lists and the push buttons of every panel on show are whole in view
  (not clipped by the window, a scroll area, a splitter or a dock) at every step, and for the
  Struggle window with the timeline bar, the Forecast or the History open too;
* ``why``: a refused key (the shortcut of any greyed menu command: Undo after a roll or with
  nothing to take back, Redo with nothing to do again...) puts a reason on screen, in the
  status bar or as the greyed entry's tooltip;
* ``text``: the board's words at the first view are at least 9 px tall, and the board zooms
  with Ctrl+wheel and with Ctrl++ / Ctrl+-.
"""

from __future__ import annotations

import json
import sys
import tempfile

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

MIN_TEXT_PX = 9.0
MAX_PROBLEMS = 8          # per walk and check: enough to name the defect


def main() -> None:
    from struggle_desktop.ui.app import make_application

    app = make_application()
    results = {}
    only = sys.argv[1:] if len(sys.argv) > 1 else None
    for walk in WALKS:
        if only and walk[0] not in only:
            continue
        results[walk[0]] = Walk(app, *walk).run()
    print(json.dumps(results))


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
        scale = item.deviceTransform(view.viewportTransform()).m22()
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


# ------------------------------------------------------------------ a walk
class Walk:
    def __init__(self, app, name, game_id, scenario, seed, options, most):
        from PySide6.QtCore import QSettings

        from struggle_desktop.ui.screens import window_class

        self.app, self.name, self.most = app, name, most
        self.ini = tempfile.mkstemp(suffix=".ini")[1]
        self.settings = QSettings(self.ini, QSettings.Format.IniFormat)
        self.window = window_class(game_id)(settings=self.settings)
        self.window.show()
        self.window.activateWindow()
        self.started = self.window.new_game(game_id, scenario, seed, dict(options))
        if hasattr(self.window, "set_speed"):
            self.window.set_speed("instant")
        program = getattr(self.window, "program", None)
        if program is not None:
            program.step_ms = 10 ** 8   # the walk steps the program itself, in a fixed order
        self.problems = {"still": [], "width": [], "reach": [], "why": [], "text": []}
        self.kinds: list[str] = []

    def settle(self):
        for _ in range(10):
            self.app.processEvents()

    def note(self, check: str, text: str) -> None:
        if len(self.problems[check]) < MAX_PROBLEMS and text not in self.problems[check]:
            self.problems[check].append(text)

    def run(self) -> dict:
        from struggle_desktop.engine.rng import Rng

        win, doc = self.window, self.window.document
        self.settle()
        self.first_view()
        for n in range(self.most * 3):
            self.settle()
            overlay = getattr(win, "overlay", None)
            if overlay is not None and overlay.isVisible():
                win.take_seat()
                continue
            role = doc.waiting_role
            if role is None or len(self.kinds) >= self.most:
                break
            program = getattr(win, "program", None)
            if program is not None and role != doc.seat and program.to_move():
                program.step()
                continue
            kind = doc.state["pending"].get("kind", "?")
            self.kinds.append(kind)
            step = f"answer {len(self.kinds)} ({kind})"
            self.in_reach(step)
            if len(self.kinds) % 10 == 1:
                self.says_why(step)
            before = controls(win)
            action = doc.game.choose_action(doc.state, role, "bot", Rng.from_seed(n, 3))
            if action.get("verb") == "attack" and self.name == "struggle":
                doc.perform(action)      # the odds dialog waits for a click otherwise
            elif not win.perform(action):
                doc.perform(action, role=role)
            self.settle()
            for problem in moved_under_hand(win, before, controls(win)):
                self.note("still", f"after {step}: {problem}")
        self.saved_widths()
        doc.dirty = False
        win.close()
        return {"started": bool(self.started), "kinds": sorted(set(self.kinds)),
                "answers": len(self.kinds), **self.problems}

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

    def says_why(self, step: str) -> None:
        """Every greyed menu command with a key, pressed: a reason must show."""
        from PySide6.QtTest import QTest

        from PySide6.QtGui import QAction

        win = self.window
        greyed = [a for a in win.findChildren(QAction)
                  if not a.isEnabled() and not a.shortcut().isEmpty() and a.text()]
        for action in greyed:
            win.show_message("")
            win.activateWindow()
            QTest.keySequence(win, action.shortcut())
            self.settle()
            said = win.status_text.text()
            tip = action.toolTip()
            plain = action.text().replace("&", "").replace("…", "").replace("...", "")
            tip_says = bool(tip) and tip.replace("…", "").replace("...", "") != plain
            if not said and not tip_says:
                self.note("why", f"at {step}: greyed {plain!r} "
                          f"({action.shortcut().toString()}) refused, nothing said")

    def saved_widths(self) -> None:
        """Squeeze the panels, save, open the window again: no panel narrower than its
        minimum."""
        from PySide6.QtCore import Qt

        win = self.window
        docks = [d for d in win.docks if d.isVisible() and not d.isFloating()]
        win.resizeDocks(docks, [1] * len(docks), Qt.Orientation.Horizontal)
        self.settle()
        win.save_layout()
        self.settings.sync()
        again = type(win)(settings=self.settings)
        again.show()
        self.settle()
        for dock in again.docks:
            if dock.isVisible() and not dock.isFloating() and \
                    dock.width() < dock.minimumSizeHint().width():
                self.note("width", f"{dock.objectName()} came back {dock.width()} px wide, "
                          f"under its minimum {dock.minimumSizeHint().width()}")
        again.close()


if __name__ == "__main__":
    main()
