"""The Noble Houses turn outside the fights (turn.py): initiative, production, upkeep,
recruiting, movement, Noble actions, planet control and the end of a turn, on hand-made
positions with scripted dice."""

from __future__ import annotations

import pytest

from struggle_desktop.games.nobles import GAME
from struggle_desktop.games.nobles.turn import end_of_turn

from .positions import legal, play, position, run_step

DONE = {"verb": "done"}


def ctx_of(state):
    return GAME.context(state)


# ------------------------------------------------------------------ 1 Initiative
def test_initiative_is_modified_by_last_turns_planning_and_ties_reroll_unmodified():
    """NH-SEQ-3, NH-SEQ-4, NH-NOB-20: A's 3 +1 ties B's 4; the re-roll is unmodified
    (A 2, B 5), so B goes first; the shift is used up."""
    state, _ = position()
    state["houses"]["A"]["planning"] = 1
    run_step(state, "initiative", dice=[3, 4, 2, 5])
    assert state["order"] == ["B", "A"]
    assert state["houses"]["A"]["initiative_mod"] == 1 and state["houses"]["A"]["planning"] == 0
    rolls = [e["dice"][0] for e in state["log"] if e["kind"] == "roll"]
    assert rolls[0]["modifiers"] == [["Strategic Planning", 1]] and rolls[0]["result"] == 4
    assert all(not r["modifiers"] for r in rolls[2:])


def test_three_houses_are_ordered_highest_first():
    """NH-SEQ-4: more than two houses, highest modified roll first."""
    state, _ = position(houses=3)
    run_step(state, "initiative", dice=[2, 6, 4])
    assert state["order"] == ["B", "C", "A"]


# ------------------------------------------------------------------ 2 Production
def test_production_counts_worlds_govern_bonus_and_ally_income():
    """NH-PROD-1, NH-PROD-2, NH-ALLY-4, NH-WORLD-9: Lortran 5, Mox 4 + 1 Govern, the
    Mercantile Consortium 2 = 12; Solats accumulate without a cap."""
    state, _ = position(controllers={"Mox": "A"}, allies={"A": ["Mercantile Consortium"]},
                        solats=90)
    state["worlds"]["Mox"]["govern"] = True
    run_step(state, "production")
    assert state["houses"]["A"]["solats"] == 102
    assert state["houses"]["B"]["solats"] == 95


def test_a_world_with_enemy_armies_still_pays_its_controller():
    """NH-PROD-3."""
    state, _ = position(controllers={"Mox": "A"}, units=[("B", "Amazonians", "Mox")], solats=0)
    run_step(state, "production")
    assert state["houses"]["A"]["solats"] == 5 + 4


# ------------------------------------------------------------------ 3 Upkeep
def test_upkeep_is_one_solat_per_full_ten_units_nobles_free():
    """NH-UPK-1, NH-UPK-2, NH-OPT-1: 19 armies, jumpships and nukes cost 1; Nobles are free;
    with the seed's higher-upkeep variant (divisor 5) the same units cost 3."""
    units = [("A", "House Troops", "Lortran")] * 17 + [("A", "Jumpship", "Lortran"),
                                                       ("A", "Nuclear Arsenal", "Lortran")]
    units += [("A", "Noble", "Lortran")] * 5
    state, _ = position(units=units)
    run_step(state, "upkeep")
    assert state["houses"]["A"]["solats"] == 9
    state, _ = position(units=units, options={"upkeep_divisor": 5})
    run_step(state, "upkeep")
    assert state["houses"]["A"]["solats"] == 7


def test_a_shortfall_disbands_units_of_the_houses_choice_until_it_can_pay():
    """NH-UPK-4: 20 units owe 2 with 1 Solat; disbanding one leaves 19 owing 1, which is
    paid; the treasury never goes negative."""
    state, ids = position(units=[("A", "House Troops", "Lortran")] * 20, solats=1)
    pending = run_step(state, "upkeep")
    assert pending["kind"] == "disband" and pending["role"] == "A"
    assert {a["unit"] for a in legal(state)} == set(ids)
    pending = play(state, answers=[("A", {"verb": "disband", "unit": ids[5]})])
    assert pending is None and ids[5] not in state["units"]
    assert state["houses"]["A"]["solats"] == 0


