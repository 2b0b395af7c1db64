"""``--cluster``: simulate and forecast on a Dask cluster (ARCHITECTURE.md section 6, issue of
balance studies past one machine).

The scheduler and workers here are real: ``dask scheduler`` and ``dask worker`` started as
separate processes on 127.0.0.1, as docs/cluster.md tells people to start them, and
``local:N`` clusters. Runs are kept to a few games: what is checked is that the figures are the
same as on one process, and how the run ends when the cluster misbehaves.
"""

from __future__ import annotations

import io
import json
import os
import re
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
import yaml

distributed = pytest.importorskip("distributed")

from struggle_desktop import cli, cluster  # noqa: E402
from struggle_desktop import forecast as forecasting  # noqa: E402
from struggle_desktop.simulate import simulate  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
DASK = Path(sys.executable).parent / "dask"
#: Every game, with a scenario and options that keep a game short.
GAMES = [
    ("struggle", "4", {}),
    ("battles", "civil-war", {}),
    ("nobles", "standard", {"houses": 2, "turn_limit": 2}),
    ("freedom", "a3", {}),
]


# ------------------------------------------------------------------------------ helpers
def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def dask_command(*words: str) -> list[str]:
    """``dask scheduler ...`` / ``dask worker ...`` of this environment."""
    if DASK.exists():
        return [str(DASK), *words]
    return [sys.executable, "-m", f"distributed.cli.dask_{words[0]}", *words[1:]]


