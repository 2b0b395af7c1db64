"""The program player of Battles: the baseline (rules-battles.md section 16; each method names
its rule), and a stronger level.

Both read only the player's own view (BFG-HID-10): ``choose`` receives ``view(state, role)``,
never the state, and answers with one of the view's legal actions. The baseline is a priority
list (BFG-AI-3) with fixed rules for targets, disengagement, garrisons and builds; its numbers
come from ``assets/tables/battles/ai.yaml``.

The stronger level (policy ``strong``) plays like the baseline but looks ahead where it
matters most: the deployment. At its first deployment prompt of a turn it weighs a few plans
(the baseline's; variants ranking the regions by P or expecting more or less of the enemy in
each; and plans made against the other side's expected deployment, which is public
information run through the baseline's own rule) by playing the Actions phase out several times
on imagined states built from its view: the other player's hidden hand is filled with chits
this player has not seen, the baseline decides both sides, and each line is scored by the
Chaos Index after Politics (with a large bonus when that wins the game), the Resource
controlled and the fleets kept. Before staying or disengaging it plays the fight out the same
way. It can also weigh its actions by playouts of the rest of the Actions phase
(``strong_action_playouts`` in ``ai.yaml``); that is off by default, as it measured no
stronger and took over a second per decision.
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
                 rng: Rng | None = None, legal: list[dict] | None = None):
        self.game = game
        self.view = view
        self.side = role
        self.enemy = other(role)
        self.ctx = Ctx(view, PROCEDURES, game.data)
        self.params = game.data.ai
        # A playout passes a whole (imagined) state and its legal actions instead of a view.
        self.legal = view["legal_actions"] if legal is None else legal
        self.pending = view["pending"]
        self.strong = strong
        self.rng = rng
        self._strengths: dict[tuple[int, str], int] = {}   # the state does not change in a decision

    def decide(self) -> dict:
        kind = self.pending["kind"]
        return getattr(self, f"on_{kind}")()

    # ------------------------------------------------------------- evaluation (BFG-AI-1)
    def need(self, region: int) -> int:
        return self.ctx.slot_value(region, "C") + self.params["need_margin"]

    def worth(self, region: int) -> float:
        ctx = self.ctx
        worth = ctx.slot_value(region, "P") + ctx.slot_value(region, "R")
        if ctx.fleets_where(self.side, ("display", "map"), ftype="WS"):
            worth += self.params["ws_worth_bonus"]
        return worth

    def strength(self, region: int, side: str) -> int:
        key = (region, side)
        if key not in self._strengths:
            self._strengths[key] = sum(self.ctx.total(f) for f in self.ctx.in_region(region, side))
        return self._strengths[key]

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
    def deployment_plan(self, rank=None, share: float | None = None) -> dict[str, int]:
        """BFG-AI-2. The stronger level also asks for variants: another ranking of the regions
        (``rank``, a sort key) or another share of the enemy's strength expected per region."""
        ctx = self.ctx
        regions = sorted(range(1, 7), key=rank or (lambda n: (-self.worth(n), n)))
        enemy_total = sum(ctx.total(f) for f in ctx.fleets_where(self.enemy, "display")
                          if ctx.fleet(f)["type"] != "TH")
        share = self.params["enemy_share"] if share is None else share
        expected = {n: self.strength(n, self.enemy) + enemy_total * share
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
        """BFG-AI-2's plan (the stronger level's sampled one), one assignment per answer."""
        plan = self.sampled_deployment() if self.strong else self.deployment_plan()
        made = {fid: region for fid, region in self.view["players"][self.side]["deploy"]}
        for fid in self.ctx.fleets_where(self.side, "display"):
            if fid in plan and made.get(fid) != plan[fid]:
                return {"verb": "assign", "fleet": fid, "region": plan[fid]}
        return {"verb": "done"}

    def on_defend(self) -> dict:
        """Invasion set-up (BFG-SCN-8): fill each region's budget, dearest fleets first."""
        places = [a for a in self.legal if a["verb"] == "place"]
        if not places:
            return {"verb": "done"}
        first = places[0]["region"]              # regions are filled one after another
        return max((a for a in places if a["region"] == first),
                   key=lambda a: self.game.data.fleet_types[a["type"]].cost)

    # ------------------------------------------------------------------ actions (AI-3)
    def on_action(self) -> dict:
        """BFG-AI-3's priority list; the stronger level may weigh a few candidates by playouts
        (``strong_action_playouts``, off by default)."""
        baseline = self.baseline_action()
        if not self.strong:
            return baseline
        candidates = self.action_candidates(baseline)
        budget = self.params["strong_action_playouts"]
        if len(candidates) == 1 or not budget:
            return baseline
        samples = max(self.params["strong_min_samples"], budget // len(candidates))
        scores = [sum(self.turn_playout(a, k) for k in range(samples)) / samples
                  for a in candidates]
        # leave the baseline's choice only for a clearly better one
        scores[0] += self.params["strong_action_margin"]
        best = max(range(len(candidates)), key=lambda i: (scores[i], -i))
        return candidates[best]

    def baseline_action(self) -> dict:
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
        """BFG-CHIT-14: the extra die goes where the fleet is stronger (Military on a tie)."""
        fid = self.pending["fleet"]
        segment = "mil" if self.ctx.value(fid, "mil") >= self.ctx.value(fid, "morph") else "morph"
        return {"verb": "segment", "fleet": fid, "segment": segment}

    def target_priority(self, fid: str, segment: str) -> tuple:
        """BFG-AI-4: dearest first, a CG before an SF in Military; an IO last in Morph."""
        ctx = self.ctx
        if segment == "mil":
            return (-self.cost(fid), ctx.fleet(fid)["type"] != "CG", ctx.fleet(fid)["seq"])
        return (ctx.fleet(fid)["type"] == "IO", -self.cost(fid), ctx.fleet(fid)["seq"])

    def on_targets(self) -> dict:
        """BFG-AI-4, one firer per answer; the legal list already enforces BFG-CMB-6, so once
        every target is covered the extra firers double up on the dearest."""
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
        """BFG-AI-5: leave below 0.75 of the enemy's strength (the stronger level samples)."""
        region = self.view["battle"]["region"]
        if self.strong:
            return self.sampled_disengage(region)
        if self.own(region) < self.params["disengage_ratio"] * self.enemy_strength(region):
            return {"verb": "disengage"}
        return {"verb": "stay"}

    def on_pursue(self) -> dict:
        """BFG-AI-5: pursue with at least one AF and as many AFs as the enemy."""
        region = self.view["battle"]["region"]
        mine = self.ctx.fleets_where(self.side, ("map", "garrison"), region=region, ftype="AF")
        theirs = self.ctx.fleets_where(self.enemy, ("map", "garrison"), region=region, ftype="AF")
        return {"verb": "pursue" if mine and len(mine) >= len(theirs) else "no_pursuit"}

    def on_pursuit_losses(self) -> dict:
        """BFG-PUR-8: the owner picks its losses; the program gives up its cheapest fleet."""
        return min((a for a in self.legal),
                   key=lambda a: (self.cost(a["fleet"]), a["fleet"]))

    def garrison_plan(self, region: int) -> list[str]:
        """BFG-AI-6: the cheapest set above C, plus a WS if one is there."""
        ctx = self.ctx
        fleets = ctx.in_region(region, self.side)
        limit = ctx.slot_value(region, "C")
        group = cheapest_group(tuple(ctx.total(f) for f in fleets),
                               tuple(self.cost(f) for f in fleets), limit)
        if group is None:
            return []
        chosen = [fleets[i] for i in group]
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
        """BFG-AI-7's buying order."""
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
    def action_candidates(self, baseline: dict) -> list[dict]:
        """What the stronger level weighs on its action: the baseline's choice, every region
        it may resolve, the Illumination's Chaos Index effect and its best recruit, and the
        baseline's held-back TH deployment."""
        candidates = [baseline]
        extra = [a for a in self.legal if a["verb"] == "resolve"]
        illuminations = self.chits("Illumination")
        extra += [a for a in illuminations if a["effect"] == "ci"][:1]
        recruits = [a for a in illuminations if a["effect"] == "th"
                    and self.enemy_strength(a["region"])]
        if recruits:
            extra.append(min(recruits, key=lambda a: (abs(self.own(a["region"])
                                                          - self.enemy_strength(a["region"])),
                                                      a["region"])))
        th = self.held_back_th()
        if th is not None:
            extra.append(th)
        for action in extra:
            if action not in candidates:
                candidates.append(action)
        return candidates

    def sampled_deployment(self) -> dict[str, int]:
        """Weigh a few deployment plans (the baseline's and variants that rank the regions by
        P, or expect more or less of the enemy in each) by playing the Actions phase out on
        imagined states; the other player deploys as the baseline would. The plan is worked
        out once per deployment and kept for the following assignments."""
        from struggle_desktop.engine.canonical import digest

        key_view = {k: v for k, v in self.view.items() if k not in ("legal_actions", "log")}
        key_view = dict(key_view, players={
            side: {k: v for k, v in p.items() if not (side == self.side and k == "deploy")}
            for side, p in key_view["players"].items()})
        key = digest([self.side, key_view])
        if key in _PLANS:
            return _PLANS[key]
        share = self.params["enemy_share"]
        surprise = self.view["mode"] == "invasion" and self.view["turn"] == 1
        # the other side's fleets waiting on its display are public: the baseline would
        # deploy them so (its plan depends on public information only)
        theirs = {} if surprise else Player(self.game, self.view, self.enemy,
                                            legal=[]).deployment_plan()
        variants = [self.deployment_plan(),
                    self.deployment_plan(rank=lambda n: (-self.ctx.slot_value(n, "P"),
                                                         -self.ctx.slot_value(n, "R"), n)),
                    self.deployment_plan(share=2 * share),
                    self.deployment_plan(share=0.0),
                    self.response_plan(theirs, 1.0),
                    self.response_plan(theirs, 1.5),
                    self.response_plan(theirs, 2.0)]
        plans: list[dict[str, int]] = []
        for plan in variants:
            if plan not in plans:
                plans.append(plan)
        best = plans[0]
        if len(plans) > 1:
            seed = int(key[:8], 16)
            samples = self.params["strong_deploy_samples"]
            scored = [(sum(self.deploy_playout(plan, seed, k) for k in range(samples)),
                       -i, plan) for i, plan in enumerate(plans)]
            best = max(scored, key=lambda t: (t[0], t[1]))[2]
        if len(_PLANS) > 256:
            _PLANS.clear()
        _PLANS[key] = best
        return best

    def response_plan(self, theirs: dict[str, int], margin: float) -> dict[str, int]:
        """A deployment against the expected one of the other side (``theirs``): regions by
        P, then R; a region nobody contests gets the fewest fleets that garrison it, a
        contested one enough to outweigh the enemy ``margin`` times over (or nothing if that
        cannot be had); what is left reinforces the best contested region."""
        ctx = self.ctx
        enemy = {n: self.enemy_strength(n) for n in range(1, 7)}
        for fid, n in theirs.items():
            enemy[n] += ctx.total(fid)
        own = {n: self.own(n) for n in range(1, 7)}
        pool = sorted((f for f in ctx.fleets_where(self.side, "display")
                       if ctx.fleet(f)["type"] != "TH"), key=lambda f: (-ctx.total(f), f))
        regions = sorted(range(1, 7), key=lambda n: (-ctx.slot_value(n, "P"),
                                                     -ctx.slot_value(n, "R"), n))
        plan: dict[str, int] = {}
        for n in regions:
            want = self.need(n) + margin * enemy[n]
            if own[n] >= want:
                continue
            if own[n] + sum(ctx.total(f) for f in pool) < want:
                continue
            if not enemy[n]:           # the smallest fleets that reach it
                while own[n] < want:
                    fid = next((f for f in reversed(pool) if own[n] + ctx.total(f) >= want),
                               pool[0])
                    pool.remove(fid)
                    plan[fid] = n
                    own[n] += ctx.total(fid)
            else:
                while own[n] < want:
                    fid = pool.pop(0)
                    plan[fid] = n
                    own[n] += ctx.total(fid)
        contested = [n for n in regions if enemy[n]] or regions
        for fid in pool:
            plan[fid] = contested[0]
        return plan

    def deploy_playout(self, plan: dict[str, int], seed: int, k: int) -> float:
        from struggle_desktop.games.battles.turn import reveal_deployment

        sim = self.imagined_state(k, seed=seed)
        surprise = sim["mode"] == "invasion" and sim["turn"] == 1
        sides = [self.side] if surprise else ["red", "blue"]
        ctx = Ctx(sim, PROCEDURES, self.game.data)
        for fid in ctx.fleets_where(self.side, "display"):
            ctx.fleet(fid)["waiting"] = False
        sim["players"][self.side]["deploy"] = [[fid, n] for fid, n in plan.items()]
        if not surprise:
            for fid in ctx.fleets_where(self.enemy, "display"):
                ctx.fleet(fid)["waiting"] = False
            theirs = Player(self.game, sim, self.enemy, legal=[]).deployment_plan()
            sim["players"][self.enemy]["deploy"] = [[fid, n] for fid, n in theirs.items()]
        reveal_deployment(ctx, sides)
        sim["pending"] = None
        sim["stack"] = [{"proc": "actions", "step": "initiative",
                         "first": sim.get("invader") if surprise else None}]
        before = self.material(sim)
        self.play_on(sim)
        return self.end_score(sim, before)

    def sampled_disengage(self, region: int) -> dict:
        """Compare staying with disengaging by playouts of the rest of the fight."""
        stay = sum(self.playout(region, k, first_choice="stay")
                   for k in range(self.params["strong_samples"]))
        leave = sum(self.playout(region, k, first_choice="disengage")
                    for k in range(self.params["strong_samples"]))
        return {"verb": "disengage" if leave > stay else "stay"}

    def sample_seed(self) -> int:
        """One seed per decision: every candidate is played out on the same k-th samples
        (common random numbers), so their scores differ by the choice, not by luck."""
        if not hasattr(self, "_sample_seed"):
            self._sample_seed = self.rng.next_u32() if self.rng is not None else 0
        return self._sample_seed

    def imagined_state(self, k: int, seed: int | None = None) -> dict:
        """A full state built from the view: the other player's hidden hand is filled with
        chits this player has not seen; pools, plans and discards start empty."""
        from struggle_desktop.engine.canonical import clone
        from struggle_desktop.games.battles.setup import chit_ids

        sim = clone(self.view)
        sim.pop("legal_actions", None)
        rng = Rng.from_seed((self.sample_seed() if seed is None else seed) + k, stream=11)
        sim["rng"] = rng.to_json()
        sim["chit_pool"] = []
        for side in ("blue", "red"):
            for key in ("hand", "discards", "deploy", "own_chits"):
                sim["players"][side].setdefault(key, [])
        hidden = sim["players"][self.enemy].pop("hand_count", 0)
        if hidden:
            seen = set(sim["players"][self.side]["hand"]) | set(sim["played"]) | {
                f["tactical"] for f in sim["fleets"].values() if f["tactical"]}
            unseen = [c for chits in chit_ids(self.game.data).values() for c in chits
                      if c not in seen]
            hand = []
            for _ in range(min(hidden, len(unseen))):
                hand.append(unseen.pop(rng.below(len(unseen))))
            sim["players"][self.enemy]["hand"] = sorted(hand)
            sim["rng"] = rng.to_json()
        sim["outcome"] = None
        sim["log"] = []
        return sim

    def play_on(self, sim: dict, limit: int = 600) -> None:
        """Let the baseline answer every prompt of ``sim`` until its stack is empty."""
        from struggle_desktop.engine.flow import answer, run

        ctx = Ctx(sim, PROCEDURES, self.game.data)
        for _ in range(limit):
            run(ctx)
            if not sim["stack"] or sim["pending"] is None:
                return
            role = sim["pending"]["role"]
            legal = self.game.legal_actions(sim, role)
            answer(sim, Player(self.game, sim, role, legal=legal).decide())

    def turn_playout(self, action: dict, k: int) -> float:
        """Take ``action`` and play the rest of the Actions phase with the baseline."""
        from struggle_desktop.engine.flow import answer

        sim = self.imagined_state(k)
        sim["stack"] = [{"proc": "actions", "step": "act",
                         **({"forced_resolve": True} if self.pending.get("forced_resolve") else {})}]
        before = self.material(sim)
        answer(sim, action)
        self.play_on(sim)
        return self.end_score(sim, before)

    def end_score(self, sim: dict, before: float) -> float:
        """A line's worth at the end of the Actions phase: the Chaos Index after Politics in
        this side's favour (and a large bonus or malus when that ends the game), plus a
        weight times the Resource of the regions it controls less the other side's (next
        turn's builds), plus a weight times the fleets' worth it gained less the other side's."""
        ctx = Ctx(sim, PROCEDURES, self.game.data)
        swing = (sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("blue"))
                 - sum(ctx.slot_value(n, "P") for n in ctx.controlled_by("red")))
        ci = ctx.ci + swing
        gain = ci - self.ctx.ci if self.side == "blue" else self.ctx.ci - ci
        row = self.game.data.victory_rows.get(sim["turn"])
        if row is None:
            row = self.game.data.victory_rows[max(self.game.data.victory_rows)]
        winner = "red" if ci <= row["red_at_most"] else "blue" if ci >= row["blue_at_least"] else None
        bonus = self.params["strong_win_bonus"]
        won = bonus if winner == self.side else -bonus if winner == self.enemy else 0
        resource = (sum(ctx.slot_value(n, "R") for n in ctx.controlled_by(self.side))
                    - sum(ctx.slot_value(n, "R") for n in ctx.controlled_by(self.enemy)))
        return (gain + won + self.params["strong_resource_weight"] * resource
                + self.params["strong_material_weight"] * (self.material(sim) - before))

    def playout(self, region: int, k: int, first_choice: str) -> float:
        """One sampled continuation of the fight in ``region`` after this side answers
        ``first_choice`` to the disengagement question; the score is this side's gain in
        control (P + R of the region) and fleets."""
        sim = self.imagined_state(k)
        sim["pending"] = None
        sim["stack"] = [{"proc": "resolve", "region": region,
                         "resolver": self.view["battle"]["resolver"], "step": "disengage",
                         "round": self.view["battle"]["round"], "choices": {},
                         "asking": self.side, "answer": {"verb": first_choice}}]
        before = self.material(sim) + self.control(sim, region)
        self.play_on(sim)
        return self.material(sim) + self.control(sim, region) - before

    def control(self, state: dict, region: int) -> float:
        ctx = Ctx(state, PROCEDURES, self.game.data)
        value = ctx.slot_value(region, "P") + ctx.slot_value(region, "R")
        owner = ctx.region(region)["controller"]
        return value if owner == self.side else -value if owner == self.enemy else 0

    def material(self, state: dict) -> float:
        """The worth (build cost; 2 for a TH) of this side's fleets in play less the other
        side's."""
        score = 0.0
        for fleet in state["fleets"].values():
            if fleet["at"] in ("display", "map", "garrison"):
                worth = self.game.data.fleet_types[fleet["type"]].cost or 2
                score += worth if fleet["owner"] == self.side else -worth
        return score


def cheapest_group(totals: tuple, costs: tuple, limit: int) -> tuple | None:
    """The positions of the cheapest set of fleets (then the smallest) whose total is greater
    than ``limit`` (BFG-AI-6); the first such set in the order of ``combinations``. Kept, as
    it depends on the numbers only and the same question comes back at every prompt."""
    key = (totals, costs, limit)
    if key in _GROUPS:
        return _GROUPS[key]
    best = None
    for size in range(1, len(totals) + 1):
        for group in combinations(range(len(totals)), size):
            if sum([totals[i] for i in group]) > limit:
                rank = (sum([costs[i] for i in group]), size)
                if best is None or rank < best[0]:
                    best = (rank, group)
        if best is not None and size >= 4:
            break                     # larger sets are never cheaper in practice
    if len(_GROUPS) > 4096:
        _GROUPS.clear()
    _GROUPS[key] = None if best is None else best[1]
    return _GROUPS[key]


_GROUPS: dict[tuple, tuple | None] = {}

#: Deployment plans of the stronger level, by the situation they were made for (a pure
#: function of the view, so this only saves working the same plan out again).
_PLANS: dict[str, dict[str, int]] = {}
