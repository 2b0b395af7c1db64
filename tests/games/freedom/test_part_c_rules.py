"""Part C rules, one Events Segment or a few at a time from hand-made track positions, with
the shuffles and dice scripted (rules-freedom.md section 4). Each test cites the rules it
exercises."""

from __future__ import annotations

import copy

import pytest

from struggle_desktop.engine.errors import DataError
from struggle_desktop.games.freedom import deck
from struggle_desktop.games.freedom.data import FreedomData
from struggle_desktop.games.freedom.deck_data import DeckTables, deck_tables

from .test_part_b_helpers import ScriptedRng, d6, data, legal, order, reply, run, texts


def position(turn=5, g_deck=("G#14", "G#15", "G#16"), m_deck=("M#20", "M#21", "M#22"),
             new=(), due=(), hands=None, gr=None, fp=None, first_right="rebel", last_turn=None,
             options=None, **places) -> dict:
    """A state waiting to run the Events Segment of ``turn`` with the places given (``new`` and
    ``due`` as card ids, or entries for face-down cards); the run ends after ``last_turn``
    (default: this turn)."""
    scenario = {"id": "t", "kind": "events-deck",
                "context": {"first_turn": turn, "last_turn": last_turn or turn,
                            "first_right": first_right}}
    state = deck.new_state(data(), scenario, options or {}, seed=1)
    p = state["places"]
    p["g_deck"] = list(g_deck)
    p["m_deck"] = list(m_deck)
    p["new"] = [x if isinstance(x, dict) else deck.entry(x) for x in new]
    p["due"] = [x if isinstance(x, dict) else deck.entry(x) for x in due]
    p["hands"] = hands or {"rebel": [], "imperial": []}
    p["secret_decks"] = {"rebel": [c for c in ("RS#1", "RS#2", "RS#3", "RS#4", "RS#5", "RS#6")
                                   if c not in p["hands"]["rebel"]],
                         "imperial": [c for c in ("IS#1", "IS#2", "IS#3", "IS#4", "IS#5", "IS#6")
                                      if c not in p["hands"]["imperial"]]}
    p["removed"] = ["G#1", "G#2", "G#3", "G#4"]
    p["historic"] = ["H#4", "H#5", "H#6", "H#7", "H#8"]
    for key, value in places.items():
        p[key] = copy.deepcopy(value) if isinstance(value, dict) else list(value)
    state["general_research"] = gr or {"rebel": 0, "imperial": 0}
    state["force_points"] = fp or {"rebel": 0, "imperial": 0}
    state["stack"] = [{"proc": "deck_game", "step": "segment"}]
    return state


def go(state, script=(), *answers, data_=None):
    """Run with the scripted generator, answering deck_card with ok, deck_between with done
    and the queued ``(kind, action)`` pairs when their kind comes up."""
    ctx = deck.DeckContext(state, data=data_, rng=ScriptedRng(script))
    run(ctx)
    queue = list(answers)
    shown = []
    while state["pending"] is not None:
        p = state["pending"]
        if queue and queue[0][0] == p["kind"]:
            reply(ctx, queue.pop(0)[1], kind=p["kind"])
        elif p["kind"] == "deck_card":
            shown.append((p["card"], p["moment"], p["role"]))
            reply(ctx, {"verb": "ok"})
        elif p["kind"] == "deck_between":
            reply(ctx, {"verb": "done"})
        else:
            raise AssertionError(f"unexpected prompt {p['kind']}: {p['text']}")
    assert not queue, queue
    assert ctx.rng.left == 0, f"{ctx.rng.left} scripted answers left"
    return shown


def cards(box):
    return [e["card"] for e in box]


# ============================================================================ data
def test_81_cards_in_five_kinds():
    # FIG-EVT-1, FIG-EVT-15: the views over the card table.
    t = deck_tables(data())
    assert [len(t.of_kind(k)) for k in ("galactic", "major", "historic", "imperial_secret",
                                        "rebel_secret")] == [28, 33, 8, 6, 6]
    assert t.card("G#19").trigger == {"face_up_m": 1, "face_down_m": 1, "face_down_g": 0}
    assert t.card("M#12").effects("on_draw")[0]["amount"] == -8
    assert t.after_due("G#5") == "discard" and t.after_due("RS#2") == "lasting"


