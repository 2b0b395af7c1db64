"""The Noble Houses program house: section 20 of rules-nobles.md, each rule named below.

``choose(game, view, role, rng)`` answers the pending prompt of ``role`` with one of
``view["legal_actions"]`` (NH-AI-1). It reads only the view, which holds no procedure stack and
so no other house's hidden declaration (NH-SIM-2), and never the game's generator: ties are
broken with the caller's ``rng`` (NH-AI-2). Every number it uses is a parameter of
``assets/tables/nobles/ai.yaml``; the difficulty presets of NH-AI-14 choose a few of them.

How it decides, prompt by prompt:

- ``homeworld_army``, ``recruit``: NH-AI-5 (the buying stages, above the reserve);
- ``disband``, ``retainer``: NH-AI-4; ``noble_action``: NH-AI-12 and NH-AI-13 (Strategic
  Planning is always +1, NH-AI-4);
- ``move``: NH-AI-6, NH-AI-7, NH-AI-8, NH-AI-9. The plan is made from the view at every
  ``move`` prompt. Units loaded on a ship that has not jumped count as still on the ground,
  and the plan's ties are broken with a copy of ``rng``; so a plan in progress comes out the
  same at each of its prompts, and the ships that have already jumped (flagged ``moved``)
  simply drop out of the next plan. One strike group is loaded and flown at a time; ``done``
  ends the step when none is left;
- ``launch``: NH-AI-10; ``command``, ``casualty``, ``sacrifice``: NH-AI-11;
- ``homeworld``, ``aristocracy``, ``place``: not covered by section 20, see the decisions in
  the docstrings of their handlers.

Where section 20 leaves a choice open, this module decides (each handler's docstring says
more): EV leaves out the Rebels' bonus against Imperial units (it is not a role bonus); a
disband or retainer choice rates an army by its better role; the reserve's divisor is the
table's, not the upkeep option; the buying stages are checked afresh at every ``recruit``
prompt on what the view shows; a target's distance is the jump's length in hexes from the
nearest hex with a free ship that reaches it, and the enemy strength to beat is that of every
other house with armies there; the Noble and the nuke of NH-AI-9 count towards the need; the
any-kind ally uses act after the Nobles; with no enemy army in the hex the nukes go at the
fullest ship.

The *hard* preset goes further than section 20 (NH-AI-14 leaves a level's strength open): its
player is ``campaign.CampaignPlayer``, a subclass that garrisons leanly, stages armies towards
the front and sends ships to waiting armies, and (issue 28) besieges the weakest enemy to put
it out of the game; ``player_for`` picks the class by the preset. A seat given the
``passive`` level is played by ``ai_passive.PassivePlayer``, which never attacks.

``decide`` also returns the rule that chose the action (``fallback`` for a prompt kind this
module does not know, answered with its first legal action); the tests use it.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from struggle_desktop.engine.actions import same_json
from struggle_desktop.engine.hexgrid import distance
from struggle_desktop.games.nobles import mapgen
from struggle_desktop.games.nobles import turn as rules
from struggle_desktop.games.nobles.context import Ctx, unit_sort_key
from struggle_desktop.games.nobles.registry import RULES

Hex = tuple[int, int]
FALLBACK = "fallback"
#: NH-AI-12's list: the order in which a Noble considers the action kinds.
LIST_ORDER = ("govern", "diplomacy", "intrigue", "assassination", "sabotage",
              "strategic_planning")


def choose(game, view: dict, role: str, rng) -> dict:
    """The program house's answer to the pending prompt of ``role`` (NH-AI-1)."""
    return decide(game, view, role, rng)[0]


def decide(game, view: dict, role: str, rng) -> tuple[dict, str]:
    """(action, rule ID that chose it). The action is always one of the view's legal ones."""
    return player_for(game, view, role, rng).decide()


def player_for(game, view: dict, role: str, rng) -> "Player":
    """The player of ``role``'s level: section 20's, or the hard preset's campaign
    (campaign.py) when the preset asks for it."""
    presets = game.data["ai"]["difficulty"]
    level = level_of(view["options"], role)
    if level == "passive":
        from struggle_desktop.games.nobles.ai_passive import PassivePlayer

        return PassivePlayer(game, view, role, rng)
    preset = presets.get(level, presets["normal"])
    if preset.get("campaign"):
        from struggle_desktop.games.nobles.campaign import CampaignPlayer

        return CampaignPlayer(game, view, role, rng)
    return Player(game, view, role, rng)


def level_of(options: dict, role: str) -> str:
    """The level (NH-AI-14) the program plays house ``role`` at: its seat's own, when the
    options give levels seat by seat, else every program house's.

    >>> level_of({"ai_difficulty": "easy"}, "B"), level_of({"levels": ["hard", "easy"]}, "A")
    ('easy', 'hard')
    """
    levels = options.get("levels") or []
    index = ord(role) - ord("A") if isinstance(role, str) and len(role) == 1 else -1
    if 0 <= index < len(levels):
        return levels[index]
    return options.get("ai_difficulty") or "normal"


# ------------------------------------------------------------------------------ map cache
_MOVERS: dict[tuple, Callable[[Hex], dict[Hex, int]]] = {}


def mover(game_map: dict, jump_range: int) -> Callable[[Hex], dict[Hex, int]]:
    """hex -> {system hex one jump away: fewest hexes moved} (mapgen.destinations), memoized
    per map: the map never changes during a game, and the rules' ``destinations`` rebuilds
    its sets on every call."""
    key = (game_map.get("width", 10), game_map.get("height", 10), jump_range,
           tuple(sorted((k, f["kind"]) for k, f in game_map["features"].items())),
           tuple(tuple(map(tuple, pair)) for pair in game_map.get("stargates", ())))
    found = _MOVERS.get(key)
    if found is None:
        if len(_MOVERS) > 32:            # a long session with many maps: start afresh
            _MOVERS.clear()
        memo: dict[Hex, dict[Hex, int]] = {}

        def found(h: Hex) -> dict[Hex, int]:
            if h not in memo:
                memo[h] = {(d.x, d.y): n for d, n in
                           mapgen.destinations(game_map, h, jump_range).items()}
            return memo[h]

        _MOVERS[key] = found
    return found


