"""Checks that hold in every Noble Houses position; the fuzzer and the property tests call them.

- every unit has a known type, a playing owner and a hex on the board; a unit aboard a ship is
  in that ship's hex, the ship belongs to the same house and carries no more than its slots;
  ships and Defenders are never aboard anything, and a Defender stays on its world (NH-ABIL-9);
- a unit is aboard a ship only between the Movement step and Planet Control (NH-MOV-9);
- controllers are playing houses; jump stations and other non-worlds are never controlled;
- treasuries are never negative (NH-UPK-4); the allies are each held by one house or
  unassigned (NH-ALLY-3).
"""

from __future__ import annotations

from collections import Counter

from struggle_desktop.games.nobles.mapgen import hex_key

MOVEMENT_TO_CONTROL = range(6, 10)      # steps 6..9: cargo may still be aboard


def problems(game, state: dict) -> list[str]:
    found: list[str] = []
    data = game.data
    houses = state["houses"]
    alive = {h for h, row in houses.items() if row["alive"]}
    game_map = state.get("map")
    units = state["units"]
    for uid, u in units.items():
        utype = data.units.get(u["type"])
        if utype is None:
            found.append(f"{uid} has an unknown type {u['type']!r}")
            continue
        if u["owner"] not in alive:
            found.append(f"{uid} belongs to {u['owner']}, who is not playing")
        if game_map is not None and not (1 <= u["hex"][0] <= game_map["width"]
                                         and 1 <= u["hex"][1] <= game_map["height"]):
            found.append(f"{uid} is off the board at {u['hex']}")
        if u["home"] is not None and game_map is not None \
                and u["hex"] != list(game_map["worlds"][u["home"]]):
            found.append(f"the Defender {uid} has left {u['home']}")
        ship = u["ship"]
        if ship is None:
            continue
        if state["phase"] not in MOVEMENT_TO_CONTROL:
            found.append(f"{uid} is still aboard {ship} in step {state['phase']}")
        if ship not in units:
            found.append(f"{uid} is aboard {ship}, which is not in play")
            continue
        if utype.is_ship or u["home"] is not None:
            found.append(f"{uid} cannot be aboard a ship")
        if units[ship]["hex"] != u["hex"]:
            found.append(f"{uid} is not in the hex of its ship {ship}")
        if units[ship]["owner"] != u["owner"]:
            found.append(f"{uid} is aboard {ship} of another house")
    slots = Counter(u["ship"] for u in units.values()
                    if u["ship"] and data.units[u["type"]].category in ("army", "nuke"))
    for ship, used in slots.items():
        if ship in units:
            limit = (data.units[units[ship]["type"]].ability("transport") or {}).get("slots", 0)
            if used > limit:
                found.append(f"{ship} carries {used} armies and nukes (room for {limit})")
    for world, row in state["worlds"].items():
        if row["controller"] is not None and row["controller"] not in alive:
            found.append(f"{world} is controlled by {row['controller']}, who is not playing")
    if game_map is not None:
        for key, feature in game_map["features"].items():
            if feature["kind"] == "world" and hex_key(game_map["worlds"][feature["name"]]) != key:
                found.append(f"{feature['name']} is drawn at {key} but placed elsewhere")
    for letter, house in houses.items():
        if house["solats"] < 0:
            found.append(f"{letter} has {house['solats']} Solats")
    held = Counter(a for h in houses.values() for a in h["allies"])
    held.update(state["unassigned"])
    if state["map"] is not None:
        for ally in data.allies:
            if held[ally] != 1:
                found.append(f"the ally {ally} is held {held[ally]} times")
    return found
