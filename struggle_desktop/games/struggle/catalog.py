"""What Struggle contains, as one JSON-ready dict: ``struggle-desktop catalog --game struggle``.

Scenarios, optional rules, units, the chaos event markers, every table (with its
``reconstructed`` flag and rule IDs), the galaxy map in summary and the rule IDs of the rules
reference (``assets/rules/struggle-rules.yaml``, written by ``tools/extract_rule_ids.py``).
The house-rules page and outside scripts read the same dict.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from struggle_desktop.engine import data as engine_data
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir

#: The schema of every game's rule-ID list (engine/schemas/rules-list.schema.yaml).
RULES_LIST_SCHEMA = Path(engine_data.__file__).resolve().parent / "schemas" / "rules-list.schema.yaml"
RULES_LIST = "struggle-rules.yaml"


def load_rule_list(path: Path | None = None) -> dict:
    """The rule-ID list, validated against its schema; DataError if it is broken."""
    path = path or assets_dir() / "rules" / RULES_LIST
    document = engine_data.load_validated(path, RULES_LIST_SCHEMA)
    ids = [rule["id"] for rule in document["rules"]]
    if len(set(ids)) != len(ids):
        raise DataError(f"{path}: a rule ID is listed twice")
    return document


def rule_ids_section(document: dict) -> dict:
    """The catalog's ``rule_ids``: the list and its counts by source."""
    by_source: dict[str, int] = {}
    for rule in document["rules"]:
        by_source[rule["source"]] = by_source.get(rule["source"], 0) + 1
    return {"source": document["source"], "count": len(document["rules"]),
            "by_source": dict(sorted(by_source.items())),
            "rules": [dict(rule) for rule in document["rules"]]}


def map_summary(map_data: dict) -> dict:
    """Sectors, system sectors and the Core of the galaxy map (SGE-MAP-1 to SGE-MAP-4)."""
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


def build_catalog(game: Any) -> dict:
    """The whole catalog of a StruggleGame (uses its data, scenarios and options)."""
    data = game.data
    tables = data.tables
    markers = [dict(m) for m in data["event_pool"]["markers"]]
    units = [{"code": code, **spec} for code, spec in data["units"]["mobile_units"].items()]
    return {
        "game": game.id,
        "title": game.title,
        "roles": list(game.roles),
        "rules_version": game.rules_version,
        "data_digest": game.data_digest(),
        "scenarios": game.scenarios(),
        "options": game.options(),
        "units": units,
        "system_units": [dict(row) for row in data["system_units"]["counters"]],
        "events": {"kinds": len(markers), "total": sum(m["count"] for m in markers),
                   "markers": markers},
        "tables": [{"id": tid, "title": t["title"], "reconstructed": bool(t["reconstructed"]),
                    "rules": list(t.get("rules") or []), "overridden": tid in tables.overrides,
                    "values": {k: v for k, v in t.items()
                               if k not in ("id", "title", "reconstructed", "rules")}}
                   for tid, t in sorted(tables.tables.items())],
        "overrides": dict(tables.overrides),
        "map": map_summary(data.map_data),
        "rule_ids": rule_ids_section(load_rule_list()),
    }
