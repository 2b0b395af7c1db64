"""What the desktop window shows of a Struggle position, as plain data.

The Qt layer never reads rules internals (ARCHITECTURE.md section 1): it asks the game for a
``board`` (every piece on the map with its label, values and tooltip, the tracks, the cup, the
prompt with a readable label for each legal action) and for the ``map_layout`` (polygons and
names). Everything here is derived from the state; nothing changes it.

>>> from struggle_desktop.games.struggle import GAME
>>> state = GAME.advance(GAME.setup("3", seed=1))
>>> b = GAME.board(state, "imperial")
>>> b["turn"], b["prompt"]["kind"]
(0, 'setup_placement')
>>> core = b["sectors"][1]
>>> core["name"], core["owner"]
('Imperial Core', 'imp')
"""

from __future__ import annotations

from struggle_desktop.engine.words import counted, with_article
from struggle_desktop.games.struggle import combat
from struggle_desktop.games.struggle.chaos_ops import actor_units
from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx, fmt_sector
from struggle_desktop.games.struggle.imperial import extropy_cost
from struggle_desktop.games.struggle.turn import PHASES

SIDE_NAMES = {IMP: "Imperial", CHAOS: "Chaos"}
FORCE_LABELS = {"usurper": "Usurper", "mutant": "Mutant", "invader": "Invader", "ie": "IE"}
COMBAT_NAMES = {"mil": "military", "morph": "morphogenetic"}

#: Prompt kinds whose answers are mostly "put this piece in that sector": the window offers
#: them on the map (drag a counter, click a sector) as well as in the decision list.
MAP_VERBS = {"place", "place_nexus", "place_leader", "move", "move_stack", "buy_unit", "buy_marker", "attack", "corps",
             "found", "alliance_move"}


# ------------------------------------------------------------------------------ map
def map_layout(game) -> dict:
    """Polygons, names and label points of every sector and Void cell, in map units: what the
    map display draws (SGE-MAP-16), with each sector's neighbours for the window to show."""
    g = game.data.galaxy
    return {
        "title": g.title,
        "canvas": list(g.canvas),
        "core": g.core,
        "sectors": [{"number": n, "name": g.name[n], "arm": g.arm[n],
                     "system": g.is_system[n], "core": n == g.core,
                     "polygon": g.polygon[n], "label_at": list(g.label_at[n]),
                     "neighbours": list(g.neighbours[n])} for n in g.numbers],
        "voids": [{"id": k, "polygon": poly} for k, poly in sorted(g.void_cells.items())],
    }


# ------------------------------------------------------------------------------ pieces
def _factor_text(ctx: Ctx, uid: str) -> str:
    """Factors as printed on a counter: mil-morph-MA, defence-only ones in parentheses."""
    u = ctx.units[uid]
    t = ctx.data.unit_types[u["type"]]
    mil = ctx.factor(uid, "mil")
    morph = ctx.factor(uid, "morph")
    mil_s = f"({mil})" if t.mil_paren else str(mil)
    morph_s = f"({morph})" if t.morph_paren else str(morph)
    return f"{mil_s}-{morph_s}-{t.ma}"


def _unit_piece(ctx: Ctx, uid: str, forces: dict) -> dict:
    u = ctx.units[uid]
    t = ctx.data.unit_types[u["type"]]
    owner = SIDE_NAMES[u["side"]]
    if u["side"] == CHAOS:
        owner = (ctx.force_name(u["force"]) if u["force"] in forces else "Rebels")
    lines = [f"{t.name} {uid} ({owner})", f"military {ctx.factor(uid, 'mil')}, "
             f"morphogenetic {ctx.factor(uid, 'morph')}, movement {t.ma}"]
    if t.mil_paren or t.morph_paren:
        lines.append("factors in parentheses count only in defence")
    if u.get("leader"):
        lines.append(f"carries an Imperial leader of value {u['leader']}")
    return {"id": uid, "kind": "unit", "type": u["type"], "side": u["side"],
            "sector": u["loc"], "label": u["type"], "values": _factor_text(ctx, uid),
            "leader": u.get("leader"), "force": u["force"], "tooltip": "\n".join(lines)}


