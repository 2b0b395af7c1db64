"""Military and morphogenetic combat (section 9 of the rules), shared by both sides: military
results eliminate the units they strike, morph results convert them (SGE-CMB-1).

One function, ``resolve``, fights one combat in one sector: the Imperial player's attacks in
Phase 11 and the Chaos forces' "+ Attack" and Alliance attacks in Phase 2. ``preview`` works
out the same figures without rolling, with the chance of every result, for the player's combat
dialog and for the bot.

An *attacker* is ``"imp"`` (every Imperial mobile unit in the sector), a Chaos force id,
``"rebels"`` (every Rebel mobile unit in the sector acting as one force) or
``"rebels:<uid>,<uid>..."`` (one Rebel force of the Rebel subphase: only those of its units that
are still Rebels in the sector attack, SGE-OPS-1, SGE-CMB-3).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from struggle_desktop.games.struggle.aliens import alien_blocks_attack
from struggle_desktop.games.struggle.context import (CHAOS, FORCE_ORDER, IMP, Ctx, fmt_sector,
                                                     sector_ref)

KINDS = ("mil", "morph")
KIND_NAMES = {"mil": "military", "morph": "morphogenetic"}


@dataclass
class Odds:
    """Everything about one possible combat before the roll (SGE-CMB-15)."""

    sector: int
    attacker: str
    kind: str
    attack: int
    defence: int
    differential: int
    column: int
    modifiers: list[tuple[str, int]]
    results: dict[str, float] = field(default_factory=dict)   # result -> probability
    affected: dict[str, list[str]] = field(default_factory=dict)  # result -> units struck

    @property
    def modifier(self) -> int:
        return sum(m for _, m in self.modifiers)

    def as_dict(self) -> dict:
        # Copies: an Odds may be remembered and read again (imperial_odds).
        return {"sector": self.sector, "attacker": self.attacker, "kind": self.kind,
                "attack": self.attack, "defence": self.defence,
                "differential": self.differential, "column": self.column,
                "modifiers": [list(m) for m in self.modifiers], "results": dict(self.results),
                "affected": {r: list(units) for r, units in self.affected.items()}}


# ---------------------------------------------------------------------------- sides
def is_rebels(attacker: str) -> bool:
    return attacker == "rebels" or attacker.startswith("rebels:")


def rebel_group_key(units: list[str]) -> str:
    """The attacker key of one Rebel force made of ``units`` (SGE-OPS-1)."""
    return "rebels:" + ",".join(sorted(units))


def attacker_units(ctx: Ctx, n: int, attacker: str, sides: dict | None = None) -> list[str]:
    """SGE-CMB-3: who attacks: every mobile unit of the acting force, and only those.
    ``sides``: ``units_by_side(ctx, n)``, when the caller has it."""
    if attacker == "imp":
        return ctx.imp_mobile_at(n) if sides is None else sides[IMP]
    if attacker == "rebels":
        return ctx.rebels_at(n)
    if attacker.startswith("rebels:"):
        group = set(attacker[len("rebels:"):].split(","))
        return [uid for uid in ctx.rebels_at(n) if uid in group]
    return [uid for uid in ctx.mobile_at(n) if ctx.units[uid]["force"] == attacker]


def defender_side(attacker: str) -> str:
    return CHAOS if attacker == "imp" else IMP


def side_units(ctx: Ctx, n: int, side: str) -> list[str]:
    units = ctx.units
    return [uid for uid in ctx._index().get(n, ()) if units[uid]["side"] == side]


def units_by_side(ctx: Ctx, n: int) -> dict[str, list[str]]:
    """``side_units`` of both sides, in one walk of the sector: ``compute_odds`` reads each
    side's units several times (strengths, leaders, exposure)."""
    sides: dict[str, list[str]] = {IMP: [], CHAOS: []}
    units = ctx.units
    for uid in ctx._index().get(n, ()):
        sides[units[uid]["side"]].append(uid)
    return sides


