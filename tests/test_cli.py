"""The command line (struggle_desktop/cli.py): the contract of ARCHITECTURE.md section 6.

Run in-process through ``main([...])`` (and once as ``python -m struggle_desktop``): every bad
input exits 2 with one ``error:`` line; ``simulate --json`` has every field and a digest that
depends only on the seed (not on ``--jobs``); ``--log-dir`` writes the turn and final lines;
``catalog`` lists the markers and tables; ``verify`` exits 0, 1 or 2.

Rules: SGE-VIC-6 (``simulate`` reports the result names of the victory levels, with VP, CI and
the last turn).
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import subprocess
import sys
import types
from pathlib import Path

import pytest

from struggle_desktop import cli, simulate
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session

ROOT = Path(__file__).resolve().parents[1]
SIM = ["simulate", "--game", "struggle", "--scenario", "3"]
SUMMARY_FIELDS = {"game", "scenario", "games", "completed", "errors", "outcomes", "turns_mean",
                  "seconds", "games_per_second", "digest", "options", "policy", "seed",
                  "vp_mean", "error_samples"}


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err



@pytest.fixture
def no_gui(monkeypatch):
    """The desktop window is missing (it is, until the UI is built; later, pretend)."""
    monkeypatch.setattr(cli, "GUI_MODULE", "struggle_desktop.ui_not_in_this_build.app")


@pytest.fixture
def fake_gui(monkeypatch):
    """A stand-in desktop module that records the arguments it is started with."""
    calls = []
    module = types.ModuleType("fake_gui_app")
    module.main = lambda args: calls.append(args) or 0
    monkeypatch.setitem(sys.modules, "fake_gui_app", module)
    monkeypatch.setattr(cli, "GUI_MODULE", "fake_gui_app")
    return calls


@pytest.fixture(scope="module")
def save_file(tmp_path_factory, game):
    """A save of a Struggle game played 30 decisions into scenario 3."""
    session = Session.new(game, "3", 4)
    rng = Rng.from_seed(4, stream=99)
    for _ in range(30):
        role = session.state["pending"]["role"]
        session.perform(role, game.choose_action(session.state, role, "bot", rng), copy=False)
    path = tmp_path_factory.mktemp("saves") / "game.json"
    session.save(path)
    return path


def copy_of(path: Path, tmp_path: Path, change=None) -> Path:
    document = json.loads(path.read_text(encoding="utf-8"))
    if change:
        change(document)
    target = tmp_path / "changed.json"
    target.write_text(json.dumps(document), encoding="utf-8")
    return target


# ------------------------------------------------------------------------------ bad input
BAD_INPUT = [
    (["play", "--game", "battles", "--scenario", "1"], "error: unknown scenario '1' for battles"),
    (["simulate", "--game", "nobles", "--scenario", "standard", "--games", "1", "--seed", "1",
      "--option", "houses=5"], "error: option houses takes 2, 3, 4, not '5'"),
    (["catalog", "--game", "chess"], "error: unknown game 'chess'"),
    (["play", "--game", "struggle", "--scenario", "99"], "error: unknown scenario '99'"),
    ([*SIM[:4], "0", "--games", "1", "--seed", "1"], "error: unknown scenario '0'"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "warp=on"], "error: unknown option 'warp'"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "nexus"], "KEY=VALUE"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "=on"], "KEY=VALUE"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "stargates=maybe"], "error: option stargates"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "nexus=off"], "requires the optional rule"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "stargates=on", "--option", "stargates=off"],
     "given twice"),
    ([*SIM, "--games", "1", "--seed", "1", "--option", "policy=genius"], "error: unknown policy"),
    ([*SIM[:4], "7", "--games", "1", "--seed", "1", "--option", "max_turns=lots"], "max_turns"),
    ([*SIM, "--games", "0", "--seed", "1"], "at least 1"),
    ([*SIM, "--games", "x", "--seed", "1"], "error: argument --games: invalid int value"),
    ([*SIM, "--games", "1", "--seed", "1", "--jobs", "0"], "at least 1"),
    ([*SIM, "--games", "1", "--seed", "1.5"], "--seed"),
    ([*SIM, "--games", "1"], "required: --seed"),
    (["simulate"], "required"),
    (["conquer"], "invalid choice"),
    (["play", "--game", "struggle"], "required: --scenario"),
    (["verify"], "required: FILE"),
    (["render", "--game", "struggle", "--scenario", "3"], "required: --out"),
    (["render", "--out", "map.png"], "render needs --game and --scenario"),
    (["render", "--game", "struggle", "--scenario", "3", "--out", "map.jpg"], ".png"),
    (["render", "--game", "struggle", "--scenario", "3", "--out", "m.png", "--size", "big"], "--size"),
    (["render", "--game", "struggle", "--scenario", "3", "--out", "m.png", "--size", "0x10"], "--size"),
    (["render", "--game", "struggle", "--scenario", "42", "--out", "m.png"], "unknown scenario"),
    (["play", "--game", "struggle", "--scenario", "3", "--bogus"], "unrecognized arguments"),
    # Values found by trying (issue 25): each was a traceback or a long run before.
    ([*SIM, "--games", "99999999999", "--seed", "1"], "at most 1,000,000"),
    ([*SIM, "--games", "2", "--seed", "1", "--log-dir", "/proc/1"], "cannot write the game logs"),
    ([*SIM[:4], "7", "--games", "1", "--seed", "1", "--option", "max_turns=1000000000"],
     "max_turns must be from 1 to 999"),
]


@pytest.mark.parametrize("argv, expected", BAD_INPUT, ids=[" ".join(a) for a, _ in BAD_INPUT])
def test_bad_input_exits_2_with_one_error_line(capsys, no_gui, argv, expected):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    assert expected in lines[0]


@pytest.mark.parametrize("argv", [
    ["play", "--game", "freedom", "--scenario", "1"],
    ["simulate", "--game", "freedom", "--scenario", "1", "--games", "1", "--seed", "1"],
    ["catalog", "--game", "freedom"],
])
def test_a_game_this_build_lacks_exits_2(capsys, no_gui, monkeypatch, argv):
    """A game of the architecture's list that is not in this build's registry (here Freedom,
    taken out of it) is refused with one error line, exit 2."""
    from struggle_desktop import games

    monkeypatch.delitem(games.REGISTRY, "freedom")
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.strip() == "error: game 'freedom' is not available yet"


@pytest.mark.parametrize("content", ["", "not json", '{"format": "struggle-desktop-save"',
                                     '{"name": "a foreign file"}'])
@pytest.mark.parametrize("command", ["verify", "open"])
def test_bad_files_exit_2(capsys, no_gui, tmp_path, command, content):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = run(capsys, command, str(path))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("error:") and str(path) in err


@pytest.mark.parametrize("argv", [
    ["play", "--game", "battles", "--scenario", "civil-war"],
    ["render", "--game", "battles", "--scenario", "invasion", "--out", "x.png"],
])
def test_a_game_without_a_screen_is_refused_before_any_window(capsys, monkeypatch, argv):
    """A game that plays headless but has no screen in this build (here Battles, its screen
    taken away) is refused by play/open/render with one error line, exit 2."""
    from struggle_desktop.ui import screens
    monkeypatch.setattr(screens, "DESKTOP_GAMES", ("struggle",))
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err.strip() == ("error: the desktop screen for 'battles' is not built yet "
                           "(simulate, catalog and verify work)")


def test_open_refuses_a_save_that_does_not_replay_before_any_window(capsys, fake_gui,
                                                                     save_file, tmp_path):
    def break_an_action(document):
        document["actions"][0]["action"] = {"verb": "move", "unit": "XX-99", "to": 999}

    path = copy_of(save_file, tmp_path, break_an_action)
    code, out, err = run(capsys, "open", str(path))
    assert code == 2 and out == "" and len(err.splitlines()) == 1
    assert err.startswith("error: the save does not replay: action 1")
    assert fake_gui == []                      # no window was started


def test_missing_file_and_folder_exit_2(capsys, no_gui, tmp_path):
    for target in (tmp_path / "none.json", tmp_path):
        code, _, err = run(capsys, "verify", str(target))
        assert code == 2 and err.startswith("error:") and len(err.splitlines()) == 1


def test_a_save_of_a_game_this_build_lacks_exits_2(capsys, save_file, tmp_path, monkeypatch):
    from struggle_desktop import games

    monkeypatch.delitem(games.REGISTRY, "freedom")
    path = copy_of(save_file, tmp_path, lambda d: d.update(game="freedom"))
    code, _, err = run(capsys, "verify", str(path))
    assert code == 2 and err.strip() == f"error: {path}: game 'freedom' is not available yet"


def test_no_traceback_from_the_real_program(tmp_path):
    """``python -m struggle_desktop`` is the same program: bad input gives one line."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for argv in ([*SIM[:4], "99", "--games", "1", "--seed", "1"],
                 ["verify", str(tmp_path / "missing.json")], ["--option"]):
        done = subprocess.run([sys.executable, "-m", "struggle_desktop", *argv], cwd=ROOT,
                              env=env, capture_output=True, text=True, timeout=120)
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and done.stderr.startswith("error:")
        assert "Traceback" not in done.stderr