def test_mercenaries_are_paid_one_each_or_desert():
    """NH-ABIL-20, NH-UPK-3: after upkeep, 3 Mercenaries cost 3; with 2 Solats one must go;
    the rest are paid."""
    state, ids = position(units=[("A", "Mercenaries", "Lortran")] * 3, solats=2)
    pending = run_step(state, "upkeep")
    assert pending["kind"] == "retainer"
    assert {"verb": "pay"} not in legal(state)
    play(state, answers=[("A", {"verb": "dismiss", "unit": ids[0]}),
                                       ("A", {"verb": "pay"})])
    assert ids[0] not in state["units"] and ids[1] in state["units"]
    assert state["houses"]["A"]["solats"] == 0


# ------------------------------------------------------------------ 4 Recruit Nobles
def test_a_one_gains_a_noble_on_the_homeworld_and_allies_add_rolls():
    """NH-REC-1, NH-REC-2, NH-ALLY-8: the Surgeons of Silex give A a second roll; 1 and 1
    give two Nobles on Lortran; B's 2 gives nothing."""
    state, _ = position(allies={"A": ["Surgeons of Silex"]})
    run_step(state, "recruit_nobles", dice=[1, 1, 2])
    nobles = [u for u, row in state["units"].items() if row["type"] == "Noble"]
    assert nobles == ["A-N1", "A-N2"]
    assert state["units"]["A-N1"]["hex"] == [1, 1]


def test_the_aristocracy_gives_a_roll_or_a_noble_action_not_both():
    """NH-ALLY-10: taking the roll gives two rolls and no Noble Action use; taking the action
    gives one roll and a use in step 9."""
    state, _ = position(allies={"A": ["Imperial Aristocracy"]})
    pending = run_step(state, "recruit_nobles")
    assert pending["kind"] == "aristocracy"
    play(state, dice=[6, 6, 6],
             answers=[("A", {"verb": "choose", "benefit": "recruit_noble"})])
    assert "Imperial Aristocracy" not in state["houses"]["A"]["ally_uses"]
    state, _ = position(allies={"A": ["Imperial Aristocracy"]})
    run_step(state, "recruit_nobles", dice=[6, 6],
             answers=[("A", {"verb": "choose", "benefit": "noble_action"})])
    assert state["houses"]["A"]["ally_uses"]["Imperial Aristocracy"] == {"noble_action": 1}


def test_a_house_without_its_homeworld_chooses_where_its_noble_appears():
    """NH-REC-2: B holds Lortran; A holds Mox and Frost and chooses Frost; a house with no
    world loses the Noble."""
    state, _ = position(controllers={"Lortran": "B", "Mox": "A", "Frost": "A"})
    pending = run_step(state, "recruit_nobles", dice=[1])
    assert pending["kind"] == "place"
    assert {a["world"] for a in legal(state)} == {"Mox", "Frost"}
    play(state, dice=[6], answers=[("A", {"verb": "place", "world": "Frost"})])
    assert state["units"]["A-N1"]["hex"] == state["map"]["worlds"]["Frost"]
    state, _ = position(controllers={"Lortran": "B"})
    run_step(state, "recruit_nobles", dice=[1, 6])
    assert not [u for u in state["units"] if u.startswith("A-N")]


# ------------------------------------------------------------------ 5 Recruit Troops
def buys_of(state):
    return {(a["world"], a["unit"]) for a in legal(state) if a["verb"] == "buy"}


