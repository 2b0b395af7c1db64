"""The Bonus Dice Rolls segment (FIG-MIS-19, FIG-MIS-20, FIG-MIS-25) and the count of each
group by the bonus die rules, FIG-BDR (each test names the IDs it checks), term by term."""

from __future__ import annotations

from struggle_desktop.games.freedom.bonus import bonus_count
from struggle_desktop.games.freedom.context import Ctx
from struggle_desktop.games.freedom.data import default_data
from struggle_desktop.games.freedom.missions import max_level, new_group
from struggle_desktop.games.freedom.registry import RULES
from tests.games.freedom.helpers import (ScriptedDice, answers, drive, group, make, notes,
                                         rolls)


def count(mission, leader=None, members=(), target=None, ship=None, torture=False,
          adjust=0, lose_all=False, **context):
    """(count, [values]) of one group in an environs made from BASE and ``context``."""
    state = make(**context)
    ctx = Ctx(state, RULES.procedures, default_data(), dice=False)
    g = new_group(mission, leader, members, None, target, ship, torture)
    g["bonus_adj"], g["lose_all"] = adjust, lose_all
    total, terms = bonus_count(ctx, g)
    return total, [v for _, v, _ in terms]


def chars(*names, side="rebel", **flags):
    return [dict({"name": n, "side": side}, **flags) for n in names]


def test_fig_bdr_2_and_fig_bdr_14_the_leaders_chart_value_is_all_he_brings():
    """FIG-BDR-2 with the Rebel chart FIG-BDR-14: Bridn Murcada's A is 7, Frun Sentel's B 5."""
    enemy = [{"name": "Jin Voles", "side": "imperial", "detected": True}]
    assert count("A", "Bridn Murcada", target="Jin Voles",
                 characters=chars("Bridn Murcada") + enemy)[1][0] == 7
    assert count("B", "Frun Sentel", characters=chars("Frun Sentel"))[0] == 5


def test_fig_bdr_3_a_non_leader_with_a_dash_adds_nothing():
    """FIG-BDR-3: a non-leader with a dash adds nothing."""
    assert count("I", "Agan Rafa", ["Oneste Woada"],
                 characters=chars("Agan Rafa", "Oneste Woada")) == (3, [3])


def test_fig_bdr_4_others_in_d_and_h_add_one_or_their_bracket():
    """FIG-BDR-4: +1 per other character in D and H; a bracketed value replaces it (Sidir
    Ganang's D (1); the Imperial Barca's D (-2), FIG-BDR-16); in B only brackets count."""
    d = count("D", "Vudot Vodot", ["Zina Adora", "Sidir Ganang"],
              characters=chars("Vudot Vodot", "Zina Adora", "Sidir Ganang"))
    assert d[1][:3] == [4, 1, 1]
    imperial = dict(phasing_side="imperial", units=[],
                    characters=chars("Jon Kidu", "Barca", "Telmen", side="imperial"))
    assert count("D", "Jon Kidu", ["Barca", "Telmen"], **imperial)[1][:3] == [1, -2, 1]
    assert count("H", "Boccanegra", ["Kogus"], characters=chars("Boccanegra", "Kogus"))[0] == 6
    b = count("B", "Frun Sentel", ["Sidir Ganang", "Kogus"],
              characters=chars("Frun Sentel", "Sidir Ganang", "Kogus"))
    assert b == (6, [5, 1])


def test_fig_bdr_5_e_is_the_better_of_two_readings():
    """FIG-BDR-5: Oneste Woada (E 3, D 3) with Rayner Derban (E bracket 4): 3 + 4 = 7 beats 3;
    Zina Adora leading alone: her E 6."""
    sov = [{"name": "Queen Ara", "alignment": "pro_rebel"}]
    assert count("E", "Oneste Woada", ["Rayner Derban"], target="Queen Ara", sovereigns=sov,
                 characters=chars("Oneste Woada", "Rayner Derban"))[1][0] == 7
    assert count("E", "Zina Adora", ["Kogus"], target="Queen Ara", sovereigns=sov,
                 characters=chars("Zina Adora", "Kogus"))[1][0] == 6


def test_fig_bdr_6_and_fig_bdr_15_possessions_count_once_by_their_carrier():
    """FIG-BDR-6 with FIG-BDR-15: the Helian Drug's E 2(1): 2 carried by the leader, 1 by
    another; a ship counts only for J; Rare Gems 2 in D."""
    sov = [{"name": "Queen Ara", "alignment": "neutral"}]
    lead = chars("Zina Adora", "Kogus")
    lead[0]["possessions"] = ["Helian Drug"]
    assert count("E", "Zina Adora", ["Kogus"], target="Queen Ara", sovereigns=sov,
                 characters=lead)[1][:2] == [6, 2]
    other = chars("Zina Adora", "Kogus")
    other[1]["possessions"] = ["Helian Drug"]
    assert count("E", "Zina Adora", ["Kogus"], target="Queen Ara", sovereigns=sov,
                 characters=other)[1][:2] == [6, 1]
    gems = chars("Kogus")
    gems[0]["possessions"] = ["Rare Gems"]
    assert count("D", "Kogus", characters=gems, spaceships=[{"name": "Explorer",
                                                             "side": "rebel"}])[1][:2] == [0, 2]


