"""The Imperial phases: 7 income, 8 maintenance, 9 recruitment, 10 movement, 11 combat,
12 colonization and 14 Extropy and End of Turn (SGE-SEQ-9, SGE-SEQ-10, SGE-SEQ-11,
SGE-SEQ-12, SGE-SEQ-13, SGE-SEQ-14, SGE-SEQ-16).

Each phase is a procedure ``phase<k>``; its player decisions are prompts whose legal actions
are registered here with ``@prompt`` and, for the large ones, a ``@checker`` that tests one
action without building the whole list. List and checker share the same reason functions
(``*_reason``), so they always agree. A prompt whose only legal action would be "done" is
skipped.

The option helpers (``recruit_options``, ``reachable``, ``movement_options``,
``attack_options``, ``colonize_options``, ``maintenance_bill``, ``extropy_cost``...) are public
for the UI and the bot.
"""

from __future__ import annotations

from functools import lru_cache

from struggle_desktop.games.struggle.combat import (imperial_attack_reason, prohibited,
                                                    resolve_imperial_attack)
from struggle_desktop.games.struggle.context import (CHAOS, IMP, Ctx, ceil_div, fmt_sector,
                                                     sector_ref)
from struggle_desktop.games.struggle.registry import explain, legal, procedure

#: Markers bought onto a sector, and markers bought into the Markers Available box.
SECTOR_MARKERS = ("nexus", "stargate", "increased_resources")
BOX_MARKERS = ("repression", "illumination")
#: The optional rule each marker needs (SGE-SEQ-19).
MARKER_OPTION = {"nexus": "nexus", "stargate": "stargates",
                 "increased_resources": "increased_resources",
                 "repression": "illumination", "illumination": "illumination"}
MARKER_RULE = {"nexus": "SGE-NEX-2", "stargate": "SGE-STG-3", "increased_resources": "SGE-IRS-1",
               "repression": "SGE-REP-1", "illumination": "SGE-ILL-2"}
MARKER_NAMES = {"nexus": "Nexus", "stargate": "Stargate",
                "increased_resources": "Increased Resources", "repression": "Repression",
                "illumination": "Illumination"}
COMBAT_KINDS = ("mil", "morph")
DONE = {"verb": "done"}


def _is_sector(ctx: Ctx, n) -> bool:
    """A sector number as an action may carry it (an int on the map, not a bool)."""
    return isinstance(n, int) and not isinstance(n, bool) and n in ctx.galaxy.neighbours


def _flag(ctx: Ctx, key: str) -> dict:
    """A per-turn record in ``turn_flags`` for writing (queries use ``.get``)."""
    return ctx.state["turn_flags"].setdefault(key, {})


def _imp_unit_on_map(ctx: Ctx, uid) -> dict | None:
    u = ctx.units.get(uid) if isinstance(uid, str) else None
    if u is None or u["side"] != IMP or u["loc"] is None:
        return None
    return u


# ============================================================================ Phase 7
def income(ctx: Ctx) -> int:
    """SGE-RES-5: the effective RV of every Imperial system outside a Living Nebula sector."""
    nebulae = {a["loc"] for a in ctx.state["aliens"] if a["kind"] == "NEBULA"}   # nebula_at
    return sum(ctx.effective_rv(s) for key, s in ctx.systems.items()
               if s["side"] == IMP and (not nebulae or int(key) not in nebulae))


