"""Rules tests for action chits (CHIT) of rules-battles.md section 4: drawing, discards,
pools, playing chits and their effects, and the Repression window."""

from __future__ import annotations

import pytest

from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import (
    ScriptedDice,
    ScriptedRng,
    acting,
    at,
    at_step,
    drive,
    place,
    position,
)

PASS = ("red", {"verb": "pass"})
DONE = {"verb": "done"}


def hand(state, side, *chits):
    """Give ``side`` exactly these chits in hand, taken from wherever they were."""
    for player in state["players"].values():
        for key in ("own_chits", "hand"):
            player[key] = [c for c in player[key] if c not in chits]
    state["chit_pool"] = [c for c in state["chit_pool"] if c not in chits]
    state["players"][side]["hand"] = list(chits)


def drawing(state, turn=2):
    """``state`` at the start of the Action Chit Draw of ``turn``."""
    state["phase"] = "draw"
    return at_step(state, "deploy", {"proc": "chit_draw", "step": "discard"}, turn=turn)


# =============================================================================== drawing
def test_turn_one_hands_are_drawn_up_to_five():
    """BFG-CHIT-1, BFG-CHIT-3: after the Civil War opening build, each player draws 5 chits
    from their own pool (the hand limit)."""
    state = GAME.advance(GAME.setup("civil-war", seed=5))
    own_before = {s: list(state["players"][s]["own_chits"]) for s in ("blue", "red")}
    drive(state, ScriptedRng(faces=[], draw_default=0), [
        ("blue", DONE), ("red", {"verb": "build", "type": "SF"}), ("red", DONE)])
    assert state["pending"]["kind"] == "deploy"
    for side in ("blue", "red"):
        player = state["players"][side]
        assert len(player["hand"]) == 5
        assert set(player["hand"]) <= set(own_before[side])
        assert len(player["own_chits"]) == 5
    assert state["chit_pool"] == []


def test_hand_is_topped_up_to_the_limit_from_the_own_pool():
    """BFG-CHIT-1, BFG-CHIT-3: a hand of 2 draws 3 more; the own pool is used before the
    common pool, and the draws take the pool's positions in canonical order
    (BFG-SETUP-8)."""
    state = drawing(position(resolve=False))
    hand(state, "blue", "Build-1", "Move-1")
    state["players"]["red"]["own_chits"] = []
    state["players"]["blue"]["own_chits"] = ["Tactical-1", "Illumination-1"]
    state["chit_pool"] = ["Build-3", "Move-3", "Repression-4"]
    rng = ScriptedRng(faces=[6, 1], draws=[1, 0, 0])
    drive(state, rng, [("blue", DONE)])
    # Blue: Illumination-1 (2nd of 2), Tactical-1 (the last one: no draw); then the common
    # pool, Red first at CI 50: Red Build-3, Blue Move-3, Red Repression-4 (the last one).
    assert state["players"]["blue"]["hand"] == ["Build-1", "Move-1", "Move-3", "Tactical-1",
                                                "Illumination-1"]
    assert state["players"]["red"]["hand"] == ["Build-3", "Repression-4"]
    assert state["players"]["blue"]["own_chits"] == [] and state["chit_pool"] == []
    assert rng.sizes == [2, 3, 2]


def test_discards_are_set_aside_until_all_drawing_is_done():
    """BFG-CHIT-2, BFG-CHIT-3, BFG-CHIT-6: Blue sets Build-1 aside; with its own pool empty it
    draws from the common pool, which holds only Tactical-1, so it cannot redraw Build-1
    and its hand stays below the limit; Build-1 goes to the common pool after the draw."""
    state = drawing(position(resolve=False))
    hand(state, "blue", "Build-1", "Move-1")
    state["players"]["blue"]["own_chits"] = []
    state["players"]["red"]["own_chits"] = []
    red_hand = ["Build-3", "Build-4", "Move-3", "Move-4", "Tactical-3"]
    hand(state, "red", *red_hand)                      # full: Red draws nothing
    state["chit_pool"] = ["Tactical-1"]
    GAME.advance(state, rng=ScriptedRng(faces=[6, 1]))
    assert state["pending"]["kind"] == "discard" and state["pending"]["role"] == "blue"
    assert {"verb": "discard", "chit": "Build-1"} in GAME.legal_actions(state, "blue")
    drive(state, ScriptedRng(faces=[6, 1]), [("blue", {"verb": "discard", "chit": "Build-1"}),
                                             ("blue", DONE), ("red", DONE)])
    assert state["players"]["blue"]["hand"] == ["Move-1", "Tactical-1"]
    assert state["players"]["blue"]["discards"] == []
    assert state["chit_pool"] == ["Build-1"]
    assert any(e["rule"] == "BFG-CHIT-6" for e in state["log"])
    assert state["players"]["red"]["hand"] == red_hand


