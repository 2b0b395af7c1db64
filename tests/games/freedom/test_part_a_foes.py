"""Creatures and irate locals (FIG-FOE-1, FIG-FOE-2, FIG-FOE-3, FIG-FOE-4, FIG-FOE-5; the FIG-CRE
rules, each creature's ID named with its test; FIG-LOC-1, FIG-LOC-2, FIG-LOC-3, FIG-LOC-4):
every creature of the chart attacks once, the fights reach the players with the
chart's data (FIG-HOOK-2) and the others are resolved by the program (FIG-FOE-4)."""

from __future__ import annotations

import pytest

from struggle_desktop.games.freedom.data import default_data
from tests.games.freedom.helpers import (ScriptedDice, answers, at_hook, char, drive, group,
                                         make, notes, rolls, stop_at_bonus)

PAIR = [{"name": "Vudot Vodot", "side": "rebel", "intelligence": 3, "diplomacy": 2, "ef": 6},
        {"name": "Zina Adora", "side": "rebel", "intelligence": 2, "diplomacy": 1, "ef": 5}]
D_GROUP = [{"mission": "D", "leader": "Vudot Vodot", "members": ["Zina Adora"]}]

#: Creatures fought through the players' hook, with nothing rolled before the fight.
FIGHTS = {"FIG-CRE-3": "Batranoban", "FIG-CRE-5": "Chardireeds", "FIG-CRE-8": "Derigion",
          "FIG-CRE-9": "Dindin", "FIG-CRE-11": "Drusers", "FIG-CRE-12": "Elilad",
          "FIG-CRE-14": "Frost Mist", "FIG-CRE-15": "Gach", "FIG-CRE-17": "Gamels",
          "FIG-CRE-18": "Gilekite", "FIG-CRE-19": "Glane", "FIG-CRE-20": "Gragg",
          "FIG-CRE-21": "Gyrogos", "FIG-CRE-23": "Kinsog", "FIG-CRE-24": "Laboroid",
          "FIG-CRE-25": "Lomrels", "FIG-CRE-26": "Leonus", "FIG-CRE-28": "Mish",
          "FIG-CRE-31": "Namdasn", "FIG-CRE-32": "Onflam", "FIG-CRE-33": "Propang",
          "FIG-CRE-34": "Prox", "FIG-CRE-35": "Queemer", "FIG-CRE-39": "Sentry Robot",
          "FIG-CRE-42": "Spithid", "FIG-CRE-43": "Stromuse", "FIG-CRE-45": "Telebots",
          "FIG-CRE-46": "Thinagig", "FIG-CRE-47": "Thunk", "FIG-CRE-49": "Verfusier",
          "FIG-CRE-51": "Vorozion", "FIG-CRE-52": "Vrialta", "FIG-CRE-53": "Wyths",
          "FIG-CRE-54": "Ym-Barror", "FIG-CRE-55": "Zernipak"}
#: Mobs: the number rolled (here a d6 of 3) plus the entry's constant (FIG-FOE-3).
MOBS = {"FIG-CRE-2": ("Arags", 3), "FIG-CRE-4": ("Chantenes", 4), "FIG-CRE-16": ("Gadhars", 3),
        "FIG-CRE-22": ("Hysnatons", 3), "FIG-CRE-30": ("Muggers", 3),
        "FIG-CRE-38": ("Sekekers", 4), "FIG-CRE-41": ("Snow Giants", 3),
        "FIG-CRE-44": ("Synestins", 3)}


def attack(creature: str | None, after: str = "", decide=None, **context):
    """A creature attack (event 31) on the D group of Vudot and Zina, then a success roll of
    52 (nothing), stopped at the first bonus roll."""
    context.setdefault("characters", PAIR)
    state = make(assignment=context.pop("assignment", D_GROUP), creature=creature, **context)
    return drive(state, ScriptedDice(f"p2d6:3,1 {after} p2d6:5,2"), decide, stop=stop_at_bonus)


def hooks_seen():
    seen = []

    def decide(state, p):
        if p["kind"] == "hook":
            seen.append(p)
        return None
    return seen, decide


