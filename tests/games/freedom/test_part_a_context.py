"""The dice of Part A (FIG-GEN-3, FIG-GEN-4, FIG-GEN-5, FIG-GEN-6) and the environs context by
the context rules, FIG-CTX (each test names the IDs it checks): what a context may hold, the
defaults it gets, and one clear message naming the field for each kind of damage."""

from __future__ import annotations

from collections import Counter

import pytest

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom import GAME
from struggle_desktop.games.freedom.context import Ctx, RngDice
from struggle_desktop.games.freedom.data import FreedomData, default_data
from struggle_desktop.games.freedom.environs import normalize, random_context
from struggle_desktop.games.freedom.game import FreedomGame
from struggle_desktop.games.freedom.registry import RULES
from tests.games.freedom.helpers import BASE, ScriptedDice, make


# ------------------------------------------------------------------------------------ dice
def test_fig_gen_3_p2d6_is_read_as_tens_and_units():
    """FIG-GEN-3: two d6, the first the tens; 36 values 11..66 equally likely, never a sum."""
    dice = RngDice(Rng.from_seed(3))
    ctx = Ctx(make(), RULES.procedures, default_data(), dice=dice)
    seen = Counter(ctx.throw("p2d6", "FIG-GEN-3", "test")["result"] for _ in range(7200))
    assert sorted(seen) == [10 * t + u for t in range(1, 7) for u in range(1, 7)]
    assert min(seen.values()) > 120 and max(seen.values()) < 290
    entry = make()
    ctx = Ctx(entry, RULES.procedures, default_data(), dice=ScriptedDice("p2d6:2,5"))
    assert ctx.throw("p2d6", "FIG-GEN-3", "Event")["result"] == 25
    assert entry["log"][-1]["dice"] == [{"die": "p2d6", "faces": [2, 5], "modifiers": [],
                                         "result": 25}]


def test_fig_gen_4_other_dice():
    """FIG-GEN-4: d10 faces 1-10 (never 0), 2d6 a sum 2-12, d6 1-6."""
    ctx = Ctx(make(), RULES.procedures, default_data(), dice=RngDice(Rng.from_seed(9)))
    d10 = {ctx.throw("d10", "FIG-GEN-4", "t")["result"] for _ in range(500)}
    two = {ctx.throw("2d6", "FIG-GEN-4", "t")["result"] for _ in range(500)}
    d6 = {ctx.throw("d6", "FIG-GEN-4", "t")["result"] for _ in range(300)}
    assert d10 == set(range(1, 11)) and two == set(range(2, 13)) and d6 == set(range(1, 7))


def test_fig_gen_5_random_picks_roll_a_dk_in_a_fixed_order_and_nothing_for_one():
    state = make()
    ctx = Ctx(state, RULES.procedures, default_data(), dice=ScriptedDice("d3:2"))
    frame = {"proc": "test"}
    state["stack"] = [frame]
    assert ctx.pick(frame, "one", ["only"], "FIG-GEN-5", "x") == "only"
    assert state["stack"] == [frame]                       # nothing rolled for one
    assert ctx.pick(frame, "k", ["a", "b", "c"], "FIG-GEN-5", "x") is None
    assert state["stack"][-1]["proc"] == "roll" and state["stack"][-1]["die"] == "d3"


def test_fig_gen_6_every_roll_is_logged_with_rule_die_faces_modifiers_result_and_refs():
    """FIG-GEN-6: every roll is logged with rule die faces modifiers result and refs."""
    state = make()
    ctx = Ctx(state, RULES.procedures, default_data(), dice=ScriptedDice("d10:7"))
    ctx.throw("d10", "FIG-REC-1", "Recruitment", modifiers=[["size 2", -2]], refs=["Vudot Vodot"])
    entry = state["log"][-1]
    assert (entry["rule"], entry["kind"], entry["refs"]) == ("FIG-REC-1", "roll", ["Vudot Vodot"])
    assert entry["dice"] == [{"die": "d10", "faces": [7], "modifiers": [["size 2", -2]],
                              "result": 5}]
    assert entry["text"] == "Recruitment: d10 7 - 2 (size 2) = 5"


def test_the_same_seed_gives_the_same_phase_and_another_seed_another():
    def play(seed):
        session_state = GAME.setup("a3", seed)
        rng = Rng.from_seed(seed, stream=99)
        GAME.advance(session_state)
        while GAME.outcome(session_state) is None:
            role = session_state["pending"]["role"]
            session_state = GAME.apply(session_state, role,
                                       GAME.choose_action(session_state, role, "random", rng))
            GAME.advance(session_state)
        return GAME.digest(session_state)
    assert play(4) == play(4)
    assert len({play(s) for s in range(4, 10)}) > 1


