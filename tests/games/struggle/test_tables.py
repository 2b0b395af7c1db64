"""Data tests for the Struggle tables (assets/tables/struggle) and scenarios (scenarios/struggle).

Every table and scenario is loaded with ``yaml.safe_load`` and validated against its JSON Schema
(struggle_desktop/games/struggle/schemas). The remaining tests compare the data with the numbers
stated in rules-struggle.md. A test names a rule ID only where that rule is itself the table, list
or set-up it checks (SGE-REC-2's unit values, SGE-CMB-8's table, a scenario's set-up); a value
that a rule only uses (an attack limit, a die modifier, a cap) is checked here without the rule's
ID, and the rule is exercised by playing positions in the other test files.
"""

from __future__ import annotations

import copy
import math
import os
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator

from tests.games.struggle.helpers import RULES_CRT

ROOT = Path(__file__).resolve().parents[3]
TABLES = ROOT / "assets" / "tables" / "struggle"
SCHEMAS = ROOT / "struggle_desktop" / "games" / "struggle" / "schemas"
SCENARIOS = ROOT / "scenarios" / "struggle"

TABLE_STEMS = [
    "aert",
    "chaos_operations",
    "ci_changes",
    "ci_track",
    "combat_limits",
    "combat_results",
    "event_pool",
    "event_values",
    "expedition_markers",
    "extropy",
    "ie_recruiting",
    "illumination",
    "invaders",
    "leaders",
    "markers",
    "misc_decided",
    "suppression",
    "system_units",
    "th_factors",
    "units",
    "usurpation",
    "victory",
]
SCENARIO_IDS = ["1", "2", "3", "4", "5", "6", "7"]
SETUP_IDS = SCENARIO_IDS[:6]

# Where the rules reference may live, relative to the repository root (first hit wins).
RULES_CANDIDATES = [
    ROOT / "docs" / "rules-struggle.md",
    ROOT / "docs" / "design" / "rules-struggle.md",
    ROOT.parent / "shared" / "design" / "rules-struggle.md",
]
RULE_HEADER = re.compile(r"^\*\*(SGE-[A-Z0-9-]+):.*?\*\*\s*\[(SEED|DECIDED)\b", re.M)


# ---------------------------------------------------------------- helpers


def load_yaml(path: Path):
    with path.open(encoding="utf-8") as fh:
        return yaml.safe_load(fh)


@lru_cache(maxsize=None)
def _table(stem: str):
    return load_yaml(TABLES / f"{stem}.yaml")


def table(stem: str):
    return copy.deepcopy(_table(stem))


@lru_cache(maxsize=None)
def _schema(stem: str):
    return load_yaml(SCHEMAS / f"{stem}.schema.yaml")


def validator(stem: str) -> Draft202012Validator:
    schema = _schema(stem)
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


@lru_cache(maxsize=None)
def _scenario(sid: str):
    return load_yaml(SCENARIOS / f"{sid}.yaml")


def scenario(sid: str):
    return copy.deepcopy(_scenario(sid))


@lru_cache(maxsize=None)
def rule_tags() -> dict[str, str]:
    """Rule ID -> "SEED" or "DECIDED", parsed from the rules reference headers."""
    override = os.environ.get("STRUGGLE_RULES_FILE")
    candidates = ([Path(override)] if override else []) + RULES_CANDIDATES
    for path in candidates:
        if path.is_file():
            tags = dict(RULE_HEADER.findall(path.read_text(encoding="utf-8")))
            assert tags, f"no rule headers found in {path}"
            return tags
    pytest.skip("rules-struggle.md not found (set STRUGGLE_RULES_FILE)")


def band_lookup(rows: list[dict], value: int, key: str = "max"):
    """The first row whose inclusive upper bound (null = open) is >= value."""
    for row in rows:
        if row[key] is None or value <= row[key]:
            return row
    raise AssertionError(f"no band for {value}")


def markers_by_id() -> dict[str, dict]:
    return {m["id"]: m for m in table("event_pool")["markers"]}


# ---------------------------------------------------------------- schemas and headers


def test_table_set_is_complete():
    """Every table file has a schema, and the table folder holds exactly the expected files."""
    on_disk = sorted(p.stem for p in TABLES.glob("*.yaml"))
    assert on_disk == sorted(TABLE_STEMS)
    for stem in TABLE_STEMS:
        assert (SCHEMAS / f"{stem}.schema.yaml").is_file(), stem
    assert (SCHEMAS / "scenario.schema.yaml").is_file()


