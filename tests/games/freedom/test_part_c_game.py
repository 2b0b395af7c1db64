"""The events deck behind the Freedom game module: scenario c1 set up, played and reported
through ``GAME`` with scripted shuffles, saved and loaded between two Events Segments, the
hidden hands in the views, and the random-play fuzzer."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.freedom import GAME

from .helpers import save_load_and_play_on
from .test_part_b_helpers import ScriptedRng
from .test_part_c_scenario import C1_DECISIONS, c1_script


def test_c1_through_the_game_module():
    # FIG-GEN-7, FIG-EVT-4, FIG-EVT-7: C1's decisions through apply and advance.
    dice = ScriptedRng(c1_script())
    state = GAME.advance(GAME.setup("c1", seed=8), dice=dice)
    queue = list(C1_DECISIONS)
    while GAME.outcome(state) is None:
        p = state["pending"]
        if p["kind"] == "deck_card":
            action = {"verb": "ok"}
        elif p["kind"] == "deck_between":
            action = {"verb": "done"}
        else:
            kind, role, action = queue.pop(0)
            assert (p["kind"], p["role"]) == (kind, role)
        state = GAME.advance(GAME.apply(state, p["role"], action), dice=dice)
    assert not queue and dice.left == 0
    places = state["places"]
    assert places["lasting"] == ["H#1", "H#3", "H#2", "IS#4", "IS#2"]
    assert state["first_right"] == "imperial"
    outcome = GAME.outcome(state)
    assert outcome["result"] == "resolved" and outcome["changes"][-1]["rule"] == "FIG-EVT-2"


def test_only_the_side_asked_may_answer():
    # FIG-EVT-6: the First Right holder is asked; the other side's answer is refused.
    state = GAME.advance(GAME.setup("c1", seed=8))
    assert state["pending"]["role"] == "rebel"
    with pytest.raises(IllegalAction):
        GAME.apply(state, "imperial", {"verb": "ok"})


def test_views_hide_hands_and_decks():
    # FIG-EVT-2: each side sees its own hand; the other's is a count.
    state = GAME.advance(GAME.setup("c1", seed=8))
    rebel = GAME.view(state, "rebel")
    imperial = GAME.view(state, "imperial")
    assert rebel["places"]["hands"]["rebel"] == ["RS#1", "RS#5"]
    assert rebel["places"]["hands"]["imperial"] == {"count": 2, "historic": []}
    assert imperial["places"]["hands"]["imperial"] == ["IS#4", "IS#2"]
    assert rebel["places"]["g_deck"] == 26 and rebel["places"]["secret_decks"]["imperial"] == 4


def test_save_and_load_between_events_segments(tmp_path):
    # FIG-EVT-4, FIG-EVT-12: saved after a few turns, loaded by replay to the same digest,
    # both copies continue alike to the last turn.
    session = Session.new(GAME, "c1", 21)
    player = Rng.from_seed(1, stream=77)
    while session.state["turn"] < 4:
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "simple", player))
    save_load_and_play_on(session, tmp_path / "c1.json", seed=9)


@pytest.mark.parametrize("seed", [1, 2])
def test_random_play_through_the_game_module(seed):
    # FIG-EVT-4: random legal actions, refused bogus ones, always an end.
    result = fuzz_game(GAME, "c1", seed)
    assert result.ok, result.problems
    assert result.outcome == "resolved"


def test_the_game_lists_the_deck_sides_among_its_roles():
    """FIG-GEN-7: the events deck's prompts go to roles the game module declares."""
    from struggle_desktop.games.freedom import GAME, deck

    assert set(deck.SIDES) <= set(GAME.roles)
    assert {GAME.opponent(s) for s in deck.SIDES} == set(deck.SIDES)
    assert GAME.opponent("phasing") == "enemy"


def test_no_view_names_the_scenarios_fixed_set_up():
    """FIG-EVT-7: c1 fixes both hands and the tops of the decks; neither side's view keeps
    that list (it would name the other side's cards and the cards still to come)."""
    from struggle_desktop.games.freedom import GAME, deck

    state = GAME.advance(GAME.setup("c1", 1))
    assert state["setup"]["hands"]
    for side in deck.SIDES:
        assert "setup" not in GAME.view(state, side)