def test_a_broken_trigger_count_fails_the_load_check():
    # FIG-EVT-8: the triggers draw 30 Major cards per pass.
    tables = copy.deepcopy(dict(data().tables.tables))
    for c in tables["events_cards"]["cards"]:
        if c["id"] == "G#27":
            c["trigger"]["face_down_m"] = 1
    fake = FreedomData(use_overrides=False)
    fake.__dict__["tables"] = tables
    with pytest.raises(DataError, match="FIG-EVT-8"):
        DeckTables(fake)


@pytest.mark.parametrize("setup, message", [
    ({"removed": ["G#1", "G#2"]}, "removed"),
    ({"g_deck_top": ["G#5", "H#2", "H#3"]}, "H#2 and H#3"),
    ({"hands": {"rebel": ["IS#1", "RS#2"]}}, "rebel hand"),
    ({"g_deck_top": ["H#2", "H#3", "G#1"], "removed": ["G#1", "G#2", "G#3", "G#4"]}, "removed"),
])
def test_a_fixed_set_up_must_be_possible(setup, message):
    # FIG-EVT-3
    with pytest.raises(DataError, match=message):
        deck.new_state(data(), {"id": "t", "context": {"setup": setup}}, {}, seed=1)


# ============================================================================ the segment
def test_prevailing_with_general_research_passes_the_first_right():
    # FIG-EVT-6, FIG-EVT-7: contested, the holder spends General Research and plays.
    state = position(hands={"rebel": ["RS#3"], "imperial": ["IS#5"]},
                     gr={"rebel": 1, "imperial": 2})
    go(state, (), ("deck_play", {"verb": "play", "card": "RS#3"}),
       ("deck_contest", {"verb": "contest"}), ("deck_prevail", {"verb": "prevail"}))
    assert cards(state["places"]["due"]) == ["RS#3"]
    assert state["general_research"] == {"rebel": 0, "imperial": 1}
    assert state["first_right"] == "imperial"
    assert state["places"]["hands"]["imperial"] == ["IS#5"]
    assert cards(state["places"]["new"]) == []                       # nothing drawn


def test_yielding_forces_the_contestant_to_play():
    # FIG-EVT-7: the holder keeps his card, the contesting side must play one.
    state = position(hands={"rebel": ["RS#3"], "imperial": ["IS#5", "IS#6"]},
                     gr={"rebel": 1, "imperial": 1})
    go(state, (), ("deck_play", {"verb": "play", "card": "RS#3"}),
       ("deck_contest", {"verb": "contest"}), ("deck_prevail", {"verb": "yield"}),
       ("deck_forced_play", {"verb": "play", "card": "IS#6"}))
    assert cards(state["places"]["due"]) == ["IS#6"]
    assert state["places"]["hands"] == {"rebel": ["RS#3"], "imperial": ["IS#5"]}
    assert state["first_right"] == "rebel" and state["general_research"]["rebel"] == 1


def test_no_contest_without_a_card_in_hand_and_an_uncontested_play():
    # FIG-EVT-6, FIG-EVT-7: a side with no card cannot contest; allowing lets the play stand.
    state = position(hands={"rebel": ["RS#3"], "imperial": []}, gr={"rebel": 0, "imperial": 3})
    go(state, (), ("deck_play", {"verb": "play", "card": "RS#3"}))
    assert state["first_right"] == "imperial" and state["general_research"]["imperial"] == 3
    state = position(hands={"rebel": ["RS#3"], "imperial": ["IS#1"]},
                     gr={"rebel": 0, "imperial": 3})
    go(state, (), ("deck_play", {"verb": "play", "card": "RS#3"}),
       ("deck_contest", {"verb": "allow"}))
    assert cards(state["places"]["due"]) == ["RS#3"] and state["first_right"] == "imperial"


