#!/usr/bin/env python3
"""Regenerate the generated part of docs/house-rules.md: every reconstructed table with its
values, and every [DECIDED] rule with its reason, from the shipped data.

    python tools/make_house_rules.py          # rewrite the file
    python tools/make_house_rules.py --check  # exit 1 if the file is out of date

Everything above the marker line in docs/house-rules.md is hand-written and kept.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from struggle_desktop.engine.catalog import load_rule_list, rule_list_path  # noqa: E402
from struggle_desktop.games.battles.data import BattlesData  # noqa: E402
from struggle_desktop.games.freedom.data import FreedomData  # noqa: E402
from struggle_desktop.games.nobles.data import NoblesData  # noqa: E402
from struggle_desktop.games.struggle.data import (StruggleData, documented_values,  # noqa: E402
                                                   without_documented)

PAGE = ROOT / "docs" / "house-rules.md"
MARKER = "<!-- generated below by tools/make_house_rules.py: do not edit by hand -->"
HEADER_KEYS = {"id", "title", "reconstructed", "rules", "part"}


#: Games with tables and a rule list: (id, name on the page, data loader).
GAMES = (("struggle", "Struggle", StruggleData), ("battles", "Battles", BattlesData),
         ("nobles", "Noble Houses", NoblesData), ("freedom", "Freedom", FreedomData))


def generated() -> str:
    lines = [MARKER, ""]
    for game_id, name, loader in GAMES:
        lines += game_section(game_id, name, loader(use_overrides=False))
    return "\n".join(lines) + "\n"


def game_section(game_id: str, name: str, data) -> list[str]:
    lines = [f"## Reconstructed tables ({name})", ""]
    for table_id, table in sorted(data.tables.tables.items()):
        if not table.get("reconstructed"):
            continue
        # Values stated only for the record are not offered as house rules: listed apart.
        values = {k: v for k, v in without_documented(table).items() if k not in HEADER_KEYS}
        lines += [f"### {table['title']} (`{table_id}.yaml`)", "",
                  f"Rules: {', '.join(table.get('rules', []))}", ""]
        documented = documented_values(table)
        if documented:
            # A field of every row (``markers[].text``) is named without its many values.
            lines += ["Stated for the record only (the program is built this way and does not "
                      "read these, so an override may not change them):", ""]
            lines += [f"- `{path}`" + ("" if "[]" in path else f" = {short(value)}")
                      for path, value in documented.items()]
            lines.append("")
        flagged = list(decided_cells(values))
        if flagged:
            # A large table with a few decided cells (Freedom): only those cells are listed;
            # the whole table is in the file and on the in-program page.
            lines += ["Decided values (the rest of the table is as printed):", ""]
            lines += [f"- {where}: `{field}` = {short(value)} ({rule})" if not isinstance(
                          value, str) or not value.startswith("(") else
                      f"- {where}: `{field}` {value} ({rule})"
                      for where, field, value, rule in flagged]
            lines.append("")
            continue
        lines += ["```yaml", yaml.safe_dump(values, sort_keys=False, allow_unicode=True,
                                            default_flow_style=None, width=100).rstrip(),
                  "```", ""]
    lines += [f"## Decided rules ({name})", "",
              "| ID | Title | Why |", "|---|---|---|"]
    for rule in load_rule_list(rule_list_path(game_id))["rules"]:
        if rule["source"] in ("DECIDED", "SEED+DECIDED"):
            why = (rule.get("why") or "").replace("|", "\\|")
            lines.append(f"| {rule['id']} | {rule['title']} | {why} |")
    return lines + [""]


#: Keys that name a row, tried in this order, to say where a decided cell is.
ROW_NAMES = ("name", "id", "d66", "letter", "title", "event", "state", "variant", "kind")


def row_label(row: dict) -> str | None:
    for key in ROW_NAMES:
        value = row.get(key)
        if isinstance(value, (str, int)) and not isinstance(value, bool):
            return f"{key} {value}"
    return None


def cell_value(row: dict, field: str):
    """A flagged field's value: in the row itself, or in one of its sub-mappings (a chart
    row keeps its cells under ``cells``)."""
    if field in row:
        return row[field]
    for child in row.values():
        if isinstance(child, dict) and field in child:
            return child[field]
    return None


def decided_cells(value, path: tuple = ()):
    """(where, field, value, rule) for every cell flagged ``decided: {field: rule}`` (and
    ``decided_in_every_row``) anywhere in a table."""
    if isinstance(value, dict):
        label = row_label(value)
        here = path + ((label,) if label else ())
        where = " / ".join(here) or "table"
        for field, rule in (value.get("decided_in_every_row") or {}).items():
            yield f"{where}, every row", field, "(as printed, read the same way)", rule
        for field, rule in (value.get("decided") or {}).items():
            yield where, field, cell_value(value, field), rule
        for key, child in value.items():
            if key not in ("decided", "decided_in_every_row") and isinstance(child, (dict, list)):
                yield from decided_cells(child, here + (key,))
    elif isinstance(value, list):
        for item in value:
            yield from decided_cells(item, path)


def short(value) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True,
                          width=10_000).strip()
    text = text.removesuffix("...").strip()
    return f"`{text}`" if len(text) <= 160 else f"`{text[:157]}...`"


def main() -> int:
    text = PAGE.read_text(encoding="utf-8")
    head = text.split(MARKER)[0].rstrip() + "\n\n"
    new = head + generated()
    if "--check" in sys.argv:
        return 0 if new == text else 1
    PAGE.write_text(new, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
