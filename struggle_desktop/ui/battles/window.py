"""The Battles screen: two players at one computer (hot-seat) or one against the program.

The shell (ui/shell.py) gives files, undo, layout and help; this window adds the table
(ui/battles/scene.py), the hand of chits, the decision list, the log and the dice, and the
rules of who sits at the screen:

* each colour is played by a person or by the program (the ``blue_player``/``red_player``
  options, saved with the game, BFG-HID-1);
* against the program the screen always shows the person's view and the program's turns are
  played at once, one action per event-loop turn, from the program's own view (BFG-HID-9);
* with two people, whenever the game waits for the other colour an opaque hand-over screen
  covers the whole window ("Pass to Red"), the document shows the public view beneath it, the
  shortcuts are off, and only "I am Red: continue" brings the other player's view (BFG-HID-4);
  it also lists what has just been revealed (deployments, disengagement choices).

Gestures: drag a fleet from your display to a region to deploy it (back to the display to keep
it back); in a fight drag a firer onto an enemy counter to target it; click a region to resolve
it; click a fleet to add it to or take it from a garrison, or to lose it to pursuit fire;
double-click a chit in the hand to play it (the decision list then shows its choices);
Ctrl+wheel (or the wheel) zooms about the pointer, Ctrl+plus/minus zoom, Ctrl+0 fits the table.
A fleet that may not move now, dragged, stays where it is and the status bar says why (the
game's reason, or what the question asks instead), as does a click on a region that may not
be resolved while one is asked; a drag is never taken for a click.

Each step's "Done" (discarding, deploying, building, setting up the defence) has a button
of its own in a fixed place in the Turn panel, live while that step may end. A fight's
mini-map stays open after the fight's end, showing where its fleets went, until the player
closes it or answers the next question. The hand keeps its rows in place: a played chit's row
stays greyed until a drawn chit takes it, so no row slides under the pointer.

Every chit in the hand has a tooltip: what it does, and how it may be played now or the game's
reason why not (the same reason a double-click shows). While the seat deploys, its display and
the Turn panel say how many fleets are left to place before Done; a fleet dropped back on its
own display stays there and the status bar says what is left.
"""

from __future__ import annotations

import copy

from PySide6.QtCore import QRect, Qt, QTimer
from PySide6.QtGui import QBrush
from PySide6.QtWidgets import (QHBoxLayout, QLabel, QListView, QListWidget, QListWidgetItem,
                               QPushButton, QVBoxLayout, QWidget)

from struggle_desktop.ui.battles.scene import deployment_note, unplaced_fleets
from struggle_desktop.ui.docks.base import DockPanel
from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.map.view import MapView
from struggle_desktop.ui.seated import SeatedWindow
from struggle_desktop.ui.seats import lock_actions

SIDE_TITLES = {"blue": "Blue (Imperial)", "red": "Red (Chaos)"}


class TableView(MapView):
    """The table: Struggle's map view (Ctrl+wheel zooms about the pointer, Zoom In/Out,
    Ctrl+0 fits, a drag on the empty table pans when zoomed in), on the table's paper."""

    def __init__(self, parent=None):
        super().__init__(parent=parent)
        self.setObjectName("battles-view")
        # No brush of its own: the scene paints its paper round the table too.
        self.setBackgroundBrush(QBrush(Qt.BrushStyle.NoBrush))


