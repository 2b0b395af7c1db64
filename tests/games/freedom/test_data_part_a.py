"""The Part A data of Freedom in the Galaxy (seed 004, rules-freedom.md section 5.1): every
table validates, has the inventory's row counts and the reference's values, flags its decided
cells, refuses a damaged copy with a clear message, and ships no seed text."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine.catalog import load_rule_list, rule_list_path
from struggle_desktop.engine.data import TableSet, load_validated
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games.freedom.data import (
    D66_RESULTS,
    MISSION_LETTERS,
    PART_A_TABLES,
    SCHEMA_DIR,
    Cell,
    FreedomData,
    check_part_a,
    default_data,
)

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
    assert len(data.races) == 31
    assert len(data.creatures) == 56
    rebels = data.bonus_chart("rebel", "character")
    assert len(rebels) == 23 and sum(r.variant_of is not None for r in rebels.values()) == 3
    assert len(data.bonus_chart("rebel", "possession")) == 9
    assert len(data.bonus_chart("rebel", "spaceship")) == 7
    assert len(data.bonus_chart("imperial", "character")) == 12
    assert len(data.bonus_chart("imperial", "spaceship")) == 2


# ------------------------------------------------------------------------------ recruitment
def test_recruitment_modifiers():
    """FIG-REC-2: the four recruitment modifiers; the roll and the pools they apply to."""
    table = raw("recruitment_modifiers")
    assert table["roll"] == {"die": "d10", "need": 10, "natural_success": 10}
    assert table["pool"] == {"rebel": 20, "imperial": 12}
    rows = {m["key"]: m for m in table["modifiers"]}
    assert rows["loyalty"]["amount"] == {"table": "loyalty_modifiers"}
    assert set(rows["loyalty"]["unless_planet"]) == {"in_rebellion", "rebellion_stopped",
                                                     "rebel_controlled"}
    assert rows["environs_size"]["amount"] == {"size_minus": 4}
    imperial = rows["rebel_controlled_planet"]
    assert (imperial["side"], imperial["amount"]) == ("imperial", {"fixed": -2})
    assert imperial["only_planet"] == ["rebel_controlled"]
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
        assert data.loyalty_modifier(state, "rebel") == 0
        assert data.loyalty_modifier(state, "imperial") == 0
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
    """Rows 52 and 53 hold decided details (only a Rebel R aborts; everyone detected in any
    case), each flagged with the row's own rule."""
    would_be_rebels, wrong_soldier = data.random_event(52), data.random_event(53)
    assert would_be_rebels.aborts_side == "rebel"
    assert dict(would_be_rebels.decided) == {"aborts_side": would_be_rebels.rule,
                                             "detect_all": would_be_rebels.rule}
    assert dict(wrong_soldier.decided) == {"detect_all": wrong_soldier.rule}
    assert [e.last for e in data.random_events if e.decided] == [52, 53]


def test_random_events_cover_each_d66_result_once(data):
    """p2d6 is read as D66: the 23 rows cover the 36 results 11..66 once each."""
    assert len(D66_RESULTS) == 36 and D66_RESULTS[0] == 11 and D66_RESULTS[-1] == 66
    for d66 in D66_RESULTS:
        assert sum(e.covers(d66) for e in data.random_events) == 1
        assert data.random_event(d66).covers(d66)
    for bad in (10, 17, 27, 67, 7):
        with pytest.raises(ValueError, match="D66"):
            data.random_event(bad)


def test_an_overlap_or_a_gap_in_random_events_is_refused():
    """A damaged D66 table fails the load check with the results named."""
    overlap = raw("random_events")
    overlap["events"][1]["to"] = 13
    with pytest.raises(DataError,
                       match=r"random_events: D66 result\(s\) \[13\] covered more than once"):
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
    imperial_h = data.mission("H").requirements_for("imperial")
    assert [r["key"] for r in imperial_h] == ["rebel_secret_base_here"]
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
    """A Rebel cell may perform F and S; a camp A, C, D, F, H, I, S and T."""
    rows = raw("missions")["missions"]
    assert [m["letter"] for m in rows if m["performers"]["cell"]] == ["F", "S"]
    assert [m["letter"] for m in rows if m["performers"]["camp"]] == list("ACDFHIST")