def _system_piece(ctx: Ctx, n: int, s: dict) -> dict:
    mil, morph, _rv = ctx.system_values(s)
    rv = ctx.effective_rv(s)
    owner = SIDE_NAMES[s["side"]] + (f", Independent Empire #{s['ie']}" if s.get("ie") else "")
    tip = [f"System unit {s['id']} in {fmt_sector(n)} ({owner})",
           f"military {mil}, morphogenetic {morph}, resource value {rv}"]
    if s.get("irs"):
        tip.append("Increased Resources marker: RV + 1")
    return {"id": f"system:{n}", "kind": "system", "type": "system", "side": s["side"],
            "sector": n, "label": s["id"], "values": f"{mil}-{morph}", "rv": rv,
            "ie": s.get("ie"), "tooltip": "\n".join(tip)}


def _force_piece(ctx: Ctx, fid: str, f: dict, n: int) -> dict:
    label = FORCE_LABELS.get(f["kind"], f["kind"])
    if f["kind"] == "ie":
        label = f"IE {f['ie']}"
    return {"id": f"force:{fid}", "kind": "force", "type": f["kind"], "side": CHAOS,
            "sector": n, "label": label, "values": f"L{f['leader']}" if f.get("leader") else "",
            "force": fid, "tooltip": f"{ctx.force_name(fid)}: leader value {f.get('leader')}, "
            f"{len(ctx.force_units(fid))} unit(s)"}


def _marker_piece(kind: str, n: int, label: str, tooltip: str, side: str = IMP,
                  key: str = "") -> dict:
    return {"id": f"{kind}:{n}{key}", "kind": kind, "type": kind, "side": side, "sector": n,
            "label": label, "values": "", "tooltip": tooltip}


def pieces(ctx: Ctx) -> list[dict]:
    """Every counter and marker on the map, systems first, then forces and their units."""
    st = ctx.state
    forces = st["forces"]
    out = [_system_piece(ctx, int(k), s) for k, s in sorted(ctx.systems.items(),
                                                             key=lambda kv: int(kv[0]))]
    for fid, f in forces.items():
        n = ctx.force_location(fid)
        if n is not None:
            out.append(_force_piece(ctx, fid, f, n))
    out.extend(_unit_piece(ctx, uid, forces) for uid, u in ctx.units.items()
               if u["loc"] is not None)
    markers = ctx.data.markers
    for k, a in enumerate(st["aliens"]):
        name = markers.get(a["kind"], {}).get("name", a["kind"])
        out.append(_marker_piece("alien", a["loc"], name.split("—")[-1], f"{name} (since turn "
                                 f"{a.get('placed')})", side="alien", key=f":{k}"))
    for n in st["nexus"]:
        out.append(_marker_piece("nexus", n, "Nexus", f"Imperial Nexus in {fmt_sector(n)}"))
    for n in st["stargates"]:
        out.append(_marker_piece("stargate", n, "Gate", f"Stargate in {fmt_sector(n)}"))
    for inst in st["institutes"]:
        n = inst["loc"]
        out.append(_marker_piece("institute", n, "Inst.", f"The Institute in {fmt_sector(n)}"))
    for n in sorted(set(st["expedition_sites"])):
        out.append(_marker_piece("expedition", n, "Exp.", f"Possible expedition site in "
                                 f"{fmt_sector(n)}"))
    return out


