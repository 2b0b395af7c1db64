"""What the Noble Houses screen draws, as plain data read from one house's view.

``board(game, state, role)`` starts from ``view(state, role)``: everything is public in Noble
Houses (NH-SIM-1) except the declarations of a simultaneous step, which the view leaves out
until every house has made them (NH-SIM-2), so a board never shows them either. ``role`` is a
house letter, or ``"public"`` (the shared screen while the computer is handed over, or when no
person plays).

The board holds the map hex by hex (feature, world, owner, and per house a stack: armies
counted by type, Nobles, nukes, and the units that move on their own with their cargo), the
houses (treasury, income, worlds, allies and their uses this turn), the fight in progress and
the last fight's dice from the log, and the prompt with a label for each legal answer.
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.games.nobles.context import Ctx, unit_sort_key
from struggle_desktop.games.nobles.mapgen import hex_key

#: The ten steps of a turn (NH-SEQ-1); 0 is the set-up.
PHASE_NAMES = {0: "Set-up", 1: "Initiative", 2: "Production", 3: "Upkeep",
               4: "Recruit Nobles", 5: "Recruit Troops", 6: "Movement", 7: "Nuclear Exchange",
               8: "Battle", 9: "Noble Actions", 10: "Planet Control"}
FEATURE_NAMES = {"world": "world", "jump_station": "Imperial jump station",
                 "empty_system": "empty star system", "stargate": "stargate",
                 "space": "empty space"}
OBSTACLE_NAMES = {"nebula": "nebula", "black_hole": "black hole", "supernova": "supernova"}
ACTION_NAMES = {"govern": "Govern", "diplomacy": "Diplomacy", "assassination": "Assassination",
                "intrigue": "Intrigue", "sabotage": "Sabotage",
                "strategic_planning": "Strategic Planning"}
#: Answers the screen also takes as a gesture on the map (a jumpship dragged to a hex).
MAP_VERBS = ("jump",)
#: Log rules that belong to a fight (the battle panel reads them).
FIGHT_RULES = ("NH-NUK-", "NH-BAT-", "NH-PSY-", "NH-ABIL-12", "NH-ABIL-14", "NH-ABIL-16",
               "NH-NOB-3", "NH-NOB-4", "NH-CTRL-4")
#: The log entries that open a fight: an exchange in a hex, or one pairing of a battle.
FIGHT_OPENERS = ("Nuclear exchange at", " attacks ")


def map_layout(game) -> dict:
    """What does not change during a game: the hex size the screen draws with, the houses'
    letters and the step names. The map itself is part of the position (it is generated at
    set-up), so it travels in the board."""
    return {"hex_size": 60.0, "houses": list(game.roles), "phases": dict(PHASE_NAMES),
            "obstacles": dict(OBSTACLE_NAMES), "features": dict(FEATURE_NAMES)}


# ============================================================================== the board
def board(game, state: dict, role: str) -> dict:
    view = game.view(state, role, with_log=False)    # the log is public: read, not copied
    ctx = game.context(view)
    aboard: dict[str, list[str]] = {}
    for uid in sorted(view["units"], key=unit_sort_key):
        ship = view["units"][uid]["ship"]
        if ship is not None:
            aboard.setdefault(ship, []).append(uid)
    units = {uid: unit_entry(ctx, uid, aboard.get(uid, []))
             for uid in sorted(view["units"], key=unit_sort_key)}
    return {
        "game": "nobles", "seat": role, "turn": view["turn"], "phase": view["phase"],
        "phase_name": PHASE_NAMES.get(view["phase"], str(view["phase"])),
        "map": map_entry(ctx, units) if view.get("map") else None,
        "units": units,
        "houses": [house_entry(ctx, letter) for letter in view["houses"]],
        "order": list(view.get("order") or []),
        "unassigned": [ally_entry(ctx, a, None) for a in view.get("unassigned") or []],
        "battle": battle_entry(view.get("battle")),
        "exchange": exchange_entry(view.get("exchange")),
        "fight": fight_entry(state["log"], ctx.procedure["hit_max"], units),
        "prompt": prompt_entry(game, ctx, view, role),
        "waiting_for": (view["pending"] or {}).get("role") if not view.get("outcome") else None,
        "pending_kind": (view["pending"] or {}).get("kind"),
        "pending_hex": (view["pending"] or {}).get("hex"),
        "declaring": declaring(ctx, view),
        "outcome": outcome_entry(ctx, view.get("outcome")),
        "log_size": len(state["log"]),
    }


def unit_entry(ctx: Ctx, uid: str, cargo: list[str] | None = None) -> dict:
    """One unit; ``cargo``: the units aboard it, in line-up order (found once for all ships)."""
    u = ctx.unit(uid)
    t = ctx.utype(uid)
    entry = {"id": uid, "type": u["type"], "code": t.code, "owner": u["owner"],
             "category": t.category, "hex": list(u["hex"]), "ship": u["ship"],
             "moved": u["moved"], "fought": u["fought"], "ally": u.get("ally"),
             "is_ship": t.is_ship, "ad": t.ad, "label": f"{uid} {u['type']}"}
    if t.category == "jumpship":
        entry["cargo"] = list(cargo) if cargo is not None else ctx.cargo(uid)
        entry["slots"] = ctx.slots(uid)
        entry["slots_used"] = sum(1 for c in entry["cargo"]
                                  if ctx.category(c) in ("army", "nuke"))   # NH-MOV-2
    lines = [f"{uid}: {u['type']} of {house_title(ctx, u['owner'])}",
             f"{t.category.capitalize()}" + (f", {t.ad} attack dice" if t.ad else "")]
    if u.get("ally"):
        lines.append(f"Provided by the ally {ctx.data.allies[u['ally']].shown_as}")
    if u["ship"]:
        lines.append(f"Aboard {u['ship']}")
    if t.category == "jumpship":
        lines.append(f"Cargo ({entry['slots_used']} of {entry['slots']} "
                     f"slot{'' if entry['slots'] == 1 else 's'}): "
                     + (", ".join(entry["cargo"]) or "empty"))
    flags = [f for f in ("moved", "fought") if u[f]]
    if flags:
        lines.append("This turn: " + " and ".join(flags))
    entry["tooltip"] = "\n".join(lines)
    return entry


def house_title(ctx: Ctx, letter: str) -> str:
    """``House Gurati (A)``, or ``House A`` before the homeworlds are chosen."""
    home = ctx.house(letter)["homeworld"]
    return f"House {home} ({letter})" if home else f"House {letter}"


# ------------------------------------------------------------------------------ the map
def map_entry(ctx: Ctx, units: dict[str, dict]) -> dict:
    game_map = ctx.map
    width, height = game_map["width"], game_map["height"]
    at: dict[str, list[str]] = {}
    for uid, u in units.items():
        at.setdefault(hex_key(u["hex"]), []).append(uid)
    homes = {h["homeworld"]: letter for letter, h in ctx.state["houses"].items()
             if h["homeworld"]}
    hexes = []
    for y in range(1, height + 1):
        for x in range(1, width + 1):
            hexes.append(hex_entry(ctx, [x, y], at.get(f"{x},{y}", []), units, homes))
    gates = [[list(a), list(b)] for a, b in game_map.get("stargates", [])]
    return {"width": width, "height": height, "hexes": hexes, "stargates": gates,
            "jump_range": ctx.state["options"].get("jump_range", 3)}


def hex_entry(ctx: Ctx, h: list[int], here: list[str], units: dict[str, dict],
              homes: dict[str, str]) -> dict:
    feature = ctx.feature(h) or {"kind": "space"}
    kind = feature["kind"]
    entry: dict[str, Any] = {"hex": h, "key": hex_key(h), "kind": kind, "world": None,
                             "obstacle": feature.get("obstacle"), "controller": None,
                             "homeworld": False, "home_of": None, "govern": False,
                             "income": 0, "base_income": 0, "world_type": "",
                             "pair": feature.get("to"), "gate": feature.get("pair")}
    lines = []
    if kind == "world":
        name = feature["name"]
        world = ctx.data.worlds[name]
        row = ctx.state["worlds"][name]
        entry.update(world=name, world_type=world.type, base_income=world.income,
                     govern=row["govern"], income=ctx.world_income(name),
                     controller=row["controller"], homeworld=world.homeworld,
                     home_of=homes.get(name))
        lines.append(f"{name} ({h[0]},{h[1]}): {world.type} world, income {world.income}"
                     + (" +1 Govern" if row["govern"] else ""))
        lines.append("Controlled by " + (house_title(ctx, row["controller"])
                                          if row["controller"] else "nobody (neutral)"))
        if entry["home_of"]:
            lines.append(f"Homeworld of {house_title(ctx, entry['home_of'])}")
        elif world.homeworld:
            lines.append("A homeworld no house chose (neutral, recruits as a homeworld)")
        recruits = ", ".join(world.recruits) or "none"
        special = ", ".join(world.special) if world.special else ""
        lines.append(f"Recruits: {recruits}" + (f" (and {special})" if special else ""))
    elif kind == "obstacle":
        lines.append(f"({h[0]},{h[1]}): {OBSTACLE_NAMES.get(entry['obstacle'], 'obstacle')} "
                     "— jumpships cannot enter or pass through")
    elif kind == "stargate":
        to = feature.get("to")
        lines.append(f"({h[0]},{h[1]}): stargate, paired with ({to[0]},{to[1]}) — crossing "
                     "costs no hex")
    elif kind in ("jump_station", "empty_system"):
        lines.append(f"({h[0]},{h[1]}): {FEATURE_NAMES[kind]} — a jumpship may stop here; "
                     "nobody controls it")
    else:
        lines.append(f"({h[0]},{h[1]}): empty space")
    stacks = []
    for letter in ctx.state["houses"]:
        mine = [uid for uid in here if units[uid]["owner"] == letter]
        if mine:
            stacks.append(stack_entry(ctx, letter, mine, units))
    for s in stacks:
        lines.append(f"{house_title(ctx, s['owner'])}: {s['summary']}")
    entry["stacks"] = stacks
    entry["contested"] = len(stacks) > 1
    entry["tooltip"] = "\n".join(lines)
    return entry


def stack_entry(ctx: Ctx, letter: str, uids: list[str], units: dict[str, dict]) -> dict:
    """One house's units in a hex. Armies, Nobles and nukes on the ground are counted; the
    units that move on their own (jumpships, Self Transport armies) are listed, each with its
    cargo."""
    ground = [u for u in uids if units[u]["ship"] is None]
    movers = [u for u in ground if units[u]["is_ship"]]
    armies: dict[str, int] = {}
    for u in ground:
        if units[u]["category"] == "army" and not units[u]["is_ship"]:
            armies[units[u]["code"]] = armies.get(units[u]["code"], 0) + 1
    nobles = [u for u in ground if units[u]["category"] == "noble"]
    nukes = [u for u in ground if units[u]["category"] == "nuke"]
    army_count = sum(1 for u in uids if units[u]["category"] == "army")
    parts = [f"{n} {code}" for code, n in armies.items()]
    if nobles:
        parts.append(f"{len(nobles)} Noble{'s' if len(nobles) > 1 else ''}")
    if nukes:
        parts.append(f"{len(nukes)} nuke{'s' if len(nukes) > 1 else ''}")
    for m in movers:
        cargo = units[m].get("cargo") or []
        parts.append(m + (f" carrying {', '.join(cargo)}" if cargo else ""))
    return {"owner": letter, "units": uids, "armies": armies, "army_count": army_count,
            "nobles": nobles, "nukes": nukes, "ships": movers,
            "summary": ", ".join(parts) or "nothing"}


# ------------------------------------------------------------------------------ houses
def house_entry(ctx: Ctx, letter: str) -> dict:
    house = ctx.house(letter)
    order = ctx.state.get("order") or []
    alive = house["alive"]
    return {
        "letter": letter, "name": house_title(ctx, letter), "homeworld": house["homeworld"],
        "player": house["player"], "alive": alive, "solats": house["solats"],
        "income": ctx.income(letter) if alive else 0,
        "worlds": ctx.worlds_of(letter),
        "allies": [ally_entry(ctx, a, letter) for a in house["allies"]],
        "initiative": order.index(letter) + 1 if letter in order else None,
        "units": len(ctx.units_where(letter)), "armies": len(ctx.armies(letter)),
        "nobles": ctx.units_where(letter, category="noble"),
        "upkeep": ctx.upkeep_due(letter), "planning": house["planning"],
        "attempts": dict(house["attempts"]), "pyreen": house["pyreen"],
        "acted": list(house.get("acted", [])), "aristocracy": house["aristocracy"],
    }


def ally_entry(ctx: Ctx, name: str, letter: str | None) -> dict:
    ally = ctx.data.allies[name]
    uses = {}
    if letter is not None:
        uses = dict(ctx.house(letter)["ally_uses"].get(name, {}))
    benefits = []
    for kind, n in ally.benefits.items():
        if kind == "income":
            benefits.append(f"+{n} income")
        elif kind == "recruit_noble":
            benefits.append(f"+{n} Noble recruit roll")
        else:
            benefits.append(f"{ACTION_NAMES.get(kind, kind.replace('_', ' ').capitalize())}"
                            f" ×{n} a turn")
    if ally.choice:
        benefits.append("each turn: a Noble recruit roll or a Noble action")
    provided = [uid for uid, u in ctx.state["units"].items()
                if u.get("ally") == name and (letter is None or u["owner"] == letter)]
    return {"name": name, "shown_as": ally.shown_as, "benefits": benefits, "uses": uses,
            "units": sorted(provided, key=unit_sort_key), "buyable": ally.buyable,
            "starting_units": dict(ally.units)}


# ------------------------------------------------------------------------------ fights
def battle_entry(battle: dict | None) -> dict | None:
    """The public record of the battle in progress (combat.py), as it is."""
    return dict(battle) if battle else None


def exchange_entry(exchange: dict | None) -> dict | None:
    return dict(exchange) if exchange else None


#: Log rules whose notes say what a fight destroyed (or spared).
CASUALTY_RULES = ("NH-BAT-9", "NH-BAT-12", "NH-NUK-5", "NH-NUK-6", "NH-NOB-4", "NH-ABIL-12",
                  "NH-ABIL-14", "NH-ABIL-16", "NH-BAT-2")


def is_hex_opener(entry: dict) -> bool:
    """Whether a log entry starts what happens in another hex or pairing of step 7 or 8."""
    rule, text = entry["rule"], entry["text"]
    return ((rule == "NH-NUK-1" and "Nuclear exchange at" in text)
            or (rule == "NH-BAT-3" and (text.startswith("Battle at") or " attacks " in text))
            or rule == "NH-BAT-2")


def fight_entry(log: list[dict], hit_max: int = 1, units: dict | None = None) -> dict | None:
    """The last fight in the log (a nuclear exchange in a hex, or one pairing of a battle):
    its title, its entries, its volleys (each roll with its dice and hits, in the order
    rolled, closed by the line that totals them), the last round's psychic results and the
    casualties.
    The screen shows them after the fight is over too."""
    units = units or {}
    start = None
    for k in range(len(log) - 1, -1, -1):
        e = log[k]
        if e["rule"] in ("NH-NUK-1", "NH-BAT-3") and any(o in e["text"] for o in FIGHT_OPENERS):
            start = k
            break
    if start is None:
        return None
    entries, volleys, current, psychic, casualties = [], [], [], [], []
    for k, e in enumerate(log[start:]):
        if k and (e["kind"] == "turn" or is_hex_opener(e)):
            break                       # the next hex's fight, or the next turn
        if not e["rule"].startswith(FIGHT_RULES):
            continue
        faces = [d["face"] for d in e.get("dice") or []]
        unit = next((r for r in e.get("refs", []) if isinstance(r, str)
                     and "-" in r and not r.startswith("hex:")), None)
        hits = (sum(1 for f in faces if f <= hit_max)
                if faces and e["rule"] in ("NH-BAT-7", "NH-NUK-4") else None)
        row = {"rule": e["rule"], "kind": e["kind"], "text": e["text"], "dice": faces,
               "hits": hits, "unit": unit, "turn": e["turn"],
               "house": (units.get(unit) or {}).get("owner") or (unit.split("-")[0]
                                                                  if unit else None)}
        entries.append(row)
        if hits is not None:
            current.append(row)
        elif e["rule"] == "NH-BAT-8":
            volleys.append({"summary": e["text"], "rolls": current})
            current = []
        elif e["rule"] == "NH-BAT-7" and e["text"].startswith("Round "):
            psychic = []                # a new round: the psychic results are this round's
        elif e["rule"] in ("NH-PSY-3", "NH-PSY-7") and e["kind"] != "roll":
            psychic.append(e["text"])
        elif e["rule"] in CASUALTY_RULES and e["kind"] != "roll":
            casualties.append(e["text"])
    if current:
        volleys.append({"summary": "", "rolls": current})
    return {"title": log[start]["text"], "turn": log[start]["turn"], "entries": entries,
            "volleys": volleys, "psychic": psychic, "casualties": casualties,
            "nuclear": log[start]["rule"] == "NH-NUK-1", "start": start}


def declaring(ctx: Ctx, view: dict) -> list[str]:
    """The houses that make the simultaneous declarations now waited for (NH-SIM-2): every
    house with nukes in the exchange's hex (NH-NUK-3), or both sides of the battle that have
    a unit able to sacrifice itself (NH-ABIL-12). Empty at any other prompt."""
    pending = view.get("pending") or {}
    if pending.get("kind") == "launch" and view.get("exchange"):
        return list(view["exchange"].get("declaring") or [])
    battle = view.get("battle")
    if pending.get("kind") == "sacrifice" and battle:
        h = battle["hex"]
        return [x for x in (battle.get("attacker"), battle.get("defender"))
                if x and any(ctx.utype(a).has("sacrifice") for a in ctx.armies(x, h))]
    return []


# ------------------------------------------------------------------------------ prompt
def prompt_entry(game, ctx: Ctx, view: dict, role: str) -> dict | None:
    pending = view.get("pending")
    if not pending or pending["role"] != role or view.get("outcome"):
        return None
    actions = [{"action": a, "label": describe(ctx, pending, a),
                "map": a["verb"] in MAP_VERBS} for a in view["legal_actions"]]
    return {"kind": pending["kind"], "text": pending["text"], "rule": pending.get("rule", ""),
            "role": pending["role"], "hex": pending.get("hex"), "actions": actions}


def outcome_entry(ctx: Ctx, outcome: dict | None) -> dict | None:
    if not outcome:
        return None
    winners = outcome.get("winners") or []
    names = " and ".join(house_title(ctx, w) for w in winners)
    how = {"conquest": "by holding every world", "last-house": "as the last house standing",
           "turn-limit": "at the turn limit, by income"}.get(outcome.get("how"), "")
    if not winners:
        text = f"Every house is eliminated (turn {outcome.get('turn')})"
    else:
        verb = "wins" if len(winners) == 1 else "share the win"
        text = f"{names} {verb} {how} on turn {outcome.get('turn')}".replace("  ", " ")
    # The way it was won in a few words, with the rule (the window's end-of-game dialog).
    how_text = {"conquest": "Conquest: every world held (NH-VIC-1)",
                "last-house": "Last house standing: every other house eliminated (NH-VIC-4)",
                "turn-limit": "Turn limit: the most income (NH-VIC-5)",
                "none": "Every house eliminated (NH-VIC-3)"}.get(outcome.get("how"), "")
    return {**outcome, "text": text, "how_text": how_text}


# ============================================================================== words
def describe_action(game, state: dict, action: dict) -> str:
    """A legal action in a player's words."""
    ctx = game.context(state)
    return describe(ctx, state.get("pending") or {}, action)


