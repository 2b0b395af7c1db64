"""Headless batches of games: the engine of ``struggle-desktop simulate`` and of the benchmarks.

Game ``k`` (0-based) of a batch is set up with ``game_seed(seed, k)``, so a batch is the same on
any machine and any number of worker processes. Every decision is taken by the game's own
player (``Session.choose``, the game's ``choose_action``) through the one operation path,
``Session.perform``; the player draws from its own generator (stream 99 of the game seed),
never from the game's. A game that raises, reaches a dead end or runs past ``MAX_ACTIONS`` is
counted as an error, not a crash.

``--log-dir`` files (one ``game-<k>.jsonl`` per game; ARCHITECTURE.md section 6):

- every entry of ``state["log"]`` as one JSON line, as it is (``turn``, ``phase``, ``rule``,
  ``kind``, ``text``, ``refs``, ``dice``);
- at each turn start, a line ``{"kind": "turn", "turn": t, ...tracks}`` (the tracks the game
  recorded when the turn began), written right before the game's own turn-start log entry.
  That entry is kept too, but with ``"kind": "turn-start"`` and without its ``tracks`` copy,
  so that ``kind == "turn"`` always means the contract's turn line;
- a last line ``{"kind": "final", "outcome": result, "turns": n, ...tracks}`` with the tracks of
  the final position; a game that failed gets ``"outcome": "error"`` and an ``"error"`` text.

>>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
True
"""

from __future__ import annotations

import hashlib
import json
import math
import tempfile
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable

from struggle_desktop import games as games_registry
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session

#: The most games one batch plays: hours of work on one machine, and a list of that many
#: seeds and results still fits in memory (a mistyped count would otherwise run out of it).
MAX_GAMES = 1_000_000
#: A game that needs more player actions than this is a runaway (a rules or bot bug).
MAX_ACTIONS = 50_000
#: The PCG32 stream of the simulated player's own generator (the game uses the default one).
PLAYER_STREAM = 99
#: Policies every game's ``choose_action`` understands.
POLICIES = ("bot", "random")
#: How many error messages the summary quotes.
ERROR_SAMPLES = 5

Progress = Callable[[int, int], None]


class SimulationError(RuntimeError):
    """A simulated game went wrong: a dead end or a runaway."""


@dataclass
class GameResult:
    """What one simulated game ended with."""

    index: int
    seed: int
    completed: bool
    result: str | None      # the outcome's "result", None if the game failed
    turns: int
    vp: float | None
    actions: int
    digest: str             # digest of the final state (of the error, if there is no state)
    error: str | None = None


def game_seed(seed: int, k: int) -> int:
    """The set-up seed of game ``k`` of a batch: the first 8 bytes of SHA-256 of "seed:k"."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{k}".encode("ascii")).digest()[:8], "big")


def resolve_game(game: Any):
    """A game module from an id of the registry, or the module itself."""
    return games_registry.get_game(game) if isinstance(game, str) else game


def split_options(options: dict[str, Any] | None) -> tuple[dict[str, Any], str]:
    """Take the simulate-level ``policy`` out of the options; the rest goes to the game."""
    options = dict(options or {})
    policy = str(options.pop("policy", "bot"))
    return options, policy


def program_options(game: Any, options: dict[str, Any]) -> dict[str, Any]:
    """The options of a game the program plays throughout: a game may fill in defaults of its
    own for that case (Noble Houses gives every seat to the program, NH-SIM-3)."""
    fill = getattr(game, "simulation_options", None)
    return fill(options) if fill is not None else options


def check_setup(game: Any, scenario: str, options: dict[str, Any]) -> None:
    """Validate a scenario and the game's options without setting up a game (BadOption)."""
    normalize = getattr(game, "normalize_options", None)
    if normalize is not None:
        normalize(str(scenario), options)
    elif str(scenario) not in {str(s["id"]) for s in game.scenarios()}:
        raise BadOption(f"unknown scenario {scenario!r} for {game.id}")