def test_a_discard_can_be_taken_back_before_drawing():
    """BFG-CHIT-2: a set-aside chit may be kept again while the player is still choosing."""
    state = drawing(position(resolve=False))
    hand(state, "blue", "Build-1")
    drive(state, ScriptedRng(faces=[6, 1], draw_default=0), [
        ("blue", {"verb": "discard", "chit": "Build-1"}),
        ("blue", {"verb": "keep", "chit": "Build-1"}), ("blue", DONE)])
    assert "Build-1" in state["players"]["blue"]["hand"]
    assert len(state["players"]["blue"]["hand"]) == 5


@pytest.mark.parametrize("scenario", ["civil-war", "invasion"])
@pytest.mark.parametrize("ci, first", [(50, "red"), (51, "blue"), (12, "red"), (90, "blue")])
def test_shared_pool_draws_alternate_in_ci_order(scenario, ci, first):
    """BFG-CHIT-4, BFG-CHIT-5: when both draw from a shared pool (the Civil War common pool,
    or the Invasion's single pool) they alternate one chit per pick, Red first at CI 50 or
    less and Blue first at 51 or more."""
    state = drawing(position(resolve=False, ci=ci))
    if scenario == "invasion":
        state["scenario"], state["mode"] = "invasion", "invasion"
    for side in ("blue", "red"):
        state["players"][side]["own_chits"] = []
    state["chit_pool"] = []
    hand(state, "blue", "Repression-1", "Repression-2", "Repression-3")
    hand(state, "red", "Tactical-1", "Tactical-2", "Tactical-3")
    state["chit_pool"] = ["Build-1", "Build-2", "Move-1", "Move-2"]
    second = "blue" if first == "red" else "red"
    drive(state, ScriptedRng(faces=[6, 1], draw_default=0), [("blue", DONE), ("red", DONE)])
    mine = lambda side: [c for c in state["players"][side]["hand"]
                         if c.split("-")[0] in ("Build", "Move")]
    assert mine(first) == ["Build-1", "Move-1"]
    assert mine(second) == ["Build-2", "Move-2"]


def test_an_empty_pool_leaves_the_hand_short():
    """BFG-CHIT-6: with no chits anywhere to draw, hands stay as they are and nothing is
    rolled."""
    state = drawing(position(resolve=False))
    hand(state, "blue", "Build-1")
    for side in ("blue", "red"):
        state["players"][side]["own_chits"] = []
    rng = ScriptedRng(faces=[6, 1])
    drive(state, rng, [("blue", DONE)])
    assert state["players"]["blue"]["hand"] == ["Build-1"]
    assert state["players"]["red"]["hand"] == []
    assert rng.sizes == []
    assert sum(e["rule"] == "BFG-CHIT-6" for e in state["log"]) == 2


# =============================================================================== playing
def test_playing_a_chit_is_one_action_and_the_chit_goes_to_the_common_pool():
    """BFG-CHIT-7, BFG-CHIT-8, BFG-CHIT-9: Blue plays Build with two regions under its
    control: it banks 2 RP at once, the chit goes to the common pool, and Red acts next."""
    state = position(resolve=False)
    place(state, "B-SF1", 2, at="garrison")
    place(state, "B-SF2", 5, at="garrison")
    place(state, "R-SF1", 3, at="garrison")
    for n, owner in ((2, "blue"), (5, "blue"), (3, "red")):
        state["regions"][str(n)]["controller"] = owner
    acting(state, "blue")
    hand(state, "blue", "Build-1")
    drive(state, ScriptedDice([]), [("blue", {"verb": "play", "chit": "Build-1"}), PASS])
    assert state["players"]["blue"]["banked"] == 2
    assert state["chit_pool"] == ["Build-1"] and state["played"] == []
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"


def test_build_chit_counts_control_at_the_moment_it_is_played():
    """BFG-CHIT-9: with no region controlled, Build banks nothing."""
    state = position(resolve=False)
    acting(state, "red")
    hand(state, "red", "Build-3")
    drive(state, ScriptedDice([]), [("red", {"verb": "play", "chit": "Build-3"}),
                                    ("blue", {"verb": "pass"})])
    assert state["players"]["red"]["banked"] == 0


