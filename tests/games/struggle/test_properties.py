"""Property tests (hypothesis) of the Struggle game module: ARCHITECTURE.md section 8.

For random seeds, scenarios 1-7 (scenario 7, Sweep of Empire, on a random base scenario),
optional-rule sets (none, ``all=on``, a random subset switched on, or all on but a few that the
scenario does not require switched off) and the two players the program has (the Imperial bot
and uniform random play, ``GAME.choose_action`` with a generator of the test's own,
``Rng.from_seed(seed, stream=99)``), a bounded number of decisions is played and:

(a) replay equals incremental play: a save taken at random cut points
    (``Session.to_document`` -> JSON -> ``Session.from_document``) replays to the very same
    position, and the loaded game, played on with the same actions, reaches the same end and
    saves the same file as the game played straight through (SGE-DICE-10);
(b) ``GAME.invariants(state)`` is empty after every action: each mobile, system, leader and
    chaos event counter in exactly one place (SGE-REC-6, SGE-RES-3), the CI never below 0
    and below 100 while the game goes on (SGE-CI-1, SGE-VIC-3), the RP a whole number never
    below 0 (SGE-RES-10);
(c) ``apply(copy=True)`` never changes its input (nor does the bot's choice), and illegal
    actions (unknown verbs, wrong role, extra or missing keys, values of the wrong type or
    off the map) raise IllegalAction and leave the state unchanged, whether applied on a copy
    or in place; the kinds' fast legality checks agree with the legal-action lists;
(d) every visited state survives a JSON round trip exactly (same data, same canonical text).

Whole-game random play over every scenario is ``test_fuzz.py``'s job; session mechanics on one
fixed game are ``tests/engine/test_session.py``'s. These properties add random option sets,
the bot, and cut points anywhere in the game.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from struggle_desktop.engine.canonical import canonical_json
from struggle_desktop.engine.errors import IllegalAction
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import DIGEST_EVERY, Session
from struggle_desktop.games.struggle import GAME

OPTIONAL_RULES = ("imperial_order", "trans_humans", "nexus", "illumination", "stargates",
                  "increased_resources", "expeditions")
SCENARIOS = ("1", "2", "3", "4", "5", "6", "7")
BASES = ("1", "2", "3", "4", "5", "6")
POLICIES = ("bot", "random")
SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def required_options(scenario: str, options: dict) -> set[str]:
    """The optional rules the scenario (or, for Sweep of Empire, its base) forces on."""
    by_id = {s["id"]: s for s in GAME.scenarios()}
    if by_id[scenario].get("mode") == "sweep":
        scenario = str(options.get("base", "1"))
    return set(by_id[scenario]["required_options"])


@st.composite
def games(draw) -> tuple[str, dict]:
    """A scenario and an option set that ``normalize_options`` accepts."""
    scenario = draw(st.sampled_from(SCENARIOS))
    options: dict = {}
    if scenario == "7":
        options["base"] = draw(st.sampled_from(BASES))
        if draw(st.booleans()):
            options["max_turns"] = draw(st.integers(min_value=1, max_value=6))
    on = draw(st.sampled_from(["on", True, "yes", "1"]))
    off = draw(st.sampled_from(["off", False, "no", "0"]))
    kind = draw(st.sampled_from(["none", "all", "subset", "all-but"]))
    if kind == "all":
        options["all"] = on
    elif kind == "subset":
        for key in draw(st.sets(st.sampled_from(OPTIONAL_RULES))):
            options[key] = on
    elif kind == "all-but":
        # Every rule on, a few switched off again, never one the scenario forces on.
        options["all"] = on
        optional = sorted(set(OPTIONAL_RULES) - required_options(scenario, options))
        if optional:
            for key in draw(st.sets(st.sampled_from(optional), max_size=3)):
                options[key] = off
    return scenario, options


# ------------------------------------------------------------------------------ checks
def track_problems(state: dict) -> list[str]:
    """SGE-CI-1, SGE-VIC-3, SGE-RES-10: what GAME.invariants leaves to the tracks' type and
    upper bound (it checks the floors itself)."""
    out = []
    if not isinstance(state["ci2"], int) or isinstance(state["ci2"], bool):
        out.append(f"CI is not a whole number of half points: {state['ci2']!r}")
    elif state["outcome"] is None and state["ci2"] >= 200:
        out.append(f"the game goes on at CI {state['ci2'] / 2} (100 ends it at once)")
    if not isinstance(state["rp"], int) or isinstance(state["rp"], bool):
        out.append(f"RP is not a whole number: {state['rp']!r}")
    return out


def check_state(state: dict, where: str) -> dict:
    """Invariants (b) and the JSON round trip (d); returns the round-tripped copy, a snapshot
    to compare the state with later."""
    problems = GAME.invariants(state) + track_problems(state)
    assert not problems, f"{where}: " + "; ".join(problems)
    # Plain JSON: no NaN, no sets or tuples, no int keys, no objects.
    text = json.dumps(state, sort_keys=True, allow_nan=False)
    back = json.loads(text)
    assert back == state, f"{where}: the state does not survive a JSON round trip"
    assert json.dumps(back, sort_keys=True) == text, \
        f"{where}: the JSON round trip changes a value's type (a tuple, 1.0 for 1...)"
    return back


BOGUS = ({"verb": "no-such-verb"}, {}, {"verb": 7}, {"verb": None}, None, "done",
         ["done"], 3, {"verb": "move", "unit": "XX-99", "to": 999})


def variants(action: dict, rng: Rng) -> list:
    """Actions near ``action``: an extra key, a key dropped, a value of the wrong type or
    out of range. Some may happen to be legal; the caller sorts them out."""
    out: list = [{**action, "extra": 1}, {**action, "verb": action["verb"] + "x"}]
    for key, value in action.items():
        if key == "verb":
            continue
        out.append({k: v for k, v in action.items() if k != key})
        if isinstance(value, bool):
            swapped = [not value, int(value), str(value).lower()]
        elif isinstance(value, int):
            swapped = [value + 1000, -value - 1, float(value), str(value), [value],
                       value + 1 + rng.below(80), True]
        elif isinstance(value, str):
            swapped = ["XX-99", value + "x", value.lower() if value != value.lower() else
                       value.upper(), [value], {"id": value}, 0]
        else:
            swapped = [None, "x", 0]
        out.extend({**action, key: v} for v in swapped)
    return out


def check_refusals(state: dict, role: str, legal: list[dict], action: dict, rng: Rng,
                   where: str) -> None:
    """(c): illegal actions raise IllegalAction (and the caller checks that they changed
    nothing); a kind's fast check says "legal" exactly for the actions in its list."""
    listed = {canonical_json(a) for a in legal}
    candidates = list(BOGUS) + variants(action, rng)
    picks = [candidates[rng.below(len(candidates))] for _ in range(3)]
    for k, bad in enumerate(picks):
        in_list = isinstance(bad, dict) and canonical_json(bad) in listed
        reason = GAME.check_action(state, role, bad)
        assert (reason is None) == in_list, \
            f"{where}: {bad!r} is {'in' if in_list else 'not in'} the legal list of " \
            f"{state['pending']['kind']!r} but the check says {reason!r}"
        if in_list:
            continue
        with pytest.raises(IllegalAction) as info:
            GAME.apply(state, role, bad, copy=bool(k % 2))   # in place, too: never half-applied
        assert str(info.value) and "\n" not in str(info.value)
    with pytest.raises(IllegalAction):
        GAME.apply(state, "chaos", action)                    # the rules' side is not a player


