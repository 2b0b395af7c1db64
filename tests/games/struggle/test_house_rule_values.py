"""Every value the house-rules page offers for Struggle does something in play.

The page (``docs/house-rules.md`` and the window's page, both from the tables) offers every
value of every table; a player changes one with a file of the same name in
``<user config>/overrides/struggle/``. A value the program does not read would be a house rule
that does nothing, so:

- each value the rules newly read from its table is overridden here through that same folder,
  and a position where it applies plays differently from the shipped value;
- every other offered value is named in the rules code (a new value added to a table that no
  code reads fails ``test_every_offered_value_is_read``), unless its table lists it under
  ``documentation_only``: stated for the record, left out of the catalogue's values, and an
  override may not change it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable

import pytest
import yaml

from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir
from struggle_desktop.games.struggle import GAME, combat, setup
from struggle_desktop.games.struggle.chaos_ops import coup, usurpation
from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx
from struggle_desktop.games.struggle.data import StruggleData, documented_values
from tests.games.struggle.helpers import (ScriptedRng, clear_map, new_game, put_force, put_system,
                                          put_unit)

TABLES = assets_dir() / "tables" / "struggle"
CODE = Path(combat.__file__).resolve().parent
G = GAME.data.galaxy
HEADER = {"id", "title", "reconstructed", "rules", "documentation_only"}


# ============================================================================ overriding
def shipped(table_id: str) -> dict:
    return yaml.safe_load((TABLES / f"{table_id}.yaml").read_text(encoding="utf-8"))


def set_path(table: dict, path: str, value: Any) -> None:
    *parents, last = path.split(".")
    for key in parents:
        table = table[key]
    table[last] = value


def overridden(tmp_path: Path, monkeypatch, table_id: str, path: str, value: Any) -> StruggleData:
    """Struggle's data as a player's override file sets ``path`` of ``table_id`` to
    ``value``: the shipped table, edited, written to the user's overrides folder."""
    table = shipped(table_id)
    set_path(table, path, value)
    folder = tmp_path / "config" / "overrides" / "struggle"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{table_id}.yaml").write_text(yaml.safe_dump(table, sort_keys=False),
                                             encoding="utf-8")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    data = StruggleData()
    assert table_id in data.tables.overrides
    return data


def shipped_data() -> StruggleData:
    return StruggleData(use_overrides=False)


def far_pair(distance: int) -> tuple[int, int]:
    """Two system sectors ``distance`` apart, away from the Core."""
    core = G.core
    for a in G.system_sectors:
        if a == core or G.distance(a, core) is None or G.distance(a, core) < 2:
            continue
        for b in G.system_sectors:
            if b != core and G.distance(a, b) == distance:
                return a, b
    raise AssertionError(f"no two system sectors {distance} apart")


# ============================================================================ positions
# Each position plays one situation with the data given and returns what a player would see
# differ: the CI, the RP, a roll's result, a log line, a list of legal sites.
def ci_after(data: StruggleData, ci2: int, raw: int, *, spectacle=False, leviathan=False) -> int:
    state = new_game()
    state["turn"] = 2
    state["ci2"] = ci2
    state["leviathan"] = leviathan
    if spectacle:
        state["effects"].append("SPECTACLE")
    ctx = Ctx(state, data)
    ctx.change_ci(raw, "test", "TEST")
    return state["ci2"]


def spectacle_rise(data: StruggleData) -> int:
    """SGE-CI-7: a CI change under Spectacle."""
    return ci_after(data, 40, 3, spectacle=True)


def leviathan_rise(data: StruggleData) -> int:
    """SGE-CI-5: a CI change under Leviathan."""
    return ci_after(data, 40, 3, leviathan=True)


def ci_floor(data: StruggleData) -> int:
    """SGE-CI-1: a fall of the CI below its floor."""
    return ci_after(data, 20, -50)


def rp_after(data: StruggleData, rp: int, delta: int) -> int:
    """SGE-RES-10: the RP track's floor and cap."""
    state = new_game()
    state["rp"] = rp
    Ctx(state, data).change_rp(delta, "test", "TEST")
    return state["rp"]


def random_sector(data: StruggleData) -> int:
    """SGE-DICE-6: two d10 read 60, then 30."""
    ctx = Ctx(new_game(), data)
    ctx.rng = ScriptedRng([6, 0, 3, 0])
    return ctx.random_sector("TEST", "test")


