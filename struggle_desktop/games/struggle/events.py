"""Phase 1 (Chaos Events) and the 39 chaos event markers (SGE-SEQ-3, section 7 of the rules).

How the phase runs (procedure ``phase1``, SGE-SEQ-3):

1. Scheduled items of this turn act (SGE-POOL-7, SGE-POOL-8): markers join the pool, and
   Scenario 5's Trans-human usurpers are placed (SGE-USU-4).
2. The number of draws N is computed once (SGE-CI-10, SGE-CI-11, SGE-CI-12, plus one per
   Institute on a Chaos system unit).
3. Markers are drawn one at a time, without replacement (SGE-POOL-2); an empty pool takes the
   discard pile back (SGE-POOL-3). A revealed marker whose optional rule is off leaves play
   and is replaced at once (SGE-POOL-4). Otherwise the player may cancel it with an Institute
   on an Imperial system (SGE-EV-INSTITUTE), then attempt Suppression (SGE-SUP-2); failing
   that, the marker is resolved completely. A substitute or replacement draw does not count
   toward N (SGE-POOL-10).

Everything the phase needs between two prompts lives in its frame: ``left`` (counting draws
still to make), ``ev`` (the marker being handled: ``marker``, ``stage`` and the marker's own
locals) and ``no_redraw`` (markers a substitute draw must skip, see ``draw_marker``).
``state["in_event"]`` is true while a marker is being resolved, so that CI increases are capped
on turn 1 (SGE-CI-9).

Each marker is one small function registered with ``@marker(ID)``. It takes the Ctx and the
marker's locals ``ev`` and returns ``DONE`` (resolved, its fate settled), ``ASK`` (a prompt is
waiting; the answer will be put in ``ev["answer"]`` and the function called again) or
``SUBSTITUTE`` (the marker went back to the pool, or left play under SGE-POOL-4; draw another
in its place). A marker function always settles its marker's fate: discard pile, pool,
``removed``, ``effects`` (until the end of the turn), the map (aliens, forces, Institutes,
Expedition sites, IEs, Leviathan) or ``alliance`` / ``colonizations`` (the Chaos phases
discard those).

Effects that last the turn are kept as marker ids in ``state["effects"]``: SPECTACLE, PARANOIA,
ENLIGHTENMENT, ELITES, PACIFISM and MILITARISM (SGE-POOL-13). Militarism and Pacifism cancel
each other: while both ids are in the list, neither modifies any attack (combat reads them so).

Prompt kinds and their action verbs (all prompts are the Imperial player's):

=====================  ===================================================================
``event_institute``    ``{"verb": "cancel_event"}`` / ``{"verb": "allow_event"}``
``event_suppression``  ``{"verb": "suppress"}`` / ``{"verb": "no_suppression"}``
``event_leviathan``    ``{"verb": "accept_leviathan"}`` / ``{"verb": "return_leviathan"}``
``event_alliance``     ``{"verb": "alliance", "sector": n, "kind": k, "force": fid | None}``
                       (k is usurper - the Mutant included -, ie, invader or rebel)
``event_corps``        ``{"verb": "corps", "type": "SF" | "CG", "at": n}``
``event_crusade``      ``{"verb": "crusade", "at": n, "sf": a, "cg": b}`` (1 <= a + b <= RV)
``event_leader``       ``{"verb": "place_leader", "unit": uid}``
``event_unpaid``       ``{"verb": "leave_unpaid", "sector": n}`` (Reforms) or
                       ``{"verb": "leave_unpaid", "unit": uid}`` (Troops Demand Pay)
=====================  ===================================================================

No prompt is asked when the choice has no alternative.
"""

from __future__ import annotations

from typing import Callable

from struggle_desktop.games.struggle.context import (CHAOS, FORCE_ORDER, IMP, Ctx, fmt_ci,
                                                     fmt_sector, sector_ref)
from struggle_desktop.games.struggle.registry import explain, legal, procedure

DONE = "done"
ASK = "ask"
SUBSTITUTE = "substitute"

MarkerFn = Callable[[Ctx, dict], str]

#: Marker id -> the function that resolves it (filled by @marker).
MARKERS: dict[str, MarkerFn] = {}

#: Alien markers, each placed in a random system sector (SGE-ALN-1).
ALIENS = ("BIOMECH", "DARK-EMPIRE", "HIVE", "NEBULA", "MESSIAH", "PROBE", "RANDOIDS")
#: Aliens that roll again when the sector already holds one of their own kind.
ALIENS_NOT_TWICE = ("BIOMECH", "DARK-EMPIRE")

#: Alliance designations by force kind (the Mutant moves in the Usurper subphase, SGE-SEQ-4).
ALLIANCE_KIND = {"usurper": "usurper", "mutant": "usurper", "ie": "ie", "invader": "invader"}


def marker(marker_id: str):
    """Register the resolver of one chaos event marker."""
    def register(fn: MarkerFn) -> MarkerFn:
        MARKERS[marker_id] = fn
        return fn
    return register


def rule_of(ctx: Ctx, m: str) -> str:
    return ctx.data.markers[m]["rule"]


def name_of(ctx: Ctx, m: str) -> str:
    return ctx.data.markers[m]["name"]


# ============================================================================ marker fates
def discard(ctx: Ctx, m: str, why: str) -> str:
    """SGE-POOL-3: the marker goes to the discard pile."""
    ctx.state["discard"].append(m)
    ctx.log(rule_of(ctx, m), "marker", f"{name_of(ctx, m)} is discarded: {why}")
    return DONE


def no_effect(ctx: Ctx, m: str, why: str) -> str:
    """SGE-POOL-11: an effect that cannot happen; the marker is discarded (it was a draw)."""
    ctx.state["discard"].append(m)
    ctx.log("SGE-POOL-11", "marker", f"{name_of(ctx, m)} has no effect: {why}")
    return DONE


def back_to_pool(ctx: Ctx, m: str, why: str, rule: str | None = None) -> None:
    """SGE-POOL-3: the marker returns to the cup at once and may be drawn again."""
    ctx.state["pool"].append(m)
    ctx.log(rule or rule_of(ctx, m), "marker", f"{name_of(ctx, m)} returns to the pool: {why}")


def substitute(ctx: Ctx, m: str, why: str) -> str:
    """The marker returns to the pool and another is drawn in its place (SGE-POOL-3)."""
    back_to_pool(ctx, m, why + "; a substitute is drawn")
    return SUBSTITUTE


def missing_rule(ctx: Ctx, m: str) -> str | None:
    """SGE-POOL-4: the optional rule marker m needs, when that rule is off (else None)."""
    need = ctx.data.markers[m].get("needs")
    return need if need and not ctx.option(need) else None


def replacement(ctx: Ctx, m: str, need: str) -> str:
    """SGE-POOL-4: a marker whose optional rule is off leaves play and another is drawn in its
    place; the replacement is not counted in N (SGE-POOL-10). Set-up normally takes such
    markers out already (SGE-POOL-5)."""
    ctx.state["removed"].append(m)
    ctx.log("SGE-POOL-4", "marker", f"{name_of(ctx, m)} needs the optional rule {need}, which is "
            "off: it leaves play and a replacement is drawn")
    return SUBSTITUTE


def lasts_this_turn(ctx: Ctx, m: str, text: str) -> str:
    """SGE-POOL-6: kept in ``effects`` until the end of the turn (SGE-SEQ-16 discards it)."""
    ctx.state["effects"].append(m)
    ctx.log(rule_of(ctx, m), "marker", f"{name_of(ctx, m)} is in effect this turn: {text}")
    return DONE