# ------------------------------------------------------------------------------ (b) (c) (d)
@settings(max_examples=14, deadline=None)
@given(game=games(), seed=SEEDS, policy=st.sampled_from(POLICIES),
       n_actions=st.integers(min_value=1, max_value=90))
@example(game=("4", {"all": "on"}), seed=5, policy="bot", n_actions=90)
@example(game=("1", {"all": "on"}), seed=0, policy="random", n_actions=40)  # Phase 1 prompts
def test_every_action_keeps_the_invariants_and_never_touches_its_input(game, seed, policy,
                                                                       n_actions):
    """SGE-REC-6, SGE-RES-3, SGE-CI-1, SGE-RES-10: (b), (c) and (d) after every action."""
    scenario, options = game
    rng = Rng.from_seed(seed, stream=99)
    probe = Rng.from_seed(seed, stream=98)   # picks the illegal actions to try
    state = GAME.advance(GAME.setup(scenario, seed, options))
    before = check_state(state, "after set-up")
    pinned = GAME.digest(state)
    for k in range(1, n_actions + 1):
        if GAME.outcome(state) is not None:
            assert GAME.legal_actions(state, "imperial") == []
            with pytest.raises(IllegalAction, match="over"):
                GAME.apply(state, "imperial", {"verb": "done"})
            break
        role = state["pending"]["role"]
        where = f"scenario {scenario} {options} seed {seed} {policy}, action {k}"
        legal = GAME.legal_actions(state, role)
        assert legal, f"{where}: prompt {state['pending']['kind']} offers nothing"
        action = GAME.choose_action(state, role, policy, rng)
        assert canonical_json(action) in {canonical_json(a) for a in legal}, \
            f"{where}: the {policy} player chose an action not in the legal list: {action}"
        assert state == before, f"{where}: choosing an action changed the state"
        check_refusals(state, role, legal, action, probe, where)
        assert state == before, f"{where}: a refused action changed the state"
        new = GAME.apply(state, role, action, copy=True)
        assert new is not state
        assert state == before, f"{where}: apply(copy=True) changed its input"
        assert GAME.digest(state) == pinned, f"{where}: the input's digest changed"
        state = GAME.advance(new)
        before = check_state(state, where)
        pinned = GAME.digest(state)


