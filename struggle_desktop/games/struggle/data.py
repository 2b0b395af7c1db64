"""Loading Struggle's data: the tables, the galaxy map and the scenarios, validated once.

Everything the rules read as a number lives in ``assets/tables/struggle/*.yaml`` (each table
flagged ``reconstructed`` and tagged with its rule IDs), the map in
``assets/maps/struggle-galaxy.yaml`` and the set-ups in ``scenarios/struggle/*.yaml``.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.data import TableSet, load_tables, load_validated
from struggle_desktop.engine.datacache import cached
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir, scenarios_dir
from struggle_desktop.games.struggle import galaxy as galaxy_module
from struggle_desktop.games.struggle.galaxy import Galaxy, MapError, load_galaxy

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
MAP_FILE = "struggle-galaxy.yaml"


@dataclass
class UnitType:
    code: str
    name: str
    mil: int | None  # None: read from the CI (Trans-humans, SGE-TH-2)
    morph: int | None
    mil_paren: bool
    morph_paren: bool
    ma: int
    cost: int
    upkeep: int
    counters: int
    needs: str | None
    never_converts: bool = False  # Imperial Order (SGE-IO-2)


class StruggleData:
    """All Struggle data, loaded lazily and cached for the life of the process."""

    def __init__(self, use_overrides: bool = True):
        self.use_overrides = use_overrides

    @cached_property
    def tables(self) -> TableSet:
        tables = load_tables("struggle", assets_dir() / "tables" / "struggle", SCHEMA_DIR,
                             use_overrides=self.use_overrides)
        if tables.overrides:
            shipped = load_tables("struggle", assets_dir() / "tables" / "struggle", SCHEMA_DIR,
                                  use_overrides=False)
            for table_id in tables.overrides:
                check_documented_values(table_id, shipped[table_id], tables[table_id])
        return tables

    @cached_property
    def map_data(self) -> dict:
        return load_validated(assets_dir() / "maps" / MAP_FILE,
                              SCHEMA_DIR / "galaxy_map.schema.yaml")

    @cached_property
    def galaxy(self) -> Galaxy:
        try:
            # Checking the geometry is slow; its result for these map bytes is cached.
            # The key covers the checking code too (galaxy.py), not only the map.
            return cached("struggle-galaxy", [assets_dir() / "maps" / MAP_FILE,
                                              Path(galaxy_module.__file__)],
                          lambda: load_galaxy(self.map_data))
        except MapError as exc:
            raise DataError(f"galaxy map: {exc}") from None

    @cached_property
    def scenarios(self) -> dict[str, dict]:
        found = {}
        for path in sorted(scenarios_dir().joinpath("struggle").glob("*.yaml")):
            data = load_validated(path, SCHEMA_DIR / "scenario.schema.yaml")
            found[str(data["id"])] = data
        if not found:
            raise DataError("no Struggle scenarios found")
        return dict(sorted(found.items(), key=lambda kv: (len(kv[0]), kv[0])))

    @cached_property
    def data_digest(self) -> str:
        return digest({"tables": self.tables.data_digest, "map": digest(self.map_data),
                       "scenarios": digest(self.scenarios)})

    # --------------------------------------------------------------- convenient views
    def __getitem__(self, table_id: str) -> Any:
        return self.tables.tables[table_id]   # TableSet's own dict: rules read tables often

    @cached_property
    def unit_types(self) -> dict[str, UnitType]:
        return {code: UnitType(code=code, **{k: v for k, v in spec.items()})
                for code, spec in self.tables["units"]["mobile_units"].items()}

    @cached_property
    def ci_unit_types(self) -> frozenset[str]:
        """Unit types whose factors are read from the CI (Trans-humans, SGE-TH-2)."""
        return frozenset(code for code, t in self.unit_types.items()
                         if t.mil is None or t.morph is None)

    @cached_property
    def system_counters(self) -> dict[str, tuple[int, int, int]]:
        """System unit counter id -> (mil, morph, RV): each system unit has a military
        factor, a morphogenetic factor and a resource value (SGE-RES-1), from the counter mix
        of SGE-RES-2."""
        out: dict[str, tuple[int, int, int]] = {}
        k = 0
        for row in self.tables["system_units"]["counters"]:
            for _ in range(row["count"]):
                k += 1
                out[f"S{k:02d}"] = (row["mil"], row["morph"], row["rv"])
        return out

    @cached_property
    def combat_odds(self) -> dict[tuple[int, int], tuple[int, dict[str, float]]]:
        """(differential, die modifier) -> (CRT column, result -> chance), filled by
        combat.compute_odds as combats are worked out: the tables do not change once loaded."""
        return {}

    @cached_property
    def imperial_odds(self) -> dict[tuple, Any]:
        """The odds (combat.Odds) of an Imperial attack by sector, type and
        ``combat.odds_inputs``: worked out when the bot weighs an attack, read again when the
        rules resolve the attack it chose (combat.imperial_odds)."""
        return {}

    @cached_property
    def attack_values(self) -> dict[tuple, float]:
        """The bot's worth of an Imperial attack by sector, type and ``combat.odds_inputs``
        (bot.Bot.attack_value): a function of those and of these tables alone."""
        return {}

    @cached_property
    def markers(self) -> dict[str, dict]:
        """Chaos event marker id -> its row of event_pool.yaml."""
        return {m["id"]: m for m in self.tables["event_pool"]["markers"]}


# ------------------------------------------------------------- documentation-only values
# A table may state values the program does not read (it is simply built that way), listed by
# path under ``documentation_only``: ``stacking`` (a whole entry), ``nexus.per_sector`` (one
# value), ``markers[].text`` (a field of every row). They are not house rules: the house-rules
# page and the catalogue set them apart, and an override may not change them.
def documented_values(table: dict) -> dict[str, Any]:
    """Path -> value of every documentation-only value of ``table``."""
    return {path: value_at(table, path) for path in table.get("documentation_only") or []}


def value_at(table: dict, path: str) -> Any:
    """The value at a documentation-only path (a list of values for ``rows[].field``);
    DataError if the table has nothing there."""
    here: Any = table
    for part in path.split("."):
        key, every_row = part.removesuffix("[]"), part.endswith("[]")
        if isinstance(here, list):
            here = [row.get(key) if isinstance(row, dict) else None for row in here]
        elif isinstance(here, dict) and key in here:
            here = here[key]
        else:
            raise DataError(f"table {table.get('id')}: documentation_only names {path!r}, "
                            "which the table does not have")
        if every_row and not isinstance(here, list):
            raise DataError(f"table {table.get('id')}: {path!r}: {key} is not a list of rows")
    return here


def without_documented(table: dict) -> dict:
    """The table's values without its documentation-only ones (nor the list naming them)."""
    out = copy.deepcopy({k: v for k, v in table.items() if k != "documentation_only"})
    for path in table.get("documentation_only") or []:
        _drop(out, path.split("."))
    return out


def _drop(here: Any, parts: list[str]) -> None:
    key = parts[0].removesuffix("[]")   # a list of rows is walked row by row below
    if isinstance(here, list):
        for row in here:
            _drop(row, parts)
    elif isinstance(here, dict) and key in here:
        if len(parts) == 1:
            del here[key]
        else:
            _drop(here[key], parts[1:])


def check_documented_values(table_id: str, shipped: dict, table: dict) -> None:
    """An override must leave the shipped table's documentation-only values as they are:
    changing them would change nothing in play, so it is refused rather than ignored."""
    for path, value in documented_values(shipped).items():
        try:
            overridden = value_at(table, path)
        except DataError:
            overridden = None
        if overridden != value:
            raise DataError(f"override of {table_id}.yaml: {path} is built into the program "
                            "and cannot be changed (it is listed for the record only)")


_DEFAULT: StruggleData | None = None


def default_data() -> StruggleData:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = StruggleData()
    return _DEFAULT
