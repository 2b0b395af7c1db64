"""The Chaos side's own phases: Chaos Operations (2), Usurpation (3), Independent Empires (4)
and Chaos Colonization (5), and how an Independent Empire is founded and recruits.

Forces act on the Chaos Operations Table (SGE-OPS-4, data ``chaos_operations``): each rolls a
d10 and moves and attacks as its column says, except the force the player took over with an
Alliance marker, which the player moves through the ``alliance_move`` and ``alliance_attack``
prompts.

Action verbs: ``{"verb": "alliance_move", "to": n}`` (``to`` may be the force's own sector),
``{"verb": "alliance_attack"}`` and ``{"verb": "no_attack"}``.
"""

from __future__ import annotations

from struggle_desktop.games.struggle.aliens import nebula_at
from struggle_desktop.games.struggle.combat import chaos_attack, prohibited, rebel_group_key
from struggle_desktop.games.struggle.context import (CHAOS, IMP, Ctx, ceil_div, fmt_sector,
                                                     sector_ref)
from struggle_desktop.games.struggle.registry import legal, procedure

#: The subphases and the table column of each kind of force (SGE-OPS-2, SGE-OPS-4). An Invader
#: force only rolls on its column in its subphase: it never recruits or conquers (SGE-INV-4).
#: Rebels act on the Rebel column (SGE-REB-2).
SUBPHASES = ("usurper", "ie", "invader", "rebel")
COLUMN = {"usurper": "usurper", "mutant": "usurper", "ie": "ie", "invader": "invader",
          "rebel": "rebel"}


