"""A headless game session: one game in progress, its action list, saves and replays.

Every change goes through ``perform`` (apply, then advance, then record): the command line, the
bots and the desktop UI all use this one path, so a save always replays to the same position.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import SaveError, StruggleError, excerpt
from struggle_desktop.engine.flow import UnkeptLog
from struggle_desktop.engine.game import GameModule

#: A state digest is recorded after every this many actions (and always at the end).
DIGEST_EVERY = 25


@dataclass
class ReplayReport:
    ok: bool
    actions: int
    checked: int
    mismatch_at: int | None = None
    message: str = ""
    data_changed: bool = False


@dataclass
class Session:
    game: GameModule
    scenario: str
    seed: int
    options: dict[str, Any]
    state: dict
    actions: list[dict] = field(default_factory=list)
    digests: list[dict] = field(default_factory=list)
    #: Periodic digests make saves checkable; simulations that never save skip their cost.
    record_digests: bool = True
    #: What the game keeps between this session's calls (``game.new_cache()``, see
    #: engine/flowgame.py): handed back to every call, never shared with another session.
    cache: Any = None

    @classmethod
    def new(cls, game: GameModule, scenario: str, seed: int, options: dict | None = None,
            record_digests: bool = True, keep_log: bool = True) -> "Session":
        """A new game. ``options`` are recorded as given, so a replay sets up the same game.
        They are plain values: an option that comes from a file (Freedom's environs) holds
        the file's document, which the command line read where the person named the file; a
        save never names a file to read.

        ``keep_log=False`` (simulations that write no log) drops the log of a game that
        declares ``log_is_output_only``: its rules never read the log and its digest leaves
        the log out, so the game plays exactly the same. Other games keep their log."""
        state = game.setup(scenario, seed, options or {})
        if not keep_log and getattr(game, "log_is_output_only", False):
            state["log"] = UnkeptLog()
        cache = game.new_cache()
        state = game.advance(state, cache=cache)
        return cls(game, scenario, seed, dict(options or {}), state,
                   record_digests=record_digests, cache=cache)

    def perform(self, role: str, action: dict, copy: bool = True, on_step=None) -> dict:
        """Apply one action and run the automated steps after it. Raises IllegalAction and
        leaves the session unchanged if the action is not legal. ``on_step(state)`` watches
        the automated steps (the window's step-by-step view); it must not change the state."""
        state = self.game.apply(self.state, role, action, copy=copy, cache=self.cache)
        state = self.game.advance(state, on_step=on_step, cache=self.cache)
        self.state = state
        self.actions.append({"role": role, "action": action})
        if self.record_digests and len(self.actions) % DIGEST_EVERY == 0:
            self.digests.append({"after": len(self.actions), "digest": self.game.digest(state)})
        return state

    def choose(self, role: str, policy: str, rng) -> dict:
        """The action the game's program player ``policy`` takes for ``role`` now (``rng``
        is the player's own generator, never the game's), worked out through this session's
        cache: a game may then trust it in ``perform`` without checking it again."""
        return self.game.choose_action(self.state, role, policy, rng, cache=self.cache)

    # ------------------------------------------------------------------------- files
    def to_document(self) -> dict:
        digests = list(self.digests)
        if not digests or digests[-1]["after"] != len(self.actions):
            digests.append({"after": len(self.actions), "digest": self.game.digest(self.state)})
        return saves.make_document(
            game=self.game.id,
            rules_version=self.game.rules_version,
            data_digest=self.game.data_digest(),
            overrides=self.game.overrides(),
            scenario=self.scenario,
            options=self.options,
            seed=self.seed,
            actions=self.actions,
            digests=digests,
            snapshot=self.state,
        )

    def save(self, path: Path | str) -> None:
        saves.write_atomic(path, self.to_document())

    @classmethod
    def from_document(cls, game: GameModule, document: dict,
                      prefer_snapshot: bool = False) -> tuple["Session", ReplayReport]:
        """Rebuild a session by replaying the recorded actions and checking the digests.

        If the replay disagrees (the rules or the data changed since the game was saved), a
        SaveError says so, unless ``prefer_snapshot`` asks to keep the stored snapshot.
        """
        return _finish_load(game, document, prefer_snapshot)

    @classmethod
    def load(cls, games: dict[str, GameModule], path: Path | str,
             prefer_snapshot: bool = False) -> tuple["Session", ReplayReport]:
        document = saves.read_document(path)
        game = games.get(document["game"])
        if game is None:
            raise SaveError(f"{path}: unknown game {excerpt(document['game'])}")
        return _finish_load(game, document, prefer_snapshot)


def _replay_session(game: GameModule, document: dict) -> tuple[Session | None, ReplayReport]:
    actions = document["actions"]
    expected = {d["after"]: d["digest"] for d in document["digests"]}
    data_changed = (document.get("data_digest") != game.data_digest()
                    or document.get("rules_version") != game.rules_version)
    try:
        session = Session.new(game, document["scenario"], document["seed"], document["options"])
    except Exception as exc:    # noqa: BLE001 - whatever a hostile save provokes is its fault
        return None, ReplayReport(False, len(actions), 0, 0,
                                  f"cannot set up the game: {refusal(exc)}", data_changed)
    if not expected:
        return None, ReplayReport(False, len(actions), 0, None,
                                  "the save records no digest to check it against", data_changed)
    beyond = sorted(a for a in expected if a > len(actions))
    if beyond:
        return None, ReplayReport(False, len(actions), 0, beyond[0],
                                  f"the save records a position after action {beyond[0]} but "
                                  f"holds only {len(actions)} actions", data_changed)
    checked = 0
    if 0 in expected:
        checked += 1
        if game.digest(session.state) != expected[0]:
            return session, ReplayReport(False, len(actions), checked, 0,
                                         "the set-up differs from the saved one", data_changed)
    for k, entry in enumerate(actions, start=1):
        try:
            session.perform(entry["role"], entry["action"], copy=False)
        except Exception as exc:    # noqa: BLE001 - see above
            return session, ReplayReport(False, len(actions), checked, k,
                                         f"action {k} no longer replays: {refusal(exc)}",
                                         data_changed)
        if k in expected:
            checked += 1
            if game.digest(session.state) != expected[k]:
                return session, ReplayReport(False, len(actions), checked, k,
                                             f"the position after action {k} differs from the save",
                                             data_changed)
    return session, ReplayReport(True, len(actions), checked, None, "replay matches the save",
                                 data_changed)


def refusal(exc: Exception) -> str:
    """Why a save's set-up or action was refused. The rules' own refusals explain
    themselves; anything else a hand-made save provokes (a wrong type deep in an action, a
    value no rule expects) is named by its kind only: the file, not the program, is at fault,
    and its message could quote the file at length."""
    if isinstance(exc, StruggleError):
        return str(exc)
    return f"the save holds values the rules cannot use ({type(exc).__name__})"


def replay(game: GameModule, document: dict) -> ReplayReport:
    return _replay_session(game, document)[1]


def _finish_load(game: GameModule, document: dict, prefer_snapshot: bool
                 ) -> tuple[Session, ReplayReport]:
    session, report = _replay_session(game, document)
    if report.ok and session is not None:
        # Keep the periodic digests (the final one a save adds is recomputed on the next save).
        session.digests = [d for d in document["digests"] if d["after"] % DIGEST_EVERY == 0
                           and d["after"] > 0]
        return session, report
    if prefer_snapshot:
        kept = Session(game, document["scenario"], document["seed"], document["options"],
                       document["snapshot"], list(document["actions"]), [],
                       cache=game.new_cache())
        return kept, report
    raise SaveError(f"the save does not replay: {report.message}"
                    + (" (the rules or tables changed since it was saved)" if report.data_changed else ""))