# FIG-BDR-8 as stored: the chart part and the situational terms of each mission.
BONUS = {
    "A": ("leader", {"one_member": 1, "none_detected": 1}),
    "B": ("leader_and_helpers", {"wild_environs": 1}),
    "C": ("leader_and_helpers", {"coup_rating": 1}),
    "D": ("leader_and_others", {"loyalty_modifier": 1, "friendly_sovereign": 2,
                                "neutral_sovereign": 0, "enemy_sovereign": -2,
                                "urban_environs": 1}),
    "E": ("best_leadership", {"loyalty_modifier": 1}),
    "F": ("leader_and_helpers", {}), "H": ("leader_and_others", {}),
    "I": ("leader_and_helpers", {}),
    "J": ("pilot_and_ship", {"ship_undetected": 1}), "P": ("leader_and_helpers", {}),
    "Q": ("interrogator", {"no_torture": 3, "torture": 6, "prisoner_intelligence": -1}),
    "R": ("none", {}), "S": ("leader_and_helpers", {}), "T": ("leader_and_helpers", {}),
}


def test_bonus_terms(data):
    """FIG-BDR-8: the chart part and the situational terms of every mission; a neutral sovereign
    counts 0 (decided, flagged)."""
    got = {x: (m.bonus_chart, {t["key"]: t["value"] for t in m.bonus_terms})
           for x, m in data.missions.items()}
    assert got == BONUS
    rows = {m["letter"]: m for m in raw("missions")["missions"]}
    # How a chart enters the count is decided for every mission that has a chart part.
    assert [x for x, m in rows.items() if "chart" in m["bonus"].get("decided", {})] == \
        [x for x in MISSION_LETTERS if x != "R"]
    neutral = [t for t in rows["D"]["bonus"]["terms"] if t["key"] == "neutral_sovereign"]
    assert neutral == [{"key": "neutral_sovereign", "value": 0, "decided": {"value": "FIG-BDR-8"}}]


def test_mulligan_supply_is_unlimited_and_flagged(data):
    assert data.mulligan_supply is None
    mulligans = raw("missions")["mulligans"]
    assert mulligans["supply"] == "unlimited" and set(mulligans["decided"]) == {"supply"}


def test_home_planet_and_royalty_lists(data):
    assert data.home_planet_missions == set("ABEFHIPS")
    assert data.royalty_missions == set("CDEIRT")
    assert raw("bonus_lists")["reconstructed"] is False


def test_missions_out_of_order_are_refused():
    table = raw("missions")
    table["missions"][0], table["missions"][1] = table["missions"][1], table["missions"][0]
    with pytest.raises(DataError, match="missions must be A B C"):
        check_part_a(tables_with(missions=table))


# ------------------------------------------------------------------------------ locals
# The Irate Locals chart of FIG-LOC-4: race, AF/EF, alternative, star-faring.
RACES = """
Anons 1/1 - -; Ardorats 1/1 - -; Borks 2/1 - -; Calmas 1/1 - -; Charkhans 1/1 - -;
Cavalkus 1/1 - -; Deaxins 1/1 - -; Henones 1/1 - -; Illias 1/1 - -; Jopers 1/1 - -;
Kayns 2/4 - yes; Kirts 1/1 - -; Leonids 2/1 - -; Moghas 2/4 - -; Movews 1/1 - -;
Ornotins 1/1 - -; Phans 1/1 - -; Piorads 1/1 2/4@subterranean yes; Rhones 1/1 - yes;
Rylians 2/1 - -; Saurians 1/1 1/4@urban yes; Segundens 1/1 2/1@urban yes; Susperans 1/1 - -;
Suvans 2/1 - yes; Theshians 1/1 - -; Thoks 2/4 - -; Ultraks 1/1 - -; Urgaks 2/1 - -;
Ursi 2/4 - -; Xanthons 2/4 - yes; Yesters 2/1 - yes
"""


def test_irate_locals_chart(data):
    """FIG-LOC-4: the 31 races in chart order, names as printed, with their numbers."""
    expected = [entry.split() for entry in RACES.replace("\n", " ").split(";")]
    got = [[r.name, f"{r.af}/{r.ef}",
            f"{r.alt[0]}/{r.alt[1]}@{r.alt_environs}" if r.alt else "-",
            "yes" if r.star_faring else "-"] for r in data.races.values()]
    assert got == expected
    assert raw("irate_locals")["mob"] == "d6"
    assert raw("irate_locals")["rebel_exempt"] == ["in_rebellion", "rebel_controlled"]
    with pytest.raises(ValueError):
        data.race("Piorad")


