"""The Part A Mission Phase of one environs, finished before the next begins (FIG-MIS-1), as
resumable procedures: the Mission Phase rules, FIG-MIS (each procedure names the IDs it
implements).

``mission_phase`` runs the segments in the order of FIG-MIS-2: Recruitment (FIG-REC), Mission
Assignment (FIG-MIS-3, FIG-MIS-4), the steps of the Mission Action segment (FIG-MIS-5, FIG-MIS-6
and the rules of a step, each named where it is implemented: here, in context.py for active
groups, in events.py with the events, in steps.py for aborts; creatures and locals are in
foes.py), the Bonus Dice Rolls
segment (FIG-MIS-19, FIG-MIS-20, FIG-BDR in bonus.py), the failure procedures (FIG-MIS-21), the
resolution (FIG-MIS-22, missions.py) and the outcome report (FIG-MIS-24).

Every roll goes through the ``roll`` procedure: it rolls, logs (FIG-GEN-6) and, while the
phasing side holds a mulligan, offers to spend one on a re-roll (FIG-MIS-23). A procedure asks
for a roll with ``ctx.need`` / ``ctx.pick`` first in a stage and changes nothing before it has
the result, so it can stop there and run again.

Prompts of this module and their actions (``role`` is ``phasing`` or ``enemy``):

- ``mulligan`` (phasing): ``{"verb": "keep"}`` or ``{"verb": "mulligan"}`` (FIG-MIS-23);
- ``recruit`` (phasing, option ``recruit_choice=chosen``): ``{"verb": "recruit", "character":
  C}`` (FIG-REC-4);
- ``assign`` (phasing): ``{"verb": "form", "mission": L, "leader": C, "target"?: T, "ship"?:
  S, "torture"?: true}``, ``{"verb": "form", "mission": L, "performer": cell}``,
  ``{"verb": "join", "group": G, "character": C}``, ``{"verb": "disband", "group": G}``,
  ``{"verb": "done"}`` (FIG-MIS-3, FIG-MIS-4);
- ``call_off`` (phasing): ``{"verb": "continue"}`` or ``{"verb": "call_off", "group": G}``
  (FIG-MIS-16);
- ``bonus_roll`` (phasing): ``{"verb": "roll"}`` or ``{"verb": "stop"}`` (FIG-MIS-19);
- ``hook`` (enemy for fights, patrols and searches; the Imperial side's role for atrocities;
  phasing for a spaceship's seats): the players' result, entered a piece at a time:
  ``{"verb": "hit" | "kill" | "capture", "character": C}``, ``{"verb": "flag", "flag": F}``,
  ``{"verb": "unit", "unit": U, "effect": "damaged" | "destroyed"}``, then ``{"verb":
  "result", "result": R}``; ``{"verb": "default"}`` is the default responder's neutral answer
  (FIG-HOOK-7); seats: ``{"verb": "seats", "count": n}``; atrocity: ``{"verb": "atrocity",
  "committed": bool}``;
- ``leader`` (phasing): ``{"verb": "lead", "character": C}`` (FIG-HOOK-1);
- ``value`` (the owner of the character, or the enemy for his resource track): ``{"verb":
  "enter", "value": n}`` (FIG-CTX-9, FIG-MSN-7);
- ``information`` (phasing, missions.py): ``{"verb": "choose", "option": O}`` (FIG-MSN-8);
- ``receiver`` (phasing, missions.py): ``{"verb": "give", "character": C}`` (FIG-RE-13);
- ``raid`` (phasing, events.py): ``{"verb": "raid", "target": "pdb" | unit}`` (FIG-RE-5).
"""

from __future__ import annotations

from struggle_desktop.games.freedom import bonus
from struggle_desktop.games.freedom.context import Ctx
from struggle_desktop.games.freedom.events import start_event
from struggle_desktop.games.freedom.missions import (ask_rating, free_characters,
                                                     free_performers, group_problem, max_level,
                                                     missing_ratings, new_group, number_groups,
                                                     requirement_note, ship_options,
                                                     target_options)
from struggle_desktop.games.freedom.registry import RULES
from struggle_desktop.games.freedom.steps import abort, push_hook

procedure = RULES.procedure
legal = RULES.legal

SEGMENTS = ("recruitment", "assignment", "steps", "bonus", "failure", "resolution", "report")
#: The most hits one hook entry may give a character (the players can enter another result).
MAX_HOOK_HITS = 10


