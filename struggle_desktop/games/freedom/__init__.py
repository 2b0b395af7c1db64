"""Freedom in the Galaxy missions: the Mission Phase resolver, the chit mugs and the events
deck (rules-freedom.md, parts A, B and C).

``GAME`` is the game module (see struggle_desktop.engine.game.GameModule). Part A, the Mission
Phase of one environs under seed 004's rules, is resolver.py and the modules it uses; the Part B
and C modes plug in through game.py (``chits.py``, ``deck.py``).
"""

from struggle_desktop.games.freedom.game import FreedomGame

GAME = FreedomGame()

__all__ = ["GAME", "FreedomGame"]
