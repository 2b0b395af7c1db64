"""The Noble Houses game flow: set-up, the ten steps of a turn, victory and elimination.

Steps 7 and 8 (the Nuclear Exchange and the Battle) are in combat.py; everything else a turn
does is here, one procedure per step (NH-SEQ-1, NH-SEQ-2). The steps where houses take turns
(recruiting, Movement, Noble Actions) ask the houses one after the other in initiative order
(NH-SEQ-5); within its turn a house answers one prompt per action and ends with ``done``.

Prompts of this module and their actions (role = the house letter):

- ``homeworld``: ``{"verb": "homeworld", "world": W}`` (NH-SETUP-2, human seats only);
- ``homeworld_army``: ``{"verb": "take", "unit": T}``, twice (NH-SETUP-5);
- ``disband``: ``{"verb": "disband", "unit": U}`` (NH-UPK-4);
- ``retainer``: ``{"verb": "pay"}`` or ``{"verb": "dismiss", "unit": U}`` (NH-ABIL-20);
- ``aristocracy``: ``{"verb": "choose", "benefit": "recruit_noble" | "noble_action"}``
  (NH-ALLY-10);
- ``place``: ``{"verb": "place", "world": W}``: where new units appear when the homeworld is
  lost (NH-REC-2, NH-NOB-15);
- ``recruit``: ``{"verb": "buy", "world": W, "unit": T}`` or ``{"verb": "done"}`` (NH-REC-3,
  NH-REC-4);
- ``move``: ``{"verb": "load" | "unload", "ship": S, "unit": U}`` (NH-MOV-8), ``{"verb":
  "jump", "ship": S, "to": [x, y]}`` (NH-MOV-6) or ``{"verb": "done"}`` (NH-MOV-13);
- ``noble_action``: ``{"verb": "act", "actor": A, "kind": K, "target": T}`` or ``{"verb":
  "done"}`` (section 15). The actor is a Noble's id, ``"ally:<name>"`` or ``"pyreen"``; the
  kinds are ``govern``, ``diplomacy``, ``assassination``, ``intrigue``, ``sabotage`` and
  ``strategic_planning`` (target ``"+1"`` or ``"-1"``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from struggle_desktop.engine.actions import action_in, same_json
from struggle_desktop.games.nobles import mapgen
from struggle_desktop.games.nobles.context import Ctx
from struggle_desktop.games.nobles.mapgen import hex_key
from struggle_desktop.games.nobles.registry import RULES

procedure = RULES.procedure
legal = RULES.legal
check = RULES.check
explain = RULES.explain

STEP_PROCEDURES = ("initiative", "production", "upkeep", "recruit_nobles", "recruit_troops",
                   "movement", "nuclear_exchange", "battles", "noble_actions", "planet_control")
ACTION_KINDS = ("govern", "diplomacy", "assassination", "intrigue", "sabotage",
                "strategic_planning")
#: What an ally's or Pyreen's typed use may do; "noble_action" is any kind but Govern, which
#: needs a Noble standing on the world (NH-ALLY-9, NH-NOB-19).
ALLY_KINDS = {kind: (kind,) for kind in ACTION_KINDS} | {
    "noble_action": tuple(k for k in ACTION_KINDS if k != "govern")}


def done() -> dict:
    return {"verb": "done"}


# ============================================================================ set-up
@procedure("game")
def game(ctx: Ctx, frame: dict) -> None:
    """Set-up in the order of NH-SETUP-3, then one turn after another until the game ends."""
    step = frame.setdefault("step", "homeworlds")
    if step == "homeworlds":
        if not choose_homeworlds(ctx, frame):
            return
        frame["step"] = "map"
    if frame["step"] == "map":
        make_map(ctx)
        deal_allies(ctx)
        roll_treasuries(ctx)
        place_starting_forces(ctx)
        reset_turn(ctx)
        frame["step"] = "armies"
        frame["house"] = 0
    if frame["step"] == "armies":
        if not choose_homeworld_armies(ctx, frame):
            return
        frame["step"] = "turns"
    if ctx.state["outcome"] is None:
        ctx.state["turn"] += 1
        ctx.push("turn", step=0)


def choose_homeworlds(ctx: Ctx, frame: dict) -> bool:
    """NH-SETUP-2: human seats choose in seat order, then each program seat draws one of those
    left (a dk in table order). True once every house has its homeworld."""
    houses = ctx.state["houses"]
    if "answer" in frame:
        action = frame.pop("answer")
        letter = frame.pop("asking")
        houses[letter]["homeworld"] = action["world"]
        ctx.note("NH-SETUP-2", f"{letter} takes {action['world']} as its homeworld",
                 refs=[action["world"]])
    taken = {h["homeworld"] for h in houses.values() if h["homeworld"]}
    for letter, house in houses.items():
        if house["homeworld"] is None and house["player"] == "human":
            frame["asking"] = letter
            ctx.ask("homeworld", f"Choose the homeworld of house {letter}", role=letter,
                    rule="NH-SETUP-2")
            return False
    for letter, house in houses.items():
        if house["homeworld"] is None:
            left = [w for w in ctx.data.homeworlds if w not in taken]
            pick = left[ctx.draw_index(len(left), "NH-SETUP-2", f"homeworld of house {letter}")]
            house["homeworld"] = pick
            taken.add(pick)
            ctx.note("NH-SETUP-2", f"{letter} draws {pick} as its homeworld", refs=[pick])
    return True


@legal("homeworld")
def legal_homeworld(ctx: Ctx, pending: dict) -> list[dict]:
    taken = {h["homeworld"] for h in ctx.state["houses"].values() if h["homeworld"]}
    return [{"verb": "homeworld", "world": w} for w in ctx.data.homeworlds if w not in taken]


def make_map(ctx: Ctx) -> None:
    """NH-MAP-13 (unless a test gave a hand-made map), with the game's generator: the same
    seed and homeworlds give the same map again (NH-MAP-19)."""
    if ctx.state["map"] is None:
        opts = ctx.state["options"]
        width, height = opts.get("map_size", [10, 10])
        seats = [h["homeworld"] for h in ctx.state["houses"].values()]
        ctx.state["map"] = mapgen.generate_map(
            ctx.rng, seats, ctx.data.homeworlds, ctx.data.non_home_worlds,
            opts.get("terrain") or {}, opts["jump_range"], width=width, height=height)
        ctx.note("NH-MAP-13", f"the map is drawn ({ctx.state['map']['attempts']} attempt(s))")


def deal_allies(ctx: Ctx) -> None:
    """NH-ALLY-2, NH-ALLY-3: one ally at a time to each seat in rotation, drawn with a dk over
    those still undealt in table order; the rest stay unassigned."""
    letters = list(ctx.state["houses"])
    each = ctx.data.allies_per_house[len(letters)]
    undealt = list(ctx.data.allies)
    for _round in range(each):
        for letter in letters:
            ally = undealt.pop(ctx.draw_index(len(undealt), "NH-ALLY-3", f"ally for {letter}"))
            ctx.house(letter)["allies"].append(ally)
            ctx.note("NH-ALLY-3", f"{letter} is dealt the ally {ctx.data.allies[ally].shown_as}",
                     refs=[ally])
    ctx.state["unassigned"] = undealt


def roll_treasuries(ctx: Ctx) -> None:
    """NH-SETUP-4: 3d6 Solats for each house in seat order."""
    n = ctx.data.scenario()["starting_forces"]["solats_d6"]
    for letter, house in ctx.state["houses"].items():
        faces = ctx.roll_d6s(n, "NH-SETUP-4", f"Solats of house {letter}")
        house["solats"] = sum(faces)


def place_starting_forces(ctx: Ctx) -> None:
    """NH-SETUP-4, NH-SETUP-5, NH-SETUP-6: the starting units and the allies' units (NH-ALLY-5)
    on the homeworld, which the house controls."""
    forces = ctx.data.scenario()["starting_forces"]["units"]
    for letter, house in ctx.state["houses"].items():
        home = house["homeworld"]
        where = ctx.world_hex(home)
        ctx.state["worlds"][home]["controller"] = letter
        for unit_type, count in forces.items():
            for _ in range(count):
                ctx.new_unit(letter, unit_type, where)
        for ally in house["allies"]:
            for unit_type, count in ctx.data.allies[ally].units.items():
                for _ in range(count):
                    ctx.new_unit(letter, unit_type, where, ally=ally)
        ctx.note("NH-SETUP-5", f"{ctx.house_name(letter)} ({letter}) starts on {home} with "
                 f"{house['solats']} Solats", refs=[home])


def homeworld_army_types(ctx: Ctx, world: str) -> list[str]:
    """The homeworld's own units, House Troops excepted (NH-SETUP-5)."""
    return [t for t in ctx.data.worlds[world].recruits if t != "House Troops"]