# ============================================================================ Phase 2
@procedure("phase2")
def phase2(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-4, SGE-OPS-2: four subphases; each force acts once, in sector order."""
    if "queue" not in frame:
        frame["sub"] = 0
        frame["queue"] = build_queue(ctx, SUBPHASES[0])
    while not frame["queue"]:
        frame["sub"] += 1
        if frame["sub"] >= len(SUBPHASES):
            end_alliance(ctx)
            ctx.pop()
            return
        frame["queue"] = build_queue(ctx, SUBPHASES[frame["sub"]])
    actor = frame["queue"][0]
    if is_alliance_actor(ctx, actor):
        ctx.push("alliance", actor=actor)
        frame["queue"].pop(0)
        return
    frame["queue"].pop(0)
    act(ctx, actor)


def build_queue(ctx: Ctx, sub: str) -> list[dict]:
    """The forces of one subphase, by the sector they occupy now (SGE-OPS-2)."""
    queue = []
    if sub == "rebel":
        # SGE-REB-2: the Rebel mobile units of a sector act as one force, without a leader;
        # Rebel system units never move or attack.
        groups: dict[int, list[str]] = {}
        for uid, u in ctx.units.items():
            if u["side"] == CHAOS and u["force"] is None and u["loc"] is not None:
                groups.setdefault(u["loc"], []).append(uid)
        for n in sorted(groups):
            queue.append({"kind": "rebel", "units": sorted(groups[n]), "sector": n})
        return queue
    entries = []
    for fid, f in ctx.state["forces"].items():
        if COLUMN[f["kind"]] != sub or f.get("detachment"):
            continue   # SGE-IE-5: a home detachment takes no Chaos Operations
        loc = ctx.force_location(fid)
        if loc is None:
            continue
        order = (f["ie"], f["seq"]) if sub == "ie" else (loc, f["seq"])
        entries.append((order, fid))
    for _, fid in sorted(entries):
        queue.append({"kind": ctx.state["forces"][fid]["kind"], "force": fid})
    return queue


def actor_units(ctx: Ctx, actor: dict) -> list[str]:
    if actor["kind"] == "rebel":
        return [uid for uid in actor["units"]
                if uid in ctx.units and ctx.units[uid]["side"] == CHAOS
                and ctx.units[uid]["force"] is None]
    return ctx.force_units(actor["force"]) if actor["force"] in ctx.state["forces"] else []


def actor_key(actor: dict) -> str:
    """The combat attacker of an actor: a force id, or this Rebel force's own units (other
    Rebels that stand in the sector after a move are another force, SGE-OPS-1)."""
    return rebel_group_key(actor["units"]) if actor["kind"] == "rebel" else actor["force"]


def actor_name(ctx: Ctx, actor: dict) -> str:
    if actor["kind"] == "rebel":
        return f"Rebel force in {fmt_sector(actor['sector'])}"
    return ctx.force_name(actor["force"])


def slowest_ma(ctx: Ctx, units: list[str]) -> int:
    """SGE-OPS-5: a force moves at its slowest unit's allowance (a Chaos TH counts like any
    other member, SGE-TH-4)."""
    return min(ctx.data.unit_types[ctx.units[uid]["type"]].ma for uid in units)


def move_units(ctx: Ctx, units: list[str], to: int, rule: str, why: str) -> None:
    if not units:
        return
    frm = ctx.units[units[0]]["loc"]
    if frm == to:
        return
    for uid in units:
        ctx.set_loc(uid, to)
    if ctx.keeps_log:
        ctx.log(rule, "move", f"{why}: {len(units)} unit(s) move from {fmt_sector(frm)} to "
                f"{fmt_sector(to)}", refs=[sector_ref(frm), sector_ref(to)] + units)
    ctx.checks()


def act(ctx: Ctx, actor: dict) -> None:
    """SGE-OPS-3: roll on the force's column and carry the result out."""
    units = actor_units(ctx, actor)
    if not units:
        return
    # Every force acts every turn: its name is worked out only for a log that is kept.
    logged = ctx.keeps_log
    name = actor_name(ctx, actor) if logged else ""
    column = COLUMN[actor["kind"]]
    face = ctx.roll("d10", "SGE-OPS-3", f"{name}: Chaos Operations Table ({column})",
                    refs=[sector_ref(ctx.units[units[0]]["loc"])] if logged else ())
    entry = ctx.data["chaos_operations"]["results"][column][face]
    op, attack = entry["op"], entry["attack"]
    if logged:
        ctx.log("SGE-OPS-4", "ops", f"{name}: {op.replace('_', ' ')}"
                + (" and attack" if attack else ""))
    if op == "attrition":
        # SGE-OPS-15: one unit lost, no move, no attack.
        victim = ctx.pick(sorted(units), "SGE-OPS-15", f"{name}: attrition victim")
        ctx.remove_unit(victim, "SGE-OPS-15", "attrition on the Chaos Operations Table")
        return
    if op == "none":
        return   # SGE-OPS-16
    here = ctx.units[units[0]]["loc"]
    dest = destination(ctx, actor, units, op, here, name)
    if dest != here:
        move_units(ctx, units, dest, "SGE-OPS-4", name)
    if attack:
        # SGE-OPS-13: attack after any movement, whether it moved or not.
        units = actor_units(ctx, actor)
        if units:
            chaos_attack(ctx, ctx.units[units[0]]["loc"], actor_key(actor), "SGE-OPS-13")