def new_state(data, scenario: dict, environs: dict, seed: int, options: dict, rng) -> dict:
    """A Part A state waiting at the start of the Mission phase (its shape: context.py)."""
    return {
        "game": "freedom", "scenario": scenario["id"], "kind": "mission-phase", "seed": seed,
        "options": dict(options), "rng": rng.to_json(), "stack": [{"proc": "mission_phase"}],
        "pending": None, "log": [], "outcome": None, "turn": 0, "phase": "recruitment",
        "environs": environs, "groups": [], "draft": None, "steps": 0,
        "flags": {"off_season": False, "lucky_strike": False, "no_searches": False,
                  "bonus_cancelled": False, "populace_wild": False, "occurred": [],
                  "synestins": False, "bonus_condition": None},
        "changes": [],
    }


# ================================================================================ the phase
@procedure("mission_phase")
def mission_phase(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-2: the segments in order; each pushes its own frames. The phase of this environs
    runs to its outcome before another environs begins (FIG-MIS-1)."""
    state = ctx.state
    segment = SEGMENTS[frame.setdefault("segment", 0)]
    state["phase"] = segment
    frame["segment"] += 1
    if segment == "recruitment":
        ctx.push("recruitment")
    elif segment == "assignment":
        ctx.push("assignment")
    elif segment == "steps":
        ctx.push("steps")
    elif segment == "bonus":
        start_bonus(ctx)
    elif segment == "failure":
        ctx.push("failures")
    elif segment == "resolution":
        ctx.push("resolution")
    else:
        finish(ctx)
        ctx.pop()


# ================================================================================ rolls
@procedure("roll")
def roll(ctx: Ctx, frame: dict) -> None:
    """Roll, log, and offer the phasing side's mulligans (FIG-MIS-23): a re-roll replaces the
    result and may itself be re-rolled with another mulligan. The result goes to the frame
    below, under the frame's ``key``."""
    side = ctx.side
    if "answer" in frame:
        if frame.pop("answer")["verb"] == "mulligan":
            ctx.env["mulligans"][side] -= 1
            ctx.change("FIG-MIS-23", "mulligan",
                       f"The {side} side spends a mulligan to re-roll: {frame['why']} "
                       f"({ctx.env['mulligans'][side]} left)")
            del frame["result"]
        else:
            frame["kept"] = True
    if "result" not in frame:
        frame["result"] = ctx.throw(frame["die"], frame["rule"], frame["why"],
                                    frame["modifiers"], frame["refs"])
    if not frame.get("kept") and ctx.env["mulligans"][side] > 0:
        r = frame["result"]
        ctx.ask("mulligan", f"{frame['why']}: {frame['die']} "
                            f"{','.join(map(str, r['faces']))} = {r['result']}. Spend one of "
                            f"{ctx.env['mulligans'][side]} mulligans to roll again?",
                role="phasing", rule="FIG-MIS-23", die=frame["die"], result=r["result"])
        return
    ctx.pop()
    ctx.top().setdefault("rolls", {})[frame["key"]] = frame["result"]


@legal("mulligan")
def legal_mulligan(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "keep"}, {"verb": "mulligan"}]


# ================================================================================ recruitment
def recruitment_modifiers(ctx: Ctx) -> list[list]:
    """FIG-REC-2 (with FIG-REC-3), in the table's order."""
    env, side = ctx.env, ctx.side
    condition = ctx.condition()
    mods = []
    for m in ctx.data.recruitment["modifiers"]:
        if m["side"] not in ("both", side):
            continue
        if condition in m.get("unless_planet", ()):
            continue
        if "only_planet" in m and condition not in m["only_planet"]:
            continue
        amount = m["amount"]
        if "table" in amount:
            mods.append([f"loyalty {condition}", ctx.loyalty_modifier(side)])
        elif "size_minus" in amount:
            mods.append([f"size {env['size']}", env["size"] - amount["size_minus"]])
        else:
            mods.append([m["key"].replace("_", " "), amount["fixed"]])
    return mods


