"""Freedom in the Galaxy, Parts B and C data (seed 003; rules-freedom.md sections 3, 4 and the
inventory of section 5.2): every table loads and is checked by its schema, its counts match the
inventory, the tables agree with each other and with the rules reference, and no table carries
seed text."""

from __future__ import annotations

import copy
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine.data import load_tables, load_validated
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games.freedom.data import SCHEMA_DIR, FreedomData

TABLE_DIR = assets_dir() / "tables" / "freedom"
ROOT = Path(__file__).resolve().parents[3]
SEED = ROOT.parent / "shared" / "seeds" / "003_66ea281bcd68de0c.txt"
RULES = assets_dir() / "rules" / "freedom-rules.yaml"

PART_B = ("chit_results", "chit_letters", "chit_action_events", "chit_precedence",
          "chit_coup_backlash", "chit_rebel_cell")
PART_C = ("events_cards", "events_subrolls", "events_track")
TABLES = PART_B + PART_C
MUGS = ("urban", "wild", "special")
D66 = [tens * 10 + units for tens in range(1, 7) for units in range(1, 7)]
LETTERS = "ABCDEFGHIJPQRST"


def raw(table: str) -> dict:
    return yaml.safe_load((TABLE_DIR / f"{table}.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def data() -> FreedomData:
    return FreedomData(use_overrides=False)


@pytest.fixture(scope="module")
def results(data) -> dict:
    return data.tables["chit_results"]


@pytest.fixture(scope="module")
def cards(data) -> dict[str, dict]:
    return {card["id"]: card for card in data.tables["events_cards"]["cards"]}


def mug_letter_counts(results: dict) -> dict[str, Counter]:
    """The letters of every chit of each mug, counted (the FIG-CHIT-2 load check)."""
    return {mug: Counter(letter for chit in results["mugs"][mug]
                         for letter in (chit["letter1"], chit["letter2"]) if letter)
            for mug in MUGS}


def walk_decided(node, path=()):
    """Every (path, holder, field, rule) of a `decided` or `decided_in_every_row` mapping; the
    holder is the object whose field is flagged (for `decided_in_every_row`, one row)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "decided":
                for field, rule in value.items():
                    yield path, node, field, rule
            elif key == "decided_in_every_row":
                rows = [row for mug in node["mugs"].values() for row in mug]
                for field, rule in value.items():
                    for row in rows:
                        yield path + (key,), row, field, rule
            else:
                yield from walk_decided(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from walk_decided(value, path + (index,))


# ------------------------------------------------------------------------------ loading
@pytest.mark.parametrize("table", TABLES)
def test_every_table_validates_and_carries_its_header(table):
    loaded = load_validated(TABLE_DIR / f"{table}.yaml", SCHEMA_DIR / f"{table}.schema.yaml")
    assert loaded["id"] == table
    assert loaded["title"] and loaded["rules"]
    assert loaded["part"] == ("B" if table in PART_B else "C")


def test_the_freedom_loader_serves_the_part_b_and_c_tables(data):
    for table in TABLES:
        assert data.tables[table]["id"] == table
    assert data.tables.overrides == {}


@pytest.mark.parametrize("table", TABLES)
def test_a_table_is_reconstructed_exactly_when_it_flags_decided_values(table):
    """FIG-GEN-8: a table with a decided value says so, and flags the values one by one."""
    loaded = raw(table)
    flagged = list(walk_decided(loaded))
    assert loaded["reconstructed"] is bool(flagged)


def test_every_decided_flag_names_a_field_there_and_a_decided_rule_the_table_lists():
    """FIG-GEN-8: each flag sits on the object holding the value."""
    rules = {rule["id"]: rule["source"] for rule in yaml.safe_load(RULES.read_text())["rules"]}
    for table in TABLES:
        loaded = raw(table)
        for path, holder, field, rule in walk_decided(loaded):
            assert field in holder, (table, path, field)
            assert rule in loaded["rules"], (table, path, field, rule)
            assert rules.get(rule) in ("DECIDED", "SEED+DECIDED"), (table, path, field, rule)


# ------------------------------------------------------------------------------ Part B: mugs
def test_three_mugs_of_36_chits_in_d66_order_make_108_cells(results):
    """FIG-CHIT-3: 36 rows x 3 environs types; row labels are the printed order."""
    assert sorted(results["mugs"]) == sorted(MUGS)
    assert sum(len(results["mugs"][mug]) for mug in MUGS) == 108
    for mug in MUGS:
        assert [chit["d66"] for chit in results["mugs"][mug]] == D66
    assert results["decided_in_every_row"] == {"d66": "FIG-CHIT-5"}


def test_every_mug_holds_61_letters_as_the_allocation_table_says(data, results):
    """FIG-CHIT-2: the letter counts of table 22 match the chits of table 18."""
    allocation = data.tables["chit_letters"]
    counted = mug_letter_counts(results)
    assert [row["letter"] for row in allocation["letters"]] == list(LETTERS)
    for mug in MUGS:
        assert sum(counted[mug].values()) == allocation["letters_per_mug"] == 61
        assert dict(counted[mug]) == {row["letter"]: row[mug] for row in allocation["letters"]}
    # A, C, E, F, J, Q and R are alike in all three mugs.
    for row in allocation["letters"]:
        if row["letter"] in "ACEFJQR":
            assert row["urban"] == row["wild"] == row["special"]
    assert {row["letter"]: (row["urban"], row["special"], row["wild"])
            for row in allocation["letters"] if row["letter"] in "BDGHIPST"} == {
        "B": (4, 5, 5), "D": (5, 4, 4), "G": (5, 4, 4), "H": (4, 3, 3),
        "I": (5, 5, 4), "P": (4, 5, 5), "S": (3, 4, 4), "T": (3, 3, 4)}


def test_the_letter_cross_check_notices_a_changed_chit(results):
    """FIG-CHIT-2: one letter moved on one chit no longer matches the allocation."""
    damaged = copy.deepcopy(results)
    damaged["mugs"]["wild"][20]["letter2"] = "A"
    assert mug_letter_counts(damaged)["wild"] != mug_letter_counts(results)["wild"]


def test_the_two_lost_wild_chits_are_restored_and_flagged(results):
    """FIG-CHIT-4: Wild 11 and 12 are recovered, copy the other mugs' rows and are decided."""
    recovered = [(mug, chit["d66"]) for mug in MUGS for chit in results["mugs"][mug]
                 if chit.get("recovered")]
    assert recovered == [("wild", 11), ("wild", 12)]
    content = ("letter1", "event", "version", "letter2")
    for index, (letter, event) in enumerate((("R", "Civil Disorder!"),
                                             ("R", "Populace goes wild!"))):
        wild = results["mugs"]["wild"][index]
        assert (wild["letter1"], wild["event"], wild["version"], wild["letter2"]) == (
            letter, event, None, None)
        for other in ("urban", "special"):
            assert all(results["mugs"][other][index][f] == wild[f] for f in content)
        assert wild["decided"] == {field: "FIG-CHIT-4" for field in content}
        assert wild["recovered_from"]


def test_the_chit_defects_are_decided_as_the_reference_says(results):
    """FIG-CHIT-5 items 3, 4, 5 and 6, and the Special 45 footnote typo."""
    wild = {chit["d66"]: chit for chit in results["mugs"]["wild"]}
    special = {chit["d66"]: chit for chit in results["mugs"]["special"]}
    assert wild[54]["version"] == "search" and wild[54]["decided"] == {"version": "FIG-CHIT-5"}
    assert special[32]["event"] == "Unfamiliar Food Substance!"
    assert special[32]["decided"] == {"event": "FIG-CHIT-5"}
    assert wild[56]["event"] == "Enemy Agent!" and wild[56]["decided"] == {"event": "FIG-CHIT-5"}
    assert special[45]["version"] == "two bots"
    assert special[45]["decided"] == {"version": "FIG-CHIT-5"}
    coups = [chit for mug in MUGS for chit in results["mugs"][mug]
             if chit["event"] == "Coup fails!"]
    assert len(coups) == 8
    assert all(chit["decided"] == {"version": "FIG-CHIT-5"} for chit in coups)


def test_coup_fails_variants_sit_where_the_backlash_rule_says(results):
    """FIG-CHIT-18: Urban 64-66 = 1, 2, 3; Wild 65-66 = 1, 2; Special 64-66 = 1, 2, 3."""
    placed = {mug: {chit["d66"]: chit["version"] for chit in results["mugs"][mug]
                    if chit["event"] == "Coup fails!"} for mug in MUGS}
    assert placed == {"urban": {64: 1, 65: 2, 66: 3}, "wild": {65: 1, 66: 2},
                      "special": {64: 1, 65: 2, 66: 3}}


def test_the_table_rows_of_the_reference_spot_check(results):
    """FIG-CHIT-3 rows as printed in the reference, and the six chits of scenario B1."""
    def cell(mug, d66):
        chit = results["mugs"][mug][D66.index(d66)]
        return chit["letter1"], chit["event"], chit["version"], chit["letter2"]

    assert cell("urban", 21) == ("H", "Contacts!", None, "I")
    assert cell("urban", 46) == ("D", "Security Measures!", "detected", "P")
    assert cell("urban", 24) == ("D", "Shelter!", None, "H")
    assert cell("urban", 33) == ("Q", "Delayed by Rumors!", None, "P")
    assert cell("urban", 56) == ("I", "Enemy Agent!", None, "T")
    assert cell("urban", 15) == ("R", "Locals raid Enemy Forces!", None, None)
    assert cell("wild", 36) == ("B", "Tracks lost in Wilderness!", None, "C")
    assert cell("special", 36) == ("B", "Disaster strikes!", None, "C")
    assert cell("wild", 64) == ("C", "Breach of Protocol!", "abort & shift", None)
    assert cell("special", 35) == ("J", "Accident!", None, "H")


# ------------------------------------------------------------------------------ Part B: events
def test_26_action_events_cover_every_chit_headline(data, results):
    """FIG-CHIT-17: 17 generic, 3 urban, 3 wild, 3 special; Security System Failure! is on no
    chit (FIG-CHIT-5); each chit's footnote is one its event allows."""
    events = data.tables["chit_action_events"]["events"]
    by_name = {event["event"]: event for event in events}
    assert len(events) == len(by_name) == 26
    assert Counter(event["environs"] for event in events) == {
        "any": 17, "urban": 3, "wild": 3, "special": 3}
    on_chits = {chit["event"] for mug in MUGS for chit in results["mugs"][mug]}
    assert set(by_name) - on_chits == {"Security System Failure!"}
    misplaced = []
    for mug in MUGS:
        for chit in results["mugs"][mug]:
            event = by_name[chit["event"]]
            if event["environs"] not in ("any", mug):
                misplaced.append((mug, chit["d66"], event["environs"]))
            allowed = [v["version"] for v in event.get("versions", [{"version": None}])]
            assert chit["version"] in allowed, (mug, chit)
    # Kept as printed: a Wild event in the Special column (FIG-CHIT-5 item 4).
    assert misplaced == [("special", 32, "wild")]


def test_bonus_draw_events_and_mission_conditions(data):
    """FIG-CHIT-14 adjustments; FIG-CHIT-16 aborting events; the mission each conditional event
    needs (FIG-CHIT-17, with Wrong Soldier contacted! read as T)."""
    by_name = {e["event"]: e for e in data.tables["chit_action_events"]["events"]}
    draws = {name: e["bonus_draws"] for name, e in by_name.items() if e["bonus_draws"]}
    assert draws == {"Contacts!": 1, "Planetary Event!": 1, "Delayed by Rumors!": -1,
                     "Unfamiliar Food Substance!": -1}
    assert {name for name, e in by_name.items() if e["aborts"]} == {
        "Enemy Agent!", "Rebellion falters!", "Breach of Protocol!", "Coup fails!",
        "Wrong Soldier contacted!"}
    needs = {name: e["requires_mission"]["letter"] for name, e in by_name.items()
             if e["requires_mission"]}
    assert needs == {"Breach of Protocol!": "D", "Coup fails!": "C", "Rebellion falters!": "R",
                     "Wrong Soldier contacted!": "T"}
    assert by_name["Rebellion falters!"]["requires_mission"]["side"] == "rebel"
    assert by_name["Wrong Soldier contacted!"]["decided"] == {"requires_mission": "FIG-CHIT-17"}
    robots = {v["version"]: v["sentry_robots"] for v in by_name["Creature attacks!"]["versions"]}
    assert robots == {None: 0, "one bot": 1, "two bots": 2}


def test_contradictions_and_overrules_agree_between_the_two_tables(data):
    """FIG-CHIT-11 pairs and FIG-CHIT-12 overrules, as listed in both Part B tables."""
    events = {e["event"]: e for e in data.tables["chit_action_events"]["events"]}
    precedence = data.tables["chit_precedence"]
    pairs = {frozenset(p["events"]) for p in precedence["contradictions"]}
    assert pairs == {frozenset({"Contacts!", "Delayed by Rumors!"}),
                     frozenset({"Shelter!", "Security Measures!"})}
    partners = {name: {other for pair in pairs if name in pair for other in pair - {name}}
                for name in events}
    assert {name: set(e["contradicts"]) for name, e in events.items()} == partners
    overrules = {(o["event"], o["overrules"]) for o in precedence["overrules"]}
    assert overrules == {("Tracks lost in Wilderness!", "Security Measures!"),
                         ("Surveillance Systems!", "Shelter!"), ("Rebellion falters!", "Shelter!"),
                         ("Wrong Soldier contacted!", "Shelter!"), ("Enemy Agent!", "Shelter!")}
    assert {(name, other) for name, e in events.items() for other in e["overrules"]} == overrules
    conditional = {o["event"]: o["condition"]["letter"] for o in precedence["overrules"]
                   if o["condition"]}
    assert conditional == {"Rebellion falters!": "R", "Wrong Soldier contacted!": "T"}
    enemy_agent = next(o for o in precedence["overrules"] if o["event"] == "Enemy Agent!")
    assert enemy_agent["decided"] == {"overrules": "FIG-CHIT-12"}


def test_same_events_rule_values(data):
    """FIG-CHIT-10: by headline; an absorbed event counts, a blocked one does not (decided)."""
    same = data.tables["chit_precedence"]["same_events"]
    assert same["key"] == "headline"
    assert same["absorbed_by_immunity_counts"] is True
    assert same["blocked_counts"] is False
    assert same["decided"] == {"blocked_counts": "FIG-CHIT-10"}


def test_five_immunities(data):
    """FIG-CHIT-13: holder -> (event, part) ignored, and whether it is a choice."""
    found = {i["holder"]: ({(x["event"], x["part"]) for x in i["ignores"]}, i["optional"])
             for i in data.tables["chit_precedence"]["immunities"]}
    assert found == {
        "Norrocks": ({("Creature attacks!", "all")}, False),
        "Professor Mareg": ({("Creature attacks!", "creature")}, False),
        "Yarro Latac": ({("Creature attacks!", "sentry_robots"),
                         ("Security Measures!", "sentry_robots")}, False),
        "Oneste Woada": ({("Locals attack!", "all")}, True),
        "Advisor Android": ({("Breach of Protocol!", "all")}, True)}


def bands_cover_one_to_six(bands) -> bool:
    faces = [face for band in bands for face in range(band["from"], band["to"] + 1)]
    return faces == [1, 2, 3, 4, 5, 6]


def test_coup_backlash_bands(data):
    """FIG-CHIT-18: three variants, each covering faces 1-6 once."""
    table = data.tables["chit_coup_backlash"]
    bands = {v["variant"]: [(b["from"], b["to"], b["result"]) for b in v["bands"]]
             for v in table["variants"]}
    assert bands == {
        1: [(1, 4, "nothing"), (5, 6, "shift")],
        2: [(1, 3, "nothing"), (4, 5, "shift"), (6, 6, "shift_capture_character")],
        3: [(1, 3, "nothing"), (4, 5, "shift"), (6, 6, "shift_capture_group")]}
    assert all(bands_cover_one_to_six(v["bands"]) for v in table["variants"])
    assert {r["result"]: (r["shift"], r["capture"]) for r in table["results"]} == {
        "nothing": (0, "none"), "shift": (1, "none"),
        "shift_capture_character": (1, "random_character"),
        "shift_capture_group": (1, "whole_group")}


def test_rebel_cell_rolls(data):
    """FIG-CHIT-23: 5-6 success, 2-4 nothing, 1 another mission; 6 gives two letters."""
    cell = data.tables["chit_rebel_cell"]
    assert cell["missions"] == ["D", "I", "S"]
    for roll in ("mission_roll", "other_mission_roll", "letters_roll"):
        assert bands_cover_one_to_six(cell[roll]), roll
    assert [(b["from"], b["to"], b["result"]) for b in cell["mission_roll"]] == [
        (1, 1, "other_mission"), (2, 4, "nothing"), (5, 6, "success")]
    assert [b["mission"] for b in cell["other_mission_roll"]] == [
        "first_other", "second_other", "T"]
    assert [(b["from"], b["to"], b["letters"]) for b in cell["letters_roll"]] == [
        (1, 5, 1), (6, 6, 2)]


# ------------------------------------------------------------------------------ Part C: cards
def test_81_cards_by_kind_with_their_alike_groups(data, cards):
    """FIG-EVT-1: 28 G, 33 M, 8 H, 6 IS, 6 RS; ids numbered from 1; alike cards share a title."""
    assert len(cards) == 81
    kinds = Counter(card["kind"] for card in cards.values())
    assert dict(kinds) == data.tables["events_track"]["cards"] == {
        "galactic": 28, "major": 33, "historic": 8, "imperial_secret": 6, "rebel_secret": 6}
    prefix = {"galactic": "G", "major": "M", "historic": "H", "imperial_secret": "IS",
              "rebel_secret": "RS"}
    for kind, count in kinds.items():
        assert sorted(int(i.split("#")[1]) for i, c in cards.items() if c["kind"] == kind) == \
            list(range(1, count + 1))
        assert all(i.startswith(prefix[kind] + "#") for i, c in cards.items() if c["kind"] == kind)
    titles = Counter(card["title"] for card in cards.values())
    for card in cards.values():
        assert card["count"] == titles[card["title"]], card["id"]
    alike = {title: n for title, n in titles.items() if n > 1}
    assert alike == {"Sudden Event (Major)": 2, "One Major Event!": 5, "Two Major Events!!": 8,
                     "Three Major Events!!!": 2, "Solvian Festivals": 3}
    assert [i for i, c in cards.items() if c["title"] == "Two Major Events!!"] == [
        f"G#{n}" for n in range(19, 27)]


def test_triggers_draw_30_major_cards_per_pass(data, cards):
    """FIG-EVT-8 trigger table, and FIG-EVT-9: G#11 hides a G card (decided timing)."""
    triggers = {i: (c["trigger"]["face_up_m"], c["trigger"]["face_down_m"],
                    c["trigger"]["face_down_g"]) for i, c in cards.items() if c["trigger"]}
    expected = {"G#11": (1, 0, 1), "G#12": (0, 1, 0), "G#13": (0, 1, 0)}
    expected.update({f"G#{n}": (1, 0, 0) for n in range(14, 19)})
    expected.update({f"G#{n}": (1, 1, 0) for n in range(19, 27)})
    expected.update({"G#27": (1, 2, 0), "G#28": (1, 2, 0)})
    assert triggers == expected
    drawn = sum(up + down for up, down, _ in triggers.values())
    assert drawn == data.tables["events_track"]["m_draws_per_g_pass"] == 30
    assert cards["G#11"]["decided"] == {"on_due": "FIG-EVT-9"}
    hidden = {i for i, c in cards.items() if c["on_due"] and
              any(e["key"] == "turn_up_hidden" for e in c["on_due"]["effects"])}
    assert hidden == {i for i, t in triggers.items() if t[1] or t[2]}


def test_setup_places_and_counts(data, cards):
    """FIG-EVT-3 and FIG-EVT-13: where the historic cards start; FIG-EVT-23: no M card is
    removed; FIG-EVT-5: no plays in turns 1-3; FIG-EVT-12: the last secret card stays."""
    track = data.tables["events_track"]
    setup = track["setup"]
    assert setup["first_right"] == "rebel" and setup["g_removed"] == 4
    assert setup["secret_in_hand"] == 2 and setup["m_removed"] == 0
    assert setup["decided"] == {"m_removed": "FIG-EVT-23"}
    by_start = {place: sorted(i for i, c in cards.items() if c["start"] == place)
                for place in ("new_box", "g_deck_top", "historic_stack")}
    assert by_start["new_box"] == setup["new_box"] == ["H#1"]
    assert by_start["g_deck_top"] == sorted(setup["g_deck_top"]) == ["H#2", "H#3"]
    assert by_start["historic_stack"] == sorted(setup["historic_stack"]) == [
        f"H#{n}" for n in range(4, 9)]
    assert track["segment"]["no_play_turns"] == [1, 2, 3]
    assert track["exhaustion"]["g_removed"] == 4
    assert track["secret_cards"]["leave_undrawn"] == 1
    assert track["secret_cards"]["from_last_card"] is False
    receivers = {i: c["side"] for i, c in cards.items() if c.get("receive_when")}
    assert receivers == {"H#4": "rebel", "H#5": "rebel", "H#6": "imperial", "H#7": "imperial",
                         "H#8": "rebel"}
    assert cards["H#8"]["play_condition"] == "provincial_crisis"


def effects(card: dict, timing: str, key: str) -> list[dict]:
    return [e for e in (card[timing] or {"effects": []})["effects"] if e["key"] == key]


def all_effects(card: dict, key: str) -> list[tuple[str, dict]]:
    return [(timing, e) for timing in ("on_draw", "while_face_up", "on_due", "when_played")
            for e in effects(card, timing, key)]


def test_force_point_changes_of_the_ledger(cards):
    """FIG-EVT-22: the cards that change the force-point counters, and by how much."""
    found = {(i, timing, e["side"], e["amount"], e.get("per")) for i, c in cards.items()
             for timing, e in all_effects(c, "force_points")}
    assert found == {("M#3", "on_due", "rebel", 2, None),
                     ("M#12", "on_draw", "imperial", -8, None),
                     ("M#12", "on_draw", "rebel", 8, None),
                     ("M#15", "on_draw", "imperial", 3, None),
                     ("M#22", "on_draw", "imperial", -2, None),
                     ("M#30", "on_due", "both", -2, "ancore_planet_controlled"),
                     ("H#2", "on_due", "imperial", -12, None)}
    fee = effects(cards["G#2"], "while_face_up", "general_research_reduction")
    assert fee == [{"key": "general_research_reduction", "cost": 1, "scope": "own_side_this_turn",
                    "fp_cost": 5}]


def test_general_research_reductions(cards):
    """FIG-EVT-21: G#1, G#2 and G#3 may be reduced with 1 General Research."""
    reducible = {i for i, c in cards.items() if all_effects(c, "general_research_reduction")}
    assert reducible == {"G#1", "G#2", "G#3"}


def test_secret_card_grants(cards):
    """FIG-EVT-12 grants; H#8 gives one each (FIG-EVT-23); G#6 and G#7 only with the option."""
    grants = {(i, timing, e["side"], e["amount"], e.get("conditional", False), e.get("option"))
              for i, c in cards.items() for timing, e in all_effects(c, "secret_card")}
    assert grants == {("G#8", "on_due", "both", 1, False, None),
                      ("H#1", "on_due", "rebel", 1, True, None),
                      ("H#2", "on_due", "imperial", 1, False, None),
                      ("H#8", "when_played", "both", 1, False, None),
                      ("G#6", "on_due", "imperial", 1, False, "g6_g7_secret_card"),
                      ("G#7", "on_due", "rebel", 1, False, "g6_g7_secret_card")}
    assert cards["H#8"]["decided"] == {"when_played": "FIG-EVT-23"}


def test_cards_that_touch_the_chit_mode(cards):
    """FIG-CHIT-24: the reminders and side flags the chit screen takes from face-up cards, and
    H#1's bonus-draw schedule (FIG-EVT-15)."""
    chit_keys = ("chit_flag", "chit_schedule", "chit_reminder")
    touching = {i for i, c in cards.items() if any(all_effects(c, k) for k in chit_keys)}
    assert touching == {"H#1", "G#4", "G#6", "G#7", "M#2", "M#3", "M#4", "M#14", "M#29", "M#31"}
    flags = {(i, e["flag"], e["side"]) for i, c in cards.items()
             for _, e in all_effects(c, "chit_flag")}
    assert flags == {("G#6", "reverse_subtracting", "imperial"),
                     ("G#7", "reverse_subtracting", "rebel")}
    [(_, schedule)] = all_effects(cards["H#1"], "chit_schedule")
    assert schedule["side"] == "rebel"
    assert [(s["turn"], s["bonus_draws"], s["ignore_enemy_agent"], s["ignore_subtracting"])
            for s in schedule["schedule"]] == [(1, 2, True, True), (2, 2, True, True),
                                              (3, 1, True, True), (4, 1, False, True),
                                              (5, 1, False, False)]


def test_card_titles_follow_the_rules_text(cards):
    """FIG-EVT-23: the misspelt printed titles are aliases; H#1's set-up name is an alias."""
    assert cards["G#9"]["title"] == "Hyper World dilates Time"
    assert cards["M#24"]["title"] == "Imperial Senate proposes Reforms"
    assert cards["M#31"]["title"] == "Illias Philosophical Discourses"
    assert cards["RS#2"]["title"] == "Appalling Racial Policies"
    for card_id, printed in (("G#9", "Hyper World dileates Time"),
                             ("M#24", "Imperial Seante proposes Reforms"),
                             ("M#31", "Illias Philosophocal Discourses"),
                             ("RS#2", "Appaling Racial Policies")):
        assert printed in cards[card_id]["aliases"]
        assert cards[card_id]["decided"] == {"title": "FIG-EVT-23"}
    assert cards["H#1"]["title"] == "The Declaration of Lonica"
    assert "The Lonica Conferences" in cards["H#1"]["aliases"]
    assert cards["H#3"]["decided"] == {"on_due": "FIG-EVT-23"}
    assert "State of Emergency" in cards["H#3"]["on_due"]["text"]


def test_seed_003_spellings(cards, data):
    """FIG-GEN-9: Parts B and C keep seed 003's names, never seed 004's."""
    assert cards["M#28"]["title"].startswith("Bridne Murcada")
    assert "Thysa Kymbo" in cards["M#23"]["on_draw"]["text"]
    assert "Suspersians" in cards["H#4"]["names"]["races"]
    text = "\n".join((TABLE_DIR / f"{t}.yaml").read_text(encoding="utf-8") for t in TABLES)
    for seed_004_name in ("Bridn Murcada", "Thysa Kimbo", "Susperans", "Movews"):
        assert seed_004_name not in text


# ------------------------------------------------------------------------------ Part C: sub-rolls
def test_five_sub_roll_tables(data, cards):
    """FIG-EVT-16, FIG-EVT-17, FIG-EVT-18, FIG-EVT-19, FIG-EVT-20: the die faces of each table
    and the cards that use them."""
    tables = data.tables["events_subrolls"]["tables"]
    assert len(tables) == 5
    for table_id, table in tables.items():
        assert cards[table["card"]]["sub_roll"] == table_id
        assert [face["face"] for face in table["faces"]] == [1, 2, 3, 4, 5, 6]
    assert {i for i, c in cards.items() if c["sub_roll"]} == {t["card"] for t in tables.values()}
    g4 = tables["g4_provinces"]
    assert [f.get("province") for f in g4["faces"]] == [1, 2, 3, 4, 5, None]
    assert g4["faces"][5]["extra_rolls"] == 2 and g4["start_rolls"] == 1
    assert g4["max_rolls"] == 20 and g4["decided"] == {"max_rolls": "FIG-EVT-16"}
    assert [f["system"] for f in tables["g5_system"]["faces"]] == [
        "Atriard", "Ancore", "Aziza", "Wex", "Moda", "Zamorax"]
    assert tables["g5_system"]["when"] == "on_draw"
    assert tables["g5_system"]["decided"] == {"when": "FIG-EVT-17"}
    assert [f["possession"] for f in tables["m1_possession"]["faces"]] == [
        "Advisor Android"] * 2 + ["Charsot"] * 2 + ["Cache of Rare Gems"] * 2
    assert tables["m1_possession"]["when"] == "on_due"
    m6 = tables["m6_system"]
    assert [f["system"] for f in m6["faces"]] == [
        "Phisaria", "Egrix", "Ribex", "Luine", "Aziza", "Gellas"]
    assert [f.get("extra_rolls", 0) for f in m6["faces"]] == [0, 0, 0, 0, 0, 1]
    assert m6["max_rolls"] == 20 and m6["decided"] == {"max_rolls": "FIG-EVT-19"}
    is3 = tables["is3_leak"]
    assert [f.get("character") for f in is3["faces"][:5]] == [
        None, "Odene Hobar", "Frun Sentel", "Yarro Latac", "Vudot Vodot"]
    assert is3["faces"][5] == {"face": 6, "chooser": "imperial"}
    assert is3["unmask"]["face"] == 1


# ------------------------------------------------------------------------------ schemas
def _set(path, value):
    def change(table):
        node = table
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


def _delete(path):
    def change(table):
        node = table
        for key in path[:-1]:
            node = node[key]
        del node[path[-1]]
    return change


def _swap_first_two(path):
    def change(table):
        node = table
        for key in path:
            node = node[key]
        node[0], node[1] = node[1], node[0]
    return change


DAMAGE = [
    ("chit_results", _set(("mugs", "wild", 3, "letter1"), "K"), "mugs/wild/3/letter1"),
    ("chit_results", _swap_first_two(("mugs", "urban")), "mugs/urban/0/d66"),
    ("chit_results", _set(("mugs", "urban", 28, "version"), "two bots"), "mugs/urban/28/version"),
    ("chit_results", _set(("mugs", "urban", 0, "version"), "found"), "mugs/urban/0/version"),
    ("chit_results", _delete(("mugs", "special")), "mugs"),
    ("chit_results", _delete(("mugs", "wild", 0, "decided")), "mugs/wild/0"),
    ("chit_letters", _set(("letters", 4, "wild"), 40), "letters/4/wild"),
    ("chit_letters", _delete(("letters", 14)), "letters"),
    ("chit_action_events", _delete(("events", 25)), "events"),
    ("chit_action_events", _set(("events", 2, "effect_key"), "teleport"), "events/2/effect_key"),
    ("chit_action_events", _set(("events", 2, "bonus_draws"), 2), "events/2/bonus_draws"),
    ("chit_precedence", _set(("immunities", 2, "ignores", 0, "part"), "robots"),
     "immunities/2/ignores/0/part"),
    ("chit_precedence", _set(("overrules", 0, "overrules"), "Security Measure!"),
     "overrules/0/overrules"),
    ("chit_coup_backlash", _set(("variants", 0, "bands", 1, "to"), 7), "variants/0/bands/1/to"),
    ("chit_rebel_cell", _set(("letters_roll", 1, "letters"), 3), "letters_roll/1"),
    ("events_cards", _delete(("cards", 80)), "cards"),
    ("events_cards", _set(("cards", 0, "when_played"), {"effects": [{"key": "manual"}],
                                                         "text": "x"}), "cards/0"),
    ("events_cards", _set(("cards", 10, "trigger", "face_down_m"), 4), "cards/10/trigger"),
    ("events_cards", _set(("cards", 28, "on_due", "effects", 0), {"key": "force_points",
                                                                  "side": "rebel",
                                                                  "amount": 0}),
     "cards/28/on_due"),
    ("events_cards", _set(("cards", 0, "sub_roll"), "g9_weather"), "cards/0/sub_roll"),
    ("events_subrolls", _delete(("tables", "g5_system", "faces", 5)), "tables/g5_system/faces"),
    ("events_subrolls", _set(("tables", "g4_provinces", "faces", 0, "province"), 6),
     "tables/g4_provinces/faces/0/province"),
    ("events_track", _set(("setup", "first_right"), "nobody"), "setup/first_right"),
    ("events_track", _set(("surprise",), 1), "(top level)"),
]


@pytest.mark.parametrize("table, damage, where", DAMAGE)
def test_a_damaged_table_fails_to_load_with_a_clear_message(tmp_path, table, damage, where):
    broken = raw(table)
    damage(broken)
    (tmp_path / f"{table}.yaml").write_text(yaml.safe_dump(broken, sort_keys=False),
                                            encoding="utf-8")
    with pytest.raises(DataError) as failure:
        load_tables("freedom", tmp_path, SCHEMA_DIR, use_overrides=False)
    message = str(failure.value)
    assert f"{table}.yaml" in message
    assert f": {where}" in message


@pytest.mark.parametrize("table", TABLES)
def test_an_undamaged_copy_loads_from_the_same_folder(tmp_path, table):
    (tmp_path / f"{table}.yaml").write_text(yaml.safe_dump(raw(table), sort_keys=False),
                                            encoding="utf-8")
    loaded = load_tables("freedom", tmp_path, SCHEMA_DIR, use_overrides=False)
    assert loaded[table] == raw(table)


# ------------------------------------------------------------------------------ text rights
#: Fields that hold names (headlines, titles, spellings, holders, places, characters): names may
#: be shipped as printed (FIG-GEN-2).
NAME_FIELDS = {"title", "aliases", "event", "spellings", "holder", "system", "possession",
               "character", "names", "events", "overrules", "contradicts", "ignores_later"}
WINDOW = 40


def free_text(node, key=None):
    if key in NAME_FIELDS:
        return
    if isinstance(node, dict):
        for k, value in node.items():
            yield from free_text(value, k)
    elif isinstance(node, list):
        for value in node:
            yield from free_text(value, key)
    elif isinstance(node, str):
        yield node


def normalised(text: str) -> str:
    return re.sub(r"\s+", " ", text).lower()


@pytest.mark.skipif(not SEED.is_file(), reason="seed 003 is not beside the checkout")
def test_no_table_repeats_seed_text():
    """FIG-GEN-2: no free-text string shares a 40-character run with seed 003."""
    seed = normalised(SEED.read_text(encoding="utf-8"))
    runs = {seed[i:i + WINDOW] for i in range(len(seed) - WINDOW + 1)}
    checked = 0
    for table in TABLES:
        for text in free_text(raw(table)):
            text = normalised(text)
            checked += len(text) >= WINDOW
            for i in range(len(text) - WINDOW + 1):
                assert text[i:i + WINDOW] not in runs, (table, text[i:i + WINDOW])
    assert checked > 100   # the summaries and card texts were really looked at
    # and the check bites: a sentence of the seed is found.
    sample = normalised(max(SEED.read_text(encoding="utf-8").splitlines(), key=len))
    assert sample[:WINDOW] in runs
