"""Region resolution: combat rounds, disengagement and pursuit, and the garrison segment.

One ``resolve`` frame runs a whole resolution (BFG-ACT-8): while both players have fleets in
the region, rounds (BFG-CMB-1) of a Military segment, a Morph segment and a disengagement choice
(BFG-CMB-2); then, if one player is left, the Garrison segment (BFG-GAR-1). The public side
of the fight (the round, targets declared, the last results) is kept in ``state["battle"]``
for the views; the disengagement choices stay in the frame until both are made (BFG-PUR-3),
and views never show the stack.

Dice are drawn in the canonical order of BFG-CMB-19: segment by segment, the resolving
player's firers first, each side in line-up order, each fleet's dice in a row with its
Tactical die last.
"""

from __future__ import annotations

from struggle_desktop.games.battles.context import SHORT, Ctx, other
from struggle_desktop.games.battles.registry import legal, procedure

SEGMENTS = ("mil", "morph")
SEGMENT_NAMES = {"mil": "Military", "morph": "Morph"}
#: Result severity (BFG-CMB-11): the most severe result a fleet receives applies.
SEVERITY = {None: 0, "return": 1, "eliminate": 2, "convert": 2}


def start_resolution(ctx: Ctx, region: int, resolver: str) -> None:
    """Push the resolution of ``region`` started by ``resolver`` (BFG-ACT-8)."""
    ctx.push("resolve", region=region, resolver=resolver, step="start", round=0)


def sides_present(ctx: Ctx, region: int) -> list[str]:
    return [s for s in (ctx.state["battle"]["resolver"], other(ctx.state["battle"]["resolver"]))
            if ctx.in_region(region, s)]


def firers(ctx: Ctx, region: int, side: str, segment: str) -> list[str]:
    """BFG-CMB-3: fleets of ``side`` in the region whose value for the segment is above 0,
    in line-up order."""
    return [f for f in ctx.in_region(region, side) if ctx.value(f, segment) > 0]


def dice_for(ctx: Ctx, fid: str, segment: str) -> int:
    """BFG-CMB-8: one die per point of value, plus the Tactical die where it applies."""
    extra = 1 if ctx.state["battle"]["tactical"].get(fid) == segment else 0
    return ctx.value(fid, segment) + extra


def target_options(ctx: Ctx, side: str) -> tuple[list[str], list[str], dict]:
    """(unassigned firers, enemy fleets, targets declared so far) of ``side`` now."""
    battle = ctx.state["battle"]
    region, segment = battle["region"], battle["segment"]
    shooters = firers(ctx, region, side, segment)
    declared = battle["targets"][side]
    enemies = ctx.in_region(region, other(side))
    return [f for f in shooters if f not in declared], enemies, declared


def allowed_targets(ctx: Ctx, side: str) -> list[str]:
    """Enemy fleets the next firer of ``side`` may pick under BFG-CMB-5, BFG-CMB-6: all different
    while the firers are not more than the targets; otherwise every target must end up
    covered, so an already-covered target is allowed only while enough firers remain for
    the uncovered ones."""
    open_firers, enemies, declared = target_options(ctx, side)
    total_firers = len(open_firers) + len(declared)
    covered = {d["target"] for d in declared.values()}
    if total_firers <= len(enemies):
        return [e for e in enemies if e not in covered]
    uncovered = [e for e in enemies if e not in covered]
    if len(uncovered) <= len(open_firers) - 1:
        return list(enemies)
    return uncovered


def single_shot_allowed(ctx: Ctx, fid: str) -> bool:
    """BFG-CMB-16, BFG-CMB-17: a World Ship may fire its single shot when the option is on."""
    return ctx.fleet(fid)["type"] == "WS" and ctx.option("fire_main_weapon")


