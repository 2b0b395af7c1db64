"""What the Battles screen draws, as plain data read from one player's view.

``board(game, state, seat)`` starts from ``view(state, seat)`` (so nothing private of the other
player can reach the screen, BFG-HID-3) and arranges it for drawing: the six regions with their
value chits and fleets, each side's display and pools, the Chaos Index with this turn's
thresholds, the seat's hand, the fight in progress and the prompt with a label for every legal
answer (short: what it does and where) and, for some, a longer ``tip``. ``seat`` is ``"blue"``, ``"red"`` or ``"public"`` (the shared screen of a hot-seat game
while the seat is being handed over).
"""

from __future__ import annotations

from struggle_desktop.engine.words import with_article
from struggle_desktop.games.battles.context import SHORT, SIDE_NAMES, Ctx, chit_type
from struggle_desktop.games.battles.registry import PROCEDURES

PHASE_NAMES = {"setup": "Set-up", "start": "Start of turn", "draw": "Action Chit Draw",
               "deploy": "Deployment", "actions": "Actions", "politics": "Politics",
               "build": "Build", "victory": "Victory check"}
TYPE_NAMES = {"SF": "Star Fleet", "CG": "Control Group", "AF": "Alpha Fleet",
              "IO": "Imperial Order", "WS": "World Ship", "TH": "Trans-human"}
CHIT_EFFECTS = {
    "Build": "1 RP for each region you control now, for this turn's Build phase",
    "Move": "move your Alpha Fleets and Imperial Orders from one unresolved region to another",
    "Tactical": "one fleet (not a World Ship) rolls an extra die until the end of the turn",
    "Illumination": "recruit a Trans-human into a region, or move the Chaos Index by a d6",
    "Repression": "cancel a chit the other player has just played",
}


