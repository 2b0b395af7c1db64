"""Loading the Freedom in the Galaxy data: tables validated once.

Every table of rules-freedom.md section 5 is a file ``assets/tables/freedom/<id>.yaml``,
checked against ``schemas/<id>.schema.yaml`` and flagged ``reconstructed`` when it holds a
decided value (FIG-GEN-8). Part A tables (seed 004) and Part B/C tables (seed 003) are never
mixed (FIG-GEN-1): each file says which part it belongs to (``part: A``).

A decided value is flagged where it sits: the object holding it carries
``decided: {<field>: <rule ID>}`` (for a chart cell the field is the mission column). On top of
the schemas, loading checks what a schema cannot say (:func:`check_part_a`): D66 and 2d6 tables
cover every result exactly once, the Mission Success letters add up (FIG-MS-2), mission letters
agree across tables, rule IDs exist, every decided flag names a field that exists and a rule the
table lists, ``reconstructed`` is true exactly when something is flagged, creature and chart
names are unique, variant rows point at real rows, each side's characters match its recruitment
pool and the names table speaks only of Part A names. A failed check raises
:class:`~struggle_desktop.engine.errors.DataError`; the one exception is FIG-MS-2 on a user's
override, which loads with a warning (:attr:`FreedomData.warnings`).

The typed views below (:meth:`FreedomData.random_event`, :meth:`FreedomData.mission`, ...) are
read-only: their mappings are ``MappingProxyType`` and their lists tuples.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Any, Callable

from struggle_desktop.engine.catalog import load_rule_list, rule_list_path
from struggle_desktop.engine.data import GameData, TableSet
from struggle_desktop.engine.errors import DataError

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"

SIDES = ("rebel", "imperial")
#: The 36 results of a p2d6 (D66) roll, tens die then units die (FIG-GEN-3).
D66_RESULTS = tuple(10 * tens + units for tens in range(1, 7) for units in range(1, 7))
#: The Part A mission letters in table order; there is no G.
MISSION_LETTERS = ("A", "B", "C", "D", "E", "F", "H", "I", "J", "P", "Q", "R", "S", "T")
#: How often each letter appears in the Mission Success table (FIG-MS-2): 58 in all.
SUCCESS_LETTER_COUNTS = MappingProxyType({"A": 2, "B": 4, "C": 6, "D": 4, "E": 4, "F": 6, "H": 4,
                                          "I": 4, "J": 3, "P": 5, "Q": 3, "R": 5, "S": 5, "T": 3})
#: The Part A tables (inventory 5.1 of rules-freedom.md).
PART_A_TABLES = ("recruitment_modifiers", "loyalty_modifiers", "random_events", "coup_aborted",
                 "mission_success", "failed_spaceship_quest", "missions", "bonus_lists",
                 "irate_locals", "creatures", "bonus_rebel_characters",
                 "bonus_rebel_possessions", "bonus_imperial_characters", "bonus_imperial_ships",
                 "display_names")
#: The bonus dice rolls charts by (side, what they list): FIG-BDR-14, FIG-BDR-15, FIG-BDR-16,
#: FIG-BDR-17, in that order.
CHARTS = MappingProxyType({("rebel", "character"): "bonus_rebel_characters",
                           ("rebel", "possession"): "bonus_rebel_possessions",
                           ("imperial", "character"): "bonus_imperial_characters",
                           ("imperial", "spaceship"): "bonus_imperial_ships"})


def frozen(value: Any) -> Any:
    """A read-only deep copy of YAML data: mappings become ``MappingProxyType``, lists tuples."""
    if isinstance(value, Mapping):
        return MappingProxyType({k: frozen(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(frozen(v) for v in value)
    return value


# ---------------------------------------------------------------------------------- views
@dataclass(frozen=True)
class RandomEvent:
    """One row of the Random Events table (the FIG-RE rules: each row carries its own ID)."""

    rule: str                        # FIG-RE-n, the ID its log entries carry
    first: int                       # D66 range, inclusive
    last: int
    non_repeatable: bool             # starred (FIG-MIS-9)
    aborts: tuple[str, ...]          # mission letters, or "any" (FIG-MIS-11)
    aborts_side: str | None          # only that side's mission is aborted
    target: str                      # environs, random_group, random_character or mission
    detect_all: bool
    effect_key: str
    params: Mapping[str, Any]
    summary: str
    decided: Mapping[str, str]

    def covers(self, d66: int) -> bool:
        return self.first <= d66 <= self.last


@dataclass(frozen=True)
class Band:
    """A 2d6 band of the Coup Aborted (FIG-CA-1) or Failed Spaceship Quest (FIG-FSQ-1) table."""

    first: int
    last: int
    effect_key: str
    summary: str
    loyalty_shift: int = 0           # spaces, negative toward the enemy
    detect_all: bool = False


@dataclass(frozen=True)
class Mission:
    """One Part A mission (the FIG-MSN rules, each named in the ``rules`` of missions.yaml); see
    the comment of missions.yaml."""

    letter: str
    name: str
    sides: tuple[str, ...]
    cell: bool                       # a Rebel cell may perform it (FIG-MSN-15)
    camp: bool
    bonus_only: bool                 # J and Q (FIG-MIS-18)
    requires: tuple[Mapping[str, Any], ...]
    levels: tuple[Mapping[str, Any], ...]
    per_level: Mapping[str, Any] | None
    failure: Mapping[str, Any] | None
    bonus_chart: str                 # how the chart enters the count (FIG-BDR-8)
    bonus_terms: tuple[Mapping[str, Any], ...]
    max_level: Mapping[str, Any]     # FIG-MIS-25
    torture: Mapping[str, Any] | None
    summary: str

    def allowed_for(self, side: str) -> bool:
        return side in self.sides

    def requirements_for(self, side: str) -> tuple[Mapping[str, Any], ...]:
        """The requirements that apply to ``side`` (those without a side apply to both)."""
        return tuple(r for r in self.requires if r.get("side", side) == side)

    def level_effects(self, side: str) -> tuple[Mapping[str, Any], ...]:
        """The level effects that apply to ``side``, lowest level first."""
        return tuple(lv for lv in self.levels if lv.get("side", side) == side)


@dataclass(frozen=True)
class Creature:
    """One creature of the Creatures Chart (the FIG-CRE rules: each creature row carries its own
    ID); see creatures.yaml."""

    rule: str                        # FIG-CRE-n
    name: str
    kind: str                        # stat, mob, auto, special, auto_mob or auto_or_special
    af: int | None                   # for a mob: each individual's
    ef: int | None
    intelligence: int | None         # battles of intelligence
    wounded_af: int | None
    mob_size: str | None             # d6, d6+1 ...
    mob_label: str | None            # generic or irate_locals
    surprise: bool                   # FIG-FOE-2
    no_breakoff: bool | str          # True, False or "first_round"
    breakoff_drm: int
    breakoff_drm_first_round_only: bool
    fights_to_death: bool | str      # True, False or "after_hit"
    unique: bool
    only_side: str | None
    effect_key: str
    params: Mapping[str, Any]
    summary: str

    def appears_for(self, side: str) -> bool:
        """Whether the creature shows itself to ``side`` at all (Zops: the Rebel only)."""
        return self.only_side is None or self.only_side == side

    @property
    def needs_combat(self) -> bool:
        """False for the creatures the program resolves alone (FIG-FOE-4); Morna and Vrialta
        may lead to a fight depending on the group."""
        return self.kind != "auto"


@dataclass(frozen=True)
class Race:
    """One race of the Irate Locals chart (FIG-LOC-4)."""

    name: str
    af: int
    ef: int
    alt: tuple[int, int] | None      # strength in `alt_environs` instead (FIG-LOC-3)
    alt_environs: str | None         # urban, wild or subterranean
    star_faring: bool

    def strength(self, environs_type: str, special_kind: str | None = None) -> tuple[int, int]:
        """(AF, EF) of each mob member in an environs of that type (FIG-CTX-1): ``urban``,
        ``wild`` or ``special`` with ``special_kind`` ``subterranean`` or ``other``."""
        where = special_kind if environs_type == "special" else environs_type
        if self.alt is not None and where == self.alt_environs:
            return self.alt
        return (self.af, self.ef)


@dataclass(frozen=True)
class Cell:
    """A bonus chart value: ``base`` (as leader, or as a possession's carrier) and, for a printed
    "n(m)", ``alt`` (what the character adds when going along without leading, FIG-BDR-4)."""

    base: int
    alt: int | None = None


@dataclass(frozen=True)
class ChartRow:
    """One row of a bonus dice rolls chart (FIG-BDR-14, FIG-BDR-15, FIG-BDR-16, FIG-BDR-17)."""

    name: str                        # as printed in seed 004
    side: str
    kind: str                        # character, possession or spaceship
    cells: Mapping[str, Cell | None] # mission column -> value; None for a printed "-"
    variant_of: str | None           # a variant row replaces this base row (FIG-BDR-7)
    variant_when: str | Mapping[str, str] | None   # "flag" or {"together_with": name}
    extra_af: int                    # ships only (FIG-BDR-12)
    decided: Mapping[str, str]

    def cell(self, letter: str) -> Cell | None:
        """The value in a mission column; None for "-" and for a column the chart lacks
        (FIG-BDR-3: a character cannot lead it; a possession or ship adds 0)."""
        return self.cells.get(letter)

    def has_column(self, letter: str) -> bool:
        return letter in self.cells


class FreedomData(GameData):
    """All Freedom data, loaded lazily and kept for the life of the process."""

    game_id = "freedom"
    schema_dir = SCHEMA_DIR

    @cached_property
    def tables(self) -> TableSet:
        tables = GameData.tables.func(self)
        self._warnings = tuple(check_part_a(tables))
        return tables

    @property
    def warnings(self) -> tuple[str, ...]:
        """Problems that did not stop loading: a user's Mission Success override that breaks the
        letter count of FIG-MS-2. The house-rules page shows them."""
        self.tables  # noqa: B018 - loading sets them
        return self._warnings

    # ------------------------------------------------------------- loyalty and recruitment
    @cached_property
    def loyalty_track(self) -> tuple[str, ...]:
        """The five loyalty spaces from the Imperial end (patriotic) to the Rebel end (unrest)."""
        return tuple(row["space"] for row in self.tables["loyalty_modifiers"]["loyalty"])

    def loyalty_modifier(self, condition: str, side: str) -> int:
        """The loyalty modifier (FIG-REC-3) for ``side`` on a planet whose loyalty space or
        rebellion state is ``condition``."""
        _check_side(side)
        table = self.tables["loyalty_modifiers"]
        for row in table["loyalty"]:
            if row["space"] == condition:
                return row[side]
        if condition in table["rebellion_states"]["states"]:
            return table["rebellion_states"][side]
        raise ValueError(f"unknown loyalty space or planet state {condition!r}")

    @cached_property
    def recruitment(self) -> Mapping[str, Any]:
        """The recruitment roll, pools and modifiers (FIG-REC-1, FIG-REC-2), read-only."""
        table = self.tables["recruitment_modifiers"]
        return frozen({k: table[k] for k in ("roll", "pool", "modifiers")})

    # ----------------------------------------------------------------- the procedure's tables
    @cached_property
    def random_events(self) -> tuple[RandomEvent, ...]:
        """The 23 rows of the Random Events table in D66 order."""
        return tuple(RandomEvent(rule=e["id"], first=e["from"], last=e["to"],
                                 non_repeatable=e["non_repeatable"], aborts=tuple(e["aborts"]),
                                 aborts_side=e.get("aborts_side"), target=e["target"],
                                 detect_all=e["detect_all"], effect_key=e["effect_key"],
                                 params=frozen(e.get("params", {})), summary=e["summary"],
                                 decided=frozen(e.get("decided", {})))
                     for e in self.tables["random_events"]["events"])

    def random_event(self, d66: int) -> RandomEvent:
        """The Random Events row for a p2d6 result (11..66)."""
        _check_d66(d66)
        return next(e for e in self.random_events if e.covers(d66))

    @cached_property
    def _success(self) -> Mapping[int, tuple[str, ...]]:
        return MappingProxyType({r["d66"]: tuple(r["letters"])
                                 for r in self.tables["mission_success"]["results"]})

    def success_letters(self, d66: int) -> tuple[str, ...]:
        """The mission letters a p2d6 result scores on the Mission Success table (FIG-MS-1)."""
        _check_d66(d66)
        return self._success[d66]

    def _band(self, table_id: str, total: int) -> Band:
        if not 2 <= total <= 12:
            raise ValueError(f"not a 2d6 total: {total!r}")
        for r in self.tables[table_id]["results"]:
            if r["from"] <= total <= r["to"]:
                return Band(first=r["from"], last=r["to"], effect_key=r["effect_key"],
                            summary=r["summary"], loyalty_shift=r.get("loyalty_shift", 0),
                            detect_all=r.get("detect_all", False))
        raise AssertionError("the load check guarantees full coverage")  # pragma: no cover

    def coup_aborted(self, total: int) -> Band:
        """The Coup Aborted band for a 2d6 total (FIG-CA-1)."""
        return self._band("coup_aborted", total)

    def failed_spaceship_quest(self, total: int) -> Band:
        """The Failed Spaceship Quest band for a 2d6 total (FIG-FSQ-1)."""
        return self._band("failed_spaceship_quest", total)

    # ----------------------------------------------------------------------------- missions
    @cached_property
    def missions(self) -> Mapping[str, Mission]:
        """The 14 missions by letter, in letter order."""
        return MappingProxyType({
            m["letter"]: Mission(letter=m["letter"], name=m["name"], sides=tuple(m["sides"]),
                                 cell=m["performers"]["cell"], camp=m["performers"]["camp"],
                                 bonus_only=m["bonus_only"], requires=frozen(m["requires"]),
                                 levels=frozen(m.get("levels", [])),
                                 per_level=frozen(m.get("per_level")),
                                 failure=frozen(m.get("failure")),
                                 bonus_chart=m["bonus"]["chart"],
                                 bonus_terms=frozen(m["bonus"]["terms"]),
                                 max_level=frozen(m["max_level"]), torture=frozen(m.get("torture")),
                                 summary=m["summary"])
            for m in self.tables["missions"]["missions"]})

    #: The mission letters in chart order (the columns of the bonus charts).
    mission_letters = MISSION_LETTERS

    def mission(self, letter: str) -> Mission:
        try:
            return self.missions[letter]
        except KeyError:
            raise ValueError(f"no Part A mission {letter!r}") from None

    @cached_property
    def mulligan_supply(self) -> int | None:
        """The number of mulligan cards, or None for an unlimited supply (FIG-MIS-23)."""
        supply = self.tables["missions"]["mulligans"]["supply"]
        return None if supply == "unlimited" else supply

    @cached_property
    def home_planet_missions(self) -> frozenset[str]:
        """Missions a member on his home planet adds a bonus roll to (FIG-BDR-9)."""
        return frozenset(self.tables["bonus_lists"]["home_planet"]["missions"])

    @cached_property
    def royalty_missions(self) -> frozenset[str]:
        """Missions a member who is royalty here adds a further bonus roll to (FIG-BDR-9)."""
        return frozenset(self.tables["bonus_lists"]["royalty"]["missions"])


    # ------------------------------------------------------------------ creatures and locals
    @cached_property
    def creatures(self) -> Mapping[str, Creature]:
        """The 56 creatures by name, in chart order."""
        return MappingProxyType({
            c["name"]: Creature(rule=c["id"], name=c["name"], kind=c["kind"], af=c["af"],
                                ef=c["ef"], intelligence=c.get("intelligence"),
                                wounded_af=c.get("wounded_af"),
                                mob_size=c["mob"]["size"] if "mob" in c else None,
                                mob_label=c["mob"]["label"] if "mob" in c else None,
                                surprise=c["surprise"], no_breakoff=c["no_breakoff"],
                                breakoff_drm=c["breakoff_drm"],
                                breakoff_drm_first_round_only=c.get("breakoff_drm_first_round_only",
                                                                    False),
                                fights_to_death=c["fights_to_death"], unique=c["unique"],
                                only_side=c.get("only_side"), effect_key=c["effect_key"],
                                params=frozen(c.get("params", {})), summary=c["summary"])
            for c in self.tables["creatures"]["creatures"]})

    def creature(self, name: str) -> Creature:
        try:
            return self.creatures[name]
        except KeyError:
            raise ValueError(f"no Part A creature {name!r}") from None

    def sentry_robots(self, face: int) -> int:
        """How many sentry robots attack on a d6 ``face`` when no creature appears (FIG-FOE-1)."""
        if not 1 <= face <= 6:
            raise ValueError(f"not a d6 face: {face!r}")
        bands = self.tables["creatures"]["sentry_fallback"]["bands"]
        return next(b["count"] for b in bands if b["from"] <= face <= b["to"])

    @cached_property
    def races(self) -> Mapping[str, Race]:
        """The 31 races of the Irate Locals chart by name, in chart order."""
        return MappingProxyType({
            r["race"]: Race(name=r["race"], af=r["af"], ef=r["ef"],
                            alt=(r["alt"]["af"], r["alt"]["ef"]) if "alt" in r else None,
                            alt_environs=r["alt"]["environs"] if "alt" in r else None,
                            star_faring=r["star_faring"])
            for r in self.tables["irate_locals"]["races"]})

    def race(self, name: str) -> Race:
        try:
            return self.races[name]
        except KeyError:
            raise ValueError(f"no Part A race {name!r}") from None


    # --------------------------------------------------------------------------- the charts
    @cached_property
    def _charts(self) -> Mapping[tuple[str, str], Mapping[str, ChartRow]]:
        charts = {}
        for (side, kind), table_id in CHARTS.items():
            rows = {}
            for r in self.tables[table_id]["rows"]:
                cells = {c: _cell(v) for c, v in r["cells"].items()}
                rows[r["name"]] = ChartRow(name=r["name"], side=side, kind=r.get("kind", kind),
                                           cells=MappingProxyType(cells),
                                           variant_of=r.get("variant_of"),
                                           variant_when=frozen(r.get("variant_when")),
                                           extra_af=r.get("extra_af", 0),
                                           decided=frozen(r.get("decided", {})))
            charts[(side, kind)] = MappingProxyType(rows)
        return MappingProxyType(charts)

    def bonus_chart(self, side: str, kind: str) -> Mapping[str, ChartRow]:
        """The rows of one bonus chart by name, in chart order: ``kind`` is ``character``,
        ``possession`` or ``spaceship``. The Rebel ships share the possessions' chart; the
        Imperial side has no possession rows."""
        _check_side(side)
        if kind == "spaceship" and side == "rebel":
            return MappingProxyType({n: r for n, r in self._charts[("rebel", "possession")].items()
                                     if r.kind == "spaceship"})
        if kind == "possession" and side == "rebel":
            return MappingProxyType({n: r for n, r in self._charts[("rebel", "possession")].items()
                                     if r.kind == "possession"})
        if kind == "possession":
            return MappingProxyType({})
        if (side, kind) not in CHARTS:
            raise ValueError(f"no bonus chart of {kind!r} rows")
        return self._charts[(side, kind)]

    def chart_row(self, name: str) -> ChartRow:
        """The chart row of a character, possession or spaceship, by its printed name, its
        display name or seed 003's spelling (FIG-GEN-9); a typographic apostrophe is read as a
        plain one."""
        wanted = self.canonical_name(name)
        for rows in self._charts.values():
            if wanted in rows:
                return rows[wanted]
        raise ValueError(f"no Part A character, possession or spaceship {name!r}")

    @cached_property
    def possession_deck(self) -> tuple[str, ...]:
        """The rows of FIG-BDR-15 in chart order, possessions and spaceships: the default
        out-of-play pool (FIG-CTX-10) before the players' own additions."""
        return tuple(self._charts[("rebel", "possession")])

    def recruitable(self, side: str) -> tuple[str, ...]:
        """Every character of ``side`` in chart order, without the variant rows: the full
        unrecruited pool (FIG-CTX-12)."""
        return tuple(n for n, r in self.bonus_chart(side, "character").items()
                     if r.variant_of is None)

    # -------------------------------------------------------------------------------- names
    @cached_property
    def _names(self) -> tuple[Mapping[str, str], Mapping[str, str]]:
        table = self.tables["display_names"]
        display = {r["name"]: r["display"] for r in table["display"]}
        to_name = {r["display"]: r["name"] for r in table["display"]}
        to_name.update({r["seed_003"]: r["name"] for r in table["other_spellings"]})
        return MappingProxyType(display), MappingProxyType(to_name)

    def display_name(self, name: str) -> str:
        """How the user interface shows a Part A name: the full form of an abbreviated chart
        name, otherwise the name itself (FIG-GEN-9)."""
        return self._names[0].get(name, name)

    def canonical_name(self, name: str) -> str:
        """The Part A name for a printed name, a display name or seed 003's spelling."""
        name = name.replace("\u2019", "'")
        return self._names[1].get(name, name)


def _cell(value: Any) -> Cell | None:
    if value is None:
        return None
    if isinstance(value, Mapping):
        return Cell(value["base"], value["alt"])
    return Cell(value)


def _check_side(side: str) -> None:
    if side not in SIDES:
        raise ValueError(f"side must be rebel or imperial, not {side!r}")


def _check_d66(d66: int) -> None:
    if d66 not in D66_RESULTS:
        raise ValueError(f"not a p2d6 (D66) result: {d66!r}")


# ------------------------------------------------------------------------- load-time checks
def check_part_a(tables: TableSet) -> list[str]:
    """Check the Part A tables beyond their schemas. Raises DataError on the first problem;
    returns the warnings that do not stop loading."""
    missing = [t for t in PART_A_TABLES if t not in tables.tables]
    if missing:
        raise DataError(f"freedom: Part A table(s) missing: {', '.join(missing)}")
    known_rules = {r["id"] for r in load_rule_list(rule_list_path("freedom"))["rules"]}
    for table_id in PART_A_TABLES:
        _check_flags(table_id, tables[table_id], known_rules)
    _check_d66_table("random_events",
                     [(e["from"], e["to"]) for e in tables["random_events"]["events"]])
    _check_d66_table("mission_success",
                     [(r["d66"], r["d66"]) for r in tables["mission_success"]["results"]])
    _check_random_events(tables["random_events"])
    for table_id in ("coup_aborted", "failed_spaceship_quest"):
        _check_2d6_table(table_id, tables[table_id]["results"])
    _check_missions(tables)
    _check_creatures(tables["creatures"])
    _check_unique("irate_locals", [r["race"] for r in tables["irate_locals"]["races"]], "race")
    _check_charts(tables)
    _check_names(tables)
    return _check_success_letters(tables)


def table_error(table_id: str, message: str) -> DataError:
    """The error of a Freedom table that fails a check beyond its schema."""
    return DataError(f"freedom table {table_id}: {message}")


_VIEWS: dict[tuple[Any, int], tuple[Any, Any]] = {}


def checked_views(data: "FreedomData", build: Callable[["FreedomData"], Any]) -> Any:
    """``build(data)`` (the checked views of Parts B and C), made once per loaded table set
    and made again when the tables are loaded anew."""
    tables = data.tables
    key = (build, id(tables))
    hit = _VIEWS.get(key)
    if hit is None or hit[0] is not tables:
        hit = _VIEWS[key] = (tables, build(data))
    return hit[1]


def _check_flags(table_id: str, table: Mapping[str, Any], known_rules: set[str]) -> None:
    """FIG-GEN-8: every rule ID exists; every ``decided`` flag names a field of its object (or a
    chart cell) and a rule the table lists; ``reconstructed`` is true exactly when something
    is flagged."""
    unknown = [r for r in table["rules"] if r not in known_rules]
    if unknown:
        raise table_error(table_id, f"unknown rule ID(s) {', '.join(unknown)}")
    flagged = 0

    def walk(node: Any, where: str) -> None:
        nonlocal flagged
        if isinstance(node, Mapping):
            for field, rule in (node.get("decided") or {}).items():
                if field not in node and field not in (node.get("cells") or {}):
                    raise table_error(table_id, f"{where}: decided flag for {field!r}, which is not "
                                          f"there")
                if rule not in table["rules"]:
                    raise table_error(table_id, f"{where}: decided flag {field}: {rule} names a rule the "
                                          f"table does not list in its rules")
                flagged += 1
            for key, value in node.items():
                if key != "decided":
                    walk(value, f"{where}/{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                walk(value, f"{where}/{i}")

    walk({k: v for k, v in table.items() if k not in ("id", "title", "rules")}, "")
    if bool(flagged) != bool(table["reconstructed"]):
        state = "flags decided values" if flagged else "flags no decided value"
        raise table_error(table_id, f"reconstructed is {table['reconstructed']} but the table {state} "
                              f"(FIG-GEN-8)")


def _check_d66_table(table_id: str, ranges: list[tuple[int, int]]) -> None:
    """Each D66 result 11..66 is covered exactly once; a range stays within one tens digit."""
    seen: Counter[int] = Counter()
    for first, last in ranges:
        if first > last or first // 10 != last // 10:
            raise table_error(table_id, f"range {first}-{last} is not a range of one tens digit")
        seen.update(d for d in D66_RESULTS if first <= d <= last)
    twice = sorted(d for d, n in seen.items() if n > 1)
    if twice:
        raise table_error(table_id, f"D66 result(s) {twice} covered more than once")
    uncovered = [d for d in D66_RESULTS if d not in seen]
    if uncovered:
        raise table_error(table_id, f"D66 result(s) {uncovered} not covered")


def _check_2d6_table(table_id: str, rows: list[Mapping[str, Any]]) -> None:
    """Each 2d6 total 2..12 is covered exactly once."""
    seen: Counter[int] = Counter()
    for row in rows:
        if row["from"] > row["to"]:
            raise table_error(table_id, f"band {row['from']}-{row['to']} runs backwards")
        seen.update(range(row["from"], row["to"] + 1))
    bad = [t for t in range(2, 13) if seen[t] != 1]
    if bad:
        raise table_error(table_id, f"2d6 total(s) {bad} not covered exactly once")


def _check_random_events(table: Mapping[str, Any]) -> None:
    events = table["events"]
    ids = [e["id"] for e in events]
    expected = [f"FIG-RE-{n}" for n in range(1, len(events) + 1)]
    if ids != expected:
        raise table_error("random_events", f"rows must be FIG-RE-1..{len(events)} in order, found {ids}")
    if [e["from"] for e in events] != sorted(e["from"] for e in events):
        raise table_error("random_events", "rows are not in D66 order")
    keys = Counter(e["effect_key"] for e in events)
    twice = sorted(k for k, n in keys.items() if n > 1)
    if twice:
        raise table_error("random_events", f"effect_key used by more than one row: {twice}")


def _check_missions(tables: TableSet) -> None:
    missions = tables["missions"]["missions"]
    letters = [m["letter"] for m in missions]
    if tuple(letters) != MISSION_LETTERS:
        raise table_error("missions", f"missions must be {' '.join(MISSION_LETTERS)} in order, "
                                f"found {' '.join(letters)}")
    for m in missions:
        for side in m["sides"]:
            levels = [lv["level"] for lv in m.get("levels", []) if lv.get("side", side) == side]
            if levels != sorted(set(levels)):
                raise table_error("missions", f"{m['letter']}: levels of the {side} side must rise "
                                        f"without repeats")
    scored = {letter for r in tables["mission_success"]["results"] for letter in r["letters"]}
    never = [x for x in MISSION_LETTERS if x not in scored]
    if never:
        raise table_error("mission_success", f"mission(s) {never} never score")
    for name in ("home_planet", "royalty"):
        if not set(tables["bonus_lists"][name]["missions"]) <= set(MISSION_LETTERS):
            raise table_error("bonus_lists", f"{name} names an unknown mission")


def _check_unique(table_id: str, names: list[str], what: str) -> None:
    twice = sorted(n for n, k in Counter(names).items() if k > 1)
    if twice:
        raise table_error(table_id, f"{what} listed more than once: {', '.join(twice)}")


def _check_creatures(table: Mapping[str, Any]) -> None:
    creatures = table["creatures"]
    ids = [c["id"] for c in creatures]
    if ids != [f"FIG-CRE-{n}" for n in range(1, len(creatures) + 1)]:
        raise table_error("creatures", f"rows must be FIG-CRE-1..{len(creatures)} in order")
    names = [c["name"] for c in creatures]
    _check_unique("creatures", names, "creature")
    for c in creatures:
        if c["kind"] == "stat" and (c["af"] is None or c["ef"] is None):
            raise table_error("creatures", f"{c['name']}: a stat creature needs both AF and EF")
        if (c["kind"] in ("mob", "auto_mob")) != ("mob" in c):
            raise table_error("creatures", f"{c['name']}: a mob (and only a mob) has a mob size")
        if "mob" in c and (c["af"] is None or c["ef"] is None):
            raise table_error("creatures", f"{c['name']}: a mob needs the AF and EF of its members")
    fallback = table["sentry_fallback"]
    if fallback["creature"] not in names:
        raise table_error("creatures", f"sentry fallback {fallback['creature']!r} is not a creature")
    faces = Counter(f for b in fallback["bands"] for f in range(b["from"], b["to"] + 1))
    if sorted(faces.elements()) != list(range(1, 7)):
        raise table_error("creatures", "sentry fallback bands must cover the d6 faces 1..6 once each")


def _check_charts(tables: TableSet) -> None:
    """Chart rows are unique across the four charts; a variant replaces a base row of its own
    chart and names a real companion; each side's base characters match its recruitment pool;
    and a creature's recruiter (Vrialta's) is a character."""
    everywhere: list[str] = []
    for table_id in CHARTS.values():
        rows = tables[table_id]["rows"]
        names = [r["name"] for r in rows]
        everywhere += names
        base = {r["name"] for r in rows if "variant_of" not in r}
        for r in rows:
            if "variant_of" in r:
                if r["variant_of"] not in base:
                    raise table_error(table_id, f"{r['name']}: variant of {r['variant_of']!r}, which is "
                                          f"not a base row of this chart")
                if "variant_when" not in r:
                    raise table_error(table_id, f"{r['name']}: a variant row needs variant_when")
                companion = r["variant_when"]
                if isinstance(companion, Mapping) and companion["together_with"] not in base:
                    raise table_error(table_id, f"{r['name']}: together_with "
                                          f"{companion['together_with']!r} is not a character here")
            elif "variant_when" in r:
                raise table_error(table_id, f"{r['name']}: variant_when without variant_of")
    _check_unique("bonus charts", everywhere, "chart row")
    pool = tables["recruitment_modifiers"]["pool"]
    for side in SIDES:
        rows = tables[CHARTS[(side, "character")]]["rows"]
        count = sum("variant_of" not in r for r in rows)
        if count != pool[side]:
            raise table_error(CHARTS[(side, "character")], f"{count} {side} characters, but the "
                                                     f"recruitment pool says {pool[side]}")
    characters = {r["name"] for side in SIDES for r in tables[CHARTS[(side, "character")]]["rows"]}
    for c in tables["creatures"]["creatures"]:
        recruiter = c.get("params", {}).get("recruiter")
        if recruiter is not None and recruiter not in characters:
            raise table_error("creatures", f"{c['name']}: recruiter {recruiter!r} is not a character")


def _check_names(tables: TableSet) -> None:
    """Every name the names table speaks of is a Part A chart row, race or creature, and no
    display name or other spelling is itself a Part A name."""
    known = {r["name"] for t in CHARTS.values() for r in tables[t]["rows"]}
    known |= {r["race"] for r in tables["irate_locals"]["races"]}
    known |= {c["name"] for c in tables["creatures"]["creatures"]}
    table = tables["display_names"]
    for r in table["display"] + table["other_spellings"]:
        if r["name"] not in known:
            raise table_error("display_names", f"{r['name']!r} is not a Part A name")
    others = ([r["display"] for r in table["display"]]
              + [r["seed_003"] for r in table["other_spellings"]])
    clash = sorted(set(others) & known)
    if clash:
        raise table_error("display_names", f"{', '.join(clash)}: already a Part A name")
    _check_unique("display_names", [r["name"] for r in table["display"]], "name")
    _check_unique("display_names", others, "other name")


def _check_success_letters(tables: TableSet) -> list[str]:
    """FIG-MS-2: the shipped table holds exactly the seed's 58 letters; a user's override that
    breaks the count loads with a warning."""
    counts = Counter(x for r in tables["mission_success"]["results"] for x in r["letters"])
    if counts == Counter(SUCCESS_LETTER_COUNTS):
        return []
    diff = ", ".join(f"{x} {counts.get(x, 0)} (expected {SUCCESS_LETTER_COUNTS.get(x, 0)})"
                     for x in sorted(set(counts) | set(SUCCESS_LETTER_COUNTS))
                     if counts.get(x, 0) != SUCCESS_LETTER_COUNTS.get(x, 0))
    message = (f"freedom table mission_success: letter counts differ from the seed's 58 "
               f"(FIG-MS-2): {diff}")
    if "mission_success" in tables.overrides:
        return [message]
    raise DataError(message)


_DEFAULT: FreedomData | None = None


def data_or_default(data: Any) -> FreedomData:
    """``data`` when it is the Freedom data (a mode's context or set-up was handed some), else
    the default tables."""
    return data if isinstance(data, FreedomData) else default_data()


def default_data() -> FreedomData:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = FreedomData()
    return _DEFAULT
