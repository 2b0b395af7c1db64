"""The fourteen Part A missions, by the mission rules, FIG-MSN (each function names the IDs it
implements): who may attempt what (FIG-MIS-3, FIG-MIS-4), how far bonus rolls are worth rolling
(FIG-MIS-25), and what success levels and failures do at the end (FIG-MIS-22).

Requirements are the ``requires`` keys of missions.yaml. A requirement that rests on a rating
the players have not entered yet is taken as met while the groups are formed; the assignment
segment asks for the rating before the Mission Action segment starts (FIG-CTX-9) and refuses
the group then if it falls short (:func:`missing_ratings`).

The resolution is the ``resolution`` procedure: loyalty shifts, then rebellion changes, then the
other effects in mission-letter order, then failure captures and deaths. It pauses for the
choices the rules give the phasing player (the I option, who receives a possession, the seats
of a spaceship) and for random picks, which may be re-rolled with a mulligan.
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.games.freedom.context import LOYALTY, Ctx
from struggle_desktop.games.freedom.registry import RULES

procedure = RULES.procedure
legal = RULES.legal

#: Where a mission may be tried in an orbit box (the introduction of section 2, FIG-MIS-5).
ORBIT_MISSIONS = ("J", "Q")
#: Missions whose group names a target when it is formed (FIG-MSN-1, FIG-MSN-5, FIG-MSN-11,
#: FIG-MSN-13, FIG-MSN-14; the J target is optional: an atrocity unit, besides the captives).
TARGETED = ("A", "E", "Q", "S", "T")


# ================================================================================ requirements
def free_characters(ctx: Ctx, groups: list[dict]) -> list[str]:
    """The phasing side's characters who may still join a group: here, free, alive, not
    resting (FIG-MIS-3) and in no group yet; entry order."""
    taken = {m for g in groups for m in g["members"]}
    return [c["name"] for c in ctx.present(ctx.side)
            if not c["resting"] and c["name"] not in taken]


def free_performers(ctx: Ctx, groups: list[dict]) -> list[dict]:
    """Cells and camps without a mission yet (FIG-MSN-15); only the Rebel has them."""
    taken = {g["performer"] for g in groups}
    if ctx.side != "rebel":
        return []
    return [c for c in ctx.env["cells"] if c["id"] not in taken]


def target_options(ctx: Ctx, letter: str) -> list[Any]:
    """What a group of ``letter`` may name as its target (None: no target): A (FIG-MSN-1), E
    (FIG-MSN-5), Q (FIG-MSN-11), S (FIG-MSN-13), T (FIG-MSN-14), J (FIG-MSN-9)."""
    env, side, enemy = ctx.env, ctx.side, ctx.enemy
    if letter == "A":
        # FIG-MSN-1: a detected enemy character, or a sovereign not the phasing side's own
        # (unsummoned or "in office"), never one already dead.
        chars = [c["name"] for c in ctx.present(enemy) if c["detected"] and not c["npc_sovereign"]]
        sovs = [s["name"] for s in env["sovereigns"]
                if not s["assassinated"] and s["summoned"] != side]
        return chars + sovs
    if letter == "E":
        friendly = f"pro_{side}"
        return [s["name"] for s in env["sovereigns"] if not s["summoned"]
                and not s["assassinated"] and s["alignment"] in (friendly, "neutral")]
    if letter == "Q":
        return [c["name"] for c in ctx.captives_of(enemy) if not c["npc_sovereign"]]
    if letter == "S":
        pdb = ["pdb"] if env["pdb"] > 0 else []
        return pdb + [u["id"] for u in ctx.enemy_units()]
    if letter == "T":
        kinds = ctx.data.mission("T").requirements_for(side)[0]["targets"]
        return [u["id"] for u in ctx.enemy_units() if u["kind"] in kinds]
    if letter == "J":
        # An atrocity unit is optional: the captives are freed whatever is named.
        return [None] + [a["id"] for a in env["atrocity_units"] if not a["destroyed"]
                         and side == "rebel"]
    return [None]


def ship_options(ctx: Ctx) -> list[str]:
    return [s["name"] for s in ctx.env["spaceships"] if s["side"] == ctx.side
            and not s["destroyed"]]


def can_lead(ctx: Ctx, name: str, group: dict) -> bool:
    """FIG-BDR-3: a dash in the leader's column means he cannot lead that mission (in J, he
    cannot pilot); a column the chart lacks (Imperial F, R) leaves anyone free to lead. An NPC
    sovereign never leads: it has no chart row and may only go along (FIG-MSN-17)."""
    row = ctx.chart_row(name, group)
    if row is None:
        return False
    return not (row.has_column(group["mission"]) and row.cell(group["mission"]) is None)


def group_problem(ctx: Ctx, group: dict, others: list[dict]) -> str | None:
    """The first requirement ``group`` does not meet, in a player's words, or None
    (FIG-MIS-3, FIG-MIS-4; ratings not entered yet count as met). ``others`` are the other
    groups of the assignment."""
    env, side = ctx.env, ctx.side
    letter = group["mission"]
    mission = ctx.data.mission(letter)
    if not mission.allowed_for(side):
        return f"{letter} ({mission.name}) is not a {side} mission"
    if any(g["mission"] == letter for g in others):
        return f"another group already has mission {letter} here"
    if env["location"] == "orbit" and letter not in ORBIT_MISSIONS:
        return f"an orbit box hosts only J and Q, not {letter}"
    if group["performer"] is not None:
        cell = next((c for c in env["cells"] if c["id"] == group["performer"]), None)
        if cell is None:
            return f"{group['performer']} is not a cell or camp here"
        if not getattr(mission, cell["kind"]):
            return f"a {cell['kind']} cannot perform {letter} (FIG-MSN-15)"
        if group["members"]:
            return "no character may go with a cell or camp (FIG-MSN-15)"
    else:
        leader = group["leader"]
        if not group["members"] or group["members"][0] != leader:
            return "the group needs a leader"
        for name in group["members"]:
            if not ctx.has_char(name):
                return f"{name} is not a character here"
            c = ctx.char(name)
            if c["side"] != side:
                return f"{name} is not a {side} character"
            if c["captured"] or c["dead"]:
                return f"{name} is captured and cannot go on a mission"
            if c["resting"]:
                return f"{name} is resting (recovering from wounds) and cannot go on a mission"
            if any(name in g["members"] for g in others):
                return f"{name} is already in another group"
        if not can_lead(ctx, leader, group):
            lead = ctx.char(leader)
            if lead["npc_sovereign"]:
                return f"{leader} is a sovereign: it goes along but never leads (FIG-MSN-17)"
            what = "pilot a spaceship quest" if letter == "J" else f"lead mission {letter}"
            return f"{leader} cannot {what} (a dash on the chart, FIG-BDR-3)"
        if letter == "Q" and len(group["members"]) != 1:
            return "a Question Prisoner group has exactly one character (FIG-MSN-11)"
        if group.get("torture") and side != "imperial":
            return "only the Imperial player may torture a prisoner (FIG-MSN-11)"
    if letter in TARGETED and group["target"] is None:
        return f"mission {letter} needs a target named now"
    if group["target"] is not None and group["target"] not in target_options(ctx, letter):
        return f"{group['target']} is not a possible target of mission {letter}"
    if letter == "J":
        if group["ship"] is None:
            return "a spaceship quest needs a spaceship of the phasing side"
        if group["ship"] not in ship_options(ctx):
            return f"{group['ship']} is not a {side} spaceship here"
    for req in mission.requirements_for(side):
        problem = _requirement(ctx, group, req)
        if problem:
            return problem
    return None


def _requirement(ctx: Ctx, group: dict, req) -> str | None:
    """One ``requires`` entry of the mission's row (FIG-MIS-4): the problem, or None."""
    env, side = ctx.env, ctx.side
    key = req["key"]
    condition = ctx.condition()
    shown = (condition or "unknown").replace("_", " ")
    if key == "planet_state_not" and condition in req["states"]:
        return f"not possible on a planet that is {shown}"
    if key == "planet_state_is" and condition not in req["states"]:
        wanted = " or ".join(s.replace("_", " ") for s in req["states"])
        return f"needs a planet that is {wanted} (it is {shown})"
    if key == "coup_rating" and env["coup_rating"] <= 0:
        return "the environs has no coup rating"
    if key == "not_last_coup" and env["last_coup_by"] == side:
        return f"the {side} side made the last coup here"
    if key == "leader_rating_min" and group["performer"] is None:
        value = ctx.rating(group["leader"], req["rating"])
        if value is not None and value < req["min"]:
            return (f"the leader's {req['rating']} is {value}; it must be {req['min']} or more")
    if key == "planets_in_rebellion_min" and env["planets_in_rebellion_empire_wide"] < req["min"]:
        return (f"at least {req['min']} planets of the Empire must be in rebellion "
                f"(now {env['planets_in_rebellion_empire_wide']})")
    if key == "friendly_captives_here" and not ctx.captives_of(side):
        return f"no {side} character is held captive here"
    if key == "capital_throne_or_taxed_province":
        if not ((env["capital_or_throne"] and env["controller"] == "imperial")
                or env["province_taxed_next_turn"]):
            return ("needs an Imperial-controlled capital or throne planet, or a province "
                    "taxed next turn")
    if key == "rebel_secret_base_here" and not env["rebel_secret_base_here"]:
        return "the Rebel secret base is not in this environs"
    if key == "not_own_planet_without_enemy_units":
        if env["controller"] == side and not ctx.enemy_units():
            return "the planet is the phasing side's own and no enemy unit is here"
    if key == "orbit_box" and env["location"] != "orbit":
        return "a spaceship quest starts from an orbit box"
    if key == "spaceship_pilot" and group["performer"] is None:
        value = ctx.rating(group["leader"], req["rating"])
        if value is not None and value < req["min"]:
            return f"the pilot's navigation is {value}; it must be {req['min']} or more"
    if key == "quest_target" and not ctx.captives_of(side) and group["target"] is None:
        return "nothing to free here and no atrocity unit named"
    return None


