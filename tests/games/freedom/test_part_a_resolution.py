"""The end of the Mission phase: failure procedures (FIG-MIS-21), what success levels do
(the mission rules, FIG-MSN: each test names the IDs it checks) in the order of FIG-MIS-22,
the outcome report (FIG-MIS-24), and the suppression roll outside the phase (FIG-MSN-16)."""

from __future__ import annotations

from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.missions import new_group, number_groups
from tests.games.freedom.helpers import (ScriptedDice, answers, changes, char, drive, make,
                                         notes, rolls)


def resolve(groups, script="", decide=None, segment=4, **context):
    """Start at the failure procedures with ``groups``: ``(mission, leader, level)`` or dicts
    of new_group's fields plus ``level`` / ``status``."""
    state = make(**context)
    made = []
    for spec in groups:
        if isinstance(spec, tuple):
            spec = {"mission": spec[0], "leader": spec[1], "level": spec[2]}
        spec = dict(spec)
        level, status = spec.pop("level", 0), spec.pop("status", None)
        g = new_group(**spec)
        g["level"] = level
        g["status"] = status or ("waiting" if spec["mission"] in "JQ" else "active")
        made.append(g)
    number_groups(made)
    state["groups"] = made
    state["stack"] = [{"proc": "mission_phase", "segment": segment}]
    return drive(state, ScriptedDice(script), decide)


ENEMY = [{"name": "Vudot Vodot", "side": "rebel"}, {"name": "Zina Adora", "side": "rebel"},
         {"name": "Jin Voles", "side": "imperial", "detected": True}]


def test_fig_mis_21_failures_a_e_j_and_not_for_aborted_or_called_off():
    """FIG-MIS-21 with FIG-MSN-1 (d10: 1-7 nothing, 8-9 captured, 10 killed), FIG-MSN-5 (a
    shift toward the enemy) and FIG-MSN-9 (2d6 on FIG-FSQ-1); an aborted or called-off A takes
    no roll."""
    a = {"mission": "A", "leader": "Vudot Vodot", "target": "Jin Voles"}
    state = resolve([a], "d10:10", characters=ENEMY)
    assert char(state, "Vudot Vodot")["dead"]
    state = resolve([a], "d10:7", characters=ENEMY)
    assert not char(state, "Vudot Vodot")["dead"] and not char(state, "Vudot Vodot")["captured"]
    state = resolve([dict(a, status="called_off")], "", characters=ENEMY)
    assert rolls(state) == []
    sov = [{"name": "Queen Ara", "alignment": "neutral"}]
    state = resolve([{"mission": "E", "leader": "Zina Adora", "target": "Queen Ara"}],
                    sovereigns=sov, planets_in_rebellion_empire_wide=2)
    assert state["environs"]["loyalty"] == "loyal"


def test_fig_fsq_1_the_failed_spaceship_quest_bands():
    """FIG-FSQ-1: the failed spaceship quest bands."""
    orbit = dict(location="orbit", size=None, type=None, planet_state=None, loyalty=None,
                 spaceships=[{"name": "Explorer", "side": "rebel"}],
                 characters=[{"name": "Ran Jayma", "side": "rebel", "navigation": 3},
                             {"name": "Kogus", "side": "rebel"},
                             {"name": "Boccanegra", "side": "rebel", "captured": True}])
    j = {"mission": "J", "leader": "Ran Jayma", "members": ["Kogus"], "ship": "Explorer"}
    state = resolve([j], "2d6:1,2", **orbit)
    assert state["environs"]["spaceships"][0]["destroyed"]
    assert char(state, "Ran Jayma")["dead"] and char(state, "Kogus")["dead"]
    state = resolve([j], "2d6:2,2", **orbit)
    assert char(state, "Kogus")["captured"] and state["environs"]["spaceships"][0]["destroyed"]
    state = resolve([j], "2d6:4,4", **orbit)
    assert state["environs"]["spaceships"][0] == {"name": "Explorer", "side": "rebel",
                                                  "detected": False, "damaged": False,
                                                  "destroyed": False}


