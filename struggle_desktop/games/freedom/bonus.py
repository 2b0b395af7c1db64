"""The bonus dice rolls count of a mission group: the bonus die rules, FIG-BDR (each function
names the IDs it implements; the dash cells, FIG-BDR-3, are in missions.py, the variant rows,
FIG-BDR-7, in context.py, the charts in the tables of data.py).

:func:`bonus_terms` lists the terms of the count, each ``(label, value, rule)``, so the log can
show every one (FIG-BDR-1); :func:`missing_for_count` names the ratings the count needs that the
players have not entered yet (the Q prisoner's intelligence). The count is taken when the Bonus
Dice Rolls segment reaches the group, so possessions gained during the steps count (FIG-BDR-6)
and the loyalty term reads the loyalty at the start of the segment (FIG-BDR-11).
"""

from __future__ import annotations

from struggle_desktop.games.freedom.context import Ctx

Term = tuple[str, int, str]


def missing_for_count(ctx: Ctx, group: dict) -> list[tuple[str, str]]:
    """``[(character, rating)]`` the count needs and lacks: the Q prisoner's intelligence
    (FIG-BDR-13)."""
    if group["mission"] == "Q" and ctx.rating(group["target"], "intelligence") is None:
        return [(group["target"], "intelligence")]
    return []


def bonus_count(ctx: Ctx, group: dict) -> tuple[int, list[Term]]:
    """The count (never below 0) and its terms (FIG-BDR-1); "lose all" makes it 0 (FIG-BDR-10)."""
    terms = bonus_terms(ctx, group)
    if group["lose_all"]:
        return 0, terms + [("all bonus rolls lost", 0, "FIG-BDR-10")]
    return max(0, sum(v for _, v, _ in terms)), terms


def bonus_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-1: the terms of the count, J and Q by their own (FIG-BDR-12, FIG-BDR-13), and the
    adjustments from events and creatures (FIG-BDR-10)."""
    letter = group["mission"]
    if letter == "J":
        return j_terms(ctx, group)
    if letter == "Q":
        return q_terms(ctx, group)
    terms = chart_terms(ctx, group)
    terms += possession_terms(ctx, group)
    terms += situational_terms(ctx, group)
    terms += home_terms(ctx, group)
    if group["bonus_adj"]:
        terms.append(("events and creatures", group["bonus_adj"], "FIG-BDR-10"))
    return terms


def _cell(ctx: Ctx, name: str, letter: str, group: dict):
    row = ctx.chart_row(name, group)
    return None if row is None else row.cell(letter)


def chart_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-2, FIG-BDR-4, FIG-BDR-5: the leader's main value and what the others add."""
    letter = group["mission"]
    how = ctx.data.mission(letter).bonus_chart
    if how == "none":
        return []
    leader = group["leader"]
    lead = _cell(ctx, leader, letter, group)
    others = group["members"][1:]
    if how == "best_leadership":
        # FIG-BDR-5: the better of the leader's E value, and his D value plus the best
        # leadership another member can lend (an E value in brackets).
        own = lead.base if lead else 0
        d_cell = _cell(ctx, leader, "D", group)
        lent = [c.alt for c in (_cell(ctx, m, "E", group) for m in others)
                if c is not None and c.alt is not None]
        via_d = (d_cell.base if d_cell else 0) + max(lent, default=0)
        if via_d > own:
            return [(f"{leader} D {d_cell.base if d_cell else 0} + best lent leadership "
                     f"{max(lent, default=0)}", via_d, "FIG-BDR-5")]
        return [(f"{leader} (leader) E", own, "FIG-BDR-5")]
    terms: list[Term] = [(f"{leader}, leader", lead.base if lead else 0, "FIG-BDR-2")]
    for name in others:
        cell = _cell(ctx, name, letter, group)
        if how == "leader_and_others":
            # FIG-BDR-4: +1 for every other character, or his bracketed value instead.
            value = cell.alt if cell is not None and cell.alt is not None else 1
            terms.append((f"{name}", value, "FIG-BDR-4"))
        elif how == "leader_and_helpers" and cell is not None and cell.alt is not None:
            terms.append((f"{name}", cell.alt, "FIG-BDR-4"))
    return terms


def possession_terms(ctx: Ctx, group: dict, only: list[str] | None = None) -> list[Term]:
    """FIG-BDR-6: each possession carried once; a bracketed value when a non-leader carries it."""
    letter = group["mission"]
    terms: list[Term] = []
    for name in (only if only is not None else group["members"]):
        for item in ctx.char(name)["possessions"]:
            try:
                row = ctx.data.chart_row(item)
            except ValueError:
                continue          # a possession the players added has no bonus values
            cell = row.cell(letter)
            if cell is None:
                continue
            value = cell.base if name == group["leader"] or cell.alt is None else cell.alt
            if value:
                terms.append((f"{ctx.data.display_name(item)} ({name})", value, "FIG-BDR-6"))
    return terms