def test_alternative_strengths_apply_in_their_environs(data):
    """FIG-LOC-3: Piorads 2/4 underground, Saurians 1/4 and Segundens 2/1 in urban environs."""
    assert data.race("Piorads").strength("special", "subterranean") == (2, 4)
    assert data.race("Piorads").strength("special", "other") == (1, 1)
    assert data.race("Piorads").strength("urban") == (1, 1)
    assert data.race("Saurians").strength("urban") == (1, 4)
    assert data.race("Saurians").strength("wild") == (1, 1)
    assert data.race("Segundens").strength("urban") == (2, 1)
    assert data.race("Thoks").strength("urban") == (2, 4)
    assert [r.name for r in data.races.values() if r.alt] == ["Piorads", "Saurians", "Segundens"]


def test_a_race_listed_twice_is_refused():
    table = raw("irate_locals")
    table["races"][1]["race"] = "Anons"
    with pytest.raises(DataError, match="irate_locals: race listed more than once: Anons"):
        check_part_a(tables_with(irate_locals=table))


# ------------------------------------------------------------------------------ creatures
# The creatures table of section 2.8: name, AF/EF as printed there, kind.
CREATURES = """
Alweg - auto; Arags 1/1e mob; Batranoban 4/6 stat; Chantenes 1/1e mob; Chardireeds 4/8 stat;
Chlorofix - auto; Crunge - auto; Derigion 4/12 stat; Dindin 7/10 special; Drants - auto;
Drusers IN5/EF10 special; Elilad - special; Fog - auto; Frost_Mist -/10 special;
Gach 7/12 special; Gadhars 1/1e mob; Gamels 3/4 stat; Gilekite 3/6 stat; Glane 6/12 stat;
Gragg 3/4 stat; Gyrogos 6/- special; Hysnatons 1/1e mob; Kinsog 3/4 stat; Laboroid 3/6 stat;
Lomrels 5/6 stat; Leonus 5/8 stat; Magron -/8 special; Mish 6/6 stat; Morna 2/1e auto_mob;
Muggers 1/1e mob; Namdasn 4/8 stat; Onflam 6/4 stat; Propang 5/6 stat; Prox 6/8 stat;
Queemer 3(5)/6 special; Rotron -/6 special; Sandiabs - auto; Sekekers 1/1e mob;
Sentry_Robot 4/4 stat; Snorkas - auto; Snow_Giants 2/1e mob; Spithid 6/1 stat; Stromuse 2/4 stat;
Synestins 1/1e mob; Telebots IN3/EF6 special; Thinagig 8/16 stat; Thunk 5(6)/8 special;
Valaterix - auto; Verfusier 4/8 stat; Virus - auto; Vorozion - special;
Vrialta 10/20 auto_or_special; Wyths 9/- special; Ym-Barror 8/8 stat; Zernipak 5/8 stat;
Zops - auto
"""


def _statline(c) -> str:
    if c.intelligence is not None:
        return f"IN{c.intelligence}/EF{c.ef}"
    if c.af is None and c.ef is None:
        return "-"
    af = "-" if c.af is None else str(c.af)
    if c.wounded_af is not None:
        af += f"({c.wounded_af})"
    return f"{af}/{'-' if c.ef is None else c.ef}" + ("e" if c.mob_size else "")


def test_creatures_chart(data):
    """The 56 creatures in chart order, names as printed, with AF/EF and kind."""
    expected = [entry.split() for entry in CREATURES.replace("\n", " ").split(";")]
    got = [[c.name.replace(" ", "_"), _statline(c), c.kind] for c in data.creatures.values()]
    assert got == expected
    assert [c.rule for c in data.creatures.values()] == [f"FIG-CRE-{n}" for n in range(1, 57)]