def missing_ratings(ctx: Ctx, group: dict) -> list[tuple[str, str]]:
    """Ratings a requirement of ``group`` rests on that the players have not entered:
    ``[(character, rating)]`` (FIG-CTX-9)."""
    if group["performer"] is not None:
        return []
    needed = []
    for req in ctx.data.mission(group["mission"]).requirements_for(ctx.side):
        if req["key"] in ("leader_rating_min", "spaceship_pilot"):
            if ctx.rating(group["leader"], req["rating"]) is None:
                needed.append((group["leader"], req["rating"]))
    return needed


def new_group(mission: str, leader: str | None = None, members=(), performer=None, target=None,
              ship=None, torture=False) -> dict:
    members = list(members)
    if leader is not None and (not members or members[0] != leader):
        members = [leader] + [m for m in members if m != leader]
    return {"id": "", "mission": mission, "leader": leader, "members": members,
            "performer": performer, "target": target, "ship": ship, "torture": bool(torture),
            "status": "active", "level": 0, "bonus_adj": 0, "lose_all": False, "count": None,
            "rolled": 0, "failure": None}


def number_groups(groups: list[dict]) -> None:
    for i, g in enumerate(groups):
        g["id"] = f"G{i + 1}"


def requirement_note(ctx: Ctx, group: dict) -> str:
    """Why a valid group is valid, for the log of FIG-MIS-4."""
    letter = group["mission"]
    bits = []
    if group["performer"] is not None:
        bits.append(f"performed by {group['performer']}")
    for req in ctx.data.mission(letter).requirements_for(ctx.side):
        key = req["key"]
        if key == "coup_rating":
            bits.append(f"coup rating {ctx.env['coup_rating']}")
        elif key == "not_last_coup":
            bits.append(f"last coup by {ctx.env['last_coup_by'] or 'nobody'}")
        elif key == "leader_rating_min" and group["leader"]:
            bits.append(f"{group['leader']}'s {req['rating']} "
                        f"{ctx.rating(group['leader'], req['rating'])} > {req['min'] - 1}")
        elif key == "not_own_planet_without_enemy_units":
            bits.append("enemy units here" if ctx.enemy_units() else
                        f"the planet is not the {ctx.side} side's")
        elif key == "orbit_box":
            bits.append("in an orbit box")
        elif key == "spaceship_pilot":
            row = ctx.chart_row(group["leader"], group)
            bits.append(f"pilot navigation {ctx.rating(group['leader'], 'navigation')}, "
                        f"J cell {row.cell('J').base}")
        elif key == "single_character_with_captive":
            bits.append(f"one character with the captive {group['target']}")
        elif key == "friendly_captives_here":
            bits.append(f"{len(ctx.captives_of(ctx.side))} captive(s) here")
    if group["target"] is not None and letter != "Q":
        bits.append(f"target {group['target']}")
    if group["ship"]:
        bits.append(f"spaceship {group['ship']}")
    if group["torture"]:
        bits.append("with torture")
    return ", ".join(bits)


