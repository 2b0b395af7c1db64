"""Forecasts from one side's view (``forecast FILE --side X``, the games' ``imagined_state``).

The key property: two saves that differ only in what the other sides keep from X (their hands,
plans, declarations, how many secret steps they took) give X the same forecast, digest and
outcomes alike, while the forecast of the whole position tells them apart. The position
imagined is a valid one: it passes the game's invariants and plays to its end."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from struggle_desktop import forecast as forecasting
from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.game import imagines
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from tests.engine.test_timeline import played

ROOT = Path(__file__).resolve().parents[1]
HOT_SEAT = {"blue_player": "human", "red_player": "human"}
NOBLES = {"houses": 4, "seat1": "ai", "turn_limit": 30}


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "struggle_desktop", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)


def replayed(session: Session) -> Session:
    copy = Session.new(session.game, session.scenario, session.seed, session.options)
    for entry in session.actions:
        copy.perform(entry["role"], entry["action"])
    return copy


def the_bot_way(session: Session, enemy: str) -> list[dict]:
    """Nothing forced: the program player takes the whole step."""
    return []


def twins(game_id: str, scenario: str, options: dict, seed: int, kinds: tuple[str, ...],
          other_way, one_way=the_bot_way, limit: int = 3000, then_any: bool = False
          ) -> tuple[Session, Session, str, str]:
    """Two games that agree up to a secret step of kind ``kinds`` of one side (the enemy),
    which it begins once ``one_way`` and once ``other_way`` (each a function of the session
    and the enemy giving actions), the program player finishing it, after which another side
    X decides a secret step too (any step, with ``then_any``). Returns the two sessions, the
    enemy and X."""
    game = get_game(game_id)
    base = Session.new(game, scenario, seed, options)
    player = Rng.from_seed(seed, stream=99)
    while len(base.actions) < limit and game.outcome(base.state) is None:
        pending = base.state["pending"]
        enemy = pending["role"]
        if pending["kind"] in kinds:
            made = []
            for k, way in enumerate((one_way, other_way)):
                session = replayed(base)
                for action in way(session, enemy):
                    session.perform(enemy, action)
                own = Rng.from_seed(7 + k, stream=99)
                while (session.state["pending"]["role"] == enemy
                       and session.state["pending"]["kind"] in kinds):
                    session.perform(enemy, session.choose(enemy, "bot", own))
                made.append(session)
            mine, theirs = made
            after = mine.state["pending"]
            if ((then_any or after["kind"] in kinds) and after["role"] != enemy
                    and theirs.state["pending"] == after
                    and game.digest(mine.state) != game.digest(theirs.state)):
                return mine, theirs, enemy, after["role"]
        base.perform(enemy, base.choose(enemy, "bot", player))
    raise AssertionError(f"no twin positions of {kinds} found")


def first_legal_unlike_the_bot(session: Session, enemy: str) -> list[dict]:
    legal = session.game.legal_actions(session.state, enemy)
    bot = session.choose(enemy, "bot", Rng.from_seed(7, stream=99))
    return [next(a for a in reversed(legal) if a != bot)]


def another_plan(session: Session, enemy: str) -> list[dict]:
    """The fleets the program player would deploy, each to the next region instead, placed
    in more steps (the first fleet placed, taken back and placed again)."""
    probe = replayed(session)
    own = Rng.from_seed(7, stream=99)
    while probe.state["pending"]["role"] == enemy and probe.state["pending"]["kind"] == "deploy":
        probe.perform(enemy, probe.choose(enemy, "bot", own))
    plan: dict[str, int] = {}
    for entry in probe.actions[len(session.actions):]:
        action = entry["action"]
        if action["verb"] == "assign":
            plan[action["fleet"]] = action["region"]
        elif action["verb"] == "unassign":
            plan.pop(action["fleet"], None)
    if not plan:
        return []
    first = next(iter(plan))
    return ([{"verb": "assign", "fleet": first, "region": 1},
             {"verb": "unassign", "fleet": first}]
            + [{"verb": "assign", "fleet": f, "region": n % 6 + 1} for f, n in plan.items()]
            + [{"verb": "done"}])


def first_chit_set_aside(session: Session, enemy: str) -> list[dict]:
    hand = session.state["players"][enemy]["hand"]
    return [{"verb": "discard", "chit": hand[0]}, {"verb": "done"}] if len(hand) > 1 else []


def last_chit_set_aside(session: Session, enemy: str) -> list[dict]:
    """Another chit set aside, in more steps (the first one set aside and taken back)."""
    hand = session.state["players"][enemy]["hand"]
    if len(hand) < 2:
        return []
    return [{"verb": "discard", "chit": hand[0]}, {"verb": "keep", "chit": hand[0]},
            {"verb": "discard", "chit": hand[-1]}, {"verb": "done"}]


def first_card_played(session: Session, enemy: str) -> list[dict]:
    plays = [a for a in session.game.legal_actions(session.state, enemy) if a["verb"] == "play"]
    return plays[:1]


def last_card_played(session: Session, enemy: str) -> list[dict]:
    plays = [a for a in session.game.legal_actions(session.state, enemy) if a["verb"] == "play"]
    return plays[-1:]


TWINS = {
    # BFG-HID-5: Red's deployment plan, made and not yet revealed, while Blue plans.
    "battles-deployment": ("battles", "civil-war", HOT_SEAT, 5, ("deploy",), another_plan),
    # BFG-HID-3: the chits Blue set aside (as many, other ones) and so Blue's hand.
    "battles-chits-set-aside": ("battles", "civil-war", HOT_SEAT, 5, ("discard",),
                                last_chit_set_aside, first_chit_set_aside),
    # BFG-HID-6: a secret disengagement choice made, not yet revealed.
    "battles-disengagement": ("battles", "civil-war", HOT_SEAT, 5, ("disengage",),
                              first_legal_unlike_the_bot),
    # FIG-EVT-12: the secret card the Imperial side kept of those it drew.
    "freedom-secret-cards": ("freedom", "c1", {}, 5, ("deck_keep_secret",),
                             first_legal_unlike_the_bot, the_bot_way, 3000, True),
    # FIG-EVT-6, FIG-EVT-7: the card the First Right holder wants to play, while the other
    # side decides whether to contest it.
    "freedom-card-to-play": ("freedom", "c1", {}, 1, ("deck_play",), last_card_played,
                             first_card_played, 3000, True),
    # NH-SIM-2: a house's nuke launch declared, not yet revealed, while another declares.
    "nobles-launches": ("nobles", "standard", NOBLES, 4, ("launch", "sacrifice"),
                        first_legal_unlike_the_bot),
}


@pytest.fixture(scope="module", params=sorted(TWINS))
def twin_saves(request):
    return twins(*TWINS[request.param])


def test_twins_differing_only_in_hidden_parts_get_the_same_forecast(twin_saves):
    """BFG-HID-3, BFG-HID-5, BFG-HID-6, NH-SIM-2: what the enemy hides does not change X's
    forecast; the forecast of the whole position does tell the twins apart (so the twins
    really differ where it matters)."""
    mine, theirs, enemy, side = twin_saves
    game = mine.game
    view = {k: v for k, v in game.view(mine.state, side).items() if k != "log"}
    assert view == {k: v for k, v in game.view(theirs.state, side).items() if k != "log"}
    assert digest(game.imagined_state(mine.state, side, 3)) == \
        digest(game.imagined_state(theirs.state, side, 3))
    one = forecasting.forecast(forecasting.start_from(mine, side=side), games=2, seed=4)
    two = forecasting.forecast(forecasting.start_from(theirs, side=side), games=2, seed=4)
    assert one["completed"] == 2 and one["errors"] == 0, one["error_samples"]
    assert one["digest"] == two["digest"] and one["outcomes"] == two["outcomes"]
    whole_one = forecasting.forecast(forecasting.start_from(mine), games=2, seed=4)
    whole_two = forecasting.forecast(forecasting.start_from(theirs), games=2, seed=4)
    assert whole_one["digest"] != whole_two["digest"]


def test_the_imagined_position_is_valid(twin_saves):
    """It passes the game's invariants, keeps the prompt waiting and is plain JSON (that it
    plays to its end is checked by the forecasts above)."""
    mine, _, enemy, side = twin_saves
    game = mine.game
    for seed in range(3):
        state = game.imagined_state(mine.state, side, seed)
        assert game.invariants(state) == []
        assert state["pending"] == mine.state["pending"]
        assert json.loads(json.dumps(state)) == state
    assert game.imagined_state(mine.state, side, 1) != game.imagined_state(mine.state, side, 2) \
        or game.id == "nobles"          # nothing but the generator is drawn in Noble Houses


def test_the_other_sides_unseen_plan_or_declaration_is_made_again():
    """BFG-HID-5, BFG-HID-6, NH-SIM-2: a plan, choice or declaration the other side made and
    X has not seen is set aside: once X has answered, that side is asked again."""
    for name in ("battles-deployment", "battles-disengagement", "nobles-launches"):
        mine, _, enemy, side = twins(*TWINS[name])
        game = mine.game
        sim = Session(game, mine.scenario, mine.seed, mine.options,
                      game.imagined_state(mine.state, side, 1), [], [], record_digests=False)
        own = Rng.from_seed(1, stream=99)
        kind = sim.state["pending"]["kind"]
        while sim.state["pending"]["role"] == side and sim.state["pending"]["kind"] == kind:
            sim.perform(side, sim.choose(side, "bot", own))
        assert sim.state["pending"]["role"] == enemy, name
        assert sim.state["pending"]["kind"] == kind, name


def test_battles_deals_the_hidden_chits_anew_with_the_public_counts():
    """BFG-HID-2, BFG-HID-3: the other hand and the pools keep their public sizes, X's own
    hand and set-aside chits are as they are, and the other hand is drawn from chits X has
    not seen (so across seeds it is not always the true one)."""
    session = played("battles", "civil-war", HOT_SEAT, 60)
    game, state = session.game, session.state
    hands = set()
    for seed in range(8):
        sim = game.imagined_state(state, "blue", seed)
        assert sim["players"]["blue"]["hand"] == state["players"]["blue"]["hand"]
        assert sim["players"]["blue"]["discards"] == state["players"]["blue"]["discards"]
        for side in ("blue", "red"):
            for key in ("hand", "own_chits", "discards"):
                assert len(sim["players"][side][key]) == len(state["players"][side][key])
        assert len(sim["chit_pool"]) == len(state["chit_pool"])
        assert not set(sim["players"]["red"]["hand"]) & set(state["players"]["blue"]["hand"])
        hands.add(tuple(sim["players"]["red"]["hand"]))
        assert game.invariants(sim) == []
    assert len(hands) > 1


def freedom_cards(state: dict) -> list[str]:
    places = state["places"]
    cards = [c for key in ("g_deck", "m_deck", "removed", "discard", "historic", "lasting",
                           "retired") for c in places[key]]
    cards += [e["card"] for box in ("new", "due") for e in places[box]]
    for side in ("rebel", "imperial"):
        cards += places["hands"][side] + places["secret_decks"][side]
    return cards


@pytest.mark.parametrize("actions", [3, 10, 25])
def test_freedom_deals_the_unseen_cards_anew_keeping_every_card_once(actions):
    """FIG-EVT-2, FIG-EVT-12: the other side's hand and secret deck keep their sizes and
    hold its own secret cards, X's hand is as it is, every card is in one place as in the
    real position, and the forecast from either side plays to the end."""
    session = played("freedom", "c1", {}, actions)
    game, state = session.game, session.state
    for side, enemy in (("rebel", "imperial"), ("imperial", "rebel")):
        hands = set()
        for seed in range(4):
            sim = game.imagined_state(state, side, seed)
            assert sorted(freedom_cards(sim)) == sorted(freedom_cards(state))
            assert sim["places"]["hands"][side] == state["places"]["hands"][side]
            for who in (side, enemy):
                for key in ("hands", "secret_decks"):
                    assert len(sim["places"][key][who]) == len(state["places"][key][who])
            assert all(c.startswith(("IS#", "H#") if enemy == "imperial" else ("RS#", "H#"))
                       for c in sim["places"]["hands"][enemy])
            hands.add(tuple(sim["places"]["hands"][enemy]))
        assert len(hands) > 1
        summary = forecasting.forecast(forecasting.start_from(session, side=side), 3, seed=2)
        assert summary["completed"] == 3, summary["error_samples"]


def test_a_view_sees_no_more_through_the_imagined_position():
    """BFG-HID-10: imagining from Blue's view and looking at it as Blue shows what Blue saw."""
    session = played("battles", "civil-war", HOT_SEAT, 45)
    game = session.game
    sim = game.imagined_state(session.state, "blue", 9)
    seen = game.view(session.state, "blue", with_log=False)
    again = game.view(sim, "blue", with_log=False)
    for key in ("players", "fleets", "regions", "played", "pending", "turn", "ci"):
        if key in seen:
            assert again[key] == seen[key], key