def test_creature_flags_and_counts(data):
    """The chart's own totals: 28 plain statlines, 9 mobs (5 generic, 4 locals), 9 surprise
    attacks; and the flags that set creatures apart."""
    cs = list(data.creatures.values())
    assert sum(c.af is not None and c.ef is not None and c.mob_size is None for c in cs) == 28
    assert [c.name for c in cs if c.mob_label == "generic"] == ["Arags", "Chantenes", "Gadhars",
                                                                "Hysnatons", "Sekekers"]
    assert [c.name for c in cs if c.mob_label == "irate_locals"] == ["Morna", "Muggers",
                                                                     "Snow Giants", "Synestins"]
    assert [c.name for c in cs if c.surprise] == ["Batranoban", "Chardireeds", "Gilekite", "Gragg",
                                                  "Kinsog", "Laboroid", "Leonus", "Namdasn",
                                                  "Stromuse"]
    assert {c.name: c.mob_size for c in cs if c.mob_size and c.mob_size != "d6"} == {
        "Chantenes": "d6+1", "Sekekers": "d6+1"}
    assert {c.name: c.breakoff_drm for c in cs if c.breakoff_drm} == {
        "Gyrogos": -1, "Onflam": 1, "Propang": 1, "Prox": -1, "Thinagig": -1, "Verfusier": 1}
    assert [c.name for c in cs if c.breakoff_drm_first_round_only] == ["Propang"]
    assert {c.name: c.no_breakoff for c in cs if c.no_breakoff} == {
        "Frost Mist": True, "Mish": True, "Muggers": True, "Rotron": True, "Snorkas": True,
        "Vorozion": True, "Wyths": True, "Ym-Barror": "first_round"}
    assert {c.name: c.fights_to_death for c in cs if c.fights_to_death} == {
        "Dindin": "after_hit", "Glane": True, "Queemer": True, "Thunk": True}
    assert [c.name for c in cs if c.unique] == ["Vrialta", "Zops"]
    zops = data.creature("Zops")
    assert zops.appears_for("rebel") and not zops.appears_for("imperial")
    assert not data.creature("Sandiabs").needs_combat and data.creature("Morna").needs_combat
    assert data.creature("Crunge").params["hits_base"] == 5
    assert data.creature("Fog").params["min_intelligence"] == 3
    assert data.creature("Morna").params["min_diplomacy"] == 3
    assert data.creature("Gadhars").params["reinforcements"] == {"from_round": 3, "every": 2,
                                                                 "count": "d6-1"}
    assert data.creature("Vrialta").params["force_points"] == 3
    with pytest.raises(ValueError):
        data.creature("Sentry Robots")


def test_sentry_robots_and_surprise(data):
    """What attacks when no creature appears, and what surprise does, as stored."""
    assert [data.sentry_robots(face) for face in range(1, 7)] == [1, 1, 1, 1, 1, 2]
    assert raw("creatures")["sentry_fallback"]["creature"] in data.creatures
    assert raw("creatures")["surprise"] == {"creature_af": 1, "character_af": -1,
                                            "breakoff_allowed": False, "rounds": 1}
    with pytest.raises(ValueError):
        data.sentry_robots(7)


def test_decided_creature_details_are_flagged_with_their_own_rule(data):
    """Seven creatures hold a decided detail (per-member rolls, who must be in the group, no
    ship, an empty pool); each flag names that creature's own rule."""
    flagged = {c.name: dict(c.params["decided"]) for c in data.creatures.values()
               if "decided" in c.params}
    assert flagged == {
        "Alweg": {"per_member": data.creature("Alweg").rule},
        "Drants": {"per_member": data.creature("Drants").rule},
        "Rotron": {"no_ship": data.creature("Rotron").rule},
        "Snorkas": {"per_member": data.creature("Snorkas").rule},
        "Virus": {"halved_when": data.creature("Virus").rule},
        "Vrialta": {"recruiter_in": data.creature("Vrialta").rule},
        "Zops": {"empty_pool": data.creature("Zops").rule},
    }
    assert data.creature("Virus").params["halved_when"] == "in_group"
    assert data.creature("Vrialta").params["recruiter_in"] == "attacked_group"
    assert data.creature("Zops").params["empty_pool"] == "mulligan"
    assert data.creature("Rotron").params["no_ship"] == "no_effect"


def test_inconsistent_creatures_are_refused():
    table = raw("creatures")
    table["creatures"][2]["ef"] = None                          # Batranoban, a stat creature
    with pytest.raises(DataError, match="Batranoban: a stat creature needs both AF and EF"):
        check_part_a(tables_with(creatures=table))
    table = raw("creatures")
    del table["creatures"][1]["mob"]                            # Arags without a mob size
    with pytest.raises(DataError, match="Arags: a mob"):
        check_part_a(tables_with(creatures=table))
    table = raw("creatures")
    table["sentry_fallback"]["bands"][0]["to"] = 4
    with pytest.raises(DataError, match="faces 1..6"):
        check_part_a(tables_with(creatures=table))


