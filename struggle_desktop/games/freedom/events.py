"""The Random Events table of Part A (the FIG-RE rules: each row carries its own ID, and each
effect function names it) and the Coup Aborted table (FIG-CA-1), dispatched on each row's
``effect_key``.

:func:`start_event` decides first whether a rolled row happens at all: a starred row seen
before is no event (FIG-MIS-9); creature attacks after FIG-RE-3, and events that would abort a
mission after FIG-RE-7, are ignored entirely (FIG-MIS-10, FIG-MIS-11) and do not count as having
happened. A row that happens runs as an ``event`` frame: one function per effect key, returning
True when done and False while it waits for a roll, a choice or the players' result.

Events aimed at "one mission group" pick among the active character groups; cells and camps
ignore random events and are never picked (FIG-MIS-8, FIG-MSN-15). Characters off a mission, or
whose mission ended, are touched only by detection (FIG-MIS-13).
"""

from __future__ import annotations

from struggle_desktop.games.freedom.context import Ctx
from struggle_desktop.games.freedom.missions import ask_rating, give_possession
from struggle_desktop.games.freedom.registry import RULES
from struggle_desktop.games.freedom.steps import abort, push_hook

procedure = RULES.procedure
legal = RULES.legal


def start_event(ctx: Ctx, frame: dict, d66: int) -> str:
    """Whether the row of ``d66`` happens: ``"done"`` (nothing to do), ``"pushed"`` (its frame
    runs next) or ``"wait"`` (a rating is asked for first)."""
    row = ctx.data.random_event(d66)
    flags = ctx.state["flags"]
    if row.non_repeatable and row.rule in flags["occurred"]:
        ctx.note("FIG-MIS-9", f"Event {d66}: {row.rule} has already happened in this environs: "
                              f"no event")
        return "done"
    if row.effect_key == "creature_attack" and flags["off_season"]:
        ctx.note("FIG-MIS-10", f"Event {d66}: {row.rule} is ignored entirely: creatures are "
                               f"out of season (FIG-RE-3)")
        return "done"
    if flags["lucky_strike"] and row.aborts:
        if row.effect_key == "political_dispute":
            d = active_mission(ctx, "D")
            if d is not None and not ask_rating(ctx, frame, d["leader"], "diplomacy",
                                                "FIG-RE-18"):
                return "wait"
        victims = would_abort(ctx, row.effect_key)
        if victims:
            ctx.note("FIG-MIS-11", f"Event {d66}: {row.rule} would abort "
                                   f"{', '.join(g['id'] for g in victims)}: ignored entirely, "
                                   f"the lucky strike holds (FIG-RE-7, FIG-MIS-10)",
                     refs=[g["id"] for g in victims])
            return "done"
    if row.non_repeatable:
        flags["occurred"].append(row.rule)
    ctx.note(row.rule, f"Event {d66}: {row.summary}", kind="event")
    ctx.push("event", rule=row.rule, key=row.effect_key, d66=d66, stage=0)
    return "pushed"


def row_params(ctx: Ctx, rule: str):
    """The numbers of the Random Events row ``rule`` (random_events.yaml)."""
    return next(e for e in ctx.data.random_events if e.rule == rule).params


def active_mission(ctx: Ctx, letter: str, side: str | None = None) -> dict | None:
    """The active character group with mission ``letter`` (one per mission, FIG-MIS-3)."""
    if side is not None and ctx.side != side:
        return None
    return next((g for g in ctx.active_groups(characters_only=True) if g["mission"] == letter),
                None)


def would_abort(ctx: Ctx, key: str) -> list[dict]:
    """FIG-MIS-11: the active groups the row would abort if applied now."""
    if key == "civil_war":
        return [g for g in ctx.active_groups(characters_only=True) if g["mission"] in "CDER"]
    if key == "enemy_spy":
        return ctx.active_groups(characters_only=True)
    one = {"rebels_lose_nerve": ("R", "rebel"), "wrong_soldier": ("T", None),
           "protocol_blunder": ("D", None), "coup_goes_wrong": ("C", None),
           "political_dispute": ("D", None)}.get(key)
    if one is None:
        return []
    g = active_mission(ctx, *one)
    if g is None:
        return []
    if key == "political_dispute":
        diplomacy = ctx.rating(g["leader"], "diplomacy")
        minimum = row_params(ctx, "FIG-RE-18")["min_diplomacy"]
        return [g] if diplomacy is not None and diplomacy < minimum else []
    return [g]


