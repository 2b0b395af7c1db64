"""What the Freedom window draws, as plain data read from one role's view (no Qt here).

``board(game, state, role)`` starts from ``game.view(state, role)``. In the two Mission-phase
modes everything is public (the players enter the environs together at the table); in the
events deck the view hides the decks and the other side's hand (deck.py's ``redact``), so a
board never shows them either. ``role`` is ``phasing``/``enemy``, ``rebel``/``imperial``, or
``"public"`` (the shared screen while the computer is handed over, or a picture for the
``render`` command): a public board has no ``prompt`` but still says what is waited for.

Keys common to every kind: ``game``, ``kind``, ``seat``, ``scenario``, ``title``, ``turn``,
``phase``, ``view`` (the role's whole view, for the Part B and C screens), ``pending`` (what the
game waits for, in words, whoever's it is), ``prompt`` (the seat's decision: kind, text, rule,
and a label for each legal action, with a longer ``tip`` for some), ``waiting_for``, ``outcome`` (None, then ``{"result",
"text", "lines", "copy_text"}``) and ``log_size``.

For ``mission-phase`` (Part A) also, all display-ready:

- ``environs``: ``{"title", "rows": [[label, value, tooltip]], "characters": [...]}`` — the
  location, size, type, planet state and loyalty, enemy, creature and races (FIG-CTX);
- ``step``: ``{"n", "of", "text"}``, the step counter of FIG-MIS-5;
- ``event`` and ``success``: the last random-event and mission-success rolls, each with its two
  dice read as tens and units (FIG-GEN-3), the value, the letters (success) or the row
  (event), and what came of it;
- ``groups``: one row per group (mission letter and name, leader, members, status, levels,
  bonus adjustment, bonus count and rolls once in the bonus segment) — or the draft while the
  groups are being formed;
- ``assign``: at the assignment prompt, what the group form offers (every mission of the side
  with its targets and ships, the free characters and cells); the game's ``check_action``
  gives the reason a choice is refused (FIG-MIS-4);
- the ``prompt`` carries ``facts`` (the data a hook shows, FIG-HOOK-1: the creature's or
  locals' numbers, the patrol's unit, the members with their EF and hits) and ``entry`` (the
  result entered so far).
"""

from __future__ import annotations

import re
from typing import Any

from struggle_desktop.games.freedom import missions

SEGMENT_NAMES = {"recruitment": "Recruitment", "assignment": "Mission Assignment",
                 "steps": "Mission Action segment", "bonus": "Bonus Dice Rolls segment",
                 "failure": "Failure procedures", "resolution": "Resolution",
                 "report": "Outcome report"}
KIND_NAMES = {"mission-phase": "Mission Phase", "chit-mug": "Chit mug",
              "events-deck": "Galactic events deck"}
STATUS_NAMES = {"active": "active", "waiting": "bonus rolls only",
                "aborted": "aborted", "called_off": "called off"}
HOOK_RESULT_NAMES = {
    "driven_off": "The foe is driven off", "creature_killed": "The foe is killed",
    "characters_broke_off": "The characters broke off", "group_defeated": "The group is defeated",
    "no_effect": "No effect", "fought": "They fought (hits, kills and captures as entered)",
    "not_found": "Nothing was found", "found": "The group was found (captures as entered)",
    "survives": "The prisoner survives", "dies": "The prisoner dies",
}
HOOK_DEFAULTS = {"combat": "the foe is driven off and nobody takes hits",
                 "patrol": "no effect", "search": "no effect", "prisoner": "he survives",
                 "atrocity": "no atrocity", "seats": "seats for every captive"}
HOOK_TITLES = {"combat": "Fight", "patrol": "Patrol", "search": "Search",
               "prisoner": "Torture", "atrocity": "Atrocity", "seats": "Seats"}
#: What each kind of report line asks the players to do on their board (FIG-MIS-24).
INSTRUCTIONS = {
    "mission": "Note the mission's result.",
    "loyalty": "Move the loyalty marker as said.",
    "planet": "Change the planet's state marker as said.",
    "kill": "Remove the character from play.",
    "capture": "Put the character among the captives here.",
    "free": "Return the character to his side, here.",
    "hits": "Mark the hits on the character.",
    "possession": "Give the possession (card) to the character named.",
    "spaceship": "Give the spaceship to the character named.",
    "force_points": "Move the force points as said.",
    "unit": "Flip (damaged) or remove (destroyed) the unit, or place it, as said.",
    "pdb": "Set the PDB marker as said.",
    "coup_marker": "Place or remove the coup marker.",
    "detection": "Flip the characters named to their detected side.",
    "secret": "Reveal the secret as said.",
    "information": "Show the information to the player named.",
    "recruit": "Put the new character in this environs, undetected.",
    "mulligan": "Adjust the mulligans held.",
    "mulligans": "Keep this many mulligans for the next environs.",
    "sovereign": "Move the sovereign as said.",
    "reminder": "Carry this out by hand: the program does not.",
}
FLAG_NAMES = {"survived_two_rounds": "The characters survived two rounds",
              "stalemate": "The fight ended in a stalemate"}
INFORMATION_NAMES = {"detect_enemy_characters": "Detect the enemy's characters here",
                     "inspect_starfleets": "Inspect the enemy's starfleets in the province"}


