"""Recruitment (FIG-REC-1, FIG-REC-2, FIG-REC-3, FIG-REC-4) and Mission Assignment (FIG-MIS-3,
FIG-MIS-4): who may go on which mission, checked against each mission's requirements (the
mission rules, FIG-MSN: each test names the IDs it checks) and the leader rule (FIG-BDR-3), at
the assignment prompt and for a scenario's own groups."""

from __future__ import annotations

import pytest

from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.context import Ctx
from struggle_desktop.games.freedom.data import default_data
from struggle_desktop.games.freedom.missions import group_problem, new_group
from struggle_desktop.games.freedom.registry import RULES
from tests.games.freedom.helpers import (ScriptedDice, answers, char, drive, group, make, notes,
                                         rolls)


def problem(mission, leader=None, members=(), target=None, ship=None, torture=False,
            performer=None, others=(), **context):
    """What FIG-MIS-4 says of one group in an environs made from BASE and ``context``."""
    state = make(**context)
    ctx = Ctx(state, RULES.procedures, default_data(), dice=False)
    g = new_group(mission, leader, members, performer, target, ship, torture)
    return group_problem(ctx, g, [new_group(*o) for o in others])


REBELS = [{"name": "Vudot Vodot", "side": "rebel"}, {"name": "Zina Adora", "side": "rebel"},
          {"name": "Oneste Woada", "side": "rebel"}, {"name": "Jin Voles", "side": "imperial"}]


# ------------------------------------------------------------------------------ recruitment
def recruit(script, **context):
    state = make(**context)
    return drive(state, ScriptedDice(script), stop=lambda s: s["phase"] != "recruitment")


@pytest.mark.parametrize("context,modifiers", [
    ({"loyalty": "patriotic"}, [["loyalty patriotic", -2], ["size 1", -3]]),
    ({"planet_state": "in_rebellion", "loyalty": None, "controller": "none", "size": 5},
     [["size 5", 1], ["planet in rebellion", 1]]),
    ({"planet_state": "rebel_controlled", "loyalty": None, "phasing_side": "imperial",
      "characters": [{"name": "Jon Kidu", "side": "imperial"}], "units": []},
     [["size 1", -3], ["rebel controlled planet", -2]]),
    ({"planet_state": "rebellion_stopped", "loyalty": None, "size": 4}, [["size 4", 0]]),
])
def test_fig_rec_2_and_fig_rec_3_the_modifiers(context, modifiers):
    """FIG-REC-2 rows 1-4 with FIG-REC-3 (no loyalty term in a rebellion state)."""
    side = context.get("phasing_side", "rebel")
    state = recruit("d10:2", unrecruited={side: ["Kogus" if side == "rebel" else "Gelba"]},
                    **context)
    roll = next(e for e in state["log"] if e["rule"] == "FIG-REC-1" and e["kind"] == "roll")
    assert roll["dice"][0]["modifiers"] == modifiers


def test_fig_rec_1_ten_or_a_natural_ten_and_fig_rec_4_a_random_recruit():
    """FIG-REC-1: 10 or more recruits; a natural 10 always; FIG-REC-4: a dk in pool order, the
    recruit placed undetected and free to be assigned."""
    state = recruit("d10:10 d2:2", unrecruited={"rebel": ["Kogus", "Tourag"]},
                    loyalty="patriotic")
    assert "a natural 10 succeeds" in notes(state, "FIG-REC-1")[-1]
    tourag = char(state, "Tourag")
    assert tourag["side"] == "rebel" and not tourag["detected"]
    assert state["environs"]["unrecruited"]["rebel"] == ["Kogus"]
    assert state["pending"]["kind"] == "assign"
    assert {"verb": "form", "mission": "D", "leader": "Tourag"} in GAME.legal_actions(
        state, "phasing")
    state = recruit("d10:9", unrecruited={"rebel": ["Kogus"]}, size=5, loyalty="unrest")
    assert char(state, "Kogus")["side"] == "rebel"          # 9 + 2 + 1 = 12, one candidate
    state = recruit("d10:9", unrecruited={"rebel": ["Kogus"]})
    assert notes(state, "FIG-REC-1")[-1] == "Recruitment fails: total 6, 10 needed"