# ------------------------------------------------------------------------- command line
def two_people_save(tmp_path: Path) -> Path:
    path = tmp_path / "two.sgsave"
    played("battles", "civil-war", HOT_SEAT, 30).save(path)
    return path


def test_the_command_line_forecasts_a_save_of_several_people_from_one_side(tmp_path):
    """BFG-HID-2: --side X gives a forecast, the same on one worker and on two."""
    save = two_people_save(tmp_path)
    one = run("forecast", str(save), "--games", "12", "--seed", "3", "--side", "red", "--json")
    two = run("forecast", str(save), "--games", "12", "--seed", "3", "--side", "red", "--json",
              "--jobs", "2")
    assert one.returncode == two.returncode == 0, one.stderr + two.stderr
    first, second = json.loads(one.stdout), json.loads(two.stdout)
    assert first["completed"] == 12 and first["side"] == "red"
    assert first["digest"] == second["digest"] and first["outcomes"] == second["outcomes"]
    text = run("forecast", str(save), "--games", "3", "--side", "blue")
    assert text.returncode == 0 and "3 games" in text.stdout, text.stderr


def test_the_command_line_twins_give_the_same_digest(tmp_path):
    mine, theirs, _, side = twins(*TWINS["battles-deployment"])
    digests = []
    for name, session in (("mine", mine), ("theirs", theirs)):
        path = tmp_path / f"{name}.sgsave"
        session.save(path)
        done = run("forecast", str(path), "--games", "6", "--side", side, "--json")
        assert done.returncode == 0, done.stderr
        digests.append(json.loads(done.stdout)["digest"])
    assert digests[0] == digests[1]