def choose_homeworld_armies(ctx: Ctx, frame: dict) -> bool:
    """NH-SETUP-5: two armies of each house's choice from its homeworld's own units; a
    homeworld with one such type gives two of it without asking."""
    needed = ctx.data.scenario()["starting_forces"]["homeworld_armies"]
    letters = list(ctx.state["houses"])
    if "answer" in frame:
        action = frame.pop("answer")
        letter = letters[frame["house"]]
        ctx.new_unit(letter, action["unit"], ctx.world_hex(ctx.house(letter)["homeworld"]))
        frame["taken"] = frame.get("taken", 0) + 1
        ctx.note("NH-SETUP-5", f"{letter} takes {action['unit']}")
    while frame["house"] < len(letters):
        letter = letters[frame["house"]]
        home = ctx.house(letter)["homeworld"]
        types = homeworld_army_types(ctx, home)
        taken = frame.get("taken", 0)
        if taken < needed and len(types) > 1:
            ctx.ask("homeworld_army", f"Choose a starting army from {home} "
                    f"({taken + 1} of {needed})", role=letter, rule="NH-SETUP-5", world=home)
            return False
        for _ in range(needed - taken):
            ctx.new_unit(letter, types[0], ctx.world_hex(home))
        frame["house"] += 1
        frame["taken"] = 0
    return True


@legal("homeworld_army")
def legal_homeworld_army(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "take", "unit": t} for t in homeworld_army_types(ctx, pending["world"])]


# ============================================================================ the turn
@procedure("turn")
def turn(ctx: Ctx, frame: dict) -> None:
    """NH-SEQ-1: the ten steps, then the end-of-turn checks and resets (NH-SEQ-6)."""
    if ctx.state["outcome"] is not None:
        ctx.pop()
        return
    if frame["step"] < len(STEP_PROCEDURES):
        frame["step"] += 1
        ctx.state["phase"] = frame["step"]
        ctx.push(STEP_PROCEDURES[frame["step"] - 1])
        return
    ctx.pop()
    end_of_turn(ctx)


# ------------------------------------------------------------------------ 1 Initiative
@procedure("initiative")
def initiative(ctx: Ctx, frame: dict) -> None:
    """NH-SEQ-3, NH-SEQ-4: a d6 each with last turn's Strategic Planning; ties re-roll
    unmodified among themselves."""
    ctx.pop()
    entry = ctx.log("NH-SEQ-1", "turn", f"Turn {ctx.state['turn']}")
    entry["tracks"] = tracks(ctx)
    houses = ctx.alive()
    rolls = {}
    for letter in houses:
        house = ctx.house(letter)
        house["initiative_mod"], house["planning"] = house["planning"], 0
        mods = [("Strategic Planning", house["initiative_mod"])]
        rolls[letter] = ctx.roll("d6", "NH-SEQ-4", f"initiative of {letter}", modifiers=mods)
    ctx.state["order"] = settle_order(ctx, houses, rolls)
    ctx.note("NH-SEQ-4", "initiative order: " + ", ".join(ctx.state["order"]))


def settle_order(ctx: Ctx, houses: list[str], rolls: dict[str, int]) -> list[str]:
    order: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [h for h in houses if rolls[h] == value]
        if len(tied) == 1:
            order.extend(tied)
        else:
            again = {h: ctx.roll("d6", "NH-SEQ-4", f"initiative tie, {h} re-rolls") for h in tied}
            order.extend(settle_order(ctx, tied, again))
    return order


# ------------------------------------------------------------------------ 2 Production
@procedure("production")
def production(ctx: Ctx, frame: dict) -> None:
    """NH-PROD-1, NH-PROD-2: worlds (with Govern bonuses) and allies (NH-ALLY-4) pay; no cap.
    A world pays its controller even with enemy units on it (NH-PROD-3)."""
    ctx.pop()
    for letter in ctx.in_order():
        gained = ctx.income(letter)
        ctx.house(letter)["solats"] += gained
        ctx.note("NH-PROD-2", f"{letter} collects {gained} Solats "
                 f"(now {ctx.house(letter)['solats']})")


# ------------------------------------------------------------------------ 3 Upkeep
def retainer_units(ctx: Ctx, letter: str) -> list[str]:
    return [u for u in ctx.units_where(letter) if ctx.utype(u).has("retainer")]


def retainer_cost(ctx: Ctx, uid: str) -> int:
    return ctx.utype(uid).ability("retainer")["solats"]


def disbandable(ctx: Ctx, letter: str) -> list[str]:
    """Units a house may disband: armies, jumpships and nukes (NH-UPK-4)."""
    return ctx.units_where(letter, category=("army", "jumpship", "nuke"))


