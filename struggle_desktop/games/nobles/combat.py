"""Steps 7 and 8 of a Noble Houses turn: the Nuclear Exchange and the Battles.

turn.py pushes ``nuclear_exchange`` at step 7 and ``battles`` at step 8. Each walks the hexes
that hold units of two or more houses, in order of y, then x (NH-NUK-3, NH-BAT-5), pushes one
frame per hex, and pops itself when every hex is done.

Frames (their locals live in the frame, so a game can be saved at any prompt):

- ``nuclear_exchange`` / ``battles``: ``hexes`` (fixed when the step starts), ``next``.
- ``nuke_hex``: ``hex``, ``step`` (declare, losses), ``declared`` (house -> nuke -> target or
  None). The declarations stay here, hidden, until every house with nukes in the hex has made
  them (NH-SIM-2); only then are they copied to ``state["exchange"]``.
- ``battle_hex``: ``hex``, ``step`` (start, next), ``defender``, ``attackers`` (still to fight,
  initiative order), ``last`` (the attacker of the pairing just fought). It handles NH-BAT-2,
  NH-BAT-3, NH-BAT-4 and NH-BAT-14 and pushes one ``battle`` per pairing.
- ``battle``: one two-house battle: ``hex``, ``defender``, ``attacker``, ``step``, ``round``,
  ``done`` (houses finished with this round's command or sacrifice prompts), ``asking``,
  ``sacrifices`` (hidden declarations, NH-SIM-2) and ``losses``.
- Casualties (NH-BAT-9, NH-NUK-5) are allocated inside the frame that caused them, from
  ``frame["losses"]``: ``queue`` ([house, hits left] in order), ``source``, ``rule``, ``lost``.

``state["exchange"]`` and ``state["battle"]`` are the public side of the fight in progress, for
the screen; both are None again when their step ends. Every roll is logged with its rule ID.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from struggle_desktop.games.nobles.context import Ctx, unit_sort_key
from struggle_desktop.games.nobles.mapgen import hex_key
from struggle_desktop.games.nobles.registry import RULES

VOLLEY_NAMES = {True: "first-strike volley", False: "normal volley"}


# ------------------------------------------------------------------------------ small helpers
def hex_ref(h: Sequence[int]) -> str:
    """A hex as a log reference (``hex:3,4``), for rolls logged through ``roll_d6s``."""
    return f"hex:{hex_key(h)}"


def by_initiative(ctx: Ctx, houses: Iterable[str]) -> list[str]:
    """Houses in this turn's initiative order (NH-SEQ-5)."""
    return sorted(houses, key=ctx.initiative_rank)


def who(ctx: Ctx, house: str) -> str:
    """How a house is named in prompts and the log: by its homeworld once it has one."""
    return ctx.house_name(house) if ctx.house(house)["homeworld"] else f"House {house}"


def hits_of(ctx: Ctx, faces: Sequence[int]) -> int:
    """NH-ABIL-2: every die at or below the table's hit face is a hit."""
    hit_max = ctx.procedure["hit_max"]
    return sum(1 for f in faces if f <= hit_max)


def record_of(ctx: Ctx, source: str) -> dict | None:
    """The public record of the fight in progress: ``battle`` (step 8) or ``nuke`` (step 7)."""
    return ctx.state.get("battle" if source == "battle" else "exchange")


def lose_the_rest(ctx: Ctx, house: str, h: Sequence[int], rule: str) -> list[str]:
    """NH-BAT-12: a house with no army left in the hex loses its jumpships (with their cargo),
    nukes and Nobles there. Returns the ids removed."""
    removed: list[str] = []
    for uid in ctx.units_where(house, h):
        if uid in ctx.state["units"]:        # may have gone already, aboard a ship
            removed.extend(ctx.remove(uid))
    if removed:
        ctx.note(rule, f"{who(ctx, house)} has no army left here and loses "
                 f"{ctx.list_units(removed)}", refs=[h, *removed])
        record = record_of(ctx, "battle")
        if record is not None:
            record["casualties"].extend(removed)
    return removed


# ------------------------------------------------------------------------------ casualties
def queue_losses(frame: dict, hits: Iterable[tuple[str, int]], source: str, rule: str) -> None:
    """Hits to be allocated by the houses receiving them, in the order given."""
    frame["losses"] = {"queue": [[house, n] for house, n in hits if n > 0],
                       "source": source, "rule": rule, "lost": []}


def loss_key(ctx: Ctx, uid: str, source: str) -> tuple:
    """What tells two armies apart as casualties: type, ship, ally tag, home world and, in a
    battle, this round's command and psychic result. Armies with the same key are
    interchangeable, so nobody need be asked which of them goes."""
    u = ctx.unit(uid)
    key: tuple = (u["type"], u["ship"], u.get("ally"), u.get("home"))
    if source == "battle":
        psychic = ctx.state["battle"]["psychic"]
        noble = commander_of(ctx, uid)
        extra = sum(psychic.get(x, {}).get("extra", 0) for x in (uid, noble) if x)
        key += (noble is not None, extra)
    return key


