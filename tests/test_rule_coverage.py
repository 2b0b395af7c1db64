"""Every rule ID of the rules reference is cited by at least one test (ARCHITECTURE.md
section 8), except the known gaps listed in ``tests/rule_coverage_gaps.txt``; and the gaps list
only shrinks.

The rule IDs come from ``assets/rules/struggle-rules.yaml`` (generated from
``rules-struggle.md`` by ``tools/extract_rule_ids.py``). A citation is the exact ID as a whole
token in the source of a test file under ``tests/`` (this file excepted): an ID followed by
another digit or by more of an ID is a different ID.

To rewrite the gaps file from the current tests::

    python tests/test_rule_coverage.py --write-gaps
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":   # run as a script from a checkout: find the package beside tests/
    sys.path.insert(0, str(ROOT))

from struggle_desktop.engine.data import load_validated  # noqa: E402
TESTS = ROOT / "tests"
RULES_FILE = ROOT / "assets" / "rules" / "struggle-rules.yaml"
SCHEMA = ROOT / "struggle_desktop" / "engine" / "schemas" / "rules-list.schema.yaml"
GAPS_FILE = TESTS / "rule_coverage_gaps.txt"
RULES_REFERENCE = ROOT.parent / "shared" / "design" / "rules-struggle.md"
TOOL = ROOT / "tools" / "extract_rule_ids.py"


def rule_list() -> dict:
    return load_validated(RULES_FILE, SCHEMA)


def known_ids() -> list[str]:
    return [rule["id"] for rule in rule_list()["rules"]]


def token_pattern(prefixes: set[str]) -> re.Pattern:
    """A whole ID token: not preceded or followed by more ID characters, so SGE-CI-1 is not
    found inside SGE-CI-10 and SGE-EV-IE is not found inside SGE-EV-IE-ARISES."""
    alternatives = "|".join(sorted(map(re.escape, prefixes)))
    return re.compile(rf"(?<![A-Za-z0-9-])(?:{alternatives})(?:-[A-Z0-9]+)+(?![A-Za-z0-9]|-[A-Z0-9])")


def cited_ids(known: list[str]) -> dict[str, set[str]]:
    """Every ID-shaped token in the test sources -> the test files citing it. Area names
    alone (``SGE-ILL``) are not rule IDs and are skipped."""
    pattern = token_pattern({k.split("-")[0] for k in known})
    cited: dict[str, set[str]] = {}
    for path in sorted(TESTS.rglob("*.py")):
        if path.resolve() == Path(__file__).resolve():
            continue
        for token in pattern.findall(path.read_text(encoding="utf-8")):
            if token.count("-") >= 2:
                cited.setdefault(token, set()).add(str(path.relative_to(ROOT)))
    return cited


def read_gaps() -> list[str]:
    """The IDs of the gaps file, one per line; ``#`` starts a comment."""
    if not GAPS_FILE.exists():
        return []
    ids = []
    for line in GAPS_FILE.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            ids.append(text)
    return ids


def test_every_rule_id_is_cited_or_a_known_gap():
    known = known_ids()
    cited = cited_ids(known)
    gaps = set(read_gaps())
    uncited = [i for i in known if i not in cited and i not in gaps]
    assert not uncited, (
        f"{len(uncited)} rule IDs are cited by no test and are not in {GAPS_FILE.name}: "
        + ", ".join(uncited))


def test_the_gaps_list_only_shrinks():
    """An ID that a test now cites must leave the gaps file."""
    known = known_ids()
    cited = cited_ids(known)
    now_cited = [i for i in read_gaps() if i in cited]
    assert not now_cited, (f"cited by a test now, remove from {GAPS_FILE.name}: "
                           + ", ".join(f"{i} ({', '.join(sorted(cited[i]))})" for i in now_cited))


def test_the_gaps_file_names_real_ids_once():
    gaps = read_gaps()
    known = set(known_ids())
    assert [i for i in gaps if i not in known] == [], "unknown IDs in the gaps file"
    assert len(gaps) == len(set(gaps)), "an ID is listed twice in the gaps file"


def test_tests_cite_only_existing_ids():
    known = known_ids()
    cited = cited_ids(known)
    unknown = {i: sorted(files) for i, files in cited.items() if i not in set(known)}
    assert not unknown, f"tests cite rule IDs that do not exist: {unknown}"


def test_word_boundaries():
    pattern = token_pattern({"SGE"})
    text = ("SGE-CI-10 and SGE-EV-IE-ARISES, (SGE-CI-1), 'SGE-DICE-3'. SGE-IO-1..3, "
            "XSGE-MAP-1 SGE-ILL SGE-MAP-2x")
    assert pattern.findall(text) == ["SGE-CI-10", "SGE-EV-IE-ARISES", "SGE-CI-1", "SGE-DICE-3",
                                     "SGE-IO-1", "SGE-ILL"]