# ------------------------------------------------------------------------------------ context
def test_defaults_are_filled_in():
    """FIG-CTX-3 (controller by state), FIG-CTX-4 (unit ids), FIG-CTX-7 (memory), FIG-CTX-9
    (flags and ratings), FIG-CTX-10 (the pool: the chart's rows not in play), FIG-CTX-12 (the
    unrecruited: every base row of the side not here)."""
    data = default_data()
    raw = {"location": "environs", "size": 3, "type": "wild", "phasing_side": "rebel",
           "planet_state": "rebel_controlled",
           "units": [{"side": "imperial", "kind": "conscript", "af": 1}],
           "characters": [{"name": "Kogus", "side": "rebel", "possessions": ["Rare Gems"]}],
           "spaceships": [{"name": "Explorer", "side": "rebel"}]}
    env = normalize(raw, data)
    assert env["controller"] == "rebel" and env["loyalty"] is None
    assert env["units"][0]["id"] == "U1" and env["units"][0]["elite"] is False
    assert env["memory"] == {"zops_used": False, "vrialta_gone": False, "virus_immune": []}
    kogus = env["characters"][0]
    assert not kogus["detected"] and kogus["intelligence"] is None and kogus["hits"] == 0
    assert "Rare Gems" not in env["possession_pool"] and "Explorer" not in env["possession_pool"]
    assert len(env["possession_pool"]) == 14
    assert "Kogus" not in env["unrecruited"]["rebel"] and len(env["unrecruited"]["rebel"]) == 19
    assert "Kogus-ZA" not in env["unrecruited"]["rebel"]
    assert len(env["unrecruited"]["imperial"]) == 12
    assert normalize(dict(raw, planet_state="in_rebellion"), data)["controller"] == "none"
    loyal = dict(raw, planet_state="loyalty", loyalty="loyal")
    assert normalize(loyal, data)["controller"] == "imperial"
    assert env["mulligans"] == {"rebel": 0, "imperial": 0}


def test_fig_gen_9_other_spellings_and_display_names_are_read_as_the_part_a_names():
    """FIG-GEN-9: other spellings and display names are read as the Part A names."""
    env = normalize(dict(BASE, characters=[{"name": "Bridne Murcada", "side": "rebel"},
                                           {"name": "Professor Mareg", "side": "rebel"}]),
                    default_data())
    assert [c["name"] for c in env["characters"]] == ["Bridn Murcada", "Prof. Mareg"]


def test_fig_ctx_1_an_orbit_box_has_no_size_and_no_steps():
    """FIG-CTX-1: an orbit box has no size and no steps."""
    env = normalize({"location": "orbit", "phasing_side": "imperial"}, default_data())
    assert (env["size"], env["type"], env["planet_state"]) == (0, None, None)


def damaged(**changes):
    raw = clone(BASE)
    for key, value in changes.items():
        if value is None:
            raw.pop(key)
        else:
            raw[key] = value
    return raw


BROKEN = [
    (damaged(size=12), "context: size: 12 is greater than the maximum of 9"),
    (damaged(location="moon"), "context: location: 'moon' is not one of"),
    (damaged(size=None), "context: size: an environs needs its size and its type (FIG-CTX-1)"),
    (damaged(type="special"), "context: special_kind: a special environs needs"),
    (dict(damaged(size=None, type=None), location="orbit", size=2),
     "context: size: an orbit box has no size or type"),
    (damaged(planet_state=None), "context: planet_state: an environs needs the planet's state"),
    (damaged(planet_state="in_rebellion"), "context: loyalty: a planet in rebellion has no "
                                           "loyalty space"),
    (damaged(occupied=True), "context: occupied: only a Rebel-controlled planet"),
    (damaged(pdb_down=True), "context: pdb_down: there is no PDB to be down"),
    (damaged(phasing_side="chaos"), "context: phasing_side: 'chaos' is not one of"),
    (damaged(races=["Anons", "Borks", "Calmas"]), "context: races: at most two races, not 3"),
    (damaged(races=["Martians"]), "context: races/0: 'Martians' is not a race"),
    (damaged(creature="Dragon"), "context: creature: 'Dragon' is not one of the 56 creatures"),
    (damaged(characters=[{"name": "Han Solo", "side": "rebel"}]),
     "context: characters/0/name: 'Han Solo' is not a character of the Part A charts"),
    (damaged(characters=[{"name": "Kogus", "side": "rebel"}, {"name": "Kogus", "side": "rebel"}]),
     "context: characters/1: character 'Kogus' is entered twice"),
    (damaged(characters=[{"name": "Kogus-ZA", "side": "rebel"}]),
     "context: characters/0/name: 'Kogus-ZA' is a variant row; enter 'Kogus' (with variant"),
    (damaged(characters=[{"name": "Barca", "side": "rebel"}]),
     "context: characters/0/side: Barca is a imperial character"),
    (damaged(characters=[{"name": "Kogus", "side": "rebel", "possessions": ["Lightsaber"]}]),
     "context: characters/0/possessions/0: 'Lightsaber' is not a possession of the chart"),
    (damaged(characters=[{"name": "Kogus", "side": "rebel", "possessions": ["Explorer"]}]),
     "context: characters/0/possessions/0: 'Explorer' is a spaceship"),
    (damaged(characters=[{"name": "Kogus", "side": "rebel", "possessions": ["PAM Bomb"]},
                         {"name": "Tourag", "side": "rebel", "possessions": ["PAM Bomb"]}]),
     "context: possessions carried/1: possession 'PAM Bomb' is entered twice"),
    (damaged(characters=[{"name": "Kogus", "side": "rebel", "hits": -1}]),
     "context: characters/0/hits: -1 is less than the minimum of 0"),
    (damaged(characters=[{"name": "Queen Mab", "side": "rebel", "npc_sovereign": True}]),
     "context: characters/0/name: 'Queen Mab' is flagged npc_sovereign but is not among"),
    (damaged(spaceships=[{"name": "Imperial", "side": "rebel"}]),
     "context: spaceships/0/name: 'Imperial' is not a rebel spaceship"),
    (damaged(unrecruited={"rebel": ["Vudot Vodot"]}),
     "context: unrecruited/rebel/0: Vudot Vodot is already in play here"),
    (damaged(possession_pool=["Rare Gems", "Rare Gems"]),
     "context: possession_pool/1: possession 'Rare Gems' is entered twice"),
    (damaged(assignment=[{"mission": "D", "leader": "Kogus"}]),
     "context: assignment/0/leader: 'Kogus' is not a character here"),
    (damaged(assignment=[{"mission": "G", "leader": "Vudot Vodot"}]),
     "context: assignment/0/mission: 'G' is not one of"),
    (damaged(units=[{"side": "imperial", "kind": "2nd_line"}]),
     "context: units/0: 'af' is a required property"),
]


