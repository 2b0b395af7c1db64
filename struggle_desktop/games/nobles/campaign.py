"""The *hard* program house's campaign: what it does beyond section 20 of rules-nobles.md.

Section 20's house (``ai.Player``) only plans strikes a ship can fly this turn, and keeps every
army on a threatened world at home; on the standard map its armies pile up on worlds no target
is in range of, and games end at the turn limit with no house fighting (docs/balance.md). The
*hard* preset of NH-AI-14 (``campaign: true`` in ``assets/tables/nobles/ai.yaml``) plays section
20 with three changes, all decided for issue 19 (the rules leave the AI's strength open):

- **Lean garrisons.** The homeworld keeps NH-AI-6's garrison (D >= T, at least one army). Any
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

Every number is a parameter of the table's ``campaign`` section. The house still reads only its
own view and breaks ties with its own stream (NH-AI-1, NH-AI-2), so its choices follow from the
seed.
"""

from __future__ import annotations

import math
from collections import deque

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

    # ----------------------------------------------------------------- the front
    def jumps_to_targets(self) -> dict[Hex, int]:
        """Every system hex -> the fewest jumps from it to a world the house does not
        control (breadth-first over the jump graph, which is symmetric)."""
        if not hasattr(self, "_front"):
            others = [tuple(h) for w, h in self.view["map"]["worlds"].items()
                      if self.controller(w) != self.me]
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
            closer = [d for d in self.dests(h) if d in own
                      and front.get(d, far) < front.get(h, far)]
            if not closer:
                continue
            to = self.best(closer, lambda d: (-front.get(d, far), massed.get(d, 0), d))
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
        """Free ships where no army waits fly to the own world whose waiting armies lack the
        most ships; one jump away if there is such a world, else one jump nearer to it."""
        load = self.p["strikes"]["armies_per_ship"]
        # Ships already standing with the armies wait with them (no own world is nearer).
        short = {h: math.ceil(len(group) / load) - len(ships.get(h, ()))
                 for h, group in armies.items() if group}
        legs: list[tuple[str, list[str], Hex, str]] = []
        for src in sorted(ships, key=lambda x: (x[1], x[0])):
            if armies.get(src):
                continue
            for ship in ships[src]:
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
