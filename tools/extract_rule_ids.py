#!/usr/bin/env python3
"""Extract the rule IDs of a rules reference into a YAML list the program and the tests read.

The rules references (``../shared/design/rules-<game>.md``) introduce every rule with a bold
header such as ``**SGE-MAP-9: Sector 58.** [SEED 000:L965] ...`` or ``**SGE-DICE-3: Zero is
even.** [DECIDED] ...``, and every [DECIDED] rule carries one line of reasoning starting with
``*Why:*``. A checklist table near the end (``| ID | Title | Source |``) lists every ID again,
preceded by a ``Totals: N rules; S SEED, D DECIDED.`` line.

This tool reads both, cross-checks them (same IDs in the same order, same titles, same tags,
the stated totals) and fails loudly on any mismatch, then writes::

    game: struggle
    source: rules-struggle.md
    rules:
      - {id: SGE-MAP-1, title: Map data file, source: DECIDED, why: "..."}

validated against ``struggle_desktop/engine/schemas/rules-list.schema.yaml``. The *Why:* lines
are the project's own words, so they may be shipped.

Usage::

    python tools/extract_rule_ids.py                    # struggle, write the YAML
    python tools/extract_rule_ids.py --game battles     # another rules reference
    python tools/extract_rule_ids.py --check            # exit 1 if the YAML is out of date

It serves the other games too: the ID prefix is read from the checklist itself, and a rule
whose header carries no tag (the Freedom reference tags parts of a rule inline) takes its
source from the checklist's "Source" or "Basis" column (``SEED+DECIDED`` when it names both).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import jsonschema
import yaml

ROOT = Path(__file__).resolve().parents[1]
DESIGN_DIR = ROOT.parent / "shared" / "design"
SCHEMA = ROOT / "struggle_desktop" / "engine" / "schemas" / "rules-list.schema.yaml"

ID_PATTERN = r"[A-Z]+(?:-[A-Z0-9]+)+"
#: ``**SGE-MAP-9: Sector 58.** rest of the line``
HEADER_RE = re.compile(rf"^\*\*(?P<id>{ID_PATTERN}): (?P<title>.+?)\*\*(?P<rest>.*)$")
#: The first tag after a header: ``[SEED 000:L965]`` or ``[DECIDED]``.
TAG_RE = re.compile(r"^\s*\[(?P<tag>SEED\b[^\]]*|DECIDED)\]")
WHY_RE = re.compile(r"\*Why:\*\s*(?P<why>.*?)\s*$")
#: The Freedom reference gives a decided part's reason as a ``- [DECIDED]: reason`` item.
INLINE_DECIDED_RE = re.compile(r"\[DECIDED\](?: for [^:\]]{1,60})?:\s*(?P<why>.*?)\s*$")
#: A table row that defines a rule of a data range (``| FIG-CRE-1 | Alweg | ...``).
TABLE_ROW_RE = re.compile(rf"^\|\s*(?P<id>{ID_PATTERN})\s*\|")
CHECKLIST_HEADING_RE = re.compile(r"^##\s+\d+\.\s+Rule (?:ID )?checklist\s*$", re.IGNORECASE)
TOTALS_RE = re.compile(r"Totals:\s*(?P<n>\d+) rules;\s*(?P<seed>\d+) SEED,\s*(?P<decided>\d+) DECIDED")
#: ``There are 234 rule IDs`` (the Freedom reference states its total this way).
TOTAL_IDS_RE = re.compile(r"There are (?P<n>\d+) rule IDs")


class ExtractError(Exception):
    """The rules reference is inconsistent; the message says where."""


@dataclass
class Rule:
    id: str
    title: str
    source: str
    why: str | None

    def as_dict(self) -> dict:
        return {"id": self.id, "title": self.title, "source": self.source, "why": self.why}


def classify(tag: str) -> str:
    """``SEED 000:L1-5`` -> SEED, ``DECIDED`` -> DECIDED, ``SEED 004 + DECIDED`` -> SEED+DECIDED."""
    has_seed = "SEED" in tag
    has_decided = "DECIDED" in tag
    if has_seed and has_decided:
        return "SEED+DECIDED"
    if has_seed:
        return "SEED"
    if has_decided:
        return "DECIDED"
    raise ExtractError(f"cannot read the source tag {tag!r}")


def clean_title(title: str) -> str:
    """Header titles end with a full stop inside the bold; checklist titles do not."""
    return title.strip().rstrip(".").strip()


def find_why(body: list[str]) -> str | None:
    """The reason of a decided rule: the ``*Why:*`` text, else a ``- [DECIDED]: reason``
    item; when the line itself ends after the colon, the list items under it."""
    for pattern in (WHY_RE, INLINE_DECIDED_RE):
        for k, text in enumerate(body):
            match = pattern.search(text)
            if not match:
                continue
            if match["why"]:
                return match["why"]
            indent = len(text) - len(text.lstrip())
            items = []
            for follow in body[k + 1:]:
                deeper = len(follow) - len(follow.lstrip()) > indent
                if not (deeper and follow.strip().startswith("-")):
                    break
                items.append(follow.strip().lstrip("-").strip().rstrip(";"))
            if items:
                # Items that are sentences already end with a stop; the others get a semicolon.
                return " ".join(i if i.endswith((".", "!", "?")) else i + ";" for i in items).rstrip(";")
    return None


def parse_headers(lines: list[str], checklist_start: int) -> tuple[list[tuple[Rule, int]], set[str]]:
    """Every rule header before the checklist, in document order, with its line number
    (1-based); and the IDs defined only as rows of data tables (``| FIG-CRE-1 | ...``)."""
    found: list[tuple[Rule, int]] = []
    bodies: list[list[str]] = []
    table_ids: set[str] = set()
    current: list[str] | None = None
    for number, line in enumerate(lines[:checklist_start], start=1):
        match = HEADER_RE.match(line)
        if match:
            tag = TAG_RE.match(match["rest"])
            source = classify(tag["tag"]) if tag else ""
            found.append((Rule(match["id"], clean_title(match["title"]), source, None), number))
            current = [match["rest"]]
            bodies.append(current)
            continue
        row = TABLE_ROW_RE.match(line)
        if row:
            table_ids.add(row["id"])
        if line.startswith("#") or line.strip() == "---":
            current = None   # a heading or a rule line ends the rule's body
        elif current is not None:
            current.append(line)
    for (rule, number), body in zip(found, bodies):
        if sum(bool(WHY_RE.search(text)) for text in body) > 1:
            raise ExtractError(f"line {number}: {rule.id} has more than one *Why:* line")
        rule.why = find_why(body)
    return found, table_ids - {r.id for r, _ in found}


def checklist_start(lines: list[str]) -> int:
    """The index of the checklist heading."""
    start = next((i for i, line in enumerate(lines) if CHECKLIST_HEADING_RE.match(line)), None)
    if start is None:
        raise ExtractError("no '## N. Rule checklist' section found")
    return start


def parse_checklist(lines: list[str], start: int) -> tuple[list[Rule], dict[str, int]]:
    """The checklist table's rows and the totals stated above it."""
    rows: list[Rule] = []
    totals: dict[str, int] = {}
    for line in lines[start + 1:]:
        if line.startswith("## "):
            break
        if not totals:
            match = TOTALS_RE.search(line) or TOTAL_IDS_RE.search(line)
            if match:
                totals = {k: int(v) for k, v in match.groupdict().items()}
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else []
        if len(cells) >= 3 and re.fullmatch(ID_PATTERN, cells[0]):
            rows.append(Rule(cells[0], clean_title(cells[1]), classify(cells[2]), None))
    if not rows:
        raise ExtractError("the checklist section has no table rows")
    return rows, totals


