"""The Noble Houses data layer: every table and the scenario validate, and their numbers and names
match the rules reference (sections 2, 3, 4 and 18 of rules-nobles.md)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine.data import load_validated
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir, scenarios_dir
from struggle_desktop.games.nobles.data import SCHEMA_DIR, NoblesData, default_data

TABLE_DIR = assets_dir() / "tables" / "nobles"
TABLES = ("worlds", "unit_aliases", "allies", "units", "map_settings", "procedure", "ai")

# Transcribed from rules-nobles.md section 4: rule, canonical name, category, cost, AD and the
# ability keywords (kinds) of the unit type.
UNITS = [
    ("NH-UNIT-1", "Noble", "noble", None, 0, {"command", "psychic"}),
    ("NH-UNIT-2", "Jumpship", "jumpship", 6, 0, {"transport"}),
    ("NH-UNIT-3", "Nuclear Arsenal", "nuke", 5, 5, {"single_use", "targets_jumpships"}),
    ("NH-UNIT-4", "House Troops", "army", 2, 1, {"bonus"}),
    ("NH-UNIT-5", "Psychic Veterans", "army", 4, 2, {"negate_psychic"}),
    ("NH-UNIT-6", "Anthrosynthetic Berserkers", "army", 5, 2, {"bonus"}),
    ("NH-UNIT-7", "Cyborg Commandos", "army", 4, 2, {"first_strike"}),
    ("NH-UNIT-8", "Kadesh Fanatics", "army", 1, 1, {"sacrifice"}),
    ("NH-UNIT-9", "Kadesh Warrior Priests", "army", 5, 2, {"psychic"}),
    ("NH-UNIT-10", "Nitrix Suicide Squads", "army", 3, 2, {"sacrifice"}),
    ("NH-UNIT-11", "Desert Warriors", "army", 5, 3, {"bonus", "first_strike"}),
    ("NH-UNIT-12", "Ice Barbarians", "army", 3, 2, {"bonus", "first_strike"}),
    ("NH-UNIT-13", "Jungle Fighters", "army", 1, 1, {"bonus", "first_strike"}),
    ("NH-UNIT-14", "Prisoner Soldiers", "army", 1, 2, {"escape"}),
    ("NH-UNIT-15", "Subterranean Mutants", "army", 4, 1, {"psychic", "first_strike"}),
    ("NH-UNIT-16", "Solar Templars", "army", 7, 3, {"psychic"}),
    ("NH-UNIT-17", "Amazonians", "army", 5, 3, set()),
    ("NH-UNIT-18", "Robot Death Machines", "army", 7, 4, set()),
    ("NH-UNIT-19", "Clone Soldiers", "army", 1, 1, set()),
    ("NH-UNIT-20", "Colonial Rangers", "army", 7, 2, {"self_transport"}),
    ("NH-UNIT-21", "Imperial Shock Troops", "army", 6, 3, {"bonus", "imperial"}),
    ("NH-UNIT-22", "Imperial Centurions", "army", 3, 1, {"bonus", "imperial"}),
    ("NH-UNIT-23", "Imperial Death Squads", "army", 4, 1, {"bonus", "first_strike", "imperial"}),
    ("NH-UNIT-24", "Imperial Conscripts", "army", 1, 1, {"imperial"}),
    ("NH-UNIT-25", "Rimspace Pirates", "army", 4, 1, {"self_transport"}),
    ("NH-UNIT-26", "Discordian Heretics", "army", 1, 1, {"sacrifice"}),
    ("NH-UNIT-27", "Transhuman Supersoldiers", "army", 5, 4, {"defect"}),
    ("NH-UNIT-28", "Mercenaries", "army", 2, 2, {"retainer"}),
    ("NH-UNIT-29", "Rebel Freedom Fighters", "army", 4, 2, {"first_strike", "bonus"}),
    ("NH-UNIT-30", "Sea Monsters", "army", 5, 4, {"defenders"}),
    ("NH-UNIT-31", "Miners", "army", 1, 2, {"defenders"}),
    ("NH-UNIT-32", "Psychic Natives", "army", 1, 1, {"psychic", "defenders"}),
    ("NH-UNIT-33", "Lava Projectors", "army", 3, 3, {"defenders"}),
]


@pytest.fixture(scope="module")
def data() -> NoblesData:
    return NoblesData(use_overrides=False)


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("table", TABLES)
def test_every_table_validates_and_carries_its_header(table):
    loaded = load_validated(TABLE_DIR / f"{table}.yaml", SCHEMA_DIR / f"{table}.schema.yaml")
    assert loaded["id"] == table
    assert loaded["title"] and loaded["rules"]
    # Every table holds at least one [DECIDED] value (canonical names, completions, settings).
    assert loaded["reconstructed"] is True


def test_the_data_loads_and_lists_exactly_the_tables(data):
    assert sorted(data.tables.tables) == sorted(TABLES)
    assert data.tables.overrides == {}
    assert len(data.data_digest) > 10
    assert default_data() is default_data()


def test_unit_codes_are_short_and_unique(data):
    """Unit ids are built from the codes (A-HT1), so two types never share one."""
    codes = [u.code for u in data.units.values()]
    assert len(set(codes)) == len(codes) == 33
    assert data.code_types["HT"] == "House Troops"


def test_a_broken_table_names_its_file(tmp_path):
    bad = tmp_path / "units.yaml"
    shutil.copy(TABLE_DIR / "units.yaml", bad)
    table = yaml.safe_load(bad.read_text(encoding="utf-8"))
    table["units"][0]["ad"] = "many"
    bad.write_text(yaml.safe_dump(table), encoding="utf-8")
    with pytest.raises(DataError, match=str(bad).replace("\\", "\\\\")):
        load_validated(bad, SCHEMA_DIR / "units.schema.yaml")


def test_an_unknown_key_is_refused(tmp_path):
    bad = tmp_path / "worlds.yaml"
    table = yaml.safe_load((TABLE_DIR / "worlds.yaml").read_text(encoding="utf-8"))
    table["worlds"][0]["colour"] = "red"
    bad.write_text(yaml.safe_dump(table), encoding="utf-8")
    with pytest.raises(DataError, match="worlds.yaml: worlds/0"):
        load_validated(bad, SCHEMA_DIR / "worlds.schema.yaml")


# ------------------------------------------------------------------------------ worlds
def test_the_world_table(data):
    """NH-WORLD-1: 24 worlds in table order, total income 60, the four homeworlds at 5 each."""
    worlds = data.worlds
    assert len(worlds) == 24
    assert [w.number for w in worlds.values()] == list(range(1, 25))
    assert data.world_names[0] == "Lortran" and data.world_names[-1] == "Marx"
    assert sum(w.income for w in worlds.values()) == 60
    assert data.homeworlds == ("Lortran", "Gurati", "Kadesh", "Nitrix")
    assert all(worlds[h].income == 5 and worlds[h].type == "Homeworld" for h in data.homeworlds)
    assert data.non_home_worlds[0] == "Quayat" and len(data.non_home_worlds) == 20
    assert worlds["Mox"].income == 4 and worlds["Mox"].type == "Gem"
    assert worlds["Gurati"].recruits == ("Anthrosynthetic Berserkers", "Cyborg Commandos",
                                         "House Troops")
    assert all("House Troops" in worlds[h].recruits for h in data.homeworlds)


def test_recruit_lists_name_canonical_units(data):
    """NH-WORLD-1, NH-WORLD-2: every recruit entry is a canonical unit name; NH-WORLD-5: Pyreen
    recruits nothing, its entry is Diplomacy (one extra attempt a turn)."""
    for world in data.worlds.values():
        for unit in world.recruits:
            assert unit in data.units, (world.name, unit)
            assert unit not in data.aliases
    pyreen = data.worlds["Pyreen"]
    assert pyreen.recruits == () and pyreen.special == {"diplomacy": 1}
    assert [w.name for w in data.worlds.values() if w.special] == ["Pyreen"]


def test_yoravar_jumpships_cost_4(data):
    """NH-WORLD-10: jumpships bought at Yoravar cost 4, elsewhere 6."""
    assert data.worlds["Yoravar"].prices == {"Jumpship": 4}
    assert data.unit_cost("Jumpship", "Yoravar") == 4
    assert data.unit_cost("Jumpships", "Parallax") == 6
    assert data.unit_cost("Jumpship") == 6
    assert [w.name for w in data.worlds.values() if w.prices] == ["Yoravar"]


def test_aliases_resolve(data):
    """NH-WORLD-2: each of the seed's other spellings resolves to its canonical name."""
    expected = {
        "Fanatics": "Kadesh Fanatics", "Warrior Priests": "Kadesh Warrior Priests",
        "Suicide Squads": "Nitrix Suicide Squads", "Prison Soldiers": "Prisoner Soldiers",
        "Nukes": "Nuclear Arsenal", "Nuclear Arsenals": "Nuclear Arsenal",
        "Rebels": "Rebel Freedom Fighters", "Heretics": "Discordian Heretics",
        "Pirates": "Rimspace Pirates", "Colonial Ranger": "Colonial Rangers",
        "Jumpships": "Jumpship",
    }
    assert data.aliases == expected
    for alias, name in expected.items():
        assert data.canonical(alias) == name
    assert data.canonical("Miners") == "Miners"
    with pytest.raises(DataError, match="Diplomacy"):
        data.canonical("Diplomacy")