# ------------------------------------------------------------------------------ sectors
def sectors(ctx: Ctx, placed: list[dict]) -> dict[int, dict]:
    g = ctx.galaxy
    out: dict[int, dict] = {}
    for n in g.numbers:
        s = ctx.system_at(n)
        out[n] = {"number": n, "name": g.name[n], "arm": g.arm[n], "system": g.is_system[n],
                  "owner": s["side"] if s else None, "ie": ctx.ie_of_sector(n),
                  "pieces": [], "tooltip": ""}
    for p in placed:
        if p["sector"] in out:
            out[p["sector"]]["pieces"].append(p["id"])
    by_id = {p["id"]: p for p in placed}
    for n, sec in out.items():
        lines = [f"{fmt_sector(n)} {sec['name']} ({sec['arm']} arm)" if sec["arm"] != "Core"
                 else f"{fmt_sector(n)} {sec['name']}"]
        if not sec["system"]:
            lines.append("no system")
        elif sec["owner"] is None:
            lines.append("empty system sector")
        if sec["ie"]:
            lines.append(f"part of Independent Empire #{sec['ie']}")
        imp = sum(1 for pid in sec["pieces"] if by_id[pid]["kind"] == "unit"
                  and by_id[pid]["side"] == IMP)
        chaos = sum(1 for pid in sec["pieces"] if by_id[pid]["kind"] == "unit"
                    and by_id[pid]["side"] == CHAOS)
        for pid in sec["pieces"]:
            if by_id[pid]["kind"] not in ("unit",):
                lines.append(by_id[pid]["tooltip"].split("\n")[0])
        if imp or chaos:
            lines.append(f"{imp} Imperial and {chaos} Chaos mobile unit(s)")
        sec["tooltip"] = "\n".join(lines)
    return out


# ------------------------------------------------------------------------------ tracks
def ci_bands(data) -> list[dict]:
    """The events-per-round bands of the CI track (SGE-CI-10)."""
    bands, low = [], 0
    for row in data["ci_track"]["markers_per_round"]:
        high = row["ci_max"] if row["ci_max"] is not None else 100
        bands.append({"from": low, "to": high, "markers": row["markers"]})
        low = high
    return bands


def drawn_this_turn(ctx: Ctx) -> list[dict]:
    """The chaos event markers drawn this turn, oldest first, with the project's summary."""
    markers = ctx.data.markers
    turn = ctx.state["turn"]
    out = []
    # The log is in turn order: read back from the end to the turn's start only (a board is
    # made after every automated step the window shows, and a long game logs thousands).
    for e in reversed(ctx.state["log"]):
        if e["turn"] != turn:
            break
        if e["rule"] == "SGE-POOL-2" and e["refs"]:
            m = markers.get(e["refs"][0])
            if m is not None:
                out.append({"id": m["id"], "name": m["name"], "effect": m.get("effect", ""),
                            "rule": m.get("rule", "")})
    out.reverse()
    return out


def effects_in_play(ctx: Ctx) -> list[dict]:
    markers = ctx.data.markers
    # Leviathan stays on the Core rather than in the effects list, but acts as one.
    in_play = list(ctx.state["effects"]) + (["LEVIATHAN"] if ctx.state["leviathan"] else [])
    return [{"id": m, "name": markers.get(m, {}).get("name", m.capitalize()),
             "effect": markers.get(m, {}).get("effect", "")} for m in in_play]


# ------------------------------------------------------------------------------ actions
#: Answers whose words do not depend on the position.
FIXED_LABELS = {"auto_place": "Let the program place everything",
                "pay": "Pay the maintenance", "accept_leviathan": "Accept Leviathan on the Core",
                "return_leviathan": "Send Leviathan back to the pool"}
#: "done" in the words of the step it ends.
DONE_LABELS = {"recruitment": "Done recruiting", "movement": "Done moving",
               "combat": "No more attacks: end the combat phase",
               "colonization": "Done colonizing", "end_of_turn": "End the turn"}
#: The longer explanation of some answers, shown as the entry's tooltip (``tip``).
TIPS = {
    "auto_place": "The program places every starting unit, leader and Nexus marker left to "
                  "place, as the scenario allows.",
    "pay": "Pay the maintenance bill from the Resource Points and keep every unit.",
    "accept_leviathan": "While the Core stays Imperial, every Chaos Index change is halved.",
}
MARKER_LABELS = {"nexus": "Nexus", "stargate": "Stargate", "illumination": "Illumination",
                 "repression": "Repression", "increased_resources": "Increased Resources"}