@procedure("upkeep")
def upkeep(ctx: Ctx, frame: dict) -> None:
    """NH-UPK-1, NH-UPK-2, NH-UPK-4 then the Mercenaries' retainer (NH-UPK-3, NH-ABIL-20),
    house by house."""
    houses = ctx.in_order()
    frame.setdefault("i", 0)
    frame.setdefault("part", "upkeep")
    if "answer" in frame:
        action = frame.pop("answer")
        letter = houses[frame["i"]]
        if action["verb"] == "disband":
            ctx.remove(action["unit"])
            ctx.note("NH-UPK-4", f"{letter} disbands {action['unit']} to pay its upkeep",
                     refs=[action["unit"]])
        elif action["verb"] == "dismiss":
            ctx.remove(action["unit"])
            ctx.note("NH-ABIL-20", f"{letter} does not pay {action['unit']}, which deserts",
                     refs=[action["unit"]])
        else:                                       # pay every retainer still due
            due = frame.pop("retainers")
            cost = sum(retainer_cost(ctx, u) for u in due)
            ctx.house(letter)["solats"] -= cost
            ctx.note("NH-ABIL-20", f"{letter} pays {cost} Solats to keep {ctx.list_units(due)}")
            frame["i"] += 1
            frame["part"] = "upkeep"
    while frame["i"] < len(houses):
        letter = houses[frame["i"]]
        house = ctx.house(letter)
        if frame["part"] == "upkeep":
            due = ctx.upkeep_due(letter)
            if due > house["solats"] and disbandable(ctx, letter):
                ctx.ask("disband", f"{letter} owes {due} Solats of upkeep and has "
                        f"{house['solats']}: disband a unit", role=letter, rule="NH-UPK-4")
                return
            due = min(due, house["solats"])
            house["solats"] -= due
            if due:
                ctx.note("NH-UPK-2", f"{letter} pays {due} Solats of upkeep")
            frame["part"] = "retainer"
        if frame["part"] == "retainer":
            mercs = [u for u in retainer_units(ctx, letter)]
            if mercs:
                frame["retainers"] = mercs
                ctx.ask("retainer", f"{letter}: pay {sum(retainer_cost(ctx, u) for u in mercs)} "
                        f"Solats to keep {len(mercs)} Mercenaries, or let some go",
                        role=letter, rule="NH-ABIL-20")
                return
        frame["i"] += 1
        frame["part"] = "upkeep"
    ctx.pop()


@legal("disband")
def legal_disband(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "disband", "unit": u} for u in disbandable(ctx, pending["role"])]


@legal("retainer")
def legal_retainer(ctx: Ctx, pending: dict) -> list[dict]:
    letter = pending["role"]
    mercs = retainer_units(ctx, letter)
    out = []
    if sum(retainer_cost(ctx, u) for u in mercs) <= ctx.house(letter)["solats"]:
        out.append({"verb": "pay"})
    return out + [{"verb": "dismiss", "unit": u} for u in mercs]


# ------------------------------------------------------------------------ 4 Recruit Nobles
def new_units_world(ctx: Ctx, letter: str) -> str | None:
    """Where new units of a house appear: its homeworld if it holds it, else the only world it
    holds; None when it must choose (several) or has none (see ``place_or_ask``)."""
    home = ctx.house(letter)["homeworld"]
    if ctx.controller(home) == letter:
        return home
    worlds = ctx.worlds_of(letter)
    return worlds[0] if len(worlds) == 1 else None


@procedure("recruit_nobles")
def recruit_nobles(ctx: Ctx, frame: dict) -> None:
    """NH-REC-1, NH-REC-2, NH-ALLY-8, NH-ALLY-10: a d6 for each recruit roll, a 1 gains a
    Noble on the homeworld (or a world of the house's choice)."""
    houses = ctx.in_order()
    frame.setdefault("i", 0)
    if "answer" in frame:
        action = frame.pop("answer")
        letter = houses[frame["i"]]
        if action["verb"] == "choose":
            ctx.house(letter)["aristocracy"] = action["benefit"]
            if action["benefit"] == "noble_action":
                ctx.house(letter)["ally_uses"]["Imperial Aristocracy"] = {"noble_action": 1}
            ctx.note("NH-ALLY-10", f"{letter} takes the Imperial Aristocracy's "
                     f"{action['benefit'].replace('_', ' ')} this turn")
        else:                                           # a place for a new Noble
            uid = ctx.new_unit(letter, "Noble", ctx.world_hex(action["world"]))
            ctx.note("NH-REC-2", f"{letter}'s new Noble {uid} appears on {action['world']}",
                     refs=[uid, action["world"]])
            frame["nobles"] -= 1
    while frame["i"] < len(houses):
        letter = houses[frame["i"]]
        house = ctx.house(letter)
        if "nobles" not in frame:
            if "Imperial Aristocracy" in house["allies"] and house["aristocracy"] is None:
                ctx.ask("aristocracy", f"{letter}: the Imperial Aristocracy gives a recruit "
                        "roll now or a Noble action later", role=letter, rule="NH-ALLY-10")
                return
            rolls = 1 + sum(ctx.data.allies[a].benefits.get("recruit_noble", 0)
                            for a in house["allies"])
            rolls += 1 if house["aristocracy"] == "recruit_noble" else 0
            faces = ctx.roll_d6s(rolls, "NH-REC-1", f"{letter}'s Noble recruit rolls")
            frame["nobles"] = sum(1 for f in faces if f <= ctx.procedure["recruit_noble_max"])
        while frame["nobles"] > 0:
            world = new_units_world(ctx, letter)
            if world is None and ctx.worlds_of(letter):
                ctx.ask("place", f"{letter}: choose the world where the new Noble appears",
                        role=letter, rule="NH-REC-2")
                return
            if world is None:
                ctx.note("NH-REC-2", f"{letter} holds no world: the new Noble is lost")
            else:
                uid = ctx.new_unit(letter, "Noble", ctx.world_hex(world))
                ctx.note("NH-REC-2", f"{letter} gains the Noble {uid} on {world}",
                         refs=[uid, world])
            frame["nobles"] -= 1
        del frame["nobles"]
        frame["i"] += 1
    ctx.pop()


@legal("aristocracy")
def legal_aristocracy(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "choose", "benefit": b} for b in ("recruit_noble", "noble_action")]


@legal("place")
def legal_place(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "place", "world": w} for w in ctx.worlds_of(pending["role"])]


# ------------------------------------------------------------------------ 5 Recruit Troops
def purchase_list(ctx: Ctx, letter: str, world: str) -> list[str]:
    """What ``letter`` may buy on ``world`` (NH-REC-4): the world's list, and at its own
    starting homeworld its allies' types too (NH-REC-5, NH-REC-6, NH-ALLY-12); a captured
    homeworld sells its own list only (NH-REC-7, NH-WORLD-4)."""
    types = list(ctx.data.worlds[world].recruits)
    if world == ctx.house(letter)["homeworld"]:
        for ally in ctx.house(letter)["allies"]:
            buyable = ctx.data.allies[ally].buyable
            if buyable and buyable not in types:
                types.append(buyable)
    return types