def test_move_chit_moves_chosen_alpha_fleets_and_imperial_orders():
    """BFG-CHIT-10, BFG-CHIT-11: Blue moves one of its AFs (not the IO, its choice) from Tau
    to Alpha; the SF and the garrison AF stay."""
    state = position(blue=["B-AF1", "B-IO1", "B-SF1"], resolve=False)
    place(state, "B-AF2", 1, at="garrison")
    acting(state, "blue")
    hand(state, "blue", "Move-1")
    drive(state, ScriptedDice([]), [
        ("blue", {"verb": "play", "chit": "Move-1", "from": 1, "to": 2}), PASS])
    legal = GAME.legal_actions(state, "blue")
    assert {"verb": "move", "fleets": []} in legal                   # none is allowed
    assert all("B-AF2" not in a["fleets"] and "B-SF1" not in a["fleets"] for a in legal)
    drive(state, ScriptedDice([]), [("blue", {"verb": "move", "fleets": ["B-AF1"]})])
    assert at(state, "B-AF1") == ("map", 2, "blue")
    assert at(state, "B-IO1") == ("map", 1, "blue")
    assert at(state, "B-SF1") == ("map", 1, "blue")
    assert state["fleets"]["B-AF2"]["at"] == "garrison"
    assert state["pending"]["role"] == "red" and "Move-1" in state["chit_pool"]


def test_move_chit_only_between_two_different_unresolved_regions():
    """BFG-CHIT-10, BFG-CHIT-11: no move out of or into a resolved region, nor within one."""
    state = position(blue=["B-AF1"], resolve=False)
    place(state, "B-AF2", 3)
    state["regions"]["1"]["resolved"] = True
    state["regions"]["4"]["resolved"] = True
    acting(state, "blue")
    hand(state, "blue", "Move-1")
    GAME.advance(state, rng=ScriptedDice([]))
    moves = [(a["from"], a["to"]) for a in GAME.legal_actions(state, "blue")
             if a.get("chit") == "Move-1"]
    assert moves and all(a != b for a, b in moves)
    assert all(a not in (1, 4) and b not in (1, 4) for a, b in moves)
    assert (3, 2) in moves


def test_tactical_chit_placement():
    """BFG-CHIT-12, BFG-CHIT-13: a Tactical chit goes on an own fleet on the map in an
    unresolved region, not a WS and not one already carrying a chit."""
    state = position(blue=["B-SF1", "B-WS1", "B-CG1"], resolve=False)
    place(state, "B-SF2", 2)
    place(state, "B-SF3", 3, at="garrison")
    state["regions"]["2"]["resolved"] = True
    state["fleets"]["B-CG1"]["tactical"] = "Tactical-2"
    state["players"]["blue"]["own_chits"].remove("Tactical-2")
    state["fleets"]["B-SF4"].update(at="display")
    acting(state, "blue")
    hand(state, "blue", "Tactical-1")
    GAME.advance(state, rng=ScriptedDice([]))
    carriers = {a["fleet"] for a in GAME.legal_actions(state, "blue")
                if a.get("chit") == "Tactical-1"}
    assert carriers == {"B-SF1", "B-SF3"}
    drive(state, ScriptedDice([]), [
        ("blue", {"verb": "play", "chit": "Tactical-1", "fleet": "B-SF1"}), PASS])
    assert state["fleets"]["B-SF1"]["tactical"] == "Tactical-1"
    assert "Tactical-1" not in state["chit_pool"] and state["played"] == []


def tactical_fight(segment_choice=None, carrier="B-IO1"):
    state = position(blue=[carrier], red=["R-SF1"], combat=6)
    state["fleets"][carrier]["tactical"] = "Tactical-1"
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    return state


