"""A stand-in until ``NoblesGame`` offers the screen methods itself (temporary).

The window reads a game only through the game-module interface (engine/game.py), whose screen
part — ``map_layout``, ``board``, ``describe_action``, ``preview``, ``log_entries`` — Noble
Houses implements in ``games/nobles/presentation.py``. Until the game class delegates to it
(as ``BattlesGame`` does), ``with_screen_methods`` wraps the game object in one that does;
everything else is the game's own. Once the class has the methods the game is returned as it
is, and this module and its entry in ``ui/screens.py`` can go.
"""

from __future__ import annotations

import importlib
from typing import Any

SCREEN_METHODS = ("map_layout", "board", "describe_action", "preview", "log_entries")
_WRAPPED: dict[int, "ScreenGame"] = {}


def with_screen_methods(game: Any) -> Any:
    """``game`` itself if it has every screen method, else one wrapper per game object."""
    if all(hasattr(game, name) for name in SCREEN_METHODS):
        return game
    if isinstance(game, ScreenGame):
        return game
    wrapped = _WRAPPED.get(id(game))
    if wrapped is None or wrapped.game is not game:
        wrapped = _WRAPPED[id(game)] = ScreenGame(game)
    return wrapped


class ScreenGame:
    """``game`` with the screen methods of its package's ``presentation`` module."""

    def __init__(self, game: Any):
        self.game = game
        package = type(game).__module__.rpartition(".")[0]
        self._presentation = importlib.import_module(f"{package}.presentation")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def map_layout(self) -> dict:
        return self._presentation.map_layout(self.game)

    def board(self, state: dict, role: str = "public") -> dict:
        return self._presentation.board(self.game, state, role)

    def describe_action(self, state: dict, action: dict) -> str:
        return self._presentation.describe_action(self.game, state, action)

    def preview(self, state: dict, action: dict) -> dict | None:
        return None

    def log_entries(self, state: dict, start: int = 0, role: str = "public") -> list[dict]:
        return self._presentation.log_entries(self.game, state, start, role)