def firer_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """Why ``action``'s firer may not be given a target now, when a rule says why (for the
    window's refusal of a drag); None when the firer may fire (a refused target is then
    the base refusal's business) or nothing below explains it."""
    fid, side = action.get("firer"), pending["role"]
    if pending["kind"] != "targets":      # BFG-CMB-4: targets are chosen in a fight's segment
        return f"targets are chosen during a fight's segments, not now ({pending['text']})"
    if not isinstance(fid, str) or fid not in ctx.state["fleets"]:
        return None
    fleet, label = ctx.fleet(fid), ctx.fleet_label(fid)
    battle = ctx.state["battle"]
    region, segment = battle["region"], battle["segment"]
    if fleet["owner"] != side:
        return f"{label} is {SHORT[fleet['owner']]}'s fleet, not {SHORT[side]}'s"
    if fid not in ctx.in_region(region, side):
        return f"{label} is not in the fight in {ctx.region_name(region)}"
    declared = battle["targets"][side].get(fid)
    if declared is not None:
        return f"{label} already fires at {ctx.fleet_label(declared['target'])} (the " \
               f"answer \"Choose another target for {label}\" changes it)"
    if fid not in firers(ctx, region, side, segment):     # BFG-CMB-3
        return f"{label} does not fire in the {SEGMENT_NAMES[segment]} segment (its " \
               "value there is 0)"
    return None


@legal("targets")
def legal_targets(ctx: Ctx, p: dict) -> list[dict]:
    side = p["role"]
    open_firers, _, declared = target_options(ctx, side)
    targets = allowed_targets(ctx, side)
    actions = []
    for firer in open_firers:
        for target in targets:
            actions.append({"verb": "target", "firer": firer, "target": target})
            if single_shot_allowed(ctx, firer):
                actions.append({"verb": "target", "firer": firer, "target": target,
                                "shot": "single"})
    actions.extend({"verb": "untarget", "firer": f} for f in declared)
    return actions


@legal("tactical_segment")
def legal_tactical_segment(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "segment", "fleet": p["fleet"], "segment": s} for s in SEGMENTS]


@legal("disengage")
def legal_disengage(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "stay"}, {"verb": "disengage"}]


@legal("pursue")
def legal_pursue(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "pursue"}, {"verb": "no_pursuit"}]


@legal("pursuit_losses")
def legal_pursuit_losses(ctx: Ctx, p: dict) -> list[dict]:
    region = ctx.state["battle"]["region"]
    return [{"verb": "lose", "fleet": f} for f in ctx.in_region(region, p["role"])]


@legal("garrison")
def legal_garrison(ctx: Ctx, p: dict) -> list[dict]:
    """Any of the player's fleets there may garrison, converted fleets and TH too (BFG-GAR-8);
    the choice may be confirmed once its total is above the Combat value (BFG-GAR-2)."""
    battle = ctx.state["battle"]
    chosen = battle["garrison"]
    region = battle["region"]
    actions = [{"verb": "garrison_add", "fleet": f}
               for f in ctx.in_region(region, p["role"]) if f not in chosen]
    actions.extend({"verb": "garrison_remove", "fleet": f} for f in chosen)
    if garrison_total(ctx, chosen) > ctx.slot_value(region, "C"):
        actions.append({"verb": "garrison_done"})
    actions.append({"verb": "no_garrison"})
    return actions


def garrison_total(ctx: Ctx, fids) -> int:
    """BFG-GAR-4: printed values (TH at the current CI); Tactical chits add nothing."""
    return sum(ctx.total(f) for f in fids)


@procedure("resolve")
def resolve(ctx: Ctx, frame: dict) -> None:
    step = frame["step"]
    region = frame["region"]
    if step == "start":
        _begin(ctx, frame)
    elif step == "round":
        _new_round(ctx, frame)
    elif step == "tactical":
        _tactical_choices(ctx, frame)
    elif step in ("declare-mil", "declare-morph"):
        _declare(ctx, frame, step.split("-")[1])
    elif step in ("fire-mil", "fire-morph"):
        segment = step.split("-")[1]
        _fire(ctx, frame, segment)
        if len(sides_present(ctx, region)) < 2:
            frame["step"] = "garrison"          # BFG-CMB-18: combat ends at once
        else:
            frame["step"] = "declare-morph" if segment == "mil" else "disengage"
    elif step == "disengage":
        _disengagement(ctx, frame)
    elif step == "pursue":
        _pursuit_choice(ctx, frame)
    elif step == "pursuit-losses":
        _pursuit_losses(ctx, frame)
    elif step == "garrison":
        _garrison(ctx, frame)
    else:  # pragma: no cover - a frame is only ever given the steps above
        raise ValueError(f"unknown resolve step {step!r}")


