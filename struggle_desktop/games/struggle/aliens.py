"""Aliens and expeditions: Phase 6 (Alien Conflict) and Phase 13 (Expeditions).

Phase 6 (SGE-SEQ-8, SGE-ALN-1, SGE-ALN-2, SGE-ALN-3, SGE-ALN-4, SGE-ALN-5) rolls the
Alien/Expedition Resolution Table (AERT) once for every alien marker in ``state["aliens"]``
(``{"kind", "loc", "placed", "seq"}``), in ascending sector order and then in order of
placement. Before each roll the player may commit one Imperial leader from that sector; each
result is applied before the next marker rolls.

Phase 13 (SGE-SEQ-15, SGE-EXP-1, SGE-EXP-2, SGE-EXP-3, SGE-EXP-4) lets the player mount one
expedition at each Expedition Possible site (``state["expedition_sites"]``) that holds
Imperial mobile units.

The module also answers the questions other modules ask about aliens: ``nebula_at``,
``messiah_zone``, ``alien_blocks_attack`` and ``after_event_losses`` (SGE-ALN-4).
"""

from __future__ import annotations

from struggle_desktop.games.struggle.context import IMP, Ctx, fmt_sector, sector_ref
from struggle_desktop.games.struggle.registry import legal, procedure

#: Each alien kind's own rule ID (SGE-ALN-1).
ALIEN_RULES = {
    "BIOMECH": "SGE-EV-BIOMECH",
    "DARK-EMPIRE": "SGE-EV-DARK-EMPIRE",
    "HIVE": "SGE-EV-HIVE",
    "NEBULA": "SGE-EV-NEBULA",
    "MESSIAH": "SGE-EV-MESSIAH",
    "PROBE": "SGE-EV-PROBE",
    "RANDOIDS": "SGE-EV-RANDOIDS",
}
ALIEN_NAMES = {
    "BIOMECH": "Biomech Predators",
    "DARK-EMPIRE": "Dark Empire",
    "HIVE": "the Hive",
    "NEBULA": "the Living Nebula",
    "MESSIAH": "the Messiah",
    "PROBE": "the Probe",
    "RANDOIDS": "the Randoids",
}
#: The unit factor each alien adds to its AERT roll (parenthesized factors included,
#: SGE-REC-3).
ALIEN_FACTOR = {"BIOMECH": "mil", "RANDOIDS": "mil", "DARK-EMPIRE": "morph", "HIVE": "morph"}
#: Aliens whose bad results wipe out their sector (SGE-EV-BIOMECH, SGE-EV-DARK-EMPIRE).
WIPERS = ("BIOMECH", "DARK-EMPIRE")
#: Aliens that leave when an event or expedition empties their sector (SGE-ALN-4).
LEAVE_WHEN_EMPTIED = frozenset({"BIOMECH", "DARK-EMPIRE", "HIVE", "MESSIAH", "RANDOIDS"})
FACTOR_NAMES = {"mil": "military", "morph": "morphogenetic"}


# ============================================================================ queries
def nebula_at(ctx: Ctx, n: int) -> bool:
    """True while the Living Nebula is in sector n (SGE-EV-NEBULA)."""
    for a in ctx.state["aliens"]:   # a plain loop: asked at every step of a Chaos move
        if a["kind"] == "NEBULA" and a["loc"] == n:
            return True
    return False


def messiah_radius(ctx: Ctx, marker: dict) -> int:
    """Turns since the Messiah arrived: its zone's radius (SGE-EV-MESSIAH)."""
    return max(0, ctx.state["turn"] - marker["placed"])


def messiah_zone(ctx: Ctx) -> frozenset[int]:
    """Every sector within distance t of a Messiah placed t turns ago (SGE-EV-MESSIAH,
    SGE-MAP-12)."""
    zone: set[int] = set()
    for a in ctx.state["aliens"]:
        if a["kind"] == "MESSIAH":
            zone.update(ctx.galaxy.within(a["loc"], messiah_radius(ctx, a)))
            zone.add(a["loc"])
    return frozenset(zone)


def in_messiah_zone(ctx: Ctx, n: int) -> bool:
    """Whether n lies in ``messiah_zone`` (without building the zone)."""
    for a in ctx.state["aliens"]:
        if a["kind"] == "MESSIAH":
            d = ctx.galaxy.dist[a["loc"]].get(n)
            if a["loc"] == n or (d is not None and d <= messiah_radius(ctx, a)):
                return True
    return False


