"""The sequence of play: set-up, the scenario's opening, and the six phases of a turn.

``game`` deals the value chits and runs the scenario's opening (Civil War: both sides build
with 30 RP; Invasion: the defender sets up, the invader builds), then one ``turn`` frame per
turn (BFG-SEQ-1): Action Chit Draw, Deployment, Actions (with the region resolutions of
combat.py), Politics, Build and the Victory check.
"""

from __future__ import annotations

from itertools import combinations

from struggle_desktop.games.battles import combat
from struggle_desktop.games.battles.context import (SHORT, Ctx, chit_sort_key, chit_type,
                                                    other, value_chit_sort_key)
from struggle_desktop.games.battles.data import SLOTS
from struggle_desktop.games.battles.registry import legal, procedure

SLOT_NAMES = {"C": "Combat", "P": "Political", "R": "Resource"}


# ================================================================================ set-up
@procedure("game")
def game(ctx: Ctx, frame: dict) -> None:
    step = frame.get("step", "deal")
    if step == "deal":
        deal_value_chits(ctx)
        frame["step"] = "turns"
        ctx.push("opening_invasion" if ctx.state["mode"] == "invasion" else "opening_civil")
    else:
        ctx.state["turn"] += 1
        ctx.push("turn", step="start")


def deal_value_chits(ctx: Ctx) -> None:
    """BFG-SETUP-3: each region gets one C, one P and one R chit, each group shuffled on its
    own; with mixed chits (BFG-SETUP-4, BFG-SETUP-5) all 18 are dealt region by region into
    the C, P and R slots in turn, and a chit counts for the slot it lands in."""
    chits = {letter: [f"{letter}{v}" for v in values]
             for letter, values in ctx.data["counter_mix"]["value_chits"].items()}
    value_of = {f"{letter}{v}": v for letter, values in
                ctx.data["counter_mix"]["value_chits"].items() for v in values}
    mixed = ctx.option("mixed_chits")
    remaining = sorted((c for group in chits.values() for c in group), key=value_chit_sort_key)
    for number in range(1, 7):
        region = ctx.region(number)
        for slot in SLOTS:
            pool = remaining if mixed else [c for c in remaining if c[0] == slot]
            rule = "BFG-SETUP-5" if mixed else "BFG-SETUP-3"
            chit = pool[ctx.draw_index(len(pool), rule,
                                       f"{SLOT_NAMES[slot]} chit for {ctx.region_name(number)}")]
            remaining.remove(chit)
            region[slot] = {"chit": chit, "value": value_of[chit], "plus": 0}
    ctx.note("BFG-SETUP-3", "value chits dealt: " + "; ".join(
        f"{ctx.region_name(n)} C{ctx.slot_value(n, 'C')} P{ctx.slot_value(n, 'P')} "
        f"R{ctx.slot_value(n, 'R')}" for n in range(1, 7)), refs=list(range(1, 7)))


@procedure("opening_civil")
def opening_civil(ctx: Ctx, frame: dict) -> None:
    """BFG-SCN-4: both sides build from their own pools with the scenario's RP (public);
    what is left carries over (at most 10) into turn 1's Build phase. Each side's 5 chits
    are drawn in turn 1's Action Chit Draw."""
    if frame.get("step") is None:
        frame["step"] = "done"
        scenario = ctx.state["scenario_data"]
        for side in ("blue", "red"):
            ctx.player(side)["rp"] += scenario["opening_rp"][side]
        ctx.note("BFG-SCN-4", "opening build: each side has "
                 f"{scenario['opening_rp']['blue']} RP", refs=[])
        ctx.push("build_phase", opening=True)
    else:
        ctx.pop()


@procedure("opening_invasion")
def opening_invasion(ctx: Ctx, frame: dict) -> None:
    """BFG-SCN-8, BFG-SCN-9, BFG-SCN-10: the defender sets up in every region, then the
    invader builds with 30 RP and draws 5 chits; turn 1 then runs without a chit draw or
    secret deployment."""
    invader = ctx.state["invader"]
    defender = other(invader)
    step = frame.get("step", "defend")
    if step == "defend":
        answer = frame.pop("answer", None)
        if answer is not None and _defender_answer(ctx, answer, defender):
            frame["step"] = "build"
            return
        ctx.ask("defend", f"{SHORT[defender]} (defender): place fleets in each region, worth "
                "at most its Combat + Resource", role=defender, rule="BFG-SCN-8")
    elif step == "build":
        ctx.player(invader)["rp"] += ctx.state["scenario_data"]["opening_rp"]["invader"]
        ctx.note("BFG-SCN-6", f"{SHORT[invader]} (invader) builds with "
                 f"{ctx.player(invader)['rp']} RP")
        frame["step"] = "draw"
        ctx.push("build_phase", opening=True, sides=[invader])
    else:
        draw_chits(ctx, {invader: ctx.data.procedure["hand_limit"]}, "BFG-SCN-9")
        ctx.pop()


def defence_budget(ctx: Ctx, number: int) -> int:
    return ctx.slot_value(number, "C") + ctx.slot_value(number, "R")


def defence_spent(ctx: Ctx, number: int, side: str) -> int:
    return sum(ctx.fleet_type(f).cost for f in ctx.in_region(number, side))