# ------------------------------------------------------------------------------ allies
def test_the_ally_table(data):
    """NH-ALLY-1: 17 allies with units by canonical name, benefits (Imperial Aristocracy's as a
    choice of two) and buyable types."""
    allies = data.allies
    assert len(allies) == 17
    assert [a.number for a in allies.values()] == list(range(1, 18))
    names = list(allies)
    assert (names[0], names[-1]) == ("Sisteria", "Imperial Army")
    for ally in allies.values():
        assert all(data.canonical(u) == u for u in ally.units), ally.name
        assert ally.buyable is None or data.canonical(ally.buyable) == ally.buyable
        # An ally that brings units lets its owner buy that very type, and only then.
        assert ally.buyable == (next(iter(ally.units)) if ally.units else None)
    assert allies["Emporex"].units == {"Imperial Centurions": 2}
    assert allies["Emporex"].benefits == {"diplomacy": 1}
    assert allies["Imperial Navy"].units == {"Jumpship": 3}
    assert allies["Spacing Guild"].benefits == {"income": 1}
    assert allies["Church of Mankind"].benefits == {"diplomacy": 2}
    assert allies["Mercantile Consortium"].benefits == {"income": 2}
    assert allies["Surgeons of Silex"].benefits == {"recruit_noble": 1, "income": 1}
    assert allies["Sisteria"].benefits == {"noble_action": 1}
    assert allies["Imperial Beaurocracy"].shown_as == "Imperial Bureaucracy"
    assert allies["Imperial Beaurocracy"].benefits == {"strategic_planning": 1}
    assert allies["Colonial Council"].units == {"Colonial Rangers": 1}
    aristocracy = allies["Imperial Aristocracy"]
    assert aristocracy.benefits == {}
    assert aristocracy.choice == ({"noble_action": 1}, {"recruit_noble": 1})
    assert [a.name for a in allies.values() if a.choice] == ["Imperial Aristocracy"]
    assert sum(a.benefits.get("income", 0) for a in allies.values()) == 5