def test_no_play_draws_the_next_galactic_card():
    # FIG-EVT-4: no card played, the New box moves on and the top G card is drawn.
    state = position(new=["G#14", "M#20"], g_deck=["G#9", "G#10"],
                     hands={"rebel": ["RS#1"], "imperial": ["IS#1"]})
    go(state, (), ("deck_play", {"verb": "pass"}), ("deck_play", {"verb": "pass"}))
    assert cards(state["places"]["due"]) == ["G#14", "M#20"]
    assert cards(state["places"]["new"]) == ["G#9"]
    assert state["places"]["g_deck"] == ["G#10"]


def test_moments_are_shown_to_the_side_concerned():
    # FIG-EVT-14: G#6 (the Imperial's card) turned up; M#3 due gives the Rebel 2 force points.
    state = position(new=["M#3"], g_deck=["G#6", "G#9"], first_right="imperial")
    shown = go(state)
    assert shown == [("M#3", "due", "rebel"), ("G#6", "up", "imperial")]
    assert state["force_points"]["rebel"] == 2
    assert any(r["text"].startswith("G#6 Empire Rallies, turned face-up:")
               for r in state["outcome"])


# ============================================================================ triggers
def test_three_major_events_one_up_two_down_all_due():
    # FIG-EVT-8: G#27 draws one M face-up and two face-down; in the Due box all apply.
    state = position(g_deck=["G#27", "G#9", "G#10"], m_deck=["M#13", "M#17", "M#27", "M#24"],
                     last_turn=6)
    shown = go(state)
    assert [(e["card"], e["up"], e["with"]) for e in state["places"]["due"]] == [
        ("G#27", True, None), ("M#13", True, "G#27"), ("M#17", True, "G#27"),
        ("M#27", True, "G#27")]
    assert cards(state["places"]["new"]) == ["G#9"]
    assert ("M#17", "up", "rebel") in shown and ("M#27", "up", "rebel") in shown
    assert "M#17 beneath G#27 is turned face-up in the Due box" in texts(state, "FIG-EVT-8")


def test_a_sudden_major_event_has_no_effect_until_due():
    # FIG-EVT-8: G#12 draws one M face-down; it is not shown until the stack is due.
    state = position(g_deck=["G#12", "G#9"], m_deck=["M#12", "M#20"])
    shown = go(state)
    assert [(e["card"], e["up"]) for e in state["places"]["new"]] == [("G#12", True),
                                                                       ("M#12", False)]
    assert state["force_points"] == {"rebel": 0, "imperial": 0}
    assert [s[0] for s in shown] == ["G#12"]
    state = position(new=["G#12", deck.entry("M#12", False, "G#12")], g_deck=["G#9", "G#10"])
    go(state)
    assert state["force_points"] == {"rebel": 8, "imperial": -8}     # M#12 when turned up


def test_g11_hides_a_galactic_card_that_counts_as_a_g_draw():
    # FIG-EVT-9, FIG-EVT-11: the hidden G card is the deck's last: the deck is rebuilt.
    state = position(g_deck=["G#11", "G#19"], m_deck=["M#20", "M#21", "M#22"],
                     discard=["G#5", "G#6", "G#7", "M#9"], last_turn=6)
    t = deck_tables(data())
    g_pile = ["G#5", "G#6", "G#7", "G#1", "G#2", "G#3", "G#4"]
    m_pile = ["M#9", "M#21", "M#22"]
    script = order(g_pile, ["G#2", "G#3", "G#4", "G#5", "G#1", "G#6", "G#7"]) + order(m_pile,
                                                                                      [])
    ctx_shown = go(state, script)
    assert t.card("G#11").trigger["face_down_g"] == 1
    # turn 5: G#11 with M#20 face-up and G#19 face-down; the G deck ran out and was rebuilt
    assert "new G deck of 3 cards (4 removed unseen), new M deck of 3 cards" in texts(
        state, "FIG-EVT-11")
    assert state["places"]["removed"] == ["G#2", "G#3", "G#4", "G#5"]
    # turn 6: the stack is due, G#19 is turned up and, a trigger card, draws its two M
    # cards face-up at once
    due = [(e["card"], e["up"], e["with"]) for e in state["places"]["due"]]
    assert due == [("G#11", True, None), ("M#20", True, "G#11"), ("G#19", True, "G#11"),
                   ("M#9", True, "G#19"), ("M#21", True, "G#19")]
    assert "G#19, hidden by G#11, takes effect in the Due box" in texts(state, "FIG-EVT-9")
    assert ("G#19", "due", "rebel") in ctx_shown
    assert cards(state["places"]["new"]) == ["G#1"] and state["places"]["g_deck"] == ["G#6",
                                                                                      "G#7"]


