"""Part C: the galactic events deck and track manager (rules-freedom.md section 4, FIG-EVT).

The manager keeps seed 003's event cards on the Galactic Events Track, runs one Events Segment
per game turn (the Due box empties, a card may be played from hand under the First Right and
General Research protocol, otherwise the New box moves on and a Galactic card is drawn with
the Major cards it calls), deals secret cards, rolls the cards' sub-rolls and keeps the few
counters the protocol needs (First Right, General Research, force points). Card effects act on
the map, which the app does not hold: each is shown to the player concerned as the project's
paraphrase and reported for the players to apply (FIG-EVT-14).

Entry points (the contract with ``game.py``):

- :func:`new_state` ``(data, scenario, options, seed)``: the whole initial state of an
  ``events-deck`` scenario (its ``context`` is checked against
  ``schemas/deck_context.schema.yaml``); the set-up (FIG-EVT-3) runs as the first procedure;
- the procedures and prompts registered in :data:`~.registry.RULES` (names ``deck_*``), run
  with ``engine.flow.run`` on any Context whose ``data`` is a ``FreedomData`` (or on
  :class:`DeckContext`);
- :func:`choose` for the ``simple`` and ``random`` policies; :func:`redact` for a role's view
  (hidden decks, the other side's hand and private log entries left out);
  :func:`chit_cards` lists the cards in play that the chit mode must know (FIG-CHIT-24);
- :data:`OPTIONS`: this mode's options.

State (plain JSON). Common keys: ``game`` ("freedom"), ``scenario``, ``kind`` ("events-deck"),
``seed``, ``options`` (``g6_g7_secret_card``), ``rng``, ``stack``, ``pending``, ``log`` (an
entry with ``"private": side`` is that side's only), ``outcome`` (None, then the list of
changes), ``turn`` (the game turn of the Events Segment) and ``phase`` ("events"). This mode's
keys:

- ``last_turn``: the game turn after whose Events Segment the run ends (None: the players end
  it with ``finish``);
- ``places`` (FIG-EVT-2): ``g_deck``, ``m_deck`` (top first, hidden), ``removed`` (the G cards
  out of the deck, hidden), ``new`` and ``due`` (stacks of ``{"card", "up", "with" (the trigger
  card it was drawn for, or None), "played_by"}``), ``discard``, ``historic``, ``lasting``,
  ``retired`` (lasting cards the players retired), ``secret_decks`` and ``hands``
  (side -> card ids);
- ``first_right``: ``rebel`` or ``imperial``; ``general_research`` and ``force_points``: side ->
  number (FIG-EVT-7, FIG-EVT-22);
- ``rolls``: card -> the result of its sub-roll while it is in play (FIG-EVT-16 to -20);
- ``reductions``: General Research spent on G#1, G#2, G#3 ``{"card", "side", "part", "turn"}``
  (FIG-EVT-21);
- ``claims``: card -> ``open`` or ``claimed`` for a conditional secret card (H#1);
- ``clone``: IS#3's clone ``{"active", "unmasked", "leak"}`` (FIG-EVT-20);
- ``played``: the card played from hand in this Events Segment, or None;
- ``report``: the changes for the players, each ``{"rule", "turn", "text"}``.

Prompts (roles ``rebel`` and ``imperial``):

- ``deck_pick_secret``: ``{"verb": "pick", "card": C}``, twice per side at set-up (FIG-EVT-3);
- ``deck_play``: ``{"verb": "play", "card": C}`` or ``{"verb": "pass"}`` (FIG-EVT-4, FIG-EVT-6);
- ``deck_contest`` (the other side): ``{"verb": "contest"}`` or ``{"verb": "allow"}``;
  ``deck_prevail`` (the First Right holder): ``{"verb": "prevail"}`` or ``{"verb": "yield"}``;
  ``deck_forced_play`` (the contesting side): ``{"verb": "play", "card": C}`` (FIG-EVT-7);
- ``deck_card``: ``{"verb": "ok"}``: a card's effect shown to the side concerned (FIG-EVT-14);
- ``deck_keep_secret``: ``{"verb": "keep", "card": C}`` (FIG-EVT-12);
- ``deck_reduce``: ``{"verb": "spend", "card": C, "part": P}`` or ``{"verb": "decline"}``
  (FIG-EVT-21; ``part`` is ``a`` or ``b`` for G#1, else None);
- ``deck_m1_held`` (rebel): ``{"verb": "held", "possessions": [...]}`` (FIG-EVT-18);
- ``deck_leak_choice`` (imperial): ``{"verb": "leak", "character": N}`` (FIG-EVT-20);
- ``deck_count``: ``{"verb": "count", "planets": n}`` (M#30's controlled Ancore planets);
- ``deck_between``, each side after every Events Segment but the last: ``{"verb": "done"}``,
  ``{"verb": "finish"}``, ``{"verb": "adjust", "counter": "general_research" |
  "force_points", "by": n}``, ``{"verb": "take_historic", "card": H}`` (FIG-EVT-13),
  ``{"verb": "to_hand", "card": C}`` (FIG-EVT-24), ``{"verb": "claim", "card": C}``,
  ``{"verb": "clone_used"}`` (FIG-EVT-20) and ``{"verb": "retire", "card": C}`` (FIG-EVT-10).
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path
from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.data import validate
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.flow import Context
from struggle_desktop.engine.options import parse_bool
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom.data import FreedomData, data_or_default, default_data
from struggle_desktop.games.freedom.deck_data import DeckTables, deck_tables, kind_of
from struggle_desktop.games.freedom.context import ModeContext, other, shuffle
from struggle_desktop.games.freedom.registry import RULES

procedure = RULES.procedure
legal = RULES.legal

KIND = "events-deck"
SCHEMA = Path(__file__).resolve().parent / "schemas" / "deck_context.schema.yaml"
SIDES = ("rebel", "imperial")
#: The prompts' roles: the two sides (the Events Segment has no phasing side).
ROLES = SIDES
#: Possessions M#1 may take (FIG-EVT-18), in the order its faces name them.
THIEF_TARGETS = ("Advisor Android", "Charsot", "Cache of Rare Gems")
#: Loop guard for M#1's re-rolls (FIG-EVT-18 re-rolls until a held possession comes up).
MAX_THIEF_ROLLS = 100
#: M#30: the most Ancore planets a side can be asked about [DECIDED: the app has no map].
MAX_ANCORE_PLANETS = 6
#: With no last turn, the ``simple`` policy ends the run after this game turn.
SIMPLE_TURNS = 10
#: Counter changes offered between segments (the players edit counters, FIG-EVT-7, FIG-EVT-22).
ADJUSTMENTS = (-5, -1, 1, 5)
MOMENT_LABEL = {"up": "turned face-up", "due": "due", "played": "played from hand"}
#: Which card fields each moment shows and applies (FIG-EVT-14).
MOMENT_FIELDS = {"up": ("on_draw", "while_face_up"), "due": ("on_due",),
                 "played": ("when_played",)}

OPTIONS = {
    "g6_g7_secret_card": {"type": "bool", "default": False, "rule": "FIG-EVT-23",
                          "help": "G#6 and G#7 also give a secret card when due, as the "
                                  "printed cards say"},
}


class DeckContext(ModeContext):
    """The events-deck mode's flow context (see ``context.ModeContext``)."""


