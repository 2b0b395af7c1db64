"""Every rule ID of each game's rules reference is cited by at least one test (ARCHITECTURE.md
section 8), except the known gaps listed in ``tests/rule_coverage_gaps/<game>.txt``; and the
gaps lists only shrink. Every rule ID is also named by the code or data that implements it
(the program's modules, tables and scenarios), or listed with the reason it needs none in
``tests/rules_not_in_code/<game>.txt``. Nothing cites a range of IDs ("SGE-IO-1..3" hides
SGE-IO-2 from a search).

The rule IDs come from ``assets/rules/<game>-rules.yaml`` (generated from ``rules-<game>.md``
by ``tools/extract_rule_ids.py``); every game with such a file is checked. A citation is the
exact ID as a whole token in the source of a test file under ``tests/`` (this file excepted):
an ID followed by another digit or by more of an ID is a different ID.

To rewrite a game's gaps file from the current tests::

    python tests/test_rule_coverage.py --write-gaps [GAME]
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
RULES_DIR = ROOT / "assets" / "rules"
SCHEMA = ROOT / "struggle_desktop" / "engine" / "schemas" / "rules-list.schema.yaml"
GAPS_DIR = TESTS / "rule_coverage_gaps"
NOT_IN_CODE_DIR = TESTS / "rules_not_in_code"
#: Where the program's code and data live: what must name the rules it implements.
PROGRAM_DIRS = ("struggle_desktop", "assets", "scenarios")
PROGRAM_SUFFIXES = {".py", ".yaml", ".yml", ".json"}
#: Everything that may cite a rule ID, to be searched for ranges.
CITING_DIRS = ("struggle_desktop", "assets", "scenarios", "tests", "tools", "benchmarks", "docs")
DESIGN_DIR = ROOT.parent / "shared" / "design"
TOOL = ROOT / "tools" / "extract_rule_ids.py"
#: The games whose rule lists exist, and the size of each checklist (rules-<game>.md section
#: "Rule checklist": total, SEED, DECIDED; Freedom's further rules are SEED+DECIDED).
CHECKLISTS = {"struggle": (254, 96, 158, "SGE"), "battles": (165, 76, 89, "BFG"),
              "nobles": (231, 105, 126, "NH"), "freedom": (234, 146, 16, "FIG")}
GAMES = sorted(p.name.removesuffix("-rules.yaml") for p in RULES_DIR.glob("*-rules.yaml"))


def rules_file(game: str) -> Path:
    return RULES_DIR / f"{game}-rules.yaml"


def gaps_file(game: str) -> Path:
    return GAPS_DIR / f"{game}.txt"


def rule_list(game: str) -> dict:
    return load_validated(rules_file(game), SCHEMA)


def known_ids(game: str) -> list[str]:
    return [rule["id"] for rule in rule_list(game)["rules"]]


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


def read_gaps(game: str) -> list[str]:
    """The IDs of the game's gaps file, one per line; ``#`` starts a comment."""
    path = gaps_file(game)
    if not path.exists():
        return []
    ids = []
    for line in path.read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            ids.append(text)
    return ids


def test_every_game_with_rules_is_checked():
    assert set(GAMES) == set(CHECKLISTS)


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_is_cited_or_a_known_gap(game):
    known = known_ids(game)
    cited = cited_ids(known)
    gaps = set(read_gaps(game))
    uncited = [i for i in known if i not in cited and i not in gaps]
    assert not uncited, (
        f"{len(uncited)} rule IDs are cited by no test and are not in "
        f"{gaps_file(game).name}: " + ", ".join(uncited))


@pytest.mark.parametrize("game", GAMES)
def test_the_gaps_list_only_shrinks(game):
    """An ID that a test now cites must leave the gaps file."""
    known = known_ids(game)
    cited = cited_ids(known)
    now_cited = [i for i in read_gaps(game) if i in cited]
    assert not now_cited, (f"cited by a test now, remove from {gaps_file(game)}: "
                           + ", ".join(f"{i} ({', '.join(sorted(cited[i]))})" for i in now_cited))


def program_files() -> list[Path]:
    """The program's code and data files, but the generated rule lists themselves."""
    return [path for top in PROGRAM_DIRS for path in sorted((ROOT / top).rglob("*"))
            if path.suffix in PROGRAM_SUFFIXES and path.is_file()
            and RULES_DIR not in path.parents]


def named_ids(known: list[str]) -> set[str]:
    """Every rule ID that the program's code or data names, as a whole token."""
    pattern = token_pattern({k.split("-")[0] for k in known})
    named: set[str] = set()
    for path in program_files():
        named.update(pattern.findall(path.read_text(encoding="utf-8")))
    return named


def read_not_in_code(game: str) -> dict[str, str]:
    """``tests/rules_not_in_code/<game>.txt``: ``ID  # reason`` per line -> {ID: reason}."""
    path = NOT_IN_CODE_DIR / f"{game}.txt"
    if not path.exists():
        return {}
    listed = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        rule, _, reason = line.partition("#")
        if rule.strip():
            assert rule.strip() not in listed, f"{rule.strip()} is listed twice in {path.name}"
            listed[rule.strip()] = reason.strip()
    return listed


@pytest.mark.parametrize("game", GAMES)
def test_every_rule_id_is_named_by_the_code_or_listed_with_a_reason(game):
    known = known_ids(game)
    named = named_ids(known)
    listed = read_not_in_code(game)
    unnamed = [i for i in known if i not in named and i not in listed]
    assert not unnamed, (
        f"{len(unnamed)} rule IDs are named by no code or data and not listed in "
        f"tests/rules_not_in_code/{game}.txt: " + ", ".join(unnamed))
    assert [i for i in listed if i not in set(known)] == [], "unknown IDs in the list"
    assert [i for i, why in listed.items() if not why] == [], "every listed ID needs its reason"
    contradicted = [i for i in listed if i in named]
    assert not contradicted, (f"named by the code now, remove from rules_not_in_code/{game}.txt: "
                              + ", ".join(contradicted))