def destination(ctx: Ctx, actor: dict, units: list[str], op: str, here: int, name: str) -> int:
    """Where a Chaos Operations result takes the force. Routes are worked out on the map
    alone: Imperial units never block a Chaos force (SGE-OPS-17)."""
    g = ctx.galaxy
    if op == "stay":
        return here
    if nebula_at(ctx, here):
        ctx.log("SGE-OPS-10", "ops", f"{name} cannot leave the Living Nebula in {fmt_sector(here)}")
        return here
    if op in ("move_lower", "move_higher"):       # SGE-OPS-9
        if here == g.core and op == "move_lower":
            # Only Move Lower (and Move Toward the Core) keep a force in the Core; Move
            # Higher leaves it for the neighbour with the next higher number.
            ctx.log("SGE-OPS-9", "ops", f"{name} is in the Core and stays there")
            return here
        step = g.lower_neighbour(here) if op == "move_lower" else g.higher_neighbour(here)
        if step is None:
            ctx.log("SGE-OPS-10", "ops", f"{name} finds no "
                    f"{'lower' if op == 'move_lower' else 'higher'}-numbered neighbour and stays")
            return here
        return step
    if op == "move_away":        # SGE-OPS-8, SGE-MAP-5
        if here in g.void_adjacent:
            return here
        options = list(g.away_from_core(here))
        return ctx.pick(options, "SGE-OPS-8", f"{name}: step away from the Core") if options else here
    if op in ("move_one_toward_core", "move_toward_core"):   # SGE-OPS-6, SGE-OPS-7
        steps = 1 if op == "move_one_toward_core" else slowest_ma(ctx, units)
        pos = here
        for _ in range(steps):
            if pos == g.core:
                break
            if pos != here and nebula_at(ctx, pos):
                break
            options = list(g.toward_core(pos))
            if not options:
                break
            pos = ctx.pick(options, "SGE-OPS-7", f"{name}: route toward the Core")
        return pos
    if op in ("move_threatened", "move_threatened_or_conquest"):   # SGE-OPS-11, SGE-OPS-12
        f = ctx.state["forces"][actor["force"]]
        target = nearest_threatened(ctx, f["ie"], here)
        if target is None and op == "move_threatened_or_conquest":
            candidates = conquest_candidates(ctx, f["ie"])
            target = candidates[0] if candidates else None
        if target is None or target == here:
            return here
        return walk_toward(ctx, here, target, slowest_ma(ctx, units), name)
    raise ValueError(f"unknown Chaos operation {op!r}")


def walk_toward(ctx: Ctx, here: int, target: int, ma: int, name: str) -> int:
    """Up to ``ma`` steps along a shortest path; ties broken at random step by step."""
    dist = ctx.galaxy.dist
    pos = here
    for _ in range(ma):
        if pos == target or (pos != here and nebula_at(ctx, pos)):
            break
        options = [m for m in ctx.galaxy.neighbours[pos] if dist[m][target] == dist[pos][target] - 1]
        if not options:
            break
        pos = ctx.pick(options, "SGE-OPS-12", f"{name}: route toward {fmt_sector(target)}")
    return pos


# ---------------------------------------------------------------------------- Alliance
def is_alliance_actor(ctx: Ctx, actor: dict) -> bool:
    al = ctx.state["alliance"]
    if not al or al.get("used"):
        return False
    if actor["kind"] == "rebel":
        return al["kind"] == "rebel" and actor["sector"] == al["sector"]
    return al.get("force") == actor["force"]


def end_alliance(ctx: Ctx) -> None:
    """SGE-POOL-6: Alliance is discarded at the end of the Chaos Operations Phase."""
    if ctx.state["alliance"] is not None:
        ctx.state["alliance"] = None
        ctx.state["discard"].append("ALLIANCE")
        ctx.log("SGE-EV-ALLIANCE", "marker", "The Alliance ends with the Chaos Operations Phase")


def alliance_destinations(ctx: Ctx, actor: dict) -> list[int]:
    """SGE-POOL-19: within the slowest unit's MA, never into the Void, never out of a Living
    Nebula sector; an IE force must end at its home or next to it (SGE-EV-ALLIANCE)."""
    units = actor_units(ctx, actor)
    if not units:
        return []
    here = ctx.units[units[0]]["loc"]
    reach = chaos_reach(ctx, here, slowest_ma(ctx, units))
    if actor["kind"] == "ie":
        f = ctx.state["forces"][actor["force"]]
        home = ctx.state["ies"][str(f["ie"])]["home"]
        allowed = {home, *ctx.galaxy.neighbours[home]}
        reach &= allowed
    return sorted(reach)