def test_what_a_save_says_reaches_the_terminal_escaped(save_file, tmp_path):
    """A lone surrogate or a terminal escape sequence in a save is shown as an escape: it
    neither crashes the output (a UnicodeEncodeError used to end verify with a traceback)
    nor clears the player's screen."""
    def strange_roles(document):
        document["actions"][0]["role"] = "\ud800x\udfff"

    def escape_sequence(document):
        document["actions"][0]["role"] = "\x1b[2J\x1b[31mEVIL"

    env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONIOENCODING="utf-8")
    for change in (strange_roles, escape_sequence):
        path = copy_of(save_file, tmp_path, change)
        done = subprocess.run([sys.executable, "-m", "struggle_desktop", "verify", str(path)],
                              cwd=ROOT, env=env, capture_output=True, timeout=120)
        assert done.returncode == 1 and done.stderr == b"", done.stderr[-2000:]
        out = done.stdout.decode("utf-8")
        assert "verification failed: action 1 no longer replays" in out
        assert "\x1b" not in out and ("\\ud800" in out or "\\x1b[2J" in out)


@pytest.mark.parametrize("text", ["password: hunter2\nother: line two\n",
                                  "just text with hunter2 in it\n", "- hunter2\n- line two\n"])
@pytest.mark.parametrize("command", [["simulate", "--games", "1", "--seed", "1"], ["play"]])
def test_a_context_file_that_is_not_an_environs_is_not_quoted(capsys, no_gui, tmp_path, text,
                                                               command):
    """--option context=FILE with some other file of the player's: one line that names at
    most its first key, never what the file says (simulate, and play before any window)."""
    path = tmp_path / "notes.yaml"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, command[0], "--game", "freedom", "--scenario", "custom",
                         *command[1:], "--option", f"context={path}")
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("error:")
    assert "hunter2" not in err and "line two" not in err and "other" not in err


