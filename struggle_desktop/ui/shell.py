"""The frame every game's window shares: files, undo, layout, help, status bar, closing.

``GameWindow`` is the shell; each game's screen subclasses it and fills four hooks:

* ``build_centre()`` — the central widget (a map, the regions...);
* ``build_docks()`` — the game's panels (``DockPanel`` subclasses), listed in ``self.docks``;
* ``build_game_actions()`` — the game's commands, made with ``self._action`` so each has its
  key and appears in Help → Keyboard Shortcuts;
* ``add_game_menus(bar)`` — its menus between Edit and Help; ``file_extras``/``edit_extras``
  add entries to the File and Edit menus.

A screen may also give its panels their first sizes in ``arrange_panels()`` (the shell applies
them once the window is shown, and after Reset Layout).

The shell owns the document (ui/document.py, the one operation path), New/Open/Save/Save As,
recent files, Undo/Redo, the saved dock layout, the house-rules page, the shortcut list, About,
the question before an unsaved game is replaced, and the guard that keeps every box of a window
from taking the mouse wheel unless it has the focus (ui/steady.py). When the player starts or
opens a game that another screen shows, the shell opens that screen's window and closes itself.

Opening a file reads and replays it first (``document.load_file``); only a game that loaded
switches windows and replaces the open one. A file that cannot be played, for whatever reason,
gives one warning and changes nothing. After a crash, ``resume_autosave`` takes the newest kept
autosave that plays and says so when it had to fall back to an older one. ``clean_leftovers``
removes what interrupted saves left behind, at start.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings, Qt, QTimer
from PySide6.QtGui import QAction, QCloseEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (QDockWidget, QFileDialog, QFrame, QHBoxLayout, QLabel,
                               QMainWindow, QMenu, QMenuBar, QMessageBox, QStackedWidget,
                               QTabBar, QToolTip, QVBoxLayout, QWidget)

from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import StruggleError, one_line
from struggle_desktop.engine.paths import user_data_dir
from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.document import (GameDocument, LoadedGame, autosave_paths, is_autosave,
                                          load_file)
from struggle_desktop.ui.settings import app_settings
from struggle_desktop.ui.steady import guard_wheels
from struggle_desktop.ui.fit import StatusLabel, available_geometry, fitted, resize_to_fit

#: Open takes a save of any game (the window switches to its screen).
SAVE_FILTER = "Saved games (*.sgsave *.json);;All files (*)"
MAX_RECENT = 8
#: Bumped when the way the dock layout is saved changes; part of every layout's version.
LAYOUT_FORMAT = 1
#: The title of the one warning a file that cannot be opened gives.
OPEN_REFUSED = "Cannot open the game"
#: Windows opened in place of another one (a reference keeps them alive).
OPEN_WINDOWS: list[QMainWindow] = []


class GameWindow(QMainWindow):
    #: The game this screen shows (Help → House Rules before a game is open).
    game_id = "struggle"
    #: Settings group of the saved geometry and dock layout of this screen.
    layout_key = "window"
    #: Bumped by a screen when its default arrangement of the panels changes: a layout saved
    #: under an earlier one is then not restored (the new default, not the old squeeze).
    LAYOUT_REVISION = 0

    def __init__(self, document: GameDocument | None = None, settings: QSettings | None = None):
        super().__init__()
        # No combo box, spin box or slider of any window takes the wheel unless it has the
        # focus: the wheel scrolls the panel (ui/steady.py). One guard for the application
        # covers every panel, the ones shown late and forms built afresh for each question.
        guard_wheels()
        self.settings = settings or app_settings()
        self.document = document or GameDocument(self)
        self.document.setParent(self)
        self.docks = []
        self.setObjectName("main-window")
        resize_to_fit(self, 1600, 1000)
        self.status_text = StatusLabel()     # messages: what happened, why not
        self._message_moment: tuple | None = None    # when the message was said
        self.hover_text = QLabel()           # what is under the pointer, kept apart
        self.hover_text.setStyleSheet("color: gray")
        self.statusBar().addWidget(self.status_text, 1)
        self.statusBar().addPermanentWidget(self.hover_text)

        self.build_centre()
        self.build_docks()
        self._build_analysis_docks()
        for dock in self.findChildren(DockPanel):
            dock.settle()                    # as made: what a seat change puts back
        self._build_shell_actions()
        self._build_timeline()
        self._build_refusals()
        self.build_game_actions()
        self._build_menus()
        self.document.changed.connect(self.on_document_changed)
        self.document.seat_changed.connect(self.rebuild_for_seat)
        self.document.message.connect(self.show_message)
        self._restore_layout()
        self.setWindowTitle(self.window_title())

    # ================================================================== hooks
    def build_centre(self) -> None:
        raise NotImplementedError

    def set_centre(self, view: QWidget) -> None:
        """The central widget: ``view`` once a game is open, a short note before
        (``self.centre`` switches between them)."""
        self.view = view
        self.empty_label = QLabel("No game is open.\n\nFile → New Game (Ctrl+N) or "
                                  "File → Open (Ctrl+O)")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.centre = QStackedWidget()
        self.centre.addWidget(self.empty_label)
        self.centre.addWidget(view)
        self.setCentralWidget(self.centre)

    def banner_page(self, name: str, background: str, point_size: int,
                    margins: tuple[int, int, int, int] | None = None
                    ) -> tuple[QWidget, QVBoxLayout, QHBoxLayout]:
        """A game page topped by a coloured banner (``self.banner``, its text in
        ``self.banner_text``, object names ``<name>-banner`` and ``<name>-banner-text``).
        Returns the page, the column below the banner for the game's own widgets, and the
        banner's row for buttons beside the text."""
        page = QWidget()
        column = QVBoxLayout(page)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        self.banner = QFrame()
        self.banner.setObjectName(f"{name}-banner")
        self.banner.setStyleSheet(f"#{name}-banner {{ background: {background}; }} "
                                  f"#{name}-banner QLabel {{ color: white; "
                                  f"font-size: {point_size}pt; }}")
        row = QHBoxLayout(self.banner)
        if margins is not None:
            row.setContentsMargins(*margins)
        self.banner_text = QLabel()
        self.banner_text.setObjectName(f"{name}-banner-text")
        self.banner_text.setWordWrap(True)
        row.addWidget(self.banner_text, 1)
        column.addWidget(self.banner)
        return page, column, row

    def build_docks(self) -> None:
        """Create the panels, add them to the window and list them in ``self.docks``."""

    def arrange_panels(self) -> None:
        """Give the panels their first sizes (``resizeDocks``). Qt heeds such sizes only once
        the window is shown at its size, so the shell calls this when the window is first
        shown (unless a saved layout was restored) and after Reset Layout, and then hides the
        tab bars the arrangement left behind (``lay_out``)."""

    def build_game_actions(self) -> None:
        """Create the game's commands with ``self._action``."""

    def rebuild_centre_for_seat(self) -> None:
        """Build the central view afresh for a new seat (its scene, selection, zoom...)."""

    def add_game_menus(self, bar: QMenuBar) -> None:
        """Add the game's menus (between Edit and Help)."""

    def file_extras(self) -> list[QAction]:
        """Entries of the File menu after Save As (exports...)."""
        return []

    def edit_extras(self) -> list[QAction]:
        """Entries of the Edit menu after Redo."""
        return []

    def before_undo(self) -> None:
        """Called before Undo changes the position (stop an animation...)."""

    def before_close(self) -> None:
        """Called when the window closes for good."""

    def perform(self, action: dict) -> bool:
        """Carry out a gesture's action through the document; False if it was refused."""
        raise NotImplementedError

    def show_hint(self) -> None:
        """Select, in the Decision panel, what the program's own player would do now (Hint,
        Ctrl+H); every screen has that panel as ``decision_dock``."""
        action = self.document.hint()
        if action is None:
            self.show_message("No decision is waiting for you")
            return
        dock = self.decision_dock
        dock.show()
        dock.raise_()
        dock.ensure_widget()
        dock.select_action(action)
        self.show_message(f"Hint: {self.document.describe(action)}")

    def autopilot_step(self) -> bool:
        """Take one step as a player would, with the program's hint (screenshots, the
        end-to-end test); False when there is nothing to do."""
        action = self.document.hint()
        return action is not None and self.perform(action)

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

    def _build_shell_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_new = self._action("&New Game…", self.new_game_dialog, K.New,
                                    "Start a new game")
        self.act_open = self._action("&Open…", self.open_dialog, K.Open, "Open a saved game")
        self.act_save = self._action("&Save", self.save, K.Save, "Save the game")
        self.act_save_as = self._action("Save &As…", self.save_as, "Ctrl+Shift+S",
                                        "Save the game under a new name")
        self.act_quit = self._action("&Quit", self.close, "Ctrl+Q", "Leave the program")
        self.act_undo = self._action("&Undo", self.undo, K.Undo, "Take back the last action")
        self.act_redo = self._action("&Redo", self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"],
                                     "Do the undone action again")
        # A greyed action's keys do nothing at all, so while Undo or Redo is refused (after
        # a roll, nothing to take back...) these stand in for their keys and say why.
        self.undo_refused = self._keys_while_greyed(self.act_undo, self.say_why_not_undo)
        self.redo_refused = self._keys_while_greyed(self.act_redo, self.say_why_not_redo)
        self.act_reset_layout = self._action("Reset &Layout", self.reset_layout, None,
                                             "Put every panel back where it started")
        self.act_house_rules = self._action("&House Rules…", self.show_house_rules, "F2",
                                            "Every table and rule the project reconstructed")
        self.act_learn = self._action("&Learn to Play…", self.learn_to_play, "Shift+F1",
                                      "A guided first game: each step shows what to do")
        self.act_guide = self._action("How to &Play…", self.show_guide, "F1",
                                      "The player's guide: the controls and how each game "
                                      "is played on screen")
        self.act_shortcuts = self._action("&Keyboard Shortcuts…", self.show_shortcuts,
                                          "Ctrl+F1", "List every command and its key")
        self.act_about = self._action("&About…", self.show_about, None, "About this program")

    def _build_refusals(self) -> None:
        """The shell's commands that may be refused, each with why (None: allowed). While one
        is refused it is greyed, its tooltip in the menu says why, and its keys put the
        reason in the status bar instead of doing nothing (Undo and Redo do the same with
        their own reasons)."""
        doc = self.document

        def no_game() -> str | None:
            return ("no game is open: start one (File → New Game, Ctrl+N) or open one "
                    "(Ctrl+O)" if doc.session is None else None)

        def earliest() -> str | None:
            return no_game() or ("this is the start of the game: there is nothing earlier "
                                 "to look at" if doc.position == 0 else None)

        def present() -> str | None:
            return no_game() or ("you are looking at the present: there is nothing later "
                                 "yet" if not doc.looking_back else None)

        def play_on() -> str | None:
            return no_game() or ("you are playing the present: look back to an earlier "
                                 "moment first (Alt+Left, or the timeline)"
                                 if not doc.looking_back else None)

        #: action -> (why it is refused now, what it does in "Cannot <words>", its own tip)
        self.refusals: dict[QAction, tuple] = {}
        for action, why, words in (
                (self.act_save, no_game, "save"), (self.act_save_as, no_game, "save"),
                (self.act_turn_back, earliest, "look back"),
                (self.act_step_back, earliest, "look back"),
                (self.act_step_forward, present, "look further on"),
                (self.act_turn_forward, present, "look further on"),
                (self.act_present, present, "go to the present"),
                (self.act_play_on, play_on, "play on from here")):
            self.refusals[action] = (why, words, action.toolTip())
            self._keys_while_greyed(action, lambda a=action: self.say_why_refused(a))
        self.update_refusals()          # before any game: greyed, and saying why

    def refusal_reason(self, action: QAction) -> str | None:
        """Why the shell's ``action`` is refused now (None: it is not, or not one of them)."""
        entry = self.refusals.get(action)
        return entry[0]() if entry is not None else None

    def update_refusals(self) -> None:
        """Grey each refusable command that is refused now; its tooltip says why."""
        for action, (why, words, tip) in self.refusals.items():
            reason = why()
            action.setEnabled(reason is None)
            text = f"Cannot {words}: {reason}" if reason else tip
            action.setToolTip(text)
            action.setStatusTip(text)

    def say_why_refused(self, action: QAction) -> None:
        """A greyed command's key was pressed: the status bar says why it does nothing."""
        if not self.menuBar().isEnabled():
            return            # a hand-over screen is up: no key acts or tells (lock_actions)
        why, words, _tip = self.refusals[action]
        self.show_message(f"Cannot {words}: {why() or 'not possible now'}")

    def _build_menus(self) -> None:
        bar = self.menuBar()
        m = bar.addMenu("&File")
        m.setToolTipsVisible(True)      # a greyed command tells why when pointed at
        m.addActions([self.act_new, self.act_open])
        self.recent_menu = QMenu("Open &Recent", self)
        m.addMenu(self.recent_menu)
        m.addSeparator()
        m.addActions([self.act_save, self.act_save_as])
        extras = self.file_extras()
        if extras:
            m.addSeparator()
            m.addActions(extras)
        m.addSeparator()
        m.addAction(self.act_quit)
        m = bar.addMenu("&Edit")
        m.addActions([self.act_undo, self.act_redo])
        m.setToolTipsVisible(True)      # a greyed Undo or Redo tells why when pointed at
        extras = self.edit_extras()
        if extras:
            m.addSeparator()
            m.addActions(extras)
        self.add_game_menus(bar)
        m = bar.addMenu("&Timeline")
        m.setToolTipsVisible(True)
        m.addActions([self.act_turn_back, self.act_step_back, self.act_step_forward,
                      self.act_turn_forward])
        m.addSeparator()
        m.addActions([self.act_present, self.act_play_on])
        m.addSeparator()
        m.addAction(self.act_timeline_bar)
        m.addSeparator()
        m.addActions([self.act_forecast, self.act_history])
        m = bar.addMenu("&Help")
        m.addActions([self.act_learn, self.act_guide, self.act_house_rules, self.act_shortcuts,
                      self.act_about])
        self._refresh_recent_menu()

    # ================================================================== charts
    def _build_analysis_docks(self) -> None:
        """The Forecast and History panels, which every screen has: hidden at first, in a
        tab beside the log when there is one (a laptop screen has no height to spare)."""
        from struggle_desktop.ui.docks.forecast import ForecastDock
        from struggle_desktop.ui.docks.history import HistoryDock

        self.forecast_dock = ForecastDock(self.document, self, refusal=self.forecast_refusal)
        self.history_dock = HistoryDock(self.document, self)
        log = getattr(self, "log_dock", None)
        for dock in (self.history_dock, self.forecast_dock):
            self.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
            if log is not None:
                self.tabifyDockWidget(log, dock)
            dock.hide()
            self.docks.append(dock)
        if log is not None:
            log.raise_()

    def rebuild_for_seat(self, role: str = "") -> None:
        """The seat changed hands: a seat's screen is a function of its view (ARCHITECTURE.md
        section 5), so nothing drawn for the seat before may stay. Every panel is built
        afresh (``DockPanel.reset_for_seat``: its texts, filters and their undo, selections,
        scroll positions, tooltips and charts go), the central view too
        (``rebuild_centre_for_seat``), and the status bar and any tooltip on show are
        cleared. The document's change signal then draws it all from the new seat's view."""
        QToolTip.hideText()
        self.status_text.clear()
        self.hover_text.clear()
        for dock in self.findChildren(DockPanel):
            dock.reset_for_seat()
        self.rebuild_centre_for_seat()

    def show_panel(self, dock, share: float = 0.45) -> None:
        """Show and raise ``dock``; a chart panel at the foot of the window gets ``share`` of
        the window's height to be read (the map gives way until the panel is closed)."""
        dock.show()
        dock.raise_()
        dock.ensure_widget()
        if (dock in (self.forecast_dock, self.history_dock) and not dock.isFloating()
                and dock.height() < share * self.height()):
            self.resizeDocks([dock], [int(share * self.height())], Qt.Orientation.Vertical)
        self.lay_out()       # a panel shown among tabs replaces the group's tab bar

    # ================================================================== the timeline
    def _build_timeline(self) -> None:
        from struggle_desktop.ui.timeline_bar import TimelineBar

        self.act_turn_back = self._action("Turn &Back", lambda: self.turn_step(-1),
                                          "Alt+PgUp", "Look back to the start of the turn, "
                                          "or of the turn before")
        self.act_step_back = self._action("Action B&ack", lambda: self.step(-1), "Alt+Left",
                                          "Look back one action")
        self.act_step_forward = self._action("Action &Forward", lambda: self.step(1),
                                             "Alt+Right", "Look one action further on")
        self.act_turn_forward = self._action("Turn F&orward", lambda: self.turn_step(1),
                                             "Alt+PgDown", "Look on to the start of the next "
                                             "turn")
        self.act_present = self._action("Back to the &Present", self.back_to_present,
                                        "Alt+End", "Show the game as it is now")
        self.act_forecast = self._action(
            "&Forecast…", lambda: self.show_panel(self.forecast_dock), "Ctrl+Shift+F",
            "What are my chances from here? The rest of the game played out many times")
        self.act_history = self._action(
            "History &Chart", lambda: self.show_panel(self.history_dock), "Ctrl+Shift+H",
            "The game so far as a chart, turn by turn")
        self.act_play_on = self._action("Play &On from Here…", self.play_on_from_here,
                                        "Alt+Home", "Make the moment on show a game to play "
                                        "on from")
        self.timeline_bar = TimelineBar(self, {
            "turn_back": self.act_turn_back, "step_back": self.act_step_back,
            "step_forward": self.act_step_forward, "turn_forward": self.act_turn_forward,
            "present": self.act_present, "play_on": self.act_play_on})
        self.addToolBar(Qt.ToolBarArea.BottomToolBarArea, self.timeline_bar)
        self.timeline_bar.hide()
        self.act_timeline_bar = self.timeline_bar.toggleViewAction()
        self.act_timeline_bar.setText("Show Timeline &Bar")
        self.act_timeline_bar.setShortcut(QKeySequence("Ctrl+T"))
        self.act_timeline_bar.setStatusTip("Keep the timeline's buttons and slider in view")
        self.addAction(self.act_timeline_bar)

    def look_at(self, k: int) -> None:
        """Show the game after its first ``k`` actions (the present at the end)."""
        if self.document.session is None:
            return
        try:
            self.document.look_at(max(0, min(k, self.document.history_length)))
        except StruggleError as exc:
            self.show_message(f"Cannot look back: {exc}")

    def step(self, delta: int) -> None:
        """``delta`` moments on (back, if negative): actions, or where several people share
        the game the moments every seat may see (GameDocument.moments)."""
        doc = self.document
        if doc.session is not None:
            shown = doc.moments()
            self.look_at(shown[max(0, min(doc.moment_index() + delta, len(shown) - 1))])

    def turn_step(self, direction: int) -> None:
        """To the start of this turn (or the one before, when already there), or of the next."""
        if self.document.session is None:
            return
        here = self.document.position
        starts = self.document.turn_starts()
        if direction < 0:
            earlier = [k for k in starts if k < here]
            self.look_at(earlier[-1] if earlier else 0)
        else:
            later = [k for k in starts if k > here]
            self.look_at(later[0] if later else self.document.history_length)

    def back_to_present(self) -> None:
        self.document.back_to_present()

    def branch_refusal(self) -> str | None:
        """Why playing on from an earlier moment is not offered here (None: it is): it would
        take back moves of the others where several people share the game."""
        if self.document.session is not None and self.document.shared:
            return ("Several people play this game: playing on from an earlier moment would "
                    "take back moves of theirs.")
        return None

    def forecast_refusal(self) -> str | None:
        """Why a forecast is not offered here (None: it is): where several people share the
        game, its games would play on with what each keeps hidden and give it away."""
        if self.document.session is not None and self.document.shared:
            return ("Several people play this game: a forecast plays on with what each side "
                    "keeps hidden, so its figures would give it away.")
        return None

    def play_on_from_here(self) -> None:
        """Make the moment on show a game to play on from: a new file (the game as it is now
        stays in its own), or this game itself once the player agreed to drop what followed."""
        doc = self.document
        if not doc.looking_back:
            self.show_message("Look back to an earlier moment first (Alt+Left, or the timeline)")
            return
        refusal = self.branch_refusal()
        if refusal is not None:
            QMessageBox.information(self, "Play on from here", refusal)
            return
        dropped = doc.history_length - doc.position
        later = ("the later action is" if dropped == 1 else f"the {dropped} later actions are")
        box = QMessageBox(QMessageBox.Icon.Question, "Play on from here",
                          f"Play on from action {doc.position}, as the game was then?", parent=self)
        box.setInformativeText(f"As a new game, this game stays as it is. In place of this "
                               f"game, {later} dropped for good.")
        as_new = box.addButton("As a &New Game…", QMessageBox.ButtonRole.AcceptRole)
        in_place = box.addButton("&In Place of This Game", QMessageBox.ButtonRole.DestructiveRole)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(as_new)
        box.exec()
        if box.clickedButton() is as_new:
            if not self.maybe_keep_changes():
                return
            path = self.ask_save_path("Save the game to play on from")
            if path is not None:
                self.play_on_in(path)
        elif box.clickedButton() is in_place:
            self.play_on_in(None)

    def play_on_in(self, new_path: Path | None) -> bool:
        """Play on from the moment on show: as the game saved in ``new_path``, or (None) in
        place of this game, which loses the actions that followed."""
        doc = self.document
        if (new_path is not None and doc.path is not None and Path(new_path).exists()
                and Path(new_path).resolve() == doc.path.resolve()):
            QMessageBox.warning(self, "Play on from here",
                                f"{Path(new_path).name} holds the game you are playing: choose "
                                "another file for the new one (or play on in place of this game).")
            return False
        branched = doc.branch_here()
        dropped = doc.history_length - doc.position
        if new_path is not None:
            try:
                branched.save(new_path)
            except (StruggleError, OSError) as exc:
                QMessageBox.warning(self, "Cannot save", f"{new_path}: {exc}")
                return False
            doc.install_session(branched, new_path)
            self.add_recent(new_path)
            self.show_message(f"Playing on from action {len(branched.actions)} in "
                              f"{new_path.name}; the game before is unchanged")
            return True
        doc.install_session(branched, doc.path, dirty=True)
        if doc.path is not None and not self._save_to(doc.path):
            return False
        self.show_message(f"Playing on from action {len(branched.actions)}: {dropped} later "
                          f"action{'s' if dropped != 1 else ''} dropped")
        return True

    def panels_menu(self, menu: QMenu) -> None:
        """A Panels submenu (one entry per dock) and Reset Layout, for a View menu."""
        panels = menu.addMenu("&Panels")
        for dock in self.docks:
            panels.addAction(dock.toggleViewAction())
        menu.addAction(self.act_reset_layout)

    def main_actions(self) -> list[QAction]:
        """Every command of the menus (tests check each has a shortcut or a menu entry)."""
        return [a for a in self.actions() if a.text()]

    # ================================================================== layout persistence
    def layout_version(self) -> int:
        """The version the dock layout is saved under: a stable hash of the layout format,
        the screen's ``LAYOUT_REVISION`` and the sorted names of the window's panels. A
        layout saved with other panels (one added, removed or renamed) or under another
        arrangement has another version and is not restored, so the panels come back as
        made instead of squeezed into the old places."""
        names = sorted(w.objectName() for w in self.findChildren(QDockWidget))
        text = f"{LAYOUT_FORMAT}:{self.LAYOUT_REVISION}:" + ",".join(names)
        return zlib.crc32(text.encode()) & 0x7FFFFFFF    # saveState takes a signed int

    def _restore_layout(self) -> None:
        self._default_layout = self.saveState()
        # Fixed once: panels a seat change adds later do not change what the layout is saved as.
        self._layout_version = self.layout_version()
        geometry = self.settings.value(f"{self.layout_key}/geometry")
        state = self.settings.value(f"{self.layout_key}/state")
        if geometry is not None:
            self.restoreGeometry(geometry)
        #: A saved layout came back (the screen's first arrangement is then not made).
        self._layout_restored = bool(state is not None and isinstance(state, QByteArray)
                                     and self.restoreState(state, self._layout_version))
        if state is not None and not self._layout_restored:
            # Another version (other panels) or not a layout at all: the default stays, and
            # the stale value goes so it is not tried again.
            self.settings.remove(f"{self.layout_key}/state")
        self._shown_before = False
        self.keep_on_screen()
        for dock in self.docks:
            if not dock.isHidden():
                dock.ensure_widget()
        self.clamp_docks()

    def clamp_docks(self) -> None:
        """Give every docked panel at least its minimum width (beside the board) or height
        (above or below it): a layout saved while a panel was narrower than it now needs
        must not come back squeezed. Qt's dock layout does so too once it lays the panels
        out again; this makes it so at once, whatever the saved sizes."""
        self.layout().activate()
        for orientation, sides, size, least in (
                (Qt.Orientation.Horizontal, (Qt.DockWidgetArea.LeftDockWidgetArea,
                                             Qt.DockWidgetArea.RightDockWidgetArea),
                 QDockWidget.width, lambda d: d.minimumSizeHint().width()),
                (Qt.Orientation.Vertical, (Qt.DockWidgetArea.TopDockWidgetArea,
                                           Qt.DockWidgetArea.BottomDockWidgetArea),
                 QDockWidget.height, lambda d: d.minimumSizeHint().height())):
            short = [d for d in self.findChildren(QDockWidget)
                     if d.isVisible() and not d.isFloating()
                     and self.dockWidgetArea(d) in sides and size(d) < least(d)]
            if short:
                self.resizeDocks(short, [least(d) for d in short], orientation)

    def save_layout(self) -> None:
        self.settings.setValue(f"{self.layout_key}/geometry", self.saveGeometry())
        self.settings.setValue(f"{self.layout_key}/state", self.saveState(self._layout_version))
        self.settings.sync()

    def reset_layout(self) -> None:
        self.restoreState(self._default_layout)
        for dock in self.docks:
            dock.show()
        self.keep_on_screen()
        QTimer.singleShot(0, self, lambda: self.lay_out(arrange=True))

    # ---- the arrangement, and the tab bars it leaves behind ----------------------------------
    def showEvent(self, event) -> None:   # noqa: N802 - Qt's name
        super().showEvent(event)
        # Once the panels are laid out at the window's size: the screen's first arrangement
        # (not over a saved layout the player made), then the sweep of stale tab bars.
        first = not self._shown_before
        self._shown_before = True
        arrange = first and not self._layout_restored
        QTimer.singleShot(0, self, lambda: self.lay_out(arrange=arrange))

    def lay_out(self, arrange: bool = False) -> None:
        """The screen's arrangement of its panels (``arrange_panels``) if ``arrange``, then
        the panels laid out at once and the tab bars left behind hidden: in this order, so
        that a bar the arrangement itself replaced does not stay."""
        if arrange:
            self.arrange_panels()
        self.layout().activate()
        self.hide_stale_tab_bars()

    def hide_stale_tab_bars(self) -> list[QTabBar]:
        """Hide the tab bars the window's layout replaced: when panels are tabbed, shown,
        hidden or a layout is restored, Qt (6.11) makes a new tab bar for each group of
        tabbed panels and deletes the old one only later (``deleteLater``), leaving it on
        screen until then, often right under the new one, its tabs doing nothing. The bar in
        use for a group lies right under the group's panel on top (as wide) and is the last
        made there (the topmost), its tabs those of the group's panels; every other bar is
        stale. Returns the bars hidden."""
        bars = [bar for bar in self.findChildren(
                    QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
                if bar.isVisible()]          # in the order made: the last is the topmost
        in_use = set()
        for dock in self.findChildren(QDockWidget):
            if (not dock.isVisible() or dock.isFloating()
                    or dock.visibleRegion().isEmpty()):
                continue                     # closed, floating, or behind a tab
            group = [dock] + [d for d in self.tabifiedDockWidgets(dock) if not d.isHidden()]
            if len(group) < 2:
                continue                     # no tabs: no bar serves it
            rect = dock.geometry()
            under = [bar for bar in bars
                     if abs(bar.geometry().top() - (rect.bottom() + 1)) <= 6
                     and bar.geometry().left() == rect.left()
                     and bar.geometry().width() == rect.width()]
            titles = sorted(d.windowTitle() for d in group)
            same = [bar for bar in under
                    if sorted(bar.tabText(k) for k in range(bar.count())) == titles]
            if same or under:
                in_use.add(id((same or under)[-1]))
        stale = [bar for bar in bars if id(bar) not in in_use]
        for bar in stale:
            bar.hide()
        return stale

    def keep_on_screen(self) -> None:
        """Shrink and move the window onto what its screen leaves for windows: a layout
        saved on a larger screen, or panels shown since, must not push it past the edge."""
        if self.isMaximized() or self.isFullScreen():
            return
        room = available_geometry(self)
        size = fitted(self.width(), self.height(), self, share=1.0)
        frame = self.frameGeometry()
        extra_w, extra_h = frame.width() - self.width(), frame.height() - self.height()
        size.setWidth(min(size.width(), room.width() - extra_w))
        size.setHeight(min(size.height(), room.height() - extra_h))
        if size != self.size():
            self.resize(size)
        frame = self.frameGeometry()
        x = min(max(frame.x(), room.x()), room.right() - frame.width() + 1)
        y = min(max(frame.y(), room.y()), room.bottom() - frame.height() + 1)
        if (x, y) != (frame.x(), frame.y()):
            self.move(x, y)

    # ================================================================== the document
    def on_document_changed(self) -> None:
        """The shell's part: title, the file and undo commands, and the status bar's message,
        which lasts until the game moves on."""
        if self.status_text.text() and self._moment() != self._message_moment:
            self.status_text.clear()
        self.setWindowTitle(self.window_title())
        self.update_commands()

    def update_commands(self) -> None:
        """Enable the shell's commands that apply now and grey the others, each saying why
        (also after a hand-over screen turned every command back on: ``lock_actions``)."""
        doc = self.document
        has_game = doc.session is not None
        self.update_refusals()
        reason = doc.undo_reason()
        self.act_undo.setEnabled(has_game and reason is None)
        self.act_undo.setText(f"&Undo {doc.undo_label()}".strip() if doc.undo_label() else "&Undo")
        self.act_undo.setToolTip(reason or f"Undo: {doc.undo_label()}")
        self.act_redo.setEnabled(has_game and doc.can_redo())
        redo_reason = doc.redo_reason() if has_game else "no game is open"
        self.act_redo.setToolTip(redo_reason or f"Redo: {doc.redo_label()}")

    def window_title(self) -> str:
        """The open game's title (file, changes, moment, game), or before one is open the name
        of this screen's game. Qt adds the program's name (its display name) after it."""
        if self.document.session is not None:
            return self.document.title
        from struggle_desktop.games import get_game
        return get_game(self.game_id).title

    # ================================================================== other screens
    def window_for(self, game_id: str) -> "GameWindow":
        """This window if it shows ``game_id``, else a new window of the screen that does
        (this one then closes: its game is in the autosave and the player was asked)."""
        from struggle_desktop.ui.screens import window_class

        cls = window_class(game_id)
        if isinstance(self, cls):
            return self
        other = cls(settings=self.settings)
        OPEN_WINDOWS.append(other)
        other.show()
        self.document.dirty = False       # asked already (maybe_keep_changes)
        self.close()
        mark_running(self.settings)       # the program goes on in the other window
        return other

    # ================================================================== files
    def new_game(self, game_id: str, scenario: str, seed: int, options: dict | None = None) -> bool:
        if not self.maybe_keep_changes():
            return False
        try:
            target = self.window_for(game_id)
        except StruggleError as exc:
            QMessageBox.warning(self, "Cannot start the game", str(exc))
            return False
        if target is not self:
            return target.new_game(game_id, scenario, seed, options)
        try:
            self.document.new_game(game_id, scenario, seed, options)
        except StruggleError as exc:
            QMessageBox.warning(self, "Cannot start the game", str(exc))
            return False
        self.after_new_game()
        self.show_message(f"New game: scenario {scenario}, seed {seed}")
        return True

    def after_new_game(self) -> None:
        """Reset what the screen keeps about the previous game (a selection...)."""

    def open_file(self, path: Path | str) -> "GameWindow | None":
        """Open a save; returns the window now showing it (this one, or the new window of
        the save's screen), or None after telling the player why not. The file is read and
        replayed before anything else happens: one that cannot be played leaves this window,
        its game, file name, unsaved changes and undo history exactly as they were."""
        try:
            loaded = load_file(path)
        except Exception as exc:     # noqa: BLE001 - the last guard: no traceback, ever
            QMessageBox.warning(self, OPEN_REFUSED, refusal_text(path, exc))
            return None
        return self.show_loaded(loaded, remember=not is_autosave(path))

    def show_loaded(self, loaded: LoadedGame, remember: bool = True) -> "GameWindow | None":
        """Show a game ``load_file`` loaded, in this window or in a window of its own screen
        (this one then closes); ``remember`` adds the file to the recent files."""
        if not self.maybe_keep_changes():
            return None
        try:
            target = self.window_for(loaded.game.id)
            note = target.document.install_loaded(loaded)
        except Exception as exc:     # noqa: BLE001 - no traceback for the player, ever
            QMessageBox.warning(self, OPEN_REFUSED, one_line(
                f"cannot open {loaded.path.name}: the game could not be shown "
                f"({type(exc).__name__})"))
            return None
        if remember:
            target.add_recent(loaded.path)
        target.show_message(note)
        return target

    def resume_autosave(self, path: Path | None = None) -> bool:
        """Continue the game of a run that ended abruptly; it becomes an unsaved game again.

        ``path`` is where to start (default: the newest autosave). If it is one of the kept
        autosaves, the older ones are tried after it: the newest that plays is resumed, and
        the player is told when it is not the newest. If none plays, one warning and False."""
        candidates = resume_candidates(path)
        if not candidates:
            QMessageBox.warning(self, "Cannot resume the game", "There is no autosave to resume.")
            return False
        failures: list[str] = []
        for candidate in candidates:
            try:
                loaded = load_file(candidate)
            except Exception as exc:     # noqa: BLE001 - as in open_file
                failures.append(refusal_text(candidate, exc))
                continue
            window = self.show_loaded(loaded, remember=False)
            if window is None:
                return False
            window.document.path = None
            window.document.dirty = True
            window.document.changed.emit()
            if not failures:
                window.show_message("Resumed the game from its autosave")
                return True
            note = fallback_note(candidates[0], failures, loaded)
            # The status bar is one short line on a laptop screen; the box says the rest.
            window.show_message(f"Resumed from the older autosave {loaded.path.name}: "
                                "the newest could not be read")
            QMessageBox.information(window, "Resumed from an older autosave", note)
            return True
        if len(failures) == 1:
            text = f"The autosave could not be read: {failures[0]}"
        else:
            text = (f"None of the {len(failures)} autosaves could be read. "
                    f"The newest: {failures[0]}")
        QMessageBox.warning(self, "Cannot resume the game", one_line(text, 400))
        return False

    def new_game_dialog(self) -> None:
        from struggle_desktop.ui.dialogs.new_game import choose_new_game
        shown = self.document.game.id if self.document.game is not None else self.game_id
        choice = choose_new_game(self, self.recent_files(), current=shown)
        if not choice:
            return
        if choice["kind"] == "open":
            self.open_file(choice["path"])
        elif choice["kind"] == "learn":
            self.learn_to_play(choice.get("game"))
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
        path = self.ask_save_path(self.save_caption())
        return path is not None and self._save_to(path)

    def ask_save_path(self, caption: str) -> Path | None:
        """A file name for a save of this game, chosen in the file dialog (None: cancelled)."""
        start = str(self.document.path or Path.home() / f"{self.document.game.id}.sgsave")
        kind = f"{self.document.game.title} saves (*.sgsave);;All files (*)"
        path, _ = QFileDialog.getSaveFileName(self, caption, start, kind)
        if not path:
            return None
        if not Path(path).suffix:
            path += ".sgsave"
        return Path(path)

    def save_caption(self) -> str:
        """The Save As dialog's title. A save holds the whole game by design (it is the
        owner's); in a game of several sides the title says so, since a file handed to
        the other player shows them everything that is hidden."""
        if len(self.document.game.roles) > 1:
            return "Save the game (the file holds every side's hidden hands and plans)"
        return "Save the game"

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
        """Ask before a game with unsaved changes is replaced. The question says the autosave
        keeps it only when the autosave was written (not where its folder cannot be). A new
        game nothing was done in is not asked about: starting it again loses nothing."""
        doc = self.document
        if doc.session is None or not doc.dirty or doc.untouched or not self.isVisible():
            return True
        kept = ("\n(It is also kept in the autosave until the next game starts.)"
                if doc.autosave_enabled and doc.autosaved else
                "\n(It is not kept in the autosave: the autosave could not be written.)"
                if doc.autosaved is False else "")
        answer = QMessageBox.question(
            self, "Unsaved game", "Save the current game first?" + kept,
            QMessageBox.StandardButton.Save | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Save)
        if answer == QMessageBox.StandardButton.Cancel:
            return False
        if answer == QMessageBox.StandardButton.Save:
            return self.save()
        return True

    # ------------------------------------------------------------------ recent files
    def recent_files(self) -> list[Path]:
        return [p for p in stored_recent_files(self.settings) if p.exists()]

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
        self.recent_menu.menuAction().setToolTip(
            "Your recent games" if files else
            "No recent games yet: a game you save or open is listed here")

    # ------------------------------------------------------------------ undo
    def undo(self) -> None:
        self.before_undo()
        reason = self.document.undo()
        if reason is not None:
            self.show_message(f"Cannot undo: {reason}")

    def redo(self) -> None:
        reason = self.document.redo()
        if reason is not None:
            self.show_message(f"Cannot redo: {reason}")

    def _keys_while_greyed(self, action: QAction, say_why) -> list[QShortcut]:
        """Shortcuts on ``action``'s keys that work only while it is disabled (an enabled
        one would make the keys ambiguous, and neither would fire)."""
        shortcuts = []
        for keys in action.shortcuts():
            shortcut = QShortcut(keys, self)
            shortcut.setContext(Qt.ShortcutContext.WindowShortcut)
            shortcut.activated.connect(say_why)
            shortcut.setEnabled(not action.isEnabled())
            action.enabledChanged.connect(lambda on, s=shortcut: s.setEnabled(not on))
            shortcuts.append(shortcut)
        return shortcuts

    def say_why_not_undo(self) -> None:
        """Ctrl+Z while Undo is refused: the status bar says why instead of nothing."""
        if not self.menuBar().isEnabled():
            return            # a hand-over screen is up: no key acts or tells (lock_actions)
        doc = self.document
        reason = doc.undo_reason() if doc.session is not None else "no game is open"
        self.show_message(f"Cannot undo: {reason or 'not possible now'}")

    def say_why_not_redo(self) -> None:
        if not self.menuBar().isEnabled():
            return
        doc = self.document
        reason = doc.redo_reason() if doc.session is not None else "no game is open"
        self.show_message(f"Cannot redo: {reason or 'not possible now'}")

    # ------------------------------------------------------------------ help
    def learn_to_play(self, game_id: str | None = None) -> None:
        """Help > Learn to Play: a guided first game (ui/learn); the guide of ``game_id``
        (the New Game dialog's game), else the guides offered with this window's first."""
        from struggle_desktop.ui.learn.runner import learn_to_play
        learn_to_play(self, game_id if isinstance(game_id, str) else None)

    def show_house_rules(self) -> None:
        if self.document.game is None:
            from struggle_desktop.games import get_game
            game = get_game(self.game_id)
        else:
            game = self.document.game
        from struggle_desktop.ui.dialogs.house_rules import HouseRulesDialog
        HouseRulesDialog(game, self).exec()

    def shortcut_rows(self) -> list[tuple[str, str]]:
        """Every command and its keys, by the command's name: Undo and Redo without the
        action their menu entry names at the moment."""
        fixed = {self.act_undo: "Undo", self.act_redo: "Redo"}
        rows = []
        for act in self.main_actions():
            keys = ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText)
                             for s in act.shortcuts())
            rows.append((fixed.get(act) or act.text().replace("&", ""), keys))
        return rows

    def guide_section(self) -> str:
        """The words that find this window's game in the guide: its title (the guide's
        sections are "Playing <title>" or "Resolving <title>")."""
        from struggle_desktop.games import get_game
        return get_game(self.game_id).title

    def mouse_controls(self) -> list[tuple[str, str]]:
        """What the mouse does in this window, for the guide's controls section."""
        from struggle_desktop.ui.dialogs.guide import MAP_CONTROLS
        return list(MAP_CONTROLS)

    def show_guide(self) -> None:
        from struggle_desktop.ui.dialogs.guide import GuideDialog, controls_markdown
        controls = controls_markdown(self.shortcut_rows(), self.mouse_controls())
        GuideDialog(self, self.guide_section(), controls).exec()

    def show_shortcuts(self) -> None:
        text = "".join(f"<tr><td>{name}</td><td><b>{keys or '—'}</b></td></tr>"
                       for name, keys in self.shortcut_rows())
        QMessageBox.information(self, "Keyboard shortcuts", f"<table>{text}</table>")

    def show_about(self) -> None:
        try:
            from struggle_desktop.ui.dialogs.about import AboutDialog
        except ImportError:
            QMessageBox.about(self, "About", "Struggle Desktop")
            return
        AboutDialog(self).exec()

    # ------------------------------------------------------------------ status and closing
    def show_message(self, text: str) -> None:
        """Say ``text`` in the status bar until the game moves on (the next action, an undo,
        another game): an old refusal must not read as news about a later position."""
        self.status_text.setText(text)
        self._message_moment = self._moment()

    def _moment(self) -> tuple:
        session = self.document.session
        return (id(session), len(session.actions)) if session is not None else (None, 0)

    def closeEvent(self, event: QCloseEvent) -> None:
        if not self.maybe_keep_changes():
            event.ignore()
            return
        self.before_close()
        self.forecast_dock.cancel()          # its workers stop with the window
        if self.timeline_bar.shown_for_looking_back:
            self.timeline_bar.hide()         # the layout kept is the one the player chose
        self.save_layout()
        self.settings.setValue("session/clean_exit", True)
        self.settings.sync()
        event.accept()


