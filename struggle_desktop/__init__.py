"""struggle_desktop: play science-fiction board wargames offline.

Layers (see ../shared/design/ARCHITECTURE.md): ``engine`` is a game-agnostic, headless core;
``games.<name>`` implement one game each behind the game-module interface; ``ui`` is the PySide6
client; ``cli`` is the command line.
"""

__version__ = "0.1.0"
