"""The five acceptance scenarios of Part A (rules-freedom.md section 6, A1 to A5), loaded from
``scenarios/freedom/a1.yaml`` .. ``a5.yaml``, played with the reference's dice script and
decisions, and compared with the expected log (rule IDs, rolls and results) and outcome. A
script with faces left over, or one that runs out, fails (section 6, "Unused faces")."""

from __future__ import annotations

import pytest

from tests.games.freedom.helpers import (ScriptedDice, answers, at_call_off, at_hook, changes,
                                         char, drive, group, new, notes, rolls)

A1 = "d10:7 | p2d6:2,5 p2d6:1,3 | p2d6:4,4 p2d6:5,2 | p2d6:3,3 p2d6:6,1 p2d6:1,5"
A2 = ("p2d6:2,2 p2d6:3,3 | p2d6:5,6 p2d6:4,1 | p2d6:1,3 p2d6:6,6 | p2d6:2,1 p2d6:3,4 "
      "p2d6:5,5 p2d6:6,2 p2d6:4,6 p2d6:1,6 p2d6:2,6 | d10:9")
A3 = ("d10:10 d3:3 | p2d6:6,2 2d6:2,3 p2d6:4,2 | p2d6:3,5 d6:4 p2d6:2,2 | p2d6:1,1 p2d6:6,3 "
      "p2d6:2,5")
A4 = ("d10:6 d2:1 | p2d6:2,1 p2d6:3,3 | p2d6:1,4 p2d6:4,3 | p2d6:6,4 p2d6:5,1 | p2d6:3,2 d2:2 "
      "p2d6:2,5 | p2d6:6,5 p2d6:6,1 | p2d6:6,6 p2d6:5,2")
A5 = "p2d6:1,1 p2d6:2,3 p2d6:3,4 p2d6:4,2 p2d6:5,3 p2d6:6,1 p2d6:4,4 | 2d6:2,4"


def test_a1_rebel_diplomacy_with_a_good_bonus_segment():
    """A1: FIG-REC-1, FIG-REC-2, FIG-REC-3 (d10 7, loyalty 0, size -2, total 5: no recruit);
    FIG-MIS-3, FIG-MIS-4, FIG-MIS-5; FIG-RE-10 and FIG-MIS-14 (level 1); FIG-RE-14; FIG-MIS-19,
    FIG-BDR-8, FIG-BDR-4, FIG-BDR-10 (count 7); FIG-MIS-25 (stops after 3 of 7); FIG-MSN-4,
    FIG-MIS-22 (two shifts: neutral -> dissent -> unrest)."""
    state = drive(new("a1"), ScriptedDice(A1))
    assert rolls(state) == [
        ("FIG-REC-1", "d10:7", 5),
        ("FIG-MIS-6", "p2d6:2,5", 25), ("FIG-MS-1", "p2d6:1,3", 13),
        ("FIG-MIS-6", "p2d6:4,4", 44), ("FIG-MS-1", "p2d6:5,2", 52),
        ("FIG-MIS-19", "p2d6:3,3", 33), ("FIG-MIS-19", "p2d6:6,1", 61),
        ("FIG-MIS-19", "p2d6:1,5", 15)]
    recruit = next(e for e in state["log"] if e["rule"] == "FIG-REC-1" and e["kind"] == "roll")
    assert recruit["dice"][0]["modifiers"] == [["loyalty neutral", 0], ["size 2", -2]]
    assert notes(state, "FIG-REC-1")[-1].startswith("Recruitment fails")
    assert "G1 = D" in notes(state, "FIG-MIS-4")[0] and "valid" in notes(state, "FIG-MIS-4")[0]
    assert notes(state, "FIG-MIS-5") == ["The Mission Action segment has 2 steps"]
    assert notes(state, "FIG-RE-10")[-1] == "G1 gains 1 bonus roll (FIG-BDR-10)"
    assert notes(state, "FIG-RE-14")[-1].startswith("No more enemy searches")
    count = next(e for e in state["log"] if e["rule"] == "FIG-BDR-8")
    assert [t[1] for t in count["terms"]] == [4, 1, 0, 1, 0, 1]
    assert "bonus count 7" in count["text"]
    assert notes(state, "FIG-MIS-25") == ["G1 is at level 2, the most that helps: rolling stops "
                                          "after 3 of 7"]
    assert group(state, "G1")["level"] == 2 and group(state, "G1")["rolled"] == 3
    assert state["environs"]["loyalty"] == "unrest"
    assert changes(state) == [
        ("FIG-MIS-24", "G1 D (Diplomacy, Vudot Vodot): level 2"),
        ("FIG-MSN-4", "Loyalty shifts toward the rebel (G1 diplomacy level 2): neutral -> "
                      "dissent -> unrest"),
        ("FIG-MIS-23", "Mulligans held: rebel 0, imperial 0")]