def extract(text: str, warnings: list[str] | None = None) -> list[Rule]:
    """The rules of one reference in checklist order, cross-checked against their headers;
    raises ExtractError listing every mismatch. A decided rule without a stated reason is not
    a mismatch: it is added to ``warnings``."""
    warnings = [] if warnings is None else warnings
    lines = text.splitlines()
    start = checklist_start(lines)
    headers, table_ids = parse_headers(lines, start)
    checklist, totals = parse_checklist(lines, start)
    problems: list[str] = []

    by_id: dict[str, tuple[Rule, int]] = {}
    for rule, number in headers:
        if rule.id in by_id:
            problems.append(f"line {number}: {rule.id} is defined twice")
        by_id[rule.id] = (rule, number)
    list_ids = [r.id for r in checklist]
    if len(set(list_ids)) != len(list_ids):
        twice = sorted({i for i in list_ids if list_ids.count(i) > 1})
        problems.append(f"listed twice in the checklist: {', '.join(twice)}")
    missing = [i for i in list_ids if i not in by_id and i not in table_ids]
    extra = [r.id for r, _ in headers if r.id not in set(list_ids)]
    if missing:
        problems.append(f"in the checklist but never defined: {', '.join(missing)}")
    if extra:
        problems.append(f"defined but not in the checklist: {', '.join(extra)}")
    header_order = [r.id for r, _ in headers if r.id in set(list_ids)]
    listed_order = [i for i in list_ids if i in by_id]
    if header_order != listed_order:
        first = next((k for k, (x, y) in enumerate(zip(header_order, listed_order)) if x != y), 0)
        problems.append(f"the checklist order differs from the document at {listed_order[first]} "
                        f"(the document has {header_order[first]} there)")

    rules: list[Rule] = []
    for row in checklist:
        if row.id not in by_id:
            rules.append(row)   # defined as a row of a data table: the checklist has the rest
            continue
        rule, number = by_id[row.id]
        if rule.title != row.title:
            problems.append(f"line {number}: {rule.id} title {rule.title!r} differs from the "
                            f"checklist's {row.title!r}")
        # An untagged header, or a seed rule whose decided detail is tagged inside its body,
        # takes the checklist's wider source.
        if not rule.source or (row.source == "SEED+DECIDED" and rule.source in row.source):
            rule.source = row.source
        elif rule.source != row.source:
            problems.append(f"line {number}: {rule.id} is tagged {rule.source} in the text and "
                            f"{row.source} in the checklist")
        if rule.source == "DECIDED" and not rule.why:
            warnings.append(f"line {number}: DECIDED rule {rule.id} has no *Why:* line")
        rules.append(rule)

    if totals:
        counted = {"n": len(checklist),
                   "seed": sum(r.source == "SEED" for r in checklist),
                   "decided": sum(r.source == "DECIDED" for r in checklist)}
        for key, stated in totals.items():
            if counted[key] != stated:
                problems.append(f"the checklist states {stated} for {key!r} but lists {counted[key]}")
    if problems:
        raise ExtractError("; ".join(problems))
    return rules


