"""The command line: ``struggle-desktop`` and ``python -m struggle_desktop``.

This is a contract (ARCHITECTURE.md section 6); tests, benchmarks and outside scripts rely on
the command names, the JSON fields and the exit codes::

    struggle-desktop                                  start the GUI
    struggle-desktop play --game G --scenario S [--seed N] [--option KEY=VALUE ...]
    struggle-desktop open FILE                        start the GUI on a saved game
    struggle-desktop simulate --game G --scenario S --games N --seed N [--option KEY=VALUE ...]
                              [--jobs J | --cluster ADDRESS|local:N] [--log-dir DIR] [--json]
    struggle-desktop catalog --game G [--json]
    struggle-desktop verify FILE [--json]
    struggle-desktop render (--game G --scenario S [--seed N] | FILE [--at K]) --out FILE.png
                            [--size WxH] [--side X]
    struggle-desktop forecast FILE --games N [--seed N] [--jobs J | --cluster ADDRESS|local:N]
                              [--json] [--side X]
    struggle-desktop branch FILE --at K --out NEW

Exit codes: 0 success; 1 a simulated game failed, or ``verify`` found that the save does not
replay; 2 bad input (unknown game, scenario or option, a bad value, an unreadable, damaged or
foreign file), always with one line on stderr starting with ``error:`` and no traceback.

The GUI commands (none, ``play``, ``open``, ``render``) check their arguments first, then hand
them to ``struggle_desktop.ui.app.main(args)``. Their refusals are also shown in a dialog when
nobody reads stderr (started from the desktop: ``ui.app.tell_refusal``).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any, Callable, NoReturn, TextIO

from struggle_desktop import __version__
from struggle_desktop import games as games_registry
from struggle_desktop import forecast as forecasting
from struggle_desktop.cluster import check_jobs_or_cluster
from struggle_desktop.engine import saves, table, timeline, untrusted
from struggle_desktop.engine.errors import (BadOption, SaveError, StruggleError, excerpt, one_line,
                                            printable)
from struggle_desktop.engine.game import imagines
from struggle_desktop.engine.session import Session, refusal
from struggle_desktop.simulate import check_setup, simulate

GUI_MODULE = "struggle_desktop.ui.app"
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT = 0, 1, 2
#: The largest picture ``render`` accepts on either side, in pixels.
MAX_RENDER_SIDE = 20_000


class UsageError(Exception):
    """Bad command-line syntax: reported as one ``error:`` line, exit code 2."""


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors become UsageError instead of a usage dump, and
    which takes no abbreviated long options (``--gam`` could be --game or --games)."""

    def __init__(self, *args: Any, **kwargs: Any):
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)


class PolicyHelp(argparse.HelpFormatter):
    """``simulate --help``: the program's players each game offers, read from the games when
    the help is shown (importing every game for each command would slow them all)."""

    #: Where the epilog names the policies; replaced by their list when the help is shown.
    POLICIES = "--option policy=NAME chooses the program's player."

    def add_text(self, text: str | None) -> None:
        if text and text.startswith(self.POLICIES):
            offered = "; ".join(
                f"{game_id} {'|'.join(games_registry.get_game(game_id).policies)}"
                for game_id in games_registry.REGISTRY)
            text = (f"--option policy=NAME chooses the program's player (default bot): "
                    f"{offered}." + text[len(self.POLICIES):])
        super().add_text(text)


# ------------------------------------------------------------------------------ helpers
def fail(message: str) -> int:
    """Print one ``error:`` line (never more) and return the bad-input exit code."""
    print(f"error: {one_line(message, 400)}", file=sys.stderr)
    return EXIT_BAD_INPUT