# ------------------------------------------------------------------------------ bonus charts
# Transcribed from the tables of FIG-BDR-14, FIG-BDR-15 and FIG-BDR-16 (decided cells included).
REBEL_CHARACTERS = """
Adam Starlight | 2 1 1 0 1(1) 0 2 2 7 0 2 0 1
Agan Rafa | 4 2 2 0 2(2) 0 1 3(2) 3 0 1 0 2
Boccanegra | 2 2 2 0 2(2) 0 5 2 4 0 2 0 2
Bridn Murcada | 7 0 0 0 0 0 4 4 3 0 4 0 0
Doctor Sontag | 4 1 1 3 4(1) 0 4 6 - 0 4 0 1
Drakir Grebb | 3 1 1 1 2(1) 0 3 3 2 0 3 0 1
Drakir Grebb-S | 4 2 2 2 4(2) 0 4 4 - 0 4 0 2
Frun Sentel | 1 5 1 1 2(1) 0 1 1 3 0 1 0 1
Frun Sentel-F | 2 6 2 2 4(2) 0 2 2 - 0 2 0 2
Kogus | 2 0 0 0 0 0 2 2 3 0 2 0 0
Kogus-ZA | 3 1 1 1 2(1) 0 3 3 4 0 3 0 1
Ly Mantok | 4 3 3 1 4(3) 0 4 4 5 0 4 2 6
Odene Hobar | 3 2 2 2 4(2) 0 3 3 2 0 3 0 2
Oneste Woada | - 0 0 3 3 0 3 3 - 0 3 0 0
Prof. Mareg | 4 0 0 0 0 0 4 4 2 0 4 0 0
Ran Jayma | 5 1 1 0 1(1) 0 5 2 5 0 2 0 1
Rayner Derban | 4 4 4 3 7(4) 0 4 4 4 0 4 2 4
Scott Rubel | 1 1 1 0 1(1) 0 1 1 7 0 1 0 1
Sidir Ganang | 3 1(1) 1(1) 2(1) 2(1) 0 3 3(1) 3 0 3 0 0
Tourag | 2 1 1 2 3(1) 0 2 2 4 2 2 0 4(2)
Vudot Vodot | 4 2 5 4 8(2) 0 4 4 - 0 4 0 2
Yarro Latac | 3 1 1 0 1(1) 0 3 3 4 0 3 0 1
Zina Adora | 3 2 2 2 6(2) 0 3 5 - 0 3 0 2
"""
REBEL_POSSESSIONS = """
PAM Bomb | - - - - - - - - - - - 3 -
Helian Drug | 1 1 1 1 2(1) - 1 1 1 - 1 - 1
Rare Gems | 2 2 2 2 2 2 2 2 - 2 2 2 2
Advisor A. | 1 - - 1 1 - 1 1 - - 1 - -
Charsot | - - - 1 1 - - - - - - - -
Cervac Mk V | 3 - - - - 3 4 5 - - 1 3 -
HES Rifle | 1 - - - - - - - - - - - -
Assassin Blade | 2 - - - - - - - - - - - -
Hunter Seeker | 3 - - - - - - - - - - - -
Explorer | - - - - - - - - 6 - - - -
Interstell. Sloop | - - - - - - - - 4 - - - -
Stellar Courier | - - - - - - - - 6 - - - -
Plan. Privateer | - - - - - - - - 6 - - - -
Solar Merchant | - - - - - - - - 1 - - - -
Star Cruiser | - - - - - - - - 3 - - - -
S XIII | - - - - - - - - 7 - - - -
"""
IMPERIAL_CHARACTERS = """
Barca | 4 4 -1(-2) 5(4) 4 4 4 4 2
Els Taroff | 3 1 0 1(1) 1 3 3 5 2
Emperor Core. | 2 4 2 6(2) 2 2 - 2 0
Gelba | 2 4 2 6(3) 2 2 - 2 0
Jin Voles | 4 1 0 1(1) 2 2 5 2 0
Jon Kidu | 3 5 1 4(3) 3 3 - 5 0
Redjac | 5 2 1 3(2) 3 3 5 3 2
Saytar | 2 2 1 3(2) 2 4 3 3 0
Sen. Dermond | 4 3 4 6 4 4 - 4 0
Telmen | 3 3 0 3(3) 3 4 4 4 0
Thysa Kimbo | 3 3 1 4(1) 3 5 - 3 0
Vans KaTieA | 2 1 1 2(1) 2 4 4 2 0
"""
REBEL_COLUMNS = ("A", "B", "C", "D", "E", "F", "H", "I", "J", "P", "Q", "S", "T")
IMPERIAL_COLUMNS = ("A", "C", "D", "E", "H", "I", "J", "Q", "S")


