"""The program player of Battles: the baseline of BFG-AI-1..8, and a stronger level.

Both read only the player's own view (BFG-HID-10): ``choose`` receives ``view(state, role)``,
never the state, and answers with one of the view's legal actions. The baseline is a priority
list (BFG-AI-3) with fixed rules for targets, disengagement, garrisons and builds; its numbers
come from ``assets/tables/battles/ai.yaml``.

The stronger level (policy ``strong``) plays like the baseline but, before it resolves a region
or chooses to stay or disengage, it plays the fight out several times on copies of what it can
see (the other player's hand is unknown to it, and a fight never needs it) with the baseline
deciding both sides, and picks the choice whose sampled results are best for it.
"""

from __future__ import annotations

from itertools import combinations

from struggle_desktop.engine.actions import action_in
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.battles.context import Ctx, chit_type
from struggle_desktop.games.battles.data import other
from struggle_desktop.games.battles.registry import PROCEDURES


def choose(game, view: dict, role: str, strong: bool = False, rng: Rng | None = None) -> dict:
    player = Player(game, view, role, strong=strong, rng=rng)
    action = player.decide()
    if not action_in(action, view["legal_actions"]):   # never send what is not listed
        raise RuntimeError(f"the program player chose an illegal action {action} "
                           f"at {view['pending']['kind']}")
    return action


