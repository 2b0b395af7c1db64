"""Every position of a game, from its set-up to its last action: rewind and branch.

A ``Timeline`` replays a game's actions once and keeps a copy of the state every
``SNAPSHOT_EVERY`` actions. The position after any ``k`` actions is then the nearest kept copy at
or before ``k`` with at most ``SNAPSHOT_EVERY - 1`` actions replayed on it; stepping forward one
action at a time continues from the last position asked for instead. Each position comes as a
``Session`` of its own, ready to play on from: that is what branching is (``branch``), and the
save written from it replays like any other.

Where several people share the game and keep things from one another (``engine.table``), a
timeline made ``shared`` also tells the *moments every seat may see* (``shown``): the
positions after which what every seat may see changes, and the present. Each run of actions
that changes nothing every seat may see (another side's planning moves, declarations, hidden
deployment) ends in one such moment, so a window that moves over moments only shows neither
what those steps were nor how many. What every seat may see is the game's own account of it:
the public view (``table.public_view``) and the log as the public role reads it.

>>> from struggle_desktop.engine.rng import Rng
>>> from struggle_desktop.games import get_game
>>> game = get_game("battles")
>>> session = Session.new(game, "civil-war", 3)
>>> for _ in range(6):
...     _ = session.perform(session.state["pending"]["role"],
...                         session.choose(session.state["pending"]["role"], "bot", Rng.from_seed(1)))
>>> timeline = Timeline.of(session)
>>> len(timeline), timeline.digest_at(6) == game.digest(session.state)
(6, True)
>>> earlier = timeline.session_at(2)
>>> len(earlier.actions), game.digest(earlier.state) == timeline.digest_at(2)
(2, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from struggle_desktop.engine.flow import clone_state
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.session import Session
from struggle_desktop.engine.table import PUBLIC, public_view

#: A copy of the state is kept after every this many actions: a step anywhere replays fewer.
SNAPSHOT_EVERY = 10


def check_position(k: Any, actions: int) -> int:
    """``k`` as a position of a game of ``actions`` actions (0 to ``actions``), or BadOption
    saying which positions there are."""
    if isinstance(k, bool) or not isinstance(k, int) or not 0 <= k <= actions:
        raise BadOption(f"the game has positions 0 to {actions} (after that many actions), "
                        f"not {k!r}")
    return k


@dataclass(frozen=True)
class Moment:
    """Where the game stood after ``index`` actions: its turn and phase (as the state names
    them; None where a game has no such thing) and who had just acted. ``public`` (shared
    timelines only): whether that action changed what every seat may see (its public view,
    or a log line every seat reads); the set-up counts as such a change."""

    index: int
    turn: Any
    phase: Any
    role: str | None
    public: bool = True


class Timeline:
    """The positions of one game after 0, 1, ... ``len(self)`` actions."""

    def __init__(self, game: Any, scenario: str, seed: int, options: dict,
                 actions: list[dict], snapshot_every: int = SNAPSHOT_EVERY,
                 shared: bool = False):
        self.game = game
        self.scenario, self.seed, self.options = scenario, seed, dict(options)
        self.actions = [dict(entry) for entry in actions]
        self.every = max(1, int(snapshot_every))
        #: Whether several people share the game: then ``public`` of each moment is told.
        self.shared = bool(shared)
        # The last position asked for, kept live: the next step forward starts from it.
        self._cursor = Session.new(game, scenario, seed, options, record_digests=False)
        self._snapshots: dict[int, dict] = {0: clone_state(self._cursor.state)}
        self.moments = [self._moment(0, self._cursor.state, None)]
        # What every seat saw at the cursor's position and how many log lines every seat read
        # there, to tell whether the next action changed either (shared timelines only).
        self._seen: dict | None = None
        self._told = 0
        self._public_at_cursor()
        self._extend(self.actions)

    @classmethod
    def of(cls, session: Session, snapshot_every: int = SNAPSHOT_EVERY,
           shared: bool = False) -> "Timeline":
        """The timeline of ``session``'s game so far (replayed from its set-up)."""
        return cls(session.game, session.scenario, session.seed, session.options,
                   session.actions, snapshot_every, shared)

    def follow(self, actions: list[dict]) -> None:
        """Bring the timeline up to date with the game's action list as it is now: actions
        played since are replayed once, actions taken back (undo) are forgotten."""
        common = 0
        limit = min(len(self.actions), len(actions))
        while common < limit and self.actions[common] == actions[common]:
            common += 1
        if common == len(self.actions) == len(actions):
            return
        self._state_at(common)                      # the cursor at the last common position
        self._public_at_cursor()
        del self.actions[common:]
        del self.moments[common + 1:]
        for k in [k for k in self._snapshots if k > common]:
            del self._snapshots[k]
        self.actions.extend(dict(entry) for entry in actions[common:])
        self._extend(self.actions[common:])

    def _extend(self, new: list[dict]) -> None:
        """Play ``new`` (the last actions of ``self.actions``) on from the cursor, which stands
        at the position before them, keeping copies and moments on the way."""
        for entry in new:
            self._cursor.perform(entry["role"], entry["action"], copy=False)
            state = self._cursor.state
            k = len(self._cursor.actions)
            if k % self.every == 0:
                self._snapshots[k] = clone_state(state)
            moment = self._moment(k, state, entry["role"])
            if self.shared:
                seen = public_view(self.game, state)
                # ``start`` counts entries of the reading asked for (which may leave some out).
                told = len(self.game.log_entries(state, self._told, role=PUBLIC))
                moment = Moment(k, moment.turn, moment.phase, moment.role,
                                public=told > 0 or seen != self._seen)
                self._seen, self._told = seen, self._told + told
            self.moments.append(moment)

    def _public_at_cursor(self) -> None:
        """Take note of what every seat sees at the cursor's position (shared timelines)."""
        if self.shared:
            state = self._cursor.state
            self._seen = public_view(self.game, state)
            self._told = len(self.game.log_entries(state, 0, role=PUBLIC))

    def __len__(self) -> int:
        """The number of actions: positions run from 0 to ``len(self)``."""
        return len(self.actions)

    @staticmethod
    def _moment(index: int, state: dict, role: str | None) -> Moment:
        return Moment(index, state.get("turn"), state.get("phase"), role)

    def check_index(self, k: Any) -> int:
        return check_position(k, len(self))

    def session_at(self, k: int, digests: bool = True) -> Session:
        """A session of its own holding the game after its first ``k`` actions, with those
        actions recorded and (``digests``) the periodic digests a session that played them
        has: it can be saved, shown, or played on from. Without digests it is for showing."""
        state = clone_state(self._state_at(self.check_index(k)))
        session = Session(self.game, self.scenario, self.seed, dict(self.options), state,
                          list(self.actions[:k]), [], cache=self.game.new_cache())
        if digests:
            session.digests = self._digests_up_to(k)
        return session

    def digest_at(self, k: int) -> str:
        return self.game.digest(self._state_at(self.check_index(k)))

    def turn_starts(self) -> list[int]:
        """The positions at which a new turn had just begun (the first position of each turn);
        in a shared timeline, the first moment every seat may see at or after each."""
        starts = [0]
        for before, after in zip(self.moments, self.moments[1:]):
            if after.turn != before.turn:
                starts.append(after.index)
        if not self.shared:
            return starts
        return sorted({self.shown_at_or_after(k) for k in starts})

    def shown(self) -> list[int]:
        """The positions a window moves over: every position, or in a shared timeline the
        moments every seat may see: each position after which the next action changed what
        every seat may see, and the present. A run of actions that changed nothing every seat
        may see is thus one moment, its last position, whoever took them and however many."""
        n = len(self)
        if not self.shared:
            return list(range(n + 1))
        return [k for k in range(n) if self.moments[k + 1].public] + [n]

    def shown_at_or_after(self, k: int) -> int:
        """The first moment a window may show at or after position ``k`` (``k`` itself in a
        timeline that is not shared)."""
        k = self.check_index(k)
        if not self.shared:
            return k
        while k < len(self) and not self.moments[k + 1].public:
            k += 1
        return k

    # ------------------------------------------------------------------ inside
    def _state_at(self, k: int) -> dict:
        """The state after ``k`` actions, read-only (it belongs to the cursor)."""
        at = len(self._cursor.actions)
        base = (k // self.every) * self.every
        if not base <= at <= k:
            # Behind the cursor, or further ahead than the next kept copy: start from the
            # nearest copy at or before k.
            self._cursor = Session(self.game, self.scenario, self.seed, dict(self.options),
                                   clone_state(self._snapshots[base]), list(self.actions[:base]),
                                   [], record_digests=False, cache=self.game.new_cache())
            at = base
        for entry in self.actions[at:k]:
            self._cursor.perform(entry["role"], entry["action"], copy=False)
        return self._cursor.state

    def _digests_up_to(self, k: int) -> list[dict]:
        """The periodic digests a session that played the first ``k`` actions records."""
        from struggle_desktop.engine.session import DIGEST_EVERY

        return [{"after": n, "digest": self.digest_at(n)}
                for n in range(DIGEST_EVERY, k + 1, DIGEST_EVERY)]


def branch(session: Session, k: int) -> Session:
    """A new game that is ``session``'s game after its first ``k`` actions, to play on from,
    replayed from the set-up as any game that played those actions (``session`` is left as it
    is). BadOption if the game has no such position."""
    check_position(k, len(session.actions))
    new = Session.new(session.game, session.scenario, session.seed, dict(session.options))
    for entry in session.actions[:k]:
        new.perform(entry["role"], entry["action"], copy=False)
    return new