def test_play_bounds_max_turns_before_any_window(capsys, fake_gui):
    code, _, err = run(capsys, "play", "--game", "struggle", "--scenario", "7",
                       "--option", "max_turns=1000000000")
    assert code == 2 and err.strip() == ("error: option max_turns must be from 1 to 999, "
                                         "not '1000000000'")
    assert fake_gui == []


def test_simulate_help_names_every_policy_each_game_offers(capsys):
    code, out, _ = run(capsys, "simulate", "--help")
    assert code == 0
    text = " ".join(out.split())
    from struggle_desktop import games
    for game_id in games.ALL_GAME_IDS:
        assert f"{game_id} {'|'.join(games.get_game(game_id).policies)}" in text


def test_help_and_version_exit_0(capsys):
    assert run(capsys, "--help")[0] == 0
    code, out, _ = run(capsys, "--version")
    from struggle_desktop import __version__
    assert code == 0 and out.strip() == f"struggle-desktop {__version__}"


# ------------------------------------------------------------------------------ the GUI path
@pytest.mark.parametrize("argv", [[], ["play", "--game", "struggle", "--scenario", "3"]])
def test_gui_commands_without_a_desktop_window(capsys, no_gui, argv):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert err == "error: the desktop window is not available in this build yet\n"


def test_gui_commands_hand_checked_arguments_to_the_window(capsys, fake_gui, save_file):
    assert run(capsys)[0] == 0
    assert run(capsys, "play", "--game", "struggle", "--scenario", "3", "--seed", "9",
               "--option", "stargates=on")[0] == 0
    assert run(capsys, "open", str(save_file))[0] == 0
    assert run(capsys, "render", "--game", "struggle", "--scenario", "3", "--out", "m.png",
               "--size", "1600x1000")[0] == 0
    assert run(capsys, "render", str(save_file), "--out", "m.PNG")[0] == 0
    gui, play, opened, render, render_file = fake_gui
    assert gui.command is None
    assert (play.game, play.scenario, play.seed, play.options) == ("struggle", "3", 9,
                                                                   {"stargates": "on"})
    assert opened.file == str(save_file)
    assert render.size == (1600, 1000) and render.out == "m.png"
    assert render_file.file == str(save_file) and render_file.size is None