def sector_words(ctx: Ctx, n: int | None) -> str:
    """``sector 12 Cassiopeia``: a sector as the answers name it."""
    if not isinstance(n, int):
        return f"sector {n}"
    return f"sector {fmt_sector(n)} {ctx.galaxy.name.get(n, '')}".rstrip()


def type_name(ctx: Ctx, code: str | None) -> str:
    """A unit type's full name ("Star Fleet"), the code itself if the type is unknown."""
    t = ctx.data.unit_types.get(code or "")
    return t.name if t else str(code)


def unit_words(ctx: Ctx, uid: str | None, where: bool = True) -> str:
    """``AF-11 (Alpha Fleet in sector 17 Cygnus)``; without the sector when ``where`` is
    False or the unit is off the map."""
    u = ctx.units.get(uid or "")
    if u is None:
        return str(uid)
    loc = f" in {sector_words(ctx, u['loc'])}" if where and u["loc"] is not None else ""
    return f"{uid} ({type_name(ctx, u['type'])}{loc})"


def event_name(ctx: Ctx, pending: dict) -> str:
    """The chaos event marker a prompt is about, by its name."""
    marker = pending.get("marker")
    return ctx.data.markers.get(marker, {}).get("name", "the event") if marker else "the event"


def allied_sector(ctx: Ctx, pending: dict) -> int | None:
    """Where the force commanded through Alliance stands (the prompt's ``actor``)."""
    actor = pending.get("actor")
    units = actor_units(ctx, actor) if actor else []
    return ctx.units[units[0]]["loc"] if units else None


def describe_action(game, state: dict, action: dict) -> str:
    """One legal action in a player's words, for buttons and the decision list."""
    return describe(game.context(state), action)


def describe(ctx: Ctx, action: dict) -> str:
    """``describe_action`` on a context already open on the position."""
    return words(ctx, action)[0]


