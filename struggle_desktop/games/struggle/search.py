"""The stronger Imperial player of Struggle (policy ``strong``; the in-game hint's player).

It is the Imperial bot (bot.py) with better habits where the bot leaves victory points
behind, and a short look-ahead where its simple rule decides the most: where each stack
moves.

**Habits** (``HANDLERS``, each a replacement of the bot's handler for one prompt kind;
every other prompt is answered as the bot answers it):

- *Colonization Fleets* (SGE-SEQ-14). The bot never buys a CF and lets its CFs wander with the
  stacks, so sectors whose system was destroyed stay empty. Here every Imperial CF is given
  the nearest empty system sector no other CF has taken; at recruitment a CF is bought in the
  Imperial system nearest to an empty sector that no CF has yet (at most ``cf_reach`` steps
  away); in movement each CF steps toward its sector before the stacks move, and the bot's
  colonization handler founds the colony once the CF is there and no Chaos unit is. A colony
  is a victory point for 4 RP.
- *Repression* (SGE-REP-1, SGE-SUP-2). The bot keeps two Repression markers; here it keeps
  ``repression_target``, as one RP buys one and each can stop a Rebellion, Usurper,
  Independent Empire or Invaders marker (the bot already tries whenever it holds one).
- *Illumination and extropy* (SGE-ILL-3, SGE-EXT-2). The Empire usually has RP to spare, so
  one Illumination marker is kept in stock (from 4 RP) and, in Phase 14, an extropy operation
  and an Illumination are spent whenever the CI is above ``extropy_ci`` (the bot waits for
  CI 20 and 30): a lower CI draws fewer Chaos events (SGE-CI-10), and Universal Victory needs
  CI 10 or less (SGE-VIC-4).

**Look-ahead** (``SEARCHED``: Imperial Movement). When the habits move a stack, the player
weighs that move against sending the same stack to the next best targets the bot's own
ranking (``bot.movement_targets``: worth per defence) gives within its reach, up to
``movement_alternatives`` of them. Each candidate is played on ``samples`` imagined
positions to the end of the turn's Imperial Combat phase, the habits taking every decision
on the way (the other stacks' moves, the attacks), and scored by ``value``; the candidates
share their imagined positions (common random numbers), so their scores differ by the
choice rather than by luck, and the habits' own move is kept unless another scores higher.
In the scenario's last turn every playout goes on to the end of the game and is scored by
the victory level it reaches. The bot judges targets by worth per defence alone; the
playouts see how the fights actually go with the forces that arrive, and what the Chaos
units left behind can do.

**No peeking.** A playout never starts from the real position: ``imagined_state`` copies
what the Imperial player's view shows (``Game.view`` hides the event pool, the generator,
the procedure stack, the Expedition cup and the system pool) and rebuilds the rest from
public knowledge only:

- the *event pool*'s composition is published (SGE-POOL-1: 100 markers, those of switched-off
  rules removed at set-up, SGE-POOL-5), every marker that leaves the cup is revealed and the
  discard pile is public (SGE-POOL-2, SGE-POOL-3), so the cup holds the published markers less
  every marker to be seen elsewhere (discards, removed, set aside, in play, scheduled, the one
  being resolved) - ``invariants.marker_locations`` lists those places. Its order is unknown;
  the imagined cup lists its markers in the published order and is drawn from with a
  generator of the player's own;
- the *system pool* is every system counter not on the map (SGE-RES-3);
- the *Expedition cup* holds two of each marker (SGE-EXP-3), less the one being resolved;
- the *generator* is seeded from the player's own (``rng``), never from the game's;
- the *procedure stack* is kept: it only says where the turn's procedure stands (the phase,
  the marker being resolved, the draws left, which the CI fixes, and the Chaos forces still
  to act), all of which the player has been shown.

So two positions with the same view give the same action (``tests/games/struggle/
test_strong.py`` changes the hidden parts and checks it).

**Reproducible.** The habits are deterministic; the look-ahead draws one number from the
player's own generator per searched decision, to seed its imagined positions. The same
position and the same generator state give the same action.

**Cost.** Most decisions are the habits' (well under a millisecond); a searched movement
decision plays at most 6 candidates x 4 playouts of the rest of Movement and Combat, a few
milliseconds each (``benchmarks/bench_struggle_strong.py`` measures them).
"""

from __future__ import annotations

from struggle_desktop.engine.actions import action_in
from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.flow import UnkeptLog, run
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import bot as baseline
from struggle_desktop.games.struggle.context import IMP
from struggle_desktop.games.struggle.imperial import (buy_unit_reason, extropy_cost,
                                                      stack_costs)
from struggle_desktop.games.struggle.invariants import in_flight_marker, marker_locations