def _printed(cell) -> str:
    if cell is None:
        return "-"
    return str(cell.base) if cell.alt is None else f"{cell.base}({cell.alt})"


def _chart(rows, columns) -> str:
    return "".join(f"\n{r.name} | {' '.join(_printed(r.cell(c)) for c in columns)}"
                   for r in rows) + "\n"


def test_rebel_character_chart(data):
    """FIG-BDR-14: 23 rows in the 13 columns; no R column."""
    rows = data.bonus_chart("rebel", "character").values()
    assert _chart(rows, REBEL_COLUMNS) == REBEL_CHARACTERS
    assert all(tuple(r.cells) == REBEL_COLUMNS for r in rows)
    assert not data.chart_row("Kogus").has_column("R") and data.chart_row("Kogus").cell("R") is None


def test_rebel_possession_chart_and_the_helian_drug(data):
    """FIG-BDR-15: 16 rows (9 possessions, 7 spaceships); Helian Drug T = 1 is the decided
    completion of the seed's empty cell, flagged FIG-BDR-15 and nothing else in the chart is."""
    rows = list(data.bonus_chart("rebel", "possession").values()) + \
        list(data.bonus_chart("rebel", "spaceship").values())
    order = [r["name"] for r in raw("bonus_rebel_possessions")["rows"]]
    rows.sort(key=lambda r: order.index(r.name))
    assert _chart(rows, REBEL_COLUMNS) == REBEL_POSSESSIONS
    drug = data.chart_row("Helian Drug")
    assert drug.cell("T") == Cell(1)
    assert drug.decided["T"] == "FIG-BDR-15"
    assert drug.cell("E") == Cell(2, 1)
    table = raw("bonus_rebel_possessions")
    assert table["reconstructed"] is True
    cell_flags = [(r["name"], c) for r in table["rows"] for c in r.get("decided", {})
                  if c in REBEL_COLUMNS]
    assert cell_flags == [("Helian Drug", "T")]
    assert [r.name for r in rows if r.kind == "spaceship"] == [
        "Explorer", "Interstell. Sloop", "Stellar Courier", "Plan. Privateer", "Solar Merchant",
        "Star Cruiser", "S XIII"]


def test_imperial_character_chart_and_els_taroff(data):
    """FIG-BDR-16: 12 rows in the 9 Imperial columns; Els Taroff is read E 1(1) and H 1, both
    flagged FIG-BDR-16; Barca's D -1(-2) stays as printed."""
    rows = data.bonus_chart("imperial", "character").values()
    assert _chart(rows, IMPERIAL_COLUMNS) == IMPERIAL_CHARACTERS
    els = data.chart_row("Els Taroff")
    assert (els.cell("E"), els.cell("H")) == (Cell(1, 1), Cell(1))
    assert dict(els.decided) == {"E": "FIG-BDR-16", "H": "FIG-BDR-16"}
    barca = data.chart_row("Barca").cell("D")
    assert (barca.base, barca.alt) == (-1, -2) and not data.chart_row("Barca").decided
    assert [r.name for r in rows if r.decided] == ["Els Taroff"]
    assert not els.has_column("B") and not els.has_column("F") and not els.has_column("T")


def test_imperial_spaceship_chart(data):
    """FIG-BDR-17: two ships with a J value only."""
    ships = data.bonus_chart("imperial", "spaceship")
    assert list(ships) == ["Imperial", "Redjac's"]
    assert [ships[n].cell("J").base for n in ships] == [3, 6]
    assert all(ships[n].cell(c) is None for n in ships for c in IMPERIAL_COLUMNS if c != "J")