def test_fig_msn_1_a_kills_the_target_or_assassinates_a_sovereign():
    """FIG-MSN-1: A kills the target or assassinates a sovereign."""
    a = {"mission": "A", "leader": "Vudot Vodot", "target": "Jin Voles", "level": 1}
    assert char(resolve([a], characters=ENEMY), "Jin Voles")["dead"]
    sov = [{"name": "Queen Ara", "alignment": "pro_imperial"}]
    state = resolve([dict(a, target="Queen Ara")], sovereigns=sov)
    assert state["environs"]["sovereigns"][0]["assassinated"]


def test_fig_msn_2_b_places_a_cell_and_the_unrest_reminder():
    state = resolve([("B", "Vudot Vodot", 1)])
    assert state["environs"]["cells"] == [{"id": "Cell 1", "kind": "cell"}]
    state = resolve([("B", "Vudot Vodot", 1), ("D", "Zina Adora", 2)], loyalty="dissent")
    assert state["environs"]["loyalty"] == "unrest"
    assert changes(state, "reminder")[-1][0] == "FIG-MSN-2"


def test_fig_msn_3_c_shifts_per_level_clamped_and_sets_the_marker():
    state = resolve([("C", "Vudot Vodot", 5)], coup_rating=1, loyalty="loyal")
    assert state["environs"]["loyalty"] == "unrest"
    assert state["environs"]["last_coup_by"] == "rebel"
    state = resolve([("C", "Vudot Vodot", 1)], coup_rating=1, planet_state="rebellion_stopped",
                    loyalty=None)
    assert state["environs"]["planet_state"] == "rebellion_stopped"
    assert "no loyalty shift" in notes(state, "FIG-MSN-3")[0]


def test_fig_msn_4_d_shifts_two_at_most():
    """FIG-MSN-4: D shifts two at most."""
    state = resolve([("D", "Vudot Vodot", 3)], loyalty="patriotic")
    assert state["environs"]["loyalty"] == "neutral"


def test_fig_msn_5_e_summons_shifts_starts_or_stops_rebellion():
    """FIG-MSN-5: E summons shifts starts or stops rebellion."""
    sovs = [{"name": "N", "alignment": "neutral", "resource_rating": 3},
            {"name": "F", "alignment": "pro_rebel", "resource_rating": 2, "resource_star": True}]
    e = {"mission": "E", "leader": "Zina Adora", "target": "N"}
    state = resolve([dict(e, level=1)], sovereigns=sovs)
    assert state["environs"]["loyalty"] == "neutral" and not state["environs"]["sovereigns"][0][
        "summoned"]
    state = resolve([dict(e, level=2)], sovereigns=sovs)
    assert state["environs"]["sovereigns"][0]["summoned"] == "rebel"
    assert state["environs"]["loyalty"] == "dissent"
    assert "worth 3 force points (ground units of AF 2 or less" in changes(state, "reminder")[0][1]
    state = resolve([dict(e, target="F", level=1)], sovereigns=sovs, loyalty="unrest")
    assert state["environs"]["planet_state"] == "in_rebellion"
    imperial = dict(phasing_side="imperial", units=[], planet_state="rebel_controlled",
                    loyalty=None, controller="rebel",
                    characters=[{"name": "Jon Kidu", "side": "imperial"}],
                    sovereigns=[{"name": "L", "alignment": "pro_imperial"}])
    state = resolve([{"mission": "E", "leader": "Jon Kidu", "target": "L", "level": 1}],
                    **imperial)
    assert state["environs"]["planet_state"] == "rebellion_stopped"


def test_fig_msn_6_f_frees_random_captives_one_a_level():
    """FIG-MSN-6: F frees random captives one a level."""
    captives = [{"name": "Vudot Vodot", "side": "rebel"},
                {"name": "Kogus", "side": "rebel", "captured": True},
                {"name": "Tourag", "side": "rebel", "captured": True},
                {"name": "Ly Mantok", "side": "rebel", "captured": True}]
    state = resolve([("F", "Vudot Vodot", 2)], "d3:3 d2:1", characters=captives)
    assert [c["captured"] for c in state["environs"]["characters"]] == [False, False, True, False]