def test_leaving_the_due_box_and_retiring_lasting_cards():
    # FIG-EVT-10: G and M cards to the discard pile, H and secret cards to the lasting box,
    # where the players may retire them.
    state = position(due=["G#14", "M#20", "H#2", "RS#2"], g_deck=["G#9", "G#10", "G#15"],
                     last_turn=6)
    ctx = deck.DeckContext(state, rng=ScriptedRng())
    run(ctx)
    while state["pending"]["kind"] != "deck_between":
        reply(ctx, {"verb": "ok"})
    assert state["places"]["discard"] == ["G#14", "M#20"]
    assert state["places"]["lasting"] == ["H#2", "RS#2"]
    reply(ctx, {"verb": "retire", "card": "H#2"}, kind="deck_between", role="rebel")
    assert state["places"]["retired"] == ["H#2"] and state["places"]["lasting"] == ["RS#2"]


def test_m_deck_rebuilt_with_the_g_deck_and_boxes_kept():
    # FIG-EVT-11: cards in the New and Due boxes stay out of the new decks.
    state = position(g_deck=["G#9"], m_deck=["M#30"], new=["G#14", "M#5"],
                     discard=["G#6", "M#7", "M#8"])
    script = order(["G#6", "G#1", "G#2", "G#3", "G#4"], []) + order(["M#7", "M#8", "M#30"], [])
    go(state, script)
    p = state["places"]
    assert p["removed"] == ["G#6", "G#1", "G#2", "G#3"] and p["g_deck"] == ["G#4"]
    assert p["m_deck"] == ["M#7", "M#8", "M#30"] and p["discard"] == []
    assert cards(p["due"]) == ["G#14", "M#5"] and cards(p["new"]) == ["G#9"]


# ============================================================================ secret cards
def test_a_secret_card_from_the_last_card_gives_nothing():
    # FIG-EVT-12: all but one of a single card is none.
    state = position(new=["G#8"], secret_decks={"rebel": ["RS#6"], "imperial": ["IS#6",
                                                                                "IS#2"]})
    go(state, order(["IS#6", "IS#2"], ["IS#2"]), ("deck_keep_secret", {"verb": "keep",
                                                                       "card": "IS#2"}))
    assert state["places"]["hands"] == {"rebel": [], "imperial": ["IS#2"]}
    assert any("1 card(s) are left in its deck: nothing is received" in r["text"]
               for r in state["report"])


def test_h8_gives_both_sides_a_secret_card_when_a_crisis_is_confirmed():
    # FIG-EVT-12, FIG-EVT-13, FIG-EVT-23: one secret card each, First Right holder first.
    state = position(hands={"rebel": ["H#8"], "imperial": []})
    # playing H#8 passed the First Right: the Imperial receives first
    script = (order(["IS#1", "IS#2", "IS#3", "IS#4", "IS#5", "IS#6"], [])
              + order(["RS#1", "RS#2", "RS#3", "RS#4", "RS#5", "RS#6"], ["RS#4"]))
    go(state, script, ("deck_play", {"verb": "play", "card": "H#8"}),
       ("deck_keep_secret", {"verb": "keep", "card": "IS#5"}),
       ("deck_keep_secret", {"verb": "keep", "card": "RS#4"}))
    assert state["places"]["hands"] == {"rebel": ["RS#4"], "imperial": ["IS#5"]}
    assert len(state["places"]["secret_decks"]["rebel"]) == 5
    assert "the rebel confirms that a Provincial Crisis exists" in texts(state, "FIG-EVT-13")