def test_fig_rec_1_no_roll_without_a_fit_character_or_in_an_orbit_box():
    state = recruit("", unrecruited={"rebel": ["Kogus"]},
                    characters=[{"name": "Vudot Vodot", "side": "rebel", "resting": True}])
    assert rolls(state) == [] and "fit to recruit" in notes(state, "FIG-REC-1")[0]
    state = recruit("", unrecruited={"rebel": ["Kogus"]}, location="orbit", size=None,
                    type=None, planet_state=None, loyalty=None)
    assert notes(state, "FIG-REC-1") == ["No recruitment in an orbit box"]


def test_fig_rec_4_option_chosen_lets_the_player_pick():
    decide = answers((lambda s, p: p["kind"] == "recruit",
                      {"verb": "recruit", "character": "Tourag"}))
    state = make(unrecruited={"rebel": ["Kogus", "Tourag"]}, options={"recruit_choice": "chosen"})
    state = drive(state, ScriptedDice("d10:10"), decide, stop=lambda s: s["phase"] != "recruitment")
    assert char(state, "Tourag")["side"] == "rebel" and rolls(state, "FIG-REC-4") == []


# ------------------------------------------------------------------------------ requirements
def test_fig_mis_3_who_may_go():
    """FIG-MIS-3: one mission per group and per environs; a character in one group; resting or
    captured characters stay; a Question Prisoner group is one character."""
    assert problem("D", "Vudot Vodot", ["Zina Adora"]) is None
    assert "already has mission D" in problem("D", "Vudot Vodot",
                                              others=[("D", "Zina Adora")])
    assert "already in another group" in problem("I", "Vudot Vodot",
                                                 others=[("D", "Vudot Vodot")])
    resting = [dict(REBELS[0], resting=True), REBELS[1]]
    assert "resting" in problem("D", "Vudot Vodot", characters=resting)
    captive = [dict(REBELS[0], captured=True)]
    assert "captured and cannot go" in problem("D", "Vudot Vodot", characters=captive)
    q = problem("Q", "Vudot Vodot", ["Zina Adora"], target="Jin Voles",
                characters=[REBELS[0], REBELS[1], dict(REBELS[3], captured=True)])
    assert "exactly one character" in q


def test_fig_bdr_3_a_dash_means_the_character_cannot_lead_that_mission():
    """FIG-BDR-3: a dash means the character cannot lead that mission."""
    assert "cannot lead mission A (a dash" in problem("A", "Oneste Woada", target="Jin Voles",
                                                      characters=[REBELS[2],
                                                                  dict(REBELS[3], detected=True)])
    assert problem("A", "Vudot Vodot", ["Oneste Woada"], target="Jin Voles",
                   characters=[REBELS[0], REBELS[2], dict(REBELS[3], detected=True)]) is None
    orbit = dict(location="orbit", size=None, type=None, planet_state=None, loyalty=None,
                 spaceships=[{"name": "Explorer", "side": "rebel"}],
                 characters=[{"name": "Vudot Vodot", "side": "rebel", "navigation": 4},
                             {"name": "Boccanegra", "side": "rebel", "captured": True}])
    assert "cannot pilot" in problem("J", "Vudot Vodot", ship="Explorer", **orbit)


def test_fig_msn_1_a_needs_a_detected_enemy_or_a_sovereign_not_ones_own():
    """FIG-MSN-1: A needs a detected enemy or a sovereign not one's own."""
    chars = [REBELS[0], REBELS[3]]
    assert "not a possible target" in problem("A", "Vudot Vodot", target="Jin Voles",
                                              characters=chars)
    assert problem("A", "Vudot Vodot", target="Jin Voles",
                   characters=[REBELS[0], dict(REBELS[3], detected=True)]) is None
    sovereigns = [{"name": "Queen Ara", "alignment": "pro_imperial"},
                  {"name": "King Bo", "alignment": "pro_rebel", "summoned": "rebel"}]
    assert problem("A", "Vudot Vodot", target="Queen Ara", sovereigns=sovereigns) is None
    assert "not a possible target" in problem("A", "Vudot Vodot", target="King Bo",
                                              sovereigns=sovereigns)
    assert "needs a target" in problem("A", "Vudot Vodot")


