"""Reading the guides: one YAML file per guide in ``assets/guides/``, read through the checked
loader (``engine/untrusted.py`` limits, jsonschema against ``guide.schema.yaml``), so a later
guide is a new file and no code. A damaged guide gives one short ``DataError`` line.

>>> 'struggle-first-game' in [g.id for g in available_guides()]
True
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from struggle_desktop.engine.data import read_yaml, validate
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.paths import assets_dir


def guides_dir() -> Path:
    return assets_dir() / "guides"


def schema_path() -> Path:
    # The program's own schema, wherever the guides being read lie (a test's folder too).
    return assets_dir() / "guides" / "guide.schema.yaml"


@dataclass(frozen=True)
class Step:
    id: str
    target: dict
    text: str
    until: Any            # "next" or {"action": {...}}
    title: str = ""
    rules: tuple[str, ...] = ()
    hint: str = ""
    #: The callout tells the automated steps the game now shows (the other side's moves),
    #: one at a time in the game's own words, and Next shows the next (runner.py).
    narrate: bool = False
    #: Words said inside a window the step's action opens: {"widget": its objectName,
    #: "text": ...} (the odds window of an attack), or None.
    dialog: dict | None = None

    @property
    def wanted(self) -> dict | None:
        """The keys the performed action must have, or None when Next ends the step."""
        return None if self.until == "next" else dict(self.until["action"])

    def matches(self, action: dict) -> bool:
        wanted = self.wanted
        return wanted is not None and all(action.get(k) == v for k, v in wanted.items())


@dataclass(frozen=True)
class Guide:
    id: str
    game: str
    title: str
    scenario: str
    seed: int
    options: dict
    steps: tuple[Step, ...]
    summary: str = ""
    source: str = ""


def load_guide(path: Path | str) -> Guide:
    """One guide file, checked; DataError (one line naming the file) if it is not a guide."""
    path = Path(path)
    data = read_yaml(path)
    validate(data, schema_path(), str(path))
    ids = [step["id"] for step in data["steps"]]
    twice = next((i for i in ids if ids.count(i) > 1), None)
    if twice is not None:
        raise DataError(f"{path}: steps: the step id {twice!r} is used twice")
    narrating_action = next((s["id"] for s in data["steps"]
                             if s.get("narrate") and s["until"] != "next"), None)
    if narrating_action is not None:
        raise DataError(f"{path}: steps: the step {narrating_action!r} narrates the other "
                        "side's moves, so Next ends it (until: next)")
    steps = tuple(Step(id=s["id"], target=dict(s["target"]), text=s["text"].strip(),
                       until=s["until"], title=s.get("title", ""),
                       rules=tuple(s.get("rules", ())), hint=s.get("hint", ""),
                       narrate=bool(s.get("narrate", False)),
                       dialog=dict(s["dialog"]) if "dialog" in s else None)
                  for s in data["steps"])
    return Guide(id=data["id"], game=data["game"], title=data["title"],
                 scenario=str(data["scenario"]), seed=int(data["seed"]),
                 options=dict(data.get("options") or {}), steps=steps,
                 summary=data.get("summary", ""), source=str(path))


def available_guides(folder: Path | None = None) -> list[Guide]:
    """Every guide shipped with the program (or in ``folder``), by file name."""
    folder = guides_dir() if folder is None else Path(folder)
    return [load_guide(path) for path in sorted(folder.glob("*.yaml"))
            if not path.name.endswith(".schema.yaml")]


def guide_for(game_id: str) -> Guide | None:
    return next((g for g in available_guides() if g.game == game_id), None)
