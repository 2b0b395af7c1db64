"""Part B: the chit-mug Mission phase of one environs (rules-freedom.md section 3, FIG-CHIT).

The phasing player's mission groups share one pile of chits drawn without replacement from
the mug of the environs' type: first as many regular draws as the environs' size, each chit's
event applied and then its letters counted; then the shared bonus draws, where only letters
count. The module applies event precedence (same, contradicting and overruling events),
immunities, aborts, the Coup fails! backlash and the Rebel Cell roll, asks the players where
the rules give them a choice, and reports letters per group for the players to turn into
mission results on their board (FIG-CHIT-25).

Entry points (the contract with ``game.py``):

- :func:`new_state` ``(data, scenario, options, seed)``: the whole initial state of a
  ``chit-mug`` scenario (its ``context`` is checked against
  ``schemas/chit_context.schema.yaml``);
- the procedures and prompts registered in :data:`~.registry.RULES` (names ``chit_*``); run
  them with ``engine.flow.run`` on any Context whose ``data`` is a ``FreedomData`` (or on
  :class:`ChitContext`);
- :func:`choose` for the ``simple`` and ``random`` policies; :func:`redact` for a role's view
  (the mug's order is nobody's business);
- :data:`OPTIONS`: this mode's options.

State (plain JSON). Common keys: ``game`` ("freedom"), ``scenario``, ``kind`` ("chit-mug"),
``seed``, ``options`` (``chit_method``, ``allow_repeats``, ``drama``), ``rng``, ``stack``,
``pending``, ``log``, ``outcome`` (None, then the list of changes), ``turn`` (the game turn)
and ``phase`` ("mission"). This mode's keys:

- ``environs``: ``{"type" (urban|wild|special|orbit), "mug" (the mug used: an orbit box uses
  Urban), "size", "planet", "phasing_side", "enemy_side", "enemy_controls_planet",
  "enemy_units" (how many non-phasing units are here; Locals raid! lowers it), "special_ops",
  "enemy_leader", "enemy_characters", "pdb_up", "creature"}``;
- ``groups``: in assignment order, each ``{"id", "mission" (letter), "bonus_draws" (as
  entered), "members" (leader first), "diplomat", "holders" (immunity holders, FIG-CHIT-13),
  "bonus_only" (FIG-CHIT-19), "status" (active|stopped|aborted), "adjust" (FIG-CHIT-14
  changes so far), "count" (the bonus count once fixed, FIG-CHIT-8), "letters" ([{"letter",
  "chit", "draw" (regular|bonus), "k"}]), "lost" (letters an abort took, FIG-CHIT-16)}``;
- ``cells``: Rebel Cells ``{"id", "mission", "result"}`` (FIG-CHIT-23);
- ``flags``: the phasing side's ``trap_infiltrated``, ``ignore_enemy_agent``,
  ``ignore_subtracting``, ``reverse_subtracting`` (FIG-CHIT-1, set by hand or FIG-CHIT-24);
- ``cards``: face-up and lasting event cards that touch missions (FIG-CHIT-24);
- ``mug``: the chits still in the mug, top first (hidden); ``side_mug``: the separate mug of
  the bonus-only groups (FIG-CHIT-19); ``rolled``: D66 results already used per pile when
  chits are rolled instead of drawn (FIG-CHIT-20);
- ``drawn``: every chit drawn, in order: ``{"chit", "draw" (regular|bonus|bonus_only), "k",
  "event" (what became of its event)}``;
- ``events``: headline -> ``applied`` or ``void`` (FIG-CHIT-10, FIG-CHIT-11, FIG-CHIT-12);
  ``ignored``: what Guide!, Scout! and Security System Failure! switched off (FIG-CHIT-17);
- ``detection``: None (as before), ``detected`` or ``undetected``; ``medical_aid``: None,
  ``pending`` or ``used``; ``marks``: flags for the report (civil war, atrocity...);
- ``report``: the changes gathered for the outcome, each ``{"rule", "text", ...}``.

Prompts (role ``phasing``, the side performing the missions, unless said; ``enemy`` is the
other side):

- ``chit_next`` before every draw but the first: ``{"verb": "draw"}``, ``{"verb": "stop",
  "group": G}`` (FIG-CHIT-7) or, while Medical Aid! waits, ``{"verb": "heal", "character": C}``;
- ``chit_drama`` (option ``drama``) right after a reveal: ``{"verb": "keep"}`` or ``{"verb":
  "drama"}``; then ``chit_drama_bid`` (role ``enemy``): ``{"verb": "bid", "choice":
  "harder_for_them" | "easier_for_me"}`` (FIG-CHIT-22);
- ``chit_immunity``: ``{"verb": "ignore"}`` or ``{"verb": "accept"}`` (Oneste Woada, Advisor
  Android; FIG-CHIT-13);
- ``chit_enemy_loss`` (role ``enemy``): ``{"verb": "lose_unit"}`` or ``{"verb":
  "pdb_down"}`` (Locals raid Enemy Forces!, Disaster strikes!);
- ``chit_medical_aid``: ``{"verb": "heal", "character": C}``, ``{"verb": "later"}`` or
  ``{"verb": "none"}``; ``chit_accident``: ``{"verb": "wound", "character": C}``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.data import validate
from struggle_desktop.engine.errors import BadOption, DataError
from struggle_desktop.engine.flow import Context
from struggle_desktop.engine.options import parse_bool
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom.chits_data import ChitTables, chit_tables
from struggle_desktop.games.freedom.data import FreedomData, data_or_default
from struggle_desktop.games.freedom.context import ModeContext, shuffle
from struggle_desktop.games.freedom.registry import RULES

procedure = RULES.procedure
legal = RULES.legal

KIND = "chit-mug"
#: The prompts' roles, as in Part A: the phasing side and the other side.
ROLES = ("phasing", "enemy")
SCHEMA = Path(__file__).resolve().parent / "schemas" / "chit_context.schema.yaml"
SIDES = ("rebel", "imperial")
#: Missions that take only bonus draws from a mug of their own (FIG-CHIT-19).
BONUS_ONLY_MISSIONS = ("J", "Q")
#: Where seed 003 states each mission's outcome, cited in the report (FIG-CHIT-25).
OUTCOME_LINES = {"A": "L1620-1637", "B": "L1638-1698", "C": "L1699-1704", "D": "L1706-1708",
                 "E": "L1711-1777", "F": "L588-653, L1780-1788", "G": "L1790-1796",
                 "H": "L1799-1810", "I": "L1811-2092", "J": "L2098-2108", "P": "L2111-2115",
                 "Q": "L2117-2120", "R": "L2124-2142", "S": "L2145-2149", "T": "L2152-2156"}
#: Guard against a runaway D66 re-roll loop (FIG-CHIT-20); 36 distinct results end it sooner.
MAX_D66_ROLLS = 500

OPTIONS = {
    "chit_method": {"type": "choice", "default": "mug", "choices": ["mug", "d66"],
                    "rule": "FIG-CHIT-20",
                    "help": "draw chits from the mug, or roll a D66 on the Mission Results Table"},
    "allow_repeats": {"type": "bool", "default": False, "rule": "FIG-CHIT-20",
                      "help": "with D66 rolls, accept a result already rolled in this environs"},
    "drama": {"type": "bool", "default": False, "rule": "FIG-CHIT-22",
              "help": "offer a Drama re-draw after every chit (the bid ledger stays with the "
                      "players)"},
}


class ChitContext(ModeContext):
    """The chit-mug mode's flow context (see ``context.ModeContext``)."""


