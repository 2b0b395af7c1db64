"""The timeline (engine/timeline.py): every position of a game, reached through kept copies,
is exactly the position a replay of that many actions reaches, for every game; a position
can become a new game (branch) that saves, verifies, and plays on exactly as the original
did when given the same actions."""

from __future__ import annotations

import random

import pytest

from struggle_desktop.cli import verify_document
from struggle_desktop.engine import saves
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.engine.timeline import Timeline, branch
from struggle_desktop.games import get_game

#: (game, scenario, options, actions played): enough to cross several kept copies and turns.
GAMES = [
    ("struggle", "1", {}, 60),
    ("battles", "civil-war", {}, 45),
    ("nobles", "standard", {"houses": 2, "seat1": "ai", "seat2": "ai"}, 40),
    ("freedom", "a3", {}, 30),
]


def played(game_id: str, scenario: str, options: dict, actions: int, seed: int = 5) -> Session:
    game = get_game(game_id)
    session = Session.new(game, scenario, seed, options)
    player = Rng.from_seed(seed, stream=99)
    policy = tuple(getattr(game, "policies", ("bot",)))[0]
    while len(session.actions) < actions and game.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        session.perform(role, session.choose(role, policy, player))
    return session


def replayed_digest(session: Session, k: int) -> str:
    fresh = Session.new(session.game, session.scenario, session.seed, session.options)
    for entry in session.actions[:k]:
        fresh.perform(entry["role"], entry["action"])
    return session.game.digest(fresh.state)


@pytest.fixture(scope="module", params=GAMES, ids=[g[0] for g in GAMES])
def game_played(request):
    return played(*request.param)


def test_every_position_is_the_replayed_one(game_played):
    timeline = Timeline.of(game_played, snapshot_every=7)
    n = len(timeline)
    assert n == len(game_played.actions) >= 20
    assert timeline.digest_at(n) == game_played.game.digest(game_played.state)
    # Forward, backward, across kept copies and back again, in a scrambled order.
    order = [0, 1, 2, n, n - 1, 6, 7, 8, 13, 14, n // 2, 3, n // 2 + 1]
    order += random.Random(1).sample(range(n + 1), 8)
    for k in order:
        assert timeline.digest_at(k) == replayed_digest(game_played, k), k


def test_a_position_becomes_a_game_that_saves_verifies_and_plays_on(game_played, tmp_path):
    timeline = Timeline.of(game_played)
    k = len(timeline) // 2 + 1
    earlier = timeline.session_at(k)
    assert earlier.actions == game_played.actions[:k]
    path = tmp_path / "branch.sgsave"
    earlier.save(path)
    document = saves.read_document(path)
    assert verify_document(game_played.game, document)["ok"]
    # The same actions from there lead to the very position the original reached.
    for entry in game_played.actions[k:]:
        earlier.perform(entry["role"], entry["action"])
    assert earlier.game.digest(earlier.state) == game_played.game.digest(game_played.state)
    assert earlier.to_document()["digests"] == game_played.to_document()["digests"]


def test_branch_leaves_the_game_as_it_was(game_played):
    before = game_played.game.digest(game_played.state)
    actions = list(game_played.actions)
    new = branch(game_played, 3)
    assert len(new.actions) == 3 and new.actions == actions[:3]
    assert game_played.actions == actions
    assert game_played.game.digest(game_played.state) == before
    assert new.game.digest(new.state) == replayed_digest(game_played, 3)


@pytest.mark.parametrize("k", [-1, 10_000, "3", 2.0, True, None])
def test_a_position_the_game_does_not_have_is_refused(k):
    session = played("struggle", "1", {}, 5)
    with pytest.raises(BadOption, match="positions 0 to 5"):
        branch(session, k)
    with pytest.raises(BadOption, match="positions 0 to 5"):
        Timeline.of(session).session_at(k)


def test_turn_starts_are_where_the_turn_changed():
    session = played("struggle", "1", {}, 120)
    timeline = Timeline.of(session)
    starts = timeline.turn_starts()
    assert starts[0] == 0 and len(starts) >= 3
    turns = [timeline.moments[k].turn for k in starts]
    assert turns == sorted(set(turns))
    for k in starts[1:]:
        assert timeline.moments[k].turn != timeline.moments[k - 1].turn


def test_the_timeline_follows_the_game_on_and_back():
    """Actions played since are added; actions taken back (undo) and replaced are forgotten."""
    game = get_game("struggle")
    whole = played("struggle", "1", {}, 50)
    short = Session.new(game, "1", whole.seed, {})
    for entry in whole.actions[:30]:
        short.perform(entry["role"], entry["action"])
    timeline = Timeline.of(short, snapshot_every=7)
    timeline.digest_at(3)                                   # the cursor somewhere behind
    timeline.follow(whole.actions)
    assert len(timeline) == 50 and timeline.digest_at(50) == game.digest(whole.state)
    assert timeline.digest_at(41) == replayed_digest(whole, 41)
    # Taken back to 22 actions, then another line of play.
    other = branch(whole, 22)
    player = Rng.from_seed(8, stream=99)
    for _ in range(9):
        role = other.state["pending"]["role"]
        other.perform(role, other.choose(role, "random", player))
    timeline.follow(other.actions)
    assert len(timeline) == 31 and len(timeline.moments) == 32
    for k in (22, 25, 31, 10):
        assert timeline.digest_at(k) == replayed_digest(other, k), k