def _begin(ctx: Ctx, frame: dict) -> None:
    region, resolver = frame["region"], frame["resolver"]
    ctx.state["battle"] = {"region": region, "resolver": resolver, "round": 0, "segment": None,
                           "targets": {"blue": {}, "red": {}}, "tactical": {},
                           "results": [], "disengaged": {}, "garrison": [], "pursuit": None,
                           "removed": []}
    name = ctx.region_name(region)
    present = sides_present(ctx, region)
    ctx.note("BFG-ACT-8", f"{SHORT[resolver]} resolves {name}: "
             + "; ".join(f"{SHORT[s]} {ctx.list_fleets(ctx.in_region(region, s))}"
                         for s in ("blue", "red")), refs=[region])
    if not present:
        ctx.note("BFG-ACT-9", f"{name} holds no fleets: resolved with no controller",
                 refs=[region])
        _finish(ctx, frame, None)
    elif len(present) == 1:
        frame["step"] = "garrison"
    else:
        frame["step"] = "round"


def _new_round(ctx: Ctx, frame: dict) -> None:
    battle = ctx.state["battle"]
    frame["round"] += 1
    battle["round"] = frame["round"]
    if frame["round"] > ctx.data.procedure["max_rounds"]:
        ctx.note("BFG-CMB-20", "the fight has gone on too long: both sides disengage",
                 refs=[frame["region"]])
        _both_disengage(ctx, frame)
        return
    battle["tactical"] = {}
    frame["step"] = "tactical"


def _tactical_choices(ctx: Ctx, frame: dict) -> None:
    """BFG-CHIT-14: each Tactical die goes to one segment for the round; a fleet that fires
    in one segment only needs no choice."""
    battle = ctx.state["battle"]
    region = frame["region"]
    answer = frame.pop("answer", None)
    if answer is not None:
        battle["tactical"][answer["fleet"]] = answer["segment"]
    for side in (battle["resolver"], other(battle["resolver"])):
        for fid in ctx.in_region(region, side):
            if not ctx.fleet(fid)["tactical"] or fid in battle["tactical"]:
                continue
            usable = [s for s in SEGMENTS if ctx.value(fid, s) > 0]
            if len(usable) == 1:
                battle["tactical"][fid] = usable[0]
                continue
            ctx.ask("tactical_segment", f"{ctx.fleet_label(fid)} carries a Tactical chit: "
                    "which segment gets its extra die this round?", role=side,
                    rule="BFG-CHIT-14", fleet=fid)
            return
    frame["step"] = "declare-mil"


def _declare(ctx: Ctx, frame: dict, segment: str) -> None:
    """BFG-CMB-4, BFG-CMB-7: the resolving player declares every target, openly, then the
    other player; the targets allowed follow BFG-CMB-6."""
    battle = ctx.state["battle"]
    region = frame["region"]
    if battle["segment"] != segment:
        battle["segment"] = segment
        battle["targets"] = {"blue": {}, "red": {}}
    answer = frame.pop("answer", None)
    if answer is not None:
        side = ctx.state["battle"]["declaring"]
        if answer["verb"] == "untarget":
            battle["targets"][side].pop(answer["firer"], None)
        else:
            battle["targets"][side][answer["firer"]] = {
                "target": answer["target"], "single": answer.get("shot") == "single"}
    for side in (battle["resolver"], other(battle["resolver"])):
        open_firers, enemies, declared = target_options(ctx, side)
        if not open_firers or not enemies:
            continue
        if len(enemies) == 1 and not any(single_shot_allowed(ctx, f) for f in open_firers):
            for fid in open_firers:      # one possible target and no shot to choose
                declared[fid] = {"target": enemies[0], "single": False}
            continue
        battle["declaring"] = side
        ctx.ask("targets", f"{SHORT[side]}: choose a target for each firing fleet "
                f"({SEGMENT_NAMES[segment]} segment, round {frame['round']})", role=side,
                rule="BFG-CMB-6", segment=segment, region=region)
        return
    battle.pop("declaring", None)
    frame["step"] = f"fire-{segment}"