def map_layout(game) -> dict:
    """What does not change during a game: the mission names and the segment names (the
    environs itself is part of the position, so it travels in the board)."""
    return {"missions": {m.letter: m.name for m in game.data.missions.values()},
            "segments": dict(SEGMENT_NAMES), "kinds": dict(KIND_NAMES)}


# ============================================================================== the board
def board(game, state: dict, role: str) -> dict:
    view = game.view(state, role, with_log=False)
    kind = state.get("kind", "mission-phase")
    scenario = game.data.scenarios.get(str(state.get("scenario")), {})
    out: dict[str, Any] = {
        "game": "freedom", "kind": kind, "kind_name": KIND_NAMES.get(kind, kind), "seat": role,
        "scenario": state.get("scenario"), "title": scenario.get("title", state.get("scenario")),
        "seed": state.get("seed"), "turn": state.get("turn", 0), "phase": state.get("phase"),
        "phase_name": SEGMENT_NAMES.get(state.get("phase"), str(state.get("phase") or "")),
        "view": view, "log_size": len(visible_log(state, role)),
    }
    ctx = game.context(state) if kind == "mission-phase" else None
    pending = state.get("pending") if state.get("outcome") is None else None
    out["waiting_for"] = pending["role"] if pending else None
    out["pending"] = pending_entry(state, pending) if pending else None
    out["prompt"] = None
    if pending and pending["role"] == role:
        out["prompt"] = prompt_entry(game, ctx, state, view, pending)
    out["outcome"] = outcome_entry(game, state)
    if kind == "mission-phase":
        out.update(mission_board(game, ctx, state))
    return out


def visible_log(state: dict, role: str) -> list[dict]:
    """The log ``role`` may read: all of it, but an events-deck entry marked private to one
    side is that side's only (FIG-EVT)."""
    log = state.get("log", [])
    if state.get("kind") != "events-deck":
        return log
    return [e for e in log if e.get("private") in (None, role)]


def side_names(state: dict) -> dict[str, str]:
    """Role -> the words the banner uses for it."""
    kind = state.get("kind", "mission-phase")
    if kind == "events-deck":
        return {"rebel": "the Rebel player", "imperial": "the Imperial player"}
    if kind == "mission-phase":
        phasing = state["environs"]["phasing_side"]
    else:
        phasing = state["environs"].get("phasing_side", "rebel")
    enemy = "imperial" if phasing == "rebel" else "rebel"
    return {"phasing": f"the {phasing.capitalize()} player (phasing)",
            "enemy": f"the {enemy.capitalize()} player (enemy)"}


def role_text(state: dict, role: str) -> str:
    return side_names(state).get(role, f"the {role} player")


def prompt_words(pending: dict) -> str:
    """The question in the banner and the answer list. A card's text (``deck_card``) is
    shown once, in the events view's box "A card's text": here only the card and its moment, so the
    text is not repeated above the answers (it left the answer list two rows)."""
    text = pending["text"]
    if pending["kind"] == "deck_card" and ": " in text:
        return text.split(": ", 1)[0] + " (its text is shown under “A card's text”)"
    return text


def pending_entry(state: dict, pending: dict) -> dict:
    return {"kind": pending["kind"], "text": prompt_words(pending),
            "rule": pending.get("rule", ""),
            "role": pending["role"], "who": role_text(state, pending["role"])}


def prompt_entry(game, ctx, state: dict, view: dict, pending: dict) -> dict:
    actions = []
    for a in view["legal_actions"]:
        entry = {"action": a, "label": describe(game, ctx, state, pending, a), "map": False}
        tip = answer_tip(pending, a)
        if tip:
            entry["tip"] = tip
        actions.append(entry)
    entry = {"kind": pending["kind"], "text": prompt_words(pending),
             "rule": pending.get("rule", ""),
             "role": pending["role"], "who": role_text(state, pending["role"]),
             "actions": actions}
    if ctx is not None:
        entry.update(prompt_details(game, ctx, pending))
    return entry


def instruction(change: dict) -> str:
    """What a report line asks the players to do on their board, naming who where the line
    concerns characters (a detection line names those to flip, or says there are none)."""
    kind = change.get("kind", "")
    if kind == "detection":
        names = [str(r) for r in change.get("refs") or []]
        if names:
            return f"Flip {', '.join(names)} to the detected side."
        if "(none here)" in change.get("text", ""):
            return "Nothing to flip: no character here was still undetected."
        return ("Nothing more to flip: each character this detects has a 'Detected' line "
                "of his own.")
    return INSTRUCTIONS.get(kind, "Apply this on the board.")


#: A pointer into the rules' source text ("seed 003 L1706-1708") means nothing to a player:
#: the report names the rulebook's mission results instead.
SOURCE_LINES = re.compile(r"seed 00\d (L\d+(-\d+)?(, )?)+ says what they achieve")
SOURCE_SECTION = re.compile(r"\(section ([\d.]+) of seed 00\d\)")


def player_text(text: str) -> str:
    """A report line in a player's words: no reference to the rules' source lines."""
    text = SOURCE_LINES.sub("the mission's results in the rulebook say what they achieve",
                            text)
    return SOURCE_SECTION.sub(r"(rulebook section \1)", text)


#: The end of a Part B or C run, in words (its result code is only "resolved").
RESOLVED_WORDS = {"chit-mug": "the environs is resolved",
                  "events-deck": "the events manager has finished"}