def test_a2_a_failed_assassination():
    """A2: FIG-REC-1 (empty pool: skipped); FIG-RE-8 (Bridn detected); FIG-RE-20 with one
    candidate and no roll (FIG-MIS-8); FIG-RE-3; FIG-BDR-8 (A count 7 + 1 - 1); seven bonus
    rolls without an A; FIG-MIS-21, FIG-MSN-1 (d10 9: captured)."""
    state = drive(new("a2"), ScriptedDice(A2))
    assert [r[2] for r in rolls(state)] == [22, 33, 56, 41, 13, 66, 21, 34, 55, 62, 46, 16, 26, 9]
    assert notes(state, "FIG-REC-1") == ["The rebel side has nobody left to recruit: the "
                                         "segment is skipped"]
    assert "Detected: Bridn Murcada" in notes(state, "FIG-RE-8")
    assert "G1 is the only candidate: no roll" in notes(state, "FIG-RE-20")
    assert notes(state, "FIG-RE-3")[-1].startswith("Creature attacks are ignored")
    count = next(e for e in state["log"] if e["rule"] == "FIG-BDR-8")
    assert [t[:2] for t in count["terms"]] == [["Bridn Murcada, leader", 7], ["alone", 1],
                                                ["detected", 0], ["events and creatures", -1]]
    assert group(state, "G1")["rolled"] == 7 and group(state, "G1")["level"] == 0
    assert rolls(state, "FIG-MSN-1") == [("FIG-MSN-1", "d10:9", 9)]
    bridn, jin = char(state, "Bridn Murcada"), char(state, "Jin Voles")
    assert bridn["captured"] and bridn["detected"] and not bridn["dead"]
    assert not jin["dead"] and not jin["captured"] and jin["hits"] == 0
    assert ("FIG-MSN-1", "Bridn Murcada is captured (G1 failed)") in changes(state)


def a3_decisions():
    return answers((at_call_off(2), {"verb": "call_off", "group": "G2"}),
                   (at_hook("patrol"), {"verb": "result", "result": "no_effect"}),
                   (at_hook("combat"), {"verb": "hit", "character": "Thysa Kimbo"}),
                   (at_hook("combat"), {"verb": "result", "result": "driven_off"}))