def chaos_reach(ctx: Ctx, here: int, ma: int) -> set[int]:
    """Sectors a Chaos force can end in with ``ma`` steps (SGE-POOL-19): a step never enters
    the Void (Void cells are no sectors) and never leaves a Living Nebula sector, so a force
    cannot pass through one."""
    reach = {here}
    frontier = [here]
    for _ in range(ma):
        nxt = []
        for n in frontier:
            if nebula_at(ctx, n):
                continue
            for m in ctx.galaxy.neighbours[n]:
                if m not in reach:
                    reach.add(m)
                    nxt.append(m)
        frontier = nxt
    return reach


@procedure("alliance")
def alliance_proc(ctx: Ctx, frame: dict) -> None:
    actor = frame["actor"]
    units = actor_units(ctx, actor)
    if not units:
        ctx.pop()
        return
    name = actor_name(ctx, actor)
    if "moved" not in frame:
        if "answer" in frame:
            to = frame.pop("answer")["to"]
            move_units(ctx, actor_units(ctx, actor), to, "SGE-EV-ALLIANCE", f"{name} (Alliance)")
            frame["moved"] = True
            return
        dests = alliance_destinations(ctx, actor)
        if len(dests) <= 1:
            if dests and dests[0] != ctx.units[units[0]]["loc"]:
                move_units(ctx, units, dests[0], "SGE-EV-ALLIANCE", f"{name} (Alliance)")
            frame["moved"] = True
            return
        frame["dests"] = dests
        ctx.ask("alliance_move", f"Alliance: where do you move the {name}?", rule="SGE-EV-ALLIANCE",
                actor=actor)
        return
    if "answer" in frame:
        verb = frame.pop("answer")["verb"]
        ctx.state["alliance"]["used"] = True
        ctx.pop()
        if verb == "alliance_attack":
            chaos_attack(ctx, ctx.units[units[0]]["loc"], actor_key(actor), "SGE-EV-ALLIANCE")
        return
    n = ctx.units[units[0]]["loc"]
    if alliance_attack_possible(ctx, actor, n):
        ctx.ask("alliance_attack", f"Alliance: should the {name} attack the Imperial units in "
                f"{fmt_sector(n)}?", rule="SGE-EV-ALLIANCE", actor=actor)
        return
    ctx.state["alliance"]["used"] = True
    ctx.pop()


def alliance_attack_possible(ctx: Ctx, actor: dict, n: int) -> bool:
    s = ctx.system_at(n)
    targets = ctx.imp_mobile_at(n) or (s is not None and s["side"] == IMP)
    return bool(targets) and any(prohibited(ctx, n, k) is None for k in ("mil", "morph"))


@legal("alliance_move")
def legal_alliance_move(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "alliance_move", "to": n} for n in alliance_destinations(ctx, p["actor"])]


@legal("alliance_attack")
def legal_alliance_attack(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "alliance_attack"}, {"verb": "no_attack"}]


