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
from PySide6.QtGui import QAction, QActionGroup, QCursor, QKeySequence, QShortcut
from PySide6.QtWidgets import QFileDialog, QMenu, QMessageBox

from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.document import Frame, GameDocument
from struggle_desktop.ui.fit import available_geometry
from struggle_desktop.ui.shell import GameWindow
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


#: Screens less tall than this (available pixels) get the compact layout of the panels.
COMPACT_BELOW = 900


class MainWindow(GameWindow):
    """The Struggle screen: the galaxy map in the middle and the Struggle panels."""

    game_id = "struggle"
    layout_key = "window"

    def __init__(self, document: GameDocument | None = None, settings: QSettings | None = None):
        self.scene = None        # keep a reference: a collected scene leaves a blank view
        self.sector_menu: QMenu | None = None
        self._acting = False     # inside perform: the playback, not the change signal, draws
        self.free_placement = False
        self.selected_sector = -1
        super().__init__(document, settings)
        self.playback = Playback(self)
        self.set_speed(self.settings.value("watch/speed", "fast"))
        self.on_document_changed()

    def build_centre(self) -> None:
        from struggle_desktop.ui.map.view import MapView
        self.set_centre(MapView())

    # ================================================================== docks
    def build_docks(self) -> None:
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
        if available_geometry(self).height() < COMPACT_BELOW:
            # A laptop screen: one panel of each column is shown at a time in tabs, so
            # the Decision list and the tracks keep room enough to read.
            self.tabifyDockWidget(self.ci_dock, self.resources_dock)
            self.ci_dock.raise_()
            self.tabifyDockWidget(self.stack_dock, self.cup_dock)
            self.tabifyDockWidget(self.stack_dock, self.markers_dock)
            self.stack_dock.raise_()
            self.resizeDocks([self.decision_dock, self.stack_dock], [3, 2],
                             Qt.Orientation.Vertical)
        self.addDockWidget(bottom, self.log_dock)
        self.addDockWidget(bottom, self.dice_dock)
        self.splitDockWidget(self.log_dock, self.dice_dock, Qt.Orientation.Horizontal)
        self.resizeDocks([self.turn_dock, self.decision_dock], [300, 380],
                         Qt.Orientation.Horizontal)
        compact = available_geometry(self).height() < COMPACT_BELOW
        self.resizeDocks([self.log_dock], [185 if compact else 210], Qt.Orientation.Vertical)
        self.resizeDocks([self.log_dock, self.dice_dock], [900, 300], Qt.Orientation.Horizontal)

        self.turn_dock.continue_requested.connect(self.continue_game)
        self.turn_dock.speed_changed.connect(self._speed_from_dock)
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)
        self.log_dock.ref_hovered.connect(self._ref_hovered)
        self.log_dock.ref_activated.connect(self._ref_activated)

    # ================================================================== actions and menus
    def build_game_actions(self) -> None:
        self.act_export_png = self._action("Export Map as &PNG…", self.export_png, "Ctrl+E",
                                           "Save a picture of the map")
        self.act_export_pdf = self._action("Export Map as P&DF…", self.export_pdf,
                                           "Ctrl+Shift+E", "Save the map as a PDF page")
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
    def file_extras(self) -> list[QAction]:
        return [self.act_export_png, self.act_export_pdf]

    def edit_extras(self) -> list[QAction]:
        return [self.act_free]

    def add_game_menus(self, bar) -> None:
        m = bar.addMenu("&View")
        m.addActions([self.act_zoom_in, self.act_zoom_out, self.act_zoom_reset, self.act_fit,
                      self.act_overview])
        m.addSeparator()
        self.panels_menu(m)
        m = bar.addMenu("&Game")
        m.addActions([self.act_continue, self.act_skip, self.act_hint])
        m.addSeparator()
        m.addActions(list(self.speed_actions.values()))

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
        super().on_document_changed()
        doc = self.document
        has_game = doc.session is not None
        for act in (self.act_export_png, self.act_export_pdf, self.act_hint, self.act_continue,
                    self.act_free):
            act.setEnabled(has_game)
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

    # ------------------------------------------------------------------ the map's gestures
    def drag_targets(self, piece_id: str) -> dict:
        """Where ``piece_id`` may be dropped now: sector -> the action a drop there performs
        (the board's prompt says, for each answer, which piece goes where)."""
        board = self.document.board
        if board is None or board.get("outcome") or self.playback.active:
            return {}
        piece = board["pieces"].get(piece_id)
        if piece is None:
            return {}
        if self.free_placement:
            if piece["kind"] != "unit" or piece.get("force"):
                return {}
            return {n: self.drop_action(piece_id, n, free=True)
                    for n in board["sectors"] if n != piece["sector"]}
        prompt = board.get("prompt")
        return {entry["drop"]["sector"]: entry["action"]
                for entry in (prompt["actions"] if prompt else ())
                if entry.get("drop", {}).get("piece") == piece_id}

    def drop_action(self, piece_id: str, sector: int, free: bool = False) -> dict | None:
        state = self.document.state
        return self.document.game.drop_action(state, piece_id, sector, free) if state else None

    def drag_refusal(self, piece_id: str, sector: int) -> str:
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if self.playback.active:
            return "wait until the automated steps have been shown (Esc skips them)"
        if prompt is None:
            return "the game is not waiting for a move"
        action = self.drop_action(piece_id, sector, free=self.free_placement)
        if self.free_placement:
            return self.document.check(action) or "that counter cannot be adjusted by hand"
        if action is None:
            return f"counters cannot be moved now: {prompt['text']}"
        return self.document.check(action) or "that move is not possible now"

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
        return [entry for entry in prompt["actions"] if entry.get("sector") == n]

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
    def after_new_game(self) -> None:
        self.selected_sector = -1

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

    # ------------------------------------------------------------------ undo and closing
    def before_undo(self) -> None:
        if self.playback.active:
            self.playback.finish()

    def before_close(self) -> None:
        self.playback.stop()