@legal("defend")
def legal_defend(ctx: Ctx, p: dict) -> list[dict]:
    side = p["role"]
    actions = []
    for number in range(1, 7):
        left = defence_budget(ctx, number) - defence_spent(ctx, number, side)
        for code, ftype in ctx.data.fleet_types.items():
            if ftype.buildable and ftype.cost <= left and ctx.fleets_where(side, "pool", ftype=code):
                actions.append({"verb": "place", "region": number, "type": code})
        for fid in ctx.in_region(number, side):
            actions.append({"verb": "unplace", "fleet": fid})
        garrisoned = ctx.state["defence_garrison"][str(number)]
        actions.append({"verb": "garrison", "region": number, "on": not garrisoned})
    actions.append({"verb": "done"})
    return actions


def _defender_answer(ctx: Ctx, answer: dict, side: str) -> bool:
    """Apply one set-up step of the defender; True when the set-up is finished."""
    verb = answer["verb"]
    if verb == "place":
        fid = ctx.fleets_where(side, "pool", ftype=answer["type"])[0]
        ctx.move_fleet(fid, "map", answer["region"])
        ctx.fleet(fid)["waiting"] = False
    elif verb == "unplace":
        ctx.fleet(answer["fleet"]).update(at="pool", region=None, seq=0)
    elif verb == "garrison":
        ctx.state["defence_garrison"][str(answer["region"])] = answer["on"]
    else:
        for number in range(1, 7):
            fleets = ctx.in_region(number, side)
            ctx.note("BFG-SCN-8", f"{SHORT[side]} sets up {ctx.list_fleets(fleets)} in "
                     f"{ctx.region_name(number)}", refs=[number, *fleets])
            qualifies = combat.garrison_total(ctx, fleets) > ctx.slot_value(number, "C")
            if fleets and qualifies and ctx.state["defence_garrison"][str(number)]:
                for fid in fleets:
                    ctx.fleet(fid)["at"] = "garrison"
                ctx.region(number)["controller"] = side
                ctx.note("BFG-SCN-8", f"they garrison {ctx.region_name(number)}",
                         refs=[number])
        ctx.state.pop("defence_garrison")
        return True
    return False


# ================================================================================ turn
@procedure("turn")
def turn(ctx: Ctx, frame: dict) -> None:
    step = frame["step"]
    state = ctx.state
    surprise = state["mode"] == "invasion" and state["turn"] == 1   # BFG-SCN-10
    if step == "start":
        state["phase"] = "start"
        ctx.log("BFG-SEQ-1", "turn", f"Turn {state['turn']} begins", refs=[])
        state["log"][-1]["tracks"] = tracks(ctx)
        for number in range(1, 7):                 # BFG-SEQ-3
            ctx.region(number)["resolved"] = False
        if state["turn"] >= 2:                     # BFG-SEQ-2: from turn 2 on
            if ctx.option("switcheroo"):
                switcheroo(ctx)
            if ctx.option("better"):
                get_better(ctx)
        frame["step"] = "draw"
    elif step == "draw":
        state["phase"] = "draw"
        frame["step"] = "deploy"
        if not surprise:
            ctx.push("chit_draw", step="discard")
    elif step == "deploy":
        state["phase"] = "deploy"
        frame["step"] = "actions"
        ctx.push("deployment", sides=[state["invader"]] if surprise else ["red", "blue"],
                 open=surprise)
    elif step == "actions":
        state["phase"] = "actions"
        frame["step"] = "politics"
        ctx.push("actions", step="initiative", first=state["invader"] if surprise else None)
    elif step == "politics":
        state["phase"] = "politics"
        politics(ctx)
        frame["step"] = "build"
    elif step == "build":
        state["phase"] = "build"
        frame["step"] = "victory"
        ctx.push("build_phase", opening=False)
    elif step == "victory":
        state["phase"] = "victory"
        cleanup(ctx)
        check_victory(ctx)
        ctx.pop()


def tracks(ctx: Ctx) -> dict:
    """The public tracks for turn lines and summaries."""
    return {"ci": ctx.ci, "rp_blue": ctx.player("blue")["rp"], "rp_red": ctx.player("red")["rp"],
            "regions_blue": len(ctx.controlled_by("blue")),
            "regions_red": len(ctx.controlled_by("red"))}


