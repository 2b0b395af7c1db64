#!/usr/bin/env python3
"""Save-file fuzzer: files that cannot hurt (the command line's contract on hostile saves).

    python tools/fuzz_saves.py                          # 10,000 mutated saves + hostile files
    python tools/fuzz_saves.py --files 300 --jobs 2     # a medium run
    python tools/fuzz_saves.py --files 2000 --out DIR   # keep the report and failing files
    python tools/fuzz_saves.py --json                   # the summary as one JSON object

Every file is made from a real save of one of the four games (the golden saves under
tests/games/*/golden/, and saves the engine plays for a game that has none) by one mutation
kind (``MUTATION_KINDS``), plus one hand-made file of every hostile class (``HOSTILE``). Each
file is given to ``python -m struggle_desktop verify FILE`` (every third with ``--json``),
every twentieth and every hostile file also to ``render FILE --out X.png``, each run in its
own process with a wall-time bound, an address-space bound (RLIMIT_AS) and a bound on what
it may write. ``check_run`` and ``Fuzzer.run_case`` then check the contract:

* the exit code is 0, 1 or 2 for verify (0 or 2 for render), and the one a file of that
  kind must give where there is only one right answer (a flipped digest gives 1, a file
  that is not JSON gives 2, ...);
* exit 2 prints exactly one stderr line, starting ``error:``, of at most 400 characters;
* no ``Traceback``, no ``MemoryError``, no killing signal, no time-out ("hang");
* all output under 4 KB (20 KB for ``verify --json``, whose stdout is one JSON object with
  ``ok`` true exactly on exit 0);
* the save file is byte for byte unchanged, its mode too, and nothing appears beside it;
* no path named inside a save is read: Freedom saves whose ``options.context`` names a
  file get bait files in a watched folder (Linux inotify reports any open), and the text of
  /etc/passwd, of the bait files or of the child's environment never appears in the output;
* no YAML or pickle payload runs (its command would create a marker file and print a
  phrase that only a shell can compute).

The summary lists the files per kind, the outcomes per kind, every failure grouped into
classes (with one example each), the slowest runs and the largest peak memory (measured with
``os.wait4``; children are forked by a small helper process, so the figure is the child's
own and not the fuzzer's memory copied at fork). Exit code 1 if any check failed.

The program is always run with private user folders (STRUGGLE_DESKTOP_HOME, HOME and the
XDG folders point into the work folder); the real user folders are never touched.
tests/test_save_fuzz.py runs a short version of the same checks.
"""

from __future__ import annotations

import argparse
import ctypes
import hashlib
import json
import os
import pickle
import queue
import random
import shutil
import signal
import stat
import struct
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
SAVE_FORMAT = "struggle-desktop-save"
GAMES = ("struggle", "battles", "nobles", "freedom")

DEFAULT_FILES = 10_000
DEFAULT_JOBS = 2
DEFAULT_SEED = 1
DEFAULT_TIMEOUT = 20.0          # seconds of wall time per program run
DEFAULT_MEMORY_MB = 2048        # RLIMIT_AS of every program run
RENDER_EVERY = 20               # every 20th mutated file is also rendered
JSON_EVERY = 3                  # every 3rd mutated file is verified with --json
MAX_ERROR_LINE = 400            # characters in the one ``error:`` line
MAX_OUTPUT = 4 * 1024           # bytes of stdout + stderr
MAX_JSON_OUTPUT = 20 * 1024     # bytes of stdout + stderr of ``verify --json``
MAX_CHILD_WRITE = 128 * 1024 * 1024     # RLIMIT_FSIZE: what a run may write into one file
CAPTURE = 64 * 1024             # bytes kept from each end of a run's stdout and stderr
BIG_STRING_SHARE = 0.02         # share of huge strings at 50 MB (the others are 1-4 MB)
MB = 1024 * 1024

MUTATION_KINDS = ("byte_flip", "truncate", "type_swap", "huge_number", "huge_string",
                  "deep_nesting", "non_utf8", "yaml_payload", "pickle_payload",
                  "format_version", "illegal_action", "wrong_digest", "context_path")

#: What a child sees as its program: the working tree, never an installed copy.
PROGRAM = [sys.executable, "-m", "struggle_desktop"]

#: Freedom has no golden saves: the engine plays these (scenario, context taken from the
#: scenario named, seed); custom with a context document is what context_path mutates.
ENGINE_SAVES: dict[str, list[tuple[str, str | None, int]]] = {
    "freedom": [("custom", "a2", 1), ("custom", "a5", 2), ("custom", None, 3), ("a1", None, 4),
                ("b1", None, 5), ("c1", None, 6), ("random", None, 7)],
}
ENGINE_SAVE_ACTIONS = 400       # at most this many actions in an engine-made save


# =============================================================================== results
@dataclass
class Problem:
    """One broken check. ``cls`` groups problems into failure classes."""
    cls: str
    text: str
    command: str = ""

    @property
    def signature(self) -> str:
        """What makes two problems "the same failure" in the summary."""
        if self.cls == "traceback":
            return f"{self.cls}: {self.text.split(': ', 1)[-1].split(':')[0]}"
        if self.cls == "memory":
            return f"{self.cls}: {self.text.split(':')[0].split(' ')[0]}"
        if self.cls in ("wrong-outcome", "error-line", "exit-code", "crash"):
            return f"{self.cls}: {self.text}"
        return self.cls


@dataclass
class RunResult:
    """One program run, as the spawner saw it."""
    command: str
    argv: list[str]
    exit: int | None
    signal: int | None
    timed_out: bool
    seconds: float
    peak_rss_kb: int
    stdout: bytes = b""             # the first CAPTURE bytes (and the last, if longer)
    stderr: bytes = b""
    stdout_size: int = 0
    stderr_size: int = 0
    png: bytes | None = None        # render: the first bytes of the picture, if any
    stderr_lines: int | None = None     # lines in the whole of stderr (None: count the capture)

    def outcome(self) -> str:
        if self.timed_out:
            return "hang"
        if self.signal is not None:
            return f"signal {signal_name(self.signal)}"
        return f"exit {self.exit}"

    def excerpt(self, limit: int = 300) -> dict:
        def cut(data: bytes, size: int) -> str:
            text = data.decode("utf-8", "replace")
            return text if len(text) <= limit else text[:limit] + f"... [{size} bytes in all]"
        return {"command": self.command, "outcome": self.outcome(),
                "seconds": round(self.seconds, 3), "peak_rss_mb": round(self.peak_rss_kb / 1024, 1),
                "stdout": cut(self.stdout, self.stdout_size),
                "stderr": cut(self.stderr, self.stderr_size)}


@dataclass
class Limits:
    timeout: float = DEFAULT_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    max_error_line: int = MAX_ERROR_LINE
    max_output: int = MAX_OUTPUT
    max_json_output: int = MAX_JSON_OUTPUT


@dataclass
class Case:
    """One file given to the program, and what is known about the right answer."""
    ident: str
    kind: str                       # a mutation kind, or "hostile:<class>"
    game: str | None
    base: str | None                # the real save it was made from
    detail: str                     # what was done to it
    path: Path                      # the file given to the program
    folder: Path                    # the case's own folder (nothing else may appear in it)
    expect: tuple[int, ...] | None = None     # the only right verify exit codes, if known
    render: bool = False
    json_output: bool = False
    cwd: Path | None = None         # the child's working folder (bait folder for contexts)
    home: Path | None = None        # the child's HOME (bait folder for "~/..." contexts)
    bait: Path | None = None        # a watched folder whose files must never be opened
    marker_dir: Path | None = None  # a payload that ran would create a file here
    secrets: dict[str, str] = field(default_factory=dict)   # text -> where it comes from


# ============================================================================== checks
def signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return str(number)