def tables(ctx: Context) -> ChitTables:
    """The Part B tables of whatever context runs the mode (its ``data``, else the default)."""
    return chit_tables(data_or_default(getattr(ctx, "data", None)))



# ================================================================================ set-up
def option_values(options: dict | None) -> dict:
    """This mode's options checked, with their defaults filled in; BadOption names a bad
    value."""
    options = dict(options or {})
    out = {}
    for key, spec in OPTIONS.items():
        value = options.get(key, spec["default"])
        if spec["type"] == "bool":
            value = parse_bool(key, value)
        else:
            value = str(value).strip().lower()
            if value not in spec["choices"]:
                raise BadOption(f"option {key} takes {', '.join(spec['choices'])}, not "
                                f"{options.get(key)!r}")
        out[key] = value
    return out


def new_state(data: FreedomData, scenario: dict, options: dict | None, seed: int) -> dict:
    """The initial state of a ``chit-mug`` scenario (FIG-CHIT-1); DataError if its context is
    not a valid Part B context."""
    context = scenario["context"]
    validate(context, SCHEMA, f"scenario {scenario.get('id')!r} context")
    data = data_or_default(data)
    chit_tables(data)                       # the load-time checks, before anything is played
    env_type = context["environs_type"]
    phasing = context["phasing_side"]
    enemy = SIDES[1 - SIDES.index(phasing)]
    groups = []
    for g in context.get("groups", []):
        mission = g["mission"]
        groups.append({
            "id": g["id"], "mission": mission, "bonus_draws": g.get("bonus_draws", 0),
            "members": list(g.get("members") or [f"{g['id']} leader"]),
            "diplomat": bool(g.get("diplomat", False)), "holders": list(g.get("holders", [])),
            "bonus_only": bool(g.get("bonus_only", False)) or mission in BONUS_ONLY_MISSIONS,
            "status": "active", "adjust": 0, "count": None, "letters": [], "lost": []})
    cells = [{"id": c["id"], "mission": c["mission"], "result": None}
             for c in context.get("cells", [])]
    _check_context(scenario.get("id"), env_type, phasing, groups, cells, context)
    flags = {k: bool(context.get("flags", {}).get(k, False))
             for k in ("trap_infiltrated", "ignore_enemy_agent", "ignore_subtracting",
                       "reverse_subtracting")}
    state = {
        "game": "freedom", "scenario": scenario.get("id"), "kind": KIND, "seed": seed,
        "options": option_values(options), "rng": Rng.from_seed(seed).to_json(),
        "stack": [{"proc": "chit_environs", "step": "start"}], "pending": None, "log": [],
        "outcome": None, "turn": context.get("game_turn", 1), "phase": "mission",
        "environs": {
            "type": env_type, "mug": "urban" if env_type == "orbit" else env_type,
            "size": 0 if env_type == "orbit" else context["size"],
            "planet": context.get("planet"), "phasing_side": phasing, "enemy_side": enemy,
            "enemy_controls_planet": bool(context.get("enemy_controls_planet", False)),
            "enemy_units": int(context.get("enemy_units", 0)),
            "special_ops": bool(context.get("special_ops", False)),
            "enemy_leader": bool(context.get("enemy_leader", False)),
            "enemy_characters": bool(context.get("enemy_characters", False)),
            "pdb_up": bool(context.get("pdb_up", context.get("enemy_controls_planet", False))),
            "creature": context.get("creature")},
        "groups": groups, "cells": cells, "flags": flags,
        "cards": list(context.get("cards", [])),
        "mug": [], "side_mug": [], "rolled": {"shared": [], "side": []}, "drawn": [],
        "events": {}, "ignored": [], "detection": None, "medical_aid": None, "marks": [],
        "report": [],
    }
    return state


def _check_context(sid, env_type, phasing, groups, cells, context) -> None:
    where = f"scenario {sid!r} context"
    ids = [g["id"] for g in groups] + [c["id"] for c in cells]
    if len(set(ids)) != len(ids):
        raise DataError(f"{where}: group and cell ids must be unique")
    missions = [g["mission"] for g in groups] + [c["mission"] for c in cells]
    if len(set(missions)) != len(missions):
        # seed 003 L1657: the same mission is never performed twice in one environs.
        raise DataError(f"{where}: two groups or cells have the same mission")
    if cells and phasing != "rebel":
        raise DataError(f"{where}: only the Rebel has Rebel Cells")
    if env_type == "orbit":
        if any(not g["bonus_only"] for g in groups) or cells:
            raise DataError(f"{where}: an orbit box hosts only bonus-only missions (J, Q)")
    elif "size" not in context:
        raise DataError(f"{where}: an environs needs its size")
    if not groups and not cells:
        raise DataError(f"{where}: no mission group and no Rebel Cell")


# ================================================================================ helpers
def phasing(ctx: Context) -> str:
    return ctx.state["environs"]["phasing_side"]


def group(ctx: Context, gid: str) -> dict:
    return next(g for g in ctx.state["groups"] if g["id"] == gid)


def group_words(g: dict) -> str:
    """A group as the reports name it: its id and its members."""
    return f"{g['id']} ({', '.join(g['members'])})"


def active_groups(ctx: Context) -> list[dict]:
    """Groups drawing shared chits and hit by events: neither stopped, aborted nor bonus-only
    (FIG-CHIT-7, FIG-CHIT-19)."""
    return [g for g in ctx.state["groups"] if g["status"] == "active" and not g["bonus_only"]]


def performing(ctx: Context, letter: str, side: str | None = "any") -> dict | None:
    """The active group performing ``letter`` (for ``side``, when the mission is one side's
    only), or None."""
    if side not in (None, "any") and side != phasing(ctx):
        return None
    return next((g for g in active_groups(ctx) if g["mission"] == letter), None)


def note(ctx: Context, rule: str, text: str, refs=(), kind: str = "note") -> dict:
    return ctx.log(rule, kind, text, refs=list(refs))


