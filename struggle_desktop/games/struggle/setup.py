"""Setting up a game: the pools, then a scenario's items in the order of SGE-SEQ-2.

``new_state`` builds the empty state; the ``setup`` procedure applies the scenario items
(4 Imperial sectors, 2 Chaos sectors, 3 Chaos forces, 5 Imperial forces with the player's
placements, 6 markers, 7 RP, 1 CI, 10 special rules), so the placement prompt of step 5 is an
ordinary saved prompt like any other.
"""

from __future__ import annotations

from functools import lru_cache

from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx, fmt_sector, sector_ref
from struggle_desktop.games.struggle.data import StruggleData
from struggle_desktop.engine.actions import action_in
from struggle_desktop.games.struggle.registry import explain, legal, procedure

OPTION_KEYS = ("imperial_order", "trans_humans", "nexus", "illumination", "stargates",
               "increased_resources", "expeditions")


def parse_range(spec: str) -> tuple[int, int]:
    lo, _, hi = str(spec).partition("-")
    return int(lo), int(hi or lo)


@lru_cache(maxsize=4)
def _counter_ids(data: StruggleData) -> dict[str, tuple[str, ...]]:
    """Unit type -> the ids of all its counters ("SF-01"...), made once per set of tables."""
    return {code: tuple(f"{code}-{k:02d}" for k in range(1, t.counters + 1))
            for code, t in data.unit_types.items()}


def new_state(data: StruggleData, scenario: dict, base: dict, seed: int, options: dict,
              sweep: bool, max_turns: int) -> dict:
    """The state before any scenario item: pools full, map empty (SGE-SEQ-2 steps 1-3)."""
    pool: list[str] = []
    removed: list[str] = []
    needs_option = {"expeditions": "expeditions", "illumination": "illumination",
                    "trans_humans": "trans_humans"}
    for marker in data["event_pool"]["markers"]:
        need = marker.get("needs")
        target = pool if (need is None or options.get(needs_option[need])) else removed  # SGE-POOL-5
        target.extend([marker["id"]] * marker["count"])
    mix = {code: list(uids) for code, uids in _counter_ids(data).items()}
    leaders = data["leaders"]
    expedition_cup = []
    for m in data["expedition_markers"]["markers"]:
        expedition_cup.extend([m["id"]] * m["count"])
    return {
        "game": "struggle",
        "scenario": str(scenario["id"]),
        "base": str(base["id"]),
        "sweep": sweep,
        "options": dict(options),
        "seed": seed,
        "rng": [0, 1],
        "turn": 0,
        "phase": 0,
        "turns": None if sweep else base["turns"],
        "max_turns": max_turns,
        "victory": dict(base["victory"]),
        "ci2": 0,
        "rp": 0,
        "units": {},
        "mix": mix,
        "systems": {},
        "system_pool": sorted(data.system_counters),
        "forces": {},
        "next_seq": 0,
        "ies": {},
        "imp_leaders": sorted(leaders["imperial"]),
        "chaos_leaders": sorted(leaders["chaos"]),
        "aliens": [],
        "institutes": [],
        "expedition_sites": [],
        "nexus": [],   # sectors: a Nexus is a marker, not a unit (SGE-NEX-5)
        "stargates": [],
        "leviathan": False,
        "effects": [],
        "alliance": None,
        "colonizations": 0,
        "available": {"repression": 0, "illumination": 0},
        "pool": pool,
        "discard": [],
        "removed": removed,
        "set_aside": [],
        "scheduled": [],
        "expedition_cup": expedition_cup,
        "turn_flags": {},
        "in_event": False,
        "stats": {"ci_changes": 0, "combats": 0, "events": 0},
        "stack": [{"proc": "game"}, {"proc": "setup", "step": 0}],
        "pending": None,
        "outcome": None,
        "log": [],
        "scenario_rules": {
            "first_turn_rounds": base.get("first_turn_rounds", 1),
            "turn1_rebellion_limit": base.get("turn1_rebellion_limit"),
        },
    }


