"""Golden Battles games (ARCHITECTURE.md section 8): stored saves whose replay must not change.

``golden/*.json`` are real saves: a Civil War and an Invasion (every optional rule on) played to
the end by the program player, and a Civil War stopped while Blue's secret deployment waits
after Red has made its plan. ``golden/digests.json`` pins each final position.

If a test here fails after a deliberate rules or table change, bump ``RULES_VERSION`` in
``struggle_desktop/games/battles/game.py`` and run ``python tools/make_golden_saves.py --game
battles``; if the change was not meant to alter any game, it is a bug.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from struggle_desktop import cli
from struggle_desktop.engine import saves
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles import GAME

GOLDEN = Path(__file__).resolve().parent / "golden"
PINS = json.loads((GOLDEN / "digests.json").read_text(encoding="utf-8"))
NAMES = sorted(PINS["games"])
REGENERATE = ("if the rules changed on purpose, bump RULES_VERSION in "
              "struggle_desktop/games/battles/game.py and run "
              "python tools/make_golden_saves.py --game battles")


def path_of(name: str) -> Path:
    return GOLDEN / PINS["games"][name]["file"]


def test_every_golden_file_is_pinned_and_the_rules_version_matches():
    files = sorted(p.name for p in GOLDEN.glob("*.json") if p.name != "digests.json")
    assert files == sorted(PINS["games"][n]["file"] for n in NAMES)
    assert PINS["rules_version"] == GAME.rules_version, REGENERATE


@pytest.mark.parametrize("name", NAMES)
def test_a_golden_game_replays_to_its_pinned_digests(name):
    pin = PINS["games"][name]
    path = path_of(name)
    before = path.read_bytes()
    document = saves.read_document(path)
    assert document["game"] == "battles" and len(document["actions"]) == pin["actions"]
    try:
        session, report = Session.load({"battles": GAME}, path)
    except Exception as exc:   # a SaveError says where the replay went astray
        pytest.fail(f"{path.name} no longer replays: {exc}; {REGENERATE}")
    assert report.ok, report.message
    assert GAME.digest(session.state) == pin["digest"], REGENERATE
    state = session.state
    outcome = GAME.outcome(state)
    assert (outcome["result"] if outcome else None) == pin["outcome"]
    assert (state["pending"]["kind"] if state["pending"] else None) == pin["pending"]
    assert not GAME.invariants(state)
    assert path.read_bytes() == before, "loading never writes the file"


@pytest.mark.parametrize("name", NAMES)
def test_verify_accepts_a_golden_game(name, capsys):
    assert cli.main(["verify", str(path_of(name)), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"]


def test_the_game_saved_during_secret_deployment_keeps_the_secret_and_plays_on():
    """BFG-HID-3, BFG-DEP-1: loaded, Red's plan is in the state but not in Blue's view, and
    Blue can finish deploying; then both plans are revealed together."""
    name = next(n for n in NAMES if PINS["games"][n]["stop"] == "secret-deploy")
    session, _ = Session.load({"battles": GAME}, path_of(name))
    state = session.state
    plan = state["players"]["red"]["deploy"]
    assert plan and state["pending"] == {**state["pending"], "kind": "deploy", "role": "blue"}
    assert "deploy" not in GAME.view(state, "blue")["players"]["red"]
    from struggle_desktop.engine.rng import Rng
    rng = Rng.from_seed(1, stream=99)
    while session.state["pending"]["kind"] == "deploy":
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "bot", rng))
    assert all(session.state["fleets"][fid]["at"] == "map" for fid, _ in plan)
