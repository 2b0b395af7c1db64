"""Golden Noble Houses games (ARCHITECTURE.md section 8): stored saves whose replay must not
change.

``golden/*.json`` are real saves: a two-house game played by the program to a six-turn limit,
a four-house game of random legal play stopped after 400 decisions, and a three-house game
stopped while one house's nuclear launch waits after another house in the hex has declared
its own in secret. ``golden/digests.json`` pins each final position.

If a test here fails after a deliberate rules or table change, bump ``RULES_VERSION`` in
``struggle_desktop/games/nobles/game.py`` and run ``python tools/make_golden_saves.py --game
nobles``; if the change was not meant to alter any game, it is a bug.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.nobles import GAME
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


def test_the_game_saved_during_a_secret_launch_keeps_the_secret_and_plays_on():
    """NH-SIM-2, NH-NUK-3: loaded, the other house's launch is in the state but in no view;
    once the waiting house has declared, every launch is revealed together."""
    session = GOLDEN.load(GOLDEN.named("hidden-launch"))
    state = session.state
    waiting = state["pending"]["role"]
    frame = next(f for f in reversed(state["stack"]) if "declared" in f)
    others = {h: d for h, d in frame["declared"].items() if h != waiting and d}
    assert others, "another house has declared"
    assert state["exchange"]["launches"] is None
    for role in state["houses"]:
        view = GAME.view(state, role)
        assert "stack" not in view and "rng" not in view
        assert view["exchange"]["launches"] is None
    rng = Rng.from_seed(1, stream=99)
    while session.state["pending"]["kind"] == "launch":
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "bot", rng))
    launches = session.state["exchange"]["launches"]
    assert launches is not None, "every declaration is revealed once the last is made"
    launched = {x["nuke"]: x["target"] for x in launches}
    for house, declared in others.items():
        for nuke, target in declared.items():
            assert launched.get(nuke) == target, (house, nuke)   # a held nuke is not launched
