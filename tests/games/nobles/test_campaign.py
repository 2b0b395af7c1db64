"""The hard program house's campaign (games/nobles/campaign.py, the hard preset of NH-AI-14):
lean garrisons, staging towards the front, ships sent to waiting armies; its choices read
only its own view and follow from the seed.

Positions come from ``positions.py``; the program house answers every prompt of the step."""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME, ai
from struggle_desktop.games.nobles.campaign import CampaignPlayer
from struggle_desktop.games.nobles.mapgen import build_map
from struggle_desktop.simulate import game_seed

from .positions import position
from .test_ai import DONE, run_ai, units_at
from .test_golden import GOLDEN

#: Lortran reaches Hellish in one jump, Hellish reaches Punah; Lortran does not reach Punah.
CHAIN = build_map({"Lortran": (1, 1), "Gurati": (10, 10), "Hellish": (3, 2), "Punah": (5, 5)})
LORTRAN, HELLISH = [1, 1], [3, 2]


def chain_position(units, difficulty):
    return position(game_map_=CHAIN, controllers={"Hellish": "A", "Punah": "B"},
                    options={"ai_difficulty": difficulty}, units=units)


def test_only_the_hard_preset_plays_the_campaign():
    """NH-AI-14: the hard preset's player is the campaign's; easy and normal play section 20."""
    for level, kind in (("easy", ai.Player), ("normal", ai.Player), ("hard", CampaignPlayer)):
        state, _ = position(options={"ai_difficulty": level})
        player = ai.player_for(GAME, GAME.view(state, "A", with_log=False), "A", Rng.from_seed(1))
        assert type(player) is kind


def test_hard_stages_free_armies_towards_the_front_normal_waits():
    """NH-AI-14 (with NH-AI-6's homeworld garrison): no target is in reach of Lortran. Hard
    keeps one army at home and flies the other five, three and two a ship, to Hellish, one
    jump from B's Punah; normal has no target and ends its movement at once."""
    units = [("A", "Jumpship", "Lortran"), ("A", "Jumpship", "Lortran")] + \
        [("A", "House Troops", "Lortran")] * 6
    state, ids = chain_position(units, "normal")
    assert [m[2] for m in run_ai(state, "movement", phase=6,
                                 stop=lambda p: p["role"] != "A")] == [DONE]
    state, ids = chain_position(units, "hard")
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    ships, troops = ids[:2], ids[2:]
    assert all(state["units"][s]["hex"] == HELLISH for s in ships)
    assert len(units_at(state, "A", HELLISH)) == 7 and len(units_at(state, "A", LORTRAN)) == 1
    assert sum(state["units"][t]["hex"] == HELLISH for t in troops) == 5
    assert {m[3] for m in made} == {"NH-AI-14"}


def test_hard_sends_an_empty_ship_to_armies_that_wait_without_one():
    """NH-AI-14: three House Troops wait on Hellish with no ship and Lortran's jumpship has
    nothing to carry (its one army is the homeworld's garrison): the ship flies to Hellish
    empty, to carry them next turn."""
    units = [("A", "Jumpship", "Lortran"), ("A", "House Troops", "Lortran")] + \
        [("A", "House Troops", "Hellish")] * 3
    state, ids = chain_position(units, "hard")
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    assert [m[2]["verb"] for m in made] == ["jump"]      # its only ship: the step ends
    assert state["units"][ids[0]]["hex"] == HELLISH
    assert state["units"][ids[1]]["hex"] == LORTRAN


def test_hard_keeps_a_lean_garrison_on_a_threatened_world():
    """NH-AI-6 against the hard preset's lean garrison (NH-AI-14): B's ship at Hellish
    threatens Frost. Normal keeps both of Frost's House Troops there; hard keeps one, the
    other is free to strike or move up."""
    units = [("A", "House Troops", "Lortran"), ("A", "House Troops", "Frost"),
             ("A", "House Troops", "Frost"), ("B", "Jumpship", "Hellish"),
             ("B", "Clone Soldiers", "Hellish")]
    kept = {}
    for level in ("normal", "hard"):
        state, ids = position(controllers={"Frost": "A"}, units=units,
                              options={"ai_difficulty": level})
        view = GAME.view(state, "A", with_log=False)
        kept[level] = ai.player_for(GAME, view, "A", Rng.from_seed(1)).garrisons()
    assert kept["normal"] == {ids[0], ids[1], ids[2]}
    assert kept["hard"] == {ids[0], ids[1]}


def hard_session(houses, seed):
    options = GAME.simulation_options({"houses": houses, "ai_difficulty": "hard"})
    return Session.new(GAME, "standard", game_seed(seed, 0), options, record_digests=False)


def changed_secrets(state, role):
    """A copy of ``state`` with another generator and every other house's secret nuclear
    declaration changed (NH-SIM-2), and how many declarations were changed."""
    changed = clone(state)
    changed["rng"] = Rng.from_seed(12345).to_json()
    count = 0
    for frame in changed["stack"]:
        for house, declared in (frame.get("declared") or {}).items():
            if house != role and declared:
                frame["declared"][house] = dict.fromkeys(declared, None)
                count += 1
    return changed, count


def same_choice(state, role, rng):
    """The hard house's choice in ``state``, checked to be the same when its secrets differ."""
    changed, count = changed_secrets(state, role)
    assert GAME.view(changed, role, with_log=False) == GAME.view(state, role, with_log=False)
    seen = Rng.from_json(rng.to_json())
    action = GAME.choose_action(state, role, "bot", rng)
    assert GAME.choose_action(changed, role, "bot", seen) == action
    return action, count


def test_hard_reads_only_its_view():
    """NH-AI-1, NH-SIM-2, NH-AI-14: in a hard game (a quarter of its prompts) and in a saved
    game waiting for a house's nuclear declaration while another's is secret, a state whose
    hidden parts differ (another generator, the other houses' declarations changed) shows the
    deciding house the same view, and the hard house answers the same."""
    session = hard_session(3, 7)
    rng = Rng.from_seed(3, stream=99)
    for n in range(600):
        state = session.state
        if state["outcome"] is not None:
            break
        role = state["pending"]["role"]
        if n % 4:
            action = GAME.choose_action(state, role, "bot", rng)
        else:
            action, _ = same_choice(state, role, rng)
        session.perform(role, action, copy=False)
    state = GOLDEN.load(GOLDEN.named("hidden-launch")).state
    state["options"]["ai_difficulty"] = "hard"
    _, count = same_choice(state, state["pending"]["role"], rng)
    assert count, "another house's declaration is secret there"


def test_hard_games_repeat_and_fight():
    """NH-AI-2, NH-AI-14: a 4-house hard game to turn 12 gives the same digest twice, and its
    houses have taken worlds from each other by arms (NH-CTRL-2)."""
    digests, taken = [], 0
    for _ in range(2):
        session = hard_session(4, 3)
        rng = Rng.from_seed(5, stream=99)
        while session.state["outcome"] is None and session.state["turn"] <= 12:
            role = session.state["pending"]["role"]
            session.perform(role, GAME.choose_action(session.state, role, "bot", rng),
                            copy=False)
        digests.append(GAME.digest(session.state))
        taken = sum(1 for e in session.state["log"]
                    if e["rule"] == "NH-CTRL-2" and " from " in e["text"])
    assert digests[0] == digests[1]
    assert taken > 0