def test_ship_extra_af_is_zero_and_flagged(data):
    """Every ship row carries the decided `extra_af` of 0, flagged with one rule the table
    lists."""
    ships = list(data.bonus_chart("rebel", "spaceship").values()) + \
        list(data.bonus_chart("imperial", "spaceship").values())
    assert len(ships) == 9 and all(s.extra_af == 0 for s in ships)
    flags = {s.decided["extra_af"] for s in ships}
    assert len(flags) == 1
    listed = set(raw("bonus_rebel_possessions")["rules"])
    assert flags <= listed and flags <= set(raw("bonus_imperial_ships")["rules"])
    assert all("extra_af" not in r for r in raw("bonus_rebel_possessions")["rows"]
               if r["kind"] == "possession")


def test_variant_rows(data):
    """Three variant rows replace their base row: Kogus-ZA alongside Zina Adora, the other two
    on the players' flag; variants are never recruited."""
    variants = {r.name: (r.variant_of, r.variant_when)
                for r in data.bonus_chart("rebel", "character").values() if r.variant_of}
    assert variants == {"Drakir Grebb-S": ("Drakir Grebb", "flag"),
                        "Frun Sentel-F": ("Frun Sentel", "flag"),
                        "Kogus-ZA": ("Kogus", {"together_with": "Zina Adora"})}
    flags = {data.chart_row(n).decided["variant_when"] for n in variants}
    assert len(flags) == 1
    assert len(data.recruitable("rebel")) == 20 and len(data.recruitable("imperial")) == 12
    assert not set(variants) & set(data.recruitable("rebel"))
    assert data.recruitable("rebel")[:2] == ("Adam Starlight", "Agan Rafa")
    assert raw("recruitment_modifiers")["pool"] == {"rebel": 20, "imperial": 12}


def test_names_keep_the_seed_spelling_with_display_names_and_aliases(data):
    """FIG-GEN-9: names are stored as seed 004 prints them; abbreviated chart names get a
    display name; seed 003's spellings and the display names find the same row."""
    for name in ("Bridn Murcada", "Prof. Mareg", "Emperor Core.", "Scott Rubel", "Vans KaTieA",
                 "Thysa Kimbo"):
        assert data.chart_row(name).name == name
    assert "Cervac Mk V" in data.bonus_chart("rebel", "possession")
    assert {"Theshians", "Movews", "Susperans"} <= set(data.races)
    abbreviated = ("Advisor A.", "HES Rifle", "Interstell. Sloop", "Plan. Privateer",
                   "Prof. Mareg", "Sen. Dermond")
    assert {n: data.display_name(n) for n in abbreviated} == {
        "Advisor A.": "Advisor Android", "HES Rifle": "High Energy Sniper Rifle",
        "Interstell. Sloop": "Interstellar Sloop", "Plan. Privateer": "Planetary Privateer",
        "Prof. Mareg": "Professor Mareg", "Sen. Dermond": "Senator Dermond"}
    assert data.display_name("Barca") == "Barca"
    assert data.chart_row("Professor Mareg").name == "Prof. Mareg"
    assert data.chart_row("Bridne Murcada").name == "Bridn Murcada"
    assert data.chart_row("Thysa Kymbo").name == "Thysa Kimbo"
    assert data.canonical_name("Suspersians") == "Susperans"
    assert data.chart_row("Redjac\u2019s").name == "Redjac's"
    with pytest.raises(ValueError):
        data.chart_row("Bridne")
    rows = raw("display_names")["display"]
    assert len(rows) == 6 and all(set(r["decided"]) == {"display"} for r in rows)


