"""The program never reads a path named inside a save or a data file.

A file name is something a person types on the command line; a save or a table someone sent
may name ``/etc/passwd`` or ``~/.bashrc`` anywhere, and the program must neither open it nor
print it. (A Freedom save whose ``options.context`` named a file used to make ``verify`` and
``open`` read that file and print it in the error line.)

The commands run in a child process with an audit hook (``sys.addaudithook``) that records
every file the interpreter opens, so "never opened" is observed, not assumed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = {game: sorted((ROOT / "tests" / "games" / game / "golden").glob("*-*.json"))[0]
          for game in ("struggle", "battles", "nobles")}
SECRET_TEXT = "root:x:0:0:the secret the program must not show"

#: Runs ``cli.main`` on every argument list of a JSON file and reports the exit codes, what
#: was printed and every path opened.
CHILD = """
import contextlib, io, json, os, sys
opened = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        opened.append(os.fsdecode(args[0]))
sys.addaudithook(hook)
from struggle_desktop import cli
runs = json.loads(sys.argv[1])
results = []
for argv in runs:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    results.append({"argv": argv, "code": code, "out": out.getvalue(), "err": err.getvalue()})
sys.stdout.write(json.dumps({"results": results, "opened": sorted(set(opened))}))
"""


def run_child(runs: list[list[str]], home: Path) -> dict:
    env = dict(os.environ, STRUGGLE_DESKTOP_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", CHILD, json.dumps(runs)], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def freedom_save(path: Path) -> Path:
    game = get_game("freedom")
    context = game.data.scenarios["a2"]["context"]
    session = Session.new(game, "custom", 3, {"context": context})
    for k in range(3):
        role = session.state["pending"]["role"]
        session.perform(role, game.choose_action(session.state, role, "simple", Rng.from_seed(k)))
    session.save(path)
    return path


def planted_saves(folder: Path, secret: str) -> list[Path]:
    """Saves of the four games with the secret's path in every place a string can go: the
    header, each option, the string values of the first actions, the overrides."""
    freedom = freedom_save(folder / "freedom.sgsave")
    made = []
    for game, source in [*GOLDEN.items(), ("freedom", freedom)]:
        document = json.loads(source.read_text(encoding="utf-8"))
        variants = {
            "scenario": lambda d: d.update(scenario=secret),
            "versions": lambda d: d.update(rules_version=secret, data_digest=secret,
                                           app_version=secret),
            "overrides": lambda d: d.update(overrides={secret: secret}),
            "options": lambda d: d.update(options={key: secret for key in
                                                   (*d["options"], "context")}),
            "actions": lambda d: [entry["action"].update(
                {key: secret for key, value in entry["action"].items()
                 if isinstance(value, str) and key != "verb"})
                for entry in d["actions"][:3]],
        }
        for name, plant in variants.items():
            planted = json.loads(json.dumps(document))
            plant(planted)
            path = folder / f"{game}-{name}.sgsave"
            path.write_text(json.dumps(planted), encoding="utf-8")
            made.append(path)
    return made


def check_nothing_leaked(report: dict, secret: str) -> None:
    assert secret not in report["opened"]
    assert not any(Path(p).name == Path(secret).name for p in report["opened"])
    for result in report["results"]:
        assert SECRET_TEXT not in result["out"] + result["err"], result["argv"]
        assert "Traceback" not in result["err"], result["err"]
        assert result["code"] in (0, 1, 2), result
        if result["code"] == 2:
            lines = result["err"].splitlines()
            assert len(lines) == 1 and lines[0].startswith("error:"), result


@pytest.mark.slow
def test_a_path_named_in_a_save_is_never_opened(tmp_path):
    secret = tmp_path / "private" / "passwords.yaml"
    secret.parent.mkdir()
    secret.write_text(f"note: {SECRET_TEXT}\n", encoding="utf-8")
    saves = planted_saves(tmp_path, str(secret))
    runs = [["verify", str(p)] for p in saves]
    runs += [["render", str(p), "--out", str(tmp_path / f"{p.stem}.png")]
             for p in saves if p.stem.endswith(("options", "actions"))]
    report = run_child(runs, tmp_path / "home")
    check_nothing_leaked(report, str(secret))
    codes = {r["argv"][1]: r["code"] for r in report["results"] if r["argv"][0] == "verify"}
    # The context of a Freedom save is refused as bad input, not replayed from the file.
    assert codes[str(tmp_path / "freedom-options.sgsave")] == 2


@pytest.mark.slow
def test_a_path_named_in_a_table_override_is_never_opened(tmp_path):
    secret = tmp_path / "private" / "passwords.yaml"
    secret.parent.mkdir()
    secret.write_text(f"note: {SECRET_TEXT}\n", encoding="utf-8")
    home = tmp_path / "home"
    overrides = home / "config" / "overrides" / "struggle"
    overrides.mkdir(parents=True)
    table = yaml.safe_load((ROOT / "assets" / "tables" / "struggle" / "aert.yaml").read_text())
    table["title"] = str(secret)
    table["rules"] = [str(secret)]
    (overrides / "aert.yaml").write_text(yaml.safe_dump(table), encoding="utf-8")
    report = run_child([["catalog", "--game", "struggle"],
                        ["simulate", "--game", "struggle", "--scenario", "1", "--games", "1",
                         "--seed", "1"]], home)
    check_nothing_leaked(report, str(secret))
