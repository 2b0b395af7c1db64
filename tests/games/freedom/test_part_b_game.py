"""The chit-mug mode behind the Freedom game module: scenario b1 set up, played and reported
through ``GAME``, saved and loaded in the middle of the environs, the program's players and
the random-play fuzzer."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import BadOption, IllegalAction
from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.chits_data import chit_tables

from .helpers import save_load_and_play_on
from .test_part_b_helpers import ScriptedRng, data, order
from .test_part_b_scenario import B1_DRAWS


def test_b1_through_the_game_module():
    # FIG-GEN-7, FIG-CHIT-8, FIG-CHIT-25: the same B1 as on its own, through setup, apply,
    # advance and outcome.
    dice = ScriptedRng(order(chit_tables(data()).mug("urban"), B1_DRAWS))
    state = GAME.advance(GAME.setup("b1", seed=4), dice=dice)
    while GAME.outcome(state) is None:
        assert GAME.legal_actions(state, "enemy") == []
        state = GAME.advance(GAME.apply(state, "phasing", {"verb": "draw"}), dice=dice)
    assert dice.left == 0
    outcome = GAME.outcome(state)
    assert outcome["result"] == "resolved"
    g1, g2 = outcome["changes"][:2]
    assert (g1["letters"], g1["regular"], g2["letters"], g2["bonus"]) == (2, 2, 2, 1)


def test_b1_refuses_what_is_not_listed_and_checks_options():
    # FIG-CHIT-7: only the phasing player draws or stops; FIG-CHIT-20: options are checked.
    state = GAME.advance(GAME.setup("b1", seed=2))
    with pytest.raises(IllegalAction):
        GAME.apply(state, "enemy", {"verb": "draw"})
    with pytest.raises(IllegalAction):
        GAME.apply(state, "phasing", {"verb": "stop", "group": "G9"})
    with pytest.raises(BadOption):
        GAME.setup("b1", seed=2, options={"chit_method": "dice"})
    state = GAME.setup("b1", seed=2, options={"chit_method": "d66", "drama": "on"})
    assert state["options"] == {"chit_method": "d66", "allow_repeats": False, "drama": True}


def test_the_view_hides_the_mug_order():
    # FIG-CHIT-6: the mug is hidden; its size is shown.
    state = GAME.advance(GAME.setup("b1", seed=2))
    view = GAME.view(state, "phasing")
    assert view["mug"] == 35 and view["legal_actions"][0] == {"verb": "draw"}
    assert "rng" not in view and "stack" not in view


def test_save_and_load_in_the_middle_of_the_environs(tmp_path):
    # FIG-CHIT-6, FIG-CHIT-22: saved between two draws (Drama on), loaded by replay to the
    # same digest, then both copies play on alike.
    session = Session.new(GAME, "b1", 11, {"drama": True})
    rng = Rng.from_seed(3, stream=77)
    for _ in range(3):
        pending = session.state["pending"]
        session.perform(pending["role"], GAME.choose_action(session.state, pending["role"],
                                                            "simple", rng))
    assert GAME.outcome(session.state) is None and len(session.state["drawn"]) == 2
    save_load_and_play_on(session, tmp_path / "b1.json", seed=5)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_play_through_the_game_module(seed):
    # FIG-CHIT-7: random legal actions, refused bogus ones, always an end.
    result = fuzz_game(GAME, "b1", seed, {"drama": True})
    assert result.ok, result.problems
    assert result.outcome == "resolved"