def load_game(game_id: str):
    """The game module for ``game_id``; BadOption for an unknown game or one not built yet."""
    if game_id not in games_registry.ALL_GAME_IDS:
        raise BadOption(f"unknown game {excerpt(game_id)} "
                        f"(known: {', '.join(games_registry.ALL_GAME_IDS)})")
    if game_id not in games_registry.REGISTRY:
        raise BadOption(f"game {game_id!r} is not available yet")
    return games_registry.get_game(game_id)


def parse_options(items: list[str] | None) -> dict[str, str]:
    """``["KEY=VALUE", ...]`` -> ``{KEY: VALUE}``; the game checks keys and values."""
    options: dict[str, str] = {}
    for item in items or []:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise BadOption(f"option {item!r} must have the form KEY=VALUE")
        if key in options and options[key] != value.strip():
            raise BadOption(f"option {key} is given twice with different values")
        options[key] = value.strip()
    return options


def read_option_files(game: Any, options: dict[str, Any]) -> dict[str, Any]:
    """Options whose value the person gives as a file (``--option context=FILE.yaml``): the
    file is read here, through the one loader of untrusted files, and the game gets its
    document. Only the command line does this: a value inside a save is never a file name."""
    specs = game.options()
    read = dict(options)
    for key, value in options.items():
        if specs.get(key, {}).get("from_file") and isinstance(value, str):
            try:
                read[key] = untrusted.read_yaml(Path(value).expanduser(), error=BadOption,
                                                what="YAML file")
            except BadOption as exc:
                raise BadOption(f"option {key}: {exc}") from None
    return read


def read_save(path: str) -> tuple[dict, Any]:
    """A save document and its game module (SaveError or BadOption on a bad file)."""
    document = saves.read_document(path)
    try:
        game = load_game(document["game"])
    except BadOption as exc:
        raise SaveError(f"{path}: {exc}") from None
    return document, game


def load_save(path: str) -> Session:
    """A save read, replayed and checked (SaveError or BadOption on a bad file)."""
    document, game = read_save(path)
    return Session.from_document(game, document)[0]


def parse_size(text: str) -> tuple[int, int]:
    match = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", text)
    if not match:
        raise BadOption(f"--size takes WIDTHxHEIGHT in pixels, such as 1600x1000, not {text!r}")
    width, height = int(match[1]), int(match[2])
    if not (0 < width <= MAX_RENDER_SIDE and 0 < height <= MAX_RENDER_SIDE):
        raise BadOption(f"--size must be between 1 and {MAX_RENDER_SIDE} pixels on each side")
    return width, height


#: The commands that start the window (none, ``play``, ``open``): started from the desktop,
#: their refusals are shown in a dialog too.
WINDOW_COMMANDS = (None, "play", "open")


def window_command(argv: list[str] | None) -> bool:
    """Whether ``argv`` (default: this program's) asks for the window, even one that did not
    parse: its first word that is not an option is none, ``play`` or ``open``."""
    words = sys.argv[1:] if argv is None else argv
    first = next((word for word in words if not word.startswith("-")), None)
    return first in WINDOW_COMMANDS


def tell_desktop(message: str) -> None:
    """Show a window command's refusal as the desktop program would (the window module's
    ``tell_refusal``: a dialog when no terminal shows stderr). Never fails: the ``error:``
    line is already out."""
    try:
        module = importlib.import_module(GUI_MODULE)
        tell = getattr(module, "tell_refusal", None)
        if tell is not None:
            tell(one_line(message, 400))
    except Exception:           # noqa: BLE001 - no window to tell it in: stderr has it
        pass


def launch_gui(args: argparse.Namespace) -> int:
    """Hand checked arguments to the desktop program, if this build has one."""
    try:
        module = importlib.import_module(GUI_MODULE)
    except ModuleNotFoundError as exc:
        if exc.name and (GUI_MODULE == exc.name or GUI_MODULE.startswith(exc.name + ".")):
            return fail("the desktop window is not available in this build yet")
        if exc.name and exc.name.split(".")[0] == "PySide6":
            return fail("the desktop window needs PySide6, which is not installed")
        raise
    result = module.main(args)
    return int(result or 0)


