"""Game modules. Each sub-package exposes one object implementing engine.game.GameModule."""

from __future__ import annotations

import importlib

#: game id -> "module:attribute" of its game-module object (imported on first use)
REGISTRY = {
    "struggle": "struggle_desktop.games.struggle:GAME",
    "battles": "struggle_desktop.games.battles:GAME",
    "nobles": "struggle_desktop.games.nobles:GAME",
    "freedom": "struggle_desktop.games.freedom:GAME",
}
ALL_GAME_IDS = ("struggle", "battles", "nobles", "freedom")


def get_game(game_id: str):
    """The game module for ``game_id``; KeyError if this program does not have it yet."""
    target = REGISTRY[game_id]
    module, _, attr = target.partition(":")
    return getattr(importlib.import_module(module), attr)
