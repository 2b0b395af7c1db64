"""Forecasts (struggle_desktop/forecast.py and ``struggle-desktop forecast``): the same seed
gives the same figures on any number of workers, the outcomes add up to the games played,
only the future dice change with the seed, the position forecast from is left as it was, and
a cancel stops the workers."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
from pathlib import Path

import pytest

from struggle_desktop import forecast as forecasting
from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.errors import BadOption
from tests.engine.test_timeline import played

ROOT = Path(__file__).resolve().parents[1]
FIELDS = {"game", "from_action", "games", "completed", "errors", "outcomes", "turns",
          "seconds", "digest"}


@pytest.fixture(scope="module")
def struggle_start():
    """Struggle scenario 1 a few actions in (the set-up placed)."""
    return forecasting.start_from(played("struggle", "1", {}, 8))


def test_the_same_seed_gives_the_same_forecast_on_any_number_of_workers(struggle_start):
    one = forecasting.forecast(struggle_start, games=24, seed=4, jobs=1)
    two = forecasting.forecast(struggle_start, games=24, seed=4, jobs=2)
    for key in ("outcomes", "shares", "turns", "digest", "completed", "from_action"):
        assert one[key] == two[key], key
    other = forecasting.forecast(struggle_start, games=24, seed=5, jobs=1)
    assert other["digest"] != one["digest"]


def test_outcomes_add_up_and_the_figures_start_from_the_position(struggle_start):
    summary = forecasting.forecast(struggle_start, games=30, seed=1)
    assert FIELDS <= set(summary)
    assert summary["games"] == summary["completed"] + summary["errors"] == 30
    assert sum(summary["outcomes"].values()) == summary["completed"] == 30
    assert summary["from_action"] == 8 and not summary["cancelled"]
    assert abs(sum(s["share"] for s in summary["shares"].values()) - 1) < 1e-3
    for share in summary["shares"].values():
        assert share["low"] <= share["share"] <= share["high"]
    first = summary["turns"][0]
    assert first["turn"] == struggle_start.state["turn"]
    # Every game starts from the same position: no spread on the first row.
    game = forecasting.resolve_game("struggle")
    now = forecasting.flat_tracks(game.tracks(struggle_start.state))
    for name, figures in first["tracks"].items():
        assert figures["p10"] == figures["p90"] == figures["mean"] == now[name]
    for row in summary["turns"]:
        for figures in row["tracks"].values():
            assert figures["p10"] <= figures["p50"] <= figures["p90"]


def test_the_position_forecast_from_is_not_touched(struggle_start):
    before = digest(struggle_start.state)
    forecasting.forecast(struggle_start, games=6, seed=2, jobs=2)
    assert digest(struggle_start.state) == before


def test_only_the_future_dice_change(struggle_start):
    """Game k is the position with the generator reseeded: the same k, the same game."""
    game = forecasting.resolve_game("struggle")
    a = forecasting.play_on(game, struggle_start, 9, 3)
    b = forecasting.play_on(game, struggle_start, 9, 3)
    c = forecasting.play_on(game, struggle_start, 9, 4)
    assert a.digest == b.digest != c.digest


@pytest.mark.parametrize("game_id, scenario, options", [
    ("battles", "civil-war", {}),
    ("nobles", "standard", {"houses": 2, "seat1": "ai", "seat2": "ai", "turn_limit": 4}),
    ("freedom", "a3", {}),
])
def test_every_game_with_a_program_player_forecasts(game_id, scenario, options):
    start = forecasting.start_from(played(game_id, scenario, options, 3))
    summary = forecasting.forecast(start, games=4, seed=1)
    assert summary["completed"] == sum(summary["outcomes"].values()) == 4, summary["error_samples"]


def test_a_cancel_stops_the_workers(struggle_start):
    seen = []

    def cancelled() -> bool:
        return len(seen) > 0

    summary = forecasting.forecast(struggle_start, games=400, seed=1, jobs=2,
                                   on_results=lambda futures: seen.append(len(futures)),
                                   cancelled=cancelled)
    assert summary["cancelled"] and 0 < summary["games"] < 400
    assert summary["games"] == sum(summary["outcomes"].values()) + summary["errors"]
    assert multiprocessing.active_children() == []


def test_results_arrive_as_games_finish(struggle_start):
    counts = []
    forecasting.forecast(struggle_start, games=35, seed=1,
                         on_results=lambda futures: counts.append(len(futures)))
    assert counts == sorted(counts) and counts[-1] == 35 and len(counts) >= 4


def test_a_finished_game_and_bad_numbers_are_refused(struggle_start):
    with pytest.raises(BadOption, match="at least 1"):
        forecasting.forecast(struggle_start, games=0)
    with pytest.raises(BadOption, match="jobs"):
        forecasting.forecast(struggle_start, games=2, jobs=0)
    over = played("freedom", "a5", {}, 100, seed=1)
    assert over.game.outcome(over.state) is not None
    with pytest.raises(BadOption, match="over"):
        forecasting.forecast(forecasting.start_from(over), games=2)


# ------------------------------------------------------------------------- command line
def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "struggle_desktop", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=300)


def test_the_command_line_forecast(tmp_path):
    save = tmp_path / "game.sgsave"
    played("struggle", "1", {}, 8).save(save)
    one = run("forecast", str(save), "--games", "12", "--seed", "3", "--json")
    two = run("forecast", str(save), "--games", "12", "--seed", "3", "--jobs", "2", "--json")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert FIELDS <= set(first) and first["from_action"] == 8
    assert first["digest"] == second["digest"] and first["outcomes"] == second["outcomes"]
    text = run("forecast", str(save), "--games", "5")
    assert text.returncode == 0 and "5 games played on from action 8" in text.stdout


@pytest.mark.parametrize("args, message", [
    (["--games", "0"], "at least 1"),
    (["--games", "3", "--jobs", "0"], "jobs"),
    (["--games", "x"], "invalid int"),
    ([], "--games"),
])
def test_the_command_line_refuses_bad_numbers(tmp_path, args, message):
    save = tmp_path / "game.sgsave"
    played("struggle", "1", {}, 3).save(save)
    done = run("forecast", str(save), *args)
    assert done.returncode == 2 and done.stderr.startswith("error:") and message in done.stderr
    assert "Traceback" not in done.stderr


def test_the_command_line_refuses_bad_files(tmp_path):
    (tmp_path / "cut.sgsave").write_text('{"format":"struggle-desktop-save","actions":[')
    for name in ("missing.sgsave", "cut.sgsave"):
        done = run("forecast", str(tmp_path / name), "--games", "3")
        assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


def test_two_answers_compared_each_begin_every_game():
    session = played("struggle", "1", {}, 40)
    role = session.state["pending"]["role"]
    answers = session.game.legal_actions(session.state, role)
    assert len(answers) >= 2
    first, second = (forecasting.start_after(session, role, a) for a in answers[:2])
    one = forecasting.forecast(first, games=12, seed=2)
    two = forecasting.forecast(second, games=12, seed=2)
    assert one["completed"] == two["completed"] == 12
    assert one["digest"] != two["digest"]
    assert first.first["action"] == answers[0] and session.state["pending"]["role"] == role
    with pytest.raises(BadOption, match="cannot be given"):
        forecasting.start_after(session, role, {"verb": "no-such-answer"})


# ------------------------------------------------------------------ saves of several people
def two_people_save(tmp_path: Path) -> Path:
    path = tmp_path / "two.sgsave"
    played("battles", "civil-war", {"blue_player": "human", "red_player": "human"}, 30).save(path)
    return path


def test_a_save_of_several_people_is_not_forecast(tmp_path):
    """BFG-HID-2: a forecast of the whole position plays on with every side's hidden hand and
    plans, so its figures would tell one person what the other hides: refused as in the
    window, in one line that names --side X (the forecast from one side's view, which
    tests/test_forecast_side.py checks)."""
    save = two_people_save(tmp_path)
    done = run("forecast", str(save), "--games", "3")
    assert done.returncode == 2 and done.stderr.startswith("error:"), done.stderr
    assert done.stderr.count("\n") == 1 and "several people" in done.stderr
    assert "--side X" in done.stderr and done.stdout == ""
    assert "Traceback" not in done.stderr


def test_forecast_refuses_a_side_the_game_has_not(tmp_path):
    done = run("forecast", str(two_people_save(tmp_path)), "--games", "3", "--side", "green")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert done.stderr.startswith("error:") and "blue, red" in done.stderr


def test_one_person_against_the_program_is_still_forecast(tmp_path):
    save = tmp_path / "one.sgsave"
    played("battles", "civil-war", {}, 30).save(save)
    done = run("forecast", str(save), "--games", "2", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["completed"] == 2
