"""A whole Battles position imagined from one player's view (BFG-HID-2, BFG-HID-3, BFG-HID-10).

``struggle-desktop forecast FILE --side X`` plays every game on from such a position, so that
its figures rest on what X may know and nothing else. It starts from ``view(state, X)`` (the
public information and X's own hand, set-aside chits and plan) and fills in what the view
hides, with a generator of its own:

- every chit X has not seen (not in X's hand or set-aside chits, not played, not on a fleet)
  is dealt at random: first each side's own chit pool, from that side's half of the counter
  mix in a split game (BFG-SCN-3: own pools only ever shrink), then the other player's hand
  and set-aside chits, the rest to the common pool; every count is the public one;
- the other player's deployment plan, if they have made it and X has not yet seen it, is set
  aside and that player is asked to deploy again after X (BFG-HID-5): a plan drawn at random
  could not be told from a poor one, and a plan made anew by the program player fits the hand
  it was just dealt; both plans are still revealed together, so the game stays legal;
- likewise a secret disengagement choice the other player has made and X has not seen
  (BFG-HID-6) is set aside, and that player chooses again once X has.

Two positions X cannot tell apart give the same imagined position for the same seed (the
procedure stack is taken from the state, but only its public steps: the set-aside answers are
gone before anything else is read).
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.battles.context import chit_sort_key, other
from struggle_desktop.games.battles.setup import chit_ids

#: The generator stream of the imagining (the game's dice and the program players use others).
IMAGINE_STREAM = 23


def own_half(game, side: str) -> set[str]:
    """The chits of ``side``'s own pool at the set-up of a split game (BFG-SCN-3): the first
    half of each kind for Blue, the second for Red (games/battles/setup.py)."""
    chits: set[str] = set()
    for kind_chits in chit_ids(game.data).values():
        half = len(kind_chits) // 2
        chits.update(kind_chits[:half] if side == "blue" else kind_chits[half:])
    return chits


def public_stack(stack: list[dict], side: str, secret_disengagement: bool) -> list[dict]:
    """The procedure stack with the other player's answers that ``side`` has not seen set
    aside: a finished deployment plan (BFG-HID-5) and a disengagement choice (BFG-HID-6)."""
    stack = clone(stack)
    enemy = other(side)
    for frame in stack:
        if frame.get("proc") == "deployment" and not frame.get("open"):
            frame["done"] = [s for s in frame.get("done", []) if s != enemy]
        if frame.get("proc") == "resolve" and secret_disengagement and "choices" in frame:
            frame["choices"].pop(enemy, None)
    return stack


def imagined_state(game, state: dict, role: str, seed: int) -> dict:
    """The position as ``role`` may imagine it (see the module's docstring), drawn with a
    generator seeded from ``seed``; the game's own generator is seeded from ``seed`` too."""
    if role not in game.roles:
        raise ValueError(f"no side {role!r} in Battles")
    view = game.view(state, role)
    rng = Rng.from_seed(seed, stream=IMAGINE_STREAM)
    sim = {k: v for k, v in view.items() if k not in ("legal_actions", "role")}
    sim["stack"] = public_stack(state["stack"], role,
                                bool(state["options"].get("secret_disengagement")))
    sim["rng"] = Rng.from_seed(seed).to_json()
    enemy = other(role)
    players = sim["players"]
    me, them = players[role], players[enemy]
    pool_count = sim.pop("chit_pool_count")
    own_counts = {side: players[side].pop("own_chits_count") for side in (role, enemy)}
    seen = set(me["hand"]) | set(me["discards"]) | set(sim["played"]) | {
        f["tactical"] for f in sim["fleets"].values() if f["tactical"]}
    if "hand" in them:                          # open hands (BFG-HID-8)
        seen |= set(them["hand"])
    unseen = sorted((c for chits in chit_ids(game.data).values() for c in chits
                     if c not in seen), key=chit_sort_key)

    def deal(count: int, eligible=None) -> list[str]:
        """``count`` chits drawn from the unseen ones (those in ``eligible`` if given)."""
        drawn = []
        for _ in range(count):
            choices = [c for c in unseen if eligible is None or c in eligible] or unseen
            chit = choices[rng.below(len(choices))]
            unseen.remove(chit)
            drawn.append(chit)
        return sorted(drawn, key=chit_sort_key)

    split = sim["scenario_data"].get("chit_pools") == "split"
    for side in ("blue", "red"):
        players[side]["own_chits"] = deal(own_counts[side],
                                          own_half(game, side) if split else None)
    if "hand" not in them:
        them["hand"] = deal(them.pop("hand_count"))
    them["discards"] = deal(them.pop("discard_count"))
    them["deploy"] = []                         # set aside: they deploy again (BFG-HID-5)
    sim["chit_pool"] = deal(max(pool_count, len(unseen)))
    return sim