# ============================================================================ Phase 1
@procedure("phase1")
def phase1(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-3: scheduled items, N, then one marker at a time until N draws are made."""
    st = ctx.state
    if "left" not in frame:
        run_scheduled(ctx)                        # step 1
        frame["left"] = draws_this_turn(ctx)      # step 2
        frame["ev"] = None
        frame["no_redraw"] = []
        return
    ev = frame["ev"]
    if ev is None:
        if frame["left"] <= 0:
            end_phase1(ctx, "all draws made")
            return
        m = draw_marker(ctx, [])
        if m is None:
            end_phase1(ctx, "the pool and the discard pile are both empty")   # SGE-POOL-3
            return
        frame["left"] -= 1
        frame["no_redraw"] = []
        frame["ev"] = {"marker": m, "stage": "check"}
        return
    if "answer" in frame:
        ev["answer"] = frame.pop("answer")
    m = ev["marker"]
    stage = ev["stage"]
    if stage == "check":
        need = missing_rule(ctx, m)
        if need is not None:           # SGE-POOL-4: before the Institute and Suppression
            replacement(ctx, m, need)
            replace_with_substitute(ctx, frame)
            return
        if rebellion_set_aside(ctx, m):
            replace_with_substitute(ctx, frame)
            return
        ev["stage"] = "institute"
        return
    if stage == "institute":
        result = institute_stage(ctx, ev)
        if result == ASK:
            return
        if result == DONE:             # cancelled: the marker is back in the pool
            frame["ev"] = None
            return
        ev["stage"] = "suppression"
        return
    if stage == "suppression":
        result = suppression_stage(ctx, ev)
        if result == ASK:
            return
        if result == DONE:             # suppressed: discarded without effect
            frame["ev"] = None
            return
        ev["stage"] = "resolve"
        return
    # stage "resolve": the marker's own text (SGE-EV-*)
    if m == "REBELLION" and "counted" not in ev:
        ev["counted"] = True
        st["turn_flags"]["rebellions_resolved"] = st["turn_flags"].get("rebellions_resolved", 0) + 1
    st["in_event"] = True
    result = MARKERS[m](ctx, ev)
    if result == ASK:
        return
    st["in_event"] = False
    ctx.checks()
    if result == SUBSTITUTE:
        if m == "SPECTACLE":
            # Drawing the returned Spectacle again would only repeat the return: skip it.
            frame["no_redraw"].append(m)
        replace_with_substitute(ctx, frame)
        return
    frame["ev"] = None


def end_phase1(ctx: Ctx, why: str) -> None:
    ctx.state["in_event"] = False
    ctx.log("SGE-SEQ-3", "phase", f"Chaos Events end: {why}")
    ctx.pop()


def replace_with_substitute(ctx: Ctx, frame: dict) -> None:
    """A substitute takes the place of the marker just handled and is not counted in N
    (SGE-SEQ-3 step 4, SGE-POOL-10)."""
    m = draw_marker(ctx, frame["no_redraw"], substitute=True)
    if m is None:
        frame["ev"] = None
        frame["left"] = 0
        ctx.log("SGE-POOL-3", "note", "No marker is left for a substitute draw")
        return
    frame["ev"] = {"marker": m, "stage": "check"}


def draw_marker(ctx: Ctx, skip: list[str], substitute: bool = False) -> str | None:
    """SGE-POOL-2, SGE-POOL-3: one uniform draw without replacement, from the seeded generator
    and logged as a draw with its face (SGE-DICE-10); an empty pool takes the discard pile back;
    both empty gives None. Markers in ``skip`` are not drawn: they are the Spectacle returned in
    this substitute chain, whose redraw would only be returned again."""
    st = ctx.state
    pool = st["pool"]

    def drawable() -> list[int] | range:
        if not skip:
            return range(len(pool))   # the usual case: every marker, without a list
        return [i for i, m in enumerate(pool) if m not in skip]

    candidates = drawable()
    if not candidates and st["discard"]:
        pool.extend(st["discard"])
        st["discard"] = []
        ctx.log("SGE-POOL-3", "marker", f"The pool is empty: the discard pile ({len(pool)} "
                "markers) is shuffled back into it")
        candidates = drawable()
    if not candidates:
        return None
    k = ctx.rng.below(len(candidates))
    m = pool.pop(candidates[k])
    st["stats"]["events"] += 1
    if ctx.keeps_log:
        ctx.log("SGE-POOL-2", "draw", f"{'Substitute drawn' if substitute else 'Drawn'} from the "
                f"pool ({k + 1} of {len(candidates)}): {name_of(ctx, m)}", refs=[m],
                dice=[{"die": f"pick{len(candidates)}", "face": k + 1, "modifiers": [],
                       "result": k + 1}])
    return m


def markers_per_round(ctx: Ctx, ci: float) -> int:
    """SGE-CI-10: the ci_track rows, ci_max inclusive, null = no upper bound."""
    for row in ctx.data["ci_track"]["markers_per_round"]:
        if row["ci_max"] is None or ci <= row["ci_max"]:
            return row["markers"]
    raise AssertionError("ci_track.markers_per_round has no open row")


def draws_this_turn(ctx: Ctx) -> int:
    """SGE-CI-10, SGE-CI-11, SGE-CI-12: rounds x markers per round at the CI now, computed
    once, plus the extra draws of Institutes on Chaos system units placed before this turn."""
    st = ctx.state
    per_round = markers_per_round(ctx, ctx.ci)
    if st["turn"] == 1:
        rounds = st["scenario_rules"].get("first_turn_rounds") or ctx.data["ci_track"]["rounds_per_turn"]
        rule = "SGE-CI-12"
    else:
        rounds = ctx.data["ci_track"]["rounds_per_turn"]
        rule = "SGE-CI-10"
    institutes = sum(1 for inst in active_institutes(ctx) if ctx.system_at(inst["loc"])["side"] == CHAOS)
    extra = institutes * ctx.data["event_values"]["institute_extra_draws"]
    n = rounds * per_round + extra
    ctx.log(rule, "events", f"Chaos Events: {n} draw(s) = {rounds} round(s) x {per_round} at CI "
            f"{fmt_ci(st['ci2'])}" + (f" + {extra} for Institute(s) on Chaos systems" if extra else ""))
    return n


# ---------------------------------------------------------------------------- scheduled
def run_scheduled(ctx: Ctx) -> None:
    """SGE-POOL-7, SGE-POOL-8: this turn's scheduled items act before any draw; each item
    leaves the turn track once it has acted."""
    st = ctx.state
    due = [item for item in st["scheduled"] if item["turn"] == st["turn"]]
    if not due:
        return
    st["scheduled"] = [item for item in st["scheduled"] if item["turn"] != st["turn"]]
    for item in due:
        for m, count in sorted((item.get("join_pool") or {}).items()):
            st["pool"].extend([m] * count)
            ctx.log("SGE-POOL-7", "marker", f"Scheduled: {count} {name_of(ctx, m)} marker(s) join the pool")
        for _ in range(item.get("place_th_usurper") or 0):
            place_th_usurper(ctx)


def place_th_usurper(ctx: Ctx) -> None:
    """SGE-USU-4: a Chaos TH under a Usurper marker in a random sector, leader from SGE-LDR-7,
    no search; it is not drawn, so neither the Institute nor Suppression applies."""
    n = ctx.random_sector("SGE-USU-4", "Trans-human usurper")
    leader = ctx.random_leader_value("SGE-USU-4", "Trans-human usurper")
    fid = ctx.new_force("usurper", leader, "SGE-USU-4", marker="USURPER")
    uid = ctx.place_unit("TH", CHAOS, n, "SGE-USU-4", force=fid, why="scheduled Trans-human usurper")
    if uid is None:
        ctx.end_force(fid, "no TH counter is left for the scheduled usurper")   # SGE-POOL-11
        return
    ctx.log("SGE-USU-4", "force", f"{ctx.force_name(fid)} (leader {leader}) rises in {fmt_sector(n)}",
            refs=[uid, sector_ref(n)])


# ---------------------------------------------------------------------------- Scenario 5
def rebellion_set_aside(ctx: Ctx, m: str) -> bool:
    """SGE-POOL-21: on turn 1, once the limit of Rebellions has been resolved, further ones
    are set aside (they return to the pool at the end of the turn)."""
    st = ctx.state
    limit = st["scenario_rules"].get("turn1_rebellion_limit")
    if m != "REBELLION" or limit is None or st["turn"] != 1:
        return False
    if st["turn_flags"].get("rebellions_resolved", 0) < limit:
        return False
    st["set_aside"].append(m)
    ctx.log("SGE-POOL-21", "marker", f"{limit} Rebellions have already occurred this turn: this one "
            "is set aside and a substitute is drawn")
    return True


# ---------------------------------------------------------------------------- Institute
def active_institutes(ctx: Ctx) -> list[dict]:
    """Institutes placed before this turn that stand on a system unit (SGE-EV-INSTITUTE,
    SGE-POOL-17: without a system unit an Institute has no effect)."""
    turn = ctx.state["turn"]
    return [inst for inst in ctx.state["institutes"]
            if inst["placed"] < turn and ctx.system_at(inst["loc"]) is not None]


def institute_can_cancel(ctx: Ctx) -> bool:
    """SGE-EV-INSTITUTE: an Institute on an Imperial system, once per turn."""
    if ctx.state["turn_flags"].get("institute_cancel_used"):
        return False
    return any(ctx.system_at(inst["loc"])["side"] == IMP for inst in active_institutes(ctx))


def institute_stage(ctx: Ctx, ev: dict) -> str | None:
    """Offer the Institute's cancellation. Returns ASK, DONE (cancelled) or None (go on)."""
    m = ev["marker"]
    if "answer" in ev:
        verb = ev.pop("answer")["verb"]
        if verb != "cancel_event":
            return None
        ctx.state["turn_flags"]["institute_cancel_used"] = True
        back_to_pool(ctx, m, "cancelled through the Institute (no substitute)", rule="SGE-EV-INSTITUTE")
        return DONE
    if not institute_can_cancel(ctx):
        return None
    ctx.ask("event_institute", f"{name_of(ctx, m)} has been drawn. Use the Institute to send it "
            "back to the pool unresolved (once this turn)?", rule="SGE-EV-INSTITUTE", marker=m)
    return ASK


@legal("event_institute")
def legal_institute(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "cancel_event"}, {"verb": "allow_event"}]


