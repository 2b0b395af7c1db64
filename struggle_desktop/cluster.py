"""Batches of games on a Dask cluster: ``--cluster ADDRESS`` and ``--cluster local:N``.

``simulate``, ``forecast`` and the level/balance tools hand their games to a Dask scheduler
instead of a process pool of their own when given ``--cluster`` (ARCHITECTURE.md section 6;
how to start one on several machines: docs/cluster.md). Dask's ``distributed`` is an optional
extra (``pip install "struggle-desktop[cluster]"``): this module imports it only inside the
functions that need it, so that without the extra nothing imports it and ``--cluster`` is one
``error:`` line saying how to install it.

How a batch runs:

- the games are cut into chunks of consecutive indices, several per worker, so that progress
  moves, a slow worker does not hold the others up, and a worker that is lost costs little: the
  scheduler gives its chunks to another worker (Dask re-runs the tasks of a lost worker);
- game ``k`` depends on the batch seed and ``k`` only, and the results are put back in game
  order, so the digest and every figure are those of ``--jobs 1``;
- each chunk carries the client's *fingerprint* (program version, rules version, and a digest of
  the data the worker plays with: tables, maps and scenarios, house-rule overrides included, and
  the batch's options). Every worker is asked once before the first chunk (which also loads
  the game's data there, before the clock starts), and a worker that joins later checks each
  chunk it gets. A worker whose own differs refuses (``WorkerMismatch``), and the run stops with
  one line naming that worker: its figures would not be those of this program;
- between two games a chunk asks whether it is still wanted, so that a cancel (Ctrl+C, a
  scheduler that went away) leaves at most one game running per worker, and a local cluster's
  worker processes are stopped with it;
- every wait is bounded: connecting, waiting for a first worker, a scheduler that stops
  answering. The failures become ``ClusterError`` (exit 2, one line, no traceback).

>>> parse_cluster("local:2"), parse_cluster("tcp://127.0.0.1:8786")
(('local', 2), ('address', 'tcp://127.0.0.1:8786'))
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import re
import time
import uuid
import warnings
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from struggle_desktop import __version__
from struggle_desktop.engine.errors import BadOption, StruggleError, one_line

#: The most worker processes ``local:N`` starts.
MAX_LOCAL_WORKERS = 64
#: Seconds to reach a scheduler at all.
CONNECT_TIMEOUT = 10
#: Seconds to wait for a first worker on a scheduler, and without any worker during a run.
WORKER_TIMEOUT = 30
#: Seconds between two questions to the scheduler whether it still has workers.
WORKER_CHECK = 5
#: Seconds the scheduler may stay out of reach during a run before the run stops.
LOST_SCHEDULER_TIMEOUT = 10
#: Seconds between two looks at the chunks (progress, cancel, a lost scheduler).
POLL = 0.1
#: Chunks per worker, and the most games in one chunk (a lost worker's chunk is played again).
CHUNKS_PER_WORKER = 8
MAX_CHUNK = 25
INSTALL_HINT = 'pip install "struggle-desktop[cluster]"'

_ADDRESS = re.compile(r"^(tcp|tls)://(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})$")


class ClusterError(StruggleError):
    """The cluster cannot run the batch: unreachable, gone, a worker that differs, a chunk that
    failed. Reported as one ``error:`` line with exit code 2."""


class WorkerMismatch(Exception):
    """Raised by a worker for a chunk it refuses: its program, rules or data differ."""


# ------------------------------------------------------------------------------ the option
def parse_cluster(text: Any) -> tuple[str, Any]:
    """``--cluster``'s value: ``("local", N)`` or ``("address", "tcp://HOST:PORT")``; BadOption
    for anything else."""
    text = str(text).strip()
    if text.startswith("local:"):
        count = text[len("local:"):]
        if not count.isdigit() or not 1 <= int(count) <= MAX_LOCAL_WORKERS:
            raise BadOption(f"--cluster local:N takes a number of workers from 1 to "
                            f"{MAX_LOCAL_WORKERS}, not {text!r}")
        return "local", int(count)
    match = _ADDRESS.match(text)
    if match is None or not 1 <= int(match.group(3)) <= 65535:
        raise BadOption(f"--cluster takes a Dask scheduler's address (tcp://HOST:PORT) or "
                        f"local:N, not {text!r}")
    return "address", text


def check_jobs_or_cluster(jobs: int | None, cluster: str | None) -> int:
    """``--jobs`` and ``--cluster`` are alternatives: the number of jobs to use (1 when not
    given); BadOption when both are given."""
    if cluster is not None and jobs is not None:
        raise BadOption("--cluster runs the games on a Dask cluster instead of --jobs "
                        "worker processes: give one of them, not both")
    return 1 if jobs is None else jobs


def add_cluster_options(parser: Any, default_jobs: int) -> None:
    """A tool's ``--jobs`` and ``--cluster`` (tools/balance.py, levels.py, struggle_levels.py)."""
    parser.add_argument("--jobs", type=int, default=None,
                        help=f"worker processes (default {default_jobs})")
    parser.add_argument("--cluster", default=None, metavar="ADDRESS|local:N",
                        help="a Dask scheduler (tcp://HOST:PORT) or local:N, instead of --jobs")