def test_fig_msn_2_b_not_in_unrest_or_rebellion_and_rebel_only():
    """FIG-MSN-2: B not in unrest or rebellion and rebel only."""
    assert problem("B", "Vudot Vodot") is None
    assert "not possible on a planet that is unrest" in problem("B", "Vudot Vodot",
                                                                loyalty="unrest")
    imperial = dict(phasing_side="imperial", units=[],
                    characters=[{"name": "Jon Kidu", "side": "imperial"}])
    assert "not a imperial mission" in problem("B", "Jon Kidu", **imperial)


def test_fig_msn_3_c_coup_rating_last_coup_and_intelligence():
    """FIG-MSN-3 with the coup fields of FIG-CTX-5: C needs a coup rating, the other side's
    last coup (or none) and a leader's intelligence above 1."""
    assert "no coup rating" in problem("C", "Vudot Vodot")
    assert "made the last coup" in problem("C", "Vudot Vodot", coup_rating=1,
                                           last_coup_by="rebel")
    dull = [dict(REBELS[0], intelligence=1)]
    assert "intelligence is 1" in problem("C", "Vudot Vodot", coup_rating=1, characters=dull)
    assert problem("C", "Vudot Vodot", coup_rating=1, last_coup_by="imperial") is None


def test_fig_mis_4_a_missing_rating_is_asked_at_done_and_a_group_short_of_it_is_refused():
    """FIG-MIS-4 with FIG-CTX-9: C's leader has no intelligence entered; it is asked when the
    groups are done; a 1 refuses the group with the requirement named and the prompt comes
    back."""
    decide = answers((lambda s, p: p["kind"] == "assign" and not s["draft"],
                      {"verb": "form", "mission": "C", "leader": "Vudot Vodot"}),
                     (lambda s, p: p["kind"] == "assign", {"verb": "done"}),
                     (lambda s, p: p["kind"] == "value", {"verb": "enter", "value": 1}))
    state = make(coup_rating=2)
    state = drive(state, ScriptedDice(""), decide, stop=lambda s: not decide.queue)
    assert state["pending"]["kind"] == "assign" and state["draft"] == []
    assert notes(state, "FIG-MIS-4") == ["Entered: Vudot Vodot's intelligence 1",
                                         "G1 (C) is refused: the leader's intelligence is 1; it "
                                         "must be 2 or more"]
    assert char(state, "Vudot Vodot")["intelligence"] == 1


def test_fig_msn_4_d_needs_nothing_and_fig_msn_5_e_a_sovereign_and_two_rebellions():
    """FIG-MSN-4 and FIG-MSN-5: D needs nothing and E a sovereign and two rebellions."""
    assert problem("D", "Vudot Vodot") is None
    sovs = [{"name": "Queen Ara", "alignment": "neutral"},
            {"name": "Lord Cy", "alignment": "pro_imperial"}]
    assert "2 planets of the Empire" in problem("E", "Vudot Vodot", target="Queen Ara",
                                                sovereigns=sovs)
    assert problem("E", "Vudot Vodot", target="Queen Ara", sovereigns=sovs,
                   planets_in_rebellion_empire_wide=2) is None
    assert "not a possible target" in problem("E", "Vudot Vodot", target="Lord Cy",
                                              sovereigns=sovs,
                                              planets_in_rebellion_empire_wide=2)


