"""The two scenarios (rules-battles.md section 13): Civil War's equal pools and opening build,
and Invasion's defender set-up, invader build and surprise turn 1, then the normal turn."""

from __future__ import annotations

from collections import Counter

import pytest

from struggle_desktop.engine.errors import BadOption
from struggle_desktop.games.battles import GAME
from tests.games.battles.helpers import ScriptedDice, bot_until, hand_state, rolls

MIX = {"SF": 10, "CG": 8, "AF": 4, "IO": 2, "WS": 1}
COST = {"SF": 2, "CG": 2, "AF": 3, "IO": 4, "WS": 6}


def fleets(state, side, at):
    return sorted(f for f, v in state["fleets"].items() if v["owner"] == side and v["at"] == at)


def answer(state, role, action):
    assert state["pending"]["role"] == role, state["pending"]
    GAME.apply(state, role, action, copy=False)
    GAME.advance(state)


def test_two_scenarios_with_civil_war_first():
    """BFG-SCN-1: the game ships civil-war (listed first, the default) and invasion."""
    assert [s["id"] for s in GAME.scenarios()] == ["civil-war", "invasion"]
    with pytest.raises(BadOption):
        GAME.setup("skirmish", seed=1)


def test_civil_war_gives_both_sides_equal_pools_and_chits():
    """BFG-SCN-2, BFG-SCN-3: each side has the 25 buildable fleets of the mix in its force
    pool, 3 TH in supply and its own chit pool of 10, two of each type; no shared chits."""
    state = GAME.setup("civil-war", seed=3)
    for side in ("blue", "red"):
        pool = fleets(state, side, "pool")
        assert Counter(state["fleets"][f]["type"] for f in pool) == Counter(MIX)
        assert len(fleets(state, side, "supply")) == 3
        own = state["players"][side]["own_chits"]
        assert len(own) == 10
        assert Counter(c.rsplit("-", 1)[0] for c in own) == Counter(
            {"Build": 2, "Move": 2, "Tactical": 2, "Illumination": 2, "Repression": 2})
        assert state["players"][side]["hand"] == []
    assert state["chit_pool"] == []
    assert not set(state["players"]["blue"]["own_chits"]) & set(state["players"]["red"]["own_chits"])


def test_civil_war_opening_build_carry_over_and_first_draw():
    """BFG-SCN-2, BFG-SCN-4: both sides build openly with 30 RP from their own pools (Blue
    spends 15, Red nothing); at most 10 RP carry over; then each draws 5 chits from its own
    chit pool in turn 1's draw, before deployment."""
    state = GAME.advance(GAME.setup("civil-war", seed=3))
    assert state["pending"]["kind"] == "build" and state["pending"]["source"] == "own"
    assert state["players"]["blue"]["rp"] == 30 and state["players"]["red"]["rp"] == 30
    own = {side: set(state["players"][side]["own_chits"]) for side in ("blue", "red")}
    for code in ("WS", "AF", "AF", "AF"):
        answer(state, "blue", {"verb": "build", "type": code})
    assert state["players"]["blue"]["rp"] == 15
    answer(state, "blue", {"verb": "done"})
    answer(state, "red", {"verb": "done"})
    assert fleets(state, "blue", "display") == ["B-AF1", "B-AF2", "B-AF3", "B-WS1"]
    assert any("B-WS1" in e["text"] and e["rule"] == "BFG-BLD-3" for e in state["log"])
    assert state["players"]["blue"]["rp"] == 10 and state["players"]["red"]["rp"] == 10
    assert state["turn"] == 1 and state["pending"]["kind"] == "deploy"
    for side in ("blue", "red"):
        hand = state["players"][side]["hand"]
        assert len(hand) == 5 and set(hand) <= own[side]
        assert len(state["players"][side]["own_chits"]) == 5


def test_civil_war_played_chits_go_to_the_common_chit_pool():
    """BFG-SCN-5: a Build chit from Blue's own half, once played, lands in the common chit
    pool, not back in Blue's own pool."""
    state = hand_state(phase="actions", stack=[{"proc": "actions", "step": "act",
                                                "first": None}])
    state["to_act"] = "blue"
    state["players"]["blue"]["hand"] = ["Build-1"]
    GAME.advance(state, rng=ScriptedDice([]))
    GAME.apply(state, "blue", {"verb": "play", "chit": "Build-1"}, copy=False)
    GAME.advance(state, rng=ScriptedDice([]))
    GAME.apply(state, "red", {"verb": "pass"}, copy=False)
    GAME.advance(state, rng=ScriptedDice([]))
    assert state["chit_pool"] == ["Build-1"]
    assert state["players"]["blue"]["own_chits"] == [] and state["players"]["blue"]["hand"] == []


