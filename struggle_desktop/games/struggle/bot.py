"""The Imperial bot: plays the Empire's decisions with simple, explainable heuristics.

It keeps the Core garrisoned, gathers strike groups on Chaos sectors it can beat, attacks when
the expected exchange favours the Empire (using the same odds the combat dialog shows),
recruits within its budget, colonizes, buys Repression and Illumination, and uses extropy. It
is deterministic: the same position gives the same action (the ``rng`` it is handed is used
only to break exact ties). It powers ``simulate`` and, later, the in-game hint.

Each prompt kind has a handler ``_<kind>(bot, pending) -> action``; a kind without a handler
falls back to a cautious default (decline, done, or the first legal action).
"""

from __future__ import annotations

from itertools import repeat
from operator import is_
from typing import Callable

from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx
from struggle_desktop.games.struggle.combat import imperial_odds, odds_inputs
from struggle_desktop.games.struggle.imperial import (attack_options, costs_from, extropy_cost,
                                                      slots_left, unit_type_reason)

HARMFUL = {"REBELLION", "USURPER", "IE-ARISES", "INVADERS", "MUTANT", "SMASH", "TECH-COLLAPSE",
           "ATTRITION", "REFORMS", "TROOPS-PAY", "WEB-RAIDERS", "PARANOIA", "ELITES",
           "BIOMECH", "DARK-EMPIRE", "PROBE", "POWER-STRUGGLE", "COLONIZATION"}
DECLINE_VERBS = ("done", "no_suppression", "allow_event", "no_attack", "no_leader", "decline",
                 "skip", "pass")

Handler = Callable[["Bot", dict], dict]
HANDLERS: dict[str, Handler] = {}


def handles(*kinds: str):
    def register(fn: Handler) -> Handler:
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register


def best_of(actions, key) -> dict | None:
    """The action with the highest ``key(action)``; actions whose key is None are skipped.
    Ties keep the first, so the bot stays deterministic."""
    best = None
    for action in actions:
        k = key(action)
        if k is not None and (best is None or k > best[0]):
            best = (k, action)
    return None if best is None else best[1]


def choose(game, state: dict, role: str, rng: Rng, cache) -> tuple[dict, bool]:
    """The bot's action for the pending prompt of ``state``, and whether the bot knows it to
    be legal (taken from the legal actions, passed the check, or sure by construction).
    ``cache`` is the session's (game.new_cache): the bot reads the position through its
    context, and asks the game through it."""
    return decide(HANDLERS, game, state, rng, cache)


def decide(handlers: dict[str, Handler], game, state: dict, rng: Rng, cache
           ) -> tuple[dict, bool]:
    """``choose`` with another table of handlers (the stronger player's habits): a kind
    without a handler, or a handler that finds nothing, falls back to the cautious default."""
    bot = Bot(game, state, rng, cache)
    p = state["pending"]
    handler = handlers.get(p["kind"])
    action = handler(bot, p) if handler else None
    if action is None:
        action = bot.default(p)
    return action, bot.knows_legal(action)


