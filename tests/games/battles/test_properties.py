"""Property tests of Battles (ARCHITECTURE.md section 8), with hypothesis choosing the scenario,
options, seed, player and how far to play:

- every action keeps every fleet and chit in exactly one place and the RP never negative
  (invariants.py), and never changes the state it was applied to;
- an illegal action is refused with a message and changes nothing;
- a save taken at any point replays to the same position and plays on to the same end.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from struggle_desktop.engine.canonical import canonical_json
from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles import GAME

SCENARIOS = st.sampled_from(["civil-war", "invasion"])
OPTIONS = st.sampled_from([{}, {"all": "on"}, {"secret_disengagement": "off",
                                               "open_hands": "on"}])
SEEDS = st.integers(min_value=0, max_value=2**32)
POLICIES = st.sampled_from(["bot", "random"])


@settings(max_examples=10, deadline=None)
@given(scenario=SCENARIOS, options=OPTIONS, seed=SEEDS, policy=POLICIES,
       n_actions=st.integers(min_value=1, max_value=150))
def test_every_action_keeps_the_invariants_and_never_touches_its_input(
        scenario, options, seed, policy, n_actions):
    """BFG-COMP-16: every fleet and every chit is in exactly one place after every action."""
    rng = Rng.from_seed(seed, stream=99)
    state = GAME.advance(GAME.setup(scenario, seed, options))
    assert GAME.invariants(state) == []
    for k in range(n_actions):
        if GAME.outcome(state) is not None:
            assert GAME.legal_actions(state, "blue") == GAME.legal_actions(state, "red") == []
            break
        role = state["pending"]["role"]
        legal = GAME.legal_actions(state, role)
        assert legal
        action = GAME.choose_action(state, role, policy, rng)
        assert canonical_json(action) in {canonical_json(a) for a in legal}
        pinned = GAME.digest(state)
        other = "red" if role == "blue" else "blue"
        with pytest.raises(IllegalAction):
            GAME.apply(state, other, action)            # not the other player's decision
        with pytest.raises(IllegalAction):
            GAME.apply(state, role, {"verb": "resolve", "region": 7})
        new = GAME.apply(state, role, action, copy=True)
        assert GAME.digest(state) == pinned, "apply changed its input"
        state = GAME.advance(new)
        problems = GAME.invariants(state)
        assert problems == [], f"after action {k + 1} {action}: {problems}"


@settings(max_examples=8, deadline=None)
@given(scenario=SCENARIOS, seed=SEEDS, policy=POLICIES,
       n_actions=st.integers(min_value=0, max_value=200),
       cut=st.floats(min_value=0, max_value=1))
def test_replay_equals_incremental_play_at_any_cut(scenario, seed, policy, n_actions, cut):
    rng = Rng.from_seed(seed, stream=99)
    session = Session.new(GAME, scenario, seed, {})
    actions = []
    while len(actions) < n_actions and GAME.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        action = GAME.choose_action(session.state, role, policy, rng)
        session.perform(role, action, copy=False)
        actions.append((role, action))
    at = round(cut * len(actions))
    straight = Session.new(GAME, scenario, seed, {})
    for role, action in actions[:at]:
        straight.perform(role, action)
    document = json.loads(json.dumps(straight.to_document()))
    loaded, report = Session.from_document(GAME, document)
    assert report.ok and GAME.digest(loaded.state) == GAME.digest(straight.state)
    for role, action in actions[at:]:
        loaded.perform(role, action, copy=False)
    assert GAME.digest(loaded.state) == GAME.digest(session.state)
