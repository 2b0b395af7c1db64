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

from struggle_desktop.games.struggle import combat
from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx, fmt_sector
from struggle_desktop.games.struggle.turn import PHASES

SIDE_NAMES = {IMP: "Imperial", CHAOS: "Chaos"}
FORCE_LABELS = {"usurper": "Usurper", "mutant": "Mutant", "invader": "Invader", "ie": "IE"}
MARKER_LABELS = {"nexus": "Nexus", "stargate": "Stargate", "illumination": "Illumination",
                 "repression": "Repression", "increased_resources": "Increased Resources"}
COMBAT_NAMES = {"mil": "military", "morph": "morphogenetic"}

#: Prompt kinds whose answers are mostly "put this piece in that sector": the window offers
#: them on the map (drag a counter, click a sector) as well as in the decision list.
MAP_VERBS = {"place", "move", "move_stack", "buy_unit", "buy_marker", "attack", "corps",
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
FIXED_LABELS = {"done": "Done: end this step", "auto_place": "Let the program place everything",
                "pay": "Pay the maintenance", "suppress": "Try to suppress it",
                "no_suppression": "Do not suppress", "cancel_event": "Send it back unresolved",
                "allow_event": "Let it happen", "accept_leviathan": "Accept Leviathan",
                "return_leviathan": "Send Leviathan back to the pool",
                "alliance_attack": "Attack", "no_attack": "Do not attack",
                "no_leader": "Commit no leader", "decline": "Decline",
                "extropy": "Conduct an extropy operation"}


def describe_action(game, state: dict, action: dict) -> str:
    """One legal action in a player's words, for buttons and the decision list."""
    return describe(game.context(state), action)


def describe(ctx: Ctx, action: dict) -> str:
    """``describe_action`` on a context already open on the position."""
    verb = action.get("verb", "?")
    at = action.get("at")
    where = f" in {fmt_sector(at)}" if isinstance(at, int) else ""
    unit_types = ctx.data.unit_types

    def unit_name(uid: str | None) -> str:
        u = ctx.units.get(uid or "")
        if u is None:
            return str(uid)
        loc = f" in {fmt_sector(u['loc'])}" if u["loc"] is not None else ""
        return f"{uid} ({unit_types[u['type']].name}{loc})"

    if verb == "place":
        return f"Place {unit_name(action.get('unit'))}{where}"
    if verb == "move":
        return f"Move {unit_name(action.get('unit'))} to {fmt_sector(action['to'])}"
    if verb == "move_stack":
        return f"Move every unit it can from {fmt_sector(action['from'])} to {fmt_sector(action['to'])}"
    if verb == "move_leader":
        return f"Hand the leader of {action.get('unit')} to {action.get('to_unit')}"
    if verb == "buy_unit":
        t = unit_types.get(action.get("type", ""))
        name = t.name if t else action.get("type")
        cost = f" for {t.cost} RP" if t else ""
        return f"Recruit a {name}{where}{cost}"
    if verb == "buy_marker":
        return f"Buy a {MARKER_LABELS.get(action.get('marker'), action.get('marker'))} marker{where}"
    if verb == "attack":
        return f"Make a {COMBAT_NAMES.get(action.get('type'), action.get('type'))} attack{where}"
    if verb == "corps":
        return f"Take a free {action.get('type')}{where}"
    if verb == "crusade":
        return f"Raise {action.get('sf')} SF and {action.get('cg')} CG{where}"
    if verb in ("disband", "leave_unpaid", "place_leader", "commit_leader"):
        text = {"disband": "Disband", "leave_unpaid": "Leave unpaid",
                "place_leader": "Give the leader to", "commit_leader": "Commit the leader of"}
        return f"{text[verb]} {unit_name(action.get('unit'))}"
    if verb == "alliance":
        kind = action.get("kind")
        who = "the Rebels" if kind == "rebel" else (ctx.force_name(action["force"])
                                                    if action.get("force") in ctx.state["forces"]
                                                    else kind)
        return f"Command {who} in {fmt_sector(action['sector'])}"
    if verb == "alliance_move":
        return f"Move the allied force to {fmt_sector(action['to'])}"
    if verb == "found":
        return f"Found the new system{where}"
    if verb == "illuminate":
        return ("Spend Illumination to lower the Chaos Index" if action.get("effect") == "ci"
                else f"Spend Illumination on Trans-humans{where}")
    if verb == "expedition":
        return ("Mount the expedition" + (f" led by {action['leader']}" if action.get("leader")
                                          else ""))
    return FIXED_LABELS.get(verb, verb.replace("_", " ").capitalize())


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
    out["actions"] = [dict({"action": a, "label": describe(ctx, a),
                            "map": a["verb"] in MAP_VERBS}, **map_target(p, a))
                      for a in legal]
    return out


def map_target(pending: dict, action: dict) -> dict:
    """Where on the map ``action`` is given: ``{"drop": {"piece", "sector"}}`` for a piece
    dragged to a sector, ``{"sector": n}`` for a click on a sector, else nothing."""
    verb = action["verb"]
    if verb in ("move", "place", "adjust") and "unit" in action:
        return {"drop": {"piece": action["unit"], "sector": action.get("to", action.get("at"))}}
    if verb == "alliance_move":
        # The allied force the prompt is about moves as one counter, dragged or by a click
        # on its destination.
        force = (pending.get("actor") or {}).get("force")
        target = {"sector": action["to"]}
        return dict(target, drop={"piece": f"force:{force}", "sector": action["to"]}) \
            if force else target
    for key in ("at", "sector", "to"):
        if isinstance(action.get(key), int):
            return {"sector": action[key]}
    return {}


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
        "outcome": st["outcome"],
        "log_size": len(st["log"]),
    }


def log_entries(game, state: dict, start: int = 0, role: str = "public") -> list[dict]:
    """The log from ``start``: in a solitaire game every entry is the player's."""
    return state["log"][start:]
