"""Why a jumpship may not jump: the refusal names the rule's reason (the window shows it when
a ship that may not move is dragged, or is dropped where it cannot go), not only "jump is not
possible now"."""

from __future__ import annotations

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.nobles import GAME

OPTIONS = {"houses": 2, "obstacles": 3, "jump_stations": 1, "empty_systems": 1,
           "stargate_pairs": 1, "seat1": "ai", "seat2": "ai"}


def session_at(kind: str, when=lambda session: True) -> Session:
    session = Session.new(GAME, "standard", 1, dict(OPTIONS))
    rng = Rng.from_seed(1, stream=99)
    for _ in range(800):
        pending = session.state["pending"]
        if pending["kind"] == kind and when(session):
            return session
        session.perform(pending["role"], session.choose(pending["role"], "bot", rng))
    raise AssertionError(f"no {kind} prompt")


def ships(state: dict, owner: str) -> list[str]:
    return sorted(uid for uid, u in state["units"].items()
                  if u["owner"] == owner and GAME.data.units[u["type"]].is_ship)


def test_outside_the_movement_phase_a_jump_says_when_ships_jump():
    """NH-MOV-13: ships move in the Movement phase."""
    state = session_at("recruit").state
    role = state["pending"]["role"]
    reason = GAME.refusal(GAME.context(state), state["pending"],
                          {"verb": "jump", "ship": ships(state, role)[0], "to": [1, 1]})
    assert reason.startswith("ships jump in the Movement phase, not now"), reason


def test_a_ship_of_another_house_or_one_that_has_moved_says_so():
    """NH-MOV-13, NH-MOV-14: a house moves its own ships, each once a turn."""
    def a_ship_jumped(session):
        state = session.state
        return any(state["units"][s]["moved"] for s in ships(state, state["pending"]["role"]))
    state = session_at("move", a_ship_jumped).state
    role = state["pending"]["role"]
    other = next(letter for letter in ("A", "B") if letter != role)
    moved = next(s for s in ships(state, role) if state["units"][s]["moved"])
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": moved, "to": [1, 1]})
    assert reason == f"{moved} has moved this turn already"
    theirs = ships(state, other)[0]
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": theirs, "to": [1, 1]})
    assert reason == f"{theirs} belongs to house {other}, not to house {role}"


def test_a_jump_out_of_reach_says_why_the_hex_cannot_be_reached():
    """NH-MOV-3, NH-MOV-5, NH-MOV-6: a jump ends in a system, enters no obstacle and goes at
    most the jump range."""
    def may_jump(session):
        return any(a["verb"] == "jump" for a in GAME.legal_actions(session.state, 
            session.state["pending"]["role"]))
    session = session_at("move", may_jump)
    state, role = session.state, session.state["pending"]["role"]
    jump = next(a for a in GAME.legal_actions(session.state, role) if a["verb"] == "jump")
    ship, start = jump["ship"], state["units"][jump["ship"]]["hex"]
    game_map = state["map"]
    features = game_map["features"]
    obstacle = next(k for k, f in features.items() if f["kind"] == "obstacle")
    x, y = (int(v) for v in obstacle.split(","))
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": ship, "to": [x, y]})
    assert reason == (f"({x},{y}) is a {features[obstacle]['obstacle'].replace('_', ' ')}: "
                      "no jumpship enters it")
    space = next([x, y] for x in range(1, game_map["width"] + 1)
                 for y in range(1, game_map["height"] + 1) if f"{x},{y}" not in features)
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": ship, "to": space})
    assert reason == f"({space[0]},{space[1]}) is empty space: a jump ends in a system"
    reach = {tuple(a["to"]) for a in GAME.legal_actions(session.state, role)
             if a["verb"] == "jump" and a["ship"] == ship}
    far = next(k for k, f in sorted(features.items()) if f["kind"] != "obstacle"
               and tuple(int(v) for v in k.split(",")) not in reach | {tuple(start)})
    x, y = (int(v) for v in far.split(","))
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": ship, "to": [x, y]})
    assert reason.startswith(f"{ship} cannot reach ({x},{y}) from ({start[0]},{start[1]}): a "
                             f"jump goes at most {state['options']['jump_range']} hexes"), reason
    reason = GAME.check_action(state, role, {"verb": "jump", "ship": ship, "to": [0, 99]})
    assert reason == "(0,99) is off the map"