@pytest.mark.parametrize("rule,name", sorted(FIGHTS.items()))
def test_a_creature_that_fights_is_shown_to_the_players_with_its_chart_data(rule, name):
    """FIG-HOOK-2: the fight's prompt shows the creature's AF/EF as printed, its surprise
    (FIG-FOE-2) and break-off details; the default responder drives it off, nobody hurt."""
    seen, decide = hooks_seen()
    state = attack(name, decide=decide)
    c = default_data().creature(name)
    assert c.rule == rule
    assert len(seen) == 1 and seen[0]["hook"] == "combat" and seen[0]["role"] == "enemy"
    data = seen[0]["data"]
    assert (data["creature"], data["af"], data["ef"]) == (name, c.af, c.ef)
    assert data["surprise"] == c.surprise and ("surprise_rule" in data) == c.surprise
    assert data["breakoff_drm"] == c.breakoff_drm and data["no_breakoff"] == c.no_breakoff
    assert all(ch["hits"] == 0 for ch in state["environs"]["characters"])


@pytest.mark.parametrize("rule,entry", sorted(MOBS.items()))
def test_a_mob_is_rolled_before_the_fight(rule, entry):
    """FIG-FOE-3: "d6 (x/y)" and "d6+1 (x/y)" mobs: the program rolls the number."""
    name, count = entry
    seen, decide = hooks_seen()
    attack(name, "d6:3", decide)
    c = default_data().creature(name)
    assert c.rule == rule
    assert seen[0]["data"]["count"] == count and seen[0]["data"]["af"] == c.af


def test_fig_cre_27_magron_seizes_a_random_member():
    seen, decide = hooks_seen()
    state = attack("Magron", "d2:2", decide)
    assert ("FIG-CRE-27", "d2:2", 2) in rolls(state)
    assert seen[0]["data"]["victim"] == "Zina Adora"


def test_fig_cre_36_rotron_needs_a_spaceship():
    """FIG-CRE-36: no spaceship, no effect; with one, the players fight for it."""
    seen, decide = hooks_seen()
    state = attack("Rotron", decide=decide)
    assert seen == [] and "no effect" in notes(state, "FIG-CRE-36")[0]
    attack("Rotron", decide=decide, spaceships=[{"name": "Explorer", "side": "rebel"}])
    assert seen[0]["data"]["spaceships"] == ["Explorer"]


def test_fig_cre_1_fig_cre_10_fig_cre_40_hits_to_each_member():
    """FIG-CRE-1 Alweg and FIG-CRE-10 Drants: d6-2 each, one roll per member, never below 0;
    FIG-CRE-40 Snorkas: d6 each; no fight (FIG-FOE-4)."""
    for name in ("Alweg", "Drants"):
        state = attack(name, "d6:5 d6:1")
        assert [char(state, n)["hits"] for n in ("Vudot Vodot", "Zina Adora")] == [3, 0]
    state = attack("Snorkas", "d6:5 d6:1")
    assert [char(state, n)["hits"] for n in ("Vudot Vodot", "Zina Adora")] == [5, 1]
    assert not [e for e in state["log"] if e["rule"] == "FIG-HOOK-2"]


def test_fig_cre_6_fig_cre_37_fig_cre_48_bonus_rolls_lost():
    """FIG-CRE-6 and FIG-CRE-37 and FIG-CRE-48: bonus rolls lost."""
    assert group(attack("Chlorofix"), "G1")["bonus_adj"] == -1
    for name in ("Sandiabs", "Valaterix"):
        state = make(assignment=D_GROUP, creature=name, characters=PAIR)
        state = drive(state, ScriptedDice("p2d6:3,1 p2d6:1,3"))
        assert group(state, "G1")["lose_all"] and group(state, "G1")["rolled"] == 0
        assert group(state, "G1")["level"] == 1 and group(state, "G1")["count"] == 0


def test_fig_cre_7_Crunge_hits_by_the_best_intelligence():
    """FIG-CRE-7: Crunge hits by the best intelligence."""
    state = attack("Crunge")
    assert [char(state, n)["hits"] for n in ("Vudot Vodot", "Zina Adora")] == [2, 2]


def test_fig_cre_13_fog_spares_a_group_with_intelligence_3():
    """FIG-CRE-13: Fog spares a group with intelligence 3."""
    assert not group(attack("Fog"), "G1")["lose_all"]
    low = [dict(c, intelligence=2) for c in PAIR]
    assert group(attack("Fog", characters=low), "G1")["lose_all"]