def tables(ctx: Context) -> DeckTables:
    """The Part C tables of whatever context runs the mode (its ``data``, else the default)."""
    return deck_tables(data_or_default(getattr(ctx, "data", None)))


# ================================================================================ set-up
def option_values(options: dict | None) -> dict:
    """This mode's options checked, with their defaults filled in (BadOption if not on/off)."""
    options = dict(options or {})
    return {key: parse_bool(key, options.get(key, spec["default"]))
            for key, spec in OPTIONS.items()}


def new_state(data: FreedomData, scenario: dict, options: dict | None, seed: int) -> dict:
    """The initial state of an ``events-deck`` scenario; the set-up itself (FIG-EVT-3) is the
    first procedure, so that its shuffles and picks are logged and can be scripted."""
    context = scenario["context"]
    validate(context, SCHEMA, f"scenario {scenario.get('id')!r} context")
    t = deck_tables(data_or_default(data))
    _check_setup(scenario.get("id"), t, context.get("setup", {}))
    first = context.get("first_turn", 1)
    last = context.get("last_turn")
    if last is not None and last < first:
        raise DataError(f"scenario {scenario.get('id')!r} context: last_turn before first_turn")
    return {
        "game": "freedom", "scenario": scenario.get("id"), "kind": KIND, "seed": seed,
        "options": option_values(options), "rng": Rng.from_seed(seed).to_json(),
        "stack": [{"proc": "deck_game", "step": "setup"}], "pending": None, "log": [],
        "outcome": None, "turn": first, "phase": "events", "last_turn": last,
        "setup": clone(context.get("setup", {})),
        "places": {"g_deck": [], "m_deck": [], "removed": [], "new": [], "due": [],
                   "discard": [], "historic": [], "lasting": [], "retired": [],
                   "secret_decks": {"rebel": [], "imperial": []},
                   "hands": {"rebel": [], "imperial": []}},
        "first_right": context.get("first_right", t.setup["first_right"]),
        "general_research": {s: context.get("general_research", {}).get(s, 0) for s in SIDES},
        "force_points": {s: context.get("force_points", {}).get(s, 0) for s in SIDES},
        "rolls": {}, "reductions": [], "claims": {},
        "clone": {"active": False, "unmasked": False, "leak": None},
        "played": None, "report": [],
    }


def _check_setup(sid, t: DeckTables, setup: dict) -> None:
    """A scenario may fix parts of the set-up (the reference's C1 does); they must be a
    possible outcome of FIG-EVT-3."""
    where = f"scenario {sid!r} context setup"
    g_cards = set(t.of_kind("galactic"))
    removed = setup.get("removed")
    if removed is not None and (len(removed) != t.setup["g_removed"]
                                or not set(removed) <= g_cards):
        raise DataError(f"{where}: removed must be {t.setup['g_removed']} Galactic cards")
    top = setup.get("g_deck_top")
    if top is not None:
        heads = set(t.setup["g_deck_top"])
        if set(top[:len(heads)]) != heads or not set(top[len(heads):]) <= g_cards:
            raise DataError(f"{where}: g_deck_top must start with "
                            f"{' and '.join(sorted(heads))}, then Galactic cards")
        if removed is not None and set(top) & set(removed):
            raise DataError(f"{where}: a removed card cannot be on the G deck")
    m_top = setup.get("m_deck_top")
    if m_top is not None and not set(m_top) <= set(t.of_kind("major")):
        raise DataError(f"{where}: m_deck_top must list Major cards")
    for side, hand in (setup.get("hands") or {}).items():
        if len(hand) != t.setup["secret_in_hand"] or not set(hand) <= set(t.secret_cards(side)):
            raise DataError(f"{where}: the {side} hand must hold "
                            f"{t.setup['secret_in_hand']} of its own secret cards")


@procedure("deck_game")
def deck_game(ctx: Context, frame: dict) -> None:
    """Set-up, then one Events Segment per game turn; the players' manual moves between them;
    the report when the last turn is done or the players finish."""
    state = ctx.state
    step = frame["step"]
    if step == "setup":
        frame["step"] = "segment"
        ctx.push("deck_setup", step="first_right")
    elif step == "segment":
        frame["step"] = "after"
        note(ctx, "FIG-EVT-4", f"Events Segment of game turn {state['turn']}")
        ctx.push("deck_segment", step="due_out")
    elif step == "after":
        if frame.get("finish") or (state["last_turn"] is not None
                                   and state["turn"] >= state["last_turn"]):
            ctx.pop()
            _finish(ctx)
            return
        frame["step"] = "next"
        ctx.push("deck_between", sides=list(SIDES))
    elif step == "next":
        if frame.get("finish"):
            frame["step"] = "after"
            return
        state["turn"] += 1
        frame["step"] = "segment"


@procedure("deck_setup")
def deck_setup(ctx: Context, frame: dict) -> None:
    """FIG-EVT-3, step by step; parts the scenario fixes are taken as given."""
    state = ctx.state
    t = tables(ctx)
    places = state["places"]
    fixed = state["setup"]
    step = frame["step"]
    if step == "first_right":
        note(ctx, "FIG-EVT-3", f"the First Right marker goes to the {state['first_right']}")
        frame["step"] = "decks"
        step = "decks"
    if step == "decks":
        galactic = list(t.of_kind("galactic"))
        n_removed = t.setup["g_removed"]
        top = [c for c in fixed.get("g_deck_top", []) if kind_of(c) == "galactic"]
        if fixed.get("removed") is not None:
            removed = list(fixed["removed"])
            rest = [c for c in galactic if c not in removed and c not in top]
            rest = shuffle(ctx, rest, "FIG-EVT-3", "the Galactic cards below the given top")
        else:
            rest = [c for c in galactic if c not in top]
            rest = shuffle(ctx, rest, "FIG-EVT-3", "the Galactic cards")
            removed, rest = rest[:n_removed], rest[n_removed:]
        places["removed"] = removed
        places["g_deck"] = top + rest
        note(ctx, "FIG-EVT-3", f"{len(removed)} Galactic cards are removed unseen; the G deck "
             f"holds {len(places['g_deck'])}")
        m_top = list(fixed.get("m_deck_top", []))
        m_rest = [c for c in t.of_kind("major") if c not in m_top]
        places["m_deck"] = m_top + shuffle(ctx, m_rest, "FIG-EVT-3", "the Major cards"
                                           + (" below the given top" if m_top else ""))
        frame.update(step="hands", side=0)
        step = "hands"
    if step == "hands":
        if "answer" in frame:
            side = SIDES[frame["side"]]
            card = frame.pop("answer")["card"]
            places["hands"][side].append(card)
            private(ctx, side, "FIG-EVT-3", f"the {side} picks {card} for its hand")
        hands = fixed.get("hands") or {}
        while frame["side"] < len(SIDES):
            side = SIDES[frame["side"]]
            if side in hands:
                places["hands"][side] = list(hands[side])
            if len(places["hands"][side]) < t.setup["secret_in_hand"]:
                ctx.ask("deck_pick_secret", f"Pick a secret card for your hand "
                        f"({len(places['hands'][side]) + 1} of {t.setup['secret_in_hand']})",
                        role=side, rule="FIG-EVT-3")
                return
            places["secret_decks"][side] = [c for c in t.secret_cards(side)
                                            if c not in places["hands"][side]]
            note(ctx, "FIG-EVT-3", f"the {side} holds {len(places['hands'][side])} secret "
                 f"cards; {len(places['secret_decks'][side])} form its secret deck")
            frame["side"] += 1
        frame["step"] = "boxes"
        step = "boxes"
    if step == "boxes":
        places["new"] = [entry(c) for c in t.setup["new_box"]]
        note(ctx, "FIG-EVT-3", f"{', '.join(t.setup['new_box'])} goes face-up into the New box")
        heads = list(t.setup["g_deck_top"])
        given = [c for c in fixed.get("g_deck_top", []) if c in heads]
        if given:
            heads = given
        elif t.setup["g_deck_top_shuffled"]:
            heads = shuffle(ctx, heads, "FIG-EVT-3", f"{' and '.join(heads)}")
        places["g_deck"] = heads + places["g_deck"]
        note(ctx, "FIG-EVT-3", f"{' and '.join(sorted(heads))} lie face-down on top of the G "
             "deck")
        places["historic"] = list(t.setup["historic_stack"])
        note(ctx, "FIG-EVT-3", f"the historic stack: {', '.join(places['historic'])}")
        ctx.pop()


