"""The Noble Houses program house (games/nobles/ai.py, section 20 of rules-nobles.md): focused
cases on hand-made positions, each answered by the program house through the real procedures,
and a few whole games played by it alone.

Positions come from ``positions.py`` (Lortran at (1,1) for A, Gurati at (10,10) for B, the
other worlds on its fixed layout); the program house answers every prompt of the step run."""

from __future__ import annotations

import time

import pytest

from struggle_desktop.engine.flow import answer, run
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME, ai
from struggle_desktop.games.nobles.mapgen import build_map
from struggle_desktop.simulate import game_seed

from .positions import LAYOUT, position

DONE = {"verb": "done"}


class Faces:
    """Scripted d6 faces for the game, then 6s (a miss, a failed action) for ever; the game's
    own draws (``below``) are refused."""

    def __init__(self, faces=()):
        self.faces = list(faces)

    def d6(self):
        return self.faces.pop(0) if self.faces else 6

    def below(self, n):
        raise AssertionError(f"an unscripted draw among {n}")


def decide(state, role=None, rng=None):
    """The program house's (action, rule) for the pending prompt, from the role's view."""
    role = role or state["pending"]["role"]
    view = GAME.view(state, role, with_log=False)
    return ai.decide(GAME, view, role, rng or Rng.from_seed(1))


def run_ai(state, proc, dice=(), rng=None, stop=None, script=None, phase=None, answers=None,
           **frame):
    """Push ``proc`` and run it, the program house answering every prompt (or ``script``'s
    action for that prompt kind) until the step ends, ``stop(pending)`` or ``answers``
    answers. Returns the decisions: (kind, role, action, rule)."""
    rng = rng or Rng.from_seed(1)
    state["stack"].append({"proc": proc, **frame})
    if phase is not None:
        state["phase"] = phase
    ctx = GAME.context(state, rng=Faces(dice))
    run(ctx)
    made = []
    while state["pending"] is not None and not (stop and stop(state["pending"])):
        if answers is not None and len(made) >= answers:
            break
        pending = state["pending"]
        if script and pending["kind"] in script:
            action, rule = script[pending["kind"]], "scripted"
        else:
            action, rule = decide(state, rng=rng)
        assert GAME.check_action(state, pending["role"], action) is None, (action, rule)
        made.append((pending["kind"], pending["role"], action, rule))
        answer(state, action)
        run(ctx)
    return made


def hex_of(name):
    return list(LAYOUT[name])


def units_at(state, owner, h):
    return sorted(u for u, row in state["units"].items()
                  if row["owner"] == owner and row["hex"] == list(h))


def everything_but(*worlds):
    """Every non-home world of the layout held by A, except ``worlds``."""
    return {w: "A" for w in LAYOUT if w not in worlds}


# ============================================================================ NH-AI-15
def test_scripted_case_one_reachable_neutral_world_and_no_threat_gets_one_army():
    """NH-AI-15 (with NH-AI-6's garrison of at least one army and NH-AI-7's need of one army
    for a world with no enemy and T = 0): exactly one army flies to Hellish."""
    small = build_map({"Lortran": (1, 1), "Gurati": (10, 10), "Hellish": (3, 2)})
    state, ids = position(game_map_=small, units=[
        ("A", "Jumpship", "Lortran"), ("A", "House Troops", "Lortran"),
        ("A", "House Troops", "Lortran"), ("A", "Amazonians", "Lortran"),
        ("A", "Psychic Veterans", "Lortran")])
    made = run_ai(state, "movement", phase=6)
    hellish = [3, 2]
    arrived = [u for u in units_at(state, "A", hellish) if u != ids[0]]
    assert len(arrived) == 1 and state["units"][ids[0]]["hex"] == hellish
    assert [m[2]["verb"] for m in made] == ["load", "jump"]     # its only ship has moved
    assert all(not m[3].startswith("fallback") for m in made)


GAMES = [(2, 11), (3, 12), (4, 13)]


