"""The hard program house plays for the win the rules define (NH-VIC-1, NH-VIC-3, NH-VIC-4):
it strikes a homeworld only with what the expected battle wins, brings its ships to its
armies, finishes off a beaten house and stages its armies beside the objective's weakest
world (games/nobles/campaign.py, the ``campaign`` section of ai.yaml); it decides from what
its house may know (NH-AI-1, NH-SIM-2).

Positions come from ``positions.py``; the program house answers every prompt of the step."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.nobles import GAME, ai, campaign
from struggle_desktop.games.nobles.mapgen import build_map

from .positions import CORNERS, LAYOUT, legal, play, position, run_step
from .test_ai import decide, everything_but, run_ai, units_at

GURATI = list(CORNERS["Gurati"])
#: A jump station one hex from Gurati (B's homeworld) and one far from everything.
BESIDE_GURATI = (9, 9)


def siege_position(difficulty, b_troops=6, amazons=2, ships=1, home_troops=0):
    """B holds only its homeworld Gurati, with ``b_troops`` House Troops (AD 2 each
    defending); every other world is A's, so A is far richer. A waits on the jump station
    beside Gurati with ``ships`` jumpships and ``amazons`` Amazonians (AD 3 attacking), and
    has ``home_troops`` House Troops on Lortran."""
    layout = build_map({**CORNERS, **LAYOUT}, jump_stations=[BESIDE_GURATI])
    controllers = {**everything_but(), "Kadesh": "A", "Nitrix": "A"}
    units = [("B", "House Troops", "Gurati")] * b_troops + \
        [("A", "Jumpship", BESIDE_GURATI)] * ships + \
        [("A", "Amazonians", BESIDE_GURATI)] * amazons + \
        [("A", "House Troops", "Lortran")] * home_troops
    return position(game_map_=layout, controllers=controllers, units=units,
                    options={"ai_difficulty": difficulty})


def strike_on_gurati(state):
    run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    return [u for u in units_at(state, "A", GURATI)
            if GAME.data.units[state["units"][u]["type"]].category == "army"]


def test_hard_does_not_send_a_strike_the_expected_battle_loses():
    """NH-BAT-7, NH-BAT-11, NH-BAT-13 (the campaign's assault, ai.yaml assault_survivors):
    two Amazonians (6 dice a round) against six House Troops defending (12 dice) lose the
    battle, which is fought to its end. Hard keeps them beside Gurati (the siege of issue 28
    sent them in to die)."""
    state, _ = siege_position("hard")
    assert strike_on_gurati(state) == []


def test_hard_gathers_the_strike_the_battle_needs_and_sends_it_at_once():
    """NH-MOV-2, NH-BAT-7, NH-BAT-11: with nine Amazonians and three jumpships beside the six
    House Troops, hard sends one strike that the expected battle wins with at least
    assault_survivors of it left (not every army it has, not fewer than that)."""
    state, _ = siege_position("hard", amazons=9, ships=3)
    sent = strike_on_gurati(state)
    assert 3 <= len(sent) <= 9
    rows = [[3.0, False, 1.0]] * len(sent)
    left, foes = campaign.expected_battle(rows, [[2.0, False, 1.0]] * 6)
    assert foes < 0.5 and left >= GAME.data["ai"]["campaign"]["assault_survivors"] * len(sent)
    fewer, foes = campaign.expected_battle(rows[1:], [[2.0, False, 1.0]] * 6)
    assert foes >= 0.5 or fewer < GAME.data["ai"]["campaign"]["assault_survivors"] * (
        len(sent) - 1)


def test_the_expected_battle_follows_the_square_of_the_numbers():
    """NH-BAT-7, NH-BAT-8, NH-BAT-11: every die hits on a 1 and a battle runs to its end;
    fifty attackers of AD 4 beat seventy defenders of AD 2 (200 dice against 140), thirty do
    not (their dice fall faster than the defenders'), and First Strike fires first."""
    left, foes = campaign.expected_battle([[4.0, False, 50.0]], [[2.0, False, 70.0]])
    assert foes < 0.5 < left
    left, foes = campaign.expected_battle([[4.0, False, 30.0]], [[2.0, False, 70.0]])
    assert left < 0.5 < foes
    # One round of 6 dice each: with First Strike the attacker's hit lands before the
    # defender fires, so the defender's single army never rolls.
    left, foes = campaign.expected_battle([[6.0, True, 1.0]], [[6.0, False, 1.0]],
                                          max_rounds=1)
    assert (left, foes) == (1.0, 0.0)


def test_spare_ships_leave_the_front_for_armies_that_have_none():
    """NH-MOV-2, NH-MOV-8 (the campaign's transport): six jumpships stand beside Gurati with
    two armies, which need one; the five others fly towards Lortran, where six House Troops
    wait with no ship (before, ships with any army beside them never moved)."""
    state, _ = siege_position("hard", amazons=2, ships=6, home_troops=6)
    lortran = list(CORNERS["Lortran"])
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    flown = [m[2] for m in made if m[2]["verb"] == "jump"]
    assert len(flown) == 5, made                      # one ship stays with the two armies
    player = ai.player_for(GAME, GAME.view(state, "A", with_log=False), "A", Rng.from_seed(1))
    to_lortran = campaign.jumps(player.dests, [tuple(lortran)])
    assert all(to_lortran[tuple(j["to"])] < to_lortran[BESIDE_GURATI] for j in flown)


def beaten_position():
    """Three houses. B has lost its homeworld to A and holds only Punah with one House
    Troops; C holds Kadesh and Frost, with troops. A's six House Troops and two jumpships
    wait on Lortran, out of reach of both."""
    controllers = {w: None for w in LAYOUT}
    controllers.update({"Gurati": "A", "Punah": "B", "Frost": "C", "Hellish": "A",
                        "Bolavor": "A"})
    units = [("B", "House Troops", "Punah"), ("C", "House Troops", "Kadesh"),
             ("C", "House Troops", "Kadesh"), ("C", "House Troops", "Frost"),
             ("A", "Jumpship", "Lortran"), ("A", "Jumpship", "Lortran")] + \
        [("A", "House Troops", "Lortran")] * 6
    return position(houses=3, controllers=controllers, units=units,
                    options={"ai_difficulty": "hard"})


def test_the_objective_is_the_beaten_house_and_its_last_world_is_the_front():
    """NH-VIC-3, NH-VIC-4: B (one world) is the objective, not C; the front the armies
    stage towards is B's last world, Punah, and its worlds are worth more as targets."""
    state, _ = beaten_position()
    player = ai.player_for(GAME, GAME.view(state, "A", with_log=False), "A", Rng.from_seed(1))
    assert player.objective() == "B"
    punah = tuple(LAYOUT["Punah"])
    assert player.jumps_to_targets()[punah] == 0
    assert min(player.jumps_to_targets().values()) == 0
    assert [h for h, n in player.jumps_to_targets().items() if n == 0] == [punah]
    assert player.target_value("Punah") > player.target_value("Frost")


def test_staged_armies_go_towards_the_beaten_house():
    """NH-VIC-4: the free armies that no strike takes leave Lortran for a hex nearer (in
    jumps) to B's Punah."""
    state, ids = beaten_position()
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    # The strikes of section 20 come first (C's Frost is in reach); the staging moves follow.
    jumps = [m[2] for m in made if m[2]["verb"] == "jump" and m[3] == "NH-AI-14"]
    assert jumps, made
    player = ai.player_for(GAME, GAME.view(state, "A", with_log=False), "A", Rng.from_seed(1))
    to_punah = campaign.jumps(player.dests, [tuple(LAYOUT["Punah"])])
    lortran = tuple(CORNERS["Lortran"])
    assert all(to_punah[tuple(j["to"])] < to_punah[lortran] for j in jumps)


# ------------------------------------------------------------------ NH-AI-1, NH-SIM-2
NUKE_UNITS = [("A", "Jumpship", "Punah"), ("A", "Amazonians", "Punah"),
              ("A", "Amazonians", "Punah"), ("A", "Nuclear Arsenal", "Punah"),
              ("A", "Nuclear Arsenal", "Punah"), ("B", "House Troops", "Punah"),
              ("B", "House Troops", "Punah"), ("B", "Jumpship", "Punah"),
              ("B", "Nuclear Arsenal", "Punah"), ("B", "Nuclear Arsenal", "Punah")]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_a_decision_does_not_depend_on_another_houses_hidden_declaration(level):
    """NH-AI-1, NH-SIM-2, NH-NUK-3: B declares its nukes first (each of its three choices
    for the first one); A, asked next, launches the same way whatever B declared."""
    decisions = []
    for choice in range(3):
        state, _ = position(units=NUKE_UNITS, controllers={"Punah": "B"},
                            options={"ai_difficulty": level})
        state["order"] = ["B", "A"]
        run_step(state, "nuke_hex", hex=list(LAYOUT["Punah"]), step="declare", declared={},
                 phase=7)
        play(state, answers=[("B", legal(state)[choice])])
        play(state, answers=[("B", legal(state)[-1])])
        assert state["pending"]["role"] == "A"
        hidden = state["stack"][-1]["declared"]["B"]
        decisions.append((hidden["B-NK1"], decide(state, "A")))
    assert len({hidden for hidden, _ in decisions}) == 3      # B's declarations differ...
    assert all(d == decisions[0][1] for _, d in decisions)   # ...A's decision does not
    assert decisions[0][1][0]["verb"] == "launch"


# ------------------------------------------------------------------ NH-AI-6 at home
def home_threat_position(difficulty):
    """B's jumpship at Hellish with three Amazonians threatens Lortran (T = 9, NH-AI-3); A
    has five House Troops (D 2 each) and two Amazonians on Lortran."""
    return position(units=[("A", "Jumpship", "Lortran")]
                    + [("A", "House Troops", "Lortran")] * 5
                    + [("A", "Amazonians", "Lortran")] * 2
                    + [("B", "Jumpship", "Hellish")] + [("B", "Amazonians", "Hellish")] * 3,
                    options={"ai_difficulty": difficulty})


@pytest.mark.parametrize("difficulty,kept", [("normal", 5), ("hard", 3)])
def test_hard_keeps_home_guard_share_of_the_threat_at_home(difficulty, kept):
    """NH-AI-6 (ai.yaml campaign: home_guard_share 0.5): against T = 9, normal keeps all
    five House Troops at home (D 10 >= 9), hard only three (D 6 >= 4.5): the rest is free to
    gather for an assault."""
    state, ids = home_threat_position(difficulty)
    view = GAME.view(state, "A", with_log=False)
    player = ai.player_for(GAME, view, "A", Rng.from_seed(1))
    assert player.threat(tuple(CORNERS["Lortran"])) == 9
    assert len(player.garrisons() & set(ids[1:6])) == kept


# ------------------------------------------------------------------ the war aim first
def focus_position(c_troops):
    """Three houses. B (the objective: one world) holds Gurati; C holds Punah with
    ``c_troops`` House Troops and Kadesh; A waits on the jump station beside Punah (4, 6)
    with two jumpships and six Amazonians, and every other world is A's."""
    layout = build_map({**CORNERS, **LAYOUT}, jump_stations=[(4, 6)])
    controllers = {**everything_but("Punah"), "Punah": "C"}
    units = [("B", "House Troops", "Gurati")] * 4 + \
        [("C", "House Troops", "Punah")] * c_troops + \
        [("C", "House Troops", "Kadesh")] * 4 + \
        [("A", "Jumpship", (4, 6))] * 2 + [("A", "Amazonians", (4, 6))] * 6
    return position(houses=3, game_map_=layout, controllers=controllers, units=units,
                    options={"ai_difficulty": "hard"})


@pytest.mark.parametrize("c_troops,struck", [(2, True), (5, False)])
def test_no_strike_on_another_houses_stack_while_the_objective_stands(c_troops, struck):
    """NH-VIC-3, NH-VIC-4 (ai.yaml campaign: focus_objective, focus_side_defence 8): B is
    the objective; C's Punah with two House Troops (S 4) is a thin stack and is struck, with
    five (S 10, which six Amazonians would beat) it is left alone for the war aim."""
    state, _ = focus_position(c_troops)
    view = GAME.view(state, "A", with_log=False)
    assert ai.player_for(GAME, view, "A", Rng.from_seed(1)).objective() == "B"
    run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    punah = list(LAYOUT["Punah"])
    landed = [u for u in units_at(state, "A", punah)
              if GAME.data.units[state["units"][u]["type"]].category == "army"]
    assert bool(landed) == struck


# ------------------------------------------------------------------ NH-AI-12, shipyards
def test_a_house_with_no_shipyard_takes_one_first_by_diplomacy():
    """NH-AI-12, NH-NOB-11, NH-UNIT-2 (ai.yaml campaign: shipless_yard_bonus): offered Mox
    (income 4) and Parallax (income 3, sells jumpships), a hard house with no shipyard picks
    Parallax; with Yoravar in hand, Mox as section 20 does."""
    for held, pick in (({}, "Parallax"), ({"Yoravar": "A"}, "Mox")):
        state, _ = position(controllers=held, options={"ai_difficulty": "hard"})
        view = GAME.view(state, "A", with_log=False)
        player = ai.player_for(GAME, view, "A", Rng.from_seed(1))
        assert player.pick_diplomacy(["Mox", "Parallax"]) == pick