def words(ctx: Ctx, action: dict) -> tuple[str, str | None]:
    """An answer's label (short: what it does and where) and its longer explanation, or
    None when the label says it all. Every answer of one prompt gets a label of its own."""
    verb = action.get("verb", "?")
    pending = ctx.state.get("pending") or {}
    at = action.get("at")
    where = f" in {sector_words(ctx, at)}" if isinstance(at, int) else ""
    unit = action.get("unit")

    if verb == "done":
        return DONE_LABELS.get(pending.get("kind"), "Done: end this step"), None
    if verb == "place":
        return f"Place {unit_words(ctx, unit, where=False)}{where}", None
    if verb == "place_nexus":
        return (f"Place a Nexus marker{where}",
                "A starting Nexus marker: never in or next to a sector that has one.")
    if verb == "place_leader":
        value = action.get("value", pending.get("leader"))
        leader = f"the value-{value} leader" if value is not None else "the new leader"
        return f"Give {leader} to {unit_words(ctx, unit)}", None
    if verb == "move":
        u = ctx.units.get(unit or "")
        tip = (f"Move {unit} from {sector_words(ctx, u['loc'])} to "
               f"{sector_words(ctx, action['to'])}." if u and u["loc"] is not None else None)
        return (f"Move {unit_words(ctx, unit, where=False)} to "
                f"{sector_words(ctx, action['to'])}", tip)
    if verb == "move_stack":
        return (f"Move the stack from {sector_words(ctx, action['from'])} to "
                f"{sector_words(ctx, action['to'])}",
                f"Every unit in {sector_words(ctx, action['from'])} that can reach "
                f"{sector_words(ctx, action['to'])} moves there.")
    if verb == "move_leader":
        return (f"Pass the leader of {unit_words(ctx, unit)} to {action.get('to_unit')}",
                None)
    if verb == "buy_unit":
        t = ctx.data.unit_types.get(action.get("type", ""))
        cost = f" for {t.cost} RP" if t else ""
        return f"Recruit {with_article(type_name(ctx, action.get('type')))}{where}{cost}", None
    if verb == "buy_marker":
        name = MARKER_LABELS.get(action.get("marker"), str(action.get("marker")))
        place = where or " for the Markers Available box"
        return f"Buy {with_article(name)} marker{place}", None
    if verb == "attack":
        kind = COMBAT_NAMES.get(action.get("type"), str(action.get("type")))
        return (f"Make {with_article(kind)} attack{where}",
                f"Your units{where} attack with their {kind} factors; the odds show before "
                "the roll.")
    if verb == "corps":
        return f"Take a free {type_name(ctx, action.get('type'))}{where}", None
    if verb == "crusade":
        raised = [counted(action.get(code, 0), type_name(ctx, code.upper()))
                  for code in ("sf", "cg") if action.get(code)]
        return f"Raise {' and '.join(raised)}{where}", None
    if verb == "disband":
        return (f"Disband {unit_words(ctx, unit)}",
                "The unit goes back to the counter mix; its maintenance is not owed.")
    if verb == "drop_nexus":
        return (f"Give up the Nexus{where}",
                "The Nexus marker leaves the map; its maintenance is not owed.")
    if verb == "leave_unpaid":
        if "sector" in action:
            return f"Leave the system in {sector_words(ctx, action['sector'])} unpaid", None
        return f"Leave {unit_words(ctx, unit)} unpaid", None
    if verb == "commit_leader":
        return f"Commit the leader of {unit_words(ctx, unit)}", None
    if verb == "no_leader":
        alien = pending.get("at")
        return ("Commit no leader" + (f" in {sector_words(ctx, alien)}"
                                      if isinstance(alien, int) else ""), None)
    if verb == "alliance":
        kind = action.get("kind")
        who = ("the Rebels" if kind == "rebel" else
               ctx.force_name(action["force"]) if action.get("force") in ctx.state["forces"]
               else str(kind))
        return f"Command {who} in {sector_words(ctx, action['sector'])}", None
    if verb == "alliance_move":
        here = allied_sector(ctx, pending)
        if action["to"] == here:
            return f"Keep the allied force in {sector_words(ctx, here)}", None
        return f"Move the allied force to {sector_words(ctx, action['to'])}", None
    if verb in ("alliance_attack", "no_attack"):
        here = allied_sector(ctx, pending)
        place = f" in {sector_words(ctx, here)}" if here is not None else ""
        return ((f"Attack the Imperial units{place}" if verb == "alliance_attack"
                 else f"Do not attack{place}"), None)
    if verb == "found":
        return f"Found the new system{where}", None
    if verb == "colonize":
        return (f"Colonize with {unit_words(ctx, unit)}",
                "The Colonization Fleet is expended to found an Imperial system where it "
                "stands.")
    if verb == "illuminate":
        if action.get("effect") == "ci":
            return ("Spend Illumination to lower the Chaos Index",
                    "An Illumination marker goes back; a die says how far the Chaos Index "
                    "drops.")
        return (f"Spend Illumination on Trans-humans{where}",
                f"An Illumination marker goes back; Imperial Trans-humans appear{where}.")
    if verb == "extropy":
        cost = extropy_cost(ctx)
        return (f"Conduct an extropy operation for {cost} RP",
                f"Pay {cost} RP and roll on the Extropy Table: the Chaos Index may change.")
    if verb in ("expedition", "decline") and pending.get("kind") == "expedition":
        origin = f" from {sector_words(ctx, pending.get('at'))}"
        if verb == "decline":
            return f"Mount no expedition{origin}", None
        leader = action.get("leader")
        return (f"Mount the expedition{origin}"
                + (f" led by {unit_words(ctx, leader, where=False)}" if leader
                   else " with no leader"), None)
    if verb in ("suppress", "no_suppression", "cancel_event", "allow_event"):
        name = event_name(ctx, pending)
        return {"suppress": f"Spend a Repression marker to suppress {name}",
                "no_suppression": f"Let {name} happen",
                "cancel_event": f"Use the Institute: send {name} back unresolved",
                "allow_event": f"Let {name} happen"}[verb], None
    if verb in FIXED_LABELS:
        return FIXED_LABELS[verb], TIPS.get(verb)
    return verb.replace("_", " ").capitalize(), None


