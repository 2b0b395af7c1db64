"""The hard program house plays for the win the rules define (NH-VIC-1, NH-VIC-3, NH-VIC-4):
it besieges a poorer house's homeworld, finishes off a beaten house and stages its armies
beside the objective's weakest world (games/nobles/campaign.py, the ``campaign`` section of
ai.yaml); it decides from what its house may know (NH-AI-1, NH-SIM-2).

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


def siege_position(difficulty, b_troops=6, amazons=2):
    """B holds only its homeworld Gurati, with ``b_troops`` House Troops (S 2 each
    defending); every other world is A's, so A is far richer. A waits on the jump station
    beside Gurati with a jumpship and ``amazons`` Amazonians (EV 3 each attacking)."""
    layout = build_map({**CORNERS, **LAYOUT}, jump_stations=[BESIDE_GURATI])
    controllers = {**everything_but(), "Kadesh": "A", "Nitrix": "A"}
    units = [("B", "House Troops", "Gurati")] * b_troops + \
        [("A", "Jumpship", BESIDE_GURATI)] + [("A", "Amazonians", BESIDE_GURATI)] * amazons
    return position(game_map_=layout, controllers=controllers, units=units,
                    options={"ai_difficulty": difficulty})


def strike_on_gurati(state):
    run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    return [u for u in units_at(state, "A", GURATI)
            if GAME.data.units[state["units"][u]["type"]].category == "army"]


def test_hard_besieges_a_poorer_houses_homeworld_normal_waits():
    """NH-VIC-3 through the siege (ai.yaml campaign: crush_ratio): B's homeworld holds S 12.
    Normal needs 1.5 x 12 and keeps its two Amazonians (S 6) where they are; hard, many
    times richer than B, needs crush_ratio x 12 = 4.8 and strikes."""
    state, _ = siege_position("normal")
    assert strike_on_gurati(state) == []
    state, _ = siege_position("hard")
    assert len(strike_on_gurati(state)) == 2


def test_without_the_siege_hard_keeps_section_20s_attack_ratio(monkeypatch):
    """The siege is what sends hard in: with its income factors out of reach, hard needs its
    preset's 1.2 x 12 (NH-AI-14) and stays."""
    campaign = GAME.data["ai"]["campaign"]
    monkeypatch.setitem(campaign, "siege_income_factor", 1000)
    monkeypatch.setitem(campaign, "crush_income_factor", 1000)
    state, _ = siege_position("hard")
    assert strike_on_gurati(state) == []


def test_the_siege_still_needs_its_share_of_the_defence():
    """crush_ratio x S is still a need: one Amazonian (S 3) against 12 House Troops (S 24,
    need 9.6) stays put."""
    state, _ = siege_position("hard", b_troops=12, amazons=1)
    assert strike_on_gurati(state) == []


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