@procedure("recruitment")
def recruitment(ctx: Ctx, frame: dict) -> None:
    """FIG-REC-1, FIG-REC-2, FIG-REC-3, FIG-REC-4: one d10 per environs; a new character joins
    on 10 or more."""
    env, side = ctx.env, ctx.side
    pool = env["unrecruited"][side]
    if env["location"] == "orbit":
        ctx.note("FIG-REC-1", "No recruitment in an orbit box")
        ctx.pop()
        return
    if not [c for c in ctx.present(side) if not c["resting"] and not c["npc_sovereign"]]:
        ctx.note("FIG-REC-1", f"No {side} character here is fit to recruit: no recruitment")
        ctx.pop()
        return
    if not pool:
        ctx.note("FIG-REC-1", f"The {side} side has nobody left to recruit: the segment is "
                              f"skipped")
        ctx.pop()
        return
    rule = ctx.data.recruitment["roll"]
    r = ctx.need(frame, "recruit", rule["die"], "FIG-REC-1", "Recruitment",
                 modifiers=recruitment_modifiers(ctx))
    if r is None:
        return
    natural = r["value"] == rule["natural_success"]
    if not frame.get("judged"):
        frame["judged"] = True
        if r["result"] >= rule["need"] or natural:
            why = (f"a natural {r['value']} succeeds whatever the total ({r['result']})"
                   if natural and r["result"] < rule["need"] else
                   f"total {r['result']}, {rule['need']} or more needed: a recruit")
            ctx.note("FIG-REC-1", f"Recruitment succeeds: {why}")
        else:
            ctx.note("FIG-REC-1", f"Recruitment fails: total {r['result']}, {rule['need']} "
                                  f"needed")
            ctx.pop()
            return
    if ctx.option("recruit_choice") == "chosen" and len(pool) > 1:
        if "answer" not in frame:
            ctx.ask("recruit", f"Recruitment succeeded: choose the new {side} character",
                    role="phasing", rule="FIG-REC-4", pool=list(pool))
            return
        name = frame.pop("answer")["character"]
    else:
        name = ctx.pick(frame, "who", pool, "FIG-REC-4", "The new character",
                        refs=list(pool))
        if name is None:
            return
    pool.remove(name)
    env["characters"].append(
        {"name": name, "side": side, "detected": False, "resting": False, "captured": False,
         "home_planet_here": False, "royalty_here": False, "variant": False,
         "npc_sovereign": False, "hits": 0, "intelligence": None, "diplomacy": None,
         "leadership": None, "navigation": None, "ef": None, "possessions": [], "dead": False,
         "recruited": True})
    ctx.change("FIG-REC-4", "recruit", f"{name} joins the {side} side and enters play here, "
                                       f"undetected", refs=[name])
    ctx.pop()


@legal("recruit")
def legal_recruit(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "recruit", "character": n} for n in pending["pool"]]


