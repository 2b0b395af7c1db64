"""Golden Battles games (ARCHITECTURE.md section 8): stored saves whose replay must not change.

``golden/*.json`` are real saves: a Civil War and an Invasion (every optional rule on) played to
the end by the program player, and a Civil War stopped while Blue's secret deployment waits
after Red has made its plan. ``golden/digests.json`` pins each final position.

If a test here fails after a deliberate rules or table change, bump ``RULES_VERSION`` in
``struggle_desktop/games/battles/game.py`` and run ``python tools/make_golden_saves.py --game
battles``; if the change was not meant to alter any game, it is a bug.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from struggle_desktop.games.battles import GAME
from tests.golden_games import GoldenSet

GOLDEN = GoldenSet(GAME, Path(__file__).resolve().parent / "golden")


def test_every_golden_file_is_pinned_and_the_rules_version_matches():
    GOLDEN.check_pinned()


@pytest.mark.parametrize("name", GOLDEN.names)
def test_a_golden_game_replays_to_its_pinned_digests(name):
    GOLDEN.check_replay(name)


@pytest.mark.parametrize("name", GOLDEN.names)
def test_verify_accepts_a_golden_game(name, capsys):
    GOLDEN.check_verify(name, capsys)


def test_the_game_saved_during_secret_deployment_keeps_the_secret_and_plays_on():
    """BFG-HID-3, BFG-DEP-1: loaded, Red's plan is in the state but not in Blue's view, and
    Blue can finish deploying; then both plans are revealed together."""
    session = GOLDEN.load(GOLDEN.named("secret-deploy"))
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