def next_step(state: dict) -> str:
    """What the Continue control leads to: the phase after this one, or the next turn."""
    phase = state["phase"]
    if state["outcome"] is not None:
        return "The game is over"
    if state["turn"] == 0:
        return f"Turn 1: {PHASES[1]}"
    if phase >= 14:
        return f"Turn {state['turn'] + 1}: {PHASES[1]}"
    return f"Phase {phase + 1}: {PHASES[phase + 1]}"


def prompt(ctx: Ctx, legal: list[dict]) -> dict | None:
    """The waiting prompt with every legal answer in words. Each answer says where the map
    gives it, so the window needs to know no action's shape: ``drop`` (the piece to drag and
    the sector to drop it on) or ``sector`` (the sector to click)."""
    p = ctx.state["pending"]
    if p is None:
        return None
    out = {k: v for k, v in p.items()}
    out["actions"] = [entry(ctx, p, a) for a in legal]
    return out


def entry(ctx: Ctx, pending: dict, action: dict) -> dict:
    """One answer of the prompt: the action, its label, where the map gives it and, for
    some, a longer explanation (``tip``) the decision list shows as a tooltip."""
    label, tip = words(ctx, action)
    out = dict({"action": action, "label": label, "map": action["verb"] in MAP_VERBS},
               **map_target(pending, action,
                            lambda uid: ctx.units[uid]["loc"] if uid in ctx.units else None))
    if tip:
        out["tip"] = tip
    return out


def map_target(pending: dict, action: dict, unit_sector=None) -> dict:
    """Where on the map ``action`` is given: ``{"drop": {"piece", "sector"}}`` for a piece
    dragged to a sector, ``{"sector": n}`` for a click on a sector, else nothing. A piece
    may be a counter on the map, one waiting in the set-up tray (``board["tray"]``: a unit, a
    leader ``leader:<value>``, the Nexus markers ``nexus``) or a whole stack (``stack:<n>``,
    dragged from sector n). A leader is dropped on a unit: its drop names the unit too
    (``onto``), found with ``unit_sector(uid)``. A piece that moves others along (a Rebel
    force of several counters) lists every counter that may be dragged for it (``pieces``)."""
    verb = action["verb"]
    if verb in ("move", "place", "adjust") and "unit" in action:
        return {"drop": {"piece": action["unit"], "sector": action.get("to", action.get("at"))}}
    if verb == "place_nexus":
        return {"sector": action["at"], "drop": {"piece": "nexus", "sector": action["at"]}}
    if verb == "place_leader" and unit_sector is not None and {"value", "unit"} <= action.keys():
        return {"drop": {"piece": f"leader:{action['value']}",
                         "sector": unit_sector(action["unit"]), "onto": action["unit"]}}
    if verb == "move_stack":
        return {"sector": action["to"],
                "drop": {"piece": f"stack:{action['from']}", "sector": action["to"]}}
    if verb == "alliance_move":
        # The allied force the prompt is about moves as one counter, dragged or by a click
        # on its destination.
        actor = pending.get("actor") or {}
        force = actor.get("force")
        target = {"sector": action["to"]}
        if force:
            return dict(target, drop={"piece": f"force:{force}", "sector": action["to"]})
        # A Rebel force is no force counter: its own units are on the map, and a drag of
        # any of them moves the whole force.
        units = [uid for uid in actor.get("units") or ()
                 if unit_sector is not None and unit_sector(uid) is not None]
        if units:
            return dict(target, drop={"piece": units[0], "pieces": units,
                                      "sector": action["to"]})
        return target
    if verb not in MAP_VERBS:
        # Not a placement, move, purchase or attack (leave a system unpaid, command a
        # force...): a click on its sector, often made only to look at it, answers nothing.
        return {}
    for key in ("at", "sector", "to"):
        if isinstance(action.get(key), int):
            return {"sector": action[key]}
    return {}