@procedure("phase7")
def phase7(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-9: collect the income."""
    for a in ctx.state["aliens"]:
        if a["kind"] == "NEBULA" and ctx.imperial_controlled(a["loc"]):
            ctx.log("SGE-EV-NEBULA", "rp", f"The Living Nebula in {fmt_sector(a['loc'])} cuts "
                    "that system off: no RP from it", refs=[sector_ref(a["loc"])])
    gained = income(ctx)
    if gained:
        ctx.change_rp(gained, "income from Imperial systems", "SGE-RES-5")
    ctx.pop()


# ============================================================================ Phase 8
def nexus_upkeep(ctx: Ctx) -> int:
    """SGE-RES-6: per Nexus, doubled under Imperial Elites Demand Privileges."""
    table = ctx.data["misc_decided"]["maintenance"]
    return table["nexus_elites"] if ctx.effect_active("ELITES") else table["nexus"]


def maintenance_bill(ctx: Ctx) -> int:
    """SGE-RES-6: every Imperial mobile unit's upkeep plus the Nexus upkeep."""
    types = ctx.data.unit_types
    units = ctx.units
    at = ctx._index()
    upkeep = 0
    # ctx.imp_mobile_at in each of ctx.imperial_mobile_sectors, written out: the bill is
    # asked several times a turn, and most units on the map are Chaos ones.
    for n in ctx.imperial_mobile_sectors():
        for uid in at[n]:
            u = units[uid]
            if u["side"] == IMP:
                upkeep += types[u["type"]].upkeep
    return upkeep + nexus_upkeep(ctx) * len(ctx.state["nexus"])


@procedure("phase8")
def phase8(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-10: pay the bill, disbanding units or dropping Nexus markers when short."""
    if "answer" in frame:
        action = frame.pop("answer")
        if do_maintenance(ctx, action):
            ctx.pop()
        return
    bill = maintenance_bill(ctx)
    if bill == 0:
        ctx.pop()
        return
    short = bill > ctx.state["rp"]
    ctx.ask("maintenance", f"Maintenance is {bill} RP and you have {ctx.state['rp']} RP"
            + (": choose units to disband or Nexus markers to give up" if short
               else ": pay, or disband units first"), rule="SGE-RES-8" if short else "SGE-RES-6",
            bill=bill)


@legal("maintenance")
def legal_maintenance(ctx: Ctx, p: dict) -> list[dict]:
    short = maintenance_bill(ctx) > ctx.state["rp"]
    actions = [] if short else [{"verb": "pay"}]
    actions.extend({"verb": "disband", "unit": uid} for uid in sorted(
        uid for uid, u in ctx.units.items() if u["side"] == IMP and u["loc"] is not None))
    if short:
        actions.extend({"verb": "drop_nexus", "at": n} for n in sorted(ctx.state["nexus"]))
    return actions


@explain("maintenance")
def check_maintenance(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    keys = set(action)
    bill = maintenance_bill(ctx)
    short = bill > ctx.state["rp"]
    if verb == "pay" and keys == {"verb"}:
        return f"the bill of {bill} RP is more than your {ctx.state['rp']} RP" if short else None
    if verb == "disband" and keys == {"verb", "unit"}:
        return None if _imp_unit_on_map(ctx, action["unit"]) else \
            f"{action['unit']!r} is not an Imperial unit on the map"
    if verb == "drop_nexus" and keys == {"verb", "at"}:
        if not short:
            return "a Nexus is given up only when the RP cannot pay the bill"
        return None if _is_sector(ctx, action["at"]) and action["at"] in ctx.state["nexus"] \
            else f"there is no Nexus in {action['at']!r}"
    return "that is not a maintenance action (pay, disband or drop_nexus)"


def do_maintenance(ctx: Ctx, action: dict) -> bool:
    """Carry out one maintenance action; True once the bill is paid."""
    verb = action["verb"]
    bill = maintenance_bill(ctx)
    short = bill > ctx.state["rp"]
    if verb == "pay":
        ctx.change_rp(-bill, f"maintenance of {bill} RP", "SGE-RES-6")
        return True
    if verb == "disband":
        ctx.remove_unit(action["unit"], "SGE-RES-8",
                        "left unpaid and disbanded" if short else "disbanded by choice")
        ctx.checks()
    elif verb == "drop_nexus":
        ctx.lose_nexus(action["at"], "its maintenance is unpaid", "SGE-RES-8")
    return False


# ============================================================================ Phase 9
def slots_left(ctx: Ctx, n: int) -> int:
    """SGE-REC-8: new units sector n may still receive this turn (0 if it may not recruit)."""
    s = ctx.system_at(n)
    if s is None or s["side"] != IMP or ctx.chaos_mobile_at(n):
        return 0
    taken = ctx.state["turn_flags"].get("recruited", {}).get(str(n), 0)
    return ctx.effective_rv(s) - taken


def recruit_slots(ctx: Ctx) -> dict[int, int]:
    """Sector -> new units it may still receive this turn (SGE-REC-8)."""
    out = {}
    for n in ctx.imperial_system_sectors():
        left = slots_left(ctx, n)
        if left > 0:
            out[n] = left
    return out


def unit_type_reason(ctx: Ctx, code) -> str | None:
    """Why a unit type cannot be bought now anywhere, or None (SGE-REC-6, SGE-REC-8, SGE-IO-3,
    SGE-TH-3)."""
    t = ctx.data.unit_types.get(code) if isinstance(code, str) else None
    if t is None:
        return f"{code!r} is not a unit type"
    if t.needs is not None and not ctx.option(t.needs):
        return f"{t.name} units need the optional rule {t.needs}"
    if not ctx.state["mix"][code]:
        return f"no {code} counter is left in the mix"
    if t.cost > ctx.state["rp"]:
        return f"a {code} costs {t.cost} RP and you have {ctx.state['rp']}"
    return None


def buy_unit_reason(ctx: Ctx, code, n) -> str | None:
    reason = unit_type_reason(ctx, code)
    if reason is not None:
        return reason
    if not _is_sector(ctx, n):
        return f"{n!r} is not a sector"
    if not ctx.imperial_controlled(n):
        return f"{fmt_sector(n)} holds no Imperial system"
    if ctx.chaos_mobile_at(n):
        return f"Chaos mobile units stand in {fmt_sector(n)}"
    # slots_left, whose other conditions were just checked:
    taken = ctx.state["turn_flags"].get("recruited", {}).get(str(n), 0)
    if ctx.effective_rv(ctx.system_at(n)) - taken <= 0:
        return f"{fmt_sector(n)} has received as many new units as its RV allows this turn"
    return None


def _marker_stock(ctx: Ctx, marker: str) -> int:
    """Markers of this kind still in the inventory (SGE-REC-7)."""
    st = ctx.state
    total = ctx.data["markers"]["inventory"][marker]
    if marker == "nexus":
        used = len(st["nexus"])
    elif marker == "stargate":
        used = len(st["stargates"])
    elif marker == "increased_resources":
        used = sum(1 for s in ctx.systems.values() if s.get("irs"))
    else:
        used = st["available"].get(marker, 0)
    return total - used


def marker_price(ctx: Ctx, marker: str) -> int:
    """SGE-REC-9: RP for one purchase (Repression: one RP buys a batch)."""
    prices = ctx.data["markers"]["prices"]
    if marker == "illumination" and ctx.effect_active("ENLIGHTENMENT"):
        return prices["illumination_enlightenment"]
    if marker == "repression":
        return 1   # the table gives markers per RP: a purchase is one RP's worth
    return prices[marker]


def marker_reason(ctx: Ctx, marker) -> str | None:
    """Why a marker cannot be bought now at all, or None (SGE-REC-9, SGE-REP-1, SGE-ILL-1)."""
    if marker not in MARKER_OPTION:
        return f"{marker!r} is not a marker the Empire can buy"
    name = MARKER_NAMES[marker]
    if not ctx.option(MARKER_OPTION[marker]):
        return f"{name} markers need the optional rule {MARKER_OPTION[marker]}"
    if marker == "repression" and ctx.effect_active("ENLIGHTENMENT"):
        return "no Repression may be bought under Galactic Enlightenment (SGE-EV-ENLIGHTENMENT)"
    if marker == "illumination":
        if ctx.effect_active("ELITES"):
            return ("no Illumination may be bought under Imperial Elites Demand Privileges "
                    "(SGE-EV-ELITES)")
        if ctx.effect_active("PARANOIA"):
            return "no Illumination may be bought under Paranoia (SGE-EV-PARANOIA)"
    if _marker_stock(ctx, marker) <= 0:
        return f"every {name} marker is already in use"
    price = marker_price(ctx, marker)
    if price > ctx.state["rp"]:
        return f"a {name} marker costs {price} RP and you have {ctx.state['rp']}"
    return None


def marker_site_reason(ctx: Ctx, marker: str, n) -> str | None:
    """Why a sector marker cannot go in n (SGE-NEX-2, SGE-STG-3, SGE-IRS-1), or None."""
    if not _is_sector(ctx, n):
        return f"{n!r} is not a sector"
    s = ctx.system_at(n)
    if s is None or s["side"] != IMP:
        return f"{fmt_sector(n)} holds no Imperial system"
    if marker == "nexus":
        # nexus_sites (SGE-NEX-2) asked about n alone, an Imperial system sector
        if ctx.too_close_to_nexus(n):
            return f"{fmt_sector(n)} holds a Nexus or lies too close to one"
    elif marker == "stargate":
        if n in ctx.state["stargates"]:
            return f"{fmt_sector(n)} already has a Stargate"
    elif marker == "increased_resources":
        limit = ctx.data["misc_decided"]["increased_resources"]["max_base_rv"]
        if s.get("irs"):
            return f"the system in {fmt_sector(n)} already has Increased Resources"
        if ctx.system_values(s)[2] > limit:
            return f"the system in {fmt_sector(n)} has an RV above {limit}"
    return None


def recruit_options(ctx: Ctx) -> list[dict]:
    """Every purchase possible now (SGE-SEQ-11), without "done": units and markers, never a
    leader (leaders are not bought, SGE-LDR-6)."""
    actions: list[dict] = []
    types = [code for code in ctx.data.unit_types if unit_type_reason(ctx, code) is None]
    if types:
        sectors = sorted(recruit_slots(ctx))
        for code in types:
            actions.extend({"verb": "buy_unit", "type": code, "at": n} for n in sectors)
    for marker in SECTOR_MARKERS:
        if marker_reason(ctx, marker) is None:
            actions.extend({"verb": "buy_marker", "marker": marker, "at": n}
                           for n in ctx.imperial_system_sectors()
                           if marker_site_reason(ctx, marker, n) is None)
    for marker in BOX_MARKERS:
        if marker_reason(ctx, marker) is None:
            actions.append({"verb": "buy_marker", "marker": marker})
    return actions


def recruit_possible(ctx: Ctx) -> bool:
    """Cheap test: can anything at all be bought now? (The prompt is skipped otherwise.)"""
    if any(marker_reason(ctx, m) is None for m in BOX_MARKERS):
        return True
    if any(unit_type_reason(ctx, code) is None for code in ctx.data.unit_types) \
            and any(s["side"] == IMP and slots_left(ctx, int(key)) > 0
                    for key, s in ctx.systems.items()):
        return True
    sectors = ctx.imperial_system_sectors()
    return any(marker_reason(ctx, m) is None
               and any(marker_site_reason(ctx, m, n) is None for n in sectors)
               for m in SECTOR_MARKERS)


@procedure("phase9")
def phase9(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-11: buy units and markers until the player is done."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "done":
            ctx.pop()
        else:
            do_purchase(ctx, action)
        return
    if not recruit_possible(ctx):
        ctx.pop()
        return
    ctx.ask("recruitment", f"Recruitment: you have {ctx.state['rp']} RP", rule="SGE-SEQ-11")


@legal("recruitment")
def legal_recruit(ctx: Ctx, p: dict) -> list[dict]:
    return recruit_options(ctx) + [DONE]


@explain("recruitment")
def check_recruit(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    keys = set(action)
    if verb == "done" and keys == {"verb"}:
        return None
    if verb == "buy_unit" and keys == {"verb", "type", "at"}:
        return buy_unit_reason(ctx, action["type"], action["at"])
    if verb == "buy_marker":
        marker = action.get("marker")
        if marker in SECTOR_MARKERS and keys == {"verb", "marker", "at"}:
            return marker_reason(ctx, marker) or marker_site_reason(ctx, marker, action["at"])
        if marker in BOX_MARKERS and keys == {"verb", "marker"}:
            return marker_reason(ctx, marker)
    return "that is not a purchase (buy_unit, buy_marker or done)"


def do_purchase(ctx: Ctx, action: dict) -> None:
    """Pay for one unit or marker and put it in play (SGE-REC-8, SGE-REC-9)."""
    st = ctx.state
    if action["verb"] == "buy_unit":
        code, n = action["type"], action["at"]
        ctx.change_rp(-ctx.data.unit_types[code].cost, f"{code} recruited", "SGE-REC-8")
        ctx.place_unit(code, IMP, n, "SGE-REC-8", why="recruited")
        recruited = _flag(ctx, "recruited")
        recruited[str(n)] = recruited.get(str(n), 0) + 1
        return
    marker = action["marker"]
    rule = MARKER_RULE[marker]
    name = MARKER_NAMES[marker]
    ctx.change_rp(-marker_price(ctx, marker), f"{name} marker bought", rule)
    if marker in BOX_MARKERS:
        count = 1
        if marker == "repression":   # SGE-REP-1: one RP buys a batch (two under Paranoia)
            prices = ctx.data["markers"]["prices"]
            per_rp = prices["repression_per_rp_paranoia" if ctx.effect_active("PARANOIA")
                            else "repression_per_rp"]
            count = min(per_rp, _marker_stock(ctx, marker))
        st["available"][marker] = st["available"].get(marker, 0) + count
        ctx.log(rule, "marker", f"{count} {name} marker(s) go to the Markers Available box "
                f"(now {st['available'][marker]})")
        return
    n = action["at"]
    if marker == "nexus":
        st["nexus"].append(n)
        st["nexus"].sort()
    elif marker == "stargate":
        st["stargates"].append(n)
        st["stargates"].sort()
    else:
        ctx.systems[str(n)]["irs"] = True   # SGE-IRS-2: effective RV + 1 from now on
    ctx.log(rule, "marker", f"{name} marker placed in {fmt_sector(n)}", refs=[sector_ref(n)])


# ============================================================================ Phase 10
def ma_left(ctx: Ctx, uid: str) -> int:
    """MA the unit has not yet spent this phase (SGE-SEQ-12)."""
    t = ctx.data.unit_types[ctx.units[uid]["type"]]
    return t.ma - ctx.state["turn_flags"].get("ma_used", {}).get(uid, 0)


def costs_from(ctx: Ctx, start: int, budget: int) -> dict[int, int]:
    """Least MA cost from ``start`` to every sector reachable within ``budget`` (start left
    out). One MA per step across a shared edge; one hop between Stargate sectors costs the
    table's Stargate price (Stargates enhance movement, SGE-STG-1, SGE-STG-2); nobody leaves a
    Living Nebula sector (SGE-EV-NEBULA), so a Nebula sector may end a move but never lies on
    its way. Returns a fresh dict."""
    return dict(_shared_costs(ctx, start, budget))


def _shared_costs(ctx: Ctx, start: int, budget: int) -> dict[int, int]:
    """``costs_from``'s table itself, which may be the cache's own: read it, never change it."""
    nebulae = frozenset(a["loc"] for a in ctx.state["aliens"] if a["kind"] == "NEBULA")
    if budget <= 0 or start in nebulae:
        return {}
    hop = ctx.data["misc_decided"]["stargates"]["move_cost"]
    return _least_costs(ctx.galaxy, start, budget, nebulae,
                        tuple(sorted(ctx.state["stargates"])), hop)


@lru_cache(maxsize=8192)
def _least_costs(galaxy, start: int, budget: int, nebulae: frozenset, gates: tuple,
                 hop: int) -> dict[int, int]:
    """Dial's shortest paths with whole-MA costs, cached: the answer depends only on the
    arguments (the cached dict is only read, through ``_shared_costs``, or copied)."""
    neighbours = galaxy.neighbours
    best = {start: 0}
    beyond = budget + 1
    buckets: list[list[int]] = [[] for _ in range(beyond)]
    buckets[0].append(start)
    for cost in range(beyond):
        for n in buckets[cost]:
            if best[n] != cost or (n != start and n in nebulae):
                continue
            # The steps from n: to each neighbour, then through the Stargates.
            new = cost + 1
            if new <= budget:
                for m in neighbours[n]:
                    if new < best.get(m, beyond):
                        best[m] = new
                        buckets[new].append(m)
            if n in gates:
                new = cost + hop
                if new <= budget:
                    for g in gates:
                        if g != n and new < best.get(g, beyond):
                            best[g] = new
                            buckets[new].append(g)
    del best[start]
    return best


def reachable(ctx: Ctx, uid: str) -> dict[int, int]:
    """Sector -> MA cost for every sector the Imperial unit can still reach this phase
    (its own sector excluded). The UI highlights these."""
    u = _imp_unit_on_map(ctx, uid)
    if u is None:
        return {}
    return costs_from(ctx, u["loc"], ma_left(ctx, uid))


def _imp_units_by_sector(ctx: Ctx) -> dict[int, list[str]]:
    """Sector -> the Imperial mobile units there, by counter id (from the index)."""
    return {n: sorted(ctx.imp_mobile_at(n)) for n in ctx.imperial_mobile_sectors()}


def stack_costs(ctx: Ctx, n: int) -> tuple[list[str], dict[int, int]]:
    """The Imperial mobile units in n and the least costs from n within the largest MA left
    among them (used by move_stack)."""
    uids = sorted(ctx.imp_mobile_at(n))
    top = max((ma_left(ctx, uid) for uid in uids), default=0)
    return uids, costs_from(ctx, n, top)


def movement_options(ctx: Ctx) -> list[dict]:
    """Every move, stack move and leader transfer possible now (SGE-SEQ-12, SGE-LDR-3)."""
    actions: list[dict] = []
    for n, uids in sorted(_imp_units_by_sector(ctx).items()):
        budgets = {uid: ma_left(ctx, uid) for uid in uids}
        costs = costs_from(ctx, n, max(budgets.values()))
        reachable_sectors = sorted(costs)
        stack_to = set()
        for uid in uids:
            for m in reachable_sectors:
                if costs[m] <= budgets[uid]:
                    actions.append({"verb": "move", "unit": uid, "to": m})
                    stack_to.add(m)
        actions.extend({"verb": "move_stack", "from": n, "to": m} for m in sorted(stack_to))
        free = [uid for uid in uids if not ctx.units[uid]["leader"]]
        for uid in uids:
            if ctx.units[uid]["leader"]:
                actions.extend({"verb": "move_leader", "unit": uid, "to_unit": other}
                               for other in free)
    return actions


def movement_possible(ctx: Ctx) -> bool:
    """Cheap test: is any move or leader transfer possible? (Every sector has a neighbour.)"""
    nebulae = {a["loc"] for a in ctx.state["aliens"] if a["kind"] == "NEBULA"}
    led: set = set()
    free: set = set()
    # ctx.imp_mobile_at and ma_left, written out: asked after every move of the phase.
    units = ctx.units
    types = ctx.data.unit_types
    used = ctx.state["turn_flags"].get("ma_used", {})
    at = ctx._index()
    for n in ctx.imperial_mobile_sectors():
        for uid in at[n]:
            u = units[uid]
            if u["side"] != IMP:
                continue
            if n not in nebulae and types[u["type"]].ma - used.get(uid, 0) > 0:
                return True
            (led if u["leader"] else free).add(n)
    return bool(led & free)


def move_reason(ctx: Ctx, action: dict) -> str | None:
    """Why a movement action is illegal, or None (SGE-SEQ-12, SGE-STG-2, SGE-LDR-3)."""
    verb = action.get("verb")
    keys = set(action)
    if verb == "move" and keys == {"verb", "unit", "to"}:
        if _imp_unit_on_map(ctx, action["unit"]) is None:
            return f"{action['unit']!r} is not an Imperial unit on the map"
        if not _is_sector(ctx, action["to"]):
            return f"{action['to']!r} is not a sector"
        if action["to"] not in reachable(ctx, action["unit"]):
            return f"{action['unit']} cannot reach {fmt_sector(action['to'])} this phase"
        return None
    if verb == "move_stack" and keys == {"verb", "from", "to"}:
        n, m = action["from"], action["to"]
        if not _is_sector(ctx, n) or not _is_sector(ctx, m):
            return "a stack moves from one sector to another"
        uids, costs = stack_costs(ctx, n)
        if not uids:
            return f"no Imperial mobile unit stands in {fmt_sector(n)}"
        if m not in costs or all(ma_left(ctx, uid) < costs[m] for uid in uids):
            return f"no unit in {fmt_sector(n)} can reach {fmt_sector(m)} this phase"
        return None
    if verb == "move_leader" and keys == {"verb", "unit", "to_unit"}:
        a = _imp_unit_on_map(ctx, action["unit"])
        b = _imp_unit_on_map(ctx, action["to_unit"])
        if a is None or not a["leader"]:
            return f"{action['unit']!r} is not an Imperial unit carrying a leader"
        if b is None or action["to_unit"] == action["unit"] or b["loc"] != a["loc"]:
            return "a leader can only change to another Imperial mobile unit in its sector"
        if b["leader"]:
            return f"{action['to_unit']} already carries a leader"
        return None
    if verb == "done" and keys == {"verb"}:
        return None
    return "that is not a movement action (move, move_stack, move_leader or done)"


def _move_units(ctx: Ctx, uids: list[str], to: int, cost: int) -> None:
    """Move each unit (at least one) to ``to``, spending ``cost`` MA of each."""
    used = _flag(ctx, "ma_used")
    units = ctx.units
    keeps_log = ctx.keeps_log
    for uid in uids:
        used[uid] = used.get(uid, 0) + cost
        if keeps_log:
            loc = units[uid]["loc"]
            ctx.log("SGE-SEQ-12", "move", f"{uid} moves {fmt_sector(loc)} -> {fmt_sector(to)} "
                    f"({cost} MA)", refs=[uid, sector_ref(loc), sector_ref(to)])
        ctx.set_loc(uid, to)


def do_move(ctx: Ctx, action: dict) -> None:
    verb = action["verb"]
    if verb == "move":
        uid = action["unit"]
        _move_units(ctx, [uid], action["to"], reachable(ctx, uid)[action["to"]])
    elif verb == "move_stack":
        # stack_costs, with each unit's MA left (ma_left) worked out once and only the cost
        # to the destination read from the cached table: a stack move is the bot's usual one.
        n, to = action["from"], action["to"]
        units = ctx.units
        types = ctx.data.unit_types
        used = ctx.state["turn_flags"].get("ma_used", {})
        left = {uid: types[units[uid]["type"]].ma - used.get(uid, 0)
                for uid in sorted(ctx.imp_mobile_at(n))}
        cost = _shared_costs(ctx, n, max(left.values()))[to]
        _move_units(ctx, [uid for uid, ma in left.items() if ma >= cost], to, cost)
    elif verb == "move_leader":
        a, b = ctx.units[action["unit"]], ctx.units[action["to_unit"]]
        b["leader"], a["leader"] = a["leader"], None
        ctx.log("SGE-LDR-3", "leader", f"Imperial leader {b['leader']} moves from "
                f"{action['unit']} to {action['to_unit']}",
                refs=[action["unit"], action["to_unit"]])


@procedure("phase10")
def phase10(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-12: moves one at a time until the player is done."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "done":
            ctx.pop()
        else:
            do_move(ctx, action)
        return
    if not movement_possible(ctx):
        ctx.pop()
        return
    ctx.ask("movement", "Move your units (or transfer leaders), then end the phase",
            rule="SGE-SEQ-12")


@legal("movement")
def legal_movement(ctx: Ctx, p: dict) -> list[dict]:
    return movement_options(ctx) + [DONE]


@explain("movement")
def check_movement(ctx: Ctx, p: dict, action: dict) -> str | None:
    return move_reason(ctx, action)


# ============================================================================ Phase 11
def attack_reason(ctx: Ctx, n, kind) -> str | None:
    """Why the Empire may not attack now in n with ``kind``: the per-turn limit (SGE-CMB-4),
    then the combat module's own conditions."""
    if kind not in COMBAT_KINDS:
        return f"{kind!r} is not a combat type (mil or morph)"
    if not _is_sector(ctx, n):
        return f"{n!r} is not a sector"
    return _attack_limit_reason(ctx, n, kind) or imperial_attack_reason(ctx, n, kind)


def _attack_limit_reason(ctx: Ctx, n: int, kind: str) -> str | None:
    """SGE-CMB-4: one attack of each type per sector and turn."""
    limit = ctx.data["combat_limits"]["attacks_per_sector_per_type"]
    if ctx.state["turn_flags"].get("attacks", {}).get(f"{n}:{kind}", 0) >= limit:
        return f"the Empire has already made that kind of attack in {fmt_sector(n)} this turn"
    return None


def _open_attacks(ctx: Ctx):
    """The (sector, type) pairs the Empire may attack now: ``attack_reason`` of each
    candidate, where the candidates already meet the conditions on who stands there, so
    only the per-turn limit and the aliens' prohibitions (SGE-CMB-5) are left to ask."""
    limit = ctx.data["combat_limits"]["attacks_per_sector_per_type"]   # _attack_limit_reason
    made = ctx.state["turn_flags"].get("attacks", {})
    aliens = ctx.state["aliens"]   # without aliens nothing is prohibited (SGE-CMB-5)
    for n, kind in _attack_candidates(ctx):
        if made.get(f"{n}:{kind}", 0) < limit and (not aliens or prohibited(ctx, n, kind) is None):
            yield n, kind


def _attack_candidates(ctx: Ctx):
    """(sector, type) pairs worth asking the combat module about: only sectors on the map
    holding both Imperial mobile units and Chaos units (it refuses all others)."""
    # ctx.mobile_count and ctx.system_at, written out: asked at every step of Phase 11 and
    # at every combat decision of the bot.
    at = ctx._index()
    systems = ctx.systems
    for n, imperial in sorted(ctx.imperial_mobile_sectors().items()):
        if len(at[n]) > imperial:
            found = True
        else:
            s = systems.get(str(n))
            found = s is not None and s["side"] == CHAOS
        if found:
            for kind in COMBAT_KINDS:
                yield n, kind


def attack_options(ctx: Ctx) -> list[dict]:
    """Every attack the Empire may declare now (SGE-SEQ-13)."""
    return [{"verb": "attack", "at": n, "type": kind} for n, kind in _open_attacks(ctx)]


def attack_possible(ctx: Ctx) -> bool:
    return any(True for _ in _open_attacks(ctx))


@procedure("phase11")
def phase11(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-13: attacks one at a time; at the end, IE sectors may be lost (SGE-IE-7)."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "attack":
            n, kind = action["at"], action["type"]
            attacks = _flag(ctx, "attacks")
            attacks[f"{n}:{kind}"] = attacks.get(f"{n}:{kind}", 0) + 1
            resolve_imperial_attack(ctx, n, kind)
            return
    elif attack_possible(ctx):
        ctx.ask("combat", "Declare an attack, or end the combat phase", rule="SGE-SEQ-13")
        return
    ie_sector_losses(ctx)
    ctx.pop()


@legal("combat")
def legal_combat(ctx: Ctx, p: dict) -> list[dict]:
    return attack_options(ctx) + [DONE]


@explain("combat")
def check_combat(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    if verb == "done" and set(action) == {"verb"}:
        return None
    if verb == "attack" and set(action) == {"verb", "at", "type"}:
        return attack_reason(ctx, action["at"], action["type"])
    return "that is not a combat action (attack or done)"


def ie_sector_losses(ctx: Ctx) -> None:
    """SGE-IE-7, last bullet: an IE sector with no system of that IE, holding Imperial units
    and no unit of that IE, loses its IE marker at the end of Phase 11."""
    st = ctx.state
    systems = ctx.systems
    imperial = ctx.imperial_mobile_sectors()
    for key in sorted(st["ies"], key=int):
        ie = int(key)
        rec = st["ies"][key]
        for n in list(rec["sectors"]):
            s = systems.get(str(n))
            if s is not None and s["side"] == CHAOS and s["ie"] == ie:
                continue
            # ctx.has_imperial_unit, written out: most IE sectors hold no Imperial unit.
            if not ((s is not None and s["side"] == IMP) or n in imperial):
                continue
            forces = {fid for fid, f in st["forces"].items() if f["kind"] == "ie" and f["ie"] == ie}
            if any(ctx.units[uid]["force"] in forces for uid in ctx.mobile_at(n)):
                continue
            rec["sectors"].remove(n)
            ctx.log("SGE-IE-7", "ie", f"IE #{ie} loses {fmt_sector(n)}: Imperial units hold it "
                    "and nothing of the IE remains there", refs=[sector_ref(n)])


# ============================================================================ Phase 12
def colonize_reason(ctx: Ctx, uid) -> str | None:
    """SGE-SEQ-14: an Imperial CF in an empty system sector without Chaos units, once per
    sector per turn, while the system pool has a counter."""
    u = _imp_unit_on_map(ctx, uid)
    if u is None or u["type"] != "CF":
        return f"{uid!r} is not an Imperial Colonization Fleet on the map"
    n = u["loc"]
    if not ctx.galaxy.is_system[n]:
        return f"{fmt_sector(n)} is not a system sector"
    if ctx.system_at(n) is not None:
        return f"{fmt_sector(n)} already holds a system unit"
    if ctx.chaos_mobile_at(n):
        return f"Chaos units stand in {fmt_sector(n)}"
    limit = ctx.data["misc_decided"]["colonization"]["per_sector_per_turn"]
    if ctx.state["turn_flags"].get("colonized", {}).get(str(n), 0) >= limit:
        return f"{fmt_sector(n)} has already been colonized this turn"
    if not ctx.state["system_pool"]:
        return "no system unit is left in the pool"
    return None


def colonize_options(ctx: Ctx) -> list[dict]:
    units = ctx.units
    at = ctx._index()
    # Only Imperial CFs on the map can colonize (colonize_reason): those of the index.
    fleets = [uid for n in ctx.imperial_mobile_sectors() for uid in at[n]
              if units[uid]["type"] == "CF" and units[uid]["side"] == IMP]
    return [{"verb": "colonize", "unit": uid} for uid in sorted(fleets)
            if colonize_reason(ctx, uid) is None]


@procedure("phase12")
def phase12(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-14: the player may expend Colonization Fleets to found Imperial systems."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] == "done":
            ctx.pop()
            return
        uid = action["unit"]
        n = ctx.units[uid]["loc"]
        colonized = _flag(ctx, "colonized")
        colonized[str(n)] = colonized.get(str(n), 0) + 1
        ctx.remove_unit(uid, "SGE-SEQ-14", "expended to found a colony")
        ctx.place_system(n, IMP, "SGE-SEQ-14", why="colonized by the Empire")
        return
    if not colonize_options(ctx):
        ctx.pop()
        return
    ctx.ask("colonization", "Expend Colonization Fleets to found Imperial systems?",
            rule="SGE-SEQ-14")


@legal("colonization")
def legal_colonize(ctx: Ctx, p: dict) -> list[dict]:
    return colonize_options(ctx) + [DONE]


@explain("colonization")
def check_colonize(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    if verb == "done" and set(action) == {"verb"}:
        return None
    if verb == "colonize" and set(action) == {"verb", "unit"}:
        return colonize_reason(ctx, action["unit"])
    return "that is not a colonization action (colonize or done)"


# ============================================================================ Phase 14
def extropy_cost(ctx: Ctx) -> int:
    """SGE-EXT-2: one RP per started block of Imperial systems, at least the minimum."""
    table = ctx.data["extropy"]
    return max(table["min_cost"], ceil_div(ctx.vp(), table["systems_per_rp"]))


def extropy_reason(ctx: Ctx) -> str | None:
    """Why no Extropy operation is possible now (SGE-EXT-1, SGE-EXT-2), or None."""
    if ctx.effect_active("PARANOIA"):
        return "Paranoia forbids extropy operations this turn (SGE-EV-PARANOIA)"
    if ctx.state["turn_flags"].get("extropy", 0) >= ctx.data["extropy"]["per_turn"]:
        return "the Empire has already conducted its extropy operation this turn"
    cost = extropy_cost(ctx)
    if cost > ctx.state["rp"]:
        return f"an extropy operation costs {cost} RP and you have {ctx.state['rp']}"
    return None


def illumination_reason(ctx: Ctx) -> str | None:
    """Why no Illumination marker may be spent now (SGE-ILL-3), or None."""
    if not ctx.option("illumination"):
        return "Illumination needs the optional rule illumination"
    if ctx.state["available"].get("illumination", 0) <= 0:
        return "no Illumination marker is in the Markers Available box"
    if ctx.state["turn_flags"].get("illumination", 0) >= ctx.data["illumination"]["per_turn"]:
        return "an Illumination marker has already been spent this turn"
    return None


def th_sites(ctx: Ctx) -> list[int]:
    """SGE-ILL-3: where Illumination may raise a Trans-human (the Core or a Nexus sector,
    Imperial-controlled), with the Trans-humans rule and a TH counter left."""
    if not ctx.option("trans_humans") or not ctx.state["mix"]["TH"]:
        return []
    sites: set[int] = set()
    for kind in ctx.data["illumination"]["th_placement"]:
        if kind == "core":
            sites.add(ctx.galaxy.core)
        elif kind == "nexus":
            sites.update(ctx.state["nexus"])
        else:
            raise ValueError(f"unknown Illumination TH site kind {kind!r}")
    return sorted(n for n in sites if ctx.imperial_controlled(n))


def th_site_reason(ctx: Ctx, n) -> str | None:
    if not ctx.option("trans_humans"):
        return "raising Trans-humans needs the optional rule trans_humans"
    if not ctx.state["mix"]["TH"]:
        return "no TH counter is left in the mix"
    if not _is_sector(ctx, n) or n not in th_sites(ctx):
        return f"{n!r} is not the Core or a Nexus sector under Imperial control"
    return None


def end_turn_options(ctx: Ctx) -> list[dict]:
    """Extropy and Illumination choices open now (SGE-SEQ-16 step 1), without "done"."""
    actions = []
    if extropy_reason(ctx) is None:
        actions.append({"verb": "extropy"})
    if illumination_reason(ctx) is None:
        actions.append({"verb": "illuminate", "effect": "ci"})
        actions.extend({"verb": "illuminate", "effect": "th", "at": n} for n in th_sites(ctx))
    return actions


def illumination_ci_drop(ctx: Ctx, face: int) -> int:
    """SGE-ILL-3: how far one Illumination lowers the CI for a die face."""
    mode = ctx.data["illumination"]["ci_reduction"]
    if mode == "half_die_rounded_up":
        return ceil_div(face, 2)
    raise ValueError(f"unknown Illumination CI reduction {mode!r}")


def do_end_turn_action(ctx: Ctx, action: dict) -> None:
    flags = ctx.state["turn_flags"]
    if action["verb"] == "extropy":
        cost = extropy_cost(ctx)
        flags["extropy"] = flags.get("extropy", 0) + 1
        ctx.change_rp(-cost, "extropy operation", "SGE-EXT-2")
        face = ctx.roll("d10", "SGE-EXT-2", "Extropy Table")
        change = ctx.data["extropy"]["ci_change_by_face"][face]
        if change:
            ctx.change_ci(change, "extropy operation", "SGE-EXT-2")
        else:
            ctx.log("SGE-EXT-2", "ci", "The extropy operation leaves the CI unchanged")
        return
    flags["illumination"] = flags.get("illumination", 0) + 1
    ctx.state["available"]["illumination"] -= 1   # back to the inventory (SGE-ILL-3)
    if action["effect"] == "ci":
        face = ctx.roll("d10", "SGE-ILL-3", "Illumination")
        drop = illumination_ci_drop(ctx, face)
        if drop:
            ctx.change_ci(-drop, "Illumination", "SGE-ILL-3")
        else:
            ctx.log("SGE-ILL-3", "ci", "The Illumination leaves the CI unchanged")
    else:
        ctx.place_unit("TH", IMP, action["at"], "SGE-ILL-3", why="raised by Illumination")


@procedure("phase14")
def phase14(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-16: Extropy and Illumination in either order, then the end of the turn."""
    if "answer" in frame:
        action = frame.pop("answer")
        if action["verb"] != "done":
            do_end_turn_action(ctx, action)
            return
    elif end_turn_options(ctx):
        ctx.ask("end_of_turn", "Conduct an extropy operation or spend Illumination, then end "
                "the turn", rule="SGE-SEQ-16")
        return
    from struggle_desktop.games.struggle.turn import end_of_turn

    end_of_turn(ctx)
    ctx.pop()


@legal("end_of_turn")
def legal_end_turn(ctx: Ctx, p: dict) -> list[dict]:
    return end_turn_options(ctx) + [DONE]


@explain("end_of_turn")
def check_end_turn(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    keys = set(action)
    if verb == "done" and keys == {"verb"}:
        return None
    if verb == "extropy" and keys == {"verb"}:
        return extropy_reason(ctx)
    if verb == "illuminate":
        effect = action.get("effect")
        if effect == "ci" and keys == {"verb", "effect"}:
            return illumination_reason(ctx)
        if effect == "th" and keys == {"verb", "effect", "at"}:
            return illumination_reason(ctx) or th_site_reason(ctx, action["at"])
    return "that is not an end-of-turn action (extropy, illuminate or done)"


__all__ = ["income", "maintenance_bill", "recruit_options", "recruit_slots", "reachable",
           "costs_from", "movement_options", "attack_options", "colonize_options",
           "extropy_cost", "end_turn_options", "ie_sector_losses", "th_sites"]