def report(ctx: Context, rule: str, text: str, **extra: Any) -> None:
    """A change for the players' board, logged now and listed in the outcome (FIG-CHIT-25)."""
    entry = {"rule": rule, "text": text}
    entry.update(extra)
    ctx.state["report"].append(entry)
    note(ctx, rule, text, refs=[v for k, v in extra.items() if k == "group"], kind="report")


def pick_group(ctx: Context, rule: str, why: str) -> dict | None:
    """One random active group (FIG-GEN-5: assignment order, a dk; nothing rolled for one)."""
    candidates = active_groups(ctx)
    if not candidates:
        return None
    return candidates[ctx.draw_index(len(candidates), rule, why)]


def abort(ctx: Context, g: dict, rule: str, why: str) -> None:
    """FIG-CHIT-16: an aborted mission loses every letter it gathered and draws no more."""
    g["status"] = "aborted"
    g["lost"] = g["letters"]
    g["letters"] = []
    lost = f", losing {len(g['lost'])} letter(s)" if g["lost"] else ""
    report(ctx, rule, f"{g['id']} ({g['mission']}) is aborted by {why}{lost} (FIG-CHIT-16)",
           group=g["id"])


def characters(ctx: Context, groups: list[dict] | None = None) -> list[str]:
    """Characters on missions here, group by group, leader first (FIG-GEN-5 order)."""
    groups = active_groups(ctx) if groups is None else groups
    return [m for g in groups for m in g["members"]]


def adjust_bonus(ctx: Context, amount: int, rule: str, why: str) -> None:
    """FIG-CHIT-14: change the bonus draws of every group active now."""
    groups = active_groups(ctx)
    for g in groups:
        g["adjust"] += amount
    if groups:
        counts = ", ".join(f"{g['id']} {g['bonus_draws'] + g['adjust']}" for g in groups)
        note(ctx, rule, f"{why}: {amount:+d} bonus draw for every active group ({counts})")


def set_detection(ctx: Context, value: str, why: str) -> None:
    ctx.state["detection"] = value
    note(ctx, "FIG-CHIT-17", f"{why}: every character here is {value}")


# ================================================================================ the environs
@procedure("chit_environs")
def chit_environs(ctx: Context, frame: dict) -> None:
    """One environs from the first regular draw to the report, by the chit-mode rules
    (FIG-CHIT): the start (FIG-CHIT-1, FIG-CHIT-6, FIG-CHIT-20, FIG-CHIT-24), the regular draws
    (FIG-CHIT-7), the Rebel Cells (FIG-CHIT-23), the counts and the bonus draws (FIG-CHIT-8),
    the bonus-only missions (FIG-CHIT-19) and the report (FIG-CHIT-25); each draw is
    ``chit_draw``'s."""
    if "answer" in frame:
        _between_answer(ctx, frame, frame.pop("answer"))
    step = frame["step"]
    if step == "start":
        _start(ctx)
        frame.update(step="regular", k=0)
        return
    if step == "regular":
        env = ctx.state["environs"]
        if frame["k"] >= env["size"] or not active_groups(ctx):
            if frame["k"] < env["size"]:
                note(ctx, "FIG-CHIT-7", f"no group is left drawing: the remaining "
                     f"{env['size'] - frame['k']} regular draw(s) are not made")
            if ctx.state["medical_aid"] == "pending":
                ctx.state["medical_aid"] = "lapsed"
                note(ctx, "FIG-CHIT-17", "Medical Aid! was not used during the regular draws "
                     "and lapses")
            frame["step"] = "cells"
            return
        if not _ready(ctx, frame):
            return
        frame["k"] += 1
        ctx.push("chit_draw", draw="regular", k=frame["k"], step="reveal")
        return
    if step == "cells":
        _cells(ctx)
        frame["step"] = "counts"
        return
    if step == "counts":
        frame.update(step="bonus", k=0, n=_fix_counts(ctx))
        return
    if step == "bonus":
        k = frame["k"]
        takers = [g for g in active_groups(ctx) if g["count"] > k]
        if k >= frame["n"] or not takers:
            frame.update(step="bonus_only", k=0)
            return
        if not _ready(ctx, frame):
            return
        frame["k"] += 1
        ctx.push("chit_draw", draw="bonus", k=frame["k"], step="reveal")
        return
    if step == "bonus_only":
        k = frame["k"]
        takers = [g for g in ctx.state["groups"]
                  if g["bonus_only"] and g["status"] == "active" and g["count"] > k]
        if k == 0 and takers and ctx.state["options"]["chit_method"] == "mug":
            # FIG-CHIT-19 [DECIDED]: a mug of its own, shuffled apart from the shared pile.
            ctx.state["side_mug"] = shuffle(
                ctx, tables(ctx).mug(ctx.state["environs"]["mug"]), "FIG-CHIT-19",
                f"a separate {ctx.state['environs']['mug'].title()} mug for the bonus-only "
                "missions")
        if not takers:
            frame["step"] = "finish"
            return
        frame["k"] += 1
        ctx.push("chit_draw", draw="bonus_only", k=frame["k"], step="reveal")
        return
    if step == "finish":
        ctx.pop()
        _finish(ctx)


def _ready(ctx: Context, frame: dict) -> bool:
    """Before every draw but the very first, the phasing player may stop groups (FIG-CHIT-7)
    or use a waiting Medical Aid!; True once he says draw."""
    if frame.pop("go", False) or not ctx.state["drawn"]:
        return True
    what = "regular draw" if frame["step"] == "regular" else "bonus draw"
    ctx.ask("chit_next", f"Next: {what} {frame['k'] + 1}. Draw, or stop a group first",
            role="phasing", rule="FIG-CHIT-7", draw=what, k=frame["k"] + 1)
    return False


def _between_answer(ctx: Context, frame: dict, action: dict) -> None:
    verb = action["verb"]
    if verb == "draw":
        frame["go"] = True
    elif verb == "stop":
        g = group(ctx, action["group"])
        g["status"] = "stopped"
        note(ctx, "FIG-CHIT-7", f"{g['id']} ({g['mission']}) stops drawing and keeps its "
             f"{len(g['letters'])} letter(s)", refs=[g["id"]])
    elif verb == "heal":
        _heal(ctx, action.get("character"))


@legal("chit_next")
def legal_chit_next(ctx: Context, pending: dict) -> list[dict]:
    out = [{"verb": "draw"}]
    out += [{"verb": "stop", "group": g["id"]} for g in active_groups(ctx)]
    if ctx.state["medical_aid"] == "pending":
        out += [{"verb": "heal", "character": c} for c in characters(ctx, ctx.state["groups"])]
    return out


