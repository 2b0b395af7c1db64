"""Files that cannot hurt: a short run of the save-file fuzzer (tools/fuzz_saves.py).

About 40 mutated saves of the four games (fixed seed, every mutation kind) and one file of
every hand-made hostile class go through ``python -m struggle_desktop verify`` (and
``render`` for the hostile ones and every twentieth), each in its own bounded process, and
through the same checks as the long run: exit codes of the contract (and the one right
code where only one is right), one short ``error:`` line on exit 2, no traceback, bounded
output, time and memory, the file unchanged, no path named in a save opened or printed, no
payload run. The checks themselves are tested first on made-up runs, so a green run means
the program passed them and not that they looked at nothing.

The long run: ``python tools/fuzz_saves.py --files 10000 --jobs 2``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import tools.fuzz_saves as fuzz  # noqa: E402

SEED = 2024
MUTATED_FILES = 40
#: Far above the ~1 s a real run takes, and short enough that a hanging build fails fast.
TIMEOUT = 15.0


def report_text(records: list[dict]) -> str:
    lines = []
    for r in records:
        lines.append(f"{r['case']} {r['kind']} ({r['game']}/{r['base']}): {r['detail'][:150]}")
        lines += [f"    {p['command'] or 'file'}: {p['text']}" for p in r["problems"]]
        lines += [f"    $ {e['command']} -> {e['outcome']}: stderr {e['stderr'][:300]!r}"
                  for e in r["excerpts"]]
    return "\n".join(lines)


@pytest.fixture(scope="module")
def fuzz_run(tmp_path_factory):
    """One run of everything (two jobs in parallel); the tests below read its records."""
    work = tmp_path_factory.mktemp("save-fuzz")
    summary, records = fuzz.run_fuzz(MUTATED_FILES, seed=SEED, jobs=2, work_dir=work,
                                     keep="failing", limits=fuzz.Limits(timeout=TIMEOUT))
    return summary, {r["case"]: r for r in records}


# ------------------------------------------------------------------- the checks themselves
def run(command="verify", exit=2, stdout=b"", stderr=b"error: x.json is not a save file\n",
        **extra) -> fuzz.RunResult:
    fields = dict(command=command, argv=[], exit=exit, signal=None, timed_out=False,
                  seconds=0.3, peak_rss_kb=40_000, stdout=stdout, stderr=stderr,
                  stdout_size=len(stdout), stderr_size=len(stderr))
    fields.update(extra)
    return fuzz.RunResult(**fields)


def classes(result: fuzz.RunResult, **kwargs) -> set[str]:
    return {p.cls for p in fuzz.check_run(result, **kwargs)}


def test_the_checks_pass_runs_that_keep_the_contract():
    assert classes(run()) == set()
    assert classes(run(exit=0, stdout=b"x.json: ok (...)\n", stderr=b"")) == set()
    json_run = run(command="verify --json", exit=1, stdout=b'{"ok": false}', stderr=b"")
    assert classes(json_run) == set()
    png = b"\x89PNG\r\n\x1a\n" + b"\0" * 8
    assert classes(run(command="render", exit=0, stdout=b"out.png\n", stderr=b"", png=png)) == set()


@pytest.mark.parametrize("result, kwargs, expected", [
    (run(exit=3), {}, "exit-code"),
    (run(command="render", exit=1, stderr=b""), {}, "exit-code"),
    (run(exit=0, stderr=b""), {"expect": (1, 2)}, "wrong-outcome"),
    (run(stderr=b"error: one\nerror: two\n"), {}, "error-line"),
    (run(stderr=b"warning: x\n"), {}, "error-line"),
    (run(stderr=b""), {}, "error-line"),
    (run(stderr=b"error: " + b"G" * 500 + b"\n"), {}, "error-line-long"),
    (run(stderr=b"Traceback (most recent call last):\n  File x\nRecursionError: deep\n"), {},
     "traceback"),
    (run(exit=1, stderr=b"MemoryError\n"), {}, "memory"),
    (run(peak_rss_kb=3 * 1024 * 1024), {"limits": fuzz.Limits(memory_mb=2048)}, "memory"),
    (run(exit=None, timed_out=True, stderr=b""), {}, "hang"),
    (run(exit=None, signal=11, stderr=b""), {}, "crash"),
    (run(exit=1, stdout=b"x" * 5000, stderr=b""), {}, "output-size"),
    (run(stderr=b"error: cannot use root:x:0:0:root\n"), {"secrets": {"root:x:0:0": "passwd"}},
     "secret-printed"),
    (run(command="verify --json", exit=0, stdout=b'{"ok": false}', stderr=b""), {},
     "json-output"),
    (run(command="verify --json", exit=1, stdout=b"not json", stderr=b""), {}, "json-output"),
    (run(command="render", exit=0, stdout=b"out.png\n", stderr=b"", png=None), {},
     "render-output"),
])
def test_the_checks_catch_each_kind_of_breach(result, kwargs, expected):
    assert expected in classes(result, **kwargs)


def test_a_huge_error_line_counts_as_long_even_when_only_its_ends_were_kept():
    cut = run(stderr=b"error: " + b"G" * 100, stderr_size=50_000_000, stderr_lines=1)
    assert classes(cut) >= {"error-line-long", "output-size"}


def test_the_harness_bounds_time_and_sees_opened_bait_files(tmp_path):
    """The spawner kills a run at its time bound; the watcher sees a child open a file in a
    bait folder (where inotify exists) and nothing when it only lists the folder."""
    spawner, watcher = fuzz.Spawner(), fuzz.OpenWatcher()
    try:
        common = dict(env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")}, cwd=tmp_path,
                      stdout=tmp_path / "out", stderr=tmp_path / "err",
                      memory_bytes=512 * fuzz.MB)
        slow = spawner.run(argv=[sys.executable, "-c", "import time; time.sleep(30)"],
                           timeout=0.5, **common)
        assert slow["timed_out"] and slow["seconds"] < 5
        bait = tmp_path / "bait"
        bait.mkdir()
        (bait / "context.yaml").write_text("secret")
        if watcher.available:
            wd = watcher.watch(bait, "case")
            listed = spawner.run(argv=[sys.executable, "-c",
                                       f"import os; os.listdir({str(bait)!r})"],
                                 timeout=10, **common)
            assert listed["exit"] == 0 and watcher.take("case") == set()
            read = spawner.run(argv=[sys.executable, "-c",
                                     f"open({str(bait / 'context.yaml')!r}).read()"],
                               timeout=10, **common)
            assert read["exit"] == 0 and watcher.take("case") == {"context.yaml"}
            watcher.unwatch(wd)
        hog = spawner.run(argv=[sys.executable, "-c", "x = bytearray(1024 ** 3)"],
                          timeout=10, **common)
        assert hog["exit"] == 1 and b"MemoryError" in (tmp_path / "err").read_bytes()
    finally:
        spawner.close()
        watcher.close()


# --------------------------------------------------------------------------- the short run
def test_the_run_covers_every_kind_and_game(fuzz_run):
    summary, records = fuzz_run
    assert set(fuzz.MUTATION_KINDS) <= set(summary["kinds"]), summary["kinds"]
    assert {f"hostile:{name}" for name in fuzz.HOSTILE} <= set(summary["kinds"])
    assert {r["game"] for r in records.values() if not r["kind"].startswith("hostile")} \
        == set(fuzz.GAMES)
    assert all(summary["bases"][game] for game in fuzz.GAMES), summary["base_notes"]
    commands = [run["command"] for r in records.values() for run in r["runs"]]
    assert commands.count("render") >= len(fuzz.HOSTILE) + 2
    assert "verify --json" in commands
    assert not [r for r in records.values()
                if any(p["cls"] == "fuzzer-error" for p in r["problems"])]


def test_mutated_saves_cannot_hurt(fuzz_run):
    _, records = fuzz_run
    broken = [r for r in records.values() if r["problems"] and not r["kind"].startswith("hostile")]
    assert not broken, "\n" + report_text(broken)


@pytest.mark.parametrize("name", list(fuzz.HOSTILE))
def test_hostile_file_cannot_hurt(fuzz_run, name):
    _, records = fuzz_run
    record = records[f"h-{name}"]
    assert [run["command"] for run in record["runs"]][-1] == "render"
    assert not record["problems"], "\n" + report_text([record])