#: "Not worked out yet" for the optional arguments that let ``compute_odds`` hand the
#: helpers what it already knows about a sector (its Mutant force, its Chaos forces).
UNKNOWN = object()


def mutant_force_at(ctx: Ctx, n: int, forces_here: list[str] | None = None) -> str | None:
    """The Mutant force in n, if any (``forces_here``: ``ctx.forces_at(n)``, if known)."""
    forces = ctx.state["forces"]
    for fid in ctx.forces_at(n) if forces_here is None else forces_here:
        if forces[fid]["kind"] == "mutant":
            return fid
    return None


def strengths(ctx: Ctx, n: int, attacker: str, kind: str, mutant=UNKNOWN,
              sides: dict | None = None) -> tuple[int, int]:
    """SGE-CMB-6: attack leaves parenthesized factors out, defence counts them; system units
    defend but never attack; the Mutant adds 3 morph to its force's side (SGE-CMB-11); a
    Chaos TH adds its CI-dependent factors to its force's total (SGE-TH-4).
    ``mutant``: ``mutant_force_at(ctx, n)``, and ``sides``: ``units_by_side(ctx, n)``, when
    the caller has them."""
    attack = ctx.factor_total(attacker_units(ctx, n, attacker, sides), kind, defending=False)
    dside = defender_side(attacker)
    defenders = side_units(ctx, n, dside) if sides is None else sides[dside]
    defence = ctx.factor_total(defenders, kind, defending=True)
    s = ctx.system_at(n)
    if s is not None and s["side"] == dside:
        mil, morph, _ = ctx.system_values(s)
        defence += mil if kind == "mil" else morph
    if kind == "morph":
        bonus = ctx.data["event_values"]["mutant_morph_bonus"]
        if mutant is UNKNOWN:
            mutant = mutant_force_at(ctx, n)
        if mutant is not None:
            if attacker == mutant:
                attack += bonus
            elif attacker == "imp":
                defence += bonus
    return attack, defence


def modifiers(ctx: Ctx, n: int, attacker: str, kind: str,
              forces_here: list[str] | None = None,
              sides: dict | None = None) -> list[tuple[str, int]]:
    """SGE-CMB-7: one leader per side, Militarism/Pacifism on Imperial attacks.
    ``forces_here``: ``ctx.forces_at(n)``, and ``sides``: ``units_by_side(ctx, n)``, when the
    caller has them."""
    mods: list[tuple[str, int]] = []
    if sides is None:
        imp_leaders = ctx.leaders_in(n)
    else:   # ctx.leaders_in, from the Imperial units already found
        units = ctx.units
        imp_leaders = [units[uid]["leader"] for uid in sides[IMP] if units[uid]["leader"]]
    best_imp = max(imp_leaders) if imp_leaders else 0
    if attacker == "imp":
        if best_imp:
            mods.append(("Imperial leader", best_imp))
        chaos_leader = 0
        for fid in ctx.forces_at(n) if forces_here is None else forces_here:
            f = ctx.state["forces"][fid]
            if f["kind"] != "mutant":   # SGE-POOL-18
                chaos_leader = max(chaos_leader, f["leader"])
        if chaos_leader:
            mods.append(("Chaos leader", -chaos_leader))
        mil_mod, morph_mod = imperial_event_modifiers(ctx)
        if kind == "mil" and mil_mod:
            mods.append(("Militarism/Pacifism", mil_mod))
        if kind == "morph" and morph_mod:
            mods.append(("Militarism/Pacifism", morph_mod))
    else:
        f = ctx.state["forces"].get(attacker)
        if f is not None and f["kind"] != "mutant" and f["leader"]:
            mods.append(("Chaos leader", f["leader"]))
        if best_imp:
            mods.append(("Imperial leader", -best_imp))
    return mods


