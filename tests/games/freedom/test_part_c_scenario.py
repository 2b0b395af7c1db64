"""Scenario C1 of rules-freedom.md section 6 (Part C), reproduced turn by turn from
``scenarios/freedom/c1.yaml`` with the shuffles and dice scripted; and the same opening reached
through a full FIG-EVT-3 set-up with scripted shuffles and picks."""

from __future__ import annotations

import yaml

from struggle_desktop.engine.paths import scenarios_dir
from struggle_desktop.games.freedom import deck
from struggle_desktop.games.freedom.deck_data import deck_tables

from .test_part_b_helpers import ScriptedRng, d6, data, order, reply, run, texts

#: The decisions of C1 in order; deck_card prompts are answered ok, deck_between done.
C1_DECISIONS = [
    ("deck_keep_secret", "imperial", {"verb": "keep", "card": "IS#1"}),      # turn 3
    ("deck_play", "rebel", {"verb": "pass"}),                                # turn 4
    ("deck_play", "imperial", {"verb": "play", "card": "IS#4"}),
    ("deck_play", "rebel", {"verb": "play", "card": "RS#1"}),                # turn 5
    ("deck_contest", "imperial", {"verb": "contest"}),
    ("deck_forced_play", "imperial", {"verb": "play", "card": "IS#2"}),
    ("deck_play", "rebel", {"verb": "pass"}),                                # turn 6
    ("deck_play", "imperial", {"verb": "pass"}),
    ("deck_play", "rebel", {"verb": "play", "card": "RS#5"}),                # turn 7
]


def c1_scenario() -> dict:
    return yaml.safe_load((scenarios_dir() / "freedom" / "c1.yaml").read_text(encoding="utf-8"))


def c1_script() -> list:
    t = deck_tables(data())
    top = ["G#19", "G#5"]
    removed = ["G#1", "G#8", "G#11", "G#24"]
    g_rest = [c for c in t.of_kind("galactic") if c not in top + removed]
    m_rest = [c for c in t.of_kind("major") if c not in ("M#14", "M#2")]
    return (order(g_rest, []) + order(m_rest, [])
            + order(["IS#1", "IS#3", "IS#5", "IS#6"], ["IS#3", "IS#1", "IS#6", "IS#5"])
            + d6(4))


def drive(ctx, decisions) -> list[tuple]:
    """Answer every prompt: the listed decisions in order, ok to cards, done between turns.
    Returns the prompts met as (turn, kind, role, card)."""
    queue = list(decisions)
    seen = []
    while ctx.state["pending"] is not None:
        p = ctx.state["pending"]
        seen.append((ctx.state["turn"], p["kind"], p["role"], p.get("card")))
        if p["kind"] == "deck_card":
            reply(ctx, {"verb": "ok"})
        elif p["kind"] == "deck_between":
            reply(ctx, {"verb": "done"})
        else:
            kind, role, action = queue.pop(0)
            reply(ctx, action, kind=kind, role=role)
    assert not queue, queue
    return seen


def play_c1():
    state = deck.new_state(data(), c1_scenario(), {}, seed=1)
    rng = ScriptedRng(c1_script())
    ctx = deck.DeckContext(state, rng=rng)
    run(ctx)
    seen = drive(ctx, C1_DECISIONS)
    return state, rng, seen


def test_c1_scenario_file_is_an_events_deck_scenario():
    # FIG-GEN-7: C1 ships as scenario c1 of kind events-deck.
    scenario = c1_scenario()
    assert scenario["id"] == "c1" and scenario["kind"] == "events-deck"
    state = deck.new_state(data(), scenario, {}, seed=3)
    assert state["kind"] == "events-deck" and state["stack"][0]["proc"] == "deck_game"
    assert state["general_research"] == {"rebel": 0, "imperial": 1}