@procedure("event")
def event(ctx: Ctx, frame: dict) -> None:
    if EFFECTS[frame["key"]](ctx, frame):
        ctx.pop()


def no_candidates(ctx: Ctx, frame: dict) -> bool:
    ctx.note(frame["rule"], "No active mission group to strike: no effect")
    return True


def has_candidates(ctx: Ctx, frame: dict) -> bool:
    """Whether ``pick_group`` has a group to strike (or has picked one already)."""
    return "group" in frame or bool(ctx.active_groups(characters_only=True))


def pick_group(ctx: Ctx, frame: dict) -> dict | None:
    """The struck group: a dk among the active character groups in assignment order; the
    frame remembers it. None while the roll is pending (or if there is no candidate: ask
    ``has_candidates`` first)."""
    if "group" in frame:
        return ctx.group(frame["group"])
    candidates = ctx.active_groups(characters_only=True)
    g = ctx.pick(frame, "group", candidates, frame["rule"], "The group struck",
                 refs=[c["id"] for c in candidates])
    if g is None:
        return None
    frame["group"] = g["id"]
    if len(candidates) == 1:
        ctx.note(frame["rule"], f"{g['id']} is the only candidate: no roll", refs=[g["id"]])
    else:
        ctx.note(frame["rule"], f"{g['id']} is struck", refs=[g["id"]])
    return g