def check_run(run: RunResult, *, expect: tuple[int, ...] | None = None,
              secrets: dict[str, str] | None = None, limits: Limits | None = None
              ) -> list[Problem]:
    """Every contract check on one program run (the file-level checks are in run_case)."""
    limits = limits or Limits()
    problems: list[Problem] = []

    def problem(cls: str, text: str) -> None:
        problems.append(Problem(cls, text, run.command))

    out = run.stdout.decode("utf-8", "replace")
    err = run.stderr.decode("utf-8", "replace")
    both = out + "\n" + err
    printed: dict[str, str] = {}
    for text, where in (secrets or {}).items():
        if text and text in both:
            printed.setdefault(where, text)
    for where, text in printed.items():
        problem("secret-printed", f"printed text of {where} ({text!r})")
    if "Traceback (most recent call last)" in both:
        last = [line for line in err.strip().splitlines() if line.strip()]
        problem("traceback", f"traceback: {last[-1].strip()[:200] if last else '?'}")
    if "MemoryError" in both:
        problem("memory", "MemoryError: the run hit the memory bound")
    if run.peak_rss_kb > limits.memory_mb * 1024:
        problem("memory", f"peak memory {run.peak_rss_kb // 1024} MB over the bound")
    if run.timed_out:
        problem("hang", f"still running after {limits.timeout:g} s, killed")
        return problems
    if run.signal is not None:
        problem("crash", f"killed by {signal_name(run.signal)}")
        return problems
    allowed = (0, 2) if run.command == "render" else (0, 1, 2)
    if run.exit not in allowed:
        problem("exit-code", f"exit code {run.exit} (the contract allows {allowed})")
    elif expect is not None and run.exit not in expect:
        problem("wrong-outcome", f"exit {run.exit}, but a file like this must give "
                                 f"{' or '.join(map(str, expect))}")
    cap = limits.max_json_output if run.command == "verify --json" else limits.max_output
    if run.stdout_size + run.stderr_size > cap:
        problem("output-size", f"printed {run.stdout_size + run.stderr_size} bytes "
                               f"(limit {cap})")
    if run.exit == 2:
        lines = err[:-1].split("\n") if err.endswith("\n") else err.split("\n")
        count = len(lines) if run.stderr_lines is None else run.stderr_lines
        if not err.strip():
            count = 0
        if count != 1:
            problem("error-line", f"exit 2 with {count} stderr lines, not one")
        if not lines[0].startswith("error:"):
            problem("error-line", "exit 2 and stderr does not start with 'error:'")
        cut = run.stderr_size > len(run.stderr)
        longest = max(len(line) for line in lines)
        if cut or longest > limits.max_error_line:
            size = f"{run.stderr_size} bytes of" if cut else f"{longest} characters in"
            problem("error-line-long", f"{size} an error line (limit "
                                       f"{limits.max_error_line} characters)")
    if run.command == "verify --json" and run.exit in (0, 1):
        try:
            report = json.loads(out)
            good = isinstance(report, dict) and report.get("ok") is (run.exit == 0)
        except ValueError:
            good = False
        if not good:
            problem("json-output", f"exit {run.exit}, but stdout is not one JSON object with "
                                   f"ok={'true' if run.exit == 0 else 'false'}")
    if run.command == "render" and run.exit == 0 and not (run.png or b"").startswith(
            b"\x89PNG\r\n\x1a\n"):
        problem("render-output", "exit 0 but no PNG picture was written")
    return problems


def fingerprint(path: Path) -> dict:
    """What must not change about a file given to the program (never opens a FIFO)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return {"missing": True}
    info: dict[str, Any] = {"mode": oct(st.st_mode)}
    if stat.S_ISLNK(st.st_mode):
        info["target"] = os.readlink(path)
    elif stat.S_ISREG(st.st_mode):
        info["size"] = st.st_size
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(MB), b""):
                digest.update(block)
        info["sha256"] = digest.hexdigest()
    elif stat.S_ISDIR(st.st_mode):
        info["entries"] = sorted(os.listdir(path))
    return info


def listing(folder: Path) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


# ====================================================================== opens of bait files
class OpenWatcher:
    """Reports files opened inside watched folders, through Linux inotify (via ctypes).

    A bait folder belongs to one case, so an open of one of its files is that case's
    program reading a path named inside its save. Where inotify is missing this is a no-op
    (``available`` is False) and only the output checks catch such a read."""

    IN_ACCESS, IN_OPEN, IN_Q_OVERFLOW = 0x1, 0x20, 0x4000
    HEADER = struct.Struct("iIII")

    def __init__(self) -> None:
        self.fd = -1
        self.lock = threading.Lock()
        self.owner: dict[int, str] = {}
        self.opened: dict[str, set[str]] = defaultdict(set)
        self.overflowed = False
        try:
            self.libc = ctypes.CDLL(None, use_errno=True)
            self.fd = self.libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        except (OSError, AttributeError):
            self.fd = -1

    @property
    def available(self) -> bool:
        return self.fd >= 0

    def watch(self, folder: Path, owner: str) -> int:
        if not self.available:
            return -1
        with self.lock:
            wd = self.libc.inotify_add_watch(self.fd, os.fsencode(folder),
                                             self.IN_OPEN | self.IN_ACCESS)
            if wd >= 0:
                self.owner[wd] = owner
            return wd

    def unwatch(self, wd: int) -> None:
        if self.available and wd >= 0:
            with self.lock:
                self._drain()
                self.libc.inotify_rm_watch(self.fd, wd)
                self.owner.pop(wd, None)

    def _drain(self) -> None:
        while True:
            try:
                data = os.read(self.fd, 64 * 1024)
            except BlockingIOError:
                return
            offset = 0
            while offset + self.HEADER.size <= len(data):
                wd, mask, _cookie, length = self.HEADER.unpack_from(data, offset)
                name = data[offset + self.HEADER.size: offset + self.HEADER.size + length]
                offset += self.HEADER.size + length
                if mask & self.IN_Q_OVERFLOW:
                    self.overflowed = True
                name = name.rstrip(b"\0").decode("utf-8", "replace")
                # Nameless events are the folder itself (a child listing its working folder).
                if name and wd in self.owner:
                    self.opened[self.owner[wd]].add(name)

    def take(self, owner: str) -> set[str]:
        """The names opened for ``owner`` since it was watched (forgotten afterwards)."""
        if not self.available:
            return set()
        with self.lock:
            self._drain()
            return self.opened.pop(owner, set())

    def close(self) -> None:
        if self.available:
            os.close(self.fd)
            self.fd = -1


# ============================================================================ the spawner
#: A small helper process that forks and runs the program. Forking from it (a bare Python of
#: ~10 MB) instead of from the fuzzer keeps the fuzzer's memory out of the child's peak RSS
#: (Linux counts the pages a child inherits at fork), and as a single-threaded process it can
#: set the child's limits between fork and exec safely.
SPAWNER_SOURCE = r'''
import json, os, resource, signal, sys, time

def spawn(req):
    out = os.open(req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    err = os.open(req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    start = time.monotonic()
    pid = os.fork()
    if pid == 0:
        try:
            os.setsid()           # its own process group: a time-out kills all of it
            resource.setrlimit(resource.RLIMIT_AS, (req["memory"], req["memory"]))
            resource.setrlimit(resource.RLIMIT_FSIZE, (req["fsize"], req["fsize"]))
            resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            os.dup2(out, 1)
            os.dup2(err, 2)
            os.chdir(req["cwd"])
            os.execve(req["argv"][0], req["argv"], req["env"])
        finally:
            os._exit(127)
    os.close(out)
    os.close(err)
    deadline = start + req["timeout"]
    delay, timed_out = 0.002, False
    while True:
        got, status, usage = os.wait4(pid, os.WNOHANG)
        if got:
            break
        now = time.monotonic()
        if now >= deadline:
            timed_out = True
            try:
                os.killpg(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            got, status, usage = os.wait4(pid, 0)
            break
        time.sleep(min(delay, deadline - now))
        delay = min(delay * 2, 0.02)
    seconds = time.monotonic() - start
    try:                          # whatever the run left behind in its group
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    return {"exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
            "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
            "timed_out": timed_out, "seconds": seconds, "maxrss_kb": usage.ru_maxrss}

for line in sys.stdin:
    print(json.dumps(spawn(json.loads(line))), flush=True)
'''


class Spawner:
    """One spawner process (see SPAWNER_SOURCE); one per job."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-I", "-c", SPAWNER_SOURCE],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                     bufsize=1)

    def run(self, *, argv: list[str], env: dict, cwd: Path, stdout: Path, stderr: Path,
            timeout: float, memory_bytes: int) -> dict:
        request = {"argv": argv, "env": env, "cwd": str(cwd), "stdout": str(stdout),
                   "stderr": str(stderr), "timeout": timeout, "memory": memory_bytes,
                   "fsize": MAX_CHILD_WRITE}
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(request) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError("the spawner process died")
        return json.loads(line)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def read_ends(path: Path) -> tuple[bytes, int]:
    """The first and last CAPTURE bytes of an output file, and its size."""
    try:
        size = path.stat().st_size
        with open(path, "rb") as handle:
            head = handle.read(CAPTURE)
            if size > 2 * CAPTURE:
                handle.seek(size - CAPTURE)
                return head + b"\n[...]\n" + handle.read(CAPTURE), size
            return head + handle.read(), size
    except OSError:
        return b"", 0


