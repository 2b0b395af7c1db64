"""What Battles contains, as one JSON-ready dict: ``struggle-desktop catalog --game battles``.

Scenarios, options, fleet types, chits, value chits, every table (with its ``reconstructed``
flag and rule IDs) and the rule IDs of rules-battles.md.
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.catalog import (catalog_header, load_rule_list, rule_ids_section,
                                             rule_list_path, table_entries)


def build_catalog(game: Any) -> dict:
    data = game.data
    mix = data["counter_mix"]
    return {
        **catalog_header(game),
        "policies": list(game.policies),
        "units": [{"code": code, **spec} for code, spec in data["units"]["fleet_types"].items()],
        "fleets_per_side": dict(mix["fleets_per_side"]),
        "chits": {"kinds": len(mix["chits"]), "total": sum(mix["chits"].values()),
                  "counts": dict(mix["chits"])},
        "value_chits": dict(mix["value_chits"]),
        "regions": [dict(r) for r in data["regions"]["regions"]],
        "tables": table_entries(data.tables),
        "overrides": dict(data.tables.overrides),
        "rule_ids": rule_ids_section(load_rule_list(rule_list_path(game.id))),
    }