# ============================================================================ the rows
def accident(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-1: one character of the active groups takes the row's hits (FIG-HOOK-8)."""
    candidates = ctx.event_characters()
    if not candidates:
        return no_candidates(ctx, frame)
    name = ctx.pick(frame, "who", candidates, frame["rule"], "The character hurt",
                    refs=candidates)
    if name is None:
        return False
    ctx.add_hits(name, row_params(ctx, "FIG-RE-1")["hits"], frame["rule"], "an accident")
    return True


def patrol_source(ctx: Ctx) -> tuple[bool, list[dict]]:
    """FIG-RE-2: whether a patrol can happen, and the enemy ground units that may raise it
    (none: a militia and conscript patrol, when the enemy controls the planet)."""
    units = ctx.enemy_ground_units()
    if units:
        return True, units
    return ctx.env["controller"] == ctx.enemy, []


def patrol_hook(ctx: Ctx, frame: dict, group: dict, units: list[dict], rule: str) -> bool:
    """A patrol meets ``group``: a random unit of ``units`` raises it (FIG-GEN-5), then the
    players fight it out (FIG-HOOK-3). True once their result is in."""
    if "hook" in frame:
        frame.pop("hook")
        return True
    unit = None
    if units:
        unit = ctx.pick(frame, "unit", units, rule, "The unit on patrol",
                        refs=[u["id"] for u in units])
        if unit is None:
            return False
        if len(units) == 1:
            ctx.note(rule, f"The patrol comes from the only enemy unit, {unit['id']}",
                     refs=[unit["id"]])
    source = (f"the {unit['kind'].replace('_', ' ')} {unit['id']} (AF {unit['af']}"
              f"{', elite' if unit['elite'] else ''}"
              f"{', leader ' + str(unit['leader']) if unit['leader'] is not None else ''})"
              if unit else "a militia and conscript patrol")
    push_hook(ctx, "patrol", "FIG-HOOK-3", f"{group['id']} meets a patrol from {source}: "
                                           f"enter the result of the fight", group,
              unit=dict(unit) if unit else None, source=source, rule_of=rule)
    return False


def patrol(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-2: checked before any die is rolled; then the group, then the unit."""
    possible, units = patrol_source(ctx)
    if not possible:
        ctx.note(frame["rule"], "No enemy ground unit here and the enemy does not control the "
                                "planet: no patrol")
        return True
    if not has_candidates(ctx, frame):
        return no_candidates(ctx, frame)
    g = pick_group(ctx, frame)
    if g is None:
        return False
    return patrol_hook(ctx, frame, g, units, frame["rule"])


def off_season(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-3."""
    ctx.state["flags"]["off_season"] = True
    ctx.note(frame["rule"], "Creature attacks are ignored for the rest of the segment")
    return True


def civil_war(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-4: loyalty to neutral (a planet in a rebellion state keeps its state); active C,
    D, E and R end; active B, F, H and S gain a bonus roll."""
    env = ctx.env
    params = row_params(ctx, "FIG-RE-4")
    if env["planet_state"] == "loyalty":
        if env["loyalty"] != params["set_loyalty"]:
            before = env["loyalty"]
            env["loyalty"] = params["set_loyalty"]
            ctx.change(frame["rule"], "loyalty", f"Civil war: loyalty goes from {before} to "
                                                 f"{env['loyalty']}")
    else:
        ctx.note(frame["rule"], "The planet is in a rebellion state: its loyalty does not change")
    for g in ctx.active_groups(characters_only=True):
        if g["mission"] in ("C", "D", "E", "R"):
            abort(ctx, g, frame["rule"], "civil war")
        elif g["mission"] in params["bonus_missions"]:
            g["bonus_adj"] += params["bonus_rolls"]
            ctx.note(frame["rule"], f"{g['id']} gains a bonus roll (FIG-BDR-10)", refs=[g["id"]])
    return True


def sympathizer_raid(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-5: the PDB down, or damage to the weakest enemy unit; the phasing player picks."""
    env = ctx.env
    options = ["pdb"] if env["pdb"] > 0 and not env["pdb_down"] else []
    units = [u for u in ctx.enemy_units() if not u["damaged"]]
    if units:
        weakest = min(u["af"] for u in units)
        options += [u["id"] for u in units if u["af"] == weakest]
    if not options:
        ctx.note(frame["rule"], "No PDB up and no enemy unit to damage: no effect")
        return True
    if len(options) == 1:
        choice = options[0]
    elif "answer" in frame:
        choice = frame.pop("answer")["target"]
    else:
        ctx.ask("raid", "Local sympathizers raid: put the PDB down, or damage one of the "
                        "weakest enemy units?", role="phasing", rule=frame["rule"],
                options=options)
        return False
    if choice == "pdb":
        env["pdb_down"] = True
        ctx.change(frame["rule"], "pdb", "Sympathizers put the PDB down")
    else:
        u = ctx.unit(choice)
        u["damaged"] = True
        ctx.change(frame["rule"], "unit", f"Sympathizers damage the {u['kind'].replace('_', ' ')} "
                                          f"{u['id']} (AF {u['af']})", refs=[u["id"]])
    return True


@legal("raid")
def legal_raid(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "raid", "target": t} for t in pending["options"]]


def atrocity(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-6: the Imperial player may commit an atrocity; the players report (FIG-HOOK-5)."""
    if "hook" in frame:
        if frame.pop("hook")["committed"]:
            ctx.change("FIG-HOOK-5", "reminder", "The Imperial player commits an atrocity here: "
                                                 "apply it on the board")
        return True
    push_hook(ctx, "atrocity", "FIG-HOOK-5", "The Imperial player may commit an atrocity here: "
                                             "does he?", None, role=ctx.role_of("imperial"))
    return False


def lucky_strike(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-7."""
    ctx.state["flags"]["lucky_strike"] = True
    ctx.note(frame["rule"], "Events that would abort a mission are ignored for the rest of the "
                            "segment")
    return True


def recognised(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-8."""
    ctx.detect_all(frame["rule"])
    return True


def compromised(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-9: everyone detected; the enemy may search one random group (FIG-HOOK-4), unless
    friendly locals forbid searches (FIG-RE-14)."""
    if "hook" in frame:
        frame.pop("hook")
        return True
    if frame["stage"] == 0:
        ctx.detect_all(frame["rule"])
        frame["stage"] = 1
    if ctx.state["flags"]["no_searches"]:
        ctx.note("FIG-RE-14", "Friendly locals forbid searches: the enemy may not search")
        return True
    if not has_candidates(ctx, frame):
        return no_candidates(ctx, frame)
    g = pick_group(ctx, frame)
    if g is None:
        return False
    push_hook(ctx, "search", "FIG-HOOK-4", f"The enemy may search {g['id']}: enter the result",
              g, searches_allowed=True)
    return False


def local_connections(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-10: +1 bonus roll for every group active now (FIG-BDR-10)."""
    bonus = row_params(ctx, "FIG-RE-10")["bonus_rolls"]
    groups = ctx.active_groups(characters_only=True)
    for g in groups:
        g["bonus_adj"] += bonus
        ctx.note(frame["rule"], f"{g['id']} gains {bonus} bonus roll (FIG-BDR-10)",
                 refs=[g["id"]])
    if not groups:
        no_candidates(ctx, frame)
    return True


def hand_over_to(ctx: Ctx, frame: dict, procedure: str) -> bool:
    """Push ``procedure`` (foes.py) once; the event is done when it has run."""
    if frame["stage"] == 0:
        frame["stage"] = 1
        ctx.push(procedure, rule=frame["rule"], stage="group")
        return False
    return True


def creature_attack(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-11: see foes.py (FIG-FOE-1)."""
    return hand_over_to(ctx, frame, "creature")


def irate_locals(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-12: see foes.py (FIG-LOC-1)."""
    return hand_over_to(ctx, frame, "locals")


def possession_found(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-13: a random group draws a random possession and the phasing player says who
    carries it; the Imperial side, or anyone when the pool is empty, takes a mulligan (no group
    is picked then: the mulligan is the side's)."""
    if "group" not in frame:
        if not ctx.active_groups(characters_only=True):
            return no_candidates(ctx, frame)
        if ctx.side == "imperial" or not ctx.env["possession_pool"]:
            why = ("the Imperial side finds no possessions" if ctx.side == "imperial"
                   else "the possession pool is empty")
            ctx.gain_mulligan(ctx.side, frame["rule"], why)
            return True
    g = pick_group(ctx, frame)
    if g is None:
        return False
    return give_possession(ctx, frame, g, "item", frame["rule"], spaceships=True)


def friendly_locals(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-14: a restriction on searches, not an ignore (FIG-MIS-10)."""
    ctx.state["flags"]["no_searches"] = True
    ctx.note(frame["rule"], "No more enemy searches in this environs for the rest of the segment")
    return True


def enemy_spy(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-15: one random active mission ends; everyone is detected."""
    if has_candidates(ctx, frame):
        g = pick_group(ctx, frame)
        if g is None:
            return False
        abort(ctx, g, frame["rule"], "betrayed by a spy")
    else:
        no_candidates(ctx, frame)
    ctx.detect_all(frame["rule"])
    return True


def rebels_lose_nerve(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-16: a Rebel R ends (an Imperial R is not concerned); everyone is detected."""
    g = active_mission(ctx, "R", side="rebel")
    if g is not None:
        abort(ctx, g, frame["rule"], "the would-be rebels lose their nerve")
    else:
        ctx.note(frame["rule"], "No active Rebel R mission")
    ctx.detect_all(frame["rule"])
    return True


def wrong_soldier(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-17: an active T ends and meets a patrol from its target unit, or is captured if
    that unit has a leader; everyone is detected in any case."""
    if frame["stage"] == 0:
        g = active_mission(ctx, "T")
        if g is None:
            ctx.note(frame["rule"], "No active T mission")
            frame["stage"] = 2
        else:
            abort(ctx, g, frame["rule"], "the wrong soldier was approached")
            frame["group"] = g["id"]
            unit = ctx.unit(g["target"])
            if unit["leader"] is not None:
                for name in g["members"]:
                    c = ctx.char(name)
                    c["captured"] = c["detected"] = True
                    ctx.change(frame["rule"], "capture", f"{name} is captured (the unit's "
                                                         f"leader)", refs=[name])
                frame["stage"] = 2
            else:
                frame["stage"] = 1
    if frame["stage"] == 1:
        g = ctx.group(frame["group"])
        if not patrol_hook(ctx, frame, g, [ctx.unit(g["target"])], frame["rule"]):
            return False
        frame["stage"] = 2
    ctx.detect_all(frame["rule"])
    return True


def political_dispute(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-18: an active D ends if its leader's diplomacy is below the row's minimum."""
    g = active_mission(ctx, "D")
    if g is None:
        ctx.note(frame["rule"], "No active D mission")
        return True
    if not ask_rating(ctx, frame, g["leader"], "diplomacy", frame["rule"]):
        return False
    minimum = row_params(ctx, "FIG-RE-18")["min_diplomacy"]
    diplomacy = ctx.rating(g["leader"], "diplomacy")
    if diplomacy < minimum:
        abort(ctx, g, frame["rule"], f"{g['leader']}'s diplomacy {diplomacy} is below {minimum}")
    else:
        ctx.note(frame["rule"], f"{g['leader']}'s diplomacy {diplomacy} holds: D goes on",
                 refs=[g["id"]])
    return True


def protocol_blunder(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-19: an active D ends and loyalty shifts one space toward the enemy."""
    g = active_mission(ctx, "D")
    if g is None:
        ctx.note(frame["rule"], "No active D mission: no effect")
        return True
    abort(ctx, g, frame["rule"], "a protocol blunder")
    ctx.shift_loyalty(ctx.enemy, -row_params(ctx, "FIG-RE-19")["loyalty_shift"],
                      frame["rule"], "protocol blunder")
    return True


def sunset_break(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-20: one random active group loses a bonus roll (FIG-BDR-10)."""
    if not has_candidates(ctx, frame):
        return no_candidates(ctx, frame)
    g = pick_group(ctx, frame)
    if g is None:
        return False
    g["bonus_adj"] += row_params(ctx, "FIG-RE-20")["bonus_rolls"]
    ctx.note(frame["rule"], f"{g['id']} loses a bonus roll (FIG-BDR-10)", refs=[g["id"]])
    return True


def coup_goes_wrong(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-21: an active C ends and 2d6 is rolled on Coup Aborted (FIG-CA-1)."""
    if frame["stage"] == 1:
        return True
    g = active_mission(ctx, "C")
    if g is None:
        ctx.note(frame["rule"], "No active C mission: no effect")
        return True
    abort(ctx, g, frame["rule"], "the coup goes wrong")
    frame["stage"] = 1
    ctx.push("coup_aborted", group=g["id"], stage="roll")
    return False


def populace_wild(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-22: remembered for the resolution and the report."""
    ctx.state["flags"]["populace_wild"] = True
    ctx.note(frame["rule"], "Should rebellion start here in this Mission phase, the Rebel takes "
                            "double this environs' resource value")
    return True


def rumour_delay(ctx: Ctx, frame: dict) -> bool:
    """FIG-RE-23: no Bonus Dice Rolls segment here (FIG-MIS-20)."""
    ctx.state["flags"]["bonus_cancelled"] = True
    ctx.note(frame["rule"], "The Bonus Dice Rolls segment of this environs is cancelled")
    return True


EFFECTS = {"accident": accident, "patrol": patrol, "off_season": off_season,
           "civil_war": civil_war, "sympathizer_raid": sympathizer_raid, "atrocity": atrocity,
           "lucky_strike": lucky_strike, "recognised": recognised, "compromised": compromised,
           "local_connections": local_connections, "creature_attack": creature_attack,
           "irate_locals": irate_locals, "possession_found": possession_found,
           "friendly_locals": friendly_locals, "enemy_spy": enemy_spy,
           "rebels_lose_nerve": rebels_lose_nerve, "wrong_soldier": wrong_soldier,
           "political_dispute": political_dispute, "protocol_blunder": protocol_blunder,
           "sunset_break": sunset_break, "coup_goes_wrong": coup_goes_wrong,
           "populace_wild": populace_wild, "rumour_delay": rumour_delay}


# ============================================================================ coup aborted
@procedure("coup_aborted")
def coup_aborted(ctx: Ctx, frame: dict) -> None:
    """FIG-CA-1: 2d6; a shift toward the enemy, then the row's fate for the coup group, then
    detection."""
    g = ctx.group(frame["group"])
    r = ctx.need(frame, "ca", "2d6", "FIG-CA-1", "Coup aborted", refs=[g["id"]] + g["members"])
    if r is None:
        return
    band = ctx.data.coup_aborted(r["result"])
    if frame["stage"] == "roll":
        ctx.note("FIG-CA-1", f"Coup Aborted {r['result']}: {band.summary}", refs=[g["id"]])
        if band.loyalty_shift:
            ctx.shift_loyalty(ctx.enemy, -band.loyalty_shift, "FIG-CA-1", "coup aborted")
        frame["stage"] = "fate"
    if frame["stage"] == "fate":
        if not coup_fate(ctx, frame, g, band.effect_key):
            return
        frame["stage"] = "detect"
    if band.detect_all:
        ctx.detect_all("FIG-CA-1")
    ctx.pop()


def coup_fate(ctx: Ctx, frame: dict, g: dict, key: str) -> bool:
    members = [m for m in g["members"] if not ctx.char(m)["dead"] and not ctx.char(m)["captured"]]
    if key in ("group_killed", "group_captured"):
        for name in members:
            c = ctx.char(name)
            if key == "group_killed":
                c["dead"] = True
                ctx.change("FIG-CA-1", "kill", f"{name} dies (coup aborted)", refs=[name])
            else:
                c["captured"] = c["detected"] = True
                ctx.change("FIG-CA-1", "capture", f"{name} is captured (coup aborted)",
                           refs=[name])
    elif key == "member_captured" and members:
        name = ctx.pick(frame, "who", members, "FIG-CA-1", "The coup member taken",
                        refs=members)
        if name is None:
            return False
        c = ctx.char(name)
        c["captured"] = c["detected"] = True
        ctx.change("FIG-CA-1", "capture", f"{name} is captured (coup aborted)", refs=[name])
    elif key == "patrol":
        possible, units = patrol_source(ctx)
        if not possible:
            ctx.note("FIG-CA-1", "No unit can raise a patrol here: no patrol")
            return True
        return patrol_hook(ctx, frame, g, units, "FIG-CA-1")
    return True