@procedure("setup")
def setup_proc(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-2: step 3 (the scenario's own markers leave the pool), then step 4, the
    scenario's items in order 4, 2, 3, 5 (with the player's placements, step 5), 6, 7, 1,
    10. Scenario 2 forms its Chaos forces (item 3) after its item 5."""
    sc = ctx.data.scenarios[ctx.state["base"]]
    step = frame["step"]
    if step == 0:
        ctx.log("SGE-SEQ-2", "setup", f"Setting up scenario {sc['id']}: {sc['title']}"
                + (" as Sweep of Empire" if ctx.state["sweep"] else ""))
        scenario_pool(ctx, sc)                     # step 3
        imperial_sectors(ctx, sc)
        chaos_sectors(ctx, sc)
        if not sc.get("imperial_forces_parity_flip"):
            chaos_forces(ctx, sc)
        create_imperial_forces(ctx, sc)
        frame["step"] = 1
        return
    if step == 1:
        # SGE-SEQ-2 step 5: the player places what the scenario leaves to him.
        if placement_left(ctx):
            if "answer" in frame:
                do_placement(ctx, frame.pop("answer"))
                return
            ctx.ask("setup_placement", "Place your starting forces, leaders and Nexus markers "
                    "(or let the program place them)", rule="SGE-SEQ-21")
            return
        frame["step"] = 2
        return
    # step 2: items after the placements
    if sc.get("imperial_forces_parity_flip"):
        parity_flip_forces(ctx)                    # Scenario 2's item 3 (SGE-SEQ-20)
    imperial_markers(ctx, sc)                      # item 6 (leaders and Nexus: step 1)
    ctx.state["rp"] = sc["rp"]                     # item 7
    ctx.state["ci2"] = sc["ci"] * 2                # item 1
    ctx.log("SGE-SEQ-2", "setup", f"Starting Chaos Index {sc['ci']}, Resource Points {sc['rp']}")
    special_rules(ctx, sc)                         # item 10
    ctx.checks()
    ctx.pop()


# ----------------------------------------------------------------------------- items 4, 2
def imperial_sectors(ctx: Ctx, sc: dict) -> None:
    g = ctx.galaxy
    spec = sc["imperial_systems"]
    if spec.get("parity"):
        # SGE-SCN-2 item 4: even gives an Imperial system, odd a Chaos one (SGE-DICE-2,
        # SGE-DICE-3).
        for n in g.system_sectors:
            face = ctx.roll("d10", "SGE-DICE-2", f"Civil War: sector {fmt_sector(n)}",
                            refs=[sector_ref(n)])
            side = IMP if face % 2 == 0 else CHAOS   # SGE-DICE-3: 0 is even
            ctx.place_system(n, side, "SGE-SEQ-20")
        return
    lo, hi = parse_range(spec["sectors"])
    min_rv = sc.get("imperial_systems_min_rv")
    set_aside: list[str] = []
    for n in g.system_sectors:
        if lo <= n <= hi:
            s = ctx.place_system(n, IMP, "SGE-SEQ-2")
            # SGE-SEQ-22: redraw RV-1 systems in Scenario 5.
            while min_rv and s is not None and ctx.effective_rv(s) < min_rv and ctx.state["system_pool"]:
                del ctx.systems[str(n)]
                set_aside.append(s["id"])
                ctx.log("SGE-SEQ-22", "setup", f"System {s['id']} in {fmt_sector(n)} has RV below "
                        f"{min_rv}: set aside and redrawn")
                s = ctx.place_system(n, IMP, "SGE-SEQ-22")
    if set_aside:
        ctx.state["system_pool"].extend(set_aside)
        ctx.state["system_pool"].sort()


def chaos_sectors(ctx: Ctx, sc: dict) -> None:
    spec = sc["chaos_systems"]
    if spec.get("from_parity"):
        return
    lo, hi = parse_range(spec["sectors"])
    for n in ctx.galaxy.system_sectors:
        if lo <= n <= hi and ctx.system_at(n) is None:
            ctx.place_system(n, CHAOS, "SGE-SEQ-2")


# ----------------------------------------------------------------------------- item 3
def chaos_forces(ctx: Ctx, sc: dict) -> None:
    from struggle_desktop.games.struggle.chaos_ops import establish_ie

    rebels = sc.get("rebels")
    ies = sc.get("ies") or []
    if rebels and rebels.get("before_ies", True):
        setup_rebels(ctx, rebels["multiplier"], skip_ie=False)
    homes: list[int] = []
    for spec in ies:
        home = spec["home"]
        if home == "highest_total":
            home = pick_ie_site(ctx, homes)
            if home is None:
                ctx.log("SGE-IE-10", "setup", f"No site left for IE #{spec['number']}")
                continue
        homes.append(home)
        establish_ie(ctx, spec["number"], home, "SGE-IE-3", arises=False)
        extra = spec.get("extra_units") or []
        if extra:
            fid = ie_main_force(ctx, spec["number"])
            if fid is None:
                fid = ctx.new_force("ie", ctx.state["ies"][str(spec["number"])]["leader"],
                                    "SGE-IE-3", ie=spec["number"])
            for code in extra:
                ctx.place_unit(code, CHAOS, home, "SGE-SCN-3", force=fid,
                               why=f"added to IE #{spec['number']}")
    if rebels and not rebels.get("before_ies", True):
        setup_rebels(ctx, rebels["multiplier"], skip_ie=True)


def ie_main_force(ctx: Ctx, ie: int) -> str | None:
    for fid, f in ctx.state["forces"].items():
        if f["kind"] == "ie" and f["ie"] == ie and not f["detachment"]:
            return fid
    return None


def setup_rebels(ctx: Ctx, multiplier: int, skip_ie: bool) -> None:
    """SGE-REB-3: one IE Recruiting roll per Chaos system, d10 (0 = 10) + RV x multiplier."""
    from struggle_desktop.games.struggle.chaos_ops import ie_recruit_units

    zero = ctx.data["ie_recruiting"]["zero_counts_as"]
    for n in sorted(int(k) for k, s in ctx.systems.items() if s["side"] == CHAOS):
        s = ctx.systems[str(n)]
        if skip_ie and s["ie"] is not None:
            continue
        rv = ctx.effective_rv(s)
        result = ctx.roll("d10", "SGE-REB-3", f"Rebels in {fmt_sector(n)}",
                          modifiers=[(f"RV {rv} x {multiplier}", rv * multiplier)],
                          refs=[sector_ref(n)], zero_as=zero)
        for code in ie_recruit_units(ctx, result):
            ctx.place_unit(code, CHAOS, n, "SGE-REB-3", why="Rebel set-up")


def pick_ie_site(ctx: Ctx, taken: list[int]) -> int | None:
    """SGE-IE-10: the Chaos system with the highest mil + morph + RV; ties to the lower
    number; a second site within distance 2 (misc_decided's
    independent_empires.second_site_skip_within) of the first is skipped."""
    best = None
    dist = ctx.galaxy.dist
    skip = ctx.data["misc_decided"]["independent_empires"]["second_site_skip_within"]
    counters = ctx.data.system_counters
    for n, s in sorted((int(k), s) for k, s in ctx.systems.items()
                       if s["side"] == CHAOS and s["ie"] is None):
        if n in taken or any(dist[n][t] <= skip for t in taken):
            continue
        # ctx.system_values and ctx.effective_rv, written out
        mil, morph, rv = counters[s["id"]]
        total = mil + morph + rv + ctx.irs_bonus(s)
        if best is None or total > best[0]:
            best = (total, n)
    return None if best is None else best[1]


# ----------------------------------------------------------------------------- item 5
def create_imperial_forces(ctx: Ctx, sc: dict) -> None:
    """The scenario's Imperial units, leaders and Nexus markers wait "in hand" (loc None)
    until the player places them (SGE-SEQ-21)."""
    for code, count in sc["imperial_forces"].items():
        for _ in range(count):
            ctx.place_unit(code, IMP, None, "SGE-SEQ-2")
    nexus = sc.get("nexus") or {}
    fixed = "sectors" in nexus        # "a Nexus in Sector 01": not the player's choice
    count = nexus.get("count", 0) if ctx.option("nexus") else 0
    ctx.state["setup_hand"] = {
        "leaders": sorted(sc.get("leaders") or [], reverse=True),
        "nexus": 0 if fixed else count,
        "nexus_suggested": list(nexus.get("suggested") or []),
        "nexus_fixed": list(nexus["sectors"][:count]) if fixed else [],
        "placement": sc.get("imperial_placement", "imperial_controlled"),
    }
    for value in ctx.state["setup_hand"]["leaders"]:
        ctx.state["imp_leaders"].remove(value)


def placement_left(ctx: Ctx) -> bool:
    hand = ctx.state.get("setup_hand")
    if not hand:
        return False
    return (any(u["loc"] is None for u in ctx.units.values())
            or bool(hand["leaders"]) or hand["nexus"] > 0)


def placement_sectors(ctx: Ctx) -> list[int]:
    hand = ctx.state["setup_hand"]
    if hand["placement"] == "imperial_controlled":
        return ctx.imperial_system_sectors()
    limit = 2 if hand["placement"] == "anywhere_max_2" else None
    out = []
    for n in ctx.galaxy.numbers:
        if limit is not None and len(ctx.imp_mobile_at(n)) >= limit:
            continue
        out.append(n)
    return out


def nexus_sites(ctx: Ctx) -> list[int]:
    """SGE-NEX-1, SGE-NEX-2: Imperial-controlled, no Nexus there or next door."""
    out = []
    for n in ctx.imperial_system_sectors():
        if ctx.too_close_to_nexus(n):
            continue
        out.append(n)
    return out


@legal("setup_placement")
def legal_placement(ctx: Ctx, p: dict) -> list[dict]:
    hand = ctx.state["setup_hand"]
    actions: list[dict] = [{"verb": "auto_place"}]
    sectors = placement_sectors(ctx)
    for uid in sorted(u for u, rec in ctx.units.items() if rec["loc"] is None):
        actions.extend({"verb": "place", "unit": uid, "at": n} for n in sectors)
    if hand["leaders"]:
        value = hand["leaders"][0]
        for uid, u in sorted(ctx.units.items()):
            if u["side"] == IMP and u["loc"] is not None and not u["leader"]:
                actions.append({"verb": "place_leader", "value": value, "unit": uid})
    if hand["nexus"] > 0:
        actions.extend({"verb": "place_nexus", "at": n} for n in nexus_sites(ctx))
    return actions


@explain("setup_placement")
def check_placement(ctx: Ctx, p: dict, action: dict) -> str | None:
    verb = action.get("verb")
    if verb == "auto_place" and set(action) == {"verb"}:
        return None
    if verb == "place" and set(action) == {"verb", "unit", "at"}:
        # Exact JSON types: a float 12.0 or True must not pass for a sector number, and a
        # unit id that is not a string is no unit at all.
        if not isinstance(action["unit"], str):
            return f"{action['unit']!r} is not a unit waiting to be placed"
        if type(action["at"]) is not int:
            return f"{action['at']!r} is not a sector number"
        u = ctx.units.get(action["unit"]) if isinstance(action["unit"], str) else None
        if u is None or u["loc"] is not None or u["side"] != IMP:
            return f"{action['unit']} is not a unit waiting to be placed"
        at = action["at"]
        if type(at) is not int or at not in placement_sectors(ctx):
            return f"{action['at']} is not a sector where this scenario lets you place units"
        return None
    if verb in ("place_leader", "place_nexus"):
        return None if action_in(action, legal_placement(ctx, p)) else "that placement is not allowed"
    return "that is not a set-up placement"


def do_placement(ctx: Ctx, action: dict) -> None:
    hand = ctx.state["setup_hand"]
    verb = action["verb"]
    if verb == "place":
        ctx.set_loc(action["unit"], action["at"])
        ctx.log("SGE-SEQ-21", "place", f"{action['unit']} placed in {fmt_sector(action['at'])}",
                refs=[action["unit"], sector_ref(action["at"])])
    elif verb == "place_leader":
        hand["leaders"].remove(action["value"])
        ctx.units[action["unit"]]["leader"] = action["value"]
        ctx.log("SGE-SEQ-21", "leader", f"Imperial leader {action['value']} placed on {action['unit']}",
                refs=[action["unit"]])
    elif verb == "place_nexus":
        hand["nexus"] -= 1
        ctx.state["nexus"].append(action["at"])
        ctx.log("SGE-SEQ-21", "marker", f"Nexus placed in {fmt_sector(action['at'])}",
                refs=[sector_ref(action["at"])])
    elif verb == "auto_place":
        auto_place(ctx)


def auto_place(ctx: Ctx) -> None:
    """SGE-SEQ-21: spread the units over the allowed sectors nearest the Core, leaders on the
    strongest units, Nexus markers on the suggested sites first."""
    hand = ctx.state["setup_hand"]
    dist = ctx.galaxy.dist_to_core
    waiting = sorted((u for u, rec in ctx.units.items() if rec["loc"] is None),
                     key=lambda uid: (-ctx.data.unit_types[ctx.units[uid]["type"]].cost, uid))
    k = 0
    fixed = hand["placement"] == "imperial_controlled"   # placing units changes no system
    sectors = None
    for uid in waiting:
        if sectors is None or not fixed:
            sectors = sorted(placement_sectors(ctx), key=lambda n: (dist[n], n))
        if not sectors:
            break
        if fixed:
            n = sectors[k % len(sectors)]
            k += 1
        else:
            n = sectors[0]
        do_placement(ctx, {"verb": "place", "unit": uid, "at": n})
    while hand["leaders"]:
        free = [u for u, rec in ctx.units.items()
                if rec["side"] == IMP and rec["loc"] is not None and not rec["leader"]]
        if not free:
            break
        best = max(free, key=lambda uid: (ctx.factor(uid, "mil") + ctx.factor(uid, "morph"), uid))
        do_placement(ctx, {"verb": "place_leader", "value": hand["leaders"][0], "unit": best})
    while hand["nexus"] > 0:
        sites = nexus_sites(ctx)
        if not sites:
            hand["nexus"] = 0
            break
        preferred = [n for n in hand["nexus_suggested"] if n in sites]
        n = preferred[0] if preferred else min(sites, key=lambda s: (dist[s], s))
        do_placement(ctx, {"verb": "place_nexus", "at": n})
    # Anything still unplaced (no legal sector at all) goes back to the mix.
    for uid in [u for u, rec in ctx.units.items() if rec["loc"] is None]:
        rec = ctx.units.pop(uid)
        ctx.invalidate()
        ctx.state["mix"][rec["type"]].append(uid)
        ctx.log("SGE-SEQ-21", "note", f"{uid} could not be placed and returns to the mix")
    if hand["leaders"]:
        ctx.state["imp_leaders"].extend(hand["leaders"])
        ctx.state["imp_leaders"].sort()
        hand["leaders"] = []


def parity_flip_forces(ctx: Ctx) -> None:
    """SGE-SCN-2 item 5 and SGE-SEQ-20: each placed unit rolls; odd flips it to a Rebel."""
    for uid in sorted(ctx.units):
        u = ctx.units[uid]
        if u["side"] != IMP:
            continue
        face = ctx.roll("d10", "SGE-DICE-2", f"Civil War: {uid}", refs=[uid])
        if face % 2 == 1:
            ctx.convert_unit(uid, "SGE-SEQ-20", "odd roll in the Civil War set-up")


# ----------------------------------------------------------------------------- step 3
def scenario_pool(ctx: Ctx, sc: dict) -> None:
    """SGE-SEQ-2 step 3, SGE-POOL-22, SGE-POOL-7: the markers the scenario schedules leave the
    pool for the turn track, and a second Leviathan the scenario removes leaves the game,
    before any item is applied (the markers of switched-off rules are already out,
    SGE-POOL-5). The Leviathan placed on the Core is taken at item 10."""
    st = ctx.state
    if sc.get("leviathan") == "in_effect_remove_second" and st["pool"].count("LEVIATHAN") >= 2:
        st["pool"].remove("LEVIATHAN")
        st["removed"].append("LEVIATHAN")
        ctx.log("SGE-POOL-22", "marker", "The second Leviathan leaves the game")
    for item in sc.get("scheduled") or []:
        # Only markers the pool really holds go on the track (an edited pool may hold fewer).
        entry = {"turn": item["turn"]}
        for marker, count in sorted((item.get("join_pool") or {}).items()):
            taken = take_from_pool(st, marker, count)
            if taken:
                entry.setdefault("join_pool", {})[marker] = taken
        if item.get("place_th_usurper"):
            taken = take_from_pool(st, "USURPER", item["place_th_usurper"])
            if taken:
                entry["place_th_usurper"] = taken
        if len(entry) > 1:
            st["scheduled"].append(entry)
    if st["scheduled"]:
        ctx.log("SGE-POOL-7", "marker", f"{len(st['scheduled'])} scheduled item(s) are set on the "
                "turn track with markers taken from the pool")


def take_from_pool(st: dict, marker: str, count: int) -> int:
    taken = 0
    while taken < count and marker in st["pool"]:
        st["pool"].remove(marker)
        taken += 1
    return taken


# ----------------------------------------------------------------------------- items 6, 10
def imperial_markers(ctx: Ctx, sc: dict) -> None:
    """Item 6: a Nexus the scenario puts in a fixed sector is placed there (a Nexus the player
    places came with the forces, SGE-SEQ-21); Illumination and Repression markers start in the
    Imperial Markers Available box."""
    st = ctx.state
    hand = st.get("setup_hand") or {}
    for n in hand.get("nexus_fixed", []):
        if n in nexus_sites(ctx):
            st["nexus"].append(n)
            ctx.log("SGE-SEQ-21", "marker", f"Nexus placed in {fmt_sector(n)} as the scenario says",
                    refs=[sector_ref(n)])
        else:
            ctx.log("SGE-NEX-2", "note", f"No Nexus can go in {fmt_sector(n)}: it is not a legal site")
    if hand:
        hand["nexus_fixed"] = []
    avail = sc.get("available_markers") or {}
    if ctx.option("illumination") and any(avail.values()):
        for key, count in avail.items():
            st["available"][key] = st["available"].get(key, 0) + count
        ctx.log("SGE-SEQ-21", "marker", "Imperial Markers Available: " + ", ".join(
            f"{count} {key.capitalize()}" for key, count in sorted(avail.items()) if count))


def special_rules(ctx: Ctx, sc: dict) -> None:
    """Item 10: a Leviathan from the pool is on the Core and counts as accepted
    (SGE-POOL-22); the scheduled markers are already on the turn track (step 3)."""
    st = ctx.state
    if sc.get("leviathan") and "LEVIATHAN" in st["pool"]:
        st["pool"].remove("LEVIATHAN")
        if ctx.imperial_controlled(ctx.galaxy.core):
            st["leviathan"] = True
            ctx.log("SGE-POOL-22", "marker", "A Leviathan from the pool is on the Core and in effect")
        else:
            st["discard"].append("LEVIATHAN")
            ctx.log("SGE-POOL-11", "note", "Leviathan cannot take effect: the Core is not Imperial")
