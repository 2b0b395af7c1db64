"""The ``passive`` seat level (games/nobles/ai_passive.py): a house that recruits and
garrisons (NH-AI-5, NH-AI-6) and never attacks, for measuring that a house which only waits
loses to the program houses (docs/balance.md)."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME, ai
from struggle_desktop.games.nobles.ai_passive import HOSTILE_ACTIONS, PassivePlayer

from .positions import position
from .test_ai import DONE, run_ai

#: One House Troops of B on Punah; A's ship and two Amazonians one jump from it.
NEAR_PUNAH = [("B", "House Troops", "Punah"), ("A", "Jumpship", "Frost"),
              ("A", "Amazonians", "Frost"), ("A", "Amazonians", "Frost")]


def test_passive_is_a_seat_level_and_no_difficulty():
    """NH-AI-14: a seat may be passive; every program house's level (ai_difficulty) may not."""
    options = GAME.normalize_options("standard", {"houses": 2, "level1": "passive"})
    assert options["levels"] == ["passive", "normal"]
    with pytest.raises(BadOption):
        GAME.normalize_options("standard", {"houses": 2, "ai_difficulty": "passive"})
    state, _ = position(options={"level1": "passive"})
    view = GAME.view(state, "A", with_log=False)
    assert type(ai.player_for(GAME, view, "A", Rng.from_seed(1))) is PassivePlayer


@pytest.mark.parametrize("level, moves", [("hard", True), ("passive", False)])
def test_passive_never_strikes_where_hard_does(level, moves):
    """NH-AI-14: a weak enemy world one jump away: hard flies the Amazonians there, passive ends its
    movement at once."""
    state, _ = position(units=NEAR_PUNAH, controllers={"Frost": "A", "Punah": "B"},
                        options={"level1": level})
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    assert any(m[2]["verb"] == "jump" for m in made) is moves
    if not moves:
        assert [m[2] for m in made] == [DONE]


def test_a_passive_house_never_attacks_in_a_whole_game():
    """NH-AI-5, NH-AI-14: five turns of a 2-house game, A passive against hard B: A answers
    every prompt, never loads or jumps a ship, never buys one, and never takes Intrigue,
    Assassination or Sabotage, nor Diplomacy on a world another house holds; it still
    recruits."""
    options = GAME.simulation_options({"houses": 2, "level1": "passive", "level2": "hard",
                                       "turn_limit": 5})
    session = Session.new(GAME, "standard", 3, options, record_digests=False)
    rng = Rng.from_seed(3)
    bought = 0
    while GAME.outcome(session.state) is None:
        state = session.state
        role = state["pending"]["role"]
        action = GAME.choose_action(state, role, "bot", rng)
        if role == "A":
            assert action["verb"] not in ("load", "jump"), action
            if action["verb"] == "buy":
                bought += 1
                assert GAME.data.units[action["unit"]].category != "jumpship"
            if action["verb"] == "act":
                assert action["kind"] not in HOSTILE_ACTIONS, action
                if action["kind"] == "diplomacy":
                    assert state["worlds"][action["target"]]["controller"] is None
        session.perform(role, action, copy=False)
    assert bought > 0