def test_what_can_be_bought_where():
    """NH-REC-3, NH-REC-4, NH-REC-5, NH-REC-6, NH-REC-7, NH-REC-8, NH-ALLY-12, NH-WORLD-5,
    NH-WORLD-10, NH-ABIL-22: the homeworld's list plus the allies' types at the own homeworld,
    a captured homeworld's list without ally types, Yoravar's jumpship at 4 (6 elsewhere),
    nothing at Pyreen, nothing where an enemy army stands, nothing dearer than the treasury."""
    state, _ = position(controllers={"Yoravar": "A", "Pyreen": "A", "Gurati": "A", "Mox": "A"},
                        units=[("B", "House Troops", "Mox")],
                        allies={"A": ["Imperial Army"]}, solats=5)
    run_step(state, "recruit_troops")
    assert buys_of(state) == {
        ("Lortran", "Psychic Veterans"), ("Lortran", "House Troops"),
        ("Gurati", "Anthrosynthetic Berserkers"), ("Gurati", "Cyborg Commandos"),
        ("Gurati", "House Troops"), ("Yoravar", "Jumpship")}
    state["houses"]["A"]["solats"] = 6
    assert ("Lortran", "Imperial Shock Troops") in buys_of(state)
    assert ("Gurati", "Imperial Shock Troops") not in buys_of(state)
    state, _ = position(controllers={"Parallax": "A"}, solats=6, allies={"A": ["Imperial Army"]})
    run_step(state, "recruit_troops", answers=[
        ("A", {"verb": "buy", "world": "Parallax", "unit": "Jumpship"})])
    assert state["houses"]["A"]["solats"] == 0
    # The ally type counts within the homeworld's two purchases (NH-REC-6).
    state, _ = position(solats=30, allies={"A": ["Imperial Army"]})
    run_step(state, "recruit_troops", answers=[
        ("A", {"verb": "buy", "world": "Lortran", "unit": "Imperial Shock Troops"}),
        ("A", {"verb": "buy", "world": "Lortran", "unit": "Imperial Shock Troops"})])
    assert state["pending"]["role"] == "B" and state["houses"]["A"]["solats"] == 18


def test_an_unused_homeworld_is_neutral_and_sells_like_a_homeworld_to_its_holder():
    """NH-WORLD-4, NH-REC-7: with two houses Kadesh is nobody's homeworld. It starts neutral;
    held by A it pays its 5, and A may buy two units there from Kadesh's list but none of
    its allies' types."""
    state, _ = position(allies={"A": ["Imperial Army"]}, solats=0)
    assert state["worlds"]["Kadesh"]["controller"] is None
    state["worlds"]["Kadesh"]["controller"] = "A"
    run_step(state, "production")
    assert state["houses"]["A"]["solats"] == 5 + 5
    state["houses"]["A"]["solats"] = 30
    run_step(state, "recruit_troops", answers=[
        ("A", {"verb": "buy", "world": "Kadesh", "unit": "Kadesh Fanatics"})])
    on_kadesh = {unit for world, unit in buys_of(state) if world == "Kadesh"}
    assert on_kadesh == {"Kadesh Fanatics", "Kadesh Warrior Priests", "House Troops"}
    assert ("Lortran", "Imperial Shock Troops") in buys_of(state)
    play(state, answers=[("A", {"verb": "buy", "world": "Kadesh", "unit": "House Troops"})])
    assert state["pending"]["role"] == "A"
    assert not {unit for world, unit in buys_of(state) if world == "Kadesh"}


def test_one_unit_per_world_two_per_homeworld_and_defenders_stay_bound():
    """NH-REC-3, NH-REC-4, NH-REC-9, NH-ABIL-9: after two buys on Lortran and one Miners on
    Mox, nothing more can be bought there; the Miners are bound to Mox."""
    state, _ = position(controllers={"Mox": "A"}, solats=20)
    run_step(state, "recruit_troops", answers=[
        ("A", {"verb": "buy", "world": "Lortran", "unit": "House Troops"}),
        ("A", {"verb": "buy", "world": "Lortran", "unit": "Psychic Veterans"}),
        ("A", {"verb": "buy", "world": "Mox", "unit": "Miners"})])
    # Nothing is left for A to buy, so its turn ends by itself and B is asked.
    assert state["pending"]["role"] == "B"
    state["pending"]["role"] = "A"
    assert buys_of(state) == set()
    assert state["houses"]["A"]["solats"] == 20 - 2 - 4 - 1
    miners = [u for u, row in state["units"].items() if row["type"] == "Miners"]
    assert state["units"][miners[0]]["home"] == "Mox"
    assert any("buys" in e["text"] and e["rule"] == "NH-REC-4" for e in state["log"])