def pick_value_chit(ctx: Ctx, rule: str, why: str, exclude: tuple | None = None) -> tuple[int, str]:
    """BFG-OPT-5, BFG-OPT-8: a d6 for the region, a d6 for the slot (1-2 C, 3-4 P, 5-6 R); a
    pick equal to ``exclude`` is rolled again (BFG-OPT-6)."""
    while True:
        number, slot_die = ctx.roll_d6s(2, rule, why)
        pick = (number, SLOTS[(slot_die - 1) // 2])
        if pick != exclude:
            return pick


def switcheroo(ctx: Ctx) -> None:
    """BFG-OPT-5, BFG-OPT-6: two value chits swap places, keeping their numbers and upgrades."""
    swaps = 1
    if ctx.option("switcheroo_d6"):
        swaps = ctx.roll_d6s(1, "BFG-OPT-5", "Switcheroo: number of swaps")[0]
    for _ in range(swaps):
        first = pick_value_chit(ctx, "BFG-OPT-5", "Switcheroo: first chit")
        second = pick_value_chit(ctx, "BFG-OPT-6", "Switcheroo: second chit", exclude=first)
        a, b = ctx.region(first[0]), ctx.region(second[0])
        a[first[1]], b[second[1]] = b[second[1]], a[first[1]]
        ctx.note("BFG-OPT-5", f"Switcheroo: {ctx.region_name(first[0])} {SLOT_NAMES[first[1]]} "
                 f"and {ctx.region_name(second[0])} {SLOT_NAMES[second[1]]} swap: now "
                 f"{ctx.slot_value(*first)} and {ctx.slot_value(*second)}",
                 refs=[first[0], second[0]])


def get_better(ctx: Ctx) -> None:
    """BFG-OPT-7, BFG-OPT-8: one value chit, picked with the Switcheroo rolls, gains +1 for
    good."""
    number, slot = pick_value_chit(ctx, "BFG-OPT-8", "Things Just Get Better: which chit")
    ctx.region(number)[slot]["plus"] += 1
    ctx.note("BFG-OPT-7", f"{ctx.region_name(number)} {SLOT_NAMES[slot]} rises to "
             f"{ctx.slot_value(number, slot)}", refs=[number])


# ============================================================================ chit draw
@procedure("chit_draw")
def chit_draw(ctx: Ctx, frame: dict) -> None:
    """BFG-CHIT-1, BFG-CHIT-2, BFG-HID-5: Blue, then Red, may set chits aside; then both draw
    up to the hand limit and the set-aside chits go back to the pool."""
    answer = frame.pop("answer", None)
    if answer is not None:
        side = frame["asking"]
        discards = ctx.player(side)["discards"]
        if answer["verb"] == "discard":
            ctx.hand(side).remove(answer["chit"])
            discards.append(answer["chit"])
        elif answer["verb"] == "keep":
            discards.remove(answer["chit"])
            ctx.hand(side).append(answer["chit"])
            ctx.hand(side).sort(key=chit_sort_key)
        else:
            frame.setdefault("done", []).append(side)
    done = frame.setdefault("done", [])
    for side in ("blue", "red"):
        if side in done:
            continue
        if not ctx.hand(side) and not ctx.player(side)["discards"]:
            done.append(side)
            continue
        frame["asking"] = side
        ctx.ask("discard", f"{SHORT[side]}: set aside any chits before drawing", role=side,
                rule="BFG-CHIT-2")
        return
    limit = ctx.data.procedure["hand_limit"]
    for side in ("blue", "red"):
        discards = ctx.player(side)["discards"]
        if discards:
            ctx.note_private(side, "BFG-CHIT-2", f"{SHORT[side]} sets aside "
                             f"{', '.join(discards)}",
                             f"{SHORT[side]} sets aside {len(discards)} chit(s)")
    draw_chits(ctx, {s: limit - len(ctx.hand(s)) for s in ("blue", "red")}, "BFG-CHIT-1")
    for side in ("blue", "red"):
        for chit in ctx.player(side)["discards"]:
            ctx.return_chit(chit)
        ctx.player(side)["discards"] = []
    ctx.pop()


@legal("discard")
def legal_discard(ctx: Ctx, p: dict) -> list[dict]:
    side = p["role"]
    return ([{"verb": "discard", "chit": c} for c in ctx.hand(side)]
            + [{"verb": "keep", "chit": c} for c in ctx.player(side)["discards"]]
            + [{"verb": "done"}])


def draw_chits(ctx: Ctx, wanted: dict[str, int], rule: str) -> None:
    """Each side draws from its own chit pool first (BFG-CHIT-3), then from the shared pool;
    when both need the shared pool they alternate one chit at a time, in the CI's order
    (BFG-CHIT-4, BFG-CHIT-5). An empty pool leaves the hand short (BFG-CHIT-6)."""
    drawn: dict[str, list[str]] = {s: [] for s in wanted}
    need = dict(wanted)

    def draw_from(side: str, pool: list[str], why: str) -> None:
        chit = pool.pop(ctx.draw_secret_index(side, len(pool), "BFG-SETUP-8", why))
        ctx.hand(side).append(chit)
        drawn[side].append(chit)
        need[side] -= 1

    for side in wanted:
        own = ctx.player(side)["own_chits"]
        while need[side] > 0 and own:
            draw_from(side, own, f"{SHORT[side]} draws from its own chits")
    shared = ctx.shared_chits()
    order = [ctx.ci_first(), other(ctx.ci_first())]
    while shared and any(need.get(s, 0) > 0 for s in order):
        for side in order:
            if need.get(side, 0) > 0 and shared:
                draw_from(side, shared, f"{SHORT[side]} draws from the pool")
    for side, chits in drawn.items():
        ctx.hand(side).sort(key=chit_sort_key)
        if chits:
            ctx.note_private(side, rule, f"{SHORT[side]} draws {', '.join(chits)}",
                             f"{SHORT[side]} draws {len(chits)} chit(s)")
        if need[side] > 0:
            ctx.note("BFG-CHIT-6", f"{SHORT[side]} finds no more chits to draw: the hand "
                     f"stays at {len(ctx.hand(side))}")


# =========================================================================== deployment
@procedure("deployment")
def deployment(ctx: Ctx, frame: dict) -> None:
    """BFG-DEP-1, BFG-DEP-2, BFG-DEP-3, BFG-HID-5: Red, then Blue, assign every fleet of their
    display to a region in secret (TH may stay back); both assignments are then revealed
    together."""
    answer = frame.pop("answer", None)
    if answer is not None:
        side = frame["asking"]
        plan = ctx.player(side)["deploy"]
        if answer["verb"] == "assign":
            plan[:] = [pair for pair in plan if pair[0] != answer["fleet"]]
            plan.append([answer["fleet"], answer["region"]])
        elif answer["verb"] == "unassign":
            plan[:] = [pair for pair in plan if pair[0] != answer["fleet"]]
        else:
            frame.setdefault("done", []).append(side)
    done = frame.setdefault("done", [])
    for side in frame["sides"]:
        if side in done:
            continue
        for fid in ctx.fleets_where(side, "display"):
            ctx.fleet(fid)["waiting"] = False     # BFG-DEP-7: they may deploy now
        if not ctx.fleets_where(side, "display"):
            done.append(side)
            continue
        frame["asking"] = side
        ctx.ask("deploy", f"{SHORT[side]}: assign your fleets to the regions"
                + ("" if frame["open"] else " (in secret)"), role=side,
                rule="BFG-SCN-10" if frame["open"] else "BFG-DEP-1")
        return
    reveal_deployment(ctx, frame["sides"])
    ctx.pop()


def deployable(ctx: Ctx, side: str) -> list[str]:
    """The fleets on the display; garrisons stay on the map and are not redeployed (BFG-DEP-5,
    BFG-GAR-6)."""
    return ctx.fleets_where(side, "display")


@legal("deploy")
def legal_deploy(ctx: Ctx, p: dict) -> list[dict]:
    """Any fleet of the display, TH included (BFG-DEP-4), to any region, one that holds a
    garrison of either side too (BFG-DEP-6); done once every fleet but the TH is assigned."""
    side = p["role"]
    plan = {fid: region for fid, region in ctx.player(side)["deploy"]}
    actions = [{"verb": "assign", "fleet": fid, "region": n}
               for fid in deployable(ctx, side) for n in range(1, 7) if plan.get(fid) != n]
    actions.extend({"verb": "unassign", "fleet": fid} for fid in plan)
    missing = [f for f in deployable(ctx, side)
               if f not in plan and ctx.fleet(f)["type"] != "TH"]   # BFG-DEP-2, BFG-DEP-3
    if not missing:
        actions.append({"verb": "done"})
    return actions


def reveal_deployment(ctx: Ctx, sides: list[str]) -> None:
    """BFG-DEP-1: both plans go onto the map together, in the order they were made (the
    line-up order of BFG-CMB-19)."""
    for side in ("blue", "red"):
        if side not in sides:
            continue
        plan = ctx.player(side)["deploy"]
        by_region: dict[int, list[str]] = {}
        for fid, number in plan:
            ctx.move_fleet(fid, "map", number)
            by_region.setdefault(number, []).append(fid)
        ctx.player(side)["deploy"] = []
        held = ctx.fleets_where(side, "display")
        ctx.note("BFG-DEP-1", kind="reveal", text=f"{SHORT[side]} deploys: " + ("; ".join(
            f"{ctx.region_name(n)} {ctx.list_fleets(fids)}" for n, fids in sorted(by_region.items()))
            or "nothing") + (f" (held back: {ctx.list_fleets(held)})" if held else ""),
            refs=sorted(by_region))


# ============================================================================= actions
@procedure("actions")
def actions_phase(ctx: Ctx, frame: dict) -> None:
    """BFG-ACT-1, BFG-ACT-3, BFG-ACT-6: initiative, then the players alternate actions until
    every region has been resolved."""
    state = ctx.state
    step = frame["step"]
    if step == "initiative":
        first = frame["first"]
        if first is None:
            first = roll_initiative(ctx)
        else:
            ctx.note("BFG-SCN-10", f"{SHORT[first]} (invader) strikes first")
            frame["forced_resolve"] = True
        state["to_act"] = first
        frame["step"] = "act"
        return
    if step == "next":
        state["to_act"] = other(state["to_act"])
        frame["step"] = "act"
    answer = frame.pop("answer", None)
    if answer is not None:
        frame.pop("forced_resolve", None)
        frame["step"] = "next"
        take_action(ctx, state["to_act"], answer)
        return
    if not ctx.unresolved():                          # BFG-ACT-6
        state["to_act"] = None
        ctx.note("BFG-ACT-6", "every region is resolved: the Actions phase ends")
        ctx.pop()
        return
    ctx.ask("action", f"{SHORT[state['to_act']]}: resolve a region, play a chit or deploy "
            "Trans-humans", role=state["to_act"], rule="BFG-ACT-3",
            forced_resolve=bool(frame.get("forced_resolve")))


def roll_initiative(ctx: Ctx) -> str:
    """BFG-ACT-1, BFG-ACT-2: each rolls a d6, the higher acts first, ties roll again."""
    while True:
        blue, red = ctx.roll_d6s(2, "BFG-ACT-1", "initiative (Blue, Red)")
        if blue != red:
            first = "blue" if blue > red else "red"
            ctx.note("BFG-ACT-1", f"{SHORT[first]} takes the first action")
            return first
        ctx.note("BFG-ACT-2", "a tie: both roll again")


def held_back_th(ctx: Ctx, side: str) -> list[str]:
    """TH on the display that may still enter this turn (BFG-DEP-3, BFG-ACT-7): not those
    that came back to base during the turn (BFG-DEP-7)."""
    return [f for f in ctx.fleets_where(side, "display", ftype="TH")
            if not ctx.fleet(f)["waiting"]]


@legal("action")
def legal_action(ctx: Ctx, p: dict) -> list[dict]:
    """BFG-ACT-3, BFG-ACT-4: resolve a region not yet resolved, play a chit or bring in
    held-back TH (BFG-ACT-7). There is no pass (BFG-ACT-5): resolving is always offered."""
    side = p["role"]
    regions = ctx.unresolved()
    actions = [{"verb": "resolve", "region": n} for n in regions]
    if p.get("forced_resolve"):
        return actions
    for chit in ctx.hand(side):
        kind = chit_type(chit)
        if kind == "Build":
            actions.append({"verb": "play", "chit": chit})
        elif kind == "Move":
            actions.extend({"verb": "play", "chit": chit, "from": a, "to": b}
                           for a in regions for b in regions if a != b)
        elif kind == "Tactical":
            actions.extend({"verb": "play", "chit": chit, "fleet": f}
                           for f in tactical_targets(ctx, side))
        elif kind == "Illumination":
            actions.append({"verb": "play", "chit": chit, "effect": "ci"})
            if ctx.fleets_where(side, "supply"):           # BFG-CHIT-17
                actions.extend({"verb": "play", "chit": chit, "effect": "th", "region": n}
                               for n in regions)
    held = held_back_th(ctx, side)
    for size in range(1, len(held) + 1):
        for group in combinations(held, size):
            actions.extend({"verb": "deploy_th", "fleets": list(group), "region": n}
                           for n in regions)
    return actions


def chit_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """Why ``action``, a chit play, is not among the legal actions, when a rule says why
    (for the window's refusal); None when no rule below explains it."""
    chit, side = action.get("chit"), pending["role"]
    if pending["kind"] != "action":       # BFG-ACT-3: a chit is played as an action
        return f"chits are played as an action of the Actions phase, not now ({pending['text']})"
    if pending.get("forced_resolve"):
        return "a region must be resolved now: no chit may be played"
    if chit not in ctx.hand(side):
        return f"{chit} is not in your hand"
    kind, regions = chit_type(chit), ctx.unresolved()
    if kind == "Tactical":                 # BFG-CHIT-12, BFG-CHIT-13
        where = ("one of your fleets in an unresolved region that is not a World Ship and "
                 "carries no Tactical chit yet")
        if not tactical_targets(ctx, side):
            return f"{chit} goes on {where}: you have no such fleet now"
        if action.get("fleet") not in tactical_targets(ctx, side):
            return f"{chit} goes on {where}, and {action.get('fleet')} is not one"
    if kind == "Move" and len(regions) < 2:
        return f"{chit} moves fleets between two unresolved regions: fewer are left"
    if kind == "Illumination" and action.get("effect") == "th" \
            and not ctx.fleets_where(side, "supply"):     # BFG-CHIT-17
        return f"{chit} brings Trans-humans from your supply, and it holds none"
    return None


def resolve_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """Why ``action``, resolving a region, is not among the legal actions, when a rule says
    why (for the window's refusal of a click on a region); None when none below explains it."""
    region = action.get("region")
    if pending["kind"] != "action":       # BFG-ACT-3: resolving a region is an action
        return f"regions are resolved as an action of the Actions phase, not now " \
               f"({pending['text']})"
    if not isinstance(region, int) or isinstance(region, bool) or not 1 <= region <= 6:
        return None
    left = ", ".join(ctx.region_name(n) for n in ctx.unresolved())
    if ctx.region(region)["resolved"]:    # BFG-ACT-4: each region once a turn
        return f"{ctx.region_name(region)} has been resolved this turn; still to resolve: {left}"
    return None


def deploy_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """Why ``action``, assigning a fleet to a region, is not among the legal actions, when a
    rule says why (for the window's refusal of a drag); None when none below explains it."""
    fid, side = action.get("fleet"), pending["role"]
    if pending["kind"] != "deploy":       # BFG-DEP-1: fleets are assigned while deploying
        return f"fleets are assigned to regions in the Deployment phase, not now " \
               f"({pending['text']})"
    if not isinstance(fid, str) or fid not in ctx.state["fleets"]:
        return None
    fleet, label = ctx.fleet(fid), ctx.fleet_label(fid)
    if fleet["owner"] != side:
        return f"{label} is {SHORT[fleet['owner']]}'s fleet, not {SHORT[side]}'s"
    if fid in deployable(ctx, side):
        return None
    at = fleet["at"]
    if at == "garrison":                  # BFG-DEP-5, BFG-GAR-6: garrisons stay
        return f"{label} garrisons {ctx.region_name(fleet['region'])}: a garrison stays " \
               "where it is; only the fleets on your display are deployed"
    if at == "map":
        return f"{label} is on the map in {ctx.region_name(fleet['region'])}; only the " \
               "fleets on your display are deployed"
    where = {"common": "in the common pool", "supply": "in your Trans-human supply",
             "pool": "in your force pool, not built"}.get(at, "not on your display")
    return f"{label} is {where}; only the fleets on your display are deployed"


def tactical_targets(ctx: Ctx, side: str) -> list[str]:
    """BFG-CHIT-12, BFG-CHIT-13: own fleets on the map in unresolved regions, not a WS, not already
    carrying a chit."""
    unresolved = set(ctx.unresolved())
    return [f for f in ctx.fleets_where(side, ("map", "garrison"))
            if ctx.fleet(f)["region"] in unresolved and ctx.fleet(f)["type"] != "WS"
            and not ctx.fleet(f)["tactical"]]


def take_action(ctx: Ctx, side: str, action: dict) -> None:
    verb = action["verb"]
    if verb == "resolve":
        combat.start_resolution(ctx, action["region"], side)
    elif verb == "play":
        ctx.push("chit", side=side, action=action, step="reveal")
    else:
        for fid in action["fleets"]:
            ctx.move_fleet(fid, "map", action["region"])
        ctx.note("BFG-ACT-7", f"{SHORT[side]} brings {ctx.list_fleets(action['fleets'])} "
                 f"into {ctx.region_name(action['region'])}",
                 refs=[action["region"], *action["fleets"]])


# ================================================================================ chits
def describe_play(ctx: Ctx, action: dict) -> str:
    chit = action["chit"]
    kind = chit_type(chit)
    if kind == "Move":
        return f"{chit}: Alpha Fleets and Imperial Orders from " \
               f"{ctx.region_name(action['from'])} to {ctx.region_name(action['to'])}"
    if kind == "Tactical":
        return f"{chit} on {ctx.fleet_label(action['fleet'])}"
    if kind == "Illumination":
        if action["effect"] == "ci":
            return f"{chit}: move the Chaos Index by a d6"
        return f"{chit}: a Trans-human into {ctx.region_name(action['region'])}"
    return f"{chit}: 1 RP per controlled region"


@procedure("chit")
def chit_play(ctx: Ctx, frame: dict) -> None:
    """BFG-CHIT-7, BFG-CHIT-18, BFG-CHIT-19: a played chit is shown, the opponent may repress
    it, then it acts (each kind's branch names its rules). The opponent is asked after every
    chit but Repression, whether it holds a Repression chit or not (BFG-HID-7)."""
    side, action = frame["side"], frame["action"]
    chit = action["chit"]
    opponent = other(side)
    step = frame["step"]
    if step == "reveal":
        ctx.hand(side).remove(chit)
        ctx.state["played"].append(chit)
        # Public from now on (BFG-HID-2): the program player's Repression reads it.
        ctx.state["last_chit"] = {"side": side, "chit": chit, "action": dict(action),
                                  "cancelled": False}
        ctx.note("BFG-CHIT-7", f"{SHORT[side]} plays {describe_play(ctx, action)}",
                 refs=_refs_of(action))
        frame["step"] = "react"
        ctx.ask("react", f"{SHORT[opponent]}: {SHORT[side]} plays {chit}. Repress it?",
                role=opponent, rule="BFG-CHIT-19", chit=chit)
        return
    if step == "react":
        answer = frame.pop("answer")
        if answer["verb"] == "repress":
            ctx.hand(opponent).remove(answer["chit"])
            ctx.return_chit(answer["chit"])
            _release(ctx, chit)
            ctx.state["last_chit"]["cancelled"] = True
            ctx.note("BFG-CHIT-18", f"{SHORT[opponent]} represses it with {answer['chit']}: "
                     f"{chit} has no effect")
            ctx.pop()
            return
        frame["step"] = "effect"
    kind = chit_type(chit)
    if step == "fleets":
        answer = frame.pop("answer")
        for fid in answer["fleets"]:
            ctx.move_fleet(fid, "map", action["to"])
        ctx.note("BFG-CHIT-10", f"{SHORT[side]} moves {ctx.list_fleets(answer['fleets'])} to "
                 f"{ctx.region_name(action['to'])}", refs=[action["to"], *answer["fleets"]])
        _release(ctx, chit)
        ctx.pop()
        return
    if kind == "Build":
        gained = len(ctx.controlled_by(side))     # BFG-CHIT-8, BFG-CHIT-9: banked now
        ctx.player(side)["banked"] += gained
        ctx.note("BFG-CHIT-9", f"{SHORT[side]} banks {gained} RP for the Build phase")
    elif kind == "Move":
        if movers(ctx, side, action["from"]):
            frame["step"] = "fleets"
            ctx.ask("move_fleets", f"{SHORT[side]}: which Alpha Fleets and Imperial Orders "
                    f"go from {ctx.region_name(action['from'])} to "
                    f"{ctx.region_name(action['to'])}?", role=side, rule="BFG-CHIT-11",
                    origin=action["from"], destination=action["to"])
            return
        ctx.note("BFG-CHIT-11", f"{SHORT[side]} has nothing there to move")
    elif kind == "Tactical":
        ctx.state["played"].remove(chit)
        ctx.fleet(action["fleet"])["tactical"] = chit
        ctx.note("BFG-CHIT-12", f"{ctx.fleet_label(action['fleet'])} gets an extra die until "
                 "the end of the turn", refs=[action["fleet"]])
        ctx.pop()
        return
    elif kind == "Illumination":
        if action["effect"] == "ci":
            roll = ctx.roll_d6s(1, "BFG-CHIT-16", "Illumination")[0]
            # BFG-POL-3: at once; the CI is never clamped (BFG-COMP-17)
            ctx.state["ci"] += roll if side == "blue" else -roll
            ctx.note("BFG-POL-3", f"the Chaos Index moves {roll} toward {SHORT[side]}: "
                     f"now {ctx.ci}")
        else:
            fid = ctx.fleets_where(side, "supply")[0]
            ctx.move_fleet(fid, "map", action["region"])
            ctx.note("BFG-CHIT-17", f"{SHORT[side]} recruits {fid} into "
                     f"{ctx.region_name(action['region'])}", refs=[fid, action["region"]])
    _release(ctx, chit)
    ctx.pop()


def _release(ctx: Ctx, chit: str) -> None:
    ctx.state["played"].remove(chit)
    ctx.return_chit(chit)


def _refs_of(action: dict) -> list:
    return [action[k] for k in ("from", "to", "region", "fleet") if k in action]


def movers(ctx: Ctx, side: str, region: int) -> list[str]:
    """BFG-COMP-10, BFG-CHIT-11: own AFs and IOs deployed there (not a garrison, BFG-GAR-6)."""
    return [f for f in ctx.fleets_where(side, "map", region=region)
            if ctx.fleet_type(f).quick_move]


@legal("react")
def legal_react(ctx: Ctx, p: dict) -> list[dict]:
    side = p["role"]
    actions = [{"verb": "pass"}]
    if chit_type(p["chit"]) != "Repression":
        actions.extend({"verb": "repress", "chit": c} for c in ctx.holds(side, "Repression"))
    return actions


@legal("move_fleets")
def legal_move_fleets(ctx: Ctx, p: dict) -> list[dict]:
    candidates = movers(ctx, p["role"], p["origin"])
    return [{"verb": "move", "fleets": list(group)}
            for size in range(len(candidates), -1, -1)
            for group in combinations(candidates, size)]


# ============================================================================= politics
def politics(ctx: Ctx) -> None:
    """BFG-POL-1, BFG-POL-2: Blue adds, Red subtracts, the P of the regions they control; the
    CI is never clamped (BFG-COMP-17)."""
    blue = sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("blue"))
    red = sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("red"))
    ctx.state["ci"] += blue - red
    ctx.note("BFG-POL-2", f"Politics: Blue +{blue}, Red -{red}: the Chaos Index is now {ctx.ci}")


