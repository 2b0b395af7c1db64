"""Headless sessions (engine/session.py) on the real Struggle game: saving while a prompt
waits, loading and playing on, replay against the recorded digests, and tampered saves.

Rules: SGE-DICE-10 (one seeded generator in the state: a replay is bit-exact), SGE-SEQ-21 (the
set-up placement is an ordinary saved prompt: a game can be saved and resumed there).
"""

from __future__ import annotations

import json

import pytest

from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import IllegalAction, SaveError
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import DIGEST_EVERY, Session, replay

SCENARIO = "3"   # The Empire Strikes: five turns, the shortest scenario



def play(session: Session, game, rng: Rng, policy: str = "bot", limit: int | None = None,
         copy: bool = False) -> Session:
    """Let the program take ``limit`` decisions (all of them when None)."""
    n = 0
    while game.outcome(session.state) is None and (limit is None or n < limit):
        role = session.state["pending"]["role"]
        session.perform(role, game.choose_action(session.state, role, policy, rng), copy=copy)
        n += 1
    return session


@pytest.fixture(scope="module")
def finished(game):
    """One whole game played by the bot, with its player generator's final state."""
    rng = Rng.from_seed(5, stream=99)
    session = play(Session.new(game, SCENARIO, 5), game, rng)
    return session


def test_a_new_session_waits_for_the_set_up_placement(game):
    """SGE-SEQ-21: the player's set-up placement is the first prompt."""
    session = Session.new(game, SCENARIO, 1)
    assert session.state["pending"]["kind"] == "setup_placement"
    assert session.actions == [] and game.outcome(session.state) is None


def test_save_while_a_prompt_waits_load_continue_and_verify(game, tmp_path):
    """SGE-SEQ-21, SGE-DICE-10: saved at the set-up prompt and again in the middle of the game,
    loaded, played on: the same game as one played straight through."""
    straight = play(Session.new(game, SCENARIO, 11), game, Rng.from_seed(11, stream=99))

    rng = Rng.from_seed(11, stream=99)
    session = Session.new(game, SCENARIO, 11)
    path = tmp_path / "at-setup.json"
    session.save(path)
    session, report = Session.load({"struggle": game}, path)
    assert report.ok and session.state["pending"]["kind"] == "setup_placement"

    play(session, game, rng, limit=40)
    assert session.state["pending"] is not None, "a prompt waits mid-game"
    path = tmp_path / "mid-game.json"
    session.save(path)
    loaded, report = Session.load({"struggle": game}, path)
    assert report.ok and report.actions == len(session.actions)
    assert game.digest(loaded.state) == game.digest(session.state)
    assert loaded.state["pending"] == session.state["pending"]

    play(loaded, game, rng)
    assert game.digest(loaded.state) == game.digest(straight.state)
    assert loaded.actions == straight.actions
    final = tmp_path / "final.json"
    loaded.save(final)
    assert replay(game, saves.read_document(final)).ok


def test_replay_equals_incremental_play(game, finished):
    """SGE-DICE-10: replaying the action list from the seed gives the very same positions."""
    document = json.loads(json.dumps(finished.to_document()))
    report = replay(game, document)
    assert report.ok, report.message
    assert report.actions == len(finished.actions)
    assert report.checked == len(document["digests"]) >= len(finished.actions) // DIGEST_EVERY
    session, _ = Session.from_document(game, document)
    assert game.digest(session.state) == game.digest(finished.state)
    assert game.outcome(session.state) == game.outcome(finished.state)


def test_random_play_replays_too(game):
    session = play(Session.new(game, SCENARIO, 3), game, Rng.from_seed(3, stream=99), "random",
                   limit=60, copy=True)   # the UI's path: every action on a copy
    rebuilt, report = Session.from_document(game, json.loads(json.dumps(session.to_document())))
    assert report.ok and game.digest(rebuilt.state) == game.digest(session.state)


def test_a_session_that_keeps_no_log_plays_the_same_game(game):
    """A simulation's session (``keep_log=False``) drops Struggle's log, and nothing else
    changes: the same actions, positions and outcome as with the log kept."""
    kept = play(Session.new(game, SCENARIO, 7), game, Rng.from_seed(7, stream=99))
    unkept = play(Session.new(game, SCENARIO, 7, keep_log=False), game,
                  Rng.from_seed(7, stream=99))
    assert len(kept.state["log"]) > 100 and len(unkept.state["log"]) == 0
    assert unkept.actions == kept.actions
    assert game.digest(unkept.state) == game.digest(kept.state)
    assert game.outcome(unkept.state) == game.outcome(kept.state)


def test_a_game_whose_rules_may_read_the_log_keeps_it():
    """Only a game that declares its log output-only loses it (Battles' rules write into
    their latest entry, so its log stays)."""
    from struggle_desktop.games import get_game

    battles = get_game("battles")
    assert not getattr(battles, "log_is_output_only", False)
    session = Session.new(battles, battles.scenarios()[0]["id"], 3, keep_log=False)
    assert type(session.state["log"]) is list and session.state["log"]


def test_digests_are_recorded_periodically_and_at_the_end(finished):
    document = finished.to_document()
    afters = [d["after"] for d in document["digests"]]
    assert afters[-1] == len(finished.actions)
    assert all(a % DIGEST_EVERY == 0 for a in afters[:-1])
    assert afters == sorted(set(afters))


def test_an_illegal_action_changes_nothing(game):
    session = Session.new(game, SCENARIO, 2)
    before = game.digest(session.state)
    with pytest.raises(IllegalAction):
        session.perform("imperial", {"verb": "no-such-verb"})
    with pytest.raises(IllegalAction):
        session.perform("chaos", session.game.legal_actions(session.state, "imperial")[0])
    assert game.digest(session.state) == before and session.actions == []


def other_legal_action(game, document: dict, k: int) -> dict | None:
    """A legal action at step k (1-based) different from the recorded one."""
    session = Session.new(game, document["scenario"], document["seed"], document["options"])
    for entry in document["actions"][: k - 1]:
        session.perform(entry["role"], entry["action"], copy=False)
    recorded = document["actions"][k - 1]
    for action in game.legal_actions(session.state, recorded["role"]):
        if action != recorded["action"]:
            return action
    return None


def test_a_tampered_action_list_fails_verification(game, finished):
    document = json.loads(json.dumps(finished.to_document()))
    k = next(k for k in range(2, len(document["actions"]) + 1)
             if other_legal_action(game, document, k) is not None)
    document["actions"][k - 1]["action"] = other_legal_action(game, document, k)
    report = replay(game, document)
    assert not report.ok and report.mismatch_at is not None and report.mismatch_at >= k
    with pytest.raises(SaveError, match="does not replay"):
        Session.from_document(game, document)


def test_an_impossible_action_fails_verification(game, finished):
    document = json.loads(json.dumps(finished.to_document()))
    document["actions"][0]["action"] = {"verb": "conquer-the-galaxy"}
    report = replay(game, document)
    assert not report.ok and report.mismatch_at == 1 and "no longer replays" in report.message


def test_a_tampered_digest_fails_and_the_snapshot_can_be_kept(game, finished):
    document = json.loads(json.dumps(finished.to_document()))
    document["digests"][0]["digest"] = "0" * 64
    assert not replay(game, document).ok
    kept, report = Session.from_document(game, document, prefer_snapshot=True)
    assert not report.ok and kept.state == document["snapshot"]


def test_changed_data_is_reported(game, finished):
    document = json.loads(json.dumps(finished.to_document()))
    document["data_digest"] = "f" * 64
    report = replay(game, document)
    assert report.ok and report.data_changed