def result_words(game, state: dict, code: str) -> str:
    """The Mission phase's result in words: each group's mission and the level it reached
    (the short code, such as ``D0 I0c``, is for simulations)."""
    kind = state.get("kind", "mission-phase")
    if kind != "mission-phase":
        return RESOLVED_WORDS.get(kind, code) if code == "resolved" else code
    parts = []
    for g in state.get("groups", []):
        mission = game.data.missions.get(g["mission"])
        name = f"{g['mission']} {mission.name}" if mission is not None else g["mission"]
        how = {"aborted": "aborted", "called_off": f"called off at level {g['level']}"}.get(
            g["status"], f"level {g['level']}")
        parts.append(f"{g['id']} {name}: {how}")
    return "; ".join(parts) or "no mission group"


def outcome_entry(game, state: dict) -> dict | None:
    outcome = game.outcome(state)
    if outcome is None:
        return None
    lines = []
    for change in outcome["changes"]:
        kind = change.get("kind", "")
        lines.append({"rule": change.get("rule", ""), "kind": kind,
                      "text": player_text(change.get("text", "")),
                      "instruction": instruction(change)})
    scenario = game.data.scenarios.get(str(state.get("scenario")), {})
    title = scenario.get("title", state.get("scenario"))
    result = result_words(game, state, outcome["result"])
    # The result is not repeated here: the answer list says "The game is over: <result>."
    # before this text, and the window's banner and summary put the two together.
    text = ("The Mission phase of this environs is over"
            if state.get("kind", "mission-phase") == "mission-phase"
            else "Apply the report on the board")
    copy = [f"Freedom in the Galaxy — {title} (seed {state.get('seed')})",
            f"Result: {result}", "",
            "What to change on the board (FIG-MIS-24):"]
    for k, line in enumerate(lines, start=1):
        copy.append(f"{k}. [{line['rule']}] {line['text']}")
        copy.append(f"   → {line['instruction']}")
    return {"result": result, "code": outcome["result"], "text": text, "lines": lines,
            "copy_text": "\n".join(copy) + "\n", "turn": outcome.get("turn")}


# ============================================================================== Part A
def mission_board(game, ctx, state: dict) -> dict:
    env = state["environs"]
    return {
        "environs": environs_entry(ctx, env),
        "step": step_entry(state),
        "event": last_event(ctx, state),
        "success": last_success(ctx, state),
        "groups": group_rows(ctx, state),
        "forming": state.get("draft") is not None,
        "assign": assign_entry(ctx, state) if (state.get("pending") or {}).get("kind")
        == "assign" and state.get("outcome") is None else None,
        "mulligans": dict(env["mulligans"]),
        "sides": {"phasing": env["phasing_side"],
                  "enemy": "imperial" if env["phasing_side"] == "rebel" else "rebel"},
    }


def words(value: Any) -> str:
    return str(value).replace("_", " ")


def environs_entry(ctx, env: dict) -> dict:
    data = ctx.data
    rows: list[list[str]] = []
    orbit = env["location"] == "orbit"
    where = "Orbit box" if orbit else "Environs"
    kind = env.get("type") or "—"
    if kind == "special" and env.get("special_kind"):
        kind = f"special ({words(env['special_kind'])})"
    rows.append(["Location", f"{where}, size {env['size']}, {kind}" if not orbit else where,
                 "FIG-CTX-1"])
    state_text = ("loyalty " + words(env["loyalty"]) if env.get("planet_state") == "loyalty"
                  else words(env.get("planet_state") or "not entered"))
    controller = env.get("controller")
    rows.append(["Planet", f"{state_text}; controlled by {words(controller or 'nobody')}"
                 + ("; occupied" if env.get("occupied") else ""), "FIG-CTX-3"])
    rows.append(["Sides", f"{env['phasing_side'].capitalize()} phasing, "
                 f"{ctx.enemy.capitalize()} the enemy", "FIG-CTX-2"])
    units = [u for u in env["units"] if not u.get("destroyed")]
    enemy_units = [u for u in units if u["side"] == ctx.enemy]
    unit_text = ", ".join(unit_words(u) for u in enemy_units) or "no units"
    pdb = ""
    if env.get("pdb"):
        pdb = f"; PDB {env['pdb']}" + (" (down)" if env.get("pdb_down") else " (up)")
    enemies = [c for c in ctx.present(ctx.enemy)]
    chars = ", ".join(c["name"] + ("" if c["detected"] else " (undetected)") for c in enemies)
    rows.append(["Enemy", unit_text + pdb + (f"; characters: {chars}" if chars else ""),
                 "FIG-CTX-5"])
    friendly = [u for u in units if u["side"] == ctx.side]
    if friendly:
        rows.append(["Own units", ", ".join(unit_words(u) for u in friendly), "FIG-CTX-5"])
    creature = env.get("creature")
    if creature:
        c = data.creature(creature)
        stats = f"AF {c.af}, EF {c.ef}" if c.af is not None else words(c.kind)
        rows.append(["Creature", f"{c.name} ({stats})", c.summary])
    else:
        rows.append(["Creature", "none here", ""])
    races = []
    for name in env.get("races", []):
        af, ef = data.race(name).strength(env.get("type") or "", env.get("special_kind"))
        races.append(f"{name} (AF {af}, EF {ef})")
    rows.append(["Races", ", ".join(races) or "none entered", "FIG-LOC-1"])
    if env.get("coup_rating"):
        rows.append(["Coup rating", str(env["coup_rating"]), "FIG-MSN-3"])
    sovereigns = [s for s in env.get("sovereigns", []) if not s.get("assassinated")]
    if sovereigns:
        rows.append(["Sovereigns", ", ".join(
            f"{s['name']} ({words(s['alignment'])}"
            + (f", summoned by the {s['summoned']}" if s.get("summoned") else "") + ")"
            for s in sovereigns), "FIG-CTX-6"])
    cells = env.get("cells") or []
    if cells:
        rows.append(["Rebel cells", ", ".join(f"{c['id']} ({c['kind']})" for c in cells),
                     "FIG-MSN-15"])
    held = env["mulligans"]
    rows.append(["Mulligans", f"Rebel {held['rebel']}, Imperial {held['imperial']}",
                 "FIG-MIS-23"])
    characters = []
    for c in env["characters"]:
        if c["side"] != ctx.side and not c["captured"]:
            continue
        marks = []
        if c["dead"]:
            marks.append("dead")
        elif c["captured"]:
            marks.append(f"captive ({c['side']})")
        if c["resting"]:
            marks.append("resting")
        marks.append("detected" if c["detected"] else "undetected")
        if c["hits"]:
            marks.append(f"{c['hits']} hit{'s' if c['hits'] != 1 else ''}")
        if c.get("possessions"):
            marks.append("with " + ", ".join(c["possessions"]))
        characters.append({"name": c["name"], "side": c["side"], "text": ", ".join(marks)})
    title = "Orbit box" if orbit else f"Environs — size {env['size']}"
    return {"title": title, "rows": rows, "characters": characters}