# ------------------------------------------------------------------------------ (a)
def save_and_load(session: Session) -> tuple[Session, dict]:
    """What a save file holds, through real JSON text, loaded back."""
    document = json.loads(json.dumps(session.to_document()))
    loaded, report = Session.from_document(GAME, document)
    assert report.ok, report.message
    assert report.actions == len(session.actions) and not report.data_changed
    return loaded, document


@settings(max_examples=20, deadline=None)
@given(game=games(), seed=SEEDS, policy=st.sampled_from(POLICIES),
       n_actions=st.integers(min_value=0, max_value=160),
       cuts=st.lists(st.floats(min_value=0, max_value=1), min_size=1, max_size=3))
@example(game=("3", {}), seed=11, policy="bot", n_actions=160, cuts=[0.0, 0.5, 1.0])
@example(game=("7", {"base": "2"}), seed=3, policy="random", n_actions=120, cuts=[0.3])
def test_replay_equals_incremental_play_at_any_cut(game, seed, policy, n_actions, cuts):
    """SGE-DICE-10: a save taken anywhere replays bit-exact and plays on to the same end."""
    scenario, options = game
    rng = Rng.from_seed(seed, stream=99)
    session = Session.new(GAME, scenario, seed, options)
    actions = []
    while len(actions) < n_actions and GAME.outcome(session.state) is None:
        role = session.state["pending"]["role"]
        action = GAME.choose_action(session.state, role, policy, rng)
        session.perform(role, action, copy=False)
        actions.append(action)
    at = sorted({round(c * len(actions)) for c in cuts})
    final = session.to_document()

    straight = Session.new(GAME, scenario, seed, options)
    for k in range(len(actions) + 1):
        if k in at:
            loaded, document = save_and_load(straight)
            assert GAME.digest(loaded.state) == GAME.digest(straight.state) \
                == document["digests"][-1]["digest"]
            assert loaded.state == straight.state and loaded.actions == straight.actions
            for action in actions[k:]:                          # play on from the save
                loaded.perform("imperial", action, copy=False)
            assert GAME.digest(loaded.state) == GAME.digest(session.state)
            # Saved again, it is the very file the uninterrupted game saves: same header,
            # actions, periodic digests (the one at the cut included) and snapshot.
            assert json.loads(json.dumps(loaded.to_document())) == json.loads(json.dumps(final))
        if k < len(actions):
            straight.perform("imperial", actions[k], copy=True)   # the UI's path
    assert GAME.digest(straight.state) == GAME.digest(session.state)


def test_a_game_saved_on_a_digest_boundary_keeps_that_digest_after_loading():
    """SGE-DICE-10: saved after exactly DIGEST_EVERY actions, loaded and played on, the game
    saves the same digests as the one played straight through."""
    rng = Rng.from_seed(11, stream=99)
    session = Session.new(GAME, "3", 11)
    for _ in range(DIGEST_EVERY):
        session.perform("imperial", GAME.choose_action(session.state, "imperial", "bot", rng),
                        copy=False)
    loaded, _ = save_and_load(session)
    for _ in range(5):
        action = GAME.choose_action(session.state, "imperial", "bot", rng)
        session.perform("imperial", action, copy=False)
        loaded.perform("imperial", action, copy=False)
    assert loaded.to_document()["digests"] == session.to_document()["digests"]
