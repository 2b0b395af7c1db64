"""Politics and victory (rules-battles.md sections 10 and 12): the end-of-turn phases run from
a ``turn`` frame on hand-made states, and Illumination during the Actions phase."""

from __future__ import annotations

import pytest

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import ScriptedDice, hand_state, put, set_region

THRESHOLDS = {1: (0, 101), 2: (5, 96), 3: (10, 91), 4: (15, 86), 5: (20, 81), 6: (25, 76),
              7: (30, 71), 8: (35, 66), 9: (40, 61)}


def end_of_turn(turn, ci, step="victory"):
    """A state at ``step`` of turn ``turn`` (under the game frame) with nothing to build."""
    return hand_state(turn=turn, ci=ci, phase=step,
                      stack=[{"proc": "game", "step": "turns"}, {"proc": "turn", "step": step}])


def control(state, number, side, fid, P=None):
    if P is not None:
        set_region(state, number, P=P)
    put(state, fid, "garrison", number)
    state["regions"][str(number)]["controller"] = side


def test_politics_adds_blue_p_and_subtracts_red_p_as_one_net_change():
    """BFG-POL-1, BFG-POL-2: Blue controls P 4 and P 3, Red controls P 5: the CI moves from
    50 by +7 - 5 = 52, logged once with both parts; uncontrolled regions count for nobody."""
    state = end_of_turn(1, 50, step="politics")
    control(state, 1, "blue", "B-SF1", P=4)
    control(state, 2, "blue", "B-SF2", P=3)
    control(state, 3, "red", "R-SF1", P=5)
    set_region(state, 4, P=6)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["ci"] == 52
    entries = [e for e in state["log"] if e["rule"] == "BFG-POL-2"]
    assert len(entries) == 1 and "+7" in entries[0]["text"] and "-5" in entries[0]["text"]


def acting_state(turn, ci, hand):
    """Blue to act in the Actions phase (with the rest of the turn below it, but no next
    turn), holding ``hand``; every region is empty."""
    state = hand_state(turn=turn, ci=ci, phase="actions",
                       stack=[{"proc": "turn", "step": "politics"},
                              {"proc": "actions", "step": "act", "first": None}])
    state["to_act"] = "blue"
    state["players"]["blue"]["hand"] = list(hand)
    return state


def test_illumination_moves_the_ci_at_once_during_the_actions_phase():
    """BFG-POL-3: Blue's Illumination (CI effect) adds its d6 to the CI straight away, before
    any other action or the Politics phase."""
    state = acting_state(1, 50, ["Illumination-1"])
    dice = ScriptedDice([4])
    GAME.advance(state, rng=dice)
    GAME.apply(state, "blue", {"verb": "play", "chit": "Illumination-1", "effect": "ci"},
               copy=False)
    GAME.advance(state, rng=dice)
    GAME.apply(state, "red", {"verb": "pass"}, copy=False)
    GAME.advance(state, rng=dice)
    assert state["ci"] == 54 and state["phase"] == "actions"
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"
    assert dice.left == 0


@pytest.mark.parametrize("red_answer, final_ci, winner", [(None, 104, "blue"),
                                                          ("Illumination-2", 98, None)])
