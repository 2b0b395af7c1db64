"""The environs context of Part A, by the context rules, FIG-CTX (each function names the IDs it
implements): checking what the players entered and filling in the defaults.

A context is a YAML mapping (a scenario's ``context``, or what a form produces). It is checked
against ``schemas/environs.schema.yaml`` and then against what a schema cannot say (FIG-CTX-13):
names exist in their tables, no character or possession is entered twice, variant rows are not
entered as characters, at most two races, the fields an environs or an orbit box needs. The
first problem raises :class:`~struggle_desktop.engine.errors.DataError` with one message naming
the field (``context: characters/2/name: ...``). Nothing is resolved while a context is invalid.

:func:`normalize` returns a new dict with every optional field present (the state's
``environs``, described in context.py). :func:`random_context` builds a valid context from a
seed, for the ``random`` scenario and the fuzzers.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.data import validate
from struggle_desktop.engine.errors import DataError
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom.context import LOYALTY, RATINGS, SIDES
from struggle_desktop.games.freedom.data import FreedomData

SCHEMA = Path(__file__).resolve().parent / "schemas" / "environs.schema.yaml"

CHARACTER_FLAGS = ("detected", "resting", "captured", "home_planet_here", "royalty_here",
                   "variant", "npc_sovereign")
DEFAULT_CONTROLLER = {"loyalty": "imperial", "rebellion_stopped": "imperial",
                      "rebel_controlled": "rebel", "in_rebellion": "none"}


class ContextError(DataError):
    """A context that breaks FIG-CTX-13; the message names the field."""


def _fail(source: str, where: str, message: str) -> ContextError:
    return ContextError(f"{source}: {where}: {message}")


def normalize(raw: Any, data: FreedomData, source: str = "context") -> dict:
    """The checked context with its defaults filled in; raises ContextError naming the first
    offending field (FIG-CTX-13). The schema checks the sides (FIG-CTX-2); this function fills
    in the coup (FIG-CTX-5), the enemy resource track (FIG-CTX-12) and the mulligans
    (FIG-CTX-10); the functions it calls do the rest."""
    validate(raw, SCHEMA, source)
    env = clone(raw)
    _location(env, source)
    _planet(env, source)
    env.setdefault("enemy_resources", None)
    env.setdefault("coup_rating", 0)
    env.setdefault("last_coup_by", None)
    _units(env, source)
    _sovereigns(env, source)
    _creature(env, data, source)
    _races(env, data, source)
    _characters(env, data, source)
    _ships(env, data, source)
    _pools(env, data, source)
    env.setdefault("mulligans", {})
    for side in SIDES:
        env["mulligans"].setdefault(side, 0)
    env.setdefault("assignment", None)
    if env["assignment"] is not None:
        _assignment_names(env, source)
    return env


def _location(env: dict, source: str) -> None:
    """FIG-CTX-1: an environs has a size and a type; an orbit box has neither."""
    if env["location"] == "environs":
        for key in ("size", "type"):
            if key not in env:
                raise _fail(source, key, "an environs needs its size and its type (FIG-CTX-1)")
        if env["type"] == "special" and "special_kind" not in env:
            raise _fail(source, "special_kind", "a special environs needs subterranean or other")
        if env["type"] != "special" and "special_kind" in env:
            raise _fail(source, "special_kind", "only a special environs has a special kind")
        env.setdefault("special_kind", None)
    else:
        for key in ("size", "type", "special_kind"):
            if key in env:
                raise _fail(source, key, "an orbit box has no size or type (FIG-CTX-1)")
        env.update(size=0, type=None, special_kind=None)


def _planet(env: dict, source: str) -> None:
    """FIG-CTX-3 (an orbit box may leave the planet out: only J and Q happen there)."""
    state = env.get("planet_state")
    if state is None:
        if env["location"] == "environs":
            raise _fail(source, "planet_state", "an environs needs the planet's state "
                                                "(loyalty, in_rebellion, rebellion_stopped or "
                                                "rebel_controlled)")
        if "loyalty" in env:
            raise _fail(source, "loyalty", "loyalty is given only with planet_state: loyalty")
        env.update(planet_state=None, loyalty=None)
    elif state == "loyalty":
        if "loyalty" not in env:
            raise _fail(source, "loyalty", f"planet_state loyalty needs one of "
                                           f"{', '.join(LOYALTY)}")
    else:
        if "loyalty" in env:
            raise _fail(source, "loyalty", f"a planet {state.replace('_', ' ')} has no loyalty "
                                           f"space")
        env["loyalty"] = None
    if env.get("occupied") and state != "rebel_controlled":
        raise _fail(source, "occupied", "only a Rebel-controlled planet can be under occupation")
    env.setdefault("occupied", False)
    env.setdefault("controller", DEFAULT_CONTROLLER.get(state, "none"))
    for flag in ("capital_or_throne", "province_taxed_next_turn", "rebel_secret_base_here",
                 "pdb_down"):
        env.setdefault(flag, False)
    env.setdefault("planets_in_rebellion_empire_wide", 0)
    env.setdefault("pdb", 0)
    if env["pdb_down"] and env["pdb"] == 0:
        raise _fail(source, "pdb_down", "there is no PDB to be down (pdb is 0)")


def _unique(source: str, where: str, values: list[str], what: str) -> None:
    seen: set[str] = set()
    for i, value in enumerate(values):
        if value in seen:
            raise _fail(source, f"{where}/{i}", f"{what} {value!r} is entered twice")
        seen.add(value)


def _units(env: dict, source: str) -> None:
    """FIG-CTX-4: every unit gets an id (``U1``... in entry order unless given)."""
    units = env.setdefault("units", [])
    for i, unit in enumerate(units):
        unit.setdefault("id", f"U{i + 1}")
        unit.setdefault("elite", False)
        unit.setdefault("leader", None)
        unit.setdefault("damaged", False)
        unit["destroyed"] = False
    _unique(source, "units", [u["id"] for u in units], "unit id")


def _sovereigns(env: dict, source: str) -> None:
    """FIG-CTX-6."""
    sovereigns = env.setdefault("sovereigns", [])
    for s in sovereigns:
        s.setdefault("summoned", False)
        s.setdefault("assassinated", False)
        s.setdefault("resource_rating", 0)
        s.setdefault("resource_star", False)
    _unique(source, "sovereigns", [s["name"] for s in sovereigns], "sovereign")


def _creature(env: dict, data: FreedomData, source: str) -> None:
    """FIG-CTX-7: at most one creature, from the chart; the game-long memory (FIG-FOE-5)."""
    name = env.setdefault("creature", None)
    if name is not None and name not in data.creatures:
        raise _fail(source, "creature", f"{name!r} is not one of the 56 creatures")
    memory = env.setdefault("memory", {})
    memory.setdefault("zops_used", False)
    memory.setdefault("vrialta_gone", False)
    memory.setdefault("virus_immune", [])


def _races(env: dict, data: FreedomData, source: str) -> None:
    """FIG-CTX-8: zero to two races of the Irate Locals chart, in entry order."""
    races = env.setdefault("races", [])
    if len(races) > 2:
        raise _fail(source, "races", f"at most two races, not {len(races)}")
    for i, race in enumerate(races):
        if race not in data.races:
            raise _fail(source, f"races/{i}", f"{race!r} is not a race of the Irate Locals chart")
    _unique(source, "races", races, "race")


def _possession_rows(data: FreedomData) -> dict:
    """The rows of FIG-BDR-15, possessions and spaceships, by name."""
    return {name: data.chart_row(name) for name in data.possession_deck}


def _characters(env: dict, data: FreedomData, source: str) -> None:
    """FIG-CTX-9 and FIG-CTX-10 (possessions carried)."""
    characters = env.setdefault("characters", [])
    extras = env.setdefault("extra_possessions", [])
    possessions = _possession_rows(data)
    sovereigns = {s["name"] for s in env["sovereigns"]}
    for i, c in enumerate(characters):
        where = f"characters/{i}"
        if c.get("npc_sovereign"):
            if c["name"] not in sovereigns:
                raise _fail(source, f"{where}/name", f"{c['name']!r} is flagged npc_sovereign but "
                                                     f"is not among the sovereigns")
        else:
            try:
                row = data.chart_row(c["name"])
            except ValueError:
                raise _fail(source, f"{where}/name", f"{c['name']!r} is not a character of the "
                                                     f"Part A charts") from None
            if row.kind != "character":
                raise _fail(source, f"{where}/name", f"{c['name']!r} is a {row.kind}, not a "
                                                     f"character")
            if row.variant_of is not None:
                raise _fail(source, f"{where}/name", f"{row.name!r} is a variant row; enter "
                                                     f"{row.variant_of!r} (with variant: true)")
            if row.side != c["side"]:
                raise _fail(source, f"{where}/side", f"{row.name} is a {row.side} character")
            c["name"] = row.name
        for flag in CHARACTER_FLAGS:
            c.setdefault(flag, False)
        if c["royalty_here"]:
            c["home_planet_here"] = True      # royalty here is at home here (FIG-BDR-9)
        c.setdefault("hits", 0)
        for rating in RATINGS:
            c.setdefault(rating, None)
        c.setdefault("possessions", [])
        c["dead"] = False
        if c["npc_sovereign"]:
            c["detected"] = True            # a sovereign is always detected (FIG-MSN-17)
        for k, item in enumerate(c["possessions"]):
            if item in possessions:
                if possessions[item].kind != "possession":
                    raise _fail(source, f"{where}/possessions/{k}",
                                f"{item!r} is a spaceship; enter it under spaceships")
            elif item not in extras:
                raise _fail(source, f"{where}/possessions/{k}",
                            f"{item!r} is not a possession of the chart nor in extra_possessions")
    _unique(source, "characters", [c["name"] for c in characters], "character")
    carried = [p for c in characters for p in c["possessions"]]
    _unique(source, "possessions carried", carried, "possession")
    for i, name in enumerate(env["memory"]["virus_immune"]):
        if not isinstance(name, str):
            raise _fail(source, f"memory/virus_immune/{i}", "a character's name is expected")


def _ships(env: dict, data: FreedomData, source: str) -> None:
    """FIG-CTX-10 (spaceships present) and FIG-CTX-11 (atrocity units), FIG-CTX-12 (cells)."""
    ships = env.setdefault("spaceships", [])
    for i, ship in enumerate(ships):
        rows = data.bonus_chart(ship["side"], "spaceship")
        name = data.canonical_name(ship["name"])
        if name not in rows:
            raise _fail(source, f"spaceships/{i}/name", f"{ship['name']!r} is not a "
                                                        f"{ship['side']} spaceship of the charts")
        ship["name"] = name
        ship.setdefault("detected", False)
        ship.setdefault("damaged", False)
        ship["destroyed"] = False
    _unique(source, "spaceships", [s["name"] for s in ships], "spaceship")
    atrocity = env.setdefault("atrocity_units", [])
    for a in atrocity:
        a["destroyed"] = False
    _unique(source, "atrocity_units", [a["id"] for a in atrocity], "atrocity unit")
    cells = env.setdefault("cells", [])
    _unique(source, "cells", [c["id"] for c in cells], "cell or camp")
    names = {c["name"] for c in env["characters"]}
    for i, cell in enumerate(cells):
        if cell["id"] in names:
            raise _fail(source, f"cells/{i}/id", f"{cell['id']!r} is also a character's name")


def _pools(env: dict, data: FreedomData, source: str) -> None:
    """FIG-CTX-12 (unrecruited characters) and FIG-CTX-10 (the possession pool): defaults are
    everything of the charts not in play here."""
    present = {c["name"] for c in env["characters"]}
    pools = env.setdefault("unrecruited", {})
    for side in SIDES:
        allowed = data.recruitable(side)
        if side not in pools:
            pools[side] = [n for n in allowed if n not in present]
            continue
        for i, name in enumerate(pools[side]):
            canonical = data.canonical_name(name)
            if canonical not in allowed:
                raise _fail(source, f"unrecruited/{side}/{i}",
                            f"{name!r} is not a {side} character that can be recruited")
            if canonical in present:
                raise _fail(source, f"unrecruited/{side}/{i}", f"{name} is already in play here")
            pools[side][i] = canonical
        _unique(source, f"unrecruited/{side}", pools[side], "character")
    in_play = {p for c in env["characters"] for p in c["possessions"]}
    in_play |= {s["name"] for s in env["spaceships"]}
    chart = list(data.possession_deck)
    known = chart + [x for x in env["extra_possessions"] if x not in chart]
    if "possession_pool" not in env:
        env["possession_pool"] = [p for p in known if p not in in_play]
        return
    for i, name in enumerate(env["possession_pool"]):
        canonical = data.canonical_name(name)
        if canonical not in known:
            raise _fail(source, f"possession_pool/{i}", f"{name!r} is not a possession of the "
                                                        f"chart nor in extra_possessions")
        if canonical in in_play:
            raise _fail(source, f"possession_pool/{i}", f"{name} is in play here")
        env["possession_pool"][i] = canonical
    _unique(source, "possession_pool", env["possession_pool"], "possession")


def _assignment_names(env: dict, source: str) -> None:
    """The names a pre-set assignment uses exist here; its requirements are checked by the
    assignment segment (FIG-MIS-4)."""
    names = {c["name"] for c in env["characters"]}
    cells = {c["id"] for c in env["cells"]}
    for i, group in enumerate(env["assignment"]):
        where = f"assignment/{i}"
        if "performer" in group:
            if group["performer"] not in cells:
                raise _fail(source, f"{where}/performer", f"{group['performer']!r} is not a cell "
                                                          f"or camp here")
            if "leader" in group or group.get("members"):
                raise _fail(source, f"{where}/members", "no character goes with a cell or camp "
                                                        "(FIG-MSN-15)")
            continue
        if "leader" not in group:
            raise _fail(source, f"{where}/leader", "a character group needs a leader")
        for key, who in [("leader", group["leader"])] + [
                (f"members/{k}", m) for k, m in enumerate(group.get("members", []))]:
            if who not in names:
                raise _fail(source, f"{where}/{key}", f"{who!r} is not a character here")


# ------------------------------------------------------------------------------ random contexts
def random_context(seed: int, data: FreedomData) -> dict:
    """A valid environs context drawn from ``seed`` (its own generator stream): an environs of
    random size, type, planet state and loyalty, a few characters of the phasing side with all
    their ratings, enemies, units, maybe a creature, races, a sovereign, captives and cells. No
    assignment: the groups are formed at the prompt."""
    rng = Rng.from_seed(seed, stream=31)

    def choose(seq):
        return seq[rng.below(len(seq))]

    def chance(percent: int) -> bool:
        return rng.below(100) < percent

    side = choose(SIDES)
    enemy = "imperial" if side == "rebel" else "rebel"
    orbit = chance(10)
    env: dict[str, Any] = {"location": "orbit" if orbit else "environs", "phasing_side": side}
    if not orbit:
        env["size"] = 1 + rng.below(6)
        env["type"] = choose(["urban", "wild", "special"])
        if env["type"] == "special":
            env["special_kind"] = choose(["subterranean", "other"])
        state = choose(["loyalty"] * 6 + ["in_rebellion", "rebellion_stopped", "rebel_controlled"])
        env["planet_state"] = state
        if state == "loyalty":
            env["loyalty"] = choose(LOYALTY)
        env["occupied"] = state == "rebel_controlled" and chance(30)
        env["capital_or_throne"] = chance(30)
        env["province_taxed_next_turn"] = chance(30)
        env["rebel_secret_base_here"] = chance(20)
        env["planets_in_rebellion_empire_wide"] = rng.below(5)
        env["pdb"] = rng.below(3)
        env["pdb_down"] = env["pdb"] > 0 and chance(20)
        env["enemy_resources"] = rng.below(12)
        env["coup_rating"] = choose([0, 0, 1, 2, 3])
        env["last_coup_by"] = choose([None, None, "rebel", "imperial"])
        kinds = (["conscript", "2nd_line", "1st_line", "stormtrooper", "landed_starship"]
                 if enemy == "imperial" else ["irregular", "militia", "other"])
        env["units"] = [{"side": enemy, "kind": choose(kinds), "af": 1 + rng.below(4),
                         "elite": chance(15), "leader": choose([None, None, 1, 2])}
                        for _ in range(rng.below(3))]
        env["creature"] = choose([None] + list(data.creatures)) if chance(70) else None
        races = list(data.races)
        env["races"] = [choose(races) for _ in range(rng.below(3))]
        env["races"] = list(dict.fromkeys(env["races"]))
        if chance(40):
            env["sovereigns"] = [{"name": "Local Sovereign",
                                  "alignment": choose(["pro_rebel", "neutral", "pro_imperial"]),
                                  "resource_rating": rng.below(6), "resource_star": chance(50)}]
        if side == "rebel" and chance(30):
            env["cells"] = [{"id": "Cell 1", "kind": choose(["cell", "camp"])}]
    own = list(data.recruitable(side))
    theirs = list(data.recruitable(enemy))
    characters = []
    for _ in range(1 + rng.below(4)):
        name = own.pop(rng.below(len(own)))
        characters.append(_random_character(rng, name, side, captured=False))
    for _ in range(rng.below(2)):
        name = theirs.pop(rng.below(len(theirs)))
        characters.append(_random_character(rng, name, enemy, captured=chance(50)))
    if chance(40):
        name = own.pop(rng.below(len(own)))
        characters.append(_random_character(rng, name, side, captured=True))
    pool = [n for n, row in data.bonus_chart("rebel", "possession").items()
            if row.kind == "possession"]
    for c in characters:
        if side == "rebel" and c["side"] == "rebel" and not c["captured"] and chance(30):
            c["possessions"] = [pool.pop(rng.below(len(pool)))]
    env["characters"] = characters
    ships = list(data.bonus_chart(side, "spaceship"))
    if orbit or chance(20):
        env["spaceships"] = [{"name": choose(ships), "side": side, "detected": chance(50)}]
    if orbit and side == "rebel" and chance(50):
        env["atrocity_units"] = [{"id": "Dreadnought 1", "kind": "dreadnought"}]
    env["mulligans"] = {"rebel": choose([0, 0, 1]), "imperial": choose([0, 0, 1])}
    return env


def _random_character(rng: Rng, name: str, side: str, captured: bool) -> dict:
    c = {"name": name, "side": side, "detected": rng.below(3) == 0, "captured": captured,
         "resting": rng.below(10) == 0 and not captured,
         "home_planet_here": rng.below(5) == 0, "royalty_here": rng.below(12) == 0}
    for rating in RATINGS:
        c[rating] = 1 + rng.below(4) if rating != "ef" else 3 + rng.below(6)
    return c