def play_game(houses, seed, turn_limit=5, difficulty="normal"):
    """A whole game (up to ``turn_limit`` turns) played by the program house at every seat,
    through the session as the simulate command does; every action is checked legal by the
    session. Returns the state, the prompt kinds and rules used, and the slowest decision."""
    options = GAME.simulation_options({"houses": houses, "turn_limit": turn_limit,
                                       "ai_difficulty": difficulty})
    session = Session.new(GAME, "standard", game_seed(seed, 0), options, record_digests=False)
    rng = Rng.from_seed(seed, stream=99)
    seen: dict[str, set[str]] = {}
    slowest = 0.0
    while session.state["outcome"] is None:
        role = session.state["pending"]["role"]
        kind = session.state["pending"]["kind"]
        before = session.state["rng"]
        started = time.perf_counter()
        view = GAME.view(session.state, role, with_log=False)
        action, rule = ai.decide(GAME, view, role, rng)
        slowest = max(slowest, time.perf_counter() - started)
        assert session.state["rng"] == before     # NH-AI-2: the game's dice are untouched
        seen.setdefault(kind, set()).add(rule)
        session.perform(role, action, copy=False)
    return session.state, seen, slowest


@pytest.mark.parametrize("houses,seed", GAMES)
def test_program_only_games_end_legally_and_repeat(houses, seed):
    """NH-AI-15, NH-AI-1, NH-VIC-6: games of 2, 3 and 4 program houses end within their turn
    limit, every answer is legal and chosen by a rule of section 20 (none by the fallback),
    each decision takes well under a second, and a second run gives the same digest."""
    state, seen, slowest = play_game(houses, seed)
    assert state["outcome"] is not None and state["turn"] <= 5
    fallbacks = {k: r for k, rules in seen.items() for r in rules if r.startswith("fallback")}
    assert not fallbacks
    assert {"recruit", "move", "noble_action"} <= set(seen)
    assert slowest < 1.0
    again, _, _ = play_game(houses, seed)
    assert GAME.digest(again) == GAME.digest(state)


# ============================================================================ NH-AI-2
def test_the_program_house_never_changes_the_game_it_reads():
    """NH-AI-2, NH-AI-1: a decision leaves the state (and its generator) as it was; the view
    it reads has no generator and no stack."""
    session = Session.new(GAME, "standard", 5, GAME.simulation_options({"houses": 3}),
                          record_digests=False)
    rng = Rng.from_seed(2)
    for _ in range(150):
        role = session.state["pending"]["role"]
        digest = GAME.digest(session.state)
        action = GAME.choose_action(session.state, role, "bot", rng)
        assert GAME.digest(session.state) == digest
        view = GAME.view(session.state, role, with_log=False)
        assert "rng" not in view and "stack" not in view
        session.perform(role, action, copy=False)


def ranking_position():
    """A's jumpship on Parallax (not A's) and nothing else: its candidates are the worlds one
    jump away (NH-AI-7)."""
    state, _ = position(units=[("A", "Jumpship", "Parallax"), ("A", "Amazonians", "Parallax")])
    state["stack"].append({"proc": "movement"})
    state["phase"] = 6
    run(GAME.context(state))
    return state


def ranked(state, seed):
    view = GAME.view(state, "A", with_log=False)
    player = ai.Player(GAME, view, "A", Rng.from_seed(seed))
    return [t["world"] for t in player.targets(player.free_ships(), player.rng)]


def test_targets_are_ranked_by_value_over_distance():
    """NH-AI-7: from Parallax, V / (1 + hexes): Yoravar (4 + 2 shipyard) / 4 = 1.5, Punah
    3 / 3 = 1, Hellish 2 / 4, Quayat 1 / 3, then Griddox, Pyreen and Scorch at 1 / 4."""
    order = ranked(ranking_position(), 1)
    assert order[:4] == ["Yoravar", "Punah", "Hellish", "Quayat"]
    assert set(order[4:]) == {"Griddox", "Pyreen", "Scorch"}


def test_ties_are_broken_with_the_given_stream_and_the_same_stream_repeats():
    """NH-AI-2, NH-AI-7: the three worlds tied at 1 / 4 come in an order drawn from the AI's
    own generator: the same generator state gives the same order, others other orders."""
    state = ranking_position()
    tails = {tuple(ranked(state, seed)[4:]) for seed in range(12)}
    assert len(tails) > 1
    assert ranked(state, 3) == ranked(state, 3)


# ============================================================================ NH-AI-4
def test_a_shortfall_disbands_the_weakest_army_never_the_last_one_at_home():
    """NH-AI-4: A owes 1 Solat and has none. The Clone Soldiers on Lortran (EV 1) are its last
    army there; of the others, Imperial Conscripts and Rimspace Pirates tie at EV 1 and the
    cheaper Conscripts go."""
    state, ids = position(solats=0, controllers={"Seedeen": "A", "Mox": "A"}, units=[
        ("A", "Clone Soldiers", "Lortran"), ("A", "Rimspace Pirates", "Mox"),
        ("A", "Imperial Conscripts", "Seedeen"), ("A", "Amazonians", "Mox")]
        + [("A", "Jumpship", "Mox")] * 6)
    made = run_ai(state, "upkeep", phase=3)
    assert [(m[0], m[2]) for m in made if m[1] == "A"] == [
        ("disband", {"verb": "disband", "unit": ids[2]})]
    assert all(m[3] == "NH-AI-4" for m in made)