# ------------------------------------------------------------------------------ simulate
@pytest.fixture(scope="module")
def batch(tmp_path_factory, game):
    """Scenario 3 (5 turns), 4 games, seed 1, one job, with logs: (exit code, summary, logs)."""
    log_dir = tmp_path_factory.mktemp("logs")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = cli.main([*SIM, "--games", "4", "--seed", "1", "--json", "--log-dir", str(log_dir)])
    return code, json.loads(out.getvalue()), log_dir


def simulate_json(capsys, *extra: str) -> tuple[int, dict]:
    code, out, err = run(capsys, *SIM, "--json", *extra)
    assert err == ""
    return code, json.loads(out)


def test_simulate_json_has_every_field(capsys, game):
    """SGE-VIC-6: the outcomes are named by the victory levels, and the counts add up."""
    code, s = simulate_json(capsys, "--games", "2", "--seed", "1", "--option", "policy=random")
    assert code == 0
    assert SUMMARY_FIELDS <= set(s)
    assert (s["game"], s["scenario"], s["games"], s["seed"], s["policy"]) == ("struggle", "3", 2,
                                                                           1, "random")
    assert s["completed"] == 2 and s["errors"] == 0 and s["error_samples"] == []
    assert sum(s["outcomes"].values()) == 2
    levels = game.data["victory"]["levels"]
    assert set(s["outcomes"]) <= set(levels)
    assert s["turns_mean"] == 5 and isinstance(s["vp_mean"], float)
    assert s["seconds"] > 0 and s["games_per_second"] > 0
    assert len(s["digest"]) == 64 and int(s["digest"], 16) >= 0


def test_same_seed_same_digest_whatever_the_jobs(capsys, batch):
    code, one_job, _ = batch
    again, two_jobs = simulate_json(capsys, "--games", "4", "--seed", "1", "--jobs", "2")
    assert code == again == 0
    assert one_job["completed"] == two_jobs["completed"] == 4
    assert one_job["digest"] == two_jobs["digest"]
    assert one_job["outcomes"] == two_jobs["outcomes"]
    assert (one_job["jobs"], two_jobs["jobs"]) == (1, 2)


def test_other_seed_other_digest(capsys):
    _, a = simulate_json(capsys, "--games", "1", "--seed", "1")
    _, b = simulate_json(capsys, "--games", "1", "--seed", "2")
    assert a["digest"] != b["digest"]


def test_the_digest_hashes_the_final_state_digests_in_order(game):
    results = [simulate.run_one(game, "3", 8, k, {}, "bot") for k in range(2)]
    summary = simulate.simulate(game, "3", 2, 8)
    expected = hashlib.sha256("".join(r.digest for r in results).encode()).hexdigest()
    assert summary["digest"] == expected
    assert results[0].seed == simulate.game_seed(8, 0) != results[1].seed