def test_fig_msn_6_f_and_fig_msn_7_h():
    """FIG-MSN-6 and FIG-MSN-7: F and H."""
    assert "no rebel character is held captive" in problem("F", "Vudot Vodot")
    assert problem("F", "Vudot Vodot", characters=[REBELS[0], dict(REBELS[1], captured=True)]) \
        is None
    assert "capital or throne" in problem("H", "Vudot Vodot")
    assert problem("H", "Vudot Vodot", capital_or_throne=True) is None
    assert problem("H", "Vudot Vodot", province_taxed_next_turn=True) is None
    imperial = dict(phasing_side="imperial", units=[],
                    characters=[{"name": "Jon Kidu", "side": "imperial"}])
    assert "secret base" in problem("H", "Jon Kidu", **imperial)
    assert problem("H", "Jon Kidu", rebel_secret_base_here=True, **imperial) is None


def test_fig_msn_8_i_not_on_ones_own_planet_without_enemy_units():
    """FIG-MSN-8: I not on one's own planet without enemy units."""
    assert problem("I", "Vudot Vodot") is None
    own = dict(planet_state="rebel_controlled", loyalty=None, controller="rebel")
    assert "the planet is the phasing side's own" in problem("I", "Vudot Vodot", units=[], **own)
    assert problem("I", "Vudot Vodot", **own) is None       # the Imperial unit is here


def test_fig_msn_9_j_orbit_ship_navigation_and_target():
    """FIG-MSN-9: J orbit ship navigation and target."""
    orbit = dict(location="orbit", size=None, type=None, planet_state=None, loyalty=None,
                 spaceships=[{"name": "Explorer", "side": "rebel"}],
                 characters=[{"name": "Ran Jayma", "side": "rebel", "navigation": 1},
                             {"name": "Boccanegra", "side": "rebel", "captured": True}])
    assert "navigation is 1" in problem("J", "Ran Jayma", ship="Explorer", **orbit)
    orbit["characters"][0]["navigation"] = 2
    assert problem("J", "Ran Jayma", ship="Explorer", **orbit) is None
    assert "needs a spaceship" in problem("J", "Ran Jayma", **orbit)
    orbit["characters"].pop()
    assert "nothing to free" in problem("J", "Ran Jayma", ship="Explorer", **orbit)
    orbit["atrocity_units"] = [{"id": "Peacemaker", "kind": "peacemaker"}]
    assert problem("J", "Ran Jayma", ship="Explorer", target="Peacemaker", **orbit) is None
    assert "starts from an orbit box" in problem("J", "Ran Jayma", ship="Explorer",
                                                 spaceships=[{"name": "Explorer",
                                                              "side": "rebel"}],
                                                 characters=[{"name": "Ran Jayma",
                                                              "side": "rebel"}])
    assert "hosts only J and Q" in problem("D", "Ran Jayma", **orbit)


def test_fig_msn_10_p_rebel_only_and_fig_msn_11_q_needs_a_captive_enemy():
    """FIG-MSN-10 and FIG-MSN-11: P rebel only and Q needs a captive enemy."""
    assert problem("P", "Vudot Vodot") is None
    with_prisoner = [REBELS[0], dict(REBELS[3], captured=True)]
    assert problem("Q", "Vudot Vodot", target="Jin Voles", characters=with_prisoner) is None
    assert "Imperial player may torture" in problem("Q", "Vudot Vodot", target="Jin Voles",
                                                    torture=True, characters=with_prisoner)


def test_fig_msn_12_r_depends_on_the_side():
    """FIG-MSN-12: R depends on the side."""
    assert "needs a planet that is unrest" in problem("R", "Vudot Vodot")
    assert problem("R", "Vudot Vodot", loyalty="unrest") is None
    imperial = dict(phasing_side="imperial", units=[],
                    characters=[{"name": "Jon Kidu", "side": "imperial"}])
    assert "in rebellion or rebel controlled" in problem("R", "Jon Kidu", **imperial)
    assert problem("R", "Jon Kidu", planet_state="rebel_controlled", loyalty=None,
                   **imperial) is None


def test_fig_msn_13_s_and_fig_msn_14_t_targets():
    """FIG-MSN-13 and FIG-MSN-14: S and T targets."""
    assert problem("S", "Vudot Vodot", target="U1") is None
    assert "not a possible target" in problem("S", "Vudot Vodot", target="pdb")
    assert problem("S", "Vudot Vodot", target="pdb", pdb=2) is None
    units = [{"id": "M", "side": "imperial", "kind": "star_marines", "af": 3},
             {"id": "G", "side": "imperial", "kind": "stormtrooper", "af": 4}]
    assert "not a possible target" in problem("T", "Vudot Vodot", target="M", units=units)
    assert problem("T", "Vudot Vodot", target="G", units=units) is None