def imperial_event_modifiers(ctx: Ctx) -> tuple[int, int]:
    """(military, morph) die modifiers from Militarism and Pacifism this turn; the two cancel
    each other when both are in effect (SGE-EV-MILITARISM, SGE-EV-PACIFISM)."""
    eff = ctx.state["effects"]
    mil = "MILITARISM" in eff
    pac = "PACIFISM" in eff
    if mil == pac:
        return 0, 0
    limits = ctx.data["combat_limits"]
    table = limits["militarism"] if mil else limits["pacifism"]
    return table["military"], table["morph"]


def column_of(ctx: Ctx, differential: int) -> int:
    for k, col in enumerate(ctx.data["combat_results"]["columns"]):
        lo, hi = col["min"], col["max"]
        if (lo is None or differential >= lo) and (hi is None or differential <= hi):
            return k
    raise AssertionError("combat_results columns do not cover every differential")


def result_for(ctx: Ctx, column: int, modified_roll: int) -> str:
    """SGE-CMB-8: the lowest and highest rows are open-ended (SGE-DICE-5)."""
    rows = ctx.data["combat_results"]["rows"]
    row = min(max(modified_roll, 0), len(rows) - 1)
    return rows[row][column]


# ---------------------------------------------------------------------------- results
def struck_units(ctx: Ctx, n: int, attacker: str, kind: str, result: str) -> list[str]:
    """SGE-CMB-9: the units a result strikes: every unit of the struck side in the sector
    whose relevant factor is n or less ("system:<n>" for the sector's system unit). IO units
    are never converted, Nexus protection and the Mutant's resistance apply to morph results."""
    if result == "-":
        return []
    side = (IMP if attacker == "imp" else CHAOS) if result[0] == "A" else defender_side(attacker)
    return strike(exposure(ctx, n, side, kind), int(result[1]))


def exposure(ctx: Ctx, n: int, side: str, kind: str, mutant=UNKNOWN,
             sides: dict | None = None) -> list[tuple[str, int]]:
    """The units of ``side`` in n that a result could strike, each with the smallest result
    size that strikes it (99: never). ``mutant``: ``mutant_force_at(ctx, n)``, and
    ``sides``: ``units_by_side(ctx, n)``, when the caller has them."""
    out = []
    if kind != "morph":
        mutant = None
    elif mutant is UNKNOWN:
        mutant = mutant_force_at(ctx, n)
    units = ctx.units
    types = ctx.data.unit_types
    morph = kind == "morph"
    for uid in ctx._index().get(n, ()) if sides is None else sides[side]:
        u = units[uid]
        if u["side"] != side:
            continue
        t = types[u["type"]]
        if morph and t.never_converts:
            continue   # SGE-IO-2 (ctx.changes_side)
        if mutant is not None and u["force"] == mutant:
            out.append((uid, 3))   # SGE-CMB-12: only a 3 converts the Mutant's force, all of it
            continue
        # ctx.factor(uid, kind, defending=True), written out: parentheses count in defence
        value = t.mil if kind == "mil" else t.morph
        out.append((uid, ctx.th_factor(side) if value is None else value))
    s = ctx.system_at(n)
    if s is not None and s["side"] == side:
        mil, morph, _ = ctx.system_values(s)
        needed = max(1, mil if kind == "mil" else morph)
        if kind == "morph" and side == IMP and nexus_protected(ctx, n):
            # SGE-NEX-3: the result counts one step lower for these systems
            needed += ctx.data["misc_decided"]["nexus"]["protection_steps"]
        out.append((f"system:{n}", needed))
    return out


def strike(exposed: list[tuple[str, int]], size: int) -> list[str]:
    return [unit for unit, needed in exposed if needed <= size]


