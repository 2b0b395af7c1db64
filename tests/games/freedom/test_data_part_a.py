"""The Part A data of Freedom in the Galaxy (seed 004, rules-freedom.md section 5.1): every
table validates, has the inventory's row counts and the reference's values, flags its decided
cells, refuses a damaged copy with a clear message, and ships no seed text."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine.data import TableSet, load_validated
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games.freedom.data import (D66_RESULTS, MISSION_LETTERS, PART_A_TABLES,
                                                 SCHEMA_DIR, FreedomData, check_part_a,
                                                 default_data)

TABLE_DIR = assets_dir() / "tables" / "freedom"
ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT.parent / "shared" / "seeds" / "004_a913e43cd38e268a.txt"


@pytest.fixture(scope="module")
def data() -> FreedomData:
    return FreedomData(use_overrides=False)


def raw(table: str) -> dict:
    return yaml.safe_load((TABLE_DIR / f"{table}.yaml").read_text(encoding="utf-8"))


def tables_with(**changed) -> TableSet:
    """The shipped Part A tables, with some replaced, as the load check sees them."""
    tables = {t: raw(t) for t in PART_A_TABLES}
    tables.update(changed)
    return TableSet(tables)


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("table", PART_A_TABLES)
def test_every_part_a_table_validates_and_carries_its_header(table):
    loaded = load_validated(TABLE_DIR / f"{table}.yaml", SCHEMA_DIR / f"{table}.schema.yaml")
    assert loaded["id"] == table
    assert loaded["part"] == "A"
    assert loaded["title"] and loaded["rules"]


def test_the_part_a_tables_load_with_the_game_data(data):
    part_a = {t for t, v in data.tables.tables.items() if v.get("part") == "A"}
    assert part_a == set(PART_A_TABLES)
    assert data.tables.overrides == {}
    assert data.warnings == ()
    assert default_data() is default_data()


def test_row_counts_match_the_inventory(data):
    """Inventory 5.1: the rows of each Part A table."""
    assert len(raw("recruitment_modifiers")["modifiers"]) == 4
    loyalty = raw("loyalty_modifiers")
    assert len(loyalty["loyalty"]) == 5 and len(loyalty["rebellion_states"]["states"]) == 3
    assert len(data.random_events) == 23
    assert len(raw("coup_aborted")["results"]) == 6
    success = raw("mission_success")["results"]
    assert len(success) == 36 and sum(len(r["letters"]) for r in success) == 58
    assert len(raw("failed_spaceship_quest")["results"]) == 4
    assert tuple(data.missions) == MISSION_LETTERS and len(data.missions) == 14
    assert len(data.home_planet_missions) == 8 and len(data.royalty_missions) == 6


# ------------------------------------------------------------------------------ recruitment
def test_recruitment_modifiers():
    """FIG-REC-2: four modifiers; the d10 needs 10, a natural 10 always works (FIG-REC-1)."""
    table = raw("recruitment_modifiers")
    assert table["roll"] == {"die": "d10", "need": 10, "natural_success": 10}
    assert table["pool"] == {"rebel": 20, "imperial": 12}
    rows = {m["key"]: m for m in table["modifiers"]}
    assert rows["loyalty"]["amount"] == {"table": "loyalty_modifiers"}
    assert set(rows["loyalty"]["unless_planet"]) == {"in_rebellion", "rebellion_stopped",
                                                     "rebel_controlled"}
    assert rows["environs_size"]["amount"] == {"size_minus": 4}
    assert rows["rebel_controlled_planet"] == {**rows["rebel_controlled_planet"], "side": "imperial",
                                               "amount": {"fixed": -2},
                                               "only_planet": ["rebel_controlled"]}
    assert rows["planet_in_rebellion"]["side"] == "both"
    assert rows["planet_in_rebellion"]["amount"] == {"fixed": 1}


def test_loyalty_modifiers_and_their_decided_values(data):
    """FIG-REC-3: patriotic and dissent come from the seed; loyal, neutral, unrest and the
    rebellion states are decided and flagged."""
    assert data.loyalty_track == ("patriotic", "loyal", "neutral", "dissent", "unrest")
    rebel = [data.loyalty_modifier(s, "rebel") for s in data.loyalty_track]
    imperial = [data.loyalty_modifier(s, "imperial") for s in data.loyalty_track]
    assert rebel == [-2, -1, 0, 1, 2] and imperial == [2, 1, 0, -1, -2]
    for state in ("in_rebellion", "rebellion_stopped", "rebel_controlled"):
        assert data.loyalty_modifier(state, "rebel") == data.loyalty_modifier(state, "imperial") == 0
    table = raw("loyalty_modifiers")
    assert table["reconstructed"] is True
    flags = {row["space"]: row.get("decided") for row in table["loyalty"]}
    both = {"rebel": "FIG-REC-3", "imperial": "FIG-REC-3"}
    assert flags == {"patriotic": None, "loyal": both, "neutral": both, "dissent": None,
                     "unrest": both}
    assert table["rebellion_states"]["decided"] == both
    with pytest.raises(ValueError):
        data.loyalty_modifier("ecstatic", "rebel")
    with pytest.raises(ValueError):
        data.loyalty_modifier("loyal", "neutral")


# ------------------------------------------------------------------------------ random events
# (rule ID, from, to, starred, aborts), transcribed from the table of section 2.5.
RANDOM_EVENTS = [
    (1, 11, 11, False, []), (2, 12, 12, False, []), (3, 13, 13, False, []),
    (4, 14, 14, True, ["C", "D", "E", "R"]), (5, 15, 15, False, []), (6, 16, 16, True, []),
    (7, 21, 21, False, []), (8, 22, 22, False, []), (9, 23, 24, False, []),
    (10, 25, 26, False, []), (11, 31, 34, False, []), (12, 35, 36, False, []),
    (13, 41, 43, False, []), (14, 44, 46, False, []), (15, 51, 51, False, ["any"]),
    (16, 52, 52, False, ["R"]), (17, 53, 53, False, ["T"]), (18, 54, 54, False, ["D"]),
    (19, 55, 55, False, ["D"]), (20, 56, 56, False, []), (21, 61, 63, False, ["C"]),
    (22, 64, 65, True, []), (23, 66, 66, False, []),
]


def test_random_events_rows(data):
    rows = [(int(e.rule.rsplit("-", 1)[1]), e.first, e.last, e.non_repeatable, list(e.aborts))
            for e in data.random_events]
    assert rows == RANDOM_EVENTS
    assert len({e.effect_key for e in data.random_events}) == 23
    civil_war = data.random_event(14)
    assert civil_war.params["set_loyalty"] == "neutral"
    assert set(civil_war.params["bonus_missions"]) == {"B", "F", "H", "S"}
    assert data.random_event(11).params["hits"] == 2
    assert data.random_event(25).params["bonus_rolls"] == 1
    assert data.random_event(56).params["bonus_rolls"] == -1
    assert data.random_event(62).params == {"roll": "2d6", "table": "coup_aborted"}
    assert [e.last for e in data.random_events if e.detect_all] == [22, 24, 51, 52, 53]


def test_random_events_decided_flags(data):
    """The decided details of rows 52 and 53 are flagged with their rule IDs."""
    assert data.random_event(52).aborts_side == "rebel"
    assert dict(data.random_event(52).decided) == {"aborts_side": "FIG-RE-16",
                                                  "detect_all": "FIG-RE-16"}
    assert dict(data.random_event(53).decided) == {"detect_all": "FIG-RE-17"}
    assert [e.rule for e in data.random_events if e.decided] == ["FIG-RE-16", "FIG-RE-17"]


def test_random_events_cover_each_d66_result_once(data):
    """FIG-GEN-3: p2d6 is read as D66; the 23 rows cover the 36 results 11..66 once each."""
    assert len(D66_RESULTS) == 36 and D66_RESULTS[0] == 11 and D66_RESULTS[-1] == 66
    for d66 in D66_RESULTS:
        assert sum(e.covers(d66) for e in data.random_events) == 1
        assert data.random_event(d66).covers(d66)
    for bad in (10, 17, 27, 67, 7):
        with pytest.raises(ValueError, match="D66"):
            data.random_event(bad)


def test_an_overlap_or_a_gap_in_random_events_is_refused():
    """FIG-GEN-3: a damaged D66 table fails the load check with the results named."""
    overlap = raw("random_events")
    overlap["events"][1]["to"] = 13
    with pytest.raises(DataError, match=r"random_events: D66 result\(s\) \[13\] covered more than once"):
        check_part_a(tables_with(random_events=overlap))
    gap = raw("random_events")
    gap["events"][8]["to"] = 23                       # 23-24 becomes 23: 24 is uncovered
    with pytest.raises(DataError, match=r"\[24\] not covered"):
        check_part_a(tables_with(random_events=gap))
    across = raw("random_events")
    across["events"][5]["to"] = 21                    # 16 stretched across a tens digit
    across["events"][6]["from"] = 22
    with pytest.raises(DataError, match="one tens digit"):
        check_part_a(tables_with(random_events=across))


# ------------------------------------------------------------------------------ small tables
def test_coup_aborted_table(data):
    """FIG-CA-1: 2d6; 2-6 shift loyalty one space toward the enemy; 7+ nothing more."""
    keys = [data.coup_aborted(t).effect_key for t in range(2, 13)]
    assert keys == ["group_killed", "group_captured", "member_captured", "patrol", "shift_only"] + \
        ["no_effect"] * 6
    assert [data.coup_aborted(t).loyalty_shift for t in range(2, 8)] == [-1] * 5 + [0]
    assert [data.coup_aborted(t).detect_all for t in range(2, 8)] == [False, False, True, True,
                                                                     True, False]
    with pytest.raises(ValueError):
        data.coup_aborted(13)


def test_failed_spaceship_quest_table(data):
    """FIG-FSQ-1: 2-3 destroyed with all dead, 4 destroyed with all captured, 5-6 damaged and
    detected, 7+ nothing."""
    keys = [data.failed_spaceship_quest(t).effect_key for t in range(2, 13)]
    assert keys == ["ship_destroyed_crew_killed"] * 2 + ["ship_destroyed_crew_captured"] + \
        ["ship_damaged_detected"] * 2 + ["no_effect"] * 6


def test_a_2d6_gap_is_refused():
    table = raw("coup_aborted")
    table["results"][-1]["from"] = 8
    with pytest.raises(DataError, match=r"coup_aborted: 2d6 total\(s\) \[7\]"):
        check_part_a(tables_with(coup_aborted=table))


# The grid of FIG-MS-1: tens die down, units die across.
SUCCESS_GRID = """
    AP  AI  D   D   D   DE
    HP  HI  H   H   BQ  BJ
    BE  RB  R   R   RJ  RE
    SP  SI  S   S   S   ET
    CP  CI  C   C   CQ  CT
    FP  FQ  F   F   FJ  FT