def count_lines(path: Path) -> int:
    """Lines in a whole output file (a last line without a newline counts too)."""
    lines, last = 0, b"\n"
    try:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(MB), b""):
                lines += block.count(b"\n")
                last = block[-1:]
    except OSError:
        return 0
    return lines + (last != b"\n")


# ============================================================================ base saves
@dataclass
class BaseSave:
    game: str
    name: str
    raw: bytes

    def document(self) -> dict:
        return json.loads(self.raw)


def golden_saves() -> dict[str, list[BaseSave]]:
    bases: dict[str, list[BaseSave]] = {game: [] for game in GAMES}
    for path in sorted(ROOT.glob("tests/games/*/golden/*.json")):
        raw = path.read_bytes()
        try:
            document = json.loads(raw)
        except ValueError:
            continue
        if isinstance(document, dict) and document.get("format") == SAVE_FORMAT \
                and document.get("game") in bases:
            bases[document["game"]].append(BaseSave(document["game"], path.name, raw))
    return bases


def make_engine_saves(out_dir: Path, game_id: str, program_root: Path = ROOT) -> None:
    """Play and save the ENGINE_SAVES of ``game_id`` (else two scenarios) into ``out_dir``.
    Runs in a child process with private user folders (see Fuzzer.engine_saves)."""
    sys.path.insert(0, str(program_root))
    from struggle_desktop.engine.rng import Rng
    from struggle_desktop.engine.session import Session
    from struggle_desktop.games import get_game

    game = get_game(game_id)
    specs = ENGINE_SAVES.get(game_id) or [
        (s["id"], None, k) for k, s in enumerate(game.scenarios()[:2], start=1)]
    out_dir.mkdir(parents=True, exist_ok=True)
    for scenario, context_from, seed in specs:
        options: dict = {}
        try:
            if context_from:
                options["context"] = json.loads(json.dumps(
                    game.data.scenarios[context_from]["context"]))
            session = Session.new(game, scenario, seed, options)
            rng = Rng.from_seed(seed)
            while (game.outcome(session.state) is None
                   and len(session.actions) < ENGINE_SAVE_ACTIONS):
                role = session.state["pending"]["role"]
                session.perform(role, game.choose_action(session.state, role, "bot", rng),
                                copy=False)
            name = f"{game_id}-{scenario}-{context_from or 'plain'}-seed{seed}.json"
            session.save(out_dir / name)
        except Exception as exc:  # noqa: BLE001 - one scenario that cannot be made is skipped
            print(f"skipped {game_id} {scenario}: {type(exc).__name__}: {exc}", file=sys.stderr)


# ========================================================================= JSON surgery
RAW = "@@fuzz-raw@@"            # a value replaced by raw JSON text after serialisation


def dumps(document: Any) -> bytes:
    return json.dumps(document, separators=(",", ":"), sort_keys=True).encode()


def dumps_raw(document: Any, raw: bytes) -> bytes:
    """``document`` as JSON with the one RAW string (a key or a value) replaced by ``raw``."""
    text = dumps(document)
    token = json.dumps(RAW).encode()
    assert text.count(token) == 1, "the raw marker must be placed exactly once"
    before, after = text.split(token)
    return before + raw + after


def get_at(document: Any, path: list) -> Any:
    for step in path:
        document = document[step]
    return document


def set_at(document: Any, path: list, value: Any) -> Any:
    if not path:
        return value
    get_at(document, path[:-1])[path[-1]] = value
    return document