def check_request(game: Any, scenario: str, options: dict[str, Any], policy: str) -> None:
    """Validate scenario, options and policy once, before any game runs (raises BadOption)."""
    known = getattr(game, "policies", POLICIES)
    if policy not in known:
        raise BadOption(f"unknown policy {policy!r} (known: {', '.join(known)})")
    check_setup(game, scenario, program_options(game, options))


def check_batch(games: Any, jobs: Any, seed: Any) -> None:
    """The numbers of a batch of games (simulate, forecast), or BadOption naming the wrong one."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise BadOption(f"the number of games must be at least 1, not {games!r}")
    if games > MAX_GAMES:
        raise BadOption(f"the number of games must be at most {MAX_GAMES:,} in one batch, "
                        f"not {games:,}")
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise BadOption(f"the number of jobs must be at least 1, not {jobs!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise BadOption(f"the seed must be a whole number, not {seed!r}")


def _tracks(game: Any, state: dict) -> dict:
    tracks = getattr(game, "tracks", None)
    return dict(tracks(state)) if tracks is not None else {}


def play_game(game: Any, scenario: str, seed: int, options: dict[str, Any], policy: str
              ) -> Session:
    """Set up one game and let the program play every decision until the game ends."""
    session = Session.new(game, scenario, seed, program_options(game, options),
                          record_digests=False)
    drive(game, session, policy, seed)
    return session


def drive(game: Any, session: Session, policy: str, seed: int) -> None:
    """Take every decision of ``session`` with the game's player until the game ends."""
    player_rng = Rng.from_seed(seed, stream=PLAYER_STREAM)
    actions = 0
    while game.outcome(session.state) is None:
        pending = session.state.get("pending")
        if pending is None:
            raise SimulationError("dead end: no outcome and no decision waiting")
        if actions >= MAX_ACTIONS:
            raise SimulationError(f"runaway game: more than {MAX_ACTIONS} actions")
        role = pending["role"]
        action = session.choose(role, policy, player_rng)
        session.perform(role, action, copy=False)   # the driver owns the state: no copies
        actions += 1


def run_one(game: Any, scenario: str, seed: int, k: int, options: dict[str, Any], policy: str,
            log_dir: Path | None = None) -> GameResult:
    """Play game ``k`` of a batch; any exception becomes an error result."""
    gseed = game_seed(seed, k)
    session: Session | None = None
    try:
        # A simulation never saves: no periodic digests (only the final one, below).
        # Nor does it keep a log nobody will write out (see Session.new).
        session = Session.new(game, scenario, gseed, program_options(game, options),
                              record_digests=False, keep_log=log_dir is not None)
        drive(game, session, policy, gseed)
        state = session.state
        outcome = game.outcome(state) or {}
        vp = outcome.get("vp")
        result = GameResult(
            index=k, seed=gseed, completed=True, result=str(outcome.get("result")),
            turns=int(outcome.get("turn", state.get("turn", 0)) or 0),
            vp=vp if isinstance(vp, (int, float)) and not isinstance(vp, bool) else None,
            actions=len(session.actions), digest=game.digest(state))
    except Exception as exc:  # noqa: BLE001 - a failing game is a result, not a crash
        message = f"game {k} (seed {gseed}): {type(exc).__name__}: {exc}".replace("\n", " ")
        result = GameResult(index=k, seed=gseed, completed=False, result=None,
                            turns=_turn_of(session), vp=None,
                            actions=len(session.actions) if session else 0,
                            digest=_error_digest(game, session, message), error=message)
    if log_dir is not None:
        write_game_log(game, session, result, Path(log_dir))
    return result


def _turn_of(session: Session | None) -> int:
    if session is None:
        return 0
    turn = session.state.get("turn", 0)
    return turn if isinstance(turn, int) else 0


def _error_digest(game: Any, session: Session | None, message: str) -> str:
    """A failed game still contributes a stable digest: its last state's, or the message's."""
    if session is not None:
        try:
            return game.digest(session.state)
        except Exception:  # noqa: BLE001 - the state may be half-changed by the failure
            pass
    return hashlib.sha256(message.encode("utf-8")).hexdigest()


