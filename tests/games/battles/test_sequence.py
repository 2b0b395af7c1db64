"""Rules tests for the sequence of play (SEQ) of rules-battles.md section 3: the phases of a
turn, the start-of-turn steps, the end-of-turn clean-up and the length of the game."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import ScriptedRng, at_step, place, position

PHASES = ["start", "draw", "deploy", "actions", "politics", "build", "victory"]


def play_recording(state, until_turn, seed=1):
    """Bot play until turn ``until_turn`` begins (or the game ends), recording the
    (turn, phase) after every automated step."""
    seen = []

    def record(s):
        key = (s["turn"], s["phase"])
        if not seen or seen[-1] != key:
            seen.append(key)

    bot = Rng.from_seed(seed, stream=99)
    GAME.advance(state, on_step=record)
    while state["turn"] < until_turn and state["outcome"] is None:
        role = state["pending"]["role"]
        state = GAME.apply(state, role, GAME.choose_action(state, role, "bot", bot))
        GAME.advance(state, on_step=record)
    return state, seen


@pytest.mark.parametrize("scenario", ["civil-war", "invasion"])
def test_each_turn_runs_the_six_phases_in_order(scenario):
    """BFG-SEQ-1: every turn goes start, Action Chit Draw, Deployment, Actions (with the
    region resolutions inside it), Politics, Build, Victory check, and the next turn only
    begins after the Victory check."""
    state, seen = play_recording(GAME.setup(scenario, seed=3), until_turn=3, seed=3)
    for turn in (1, 2):
        phases = [phase for t, phase in seen if t == turn]
        # (the turn number goes up a step before the new turn's first phase is set)
        assert phases[phases.index("start"):] == PHASES
    turn_one = [e for e in state["log"] if e["turn"] == 1]
    resolutions = [e for e in turn_one if " resolves " in e["text"]]
    assert len(resolutions) == 6 and all(e["phase"] == "actions" for e in resolutions)
    politics = [e for e in turn_one if e["text"].startswith("Politics:")]
    assert len(politics) == 1 and politics[0]["phase"] == "politics"


def log_texts(state, turn):
    return [e["text"] for e in state["log"] if e["turn"] == turn]


def is_switch(text):
    return text.startswith("Switcheroo")


def is_better(text):
    return text.startswith("Things Just Get Better") or " rises to " in text


def test_start_of_turn_options_act_from_turn_two_in_a_fixed_order():
    """BFG-SEQ-2, BFG-SEQ-3: with Switcheroo and Things Just Get Better on, turn 1 has
    neither; from turn 2 the turn starts by clearing the resolved marks, then Switcheroo,
    then Things Just Get Better, then the Action Chit Draw (the log's order)."""
    state = GAME.setup("civil-war", seed=2, options={"switcheroo": True, "better": True})
    state, _ = play_recording(state, until_turn=2, seed=2)
    assert state["turn"] == 2
    assert not any(is_switch(t) or is_better(t) for t in log_texts(state, 1))
    texts = log_texts(state, 2)
    begins = texts.index("Turn 2 begins")
    switch = [i for i, t in enumerate(texts) if is_switch(t)]
    better = [i for i, t in enumerate(texts) if is_better(t)]
    draw = [i for i, e in enumerate(e for e in state["log"] if e["turn"] == 2)
            if e["phase"] == "draw"]
    assert switch and better
    assert begins < min(switch) and max(switch) < min(better)
    assert not draw or max(better) < min(draw)
    # The first prompt of turn 2 belongs to the Action Chit Draw, with every mark cleared.
    assert state["phase"] in ("draw", "deploy")
    assert not any(state["regions"][str(n)]["resolved"] for n in range(1, 7))


def test_resolved_marks_are_cleared_at_the_start_of_the_turn():
    """BFG-SEQ-3: a region resolved last turn is unresolved again when the next turn's first
    prompt arrives."""
    state = position(resolve=False)
    for n in range(1, 7):
        state["regions"][str(n)]["resolved"] = True
    state["phase"] = "politics"
    at_step(state, "politics", turn=1)
    state["players"]["blue"]["hand"] = ["Build-1"]
    state["players"]["blue"]["own_chits"].remove("Build-1")
    GAME.advance(state, rng=ScriptedRng(draw_default=0))
    assert state["turn"] == 2 and state["pending"]["kind"] == "discard"
    assert not any(state["regions"][str(n)]["resolved"] for n in range(1, 7))


def end_of_turn(turn=1, ci=50):
    """A position about to run Politics, Build and the Victory check of ``turn``."""
    state = position(resolve=False, ci=ci)
    for n in range(1, 7):
        state["regions"][str(n)]["resolved"] = True
    state["phase"] = "politics"
    return at_step(state, "politics", turn=turn)


def test_tactical_chits_return_and_banked_rp_are_spent_at_the_end_of_the_turn():
    """BFG-SEQ-4: a Tactical chit still on a garrison fleet returns to the common chit pool
    after the Victory check; banked Build-chit RP were added to that turn's Build total
    (and the bank is empty again)."""
    state = end_of_turn()
    place(state, "B-SF1", 2, at="garrison")
    state["fleets"]["B-SF1"]["tactical"] = "Tactical-1"
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    state["players"]["blue"]["banked"] = 2
    GAME.advance(state, rng=ScriptedRng(draw_default=0))
    assert state["pending"]["kind"] == "build" and state["players"]["blue"]["rp"] == 2
    assert state["players"]["blue"]["banked"] == 0
    assert state["fleets"]["B-SF1"]["tactical"] == "Tactical-1"    # not yet: Build phase
    state = GAME.apply(state, "blue", {"verb": "done"})
    GAME.advance(state, rng=ScriptedRng(faces=[6, 1], draw_default=0))   # turn 2 initiative
    assert state["turn"] == 2
    assert state["fleets"]["B-SF1"]["tactical"] is None
    assert "Tactical-1" in state["chit_pool"]
    assert state["players"]["blue"]["rp"] == 2                      # carried over


@pytest.mark.parametrize("turn, ci, ends", [(9, 60, False), (10, 60, True), (10, 50, True),
                                            (10, 51, True)])
def test_the_game_ends_after_turn_ten(turn, ci, ends):
    """BFG-SEQ-5: a CI between the thresholds lets the game go on after turn 9, but turn 10
    is the last: the game is over after its Victory check whatever the CI."""
    state = end_of_turn(turn=turn, ci=ci)
    GAME.advance(state, rng=ScriptedRng(faces=[6, 1], draw_default=0))
    if ends:
        assert state["outcome"] is not None and state["outcome"]["turn"] == 10
        assert state["pending"] is None and state["turn"] == 10
    else:
        assert state["outcome"] is None and state["turn"] == 10


@pytest.mark.parametrize("seed", [2])
def test_played_games_last_at_most_ten_turns(seed):
    """BFG-SEQ-5: bot games end with a result on turn 10 at the latest."""
    state = GAME.advance(GAME.setup("civil-war", seed=seed))
    bot = Rng.from_seed(seed, stream=99)
    while state["outcome"] is None:
        assert state["turn"] <= 10
        role = state["pending"]["role"]
        state = GAME.apply(state, role, GAME.choose_action(state, role, "bot", bot))
        GAME.advance(state)
    assert 1 <= state["outcome"]["turn"] <= 10