class Bot:
    def __init__(self, game, state: dict, rng: Rng, cache):
        self.game = game
        self.state = state
        self.cache = cache
        self.ctx: Ctx = cache.context(state)
        self.rng = rng
        self._legal: list[dict] | None = None
        self._index: SectorIndex | None = None
        self._inputs: dict[int, tuple] = {}   # sector -> combat.odds_inputs, this decision
        self._known_legal: list[dict] = []    # actions that passed the check or are sure

    @property
    def legal(self) -> list[dict]:
        if self._legal is None:
            self._legal = self.game.legal_actions(self.state, "imperial", cache=self.cache)
        return self._legal

    def phase_notes(self) -> dict:
        """What the bot worked out earlier in this phase, for facts the Empire's own actions
        in the phase cannot change. The notes live on the session's kept context, which is
        dropped when the session moves to another state (StruggleCache.context), and are
        cleared when the turn, the phase or the kind of decision changes."""
        notes = self.ctx.notes
        key = (self.state["turn"], self.state["phase"], self.state["pending"]["kind"])
        if notes.get("key") != key:
            notes.clear()
            notes["key"] = key
        return notes

    def is_legal(self, action: dict) -> bool:
        if self.game.check_action(self.state, "imperial", action, cache=self.cache) is None:
            self._known_legal.append(action)
            return True
        return False

    def sure(self, action: dict) -> dict:
        """``action``, noted as legal without a check: the handler built it from the very
        facts the rules' check reads (say so where this is used)."""
        self._known_legal.append(action)
        return action

    def knows_legal(self, action: dict) -> bool:
        """Whether ``action`` (the object itself) came from the legal actions, passed
        ``is_legal`` or was noted with ``sure``."""
        return (any(map(is_, self._known_legal, repeat(action)))
                or (self._legal is not None and any(map(is_, self._legal, repeat(action)))))

    def default(self, p: dict) -> dict:
        for verb in DECLINE_VERBS:
            for action in self.legal:
                if action["verb"] == verb:
                    return action
        return self.legal[0]

    def first(self, verb: str, **match) -> dict | None:
        for action in self.legal:
            if action["verb"] == verb and all(action.get(k) == v for k, v in match.items()):
                return action
        return None

    # ------------------------------------------------------------------ judgement
    @property
    def index(self) -> "SectorIndex":
        if self._index is None:
            self._index = SectorIndex(self.ctx)
        return self._index

    def threat(self, n: int) -> int:
        """Chaos strength in and next to sector n (military + morph of mobile units)."""
        index = self.index
        chaos = index.chaos   # most sectors hold no Chaos unit: no strength to work out
        strength = index.chaos_strength
        total = strength(n) if n in chaos else 0
        for m in self.ctx.galaxy.neighbours[n]:
            if m in chaos:
                total += strength(m)
        return total

    def frontier(self) -> list[int]:
        """Imperial systems under threat, most threatened first; the Core counts double."""
        ctx = self.ctx
        core = ctx.galaxy.core
        scored = []
        for key, s in ctx.systems.items():   # any order: the result is sorted
            if s["side"] == IMP:
                n = int(key)
                t = self.threat(n) * (2 if n == core else 1)
                if t:
                    scored.append((-t, n))
        return [n for _, n in sorted(scored)]

    def unit_value(self, unit: str) -> float:
        ctx = self.ctx
        if unit.startswith("system:"):
            n = int(unit.split(":")[1])
            s = ctx.system_at(n)
            return 3.0 + 2 * ctx.effective_rv(s) if s else 0.0
        u = ctx.units.get(unit)
        if u is None:
            return 0.0
        t = ctx.data.unit_types[u["type"]]
        return 1.0 + t.cost / 3

    def attack_value(self, n: int, kind: str) -> float:
        """Expected worth of an Imperial attack: Chaos losses minus Imperial losses, with
        converted Chaos systems worth the most (they raise the VP). Remembered by everything
        the odds and the values read (combat.odds_inputs): one attack changes only a few
        sectors, and the others need not be worked out again, in this phase or later."""
        values = self.ctx.data.attack_values
        if len(values) > 100_000:
            values.clear()   # a bound for long runs; the values are worked out again
        inputs = self._inputs.get(n)
        if inputs is None:
            inputs = self._inputs[n] = odds_inputs(self.ctx, n)
        key = (n, kind, inputs)
        value = values.get(key)
        if value is None:
            value = values[key] = self._attack_value(n, kind, inputs)
        return value

    def _attack_value(self, n: int, kind: str, inputs: tuple | None = None) -> float:
        odds = imperial_odds(self.ctx, n, kind, inputs)
        value = 0.0
        worth_of: dict[str, float] = {}
        for result, prob in odds.results.items():
            if result == "-":
                continue
            worth = 0.0
            for unit in odds.affected.get(result, ()):
                if unit not in worth_of:
                    worth_of[unit] = self.unit_value(unit)
                worth += worth_of[unit]
            if kind == "morph" and result[0] == "D":
                worth *= 1.5   # converting keeps the units and systems for the Empire
            value += prob * (worth if result[0] == "D" else -worth)
        return value


class SectorIndex:
    """The Chaos mobile units of each sector that holds any, and their strength (computed on
    demand), for the bot's many per-sector questions."""

    def __init__(self, ctx: Ctx):
        self.ctx = ctx
        self.chaos: dict[int, list[str]] = {}
        units = ctx.units
        # The index counts the Imperial units of each sector: most sectors hold units of one
        # side only, and need no look at their units.
        imperial = ctx.imperial_mobile_sectors()
        for n, uids in ctx._index().items():
            k = imperial.get(n, 0)
            if not k:
                self.chaos[n] = list(uids)
            elif k < len(uids):
                self.chaos[n] = [uid for uid in uids if units[uid]["side"] != IMP]
        self._strength: dict[int, int] = {}

    def chaos_strength(self, n: int) -> int:
        """Military + morph of the Chaos mobile units in n."""
        found = self._strength.get(n)
        if found is None:
            uids = self.chaos.get(n)
            if uids is None:
                return 0
            total = self.ctx.factor_total
            found = self._strength[n] = total(uids, "mil") + total(uids, "morph")
        return found