@legal("deck_pick_secret")
def legal_deck_pick_secret(ctx: Context, pending: dict) -> list[dict]:
    side = pending["role"]
    hand = ctx.state["places"]["hands"][side]
    return [{"verb": "pick", "card": c} for c in tables(ctx).secret_cards(side) if c not in hand]


# ================================================================================ helpers
def entry(card: str, up: bool = True, with_: str | None = None,
          played_by: str | None = None) -> dict:
    return {"card": card, "up": up, "with": with_, "played_by": played_by}


def note(ctx: Context, rule: str, text: str, refs=(), kind: str = "note") -> dict:
    return ctx.log(rule, kind, text, refs=list(refs))


def private(ctx: Context, side: str, rule: str, text: str, refs=()) -> dict:
    """A log entry only ``side`` may read (its hand, its secret deck)."""
    e = ctx.log(rule, "note", text, refs=list(refs))
    e["private"] = side
    return e


def report(ctx: Context, rule: str, text: str, refs=()) -> None:
    """A change for the players, logged and listed in the outcome."""
    ctx.state["report"].append({"rule": rule, "turn": ctx.state["turn"], "text": text})
    note(ctx, rule, text, refs=refs, kind="report")


def name(ctx: Context, card: str) -> str:
    """``G#5 Space Whale Migrations (Wex)``: the card with its sub-roll result in play."""
    c = tables(ctx).card(card)
    rolled = ctx.state["rolls"].get(card)
    return f"{card} {c.title}" + (f" ({describe_roll(rolled)})" if rolled else "")


def describe_roll(rolled: dict) -> str:
    for key in ("systems", "provinces"):
        if key in rolled:
            return ", ".join(str(x) for x in rolled[key]) or "none"
    for key in ("system", "possession", "character"):
        if rolled.get(key):
            return str(rolled[key])
    return "none"


def fp(ctx: Context, side: str, amount: int, why: str) -> None:
    """FIG-EVT-22: a card's force-point change; a cost may take the track below zero."""
    ctx.state["force_points"][side] += amount
    report(ctx, "FIG-EVT-22", f"{why}: {amount:+d} force points for the {side} (now "
           f"{ctx.state['force_points'][side]})")


def in_boxes(ctx: Context) -> list[dict]:
    places = ctx.state["places"]
    return places["new"] + places["due"]


def draw_g(ctx: Context, box: str, up: bool, with_: str | None = None) -> str | None:
    """The top G card into ``box``; as soon as the deck is empty it is rebuilt (FIG-EVT-11).
    None if even a rebuilt deck is empty (every other G card is in a box or a hand)."""
    places = ctx.state["places"]
    if not places["g_deck"]:
        rebuild(ctx)
    if not places["g_deck"]:
        note(ctx, "FIG-EVT-11", "no Galactic card is left to draw")
        return None
    card = places["g_deck"].pop(0)
    places[box].append(entry(card, up, with_))
    note(ctx, "FIG-EVT-4" if with_ is None else "FIG-EVT-8",
         f"{card if up else 'a Galactic card'} drawn into the {box.capitalize()} box"
         + (" face-up" if up and with_ else "" if up else f" face-down beneath {with_}"),
         refs=[card] if up else [], kind="draw")
    if not places["g_deck"]:
        rebuild(ctx)
    return card


def draw_m(ctx: Context, box: str, up: bool, with_: str) -> str | None:
    """The top M card for a trigger card (FIG-EVT-8). An empty M deck is first refilled from
    the discard pile [DECIDED: FIG-EVT-11 only refills it with the G deck, but a draw must
    not fail]; with none there either, nothing is drawn."""
    places = ctx.state["places"]
    if not places["m_deck"]:
        back = [c for c in places["discard"] if kind_of(c) == "major"]
        if back:
            places["discard"] = [c for c in places["discard"] if c not in back]
            places["m_deck"] = shuffle(ctx, back, "FIG-EVT-11", "the M deck is empty: the "
                                       "discarded Major cards")
        else:
            note(ctx, "FIG-EVT-8", f"no Major card is left to draw for {with_}")
            return None
    card = places["m_deck"].pop(0)
    places[box].append(entry(card, up, with_))
    note(ctx, "FIG-EVT-8", f"{card if up else 'a Major card'} drawn for {with_} "
         + ("face-up on top" if up else "face-down beneath"), refs=[card] if up else [],
         kind="draw")
    return card


def rebuild(ctx: Context) -> None:
    """FIG-EVT-11: a new G deck from the discarded and removed G cards (4 removed again), and
    a new M deck from the discarded and undrawn M cards; cards in the boxes stay."""
    places = ctx.state["places"]
    t = tables(ctx)
    g = [c for c in places["discard"] if kind_of(c) == "galactic"] + places["removed"]
    m = [c for c in places["discard"] if kind_of(c) == "major"] + places["m_deck"]
    places["discard"] = [c for c in places["discard"] if c not in g and c not in m]
    g = shuffle(ctx, g, "FIG-EVT-11", "the G deck is exhausted: the discarded and removed "
                "Galactic cards")
    # [DECIDED] With no more cards than are removed (nearly all G cards held in the boxes or
    # hands), fewer are removed so that the deck is not empty.
    n = min(t.exhaustion_removed, max(0, len(g) - 1))
    places["removed"], places["g_deck"] = g[:n], g[n:]
    places["m_deck"] = shuffle(ctx, m, "FIG-EVT-11", "the Major cards of the discard pile "
                               "and the M deck")
    note(ctx, "FIG-EVT-11", f"new G deck of {len(places['g_deck'])} cards ({n} removed "
         f"unseen), new M deck of {len(places['m_deck'])} cards")