def _fire(ctx: Ctx, frame: dict, segment: str) -> None:
    """Roll every firer's dice, then apply the results together (BFG-CMB-12)."""
    battle = ctx.state["battle"]
    region = frame["region"]
    hits: dict[str, str | None] = {}
    moon_hits: dict[str, int] = {}
    no_moon = ctx.option("no_moon")
    bonus = ctx.data.procedure["single_shot_bonus"]
    rule = "BFG-CMB-9" if segment == "mil" else "BFG-CMB-10"
    for side in (battle["resolver"], other(battle["resolver"])):
        for fid in firers(ctx, region, side, segment):
            order = battle["targets"][side].get(fid)
            if order is None:
                continue
            target = order["target"]
            if order["single"]:
                face = ctx.roll_d6s(1, "BFG-CMB-16", f"{ctx.fleet_label(fid)} single shot "
                                    f"(+{bonus}) at {ctx.fleet_label(target)}",
                                    refs=[fid, target])[0]
                outcomes = ["hit" if face + bonus >= 6 else "five"]
            else:
                faces = ctx.roll_d6s(dice_for(ctx, fid, segment), rule,
                                     f"{ctx.fleet_label(fid)} fires at {ctx.fleet_label(target)}",
                                     refs=[fid, target])
                outcomes = ["hit" if f == 6 else "five" for f in faces if f >= 5]
            for outcome in outcomes:
                if no_moon and ctx.fleet(target)["type"] == "WS":
                    if outcome == "hit":          # BFG-OPT-3: each 6 is one hit, 5s nothing
                        moon_hits[target] = moon_hits.get(target, 0) + 1
                    continue
                result = _result_of(ctx, target, segment, outcome)
                if SEVERITY[result] > SEVERITY[hits.get(target)]:
                    hits[target] = result
    results = []
    for target, count in moon_hits.items():
        fleet = ctx.fleet(target)
        fleet["hits"] += count
        ctx.note("BFG-OPT-3", f"{ctx.fleet_label(target)} takes {count} hit(s): "
                 f"{fleet['hits']} of {ctx.data.procedure['ws_hits_to_destroy']}", refs=[target])
        if fleet["hits"] >= ctx.data.procedure["ws_hits_to_destroy"]:
            hits[target] = "eliminate"
    for target in sorted(hits, key=lambda f: ctx.fleet(f)["seq"]):
        result = hits[target]
        if result is None:
            continue
        apply_result(ctx, target, result, region)
        results.append({"fleet": target, "result": result})
    battle["results"] = results
    if not results:
        ctx.note("BFG-CMB-12", f"{SEGMENT_NAMES[segment]} segment: no effect", refs=[region])


def _result_of(ctx: Ctx, target: str, segment: str, outcome: str) -> str:
    """A 6 eliminates (Military) or converts (Morph; an IO returns instead, BFG-COMP-9);
    a 5 returns the target to base (BFG-CMB-9, BFG-CMB-10)."""
    if outcome == "five":
        return "return"
    if segment == "mil":
        return "eliminate"
    return "convert" if ctx.fleet_type(target).convertible else "return"