def test_historic_cards_taken_when_their_condition_is_declared():
    # FIG-EVT-13: H#4 to H#8 go into their side's hand on the players' word.
    state = position(last_turn=6, g_deck=["G#9", "G#10", "G#14"])
    ctx = deck.DeckContext(state, rng=ScriptedRng())
    run(ctx)
    while state["pending"]["kind"] != "deck_between":
        reply(ctx, {"verb": "ok"})
    options = legal(ctx)
    assert {"verb": "take_historic", "card": "H#4"} in options
    assert {"verb": "take_historic", "card": "H#6"} not in options      # the Imperial's
    reply(ctx, {"verb": "take_historic", "card": "H#4"}, role="rebel")
    assert state["places"]["hands"]["rebel"] == ["H#4"] and "H#4" not in state["places"][
        "historic"]


def test_a_conditional_secret_card_is_claimed_later():
    # FIG-EVT-12, FIG-EVT-13: H#1's secret card waits for the players' word.
    state = position(new=["H#1"], last_turn=6, g_deck=["G#9", "G#10", "G#14"])
    ctx = deck.DeckContext(state, rng=ScriptedRng(order(
        ["RS#1", "RS#2", "RS#3", "RS#4", "RS#5", "RS#6"], [])))
    run(ctx)
    while state["pending"]["kind"] != "deck_between":
        reply(ctx, {"verb": "ok"})
    assert state["claims"] == {"H#1": "open"}
    reply(ctx, {"verb": "claim", "card": "H#1"}, role="rebel")
    reply(ctx, {"verb": "keep", "card": "RS#2"}, kind="deck_keep_secret", role="rebel")
    assert state["claims"] == {"H#1": "claimed"} and state["places"]["hands"]["rebel"] == ["RS#2"]
    assert {"verb": "claim", "card": "H#1"} not in legal(ctx)


# ============================================================================ sub-rolls
def test_g4_plague_provinces_with_sixes_and_repeats():
    # FIG-EVT-16: a 6 adds two rolls, a repeated province adds nothing.
    state = position(g_deck=["G#4", "G#9"])
    go(state, d6(6, 2, 6, 2, 6, 5, 1))
    assert state["rolls"]["G#4"] == {"provinces": [2, 5, 1]}


def test_g4_stops_after_twenty_rolls():
    # FIG-EVT-16: the loop guard.
    state = position(g_deck=["G#4", "G#9"])
    go(state, d6(*[6] * 20))
    assert state["rolls"]["G#4"] == {"provinces": []}
    assert "20 rolls made: the rest are not rolled (loop guard)" in texts(state, "FIG-EVT-16")


def test_m6_swarm_systems():
    # FIG-EVT-19: a 6 gives Gellas and one more roll.
    state = position(g_deck=["G#14", "G#9"], m_deck=["M#6", "M#20"])
    go(state, d6(6, 6, 3))
    assert state["rolls"]["M#6"] == {"systems": ["Gellas", "Ribex"]}


def test_m1_thief_returns_when_nothing_is_held():
    # FIG-EVT-18: the card goes back into the M deck, which is reshuffled.
    state = position(new=["M#1"], m_deck=["M#20", "M#21"], g_deck=["G#9", "G#10"])
    go(state, order(["M#20", "M#21", "M#1"], ["M#1"]),
       ("deck_m1_held", {"verb": "held", "possessions": []}))
    assert state["places"]["m_deck"] == ["M#1", "M#20", "M#21"]
    assert state["places"]["due"] == []


