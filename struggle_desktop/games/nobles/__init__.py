"""Noble Houses: rival houses fight for a neutral sector on a 10 x 10 hex map (rules-nobles.md).

``GAME`` is the game module (see struggle_desktop.engine.game.GameModule).
"""

from struggle_desktop.games.nobles.game import NoblesGame

GAME = NoblesGame()

__all__ = ["GAME", "NoblesGame"]
