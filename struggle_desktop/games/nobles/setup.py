"""A new Noble Houses state: the houses, the worlds and the empty unit list.

Everything random of the set-up (homeworld draws, the map, the ally deal, the 3d6 Solats) is done
later by the ``setup`` procedure (turn.py), in the order of NH-SETUP-3, so that it is logged with
its rule IDs; this module only lays out the state (its shape is described in context.py).

>>> from struggle_desktop.games.nobles.data import default_data
>>> state = empty_state(default_data(), {"houses": 2, "seats": ["human", "ai"]})
>>> sorted(state["houses"]), state["houses"]["B"]["player"], state["worlds"]["Mox"]
(['A', 'B'], 'ai', {'controller': None, 'govern': False})
"""

from __future__ import annotations

from struggle_desktop.games.nobles.data import NoblesData


def new_house(seat: int, player: str) -> dict:
    return {"seat": seat, "homeworld": None, "player": player, "solats": 0, "allies": [],
            "alive": True, "initiative_mod": 0, "planning": 0,
            "attempts": {"assassination": 0, "intrigue": 0}, "ally_uses": {}, "pyreen": 0,
            "aristocracy": None, "bought": {}, "acted": []}


def empty_state(data: NoblesData, options: dict, seed: int = 0,
                game_map: dict | None = None) -> dict:
    """A state with the houses of ``options`` (``houses``, ``seats``), every world neutral
    (NH-WORLD-3; unused homeworlds stay so, NH-WORLD-4), a controller for worlds only
    (NH-CTRL-5), no units, and the set-up procedure waiting on the stack. ``game_map`` may be
    given (tests place units on a hand-made map); otherwise the set-up generates it."""
    letters = data.seats[:options["houses"]]
    seats = list(options.get("seats") or [])
    houses = {letter: new_house(i + 1, seats[i] if i < len(seats) else "ai")
              for i, letter in enumerate(letters)}
    return {
        "game": "nobles",
        "scenario": "standard",
        "options": dict(options),
        "seed": seed,
        "rng": None,
        "stack": [{"proc": "game"}],
        "pending": None,
        "outcome": None,
        "log": [],
        "turn": 0,
        "phase": 0,
        "map": game_map,
        "houses": houses,
        "order": list(letters),
        "worlds": {name: {"controller": None, "govern": False} for name in data.worlds},
        "units": {},
        "ids": {},
        "unassigned": [],
        "arrivals": {},
        "battle": None,
        "exchange": None,
    }