"""


def test_mission_success_table(data):
    """FIG-MS-1: the 36 cells of the reference grid, letters in printed order."""
    cells = SUCCESS_GRID.split()
    for d66, cell in zip(D66_RESULTS, cells, strict=True):
        assert "".join(data.success_letters(d66)) == cell, d66


def test_mission_success_letter_counts():
    """FIG-MS-2: 58 letters; a shipped table that breaks the count is refused, a user's
    override loads with a warning."""
    table = raw("mission_success")
    table["results"][0]["letters"] = ["A"]                 # 11: AP loses its P
    with pytest.raises(DataError, match=r"FIG-MS-2\): P 4 \(expected 5\)"):
        check_part_a(tables_with(mission_success=table))
    tables = tables_with(mission_success=table)
    tables.overrides["mission_success"] = "digest"
    warnings = check_part_a(tables)
    assert len(warnings) == 1 and "P 4 (expected 5)" in warnings[0]
    assert check_part_a(tables_with()) == []


def test_a_user_override_of_mission_success_loads_with_a_warning(tmp_path, monkeypatch):
    """FIG-MS-2 through the real loader: the override folder of the user's config."""
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    folder = tmp_path / "config" / "overrides" / "freedom"
    folder.mkdir(parents=True)
    table = raw("mission_success")
    table["results"][35]["letters"] = ["F"]                # 66: FT loses its T
    (folder / "mission_success.yaml").write_text(yaml.safe_dump(table), encoding="utf-8")
    data = FreedomData()
    assert "mission_success" in data.tables.overrides
    assert data.success_letters(66) == ("F",)
    assert len(data.warnings) == 1 and "T 2 (expected 3)" in data.warnings[0]


