"""Checks that hold in every Struggle position: counters conserved, tracks in range.

Used by the fuzzers, the property tests and ``verify``-style tooling. ``problems(game, state)``
returns a list of readable problems (empty when all is well).
"""

from __future__ import annotations

from collections import Counter

from struggle_desktop.games.struggle.context import CHAOS, IMP


def marker_locations(state: dict) -> Counter:
    """Where every chaos event marker is: the cup, the piles, the map and the turn track."""
    found: Counter = Counter()
    for key in ("pool", "discard", "removed", "set_aside", "effects"):
        found.update(state[key])
    found.update(a["kind"] for a in state["aliens"])
    found["INSTITUTE"] += len(state["institutes"])
    found["EXPEDITION"] += len(state["expedition_sites"])
    found["LEVIATHAN"] += 1 if state["leviathan"] else 0
    found["ALLIANCE"] += 1 if state["alliance"] is not None else 0
    found["COLONIZATION"] += state["colonizations"]
    found.update(f["marker"] for f in state["forces"].values() if f.get("marker"))
    found["IE-ARISES"] += sum(1 for r in state["ies"].values() if r.get("arises"))
    for item in state["scheduled"]:
        found.update(item.get("join_pool") or {})
        found["USURPER"] += item.get("place_th_usurper", 0)
    return found


def in_flight_marker(state: dict) -> str | None:
    """The marker Phase 1 is resolving right now, if any."""
    for frame in state["stack"]:
        if frame["proc"] == "phase1" and frame.get("ev"):
            return frame["ev"]["marker"]
    return None


def problems(game, state: dict) -> list[str]:
    data = game.data
    out: list[str] = []
    # Tracks (SGE-CI-1, SGE-RES-10).
    if state["ci2"] < 0:
        out.append(f"CI below 0: {state['ci2'] / 2}")
    collapse = data["ci_track"]["collapse_at"] * 2
    if state["ci2"] >= collapse and state["outcome"] is None:
        out.append("CI at 100 or more but the game goes on (SGE-VIC-3)")
    if state["rp"] < 0:
        out.append(f"RP below 0: {state['rp']}")
    # Mobile counters: each in exactly one place (map or hand, or the mix).
    for code, t in data.unit_types.items():
        everyone = Counter(state["mix"][code])
        everyone.update(uid for uid, u in state["units"].items() if u["type"] == code)
        expected = {f"{code}-{k:02d}" for k in range(1, t.counters + 1)}
        if set(everyone) != expected or any(c != 1 for c in everyone.values()):
            out.append(f"{code} counters not conserved")
    # System counters.
    systems = Counter(state["system_pool"])
    systems.update(s["id"] for s in state["systems"].values())
    if set(systems) != set(data.system_counters) or any(c != 1 for c in systems.values()):
        out.append("system counters not conserved")
    galaxy = data.galaxy
    for key, s in state["systems"].items():
        if not galaxy.is_system[int(key)]:
            out.append(f"system unit in non-system sector {key}")
        if s["side"] == IMP and s["ie"] is not None:
            out.append(f"Imperial system in {key} belongs to IE {s['ie']}")
    # Units and forces.
    for uid, u in state["units"].items():
        if u["loc"] is not None and u["loc"] not in galaxy.is_system:
            out.append(f"{uid} off the map at {u['loc']}")
        if u["side"] == IMP and u["force"] is not None:
            out.append(f"Imperial unit {uid} in Chaos force {u['force']}")
        if u["force"] is not None and u["force"] not in state["forces"]:
            out.append(f"{uid} in unknown force {u['force']}")
        if u["leader"] and u["side"] != IMP:
            out.append(f"Imperial leader on Chaos unit {uid}")
        if u["side"] == CHAOS and u["loc"] is None:
            out.append(f"Chaos unit {uid} off the map")
    # Leaders: pools plus leaders in play equal the starting pools (a Chaos leader marker is
    # with its IE or force, or back in the pool, SGE-LDR-8).
    imp = Counter(state["imp_leaders"])
    imp.update(u["leader"] for u in state["units"].values() if u["leader"])
    imp.update((state.get("setup_hand") or {}).get("leaders", []))
    if imp != Counter(data["leaders"]["imperial"]):
        out.append(f"Imperial leaders not conserved: {dict(imp)}")
    chaos = Counter(state["chaos_leaders"])
    chaos.update(r["leader"] for r in state["ies"].values() if r.get("leader_marker"))
    chaos.update(f["leader"] for f in state["forces"].values()
                 if f.get("leader_marker") and f["kind"] != "ie")
    if chaos != Counter(data["leaders"]["chaos"]):
        out.append(f"Chaos leaders not conserved: {dict(chaos)}")
    # IEs.
    for key, rec in state["ies"].items():
        if rec["home"] not in rec["sectors"]:
            out.append(f"IE {key} home not among its sectors")
    # Chaos event markers (SGE-POOL-1: 100 in all).
    total = sum(m["count"] for m in data["event_pool"]["markers"])
    found = sum(marker_locations(state).values())
    flight = in_flight_marker(state)
    if found != total and not (flight is not None and found + 1 == total):
        out.append(f"chaos event markers not conserved: {found} found of {total}")
    # A waiting prompt always offers something.
    if state["pending"] is not None and state["outcome"] is None:
        if not game.legal_actions(state, state["pending"]["role"]):
            out.append(f"prompt {state['pending']['kind']} has no legal action")
    return out