def situational_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-8: the per-mission terms of missions.yaml; the loyalty term reads the loyalty at
    the start of the segment (FIG-BDR-11)."""
    env = ctx.env
    side = ctx.side
    terms: list[Term] = []
    sovereigns: dict[str, tuple[int, int]] = {}
    for term in ctx.data.mission(group["mission"]).bonus_terms:
        key, value = term["key"], term["value"]
        if key == "one_member" and len(group["members"]) == 1:
            terms.append(("alone", value, "FIG-BDR-8"))
        elif key == "none_detected":
            detected = any(ctx.char(m)["detected"] for m in group["members"])
            terms.append(("detected" if detected else "nobody detected",
                          0 if detected else value, "FIG-BDR-8"))
        elif key == "wild_environs" and env["type"] == "wild":
            terms.append(("wild environs", value, "FIG-BDR-8"))
        elif key == "urban_environs" and env["type"] == "urban":
            terms.append(("urban environs", value, "FIG-BDR-8"))
        elif key == "coup_rating":
            terms.append(("coup rating", value * env["coup_rating"], "FIG-BDR-8"))
        elif key == "loyalty_modifier":
            condition = ctx.state["flags"].get("bonus_condition") or ctx.condition()
            terms.append((f"loyalty ({(condition or 'none').replace('_', ' ')})",
                          value * ctx.loyalty_modifier(side, condition), "FIG-REC-3"))
        elif key in ("friendly_sovereign", "enemy_sovereign", "neutral_sovereign"):
            wanted = {"friendly_sovereign": side, "enemy_sovereign": ctx.enemy,
                      "neutral_sovereign": None}[key]
            count = sum(1 for s in env["sovereigns"] if not s["assassinated"]
                        and ctx.sovereign_side(s) == wanted)
            sovereigns[key.split("_")[0]] = (count, value * count)
    if sovereigns:
        # One term for the sovereigns, shown even when there is none (FIG-BDR-8).
        shown = ", ".join(f"{n} {kind}" for kind, (n, _) in sovereigns.items() if n) or "none"
        terms.append((f"sovereigns: {shown}", sum(v for _, v in sovereigns.values()),
                      "FIG-BDR-8"))
    return terms


def home_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-9: +1 per member at home, a further +1 per member who is royalty here."""
    letter = group["mission"]
    data = ctx.data
    terms: list[Term] = []
    for name in group["members"]:
        c = ctx.char(name)
        if c["home_planet_here"] and letter in data.home_planet_missions:
            terms.append((f"{name} on his home planet", 1, "FIG-BDR-9"))
        if c["royalty_here"] and letter in data.royalty_missions:
            terms.append((f"{name} royalty here", 1, "FIG-BDR-9"))
    return terms


def j_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-12: pilot, ship (+ its extra AF), +1 undetected ship, possessions' J values."""
    pilot = group["leader"]
    ship = next(s for s in ctx.env["spaceships"] if s["name"] == group["ship"])
    row = ctx.data.chart_row(ship["name"])
    pilot_cell = _cell(ctx, pilot, "J", group)
    terms: list[Term] = [(f"{pilot} (pilot)", pilot_cell.base if pilot_cell else 0, "FIG-BDR-12"),
                         (ship["name"], row.cell("J").base + row.extra_af, "FIG-BDR-12")]
    terms.append(("ship detected" if ship["detected"] else "ship undetected",
                  0 if ship["detected"] else 1, "FIG-BDR-12"))
    terms += possession_terms(ctx, group)
    if group["bonus_adj"]:
        terms.append(("events and creatures", group["bonus_adj"], "FIG-BDR-10"))
    return terms


def q_terms(ctx: Ctx, group: dict) -> list[Term]:
    """FIG-BDR-13: +3 (+6 with torture), the interrogator's Q value and possessions, less the
    prisoner's intelligence."""
    who = group["leader"]
    cell = _cell(ctx, who, "Q", group)
    terms: list[Term] = [("torture" if group["torture"] else "no torture",
                          6 if group["torture"] else 3, "FIG-BDR-13"),
                         (f"{who} (interrogator)", cell.base if cell else 0, "FIG-BDR-13")]
    terms += possession_terms(ctx, group, only=[who])
    terms.append((f"{group['target']}'s intelligence",
                  -(ctx.rating(group["target"], "intelligence") or 0), "FIG-BDR-13"))
    if group["bonus_adj"]:
        terms.append(("events and creatures", group["bonus_adj"], "FIG-BDR-10"))
    return terms


def terms_text(terms: list[Term]) -> str:
    """``4 (Vudot Vodot, leader) + 1 (Zina Adora) - 1 (...)``."""
    text = ""
    for i, (label, value, _rule) in enumerate(terms):
        if i == 0:
            text = f"{value} ({label})"
        else:
            text += f" {'+' if value >= 0 else '-'} {abs(value)} ({label})"
    return text or "nothing"