def purchase_limit(ctx: Ctx, world: str) -> int:
    """NH-REC-3: one unit a turn on a world, two on a homeworld, a captured one too (NH-REC-7);
    ally types count within the two (NH-REC-6)."""
    return 2 if ctx.data.worlds[world].homeworld else 1


def _buys(ctx: Ctx, letter: str, owners: dict[str, set[str]] | None = None) -> Iterator[dict]:
    """The purchases ``letter`` can make now, one by one: on a world it controls, with no
    other house's army, within the world's limit (NH-REC-3, NH-REC-4) and the house's Solats
    (NH-ABIL-22). ``owners``: who has armies on which world, when the caller knows it
    already."""
    house = ctx.house(letter)
    for world in ctx.worlds_of(letter):
        if house["bought"].get(world, 0) >= purchase_limit(ctx, world):
            continue
        if owners is None:
            owners = ctx.world_army_owners()    # one pass over the units, not one per world
        if owners.get(world, set()) - {letter}:
            continue
        for unit_type in purchase_list(ctx, letter, world):
            if ctx.data.unit_cost(unit_type, world) <= house["solats"]:
                yield {"verb": "buy", "world": world, "unit": unit_type}


def buys(ctx: Ctx, letter: str) -> list[dict]:
    return list(_buys(ctx, letter))


def has_buy(ctx: Ctx, letter: str) -> bool:
    """Whether ``buys`` is not empty, stopping at the first purchase found."""
    return next(_buys(ctx, letter), None) is not None


@procedure("recruit_troops")
def recruit_troops(ctx: Ctx, frame: dict) -> None:
    """NH-REC-3, NH-REC-4: each house in turn buys what it likes, one unit per answer; every
    purchase goes to the public log (NH-REC-9)."""
    houses = ctx.in_order()
    frame.setdefault("i", 0)
    if "answer" in frame:
        action = frame.pop("answer")
        letter = houses[frame["i"]]
        if action["verb"] == "done":
            frame["i"] += 1
        else:
            world, unit_type = action["world"], action["unit"]
            cost = ctx.data.unit_cost(unit_type, world)
            house = ctx.house(letter)
            house["solats"] -= cost
            house["bought"][world] = house["bought"].get(world, 0) + 1
            home = world if ctx.data.units[unit_type].has("defenders") else None
            uid = ctx.new_unit(letter, unit_type, ctx.world_hex(world), home=home)
            ctx.note("NH-REC-4", f"{letter} buys {uid} ({unit_type}) on {world} for {cost}",
                     refs=[uid, world])
    while frame["i"] < len(houses):
        letter = houses[frame["i"]]
        if has_buy(ctx, letter):
            ctx.ask("recruit", f"{letter}: buy units ({ctx.house(letter)['solats']} Solats)",
                    role=letter, rule="NH-REC-3")
            return
        frame["i"] += 1
    ctx.pop()


@legal("recruit")
def legal_recruit(ctx: Ctx, pending: dict) -> list[dict]:
    return buys(ctx, pending["role"]) + [done()]


@explain("recruit")
def recruit_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """NH-REC-3, NH-REC-4: None for an answer ``legal_recruit`` lists, else why not, in a
    player's words (the purchase panel shows it beside a purchase no longer possible). Looks
    only at the world named: who has armies there is found without a pass over every world."""
    if action.get("verb") != "buy":
        return None if action_in(action, [done()]) else "buy a unit or say done"
    letter, world = pending["role"], action.get("world")
    if (action.keys() != {"verb", "world", "unit"} or not isinstance(world, str)
            or world not in ctx.state["worlds"]):
        return "that is not a purchase on a world"
    if ctx.controller(world) != letter:
        return f"{world} is not one of house {letter}'s worlds"
    house, unit_type = ctx.house(letter), action["unit"]
    limit = purchase_limit(ctx, world)
    if house["bought"].get(world, 0) >= limit:
        made = {1: "one purchase", 2: "two purchases"}.get(limit, f"{limit} purchases")
        return f"{world}: {made} made this turn, the most the world allows"
    h = ctx.world_hex(world)
    if any(u["owner"] != letter and u["hex"] == h and ctx.data.army_types[u["type"]]
           for u in ctx.state["units"].values()):
        return f"another house's army stands on {world}"
    if not isinstance(unit_type, str) or unit_type not in purchase_list(ctx, letter, world):
        return f"{world} does not sell {unit_type}"
    cost = ctx.data.unit_cost(unit_type, world)
    if cost > house["solats"]:
        return f"{unit_type} costs {cost} Solats on {world}; house {letter} has {house['solats']}"
    return None


# ------------------------------------------------------------------------ 6 Movement
def can_board(ctx: Ctx, uid: str) -> bool:
    """NH-MOV-8: armies (not Defenders, not Self Transport), nukes and Nobles."""
    t = ctx.utype(uid)
    if t.category in ("noble", "nuke"):
        return True
    return t.category == "army" and not t.has("defenders") and not t.has("self_transport")


def destinations(ctx: Ctx, ship: str) -> list[list[int]]:
    table = mapgen.jump_table(ctx.map, ctx.state["options"]["jump_range"])
    start = ctx.unit(ship)["hex"]
    return [[h.x, h.y] for h in table.get(mapgen.Hex(start[0], start[1]), ())]


def _moves(ctx: Ctx, letter: str) -> Iterator[dict]:
    """The house's loads, unloads and jumps now, one by one (NH-MOV-8, NH-MOV-6). Only ships
    jump, each once a turn; the others travel aboard (NH-MOV-1). An army or a nuke takes a
    slot (NH-MOV-2); Nobles board in any number (NH-NOB-1)."""
    mine = ctx.units_where(letter)
    on_ground: dict[str, list[str]] = {}
    aboard: dict[str, list[str]] = {}
    for uid in mine:
        ship = ctx.unit(uid)["ship"]
        if ship is None:
            on_ground.setdefault(hex_key(ctx.unit(uid)["hex"]), []).append(uid)
        else:
            aboard.setdefault(ship, []).append(uid)
    for ship in mine:
        s = ctx.unit(ship)
        if s["moved"] or not ctx.utype(ship).is_ship:
            continue
        if ctx.utype(ship).category == "jumpship":
            cargo = aboard.get(ship, [])
            free = ctx.slots(ship) - sum(1 for uid in cargo
                                         if ctx.category(uid) in ("army", "nuke"))
            for uid in on_ground.get(hex_key(s["hex"]), ()):
                u = ctx.unit(uid)
                if u["moved"] or uid == ship or not can_board(ctx, uid):
                    continue
                if ctx.category(uid) != "noble" and free <= 0:
                    continue
                yield {"verb": "load", "ship": ship, "unit": uid}
            for uid in cargo:
                yield {"verb": "unload", "ship": ship, "unit": uid}
        for to in destinations(ctx, ship):
            yield {"verb": "jump", "ship": ship, "to": to}