# ------------------------------------------------------------------------------ missions
# FIG-MIS-25, as stored: the maximum useful level of each mission.
MAX_LEVELS = {
    "A": {"fixed": 1}, "B": {"fixed": 1}, "Q": {"fixed": 1}, "D": {"fixed": 2},
    "I": {"fixed": 2}, "S": {"fixed": 2}, "E": {"friendly_sovereign": 1, "neutral_sovereign": 2},
    "J": {"atrocity_named": 2, "otherwise": 1}, "R": {"rebel": 1, "imperial": 2},
    "T": {"from": "target_unit"}, "C": {"from": "loyalty_room"}, "F": {"from": "captives_here"},
    "H": {"unlimited": True}, "P": {"unlimited": True},
}


def test_maximum_useful_levels_are_decided_and_flagged(data):
    """FIG-MIS-25: one maximum per mission, each flagged as decided."""
    assert {x: dict(m.max_level) for x, m in data.missions.items()} == MAX_LEVELS
    for row in raw("missions")["missions"]:
        assert row["decided"]["max_level"] == "FIG-MIS-25"


def test_missions_sides_and_structure(data):
    assert [x for x, m in data.missions.items() if m.sides == ("rebel",)] == ["B", "P", "T"]
    assert [x for x, m in data.missions.items() if m.bonus_only] == ["J", "Q"]
    assert not data.mission("B").allowed_for("imperial") and data.mission("B").allowed_for("rebel")
    assert data.mission("D").per_level["cap"] == 2
    assert "cap" not in data.mission("C").per_level
    assert data.mission("H").per_level["amount"] == 4
    assert [lv["level"] for lv in data.mission("T").levels] == [1, 2, 3]
    assert data.mission("T").levels[2]["units"] == ("stormtrooper",)
    assert [r["key"] for r in data.mission("H").requirements_for("imperial")] == ["rebel_secret_base_here"]
    assert data.mission("R").level_effects("rebel")[0]["effect_key"] == "start_rebellion"
    assert data.mission("R").level_effects("imperial")[0]["level"] == 2
    assert data.mission("Q").torture == {"side": "imperial", "hits": "d6"}
    failure = data.mission("A").failure
    assert [(b["from"], b["to"], b["effect_key"]) for b in failure["results"]] == [
        (1, 7, "no_effect"), (8, 9, "group_captured"), (10, 10, "group_killed")]
    assert data.mission("J").failure == {"die": "2d6", "table": "failed_spaceship_quest"}
    assert data.mission("E").failure["loyalty_shift"] == -1
    with pytest.raises(ValueError):
        data.mission("G")