def test_log_dir_files(batch):
    code, _, log_dir = batch
    assert code == 0
    assert sorted(p.name for p in log_dir.iterdir()) == [f"game-{k}.jsonl" for k in range(4)]
    for k in range(4):
        lines = [json.loads(line) for line in
                 (log_dir / f"game-{k}.jsonl").read_text(encoding="utf-8").splitlines()]
        turns = [(i, line) for i, line in enumerate(lines) if line["kind"] == "turn"]
        assert [line["turn"] for _, line in turns] == [1, 2, 3, 4, 5]
        for i, line in turns:
            assert {"ci", "rp", "vp"} <= set(line)
            start = lines[i + 1]   # the game's own turn-start entry follows its turn line
            assert start["kind"] == "turn-start" and start["turn"] == line["turn"]
        final = lines[-1]
        assert final["kind"] == "final" and final["turns"] == 5
        assert final["outcome"] in ("collapse", "decline", "survival", "expanding", "galactic")
        assert {"ci", "rp", "vp"} <= set(final)
        entries = [line for line in lines[:-1] if line["kind"] != "turn"]
        assert entries and all(set(e) == {"turn", "phase", "rule", "kind", "text", "refs", "dice"}
                               for e in entries)
        assert any(e["dice"] for e in entries)


def test_human_summary(capsys):
    code, out, err = run(capsys, *SIM, "--games", "1", "--seed", "3")
    assert code == 0 and err == ""   # no progress bar when stderr is not a terminal
    assert "struggle scenario 3: 1 games" in out and "digest " in out and "outcomes:" in out


def test_progress_bar_is_plain_text():
    class Stream:
        text = ""

        def write(self, s):
            self.text += s

        def flush(self):
            pass

    stream = Stream()
    bar = cli.ProgressBar(stream)
    bar(0, 4)
    bar(2, 4)
    bar(4, 4)
    assert stream.text.count("\r") == 3 and stream.text.endswith("\n") and "4/4" in stream.text


def test_a_failing_game_is_counted_not_a_crash(capsys, game, monkeypatch, tmp_path):
    bad_seed = simulate.game_seed(1, 1)
    original = type(game).choose_action

    def choose(self, state, role, policy, rng, cache=None):
        if state["seed"] == bad_seed and state["turn"] == 2:
            raise ValueError("the bot tripped")
        return original(self, state, role, policy, rng, cache=cache)

    monkeypatch.setattr(type(game), "choose_action", choose)
    code, out, err = run(capsys, *SIM, "--games", "3", "--seed", "1", "--json",
                         "--log-dir", str(tmp_path))
    s = json.loads(out)
    assert code == 1
    assert (s["completed"], s["errors"]) == (2, 1)
    assert len(s["error_samples"]) == 1 and "game 1" in s["error_samples"][0]
    assert "ValueError: the bot tripped" in s["error_samples"][0]
    assert sum(s["outcomes"].values()) == 2
    final = json.loads((tmp_path / "game-1.jsonl").read_text().splitlines()[-1])
    assert final["kind"] == "final" and final["outcome"] == "error" and final["turns"] == 2


def test_a_runaway_game_is_stopped(game, monkeypatch):
    monkeypatch.setattr(simulate, "MAX_ACTIONS", 5)
    s = simulate.simulate(game, "3", 1, 1)
    assert s["errors"] == 1 and "runaway" in s["error_samples"][0]


def test_a_dead_end_is_an_error(game, monkeypatch):
    monkeypatch.setattr(type(game), "outcome", lambda self, state: None)
    s = simulate.simulate(game, "3", 1, 1)
    assert s["errors"] == 1 and "dead end" in s["error_samples"][0]