class HandDock(DockPanel):
    """The seated player's chits, each with what it does; nothing when nobody is seated."""
    object_name = "dock-battles-hand"
    title = "Hand"
    default_area = Qt.DockWidgetArea.RightDockWidgetArea

    def __init__(self, document, parent=None, play=None):
        super().__init__(document, parent)
        self.play = play

    def create_widget(self) -> QWidget:
        box, layout = self.column()
        self.caption = self.wrapped_label()
        self.chits = QListWidget()
        self.chits.setObjectName("hand-list")
        # Each chit's line says what it does, wrapped rather than cut at the panel's edge.
        self.chits.setWordWrap(True)
        self.chits.setResizeMode(QListView.ResizeMode.Adjust)
        self.chits.setTextElideMode(Qt.TextElideMode.ElideNone)
        self.chits.setAlternatingRowColors(True)
        self.chits.itemActivated.connect(self._activated)
        # The other player's open hand, under the list: a row of its own at the list's end
        # would be where a newly drawn chit appears next.
        self.open_hand = self.wrapped_label()
        self.open_hand.hide()
        layout.addWidget(self.caption)
        layout.addWidget(self.chits, 1)
        layout.addWidget(self.open_hand)
        return box

    def _activated(self, item: QListWidgetItem) -> None:
        if self.play and item.flags() & Qt.ItemFlag.ItemIsEnabled:
            self.play(item.data(Qt.ItemDataRole.UserRole))

    def update_widget(self) -> None:
        board = self.document.board
        hand = board.get("hand") if board else None
        if hand is None:
            self.chits.clear()
            self.open_hand.hide()
            self.caption.setText("No hand is shown: nobody is seated.")
            return
        self.caption.setText(f"{SIDE_TITLES[board['seat']]}: {len(hand)} chits "
                             "(double-click one to play it)")
        self._fill(board, hand)
        other = "red" if board["seat"] == "blue" else "blue"
        shown = board["players"][other]["chits"]
        self.open_hand.setVisible(shown is not None)       # open hands (BFG-HID-8)
        if shown is not None:
            self.open_hand.setText(f"{SIDE_TITLES[other]} holds: {', '.join(shown) or 'nothing'}")

    def _fill(self, board: dict, hand: list[dict]) -> None:
        """List the hand keeping every row in place: a chit that has left the hand leaves
        its row greyed where it was (never removed, which would slide the rows below under
        the pointer, so a second double-click would play another chit), and a newly drawn
        chit takes the first greyed row, else a new one at the end."""
        by_chit = {chit["chit"]: chit for chit in hand}
        free = []
        for row in range(self.chits.count()):
            item = self.chits.item(row)
            chit = by_chit.pop(item.data(Qt.ItemDataRole.UserRole), None)
            if chit is not None:
                self._dress(item, board, chit)
            else:
                if item.flags() & Qt.ItemFlag.ItemIsEnabled:
                    item.setFlags(Qt.ItemFlag.NoItemFlags)        # gone: greyed, in place
                    item.setToolTip("No longer in your hand")
                free.append(item)
        for chit in by_chit.values():       # in the hand's order
            if free:
                self._dress(free.pop(0), board, chit)
            else:
                self.chits.addItem(self._dress(QListWidgetItem(), board, chit))

    def _dress(self, item: QListWidgetItem, board: dict, chit: dict) -> QListWidgetItem:
        item.setText(f"{chit['chit']}: {chit['effect']}")
        item.setData(Qt.ItemDataRole.UserRole, chit["chit"])
        item.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
        item.setToolTip(self.chit_tooltip(board, chit))
        return item

    def chit_tooltip(self, board: dict, chit: dict) -> str:
        """What ``chit`` does, and the answers it gives now (the prompt's own words: plays,
        a repression, setting it aside) or the game's reason why it cannot be played."""
        lines = [f"{chit['chit']} ({chit['type']} chit): {chit['effect']}"]
        prompt = board.get("prompt")
        ways = [e["label"] for e in (prompt["actions"] if prompt else [])
                if e["action"].get("chit") == chit["chit"]]
        if ways:
            lines.append("Now (double-click, then pick one in the Decision panel):"
                         if len(ways) > 1 else "Now (double-click):")
            lines += [f"  • {way}" for way in ways[:6]]
            if len(ways) > 6:
                lines.append(f"  … and {len(ways) - 6} more")
        else:
            lines.append(f"Not now: {play_refusal(self.document, chit['chit'])}")
        return "\n".join(lines)