def walk(document: Any, path: list, rng: random.Random, stop: float) -> list:
    """From ``path`` go down into random children until a leaf or a random stop."""
    node = get_at(document, path)
    while isinstance(node, (dict, list)) and node and rng.random() > stop:
        key = rng.choice(sorted(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path = path + [key]
        node = node[key]
    return path


def pick_path(document: dict, rng: random.Random) -> list:
    """A random field: a top-level one, or one inside options, an action, a digest entry
    or the snapshot."""
    area = rng.choices(["top", "options", "action", "digests", "snapshot"],
                       weights=[30, 10, 25, 10, 25])[0]
    if area == "options" and isinstance(document.get("options"), dict):
        return walk(document, ["options"], rng, 0.5)
    if area == "action" and isinstance(document.get("actions"), list) and document["actions"]:
        return walk(document, ["actions", rng.randrange(len(document["actions"]))], rng, 0.3)
    if area == "digests" and isinstance(document.get("digests"), list) and document["digests"]:
        return walk(document, ["digests", rng.randrange(len(document["digests"]))], rng, 0.3)
    if area == "snapshot" and isinstance(document.get("snapshot"), dict):
        return walk(document, ["snapshot"], rng, 0.25)
    return [rng.choice(sorted(document))]


def describe(path: list) -> str:
    return "/".join(str(step) for step in path) or "(the whole document)"


def type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    return {str: "string", list: "list", dict: "object"}[type(value)]


SWAP_VALUES = ["fuzz", "", 0, -1, 7, 3.25, [], ["fuzz", 1], {}, {"fuzz": 1}, None, True, False]

HUGE_NUMBERS = ["1" + "0" * 5000, "-" + "9" * 5000, "123456789" * 400, "1e400", "-1e400",
                "1e-400", "-0", "-0.0", "NaN", "Infinity", "-Infinity",
                "18446744073709551616", "-9223372036854775809", "1" + "0" * 100000]

#: Repeated to make a huge string: plain letters, lines, non-ASCII, escapes and NULs.
STRING_UNITS = ["A", "line\n", "\u00e9\u4e2d\U0001F600", "\\\"'{}[]", "\x00", "\x1b[31m"]

FORMAT_VERSIONS = [0, -1, 2, 999, "1", 1.5, None, 10 ** 20]

INVALID_UTF8 = [b"\xff", b"\xfe", b"\x80", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80",
                b"\xe9"]

UNIT_KEYS = ("unit", "fleet", "firer", "actor", "ship", "leader", "army", "noble", "nuke",
             "chit", "card")
PLACE_KEYS = ("to", "from", "at", "region", "sector", "world", "target")

#: The files of a bait folder (Fuzzer.bait_folder); an open of any of them is a read of a
#: path named inside a save (other names, such as a font cache under HOME, are not).
BAIT_FILES = ("context.yaml", "fifo", ".bashrc", "passwd")

CONTEXT_PATHS = ["/etc/passwd", "~/.bashrc", "/dev/zero", "{bait}/fifo", "{bait}/context.yaml",
                 "context.yaml", "/proc/self/environ", "{bait}/passwd"]

BILLION_LAUGHS = "\n".join(
    [f'a: &a [{", ".join(["lol"] * 9)}]']
    + [f"{name}: &{name} [{', '.join(['*' + prev] * 9)}]"
       for prev, name in zip("abcdefgh", "bcdefghi")]) + "\n"


class ShellCommand:
    """Pickles to a call of os.system: the classic hostile pickle. Only ever dumped here,
    never loaded."""

    def __init__(self, command: str):
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def nest(levels: int, shape: str) -> bytes:
    if shape == "list":
        return b"[" * levels + b"]" * levels
    return b'{"a":' * levels + b"0" + b"}" * levels


def huge_string_literal(size: int, unit: str) -> bytes:
    """A JSON string literal of about ``size`` bytes: ``unit`` repeated (escaped as JSON)."""
    body = json.dumps(unit)[1:-1].encode()
    return b'"' + body * max(1, size // len(body)) + b'"'


def payload_command(marker_dir: Path, ident: str) -> str:
    # $((6*7)) prints 42 only if a shell runs it: an echo of the file's text shows no "42".
    return f"echo PWNED-$((6*7))-{ident}; touch {marker_dir}/PWNED-{ident}"


# ================================================================================ fuzzer
class Fuzzer:
    """Makes the files, runs the program on them and checks every run."""

    def __init__(self, work: Path, *, seed: int = DEFAULT_SEED, jobs: int = DEFAULT_JOBS,
                 limits: Limits | None = None, keep: str = "none", program_root: Path = ROOT):
        self.work = Path(work)
        self.program_root = Path(program_root)
        self.seed = seed
        self.jobs = max(1, jobs)
        self.limits = limits or Limits()
        self.keep = keep                # "none", "failing" or "all"
        self.watcher = OpenWatcher()
        self.env_canary = f"ENVCANARY{random.Random(seed).getrandbits(64):016x}"
        self.secrets = self._fixed_secrets()
        self.slots: queue.Queue = queue.Queue()
        self.spawners: list[Spawner] = []
        self.bases: dict[str, list[BaseSave]] = {}
        self.custom: list[BaseSave] = []     # Freedom custom saves holding a context document
        self.base_notes: list[str] = []

    # ----------------------------------------------------------------- set-up
    def _fixed_secrets(self) -> dict[str, str]:
        secrets = {self.env_canary: "the child's environment (/proc/self/environ)",
                   "PWNED-42": "a payload's shell command"}
        try:
            for line in Path("/etc/passwd").read_text().splitlines()[:5]:
                fragment = ":".join(line.split(":")[:4])
                if len(fragment) >= 8:
                    secrets[fragment] = "/etc/passwd"
        except OSError:
            pass
        secrets.setdefault("root:x:0:0", "/etc/passwd")
        return secrets

    def child_env(self, slot_dir: Path, home: Path | None = None) -> dict[str, str]:
        home = home or slot_dir / "home"
        return {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "PYTHONPATH": str(self.program_root),
            "PYTHONDONTWRITEBYTECODE": "1",
            "STRUGGLE_DESKTOP_HOME": str(slot_dir / "app"),
            "HOME": str(home),
            "XDG_CONFIG_HOME": str(slot_dir / "xdg" / "config"),
            "XDG_CACHE_HOME": str(slot_dir / "xdg" / "cache"),
            "XDG_DATA_HOME": str(slot_dir / "xdg" / "data"),
            "XDG_RUNTIME_DIR": str(slot_dir / "xdg" / "runtime"),
            "QT_QPA_PLATFORM": "offscreen",
            "FUZZ_ENV_CANARY": self.env_canary,
        }

    def setup(self) -> None:
        for sub in ("cases", "bait", "markers", "bases"):
            (self.work / sub).mkdir(parents=True, exist_ok=True)
        for index in range(self.jobs):
            slot = self.work / "slots" / f"job{index}"
            for sub in ("app", "home", "cwd", "xdg/config", "xdg/cache", "xdg/data", "render",
                        "output"):
                (slot / sub).mkdir(parents=True, exist_ok=True)
            runtime = slot / "xdg" / "runtime"
            runtime.mkdir(parents=True, exist_ok=True)
            runtime.chmod(0o700)        # Qt insists on a private runtime folder
            spawner = Spawner()
            self.spawners.append(spawner)
            self.slots.put((slot, spawner))
        self.bases = golden_saves()
        for game in GAMES:
            if not self.bases[game] or (game == "freedom" and not self.custom_bases()):
                self.bases[game] += self.engine_saves(game)
        self.custom = self.custom_bases()
        missing = [game for game in GAMES if not self.bases[game]]
        if missing:
            raise RuntimeError(f"no real save could be had for {', '.join(missing)}: "
                               + "; ".join(self.base_notes))

    def engine_saves(self, game: str) -> list[BaseSave]:
        """Saves played by the engine itself, in a child with private user folders."""
        out = self.work / "bases" / game
        slot = self.work / "slots" / "job0"
        command = [sys.executable, str(Path(__file__).resolve()), "--make-base-saves",
                   str(out), "--game", game, "--program-root", str(self.program_root)]
        done = subprocess.run(command, env=self.child_env(slot), cwd=slot / "cwd",
                              capture_output=True, text=True, timeout=600)
        if done.returncode != 0 or done.stderr.strip():
            self.base_notes.append(f"{game}: {done.stderr.strip()[-2000:]}")
        return [BaseSave(game, path.name, path.read_bytes()) for path in sorted(out.glob("*.json"))]

    def custom_bases(self) -> list[BaseSave]:
        """Freedom saves of scenario custom that hold a context document."""
        found = []
        for base in self.bases.get("freedom", []):
            document = base.document()
            if document.get("scenario") == "custom" and isinstance(
                    document.get("options", {}).get("context"), dict):
                found.append(base)
        return found

    def close(self) -> None:
        for spawner in self.spawners:
            spawner.close()
        self.watcher.close()

    # ----------------------------------------------------------------- cases
    def new_case(self, ident: str, kind: str, base: BaseSave | None) -> Case:
        folder = self.work / "cases" / ident
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        marker_dir = self.work / "markers" / ident
        marker_dir.mkdir(parents=True, exist_ok=True)
        return Case(ident, kind, base.game if base else None, base.name if base else None, "",
                    folder / "save.json", folder, marker_dir=marker_dir,
                    secrets=dict(self.secrets))

    def mutation_case(self, index: int) -> Case:
        """Mutated file number ``index``: the same seed and index always give the same file."""
        rng = random.Random(f"{self.seed}:{index}")
        kind = MUTATION_KINDS[index % len(MUTATION_KINDS)]
        if kind == "context_path":
            game = "freedom"
            base = rng.choice(self.custom or self.bases["freedom"])
        else:
            game = rng.choice(GAMES)
            base = rng.choice(self.bases[game])
        case = self.new_case(f"m{index:05d}", kind, base)
        case.render = index % RENDER_EVERY == RENDER_EVERY - 1
        case.json_output = index % JSON_EVERY == 1
        data, case.detail, case.expect = MUTATORS[kind](self, case, base.document(), rng)
        case.path.write_bytes(data)
        return case

    def bait_folder(self, case: Case, document: dict) -> Path:
        """A watched folder of bait files for a case whose save names a path: a context
        file (the save's own context, so reading it could even pass), a FIFO, a .bashrc and
        a fake passwd, each holding a canary that must never be printed."""
        bait = self.work / "bait" / case.ident
        if bait.exists():
            shutil.rmtree(bait)
        bait.mkdir(parents=True)
        canary = f"BAIT{random.Random(case.ident + str(self.seed)).getrandbits(64):016x}"
        context = document.get("options", {}).get("context") if isinstance(
            document.get("options"), dict) else None
        body = json.dumps(context if isinstance(context, dict) else {"size": 1})
        (bait / "context.yaml").write_text(f"# {canary}\n{body}\n")
        (bait / ".bashrc").write_text(f"echo {canary}\n")
        (bait / "passwd").write_text(f"root:x:0:0:{canary}:/root:/bin/sh\n")
        os.mkfifo(bait / "fifo")
        case.secrets[canary] = "a bait file named in the save"
        case.bait = case.cwd = case.home = bait
        return bait

    # -------------------------------------------------------------- mutators
    # Each returns (file bytes, what was done, the only right verify exit codes or None).
    def m_byte_flip(self, case, document, rng):
        data = bytearray(dumps(document))
        offsets = sorted(rng.randrange(len(data)) for _ in range(rng.choice([1, 1, 2, 3, 8, 32])))
        for offset in offsets:
            data[offset] ^= rng.randrange(1, 256)
        return bytes(data), f"flipped bytes at offsets {offsets[:8]}", None

    def m_truncate(self, case, document, rng):
        data = dumps(document)
        cut = rng.randrange(len(data))      # any proper prefix of one object is not JSON
        return data[:cut], f"cut to {cut} of {len(data)} bytes", (2,)

    def m_type_swap(self, case, document, rng):
        path = pick_path(document, rng)
        old = get_at(document, path)
        new = rng.choice([v for v in SWAP_VALUES if type_name(v) != type_name(old)])
        set_at(document, path, new)
        return dumps(document), f"{describe(path)}: {type_name(old)} -> {json.dumps(new)}", None

    def m_huge_number(self, case, document, rng):
        token = rng.choice(HUGE_NUMBERS)
        path = rng.choice([["seed"], ["format_version"], pick_path(document, rng)])
        set_at(document, path, RAW)
        shown = token if len(token) < 30 else f"{token[:12]}... ({len(token)} characters)"
        return dumps_raw(document, token.encode()), f"{describe(path)} = {shown}", None

    def m_huge_string(self, case, document, rng):
        size = 50 * MB if rng.random() < BIG_STRING_SHARE else rng.randrange(1 * MB, 4 * MB)
        unit = rng.choice(STRING_UNITS)
        place = rng.choice(["game", "scenario", "app_version", "rules_version", "data_digest",
                            "option key", "option value", "role", "verb", "digest",
                            "snapshot field", "top-level key"])
        actions = document.get("actions") or [{"role": "x", "action": {}}]
        document["actions"] = actions
        k = rng.randrange(len(actions))
        if place == "option key":
            document["options"][RAW] = 1
        elif place == "option value":
            document["options"]["fuzz"] = RAW
        elif place == "role":
            actions[k]["role"] = RAW
        elif place == "verb":
            actions[k]["action"]["verb"] = RAW
        elif place == "digest":
            rng.choice(document["digests"])["digest"] = RAW
        elif place == "snapshot field":
            set_at(document, pick_string_path(document, rng), RAW)
        elif place == "top-level key":
            document[RAW] = 1
        else:
            document[place] = RAW
        data = dumps_raw(document, huge_string_literal(size, unit))
        return data, (f"{place}: a string of {size / MB:.1f} MB of JSON text repeating "
                      f"{unit!r} (file {len(data) / MB:.1f} MB)"), None

    def m_deep_nesting(self, case, document, rng):
        levels = int(10 ** rng.uniform(3, 5))       # 1,000 to 100,000
        shape = rng.choice(["list", "object"])
        place = rng.choice(["options", "option value", "action", "action field", "snapshot",
                            "random field", "top-level key", "whole document"])
        if place == "whole document":
            data = b"[" * levels + dumps(document) + b"]" * levels
            return data, f"the whole document inside {levels} lists", None
        actions = document.get("actions") or [{"role": "x", "action": {}}]
        document["actions"] = actions
        k = rng.randrange(len(actions))
        path = {"options": ["options"], "option value": ["options", "fuzz"],
                "action": ["actions", k, "action"],
                "action field": ["actions", k, "action", "verb"],
                "snapshot": ["snapshot"], "random field": pick_path(document, rng),
                "top-level key": ["fuzz"]}[place]
        document = set_at(document, path, RAW)
        return (dumps_raw(document, nest(levels, shape)),
                f"{describe(path)}: {levels} levels of {shape}s", None)

    def m_non_utf8(self, case, document, rng):
        variant = rng.choice(["invalid bytes", "latin-1 text", "utf-16", "utf-8 bom",
                              "lone surrogate escape", "nul byte"])
        data = dumps(document)
        if variant == "invalid bytes":
            bad = rng.choice(INVALID_UTF8)
            at = rng.randrange(len(data))
            return data[:at] + bad + data[at:], f"{bad!r} inserted at offset {at}", (1, 2)
        if variant == "latin-1 text":
            document["app_version"] = RAW
            return dumps_raw(document, '"caf\u00e9 \u00fcber"'.encode("latin-1")), \
                "app_version holds latin-1 text", (1, 2)
        if variant == "utf-16":
            return data.decode().encode("utf-16"), "the whole file in UTF-16", (1, 2)
        if variant == "utf-8 bom":
            return b"\xef\xbb\xbf" + data, "a UTF-8 byte order mark before the JSON", None
        if variant == "lone surrogate escape":
            path = rng.choice([["game"], ["scenario"], ["app_version"], pick_path(document, rng)])
            set_at(document, path, RAW)
            return dumps_raw(document, b'"\\ud800x\\udfff"'), \
                f"{describe(path)}: a string of lone surrogates (escaped)", None
        at = rng.randrange(len(data))
        return data[:at] + b"\x00" + data[at:], f"a NUL byte at offset {at}", None

    def m_yaml_payload(self, case, document, rng):
        command = payload_command(case.marker_dir, case.ident)
        variant = rng.choice(["apply os.system", "new subprocess", "save header in YAML",
                              "billion laughs", "tag inside a JSON string"])
        if variant == "apply os.system":
            text = f'!!python/object/apply:os.system ["{command}"]\n'
        elif variant == "new subprocess":
            text = f"!!python/object/new:subprocess.Popen [[sh, -c, '{command}']]\n"
        elif variant == "save header in YAML":
            text = (f"format: {SAVE_FORMAT}\nformat_version: 1\n"
                    f"game: !!python/object/apply:os.system [\"{command}\"]\n"
                    f"scenario: '1'\noptions: {{}}\nseed: 1\nactions: []\ndigests: []\n"
                    f"snapshot: {{}}\n")
        elif variant == "billion laughs":
            text = BILLION_LAUGHS
        else:
            document["scenario"] = f'!!python/object/apply:os.system ["{command}"]'
            return dumps(document), "scenario holds a YAML python tag (valid JSON)", None
        return text.encode(), f"YAML: {variant}", (2,)

    def m_pickle_payload(self, case, document, rng):
        command = payload_command(case.marker_dir, case.ident)
        protocol = rng.randrange(pickle.HIGHEST_PROTOCOL + 1)
        variant = rng.choice(["bare", "inside a save-like dict"])
        exploit = ShellCommand(command)
        obj = exploit if variant == "bare" else {"format": SAVE_FORMAT, "format_version": 1,
                                                 "game": exploit}
        return (pickle.dumps(obj, protocol=protocol),
                f"pickle protocol {protocol}, {variant}, calling os.system", (2,))

    def m_format_version(self, case, document, rng):
        value = rng.choice(FORMAT_VERSIONS)
        document["format_version"] = value
        return dumps(document), f"format_version = {json.dumps(value)}", (2,)

    def m_illegal_action(self, case, document, rng):
        actions = document["actions"]
        k = rng.randrange(len(actions))
        entry = actions[k]
        action = entry["action"]
        variant = rng.choice(["ghost", "ghost", "bogus verb", "empty", "wrong role",
                              "duplicate", "drop", "append"])
        if variant == "ghost":
            keys = [key for key in action if key in UNIT_KEYS + PLACE_KEYS
                    and type_name(action[key]) in ("string", "number")]
            if keys:
                key = rng.choice(keys)
                ghost = "NO-SUCH-UNIT-404" if isinstance(action[key], str) else 999_999
                action[key] = ghost
                return (dumps(document), f"action {k + 1}: {key} = {ghost!r} (does not exist)",
                        (1, 2))
            variant = "bogus verb"
        if variant == "bogus verb":
            action["verb"] = "no-such-verb"
            return dumps(document), f"action {k + 1}: verb no-such-verb", (1, 2)
        if variant == "empty":
            entry["action"] = {}
            return dumps(document), f"action {k + 1} is empty", (1, 2)
        if variant == "wrong role":
            entry["role"] = "nobody"
            return dumps(document), f"action {k + 1} made by role 'nobody'", (1, 2)
        if variant == "duplicate":
            actions.insert(k + 1, json.loads(json.dumps(entry)))
            return dumps(document), f"action {k + 1} given twice", None
        if variant == "drop":
            del actions[k]
            return dumps(document), f"action {k + 1} left out", None
        actions.append(json.loads(json.dumps(entry)))
        return dumps(document), f"action {k + 1} repeated after the last", None

    def m_wrong_digest(self, case, document, rng):
        entry = rng.choice(document["digests"])
        digest = entry["digest"]
        positions = [i for i, c in enumerate(digest) if c in "0123456789abcdef"]
        at = rng.choice(positions)
        entry["digest"] = digest[:at] + rng.choice(
            [c for c in "0123456789abcdef" if c != digest[at]]) + digest[at + 1:]
        return dumps(document), f"digest after action {entry['after']}: one hex digit changed", (1,)

    def m_context_path(self, case, document, rng):
        bait = self.bait_folder(case, document)
        named = rng.choice(CONTEXT_PATHS).format(bait=bait)
        if rng.random() < 0.15:         # a scenario that takes no context at all
            document["scenario"] = rng.choice(["a1", "b1", "c1"])
        else:
            document["scenario"] = "custom"
        document.setdefault("options", {})["context"] = named
        return dumps(document), (f"scenario {document['scenario']}, options.context = "
                                 f"{named!r}"), (1, 2)

    # ---------------------------------------------------------------- hostile
    def hostile_case(self, name: str) -> Case:
        description, build = HOSTILE[name]
        base_game = {"huge_game_50mb": "struggle", "nesting_1000": "nobles",
                     "nesting_100000": "struggle"}.get(
            name, "freedom" if name.startswith("context_") else "battles")
        bases = self.custom if name.startswith("context_") else self.bases[base_game]
        base = (bases or self.bases[base_game])[0]
        case = self.new_case(f"h-{name}", f"hostile:{name}", base)
        case.render = True
        case.json_output = name in ("nesting_1000", "context_bait_file", "huge_game_50mb")
        case.detail = description
        build(self, case, base.document())
        return case

    def h_symlink_dev_zero(self, case, document):
        case.path = case.folder / "zero.json"
        case.path.symlink_to("/dev/zero")
        case.expect = (2,)

    def h_fifo_save(self, case, document):
        case.path = case.folder / "pipe.json"
        os.mkfifo(case.path)
        case.expect = (2,)

    def h_folder(self, case, document):
        case.path = case.folder / "folder.json"
        case.path.mkdir()
        case.expect = (2,)

    def h_empty_file(self, case, document):
        case.path.write_bytes(b"")
        case.expect = (2,)

    def h_dangling_symlink(self, case, document):
        case.path = case.folder / "gone.json"
        case.path.symlink_to(case.folder / "no-such-file.json")
        case.expect = (2,)

    def h_sparse_300mb(self, case, document):
        with open(case.path, "wb") as handle:
            handle.truncate(300 * MB)
        case.expect = (2,)

    def h_huge_game_50mb(self, case, document):
        document["game"] = RAW
        case.path.write_bytes(dumps_raw(document, huge_string_literal(50 * MB, "G")))
        case.expect = (2,)

    def h_nesting_1000(self, case, document):
        document["options"] = RAW
        case.path.write_bytes(dumps_raw(document, nest(1000, "object")))
        case.expect = (1, 2)

    def h_nesting_100000(self, case, document):
        document["snapshot"] = {"fuzz": RAW}
        case.path.write_bytes(dumps_raw(document, nest(100_000, "list")))
        case.expect = (1, 2)

    def h_number_5000_digits(self, case, document):
        document["seed"] = RAW
        case.path.write_bytes(dumps_raw(document, b"1" + b"0" * 5000))
        case.expect = (2,)

    def h_newline_in_name(self, case, document):
        case.path = case.folder / "two\nlines\x1b[31m.json"
        case.path.write_bytes(b"not a save\n")
        case.expect = (2,)

    def h_yaml_os_system(self, case, document):
        command = payload_command(case.marker_dir, case.ident)
        case.path.write_text(f'!!python/object/apply:os.system ["{command}"]\n')
        case.expect = (2,)

    def h_yaml_billion_laughs(self, case, document):
        case.path.write_text(BILLION_LAUGHS)
        case.expect = (2,)

    def h_pickle_os_system(self, case, document):
        case.path.write_bytes(pickle.dumps(ShellCommand(payload_command(case.marker_dir,
                                                                        case.ident))))
        case.expect = (2,)

    def _context(self, case, document, named: str) -> None:
        bait = self.bait_folder(case, document)
        document["scenario"] = "custom"
        document.setdefault("options", {})["context"] = named.format(bait=bait)
        case.path.write_bytes(dumps(document))
        case.expect = (1, 2)

    def h_context_etc_passwd(self, case, document):
        self._context(case, document, "/etc/passwd")

    def h_context_fifo(self, case, document):
        self._context(case, document, "{bait}/fifo")

    def h_context_dev_zero(self, case, document):
        self._context(case, document, "/dev/zero")

    def h_context_home_bashrc(self, case, document):
        self._context(case, document, "~/.bashrc")

    def h_context_bait_file(self, case, document):
        self._context(case, document, "{bait}/context.yaml")

    # ------------------------------------------------------------------- runs
    def run_program(self, slot: Path, spawner: Spawner, case: Case, command: str) -> RunResult:
        argv = PROGRAM + ["verify", str(case.path)]
        png = slot / "render" / "out.png"
        if command == "verify --json":
            argv.append("--json")
        elif command == "render":
            argv = PROGRAM + ["render", str(case.path), "--out", str(png)]
            if png.exists():
                png.unlink()
        out, err = slot / "output" / "stdout", slot / "output" / "stderr"
        got = spawner.run(argv=argv, env=self.child_env(slot, case.home),
                          cwd=case.cwd or slot / "cwd",
                          stdout=out, stderr=err, timeout=self.limits.timeout,
                          memory_bytes=self.limits.memory_mb * MB)
        stdout, stdout_size = read_ends(out)
        stderr, stderr_size = read_ends(err)
        stderr_lines = count_lines(err)
        picture = None
        if command == "render" and png.exists():
            with open(png, "rb") as handle:
                picture = handle.read(16)
        return RunResult(command, argv, got["exit"], got["signal"], got["timed_out"],
                         got["seconds"], got["maxrss_kb"], stdout, stderr, stdout_size,
                         stderr_size, picture, stderr_lines)

    def run_case(self, case: Case, slot: Path, spawner: Spawner) -> dict:
        """Run every command of one case and check it; the case's record for the report."""
        before, beside = fingerprint(case.path), listing(case.folder)
        wd = self.watcher.watch(case.bait, case.ident) if case.bait else -1
        runs, problems = [], []
        commands = ["verify --json" if case.json_output else "verify"]
        if case.render:
            commands.append("render")
        try:
            for command in commands:
                run = self.run_program(slot, spawner, case, command)
                runs.append(run)
                expect = case.expect if command != "render" else (
                    (2,) if case.expect == (2,) else None)
                problems += check_run(run, expect=expect, secrets=case.secrets,
                                      limits=self.limits)
        finally:
            opened = self.watcher.take(case.ident) if case.bait else set()
            self.watcher.unwatch(wd)
        for name in sorted(opened & set(BAIT_FILES)):
            problems.append(Problem("path-read", f"opened {name!r}, a file named inside the save"))
        if fingerprint(case.path) != before:
            problems.append(Problem("file-changed",
                                    "the save file changed (content, mode or kind)"))
        if listing(case.folder) != beside:
            new = sorted(set(listing(case.folder)) - set(beside))
            problems.append(Problem("side-file", f"files appeared beside the save: {new}"))
        if case.marker_dir and listing(case.marker_dir):
            problems.append(Problem("payload-ran", "a payload in the file ran a shell command"))
        return {"case": case.ident, "kind": case.kind, "game": case.game, "base": case.base,
                "detail": case.detail, "file": str(case.path),
                "expect": list(case.expect) if case.expect else None,
                "runs": [{"command": r.command, "outcome": r.outcome(), "exit": r.exit,
                          "seconds": round(r.seconds, 3), "peak_rss_kb": r.peak_rss_kb}
                         for r in runs],
                "problems": [asdict(p) | {"signature": p.signature} for p in problems],
                "excerpts": [r.excerpt() for r in runs] if problems else []}

    def clean(self, case: Case, failed: bool) -> None:
        if self.keep == "all" or (self.keep == "failing" and failed):
            return
        for folder in (case.folder, case.bait, case.marker_dir):
            if folder is not None and folder.exists():
                shutil.rmtree(folder, ignore_errors=True)

    def one(self, job: tuple[str, Any]) -> dict:
        slot, spawner = self.slots.get()
        case = None
        try:
            what, arg = job
            case = self.mutation_case(arg) if what == "mutation" else self.hostile_case(arg)
            record = self.run_case(case, slot, spawner)
        except Exception as exc:  # noqa: BLE001 - a fuzzer bug is reported, never hidden
            ident = case.ident if case else str(job)
            record = {"case": ident, "kind": case.kind if case else str(job[0]),
                      "game": case.game if case else None, "base": case.base if case else None,
                      "detail": case.detail if case else "", "file": str(case.path) if case else "",
                      "expect": None, "runs": [], "excerpts": [],
                      "problems": [{"cls": "fuzzer-error", "text": f"{type(exc).__name__}: {exc}",
                                    "command": "", "signature": "fuzzer-error"}]}
        finally:
            self.slots.put((slot, spawner))
        if case is not None:
            self.clean(case, bool(record["problems"]))
        return record

    def run(self, files: int, hostile: list[str] | None = None,
            progress: Callable[[int, int, int], None] | None = None) -> list[dict]:
        """Hostile files first (the slow ones start early), then ``files`` mutated files."""
        jobs = [("hostile", name) for name in (HOSTILE if hostile is None else hostile)]
        jobs += [("mutation", index) for index in range(files)]
        records: list[dict] = []
        failing = 0
        with ThreadPoolExecutor(max_workers=self.jobs) as pool:
            for record in pool.map(self.one, jobs):
                records.append(record)
                failing += bool(record["problems"])
                if progress:
                    progress(len(records), len(jobs), failing)
        return records


MUTATORS: dict[str, Callable] = {kind: getattr(Fuzzer, f"m_{kind}") for kind in MUTATION_KINDS}

HOSTILE: dict[str, tuple[str, Callable]] = {
    "symlink_dev_zero": ("the save path is a symlink to /dev/zero", Fuzzer.h_symlink_dev_zero),
    "fifo_save": ("the save path is a named pipe (FIFO) nobody writes to", Fuzzer.h_fifo_save),
    "folder": ("the save path is a folder", Fuzzer.h_folder),
    "empty_file": ("an empty file", Fuzzer.h_empty_file),
    "dangling_symlink": ("a symlink to a file that does not exist", Fuzzer.h_dangling_symlink),
    "sparse_300mb": ("a sparse file of 300 MB of zero bytes", Fuzzer.h_sparse_300mb),
    "huge_game_50mb": ("a real save whose game is a 50 MB string", Fuzzer.h_huge_game_50mb),
    "nesting_1000": ("a real save whose options nest 1,000 objects deep", Fuzzer.h_nesting_1000),
    "nesting_100000": ("a real save whose snapshot holds 100,000 nested lists",
                       Fuzzer.h_nesting_100000),
    "number_5000_digits": ("a real save whose seed has 5,001 digits",
                           Fuzzer.h_number_5000_digits),
    "newline_in_name": ("a non-save whose file name holds a newline and an escape sequence",
                        Fuzzer.h_newline_in_name),
    "yaml_os_system": ("YAML calling os.system through a python tag", Fuzzer.h_yaml_os_system),
    "yaml_billion_laughs": ("YAML billion laughs (nine levels of aliases)",
                            Fuzzer.h_yaml_billion_laughs),
    "pickle_os_system": ("a pickle whose __reduce__ calls os.system", Fuzzer.h_pickle_os_system),
    "context_etc_passwd": ("Freedom custom save, options.context = /etc/passwd",
                           Fuzzer.h_context_etc_passwd),
    "context_fifo": ("Freedom custom save, options.context = a FIFO nobody writes to",
                     Fuzzer.h_context_fifo),
    "context_dev_zero": ("Freedom custom save, options.context = /dev/zero",
                         Fuzzer.h_context_dev_zero),
    "context_home_bashrc": ("Freedom custom save, options.context = ~/.bashrc",
                            Fuzzer.h_context_home_bashrc),
    "context_bait_file": ("Freedom custom save, options.context = a valid context file "
                          "(its own context, so a read could even replay)",
                          Fuzzer.h_context_bait_file),
}


def pick_string_path(document: dict, rng: random.Random) -> list:
    """A random string field in the snapshot (else any field)."""
    for _ in range(50):
        path = walk(document, ["snapshot"], rng, 0.1)
        if isinstance(get_at(document, path), str):
            return path
    return pick_path(document, rng)


# =============================================================================== summary
def summarize(records: list[dict], seconds: float, settings: dict) -> dict:
    kinds = Counter(r["kind"] for r in records)
    outcomes: dict[str, dict[str, Counter]] = defaultdict(lambda: defaultdict(Counter))
    runs = []
    for r in records:
        for run in r["runs"]:
            command = "render" if run["command"] == "render" else "verify"
            outcomes[r["kind"]][command][run["outcome"]] += 1
            runs.append((run, r))
    failures = [r for r in records if r["problems"]]
    classes: dict[str, dict] = {}
    for r in failures:
        for p in r["problems"]:
            entry = classes.setdefault(p["signature"], {
                "signature": p["signature"], "class": p["cls"], "files": 0, "kinds": Counter(),
                "example": {"case": r["case"], "kind": r["kind"], "game": r["game"],
                            "base": r["base"], "detail": r["detail"], "file": r["file"],
                            "problem": p["text"], "command": p["command"],
                            "runs": r["excerpts"]}})
            entry["files"] += 1
            entry["kinds"][r["kind"]] += 1

    def top(key: str) -> list[dict]:
        ranked = sorted(runs, key=lambda pair: pair[0][key], reverse=True)[:5]
        return [{"case": r["case"], "kind": r["kind"], "detail": r["detail"][:120],
                 "command": run["command"], "outcome": run["outcome"], key: run[key]}
                for run, r in ranked]

    total_runs = len(runs)
    return {
        **settings,
        "files": len(records),
        "mutated": sum(1 for r in records if not r["kind"].startswith("hostile:")),
        "hostile": sum(1 for r in records if r["kind"].startswith("hostile:")),
        "runs": total_runs,
        "seconds": round(seconds, 1),
        "files_per_second": round(len(records) / seconds, 2) if seconds else None,
        "mean_run_seconds": round(sum(run["seconds"] for run, _ in runs) / total_runs, 3)
        if total_runs else None,
        "kinds": dict(sorted(kinds.items())),
        "outcomes": {kind: {cmd: dict(sorted(c.items())) for cmd, c in by.items()}
                     for kind, by in sorted(outcomes.items())},
        "failing_files": len(failures),
        "failure_classes": sorted(
            ({**c, "kinds": dict(c["kinds"])} for c in classes.values()),
            key=lambda c: -c["files"]),
        "failures": [{"case": r["case"], "kind": r["kind"], "game": r["game"],
                      "base": r["base"], "detail": r["detail"], "file": r["file"],
                      "problems": [f"{p['command'] or 'file'}: {p['text']}" for p in r["problems"]]}
                     for r in failures],
        "slowest": top("seconds"),
        "largest_rss": top("peak_rss_kb"),
        "ok": not failures,
    }


def format_summary(s: dict, max_examples: int = 3) -> str:
    lines = [f"program: {s['program_root']}",
             f"save fuzz: {s['files']} files ({s['mutated']} mutated, {s['hostile']} hostile), "
             f"{s['runs']} program runs, seed {s['seed']}, {s['jobs']} job(s), "
             f"in {s['seconds']:.1f} s ({s['files_per_second']} files/s, "
             f"{s['mean_run_seconds']} s per run)",
             f"bounds: {s['timeout']:g} s and {s['memory_mb']} MB per run; inotify "
             f"{'on' if s['inotify'] else 'OFF (path reads caught only by output checks)'}",
             "", f"{'kind':<30} {'files':>6}  verify outcomes / render outcomes"]
    for kind, count in s["kinds"].items():
        by = s["outcomes"].get(kind, {})
        verify = ", ".join(f"{k} {v}" for k, v in by.get("verify", {}).items())
        render = ", ".join(f"{k} {v}" for k, v in by.get("render", {}).items())
        lines.append(f"{kind:<30} {count:>6}  {verify}" + (f"  /  {render}" if render else ""))
    lines += ["", f"failing files: {s['failing_files']}"]
    for c in s["failure_classes"]:
        ex = c["example"]
        lines.append(f"  [{c['files']} file(s)] {c['signature']}  (kinds: "
                     + ", ".join(f"{k} {v}" for k, v in c["kinds"].items()) + ")")
        lines.append(f"      e.g. {ex['case']} {ex['kind']} {ex['game'] or ''} {ex['base'] or ''}: "
                     f"{ex['detail'][:160]}")
        lines.append(f"      {ex['command'] or 'file'}: {ex['problem'][:200]}")
        for run in ex["runs"][:2]:
            lines.append(f"      $ {run['command']} -> {run['outcome']}; stderr: "
                         f"{json.dumps(run['stderr'][:200])}; "
                         f"stdout: {json.dumps(run['stdout'][:120])}")
    if s["failures"]:
        lines += ["", "failures (file, kind, what was wrong):"]
        shown = s["failures"] if len(s["failures"]) <= 60 else s["failures"][:60]
        for f in shown:
            lines.append(f"  {f['case']} {f['kind']} ({f['game']}/{f['base']}): "
                         f"{f['detail'][:100]}")
            for p in f["problems"][:4]:
                lines.append(f"      {p[:200]}")
        if len(shown) < len(s["failures"]):
            lines.append(f"  ... and {len(s['failures']) - len(shown)} more "
                         f"(--json or --out for all)")
    lines += ["", "slowest runs:"]
    lines += [f"  {t['seconds']:7.2f} s  {t['case']} {t['command']} {t['outcome']}: {t['detail']}"
              for t in s["slowest"]]
    lines += ["largest peak memory:"]
    lines += [f"  {t['peak_rss_kb'] / 1024:7.1f} MB  {t['case']} {t['command']} {t['outcome']}: "
              f"{t['detail']}" for t in s["largest_rss"]]
    lines.append("")
    lines.append("OK: no check failed" if s["ok"] else
                 f"FAILED: {s['failing_files']} file(s) broke the contract")
    return "\n".join(lines)


# ================================================================================== main
def run_fuzz(files: int = DEFAULT_FILES, *, seed: int = DEFAULT_SEED, jobs: int = DEFAULT_JOBS,
             work_dir: Path | None = None, keep: str = "none", limits: Limits | None = None,
             hostile: list[str] | None = None, progress=None, program_root: Path = ROOT
             ) -> tuple[dict, list[dict]]:
    """Make and check ``files`` mutated files plus the hostile ones; (summary, records).
    Without ``work_dir`` a temporary folder is used and removed afterwards."""
    limits = limits or Limits()
    temporary = work_dir is None
    work = Path(tempfile.mkdtemp(prefix="fuzz-saves-")) if temporary else Path(work_dir)
    fuzzer = Fuzzer(work, seed=seed, jobs=jobs, limits=limits, keep="none" if temporary else keep,
                    program_root=program_root)
    started = time.perf_counter()
    inotify = fuzzer.watcher.available
    try:
        fuzzer.setup()
        records = fuzzer.run(files, hostile, progress)
    finally:
        fuzzer.close()
        if temporary:
            shutil.rmtree(work, ignore_errors=True)
    settings = {"seed": seed, "jobs": fuzzer.jobs, "program_root": str(fuzzer.program_root),
                "timeout": limits.timeout,
                "memory_mb": limits.memory_mb, "inotify": inotify,
                "bases": {g: [b.name for b in fuzzer.bases[g]] for g in GAMES},
                "base_notes": fuzzer.base_notes,
                "work_dir": None if temporary else str(work)}
    summary = summarize(records, time.perf_counter() - started, settings)
    if not temporary:
        (work / "report.json").write_text(json.dumps(summary, indent=2))
        with open(work / "cases.jsonl", "w") as handle:
            for record in records:
                handle.write(json.dumps(record) + "\n")
    return summary, records


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--files", type=int, default=DEFAULT_FILES, metavar="N",
                        help=f"mutated files (default {DEFAULT_FILES}); the hostile ones "
                             f"come on top")
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="N")
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS, metavar="J")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="work here and keep report.json, cases.jsonl and the failing files")
    parser.add_argument("--keep-all", action="store_true",
                        help="with --out, keep every file (huge ones too: gigabytes)")
    parser.add_argument("--no-hostile", action="store_true", help="only the mutated files")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT, metavar="S")
    parser.add_argument("--memory-mb", type=int, default=DEFAULT_MEMORY_MB, metavar="MB")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--program-root", default=str(ROOT), metavar="DIR",
                        help="the source tree whose struggle_desktop is run (default: this one; "
                             "e.g. an older commit unpacked with git archive)")
    parser.add_argument("--make-base-saves", default=None, help=argparse.SUPPRESS)
    parser.add_argument("--game", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.make_base_saves:
        make_engine_saves(Path(args.make_base_saves), args.game, Path(args.program_root))
        return 0
    if args.out:
        Path(args.out).mkdir(parents=True, exist_ok=True)

    def progress(done: int, total: int, failing: int, started=time.perf_counter()) -> None:
        if done % max(1, total // 50) == 0 or done == total:
            rate = done / max(time.perf_counter() - started, 1e-9)
            print(f"[fuzz_saves] {done}/{total} files, {failing} failing, {rate:.1f} files/s",
                  file=sys.stderr, flush=True)

    summary, _ = run_fuzz(args.files, seed=args.seed, jobs=args.jobs,
                          work_dir=Path(args.out) if args.out else None,
                          keep="all" if args.keep_all else "failing",
                          limits=Limits(timeout=args.timeout, memory_mb=args.memory_mb),
                          hostile=[] if args.no_hostile else None,
                          progress=None if args.quiet else progress,
                          program_root=Path(args.program_root).resolve())
    print(json.dumps(summary, indent=2) if args.json else format_summary(summary))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
