"""Which games the desktop window can show, and the window class of each.

A game can be complete headless (``simulate``, ``catalog``, ``verify``) before its screen
exists; the window, the new-game dialog and the command line's GUI commands offer only the
games listed here. This module imports no Qt at import time, so the command line can ask it
cheaply.
"""

from __future__ import annotations

import importlib

#: Game id -> "module:class" of its window (a ui.shell.GameWindow), in the order the new-game
#: dialog lists them.
SCREENS = {
    "struggle": "struggle_desktop.ui.main_window:MainWindow",
    "battles": "struggle_desktop.ui.battles.window:BattlesWindow",
    "nobles": "struggle_desktop.ui.nobles.window:NoblesWindow",
    "freedom": "struggle_desktop.ui.freedom.window:FreedomWindow",
}
DESKTOP_GAMES = tuple(SCREENS)
#: Game id -> "module:function" drawing a board offscreen: ``f(layout, board, size) -> QImage``
#: (the ``render`` command).
RENDERERS = {
    "struggle": "struggle_desktop.ui.map.render:render_image",
    "battles": "struggle_desktop.ui.battles.scene:render_image",
    "nobles": "struggle_desktop.ui.nobles.scene:render_image",
    "freedom": "struggle_desktop.ui.freedom.resolution:render_image",
}
#: Where ``render --game`` stops playing the opening for the program: game id -> a test of the
#: state (default: the first Actions phase, as in Battles).
OPENINGS = {
    "nobles": lambda state: state.get("turn", 0) >= 1,      # the set-up is over, the map drawn
    # Freedom: the groups are formed (a Part B or C scenario shows its first prompt).
    "freedom": lambda state: (state.get("kind", "mission-phase") != "mission-phase"
                              or state.get("phase") not in ("recruitment", "assignment")),
}
#: Scenarios whose set-up the players enter in a form of the screen rather than in the
#: new-game dialog: game id -> scenario id -> where the form is. The dialog starts them
#: without checking options, and the window opens the form (Freedom's own environs).
FORM_SCENARIOS = {
    "freedom": {"custom": "Game → New Environs…"},
}


def _load(target: str):
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


def renderer(game_id: str):
    """The function that draws ``game_id``'s board into an image."""
    require_screen(game_id)
    return _load(RENDERERS[game_id])


def opening_reached(game_id: str, state: dict) -> bool:
    """Whether a new game shown by ``render`` has reached the opening worth drawing."""
    test = OPENINGS.get(game_id)
    return test(state) if test else state.get("phase") in ("actions",)


def form_scenario(game_id: str, scenario: str | None) -> str | None:
    """Where the screen's form for ``scenario`` is (a menu path), or None when the new-game
    dialog sets the scenario up itself."""
    return FORM_SCENARIOS.get(game_id, {}).get(str(scenario))


def window_class(game_id: str):
    """The window class that shows ``game_id``; BadOption if there is none yet."""
    require_screen(game_id)
    return _load(SCREENS[game_id])


def has_screen(game_id: str) -> bool:
    return game_id in DESKTOP_GAMES


def no_screen_message(game_id: str, title: str | None = None) -> str:
    """What the window says of a game it cannot show although this build plays it headless
    (one whose screen is not written yet): where to play it instead."""
    return (f"There is no window for {title or game_id} yet \u2014 use the command line: "
            f"struggle-desktop simulate, catalog or verify --game {game_id}.")


def require_screen(game_id: str | None) -> None:
    """BadOption if the window cannot show ``game_id`` yet (it may still be playable
    headless); the command line prints it as its one ``error:`` line."""
    from struggle_desktop.engine.errors import BadOption

    if game_id is not None and not has_screen(game_id):
        raise BadOption(f"the desktop screen for {game_id!r} is not built yet "
                        "(simulate, catalog and verify work)")