# ================================================================================ assignment
@procedure("assignment")
def assignment(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-3 and FIG-MIS-4: the groups, from the scenario or formed at the prompt; every
    group checked against its mission's requirements before the steps begin; J and Q groups
    wait for the bonus segment (FIG-MIS-18)."""
    state = ctx.state
    if state["draft"] is None:
        given = ctx.env.get("assignment")
        state["draft"] = [new_group(g["mission"], g.get("leader"), g.get("members", ()),
                                    g.get("performer"), g.get("target"), g.get("ship"),
                                    g.get("torture", False)) for g in (given or [])]
        number_groups(state["draft"])
        frame["auto"] = given is not None
    draft = state["draft"]
    if "answer" in frame and not frame.get("confirm"):
        action = frame.pop("answer")
        if action["verb"] == "done":
            frame["confirm"] = True
        else:
            edit_draft(ctx, draft, action)
            number_groups(draft)
    if frame.get("auto"):
        frame["auto"] = False
        if refuse_invalid(ctx, draft):
            frame["confirm"] = True
    if not frame.get("confirm"):
        frame.pop("asking", None)
        ctx.ask("assign", f"Form the {ctx.side} mission groups ({len(draft)} so far), then done",
                role="phasing", rule="FIG-MIS-3")
        return
    # Ratings the requirements rest on (FIG-CTX-9), then the final check (FIG-MIS-4).
    for g in draft:
        for name, rating in missing_ratings(ctx, g):
            if not ask_rating(ctx, frame, name, rating, "FIG-MIS-4"):
                return
    frame.pop("asking", None)
    frame["confirm"] = False
    if not refuse_invalid(ctx, draft):
        return          # back to the prompt with the refused group removed
    for g in draft:
        g["status"] = "waiting" if ctx.data.mission(g["mission"]).bonus_only else "active"
        who = g["performer"] or ", ".join(g["members"])
        ctx.note("FIG-MIS-4", f"{g['id']} = {g['mission']} "
                              f"({ctx.data.mission(g['mission']).name}) with {who}: valid "
                              f"({requirement_note(ctx, g) or 'no special requirement'})",
                 refs=[g["id"]] + g["members"])
    if not draft:
        ctx.note("FIG-MIS-3", "No mission group is formed")
    state["groups"] = draft
    state["draft"] = None
    ctx.pop()


def refuse_invalid(ctx: Ctx, draft: list[dict]) -> bool:
    """Drop every group that breaks a requirement, logging why (FIG-MIS-4); True if none did."""
    ok = True
    for g in list(draft):
        others = [o for o in draft if o is not g]
        problem = group_problem(ctx, g, others)
        if problem:
            ok = False
            ctx.note("FIG-MIS-4", f"{g['id']} ({g['mission']}) is refused: {problem}",
                     refs=[g["id"]])
            draft.remove(g)
    number_groups(draft)
    return ok


def edit_draft(ctx: Ctx, draft: list[dict], action: dict) -> None:
    verb = action["verb"]
    if verb == "form":
        draft.append(group_from_action(action))
    elif verb == "join":
        next(g for g in draft if g["id"] == action["group"])["members"].append(
            action["character"])
    elif verb == "disband":
        draft[:] = [g for g in draft if g["id"] != action["group"]]


def group_from_action(action: dict) -> dict:
    return new_group(action["mission"], action.get("leader"), (), action.get("performer"),
                     action.get("target"), action.get("ship"), action.get("torture", False))


@legal("assign")
def legal_assign(ctx: Ctx, pending: dict) -> list[dict]:
    draft = ctx.state["draft"]
    side = ctx.side
    actions = []
    free = free_characters(ctx, draft)
    for letter, mission in ctx.data.missions.items():
        if not mission.allowed_for(side):
            continue
        targets = target_options(ctx, letter)
        ships = ship_options(ctx) if letter == "J" else [None]
        tortures = [False, True] if letter == "Q" and side == "imperial" else [False]
        for leader in free:
            for target in targets:
                for ship in ships:
                    for torture in tortures:
                        action = {"verb": "form", "mission": letter, "leader": leader}
                        if target is not None:
                            action["target"] = target
                        if ship is not None:
                            action["ship"] = ship
                        if torture:
                            action["torture"] = True
                        if group_problem(ctx, group_from_action(action), draft) is None:
                            actions.append(action)
        for cell in free_performers(ctx, draft):
            for target in targets:
                action = {"verb": "form", "mission": letter, "performer": cell["id"]}
                if target is not None:
                    action["target"] = target
                if group_problem(ctx, group_from_action(action), draft) is None:
                    actions.append(action)
    for g in draft:
        if g["performer"] is None:
            for name in free:
                trial = dict(g, members=g["members"] + [name])
                others = [o for o in draft if o is not g]
                if group_problem(ctx, trial, others) is None:
                    actions.append({"verb": "join", "group": g["id"], "character": name})
        actions.append({"verb": "disband", "group": g["id"]})
    actions.append({"verb": "done"})
    return actions


# ================================================================================ the steps
@procedure("steps")
def steps(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-5 and FIG-MIS-17: as many steps as the environs size, ended early once no group
    is active (unless the option restores full-length segments)."""
    state = ctx.state
    if "next" not in frame:
        state["steps"] = ctx.env["size"] if ctx.env["location"] == "environs" else 0
        frame["next"] = 1
        if ctx.env["location"] == "orbit":
            ctx.note("FIG-MIS-5", "An orbit box has no steps: its missions resolve in the "
                                  "Bonus Dice Rolls segment")
        else:
            ctx.note("FIG-MIS-5", f"The Mission Action segment has {state['steps']} steps")
    n = frame["next"]
    if n > state["steps"]:
        ctx.pop()
        return
    if not ctx.active_groups() and not ctx.option("continue_steps_when_idle"):
        left = state["steps"] - n + 1
        ctx.note("FIG-MIS-17", f"No group is active: the remaining {left} step"
                               f"{'s are' if left > 1 else ' is'} skipped")
        ctx.pop()
        return
    frame["next"] = n + 1
    state["turn"] = n
    ctx.note("FIG-MIS-6", f"Step {n} of {state['steps']}", kind="step")
    ctx.push("step", n=n, stage="event")


@procedure("step")
def step(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-6: a random event, its effects, the shared success roll, the call-off prompt."""
    n = frame["n"]
    while True:
        stage = frame["stage"]
        if stage == "event":
            r = ctx.need(frame, "event", "p2d6", "FIG-MIS-6", f"Step {n} random event")
            if r is None:
                return
            frame["stage"] = "effect"
        elif stage == "effect":
            # "wait": a rating is asked for first; "pushed": the event's frame runs first.
            how = start_event(ctx, frame, frame["rolls"]["event"]["result"])
            if how == "wait":
                return
            frame["stage"] = "success"
            if how == "pushed":
                return
        elif stage == "success":
            if not success_roll(ctx, frame, n):
                return
            frame["stage"] = "call_off"
        elif stage == "call_off":
            if not call_off(ctx, frame):
                return
            ctx.pop()
            return


def success_roll(ctx: Ctx, frame: dict, n: int) -> bool:
    """FIG-MIS-14: one roll for all active groups; each whose letter shows gains a level."""
    active = ctx.active_groups()
    if not active:
        ctx.note("FIG-MIS-6", "No group is active: no mission success roll")
        return True
    r = ctx.need(frame, "success", "p2d6", "FIG-MS-1", f"Step {n} mission success",
                 refs=[g["id"] for g in active])
    if r is None:
        return False
    letters = ctx.data.success_letters(r["result"])
    gained = [g for g in active if g["mission"] in letters]
    for g in gained:
        g["level"] += 1
        ctx.note("FIG-MIS-14", f"Success {r['result']} \"{' '.join(letters)}\": {g['id']} "
                               f"({g['mission']}) reaches level {g['level']}", refs=[g["id"]])
    if not gained:
        ctx.note("FIG-MIS-14", f"Success {r['result']} \"{' '.join(letters)}\": no active "
                               f"mission scores")
    return True


def call_off(ctx: Ctx, frame: dict) -> bool:
    """FIG-MIS-16: the phasing player may call off any active group; the default is to go on."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "continue":
            return True
        g = ctx.group(action["group"])
        g["status"] = "called_off"
        ctx.note("FIG-MIS-16", f"{g['id']} ({g['mission']}) is called off and keeps level "
                               f"{g['level']}", refs=[g["id"]])
    if not ctx.active_groups():
        return True
    ctx.ask("call_off", f"End of step {frame['n']}: call off a group, or continue",
            role="phasing", rule="FIG-MIS-16")
    return False


@legal("call_off")
def legal_call_off(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "continue"}] + [{"verb": "call_off", "group": g["id"]}
                                     for g in ctx.active_groups()]


# ================================================================================ hooks
HOOK_RESULTS = {
    "combat": ["driven_off", "creature_killed", "characters_broke_off", "group_defeated"],
    "patrol": ["no_effect", "fought"],
    "search": ["not_found", "found"],
    "prisoner": ["survives", "dies"],
}


@procedure("hook")
def hook(ctx: Ctx, frame: dict) -> None:
    if frame.get("stage") == "leader":
        if not replace_leader(ctx, frame):
            return
        finish_hook(ctx, frame)
        return
    entry = frame["entry"]
    if "answer" in frame:
        action = frame.pop("answer")
        verb = action["verb"]
        if verb == "hit":
            entry["hits"][action["character"]] = entry["hits"].get(action["character"], 0) + 1
        elif verb in ("kill", "capture"):
            entry["killed" if verb == "kill" else "captured"].append(action["character"])
        elif verb == "flag":
            entry["flags"].append(action["flag"])
        elif verb == "unit":
            entry["units"][action["unit"]] = action["effect"]
        else:
            apply_hook_result(ctx, frame, action)
            return
    ctx.ask("hook", frame["text"], role=frame["role"], rule=frame["rule"], hook=frame["hook"],
            group=frame["group"], members=frame["members"], data=frame["data"], entry=entry,
            results=HOOK_RESULTS.get(frame["hook"], []))


@legal("hook")
def legal_hook(ctx: Ctx, pending: dict) -> list[dict]:
    kind = pending["hook"]
    if kind == "seats":
        return ([{"verb": "default"}]
                + [{"verb": "seats", "count": n} for n in range(len(pending["captives"]) + 1)])
    if kind == "atrocity":
        return [{"verb": "default"}, {"verb": "atrocity", "committed": False},
                {"verb": "atrocity", "committed": True}]
    entry = pending["entry"]
    actions: list[dict] = [{"verb": "default"}]
    if kind != "prisoner":
        gone = set(entry["killed"]) | set(entry["captured"])
        for name in pending["members"]:
            if name in gone:
                continue
            if entry["hits"].get(name, 0) < MAX_HOOK_HITS:
                actions.append({"verb": "hit", "character": name})
            actions.append({"verb": "kill", "character": name})
            actions.append({"verb": "capture", "character": name})
        for flag in pending["data"].get("flags", []):
            if flag not in entry["flags"]:
                actions.append({"verb": "flag", "flag": flag})
        unit = pending["data"].get("unit")
        if unit and unit["id"] not in entry["units"]:
            for effect in ("damaged", "destroyed"):
                actions.append({"verb": "unit", "unit": unit["id"], "effect": effect})
    actions += [{"verb": "result", "result": r} for r in HOOK_RESULTS[kind]]
    return actions


def apply_hook_result(ctx: Ctx, frame: dict, action: dict) -> None:
    """FIG-HOOK-1 step 3 and FIG-HOOK-8: log the result and apply what follows from it."""
    kind, rule = frame["hook"], frame["rule"]
    default = action["verb"] == "default"
    if kind == "seats":
        result = {"count": len(frame["data"]["captives"]) if default else action["count"]}
    elif kind == "atrocity":
        result = {"committed": False if default else action["committed"]}
    else:
        result = {"result": HOOK_RESULTS[kind][0] if default else action["result"]}
    entry = frame["entry"]
    if default:
        entry = {"hits": {}, "killed": [], "captured": [], "flags": [], "units": {}}
    result.update(flags=list(entry["flags"]))
    parts = [f"{k.replace('_', ' ')}: {v}" for k, v in result.items() if k != "flags" and v != []]
    parts += [f"{n} +{h} hits" for n, h in entry["hits"].items()]
    parts += [f"{n} killed" for n in entry["killed"]] + [f"{n} captured" for n in entry["captured"]]
    parts += [f"{u} {e}" for u, e in entry["units"].items()] + entry["flags"]
    ctx.note(rule, f"The players report ({kind}): {'; '.join(parts)}"
                   + (" [default responder]" if default else ""),
             refs=([frame["group"]] if frame["group"] else []) + frame["members"],
             auto_default=default)
    for name, hits in entry["hits"].items():
        ctx.add_hits(name, hits, "FIG-HOOK-8", f"{kind} reported by the players")
    group = ctx.group(frame["group"]) if frame["group"] else None
    for name in entry["killed"]:
        ctx.char(name)["dead"] = True
        ctx.change(rule, "kill", f"{name} is killed ({kind})", refs=[name])
    for name in entry["captured"]:
        c = ctx.char(name)
        c["captured"] = c["detected"] = True
        ctx.change(rule, "capture", f"{name} is captured ({kind})", refs=[name])
    for uid, effect in entry["units"].items():
        u = ctx.unit(uid)
        u[effect] = True
        ctx.change(rule, "unit", f"The {u['kind'].replace('_', ' ')} {uid} is {effect} "
                                 f"({kind})", refs=[uid])
    frame["result"] = result
    lost = [n for n in entry["killed"] + entry["captured"]]
    if group is not None and lost:
        for name in lost:
            if name in group["members"]:
                group["members"].remove(name)
                group.setdefault("lost", []).append(name)
        if group["status"] in ("active", "waiting"):
            if not group["members"]:
                abort(ctx, group, "FIG-HOOK-1", "no member is left")
            elif group["leader"] not in group["members"]:
                frame["stage"] = "leader"
                if not replace_leader(ctx, frame):
                    return
    finish_hook(ctx, frame)


def replace_leader(ctx: Ctx, frame: dict) -> bool:
    """FIG-HOOK-1: the phasing player names a new leader among the members left; a group with
    nobody able to lead its mission ends."""
    from struggle_desktop.games.freedom.missions import can_lead

    group = ctx.group(frame["group"])
    able = [m for m in group["members"] if can_lead(ctx, m, dict(group, leader=m))]
    if not able:
        group["leader"] = None
        abort(ctx, group, "FIG-HOOK-1", "nobody left can lead the mission")
        return True
    if len(able) > 1 and "answer" not in frame:
        ctx.ask("leader", f"{group['id']} lost its leader: name the new one", role="phasing",
                rule="FIG-HOOK-1", group=group["id"], candidates=able)
        return False
    name = frame.pop("answer")["character"] if len(able) > 1 else able[0]
    group["leader"] = name
    group["members"].remove(name)
    group["members"].insert(0, name)
    ctx.note("FIG-HOOK-1", f"{name} now leads {group['id']}", refs=[name, group["id"]])
    return True


@legal("leader")
def legal_leader(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "lead", "character": n} for n in pending["candidates"]]