def destroy_army(ctx: Ctx, frame: dict, uid: str, rule: str) -> None:
    label = ctx.unit_label(uid)
    removed = ctx.remove(uid)
    frame["losses"]["lost"].append(uid)
    record = record_of(ctx, frame["losses"]["source"])
    if record is not None:
        record["casualties"].extend(removed)
    ctx.note(rule, f"{label} is destroyed", refs=[uid])


def allocate_losses(ctx: Ctx, frame: dict, h: Sequence[int], answer: dict | None) -> bool:
    """Destroy armies for the queued hits, one hit at a time; the house hit chooses, and is
    asked only when the choice matters (NH-BAT-9, NH-NUK-5). Hits beyond its armies are lost.
    Returns True when every hit is allocated (the armies destroyed are in ``losses["lost"]``).
    """
    losses = frame["losses"]
    rule = losses["rule"]
    if answer is not None:
        destroy_army(ctx, frame, answer["unit"], rule)
        losses["queue"][0][1] -= 1
    while losses["queue"]:
        house, left = losses["queue"][0]
        armies = ctx.armies(house, h)
        if left <= 0:
            losses["queue"].pop(0)
            continue
        if left >= len(armies):
            # Every army goes: nothing to choose, and what is left over is lost.
            for uid in armies:
                destroy_army(ctx, frame, uid, rule)
            if left > len(armies):
                ctx.note(rule, f"{left - len(armies)} hit(s) on {who(ctx, house)} are lost: "
                         "no army left to take them", refs=[h])
            losses["queue"].pop(0)
            continue
        if len({loss_key(ctx, uid, losses["source"]) for uid in armies}) == 1:
            destroy_army(ctx, frame, armies[0], rule)
            losses["queue"][0][1] -= 1
            continue
        ctx.ask("casualty", f"{who(ctx, house)}: choose an army to lose ({left} hit(s) "
                "to take).", role=house, rule=rule, hex=list(h), hits=left,
                source=losses["source"])
        return False
    return True


@RULES.legal("casualty")
def legal_casualty(ctx: Ctx, pending: dict) -> list[dict]:
    """Any army of the house in the hex; Nobles, jumpships and nukes are never casualties
    (NH-BAT-9, NH-NUK-9)."""
    return [{"verb": "lose", "unit": uid} for uid in ctx.armies(pending["role"], pending["hex"])]


# ------------------------------------------------------------------------------ step 7
def launch_targets(ctx: Ctx, house: str, h: Sequence[int]) -> list[str]:
    """NH-NUK-2, NH-NUK-3: the armies of another house in the hex, or one enemy ship there (a
    jumpship or a Self Transport unit, NH-ABIL-11). A nuke fires from the ground or from a
    ship alike: every nuke of the house in the hex is asked."""
    targets = [f"armies:{other}" for other in by_initiative(ctx, ctx.houses_at(h))
               if other != house and ctx.armies(other, h)]
    targets += [f"ship:{ship}" for ship in ctx.ships(None, h)
                if ctx.unit(ship)["owner"] != house]
    return targets


@RULES.legal("launch")
def legal_launch(ctx: Ctx, pending: dict) -> list[dict]:
    nuke = pending["nuke"]
    actions = [{"verb": "launch", "nuke": nuke, "target": t}
               for t in launch_targets(ctx, pending["role"], pending["hex"])]
    actions.append({"verb": "hold", "nuke": nuke})
    return actions


@RULES.procedure("nuclear_exchange")
def nuclear_exchange(ctx: Ctx, frame: dict) -> None:
    """Step 7 (NH-NUK-1): an exchange in every contested hex where some house has nukes."""
    if "hexes" not in frame:
        frame["hexes"] = ctx.contested_hexes()
        frame["next"] = 0
    while frame["next"] < len(frame["hexes"]):
        h = frame["hexes"][frame["next"]]
        frame["next"] += 1
        if ctx.units_where(h=h, category="nuke"):
            ctx.push("nuke_hex", hex=h, step="declare", declared={})
            return
    ctx.state["exchange"] = None
    ctx.pop()


@RULES.procedure("nuke_hex")
def nuke_hex(ctx: Ctx, frame: dict) -> None:
    """One hex's exchange: hidden declarations (NH-NUK-3, NH-SIM-2), all dice (NH-NUK-4,
    NH-NUK-8), then the hits on armies (NH-NUK-5)."""
    answer = frame.pop("answer", None)
    if frame["step"] == "declare":
        _declare_launches(ctx, frame, answer)
    elif allocate_losses(ctx, frame, frame["hex"], answer):
        frame.pop("losses")
        ctx.pop()