def test_allies_per_house(data):
    """NH-ALLY-2: 8 allies each with 2 houses, 5 with 3, 4 with 4; never more than 17."""
    assert data.allies_per_house == {2: 8, 3: 5, 4: 4}
    assert all(houses * n <= len(data.allies) for houses, n in data.allies_per_house.items())


# ------------------------------------------------------------------------------ units
@pytest.mark.parametrize("rule, name, category, cost, ad, kinds", UNITS, ids=[u[0] for u in UNITS])
def test_unit_type(data, rule, name, category, cost, ad, kinds):
    """Each unit type's cost, AD, category and ability keywords as in section 4: NH-ABIL-1's
    four categories, and the seed's two columns read as cost then AD (NH-ABIL-3)."""
    unit = data.units[name]
    assert (unit.rule, unit.category, unit.cost, unit.ad) == (rule, category, cost, ad)
    assert {a["kind"] for a in unit.abilities} == kinds


def test_all_33_unit_types_in_rule_order(data):
    assert list(data.units) == [u[1] for u in UNITS]


def test_conditional_abilities(data):
    """The conditions that section 4 attaches to bonuses and First Strike (NH-UNIT-4, NH-UNIT-6,
    NH-UNIT-7, NH-UNIT-11, NH-UNIT-15, NH-UNIT-22, NH-UNIT-23, NH-UNIT-29)."""
    def ability(unit, kind):
        return [{k: v for k, v in a.items() if k not in ("kind", "rule")}
                for a in data.units[unit].abilities if a["kind"] == kind]

    assert ability("House Troops", "bonus") == [{"ad": 1, "when": "defending"}]
    assert ability("Anthrosynthetic Berserkers", "bonus") == [{"ad": 2, "when": "attacking"}]
    assert ability("Cyborg Commandos", "first_strike") == [{"when": "attacking"}]
    assert ability("Desert Warriors", "bonus") == [{"ad": 1, "when": "defending",
                                                    "world": "Quayat"}]
    assert ability("Desert Warriors", "first_strike") == [{"when": "defending", "world": "Quayat"}]
    assert ability("Subterranean Mutants", "first_strike") == [{"when": "defending",
                                                                "world": "Hellish"}]
    assert ability("Imperial Centurions", "bonus") == [{"ad": 2, "when": "defending"}]
    assert ability("Imperial Death Squads", "bonus") == [{"ad": 1, "when": "attacking"}]
    assert ability("Rebel Freedom Fighters", "bonus") == [{"ad": 1, "when": "versus_imperial"}]
    assert ability("Noble", "command") == [{"ad": 1, "first_strike": True}]
    # Every home-defence world is a world, and the unit is recruited there.
    for unit in data.units.values():
        for a in unit.abilities:
            if "world" in a:
                assert unit.name in data.worlds[a["world"]].recruits