def tool_jobs(jobs: int | None, cluster: str | None, default_jobs: int) -> int:
    """The number of jobs a tool uses (``default_jobs`` when ``--jobs`` is not given). With
    ``--cluster``, its value and the extra are checked before any game is played, so a bad
    one is refused before the tool's first line (BadOption)."""
    if cluster is None:
        return default_jobs if jobs is None else jobs
    check_jobs_or_cluster(jobs, cluster)
    parse_cluster(cluster)
    require_distributed()
    return 1


def require_distributed() -> Any:
    """Dask's ``distributed`` module, or BadOption saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise BadOption(f"--cluster needs Dask's distributed scheduler, which is not "
                        f"installed: {INSTALL_HINT}") from None
    return distributed


# ------------------------------------------------------------------------------ fingerprints
def fingerprint(game: Any, options: dict | None) -> dict:
    """What a worker must share with the client to give the same figures: the program version,
    the game's rules version, and a digest of its data (tables with the house-rule overrides
    in force, maps, scenarios) and of the batch's options."""
    options_text = json.dumps(options or {}, sort_keys=True, default=str)
    data = hashlib.sha256(f"{game.data_digest()}\n{options_text}".encode("utf-8")).hexdigest()
    return {"game": game.id, "program": __version__, "rules": game.rules_version, "data": data}


def differences(here: dict, there: dict) -> list[str]:
    """The fingerprint fields that differ, in words.

    >>> differences({"program": "1", "rules": "a", "data": "ab"},
    ...             {"program": "2", "rules": "a", "data": "ab"})
    ['program version 2 there, 1 here']
    """
    words = {"program": "program version", "rules": "rules version",
             "data": "data digest (tables, maps, scenarios, house-rule overrides)"}
    found = []
    for key, name in words.items():
        if here.get(key) != there.get(key):
            mine, theirs = str(here.get(key)), str(there.get(key))
            if key == "data":
                mine, theirs = mine[:12], theirs[:12]
            found.append(f"{name} {theirs} there, {mine} here")
    return found


# ------------------------------------------------------------------------------ on a worker
def _still_wanted() -> bool:
    """Whether the chunk this worker thread runs is still wanted by the scheduler (False once
    it is cancelled); True outside a Dask worker."""
    try:
        from distributed import get_worker
        from distributed.worker import thread_state
        worker = get_worker()
        task = worker.state.tasks.get(thread_state.key)
    except Exception:  # noqa: BLE001 - not on a worker, or an older Dask: keep going
        return True
    return task is not None and task.state not in ("cancelled", "released", "forgotten")


def _worker_address() -> str:
    try:
        from distributed import get_worker
        return str(get_worker().address)
    except Exception:  # noqa: BLE001 - not on a worker
        return "(not a worker)"


def mismatch(address: str, differ: list[str]) -> str:
    """The one line that names a worker that differs, and how."""
    return (f"worker {address} differs from this program and refused its chunk: "
            f"{'; '.join(differ)}")


def prepare_worker(expected: dict, options: dict) -> list[str]:
    """Run once on every worker before a batch: load the game's data (so that the first chunk
    does not pay for it) and say how this worker differs from the client (empty: it does not)."""
    from struggle_desktop.simulate import resolve_game
    return differences(expected, fingerprint(resolve_game(expected["game"]), options))