def crashed_game_waiting(settings: QSettings) -> Path | None:
    """The newest autosave of a run that did not end cleanly, if any is kept."""
    clean = settings.value("session/clean_exit", True)
    clean = clean if isinstance(clean, bool) else str(clean).lower() == "true"
    if clean:
        return None
    return next((p for p in autosave_paths() if p.exists()), None)


def resume_candidates(path: Path | str | None = None) -> list[Path]:
    """The files ``resume_autosave`` tries, in order: ``path`` (default: the newest kept
    autosave) and, if it is an autosave, every older one kept."""
    kept = autosave_paths()
    if path is None:
        return [p for p in kept if p.exists()]
    path = Path(path)
    if not is_autosave(path):
        return [path]
    start = next(k for k, p in enumerate(kept) if p.resolve() == path.resolve())
    return [path] + [p for p in kept[start + 1:] if p.exists()]


def refusal_text(path: Path | str, exc: Exception) -> str:
    """The one line that says why ``path`` cannot be opened. StruggleErrors explain
    themselves (``load_file`` turns every refusal into one); anything else is named by its
    kind only, since its text could quote the file."""
    if isinstance(exc, StruggleError):
        return str(exc)
    return one_line(f"cannot open {Path(path).name}: the file could not be opened "
                    f"({type(exc).__name__})")