# ================================================================================ build
@procedure("build_phase")
def build_phase(ctx: Ctx, frame: dict) -> None:
    """BFG-BLD-1, BFG-BLD-2, BFG-BLD-6, BFG-BLD-10: income, building from the own force pool,
    then the common pool, then the carry-over of at most 10 RP."""
    step = frame.get("step", "income")
    sides = frame.get("sides", ["blue", "red"])
    if step == "income":
        if not frame["opening"]:
            for side in sides:
                income(ctx, side)
        frame["step"] = "own"
        frame["queue"] = list(sides)
        return
    if step == "own":
        if frame["queue"]:
            side = frame["queue"].pop(0)
            ctx.push("build", side=side, source="own")
            return
        # BFG-BLD-4, BFG-BLD-5: an empty force pool (TH are in the supply, never in it)
        eligible = [s for s in sides if not ctx.fleets_where(s, "pool")]
        frame["step"] = "carry"
        if len(eligible) == 1:
            ctx.push("build", side=eligible[0], source="common")
        elif len(eligible) == 2:
            ctx.push("build", side=common_first(ctx), source="common", alternate=True)
        return
    for side in sides:
        carry_over(ctx, side)
    ctx.pop()


def income(ctx: Ctx, side: str) -> None:
    """BFG-BLD-1: carried RP + R of controlled regions + banked Build-chit RP + 2 per own WS
    in a garrison."""
    player = ctx.player(side)
    regions = sum(ctx.slot_value(n, "R") for n in ctx.controlled_by(side))
    ships = ctx.data["units"]["ws_garrison_rp"] * len(ctx.fleets_where(side, "garrison", ftype="WS"))
    carried, banked = player["rp"], player["banked"]
    player["rp"] = carried + regions + banked + ships
    player["banked"] = 0
    ctx.note("BFG-BLD-1", f"{SHORT[side]} has {player['rp']} RP (carried {carried}, regions "
             f"{regions}, Build chits {banked}, World Ships {ships})")


