"""A short random-play fuzz of the events deck: a full set-up and up to thirty Events Segments,
every prompt answered by the ``random`` or ``simple`` policy, with invariants checked after
every answer: each of the 81 cards in exactly one place, General Research never negative, the
First Right held by a side, and an outcome at the end."""

from __future__ import annotations

from collections import Counter

from struggle_desktop.engine import flow
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom import deck
from struggle_desktop.games.freedom.deck_data import deck_tables
from struggle_desktop.games.freedom.registry import RULES

from .test_part_b_helpers import data


def places_of(state) -> Counter:
    p = state["places"]
    found = Counter()
    for key in ("g_deck", "m_deck", "removed", "discard", "historic", "lasting", "retired"):
        found.update(p[key])
    for key in ("new", "due"):
        found.update(e["card"] for e in p[key])
    for side in deck.SIDES:
        found.update(p["secret_decks"][side])
        found.update(p["hands"][side])
    return found


def check(state, all_cards) -> list[str]:
    problems = []
    found = places_of(state)
    setting_up = any(f["proc"] in ("deck_game", "deck_setup") and f.get("step") in (
        "setup", "first_right", "decks", "hands", "boxes") for f in state["stack"])
    if not setting_up:
        if set(found) != all_cards or any(n != 1 for n in found.values()):
            extra = [c for c, n in found.items() if n != 1]
            problems.append(f"cards not each in one place: missing "
                            f"{sorted(all_cards - set(found))}, doubled {extra}")
    if any(v < 0 for v in state["general_research"].values()):
        problems.append("negative General Research")
    if state["first_right"] not in deck.SIDES:
        problems.append("no First Right holder")
    return problems


def test_random_play_keeps_every_card_in_one_place():
    # FIG-EVT-2, FIG-EVT-4, FIG-EVT-10, FIG-EVT-11, FIG-EVT-12: 40 random runs.
    all_cards = set(deck_tables(data()).cards)
    turns = 0
    for seed in range(40):
        r = Rng.from_seed(seed, stream=91)
        last = [None, 1 + r.below(30)][r.below(4) > 0]
        scenario = {"id": f"fuzz{seed}", "kind": "events-deck",
                    "context": {"last_turn": last,
                                "general_research": {"rebel": r.below(3),
                                                     "imperial": r.below(3)},
                                "force_points": {"rebel": r.below(20), "imperial": r.below(20)}}}
        state = deck.new_state(data(), scenario, {"g6_g7_secret_card": bool(r.below(2))}, seed)
        policy_rng = Rng.from_seed(seed, stream=77)
        policy = "random" if seed % 4 else "simple"
        for _ in range(5000):
            ctx = deck.DeckContext(state)
            flow.run(ctx)
            ctx.close()
            assert not check(state, all_cards), (seed, check(state, all_cards))
            if state["outcome"] is not None:
                break
            pending = state["pending"]
            legal = RULES.legal_actions[pending["kind"]](deck.DeckContext(state), pending)
            assert legal, f"seed {seed}: prompt {pending['kind']} has no legal action"
            if policy == "random" and pending["kind"] == "deck_between" and r.below(3):
                action = {"verb": "done"}        # keep random runs moving through the turns
            else:
                action = deck.choose(state, None, pending["role"], legal, policy, policy_rng)
            flow.answer(state, action)
        assert state["outcome"] is not None, f"seed {seed}: no end"
        assert state["stack"] == [] and all(e["rule"] for e in state["log"])
        turns += state["turn"]
    assert turns > 200
