"""The game and turn procedures: set-up, then turns of 14 phases (SGE-SEQ-1), then victory.

Each phase is a procedure named ``phase<k>`` registered by the module that owns it:
phases 1-5 in ``events`` and ``chaos_ops``, 6 and 13 in ``aliens``, 7-12 and 14 in
``imperial``. This module only sequences them and ends the game.
"""

from __future__ import annotations

from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx, fmt_ci
from struggle_desktop.games.struggle.registry import procedure

PHASES = {
    1: "Chaos Events",
    2: "Chaos Operations",
    3: "Usurpation",
    4: "Independent Empires",
    5: "Chaos Colonization",
    6: "Alien Conflict",
    7: "Imperial Resources",
    8: "Imperial Maintenance",
    9: "Imperial Recruitment",
    10: "Imperial Movement",
    11: "Imperial Combat",
    12: "Imperial Colonization",
    13: "Expeditions",
    14: "Extropy and End of Turn",
}


@procedure("game")
def game_proc(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-1: turns 1, 2, ... up to the scenario's length (unlimited in Sweep of Empire)."""
    st = ctx.state
    limit = st["turns"]
    if limit is not None and st["turn"] >= limit:
        ctx.pop()
        return
    if limit is None and st["turn"] >= st["max_turns"]:
        # Sweep of Empire has no turn limit; an unfinished game stops here (SGE-VIC-5).
        ctx.end_game("turn-limit", "SGE-VIC-5")
        return
    st["turn"] += 1
    st["phase"] = 0
    st["turn_flags"] = {}
    if ctx.keeps_log:   # the turn line and its tracks (simulate's log files) are costly
        entry = ctx.log("SGE-SEQ-1", "turn", f"Turn {st['turn']} begins (CI "
                        f"{fmt_ci(st['ci2'])}, RP {st['rp']}, VP {ctx.vp()})")
        entry["tracks"] = tracks(ctx)
    ctx.push("turn", next_phase=1)


@procedure("turn")
def turn_proc(ctx: Ctx, frame: dict) -> None:
    k = frame["next_phase"]
    if k > 14:
        ctx.pop()
        return
    frame["next_phase"] = k + 1
    if k == 13 and not ctx.option("expeditions"):
        return  # Phase 13 exists only with the Expeditions rule (SGE-SEQ-1).
    ctx.state["phase"] = k
    ctx.log("SGE-SEQ-1", "phase", f"Phase {k}: {PHASES[k]}")
    ctx.push(f"phase{k}")


def tracks(ctx: Ctx) -> dict:
    """The numbers a turn-by-turn record shows: CI, RP, VP and the cup."""
    st = ctx.state
    imperial = chaos = 0
    for u in ctx.units.values():
        if u["side"] == IMP:
            imperial += 1
        elif u["side"] == CHAOS:
            chaos += 1
    return {"ci": ctx.ci, "rp": st["rp"], "vp": ctx.vp(), "pool": len(st["pool"]),
            "imperial_units": imperial, "chaos_units": chaos}


def end_of_turn(ctx: Ctx) -> None:
    """SGE-SEQ-16 steps 2-4 (step 1 is the player's Extropy/Illumination prompt)."""
    st = ctx.state
    # 2. "This turn" markers are discarded; set-aside markers return to the pool.
    for marker in st["effects"]:
        st["discard"].append(marker)
    st["effects"] = []
    if st["set_aside"]:
        st["pool"].extend(st["set_aside"])
        ctx.log("SGE-POOL-21", "marker", f"{len(st['set_aside'])} set-aside marker(s) return to the pool")
        st["set_aside"] = []
    # 3. Victory.
    if st["turns"] is not None and st["turn"] >= st["turns"]:
        determine_victory(ctx)
    elif st["sweep"]:
        check_universal_victory(ctx)


def determine_victory(ctx: Ctx) -> None:
    """SGE-VIC-1, SGE-VIC-2: VP against the scenario's bands on the last turn."""
    vp = ctx.vp()
    bands = ctx.state["victory"]
    result = "galactic"
    for level in ("collapse", "decline", "survival", "expanding"):
        if vp <= bands[level]:
            result = level
            break
    ctx.log("SGE-VIC-2", "victory", f"Victory points: {vp} Imperial systems -> {result}")
    ctx.end_game(result, "SGE-VIC-1")


def check_universal_victory(ctx: Ctx) -> None:
    """SGE-VIC-4, SGE-VIC-5: every system sector Imperial and the CI at 10 or less."""
    systems = ctx.galaxy.system_sectors
    ci_max = ctx.data["event_values"]["universal_victory_ci_max"]
    if ctx.ci <= ci_max and all(ctx.imperial_controlled(n) for n in systems):
        ctx.log("SGE-VIC-4", "victory", f"Universal Victory on turn {ctx.state['turn']}")
        ctx.end_game("universal", "SGE-VIC-4")
