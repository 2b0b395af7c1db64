"""Forecasts: the rest of a game played out many times by the program's players.

The engine of ``struggle-desktop forecast FILE --games N [--seed N] [--jobs J] [--json]`` and of
the window's Forecast panel. Game ``k`` of a forecast continues the position as it stands, with
two things new: the game's generator is reseeded from ``game_seed(seed, k)`` (so the seed drives
the future dice only), and the game's program player decides for every side, the human's
included, drawing from a generator of its own (stream 99 of the same seed). The outcome of each
game and the game's tracks at the start of every later turn are collected; a game that ended
keeps its last values for the turns after its end, so every turn's figures rest on all games.

A forecast from one side's view (``start.side``, ``forecast --side X``) plays game ``k`` on
from a position the game imagines from that side's view alone (the game's ``imagined_state``,
engine/game.py): the other sides' hidden hands, plans and declarations are drawn anew for every
game from what that side may know, with a generator seeded from ``seed`` and ``k``. Such a
forecast tells that side nothing the others keep from it, so a save several people play may be
forecast this way (and only this way).

Game ``k`` depends on ``seed`` and ``k`` only, so a forecast gives the same figures and digest on
any number of worker processes. Workers get the position once (a process pool initializer) and
then small chunks of games, so that the first figures come within a second and refine as
games finish; ``cancelled()`` is asked between chunks, and a cancel stops the workers at once.

>>> summary = forecast(start_of("battles", "civil-war", seed=3), games=4, seed=1)
>>> summary["games"] == summary["completed"] == sum(summary["outcomes"].values()) == 4
True
"""

from __future__ import annotations

import hashlib
import math
import multiprocessing
import statistics
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.flow import UnkeptLog
from struggle_desktop.engine.game import imagines
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.simulate import (ERROR_SAMPLES, MAX_ACTIONS, PLAYER_STREAM, SimulationError,
                                       check_batch, game_seed, program_options, resolve_game)

#: Games per task handed to a worker: small, so that figures arrive early and often.
CHUNK = 10
#: The share of games the interval of an outcome's share covers.
CONFIDENCE_Z = 1.959964   # 95 %


@dataclass
class Start:
    """The position a forecast plays on from."""

    game_id: str
    scenario: str
    seed: int
    options: dict
    state: dict
    from_action: int
    policy: str
    #: An answer every game begins with (``{"role", "action"}``): the forecast of one candidate
    #: answer of the waiting prompt, to compare with another. It is taken after the new dice
    #: are in, so its own rolls vary from game to game too.
    first: dict | None = None
    #: The side whose view the games start from (None: the whole position as it stands).
    side: str | None = None


@dataclass
class Future:
    """How one forecast game went: its outcome and its tracks at the start of each turn."""

    index: int
    completed: bool
    result: str | None
    digest: str
    turns: dict[int, dict[str, float]] = field(default_factory=dict)
    error: str | None = None


def default_policy(game: Any) -> str:
    """The program player a game's forecast uses: the first the game names (its own bot)."""
    return tuple(getattr(game, "policies", ("bot",)))[0]


def start_from(session: Session, policy: str | None = None, side: str | None = None) -> Start:
    """The forecast start of ``session``'s position (a copy: the session is not touched);
    with ``side``, every game starts from a position imagined from that side's view (BadOption
    if the game does not imagine one)."""
    game = session.game
    if side is not None:
        if side not in game.roles:
            raise BadOption(f"no side {side!r} in {game.id} (its sides: {', '.join(game.roles)})")
        if not imagines(game):
            raise BadOption(f"{game.id} does not imagine the other sides' hidden parts from one "
                            "side's view: it cannot be forecast from one side's view")
    return Start(game.id, session.scenario, session.seed, dict(session.options),
                 clone(session.state), len(session.actions), policy or default_policy(game),
                 side=side)


def start_after(session: Session, role: str, action: dict,
                policy: str | None = None) -> Start:
    """The forecast start of ``session``'s position with ``role``'s answer ``action`` as every
    game's first move; BadOption (with the game's reason) if it is not a legal answer now."""
    reason = session.game.check_action(session.state, role, action)
    if reason is not None:
        raise BadOption(f"that answer cannot be given now: {reason}")
    start = start_from(session, policy)
    start.first = {"role": role, "action": dict(action)}
    return start


def start_of(game_id: str, scenario: str, seed: int, options: dict | None = None) -> Start:
    """The forecast start of a new game of ``scenario`` (its position after the set-up)."""
    game = resolve_game(game_id)
    return start_from(Session.new(game, scenario, seed, program_options(game, options or {})))


def flat_tracks(tracks: dict, prefix: str = "") -> dict[str, float]:
    """The numbers among a game's tracks, nested ones named ``outer.inner``.

    >>> flat_tracks({"ci": 40, "A": {"income": 7, "alive": True}, "note": "x"})
    {'ci': 40, 'A.income': 7}
    """
    flat: dict[str, float] = {}
    for key, value in tracks.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flat_tracks(value, f"{name}."))
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            flat[name] = value
    return flat


