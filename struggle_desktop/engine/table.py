"""Who sits at the table, and what every seat may see (ARCHITECTURE.md section 5).

Several people may share one game (Battles, Noble Houses, Freedom's events deck) and keep
things from one another: a hand of chits, a deployment plan, a declaration not yet revealed.
Whatever one of them is shown must then follow from what that person may know, so that the
other people's secret steps, their content *and their number*, cannot be read off the screen.
This module answers the questions that needs, through the game-module interface only
(``view``, ``log_entries``, and ``players`` where a game records who plays each role):

- ``people``: the roles people play who may keep something from one another;
- ``shared``: whether there are several of them (then the timeline moves over moments every
  seat may see, and a forecast must name whose view it may use);
- ``public_view``: what every seat may see of a position (the ``"public"`` role's view, the
  shared screen while the computer is handed over), from which ``engine.timeline`` tells the
  moments every seat may see;
- ``seat_seed``: a number drawn from what one role may know, to seed a choice made for it
  (the window's hint) so that the choice cannot depend on anything hidden from it.
"""

from __future__ import annotations

import inspect
from functools import lru_cache
from typing import Any

from struggle_desktop.engine.canonical import digest

#: The role of the shared screen: it sees what every seat may see.
PUBLIC = "public"
#: View keys that are about who asks, not about the position.
ASKER_KEYS = ("role", "legal_actions")


@lru_cache(maxsize=None)
def _view_takes_with_log(kind: type) -> bool:
    try:
        return "with_log" in inspect.signature(kind.view).parameters
    except (TypeError, ValueError):
        return False


def view_without_log(game: Any, state: dict, role: str) -> dict:
    """``role``'s view of ``state`` without its log and the keys about who asks. A game whose
    ``view`` can leave the log out (``with_log=False``) is asked to: a long game's log would
    be copied at every position for nothing."""
    if _view_takes_with_log(type(game)):
        view = game.view(state, role, with_log=False)
    else:
        view = game.view(state, role)
    return {k: v for k, v in view.items() if k not in ASKER_KEYS and k != "log"}


def public_view(game: Any, state: dict) -> dict:
    """What every seat may see of ``state`` (the log aside: ``engine.timeline`` follows the
    log entry by entry)."""
    return view_without_log(game, state, PUBLIC)


def people(game: Any, state: dict) -> tuple[str, ...]:
    """The roles people play that may keep something from one another. Where the game
    records who plays each role (``players(state)``: ``human`` or a program level), the
    people's roles; otherwise the roles whose view here shows more than every seat may see
    (Freedom's events deck: each side's hand; its Mission phase hides nothing, so nobody
    there keeps anything from anybody)."""
    players = getattr(game, "players", None)
    if callable(players):
        return tuple(role for role, who in players(state).items() if who == "human")
    seen = public_view(game, state)
    return tuple(role for role in game.roles if view_without_log(game, state, role) != seen)


def shared(game: Any, state: dict) -> bool:
    """Whether several people who may keep things from one another play this game."""
    return len(people(game, state)) > 1


def seat_seed(game: Any, state: dict, role: str) -> int:
    """A seed made from ``role``'s view of ``state`` (its log aside: the view is the position
    as that role knows it, and the seed needs no more): two positions that ``role`` cannot
    tell apart give the same seed, whatever the others hid or how many steps they took."""
    view = view_without_log(game, state, role)
    view["role"] = role
    return int(digest(view)[:12], 16)
