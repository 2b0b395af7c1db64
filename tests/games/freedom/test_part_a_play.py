"""Part A behind the game-module interface (FIG-GEN-7): options, prompts and roles, mulligans
(FIG-MIS-23), the players' results and the default responder (FIG-HOOK-1, FIG-HOOK-7), views,
refusals, saves that load and go on in the middle of the phase, the command line, the catalogue
and a random-play fuzz with invariants."""

from __future__ import annotations

import doctest
import json

import pytest

from struggle_desktop import cli
from struggle_desktop.engine.errors import BadOption, IllegalAction
from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import freedom, get_game
from struggle_desktop.games.freedom import GAME, game as game_module
from tests.games.freedom import helpers
from tests.games.freedom.helpers import (ScriptedDice, answers, at_hook, changes, char, drive,
                                         make, new, notes)
from tests.games.freedom.test_part_a_scenarios import A1

PART_A = ("a1", "a2", "a3", "a4", "a5", "random")


def test_the_game_is_registered_with_its_scenarios_and_options():
    """FIG-GEN-7: one module, scenarios a1-a5 (and a random environs) of kind mission-phase;
    the options of FIG-REC-4 and FIG-MIS-17."""
    assert get_game("freedom") is freedom.GAME
    assert (GAME.id, GAME.title, GAME.roles) == ("freedom", "Freedom in the Galaxy missions",
                                                 ("phasing", "enemy", "rebel", "imperial"))
    kinds = {s["id"]: s["kind"] for s in GAME.scenarios()}
    assert all(kinds[s] == "mission-phase" for s in PART_A)
    options = GAME.options()
    assert options["recruit_choice"]["choices"] == ["random", "chosen"]
    assert options["continue_steps_when_idle"]["default"] is False
    assert GAME.normalize_options("a1", {"continue_steps_when_idle": "on"}) == {
        "recruit_choice": "random", "continue_steps_when_idle": True}
    with pytest.raises(BadOption, match="recruit_choice takes random or chosen"):
        GAME.normalize_options("a1", {"recruit_choice": "best"})
    with pytest.raises(BadOption, match="unknown scenario 'z9'"):
        GAME.setup("z9", 1)


def test_fig_gen_1_the_modes_keep_to_their_own_options_and_state():
    """FIG-GEN-1: Part A and Part B are separate modes; an option of one is refused for a
    scenario of the other, and a Part A state holds no chit data."""
    kinds = {s["id"]: s["kind"] for s in GAME.scenarios()}
    chit = next((s for s, k in kinds.items() if k == "chit-mug"), None)
    if chit is not None:
        with pytest.raises(BadOption, match="applies only to mission-phase scenarios"):
            GAME.normalize_options(chit, {"recruit_choice": "chosen"})
    state = GAME.setup("a1", 1)
    assert state["kind"] == "mission-phase" and "mug" not in state
    for key in ("game", "scenario", "kind", "seed", "options", "rng", "stack", "pending", "log",
                "outcome"):
        assert key in state


def test_the_modules_examples_hold():
    assert doctest.testmod(game_module).failed == 0
    assert doctest.testmod(helpers).failed == 0


def test_fig_mis_23_a_mulligan_re_rolls_and_may_be_kept():
    """FIG-MIS-23: right after a roll the side holding a mulligan may spend it; the new result
    stands (here a natural 10 recruits Kogus); with none left, nothing is asked."""
    asked = []

    def decide(state, p):
        if p["kind"] == "mulligan":
            asked.append(p["result"])
            return {"verb": "mulligan"}
        return None

    state = new("a1")
    state["environs"]["mulligans"]["rebel"] = 1
    state = drive(state, ScriptedDice("d10:7 d10:10 " + A1.split(" ", 1)[1]), decide)
    assert asked == [5]
    assert char(state, "Kogus")["side"] == "rebel"
    assert state["environs"]["mulligans"]["rebel"] == 0
    assert changes(state, "mulligan")[0] == (
        "FIG-MIS-23", "The rebel side spends a mulligan to re-roll: Recruitment (0 left)")
    assert [e["dice"][0]["faces"] for e in state["log"] if e["rule"] == "FIG-REC-1"
            and e["kind"] == "roll"] == [[7], [10]]
    kept = new("a1")
    kept["environs"]["mulligans"]["rebel"] = 2
    decide = answers(*[((lambda s, p: p["kind"] == "mulligan"), {"verb": "keep"})] * 8)
    kept = drive(kept, ScriptedDice(A1), decide)
    assert len(decide.queue) == 0 and kept["environs"]["mulligans"]["rebel"] == 2


def test_fig_mis_23_a_mulligan_gained_during_the_phase_can_be_spent():
    """FIG-MIS-23: FIG-RE-13 with an empty pool gives the Rebel a mulligan, offered at the next roll."""
    kinds = []

    def decide(state, p):
        kinds.append(p["kind"])
        return {"verb": "keep"} if p["kind"] == "mulligan" else None

    state = make(assignment=[{"mission": "D", "leader": "Vudot Vodot"}], possession_pool=[])
    drive(state, ScriptedDice("p2d6:4,1 p2d6:5,2"), decide,
          stop=lambda s: s["pending"]["kind"] == "bonus_roll")
    assert kinds[0] == "mulligan" and state["environs"]["mulligans"]["rebel"] == 1


