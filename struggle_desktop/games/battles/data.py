"""Loading the Battles data: tables, scenarios and the rule list, validated once.

The numbers the rules read live in ``assets/tables/battles/*.yaml`` (each flagged
``reconstructed`` and tagged with its rule IDs) and the scenarios in ``scenarios/battles/``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from struggle_desktop.engine.data import GameData

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"
SIDES = ("blue", "red")
CHIT_TYPES = ("Build", "Move", "Tactical", "Illumination", "Repression")
FLEET_TYPES = ("SF", "CG", "AF", "IO", "WS", "TH")
SLOTS = ("C", "P", "R")


def other(side: str) -> str:
    return "red" if side == "blue" else "blue"


@dataclass(frozen=True)
class FleetType:
    code: str
    name: str
    mil: int | None      # None: read from the CI (Trans-humans, BFG-COMP-7)
    morph: int | None
    cost: int | None     # None: cannot be built (BFG-BLD-11)
    convertible: bool    # False for the Imperial Order (BFG-COMP-9)
    quick_move: bool     # AF and IO may move with a Move chit (BFG-COMP-10)
    buildable: bool


class BattlesData(GameData):
    """All Battles data, loaded lazily and kept for the life of the process."""

    game_id = "battles"
    schema_dir = SCHEMA_DIR
    default_scenario = "civil-war"      # BFG-SCN-1

    # ----------------------------------------------------------------- convenient views
    @cached_property
    def fleet_types(self) -> dict[str, FleetType]:
        return {code: FleetType(code=code, **spec)
                for code, spec in self.tables["units"]["fleet_types"].items()}

    @cached_property
    def procedure(self) -> dict:
        return self.tables["procedure"]

    @cached_property
    def region_names(self) -> dict[int, str]:
        return {r["number"]: r["name"] for r in self.tables["regions"]["regions"]}

    @cached_property
    def victory_rows(self) -> dict[int, dict]:
        return {row["turn"]: row for row in self.tables["victory"]["turns"]}

    @cached_property
    def option_rows(self) -> dict[str, dict]:
        return self.tables["options"]["options"]

    @cached_property
    def ai(self) -> dict:
        return self.tables["ai"]


_DEFAULT: BattlesData | None = None


def default_data() -> BattlesData:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = BattlesData()
    return _DEFAULT