def test_fig_bdr_7_variant_rows():
    """FIG-BDR-7: Kogus-ZA with Zina Adora in the group; Drakir Grebb-S with the flag."""
    assert count("I", "Kogus", characters=chars("Kogus"))[1][0] == 2
    assert count("I", "Kogus", ["Zina Adora"], characters=chars("Kogus", "Zina Adora"))[1][0] == 3
    flagged = chars("Drakir Grebb", variant=True)
    assert count("A", "Drakir Grebb", target="Barca",
                 characters=flagged + [{"name": "Barca", "side": "imperial",
                                        "detected": True}])[1][0] == 4


def test_fig_bdr_8_situational_terms():
    """FIG-BDR-8 (with the sovereigns of FIG-CTX-6: alignment, summoned, assassinated): A
    alone and undetected; B wild; C coup rating; D loyalty, sovereigns (+2
    friendly, -2 enemy, neutral 0), urban; E loyalty."""
    enemy = [{"name": "Jin Voles", "side": "imperial", "detected": True}]
    assert count("A", "Kogus", target="Jin Voles", characters=chars("Kogus") + enemy)[1] == \
        [2, 1, 1]
    seen = chars("Kogus", detected=True)
    assert count("A", "Kogus", target="Jin Voles", characters=seen + enemy)[1] == [2, 1, 0]
    assert count("B", "Kogus", type="wild", characters=chars("Kogus"))[1] == [0, 1]
    assert count("C", "Kogus", coup_rating=3, characters=chars("Kogus"))[1] == [0, 3]
    sovs = [{"name": "A1", "alignment": "pro_rebel"}, {"name": "A2", "alignment": "pro_imperial"},
            {"name": "A3", "alignment": "pro_imperial"}, {"name": "A4", "alignment": "neutral"},
            {"name": "A5", "alignment": "pro_imperial", "assassinated": True}]
    d = count("D", "Kogus", loyalty="dissent", sovereigns=sovs, characters=chars("Kogus"))
    assert d[1] == [0, 1, 1, -2]            # leader, loyalty +1, urban, 2 - 4
    assert count("E", "Zina Adora", target="A4", sovereigns=sovs, loyalty="patriotic",
                 characters=chars("Zina Adora"))[1] == [6, -2]


def test_fig_bdr_9_home_planet_and_royalty_per_member():
    """FIG-BDR-9: home planet and royalty per member."""
    home = [{"name": "Kogus", "side": "rebel", "home_planet_here": True},
            {"name": "Zina Adora", "side": "rebel", "royalty_here": True}]
    assert count("I", "Kogus", ["Zina Adora"], characters=home)[1][-3:] == [1, 1, 1]
    assert count("D", "Kogus", ["Zina Adora"], characters=home)[1][-1] == 1
    assert count("T", "Kogus", characters=home, target="U1")[1] == [0]


def test_fig_bdr_10_and_fig_bdr_1_adjustments_lost_rolls_and_the_floor():
    """FIG-BDR-10 and FIG-BDR-1: adjustments lost rolls and the floor."""
    assert count("D", "Kogus", adjust=2, characters=chars("Kogus"))[1][-1] == 2
    assert count("D", "Vudot Vodot", lose_all=True, characters=chars("Vudot Vodot"))[0] == 0
    enemies = [{"name": f"S{i}", "alignment": "pro_imperial"} for i in range(3)]
    assert count("D", "Kogus", sovereigns=enemies, loyalty="patriotic", type="wild",
                 characters=chars("Kogus"))[0] == 0


def test_fig_bdr_12_and_fig_bdr_17_the_j_count():
    """FIG-BDR-12: pilot + ship (+ its extra AF) + 1 undetected + possessions; FIG-BDR-17:
    Redjac's ship is 6 for the Imperial side."""
    orbit = dict(location="orbit", size=None, type=None, planet_state=None, loyalty=None,
                 phasing_side="imperial", units=[],
                 spaceships=[{"name": "Redjac's", "side": "imperial"}],
                 characters=chars("Redjac", side="imperial")
                 + [{"name": "Kogus", "side": "rebel", "captured": True}])
    assert count("J", "Redjac", ship="Redjac's", **orbit) == (12, [5, 6, 1])