def test_fig_hook_1_a_result_is_entered_piece_by_piece_and_fig_hook_7_the_default():
    """FIG-HOOK-1: the hook prompt lists hits, kills and captures for each member, flags and
    results; FIG-HOOK-7: the default responder's answer (driven off, nobody hurt) is marked
    auto_default in the log; FIG-HOOK-2: a creature fight goes to the enemy player."""
    state = make(assignment=[{"mission": "D", "leader": "Vudot Vodot"}], creature="Gragg")
    GAME.advance(state, dice=ScriptedDice("p2d6:3,1"))
    p = state["pending"]
    assert (p["kind"], p["hook"], p["role"], p["rule"]) == ("hook", "combat", "enemy",
                                                            "FIG-HOOK-2")
    legal = GAME.legal_actions(state, "enemy")
    assert {"verb": "hit", "character": "Vudot Vodot"} in legal
    assert {"verb": "result", "result": "creature_killed"} in legal
    assert GAME.legal_actions(state, "phasing") == []
    action = GAME.choose_action(state, "enemy", "simple", Rng.from_seed(1))
    assert action == {"verb": "default"}
    state = GAME.apply(state, "enemy", action)
    GAME.advance(state, dice=ScriptedDice("p2d6:5,2"))
    entry = next(e for e in state["log"] if e["rule"] == "FIG-HOOK-2")
    assert entry["auto_default"] and "driven_off" in entry["text"]
    decide = answers((at_hook("combat"), {"verb": "hit", "character": "Vudot Vodot"}),
                     (at_hook("combat"), {"verb": "hit", "character": "Vudot Vodot"}),
                     (at_hook("combat"), {"verb": "result", "result": "characters_broke_off"}))
    state = make(assignment=[{"mission": "D", "leader": "Vudot Vodot"}], creature="Gragg")
    state = drive(state, ScriptedDice("p2d6:3,1 p2d6:5,2"), decide,
                  stop=lambda s: s["pending"]["kind"] == "bonus_roll")
    assert char(state, "Vudot Vodot")["hits"] == 2


def test_refusals_are_explained_and_change_nothing():
    state = GAME.advance(GAME.setup("a1", 1))
    before = GAME.digest(state)
    with pytest.raises(IllegalAction, match="the phasing player decides this"):
        GAME.apply(state, "enemy", {"verb": "continue"})
    with pytest.raises(IllegalAction, match="not possible now"):
        GAME.apply(state, "phasing", {"verb": "call_off", "group": "G9"})
    with pytest.raises(IllegalAction, match="must be an object with a verb"):
        GAME.apply(state, "phasing", ["continue"])
    assert GAME.digest(state) == before


def test_the_view_shows_the_position_and_the_legal_actions_but_not_the_dice_stream():
    state = GAME.advance(GAME.setup("a3", 2))
    view = GAME.view(state, "phasing")
    assert "rng" not in view and "stack" not in view
    assert view["environs"] == state["environs"] and view["legal_actions"]
    assert GAME.view(state, "enemy")["legal_actions"] == []


def play_to(session: Session, kind: str, rng: Rng, limit: int = 200) -> None:
    for _ in range(limit):
        pending = session.state["pending"]
        if pending is None or pending["kind"] == kind:
            return
        session.perform(pending["role"], GAME.choose_action(session.state, pending["role"],
                                                            "simple", rng))


def finish(session: Session, rng: Rng) -> str:
    while GAME.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        session.perform(role, GAME.choose_action(session.state, role, "random", rng))
    return GAME.digest(session.state)


@pytest.mark.parametrize("kind", ["bonus_roll", "hook"])
def test_a_save_in_the_middle_of_the_phase_loads_and_goes_on_the_same(tmp_path, kind, capsys):
    """A save taken at a prompt in the middle of the phase (a bonus roll, a hook) replays to
    the same position, verifies, and played on gives the same end as the original."""
    seed = next(s for s in range(1, 60) if _reaches(s, kind))
    session = Session.new(GAME, "a3", seed)
    play_to(session, kind, Rng.from_seed(seed, stream=99))
    assert session.state["pending"]["kind"] == kind
    path = tmp_path / "mid.json"
    session.save(path)
    loaded, report = Session.load({"freedom": GAME}, path)
    assert report.ok and GAME.digest(loaded.state) == GAME.digest(session.state)
    assert finish(loaded, Rng.from_seed(7)) == finish(session, Rng.from_seed(7))
    assert cli.main(["verify", str(path)]) == 0
    capsys.readouterr()


def _reaches(seed: int, kind: str) -> bool:
    session = Session.new(GAME, "a3", seed, record_digests=False)
    play_to(session, kind, Rng.from_seed(seed, stream=99))
    return session.state["pending"] is not None and session.state["pending"]["kind"] == kind


