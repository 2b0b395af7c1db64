"""Why a fleet may not be deployed or given a target, or a region resolved, now: the refusal
names the rule's reason (the window shows it when a fleet that may not move is dragged, or a
region that may not be resolved is clicked), not only "assign is not possible now"."""

from __future__ import annotations

from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.session import Session
from struggle_desktop.games.battles import GAME


def session_at(kind: str, seed: int = 3, when=lambda state: True) -> Session:
    """A civil-war game played by the program on both sides until a ``kind`` prompt waits
    and ``when(state)`` holds."""
    session = Session.new(GAME, "civil-war", seed, {})
    rng = Rng.from_seed(seed, stream=99)
    for _ in range(600):
        pending = session.state["pending"]
        if pending["kind"] == kind and when(session.state):
            return session
        session.perform(pending["role"], session.choose(pending["role"], "bot", rng))
    raise AssertionError(f"no {kind} prompt")


def at(state: dict, side: str, where: str) -> list[str]:
    return sorted(f for f, fleet in state["fleets"].items()
                  if fleet["owner"] == side and fleet["at"] == where)


def test_deploying_names_whose_fleet_it_is_and_where_it_stands():
    """BFG-DEP-1, BFG-DEP-5: only the fleets on the deploying player's own display are
    assigned; the others' reasons say whose fleet it is or where it is."""
    session = session_at("deploy", when=lambda s: at(s, s["pending"]["role"], "garrison"))
    state = session.state
    side = state["pending"]["role"]
    other = "red" if side == "blue" else "blue"
    mine = at(state, side, "display")[0]
    assert GAME.check_action(state, side, {"verb": "assign", "fleet": mine, "region": 2}) is None
    theirs = sorted(f for f in state["fleets"] if state["fleets"][f]["owner"] == other)[0]
    reason = GAME.check_action(state, side, {"verb": "assign", "fleet": theirs, "region": 2})
    assert reason == f"{theirs} is {other.capitalize()}'s fleet, not {side.capitalize()}'s"
    garrison = at(state, side, "garrison")[0]
    region = GAME.data.region_names[state["fleets"][garrison]["region"]]
    reason = GAME.check_action(state, side, {"verb": "assign", "fleet": garrison, "region": 2})
    assert reason.startswith(f"{garrison} garrisons {region}: a garrison stays"), reason


def test_assigning_outside_the_deployment_says_when_fleets_are_deployed():
    """BFG-DEP-1: fleets are assigned to regions while deploying."""
    session = session_at("build")
    state = session.state
    side = state["pending"]["role"]
    reason = GAME.check_action(state, side, {"verb": "assign", "fleet": "B-SF1", "region": 1})
    assert reason.startswith("fleets are assigned to regions in the Deployment phase, not now")


def test_a_resolved_region_says_it_was_resolved_and_which_are_left():
    """BFG-ACT-4: each region is resolved once a turn."""
    session = session_at("action", when=lambda s: any(
        r["resolved"] for r in s["regions"].values()))
    state = session.state
    side = state["pending"]["role"]
    done = next(int(n) for n, r in state["regions"].items() if r["resolved"])
    left = [GAME.data.region_names[int(n)] for n, r in sorted(state["regions"].items())
            if not r["resolved"]]
    reason = GAME.check_action(state, side, {"verb": "resolve", "region": done})
    assert reason == (f"{GAME.data.region_names[done]} has been resolved this turn; still to "
                      f"resolve: {', '.join(left)}")
    reason = GAME.check_action(session_at("build").state, "blue",
                               {"verb": "resolve", "region": 1})
    assert reason.startswith("regions are resolved as an action of the Actions phase, not now")


def test_a_fleet_that_may_not_fire_says_why():
    """BFG-CMB-3, BFG-CMB-4: a fleet fires in a segment when it is in the fight with a value
    there above 0, once; another's fleet, one elsewhere and one with a target already are
    refused with that reason."""
    session = session_at("targets")
    state = session.state
    side = state["pending"]["role"]
    battle = state["battle"]
    legal = [a for a in GAME.legal_actions(state, side) if a["verb"] == "target"]
    firer, target = legal[0]["firer"], legal[0]["target"]
    assert GAME.check_action(state, side, {"verb": "target", "firer": target,
                                           "target": firer}).endswith(
        f"'s fleet, not {side.capitalize()}'s")
    elsewhere = next(f for f, fleet in sorted(state["fleets"].items())
                     if fleet["owner"] == side and fleet["region"] != battle["region"])
    reason = GAME.check_action(state, side, {"verb": "target", "firer": elsewhere,
                                             "target": target})
    assert reason == (f"{elsewhere} is not in the fight in "
                      f"{GAME.data.region_names[battle['region']]}")
    after = GAME.advance(GAME.apply(state, side, legal[0]))
    assert after["pending"]["kind"] == "targets" and after["pending"]["role"] == side
    reason = GAME.check_action(after, side, {"verb": "target", "firer": firer,
                                             "target": target})
    assert reason.startswith(f"{firer} already fires at {target}"), reason


def test_a_fleet_with_no_value_in_the_segment_does_not_fire():
    """BFG-CMB-3: a fleet in the fight whose value for the segment is 0 fires nothing in it."""
    def idle_in_the_fight(state):
        battle, side = state["battle"], state["pending"]["role"]
        return any(f["owner"] == side and f["region"] == battle["region"]
                   and f["at"] in ("map", "garrison") and f["type"] == "CG"
                   and battle["segment"] == "mil" for f in state["fleets"].values())
    session = session_at("targets", when=idle_in_the_fight)
    state = session.state
    side = state["pending"]["role"]
    idle = next(fid for fid, f in sorted(state["fleets"].items())
                if f["owner"] == side and f["region"] == state["battle"]["region"]
                and f["at"] in ("map", "garrison") and f["type"] == "CG")
    target = next(a["target"] for a in GAME.legal_actions(state, side) if a["verb"] == "target")
    reason = GAME.check_action(state, side, {"verb": "target", "firer": idle, "target": target})
    assert reason == f"{idle} does not fire in the Military segment (its value there is 0)"