def _start(ctx: Context) -> None:
    state = ctx.state
    env = state["environs"]
    t = tables(ctx)
    what = "orbit box" if env["type"] == "orbit" else f"{env['type']} environs, size {env['size']}"
    groups = "; ".join(f"{g['id']} {g['mission']} ({g['bonus_draws']} bonus)"
                       for g in state["groups"]) or "none"
    note(ctx, "FIG-CHIT-1", f"{env['phasing_side'].title()} missions in the {what}"
         f"{' on ' + env['planet'] if env['planet'] else ''}: groups {groups}"
         + (f"; cells {', '.join(c['id'] + ' ' + c['mission'] for c in state['cells'])}"
            if state["cells"] else ""))
    _card_reminders(ctx)
    for name, on in state["flags"].items():
        if on:
            note(ctx, "FIG-CHIT-1", f"side flag for the {env['phasing_side']}: "
                 f"{name.replace('_', ' ')}")
    if any(not g["bonus_only"] for g in state["groups"]) and env["size"] > 0:
        if state["options"]["chit_method"] == "mug":
            state["mug"] = shuffle(ctx, t.mug(env["mug"]), "FIG-CHIT-6",
                                   f"the {env['mug'].title()} mug")
        else:
            note(ctx, "FIG-CHIT-20", "chits are rolled on the Mission Results Table (D66) "
                 + ("repeats allowed" if state["options"]["allow_repeats"]
                    else "a result already rolled here is rolled again"))


def _card_reminders(ctx: Context) -> None:
    """FIG-CHIT-24: event cards in play that touch missions: flags for the phasing side, the
    rest as reminders."""
    state = ctx.state
    if not state["cards"]:
        return
    data = data_or_default(getattr(ctx, "data", None))
    cards = {c["id"]: c for c in data.tables["events_cards"]["cards"]}
    side = phasing(ctx)
    for cid in state["cards"]:
        card = cards.get(cid)
        if card is None:
            continue
        for moment in ("while_face_up", "on_due"):
            for eff in ((card.get(moment) or {}).get("effects") or []):
                if eff["key"] == "chit_flag" and eff["side"] == side:
                    state["flags"][eff["flag"]] = True
                    note(ctx, "FIG-CHIT-24", f"{cid} {card['title']}: "
                         f"{eff['flag'].replace('_', ' ')} for the {side}")
                elif eff["key"] == "chit_schedule" and eff["side"] == side:
                    row = next((r for r in eff["schedule"] if r["turn"] == state["turn"]), None)
                    if row is None:
                        continue
                    for flag in ("ignore_enemy_agent", "ignore_subtracting"):
                        if row[flag]:
                            state["flags"][flag] = True
                    note(ctx, "FIG-CHIT-24", f"{cid} {card['title']}, turn {state['turn']}: "
                         f"+{row['bonus_draws']} bonus draws for the {side}'s groups (enter "
                         f"them in the counts)"
                         + ("; Enemy Agent! may be ignored" if row["ignore_enemy_agent"] else "")
                         + ("; draw-subtracting chits may be ignored"
                            if row["ignore_subtracting"] else ""))
                elif eff["key"] == "chit_reminder":
                    note(ctx, "FIG-CHIT-24", f"reminder, {cid} {card['title']}: "
                         f"{card[moment]['text']}")


# ================================================================================ a draw
@procedure("chit_draw")
def chit_draw(ctx: Context, frame: dict) -> None:
    """One chit: revealed, perhaps re-drawn by Drama, its event applied on a regular draw, its
    letters counted (FIG-CHIT-7, FIG-CHIT-8, FIG-CHIT-9, FIG-CHIT-15, FIG-CHIT-22)."""
    answer = frame.pop("answer", None)
    step = frame["step"]
    if step == "reveal":
        chit = _take(ctx, frame)
        if chit is None:
            ctx.pop()
            return
        frame["chit"] = chit
        if ctx.state["options"]["drama"] and not frame.get("redone"):
            frame["step"] = "drama"
            ctx.ask("chit_drama", f"{chit} drawn: keep it, or use Drama to draw again",
                    role="phasing", rule="FIG-CHIT-22", chit=chit)
            return
        frame["step"] = "event"
        step = "event"
    if step == "drama":
        if answer["verb"] == "keep":
            frame["step"] = "event"
            step = "event"
            answer = None
        else:
            _drama(ctx, frame)
            return
    if step == "bid":
        other = ctx.state["environs"]["enemy_side"]
        choice = ("makes the Drama user's bid one turn harder"
                  if answer["choice"] == "harder_for_them" else "makes its own bid one turn easier")
        note(ctx, "FIG-CHIT-22", f"the {other} {choice} (for the players' bid ledger)")
        ctx.state["report"].append({"rule": "FIG-CHIT-22", "text": f"Drama: the {other} {choice}"})
        frame.update(step="reveal", redone=True)
        return
    if step == "event":
        if frame["draw"] == "regular":
            if not apply_event(ctx, frame, answer):
                return
        else:
            record = _record(ctx, frame)
            record["event"] = "not applied"
            note(ctx, "FIG-CHIT-9", f"{frame['chit']}: events do not apply on bonus draws")
        score(ctx, frame)
        ctx.pop()


def _take(ctx: Context, frame: dict) -> str | None:
    """The next chit of the pile (or a D66 roll, FIG-CHIT-20); None when the pile is out
    (FIG-CHIT-21)."""
    state = ctx.state
    side = frame["draw"] == "bonus_only"
    label = {"regular": "regular", "bonus": "bonus", "bonus_only": "bonus-only"}[frame["draw"]]
    mug = state["environs"]["mug"]
    t = tables(ctx)
    if state["options"]["chit_method"] == "d66":
        used = state["rolled"]["side" if side else "shared"]
        repeats = state["options"]["allow_repeats"]
        if not repeats and len(used) >= 36:
            note(ctx, "FIG-CHIT-21", f"{label} draw {frame['k']}: all 36 results are used, "
                 "the draw yields nothing")
            return None
        for _ in range(MAX_D66_ROLLS):
            d66 = ctx.roll("d66", "FIG-CHIT-20", f"{label} draw {frame['k']}")
            if repeats or d66 not in used:
                break
            note(ctx, "FIG-CHIT-20", f"{d66} was already rolled here: rolled again")
        else:
            note(ctx, "FIG-CHIT-21", f"no new D66 result in {MAX_D66_ROLLS} rolls: the draw "
                 "yields nothing")
            return None
        used.append(d66)
        chit = t.chit(mug, d66).id
    else:
        pile = state["side_mug" if side else "mug"]
        if not pile:
            note(ctx, "FIG-CHIT-21", f"{label} draw {frame['k']}: the mug is empty, the draw "
                 "yields nothing")
            return None
        chit = pile.pop(0)
    note(ctx, "FIG-CHIT-6", f"{label.capitalize()} {frame['k']}: {chit} "
         f"\u201c{t.by_id(chit).label()}\u201d", refs=[chit], kind="draw")
    return chit