def test_c1_set_up_as_the_scenario_gives_it():
    # FIG-EVT-3: the fixed tops, removed cards and hands; the rest shuffled beneath.
    state = deck.new_state(data(), c1_scenario(), {}, seed=1)
    ctx = deck.DeckContext(state, rng=ScriptedRng(c1_script()))
    run(ctx)
    places = state["places"]
    assert places["removed"] == ["G#1", "G#8", "G#11", "G#24"]
    assert places["hands"] == {"rebel": ["RS#1", "RS#5"], "imperial": ["IS#4", "IS#2"]}
    assert places["secret_decks"] == {"rebel": ["RS#2", "RS#3", "RS#4", "RS#6"],
                                      "imperial": ["IS#1", "IS#3", "IS#5", "IS#6"]}
    assert places["historic"] == ["H#4", "H#5", "H#6", "H#7", "H#8"]
    assert places["m_deck"][:2] == ["M#14", "M#2"] and len(places["m_deck"]) == 33
    # turn 1 has already run to its first prompt: H#1 moved on and shows its due effect
    assert places["due"] == [{"card": "H#1", "up": True, "with": None, "played_by": None}]
    assert state["pending"]["kind"] == "deck_card" and state["pending"]["card"] == "H#1"
    assert places["g_deck"][:4] == ["H#3", "H#2", "G#19", "G#5"] and len(places["g_deck"]) == 26


def test_c1_reproduced_exactly():
    # FIG-EVT-4, FIG-EVT-5, FIG-EVT-6, FIG-EVT-7, FIG-EVT-8, FIG-EVT-10, FIG-EVT-12,
    # FIG-EVT-14, FIG-EVT-17: the decisions, prompts and expected state of scenario C1.
    state, rng, seen = play_c1()
    assert rng.left == 0
    shown = [(turn, role, card) for turn, kind, role, card in seen if kind == "deck_card"]
    assert shown == [
        (1, "rebel", "H#1"), (1, "rebel", "H#3"),           # H#1 due, H#3 turned up in New
        (2, "rebel", "H#3"), (2, "rebel", "H#2"),           # H#3 due, H#2 turned up
        (3, "imperial", "H#2"),                              # H#2 due
        (3, "rebel", "G#19"), (3, "rebel", "M#14"),         # G#19 drawn, M#14 face-up
        (4, "imperial", "IS#4"),                             # played
        (5, "imperial", "IS#2"),                             # forced play
        (6, "rebel", "G#19"), (6, "rebel", "M#2"),          # G#19 due turns M#2 up
        (6, "rebel", "G#5"),                                 # G#5 drawn (Wex)
        (7, "rebel", "RS#5")]                                # played
    places = state["places"]
    assert [e["card"] for e in places["new"]] == ["G#5"] and state["rolls"]["G#5"] == {
        "system": "Wex"}
    assert [e["card"] for e in places["due"]] == ["RS#5"]
    assert places["discard"] == ["G#19", "M#14", "M#2"]
    assert places["lasting"] == ["H#1", "H#3", "H#2", "IS#4", "IS#2"]
    assert state["first_right"] == "imperial"
    assert places["hands"] == {"rebel": ["RS#1"], "imperial": ["IS#1"]}
    assert places["secret_decks"]["imperial"] == ["IS#5", "IS#3", "IS#6"]
    assert sorted(places["secret_decks"]["imperial"]) == ["IS#3", "IS#5", "IS#6"]
    assert state["general_research"] == {"rebel": 0, "imperial": 0}
    assert state["force_points"]["imperial"] == -12                 # H#2's payment
    assert state["turn"] == 7 and state["outcome"] is not None