def _declare_launches(ctx: Ctx, frame: dict, answer: dict | None) -> None:
    """NH-NUK-3, NH-SIM-2: each house with nukes here declares each one, in initiative order;
    nobody sees another house's choices until all have declared."""
    h = frame["hex"]
    declared = frame["declared"]
    holders = by_initiative(ctx, {ctx.unit(u)["owner"]
                                  for u in ctx.units_where(h=h, category="nuke")})
    if ctx.state.get("exchange") is None or ctx.state["exchange"]["hex"] != h:
        ctx.state["exchange"] = {"hex": list(h), "world": ctx.world_at(h),
                                 "houses": by_initiative(ctx, ctx.houses_at(h)),
                                 "declaring": holders, "committed": [], "launches": None,
                                 "casualties": []}
        ctx.note("NH-NUK-1", f"Nuclear exchange at {hex_key(h)}: "
                 f"{', '.join(who(ctx, x) for x in holders)} "
                 f"{'holds' if len(holders) == 1 else 'hold'} nukes here", refs=[h])
    if answer is not None:
        nuke = answer["nuke"]
        owner = ctx.unit(nuke)["owner"]
        declared.setdefault(owner, {})[nuke] = (answer["target"] if answer["verb"] == "launch"
                                                else None)
    for house in holders:
        mine = declared.setdefault(house, {})
        for nuke in ctx.units_where(house, h, "nuke"):
            if nuke in mine:
                continue
            if not launch_targets(ctx, house, h):
                mine[nuke] = None                 # nothing to aim at: held without asking
                continue
            ctx.ask("launch", f"{who(ctx, house)}: launch {nuke} at a target here, or hold "
                    "it?", role=house, rule="NH-NUK-3", hex=list(h), nuke=nuke)
            return
        if house not in ctx.state["exchange"]["committed"]:
            ctx.state["exchange"]["committed"].append(house)
    _fire_nukes(ctx, frame)


def _fire_nukes(ctx: Ctx, frame: dict) -> None:
    """Reveal the launches, roll every launched nuke (NH-NUK-4) before applying any hit
    (NH-NUK-8), remove the launched nukes (NH-NUK-7), destroy the ships hit (NH-NUK-6) and
    queue the hits on armies for their owners to allocate (NH-NUK-5). Nukes roll their own
    AD only: no psychic dice (NH-PSY-8)."""
    h = frame["hex"]
    exchange = ctx.state["exchange"]
    declared = frame.pop("declared")
    launches = [{"nuke": nuke, "owner": house, "target": declared[house][nuke]}
                for house in by_initiative(ctx, declared)
                for nuke in sorted(declared[house], key=unit_sort_key)
                if declared[house][nuke] is not None]
    exchange["launches"] = launches
    if not launches:
        ctx.note("NH-NUK-3", "No nuke is launched", refs=[h])
        ctx.pop()
        return
    for launch in launches:
        ctx.note("NH-NUK-3", f"{launch['nuke']} is launched at {_target_text(launch['target'])}",
                 refs=[launch["nuke"], h])
    # NH-NUK-10: the Nobles of every house that launched or was aimed at have fought.
    involved = {launch["owner"] for launch in launches}
    for launch in launches:
        kind, _, what = launch["target"].partition(":")
        involved.add(what if kind == "armies" else ctx.unit(what)["owner"])
    for house in by_initiative(ctx, involved):
        for noble in ctx.units_where(house, h, "noble"):
            ctx.unit(noble)["fought"] = True
            ctx.note("NH-NUK-10", f"{noble} has fought this turn (nuclear exchange)",
                     refs=[noble])
    army_hits: dict[str, int] = {}
    ship_hits: dict[str, int] = {}
    for launch in launches:
        nuke, target = launch["nuke"], launch["target"]
        faces = ctx.roll_d6s(ctx.utype(nuke).ad, "NH-NUK-4",
                             f"{nuke} fires at {_target_text(target)}",
                             refs=[nuke, target.partition(":")[2], hex_ref(h)])
        launch["dice"] = faces
        launch["hits"] = hits_of(ctx, faces)
        kind, _, what = target.partition(":")
        tally = army_hits if kind == "armies" else ship_hits
        tally[what] = tally.get(what, 0) + launch["hits"]
    for launch in launches:
        ctx.remove(launch["nuke"])
        ctx.note("NH-NUK-7", f"{launch['nuke']} is spent", refs=[launch["nuke"]])
    # Ships first: they need no choice, and armies aboard a ship that is destroyed here
    # cannot soak up the hits on armies as well.
    for ship, n in ship_hits.items():
        if n and ship in ctx.state["units"]:
            removed = ctx.remove(ship)
            exchange["casualties"].extend(removed)
            ctx.note("NH-NUK-6", f"{ship} is destroyed with everything aboard: "
                     f"{ctx.list_units(removed)}", refs=[h, *removed])
        elif not n:
            ctx.note("NH-NUK-6", f"{ship} is not hit", refs=[ship])
    for house in by_initiative(ctx, army_hits):
        ctx.note("NH-NUK-5", f"The armies of {who(ctx, house)} take {army_hits[house]} "
                 "hit(s)", refs=[h])
    queue_losses(frame, [(x, army_hits[x]) for x in by_initiative(ctx, army_hits)],
                 "nuke", "NH-NUK-5")
    frame["step"] = "losses"