def finish_hook(ctx: Ctx, frame: dict) -> None:
    ctx.pop()
    ctx.top()["hook"] = frame["result"]


# ================================================================================ bonus segment
def start_bonus(ctx: Ctx) -> None:
    """FIG-MIS-19 and FIG-MIS-20: eligible groups roll in assignment order; the loyalty read by
    the counts is the loyalty now (FIG-MIS-15, FIG-BDR-11)."""
    state = ctx.state
    state["flags"]["bonus_condition"] = ctx.condition()
    cancelled = state["flags"]["bonus_cancelled"]
    if cancelled:
        ctx.note("FIG-MIS-20", "The Bonus Dice Rolls segment is cancelled (FIG-RE-23): no bonus "
                               "rolls; J and Q groups still resolve")
    eligible = []
    for g in ctx.groups:
        if g["performer"] is not None:
            continue            # cells and camps never roll bonus dice (FIG-MSN-15)
        if g["status"] == "waiting" or (g["status"] == "active" and not cancelled):
            eligible.append(g["id"])
        elif g["status"] in ("aborted", "called_off"):
            ctx.note("FIG-MIS-19", f"{g['id']} was {g['status'].replace('_', ' ')}: no bonus "
                                   f"rolls", refs=[g["id"]])
    for gid in reversed(eligible):
        ctx.push("bonus_group", group=gid, stage="torture")


