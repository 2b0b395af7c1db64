"""The Freedom in the Galaxy screen: the Mission phase of one environs, the chit mugs and the
events deck (rules-freedom.md parts A, B and C).

The shell (ui/shell.py) gives files, undo, layout and help; this window adds:

* a banner saying whose decision the game waits for, and what it is;
* the central view of the open scenario's kind: the resolution view for ``mission-phase``
  (resolution.py, with the prompt forms of prompts.py and the outcome summary), the chit-mug
  view for ``chit-mug`` and the deck view for ``events-deck`` (``chits_view.ChitMugView`` and
  ``deck_view.DeckView``, imported when first needed; while one is missing the page says so
  and the Decision panel still answers every prompt);
* the shared Decision, Log and Dice panels (ui/docks);
* Game → New Environs…, which opens the players' own environs form (``environs_form``) and
  starts scenario ``custom`` with it; the New Game dialog sends ``custom`` there too.

Who sits at the screen. In the two Mission-phase modes both players share the screen: nothing
is hidden (the players enter the environs together), so the seat simply follows the role the
game waits for — ``phasing``, or ``enemy`` for the results of fights, patrols and searches
(FIG-HOOK) — and the banner names the player. The events deck hides each side's hand and
secret cards (FIG-EVT), so there, when the turn passes to the other side, the opaque
hand-over screen of ui/seats.py covers the window until that player confirms.

Every answer goes through ``self.document.perform`` (ui/document.py: legality, undo, autosave,
one redraw); a refused one shows the game's reason.
"""

from __future__ import annotations

import importlib.util
import secrets

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (QDialog, QHBoxLayout, QLabel, QMessageBox, QPushButton,
                               QStackedWidget, QVBoxLayout, QWidget)

from struggle_desktop.ui.docks.decision import DecisionDock
from struggle_desktop.ui.docks.style import nobreak
from struggle_desktop.ui.freedom.modes import load_class, mode_view_class
from struggle_desktop.ui.freedom.resolution import ResolutionView
from struggle_desktop.ui.seats import HandOverOverlay, lock_actions
from struggle_desktop.ui.shell import GameWindow

#: The events deck's sides: a hand-over between them hides the hands (FIG-EVT).
DECK_SIDES = ("rebel", "imperial")
ENVIRONS_FORM = "struggle_desktop.ui.freedom.environs_form"
#: The least width of each right-hand panel and of the central view (pixels).
PANEL_MIN_WIDTH = 320
CENTRE_MIN_WIDTH = 560
NO_FORM_TIP = "The New Environs form is not in this build yet"


def environs_form_available() -> bool:
    return importlib.util.find_spec(ENVIRONS_FORM) is not None


def environs_form_class():
    """The players' own environs form (``EnvironsForm(game, parent)``), or None."""
    return load_class(ENVIRONS_FORM, "EnvironsForm")


def form_scenario(game_id: str, scenario: str) -> bool:
    from struggle_desktop.ui.screens import form_scenario as lookup
    return lookup(game_id, scenario) is not None


