"""Which games the desktop window can show.

A game can be complete headless (``simulate``, ``catalog``, ``verify``) before its screen
exists; the window, the new-game dialog and the command line's GUI commands offer only the
games listed here. This module imports no Qt, so the command line can ask it cheaply.
"""

from __future__ import annotations

#: Games with a desktop screen, in the order the new-game dialog lists them.
DESKTOP_GAMES = ("struggle",)


def has_screen(game_id: str) -> bool:
    return game_id in DESKTOP_GAMES


def require_screen(game_id: str | None) -> None:
    """BadOption if the window cannot show ``game_id`` yet (it may still be playable
    headless); the command line prints it as its one ``error:`` line."""
    from struggle_desktop.engine.errors import BadOption

    if game_id is not None and not has_screen(game_id):
        raise BadOption(f"the desktop screen for {game_id!r} is not built yet "
                        "(simulate, catalog and verify work)")
