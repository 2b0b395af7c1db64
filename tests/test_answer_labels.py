"""Every answer of every prompt, in every game, has a label of its own in a player's words.

The program players play a few short games of each game (several scenarios and options) and a
few positions are built for the prompts a short random game seldom reaches. At every prompt the
board of the role asked is built (``game.board(state, role)``, what the window shows) and each
answer of its prompt is checked:

- its label is not empty and is not the raw verb (``place_nexus``, or "Place nexus");
- it shows no identifier (a word with an underscore) and no "a" before a vowel ("a Alpha
  Fleet");
- no two answers of one prompt read the same (the decision list would show two alike);
- a ``tip`` (the longer explanation the decision list shows as a tooltip), where there is one,
  is plain text too.

Each game's walk must meet every prompt kind the game registers (``game.rules.legal_actions``)
or list it in ``NOT_MET`` with the reason.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Callable

import pytest

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game

#: "a" before a capital vowel: "a Alpha Fleet", "a Imperial Order".
ARTICLE = re.compile(r"\b[aA] [AEIOU]")
#: A program identifier shown to a player: "move_toward_core", "general_research".
IDENTIFIER = re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]")
#: Prompt kinds a walk does not meet, each with the reason (none at present).
NOT_MET: dict[str, dict[str, str]] = {"struggle": {}, "battles": {}, "nobles": {},
                                      "freedom": {}}


def label_problems(prompt: dict) -> list[str]:
    """What is wrong with the labels of one prompt's answers (empty when nothing is)."""
    problems = []
    kind = prompt["kind"]
    for entry in prompt["actions"]:
        label, verb = entry.get("label"), entry["action"].get("verb", "")
        raw = {verb.lower(), verb.replace("_", " ").lower()}
        if not isinstance(label, str) or not label.strip():
            problems.append(f"{kind}: {entry['action']} has no label")
            continue
        if label.strip().lower() in raw:
            problems.append(f"{kind}: {label!r} is the raw verb")
        if ARTICLE.search(label):
            problems.append(f"{kind}: {label!r} has 'a' before a vowel")
        if IDENTIFIER.search(label):
            problems.append(f"{kind}: {label!r} shows an identifier")
        tip = entry.get("tip")
        if tip is not None and (not isinstance(tip, str) or not tip.strip()
                                or IDENTIFIER.search(tip) or ARTICLE.search(tip)):
            problems.append(f"{kind}: the tip {tip!r} of {label!r} is not plain words")
    counts = Counter(e.get("label") for e in prompt["actions"])
    problems.extend(f"{kind}: {n} answers read {label!r}" for label, n in counts.items()
                    if n > 1)
    return problems


class Walk:
    """What the walks of one game met: the prompt kinds and every label problem."""

    def __init__(self, game_id: str):
        self.game = get_game(game_id)
        self.kinds: set[str] = set()
        self.problems: list[str] = []

    def look(self, state: dict) -> None:
        """Check the prompt waiting in ``state`` as its role's board shows it."""
        pending = state["pending"]
        board = self.game.board(state, pending["role"])
        prompt = board["prompt"]
        assert prompt is not None and prompt["kind"] == pending["kind"], pending
        self.kinds.add(pending["kind"])
        for problem in label_problems(prompt):
            if problem not in self.problems:
                self.problems.append(problem)

    def session(self, scenario: str, seed: int, options: dict, policy: str, steps: int,
                until: Callable[[dict], bool] | None = None,
                answer: Callable[[dict, dict], dict] | None = None) -> None:
        """Play ``steps`` answers of a new game by the program player ``policy``; ``answer``
        may replace its choice, ``until(state)`` stops early."""
        game = self.game
        session = Session.new(game, scenario, seed, options, record_digests=False)
        rng = Rng.from_seed(seed, 9)
        for _ in range(steps):
            state = session.state
            if game.outcome(state) is not None or (until is not None and until(state)):
                return
            self.look(state)
            role = state["pending"]["role"]
            action = session.choose(role, policy, rng)
            if answer is not None:
                action = answer(state, action)
            session.perform(role, action)

    def position(self, state: dict, steps: int, rng: Rng, policy: str = "random") -> None:
        """Run a position built by hand and play ``steps`` answers from it (the player's
        choices drawn with ``rng``)."""
        game = self.game
        state = game.advance(state)
        for _ in range(steps):
            if game.outcome(state) is not None or state.get("pending") is None:
                return
            self.look(state)
            role = state["pending"]["role"]
            state = game.advance(game.apply(state, role,
                                            game.choose_action(state, role, policy, rng)))

    def check(self) -> None:
        assert not self.problems, "\n".join(self.problems[:30])
        registered = set(self.game.rules.legal_actions)
        listed = NOT_MET[self.game.id]
        missing = sorted(registered - self.kinds - set(listed))
        assert not missing, f"{self.game.id}: no walk met the prompts {missing}"
        assert not set(listed) & self.kinds, "a listed prompt kind is met: take it off NOT_MET"