def test_fig_msn_7_h_steals_four_a_level_and_the_rest_is_debt():
    """FIG-MSN-7: H steals four a level and the rest is debt."""
    asked = []

    def decide(state, p):
        if p["kind"] == "value":
            asked.append((p["field"], p["role"]))
            return {"verb": "enter", "value": 5}
        return None

    state = resolve([("H", "Vudot Vodot", 2)], decide=decide, capital_or_throne=True)
    assert asked == [("enemy_resources", "enemy")]
    text = changes(state, "force_points")[0][1]
    assert "steals 8 force points" in text and "owes 3 as debt" in text
    assert changes(state, "reminder")[0][0] == "FIG-HOOK-6"


def test_fig_msn_8_i_level_one_is_a_choice_level_two_is_everything():
    """FIG-MSN-8: I level one is a choice level two is everything."""
    decide = answers((lambda s, p: p["kind"] == "information",
                      {"verb": "choose", "option": "detect_enemy_characters"}))
    state = resolve([("I", "Vudot Vodot", 1)], decide=decide,
                    characters=ENEMY[:2] + [dict(ENEMY[2], detected=False)])
    assert char(state, "Jin Voles")["detected"] and not changes(state, "secret")
    state = resolve([("I", "Vudot Vodot", 2)])
    assert [k for k in ("detection", "information", "secret")
            if changes(state, k)] == ["detection", "information", "secret"]
    assert "the Rebel chooses" in changes(state, "secret")[0][1]


def test_fig_msn_9_j_frees_the_captives_seats_allowing_and_destroys_the_atrocity_unit():
    """FIG-MSN-9 with the captives and atrocity units of FIG-CTX-11: J frees the captives in
    the orbit box, seats allowing, and at level 2 destroys the named atrocity unit."""
    orbit = dict(location="orbit", size=None, type=None, planet_state=None, loyalty=None,
                 spaceships=[{"name": "Explorer", "side": "rebel"}],
                 atrocity_units=[{"id": "Peacemaker", "kind": "peacemaker"}],
                 characters=[{"name": "Ran Jayma", "side": "rebel", "navigation": 3},
                             {"name": "Boccanegra", "side": "rebel", "captured": True},
                             {"name": "Kogus", "side": "rebel", "captured": True}])
    decide = answers((lambda s, p: p["kind"] == "hook" and p["hook"] == "seats",
                      {"verb": "seats", "count": 1}))
    j = {"mission": "J", "leader": "Ran Jayma", "ship": "Explorer", "target": "Peacemaker"}
    state = resolve([dict(j, level=2)], decide=decide, **orbit)
    assert not char(state, "Boccanegra")["captured"] and char(state, "Kogus")["captured"]
    assert state["environs"]["atrocity_units"][0]["destroyed"]
    state = resolve([dict(j, level=1)], **orbit)
    assert not char(state, "Kogus")["captured"]
    assert not state["environs"]["atrocity_units"][0]["destroyed"]


def test_fig_msn_10_p_draws_possessions_or_a_mulligan():
    """FIG-MSN-10: P draws possessions or a mulligan."""
    decide = answers((lambda s, p: p["kind"] == "receiver",
                      {"verb": "give", "character": "Zina Adora"}))
    p = {"mission": "P", "leader": "Vudot Vodot", "members": ["Zina Adora"], "level": 2}
    state = resolve([p], "d2:2", decide, possession_pool=["PAM Bomb", "Charsot"])
    assert char(state, "Zina Adora")["possessions"] == ["Charsot"]
    assert char(state, "Vudot Vodot")["possessions"] == ["PAM Bomb"]
    state = resolve([p], possession_pool=[])
    assert state["environs"]["mulligans"]["rebel"] == 2