# ============================================================================ Phase 3
@procedure("phase3")
def phase3(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-5: every Usurper and Mutant force rolls on the Usurpation Table (the Mutant's
    force follows the Usurper rules, SGE-USU-1)."""
    entries = []
    for fid, f in ctx.state["forces"].items():
        if f["kind"] in ("usurper", "mutant"):
            loc = ctx.force_location(fid)
            if loc is not None:
                entries.append((loc, f["seq"], fid))
    for _, _, fid in sorted(entries):
        if fid in ctx.state["forces"] and ctx.state["outcome"] is None:
            usurpation(ctx, fid)
    ctx.pop()


def usurpation(ctx: Ctx, fid: str) -> None:
    """SGE-USU-2 and SGE-USU-3."""
    table = ctx.data["usurpation"]
    f = ctx.state["forces"][fid]
    n = ctx.force_location(fid)
    leader = table["mutant_leadership"] if f["kind"] == "mutant" else f["leader"]
    near = sum(len(ctx.leaders_in(m)) for m in ctx.galaxy.within(n, table["near_distance"]))
    mods = [("leader", leader),
            ("in the Core", table["modifiers"]["in_core"] if n == ctx.galaxy.core else 0),
            ("Imperial leaders near", table["modifiers"]["per_imperial_leader_near"] * near)]
    name = ctx.force_name(fid)
    roll = ctx.roll("d10", "SGE-USU-2", f"{name}: Usurpation Table", modifiers=mods,
                    refs=[sector_ref(n)])
    result = next(r["result"] for r in table["results"] if r["max"] is None or roll <= r["max"])
    ctx.log("SGE-USU-3", "usurpation", f"{name}: {result}", refs=[sector_ref(n)])
    units = ctx.force_units(fid)
    if result == "loyal":
        for uid in units:
            ctx.convert_unit(uid, "SGE-USU-3", "the usurper's force returns to the Empire")
        if fid in ctx.state["forces"]:
            ctx.end_force(fid, "Loyal")
        ctx.checks()
    elif result == "dissolution":
        ctx.end_force(fid, "Dissolution: its units become Rebels")
        ctx.checks()
    elif result == "coup" and n == ctx.galaxy.core:
        coup(ctx, fid, n, table)
    elif result in ("recruit", "coup"):
        usurper_recruit(ctx, fid, n)


def usurper_recruit(ctx: Ctx, fid: str, n: int) -> None:
    """SGE-USU-3 Recruit: an SF, or a CG when the force's total morph exceeds its total
    military. Totals leave parenthesized factors out (they only defend, SGE-REC-4); the
    Mutant's 3 counts toward its force's morph (SGE-CMB-11: it "counts as 3 morph")."""
    units = ctx.force_units(fid)
    mil = sum(ctx.factor(u, "mil", defending=False) for u in units)
    morph = sum(ctx.factor(u, "morph", defending=False) for u in units)
    if ctx.state["forces"][fid]["kind"] == "mutant":
        morph += ctx.data["event_values"]["mutant_morph_bonus"]
    choice = ctx.data["usurpation"]["recruit"]
    code = choice["morph_heavy"] if morph > mil else choice["default"]
    ctx.place_unit(code, CHAOS, n, "SGE-USU-3", force=fid,
                   why=f"recruited by {ctx.force_name(fid)}")


def coup(ctx: Ctx, fid: str, n: int, table: dict) -> None:
    """SGE-USU-3 Coup in the Core: CI up coup_ci_dice dice (one); each Imperial mobile unit
    there may turn."""
    rise = sum(ctx.roll("d10", "SGE-USU-3", "Coup: Chaos Index rise", refs=[sector_ref(n)])
               for _ in range(table["coup_ci_dice"]))
    ctx.change_ci(rise, "a coup in the Core", "SGE-USU-3")
    for uid in sorted(ctx.imp_mobile_at(n)):
        if ctx.state["outcome"] is not None:
            return
        if not ctx.changes_side(ctx.units[uid]):
            continue   # SGE-IO-2
        face = ctx.roll("d10", "SGE-USU-3", f"Coup: loyalty of {uid}", refs=[uid])
        if face <= table["coup_convert_face_max"]:
            ctx.convert_unit(uid, "SGE-USU-3", "joins the coup", force=fid)
    ctx.checks()


# ============================================================================ Phase 4
@procedure("phase4")
def phase4(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-6: each IE in number order conquers, then recruits."""
    for key in sorted(ctx.state["ies"], key=int):
        if key in ctx.state["ies"] and ctx.state["outcome"] is None:
            merge_detachments(ctx, int(key))
            conquer(ctx, int(key))
        if key in ctx.state["ies"] and ctx.state["outcome"] is None:
            recruit(ctx, int(key))
            merge_detachments(ctx, int(key))
    ctx.pop()


def ie_forces(ctx: Ctx, ie: int) -> tuple[str | None, str | None]:
    """(main mobile force, home detachment) of an IE."""
    main = detach = None
    for fid, f in ctx.state["forces"].items():
        if f["kind"] == "ie" and f["ie"] == ie:
            if f.get("detachment"):
                detach = fid
            else:
                main = fid
    return main, detach


def merge_detachments(ctx: Ctx, ie: int) -> None:
    """SGE-IE-5: a home detachment joins the mobile force when both share a sector, and
    becomes the mobile force when there is none."""
    main, detach = ie_forces(ctx, ie)
    if detach is None:
        return
    if main is None:
        ctx.state["forces"][detach]["detachment"] = False
        ctx.log("SGE-IE-5", "ie", f"IE #{ie}'s home detachment becomes its mobile force")
        return
    if ctx.force_location(main) == ctx.force_location(detach):
        for uid in ctx.force_units(detach):
            ctx.set_force(uid, main)
        del ctx.state["forces"][detach]
        ctx.log("SGE-IE-5", "ie", f"IE #{ie}'s home detachment joins its mobile force")


def threatened(ctx: Ctx, ie: int, n: int) -> bool:
    """SGE-IE-6: Imperial mobile units or a hostile force's units in n or next to it."""
    at = ctx._index()
    for m in (n, *ctx.galaxy.neighbours[n]):
        for uid in at.get(m, ()):
            u = ctx.units[uid]
            if u["side"] == IMP:
                return True
            if u["force"] is not None:
                f = ctx.state["forces"].get(u["force"])
                if f is not None and not (f["kind"] == "ie" and f["ie"] == ie):
                    return True
    return False


def nearest_threatened(ctx: Ctx, ie: int, here: int) -> int | None:
    """SGE-OPS-12: the nearest threatened sector of the IE; ties to the lowest number."""
    rec = ctx.state["ies"].get(str(ie))
    if rec is None:
        return None
    dist = ctx.galaxy.dist[here]
    # Nearest first (here, at distance 0, before any other): the first threatened one wins.
    for n in sorted(rec["sectors"], key=lambda n: (dist[n], n)):
        if threatened(ctx, ie, n):
            return n
    return None


def conquest_sectors(ctx: Ctx, ie: int) -> set[int]:
    """SGE-IE-7: the candidate sectors, unordered: next to the IE, in no IE."""
    rec = ctx.state["ies"].get(str(ie))
    if rec is None:
        return set()
    own = set(rec["sectors"])
    others = {n for k, r in ctx.state["ies"].items() if k != str(ie) for n in r["sectors"]}
    cands = set()
    for n in own:
        for m in ctx.galaxy.neighbours[n]:
            if m not in own and m not in others:
                cands.add(m)
    return cands


def conquest_candidates(ctx: Ctx, ie: int) -> list[int]:
    """SGE-IE-7: candidate sectors in priority order (best first)."""
    cands = conquest_sectors(ctx, ie)

    def priority(n: int) -> tuple:
        s = ctx.system_at(n)
        imp_units = ctx.imp_mobile_at(n)
        if s is not None and s["side"] == CHAOS and s["ie"] is None and not imp_units:
            return (0, 0, -n)
        if s is not None and s["side"] == IMP:
            # "the Imperial units there": the system unit counts with the mobile units.
            mil, morph, _ = ctx.system_values(s)
            strength = mil + morph + sum(ctx.factor(u, "mil") + ctx.factor(u, "morph")
                                         for u in imp_units)
            return (1, strength, -n)
        if ctx.galaxy.is_system[n] and s is None:
            return (2, 0, -n)
        return (3, 0, -n)

    return sorted(cands, key=priority)


def conquer(ctx: Ctx, ie: int) -> None:
    """SGE-IE-7: the IE takes the candidate sector its mobile force stands in, if no Imperial
    units and no other hostile force are there."""
    main, _ = ie_forces(ctx, ie)
    if main is None:
        return
    n = ctx.force_location(main)
    # n in conquest_sectors, asked of n alone: in no IE, next to one of this IE's sectors.
    if (n is None or ctx.ie_of_sector(n) is not None
            or not any(m in ctx.state["ies"][str(ie)]["sectors"] for m in ctx.galaxy.neighbours[n])):
        return
    units = ctx.units
    for uid in ctx.mobile_at(n):
        u = units[uid]
        if u["side"] == IMP:
            return
        if u["force"] is not None and u["force"] != main:
            f = ctx.state["forces"].get(u["force"])
            if f is not None and not (f["kind"] == "ie" and f["ie"] == ie):
                return
    s = ctx.system_at(n)
    if s is not None and s["side"] == IMP:
        return
    take_sector(ctx, ie, n, main, "SGE-IE-7")


def take_sector(ctx: Ctx, ie: int, n: int, force: str | None, rule: str) -> None:
    """An IE marker goes on n; a Rebel system and Rebel mobile units there join the IE."""
    ctx.add_ie_sector(ie, n)
    s = ctx.system_at(n)
    if s is not None and s["side"] == CHAOS and s["ie"] is None:
        s["ie"] = ie
    joined = 0
    if force is not None:
        for uid in ctx.rebels_at(n):
            ctx.set_force(uid, force)
            joined += 1
    ctx.log(rule, "ie", f"IE #{ie} takes {fmt_sector(n)}"
            + (f"; {joined} Rebel unit(s) join it" if joined else ""), refs=[sector_ref(n)])


def ie_recruit_units(ctx: Ctx, result: int) -> list[str]:
    """SGE-IE-4: the units of one modified IE Recruiting Table roll."""
    for row in ctx.data["ie_recruiting"]["rows"]:
        if row["max"] is None or result <= row["max"]:
            return list(row["units"])
    return []


def available_resources(ctx: Ctx, ie: int) -> int:
    """SGE-IE-2: effective RVs of the IE's systems, a Living Nebula sector left out."""
    nebulae = {a["loc"] for a in ctx.state["aliens"] if a["kind"] == "NEBULA"}   # nebula_at
    total = 0
    for key, s in ctx.systems.items():
        if s["side"] == CHAOS and s["ie"] == ie and (not nebulae or int(key) not in nebulae):
            total += ctx.effective_rv(s)
    return total


def recruit(ctx: Ctx, ie: int) -> None:
    """SGE-IE-5: ceil(resources / 4) rolls, each + home RV + leader; units to the home."""
    rec = ctx.state["ies"][str(ie)]
    table = ctx.data["ie_recruiting"]
    rolls = ceil_div(available_resources(ctx, ie), table["rv_per_roll"])
    home = rec["home"]
    home_sys = ctx.system_at(home)
    home_rv = ctx.effective_rv(home_sys) if home_sys else 0
    for k in range(rolls):
        result = ctx.roll("d10", "SGE-IE-5", f"IE #{ie} recruiting ({k + 1} of {rolls})",
                          modifiers=[("home RV", home_rv), ("leader", rec["leader"])],
                          refs=[sector_ref(home)], zero_as=table["zero_counts_as"])
        for code in ie_recruit_units(ctx, result):
            force = home_force(ctx, ie)
            ctx.place_unit(code, CHAOS, home, "SGE-IE-5", force=force, why=f"IE #{ie} recruits")


def home_force(ctx: Ctx, ie: int) -> str:
    """The force new recruits join: the mobile force if it is at home, else the home
    detachment (created if needed)."""
    rec = ctx.state["ies"][str(ie)]
    main, detach = ie_forces(ctx, ie)
    if main is not None and ctx.force_location(main) in (rec["home"], None):
        return main
    if detach is not None:
        return detach
    fid = ctx.new_force("ie", rec["leader"], "SGE-IE-5", ie=ie)
    ctx.state["forces"][fid]["detachment"] = main is not None
    return fid


# ============================================================================ IE founding
def establish_ie(ctx: Ctx, number: int, home: int, rule: str, arises: bool) -> None:
    """SGE-IE-3 with SGE-IE-9: home, leader, adjacent sectors, recruits, Rebels join; all
    stacked at home. Serves scenario set-ups and Independent Empire Arises."""
    leader, from_pool = ctx.draw_chaos_leader("SGE-IE-3", f"IE #{number} leader")
    # SGE-LDR-8: the leader marker stays with the IE until it dissolves.
    ctx.state["ies"][str(number)] = {"home": home, "leader": leader, "sectors": [home],
                                     "arises": arises, "leader_marker": from_pool}
    ctx.log(rule, "ie", f"Independent Empire #{number} is founded with its home in "
            f"{fmt_sector(home)} (leader {leader})", refs=[sector_ref(home)])
    s = ctx.system_at(home)
    if s is not None and s["side"] == IMP:
        # SGE-IE-9: an Imperial home flips with no CI change; mobile units there stay.
        ctx.convert_system(home, "SGE-IE-9", f"it becomes the home of IE #{number}", ie=number)
    elif s is not None:
        s["ie"] = number
    fid = ctx.new_force("ie", leader, rule, ie=number)
    # SGE-IE-9: adjacent sectors with no Imperial units and no other IE, highest first.
    others = {n for k, r in ctx.state["ies"].items() if k != str(number) for n in r["sectors"]}
    taken = []
    for m in sorted(ctx.galaxy.neighbours[home], reverse=True):
        if len(taken) >= leader:
            break
        if m in others or ctx.has_imperial_unit(m):
            continue
        taken.append(m)
        take_sector(ctx, number, m, None, "SGE-IE-3")
    # Recruits: one roll per leader point, each + home RV + leader value.
    home_sys = ctx.system_at(home)
    home_rv = ctx.effective_rv(home_sys) if home_sys else 0
    zero = ctx.data["ie_recruiting"]["zero_counts_as"]
    for k in range(leader):
        result = ctx.roll("d10", "SGE-IE-3", f"IE #{number} founding recruits ({k + 1} of {leader})",
                          modifiers=[("home RV", home_rv), ("leader", leader)],
                          refs=[sector_ref(home)], zero_as=zero)
        for code in ie_recruit_units(ctx, result):
            ctx.place_unit(code, CHAOS, home, "SGE-IE-3", force=fid, why=f"IE #{number} recruits")
    # Rebels at home and in the new sectors join, and everything stacks at home.
    for m in [home, *taken]:
        for uid in ctx.rebels_at(m):
            ctx.set_force(uid, fid)
            ctx.set_loc(uid, home)
    ctx.checks()


# ============================================================================ Phase 5
@procedure("phase5")
def phase5(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-7, SGE-EV-COLONIZATION, SGE-POOL-14: each Colonization marker of this turn
    puts a Chaos system unit in the highest-numbered empty system sector; outside an IE it is
    a Rebel system (SGE-REB-1)."""
    count = ctx.state["colonizations"]
    ctx.state["colonizations"] = 0
    for _ in range(count):
        empty = [n for n in ctx.galaxy.system_sectors if ctx.system_at(n) is None]
        if empty:
            n = max(empty)
            ie = None
            for fid in ctx.forces_at(n):
                f = ctx.state["forces"][fid]
                if f["kind"] == "ie":
                    ie = f["ie"]
                    break
            ctx.place_system(n, CHAOS, "SGE-EV-COLONIZATION", ie=ie,
                             why="Chaos colonization" + (f" for IE #{ie}" if ie else " (Rebel system)"))
        else:
            ctx.log("SGE-EV-COLONIZATION", "note", "No empty system sector: the Colonization has no effect")
        ctx.state["discard"].append("COLONIZATION")
    ctx.pop()