def test_damaged_charts_and_names_are_refused():
    twice = raw("bonus_imperial_characters")
    twice["rows"][0]["name"] = "Kogus"
    with pytest.raises(DataError, match="chart row listed more than once: Kogus"):
        check_part_a(tables_with(bonus_imperial_characters=twice))
    orphan = raw("bonus_rebel_characters")
    orphan["rows"][10]["variant_of"] = "Kogus Senior"
    with pytest.raises(DataError, match="Kogus-ZA: variant of 'Kogus Senior'"):
        check_part_a(tables_with(bonus_rebel_characters=orphan))
    companion = raw("bonus_rebel_characters")
    companion["rows"][10]["variant_when"] = {"together_with": "Zina"}
    with pytest.raises(DataError, match="together_with 'Zina'"):
        check_part_a(tables_with(bonus_rebel_characters=companion))
    pool = raw("recruitment_modifiers")
    pool["pool"]["imperial"] = 13
    with pytest.raises(DataError, match="12 imperial characters, but the recruitment pool says 13"):
        check_part_a(tables_with(recruitment_modifiers=pool))
    names = raw("display_names")
    names["display"][0]["name"] = "Advisor B."
    with pytest.raises(DataError, match="'Advisor B.' is not a Part A name"):
        check_part_a(tables_with(display_names=names))
    names = raw("display_names")
    names["other_spellings"][0]["seed_003"] = "Kogus"
    with pytest.raises(DataError, match="Kogus: already a Part A name"):
        check_part_a(tables_with(display_names=names))


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
    wrong_field["events"][15]["decided"]["colour"] = wrong_field["events"][15]["id"]
    with pytest.raises(DataError, match=r"events/15: decided flag for 'colour'"):
        check_part_a(tables_with(random_events=wrong_field))
    unlisted = raw("missions")
    elsewhere = raw("random_events")["rules"][0]             # a real rule, not a missions rule
    unlisted["mulligans"]["decided"]["supply"] = elsewhere
    with pytest.raises(DataError, match=f"{elsewhere} names a rule the table does not list"):
        check_part_a(tables_with(missions=unlisted))
    unknown = raw("bonus_lists")
    known = load_rule_list(rule_list_path("freedom"))["rules"]
    last = max(int(r["id"].rsplit("-", 1)[1]) for r in known if r["id"].startswith("FIG-BDR-"))
    unknown["rules"].append(f"FIG-BDR-{last + 1}")            # one past the last: no such rule
    with pytest.raises(DataError, match="unknown rule ID"):
        check_part_a(tables_with(bonus_lists=unknown))


def test_every_decided_flag_names_a_decided_rule():
    """FIG-GEN-8: a flag names a rule of the reference that decides something (DECIDED or
    SEED+DECIDED), never a plain seed rule."""
    sources = {r["id"]: r["source"] for r in load_rule_list(rule_list_path("freedom"))["rules"]}
    flags = []

    def walk(node):
        if isinstance(node, dict):
            flags.extend((node.get("decided") or {}).values())
            for value in node.values():
                walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    for table in PART_A_TABLES:
        walk(raw(table))
    assert len(flags) > 20
    assert {sources[f] for f in flags} <= {"DECIDED", "SEED+DECIDED"}


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
    ("loyalty_modifiers", _set("rebellion_states/decided/loyal", "FIG-REC-3"),
     "rebellion_states/decided"),
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
    ("irate_locals", _set("races/0/af", 0), "races/0/af"),
    ("irate_locals", _set("races/17/alt/environs", "orbit"), "races/17/alt/environs"),
    ("irate_locals", _drop("races/30"), "races"),
    ("creatures", _set("creatures/0/kind", "weather"), "creatures/0/kind"),
    ("creatures", _set("creatures/8/fights_to_death", "sometimes"), "creatures/8/fights_to_death"),
    ("creatures", _set("creatures/1/mob/size", "2d6"), "creatures/1/mob/size"),
    ("creatures", _set("creatures/0/params/hits", 3), "creatures/0/params/hits"),
    ("creatures", _set("creatures/3/description", "flavour"), "creatures/3"),
    ("bonus_rebel_characters", _set("rows/0/cells/R", 1), "rows/0/cells"),
    ("bonus_rebel_characters", _set("rows/0/cells/E", "1(1)"), "rows/0/cells/E"),
    ("bonus_rebel_characters", _drop("rows/0/cells/T"), "rows/0/cells"),
    ("bonus_rebel_characters", _drop("rows/22"), "rows"),
    ("bonus_rebel_possessions", _set("rows/1/cells/T", {"base": 1}), "rows/1/cells/T"),
    ("bonus_rebel_possessions", _set("rows/0/kind", "weapon"), "rows/0/kind"),
    ("bonus_imperial_characters", _set("rows/0/cells/B", 2), "rows/0/cells"),
    ("bonus_imperial_characters", _set("rows/1/decided/P", "FIG-BDR-16"), "rows/1/decided"),
    ("bonus_imperial_ships", _set("rows/0/cells/J", 30), "rows/0/cells/J"),
    ("bonus_imperial_ships", _set("columns", ["A", "C"]), "columns"),
    ("display_names", _set("display/0/display", ""), "display/0/display"),
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