def moves(ctx: Ctx, letter: str) -> list[dict]:
    return list(_moves(ctx, letter))


def has_move(ctx: Ctx, letter: str) -> bool:
    """Whether ``moves`` is not empty, stopping at the first move found."""
    return next(_moves(ctx, letter), None) is not None


@procedure("movement")
def movement(ctx: Ctx, frame: dict) -> None:
    """NH-MOV-13: house by house in initiative order; cargo is loaded before a jump
    (NH-MOV-8) and stays aboard until Planet Control (NH-MOV-9)."""
    houses = ctx.in_order()
    frame.setdefault("i", 0)
    if "answer" in frame:
        action = frame.pop("answer")
        letter = houses[frame["i"]]
        verb = action["verb"]
        if verb == "load":
            ctx.unit(action["unit"])["ship"] = action["ship"]
        elif verb == "unload":
            ctx.unit(action["unit"])["ship"] = None
        elif verb == "jump":
            jump(ctx, letter, action["ship"], action["to"])
        else:
            unload_unmoved(ctx, letter)
            frame["i"] += 1
    while frame["i"] < len(houses):
        letter = houses[frame["i"]]
        if has_move(ctx, letter):
            ctx.ask("move", f"{letter}: move jumpships (load, then jump)", role=letter,
                    rule="NH-MOV-13")
            return
        unload_unmoved(ctx, letter)
        frame["i"] += 1
    ctx.pop()


def jump(ctx: Ctx, letter: str, ship: str, to: list[int]) -> None:
    """One move of a ship with its cargo (NH-MOV-6, NH-MOV-7, NH-MOV-14)."""
    start = list(ctx.unit(ship)["hex"])
    aboard = ctx.cargo(ship)
    for uid in [ship, *aboard]:
        ctx.unit(uid)["hex"] = list(to)
        ctx.unit(uid)["moved"] = True
    arrivals = ctx.state["arrivals"].setdefault(hex_key(to), [])
    if letter not in arrivals:
        arrivals.append(letter)
    where = ctx.world_at(to) or ctx.feature(to)["kind"].replace("_", " ")
    ctx.note("NH-MOV-6", f"{ship} jumps from {hex_key(start)} to {hex_key(to)} ({where})"
             + (f" carrying {ctx.list_units(aboard)}" if aboard else ""),
             refs=[ship, *aboard, to])


def unload_unmoved(ctx: Ctx, letter: str) -> None:
    """Cargo loaded on a ship that did not jump goes back to the ground (NH-MOV-8)."""
    idle = {ship for ship in ctx.ships(letter) if not ctx.unit(ship)["moved"]}
    if idle:
        # One pass for all the idle ships, not one per ship (``cargo``); no unit is aboard two.
        for u in ctx.state["units"].values():
            if u["ship"] in idle:
                u["ship"] = None


def jump_refusal(ctx: Ctx, pending: dict, action: dict) -> str | None:
    """Why ``action``, a jump, is not one of the Movement answers, when a rule says why (for
    the window's refusal of a drag); None when nothing below explains it."""
    ship, letter, to = action.get("ship"), pending["role"], action.get("to")
    if pending["kind"] != "move":         # NH-MOV-13: ships move in the Movement phase
        return f"ships jump in the Movement phase, not now ({pending['text']})"
    units = ctx.state["units"]
    if not isinstance(ship, str) or ship not in units:
        return None
    if units[ship]["owner"] != letter:
        return f"{ship} belongs to house {units[ship]['owner']}, not to house {letter}"
    if not ctx.utype(ship).is_ship:       # NH-MOV-1: the others travel aboard jumpships
        return f"{ship} does not move on its own: it travels aboard a jumpship"
    if units[ship]["moved"]:              # NH-MOV-14: each ship moves once a turn
        return f"{ship} has moved this turn already"
    reach, start = destinations(ctx, ship), units[ship]["hex"]
    if not reach:
        return f"{ship} has no system within a jump of ({start[0]},{start[1]})"
    if not (isinstance(to, list) and len(to) == 2 and all(type(v) is int for v in to)) \
            or any(same_json(to, h) for h in reach):
        return None
    where, feature = f"({to[0]},{to[1]})", ctx.feature(to) or {}
    if not (1 <= to[0] <= ctx.map["width"] and 1 <= to[1] <= ctx.map["height"]):
        return f"{where} is off the map"
    if feature.get("kind") == "obstacle":                    # NH-MOV-5
        return f"{where} is a {feature['obstacle'].replace('_', ' ')}: no jumpship enters it"
    if feature.get("kind") is None:                          # NH-MOV-3, NH-MOV-6
        return f"{where} is empty space: a jump ends in a system"
    return (f"{ship} cannot reach {where} from ({start[0]},{start[1]}): a jump goes at most "
            f"{ctx.state['options']['jump_range']} hexes, round nebulas, black holes and "
            "supernovas")                                    # NH-MOV-6


@legal("move")
def legal_move(ctx: Ctx, pending: dict) -> list[dict]:
    return moves(ctx, pending["role"]) + [done()]


@check("move")
def is_legal_move(ctx: Ctx, pending: dict, action: dict) -> bool:
    """NH-MOV-6, NH-MOV-8: the same answer as looking ``action`` up in ``legal_move``,
    without listing every ship's loads and jumps (replaying a save checks every move this
    way)."""
    verb = action.get("verb")
    if verb not in ("load", "unload", "jump"):
        return action_in(action, [done()])
    letter = pending["role"]
    if action.keys() != ({"verb", "ship", "to"} if verb == "jump" else {"verb", "ship", "unit"}):
        return False
    units = ctx.state["units"]
    ship = action["ship"]
    if not isinstance(ship, str) or ship not in units:
        return False
    s = units[ship]
    if s["owner"] != letter or s["moved"] or not ctx.utype(ship).is_ship:
        return False
    if verb == "jump":
        return any(same_json(action["to"], to) for to in destinations(ctx, ship))
    uid = action["unit"]
    if ctx.utype(ship).category != "jumpship" or not isinstance(uid, str) or uid not in units:
        return False
    u = units[uid]
    if u["owner"] != letter:
        return False
    if verb == "unload":
        return u["ship"] == ship
    if (u["ship"] is not None or u["hex"] != s["hex"] or u["moved"] or uid == ship
            or not can_board(ctx, uid)):
        return False
    if ctx.category(uid) == "noble":
        return True
    used = sum(1 for c in units.values() if c["ship"] == ship and c["owner"] == letter
               and ctx.data.units[c["type"]].category in ("army", "nuke"))
    return ctx.slots(ship) - used > 0


