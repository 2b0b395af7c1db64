"""A whole Freedom position imagined from one side's view (FIG-EVT-2, FIG-EVT-12).

Only the events deck (Part C) keeps things from one side that the other knows: each side's
secret cards in hand and its secret deck (FIG-EVT-12), a card the First Right holder wants to
play (FIG-EVT-6), the cards a side drew from its secret deck and is choosing from. The
Mission phase (Part A) and the chit mug (Part B) hide nothing from one side that the other
sees, so there the position is played on as it stands, with new dice.

For the events deck, ``struggle-desktop forecast FILE --side X`` plays every game on from the
view of X (redacted as ``deck.redact`` does) with what it hides drawn anew:

- the other side's secret cards that X has not seen are dealt between its hand (the cards
  that are not historic; the historic ones are shown) and its secret deck, in the public
  counts; X's own secret deck holds the cards X knows are in it, in a new order;
- the decks and the cards removed unseen (hidden from both sides, their order too) are made
  of the Galactic and Major cards nobody has seen, shuffled anew (a historic card not seen
  yet lies on top of the G deck, where the set-up put it), and so are the face-down cards
  beneath a trigger card (its Major cards first, then its Galactic ones, FIG-EVT-8);
- a card the other side (holding the First Right) wants to play is drawn from its imagined
  hand, and the cards it drew from its secret deck to keep one are the top of its imagined
  deck: both are draws the rules could have made, so the game stays legal;
- the scenario's fixed set-up (which names both hands) is set aside: it is read only while
  the set-up runs, and then each side picks its cards as the rules ask.
"""

from __future__ import annotations

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom.deck_data import deck_tables, kind_of
from struggle_desktop.games.freedom.data import data_or_default

#: The generator stream of the imagining (the game's dice and the program players use others).
IMAGINE_STREAM = 23
SIDES = ("rebel", "imperial")


def imagined_state(game, state: dict, role: str, seed: int) -> dict:
    """The position as side ``role`` may know it (see the module's docstring)."""
    if role not in game.roles:
        raise ValueError(f"no side {role!r} in Freedom")
    if state.get("kind", "mission-phase") != "events-deck":
        sim = clone(state)
        sim["rng"] = Rng.from_seed(seed).to_json()
        return sim
    view = game.view(state, role)
    sim = {k: v for k, v in view.items() if k not in ("legal_actions", "role")}
    sim["stack"] = clone(state["stack"])
    rng = Rng.from_seed(seed, stream=IMAGINE_STREAM)
    t = deck_tables(data_or_default(game.data))
    enemy = next(s for s in SIDES if s != role)
    places = sim["places"]

    def shuffled(cards: list[str]) -> list[str]:
        cards = sorted(cards)
        return [cards.pop(rng.below(len(cards))) for _ in range(len(cards))]

    # What X sees where, and so which cards it has not seen.
    seen: set[str] = set()
    for key in ("discard", "historic", "lasting", "retired"):
        seen.update(places[key])
    seen.update(e["card"] for box in ("new", "due") for e in places[box] if e["card"])
    seen.update(places["hands"][role])
    seen.update(places["hands"][enemy]["historic"])
    unseen = {kind: shuffled([c for c in t.of_kind(kind) if c not in seen])
              for kind in ("galactic", "major", "imperial_secret", "rebel_secret",
                           "historic")}
    mine = {"rebel": "rebel_secret", "imperial": "imperial_secret"}

    def deal(kind: str, count: int) -> list[str]:
        """``count`` cards nobody X knows of has seen, of ``kind`` first, then of any kind
        (should a hand hold a card taken from a box, FIG-EVT-24)."""
        cards = []
        for pool in [unseen[kind]] + [unseen[k] for k in unseen if k != kind]:
            while pool and len(cards) < count:
                cards.append(pool.pop())
        return cards

    # The face-down cards beneath each trigger card: its Major cards, then its Galactic ones.
    beneath: dict[str, int] = {}
    for box in ("new", "due"):
        for e in places[box]:
            if e["card"] is None:
                n = beneath.get(e["with"], 0)
                beneath[e["with"]] = n + 1
                trig = (t.card(e["with"]).trigger or {}) if e["with"] else {}
                kind = "major" if n < trig.get("face_down_m", 0) else "galactic"
                e["card"] = deal(kind, 1)[0]
    own_deck = deal(mine[role], places["secret_decks"][role])
    for frame in sim["stack"]:
        if frame.get("proc") == "deck_secret" and frame.get("private") == role:
            # X is choosing among the cards it drew: they are still the top of its deck.
            own_deck = list(frame["drawn"]) + [c for c in own_deck if c not in frame["drawn"]]
    places["secret_decks"][role] = own_deck
    enemy_hand = places["hands"][enemy]
    hidden = enemy_hand["count"] - len(enemy_hand["historic"])
    enemy_deck = deal(mine[enemy], places["secret_decks"][enemy])
    hand = deal(mine[enemy], hidden) + list(enemy_hand["historic"])
    places["hands"][enemy] = sorted(hand)
    places["secret_decks"][enemy] = enemy_deck
    places["m_deck"] = deal("major", places["m_deck"])
    # A historic card nobody has seen lies on top of the G deck, as the set-up put it there
    # (FIG-EVT-3 names the cards on top, face-down).
    on_top = deal("historic", min(len(unseen["historic"]), places["g_deck"]))
    places["removed"] = deal("galactic", places["removed"])
    places["g_deck"] = on_top + deal("galactic", places["g_deck"] - len(on_top))
    sim["setup"] = {}
    # The other side's secrets in the stack and its prompt, drawn from what was just dealt.
    leave = t.leave_undrawn
    for frame in sim["stack"]:
        if frame.get("proc") == "deck_secret" and frame.get("private") == enemy:
            deck = places["secret_decks"][enemy]
            frame["drawn"] = deck[:len(deck) - leave]
            pending = sim.get("pending")
            if pending and pending["role"] == enemy and pending["kind"] == "deck_keep_secret":
                pending["cards"] = list(frame["drawn"])
        if frame.get("proc") == "deck_plays" and "card" in frame and sim["first_right"] == enemy:
            hand = places["hands"][enemy]
            frame["card"] = hand[rng.below(len(hand))]
    sim["rng"] = Rng.from_seed(seed).to_json()
    return sim