def common_first(ctx: Ctx) -> str:
    """Who starts the common-pool alternation: in Civil War the CI decides (BFG-BLD-8);
    otherwise the one with more RP left, the CI breaking ties (BFG-BLD-6, BFG-BLD-7)."""
    if ctx.state["scenario_data"]["common_pool_order"] == "ci":
        return ctx.ci_first()
    blue, red = ctx.player("blue")["rp"], ctx.player("red")["rp"]
    if blue != red:
        return "blue" if blue > red else "red"
    return ctx.ci_first()


def carry_over(ctx: Ctx, side: str) -> None:
    """BFG-BLD-10: at most 10 RP carry over; the rest is lost."""
    player = ctx.player(side)
    cap = ctx.data.procedure["carry_over_max"]
    if player["rp"] > cap:
        ctx.note("BFG-BLD-10", f"{SHORT[side]} keeps {cap} RP and loses {player['rp'] - cap}")
        player["rp"] = cap


def buildable(ctx: Ctx, side: str, source: str) -> dict[str, str]:
    """Type -> the fleet a build of that type takes (the first in canonical order), for the
    types ``side`` can afford from ``source`` (BFG-BLD-2, BFG-BLD-4, BFG-BLD-11)."""
    rp = ctx.player(side)["rp"]
    out = {}
    for code, ftype in ctx.data.fleet_types.items():
        if not ftype.buildable or ftype.cost > rp:
            continue
        found = (ctx.fleets_where(side, "pool", ftype=code) if source == "own"
                 else ctx.fleets_where(None, "common", ftype=code))
        if found:
            out[code] = found[0]
    return out