class Player:
    """One decision of the program player, on one view."""

    def __init__(self, game, view: dict, role: str, strong: bool = False,
                 rng: Rng | None = None):
        self.game = game
        self.view = view
        self.side = role
        self.enemy = other(role)
        self.ctx = Ctx(view, PROCEDURES, game.data)
        self.params = game.data.ai
        self.legal = view["legal_actions"]
        self.pending = view["pending"]
        self.strong = strong
        self.rng = rng

    def decide(self) -> dict:
        kind = self.pending["kind"]
        return getattr(self, f"on_{kind}")()

    # ------------------------------------------------------------------ evaluation (AI-1)
    def need(self, region: int) -> int:
        return self.ctx.slot_value(region, "C") + self.params["need_margin"]

    def worth(self, region: int) -> float:
        ctx = self.ctx
        worth = ctx.slot_value(region, "P") + ctx.slot_value(region, "R")
        if ctx.fleets_where(self.side, ("display", "map"), ftype="WS"):
            worth += self.params["ws_worth_bonus"]
        return worth

    def strength(self, region: int, side: str) -> int:
        return sum(self.ctx.total(f) for f in self.ctx.in_region(region, side))

    def own(self, region: int) -> int:
        return self.strength(region, self.side)

    def enemy_strength(self, region: int) -> int:
        return self.strength(region, self.enemy)

    def cost(self, fid: str) -> int:
        ftype = self.ctx.fleet_type(fid)
        return ftype.cost if ftype.cost is not None else self.ctx.total(fid)

    def first(self, verb: str) -> dict | None:
        for action in self.legal:
            if action["verb"] == verb:
                return action
        return None

    # ------------------------------------------------------------------ chits
    def on_discard(self) -> dict:
        return {"verb": "done"}                           # BFG-AI-8: never discards

    def on_react(self) -> dict:
        """BFG-AI-8: repress an Illumination whenever possible, and a Move aimed at a region
        holding its fleets."""
        repress = self.first("repress")
        last = self.view.get("last_chit") or {}
        if repress is not None and last:
            kind = chit_type(last["chit"])
            if kind == "Illumination":
                return repress
            if kind == "Move" and self.ctx.in_region(last["action"]["to"], self.side):
                return repress
        return {"verb": "pass"}

    # ------------------------------------------------------------------ deployment (AI-2)
    def deployment_plan(self) -> dict[str, int]:
        ctx = self.ctx
        regions = sorted(range(1, 7), key=lambda n: (-self.worth(n), n))
        enemy_total = sum(ctx.total(f) for f in ctx.fleets_where(self.enemy, "display")
                          if ctx.fleet(f)["type"] != "TH")
        expected = {n: self.strength(n, self.enemy) + enemy_total * self.params["enemy_share"]
                    for n in regions}
        own = {n: self.own(n) for n in regions}
        fleets = [f for f in ctx.fleets_where(self.side, "display") if ctx.fleet(f)["type"] != "TH"]
        slow = sorted((f for f in fleets if not ctx.fleet_type(f).quick_move),
                      key=lambda f: -ctx.total(f))
        fast = sorted((f for f in fleets if ctx.fleet_type(f).quick_move),
                      key=lambda f: -ctx.total(f))
        plan: dict[str, int] = {}

        def short(n: int) -> bool:
            return own[n] < self.need(n) + expected[n]

        queue = list(slow)
        for n in regions:
            while queue and short(n):
                fid = queue.pop(0)
                plan[fid] = n
                own[n] += ctx.total(fid)
        for fid in fast:
            target = next((n for n in regions if short(n)), regions[0])
            plan[fid] = target
            own[target] += ctx.total(fid)
        for fid in queue:
            plan[fid] = regions[0]
        return plan

    def on_deploy(self) -> dict:
        plan = self.deployment_plan()
        made = {fid: region for fid, region in self.view["players"][self.side]["deploy"]}
        for fid in self.ctx.fleets_where(self.side, "display"):
            if fid in plan and made.get(fid) != plan[fid]:
                return {"verb": "assign", "fleet": fid, "region": plan[fid]}
        return {"verb": "done"}

    def on_defend(self) -> dict:
        """Invasion set-up (BFG-SCN-8): fill each region's budget, dearest fleets first."""
        for action in self.legal:
            if action["verb"] == "place":
                best = max((a for a in self.legal if a["verb"] == "place"
                            and a["region"] == action["region"]),
                           key=lambda a: self.game.data.fleet_types[a["type"]].cost)
                return best
        return {"verb": "done"}

    # ------------------------------------------------------------------ actions (AI-3)
    def on_action(self) -> dict:
        if self.pending.get("forced_resolve"):
            return self.resolve_choice()
        for rule in (self.illumination, self.move, self.tactical, self.held_back_th,
                     self.build_chit):
            action = rule()
            if action is not None:
                return action
        return self.resolve_choice()

    def chits(self, kind: str) -> list[dict]:
        return [a for a in self.legal if a["verb"] == "play" and chit_type(a["chit"]) == kind]

    def projected_ci(self) -> int:
        ctx = self.ctx
        return (ctx.ci + sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("blue"))
                - sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("red")))

    def threshold_reached(self, ci: float) -> bool:
        row = self.game.data.victory_rows.get(self.view["turn"])
        if row is None:
            row = self.game.data.victory_rows[max(self.game.data.victory_rows)]
        return ci >= row["blue_at_least"] if self.side == "blue" else ci <= row["red_at_most"]

    def illumination(self) -> dict | None:
        plays = self.chits("Illumination")
        if not plays:
            return None
        mean = self.params["illumination_mean"]
        shift = mean if self.side == "blue" else -mean
        if self.threshold_reached(self.projected_ci() + shift):
            return next(a for a in plays if a["effect"] == "ci")
        recruits = [a for a in plays if a["effect"] == "th"
                    and self.own(a["region"]) - self.enemy_strength(a["region"])
                    >= self.params["th_min_balance"]]
        if recruits:
            return min(recruits, key=lambda a: (self.own(a["region"])
                                                - self.enemy_strength(a["region"]), a["region"]))
        return None

    def movers_that_can_leave(self, region: int) -> list[str]:
        ctx = self.ctx
        fleets = [f for f in ctx.fleets_where(self.side, "map", region=region)
                  if ctx.fleet_type(f).quick_move]
        keep = self.need(region) + self.enemy_strength(region)
        own = self.own(region)
        leaving = []
        for fid in sorted(fleets, key=lambda f: -ctx.total(f)):
            if own - ctx.total(fid) >= keep:
                leaving.append(fid)
                own -= ctx.total(fid)
        return leaving

    def move(self) -> dict | None:
        plays = self.chits("Move")
        if not plays:
            return None
        short = [n for n in self.ctx.unresolved()
                 if self.own(n) < self.enemy_strength(n) + self.params["move_shortfall"]]
        for a in plays:
            if a["to"] in short and self.movers_that_can_leave(a["from"]):
                return a
        return None

    def tactical(self) -> dict | None:
        plays = self.chits("Tactical")
        if not plays:
            return None
        region = self.resolve_choice()["region"]
        if not self.enemy_strength(region):
            return None
        candidates = [a for a in plays if self.ctx.fleet(a["fleet"])["region"] == region]
        if not candidates:
            return None
        return max(candidates, key=lambda a: (self.ctx.total(a["fleet"]), a["fleet"]))

    def held_back_th(self) -> dict | None:
        contested = [a for a in self.legal if a["verb"] == "deploy_th"
                     and self.enemy_strength(a["region"]) > 0]
        if not contested:
            return None
        most = max(len(a["fleets"]) for a in contested)
        return min((a for a in contested if len(a["fleets"]) == most),
                   key=lambda a: (self.own(a["region"]) - self.enemy_strength(a["region"]),
                                  a["region"]))

    def build_chit(self) -> dict | None:
        plays = self.chits("Build")
        if plays and len(self.ctx.controlled_by(self.side)) >= self.params["build_chit_regions"]:
            return plays[0]
        return None

    def resolve_choice(self) -> dict:
        options = [a for a in self.legal if a["verb"] == "resolve"]
        if self.strong and len(options) > 1:
            return self.sampled_resolve(options)
        uncontested = [a for a in options if not self.enemy_strength(a["region"])
                       and self.own(a["region"]) > self.ctx.slot_value(a["region"], "C")]
        if uncontested:
            return max(uncontested, key=lambda a: (self.worth(a["region"]), -a["region"]))
        contested = [a for a in options if self.enemy_strength(a["region"])
                     and self.own(a["region"])]
        if contested:
            return max(contested, key=lambda a: (self.own(a["region"])
                                                 - self.enemy_strength(a["region"]), -a["region"]))
        return min(options, key=lambda a: (self.worth(a["region"]), a["region"]))

    def on_move_fleets(self) -> dict:
        leaving = self.movers_that_can_leave(self.pending["origin"])
        wanted = {"verb": "move", "fleets": sorted(leaving, key=lambda f: self.legal_order(f))}
        return wanted if action_in(wanted, self.legal) else self.legal[0]

    def legal_order(self, fid: str) -> int:
        order = self.ctx.fleets_where(self.side, "map", region=self.pending["origin"])
        return order.index(fid)

    # ------------------------------------------------------------------ combat (AI-4..6)
    def on_tactical_segment(self) -> dict:
        fid = self.pending["fleet"]
        segment = "mil" if self.ctx.value(fid, "mil") >= self.ctx.value(fid, "morph") else "morph"
        return {"verb": "segment", "fleet": fid, "segment": segment}

    def target_priority(self, fid: str, segment: str) -> tuple:
        ctx = self.ctx
        if segment == "mil":
            return (-self.cost(fid), ctx.fleet(fid)["type"] != "CG", ctx.fleet(fid)["seq"])
        return (ctx.fleet(fid)["type"] == "IO", -self.cost(fid), ctx.fleet(fid)["seq"])

    def on_targets(self) -> dict:
        segment = self.pending["segment"]
        targets = [a for a in self.legal if a["verb"] == "target"]
        firers = []
        for a in targets:
            if a["firer"] not in firers:
                firers.append(a["firer"])
        # the hardest-hitting firer picks first (the best fleets on the best targets)
        firer = max(firers, key=lambda f: (self.ctx.value(f, segment), -firers.index(f)))
        mine = [a for a in targets if a["firer"] == firer]
        best = min(mine, key=lambda a: self.target_priority(a["target"], segment))
        single = [a for a in mine if a["target"] == best["target"] and a.get("shot") == "single"]
        if single:                                     # BFG-AI-4: always the single shot
            return single[0]
        return next(a for a in mine if a["target"] == best["target"] and "shot" not in a)

    def on_disengage(self) -> dict:
        region = self.view["battle"]["region"]
        if self.strong:
            return self.sampled_disengage(region)
        if self.own(region) < self.params["disengage_ratio"] * self.enemy_strength(region):
            return {"verb": "disengage"}
        return {"verb": "stay"}

    def on_pursue(self) -> dict:
        region = self.view["battle"]["region"]
        mine = self.ctx.fleets_where(self.side, ("map", "garrison"), region=region, ftype="AF")
        theirs = self.ctx.fleets_where(self.enemy, ("map", "garrison"), region=region, ftype="AF")
        return {"verb": "pursue" if mine and len(mine) >= len(theirs) else "no_pursuit"}

    def on_pursuit_losses(self) -> dict:
        return min((a for a in self.legal),
                   key=lambda a: (self.cost(a["fleet"]), a["fleet"]))

    def garrison_plan(self, region: int) -> list[str]:
        """BFG-AI-6: the cheapest set above C, plus a WS if one is there."""
        ctx = self.ctx
        fleets = ctx.in_region(region, self.side)
        limit = ctx.slot_value(region, "C")
        best = None
        for size in range(1, len(fleets) + 1):
            for group in combinations(fleets, size):
                if sum(ctx.total(f) for f in group) > limit:
                    key = (sum(self.cost(f) for f in group), size)
                    if best is None or key < best[0]:
                        best = (key, list(group))
            if best is not None and size >= 4:
                break                     # larger sets are never cheaper in practice
        if best is None:
            return []
        chosen = best[1]
        chosen += [f for f in fleets if ctx.fleet(f)["type"] == "WS" and f not in chosen]
        return chosen

    def on_garrison(self) -> dict:
        region = self.view["battle"]["region"]
        plan = self.garrison_plan(region)
        chosen = self.view["battle"]["garrison"]
        for fid in plan:
            if fid not in chosen:
                return {"verb": "garrison_add", "fleet": fid}
        for fid in chosen:
            if fid not in plan:
                return {"verb": "garrison_remove", "fleet": fid}
        return self.first("garrison_done") or {"verb": "no_garrison"}

    # ------------------------------------------------------------------ build (AI-7)
    def in_play(self, code: str) -> int:
        return len(self.ctx.fleets_where(self.side, ("display", "map", "garrison"), ftype=code))

    def on_build(self) -> dict:
        options = {a["type"] for a in self.legal if a["verb"] == "build"}
        rp = self.view["players"][self.side]["rp"]
        if "WS" in options and not self.in_play("WS"):
            return {"verb": "build", "type": "WS"}
        if "AF" in options and self.in_play("AF") < self.params["af_target"]:
            return {"verb": "build", "type": "AF"}
        if "IO" in options and rp == self.params["io_when_rp_left"]:
            return {"verb": "build", "type": "IO"}
        pair = sorted(("SF", "CG"), key=lambda c: (self.in_play(c), c != "SF"))
        for code in pair:
            if code in options:
                return {"verb": "build", "type": code}
        return {"verb": "done"}

    # ------------------------------------------------------------------ the stronger level
    def sampled_resolve(self, options: list[dict]) -> dict:
        """Play each candidate resolution out ``strong_samples`` times and pick the region
        whose average result (control won or kept, weighted by P + R, minus fleets lost) is
        best for this side."""
        scored = []
        for a in options:
            score = sum(self.playout(a["region"], k) for k in range(self.params["strong_samples"]))
            scored.append((score, -a["region"], a))
        return max(scored, key=lambda t: (t[0], t[1]))[2]

    def sampled_disengage(self, region: int) -> dict:
        """Compare staying with disengaging by playouts of the rest of the fight."""
        stay = sum(self.playout(region, k, first_choice="stay")
                   for k in range(self.params["strong_samples"]))
        leave = sum(self.playout(region, k, first_choice="disengage")
                    for k in range(self.params["strong_samples"]))
        return {"verb": "disengage" if leave > stay else "stay"}

    def playout(self, region: int, k: int, first_choice: str | None = None) -> float:
        """One sampled continuation of a fight in ``region`` on a copy of the view, both
        sides played by the baseline; the score is this side's gain."""
        from struggle_desktop.engine.canonical import clone
        from struggle_desktop.engine.flow import answer, run

        sim = clone(self.view)
        sim.pop("legal_actions", None)
        sim.setdefault("chit_pool", [])   # unknown chits play no part in a fight
        for side in ("blue", "red"):
            for key in ("hand", "discards", "deploy", "own_chits"):
                sim["players"][side].setdefault(key, [])
        seed = (self.rng.next_u32() if self.rng is not None else 0) + k
        sim["rng"] = Rng.from_seed(seed, stream=11).to_json()
        sim["pending"] = None
        sim["outcome"] = None
        sim["log"] = []
        if first_choice is None:
            sim["stack"] = [{"proc": "resolve", "region": region, "resolver": self.side,
                             "step": "start", "round": 0}]
        else:
            sim["stack"] = [{"proc": "resolve", "region": region,
                             "resolver": self.view["battle"]["resolver"], "step": "disengage",
                             "round": self.view["battle"]["round"],
                             "choices": {}, "asking": self.side}]
            sim["stack"][0]["answer"] = {"verb": first_choice}
        before = self.material(sim, region)
        ctx = Ctx(sim, PROCEDURES, self.game.data)
        for _ in range(400):
            run(ctx)
            if not sim["stack"] or sim["pending"] is None:
                break
            role = sim["pending"]["role"]
            view = self.game.view(sim, role, with_log=False)
            action = Player(self.game, view, role).decide()
            answer(sim, action)
        after = self.material(sim, region)
        return after - before

    def material(self, state: dict, region: int) -> float:
        ctx = Ctx(state, PROCEDURES, self.game.data)
        value = ctx.slot_value(region, "P") + ctx.slot_value(region, "R")
        control = ctx.region(region)["controller"]
        score = value * (1 if control == self.side else -1 if control == self.enemy else 0)
        for fid, fleet in state["fleets"].items():
            if fleet["at"] in ("display", "map", "garrison"):
                worth = self.game.data.fleet_types[fleet["type"]].cost or 2
                score += worth if fleet["owner"] == self.side else -worth
        return score