# ============================================================================== Struggle
def struggle_positions(walk: Walk) -> None:
    """The Seed Ship (an expedition's rare result) and a Colonization Fleet that can found a
    system, built on an empty galaxy as the rules tests build them."""
    from struggle_desktop.games.struggle.context import CHAOS, IMP
    from tests.games.struggle.helpers import (ScriptedRng, act, begin_phase, clear_map,
                                              new_game, put_system, put_unit, run)

    state = clear_map(new_game("3", 1, {"all": "on"}))
    state.update(turn=3, turn_flags={})
    state["pool"].remove("EXPEDITION")
    state["expedition_sites"].append(23)
    put_unit(state, "SF", 23)
    put_system(state, 1, IMP)
    put_unit(state, "SF", 2, side=CHAOS)
    begin_phase(state, 13, turn=3)
    run(state, ScriptedRng([]))
    walk.look(state)                                   # the expedition's own prompt
    act(state, {"verb": "expedition"}, ScriptedRng([9, 8]))
    assert state["pending"]["kind"] == "seed_ship"
    walk.look(state)

    state = clear_map(new_game("2", 1, {"all": "on"}))
    state.update(turn=2, turn_flags={}, effects=[])
    for _ in range(2):
        put_unit(state, "CF", 20)
    begin_phase(state, 12, turn=2)
    run(state, ScriptedRng([]))
    assert state["pending"]["kind"] == "colonization"
    walk.look(state)


def walk_struggle() -> Walk:
    walk = Walk("struggle")
    walk.session("5", 0, {"all": "on"}, "random", 100)   # events, aliens, Alliance early
    walk.session("6", 0, {"all": "on"}, "random", 20)    # Leviathan, the end of a turn
    walk.session("4", 1, {}, "bot", 60)                  # the optional rules off
    walk.session("3", 2, {"all": "on"}, "random", 20)    # the set-up placement, by hand
    struggle_positions(walk)
    return walk


# ============================================================================== Battles
def walk_battles() -> Walk:
    walk = Walk("battles")
    walk.session("civil-war", 0, {}, "bot", 135)         # a battle with pursuit losses
    walk.session("invasion", 0, {"all": "on"}, "bot", 300)   # the defender's set-up
    walk.session("civil-war", 2, {"all": "on"}, "random", 80)
    return walk


# ============================================================================== Noble Houses
def walk_nobles() -> Walk:
    """A short game, and positions for the upkeep, a new Noble's world and a battle (the
    prompts of later turns)."""
    from tests.games.nobles.positions import position

    walk = Walk("nobles")
    walk.session("standard", 0, {}, "random", 250)      # as far as a nuclear exchange
    walk.session("standard", 1, {"houses": 3}, "bot", 30)

    state, _ = position(solats=0, controllers={"Seedeen": "A", "Mox": "A"}, units=[
        ("A", "Clone Soldiers", "Lortran"), ("A", "Rimspace Pirates", "Mox"),
        ("A", "Imperial Conscripts", "Seedeen"), ("A", "Amazonians", "Mox")]
        + [("A", "Jumpship", "Mox")] * 6)
    state.update(phase=3, rng=Rng.from_seed(1).to_json())
    state["stack"].append({"proc": "upkeep"})
    walk.position(state, 3, Rng.from_seed(1, 5))

    state, _ = position(controllers={"Lortran": "B", "Frost": "A", "Mox": "A"})
    state.update(phase=4, order=["A", "B"], rng=Rng.from_seed(1).to_json())
    state["stack"].append({"proc": "recruit_nobles", "nobles": 1})   # A's roll has succeeded
    walk.position(state, 2, Rng.from_seed(1, 5))

    here = (5, 5)
    state, _ = position(units=[("A", t, here, {"moved": True})
                               for t in ("Kadesh Fanatics", "Clone Soldiers", "Noble")]
                        + [("B", t, here) for t in ("Clone Soldiers", "Clone Soldiers",
                                                     "Discordian Heretics")])
    state.update(phase=8, order=["A", "B"], rng=Rng.from_seed(1).to_json())
    state["stack"].append({"proc": "battles"})
    walk.position(state, 6, Rng.from_seed(1, 5))      # commands, sacrifices, a casualty
    return walk


