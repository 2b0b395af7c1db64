"""The checks every game's golden saves share (ARCHITECTURE.md section 8): stored saves whose
replay must not change. A game's ``test_golden.py`` makes a :class:`GoldenSet` of its folder
and calls these checks from its own test functions (Struggle's file has its own, richer set).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from struggle_desktop import cli
from struggle_desktop.engine import saves
from struggle_desktop.engine.session import Session


class GoldenSet:
    """``folder/*.json`` saves of ``game`` pinned by ``folder/digests.json`` (written by
    tools/make_golden_saves.py)."""

    def __init__(self, game, folder: Path):
        self.game = game
        self.folder = folder
        self.pins = json.loads((folder / "digests.json").read_text(encoding="utf-8"))
        self.names = sorted(self.pins["games"])
        self.regenerate = (
            f"if the rules changed on purpose, bump RULES_VERSION in "
            f"struggle_desktop/games/{game.id}/game.py and run "
            f"python tools/make_golden_saves.py --game {game.id}")

    def path_of(self, name: str) -> Path:
        return self.folder / self.pins["games"][name]["file"]

    def named(self, stop: str) -> str:
        """The golden game that stops at ``stop``."""
        return next(n for n in self.names if self.pins["games"][n]["stop"] == stop)

    def load(self, name: str) -> Session:
        return Session.load({self.game.id: self.game}, self.path_of(name))[0]

    def check_pinned(self) -> None:
        """Every file is pinned, and the pins belong to the rules of this build."""
        files = sorted(p.name for p in self.folder.glob("*.json") if p.name != "digests.json")
        assert files == sorted(self.pins["games"][n]["file"] for n in self.names)
        assert self.pins["rules_version"] == self.game.rules_version, self.regenerate

    def check_replay(self, name: str) -> None:
        """The save replays to its pinned digest, outcome and waiting prompt, keeps every
        invariant, and loading it never writes the file."""
        game, pin, path = self.game, self.pins["games"][name], self.path_of(name)
        before = path.read_bytes()
        document = saves.read_document(path)
        assert document["game"] == game.id and len(document["actions"]) == pin["actions"]
        try:
            session, report = Session.load({game.id: game}, path)
        except Exception as exc:   # a SaveError says where the replay went astray
            pytest.fail(f"{path.name} no longer replays: {exc}; {self.regenerate}")
        assert report.ok, report.message
        assert game.digest(session.state) == pin["digest"], self.regenerate
        state = session.state
        outcome = game.outcome(state)
        assert (outcome["result"] if outcome else None) == pin["outcome"]
        assert (state["pending"]["kind"] if state["pending"] else None) == pin["pending"]
        assert not game.invariants(state)
        assert path.read_bytes() == before, "loading never writes the file"

    def check_verify(self, name: str, capsys) -> None:
        """``struggle-desktop verify`` accepts the save."""
        assert cli.main(["verify", str(self.path_of(name)), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["ok"]