def test_cells_and_camps():
    """FIG-MSN-15: a cell may perform F and S; a camp A, C, D, F, H, I, S and T."""
    rows = raw("missions")["missions"]
    assert [m["letter"] for m in rows if m["performers"]["cell"]] == ["F", "S"]
    assert [m["letter"] for m in rows if m["performers"]["camp"]] == list("ACDFHIST")


# FIG-BDR-8 as stored: the chart part and the situational terms of each mission.
BONUS = {
    "A": ("leader", {"one_member": 1, "none_detected": 1}),
    "B": ("leader_and_helpers", {"wild_environs": 1}),
    "C": ("leader_and_helpers", {"coup_rating": 1}),
    "D": ("leader_and_others", {"loyalty_modifier": 1, "friendly_sovereign": 2,
                                "neutral_sovereign": 0, "enemy_sovereign": -2, "urban_environs": 1}),
    "E": ("best_leadership", {"loyalty_modifier": 1}),
    "F": ("leader_and_helpers", {}), "H": ("leader_and_others", {}), "I": ("leader_and_helpers", {}),
    "J": ("pilot_and_ship", {"ship_undetected": 1}), "P": ("leader_and_helpers", {}),
    "Q": ("interrogator", {"no_torture": 3, "torture": 6, "prisoner_intelligence": -1}),
    "R": ("none", {}), "S": ("leader_and_helpers", {}), "T": ("leader_and_helpers", {}),
}


