"""Manual adjustments: the player corrects the table by hand (the window's free placement).

An adjustment moves one mobile unit outside the rules — to fix a mistake or to set up a
position for study — while the pending decision keeps waiting. It is an action like any other
(``{"verb": "adjust", "unit": "SF-03", "to": 12}``), so it is saved, replayed and undone like
the rest, and the log marks it plainly as a manual adjustment. The bots never make one.

Units of a Chaos force are not adjustable one by one: a force stays together in one sector,
and splitting it by hand would leave a position the rules cannot read.
"""

from __future__ import annotations

from struggle_desktop.games.struggle.context import IMP, Ctx, fmt_sector, sector_ref

ADJUST = "adjust"
RULE = "MANUAL"


def adjustment_reason(ctx: Ctx, action: dict) -> str | None:
    """None if the adjustment can be made, else why not."""
    uid, to = action.get("unit"), action.get("to")
    unit = ctx.units.get(uid) if isinstance(uid, str) else None
    if unit is None or unit["loc"] is None:
        return f"{uid!r} is not a mobile unit on the map"
    if not isinstance(to, int) or isinstance(to, bool) or to not in ctx.galaxy.name:
        return f"{to!r} is not a sector of the map"
    if unit["force"] is not None:
        return f"{uid} belongs to {ctx.force_name(unit['force'])}, which moves as one force"
    if unit["loc"] == to:
        return f"{uid} is already in {fmt_sector(to)}"
    return None


def adjust(ctx: Ctx, action: dict) -> None:
    uid, to = action["unit"], action["to"]
    old = ctx.units[uid]["loc"]
    ctx.set_loc(uid, to)
    side = "Imperial" if ctx.units[uid]["side"] == IMP else "Rebel"
    ctx.log(RULE, "adjust", f"Manual adjustment: {side} {uid} moved by hand from "
            f"{fmt_sector(old)} to {fmt_sector(to)}",
            refs=[sector_ref(old), sector_ref(to), uid])
    ctx.checks()
    ctx.close()