@pytest.mark.parametrize("segment", ["mil", "morph"])
def test_tactical_die_goes_to_the_segment_chosen_each_round(segment):
    """BFG-CHIT-12, BFG-CHIT-14: an IO (2/2) with a Tactical chit is asked before targets
    which segment gets the extra die: it rolls 3 dice there and 2 in the other."""
    state = tactical_fight()
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["pending"]["kind"] == "tactical_segment"
    assert state["pending"]["role"] == "blue"
    mil_dice = [1, 1, 1] if segment == "mil" else [1, 1]
    morph_dice = [1, 1] if segment == "mil" else [1, 1, 1]
    dice = ScriptedDice([*mil_dice, 1, 1, *morph_dice])      # R-SF1 fires 2 in Military
    drive(state, dice, [("blue", {"verb": "segment", "fleet": "B-IO1", "segment": segment})])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0
    # Next round, the choice is asked again.
    drive(state, ScriptedDice([]), [("blue", {"verb": "stay"}), ("red", {"verb": "stay"})])
    assert state["pending"]["kind"] == "tactical_segment"


def test_tactical_die_of_a_star_fleet_counts_only_in_military():
    """BFG-CHIT-14: an SF (morph 0) gets no choice: its extra die goes to Military."""
    state = tactical_fight(carrier="B-SF1")
    dice = ScriptedDice([1, 1, 1, 1, 1])                     # 3 for B-SF1, 2 for R-SF1
    drive(state, dice, [])
    assert state["pending"]["kind"] == "disengage" and dice.left == 0


@pytest.mark.parametrize("faces, place_now", [([6, 1], "common"), ([5, 1], "display")])
def test_tactical_chit_returns_when_its_fleet_leaves_the_map(faces, place_now):
    """BFG-CHIT-15, BFG-CHIT-7: R-SF1's 6 eliminates (or its 5 returns) the carrier B-SF1:
    its Tactical chit goes back to the (common) chit pool."""
    state = tactical_fight(carrier="B-SF1")
    drive(state, ScriptedDice([1, 1, 1, *faces]), [])
    assert state["fleets"]["B-SF1"]["at"] == place_now
    assert state["fleets"]["B-SF1"]["tactical"] is None
    assert state["chit_pool"] == ["Tactical-1"]


def test_tactical_chit_returns_when_its_fleet_is_converted():
    """BFG-CHIT-15: R-CG1's Morph 6 converts the carrier B-SF1: the chit returns to the pool
    and the fleet fights on for Red without it."""
    state = position(blue=["B-SF1"], red=["R-CG1"], combat=3)
    state["fleets"]["B-SF1"]["tactical"] = "Tactical-1"
    state["players"]["blue"]["own_chits"].remove("Tactical-1")
    dice = ScriptedDice([1, 1, 1, 6, 1])          # B-SF1's 2 + Tactical; R-CG1's Morph 6, 1
    drive(state, dice, [])
    assert at(state, "B-SF1") == ("map", 1, "red")
    assert state["pending"]["kind"] == "garrison" and state["pending"]["role"] == "red"
    assert state["fleets"]["B-SF1"]["tactical"] is None
    assert state["chit_pool"] == ["Tactical-1"] and dice.left == 0


def test_tactical_chit_stays_on_a_garrison_fleet_until_the_end_of_the_turn():
    """BFG-CHIT-12, BFG-CHIT-15: a carrier that garrisons stays on the map, and so does its
    chit; the fleets sent home lose theirs."""
    state = position(blue=["B-SF1", "B-SF2"], combat=1)
    state["fleets"]["B-SF1"]["tactical"] = "Tactical-1"
    state["fleets"]["B-SF2"]["tactical"] = "Tactical-2"
    for chit in ("Tactical-1", "Tactical-2"):
        state["players"]["blue"]["own_chits"].remove(chit)
    drive(state, ScriptedDice([]), [("blue", {"verb": "garrison_add", "fleet": "B-SF1"}),
                                    ("blue", {"verb": "garrison_done"})])
    assert state["fleets"]["B-SF1"]["at"] == "garrison"
    assert state["fleets"]["B-SF1"]["tactical"] == "Tactical-1"
    assert state["fleets"]["B-SF2"]["tactical"] is None
    assert state["chit_pool"] == ["Tactical-2"]


@pytest.mark.parametrize("side, roll, ci", [("blue", 4, 54), ("red", 4, 46), ("red", 6, 44)])
def test_illumination_moves_the_chaos_index_toward_the_player(side, roll, ci):
    """BFG-CHIT-16, BFG-SETUP-2: Blue (Imperial) adds the d6 to the CI, Red (Chaos) subtracts
    it; the die is rolled only after the reaction window (BFG-CHIT-19)."""
    state = position(resolve=False)
    acting(state, side)
    chit = "Illumination-1" if side == "blue" else "Illumination-3"
    hand(state, side, chit)
    opponent = "red" if side == "blue" else "blue"
    dice = ScriptedDice([roll])
    drive(state, dice, [(side, {"verb": "play", "chit": chit, "effect": "ci"})])
    assert state["pending"]["kind"] == "react" and dice.left == 1 and state["ci"] == 50
    drive(state, dice, [(opponent, {"verb": "pass"})])
    assert state["ci"] == ci and dice.left == 0