def test_bonus_terms(data):
    got = {x: (m.bonus_chart, {t["key"]: t["value"] for t in m.bonus_terms})
           for x, m in data.missions.items()}
    assert got == BONUS
    rows = {m["letter"]: m for m in raw("missions")["missions"]}
    flagged = {x: m["bonus"].get("decided", {}).get("chart") for x, m in rows.items()}
    assert flagged == {"A": "FIG-BDR-2", "B": "FIG-BDR-2", "C": "FIG-BDR-2", "D": "FIG-BDR-4",
                       "E": "FIG-BDR-5", "F": "FIG-BDR-2", "H": "FIG-BDR-4", "I": "FIG-BDR-2",
                       "J": "FIG-BDR-12", "P": "FIG-BDR-2", "Q": "FIG-BDR-13", "R": None,
                       "S": "FIG-BDR-2", "T": "FIG-BDR-2"}
    neutral = [t for t in rows["D"]["bonus"]["terms"] if t["key"] == "neutral_sovereign"]
    assert neutral == [{"key": "neutral_sovereign", "value": 0, "decided": {"value": "FIG-BDR-8"}}]


def test_mulligan_supply_is_unlimited_and_flagged(data):
    assert data.mulligan_supply is None
    assert raw("missions")["mulligans"] == {"supply": "unlimited",
                                            "decided": {"supply": "FIG-MIS-23"}}


def test_home_planet_and_royalty_lists(data):
    assert data.home_planet_missions == set("ABEFHIPS")
    assert data.royalty_missions == set("CDEIRT")
    assert raw("bonus_lists")["reconstructed"] is False


def test_missions_out_of_order_are_refused():
    table = raw("missions")
    table["missions"][0], table["missions"][1] = table["missions"][1], table["missions"][0]
    with pytest.raises(DataError, match="missions must be A B C"):
        check_part_a(tables_with(missions=table))


# ------------------------------------------------------------------------------ flags
def test_reconstructed_exactly_when_flagged():
    """FIG-GEN-8: a table is reconstructed exactly when it flags a decided value; a flag names
    a field that exists and a rule the table lists."""
    for table_id in PART_A_TABLES:
        table = raw(table_id)
        assert table["reconstructed"] == ("decided:" in (TABLE_DIR / f"{table_id}.yaml").read_text(
            encoding="utf-8")), table_id
    unflagged = raw("loyalty_modifiers")
    unflagged["reconstructed"] = False
    with pytest.raises(DataError, match="loyalty_modifiers: reconstructed is False but the table "
                                        "flags decided values"):
        check_part_a(tables_with(loyalty_modifiers=unflagged))
    flagged = raw("coup_aborted")
    flagged["reconstructed"] = True
    with pytest.raises(DataError, match="flags no decided value"):
        check_part_a(tables_with(coup_aborted=flagged))
    wrong_field = raw("random_events")
    wrong_field["events"][15]["decided"]["colour"] = "FIG-RE-16"
    with pytest.raises(DataError, match=r"events/15: decided flag for 'colour'"):
        check_part_a(tables_with(random_events=wrong_field))
    unlisted = raw("missions")
    unlisted["mulligans"]["decided"]["supply"] = "FIG-GEN-4"
    with pytest.raises(DataError, match="FIG-GEN-4 names a rule the table does not list"):
        check_part_a(tables_with(missions=unlisted))
    unknown = raw("bonus_lists")
    unknown["rules"].append("FIG-BDR-99")
    with pytest.raises(DataError, match="unknown rule ID"):
        check_part_a(tables_with(bonus_lists=unknown))