# ------------------------------------------------------------------------------ the player
class Player:
    """One decision of the program house on one view."""

    def __init__(self, game, view: dict, role: str, rng):
        self.game = game
        self.data = game.data
        self.view = view
        self.me = role
        self.rng = rng
        self.ctx = Ctx(view, RULES.procedures, game.data)
        self.p = game.data["ai"]
        presets = self.p["difficulty"]
        self.preset = presets.get(level_of(view["options"], role), presets["normal"])
        self.legal = view["legal_actions"]
        self.pending = view["pending"] or {}
        self.units: dict[str, dict] = view["units"]
        # The map does not exist yet at the set-up prompts (NH-SETUP-3).
        game_map = view.get("map") or {"worlds": {}, "features": {}}
        self.dests = mover(game_map, view["options"]["jump_range"])
        self.hex_world = {tuple(h): w for w, h in game_map["worlds"].items()}
        self.by_hex: dict[Hex, list[str]] = {}
        for uid in sorted(self.units, key=unit_sort_key):
            self.by_hex.setdefault(tuple(self.units[uid]["hex"]), []).append(uid)
        self._ev: dict[tuple, float] = {}
        self._threat: dict[Hex, float] = {}
        self._sources: dict[str, tuple] = {}
        self._mine: dict[str | None, list[str]] = {}

    # ----------------------------------------------------------------- entry point
    def decide(self) -> tuple[dict, str]:
        kind = self.pending.get("kind")
        handler = getattr(self, f"on_{kind}", None)
        if handler is not None and self.legal:
            action, rule = handler()
            found = self.legal_match(action)
            if found is not None:
                return found, rule
            # A planned action the engine does not list is a bug of this module; answer
            # legally all the same (NH-AI-1) and say so through the rule.
            return self.legal[0], f"{FALLBACK}:illegal:{rule}"
        return (self.legal[0] if self.legal else {"verb": "done"}), FALLBACK

    def legal_match(self, action: dict | None) -> dict | None:
        if action is None:
            return None
        return next((a for a in self.legal if same_json(a, action)), None)

    # ----------------------------------------------------------------- ties (NH-AI-2)
    def best(self, items: Sequence[Any], key: Callable[[Any], Any], rng=None) -> Any:
        """The item with the highest key; a tie is broken by a draw from the AI's stream."""
        items = list(items)
        if not items:
            return None
        keys = [_round(key(i)) for i in items]
        top = max(keys)
        tied = [i for i, k in zip(items, keys) if k == top]
        if len(tied) == 1:
            return tied[0]
        return tied[(rng or self.rng).below(len(tied))]

    def ranked(self, items: Sequence[Any], key: Callable[[Any], Any], rng=None) -> list:
        """Items by decreasing key; each run of equal keys in an order drawn from the AI's
        stream (NH-AI-2)."""
        rng = rng or self.rng
        keyed = sorted(((_round(key(i)), n, i) for n, i in enumerate(items)),
                       key=lambda t: (t[0], -t[1]), reverse=True)
        out: list = []
        n = 0
        while n < len(keyed):
            m = n
            while m < len(keyed) and keyed[m][0] == keyed[n][0]:
                m += 1
            run = [t[2] for t in keyed[n:m]]
            while len(run) > 1:
                out.append(run.pop(rng.below(len(run))))
            out.extend(run)
            n = m
        return out

    # ----------------------------------------------------------------- units and map
    def utype(self, uid: str):
        return self.data.units[self.units[uid]["type"]]

    def owner(self, uid: str) -> str:
        return self.units[uid]["owner"]

    def hex_of(self, uid: str) -> Hex:
        h = self.units[uid]["hex"]
        return (h[0], h[1])

    def at(self, h: Hex, owner: str | None = None, category: str | None = None) -> list[str]:
        return [u for u in self.by_hex.get(tuple(h), ())
                if (owner is None or self.units[u]["owner"] == owner)
                and (category is None or self.utype(u).category == category)]

    def mine(self, category: str | None = None) -> list[str]:
        """The house's units (of one category), in id order."""
        if category not in self._mine:
            self._mine[category] = [
                u for u, row in sorted(self.units.items(), key=lambda kv: unit_sort_key(kv[0]))
                if row["owner"] == self.me
                and (category is None or self.data.units[row["type"]].category == category)]
        return self._mine[category]

    def is_mobile_army(self, uid: str) -> bool:
        """An army a jumpship can carry: not a Defender, not Self Transport (NH-MOV-8)."""
        t = self.utype(uid)
        return t.category == "army" and not t.has("defenders") and not t.has("self_transport")

    def is_self_transport(self, uid: str) -> bool:
        t = self.utype(uid)
        return t.category == "army" and t.has("self_transport")

    def enemies(self) -> list[str]:
        return [h for h, row in self.view["houses"].items() if row["alive"] and h != self.me]

    def controller(self, world: str) -> str | None:
        return self.view["worlds"][world]["controller"]

    def my_worlds(self) -> list[str]:
        return [w for w in self.view["map"]["worlds"] if self.controller(w) == self.me]

    def income(self, world: str) -> int:
        return self.ctx.world_income(world)

    @property
    def house(self) -> dict:
        return self.view["houses"][self.me]

    # ----------------------------------------------------------------- NH-AI-3 terms
    def ev(self, unit_type: str, role: str, world: str | None = None) -> float:
        """EV(u, role): base AD, the role's bonuses and home defence (a bonus tied to a world
        counts only when defending that world), +psychic_bonus if Psychic, +first_strike_bonus
        with First Strike in the role."""
        key = (unit_type, role, world)
        if key not in self._ev:
            t = self.data.units[unit_type]
            value = float(t.ad)
            first = False
            for a in t.abilities:
                if a["kind"] not in ("bonus", "first_strike"):
                    continue
                when = a.get("when")
                if when is not None and when != role:
                    continue              # the other role's, or against Imperials only
                if a.get("world") and (role != "defending" or a["world"] != world):
                    continue
                if a["kind"] == "bonus":
                    value += a["ad"]
                else:
                    first = True
            ev = self.p["evaluation"]
            if t.has("psychic"):
                value += ev["psychic_bonus"]
            if first:
                value += ev["first_strike_bonus"]
            self._ev[key] = value
        return self._ev[key]

    def uev(self, uid: str, role: str, world: str | None = None) -> float:
        return self.ev(self.units[uid]["type"], role, world)

    def strength(self, armies: Iterable[str], nobles: int, nukes: int, role: str,
                 world: str | None) -> float:
        """S(group, role): EV of the armies, plus noble_weight per Noble (up to the number of
        armies) and nuke_weight per nuke."""
        armies = list(armies)
        ev = self.p["evaluation"]
        return (sum(self.uev(a, role, world) for a in armies)
                + ev["noble_weight"] * min(nobles, len(armies)) + ev["nuke_weight"] * nukes)

    def sources_of(self, house: str) -> tuple:
        """For Reach: house's jumpship hexes -> (ships, boardable armies best first (EV
        attacking), Nobles, nukes), and its Self Transport units."""
        if house not in self._sources:
            ships: dict[Hex, list] = {}
            st: list[str] = []
            for uid, u in self.units.items():
                if u["owner"] != house:
                    continue
                t = self.data.units[u["type"]]
                if t.category == "jumpship":
                    ships.setdefault(self.hex_of(uid), []).append(uid)
                elif self.is_self_transport(uid):
                    st.append(uid)
            table = {}
            for h, js in ships.items():
                armies = [u for u in self.at(h, house) if self.is_mobile_army(u)]
                armies.sort(key=lambda u: -self.uev(u, "attacking"))
                table[h] = (len(js), armies, len(self.at(h, house, "noble")),
                            len(self.at(h, house, "nuke")))
            self._sources[house] = (table, sorted(st, key=unit_sort_key))
        return self._sources[house]

    def reach_strength(self, h: Hex, house: str) -> float:
        """S(Reach(h, house), attacking): the armies already in h, up to
        reach_armies_per_ship non-Defender armies per jumpship that can reach h from its hex,
        and the Self Transport units within range; with the Nobles of those hexes and the
        nukes already in h or filling free slots."""
        world = self.hex_world.get(h)
        per_ship = self.p["evaluation"]["reach_armies_per_ship"]
        armies = list(self.at(h, house, "army"))
        nobles = len(self.at(h, house, "noble"))
        nukes = len(self.at(h, house, "nuke"))
        table, st = self.sources_of(house)
        for src, (ships, boardable, src_nobles, src_nukes) in table.items():
            if src == h or h not in self.dests(src):
                continue
            cap = per_ship * ships
            taken = boardable[:cap]
            armies.extend(taken)
            nobles += src_nobles
            nukes += min(src_nukes, cap - len(taken))
        armies.extend(u for u in st if self.hex_of(u) != h and h in self.dests(self.hex_of(u)))
        return self.strength(armies, nobles, nukes, "attacking", world)

    def threat(self, h: Hex) -> float:
        """T(h): the strongest enemy Reach on h."""
        h = tuple(h)
        if h not in self._threat:
            self._threat[h] = max((self.reach_strength(h, e) for e in self.enemies()),
                                  default=0.0)
        return self._threat[h]

    def defence(self, h: Hex, armies: Iterable[str] | None = None) -> float:
        """D(h): S(own armies in h, defending), with the own Nobles and nukes there."""
        h = tuple(h)
        if armies is None:
            armies = self.at(h, self.me, "army")
        return self.strength(armies, len(self.at(h, self.me, "noble")),
                             len(self.at(h, self.me, "nuke")), "defending", self.hex_world.get(h))

    def enemy_defence(self, h: Hex) -> float:
        """The defending S of every other house's armies in h (with their Nobles and nukes),
        summed: a strike may have to beat them one after the other (NH-BAT-4)."""
        world = self.hex_world.get(h)
        total = 0.0
        for e in self.enemies():
            armies = self.at(h, e, "army")
            if armies:
                total += self.strength(armies, len(self.at(h, e, "noble")),
                                       len(self.at(h, e, "nuke")), "defending", world)
        return total

    def enemy_armies(self, h: Hex) -> list[str]:
        return [u for u in self.at(h, category="army") if self.owner(u) != self.me]

    # ================================================================= set-up and upkeep
    def on_homeworld(self) -> tuple[dict, str]:
        """Not in section 20 (program seats draw their homeworld, NH-SETUP-2); asked for a
        human seat the program plays: the homeworld whose best own army has the best
        EV(attacking) per cost (NH-AI-5's measure)."""
        def score(action):
            units = [t for t in self.data.worlds[action["world"]].recruits
                     if self.data.units[t].category == "army"]
            return max(self.ev(t, "attacking") / self.data.units[t].cost for t in units)
        return self.best(self.legal, score), "NH-AI-5"

    def on_homeworld_army(self) -> tuple[dict, str]:
        """NH-AI-5's measure: the best EV(attacking) per cost, ties to the higher AD."""
        def score(action):
            t = self.data.units[action["unit"]]
            return (self.ev(t.name, "attacking") / t.cost, t.ad)
        return self.best([a for a in self.legal if a["verb"] == "take"], score), "NH-AI-5"

    def disband_order(self, uids: Sequence[str]) -> list[str]:
        """NH-AI-4: lowest EV, then lowest cost first. An army's EV is its better role's
        (section 20 does not say which role: a unit is worth what it does best)."""
        def key(uid):
            t = self.utype(uid)
            world = self.hex_world.get(self.hex_of(uid))
            return (max(self.uev(uid, "attacking"), self.uev(uid, "defending", world)),
                    t.cost or 0, unit_sort_key(uid))
        return sorted(uids, key=key)

    def on_disband(self) -> tuple[dict, str]:
        """NH-AI-4: armies by the disband order, never the last army on the homeworld. Only
        when no such army is left (section 20 is silent): nukes, then jumpships, cheapest
        first, then that last army."""
        offered = [a["unit"] for a in self.legal if a["verb"] == "disband"]
        home = self.house["homeworld"]
        home_hex = tuple(self.view["map"]["worlds"][home])
        home_armies = self.at(home_hex, self.me, "army")
        armies = [u for u in offered if self.utype(u).category == "army"
                  and not (len(home_armies) == 1 and u in home_armies)]
        if armies:
            return {"verb": "disband", "unit": self.disband_order(armies)[0]}, "NH-AI-4"
        for category in ("nuke", "jumpship", "army"):
            rest = [u for u in offered if self.utype(u).category == category]
            if rest:
                return {"verb": "disband", "unit": self.disband_order(rest)[0]}, "NH-AI-4"
        return self.legal[0], "NH-AI-4"

    def on_retainer(self) -> tuple[dict, str]:
        """NH-AI-4: pay every retainer it can afford; else let go one Mercenaries unit at a
        time, in the disband order, until it can."""
        pay = {"verb": "pay"}
        if self.legal_match(pay):
            return pay, "NH-AI-4"
        mercs = [a["unit"] for a in self.legal if a["verb"] == "dismiss"]
        return {"verb": "dismiss", "unit": self.disband_order(mercs)[0]}, "NH-AI-4"

    def on_aristocracy(self) -> tuple[dict, str]:
        """NH-ALLY-10's choice, not in section 20: the extra recruit roll while the house has
        fewer Nobles than ``aristocracy_noble_target``, else the extra Noble action."""
        target = self.p["noble_actions"]["aristocracy_noble_target"]
        benefit = "recruit_noble" if len(self.mine("noble")) < target else "noble_action"
        return {"verb": "choose", "benefit": benefit}, "NH-AI-12"

    def on_place(self) -> tuple[dict, str]:
        """Where new units appear when the homeworld is lost; not in section 20. A new Noble
        (NH-REC-2) goes to the safest world (lowest T - D), preferring one it can still
        Govern; an ally's units (NH-NOB-15) go to the most threatened world (highest T - D).
        Then the higher income."""
        worlds = [a for a in self.legal if a["verb"] == "place"]

        def margin(world):
            h = tuple(self.view["map"]["worlds"][world])
            return self.threat(h) - self.defence(h)

        if self.pending.get("rule") == "NH-NOB-15":
            return self.best(worlds, lambda a: (margin(a["world"]), self.income(a["world"]))), \
                "NH-AI-6"
        return self.best(worlds, lambda a: (-margin(a["world"]),
                                            not self.view["worlds"][a["world"]]["govern"],
                                            self.income(a["world"]))), "NH-AI-6"

    # ================================================================= NH-AI-5 recruiting
    def reserve(self) -> int:
        """floor((n + margin) / divisor) + the Mercenaries, plus the preset's extra Solats;
        none at all if the preset drops the formula (hard)."""
        r = self.p["recruiting"]
        total = self.preset["reserve_extra"]
        if self.preset["reserve_formula"]:
            n = self.ctx.upkeep_count(self.me)
            mercs = sum(1 for u in self.mine() if self.utype(u).has("retainer"))
            total += ((n + r["reserve_unit_margin"]) // r["reserve_divisor"]
                      + r["reserve_per_mercenary"] * mercs)
        return total

    def jumpship_bought_this_turn(self) -> bool:
        """Whether this turn's purchases include a jumpship: the house's newest jumpship
        stands unmoved on the ground of a world where it bought something this turn. (Only
        asked once something was bought, when the newest ship is the one just bought.)"""
        bought = self.house["bought"]
        ships = self.mine("jumpship")
        if not bought or not ships:
            return False
        newest = max(ships, key=unit_sort_key)
        u = self.units[newest]
        world = self.hex_world.get(self.hex_of(newest))
        return (not u["moved"] and u["ship"] is None and world is not None
                and bought.get(world, 0) > 0)

    def on_recruit(self) -> tuple[dict, str]:
        """NH-AI-5: at each prompt the first stage that still wants something buys it, never
        leaving fewer Solats than the reserve: transport, defence, the homeworld, nukes,
        other worlds; then ``done``."""
        budget = self.house["solats"] - self.reserve()
        buys = [a for a in self.legal if a["verb"] == "buy"
                and self.data.unit_cost(a["unit"], a["world"]) <= budget]
        for stage in (self.buy_transport, self.buy_defence, self.buy_homeworld,
                      self.buy_nuke, self.buy_other_worlds):
            action = stage(buys)
            if action is not None:
                return action, "NH-AI-5"
        return {"verb": "done"}, "NH-AI-5"

    def free_mobile_armies_at(self, h: Hex) -> int:
        return sum(1 for u in self.at(h, self.me) if self.is_mobile_army(u))

    def buy_transport(self, buys: list[dict]) -> dict | None:
        """1. One jumpship while they number fewer than max(min_jumpships, ceil(mobile armies
        / armies_per_jumpship)), at the cheapest place (Yoravar's price first). Among equal
        prices (a decision): where the most armies wait to be carried."""
        r = self.p["recruiting"]
        mobile = sum(1 for u in self.mine("army") if self.is_mobile_army(u))
        wanted = max(r["min_jumpships"], math.ceil(mobile / r["armies_per_jumpship"]))
        if len(self.mine("jumpship")) >= wanted or self.jumpship_bought_this_turn():
            return None
        ships = [a for a in buys if self.data.units[a["unit"]].category == "jumpship"]
        return self.best(ships, lambda a: (
            -self.data.unit_cost(a["unit"], a["world"]),
            self.free_mobile_armies_at(tuple(self.view["map"]["worlds"][a["world"]]))))

    def buy_defence(self, buys: list[dict]) -> dict | None:
        """2. For each own world with T > D, richest first: the army with the best
        EV(defending) per cost buyable there, Defenders included."""
        worlds = [w for w in self.my_worlds()
                  if self.threat(tuple(self.view["map"]["worlds"][w]))
                  > self.defence(tuple(self.view["map"]["worlds"][w]))]
        for world in self.ranked(worlds, self.income):
            options = [a for a in buys if a["world"] == world
                       and self.data.units[a["unit"]].category == "army"]
            if options:
                return self.best(options, lambda a, w=world: self.ev(a["unit"], "defending", w)
                                 / self.data.unit_cost(a["unit"], w))
        return None

    def buy_homeworld(self, buys: list[dict]) -> dict | None:
        """3. The homeworld's free slots: the best EV(attacking) per cost among its
        non-Defender armies, ally types included; ties to the higher AD."""
        home = self.house["homeworld"]
        options = [a for a in buys if a["world"] == home
                   and self.data.units[a["unit"]].category == "army"
                   and not self.data.units[a["unit"]].has("defenders")]
        return self.best(options, lambda a: (
            self.ev(a["unit"], "attacking") / self.data.unit_cost(a["unit"], home),
            self.data.units[a["unit"]].ad))

    def buy_nuke(self, buys: list[dict]) -> dict | None:
        """4. A nuke while it has fewer than nukes_wanted, wherever one is sold."""
        if len(self.mine("nuke")) >= self.p["recruiting"]["nukes_wanted"]:
            return None
        options = [a for a in buys if self.data.units[a["unit"]].category == "nuke"]
        return self.best(options, lambda a: -self.data.unit_cost(a["unit"], a["world"]))

    def buy_other_worlds(self, buys: list[dict]) -> dict | None:
        """5. Each other world with a free slot, richest first: the army with the best EV
        per cost if at least other_world_min_ev_per_cost. The EV is the unit's better role
        there (a decision: section 20 names no role), which for a Defender is defending."""
        home = self.house["homeworld"]
        floor = self.p["recruiting"]["other_world_min_ev_per_cost"]
        worlds = sorted({a["world"] for a in buys if a["world"] != home},
                        key=self.data.world_names.index)

        def value(action):
            t = self.data.units[action["unit"]]
            world = action["world"]
            ev = self.ev(t.name, "defending", world)
            if not t.has("defenders"):
                ev = max(ev, self.ev(t.name, "attacking"))
            return ev / self.data.unit_cost(t.name, world)

        for world in self.ranked(worlds, self.income):
            options = [a for a in buys if a["world"] == world
                       and self.data.units[a["unit"]].category == "army"
                       and value(a) >= floor]
            if options:
                return self.best(options, value)
        return None

    # ============================================== NH-AI-6, NH-AI-7, NH-AI-8, NH-AI-9 movement
    def on_move(self) -> tuple[dict, str]:
        """The next answer of the movement plan (NH-AI-6, NH-AI-7, NH-AI-8, NH-AI-9): cargo
        of an unmoved ship that the plan does not carry there is unloaded; then the first
        strike group still to fly is loaded (armies, then a Noble, then a nuke) and jumps;
        then ``done``."""
        legs = self.movement_plan()
        planned = {u: ship for ship, cargo, _, _ in legs for u in cargo}
        for uid, u in sorted(self.units.items(), key=lambda kv: unit_sort_key(kv[0])):
            ship = u["ship"]
            if (u["owner"] == self.me and ship is not None and not self.units[ship]["moved"]
                    and planned.get(uid) != ship):
                return {"verb": "unload", "ship": ship, "unit": uid}, "NH-AI-8"
        for ship, cargo, to, rule in legs:
            for uid in cargo:
                if self.units[uid]["ship"] != ship:
                    return {"verb": "load", "ship": ship, "unit": uid}, rule
            return {"verb": "jump", "ship": ship, "to": list(to)}, rule
        return {"verb": "done"}, "NH-AI-8"

    def garrisons(self) -> set[str]:
        """NH-AI-6: on the homeworld, armies until D >= T and at least homeworld_min_armies
        (Defenders first as they cannot leave anyway, then those that defend best compared
        with how they attack, a decision: the best attackers stay free); on every other own
        world with T > 0, the armies already there."""
        kept: set[str] = set()
        home = self.house["homeworld"]
        for world in self.my_worlds():
            h = tuple(self.view["map"]["worlds"][world])
            armies = [u for u in self.at(h, self.me, "army") if not self.units[u]["moved"]]
            t = self.threat(h)
            if world != home:
                if t > 0:
                    kept.update(armies)
                continue
            order = sorted(armies, key=lambda u: (
                not self.utype(u).has("defenders"),
                -(self.uev(u, "defending", world) - self.uev(u, "attacking")),
                -self.uev(u, "defending", world), unit_sort_key(u)))
            guard = self.home_guard(t)
            chosen: list[str] = []
            for uid in order:
                if (len(chosen) >= self.p["garrison"]["homeworld_min_armies"]
                        and self.defence(h, chosen) >= guard):
                    break
                chosen.append(uid)
            kept.update(chosen)
        return kept

    def home_guard(self, threat: float) -> float:
        """The defence NH-AI-6 keeps on the homeworld: T itself."""
        return threat

    def free_ships(self) -> list[str]:
        """Own jumpships and Self Transport units that have not moved this turn."""
        return [u for u in self.mine() if not self.units[u]["moved"]
                and (self.utype(u).category == "jumpship" or self.is_self_transport(u))]

    def target_value(self, world: str) -> float:
        """NH-AI-7: V = income + homeworld_bonus for a homeworld + shipyard_bonus for a
        world selling jumpships."""
        t = self.p["targets"]
        w = self.data.worlds[world]
        value = self.income(world)
        if w.homeworld:
            value += t["homeworld_bonus"]
        if any(self.data.units[u].category == "jumpship" for u in w.recruits):
            value += t["shipyard_bonus"]
        return value

    def targets(self, ships: list[str], rng) -> list[dict]:
        """NH-AI-7: worlds not controlled by the house that a free ship can reach, with their
        need, ranked by V / (distance_offset + hexes from the nearest such ship's hex)."""
        t = self.p["targets"]
        ship_hexes = sorted({self.hex_of(s) for s in ships}, key=lambda h: (h[1], h[0]))
        out = []
        for world, wh in self.view["map"]["worlds"].items():
            h = (wh[0], wh[1])
            if self.controller(world) == self.me:
                continue
            steps = [self.dests(s)[h] for s in ship_hexes if h in self.dests(s)]
            if not steps:
                continue
            enemy = self.enemy_armies(h)
            target = {"world": world, "hex": h, "distance": min(steps),
                      "enemy_armies": bool(enemy),
                      "enemy_held": bool(enemy) or self.controller(world) not in (None, self.me)}
            if enemy:
                target["need_strength"] = self.preset["attack_ratio"] * self.enemy_defence(h)
            else:
                target["need_armies"] = (t["need_threatened"] if self.threat(h) > 0
                                         else t["need_unthreatened"])
            target["rank"] = self.target_value(world) / (t["distance_offset"] + min(steps))
            out.append(target)
        return self.ranked(out, lambda x: x["rank"], rng)

    def movement_plan(self) -> list[tuple[str, list[str], Hex, str]]:
        """NH-AI-6, NH-AI-7, NH-AI-8, NH-AI-9 from the view: (ship, cargo to load,
        destination, rule) legs, strike group after strike group. Ships given no strike stay
        where they are (NH-AI-8)."""
        rng = copy.copy(self.rng)        # the same draws at every prompt of this plan
        kept = self.garrisons()
        ships = self.free_ships()
        used: set[str] = set(kept)       # armies, ships, Nobles and nukes given a job
        nobles_left = sum(1 for n in self.mine("noble") if not self.units[n]["moved"])
        legs: list[tuple[str, list[str], Hex, str]] = []
        for target in self.targets(ships, rng):
            group = self.strike_group(target, ships, used, nobles_left)
            if group is None:
                continue                  # NH-AI-8: need not met, the assignment is released
            for ship, cargo in group["legs"]:
                used.add(ship)
                used.update(cargo)
                legs.append((ship, cargo, target["hex"], group["rule"]))
            nobles_left -= group["nobles"]
        return legs

    def strike_group(self, target: dict, ships: list[str], used: set[str],
                     nobles_left: int) -> dict | None:
        """NH-AI-8 and NH-AI-9 for one target: free non-Defender armies, best EV(attacking)
        first, onto free jumpships, armies_per_ship a ship, from the source hexes nearest
        first (Self Transport units are one-army ships), until the need is met; a Noble
        for a strike of noble_min_armies or more on an enemy-held world if keep_nobles stay
        behind (hard: not on big strikes), and a nuke when a ship has a free slot and enemy
        armies are there. None if the need cannot be met."""
        h = target["hex"]
        present = [u for u in self.at(h, self.me, "army")]
        present_nukes = len(self.at(h, self.me, "nuke"))
        present_nobles = len(self.at(h, self.me, "noble"))
        sources: dict[Hex, int] = {}
        for ship in ships:
            src = self.hex_of(ship)
            if ship not in used and src != h and h in self.dests(src):
                sources[src] = self.dests(src)[h]
        legs: list[tuple[str, list[str]]] = []
        armies: list[str] = []
        extra: dict[str, Any] = {"noble": None, "nuke": None}

        def met() -> bool:
            every = present + armies
            if "need_armies" in target:
                return len(every) >= target["need_armies"]
            nobles = present_nobles + (1 if extra["noble"] else 0)
            nukes = present_nukes + (1 if extra["nuke"] else 0)
            return self.strike_meets(target, every, nobles, nukes)

        def add_extras() -> None:
            self.strike_extras(target, legs, armies, used, nobles_left, extra)

        if met():
            return None                   # already served (a group flown earlier this turn)
        for src in sorted(sources, key=lambda x: (sources[x], x[1], x[0])):
            here = [u for u in self.at(src, self.me, "army") if u not in used
                    and not self.units[u]["moved"]
                    and (self.is_mobile_army(u) or self.is_self_transport(u))]
            here.sort(key=lambda u: (-self.uev(u, "attacking"), unit_sort_key(u)))
            free_js = [u for u in self.at(src, self.me, "jumpship")
                       if u not in used and not self.units[u]["moved"]]
            for uid in here:
                if self.is_self_transport(uid):
                    if h not in self.dests(src):
                        continue
                    legs.append((uid, []))
                else:
                    leg = next((leg for leg in legs if self.hex_of(leg[0]) == src
                                and self.utype(leg[0]).category == "jumpship"
                                and len(leg[1]) < self.ship_capacity(leg[0])), None)
                    if leg is None:
                        if not free_js:
                            continue
                        leg = (free_js.pop(0), [])
                        legs.append(leg)
                    leg[1].append(uid)
                armies.append(uid)
                add_extras()
                if met():
                    return self.finish_group(target, legs, extra)
        return None

    def strike_meets(self, target: dict, armies: list[str], nobles: int, nukes: int) -> bool:
        """NH-AI-7's need for a world holding enemy armies: the group's attacking S (with
        its Nobles and nukes) at least ``need_strength``."""
        return (self.strength(armies, nobles, nukes, "attacking", target["world"])
                >= target["need_strength"])

    def strike_extras(self, target: dict, legs: list, armies: list[str], used: set[str],
                      nobles_left: int, extra: dict) -> None:
        """NH-AI-9: the Noble and the nuke a strike group may take along."""
        s = self.p["strikes"]
        if (extra["noble"] is None and target["enemy_held"]
                and len(armies) >= s["noble_min_armies"]):
            keep = s["keep_nobles"]
            big = self.preset["last_noble_min_armies"]
            if big is not None and len(armies) >= big:
                keep = 0                  # NH-AI-14, hard: even the last Noble may go
            if nobles_left - 1 >= keep:
                for ship, _ in legs:
                    if self.utype(ship).category != "jumpship":
                        continue
                    free = [n for n in self.at(self.hex_of(ship), self.me, "noble")
                            if n not in used and not self.units[n]["moved"]]
                    if free:
                        extra["noble"] = (ship, free[0])
                        break
        # The nuke is placed afresh after every army added: the ship it was to ride may
        # have filled up since.
        extra["nuke"] = None
        if target["enemy_armies"] and s["nukes_per_strike"] > 0:
            for ship, cargo in legs:
                if (self.utype(ship).category != "jumpship"
                        or len(cargo) >= self.ship_capacity(ship)):
                    continue
                free = [k for k in self.at(self.hex_of(ship), self.me, "nuke")
                        if k not in used and not self.units[k]["moved"]]
                if free:
                    extra["nuke"] = (ship, free[0])
                    break

    def ship_capacity(self, ship: str) -> int:
        """Armies a strike loads on a jumpship: armies_per_ship, within its slots."""
        return min(self.p["strikes"]["armies_per_ship"], self.ctx.slots(ship))

    def finish_group(self, target: dict, legs: list, extra: dict) -> dict:
        """The committed group: each ship's cargo is its armies, then the Noble, then the
        nuke (a nuke only while the ship still has a free slot)."""
        out = [(ship, list(cargo)) for ship, cargo in legs]
        nobles = 0
        if extra["noble"] is not None:
            ship, noble = extra["noble"]
            next(c for s_, c in out if s_ == ship).append(noble)
            nobles = 1
        if extra["nuke"] is not None:
            ship, nuke = extra["nuke"]
            next(c for s_, c in out if s_ == ship).append(nuke)
        rule = "NH-AI-9" if extra["noble"] or extra["nuke"] else "NH-AI-8"
        return {"legs": out, "nobles": nobles, "rule": rule}

    # ================================================================= NH-AI-10 exchange
    def cargo_count(self, ship: str) -> int:
        """Armies plus Nobles aboard (a Self Transport unit is its own one army)."""
        if self.is_self_transport(ship):
            return 1
        return sum(1 for u, row in self.units.items() if row["ship"] == ship
                   and self.data.units[row["type"]].category in ("army", "noble"))

    def on_launch(self) -> tuple[dict, str]:
        """NH-AI-10: every nuke is launched where an enemy has armies or ships. The house's
        first nuke in the hex (id order) goes at the enemy ship with the most cargo if it
        holds ship_min_cargo or more (never on easy); the others at the armies of the
        strongest enemy house there. With no enemy army in the hex (a decision), the fullest
        ship is the target, or the nuke is held if ships may not be aimed at."""
        nuke = self.pending["nuke"]
        h = tuple(self.pending["hex"])
        targets = [a["target"] for a in self.legal if a["verb"] == "launch"]
        ship_targets = [t for t in targets if t.startswith("ship:")]
        army_targets = [t for t in targets if t.startswith("armies:")]
        mine = sorted(self.at(h, self.me, "nuke"), key=unit_sort_key)
        first = bool(mine) and mine[0] == nuke
        allow_ships = self.preset["nuke_jumpships"]

        def fullest():
            return self.best(ship_targets, lambda t: self.cargo_count(t.partition(":")[2]))

        if first and allow_ships and ship_targets:
            pick = fullest()
            if self.cargo_count(pick.partition(":")[2]) >= self.p["nuclear"]["ship_min_cargo"]:
                return {"verb": "launch", "nuke": nuke, "target": pick}, "NH-AI-10"
        if army_targets:
            world = self.hex_world.get(h)

            def s_of(t):
                house = t.partition(":")[2]
                role = "defending" if world and self.controller(world) == house else "attacking"
                return self.strength(self.at(h, house, "army"), len(self.at(h, house, "noble")),
                                     len(self.at(h, house, "nuke")), role, world)
            return {"verb": "launch", "nuke": nuke, "target": self.best(army_targets, s_of)}, \
                "NH-AI-10"
        if allow_ships and ship_targets:
            return {"verb": "launch", "nuke": nuke, "target": fullest()}, "NH-AI-10"
        return {"verb": "hold", "nuke": nuke}, "NH-AI-14"

    # ================================================================= NH-AI-11 battle
    def battle_role(self, h: Hex) -> str:
        battle = self.view.get("battle") or {}
        if battle.get("defender") == self.me:
            return "defending"
        if battle.get("attacker") == self.me:
            return "attacking"
        world = self.hex_world.get(h)
        return "defending" if world and self.controller(world) == self.me else "attacking"

    def battle_enemy(self, h: Hex) -> str | None:
        battle = self.view.get("battle") or {}
        for key in ("attacker", "defender"):
            if battle.get(key) and battle[key] != self.me:
                return battle[key]
        return None

    def on_command(self) -> tuple[dict, str]:
        """NH-AI-11: each Noble (id order) commands the army with the highest AD in this
        role that lacks First Strike, else any army with the highest AD."""
        h = tuple(self.pending["hex"])
        role = self.battle_role(h)
        world = self.hex_world.get(h)
        battle = self.view.get("battle") or {}
        enemy = self.battle_enemy(h)
        imperial = bool(battle.get("imperial", {}).get(enemy)) if enemy else False
        pairs = [a for a in self.legal if a["verb"] == "command"]
        if not pairs:
            return {"verb": "done"}, "NH-AI-11"
        noble = min((a["noble"] for a in pairs), key=unit_sort_key)
        options = [a for a in pairs if a["noble"] == noble]

        def ad(uid):
            t = self.utype(uid)
            n = t.ad
            for a in t.abilities:
                if a["kind"] != "bonus":
                    continue
                when = a.get("when")
                if when == "versus_imperial":
                    n += a["ad"] if imperial else 0
                elif (when in (None, role)
                      and (not a.get("world") or (role == "defending" and a["world"] == world))):
                    n += a["ad"]
            return n

        def first_strike(uid):
            return any(a["kind"] == "first_strike" and a.get("when") in (None, role)
                       and (not a.get("world") or (role == "defending" and a["world"] == world))
                       for a in self.utype(uid).abilities)

        lacking = [a for a in options if not first_strike(a["army"])]
        return self.best(lacking or options, lambda a: ad(a["army"])), "NH-AI-11"

    def on_casualty(self) -> tuple[dict, str]:
        """NH-AI-11: lowest EV (in this battle's role), then lowest cost; armies a Noble
        commands go last."""
        h = tuple(self.pending["hex"])
        role = self.battle_role(h)
        world = self.hex_world.get(h)
        battle = self.view.get("battle") or {}
        commanded = set((battle.get("commands") or {}).values()) if not self.view.get(
            "exchange") else set()
        options = [a for a in self.legal if a["verb"] == "lose"]
        return self.best(options, lambda a: (
            a["unit"] not in commanded, -self.uev(a["unit"], role, world),
            -(self.utype(a["unit"]).cost or 0))), "NH-AI-11"

    def on_sacrifice(self) -> tuple[dict, str]:
        """NH-AI-11: sacrifice a unit if its N is at least the enemy armies still left to
        hit, or if the cheapest enemy army costs more than it. Hits already declared this
        round (its own Sacrifice units the prompt no longer offers) count as spent."""
        h = tuple(self.pending["hex"])
        enemy = self.battle_enemy(h)
        offered = [a["unit"] for a in self.legal if a["verb"] == "sacrifice"]
        if enemy is None or not offered:
            return {"verb": "done"}, "NH-AI-11"
        declared = [u for u in self.at(h, self.me, "army")
                    if self.utype(u).has("sacrifice") and u not in offered]
        spent = sum(self.utype(u).ability("sacrifice")["hits"] for u in declared)
        foes = self.at(h, enemy, "army")
        left = len(foes) - spent
        if left <= 0:
            return {"verb": "done"}, "NH-AI-11"
        cheapest = min(self.utype(u).cost or 0 for u in foes)

        def hits(uid):
            return self.utype(uid).ability("sacrifice")["hits"]

        good = [u for u in offered
                if hits(u) >= left or cheapest > (self.utype(u).cost or 0)]
        if not good:
            return {"verb": "done"}, "NH-AI-11"
        pick = self.best(good, lambda u: (hits(u), -(self.utype(u).cost or 0)))
        return {"verb": "sacrifice", "unit": pick}, "NH-AI-11"

    # ================================================================= NH-AI-12 actions
    def leading_house(self) -> str | None:
        """NH-AI-13: the opponent with the most worlds; then higher income; then the lower
        seat."""
        rivals = self.enemies()
        if not rivals:
            return None
        return max(rivals, key=lambda e: (len(self.ctx.worlds_of(e)), self.ctx.income(e),
                                          -self.view["houses"][e]["seat"]))

    def on_noble_action(self) -> tuple[dict, str]:
        """NH-AI-12: the allies' and Pyreen's typed uses first, each on its own kind when it
        has a target; then each Noble (and each any-kind ally use) takes the first item of
        the list that applies; ``done`` when nobody has one."""
        offered = self.legal
        kinds_of: dict[str, set[str]] = {}
        for a in offered:
            if a["verb"] == "act":
                kinds_of.setdefault(a["actor"], set()).add(a["kind"])
        typed, general = [], []
        for actor, kinds in rules.actors(self.ctx, self.me):
            if actor not in kinds_of:
                continue
            (typed if len(kinds) == 1 else general).append((actor, kinds))
        typed.sort(key=lambda pair: pair[0].startswith("pyreen"))
        nobles = [pair for pair in general if not pair[0].startswith(("ally:", "pyreen"))]
        allies = [pair for pair in general if pair[0].startswith(("ally:", "pyreen"))]
        for actor, kinds in typed:
            target = self.action_target(actor, kinds[0])
            if target is not None:
                return {"verb": "act", "actor": actor, "kind": kinds[0], "target": target}, \
                    "NH-AI-12"
        for actor, kinds in nobles + allies:
            for kind in LIST_ORDER:
                if kind not in kinds:
                    continue
                target = self.action_target(actor, kind)
                if target is not None:
                    return {"verb": "act", "actor": actor, "kind": kind, "target": target}, \
                        "NH-AI-12"
        return {"verb": "done"}, "NH-AI-12"

    def action_target(self, actor: str, kind: str) -> str | None:
        """The target of item ``kind`` of NH-AI-12's list for ``actor``, or None if the
        item does not apply (or the preset skips it, NH-AI-14)."""
        if kind in self.preset["skip_actions"]:
            return None
        offered = [a["target"] for a in self.legal if a["verb"] == "act"
                   and a["actor"] == actor and a["kind"] == kind]
        if not offered:
            return None
        return getattr(self, f"pick_{kind}")(offered)

    def pick_govern(self, offered: list) -> str | None:
        """1. Govern the own world the Noble stands on, if it has no bonus yet."""
        return offered[0]

    def pick_diplomacy(self, offered: list) -> str | None:
        """2. The eligible world with the highest income; then neutral before enemy-held;
        then the nearest to the homeworld."""
        home = tuple(self.view["map"]["worlds"][self.house["homeworld"]])
        worlds = [w for w in offered if w in self.view["map"]["worlds"]]
        return self.best(worlds, lambda w: (
            self.income(w), self.controller(w) is None,
            -distance(home, tuple(self.view["map"]["worlds"][w]))))

    def ally_worth(self, ally: str) -> float:
        """income x intrigue_income_weight + the cost of its surviving units (the units it
        would bring, for an unassigned ally)."""
        a = self.data.allies[ally]
        worth = self.p["noble_actions"]["intrigue_income_weight"] * a.benefits.get("income", 0)
        if ally in self.view["unassigned"]:
            return worth + sum((self.data.units[t].cost or 0) * n for t, n in a.units.items())
        return worth + sum(self.data.units[u["type"]].cost or 0
                           for u in self.units.values() if u["ally"] == ally
                           and ally in self.view["houses"][u["owner"]]["allies"])

    def pick_intrigue(self, offered: list) -> str | None:
        """3. Intrigue, if none was tried this turn, on the ally of highest worth if that is
        intrigue_min_worth or more."""
        if self.house["attempts"]["intrigue"] > 0:
            return None
        pick = self.best(offered, self.ally_worth)
        return pick if self.ally_worth(pick) >= self.p["noble_actions"]["intrigue_min_worth"] \
            else None

    def pick_assassination(self, offered: list) -> str | None:
        """4. While fewer than assassination_attempts were made this turn: a Noble of the
        leading house (NH-AI-13), unmoved Nobles first."""
        if self.house["attempts"]["assassination"] >= \
                self.p["noble_actions"]["assassination_attempts"]:
            return None
        leader = self.leading_house()
        nobles = [n for n in offered if n in self.units and self.owner(n) == leader]
        return self.best(nobles, lambda n: not self.units[n]["moved"])

    def pick_sabotage(self, offered: list) -> str | None:
        """5. The enemy jumpship with the most cargo within sabotage_range of an own world;
        failing that, the costliest enemy army that near; failing that, the costliest enemy
        army anywhere."""
        span = self.p["noble_actions"]["sabotage_range"]
        own = [tuple(self.view["map"]["worlds"][w]) for w in self.my_worlds()]

        def near(uid):
            return any(distance(self.hex_of(uid), h) <= span for h in own)

        ships = [u for u in offered if u in self.units and near(u)
                 and self.utype(u).category == "jumpship" and self.cargo_count(u) > 0]
        if ships:
            return self.best(ships, self.cargo_count)
        armies = [u for u in offered if u in self.units and self.utype(u).category == "army"]
        close = [u for u in armies if near(u)]
        if close or armies:
            return self.best(close or armies, lambda u: self.utype(u).cost or 0)
        return None

    def pick_strategic_planning(self, offered: list) -> str | None:
        """6. Strategic Planning, +1 (NH-AI-4), if not used this turn."""
        if self.house["planning"] != 0:
            return None
        shift = "+1" if self.p["upkeep"]["planning_shift"] > 0 else "-1"
        return shift if shift in offered else None


def _round(key: Any) -> Any:
    """Keys compared for ties: floats rounded so that equal ratios compare equal."""
    if isinstance(key, float):
        return round(key, 9)
    if isinstance(key, tuple):
        return tuple(_round(k) for k in key)
    return key


__all__ = ["Player", "choose", "decide", "mover"]