# ------------------------------------------------------------------------------ log files
def log_lines(game: Any, state: dict, result: GameResult) -> Iterable[dict]:
    """The lines of one game's ``game-<k>.jsonl`` (see the module docstring)."""
    for entry in state.get("log", []):
        if entry.get("kind") == "turn":
            line = {"kind": "turn", "turn": entry.get("turn")}
            for key, value in (entry.get("tracks") or {}).items():
                line.setdefault(key, value)
            yield line
            entry = {k: v for k, v in entry.items() if k != "tracks"}
            entry["kind"] = "turn-start"
        yield entry
    final: dict[str, Any] = {"kind": "final",
                             "outcome": result.result if result.completed else "error",
                             "turns": result.turns}
    if result.error:
        final["error"] = result.error
    try:
        tracks = _tracks(game, state)
    except Exception:  # noqa: BLE001 - a failed game's state may not support its tracks
        tracks = {}
    for key, value in tracks.items():
        final.setdefault(key, value)
    yield final


def write_game_log(game: Any, session: Session | None, result: GameResult, log_dir: Path) -> None:
    log_dir.mkdir(parents=True, exist_ok=True)
    state = session.state if session is not None else {}
    with open(log_dir / f"game-{result.index}.jsonl", "w", encoding="utf-8") as handle:
        for line in log_lines(game, state, result):
            handle.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")))
            handle.write("\n")


# ------------------------------------------------------------------------------ batches
def _run_chunk(game_ref: Any, scenario: str, seed: int, indices: list[int],
               options: dict[str, Any], policy: str, log_dir: str | None) -> list[GameResult]:
    """A worker's share of the batch (module level so that it pickles)."""
    game = resolve_game(game_ref)
    path = Path(log_dir) if log_dir else None
    return [run_one(game, scenario, seed, k, options, policy, path) for k in indices]


def cluster_game(game_ref: Any, scenario: str, seed: int, options: dict[str, Any], policy: str,
                  with_log: bool, k: int) -> tuple[GameResult, str]:
    """Game ``k`` on a cluster worker: its result and, if asked, the text of its log file (the
    worker's disk may not be the client's, so the client writes the file)."""
    game = resolve_game(game_ref)
    if not with_log:
        return run_one(game, scenario, seed, k, options, policy), ""
    with tempfile.TemporaryDirectory(prefix="struggle-log-") as folder:
        result = run_one(game, scenario, seed, k, options, policy, Path(folder))
        return result, (Path(folder) / f"game-{k}.jsonl").read_text(encoding="utf-8")


def _chunks(n: int, jobs: int) -> list[list[int]]:
    """Game indices in consecutive chunks, several per worker so that progress moves and a
    slow chunk does not leave the other workers idle."""
    size = max(1, math.ceil(n / (jobs * 4)))
    return [list(range(start, min(n, start + size))) for start in range(0, n, size)]


def _game_ref(game: Any) -> Any:
    """What to send to the workers: the registry id when the game is the registered one (a
    small string instead of the loaded tables), else the game object itself."""
    try:
        if games_registry.get_game(game.id) is game:
            return game.id
    except (KeyError, AttributeError, ImportError):
        pass
    return game