class FreedomWindow(GameWindow):
    game_id = "freedom"
    layout_key = "window-freedom"

    def __init__(self, document=None, settings=None):
        self._session = None          # the session last shown: a new or opened game is reset
        self._mode_views: dict[str, QWidget] = {}
        self._news_from = 0
        super().__init__(document, settings)
        self.document.watch = False   # no map to play back: the view shows the result at once
        self.overlay = HandOverOverlay(self)
        self.overlay.button.clicked.connect(self.take_seat)
        self.on_document_changed()

    # ================================================================== building
    def build_centre(self) -> None:
        page, column, _ = self.banner_page("freedom", "#1f2b3d", 11, margins=(12, 6, 12, 6))
        # Two lines kept for the banner's words: a question of one line after one of two
        # moved every control below by a line (Roll came up towards where Continue was).
        self.banner_text.ensurePolished()
        self.banner_text.setMinimumHeight(2 * self.banner_text.fontMetrics().lineSpacing())
        self.modes = QStackedWidget()
        self.resolution = ResolutionView(self.attempt)
        self.resolution.copy_done = lambda _text: self.show_message(
            "The summary is on the clipboard (plain text)")
        self.modes.addWidget(self.resolution)
        self._mode_views["mission-phase"] = self.resolution
        # A minimum of its own: the views' wishes (a long answer's button, a wide table) vary
        # from question to question, and the panels on the right were squeezed to make room,
        # changing width between questions. The views fit what they are given.
        self.modes.setMinimumWidth(CENTRE_MIN_WIDTH)
        column.addWidget(self.modes, 1)
        self.set_centre(page)
        self.game_page = page
        self.empty_page = self._build_empty_page()
        self.centre.addWidget(self.empty_page)
        self.centre.setCurrentWidget(self.empty_page)

    def _build_empty_page(self) -> QWidget:
        page = QWidget()
        page.setObjectName("freedom-empty")
        column = QVBoxLayout(page)
        column.addStretch(1)
        text = QLabel("No game is open.\n\nStart a scenario (File → New Game, Ctrl+N), your own "
                      "environs (Game → New Environs…), or open a saved game (Ctrl+O).")
        text.setAlignment(Qt.AlignmentFlag.AlignCenter)
        text.setWordWrap(True)
        column.addWidget(text)
        row = QHBoxLayout()
        row.addStretch(1)
        self.empty_new = QPushButton("New Game…")
        self.empty_new.clicked.connect(self.new_game_dialog)
        self.empty_environs = QPushButton("New Environs…")
        self.empty_environs.setObjectName("freedom-empty-environs")
        self.empty_environs.clicked.connect(lambda: self.new_environs())
        row.addWidget(self.empty_new)
        row.addWidget(self.empty_environs)
        row.addStretch(1)
        column.addLayout(row)
        column.addStretch(1)
        return page

    def build_docks(self) -> None:
        from struggle_desktop.ui.docks.dice import DiceDock
        from struggle_desktop.ui.docks.log import LogDock

        doc = self.document
        self.decision_dock = DecisionDock(doc, self)
        self.log_dock = LogDock(doc, self)
        self.dice_dock = DiceDock(doc, self)
        self.docks = [self.decision_dock, self.log_dock, self.dice_dock]
        right = Qt.DockWidgetArea.RightDockWidgetArea
        self.addDockWidget(right, self.decision_dock)
        self.addDockWidget(right, self.log_dock)
        self.splitDockWidget(self.decision_dock, self.log_dock, Qt.Orientation.Vertical)
        self.tabifyDockWidget(self.log_dock, self.dice_dock)
        self.log_dock.raise_()
        # Stable widths: each panel has a minimum of its own (not its contents' wish, which
        # changed between questions), so neither the window nor a saved layout squeezes it.
        for dock in self.docks:
            dock.visibilityChanged.connect(lambda _shown: self._hold_panel_widths())
        self._hold_panel_widths()
        self.resizeDocks([self.decision_dock], [400], Qt.Orientation.Horizontal)
        # The answer list, Hint and Do it whole on a laptop screen: the Decision panel takes
        # the larger share of the column (the Log scrolls).
        self.resizeDocks([self.decision_dock, self.log_dock], [560, 340],
                         Qt.Orientation.Vertical)
        self.decision_dock.action_chosen.connect(self.perform)
        self.decision_dock.hint_requested.connect(self.show_hint)

    def _hold_panel_widths(self) -> None:
        """Each right-hand panel's least width is PANEL_MIN_WIDTH, whatever its contents wish
        (the panel's scroller otherwise takes its contents' minimum, which changed from one
        question to the next). Again after every change: a new seat builds new widgets."""
        for dock in self.docks:
            holder = dock.widget()        # built when first shown (see the connection below)
            if holder is not None and holder.minimumWidth() != PANEL_MIN_WIDTH:
                holder.setMinimumWidth(PANEL_MIN_WIDTH)

    def build_game_actions(self) -> None:
        self.act_environs = self._action("New &Environs…", lambda: self.new_environs(),
                                         "Ctrl+Shift+E",
                                         "Enter your own environs and play its Mission phase")
        self.act_hint = self._action("&Hint", self.show_hint, "Ctrl+H",
                                     "Select what the program's own player would choose")
        self.act_copy = self._action("&Copy Summary", self.copy_summary, "Ctrl+Shift+C",
                                     "Put the outcome summary on the clipboard (plain text)")
        self._update_environs_action()

    def add_game_menus(self, bar) -> None:
        m = bar.addMenu("&View")
        self.panels_menu(m)
        m = bar.addMenu("&Game")
        m.addAction(self.act_environs)
        m.addSeparator()
        m.addActions([self.act_hint, self.act_copy])

    def _update_environs_action(self) -> None:
        available = environs_form_available()
        tip = ("Enter your own environs and play its Mission phase" if available
               else NO_FORM_TIP)
        for widget in (self.act_environs, getattr(self, "empty_environs", None)):
            if widget is None:
                continue
            widget.setEnabled(available)
            widget.setToolTip(tip)
        self.act_environs.setStatusTip(tip)

    # ================================================================== the mode views
    def mode_view(self, kind: str) -> QWidget:
        """The central view of ``kind`` (built on first use), or a note while its module is
        missing (the Decision panel still answers every prompt)."""
        view = self._mode_views.get(kind)
        if view is None:
            cls = mode_view_class(kind)
            if cls is not None:
                view = cls(self)
            else:
                view = QLabel(f"This mode ({kind}) has no view yet: answer its prompts in the "
                              "Decision panel on the right; the Log panel shows what happens.")
                view.setObjectName("freedom-no-view")
                view.setAlignment(Qt.AlignmentFlag.AlignCenter)
                view.setWordWrap(True)
            self._mode_views[kind] = view
            self.modes.addWidget(view)
        return view

    # ================================================================== seats
    def rebuild_centre_for_seat(self) -> None:
        """A new seat gets new mode views (the events deck, the chit mugs): no form value,
        selection or list of the side before stays; each is built again when next shown.
        The resolution view stays: the Mission phase hides nothing from either player."""
        for kind, view in list(self._mode_views.items()):
            if view is self.resolution:
                continue
            self.modes.removeWidget(view)
            view.hide()
            view.deleteLater()
            del self._mode_views[kind]

    def _arrange_seat(self) -> bool:
        """Seat the player the game waits for; True if the seat changed (the change signal
        then redrew everything already). In the events deck a change of side goes through
        the hand-over screen, since each side's hand is secret (FIG-EVT)."""
        doc = self.document
        waiting = doc.waiting_role
        if waiting is None or waiting == doc.seat or self.overlay.isVisible():
            return False
        if doc.state.get("kind") == "events-deck" and doc.seat in DECK_SIDES:
            who = self.role_words(waiting)
            self.overlay.show_for(waiting, f"Pass the computer to {who}",
                                  f"I am {who}: continue", self._news())
            lock_actions(self, True)
            doc.set_seat("public")
            return True
        doc.set_seat(waiting)
        return True

    def take_seat(self) -> None:
        """The player named by the hand-over screen has sat down."""
        role = self.overlay.role
        self.overlay.hide()
        lock_actions(self, False)
        self._news_from = len(self.document.log_entries(0))
        self.document.set_seat(role)
        self.show_message(f"{self.role_words(role).capitalize()} is playing")

    def _news(self) -> list[str]:
        game, state = self.document.game, self.document.state
        entries = game.log_entries(state, 0, role="public")[self._news_from:]
        return [e["text"] for e in entries if e.get("kind") != "roll"][-6:]

    def role_words(self, role: str | None) -> str:
        board = self.document.board or {}
        pending = board.get("pending") or {}
        if pending.get("role") == role and pending.get("who"):
            return pending["who"]
        return f"the {role} player"

    # ================================================================== showing
    def on_document_changed(self) -> None:
        if not hasattr(self, "overlay"):
            return          # still building: the first change is drawn at the end of __init__
        super().on_document_changed()
        self._hold_panel_widths()
        self._update_environs_action()
        doc = self.document
        if doc.session is None:
            self.centre.setCurrentWidget(self.empty_page)
            for act in (self.act_hint, self.act_copy):
                act.setEnabled(False)
            return
        if doc.present is not self._session:
            self._session = doc.present          # a game just started or opened
            self.overlay.hide()
            lock_actions(self, False)
            self._news_from = len(doc.log_entries(0))
        if self._arrange_seat():
            return
        self.centre.setCurrentWidget(self.game_page)
        board = doc.board
        view = self.mode_view(board["kind"])
        self.modes.setCurrentWidget(view)
        if view is self.resolution:
            self.resolution.show_board(board)
        elif hasattr(view, "refresh"):
            view.refresh(board, doc.legal_actions())
        self._update_banner(board)
        self.act_hint.setEnabled(bool(board.get("prompt")))
        self.act_copy.setEnabled(bool(board.get("outcome")) and view is self.resolution)
        if self.overlay.isVisible():
            self.setWindowTitle(doc.game.title)    # Qt adds the program's name
            lock_actions(self, True)
        elif board.get("pending"):
            self.setWindowTitle(f"{doc.title} — {board['pending']['who']} to decide")

    def _update_banner(self, board: dict) -> None:
        outcome, prompt, pending = board.get("outcome"), board.get("prompt"), board.get("pending")
        if outcome:
            if board.get("kind") == "mission-phase":
                text = (f"<b>{outcome['text']}: {outcome['result']}.</b> The summary lists "
                        "what to change on the board.")
            else:
                text = (f"<b>{outcome['result'][:1].upper()}{outcome['result'][1:]}.</b> "
                        "The report lists what to change on the board.")
        elif prompt:
            rule = f"({nobreak(prompt['rule'])})"       # never split at "FIG-"
            text = (f"<b>Decision of {prompt['who']}:</b> {prompt['text']} "
                    f"<span style='color:#aab4c3'>{rule}</span>")
        elif pending:
            text = f"<b>Waiting for {pending['who']}:</b> {pending['text']}"
        else:
            text = f"{board.get('title', '')}"
        self.banner_text.setText(f"{board.get('kind_name', '')} · {text}")

    # ================================================================== acting
    def attempt(self, action: dict) -> str | None:
        """Carry out ``action`` for the seated player: None when done, else the game's reason
        (also shown in the status bar)."""
        if self.overlay.isVisible():
            return "the computer is being handed over"
        reason = self.document.check(action)
        if reason is not None:
            self.show_message(f"Not possible: {reason}")
            return reason
        self.show_message("")        # the last message is stale once an answer is given
        result = self.document.perform(action)
        return None if result.ok else result.reason

    def perform(self, action: dict) -> bool:
        return self.attempt(action) is None

    def copy_summary(self) -> None:
        if not (self.document.board or {}).get("outcome"):
            self.show_message("The summary comes at the end of the Mission phase")
            return
        self.resolution.copy_summary()

    def autopilot_step(self) -> bool:
        if self.overlay.isVisible():
            self.take_seat()
            return True
        return super().autopilot_step()

    # ================================================================== new games
    def new_game(self, game_id: str, scenario: str, seed: int, options: dict | None = None) -> bool:
        """A scenario whose environs the players enter themselves (``custom``) without one
        yet opens the New Environs form first."""
        if (game_id == self.game_id and form_scenario(game_id, str(scenario))
                and not (options or {}).get("context")):
            return self.new_environs(seed, options)
        return super().new_game(game_id, scenario, seed, options)

    def new_environs(self, seed: int | None = None, options: dict | None = None) -> bool:
        """Game → New Environs…: the players' own environs (scenario ``custom``)."""
        cls = environs_form_class()
        if cls is None:
            QMessageBox.information(self, "New Environs", NO_FORM_TIP + ".")
            return False
        from struggle_desktop.games import get_game

        game = self.document.game if self.document.game is not None else get_game(self.game_id)
        form = cls(game, self)
        try:
            if form.exec() != QDialog.DialogCode.Accepted:
                return False
            context = form.context()
        finally:
            form.deleteLater()
        seed = seed if seed is not None else secrets.randbelow(10**9)
        # Keep only the options of this kind of scenario (the dialog may hand over others).
        known = game.options()
        kind = next((s["kind"] for s in game.scenarios() if s["id"] == "custom"), None)
        values = {k: v for k, v in (options or {}).items()
                  if k != "context" and known.get(k, {}).get("kind") in (None, kind)}
        values["context"] = context
        return super().new_game(self.game_id, "custom", seed, values)

    def before_close(self) -> None:
        self.overlay.hide()


__all__ = ["FreedomWindow"]