def unit_words(u: dict) -> str:
    text = f"{u['id']} {words(u['kind'])} AF {u['af']}"
    extra = [x for x, on in (("elite", u.get("elite")), ("damaged", u.get("damaged"))) if on]
    if u.get("leader") is not None:
        extra.append(f"leader {u['leader']}")
    return text + (f" ({', '.join(extra)})" if extra else "")


def step_entry(state: dict) -> dict:
    n, of, phase = state.get("turn", 0), state.get("steps", 0), state.get("phase")
    if phase in ("recruitment", "assignment"):
        text = SEGMENT_NAMES[phase]
    elif phase == "steps":
        text = f"Step {n} of {of}"
    elif of == 0 and state["environs"]["location"] == "orbit":
        text = f"{SEGMENT_NAMES.get(phase, phase)} (an orbit box has no steps)"
    else:
        text = f"{SEGMENT_NAMES.get(phase, phase)} — after {n} of {of} steps"
    return {"n": n, "of": of, "text": text, "segment": SEGMENT_NAMES.get(phase, str(phase))}


def effective_rolls(log: list[dict]) -> list[tuple[int, dict]]:
    """Every roll that stands, with its index: a roll re-rolled with a mulligan is left out
    (FIG-MIS-23: the new result stands)."""
    rolls: list[tuple[int, dict]] = []
    for k, entry in enumerate(log):
        if entry.get("kind") == "roll" and entry.get("dice"):
            rolls.append((k, entry))
        elif (entry.get("rule") == "FIG-MIS-23" and entry.get("kind") == "change"
              and "re-roll" in entry.get("text", "") and rolls):
            rolls.pop()
    return rolls


def d66_entry(entry: dict) -> dict:
    die = entry["dice"][0]
    faces = list(die["faces"])
    return {"tens": faces[0], "units": faces[1], "value": die["result"],
            "text": entry["text"], "rule": entry["rule"]}


def last_roll(log: list[dict], wanted) -> tuple[int, dict] | None:
    """The last of ``effective_rolls(log)`` whose entry ``wanted(entry)`` accepts, with its
    position in the log, or None."""
    found = None
    for k, entry in effective_rolls(log):
        if wanted(entry):
            found = (k, entry)
    return found


def last_event(ctx, state: dict) -> dict | None:
    """The last random event rolled (FIG-MIS-6), its dice, its row and what came of it."""
    log = state["log"]
    found = last_roll(log, lambda e: e["rule"] == "FIG-MIS-6" and e["dice"][0]["die"] == "p2d6")
    if found is None:
        return None
    k, entry = found
    out = d66_entry(entry)
    row = ctx.data.random_event(out["value"])
    out.update(row=row.rule, summary=row.summary, step=entry.get("turn"))
    # What came of it: the first note after the roll (the row, or why it does not happen).
    for later in log[k + 1:]:
        if later.get("kind") in ("event", "note") and later.get("rule") in (
                row.rule, "FIG-MIS-9", "FIG-MIS-10", "FIG-MIS-11"):
            out["outcome"] = later["text"]
            break
    return out


def last_success(ctx, state: dict) -> dict | None:
    """The last mission-success roll (FIG-MS-1): dice, letters, which groups scored."""
    log = state["log"]
    found = last_roll(log, lambda e: e["rule"] == "FIG-MS-1")
    if found is None:
        return None
    k, entry = found
    out = d66_entry(entry)
    letters = ctx.data.success_letters(out["value"])
    groups = {g["mission"]: g["id"] for g in state["groups"]}
    scored = [later for later in log[k + 1:] if later.get("rule") == "FIG-MIS-14"
              and later.get("turn") == entry.get("turn") and "Success" in later["text"]]
    hit = {r for e in scored for r in e.get("refs", [])}
    out["letters"] = [{"letter": x, "name": ctx.data.mission(x).name,
                       "scored": groups.get(x) in hit} for x in letters]
    out["step"] = entry.get("turn")
    out["outcome"] = "; ".join(e["text"] for e in scored)
    return out