def _target_text(target: str) -> str:
    kind, _, what = target.partition(":")
    return f"the armies of house {what}" if kind == "armies" else what


# ------------------------------------------------------------------------------ step 8
@RULES.procedure("battles")
def battles(ctx: Ctx, frame: dict) -> None:
    """Step 8 (NH-BAT-1, NH-BAT-5): a battle in every hex where rival houses meet."""
    if "hexes" not in frame:
        frame["hexes"] = ctx.contested_hexes()
        frame["next"] = 0
    while frame["next"] < len(frame["hexes"]):
        h = frame["hexes"][frame["next"]]
        frame["next"] += 1
        if len(ctx.houses_at(h)) > 1:
            ctx.push("battle_hex", hex=h, step="start")
            return
    ctx.state["battle"] = None
    ctx.pop()


def choose_defender(ctx: Ctx, h: Sequence[int], houses: Sequence[str]) -> tuple[str, str]:
    """NH-BAT-3 among the houses that fight: (defender, the reason)."""
    world = ctx.world_at(h)
    if world is not None and ctx.controller(world) in houses:
        return ctx.controller(world), f"it controls {world}"
    before = [x for x in houses if any(not ctx.unit(u)["moved"] for u in ctx.units_where(x, h))]
    if before:
        return by_initiative(ctx, before)[0], "it was here before the Movement step"
    for house in ctx.state.get("arrivals", {}).get(hex_key(h), []):
        if house in houses:
            return house, "it arrived here first"
    # Not reached when turn.py keeps the arrivals: a safe, deterministic choice anyway.
    return by_initiative(ctx, houses)[0], "it is first in initiative order"


@RULES.procedure("battle_hex")
def battle_hex(ctx: Ctx, frame: dict) -> None:
    """Everything fought in one hex: who fights at all, who defends, and the pairings."""
    if frame["step"] == "start":
        _open_battle(ctx, frame)
    else:
        _next_pairing(ctx, frame)


def _open_battle(ctx: Ctx, frame: dict) -> None:
    h = frame["hex"]
    houses = by_initiative(ctx, ctx.houses_at(h))
    armed = [x for x in houses if ctx.armies(x, h)]
    if not armed:
        ctx.note("NH-BAT-2", f"No house has armies at {hex_key(h)}: no battle, the units share "
                 "the hex", refs=[h])
        ctx.pop()
        return
    ctx.state["battle"] = {"hex": list(h), "world": ctx.world_at(h), "houses": houses,
                           "defender": None, "attacker": None, "waiting": [], "round": 0,
                           "step": "start", "commands": {}, "psychic": {}, "negations": [],
                           "sacrificed": {}, "volley": None, "dice": {}, "hits": {},
                           "escaped": [], "defected": [], "casualties": [], "result": None}
    # NH-BAT-14: every Noble here has fought this turn (a house that loses at once too).
    for house in houses:
        for noble in ctx.units_where(house, h, "noble"):
            ctx.unit(noble)["fought"] = True
            ctx.note("NH-BAT-14", f"{noble} has fought this turn (battle at {hex_key(h)})",
                     refs=[noble])
    for house in houses:
        if house not in armed:
            ctx.note("NH-BAT-2", f"{who(ctx, house)} has no armies at {hex_key(h)} and loses "
                     "at once", refs=[h])
            lose_the_rest(ctx, house, h, "NH-BAT-12")
    if len(armed) == 1:
        ctx.state["battle"]["result"] = armed[0]
        ctx.pop()
        return
    defender, reason = choose_defender(ctx, h, armed)
    attackers = [x for x in armed if x != defender]
    ctx.note("NH-BAT-3", f"Battle at {hex_key(h)}: {who(ctx, defender)} defends ({reason}); "
             f"attacking: {', '.join(who(ctx, x) for x in attackers)}", refs=[h])
    frame.update(step="next", defender=defender, attackers=attackers, last=None)


