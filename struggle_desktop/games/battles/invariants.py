"""Checks that hold in every Battles position; the fuzzer and the property tests call them.

- every fleet is in exactly one of the places of BFG-COMP-16, with a region exactly when it
  is on the map or in a garrison, and TH never in a force pool or the common pool;
- every chit is in exactly one place: a pool, a hand, set aside, played or on a fleet;
- a region's controller has a garrison there, and a garrison means control (BFG-GAR-5);
- hands are never above the limit, RP never negative.
"""

from __future__ import annotations

from collections import Counter

from struggle_desktop.games.battles.setup import chit_ids

PLACES = {"pool", "supply", "display", "map", "garrison", "common"}


def problems(game, state: dict) -> list[str]:
    found: list[str] = []
    for fid, fleet in state["fleets"].items():
        if fleet["at"] not in PLACES:
            found.append(f"{fid} is in an unknown place {fleet['at']!r}")
        on_map = fleet["at"] in ("map", "garrison")
        if on_map != (fleet["region"] is not None):
            found.append(f"{fid} at {fleet['at']} has region {fleet['region']}")
        if fleet["type"] == "TH" and fleet["at"] in ("pool", "common"):
            found.append(f"{fid} (a TH) is in the {fleet['at']} pool")
        if fleet["type"] != "TH" and fleet["at"] == "supply":
            found.append(f"{fid} is in a TH supply")
        if fleet["tactical"] and not on_map:
            found.append(f"{fid} carries {fleet['tactical']} off the map")
    places: Counter = Counter()
    for side, player in state["players"].items():
        for key in ("hand", "own_chits", "discards"):
            places.update(player[key])
        if len(player["hand"]) > game.data.procedure["hand_limit"]:
            found.append(f"{side} holds {len(player['hand'])} chits")
        if player["rp"] < 0 or player["banked"] < 0:
            found.append(f"{side} has negative RP")
    places.update(state["chit_pool"])
    places.update(state["played"])
    places.update(f["tactical"] for f in state["fleets"].values() if f["tactical"])
    every = [c for chits in chit_ids(game.data).values() for c in chits]
    for chit in every:
        if places[chit] != 1:
            found.append(f"{chit} is in {places[chit]} places")
    extra = set(places) - set(every)
    if extra:
        found.append(f"unknown chits {sorted(extra)}")
    for number, region in state["regions"].items():
        garrison = {f["owner"] for f in state["fleets"].values()
                    if f["at"] == "garrison" and str(f["region"]) == number}
        if len(garrison) > 1:
            found.append(f"region {number} has garrisons of both sides")
        if state.get("battle") and str(state["battle"]["region"]) == number:
            continue       # mid-resolution: control is settled at its end
        if region["controller"] is not None and garrison != {region["controller"]}:
            found.append(f"region {number} is controlled by {region['controller']} "
                         f"but garrisoned by {sorted(garrison)}")
        if region["controller"] is None and garrison:
            found.append(f"region {number} has a garrison but no controller")
    return found