@pytest.mark.parametrize("raw,message", BROKEN, ids=[m.split(":")[1].strip() + str(i)
                                                     for i, (_, m) in enumerate(BROKEN)])
def test_fig_ctx_13_a_damaged_context_gives_one_clear_message_naming_the_field(raw, message):
    """FIG-CTX-13 (with the fields of FIG-CTX-1, FIG-CTX-2, FIG-CTX-3, FIG-CTX-4, FIG-CTX-7,
    FIG-CTX-8, FIG-CTX-9, FIG-CTX-10, FIG-CTX-12): one DataError, one line, that names the
    field."""
    with pytest.raises(DataError) as caught:
        normalize(raw, default_data())
    text = str(caught.value)
    assert text.startswith(message), text
    assert "\n" not in text


def scenario_game(context: dict) -> FreedomGame:
    data = FreedomData()
    data.__dict__["scenarios"] = {"bad": {"id": "bad", "title": "Bad", "kind": "mission-phase",
                                          "description": "A damaged one.", "context": context}}
    return FreedomGame(data)


def test_a_scenario_with_a_damaged_context_cannot_be_set_up():
    """Nothing is resolved while the context is invalid (FIG-CTX-13); the message names the
    scenario and the field; a captive cannot go on a mission; a pre-set group that breaks its
    mission's requirements is refused before play (FIG-MIS-4)."""
    with pytest.raises(DataError, match=r"^scenario bad: context: races: at most two races"):
        scenario_game(damaged(races=["Anons", "Borks", "Calmas"])).setup("bad", 1)
    captive = damaged(characters=[{"name": "Vudot Vodot", "side": "rebel", "captured": True}],
                      assignment=[{"mission": "D", "leader": "Vudot Vodot"}])
    with pytest.raises(DataError, match=r"^Bad: group 1 \(D \(Diplomacy\), led by Vudot Vodot\) "
                                        r"is refused: Vudot Vodot is captured and cannot go on "
                                        r"a mission"):
        scenario_game(captive).setup("bad", 1)
    no_coup = damaged(assignment=[{"mission": "C", "leader": "Vudot Vodot"}])
    with pytest.raises(DataError, match=r"group 1 \(C \(Coup\), led by Vudot Vodot\) is "
                                        r"refused: the environs has no coup rating"):
        scenario_game(no_coup).setup("bad", 1)


@pytest.mark.parametrize("seed", range(60))
def test_random_contexts_are_always_valid(seed):
    env = normalize(random_context(seed, default_data()), default_data())
    assert env["phasing_side"] in ("rebel", "imperial") and len(env["races"]) <= 2


def test_the_shipped_scenarios_are_valid_contexts():
    for sid, sc in default_data().scenarios.items():
        if sc["kind"] == "mission-phase" and not sc.get("generated"):
            GAME.setup(sid, 1)           # custom: its own example environs
