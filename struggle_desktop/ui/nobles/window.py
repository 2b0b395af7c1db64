"""The Noble Houses screen: 2-4 houses, each played by a person or by the program.

The shell (ui/shell.py) gives files, undo, layout and help; this window adds the hex map
(ui/nobles/scene.py in a zoomable ``MapView``), its panels (ui/nobles/panels.py: houses,
jumpship and cargo, battle, allies and Noble actions, the selected hex) and the shared
decision, log and dice panels, and the rules of who sits at the screen:

* each house is ``human`` or ``ai`` (NH-SIM-3, saved with the game); the program's houses
  are played one action per event-loop turn, each from its own view (ui/seats.py);
* everything is public (NH-SIM-1), so the screen simply follows the person whose decision
  is waited for (the title names the house); only before a person's nuke launch or
  sacrifice declaration, when another person also declares in that fight, does the opaque
  hand-over screen cover the window (NH-SIM-2), and the board beneath it is the public one;
* when every house played by a person is eliminated, the window says the game is lost and
  offers to let the program houses play on (NH-VIC-7); until then they wait.

Gestures: drag a jumpship (or a Self Transport army) to a lit hex to jump there — the units
ticked in the Ship panel are loaded first; click a ship, then a lit hex, for the same
without dragging; click a hex to see everything in it. A ship that may not jump now,
dragged, stays where it is and the status bar says why. Every other decision (recruiting,
Noble actions, nuke launches, casualties, commands, sacrifices) is answered in the decision
panel, purchases also in the Recruit panel (a list that holds still while the house buys, and
says why a purchase is gone) and Noble actions also in the Actions panel. A new prompt
brings its panel forward, but never in place of the panel under the pointer: that one stays
until the pointer leaves it (the status bar says which panel waits).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QRect, Qt, QTimer
from PySide6.QtGui import QCursor
from PySide6.QtWidgets import QPushButton

from struggle_desktop.engine.hexgrid import distance
from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.nobles.panels import (ActionsDock, BattleDock, CargoDock, HexDock,
                                               HousesDock, RecruitDock, movable_ships)
from struggle_desktop.ui.seated import SeatedWindow
from struggle_desktop.ui.nobles.watch import (WATCH_FAST_MS, WatchBar, WatchedProgram,
                                              program_marks)
from struggle_desktop.ui.seats import PROGRAM_STEP_MS, lock_actions

#: Prompts answered by simultaneous declarations (NH-SIM-2).
SECRET_PROMPTS = ("launch", "sacrifice")
#: The panel to bring forward when the seated house is asked one of these.
FIGHT_PROMPTS = ("launch", "casualty", "command", "sacrifice")


class LeaveWatch(QObject):
    """Calls ``on_leave(widget)`` when the pointer leaves a widget it watches."""

    def __init__(self, on_leave):
        super().__init__()
        self.on_leave = on_leave

    def watch(self, widget) -> None:
        widget.installEventFilter(self)     # (installed once: Qt drops a repeat)

    def eventFilter(self, watched, event) -> bool:   # noqa: N802 - Qt's name
        if event.type() == QEvent.Type.Leave:
            self.on_leave(watched)
        return False


class NoblesWindow(SeatedWindow):
    game_id = "nobles"
    layout_key = "window-nobles"
    #: 1: the Decision panel is tall enough for its list and buttons.
    LAYOUT_REVISION = 1

    def __init__(self, document=None, settings=None):
        self.scene = None          # keep a reference: a collected scene leaves a blank view
        self._session = None       # the session last shown: a new or opened game is re-seated
        self._shown_kind = None    # the prompt kind last followed (to bring its panel forward)
        self._scene_rect = None
        self.selected_ship: str | None = None
        self.selected_hex: str | None = None
        #: The cargo plan of each jumpship: units to load, units to unload before it jumps.
        self.loads: dict[str, set[str]] = {}
        self.unloads: dict[str, set[str]] = {}
        self.play_on = False       # NH-VIC-7: the person chose to watch the program play on
        #: (panel, panel under the pointer, prompt kind): a prompt's panel waiting for the
        #: pointer to leave
        self._waiting_panel = None
        self._leave_watch = LeaveWatch(self._pointer_left)
        #: Watching the program houses (ui/nobles/watch.py): the speed, whether a step waits
        #: for Continue, and the session whose end was already announced.
        self.speed = "fast"
        self.holding = False
        self._announced = None
        self.end_dialog = None
        super().__init__(document, settings)
        self.program = WatchedProgram(self.document, self.program_level, self._program_acted)
        self.watch_bar = WatchBar()
        self.watch_bar.speed_changed.connect(self.set_speed)
        self.watch_bar.continue_requested.connect(self.continue_watching)
        self.watch_bar.hide()
        self.statusBar().insertPermanentWidget(1, self.watch_bar)   # before the hover text
        self.set_speed(str(self.settings.value("watch/speed", "fast")))
        self.on_document_changed()

    # ================================================================== building
    def build_centre(self) -> None:
        from struggle_desktop.ui.map.view import MapView
        from struggle_desktop.ui.nobles.scene import SPACE

        page, column, row = self.banner_page("nobles", "#3a2326", 12)
        self.play_on_button = QPushButton("Let the program houses play on")
        self.play_on_button.setObjectName("nobles-play-on")
        self.play_on_button.clicked.connect(self.let_program_play_on)
        self.banner_new = QPushButton("New Game…")
        self.banner_new.clicked.connect(self.new_game_dialog)
        row.addWidget(self.play_on_button)
        row.addWidget(self.banner_new)
        self.banner.hide()
        view = MapView()
        view.setObjectName("nobles-view")
        view.setBackgroundBrush(SPACE)
        column.addWidget(view, 1)
        self.set_centre(page)
        self.map_page = page
        self.view = view

    def build_docks(self) -> None:
        from struggle_desktop.ui.docks.dice import DiceDock
        from struggle_desktop.ui.docks.log import LogDock

        doc = self.document
        self.decision_dock = DecisionDock(doc, self)
        self.cargo_dock = CargoDock(doc, self)
        self.cargo_dock.wanted = self.wanted_aboard
        self.recruit_dock = RecruitDock(doc, self)
        self.battle_dock = BattleDock(doc, self)
        self.actions_dock = ActionsDock(doc, self)
        self.houses_dock = HousesDock(doc, self)
        self.hex_dock = HexDock(doc, self)
        self.log_dock = LogDock(doc, self)
        self.dice_dock = DiceDock(doc, self)
        self.docks = [self.decision_dock, self.cargo_dock, self.recruit_dock, self.battle_dock,
                      self.actions_dock, self.houses_dock, self.hex_dock, self.log_dock,
                      self.dice_dock]
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.addDockWidget(right, self.decision_dock)
        self.addDockWidget(right, self.cargo_dock)
        self.splitDockWidget(self.decision_dock, self.cargo_dock, Qt.Orientation.Vertical)
        tabs = [self.cargo_dock, self.recruit_dock, self.battle_dock, self.actions_dock,
                self.houses_dock, self.hex_dock, self.log_dock, self.dice_dock]
        for first, second in zip(tabs, tabs[1:]):
            self.tabifyDockWidget(first, second)
        self.houses_dock.raise_()
        # Wide enough for the eight tab titles of the panels below the decision list.
        self.resizeDocks([self.decision_dock], [510], Qt.Orientation.Horizontal)
        # The Decision panel whole (its list, Hint and Do it) on a laptop screen's column.
        self.resizeDocks([self.decision_dock, self.cargo_dock], [430, 390],
                         Qt.Orientation.Vertical)
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)
        self.actions_dock.action_chosen.connect(self.perform)
        self.recruit_dock.action_chosen.connect(self.perform)
        self.cargo_dock.ship_chosen.connect(self.select_ship)
        self.cargo_dock.cargo_toggled.connect(self.toggle_cargo)
        self.cargo_dock.load_requested.connect(self.load_now)
        self.log_dock.ref_activated.connect(self.show_reference)

    def build_game_actions(self) -> None:
        self.act_hint = self._action("&Hint", self.show_hint, "Ctrl+H",
                                     "Select what the program's own player would choose")
        self.act_done = self._action("&Done", self.answer_done, "Ctrl+Return",
                                     "Finish this step for your house (when Done is a choice)")
        # The keys of Struggle's map; Ctrl+0 (Struggle's Whole Map) is the same as Fit here.
        self.act_fit = self._action("&Fit to Window", lambda: self.view.fit(),
                                    ["Ctrl+0", "Ctrl+9"], "Fit the map to the window")
        self.act_zoom_in = self._action("Zoom &In", lambda: self.view.zoom_in(),
                                        ["Ctrl++", "Ctrl+="], "Zoom in on the map")
        self.act_zoom_out = self._action("Zoom &Out", lambda: self.view.zoom_out(), "Ctrl+-",
                                         "Zoom out")

    def add_game_menus(self, bar) -> None:
        m = bar.addMenu("&View")
        m.addActions([self.act_fit, self.act_zoom_in, self.act_zoom_out])
        m.addSeparator()
        self.panels_menu(m)
        m = bar.addMenu("&Game")
        m.addActions([self.act_done, self.act_hint])

    # ================================================================== seats
    def house(self, letter: str | None) -> dict | None:
        board = self.document.board
        return next((h for h in board["houses"] if h["letter"] == letter), None) if board else None

    def house_title(self, letter: str | None) -> str:
        h = self.house(letter)
        return h["name"] if h else f"House {letter}"

    def humans_lost(self) -> bool:
        """NH-VIC-7: every house a person plays has been eliminated."""
        state = self.document.state
        humans = self.humans()
        return bool(humans) and all(not state["houses"][h]["alive"] for h in humans)

    def seat_title(self, role: str) -> str:
        return self.house_title(role)

    def needs_hand_over(self, role: str) -> bool:
        """NH-SIM-2: before a person's launch or sacrifice prompt, when another person's house
        also declares in that fight."""
        state = self.document.state
        if (state.get("pending") or {}).get("kind") not in SECRET_PROMPTS:
            return False
        board = self.document.game.board(state, "public")
        humans = self.humans()
        return any(h != role and h in humans for h in board["declaring"])

    def _arrange_seat(self) -> None:
        """Who the screen shows: the person the game waits for (after a hand-over when their
        answer must stay secret from another person), else the person last seated; the public
        view when nobody plays."""
        doc = self.document
        humans = self.humans()
        waiting = doc.waiting_role
        if doc.present is not self._session:
            # A game just started or opened: re-seat (a save taken during a secret step opens
            # behind the hand-over screen).
            self._session = doc.present
            self.overlay.hide()
            lock_actions(self, False)
            self._news_from = len(doc.state["log"])
            self.play_on = False
            self.holding = False
            if self.scene is not None:
                self.scene.watch_marks = []
            self.watch_bar.show_step(False)
            self.loads.clear()
            self.unloads.clear()
            self.selected_ship = self.selected_hex = None
            self._shown_kind = None
            if len(humans) > 1:
                doc.set_seat("public", quiet=True)
        if doc.looking_back:
            return          # the past is shown to whoever sits at the table now
        if not humans:
            doc.set_seat("public")
            return
        if waiting in humans:
            if waiting != doc.seat and not self.overlay.isVisible():
                if self.needs_hand_over(waiting):
                    self.overlay.show_for(waiting, f"Pass the computer to "
                                          f"{self.house_title(waiting)}",
                                          f"I am House {waiting}: continue", self._news())
                    self.show_message("")
                    doc.set_seat("public")
                else:
                    doc.set_seat(waiting)
            return
        if doc.seat not in humans and not self.overlay.isVisible():
            doc.set_seat(humans[0])

    def _news(self) -> list[str]:
        entries = self.document.game.log_entries(self.document.state, self._news_from,
                                                 role="public")
        return [e["text"] for e in entries if e["kind"] != "roll"][-6:]

    # ================================================================== showing
    def _ensure_scene(self) -> None:
        if self.scene is not None or self.document.layout is None:
            return
        from struggle_desktop.ui.nobles.scene import NoblesScene
        self.scene = NoblesScene(self.document.layout, self)
        self.view.setScene(self.scene)
        self.scene.draggable = self.draggable
        self.scene.drop_targets = self.drop_targets
        self.scene.ship_dropped.connect(self.ship_dropped)
        self.scene.ship_clicked.connect(self.ship_clicked)
        self.scene.hex_clicked.connect(self.hex_clicked)
        self.scene.pickup_refused.connect(
            lambda ship: self.show_message(f"Not possible: {self.pickup_refusal(ship)}"))
        self.centre.setCurrentWidget(self.map_page)
        QTimer.singleShot(0, self.view.first_view)

    def rebuild_centre_for_seat(self) -> None:
        """A new seat gets a map scene of its own, at its first view, with nothing
        selected and no cargo planned: nothing the house before looked at or ticked stays."""
        self.selected_ship = self.selected_hex = None
        self.loads.clear()
        self.unloads.clear()
        self._shown_kind = None
        self._scene_rect = None
        if self.scene is None:
            return
        old, self.scene = self.scene, None
        self._ensure_scene()
        old.deleteLater()

    def on_document_changed(self) -> None:
        if not hasattr(self, "overlay"):
            return          # still building: the first change is drawn at the end of __init__
        if self.program.busy and getattr(self.program, "burst", False):
            return          # an Instant burst: its end is drawn once
        super().on_document_changed()
        doc = self.document
        if doc.session is None:
            self.centre.setCurrentWidget(self.empty_label)
            self.act_hint.setEnabled(False)
            self.act_done.setEnabled(False)
            return
        self._ensure_scene()
        self._arrange_seat()
        board = doc.board
        self._prune_plan(board)
        self.act_hint.setEnabled(bool(board and board.get("prompt")))
        self.act_done.setEnabled(any(a.get("verb") == "done" for a in self.prompt_actions()))
        if self.overlay.isVisible():
            self.setWindowTitle(doc.game.title)    # Qt adds the program's name
            lock_actions(self, True)
        else:
            acting = self._acting_text(board)
            self.setWindowTitle(f"{doc.title} — {acting}" if acting else doc.title)
        self.redraw()
        self._follow_prompt(board)
        self._update_banner(board)
        self.watch_bar.setVisible("ai" in self.seats().values())
        self.program.paused = (self.humans_lost() and not self.play_on) or self.holding
        self.program.schedule()

    def _acting_text(self, board: dict) -> str:
        if board.get("outcome"):
            return "game over"
        waiting = board.get("waiting_for")
        if waiting is None:
            return ""
        who = self.house_title(waiting)
        return f"{who} to act" + ("" if waiting in self.humans() else " (program)")

    def redraw(self) -> None:
        """Draw the board again, with the selection and the held ship's targets."""
        board = self.document.board
        self.scene.select(self.selected_ship, self.selected_hex)
        self.scene.show_board(board)
        rect = self.scene.sceneRect()
        if rect != self._scene_rect:
            self._scene_rect = rect
            QTimer.singleShot(0, self.view.first_view)
        if self.selected_ship and self.draggable(self.selected_ship):
            self.scene.show_targets(self.selected_ship)
        self.cargo_dock.show_ship(self.selected_ship)
        self.hex_dock.show_hex(self.selected_hex)

    def _follow_prompt(self, board: dict) -> None:
        """Bring forward the panel of the seated house's new prompt: the jumpship in
        Movement (its first ship that can move picked), the fight for launches, casualties,
        commands and sacrifices, Noble actions in step 9."""
        prompt = board.get("prompt")
        kind = prompt["kind"] if prompt else None
        if kind == self._shown_kind:
            return
        self._shown_kind = kind
        if kind == "move":
            movable = movable_ships(board)
            if self.selected_ship not in movable and movable:
                self.select_ship(movable[0])
            self._bring_when_free(self.cargo_dock)
        elif kind in FIGHT_PROMPTS:
            self._bring_when_free(self.battle_dock)
        elif kind == "noble_action":
            self._bring_when_free(self.actions_dock)
        elif kind == "recruit":
            self._bring_when_free(self.recruit_dock)

    @staticmethod
    def _bring(dock) -> None:
        dock.show()
        dock.raise_()
        dock.ensure_widget()

    def _bring_when_free(self, dock) -> None:
        """Bring ``dock`` forward for a new prompt, but never in place of the panel the
        pointer is over: the player's next click there would land on another panel's control
        (after the last purchase the Ship panel took the Recruit panel's place, and the next
        double-clicks ticked cargo boxes). That panel stays until the pointer leaves it; the
        status bar says which panel is waiting."""
        covered = self._panel_under_hand(dock)
        self._waiting_panel = None
        if covered is None:
            self._bring(dock)
            return
        self._waiting_panel = (dock, covered, self._shown_kind)
        self._leave_watch.watch(covered)
        self.show_message(f"{self._prompt_words()}: the {dock.windowTitle()} panel comes "
                          "forward when the pointer leaves this one (or click its tab)")

    def _panel_under_hand(self, dock):
        """The panel shown where ``dock`` would come forward (a tab of its group), if the
        pointer is over it; else None."""
        if dock.isFloating():
            return None
        for other in self.tabifiedDockWidgets(dock):
            if other.isVisible() and not other.visibleRegion().isEmpty() and other.underMouse():
                return other
        return None

    def _pointer_left(self, panel) -> None:
        """The pointer left ``panel``: the panel a prompt asked for comes forward now, unless
        the player has brought another forward meanwhile."""
        if panel.rect().contains(panel.mapFromGlobal(QCursor.pos())):
            return           # not the pointer (a tooltip or popup over the panel): still here
        waiting, self._waiting_panel = self._waiting_panel, None
        if waiting is None or waiting[1] is not panel or panel.visibleRegion().isEmpty() \
                or waiting[2] != self._shown_kind:
            return                       # brought forward by hand, or asked for another prompt
        self._bring(waiting[0])
        self.show_message("")        # the note that it was waiting is done with

    def _prompt_words(self) -> str:
        prompt = (self.document.board or {}).get("prompt")
        return prompt["text"] if prompt and prompt.get("text") else "Your house acts next"

    def _update_banner(self, board: dict) -> None:
        """NH-VIC-7 and the end of the game, in a strip above the map."""
        outcome = board.get("outcome")
        if outcome:
            humans = self.humans()
            lost = bool(humans) and not set(humans) & set(outcome.get("winners") or [])
            self.banner_text.setText(("The game is lost. " if lost else "The game is over. ")
                                     + outcome["text"] + ".")
            self.play_on_button.hide()
            self.banner.show()
            self.show_message(f"The game is over: {outcome['text']}")
            self._announce_end(outcome, lost)
        elif self.humans_lost():
            names = ", ".join(self.house_title(h) for h in self.humans())
            if self.play_on:
                self.banner_text.setText(f"{names} eliminated: you are watching the program "
                                         "houses play on.")
                self.play_on_button.hide()
            else:
                self.banner_text.setText(f"The game is lost: {names}, played by you, has been "
                                         "eliminated.")
                self.play_on_button.show()
            self.banner.show()
        else:
            self.banner.hide()

    def _announce_end(self, outcome: dict, lost: bool) -> None:
        """Once per game (NH-VIC-1, NH-VIC-4, NH-VIC-5): a dialog names the winner and the way
        the game was won; the banner above the map keeps saying it."""
        from PySide6.QtWidgets import QMessageBox

        if self._announced is self.document.present or self.document.looking_back:
            return
        self._announced = self.document.present
        self.holding = False
        winners = outcome.get("winners") or []
        title = ("Nobody wins" if not winners else
                 " and ".join(self.house_title(w) for w in winners)
                 + (" wins" if len(winners) == 1 else " share the win"))
        box = QMessageBox(QMessageBox.Icon.Information, "The game is over", f"<b>{title}</b>",
                          QMessageBox.StandardButton.Ok, self)
        box.setObjectName("nobles-game-over")
        box.setStyleSheet("QLabel { min-width: 360px; }")
        box.setInformativeText(f"{outcome.get('how_text') or ''}\n{outcome['text']}."
                               + ("\nYour house lost." if lost else ""))
        box.setWindowModality(Qt.WindowModality.NonModal)
        self.end_dialog = box
        box.show()

    def let_program_play_on(self) -> None:
        """NH-VIC-7: the person lost, and watches the program houses finish the game."""
        self.play_on = True
        self.program.paused = False
        self._update_banner(self.document.board)
        self.program.schedule()

    # ================================================================== the program player
    def program_level(self, role: str) -> str | None:
        return "bot" if self.seats().get(role) == "ai" else None

    def set_speed(self, speed: str) -> None:
        """How the program houses' turns are shown (the Struggle window's choices and
        setting): a change applies to a turn under way."""
        speed = speed if speed in ("step", "fast", "instant") else "fast"
        self.speed = speed
        self.settings.setValue("watch/speed", speed)
        if not self.watch_bar.buttons[speed].isChecked():
            self.watch_bar.set_speed(speed)
        self.program.burst = speed == "instant"
        if speed != "step" and self.holding:
            self.continue_watching()
        elif speed == "instant":
            self.program.step_ms = PROGRAM_STEP_MS

    def _program_acted(self, result) -> None:
        """After each program action (not in an Instant burst): mark on the map what the
        seated house sees of it, say it in the status bar, and at Step wait for Continue."""
        self.program.step_ms = PROGRAM_STEP_MS
        if not result.ok or self.scene is None:
            return
        board = self.document.board
        marks = program_marks(self.program.board_before, board, result.new_entries)
        if not marks:
            return
        actor = (self.program.board_before or {}).get("waiting_for")
        who = self.house_title(actor) if actor else "A program house"
        text = f"{who}: " + "; ".join(m["text"] for m in marks)
        self.scene.show_watch(marks)
        more = board.get("waiting_for") is not None and self.program.to_move() is not None
        if self.speed == "step" and more:
            self.holding = True
            self.program.paused = True
            self.watch_bar.show_step(True)
            self.show_message(f"{text} — press Continue for the next step")
        else:
            self.watch_bar.show_step(False)
            self.show_message(text)
            self.program.step_ms = WATCH_FAST_MS if self.speed == "fast" else PROGRAM_STEP_MS

    def continue_watching(self) -> None:
        """Continue: the program house goes on after the step on show."""
        if not self.holding:
            return
        self.holding = False
        self.watch_bar.show_step(False)
        self.program.paused = self.humans_lost() and not self.play_on
        self.program.schedule()

    def perform(self, action: dict) -> bool:
        """The person acts: what the program did last is no longer marked."""
        if self.scene is not None and self.scene.watch_marks:
            self.scene.show_watch([])
            self.watch_bar.show_step(False)
        return super().perform(action)

    # ================================================================== acting
    def answer_done(self) -> None:
        if not self.perform({"verb": "done"}):
            self.show_message("Done is not a choice now")

    # ------------------------------------------------------------------ jumps
    def draggable(self, ship: str) -> bool:
        return any(a["verb"] == "jump" and a["ship"] == ship for a in self.prompt_actions())

    def drop_targets(self, ship: str) -> list[str]:
        """The hexes ``ship`` may jump to now (the legal ``jump`` actions)."""
        return [f"{a['to'][0]},{a['to'][1]}" for a in self.prompt_actions()
                if a["verb"] == "jump" and a["ship"] == ship]

    def where_it_may_go(self, ship: str, near: tuple[int, int] | None = None) -> str:
        """The hexes ``ship`` may jump to now, nearest to ``near`` first (a refused drop
        says where to drop instead, as a refused counter on the Struggle map does)."""
        targets = [tuple(int(v) for v in key.split(",")) for key in self.drop_targets(ship)]
        if not targets:
            return "it cannot jump now"
        if near is not None:
            targets.sort(key=lambda h: (distance(near, h), h))
        shown = ", ".join(f"({x},{y})" for x, y in targets[:6])
        more = f" and {len(targets) - 6} more lit hexes" if len(targets) > 6 else ""
        return f"it may go to {shown}{more}"

    def pickup_refusal(self, ship: str) -> str:
        """Why ``ship`` may not be dragged now (said when the player tries, as the Struggle
        map does): what is asked instead when no ship jumps now, else the rules' reason."""
        board = self.document.board
        if board is None:
            return "no game is open"
        if board.get("outcome"):
            return "the game is over"
        prompt = board.get("prompt")
        if prompt is None:
            waiting = board.get("waiting_for")
            return f"it is house {waiting}'s turn" if waiting else "nothing is asked of you now"
        if not any(a["verb"] == "jump" for a in self.prompt_actions()):
            return f"no ship jumps now ({board['phase_name']}: {prompt['text']})"
        return (self.document.check({"verb": "jump", "ship": ship, "to": None})
                or f"{ship} cannot jump now")

    def ship_dropped(self, ship: str, key: str) -> None:
        """A ship dropped on a hex: its ticked cargo is loaded, then it jumps there; a drop
        where it cannot go changes nothing and the rules' reason is shown."""
        board = self.document.board
        if not key:
            self.show_message(f"Not possible: that is off the map; {self.where_it_may_go(ship)}")
            self.redraw()
            return
        unit = board["units"].get(ship)
        if unit is not None and f"{unit['hex'][0]},{unit['hex'][1]}" == key:
            self.redraw()                     # put back where it was: nothing asked
            return
        self.jump(ship, key)

    def jump(self, ship: str, key: str) -> bool:
        x, y = (int(v) for v in key.split(","))
        action = {"verb": "jump", "ship": ship, "to": [x, y]}
        reason = self.document.check(action)
        if reason is not None:
            self.show_message(f"Not possible: {reason}; {self.where_it_may_go(ship, (x, y))}")
            self.redraw()
            return False
        for step in self.plan_actions(ship) + [action]:
            if not self.perform(step):
                self.redraw()
                return False
        return True

    def ship_clicked(self, ship: str) -> None:
        self.select_ship(ship)
        self._bring(self.cargo_dock)

    def select_ship(self, ship: str) -> None:
        board = self.document.board
        unit = (board or {}).get("units", {}).get(ship)
        if unit is None:
            return
        self.selected_ship = ship
        self.selected_hex = f"{unit['hex'][0]},{unit['hex'][1]}"
        if self.scene is not None:
            self.redraw()

    def hex_clicked(self, key: str) -> None:
        """A click on a lit hex moves the selected ship there; on any other hex it shows what
        is in it."""
        if self.selected_ship and key in self.drop_targets(self.selected_ship):
            self.jump(self.selected_ship, key)
            return
        self.selected_hex = key
        self.selected_ship = None
        self.redraw()
        self._bring(self.hex_dock)

    def show_reference(self, ref: str) -> None:
        """A log reference clicked: a hex, or a unit still in play, is selected on the map."""
        board = self.document.board
        if not board or not board.get("map"):
            return
        if ref.startswith("hex:"):
            self.selected_hex = ref[4:]
            self.selected_ship = None
        elif ref in board["units"]:
            h = board["units"][ref]["hex"]
            self.selected_hex = f"{h[0]},{h[1]}"
            self.selected_ship = ref if board["units"][ref]["is_ship"] else None
        else:
            return
        self.redraw()

    # ------------------------------------------------------------------ a guide's targets
    def guide_target_rect(self, name: str) -> QRect | None:
        """Where a guided game's step points on the map (ui/learn/runner.py), in window
        coordinates, scrolled into view: ``hex:XXYY`` is the hex of column XX and row YY
        (``hex:0704`` is (7,4)), ``unit:A-JS1`` a jumpship's token. None if there is no such
        hex or token on the map now."""
        scene = self.scene
        if scene is None or scene.grid is None:
            return None
        kind, _, what = name.partition(":")
        if kind == "hex" and len(what) == 4 and what.isdigit():
            h = (int(what[:2]), int(what[2:]))
            if f"{h[0]},{h[1]}" not in scene.hex_items:
                return None
            area = scene.polygon(h).boundingRect()
        elif kind == "unit" and what in scene.tokens and scene.tokens[what].isVisible():
            area = scene.tokens[what].sceneBoundingRect()
        else:
            return None
        self.view.follow(area)
        shown = self.view.mapFromScene(area).boundingRect()
        port = self.view.viewport()
        shown = shown.intersected(port.rect())
        if shown.isEmpty():
            return None
        return QRect(port.mapTo(self, shown.topLeft()), shown.size())

    # ------------------------------------------------------------------ the cargo plan
    def wanted_aboard(self, ship: str, uid: str, aboard: bool) -> bool:
        return (aboard and uid not in self.unloads.get(ship, ())) or uid in self.loads.get(
            ship, ())

    def toggle_cargo(self, ship: str, uid: str, on: bool) -> None:
        """A tick in the Ship panel: plan to have ``uid`` aboard ``ship`` (or not) when it
        jumps. A tick beyond the ship's free slots is refused."""
        units = self.document.board["units"]
        aboard = units[uid]["ship"] == ship
        loads = self.loads.setdefault(ship, set())
        unloads = self.unloads.setdefault(ship, set())
        if on:
            unloads.discard(uid)
            if not aboard:
                if units[uid]["category"] != "noble" and self.planned_slots(ship) >= \
                        units[ship]["slots"]:
                    self.show_message(f"Not possible: {ship} has {units[ship]['slots']} slots "
                                      "(Nobles ride free)")
                    self.cargo_dock.update_widget()
                    return
                loads.add(uid)
        else:
            loads.discard(uid)
            if aboard:
                unloads.add(uid)
        self.cargo_dock.update_widget()

    def planned_slots(self, ship: str) -> int:
        units = self.document.board["units"]
        return sum(1 for uid, u in units.items()
                   if u["category"] in ("army", "nuke") and not u["is_ship"]
                   and self.wanted_aboard(ship, uid, u["ship"] == ship))

    def plan_actions(self, ship: str) -> list[dict]:
        """The unloads, then the loads, the player ticked for ``ship``."""
        unloads = [{"verb": "unload", "ship": ship, "unit": u}
                   for u in sorted(self.unloads.get(ship, ()))]
        loads = [{"verb": "load", "ship": ship, "unit": u}
                 for u in sorted(self.loads.get(ship, ()))]
        return unloads + loads

    def load_now(self, ship: str) -> None:
        for step in self.plan_actions(ship):
            if not self.perform(step):
                return
        self.show_message(f"{ship} is loaded: drag it to a lit hex to jump")

    def _prune_plan(self, board: dict | None) -> None:
        """Keep only the plans of ships that can still move, and only what still needs doing."""
        units = (board or {}).get("units", {})
        movable = set(movable_ships(board))
        for ship in list(self.loads) + list(self.unloads):
            if ship not in movable or ship not in units:
                self.loads.pop(ship, None)
                self.unloads.pop(ship, None)
                continue
            where = units[ship]["hex"]
            self.loads[ship] = {u for u in self.loads.get(ship, ())
                                if u in units and units[u]["ship"] is None
                                and units[u]["hex"] == where}
            self.unloads[ship] = {u for u in self.unloads.get(ship, ())
                                  if u in units and units[u]["ship"] == ship}
        if self.selected_ship and self.selected_ship not in units:
            self.selected_ship = None

    # ------------------------------------------------------------------ hint and autopilot
    def autopilot_step(self) -> bool:
        """One step as the players would: confirm a hand-over, let the program move, or take
        the hint for the seated house."""
        if self.overlay.isVisible():
            self.take_seat()
            return True
        if self.holding:
            self.continue_watching()
            return True
        if self._program_to_move():
            self.program_step()
            return True
        return super().autopilot_step()

    def before_close(self) -> None:
        self.program.paused = True