def test_a3_imperial_coup_aborted_information_and_interrogation_succeed():
    """A3: FIG-REC-1 (a natural 10 beats the total 8), FIG-REC-4 (d3 3: Telmen); FIG-MIS-4;
    FIG-RE-21 aborts G1 (FIG-MIS-12); FIG-CA-1 2d6 5 (shift, patrol with no roll, FIG-HOOK-3,
    everyone detected); FIG-RE-12 with FIG-LOC-3 (Segundens 2/1 urban), a mob of 4 and
    FIG-HOOK-2 / FIG-HOOK-8 (Thysa 1 hit); FIG-MIS-16 (G2 called off at 2); FIG-MIS-17 (step 3
    skipped); FIG-MIS-19 (G1, G2 no rolls); FIG-BDR-13 (Q count 7); FIG-MSN-8, FIG-MSN-11."""
    decide = a3_decisions()
    state = drive(new("a3"), ScriptedDice(A3), decide)
    assert decide.queue == []
    assert rolls(state) == [
        ("FIG-REC-1", "d10:10", 8), ("FIG-REC-4", "d3:3", 3),
        ("FIG-MIS-6", "p2d6:6,2", 62), ("FIG-CA-1", "2d6:2,3", 5), ("FIG-MS-1", "p2d6:4,2", 42),
        ("FIG-MIS-6", "p2d6:3,5", 35), ("FIG-LOC-1", "d6:4", 4), ("FIG-MS-1", "p2d6:2,2", 22),
        ("FIG-MIS-19", "p2d6:1,1", 11), ("FIG-MIS-19", "p2d6:6,3", 63),
        ("FIG-MIS-19", "p2d6:2,5", 25)]
    assert "a natural 10" in notes(state, "FIG-REC-1")[-1]
    telmen = char(state, "Telmen")
    assert telmen["side"] == "imperial" and telmen["detected"]   # detected later by FIG-CA-1
    assert group(state, "G1")["status"] == "aborted"
    assert "The patrol comes from the only enemy unit, U1" in notes(state, "FIG-CA-1")
    assert any(n.endswith("dissent -> unrest") for n in notes(state, "FIG-CA-1"))
    assert "Detected: Jon Kidu, Thysa Kimbo, Els Taroff, Telmen" in notes(state, "FIG-CA-1")
    assert notes(state, "FIG-LOC-3") == ["Segundens fight at 2/1 in urban environs"]
    hook = next(e for e in state["log"] if e["rule"] == "FIG-HOOK-2")
    assert "driven_off" in hook["text"] and not hook["auto_default"]
    assert char(state, "Thysa Kimbo")["hits"] == 1
    assert group(state, "G2")["status"] == "called_off" and group(state, "G2")["level"] == 2
    assert notes(state, "FIG-MIS-17") == ["No group is active: the remaining 1 step is skipped"]
    assert state["turn"] == 2
    assert notes(state, "FIG-MIS-19") == ["G1 was aborted: no bonus rolls",
                                          "G2 was called off: no bonus rolls"]
    count = next(e for e in state["log"] if e["rule"] == "FIG-BDR-13")
    assert [t[1] for t in count["terms"]] == [3, 5, -1]
    assert group(state, "G3")["level"] == 1 and group(state, "G3")["rolled"] == 3
    assert state["environs"]["loyalty"] == "unrest"
    assert state["environs"]["last_coup_by"] == "rebel"       # the coup marker is unchanged
    lines = changes(state)
    assert ("FIG-MSN-8", "The imperial side inspects every rebel starfleet in the province") in lines
    secrets = changes(state, "secret")
    assert [r for r, _ in secrets] == ["FIG-MSN-8", "FIG-MSN-11"]
    assert all("names two eligible planets, not his secret base" in t for _, t in secrets)
    assert ("FIG-REC-4", "Telmen joins the imperial side and enters play here, undetected") in lines
    assert any(r == "FIG-HOOK-8" and "Thysa Kimbo takes 1 hit" in t for r, t in lines)


