"""Loading the Freedom in the Galaxy data: tables validated once.

Every table of rules-freedom.md section 5 is a file ``assets/tables/freedom/<id>.yaml``,
checked against ``schemas/<id>.schema.yaml`` and flagged ``reconstructed`` when it holds a
decided value (FIG-GEN-8). Part A tables (seed 004) and Part B/C tables (seed 003) are never
mixed (FIG-GEN-1): each file says which part it belongs to.
"""

from __future__ import annotations

from pathlib import Path

from struggle_desktop.engine.data import GameData

SCHEMA_DIR = Path(__file__).resolve().parent / "schemas"


class FreedomData(GameData):
    """All Freedom data, loaded lazily and kept for the life of the process."""

    game_id = "freedom"
    schema_dir = SCHEMA_DIR


_DEFAULT: FreedomData | None = None


def default_data() -> FreedomData:
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = FreedomData()
    return _DEFAULT
