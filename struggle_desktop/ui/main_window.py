"""The main window: the galaxy map in the middle, docks around it, menus with shortcuts.

The window is a thin client (ARCHITECTURE.md section 5). It shows ``document.board`` and turns
the player's gestures into actions for ``GameDocument.perform``:

* dragging a counter answers "move"/"place" prompts (or, in free placement, makes a manual
  adjustment); a drop on an illegal sector returns the counter with the rules' reason;
* clicking a sector answers the prompts that name a sector (attack, recruit, found...);
* the decision dock lists every legal answer in words;
* Continue performs the step's "done" answer, or shows the next step of a playback.

After an action the automated steps the rules ran are played back on the map (step, fast or
instant) from the frames the document collected; the panels follow the step on show, and a
change of speed applies to a playback under way. Hint marks its answer on the map too. The
map's zoom and centre are kept per save file (settings group ``map_views``) and come back
when that file is opened again. The window's commands work from its text fields, Undo says
why it is refused, and after a file dialog the window takes the keyboard back.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from PySide6.QtCore import (QEvent, QObject, QPointF, QSettings, QStandardPaths, Qt, QTimer,
                            Signal)
from PySide6.QtGui import QAction, QActionGroup, QCursor, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractSpinBox, QApplication, QFileDialog, QLineEdit, QMenu,
                               QMessageBox, QPlainTextEdit, QTextEdit, QWidget)

from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.document import WATCHED_KINDS, Frame, GameDocument, is_autosave
from struggle_desktop.ui.fit import available_geometry
from struggle_desktop.ui.map.marks import sector_number
from struggle_desktop.ui.shell import GameWindow

#: Milliseconds between two shown steps at "fast" speed.
FAST_STEP_MS = 450


def map_target_of(entry: dict, board: dict) -> tuple[list[int], tuple[int, int] | None] | None:
    """Where a prompt answer is given on the map (the presentation's ``drop`` or ``sector``):
    the sectors to mark and, for a counter to drag, the arrow from where it stands to where
    it goes. None for an answer that has no place on the map."""
    drop = entry.get("drop")
    if isinstance(drop, dict) and isinstance(drop.get("sector"), int):
        piece = board.get("pieces", {}).get(drop.get("piece"))
        start = piece.get("sector") if piece else None
        if isinstance(start, int) and start != drop["sector"]:
            return [start, drop["sector"]], (start, drop["sector"])
        return [drop["sector"]], None
    if isinstance(entry.get("sector"), int):
        return [entry["sector"]], None
    return None


#: The keys a text field keeps for itself even when a command of the window has them.
TEXT_EDITING_KEYS = (QKeySequence.StandardKey.Undo, QKeySequence.StandardKey.Redo,
                     QKeySequence.StandardKey.Copy, QKeySequence.StandardKey.Cut,
                     QKeySequence.StandardKey.Paste, QKeySequence.StandardKey.SelectAll)
TEXT_FIELDS = (QLineEdit, QAbstractSpinBox, QTextEdit, QPlainTextEdit)


class WindowKeysInTextFields(QObject):
    """Lets the window's commands (Ctrl+E, Ctrl+H, F1...) work while a text field of the
    window has the keyboard. A line edit claims some of those keys for itself (on Linux,
    Ctrl+E moves to the end of the line), and a filter box with the focus swallowed them.
    Only the clipboard and undo keys stay the field's. The filter sits on the text field
    that has the focus, so nothing else pays for it."""

    def __init__(self, window: "MainWindow"):
        super().__init__(window)
        self.window = window
        QApplication.instance().focusChanged.connect(self._focus_changed)

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if isinstance(new, TEXT_FIELDS) and self.window.holds(new):
            new.installEventFilter(self)     # (installed once: Qt drops a repeat)

    def window_keys(self) -> set[str]:
        """The window's command keys a text field must not take."""
        editing = {seq.toString() for key in TEXT_EDITING_KEYS
                   for seq in QKeySequence.keyBindings(key)}
        keys = set()
        for action in self.window.actions():
            if not action.isEnabled():
                continue
            for seq in action.shortcuts():
                text = seq.toString()
                if text and text not in editing:
                    keys.add(text)
        return keys

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() != QEvent.Type.ShortcutOverride:
            return False
        chord = event.modifiers() & (Qt.KeyboardModifier.ControlModifier
                                     | Qt.KeyboardModifier.AltModifier
                                     | Qt.KeyboardModifier.MetaModifier)
        if not chord and not Qt.Key.Key_F1.value <= event.key() <= Qt.Key.Key_F35.value:
            return False         # typing, arrows, Space and Return stay the field's
        if QKeySequence(event.keyCombination()).toString() in self.window_keys():
            event.ignore()       # not claimed by the field: the window's shortcut runs
            return True
        return False


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
        self.window.watch_over.emit()

    def set_speed(self, speed: str) -> None:
        """The player changed the speed in the middle of a playback: Fast goes on from the
        step on show, Step waits there for Continue, Instant shows the end."""
        if not self.frames:
            return
        self.speed = speed
        if speed == "instant":
            self.finish()
        elif speed == "fast":
            self.timer.start(FAST_STEP_MS)
            self.window.show_continue(self.index, len(self.frames))
        else:
            self.timer.stop()
            self.window.show_continue(self.index, len(self.frames))

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

    #: A step of a playback is on show (a guide narrates it, ui/learn/runner.py): its
    #: ``index`` and the ``total``, the ``lines`` the game's log gives it, their ``rules``
    #: and the ``sectors`` it concerns (a move: from, to).
    watch_step_shown = Signal(dict)
    #: A playback has ended: its last step was shown, or the player went to the end.
    watch_over = Signal()
    LAYOUT_REVISION = 2     # 2: full-height side columns, the dice beside the tracks

    def __init__(self, document: GameDocument | None = None, settings: QSettings | None = None):
        self.scene = None        # keep a reference: a collected scene leaves a blank view
        self.sector_menu: QMenu | None = None
        self._acting = False     # inside perform: the playback, not the change signal, draws
        self._played: tuple[int, list[dict]] = (0, [])   # the last action: log start, entries
        self._view_session = None   # the game the map's zoom and centre belong to ...
        self._view_path: Path | None = None     # ... and its save, if it has one
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
        from struggle_desktop.ui.docks.eliminated import EliminatedDock
        from struggle_desktop.ui.docks.tray import TrayDock
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
        self.eliminated_dock = EliminatedDock(doc, self)
        self.tray_dock = TrayDock(doc, self)
        self.docks = [self.turn_dock, self.decision_dock, self.recruit_dock, self.tray_dock,
                      self.ci_dock, self.resources_dock, self.cup_dock, self.markers_dock,
                      self.stack_dock, self.eliminated_dock, self.log_dock, self.dice_dock]
        left = Qt.DockWidgetArea.LeftDockWidgetArea
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        # The side columns run the window's full height and the log lies under the map only:
        # a chart opened at the foot of the window (Forecast, History), or the timeline bar,
        # then takes its height from the map, never from the panels whose buttons the player
        # needs (Continue, Do it, Buy...).
        for corner, area in ((Qt.Corner.TopLeftCorner, left),
                             (Qt.Corner.BottomLeftCorner, left),
                             (Qt.Corner.TopRightCorner, right),
                             (Qt.Corner.BottomRightCorner, right)):
            self.setCorner(corner, area)
        # A laptop screen shows one panel of each group at a time, in tabs, so the Decision
        # list and the tracks keep room enough to read. Each dock is tabbed once, where it
        # belongs: moving a tabbed dock to another group leaves an empty tab bar behind. Every
        # panel is in its place before any is tabbed: a group made and then moved by a later
        # panel left its old tab bar on screen.
        compact = available_geometry(self).height() < COMPACT_BELOW
        boxes = [self.cup_dock, self.markers_dock, self.eliminated_dock]
        # Under a laptop's narrow map the log needs all of the map's width, and a tab bar
        # would take rows from it: the dice (whose rolls the log lists too) are a tab
        # beside the tracks there.
        tracks = [self.ci_dock, self.resources_dock, self.tray_dock]
        tracks += [self.dice_dock] if compact else []
        for area, docks in ((left, [self.turn_dock, *tracks]),
                            (right, [self.decision_dock, self.recruit_dock, self.stack_dock,
                                     *boxes]),
                            (bottom, [self.log_dock] + ([] if compact else [self.dice_dock]))):
            for dock in docks:
                self.addDockWidget(area, dock)
        if compact:
            self.tabifyDockWidget(self.ci_dock, self.resources_dock)
        # The tray is wanted at set-up only, when the tracks have no values yet: it shares
        # their place and comes forward while there is something in it.
        self.tabifyDockWidget(self.ci_dock, self.tray_dock)
        if compact:
            self.tabifyDockWidget(self.ci_dock, self.dice_dock)
        self.ci_dock.raise_()
        self.tabifyDockWidget(self.decision_dock, self.recruit_dock)
        self.decision_dock.raise_()
        group = self.stack_dock if compact else self.cup_dock
        for dock in boxes:
            if dock is not group:
                self.tabifyDockWidget(group, dock)
        group.raise_()
        if compact:
            # Shares of the columns' height: the Turn panel's controls, the Decision list
            # with Do it and Hint (or Recruitment with Buy and Done) whole, the rest below.
            self.resizeDocks([self.turn_dock, self.ci_dock], [45, 55], Qt.Orientation.Vertical)
            self.resizeDocks([self.decision_dock, self.stack_dock], [64, 36],
                             Qt.Orientation.Vertical)
        else:
            self.splitDockWidget(self.log_dock, self.dice_dock, Qt.Orientation.Horizontal)
            self.resizeDocks([self.turn_dock, self.ci_dock, self.resources_dock], [32, 36, 30],
                             Qt.Orientation.Vertical)
            # Panels scroll rather than ask for height: give each of the right column's
            # groups its share, or the first would take nearly all of it.
            self.resizeDocks([self.decision_dock, self.stack_dock, self.cup_dock], [44, 22, 34],
                             Qt.Orientation.Vertical)
            self.resizeDocks([self.log_dock, self.dice_dock], [560, 340],
                             Qt.Orientation.Horizontal)
        self.resizeDocks([self.turn_dock, self.decision_dock], [300, 380],
                         Qt.Orientation.Horizontal)
        self.resizeDocks([self.log_dock], [185 if compact else 210], Qt.Orientation.Vertical)
        self.turn_dock.continue_requested.connect(self.continue_game)
        self.turn_dock.speed_changed.connect(self._speed_from_dock)
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)
        self.log_dock.ref_hovered.connect(self._ref_hovered)
        self.log_dock.ref_activated.connect(self._ref_activated)
        self.eliminated_dock.sector_activated.connect(
            lambda n: self._ref_activated(f"sector:{n:02d}"))

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
        # The window's commands work from its text fields too (see WindowKeysInTextFields).
        self.keys_in_text_fields = WindowKeysInTextFields(self)

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
        self.scene.set_drag_rules(self.drag_targets, self.drag_refusal, self.pickup_refusal)
        self.scene.piece_dropped.connect(self._piece_dropped)
        self.scene.drop_refused.connect(lambda _pid, reason: self.show_message(
            f"Not possible: {reason}"))
        self.scene.sector_clicked.connect(self._sector_clicked)
        self.scene.selection_changed.connect(self._sector_selected)
        self.scene.sector_hovered.connect(self._sector_hovered)
        from struggle_desktop.ui.docks.tray import TrayDropTarget
        self._tray_drops = TrayDropTarget(self.view, self)
        self.centre.setCurrentWidget(self.view)
        QTimer.singleShot(0, self.view.first_view)   # the whole map, or legible (ui/map/view.py)

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
        if doc.present is not self._view_session:
            # Another game (new, opened, restarted): the steps of the last one on show end.
            self.playback.stop()
        self._follow_the_file()
        self._bring_forward_the_right_panel()
        if not self.playback.active and not self._acting:
            self.show_final()     # (after an action, ``perform`` draws once it has the frames)

    def _bring_forward_the_right_panel(self) -> None:
        """Recruitment and the decision list share a tab, the tray and the tracks another:
        show the ones the prompt needs."""
        board = self.document.board
        prompt = board.get("prompt") if board else None
        recruiting = bool(prompt and prompt["kind"] == "recruitment")
        if recruiting != getattr(self, "_recruiting", None):
            (self.recruit_dock if recruiting else self.decision_dock).raise_()
        self._recruiting = recruiting
        setting_up = bool(board and board.get("tray"))
        if setting_up != getattr(self, "_setting_up", None):
            (self.tray_dock if setting_up else self.ci_dock).raise_()
        self._setting_up = setting_up

    # ---- pieces dragged from the tray ---------------------------------------------------
    def drop_entries(self, piece_id: str) -> dict[int, list[dict]]:
        """Where a piece may be dropped: sector -> the prompt's answers whose ``drop`` names
        the piece and that sector (several for a leader from the tray: one per unit of the
        sector). A counter on the map, a whole stack and a piece in the tray alike; a drop
        that moves several counters as one (a Rebel force) names each in ``pieces``."""
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if prompt is None or self.playback.active:
            return {}
        targets: dict[int, list[dict]] = {}
        for entry in prompt["actions"]:
            drop = entry.get("drop") or {}
            named = drop.get("piece") == piece_id or piece_id in (drop.get("pieces") or ())
            if named and drop.get("sector") is not None:
                targets.setdefault(drop["sector"], []).append(entry)
        return targets

    def tray_dropped(self, piece_id: str, sector: int, onto: list[str]) -> None:
        """A piece from the tray dropped on ``sector``, over the counters ``onto``: perform
        the answer the drop gives, or say why there is none."""
        entries = self.drop_entries(piece_id).get(sector, [])
        if len(entries) > 1:      # a leader: the unit it was dropped on, else the first one
            entries = [e for e in entries if e["drop"].get("onto") in onto] or entries[:1]
        if not entries:
            where = sorted(self.drop_entries(piece_id))
            why = ("it has nowhere to go now" if not where else
                   f"it may go to {', '.join(f'{n:02d}' for n in where[:8])}"
                   + ("…" if len(where) > 8 else ""))
            self.show_message(f"Not possible: {piece_id} cannot be placed in {sector:02d}; {why}")
            return
        self.perform(entries[0]["action"])

    def show_final(self) -> None:
        """Draw the current position and make the controls match it."""
        stepping = self.document.showing_step
        self.document.show_step(None)
        board = self.document.board
        if board is None or self.scene is None:
            return
        if stepping:
            self._refresh_tracks()
            self.dice_dock.show_entries(self._played[1])    # every roll of the action again
        self.scene.clear_emphasis()
        self.scene.show_board(board)
        self._show_last_moves(board)
        self.stack_dock.show_sector(self.selected_sector)
        self.turn_dock.clear_continue_override()   # the dock words Continue from the board

    def _refresh_tracks(self) -> None:
        """The panels that follow a playback step by step (tracks, cup, turn, log, the
        decision): each shows the moment of the step on show, not the end of the action."""
        for dock in (self.turn_dock, self.ci_dock, self.resources_dock, self.cup_dock,
                     self.markers_dock, self.stack_dock, self.log_dock, self.decision_dock):
            dock.refresh()

    def show_frame(self, frame: Frame, index: int, total: int) -> None:
        self.document.show_step(frame.board)
        self._refresh_tracks()
        start, entries = self._played
        if isinstance(frame.board.get("log_size"), int):
            self.dice_dock.show_entries(entries[:frame.board["log_size"] - start])
        self.scene.show_board(frame.board)
        self._show_last_moves(frame.board)
        refs = [sector_number(r) for r in frame.entry.get("refs", [])]
        sectors = [n for n in refs if n is not None]
        arrow = (sectors[0], sectors[1]) if frame.entry["kind"] == "move" and len(sectors) >= 2 else None
        self.scene.emphasize(sectors, arrow=arrow, text=frame.entry["text"])
        self.show_message(f"[{index + 1}/{total}] {frame.entry['text']}")
        self.show_continue(index, total)
        # What this step did, in the log's words: its entries of the watched kinds (the
        # move, the fight, the units lost), else the entry that closed it.
        upto = frame.board.get("log_size")
        step_entries = (entries[max(frame.since - start, 0):upto - start]
                        if isinstance(upto, int) else [])
        told = [e for e in step_entries if e.get("kind") in WATCHED_KINDS] or [frame.entry]
        places = [n for e in told for n in map(sector_number, e.get("refs", ())) if n is not None]
        self.watch_step_shown.emit({
            "index": index, "total": total, "sectors": places or sectors,
            "lines": [e.get("text", "") for e in told],
            "rules": list(dict.fromkeys(e["rule"] for e in told if e.get("rule")))})

    def show_continue(self, index: int, total: int) -> None:
        """What Continue does while step ``index`` of ``total`` of a playback is on show."""
        if self.playback.speed == "step":
            self.turn_dock.set_continue(True, f"Next step ({index + 1} of {total})",
                                        "Show the Chaos side's next step (Esc shows the end)")
        else:
            self.turn_dock.set_continue(True, "Show the end now",
                                        "Skip to the end of the Chaos side's steps")

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
        board = self.document.board
        # Where the action's log entries start, so a step of the playback shows its rolls.
        self._played = (board.get("log_size", 0) - len(result.new_entries), result.new_entries)
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

    def show_hint(self) -> None:
        """Hint (Ctrl+H): the program's choice is selected in the Decision panel and, when
        it is given on the map, marked there too (an arrow from the counter's sector to
        where it goes, or a ring round the sector to click), until the next change."""
        super().show_hint()
        if self.scene is None or not self.decision_dock.widget_built:
            return
        item = self.decision_dock.choices.currentItem()
        action = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        board = self.document.board
        prompt = board.get("prompt") if board else None
        entry = next((e for e in (prompt["actions"] if prompt else ())
                      if e["action"] == action), None)
        self.scene.clear_emphasis()
        where = map_target_of(entry, board) if entry is not None else None
        if where is None:
            return
        sectors, arrow = where
        self.scene.emphasize(sectors, arrow=arrow, text=f"Hint: {entry['label']}")
        shown = self.view.visible_area()
        if not all(shown.contains(self.scene.sector_center(n)) for n in sectors):
            self.view.centre_on_sector(sectors[-1])

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
        if self.free_placement and piece is not None:
            # The game decides which counters may be adjusted by hand, and where to.
            adjustments = {n: self.drop_action(piece_id, n, free=True)
                           for n in board["sectors"] if n != piece["sector"]}
            return {n: action for n, action in adjustments.items()
                    if action is not None and self.document.check(action) is None}
        return {n: entries[0]["action"] for n, entries in self.drop_entries(piece_id).items()}

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
        if piece_id.startswith("stack:"):
            return f"the stack cannot move to {sector:02d} now"
        action = self.drop_action(piece_id, sector, free=self.free_placement)
        if self.free_placement:
            return self.document.check(action) or "that counter cannot be adjusted by hand"
        where = sorted(self.drop_entries(piece_id))
        if action is None and where:      # an answer the game takes by this drag, elsewhere
            return (f"{piece_id} cannot go to {sector:02d} now ({prompt['text']}); it may go to "
                    + ", ".join(f"{n:02d}" for n in where[:8]) + ("…" if len(where) > 8 else ""))
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

    # ---- map hooks (ui/map): why a counter cannot be picked up; the last-move marks --------
    def pickup_refusal(self, piece_id: str) -> str:
        """Why the counter of ``piece_id`` has nowhere to go now: the scene says it when the
        player tries to drag it (instead of moving the map without a word)."""
        board = self.document.board
        if board is None:
            return "no game is open"
        if board.get("outcome"):
            return "the game is over"
        if self.playback.active:
            return "wait until the automated steps have been shown (Esc skips them)"
        piece = board["pieces"].get(piece_id) or {}
        elsewhere = next((n for n in sorted(board["sectors"]) if n != piece.get("sector")), None)
        if self.free_placement:
            action = self.drop_action(piece_id, elsewhere, free=True) if elsewhere else None
            reason = self.document.check(action) if action is not None else None
            return reason or f"{piece_id} cannot be moved by hand"
        prompt = board.get("prompt")
        if prompt is None:
            return "the game is not waiting for a move"
        if not any(entry.get("drop") for entry in prompt["actions"]):
            key = self.act_free.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
            return (f"no counter moves now ({prompt['text']}); Free Placement ({key}) moves "
                    "units by hand")
        action = self.drop_action(piece_id, elsewhere) if elsewhere else None
        reason = self.document.check(action) if action is not None else None
        return reason or f"{piece_id} has no move left now"

    def _show_last_moves(self, board: dict) -> None:
        """Mark where the units that moved this turn came from, up to ``board``."""
        from struggle_desktop.ui.map.marks import turn_moves
        self.scene.show_last_moves(turn_moves(self.document.log_entries, board))

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
            # A click on a sector may answer the question (a purchase, an attack): say so
            # before the click, so a player who clicks to look is warned first.
            entries = self.sector_actions(n)
            if len(entries) == 1:
                what = f" — a click here: {entries[0]['label']}"
            elif entries:
                what = f" — a click here offers {len(entries)} choices"
            else:
                what = ""
            self.hover_text.setText(sec["tooltip"].split("\n")[0] + what)
        else:
            self.hover_text.clear()

    def _ref_hovered(self, ref: str) -> None:
        if self.scene is None:
            return
        n = sector_number(ref) or self._sector_of_piece(ref)
        self.scene.clear_highlight("hover")
        if n is not None:
            self.scene.highlight([n], "hover")

    def _ref_activated(self, ref: str) -> None:
        n = sector_number(ref) or self._sector_of_piece(ref)
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
        key = self.act_free.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        self.view.set_banner(f"Free placement — drag any counter; press {key} again to stop"
                             if on else "")

    def set_speed(self, speed: str) -> None:
        speed = speed if speed in ("step", "fast", "instant") else "fast"
        self.speed = speed
        # Frames of the automated steps cost a board each: collect them only to show them.
        self.document.watch = speed != "instant"
        self.speed_actions[speed].setChecked(True)
        self.settings.setValue("watch/speed", speed)
        if hasattr(self, "turn_dock") and self.turn_dock.speed != speed:
            self.turn_dock.set_speed(speed)
        if hasattr(self, "playback"):
            self.playback.set_speed(speed)     # a playback under way goes on at the new speed

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

    def export_start(self, kind: str) -> Path:
        """Where the export dialog opens: beside the save of the game, named after it; for a
        game not saved yet, in the user's Pictures (PNG) or Documents (PDF) folder."""
        name, _filter = self.EXPORTS[kind]
        if self.document.path is not None:
            return self.document.path.parent / f"{self.document.path.stem}-{name}"
        kinds = (QStandardPaths.StandardLocation.PicturesLocation if kind == "png"
                 else QStandardPaths.StandardLocation.DocumentsLocation,
                 QStandardPaths.StandardLocation.DocumentsLocation)
        for location in kinds:
            folder = QStandardPaths.writableLocation(location)
            if folder and Path(folder).is_dir():
                return Path(folder) / name
        return Path.home() / name

    def _export(self, kind: str) -> None:
        if self.scene is None:
            return
        _name, file_filter = self.EXPORTS[kind]
        focus = QApplication.focusWidget()
        path, _ = QFileDialog.getSaveFileName(self, "Export the map",
                                              str(self.export_start(kind)), file_filter)
        self.back_from_dialog(focus)
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

    # ------------------------------------------------------------------ the map's view per save
    #: Settings group of the zoom and centre kept for each save file.
    VIEW_GROUP = "map_views"

    def _follow_the_file(self) -> None:
        """Keep the map's zoom and centre with the save they belong to: a save (Save, Save
        As) keeps the view for its file; when another game is opened the one left keeps its
        view, and a save opened again gets its own back."""
        doc = self.document
        path = doc.path.resolve() if doc.path is not None and not is_autosave(doc.path) \
            else None
        if doc.present is self._view_session:
            if path is not None and (path != self._view_path or not doc.dirty):
                self._view_path = path          # just saved, maybe under a new name
                self.remember_view()
            return
        self.remember_view()                    # the view still shows the game left
        self._view_session, self._view_path = doc.present, path
        if path is not None:
            # After the first fit of the map (queued when the scene was made).
            QTimer.singleShot(0, lambda: self.restore_view(path))

    def _view_key(self, path: Path) -> str:
        digest = hashlib.sha1(str(path).encode("utf-8", "surrogatepass")).hexdigest()[:20]
        return f"{self.VIEW_GROUP}/{digest}"

    def remember_view(self) -> None:
        """Store the map's zoom and centre for the open save (at closing, saving, and when
        another game replaces it)."""
        if self._view_path is None or self.scene is None:
            return
        centre = self.view.mapToScene(self.view.viewport().rect().center())
        self.settings.setValue(self._view_key(self._view_path),
                               [str(self._view_path), self.view.zoom, centre.x(), centre.y()])

    def restore_view(self, path: Path) -> bool:
        """Zoom and centre the map as they were when the save at ``path`` was last left;
        False if nothing is kept for it (or another file is open by now)."""
        if self.scene is None or self._view_path != path:
            return False
        value = self.settings.value(self._view_key(path))
        try:
            kept, zoom, x, y = value
            zoom, x, y = float(zoom), float(x), float(y)
        except (TypeError, ValueError):
            return False
        if kept != str(path):
            return False
        if abs(zoom - 1.0) < 1e-3:
            self.view.fit()
        else:
            self.view.set_zoom(zoom)
        self.view.centerOn(QPointF(x, y))
        return True

    # ------------------------------------------------------------------ file dialogs
    def open_dialog(self) -> None:
        focus = QApplication.focusWidget()
        super().open_dialog()
        self.back_from_dialog(focus)

    def save_as(self) -> bool:
        focus = QApplication.focusWidget()
        try:
            return super().save_as()
        finally:
            self.back_from_dialog(focus)

    def back_from_dialog(self, focus: QWidget | None) -> None:
        """A file dialog closed: make this window active again and give the keyboard back to
        the widget that had it (else the map). Some window managers activate no window after
        a dialog, and then no shortcut (F1...) worked until the map was clicked."""
        if not self.isVisible():
            return      # the window gave way to another game's window
        self.raise_()
        self.activateWindow()
        if focus is None or not focus.isVisible() or not self.holds(focus):
            focus = self.view
        focus.setFocus(Qt.FocusReason.OtherFocusReason)

    def holds(self, widget: QWidget) -> bool:
        """Whether ``widget`` is part of this window (a floating panel's too)."""
        while widget is not None:
            if widget is self:
                return True
            widget = widget.parentWidget()
        return False

    # ------------------------------------------------------------------ undo and closing
    def before_undo(self) -> None:
        if self.playback.active:
            self.playback.finish()

    def before_close(self) -> None:
        self.playback.stop()
        self.remember_view()