def turn_up_draws(ctx: Context, card: str, box: str) -> list[dict]:
    """The cards a trigger card draws (FIG-EVT-8), and the moments to show for it and them.
    In the Due box everything comes face-up at once (FIG-EVT-9)."""
    c = tables(ctx).card(card)
    moments = [moment_frame(card, "up")]
    if box == "due":
        moments.append(moment_frame(card, "due"))
    trig = c.trigger
    if not trig:
        return moments
    for _ in range(trig["face_up_m"]):
        m = draw_m(ctx, box, True, card)
        if m:
            moments.append(moment_frame(m, "up"))
            if box == "due":
                moments.append(moment_frame(m, "due"))
    for _ in range(trig["face_down_m"]):
        m = draw_m(ctx, box, box == "due", card)
        if m and box == "due":
            moments += [moment_frame(m, "up"), moment_frame(m, "due")]
    for _ in range(trig["face_down_g"]):
        g = draw_g(ctx, box, box == "due", card)
        if g and box == "due":
            # FIG-EVT-9 [DECIDED]: drawn straight into the Due box, the hidden G card is up at
            # once and, if it is a trigger card, draws its own cards face-up too.
            moments += turn_up_draws(ctx, g, box)
    return moments


def moment_frame(card: str, moment: str, role: str | None = None) -> dict:
    return {"proc": "deck_moment", "card": card, "moment": moment, "role": role,
            "step": "roll"}


def push_all(ctx: Context, frames: list[dict]) -> None:
    """Push frames so that the first listed runs first."""
    for f in reversed(frames):
        f = dict(f)
        ctx.push(f.pop("proc"), **f)


# ================================================================================ the segment
@procedure("deck_segment")
def deck_segment(ctx: Context, frame: dict) -> None:
    """FIG-EVT-4: the Due box empties, a card may be played, else the New box moves on and a G
    card is drawn; then General Research reductions (FIG-EVT-21)."""
    state = ctx.state
    places = state["places"]
    t = tables(ctx)
    step = frame["step"]
    if step == "due_out":
        state["played"] = None
        if not places["due"]:
            note(ctx, "FIG-EVT-10", "the Due box is empty")
        for e in places["due"]:
            card = e["card"]
            where = t.after_due(card)
            places[where].append(card)
            state["rolls"].pop(card, None)
            state["reductions"] = [r for r in state["reductions"] if r["card"] != card]
            note(ctx, "FIG-EVT-10", f"{card} leaves the Due box for the "
                 f"{'discard pile' if where == 'discard' else 'lasting box'}", refs=[card])
        places["due"] = []
        frame["step"] = "leak"
        if clone_acts(ctx):
            ctx.push("deck_leak", step="roll")
        return
    if step == "leak":
        if state["turn"] in t.no_play_turns:
            note(ctx, "FIG-EVT-5", f"no card may be played from hand in game turn "
                 f"{state['turn']}")
            frame["step"] = "advance"
        else:
            frame["step"] = "after_plays"
            ctx.push("deck_plays", step="holder")
        return
    if step == "after_plays":
        if state["played"]:
            note(ctx, "FIG-EVT-4", f"{state['played']} was played: the New box stays and no "
                 "card is drawn")
            frame["step"] = "reduce"
        else:
            frame["step"] = "advance"
        return
    if step == "advance":
        moved = places["new"]
        places["new"] = []
        places["due"].extend(moved)
        if moved:
            note(ctx, "FIG-EVT-4", "the New box moves to the Due box: "
                 + ", ".join(e["card"] if e["up"] else "a face-down card" for e in moved))
        frame["step"] = "draw"
        push_all(ctx, [moment_frame(e["card"], "due") for e in moved if e["up"]])
        return
    if step == "draw":
        frame["step"] = "reduce"
        card = draw_g(ctx, "new", True)
        if card:
            push_all(ctx, turn_up_draws(ctx, card, "new"))
        return
    if step == "reduce":
        frame["step"] = "end"
        ctx.push("deck_reduce", side=0)
        return
    if step == "end":
        ctx.pop()
        new = ", ".join(name(ctx, e["card"]) if e["up"] else "a face-down card"
                        for e in places["new"]) or "empty"
        due = ", ".join(name(ctx, e["card"]) for e in places["due"]) or "empty"
        note(ctx, "FIG-EVT-4", f"end of the Events Segment: New {new}; Due {due}; First Right "
             f"{state['first_right']}")


# ================================================================================ card moments
@procedure("deck_moment")
def deck_moment(ctx: Context, frame: dict) -> None:
    """A card at one of its moments (FIG-EVT-14): its sub-roll if it has one then, its text
    shown to the side concerned, then what the manager does itself."""
    t = tables(ctx)
    card = t.card(frame["card"])
    answer = frame.pop("answer", None)
    if frame["step"] == "roll":
        frame["step"] = "show"
        if not subroll(ctx, frame, card, answer):
            frame["step"] = "roll"
            return
    if frame["step"] == "show":
        frame["step"] = "apply"
        if frame.get("returned"):
            answer = None
        else:
            texts = [card.text(f) for f in MOMENT_FIELDS[frame["moment"]] if card.text(f)]
            if texts:
                role = frame["role"] or concerned(ctx, card, frame["moment"])
                what = f"{name(ctx, card.id)}, {MOMENT_LABEL[frame['moment']]}"
                report(ctx, "FIG-EVT-14", f"{what}: {' '.join(texts)}", refs=[card.id])
                ctx.ask("deck_card", f"{what}: {' '.join(texts)}", role=role, rule="FIG-EVT-14",
                        card=card.id, moment=frame["moment"])
                return
    if frame["step"] == "apply":
        ctx.pop()
        if frame.get("returned"):
            return
        follow = []
        for eff in card.effects(*MOMENT_FIELDS[frame["moment"]]):
            follow += apply_effect(ctx, card, eff, frame["moment"])
        push_all(ctx, follow)


@legal("deck_card")
def legal_deck_card(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "ok"}]


def concerned(ctx: Context, card, moment: str) -> str:
    """Who is shown a card [DECIDED: FIG-EVT-14 says "the player concerned"]: the card's own
    side (secret and historic cards), else the side named by its first effect with one, else
    the First Right holder."""
    if card.side in SIDES:
        return card.side
    for eff in card.effects(*MOMENT_FIELDS[moment]):
        if eff.get("side") in SIDES:
            return eff["side"]
    return ctx.state["first_right"]