# ---------------------------------------------------------------------------- Suppression
def can_suppress(ctx: Ctx, m: str) -> bool:
    """SGE-SUP-1, SGE-SUP-2, SGE-REP-2: a suppressible marker, the rule on, a Repression
    marker available."""
    cost = ctx.data["misc_decided"]["suppression"]["repression_per_attempt"]
    return (bool(ctx.data.markers[m]["suppressible"]) and ctx.option("illumination")
            and ctx.state["available"].get("repression", 0) >= cost)


def suppression_stage(ctx: Ctx, ev: dict) -> str | None:
    """One Suppression attempt per marker (SGE-SUP-2). Returns ASK, DONE (suppressed) or
    None (resolve the marker)."""
    m = ev["marker"]
    if "answer" in ev:
        verb = ev.pop("answer")["verb"]
        if verb != "suppress":
            return None
        return attempt_suppression(ctx, m)
    if not can_suppress(ctx, m):
        return None
    ctx.ask("event_suppression", f"{name_of(ctx, m)} has been drawn. Spend a Repression marker "
            f"(you have {ctx.state['available']['repression']}) to try to suppress it?",
            rule="SGE-SUP-2", marker=m)
    return ASK


def attempt_suppression(ctx: Ctx, m: str) -> str | None:
    """SGE-REP-2, SGE-SUP-3: spend the marker, roll, change the CI (never capped: not an
    event increase, SGE-CI-9); a success discards the event without effect."""
    cost = ctx.data["misc_decided"]["suppression"]["repression_per_attempt"]
    ctx.state["available"]["repression"] -= cost
    ctx.log("SGE-REP-2", "marker", f"A Repression marker is spent to suppress {name_of(ctx, m)}")
    face = ctx.roll("d10", "SGE-SUP-3", f"Suppression of {name_of(ctx, m)}")
    row = ctx.data["suppression"]["faces"][face]
    ctx.change_ci(row["ci"], "Suppression operation", "SGE-SUP-3")
    if row["result"] == "cancel":
        discard(ctx, m, "suppressed")
        return DONE
    ctx.log("SGE-SUP-3", "note", f"The Suppression fails: {name_of(ctx, m)} is resolved")
    return None


@legal("event_suppression")
def legal_suppression(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "suppress"}, {"verb": "no_suppression"}]


# ============================================================================ searches
def search(ctx: Ctx, start: int, qualifies: Callable[[int], bool], upward: bool, top: int,
           rule: str, what: str) -> int | None:
    """The number searches of SGE-DICE-7, SGE-DICE-8 and SGE-POOL-12, from ``start`` (which
    is tested first).

    Downward (Usurper, IE Arises): lower numbers to 01, then from ``top`` down to just above
    the start. Upward (Rebellion, Attrition): higher numbers up to ``top``, then back below the
    start down to 01. None when no sector qualifies (the caller discards the marker)."""
    if upward:
        order = [*range(start, top + 1), *range(start - 1, 0, -1)]
    else:
        order = [*range(start, 0, -1), *range(top, start, -1)]
    for n in order:
        if qualifies(n):
            ctx.log(rule, "search", f"Searching {'up' if upward else 'down'} from "
                    f"{fmt_sector(start)} for {what}: found {fmt_sector(n)}",
                    refs=[sector_ref(n)])
            return n
    ctx.log(rule, "search", f"Searching from {fmt_sector(start)} for {what}: none on the map")
    return None


def top_sector(ctx: Ctx) -> int:
    return max(ctx.galaxy.numbers)


def units_in(ctx: Ctx, n: int) -> int:
    """Mobile units plus the system unit in a sector (for SGE-ALN-4)."""
    return len(ctx.mobile_at(n)) + (1 if ctx.system_at(n) is not None else 0)


# ============================================================================ the markers
# ---------------------------------------------------------------------------- aliens
def place_alien(ctx: Ctx, ev: dict) -> str:
    """SGE-ALN-1 and each alien's rule: a random system sector; Biomech Predators and Dark
    Empire roll again onto a sector that already holds one of their own kind."""
    m = ev["marker"]
    rule = rule_of(ctx, m)
    aliens = ctx.state["aliens"]
    n = ctx.random_sector(rule, name_of(ctx, m), system_only=True)
    if m in ALIENS_NOT_TWICE:
        taken = {a["loc"] for a in aliens if a["kind"] == m}
        free = [s for s in ctx.galaxy.system_sectors if s not in taken]
        if not free:
            return no_effect(ctx, m, "every system sector already holds one")
        while n in taken:
            ctx.log(rule, "note", f"{fmt_sector(n)} already holds {name_of(ctx, m)}: rolled again")
            n = ctx.random_sector(rule, name_of(ctx, m), system_only=True)
    ctx.state["next_seq"] += 1
    aliens.append({"kind": m, "loc": n, "placed": ctx.state["turn"], "seq": ctx.state["next_seq"]})
    ctx.log(rule, "marker", f"{name_of(ctx, m)} appears in {fmt_sector(n)}", refs=[sector_ref(n)])
    return DONE