def nexus_protected(ctx: Ctx, n: int) -> bool:
    """Whether a Nexus stands in n or next to it (SGE-NEX-3): within misc_decided's
    nexus.protection_distance (1)."""
    nexus = ctx.state["nexus"]
    if nexus:
        reach = ctx.data["misc_decided"]["nexus"]["protection_distance"]
        if reach != 1:
            return any(ctx.galaxy.distance(m, n) is not None
                       and ctx.galaxy.distance(m, n) <= reach for m in nexus)
        neighbours = ctx.galaxy.neighbours[n]
        for m in nexus:   # a few markers at most: look each up among n's neighbours
            if m == n or m in neighbours:
                return True
    return False


def leftmost_force_at(ctx: Ctx, n: int) -> str | None:
    """The Chaos force in n whose type is leftmost on the Chaos Operations Table (forces of
    one type by entry into play). An IE's home detachment counts as a force of its IE
    (SGE-IE-5: it defends normally), so units turned in its sector join it."""
    best = None
    for fid in ctx.forces_at(n):
        f = ctx.state["forces"][fid]
        key = (FORCE_ORDER[f["kind"]], f["seq"])
        if best is None or key < best[0]:
            best = (key, fid)
    return None if best is None else best[1]


def apply_result(ctx: Ctx, n: int, attacker: str, kind: str, result: str, rule: str,
                 struck: list[str] | None = None) -> list[str]:
    """Eliminate (military) or convert (morph) the struck units, SGE-CMB-1, SGE-CMB-9,
    SGE-CMB-10, SGE-CMB-14, with the CI changes of SGE-CI-2, SGE-CI-3 made by the primitives.
    ``struck``: the units ``struck_units`` gives, when the caller already has them (the odds of
    this very position list them)."""
    if struck is None:
        struck = struck_units(ctx, n, attacker, kind, result)
    if not struck:
        return []
    letter = result[0]
    # SGE-CMB-10: where converted Imperial units go.
    if kind == "morph":
        if letter == "D" and attacker != "imp":
            new_force = None if is_rebels(attacker) else attacker
        else:
            new_force = leftmost_force_at(ctx, n)
        f = ctx.state["forces"].get(new_force) if new_force else None
        new_ie = f["ie"] if f is not None and f["kind"] == "ie" else None
    why = f"{result} in {KIND_NAMES[kind]} combat"
    for unit in struck:
        if unit.startswith("system:"):
            if kind == "mil":
                ctx.remove_system(n, rule, why, combat="mil")
            else:
                s = ctx.system_at(n)
                if s is None:
                    continue
                if s["side"] == IMP:
                    ctx.convert_system(n, rule, why, ie=new_ie, combat="morph")
                else:
                    ctx.convert_system(n, rule, why, combat="morph")
            continue
        if unit not in ctx.units:
            continue
        if kind == "mil":
            ctx.remove_unit(unit, rule, why, combat="mil")
        else:
            u = ctx.units[unit]
            target = new_force if u["side"] == IMP else None
            ctx.convert_unit(unit, rule, why, force=target, combat="morph")
    # A Mutant force converted whole ends in the checks, which discard its marker (SGE-CMB-12).
    ctx.checks()
    return struck


# ---------------------------------------------------------------------------- resolve
def result_odds(ctx: Ctx, differential: int, modifier: int) -> tuple[int, dict[str, float]]:
    """The CRT column of a differential and the chance of each result with a die modifier
    (each of the ten faces equally likely), worked out once per pair."""
    key = (differential, modifier)
    found = ctx.data.combat_odds.get(key)
    if found is None:
        col = column_of(ctx, differential)
        counts: dict[str, int] = {}
        for face in range(10):
            r = result_for(ctx, col, face + modifier)
            counts[r] = counts.get(r, 0) + 1
        found = ctx.data.combat_odds[key] = (col, {r: c / 10 for r, c in sorted(counts.items())})
    return found


