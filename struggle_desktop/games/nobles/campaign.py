"""The *hard* program house's campaign: what it does beyond section 20 of rules-nobles.md.

Section 20's house (``ai.Player``) only plans strikes a ship can fly this turn, and keeps every
army on a threatened world at home; on the standard map its armies pile up on worlds no target
is in range of, and games end at the turn limit with no house fighting (docs/balance.md). The
*hard* preset of NH-AI-14 (``campaign: true`` in ``assets/tables/nobles/ai.yaml``) plays section
20 with three changes, all decided for issue 19 (the rules leave the AI's strength open):

- **Lean garrisons.** The homeworld keeps NH-AI-6's garrison (at least one army), but against
  ``home_guard_share`` of T only (issue 28: every enemy keeps its own garrisons too). Any
  other world keeps ``world_min_armies`` (one army blocks an enemy's Diplomacy there, NH-NOB-11)
  and then only as many more as bring its D up to ``world_guard_share`` of T; the rest are free
  to strike.
- **Staging.** Free armies that no strike takes move towards the front: a ship loads up to
  its strike load where they stand and jumps to the own world nearest (in jumps) to a world the
  house does not hold, preferring the one where most of its armies already stand, so that the
  next turn's strikes start close and in strength. Only armies move forward; a world never
  sends its last army away.
- **Ships go where armies wait.** A free ship with nothing to carry where it stands jumps to
  the own world where the most free armies are left without a ship (the nearest in jumps such
  world, when none is one jump away).

Issue 28 added the war aims, so that the house plays for NH-VIC-1 and NH-VIC-4:

- **An objective.** The weakest living enemy (fewest worlds, then armies, income, seat). Its
  worlds are worth more as targets, its homeworld more again; while the house leads in
  worlds, neutral worlds are worth more too. Staging heads for the objective's weakest world
  its armies can get to, through any hex one jump nearer when no own world is.
- **The assault.** A strike on a world where enemy armies stand goes only when the expected
  battle (``expected_battle``: the dice of NH-BAT-7 round by round, after the nuclear
  exchange) leaves none of them and at least ``assault_survivors`` of the strike: a battle is
  fought to its end (NH-BAT-13), so a strike too small to win dies for a few kills that a
  homeworld replaces. Until then the armies gather beside the target (the staging), and the
  ships that the armies standing with them do not need fly to armies that have none, so
  that the strike goes in one turn. With ``focus_objective`` no strike goes at another
  house's armies while the objective stands, but at a homeworld or at a stack of at most
  ``focus_side_defence``.
- **Shipyards.** A house holding no world that sells jumpships values such worlds
  ``shipless_yard_bonus`` more as targets, and its Diplomacy takes one first.
- **Transport.** A jumpship at every shipyard it holds while its armies lack ships, and on
  worlds other than the homeworld only armies a ship can carry (section 20's stage 5 buys
  mostly Defenders, which never leave).

Every number is a parameter of the table's ``campaign`` section. The house still reads only its
own view and breaks ties with its own stream (NH-AI-1, NH-AI-2), so its choices follow from the
seed.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Iterable

from struggle_desktop.games.nobles.ai import Hex, Player


class CampaignPlayer(Player):
    """Section 20's program house with the hard preset's campaign (see the module docstring)."""

    @property
    def campaign(self) -> dict:
        return self.p["campaign"]

    # ----------------------------------------------------------------- garrisons
    def garrisons(self) -> set[str]:
        """The homeworld as NH-AI-6; every other world its lean garrison: the armies that
        defend best there, world_min_armies of them, more only up to world_guard_share of T."""
        kept: set[str] = set()
        home = self.house["homeworld"]
        share = self.campaign["world_guard_share"]
        least = self.campaign["world_min_armies"]
        home_kept = super().garrisons()
        for world in self.my_worlds():
            h = tuple(self.view["map"]["worlds"][world])
            armies = [u for u in self.at(h, self.me, "army") if not self.units[u]["moved"]]
            if world == home:
                kept.update(u for u in armies if u in home_kept)
                continue
            order = sorted(armies, key=lambda u: (
                not self.utype(u).has("defenders"), -self.uev(u, "defending", world),
                self.utype(u).cost or 0, u))
            guard = share * self.threat(h)
            chosen: list[str] = []
            for uid in order:
                if len(chosen) >= least and self.defence(h, chosen) >= guard:
                    break
                chosen.append(uid)
            kept.update(chosen)
        return kept

    def home_guard(self, threat: float) -> float:
        """The homeworld keeps ``home_guard_share`` of T (NH-AI-6 keeps all of it): a house
        that keeps its every army at home never gathers the strike a homeworld's fall needs,
        and every enemy must keep its own garrisons too."""
        return self.campaign["home_guard_share"] * threat

    # ----------------------------------------------------------------- the war aim
    def objective(self) -> str | None:
        """The house this one means to put out of the game (NH-VIC-3, NH-VIC-4): the weakest
        living enemy (fewest worlds, then fewest armies, then lowest income, then the lower
        seat). Everything here is public (NH-SIM-1): worlds, income and units on the map."""
        if not hasattr(self, "_objective"):
            rivals = self.enemies()
            armies = {e: 0 for e in rivals}
            for u in self.units.values():
                if u["owner"] in armies and self.data.units[u["type"]].category == "army":
                    armies[u["owner"]] += 1
            self._objective = min(rivals, key=lambda e: (
                len(self.ctx.worlds_of(e)), armies[e], self.ctx.income(e),
                self.view["houses"][e]["seat"]), default=None)
        return self._objective

    def leading(self) -> bool:
        """Whether the house holds more worlds than any enemy (it then goes for the last
        worlds, NH-VIC-1)."""
        mine = len(self.my_worlds())
        return all(mine > len(self.ctx.worlds_of(e)) for e in self.enemies())

    def target_value(self, world: str) -> float:
        """NH-AI-7's V, plus the campaign's war aims: the worlds of the objective house
        (``objective_bonus``; its homeworld ``objective_homeworld_bonus`` more), and, when
        the house leads, the worlds nobody holds (``lead_neutral_bonus``)."""
        value = super().target_value(world)
        c = self.campaign
        holder = self.controller(world)
        if holder is not None and holder == self.objective():
            value += c["objective_bonus"]
            if self.view["houses"][holder]["homeworld"] == world:
                value += c["objective_homeworld_bonus"]
        elif holder is None and self.leading():
            value += c["lead_neutral_bonus"]
        if self.shipless() and any(self.data.units[u].category == "jumpship"
                                   for u in self.data.worlds[world].recruits):
            value += c["shipless_yard_bonus"]
        return value

    def shipless(self) -> bool:
        """Whether the house holds no world that sells jumpships (NH-UNIT-2): its armies are
        stuck once its ships are lost, so such worlds are worth more to it."""
        return not any(self.data.units[u].category == "jumpship"
                       for w in self.my_worlds() for u in self.data.worlds[w].recruits)

    def pick_diplomacy(self, offered: list) -> str | None:
        """NH-AI-12's Diplomacy, but a house with no shipyard takes a world selling
        jumpships first when one is offered."""
        if self.shipless():
            yards = [w for w in offered if w in self.data.worlds and any(
                self.data.units[u].category == "jumpship" for u in self.data.worlds[w].recruits)]
            if yards:
                return super().pick_diplomacy(yards)
        return super().pick_diplomacy(offered)

    # ----------------------------------------------------------------- transport
    def jumpship_bought_this_turn(self) -> bool:
        """The campaign buys a jumpship at every shipyard it holds while its armies lack
        ships (section 20 buys one a turn): armies that no ship can carry take no world."""
        return False

    def buy_other_worlds(self, buys: list[dict]) -> dict | None:
        """Section 20's stage 5 buys the best value on each world in either role, which is
        mostly Defenders that can never leave (NH-MOV-8); the campaign buys there only armies
        a ship can carry, by EV(attacking) per cost (a world short of defence was served by
        stage 2 already)."""
        home = self.house["homeworld"]
        floor = self.p["recruiting"]["other_world_min_ev_per_cost"]
        worlds = sorted({a["world"] for a in buys if a["world"] != home},
                        key=self.data.world_names.index)

        def value(action):
            return (self.ev(action["unit"], "attacking")
                    / self.data.unit_cost(action["unit"], action["world"]))

        for world in self.ranked(worlds, self.income):
            options = [a for a in buys if a["world"] == world
                       and self.data.units[a["unit"]].category == "army"
                       and not self.data.units[a["unit"]].has("defenders")
                       and value(a) >= floor]
            if options:
                return self.best(options, value)
        return None

    def targets(self, ships: list[str], rng) -> list[dict]:
        """NH-AI-7's targets; with ``focus_objective``, while the objective house stands, no
        strike on a world where another house's armies stand with more than
        ``focus_side_defence`` of defence, unless it is a homeworld (the war aim first: such
        battles wear down the strike the objective's fall needs). A strike on armies must
        win the expected battle (``strike_meets``)."""
        found = super().targets(ships, rng)
        aim = self.objective()
        if self.campaign["focus_objective"] and aim is not None:
            side = self.campaign["focus_side_defence"]
            homes = {row["homeworld"] for row in self.view["houses"].values()}
            found = [t for t in found if not t["enemy_armies"] or t["world"] in homes
                     or {self.owner(u) for u in self.enemy_armies(t["hex"])} == {aim}
                     or self.enemy_defence(t["hex"]) <= side]
        return found

    # ----------------------------------------------------------------- the assault
    def profile(self, unit_type: str, role: str, world: str | None) -> tuple[float, bool]:
        """(mean AD, First Strike) of a unit type in a role: base AD, the role's bonuses, home
        defence (NH-BAT-10), and the psychic table's mean for a Psychic unit (NH-PSY-3)."""
        t = self.data.units[unit_type]
        ad, first = float(t.ad), False
        for a in t.abilities:
            if a["kind"] not in ("bonus", "first_strike"):
                continue
            when = a.get("when")
            if when is not None and when != role:
                continue
            if a.get("world") and (role != "defending" or a["world"] != world):
                continue
            if a["kind"] == "bonus":
                ad += a["ad"]
            else:
                first = True
        if t.has("psychic"):
            ad += self.p["evaluation"]["psychic_bonus"]
        return ad, first

    def battle_side(self, armies: Iterable[str], nobles: int, role: str,
                    world: str | None) -> list[list]:
        """``expected_battle``'s rows for armies in a role: each Noble commands the best army
        that lacks First Strike (+1 AD, First Strike and its psychic mean, NH-NOB-2,
        NH-PSY-5), as NH-AI-11 assigns them."""
        rows = sorted((self.profile(self.units[u]["type"], role, world) for u in armies),
                      key=lambda r: (r[1], -r[0]))
        bonus = 1 + self.p["evaluation"]["psychic_bonus"]
        out = []
        for n, (ad, first) in enumerate(rows):
            if n < nobles:
                ad, first = ad + bonus, True
            out.append([ad, first, 1.0])
        out.sort(key=lambda r: -(r[0] + (0.5 if r[1] else 0)))
        return out

    def strike_meets(self, target: dict, armies: list[str], nobles: int, nukes: int) -> bool:
        """The campaign's need for a world holding enemy armies (issue 28): the expected
        battle (``expected_battle``) against every enemy army there (NH-BAT-4, summed),
        after the nuclear exchange (NH-NUK-4: each nuke hits an army 5 times in 6; the
        defenders' first nuke is aimed at the fullest ship, three armies, NH-AI-10), leaves
        no defender and at least ``assault_survivors`` of the strike's armies standing (and
        one army)."""
        c = self.campaign
        h, world = target["hex"], target["world"]
        foes = self.enemy_armies(h)
        foe_houses = {self.owner(u) for u in foes}
        foe_nobles = sum(len(self.at(h, e, "noble")) for e in foe_houses)
        foe_nukes = sum(len(self.at(h, e, "nuke")) for e in foe_houses)
        attack = self.battle_side(armies, nobles, "attacking", world)
        defend = self.battle_side(foes, foe_nobles, "defending", world)
        kill = 5 / 6
        ship = (1 - (5 / 6) ** 5) * self.p["strikes"]["armies_per_ship"]
        _lose(defend, nukes * kill)
        _lose(attack, (ship + (foe_nukes - 1) * kill) if foe_nukes else 0.0)
        left, foes_left = expected_battle(attack, defend)
        return foes_left < 0.5 and left >= max(1.0, c["assault_survivors"] * len(armies))

    # ----------------------------------------------------------------- the front
    def jumps_to_targets(self) -> dict[Hex, int]:
        """Every system hex -> the fewest jumps from it to the front: the worlds of the
        objective house when it has any (the armies mass beside them, a siege over several
        turns), else every world the house does not control (breadth-first over the jump
        graph, which is symmetric)."""
        if not hasattr(self, "_front"):
            aim = self.objective()
            worlds = self.view["map"]["worlds"]
            # The siege: one world of the objective at a time, the weakest its armies can
            # get to, then the nearest (a decision: armies spread over every world of the
            # objective never beat any of them).
            armies = [self.hex_of(u) for u in self.mine("army")]
            near = jumps(self.dests, sorted(set(armies))) if armies else {}
            held = [w for w in worlds if aim is not None and self.controller(w) == aim
                    and tuple(worlds[w]) in near]
            weakest = min(held, key=lambda w: (self.enemy_defence(tuple(worlds[w])),
                                               near[tuple(worlds[w])], w), default=None)
            others = [tuple(worlds[weakest])] if weakest is not None else []
            if not others:
                others = [tuple(h) for w, h in worlds.items() if self.controller(w) != self.me]
            self._front = jumps(self.dests, others)
        return self._front

    def movement_plan(self) -> list[tuple[str, list[str], Hex, str]]:
        """Section 20's strikes with the lean garrisons, then the staging moves and the
        empty ships' moves (the module docstring)."""
        legs = super().movement_plan()
        used = set(self.garrisons())
        for ship, cargo, _, _ in legs:
            used.add(ship)
            used.update(cargo)
        legs.extend(self.staging_legs(used))
        return legs

    def waiting(self, used: set[str]) -> tuple[dict[Hex, list[str]], dict[Hex, list[str]]]:
        """Free mobile armies and free jumpships by hex: none moved, none given a job."""
        armies: dict[Hex, list[str]] = {}
        ships: dict[Hex, list[str]] = {}
        for uid in self.mine():
            # Cargo of a ship that has not jumped counts as on the ground (as in section
            # 20's plan), so that the plan comes out the same at each of its prompts.
            if uid in used or self.units[uid]["moved"]:
                continue
            if self.is_mobile_army(uid):
                armies.setdefault(self.hex_of(uid), []).append(uid)
            elif self.utype(uid).category == "jumpship":
                ships.setdefault(self.hex_of(uid), []).append(uid)
        for group in armies.values():
            group.sort(key=lambda u: (-self.uev(u, "attacking"), u))
        return armies, ships

    def staging_legs(self, used: set[str]) -> list[tuple[str, list[str], Hex, str]]:
        """Loaded ships towards the front, then empty ships to the armies left waiting."""
        front = self.jumps_to_targets()
        far = len(front) + 1
        own = {tuple(self.view["map"]["worlds"][w]) for w in self.my_worlds()}
        armies, ships = self.waiting(used)
        massed = {h: len(self.at(h, self.me, "army")) for h in own}
        legs: list[tuple[str, list[str], Hex, str]] = []
        load = self.p["strikes"]["armies_per_ship"]
        for h in sorted(armies, key=lambda x: (-front.get(x, far), x[1], x[0])):
            # Own worlds first; else any hex one jump nearer that holds no enemy army (a
            # jump station on the way, or a world landed on and so taken, NH-CTRL-1): a
            # stack with no own world nearer the front would otherwise wait for ever.
            closer = [d for d in self.dests(h) if front.get(d, far) < front.get(h, far)
                      and not self.enemy_armies(d)]
            if not closer:
                continue
            to = self.best(closer, lambda d: (-front.get(d, far), d in own,
                                              massed.get(d, 0), d))
            group, spare = armies[h], ships.get(h, [])
            while group and spare:
                ship = spare.pop(0)
                room = min(load, self.ctx.slots(ship))
                cargo, group[:] = group[:room], group[room:]
                legs.append((ship, cargo, to, "NH-AI-14"))
                massed[to] = massed.get(to, 0) + len(cargo)
        legs.extend(self.empty_ship_legs(armies, ships, front, own))
        return legs

    def empty_ship_legs(self, armies: dict[Hex, list[str]], ships: dict[Hex, list[str]],
                        front: dict[Hex, int], own: set[Hex]
                        ) -> list[tuple[str, list[str], Hex, str]]:
        """Free ships that the armies waiting where they stand do not need fly to the own
        world whose waiting armies lack the most ships; one jump away if there is such a
        world, else one jump nearer to it."""
        load = self.p["strikes"]["armies_per_ship"]
        # Ships already standing with the armies wait with them (no own world is nearer).
        short = {h: math.ceil(len(group) / load) - len(ships.get(h, ()))
                 for h, group in armies.items() if group}
        legs: list[tuple[str, list[str], Hex, str]] = []
        for src in sorted(ships, key=lambda x: (x[1], x[0])):
            # The ships the armies waiting here need stay with them (at the front they are
            # the assault's, NH-MOV-2); the others are free.
            keep = math.ceil(len(armies.get(src, ())) / load)
            for ship in ships[src][keep:]:
                wanted = [h for h, n in short.items() if n > 0 and h in own]
                if not wanted:
                    return legs
                reach = self.dests(src)
                near = [h for h in wanted if h in reach]
                if near:
                    to = self.best(near, lambda h: (short[h], -reach[h], h))
                    short[to] -= 1
                else:
                    goal = self.best(wanted, lambda h: (short[h], h))
                    steps = jumps(self.dests, [goal])
                    on_way = [d for d in reach if d in own
                              and steps.get(d, math.inf) < steps.get(src, math.inf)]
                    if not on_way:
                        continue
                    to = self.best(on_way, lambda d: (-steps[d], d))
                legs.append((ship, [], to, "NH-AI-14"))
        return legs


def jumps(dests, starts: list[Hex]) -> dict[Hex, int]:
    """Every system hex -> the fewest jumps between it and the nearest of ``starts``
    (breadth-first over the jump graph ``dests``, which is symmetric)."""
    found = {h: 0 for h in starts}
    queue = deque(starts)
    while queue:
        here = queue.popleft()
        for there in dests(here):
            if there not in found:
                found[there] = found[here] + 1
                queue.append(there)
    return found


# ------------------------------------------------------------------------------ the assault
def expected_battle(attackers: list[list], defenders: list[list], max_rounds: int = 60
                    ) -> tuple[float, float]:
    """The expected course of one battle (NH-BAT-7, NH-BAT-8, NH-BAT-11), in fractions of
    units. Each side is a list of ``[mean AD, First Strike, count]``, strongest first; each
    round the First Strike volley, then the others', every die a 1 in 6 to hit, each side
    losing its weakest first (NH-AI-11). Returns (attackers left, defenders left)."""
    a = [list(row) for row in attackers]
    d = [list(row) for row in defenders]

    def total(side):
        return sum(row[2] for row in side)

    def dice(side, first):
        return sum(row[0] * row[2] for row in side if row[1] == first)


    for _ in range(max_rounds):
        if total(a) < 0.5 or total(d) < 0.5:
            break
        for first in (True, False):
            on_d, on_a = dice(a, first) / 6, dice(d, first) / 6
            _lose(d, on_d)
            _lose(a, on_a)
    return total(a), total(d)


def _lose(side: list[list], hits: float) -> None:
    """Take ``hits`` units off an ``expected_battle`` side, weakest first (NH-AI-11)."""
    for row in reversed(side):
        if hits <= 0:
            break
        gone = min(row[2], hits)
        row[2] -= gone
        hits -= gone
