"""NH-AI-14: the program's level set seat by seat (``level1`` .. ``level4``), beside the one
level of every program house (``ai_difficulty``); a game with every house at one level stores
its options as it always did."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.games.nobles import ai

ROOT = Path(__file__).resolve().parents[3]
GAME = get_game("nobles")


def stored(**options):
    return GAME.normalize_options("standard", {"houses": 2, **options})


def test_one_level_for_every_house_stores_what_it_always_did():
    assert "levels" not in stored()
    assert "levels" not in stored(ai_difficulty="hard", level1="same", level2="hard")
    assert stored(ai_difficulty="hard")["ai_difficulty"] == "hard"


def test_levels_seat_by_seat():
    options = stored(level1="hard", level2="easy")
    assert options["levels"] == ["hard", "easy"]
    options = stored(ai_difficulty="easy", level2="hard", houses=3)
    assert options["levels"] == ["easy", "hard", "easy"]


@pytest.mark.parametrize("key, value", [("level1", "brilliant"), ("level5", "hard")])
def test_a_bad_level_is_refused(key, value):
    with pytest.raises(BadOption):
        stored(**{key: value})


def test_each_program_house_plays_at_its_own_level():
    """The NH-AI-14 preset a house's decisions use is its seat's."""
    session = Session.new(GAME, "standard", 4, {"houses": 2, "seat1": "ai", "seat2": "ai",
                                                "level1": "easy", "level2": "hard"})
    presets = GAME.data["ai"]["difficulty"]
    seen = set()
    rng = Rng.from_seed(1, stream=99)
    for _ in range(200):
        role = session.state["pending"]["role"]
        view = GAME.view(session.state, role)
        player = ai.Player(GAME, view, role, rng)
        assert player.preset == presets["easy" if role == "A" else "hard"]
        seen.add(role)
        session.perform(role, session.choose(role, "bot", rng))
        if seen == {"A", "B"}:
            break
    assert seen == {"A", "B"}


def test_simulate_takes_levels_seat_by_seat():
    done = subprocess.run(
        [sys.executable, "-m", "struggle_desktop", "simulate", "--game", "nobles", "--scenario",
         "standard", "--games", "1", "--seed", "2", "--option", "houses=2", "--option",
         "turn_limit=2", "--option", "level1=hard", "--option", "level2=easy", "--json"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    refused = subprocess.run(
        [sys.executable, "-m", "struggle_desktop", "simulate", "--game", "nobles", "--scenario",
         "standard", "--games", "1", "--seed", "2", "--option", "level2=superb"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert refused.returncode == 2 and refused.stderr.startswith("error:")