@procedure("bonus_group")
def bonus_group(ctx: Ctx, frame: dict) -> None:
    group = ctx.group(frame["group"])
    while True:
        stage = frame["stage"]
        if stage == "torture":
            if group["mission"] == "Q" and group["torture"] and not torture(ctx, frame, group):
                return
            if group["status"] == "aborted":
                ctx.pop()
                return
            frame["stage"] = "ratings"
        elif stage == "ratings":
            for name, rating in bonus.missing_for_count(ctx, group):
                if not ask_rating(ctx, frame, name, rating, "FIG-BDR-13"):
                    return
            frame["stage"] = "count"
        elif stage == "count":
            count, terms = bonus.bonus_count(ctx, group)
            group["count"] = count
            frame["max"] = max_level(ctx, group)
            rule = {"J": "FIG-BDR-12", "Q": "FIG-BDR-13"}.get(group["mission"], "FIG-BDR-8")
            useful = "no limit" if frame["max"] is None else f"useful up to level {frame['max']}"
            ctx.note(rule, f"{group['id']} ({group['mission']}) bonus count {count}: "
                           f"{bonus.terms_text(terms)}; level {group['level']}, {useful} "
                           f"(FIG-MIS-25)", refs=[group["id"]] + group["members"],
                     terms=[list(t) for t in terms])
            frame["stage"] = "rolls"
        elif stage == "rolls":
            if not bonus_rolls(ctx, frame, group):
                return
            ctx.pop()
            return