def run_chunk(expected: dict, options: dict, task: Callable, args: tuple,
              indices: list[int]) -> list:
    """A worker's chunk: refuse it if this worker's fingerprint differs from the client's, else
    ``task(*args, k)`` for every game ``k`` of it while the chunk is still wanted."""
    from struggle_desktop.simulate import resolve_game
    try:
        game = resolve_game(expected["game"])
        mine = fingerprint(game, options)
    except Exception as exc:  # noqa: BLE001 - e.g. an older program without that game
        raise WorkerMismatch(f"worker {_worker_address()} cannot load {expected['game']}: "
                             f"{type(exc).__name__}: {exc}") from None
    differ = differences(expected, mine)
    if differ:
        raise WorkerMismatch(mismatch(_worker_address(), differ))
    results = []
    for k in indices:
        if not _still_wanted():
            break
        results.append(task(*args, k))
    return results


# ------------------------------------------------------------------------------ on the client
@contextmanager
def connect(spec: tuple[str, Any]) -> Iterator[Any]:
    """A Dask client for ``spec`` (see ``parse_cluster``); a local cluster is started for
    ``local:N`` and stopped, with its worker processes, on the way out."""
    distributed = require_distributed()
    import dask
    kind, value = spec
    # Above CRITICAL: the client side logs every lost connection and retry as warnings with
    # tracebacks, and a local scheduler stopped by Ctrl+C may log a CRITICAL one while its
    # connections close; the run reports what matters in one line of its own.
    quiet = logging.CRITICAL + 10
    names = ["distributed", "tornado", "asyncio"]
    names += [name for name in list(logging.root.manager.loggerDict)
              if name.split(".")[0] in ("distributed", "tornado")]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(quiet)
    cluster = client = None
    config = {"distributed.comm.timeouts.connect": f"{CONNECT_TIMEOUT}s",
              "distributed.admin.tick.limit": "1h"}
    try:
        # Dask warns on stderr when a port it likes is taken (it takes another): not a
        # matter for the person running the batch.
        with dask.config.set(config), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                if kind == "local":
                    cluster = distributed.LocalCluster(
                        n_workers=value, threads_per_worker=1, processes=True,
                        dashboard_address=None, worker_dashboard_address=None,
                        silence_logs=quiet, host="127.0.0.1")
                    client = distributed.Client(cluster, set_as_default=False)
                else:
                    client = distributed.Client(value, timeout=CONNECT_TIMEOUT,
                                                set_as_default=False)
            except (OSError, TimeoutError, ValueError, RuntimeError) as exc:
                if kind == "local":   # e.g. a worker process that cannot start
                    raise ClusterError(f"cannot start a local Dask cluster of {value} workers: "
                                       f"{one_line(exc) or type(exc).__name__}") from None
                raise ClusterError(f"cannot reach the Dask scheduler at {value}: "
                                   f"{one_line(exc) or type(exc).__name__}") from None
            try:
                client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
            except (OSError, TimeoutError) as exc:
                raise ClusterError(f"the Dask scheduler at {client.scheduler.address} has no "
                                   f"worker after {WORKER_TIMEOUT} s "
                                   f"({type(exc).__name__})") from None
            yield client
    finally:
        for closing in (client, cluster):
            if closing is not None:
                try:
                    closing.close(timeout=CONNECT_TIMEOUT)
                except Exception:  # noqa: BLE001 - closing after a lost scheduler may fail
                    pass
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def chunk_size(games: int, workers: int) -> int:
    """Games per chunk: about ``CHUNKS_PER_WORKER`` chunks per worker, at most ``MAX_CHUNK``.

    >>> chunk_size(10, 2), chunk_size(1000, 2), chunk_size(1000, 100)
    (1, 25, 2)
    """
    return max(1, min(MAX_CHUNK, math.ceil(games / (max(1, workers) * CHUNKS_PER_WORKER))))