def test_m1_thief_rerolls_until_a_held_possession():
    # FIG-EVT-18
    state = position(new=["M#1"], g_deck=["G#9", "G#10"])
    go(state, d6(1, 3, 6), ("deck_m1_held", {"verb": "held",
                                             "possessions": ["Cache of Rare Gems"]}))
    assert state["rolls"]["M#1"] == {"possession": "Cache of Rare Gems"}
    assert texts(state, "FIG-EVT-18").count("Advisor Android is in the possession deck: "
                                            "rolled again") == 1


def test_is3_leaks_each_segment_until_unmasked():
    # FIG-EVT-20: a roll when played and at each later segment; a 6 is the Imperial's choice;
    # each reported use may unmask the clone.
    state = position(turn=5, last_turn=6, hands={"rebel": [], "imperial": ["IS#3"]},
                     g_deck=["G#9", "G#10", "G#14"], first_right="imperial")
    ctx = deck.DeckContext(state, rng=ScriptedRng(d6(3)))
    run(ctx)
    reply(ctx, {"verb": "play", "card": "IS#3"}, kind="deck_play", role="imperial")
    reply(ctx, {"verb": "ok"}, kind="deck_card", role="imperial")
    assert state["clone"] == {"active": True, "unmasked": False, "leak": "Frun Sentel"}
    ctx.rng.add(d6(2))
    reply(ctx, {"verb": "clone_used"}, kind="deck_between", role="rebel")
    assert state["clone"]["unmasked"] is False
    reply(ctx, {"verb": "done"}, kind="deck_between", role="rebel")
    ctx.rng.add(d6(6))
    reply(ctx, {"verb": "done"}, kind="deck_between", role="imperial")
    assert state["pending"]["kind"] == "deck_leak_choice"
    reply(ctx, {"verb": "leak", "character": "Yarro Latac"}, role="imperial")
    assert state["clone"]["leak"] == "Yarro Latac"


def test_is3_unmasked_stops_rolling():
    # FIG-EVT-20
    state = position(turn=5, last_turn=6, g_deck=["G#9", "G#10", "G#14"])
    state["clone"] = {"active": True, "unmasked": False, "leak": "Odene Hobar"}
    ctx = deck.DeckContext(state, rng=ScriptedRng(d6(2)))
    run(ctx)
    while state["pending"]["kind"] != "deck_between":
        reply(ctx, {"verb": "ok"})
    ctx.rng.add(d6(1))
    reply(ctx, {"verb": "clone_used"})
    assert state["clone"]["unmasked"] is True
    assert {"verb": "clone_used"} not in legal(ctx)
    drive_done(ctx)
    assert ctx.rng.left == 0


def drive_done(ctx):
    while ctx.state["pending"] is not None:
        kind = ctx.state["pending"]["kind"]
        reply(ctx, {"verb": "ok"} if kind == "deck_card" else {"verb": "done"})


# ============================================================================ GR, ledger
def test_general_research_reductions_on_g1_g2_g3():
    # FIG-EVT-21, FIG-EVT-22: offered to the First Right holder first; G#2 costs 5 force points
    # too; the First Right does not move.
    state = position(new=["G#2", "G#3"], g_deck=["G#1", "G#9"], gr={"rebel": 3, "imperial": 1},
                     fp={"rebel": 5, "imperial": 2})
    ctx = deck.DeckContext(state, rng=ScriptedRng())
    run(ctx)
    while state["pending"]["kind"] == "deck_card":
        reply(ctx, {"verb": "ok"})
    assert state["pending"]["role"] == "rebel"
    assert {"verb": "spend", "card": "G#1", "part": "a"} in legal(ctx)
    assert {"verb": "spend", "card": "G#2", "part": None} in legal(ctx)
    reply(ctx, {"verb": "spend", "card": "G#2", "part": None}, kind="deck_reduce")
    assert state["force_points"]["rebel"] == 0
    reply(ctx, {"verb": "spend", "card": "G#1", "part": "b"}, kind="deck_reduce")
    assert {"verb": "spend", "card": "G#1", "part": "a"} not in legal(ctx)   # once a turn
    reply(ctx, {"verb": "spend", "card": "G#3", "part": None}, kind="deck_reduce")
    assert state["pending"]["role"] == "imperial"
    imperial = legal(ctx)
    assert {"verb": "spend", "card": "G#2", "part": None} not in imperial     # 2 FP only
    assert {"verb": "spend", "card": "G#1", "part": "a"} in imperial
    assert {"verb": "spend", "card": "G#1", "part": "b"} not in imperial     # cancelled
    reply(ctx, {"verb": "decline"}, kind="deck_reduce")
    assert state["general_research"] == {"rebel": 0, "imperial": 1}
    assert state["first_right"] == "rebel"
    assert [(r["card"], r["side"], r["part"]) for r in state["reductions"]] == [
        ("G#2", "rebel", None), ("G#1", "rebel", "b"), ("G#3", "rebel", None)]