# ============================================================================== Freedom
def freedom_part_a_positions(walk: Walk) -> None:
    """Part A prompts that need a given roll: a raid (event 15), a possession's carrier
    (event 41), a leader lost in a fight, a chosen recruit and a rating asked at the
    assignment; built as the rules tests build them, with scripted dice."""
    from tests.games.freedom.helpers import ScriptedDice, answers, at_hook, drive, make

    def reach(kind: str, state: dict, script: str, decide=None) -> None:
        state = drive(state, ScriptedDice(script), decide,
                      stop=lambda s: s["pending"]["kind"] == kind)
        walk.look(state)

    pair = [{"mission": "D", "leader": "Vudot Vodot", "members": ["Zina Adora"]}]
    units = [{"id": "U1", "side": "imperial", "kind": "2nd_line", "af": 2},
             {"id": "U2", "side": "imperial", "kind": "conscript", "af": 2},
             {"id": "U3", "side": "imperial", "kind": "1st_line", "af": 3}]
    reach("raid", make(assignment=pair, units=units, pdb=1), "p2d6:1,5")
    reach("receiver", make(assignment=pair,
                           possession_pool=["Rare Gems", "Charsot", "HES Rifle"]),
          "p2d6:4,1 d3:2")
    three = [{"name": n, "side": "rebel"} for n in ("Vudot Vodot", "Zina Adora", "Ly Mantok")]
    reach("leader", make(characters=three, creature="Gach", assignment=[
        {"mission": "D", "leader": "Vudot Vodot", "members": ["Zina Adora", "Ly Mantok"]}]),
        "p2d6:3,1", answers((at_hook("combat"), {"verb": "kill", "character": "Vudot Vodot"}),
                            (at_hook("combat"), {"verb": "result", "result": "driven_off"})))
    reach("recruit", make(unrecruited={"rebel": ["Kogus", "Tourag"]},
                          options={"recruit_choice": "chosen"}), "d10:10")
    reach("value", make(coup_rating=2), "", answers(
        (lambda s, p: p["kind"] == "assign" and not s["draft"],
         {"verb": "form", "mission": "C", "leader": "Vudot Vodot"}),
        (lambda s, p: p["kind"] == "assign", {"verb": "done"})))


def freedom_mode_positions(walk: Walk) -> None:
    """Parts B and C on the fuzzers' random environs and runs (tests/games/freedom): chit
    draws with every event that asks, and long runs of the events deck."""
    from struggle_desktop.games.freedom import chits, deck
    from tests.games.freedom.test_part_b_fuzz import random_context
    from tests.games.freedom.test_part_b_helpers import data

    for seed in (0, 1, 13, 17, 29, 167):      # Medical Aid!, Accident!, immunity, Drama...
        r = Rng.from_seed(seed, stream=91)
        scenario = {"id": f"labels{seed}", "kind": "chit-mug", "context": random_context(r)}
        options = {"chit_method": ["mug", "d66"][r.below(2)], "drama": bool(r.below(2)),
                   "allow_repeats": bool(r.below(2))}
        walk.position(chits.new_state(data(), scenario, options, seed), 500,
                      Rng.from_seed(seed, stream=77))
    for seed in (0, 5, 21):                   # M#1, M#30, IS#3, reductions, contests
        r = Rng.from_seed(seed, stream=91)
        scenario = {"id": f"labels{seed}", "kind": "events-deck",
                    "context": {"last_turn": [None, 1 + r.below(30)][r.below(4) > 0],
                                "general_research": {"rebel": r.below(3),
                                                     "imperial": r.below(3)},
                                "force_points": {"rebel": r.below(20),
                                                 "imperial": r.below(20)}}}
        state = deck.new_state(data(), scenario, {"g6_g7_secret_card": bool(r.below(2))}, seed)
        walk_deck(walk, state, Rng.from_seed(seed, stream=77), r, 400)


def walk_deck(walk: Walk, state: dict, rng: Rng, moves: Rng, steps: int) -> None:
    """A run of the events deck by the random player (choices drawn with ``rng``), who
    mostly goes straight on between the turns (``moves`` decides when it makes manual
    moves, which would otherwise fill the run)."""
    game = walk.game
    state = game.advance(state)
    for _ in range(steps):
        if game.outcome(state) is not None:
            return
        walk.look(state)
        pending = state["pending"]
        if pending["kind"] == "deck_between" and moves.below(3):
            action = {"verb": "done"}
        else:
            action = game.choose_action(state, pending["role"], "random", rng)
        state = game.advance(game.apply(state, pending["role"], action))


