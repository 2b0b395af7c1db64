"""Struggle for the Galactic Empire: the solitaire game; the rules play the Chaos side.

``GAME`` is the game module (see struggle_desktop.engine.game.GameModule).
"""

from struggle_desktop.games.struggle.game import StruggleGame

GAME = StruggleGame()

__all__ = ["GAME", "StruggleGame"]