# ------------------------------------------------------------------------ 9 Noble Actions
def actors(ctx: Ctx, letter: str) -> list[tuple[str, tuple[str, ...]]]:
    """(actor, the kinds it may do) for every action ``letter`` still has this turn:
    Nobles that neither moved nor fought nor acted (NH-NOB-6), ally uses (NH-ALLY-7,
    NH-ALLY-8, NH-ALLY-9) and Pyreen's Diplomacy (NH-WORLD-6)."""
    house = ctx.house(letter)
    out: list[tuple[str, tuple[str, ...]]] = []
    for uid in ctx.units_where(letter, category="noble"):
        if _noble_free(ctx, house, uid):
            out.append((uid, ACTION_KINDS))
    out.extend(_other_actors(house))
    return out


def _noble_free(ctx: Ctx, house: dict, uid: str) -> bool:
    """Whether the house's Noble ``uid`` may still act this turn (NH-NOB-6); one recruited
    this turn may, as it starts unmoved and unfought (NH-NOB-22)."""
    u = ctx.unit(uid)
    return not (u["moved"] or u["fought"] or uid in house["acted"])


def _other_actors(house: dict) -> Iterator[tuple[str, tuple[str, ...]]]:
    """The actors of ``actors`` that are not Nobles: ally uses left and Pyreen's Diplomacy."""
    for ally, uses in house["ally_uses"].items():
        for kind, left in uses.items():
            if left > 0:
                yield f"ally:{ally}:{kind}", ALLY_KINDS[kind]
    if house["pyreen"] > 0:
        yield "pyreen", ("diplomacy",)


def actor_kinds(ctx: Ctx, letter: str, actor: Any) -> tuple[str, ...] | None:
    """The kinds ``actors`` lists for ``actor`` (any value a player sent), or None if it is not
    among them; looks at that actor only, where ``actors`` passes over every unit. A Noble's
    id never reads like the other actors (``ally:...``, ``pyreen``)."""
    if type(actor) is not str:      # as same_json compares: a str and nothing else
        return None
    house = ctx.house(letter)
    u = ctx.state["units"].get(actor)
    if u is not None:
        mine = u["owner"] == letter and ctx.data.categories[u["type"]] == "noble"
        return ACTION_KINDS if mine and _noble_free(ctx, house, actor) else None
    return next((kinds for other, kinds in _other_actors(house) if other == actor), None)


def targets(ctx: Ctx, letter: str, actor: str, kind: str) -> list:
    """Valid targets of one action kind now (NH-NOB-10): anywhere on the map but Govern's
    (NH-NOB-8); none once the house has used up a capped kind (NH-NOB-16, NH-ALLY-11)."""
    house = ctx.house(letter)
    caps = ctx.procedure["action_caps"]
    # NH-NOB-19: the acting Noble's own world, held by its house and not yet governed.
    if kind == "govern":
        if actor.startswith(("ally:", "pyreen")):
            return []
        world = ctx.world_at(ctx.unit(actor)["hex"])
        ok = (world is not None and ctx.controller(world) == letter
              and not ctx.state["worlds"][world]["govern"])
        return [world] if ok else []
    # NH-NOB-11, NH-NOB-12: any world the house does not hold with no other house's army.
    if kind == "diplomacy":
        owners = ctx.world_army_owners()
        return [w for w in ctx.data.worlds if ctx.controller(w) != letter
                and not owners.get(w, set()) - {letter}]
    # NH-NOB-13: any other house's Noble.
    if kind == "assassination":
        if house["attempts"]["assassination"] >= caps["assassination"]:
            return []
        return [u for u in ctx.units_where(category="noble") if ctx.unit(u)["owner"] != letter]
    # NH-NOB-14, NH-NOB-15: any ally the house does not hold, unassigned ones too.
    if kind == "intrigue":
        if house["attempts"]["intrigue"] >= caps["intrigue"]:
            return []
        return [a for a in ctx.data.allies if a not in house["allies"]]
    # NH-NOB-17: any other house's army, jumpship or nuke.
    if kind == "sabotage":
        return [u for u in ctx.units_where(category=("army", "jumpship", "nuke"))
                if ctx.unit(u)["owner"] != letter]
    # NH-NOB-20, NH-NOB-21: one shift, up or down, a turn (several do not stack).
    if kind == "strategic_planning":
        return ["+1", "-1"] if house["planning"] == 0 else []
    raise ValueError(f"unknown noble action {kind!r}")


def _actor_targets(ctx: Ctx, letter: str) -> Iterator[tuple[str, str, list]]:
    """(actor, kind, targets) for every actor of the house and kind it may take."""
    # Only Govern's targets depend on the actor (its hex); the others are listed once.
    shared: dict[str, list] = {}
    for actor, kinds in actors(ctx, letter):
        for kind in kinds:
            if kind == "govern":
                yield actor, kind, targets(ctx, letter, actor, kind)
                continue
            if kind not in shared:
                shared[kind] = targets(ctx, letter, actor, kind)
            yield actor, kind, shared[kind]


def noble_actions_of(ctx: Ctx, letter: str) -> list[dict]:
    return [{"verb": "act", "actor": actor, "kind": kind, "target": t}
            for actor, kind, found in _actor_targets(ctx, letter) for t in found]


#: The kinds whose targets are quickest to find first: only whether there is one matters.
QUICK_FIRST = ("strategic_planning", "intrigue", "govern", "assassination", "sabotage",
               "diplomacy")


def has_noble_action(ctx: Ctx, letter: str) -> bool:
    """Whether the house has any Noble action now (``noble_actions_of`` is not empty)."""
    by_kind: dict[str, list[str]] = {}
    for actor, kinds in actors(ctx, letter):
        for kind in kinds:
            by_kind.setdefault(kind, []).append(actor)
    for kind in QUICK_FIRST:
        # Only Govern's targets depend on the actor; any actor of another kind will do.
        who = by_kind.get(kind, ()) if kind == "govern" else by_kind.get(kind, ())[:1]
        if any(targets(ctx, letter, actor, kind) for actor in who):
            return True
    return False


