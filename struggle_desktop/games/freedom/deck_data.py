"""Part C's tables as typed, read-only views, with the checks a schema cannot make.

The events deck (rules-freedom.md section 4) reads three tables of seed 003 that
``FreedomData`` loads and validates: ``events_cards`` (the 81 cards), ``events_track`` (the
track's numbers, set-up and segment) and ``events_subrolls`` (the five sub-roll tables).
:func:`deck_tables` wraps them once per loaded data set and checks, on top of the schemas:

- card ids run 1..n within each kind, and the counts per kind match the track table
  (FIG-EVT-1); alike cards share a title exactly ``count`` times;
- the trigger cards draw ``m_draws_per_g_pass`` Major cards per pass (FIG-EVT-8), and only
  Galactic cards trigger;
- every set-up place names cards whose ``start`` says the same (FIG-EVT-3);
- every card's sub-roll table exists and names that card, and its faces cover 1-6 once
  (FIG-EVT-16, FIG-EVT-17, FIG-EVT-18, FIG-EVT-19, FIG-EVT-20); every kind has a place to go
  after the Due box (FIG-EVT-10).

A failed check raises :class:`~struggle_desktop.engine.errors.DataError` naming the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from struggle_desktop.games.freedom.data import FreedomData, checked_views, frozen, table_error

#: Card id prefixes and the kinds they stand for (FIG-EVT-1).
PREFIX_KIND = {"G": "galactic", "M": "major", "H": "historic", "IS": "imperial_secret",
               "RS": "rebel_secret"}
KIND_PREFIX = {v: k for k, v in PREFIX_KIND.items()}
SECRET_KIND = {"rebel": "rebel_secret", "imperial": "imperial_secret"}
#: The four moments of a card (FIG-EVT-14), in the order a card can meet them.
MOMENTS = ("on_draw", "while_face_up", "on_due", "when_played")


@dataclass(frozen=True)
class Card:
    """One event card (FIG-EVT-15); see the comment of events_cards.yaml."""

    id: str
    kind: str
    title: str
    count: int
    start: str
    side: str | None
    trigger: Mapping[str, int] | None      # face_up_m, face_down_m, face_down_g
    sub_roll: str | None
    moments: Mapping[str, Mapping[str, Any]]   # moment -> {effects, text}; absent when null
    receive_when: str | None
    play_condition: str | None
    summary: str

    @property
    def number(self) -> int:
        return int(self.id.split("#")[1])

    def effects(self, *moments: str) -> tuple[Mapping[str, Any], ...]:
        """The effects of the given moments, in that order."""
        return tuple(e for m in moments for e in self.moments.get(m, {}).get("effects", ()))

    def text(self, moment: str) -> str | None:
        return self.moments.get(moment, {}).get("text")

    @property
    def recycles(self) -> bool:
        """G and M cards go to the discard pile and come back (FIG-EVT-10)."""
        return self.kind in ("galactic", "major")


class DeckTables:
    """The Part C tables of one :class:`FreedomData`, checked and wrapped."""

    def __init__(self, data: FreedomData):
        tables = data.tables
        self._cards = tables["events_cards"]
        self.track = tables["events_track"]
        self._subrolls = tables["events_subrolls"]
        self.cards: dict[str, Card] = {}
        for c in self._cards["cards"]:
            self.cards[c["id"]] = Card(
                id=c["id"], kind=c["kind"], title=c["title"], count=c["count"],
                start=c["start"], side=c.get("side"), trigger=frozen(c.get("trigger")),
                sub_roll=c.get("sub_roll"),
                moments=frozen({m: c[m] for m in MOMENTS if c.get(m)}),
                receive_when=c.get("receive_when"), play_condition=c.get("play_condition"),
                summary=c["summary"])
        self._check()

    # ------------------------------------------------------------------ views
    def card(self, card_id: str) -> Card:
        return self.cards[card_id]

    def of_kind(self, kind: str) -> tuple[str, ...]:
        """The ids of one kind in table order (the order a deck is shuffled from)."""
        return tuple(c.id for c in self.cards.values() if c.kind == kind)

    def secret_cards(self, side: str) -> tuple[str, ...]:
        return self.of_kind(SECRET_KIND[side])

    @property
    def setup(self) -> Mapping[str, Any]:
        return frozen(self.track["setup"])

    @property
    def no_play_turns(self) -> tuple[int, ...]:
        return tuple(self.track["segment"]["no_play_turns"])

    def after_due(self, card_id: str) -> str:
        """``discard`` or ``lasting`` (FIG-EVT-10)."""
        return self.track["after_due"][self.cards[card_id].kind]

    @property
    def leave_undrawn(self) -> int:
        return self.track["secret_cards"]["leave_undrawn"]

    @property
    def exhaustion_removed(self) -> int:
        return self.track["exhaustion"]["g_removed"]

    def subroll_table(self, name: str) -> Mapping[str, Any]:
        return frozen(self._subrolls["tables"][name])

    def subroll(self, name: str, face: int) -> Mapping[str, Any]:
        """The row of sub-roll table ``name`` for a d6 ``face``."""
        for row in self._subrolls["tables"][name]["faces"]:
            if row["face"] == face:
                return frozen(row)
        raise KeyError(f"no face {face!r} in {name}")

    # ------------------------------------------------------------------ checks
    def _check(self) -> None:
        counts = self.track["cards"]
        for kind, prefix in KIND_PREFIX.items():
            ids = self.of_kind(kind)
            if len(ids) != counts[kind]:
                raise table_error("events_cards", f"{len(ids)} {kind} cards, the track says "
                            f"{counts[kind]} (FIG-EVT-1)")
            if list(ids) != [f"{prefix}#{n}" for n in range(1, len(ids) + 1)]:
                raise table_error("events_cards", f"the {kind} cards are not {prefix}#1.."
                            f"{prefix}#{len(ids)} in order")
        titles = Counter(c.title for c in self.cards.values())
        for c in self.cards.values():
            if titles[c.title] != c.count:
                raise table_error("events_cards", f"{c.id}: {titles[c.title]} cards titled "
                            f"{c.title!r}, its count says {c.count}")
            if c.trigger is not None and c.kind != "galactic":
                raise table_error("events_cards", f"{c.id}: only Galactic cards draw others")
        drawn = sum(c.trigger["face_up_m"] + c.trigger["face_down_m"]
                    for c in self.cards.values() if c.trigger)
        if drawn != self.track["m_draws_per_g_pass"]:
            raise table_error("events_track", f"the trigger cards draw {drawn} Major cards per pass, "
                        f"not {self.track['m_draws_per_g_pass']} (FIG-EVT-8)")
        setup = self.track["setup"]
        for place, start in (("new_box", "new_box"), ("g_deck_top", "g_deck_top"),
                             ("historic_stack", "historic_stack")):
            for cid in setup[place]:
                if cid not in self.cards or self.cards[cid].start != start:
                    raise table_error("events_track", f"set-up {place}: {cid} does not start there "
                                "(FIG-EVT-3)")
        tables = self._subrolls["tables"]
        for c in self.cards.values():
            if c.sub_roll is None:
                continue
            table = tables.get(c.sub_roll)
            if table is None or table["card"] != c.id:
                raise table_error("events_subrolls", f"{c.id}: no sub-roll table {c.sub_roll!r} for it")
        for name, table in tables.items():
            if sorted(r["face"] for r in table["faces"]) != [1, 2, 3, 4, 5, 6]:
                raise table_error("events_subrolls", f"{name} does not cover the faces 1-6 once")
        for kind in KIND_PREFIX:
            if self.track["after_due"].get(kind) not in ("discard", "lasting"):
                raise table_error("events_track", f"no place after the Due box for {kind}")


def kind_of(card_id: str) -> str:
    return PREFIX_KIND[card_id.split("#")[0]]


def deck_tables(data: FreedomData) -> DeckTables:
    """The checked Part C views of ``data``, built once per loaded table set."""
    return checked_views(data, DeckTables)
