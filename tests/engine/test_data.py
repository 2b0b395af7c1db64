"""Rules as data (engine/data.py): YAML read safely, validated by JSON Schema with errors that
name the file and the key, and user overrides from the config folder that replace a table and
are reported (and so recorded in every save).
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from struggle_desktop.engine import data, paths
from struggle_desktop.engine.errors import DataError

ROOT = Path(__file__).resolve().parents[2]
STRUGGLE_TABLES = ROOT / "assets" / "tables" / "struggle"
STRUGGLE_SCHEMAS = ROOT / "struggle_desktop" / "games" / "struggle" / "schemas"

SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["id", "title", "reconstructed", "rules", "rows"],
    "additionalProperties": False,
    "properties": {
        "id": {"type": "string"},
        "title": {"type": "string"},
        "reconstructed": {"type": "boolean"},
        "rules": {"type": "array", "items": {"type": "string"}},
        "rows": {"type": "array", "items": {
            "type": "object", "required": ["roll", "result"],
            "properties": {"roll": {"type": "integer"}, "result": {"enum": ["win", "lose"]}}}},
    },
}
TABLE = {"id": "odds", "title": "Odds", "reconstructed": True, "rules": ["DEMO-1"],
         "rows": [{"roll": 1, "result": "win"}, {"roll": 2, "result": "lose"}]}


def dump(path: Path, content) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(content if isinstance(content, str) else yaml.safe_dump(content),
                    encoding="utf-8")
    return path


@pytest.fixture
def game_dirs(tmp_path, monkeypatch):
    """A table folder with one valid table, its schema, and a private user home."""
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path / "home"))
    tables, schemas = tmp_path / "tables", tmp_path / "schemas"
    dump(tables / "odds.yaml", TABLE)
    dump(schemas / "odds.schema.yaml", SCHEMA)
    return tables, schemas


def one_line_error(call, *args, **kwargs) -> str:
    with pytest.raises(DataError) as info:
        call(*args, **kwargs)
    message = str(info.value)
    assert "\n" not in message
    return message


# ------------------------------------------------------------------------------ reading
def test_missing_file_is_named(tmp_path):
    path = tmp_path / "nowhere.yaml"
    message = one_line_error(data.read_yaml, path)
    assert "no such file" in message and str(path) in message


def test_invalid_yaml_is_named_on_one_line(tmp_path):
    path = dump(tmp_path / "broken.yaml", "rows: [1, 2\n  - x: : :\n")
    message = one_line_error(data.read_yaml, path)
    assert str(path) in message and "not valid YAML" in message


def test_yaml_is_read_without_executing_anything(tmp_path):
    path = dump(tmp_path / "evil.yaml", "!!python/object/apply:os.system ['echo hacked']\n")
    assert "not valid YAML" in one_line_error(data.read_yaml, path)


def test_schema_error_names_the_file_and_the_key(game_dirs):
    tables, schemas = game_dirs
    bad = dict(TABLE, rows=[{"roll": 1, "result": "win"}, {"roll": 2, "result": "draw"}])
    path = dump(tables / "odds.yaml", bad)
    message = one_line_error(data.load_validated, path, schemas / "odds.schema.yaml")
    assert str(path) in message and "rows/1/result" in message and "draw" in message


def test_schema_error_at_the_top_level(game_dirs):
    tables, schemas = game_dirs
    path = dump(tables / "odds.yaml", {k: v for k, v in TABLE.items() if k != "rows"})
    message = one_line_error(data.load_validated, path, schemas / "odds.schema.yaml")
    assert "(top level)" in message and "rows" in message


# ------------------------------------------------------------------------------ tables
def test_load_tables_reads_every_table_with_flags(game_dirs):
    tables, schemas = game_dirs
    dump(tables / "more.yaml", dict(TABLE, id="more", reconstructed=False))
    dump(schemas / "more.schema.yaml", SCHEMA)
    loaded = data.load_tables("demo", tables, schemas)
    assert sorted(loaded.tables) == ["more", "odds"]
    assert loaded["odds"]["rows"][0] == {"roll": 1, "result": "win"}
    assert loaded.reconstructed() == {"more": False, "odds": True}
    assert loaded.overrides == {}


def test_a_table_without_schema_is_refused(game_dirs):
    tables, schemas = game_dirs
    dump(tables / "stray.yaml", dict(TABLE, id="stray"))
    message = one_line_error(data.load_tables, "demo", tables, schemas)
    assert "stray.yaml" in message and "no schema" in message


def test_a_table_whose_id_differs_from_its_name_is_refused(game_dirs):
    tables, schemas = game_dirs
    path = dump(tables / "odds.yaml", dict(TABLE, id="evens"))
    message = one_line_error(data.load_tables, "demo", tables, schemas)
    assert str(path) in message and "evens" in message


# ------------------------------------------------------------------------------ overrides
def override_dir(game: str) -> Path:
    return paths.user_config_dir() / "overrides" / game


def test_user_folders_follow_struggle_desktop_home(tmp_path, monkeypatch):
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    assert paths.user_config_dir() == tmp_path / "config"
    assert paths.user_data_dir() == tmp_path / "data"


def test_an_override_replaces_the_table_and_is_reported(game_dirs):
    tables, schemas = game_dirs
    plain = data.load_tables("demo", tables, schemas)
    changed = dict(TABLE, rows=[{"roll": 1, "result": "lose"}])
    dump(override_dir("demo") / "odds.yaml", changed)
    loaded = data.load_tables("demo", tables, schemas)
    assert loaded["odds"] == changed
    assert set(loaded.overrides) == {"odds"}
    assert loaded.overrides["odds"] == data.digest(changed)
    assert loaded.data_digest != plain.data_digest, "saves notice the changed table"
    # Overrides of another game, or with overrides switched off, change nothing.
    assert data.load_tables("other", tables, schemas).overrides == {}
    off = data.load_tables("demo", tables, schemas, use_overrides=False)
    assert off["odds"] == TABLE and off.overrides == {}


def test_a_broken_override_names_the_override_file(game_dirs):
    tables, schemas = game_dirs
    path = dump(override_dir("demo") / "odds.yaml", dict(TABLE, rows="many"))
    message = one_line_error(data.load_tables, "demo", tables, schemas)
    assert str(path) in message and "rows" in message


def test_an_override_without_a_table_of_that_name_is_ignored(game_dirs):
    tables, schemas = game_dirs
    dump(override_dir("demo") / "unknown.yaml", {"anything": 1})
    assert data.load_tables("demo", tables, schemas).overrides == {}


def test_struggle_tables_load_and_accept_a_user_override(tmp_path, monkeypatch):
    """The real Struggle tables through the engine loader, with one table replaced by a user
    file in STRUGGLE_DESKTOP_HOME (the Alien/Expedition Resolution Table)."""
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    plain = data.load_tables("struggle", STRUGGLE_TABLES, STRUGGLE_SCHEMAS)
    assert "aert" in plain.tables and plain.overrides == {}
    house = data.read_yaml(STRUGGLE_TABLES / "aert.yaml")
    house["title"] = "Alien/Expedition Resolution Table (house rule)"
    dump(override_dir("struggle") / "aert.yaml", house)
    loaded = data.load_tables("struggle", STRUGGLE_TABLES, STRUGGLE_SCHEMAS)
    assert loaded["aert"]["title"].endswith("(house rule)")
    assert list(loaded.overrides) == ["aert"]
    assert loaded.data_digest != plain.data_digest