def apply_effect(ctx: Context, card, eff, moment: str) -> list[dict]:
    """One effect the manager handles itself; returns frames to run next."""
    state = ctx.state
    key = eff["key"]
    sides = SIDES if eff.get("side") == "both" else (eff.get("side"),)
    if key == "force_points":
        if eff.get("per"):
            return [{"proc": "deck_count", "card": card.id, "side": s, "amount": eff["amount"]}
                    for s in order_from(state["first_right"]) if s in sides]
        for s in sides:
            fp(ctx, s, eff["amount"], name(ctx, card.id))
        return []
    if key == "secret_card":
        if eff.get("option") and not state["options"].get(eff["option"]):
            return []
        if eff.get("conditional"):
            state["claims"][card.id] = "open"
            note(ctx, "FIG-EVT-12", f"{card.id}: the {eff['side']} may claim a secret card once "
                 "the card's condition is met")
            return []
        return [{"proc": "deck_secret", "side": s, "step": "draw", "card": card.id}
                for s in order_from(state["first_right"]) if s in sides
                for _ in range(eff.get("amount", 1))]
    if key == "turn_up_hidden":
        return turn_up_hidden(ctx, card.id)
    if key in ("chit_flag", "chit_schedule", "chit_reminder"):
        note(ctx, "FIG-CHIT-24", f"{card.id} touches the chit mode while in play")
    return []


def order_from(first: str) -> tuple[str, str]:
    return (first, other(first))


def turn_up_hidden(ctx: Context, card: str) -> list[dict]:
    """FIG-EVT-8, FIG-EVT-9: the face-down cards beneath ``card`` in the Due box are turned up
    and take effect; a hidden trigger card draws its cards face-up at once."""
    follow = []
    for e in list(ctx.state["places"]["due"]):
        if e["with"] == card and not e["up"]:
            e["up"] = True
            note(ctx, "FIG-EVT-8", f"{e['card']} beneath {card} is turned face-up in the Due "
                 "box", refs=[e["card"]])
            rule = "FIG-EVT-9" if kind_of(e["card"]) == "galactic" else "FIG-EVT-8"
            if rule == "FIG-EVT-9":
                note(ctx, rule, f"{e['card']}, hidden by {card}, takes effect in the Due box")
            follow += turn_up_draws(ctx, e["card"], "due")
    return follow


# ================================================================================ sub-rolls
def subroll(ctx: Context, frame: dict, card, answer) -> bool:
    """The card's sub-roll at this moment (FIG-EVT-16, FIG-EVT-17, FIG-EVT-18, FIG-EVT-19; IS#3
    in deck_leak); False while a player is asked."""
    if card.sub_roll is None or card.id == "IS#3":
        return True
    table = tables(ctx).subroll_table(card.sub_roll)
    when = {"up": "on_draw", "due": "on_due"}.get(frame["moment"])
    if table["when"] != when:
        return True
    rolls = ctx.state["rolls"]
    if card.sub_roll == "g4_provinces":
        rolls[card.id] = {"provinces": roll_list(ctx, table, "province", "FIG-EVT-16",
                                                 "G#4 Plague: affected province")}
        report(ctx, "FIG-EVT-16", f"G#4 Plague strikes province(s) "
               f"{describe_roll(rolls[card.id])}")
    elif card.sub_roll == "m6_system":
        rolls[card.id] = {"systems": roll_list(ctx, table, "system", "FIG-EVT-19",
                                               "M#6 Deep Space Swarms: target system")}
        report(ctx, "FIG-EVT-19", f"M#6 Deep Space Swarms: {describe_roll(rolls[card.id])}")
    elif card.sub_roll == "g5_system":
        face = ctx.roll("d6", "FIG-EVT-17", "G#5 Space Whale Migrations: the system")
        rolls[card.id] = {"system": tables(ctx).subroll(card.sub_roll, face)["system"]}
        report(ctx, "FIG-EVT-17", f"G#5 Space Whale Migrations: {rolls[card.id]['system']}")
    elif card.sub_roll == "m1_possession":
        if answer is None:
            ctx.ask("deck_m1_held", "M#1 Thief!: which of Advisor Android, Charsot and Cache of "
                    "Rare Gems does the Rebel hold?", role="rebel", rule="FIG-EVT-18")
            return False
        thief(ctx, frame, card, table, answer["possessions"])
    return True


def roll_list(ctx: Context, table, key: str, rule: str, why: str) -> list:
    """G#4 and M#6: roll while rolls are pending, a 6 adding more; a result already obtained
    adds nothing; at most ``max_rolls`` rolls (the loop guard)."""
    pending, rolled, out = table["start_rolls"], 0, []
    while pending > 0 and rolled < table["max_rolls"]:
        face = ctx.roll("d6", rule, why)
        pending -= 1
        rolled += 1
        row = next(r for r in table["faces"] if r["face"] == face)
        if row.get(key) is not None and row[key] not in out:
            out.append(row[key])
        pending += row.get("extra_rolls", 0)
    if pending > 0:
        note(ctx, rule, f"{table['max_rolls']} rolls made: the rest are not rolled (loop guard)")
    return out


def thief(ctx: Context, frame: dict, card, table, held: list[str]) -> None:
    """FIG-EVT-18: with none of the three held, the card goes back into the M deck, which is
    reshuffled; otherwise roll until a held possession comes up."""
    places = ctx.state["places"]
    if not held:
        places["due"] = [e for e in places["due"] if e["card"] != card.id]
        places["new"] = [e for e in places["new"] if e["card"] != card.id]
        places["m_deck"] = shuffle(ctx, places["m_deck"] + [card.id], "FIG-EVT-18",
                                   "M#1 goes back into the M deck")
        report(ctx, "FIG-EVT-18", "M#1 Thief!: the Rebel holds none of the three, the card "
               "goes back into the M deck")
        frame["returned"] = True
        return
    for _ in range(MAX_THIEF_ROLLS):
        face = ctx.roll("d6", "FIG-EVT-18", "M#1 Thief!: the possession")
        got = tables(ctx).subroll(card.sub_roll, face)["possession"]
        if got in held:
            ctx.state["rolls"][card.id] = {"possession": got}
            report(ctx, "FIG-EVT-18", f"M#1 Thief!: {got} goes back to the possession deck")
            return
        note(ctx, "FIG-EVT-18", f"{got} is in the possession deck: rolled again")
    note(ctx, "FIG-EVT-18", "no held possession came up (loop guard)")


@legal("deck_m1_held")
def legal_deck_m1_held(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "held", "possessions": list(c)}
            for n in range(len(THIEF_TARGETS) + 1) for c in combinations(THIEF_TARGETS, n)]


@procedure("deck_count")
def deck_count(ctx: Context, frame: dict) -> None:
    """A force-point change per controlled planet (M#30): the side says how many it controls."""
    if "answer" not in frame:
        ctx.ask("deck_count", f"{name(ctx, frame['card'])}: how many Ancore planets does the "
                f"{frame['side']} control?", role=frame["side"], rule="FIG-EVT-22")
        return
    n = frame.pop("answer")["planets"]
    ctx.pop()
    if n:
        fp(ctx, frame["side"], frame["amount"] * n, f"{name(ctx, frame['card'])}, {n} planet(s)")