class ProgressBar:
    """A plain-text progress bar on a terminal: ``\\r``, no extra dependency. It shows the games
    done, the games per second and the time left at that pace."""

    WIDTH = 30

    def __init__(self, stream: TextIO):
        self.stream = stream
        self.started = time.perf_counter()

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        elapsed = time.perf_counter() - self.started
        rate = ""
        if elapsed > 0 and done:
            left = (total - done) * elapsed / done
            rate = f"  {done / elapsed:.1f} games/s, {format_duration(left)} left"
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.WIDTH - filled)}] {done}/{total}{rate}")
        if done >= total:
            self.stream.write("\n")
        self.stream.flush()


def format_duration(seconds: float) -> str:
    """A time left, in words short enough for a progress line.

    >>> format_duration(42.4), format_duration(125), format_duration(7322)
    ('42 s', '2 min 5 s', '2 h 2 min')
    """
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60} min"


# ------------------------------------------------------------------------------ commands
def cmd_gui(args: argparse.Namespace) -> int:
    return launch_gui(args)


def cmd_play(args: argparse.Namespace) -> int:
    game = load_game(args.game)
    args.options = read_option_files(game, parse_options(args.option))
    check_setup(game, args.scenario, args.options)
    args.game_id = game.id
    return launch_gui(args)


def cmd_open(args: argparse.Namespace) -> int:
    document, game = read_save(args.file)
    # Replayed here, so that a save the window would refuse ends with exit 2 and one error
    # line before any window opens; the window shows this very session (no second replay).
    args.loaded = Session.from_document(game, document)
    args.game_id = game.id
    return launch_gui(args)


def check_side(game: Any, side: str | None) -> str | None:
    """``--side X``: one of the game's sides (BadOption naming them), or None."""
    if side is not None and side not in game.roles:
        raise BadOption(f"--side takes one of the game's sides: {', '.join(game.roles)} "
                        f"(not {excerpt(side)})")
    return side


def forecast_refusal(session: Session, side: str | None) -> str | None:
    """Why ``forecast`` does not play on from this save (None: it does). Without ``--side``
    its games play on from the whole position, every side's hidden hand and plans as they
    are: where several people share the game, its figures would give away what each keeps
    from the others (the window refuses it there too). ``--side X`` plays every game on from
    a position imagined from X's view alone (the game's ``imagined_state``), on any save, one
    person's against the program too; a game that does not imagine one refuses it."""
    game = session.game
    if side is not None:
        if not imagines(game):
            return (f"a forecast from {side}'s view needs the other sides' hidden parts "
                    f"imagined anew, which {game.id} does not offer")
        return None
    if table.shared(game, session.state):
        people = ", ".join(table.people(game, session.state))
        if imagines(game):
            return (f"several people play this game ({people}): a forecast would play on with "
                    "what each side keeps hidden (hands, plans, declarations) and so give it "
                    "away; name the side whose view it may use with --side X")
        return (f"several people play this game ({people}): a forecast would play on with what "
                "each side keeps hidden (hands, plans, declarations) and so give it away, and "
                f"a forecast from one side's view (--side X) is not offered for {game.id}")
    return None


def cmd_render(args: argparse.Namespace) -> int:
    if args.file and (args.game or args.scenario or args.seed is not None):
        raise BadOption("render takes either a save FILE or --game/--scenario, not both")
    if args.at is not None and not args.file:
        raise BadOption("--at K needs a save FILE: it draws that game after its first K actions")
    if args.file and args.at is not None:
        session = load_save(args.file)
        args.loaded = timeline.branch(session, args.at)
        game = session.game
    elif args.file:
        _, game = read_save(args.file)
    else:
        if not (args.game and args.scenario):
            raise BadOption("render needs --game and --scenario, or a save FILE")
        game = load_game(args.game)
        check_setup(game, args.scenario, {})
    args.side = check_side(game, args.side)
    args.game_id = game.id
    if Path(args.out).suffix.lower() != ".png":
        raise BadOption(f"--out must name a .png file, not {args.out!r}")
    args.size = parse_size(args.size) if args.size else None
    return launch_gui(args)


