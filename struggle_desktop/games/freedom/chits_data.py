"""Part B's tables as typed, read-only views, with the checks a schema cannot make.

The chit mode (rules-freedom.md section 3) reads six tables of seed 003 that
``FreedomData`` loads and validates: ``chit_results`` (the three mugs), ``chit_letters``,
``chit_action_events``, ``chit_precedence``, ``chit_coup_backlash`` and ``chit_rebel_cell``.
:func:`chit_tables` wraps them once per loaded data set and checks, on top of the schemas:

- every mug holds 36 chits whose letters add up to the allocation table (FIG-CHIT-2);
- every chit's headline is an action event allowed in that environs type (or flagged as kept
  as printed, FIG-CHIT-5), with one of the event's versions (FIG-CHIT-3, FIG-CHIT-17);
- contradictions are symmetric and agree with the precedence table; so do the overrules
  (FIG-CHIT-11, FIG-CHIT-12); immunity holders name real events (FIG-CHIT-13);
- the Coup fails! variants on the chits exist in the backlash table, and every band table
  (backlash, Rebel Cell) covers the faces 1-6 exactly once (FIG-CHIT-18, FIG-CHIT-23).

A failed check raises :class:`~struggle_desktop.engine.errors.DataError` naming the table.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from struggle_desktop.games.freedom.data import (D66_RESULTS, FreedomData, checked_views, frozen,
                                               table_error)

#: Environs types and the prefix of their chit ids (FIG-CHIT-2): ``U-21`` is Urban 21.
MUG_PREFIX = {"urban": "U", "wild": "W", "special": "S"}
PREFIX_MUG = {v: k for k, v in MUG_PREFIX.items()}
#: Part B mission letters (FIG-CHIT-1); seed 003 has a G mission, seed 004 does not.
CHIT_LETTERS = tuple("ABCDEFGHIJPQRST")
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class Chit:
    """One chit: a cell of the Mission Results Table (FIG-CHIT-3)."""

    id: str                          # U-21, W-11, S-66
    mug: str                         # urban, wild or special
    d66: int
    letters: tuple[str, ...]         # 0, 1 or 2 mission letters, first letter first
    event: str                       # the headline (FIG-CHIT-10: the footnote is not part of it)
    version: Any                     # the footnote: "two bots", "search", 2 ... or None
    recovered: bool                  # one of the two lost Wild fronts (FIG-CHIT-4)
    decided: Mapping[str, str]       # field -> rule of a decided cell

    def label(self) -> str:
        """``H · Contacts! · I`` as the reference writes a cell."""
        first = self.letters[0] if self.letters else "–"
        second = self.letters[1] if len(self.letters) > 1 else "–"
        version = f" ({self.version})" if self.version is not None else ""
        return f"{first} · {self.event}{version} · {second}"


@dataclass(frozen=True)
class ActionEvent:
    """One action event (FIG-CHIT-17); see the comment of chit_action_events.yaml."""

    name: str
    environs: str                    # any, urban, wild or special
    effect_key: str
    versions: Mapping[Any, Mapping[str, Any]]
    requires_mission: Mapping[str, Any] | None
    bonus_draws: int
    detection: str | None            # detected, undetected or None
    aborts: bool
    contradicts: tuple[str, ...]
    overrules: tuple[str, ...]
    ignores_later: tuple[str, ...]
    program: tuple[str, ...]
    summary: str

    def allowed_in(self, environs_type: str) -> bool:
        return self.environs in ("any", environs_type)


@dataclass(frozen=True)
class Overrule:
    """An overruling event (FIG-CHIT-12): ``event`` voids ``overrules``; ``letter`` / ``side``
    the mission that must be performed for it to act (None: always)."""

    event: str
    overrules: str
    letter: str | None
    side: str | None


@dataclass(frozen=True)
class Immunity:
    """A holder's immunity (FIG-CHIT-13): ``ignores`` maps event -> part (all, creature or
    sentry_robots); ``optional``: the phasing player chooses."""

    holder: str
    ignores: Mapping[str, str]
    optional: bool
    afterwards: str | None
    summary: str


class ChitTables:
    """The Part B tables of one :class:`FreedomData`, checked and wrapped."""

    def __init__(self, data: FreedomData):
        tables = data.tables
        self.results = tables["chit_results"]
        self._letters = tables["chit_letters"]
        self._events = tables["chit_action_events"]
        self._precedence = tables["chit_precedence"]
        self._backlash = tables["chit_coup_backlash"]
        self._cell = tables["chit_rebel_cell"]
        self.chits: dict[str, Chit] = {}
        self.mugs: dict[str, tuple[str, ...]] = {}
        for mug, rows in self.results["mugs"].items():
            ids = []
            for row in rows:
                chit = Chit(id=f"{MUG_PREFIX[mug]}-{row['d66']}", mug=mug, d66=row["d66"],
                            letters=tuple(x for x in (row["letter1"], row["letter2"]) if x),
                            event=row["event"], version=row["version"],
                            recovered=bool(row.get("recovered", False)),
                            decided=frozen(row.get("decided", {})))
                self.chits[chit.id] = chit
                ids.append(chit.id)
            self.mugs[mug] = tuple(ids)
        self.events: dict[str, ActionEvent] = {}
        for e in self._events["events"]:
            versions = {v["version"]: frozen(v) for v in e.get("versions", [])}
            self.events[e["event"]] = ActionEvent(
                name=e["event"], environs=e["environs"], effect_key=e["effect_key"],
                versions=frozen(versions), requires_mission=frozen(e["requires_mission"]),
                bonus_draws=e["bonus_draws"], detection=e["detection"], aborts=e["aborts"],
                contradicts=tuple(e["contradicts"]), overrules=tuple(e["overrules"]),
                ignores_later=tuple(e["ignores_later"]), program=tuple(e["program"]),
                summary=e["summary"])
        self.overrule_rows = tuple(
            Overrule(event=o["event"], overrules=o["overrules"],
                     letter=(o["condition"] or {}).get("letter"),
                     side=(o["condition"] or {}).get("side"))
            for o in self._precedence["overrules"])
        self.immunities: dict[str, Immunity] = {
            i["holder"]: Immunity(holder=i["holder"],
                                  ignores=frozen({x["event"]: x["part"] for x in i["ignores"]}),
                                  optional=i["optional"], afterwards=i["afterwards"],
                                  summary=i["summary"])
            for i in self._precedence["immunities"]}
        self.blocked_counts = bool(self._precedence["same_events"]["blocked_counts"])
        self.absorbed_counts = bool(
            self._precedence["same_events"]["absorbed_by_immunity_counts"])
        self._check()

    # ------------------------------------------------------------------ views
    def chit(self, mug: str, d66: int) -> Chit:
        """The chit of ``mug`` at D66 row ``d66``."""
        return self.chits[f"{MUG_PREFIX[mug]}-{d66}"]

    def by_id(self, chit_id: str) -> Chit:
        return self.chits[chit_id]

    def mug(self, mug: str) -> tuple[str, ...]:
        """The 36 chit ids of a mug in D66 order: the order a mug is shuffled from."""
        return self.mugs[mug]

    def action_event(self, name: str) -> ActionEvent:
        return self.events[name]

    def contradictions(self, name: str) -> tuple[str, ...]:
        return self.events[name].contradicts

    def overrules(self, name: str) -> tuple[Overrule, ...]:
        """The overrules ``name`` makes when it applies (FIG-CHIT-12)."""
        return tuple(o for o in self.overrule_rows if o.event == name)

    def backlash(self, variant: int, face: int) -> Mapping[str, Any]:
        """The Coup fails! backlash for a d6 ``face`` on ``variant`` (FIG-CHIT-18):
        ``{result, shift, capture, summary}``."""
        for v in self._backlash["variants"]:
            if v["variant"] == variant:
                for band in v["bands"]:
                    if band["from"] <= face <= band["to"]:
                        return frozen(next(r for r in self._backlash["results"]
                                           if r["result"] == band["result"]))
        raise KeyError(f"no backlash for variant {variant!r}, face {face!r}")

    def cell_missions(self) -> tuple[str, ...]:
        """The missions a Rebel Cell may be sent on (FIG-CHIT-23): D, I and S."""
        return tuple(self._cell["missions"])

    def subroll(self, table: str, face: int) -> Mapping[str, Any]:
        """The band of the Rebel Cell table ``table`` (``mission_roll``, ``other_mission_roll``
        or ``letters_roll``) that ``face`` falls in."""
        for band in self._cell[table]:
            if band["from"] <= face <= band["to"]:
                return frozen(band)
        raise KeyError(f"no {table} band for face {face!r}")

    def letter_counts(self, mug: str) -> Mapping[str, int]:
        """The allocation table's count of each letter in ``mug`` (FIG-CHIT-2)."""
        return {row["letter"]: row[mug] for row in self._letters["letters"]}

    def robots(self, chit: Chit) -> int:
        """Sentry robots a Creature attacks! chit sends when no creature is named."""
        return int(self.events[chit.event].versions.get(chit.version, {})
                   .get("sentry_robots", 0))

    # ------------------------------------------------------------------ checks
    def _check(self) -> None:
        for mug, ids in self.mugs.items():
            if sorted(self.chits[i].d66 for i in ids) != list(D66_RESULTS):
                raise table_error("chit_results", f"the {mug} mug does not hold the 36 D66 rows once")
            counted = Counter(x for i in ids for x in self.chits[i].letters)
            wanted = {k: v for k, v in self.letter_counts(mug).items() if v}
            if dict(counted) != wanted:
                diff = sorted(set(counted.items()) ^ set(wanted.items()))
                raise table_error("chit_results", f"the {mug} mug's letters differ from chit_letters "
                            f"(FIG-CHIT-2): {diff}")
            if sum(counted.values()) != self._letters["letters_per_mug"]:
                raise table_error("chit_letters", f"the {mug} mug does not hold "
                            f"{self._letters['letters_per_mug']} letters (FIG-CHIT-2)")
        for chit in self.chits.values():
            event = self.events.get(chit.event)
            if event is None:
                raise table_error("chit_results", f"{chit.id}: {chit.event!r} is no action event")
            # A cell kept as printed although its event belongs to another environs type
            # (Special 32, FIG-CHIT-5 item 4) is flagged as decided and acts as printed.
            if not event.allowed_in(chit.mug) and "event" not in chit.decided:
                raise table_error("chit_results", f"{chit.id}: {chit.event} is a {event.environs} "
                            f"event, not allowed in a {chit.mug} mug (FIG-CHIT-17)")
            allowed = set(event.versions) or {None}
            if chit.version not in allowed:
                raise table_error("chit_results", f"{chit.id}: {chit.event} has no version "
                            f"{chit.version!r}")
            if event.effect_key == "coup_fails":
                self.backlash(chit.version, 1)
        pairs = {frozenset(c["events"]) for c in self._precedence["contradictions"]}
        for event in self.events.values():
            for other in event.contradicts:
                if other not in self.events or event.name not in self.events[other].contradicts:
                    raise table_error("chit_action_events", f"{event.name} contradicts {other} but not "
                                "the other way round (FIG-CHIT-11)")
        from_events = {frozenset((e.name, o)) for e in self.events.values() for o in e.contradicts}
        if from_events != pairs:
            raise table_error("chit_precedence", "its contradictions differ from chit_action_events")
        rows = {(o.event, o.overrules) for o in self.overrule_rows}
        from_events = {(e.name, o) for e in self.events.values() for o in e.overrules}
        if rows != from_events:
            raise table_error("chit_precedence", "its overrules differ from chit_action_events")
        for imm in self.immunities.values():
            for name in imm.ignores:
                if name not in self.events:
                    raise table_error("chit_precedence", f"{imm.holder} ignores unknown {name!r}")
        for v in self._backlash["variants"]:
            _check_bands("chit_coup_backlash", f"variant {v['variant']}", v["bands"])
        for table in ("mission_roll", "other_mission_roll", "letters_roll"):
            _check_bands("chit_rebel_cell", table, self._cell[table])


def _check_bands(table_id: str, what: str, bands: list[dict]) -> None:
    faces = [f for b in bands for f in range(b["from"], b["to"] + 1)]
    if sorted(faces) != list(FACES):
        raise table_error(table_id, f"{what} does not cover the faces 1-6 exactly once")


def chit_tables(data: FreedomData) -> ChitTables:
    """The checked Part B views of ``data``, built once per loaded table set."""
    return checked_views(data, ChitTables)