def test_retainers_are_paid_when_affordable():
    """NH-AI-4: two Mercenaries, 2 Solats: pay; with 1 Solat, one deserts, the other is paid."""
    state, _ = position(solats=2, units=[("A", "Mercenaries", "Lortran")] * 2)
    made = run_ai(state, "upkeep", phase=3)
    assert [m[2] for m in made if m[1] == "A"] == [{"verb": "pay"}]
    state, _ = position(solats=1, units=[("A", "Mercenaries", "Lortran")] * 2)
    made = run_ai(state, "upkeep", phase=3)
    assert [m[2]["verb"] for m in made if m[1] == "A"] == ["dismiss", "pay"]


def test_strategic_planning_is_always_plus_one():
    """NH-AI-4, NH-AI-12: the Imperial Bureaucracy's typed use goes first, to Strategic
    Planning +1."""
    state, _ = position(allies={"A": ["Imperial Beaurocracy"]})
    made = run_ai(state, "noble_actions", phase=9)
    assert made[0][2] == {"verb": "act", "actor": "ally:Imperial Beaurocracy:strategic_planning",
                          "kind": "strategic_planning", "target": "+1"}
    assert state["houses"]["A"]["planning"] == 1


# ============================================================================ NH-AI-5
def buys(made):
    return [(m[2]["world"], m[2]["unit"]) for m in made if m[1] == "A" and m[2]["verb"] == "buy"]


def test_buying_order_transport_homeworld_nukes_then_other_worlds():
    """NH-AI-5: one jumpship at Yoravar's price, the homeworld's two slots with its best
    EV(attacking) per cost (Psychic Veterans and House Troops tie at 0.5; the higher AD),
    one nuke, then Mox's Miners (EV 2 per Solat); Parallax's slot went to the nuke."""
    state, _ = position(solats=30, controllers={"Yoravar": "A", "Mox": "A", "Parallax": "A"})
    made = run_ai(state, "recruit_troops", phase=5)
    assert buys(made) == [("Yoravar", "Jumpship"), ("Lortran", "Psychic Veterans"),
                          ("Lortran", "Psychic Veterans"), ("Parallax", "Nuclear Arsenal"),
                          ("Mox", "Miners")]
    assert state["houses"]["A"]["solats"] == 30 - 4 - 4 - 4 - 5 - 1


def test_defence_comes_before_the_homeworld():
    """NH-AI-5, NH-AI-3: B's jumpship at Punah with two Amazonians threatens Scorch (T = 6 > D
    = 0), so A's 3 Solats buy Lava Projectors there (EV 3 per 3), not House Troops at home."""
    state, _ = position(solats=3, controllers={"Scorch": "A"}, units=[
        ("B", "Jumpship", "Punah"), ("B", "Amazonians", "Punah"), ("B", "Amazonians", "Punah")])
    made = run_ai(state, "recruit_troops", phase=5)
    assert buys(made) == [("Scorch", "Lava Projectors")]


@pytest.mark.parametrize("difficulty,bought,left", [
    ("normal", [("Lortran", "House Troops")], 3),     # reserve floor((10 + 2) / 10) + 2 = 3
    ("hard", [("Lortran", "Psychic Veterans")], 1),   # no reserve
    ("easy", [], 5)])                                 # the reserve + 3 Solats
def test_the_reserve_is_kept(difficulty, bought, left):
    """NH-AI-5, NH-AI-14: 10 units (2 Mercenaries among them), 5 Solats."""
    state, _ = position(solats=5, options={"ai_difficulty": difficulty}, units=[
        ("A", "Mercenaries", "Lortran")] * 2 + [("A", "House Troops", "Lortran")] * 6
        + [("A", "Jumpship", "Lortran")] * 2)
    made = run_ai(state, "recruit_troops", phase=5)
    assert buys(made) == bought
    assert state["houses"]["A"]["solats"] == left