#: The player's settings (see the module docstring).
PARAMS = {
    "cf_reach": 3,                # buy a CF at most this many steps from its empty sector
    "repression_target": 4,       # Repression markers kept in stock
    "illumination_target": 1,     # Illumination markers kept in stock
    "illumination_rp": 4,         # ... bought only from this many RP
    "extropy_ci": 0,              # extropy and Illumination whenever the CI is above this
    "extropy_keep": 2,            # ... and this many RP remain after extropy (or CI > 60)
    "search": True,               # the look-ahead (False: the habits alone)
    "samples": 4,                 # imagined positions per searched decision
    "movement_alternatives": 5,   # other targets weighed for a stack move
    "movement_horizon": 11,       # playouts stop when this phase is over
}

#: The prompt kinds the look-ahead weighs.
SEARCHED = {"movement"}

#: The position value's weights, in victory points (see ``value``).
VALUE_WEIGHTS = {"vp": 1.0, "empty": 0.3, "ci": -0.1, "rp": 0.05, "imperial": 0.1,
                 "chaos": -0.05, "markers": 0.1}

#: The PCG32 streams of the imagined positions' generators and of the playouts' player.
PLAYOUT_STREAM = 23
PLAYOUT_PLAYER_STREAM = 24

#: What ``Game.view`` hides that an imagined position rebuilds (the stack is kept: see above).
HIDDEN = ("pool", "rng", "expedition_cup", "system_pool")

LEVELS = {"collapse": 0, "decline": 1, "survival": 2, "expanding": 3, "galactic": 4,
          "universal": 5}


# ====================================================================== the player
def choose(game, state: dict, role: str, rng: Rng, cache) -> tuple[dict, bool]:
    """The strong player's action for the pending prompt, and whether it is known to be
    legal (as ``bot.choose``)."""
    action, known = habit(game, state, rng, cache)
    kind = state["pending"]["kind"]
    if not PARAMS["search"] or kind not in SEARCHED or state.get("outcome") is not None:
        return action, known
    cands = candidates(game, state, kind, action, rng, cache)
    if len(cands) < 2:
        return action, known
    best = weigh(game, state, cands, rng)
    if best is cands[0]:
        return action, known
    return best, True


def habit(game, state: dict, rng: Rng, cache) -> tuple[dict, bool]:
    """The habits' action: the bot's, with the handlers of ``HANDLERS``."""
    return baseline.decide(HANDLERS, game, state, rng, cache)


HANDLERS: dict = dict(baseline.HANDLERS)


def handles(*kinds: str):
    def register(fn):
        for kind in kinds:
            HANDLERS[kind] = fn
        return fn
    return register


# ====================================================================== habits
def imperial_cfs(ctx) -> list[str]:
    units = ctx.units
    at = ctx._index()
    return sorted(uid for n in ctx.imperial_mobile_sectors() for uid in at[n]
                  if units[uid]["side"] == IMP and units[uid]["type"] == "CF")


def cf_plan(ctx) -> tuple[dict[str, int], list[int]]:
    """Each Imperial CF's empty system sector (nearest pairs first, one CF a sector), and
    the empty system sectors no CF has."""
    systems = ctx.systems
    sites = [n for n in ctx.galaxy.system_sectors if str(n) not in systems]
    if not sites:
        return {}, []
    dist = ctx.galaxy.dist
    pairs = []
    for uid in imperial_cfs(ctx):
        loc = ctx.units[uid]["loc"]
        for n in sites:
            d = dist[loc].get(n)
            if d is not None:
                pairs.append((d, n, uid))
    pairs.sort()
    plan: dict[str, int] = {}
    taken: set[int] = set()
    for _d, n, uid in pairs:
        if uid not in plan and n not in taken:
            plan[uid] = n
            taken.add(n)
    return plan, [n for n in sites if n not in taken]


@handles("recruitment")
def _recruitment(bot, p: dict) -> dict | None:
    """A CF for an empty system sector first, then the markers kept in stock, then the bot's
    purchases."""
    ctx = bot.ctx
    st = ctx.state
    if st["system_pool"]:
        _plan, free = cf_plan(ctx)
        if free:
            dist = ctx.galaxy.dist
            best = None
            for m in ctx.imperial_system_sectors():
                d = min(dist[m].get(n, 99) for n in free)
                if d <= PARAMS["cf_reach"] and (best is None or (d, m) < best) \
                        and buy_unit_reason(ctx, "CF", m) is None:
                    best = (d, m)
            if best is not None:
                # Legal by construction: buy_unit_reason is the rules' own check.
                return bot.sure({"verb": "buy_unit", "type": "CF", "at": best[1]})
    if st["options"].get("illumination"):
        if st["available"].get("repression", 0) < PARAMS["repression_target"]:
            action = {"verb": "buy_marker", "marker": "repression"}
            if bot.is_legal(action):
                return action
        if st["available"].get("illumination", 0) < PARAMS["illumination_target"] \
                and st["rp"] >= PARAMS["illumination_rp"]:
            action = {"verb": "buy_marker", "marker": "illumination"}
            if bot.is_legal(action):
                return action
    return baseline.HANDLERS["recruitment"](bot, p)