# ================================================================================ levels
def max_level(ctx: Ctx, group: dict) -> int | None:
    """The maximum useful level of FIG-MIS-25 (None: unlimited), read now."""
    spec = ctx.data.mission(group["mission"]).max_level
    side = ctx.side
    if "fixed" in spec:
        return spec["fixed"]
    if spec.get("unlimited"):
        return None
    if "rebel" in spec:
        return spec[side]
    if "friendly_sovereign" in spec:
        s = ctx.sovereign(group["target"])
        return spec["neutral_sovereign" if s["alignment"] == "neutral" else "friendly_sovereign"]
    if "atrocity_named" in spec:
        return spec["atrocity_named" if group["target"] else "otherwise"]
    source = spec.get("from")
    if source == "loyalty_room":
        # Each C level shifts one space toward the phasing side; level 1 also sets the coup
        # marker, so one level is always worth having.
        env = ctx.env
        if env["planet_state"] != "loyalty":
            return 1
        here = LOYALTY.index(env["loyalty"])
        room = len(LOYALTY) - 1 - here if side == "rebel" else here
        return max(1, room)
    if source == "captives_here":
        return len(ctx.captives_of(side))
    if source == "target_unit":
        return needed_level_t(ctx, group["target"])
    raise ValueError(f"unknown max_level {dict(spec)}")


def needed_level_t(ctx: Ctx, uid: str) -> int:
    """FIG-MSN-14: the level a T mission needs against the unit ``uid``."""
    kind = ctx.unit(uid)["kind"]
    for lv in ctx.data.mission("T").levels:
        if kind in lv["units"]:
            return lv["level"]
    raise ValueError(f"{kind} cannot be subverted")


def succeeded(group: dict) -> bool:
    """Whether a group's levels count: not aborted (FIG-MIS-12); a called-off group keeps its
    levels (FIG-MIS-16)."""
    return group["status"] != "aborted" and group["level"] > 0