def usurpation_result(data: StruggleData) -> list[str]:
    """SGE-USU-2: an Imperial leader two sectors from a Usurper; the d10 shows 3."""
    state = clear_map(new_game())
    here, there = far_pair(2)
    fid = put_force(state, "usurper", here, ["SF"], leader=1)
    put_unit(state, "SF", there, IMP, leader=3)
    ctx = Ctx(state, data)
    ctx.rng = ScriptedRng([3], fallback=ctx.rng)
    usurpation(ctx, fid)
    return [e["text"] for e in state["log"] if e.get("kind") == "usurpation"]


def coup_rise(data: StruggleData) -> int:
    """SGE-USU-3: a Coup in the Core; every d10 shows 4."""
    state = clear_map(new_game())
    state["turn"] = 2
    fid = put_force(state, "usurper", G.core, ["SF"], leader=1)
    ctx = Ctx(state, data)
    ctx.rng = ScriptedRng([4] * 10, fallback=ctx.rng)
    before = state["ci2"]
    coup(ctx, fid, G.core, data["usurpation"])
    return state["ci2"] - before


def nexus_exposure(distance: int) -> Callable[[StruggleData], list]:
    """SGE-NEX-3: what a morph result must reach to strike an Imperial system with a Nexus
    ``distance`` sectors away."""
    def play(data: StruggleData) -> list:
        state = clear_map(new_game())
        here, there = far_pair(distance) if distance else far_pair(1)
        put_system(state, here, IMP, like="S41")
        state["nexus"] = [here if distance == 0 else there]
        return combat.exposure(Ctx(state, data), here, IMP, "morph")
    return play


def nexus_sites(data: StruggleData) -> list[int]:
    """SGE-NEX-2: where another Nexus may go, one already placed."""
    state = new_game()
    ctx = Ctx(state, data)
    state["nexus"] = [ctx.imperial_system_sectors()[0]]
    return setup.nexus_sites(ctx)


def second_ie_site(data: StruggleData) -> int | None:
    """SGE-IE-10: a better Chaos system two sectors from the first site, a worse one farther."""
    state = clear_map(new_game())
    first, near = far_pair(2)
    far = next(n for n in G.system_sectors
               if G.distance(first, n) is not None and G.distance(first, n) >= 4)
    put_system(state, near, CHAOS, like="S53")
    put_system(state, far, CHAOS, like="S01")
    return setup.pick_ie_site(Ctx(state, data), [first])


def increased_rv(data: StruggleData) -> int:
    """SGE-IRS-2: an Imperial system with an Increased Resources marker."""
    state = clear_map(new_game())
    n = G.system_sectors[0]
    put_system(state, n, IMP, like="S21")
    state["systems"][str(n)]["irs"] = True
    ctx = Ctx(state, data)
    return ctx.effective_rv(ctx.system_at(n))


#: (table, value path, overriding value, the position it changes).
CASES = [
    ("event_values", "spectacle_ci_multiplier", 3, spectacle_rise),
    ("event_values", "leviathan_ci_multiplier", 1, leviathan_rise),
    ("ci_track", "floor", 5, ci_floor),
    ("misc_decided", "resource_points.floor", 2, lambda d: rp_after(d, 3, -10)),
    ("misc_decided", "resource_points.cap", 50, lambda d: rp_after(d, 3, 100)),
    ("misc_decided", "random_sector.max_sector", 50, random_sector),
    ("usurpation", "near_distance", 2, usurpation_result),
    ("usurpation", "coup_ci_dice", 2, coup_rise),
    ("misc_decided", "nexus.protection_distance", 2, nexus_exposure(2)),
    ("misc_decided", "nexus.protection_steps", 2, nexus_exposure(0)),
    ("misc_decided", "nexus.min_distance", 3, nexus_sites),
    ("misc_decided", "independent_empires.second_site_skip_within", 0, second_ie_site),
    ("misc_decided", "increased_resources.rv_bonus", 2, increased_rv),
]


@pytest.mark.parametrize("table_id,path,value,play", CASES,
                         ids=[f"{t}.{p}" for t, p, _v, _f in CASES])
def test_an_override_changes_play(tmp_path, monkeypatch, table_id, path, value, play):
    """The value, overridden by a player's file, changes what happens where it applies (the
    rule each position exercises is in its docstring)."""
    default = play(shipped_data())
    changed = play(overridden(tmp_path, monkeypatch, table_id, path, value))
    assert changed != default, f"overriding {table_id}.{path} changed nothing"