def _drama(ctx: Context, frame: dict) -> None:
    """FIG-CHIT-22: the chit goes back, the mug is mixed, the other side picks its bid shift,
    then a replacement is drawn (and must be kept)."""
    state = ctx.state
    chit = frame.pop("chit")
    note(ctx, "FIG-CHIT-22", f"the {phasing(ctx)} uses Drama: {chit} goes back into the mug",
         refs=[chit])
    if state["options"]["chit_method"] == "mug":
        key = "side_mug" if frame["draw"] == "bonus_only" else "mug"
        state[key] = shuffle(ctx, state[key] + [chit], "FIG-CHIT-22", "the mug with it")
    else:
        used = state["rolled"]["side" if frame["draw"] == "bonus_only" else "shared"]
        used.remove(int(chit.split("-")[1]))
    frame["step"] = "bid"
    ctx.ask("chit_drama_bid", f"The {phasing(ctx)} used Drama: make his bid one turn harder, "
            "or your own one turn easier", role="enemy", rule="FIG-CHIT-22")


@legal("chit_drama")
def legal_chit_drama(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "keep"}, {"verb": "drama"}]


@legal("chit_drama_bid")
def legal_chit_drama_bid(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "bid", "choice": "harder_for_them"},
            {"verb": "bid", "choice": "easier_for_me"}]


def _record(ctx: Context, frame: dict) -> dict:
    """The entry of this draw in ``drawn`` (made once)."""
    drawn = ctx.state["drawn"]
    if not drawn or (drawn[-1]["draw"], drawn[-1]["k"]) != (frame["draw"], frame["k"]):
        drawn.append({"chit": frame["chit"], "draw": frame["draw"], "k": frame["k"],
                      "event": None})
    return drawn[-1]


def score(ctx: Context, frame: dict) -> None:
    """FIG-CHIT-15: each letter scores one for the group of that mission that is drawing this
    chit: every active group on a regular draw, on bonus draw k those whose count is at least
    k (FIG-CHIT-8), on a bonus-only draw the bonus-only groups likewise (FIG-CHIT-19)."""
    chit = tables(ctx).by_id(frame["chit"])
    draw, k = frame["draw"], frame["k"]
    if draw == "regular":
        takers = active_groups(ctx)
    elif draw == "bonus":
        takers = [g for g in active_groups(ctx) if g["count"] >= k]
    else:
        takers = [g for g in ctx.state["groups"]
                  if g["bonus_only"] and g["status"] == "active" and g["count"] >= k]
    scored = []
    for g in takers:
        for letter in chit.letters:
            if letter == g["mission"]:
                g["letters"].append({"letter": letter, "chit": chit.id,
                                     "draw": "regular" if draw == "regular" else "bonus",
                                     "k": k})
                scored.append(f"{g['id']} scores {letter} {len(g['letters'])} "
                              f"({'regular' if draw == 'regular' else 'bonus'})")
    if draw != "regular":
        others = [g["id"] for g in takers]
        why = f"counts for {', '.join(others)}" if others else "counts for no group"
    else:
        why = "counts for every active group"
    note(ctx, "FIG-CHIT-15", f"{chit.id} {why}: "
         + ("; ".join(scored) if scored else "no letter scores"), refs=[chit.id], kind="letters")


# ================================================================================ events
def verdict(ctx: Context, chit) -> tuple[str, str]:
    """Whether the event of a regular-draw chit acts, and the rule that says so."""
    state = ctx.state
    t = tables(ctx)
    name = chit.event
    event = t.action_event(name)
    seen = state["events"].get(name)
    if seen == "void":
        return "void", "FIG-CHIT-12"
    if seen == "applied":
        return "same", "FIG-CHIT-10"
    for other in event.contradicts:
        if state["events"].get(other) == "applied":
            return "blocked", "FIG-CHIT-11"
    if name in state["ignored"]:
        return "ignored", "FIG-CHIT-17"
    need = event.requires_mission
    if need is not None and performing(ctx, need["letter"], need["side"]) is None:
        return "no_mission", "FIG-CHIT-17"
    return "go", "FIG-CHIT-17"


VERDICT_TEXT = {
    "void": "has been overruled in this environs and is ignored",
    "same": "already happened here: only its letters count",
    "blocked": "is blocked by the contradicting event that happened first",
    "ignored": "is ignored here for the rest of the phase",
    "no_mission": "needs a mission nobody performs here: nothing happens",
}


def apply_event(ctx: Context, frame: dict, answer: dict | None) -> bool:
    """The event of a regular-draw chit; False while a player is asked (the answer comes back
    here), True when done."""
    t = tables(ctx)
    chit = t.by_id(frame["chit"])
    record = _record(ctx, frame)
    if "verdict" not in frame:
        result, rule = verdict(ctx, chit)
        frame["verdict"] = result
        if result != "go":
            record["event"] = result
            note(ctx, rule, f"{chit.event} {VERDICT_TEXT[result]}", refs=[chit.id], kind="event")
            return True
        record["event"] = "applied"
        ctx.state["events"][chit.event] = "applied"
    event = t.action_event(chit.event)
    handler = HANDLERS[event.effect_key]
    done = handler(ctx, frame, chit, event, answer)
    if done:
        frame.pop("verdict", None)
        frame.pop("sub", None)
    return done


def standing(ctx: Context, chit, event, why: str | None = None) -> None:
    """What every acting event does to the environs as a whole: detection, overrules
    (FIG-CHIT-12), bonus draws (FIG-CHIT-14) and what it switches off for the phase."""
    state = ctx.state
    why = why or chit.event
    if event.detection:
        set_detection(ctx, event.detection, why)
    for o in tables(ctx).overrules(chit.event):
        if o.letter is not None and performing(ctx, o.letter, o.side) is None:
            continue
        if state["events"].get(o.overrules) != "void":
            was = state["events"].get(o.overrules)
            state["events"][o.overrules] = "void"
            note(ctx, "FIG-CHIT-12", f"{chit.event} overrules {o.overrules}: "
                 + ("its effect is undone and " if was == "applied" else "")
                 + "later chits of it are ignored here")
    for what in event.ignores_later:
        if what not in state["ignored"]:
            state["ignored"].append(what)
            label = "sentry robots" if what == "sentry_robots" else what
            note(ctx, "FIG-CHIT-17", f"{chit.event}: {label} have no effect here for the rest "
                 "of the phase")


def ev_flag(ctx, frame, chit, event, answer) -> bool:
    """Civil Disorder!, Populace goes wild!, Enemy infiltrated!, Imperial Atrocity!: marked
    for the report."""
    standing(ctx, chit, event)
    ctx.state["marks"].append(event.effect_key)
    report(ctx, "FIG-CHIT-17", f"{chit.event} {event.summary}")
    return True


def ev_gain(ctx, frame, chit, event, answer) -> bool:
    standing(ctx, chit, event)
    adjust_bonus(ctx, event.bonus_draws, "FIG-CHIT-14", chit.event)
    return True