def apply_result(ctx: Ctx, fid: str, result: str, region: int) -> None:
    """BFG-CMB-13, BFG-CMB-14, BFG-CMB-15: eliminated fleets go to the common pool (TH to
    their owner's supply), returned ones to their owner's display, converted ones change
    sides and join the end of the converter's line-up. The fight remembers who left it and
    how (the battle mini-map's Return to Base and Eliminated boxes)."""
    fleet = ctx.fleet(fid)
    battle = ctx.state.get("battle")
    if battle is not None and result in ("eliminate", "return"):
        battle["removed"].append({"fleet": fid, "result": result})
    label = ctx.fleet_label(fid)
    if result == "eliminate":
        if fleet["type"] == "TH":
            ctx.move_fleet(fid, "supply")
            ctx.note("BFG-CMB-14", f"{label} is eliminated and goes back to the "
                     f"{SHORT[fleet['owner']]} TH supply", refs=[fid, region])
        else:
            ctx.move_fleet(fid, "common")
            ctx.note("BFG-CMB-13", f"{label} is eliminated (to the common pool)",
                     refs=[fid, region])
        fleet["hits"] = 0
    elif result == "return":
        ctx.move_fleet(fid, "display")
        ctx.note("BFG-CMB-13", f"{label} returns to base", refs=[fid, region])
    else:
        new_owner = other(fleet["owner"])
        if fleet["tactical"]:
            ctx.return_chit(fleet["tactical"])     # BFG-CHIT-15
            fleet["tactical"] = None
        fleet["owner"] = new_owner
        fleet["at"] = "map"
        fleet["seq"] = ctx.next_seq()             # BFG-CMB-15: appended to the line-up
        ctx.note("BFG-CMB-15", f"{fid} is converted and now fights for {SHORT[new_owner]}",
                 refs=[fid, region])


def _disengagement(ctx: Ctx, frame: dict) -> None:
    """BFG-PUR-1, BFG-PUR-2, BFG-PUR-3: both players choose to stay or disengage, the resolving
    player first; with secret disengagement both commit before either choice is shown, and
    both are always asked (BFG-HID-6)."""
    battle = ctx.state["battle"]
    resolver = battle["resolver"]
    choices = frame.setdefault("choices", {})
    answer = frame.pop("answer", None)
    if answer is not None:
        side = frame["asking"]
        choices[side] = answer["verb"] == "disengage"
        if not ctx.option("secret_disengagement"):
            battle["disengaged"][side] = choices[side]    # declared openly (BFG-PUR-3)
            ctx.note("BFG-PUR-3", f"{SHORT[side]} "
                     f"{'disengages' if choices[side] else 'stays'}", refs=[frame["region"]])
    for side in (resolver, other(resolver)):
        if side not in choices:
            frame["asking"] = side
            ctx.ask("disengage", f"{SHORT[side]}: stay and fight in "
                    f"{ctx.region_name(frame['region'])}, or disengage?", role=side,
                    rule="BFG-PUR-2" if ctx.option("secret_disengagement") else "BFG-PUR-1")
            return
    frame.pop("choices")
    frame.pop("asking", None)
    battle["disengaged"] = dict(choices)
    if ctx.option("secret_disengagement"):
        ctx.note("BFG-PUR-2", "disengagement revealed: " + ", ".join(
            f"{SHORT[s]} {'disengages' if choices[s] else 'stays'}" for s in ("blue", "red")),
            refs=[frame["region"]])
    leaving = [s for s in ("blue", "red") if choices[s]]
    if len(leaving) == 2:
        _both_disengage(ctx, frame)
    elif len(leaving) == 1:
        frame["leaving"] = leaving[0]
        frame["step"] = "pursue"
    else:
        battle["disengaged"] = {}
        frame["step"] = "round"


def _both_disengage(ctx: Ctx, frame: dict) -> None:
    """BFG-PUR-4, BFG-PUR-5: every fleet of both sides returns to its display; nobody
    controls it."""
    region = frame["region"]
    for fid in ctx.in_region(region):
        ctx.move_fleet(fid, "display")
    ctx.note("BFG-PUR-4", f"both sides disengage from {ctx.region_name(region)}: every "
             "fleet returns to base", refs=[region])
    _finish(ctx, frame, None)