def test_c1_log_turn_by_turn():
    # FIG-EVT-4, FIG-EVT-5, FIG-EVT-6, FIG-EVT-7, FIG-EVT-8, FIG-EVT-10, FIG-EVT-12: the
    # expected log's milestones in order.
    state, _, _ = play_c1()
    by_turn = {}
    for e in state["log"]:
        by_turn.setdefault(e["turn"], []).append((e["rule"], e["text"]))

    def has(turn, rule, text):
        assert (rule, text) in by_turn[turn], (turn, [x for x in by_turn[turn] if x[0] == rule])

    has(1, "FIG-EVT-10", "the Due box is empty")
    has(1, "FIG-EVT-5", "no card may be played from hand in game turn 1")
    has(1, "FIG-EVT-4", "the New box moves to the Due box: H#1")
    has(1, "FIG-EVT-4", "H#3 drawn into the New box")
    has(2, "FIG-EVT-10", "H#1 leaves the Due box for the lasting box")
    has(2, "FIG-EVT-5", "no card may be played from hand in game turn 2")
    has(2, "FIG-EVT-4", "H#2 drawn into the New box")
    has(3, "FIG-EVT-12", "the imperial receives a secret card (H#2)")
    has(3, "FIG-EVT-8", "M#14 drawn for G#19 face-up on top")
    has(3, "FIG-EVT-8", "a Major card drawn for G#19 face-down beneath")
    has(4, "FIG-EVT-6", "the rebel (First Right) declines to play")
    has(4, "FIG-EVT-4", "the imperial plays IS#4 Galactic Games into the Due box")
    has(4, "FIG-EVT-6", "the First Right stays with the rebel")
    has(4, "FIG-EVT-4", "IS#4 was played: the New box stays and no card is drawn")
    has(5, "FIG-EVT-7", "the imperial spends 1 General Research to contest (now 0)")
    has(5, "FIG-EVT-7", "the rebel has no General Research to prevail")
    has(5, "FIG-EVT-7", "the imperial plays IS#2 Rebel Traitor into the Due box (forced by its "
                        "contest)")
    has(6, "FIG-EVT-6", "the imperial declines to play")
    has(6, "FIG-EVT-8", "M#2 beneath G#19 is turned face-up in the Due box")
    has(6, "FIG-EVT-17", "G#5 Space Whale Migrations: Wex")
    has(7, "FIG-EVT-10", "M#2 leaves the Due box for the discard pile")
    has(7, "FIG-EVT-7", "the imperial has no General Research to contest")
    has(7, "FIG-EVT-6", "the First Right passes to the imperial")
    assert not any(r == "FIG-EVT-5" for r, _ in by_turn[4])


def test_c1_hidden_information_stays_hidden():
    # FIG-EVT-2, FIG-EVT-12: the Rebel sees the Imperial's hand only as a count, not the card
    # kept, nor the decks' order.
    state, _, _ = play_c1()
    rebel = deck.redact(state, "rebel")
    assert rebel["places"]["hands"]["imperial"] == {"count": 1, "historic": []}
    assert rebel["places"]["hands"]["rebel"] == ["RS#1"]
    assert isinstance(rebel["places"]["g_deck"], int) and isinstance(rebel["places"]["m_deck"],
                                                                      int)
    assert not any("IS#1" in e["text"] for e in rebel["log"])
    imperial = deck.redact(state, "imperial")
    assert any("keeps IS#1" in e["text"] for e in imperial["log"])
    # FIG-EVT-7: the card the Rebel wanted to play in turn 5 stays his secret
    assert not any("RS#1" in e["text"] for e in imperial["log"])
    assert any(e["text"] == "the rebel wants to play RS#1" for e in rebel["log"])


def test_c1_opening_from_a_full_set_up():
    # FIG-EVT-3: the seven set-up steps with scripted shuffles and the sides' picks.
    t = deck_tables(data())
    scenario = {"id": "fresh", "kind": "events-deck", "context": {"last_turn": 1}}
    state = deck.new_state(data(), scenario, {}, seed=1)
    script = (order(t.of_kind("galactic"), ["G#1", "G#8", "G#11", "G#24", "G#19", "G#5"])
              + order(t.of_kind("major"), ["M#14", "M#2"])
              + order(["H#2", "H#3"], ["H#3", "H#2"]))
    ctx = deck.DeckContext(state, rng=ScriptedRng(script))
    run(ctx)
    for side, picks in (("rebel", ["RS#1", "RS#5"]), ("imperial", ["IS#4", "IS#2"])):
        for card in picks:
            reply(ctx, {"verb": "pick", "card": card}, kind="deck_pick_secret", role=side)
    places = state["places"]
    assert places["removed"] == ["G#1", "G#8", "G#11", "G#24"]
    # turn 1 waits at H#1's due prompt, before H#3 is drawn
    assert places["g_deck"][:4] == ["H#3", "H#2", "G#19", "G#5"]
    assert places["new"] == [] and places["due"][0]["card"] == "H#1"
    assert places["hands"] == {"rebel": ["RS#1", "RS#5"], "imperial": ["IS#4", "IS#2"]}
    assert texts(state, "FIG-EVT-3")[0] == "the First Right marker goes to the rebel"
    assert ctx.rng.left == 0