def test_the_shipped_values_play_as_before():
    """The shipped values give the results the rules give (so the cases above compare an
    override with the rules, not with something else)."""
    data = shipped_data()
    assert spectacle_rise(data) == 40 + 12      # +3 doubled, in half points (SGE-CI-7)
    assert leviathan_rise(data) == 40 + 3       # +3 halved (SGE-CI-5)
    assert ci_floor(data) == 0                  # SGE-CI-1
    assert rp_after(data, 3, -10) == 0 and rp_after(data, 3, 100) == 103   # SGE-RES-10
    assert random_sector(data) == 60            # SGE-DICE-6
    assert coup_rise(data) == 8                 # one die of 4 (SGE-USU-3)
    assert increased_rv(data) == 3              # RV 2 + 1 (SGE-IRS-2)


# ============================================================================ every value
def offered_paths(table: dict) -> set[str]:
    """Every value path of a table (``rows[].field`` for a field of every row), without the
    header and the documentation-only values."""
    skip = set(table.get("documentation_only") or [])
    out: set[str] = set()

    def walk(value: Any, path: str) -> None:
        if path in skip:
            return
        if isinstance(value, dict):
            for key, child in value.items():
                if not path and key in HEADER:
                    continue
                if key in ("rules", "decided", "decided_in_every_row"):
                    continue
                walk(child, f"{path}.{key}" if path else str(key))
        elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            for row in value:
                walk(row, f"{path}[]")
        if path:
            out.add(path)
    walk(table, "")
    return out


#: Values the rules read under a name they build or by walking the table, so the name itself is
#: not in the code: the key is made from the losing side (context.py, SGE-CI-2), and every
#: unit type of the counter mix is read as a row (data.py, unit_types).
READ_BY_BUILT_NAME = {
    "ci_changes.combat.imperial_system_eliminated_per_rv",
    "ci_changes.combat.imperial_system_converted_per_rv",
    "ci_changes.combat.chaos_system_eliminated_per_rv",
    "ci_changes.combat.chaos_system_converted_per_rv",
}
READ_AS_ROWS = ("units.mobile_units.",)


def code_names(key: str, code: str) -> bool:
    return bool(re.search(r"""["']%s["']|\.%s\b""" % (re.escape(key), re.escape(key)), code))


def test_every_offered_value_is_read():
    """Each value a Struggle table offers is read by the rules: overridden by a case above, or
    named by the rules code. A value no code reads must be listed as documentation_only."""
    code = "".join(p.read_text(encoding="utf-8") for p in sorted(CODE.glob("*.py")))
    covered = {f"{t}.{p}" for t, p, _v, _f in CASES}
    unread = []
    for path in sorted(TABLES.glob("*.yaml")):
        table = shipped(path.stem)
        for value_path in sorted(offered_paths(table)):
            key = value_path.rsplit(".", 1)[-1].removesuffix("[]")
            name = f"{path.stem}.{value_path}"
            if (name in covered or name in READ_BY_BUILT_NAME or code_names(key, code)
                    or (name.startswith(READ_AS_ROWS) and name.count(".") == 2)):
                continue
            unread.append(f"{path.stem}.{value_path}")
    assert not unread, f"offered values that no rule reads: {unread}"


def test_documentation_only_values_are_not_offered(game):
    """The catalogue (which the window's house-rules page shows) sets them apart."""
    for entry in game.catalog()["tables"]:
        documented = documented_values(shipped(entry["id"]))
        assert set(entry.get("documentation_only", {})) == set(documented)
        for path in documented:
            top = path.split(".")[0].removesuffix("[]")
            if "." not in path:
                assert top not in entry["values"], (entry["id"], path)
    misc = next(e for e in game.catalog()["tables"] if e["id"] == "misc_decided")
    assert "stacking" not in misc["values"] and "per_sector" not in misc["values"]["nexus"]


def _change_stacking(table: dict) -> None:
    table["stacking"]["limit"] = 3


def _change_a_row_field(table: dict) -> None:
    table["markers"][0]["lasts"] = "discard" if table["markers"][0]["lasts"] != "discard" \
        else "map"


@pytest.mark.parametrize("table_id,change,named", [
    ("misc_decided", _change_stacking, "stacking"),
    ("event_pool", _change_a_row_field, "markers[].lasts"),
])
def test_an_override_may_not_change_a_documentation_only_value(tmp_path, monkeypatch, table_id,
                                                               change, named):
    """Changing a value the program does not read is refused, naming it, instead of being
    accepted and doing nothing."""
    table = shipped(table_id)
    change(table)
    folder = tmp_path / "config" / "overrides" / "struggle"
    folder.mkdir(parents=True)
    (folder / f"{table_id}.yaml").write_text(yaml.safe_dump(table), encoding="utf-8")
    monkeypatch.setenv("STRUGGLE_DESKTOP_HOME", str(tmp_path))
    with pytest.raises(DataError, match=re.escape(f"{named} is built into the program")):
        StruggleData().tables