# ------------------------------------------------------------------------------ catalog
def test_catalog_json(capsys):
    code, out, err = run(capsys, "catalog", "--game", "struggle", "--json")
    assert code == 0 and err == ""
    c = json.loads(out)
    assert c["game"] == "struggle" and c["title"] == "Struggle for the Galactic Empire"
    events = c["events"]
    assert events["kinds"] == len(events["markers"]) == 39
    assert events["total"] == sum(m["count"] for m in events["markers"]) == 100
    assert all(m["effect"] and m["rule"].startswith("SGE-EV-") for m in events["markers"])
    assert len(c["tables"]) >= 20
    for table in c["tables"]:
        assert set(table) >= {"id", "title", "reconstructed", "rules", "overridden"}
        assert isinstance(table["reconstructed"], bool) and table["rules"]
    flags = {t["id"]: t["reconstructed"] for t in c["tables"]}
    assert flags["ci_changes"] is False and flags["combat_results"] is True
    assert [s["id"] for s in c["scenarios"]] == ["1", "2", "3", "4", "5", "6", "7"]
    assert all({"id", "title", "turns", "required_options", "description"} <= set(s)
               for s in c["scenarios"])
    assert {u["code"] for u in c["units"]} >= {"SF", "AF", "CG", "IO", "CF", "WS", "TH"}
    assert all("mil" in u and "cost" in u for u in c["units"])
    assert "nexus" in c["options"]
    assert c["map"]["sectors"] == 76 and c["map"]["core"] == 1 and c["map"]["system_sectors"]
    rules = c["rule_ids"]
    assert rules["count"] == len(rules["rules"]) == 254
    assert rules["by_source"] == {"DECIDED": 158, "SEED": 96}
    assert all(set(r) == {"id", "title", "source", "why"} for r in rules["rules"])


def test_catalog_human_form(capsys):
    code, out, _ = run(capsys, "catalog", "--game", "struggle")
    assert code == 0
    for heading in ("Scenarios", "Options", "Units", "Chaos event markers (39 kinds, 100 markers)",
                    "Tables", "Map", "Rule IDs (254"):
        assert heading in out
    assert "Combat Results Table" in out and "Sector 58  [SEED]" in out


def test_catalog_reports_a_user_override(capsys, monkeypatch, tmp_path):
    from struggle_desktop.engine.data import read_yaml
    from struggle_desktop.games.struggle.catalog import build_catalog
    from struggle_desktop.games.struggle.data import StruggleData
    from struggle_desktop.games.struggle.game import StruggleGame

    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    aert = read_yaml(ROOT / "assets" / "tables" / "struggle" / "aert.yaml")
    folder = tmp_path / "config" / "overrides" / "struggle"
    folder.mkdir(parents=True)
    (folder / "aert.yaml").write_text(json.dumps(aert), encoding="utf-8")   # JSON is YAML
    c = build_catalog(StruggleGame(StruggleData()))
    assert [t["id"] for t in c["tables"] if t["overridden"]] == ["aert"]
    assert set(c["overrides"]) == {"aert"}


# ------------------------------------------------------------------------------ verify
def unchanged(path: Path):
    """The bytes and the modification time of a file, to prove verify never writes."""
    return path.read_bytes(), path.stat().st_mtime_ns


def test_verify_a_good_save(capsys, save_file):
    before = unchanged(save_file)
    code, out, err = run(capsys, "verify", str(save_file))
    assert code == 0 and err == "" and "ok" in out
    code, out, _ = run(capsys, "verify", str(save_file), "--json")
    report = json.loads(out)
    assert code == 0 and report["ok"] is True and report["actions"] == 30
    assert report["snapshot_matches"] is True and report["file"] == str(save_file)
    assert unchanged(save_file) == before


def test_verify_a_tampered_action_list(capsys, save_file, tmp_path):
    def tamper(document):
        document["actions"][-1]["action"] = {"verb": "surrender"}

    path = copy_of(save_file, tmp_path, tamper)
    before = unchanged(path)
    code, out, err = run(capsys, "verify", str(path))
    assert code == 1 and err == ""
    assert "verification failed" in out and "action 30 no longer replays" in out
    assert unchanged(path) == before