def _next_pairing(ctx: Ctx, frame: dict) -> None:
    """NH-BAT-4: the defender fights the attackers one at a time, in initiative order; if it is
    wiped out, the first house left in initiative order defends against the rest."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    if battle["result"] == "stopped":          # NH-BAT-15: the hex rests until next turn
        ctx.pop()
        return
    last = frame.pop("last", None)
    if last is not None and not ctx.armies(frame["defender"], h):
        pool = by_initiative(ctx, ([last] if ctx.armies(last, h) else []) + frame["attackers"])
        if not pool:
            ctx.pop()
            return
        frame["defender"], frame["attackers"] = pool[0], pool[1:]
        if frame["attackers"]:
            ctx.note("NH-BAT-4", f"{who(ctx, pool[0])} now defends {hex_key(h)} against "
                     f"{', '.join(who(ctx, x) for x in pool[1:])}", refs=[h])
    if not frame["attackers"]:
        ctx.pop()
        return
    attacker = frame["attackers"].pop(0)
    frame["last"] = attacker
    battle["waiting"] = list(frame["attackers"])
    ctx.push("battle", hex=h, defender=frame["defender"], attacker=attacker, step="pre",
             round=0)


# ------------------------------------------------------------------------------ one battle
def sides(frame: dict) -> tuple[str, str]:
    """The attacker first, then the defender: the order of every step (NH-BAT-7)."""
    return frame["attacker"], frame["defender"]


def enemy_of(frame: dict, house: str) -> str:
    return frame["defender"] if house == frame["attacker"] else frame["attacker"]


def role_of(frame: dict, house: str) -> str:
    return "attacking" if house == frame["attacker"] else "defending"


def applies(ctx: Ctx, frame: dict, ability: dict, house: str) -> bool:
    """Whether a bonus or first_strike ability works for ``house``'s unit now: role bonuses
    (NH-ABIL-4), home defence only for the defender in that world's hex (NH-ABIL-6), and the
    bonus against Imperial units while the enemy has one (NH-ABIL-21)."""
    when = ability.get("when")
    if when == "versus_imperial":
        ok = ctx.state["battle"]["imperial"].get(enemy_of(frame, house), False)
    elif when in ("attacking", "defending"):
        ok = when == role_of(frame, house)
    else:
        ok = True
    if ok and ability.get("world"):
        ok = role_of(frame, house) == "defending" and ctx.world_at(frame["hex"]) == ability["world"]
    return ok


def commander_of(ctx: Ctx, uid: str) -> str | None:
    for noble, army in ctx.state["battle"]["commands"].items():
        if army == uid:
            return noble
    return None


def has_first_strike(ctx: Ctx, frame: dict, uid: str) -> bool:
    """NH-BAT-10: First Strike by keyword or condition, or from a commanding Noble."""
    house = ctx.unit(uid)["owner"]
    if any(a["kind"] == "first_strike" and applies(ctx, frame, a, house)
           for a in ctx.utype(uid).abilities):
        return True
    noble = commander_of(ctx, uid)
    return noble is not None and bool(ctx.utype(noble).ability("command").get("first_strike"))


def attack_dice(ctx: Ctx, frame: dict, uid: str) -> tuple[int, list[str]]:
    """NH-BAT-10: base AD, role and home bonuses, the Imperial bonus, +command, and this
    round's psychic extra dice (the unit's own and its commander's, NH-PSY-4, NH-PSY-5).
    Returns the count and its parts for the log."""
    battle = ctx.state["battle"]
    utype = ctx.utype(uid)
    house = ctx.unit(uid)["owner"]
    n, parts = utype.ad, [f"{utype.ad} base"]
    for ability in utype.abilities:
        if ability["kind"] == "bonus" and applies(ctx, frame, ability, house):
            n += ability["ad"]
            label = ("home defence" if ability.get("world") else
                     "against Imperials" if ability.get("when") == "versus_imperial" else
                     ability.get("when", "bonus"))
            parts.append(f"+{ability['ad']} {label}")
    noble = commander_of(ctx, uid)
    if noble is not None:
        bonus = ctx.utype(noble).ability("command").get("ad", 0)
        n += bonus
        parts.append(f"+{bonus} command ({noble})")
    for source in (uid, noble):
        extra = battle["psychic"].get(source, {}).get("extra", 0) if source else 0
        if extra:
            n += extra
            parts.append(f"+{extra} psychic ({source})")
    return n, parts


def command_choices(ctx: Ctx, house: str, h: Sequence[int]) -> list[tuple[str, str]]:
    """NH-NOB-3: (Noble, army) pairs still open this round: a free Noble of the house and an
    army of the house that no Noble commands yet."""
    commands = ctx.state["battle"]["commands"]
    free_nobles = [n for n in ctx.units_where(house, h, "noble") if n not in commands]
    free_armies = [a for a in ctx.armies(house, h) if a not in commands.values()]
    return [(n, a) for n in free_nobles for a in free_armies]


@RULES.legal("command")
def legal_command(ctx: Ctx, pending: dict) -> list[dict]:
    actions = [{"verb": "command", "noble": n, "army": a}
               for n, a in command_choices(ctx, pending["role"], pending["hex"])]
    actions.append({"verb": "done"})
    return actions


def sacrifice_choices(ctx: Ctx, house: str, h: Sequence[int], declared: Sequence[str]) -> list[str]:
    """NH-ABIL-12: the house's Sacrifice armies in the battle not yet declared this round."""
    return [a for a in ctx.armies(house, h)
            if ctx.utype(a).has("sacrifice") and a not in declared]