def test_a_homeworld_army_is_chosen_by_ev_per_cost():
    """NH-AI-5's measure at set-up (NH-SETUP-5): on Gurati, Berserkers (4 / 5 attacking) over
    Cyborg Commandos (2.5 / 4); four houses, so Gurati is played."""
    state = GAME.advance(GAME.setup("standard", 1, GAME.simulation_options({"houses": 4})))
    asked = set()
    while state["pending"]["kind"] == "homeworld_army":
        action, rule = decide(state)
        world = state["pending"]["world"]
        asked.add(world)
        if world == "Gurati":
            assert action == {"verb": "take", "unit": "Anthrosynthetic Berserkers"}
        assert rule == "NH-AI-5"
        state = GAME.advance(GAME.apply(state, state["pending"]["role"], action))
    assert "Gurati" in asked


# ============================================================================ NH-AI-6
def test_the_homeworld_keeps_enough_defence_and_the_rest_strikes():
    """NH-AI-6, NH-AI-3, NH-AI-7, NH-AI-8: B's jumpship at Hellish with three Amazonians
    threatens Lortran (T = 9). House Troops defend at 2: all five stay (D = 10 >= 9); the two
    Amazonians fly to Bolavor (V 2 beats Frost's 1 at the same distance; T > 0 there, so
    the need is two armies)."""
    state, ids = position(units=[("A", "Jumpship", "Lortran")]
                          + [("A", "House Troops", "Lortran")] * 5
                          + [("A", "Amazonians", "Lortran")] * 2
                          + [("B", "Jumpship", "Hellish")] + [("B", "Amazonians", "Hellish")] * 3)
    run_ai(state, "movement", phase=6)
    troops, amazons = ids[1:6], ids[6:8]
    assert all(state["units"][u]["hex"] == [1, 1] and not state["units"][u]["moved"]
               for u in troops)
    assert all(state["units"][u]["hex"] == hex_of("Bolavor") for u in amazons)


def garrison_of(state, role="A", difficulty=None):
    view = GAME.view(state, role, with_log=False)
    return ai.Player(GAME, view, role, Rng.from_seed(1)).garrisons()


def test_garrisons_at_least_one_at_home_and_all_on_threatened_worlds():
    """NH-AI-6: with no threat the homeworld keeps one army, the best defender for its
    attack (House Troops over Amazonians); Frost's two House Troops stay only while B's
    ship at Hellish threatens Frost."""
    units = [("A", "Amazonians", "Lortran"), ("A", "House Troops", "Lortran"),
             ("A", "House Troops", "Frost"), ("A", "House Troops", "Frost"),
             ("A", "Jumpship", "Frost")]
    state, ids = position(controllers={"Frost": "A"}, units=units)
    assert garrison_of(state) == {ids[1]}
    state, ids = position(controllers={"Frost": "A"},
                          units=units + [("B", "Jumpship", "Hellish"), ("B", "Clone Soldiers",
                                                                        "Hellish")])
    assert garrison_of(state) == {ids[1], ids[2], ids[3]}


# =================================================================== NH-AI-8, NH-AI-9
def strike_position(b_troops, a_units, nobles=0, difficulty="normal"):
    """B holds Punah with ``b_troops`` House Troops (S = 2 each when defending); A's units
    wait on two jump stations, (4, 6) one hex from Punah and (4, 4) three hexes away; every
    other world of the layout is A's, so Punah is the only target."""
    layout = build_map({"Lortran": (1, 1), "Gurati": (10, 10), "Kadesh": (10, 1),
                        "Nitrix": (1, 10), **LAYOUT}, jump_stations=[(4, 6), (4, 4)])
    state, ids = position(game_map_=layout, controllers={**everything_but("Punah"),
                                                          "Punah": "B"},
                          options={"ai_difficulty": difficulty},
                          units=[("B", "House Troops", "Punah")] * b_troops + a_units
                          + [("A", "Noble", (4, 6))] * nobles)
    return state, ids


def test_strike_groups_load_nearest_sources_first_best_armies_first():
    """NH-AI-8, NH-AI-7: two House Troops hold Punah (S 4, need 1.5 x 4 = 6). The near
    station's Clone Soldiers (1) go first, then the far station's Amazonians, best first,
    until 7 >= 6; the far House Troops stay."""
    state, ids = strike_position(2, [
        ("A", "Jumpship", (4, 6)), ("A", "Clone Soldiers", (4, 6)),
        ("A", "Jumpship", (4, 4)), ("A", "House Troops", (4, 4)),
        ("A", "Amazonians", (4, 4)), ("A", "Amazonians", (4, 4))])
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    punah = hex_of("Punah")
    near_ship, clone, far_ship, troops, am1, am2 = ids[2:]
    assert units_at(state, "A", punah) == sorted([near_ship, clone, far_ship, am1, am2])
    assert state["units"][troops]["hex"] == [4, 4]
    assert all(m[3] == "NH-AI-8" for m in made)