def test_verify_a_tampered_digest_and_snapshot(capsys, save_file, tmp_path):
    path = copy_of(save_file, tmp_path, lambda d: d["digests"][-1].update(digest="0" * 64))
    code, out, _ = run(capsys, "verify", str(path), "--json")
    assert code == 1 and json.loads(out)["ok"] is False

    path = copy_of(save_file, tmp_path, lambda d: d["snapshot"].update(rp=999))
    code, out, _ = run(capsys, "verify", str(path), "--json")
    report = json.loads(out)
    assert code == 1 and report["snapshot_matches"] is False
    assert "stored position" in report["message"]


def test_a_reader_that_stops_early_gets_no_complaint(monkeypatch):
    """``struggle-desktop catalog --game struggle | head -1``: when the reader has gone by the
    time the program's last output leaves its buffer, the program ends quietly (Python used to
    print "Exception ignored ... BrokenPipeError" when it flushed at exit). Here the whole
    output waits in a large buffer in front of a pipe nobody reads any more."""
    from struggle_desktop import cli

    read_end, write_end = os.pipe()
    os.close(read_end)
    stream = open(write_end, "w", buffering=1 << 20, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    assert cli.main(["catalog", "--game", "struggle"]) == cli.EXIT_OK
    stream.flush()              # what Python does at exit: nothing is left to fail
    stream.close()


# ------------------------------------------------------------------------------ from the desktop
class Terminal(io.StringIO):
    """A stream that is a terminal (``isatty``), as when a person types the command."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def refusal_dialogs(monkeypatch, qapp):
    """Refusal dialogs recorded instead of shown: (title, text). The tests' offscreen screen
    counts as one a person sees, and no autopilot script runs."""
    from PySide6.QtWidgets import QMessageBox

    from struggle_desktop.ui import app
    shown: list = []
    monkeypatch.setattr(app, "UNSEEN_PLATFORMS", set())
    monkeypatch.delenv(app.AUTOPILOT_VARIABLE, raising=False)
    monkeypatch.setattr(QMessageBox, "critical",
                        lambda parent, title, text, *a, **k: shown.append((title, text)))
    monkeypatch.setattr(sys, "stdin", io.StringIO())        # started from the desktop
    return shown


@pytest.mark.parametrize("argv, expected", [
    (["open", "KAPUTT"], "is not a save file"),
    (["play", "--game", "struggle", "--scenario", "3", "--option", "warp=on"],
     "unknown option 'warp'"),
    (["play", "--game", "struggle", "--scenario", "99"], "unknown scenario '99'"),
    (["--bogus"], "unrecognized arguments"),
])
def test_a_window_command_started_from_the_desktop_shows_its_refusal(
        capsys, refusal_dialogs, tmp_path, argv, expected):
    """No terminal (a double-clicked save, the menu): the refusal is a dialog as well as the
    error line, exit 2, and no window opens."""
    kaputt = tmp_path / "kaputt.sgsave"
    kaputt.write_text("garbage{", encoding="utf-8")
    argv = [str(kaputt) if word == "KAPUTT" else word for word in argv]
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("error:")
    assert len(refusal_dialogs) == 1
    title, text = refusal_dialogs[0]
    assert expected in text and text == err.strip()[len("error: "):]


def test_from_a_terminal_a_refusal_is_the_error_line_only(capsys, refusal_dialogs, tmp_path,
                                                          monkeypatch):
    kaputt = tmp_path / "kaputt.sgsave"
    kaputt.write_text("garbage{", encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", Terminal())
    code, _, err = run(capsys, "open", str(kaputt))
    assert code == 2 and err.startswith("error:") and "is not a save file" in err
    assert refusal_dialogs == []


def test_a_headless_command_never_shows_a_dialog(capsys, refusal_dialogs):
    """simulate, verify... are for terminals and scripts: their refusals stay on stderr."""
    code, _, err = run(capsys, *SIM, "--games", "1", "--seed", "1", "--option", "warp=on")
    assert code == 2 and err.startswith("error:")
    assert refusal_dialogs == []