# ------------------------------------------------------------------------------ the list
def test_rule_list_matches_the_checklist():
    """254 rules, 96 SEED and 158 DECIDED, every DECIDED rule with its reason, no duplicates."""
    rules = rule_list()["rules"]
    assert rule_list()["game"] == "struggle"
    assert len(rules) == 254
    assert sum(r["source"] == "SEED" for r in rules) == 96
    assert sum(r["source"] == "DECIDED" for r in rules) == 158
    assert len({r["id"] for r in rules}) == 254
    assert all(r["why"] for r in rules if r["source"] == "DECIDED")
    assert all(r["why"] is None for r in rules if r["source"] == "SEED")
    assert all(re.fullmatch(r"SGE-[A-Z]+-[A-Z0-9-]+", r["id"]) for r in rules)


def load_tool():
    """tools/extract_rule_ids.py (not a package: loaded from its path, once)."""
    if "extract_rule_ids" not in sys.modules:
        spec = importlib.util.spec_from_file_location("extract_rule_ids", TOOL)
        module = importlib.util.module_from_spec(spec)
        sys.modules["extract_rule_ids"] = module   # dataclasses look their module up here
        spec.loader.exec_module(module)
    return sys.modules["extract_rule_ids"]


def test_rule_list_is_up_to_date_with_the_rules_reference(tmp_path):
    if not RULES_REFERENCE.exists():
        pytest.skip(f"{RULES_REFERENCE} is not beside this checkout")
    tool = load_tool()
    out = tmp_path / "rules.yaml"
    assert tool.main(["--rules", str(RULES_REFERENCE), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == RULES_FILE.read_text(encoding="utf-8"), (
        "assets/rules/struggle-rules.yaml is out of date: run tools/extract_rule_ids.py")


SAMPLE = """\
# Demo rules

**DEM-A-1: First rule.** [SEED 000:L1-2] Something the seed says.

**DEM-A-2: Second rule.** [DECIDED] A decision.
- a detail

*Why:* because it is simpler.

## 9. Rule checklist

Totals: 2 rules; 1 SEED, 1 DECIDED.

| ID | Title | Source |
|---|---|---|
| DEM-A-1 | First rule | SEED 000:L1-2 |
| DEM-A-2 | Second rule | DECIDED |
"""


def test_tool_extracts_ids_titles_sources_and_reasons():
    rules = load_tool().extract(SAMPLE)
    assert [r.as_dict() for r in rules] == [
        {"id": "DEM-A-1", "title": "First rule", "source": "SEED", "why": None},
        {"id": "DEM-A-2", "title": "Second rule", "source": "DECIDED",
         "why": "because it is simpler."},
    ]


@pytest.mark.parametrize("change, complaint", [
    (("| DEM-A-2 | Second rule | DECIDED |\n", ""), "defined but not in the checklist"),
    (("**DEM-A-2: Second rule.**", "**DEM-A-3: Second rule.**"), "never defined"),
    (("| DEM-A-1 | First rule |", "| DEM-A-1 | Other title |"), "differs from the checklist"),
    (("| DEM-A-2 | Second rule | DECIDED |", "| DEM-A-2 | Second rule | SEED 000:L3 |"),
     "is tagged DECIDED in the text and SEED in the checklist"),
    (("Totals: 2 rules", "Totals: 3 rules"), "states 3"),
    (("**DEM-A-2: Second rule.**", "**DEM-A-1: Second rule.**"), "defined twice"),
    (("## 9. Rule checklist", "## 9. Other things"), "no '## N. Rule checklist'"),
])
def test_tool_fails_loudly_on_a_mismatch(change, complaint):
    tool = load_tool()
    with pytest.raises(tool.ExtractError, match=re.escape(complaint)):
        tool.extract(SAMPLE.replace(*change))


def write_gaps() -> int:
    """Rewrite the gaps file from the current tests (for the maintainers)."""
    known = known_ids()
    cited = cited_ids(known)
    gaps = [i for i in known if i not in cited]
    header = ("# Rule IDs no test cites yet (tests/test_rule_coverage.py). One ID per line; "
              "'#' starts a comment.\n# The list may only shrink: remove an ID as soon as a "
              "test cites it. Regenerate with\n#   python tests/test_rule_coverage.py "
              "--write-gaps\n")
    GAPS_FILE.write_text(header + "".join(f"{i}\n" for i in gaps), encoding="utf-8")
    print(f"{GAPS_FILE}: {len(gaps)} of {len(known)} rule IDs not cited yet")
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--write-gaps"]:
        sys.exit(write_gaps())
    print(__doc__)
    sys.exit(2)