def play_refusal(document, chit: str) -> str:
    """Why ``chit`` cannot be played now, in the game's words (its ``check_action``)."""
    return (document.check({"verb": "play", "chit": chit})
            or "it needs a choice the current decision does not offer")


#: The answers that end a step, each with a button of its own in the Turn panel (the words
#: are the Decision panel's). One button per step: the button under the pointer never turns
#: into the next step's, so a second click cannot skip a step.
STEP_BUTTONS = (("discard", "Done discarding"), ("deploy", "Done deploying"),
                ("build", "Done building"), ("defend", "Done setting up the defence"))


class TableDock(DockPanel):
    """The buttons that end a step, then turn, phase, who acts, what is left to deploy, and
    both players' tracks in words."""
    object_name = "dock-battles-table"
    title = "Turn and Tracks"
    default_area = Qt.DockWidgetArea.BottomDockWidgetArea

    def __init__(self, document, parent=None, perform=None):
        super().__init__(document, parent)
        self.perform = perform

    def create_widget(self) -> QWidget:
        box = QWidget()
        row = QHBoxLayout(box)
        row.setContentsMargins(6, 4, 6, 4)
        buttons = QVBoxLayout()
        buttons.setSpacing(2)
        self.step_buttons: dict[str, QPushButton] = {}
        for kind, words in STEP_BUTTONS:
            button = QPushButton(words)
            button.setObjectName(f"step-{kind}")
            button.setEnabled(False)
            button.clicked.connect(lambda _checked=False, k=kind: self.end_step(k))
            buttons.addWidget(button)
            self.step_buttons[kind] = button
        buttons.addStretch(1)
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.label.setTextFormat(Qt.TextFormat.RichText)
        self.label.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.label.setContentsMargins(4, 2, 4, 2)
        row.addLayout(buttons)
        row.addWidget(self.label, 1)
        return box

    def end_step(self, kind: str) -> None:
        action = self.step_action(kind)
        if action is not None and self.perform is not None:
            self.perform(action)

    def step_action(self, kind: str) -> dict | None:
        """The answer that ends the step ``kind``, if the seat is asked it now."""
        board = self.document.board
        prompt = board.get("prompt") if board else None
        if not prompt or prompt["kind"] != kind:
            return None
        return next((e["action"] for e in prompt["actions"] if e["action"]["verb"] == "done"),
                    None)

    def update_steps(self, board: dict | None) -> None:
        """Each step button is live while its step may end now; its tooltip says why not."""
        prompt = board.get("prompt") if board else None
        note = deployment_note(board)
        for kind, button in self.step_buttons.items():
            live = self.step_action(kind) is not None
            button.setEnabled(live)
            if live:
                why = "Ends this step (the same answer is in the Decision panel)"
            elif prompt and prompt["kind"] == kind:
                why = (f"Not yet: {note[0]}" if note else "Not yet: this step is not finished")
            elif prompt:
                why = f"Not now: the question is “{prompt['text']}”"
            else:
                why = "Not now: nothing is asked of you"
            button.setToolTip(why)

    def update_widget(self) -> None:
        board = self.document.board
        self.update_steps(board)
        if board is None:
            self.label.setText("No game is open.")
            return
        # Six short rows at most, none wrapping in the panel's width on a laptop screen (nor,
        # as a rule, at a 150 % scale factor), so that the words show whole beside the step
        # buttons: eight to thirteen lines scrolled there. The longer forms, and what the
        # table itself shows (the common pool on Blue's display, the deployment note's detail
        # on the seat's display), are in the tooltip.
        t = board["thresholds"]
        pools = (f"Chit pool: {board['chit_pool_count']} · common pool: "
                 f"{len(board['common_pool'])} fleets")
        rows = [f"<b>Turn {board['turn']} of {board['last_turn']}</b> — {board['phase_name']}",
                f"Chaos Index <b>{board['ci']}</b>: Red wins ≤ {t['red_at_most']}, "
                f"Blue ≥ {t['blue_at_least']}"]
        tips = [f"Chaos Index {board['ci']}: Red wins at ≤ {t['red_at_most']}, Blue at ≥ "
                f"{t['blue_at_least']} (at the end of the turn)", pools]
        note = deployment_note(board)
        if board["outcome"]:
            outcome = board["outcome"]
            rows.append(f"<b>{SIDE_TITLES.get(outcome.get('winner'), 'Nobody')} wins</b>")
            tips.append(outcome["text"])
        elif note is not None:
            # The seat is the one asked: what it must still do says more than its name.
            rows.append(f"<span style='background:#fff4d6'><b>{note[0]}</b></span>")
            tips.append(f"{note[0]}: {note[1]}")
        elif board["waiting_for"]:
            rows.append(f"Waiting for <b>{SIDE_TITLES[board['waiting_for']]}</b>")
        for side in ("blue", "red"):
            p = board["players"][side]
            rows.append(f"{side.capitalize()}: {p['rp']} RP"
                        + (f" + {p['banked']} banked" if p["banked"] else "")
                        + f", {p['hand_count']} chits, "
                        + f"{sum(1 for r in board['regions'] if r['controller'] == side)} regions")
        if board["last_chit"]:
            last = board["last_chit"]
            rows.append(f"Last chit: {last['chit']}, {last['side'].capitalize()}"
                        + (" (repressed)" if last["cancelled"] else ""))
            tips.append(self.last_chit_words(last))
        else:
            rows.append(pools)
        self.label.setText("<br>".join(rows))
        self.label.setToolTip("\n".join(tips))

    def last_chit_words(self, last: dict) -> str:
        """The last chit played, as the game words that play."""
        words = (self.document.describe(last["action"]) if last.get("action")
                 else f"Play {last['chit']}")
        return (f"Last chit: {last['side'].capitalize()} — {words}"
                + (" (repressed: it had no effect)" if last["cancelled"] else ""))


