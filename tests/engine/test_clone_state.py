"""The next position shares the log's entries with the one before (engine/flow.clone_state):
that is safe only while no entry changes once the action that wrote it has ended. Each game is
played here the way the window plays it (a new position per action, the old one kept for
undo), and every entry is checked against what it was when its action ended."""

from __future__ import annotations

import pytest

from struggle_desktop.engine.canonical import canonical_json, digest
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games import get_game
from struggle_desktop.simulate import program_options

GAMES = [("struggle", "4", {}, "bot", 250), ("battles", "civil-war", {}, "bot", 250),
         ("nobles", "standard", {"houses": 3, "ai_difficulty": "hard"}, "bot", 500),
         ("freedom", "a3", {}, "bot", 60)]


@pytest.mark.parametrize("game_id,scenario,options,policy,actions", GAMES,
                         ids=[g[0] for g in GAMES])
def test_no_log_entry_changes_after_its_action(game_id, scenario, options, policy, actions):
    game = get_game(game_id)
    session = Session.new(game, scenario, 4, program_options(game, options))
    rng = Rng.from_seed(4, stream=99)
    written: list[str] = []           # each entry as it was when its action ended
    kept = []                         # (position, its digest), as undo keeps them
    for _ in range(actions):
        if game.outcome(session.state) is not None:
            break
        role = session.state["pending"]["role"]
        kept.append((session.state, game.digest(session.state)))
        session.perform(role, session.choose(role, policy, rng), copy=True)
        log = session.state["log"]
        written.extend(canonical_json(entry) for entry in log[len(written):])
    log = session.state["log"]
    assert len(log) == len(written) > 50
    changed = [k for k, entry in enumerate(log) if canonical_json(entry) != written[k]]
    assert not changed, f"entries changed after their action: {changed[:5]}"
    assert all(game.digest(state) == before for state, before in kept)
    assert kept[-1][0]["log"][0] is log[0]        # the positions do share their entries
    assert digest(kept[0][0]) != digest(session.state)