@procedure("build")
def build(ctx: Ctx, frame: dict) -> None:
    """One side building from one source; in the common-pool alternation each pick is one
    fleet and the turn passes to the other player until both stop (BFG-BLD-6, BFG-BLD-7)."""
    side, source = frame["side"], frame["source"]
    answer = frame.pop("answer", None)
    if answer is not None:
        if answer["verb"] == "build":
            fid = buildable(ctx, side, source)[answer["type"]]
            fleet = ctx.fleet(fid)
            player = ctx.player(side)
            player["rp"] -= ctx.fleet_type(fid).cost
            flipped = fleet["owner"] != side
            fleet["owner"] = side                        # BFG-BLD-9
            ctx.move_fleet(fid, "display")
            fleet["waiting"] = False
            ctx.note("BFG-BLD-9" if flipped else "BFG-BLD-3",
                     f"{SHORT[side]} builds {fid}" + (" from the common pool" if source == "common"
                                                     else "") + f" ({player['rp']} RP left)",
                     refs=[fid])
            if frame.get("alternate") and not frame.get("stopped", {}).get(other(side)):
                frame["side"] = other(side)
        else:
            frame.setdefault("stopped", {})[side] = True
            if frame.get("alternate") and not frame["stopped"].get(other(side)):
                frame["side"] = other(side)
    side = frame["side"]
    stopped = frame.setdefault("stopped", {})
    for candidate in (side, other(side)) if frame.get("alternate") else (side,):
        if stopped.get(candidate):
            continue
        if not buildable(ctx, candidate, source):
            stopped[candidate] = True
            continue
        frame["side"] = candidate
        ctx.ask("build", f"{SHORT[candidate]}: build from "
                + ("your force pool" if source == "own" else "the common pool")
                + f" ({ctx.player(candidate)['rp']} RP)", role=candidate,
                rule="BFG-BLD-2" if source == "own" else "BFG-BLD-6", source=source)
        return
    ctx.pop()