# ------------------------------------------------------------------ 6 Movement
def test_loading_capacity_nobles_free_defenders_and_self_transport_never_board():
    """NH-MOV-1, NH-MOV-2, NH-MOV-8, NH-ABIL-8, NH-ABIL-10, NH-ABIL-11: three armies or nukes
    fill a jumpship, Nobles still board; Miners (Defenders) and Pirates (Self Transport)
    never board."""
    state, ids = position(controllers={"Mox": "A"}, units=[
        ("A", "Jumpship", "Mox"), ("A", "House Troops", "Mox"), ("A", "House Troops", "Mox"),
        ("A", "Nuclear Arsenal", "Mox"), ("A", "Amazonians", "Mox"), ("A", "Noble", "Mox"),
        ("A", "Miners", "Mox", {"home": "Mox"}), ("A", "Rimspace Pirates", "Mox")])
    ship, ht1, ht2, nuke, amazon, noble, miners, pirates = ids
    run_step(state, "movement", phase=6,
             answers=[("A", {"verb": "load", "ship": ship, "unit": u}) for u in (ht1, ht2, nuke)])
    loads = {a["unit"] for a in legal(state) if a["verb"] == "load"}
    assert loads == {noble}
    assert miners not in loads and pirates not in loads and amazon not in loads
    assert {a["ship"] for a in legal(state) if a["verb"] == "jump"} == {ship, pirates}


def test_a_jump_carries_the_cargo_flags_it_moved_and_it_stays_aboard_until_control():
    """NH-MOV-3, NH-MOV-6, NH-MOV-9, NH-MOV-14, NH-CTRL-1, NH-CTRL-2: the troops arrive
    aboard, flagged moved; at Planet Control they land and take the neutral world; the ship
    cannot move again."""
    state, ids = position(units=[("A", "Jumpship", "Lortran"), ("A", "House Troops", "Lortran"),
                                 ("A", "Noble", "Lortran")])
    ship, troops, noble = ids
    hellish = state["map"]["worlds"]["Hellish"]
    run_step(state, "movement", phase=6, answers=[
        ("A", {"verb": "load", "ship": ship, "unit": troops}),
        ("A", {"verb": "load", "ship": ship, "unit": noble}),
        ("A", {"verb": "jump", "ship": ship, "to": hellish})])
    assert state["pending"] is None, "A's only ship has moved: its movement ends by itself"
    for uid in ids:
        assert state["units"][uid]["hex"] == hellish and state["units"][uid]["moved"]
    assert state["units"][troops]["ship"] == ship
    assert state["arrivals"] == {"3,2": ["A"]}
    run_step(state, "planet_control", phase=10)
    assert state["units"][troops]["ship"] is None
    assert state["worlds"]["Hellish"]["controller"] == "A"


def test_cargo_of_a_ship_that_does_not_jump_stays_on_the_ground():
    """NH-MOV-8: loading is undone when the house ends its movement without jumping."""
    state, ids = position(units=[("A", "Jumpship", "Lortran"), ("A", "House Troops", "Lortran")])
    run_step(state, "movement", phase=6, answers=[
        ("A", {"verb": "load", "ship": ids[0], "unit": ids[1]}), ("A", DONE)])
    assert state["units"][ids[1]]["ship"] is None


