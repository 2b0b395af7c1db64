"""Rules as data: YAML tables validated against JSON Schemas, with user overrides.

Every table is a YAML file with a common header (``id``, ``title``, ``reconstructed``,
``rules``). Loading goes through ``engine/untrusted.py`` (a safe loader, with size, nesting
and alias limits) and validates with jsonschema, so a broken or hand-edited file gives one
clear message naming the file and the offending key. A user may
replace any table with a file of the same name in ``<user config>/overrides/<game>/``; the
override is validated the same way and recorded (name and digest) in every save.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any

from struggle_desktop.engine import untrusted
from struggle_desktop.engine.canonical import digest
from struggle_desktop.engine.datacache import cached
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir, scenarios_dir, user_config_dir


def read_yaml(path: Path) -> Any:
    """A YAML file, read through ``engine/untrusted.py`` (regular files only, size, nesting
    and alias limits, safe loader)."""
    return untrusted.read_yaml(path, error=DataError)


@lru_cache(maxsize=None)
def _validator(schema_path: str):
    # Imported here: jsonschema costs ~0.1 s to import and a warm start never validates
    # (engine/datacache.py), so the desktop window starts without it.
    import jsonschema

    schema = read_yaml(Path(schema_path))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def validate(data: Any, schema_path: Path, source: str) -> None:
    """Raise DataError naming ``source`` and the first offending key if ``data`` breaks the
    schema."""
    errors = sorted(_validator(str(schema_path)).iter_errors(data), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(top level)"
        raise DataError(f"{source}: {where}: {untrusted.schema_problem(err)}")


def load_validated(path: Path, schema_path: Path) -> Any:
    """Parse and check ``path``; a result for the very same file and schema bytes is reused
    from the data cache (engine/datacache.py)."""
    def build() -> Any:
        data = read_yaml(path)
        validate(data, schema_path, str(path))
        return data

    return cached("yaml-" + hashlib.sha256(str(path).encode()).hexdigest()[:12],
                  (path, schema_path), build)


@dataclass
class TableSet:
    """The tables of one game, after overrides, with a digest of what was used."""

    tables: dict[str, Any]
    overrides: dict[str, str] = field(default_factory=dict)  # table id -> digest of override

    def __getitem__(self, table_id: str) -> Any:
        return self.tables[table_id]

    @property
    def data_digest(self) -> str:
        return digest(self.tables)

    def reconstructed(self) -> dict[str, bool]:
        return {tid: bool(t.get("reconstructed")) for tid, t in self.tables.items()}


def load_tables(game: str, table_dir: Path, schema_dir: Path, use_overrides: bool = True) -> TableSet:
    """Load every ``*.yaml`` of ``table_dir``; each needs ``<stem>.schema.yaml`` in
    ``schema_dir``. Files in the user's override folder for ``game`` replace tables by name."""
    tables: dict[str, Any] = {}
    overrides: dict[str, str] = {}
    override_dir = user_config_dir() / "overrides" / game
    for path in sorted(table_dir.glob("*.yaml")):
        stem = path.stem
        schema_path = schema_dir / f"{stem}.schema.yaml"
        if not schema_path.exists():
            raise DataError(f"no schema for table {path.name} (expected {schema_path})")
        source = path
        override = override_dir / path.name
        # Anything of the table's name counts (a pipe or a folder is then refused, saying so),
        # never silently skipped.
        if use_overrides and (override.exists() or override.is_symlink()):
            source = override
        data = load_validated(source, schema_path)
        if data.get("id") != stem:
            raise DataError(f"{source}: id is {data.get('id')!r}, expected {stem!r}")
        tables[stem] = data
        if source is override:
            overrides[stem] = digest(data)
    return TableSet(tables, overrides)


def load_scenarios(game: str, schema_path: Path, first: str | None = None) -> dict[str, dict]:
    """Every ``scenarios/<game>/*.yaml``, validated against ``schema_path``, by id (each id
    must equal its file's name); ``first`` is listed first, the rest by id. DataError if there
    are none, or ``first`` is missing."""
    found: dict[str, dict] = {}
    for path in sorted(scenarios_dir().joinpath(game).glob("*.yaml")):
        data = load_validated(path, schema_path)
        if str(data["id"]) != path.stem:
            raise DataError(f"{path}: id is {data['id']!r}, expected {path.stem!r}")
        found[str(data["id"])] = data
    if not found:
        raise DataError(f"no {game} scenarios found")
    if first is not None and first not in found:
        raise DataError(f"no {game} scenario {first!r} found")
    return dict(sorted(found.items(), key=lambda kv: (kv[0] != first, kv[0])))


class GameData:
    """The data of one game, loaded lazily and kept for the life of the process: its tables
    (``assets/tables/<game_id>/``, each checked against ``<schema_dir>/<table>.schema.yaml``)
    and its scenarios. A game subclasses it and adds views of its own."""

    game_id = ""
    schema_dir: Path = Path()
    #: The scenario listed first (the default one), if any.
    default_scenario: str | None = None

    def __init__(self, use_overrides: bool = True):
        self.use_overrides = use_overrides

    @cached_property
    def tables(self) -> TableSet:
        return load_tables(self.game_id, assets_dir() / "tables" / self.game_id, self.schema_dir,
                           use_overrides=self.use_overrides)

    def __getitem__(self, table_id: str) -> Any:
        return self.tables[table_id]

    @cached_property
    def scenarios(self) -> dict[str, dict]:
        return load_scenarios(self.game_id, self.schema_dir / "scenario.schema.yaml",
                              first=self.default_scenario)

    @cached_property
    def data_digest(self) -> str:
        return digest({"tables": self.tables.data_digest, "scenarios": digest(self.scenarios)})