@pytest.mark.parametrize("scenario", PART_A)
def test_random_play_keeps_every_invariant(scenario):
    """The engine's fuzzer: random legal answers, refused bogus actions, invariants after each
    action, no dead end or runaway, over 50 seeds per scenario."""
    for seed in range(50):
        result = fuzz_game(GAME, scenario, seed, max_actions=3000, bogus_every=5)
        assert result.ok, (seed, result.problems)
        assert result.outcome is not None


def test_simulate_on_the_command_line(capsys):
    """ARCHITECTURE.md section 6: 0 errors, the same digest twice and with two workers, another
    digest with another seed."""
    def run(*extra):
        assert cli.main(["simulate", "--game", "freedom", "--scenario", "a4", "--games", "40",
                         "--json", *extra]) == 0
        return json.loads(capsys.readouterr().out)

    one = run("--seed", "1")
    assert (one["games"], one["completed"], one["errors"]) == (40, 40, 0)
    assert sum(one["outcomes"].values()) == 40
    assert run("--seed", "1")["digest"] == one["digest"]
    assert run("--seed", "1", "--jobs", "2")["digest"] == one["digest"]
    assert run("--seed", "2")["digest"] != one["digest"]
    assert run("--seed", "1", "--option", "policy=random")["errors"] == 0


def test_the_catalog_lists_scenarios_tables_and_rule_ids(capsys):
    """FIG-GEN-8: every table with its reconstructed flag and rule IDs; the 234 rule IDs."""
    catalog = GAME.catalog()
    tables = {t["id"]: t for t in catalog["tables"]}
    assert tables["loyalty_modifiers"]["reconstructed"] is True
    assert tables["coup_aborted"]["reconstructed"] is False
    assert "FIG-CA-1" in tables["coup_aborted"]["rules"]
    assert catalog["rule_ids"]["count"] == 234
    assert len(catalog["missions"]) == 14 and len(catalog["creatures"]) == 56
    assert len(catalog["races"]) == 31
    assert {"a1", "a5"} <= {s["id"] for s in catalog["scenarios"]}
    assert cli.main(["catalog", "--game", "freedom"]) == 0
    assert "Random environs" in capsys.readouterr().out


def test_fig_mis_1_game_long_memory_carries_from_one_environs_to_the_next():
    """FIG-MIS-1 with FIG-FOE-5 and FIG-CTX-7: one environs is finished before the next; what
    the game remembers (Virus immunity, Zops, mulligans) is entered in the next context and
    counts there."""
    pair = [{"name": "Vudot Vodot", "side": "rebel", "ef": 4},
            {"name": "Zina Adora", "side": "rebel", "ef": 4}]
    first = make(assignment=[{"mission": "D", "leader": "Vudot Vodot", "members": ["Zina Adora"]}],
                 creature="Virus", characters=pair, possession_pool=[])
    off = answers((lambda s, p: p["kind"] == "call_off", {"verb": "call_off", "group": "G1"}))
    first = drive(first, ScriptedDice("p2d6:3,1 p2d6:4,1"), off)
    assert first["outcome"] is not None
    memory = first["environs"]["memory"]
    assert memory["virus_immune"] == ["Vudot Vodot", "Zina Adora"]
    fresh = [dict(c, hits=0) for c in pair]
    second = make(assignment=[{"mission": "D", "leader": "Vudot Vodot"}], creature="Virus",
                  characters=fresh, memory=memory, mulligans=first["environs"]["mulligans"])
    off = answers((lambda s, p: p["kind"] == "call_off", {"verb": "call_off", "group": "G1"}))
    second = drive(second, ScriptedDice("p2d6:3,1 p2d6:4,1"), off)
    assert char(second, "Vudot Vodot")["hits"] == 0 and not char(second, "Zina Adora")["dead"]


def test_fig_ctx_2_the_phasing_side_makes_the_roles():
    """FIG-CTX-2: the phasing side's player answers the phasing prompts; the other side is the
    enemy, who enters the fights' results (A3 is Imperial: the Rebel player is the enemy)."""
    state = GAME.advance(GAME.setup("a3", 3))
    assert state["environs"]["phasing_side"] == "imperial"
    assert state["pending"]["role"] in ("phasing", "enemy")
    state = make(phasing_side="imperial", units=[{"side": "rebel", "kind": "militia", "af": 1}],
                 characters=[{"name": "Jon Kidu", "side": "imperial"}],
                 assignment=[{"mission": "D", "leader": "Jon Kidu"}], creature="Gragg")
    GAME.advance(state, dice=ScriptedDice("p2d6:3,1"))
    assert state["pending"]["role"] == "enemy"
    assert GAME.opponent("phasing") == "enemy"


def test_notes_are_the_projects_words():
    """FIG-GEN-6: the log of a played phase is rule-tagged throughout."""
    state = drive(new("a1"), ScriptedDice(A1))
    assert all(e["rule"].startswith("FIG-") for e in state["log"])
    assert notes(state, "FIG-MIS-24")