@RULES.legal("sacrifice")
def legal_sacrifice(ctx: Ctx, pending: dict) -> list[dict]:
    frame = ctx.top() or {}
    declared = frame.get("sacrifices", {}).get(pending["role"], []) if frame.get(
        "proc") == "battle" else []
    actions = [{"verb": "sacrifice", "unit": uid}
               for uid in sacrifice_choices(ctx, pending["role"], pending["hex"], declared)]
    actions.append({"verb": "done"})
    return actions


@RULES.procedure("battle")
def battle(ctx: Ctx, frame: dict) -> None:
    """One battle between a defender and one attacker, round by round (NH-BAT-6, NH-BAT-7)."""
    answer = frame.pop("answer", None)
    step = frame["step"]
    if step == "pre":
        _before_round_one(ctx, frame)
    elif step == "round":
        _new_round(ctx, frame)
    elif step == "command":
        _commands(ctx, frame, answer)
    elif step == "psychic":
        _psychic(ctx, frame)
    elif step == "sacrifice":
        _sacrifices(ctx, frame, answer)
    elif step in ("fs", "normal"):
        _volley(ctx, frame, step == "fs")
    elif step in ("fs-losses", "normal-losses"):
        if allocate_losses(ctx, frame, frame["hex"], answer):
            _noble_deaths(ctx, frame, frame.pop("losses")["lost"])
            frame["step"] = "normal" if step == "fs-losses" else "end"
    elif step == "end":
        _end_check(ctx, frame)
    else:  # pragma: no cover - a battle frame only ever holds the steps above
        raise ValueError(f"unknown battle step {step!r}")


def _before_round_one(ctx: Ctx, frame: dict) -> None:
    """NH-BAT-6: escape rolls (NH-ABIL-13, NH-ABIL-14), then defection rolls (NH-ABIL-15,
    NH-ABIL-16), the attacker's units first each time."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    attacker, defender = sides(frame)
    battle.update(attacker=attacker, defender=defender, round=0, step="before round 1",
                  commands={}, psychic={}, negations=[], volley=None, dice={}, hits={},
                  sacrificed={}, result=None)
    ctx.note("NH-BAT-3", f"{who(ctx, attacker)} attacks {who(ctx, defender)} at {hex_key(h)}",
             refs=[h])
    for house in sides(frame):
        for uid in ctx.armies(house, h):
            ability = ctx.utype(uid).ability("escape")
            if ability is None:
                continue
            face = ctx.d6("NH-ABIL-14", f"{uid} escape roll", refs=[uid, h])
            if face <= ability["roll_max"]:
                ctx.remove(uid)
                battle["escaped"].append(uid)
                ctx.note("NH-ABIL-14", f"{uid} escapes and leaves the game", refs=[uid])
    # Each side rolls for the Supersoldiers it had before any defection roll: a group that has
    # just changed sides does not roll again.
    groups = {house: [a for a in ctx.armies(house, h) if ctx.utype(a).has("defect")]
              for house in sides(frame)}
    for house in sides(frame):
        group = groups[house]
        if not group:
            continue
        roll_max = ctx.utype(group[0]).ability("defect")["roll_max"]
        face = ctx.d6("NH-ABIL-16", f"{who(ctx, house)} defection roll for "
                      f"{ctx.list_units(group)}", refs=[*group, h])
        if face > roll_max:
            continue
        enemy = enemy_of(frame, house)
        for uid in group:
            unit = ctx.unit(uid)
            unit["owner"] = enemy
            if unit["ship"] is not None and ctx.unit(unit["ship"])["owner"] != enemy:
                unit["ship"] = None       # off the old owner's ship, into the hex
            battle["defected"].append(uid)
        ctx.note("NH-ABIL-16", f"{ctx.list_units(group)} go over to {who(ctx, enemy)}",
                 refs=group)
    frame["step"] = "end"           # a side may have nobody left to fight with


def _new_round(ctx: Ctx, frame: dict) -> None:
    h = frame["hex"]
    battle = ctx.state["battle"]
    frame["round"] += 1
    battle.update(round=frame["round"], step="command", commands={}, psychic={}, negations=[],
                  volley=None, dice={}, hits={}, sacrificed={x: [] for x in sides(frame)})
    # NH-ABIL-21 looks at the round: does the enemy have an Imperial unit as it starts?
    battle["imperial"] = {x: any(ctx.utype(a).has("imperial") for a in ctx.armies(x, h))
                          for x in sides(frame)}
    frame["done"] = []
    ctx.note("NH-BAT-7", f"Round {frame['round']} at {hex_key(h)}", refs=[h])
    frame["step"] = "command"


def _commands(ctx: Ctx, frame: dict, answer: dict | None) -> None:
    """NH-NOB-3: each side (attacker first) assigns its Nobles, one per army, one at a time."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    if answer is not None:
        house = frame["asking"]
        if answer["verb"] == "done":
            frame["done"].append(house)
        else:
            battle["commands"][answer["noble"]] = answer["army"]
            ctx.note("NH-NOB-3", f"{answer['noble']} commands {ctx.unit_label(answer['army'])}",
                     refs=[answer["noble"], answer["army"]])
    for house in sides(frame):
        if house in frame["done"]:
            continue
        if not command_choices(ctx, house, h):
            frame["done"].append(house)
            continue
        frame["asking"] = house
        ctx.ask("command", f"{who(ctx, house)}: give a Noble command of an army for round "
                f"{frame['round']}, or finish.", role=house, rule="NH-NOB-3", hex=list(h),
                round=frame["round"])
        return
    frame.pop("asking", None)
    frame["done"] = []
    frame["step"] = "psychic"