class BattlesWindow(SeatedWindow):
    game_id = "battles"
    layout_key = "window-battles"
    #: 2: the dice behind the log, so that the decision list, Hint and Do it fit a laptop.
    #: 3: the Turn panel wider than the log, so that its words fit beside its buttons.
    LAYOUT_REVISION = 3

    def __init__(self, document=None, settings=None):
        self.scene = None          # keep a reference: a collected scene leaves a blank view
        self._session = None       # the session last shown: a new or opened game starts unseated
        # The fight on the table (its last entry) and, once it has ended, that entry again
        # until the player closes its mini-map or answers the next question.
        self._fight_game = None
        self._fight_seen: dict | None = None
        self._fight_over: dict | None = None
        super().__init__(document, settings)
        self.on_document_changed()

    # ================================================================== building
    def build_centre(self) -> None:
        self.set_centre(TableView())

    def build_docks(self) -> None:
        from struggle_desktop.ui.docks.dice import DiceDock
        from struggle_desktop.ui.docks.log import LogDock

        doc = self.document
        self.decision_dock = DecisionDock(doc, self)
        self.hand_dock = HandDock(doc, self, play=self.play_chit)
        self.table_dock = TableDock(doc, self, perform=self.perform)
        self.log_dock = LogDock(doc, self)
        self.dice_dock = DiceDock(doc, self)
        self.docks = [self.table_dock, self.decision_dock, self.hand_dock, self.log_dock,
                      self.dice_dock]
        right = Qt.DockWidgetArea.RightDockWidgetArea
        bottom = Qt.DockWidgetArea.BottomDockWidgetArea
        # The table needs the width (its regions and displays side by side): the turn, its
        # step buttons and tracks sit in a low bottom row with the log and, behind it, the
        # dice; the decision list and the hand share the right column. A 1366x768 screen then
        # draws the table with text of 9 px and more, and shows the whole answer list with
        # Hint and Do it, and every step button, without scrolling.
        self.setCorner(Qt.Corner.BottomRightCorner, right)    # the column is full height
        self.addDockWidget(right, self.decision_dock)
        self.addDockWidget(right, self.hand_dock)
        self.addDockWidget(bottom, self.table_dock)
        self.addDockWidget(bottom, self.log_dock)
        self.splitDockWidget(self.table_dock, self.log_dock, Qt.Orientation.Horizontal)
        self.tabifyDockWidget(self.log_dock, self.dice_dock)
        self.log_dock.raise_()
        self.arrange_panels()
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)

    def arrange_panels(self) -> None:
        """The panels' first sizes. Qt heeds them only once the window is shown at its size,
        so the shell gives them again then (unless a saved layout was restored) and after
        Reset Layout, before it hides the tab bars left behind (GameWindow.lay_out)."""
        self.resizeDocks([self.decision_dock], [400], Qt.Orientation.Horizontal)
        # The Turn panel's six rows beside its step buttons want some 560 px not to wrap
        # (wrapped, they scrolled on a laptop screen); the log's rows elide.
        self.resizeDocks([self.table_dock, self.log_dock], [560, 320], Qt.Orientation.Horizontal)
        self.resizeDocks([self.decision_dock, self.hand_dock], [420, 260],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.log_dock], [150], Qt.Orientation.Vertical)

    def build_game_actions(self) -> None:
        self.act_hint = self._action("&Hint", self.show_hint, "Ctrl+H",
                                     "Select what the program's own player would choose")
        # The keys of Struggle's map; Ctrl+0 (Struggle's Whole Map) is the same as Fit here.
        self.act_zoom_in = self._action("Zoom &In", lambda: self.view.zoom_in(),
                                        ["Ctrl++", "Ctrl+="], "Zoom in on the table")
        self.act_zoom_out = self._action("Zoom &Out", lambda: self.view.zoom_out(), "Ctrl+-",
                                         "Zoom out")
        self.act_fit = self._action("&Fit to Window", lambda: self.view.fit(),
                                    ["Ctrl+0", "Ctrl+9"], "Fit the table to the window")

    def add_game_menus(self, bar) -> None:
        m = bar.addMenu("&View")
        m.addActions([self.act_zoom_in, self.act_zoom_out, self.act_fit])
        m.addSeparator()
        self.panels_menu(m)
        m = bar.addMenu("&Game")
        m.addAction(self.act_hint)

    # ================================================================== seats
    def seat_title(self, role: str) -> str:
        return SIDE_TITLES[role]

    def _lock(self, locked: bool) -> None:
        """While the hand-over screen is up no shortcut may act (BFG-HID-4); unlocking leaves
        the commands to ``on_document_changed``."""
        lock_actions(self, locked)

    def _arrange_seat(self) -> None:
        """Who sees the screen now: the only person against the program, or (two people) the
        one the game waits for, after a hand-over; nobody's secrets when nobody is seated."""
        doc = self.document
        if doc.session is None:
            return
        humans = self.humans()
        waiting = doc.waiting_role
        if doc.present is not self._session:
            # A game just started or opened: nobody is seated yet (a hot-seat save opens
            # behind the hand-over screen, BFG-HID-11).
            self._session = doc.present
            self.overlay.hide()
            self._lock(False)
            self._news_from = len(doc.state["log"])
            if len(humans) == 2:
                doc.set_seat("public", quiet=True)
        if doc.looking_back:
            return          # the past is shown to whoever sits at the table now
        if len(humans) == 1:
            doc.set_seat(humans[0])
        elif not humans or waiting is None:
            doc.set_seat("public")
        elif waiting != doc.seat and not self.overlay.isVisible():
            if self._open_hands() and not self._secret_prompt():
                doc.set_seat(waiting)      # both hands are face up: nothing to hide (BFG-HID-8)
                return
            self.overlay.show_for(waiting, f"Pass the computer to {SIDE_TITLES[waiting]}",
                                  f"I am {waiting.capitalize()}: continue",
                                  self._news())   # first: nothing private is drawn
            self.show_message("")
            doc.set_seat("public")

    def _open_hands(self) -> bool:
        return bool(self.document.state["options"].get("open_hands"))

    def _secret_prompt(self) -> bool:
        """Whether the waiting prompt's answer stays secret until both have answered: the
        deployment, and the disengagement choice when it is secret (BFG-HID-8)."""
        state = self.document.state
        kind = (state.get("pending") or {}).get("kind")
        return kind == "deploy" or (kind == "disengage"
                                    and bool(state["options"].get("secret_disengagement")))

    def _news(self) -> list[str]:
        """What became public since the last hand-over: reveals and results."""
        entries = self.document.game.log_entries(self.document.state, self._news_from,
                                                 role="public")
        return [e["text"] for e in entries if e["kind"] == "reveal"][-6:]

    # ================================================================== showing
    def _ensure_scene(self) -> None:
        if self.scene is not None or self.document.layout is None:
            return
        from struggle_desktop.ui.battles.scene import BattlesScene
        self.scene = BattlesScene(self.document.layout, self)
        self.view.setScene(self.scene)
        self.scene.draggable = self.draggable
        self.scene.drop_targets = self.drop_targets
        self.scene.fleet_dropped.connect(self.fleet_dropped)
        self.scene.region_clicked.connect(self.region_clicked)
        self.scene.fleet_clicked.connect(self.fleet_clicked)
        self.scene.pickup_refused.connect(
            lambda fleet_id: self.show_message(f"Not possible: {self.pickup_refusal(fleet_id)}"))
        self.scene.fight_closed.connect(self.close_finished_fight)
        self.centre.setCurrentWidget(self.view)
        QTimer.singleShot(0, self.view.fit)

    def rebuild_centre_for_seat(self) -> None:
        """A new seat gets a table scene of its own: no highlight, lit target, dragged
        counter or tooltip of the seat before survives (the change signal draws it)."""
        if self.scene is None:
            return
        old, self.scene = self.scene, None
        self._ensure_scene()
        old.deleteLater()

    def on_document_changed(self) -> None:
        if not hasattr(self, "overlay"):
            return          # still building: the first change is drawn at the end of __init__
        super().on_document_changed()
        doc = self.document
        self.act_hint.setEnabled(bool(doc.board and doc.board.get("prompt")))
        if doc.session is None:
            self.centre.setCurrentWidget(self.empty_label)
            return
        self._ensure_scene()
        self._arrange_seat()
        if self.overlay.isVisible():
            self.setWindowTitle(doc.game.title)    # Qt adds the program's name
            self._lock(True)
        self.scene.show_board(doc.board, self._follow_fight())
        self.program.schedule()
        outcome = doc.board.get("outcome") if doc.board else None
        if outcome:
            self.show_message(f"The game is over: {outcome['text']}")

    def _follow_fight(self) -> dict | None:
        """The finished fight to keep on the table, if any: a fight's mini-map stays open
        after its end, showing where its fleets went, until the player closes it, answers
        the next question or another fight starts."""
        doc = self.document
        if doc.present is not self._fight_game:
            self._fight_game = doc.present     # another game: nothing of the last one
            self._fight_seen = self._fight_over = None
        board = doc.board
        if board is None or doc.looking_back:
            return None
        if board["battle"]:
            self._fight_seen = copy.deepcopy(board["battle"])
            self._fight_over = None
        elif self._fight_seen is not None:
            self._fight_over, self._fight_seen = self._fight_seen, None
        return self._fight_over

    def close_finished_fight(self) -> None:
        """The Close button of a finished fight's mini-map."""
        if self._fight_over is None:
            return
        self._fight_over = None
        if self.scene is not None:
            self.scene.show_board(self.document.board)

    # ================================================================== a guide's targets
    def guide_target_rect(self, name: str) -> QRect | None:
        """Where a guided game's step points on the table (ui/learn/runner.py), in window
        coordinates, scrolled into view: ``region:5``, ``fleet:B-WS1``, ``display:blue``,
        ``track:ci`` or ``battle:map`` (BattlesScene.spot_rect). None if it is not on the
        table now, or the hand-over screen hides the table."""
        if self.scene is None or self.overlay.isVisible():
            return None
        area = self.scene.spot_rect(name)
        if area is None:
            return None
        self.view.follow(area)
        port = self.view.viewport()
        shown = self.view.mapFromScene(area).boundingRect().intersected(port.rect())
        if shown.isEmpty():
            return None
        return QRect(port.mapTo(self, shown.topLeft()), shown.size())

    # ================================================================== the program player
    def program_level(self, role: str) -> str | None:
        level = self.seats().get(role)
        return level if level in ("bot", "strong") else None

    # ================================================================== acting
    def perform(self, action: dict) -> bool:
        """The seated player's answer; it also closes a finished fight's mini-map (the player
        has gone on)."""
        if not self.overlay.isVisible():
            self._fight_over = None
        return super().perform(action)

    def draggable(self, fleet_id: str) -> bool:
        return any(a.get("fleet") == fleet_id or a.get("firer") == fleet_id
                   for a in self.prompt_actions() if a["verb"] in ("assign", "target"))

    def drop_targets(self, fleet_id: str) -> list[str]:
        """Every place a drop of ``fleet_id`` answers the prompt (the scene lights them)."""
        out = []
        for a in self.prompt_actions():
            if a["verb"] == "assign" and a["fleet"] == fleet_id:
                out.append(f"region:{a['region']}")
            elif a["verb"] == "unassign" and a["fleet"] == fleet_id:
                out.append(f"display:{self.document.seat}")
            elif a["verb"] == "target" and a["firer"] == fleet_id and "shot" not in a:
                out.append(f"fleet:{a['target']}")
        return out

    def drop_refusal(self, fleet_id: str, target: str) -> str:
        """Why a drop there does nothing, in the rules' words where an action was meant."""
        kind, _, name = target.partition(":")
        verbs = {a["verb"] for a in self.prompt_actions()}
        if kind == "region" and "assign" in verbs:
            return self.document.check({"verb": "assign", "fleet": fleet_id,
                                        "region": int(name)}) or "it is already planned there"
        if kind == "fleet" and "target" in verbs:
            return self.document.check({"verb": "target", "firer": fleet_id, "target": name}) \
                or "choose another target"
        if kind == "display" and "assign" in verbs:
            return self.display_drop_words(fleet_id, name)
        return ("drop a fleet on a region to deploy it, or a firer on an enemy fleet to "
                "target it")

    def display_drop_words(self, fleet_id: str, side: str) -> str:
        """A deployment drop on a display that changes nothing: where the fleet is already
        (or whose display it is), and what is left to place before Done."""
        board = self.document.board
        seat = board["seat"]
        label = board["fleets"][fleet_id]["label"]
        if side != seat:
            where = f"that is {SIDE_TITLES[side]}'s display: drag {label} onto a region"
        elif board["fleets"][fleet_id]["type"] == "TH":
            return f"{label} stays on your display: Trans-humans may stay back"
        else:
            where = f"{label} is on your display already: drag it onto a region to deploy it"
        left = len(unplaced_fleets(board))
        return where + (f" (every fleet but the Trans-humans must be placed before Done: "
                        f"{left} left)" if left else "")

    def drop_action(self, fleet_id: str, target: str) -> dict | None:
        """The legal action a drop of ``fleet_id`` on ``target`` means, if any."""
        for a in self.prompt_actions():
            if a["verb"] == "assign" and a["fleet"] == fleet_id and target == f"region:{a['region']}":
                return a
            if a["verb"] == "unassign" and a["fleet"] == fleet_id and target.startswith("display"):
                return a
            if (a["verb"] == "target" and a["firer"] == fleet_id
                    and target == f"fleet:{a['target']}" and "shot" not in a):
                return a
        return None

    def fleet_dropped(self, fleet_id: str, target: str) -> None:
        action = self.drop_action(fleet_id, target)
        if action is None:
            if target == f"display:{self.document.seat}" and self._held_back(fleet_id):
                # Back where it already is: nothing was asked, so nothing is refused.
                self.show_message(self.drop_refusal(fleet_id, target))
            else:
                self.show_message(f"Not possible: {self.drop_refusal(fleet_id, target)}")
            self.scene.show_board(self.document.board)
            return
        if not self.perform(action):
            self.scene.show_board(self.document.board)

    def _held_back(self, fleet_id: str) -> bool:
        """Whether ``fleet_id`` is on the seat's display and not planned anywhere."""
        board = self.document.board
        player = board["players"].get(board["seat"]) if board else None
        return bool(player) and fleet_id in player["display"] and fleet_id not in player["plan"]

    def region_clicked(self, n: int) -> None:
        """Resolve region ``n`` if that is an answer now; while a region to resolve is asked,
        a click on one that may not be resolved says why (the game's words)."""
        resolve = [a for a in self.prompt_actions() if a["verb"] == "resolve"]
        for a in resolve:
            if a["region"] == n:
                self.perform(a)
                return
        if resolve:
            reason = self.document.check({"verb": "resolve", "region": n})
            self.show_message(f"Not possible: {reason or 'that region cannot be resolved now'}")

    def pickup_refusal(self, fleet_id: str) -> str:
        """Why ``fleet_id`` may not be dragged now (said when the player tries, as the
        Struggle map does): the game's reason where the question moves fleets (deploying,
        choosing targets), else what the question asks instead."""
        doc, board = self.document, self.document.board
        if board is None:
            return "no game is open"
        if board.get("outcome"):
            return "the game is over"
        prompt = board.get("prompt")
        if prompt is None:
            waiting = board.get("waiting_for")
            return (f"it is {SIDE_TITLES[waiting]}'s turn" if waiting in SIDE_TITLES
                    else "nothing is asked of you now")
        actions = self.prompt_actions()
        verbs = {a["verb"] for a in actions}
        reason = None
        if verbs & {"assign", "unassign"}:
            reason = doc.check({"verb": "assign", "fleet": fleet_id, "region": 1})
        elif verbs & {"target", "untarget"}:
            target = next((a["target"] for a in actions if a["verb"] == "target"), "")
            reason = doc.check({"verb": "target", "firer": fleet_id, "target": target})
        if reason:
            return reason
        if verbs & {"garrison_add", "garrison_remove", "lose"}:
            how = "click a fleet to choose it"
        elif "resolve" in verbs:
            how = "click a region to resolve it, or answer in the Decision panel"
        else:
            how = "the Decision panel lists the answers"
        return f"no fleet is dragged now ({prompt['text']}); {how}"

    def fleet_clicked(self, fleet_id: str) -> None:
        for a in self.prompt_actions():
            if a["verb"] in ("garrison_add", "garrison_remove", "lose") and a.get("fleet") == fleet_id:
                self.perform(a)
                return

    def play_chit(self, chit: str) -> None:
        """Double-click in the hand: play the chit if it has one way to be played, else show
        its ways in the decision list."""
        plays = [a for a in self.prompt_actions() if a.get("chit") == chit]
        if len(plays) == 1:
            self.perform(plays[0])
            return
        if not plays:
            self.show_message(f"{chit} cannot be played now: {play_refusal(self.document, chit)}")
            return
        self.decision_dock.show()
        self.decision_dock.raise_()
        self.decision_dock.ensure_widget()
        self.decision_dock.filter.setText(chit)

    def autopilot_step(self) -> bool:
        """One step as the players would: confirm a hand-over, let the program move, or take
        the hint for the seated player."""
        if self.overlay.isVisible():
            self.take_seat()
            return True
        if self._program_to_move():
            self.program_step()
            return True
        return super().autopilot_step()

    def after_new_game(self) -> None:
        self._news_from = 0