#: A rule ID followed by a range or a list of numbers: "SGE-IO-1..3", "NH-REC-5–9",
#: "BFG-OPT-5/8", or a span of two IDs: "FIG-BDR-1 to FIG-BDR-13".
RANGE = re.compile(r"\b(?:SGE|BFG|NH|FIG)(?:-[A-Z0-9]+)+(?: ?(?:\.\.|–|—|/) ?[A-Z]*[0-9]"
                   r"| (?:to|through|-) (?:SGE|BFG|NH|FIG)-)")
#: Pages generated from the rules references, which may span IDs in their own words.
GENERATED_PAGES = ("docs/house-rules.md",)


def test_rule_ids_are_cited_one_by_one_never_as_ranges():
    found = []
    for top in CITING_DIRS:
        for path in sorted((ROOT / top).rglob("*")):
            if (path.suffix not in PROGRAM_SUFFIXES | {".md", ".txt"} or not path.is_file()
                    or "golden" in path.parts or RULES_DIR in path.parents
                    or path.resolve() == Path(__file__).resolve()   # its examples
                    or str(path.relative_to(ROOT)) in GENERATED_PAGES):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                found += [f"{path.relative_to(ROOT)}:{number}: {m.group()}"
                          for m in RANGE.finditer(line)]
    assert not found, "cite each rule ID on its own:\n" + "\n".join(found)


def test_the_range_pattern():
    text = ("SGE-IO-1..3, NH-REC-5–9, BFG-OPT-5/8, SGE-IO-1, SGE-IO-3 and BFG-OPT-5 / 8, "
            "FIG-BDR-1 to FIG-BDR-13, SGE-MAP-1 to 4 sectors")
    assert [m.group() for m in RANGE.finditer(text)] == [
        "SGE-IO-1..3", "NH-REC-5–9", "BFG-OPT-5/8", "BFG-OPT-5 / 8", "FIG-BDR-1 to FIG-"]


@pytest.mark.parametrize("game", GAMES)
def test_the_gaps_file_names_real_ids_once(game):
    gaps = read_gaps(game)
    known = set(known_ids(game))
    assert [i for i in gaps if i not in known] == [], "unknown IDs in the gaps file"
    assert len(gaps) == len(set(gaps)), "an ID is listed twice in the gaps file"


@pytest.mark.parametrize("game", GAMES)
def test_tests_cite_only_existing_ids(game):
    known = known_ids(game)
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
@pytest.mark.parametrize("game", GAMES)
def test_rule_list_matches_the_checklist(game):
    """The checklist's counts (e.g. Struggle: 254 rules, 96 SEED, 158 DECIDED), every DECIDED
    rule with its reason, no duplicates."""
    total, seed, decided, prefix = CHECKLISTS[game]
    rules = rule_list(game)["rules"]
    assert rule_list(game)["game"] == game
    assert len(rules) == total
    assert sum(r["source"] == "SEED" for r in rules) == seed
    assert sum(r["source"] == "DECIDED" for r in rules) == decided
    assert len({r["id"] for r in rules}) == total
    assert all(r["why"] for r in rules if r["source"] == "DECIDED")
    assert all(r["why"] is None for r in rules if r["source"] == "SEED")
    assert all(re.fullmatch(rf"{prefix}-[A-Z]+-[A-Z0-9-]+", r["id"]) for r in rules)


def load_tool():
    """tools/extract_rule_ids.py (not a package: loaded from its path, once)."""
    if "extract_rule_ids" not in sys.modules:
        spec = importlib.util.spec_from_file_location("extract_rule_ids", TOOL)
        module = importlib.util.module_from_spec(spec)
        sys.modules["extract_rule_ids"] = module   # dataclasses look their module up here
        spec.loader.exec_module(module)
    return sys.modules["extract_rule_ids"]


@pytest.mark.parametrize("game", GAMES)
def test_rule_list_is_up_to_date_with_the_rules_reference(tmp_path, game):
    reference = DESIGN_DIR / f"rules-{game}.md"
    if not reference.exists():
        pytest.skip(f"{reference} is not beside this checkout")
    tool = load_tool()
    out = tmp_path / "rules.yaml"
    assert tool.main(["--game", game, "--rules", str(reference), "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == rules_file(game).read_text(encoding="utf-8"), (
        f"assets/rules/{game}-rules.yaml is out of date: run tools/extract_rule_ids.py "
        f"--game {game}")


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


def write_gaps(game: str) -> int:
    """Rewrite a game's gaps file from the current tests (for the maintainers)."""
    known = known_ids(game)
    cited = cited_ids(known)
    gaps = [i for i in known if i not in cited]
    header = ("# Rule IDs no test cites yet (tests/test_rule_coverage.py). One ID per line; "
              "'#' starts a comment.\n# The list may only shrink: remove an ID as soon as a "
              "test cites it. Regenerate with\n#   python tests/test_rule_coverage.py "
              f"--write-gaps {game}\n")
    GAPS_DIR.mkdir(exist_ok=True)
    gaps_file(game).write_text(header + "".join(f"{i}\n" for i in gaps), encoding="utf-8")
    print(f"{gaps_file(game)}: {len(gaps)} of {len(known)} rule IDs not cited yet")
    return 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--write-gaps"]:
        sys.exit(max(write_gaps(g) for g in (sys.argv[2:] or GAMES)))
    print(__doc__)
    sys.exit(2)