@handles("movement")
def _movement(bot, p: dict) -> dict | None:
    """Each CF one step toward its empty system sector, then the bot's stack moves."""
    ctx = bot.ctx
    plan, _free = cf_plan(ctx)
    if plan:
        used = ctx.state["turn_flags"].get("ma_used", {})
        dist = ctx.galaxy.dist
        ma = ctx.data.unit_types["CF"].ma
        for uid, n in sorted(plan.items()):
            loc = ctx.units[uid]["loc"]
            if loc == n or ma - used.get(uid, 0) < 1:
                continue
            steps = [(dist[m][n], m) for m in ctx.galaxy.neighbours[loc] if n in dist[m]]
            if steps:
                action = {"verb": "move", "unit": uid, "to": min(steps)[1]}
                if bot.is_legal(action):
                    return action
    return baseline.HANDLERS["movement"](bot, p)


@handles("end_of_turn")
def _end_of_turn(bot, p: dict) -> dict | None:
    """Extropy, then Illumination on the CI, whenever the CI is above ``extropy_ci``."""
    ctx = bot.ctx
    if ctx.ci > PARAMS["extropy_ci"]:
        action = {"verb": "extropy"}
        if bot.is_legal(action) and (ctx.state["rp"] - extropy_cost(ctx) >= PARAMS["extropy_keep"]
                                     or ctx.ci > 60):
            return action
        action = {"verb": "illuminate", "effect": "ci"}
        if bot.is_legal(action):
            return action
    return bot.sure({"verb": "done"})   # ending the phase is always legal


# ====================================================================== look-ahead
def candidates(game, state: dict, kind: str, action: dict, rng: Rng, cache) -> list[dict]:
    """The habits' action first, then the legal alternatives worth weighing."""
    out = [action]
    if kind != "movement" or action["verb"] != "move_stack":
        return out
    bot = baseline.Bot(game, state, rng, cache)
    n = action["from"]
    _uids, costs = stack_costs(bot.ctx, n)
    ranked = sorted((-ratio, costs[m], m) for m, ratio in baseline.movement_targets(bot).items()
                    if m in costs)
    # Legal by construction: every sector of stack_costs is within the largest MA left in
    # the stack, which is what the rules check of a stack move (imperial.move_reason).
    for _ratio, _cost, m in ranked[:PARAMS["movement_alternatives"]]:
        alternative = {"verb": "move_stack", "from": n, "to": m}
        if not action_in(alternative, out):
            out.append(alternative)
    return out


def weigh(game, state: dict, cands: list[dict], rng: Rng) -> dict:
    """The candidate with the best mean value over the imagined positions (the first, the
    habits' own, unless another is strictly better)."""
    seed = rng.next_u32()
    left = turns_left(state)
    kind = state["pending"]["kind"]
    totals = [0.0] * len(cands)
    for k in range(PARAMS["samples"]):
        base = imagined_state(game, state, seed + k)
        for i, action in enumerate(cands):
            sim = fork(base) if i < len(cands) - 1 else base
            totals[i] += playout(game, sim, kind, action, left, seed + k)
    best = 0
    for i in range(1, len(cands)):
        if totals[i] > totals[best]:
            best = i
    return cands[best]


def playout(game, sim: dict, kind: str, action: dict, left: int, seed: int) -> float:
    """Take ``action`` in the imagined position ``sim``, play on with the habits to the
    horizon (to the end of the game in the last turn), and return the value reached."""
    stop = horizon(sim, kind)
    cache = game.new_cache()
    rng = Rng.from_seed(seed, stream=PLAYOUT_PLAYER_STREAM)
    game.apply(sim, "imperial", action, copy=False, cache=cache)
    play_until(game, sim, stop, cache, rng)
    if sim["outcome"] is None and left == 0:
        play_until(game, sim, lambda st: False, cache, rng)
    return value(game, sim)


def horizon(sim: dict, kind: str):
    """When a playout stops: once the turn's ``movement_horizon`` phase is over."""
    turn = sim["turn"]
    last = PARAMS["movement_horizon"]

    def stop(st: dict) -> bool:
        return st["turn"] != turn or st["phase"] > last
    return stop