def test_force_points_per_planet_and_no_voluntary_debt():
    # FIG-EVT-22: M#30 asks each side its Ancore planets; a cost may go below zero, a player's
    # own change may not.
    state = position(new=["M#30"], g_deck=["G#9", "G#10"], fp={"rebel": 3, "imperial": 10},
                     last_turn=6)
    ctx = deck.DeckContext(state, rng=ScriptedRng())
    run(ctx)
    while state["pending"]["kind"] == "deck_card":
        reply(ctx, {"verb": "ok"})
    reply(ctx, {"verb": "count", "planets": 2}, kind="deck_count", role="rebel")
    reply(ctx, {"verb": "count", "planets": 1}, kind="deck_count", role="imperial")
    assert state["force_points"] == {"rebel": -1, "imperial": 8}
    while state["pending"]["kind"] == "deck_card":
        reply(ctx, {"verb": "ok"})
    moves = legal(ctx)
    assert {"verb": "adjust", "counter": "force_points", "by": -1} not in moves
    reply(ctx, {"verb": "adjust", "counter": "force_points", "by": 5}, kind="deck_between")
    assert state["force_points"]["rebel"] == 4


def test_printed_card_extras_only_by_option():
    # FIG-EVT-23: G#6's printed secret card needs the option; M#15 gives +3 once, when up.
    state = position(new=["G#6"], g_deck=["G#9", "G#10"])
    go(state)
    assert state["places"]["hands"]["imperial"] == []
    state = position(new=["G#6"], g_deck=["G#9", "G#10"], options={"g6_g7_secret_card": True})
    go(state, order(["IS#1", "IS#2", "IS#3", "IS#4", "IS#5", "IS#6"], []),
       ("deck_keep_secret", {"verb": "keep", "card": "IS#3"}))
    assert state["places"]["hands"]["imperial"] == ["IS#3"]
    state = position(g_deck=["G#14", "G#9", "G#10"], m_deck=["M#15", "M#20"], last_turn=6)
    go(state)
    assert state["force_points"]["imperial"] == 3


def test_manual_move_into_a_hand():
    # FIG-EVT-24: any face-up card, logged, never automatic.
    state = position(discard=["M#9"], last_turn=6, g_deck=["G#9", "G#10", "G#14"])
    ctx = deck.DeckContext(state, rng=ScriptedRng())
    run(ctx)
    while state["pending"]["kind"] != "deck_between":
        reply(ctx, {"verb": "ok"})
    reply(ctx, {"verb": "to_hand", "card": "M#9"}, role="rebel")
    assert state["places"]["hands"]["rebel"] == ["M#9"] and "M#9" not in state["places"][
        "discard"]
    assert "manual move: M#9 into the rebel's hand" in texts(state, "FIG-EVT-24")


def test_chit_cards_for_the_chit_mode():
    # FIG-CHIT-24: the cards in play that touch missions, for a chit context.
    state = position(new=["G#7", "M#9"], due=["M#14"], lasting=["H#1", "IS#2"])
    assert deck.chit_cards(state) == ["G#7", "M#14", "H#1"]