def cmd_forecast(args: argparse.Namespace) -> int:
    session = load_save(args.file)
    why_not = forecast_refusal(session, check_side(session.game, args.side))
    if why_not is not None:
        raise BadOption(why_not)
    jobs = check_jobs_or_cluster(args.jobs, args.cluster)
    start = forecasting.start_from(session, side=args.side)
    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    on_results = (lambda futures: progress(len(futures), args.games)) if progress else None
    summary = forecasting.forecast(start, args.games, args.seed, jobs=jobs,
                                   on_results=on_results, cluster=args.cluster)
    return print_batch(summary, args.json, format_forecast)


def print_batch(summary: dict, as_json: bool, words: Callable[[dict], str]) -> int:
    """Print a batch's summary (one JSON object, or ``words(summary)``); exit code 1 if any
    game of it failed."""
    print(json.dumps(summary, indent=2) if as_json else words(summary))
    return EXIT_OK if summary["errors"] == 0 else EXIT_FAILED


def format_forecast(s: dict) -> str:
    """The human form of a forecast summary: the outcomes with their 95 % intervals, then the
    middle of the main tracks turn by turn."""
    lines = [f"{s['game']} scenario {s['scenario']}: {s['games']} games played on from action "
             f"{s['from_action']} (turn {s['from_turn']}) by the program's player "
             f"({s['policy']}), seed {s['seed']}; {s['seconds']:g} s"]
    for result, share in sorted(s["shares"].items(), key=lambda kv: -kv[1]["share"]):
        lines.append(f"  {result:<24} {100 * share['share']:5.1f} %   "
                     f"(95 %: {100 * share['low']:.1f}-{100 * share['high']:.1f} %)")
    if s["errors"]:
        lines.append(f"  errors: {s['errors']}")
    for row in s["turns"]:
        middle = ", ".join(f"{name} {figures['p50']:g} [{figures['p10']:g}-{figures['p90']:g}]"
                           for name, figures in list(row["tracks"].items())[:6])
        lines.append(f"  turn {row['turn']}: {middle}")
    lines.append(f"digest {s['digest']}")
    return "\n".join(lines)


def cmd_branch(args: argparse.Namespace) -> int:
    source, target = Path(args.file), Path(args.out)
    if target.exists() and target.resolve() == source.resolve():
        raise BadOption("--out must name a new file: branch never changes FILE")
    session = load_save(args.file)
    branched = timeline.branch(session, args.at)
    try:
        branched.save(target)
    except OSError as exc:
        raise BadOption(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"{printable(str(target))}: the game of {printable(str(source))} after "
          f"{args.at} of its {len(session.actions)} actions")
    return EXIT_OK