def test_a_strike_that_cannot_meet_its_need_is_released():
    """NH-AI-8: four House Troops (need 12) against 8 of strength: nothing loads or flies."""
    state, _ = strike_position(4, [
        ("A", "Jumpship", (4, 6)), ("A", "Clone Soldiers", (4, 6)),
        ("A", "Jumpship", (4, 4)), ("A", "House Troops", (4, 4)),
        ("A", "Amazonians", (4, 4)), ("A", "Amazonians", (4, 4))])
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    assert [m[2] for m in made] == [DONE]


def test_a_strike_takes_a_noble_and_a_nuke_only_when_nobles_are_left():
    """NH-AI-9: need 12 against four House Troops. Two Amazonians (6), a Noble (+2) and the
    nuke in the free slot (+5) make 13: with three unmoved Nobles one goes along; with two,
    none may, 11 is short and the strike is released."""
    a_units = [("A", "Jumpship", (4, 6)), ("A", "Amazonians", (4, 6)),
               ("A", "Amazonians", (4, 6)), ("A", "Nuclear Arsenal", (4, 6))]
    state, ids = strike_position(4, a_units, nobles=3)
    run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    ship, am1, am2, nuke, n1, n2, n3 = ids[4:]
    assert all(state["units"][u]["ship"] == ship for u in (am1, am2, nuke, n1))
    assert state["units"][ship]["hex"] == hex_of("Punah")
    assert not state["units"][n2]["moved"] and not state["units"][n3]["moved"]
    state, ids = strike_position(4, a_units, nobles=2)
    made = run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    assert [m[2] for m in made] == [DONE]


@pytest.mark.parametrize("difficulty,amazons,noble", [("normal", 5, False), ("hard", 4, True)])
def test_hard_may_take_the_last_noble_on_a_big_strike(difficulty, amazons, noble):
    """NH-AI-14, NH-AI-9, NH-AI-8: six House Troops (S 12). Normal needs 18: five Amazonians
    and the nuke, the only Noble stays. Hard's campaign sends the strike that wins the
    expected battle (test_ai_war.py): four Amazonians, the nuke and, as the strike has four
    armies, the last Noble."""
    a_units = [("A", "Jumpship", (4, 6)), ("A", "Jumpship", (4, 6)),
               ("A", "Nuclear Arsenal", (4, 6))] + [("A", "Amazonians", (4, 6))] * 5
    state, _ = strike_position(6, a_units, nobles=1, difficulty=difficulty)
    run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
    punah = hex_of("Punah")
    arrived = units_at(state, "A", punah)
    kinds = [state["units"][u]["type"] for u in arrived]
    assert kinds.count("Amazonians") == amazons
    assert kinds.count("Nuclear Arsenal") == 1
    assert (kinds.count("Noble") == 1) is noble


# ============================================================================ NH-AI-10
def exchange_position(cargo, difficulty="normal"):
    """A holds Punah with two House Troops and two nukes; B's jumpship has just landed with
    ``cargo`` aboard."""
    state, ids = position(controllers={"Punah": "A"}, options={"ai_difficulty": difficulty},
                          units=[("A", "House Troops", "Punah"), ("A", "House Troops", "Punah"),
                                 ("A", "Nuclear Arsenal", "Punah"),
                                 ("A", "Nuclear Arsenal", "Punah"),
                                 ("B", "Jumpship", "Punah", {"moved": True})])
    ship = ids[4]
    for unit_type in cargo:
        uid = GAME.context(state).new_unit("B", unit_type, hex_of("Punah"))
        state["units"][uid].update(ship=ship, moved=True)
    return state, ship


@pytest.mark.parametrize("cargo,difficulty,first", [
    (["Amazonians", "Noble"], "normal", "ship:B-JS1"),
    (["Amazonians"], "normal", "armies:B"),
    (["Amazonians", "Amazonians"], "easy", "armies:B")])