def bonus_rolls(ctx: Ctx, frame: dict, group: dict) -> bool:
    """FIG-MIS-19: one p2d6 at a time, only the group's own letter counting; stop at the
    maximum useful level (FIG-MIS-25) or when the player says so."""
    top = frame["max"]
    while True:
        i = group["rolled"]
        if top is not None and group["level"] >= top:
            if group["count"]:
                ctx.note("FIG-MIS-25", f"{group['id']} is at level {group['level']}, the most "
                                       f"that helps: rolling stops after {i} of "
                                       f"{group['count']}", refs=[group["id"]])
            return True
        if i >= group["count"]:
            return True
        if not frame.get("go"):
            if "answer" not in frame:
                ctx.ask("bonus_roll", f"{group['id']} ({group['mission']}): bonus roll {i + 1} "
                                      f"of {group['count']}, level {group['level']}",
                        role="phasing", rule="FIG-MIS-19", group=group["id"])
                return False
            if frame.pop("answer")["verb"] == "stop":
                ctx.note("FIG-MIS-19", f"{group['id']} stops rolling after {i} of "
                                       f"{group['count']}", refs=[group["id"]])
                return True
            frame["go"] = True
        r = ctx.need(frame, f"b{i}", "p2d6", "FIG-MIS-19",
                     f"{group['id']} bonus roll {i + 1} of {group['count']}", refs=[group["id"]])
        if r is None:
            return False
        frame["go"] = False
        group["rolled"] = i + 1
        letters = ctx.data.success_letters(r["result"])
        if group["mission"] in letters:
            group["level"] += 1
            ctx.note("FIG-MIS-14", f"Bonus {r['result']} \"{' '.join(letters)}\": "
                                   f"{group['id']} reaches level {group['level']}",
                     refs=[group["id"]])


@legal("bonus_roll")
def legal_bonus_roll(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "roll"}, {"verb": "stop"}]


def torture(ctx: Ctx, frame: dict, group: dict) -> bool:
    """FIG-MSN-11: d6 hits to the prisoner before any roll; if he dies the mission ends. His
    death is decided from his EF when it is known (hits reaching EF), else by the players."""
    prisoner = group["target"]
    if "tortured" not in frame:
        r = ctx.need(frame, "torture", "d6", "FIG-MSN-11", f"Torture of {prisoner}",
                     refs=[prisoner, group["id"]])
        if r is None:
            return False
        frame["tortured"] = True
        ctx.add_hits(prisoner, r["result"], "FIG-MSN-11", "torture")
    c = ctx.char(prisoner)
    if "hook" in frame:
        dies = frame.pop("hook")["result"] == "dies"
    elif c["ef"] is not None:
        dies = c["hits"] >= c["ef"]
        ctx.note("FIG-MSN-11", f"{prisoner} has {c['hits']} hits against EF {c['ef']}: "
                               f"{'he dies' if dies else 'he lives'}", refs=[prisoner])
    else:
        push_hook(ctx, "prisoner", "FIG-MSN-11", f"{prisoner} has taken {c['hits']} hits under "
                                                 f"torture; his EF is not known. Does he die?",
                  None, role="enemy", prisoner=prisoner, hits=c["hits"])
        return False
    if dies:
        c["dead"] = True
        ctx.change("FIG-MSN-11", "kill", f"{prisoner} dies under torture", refs=[prisoner])
        abort(ctx, group, "FIG-MSN-11", "the prisoner died")
    return True


