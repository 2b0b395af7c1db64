"""The baseline program player (policy ``bot``, rules-battles.md section 16), one rule at a
time, on hand-made positions: each test builds the prompt, gives the player only its view and
checks the answer the rule calls for."""

from __future__ import annotations

from struggle_desktop.games.battles import GAME
from struggle_desktop.games.battles.ai import Player
from tests.games.battles.helpers import ScriptedDice, drive, hand_state, position, put, targets


def player(state, role):
    return Player(GAME, GAME.view(state, role), role)


def decide(state, role):
    return player(state, role).decide()


# ------------------------------------------------------------------ AI-1 evaluation terms
def test_need_and_worth():
    """BFG-AI-1: Need is C + 1; Worth is P + R, plus 2 while the player could garrison a WS."""
    state = hand_state(combat=4, political=3, resource=2, phase="actions")
    me = player(state, "blue")
    assert me.need(1) == 5 and me.worth(1) == 5
    put(state, "B-WS1", "display")
    assert player(state, "blue").worth(1) == 7


# ------------------------------------------------------------------ AI-2 deployment
def test_deployment_covers_the_most_valuable_region_first_and_keeps_th_back():
    """BFG-AI-2: regions by Worth; non-mobile fleets (dearest first) fill the top region up to
    Need plus the expected enemy; AFs and IOs go to a region still short; TH stay back."""
    state = hand_state(combat=2, political=1, resource=1, phase="deploy",
                       stack=[{"proc": "deployment", "sides": ["blue"], "open": False}])
    state["regions"]["4"]["P"]["value"] = 6          # Delta is worth the most
    for fid in ("B-SF1", "B-SF2", "B-CG1", "B-AF1", "B-TH1"):
        put(state, fid, "display")
    GAME.advance(state)
    plan = player(state, "blue").deployment_plan()
    assert "B-TH1" not in plan
    assert plan["B-SF1"] == 4 and plan["B-SF2"] == 4        # 2 + 2 > Need 3 with no enemy
    assert plan["B-CG1"] != 4                                # Delta is already covered
    assert plan["B-AF1"] in range(1, 7)


# ------------------------------------------------------------------ AI-3 choosing an action
def test_resolving_prefers_an_uncontested_region_it_can_garrison():
    """BFG-AI-3 (item 6): first an uncontested region it can garrison, highest Worth."""
    state = hand_state(combat=1, phase="actions",
                       stack=[{"proc": "actions", "step": "act"}])
    state["to_act"] = "blue"
    state["regions"]["5"]["R"]["value"] = 5
    put(state, "B-SF1", "map", 2)
    put(state, "B-SF2", "map", 5)
    put(state, "B-SF3", "map", 3)
    put(state, "R-SF1", "map", 3)
    GAME.advance(state)
    assert decide(state, "blue") == {"verb": "resolve", "region": 5}


def test_a_build_chit_is_played_with_two_regions_held():
    """BFG-AI-3 (item 5): play Build when controlling at least 2 regions."""
    state = hand_state(combat=1, phase="actions", stack=[{"proc": "actions", "step": "act"}])
    state["to_act"] = "blue"
    state["players"]["blue"]["hand"] = ["Build-1"]
    for n, fid in ((1, "B-SF1"), (2, "B-SF2")):
        put(state, fid, "garrison", n)
        state["regions"][str(n)]["controller"] = "blue"
    GAME.advance(state)
    assert decide(state, "blue") == {"verb": "play", "chit": "Build-1"}
    state["regions"]["2"]["controller"] = None
    state["fleets"]["B-SF2"].update(at="display", region=None)
    assert decide(state, "blue")["verb"] == "resolve"


def test_illumination_moves_the_ci_when_that_reaches_the_threshold():
    """BFG-AI-3 (item 1): with the projected CI 3.5 short of winning, use the CI effect."""
    state = hand_state(phase="actions", turn=10, ci=48,
                       stack=[{"proc": "actions", "step": "act"}])
    state["to_act"] = "blue"
    state["players"]["blue"]["hand"] = ["Illumination-1"]
    GAME.advance(state)
    assert decide(state, "blue") == {"verb": "play", "chit": "Illumination-1", "effect": "ci"}


# ------------------------------------------------------------------ AI-4 targeting
def test_military_fire_goes_to_the_dearest_fleet_and_a_cg_before_an_sf():
    """BFG-AI-4: by cost, highest first; at equal cost a CG before an SF; a WS always fires
    its single shot when it may."""
    state = position(blue=["B-SF1"], red=["R-SF1", "R-CG1", "R-AF1"], combat=6)
    GAME.advance(state)
    assert decide(state, "blue") == {"verb": "target", "firer": "B-SF1", "target": "R-AF1"}
    state = position(blue=["B-SF1", "B-SF2"], red=["R-SF1", "R-CG1"], combat=6)
    drive(state, ScriptedDice([]), [])
    first = decide(state, "blue")
    assert first["target"] == "R-CG1"
    state = position(blue=["B-WS1"], red=["R-SF1", "R-CG1"], combat=6)
    GAME.advance(state)
    assert decide(state, "blue")["shot"] == "single"