@procedure("noble_actions")
def noble_actions(ctx: Ctx, frame: dict) -> None:
    """Step 9 (NH-SEQ-2): house by house in initiative order, one action per answer, each
    result seen before the next choice (NH-NOB-9); Pyreen's holder gets its Diplomacy
    (NH-WORLD-6)."""
    houses = ctx.in_order()
    if "i" not in frame:
        frame["i"] = 0
        pyreen = ctx.controller("Pyreen") if "Pyreen" in ctx.state["worlds"] else None
        for letter in houses:
            ctx.house(letter)["pyreen"] = (
                ctx.data.worlds["Pyreen"].special.get("diplomacy", 0) if pyreen == letter else 0)
    if "answer" in frame:
        action = frame.pop("answer")
        letter = houses[frame["i"]]
        if action["verb"] == "done":
            frame["i"] += 1
        elif action["verb"] == "place":
            create_ally_units(ctx, letter, frame.pop("placing"), action["world"])
        else:
            frame["placing"] = resolve_action(ctx, letter, action)
            if frame["placing"] is None:
                del frame["placing"]
            if ctx.state["outcome"] is not None:
                ctx.pop()
                return
    if "placing" in frame:
        letter = houses[frame["i"]]
        ctx.ask("place", f"{letter}: choose the world where the units of {frame['placing']} "
                "appear", role=letter, rule="NH-NOB-15")
        return
    while frame["i"] < len(houses):
        letter = houses[frame["i"]]
        if ctx.house(letter)["alive"] and has_noble_action(ctx, letter):
            ctx.ask("noble_action", f"{letter}: Noble actions", role=letter, rule="NH-NOB-9")
            return
        frame["i"] += 1
    ctx.pop()


@legal("noble_action")
def legal_noble_action(ctx: Ctx, pending: dict) -> list[dict]:
    return noble_actions_of(ctx, pending["role"]) + [done()]


@check("noble_action")
def is_legal_noble_action(ctx: Ctx, pending: dict, action: dict) -> bool:
    """NH-NOB-10: the same answer as looking ``action`` up in ``legal_noble_action``, without
    listing every target of every actor (sabotage alone lists every enemy unit for each
    actor) or every actor (the one named is looked up)."""
    if action.get("verb") != "act":
        return action_in(action, [done()])
    if action.keys() != {"verb", "actor", "kind", "target"}:
        return False
    letter = pending["role"]
    kinds = actor_kinds(ctx, letter, action["actor"])
    if kinds is None or not isinstance(action["kind"], str) or action["kind"] not in kinds:
        return False
    if action["kind"] == "diplomacy":
        return _diplomacy_target(ctx, letter, action["target"])
    return any(same_json(action["target"], t)
               for t in targets(ctx, letter, action["actor"], action["kind"]))


def _diplomacy_target(ctx: Ctx, letter: str, world) -> bool:
    """Whether ``world`` is among Diplomacy's targets (``targets``), looking at that world
    only: not the house's own, and no other house's armies on it."""
    if not isinstance(world, str) or world not in ctx.data.worlds:
        return False
    if ctx.controller(world) == letter:
        return False
    where = ctx.state["map"]["worlds"].get(world)
    if where is None:
        return True
    is_army = ctx.data.army_types
    for u in ctx.state["units"].values():   # a plain loop: asked at every Diplomacy answer
        if u["hex"] == where and u["owner"] != letter and is_army[u["type"]]:
            return False
    return True


def use_actor(ctx: Ctx, letter: str, actor: str) -> None:
    house = ctx.house(letter)
    if actor == "pyreen":
        house["pyreen"] -= 1
    elif actor.startswith("ally:"):
        _, ally, kind = actor.split(":")
        house["ally_uses"][ally][kind] -= 1
    else:
        house["acted"].append(actor)


def resolve_action(ctx: Ctx, letter: str, action: dict) -> str | None:
    """Carry out one Noble action; returns an ally whose new units still need a world of the
    house's choice (NH-NOB-15), else None."""
    kind, target, actor = action["kind"], action["target"], action["actor"]
    use_actor(ctx, letter, actor)
    house = ctx.house(letter)
    who = actor if not actor.startswith("ally:") else actor.split(":")[1]
    label = kind.replace("_", " ").capitalize()
    if kind == "govern":                    # NH-NOB-18: automatic, the world's income +1
        ctx.state["worlds"][target]["govern"] = True
        ctx.note("NH-NOB-19", f"{who} governs {target}: its income is now "
                 f"{ctx.world_income(target)}", refs=[actor, target])
        return
    if kind == "strategic_planning":        # NH-NOB-20: automatic, next turn's initiative
        house["planning"] = 1 if target == "+1" else -1
        ctx.note("NH-NOB-21", f"{who}: Strategic Planning, {letter}'s next initiative roll "
                 f"{target}", refs=[actor])
        return
    if kind in house["attempts"]:
        house["attempts"][kind] += 1
    roll = ctx.d6("NH-NOB-7", f"{label} by {who} against {target}", refs=[actor, target])
    if roll > ctx.procedure["action_success_max"]:
        ctx.note("NH-NOB-10", f"{label} against {target} fails", refs=[actor, target])
        return
    if kind == "diplomacy":                 # NH-NOB-11, NH-NOB-12: control changes at once
        ctx.state["worlds"][target]["controller"] = letter
        ctx.note("NH-CTRL-3", f"Diplomacy succeeds: {letter} now controls {target}",
                 refs=[target])
        check_conquest(ctx, "NH-VIC-2")
    elif kind == "assassination":
        ctx.remove(target)
        ctx.note("NH-NOB-13", f"the Noble {target} is assassinated", refs=[target])
    elif kind == "sabotage":
        lost = ctx.remove(target)
        ctx.note("NH-NOB-17", f"sabotage destroys {ctx.list_units(lost)}", refs=lost)
    elif kind == "intrigue":
        return intrigue(ctx, letter, target)
    return None


def intrigue(ctx: Ctx, letter: str, ally: str) -> str | None:
    """NH-NOB-14, NH-NOB-15, NH-ALLY-13: the ally changes sides with its surviving units."""
    old = next((h for h in ctx.state["houses"] if ally in ctx.house(h)["allies"]), None)
    ctx.house(letter)["allies"].append(ally)
    if old is None:
        ctx.state["unassigned"].remove(ally)
        ctx.note("NH-NOB-15", f"Intrigue succeeds: the unassigned ally {ally} joins {letter}",
                 refs=[ally])
        world = new_units_world(ctx, letter)
        if world is not None:
            create_ally_units(ctx, letter, ally, world)
        elif ctx.worlds_of(letter) and ctx.data.allies[ally].units:
            return ally
        elif ctx.data.allies[ally].units:
            ctx.note("NH-NOB-15", f"{letter} holds no world: the units of {ally} are lost")
        return None
    lose_ally(ctx, old, ally)
    moved = []
    for uid, u in ctx.state["units"].items():
        if u["ally"] == ally and u["owner"] == old:
            u["owner"] = letter
            moved.append(uid)
    # Cargo that now belongs to another house than its ship gets off where it stands.
    for uid, u in ctx.state["units"].items():
        if u["ship"] is not None and ctx.unit(u["ship"])["owner"] != u["owner"]:
            u["ship"] = None
    ctx.note("NH-NOB-15", f"Intrigue succeeds: {ally} leaves {old} for {letter}"
             + (f" with {ctx.list_units(moved)}" if moved else ""), refs=[ally, *moved])
    return None