def bonus_rolls(ctx, state: dict) -> dict[str, list[dict]]:
    """Group id -> its bonus rolls that stand, each with its dice and letters (FIG-MIS-19)."""
    out: dict[str, list[dict]] = {}
    missions_of = {g["id"]: g["mission"] for g in state["groups"]}
    for _, entry in effective_rolls(state["log"]):
        if entry["rule"] != "FIG-MIS-19" or not entry.get("refs"):
            continue
        gid = entry["refs"][0]
        roll = d66_entry(entry)
        letters = ctx.data.success_letters(roll["value"])
        roll.update(letters=list(letters), hit=missions_of.get(gid) in letters)
        out.setdefault(gid, []).append(roll)
    return out


def group_rows(ctx, state: dict) -> list[dict]:
    groups = state["draft"] if state.get("draft") is not None else state["groups"]
    rolls = bonus_rolls(ctx, state)
    in_bonus = state.get("phase") in ("bonus", "failure", "resolution", "report")
    pending = state.get("pending") or {}
    call_off = pending.get("kind") == "call_off" and state.get("outcome") is None
    rolling = pending.get("group") if pending.get("kind") == "bonus_roll" else None
    rows = []
    for g in groups:
        mission = ctx.data.mission(g["mission"])
        status = g.get("status", "active")
        forming = state.get("draft") is not None
        count = g.get("count")
        row = {
            "id": g["id"], "mission": g["mission"], "mission_name": mission.name,
            "summary": mission.summary,
            "leader": g.get("performer") or g.get("leader") or "—",
            "members": list(g["members"][1:] if g.get("leader") else g["members"]),
            "lost": list(g.get("lost", [])),
            "target": g.get("target"), "ship": g.get("ship"), "torture": g.get("torture"),
            "status": "forming" if forming else status,
            "status_text": ("being formed" if forming else
                            STATUS_NAMES.get(status, words(status))
                            + (", resolved" if g.get("resolved") else "")),
            "level": g.get("level", 0), "bonus_adj": g.get("bonus_adj", 0),
            "lose_all": g.get("lose_all", False),
            "count": count, "rolled": g.get("rolled", 0),
            "rolls": rolls.get(g["id"], []) if in_bonus else [],
            "can_call_off": call_off and status == "active",
            "rolling": rolling == g["id"],
        }
        if g.get("performer"):
            row["members"] = []
        bonus = "—"
        if in_bonus and count is not None:
            bonus = f"{row['rolled']} of {count} rolled"
        elif in_bonus and status in ("aborted", "called_off"):
            bonus = "none"
        row["bonus_text"] = bonus
        rows.append(row)
    return rows


def assign_entry(ctx, state: dict) -> dict:
    """What the group form offers at the assignment prompt (FIG-MIS-3): every mission of the
    phasing side with its possible targets and ships, the characters not in a group yet, the
    cells and camps; the draft's groups with the characters who may still join."""
    draft = state["draft"] or []
    side = ctx.side
    free = missions.free_characters(ctx, draft)
    out_missions = []
    for letter, mission in ctx.data.missions.items():
        if not mission.allowed_for(side):
            continue
        targets = [t for t in missions.target_options(ctx, letter) if t is not None]
        optional = None in missions.target_options(ctx, letter)
        out_missions.append({
            "letter": letter, "name": mission.name, "summary": mission.summary,
            "bonus_only": mission.bonus_only, "taken": any(g["mission"] == letter
                                                          for g in draft),
            "needs_target": letter in missions.TARGETED,
            "optional_target": optional and bool(targets),
            "targets": [{"value": t, "label": target_label(ctx, t)} for t in targets],
            "ships": missions.ship_options(ctx) if letter == "J" else [],
            "torture": letter == "Q" and side == "imperial",
        })
    performers = [{"id": c["id"], "kind": c["kind"]}
                  for c in missions.free_performers(ctx, draft)]
    groups = []
    for g in draft:
        groups.append({"id": g["id"], "mission": g["mission"],
                       "name": ctx.data.mission(g["mission"]).name,
                       "leader": g.get("performer") or g.get("leader"),
                       "members": list(g["members"]), "performer": g.get("performer"),
                       "target": g.get("target")})
    # Groups the final check dropped once a rating was entered (FIG-MIS-4, FIG-CTX-9).
    refused = [e["text"] for e in state["log"] if e.get("rule") == "FIG-MIS-4"
               and e.get("phase") == "assignment" and " is refused: " in e.get("text", "")]
    return {"side": side, "missions": out_missions, "free": free, "performers": performers,
            "groups": groups, "refused": refused}


def target_label(ctx, target: Any) -> str:
    if target == "pdb":
        return f"the PDB (level {ctx.env['pdb']})"
    for u in ctx.env["units"]:
        if u["id"] == target:
            return unit_words(u)
    return str(target)


