"""Battles for the Galactic Empire: two players, six regions, action chits and d6 battles.

``GAME`` is the game module (see struggle_desktop.engine.game.GameModule).
"""

from struggle_desktop.games.battles.game import BattlesGame

GAME = BattlesGame()

__all__ = ["GAME", "BattlesGame"]