def test_jumps_reach_system_hexes_within_range_around_obstacles_and_through_stargates():
    """NH-MOV-3, NH-MOV-4, NH-MOV-5, NH-MOV-6, NH-MOV-7, NH-MAP-9, NH-OPT-1, NH-WORLD-7,
    NH-WORLD-8: every jump destination is a system hex (a jump station and the gates
    included) within range (3, or 4 with the seed's variant); obstacles block; a stargate
    crossing is free."""
    from .positions import game_map
    blocked = game_map(obstacles=[(2, 1), (1, 2)], stargates=[((2, 2), (9, 9))],
                       jump_stations=[(3, 3)])
    state, ids = position(units=[("A", "Jumpship", (3, 3))], game_map_=blocked)
    run_step(state, "movement", phase=6)
    dests = {tuple(a["to"]) for a in legal(state) if a["verb"] == "jump"}
    assert (9, 9) in dests and (10, 10) in dests        # through the gate, then 1 step
    assert (2, 2) in dests                              # a stargate hex is a stop too
    assert (1, 1) not in dests                          # walled in by the two obstacles
    ctx = ctx_of(state)
    assert all(ctx.is_system(d) for d in dests)

    def reach(jump_range):
        state, _ = position(units=[("A", "Jumpship", "Lortran")],
                            options={"jump_range": jump_range})
        run_step(state, "movement", phase=6)
        return {tuple(a["to"]) for a in legal(state) if a["verb"] == "jump"}
    assert reach(3) < reach(4)


def test_houses_move_in_initiative_order():
    """NH-MOV-13, NH-SEQ-5: B (first in initiative) is asked before A."""
    state, _ = position(units=[("A", "Jumpship", "Lortran"), ("B", "Jumpship", "Gurati")])
    state["order"] = ["B", "A"]
    assert run_step(state, "movement", phase=6)["role"] == "B"


# ------------------------------------------------------------------ 9 Noble Actions
def acts(state, actor=None, kind=None):
    return [a for a in legal(state) if a["verb"] == "act"
            and (actor is None or a["actor"] == actor) and (kind is None or a["kind"] == kind)]


def test_only_nobles_that_neither_moved_nor_fought_act():
    """NH-NOB-6, NH-NOB-22: a moved Noble and one that fought are not actors; a new one is."""
    state, ids = position(units=[("A", "Noble", "Lortran", {"moved": True}),
                                 ("A", "Noble", "Lortran", {"fought": True}),
                                 ("A", "Noble", "Lortran")])
    run_step(state, "noble_actions", phase=9)
    assert {a["actor"] for a in acts(state)} == {ids[2]}


def test_govern_is_automatic_on_the_nobles_own_world_once():
    """NH-NOB-18, NH-NOB-19, NH-WORLD-9: Govern needs no roll, raises Lortran's income to 6,
    and cannot be repeated there."""
    state, ids = position(units=[("A", "Noble", "Lortran"), ("A", "Noble", "Lortran")])
    run_step(state, "noble_actions", phase=9, answers=[
        ("A", {"verb": "act", "actor": ids[0], "kind": "govern", "target": "Lortran"})])
    assert state["worlds"]["Lortran"]["govern"]
    assert ctx_of(state).world_income("Lortran") == 6
    assert not acts(state, kind="govern")


def test_diplomacy_on_a_one_takes_a_world_without_other_armies_at_once():
    """NH-NOB-7, NH-NOB-8, NH-NOB-11, NH-NOB-12, NH-CTRL-3: Mox (B's, empty) is a target,
    Frost (with B's army) is not; a 1 takes Mox; a failed roll still uses the Noble."""
    state, ids = position(controllers={"Mox": "B", "Frost": "B"},
                          units=[("A", "Noble", "Lortran"), ("A", "Noble", "Lortran"),
                                 ("B", "House Troops", "Frost")])
    run_step(state, "noble_actions", phase=9)
    targets = {a["target"] for a in acts(state, ids[0], "diplomacy")}
    assert "Mox" in targets and "Frost" not in targets and "Lortran" not in targets
    state["stack"].pop()
    run_step(state, "noble_actions", phase=9, dice=[1, 5], answers=[
        ("A", {"verb": "act", "actor": ids[0], "kind": "diplomacy", "target": "Mox"}),
        ("A", {"verb": "act", "actor": ids[1], "kind": "diplomacy", "target": "Quayat"})])
    assert state["worlds"]["Mox"]["controller"] == "A"
    assert state["worlds"]["Quayat"]["controller"] is None
    assert not acts(state, ids[1]), "a failed attempt still uses the action (NH-NOB-10)"