def test_a4_lucky_strike_civil_war_ignored_rebellion_started():
    """A4: FIG-REC-1, FIG-REC-3 (6 + 2 unrest + 2 size = 10), FIG-REC-4 (d2 1: Kogus); FIG-RE-7;
    FIG-RE-4 ignored entirely (FIG-MIS-10, FIG-MIS-11: no shift, no bonus, not counted);
    FIG-RE-22; FIG-RE-11 with d2 2 (G2), FIG-FOE-1 and FIG-CRE-6 (-1 bonus roll); G1 called off
    at level 1; FIG-MIS-9 (65 is no event); FIG-RE-23 and FIG-MIS-20; FIG-MIS-21 (nothing);
    FIG-MIS-22: rebellion (FIG-MSN-12) with FIG-HOOK-6 and FIG-RE-22 reminders, PDB down
    (FIG-MSN-13)."""
    decide = answers((at_call_off(4), {"verb": "call_off", "group": "G1"}))
    state = drive(new("a4"), ScriptedDice(A4), decide)
    assert [r[:2] for r in rolls(state)[:2]] == [("FIG-REC-1", "d10:6"), ("FIG-REC-4", "d2:1")]
    assert rolls(state)[0][2] == 10
    assert char(state, "Kogus")["side"] == "rebel"
    assert state["environs"]["unrecruited"]["rebel"] == ["Prof. Mareg"]
    assert notes(state, "FIG-MIS-11") == [
        "Event 14: FIG-RE-4 would abort G1: ignored entirely, the lucky strike holds (FIG-RE-7, "
        "FIG-MIS-10)"]
    assert "FIG-RE-4" not in state["flags"]["occurred"]
    assert not [e for e in state["log"] if e["rule"] == "FIG-RE-4"]
    assert ("FIG-RE-11", "d2:2", 2) in rolls(state)
    assert notes(state, "FIG-CRE-6") == ["G2 loses 1 bonus roll (FIG-BDR-10)"]
    assert group(state, "G2")["bonus_adj"] == -1
    assert notes(state, "FIG-MIS-9") == ["Event 65: FIG-RE-22 has already happened in this "
                                         "environs: no event"]
    assert group(state, "G1")["status"] == "called_off" and group(state, "G1")["level"] == 1
    assert notes(state, "FIG-MIS-20")
    assert not rolls(state, "FIG-MIS-19")
    assert notes(state, "FIG-MIS-21") == ["No failure procedure applies"]
    env = state["environs"]
    assert env["planet_state"] == "in_rebellion" and env["pdb_down"] and env["pdb"] == 1
    lines = changes(state)
    assert ("FIG-MSN-12", "The planet goes into rebellion (G1 (R level 1))") in lines
    assert ("FIG-MSN-13", "The PDB goes down (G2)") in lines
    assert [r for r, _ in changes(state, "reminder")] == ["FIG-HOOK-6", "FIG-RE-22"]
    assert ("FIG-REC-4", "Kogus joins the rebel side and enters play here, undetected") in lines


def test_a5_spaceship_quest_fails_in_an_orbit_box():
    """A5: FIG-REC-1 (no recruitment in an orbit box), FIG-MIS-5 (0 steps); FIG-MIS-4 with
    FIG-BDR-3 (Ran Jayma's J cell 5); FIG-BDR-12 (count 7, Kogus's own J ignored); seven rolls
    without J; FIG-MIS-21, FIG-MSN-9 and FIG-FSQ-1 (2d6 6: damaged and detected)."""
    state = drive(new("a5"), ScriptedDice(A5))
    assert notes(state, "FIG-REC-1") == ["No recruitment in an orbit box"]
    assert state["steps"] == 0 and state["turn"] == 0
    valid = notes(state, "FIG-MIS-4")[0]
    assert "in an orbit box" in valid and "navigation 3" in valid and "J cell 5" in valid
    count = next(e for e in state["log"] if e["rule"] == "FIG-BDR-12")
    assert [t[:2] for t in count["terms"]] == [["Ran Jayma (pilot)", 5], ["Solar Merchant", 1],
                                                ["ship detected", 0],
                                                ["Helian Drug (Kogus)", 1]]
    assert [r[2] for r in rolls(state, "FIG-MIS-19")] == [11, 23, 34, 42, 53, 61, 44]
    assert rolls(state, "FIG-FSQ-1") == [("FIG-FSQ-1", "2d6:2,4", 6)]
    ship = state["environs"]["spaceships"][0]
    assert ship["damaged"] and ship["detected"] and not ship["destroyed"]
    assert char(state, "Boccanegra")["captured"]
    for name in ("Ran Jayma", "Kogus"):
        c = char(state, name)
        assert not c["dead"] and not c["captured"] and c["hits"] == 0
    assert changes(state, "spaceship") == [("FIG-FSQ-1", "Solar Merchant is damaged and "
                                                         "detected (G1)")]


@pytest.mark.parametrize("scenario,script", [("a1", A1), ("a2", A2), ("a5", A5)])
def test_a_script_with_a_face_too_many_or_too_few_fails(scenario, script):
    """Section 6, "Unused faces": the scripts are used up exactly."""
    with pytest.raises(AssertionError, match="faces left over"):
        drive(new(scenario), ScriptedDice(script + " d6:1"))
    with pytest.raises(AssertionError, match="beyond the script"):
        drive(new(scenario), ScriptedDice(script.rsplit(" ", 1)[0]))
