"""Creatures and irate locals of Part A: creature attacks (FIG-FOE-1, FIG-FOE-2, FIG-FOE-3,
FIG-FOE-4, FIG-FOE-5), the creatures themselves (the FIG-CRE rules: each creature row of
creatures.yaml carries its own ID, which this module's log entries carry) and locals attacks
(FIG-LOC-1, FIG-LOC-2, FIG-LOC-3, FIG-LOC-4).

A creature attack (FIG-RE-11) strikes one random active group. The environs' creature comes if
it shows itself to this side (Zops only to the Rebel and only once, Vrialta never after he is
gone); otherwise sentry robots do. Creatures that need no fight are resolved here from dice and
ratings (FIG-FOE-4); for every fight the program shows the creature's data, the surprise rule
and the mob size, and the players enter the result (FIG-HOOK-2); what follows automatically from
that result (lost bonus rolls, a stolen possession, the Synestins' shift, Vrialta gone) is then
applied. A locals attack (FIG-RE-12) picks the group, then the race, then the mob size.
"""

from __future__ import annotations

from struggle_desktop.games.freedom.context import Ctx
from struggle_desktop.games.freedom.events import has_candidates, pick_group
from struggle_desktop.games.freedom.missions import ask_rating, give_possession
from struggle_desktop.games.freedom.registry import RULES
from struggle_desktop.games.freedom.resolver import replace_leader
from struggle_desktop.games.freedom.steps import abort, push_hook

procedure = RULES.procedure

#: Results the players may flag for a creature, beyond the fight's end (FIG-CRE-22, FIG-CRE-30).
CREATURE_FLAGS = {"Hysnatons": ["survived_two_rounds"], "Muggers": ["stalemate"]}
FIGHTS = ("combat", "intelligence_battle", "ensnare", "frost", "illusions", "mind_attack")


def dice_spec(text: str) -> tuple[str, int]:
    """``"d6-2"`` -> ``("d6", -2)``; ``"d6+1"`` -> ``("d6", 1)``."""
    for sign in "+-":
        if sign in text:
            die, _, n = text.partition(sign)
            return die, int(n) if sign == "+" else -int(n)
    return text, 0


def appears(ctx: Ctx, name: str | None) -> bool:
    """FIG-FOE-1: whether the environs' creature shows itself to the phasing side now (Zops and
    Vrialta by the game-long memory, FIG-FOE-5)."""
    if name is None:
        return False
    creature = ctx.data.creature(name)
    memory = ctx.env["memory"]
    if not creature.appears_for(ctx.side):
        return False
    if creature.effect_key == "gift" and memory["zops_used"]:
        return False
    if creature.effect_key == "vrialta" and memory["vrialta_gone"]:
        return False
    return True


def creature_data(ctx: Ctx, name: str, count: int | None = None) -> dict:
    """What the hook screen shows for a creature (FIG-HOOK-2, FIG-FOE-2, FIG-FOE-3)."""
    c = ctx.data.creature(name)
    surprise = ctx.data.tables["creatures"]["surprise"]
    data = {"creature": c.name, "creature_rule": c.rule, "kind": c.kind, "af": c.af, "ef": c.ef,
            "intelligence": c.intelligence, "wounded_af": c.wounded_af,
            "surprise": c.surprise, "no_breakoff": c.no_breakoff,
            "breakoff_drm": c.breakoff_drm, "fights_to_death": c.fights_to_death,
            "summary": c.summary, "flags": list(CREATURE_FLAGS.get(c.name, []))}
    if c.surprise:
        data["surprise_rule"] = (f"first round: creature AF +{surprise['creature_af']}, "
                                 f"surprised characters AF {surprise['character_af']}, "
                                 f"no break-off (FIG-FOE-2)")
    if count is not None:
        data["count"] = count
    return data


def fight_text(data: dict, group: dict) -> str:
    who = data["creature"]
    if data.get("count") is not None:
        who = f"{data['count']} x {who}"
    stats = f"AF {data['af'] if data['af'] is not None else '-'}, EF " \
            f"{data['ef'] if data['ef'] is not None else '-'}"
    extra = f"; {data['surprise_rule']}" if data.get("surprise_rule") else ""
    return f"{who} ({stats}) attack {group['id']}{extra}: enter the result of the fight"


def no_group_to_attack(ctx: Ctx, frame: dict, rule: str) -> bool:
    """True, with a note and the procedure popped, when no active group can be attacked."""
    if has_candidates(ctx, frame):
        return False
    ctx.note(rule, "No active mission group to attack: no effect")
    ctx.pop()
    return True