def test_without_side_a_save_of_several_people_is_refused_naming_the_flag(tmp_path):
    done = run("forecast", str(two_people_save(tmp_path)), "--games", "3")
    assert done.returncode == 2 and done.stderr.startswith("error:")
    assert done.stderr.count("\n") == 1 and "--side X" in done.stderr
    assert "several people" in done.stderr and "Traceback" not in done.stderr


def test_the_events_deck_is_forecast_from_one_side_only(tmp_path):
    """FIG-EVT-2: each side keeps its hand from the other, so the whole position is not
    forecast, and either side's view is."""
    save = tmp_path / "deck.sgsave"
    played("freedom", "c1", {}, 10).save(save)
    done = run("forecast", str(save), "--games", "3")
    assert done.returncode == 2 and "--side X" in done.stderr, done.stderr
    for side in ("rebel", "imperial"):
        done = run("forecast", str(save), "--games", "3", "--side", side, "--json")
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["completed"] == 3


def test_a_one_person_save_forecast_from_a_side_plays_from_that_view(tmp_path):
    """One person against the program: --side X plays from X's view too (documented choice),
    and without --side the whole position is played on as before."""
    save = tmp_path / "one.sgsave"
    session = played("battles", "civil-war", {}, 30)
    session.save(save)
    done = run("forecast", str(save), "--games", "4", "--side", "blue", "--json")
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    expected = forecasting.forecast(forecasting.start_from(session, side="blue"), 4, seed=1)
    assert summary["digest"] == expected["digest"] and summary["side"] == "blue"
    whole = forecasting.forecast(forecasting.start_from(session), 4, seed=1)
    assert whole["side"] is None