def tray(ctx: Ctx) -> list[dict]:
    """What waits beside the map to be placed at set-up (SGE-SEQ-21): the Imperial units not
    yet on the map, the leaders in hand and the Nexus markers, each as the window draws it;
    empty once set-up is over. The prompt's answers say where each may be dropped."""
    st = ctx.state
    pending = st["pending"]
    if pending is None or pending["kind"] != "setup_placement":
        return []
    waiting = [dict(_unit_piece(ctx, uid, st["forces"]), sector=None)
               for uid, u in sorted(ctx.units.items())
               if u["loc"] is None and u["side"] == IMP]
    hand = st.get("setup_hand") or {}
    for value in hand.get("leaders") or ():
        waiting.append({"id": f"leader:{value}", "kind": "leader", "side": IMP, "sector": None,
                        "label": str(value), "values": "",
                        "tooltip": f"Imperial leader of value {value}: drop it on a unit"})
    if hand.get("nexus"):
        count = hand["nexus"]
        waiting.append({"id": "nexus", "kind": "marker", "side": IMP, "sector": None,
                        "label": "Nexus", "values": f"x{count}", "count": count,
                        "tooltip": f"{count} Imperial Nexus marker{'s' if count > 1 else ''}: "
                                   "drop one on an Imperial system"})
    return waiting


def preview(game, state: dict, action: dict) -> dict | None:
    """The odds of a legal Imperial attack before the roll (SGE-CMB-15), or None for other
    actions. Result codes: '-' no effect, 'A<k>'/'D<k>' attacker/defender loses k units."""
    if action.get("verb") != "attack" or game.check_action(state, "imperial", action):
        return None
    odds = combat.preview(game.context(state), int(action["at"]), IMP, action["type"])
    odds["title"] = (f"{COMBAT_NAMES[action['type']].capitalize()} attack in "
                     f"{fmt_sector(action['at'])}")
    return odds


def board(game, state: dict, role: str) -> dict:
    """Everything the window draws of the position, with the legal actions of ``role`` (a
    solitaire game: the Imperial player sees all there is; others have nothing to do)."""
    cache = game.new_cache()    # one context for the board and its legal actions
    ctx = cache.context(state)
    legal = game.legal_actions(state, role, cache=cache)
    scenario = game.data.scenarios.get(str(state["scenario"]), {})
    st = state
    placed = pieces(ctx)
    return {
        "game": "struggle",
        "scenario": st["scenario"],
        "title": scenario.get("title", ""),
        "turn": st["turn"],
        "turns": st["turns"] if not st["sweep"] else None,
        "phase": st["phase"],
        "phase_name": PHASES.get(st["phase"], "Set-up" if st["turn"] == 0 else ""),
        "phases": [PHASES[k] for k in sorted(PHASES)],
        "next_step": next_step(st),
        "ci": ctx.ci,
        "rp": st["rp"],
        "vp": ctx.vp(),
        "ci_bands": ci_bands(ctx.data),
        "victory_bands": dict(st["victory"]),
        "victory_levels": list(ctx.data["victory"]["levels"]),
        "cup": {"remaining": len(st["pool"]), "discarded": len(st["discard"]),
                "drawn": drawn_this_turn(ctx), "effects": effects_in_play(ctx)},
        "available": dict(st["available"]),
        "imperial_leaders": list(st["imp_leaders"]),
        "pieces": {p["id"]: p for p in placed},
        "sectors": sectors(ctx, placed),
        "prompt": prompt(ctx, legal),
        "tray": tray(ctx),
        "outcome": st["outcome"],
        "log_size": len(st["log"]),
    }


def log_entries(game, state: dict, start: int = 0, role: str = "public") -> list[dict]:
    """The log from ``start``: in a solitaire game every entry is the player's."""
    return state["log"][start:]
