"""Pieces of ``struggle-desktop catalog`` that every game shares: its rule-ID list and its
tables with their ``reconstructed`` flags.

A game's rule IDs live in ``assets/rules/<game>-rules.yaml``, written from the rules reference
by ``tools/extract_rule_ids.py`` and validated against ``engine/schemas/rules-list.schema.yaml``.
"""

from __future__ import annotations

from pathlib import Path

from struggle_desktop.engine import data as engine_data
from struggle_desktop.engine.data import TableSet
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir

RULES_LIST_SCHEMA = Path(engine_data.__file__).resolve().parent / "schemas" / "rules-list.schema.yaml"


def rule_list_path(game_id: str) -> Path:
    return assets_dir() / "rules" / f"{game_id}-rules.yaml"


def load_rule_list(path: Path) -> dict:
    """A rule-ID list, validated against its schema; DataError if it is broken."""
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


def table_entries(tables: TableSet) -> list[dict]:
    """Every table with its title, ``reconstructed`` flag, rule IDs, whether a user file
    overrides it, and its values (the house-rules page shows them all)."""
    return [{"id": tid, "title": t["title"], "reconstructed": bool(t["reconstructed"]),
             "rules": list(t.get("rules") or []), "overridden": tid in tables.overrides,
             "values": {k: v for k, v in t.items()
                        if k not in ("id", "title", "reconstructed", "rules")}}
            for tid, t in sorted(tables.tables.items())]


def catalog_header(game) -> dict:
    """The part of every game's catalog that the game-module interface gives: id, title,
    roles, versions, scenarios and options."""
    return {"game": game.id, "title": game.title, "roles": list(game.roles),
            "rules_version": game.rules_version, "data_digest": game.data_digest(),
            "scenarios": game.scenarios(), "options": game.options()}