# ====================================================================== set-up and events
@handles("setup_placement")
def _setup(bot: Bot, p: dict) -> dict:
    return {"verb": "auto_place"}


@handles("event_institute")
def _institute(bot: Bot, p: dict) -> dict | None:
    marker = p.get("marker")
    want = "cancel_event" if marker in HARMFUL else "allow_event"
    return bot.first(want)


@handles("event_suppression")
def _suppress(bot: Bot, p: dict) -> dict | None:
    return bot.first("suppress")


@handles("event_leviathan")
def _leviathan(bot: Bot, p: dict) -> dict | None:
    # Halving every CI change mostly halves the Chaos side's gains.
    for verb in ("accept_leviathan", "accept"):
        action = bot.first(verb)
        if action:
            return action
    return None


@handles("event_alliance")
def _alliance(bot: Bot, p: dict) -> dict | None:
    """Take over the strongest Chaos force in or next to Imperial territory."""
    ctx = bot.ctx

    def key(action: dict):
        if action["verb"] != "alliance":
            return None
        n = action["sector"]
        near = any(ctx.imperial_controlled(m) for m in (n, *ctx.galaxy.neighbours[n]))
        return (near, bot.index.chaos_strength(n), -n)

    return best_of(bot.legal, key)


@handles("alliance_move")
def _alliance_move(bot: Bot, p: dict) -> dict | None:
    """Lead the force as far from Imperial systems as it can go."""
    ctx = bot.ctx
    imperial = ctx.imperial_system_sectors() or [ctx.galaxy.core]
    dist = ctx.galaxy.dist
    return best_of(bot.legal, lambda a: (min(dist[a["to"]][m] for m in imperial), -a["to"]))


@handles("alliance_attack")
def _alliance_attack(bot: Bot, p: dict) -> dict | None:
    return bot.first("no_attack")


@handles("event_corps")
def _corps(bot: Bot, p: dict) -> dict | None:
    front = bot.frontier() or [bot.ctx.galaxy.core]
    for code in ("CG", "SF"):
        action = {"verb": "corps", "type": code, "at": front[0]}
        if bot.is_legal(action):
            return action
    return None


@handles("event_crusade")
def _crusade(bot: Bot, p: dict) -> dict | None:
    """As many units as possible, a balanced mix, where the threat is greatest."""
    def key(a: dict):
        if a["verb"] != "crusade":
            return None
        return (a["sf"] + a["cg"], -abs(a["sf"] - a["cg"]), bot.threat(a["at"]), -a["at"])

    return best_of(bot.legal, key)


@handles("event_leader")
def _leader(bot: Bot, p: dict) -> dict | None:
    ctx = bot.ctx

    def key(a: dict):
        uid = a.get("unit")
        if uid not in ctx.units:
            return None
        return (ctx.factor(uid, "mil") + ctx.factor(uid, "morph"), uid)

    return best_of(bot.legal, key)


@handles("event_unpaid")
def _unpaid(bot: Bot, p: dict) -> dict | None:
    """Leave the least valuable things unpaid: low-RV systems far from the Core, cheap units."""
    ctx = bot.ctx

    def worth(a: dict):   # negated: best_of picks the least valuable
        if "sector" in a:
            s = ctx.system_at(a["sector"])
            return (-(ctx.effective_rv(s) if s else 0), ctx.galaxy.dist_to_core[a["sector"]])
        if a.get("unit") in ctx.units:
            return (-ctx.data.unit_types[ctx.units[a["unit"]]["type"]].cost, 0)
        return None

    return best_of(bot.legal, worth)


@handles("alien_leader")
def _alien_leader(bot: Bot, p: dict) -> dict | None:
    return None   # the default declines: leaders are worth more in combat


# ====================================================================== Imperial phases
@handles("maintenance")
def _maintenance(bot: Bot, p: dict) -> dict | None:
    pay = {"verb": "pay"}
    if bot.is_legal(pay):
        return pay   # the object that passed the check: apply need not check it again
    ctx = bot.ctx
    # Short of RP: disband the cheapest unit far from the front; Nexus markers last.
    disbands = [a for a in bot.legal if a["verb"] == "disband"]
    if disbands:
        def key(a):
            u = ctx.units[a["unit"]]
            return (ctx.data.unit_types[u["type"]].cost, -bot.threat(u["loc"]), a["unit"])
        return min(disbands, key=key)
    return None