@procedure("creature")
def creature(ctx: Ctx, frame: dict) -> None:
    """FIG-RE-11 and FIG-FOE-1."""
    rule = frame["rule"]
    while True:
        stage = frame["stage"]
        if stage == "group":
            if no_group_to_attack(ctx, frame, rule) or pick_group(ctx, frame) is None:
                return
            frame["stage"] = "which"
        elif stage == "which":
            name = ctx.env["creature"]
            if appears(ctx, name):
                frame["creature"] = name
                ctx.note("FIG-FOE-1", f"The {name} appears", refs=[name])
                frame["stage"] = "apply"
                continue
            r = ctx.need(frame, "robots", "d6", "FIG-FOE-1", "Sentry robots")
            if r is None:
                return
            fallback = ctx.data.tables["creatures"]["sentry_fallback"]["creature"]
            frame["creature"] = fallback
            frame["count"] = ctx.data.sentry_robots(r["result"])
            why = "no creature lives here" if name is None else f"the {name} does not come"
            ctx.note("FIG-FOE-1", f"{why}: {frame['count']} sentry robot"
                                  f"{'s' if frame['count'] > 1 else ''} attack")
            frame["stage"] = "fight"
        elif stage == "apply":
            if not apply_creature(ctx, frame):
                return
            if frame["stage"] == "apply":
                ctx.pop()
                return
        elif stage == "fight":
            if "hook" in frame:
                frame["result"] = frame.pop("hook")
                frame["stage"] = "after"
                continue
            g = ctx.group(frame["group"])
            data = creature_data(ctx, frame["creature"], frame.get("count"))
            data.update(frame.get("extra", {}))
            push_hook(ctx, "combat", "FIG-HOOK-2", fight_text(data, g), g, **data)
            return
        elif stage == "after":
            if not after_fight(ctx, frame):
                return
            ctx.pop()
            return
        elif stage == "leader":
            if not replace_leader(ctx, frame):
                return
            ctx.pop()
            return


def roll_mob(ctx: Ctx, frame: dict, c, g: dict, why: str) -> bool:
    """Roll the size of the creature's mob (its ``mob_size``, such as d6+1) for group ``g``,
    then go on to the fight; False while the roll waits for an answer (a mulligan)."""
    die, plus = dice_spec(c.mob_size)
    r = ctx.need(frame, "mob", die, c.rule, why,
                 modifiers=[["mob", plus]] if plus else (), refs=[g["id"]])
    if r is None:
        return False
    frame["count"] = r["result"]
    frame["stage"] = "fight"
    return True