def turn_of(state: dict) -> int:
    turn = state.get("turn")
    return turn if isinstance(turn, int) and not isinstance(turn, bool) else 0


def play_on(game: Any, start: Start, seed: int, k: int) -> Future:
    """Forecast game ``k``: the start position with new dice, played to its end."""
    gseed = game_seed(seed, k)
    if start.side is not None:
        try:
            state = game.imagined_state(start.state, start.side, gseed)
        except Exception as exc:  # noqa: BLE001 - a failing game is a result, not a crash
            error = f"game {k}: imagining {start.side}'s view: {type(exc).__name__}: {exc}"
            error = error.replace("\n", " ")
            return Future(k, False, None, hashlib.sha256(error.encode("utf-8")).hexdigest(),
                          error=error)
    else:
        state = clone(start.state)
    state["rng"] = Rng.from_seed(gseed).to_json()
    if getattr(game, "log_is_output_only", False):
        state["log"] = UnkeptLog()        # nobody reads a forecast game's log
    session = Session(game, start.scenario, start.seed, start.options, state, [], [],
                      record_digests=False, cache=game.new_cache())
    player_rng = Rng.from_seed(gseed, stream=PLAYER_STREAM)
    tracks = getattr(game, "tracks", None)
    future = Future(k, False, None, "")

    def take(role: str, action: dict) -> None:
        """One action; the tracks as a new turn begins."""
        session.perform(role, action, copy=False)
        turn = turn_of(session.state)
        if tracks is not None and turn not in future.turns:
            future.turns[turn] = flat_tracks(tracks(session.state))

    try:
        if tracks is not None:
            future.turns[turn_of(state)] = flat_tracks(tracks(state))
        if start.first is not None:
            take(start.first["role"], start.first["action"])
        for _ in range(MAX_ACTIONS):
            if game.outcome(session.state) is not None:
                break
            pending = session.state.get("pending")
            if pending is None:
                raise SimulationError("dead end: no outcome and no decision waiting")
            role = pending["role"]
            take(role, session.choose(role, start.policy, player_rng))
        else:
            raise SimulationError(f"runaway game: more than {MAX_ACTIONS} actions")
        outcome = game.outcome(session.state) or {}
        future.completed, future.result = True, str(outcome.get("result"))
        if tracks is not None:       # the final position counts for the turn it ended in
            future.turns[turn_of(session.state)] = flat_tracks(tracks(session.state))
        future.digest = game.digest(session.state)
    except Exception as exc:  # noqa: BLE001 - a failing game is a result, not a crash
        future.error = f"game {k}: {type(exc).__name__}: {exc}".replace("\n", " ")
        future.digest = hashlib.sha256(future.error.encode("utf-8")).hexdigest()
    return future


# ------------------------------------------------------------------------------ workers
_WORKER: dict[str, Any] = {}


def _worker_start(start: Start, seed: int) -> None:
    """A worker's set-up: the game loaded and the start position kept, once."""
    game = resolve_game(start.game_id)
    game.data_digest()
    _WORKER.update(game=game, start=start, seed=seed)


def _worker_chunk(indices: list[int]) -> list[Future]:
    return [play_on(_WORKER["game"], _WORKER["start"], _WORKER["seed"], k) for k in indices]


def _cluster_game(start: Start, seed: int, k: int) -> Future:
    """Forecast game ``k`` on a cluster worker (the chunk carries the start position)."""
    return play_on(resolve_game(start.game_id), start, seed, k)