def alien_blocks_attack(ctx: Ctx, n: int, kind: str) -> str | None:
    """The reason an attack of ``kind`` ("mil" or "morph") may not start in n, or None
    (SGE-CMB-5: the Hive forbids military attacks, the Randoids morph attacks, the Messiah's
    zone both)."""
    for a in ctx.state["aliens"]:
        if a["loc"] != n:
            continue
        if kind == "mil" and a["kind"] == "HIVE":
            return f"the Hive in {fmt_sector(n)} forbids military attacks (SGE-EV-HIVE)"
        if kind == "morph" and a["kind"] == "RANDOIDS":
            return (f"the Randoids in {fmt_sector(n)} forbid morphogenetic attacks "
                    "(SGE-EV-RANDOIDS)")
    if in_messiah_zone(ctx, n):
        return f"{fmt_sector(n)} lies in the Messiah's zone, where no attack may start (SGE-EV-MESSIAH)"
    return None


def unit_count(ctx: Ctx, n: int) -> int:
    """Units of both sides in sector n, mobile and system (for SGE-ALN-4)."""
    count = sum(1 for u in ctx.units.values() if u["loc"] == n)
    return count + (1 if ctx.system_at(n) is not None else 0)


def aert_result(ctx: Ctx, value: int) -> str:
    """SGE-ALN-2: "negative", "indeterminate" or "positive" for a modified roll (open-ended,
    SGE-DICE-5)."""
    for row in ctx.data["aert"]["rows"]:
        if row["max"] is None or value <= row["max"]:
            return row["result"]
    raise AssertionError("the AERT has no open-ended last row")


def leader_units_at(ctx: Ctx, n: int, exclude: list[str] | tuple = ()) -> list[str]:
    """Imperial mobile units in n carrying a leader, minus ``exclude``."""
    return sorted(uid for uid, u in ctx.units.items()
                  if u["loc"] == n and u["side"] == IMP and u["leader"] and uid not in exclude)


# ============================================================================ removals
def discard_alien(ctx: Ctx, marker: dict, rule: str, why: str) -> None:
    """Take an alien marker off the map: the Probe leaves play, the others are discarded."""
    if marker not in ctx.state["aliens"]:
        return
    ctx.state["aliens"].remove(marker)
    fate = "removed" if marker["kind"] == "PROBE" else "discard"
    ctx.state[fate].append(marker["kind"])
    ctx.log(rule, "marker", f"{ALIEN_NAMES[marker['kind']].capitalize()} in "
            f"{fmt_sector(marker['loc'])} "
            f"{'leaves play' if fate == 'removed' else 'is eliminated'}: {why}",
            refs=[sector_ref(marker["loc"])])


def after_event_losses(ctx: Ctx, sector: int, units_before: int) -> None:
    """SGE-ALN-4: once a chaos event or an expedition has eliminated every unit of a sector
    that held at least one, the Biomech Predators, Dark Empire, Hive, Messiah and Randoids
    markers there leave play and any Institute there returns to the pool."""
    if units_before <= 0 or unit_count(ctx, sector) > 0:
        return
    for marker in [a for a in ctx.state["aliens"]
                   if a["loc"] == sector and a["kind"] in LEAVE_WHEN_EMPTIED]:
        discard_alien(ctx, marker, "SGE-ALN-4", "every unit in its sector was eliminated")
    return_institutes(ctx, sector, "every unit in its sector was eliminated")


def return_institutes(ctx: Ctx, sector: int, why: str) -> None:
    """SGE-EV-INSTITUTE, SGE-ALN-4: an Institute whose sector a chaos, alien or expedition
    event has emptied returns to the pool."""
    for inst in [i for i in ctx.state["institutes"] if i["loc"] == sector]:
        ctx.state["institutes"].remove(inst)
        ctx.state["pool"].append("INSTITUTE")
        ctx.log("SGE-ALN-4", "marker", f"The Institute in {fmt_sector(sector)} returns to the "
                f"pool: {why}", refs=[sector_ref(sector)])


def wipe_sector(ctx: Ctx, n: int, rule: str, why: str) -> None:
    """Eliminate every mobile and system unit in n, of both sides, with no CI change
    (SGE-ALN-5); leaders on them are lost with them (SGE-LDR-4). An alien result, so an
    Institute there returns to the pool if there was a unit to eliminate (SGE-ALN-4
    [amended]); the other alien markers stay, as SGE-ALN-4 says for alien results."""
    had_units = unit_count(ctx, n) > 0
    for uid in sorted(uid for uid, u in ctx.units.items() if u["loc"] == n):
        ctx.remove_unit(uid, rule, why)
    if ctx.system_at(n) is not None:
        ctx.remove_system(n, rule, why)
    ctx.checks()   # a Chaos force left without units ends (SGE-SEQ-17)
    if had_units:
        return_institutes(ctx, n, f"every unit in its sector was eliminated ({why})")


