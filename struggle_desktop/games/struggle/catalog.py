"""What Struggle contains, as one JSON-ready dict: ``struggle-desktop catalog --game struggle``.

Scenarios, optional rules, units, the chaos event markers, every table (with its
``reconstructed`` flag and rule IDs), the galaxy map in summary and the rule IDs of the rules
reference (``assets/rules/struggle-rules.yaml``, written by ``tools/extract_rule_ids.py``).
The house-rules page and outside scripts read the same dict. A table's ``values`` are the ones
a player may override; values it states only for the record (``documentation_only``, see
data.py) are set apart under ``documentation_only``.
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.catalog import (catalog_header, load_rule_list, rule_ids_section,
                                             rule_list_path, table_entries)
from struggle_desktop.games.struggle.data import documented_values, without_documented


def map_summary(map_data: dict) -> dict:
    """Sectors, system sectors and the Core of the galaxy map (SGE-MAP-1, SGE-MAP-2,
    SGE-MAP-3, SGE-MAP-4)."""
    sectors = map_data["sectors"]
    cores = [s["number"] for s in sectors if s["is_core"]]
    return {
        "id": map_data["id"],
        "title": map_data["title"],
        "reconstructed": bool(map_data["reconstructed"]),
        "rules": list(map_data.get("rules") or []),
        "sectors": len(sectors),
        "system_sectors": sorted(s["number"] for s in sectors if s["is_system"]),
        "core": cores[0] if len(cores) == 1 else cores,
        "void_cells": len(map_data.get("void_cells") or []),
    }


def offered_values(entry: dict, table: dict) -> dict:
    """A catalogue table entry whose ``values`` leave out what the table states only for the
    record; those follow under ``documentation_only`` (path -> value) when there are any."""
    documented = documented_values(table)
    if not documented:
        return entry
    values = {k: v for k, v in without_documented(table).items()
              if k not in ("id", "title", "reconstructed", "rules")}
    return {**entry, "values": values, "documentation_only": documented}


def build_catalog(game: Any) -> dict:
    """The whole catalog of a StruggleGame (uses its data, scenarios and options)."""
    data = game.data
    tables = data.tables
    markers = [dict(m) for m in data["event_pool"]["markers"]]
    units = [{"code": code, **spec} for code, spec in data["units"]["mobile_units"].items()]
    return {
        **catalog_header(game),
        "units": units,
        "system_units": [dict(row) for row in data["system_units"]["counters"]],
        "events": {"kinds": len(markers), "total": sum(m["count"] for m in markers),
                   "markers": markers},
        "tables": [offered_values(entry, tables[entry["id"]]) for entry in table_entries(tables)],
        "overrides": dict(tables.overrides),
        "map": map_summary(data.map_data),
        "rule_ids": rule_ids_section(load_rule_list(rule_list_path(game.id))),
    }
