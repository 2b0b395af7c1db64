"""A new Battles state: the counters of BFG-COMP-13 split as the scenario says (BFG-SETUP-7).

Everything random (the value chits, draws, dice) happens later, inside the flow, so that it is
logged with its rule ID; this module only lays out the counters.
"""

from __future__ import annotations

from struggle_desktop.games.battles.data import CHIT_TYPES, FLEET_TYPES, BattlesData


def fleet_ids(data: BattlesData, side: str) -> list[tuple[str, str]]:
    """(id, type) of one side's fleets: ``B-SF1``..``B-SF10``, ``B-CG1``..., BFG-COMP-13; each
    player's fleets show that player's colour (BFG-SETUP-1)."""
    mix = data["counter_mix"]["fleets_per_side"]
    prefix = "B" if side == "blue" else "R"
    return [(f"{prefix}-{code}{n}", code) for code in FLEET_TYPES
            for n in range(1, mix[code] + 1)]


def chit_ids(data: BattlesData) -> dict[str, list[str]]:
    """Chit type -> its chits, ``Build-1``..``Build-4``... (BFG-COMP-14)."""
    return {kind: [f"{kind}-{n}" for n in range(1, data["counter_mix"]["chits"][kind] + 1)]
            for kind in CHIT_TYPES}


def new_state(data: BattlesData, scenario: dict, seed: int, options: dict, invader: str) -> dict:
    fleets = {}
    for side in ("blue", "red"):
        for fid, code in fleet_ids(data, side):
            fleets[fid] = {"type": code, "owner": side,
                           "at": "supply" if code == "TH" else "pool",
                           "region": None, "seq": 0, "tactical": None, "hits": 0,
                           "waiting": False}
    players = {side: {"hand": [], "own_chits": [], "discards": [], "deploy": [],
                      "rp": 0, "banked": 0} for side in ("blue", "red")}   # BFG-SETUP-9
    shared: list[str] = []
    for kind, chits in chit_ids(data).items():
        if scenario["chit_pools"] == "split":               # BFG-SCN-3: half each
            half = len(chits) // 2
            players["blue"]["own_chits"].extend(chits[:half])
            players["red"]["own_chits"].extend(chits[half:])
        else:                                               # BFG-SCN-9: one shared pool
            shared.extend(chits)
    state = {
        "game": "battles",
        "scenario": scenario["id"],
        "scenario_data": {k: scenario[k] for k in ("mode", "chit_pools", "opening_rp",
                                                  "common_pool_order")},
        "mode": scenario["mode"],
        "options": dict(options),
        "invader": invader if scenario["mode"] == "invasion" else None,
        "seed": seed,
        "rng": None,
        "stack": [{"proc": "game"}],
        "pending": None,
        "outcome": None,
        "log": [],
        "turn": 0,
        "phase": "setup",
        "ci": data.procedure["starting_ci"],                # BFG-SETUP-6
        "regions": {str(n): {"C": None, "P": None, "R": None, "resolved": False,
                             "controller": None} for n in range(1, 7)},
        "fleets": fleets,
        "seq": 0,
        "players": players,
        "chit_pool": shared,
        "played": [],
        "last_chit": None,
        "to_act": None,
        "battle": None,
    }
    if scenario["mode"] == "invasion":
        state["defence_garrison"] = {str(n): True for n in range(1, 7)}   # BFG-SCN-8 default
    return state