def run_games(cluster: str, game: Any, options: dict, task: Callable, args: tuple, games: int,
              on_results: Callable[[list], None], stop: Callable[[], bool] | None = None,
              on_start: Callable[[], None] | None = None) -> bool:
    """Play games ``0..games-1`` as ``task(*args, k)`` on the cluster ``cluster`` (the option's
    text); ``on_results(chunk_results)`` gets each chunk's results as they come (any order),
    ``on_start()`` is called once the cluster is ready. Returns True if ``stop()`` cancelled the
    run. Raises ClusterError (exit 2) when the cluster cannot finish it; a KeyboardInterrupt
    cancels the chunks on the cluster before it goes on up."""
    spec = parse_cluster(cluster)
    expected = fingerprint(game, options)
    stop = stop or (lambda: False)
    with connect(spec) as client:
        try:    # every worker now: an early refusal, and the data loaded before the clock
            refusals = client.run(prepare_worker, expected, options, wait=True,
                                  on_error="return")
        except Exception as exc:  # noqa: BLE001 - the scheduler went away at once
            raise ClusterError(f"lost the Dask scheduler at {_where(spec)}: "
                               f"{one_line(exc) or type(exc).__name__}") from None
        for address, refusal in refusals.items():
            if isinstance(refusal, list) and refusal:
                raise ClusterError(mismatch(address, refusal))
            if isinstance(refusal, BaseException):   # e.g. a worker without this program
                raise ClusterError(f"worker {address} cannot play these games: "
                                   f"{type(refusal).__name__}: {one_line(refusal)}")
        workers = len(refusals)
        size = chunk_size(games, workers)
        batch = uuid.uuid4().hex[:12]
        if on_start is not None:
            on_start()
        pending = set()
        try:
            for number, first in enumerate(range(0, games, size)):
                indices = list(range(first, min(games, first + size)))
                pending.add(client.submit(run_chunk, expected, options, task, args, indices,
                                          key=f"struggle-chunk-{batch}-{number}", pure=False))
            out_of_reach_since = None
            workers_seen = last_check = time.monotonic()
            while pending:
                # A look at the futures' own states: no call to the scheduler.
                done = {future for future in pending if future.done()}
                if not done:
                    time.sleep(POLL)
                pending -= done
                for future in sorted(done, key=lambda f: f.key):
                    if future.status not in ("finished", "cancelled", "error"):
                        # Done when looked at, but its result lay on a worker that has gone
                        # since (while an earlier chunk was taken in): the scheduler plays it
                        # again, so it is waited for once more.
                        pending.add(future)
                        continue
                    on_results(_result(future, spec))
                if stop() and pending:
                    return True
                if client.status != "running":
                    out_of_reach_since = out_of_reach_since or time.monotonic()
                    if time.monotonic() - out_of_reach_since > LOST_SCHEDULER_TIMEOUT:
                        raise ClusterError(f"lost the Dask scheduler at "
                                           f"{_where(spec)} during the run")
                else:
                    out_of_reach_since = None
                    now = time.monotonic()
                    if now - last_check < WORKER_CHECK:
                        continue
                    last_check = now
                    if _worker_count(client):
                        workers_seen = now
                    elif now - workers_seen > WORKER_TIMEOUT:
                        raise ClusterError(f"the Dask scheduler at {_where(spec)} has had no "
                                           f"worker for {WORKER_TIMEOUT} s")
            return False
        finally:
            if pending and client.status == "running":
                try:   # nothing of this batch keeps running on the cluster
                    client.cancel(list(pending), force=True)
                except Exception:  # noqa: BLE001 - the scheduler may be gone already
                    pass


def _worker_count(client: Any) -> int:
    """The scheduler's workers (a call to the scheduler: made every ``WORKER_CHECK`` s)."""
    try:
        return len(client.scheduler_info().get("workers", {}))
    except Exception:  # noqa: BLE001 - between connections: count it as unknown, not none
        return 1


def _where(spec: tuple[str, Any]) -> str:
    return spec[1] if spec[0] == "address" else f"local:{spec[1]}"


def _result(future: Any, spec: tuple[str, Any]) -> list:
    """A finished chunk's results, or ClusterError saying why there are none."""
    if future.status == "finished":
        return future.result()
    if future.status == "cancelled":
        raise ClusterError(f"lost the Dask scheduler at {_where(spec)} during the run (it went "
                           f"away or was restarted)")
    exc = future.exception()
    if isinstance(exc, WorkerMismatch):
        raise ClusterError(str(exc))
    if type(exc).__name__ == "KilledWorker":
        raise ClusterError(f"a chunk's workers kept dying on the cluster at {_where(spec)}: "
                           f"{one_line(exc)}")
    raise ClusterError(f"a chunk failed on the cluster: {type(exc).__name__}: {one_line(exc)}")
