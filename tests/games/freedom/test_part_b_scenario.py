"""Scenario B1 of rules-freedom.md section 6, reproduced draw by draw from ``scenarios/freedom/
b1.yaml`` with the mug order scripted: shared bonus draws and a blocked Shelter!."""

from __future__ import annotations

import yaml

from struggle_desktop.engine.paths import scenarios_dir
from struggle_desktop.games.freedom import chits
from struggle_desktop.games.freedom.chits_data import chit_tables

from .test_part_b_helpers import ScriptedRng, data, order, reply, run

B1_DRAWS = ["U-21", "U-46", "U-24", "U-33", "U-56", "U-15"]


def b1_scenario() -> dict:
    return yaml.safe_load((scenarios_dir() / "freedom" / "b1.yaml").read_text(encoding="utf-8"))


def play_b1():
    scenario = b1_scenario()
    state = chits.new_state(data(), scenario, {}, seed=1)
    mug = chit_tables(data()).mug("urban")
    rng = ScriptedRng(order(mug, B1_DRAWS))
    ctx = chits.ChitContext(state, rng=rng)
    run(ctx)
    prompts = []
    while state["outcome"] is None:
        prompts.append((state["pending"]["kind"], state["pending"]["k"]))
        reply(ctx, {"verb": "draw"}, kind="chit_next", role="phasing")
    return state, rng, prompts


def test_b1_scenario_file_is_a_chit_mug_scenario():
    # FIG-GEN-7: B1 ships as scenario b1 of kind chit-mug.
    scenario = b1_scenario()
    assert scenario["id"] == "b1" and scenario["kind"] == "chit-mug"
    state = chits.new_state(data(), scenario, {}, seed=5)
    assert state["kind"] == "chit-mug" and state["game"] == "freedom"
    assert state["stack"] == [{"proc": "chit_environs", "step": "start"}]
    assert [g["bonus_draws"] for g in state["groups"]] == [2, 1]


def test_b1_reproduced_exactly():
    # FIG-CHIT-6, FIG-CHIT-7, FIG-CHIT-8, FIG-CHIT-9, FIG-CHIT-11, FIG-CHIT-14, FIG-CHIT-15,
    # FIG-CHIT-25: the expected log and outcome of scenario B1.
    state, rng, prompts = play_b1()
    assert rng.left == 0
    # the phasing player is asked before every draw but the first (FIG-CHIT-7)
    assert prompts == [("chit_next", 2), ("chit_next", 3), ("chit_next", 1), ("chit_next", 2),
                       ("chit_next", 3)]
    assert [(d["chit"], d["draw"], d["k"], d["event"]) for d in state["drawn"]] == [
        ("U-21", "regular", 1, "applied"), ("U-46", "regular", 2, "applied"),
        ("U-24", "regular", 3, "blocked"), ("U-33", "bonus", 1, "not applied"),
        ("U-56", "bonus", 2, "not applied"), ("U-15", "bonus", 3, "not applied")]
    log = [(e["rule"], e["text"]) for e in state["log"]]
    expected = [
        ("FIG-CHIT-6", "Regular 1: U-21 \u201cH · Contacts! · I\u201d"),
        ("FIG-CHIT-14", "Contacts!: +1 bonus draw for every active group (G1 3, G2 2)"),
        ("FIG-CHIT-15", "U-21 counts for every active group: G2 scores I 1 (regular)"),
        ("FIG-CHIT-6", "Regular 2: U-46 \u201cD · Security Measures! (detected) · P\u201d"),
        ("FIG-CHIT-17", "Security Measures!: every character here is detected"),
        ("FIG-CHIT-15", "U-46 counts for every active group: G1 scores D 1 (regular)"),
        ("FIG-CHIT-6", "Regular 3: U-24 \u201cD · Shelter! · H\u201d"),
        ("FIG-CHIT-11", "Shelter! is blocked by the contradicting event that happened first"),
        ("FIG-CHIT-15", "U-24 counts for every active group: G1 scores D 2 (regular)"),
        ("FIG-CHIT-8", "bonus counts G1 3, G2 2: 3 shared bonus chits to draw"),
        ("FIG-CHIT-6", "Bonus 1: U-33 \u201cQ · Delayed by Rumors! · P\u201d"),
        ("FIG-CHIT-9", "U-33: events do not apply on bonus draws"),
        ("FIG-CHIT-15", "U-33 counts for G1, G2: no letter scores"),
        ("FIG-CHIT-6", "Bonus 2: U-56 \u201cI · Enemy Agent! · T\u201d"),
        ("FIG-CHIT-9", "U-56: events do not apply on bonus draws"),
        ("FIG-CHIT-15", "U-56 counts for G1, G2: G2 scores I 2 (bonus)"),
        ("FIG-CHIT-6", "Bonus 3: U-15 \u201cR · Locals raid Enemy Forces! · –\u201d"),
        ("FIG-CHIT-9", "U-15: events do not apply on bonus draws"),
        ("FIG-CHIT-15", "U-15 counts for G1: no letter scores"),
        ("FIG-CHIT-6", "6 chits drawn in this environs go back into the mug"),
    ]
    body = [x for x in log if x[0] not in ("FIG-CHIT-1",) and not x[1].endswith("shuffled")]
    assert body == expected
    g1, g2 = state["groups"]
    assert [(x["letter"], x["chit"], x["draw"]) for x in g1["letters"]] == [
        ("D", "U-46", "regular"), ("D", "U-24", "regular")]
    assert [(x["letter"], x["chit"], x["draw"]) for x in g2["letters"]] == [
        ("I", "U-21", "regular"), ("I", "U-56", "bonus")]
    outcome = state["outcome"]
    assert outcome[0]["rule"] == "FIG-CHIT-25"
    assert (outcome[0]["group"], outcome[0]["letters"], outcome[0]["regular"],
            outcome[0]["bonus"]) == ("G1", 2, 2, 0)
    assert (outcome[1]["group"], outcome[1]["letters"], outcome[1]["regular"],
            outcome[1]["bonus"]) == ("G2", 2, 1, 1)
    assert {"rule": "FIG-CHIT-17", "text": "every character here ends detected"} in outcome
    assert outcome[-1]["chits"] == B1_DRAWS and len(set(outcome[-1]["chits"])) == 6
    assert state["mug"] == [] and state["pending"] is None


def test_b1_log_entries_carry_rule_ids_and_no_mug_order():
    # FIG-GEN-6: every entry names its rule; FIG-CHIT-6: the shuffle is logged, not the order.
    state, _, _ = play_b1()
    assert all(e["rule"].startswith("FIG-") for e in state["log"])
    shuffle = [e for e in state["log"] if e["kind"] == "shuffle"]
    assert len(shuffle) == 1 and shuffle[0]["text"] == "the Urban mug: 36 shuffled"