@legal("deck_count")
def legal_deck_count(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "count", "planets": n} for n in range(MAX_ANCORE_PLANETS + 1)]


# ================================================================================ IS#3
def clone_acts(ctx: Context) -> bool:
    c = ctx.state["clone"]
    return c["active"] and not c["unmasked"]


@procedure("deck_leak")
def deck_leak(ctx: Context, frame: dict) -> None:
    """FIG-EVT-20: which Rebel character leaks this turn; on a 6 the Imperial chooses."""
    t = tables(ctx)
    state = ctx.state
    if "answer" in frame:
        who = frame.pop("answer")["character"]
    else:
        face = ctx.roll("d6", "FIG-EVT-20", "IS#3 Secret Clone Project: the leak")
        row = t.subroll("is3_leak", face)
        if row.get("chooser"):
            ctx.ask("deck_leak_choice", "IS#3: choose the Rebel character who leaks this turn",
                    role=row["chooser"], rule="FIG-EVT-20")
            return
        who = row.get("character")
    ctx.pop()
    state["clone"]["leak"] = who
    report(ctx, "FIG-EVT-20", f"IS#3 Secret Clone Project: {who} leaks this turn" if who
           else "IS#3 Secret Clone Project: nobody leaks this turn")


@legal("deck_leak_choice")
def legal_deck_leak_choice(ctx: Context, pending: dict) -> list[dict]:
    rows = tables(ctx).subroll_table("is3_leak")["faces"]
    return [{"verb": "leak", "character": r["character"]} for r in rows if r.get("character")]


# ================================================================================ secret cards
@procedure("deck_secret")
def deck_secret(ctx: Context, frame: dict) -> None:
    """FIG-EVT-12: shuffle the side's secret deck, draw all but one, keep one, the rest back."""
    state = ctx.state
    side = frame["side"]
    deck = state["places"]["secret_decks"][side]
    leave = tables(ctx).leave_undrawn
    if frame["step"] == "draw":
        if len(deck) <= leave:
            ctx.pop()
            report(ctx, "FIG-EVT-12", f"the {side} would receive a secret card, but "
                   f"{len(deck)} card(s) are left in its deck: nothing is received")
            return
        deck[:] = shuffle(ctx, deck, "FIG-EVT-12", f"the {side} secret deck")
        frame["drawn"] = deck[:len(deck) - leave]
        frame["private"] = side
        private(ctx, side, "FIG-EVT-12", f"the {side} draws {', '.join(frame['drawn'])}")
        frame["step"] = "keep"
        ctx.ask("deck_keep_secret", "Keep one of the drawn secret cards", role=side,
                rule="FIG-EVT-12", cards=list(frame["drawn"]))
        return
    kept = frame.pop("answer")["card"]
    ctx.pop()
    back = [c for c in frame["drawn"] if c != kept]
    undrawn = deck[len(frame["drawn"]):]
    state["places"]["secret_decks"][side] = undrawn + back
    state["places"]["hands"][side].append(kept)
    private(ctx, side, "FIG-EVT-12", f"the {side} keeps {kept}; "
            f"{', '.join(back) or 'nothing'} go back into its deck")
    report(ctx, "FIG-EVT-12", f"the {side} receives a secret card"
           + (f" ({frame['card']})" if frame.get("card") else ""))


@legal("deck_keep_secret")
def legal_deck_keep_secret(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "keep", "card": c} for c in pending["cards"]]


# ================================================================================ plays
def playable(ctx: Context, side: str) -> list[str]:
    """Cards a side may play from hand: all of them (H#8 only with a Provincial Crisis, which
    the player confirms by playing it, FIG-EVT-13)."""
    return list(ctx.state["places"]["hands"][side])


@procedure("deck_plays")
def deck_plays(ctx: Context, frame: dict) -> None:
    """FIG-EVT-6 and FIG-EVT-7: the First Right holder is asked first; a play by him may be
    contested with General Research; else the other side may play."""
    state = ctx.state
    holder = state["first_right"]
    rival = other(holder)
    gr = state["general_research"]
    answer = frame.pop("answer", None)
    step = frame["step"]
    if step == "holder":
        if answer is None:
            if not playable(ctx, holder):
                note(ctx, "FIG-EVT-6", f"the {holder} (First Right) has no card to play")
                frame["step"] = "rival"
                return
            ctx.ask("deck_play", "Play a card from your hand? (you hold the First Right)",
                    role=holder, rule="FIG-EVT-6")
            return
        if answer["verb"] == "pass":
            note(ctx, "FIG-EVT-6", f"the {holder} (First Right) declines to play")
            frame["step"] = "rival"
            return
        frame["card"] = answer["card"]
        # Which card stays the holder's secret unless it is played.
        note(ctx, "FIG-EVT-6", f"the {holder} wants to play a card")
        private(ctx, holder, "FIG-EVT-6", f"the {holder} wants to play {answer['card']}")
        if state["places"]["hands"][rival] and gr[rival] >= 1:
            frame["step"] = "contest"
            ctx.ask("deck_contest", f"The {holder} wants to play a card: spend 1 General "
                    "Research to stop him?", role=rival, rule="FIG-EVT-7")
            return
        if state["places"]["hands"][rival]:
            note(ctx, "FIG-EVT-7", f"the {rival} has no General Research to contest")
        play(ctx, holder, frame["card"], passes=True)
        return
    if step == "contest":
        if answer["verb"] == "allow":
            note(ctx, "FIG-EVT-7", f"the {rival} lets the play stand")
            play(ctx, holder, frame["card"], passes=True)
            return
        gr[rival] -= 1
        report(ctx, "FIG-EVT-7", f"the {rival} spends 1 General Research to contest (now "
               f"{gr[rival]})")
        if gr[holder] >= 1:
            frame["step"] = "prevail"
            ctx.ask("deck_prevail", "Your play is contested: spend 1 General Research to "
                    "prevail?", role=holder, rule="FIG-EVT-7")
            return
        note(ctx, "FIG-EVT-7", f"the {holder} has no General Research to prevail")
        step = frame["step"] = "forced"
        answer = None
    if step == "prevail":
        if answer["verb"] == "prevail":
            gr[holder] -= 1
            report(ctx, "FIG-EVT-7", f"the {holder} spends 1 General Research and prevails "
                   f"(now {gr[holder]})")
            play(ctx, holder, frame["card"], passes=True)
            return
        note(ctx, "FIG-EVT-7", f"the {holder} gives way")
        step = frame["step"] = "forced"
        answer = None
    if step == "forced":
        if answer is None:
            ctx.ask("deck_forced_play", "You contested: you must now play a card from your hand",
                    role=rival, rule="FIG-EVT-7")
            return
        play(ctx, rival, answer["card"], passes=False, forced=True)
        return
    if step == "rival":
        if answer is None:
            if not playable(ctx, rival):
                ctx.pop()
                note(ctx, "FIG-EVT-6", f"the {rival} has no card to play")
                return
            ctx.ask("deck_play", "Play a card from your hand?", role=rival, rule="FIG-EVT-6")
            return
        if answer["verb"] == "pass":
            ctx.pop()
            note(ctx, "FIG-EVT-6", f"the {rival} declines to play")
            return
        play(ctx, rival, answer["card"], passes=False)