def test_assassination_is_capped_at_two_a_turn_allies_included():
    """NH-NOB-13, NH-NOB-16, NH-ALLY-11: the Secret Police's attempt and one Noble's use the
    two attempts; no third is offered; a success kills the Noble."""
    state, ids = position(allies={"A": ["Imperial Secret Police"]},
                          units=[("A", "Noble", "Lortran"), ("A", "Noble", "Lortran"),
                                 ("B", "Noble", "Gurati"), ("B", "Noble", "Gurati")])
    run_step(state, "noble_actions", phase=9, dice=[1, 4], answers=[
        ("A", {"verb": "act", "actor": "ally:Imperial Secret Police:assassination",
               "kind": "assassination", "target": ids[2]}),
        ("A", {"verb": "act", "actor": ids[0], "kind": "assassination", "target": ids[3]})])
    assert ids[2] not in state["units"] and ids[3] in state["units"]
    assert not acts(state, kind="assassination")


def test_intrigue_takes_an_ally_with_its_units_and_is_once_a_turn():
    """NH-NOB-14, NH-NOB-15, NH-ALLY-6, NH-ALLY-13: B's Mercenary Guild goes to A with its
    tagged Mercenaries where they stand (a bought one stays with B); B can no longer buy
    Mercenaries at home; no second Intrigue is offered."""
    state, ids = position(allies={"B": ["Mercenary Guild"]}, units=[
        ("A", "Noble", "Lortran"), ("A", "Noble", "Lortran"),
        ("B", "Mercenaries", "Mox", {"ally": "Mercenary Guild"}),
        ("B", "Mercenaries", "Gurati")])
    run_step(state, "noble_actions", phase=9, dice=[1], answers=[
        ("A", {"verb": "act", "actor": ids[0], "kind": "intrigue",
               "target": "Mercenary Guild"})])
    assert state["houses"]["A"]["allies"] == ["Mercenary Guild"]
    assert state["houses"]["B"]["allies"] == []
    assert state["units"][ids[2]]["owner"] == "A" and state["units"][ids[3]]["owner"] == "B"
    assert not acts(state, kind="intrigue")


def test_intrigue_on_an_unassigned_ally_creates_its_units_at_home():
    """NH-NOB-15, NH-ALLY-3: the unassigned Imperial Army's three Shock Troops appear on A's
    homeworld."""
    state, ids = position(units=[("A", "Noble", "Lortran")])
    assert "Imperial Army" in state["unassigned"]
    run_step(state, "noble_actions", phase=9, dice=[1], answers=[
        ("A", {"verb": "act", "actor": ids[0], "kind": "intrigue", "target": "Imperial Army"})])
    shock = [u for u, row in state["units"].items() if row["type"] == "Imperial Shock Troops"]
    assert len(shock) == 3 and all(state["units"][u]["hex"] == [1, 1] for u in shock)
    assert "Imperial Army" not in state["unassigned"]


def test_sabotage_destroys_a_ship_with_its_cargo():
    """NH-NOB-17, NH-MOV-10, NH-MOV-11."""
    state, ids = position(units=[("A", "Noble", "Lortran"), ("B", "Jumpship", "Mox"),
                                 ("B", "House Troops", "Mox"), ("B", "Noble", "Mox")])
    state["units"][ids[2]]["ship"] = ids[1]
    state["units"][ids[3]]["ship"] = ids[1]
    run_step(state, "noble_actions", phase=9, dice=[1], answers=[
        ("A", {"verb": "act", "actor": ids[0], "kind": "sabotage", "target": ids[1]})])
    assert set(state["units"]) == {ids[0]}