@legal("build")
def legal_build(ctx: Ctx, p: dict) -> list[dict]:
    return ([{"verb": "build", "type": code} for code in buildable(ctx, p["role"], p["source"])]
            + [{"verb": "done"}])


# ============================================================================== victory
def cleanup(ctx: Ctx) -> None:
    """BFG-SEQ-4: Tactical chits still on fleets return to the pool at the end of the
    turn."""
    for fleet in ctx.state["fleets"].values():
        if fleet["tactical"]:
            ctx.return_chit(fleet["tactical"])
            fleet["tactical"] = None


def thresholds(ctx: Ctx, turn: int) -> dict:
    """The turn's row of the victory table (BFG-VIC-2, BFG-VIC-3); past it, the last row."""
    rows = ctx.data.victory_rows
    return rows.get(turn) or rows[max(rows)]


def check_victory(ctx: Ctx) -> None:
    """BFG-VIC-1, BFG-VIC-3, BFG-VIC-4: at the end of the turn Red wins at or below its
    threshold and Blue at or above its own; the last turn always has a winner. It is the only
    check: a threshold passed during the turn wins nothing by itself (BFG-VIC-5)."""
    turn_no = ctx.state["turn"]
    row = thresholds(ctx, turn_no)
    ci = ctx.ci
    winner = None
    if ci <= row["red_at_most"]:
        winner = "red"
    elif ci >= row["blue_at_least"]:
        winner = "blue"
    last = turn_no >= ctx.data.procedure["last_turn"]
    if winner is None and last:      # BFG-VIC-4: cannot happen with the shipped table
        winner = "blue" if ci > row["red_at_most"] else "red"
    if winner is None:
        ctx.note("BFG-VIC-3", f"no victory: the Chaos Index {ci} lies between "
                 f"{row['red_at_most']} and {row['blue_at_least']}")
        return
    ctx.state["outcome"] = {"result": winner, "winner": winner, "turn": turn_no, "ci": ci}
    ctx.note("BFG-VIC-4" if last else "BFG-VIC-3",
             f"{SHORT[winner]} wins on turn {turn_no} with the Chaos Index at {ci}")