def _psychic(ctx: Ctx, frame: dict) -> None:
    """NH-PSY-3, NH-PSY-4, NH-PSY-5: each psychic army rolls, and each psychic Noble that
    commands; then each Psychic Veterans unit tries to cancel an enemy result (NH-PSY-6,
    NH-PSY-7)."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    battle["step"] = "psychic"
    table = ctx.procedure["psychic_table"]
    for house in sides(frame):
        for uid in ctx.units_where(house, h, ("army", "noble")):
            if not ctx.utype(uid).has("psychic"):
                continue
            if ctx.category(uid) == "noble" and uid not in battle["commands"]:
                continue                  # NH-PSY-5: a Noble with no army does not roll
            face = ctx.d6("NH-PSY-4", f"{uid} psychic attack", refs=[uid, h])
            row = next(r for r in table if face <= r["max"])
            battle["psychic"][uid] = {"roll": face, "result": row["result"],
                                      "extra": row["extra"], "negated_by": None}
            ctx.note("NH-PSY-3", f"{uid}: {row['result']}, +{row['extra']} AD this round",
                     refs=[uid])
    # NH-PSY-7, decided: automatic. Each veteran, in line-up order, takes the highest enemy
    # result nobody has picked yet (refusing a free chance to cancel dice is never better).
    picked: set[str] = set()
    for house in sides(frame):
        enemy = enemy_of(frame, house)
        for vet in ctx.armies(house, h):
            ability = ctx.utype(vet).ability("negate_psychic")
            if ability is None:
                continue
            open_results = [u for u in ctx.units_where(enemy, h)
                            if battle["psychic"].get(u, {}).get("extra", 0) >= 1
                            and u not in picked]
            if not open_results:
                continue
            target = max(open_results, key=lambda u: battle["psychic"][u]["extra"])
            picked.add(target)
            face = ctx.d6("NH-PSY-7", f"{vet} tries to cancel {target}'s psychic attack",
                          refs=[vet, target, h])
            success = face <= ability["roll_max"]
            battle["negations"].append({"by": vet, "target": target, "roll": face,
                                        "negated": success})
            if success:
                battle["psychic"][target].update(extra=0, negated_by=vet)
                ctx.note("NH-PSY-7", f"{vet} cancels {target}'s psychic attack",
                         refs=[vet, target])
            else:
                ctx.note("NH-PSY-7", f"{vet} fails to cancel {target}'s psychic attack",
                         refs=[vet, target])
    frame["sacrifices"] = {x: [] for x in sides(frame)}
    frame["done"] = []
    frame["step"] = "sacrifice"


def _sacrifices(ctx: Ctx, frame: dict, answer: dict | None) -> None:
    """NH-ABIL-12 with NH-SIM-2: each side declares its sacrifices (attacker first) in the
    frame; all are revealed and carried out together."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    battle["step"] = "sacrifice"
    declared = frame["sacrifices"]
    if answer is not None:
        house = frame["asking"]
        if answer["verb"] == "done":
            frame["done"].append(house)
        else:
            declared[house].append(answer["unit"])
    for house in sides(frame):
        if house in frame["done"]:
            continue
        if not sacrifice_choices(ctx, house, h, declared[house]):
            frame["done"].append(house)
            continue
        frame["asking"] = house
        ctx.ask("sacrifice", f"{who(ctx, house)}: sacrifice a unit for sure hits this round, "
                "or finish.", role=house, rule="NH-ABIL-12", hex=list(h), round=frame["round"])
        return
    frame.pop("asking", None)
    frame.pop("sacrifices")
    frame["done"] = []
    lost = []
    for house in sides(frame):
        for uid in declared[house]:
            hits = ctx.utype(uid).ability("sacrifice")["hits"]
            first = has_first_strike(ctx, frame, uid)    # before it leaves: commands count
            battle["sacrificed"][house].append({"unit": uid, "hits": hits,
                                                "first_strike": first})
            label = ctx.unit_label(uid)
            battle["casualties"].extend(ctx.remove(uid))
            lost.append(uid)
            ctx.note("NH-ABIL-12", f"{label} is sacrificed for {hits} sure hit(s) in the "
                     f"{VOLLEY_NAMES[first]}", refs=[uid, h])
    _noble_deaths(ctx, frame, lost)
    frame["step"] = "fs"