def test_no_victory_in_the_middle_of_a_turn(red_answer, final_ci, winner):
    """BFG-VIC-5, BFG-VIC-1: on turn 1 Blue's Illumination takes the CI from 99 to 104 (past
    101) during the Actions phase: nobody wins yet. If Red then plays its own Illumination
    (-6), the CI ends the turn at 98 and nobody wins; otherwise Blue wins, but only after
    the Build phase."""
    state = acting_state(1, 99, ["Illumination-1"])
    state["players"]["red"]["hand"] = [red_answer] if red_answer else []
    dice = ScriptedDice([5] + ([6] if red_answer else []))
    GAME.advance(state, rng=dice)
    GAME.apply(state, "blue", {"verb": "play", "chit": "Illumination-1", "effect": "ci"},
               copy=False)
    GAME.advance(state, rng=dice)
    GAME.apply(state, "red", {"verb": "pass"}, copy=False)
    GAME.advance(state, rng=dice)
    assert state["ci"] == 104 and state["outcome"] is None
    side = "red"
    if red_answer:
        GAME.apply(state, "red", {"verb": "play", "chit": red_answer, "effect": "ci"},
                   copy=False)
        GAME.advance(state, rng=dice)
        GAME.apply(state, "blue", {"verb": "pass"}, copy=False)
        GAME.advance(state, rng=dice)
        side = "blue"
    for number in range(1, 7):           # the empty regions, in alternation
        assert state["outcome"] is None
        GAME.apply(state, side, {"verb": "resolve", "region": number}, copy=False)
        GAME.advance(state, rng=dice)
        side = "red" if side == "blue" else "blue"
    assert state["ci"] == final_ci and dice.left == 0
    assert state["phase"] == "victory"
    assert (state["outcome"] or {}).get("winner") == winner


def test_victory_is_checked_after_the_build_phase():
    """BFG-VIC-1: Politics takes the CI to 101 on turn 1; the Build phase still runs (Blue is
    asked to build) before Blue is declared the winner."""
    state = end_of_turn(1, 95, step="politics")
    control(state, 1, "blue", "B-SF1", P=6)
    set_region(state, 1, R=2)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["ci"] == 101
    assert state["pending"]["kind"] == "build" and state["outcome"] is None
    GAME.apply(state, "blue", {"verb": "done"}, copy=False)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["outcome"]["winner"] == "blue" and state["outcome"]["turn"] == 1


@pytest.mark.parametrize("turn", sorted(THRESHOLDS))
def test_thresholds_shrink_by_five_each_turn_and_are_exact(turn):
    """BFG-VIC-2, BFG-VIC-3: on turn t Red wins at CI <= 5(t-1), Blue at CI >= 101-5(t-1);
    one step inside either threshold nobody wins and the next turn begins."""
    red_at_most, blue_at_least = THRESHOLDS[turn]
    assert red_at_most == 5 * (turn - 1) and blue_at_least == 101 - 5 * (turn - 1)
    for ci, winner in ((red_at_most, "red"), (red_at_most + 1, None),
                       (blue_at_least - 1, None), (blue_at_least, "blue")):
        state = end_of_turn(turn, ci)
        dice = ScriptedDice([] if winner else [6, 1])     # the next turn's initiative
        GAME.advance(state, rng=dice)
        assert dice.left == 0
        if winner is None:
            assert state["outcome"] is None and state["turn"] == turn + 1
            assert state["phase"] == "actions"
        else:
            assert state["outcome"]["winner"] == winner and state["turn"] == turn


def test_the_board_shows_the_thresholds_checked_next_also_during_the_set_up():
    """BFG-VIC-3: the table shows this turn's thresholds; during the Civil War's opening
    build (turn 0) those of turn 1, the first end of turn checked (not the last turn's)."""
    from struggle_desktop.games.battles.presentation import board

    state = GAME.advance(GAME.setup("civil-war", seed=1))
    assert state["turn"] == 0 and state["pending"]["kind"] == "build"
    assert board(GAME, state, "blue")["thresholds"] == {"red_at_most": 0, "blue_at_least": 101}
    for turn, (red_at_most, blue_at_least) in THRESHOLDS.items():
        state["turn"] = turn
        assert board(GAME, state, "blue")["thresholds"] == {
            "red_at_most": red_at_most, "blue_at_least": blue_at_least}


@pytest.mark.parametrize("ci, winner", [(-20, "red"), (50, "red"), (51, "blue"), (130, "blue")])
def test_turn_ten_always_has_a_winner(ci, winner):
    """BFG-VIC-4: at the end of turn 10 Red wins at CI 50 or less and Blue at 51 or more;
    there is no turn 11."""
    state = end_of_turn(10, ci)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["outcome"]["winner"] == winner and state["outcome"]["turn"] == 10
    assert state["turn"] == 10