# ------------------------------------------------------------------------------ prompts
def prompt_details(game, ctx, pending: dict) -> dict:
    """The data a Part A form shows beyond its actions."""
    kind = pending["kind"]
    out: dict[str, Any] = {"group": pending.get("group")}
    if kind == "hook":
        out.update(hook_details(ctx, pending))
    elif kind == "value":
        out.update(field=pending["field"], character=pending.get("character"),
                   low=pending["low"], high=pending["high"],
                   field_name=words(pending["field"]))
    elif kind == "mulligan":
        held = ctx.env["mulligans"][ctx.side]
        out.update(die=pending.get("die"), result=pending.get("result"), held=held)
    elif kind == "bonus_roll":
        g = ctx.group(pending["group"])
        out.update(rolled=g["rolled"], count=g["count"], level=g["level"])
    return out


def hook_details(ctx, pending: dict) -> dict:
    """FIG-HOOK-1: the parties with every number the prompt carries, and the result so far."""
    hook = pending.get("hook")
    data = pending.get("data") or {}
    facts: list[list[str]] = []
    if hook == "combat":
        count = data.get("count")
        foe = f"{count} × {data['creature']}" if count else data["creature"]
        facts.append(["Foe", foe])
        af = "—" if data.get("af") is None else data["af"]
        ef = "—" if data.get("ef") is None else data["ef"]
        facts.append(["Strength", f"AF {af}, EF {ef}" + (" each" if count else "")])
        if data.get("intelligence") is not None:
            facts.append(["Intelligence", str(data["intelligence"])])
        if data.get("wounded_af") is not None:
            facts.append(["AF when wounded", str(data["wounded_af"])])
        facts.append(["Surprise", data.get("surprise_rule") or "no surprise"])
        if data.get("no_breakoff"):
            facts.append(["Break-off", "the characters cannot break off"])
        elif data.get("breakoff_drm"):
            facts.append(["Break-off", f"modifier {data['breakoff_drm']:+d}"])
        if data.get("fights_to_death"):
            facts.append(["To the death", "it fights until killed"])
        if data.get("summary"):
            facts.append(["What it does", data["summary"]])
        if data.get("creature_rule"):
            facts.append(["Rule", data["creature_rule"]])
    elif hook == "patrol":
        facts.append(["Patrol", data.get("source", "a patrol")])
        if data.get("rule_of"):
            facts.append(["Raised by", data["rule_of"]])
    elif hook == "search":
        facts.append(["Search", "the enemy may search the group (no event forbids it)"])
    elif hook == "prisoner":
        facts.append(["Prisoner", str(data.get("prisoner"))])
        facts.append(["Hits taken", str(data.get("hits"))])
        facts.append(["EF", "not entered: the players decide whether he dies"])
    elif hook == "seats":
        captives = pending.get("captives") or []
        facts.append(["Captives", ", ".join(map(str, captives))])
    elif hook == "atrocity":
        facts.append(["Atrocity", "the Imperial player may commit one here (FIG-RE-6)"])
    members = []
    for name in pending.get("members", []):
        if not ctx.has_char(name):
            continue
        c = ctx.char(name)
        ef = f"EF {c['ef']}" if c.get("ef") is not None else "EF not entered"
        members.append({"name": name, "ef": c.get("ef"), "hits": c["hits"],
                        "text": f"{ef}, {c['hits']} hit{'s' if c['hits'] != 1 else ''} so far"})
    if pending.get("group"):
        g = ctx.group(pending["group"]) if any(x["id"] == pending["group"]
                                               for x in ctx.groups) else None
        if g is not None:
            facts.insert(0, ["Group", f"{g['id']} — {g['mission']} "
                                      f"({ctx.data.mission(g['mission']).name})"])
    entry = pending.get("entry") or {}
    entered = [f"{n}: +{h} hit{'s' if h != 1 else ''}" for n, h in entry.get("hits", {}).items()]
    entered += [f"{n} killed" for n in entry.get("killed", [])]
    entered += [f"{n} captured" for n in entry.get("captured", [])]
    entered += [f"{u} {e}" for u, e in entry.get("units", {}).items()]
    entered += [FLAG_NAMES.get(f, words(f)) for f in entry.get("flags", [])]
    return {"hook": hook, "hook_title": HOOK_TITLES.get(hook, words(hook or "")),
            "facts": facts, "members": members, "entered": entered,
            "default_text": HOOK_DEFAULTS.get(hook, "the neutral answer"),
            "results": [{"value": r, "label": HOOK_RESULT_NAMES.get(r, words(r))}
                        for r in pending.get("results", [])]}


# ============================================================================== words
def describe_action(game, state: dict, action: dict) -> str:
    kind = state.get("kind", "mission-phase")
    ctx = game.context(state) if kind == "mission-phase" else None
    return describe(game, ctx, state, state.get("pending") or {}, action)