def compute_odds(ctx: Ctx, n: int, attacker: str, kind: str) -> Odds:
    sides = units_by_side(ctx, n)
    # The sector's Chaos forces and its Mutant, worked out once for all the parts below.
    # Often the sector holds no Chaos mobile unit, and so no force (Imperial units have none).
    if kind == "morph" or attacker == "imp":
        forces_here = ctx.forces_at(n) if sides[CHAOS] else []
    else:
        forces_here = None
    mutant = mutant_force_at(ctx, n, forces_here) if kind == "morph" else None
    attack, defence = strengths(ctx, n, attacker, kind, mutant=mutant, sides=sides)
    diff = attack - defence
    mods = modifiers(ctx, n, attacker, kind, forces_here=forces_here, sides=sides)
    col, results = result_odds(ctx, diff, sum(m for _, m in mods))
    odds = Odds(n, attacker, kind, attack, defence, diff, col, mods)
    odds.results = dict(results)
    own = IMP if attacker == "imp" else CHAOS
    other = defender_side(attacker)
    exposed = {}
    affected = odds.affected
    for r in odds.results:
        if r != "-":
            side = own if r[0] == "A" else other
            found = exposed.get(side)
            if found is None:
                found = exposed[side] = exposure(ctx, n, side, kind, mutant=mutant, sides=sides)
            affected[r] = strike(found, int(r[1]))
    return odds


def imperial_odds(ctx: Ctx, n: int, kind: str, inputs: tuple | None = None) -> Odds:
    """``compute_odds`` of an Imperial ``kind`` attack in n, remembered by ``odds_inputs``
    (``inputs``: those of n now, if the caller has them). The bot works out the odds of the
    attacks it weighs; the rules then resolve the chosen one without working them out again.
    The Odds returned is shared: read it, never change it."""
    remembered = ctx.data.imperial_odds
    if inputs is None:
        inputs = odds_inputs(ctx, n)
    key = (n, kind, inputs)
    odds = remembered.get(key)
    if odds is None:
        if len(remembered) > 100_000:
            remembered.clear()   # a bound for long runs; odds are worked out again
        odds = remembered[key] = compute_odds(ctx, n, "imp", kind)
    return odds


def odds_inputs(ctx: Ctx, n: int) -> tuple:
    """Everything about sector n that the odds of a combat there (``compute_odds``: the
    strengths, modifiers and exposures) and the worth of the units struck read: two combats
    in n with equal inputs have the same odds. Keep it in step with those functions."""
    units = ctx.units
    reads_ci = ctx.data.ci_unit_types
    mobile = []
    ci = None
    in_force = False
    for uid in ctx._index().get(n, ()):
        u = units[uid]
        force = u["force"]
        mobile.append((uid, u["side"], force, u["leader"]))
        if force is not None:
            in_force = True
        if u["type"] in reads_ci:
            ci = ctx.state["ci2"]   # Trans-humans' factors follow the CI (SGE-TH-2)
    # Most sectors hold no unit of a force, and so no force (ctx.forces_at finds none).
    if in_force:
        forces = ctx.state["forces"]
        chaos_forces = [(fid, forces[fid]["kind"], forces[fid]["leader"])
                        for fid in ctx.forces_at(n)]
    else:
        chaos_forces = []
    s = ctx.systems.get(str(n))   # ctx.system_at(n), written out
    system = None if s is None else (s["id"], s["side"], bool(s.get("irs")))
    return (tuple(mobile), tuple(chaos_forces), system, nexus_protected(ctx, n),
            imperial_event_modifiers(ctx), ci)


def preview(ctx: Ctx, n: int, attacker: str, kind: str) -> dict:
    """SGE-CMB-15: strengths, column, modifiers, each result's chance and victims."""
    return compute_odds(ctx, n, attacker, kind).as_dict()