def test_invasion_sides_default_to_red_invading_and_can_be_swapped():
    """BFG-SCN-7: by default Red invades and Blue defends (asked first, to set up); the
    invader option swaps them; the CI starts at 50; Civil War has no invader option."""
    state = GAME.advance(GAME.setup("invasion", seed=2))
    assert state["invader"] == "red" and state["ci"] == 50
    assert state["pending"]["kind"] == "defend" and state["pending"]["role"] == "blue"
    swapped = GAME.advance(GAME.setup("invasion", seed=2, options={"invader": "blue"}))
    assert swapped["invader"] == "blue" and swapped["pending"]["role"] == "red"
    with pytest.raises(BadOption):
        GAME.setup("civil-war", seed=2, options={"invader": "blue"})


def defend_greedily(state, role, skip_garrison=()):
    """Place, region by region, the dearest fleet type the budget still allows, until
    nothing fits; switch off the default garrison in ``skip_garrison``; then confirm."""
    for number in skip_garrison:
        answer(state, role, {"verb": "garrison", "region": number, "on": False})
    for number in range(1, 7):
        while True:
            options = [a for a in GAME.legal_actions(state, role)
                       if a["verb"] == "place" and a["region"] == number]
            if not options:
                break
            answer(state, role, max(options, key=lambda a: (COST[a["type"]], a["type"])))
    answer(state, role, {"verb": "done"})


def test_invasion_set_up_then_a_surprise_first_turn():
    """BFG-SCN-6, BFG-SCN-8, BFG-SCN-9, BFG-SCN-10: the defender (Blue) places fleets openly
    in every region within C + R, garrisoning them by default where they qualify (not where
    it opts out); it holds no chits. The invader builds with 30 RP, draws 5 chits from the
    shared pool of 20, deploys openly without a chit draw, and must open by resolving a
    region, without an initiative roll."""
    state = GAME.advance(GAME.setup("invasion", seed=4))
    assert len(state["chit_pool"]) == 20
    defend_greedily(state, "blue", skip_garrison=[6])
    for number in range(1, 7):
        region = state["regions"][str(number)]
        here = [f for f, v in state["fleets"].items() if v["region"] == number]
        budget = region["C"]["value"] + region["R"]["value"]
        assert here and sum(COST[state["fleets"][f]["type"]] for f in here) <= budget
        total = sum(COST[state["fleets"][f]["type"]] for f in here)
        garrisoned = number != 6 and total > region["C"]["value"]
        assert {state["fleets"][f]["at"] for f in here} == {"garrison" if garrisoned else "map"}
        assert region["controller"] == ("blue" if garrisoned else None)
    # The invader's opening build.
    assert state["pending"]["kind"] == "build" and state["pending"]["role"] == "red"
    assert state["players"]["red"]["rp"] == 30
    for _ in range(4):
        answer(state, "red", {"verb": "build", "type": "AF"})
    answer(state, "red", {"verb": "done"})
    assert state["players"]["red"]["rp"] == 10
    assert len(state["players"]["red"]["hand"]) == 5 and state["players"]["blue"]["hand"] == []
    assert len(state["chit_pool"]) == 15
    # Turn 1: no draw, an open deployment by the invader only.
    assert state["turn"] == 1
    assert state["pending"]["kind"] == "deploy" and state["pending"]["role"] == "red"
    assert state["pending"]["rule"] == "BFG-SCN-10"
    assert not any(e["rule"] == "BFG-CHIT-2" for e in state["log"])
    for fid in fleets(state, "red", "display"):
        answer(state, "red", {"verb": "assign", "fleet": fid, "region": 2})
    answer(state, "red", {"verb": "done"})
    assert state["pending"]["kind"] == "action" and state["pending"]["role"] == "red"
    assert {a["verb"] for a in GAME.legal_actions(state, "red")} == {"resolve"}
    assert not rolls(state, "BFG-ACT-1")
    assert len(state["players"]["red"]["hand"]) == 5


def test_invasion_from_turn_two_follows_the_normal_sequence():
    """BFG-SCN-6, BFG-SCN-9, BFG-SCN-11: played forward by the program player, turn 2 has a
    chit draw in which both sides fill their hands to 5 from the shared pool, an initiative
    roll, and a secret deployment asked of both players."""
    state = GAME.setup("invasion", seed=5)
    bot_until(state, lambda s: s["turn"] == 2 and s["phase"] == "deploy")
    if state["outcome"] is not None:
        pytest.skip("the game ended on turn 1")
    assert state["pending"]["kind"] == "deploy" and state["pending"]["rule"] == "BFG-DEP-1"
    for side in ("blue", "red"):
        assert len(state["players"][side]["hand"]) == 5
    asked = set()
    bot_until(state, lambda s: (s["pending"] or {}).get("kind") != "deploy"
              or asked.add(s["pending"]["role"]))
    assert asked == {"blue", "red"}
    assert [e for e in state["log"] if e["rule"] == "BFG-ACT-1" and e["turn"] == 2]
    assert not [e for e in state["log"] if e["rule"] == "BFG-ACT-1" and e["turn"] == 1]