@handles("recruitment")
def _recruitment(bot: Bot, p: dict) -> dict | None:
    ctx = bot.ctx
    st = ctx.state
    rp = st["rp"]
    types = ctx.data.unit_types
    options = st["options"]
    # Imperial units by type, with one of each: a unit's upkeep and factors are its type's.
    # Every unit stands on the map once set-up is over (setup.placement_left), so the index's
    # sectors with Imperial units hold them all.
    counts: dict[str, int] = {}
    sample: dict[str, str] = {}
    units = ctx.units
    at = ctx._index()
    for n in ctx.imperial_mobile_sectors():
        for uid in at[n]:
            u = units[uid]
            if u["side"] == IMP:
                code = u["type"]
                if code in counts:
                    counts[code] += 1
                else:
                    counts[code] = 1
                    sample[code] = uid
    upkeep = sum(types[code].upkeep * count for code, count in counts.items())
    # Purchases leave the systems alone, but for Increased Resources markers: without their
    # optional rule, one sum of the Imperial systems' RV a phase.
    notes = bot.phase_notes()
    income = notes.get("income")
    if income is None or options.get("increased_resources"):
        counters = ctx.data.system_counters   # ctx.effective_rv, written out for every system
        income = 0
        for s in ctx.systems.values():
            if s["side"] == IMP:
                income += counters[s["id"]][2] + ctx.irs_bonus(s)
        notes["income"] = income
    reserve = max(0, upkeep - income) + 2
    prices = ctx.data["markers"]["prices"]
    if options.get("illumination"):
        if st["available"].get("repression", 0) < 2 and rp >= prices["repression_per_rp"] + reserve:
            action = {"verb": "buy_marker", "marker": "repression"}
            if bot.is_legal(action):
                return action
        wants_illumination = st["available"].get("illumination", 0) < 1 and ctx.ci > 40
        if wants_illumination and rp >= prices["illumination"] + reserve:
            action = {"verb": "buy_marker", "marker": "illumination"}
            if bot.is_legal(action):
                return action
    spend = rp - reserve
    # Purchases change neither the Chaos units nor the Imperial systems: one frontier a phase.
    if "front" not in notes:
        notes["front"] = bot.frontier() or ctx.imperial_system_sectors()
    front = notes["front"]
    if spend >= 3 and front:
        morph = sum(ctx.factor(sample[code], "morph", defending=False) * k
                    for code, k in counts.items())
        mil = sum(ctx.factor(sample[code], "mil", defending=False) * k
                  for code, k in counts.items())
        order = ("CG", "AF", "SF") if morph <= mil else ("AF", "SF", "CG")
        for code in order:
            t = ctx.data.unit_types[code]
            if t.cost > spend or unit_type_reason(ctx, code) is not None:
                continue   # (buy_unit_reason would refuse this type in every sector)
            for n in front[:4]:
                # Legal by construction: for a type unit_type_reason accepts, buy_unit_reason
                # (the rules' check) asks no more of a sector than that it have slots left.
                if slots_left(ctx, n) > 0:
                    return bot.sure({"verb": "buy_unit", "type": code, "at": n})
    return bot.sure({"verb": "done"})   # ending recruitment is always legal