class Scheduler:
    """A ``dask scheduler`` process and its ``dask worker`` processes on 127.0.0.1."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.address = f"tcp://127.0.0.1:{free_port()}"
        self.process = self._start("scheduler", ["scheduler", "--host", "127.0.0.1", "--port",
                                                 self.address.rsplit(":", 1)[1],
                                                 "--no-dashboard"])
        self.workers: list[subprocess.Popen] = []

    def _start(self, name: str, words: list[str], env: dict | None = None) -> subprocess.Popen:
        log = open(self.folder / f"{name}.log", "w")
        return subprocess.Popen(dask_command(*words), stdout=log, stderr=subprocess.STDOUT,
                                env=env, cwd=self.folder)

    def add_workers(self, count: int, env: dict | None = None) -> None:
        for _ in range(count):
            self.workers.append(self._start(
                f"worker-{len(self.workers)}",
                ["worker", self.address, "--nthreads", "1", "--no-dashboard", "--no-nanny"],
                env))
        with distributed.Client(self.address, timeout=30, set_as_default=False) as client:
            client.wait_for_workers(sum(w.poll() is None for w in self.workers), timeout=60)

    def client(self) -> distributed.Client:
        return distributed.Client(self.address, timeout=30, set_as_default=False)

    def stop(self) -> None:
        for process in [*self.workers, self.process]:
            if process.poll() is None:
                process.kill()
            process.wait(timeout=30)


@pytest.fixture(scope="module")
def three_workers(tmp_path_factory):
    """A scheduler with three workers, each a process of its own."""
    scheduler = Scheduler(tmp_path_factory.mktemp("dask"))
    try:
        scheduler.add_workers(3)
        yield scheduler
    finally:
        scheduler.stop()


@pytest.fixture()
def one_worker(tmp_path):
    scheduler = Scheduler(tmp_path)
    try:
        yield scheduler
    finally:
        scheduler.stop()


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


# ------------------------------------------------------------------------------ same results
@pytest.mark.parametrize("game_id, scenario, options", GAMES, ids=[g[0] for g in GAMES])
def test_same_results_on_jobs_and_clusters(game_id, scenario, options, three_workers):
    """Digest, outcomes and per-turn figures of forecast, and digest, outcomes and figures of
    simulate, are those of --jobs 1 with --jobs 2, --cluster local:2 and a scheduler with three
    worker processes."""
    games = 4
    ways = [{"jobs": 1}, {"jobs": 2}, {"cluster": "local:2"}, {"cluster": three_workers.address}]
    fields = ("digest", "outcomes", "completed", "errors", "turns_mean", "vp_mean",
              "actions_mean")
    runs = [simulate(game_id, scenario, games, 5, options, **way) for way in ways]
    assert runs[0]["completed"] == games
    for summary in runs[1:]:
        assert {f: summary[f] for f in fields} == {f: runs[0][f] for f in fields}, summary

    start = forecasting.start_of(game_id, scenario, seed=3, options=options)
    fields = ("digest", "outcomes", "completed", "errors", "turns", "shares")
    runs = [forecasting.forecast(start, games, seed=2, **way) for way in ways]
    assert runs[0]["completed"] == games and runs[0]["turns"]
    for way, summary in zip(ways[1:], runs[1:]):
        assert {f: summary[f] for f in fields} == {f: runs[0][f] for f in fields}, way


def test_simulate_logs_from_the_workers_are_written_here(tmp_path, three_workers):
    """--log-dir with --cluster: the workers' game logs are written on this machine, the same
    as with --jobs 1."""
    simulate("struggle", "4", 3, 1, log_dir=tmp_path / "one")
    simulate("struggle", "4", 3, 1, log_dir=tmp_path / "dask", cluster=three_workers.address)
    for k in range(3):
        name = f"game-{k}.jsonl"
        assert (tmp_path / "dask" / name).read_text() == (tmp_path / "one" / name).read_text()


def test_a_lost_workers_chunks_run_again_elsewhere(three_workers):
    """A worker killed while it plays a chunk: its chunks are played by the others and the
    figures are still those of --jobs 1."""
    with three_workers.client() as client:
        pids = client.run(os.getpid)
        killed = []

        def progress(done: int, total: int) -> None:
            if done and not killed:      # the first chunk is in: kill a busy worker
                busy = [a for a, keys in client.processing().items() if keys]
                if busy:
                    os.kill(pids[busy[0]], signal.SIGKILL)
                    killed.append(busy[0])

        summary = simulate("struggle", "4", 120, 7, cluster=three_workers.address,
                           progress=progress)
    assert killed, "no worker was busy to be killed"
    alone = simulate("struggle", "4", 120, 7)
    assert summary["games"] == 120
    assert summary["digest"] == alone["digest"] and summary["outcomes"] == alone["outcomes"]
    three_workers.add_workers(1)     # back to three for the tests after this one


# ------------------------------------------------------------------------------ refusals
def test_a_worker_with_other_data_refuses_and_the_run_stops(capsys, one_worker, tmp_path):
    """A worker whose tables differ (a house-rule override of its own) refuses its chunk: exit
    2 and one line naming that worker and what differs."""
    home = tmp_path / "other-home"
    override = home / "config" / "overrides" / "struggle" / "misc_decided.yaml"
    override.parent.mkdir(parents=True)
    table = yaml.safe_load((ROOT / "assets/tables/struggle/misc_decided.yaml").read_text())
    table["title"] += " (house rule)"
    override.write_text(yaml.safe_dump(table))
    one_worker.add_workers(1, env=dict(os.environ, STRUGGLE_DESKTOP_HOME=str(home)))
    with one_worker.client() as client:
        (worker,) = client.scheduler_info()["workers"]
    code, out, err = run(capsys, "simulate", "--game", "struggle", "--scenario", "4",
                         "--games", "3", "--seed", "1", "--cluster", one_worker.address)
    line = one_error_line(err)
    assert code == 2 and out == ""
    assert worker in line and "data digest" in line and "refused" in line, line


@pytest.mark.parametrize("value, words", [
    ("nowhere", "tcp://HOST:PORT"),
    ("tcp://127.0.0.1", "tcp://HOST:PORT"),
    ("http://127.0.0.1:8786", "tcp://HOST:PORT"),
    ("tcp://127.0.0.1:99999", "tcp://HOST:PORT"),
    ("local:0", "local:N"),
    ("local:two", "local:N"),
])
def test_bad_cluster_values_exit_2(capsys, value, words):
    for command in (["simulate", "--game", "struggle", "--scenario", "4", "--games", "2",
                     "--seed", "1"],):
        code, out, err = run(capsys, *command, "--cluster", value)
        assert code == 2 and words in one_error_line(err)


def test_jobs_and_cluster_together_exit_2(capsys):
    code, _, err = run(capsys, "simulate", "--game", "struggle", "--scenario", "4", "--games",
                       "2", "--seed", "1", "--jobs", "2", "--cluster", "local:2")
    assert code == 2 and "not both" in one_error_line(err)


def test_an_unreachable_scheduler_exits_2_in_bounded_time(capsys, monkeypatch):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 2)
    address = f"tcp://127.0.0.1:{free_port()}"     # nobody listens there
    code, out, err = run(capsys, "simulate", "--game", "struggle", "--scenario", "4",
                         "--games", "2", "--seed", "1", "--cluster", address)
    assert code == 2 and out == ""
    assert f"cannot reach the Dask scheduler at {address}" in one_error_line(err)


def test_a_scheduler_that_goes_away_mid_run_exits_2(capsys, monkeypatch, one_worker):
    monkeypatch.setattr(cluster, "CONNECT_TIMEOUT", 3)
    monkeypatch.setattr(cluster, "LOST_SCHEDULER_TIMEOUT", 3)
    one_worker.add_workers(1)

    def kill_when_busy() -> None:
        with one_worker.client() as client:
            for _ in range(600):
                if any(client.processing().values()):
                    break
                time.sleep(0.05)
        one_worker.process.kill()

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    code, out, err = run(capsys, "simulate", "--game", "struggle", "--scenario", "4",
                         "--games", "100000", "--seed", "1", "--cluster", one_worker.address)
    killer.join()
    assert code == 2 and out == ""
    assert f"lost the Dask scheduler at {one_worker.address}" in one_error_line(err)


# ------------------------------------------------------------------------------ Ctrl+C, progress
def test_ctrl_c_cancels_the_chunks_and_leaves_no_work_running(three_workers):
    command = [sys.executable, "-m", "struggle_desktop", "simulate", "--game", "struggle",
               "--scenario", "4", "--games", "100000", "--seed", "1",
               "--cluster", three_workers.address]
    with three_workers.client() as client:
        program = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True)
        for _ in range(600):
            if any(client.processing().values()):
                break
            time.sleep(0.05)
        else:
            program.kill()
            pytest.fail("the run never reached the workers")
        program.send_signal(signal.SIGINT)
        out, err = program.communicate(timeout=60)
        assert program.returncode == 130 and err.strip() == "interrupted", err
        left = None
        for _ in range(100):      # the scheduler forgets the chunks; the workers go idle
            left = (client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks)),
                    sum(client.run(lambda dask_worker: len(dask_worker.state.executing))
                        .values()))
            if left == (0, 0):
                break
            time.sleep(0.1)
        assert left == (0, 0)


def test_ctrl_c_on_a_local_cluster_stops_its_worker_processes():
    psutil = pytest.importorskip("psutil")
    command = [sys.executable, "-m", "struggle_desktop", "simulate", "--game", "struggle",
               "--scenario", "4", "--games", "100000", "--seed", "1", "--cluster", "local:2"]
    program = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True)
    children: list = []
    for _ in range(600):      # the two workers are up and playing
        children = psutil.Process(program.pid).children(recursive=True)
        if sum(child.cpu_times().user > 0.5 for child in children) >= 2:
            break
        time.sleep(0.05)
    program.send_signal(signal.SIGINT)
    out, err = program.communicate(timeout=60)
    assert program.returncode == 130 and err.strip() == "interrupted", err
    gone, alive = psutil.wait_procs(children, timeout=10)
    assert len(children) >= 2 and alive == []


def test_progress_line_shows_games_rate_and_time_left():
    stream = io.StringIO()
    bar = cli.ProgressBar(stream)
    bar.started -= 2.0            # as if the run began two seconds ago
    bar(10, 40)
    line = stream.getvalue()
    assert "10/40" in line and "games/s" in line and "6 s left" in line, line


def test_cluster_progress_counts_every_game():
    seen = []
    simulate("struggle", "4", 6, 1, cluster="local:2",
             progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (0, 6) and seen[-1] == (6, 6) and seen == sorted(seen)


# ------------------------------------------------------------------------------ without Dask
HIDE_DASK = textwrap.dedent("""
    import importlib.abc, json, sys

    class HideDask(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("dask", "distributed"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, HideDask())
    from struggle_desktop import cli
    plain = cli.main(["simulate", "--game", "struggle", "--scenario", "4", "--games", "2",
                      "--seed", "1", "--jobs", "2"])
    imported = sorted(m for m in sys.modules if m.split(".")[0] in ("dask", "distributed"))
    asked = cli.main(["simulate", "--game", "struggle", "--scenario", "4", "--games", "2",
                      "--seed", "1", "--cluster", "local:2"])
    print(json.dumps({"plain": plain, "asked": asked, "imported": imported}))
""")


def test_without_the_extra_nothing_imports_dask_and_cluster_says_how_to_install():
    done = subprocess.run([sys.executable, "-c", HIDE_DASK], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {"plain": 0, "asked": 2, "imported": []}, done.stderr
    line = one_error_line(done.stderr)
    assert 'pip install "struggle-desktop[cluster]"' in line


def test_a_chunk_from_another_program_version_is_refused():
    """A worker that joins mid-run is checked chunk by chunk: a chunk whose fingerprint names
    another program version is refused before any game of it is played."""
    from struggle_desktop.games import get_game

    expected = dict(cluster.fingerprint(get_game("struggle"), {}), program="0.0.0-other")
    played = []
    words = f"program version {cluster.__version__} there, 0.0.0-other here"
    with pytest.raises(cluster.WorkerMismatch, match=re.escape(words)):
        cluster.run_chunk(expected, {}, played.append, (), [0, 1])
    assert played == []
    assert cluster.run_chunk(dict(expected, program=cluster.__version__), {}, played.append,
                             (), [0, 1]) == [None, None] and played == [0, 1]


def test_a_scheduler_left_without_workers_mid_run_exits_2(capsys, monkeypatch, one_worker):
    monkeypatch.setattr(cluster, "WORKER_TIMEOUT", 2)
    monkeypatch.setattr(cluster, "WORKER_CHECK", 0.5)
    one_worker.add_workers(1)

    def kill_when_busy() -> None:
        with one_worker.client() as client:
            for _ in range(600):
                if any(client.processing().values()):
                    break
                time.sleep(0.05)
        one_worker.workers[0].kill()

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    code, out, err = run(capsys, "simulate", "--game", "struggle", "--scenario", "4",
                         "--games", "100000", "--seed", "1", "--cluster", one_worker.address)
    killer.join()
    assert code == 2 and out == ""
    assert "has had no worker for 2 s" in one_error_line(err)