def test_morph_fire_skips_an_imperial_order_unless_nothing_else_is_there():
    """BFG-AI-4: in the Morph segment the IO is skipped (it cannot be converted)."""
    state = position(blue=["B-CG1"], red=["R-IO1", "R-SF1"], combat=6)
    # Military: only Red fires (the IO and the SF at the lone CG): two misses each.
    drive(state, ScriptedDice([1, 1, 1, 1]), [])
    assert state["pending"]["kind"] == "targets" and state["pending"]["segment"] == "morph"
    assert decide(state, "blue") == {"verb": "target", "firer": "B-CG1", "target": "R-SF1"}


# ------------------------------------------------------------------ AI-5 disengagement
def test_disengages_when_outmatched_and_pursues_with_enough_alpha_fleets():
    """BFG-AI-5: leave below 0.75 of the enemy's total; pursue with at least one AF and as
    many AFs as the enemy."""
    state = position(blue=["B-SF1"], red=["R-SF1", "R-SF2"], combat=6)
    # Red's two SFs have one target each: declared for them.
    drive(state, ScriptedDice([1, 1, 1, 1, 1, 1]), targets("blue", [("B-SF1", "R-SF1")]))
    assert state["pending"]["kind"] == "disengage"
    assert decide(state, state["pending"]["role"])["verb"] == "disengage"    # 2 < 0.75 * 4
    state = position(blue=["B-SF1", "B-SF2"], red=["R-SF1"], combat=6)
    drive(state, ScriptedDice([1] * 6), targets("red", [("R-SF1", "B-SF1")]))
    assert decide(state, "blue")["verb"] == "stay"
    state = position(blue=["B-AF1"], red=["R-SF1"], combat=6)
    drive(state, ScriptedDice([1] * 5), [("blue", {"verb": "stay"}),
                                         ("red", {"verb": "disengage"})])
    assert state["pending"]["kind"] == "pursue"
    assert decide(state, "blue") == {"verb": "pursue"}


# ------------------------------------------------------------------ AI-6 garrison
def test_garrisons_with_the_cheapest_set_above_c_plus_the_world_ship():
    """BFG-AI-6: the cheapest fleets whose total exceeds C, and a WS if there (for its RP)."""
    state = position(blue=["B-IO1", "B-SF1", "B-WS1"], combat=1)
    GAME.advance(state)
    plan = player(state, "blue").garrison_plan(1)
    assert set(plan) == {"B-SF1", "B-WS1"}            # the SF (2 > 1) is the cheapest set
    assert decide(state, "blue") == {"verb": "garrison_add", "fleet": plan[0]}


# ------------------------------------------------------------------ AI-7 build
def test_build_order():
    """BFG-AI-7: a WS if none is in play, AFs up to 3, then SF and CG in turn; an IO when
    exactly 4 RP remain."""
    state = hand_state(stack=[{"proc": "build", "side": "blue", "source": "own"}])
    state["players"]["blue"]["rp"] = 20
    GAME.advance(state)
    assert decide(state, "blue") == {"verb": "build", "type": "WS"}
    put(state, "B-WS1", "display")
    assert decide(state, "blue") == {"verb": "build", "type": "AF"}
    for fid in ("B-AF1", "B-AF2", "B-AF3"):
        put(state, fid, "display")
    assert decide(state, "blue") == {"verb": "build", "type": "SF"}
    put(state, "B-SF1", "display")
    assert decide(state, "blue") == {"verb": "build", "type": "CG"}
    state["players"]["blue"]["rp"] = 4
    assert decide(state, "blue") == {"verb": "build", "type": "IO"}


# ------------------------------------------------------------------ AI-8 repression, discards
def test_represses_illumination_and_moves_aimed_at_its_fleets_and_never_discards():
    """BFG-AI-8."""
    state = hand_state(phase="actions", stack=[{"proc": "actions", "step": "act"}])
    state["to_act"] = "red"
    state["players"]["red"]["hand"] = ["Illumination-1", "Move-1"]
    state["players"]["blue"]["hand"] = ["Repression-1"]
    put(state, "B-SF1", "map", 2)
    GAME.advance(state)
    illumination = {"verb": "play", "chit": "Illumination-1", "effect": "ci"}
    after = GAME.advance(GAME.apply(state, "red", illumination))
    assert decide(after, "blue") == {"verb": "repress", "chit": "Repression-1"}
    aimed = GAME.advance(GAME.apply(state, "red", {"verb": "play", "chit": "Move-1",
                                                   "from": 1, "to": 2}))
    assert decide(aimed, "blue")["verb"] == "repress"
    elsewhere = GAME.advance(GAME.apply(state, "red", {"verb": "play", "chit": "Move-1",
                                                       "from": 1, "to": 3}))
    assert decide(elsewhere, "blue") == {"verb": "pass"}
    draw = hand_state(phase="draw", stack=[{"proc": "chit_draw", "step": "discard"}])
    draw["players"]["blue"]["hand"] = ["Move-2"]
    GAME.advance(draw)
    assert draw["pending"]["kind"] == "discard" and decide(draw, "blue") == {"verb": "done"}