def test_fig_msn_15_cells_and_camps():
    cells = [{"id": "Cell 1", "kind": "cell"}, {"id": "Camp 1", "kind": "camp"}]
    assert problem("F", performer="Cell 1", cells=cells,
                   characters=[REBELS[0], dict(REBELS[1], captured=True)]) is None
    assert "a cell cannot perform D" in problem("D", performer="Cell 1", cells=cells)
    assert problem("D", performer="Camp 1", cells=cells) is None
    assert "a camp cannot perform P" in problem("P", performer="Camp 1", cells=cells)
    # A camp needs no leader's intelligence for C (FIG-MSN-15).
    assert problem("C", performer="Camp 1", cells=cells, coup_rating=1) is None
    assert "no character may go" in problem("D", members=["Zina Adora"], performer="Camp 1",
                                            cells=cells)


def test_fig_msn_17_a_sovereign_goes_along_but_never_leads():
    """FIG-MSN-17: A sovereign goes along but never leads."""
    sovs = [{"name": "Queen Ara", "alignment": "pro_rebel"}]
    chars = [REBELS[0], {"name": "Queen Ara", "side": "rebel", "npc_sovereign": True}]
    assert problem("D", "Vudot Vodot", ["Queen Ara"], sovereigns=sovs, characters=chars) is None
    assert "never leads" in problem("D", "Queen Ara", sovereigns=sovs, characters=chars)
    state = make(sovereigns=sovs, characters=chars)
    assert char(state, "Queen Ara")["detected"]


# ------------------------------------------------------------------------------ the prompt
def test_the_assignment_prompt_lists_only_valid_groups_and_says_why_others_are_refused():
    """FIG-MIS-3, FIG-MIS-4: form, join, disband and done; an illegal form is refused with the
    requirement named."""
    state = make(characters=REBELS[:3])
    GAME.advance(state)
    assert state["pending"]["kind"] == "assign" and state["pending"]["role"] == "phasing"
    legal = GAME.legal_actions(state, "phasing")
    forms = {(a["mission"], a["leader"]) for a in legal if a["verb"] == "form"}
    assert ("D", "Oneste Woada") in forms and ("B", "Vudot Vodot") in forms
    assert not any(m == "A" for m, _ in forms)               # no detected enemy here
    assert not any(m in "CEFHJQR" for m, _ in forms)
    reason = GAME.check_action(state, "phasing", {"verb": "form", "mission": "C",
                                                  "leader": "Vudot Vodot"})
    assert reason == "refused: the environs has no coup rating (FIG-MIS-4)"
    state = GAME.apply(state, "phasing", {"verb": "form", "mission": "D", "leader": "Vudot Vodot"})
    GAME.advance(state)
    assert {"verb": "join", "group": "G1", "character": "Zina Adora"} in GAME.legal_actions(
        state, "phasing")
    state = GAME.apply(state, "phasing", {"verb": "join", "group": "G1",
                                          "character": "Zina Adora"})
    GAME.advance(state)
    assert not any(a.get("mission") == "D" for a in GAME.legal_actions(state, "phasing"))
    state = GAME.apply(state, "phasing", {"verb": "done"})
    GAME.advance(state)
    assert group(state, "G1")["members"] == ["Vudot Vodot", "Zina Adora"]
    assert state["phase"] == "steps" and state["draft"] is None


def test_the_simple_player_forms_one_group_per_character():
    state = make(characters=REBELS[:3])
    state = drive(state, None, stop=lambda s: s["phase"] == "steps")
    assert [(g["mission"], g["leader"]) for g in state["groups"]] == [
        ("D", "Vudot Vodot"), ("I", "Zina Adora"), ("S", "Oneste Woada")]