@handles("movement")
def _movement(bot: Bot, p: dict) -> dict | None:
    """Moves toward the best reachable attack, keeping a guard in the Core.

    Targets are Chaos-held sectors, scored by what they are worth (systems most) against
    their morph strength. Each Imperial stack outside a target goes, as a stack, to the best
    target its unit with the most MA left can reach; the two first units in the Core stay as
    its guard.
    Stacks move in sector order, one move_stack per decision (a stack move is always legal:
    its target comes from the same costs the rules check).
    """
    ctx = bot.ctx
    targets = movement_targets(bot)
    if not targets:
        return bot.sure({"verb": "done"})   # ending movement is always legal
    core = ctx.galaxy.core
    choices = bot.phase_notes().setdefault("stack_moves", {})
    units = ctx.units
    types = ctx.data.unit_types
    ma_used = ctx.state["turn_flags"].get("ma_used", {})
    at = ctx._index()
    for n in sorted(ctx.imperial_mobile_sectors()):
        if n in targets:
            continue
        # The stack: the Imperial units in n, in the index's order (that of ``units``, which
        # movement leaves alone), only as the key of its choice below.
        uids = [uid for uid in at[n] if units[uid]["side"] == IMP]
        if n == core and ctx.imperial_controlled(core) and len(uids) <= 2:
            continue
        # Movement changes neither the targets nor where a stack can go, so a stack's choice
        # holds until its own units move or spend MA (the MA left: imperial.ma_left).
        ma = tuple(types[units[uid]["type"]].ma - ma_used.get(uid, 0) for uid in uids)
        key = (n, tuple(uids), ma)
        if key not in choices:
            choices[key] = stack_target(ctx, n, max(ma), targets)
        if choices[key] is not None:
            # Legal by construction: the target is among the costs within the largest MA
            # left in the stack, those of stack_costs(ctx, n), which is what move_reason checks.
            return bot.sure({"verb": "move_stack", "from": n, "to": choices[key]})
    return bot.sure({"verb": "done"})


def movement_targets(bot: Bot) -> dict[int, float]:
    """Chaos-held sectors -> their worth per morph defence, best first. The Empire's moves
    do not change them, so they are worked out once per movement phase."""
    notes = bot.phase_notes()
    if "targets" not in notes:
        ctx = bot.ctx
        worth: dict[int, int] = {}
        defence: dict[int, int] = {}
        counters = ctx.data.system_counters   # ctx.system_values and effective_rv, written out
        for key, s in ctx.systems.items():
            if s["side"] == CHAOS:
                n = int(key)
                _mil, morph, rv = counters[s["id"]]
                worth[n] = 3 + 2 * (rv + ctx.irs_bonus(s))
                defence[n] = morph
        total = ctx.factor_total
        for n, uids in bot.index.chaos.items():
            worth[n] = worth.get(n, 0) + len(uids)
            defence[n] = defence.get(n, 0) + total(uids, "morph")
        targets = {m: w / (1 + defence[m]) for m, w in worth.items()}
        notes["targets"] = dict(sorted(targets.items(), key=lambda target: -target[1]))
    return notes["targets"]


def stack_target(ctx: Ctx, n: int, ma: int, targets: dict[int, float]) -> int | None:
    """The best target (of ``movement_targets``, best first) that a stack in n whose largest
    MA left is ``ma`` can reach: most worth per defence, then nearest, then the lowest
    number."""
    costs = costs_from(ctx, n, ma)
    best = None
    for m, ratio in targets.items():
        if best is not None and ratio < best[0][0]:
            break   # no target further on is worth as much
        cost = costs.get(m)
        if cost is None:
            continue
        key = (ratio, -cost, -m)
        if best is None or key > best[0]:
            best = (key, m)
    return None if best is None else best[1]


@handles("combat")
def _combat(bot: Bot, p: dict) -> dict | None:
    """The legal attack with the best expected exchange, if it is clearly worth it."""
    best = None
    for action in attack_options(bot.ctx):   # the legal attacks (legal_combat's list)
        value = bot.attack_value(action["at"], action["type"])
        if value > 0.3 and (best is None or value > best[0]):
            best = (value, action)
    return bot.sure({"verb": "done"} if best is None else best[1])


@handles("colonization")
def _colonization(bot: Bot, p: dict) -> dict | None:
    for action in bot.legal:
        if action["verb"] == "colonize":
            return action
    return {"verb": "done"}


@handles("expedition")
def _expedition(bot: Bot, p: dict) -> dict | None:
    """Mount an expedition only with a leader of 2 or more to steady the roll."""
    for action in bot.legal:
        if action["verb"] == "expedition" and action.get("leader"):
            uid = action["leader"]
            if uid in bot.ctx.units and (bot.ctx.units[uid]["leader"] or 0) >= 2:
                return action
    return None


@handles("end_of_turn")
def _extropy(bot: Bot, p: dict) -> dict | None:
    """Extropy when the CI is worth lowering and RP remain afterwards; then Illumination."""
    ctx = bot.ctx
    if ctx.ci > 20:
        action = {"verb": "extropy"}
        if bot.is_legal(action) and (ctx.state["rp"] - extropy_cost(ctx) >= 2 or ctx.ci > 60):
            return action
    if ctx.ci > 30:
        action = {"verb": "illuminate", "effect": "ci"}
        if bot.is_legal(action):
            return action
    return {"verb": "done"}