def check_log_folder(folder: str) -> None:
    """Make ``--log-dir`` and write a file in it before any game runs, so that a folder that
    cannot hold the logs (read-only, ``/proc/1``, a file) is one ``error:`` line, not a
    traceback after the batch has run."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            pass
    except OSError as exc:
        raise BadOption(f"cannot write the game logs into {printable(folder)}: "
                        f"{exc.strerror or exc}") from None


def cmd_simulate(args: argparse.Namespace) -> int:
    jobs = check_jobs_or_cluster(args.jobs, args.cluster)
    game = load_game(args.game)
    options = read_option_files(game, parse_options(args.option))
    if args.log_dir is not None:
        check_log_folder(args.log_dir)
    progress = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    summary = simulate(game, args.scenario, args.games, args.seed, options, jobs=jobs,
                       log_dir=args.log_dir, progress=progress, cluster=args.cluster)
    return print_batch(summary, args.json, format_summary)


def format_summary(s: dict) -> str:
    """The human form of a simulate summary."""
    def num(value: Any) -> str:
        return "-" if value is None else f"{value:g}"

    options = ", ".join(f"{k}={v}" for k, v in s["options"].items()) or "none"
    lines = [
        f"{s['game']} scenario {s['scenario']}: {s['games']} games, seed {s['seed']}, "
        f"policy {s['policy']}, options {options}",
        f"completed {s['completed']}, errors {s['errors']}, in {s['seconds']:.2f} s "
        f"({num(s['games_per_second'])} games/s, "
        + (f"cluster {s['cluster']})" if s.get("cluster") else f"{s['jobs']} job(s))"),
        "outcomes: " + (", ".join(f"{k} {v}" for k, v in s["outcomes"].items()) or "none"),
        f"mean turns {num(s['turns_mean'])}, mean VP {num(s['vp_mean'])}",
        f"digest {s['digest']}",
    ]
    lines += [f"  {message}" for message in s["error_samples"]]
    return "\n".join(lines)


def cmd_verify(args: argparse.Namespace) -> int:
    document, game = read_save(args.file)
    # An unknown scenario or option in the file is bad input (exit 2), not a failed replay.
    try:
        game.normalize_options(document["scenario"], document["options"])
    except BadOption as exc:
        raise BadOption(f"{args.file}: {exc}") from None
    except Exception as exc:    # noqa: BLE001 - a hand-made value no option expects
        raise SaveError(f"{args.file}: {refusal(exc)}") from None
    report = verify_document(game, document)
    report["file"] = str(args.file)
    name = printable(str(args.file))      # a file name may hold any character
    if args.json:
        print(json.dumps(report, indent=2))
    elif report["ok"]:
        print(f"{name}: ok ({report['message']}; {report['actions']} actions, "
              f"{report['checked']} digests checked)")
    else:
        print(f"{name}: verification failed: {report['message']}")
    return EXIT_OK if report["ok"] else EXIT_FAILED


def verify_document(game: Any, document: dict) -> dict:
    """Replay a save and compare it with its recorded digests and its snapshot."""
    try:
        # prefer_snapshot: report a mismatch instead of raising, so verify can say why.
        session, report = Session.from_document(game, document, prefer_snapshot=True)
    except Exception as exc:  # noqa: BLE001 - a save that crashes the rules does not replay
        return {"ok": False, "game": document["game"], "scenario": document["scenario"],
                "actions": len(document["actions"]), "checked": 0, "mismatch_at": None,
                "message": f"the replay failed: {refusal(exc)}",
                "data_changed": None, "snapshot_matches": None}
    ok, message = report.ok, report.message
    snapshot_matches = None
    if ok:
        snapshot_matches = game.digest(document["snapshot"]) == game.digest(session.state)
        if not snapshot_matches:
            ok, message = False, "the stored position differs from the replayed one"
    if not ok and report.data_changed:
        message += " (the rules or tables changed since it was saved)"
    return {"ok": ok, "game": document["game"], "scenario": document["scenario"],
            "actions": report.actions, "checked": report.checked,
            "mismatch_at": report.mismatch_at, "message": message,
            "data_changed": report.data_changed, "snapshot_matches": snapshot_matches}


def cmd_catalog(args: argparse.Namespace) -> int:
    catalog = load_game(args.game).catalog()
    if args.json:
        print(json.dumps(catalog, indent=2, ensure_ascii=False))
    else:
        print(format_catalog(catalog))
    return EXIT_OK


#: Unit columns a catalog may have, in display order (each game lists its own).
UNIT_COLUMNS = {"mil": "military", "morph": "morph", "ma": "movement", "cost": "cost",
                "upkeep": "upkeep", "counters": "counters"}


def format_catalog(c: dict) -> str:
    """The human form of a catalog: one readable section per part."""
    out = [f"{c['title']} ({c['game']}), rules version {c['rules_version']}"]

    def section(title: str) -> None:
        out.extend(["", title, "-" * len(title)])

    def para(text: str, indent: int) -> None:
        out.extend(textwrap.wrap(" ".join(str(text).split()), width=96,
                                 initial_indent=" " * indent, subsequent_indent=" " * indent))

    def factor(unit: dict, key: str) -> str:
        value = "-" if unit.get(key) is None else str(unit[key])
        return f"({value})" if unit.get(f"{key}_paren") else value

    section("Scenarios")
    for sc in c["scenarios"]:
        turns = f"{sc['turns']} turns" if sc.get("turns") else "no turn limit"
        needs = ", ".join(sc.get("required_options") or []) or "none"
        out.append(f"{sc['id']:>3}  {sc['title']}  ({turns}; required options: {needs})")
        if sc.get("description"):
            para(sc["description"], 5)
    section("Options (--option KEY=VALUE)")
    for key, spec in c["options"].items():
        out.append(f"  {key:<20} {spec.get('help', '')} (default {spec.get('default')})")
    columns = [k for k in UNIT_COLUMNS if any(k in u for u in c["units"])]
    section("Units (" + ", ".join(UNIT_COLUMNS[k] for k in columns) + "; (n) = defence only)")
    for u in c["units"]:
        out.append(f"  {u['code']:<4} {u['name']:<20} {factor(u, 'mil'):>4} {factor(u, 'morph'):>4}"
                   + "".join(f" {'-' if u.get(k) is None else u[k]!s:>4}" for k in columns[2:]))
    if "chits" in c:
        chits = c["chits"]
        section(f"Action chits ({chits['kinds']} kinds, {chits['total']} chits)")
        out.append("  " + ", ".join(f"{n} x {kind}" for kind, n in chits["counts"].items()))
    if "regions" in c:
        section("Regions")
        out.append("  " + ", ".join(f"{r['number']} {r['name']}" for r in c["regions"]))
    if "events" in c:
        events = c["events"]
        section(f"Chaos event markers ({events['kinds']} kinds, {events['total']} markers)")
        for m in events["markers"]:
            out.append(f"  {m['count']:>2} x {m['name']} [{m['rule']}]")
            para(m.get("effect", ""), 7)
    section("Tables (R = reconstructed, * = replaced by a user override)")
    for t in c["tables"]:
        flags = ("R" if t["reconstructed"] else " ") + ("*" if t.get("overridden") else " ")
        out.append(f"  {flags} {t['id']:<18} {t['title']}  ({', '.join(t['rules'])})")
    if "map" in c:
        m = c["map"]
        section("Map")
        out.append(f"  {m['title']}: {m['sectors']} sectors, {len(m['system_sectors'])} system "
                   f"sectors, the Core is sector {m['core']}")
    rules = c["rule_ids"]
    section(f"Rule IDs ({rules['count']}: " + ", ".join(
        f"{n} {k}" for k, n in rules["by_source"].items()) + ")")
    for r in rules["rules"]:
        out.append(f"  {r['id']:<24} {r['title']}  [{r['source']}]")
    return "\n".join(out)


# ------------------------------------------------------------------------------ parser
def _add_game_arguments(p: argparse.ArgumentParser, required: bool = True) -> None:
    p.add_argument("--game", required=required, metavar="G",
                   help=f"one of {', '.join(games_registry.ALL_GAME_IDS)}")
    p.add_argument("--scenario", required=required, metavar="S", help="scenario id")


def _add_option_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                   help="an optional rule or setting (repeatable), such as nexus=on")


def _add_cluster_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--cluster", default=None, metavar="ADDRESS|local:N",
                   help="play the games on a Dask cluster instead of --jobs: a running "
                        "scheduler (tcp://HOST:PORT) or local:N worker processes; needs the "
                        "[cluster] extra (docs/cluster.md)")


def build_parser() -> Parser:
    parser = Parser(prog="struggle-desktop",
                    description="Science-fiction board wargames on the desktop. "
                                "Without a command, start the desktop window.")
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("play", help="start the desktop window on a new game")
    _add_game_arguments(p)
    p.add_argument("--seed", type=int, default=None, help="random seed (default: a new one)")
    _add_option_argument(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("open", help="start the desktop window on a saved game")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_open)

    p = sub.add_parser(
        "simulate", help="play many games headless and summarise them",
        formatter_class=PolicyHelp,
        epilog=PolicyHelp.POLICIES + " "
               "--log-dir writes game-<k>.jsonl: every log entry, a {kind: turn, turn, "
               "...tracks} line before each turn's turn-start entry (kept with kind "
               "'turn-start'), and a final {kind: final, outcome, turns, ...tracks} line.")
    _add_game_arguments(p)
    p.add_argument("--games", type=int, required=True, metavar="N", help="number of games")
    p.add_argument("--seed", type=int, required=True, metavar="N", help="batch seed")
    _add_option_argument(p)
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="worker processes (default 1)")
    _add_cluster_argument(p)
    p.add_argument("--log-dir", default=None, metavar="DIR", help="write game-<k>.jsonl here")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("catalog", help="list scenarios, units, events, tables and rule IDs")
    p.add_argument("--game", required=True, metavar="G")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_catalog)

    p = sub.add_parser("verify", help="replay a save and check it against its digests")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.set_defaults(func=cmd_verify)

    p = sub.add_parser("render", help="draw a map picture (desktop window code, offscreen)")
    p.add_argument("file", nargs="?", metavar="FILE", help="a save file")
    _add_game_arguments(p, required=False)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--at", type=int, default=None, metavar="K",
                   help="draw the saved game after its first K actions")
    p.add_argument("--out", required=True, metavar="FILE.png")
    p.add_argument("--size", default=None, metavar="WxH")
    p.add_argument("--side", default=None, metavar="X",
                   help="draw the board as side X sees it (a game of several sides is drawn "
                        "as every side may see it otherwise)")
    p.set_defaults(func=cmd_render)

    p = sub.add_parser(
        "forecast", help="play a saved game to its end many times: the odds from here",
        epilog="Every side is played by the game's program player; the seed drives the "
               "future dice only (and, with --side, what each game imagines of the other "
               "sides' hidden parts).")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--games", type=int, required=True, metavar="N", help="number of games")
    p.add_argument("--seed", type=int, default=1, metavar="N", help="seed (default 1)")
    p.add_argument("--jobs", type=int, default=None, metavar="J",
                   help="worker processes (default 1)")
    _add_cluster_argument(p)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--side", default=None, metavar="X",
                   help="play every game on from side X's view, the other sides' hidden "
                        "parts (hands, plans, declarations) imagined anew in each game; a "
                        "save that several people play is refused without it")
    p.set_defaults(func=cmd_forecast)

    p = sub.add_parser("branch", help="save a game as it was after its first K actions")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--at", type=int, required=True, metavar="K", help="actions to keep")
    p.add_argument("--out", required=True, metavar="NEW", help="the new save file")
    p.set_defaults(func=cmd_branch)

    parser.set_defaults(func=cmd_gui)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the program; returns the exit code (0 ok, 1 failed check, 2 bad input)."""
    try:
        args = build_parser().parse_args(argv)
        command: Callable[[argparse.Namespace], int] = args.func
        code = command(args)
        sys.stdout.flush()      # a reader that went away shows here, not at exit
        return code
    except (UsageError, StruggleError) as exc:
        code = fail(str(exc))
        if window_command(argv):
            tell_desktop(str(exc))
        return code
    except SystemExit as exc:   # --help and --version end through argparse's exit()
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 2)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, and keep Python from complaining
        # again when it flushes stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