def build_document(game: str, source_name: str, rules: list[Rule]) -> dict:
    return {"game": game, "source": source_name, "rules": [r.as_dict() for r in rules]}


def render(document: dict) -> str:
    header = (f"# Rule IDs of {document['source']}, generated by tools/extract_rule_ids.py.\n"
              "# Do not edit by hand: change the rules reference and run the tool again.\n")
    body = yaml.safe_dump(document, sort_keys=False, allow_unicode=True, width=100)
    return header + body


def validate(document: dict) -> None:
    schema = yaml.safe_load(SCHEMA.read_text(encoding="utf-8"))
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(document))
    ids = [rule["id"] for rule in document["rules"]]
    if len(set(ids)) != len(ids):
        raise ExtractError("the generated list names a rule ID twice")
    if errors:
        where = "/".join(str(p) for p in errors[0].absolute_path) or "(top level)"
        raise ExtractError(f"the generated list breaks {SCHEMA.name}: {where}: {errors[0].message}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="struggle", help="game id (rules-<game>.md)")
    parser.add_argument("--rules", type=Path, help="the rules reference (default: "
                        "../shared/design/rules-<game>.md)")
    parser.add_argument("--out", type=Path, help="output file (default: "
                        "assets/rules/<game>-rules.yaml)")
    parser.add_argument("--check", action="store_true",
                        help="do not write; exit 1 if the output file is out of date")
    args = parser.parse_args(argv)
    rules_path = args.rules or DESIGN_DIR / f"rules-{args.game}.md"
    out_path = args.out or ROOT / "assets" / "rules" / f"{args.game}-rules.yaml"
    try:
        warnings: list[str] = []
        rules = extract(rules_path.read_text(encoding="utf-8"), warnings)
        for warning in warnings:
            print(f"warning: {rules_path.name}: {warning}", file=sys.stderr)
        document = build_document(args.game, rules_path.name, rules)
        validate(document)
    except (OSError, ExtractError) as exc:
        print(f"error: {rules_path}: {exc}", file=sys.stderr)
        return 2
    text = render(document)
    if args.check:
        current = out_path.read_text(encoding="utf-8") if out_path.exists() else ""
        if current != text:
            print(f"{out_path} is out of date: run tools/extract_rule_ids.py", file=sys.stderr)
            return 1
        print(f"{out_path}: up to date ({len(rules)} rules)")
        return 0
    out_path.parent.mkdir(parents=True, exist_ok=True)
    out_path.write_text(text, encoding="utf-8")
    kinds = {k: sum(r.source == k for r in rules) for k in sorted({r.source for r in rules})}
    print(f"wrote {out_path}: {len(rules)} rules "
          + ", ".join(f"{n} {k}" for k, n in kinds.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