# ------------------------------------------------------------------------------ damaged copies
def _set(path: str, value):
    def change(table):
        *head, last = path.split("/")
        node = table
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        if isinstance(node, list):
            node[int(last)] = value
        else:
            node[last] = value
    return change


def _drop(path: str):
    def change(table):
        *head, last = path.split("/")
        node = table
        for key in head:
            node = node[int(key)] if isinstance(node, list) else node[key]
        del node[int(last) if isinstance(node, list) else last]
    return change


DAMAGES = [
    ("recruitment_modifiers", _set("modifiers/0/side", "everyone"), "modifiers/0/side"),
    ("recruitment_modifiers", _set("roll/die", "d6"), "roll/die"),
    ("loyalty_modifiers", _set("loyalty/1/space", "neutral"), "loyalty/1/space"),
    ("loyalty_modifiers", _set("loyalty/0/rebel", 9), "loyalty/0/rebel"),
    ("loyalty_modifiers", _set("rebellion_states/decided/loyal", "FIG-REC-3"), "rebellion_states/decided"),
    ("random_events", _set("events/0/effect_key", "acident"), "events/0/effect_key"),
    ("random_events", _set("events/3/from", 17), "events/3/from"),
    ("random_events", _drop("events/22"), "events"),
    ("random_events", _set("events/4/params", {"hits": "two"}), "events/4/params/hits"),
    ("coup_aborted", _set("results/0/loyalty_shift", 1), "results/0/loyalty_shift"),
    ("coup_aborted", _set("results/2/colour", "red"), "results/2"),
    ("mission_success", _set("results/0/letters", ["A", "G"]), "results/0/letters/1"),
    ("mission_success", _set("results/5/d66", 70), "results/5/d66"),
    ("failed_spaceship_quest", _set("results/3/to", 13), "results/3/to"),
    ("missions", _set("missions/0/letter", "G"), "missions/0/letter"),
    ("missions", _set("missions/3/max_level", {"fixed": 0}), "missions/3/max_level"),
    ("missions", _set("missions/0/requires/0/key", "anything"), "missions/0/requires/0/key"),
    ("missions", _set("missions/0/bonus/chart", "everyone"), "missions/0/bonus/chart"),
    ("bonus_lists", _set("home_planet/missions", ["A", "G"]), "home_planet/missions/1"),
]


@pytest.mark.parametrize("table, damage, where", DAMAGES)
def test_a_damaged_table_is_refused_naming_the_file_and_key(tmp_path, table, damage, where):
    bad = tmp_path / f"{table}.yaml"
    content = copy.deepcopy(raw(table))
    damage(content)
    bad.write_text(yaml.safe_dump(content, sort_keys=False), encoding="utf-8")
    with pytest.raises(DataError, match=re.escape(f"{bad}: {where}")):
        load_validated(bad, SCHEMA_DIR / f"{table}.schema.yaml")


# ------------------------------------------------------------------------------ text rights
def _normal(text: str) -> str:
    text = text.lower().replace("\u2019", "'").replace("\u2018", "'").replace("\u2013", "-")
    return re.sub(r"\s+", " ", text)


@pytest.mark.skipif(not SEED.is_file(), reason="seed 004 is not beside the checkout")
def test_no_table_carries_a_run_of_seed_text():
    """FIG-GEN-2: no Part A file (comments included) shares 40 characters with seed 004."""
    seed = _normal(SEED.read_text(encoding="utf-8"))
    windows = {seed[i:i + 40] for i in range(len(seed) - 39)}
    for table in PART_A_TABLES:
        text = _normal((TABLE_DIR / f"{table}.yaml").read_text(encoding="utf-8"))
        shared = [text[i:i + 40] for i in range(len(text) - 39) if text[i:i + 40] in windows]
        assert not shared, (table, shared[:3])
