"""Whole Battles games: random legal play, the program player, hidden information, saves.

The long fuzz run is ``tools/fuzz.py --game battles``; this is its short version.
"""

from __future__ import annotations

import json

import pytest

from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.fuzz import fuzz_game
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles import GAME
from struggle_desktop.simulate import simulate

ALL_OPTIONS = {"all": "on", "secret_disengagement": "off", "open_hands": "on"}


def test_all_switches_on_every_optional_rule_but_not_the_play_settings():
    """BFG-OPT-1: ``all=on`` turns on the optional rules; secrecy and open hands keep their
    defaults; an explicit value still wins."""
    values, _ = GAME.normalize_options("civil-war", {"all": "on", "better": "off"})
    assert values["no_moon"] and values["switcheroo"] and values["mixed_chits"]
    assert not values["better"]
    assert values["secret_disengagement"] and not values["open_hands"]


@pytest.mark.parametrize("options", [{}, ALL_OPTIONS], ids=["defaults", "all-options"])
@pytest.mark.parametrize("scenario", ["civil-war", "invasion"])
def test_random_play_keeps_every_invariant(scenario, options):
    """BFG-COMP-16, BFG-SEQ-1, BFG-SEQ-5: random legal play to the end, every fleet and chit
    in exactly one place after every action, refused actions change nothing, and every game
    ends by turn 10."""
    for seed in range(2):
        result = fuzz_game(GAME, scenario, seed, options, check_every=1)
        assert result.ok, "\n".join(result.problems[:5])
        assert result.outcome in ("blue", "red")
        assert 1 <= result.turns <= 10


def play(scenario="civil-war", seed=3, options=None, policy="bot", until=None, limit=20000):
    """A session played by the program player until ``until(state)`` or the end."""
    session = Session.new(GAME, scenario, seed, options or {})
    rng = Rng.from_seed(seed, stream=99)
    for _ in range(limit):
        state = session.state
        if GAME.outcome(state) is not None or (until is not None and until(state)):
            return session
        role = state["pending"]["role"]
        session.perform(role, GAME.choose_action(state, role, policy, rng))
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("policy", ["bot", "strong-red"])
def test_the_program_player_finishes_games_with_legal_actions(policy):
    """Program against program (both levels) plays to a winner with listed actions only."""
    session = play(policy=policy, seed=5)
    outcome = GAME.outcome(session.state)
    assert outcome["winner"] in ("blue", "red") and outcome["turn"] <= 10


# ------------------------------------------------------------------ hidden information
def waiting(kind, role=None):
    return lambda s: (s["pending"] and s["pending"]["kind"] == kind
                      and (role is None or s["pending"]["role"] == role))


def test_a_view_holds_nothing_private_of_the_other_player():
    """BFG-HID-2, BFG-HID-3, BFG-HID-10: while Blue deploys (after Red), Blue's view has Red's
    hand and both chit pools only as counts and no trace of Red's plan; Red's own view has
    its hand."""
    session = play(until=waiting("deploy", "blue"))
    state = session.state
    red = state["players"]["red"]
    assert red["hand"] and red["deploy"]          # Red has chits and has made its plan
    blue_view = GAME.view(state, "blue")
    shown = blue_view["players"]["red"]
    assert shown["hand_count"] == len(red["hand"])
    assert shown["own_chits_count"] == len(red["own_chits"])
    assert blue_view["chit_pool_count"] == len(state["chit_pool"])
    for private in ("hand", "deploy", "discards", "own_chits"):
        assert private not in shown
    assert "chit_pool" not in blue_view and "rng" not in blue_view and "stack" not in blue_view
    secret = set(red["hand"]) - set(state["played"])
    text = json.dumps({k: v for k, v in blue_view.items() if k != "legal_actions"})
    assert not [c for c in secret if f'"{c}"' in text]
    red_view = GAME.view(state, "red")
    assert red_view["players"]["red"]["hand"] == red["hand"]
    assert "hand" not in red_view["players"]["blue"]


def test_the_other_players_deployment_stays_secret_until_both_are_done():
    """BFG-DEP-1, BFG-HID-3, BFG-HID-5: Red assigns first; while Blue assigns, nothing of
    Red's assignment shows in Blue's view or log, and the map shows no Red fleet placed this
    turn; after Blue is done both appear together."""
    session = play(until=waiting("deploy", "blue"))
    state = session.state
    plan = state["players"]["red"]["deploy"]
    assert plan, "Red has made its plan"
    blue_view = GAME.view(state, "blue")
    planned = {fid for fid, _ in plan}
    assert all(blue_view["fleets"][f]["at"] == "display" for f in planned)
    assert not any("Red deploys" in e["text"] for e in blue_view["log"]
                   if e["turn"] == state["turn"])
    assert "deploy" not in blue_view["players"]["red"]
    # Blue finishes; both plans go onto the map at once.
    rng = Rng.from_seed(1, stream=99)
    while state["pending"]["kind"] == "deploy":
        role = state["pending"]["role"]
        session.perform(role, GAME.choose_action(state, role, "bot", rng))
        state = session.state
    assert all(state["fleets"][f]["at"] == "map" for f in planned)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_the_log_never_says_which_chit_the_other_side_drew(seed):
    """BFG-HID-3: the chit pools are kept in a known order, so a logged "5 of 10" named the
    chit drawn, and the whole hand could be rebuilt from the public log. A chit draw now
    shows its face and die to the drawing side alone; the other side and the public read
    only who drew from which pool."""
    session = play(seed=seed, until=lambda s: s["turn"] >= 3)
    state = session.state
    draws = [k for k, e in enumerate(state["log"]) if e["rule"] == "BFG-SETUP-8"]
    assert draws, "chits were drawn"
    for reader in ("blue", "red", "public"):
        seen = GAME.log_entries(state, 0, role=reader)
        for k in draws:
            drawer = state["log"][k]["private"]["role"]
            entry = seen[k]
            if reader == drawer:
                assert " of " in entry["text"] and entry["dice"][0]["face"] >= 1
            else:
                assert entry["dice"] == [] and " of " not in entry["text"]
                assert entry["text"].startswith(("Blue draws", "Red draws"))