def test_strategic_planning_is_sure_and_does_not_stack():
    """NH-NOB-20, NH-NOB-21, NH-ALLY-8: the Bureaucracy's use sets -1 for next turn; no
    second Strategic Planning is offered this turn."""
    state, ids = position(allies={"A": ["Imperial Beaurocracy"]},
                          units=[("A", "Noble", "Lortran")])
    run_step(state, "noble_actions", phase=9, answers=[
        ("A", {"verb": "act", "actor": "ally:Imperial Beaurocracy:strategic_planning",
               "kind": "strategic_planning", "target": "-1"})])
    assert state["houses"]["A"]["planning"] == -1
    assert not acts(state, kind="strategic_planning")


def test_pyreen_gives_its_holder_a_diplomacy_attempt_and_sisteria_any_action_but_govern():
    """NH-WORLD-6, NH-ALLY-7, NH-ALLY-9: Pyreen's attempt is Diplomacy only; Sisteria's use
    may be any kind except Govern."""
    state, _ = position(controllers={"Pyreen": "A"}, allies={"A": ["Sisteria"]},
                        units=[("B", "House Troops", "Gurati")])
    run_step(state, "noble_actions", phase=9)
    assert {a["kind"] for a in acts(state, "pyreen")} == {"diplomacy"}
    kinds = {a["kind"] for a in acts(state, "ally:Sisteria:noble_action")}
    assert "govern" not in kinds and {"diplomacy", "sabotage", "intrigue"} <= kinds


def test_houses_act_in_initiative_order():
    """NH-NOB-9: B first when B has the initiative."""
    state, _ = position(units=[("A", "Noble", "Lortran"), ("B", "Noble", "Gurati")])
    state["order"] = ["B", "A"]
    assert run_step(state, "noble_actions", phase=9)["role"] == "B"


# ------------------------------------------------------------------ 10 Planet Control and the end
def test_control_needs_the_armies_of_exactly_one_house():
    """NH-CTRL-2, NH-CTRL-5, NH-CTRL-6, NH-WORLD-7: two houses' armies on Mox leave its
    control unchanged; a jump station is never controlled and pays nothing; an empty world
    stays with its controller."""
    from .positions import game_map
    state, _ = position(controllers={"Mox": "B", "Frost": "B"},
                        game_map_=game_map(jump_stations=[(6, 6)]),
                        units=[("A", "House Troops", "Mox"), ("B", "House Troops", "Mox"),
                               ("A", "House Troops", (6, 6))])
    run_step(state, "planet_control", phase=10)
    assert state["worlds"]["Mox"]["controller"] == "B"
    assert state["worlds"]["Frost"]["controller"] == "B"
    assert all(w != "6,6" for w in state["worlds"])
    assert GAME.context(state).income("A") == 5


def test_a_house_without_worlds_or_armies_is_eliminated_and_the_last_one_wins():
    """NH-VIC-3, NH-VIC-4: B lost Gurati and has only a Noble: it is out, its ally
    unassigned; A, alone, wins."""
    state, ids = position(controllers={"Gurati": "A"}, allies={"B": ["Sisteria"]},
                          units=[("B", "Noble", "Mox"), ("A", "House Troops", "Lortran")])
    end_of_turn(ctx_of(state))
    assert not state["houses"]["B"]["alive"] and ids[0] not in state["units"]
    assert "Sisteria" in state["unassigned"]
    assert state["outcome"]["result"] == "A-last-house"


def test_holding_every_world_wins():
    """NH-VIC-1, NH-VIC-2."""
    state, _ = position(controllers={w: "A" for w in GAME.data.worlds},
                        units=[("B", "House Troops", "Mox")])
    end_of_turn(ctx_of(state))
    assert state["outcome"]["winners"] == ["A"] and state["outcome"]["how"] == "conquest"