def simulate(game: Any, scenario: str, games: int, seed: int,
             options: dict[str, Any] | None = None, jobs: int = 1,
             log_dir: Path | str | None = None, progress: Progress | None = None,
             cluster: str | None = None) -> dict:
    """Play ``games`` games and return the summary (the ``simulate --json`` object).

    ``game`` is a game id or a game module; ``options`` may hold ``policy`` (``bot`` or
    ``random``) besides the game's own options. ``cluster`` (``tcp://HOST:PORT`` or ``local:N``)
    plays the games on a Dask cluster instead of ``jobs`` processes (struggle_desktop.cluster),
    with the same results. Bad input raises BadOption before any game runs.
    """
    game = resolve_game(game)
    scenario = str(scenario)
    check_batch(games, jobs, seed)
    if cluster is not None:
        from struggle_desktop import cluster as dask_cluster   # only with --cluster
        dask_cluster.parse_cluster(cluster)
        dask_cluster.require_distributed()
    game_options, policy = split_options(options)
    check_request(game, scenario, game_options, policy)
    log_path = str(log_dir) if log_dir is not None else None
    # Load the tables and the map before the clock starts (forked workers inherit them), so
    # that ``seconds`` and ``games_per_second`` measure the games themselves.
    game.data_digest()
    warm_up = getattr(game, "warm_up", None)
    if warm_up is not None:
        warm_up()

    started = time.perf_counter()
    results: list[GameResult] = []
    done = 0
    if progress:
        progress(0, games)
    chunks = _chunks(games, jobs)
    if cluster is not None:
        if log_path is not None:
            Path(log_path).mkdir(parents=True, exist_ok=True)

        def collect(chunk_results: list) -> None:
            nonlocal done
            for result, text in chunk_results:
                results.append(result)
                if log_path is not None:     # the workers' logs, written here
                    (Path(log_path) / f"game-{result.index}.jsonl").write_text(
                        text, encoding="utf-8")
            done += len(chunk_results)
            if progress:
                progress(done, games)

        def clock_starts() -> None:
            nonlocal started
            started = time.perf_counter()    # the games, not the cluster's start-up

        dask_cluster.run_games(cluster, game, dict(game_options, policy=policy), cluster_game,
                               (_game_ref(game), scenario, seed, game_options, policy,
                                log_path is not None), games, collect, on_start=clock_starts)
    elif jobs == 1 or len(chunks) == 1:
        for chunk in chunks:
            results.extend(_run_chunk(game, scenario, seed, chunk, game_options, policy, log_path))
            done += len(chunk)
            if progress:
                progress(done, games)
    else:
        ref = _game_ref(game)
        with ProcessPoolExecutor(max_workers=min(jobs, len(chunks))) as pool:
            pending = {pool.submit(_run_chunk, ref, scenario, seed, chunk, game_options, policy,
                                   log_path) for chunk in chunks}
            while pending:
                finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in finished:
                    chunk_results = future.result()
                    results.extend(chunk_results)
                    done += len(chunk_results)
                if progress:
                    progress(done, games)
    results.sort(key=lambda r: r.index)   # game order, whatever order the workers finished in
    seconds = time.perf_counter() - started
    summary = summarize(game, scenario, game_options, policy, seed, jobs, results, seconds)
    summary["cluster"] = cluster
    return summary


def _mean(values: list[float]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def summarize(game: Any, scenario: str, options: dict[str, Any], policy: str, seed: int,
              jobs: int, results: list[GameResult], seconds: float) -> dict:
    """The summary object of a batch (results in game order)."""
    completed = [r for r in results if r.completed]
    failed = [r for r in results if not r.completed]
    outcomes: dict[str, int] = {}
    for r in completed:
        outcomes[r.result] = outcomes.get(r.result, 0) + 1
    digest = hashlib.sha256("".join(r.digest for r in results).encode("ascii")).hexdigest()
    return {
        "game": game.id,
        "scenario": scenario,
        "options": options,
        "policy": policy,
        "seed": seed,
        "games": len(results),
        "completed": len(completed),
        "errors": len(failed),
        "error_samples": [r.error for r in failed[:ERROR_SAMPLES]],
        "outcomes": dict(sorted(outcomes.items())),
        "turns_mean": _mean([r.turns for r in completed]),
        "vp_mean": _mean([r.vp for r in completed if r.vp is not None]),
        "actions_mean": _mean([r.actions for r in completed]),
        "seconds": round(seconds, 4),
        "games_per_second": round(len(results) / seconds, 3) if seconds > 0 else None,
        "jobs": jobs,
        "digest": digest,
    }


__all__ = ["GameResult", "MAX_ACTIONS", "SimulationError", "game_seed", "play_game", "run_one",
           "simulate", "summarize", "log_lines"]