def ev_loss(ctx, frame, chit, event, answer) -> bool:
    """A subtracting event, unless the phasing side's flags reverse or ignore it (FIG-CHIT-14;
    reversing wins when both are set)."""
    flags = ctx.state["flags"]
    standing(ctx, chit, event)
    if flags["reverse_subtracting"]:
        adjust_bonus(ctx, -event.bonus_draws, "FIG-CHIT-14", f"{chit.event}, reversed")
    elif flags["ignore_subtracting"]:
        note(ctx, "FIG-CHIT-14", f"{chit.event} is ignored: the {phasing(ctx)} ignores "
             "subtracting events")
    else:
        adjust_bonus(ctx, event.bonus_draws, "FIG-CHIT-14", chit.event)
    return True


def ev_ignore(ctx, frame, chit, event, answer) -> bool:
    standing(ctx, chit, event)
    return True


def ev_detection(ctx, frame, chit, event, answer) -> bool:
    """Shelter!, Tracks lost in Wilderness!, Surveillance Systems!."""
    standing(ctx, chit, event)
    return True


def ev_enemy_agent(ctx, frame, chit, event, answer) -> bool:
    state = ctx.state
    if state["flags"]["ignore_enemy_agent"]:
        note(ctx, "FIG-CHIT-14", f"{chit.event} is ignored: the {phasing(ctx)} ignores it")
        return True
    if state["flags"]["trap_infiltrated"] and phasing(ctx) == "rebel":
        adjust_bonus(ctx, 1, "FIG-CHIT-14", f"{chit.event}, turned by the infiltrated Trap!")
        return True
    standing(ctx, chit, event)
    g = pick_group(ctx, "FIG-CHIT-17", "Enemy Agent!: the mission aborted")
    if g is not None:
        abort(ctx, g, "FIG-CHIT-17", "Enemy Agent!")
    return True


def ev_rebellion_falters(ctx, frame, chit, event, answer) -> bool:
    standing(ctx, chit, event)
    abort(ctx, performing(ctx, "R", "rebel"), "FIG-CHIT-17", "Rebellion falters!")
    return True


def ev_wrong_soldier(ctx, frame, chit, event, answer) -> bool:
    env = ctx.state["environs"]
    g = performing(ctx, "T")
    standing(ctx, chit, event)
    abort(ctx, g, "FIG-CHIT-17", "Wrong Soldier contacted!")
    who = ", ".join(g["members"])
    if env["enemy_leader"]:
        report(ctx, "FIG-CHIT-17", f"the T group ({who}) is captured by the enemy leader",
               group=g["id"])
    elif env["special_ops"]:
        report(ctx, "FIG-CHIT-17", f"Special Ops capture the T group ({who})", group=g["id"])
    elif env["enemy_units"] > 0:
        report(ctx, "FIG-CHIT-17", f"a squad of the {env['enemy_side']} units here attacks the "
               f"T group ({who}); the players fight it out", group=g["id"])
    return True


def ev_breach(ctx, frame, chit, event, answer) -> bool:
    g = performing(ctx, "D")
    if "Advisor Android" in g["holders"]:
        if answer is None:
            return _ask_immunity(ctx, chit, g, "Advisor Android")
        if answer["verb"] == "ignore":
            note(ctx, "FIG-CHIT-13", f"the Advisor Android lets {g['id']} ignore "
                 f"{chit.event}", refs=[g["id"]])
            return True
    standing(ctx, chit, event)
    shift = chit.version == "abort & shift"
    if g["diplomat"]:
        if shift:
            abort(ctx, g, "FIG-CHIT-17", "Breach of Protocol! (no shift: a diplomat is along)")
        else:
            note(ctx, "FIG-CHIT-17", f"Breach of Protocol!: a member of {g['id']} has "
                 "diplomacy 2 or more, D goes on", refs=[g["id"]])
        return True
    abort(ctx, g, "FIG-CHIT-17", "Breach of Protocol!")
    if shift:
        report(ctx, "FIG-CHIT-17", f"loyalty moves one space toward the "
               f"{ctx.state['environs']['enemy_side']}")
    return True


def ev_coup_fails(ctx, frame, chit, event, answer) -> bool:
    env = ctx.state["environs"]
    g = performing(ctx, "C")
    standing(ctx, chit, event)
    abort(ctx, g, "FIG-CHIT-17", "Coup fails!")
    face = ctx.roll("d6", "FIG-CHIT-18", f"Coup fails! backlash, variant {chit.version}")
    result = tables(ctx).backlash(chit.version, face)
    if result["shift"]:
        report(ctx, "FIG-CHIT-18", f"Coup fails! backlash: loyalty moves {result['shift']} "
               f"space toward the {env['enemy_side']}")
    else:
        note(ctx, "FIG-CHIT-18", "Coup fails! backlash: nothing beyond the abort")
    if result["capture"] != "none":
        if not (env["enemy_units"] > 0 or env["enemy_characters"]):
            note(ctx, "FIG-CHIT-18", f"no {env['enemy_side']} unit or character is here: "
                 "nobody is captured")
        elif result["capture"] == "whole_group":
            report(ctx, "FIG-CHIT-18", f"the whole C group ({', '.join(g['members'])}) is "
                   "captured", group=g["id"])
        else:
            i = ctx.draw_index(len(g["members"]), "FIG-CHIT-18", "the captured member")
            report(ctx, "FIG-CHIT-18", f"{g['members'][i]} of the C group is captured",
                   group=g["id"])
    return True


def ev_creature(ctx, frame, chit, event, answer) -> bool:
    """Creature attacks!: the named creature, else the footnoted sentry robots where the enemy
    controls the planet; then the target group's immunities (FIG-CHIT-13)."""
    env = ctx.state["environs"]
    t = tables(ctx)
    standing(ctx, chit, event)
    if env["creature"]:
        attacker, part = env["creature"], "creature"
    else:
        robots = t.robots(chit)
        if robots == 0:
            note(ctx, "FIG-CHIT-17", "Creature attacks!: no creature is named and the chit "
                 "sends no robot")
            return True
        if not env["enemy_controls_planet"]:
            note(ctx, "FIG-CHIT-17", f"Creature attacks!: {robots} sentry robot(s), but they "
                 f"attack only where the {env['enemy_side']} controls the planet")
            return True
        if "sentry_robots" in ctx.state["ignored"]:
            note(ctx, "FIG-CHIT-17", "Creature attacks!: sentry robots are switched off here")
            return True
        attacker, part = f"{robots} sentry robot{'s' if robots > 1 else ''}", "sentry_robots"
    g = pick_group(ctx, "FIG-CHIT-17", "Creature attacks!: the group attacked")
    if g is None:
        return True
    for holder in g["holders"]:
        imm = t.immunities.get(holder)
        ignored = imm.ignores.get(chit.event) if imm else None
        if ignored in ("all", part):
            note(ctx, "FIG-CHIT-13", f"{holder} lets {g['id']} ignore the attack of {attacker}",
                 refs=[g["id"]])
            if imm.afterwards == "roll_inoperable":
                report(ctx, "FIG-CHIT-13", f"{holder} must roll for becoming inoperable (their "
                       "card)", group=g["id"])
            return True
    report(ctx, "FIG-CHIT-17", f"{attacker} attack{'s' if part == 'creature' else ''} "
           f"{group_words(g)}; the players fight it out", group=g["id"])
    return True


