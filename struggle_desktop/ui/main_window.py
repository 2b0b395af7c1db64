"""The main window: the galaxy map in the middle, docks around it, menus with shortcuts.

The window is a thin client (ARCHITECTURE.md section 5). It shows ``document.board`` and turns
the player's gestures into actions for ``GameDocument.perform``:

* dragging a counter answers "move"/"place" prompts (or, in free placement, makes a manual
  adjustment); a drop on an illegal sector returns the counter with the rules' reason;
* clicking a sector answers the prompts that name a sector (attack, recruit, found...);
* the decision dock lists every legal answer in words;
* Continue performs the step's "done" answer, or shows the next step of a playback.

After an action the automated steps the rules ran are played back on the map (step, fast or
instant) from the frames the document collected.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QSettings, Qt, QTimer
from PySide6.QtGui import (QAction, QActionGroup, QCloseEvent, QCursor, QKeySequence,
                           QShortcut)
from PySide6.QtWidgets import (QFileDialog, QLabel, QMainWindow, QMenu, QMessageBox,
                               QStackedWidget)

from struggle_desktop.engine.errors import StruggleError
from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.document import Frame, GameDocument, autosave_path
from struggle_desktop.ui.settings import app_settings

SAVE_FILTER = "Struggle saves (*.sgsave *.json);;All files (*)"
MAX_RECENT = 8
#: Milliseconds between two shown steps at "fast" speed.
FAST_STEP_MS = 450


def sector_of_ref(ref: str) -> int | None:
    if isinstance(ref, str) and ref.startswith("sector:"):
        try:
            return int(ref.split(":", 1)[1])
        except ValueError:
            return None
    return None


class Playback:
    """Shows the frames of the automated steps one after another on the map."""

    def __init__(self, window: "MainWindow"):
        self.window = window
        self.frames: list[Frame] = []
        self.index = -1
        self.timer = QTimer(window)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self.next)

    @property
    def active(self) -> bool:
        return bool(self.frames)

    def start(self, frames: list[Frame], speed: str) -> None:
        self.stop()
        if speed == "instant" or not frames:
            self.window.show_final()
            return
        self.frames = frames
        self.index = -1
        self.speed = speed
        self.next()

    def next(self) -> None:
        if not self.frames:
            return
        self.index += 1
        if self.index >= len(self.frames):
            self.finish()
            return
        frame = self.frames[self.index]
        self.window.show_frame(frame, self.index, len(self.frames))
        if self.speed == "fast":
            self.timer.start(FAST_STEP_MS)

    def finish(self) -> None:
        self.stop()
        self.window.show_final()

    def stop(self) -> None:
        self.timer.stop()
        self.frames = []
        self.index = -1


class MainWindow(QMainWindow):
    def __init__(self, document: GameDocument | None = None, settings: QSettings | None = None):
        super().__init__()
        self.settings = settings or app_settings()
        self.document = document or GameDocument(self)
        self.document.setParent(self)
        self.scene = None        # keep a reference: a collected scene leaves a blank view
        self.sector_menu: QMenu | None = None
        self._acting = False     # inside perform: the playback, not the change signal, draws
        self.free_placement = False
        self.selected_sector = -1
        self.playback = Playback(self)
        self.setObjectName("main-window")
        self.resize(1600, 1000)

        from struggle_desktop.ui.map.view import MapView
        self.view = MapView()
        self.empty_label = QLabel("No game is open.\n\nFile → New Game (Ctrl+N) or "
                                  "File → Open (Ctrl+O)")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.empty_label)
        self.centre.addWidget(self.view)
        self.setCentralWidget(self.centre)
        self.status_text = QLabel()          # messages: what happened, why not
        self.hover_text = QLabel()           # what is under the pointer, kept apart
        self.hover_text.setStyleSheet("color: gray")
        self.statusBar().addWidget(self.status_text, 1)
        self.statusBar().addPermanentWidget(self.hover_text)

        self._build_docks()
        self._build_actions()
        self._build_menus()
        self.document.changed.connect(self.on_document_changed)
        self.document.message.connect(self.show_message)
        self._restore_layout()
        self.on_document_changed()

    # ================================================================== docks
    def _build_docks(self) -> None:
        from struggle_desktop.ui.docks.cup import CupDock, MarkersDock
        from struggle_desktop.ui.docks.dice import DiceDock
        from struggle_desktop.ui.docks.log import LogDock
        from struggle_desktop.ui.docks.recruit import RecruitDock
        from struggle_desktop.ui.docks.stack import StackDock
        from struggle_desktop.ui.docks.tracks import ChaosIndexDock, ResourcesDock
        from struggle_desktop.ui.docks.turn import TurnDock

        doc = self.document
        self.turn_dock = TurnDock(doc, self)
        self.decision_dock = DecisionDock(doc, self)
        self.ci_dock = ChaosIndexDock(doc, self)
        self.resources_dock = ResourcesDock(doc, self)
        self.cup_dock = CupDock(doc, self)
        self.markers_dock = MarkersDock(doc, self)
        self.stack_dock = StackDock(doc, self)
        self.log_dock = LogDock(doc, self)
        self.dice_dock = DiceDock(doc, self)
        self.recruit_dock = RecruitDock(doc, self, perform=self.perform)
        self.docks = [self.turn_dock, self.decision_dock, self.recruit_dock, self.ci_dock,
                      self.resources_dock, self.cup_dock, self.markers_dock, self.stack_dock,
                      self.log_dock, self.dice_dock]
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        self.addDockWidget(left, self.turn_dock)
        self.addDockWidget(left, self.ci_dock)
        self.addDockWidget(left, self.resources_dock)
        self.addDockWidget(right, self.decision_dock)
        self.addDockWidget(right, self.recruit_dock)
        self.tabifyDockWidget(self.decision_dock, self.recruit_dock)
        self.decision_dock.raise_()
        self.addDockWidget(right, self.stack_dock)
        self.addDockWidget(right, self.cup_dock)
        self.addDockWidget(right, self.markers_dock)
        self.tabifyDockWidget(self.cup_dock, self.markers_dock)
        self.cup_dock.raise_()
        self.addDockWidget(bottom, self.log_dock)
        self.addDockWidget(bottom, self.dice_dock)
        self.splitDockWidget(self.log_dock, self.dice_dock, Qt.Orientation.Horizontal)
        self.resizeDocks([self.turn_dock, self.decision_dock], [300, 380],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.log_dock], [210], Qt.Orientation.Vertical)
        self.resizeDocks([self.log_dock, self.dice_dock], [900, 300], Qt.Orientation.Horizontal)

        self.turn_dock.continue_requested.connect(self.continue_game)
        self.turn_dock.speed_changed.connect(self._speed_from_dock)
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)
        self.log_dock.ref_hovered.connect(self._ref_hovered)
        self.log_dock.ref_activated.connect(self._ref_activated)

    # ================================================================== actions and menus
    def _action(self, text: str, slot, shortcut=None, tip: str = "", checkable=False) -> QAction:
        action = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                action.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                action.setShortcut(QKeySequence(shortcut))
        action.setCheckable(checkable)
        if tip:
            action.setStatusTip(tip)
            action.setToolTip(tip)
        action.triggered.connect(slot)
        self.addAction(action)   # shortcuts work even while the menu bar is hidden
        return action

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_new = self._action("&New Game…", self.new_game_dialog, K.New,
                                    "Start a new game")
        self.act_open = self._action("&Open…", self.open_dialog, K.Open, "Open a saved game")
        self.act_save = self._action("&Save", self.save, K.Save, "Save the game")
        self.act_save_as = self._action("Save &As…", self.save_as, "Ctrl+Shift+S",
                                        "Save the game under a new name")
        self.act_export_png = self._action("Export Map as &PNG…", self.export_png, "Ctrl+E",
                                           "Save a picture of the map")
        self.act_export_pdf = self._action("Export Map as P&DF…", self.export_pdf,
                                           "Ctrl+Shift+E", "Save the map as a PDF page")
        self.act_quit = self._action("&Quit", self.close, "Ctrl+Q", "Leave the program")
        self.act_undo = self._action("&Undo", self.undo, K.Undo, "Take back the last action")
        self.act_redo = self._action("&Redo", self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"],
                                     "Do the undone action again")
        self.act_free = self._action("&Free Placement", self.toggle_free_placement, "Ctrl+M",
                                     "Move units by hand outside the rules (logged as manual "
                                     "adjustments)", checkable=True)
        self.act_zoom_in = self._action("Zoom &In", lambda: self.view.zoom_in(),
                                        ["Ctrl++", "Ctrl+="], "Zoom in")
        self.act_zoom_out = self._action("Zoom &Out", lambda: self.view.zoom_out(), "Ctrl+-",
                                         "Zoom out")
        self.act_zoom_reset = self._action("&Whole Map", lambda: self.view.zoom_reset(),
                                           "Ctrl+0", "Show the whole map (default zoom)")
        self.act_fit = self._action("&Fit to Window", lambda: self.view.fit(), "Ctrl+9",
                                    "Fit the map to the window")
        self.act_overview = self._action("&Overview", self.toggle_overview, "Ctrl+Shift+O",
                                         "Show a small overview of the whole map",
                                         checkable=True)
        self.act_reset_layout = self._action("Reset &Layout", self.reset_layout, None,
                                             "Put every panel back where it started")
        self.act_continue = self._action("&Continue", self.continue_game, "Ctrl+Return",
                                         "End this step, or show the next automated step "
                                         "(Space on the map does the same)")
        # Space continues only while the map has the focus: in a list or a text field it
        # must keep selecting and typing, not end the phase.
        self.map_space = QShortcut(QKeySequence("Space"), self.view)
        self.map_space.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.map_space.activated.connect(self.continue_game)
        self.act_skip = self._action("S&kip to the End of the Steps", self.skip_playback,
                                     "Esc", "Show the final position at once")
        self.act_hint = self._action("&Hint", self.show_hint, "Ctrl+H",
                                     "Select what the program's own player would choose")
        self.speed_group = QActionGroup(self)
        self.speed_actions = {}
        for key, label, shortcut in (("step", "Watch Step by Step", "Ctrl+1"),
                                     ("fast", "Watch Fast", "Ctrl+2"),
                                     ("instant", "Instant", "Ctrl+3")):
            act = self._action(label, lambda _=False, k=key: self.set_speed(k), shortcut,
                               "How the Chaos side's automated steps are shown",
                               checkable=True)
            self.speed_group.addAction(act)
            self.speed_actions[key] = act
        self.act_house_rules = self._action("&House Rules…", self.show_house_rules, "F2",
                                            "Every table and rule the project reconstructed")
        self.act_shortcuts = self._action("&Keyboard Shortcuts…", self.show_shortcuts, "F1",
                                          "List every command and its key")
        self.act_about = self._action("&About…", self.show_about, None, "About this program")
        self.set_speed(self.settings.value("watch/speed", "fast"))

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        m.addActions([self.act_new, self.act_open])
        self.recent_menu = QMenu("Open &Recent", self)
        m.addMenu(self.recent_menu)
        m.addSeparator()
        m.addActions([self.act_save, self.act_save_as])
        m.addSeparator()
        m.addActions([self.act_export_png, self.act_export_pdf])
        m.addSeparator()
        m.addAction(self.act_quit)
        m = bar.addMenu("&Edit")
        m.addActions([self.act_undo, self.act_redo])
        m.addSeparator()
        m.addAction(self.act_free)
        m = bar.addMenu("&View")
        m.addActions([self.act_zoom_in, self.act_zoom_out, self.act_zoom_reset, self.act_fit,
                      self.act_overview])
        m.addSeparator()
        panels = m.addMenu("&Panels")
        for dock in self.docks:
            panels.addAction(dock.toggleViewAction())
        m.addAction(self.act_reset_layout)
        m = bar.addMenu("&Game")
        m.addActions([self.act_continue, self.act_skip, self.act_hint])
        m.addSeparator()
        m.addActions(list(self.speed_actions.values()))
        m = bar.addMenu("&Help")
        m.addActions([self.act_house_rules, self.act_shortcuts, self.act_about])
        self._refresh_recent_menu()

    def main_actions(self) -> list[QAction]:
        """Every command of the menus (tests check each has a shortcut or a menu entry)."""
        return [a for a in self.actions() if a.text()]

    # ================================================================== layout persistence
    def _restore_layout(self) -> None:
        self._default_layout = self.saveState()
        geometry = self.settings.value("window/geometry")
        state = self.settings.value("window/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        if state is not None:
            self.restoreState(state)
        for dock in self.docks:
            if not dock.isHidden():
                dock.ensure_widget()

    def save_layout(self) -> None:
        self.settings.setValue("window/geometry", self.saveGeometry())
        self.settings.setValue("window/state", self.saveState())
        self.settings.sync()

    def reset_layout(self) -> None:
        self.restoreState(self._default_layout)
        for dock in self.docks:
            dock.show()

    # ================================================================== showing the game
    def _ensure_scene(self) -> None:
        if self.scene is not None or self.document.layout is None:
            return
        from struggle_desktop.ui.map.scene import GalaxyScene
        self.scene = GalaxyScene(self.document.layout, self)
        self.view.setScene(self.scene)
        self.scene.set_drag_rules(self.drag_targets, self.drag_refusal)
        self.scene.piece_dropped.connect(self._piece_dropped)
        self.scene.drop_refused.connect(lambda _pid, reason: self.show_message(
            f"Not possible: {reason}"))
        self.scene.sector_clicked.connect(self._sector_clicked)
        self.scene.selection_changed.connect(self._sector_selected)
        self.scene.sector_hovered.connect(self._sector_hovered)
        self.centre.setCurrentWidget(self.view)
        QTimer.singleShot(0, self.view.zoom_reset)

    def on_document_changed(self) -> None:
        doc = self.document
        self.setWindowTitle(doc.title)
        has_game = doc.session is not None
        for act in (self.act_save, self.act_save_as, self.act_export_png, self.act_export_pdf,
                    self.act_hint, self.act_continue, self.act_free):
            act.setEnabled(has_game)
        self.act_undo.setEnabled(has_game and doc.undo_reason() is None)
        self.act_undo.setText(f"&Undo {doc.undo_label()}".strip() if doc.undo_label() else "&Undo")
        reason = doc.undo_reason()
        self.act_undo.setToolTip(reason or f"Undo: {doc.undo_label()}")
        self.act_redo.setEnabled(has_game and doc.can_redo())
        if not has_game:
            self.centre.setCurrentWidget(self.empty_label)
            return
        self._ensure_scene()
        self._bring_forward_the_right_panel()
        if not self.playback.active and not self._acting:
            self.show_final()     # (after an action, ``perform`` draws once it has the frames)

    def _bring_forward_the_right_panel(self) -> None:
        """Recruitment and the decision list share a tab: show the one the prompt needs."""
        board = self.document.board
        prompt = board.get("prompt") if board else None
        recruiting = bool(prompt and prompt["kind"] == "recruitment")
        if recruiting != getattr(self, "_recruiting", None):
            (self.recruit_dock if recruiting else self.decision_dock).raise_()
        self._recruiting = recruiting

    def show_final(self) -> None:
        """Draw the current position and make the controls match it."""
        stepping = self.document.showing_step
        self.document.show_step(None)
        board = self.document.board
        if board is None or self.scene is None:
            return
        if stepping:
            self._refresh_tracks()
        self.scene.clear_emphasis()
        self.scene.show_board(board)
        self.stack_dock.show_sector(self.selected_sector)
        self.turn_dock.clear_continue_override()   # the dock words Continue from the board

    def _refresh_tracks(self) -> None:
        """The panels that follow a playback step by step (tracks, cup, turn)."""
        for dock in (self.turn_dock, self.ci_dock, self.resources_dock, self.cup_dock,
                     self.markers_dock, self.stack_dock):
            dock.refresh()

    def show_frame(self, frame: Frame, index: int, total: int) -> None:
        self.document.show_step(frame.board)
        self._refresh_tracks()
        self.scene.show_board(frame.board)
        refs = [sector_of_ref(r) for r in frame.entry.get("refs", [])]
        sectors = [n for n in refs if n is not None]
        arrow = (sectors[0], sectors[1]) if frame.entry["kind"] == "move" and len(sectors) >= 2 else None
        self.scene.emphasize(sectors, arrow=arrow, text=frame.entry["text"])
        self.show_message(f"[{index + 1}/{total}] {frame.entry['text']}")
        if self.playback.speed == "step":
            self.turn_dock.set_continue(True, f"Next step ({index + 1} of {total})", "")
        else:
            self.turn_dock.set_continue(True, "Show the end now", "")

    def _done_action(self) -> dict | None:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if not prompt:
            return None
        for entry in prompt["actions"]:
            if entry["action"].get("verb") == "done":
                return entry["action"]
        return None

    # ================================================================== acting
    def perform(self, action: dict) -> bool:
        """Every gesture ends here: attacks first show their odds, then the document acts."""
        if self.playback.active:
            self.playback.finish()
        if action.get("verb") == "attack":
            from struggle_desktop.ui.dialogs.combat import ask_attack
            if not ask_attack(self, self.document, action):
                return False
        self._acting = True
        try:
            result = self.document.perform(action)
        finally:
            self._acting = False
        if not result.ok:
            return False
        self.dice_dock.show_entries(result.new_entries)
        self.playback.start(result.frames, self.speed)
        if self.document.board and self.document.board.get("outcome"):
            outcome = self.document.board["outcome"]
            self.show_message(f"The game is over: {outcome.get('result')} "
                              f"(VP {outcome.get('vp')}, CI {outcome.get('ci')})")
        return True

    def continue_game(self) -> None:
        if self.playback.active:
            if self.playback.speed == "step":
                self.playback.next()
            else:
                self.playback.finish()
            return
        done = self._done_action()
        if done is None:
            board = self.document.board
            prompt = board.get("prompt") if board else None
            self.show_message("Decide first: " + prompt["text"] if prompt else "Nothing to continue")
            return
        self.perform(done)

    def skip_playback(self) -> None:
        if self.playback.active:
            self.playback.finish()

    def show_hint(self) -> None:
        action = self.document.hint()
        if action is None:
            self.show_message("No decision is waiting")
            return
        self.decision_dock.show()
        self.decision_dock.raise_()
        self.decision_dock.select_action(action)
        self.show_message(f"Hint: {self.document.describe(action)}")

    # ------------------------------------------------------------------ the map's gestures
    def drag_targets(self, piece_id: str) -> dict:
        """Where ``piece_id`` may be dropped now: sector -> the action a drop there performs."""
        board = self.document.board
        if board is None or board.get("outcome") or self.playback.active:
            return {}
        piece = board["pieces"].get(piece_id)
        if piece is None:
            return {}
        if self.free_placement:
            if piece["kind"] != "unit" or piece.get("force"):
                return {}
            return {n: {"verb": "adjust", "unit": piece_id, "to": n}
                    for n in board["sectors"] if n != piece["sector"]}
        prompt = board.get("prompt")
        targets = {}
        for entry in prompt["actions"] if prompt else ():
            a = entry["action"]
            if a.get("unit") == piece_id and a["verb"] in ("move", "place"):
                targets[a.get("to", a.get("at"))] = a
            elif (piece["kind"] == "force" and a["verb"] == "alliance_move"
                  and prompt.get("actor", {}).get("force") == piece.get("force")):
                targets[a["to"]] = a
        return targets

    def drag_refusal(self, piece_id: str, sector: int) -> str:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if self.playback.active:
            return "wait until the automated steps have been shown (Esc skips them)"
        if prompt is None:
            return "the game is not waiting for a move"
        if self.free_placement:
            return self.document.check({"verb": "adjust", "unit": piece_id, "to": sector}) or \
                "that counter cannot be adjusted by hand"
        verbs = {e["action"]["verb"] for e in prompt["actions"]}
        verb = "move" if "move" in verbs else ("place" if "place" in verbs else None)
        if verb is None:
            return f"counters cannot be moved now: {prompt['text']}"
        key = "to" if verb == "move" else "at"
        reason = self.document.check({"verb": verb, "unit": piece_id, key: sector})
        return reason or "that move is not possible now"

    def _piece_dropped(self, piece_id: str, sector: int) -> None:
        action = self.drag_targets(piece_id).get(sector)
        if action is None:
            self.show_message(f"Not possible: {self.drag_refusal(piece_id, sector)}")
            self.show_final()
            return
        if not self.perform(action):
            self.show_final()   # put the counter back where the rules keep it

    def sector_actions(self, n: int) -> list[dict]:
        """The prompt's answers that name sector ``n`` and are not piece moves."""
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if not prompt or self.playback.active:
            return []
        out = []
        for entry in prompt["actions"]:
            a = entry["action"]
            if a["verb"] in ("move", "place", "adjust"):
                continue
            if n in (a.get("at"), a.get("sector"), a.get("to") if a["verb"] != "move" else None):
                out.append(entry)
        return out

    def _sector_clicked(self, n: int) -> None:
        entries = self.sector_actions(n)
        if not entries:
            return
        if len(entries) == 1:
            self.perform(entries[0]["action"])
            return
        # Several answers name this sector (a military or a morphogenetic attack...): offer
        # them in a menu at the pointer. Not modal: the game stays responsive behind it.
        self.sector_menu = QMenu(self)
        for entry in entries:
            act = self.sector_menu.addAction(entry["label"])
            act.setData(entry["action"])
        self.sector_menu.triggered.connect(lambda chosen: self.perform(chosen.data()))
        self.sector_menu.popup(QCursor.pos())

    def _sector_selected(self, n: int) -> None:
        self.selected_sector = n
        self.stack_dock.show_sector(n)

    def _sector_hovered(self, n: int) -> None:
        board = self.document.board
        if board and n in board.get("sectors", {}):
            sec = board["sectors"][n]
            self.hover_text.setText(sec["tooltip"].split("\n")[0])
        else:
            self.hover_text.clear()

    def _ref_hovered(self, ref: str) -> None:
        if self.scene is None:
            return
        n = sector_of_ref(ref) or self._sector_of_piece(ref)
        self.scene.clear_highlight("hover")
        if n is not None:
            self.scene.highlight([n], "hover")

    def _ref_activated(self, ref: str) -> None:
        n = sector_of_ref(ref) or self._sector_of_piece(ref)
        if n is not None and self.scene is not None:
            self.view.centre_on_sector(n)
            self.scene.select_sector(n)

    def _sector_of_piece(self, ref: str) -> int | None:
        board = self.document.board
        piece = board["pieces"].get(ref) if board else None
        return piece["sector"] if piece else None

    # ------------------------------------------------------------------ modes
    def toggle_free_placement(self, on: bool) -> None:
        self.free_placement = bool(on)
        self.act_free.setChecked(self.free_placement)
        self.show_message("Free placement: drag any unit anywhere; each move is logged as a "
                          "manual adjustment" if on else "Free placement off: the rules apply")

    def set_speed(self, speed: str) -> None:
        speed = speed if speed in ("step", "fast", "instant") else "fast"
        self.speed = speed
        # Frames of the automated steps cost a board each: collect them only to show them.
        self.document.watch = speed != "instant"
        self.speed_actions[speed].setChecked(True)
        self.settings.setValue("watch/speed", speed)
        if hasattr(self, "turn_dock") and self.turn_dock.speed != speed:
            self.turn_dock.set_speed(speed)

    def _speed_from_dock(self, speed: str) -> None:
        if speed != self.speed:
            self.set_speed(speed)

    def toggle_overview(self, on: bool) -> None:
        if not hasattr(self, "overview"):
            from struggle_desktop.ui.map.overview import OverviewView
            self.overview = OverviewView(self.view, self.centre)
        self.overview.setVisible(bool(on) and self.scene is not None)
        if on:
            self.overview.move(self.centre.width() - self.overview.width() - 12, 12)
            self.overview.raise_()

    # ================================================================== files
    def new_game(self, game_id: str, scenario: str, seed: int, options: dict | None = None) -> bool:
        if not self.maybe_keep_changes():
            return False
        try:
            self.document.new_game(game_id, scenario, seed, options)
        except StruggleError as exc:
            QMessageBox.warning(self, "Cannot start the game", str(exc))
            return False
        self.selected_sector = -1
        self.show_message(f"New game: scenario {scenario}, seed {seed}")
        return True

    def open_file(self, path: Path | str) -> bool:
        if not self.maybe_keep_changes():
            return False
        try:
            note = self.document.open(path)
        except StruggleError as exc:
            QMessageBox.warning(self, "Cannot open the game", str(exc))
            return False
        if Path(path) != autosave_path():
            self.add_recent(Path(path))
        self.show_message(note)
        return True

    def resume_autosave(self, path: Path) -> bool:
        """Continue the game of a run that ended abruptly; it becomes an unsaved game again."""
        if not self.open_file(path):
            return False
        self.document.path = None
        self.document.dirty = True
        self.document.changed.emit()
        self.show_message("Resumed the game from its autosave")
        return True

    def new_game_dialog(self) -> None:
        from struggle_desktop.ui.dialogs.new_game import choose_new_game
        choice = choose_new_game(self, self.recent_files())
        if not choice:
            return
        if choice["kind"] == "open":
            self.open_file(choice["path"])
        else:
            self.new_game(choice["game"], choice["scenario"], choice["seed"], choice["options"])

    def open_dialog(self) -> None:
        start = str(self.recent_files()[0].parent) if self.recent_files() else str(Path.home())
        path, _ = QFileDialog.getOpenFileName(self, "Open a saved game", start, SAVE_FILTER)
        if path:
            self.open_file(path)

    def save(self) -> bool:
        if self.document.path is None:
            return self.save_as()
        return self._save_to(self.document.path)

    def save_as(self) -> bool:
        if self.document.session is None:
            return False
        start = str(self.document.path or Path.home() / "struggle.sgsave")
        path, _ = QFileDialog.getSaveFileName(self, "Save the game", start, SAVE_FILTER)
        if not path:
            return False
        if not Path(path).suffix:
            path += ".sgsave"
        return self._save_to(Path(path))

    def _save_to(self, path: Path) -> bool:
        try:
            saved = self.document.save(path)
        except (StruggleError, OSError) as exc:
            QMessageBox.warning(self, "Cannot save", f"{path}: {exc}")
            return False
        self.add_recent(saved)
        self.show_message(f"Saved {saved}")
        return True

    def maybe_keep_changes(self) -> bool:
        """Ask before a game with unsaved changes is replaced. The autosave keeps it anyway."""
        doc = self.document
        if doc.session is None or not doc.dirty or not self.isVisible():
            return True
        answer = QMessageBox.question(
            self, "Unsaved game", "Save the current game first?\n(It is also kept in the "
            "autosave until the next game starts.)",
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return True

    # ------------------------------------------------------------------ recent files
    def recent_files(self) -> list[Path]:
        value = self.settings.value("files/recent", []) or []
        if isinstance(value, str):
            value = [value]
        return [Path(p) for p in value if Path(p).exists()]

    def add_recent(self, path: Path) -> None:
        paths = [str(Path(path).resolve())] + [str(p) for p in self.recent_files()
                                               if p.resolve() != Path(path).resolve()]
        self.settings.setValue("files/recent", paths[:MAX_RECENT])
        self._refresh_recent_menu()

    def _refresh_recent_menu(self) -> None:
        self.recent_menu.clear()
        files = self.recent_files()
        for k, path in enumerate(files, start=1):
            act = self.recent_menu.addAction(f"&{k} {path.name}")
            act.setToolTip(str(path))
            act.triggered.connect(lambda _=False, p=path: self.open_file(p))
        self.recent_menu.setEnabled(bool(files))

    # ------------------------------------------------------------------ export
    EXPORTS = {"png": ("map.png", "PNG pictures (*.png)"),
               "pdf": ("map.pdf", "PDF documents (*.pdf)")}

    def export_png(self) -> None:
        self._export("png")

    def export_pdf(self) -> None:
        self._export("pdf")

    def _export(self, kind: str) -> None:
        if self.scene is None:
            return
        name, file_filter = self.EXPORTS[kind]
        path, _ = QFileDialog.getSaveFileName(self, "Export the map", str(Path.home() / name),
                                              file_filter)
        if not path:
            return
        from struggle_desktop.ui.map import render
        try:
            if kind == "png":
                if not render.export_png(self.scene, path):
                    raise OSError("the picture could not be written")
            else:
                render.export_pdf(self.scene, path)
        except OSError as exc:
            QMessageBox.warning(self, "Cannot export the map", f"{path}: {exc}")
            return
        self.show_message(f"Map saved as {path}")

    # ------------------------------------------------------------------ undo
    def undo(self) -> None:
        if self.playback.active:
            self.playback.finish()
        reason = self.document.undo()
        if reason is not None:
            self.show_message(f"Cannot undo: {reason}")

    def redo(self) -> None:
        reason = self.document.redo()
        if reason is not None:
            self.show_message(f"Cannot redo: {reason}")

    # ------------------------------------------------------------------ help
    def show_house_rules(self) -> None:
        if self.document.game is None:
            from struggle_desktop.games import get_game
            game = get_game("struggle")
        else:
            game = self.document.game
        from struggle_desktop.ui.dialogs.house_rules import HouseRulesDialog
        HouseRulesDialog(game, self).exec()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        rows = []
        for act in self.main_actions():
            keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText)
                             for s in act.shortcuts())
            rows.append((act.text().replace("&", ""), keys))
        return rows

    def show_shortcuts(self) -> None:
        text = "".join(f"<tr><td>{name}</td><td><b>{keys or '—'}</b></td></tr>"
                       for name, keys in self.shortcut_rows())
        QMessageBox.information(self, "Keyboard shortcuts", f"<table>{text}</table>")

    def show_about(self) -> None:
        try:
            from struggle_desktop.ui.dialogs.about import AboutDialog
        except ImportError:
            QMessageBox.about(self, "About", "struggle_desktop")
            return
        AboutDialog(self).exec()

    # ------------------------------------------------------------------ status and closing
    def show_message(self, text: str) -> None:
        self.status_text.setText(text)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_keep_changes():
            event.ignore()
            return
        self.playback.stop()
        self.save_layout()
        self.settings.setValue("session/clean_exit", True)
        self.settings.sync()
        event.accept()


def crashed_game_waiting(settings: QSettings) -> Path | None:
    """The autosave of a run that did not end cleanly, if any."""
    clean = settings.value("session/clean_exit", True)
    clean = clean if isinstance(clean, bool) else str(clean).lower() == "true"
    path = autosave_path()
    if not clean and path.exists():
        return path
    return None


def mark_running(settings: QSettings) -> None:
    settings.setValue("session/clean_exit", False)
    settings.sync()