def hex_words(ctx: Ctx, h) -> str:
    """``Kadesh (3,4)`` for a world's hex, ``(3,4)`` for any other."""
    if not h:
        return "here"
    world = ctx.world_at(list(h))
    return f"{world} ({h[0]},{h[1]})" if world else f"({h[0]},{h[1]})"


def describe(ctx: Ctx, pending: dict, action: dict) -> str:
    """A legal answer in a player's words: what it does and where (a world, a hex, a unit)."""
    verb = action.get("verb")
    units = ctx.state["units"]

    def label(uid: str) -> str:
        return f"{uid} ({units[uid]['type']})" if uid in units else uid

    def where(uid: str) -> str:
        """`` on Kadesh (3,4)`` (or `` aboard B-JS1``) for a unit on the map."""
        u = units.get(uid)
        if u is None:
            return ""
        if u.get("ship"):
            return f" aboard {u['ship']}"
        return f" at {hex_words(ctx, u['hex'])}"

    if verb == "homeworld":
        w = ctx.data.worlds[action["world"]]
        return (f"Take {w.name} as the homeworld (recruits {', '.join(w.recruits)})")
    if verb == "take":
        home = pending.get("world")
        return f"Take {action['unit']} as a starting army" + (f" on {home}" if home else "")
    if verb == "disband":
        return f"Disband {label(action['unit'])}{where(action['unit'])} to pay the upkeep"
    if verb == "pay":
        return "Pay the Mercenaries their retainer"
    if verb == "dismiss":
        return f"Do not pay {label(action['unit'])}{where(action['unit'])}: it deserts"
    if verb == "choose":
        return ("Imperial Aristocracy: one more Noble recruit roll now"
                if action["benefit"] == "recruit_noble"
                else "Imperial Aristocracy: one Noble action later this turn")
    if verb == "place":
        return f"The new units appear on {action['world']}"
    if verb == "buy":
        cost = ctx.data.unit_cost(action["unit"], action["world"])
        return (f"Buy {action['unit']} on {action['world']} for {cost} "
                f"Solat{'s' if cost != 1 else ''}")
    if verb == "load":
        ship = action["ship"]
        return f"Load {label(action['unit'])} aboard {ship}{where(ship)}"
    if verb == "unload":
        ship = action["ship"]
        return f"Unload {label(action['unit'])} from {ship}{where(ship)}"
    if verb == "jump":
        to = action["to"]
        where_to = ctx.world_at(to) or FEATURE_NAMES.get(
            (ctx.feature(to) or {}).get("kind", ""), "")
        ship = action["ship"]
        cargo = ctx.cargo(ship) if ship in units else []
        return (f"{label(ship)} jumps to ({to[0]},{to[1]}) {where_to}".rstrip()
                + (f" carrying {', '.join(cargo)}" if cargo else ""))
    if verb == "act":
        return describe_noble_action(ctx, action)
    here = f" in {hex_words(ctx, pending.get('hex'))}" if pending.get("hex") else ""
    if verb == "launch":
        kind, _, what = action["target"].partition(":")
        target = (f"the armies of {house_title(ctx, what)}" if kind == "armies"
                  else label(what))
        return f"Launch {action['nuke']} at {target}{here}"
    if verb == "hold":
        return f"Hold {action['nuke']} back{here} (do not launch it)"
    if verb == "lose":
        return f"Lose {label(action['unit'])}{here}"
    if verb == "command":
        return f"{action['noble']} commands {label(action['army'])} (+1 die, First Strike)"
    if verb == "sacrifice":
        return f"Sacrifice {label(action['unit'])} for sure hits"
    if verb == "done":
        return DONE_LABELS.get(pending.get("kind"), "Done")
    return str(verb or "?").replace("_", " ").capitalize()