def _pursuit_choice(ctx: Ctx, frame: dict) -> None:
    """BFG-PUR-6, BFG-PUR-7: the staying player may pursue with its Alpha Fleets, if it has any."""
    region = frame["region"]
    leaving = frame["leaving"]
    staying = other(leaving)
    answer = frame.pop("answer", None)
    if answer is None:
        if ctx.fleets_where(staying, ("map", "garrison"), region=region, ftype="AF"):
            ctx.ask("pursue", f"{SHORT[leaving]} disengages: {SHORT[staying]} may pursue "
                    "with Alpha Fleets", role=staying, rule="BFG-PUR-6")
            return
        ctx.note("BFG-PUR-7", f"{SHORT[staying]} has no Alpha Fleet there: no pursuit",
                 refs=[region])
    elif answer["verb"] == "pursue":
        _pursuit_fire(ctx, frame)
        if frame.get("losses"):
            frame["step"] = "pursuit-losses"
            return
    else:
        ctx.note("BFG-PUR-6", f"{SHORT[staying]} lets them go", refs=[region])
    _after_pursuit(ctx, frame)


def _pursuit_fire(ctx: Ctx, frame: dict) -> None:
    """BFG-PUR-8, BFG-PUR-9: both sides' AFs roll three dice each (+1 per Tactical chit on a firing
    AF); each 6 removes one fleet of the other side, chosen by its owner."""
    region = frame["region"]
    battle = ctx.state["battle"]
    resolver = battle["resolver"]
    per_af = ctx.data.procedure["pursuit_dice_per_af"]
    hits = {}
    for side in (resolver, other(resolver)):
        count = 0
        for fid in ctx.fleets_where(side, ("map", "garrison"), region=region, ftype="AF"):
            n = per_af + (1 if ctx.fleet(fid)["tactical"] else 0)
            faces = ctx.roll_d6s(n, "BFG-PUR-8", f"{ctx.fleet_label(fid)} pursuit fire",
                                 refs=[fid])
            count += sum(1 for f in faces if f == 6)
        hits[other(side)] = count
    battle["pursuit"] = dict(hits)
    frame["losses"] = {s: n for s, n in hits.items() if n}
    ctx.note("BFG-PUR-8", "pursuit fire: " + ", ".join(
        f"{SHORT[s]} loses {hits[s]}" for s in ("blue", "red")), refs=[region])


def _pursuit_losses(ctx: Ctx, frame: dict) -> None:
    """The owner of hit fleets chooses which are removed (BFG-PUR-8); removal is
    elimination (BFG-PUR-9); under That's No Moon a hit on a WS is one hit (BFG-OPT-3)."""
    region = frame["region"]
    losses = frame["losses"]
    answer = frame.pop("answer", None)
    if answer is not None:
        side = frame["asking"]
        _remove_for_pursuit(ctx, answer["fleet"], region)
        losses[side] -= 1
    for side in ("blue", "red"):
        left = ctx.in_region(region, side)
        if losses.get(side, 0) and left:
            if losses[side] >= len(left) and not any(ctx.fleet(f)["type"] == "WS"
                                                     and ctx.option("no_moon") for f in left):
                for fid in left:
                    _remove_for_pursuit(ctx, fid, region)
                losses[side] = 0
                continue
            frame["asking"] = side
            ctx.ask("pursuit_losses", f"{SHORT[side]}: choose a fleet to lose to pursuit fire "
                    f"({losses[side]} to go)", role=side, rule="BFG-PUR-8")
            return
        losses[side] = 0
    frame.pop("losses")
    frame.pop("asking", None)
    _after_pursuit(ctx, frame)


def _remove_for_pursuit(ctx: Ctx, fid: str, region: int) -> None:
    fleet = ctx.fleet(fid)
    if fleet["type"] == "WS" and ctx.option("no_moon"):
        fleet["hits"] += 1
        ctx.note("BFG-OPT-3", f"{ctx.fleet_label(fid)} takes a pursuit hit: {fleet['hits']} "
                 f"of {ctx.data.procedure['ws_hits_to_destroy']}", refs=[fid])
        if fleet["hits"] < ctx.data.procedure["ws_hits_to_destroy"]:
            return
    apply_result(ctx, fid, "eliminate", region)