# ================================================================================ failures
@procedure("failures")
def failures(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-21: after all bonus rolls, in assignment order: A and E at level 0 not aborted
    or called off, J at level 0."""
    ctx.state["phase"] = "failure"
    groups = ctx.groups
    if "i" not in frame and not any(g["level"] == 0 and g["status"] in ("active", "waiting")
                                    and g["mission"] in "AEJ" for g in groups):
        ctx.note("FIG-MIS-21", "No failure procedure applies")
    while frame.setdefault("i", 0) < len(groups):
        g = groups[frame["i"]]
        if g["level"] == 0 and g["failure"] is None and g["status"] in ("active", "waiting"):
            letter = g["mission"]
            if letter == "A":
                if g["performer"] is not None:
                    ctx.note("FIG-MSN-15", f"{g['id']}: a camp's failed assassination strikes "
                                           f"no character")
                else:
                    r = ctx.need(frame, f"a{g['id']}", "d10", "FIG-MSN-1",
                                 f"{g['id']} failed assassination", refs=[g["id"]] + g["members"])
                    if r is None:
                        return
                    band = next(b for b in ctx.data.mission("A").failure["results"]
                                if b["from"] <= r["result"] <= b["to"])
                    g["failure"] = band["effect_key"]
                    ctx.note("FIG-MSN-1", f"{g['id']} failure d10 {r['result']}: "
                                          f"{band['effect_key'].replace('_', ' ')}",
                             refs=[g["id"]] + g["members"])
            elif letter == "E":
                g["failure"] = "shift"
                ctx.note("FIG-MSN-5", f"{g['id']} failed: loyalty will shift one space toward "
                                      f"the {ctx.enemy} side", refs=[g["id"]])
            elif letter == "J":
                r = ctx.need(frame, f"j{g['id']}", "2d6", "FIG-FSQ-1",
                             f"{g['id']} failed spaceship quest", refs=[g["id"]] + g["members"])
                if r is None:
                    return
                band = ctx.data.failed_spaceship_quest(r["result"])
                g["failure"] = band.effect_key
                ctx.note("FIG-MSN-9", f"{g['id']} failed spaceship quest, 2d6 {r['result']}: "
                                      f"{band.summary}", refs=[g["id"]])
        frame["i"] += 1
    ctx.pop()


# ================================================================================ report
def finish(ctx: Ctx) -> None:
    """FIG-MIS-24: the list of changes for the players to apply on their board, each with its
    rule ID: the missions' results, then every change in the order it happened."""
    state = ctx.state
    state["phase"] = "report"
    report = []
    for g in ctx.groups:
        name = ctx.data.mission(g["mission"]).name
        who = g["performer"] or g["leader"] or "nobody"
        status = {"aborted": "aborted", "called_off": f"called off at level {g['level']}"}.get(
            g["status"], f"level {g['level']}")
        report.append({"rule": "FIG-MIS-24", "kind": "mission",
                       "text": f"{g['id']} {g['mission']} ({name}, {who}): {status}",
                       "refs": [g["id"]]})
    report += state["changes"]
    held = ctx.env["mulligans"]
    report.append({"rule": "FIG-MIS-23", "kind": "mulligans",
                   "text": f"Mulligans held: rebel {held['rebel']}, imperial {held['imperial']}",
                   "refs": []})
    ctx.note("FIG-MIS-24", f"The Mission phase of this environs is over: {len(report)} lines in "
                           f"the report")
    state["outcome"] = report


def result_summary(state: dict) -> str:
    """A short outcome label for simulations: each group's mission and level, ``x`` when
    aborted, ``c`` when called off (``none`` without groups)."""
    parts = []
    for g in state["groups"]:
        mark = {"aborted": "x", "called_off": "c"}.get(g["status"], "")
        parts.append(f"{g['mission']}{g['level']}{mark}")
    return " ".join(parts) or "none"
