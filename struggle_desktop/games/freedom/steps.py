"""Small steps every part of the Mission Phase takes: aborting a mission and stopping for the
players' result of something outside the seeds. The resolver, the events and the foes all use
them, so they live below all three (the events module once imported them from the resolver,
which imports the events)."""

from __future__ import annotations

from struggle_desktop.games.freedom.context import Ctx


def abort(ctx: Ctx, group: dict, rule: str, why: str) -> None:
    """FIG-MIS-12: the mission ends, its levels are lost, its group is immune from now on."""
    if group["status"] == "aborted":
        return
    lost = group["level"]
    group["status"] = "aborted"
    group["level"] = 0
    ctx.note(rule, f"{group['id']} ({group['mission']}) is aborted: {why}"
                   + (f"; level {lost} is lost" if lost else ""), refs=[group["id"]])


def push_hook(ctx: Ctx, hook: str, rule: str, text: str, group: dict | None,
              role: str = "enemy", **data) -> None:
    """Stop for the players' result of something outside the seeds (FIG-HOOK-1): the frame
    shows the data, takes the result a piece at a time, applies its automatic consequences and
    hands ``{"result", "flags", ...}`` to the frame below as ``hook``."""
    ctx.push("hook", hook=hook, rule=rule, text=text, role=role,
             group=group["id"] if group else None,
             members=list(group["members"]) if group else [], data=data,
             entry={"hits": {}, "killed": [], "captured": [], "flags": [], "units": {}})