# ------------------------------------------------------------------------------ forecasts
def forecast(start: Start, games: int, seed: int = 1, jobs: int = 1,
             on_results: Callable[[list[Future]], None] | None = None,
             cancelled: Callable[[], bool] | None = None,
             context: Any = None, cluster: str | None = None) -> dict:
    """Play ``games`` forecast games from ``start`` and return the summary (the
    ``forecast --json`` object). ``on_results(futures)`` is called with every game finished so
    far (in game order) each time more finish; ``cancelled()`` is asked between chunks and stops
    the forecast (the summary then says ``"cancelled": true``). ``context`` is the
    multiprocessing context of the workers (the window uses ``spawn``: it runs threads).
    ``cluster`` (``tcp://HOST:PORT`` or ``local:N``) plays the games on a Dask cluster instead
    of ``jobs`` processes (struggle_desktop.cluster), with the same figures."""
    check_batch(games, jobs, seed)
    if cluster is not None:
        from struggle_desktop import cluster as dask_cluster   # only with --cluster
        dask_cluster.parse_cluster(cluster)
        dask_cluster.require_distributed()
    game = resolve_game(start.game_id)
    if game.outcome(start.state) is not None:
        raise BadOption("the game is over: there is nothing left to forecast")
    warm_up = getattr(game, "warm_up", None)
    if warm_up is not None:
        warm_up()
    stop = cancelled or (lambda: False)
    started = time.perf_counter()
    futures: list[Future] = []
    was_cancelled = False
    chunks = [list(range(i, min(games, i + CHUNK))) for i in range(0, games, CHUNK)]

    def collect(batch: list[Future]) -> None:
        futures.extend(batch)
        futures.sort(key=lambda f: f.index)
        if on_results is not None:
            on_results(list(futures))

    if cluster is not None:
        def clock_starts() -> None:
            nonlocal started
            started = time.perf_counter()    # the games, not the cluster's start-up

        was_cancelled = dask_cluster.run_games(
            cluster, game, dict(start.options, policy=start.policy), _cluster_game,
            (start, seed), games, collect, stop=stop, on_start=clock_starts)
    elif jobs == 1 or len(chunks) == 1:
        for chunk in chunks:
            if stop():
                was_cancelled = True
                break
            collect([play_on(game, start, seed, k) for k in chunk])
    else:
        ctx = context or multiprocessing.get_context()
        pool = ctx.Pool(min(jobs, len(chunks)), initializer=_worker_start,
                        initargs=(start, seed))
        try:
            for batch in pool.imap_unordered(_worker_chunk, chunks):
                collect(batch)
                if stop() and len(futures) < games:
                    was_cancelled = True
                    break
        finally:
            # Workers still busy on a chunk are stopped, not waited for.
            pool.terminate()
            pool.join()
    summary = summarize(game, start, seed, jobs, futures, time.perf_counter() - started,
                        cancelled=was_cancelled)
    summary["cluster"] = cluster
    return summary


# ------------------------------------------------------------------------------ figures
def deciles(values: list[float]) -> tuple[float, float, float]:
    """The 10th, 50th and 90th percentiles, interpolated between neighbours (the standard
    library's inclusive method).

    >>> deciles([1, 2, 3, 4]), deciles([5])
    ((1.3, 2.5, 3.7), (5, 5, 5))
    """
    if len(values) < 2:
        return values[0], values[0], values[0]
    cuts = statistics.quantiles(values, n=10, method="inclusive")
    return cuts[0], cuts[4], cuts[8]


def share_interval(count: int, total: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a share ``count / total``.

    >>> [round(x, 3) for x in share_interval(50, 100)]
    [0.404, 0.596]
    """
    if total == 0:
        return 0.0, 1.0
    p, z = count / total, CONFIDENCE_Z
    centre = (p + z * z / (2 * total)) / (1 + z * z / total)
    half = z * math.sqrt(p * (1 - p) / total + z * z / (4 * total * total)) / (1 + z * z / total)
    return max(0.0, centre - half), min(1.0, centre + half)


def turn_figures(futures: list[Future]) -> list[dict]:
    """Per turn from the start's on: each track's mean and 10th/50th/90th percentiles over
    the games (a game that ended keeps its last values)."""
    played = [f for f in futures if f.turns]
    if not played:
        return []
    first = min(min(f.turns) for f in played)
    last = max(max(f.turns) for f in played)
    rows = []
    for turn in range(first, last + 1):
        values: dict[str, list[float]] = {}
        for future in played:
            known = [t for t in future.turns if t <= turn]
            if not known:
                continue
            for name, value in future.turns[max(known)].items():
                values.setdefault(name, []).append(value)
        tracks = {}
        for name, v in sorted(values.items()):
            p10, p50, p90 = deciles(v)
            tracks[name] = {"mean": round(sum(v) / len(v), 4), "p10": p10, "p50": p50,
                            "p90": p90}
        rows.append({"turn": turn, "tracks": tracks})
    return rows


def summarize(game: Any, start: Start, seed: int, jobs: int, futures: list[Future],
              seconds: float, cancelled: bool = False) -> dict:
    """The summary of the games of a forecast played so far (in game order)."""
    completed = [f for f in futures if f.completed]
    failed = [f for f in futures if not f.completed]
    outcomes: dict[str, int] = {}
    for future in completed:
        outcomes[future.result] = outcomes.get(future.result, 0) + 1
    shares = {}
    for result, count in sorted(outcomes.items()):
        low, high = share_interval(count, len(completed))
        shares[result] = {"share": round(count / len(completed), 4), "low": round(low, 4),
                          "high": round(high, 4)}
    digest = hashlib.sha256("".join(f.digest for f in futures).encode("ascii")).hexdigest()
    return {
        "game": game.id,
        "scenario": start.scenario,
        "from_action": start.from_action,
        "from_turn": turn_of(start.state),
        "policy": start.policy,
        "side": start.side,
        "seed": seed,
        "games": len(futures),
        "completed": len(completed),
        "errors": len(failed),
        "error_samples": [f.error for f in failed[:ERROR_SAMPLES]],
        "cancelled": cancelled,
        "outcomes": outcomes,
        "shares": shares,
        "turns": turn_figures(futures),
        "seconds": round(seconds, 3),
        "games_per_second": round(len(futures) / seconds, 2) if seconds > 0 else None,
        "jobs": jobs,
        "digest": digest,
    }