def apply_creature(ctx: Ctx, frame: dict) -> bool:
    """FIG-FOE-4: the named creature's entry. False while waiting; sets ``stage`` to
    ``fight`` when the players must fight it."""
    c = ctx.data.creature(frame["creature"])
    g = ctx.group(frame["group"])
    key, params = c.effect_key, c.params
    if key in FIGHTS:
        frame["stage"] = "fight"
        return True
    if key == "mob_combat":
        return roll_mob(ctx, frame, c, g, f"{c.name} mob size")
    if key == "seize":
        victim = ctx.pick(frame, "victim", g["members"], c.rule, f"The {c.name} seizes",
                          refs=g["members"])
        if victim is None:
            return False
        ctx.note(c.rule, f"The {c.name} seizes {victim}"
                         + (" (alone on the mission: he is consumed unless it dies first)"
                            if len(g["members"]) == 1 else ""), refs=[victim])
        frame["extra"] = {"victim": victim}
        frame["stage"] = "fight"
        return True
    if key == "ship_attack":
        ships = [s["name"] for s in ctx.env["spaceships"]
                 if s["side"] == ctx.side and not s["destroyed"]]
        if not ships:
            ctx.note(c.rule, f"The {c.name} attacks only spaceships and {g['id']} has none: "
                             f"no effect")
            return True
        frame["extra"] = {"spaceships": ships}
        frame["stage"] = "fight"
        return True
    if key == "hits_each":
        die, plus = dice_spec(params["hits"])
        for i, name in enumerate(g["members"]):
            if f"h{i}" in frame.get("done", []):
                continue
            r = ctx.need(frame, f"h{i}", die, c.rule, f"{c.name}: hits to {name}",
                         modifiers=[["creature", plus]] if plus else (), refs=[name, g["id"]])
            if r is None:
                return False
            frame.setdefault("done", []).append(f"h{i}")
            ctx.add_hits(name, max(0, r["result"]), c.rule, f"the {c.name}")
        if params.get("then_destroyed"):
            ctx.note(c.rule, f"The {c.name} is destroyed")
        return True
    if key == "lose_bonus_rolls":
        if params.get("lose_all_bonus"):
            g["lose_all"] = True
            ctx.note(c.rule, f"{g['id']} loses all its bonus rolls (FIG-BDR-10)", refs=[g["id"]])
        else:
            g["bonus_adj"] -= params["rolls"]
            ctx.note(c.rule, f"{g['id']} loses {params['rolls']} bonus roll (FIG-BDR-10)",
                     refs=[g["id"]])
        return True
    if key == "intelligence_hits":
        for name in g["members"]:
            if not ask_rating(ctx, frame, name, "intelligence", c.rule):
                return False
        best = max(ctx.rating(m, "intelligence") for m in g["members"])
        hits = max(0, params["hits_base"] - best)
        for name in g["members"]:
            ctx.add_hits(name, hits, c.rule, f"the {c.name} (best intelligence {best})")
        return True
    if key in ("intelligence_test", "diplomacy_test"):
        rating = "intelligence" if key == "intelligence_test" else "diplomacy"
        minimum = params[f"min_{rating}"]
        known = [ctx.rating(m, rating) for m in g["members"]]
        if not any(v is not None and v >= minimum for v in known):
            for name in g["members"]:
                if not ask_rating(ctx, frame, name, rating, c.rule):
                    return False
        passed = any(ctx.rating(m, rating) >= minimum for m in g["members"])
        if passed:
            ctx.note(c.rule, f"A member of {g['id']} has {rating} {minimum} or more: the "
                             f"{c.name} do nothing", refs=[g["id"]])
            return True
        if key == "intelligence_test":
            g["lose_all"] = True
            ctx.note(c.rule, f"Nobody in {g['id']} has intelligence {minimum} or more: the group "
                             f"loses all its bonus rolls (FIG-BDR-10)", refs=[g["id"]])
            return True
        return roll_mob(ctx, frame, c, g, f"{c.name}: irate locals")
    if key == "virus":
        return virus(ctx, frame, g, c)
    if key == "vrialta":
        recruiter = params["recruiter"]
        if recruiter in g["members"]:
            ctx.env["memory"]["vrialta_gone"] = True
            ctx.change(c.rule, "force_points", f"{c.name} joins the Rebels ({recruiter} is in "
                                               f"{g['id']}): +{params['force_points']} force "
                                               f"points on the Rebel resource track; he never "
                                               f"appears again")
            return True
        frame["stage"] = "fight"
        return True
    if key == "gift":
        ctx.env["memory"]["zops_used"] = True
        if not give_possession(ctx, frame, g, "gift", c.rule, spaceships=False):
            return False
        return True
    raise ValueError(f"unknown creature effect {key!r}")


def virus(ctx: Ctx, frame: dict, g: dict, c) -> bool:
    """FIG-CRE-50: EF - 1 hits to each member not yet immune, halved (rounded down) with a
    healer in the group; a member already hit dies; survivors are immune for the game."""
    params = c.params
    immune = ctx.env["memory"]["virus_immune"]
    exposed = [m for m in g["members"] if m not in immune]
    for name in exposed:
        if not ask_rating(ctx, frame, name, "ef", c.rule):
            return False
    healers = params["halved_by"]
    halved = any(m in healers or any(p in healers for p in ctx.char(m)["possessions"])
                 for m in g["members"])
    dead = []
    for name in exposed:
        ch = ctx.char(name)
        if ch["hits"] > 0:
            ch["dead"] = True
            dead.append(name)
            ctx.change(c.rule, "kill", f"{name}, already wounded, dies of the {c.name}",
                       refs=[name])
            continue
        hits = max(0, ch["ef"] - 1)
        if halved:
            hits //= 2
        ctx.add_hits(name, hits, c.rule, f"the {c.name}" + (", halved" if halved else ""))
        immune.append(name)
        ctx.note(c.rule, f"{name} is now immune to the {c.name}", refs=[name])
    for name in dead:
        g["members"].remove(name)
        g.setdefault("lost", []).append(name)
    if dead and g["status"] in ("active", "waiting"):
        if not g["members"]:
            abort(ctx, g, "FIG-HOOK-1", "no member is left")
        elif g["leader"] not in g["members"]:
            frame["stage"] = "leader"
    return True