def test_fig_msn_11_q_torture_then_a_secret():
    """FIG-MSN-11: torture is d6 hits first; hits reaching the prisoner's EF kill him and end
    the mission; with his EF unknown, the players say (FIG-HOOK-1)."""
    imperial = dict(phasing_side="imperial", units=[],
                    characters=[{"name": "Els Taroff", "side": "imperial"},
                                {"name": "Agan Rafa", "side": "rebel", "captured": True,
                                 "intelligence": 2, "ef": 4}])
    q = {"mission": "Q", "leader": "Els Taroff", "target": "Agan Rafa", "torture": True}
    state = resolve([q], "d6:4", segment=3, **imperial)
    assert char(state, "Agan Rafa")["dead"] and state["groups"][0]["status"] == "aborted"
    state = resolve([q], "d6:3 p2d6:6,2", segment=3, **imperial)
    assert char(state, "Agan Rafa")["hits"] == 3 and state["groups"][0]["level"] == 1
    assert changes(state, "secret")[0][0] == "FIG-MSN-11"
    imperial["characters"][1]["ef"] = None
    decide = answers((lambda s, p: p["kind"] == "hook" and p["hook"] == "prisoner",
                      {"verb": "result", "result": "dies"}))
    state = resolve([q], "d6:1", decide, segment=3, **imperial)
    assert char(state, "Agan Rafa")["dead"]


def test_fig_msn_12_r_starts_or_stops_rebellion():
    """FIG-MSN-12: R starts or stops rebellion."""
    state = resolve([("R", "Vudot Vodot", 1)], loyalty="unrest", last_coup_by="imperial",
                    coup_rating=1)
    env = state["environs"]
    assert env["planet_state"] == "in_rebellion" and env["last_coup_by"] is None
    assert [r for r, _ in changes(state, "coup_marker")] == ["FIG-MIS-22"]
    imperial = dict(phasing_side="imperial", units=[], planet_state="in_rebellion",
                    loyalty=None, controller="none",
                    characters=[{"name": "Jon Kidu", "side": "imperial"}])
    assert resolve([("R", "Jon Kidu", 1)], **imperial)["environs"]["planet_state"] == \
        "in_rebellion"
    assert resolve([("R", "Jon Kidu", 2)], **imperial)["environs"]["planet_state"] == \
        "rebellion_stopped"


def test_fig_msn_13_s_the_best_effect_the_level_allows():
    """FIG-MSN-13: S the best effect the level allows."""
    units = [{"id": "A1", "side": "imperial", "kind": "conscript", "af": 1},
             {"id": "A3", "side": "imperial", "kind": "1st_line", "af": 3},
             {"id": "E5", "side": "imperial", "kind": "1st_line", "af": 5, "elite": True}]

    def hit(target, level, **context):
        state = resolve([{"mission": "S", "leader": "Vudot Vodot", "target": target,
                          "level": level}], units=units, **context)
        return state["environs"]

    assert hit("A1", 1)["units"][0]["destroyed"]
    assert hit("A3", 1)["units"][1]["damaged"] and not hit("A3", 1)["units"][1]["destroyed"]
    assert hit("A3", 2)["units"][1]["destroyed"]
    assert hit("E5", 2)["units"][2]["damaged"] and not hit("E5", 1)["units"][2]["damaged"]
    env = hit("pdb", 2, pdb=2)
    assert env["pdb_down"] and env["pdb"] == 1
    env = hit("pdb", 1, pdb=2)
    assert env["pdb_down"] and env["pdb"] == 2


def test_fig_msn_14_t_turns_the_unit_at_the_level_it_needs():
    """FIG-MSN-14: T turns the unit at the level it needs."""
    units = [{"id": "S", "side": "imperial", "kind": "stormtrooper", "af": 4}]
    t = {"mission": "T", "leader": "Vudot Vodot", "target": "S"}
    assert resolve([dict(t, level=2)], units=units)["environs"]["units"][0]["side"] == "imperial"
    assert resolve([dict(t, level=3)], units=units)["environs"]["units"][0]["side"] == "rebel"