def test_nukes_all_fly_the_first_at_a_full_ship(cargo, difficulty, first):
    """NH-AI-10, NH-AI-14: both of A's nukes are launched; the first at B's ship when it
    carries two or more (armies and Nobles), never on easy; the second at B's armies."""
    state, _ = exchange_position(cargo, difficulty)
    made = run_ai(state, "nuclear_exchange", phase=7)
    launches = [m[2] for m in made if m[0] == "launch"]
    assert launches == [{"verb": "launch", "nuke": "A-NK1", "target": first},
                        {"verb": "launch", "nuke": "A-NK2", "target": "armies:B"}]
    assert all(m[3] == "NH-AI-10" for m in made if m[0] == "launch")


# ============================================================================ NH-AI-11
def battle_position(a_types, b_types, nobles=1):
    """B holds Punah with ``b_types``; A's ``a_types`` (and Nobles) have just landed there."""
    state, ids = position(controllers={"Punah": "B"},
                          units=[("B", t, "Punah") for t in b_types]
                          + [("A", t, "Punah", {"moved": True}) for t in a_types]
                          + [("A", "Noble", "Punah", {"moved": True})] * nobles)
    return state, ids


def test_a_noble_commands_the_strongest_army_without_first_strike():
    """NH-AI-11: Berserkers attack with 4 AD, Cyborg Commandos have First Strike when
    attacking, Amazonians have 3: the Noble takes the Berserkers."""
    state, ids = battle_position(["Cyborg Commandos", "Amazonians", "Anthrosynthetic Berserkers"],
                                 ["House Troops"])
    made = run_ai(state, "battles", phase=8, answers=1)
    assert made[0][2] == {"verb": "command", "noble": ids[4], "army": ids[3]}
    assert made[0][3] == "NH-AI-11"


def test_casualties_go_lowest_ev_first_and_the_commanded_army_last():
    """NH-AI-11: the Noble commands the Clone Soldiers (scripted); one hit on A: of the
    Amazonians (EV 3) and Rimspace Pirates (EV 1), the Pirates go, though the commanded Clone
    Soldiers are as weak and cheaper."""
    state, ids = battle_position(["Amazonians", "Clone Soldiers", "Rimspace Pirates"],
                                 ["House Troops", "House Troops"])
    _, clone, pirates, noble = ids[2:]
    # Psychic roll of the Noble (negligible), the commanded Clone's first-strike volley, then
    # the normal volley: Amazonians, Pirates, then B's House Troops (2 dice each): one hit.
    dice = [1, 6, 6, 6, 6, 6, 6, 1, 6, 6, 6]
    made = run_ai(state, "battles", dice=dice, phase=8,
                  script={"command": {"verb": "command", "noble": noble, "army": clone}},
                  stop=lambda p: p["kind"] == "casualty")
    assert state["pending"]["kind"] == "casualty" and state["pending"]["role"] == "A"
    action, rule = decide(state)
    assert action == {"verb": "lose", "unit": pirates} and rule == "NH-AI-11"
    assert made


@pytest.mark.parametrize("mine,theirs,sacrifice", [
    ("Kadesh Fanatics", ["House Troops"], True),           # N 1 >= 1 enemy army
    ("Kadesh Fanatics", ["House Troops"] * 2, True),       # their cheapest costs 2 > 1
    ("Kadesh Fanatics", ["Clone Soldiers"] * 2, False),    # 1 < 2 and 1 is not > 1
    ("Nitrix Suicide Squads", ["Clone Soldiers"] * 2, True)])  # N 2 >= 2
def test_sacrifices(mine, theirs, sacrifice):
    """NH-AI-11: sacrifice when N covers the enemy armies left, or when their cheapest army
    costs more than the unit."""
    state, ids = battle_position([mine, "Amazonians"], theirs, nobles=0)
    run_ai(state, "battles", phase=8, stop=lambda p: p["kind"] == "sacrifice")
    assert state["pending"]["kind"] == "sacrifice" and state["pending"]["role"] == "A"
    action, rule = decide(state)
    expected = {"verb": "sacrifice", "unit": ids[len(theirs)]} if sacrifice else DONE
    assert action == expected and rule == "NH-AI-11"


# ================================================================= NH-AI-12, NH-AI-13
def test_noble_actions_govern_then_diplomacy_on_the_richest_world():
    """NH-AI-12: the first Noble governs Lortran; the second tries Diplomacy on the richest
    eligible world: Gurati (5) has B's army, so Mox and Yoravar (4); Yoravar is B's, so the
    neutral Mox, though it is farther from Lortran."""
    state, ids = position(controllers={"Yoravar": "B", "Kadesh": "A", "Nitrix": "A"}, units=[
        ("A", "Noble", "Lortran"), ("A", "Noble", "Lortran"), ("B", "House Troops", "Gurati")])
    made = run_ai(state, "noble_actions", phase=9, stop=lambda p: p["role"] != "A")
    acts = [(m[2]["actor"], m[2]["kind"], m[2]["target"]) for m in made if m[2]["verb"] == "act"]
    assert acts[:2] == [(ids[0], "govern", "Lortran"), (ids[1], "diplomacy", "Mox")]