def test_fig_bdr_13_the_q_count_and_fig_bdr_16_the_imperial_chart():
    """FIG-BDR-13: +3, or +6 with torture; the interrogator's Q (Els Taroff 5, FIG-BDR-16);
    less the prisoner's intelligence."""
    imperial = dict(phasing_side="imperial", units=[],
                    characters=chars("Els Taroff", side="imperial")
                    + [{"name": "Agan Rafa", "side": "rebel", "captured": True,
                        "intelligence": 2}])
    assert count("Q", "Els Taroff", target="Agan Rafa", **imperial) == (6, [3, 5, -2])
    assert count("Q", "Els Taroff", target="Agan Rafa", torture=True, **imperial)[0] == 9


def test_fig_mis_25_maximum_useful_levels():
    """FIG-MIS-25: maximum useful levels."""
    state = make(loyalty="loyal", units=[{"id": "U1", "side": "imperial", "kind": "1st_line",
                                          "af": 3}],
                 characters=chars("Kogus", "Zina Adora", "Tourag")
                 + [{"name": "Boccanegra", "side": "rebel", "captured": True}],
                 sovereigns=[{"name": "N", "alignment": "neutral"},
                             {"name": "F", "alignment": "pro_rebel"}])
    ctx = Ctx(state, RULES.procedures, default_data(), dice=False)
    tops = {letter: max_level(ctx, new_group(letter, "Kogus", target=target))
            for letter, target in [("A", None), ("C", None), ("D", None), ("F", None),
                                   ("H", None), ("R", None), ("T", "U1"), ("P", None)]}
    assert tops == {"A": 1, "C": 3, "D": 2, "F": 1, "H": None, "R": 1, "T": 2, "P": None}
    assert max_level(ctx, new_group("E", "Kogus", target="N")) == 2
    assert max_level(ctx, new_group("E", "Kogus", target="F")) == 1


def test_fig_mis_19_the_segment_rolls_in_order_and_the_player_may_stop():
    """FIG-MIS-19: groups in assignment order, one p2d6 at a time, only the group's own letter
    counting, until the maximum useful level or the player's stop."""
    assignment = [{"mission": "D", "leader": "Vudot Vodot"}, {"mission": "I", "leader": "Zina Adora"}]
    decide = answers((lambda s, p: p["kind"] == "bonus_roll" and p["group"] == "G2"
                      and group(s, "G2")["rolled"] == 1, {"verb": "stop"}))
    state = make(assignment=assignment)
    state = drive(state, ScriptedDice("p2d6:4,4 p2d6:6,6 | p2d6:1,3 p2d6:1,4 | p2d6:2,2"),
                  decide)
    assert [g["level"] for g in state["groups"]] == [2, 1]
    assert [g["rolled"] for g in state["groups"]] == [2, 1]
    assert "G2 stops rolling after 1 of" in notes(state, "FIG-MIS-19")[0]


def test_fig_mis_20_a_cancelled_segment_still_resolves_j_and_q():
    """FIG-MIS-20: after FIG-RE-23 nobody rolls bonus dice but the bonus-only groups."""
    assignment = [{"mission": "D", "leader": "Vudot Vodot"},
                  {"mission": "Q", "leader": "Zina Adora", "target": "Jin Voles"}]
    characters = chars("Vudot Vodot", "Zina Adora") + [
        {"name": "Jin Voles", "side": "imperial", "captured": True, "intelligence": 1}]
    state = make(assignment=assignment, characters=characters)
    state = drive(state, ScriptedDice("p2d6:6,6 p2d6:5,2 | p2d6:2,5"))
    assert group(state, "G1")["rolled"] == 0 and group(state, "G2")["level"] == 1
    assert [r[0] for r in rolls(state)].count("FIG-MIS-19") == 1


def test_fig_bdr_11_the_loyalty_term_reads_the_loyalty_when_the_segment_starts():
    """FIG-BDR-11 (FIG-MIS-15): a Coup Aborted shift during the steps counts for D; the coup
    levels themselves would shift only at the resolution."""
    assignment = [{"mission": "C", "leader": "Vudot Vodot"}, {"mission": "D", "leader": "Zina Adora"}]
    characters = [{"name": "Vudot Vodot", "side": "rebel", "intelligence": 3},
                  {"name": "Zina Adora", "side": "rebel"}]
    state = make(assignment=assignment, characters=characters, coup_rating=1)
    state = drive(state, ScriptedDice("p2d6:6,1 2d6:3,3 p2d6:5,2"),
                  stop=lambda s: s["pending"]["kind"] == "bonus_roll")
    assert state["flags"]["bonus_condition"] == "loyal"
    term = next(e for e in state["log"] if e["rule"] == "FIG-BDR-8")["terms"]
    assert ["loyalty (loyal)", -1, "FIG-REC-3"] in term