def test_private_log_entries_show_their_public_wording_to_the_other_player():
    """BFG-HID-11: "Blue draws Build-1, ..." for Blue, "Blue draws 5 chit(s)" for Red."""
    session = play(until=waiting("deploy"))
    state = session.state
    own = [e["text"] for e in GAME.view(state, "blue")["log"] if e["kind"] == "private"]
    other = [e["text"] for e in GAME.view(state, "red")["log"] if e["kind"] == "private"]
    blue_own = [t for t in own if t.startswith("Blue draws")]
    blue_seen_by_red = [t for t in other if t.startswith("Blue draws")]
    assert blue_own and blue_seen_by_red
    assert all("-" in t for t in blue_own)                    # chit names such as Move-2
    assert all(t.endswith("chit(s)") for t in blue_seen_by_red)
    public = GAME.log_entries(state, role="public")
    assert not any(t in (e["text"] for e in public) for t in blue_own)


def test_open_hands_show_both_hands():
    """BFG-HID-8: with open hands both hands are face up; deployment stays secret."""
    session = play(options={"open_hands": "on"}, until=waiting("deploy", "blue"))
    view = GAME.view(session.state, "blue")
    assert view["players"]["red"]["hand"] == session.state["players"]["red"]["hand"]
    assert "deploy" not in view["players"]["red"]


def test_secret_disengagement_is_not_in_the_view_before_both_choose():
    """BFG-PUR-2, BFG-HID-3, BFG-HID-6: the first player's choice stays out of the second
    player's view until both have chosen."""
    def second_choice(state):
        p = state["pending"]
        return (p and p["kind"] == "disengage"
                and p["role"] != state["battle"]["resolver"])
    session = play(until=second_choice, seed=7)
    state = session.state
    chooser = state["pending"]["role"]
    view = GAME.view(state, chooser)
    assert view["battle"]["disengaged"] == {}
    assert "choices" not in json.dumps(view)


def test_the_program_player_decides_from_its_view_alone():
    """BFG-HID-10: changing the other player's hidden hand and plan does not change the
    program player's decision."""
    session = play(until=waiting("deploy", "blue"))
    state = session.state
    before = GAME.choose_action(state, "blue", "bot", Rng.from_seed(2))
    changed = json.loads(json.dumps(state))
    red = changed["players"]["red"]
    red["deploy"] = [[fid, 7 - region] for fid, region in red["deploy"]]
    red["hand"].reverse()
    assert GAME.view(changed, "blue") == GAME.view(state, "blue")
    after = GAME.choose_action(changed, "blue", "bot", Rng.from_seed(2))
    assert before == after


# ------------------------------------------------------------------ saves
def test_a_game_saved_while_a_secret_prompt_waits_loads_and_replays(tmp_path):
    """BFG-HID-11: the save holds the full state; loading replays to the same digest."""
    session = play(until=waiting("disengage"), seed=7)
    path = tmp_path / "battle.json"
    session.save(path)
    loaded, report = Session.load({"battles": GAME}, path)
    assert report.ok
    assert GAME.digest(loaded.state) == GAME.digest(session.state)
    assert loaded.state["pending"] == session.state["pending"]


def test_replay_equals_incremental_play():
    session = play(seed=11, until=lambda s: s["turn"] >= 3)
    replayed = Session.new(GAME, "civil-war", 11, {})
    for entry in session.actions:
        replayed.perform(entry["role"], entry["action"])
    assert GAME.digest(replayed.state) == GAME.digest(session.state)
    assert digest(replayed.state["log"]) == digest(session.state["log"])


# ------------------------------------------------------------------ simulate
@pytest.mark.parametrize("scenario", ["civil-war", "invasion"])
def test_simulate_is_stable_and_seed_dependent(scenario):
    first = simulate("battles", scenario, games=6, seed=1)
    again = simulate("battles", scenario, games=6, seed=1)
    other = simulate("battles", scenario, games=6, seed=2)
    assert first["errors"] == 0 and first["completed"] == 6
    assert first["digest"] == again["digest"] != other["digest"]
    assert set(first["outcomes"]) <= {"blue", "red"}