def test_a_game_that_does_not_imagine_is_refused_from_a_side():
    struggle = get_game("struggle")
    assert not imagines(struggle)
    with pytest.raises(BadOption, match="one side's view"):
        forecasting.start_from(played("struggle", "1", {}, 8), side="imperial")


def test_noble_houses_sets_aside_other_houses_sacrifices_and_launches():
    """NH-SIM-2, NH-ABIL-12, NH-NUK-3: in a stack waiting on declarations, only the asking
    house's own stay; the others' are gone and those houses are no longer done."""
    from struggle_desktop.games.nobles.imagine import public_stack

    stack = [{"proc": "battle", "step": "sacrifice", "hex": [1, 1], "attacker": "A",
              "defender": "B", "sacrifices": {"A": ["A-X1"], "B": ["B-X2"]},
              "done": ["A"], "asking": "B"},
             {"proc": "nuke_hex", "step": "declare", "hex": [2, 2],
              "declared": {"A": {"A-NK1": "armies:B"}, "B": {"B-NK1": None}}}]
    seen = public_stack(stack, "B")
    assert seen[0]["sacrifices"] == {"A": [], "B": ["B-X2"]} and seen[0]["done"] == []
    assert seen[1]["declared"] == {"B": {"B-NK1": None}}
    assert stack[0]["sacrifices"]["A"] == ["A-X1"]            # the real stack is untouched
    command = [{"proc": "battle", "step": "command", "done": ["A"], "attacker": "A",
                "defender": "B"}]
    assert public_stack(command, "B") == command              # commands are given openly
