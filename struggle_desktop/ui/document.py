"""The open game and the one path by which the window changes it.

``GameDocument`` holds a headless ``Session``. Every change the player makes goes through
``perform``: legality check, ``Session.perform`` (apply, then the automated steps), an undo
snapshot, the autosave, and a single ``changed`` signal after which every widget re-reads
``document.board`` (ARCHITECTURE.md section 5). No widget edits the state.

While the automated steps run, ``perform`` keeps *frames*: the board after each step that moved,
fought, placed or removed something, with the log entry that says what happened. The window
plays them back so the player can watch the Chaos side act (step, fast or instant). The step
that carries out the player's own answer makes no frame: the player has just done it.
``where_play_stops`` asks the game where a "done" would next wait for the player.

Opening a save is two steps: ``load_file`` reads and replays it into a ``LoadedGame`` without
touching any window, and only a game that loaded is installed (``install_loaded``). A refused
file thus leaves the open game exactly as it was. Every refusal, expected or not, is a
StruggleError with a one-line message.

Looking back: ``look_at(k)`` shows the game as it was after its first ``k`` actions, read-only
(the position comes from an ``engine.timeline.Timeline`` kept in step with the game), until
``back_to_present``. While the player looks back nothing can be played, undone or autosaved,
and Save saves the game as it is now. ``branch_here`` makes the position shown a game to play
on from (the window installs it as a new game, or in place of this one once the player agreed).
Where several people share the game (``engine.table.shared``), the window moves over the
*moments every seat may see* only (``moments``; ``Timeline.shown``): another side's secret steps
are one step to everyone, so neither what they were nor how many shows in the timeline, the
title or the look-back keys, and ``look_at`` goes to the first such moment at or after the
position asked for.

The hint, and the program's players in a game several people share, draw their randomness
from a seed made of what the role they choose for may know (``choice_rng``).

The autosave is rotated: the last ``AUTOSAVES_KEPT`` are kept (``autosave_paths``, newest
first), so a damaged newest one still leaves an earlier position to resume from.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import BadOption, SaveError, StruggleError, excerpt
from struggle_desktop.engine.paths import user_data_dir
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import ReplayReport, Session
from struggle_desktop.engine.table import seat_seed, shared
from struggle_desktop.engine.timeline import Timeline
from struggle_desktop.games import get_game
from struggle_desktop.ui.screens import has_screen

#: Log entry kinds worth a frame of their own when the window shows automated steps.
WATCHED_KINDS = {"move", "combat", "eliminate", "convert", "place", "force", "ie",
                 "usurpation", "alien", "leader"}
#: Log entry kinds after which an action cannot be undone: chance was involved, or something
#: secret was revealed to the other player (BFG-HID-11).
CHANCE_KINDS = {"roll", "draw", "reveal"}
AUTOSAVE_NAME = "autosave.sgsave"
#: How many autosaves are kept: ``autosave.sgsave``, ``autosave-1.sgsave``, ``autosave-2...``.
AUTOSAVES_KEPT = 3


@dataclass
class Frame:
    """One step of the automated phases as the window shows it: the board after it, its last
    log entry, and where in the log its entries begin (``since``)."""
    board: dict
    entry: dict
    since: int = 0


@dataclass
class UndoRecord:
    """What undo restores: the session as it was before one action."""
    state: dict
    actions: list[dict]
    digests: list[dict]
    label: str
    chance: str = ""           # why this action cannot be undone ("" if it can)
    redo_action: dict | None = None
    role: str = ""             # who took the action


@dataclass
class PerformResult:
    ok: bool
    reason: str = ""
    frames: list[Frame] = field(default_factory=list)
    new_entries: list[dict] = field(default_factory=list)


@dataclass
class LoadedGame:
    """A save read and replayed, not shown yet (``load_file``)."""
    path: Path
    game: Any
    session: Session
    report: ReplayReport

    @property
    def note(self) -> str:
        """The status-bar line once it is shown."""
        note = " (the tables changed since it was saved)" if self.report.data_changed else ""
        return (f"Opened {self.path.name}: {self.report.actions} actions replayed and "
                f"checked{note}")


def autosave_path() -> Path:
    """The newest autosave."""
    return autosave_paths()[0]


def autosave_paths() -> list[Path]:
    """Every autosave kept, newest first (whether it exists or not)."""
    folder = user_data_dir()
    stem, suffix = os.path.splitext(AUTOSAVE_NAME)
    return [folder / AUTOSAVE_NAME] + [folder / f"{stem}-{k}{suffix}"
                                       for k in range(1, AUTOSAVES_KEPT)]


def is_autosave(path: Path | str) -> bool:
    """Whether ``path`` is one of the kept autosaves (they never join the recent files)."""
    try:
        return Path(path).resolve() in [p.resolve() for p in autosave_paths()]
    except (OSError, RuntimeError):      # a symlink loop: not one of ours
        return False


def rotate_autosaves() -> None:
    """Make room for a new autosave: each kept one moves one place older; the oldest goes.
    Best effort: an older autosave that cannot move must not stop the newest being written."""
    paths = autosave_paths()
    for newer, older in reversed(list(zip(paths, paths[1:]))):
        try:
            if newer.exists():
                os.replace(newer, older)
        except OSError:
            pass


def load_file(path: Path | str) -> LoadedGame:
    """Read and replay a save without showing it anywhere. Raises StruggleError with a
    one-line message for any file that cannot be played, whatever went wrong inside (the
    file is untrusted: an unexpected exception is its fault, and is named by its kind only).
    The file is never changed."""
    path = Path(path)
    stage = "read"
    try:
        document = saves.read_document(path)
        if not has_screen(document["game"]):
            raise SaveError(f"{path.name}: this build cannot play {excerpt(document['game'])}")
        game = get_game(document["game"])
        stage = "replayed"
        try:
            session, report = Session.from_document(game, document)
        except StruggleError as exc:     # its message does not say which file
            raise SaveError(f"{path.name}: {exc}") from exc
    except StruggleError:
        raise
    except Exception as exc:     # noqa: BLE001 - see the docstring
        raise SaveError(f"cannot open {path.name}: the file could not be {stage} "
                        f"({type(exc).__name__})") from exc
    return LoadedGame(path, game, session, report)


class GameDocument(QObject):
    """One game open in the window. Signals: ``changed`` after every change of position or
    file, ``message(text)`` for the status bar."""

    changed = Signal()
    message = Signal(str)
    #: The seat changed hands (``set_seat``), before anything is redrawn for the new one:
    #: the window then builds its panels afresh (ARCHITECTURE.md section 5).
    seat_changed = Signal(str)

    def __init__(self, parent: QObject | None = None, autosave: bool = True):
        super().__init__(parent)
        self.session: Session | None = None
        self.game: Any = None
        self.path: Path | None = None
        self.dirty = False
        #: A new game nothing has been done in yet: its scenario, seed and options make it
        #: again, so closing it loses nothing and asks nothing (set by ``new_game`` only).
        self.untouched = False
        self.autosave_enabled = autosave
        #: Whether the last autosave was written: only then may the window promise the
        #: player that an unsaved game is kept in it. None: none was tried yet.
        self.autosaved: bool | None = None
        self.watch = True            # collect frames of automated steps
        #: The role whose view the window shows and for whom it acts: the game's first role,
        #: or (two-player games) the player in the seat, ``"public"`` while it is handed over.
        self.seat = ""
        self._board: dict | None = None
        self._shown: dict | None = None      # a step of the automated phases on show
        self._layout: dict | None = None
        self._undo: list[UndoRecord] = []
        self._redo: list[UndoRecord] = []
        self._stop: tuple | None = None      # (position key, where_play_stops' answer)
        self._present: Session | None = None  # the game now, while an earlier moment shows
        self._timeline: Timeline | None = None
        self._shared: bool | None = None        # several people share the game (asked once)

    # ------------------------------------------------------------------ reading
    @property
    def board(self) -> dict | None:
        """The plain-data picture of the position (games' ``board``), cached per change.
        While the window plays back automated steps, the board of the step on show."""
        if self._shown is not None:
            return self._shown
        if self._board is None and self.session is not None:
            self._board = self.game.board(self.session.state, self.seat)
        return self._board

    def set_seat(self, role: str, quiet: bool = False) -> None:
        """Show the game as ``role`` sees it from now on (a hand-over between players);
        ``quiet`` leaves the redrawing to the caller (no ``changed`` signal)."""
        if role != self.seat:
            self.seat = role
            self._board = None
            self._shown = None
            self.seat_changed.emit(role)
            if not quiet:
                self.changed.emit()

    @property
    def waiting_role(self) -> str | None:
        """The role the game waits for, if any."""
        if (self.session is None or self.looking_back
                or self.game.outcome(self.session.state) is not None):
            return None
        pending = self.session.state.get("pending")
        return pending["role"] if pending else None

    @property
    def showing_step(self) -> bool:
        return self._shown is not None

    def show_step(self, board: dict | None) -> None:
        """Let every reader see ``board`` (a frame of the automated steps) until this is
        called with None. Only what is shown changes: the game itself does not."""
        self._shown = board

    @property
    def layout(self) -> dict | None:
        if self._layout is None and self.game is not None:
            self._layout = self.game.map_layout()
        return self._layout

    @property
    def state(self) -> dict | None:
        return self.session.state if self.session else None

    def log_entries(self, start: int = 0) -> list[dict]:
        if self.session is None:
            return []
        return self.game.log_entries(self.session.state, start, role=self.seat)

    def legal_actions(self) -> list[dict]:
        if self.session is None or self.looking_back:
            return []
        return self.game.legal_actions(self.session.state, self.seat)

    def check(self, action: dict, role: str | None = None) -> str | None:
        if self.session is None:
            return "no game is open"
        return self.game.check_action(self.session.state, role or self.seat, action)

    def preview(self, action: dict) -> dict | None:
        return self.game.preview(self.session.state, action) if self.session else None

    def describe(self, action: dict) -> str:
        return self.game.describe_action(self.session.state, action)

    def hint(self) -> dict | None:
        """The choice of the game's strongest quick player here (its ``hint_policy``, else
        the bot: engine.game.hint_policy); the game's own dice are not touched."""
        if (self.session is None or self.looking_back
                or self.game.outcome(self.session.state) is not None):
            return None
        if not self.legal_actions():
            return None
        from struggle_desktop.engine.game import hint_policy

        return self.session.choose(self.seat, hint_policy(self.game), self.choice_rng(self.seat))

    def choice_rng(self, role: str) -> Rng:
        """The generator a choice made for ``role`` (the hint, a program player) draws from,
        never the game's. Where several people share the game it is seeded from ``role``'s
        view: the number of actions would differ with another side's secret steps, and a
        program player's (public) moves, or a person's hint, would then tell them apart.
        Otherwise every action is the person's own or the program's, each one a step of the
        timeline the person sees, so the count of actions tells nothing hidden."""
        if self.shared:
            return Rng.from_seed(seat_seed(self.game, self.session.state, role), 7)
        return Rng.from_seed(len(self.session.actions), 7)

    def where_play_stops(self, action: dict) -> dict | None:
        """Where play would stop if the seat took ``action`` now (what Continue may name): the
        game's ``next_stop``, asked once per position. None if it cannot be told."""
        if self.session is None:
            return None
        state = self.session.state
        key = (id(state), len(self.session.actions), self.seat, repr(sorted(action.items())))
        if self._stop is None or self._stop[0] != key:
            self._stop = (key, self.game.next_stop(state, self.seat, action))
        return self._stop[1]

    def program_action(self, level: str) -> dict:
        """The action the program player (``bot`` or ``strong``) takes for the waiting role,
        decided from that role's view; drawn from a generator of its own, never the game's."""
        role = self.waiting_role
        return self.session.choose(role, level, self.choice_rng(role))

    @property
    def title(self) -> str:
        if self.session is None:
            return "No game"
        name = self.path.name if self.path else "unsaved game"
        back = f" — looking back at {self.moment_words()}" if self.looking_back else ""
        return f"{name}{' *' if self.dirty else ''}{back} — {self.game.title}"

    # ------------------------------------------------------------------ opening
    def new_game(self, game_id: str, scenario: str, seed: int, options: dict | None = None) -> None:
        """Raises StruggleError (BadOption...) with a readable message on bad input."""
        if not has_screen(game_id):
            raise BadOption(f"this build cannot play {game_id!r} yet")
        game = get_game(game_id)
        session = Session.new(game, str(scenario), int(seed), dict(options or {}))
        self._install(game, session, None)
        self.dirty = True
        self.untouched = True
        self._autosave()
        self.changed.emit()

    def open(self, path: Path | str) -> str:
        """Load a save (replayed and checked) and show it. Raises StruggleError and then
        changes nothing; the file is never changed. Returns a line for the status bar."""
        return self.install_loaded(load_file(path))

    def install_loaded(self, loaded: LoadedGame) -> str:
        """Make the game of ``loaded`` (``load_file``) the open one; returns the status line."""
        self.install_session(loaded.session, loaded.path)
        return loaded.note

    def install_session(self, session: Session, path: Path | None = None,
                        dirty: bool = False) -> None:
        """Make ``session`` the open game, kept in ``path`` (None: not saved yet)."""
        self._install(session.game, session, path)
        self.dirty = dirty
        self.changed.emit()

    def _install(self, game: Any, session: Session, path: Path | None) -> None:
        if game is not self.game:
            self._layout = None
        self._present = None
        self._timeline = None
        self._shared = None
        self.untouched = False
        self.seat = game.roles[0]
        self.game = game
        self.session = session
        self.path = path
        self._board = None
        self._shown = None
        self._undo.clear()
        self._redo.clear()

    # ------------------------------------------------------------------ saving
    def save(self, path: Path | str | None = None) -> Path:
        """Save the game as it is now (also while an earlier moment is on show)."""
        if self.session is None:
            raise StruggleError("no game is open")
        target = Path(path) if path is not None else self.path
        if target is None:
            raise StruggleError("choose a file name first (Save As)")
        self.present.save(target)
        self.path = target
        self.dirty = False
        self.changed.emit()
        return target

    def _autosave(self) -> None:
        if not self.autosave_enabled or self.session is None:
            return
        try:
            target = autosave_path()
            target.parent.mkdir(parents=True, exist_ok=True)
            rotate_autosaves()
            self.session.save(target)
        except (OSError, StruggleError) as exc:
            if self.autosaved is not False:      # said once, not at every action after
                self.message.emit(f"Autosave failed: {exc}")
            self.autosaved = False
            return
        self.autosaved = True

    # ------------------------------------------------------------------ the operation path
    def perform(self, action: dict, role: str | None = None) -> PerformResult:
        """The one way the window changes the game: ``action`` for ``role`` (the seat unless a
        program player acts). An illegal action changes nothing and returns the reason."""
        if self.session is None:
            return PerformResult(False, "no game is open")
        if self.looking_back:
            reason = (f"you are looking back at {self.moment_words(total=False)}: go back to "
                      "the present (Alt+End), or play on from here")
            self.message.emit(f"Not possible: {reason}")
            return PerformResult(False, reason)
        role = role or self.seat
        reason = self.check(action, role)
        if reason is not None:
            self.message.emit(f"Not possible: {reason}")
            return PerformResult(False, reason)
        session = self.session
        # perform(copy=True) builds the next position on a copy and leaves this one untouched,
        # so the undo record can keep the very object.
        before = UndoRecord(session.state, list(session.actions), list(session.digests),
                            self.describe(action), role=role)
        log_start = len(session.state["log"])
        frames: list[Frame] = []
        seen = [log_start]
        steps = [0]
        # The first step carries out the answer itself: the seat's own move, purchase or
        # attack, which the player made on the map. It is no step to watch: Step walks
        # through what the rules did after it (the Chaos side), not through one's own action.
        own_step = role == self.seat

        def watch(state: dict) -> None:
            steps[0] += 1
            log = state["log"]
            if len(log) == seen[0]:
                return
            since = seen[0]
            fresh = log[since:]
            seen[0] = len(log)
            if own_step and steps[0] == 1:
                return
            if any(e["kind"] in WATCHED_KINDS for e in fresh):
                frames.append(Frame(self.game.board(state, self.seat), fresh[-1], since))

        try:
            session.perform(role, action, copy=True,
                            on_step=watch if self.watch else None)
        except StruggleError as exc:
            self.message.emit(f"Not possible: {exc}")
            return PerformResult(False, str(exc))
        # Chance is judged on the whole record (a secret draw is chance too); what the
        # window is given to show is the seat's own reading of it.
        raw_entries = session.state["log"][log_start:]
        new_entries = self.game.log_entries(session.state, log_start, role=self.seat)
        chance = next((e for e in raw_entries if e["kind"] in CHANCE_KINDS or e.get("dice")), None)
        if chance is not None and chance["kind"] == "reveal":
            before.chance = (f"“{before.label}” revealed what was secret "
                             f"({chance['text']})")
        elif chance is not None:
            before.chance = (f"“{before.label}” involved chance ({chance['text']}); "
                             "undoing it would let you roll again")
        before.redo_action = action
        self._undo.append(before)
        if before.chance:
            # Undo never goes past an action that involved chance (undo_reason), so the
            # records beneath this one can never be restored. Dropping them keeps a long
            # game's memory flat: each record holds a whole position with its log, and
            # thousands of them made the collector pause the window for seconds.
            del self._undo[:-1]
        self._redo.clear()
        self._board = None
        self._shown = None
        self.dirty = True
        self.untouched = False
        self._autosave()
        self.changed.emit()
        return PerformResult(True, "", frames, new_entries)

    # ------------------------------------------------------------------ undo and redo
    def undo_reason(self) -> str | None:
        """None if Undo is possible now, else why not."""
        if self.looking_back:
            return "you are looking back at an earlier moment"
        if not self._undo:
            return "there is nothing to undo"
        last = self._undo[-1]
        if last.role and last.role != self.seat:
            return f"the last action was {last.role.capitalize()}'s, not yours"
        return last.chance or None

    def undo_label(self) -> str:
        """What Undo would take back, in words, if the seated player may know it: another
        seat's last action (a secret declaration, say) is never named."""
        return self._own_label(self._undo)

    def redo_label(self) -> str:
        return self._own_label(self._redo)

    def _own_label(self, records: list[UndoRecord]) -> str:
        if not records:
            return ""
        last = records[-1]
        return last.label if not last.role or last.role == self.seat else ""

    def can_redo(self) -> bool:
        return not self.looking_back and bool(self._redo) and self._redo[-1].role in ("", self.seat)

    def undo(self) -> str | None:
        """Go back one action; returns the refusal reason, or None when done."""
        reason = self.undo_reason()
        if reason is not None:
            self.message.emit(f"Cannot undo: {reason}")
            return reason
        self._swap(self._undo, self._redo, "Undone")
        return None

    def redo_reason(self) -> str | None:
        """None if Redo is possible now, else why not."""
        if self.looking_back:
            return "you are looking back at an earlier moment"
        if not self._redo:
            return "there is nothing to redo"
        if not self.can_redo():
            return f"the action to redo was {self._redo[-1].role.capitalize()}'s, not yours"
        return None

    def redo(self) -> str | None:
        """Do the undone action again; returns the refusal reason, or None when done."""
        reason = self.redo_reason()
        if reason is not None:
            return reason
        self._swap(self._redo, self._undo, "Redone")
        return None

    def _swap(self, source: list[UndoRecord], target: list[UndoRecord], verb: str) -> None:
        """Install the session of ``source``'s last record; the present goes onto ``target``."""
        record = source.pop()
        session = self.session
        target.append(UndoRecord(session.state, list(session.actions), list(session.digests),
                                 record.label, record.chance, record.redo_action, record.role))
        session.state, session.actions, session.digests = (record.state, record.actions,
                                                          record.digests)
        self._board = None
        self._shown = None
        self.dirty = True
        self.untouched = False
        self._autosave()
        self.message.emit(f"{verb}: {record.label}")
        self.changed.emit()

    # ------------------------------------------------------------------ looking back
    @property
    def looking_back(self) -> bool:
        """Whether an earlier moment of the game is on show (read-only)."""
        return self._present is not None

    @property
    def present(self) -> Session | None:
        """The game as it is now, whatever moment is on show."""
        return self._present or self.session

    @property
    def position(self) -> int:
        """How many actions the position on show comes after."""
        return len(self.session.actions) if self.session else 0

    @property
    def history_length(self) -> int:
        """How many actions the game has now."""
        return len(self.present.actions) if self.present else 0

    def timeline(self) -> Timeline:
        """The game's timeline, brought up to date with the game as it is now."""
        # The window holds only games that replayed when they were opened (load_file), so
        # their actions replay here too.
        present = self.present
        if self._timeline is None:
            self._timeline = Timeline.of(present, shared=self.shared)
        else:
            self._timeline.follow(present.actions)
        return self._timeline

    @property
    def shared(self) -> bool:
        """Whether several people who keep things from one another share this game (who
        plays which role is set when a game begins, so it is asked once per game)."""
        if self.session is None:
            return False
        if self._shared is None:
            self._shared = shared(self.game, self.present.state)
        return self._shared

    def moments(self) -> list[int]:
        """The positions the window moves over, oldest first, the present last: every
        position, or where several people share the game the moments every seat may see."""
        return self.timeline().shown() if self.session else []

    def moment_index(self) -> int:
        """Where the position on show stands among ``moments`` (0: the first)."""
        if self.session is None:
            return 0
        if not self.shared:             # every position is a moment: no timeline needed
            return self.position
        shown = self.moments()
        return max([i for i, k in enumerate(shown) if k <= self.position], default=0)

    def moment_count(self) -> int:
        """How many steps back the first moment is from the present."""
        if not self.shared:
            return self.history_length
        return len(self.moments()) - 1

    def moment_words(self, total: bool = True) -> str:
        """The moment on show in words: "action 12 of 40", or where several people share the
        game "moment 9 of 31" (its actions would count another side's secret steps)."""
        unit = "moment" if self.shared else "action"
        where = f"{unit} {self.moment_index()}"
        return f"{where} of {self.moment_count()}" if total else where

    def look_at(self, k: int) -> None:
        """Show the game after its first ``k`` actions (``history_length``: the present), or
        where several people share it the first moment every seat may see from there on.
        BadOption for a moment the game does not have."""
        if self.session is None:
            raise StruggleError("no game is open")
        timeline = self.timeline()
        # In a shared game, a position inside another side's secret steps is never shown: the
        # first moment every seat may see at or after it is.
        k = timeline.shown_at_or_after(timeline.check_index(k))
        if k == len(timeline):
            self.back_to_present()
            return
        shown = timeline.session_at(k, digests=False)
        if self._present is None:
            self._present = self.session
        self.session = shown
        self._board = None
        self._shown = None
        self.changed.emit()

    def back_to_present(self) -> None:
        if self._present is None:
            return
        self.session = self._present
        self._present = None
        self._board = None
        self._shown = None
        self.changed.emit()

    def turn_starts(self) -> list[int]:
        """The first moment of each turn (for the timeline's turn steps)."""
        return self.timeline().turn_starts() if self.session else []

    def moment_of_log_entry(self, index: int) -> int:
        """The moment at which entry ``index`` of the log the seat reads (``log_entries``)
        was written: the first position whose log holds it (0 for the set-up's entries)."""
        timeline = self.timeline()
        role = self.seat

        def shown(k: int) -> int:
            return len(self.game.log_entries(timeline.session_at(k, digests=False).state, 0,
                                             role=role))

        low, high = 0, len(timeline)
        if shown(high) <= index:
            raise BadOption(f"the log has no entry {index}")
        while low < high:       # the log only grows: the first k whose log reaches the entry
            middle = (low + high) // 2
            if shown(middle) > index:
                high = middle
            else:
                low = middle + 1
        return low

    def branch_here(self) -> Session:
        """A new game that is the moment on show, to play on from (the game itself is left as
        it is); with the periodic digests a save of it needs."""
        if self.session is None:
            raise StruggleError("no game is open")
        return self.timeline().session_at(self.position)