def create_ally_units(ctx: Ctx, letter: str, ally: str, world: str) -> None:
    made = [ctx.new_unit(letter, unit_type, ctx.world_hex(world), ally=ally)
            for unit_type, count in ctx.data.allies[ally].units.items() for _ in range(count)]
    if made:
        ctx.note("NH-NOB-15", f"{ally}'s units {ctx.list_units(made)} appear on {world}",
                 refs=made)


def lose_ally(ctx: Ctx, letter: str, ally: str) -> None:
    """NH-ALLY-13: income, benefits and buying right go at once; used benefits stand."""
    house = ctx.house(letter)
    house["allies"].remove(ally)
    house["ally_uses"].pop(ally, None)


# ------------------------------------------------------------------------ 10 Planet Control
@procedure("planet_control")
def planet_control(ctx: Ctx, frame: dict) -> None:
    """NH-CTRL-1, NH-CTRL-2, NH-CTRL-6: everyone disembarks; a world with the armies of one
    house only passes to it. Only worlds have a controller: jump stations, empty systems and
    stargates never do (NH-CTRL-5, NH-WORLD-7, NH-WORLD-8)."""
    ctx.pop()
    for u in ctx.state["units"].values():
        u["ship"] = None
    armies = ctx.world_army_owners()    # nobody moves while control changes: one pass
    for world in ctx.data.worlds:
        owners = armies.get(world, set())
        if len(owners) == 1:
            (owner,) = owners
            if ctx.controller(world) != owner:
                before = ctx.controller(world)
                ctx.state["worlds"][world]["controller"] = owner
                ctx.note("NH-CTRL-2", f"{owner} takes control of {world}"
                         + (f" from {before}" if before else ""), refs=[world])


# ============================================================================ end of turn
def tracks(ctx: Ctx) -> dict:
    """Per house: worlds, income, Solats, units and whether it still plays (the simulate
    log's turn and final lines)."""
    out: dict = {"turn": ctx.state["turn"]}
    for letter, house in ctx.state["houses"].items():
        if house["homeworld"] is not None:
            out[letter] = {"worlds": len(ctx.worlds_of(letter)), "income": ctx.income(letter),
                           "solats": house["solats"], "units": len(ctx.units_where(letter)),
                           "alive": house["alive"]}
    return out


def check_conquest(ctx: Ctx, rule: str) -> bool:
    """NH-VIC-1: a house holding every world wins."""
    need = ctx.procedure["worlds_to_win"]
    for letter in ctx.alive():
        if len(ctx.worlds_of(letter)) >= need:
            finish(ctx, [letter], "conquest", rule,
                   f"{ctx.house_name(letter)} ({letter}) controls every world")
            return True
    return False


def finish(ctx: Ctx, winners: list[str], how: str, rule: str, text: str) -> None:
    ctx.state["outcome"] = {"result": f"{''.join(winners)}-{how}", "winners": winners,
                            "how": how, "turn": ctx.state["turn"]}
    ctx.note(rule, text, kind="outcome")


def eliminate(ctx: Ctx, letter: str) -> None:
    """NH-VIC-3: no world and no army: out, with everything it has left; its allies become
    unassigned."""
    house = ctx.house(letter)
    house["alive"] = False
    gone = [u for u, row in ctx.state["units"].items() if row["owner"] == letter]
    for uid in gone:
        if uid in ctx.state["units"]:
            ctx.remove(uid)
    for ally in list(house["allies"]):
        lose_ally(ctx, letter, ally)
        ctx.state["unassigned"].append(ally)
    ctx.note("NH-VIC-3", f"{ctx.house_name(letter)} ({letter}) holds no world and no army: "
             "it is eliminated")


def turn_limit(ctx: Ctx) -> int | None:
    """NH-VIC-5, NH-VIC-6: the option's limit, or the unattended one with no human seat."""
    limit = ctx.state["options"].get("turn_limit")
    if limit:
        return int(limit)
    if not any(h["player"] == "human" for h in ctx.state["houses"].values()):
        return ctx.data.scenario()["options"]["turn_limit"]["unattended"]
    return None


def end_of_turn(ctx: Ctx) -> None:
    """The end-of-turn checks (NH-VIC-2): conquest (NH-VIC-1), elimination (NH-VIC-3), the
    last house (NH-VIC-4) and the turn limit (NH-VIC-5, NH-VIC-6); then NH-SEQ-6."""
    if check_conquest(ctx, "NH-VIC-2"):
        return
    for letter in ctx.alive():
        if not ctx.worlds_of(letter) and not ctx.armies(letter):
            eliminate(ctx, letter)
    alive = ctx.alive()
    if len(alive) == 1:
        finish(ctx, alive, "last-house", "NH-VIC-4",
               f"{ctx.house_name(alive[0])} ({alive[0]}) is the last house standing")
        return
    if not alive:
        finish(ctx, [], "none", "NH-VIC-3", "every house is eliminated")
        return
    limit = turn_limit(ctx)
    if limit is not None and ctx.state["turn"] >= limit:
        def standing(h):
            return (ctx.income(h), len(ctx.worlds_of(h)), ctx.house(h)["solats"])
        best = max(standing(h) for h in alive)
        winners = [h for h in alive if standing(h) == best]
        finish(ctx, winners, "turn-limit", "NH-VIC-5",
               f"the turn limit ({limit}) is reached: " + " and ".join(
                   f"{ctx.house_name(h)} ({h})" for h in winners)
               + f" {'wins' if len(winners) == 1 else 'share the win'} with an income of "
               f"{best[0]}")
        return
    reset_turn(ctx)


def reset_turn(ctx: Ctx) -> None:
    """NH-SEQ-6: flags and per-turn counters go back to zero; the allies' uses are renewed."""
    for u in ctx.state["units"].values():
        u["moved"] = u["fought"] = False
    for letter in ctx.alive():
        house = ctx.house(letter)
        house["attempts"] = {k: 0 for k in house["attempts"]}
        house["bought"] = {}
        house["acted"] = []
        house["aristocracy"] = None
        house["pyreen"] = 0
        house["ally_uses"] = ally_uses(ctx, letter)
    ctx.state["arrivals"] = {}


def ally_uses(ctx: Ctx, letter: str) -> dict:
    """This turn's uses of each ally's action benefits (NH-ALLY-7, NH-ALLY-8)."""
    uses = {}
    for ally in ctx.house(letter)["allies"]:
        kinds = {k: n for k, n in ctx.data.allies[ally].benefits.items()
                 if k in ALLY_KINDS and n > 0}
        if kinds:
            uses[ally] = kinds
    return uses