# ============================================================================ Phase 6
def _alien_by_seq(ctx: Ctx, seq: int) -> dict | None:
    for a in ctx.state["aliens"]:
        if a["seq"] == seq:
            return a
    return None


@procedure("phase6")
def phase6(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-8, SGE-ALN-3: one AERT roll per alien marker, sector order then placement."""
    st = ctx.state
    if "queue" not in frame:
        order = sorted(st["aliens"], key=lambda a: (a["loc"], a["seq"]))
        frame["queue"] = [a["seq"] for a in order]
        frame["used"] = []   # units whose leader was committed this phase (SGE-ALN-3)
    while frame["queue"]:
        marker = _alien_by_seq(ctx, frame["queue"][0])
        if marker is None:           # eliminated by an earlier roll this phase
            frame["queue"].pop(0)
            continue
        if marker["kind"] == "PROBE" and marker["placed"] != st["turn"]:
            frame["queue"].pop(0)    # SGE-EV-PROBE: it rolls only on its own turn
            discard_alien(ctx, marker, "SGE-EV-PROBE", "it acts only on the turn it arrives")
            continue
        if "answer" in frame:
            action = frame.pop("answer")
            frame["queue"].pop(0)
            leader = action.get("unit")
            if leader:
                frame["used"].append(leader)
            resolve_alien(ctx, marker, leader)
            return
        choices = leader_units_at(ctx, marker["loc"], frame["used"])
        if choices:
            ctx.ask("alien_leader", f"{ALIEN_NAMES[marker['kind']].capitalize()} in "
                    f"{fmt_sector(marker['loc'])} rolls on the AERT: commit a leader's value?",
                    rule="SGE-ALN-3", at=marker["loc"], alien=marker["kind"], units=choices)
            return
        frame["queue"].pop(0)
        resolve_alien(ctx, marker, None)
        if st["outcome"] is not None:
            return
    # SGE-EV-PROBE: removed from play at the end of its Alien Conflict Phase, whatever happened.
    for marker in [a for a in st["aliens"] if a["kind"] == "PROBE"]:
        discard_alien(ctx, marker, "SGE-EV-PROBE", "its Alien Conflict Phase is over")
    ctx.pop()


@legal("alien_leader")
def legal_alien_leader(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "commit_leader", "unit": uid} for uid in p["units"]] + [{"verb": "no_leader"}]


def alien_modifiers(ctx: Ctx, marker: dict, leader: str | None) -> list[tuple[str, int]]:
    """The AERT modifiers of one alien roll (SGE-ALN-3 and each alien's rule)."""
    n = marker["loc"]
    mods: list[tuple[str, int]] = []
    factor = ALIEN_FACTOR.get(marker["kind"])
    if factor is not None:
        # SGE-REC-3, SGE-REC-4: parenthesized factors count in the AERT total.
        total = sum(ctx.factor(uid, factor, defending=True)
                    for uid, u in ctx.units.items() if u["loc"] == n)
        s = ctx.system_at(n)
        if s is not None:
            mil, morph, _rv = ctx.system_values(s)
            total += mil if factor == "mil" else morph
        mods.append((f"{FACTOR_NAMES[factor]} of the units in {fmt_sector(n)}", total))
    if marker["kind"] == "MESSIAH":
        per_turn = ctx.data["event_values"]["messiah_bonus_per_turn"]
        turns = messiah_radius(ctx, marker)
        mods.append((f"{turns} turn(s) since arrival", per_turn * turns))
    if leader:
        mods.append((f"leader on {leader}", ctx.units[leader]["leader"]))
    return mods


def resolve_alien(ctx: Ctx, marker: dict, leader: str | None) -> None:
    """Roll the AERT for one alien marker and apply the result at once (SGE-ALN-3).

    The result of a marker drawn this turn is a later effect of that chaos event marker, so
    every CI rise it causes (the Probe's die, a Nexus lost with a wiped system) obeys the
    turn-1 cap (SGE-CI-9)."""
    st = ctx.state
    st["in_event"] = marker["placed"] == st["turn"]
    try:
        _resolve_alien(ctx, marker, leader)
    finally:
        st["in_event"] = False


def _resolve_alien(ctx: Ctx, marker: dict, leader: str | None) -> None:
    kind, n = marker["kind"], marker["loc"]
    rule = ALIEN_RULES[kind]
    name = ALIEN_NAMES[kind].capitalize()
    value = ctx.roll("d10", rule, f"AERT for {ALIEN_NAMES[kind]} in {fmt_sector(n)}",
                     modifiers=alien_modifiers(ctx, marker, leader), refs=[sector_ref(n)])
    result = aert_result(ctx, value)
    ctx.log("SGE-ALN-2", "alien", f"{name} in {fmt_sector(n)}: {result}", refs=[sector_ref(n)])
    if kind in WIPERS:
        if result in ("negative", "indeterminate"):
            if leader:
                ctx.remove_leader(leader, rule, f"committed against {ALIEN_NAMES[kind]}")
            wipe_sector(ctx, n, rule, f"destroyed by {ALIEN_NAMES[kind]}")
            for other in [a for a in ctx.state["aliens"] if a["loc"] == n and a is not marker]:
                discard_alien(ctx, other, rule, f"destroyed by {ALIEN_NAMES[kind]}")
        if result in ("indeterminate", "positive"):
            discard_alien(ctx, marker, rule, f"{result} AERT result")
    elif kind == "PROBE":
        _probe_result(ctx, marker, leader, result)
    else:
        # The Hive, the Living Nebula, the Messiah and the Randoids: only the committed
        # leader is at risk (SGE-LDR-5), and only a Positive result drives the alien off.
        if result == "negative" and leader:
            why = ("defects to the Messiah" if kind == "MESSIAH"
                   else f"lost against {ALIEN_NAMES[kind]}")
            ctx.remove_leader(leader, rule, why)
        elif result == "positive":
            discard_alien(ctx, marker, rule, "positive AERT result")


def _probe_result(ctx: Ctx, marker: dict, leader: str | None, result: str) -> None:
    """SGE-EV-PROBE: destruction and a die to the CI, or a die of RP and a die off the CI.
    Its CI changes count as event effects for the turn-1 cap (SGE-CI-9)."""
    n = marker["loc"]
    rule = "SGE-EV-PROBE"
    if result in ("negative", "indeterminate"):
        if leader:
            ctx.remove_leader(leader, rule, "committed against the Probe")
        wipe_sector(ctx, n, rule, "destroyed by the Probe")
        for other in [a for a in ctx.state["aliens"] if a["loc"] == n]:
            discard_alien(ctx, other, rule, "destroyed by the Probe")
        rise = ctx.roll("d10", rule, "Probe: CI rise", refs=[sector_ref(n)])
        ctx.change_ci(rise, "the Probe's destruction", rule, from_event=True)
    else:
        rp = ctx.roll("d10", rule, "Probe: first die, RP gained", refs=[sector_ref(n)])
        ci = ctx.roll("d10", rule, "Probe: second die, CI lowered", refs=[sector_ref(n)])
        ctx.change_rp(rp, "knowledge from the Probe", rule)
        ctx.change_ci(-ci, "knowledge from the Probe", rule, from_event=True)


# ============================================================================ Phase 13
@procedure("phase13")
def phase13(ctx: Ctx, frame: dict) -> None:
    """SGE-SEQ-15, SGE-EXP-2: at each Expedition Possible site with Imperial mobile units, in
    ascending sector order, the player may mount one expedition."""
    st = ctx.state
    if "sites" not in frame:
        frame["sites"] = sorted(set(st["expedition_sites"]))
    while frame["sites"]:
        n = frame["sites"][0]
        if n not in st["expedition_sites"] or not ctx.imp_mobile_at(n):
            frame["sites"].pop(0)
            frame.pop("answer", None)
            continue
        if "answer" in frame:
            action = frame.pop("answer")
            frame["sites"].pop(0)
            if action["verb"] == "expedition":
                mount_expedition(ctx, n, action.get("leader"))
            return
        ctx.ask("expedition", f"Mount an expedition from {fmt_sector(n)} with every Imperial "
                "mobile unit there?", rule="SGE-EXP-2", at=n, units=leader_units_at(ctx, n))
        return
    ctx.pop()


@legal("expedition")
def legal_expedition(ctx: Ctx, p: dict) -> list[dict]:
    actions = [{"verb": "expedition"}]
    actions.extend({"verb": "expedition", "leader": uid} for uid in p["units"])
    actions.append({"verb": "decline"})
    return actions


def mount_expedition(ctx: Ctx, n: int, leader: str | None) -> None:
    """SGE-EXP-2: one AERT roll (plus a leader if committed) for the units in n."""
    mods = [(f"leader on {leader}", ctx.units[leader]["leader"])] if leader else []
    value = ctx.roll("d10", "SGE-EXP-2", f"Expedition from {fmt_sector(n)} (AERT)",
                     modifiers=mods, refs=[sector_ref(n)])
    result = aert_result(ctx, value)
    ctx.log("SGE-ALN-2", "expedition", f"Expedition from {fmt_sector(n)}: {result}",
            refs=[sector_ref(n)])
    if result == "indeterminate":
        ctx.log("SGE-EXP-2", "expedition", f"Nothing is found; the Expedition Possible marker "
                f"stays in {fmt_sector(n)}", refs=[sector_ref(n)])
        return
    ctx.state["expedition_sites"].remove(n)
    ctx.state["discard"].append("EXPEDITION")
    if result == "negative":
        before = unit_count(ctx, n)
        if leader:
            ctx.remove_leader(leader, "SGE-EXP-2", "lost with the expedition")
        for uid in ctx.imp_mobile_at(n):
            ctx.remove_unit(uid, "SGE-EXP-2", "lost on the expedition")
        ctx.log("SGE-EXP-2", "expedition", f"The expedition from {fmt_sector(n)} is lost; "
                "its marker is discarded", refs=[sector_ref(n)])
        ctx.checks()
        after_event_losses(ctx, n, before)   # SGE-EXP-4
        return
    cup = ctx.state["expedition_cup"]
    if not cup:
        ctx.log("SGE-EXP-3", "expedition", "The Expedition marker cup is empty: no find")
        return
    marker = ctx.pick(sorted(cup), "SGE-EXP-3", "Expedition marker draw", refs=[sector_ref(n)])
    cup.remove(marker)   # out of the cup while it is being resolved
    ctx.log("SGE-EXP-3", "expedition", f"The expedition finds: {_marker_row(ctx, marker)['name']}",
            refs=[sector_ref(n)])
    ctx.push("expedition_find", marker=marker, at=n)


def _marker_row(ctx: Ctx, marker: str) -> dict:
    for row in ctx.data["expedition_markers"]["markers"]:
        if row["id"] == marker:
            return row
    raise KeyError(f"unknown Expedition marker {marker!r}")


def seed_ship_sites(ctx: Ctx) -> list[int]:
    """SGE-EXP-3 Seed Ship: system sectors with no system unit and no Chaos units."""
    if not ctx.state["system_pool"]:
        return []
    chaos = {u["loc"] for u in ctx.units.values() if u["side"] != IMP}
    return [n for n in ctx.galaxy.system_sectors
            if ctx.system_at(n) is None and n not in chaos]


@procedure("expedition_find")
def expedition_find(ctx: Ctx, frame: dict) -> None:
    """SGE-EXP-3: resolve the drawn Expedition marker, then return it to its cup. Its CI
    changes are event effects (SGE-EXP-4, SGE-CI-9)."""
    row = _marker_row(ctx, frame["marker"])
    n = frame["at"]
    rule = "SGE-EXP-3"
    effect = row["effect"]
    if effect == "seed_ship":
        if "answer" in frame:
            at = frame.pop("answer")["at"]
            for _ in range(row["amount"]):
                if ctx.system_at(at) is None:
                    ctx.place_system(at, IMP, rule, why="founded by a Seed Ship")
        else:
            sites = seed_ship_sites(ctx)
            if sites:
                ctx.ask("seed_ship", "Choose the empty system sector where the Seed Ship founds "
                        "a new Imperial system", rule=rule, sites=sites)
                return
            ctx.log(rule, "expedition", "No empty system sector without Chaos units: the Seed "
                    "Ship finds no home")
    elif effect == "rp_die":
        ctx.change_rp(ctx.roll("d10", rule, "Precursor Archive: RP gained"), row["name"], rule)
    elif effect == "free_ws":
        for _ in range(row["amount"]):
            ctx.place_unit("WS", IMP, n, rule, why=row["name"])   # maintained normally (SGE-REC-10)
    elif effect == "ci_minus_die":
        ctx.change_ci(-ctx.roll("d10", rule, f"{row['name']}: CI lowered"), row["name"], rule,
                      from_event=True)
    elif effect == "ci_plus":
        ctx.change_ci(row["amount"], row["name"], rule, from_event=True)
    else:
        raise ValueError(f"unknown Expedition marker effect {effect!r}")
    ctx.state["expedition_cup"].append(frame["marker"])
    ctx.state["expedition_cup"].sort()
    ctx.pop()


@legal("seed_ship")
def legal_seed_ship(ctx: Ctx, p: dict) -> list[dict]:
    return [{"verb": "found", "at": n} for n in p["sites"]]


__all__ = ["nebula_at", "messiah_zone", "alien_blocks_attack", "after_event_losses",
           "unit_count", "aert_result", "wipe_sector", "seed_ship_sites"]