@pytest.mark.parametrize("b_worlds, b_solats, winners", [
    ({"Mox": "B"}, 10, ["B"]),            # income 5 + 4 beats 5
    ({"Quayat": "B"}, 10, ["B"]),         # 6 against 5
    ({}, 11, ["B"]),                      # equal income and worlds: the most Solats
    ({}, 10, ["A", "B"]),                 # still tied: shared
])
def test_the_turn_limit_goes_to_the_highest_income(b_worlds, b_solats, winners):
    """NH-VIC-5: at the end of the last turn: income, then worlds, then Solats, else shared."""
    state, _ = position(controllers=b_worlds, options={"turn_limit": 3}, turn=3,
                        units=[("A", "House Troops", "Lortran"), ("B", "House Troops", "Gurati")])
    state["houses"]["B"]["solats"] = b_solats
    end_of_turn(ctx_of(state))
    assert state["outcome"]["winners"] == winners and state["outcome"]["how"] == "turn-limit"


def test_unattended_games_stop_at_thirty_turns():
    """NH-VIC-6, NH-SIM-3: with no human seat and no limit given, turn 30 is the last; with a
    human seat there is no limit."""
    state, _ = position(options={"seat1": "ai"}, turn=30,
                        units=[("A", "House Troops", "Lortran"), ("B", "House Troops", "Gurati")])
    end_of_turn(ctx_of(state))
    assert state["outcome"]["how"] == "turn-limit"
    state, _ = position(turn=30, units=[("A", "House Troops", "Lortran"),
                                        ("B", "House Troops", "Gurati")])
    end_of_turn(ctx_of(state))
    assert state["outcome"] is None


def test_the_end_of_a_turn_clears_flags_and_renews_allies():
    """NH-SEQ-6: moved and fought flags, attempts and ally uses are reset."""
    state, ids = position(allies={"A": ["Church of Mankind"]},
                          units=[("A", "Noble", "Lortran", {"moved": True, "fought": True}),
                                 ("B", "House Troops", "Gurati")])
    house = state["houses"]["A"]
    house["attempts"]["assassination"] = 2
    house["ally_uses"]["Church of Mankind"]["diplomacy"] = 0
    end_of_turn(ctx_of(state))
    assert not state["units"][ids[0]]["moved"] and not state["units"][ids[0]]["fought"]
    assert house["attempts"]["assassination"] == 0
    assert house["ally_uses"] == {"Church of Mankind": {"diplomacy": 2}}


def test_a_turn_runs_its_ten_steps_in_order():
    """NH-SEQ-1, NH-SEQ-2: the log of a turn goes through steps 1 to 10 in order, the Noble
    Actions (step 9) after the Battle and before Planet Control."""
    from struggle_desktop.engine.rng import Rng
    state = GAME.setup("standard", 4, {"houses": 2, "seat1": "ai", "turn_limit": 2})
    GAME.advance(state)
    rng = Rng.from_seed(1, stream=5)
    while state["outcome"] is None:
        role = state["pending"]["role"]
        choices = GAME.legal_actions(state, role)
        GAME.apply(state, role, choices[rng.below(len(choices))], copy=False)
        GAME.advance(state)
    phases = [e["phase"] for e in state["log"] if e["turn"] == 1]
    assert phases == sorted(phases) and phases[0] == 1 and phases[-1] == 10
    assert {e["phase"] for e in state["log"] if e["turn"] == 1 and e["rule"].startswith("NH-NOB")} \
        <= {9}


def test_everything_is_public_but_the_pending_declarations():
    """NH-SIM-1, NH-MAP-19: a house's view holds the map, every house's units, treasuries and
    allies, and the seed; only the procedure stack (where simultaneous declarations wait) and
    the generator are left out."""
    state, ids = position(allies={"B": ["Sisteria"]},
                          units=[("B", "Jumpship", "Gurati"), ("B", "House Troops", "Gurati")])
    state["units"][ids[1]]["ship"] = ids[0]
    view = GAME.view(state, "A")
    assert view["units"] == state["units"] and view["houses"] == state["houses"]
    assert view["map"] == state["map"] and view["seed"] == state["seed"]
    assert "stack" not in view and "rng" not in view