def intrigue_position(**extra):
    """Three houses; A holds every non-home world but Mox (C's, with a C army); B has the
    Imperial Army (with its three Shock Troops) and the Mercantile Consortium, C the other
    allies. No Diplomacy is possible."""
    allies = {"B": ["Imperial Army", "Mercantile Consortium"]}
    allies["C"] = [a for a in GAME.data.allies if a not in allies["B"]]
    units = [("A", "Noble", "Lortran", {"moved": True}), ("A", "Noble", "Frost"),
             ("B", "House Troops", "Gurati"), ("C", "House Troops", "Kadesh"),
             ("C", "House Troops", "Mox"), ("C", "Noble", "Kadesh", {"moved": True}),
             ("C", "Noble", "Kadesh"), ("B", "Noble", "Gurati")]
    units += [("B", "Imperial Shock Troops", "Gurati", {"ally": "Imperial Army"})] * 3
    units += extra.get("units", [])
    state, ids = position(houses=3, controllers={**everything_but("Mox"), "Mox": "C",
                                                  "Nitrix": "A"},
                          allies=allies, units=units,
                          options={"ai_difficulty": extra.get("difficulty", "normal")})
    state["worlds"]["Frost"]["govern"] = True
    return state, ids


def first_act(state):
    action, rule = decide(state)
    assert rule == "NH-AI-12"
    return (action["kind"], action["target"]) if action["verb"] == "act" else action


def test_intrigue_then_assassination_then_sabotage_then_planning():
    """NH-AI-12, NH-AI-13: with no Diplomacy target, Intrigue on the ally of highest worth
    (the Imperial Army: 3 Shock Troops x 6 = 18); once tried, Assassination of an unmoved
    Noble of the leading house (C: two worlds against B's one); after two attempts, Sabotage
    of the jumpship with the most cargo near A's worlds; then Strategic Planning +1."""
    state, ids = intrigue_position(units=[("B", "Jumpship", "Punah"), ("C", "Jumpship", "Aquara")])
    run_ai(state, "noble_actions", phase=9, stop=lambda p: True)
    assert first_act(state) == ("intrigue", "Imperial Army")
    state["houses"]["A"]["attempts"]["intrigue"] = 1
    assert first_act(state) == ("assassination", ids[6])
    state["houses"]["A"]["attempts"]["assassination"] = 2
    b_ship = ids[-2]
    for _ in range(2):
        uid = GAME.context(state).new_unit("B", "Amazonians", hex_of("Punah"))
        state["units"][uid]["ship"] = b_ship
    assert first_act(state) == ("sabotage", b_ship)
    del state["units"][b_ship]
    for uid in [u for u, row in state["units"].items() if row["ship"] == b_ship]:
        del state["units"][uid]
    # No ship with cargo: the costliest enemy army near an own world (a Shock Troops, 6).
    assert first_act(state)[0] == "sabotage"
    assert state["units"][first_act(state)[1]]["type"] == "Imperial Shock Troops"
    state["houses"]["A"]["attempts"]["assassination"] = 0
    state["options"]["ai_difficulty"] = "easy"          # NH-AI-14: no Sabotage, no Assassination
    assert first_act(state) == ("strategic_planning", "+1")
    state["houses"]["A"]["planning"] = 1
    assert first_act(state) == DONE


def test_intrigue_needs_a_worth_of_six():
    """NH-AI-12: without its Shock Troops the Imperial Army is worth 0 and the Consortium's
    income 2 x 3 = 6 is just enough; with a threshold of 7 (an edited table) none is."""
    state, _ = intrigue_position()
    for uid in [u for u, row in state["units"].items() if row["ally"] == "Imperial Army"]:
        del state["units"][uid]
    run_ai(state, "noble_actions", phase=9, stop=lambda p: True)
    assert first_act(state) == ("intrigue", "Mercantile Consortium")
    view = GAME.view(state, "A", with_log=False)
    player = ai.Player(GAME, view, "A", Rng.from_seed(1))
    player.p = {**player.p, "noble_actions": {**player.p["noble_actions"],
                                              "intrigue_min_worth": 7}}
    assert player.pick_intrigue(["Mercantile Consortium", "Imperial Army"]) is None