def ev_locals(ctx, frame, chit, event, answer) -> bool:
    if answer is None:
        standing(ctx, chit, event)
        g = pick_group(ctx, "FIG-CHIT-17", "Locals attack!: the group attacked")
        if g is None:
            return True
        frame["sub"] = g["id"]
        if "Oneste Woada" in g["holders"]:
            return _ask_immunity(ctx, chit, g, "Oneste Woada")
    g = group(ctx, frame["sub"])
    if answer is not None and answer["verb"] == "ignore":
        note(ctx, "FIG-CHIT-13", f"Oneste Woada lets {g['id']} ignore {chit.event}",
             refs=[g["id"]])
        return True
    report(ctx, "FIG-CHIT-17", f"the locals attack {group_words(g)}; the "
           "players fight it out", group=g["id"])
    return True


def ev_security(ctx, frame, chit, event, answer) -> bool:
    """Security Measures!: detection, then the search or the squad of its footnote."""
    env = ctx.state["environs"]
    t = tables(ctx)
    standing(ctx, chit, event)
    if chit.version == "search":
        if env["enemy_units"] <= 0:
            note(ctx, "FIG-CHIT-17", "Security Measures! (search): no enemy unit here, "
                 "detection only")
            return True
        g = pick_group(ctx, "FIG-CHIT-17", "Security Measures!: the group searched for")
        if g is not None:
            report(ctx, "FIG-CHIT-17", f"the {env['enemy_side']} units here may search for "
                   + group_words(g), group=g["id"])
    elif chit.version == "found":
        robot = not (env["special_ops"] or env["enemy_units"] > 0)
        if robot and (not env["enemy_controls_planet"] or "sentry_robots" in ctx.state["ignored"]):
            note(ctx, "FIG-CHIT-17", "Security Measures! (found): no enemy unit here and no "
                 "sentry robot can act")
            return True
        g = pick_group(ctx, "FIG-CHIT-17", "Security Measures!: the group found")
        if g is None:
            return True
        who = group_words(g)
        if env["special_ops"]:
            report(ctx, "FIG-CHIT-17", f"Special Ops capture {who}", group=g["id"])
        elif env["enemy_units"] > 0:
            report(ctx, "FIG-CHIT-17", f"a squad of the {env['enemy_side']} units here attacks "
                   f"{who}; the players fight it out", group=g["id"])
        else:
            for holder in g["holders"]:
                imm = t.immunities.get(holder)
                if imm and imm.ignores.get(chit.event) in ("all", "sentry_robots"):
                    note(ctx, "FIG-CHIT-13", f"{holder} lets {g['id']} ignore the sentry robot",
                         refs=[g["id"]])
                    return True
            report(ctx, "FIG-CHIT-17", f"one sentry robot attacks {who}; the players fight it "
                   "out", group=g["id"])
    return True


def ev_enemy_loss(ctx, frame, chit, event, answer) -> bool:
    """Locals raid Enemy Forces!, Disaster strikes!: the non-phasing side picks its loss."""
    env = ctx.state["environs"]
    if answer is None:
        standing(ctx, chit, event)
        choices = _loss_choices(ctx)
        if not choices:
            note(ctx, "FIG-CHIT-17", f"{chit.event}: the {env['enemy_side']} has no unit here "
                 "and no PDB up, nothing happens")
            return True
        if len(choices) > 1:
            ctx.ask("chit_enemy_loss", f"{chit.event}: lose one unit here, or put your PDB down",
                    role="enemy", rule="FIG-CHIT-17", event=chit.event)
            return False
        answer = choices[0]
    if answer["verb"] == "lose_unit":
        env["enemy_units"] -= 1
        report(ctx, "FIG-CHIT-17", f"{chit.event}: the {env['enemy_side']} loses one unit here "
               "(its choice which)")
    else:
        env["pdb_up"] = False
        report(ctx, "FIG-CHIT-17", f"{chit.event}: the {env['enemy_side']} puts its PDB down")
    return True


def _loss_choices(ctx: Context) -> list[dict]:
    env = ctx.state["environs"]
    out = []
    if env["enemy_units"] > 0:
        out.append({"verb": "lose_unit"})
    if env["enemy_controls_planet"] and env["pdb_up"]:
        out.append({"verb": "pdb_down"})
    return out


@legal("chit_enemy_loss")
def legal_chit_enemy_loss(ctx: Context, pending: dict) -> list[dict]:
    return _loss_choices(ctx)


def ev_medical_aid(ctx, frame, chit, event, answer) -> bool:
    if answer is None:
        standing(ctx, chit, event)
        ctx.state["medical_aid"] = "offered"
        ctx.ask("chit_medical_aid", "Medical Aid!: heal one wound of a character here, now or "
                "at a later regular draw", role="phasing", rule="FIG-CHIT-17",
                later=frame["k"] < ctx.state["environs"]["size"])
        return False
    if answer["verb"] == "heal":
        _heal(ctx, answer["character"])
    elif answer["verb"] == "later":
        ctx.state["medical_aid"] = "pending"
        note(ctx, "FIG-CHIT-17", "Medical Aid! is kept for a later regular draw")
    else:
        ctx.state["medical_aid"] = "used"
        note(ctx, "FIG-CHIT-17", "Medical Aid!: nobody here needs healing")
    return True


def _heal(ctx: Context, who: str) -> None:
    ctx.state["medical_aid"] = "used"
    report(ctx, "FIG-CHIT-17", f"Medical Aid!: {who} heals one wound")


@legal("chit_medical_aid")
def legal_chit_medical_aid(ctx: Context, pending: dict) -> list[dict]:
    out = [{"verb": "heal", "character": c} for c in characters(ctx, ctx.state["groups"])]
    if pending.get("later"):
        out.append({"verb": "later"})
    return out + [{"verb": "none"}]


def ev_accident(ctx, frame, chit, event, answer) -> bool:
    if answer is None:
        standing(ctx, chit, event)
        if not characters(ctx):
            return True
        ctx.ask("chit_accident", "Accident!: choose the character on a mission here who takes "
                "one wound", role="phasing", rule="FIG-CHIT-17")
        return False
    report(ctx, "FIG-CHIT-17", f"Accident!: {answer['character']} takes one wound")
    return True