def test_where_units_are_bought_agrees_with_worlds_and_allies(data):
    """The units table's bought_at repeats the world list and the allies' buyable types
    (NH-WORLD-1, NH-ALLY-1)."""
    for unit in data.units.values():
        worlds = tuple(w.name for w in data.worlds.values() if unit.name in w.recruits)
        allies = tuple(a.name for a in data.allies.values() if a.buyable == unit.name)
        assert (unit.bought_at_worlds, unit.bought_with_allies) == (worlds, allies), unit.name
        # Only the Noble is never bought; every other type can be had somewhere.
        assert bool(worlds or allies) == (unit.cost is not None), unit.name
    assert data.units["Jumpship"].bought_with_allies == ("Imperial Navy", "Spacing Guild")


# ------------------------------------------------------------------------------ settings
def test_map_settings(data):
    """NH-MAP-16: four terrain counts, all 0 by default, with their ranges."""
    settings = data.map_settings["settings"]
    assert {k: (s["default"], s["min"], s["max"]) for k, s in settings.items()} == {
        "obstacles": (0, 0, 8), "jump_stations": (0, 0, 4), "empty_systems": (0, 0, 4),
        "stargate_pairs": (0, 0, 1)}
    assert data.default_map_settings == dict.fromkeys(settings, 0)


def test_standard_scenario(data):
    """NH-OPT-2, NH-SETUP-7: one scenario, `standard`, with the new-game defaults."""
    assert list(data.scenarios) == ["standard"]
    path = scenarios_dir() / "nobles" / "standard.yaml"
    assert load_validated(path, SCHEMA_DIR / "scenario.schema.yaml") == data.scenario()
    options = data.scenario("standard")["options"]
    assert (options["houses"]["default"], options["houses"]["min"], options["houses"]["max"]) \
        == (2, 2, 4)
    assert options["seats"]["default"] == ["human", "ai"]
    assert options["jump_range"]["default"] == 3 and options["upkeep_divisor"]["default"] == 10
    assert options["map_size"]["default"] == [10, 10] and options["map_size"]["max"] == 20
    assert options["turn_limit"]["default"] is None and options["turn_limit"]["when_on"] == 20
    assert options["turn_limit"]["unattended"] == 30
    assert options["ai_difficulty"]["default"] == "normal"
    forces = data.scenario()["starting_forces"]
    assert all(data.canonical(u) == u for u in forces["units"])
    with pytest.raises(DataError, match="unknown Noble Houses scenario"):
        data.scenario("campaign")


def test_schemas_are_strict():
    """Every schema refuses unknown keys at its top level."""
    for path in sorted(Path(SCHEMA_DIR).glob("*.schema.yaml")):
        assert yaml.safe_load(path.read_text(encoding="utf-8"))["additionalProperties"] is False