def map_layout(game) -> dict:
    """The regions in their d6 order, laid out three by two."""
    return {"regions": [{"number": n, "name": name, "column": (n - 1) % 3, "row": (n - 1) // 3}
                        for n, name in sorted(game.data.region_names.items())]}


def board(game, state: dict, seat: str) -> dict:
    view = game.view(state, seat)
    ctx = Ctx(view, PROCEDURES, game.data)
    fleets = {fid: fleet_entry(ctx, fid) for fid in view["fleets"]}
    regions = []
    for n in range(1, 7):
        region = ctx.region(n)
        values = {slot: (ctx.slot_value(n, slot) if region[slot] else None) for slot in "CPR"}
        regions.append({
            "number": n, "name": ctx.region_name(n), **values,
            "upgraded": {slot: bool(region[slot] and region[slot]["plus"]) for slot in "CPR"},
            "resolved": region["resolved"], "controller": region["controller"],
            "deployed": {side: ctx.fleets_where(side, "map", region=n) for side in SHORT},
            "garrison": {side: ctx.fleets_where(side, "garrison", region=n) for side in SHORT},
            "tooltip": region_tooltip(ctx, n),
        })
    players = {}
    for side, player in view["players"].items():
        force = {}
        for fid in ctx.fleets_where(side, "pool"):
            code = view["fleets"][fid]["type"]
            force[code] = force.get(code, 0) + 1
        players[side] = {
            "name": SIDE_NAMES[side], "rp": player["rp"], "banked": player["banked"],
            "display": ctx.fleets_where(side, "display"),
            "force_pool": force, "th_supply": len(ctx.fleets_where(side, "supply")),
            "hand_count": len(player["hand"]) if "hand" in player else player["hand_count"],
            "chits": list(player["hand"]) if "hand" in player else None,   # if visible
            "own_chits": player["own_chits_count"],
            "plan": {fid: r for fid, r in player.get("deploy", [])},
        }
    # This turn's thresholds (BFG-VIC-3); during the set-up (turn 0) those of turn 1, the
    # first that is checked, and past the last turn the last turn's.
    rows = game.data.victory_rows
    row = rows.get(view["turn"]) or rows[min(rows) if view["turn"] < min(rows) else max(rows)]
    hand = None
    if seat in SHORT:
        hand = [{"chit": c, "type": chit_type(c), "effect": CHIT_EFFECTS[chit_type(c)]}
                for c in view["players"][seat]["hand"]]
    return {
        "game": "battles", "seat": seat, "turn": view["turn"],
        "last_turn": game.data.procedure["last_turn"],
        "phase": view["phase"], "phase_name": PHASE_NAMES.get(view["phase"], view["phase"]),
        "ci": view["ci"], "thresholds": {"red_at_most": row["red_at_most"],
                                         "blue_at_least": row["blue_at_least"]},
        "regions": regions, "fleets": fleets, "players": players,
        "common_pool": ctx.fleets_where(None, "common"),
        "chit_pool_count": view["chit_pool_count"], "hand": hand,
        "to_act": view.get("to_act"), "last_chit": view.get("last_chit"),
        "battle": battle_entry(ctx, view.get("battle")),
        "prompt": prompt_entry(game, state, view, seat),
        "waiting_for": (view["pending"] or {}).get("role"),
        "outcome": outcome_entry(view.get("outcome")),
        "log_size": len(state["log"]),
    }


def fleet_entry(ctx: Ctx, fid: str) -> dict:
    f = ctx.fleet(fid)
    mil, morph = ctx.value(fid, "mil"), ctx.value(fid, "morph")
    converted = f["owner"][0].upper() != fid[0]
    lines = [f"{fid}: {TYPE_NAMES[f['type']]} of {SIDE_NAMES[f['owner']]}"
             + (" (converted)" if converted else ""),
             f"Military {mil}, Morph {morph}" + (" (Trans-human values follow the Chaos Index)"
                                                 if f["type"] == "TH" else "")]
    if f["tactical"]:
        lines.append(f"Carries {f['tactical']}: one extra die when it fires")
    if f["hits"]:
        lines.append(f"Hits taken: {f['hits']}")
    return {"id": fid, "type": f["type"], "owner": f["owner"], "mil": mil, "morph": morph,
            "at": f["at"], "region": f["region"], "tactical": f["tactical"], "hits": f["hits"],
            "converted": converted, "label": ctx.fleet_label(fid), "tooltip": "\n".join(lines)}


def region_tooltip(ctx: Ctx, n: int) -> str:
    region = ctx.region(n)
    if region["C"] is None:
        return ctx.region_name(n)
    text = (f"{n}. {ctx.region_name(n)}: Combat {ctx.slot_value(n, 'C')} (a garrison needs more), "
            f"Political {ctx.slot_value(n, 'P')}, Resource {ctx.slot_value(n, 'R')}")
    if region["controller"]:
        text += f"\nControlled by {SIDE_NAMES[region['controller']]}"
    if region["resolved"]:
        text += "\nResolved this turn"
    return text


def battle_entry(ctx: Ctx, battle: dict | None) -> dict | None:
    if not battle:
        return None
    n = battle["region"]
    return {"region": n, "name": ctx.region_name(n), "resolver": battle["resolver"],
            "round": battle["round"], "segment": battle["segment"],
            "firing": {side: ctx.in_region(n, side) for side in SHORT},
            "targets": battle["targets"], "results": battle["results"],
            "removed": battle.get("removed", []), "garrison": battle["garrison"],
            "disengaged": battle["disengaged"], "combat": ctx.slot_value(n, "C")}


def prompt_entry(game, state: dict, view: dict, seat: str) -> dict | None:
    pending = view.get("pending")
    if not pending or pending["role"] != seat or view.get("outcome"):
        return None
    ctx = Ctx(state, PROCEDURES, game.data)       # one context for every label
    actions = []
    for a in view["legal_actions"]:
        label, tip = words(game, ctx, a)
        actions.append({"action": a, "label": label, "map": a["verb"] in MAP_VERBS,
                        **({"tip": tip} if tip else {})})
    return {"kind": pending["kind"], "text": pending["text"], "rule": pending.get("rule", ""),
            "role": pending["role"], "actions": actions}


#: Answers the screen also takes as a drag or a click on the board.
MAP_VERBS = ("assign", "unassign", "target", "resolve", "garrison_add", "garrison_remove",
             "lose", "place")


def outcome_entry(outcome: dict | None) -> dict | None:
    if not outcome:
        return None
    return {**outcome, "text": f"{SIDE_NAMES[outcome['winner']]} wins on turn {outcome['turn']} "
                              f"with the Chaos Index at {outcome['ci']}"}


def describe_action(game, state: dict, action: dict, ctx: Ctx | None = None) -> str:
    """A legal action in a player's words (``ctx``: a context already open on ``state``)."""
    return words(game, ctx or Ctx(state, PROCEDURES, game.data), action)[0]


def battle_region(ctx: Ctx) -> str:
    """The region of the fight in progress, by name ("" when there is none)."""
    battle = ctx.state.get("battle")
    return ctx.region_name(battle["region"]) if battle else ""


def fleet_where(ctx: Ctx, fid: str) -> str:
    """``R-AF1 in Tau`` for a fleet on the map, its label alone elsewhere."""
    f = ctx.fleet(fid)
    region = f.get("region")
    return (f"{ctx.fleet_label(fid)} in {ctx.region_name(region)}" if region
            and f.get("at") in ("map", "garrison") else ctx.fleet_label(fid))


def play_words(ctx: Ctx, action: dict) -> tuple[str, str]:
    """A chit played (BFG-CHIT): a short label naming the chit and where it acts, and what it
    does in full."""
    chit = action["chit"]
    kind = chit_type(chit)
    name = ctx.region_name
    if kind == "Move":
        a, b = name(action["from"]), name(action["to"])
        return (f"Play {chit}: from {a} to {b}",
                f"Move your Alpha Fleets and Imperial Orders deployed in {a} to {b} (you "
                "choose which go).")
    if kind == "Tactical":
        return (f"Play {chit} on {fleet_where(ctx, action['fleet'])}",
                f"{ctx.fleet_label(action['fleet'])} rolls an extra die when it fires, until "
                "the end of the turn.")
    if kind == "Illumination":
        if action.get("effect") == "ci":
            return (f"Play {chit}: shift the Chaos Index",
                    "Move the Chaos Index by a d6, toward your side.")
        return (f"Play {chit}: a Trans-human into {name(action['region'])}",
                f"Recruit a Trans-human from your supply into {name(action['region'])}.")
    return (f"Play {chit}: 1 RP per region you control",
            f"Bank {CHIT_EFFECTS['Build']}.")


def words(game, ctx: Ctx, action: dict) -> tuple[str, str | None]:
    """An answer's label (short: what it does and where) and its longer explanation, or
    None when the label says it all. Every answer of one prompt gets a label of its own."""
    verb = action["verb"]
    name = ctx.region_name
    pending = ctx.state.get("pending") or {}
    fleet = action.get("fleet")
    if verb == "resolve":
        return (f"Resolve {name(action['region'])}",
                f"Fight out or settle {name(action['region'])} now; it is then resolved for "
                "this turn.")
    if verb == "play":
        return play_words(ctx, action)
    if verb == "deploy_th":
        return f"Bring {ctx.list_fleets(action['fleets'])} into {name(action['region'])}", None
    if verb == "assign":
        return f"Deploy {ctx.fleet_label(fleet)} to {name(action['region'])}", None
    if verb == "unassign":
        return f"Keep {ctx.fleet_label(fleet)} back on the display", None
    if verb == "target":
        shot = " with its single shot (+4)" if action.get("shot") == "single" else ""
        return (f"{ctx.fleet_label(action['firer'])} fires at "
                f"{ctx.fleet_label(action['target'])}{shot}", None)
    if verb == "untarget":
        return f"Choose another target for {ctx.fleet_label(action['firer'])}", None
    if verb == "segment":
        seg = "Military" if action["segment"] == "mil" else "Morph"
        return f"Extra die of {ctx.fleet_label(fleet)} in the {seg} segment", None
    here = battle_region(ctx)
    if verb == "garrison_add":
        return f"Add {ctx.fleet_label(fleet)} to the garrison of {here}", None
    if verb == "garrison_remove":
        return f"Take {ctx.fleet_label(fleet)} out of the garrison of {here}", None
    if verb == "garrison_done":
        return (f"Garrison {here} with the chosen fleets",
                "The chosen fleets stay as the region's garrison; the others return to base.")
    if verb == "no_garrison":
        return f"No garrison in {here}: every fleet returns to base", None
    if verb == "lose":
        return f"Lose {ctx.fleet_label(fleet)} to pursuit fire in {here}", None
    if verb == "stay":
        return f"Stay and fight in {here}", None
    if verb == "disengage":
        return f"Disengage from {here} (back to base)", None
    if verb == "pursue":
        return f"Pursue from {here} with Alpha Fleets", None
    if verb == "no_pursuit":
        return f"Let them leave {here} unpursued", None
    if verb == "move":
        origin, to = pending.get("origin"), pending.get("destination")
        if not action["fleets"]:
            return (f"Move no fleet: all stay in {name(origin)}" if origin
                    else "Move no fleet"), None
        return (f"Move {ctx.list_fleets(action['fleets'])}"
                + (f" to {name(to)}" if to else "")), None
    if verb == "discard":
        return f"Set {action['chit']} aside", None
    if verb == "keep":
        return f"Keep {action['chit']} in the hand", None
    if verb == "repress":
        return f"Repress {pending.get('chit', 'it')} with {action['chit']}", None
    if verb == "pass":
        return f"Let {pending.get('chit', 'it')} happen", None
    if verb == "build":
        ftype = game.data.fleet_types[action["type"]]
        source = " from the common pool" if pending.get("source") == "common" else ""
        return (f"Build {with_article(TYPE_NAMES[action['type']])}{source} for {ftype.cost} RP",
                None)
    if verb == "place":
        cost = game.data.fleet_types[action["type"]].cost
        return (f"Place {with_article(TYPE_NAMES[action['type']])} in "
                f"{name(action['region'])} ({cost} of its budget)", None)
    if verb == "unplace":
        return f"Take {fleet_where(ctx, fleet)} back to the force pool", None
    if verb == "garrison":
        region = name(action["region"])
        return ((f"Garrison {region} with its fleets", None) if action["on"]
                else (f"Leave {region} without a garrison", None))
    if verb == "done":
        return DONE_LABELS.get(pending.get("kind"), "Done"), None
    return verb.replace("_", " ").capitalize(), None


#: "done" in the words of the step it ends.
DONE_LABELS = {"deploy": "Done deploying", "build": "Done building",
               "discard": "Done discarding", "defend": "Done setting up the defence"}