def describe(game, ctx, state: dict, pending: dict, action: dict) -> str:
    """A legal action in a player's words."""
    verb = action.get("verb")
    if ctx is None:
        if state.get("kind") == "events-deck":
            return deck_words(game, state, pending, action)
        return chit_words(state, pending, action)
    kind = pending.get("kind")
    data = game.data
    if verb == "keep":
        return "Keep the roll"
    if verb == "mulligan":
        return "Spend a mulligan and roll again"
    if verb == "recruit":
        return f"Recruit {action['character']}"
    if verb == "form":
        m = data.mission(action["mission"])
        who = (f"performed by {action['performer']}" if action.get("performer")
               else f"led by {action.get('leader')}")
        text = f"Form {m.letter} ({m.name}) {who}"
        if action.get("target") is not None:
            text += f", target {target_label(ctx, action['target'])}"
        if action.get("ship"):
            text += f", in {action['ship']}"
        if action.get("torture"):
            text += ", with torture"
        return text
    if verb == "join":
        return f"{action['character']} joins {action['group']}"
    if verb == "disband":
        return f"Disband {action['group']}"
    if verb == "done" and kind == "assign":
        return "Done: these groups go on their missions"
    if verb == "continue":
        return "Continue (no call-off)"
    if verb == "call_off":
        g = next((x for x in state["groups"] if x["id"] == action["group"]), None)
        level = f", keeps level {g['level']}" if g else ""
        return f"Call off {action['group']}" + (f" ({g['mission']}{level})" if g else "")
    if verb == "roll":
        g = ctx.group(pending["group"]) if pending.get("group") else None
        return (f"Roll bonus die {g['rolled'] + 1} of {g['count']} for {g['id']}" if g
                else "Roll")
    if verb == "stop":
        return f"Stop rolling for {pending.get('group', 'this group')}"
    if verb == "default":
        return f"Default answer: {HOOK_DEFAULTS.get(pending.get('hook'), 'nothing happens')}"
    if verb == "hit":
        return f"{action['character']} takes a hit"
    if verb == "kill":
        return f"{action['character']} is killed"
    if verb == "capture":
        return f"{action['character']} is captured"
    if verb == "flag":
        return FLAG_NAMES.get(action["flag"], words(action["flag"]))
    if verb == "unit":
        return f"The unit {action['unit']} is {action['effect']}"
    if verb == "result":
        return f"Result: {HOOK_RESULT_NAMES.get(action['result'], words(action['result']))}"
    if verb == "seats":
        n = action["count"]
        return f"Seats for {n} captive{'s' if n != 1 else ''}"
    if verb == "atrocity":
        return ("The Imperial player commits an atrocity" if action["committed"]
                else "No atrocity")
    if verb == "lead":
        return f"{action['character']} leads {pending.get('group', 'the group')}"
    if verb == "enter":
        who = f"{pending['character']}'s " if pending.get("character") else ""
        return f"{who}{words(pending.get('field', 'value'))}: {action['value']}"
    if verb == "choose":
        return INFORMATION_NAMES.get(action["option"], words(action["option"]))
    if verb == "give":
        return f"{action['character']} receives {pending.get('possession', 'it')}"
    if verb == "raid":
        return ("Put the PDB down" if action["target"] == "pdb"
                else f"Damage {target_label(ctx, action['target'])}")
    return generic_words(action)


#: Longer explanations of some Part A answers, shown as the entry's tooltip.
TIPS = {
    "call_off": "A called-off group keeps the levels it has, is immune from now on and rolls "
                "no bonus dice.",
    "continue": "Every active group goes on to the next step.",
    "mulligan": "Spend one of your mulligans: the roll is made again and the new result "
                "stands.",
    "default": "The neutral answer: what happens when the players enter nothing.",
    "stop": "The group keeps its level and rolls no more bonus dice.",
    "drama": "Draw again with Drama; the other player then makes one bid a turn harder or "
             "easier.",
    "finish": "The run of the events deck ends after this game turn.",
    "contest": "Spend 1 General Research: the other side must then prevail or give way.",
    "prevail": "Spend 1 General Research: your play stands.",
}


def answer_tip(pending: dict, action: dict) -> str | None:
    """The longer explanation of an answer (``tip``), or None."""
    verb = action.get("verb")
    if verb == "default" and pending.get("kind") == "hook":
        return (f"{TIPS['default']} Here: "
                f"{HOOK_DEFAULTS.get(pending.get('hook'), 'nothing happens')}.")
    if verb == "stop" and pending.get("kind") != "bonus_roll":
        return None
    return TIPS.get(verb)


# ------------------------------------------------------------------------------ Part B
#: Chit-mug answers whose words never change.
CHIT_FIXED_WORDS = {
    "draw": "Draw the next chit",
    "later": "Keep Medical Aid! for a later regular draw",
    "none": "Nobody needs healing",
    "lose_unit": "Lose one unit here",
    "pdb_down": "Put the PDB down",
}


def chit_words(state: dict, pending: dict, action: dict) -> str:
    """A chit-mug answer in a player's words (FIG-CHIT)."""
    verb = action.get("verb")
    if verb in CHIT_FIXED_WORDS:
        return CHIT_FIXED_WORDS[verb]
    kind = pending.get("kind")
    groups = {g["id"]: g for g in state.get("groups", [])}
    if verb == "stop":
        g = groups.get(action["group"], {})
        return f"Stop drawing for {action['group']} ({g.get('mission', '?')})"
    if verb == "heal":
        return (f"Medical Aid!: heal one wound of {action['character']}" if kind == "chit_next"
                else f"Heal one wound of {action['character']}")
    if verb == "keep":
        return f"Keep chit {pending.get('chit', '')}".rstrip()
    if verb == "drama":
        return f"Use Drama on chit {pending.get('chit', '')}: draw again".replace("  ", " ")
    if verb == "bid":
        return ("Make their bid one turn harder" if action["choice"] == "harder_for_them"
                else "Make my own bid one turn easier")
    if verb == "ignore":
        return f"{pending.get('group', 'The group')} ignores it ({pending.get('holder', '')})"
    if verb == "accept":
        return f"{pending.get('group', 'The group')} lets it happen"
    if verb == "wound":
        return f"{action['character']} takes one wound"
    return generic_words(action)