def test_fog_asks_for_the_intelligence_it_needs():
    """FIG-CTX-9: a missing rating is asked of its owner when a rule needs it."""
    asked = []

    def decide(state, p):
        if p["kind"] == "value":
            asked.append(p["character"])
            return {"verb": "enter", "value": 1}
        return None

    bare = [{"name": "Vudot Vodot", "side": "rebel"}, {"name": "Zina Adora", "side": "rebel"}]
    state = attack("Fog", decide=decide, characters=bare)
    assert asked == ["Vudot Vodot", "Zina Adora"] and group(state, "G1")["lose_all"]
    assert char(state, "Zina Adora")["intelligence"] == 1


def test_fig_cre_29_morna_brings_locals_unless_a_diplomat_is_along():
    """FIG-CRE-29: Morna brings locals unless a diplomat is along."""
    seen, decide = hooks_seen()
    attack("Morna", "d6:4", decide)
    assert seen[0]["data"]["count"] == 4 and (seen[0]["data"]["af"], seen[0]["data"]["ef"]) == (2, 1)
    seen.clear()
    diplomat = [dict(PAIR[0], diplomacy=3), PAIR[1]]
    attack("Morna", decide=decide, characters=diplomat)
    assert seen == []


def test_fig_cre_50_virus_and_fig_foe_5_immunity():
    """FIG-CRE-50: EF-1 hits, halved with Doctor Sontag or the Medikit in the group, death for
    a member already hit; survivors immune for the game (FIG-FOE-5)."""
    state = attack("Virus")
    assert [char(state, n)["hits"] for n in ("Vudot Vodot", "Zina Adora")] == [5, 4]
    assert state["environs"]["memory"]["virus_immune"] == ["Vudot Vodot", "Zina Adora"]
    hurt = [PAIR[0], dict(PAIR[1], hits=1, possessions=["Medikit of Ptolus"])]
    state = attack("Virus", characters=hurt, extra_possessions=["Medikit of Ptolus"])
    assert char(state, "Vudot Vodot")["hits"] == 2 and char(state, "Zina Adora")["dead"]
    assert group(state, "G1")["members"] == ["Vudot Vodot"]
    state = attack("Virus", memory={"virus_immune": ["Vudot Vodot", "Zina Adora"]})
    assert char(state, "Vudot Vodot")["hits"] == 0


def test_fig_cre_52_vrialta_joins_derban_or_is_fought_and_gone_when_killed():
    """FIG-CRE-52: Vrialta joins Derban or is fought and gone when killed."""
    derban = [dict(PAIR[0], name="Rayner Derban"), PAIR[1]]
    state = attack("Vrialta", characters=derban,
                   assignment=[{"mission": "D", "leader": "Rayner Derban",
                                "members": ["Zina Adora"]}])
    assert state["environs"]["memory"]["vrialta_gone"]
    assert any("+3 force points" in c["text"] for c in state["changes"])
    decide = answers((at_hook("combat"), {"verb": "result", "result": "creature_killed"}))
    state = attack("Vrialta", decide=decide)
    assert state["environs"]["memory"]["vrialta_gone"]


def test_fig_cre_56_zops_gives_a_possession_once_and_only_to_the_rebel():
    """FIG-CRE-56: a non-ship possession for the group (the first member here, the simple
    player's choice), Zops used; after that, or against the Imperial side, sentry robots come
    (FIG-FOE-1: d6 6 gives two)."""
    state = attack("Zops", possession_pool=["Explorer", "Rare Gems"])
    assert char(state, "Vudot Vodot")["possessions"] == ["Rare Gems"]
    assert state["environs"]["memory"]["zops_used"]
    seen, decide = hooks_seen()
    attack("Zops", "d6:6", decide, memory={"zops_used": True})
    assert seen[0]["data"]["creature"] == "Sentry Robot" and seen[0]["data"]["count"] == 2
    state = attack("Zops", possession_pool=[])
    assert state["environs"]["mulligans"]["rebel"] == 1


def test_fig_foe_1_sentry_robots_when_no_creature_lives_here():
    seen, decide = hooks_seen()
    state = attack(None, "d6:5", decide)
    assert ("FIG-FOE-1", "d6:5", 5) in rolls(state)
    assert seen[0]["data"]["count"] == 1 and seen[0]["data"]["af"] == 4