def walk_freedom() -> Walk:
    walk = Walk("freedom")
    walk.game.options()                       # imports Parts B and C: their prompts register
    for scenario in ("a1", "a2", "a3", "a4", "a5"):
        for seed in range(3):
            walk.session(scenario, seed, {}, "random", 40)
    walk.session("a3", 4, {}, "random", 10)           # a choice of information
    for seed in range(4):
        walk.session("random", seed, {"recruit_choice": "chosen"}, "random", 40)
    walk.session("b1", 1, {"drama": True}, "random", 40)
    walk.session("c1", 0, {}, "random", 60,
                 answer=lambda s, a: {"verb": "done"} if s["pending"]["kind"] == "deck_between"
                 else a)
    freedom_part_a_positions(walk)
    freedom_mode_positions(walk)
    return walk


WALKS = {"struggle": walk_struggle, "battles": walk_battles, "nobles": walk_nobles,
         "freedom": walk_freedom}


@pytest.mark.parametrize("game_id", sorted(WALKS))
def test_every_answer_has_a_label_of_its_own_at_every_prompt_kind(game_id):
    WALKS[game_id]().check()


# ============================================================================== the checker
def test_the_checker_finds_each_kind_of_bad_label():
    """The checks above can fail: each of these labels is refused for its own reason."""
    def prompt(*labels, tip=None):
        return {"kind": "k", "actions": [dict({"action": {"verb": "place_nexus"},
                                               "label": text}, **({"tip": tip} if tip else {}))
                                         for text in labels]}

    assert label_problems(prompt("Place a Nexus in sector 05")) == []
    assert label_problems(prompt("")) == ["k: {'verb': 'place_nexus'} has no label"]
    assert "raw verb" in label_problems(prompt("Place nexus"))[0]
    assert "vowel" in label_problems(prompt("Recruit a Alpha Fleet"))[0]
    assert "identifier" in label_problems(prompt("Move toward: move_toward_core"))[0]
    assert label_problems(prompt("Place it", "Place it")) == ["k: 2 answers read 'Place it'"]
    assert "tip" in label_problems(prompt("Place it", tip="context: assignment_1"))[0]


def test_the_old_labels_of_the_issue_are_gone():
    """The labels the issue quotes, looked up in positions where they appeared."""
    game = get_game("struggle")
    session = Session.new(game, "3", 1, {"all": "on"}, record_digests=False)
    labels = [e["label"] for e in game.board(session.state, "imperial")["prompt"]["actions"]]
    nexus = [x for x in labels if "Nexus" in x]
    assert nexus and len(set(nexus)) == len(nexus)
    assert all("sector" in x for x in nexus)
    state = clone(session.state)
    assert game.describe_action(state, {"verb": "buy_unit", "type": "AF", "at": 1}) == \
        "Recruit an Alpha Fleet in sector 01 Imperial Core for 5 RP"
    battles = get_game("battles")
    state = Session.new(battles, "civil-war", 1, {}, record_digests=False).state
    assert battles.describe_action(state, {"verb": "build", "type": "IO"}).startswith(
        "Build an Imperial Order")


def test_a_detection_line_of_the_report_names_whom_to_flip():
    """The outcome report's instruction for a detection line names the characters to flip,
    or says there are none; it never points at "the characters named" of a line that names
    nobody."""
    game = get_game("freedom")
    instructions = []
    for scenario, seed in (("a1", 1), ("a3", 4)):
        session = Session.new(game, scenario, seed, {}, record_digests=False)
        rng = Rng.from_seed(seed, 3)
        while game.outcome(session.state) is None:
            role = session.state["pending"]["role"]
            session.perform(role, session.choose(role, "random", rng))
        lines = game.board(session.state, "public")["outcome"]["lines"]
        instructions += [(line["text"], line["instruction"]) for line in lines
                         if line["kind"] == "detection"]
    assert ("Detected: Vudot Vodot, Zina Adora",
            "Flip Vudot Vodot, Zina Adora to the detected side.") in instructions
    nobody = [i for t, i in instructions if "(none here)" in t]
    assert nobody == ["Nothing to flip: no character here was still undetected."]
    assert not any("characters named" in i for _, i in instructions)
