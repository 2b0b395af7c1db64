"""``struggle-desktop branch FILE --at K --out NEW`` and ``render FILE --at K``
(ARCHITECTURE.md section 6): the new save holds the game after its first K actions, verifies,
and plays on exactly as the original did given the same actions; FILE is never changed; bad
positions and targets exit 2 with one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from struggle_desktop.engine import saves
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from tests.engine.test_timeline import played

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "struggle_desktop", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A Battles game 30 actions in, saved."""
    path = tmp_path_factory.mktemp("branch") / "game.sgsave"
    played("battles", "civil-war", {}, 30).save(path)
    return path


def test_branch_writes_the_game_after_k_actions(saved, tmp_path):
    original = saved.read_bytes()
    new = tmp_path / "new.sgsave"
    done = run("branch", str(saved), "--at", "12", "--out", str(new))
    assert done.returncode == 0, done.stderr
    assert "after 12 of its 30 actions" in done.stdout
    assert saved.read_bytes() == original
    assert run("verify", str(new)).returncode == 0
    game = get_game("battles")
    whole = Session.from_document(game, saves.read_document(saved))[0]
    branched = Session.from_document(game, saves.read_document(new))[0]
    assert branched.actions == whole.actions[:12]
    for entry in whole.actions[12:]:
        branched.perform(entry["role"], entry["action"])
    assert branched.game.digest(branched.state) == whole.game.digest(whole.state)


@pytest.mark.parametrize("at", ["0", "30"])
def test_branch_at_either_end(saved, tmp_path, at):
    new = tmp_path / "new.sgsave"
    assert run("branch", str(saved), "--at", at, "--out", str(new)).returncode == 0
    assert run("verify", str(new)).returncode == 0


@pytest.mark.parametrize("args, message", [
    (["--at", "31"], "positions 0 to 30"),
    (["--at", "-1"], "positions 0 to 30"),
    (["--at", "x"], "invalid int"),
    (["--at", "3", "--out", "SAME"], "never changes FILE"),
    (["--out", "NEW"], "--at"),
])
def test_branch_refuses_bad_input(saved, tmp_path, args, message):
    args = [str(saved) if a == "SAME" else str(tmp_path / "new.sgsave") if a == "NEW" else a
            for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "new.sgsave")]
    original = saved.read_bytes()
    done = run("branch", str(saved), *args)
    assert done.returncode == 2 and done.stderr.startswith("error:"), done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert saved.read_bytes() == original
    assert not (tmp_path / "new.sgsave").exists()


def test_render_at_draws_that_position(tmp_path):
    save = tmp_path / "game.sgsave"
    played("struggle", "1", {}, 6).save(save)
    pictures = []
    for at in ("0", "6"):
        out = tmp_path / f"at{at}.png"
        done = run("render", str(save), "--at", at, "--out", str(out), "--size", "500x320")
        assert done.returncode == 0, done.stderr
        pictures.append(out.read_bytes())
    whole = tmp_path / "whole.png"
    assert run("render", str(save), "--out", str(whole), "--size", "500x320").returncode == 0
    # Before the set-up placed the Empire's forces the map looks otherwise; after all six
    # actions it is the save's own position.
    assert pictures[0] != pictures[1] == whole.read_bytes()
    late = run("render", str(save), "--at", "7", "--out", str(tmp_path / "x.png"))
    assert late.returncode == 2 and "positions 0 to 6" in late.stderr


# ------------------------------------------------------------------ render of several sides
def two_people_planning(tmp_path: Path, region: int) -> Path:
    """A two-person Civil War saved while Blue plans its deployment in secret (BFG-HID-3),
    its first fleet sent to ``region``: twin saves that differ only in Blue's secret plan."""
    from struggle_desktop.engine.rng import Rng

    game = get_game("battles")
    session = Session.new(game, "civil-war", 5, {"blue_player": "human", "red_player": "human"})
    rng = Rng.from_seed(4, stream=99)
    while not (session.state["pending"]["kind"] == "deploy"
               and session.state["pending"]["role"] == "blue"):
        role = session.state["pending"]["role"]
        session.perform(role, session.choose(role, "bot", rng))
    fleet = game.legal_actions(session.state, "blue")[0]["fleet"]
    session.perform("blue", {"verb": "assign", "fleet": fleet, "region": region})
    path = tmp_path / f"plan-{region}.sgsave"
    session.save(path)
    return path


def test_render_of_several_sides_draws_what_every_side_may_see(tmp_path):
    """BFG-HID-3: ``render FILE`` of a two-person save draws no side's secret plan: twin saves
    that differ only in Blue's plan give the same picture; ``--side blue`` draws Blue's view,
    plan included, and ``--side red`` Red's, which is again the same for both twins."""
    saves_ = [two_people_planning(tmp_path, region) for region in (1, 6)]
    pictures: dict[tuple, bytes] = {}
    for k, save in enumerate(saves_):
        for side in (None, "blue", "red"):
            out = tmp_path / f"{k}-{side}.png"
            args = ["render", str(save), "--out", str(out), "--size", "640x400"]
            done = run(*args, *(["--side", side] if side else []))
            assert done.returncode == 0, done.stderr
            pictures[k, side] = out.read_bytes()
    assert pictures[0, None] == pictures[1, None]
    assert pictures[0, "red"] == pictures[1, "red"]
    assert pictures[0, "blue"] != pictures[1, "blue"]
    assert pictures[0, None] != pictures[0, "blue"]


def test_render_refuses_a_side_the_game_has_not(tmp_path):
    save = two_people_planning(tmp_path, 1)
    done = run("render", str(save), "--side", "green", "--out", str(tmp_path / "x.png"))
    assert done.returncode == 2 and done.stderr.startswith("error:"), done.stderr
    assert done.stderr.count("\n") == 1 and "blue, red" in done.stderr
    assert not (tmp_path / "x.png").exists()