def play(ctx: Context, side: str, card: str, passes: bool, forced: bool = False) -> None:
    """The card goes face-up into the Due box and takes effect at once (FIG-EVT-4); the First
    Right passes when its holder played (FIG-EVT-6). Ends the deck_plays frame."""
    state = ctx.state
    ctx.pop()
    state["places"]["hands"][side].remove(card)
    state["places"]["due"].append(entry(card, True, None, side))
    state["played"] = card
    c = tables(ctx).card(card)
    rule = "FIG-EVT-7" if forced else "FIG-EVT-4"
    report(ctx, rule, f"the {side} plays {card} {c.title} into the Due box"
           + (" (forced by its contest)" if forced else ""), refs=[card])
    if card == "H#8" or c.play_condition:
        note(ctx, "FIG-EVT-13", f"the {side} confirms that a Provincial Crisis exists")
    if passes:
        state["first_right"] = other(side)
        report(ctx, "FIG-EVT-6", f"the First Right passes to the {other(side)}")
    else:
        note(ctx, "FIG-EVT-6", f"the First Right stays with the {state['first_right']}")
    frames = []
    if c.kind in ("galactic", "major"):
        # [DECIDED] a G or M card played from hand acts as if turned up in the Due box.
        frames = turn_up_draws(ctx, card, "due")
    else:
        frames = [moment_frame(card, "played", role=side)]
    if card == "IS#3":
        state["clone"] = {"active": True, "unmasked": False, "leak": None}
        frames.append({"proc": "deck_leak", "step": "roll"})
    push_all(ctx, frames)


@legal("deck_play")
def legal_deck_play(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "play", "card": c} for c in playable(ctx, pending["role"])] + [
        {"verb": "pass"}]


@legal("deck_forced_play")
def legal_deck_forced_play(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "play", "card": c} for c in playable(ctx, pending["role"])]


@legal("deck_contest")
def legal_deck_contest(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "contest"}, {"verb": "allow"}]


@legal("deck_prevail")
def legal_deck_prevail(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "prevail"}, {"verb": "yield"}]


# ================================================================================ reductions
def reduction_options(ctx: Context, side: str) -> list[dict]:
    """FIG-EVT-21: what ``side`` may buy with General Research now, card by card."""
    state = ctx.state
    if state["general_research"][side] < 1:
        return []
    out = []
    t = tables(ctx)
    for e in in_boxes(ctx):
        if not e["up"]:
            continue
        card = t.card(e["card"])
        for eff in card.effects("while_face_up"):
            if eff["key"] != "general_research_reduction":
                continue
            mine = [r for r in state["reductions"] if r["card"] == card.id]
            if eff["scope"] == "one_due_effect_both_sides":
                if any(r["side"] == side and r["turn"] == state["turn"] for r in mine):
                    continue
                done = {r["part"] for r in mine}
                out += [{"verb": "spend", "card": card.id, "part": p} for p in ("a", "b")
                        if p not in done]
            elif eff["scope"] == "own_side_this_turn":
                if any(r["side"] == side and r["turn"] == state["turn"] for r in mine):
                    continue
                if state["force_points"][side] >= eff.get("fp_cost", 0):
                    out.append({"verb": "spend", "card": card.id, "part": None})
            elif eff["scope"] == "own_side_while_up":
                if not any(r["side"] == side for r in mine):
                    out.append({"verb": "spend", "card": card.id, "part": None})
    return out


@procedure("deck_reduce")
def deck_reduce(ctx: Context, frame: dict) -> None:
    """FIG-EVT-21: each side, First Right holder first, may spend General Research on the
    cards that allow it; the reductions act from the end of the segment."""
    state = ctx.state
    sides = order_from(state["first_right"])
    if "answer" in frame:
        action = frame.pop("answer")
        side = sides[frame["side"]]
        if action["verb"] == "decline":
            frame["side"] += 1
        else:
            card = action["card"]
            state["general_research"][side] -= 1
            state["reductions"].append({"card": card, "side": side, "part": action["part"],
                                        "turn": state["turn"]})
            eff = next(e for e in tables(ctx).card(card).effects("while_face_up")
                       if e["key"] == "general_research_reduction")
            what = {"one_due_effect_both_sides": f"cancels due effect ({action['part']}) for "
                                                 "both sides",
                    "own_side_this_turn": "is exempt for this turn",
                    "own_side_while_up": "cuts the due effect for itself while the card is up"
                    }[eff["scope"]]
            report(ctx, "FIG-EVT-21", f"the {side} spends 1 General Research: {what} "
                   f"({name(ctx, card)}), from the end of this Events Segment")
            if eff.get("fp_cost"):
                state["force_points"][side] -= eff["fp_cost"]
                report(ctx, "FIG-EVT-22", f"the {side} pays {eff['fp_cost']} force points for "
                       f"{card} (now {state['force_points'][side]})")
    while frame["side"] < len(sides):
        side = sides[frame["side"]]
        if reduction_options(ctx, side):
            ctx.ask("deck_reduce", "Spend General Research on a card in play?", role=side,
                    rule="FIG-EVT-21")
            return
        frame["side"] += 1
    ctx.pop()


@legal("deck_reduce")
def legal_deck_reduce(ctx: Context, pending: dict) -> list[dict]:
    return reduction_options(ctx, pending["role"]) + [{"verb": "decline"}]


# ================================================================================ between
def manual_moves(ctx: Context, side: str) -> list[dict]:
    state = ctx.state
    places = state["places"]
    t = tables(ctx)
    out = [{"verb": "done"}, {"verb": "finish"}]
    for counter in ("general_research", "force_points"):
        value = state[counter][side]
        for by in ADJUSTMENTS:
            # A side never goes below zero by its own choice (FIG-EVT-22).
            if by > 0 or value + by >= 0:
                out.append({"verb": "adjust", "counter": counter, "by": by})
    out += [{"verb": "take_historic", "card": c} for c in places["historic"]
            if t.card(c).side == side]
    face_up = [e["card"] for e in in_boxes(ctx) if e["up"]] + places["discard"]
    out += [{"verb": "to_hand", "card": c} for c in face_up]
    for card, status in state["claims"].items():
        eff = next((e for e in t.card(card).effects("on_due") if e["key"] == "secret_card"), None)
        if status == "open" and eff is not None and eff["side"] == side:
            out.append({"verb": "claim", "card": card})
    if clone_acts(ctx):
        out.append({"verb": "clone_used"})
    out += [{"verb": "retire", "card": c} for c in places["lasting"]]
    return out