DONE_LABELS = {"recruit": "Done buying", "move": "Done moving (end Movement for this house)",
               "noble_action": "Done with Noble actions", "command": "No more commands",
               "sacrifice": "No (more) sacrifices"}


def actor_text(ctx: Ctx, actor: str) -> str:
    if actor == "pyreen":
        return "Pyreen"
    if actor.startswith("ally:"):
        parts = actor.split(":")
        return f"{ctx.data.allies[parts[1]].shown_as} (ally)"
    return actor


def describe_noble_action(ctx: Ctx, action: dict) -> str:
    kind, target = action["kind"], action["target"]
    who = actor_text(ctx, action["actor"])
    odds = "" if kind in ("govern", "strategic_planning") else " — succeeds on a 1"
    if kind == "govern":
        return f"{who}: Govern {target} (+1 income for good)"
    if kind == "diplomacy":
        owner = ctx.controller(target)
        return (f"{who}: Diplomacy on {target}"
                + (f" (held by {house_title(ctx, owner)})" if owner else " (neutral)") + odds)
    if kind == "assassination":
        return f"{who}: assassinate the Noble {target}{odds}"
    if kind == "intrigue":
        return f"{who}: Intrigue to win the ally {ctx.data.allies[target].shown_as}{odds}"
    if kind == "sabotage":
        units = ctx.state["units"]
        what = f"{target} ({units[target]['type']})" if target in units else target
        return f"{who}: sabotage {what}{odds}"
    if kind == "strategic_planning":
        return f"{who}: Strategic Planning, next initiative roll {target}"
    return f"{who}: {kind} {target}"


def log_entries(game, state: dict, start: int = 0, role: str = "public") -> list[dict]:
    """The log as every house reads it: all of it is public (NH-SIM-1); the declarations of a
    simultaneous step are not logged until they are revealed (NH-SIM-2)."""
    return list(state["log"][start:])