def play_until(game, sim: dict, stop, cache, rng: Rng) -> None:
    """Run the rules and let the habits decide until ``stop(state)`` holds after a step, or
    the game ends."""
    while True:
        ctx = cache.context(sim)
        try:
            stopped = run(ctx, until=stop)
        finally:
            ctx.close()
        if stopped or sim["outcome"] is not None or sim["pending"] is None or stop(sim):
            return
        action, known = habit(game, sim, rng, cache)
        if known:
            cache.vouch(sim, action)
        game.apply(sim, "imperial", action, copy=False, cache=cache)


# ====================================================================== imagined positions
def imagined_state(game, state: dict, seed: int) -> dict:
    """A full position built from what the Imperial player can know (module docstring):
    the view's parts copied, the hidden cups rebuilt from public knowledge, a generator
    seeded from ``seed``. Its log keeps nothing."""
    data = game.data
    sim = clone({k: v for k, v in state.items() if k not in HIDDEN and k != "log"})
    sim["log"] = UnkeptLog()
    rng = Rng.from_seed(seed, stream=PLAYOUT_STREAM)
    sim["pool"] = []
    seen = marker_locations(sim)
    flight = in_flight_marker(sim)
    if flight is not None:
        seen[flight] += 1
    unseen: list[str] = []
    for m in data["event_pool"]["markers"]:   # one row per kind of marker
        unseen.extend([m["id"]] * max(0, m["count"] - seen[m["id"]]))
    # The view gives the cup's size; should the two ever disagree, keep a random part.
    size = len(state["pool"])
    while len(unseen) > size:
        unseen.pop(rng.below(len(unseen)))
    sim["pool"] = unseen
    on_map = {s["id"] for s in sim["systems"].values()}
    sim["system_pool"] = sorted(c for c in data.system_counters if c not in on_map)
    cup = [m["id"] for m in data["expedition_markers"]["markers"] for _ in range(m["count"])]
    for frame in sim["stack"]:
        if frame["proc"] == "expedition_find" and frame.get("marker") in cup:
            cup.remove(frame["marker"])
    sim["expedition_cup"] = sorted(cup)
    sim["rng"] = rng.to_json()
    return sim


def fork(sim: dict) -> dict:
    """A copy of an imagined position (its log is not copied)."""
    log = sim.pop("log")
    try:
        copy = clone(sim)
    finally:
        sim["log"] = log
    copy["log"] = UnkeptLog()
    return copy


# ====================================================================== position value
def turns_left(state: dict) -> int:
    turns = state["turns"] if state["turns"] is not None else state["max_turns"]
    return turns - state["turn"]


def band_of(state: dict, vp: int) -> int:
    """The victory level ``vp`` scores on the game's bands (SGE-VIC-1)."""
    for i, level in enumerate(("collapse", "decline", "survival", "expanding")):
        if vp <= state["victory"][level]:
            return i
    return LEVELS["galactic"]


def value(game, state: dict) -> float:
    """A position's worth, in victory points: the Imperial systems (VP, SGE-VIC-2), plus
    what is worth a little of them (``VALUE_WEIGHTS``: empty system sectors a CF may
    colonize, RP, the Imperial mobile units' military + morph, Repression and Illumination
    markers), less the CI and the Chaos mobile units' strength. An ended game is worth its
    victory level times 100 (plus its VP), so a playout that reaches the end always
    outweighs one that does not, and collapse (CI 100, SGE-VIC-3) is the worst of all."""
    outcome = state.get("outcome")
    if outcome is not None:
        result = outcome["result"]
        level = band_of(state, outcome["vp"]) if result == "turn-limit" else LEVELS[result]
        return 100.0 * level + outcome["vp"] - 1000.0 * (level == 0 and state["ci2"] >= 200)
    w = VALUE_WEIGHTS
    types = game.data.unit_types
    ci = state["ci2"] / 2
    th_imperial = 3 if ci <= 30 else 2 if ci <= 70 else 1   # SGE-TH-2
    imperial = chaos = 0
    for u in state["units"].values():
        if u["loc"] is None:
            continue
        t = types[u["type"]]
        mine = u["side"] == IMP
        strength = t.mil + t.morph if t.mil is not None else \
            2 * (th_imperial if mine else 4 - th_imperial)
        if mine:
            imperial += strength
        else:
            chaos += strength
    vp = sum(1 for s in state["systems"].values() if s["side"] == IMP)
    empty = len(game.data.galaxy.system_sectors) - len(state["systems"])
    markers = sum(state["available"].values())
    return (w["vp"] * vp + w["empty"] * empty + w["ci"] * ci + w["rp"] * state["rp"]
            + w["imperial"] * imperial + w["chaos"] * chaos + w["markers"] * markers)