# ------------------------------------------------------------------------------ Part C
DECK_COUNTERS = {"general_research": "General Research", "force_points": "force points"}
DECK_BOXES = {"new": "New box", "due": "Due box", "discard": "discard pile"}


def card_words(game, state: dict, card: str) -> str:
    """``G#5 Space Whale Migrations (Wex)``: a card's id, title and the sub-roll in play."""
    try:
        title = game.deck_tables().card(card).title
    except KeyError:
        title = ""
    rolled = (state.get("rolls") or {}).get(card)
    return f"{card} {title}".strip() + (f" ({game.describe_roll(rolled)})" if rolled else "")


#: Events-deck answers whose words never change.
DECK_FIXED_WORDS = {
    "pass": "Pass: play no card",
    "contest": "Contest the play (spend 1 General Research)",
    "allow": "Let the play stand",
    "prevail": "Prevail (spend 1 General Research)",
    "yield": "Give way",
    "ok": "OK, noted",
    "decline": "Spend nothing",
    "done": "Done: on to the next game turn",
    "finish": "Finish the run after this turn",
    "clone_used": "A clone effect was used",
}


def deck_words(game, state: dict, pending: dict, action: dict) -> str:
    """An events-deck answer in a player's words (FIG-EVT)."""
    verb = action.get("verb")
    if verb in DECK_FIXED_WORDS:
        return DECK_FIXED_WORDS[verb]
    card = action.get("card")
    kind = pending.get("kind")
    if verb == "pick":
        return f"Take {card_words(game, state, card)} as a secret card"
    if verb == "play":
        return f"Play {card_words(game, state, card)}"
    if verb == "keep":
        return f"Keep {card_words(game, state, card)}"
    if verb == "spend":
        part = f", part ({action['part']})" if action.get("part") else ""
        return f"Spend 1 General Research on {card_words(game, state, card)}{part}"
    if verb == "held":
        held = action.get("possessions") or []
        return f"Held: {', '.join(held)}" if held else "None of them is held"
    if verb == "leak" and kind == "deck_leak_choice":
        return f"{action['character']} leaks"
    if verb == "count":
        n = action["planets"]
        return f"{n} Ancore planet{'s' if n != 1 else ''} controlled"
    if verb == "adjust":
        by = action["by"]
        name = DECK_COUNTERS.get(action["counter"], words(action["counter"]))
        return f"{'Raise' if by > 0 else 'Lower'} your {name} by {abs(by)}"
    if verb == "take_historic":
        return f"Take {card_words(game, state, card)} into your hand (condition met)"
    if verb == "to_hand":
        places = state.get("places") or {}
        where = next((DECK_BOXES[box] for box in ("new", "due")
                      for e in places.get(box, []) if e.get("card") == card), None)
        if where is None and card in places.get("discard", []):
            where = DECK_BOXES["discard"]
        return (f"Take {card_words(game, state, card)} into your hand"
                + (f" from the {where}" if where else ""))
    if verb == "claim":
        return f"Claim the secret card of {card_words(game, state, card)}"
    if verb == "retire":
        return f"Retire {card_words(game, state, card)}"
    return generic_words(action)


def generic_words(action: dict) -> str:
    """An action of a mode this module has no words for (Parts B and C): its verb and its
    arguments, readably."""
    verb = words(action.get("verb", "?")).capitalize()
    rest = ", ".join(f"{words(k)} {v}" for k, v in action.items() if k != "verb")
    return f"{verb}: {rest}" if rest else verb


# ============================================================================== the log
def log_entries(game, state: dict, start: int = 0, role: str = "public") -> list[dict]:
    """The log as ``role`` reads it, with each roll's dice in the shape the dice panel draws
    (a p2d6 as its tens and units dice, FIG-GEN-3; a dk pick as a lot ``k of N``)."""
    out = []
    for entry in visible_log(state, role)[start:]:
        dice = entry.get("dice")
        if dice and "faces" in (dice[0] or {}):
            entry = dict(entry, dice=[shown for d in dice for shown in shown_dice(d)])
        out.append(entry)
    return out


def shown_dice(record: dict) -> list[dict]:
    die, faces = record.get("die", ""), list(record.get("faces", []))
    mods = [list(m) for m in record.get("modifiers", [])]
    base = {"modifiers": mods, "result": record.get("result")}
    if die == "p2d6" and len(faces) == 2:
        return [dict(base, die="d66", face=10 * faces[0] + faces[1])]
    if die == "2d6" and len(faces) == 2:
        return [dict(base, die="d6", face=faces[0]), dict(base, die="d6", face=faces[1])]
    if die in ("d6", "d10") and faces:
        return [dict(base, die=die, face=faces[0])]
    if die.startswith("d") and die[1:].isdigit() and faces:
        return [dict(base, die=f"pick{die[1:]}", face=faces[0])]
    return [dict(base, die=die, face=",".join(map(str, faces)))]