@legal("chit_accident")
def legal_chit_accident(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "wound", "character": c} for c in characters(ctx)]


def _ask_immunity(ctx: Context, chit, g: dict, holder: str) -> bool:
    ctx.ask("chit_immunity", f"{holder} may let {g['id']} ignore {chit.event}: ignore it?",
            role="phasing", rule="FIG-CHIT-13", holder=holder, group=g["id"])
    return False


@legal("chit_immunity")
def legal_chit_immunity(ctx: Context, pending: dict) -> list[dict]:
    return [{"verb": "ignore"}, {"verb": "accept"}]


HANDLERS = {
    "breach_of_protocol": ev_breach, "civil_war": ev_flag, "bonus_draw_gain": ev_gain,
    "coup_fails": ev_coup_fails, "creature_attack": ev_creature, "bonus_draw_loss": ev_loss,
    "enemy_agent": ev_enemy_agent, "ignore_event": ev_ignore, "atrocity_allowed": ev_flag,
    "locals_attack": ev_locals, "enemy_unit_loss": ev_enemy_loss, "heal_wound": ev_medical_aid,
    "populace_wild": ev_flag, "rebellion_falters": ev_rebellion_falters,
    "security_measures": ev_security, "all_undetected": ev_detection,
    "wrong_soldier": ev_wrong_soldier, "enemy_revealed": ev_flag, "all_detected": ev_detection,
    "accident_wound": ev_accident, "ignore_sentry_robots": ev_ignore,
}


# ================================================================================ after draws
def _cells(ctx: Context) -> None:
    """FIG-CHIT-23: each Rebel Cell rolls once the regular draws are done."""
    t = tables(ctx)
    taken = {g["mission"] for g in ctx.state["groups"]}
    for cell in ctx.state["cells"]:
        face = ctx.roll("d6", "FIG-CHIT-23", f"Rebel Cell {cell['id']} on {cell['mission']}")
        band = t.subroll("mission_roll", face)
        mission = None
        if band["result"] == "success":
            mission = cell["mission"]
        elif band["result"] == "other_mission":
            others = sorted(set(t.cell_missions()) - {cell["mission"]})
            face2 = ctx.roll("d6", "FIG-CHIT-23", f"Rebel Cell {cell['id']}: which mission "
                             "instead")
            pick = t.subroll("other_mission_roll", face2)["mission"]
            mission = {"first_other": others[0], "second_other": others[1]}.get(pick, pick)
            if mission in taken:
                note(ctx, "FIG-CHIT-23", f"Rebel Cell {cell['id']}: characters already perform "
                     f"{mission} here, nothing happens")
                mission = None
        if mission is None:
            cell["result"] = {"mission": None, "letters": 0}
            if band["result"] == "nothing":
                note(ctx, "FIG-CHIT-23", f"Rebel Cell {cell['id']}: nothing happens")
            continue
        face3 = ctx.roll("d6", "FIG-CHIT-23", f"Rebel Cell {cell['id']}: letters")
        letters = t.subroll("letters_roll", face3)["letters"]
        cell["result"] = {"mission": mission, "letters": letters}
        report(ctx, "FIG-CHIT-23", f"Rebel Cell {cell['id']} succeeds in {mission} with "
               f"{letters} letter(s)", cell=cell["id"])


def _fix_counts(ctx: Context) -> int:
    """FIG-CHIT-8: each group still drawing gets its bonus count, floored at 0; returns how
    many shared bonus chits are drawn (the largest count)."""
    parts = []
    most = 0
    for g in ctx.state["groups"]:
        if g["status"] != "active":
            continue
        if g["bonus_only"]:
            g["count"] = max(0, g["bonus_draws"])
            parts.append(f"{g['id']} {g['count']} (bonus-only)")
            continue
        g["count"] = max(0, g["bonus_draws"] + g["adjust"])
        most = max(most, g["count"])
        parts.append(f"{g['id']} {g['count']}")
    if parts:
        note(ctx, "FIG-CHIT-8", f"bonus counts {', '.join(parts)}: {most} shared bonus "
             f"chit{'s' if most != 1 else ''} to draw")
    return most


def _finish(ctx: Context) -> None:
    """FIG-CHIT-6 (the chits go back) and FIG-CHIT-25 (the report)."""
    state = ctx.state
    n = len(state["drawn"])
    note(ctx, "FIG-CHIT-6", f"{n} chit{'s' if n != 1 else ''} drawn in this environs go back "
         "into the mug")
    state["mug"] = []
    state["side_mug"] = []
    outcome: list[dict] = []
    for g in state["groups"]:
        regular = sum(1 for x in g["letters"] if x["draw"] == "regular")
        bonus = len(g["letters"]) - regular
        status = {"active": "", "stopped": ", stopped by the player",
                  "aborted": ", aborted"}[g["status"]]
        outcome.append({
            "rule": "FIG-CHIT-25", "group": g["id"], "mission": g["mission"],
            "letters": len(g["letters"]), "regular": regular, "bonus": bonus,
            "chits": [x["chit"] for x in g["letters"]],
            "text": f"{g['id']} ({g['mission']}): {len(g['letters'])} letter(s), {regular} from "
                    f"regular and {bonus} from bonus draws{status}; seed 003 "
                    f"{OUTCOME_LINES[g['mission']]} says what they achieve"})
    if state["detection"]:
        outcome.append({"rule": "FIG-CHIT-17",
                        "text": f"every character here ends {state['detection']}"})
    outcome.extend(state["report"])
    outcome.append({"rule": "FIG-CHIT-6", "text": f"{n} distinct chits were drawn and go back "
                    "into the mug", "chits": [d["chit"] for d in state["drawn"]]})
    state["outcome"] = outcome


# ================================================================================ views, bots
def redact(state: dict, role: str) -> dict:
    """What ``role`` may see of a chit-mug state: everything but the mugs' order (shown as
    counts)."""
    view = clone(state)
    view["mug"] = len(state["mug"])
    view["side_mug"] = len(state["side_mug"])
    view.pop("rng", None)
    return view


def choose(state: dict, view: Any, role: str, legal_actions: list[dict], policy: str,
           rng) -> dict:
    """An answer for the ``simple`` policy (draw on, keep every chit, take immunities, heal the
    first character, lose a unit rather than the PDB...) or the ``random`` one (any legal
    action, drawn with ``rng``, never the game's generator)."""
    if not legal_actions:
        raise ValueError("no legal action to choose from")
    if policy == "random":
        return legal_actions[rng.below(len(legal_actions))]
    kind = (state.get("pending") or {}).get("kind")
    preferred = {"chit_next": {"verb": "draw"}, "chit_drama": {"verb": "keep"},
                 "chit_immunity": {"verb": "ignore"}}.get(kind)
    if preferred is not None and preferred in legal_actions:
        return preferred
    return legal_actions[0]