@pytest.mark.parametrize("stem", TABLE_STEMS)
def test_table_validates(stem):
    """The table loads with yaml.safe_load and validates against its schema."""
    data = table(stem)
    errors = sorted(validator(stem).iter_errors(data), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    assert data["id"] == stem
    assert data["title"]


@pytest.mark.parametrize("stem", TABLE_STEMS)
def test_schema_has_description_and_closed_top_level(stem):
    """Each schema is draft 2020-12, describes its table and rejects unknown top-level keys."""
    schema = _schema(stem)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert len(schema["description"]) > 40
    assert schema["additionalProperties"] is False
    assert {"id", "title", "reconstructed", "rules"} <= set(schema["required"])


@pytest.mark.parametrize("stem", TABLE_STEMS)
def test_schema_rejects_broken_tables(stem):
    """Each schema rejects a missing data key, an unknown key and a non-boolean flag."""
    v = validator(stem)
    good = table(stem)
    # documentation_only (values stated for the record) is optional, like the header.
    data_keys = [k for k in good
                 if k not in ("id", "title", "reconstructed", "rules", "documentation_only")]
    assert data_keys
    for key in data_keys + ["rules"]:
        broken = copy.deepcopy(good)
        del broken[key]
        assert not v.is_valid(broken), f"missing {key!r} accepted"
    broken = copy.deepcopy(good)
    broken["unexpected_key"] = 1
    assert not v.is_valid(broken)
    broken = copy.deepcopy(good)
    broken["reconstructed"] = "yes"
    assert not v.is_valid(broken)
    broken = copy.deepcopy(good)
    broken["id"] = "something_else"
    assert not v.is_valid(broken)


def test_schemas_reject_broken_values():
    """Spot checks that the schemas catch bad cells, not only missing keys."""
    cases = []
    crt = table("combat_results")
    crt["rows"][3][2] = "D4"
    cases.append(("combat_results", crt))
    crt = table("combat_results")
    crt["rows"].pop()
    cases.append(("combat_results", crt))
    ops = table("chaos_operations")
    ops["results"]["rebel"][2] = {"op": "stay", "attack": False}
    cases.append(("chaos_operations", ops))
    ops = table("chaos_operations")
    ops["results"]["ie"][0]["op"] = "teleport"
    cases.append(("chaos_operations", ops))
    pool = table("event_pool")
    pool["markers"][0]["lasts"] = "forever"
    cases.append(("event_pool", pool))
    pool = table("event_pool")
    del pool["markers"][5]["suppressible"]
    cases.append(("event_pool", pool))
    units = table("units")
    del units["mobile_units"]["WS"]
    cases.append(("units", units))
    units = table("units")
    units["mobile_units"]["SF"]["needs"] = "stargates"
    cases.append(("units", units))
    ext = table("extropy")
    ext["ci_change_by_face"].append(0)
    cases.append(("extropy", ext))
    exp = table("expedition_markers")
    exp["markers"][0]["amount"] = 3  # a die-sized effect with a fixed amount
    cases.append(("expedition_markers", exp))
    misc = table("misc_decided")
    misc["nexus"]["surprise"] = 1
    cases.append(("misc_decided", misc))
    for stem, data in cases:
        assert not validator(stem).is_valid(data), stem


@pytest.mark.parametrize("stem", TABLE_STEMS)
def test_reconstructed_flag_matches_rule_tags(stem):
    """A table is reconstructed exactly when one of the rules it cites is tagged [DECIDED]."""
    tags = rule_tags()
    data = table(stem)
    unknown = [r for r in data["rules"] if r not in tags]
    assert not unknown, f"{stem} cites unknown rules {unknown}"
    expected = any(tags[r] == "DECIDED" for r in data["rules"])
    assert data["reconstructed"] is expected, stem


def test_misc_decided_entries_cite_decided_rules():
    """Every entry of misc_decided names only [DECIDED] rules, all listed in the file header."""
    tags = rule_tags()
    data = table("misc_decided")
    cited = set()
    for key, entry in data.items():
        if isinstance(entry, dict):
            assert entry["rules"], key
            for rule in entry["rules"]:
                assert tags.get(rule) == "DECIDED", (key, rule)
            cited.update(entry["rules"])
    assert cited == set(data["rules"])


def test_banded_tables_are_ordered_and_open_ended():
    """Banded tables ascend, and their highest row is open-ended (reading a roll beyond a
    table is exercised in test_combat.py and test_aliens.py)."""
    bands = [
        table("ie_recruiting")["rows"],
        table("aert")["rows"],
        table("usurpation")["results"],
    ]
    for rows in bands:
        maxima = [r["max"] for r in rows]
        assert maxima[-1] is None
        assert all(m is not None for m in maxima[:-1])
        assert maxima[:-1] == sorted(maxima[:-1])
        assert len(set(maxima[:-1])) == len(maxima) - 1
    for rows in (table("ci_track")["markers_per_round"], table("th_factors")["bands"]):
        maxima = [r["ci_max"] for r in rows]
        assert maxima[-1] is None and maxima[:-1] == sorted(maxima[:-1])
    cols = table("combat_results")["columns"]
    assert cols[0]["min"] is None and cols[-1]["max"] is None


# ---------------------------------------------------------------- counters


def test_mobile_counter_mix():
    """SGE-REC-5: 40 SF, 50 AF, 40 CG, 10 IO, 10 CF, 15 WS, 15 TH."""
    units = table("units")["mobile_units"]
    assert {code: u["counters"] for code, u in units.items()} == {
        "SF": 40, "AF": 50, "CG": 40, "IO": 10, "CF": 10, "WS": 15, "TH": 15,
    }


def test_unit_values():
    """SGE-REC-2: factors (with parentheses), MA, recruit cost and maintenance of each type."""
    units = table("units")["mobile_units"]
    expected = {
        # code: (mil, morph, mil_paren, morph_paren, ma, cost, upkeep)
        "SF": (2, 0, False, False, 2, 3, 1),
        "AF": (3, 1, False, False, 3, 5, 1),
        "CG": (1, 2, True, False, 2, 3, 1),
        "IO": (2, 2, False, False, 3, 6, 1),
        "CF": (1, 1, True, False, 1, 4, 1),
        "WS": (3, 3, False, False, 1, 10, 2),
        "TH": (None, None, False, False, 2, 4, 1),
    }
    got = {
        code: (u["mil"], u["morph"], u["mil_paren"], u["morph_paren"], u["ma"], u["cost"], u["upkeep"])
        for code, u in units.items()
    }
    assert got == expected


def test_unit_types():
    """SGE-REC-1: the seven mobile unit types and their names."""
    units = table("units")["mobile_units"]
    assert {code: u["name"] for code, u in units.items()} == {
        "SF": "Star Fleet", "AF": "Alpha Fleet", "CG": "Control Group", "IO": "Imperial Order",
        "CF": "Colonization Fleet", "WS": "World Ship", "TH": "Trans-humans",
    }


def test_unit_optional_rules_and_loyalty():
    """units.yaml: IO and TH name the optional rule they need; only IO is flagged never to
    convert (the rules that read these flags are exercised in test_imperial.py and
    test_combat.py)."""
    units = table("units")["mobile_units"]
    assert {c: u["needs"] for c, u in units.items() if u["needs"]} == {
        "IO": "imperial_order", "TH": "trans_humans",
    }
    assert [c for c, u in units.items() if u["never_converts"]] == ["IO"]


def test_trans_human_factors():
    """SGE-TH-2: TH factors 3/2/1 (Imperial) and 1/2/3 (Chaos) by CI band, edges inclusive."""
    bands = table("th_factors")["bands"]
    for ci, imperial, chaos in [(0, 3, 1), (30, 3, 1), (31, 2, 2), (70, 2, 2), (71, 1, 3), (150, 1, 3)]:
        band = band_lookup(bands, ci, key="ci_max")
        assert (band["imperial"], band["chaos"]) == (imperial, chaos), ci


def test_system_unit_mix():
    """SGE-RES-2: 60 system units in 13 rows; 20/20/12/8 by RV 1-4."""
    rows = table("system_units")["counters"]
    assert len(rows) == 13
    assert sum(r["count"] for r in rows) == 60
    by_rv = Counter()
    for r in rows:
        by_rv[r["rv"]] += r["count"]
    assert dict(by_rv) == {1: 20, 2: 20, 3: 12, 4: 8}
    assert [(r["count"], r["mil"], r["morph"], r["rv"]) for r in rows] == [
        (5, 1, 0, 1), (5, 0, 1, 1), (5, 1, 1, 1), (5, 2, 0, 1),
        (5, 1, 2, 2), (5, 2, 1, 2), (5, 2, 2, 2), (5, 0, 3, 2),
        (4, 2, 3, 3), (4, 3, 2, 3), (4, 3, 1, 3),
        (4, 3, 3, 4), (4, 4, 2, 4),
    ]


def test_leader_pools():
    """SGE-LDR-2: Imperial pool 1,1,1,2,2,3; Chaos pool 1,1,2,2,2,3,3,4."""
    data = table("leaders")
    assert sorted(data["imperial"]) == [1, 1, 1, 2, 2, 3]
    assert sorted(data["chaos"]) == [1, 1, 2, 2, 2, 3, 3, 4]


def test_random_leader_value():
    """SGE-LDR-7: d10 0-3 gives 1, 4-6 gives 2, 7-8 gives 3, 9 gives 4."""
    rows = table("leaders")["random_value"]
    got = [band_lookup(rows, face, key="face_max")["value"] for face in range(10)]
    assert got == [1, 1, 1, 1, 2, 2, 2, 3, 3, 4]
    assert rows[-1]["face_max"] == 9


def test_marker_inventory():
    """SGE-REC-7: marker stocks."""
    assert table("markers")["inventory"] == {
        "ie_per_number": 10, "nexus": 6, "illumination": 6, "repression": 8,
        "stargate": 6, "increased_resources": 10, "expedition": 10,
    }


def test_marker_prices():
    """SGE-REC-9, SGE-ILL-2: marker prices in RP (buying at these prices is exercised in
    test_imperial.py)."""
    assert table("markers")["prices"] == {
        "nexus": 5, "illumination": 2, "illumination_enlightenment": 1,
        "repression_per_rp": 1, "repression_per_rp_paranoia": 2,
        "stargate": 5, "increased_resources": 6,
    }


# ---------------------------------------------------------------- chaos event pool

POOL_COUNTS = {
    "BIOMECH": 2, "DARK-EMPIRE": 2, "HIVE": 1, "NEBULA": 1, "MESSIAH": 1, "PROBE": 1,
    "RANDOIDS": 1, "ALLIANCE": 2, "ATTRITION": 4, "REFORMS": 2, "COLONIZATION": 4, "CULT": 3,
    "DEFECTION": 2, "SMASH": 4, "CORPS": 2, "EXPEDITION": 4, "STORM": 4, "CRUSADE": 1,
    "ENLIGHTENMENT": 1, "ELITES": 1, "LEADER": 2, "IE-ARISES": 4, "INSTITUTE": 2, "INVADERS": 4,
    "LEVIATHAN": 2, "MILITARISM": 1, "MUTANT": 2, "PACIFISM": 1, "PARANOIA": 1,
    "POWER-STRUGGLE": 2, "REBELLION": 12, "ROBOTS": 1, "SPECTACLE": 2, "TECH-ADVANCE": 3,
    "TECH-COLLAPSE": 3, "TH-APPEAR": 3, "TROOPS-PAY": 2, "USURPER": 8, "WEB-RAIDERS": 2,
}
ALIENS = {"BIOMECH", "DARK-EMPIRE", "HIVE", "NEBULA", "MESSIAH", "PROBE", "RANDOIDS"}


def test_event_pool_composition():
    """SGE-POOL-1: 39 marker kinds, 100 markers, with the stated count of each kind."""
    markers = table("event_pool")["markers"]
    assert len(markers) == 39
    assert sum(m["count"] for m in markers) == 100
    assert {m["id"]: m["count"] for m in markers} == POOL_COUNTS
    assert len({m["id"] for m in markers}) == 39
    for m in markers:
        assert m["rule"] == f"SGE-EV-{m['id']}"
    names = {m["id"]: m["name"] for m in markers}
    assert names["BIOMECH"] == "Aliens—Biomech Predators"
    assert names["SMASH"] == "Don't Forget to Smash the Empire"


def test_event_rules_exist():
    """Every marker's rule is a chaos event rule of the reference."""
    tags = rule_tags()
    for m in table("event_pool")["markers"]:
        assert m["rule"] in tags, m["rule"]


def test_event_markers_needing_optional_rules():
    """SGE-POOL-4: Expedition Possible, Galactic Enlightenment, Elites and Trans-humans Appear."""
    needs = {i: m["needs"] for i, m in markers_by_id().items() if m["needs"]}
    assert needs == {
        "EXPEDITION": "expeditions",
        "ENLIGHTENMENT": "illumination",
        "ELITES": "illumination",
        "TH-APPEAR": "trans_humans",
    }


def test_event_marker_durations():
    """SGE-POOL-6, SGE-POOL-13: how long each marker stays in play (Militarism for the turn)."""
    lasts: dict[str, set[str]] = {}
    for i, m in markers_by_id().items():
        lasts.setdefault(m["lasts"], set()).add(i)
    assert lasts["chaos_operations"] == {"ALLIANCE"}
    assert lasts["chaos_colonization"] == {"COLONIZATION"}
    assert lasts["turn"] == {"ENLIGHTENMENT", "ELITES", "PACIFISM", "PARANOIA", "SPECTACLE", "MILITARISM"}
    assert lasts["map"] == ALIENS | {
        "EXPEDITION", "IE-ARISES", "INSTITUTE", "INVADERS", "LEVIATHAN", "MUTANT", "USURPER",
    }
    assert lasts["discard"] == {
        "ATTRITION", "REFORMS", "CULT", "DEFECTION", "SMASH", "CORPS", "STORM", "CRUSADE",
        "LEADER", "POWER-STRUGGLE", "REBELLION", "ROBOTS", "TECH-ADVANCE", "TECH-COLLAPSE",
        "TH-APPEAR", "TROOPS-PAY", "WEB-RAIDERS",
    }


def test_suppressible_events():
    """SGE-SUP-1: only Usurper, IE Arises, Invaders Appear and Rebellion can be suppressed."""
    got = {i for i, m in markers_by_id().items() if m["suppressible"]}
    assert got == {"USURPER", "IE-ARISES", "INVADERS", "REBELLION"}
    assert markers_by_id()["MUTANT"]["suppressible"] is False


def test_alien_markers():
    """SGE-ALN-1: the seven alien markers."""
    assert {i for i, m in markers_by_id().items() if m["alien"]} == ALIENS


def test_event_effects_are_short_summaries():
    """Effect texts are short summaries (one or two sentences), never long quotations."""
    for m in table("event_pool")["markers"]:
        text = m["effect"]
        assert 5 <= len(text) <= 300, m["id"]
        assert text.count(". ") <= 2, m["id"]


# ---------------------------------------------------------------- chaos index


def test_ci_changes():
    """SGE-CI-2: CI changes for combat losses and lost Nexus markers."""
    data = table("ci_changes")
    assert data["combat"] == {
        "imperial_mobile_eliminated": 2,
        "imperial_mobile_converted": 1,
        "imperial_system_eliminated_per_rv": 2,
        "imperial_system_converted_per_rv": 1,
        "chaos_mobile_eliminated": -1,
        "chaos_mobile_converted": -2,
        "chaos_system_eliminated_per_rv": -1,
        "chaos_system_converted_per_rv": -2,
    }
    assert data["nexus_lost"] == {"core": 2, "other": 1}


def test_markers_per_round():
    """SGE-CI-10: 2 x ceil(CI / 20) markers per round (0, 2, 4, 6, 8, 10 by band)."""
    rows = table("ci_track")["markers_per_round"]
    for ci in range(0, 121):
        expected = min(2 * math.ceil(ci / 20), 10)
        assert band_lookup(rows, ci, key="ci_max")["markers"] == expected, ci
    assert band_lookup(rows, 70, key="ci_max")["markers"] == 8
    assert band_lookup(rows, 80, key="ci_max")["markers"] == 8


def test_ci_track_limits():
    """ci_track.yaml: floor, half points, turn-1 cap and collapse point (the CI rules that
    use them are exercised in test_audit.py, test_events.py and test_turn.py)."""
    data = table("ci_track")
    assert data["collapse_at"] == 100
    assert data["turn1_cap"] == 95
    assert data["turn1_cap_sources"] == ["chaos_event_marker"]
    assert data["floor"] == 0
    assert data["step"] == 0.5
    assert data["rounds_per_turn"] == 1


# ---------------------------------------------------------------- chaos operations and combat


def test_chaos_operations_table():
    """SGE-OPS-4: the Chaos Operations Table, face by face."""
    res = table("chaos_operations")["results"]

    def col(name):
        return [(e["op"], e["attack"]) for e in res[name]]

    a, n = "attrition", "none"
    assert col("usurper") == [
        (a, False), (n, False), ("move_lower", False), ("move_higher", False),
        ("move_one_toward_core", True), ("move_toward_core", False), ("move_toward_core", True),
        ("move_toward_core", True), ("stay", True), ("move_toward_core", True),
    ]
    assert col("ie") == [
        (a, False), (n, False), ("move_threatened", False), ("move_threatened", False),
        ("move_threatened", True), ("move_threatened_or_conquest", True),
        ("move_threatened_or_conquest", True), ("stay", True),
        ("move_threatened_or_conquest", True), ("move_threatened_or_conquest", True),
    ]
    assert col("invader") == [
        (a, False), ("move_away", False), ("move_higher", False), ("move_lower", False),
        ("move_one_toward_core", True), ("move_one_toward_core", True),
        ("move_toward_core", True), ("move_toward_core", True), ("move_toward_core", True),
        ("stay", True),
    ]
    assert col("rebel") == [
        (a, False), (a, False), (n, False), (n, False), (n, False), (n, False),
        ("move_lower", True), ("move_higher", True), ("stay", True),
        ("move_one_toward_core", True),
    ]


def test_combat_results_table():
    """SGE-CMB-8: a 10 x 6 table over six differential bands, with spot values."""
    data = table("combat_results")
    assert data["columns"] == [
        {"min": None, "max": -4}, {"min": -3, "max": -1}, {"min": 0, "max": 2},
        {"min": 3, "max": 5}, {"min": 6, "max": 8}, {"min": 9, "max": None},
    ]
    rows = data["rows"]
    assert len(rows) == 10 and all(len(r) == 6 for r in rows)
    assert rows == RULES_CRT
    assert rows[2][2] == "-" and rows[4][2] == "D1" and rows[7][2] == "D2"
    assert rows[5][0] == "-" and rows[8][0] == "D1" and rows[1][4] == "D1"
    assert rows[3][0] == "A1" and rows[6][1] == "D1" and rows[5][5] == "D3"
    # No attack is safe and the larger force is favoured: results never get worse for the
    # attacker as the roll or the differential grows.
    order = {"A3": 0, "A2": 1, "A1": 2, "-": 3, "D1": 4, "D2": 5, "D3": 6}
    for i in range(10):
        for j in range(6):
            if i:
                assert order[rows[i][j]] >= order[rows[i - 1][j]]
            if j:
                assert order[rows[i][j]] >= order[rows[i][j - 1]]


def test_combat_limits():
    """combat_limits.yaml: one attack per type and sector, one leader per side, ties to morph.
    The rules are played in test_imperial.py (attack limits), test_combat.py (die modifiers,
    the Chaos attack type) and test_chaos_ops.py (the Alliance attack type)."""
    data = table("combat_limits")
    assert data["attacks_per_sector_per_type"] == 1
    assert data["leaders_per_side"] == 1
    assert data["chaos_type_tie"] == "morph"


def test_militarism_and_pacifism_modifiers():
    """combat_limits.yaml: Militarism's and Pacifism's +1/-1 die modifiers, mirrored (their
    effect on attacks, and their cancelling each other, are played in test_events.py and
    test_combat.py)."""
    data = table("combat_limits")
    assert data["militarism"] == {"military": 1, "morph": -1}
    assert data["pacifism"] == {"military": -1, "morph": 1}


# ---------------------------------------------------------------- usurpers, IEs, invaders, aliens


def test_usurpation_table():
    """SGE-USU-2: modifiers and the result bands of the Usurpation Table."""
    data = table("usurpation")
    assert data["modifiers"] == {"in_core": 2, "per_imperial_leader_near": -1}
    assert data["near_distance"] == 1
    got = {roll: band_lookup(data["results"], roll)["result"] for roll in range(-3, 16)}
    for roll, result in got.items():
        if roll <= 1:
            assert result == "loyal", roll
        elif roll <= 3:
            assert result == "dissolution", roll
        elif roll <= 7:
            assert result == "none", roll
        elif roll <= 9:
            assert result == "recruit", roll
        else:
            assert result == "coup", roll


def test_usurpation_results():
    """usurpation.yaml: Recruit adds an SF (a CG for morph-heavy forces); Coup adds a die and
    converts on 0-2 (the results are played in test_chaos_ops.py)."""
    data = table("usurpation")
    assert data["recruit"] == {"default": "SF", "morph_heavy": "CG"}
    assert data["coup_ci_dice"] == 1
    assert data["coup_convert_face_max"] == 2


def test_mutant_leadership():
    """SGE-USU-2: on the Usurpation Table the Mutant's leader value is 5."""
    assert table("usurpation")["mutant_leadership"] == 5


def test_ie_recruiting_table():
    """SGE-IE-4: units by modified roll."""
    rows = table("ie_recruiting")["rows"]

    def units(roll):
        return band_lookup(rows, roll)["units"]

    assert units(-2) == [] and units(4) == []
    assert units(5) == ["SF"] and units(7) == ["SF"]
    assert units(8) == ["CG"] and units(10) == ["CG"]
    assert units(11) == ["AF"] and units(14) == ["AF"]
    assert units(15) == ["AF", "AF"] and units(16) == ["AF", "AF"]
    assert units(17) == ["CG", "CG"] and units(18) == ["CG", "CG"]
    assert units(19) == ["WS"] and units(21) == ["WS"]
    assert units(22) == ["WS", "CG"] and units(40) == ["WS", "CG"]


def test_ie_recruiting_zero_and_rolls():
    """ie_recruiting.yaml: a 0 reads as 10 on the IE table; one roll per 4 available RV (both
    are played in test_chaos_ops.py)."""
    data = table("ie_recruiting")
    assert data["zero_counts_as"] == 10
    assert data["rv_per_roll"] == 4
    # the seed's maxima: 10 + 2 x 4 = 18 and 10 + 3 x 4 = 22
    assert data["zero_counts_as"] + 2 * 4 == 18
    assert data["zero_counts_as"] + 3 * 4 == 22


def test_invaders_table():
    """SGE-EV-INVADERS: the units each Invader die adds, by face."""
    assert table("invaders")["faces"] == [
        ["AF"], ["AF"], ["SF"], ["SF"], ["SF", "SF"], ["SF", "CG"], ["CG"], ["CG", "CG"],
        ["WS"], ["TH"],
    ]


def test_invaders_without_trans_humans():
    """invaders.yaml: without the Trans-humans rule a TH result gives one SF (played in
    test_events.py)."""
    assert table("invaders")["th_replacement"] == ["SF"]


def test_aert():
    """SGE-ALN-2: Negative up to 2, Indeterminate 3-7, Positive 8 or more."""
    rows = table("aert")["rows"]
    got = [band_lookup(rows, roll)["result"] for roll in range(-2, 14)]
    assert got == ["negative"] * 5 + ["indeterminate"] * 5 + ["positive"] * 6


# ---------------------------------------------------------------- Imperial management


def test_extropy_table():
    """SGE-EXT-2: cost ceil(systems / 5) with a minimum of 1, one per turn, and the CI table."""
    data = table("extropy")
    assert data["systems_per_rp"] == 5 and data["min_cost"] == 1 and data["per_turn"] == 1
    assert data["ci_change_by_face"] == [1, 1, 0, 0, 0, -2, -2, -2, -3, -5]
    # The table is authoritative: its mean is -1.2 CI per operation (the rule's "Why" line says
    # "about -1.6", which does not match its own table).
    assert sum(data["ci_change_by_face"]) / 10 == pytest.approx(-1.2)


def test_suppression_table():
    """SGE-SUP-3: 0-2 fail (+1 CI), 3-6 cancel (+1 CI), 7-9 cancel (no CI change)."""
    faces = table("suppression")["faces"]
    got = [(f["result"], f["ci"]) for f in faces]
    assert got == [("fail", 1)] * 3 + [("cancel", 1)] * 4 + [("cancel", 0)] * 3


def test_expedition_markers():
    """SGE-EXP-3: ten markers, two of each of five kinds."""
    markers = table("expedition_markers")["markers"]
    assert sum(m["count"] for m in markers) == 10
    assert {m["id"]: (m["count"], m["effect"], m["amount"]) for m in markers} == {
        "PRECURSOR-ARCHIVE": (2, "rp_die", None),
        "LOST-FLEET": (2, "free_ws", 1),
        "PSIONIC-RELIC": (2, "ci_minus_die", None),
        "SEED-SHIP": (2, "seed_ship", 1),
        "DOOMSDAY-ARTIFACT": (2, "ci_plus", 5),
    }


def test_illumination_effects():
    """illumination.yaml: one marker per turn; CI minus half a die rounded up, or a TH in the
    Core or a Nexus sector (both effects are played in test_imperial.py)."""
    data = table("illumination")
    assert data["per_turn"] == 1
    assert data["ci_reduction"] == "half_die_rounded_up"
    assert data["th_placement"] == ["core", "nexus"]


def test_event_values():
    """event_values.yaml: the numbers printed in the event texts (each event is played with
    them in test_events.py, test_aliens.py, test_combat.py and test_turn.py)."""
    data = table("event_values")
    assert data["payment_convert_face_max"] == 2
    assert data["payment_rp_per_unit"] == 1
    assert data["power_struggle_eliminate_face_max"] == 4
    assert data["web_raiders_eliminate_face_max"] == 2
    assert data["messiah_bonus_per_turn"] == 1
    assert data["mutant_morph_bonus"] == 3
    assert data["mutant_convert_result"] == 3
    assert data["institute_return_strength"] == 6
    assert data["institute_extra_draws"] == 1
    assert data["robots_rp_per_system"] == 1
    assert data["th_appear_imperial_parity"] == "odd"
    assert data["leviathan_ci_multiplier"] == 0.5
    assert data["spectacle_ci_multiplier"] == 2
    assert data["universal_victory_ci_max"] == 10
    assert data["universal_victory_vp"] == 46


def test_misc_decided_values():
    """misc_decided.yaml: further decided numbers, each entry naming its own rules (checked by
    test_misc_decided_entries_cite_decided_rules); the rules are played in the other files."""
    d = table("misc_decided")
    assert (d["random_sector"]["max_sector"], d["random_sector"]["attrition_max_sector"]) == (76, 57)
    pf = d["parenthesized_factors"]
    assert (pf["attack"], pf["defence"], pf["aert"]) == (False, True, True)
    assert d["system_units"]["per_sector"] == 1
    assert d["colonization"]["per_sector_per_turn"] == 1
    assert d["stacking"]["limit"] is None
    assert d["recruiting"]["new_units_per_sector"] == "effective_rv"
    assert (d["maintenance"]["nexus"], d["maintenance"]["nexus_elites"]) == (1, 2)
    assert (d["resource_points"]["floor"], d["resource_points"]["cap"]) == (0, None)
    assert d["leaders"]["per_unit"] == 1
    ie = d["independent_empires"]
    assert ie["event_numbers"] == [1, 2, 3, 4] and ie["scenario_numbers"] == [5, 6]
    assert ie["site_total"] == ["mil", "morph", "rv"] and ie["site_tie"] == "lowest_sector"
    assert ie["second_site_skip_within"] == 2
    assert d["aliens"]["leader_commits_per_phase"] == 1
    nx = d["nexus"]
    assert (nx["per_sector"], nx["min_distance"], nx["protection_distance"], nx["protection_steps"]) == (1, 2, 1, 1)
    assert (d["suppression"]["repression_per_attempt"], d["suppression"]["attempts_per_marker"]) == (1, 1)
    assert (d["stargates"]["move_cost"], d["stargates"]["per_sector"]) == (1, 1)
    ir = d["increased_resources"]
    assert (ir["max_base_rv"], ir["per_system"], ir["rv_bonus"]) == (3, 1, 1)
    assert d["expeditions"]["per_marker_per_phase"] == 1


def test_victory_levels():
    """SGE-VIC-1: five levels from Collapse to Galactic. victory.yaml also counts VP by Imperial
    system sectors and names the further outcomes (played in test_turn.py)."""
    data = table("victory")
    assert data["levels"] == ["collapse", "decline", "survival", "expanding", "galactic"]
    assert data["vp"] == "imperial_system_sectors"
    assert data["other_outcomes"] == ["universal", "turn-limit"]


# ---------------------------------------------------------------- scenarios


def scenario_validator() -> Draft202012Validator:
    return validator("scenario")


def test_scenario_set_is_complete():
    """The scenario folder holds scenarios 1-7."""
    assert sorted(p.stem for p in SCENARIOS.glob("*.yaml")) == SCENARIO_IDS


@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_scenario_validates(sid):
    """Each scenario loads with yaml.safe_load and validates against scenario.schema.yaml."""
    data = scenario(sid)
    errors = list(scenario_validator().iter_errors(data))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    assert data["id"] == sid
    assert data["rule"] == f"SGE-SCN-{sid}"
    assert 2 <= data["description"].count(".") <= 5


@pytest.mark.parametrize("sid", SCENARIO_IDS)
def test_scenario_reconstructed_flag(sid):
    """A scenario is reconstructed exactly when its own rule is [DECIDED]; decided_rules are [DECIDED]."""
    tags = rule_tags()
    data = scenario(sid)
    assert data["reconstructed"] is (tags[data["rule"]] == "DECIDED")
    for rule in data.get("decided_rules", []):
        assert tags.get(rule) == "DECIDED", (sid, rule)


def test_scenario_schema_rejects_broken_examples():
    """The scenario schema rejects missing keys, unknown keys and mixed shapes."""
    v = scenario_validator()
    for sid in SCENARIO_IDS:
        good = scenario(sid)
        for key in list(good):
            broken = copy.deepcopy(good)
            del broken[key]
            assert not v.is_valid(broken), (sid, key)
        broken = copy.deepcopy(good)
        broken["surprise"] = True
        assert not v.is_valid(broken), sid
    broken = scenario("3")
    broken["mode"] = "sweep"
    assert not v.is_valid(broken)
    broken = scenario("3")
    broken["imperial_systems"] = {"sectors": "01-25x"}
    assert not v.is_valid(broken)
    broken = scenario("3")
    broken["imperial_forces"]["XX"] = 1
    assert not v.is_valid(broken)
    broken = scenario("5")
    broken["scheduled"][0] = {"turn": 1, "place_th_usurper": 1, "join_pool": {"USURPER": 1}}
    assert not v.is_valid(broken)
    broken = scenario("7")
    broken["turns"] = 10
    assert not v.is_valid(broken)


VICTORY_BANDS = {
    # upper bounds of collapse, decline, survival, expanding (section 14.2)
    "1": (26, 31, 36, 41),
    "2": (23, 28, 33, 38),
    "3": (20, 25, 30, 35),
    "4": (15, 20, 25, 30),
    "5": (15, 20, 25, 30),
    "6": (5, 10, 15, 20),
}


def test_scenario_victory_bands():
    """SGE-SCN-1, SGE-SCN-2, SGE-SCN-3, SGE-SCN-4, SGE-SCN-5, SGE-SCN-6: victory bands of 14.2."""
    for sid, bands in VICTORY_BANDS.items():
        v = scenario(sid)["victory"]
        assert (v["collapse"], v["decline"], v["survival"], v["expanding"]) == bands, sid
        # 5-point bands, as in every scenario
        assert [b - a for a, b in zip(bands, bands[1:])] == [5, 5, 5]


SETUPS = {
    # sid: (ci, rp, turns, imperial systems, chaos systems, imperial forces, leaders)
    "1": (50, 20, 20, {"sectors": "1-40"}, {"sectors": "41-57"},
          {"IO": 2, "AF": 4, "SF": 8, "CG": 6, "CF": 3, "WS": 1}, [1, 2]),
    "2": (70, 0, 10, {"parity": True}, {"from_parity": True},
          {"AF": 2, "SF": 6, "CG": 8, "CF": 4}, []),
    "3": (80, 15, 5, {"sectors": "1-25"}, {"sectors": "26-57"},
          {"IO": 2, "AF": 3, "SF": 5, "CG": 3, "CF": 2}, [3]),
    "4": (70, 20, 10, {"sectors": "1-17"}, {"sectors": "18-57"},
          {"IO": 3, "AF": 3, "CG": 3, "WS": 1}, [2]),
    "5": (80, 10, 10, {"sectors": "1-9"}, {"sectors": "10-57"}, {"IO": 2, "AF": 2}, []),
    "6": (70, 5, 10, {"sectors": "1"}, {"sectors": "2-57"}, {"TH": 5}, [1, 1, 1]),
}


def test_scenario_setups():
    """SGE-SCN-1, SGE-SCN-2, SGE-SCN-3, SGE-SCN-4, SGE-SCN-5, SGE-SCN-6: items 1, 2, 4, 5, 6, 7 and 8 of 14.2."""
    for sid, (ci, rp, turns, imp, chaos, forces, leaders) in SETUPS.items():
        s = scenario(sid)
        assert (s["ci"], s["rp"], s["turns"]) == (ci, rp, turns), sid
        assert s["imperial_systems"] == imp, sid
        assert s["chaos_systems"] == chaos, sid
        assert s["imperial_forces"] == forces, sid
        assert sorted(s["leaders"]) == leaders, sid
    markers = {sid: scenario(sid)["available_markers"] for sid in SETUPS}
    assert markers == {
        "1": {"repression": 2, "illumination": 2},
        "2": {},
        "3": {"illumination": 2},
        "4": {"repression": 2, "illumination": 2},
        "5": {"repression": 4},
        "6": {"illumination": 4},
    }
    nexus = {sid: scenario(sid)["nexus"] for sid in SETUPS}
    assert nexus == {
        "1": {"count": 1, "sectors": [1]},
        "2": None,
        "3": {"count": 3, "suggested": [1, 13, 17]},
        "4": {"count": 1, "sectors": [1]},
        "5": {"count": 1, "sectors": [1]},
        "6": None,
    }
    placement = {sid: scenario(sid)["imperial_placement"] for sid in SETUPS}
    assert placement == {
        "1": "imperial_controlled", "2": "anywhere_max_2", "3": "imperial_controlled",
        "4": "imperial_controlled", "5": "imperial_controlled", "6": "anywhere",
    }
    assert scenario("5")["imperial_systems_min_rv"] == 2
    assert [sid for sid in SETUPS if scenario(sid)["imperial_systems_min_rv"]] == ["5"]


def test_scenario_chaos_forces():
    """SGE-SCN-3, SGE-SCN-4, SGE-SCN-6: set-up Rebels (RV x 1, 2, 3) and the IEs #5 and #6
    (the Rebel rolls themselves are played in test_setup.py)."""
    rebels = {sid: scenario(sid)["rebels"] for sid in SETUPS}
    assert rebels["3"] == {"multiplier": 1, "before_ies": False}
    assert rebels["4"] == {"multiplier": 2, "before_ies": True}
    assert rebels["6"] == {"multiplier": 3, "before_ies": True}
    assert rebels["2"] is None and rebels["5"] is None
    assert scenario("3")["ies"] == [
        {"number": 5, "home": 49, "extra_units": ["SF", "CG"]},
        {"number": 6, "home": 57, "extra_units": ["SF", "CG"]},
    ]
    for sid in ("4", "6"):
        assert scenario(sid)["ies"] == [
            {"number": 5, "home": "highest_total", "extra_units": []},
            {"number": 6, "home": "highest_total", "extra_units": []},
        ]
    for sid in ("1", "2", "5"):
        assert scenario(sid)["ies"] == []


def test_scenario_1_rebels():
    """SGE-SCN-1: the set-up Rebels are rolled with the RV times 1."""
    assert scenario("1")["rebels"]["multiplier"] == 1


def test_scenario_2_parity_setup():
    """SGE-SCN-2, SGE-CI-14: parity rolls for systems and forces, at most 2 per sector, CI 70
    (how the set-up reads them is played in test_setup.py)."""
    s = scenario("2")
    assert s["imperial_systems"] == {"parity": True}
    assert s["chaos_systems"] == {"from_parity": True}
    assert s["imperial_forces_parity_flip"] is True
    assert s["imperial_placement"] == "anywhere_max_2"
    assert s["ci"] == 70
    assert {"SGE-CI-14", "SGE-SEQ-20"} <= set(s["decided_rules"])
    assert [sid for sid in SETUPS if scenario(sid)["imperial_forces_parity_flip"]] == ["2"]


def test_first_turn_rounds():
    """SGE-CI-11: two rounds on turn 1 in Scenarios 2-4, three in 5-6, one in Scenario 1 (the
    draws they make are counted in test_events.py)."""
    rounds = {sid: scenario(sid)["first_turn_rounds"] for sid in SETUPS}
    assert rounds == {"1": 1, "2": 2, "3": 2, "4": 2, "5": 3, "6": 3}
    per_round = table("ci_track")["markers_per_round"]
    # the seed's fixed totals: 16 events (two rounds) and 24 events (three rounds)
    for sid in ("2", "3", "4", "5", "6"):
        s = scenario(sid)
        n = s["first_turn_rounds"] * band_lookup(per_round, s["ci"], key="ci_max")["markers"]
        assert n == (16 if s["first_turn_rounds"] == 2 else 24), sid


def test_required_options():
    """SGE-SEQ-19: the optional rules each scenario forces on."""
    got = {sid: set(scenario(sid)["required_options"]) for sid in SETUPS}
    assert got == {
        "1": {"imperial_order", "nexus", "illumination"},
        "2": set(),
        "3": {"imperial_order", "nexus", "illumination"},
        "4": {"imperial_order", "nexus", "illumination"},
        "5": {"trans_humans", "imperial_order", "nexus", "illumination"},
        "6": {"trans_humans", "illumination"},
    }


def test_scheduled_markers_come_from_the_pool():
    """SGE-POOL-7, SGE-SCN-5, SGE-SCN-6: Scenario 5 and 6 schedules use the pool's own markers
    (taking them out of the pool is played in test_setup.py, placing them in test_events.py)."""
    pool = {m["id"]: m["count"] for m in table("event_pool")["markers"]}
    for sid in SETUPS:
        for entry in scenario(sid)["scheduled"]:
            for marker in entry.get("join_pool", {}):
                assert marker in pool, (sid, marker)

    s5 = scenario("5")["scheduled"]
    assert [(e["turn"], e.get("place_th_usurper")) for e in s5 if "place_th_usurper" in e] == [
        (1, 1), (2, 1), (3, 1), (4, 1), (5, 1),
    ]
    assert [(e["turn"], e["join_pool"]) for e in s5 if "join_pool" in e] == [(6, {"USURPER": 3})]
    used = sum(e.get("place_th_usurper", 0) + e.get("join_pool", {}).get("USURPER", 0) for e in s5)
    assert used == pool["USURPER"] == 8

    s6 = scenario("6")["scheduled"]
    usurpers = {e["turn"]: e["join_pool"].get("USURPER", 0) for e in s6}
    rebellions = {e["turn"]: e["join_pool"].get("REBELLION", 0) for e in s6}
    assert usurpers == {t: 1 for t in range(2, 10)}
    assert rebellions == {2: 1, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 2, 9: 2}
    assert sum(usurpers.values()) == pool["USURPER"]
    assert sum(rebellions.values()) == pool["REBELLION"] == 12
    for sid in ("1", "2", "3", "4"):
        assert scenario(sid)["scheduled"] == []


def test_leviathan_scenarios():
    """SGE-SCN-4, SGE-SCN-5: Leviathan starts in effect; Scenario 5 also removes the second."""
    got = {sid: scenario(sid)["leviathan"] for sid in SETUPS}
    assert got == {"1": None, "2": None, "3": None, "4": "in_effect",
                   "5": "in_effect_remove_second", "6": None}


def test_scenario_5_rebellion_limit():
    """SGE-SCN-5: at most two Rebellions on turn 1 of Scenario 5 (the limit is played in
    test_events.py)."""
    got = {sid: scenario(sid)["turn1_rebellion_limit"] for sid in SETUPS}
    assert got == {"1": None, "2": None, "3": None, "4": None, "5": 2, "6": None}


def test_sweep_of_empire():
    """SGE-SCN-7: a mode over a base scenario, unlimited turns, Universal Victory at CI <= 10
    (played in test_turn.py)."""
    s = scenario("7")
    assert s["mode"] == "sweep"
    assert s["turns"] is None
    assert s["default_base"] in SETUP_IDS
    assert s["universal_victory"] == {"all_system_sectors": True, "ci_max": 10}
    assert s["universal_victory"]["ci_max"] == table("event_values")["universal_victory_ci_max"]