def after_fight(ctx: Ctx, frame: dict) -> bool:
    """What follows automatically from the players' result (FIG-HOOK-1 step 3)."""
    name, result = frame["creature"], frame["result"]
    g = ctx.group(frame["group"])
    c = ctx.data.creature(name)
    won = result.get("result") in ("driven_off", "creature_killed")
    if "survived_two_rounds" in result["flags"]:
        g["lose_all"] = True
        ctx.note(c.rule, f"Some {name} survived two rounds: {g['id']} loses all its bonus rolls "
                         f"(FIG-BDR-10)", refs=[g["id"]])
    if "stalemate" in result["flags"]:
        loot = [(m, p) for m in g["members"] for p in ctx.char(m)["possessions"]
                if _is_possession(ctx, p)]
        if loot:
            pair = ctx.pick(frame, "stolen", loot, c.rule, f"The {name} steal",
                            refs=[m for m, _ in loot])
            if pair is None:
                return False
            who, item = pair
            ctx.char(who)["possessions"].remove(item)
            ctx.change(c.rule, "possession", f"The {name} steal {ctx.data.display_name(item)} "
                                             f"from {who}", refs=[who])
        else:
            ctx.note(c.rule, f"{g['id']} carries nothing the {name} can steal")
    if c.effect_key == "mob_combat" and c.params.get("loyalty_shift_rebel_win") and won:
        if ctx.side == "rebel":
            ctx.state["flags"]["synestins"] = True
            ctx.note(c.rule, f"The Rebels beat the {name}: loyalty will shift toward the Rebel "
                             f"at the resolution (FIG-MIS-22)")
    if c.effect_key == "vrialta" and result.get("result") == "creature_killed":
        ctx.env["memory"]["vrialta_gone"] = True
        ctx.change(c.rule, "kill", f"{name} is killed and never appears again")
    return True


def _is_possession(ctx: Ctx, item: str) -> bool:
    try:
        return ctx.data.chart_row(item).kind == "possession"
    except ValueError:
        return True


@procedure("locals")
def locals_attack(ctx: Ctx, frame: dict) -> None:
    """FIG-LOC-1, FIG-LOC-2, FIG-LOC-3: the group, then the race (its strength from the chart of
    FIG-LOC-4), then the mob size; the fight is the players' (FIG-HOOK-2)."""
    rule = frame["rule"]
    env = ctx.env
    if "hook" in frame:
        frame.pop("hook")
        ctx.pop()
        return
    if frame["stage"] == "group":
        exempt = ctx.data.tables["irate_locals"]["rebel_exempt"]
        if ctx.side == "rebel" and env["planet_state"] in exempt:
            ctx.note("FIG-LOC-2", "The Rebel conducts the missions on a planet "
                                  f"{env['planet_state'].replace('_', ' ')}: the locals do not "
                                  f"rise against him")
            ctx.pop()
            return
        if not env["races"]:
            ctx.note("FIG-LOC-1", "No race is named for this environs: no effect")
            ctx.pop()
            return
        if no_group_to_attack(ctx, frame, rule) or pick_group(ctx, frame) is None:
            return
        frame["stage"] = "race"
    race_name = ctx.pick(frame, "race", env["races"], "FIG-LOC-1", "The locals' race",
                         refs=env["races"])
    if race_name is None:
        return
    r = ctx.need(frame, "mob", ctx.data.tables["irate_locals"]["mob"], "FIG-LOC-1",
                 f"{race_name} mob size", refs=[frame["group"]])
    if r is None:
        return
    race = ctx.data.race(race_name)
    af, ef = race.strength(env["type"] or "", env["special_kind"])
    where = ""
    if (af, ef) != (race.af, race.ef):
        where = f" ({race.alt_environs} environs, FIG-LOC-3)"
        ctx.note("FIG-LOC-3", f"{race_name} fight at {af}/{ef} in {race.alt_environs} environs")
    g = ctx.group(frame["group"])
    data = {"creature": f"{race_name} (irate locals)", "race": race_name, "af": af, "ef": ef,
            "count": r["result"], "surprise": False, "flags": []}
    push_hook(ctx, "combat", "FIG-HOOK-2",
              f"{r['result']} irate {race_name} ({af}/{ef} each{where}) fall on {g['id']}: enter "
              f"the result of the fight", g, **data)