def test_fig_cre_22_fig_cre_30_fig_cre_44_results_with_consequences():
    """FIG-CRE-22 and FIG-CRE-30 and FIG-CRE-44: FIG-HOOK-1 step 3: Hysnatons surviving two rounds cost all bonus rolls; Muggers in a
    stalemate steal a random non-ship possession; a Rebel win over the Synestins shifts
    loyalty at the resolution (FIG-MIS-22)."""
    decide = answers((at_hook("combat"), {"verb": "flag", "flag": "survived_two_rounds"}),
                     (at_hook("combat"), {"verb": "result", "result": "driven_off"}))
    assert group(attack("Hysnatons", "d6:2", decide), "G1")["lose_all"]
    carrying = [dict(PAIR[0], possessions=["Rare Gems"]), dict(PAIR[1], possessions=["Charsot"])]
    decide = answers((at_hook("combat"), {"verb": "flag", "flag": "stalemate"}),
                     (at_hook("combat"), {"verb": "result", "result": "characters_broke_off"}))
    state = attack("Muggers", "d6:2 d2:2", decide, characters=carrying)
    assert char(state, "Zina Adora")["possessions"] == []
    assert char(state, "Vudot Vodot")["possessions"] == ["Rare Gems"]
    state = make(assignment=[{"mission": "I", "leader": "Vudot Vodot"}], creature="Synestins",
                 characters=PAIR)
    off = answers((lambda s, p: p["kind"] == "call_off", {"verb": "call_off", "group": "G1"}))
    state = drive(state, ScriptedDice("p2d6:3,1 d6:2 p2d6:6,6"), off)
    assert state["flags"]["synestins"] and state["environs"]["loyalty"] == "dissent"


def test_fig_loc_1_group_then_race_then_mob():
    """FIG-LOC-1 with the races of FIG-CTX-8: the group (d2), the race (d2 of the two named), the mob (d6); FIG-LOC-4: the
    race's strength from the chart."""
    seen, decide = hooks_seen()
    assignment = [{"mission": "D", "leader": "Vudot Vodot"}, {"mission": "I", "leader": "Zina Adora"}]
    state = make(assignment=assignment, characters=PAIR, races=["Anons", "Moghas"])
    drive(state, ScriptedDice("p2d6:3,5 d2:2 d2:2 d6:5 p2d6:5,3"), decide, stop=stop_at_bonus)
    data = seen[0]["data"]
    assert seen[0]["group"] == "G2"
    assert (data["race"], data["af"], data["ef"], data["count"]) == ("Moghas", 2, 4, 5)


def test_fig_loc_1_no_race_no_event_and_fig_loc_2_rebel_exemption():
    state = make(assignment=D_GROUP, characters=PAIR, races=[])
    state = drive(state, ScriptedDice("p2d6:3,6 p2d6:5,2"), stop=stop_at_bonus)
    assert notes(state, "FIG-LOC-1") == ["No race is named for this environs: no effect"]
    state = make(assignment=D_GROUP, characters=PAIR, races=["Anons"],
                 planet_state="rebel_controlled", loyalty=None, occupied=True)
    state = drive(state, ScriptedDice("p2d6:3,6 p2d6:5,2"), stop=stop_at_bonus)
    assert "do not rise" in notes(state, "FIG-LOC-2")[0]


@pytest.mark.parametrize("race,where,strength", [
    ("Piorads", {"type": "special", "special_kind": "subterranean"}, (2, 4)),
    ("Piorads", {"type": "wild"}, (1, 1)),
    ("Saurians", {"type": "urban"}, (1, 4)),
    ("Segundens", {"type": "urban"}, (2, 1)),
    ("Segundens", {"type": "special", "special_kind": "other"}, (1, 1)),
])
def test_fig_loc_3_alternative_strengths(race, where, strength):
    """FIG-LOC-3: alternative strengths."""
    seen, decide = hooks_seen()
    state = make(assignment=D_GROUP, characters=PAIR, races=[race], **where)
    drive(state, ScriptedDice("p2d6:3,6 d6:1 p2d6:5,2"), decide, stop=stop_at_bonus)
    assert (seen[0]["data"]["af"], seen[0]["data"]["ef"]) == strength
