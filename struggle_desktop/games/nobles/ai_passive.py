"""The ``passive`` program house (issue 28): a house that only defends.

A seat given ``level<N>=passive`` recruits and garrisons as section 20's house does (NH-AI-5,
NH-AI-6: buying stages, the reserve, defence where T > D) but never attacks: it buys no
jumpship, never moves a unit, takes Diplomacy only on neutral worlds, and never aims Intrigue,
Assassination or Sabotage at another house. In a battle it is drawn into (an enemy landing on
its world) it answers as section 20 does (NH-AI-10, NH-AI-11): defending is not attacking.

It stands for the person who sits at home; ``docs/balance.md`` measures that the program houses
put such a house out of the game (NH-VIC-1, NH-VIC-4). It is no difficulty of NH-AI-14 and is
offered seat by seat only.
"""

from __future__ import annotations

from struggle_desktop.games.nobles.ai import Player

#: The Noble actions a passive house never takes: each works against another house.
HOSTILE_ACTIONS = ("intrigue", "assassination", "sabotage")


class PassivePlayer(Player):
    """Section 20's house with every attacking choice taken away (module docstring)."""

    def buy_transport(self, buys: list[dict]) -> dict | None:
        """No jumpship: it never moves."""
        return None

    def movement_plan(self) -> list:
        """No strike and no move: every unit stays where it is."""
        return []

    def action_target(self, actor: str, kind: str) -> str | None:
        """NH-AI-12's list without the actions against other houses; Diplomacy only on a
        world nobody holds."""
        if kind in HOSTILE_ACTIONS:
            return None
        target = super().action_target(actor, kind)
        if (kind == "diplomacy" and target is not None
                and target in self.view["worlds"] and self.controller(target) is not None):
            offered = [a["target"] for a in self.legal if a["verb"] == "act"
                       and a["actor"] == actor and a["kind"] == kind
                       and a["target"] in self.view["worlds"]
                       and self.controller(a["target"]) is None]
            return self.pick_diplomacy(offered) if offered else None
        return target

    def on_launch(self) -> tuple[dict, str]:
        """Nukes only where an enemy stands on one of its own worlds (its defence); else
        held."""
        world = self.hex_world.get(tuple(self.pending["hex"]))
        if world is None or self.controller(world) != self.me:
            return {"verb": "hold", "nuke": self.pending["nuke"]}, "NH-AI-10"
        return super().on_launch()


__all__ = ["HOSTILE_ACTIONS", "PassivePlayer"]