def resolve(ctx: Ctx, n: int, attacker: str, kind: str, rule: str) -> dict:
    """Fight one combat and return what happened (also logged, SGE-CMB-15)."""
    if attacker == "imp" and ctx.data.imperial_odds:
        odds = imperial_odds(ctx, n, kind)   # most often those the bot worked out
    else:
        odds = compute_odds(ctx, n, attacker, kind)
    logged = ctx.keeps_log
    if logged:
        who = "the Empire" if attacker == "imp" else (
            "the Rebels" if is_rebels(attacker) else ctx.force_name(attacker))
        ctx.log("SGE-CMB-6", "combat",
                f"{KIND_NAMES[kind].capitalize()} attack by {who} in {fmt_sector(n)}: "
                f"{odds.attack} against {odds.defence}, differential {odds.differential:+d}",
                refs=[sector_ref(n)])
    roll = ctx.roll("d10", "SGE-CMB-7", "Combat die", modifiers=odds.modifiers,
                    refs=[sector_ref(n)] if logged else ())
    result = result_for(ctx, odds.column, roll)
    if logged:
        ctx.log("SGE-CMB-8", "combat", f"Combat result in {fmt_sector(n)}: "
                + ("no effect" if result == "-" else result), refs=[sector_ref(n)])
    ctx.state["stats"]["combats"] += 1
    # Nothing has changed since the odds were worked out: their victims are this result's.
    struck = apply_result(ctx, n, attacker, kind, result, "SGE-CMB-9",
                          struck=list(odds.affected.get(result, ())))
    return {"result": result, "roll": roll, "struck": struck, "odds": odds.as_dict()}


# ---------------------------------------------------------------------------- who may attack
def prohibited(ctx: Ctx, n: int, kind: str) -> str | None:
    """SGE-CMB-5: the Hive, the Randoids and the Messiah's zone forbid attacks."""
    return alien_blocks_attack(ctx, n, kind)


def imperial_attack_reason(ctx: Ctx, n: int, kind: str) -> str | None:
    """None when the Empire may make a ``kind`` attack in sector n now (SGE-CMB-2, SGE-CMB-3,
    SGE-CMB-5)."""
    if kind not in KINDS:
        return f"unknown combat type {kind!r}"
    if not ctx.imp_mobile_at(n):
        return f"no Imperial mobile units in {fmt_sector(n)}"
    s = ctx.system_at(n)
    if not ctx.chaos_mobile_at(n) and not (s is not None and s["side"] == CHAOS):
        return f"no Chaos units to attack in {fmt_sector(n)}"
    return prohibited(ctx, n, kind)


def resolve_imperial_attack(ctx: Ctx, n: int, kind: str) -> dict:
    return resolve(ctx, n, "imp", kind, "SGE-SEQ-13")


def chaos_attack(ctx: Ctx, n: int, attacker: str, rule: str) -> dict | None:
    """SGE-OPS-14, SGE-CMB-13: a Chaos force attacks the Imperial units in its sector with the
    type giving the larger differential (ties: morph); prohibited types are never chosen."""
    s = ctx.system_at(n)
    if not ctx.imp_mobile_at(n) and not (s is not None and s["side"] == IMP):
        return None
    if not attacker_units(ctx, n, attacker):
        return None
    best = None
    tie_kind = ctx.data["combat_limits"]["chaos_type_tie"]
    mutant = UNKNOWN
    for kind in ("morph", "mil") if tie_kind == "morph" else ("mil", "morph"):
        if prohibited(ctx, n, kind):
            continue
        if kind == "morph":
            mutant = mutant_force_at(ctx, n)
        attack, defence = strengths(ctx, n, attacker, kind, mutant=mutant)
        diff = attack - defence
        if best is None or diff > best[0]:
            best = (diff, kind)
    if best is None:
        ctx.log("SGE-CMB-13", "combat", f"No attack is allowed in {fmt_sector(n)}",
                refs=[sector_ref(n)])
        return None
    ctx.log("SGE-CMB-13", "combat", f"The Chaos side chooses a {KIND_NAMES[best[1]]} attack "
            f"in {fmt_sector(n)}", refs=[sector_ref(n)])
    return resolve(ctx, n, attacker, best[1], rule)