for _alien in ALIENS:
    marker(_alien)(place_alien)


# ---------------------------------------------------------------------------- Alliance
def alliance_choices(ctx: Ctx) -> list[dict]:
    """SGE-EV-ALLIANCE, SGE-POOL-19: every Chaos force (not an IE home detachment, which takes
    no Chaos Operations) and every group of Rebels, by sector."""
    out: list[dict] = []
    forces = ctx.state["forces"]
    units = ctx.units
    for n in sorted({u["loc"] for u in units.values() if u["side"] == CHAOS and u["loc"] is not None}):
        present = {units[uid]["force"] for uid in ctx.chaos_mobile_at(n)}   # None: Rebels
        for fid in sorted(present - {None}, key=lambda fid: forces[fid]["seq"]):
            f = forces[fid]
            if f.get("detachment"):
                continue
            out.append({"verb": "alliance", "sector": n, "kind": ALLIANCE_KIND[f["kind"]], "force": fid})
        if None in present:
            out.append({"verb": "alliance", "sector": n, "kind": "rebel", "force": None})
    return out


@marker("ALLIANCE")
def ev_alliance(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-ALLIANCE: the player designates one Chaos force; Phase 2 lets him run it and
    discards the marker at its end (SGE-POOL-6)."""
    m = ev["marker"]
    if ctx.state["alliance"] is not None:
        # A designation is already waiting for this turn's Chaos Operations.
        return no_effect(ctx, m, "a force is already designated by an Alliance this turn")
    if "answer" in ev:
        choice = ev.pop("answer")
    else:
        choices = alliance_choices(ctx)
        if not choices:
            return no_effect(ctx, m, "no Chaos mobile units on the map")
        if len(choices) > 1:
            ctx.ask("event_alliance", "Alliance: which Chaos force will you command in the coming "
                    "Chaos Operations Phase?", rule="SGE-EV-ALLIANCE", marker=m)
            return ASK
        choice = choices[0]
    ctx.state["alliance"] = {"sector": choice["sector"], "kind": choice["kind"], "force": choice["force"]}
    who = ("the Rebels" if choice["force"] is None else ctx.force_name(choice["force"]))
    ctx.log("SGE-EV-ALLIANCE", "marker", f"Alliance: {who} in {fmt_sector(choice['sector'])} will "
            "move as the player directs in the Chaos Operations Phase",
            refs=[sector_ref(choice["sector"])])
    return DONE


@legal("event_alliance")
def legal_alliance(ctx: Ctx, p: dict) -> list[dict]:
    return alliance_choices(ctx)


# ---------------------------------------------------------------------------- Attrition
@marker("ATTRITION")
def ev_attrition(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-ATTRITION, SGE-DICE-6, SGE-POOL-12: a sector 01-57, then the nearest system unit
    upward (downward past 57) is eliminated, of either side, with no CI change (SGE-CI-4)."""
    from struggle_desktop.games.struggle.aliens import after_event_losses

    m = ev["marker"]
    top = ctx.data["misc_decided"]["random_sector"]["attrition_max_sector"]
    start = ctx.random_sector("SGE-EV-ATTRITION", "Attrition", max_number=top)
    n = search(ctx, start, lambda s: ctx.system_at(s) is not None, True, top,
               "SGE-POOL-12", "a system unit")
    if n is None:
        return no_effect(ctx, m, "no system unit in sectors 01-" + fmt_sector(top))
    before = units_in(ctx, n)
    ctx.remove_system(n, "SGE-EV-ATTRITION", "Attrition")
    after_event_losses(ctx, n, before)    # SGE-ALN-4
    return discard(ctx, m, "played")


# ---------------------------------------------------------------------------- payments
def demand_payment(ctx: Ctx, ev: dict, owed: Callable[[], list], key: str, label: str) -> str:
    """SGE-EV-REFORMS, SGE-EV-TROOPS-PAY, SGE-RES-9: the Empire pays for as many items as its
    RP allow; the player leaves the rest unpaid, one pick at a time; each unpaid item turns
    Rebel on a low roll (SGE-POOL-20). ``key`` is "sector" (system units) or "unit"."""
    m = ev["marker"]
    rule = rule_of(ctx, m)
    values = ctx.data["event_values"]
    per = values["payment_rp_per_unit"]
    if "owed" not in ev:
        items = owed()
        if not items:
            return no_effect(ctx, m, f"no {label} to pay for")
        payable = min(len(items), ctx.state["rp"] // per) if per > 0 else len(items)
        ev["owed"] = items
        ev["to_leave"] = len(items) - payable
        ev["unpaid"] = []
        ctx.log(rule, "event", f"{name_of(ctx, m)}: {len(items)} {label} x {per} RP owed, "
                f"RP {ctx.state['rp']}: {payable} can be paid")
    if "answer" in ev:
        ev["unpaid"].append(ev.pop("answer")[key])
    while len(ev["unpaid"]) < ev["to_leave"]:
        remaining = [x for x in ev["owed"] if x not in ev["unpaid"]]
        if len(remaining) <= ev["to_leave"] - len(ev["unpaid"]):
            ev["unpaid"].extend(remaining)      # no choice left
            break
        need = ev["to_leave"] - len(ev["unpaid"])
        ctx.ask("event_unpaid", f"{name_of(ctx, m)}: your RP cannot cover every payment. Pick one "
                f"of the {label} to leave unpaid ({need} more to pick); an unpaid one may turn Rebel.",
                rule="SGE-RES-9", marker=m, key=key, candidates=remaining)
        return ASK
    paid = len(ev["owed"]) - len(ev["unpaid"])
    ctx.change_rp(-paid * per, f"{name_of(ctx, m)}: {paid} {label} paid", rule)
    face_max = values["payment_convert_face_max"]
    unpaid = sorted(ev["unpaid"], key=lambda x: (x, "") if key == "sector" else (ctx.units[x]["loc"], x))
    for item in unpaid:
        where = item if key == "sector" else ctx.units[item]["loc"]
        what = f"system unit in {fmt_sector(item)}" if key == "sector" else item
        face = ctx.roll("d10", rule, f"Unpaid {what}", refs=[sector_ref(where)])
        if face > face_max:
            continue
        if key == "sector":
            ctx.convert_system(item, "SGE-POOL-20", f"unpaid under {name_of(ctx, m)}")
        else:
            ctx.convert_unit(item, "SGE-POOL-20", f"unpaid under {name_of(ctx, m)}")
    return discard(ctx, m, "played")


@marker("REFORMS")
def ev_reforms(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-REFORMS: 1 RP per Imperial system unit (SGE-RES-9)."""
    return demand_payment(ctx, ev, ctx.imperial_system_sectors, "sector", "Imperial system units")


@marker("TROOPS-PAY")
def ev_troops_pay(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-TROOPS-PAY: 1 RP per Imperial mobile unit on the map; IO exempt (SGE-RES-9,
    SGE-IO-2)."""
    def owed() -> list[str]:
        return sorted(uid for uid, u in ctx.units.items()
                      if u["side"] == IMP and u["loc"] is not None and ctx.changes_side(u))
    return demand_payment(ctx, ev, owed, "unit", "Imperial mobile units")


@legal("event_unpaid")
def legal_unpaid(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "leave_unpaid", p["key"]: x} for x in p["candidates"]]


# ---------------------------------------------------------------------------- Colonization
@marker("COLONIZATION")
def ev_colonization(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-COLONIZATION: waits for this turn's Chaos Colonization Phase (SGE-SEQ-7), which
    places the system unit and discards the marker."""
    ctx.state["colonizations"] += 1
    ctx.log("SGE-EV-COLONIZATION", "marker", "Colonization: a Chaos system unit will be placed in "
            "the Chaos Colonization Phase")
    return DONE


# ---------------------------------------------------------------------------- CI and RP dice
@marker("CULT")
def ev_cult(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-CULT: the CI drops by one die."""
    face = ctx.roll("d10", "SGE-EV-CULT", "Cult of the Omnipresent Empire")
    ctx.change_ci(-face, "Cult of the Omnipresent Empire", "SGE-EV-CULT", from_event=True)
    return discard(ctx, ev["marker"], "played")


@marker("SMASH")
def ev_smash(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-SMASH: the CI rises by one die (capped at 95 on turn 1, SGE-CI-9)."""
    face = ctx.roll("d10", "SGE-EV-SMASH", "Don't Forget to Smash the Empire")
    ctx.change_ci(face, "Don't Forget to Smash the Empire", "SGE-EV-SMASH", from_event=True)
    return discard(ctx, ev["marker"], "played")


@marker("TECH-ADVANCE")
def ev_tech_advance(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-TECH-ADVANCE: the Empire gains one die of RP."""
    face = ctx.roll("d10", "SGE-EV-TECH-ADVANCE", "Tech/Trade Advance")
    ctx.change_rp(face, "Tech/Trade Advance", "SGE-EV-TECH-ADVANCE")
    return discard(ctx, ev["marker"], "played")


@marker("TECH-COLLAPSE")
def ev_tech_collapse(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-TECH-COLLAPSE, SGE-RES-4: the Empire loses one die of RP, never below 0."""
    face = ctx.roll("d10", "SGE-EV-TECH-COLLAPSE", "Tech/Trade Collapse")
    ctx.change_rp(-face, "Tech/Trade Collapse", "SGE-EV-TECH-COLLAPSE")
    return discard(ctx, ev["marker"], "played")


@marker("ROBOTS")
def ev_robots(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-ROBOTS: RP for every Imperial system unit."""
    per = ctx.data["event_values"]["robots_rp_per_system"]
    count = len(ctx.imperial_system_sectors())
    ctx.change_rp(per * count, f"Robots: {count} Imperial system units", "SGE-EV-ROBOTS")
    return discard(ctx, ev["marker"], "played")


@marker("STORM")
def ev_storm(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-STORM: nothing happens."""
    return discard(ctx, ev["marker"], "it has no effect")


# ---------------------------------------------------------------------------- Defection
@marker("DEFECTION")
def ev_defection(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-DEFECTION, SGE-POOL-20: every Chaos unit in a random sector turns Imperial;
    mobile units leave their forces, a system leaves its IE (a home dissolves it)."""
    m = ev["marker"]
    n = ctx.random_sector("SGE-EV-DEFECTION", "Defection")
    movers = sorted(ctx.chaos_mobile_at(n))
    s = ctx.system_at(n)
    if not movers and (s is None or s["side"] != CHAOS):
        ctx.log("SGE-EV-DEFECTION", "note", f"{fmt_sector(n)} holds no Chaos unit: nothing happens",
                refs=[sector_ref(n)])
        return discard(ctx, m, "played")
    for uid in movers:
        ctx.convert_unit(uid, "SGE-POOL-20", "Defection")
    if s is not None and s["side"] == CHAOS:
        ctx.convert_system(n, "SGE-POOL-20", "Defection")
    return discard(ctx, m, "played")


# ---------------------------------------------------------------------------- free units
def free_types(ctx: Ctx) -> list[str]:
    """SGE-POOL-16: SF and CG from the counter mix."""
    return [code for code in ("SF", "CG") if ctx.state["mix"][code]]


@marker("CORPS")
def ev_corps(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-CORPS, SGE-POOL-16: one free SF or CG in any numbered sector."""
    m = ev["marker"]
    if "answer" not in ev:
        if not free_types(ctx):
            return no_effect(ctx, m, "no SF or CG counter left in the mix")
        ctx.ask("event_corps", "Empire Corps: which free unit do you take (SF or CG), and in which "
                "sector do you place it?", rule="SGE-EV-CORPS", marker=m)
        return ASK
    a = ev.pop("answer")
    ctx.place_unit(a["type"], IMP, a["at"], "SGE-EV-CORPS", why="Empire Corps")
    return discard(ctx, m, "played")


@legal("event_corps")
def legal_corps(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "corps", "type": code, "at": n}
            for code in free_types(ctx) for n in sorted(ctx.galaxy.numbers)]


@explain("event_corps")
def check_corps(ctx: Ctx, p: dict, action: dict) -> str | None:
    """One of ``legal_corps`` without listing them all (a free type, a numbered sector)."""
    if action.get("verb") != "corps" or set(action) != {"verb", "type", "at"}:
        return "that is not an Empire Corps choice (corps, with a type and a sector)"
    if not isinstance(action["type"], str) or action["type"] not in free_types(ctx):
        return f"{action['type']!r} is not a free unit type (SF or CG left in the mix)"
    at = action["at"]
    if not isinstance(at, int) or isinstance(at, bool) or at not in ctx.galaxy.numbers:
        return f"{at!r} is not a numbered sector"
    return None


def crusade_choices(ctx: Ctx) -> list[dict]:
    """SGE-POOL-16: an Imperial-controlled sector and 1 to its effective RV units in any SF/CG
    mix the counter mix allows."""
    sf_free = len(ctx.state["mix"]["SF"])
    cg_free = len(ctx.state["mix"]["CG"])
    out = []
    for n in ctx.imperial_system_sectors():
        rv = ctx.effective_rv(ctx.system_at(n))
        for total in range(1, rv + 1):
            for sf in range(total, -1, -1):
                cg = total - sf
                if sf <= sf_free and cg <= cg_free:
                    out.append({"verb": "crusade", "at": n, "sf": sf, "cg": cg})
    return out


@marker("CRUSADE")
def ev_crusade(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-CRUSADE, SGE-POOL-16: free SFs and CGs in one Imperial-controlled sector."""
    m = ev["marker"]
    if "answer" in ev:
        a = ev.pop("answer")
    else:
        choices = crusade_choices(ctx)
        if not choices:
            return no_effect(ctx, m, "no Imperial-controlled sector, or no SF or CG in the mix")
        if len(choices) > 1:
            ctx.ask("event_crusade", "Galactic Crusade: in which Imperial-controlled sector do you "
                    "raise free units, and how many SF and CG (up to its resource value)?",
                    rule="SGE-EV-CRUSADE", marker=m)
            return ASK
        a = choices[0]
    for code, count in (("SF", a["sf"]), ("CG", a["cg"])):
        for _ in range(count):
            ctx.place_unit(code, IMP, a["at"], "SGE-EV-CRUSADE", why="Galactic Crusade")
    return discard(ctx, m, "played")


@legal("event_crusade")
def legal_crusade(ctx: Ctx, p: dict) -> list[dict]:
    return crusade_choices(ctx)


# ---------------------------------------------------------------------------- this-turn effects
@marker("SPECTACLE")
def ev_spectacle(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-SPECTACLE, SGE-CI-7, SGE-POOL-9: CI changes doubled this turn; a second one
    while one is active goes back to the pool for a substitute."""
    m = ev["marker"]
    if ctx.effect_active(m):
        return substitute(ctx, m, "a Spectacle is already active (SGE-POOL-9)")
    return lasts_this_turn(ctx, m, "every CI change counts double (normal with Leviathan)")


@marker("PARANOIA")
def ev_paranoia(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-PARANOIA: no extropy this turn (and the Illumination/Repression market changes,
    read by Phases 9 and 14)."""
    extra = "; no Illumination for sale; 2 Repression per RP" if ctx.option("illumination") else ""
    return lasts_this_turn(ctx, ev["marker"], "no extropy operation" + extra)


@marker("MILITARISM")
def ev_militarism(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-MILITARISM, SGE-POOL-13: lasts the turn; cancelled by Pacifism."""
    return lasts_this_turn(ctx, ev["marker"], "Imperial military attacks +1, morph attacks -1"
                           + (" - cancelled by Pacifism" if ctx.effect_active("PACIFISM") else ""))


@marker("PACIFISM")
def ev_pacifism(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-PACIFISM: lasts the turn; cancelled by Militarism."""
    return lasts_this_turn(ctx, ev["marker"], "Imperial morph attacks +1, military attacks -1"
                           + (" - cancelled by Militarism" if ctx.effect_active("MILITARISM") else ""))


@marker("ENLIGHTENMENT")
def ev_enlightenment(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-ENLIGHTENMENT: Illumination at 1 RP and no Repression for sale this turn
    (needs the Illumination and Suppression rules, SGE-POOL-4)."""
    if missing_rule(ctx, ev["marker"]):
        return replacement(ctx, ev["marker"], missing_rule(ctx, ev["marker"]))
    return lasts_this_turn(ctx, ev["marker"], "Illumination costs 1 RP; no Repression for sale")


@marker("ELITES")
def ev_elites(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-ELITES: no Illumination for sale and double Nexus upkeep this turn (needs the
    Illumination and Suppression rules, SGE-POOL-4)."""
    if missing_rule(ctx, ev["marker"]):
        return replacement(ctx, ev["marker"], missing_rule(ctx, ev["marker"]))
    return lasts_this_turn(ctx, ev["marker"], "no Illumination for sale; Nexus upkeep doubled")


# ---------------------------------------------------------------------------- Expedition
@marker("EXPEDITION")
def ev_expedition(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-EXPEDITION: a random sector without another Expedition Possible marker."""
    m = ev["marker"]
    if missing_rule(ctx, m):
        return replacement(ctx, m, missing_rule(ctx, m))          # SGE-POOL-4
    sites = ctx.state["expedition_sites"]
    if len(set(sites)) >= len(ctx.galaxy.numbers):
        return no_effect(ctx, m, "every sector already has one")
    n = ctx.random_sector("SGE-EV-EXPEDITION", "Expedition Possible")
    while n in sites:
        ctx.log("SGE-EV-EXPEDITION", "note", f"{fmt_sector(n)} already has one: another sector is picked")
        n = ctx.random_sector("SGE-EV-EXPEDITION", "Expedition Possible")
    sites.append(n)
    ctx.log("SGE-EV-EXPEDITION", "marker", f"An expedition is possible in {fmt_sector(n)}",
            refs=[sector_ref(n)])
    return DONE


# ---------------------------------------------------------------------------- Imperial Leader
@marker("LEADER")
def ev_leader(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-LEADER, SGE-LDR-3: a random leader from the Imperial pool on an Imperial mobile
    unit without one, chosen by the player."""
    m = ev["marker"]
    pool = ctx.state["imp_leaders"]
    if "leader" not in ev:
        units = leaderless_units(ctx)
        if not pool or not units:
            return no_effect(ctx, m, "no leader in the Imperial pool" if not pool
                             else "no Imperial mobile unit without a leader")
        ev["leader"] = ctx.pick(pool, "SGE-EV-LEADER", "Imperial leader drawn")
        ctx.log("SGE-EV-LEADER", "leader", f"An Imperial leader of value {ev['leader']} arises")
    if "answer" in ev:
        uid = ev.pop("answer")["unit"]
    else:
        units = leaderless_units(ctx)
        if len(units) > 1:
            ctx.ask("event_leader", f"Imperial Leader Arises: which Imperial mobile unit receives the "
                    f"new leader (value {ev['leader']})?", rule="SGE-EV-LEADER", marker=m,
                    leader=ev["leader"])
            return ASK
        uid = units[0]
    pool.remove(ev["leader"])
    ctx.units[uid]["leader"] = ev["leader"]
    ctx.log("SGE-EV-LEADER", "leader", f"Imperial leader {ev['leader']} joins {uid} in "
            f"{fmt_sector(ctx.units[uid]['loc'])}", refs=[uid])
    return discard(ctx, m, "played")


def leaderless_units(ctx: Ctx) -> list[str]:
    return sorted(uid for uid, u in ctx.units.items()
                  if u["side"] == IMP and u["loc"] is not None and not u["leader"])


@legal("event_leader")
def legal_leader(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "place_leader", "unit": uid} for uid in leaderless_units(ctx)]


# ---------------------------------------------------------------------------- IE Arises
def free_ie_number(ctx: Ctx) -> int | None:
    """SGE-IE-1: the lowest free of #1-#4, then #5 or #6."""
    spec = ctx.data["misc_decided"]["independent_empires"]
    for number in [*spec["event_numbers"], *spec["scenario_numbers"]]:
        if str(number) not in ctx.state["ies"]:
            return number
    return None


@marker("IE-ARISES")
def ev_ie_arises(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-IE-ARISES, SGE-DICE-7, SGE-DICE-8: search down for a system unit that belongs
    to no IE, and found an IE there (SGE-IE-3, SGE-IE-9: establish_ie flips an Imperial
    home). The marker stays on the home until the IE dissolves (SGE-IE-8)."""
    from struggle_desktop.games.struggle.chaos_ops import establish_ie

    m = ev["marker"]
    number = free_ie_number(ctx)
    if number is None:
        return no_effect(ctx, m, "every IE number is in use (SGE-IE-1)")

    def qualifies(n: int) -> bool:
        # SGE-DICE-7 [amended]: a sector already in an IE cannot found a second one.
        s = ctx.system_at(n)
        return s is not None and s["ie"] is None and ctx.ie_of_sector(n) is None

    start = ctx.random_sector("SGE-EV-IE-ARISES", "Independent Empire Arises")
    home = search(ctx, start, qualifies, False, top_sector(ctx), "SGE-DICE-7",
                  "a system unit outside any IE")
    if home is None:
        return no_effect(ctx, m, "no system unit outside the IEs")
    establish_ie(ctx, number, home, "SGE-EV-IE-ARISES", arises=True)
    return DONE


# ---------------------------------------------------------------------------- Institute
@marker("INSTITUTE")
def ev_institute(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-INSTITUTE, SGE-POOL-9: a random sector with a system unit; none there sends it
    back for a substitute; a second one in play is discarded."""
    m = ev["marker"]
    if ctx.state["institutes"]:
        return discard(ctx, m, "an Institute is already in play (SGE-POOL-9)")
    if not ctx.systems:
        # No sector could ever take it: the substitute loop would not end (SGE-POOL-11).
        return no_effect(ctx, m, "no system unit on the map")
    n = ctx.random_sector("SGE-EV-INSTITUTE", "The Institute")
    if ctx.system_at(n) is None:
        return substitute(ctx, m, f"{fmt_sector(n)} has no system unit")
    ctx.state["institutes"].append({"loc": n, "placed": ctx.state["turn"]})
    ctx.log("SGE-EV-INSTITUTE", "marker", f"The Institute settles in {fmt_sector(n)} (it acts from "
            "next turn)", refs=[sector_ref(n)])
    return DONE


# ---------------------------------------------------------------------------- Invaders
@marker("INVADERS")
def ev_invaders(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-INVADERS, SGE-INV-1, SGE-INV-2, SGE-INV-3: leadership from the Chaos leader pool
    (else SGE-LDR-7), one die per leadership point, then entry at the rim."""
    m = ev["marker"]
    leader, from_pool = ctx.draw_chaos_leader("SGE-INV-1", "Invader leadership")
    table = ctx.data["invaders"]
    codes: list[str] = []
    for k in range(leader):
        face = ctx.roll("d10", "SGE-EV-INVADERS", f"Invader force ({k + 1} of {leader})")
        for code in table["faces"][face]:
            if code == "TH" and not ctx.option("trans_humans"):
                codes.extend(table["th_replacement"])    # SGE-INV-3
            else:
                codes.append(code)
    n = invader_entry(ctx, ctx.random_sector("SGE-EV-INVADERS", "Invaders Appear"))
    # SGE-LDR-8: the leader marker stays with the force until the force ends.
    fid = ctx.new_force("invader", leader, "SGE-EV-INVADERS", leader_marker=from_pool, marker=m)
    for code in codes:
        ctx.place_unit(code, CHAOS, n, "SGE-EV-INVADERS", force=fid, why="Invaders Appear")
    if not ctx.force_units(fid):
        ctx.end_force(fid, "no counter was left in the mix for it")    # SGE-POOL-11
        return DONE
    ctx.log("SGE-EV-INVADERS", "force", f"{ctx.force_name(fid)} (leadership {leader}) enters in "
            f"{fmt_sector(n)} with {len(codes)} unit(s)", refs=[sector_ref(n)])
    return DONE


def invader_entry(ctx: Ctx, n: int) -> int:
    """SGE-INV-2: step away from the Core, at random among farther neighbours, until the
    sector is Void-adjacent or no farther neighbour exists."""
    g = ctx.galaxy
    while n not in g.void_adjacent:
        farther = sorted(g.away_from_core(n))
        if not farther:
            break
        step = ctx.pick(farther, "SGE-INV-2", f"Invaders: entry point moves outward from {fmt_sector(n)}")
        ctx.log("SGE-INV-2", "move", f"Invaders' entry point moves from {fmt_sector(n)} to "
                f"{fmt_sector(step)}", refs=[sector_ref(step)])
        n = step
    return n


# ---------------------------------------------------------------------------- Leviathan
@marker("LEVIATHAN")
def ev_leviathan(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-LEVIATHAN, SGE-POOL-9, SGE-CI-5: with an Imperial Core the player accepts it
    (CI changes halved while the Core stays Imperial) or returns it to the pool."""
    m = ev["marker"]
    if ctx.leviathan_in_effect():
        return discard(ctx, m, "a Leviathan is already in play (SGE-POOL-9)")
    if not ctx.imperial_controlled(ctx.galaxy.core):
        return discard(ctx, m, "the Core holds no Imperial system unit")
    if "answer" not in ev:
        ctx.ask("event_leviathan", "Leviathan: accept the machine-emperor on the Core (every CI "
                "change is halved while the Core stays Imperial) or send it back to the pool?",
                rule="SGE-EV-LEVIATHAN", marker=m)
        return ASK
    if ev.pop("answer")["verb"] == "accept_leviathan":
        ctx.state["leviathan"] = True
        ctx.log("SGE-EV-LEVIATHAN", "marker", "Leviathan is accepted: it sits on the Core and halves "
                "every CI change", refs=[sector_ref(ctx.galaxy.core)])
    else:
        back_to_pool(ctx, m, "declined by the player")
    return DONE


@legal("event_leviathan")
def legal_leviathan(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "accept_leviathan"}, {"verb": "return_leviathan"}]


# ---------------------------------------------------------------------------- Mutant
def mutant_can_take(ctx: Ctx, n: int) -> bool:
    """A sector the Mutant can take: a Chaos mobile unit or an Imperial one that can flip
    (IO units stay out of its stack, SGE-POOL-18)."""
    return any(u["loc"] == n and (u["side"] == CHAOS or ctx.changes_side(u)) for u in ctx.units.values())


@marker("MUTANT")
def ev_mutant(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-MUTANT, SGE-POOL-18, SGE-POOL-20: the Mutant seizes every mobile unit of a
    random sector (Imperial ones flip, other forces' markers end) as one force."""
    m = ev["marker"]
    forces = ctx.state["forces"]
    if any(f["kind"] == "mutant" for f in forces.values()):
        return discard(ctx, m, "a Mutant is already in play (SGE-POOL-9)")
    if not any(u["loc"] is not None for u in ctx.units.values()):
        # No sector could ever take it: the substitute loop would not end (SGE-POOL-11).
        return no_effect(ctx, m, "no mobile unit on the map")
    n = ctx.random_sector("SGE-EV-MUTANT", "The Mutant")
    if not ctx.mobile_at(n):
        return substitute(ctx, m, f"{fmt_sector(n)} holds no mobile unit")
    if not mutant_can_take(ctx, n):
        # Mobile units are there, so no substitute; but Imperial Order units never change side
        # and stay out of its stack (SGE-POOL-18): a Mutant with no units ends at once.
        return no_effect(ctx, m, f"{fmt_sector(n)} holds only Imperial Order units, which "
                         "never join it")
    leadership = ctx.data["usurpation"]["mutant_leadership"]
    fid = ctx.new_force("mutant", leadership, "SGE-EV-MUTANT", marker=m)
    ctx.log("SGE-EV-MUTANT", "force", f"The Mutant ({fid}, leadership {leadership}) rises in "
            f"{fmt_sector(n)}", refs=[sector_ref(n)])
    for uid in sorted(ctx.imp_mobile_at(n)):
        if ctx.changes_side(ctx.units[uid]):
            ctx.convert_unit(uid, "SGE-POOL-20", "seized by the Mutant", force=fid)
    for other in sorted({ctx.units[u]["force"] for u in ctx.chaos_mobile_at(n)} - {None, fid},
                        key=lambda f: forces[f]["seq"]):
        ctx.end_force(other, "its units are merged into the Mutant's stack (SGE-POOL-18)")
    for uid in sorted(ctx.chaos_mobile_at(n)):
        if ctx.units[uid]["force"] is None:
            join_force(ctx, uid, fid, "SGE-EV-MUTANT")
    # Last, once the Mutant's stack is whole: the continuous checks this runs end a force
    # with no units.
    leave_ie_for_the_mutant(ctx, n)
    return DONE


def leave_ie_for_the_mutant(ctx: Ctx, n: int) -> None:
    """SGE-POOL-18 [amended]: the Mutant removes the IE marker of its sector, which leaves
    its IE; if it was the IE's home, the IE dissolves (SGE-IE-8, by the continuous checks
    that ``after_system_change`` runs)."""
    ie = ctx.ie_of_sector(n)
    if ie is None:
        return
    system = ctx.system_at(n)
    if system is not None and system["ie"] == ie:
        system["ie"] = None
    ctx.log("SGE-POOL-18", "ie", f"The Mutant removes the IE #{ie} marker in {fmt_sector(n)}: "
            "the sector leaves the IE", refs=[sector_ref(n)])
    ctx.after_system_change(n, {"ie": ie})


def join_force(ctx: Ctx, uid: str, fid: str, rule: str) -> None:
    """A Chaos mobile unit joins a force in its sector (no primitive exists for this)."""
    ctx.set_force(uid, fid)
    ctx.log(rule, "force", f"{uid} joins {ctx.force_name(fid)}", refs=[uid])


# ---------------------------------------------------------------------------- Power Struggle
@marker("POWER-STRUGGLE")
def ev_power_struggle(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-POWER-STRUGGLE, SGE-LDR-4, SGE-LDR-5: a die for each Imperial leader on the
    map."""
    m = ev["marker"]
    face_max = ctx.data["event_values"]["power_struggle_eliminate_face_max"]
    holders = sorted((u["loc"], uid) for uid, u in ctx.units.items()
                     if u["side"] == IMP and u["leader"] and u["loc"] is not None)
    if not holders:
        return no_effect(ctx, m, "no Imperial leader on the map")
    for _, uid in holders:
        value = ctx.units[uid]["leader"]
        face = ctx.roll("d10", "SGE-EV-POWER-STRUGGLE", f"Power Struggle: leader {value} on {uid}",
                        refs=[uid])
        if face <= face_max:
            ctx.remove_leader(uid, "SGE-EV-POWER-STRUGGLE", "lost in the Power Struggle")
    return discard(ctx, m, "played")


# ---------------------------------------------------------------------------- Rebellion
@marker("REBELLION")
def ev_rebellion(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-REBELLION, SGE-DICE-7, SGE-DICE-8, SGE-POOL-20: search up (then down) for an
    Imperial unit that can flip; every Imperial unit there turns Rebel (SGE-REB-1) and the
    Imperial leaders there are removed (those on IO units too, SGE-LDR-5)."""
    m = ev["marker"]
    start = ctx.random_sector("SGE-EV-REBELLION", "Rebellion")
    n = search(ctx, start, lambda s: ctx.flippable_at(s, mobile_only=False), True, top_sector(ctx),
               "SGE-DICE-7", "an Imperial unit that can change side")
    if n is None:
        return no_effect(ctx, m, "no Imperial unit that can change side")
    for uid in sorted(ctx.imp_mobile_at(n)):
        if ctx.units[uid]["leader"]:
            ctx.remove_leader(uid, "SGE-EV-REBELLION", "removed by the Rebellion")
    for uid in sorted(ctx.imp_mobile_at(n)):
        if ctx.changes_side(ctx.units[uid]):
            ctx.convert_unit(uid, "SGE-POOL-20", "Rebellion")
    if ctx.imperial_controlled(n):
        ctx.convert_system(n, "SGE-POOL-20", "Rebellion")
    return discard(ctx, m, "played")


# ---------------------------------------------------------------------------- Trans-humans
@marker("TH-APPEAR")
def ev_th_appear(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-TH-APPEAR, SGE-POOL-15, SGE-DICE-2: a TH in a random sector, Imperial on an odd
    roll, Rebel on an even one; a Rebel TH joins the leftmost Chaos force there."""
    m = ev["marker"]
    if missing_rule(ctx, m):
        return replacement(ctx, m, missing_rule(ctx, m))          # SGE-POOL-4
    if not ctx.state["mix"]["TH"]:
        return no_effect(ctx, m, "no TH counter left in the mix")
    n = ctx.random_sector("SGE-EV-TH-APPEAR", "Trans-humans Appear")
    face = ctx.roll("d10", "SGE-EV-TH-APPEAR", "Trans-humans: odd Imperial, even Rebel")
    imperial_parity = ctx.data["event_values"]["th_appear_imperial_parity"]
    imperial = (face % 2 == 1) == (imperial_parity == "odd")      # SGE-DICE-3: 0 is even
    if imperial:
        ctx.place_unit("TH", IMP, n, "SGE-EV-TH-APPEAR", why="Trans-humans Appear (Imperial)")
        return discard(ctx, m, "played")
    fid = leftmost_force_at(ctx, n)
    ctx.place_unit("TH", CHAOS, n, "SGE-POOL-15", force=fid,
                   why="Trans-humans Appear" + (f", joining {ctx.force_name(fid)}" if fid else " (Rebel)"))
    return discard(ctx, m, "played")


def leftmost_force_at(ctx: Ctx, n: int) -> str | None:
    """SGE-POOL-15: the Chaos force in n whose type is leftmost on the Chaos Operations Table
    (FORCE_ORDER), at random among several of that type; None if only Rebels (or nobody)."""
    forces = ctx.state["forces"]
    here = sorted({ctx.units[uid]["force"] for uid in ctx.chaos_mobile_at(n)} - {None},
                  key=lambda f: forces[f]["seq"])
    if not here:
        return None
    best = min(FORCE_ORDER[forces[f]["kind"]] for f in here)
    tied = [f for f in here if FORCE_ORDER[forces[f]["kind"]] == best]
    return ctx.pick(tied, "SGE-POOL-15", f"Trans-humans: which force in {fmt_sector(n)} it joins")


# ---------------------------------------------------------------------------- Usurper
@marker("USURPER")
def ev_usurper(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-USURPER, SGE-DICE-7, SGE-DICE-8, SGE-LDR-7: search down for Imperial mobile
    units that can flip; they become a Usurper force under this marker."""
    m = ev["marker"]
    start = ctx.random_sector("SGE-EV-USURPER", "Usurper")
    n = search(ctx, start, lambda s: ctx.flippable_at(s, mobile_only=True), False, top_sector(ctx),
               "SGE-DICE-7", "Imperial mobile units that can change side")
    if n is None:
        return no_effect(ctx, m, "no Imperial mobile unit that can change side")
    leader = ctx.random_leader_value("SGE-EV-USURPER", "Usurper")
    fid = ctx.new_force("usurper", leader, "SGE-EV-USURPER", marker=m)
    ctx.log("SGE-EV-USURPER", "force", f"A Usurper ({fid}, leader {leader}) rises in {fmt_sector(n)}",
            refs=[sector_ref(n)])
    for uid in sorted(ctx.imp_mobile_at(n)):
        if ctx.changes_side(ctx.units[uid]):
            ctx.convert_unit(uid, "SGE-POOL-20", "joins the Usurper", force=fid)
    return DONE


# ---------------------------------------------------------------------------- Web Raiders
@marker("WEB-RAIDERS")
def ev_web_raiders(ctx: Ctx, ev: dict) -> str:
    """SGE-EV-WEB-RAIDERS, SGE-NEX-4: a die for each Nexus; a lost Nexus raises the CI
    (SGE-CI-2, capped on turn 1 as an event increase, SGE-CI-9)."""
    m = ev["marker"]
    if not ctx.option("nexus"):
        return no_effect(ctx, m, "the Nexus rule is off")
    if not ctx.state["nexus"]:
        return no_effect(ctx, m, "no Nexus on the map")
    face_max = ctx.data["event_values"]["web_raiders_eliminate_face_max"]
    for n in sorted(ctx.state["nexus"]):
        face = ctx.roll("d10", "SGE-EV-WEB-RAIDERS", f"Web Raiders: Nexus in {fmt_sector(n)}",
                        refs=[sector_ref(n)])
        if face <= face_max and n in ctx.state["nexus"]:
            ctx.lose_nexus(n, "destroyed by Web Raiders", "SGE-EV-WEB-RAIDERS")
    return discard(ctx, m, "played")


__all__ = ["MARKERS", "DONE", "ASK", "SUBSTITUTE", "phase1", "draw_marker", "draws_this_turn",
           "markers_per_round", "search", "demand_payment", "alliance_choices", "crusade_choices",
           "leftmost_force_at", "invader_entry", "free_ie_number", "run_scheduled"]
