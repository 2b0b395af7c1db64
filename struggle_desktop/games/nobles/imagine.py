"""A whole Noble Houses position imagined from one house's view (NH-SIM-1, NH-SIM-2).

Everything in Noble Houses is open (NH-SIM-1) but the declarations of a simultaneous step that
not every house has made yet (NH-SIM-2): nuke launches (NH-NUK-3) and sacrifices (NH-ABIL-12).
They wait in the procedure stack, which no view shows. ``struggle-desktop forecast FILE --side
X`` plays every game on from the position as X may know it: the view of X, the stack with every
other house's pending declarations of such a step set aside (and those houses no longer counted
as having committed), so that each of them declares again, from its own view, once it is asked.
Setting aside rather than drawing declarations at random keeps every answer one the house's
program player chose for the position, and keeps the step legal: the houses still commit before
anything is revealed, only in a different order.

Nothing else is hidden, so no other part needs imagining; the generator is new (seeded from the
seed given), as no view shows it.
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng


def public_stack(stack: list[dict], house: str) -> list[dict]:
    """The procedure stack with every pending declaration of a house other than ``house`` set
    aside (NH-SIM-2)."""
    stack = clone(stack)
    for frame in stack:
        if frame.get("proc") == "nuke_hex" and frame.get("step") == "declare":
            declared = frame.get("declared", {})
            frame["declared"] = {house: declared[house]} if house in declared else {}
        if frame.get("proc") == "battle" and frame.get("step") == "sacrifice":
            sacrifices = frame.get("sacrifices", {})
            frame["sacrifices"] = {x: (list(v) if x == house else [])
                                   for x, v in sacrifices.items()}
            frame["done"] = [x for x in frame.get("done", []) if x == house]
    return stack


def imagined_state(game, state: dict, role: str, seed: int) -> dict:
    """The position as house ``role`` may know it (see the module's docstring)."""
    if role not in game.roles:
        raise ValueError(f"no house {role!r} in Noble Houses")
    view = game.view(state, role)
    sim = {k: v for k, v in view.items() if k not in ("legal_actions", "role")}
    sim["stack"] = public_stack(state["stack"], role)
    exchange = sim.get("exchange")
    if exchange is not None and any(f.get("proc") == "nuke_hex" and f.get("step") == "declare"
                                    for f in sim["stack"]):
        exchange["committed"] = [x for x in exchange.get("committed", []) if x == role]
    sim["rng"] = Rng.from_seed(seed).to_json()
    return sim