def test_the_leading_house():
    """NH-AI-13: the most worlds; then the higher income; then the lower seat."""
    def leader(controllers):
        state, _ = position(houses=4, controllers=controllers)
        view = GAME.view(state, "A", with_log=False)
        return ai.Player(GAME, view, "A", Rng.from_seed(1)).leading_house()
    assert leader({"Marx": "D"}) == "D"
    assert leader({"Marx": "D", "Mox": "C"}) == "C"           # Mox pays 4, Marx 1
    assert leader({"Marx": "D", "Quayat": "C"}) == "C"        # equal: C sits before D
    assert leader({"Marx": "D", "Quayat": "C", "Frost": "A", "Aquara": "A"}) == "C"


# ============================================================================ NH-AI-14
def test_difficulty_changes_the_attack_ratio():
    """NH-AI-14, NH-AI-7: three House Troops hold Punah (S 6). Hard (x 1.2) attacks with the
    near station's three Amazonians (9 >= 7.2); normal (x 1.5, 9) too; easy (x 2, 12) does
    not."""
    for difficulty, flies in (("hard", True), ("normal", True), ("easy", False)):
        state, ids = strike_position(3, [("A", "Jumpship", (4, 6))]
                                     + [("A", "Amazonians", (4, 6))] * 3,
                                     difficulty=difficulty)
        run_ai(state, "movement", phase=6, stop=lambda p: p["role"] != "A")
        assert (state["units"][ids[3]]["hex"] == hex_of("Punah")) is flies, difficulty


# ============================================================================ other prompts
def test_every_prompt_kind_of_the_rules_has_a_handler():
    """NH-AI-1: each prompt kind the Noble Houses rules register is answered by a rule of its
    own (the whole-game tests above check that none fell back in play); an unknown kind gets
    the first legal action, marked as the fallback."""
    from struggle_desktop.games.nobles.registry import RULES
    assert all(hasattr(ai.Player, f"on_{kind}") for kind in RULES.legal_actions)
    state, _ = position()
    view = GAME.view(state, "A", with_log=False)
    view["pending"] = {"kind": "mystery", "role": "A", "text": "", "rule": ""}
    view["legal_actions"] = [{"verb": "x"}, {"verb": "y"}]
    assert ai.decide(GAME, view, "A", Rng.from_seed(1)) == ({"verb": "x"}, "fallback")


def test_a_human_seat_played_by_the_program_picks_a_homeworld():
    """NH-AI-5's measure for the homeworld prompt of a seat the program plays (NH-SETUP-2):
    Kadesh, whose Fanatics give the best EV(attacking) per cost (1 per Solat; Gurati's
    Berserkers 0.8, Nitrix's Suicide Squads 0.67, Lortran's 0.5)."""
    state = GAME.advance(GAME.setup("standard", 2, {"houses": 2, "seat1": "human"}))
    assert state["pending"]["kind"] == "homeworld"
    assert decide(state) == ({"verb": "homeworld", "world": "Kadesh"}, "NH-AI-5")


@pytest.mark.parametrize("nobles,benefit", [(3, "recruit_noble"), (4, "noble_action")])
def test_the_aristocracy_gives_a_noble_roll_until_the_house_has_four(nobles, benefit):
    """NH-ALLY-10 as the program house decides it (``aristocracy_noble_target``)."""
    state, _ = position(allies={"A": ["Imperial Aristocracy"]},
                        units=[("A", "Noble", "Lortran")] * nobles)
    made = run_ai(state, "recruit_nobles", phase=4, answers=1)
    assert made[0][2] == {"verb": "choose", "benefit": benefit}


def test_a_new_noble_without_a_homeworld_goes_to_the_safest_world():
    """NH-REC-2's choice, with NH-AI-3's T and D: A has lost Lortran and holds Frost (next to
    B's ship at Hellish) and Mox (out of its reach): the new Noble appears on Mox."""
    state, _ = position(controllers={"Lortran": "B", "Frost": "A", "Mox": "A"},
                        units=[("B", "Jumpship", "Hellish"), ("B", "Amazonians", "Hellish")])
    made = run_ai(state, "recruit_nobles", dice=[1, 6], phase=4)
    assert made[0][:3] == ("place", "A", {"verb": "place", "world": "Mox"})