def summoned_needs(ctx: Ctx, group: dict) -> int:
    s = ctx.sovereign(group["target"])
    return 2 if s["alignment"] == "neutral" else 1


# ================================================================================ resolution
RESOLUTION_STAGES = ("shifts", "rebellion", "A", "B", "C", "E", "F", "H", "I", "J", "P", "Q",
                     "S", "T", "failures", "reminders")


@procedure("resolution")
def resolution(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-22: success levels and failures take effect, in the rule's order."""
    ctx.state["phase"] = "resolution"
    while True:
        stage = RESOLUTION_STAGES[frame.setdefault("stage", 0)]
        if stage == "shifts":
            loyalty_shifts(ctx, frame)
        elif stage == "rebellion":
            rebellion_changes(ctx, frame)
        elif stage == "failures":
            failure_effects(ctx)
        elif stage == "reminders":
            reminders(ctx)
            ctx.pop()
            return
        else:
            for group in ctx.groups:
                if group["mission"] == stage and succeeded(group) and not group.get("resolved"):
                    if not LETTER_EFFECTS[stage](ctx, frame, group):
                        return          # waiting for a roll or a choice
                    group["resolved"] = True
                    frame.pop("rolls", None)
                    frame.pop("sub", None)
        frame["stage"] += 1


def loyalty_shifts(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-22 step 1: C, D, E (FIG-MSN-3, FIG-MSN-4, FIG-MSN-5), then E-failure, then the
    Synestins (FIG-CRE-44); clamped, never into or out of rebellion, nothing in a rebellion
    state."""
    side, enemy = ctx.side, ctx.enemy
    for letter in ("C", "D", "E"):
        for g in ctx.groups:
            if g["mission"] != letter or not succeeded(g):
                continue
            if letter == "C":
                ctx.shift_loyalty(side, g["level"], "FIG-MSN-3", f"{g['id']} coup level "
                                                                 f"{g['level']}")
            elif letter == "D":
                spaces = min(g["level"], 2)
                ctx.shift_loyalty(side, spaces, "FIG-MSN-4", f"{g['id']} diplomacy level "
                                                             f"{g['level']}")
            elif g["level"] >= summoned_needs(ctx, g):
                summon(ctx, g)
    for g in ctx.groups:
        if g["mission"] == "E" and g["failure"] == "shift":
            ctx.shift_loyalty(enemy, 1, "FIG-MSN-5", f"{g['id']} failed to summon")
    if ctx.state["flags"]["synestins"]:
        ctx.shift_loyalty("rebel", 1, "FIG-CRE-44", "the Synestins were defeated by Rebels")


def summon(ctx: Ctx, group: dict) -> None:
    """FIG-MSN-5: the sovereign comes over; loyalty shifts toward the summoner, or a Rebel
    summoning in unrest starts rebellion, or an Imperial summoning stops one (step 2)."""
    s = ctx.sovereign(group["target"])
    s["summoned"] = ctx.side
    ctx.change("FIG-MSN-5", "sovereign", f"{s['name']} is summoned by the {ctx.side} side "
                                         f"({group['id']}, level {group['level']})",
               refs=[s["name"], group["id"]])
    condition = ctx.condition()
    flags = ctx.state["flags"]
    if ctx.side == "rebel" and condition == "unrest":
        flags["summon_rebellion"] = True
        ctx.note("FIG-MIS-22", "The planet is in unrest: the summoning starts a rebellion "
                               "instead of a shift")
    elif ctx.side == "imperial" and condition in ("in_rebellion", "rebel_controlled"):
        flags["summon_stops_rebellion"] = True
        ctx.note("FIG-MIS-22", "The summoning stops the rebellion here")
    else:
        ctx.shift_loyalty(ctx.side, 1, "FIG-MSN-5", f"{s['name']} summoned")


def rebellion_changes(ctx: Ctx, frame: dict) -> None:
    """FIG-MIS-22 step 2: R (FIG-MSN-12), or a summoning (FIG-MSN-5), starts or stops a
    rebellion."""
    flags = ctx.state["flags"]
    env = ctx.env
    start = stop = None
    for g in ctx.groups:
        if g["mission"] == "R" and succeeded(g):
            if ctx.side == "rebel":
                start = f"{g['id']} (R level {g['level']})"
            elif g["level"] >= 2:
                stop = f"{g['id']} (R level {g['level']})"
    if flags.get("summon_rebellion"):
        start = start or "the summoned sovereign"
    if flags.get("summon_stops_rebellion"):
        stop = stop or "the summoned sovereign"
    if start and env["planet_state"] != "in_rebellion":
        env["planet_state"], env["loyalty"], env["controller"] = "in_rebellion", None, "none"
        ctx.change("FIG-MSN-12", "planet", f"The planet goes into rebellion ({start})")
        flags["rebellion_started"] = True
        if env["last_coup_by"] is not None:
            env["last_coup_by"] = None
            ctx.change("FIG-MIS-22", "coup_marker", "The coup marker is removed (rebellion)")
        ctx.change("FIG-HOOK-6", "reminder", "Apply the consequences of a rebellion starting "
                                             "(the campaign rules' section on rebellion)")
        if flags["populace_wild"]:
            ctx.change("FIG-RE-22", "reminder", "The Rebel takes double this environs' resource "
                                                "value for his resource track and local builds")
    elif stop and env["planet_state"] in ("in_rebellion", "rebel_controlled"):
        env["planet_state"], env["loyalty"], env["occupied"] = "rebellion_stopped", None, False
        env["controller"] = "imperial"
        ctx.change("FIG-MSN-12", "planet", f"The rebellion stops ({stop}); the planet is "
                                           f"rebellion stopped")
        ctx.change("FIG-HOOK-6", "reminder", "Apply the consequences of the rebellion ending")


# ---------------------------------------------------------------------------- letter effects
def effect_a(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-1, level 1: the target dies."""
    target = g["target"]
    if ctx.has_char(target):
        ctx.char(target)["dead"] = True
        ctx.change("FIG-MSN-1", "kill", f"{target} is assassinated ({g['id']})",
                   refs=[target, g["id"]])
    else:
        ctx.sovereign(target)["assassinated"] = True
        ctx.change("FIG-MSN-1", "kill", f"The sovereign {target} is assassinated ({g['id']})",
                   refs=[target, g["id"]])
    return True


def effect_b(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-2, level 1: a new Rebel cell."""
    cid = f"Cell {len(ctx.env['cells']) + 1}"
    ctx.env["cells"].append({"id": cid, "kind": "cell"})
    ctx.change("FIG-MSN-2", "unit", f"A Rebel cell ({cid}) is placed in the environs "
                                    f"({g['id']})", refs=[g["id"]])
    return True


def effect_c(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-3: any success sets the last-coup marker, unless rebellion started here now."""
    if ctx.state["flags"].get("rebellion_started"):
        ctx.note("FIG-MSN-3", f"{g['id']}: no coup marker on a planet that went into rebellion")
        return True
    ctx.env["last_coup_by"] = ctx.side
    ctx.change("FIG-MSN-3", "coup_marker", f"The last-coup marker goes to the {ctx.side} side "
                                           f"({g['id']})", refs=[g["id"]])
    return True


def effect_e(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-5: troop placement and rebellion combat are the players' (FIG-HOOK-6)."""
    if g["level"] < summoned_needs(ctx, g):
        ctx.note("FIG-MSN-5", f"{g['id']}: level {g['level']} is not enough to summon the neutral "
                              f"{g['target']}")
        return True
    s = ctx.sovereign(g["target"])
    limits = ("any units" if s["resource_star"] else
              "ground units of AF 2 or less and corvettes only, no elite units")
    ctx.change("FIG-HOOK-6", "reminder",
               f"Place {s['name']} in the {ctx.side} side's colour with military units worth "
               f"{s['resource_rating']} force points ({limits})", refs=[s["name"]])
    ctx.change("FIG-HOOK-6", "reminder", "Special rebellion combat may follow the summoning")
    return True


def effect_f(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-6: each level frees one friendly captive, picked at random."""
    while frame.get("freed", 0) < g["level"]:
        captives = [c["name"] for c in ctx.captives_of(ctx.side)]
        if not captives:
            break
        k = frame.get("freed", 0)
        name = ctx.pick(frame, f"free{k}", captives, "FIG-MSN-6", f"{g['id']} frees a captive",
                        refs=[g["id"]] + captives)
        if name is None:
            return False
        ctx.char(name)["captured"] = False
        ctx.change("FIG-MSN-6", "free", f"{name} is freed ({g['id']})", refs=[name, g["id"]])
        frame["freed"] = k + 1
    frame.pop("freed", None)
    return True


def effect_h(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-7: 4 force points a level move to the thief; what the enemy lacks is debt."""
    env = ctx.env
    if env["enemy_resources"] is None:
        if not ask_value(ctx, frame, "enemy_resources", "FIG-MSN-7",
                         f"How many force points does the {ctx.enemy} side hold on its "
                         f"resource track?", role="enemy", low=0, high=99):
            return False
    amount = 4 * g["level"]
    held = env["enemy_resources"]
    debt = max(0, amount - held)
    env["enemy_resources"] = max(0, held - amount)
    text = (f"{g['id']} steals {amount} force points: move them from the {ctx.enemy} track to "
            f"the {ctx.side} track")
    if debt:
        text += f"; the {ctx.enemy} side holds only {held} and owes {debt} as debt"
    ctx.change("FIG-MSN-7", "force_points", text, refs=[g["id"]])
    if debt:
        ctx.change("FIG-HOOK-6", "reminder", f"The {ctx.enemy} side repays its debt of {debt} "
                                             f"force points as soon as it has them")
    return True


def detect_enemy_characters(ctx: Ctx, rule: str) -> None:
    names = [c["name"] for c in ctx.present(ctx.enemy) if not c["npc_sovereign"]]
    newly = ctx.detect(names, rule)
    ctx.change(rule, "detection", f"Every {ctx.enemy} character on the planet and in its orbit "
                                  f"box is detected" + ("" if newly else " (none here)"))


def reveal_secret(ctx: Ctx, rule: str, why: str) -> None:
    """A secret of the enemy's, by the rules of FIG-MSN-8 level 2."""
    if ctx.enemy == "rebel":
        text = (f"{why}: the Rebel reveals a secret: he names two eligible planets, not his "
                f"secret base")
    else:
        text = (f"{why}: the Imperial side reveals a secret; the Rebel chooses: two planet "
                f"secrets at places he names, or a look at the top Strategic Assignment card")
    ctx.change(rule, "secret", text)


def effect_i(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-8: level 1, the phasing player's choice of two; level 2, both and a secret."""
    if g["level"] >= 2:
        detect_enemy_characters(ctx, "FIG-MSN-8")
        ctx.change("FIG-MSN-8", "information", f"The {ctx.side} side inspects every {ctx.enemy} "
                                               f"starfleet in the province")
        reveal_secret(ctx, "FIG-MSN-8", f"{g['id']} level {g['level']}")
        return True
    if "answer" not in frame:
        ctx.ask("information", f"{g['id']} gathered information (level 1): detect the enemy's "
                               f"characters here, or inspect his starfleets in the province?",
                role="phasing", rule="FIG-MSN-8", group=g["id"])
        return False
    choice = frame.pop("answer")["option"]
    if choice == "detect_enemy_characters":
        detect_enemy_characters(ctx, "FIG-MSN-8")
    else:
        ctx.change("FIG-MSN-8", "information", f"The {ctx.side} side inspects every {ctx.enemy} "
                                               f"starfleet in the province")
    return True


@legal("information")
def legal_information(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "choose", "option": "detect_enemy_characters"},
            {"verb": "choose", "option": "inspect_starfleets"}]


def effect_j(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-9: level 1 frees the captives in the orbit box, seats allowing (a question for
    the players, FIG-HOOK-1); level 2 also destroys the named atrocity unit."""
    captives = [c["name"] for c in ctx.captives_of(ctx.side)]
    if captives and "seats" not in frame:
        if "answer" not in frame:
            ctx.ask("hook", f"{g['id']}: how many of the {len(captives)} captives can "
                            f"{g['ship']} take aboard?", role="phasing", rule="FIG-HOOK-1",
                    hook="seats", group=g["id"], captives=captives)
            return False
        answer = frame.pop("answer")
        frame["seats"] = len(captives) if answer["verb"] == "default" else answer["count"]
        ctx.note("FIG-HOOK-1", f"Seats aboard {g['ship']}: {frame['seats']}",
                 auto_default=answer["verb"] == "default")
    seats = frame.pop("seats", 0)
    for name in captives[:seats]:
        ctx.char(name)["captured"] = False
        ctx.change("FIG-MSN-9", "free", f"{name} is freed and taken aboard {g['ship']} "
                                        f"({g['id']})", refs=[name, g["id"]])
    if captives[seats:]:
        ctx.change("FIG-HOOK-6", "reminder", f"No seat for {', '.join(captives[seats:])}: they "
                                             f"stay captive")
    if g["level"] >= 2 and g["target"]:
        unit = next(a for a in ctx.env["atrocity_units"] if a["id"] == g["target"])
        unit["destroyed"] = True
        ctx.change("FIG-MSN-9", "unit", f"The {unit['kind']} {unit['id']} is destroyed "
                                        f"({g['id']})", refs=[unit["id"], g["id"]])
    return True


def effect_p(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-10: a possession a level, or a mulligan once the pool is empty."""
    while frame.get("drawn", 0) < g["level"]:
        k = frame.get("drawn", 0)
        if not give_possession(ctx, frame, g, f"p{k}", "FIG-MSN-10", spaceships=True):
            return False
        frame["drawn"] = k + 1
    frame.pop("drawn", None)
    return True


def give_possession(ctx: Ctx, frame: dict, g: dict, key: str, rule: str,
                    spaceships: bool) -> bool:
    """Draw a possession at random from the pool for ``g``; the phasing player chooses which
    member receives it (FIG-RE-13); an empty pool gives a mulligan. False while waiting."""
    env = ctx.env
    pool = [p for p in env["possession_pool"]
            if spaceships or _kind_of(ctx, p) != "spaceship"]
    if not pool:
        ctx.gain_mulligan(ctx.side, rule, "the possession pool is empty")
        return True
    item = ctx.pick(frame, key, pool, rule, f"{g['id']} draws a possession", refs=[g["id"]])
    if item is None:
        return False
    if _kind_of(ctx, item) == "spaceship":
        # A spaceship is not carried: it joins the side's ships here (FIG-CTX-10).
        env["possession_pool"].remove(item)
        env["spaceships"].append({"name": item, "side": ctx.side, "detected": False,
                                  "damaged": False, "destroyed": False})
        ctx.change(rule, "possession", f"{g['id']} gains the spaceship "
                                       f"{ctx.data.display_name(item)}", refs=[g["id"]])
        return True
    holders = [m for m in g["members"] if not ctx.char(m)["captured"]
               and not ctx.char(m)["dead"] and not ctx.char(m)["npc_sovereign"]] or g["members"]
    if len(holders) > 1 and frame.get(f"{key}-to") is None:
        if "answer" not in frame:
            ctx.ask("receiver", f"Which member of {g['id']} receives {item}?", role="phasing",
                    rule=rule, group=g["id"], possession=item, members=holders)
            return False
        frame[f"{key}-to"] = frame.pop("answer")["character"]
    who = frame.pop(f"{key}-to", None) or holders[0]
    env["possession_pool"].remove(item)
    ctx.char(who)["possessions"].append(item)
    ctx.change(rule, "possession", f"{who} ({g['id']}) gains the possession "
                                   f"{ctx.data.display_name(item)}", refs=[who, g["id"]])
    return True


def _kind_of(ctx: Ctx, name: str) -> str:
    try:
        return ctx.data.chart_row(name).kind
    except ValueError:
        return "possession"        # a possession the players added (FIG-CTX-10)


@legal("receiver")
def legal_receiver(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "give", "character": m} for m in pending["members"]]


def effect_q(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-11, level 1: the prisoner gives up a secret."""
    reveal_secret(ctx, "FIG-MSN-11", f"{g['id']} questioned {g['target']}")
    return True


def effect_s(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-13: the best effect the reached level allows against the target."""
    env, level = ctx.env, g["level"]
    if g["target"] == "pdb":
        if level >= 2:
            env["pdb_down"] = True
            env["pdb"] = max(0, env["pdb"] - 1)
            ctx.change("FIG-MSN-13", "pdb", f"The PDB goes down and loses a level (now "
                                            f"{env['pdb']}) ({g['id']})", refs=[g["id"]])
        else:
            env["pdb_down"] = True
            ctx.change("FIG-MSN-13", "pdb", f"The PDB goes down ({g['id']})", refs=[g["id"]])
        return True
    unit = ctx.unit(g["target"])
    what = f"{unit['kind'].replace('_', ' ')} {unit['id']} (AF {unit['af']})"
    if (level >= 2 and unit["af"] <= 3) or unit["af"] == 1:
        unit["destroyed"] = True
        ctx.change("FIG-MSN-13", "unit", f"The {what} is destroyed ({g['id']})",
                   refs=[unit["id"], g["id"]])
    elif unit["af"] <= 3 or (level >= 2 and unit["elite"] and unit["kind"] != "landed_starship"):
        unit["damaged"] = True
        ctx.change("FIG-MSN-13", "unit", f"The {what} is damaged ({g['id']})",
                   refs=[unit["id"], g["id"]])
    else:
        ctx.note("FIG-MSN-13", f"{g['id']}: level {level} can do nothing to the {what}")
    return True


def effect_t(ctx: Ctx, frame: dict, g: dict) -> bool:
    """FIG-MSN-14: the unit changes sides once the level its kind needs is reached."""
    unit = ctx.unit(g["target"])
    needed = needed_level_t(ctx, unit["id"])
    what = f"{unit['kind'].replace('_', ' ')} {unit['id']} (AF {unit['af']})"
    if g["level"] < needed:
        ctx.note("FIG-MSN-14", f"{g['id']}: level {g['level']} of {needed} needed; the {what} "
                               f"stays loyal")
        return True
    unit["side"] = "rebel"
    text = f"The {what} goes over to the Rebel as a Rebel unit of AF {unit['af']} ({g['id']})"
    if unit["kind"] != "landed_starship":
        text += "; it takes the urban or wild type"
    ctx.change("FIG-MSN-14", "unit", text, refs=[unit["id"], g["id"]])
    return True


LETTER_EFFECTS = {"A": effect_a, "B": effect_b, "C": effect_c, "E": effect_e, "F": effect_f,
                  "H": effect_h, "I": effect_i, "J": effect_j, "P": effect_p, "Q": effect_q,
                  "S": effect_s, "T": effect_t}


def failure_effects(ctx: Ctx) -> None:
    """FIG-MIS-22 step 3, last: the captures and deaths of failure rolls (FIG-MSN-1, FIG-FSQ-1)."""
    for g in ctx.groups:
        failure = g["failure"]
        if failure in ("group_captured", "group_killed"):
            for name in g["members"]:
                c = ctx.char(name)
                if c["dead"] or c["captured"]:
                    continue
                if failure == "group_killed":
                    c["dead"] = True
                    ctx.change("FIG-MSN-1", "kill", f"{name} dies ({g['id']} failed)",
                               refs=[name, g["id"]])
                else:
                    c["captured"] = True
                    c["detected"] = True
                    ctx.change("FIG-MSN-1", "capture", f"{name} is captured ({g['id']} failed)",
                               refs=[name, g["id"]])
        elif failure and failure.startswith("ship_"):
            ship = next(s for s in ctx.env["spaceships"] if s["name"] == g["ship"])
            if failure == "ship_damaged_detected":
                ship["damaged"] = ship["detected"] = True
                ctx.change("FIG-FSQ-1", "spaceship", f"{ship['name']} is damaged and detected "
                                                     f"({g['id']})", refs=[ship["name"], g["id"]])
                continue
            ship["destroyed"] = True
            ctx.change("FIG-FSQ-1", "spaceship", f"{ship['name']} is destroyed ({g['id']})",
                       refs=[ship["name"], g["id"]])
            for name in g["members"]:
                c = ctx.char(name)
                if c["dead"] or c["captured"]:
                    continue
                if failure == "ship_destroyed_crew_killed":
                    c["dead"] = True
                    ctx.change("FIG-FSQ-1", "kill", f"{name} dies aboard {ship['name']}",
                               refs=[name])
                else:
                    c["captured"] = True
                    ctx.change("FIG-FSQ-1", "capture", f"{name} is captured from "
                                                       f"{ship['name']}", refs=[name])


def reminders(ctx: Ctx) -> None:
    """FIG-MSN-2: cells and camps when the planet is left in unrest (FIG-HOOK-6)."""
    if ctx.condition() == "unrest" and ctx.env["cells"]:
        ctx.change("FIG-MSN-2", "reminder", "The planet is in unrest: replace each Rebel camp by "
                                            "an Irregular ground unit and remove each cell")


# ================================================================================ suppression
def suppression_roll(ctx: Ctx, af: int, leadership: int) -> list[str]:
    """FIG-MSN-16, outside the Mission phase: unopposed Imperial ground units (combined AF
    ``af`` plus ``leadership``) try to remove the Rebel cells and camps here, one d6 each. They
    need a total above the environs size; a camp goes on a d6 up to the differential, a cell
    only on a 1. Returns the ids removed (taken out of the environs)."""
    env = ctx.env
    total = af + leadership
    differential = total - env["size"]
    if differential <= 0:
        ctx.note("FIG-MSN-16", f"AF {af} + leadership {leadership} = {total} does not exceed the "
                               f"environs size {env['size']}: no suppression roll")
        return []
    removed = []
    for cell in list(env["cells"]):
        r = ctx.throw("d6", "FIG-MSN-16", f"Suppression of {cell['kind']} {cell['id']} "
                                          f"(differential {differential})", refs=[cell["id"]])
        gone = r["result"] <= differential if cell["kind"] == "camp" else r["result"] == 1
        if gone:
            env["cells"].remove(cell)
            removed.append(cell["id"])
            ctx.change("FIG-MSN-16", "unit", f"The Rebel {cell['kind']} {cell['id']} is removed "
                                             f"(d6 {r['result']})", refs=[cell["id"]])
        else:
            ctx.note("FIG-MSN-16", f"The Rebel {cell['kind']} {cell['id']} survives "
                                   f"(d6 {r['result']})", refs=[cell["id"]])
    return removed


# ================================================================================ prompts
def ask_value(ctx: Ctx, frame: dict, field: str, rule: str, text: str, role: str, low: int,
              high: int, character: str | None = None) -> bool:
    """Ask the players for a missing number (a rating, FIG-CTX-9, or the enemy's resource
    track, FIG-MSN-7) and store it. True once known."""
    key = f"value:{character}:{field}"
    if "answer" in frame and frame.get("asking") == key:
        frame.pop("asking")
        value = frame.pop("answer")["value"]
        if character is None:
            ctx.env[field] = value
        else:
            ctx.char(character)[field] = value
        ctx.note(rule, f"Entered: {character + chr(39) + 's ' if character else ''}"
                       f"{field.replace('_', ' ')} {value}", refs=[character] if character else [])
        return True
    frame["asking"] = key
    ctx.ask("value", text, role=role, rule=rule, field=field, character=character, low=low,
            high=high)
    return False


def ask_rating(ctx: Ctx, frame: dict, name: str, rating: str, rule: str) -> bool:
    """Ask a character's owner for a rating a rule needs (FIG-CTX-9). True once known."""
    if ctx.rating(name, rating) is not None and frame.get("asking") != f"value:{name}:{rating}":
        return True
    side = ctx.char(name)["side"]
    low, high = (1, 20) if rating == "ef" else (0, 10)
    return ask_value(ctx, frame, rating, rule,
                     f"{name}'s {rating} is needed ({rule}): enter it from the character card",
                     role=ctx.role_of(side), low=low, high=high, character=name)


@legal("value")
def legal_value(ctx: Ctx, pending: dict) -> list[dict]:
    return [{"verb": "enter", "value": v} for v in range(pending["low"], pending["high"] + 1)]


def default_value(pending: dict) -> int:
    """The simple player's answer to a missing number: a middling value."""
    wanted = {"ef": 5, "enemy_resources": 4}.get(pending["field"], 2)
    return max(pending["low"], min(pending["high"], wanted))
