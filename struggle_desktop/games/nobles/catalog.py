"""What Noble Houses contains, as one JSON-ready dict: ``struggle-desktop catalog --game nobles``.

Scenario, options, unit types, worlds, allies, every table (with its ``reconstructed`` flag and
rule IDs) and the rule IDs of rules-nobles.md.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

from struggle_desktop.engine.catalog import (catalog_header, load_rule_list, rule_ids_section,
                                             rule_list_path, table_entries)


def build_catalog(game: Any) -> dict:
    data = game.data
    return {
        **catalog_header(game),
        "policies": list(game.policies),
        "units": [{**asdict(u), "abilities": [dict(a) for a in u.abilities]}
                  for u in data.units.values()],
        "worlds": [asdict(w) for w in data.worlds.values()],
        "allies": [asdict(a) for a in data.allies.values()],
        "allies_per_house": {str(k): v for k, v in data.allies_per_house.items()},
        "total_income": sum(w.income for w in data.worlds.values()),
        "tables": table_entries(data.tables),
        "overrides": dict(data.tables.overrides),
        "rule_ids": rule_ids_section(load_rule_list(rule_list_path(game.id))),
    }