@procedure("deck_between")
def deck_between(ctx: Context, frame: dict) -> None:
    """The players' manual moves between two Events Segments, each side in turn, until it says
    done; ``finish`` ends the run after this segment."""
    state = ctx.state
    places = state["places"]
    if "answer" in frame:
        action = frame.pop("answer")
        side = frame["sides"][0]
        verb = action["verb"]
        if verb == "done":
            frame["sides"].pop(0)
        elif verb == "finish":
            ctx.pop()
            ctx.top()["finish"] = True
            note(ctx, "FIG-EVT-4", f"the {side} ends the events manager")
            return
        elif verb == "adjust":
            counter = action["counter"]
            state[counter][side] += action["by"]
            report(ctx, "FIG-EVT-7" if counter == "general_research" else "FIG-EVT-22",
                   f"the {side} sets its {counter.replace('_', ' ')} to {state[counter][side]}")
        elif verb == "take_historic":
            places["historic"].remove(action["card"])
            places["hands"][side].append(action["card"])
            report(ctx, "FIG-EVT-13", f"the players declare {action['card']}'s condition met: "
                   f"the {side} takes it into its hand")
        elif verb == "to_hand":
            card = action["card"]
            if card in places["discard"]:
                places["discard"].remove(card)
            else:
                for box in ("new", "due"):
                    places[box] = [e for e in places[box] if e["card"] != card]
                state["rolls"].pop(card, None)
            places["hands"][side].append(card)
            report(ctx, "FIG-EVT-24", f"manual move: {card} into the {side}'s hand")
        elif verb == "claim":
            state["claims"][action["card"]] = "claimed"
            report(ctx, "FIG-EVT-12", f"the {side} declares {action['card']}'s condition met")
            ctx.push("deck_secret", side=side, step="draw", card=action["card"])
            return
        elif verb == "clone_used":
            report(ctx, "FIG-EVT-20", "the players report that a clone effect was used")
            if ctx.roll("d6", "FIG-EVT-20", "IS#3: is the clone unmasked?") == 1:
                state["clone"]["unmasked"] = True
                report(ctx, "FIG-EVT-20", f"the clone is unmasked: "
                       f"{state['clone']['leak'] or 'the leaking character'} is incapacitated "
                       "and must be rescued; IS#3 stops acting")
        elif verb == "retire":
            places["lasting"].remove(action["card"])
            places["retired"].append(action["card"])
            if action["card"] == "IS#3":
                state["clone"]["active"] = False
            report(ctx, "FIG-EVT-10", f"the players retire {action['card']} from the lasting "
                   "box")
    if not frame["sides"]:
        ctx.pop()
        return
    side = frame["sides"][0]
    ctx.ask("deck_between", f"Before game turn {state['turn'] + 1}: manual moves of the "
            f"{side}, then done", role=side, rule="FIG-EVT-24")


@legal("deck_between")
def legal_deck_between(ctx: Context, pending: dict) -> list[dict]:
    return manual_moves(ctx, pending["role"])


# ================================================================================ the end
def _finish(ctx: Context) -> None:
    state = ctx.state
    places = state["places"]
    summary = (f"after game turn {state['turn']}: New "
               + (", ".join(name(ctx, e["card"]) if e["up"] else "a face-down card"
                            for e in places["new"]) or "empty")
               + "; Due " + (", ".join(name(ctx, e["card"]) for e in places["due"]) or "empty")
               + f"; Discard {', '.join(places['discard']) or 'empty'}"
               + f"; Lasting {', '.join(places['lasting']) or 'empty'}"
               + f"; First Right {state['first_right']}"
               + "; General Research " + ", ".join(f"{s} {state['general_research'][s]}"
                                                   for s in SIDES)
               + "; force points " + ", ".join(f"{s} {state['force_points'][s]}"
                                               for s in SIDES))
    note(ctx, "FIG-EVT-2", summary)
    state["outcome"] = list(state["report"]) + [
        {"rule": "FIG-EVT-2", "turn": state["turn"], "text": summary}]


def chit_cards(state: dict) -> list[str]:
    """The face-up and lasting cards the chit mode lists (FIG-CHIT-24), for a chit context's
    ``cards``."""
    data = default_data()
    t = deck_tables(data)
    places = state["places"]
    ids = [e["card"] for e in places["new"] + places["due"] if e["up"]] + places["lasting"]
    keys = ("chit_flag", "chit_schedule", "chit_reminder")
    return [c for c in ids if any(e["key"] in keys for e in t.card(c).effects(
        "while_face_up", "on_due"))]


# ================================================================================ views, bots
def redact(state: dict, role: str) -> dict:
    """What ``role`` may see: the decks and removed cards as counts, the other side's hand as
    a count plus its historic cards (shown on request, FIG-EVT-2), its secret deck as a count,
    face-down cards in the boxes unnamed, no private entry or prompt of the other side, and
    not the scenario's fixed set-up (it names both hands and the tops of the decks)."""
    view = clone(state)
    view.pop("rng", None)
    view.pop("setup", None)        # a scenario's fixed hands, deck tops and removed cards
    places = view["places"]
    for key in ("g_deck", "m_deck", "removed"):
        places[key] = len(state["places"][key])
    for side in SIDES:
        places["secret_decks"][side] = len(state["places"]["secret_decks"][side])
        if side != role:
            hand = state["places"]["hands"][side]
            places["hands"][side] = {"count": len(hand),
                                     "historic": [c for c in hand if kind_of(c) == "historic"]}
    for box in ("new", "due"):
        for e in places[box]:
            if not e["up"]:
                e["card"] = None
    view["log"] = [e for e in view["log"] if e.get("private") in (None, role)]
    for f in view["stack"]:
        if f.get("private") not in (None, role):
            f.pop("drawn", None)
        if f["proc"] == "deck_plays" and state["first_right"] != role:
            f.pop("card", None)
    pending = view.get("pending")
    if pending and pending["role"] != role and pending["kind"] in ("deck_keep_secret",):
        pending.pop("cards", None)
    return view


def choose(state: dict, view: Any, role: str, legal_actions: list[dict], policy: str,
           rng) -> dict:
    """An answer for the ``simple`` policy (no plays, no contests, prevail when possible, keep
    the first card, spend nothing, carry on between segments, and finish after
    :data:`SIMPLE_TURNS` game turns when the scenario sets no last turn) or the ``random`` one
    (any legal action, drawn with ``rng``, never the game's generator)."""
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    if policy == "random":
        return legal_actions[rng.below(len(legal_actions))]
    kind = (state.get("pending") or {}).get("kind")
    if (kind == "deck_between" and state.get("last_turn") is None
            and state["turn"] >= SIMPLE_TURNS and {"verb": "finish"} in legal_actions):
        return {"verb": "finish"}
    preferred = {"deck_play": {"verb": "pass"}, "deck_contest": {"verb": "allow"},
                 "deck_prevail": {"verb": "prevail"}, "deck_reduce": {"verb": "decline"},
                 "deck_between": {"verb": "done"}}.get(kind)
    if preferred is not None and preferred in legal_actions:
        return preferred
    return legal_actions[0]