def test_illumination_recruits_a_trans_human_into_an_unresolved_region():
    """BFG-CHIT-16, BFG-CHIT-17: the new TH comes from the player's supply and is placed at
    once in the chosen unresolved region; resolved regions are not offered."""
    state = position(resolve=False)
    state["regions"]["2"]["resolved"] = True
    acting(state, "red")
    hand(state, "red", "Illumination-3")
    GAME.advance(state, rng=ScriptedDice([]))
    regions = {a["region"] for a in GAME.legal_actions(state, "red")
               if a.get("effect") == "th"}
    assert regions == {1, 3, 4, 5, 6}
    drive(state, ScriptedDice([]), [
        ("red", {"verb": "play", "chit": "Illumination-3", "effect": "th", "region": 4}),
        ("blue", {"verb": "pass"})])
    assert at(state, "R-TH1") == ("map", 4, "red")
    assert sorted(f for f, v in state["fleets"].items() if v["at"] == "supply"
                  and v["owner"] == "red") == ["R-TH2", "R-TH3"]
    assert state["ci"] == 50


def test_illumination_with_an_empty_supply_only_moves_the_ci():
    """BFG-CHIT-17: with every TH of the player already out of the supply, only the CI
    effect is offered."""
    state = position(resolve=False)
    for fid in ("B-TH1", "B-TH2", "B-TH3"):
        place(state, fid, 1)
    acting(state, "blue")
    hand(state, "blue", "Illumination-1")
    GAME.advance(state, rng=ScriptedDice([]))
    plays = [a for a in GAME.legal_actions(state, "blue") if a.get("chit") == "Illumination-1"]
    assert plays == [{"verb": "play", "chit": "Illumination-1", "effect": "ci"}]


# =============================================================================== repression
def test_repression_cancels_the_chit_just_played():
    """BFG-CHIT-18, BFG-CHIT-19: Red represses Blue's Illumination: no die is rolled, the CI
    stays, both chits go to the pool, Blue's action is spent and Red acts next; Red's
    Repression itself gets no reaction window (it cannot be cancelled)."""
    state = position(resolve=False)
    acting(state, "blue")
    hand(state, "blue", "Illumination-1", "Repression-1")
    hand(state, "red", "Repression-3", "Build-3")
    dice = ScriptedDice([])
    drive(state, dice, [("blue", {"verb": "play", "chit": "Illumination-1", "effect": "ci"})])
    assert state["pending"]["kind"] == "react" and state["pending"]["role"] == "red"
    assert {"verb": "repress", "chit": "Repression-3"} in GAME.legal_actions(state, "red")
    drive(state, dice, [("red", {"verb": "repress", "chit": "Repression-3"})])
    assert state["ci"] == 50
    assert state["chit_pool"] == ["Illumination-1", "Repression-3"]
    assert state["players"]["red"]["hand"] == ["Build-3"]
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"
    assert state["last_chit"]["cancelled"] is True


def test_repression_is_never_an_action_and_a_window_comes_with_every_chit():
    """BFG-CHIT-19, BFG-CHIT-7: Repression is not offered as an action; a Build chit also
    opens the opponent's window (which may be passed), and acts only after it."""
    state = position(resolve=False)
    place(state, "B-SF1", 2, at="garrison")
    state["regions"]["2"]["controller"] = "blue"
    acting(state, "blue")
    hand(state, "blue", "Build-1", "Repression-1")
    GAME.advance(state, rng=ScriptedDice([]))
    assert all(a.get("chit") != "Repression-1" for a in GAME.legal_actions(state, "blue"))
    drive(state, ScriptedDice([]), [("blue", {"verb": "play", "chit": "Build-1"})])
    assert state["pending"]["kind"] == "react"
    assert GAME.legal_actions(state, "red") == [{"verb": "pass"}]    # Red holds no Repression
    assert state["players"]["blue"]["banked"] == 0                   # not yet
    drive(state, ScriptedDice([]), [PASS])
    assert state["players"]["blue"]["banked"] == 1
