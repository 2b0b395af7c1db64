"""The game-module interface (ARCHITECTURE.md section 2) shared by every game.

A game module is one object with the members below. The UI, the command line, the bots and the
fuzzers talk to games only through it. State is plain JSON-like data; actions are small dicts
such as ``{"verb": "move", "unit": "SF-03", "to": 17}``; every action is checked against the
legal actions of the position before it changes anything.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

State = dict
Action = dict


@runtime_checkable
class GameModule(Protocol):
    id: str
    title: str
    roles: tuple[str, ...]
    rules_version: str

    def scenarios(self) -> list[dict]:
        """``[{"id", "title", "required_options", "description", ...}]``"""

    def options(self) -> dict[str, dict]:
        """Option key -> ``{"type", "default", "choices"?, "help"}``."""

    def normalize_options(self, scenario: str, options: dict[str, Any] | None) -> Any:
        """Check a scenario id and its options; raise BadOption naming the problem."""

    def setup(self, scenario: str, seed: int, options: dict[str, Any] | None = None) -> State:
        """A new game, all randomness from ``seed``; raises BadOption for bad input."""

    def view(self, state: State, role: str) -> dict:
        """What ``role`` may see, including the pending prompt and the legal actions."""

    def new_cache(self) -> Any:
        """What a session keeps for this game between its calls (None if nothing): the
        session hands it back as ``cache=`` to the calls below, so the game object itself
        keeps nothing of any game in progress (engine/flowgame.py)."""

    def legal_actions(self, state: State, role: str, cache: Any = None) -> list[Action]:
        """Every action ``role`` may take now (empty when nothing waits for that role)."""

    def apply(self, state: State, role: str, action: Action, copy: bool = True,
              cache: Any = None) -> State:
        """A new state after ``action`` (or ``state`` itself, changed, when ``copy`` is
        False); raises IllegalAction and leaves ``state`` untouched."""

    def advance(self, state: State, on_step=None, cache: Any = None) -> State:
        """Run automated steps until a decision is needed or the game ends; ``on_step(state)``
        (optional) watches each step without changing anything."""

    def choose_action(self, state: State, role: str, policy: str, rng, cache: Any = None
                      ) -> Action:
        """The program player's action (``policy``) for ``role``, drawn from ``rng``."""

    def outcome(self, state: State) -> dict | None:
        """None while playing, else ``{"result", ...}``."""

    def digest(self, state: State) -> str:
        """A stable hash of the whole state."""

    def data_digest(self) -> str:
        """A hash of the tables and maps the rules use."""

    def catalog(self) -> dict:
        """Scenarios, units, events, tables (with reconstructed flags) and rule IDs."""

    # What the desktop window draws (read-only views of a state, as plain data).
    def map_layout(self) -> dict:
        """Drawing geometry: canvas, sectors (number, name, polygon, label point), voids."""

    def board(self, state: State, role: str) -> dict:
        """Pieces with labels and tooltips, sectors, tracks, cup, and the prompt with a
        label for each legal action."""

    def describe_action(self, state: State, action: Action) -> str:
        """A legal action in a player's words."""

    def preview(self, state: State, action: Action) -> dict | None:
        """What to know before choosing ``action`` (combat odds), or None."""

    # What the window's charts draw (the History and Forecast panels); a game without them
    # leaves these empty.
    #: The tracks to chart, as names of ``tracks(state)`` flattened with dots (``"ci"``,
    #: ``"A.income"``); shell patterns allowed (``"*.income"``: one line per house).
    chart_tracks: tuple[str, ...]
    #: Log entry kinds worth a mark on the chart of the game so far.
    chart_marks: tuple[str, ...]
    #: The outcomes' ``result`` values in the order a chart lists them, best first (others
    #: follow, sorted).
    outcome_order: tuple[str, ...]

    # Optional: ``hint_policy``, the policy the in-game hint asks (the strongest player the
    # game offers that decides well within a second). A game without it hints with
    # DEFAULT_HINT_POLICY; read it through ``hint_policy(game)``.

    # Optional: ``imagined_state(state, role, seed) -> State``, a whole position imagined
    # from ``role``'s view alone: what the view shows copied, every other side's hidden parts
    # drawn anew from public knowledge with a generator seeded from ``seed`` (the game's own
    # generator too). Two states ``role`` cannot tell apart give the same result; the result
    # passes the game's invariants and plays to its end. ``forecast --side X`` plays on from
    # it; a game without it is not forecast from one side's view (``imagines(game)``).


#: The policy a game's hint uses when the game names none (every game has a ``bot``).
DEFAULT_HINT_POLICY = "bot"


def hint_policy(game: Any) -> str:
    """The policy the in-game hint asks for ``game``: its ``hint_policy`` attribute, else
    DEFAULT_HINT_POLICY."""
    return getattr(game, "hint_policy", DEFAULT_HINT_POLICY)


def imagines(game: Any) -> bool:
    """Whether ``game`` imagines a position from one side's view (``imagined_state``)."""
    return callable(getattr(game, "imagined_state", None))