def test_fig_mis_22_the_order_of_the_resolution():
    """FIG-MIS-22: loyalty shifts (C, then D, then E failure), then rebellion, then the other
    effects in letter order (A before S), then the failures' captures and deaths."""
    groups = [("S", "Zina Adora", 1), ("C", "Vudot Vodot", 1), ("D", "Kogus", 1),
              {"mission": "A", "leader": "Tourag", "target": "Jin Voles", "level": 1},
              {"mission": "R", "leader": "Ly Mantok", "level": 1}]
    characters = [{"name": n, "side": "rebel"} for n in
                  ("Vudot Vodot", "Zina Adora", "Kogus", "Tourag", "Ly Mantok")] + [ENEMY[2]]
    groups[0] = {"mission": "S", "leader": "Zina Adora", "target": "U1", "level": 1}
    state = resolve(groups, loyalty="loyal", coup_rating=1, characters=characters)
    kinds = [c["kind"] for c in state["outcome"] if c["kind"] != "mission"]
    assert kinds[:3] == ["loyalty", "loyalty", "planet"]
    assert kinds.index("kill") < kinds.index("unit")
    assert state["environs"]["planet_state"] == "in_rebellion"
    assert any("no coup marker" in n for n in notes(state, "FIG-MSN-3"))


def test_fig_mis_24_the_report_lists_every_change_with_its_rule():
    state = resolve([("D", "Vudot Vodot", 1)])
    assert state["outcome"][0] == {"rule": "FIG-MIS-24", "kind": "mission",
                                   "text": "G1 D (Diplomacy, Vudot Vodot): level 1",
                                   "refs": ["G1"]}
    assert all(set(c) == {"rule", "kind", "text", "refs"} for c in state["outcome"])
    assert all(c["rule"].startswith("FIG-") for c in state["outcome"])
    assert GAME.outcome(state)["result"] == "D1"


def test_fig_msn_16_the_suppression_roll_outside_the_phase():
    """FIG-MSN-16: AF plus leadership above the size; a camp goes on a d6 up to the
    differential, a cell only on a 1."""
    state = make(size=2, cells=[{"id": "Camp 1", "kind": "camp"}, {"id": "Cell 1", "kind": "cell"},
                                {"id": "Cell 2", "kind": "cell"}])
    removed = GAME.suppression_roll(state, af=3, leadership=1,
                                    dice=ScriptedDice("d6:2 d6:2 d6:1"))
    assert removed == ["Camp 1", "Cell 2"]
    assert [c["id"] for c in state["environs"]["cells"]] == ["Cell 1"]
    assert GAME.suppression_roll(state, af=1, leadership=1, dice=ScriptedDice("")) == []


def test_fig_msn_10_a_spaceship_drawn_joins_the_sides_ships():
    """FIG-MSN-10 with FIG-CTX-10: the pool holds the chart's spaceships too; one drawn is not
    carried by a member but joins the side's spaceships here, undetected."""
    p = {"mission": "P", "leader": "Vudot Vodot", "members": ["Zina Adora"], "level": 1}
    state = resolve([p], possession_pool=["Explorer"])
    assert state["environs"]["spaceships"] == [{"name": "Explorer", "side": "rebel",
                                                "detected": False, "damaged": False,
                                                "destroyed": False}]
    assert char(state, "Vudot Vodot")["possessions"] == []


def test_fig_msn_17_a_sovereigns_intelligence_is_its_leadership():
    """FIG-MSN-17: an NPC sovereign's intelligence is its environs leadership (Fog, FIG-CRE-13,
    reads it)."""
    sovs = [{"name": "Queen Ara", "alignment": "pro_rebel"}]
    chars = [{"name": "Kogus", "side": "rebel", "intelligence": 1},
             {"name": "Queen Ara", "side": "rebel", "npc_sovereign": True, "leadership": 3}]
    state = make(assignment=[{"mission": "D", "leader": "Kogus", "members": ["Queen Ara"]}],
                 sovereigns=sovs, characters=chars, creature="Fog")
    state = drive(state, ScriptedDice("p2d6:3,1 p2d6:5,2"),
                  stop=lambda s: s["pending"]["kind"] == "bonus_roll")
    assert not state["groups"][0]["lose_all"]
