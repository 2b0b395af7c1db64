"""Loading the Noble Houses data: tables and scenarios, validated once.

The numbers and names the rules read live in ``assets/tables/nobles/*.yaml`` (each flagged
``reconstructed`` and tagged with its rule IDs) and the scenario in ``scenarios/nobles/``.
Everywhere else a unit type is known by its canonical name (NH-WORLD-2);
:meth:`NoblesData.canonical` turns one of the seed's other spellings into it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from struggle_desktop.engine.data import GameData
from struggle_desktop.engine.errors import DataError

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
CATEGORIES = ("noble", "jumpship", "nuke", "army")
DEFAULT_SCENARIO = "standard"


@dataclass(frozen=True)
class World:
    number: int
    name: str
    type: str
    income: int
    homeworld: bool
    recruits: tuple[str, ...]            # canonical unit names
    special: dict[str, int]              # an action instead of a unit: Pyreen (NH-WORLD-6)
    prices: dict[str, int]               # local costs: Jumpship 4 at Yoravar (NH-WORLD-10)


@dataclass(frozen=True)
class UnitType:
    name: str
    code: str                            # in unit ids: A-HT1
    rule: str
    category: str                        # noble, jumpship, nuke or army (NH-ABIL-1)
    cost: int | None                     # None: never bought (the Noble)
    ad: int
    abilities: tuple[dict, ...]
    bought_at_worlds: tuple[str, ...]
    bought_with_allies: tuple[str, ...]

    @property
    def is_army(self) -> bool:
        return self.category == "army"

    def has(self, kind: str) -> bool:
        return any(a["kind"] == kind for a in self.abilities)

    def ability(self, kind: str) -> dict | None:
        """The first ability of that kind, or None."""
        for a in self.abilities:
            if a["kind"] == kind:
                return a
        return None

    @property
    def is_ship(self) -> bool:
        """Moves on its own: a Jumpship or a Self Transport army (NH-ABIL-11)."""
        return self.category == "jumpship" or self.has("self_transport")


@dataclass(frozen=True)
class Ally:
    number: int
    name: str
    shown_as: str                        # the display name (Imperial Bureaucracy)
    units: dict[str, int]                # canonical unit name -> count at set-up
    benefits: dict[str, int]             # per-turn uses, and income (NH-ALLY-8)
    choice: tuple[dict[str, int], ...]   # one of these each turn (NH-ALLY-10); usually empty
    buyable: str | None


class NoblesData(GameData):
    """All Noble Houses data, loaded lazily and kept for the life of the process."""

    game_id = "nobles"
    schema_dir = SCHEMA_DIR
    default_scenario = DEFAULT_SCENARIO     # the standard scenario (NH-SETUP-7)

    # ----------------------------------------------------------------- convenient views
    @cached_property
    def worlds(self) -> dict[str, World]:
        """The 24 worlds by name, in table order (NH-WORLD-1): map generation places them in
        this order (NH-MAP-13)."""
        return {w["name"]: World(number=w["number"], name=w["name"], type=w["type"],
                                 income=w["income"], homeworld=w["homeworld"],
                                 recruits=tuple(w["recruits"]), special=dict(w.get("special", {})),
                                 prices=dict(w.get("prices", {})))
                for w in self.tables["worlds"]["worlds"]}

    @cached_property
    def world_names(self) -> tuple[str, ...]:
        return tuple(self.worlds)

    @cached_property
    def homeworlds(self) -> tuple[str, ...]:
        """The four homeworlds in table order."""
        return tuple(name for name, w in self.worlds.items() if w.homeworld)

    @cached_property
    def non_home_worlds(self) -> tuple[str, ...]:
        """The 20 other worlds in table order (Quayat first, Marx last)."""
        return tuple(name for name, w in self.worlds.items() if not w.homeworld)

    @cached_property
    def units(self) -> dict[str, UnitType]:
        """The unit types by canonical name, in the order of their NH-UNIT rules (``rule``)."""
        return {u["name"]: UnitType(name=u["name"], code=u["code"], rule=u["rule"], category=u["category"],
                                    cost=u["cost"], ad=u["ad"], abilities=tuple(u["abilities"]),
                                    bought_at_worlds=tuple(u["bought_at"]["worlds"]),
                                    bought_with_allies=tuple(u["bought_at"]["allies"]))
                for u in self.tables["units"]["units"]}

    @cached_property
    def categories(self) -> dict[str, str]:
        """Canonical unit name -> its category (a dict look-up where a filter runs per unit)."""
        return {name: u.category for name, u in self.units.items()}

    @cached_property
    def army_types(self) -> dict[str, bool]:
        """Canonical unit name -> whether it is an army."""
        return {name: u.is_army for name, u in self.units.items()}

    @cached_property
    def aliases(self) -> dict[str, str]:
        return dict(self.tables["unit_aliases"]["aliases"])

    def canonical(self, name: str) -> str:
        """The canonical unit name for ``name``, which may be a seed alias (NH-WORLD-2).
        Raises DataError for a name that is neither."""
        name = self.aliases.get(name, name)
        if name not in self.units:
            raise DataError(f"unknown Noble Houses unit type {name!r}")
        return name

    def unit_cost(self, unit: str, world: str | None = None) -> int | None:
        """What ``unit`` costs in Solats (NH-ABIL-22), bought at ``world`` if given: a
        Jumpship costs 6, 4 at Yoravar (NH-REC-8, NH-WORLD-10)."""
        unit = self.canonical(unit)
        if world is not None and unit in self.worlds[world].prices:
            return self.worlds[world].prices[unit]
        return self.units[unit].cost

    @cached_property
    def allies(self) -> dict[str, Ally]:
        """The 17 allies by name, in table order (the dealing order of NH-ALLY-3)."""
        return {a["name"]: Ally(number=a["number"], name=a["name"],
                                shown_as=a.get("shown_as", a["name"]), units=dict(a["units"]),
                                benefits=dict(a["benefits"]),
                                choice=tuple(dict(c) for c in a.get("choice", [])),
                                buyable=a["buyable"])
                for a in self.tables["allies"]["allies"]}

    @cached_property
    def allies_per_house(self) -> dict[int, int]:
        """Number of houses -> allies dealt to each (NH-ALLY-2)."""
        return {row["houses"]: row["allies"] for row in self.tables["allies"]["allies_per_house"]}

    @cached_property
    def map_settings(self) -> dict:
        return self.tables["map_settings"]

    @cached_property
    def default_map_settings(self) -> dict[str, int]:
        """The terrain counts of a new game (NH-MAP-16), in the form the map generator takes."""
        return {key: s["default"] for key, s in self.map_settings["settings"].items()}

    @cached_property
    def procedure(self) -> dict:
        return self.tables["procedure"]

    @cached_property
    def seats(self) -> tuple[str, ...]:
        """The house letters in seat order (A is seat 1)."""
        return tuple(self.procedure["seats"])

    @cached_property
    def code_types(self) -> dict[str, str]:
        """Unit code (``HT``) -> canonical unit name."""
        return {u.code: name for name, u in self.units.items()}

    def scenario(self, scenario_id: str = DEFAULT_SCENARIO) -> dict:
        try:
            return self.scenarios[scenario_id]
        except KeyError:
            raise DataError(f"unknown Noble Houses scenario {scenario_id!r}") from None


_DEFAULT: NoblesData | None = None


def default_data() -> NoblesData:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = NoblesData()
    return _DEFAULT