def _volley(ctx: Ctx, frame: dict, first_strike: bool) -> None:
    """NH-BAT-7 steps 5 and 7: every army with (or without) First Strike this round rolls its
    AD (NH-BAT-10), the attacker's in line-up order, then the defender's; sacrifices of that
    timing add their hits. A side whose enemy has no army left rolls nothing: its hits could
    only be lost."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    name = VOLLEY_NAMES[first_strike]
    battle.update(step=name, volley=name)
    dice: dict[str, dict[str, list[int]]] = {}
    scored: dict[str, int] = {}
    for house in sides(frame):
        dice[house] = {}
        scored[house] = sum(s["hits"] for s in battle["sacrificed"][house]
                            if s["first_strike"] == first_strike)
        if not ctx.armies(enemy_of(frame, house), h):
            continue
        for uid in ctx.armies(house, h):
            if has_first_strike(ctx, frame, uid) != first_strike:
                continue
            n, parts = attack_dice(ctx, frame, uid)
            if n <= 0:
                continue
            faces = ctx.roll_d6s(n, "NH-BAT-7", f"{uid} {name}, {n} AD ({', '.join(parts)})",
                                 refs=[uid, hex_ref(h)])
            dice[house][uid] = faces
            scored[house] += hits_of(ctx, faces)
    battle["dice"] = dice
    battle["hits"] = scored
    attacker, defender = sides(frame)
    ctx.note("NH-BAT-8", f"Round {frame['round']} {name}: {who(ctx, attacker)} scores "
             f"{scored[attacker]} hit(s), {who(ctx, defender)} scores {scored[defender]}",
             refs=[h])
    # The attacker allocates its own losses first, then the defender (NH-BAT-7, NH-BAT-9).
    queue_losses(frame, [(attacker, scored[defender]), (defender, scored[attacker])],
                 "battle", "NH-BAT-9")
    frame["step"] = "fs-losses" if first_strike else "normal-losses"


def _noble_deaths(ctx: Ctx, frame: dict, lost: Sequence[str]) -> None:
    """NH-NOB-4, NH-NOB-5: a Noble whose army has just been destroyed dies with it if its house
    has no other army left in the fight. Its command ends either way."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    for noble, army in list(battle["commands"].items()):
        if army not in lost:
            continue
        del battle["commands"][noble]
        if noble in ctx.state["units"] and not ctx.armies(ctx.unit(noble)["owner"], h):
            ctx.remove(noble)
            battle["casualties"].append(noble)
            ctx.note("NH-NOB-4", f"{noble} falls with {army}, its house's last army here",
                     refs=[noble, army])


def _end_check(ctx: Ctx, frame: dict) -> None:
    """NH-BAT-11: over when a side has no army left; NH-BAT-12 for such sides; NH-BAT-15 stops
    a battle that reaches the round limit. Otherwise another round: nobody retreats
    (NH-BAT-13)."""
    h = frame["hex"]
    battle = ctx.state["battle"]
    attacker, defender = sides(frame)
    standing = [x for x in (attacker, defender) if ctx.armies(x, h)]
    if len(standing) == 2:
        if frame["round"] >= ctx.procedure["battle_round_limit"]:
            battle["result"] = "stopped"
            ctx.note("NH-BAT-15", f"The battle at {hex_key(h)} has reached {frame['round']} "
                     "rounds and stops; it goes on next turn", refs=[h])
            ctx.pop()
        else:
            frame["step"] = "round"
        return
    for house in (attacker, defender):
        if house not in standing:
            lose_the_rest(ctx, house, h, "NH-BAT-12")
    if standing:
        battle["result"] = standing[0]
        ctx.note("NH-BAT-11", f"{who(ctx, standing[0])} wins the battle at {hex_key(h)}",
                 refs=[h])
    else:
        battle["result"] = "none"
        ctx.note("NH-CTRL-4", f"Both sides are wiped out at {hex_key(h)}: nobody wins, and "
                 f"control stays as it was ({who(ctx, defender)} defended)", refs=[h])
    battle["step"] = "over"
    ctx.pop()


__all__ = ["allocate_losses", "attack_dice", "choose_defender", "has_first_strike",
           "launch_targets", "queue_losses"]