def _after_pursuit(ctx: Ctx, frame: dict) -> None:
    """BFG-PUR-10: the disengaging side's survivors (an old garrison too) go home; the
    staying side goes on to the Garrison segment."""
    region = frame["region"]
    leaving = frame.pop("leaving")
    for fid in ctx.in_region(region, leaving):
        ctx.move_fleet(fid, "display")
    ctx.note("BFG-PUR-10", f"{SHORT[leaving]} withdraws from {ctx.region_name(region)}",
             refs=[region])
    frame["step"] = "garrison"


def _garrison(ctx: Ctx, frame: dict) -> None:
    """BFG-GAR-1, BFG-GAR-2, BFG-GAR-7: the player left in the region may garrison it with
    fleets whose total value exceeds the region's Combat value, chosen from all its fleets
    there (an old garrison included); the rest go home."""
    region = frame["region"]
    battle = ctx.state["battle"]
    present = sides_present(ctx, region)
    if not present:
        ctx.note("BFG-CMB-18", f"no fleets are left in {ctx.region_name(region)}: resolved "
                 "with no controller", refs=[region])
        _finish(ctx, frame, None)
        return
    side = present[0]
    fleets = ctx.in_region(region, side)
    combat_value = ctx.slot_value(region, "C")
    answer = frame.pop("answer", None)
    if answer is not None:
        verb = answer["verb"]
        if verb == "garrison_add":
            battle["garrison"].append(answer["fleet"])
            battle["garrison"].sort(key=lambda f: ctx.fleet(f)["seq"])
        elif verb == "garrison_remove":
            battle["garrison"].remove(answer["fleet"])
        elif verb == "garrison_done":
            chosen = list(battle["garrison"])
            for fid in fleets:
                if fid in chosen:
                    ctx.fleet(fid)["at"] = "garrison"
                else:
                    ctx.move_fleet(fid, "display")
            ctx.note("BFG-GAR-2", f"{SHORT[side]} garrisons {ctx.region_name(region)} with "
                     f"{ctx.list_fleets(chosen)} (total {garrison_total(ctx, chosen)} > "
                     f"Combat {combat_value})", refs=[region, *chosen])
            _finish(ctx, frame, side)
            return
        else:
            _no_garrison(ctx, frame, side, fleets, "declines to garrison")
            return
    if garrison_total(ctx, fleets) <= combat_value:
        _no_garrison(ctx, frame, side, fleets,
                     f"cannot garrison (total {garrison_total(ctx, fleets)} is not above "
                     f"Combat {combat_value})")
        return
    ctx.ask("garrison", f"{SHORT[side]}: choose the garrison of {ctx.region_name(region)} "
            f"(total above {combat_value})", role=side, rule="BFG-GAR-2", region=region)


def _no_garrison(ctx: Ctx, frame: dict, side: str, fleets: list[str], why: str) -> None:
    """BFG-GAR-3: all the player's fleets there go home; nobody controls the region."""
    for fid in fleets:
        ctx.move_fleet(fid, "display")
    ctx.note("BFG-GAR-3", f"{SHORT[side]} {why}: its fleets return to base and "
             f"{ctx.region_name(frame['region'])} has no controller", refs=[frame["region"]])
    _finish(ctx, frame, None)


def _finish(ctx: Ctx, frame: dict, controller: str | None) -> None:
    """The region is resolved (BFG-ACT-4); its controller is the garrison's owner, if any
    (BFG-GAR-5, BFG-GAR-7). WS hits are forgotten (BFG-OPT-4)."""
    region = ctx.region(frame["region"])
    region["resolved"] = True
    region["controller"] = controller
    for fleet in ctx.state["fleets"].values():
        fleet["hits"] = 0
    ctx.state["battle"] = None
    ctx.pop()