def fallback_note(newest: Path, failures: list[str], loaded: LoadedGame) -> str:
    """What the player is told when the newest autosave(s) could not be resumed and an older
    one was: which one, and how far back it is when that can be told."""
    count = len(failures)
    head = ("The newest autosave could not be read" if count == 1
            else f"The {count} newest autosaves could not be read")
    which = "the one before it" if count == 1 else "the one before them"
    return one_line(f"{head} ({failures[0]}); resumed from {which} ({loaded.path.name}), "
                    f"{_distance(newest, loaded)}.", 600)


def _distance(newest: Path, loaded: LoadedGame) -> str:
    """How far the resumed game is from the newest autosave, which could not be played: in
    actions if the newest can at least be read and is of the same game, else what it holds."""
    done = loaded.report.actions
    try:
        document = saves.read_document(newest)
        same = all(document[key] == value for key, value in (
            ("game", loaded.game.id), ("scenario", loaded.session.scenario),
            ("seed", loaded.session.seed)))
        recorded = len(document["actions"]) if same else None
    except Exception:            # noqa: BLE001 - unreadable: the distance is unknown
        recorded = None
    if recorded is None:
        return f"which holds {_actions(done)} of {loaded.game.title}"
    if recorded > done:
        return f"{_actions(recorded - done)} earlier"
    if recorded < done:
        return f"{_actions(done - recorded)} further on (the newest came after an Undo)"
    return "at the same action"


def _actions(n: int) -> str:
    return f"{n} action{'' if n == 1 else 's'}"


def stored_recent_files(settings: QSettings) -> list[Path]:
    """Every file of the recent list as stored, whether it still exists or not."""
    value = settings.value("files/recent", []) or []
    if not isinstance(value, list):      # one entry comes back as a plain string
        value = [value]
    return [Path(p) for p in value if isinstance(p, str) and p]


def clean_leftovers(settings: QSettings) -> int:
    """Remove the stale temporaries of interrupted saves: any save's in the user data folder
    (the autosaves), and each recent file's beside it. At start, before anything is saved;
    never fails. Returns how many were removed."""
    removed = saves.clean_stale_temporaries(user_data_dir())
    for path in stored_recent_files(settings):
        try:
            removed += saves.clean_stale_temporaries(path.parent, path.name)
        except (OSError, ValueError):     # a hand-edited settings file: a name with a NUL...
            pass
    return removed


def mark_running(settings: QSettings) -> None:
    settings.setValue("session/clean_exit", False)
    settings.sync()


