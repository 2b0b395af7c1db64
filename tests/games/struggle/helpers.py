"""Shared helpers for the Struggle rules tests: build a position, run a phase, script dice.

Typical use::

    state = new_game("1", seed=3)          # set up, auto-placed, stopped before turn 1
    clear_map(state)                       # an empty galaxy (pools and mix refilled)
    put_system(state, 12, "imp", rv=2)
    uid = put_unit(state, "SF", 12)
    begin_phase(state, 1, turn=2)          # the stack holds only "phase1"
    set_pool(state, ["REBELLION"])
    run(state, rng=ScriptedRng([0, ...]))  # runs until a prompt or the phase ends

Everything changes the state through the Ctx primitives (``place_unit``, ``place_system``,
``new_force``...), so counters stay conserved. ``ScriptedRng`` replaces the generator with
scripted results: ``below(n)`` and ``d10()`` return the next scripted value (two values
``[tens, units]`` make one random sector, see ``sector_faces``).
"""

from __future__ import annotations

from typing import Callable, Iterable

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.flow import run as flow_run
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import GAME
from struggle_desktop.games.struggle.context import CHAOS, IMP, Ctx

_BASE: dict[tuple, dict] = {}


# ============================================================================ scripted dice
class ScriptedRng:
    """A stand-in for the game generator whose results are scripted.

    ``below(n)`` returns the next value of the script (which must be < n); ``d10()`` is
    ``below(10)``. When the script runs out, ``fallback`` (a real ``Rng``) takes over if one
    was given, otherwise an AssertionError names the extra draw. ``used`` counts the scripted
    values consumed; ``left`` lists those not yet used. Without a fallback, a Ctx made by
    ``context`` writes the state's own generator back unchanged when it closes.
    """

    def __init__(self, values: Iterable[int], fallback: Rng | None = None):
        self.values = list(values)
        self.used = 0
        self.fallback = fallback
        self._json = fallback.to_json() if fallback is not None else [0, 1]

    @property
    def left(self) -> list[int]:
        return self.values[self.used:]

    def below(self, n: int) -> int:
        if self.used >= len(self.values):
            if self.fallback is None:
                raise AssertionError(f"an unscripted random draw below({n})")
            return self.fallback.below(n)
        value = self.values[self.used]
        self.used += 1
        assert 0 <= value < n, f"scripted value {value} is not below {n}"
        return value

    def d10(self) -> int:
        return self.below(10)

    def d6(self) -> int:
        return self.below(6) + 1

    def d66(self) -> int:
        return self.d6() * 10 + self.d6()

    pick_index = below

    def to_json(self) -> list[int]:
        return self.fallback.to_json() if self.fallback is not None else self._json


def sector_faces(n: int) -> list[int]:
    """The two d10 faces (tens, units) that make ``ctx.random_sector`` return n."""
    return [n // 10, n % 10]


# ============================================================================ games and runs
def new_game(scenario: str = "1", seed: int = 1, options: dict | None = None) -> dict:
    """A fresh game of ``scenario``: set up with ``GAME.setup``, the player's pieces placed
    by ``{"verb": "auto_place"}``, stopped before turn 1 begins (only the "game" frame is on
    the stack). Results are cached per arguments; each call returns a deep copy."""
    key = (str(scenario), seed, tuple(sorted((options or {}).items())))
    if key not in _BASE:
        state = GAME.advance(GAME.setup(str(scenario), seed, options))
        while state["pending"] is not None and state["pending"]["kind"] == "setup_placement":
            state = GAME.apply(state, "imperial", {"verb": "auto_place"}, copy=False)
            run_until(state, lambda st: [f["proc"] for f in st["stack"]] == ["game"])
        _BASE[key] = clone(state)
    return clone(_BASE[key])


def context(state: dict, rng=None) -> Ctx:
    """A Ctx on ``state``; ``rng`` (for example a ScriptedRng) replaces its generator."""
    ctx = GAME.context(state)
    if rng is not None:
        if isinstance(rng, ScriptedRng) and rng.fallback is None:
            rng._json = ctx.rng.to_json()   # closing the Ctx leaves the game generator as it was
        ctx.rng = rng
    return ctx


def run_until(state: dict, predicate: Callable[[dict], bool], rng=None,
              max_steps: int = 200_000) -> dict:
    """Run procedures one step at a time until ``predicate(state)`` holds, a prompt waits,
    the game ends or the stack is empty."""
    ctx = context(state, rng)
    try:
        for _ in range(max_steps):
            if (not state["stack"] or state["pending"] is not None
                    or state["outcome"] is not None or predicate(state)):
                return state
            frame = state["stack"][-1]
            ctx.procedures[frame["proc"]](ctx, frame)
        raise AssertionError("run_until: too many steps")
    finally:
        ctx.close()


def run(state: dict, rng=None) -> dict:
    """Run until a prompt waits, the game ends or the stack is empty (with optional dice)."""
    ctx = context(state, rng)
    try:
        flow_run(ctx)
    finally:
        ctx.close()
    return state


def act(state: dict, action: dict, rng=None) -> dict:
    """Answer the waiting prompt with ``action`` (checked as legal) and run on."""
    GAME.apply(state, "imperial", action, copy=False)
    return run(state, rng)


def legal(state: dict) -> list[dict]:
    return GAME.legal_actions(state, "imperial")


def begin_phase(state: dict, phase: int, turn: int | None = None) -> dict:
    """Put ``state`` at the start of ``phase`` of ``turn`` (default: the next turn when the
    game has not started, else the current one), with only that phase on the stack, so a run
    stops when the phase ends. The per-turn flags are cleared when the turn changes."""
    target = turn if turn is not None else max(1, state["turn"])
    if target != state["turn"]:
        state["turn_flags"] = {}
    state["turn"] = target
    state["phase"] = phase
    state["stack"] = [{"proc": f"phase{phase}"}]
    state["pending"] = None
    return state


# ============================================================================ positions
def clear_map(state: dict) -> dict:
    """Empty the galaxy: every mobile unit back to the mix, every system unit back to the
    system pool, no forces, IEs, Chaos markers on the map, Nexus or Stargates, Leviathan off.
    The Imperial and Chaos leader pools are refilled from the tables. CI and RP are kept."""
    ctx = context(state)
    st = state
    st["nexus"] = []          # cleared first: losing them through checks would move the CI
    st["stargates"] = []
    st["leviathan"] = False
    st["aliens"] = []
    st["institutes"] = []
    st["expedition_sites"] = []
    st["alliance"] = None
    st["colonizations"] = 0
    for uid in sorted(ctx.units):
        ctx.remove_unit(uid, "TEST", "map cleared")
    for key in list(st["ies"]):
        ctx.dissolve_ie(int(key))
    for fid in list(st["forces"]):
        ctx.end_force(fid, "map cleared")
    for n in sorted(int(k) for k in ctx.systems):
        ctx.remove_system(n, "TEST", "map cleared")
    leaders = GAME.data["leaders"]
    st["imp_leaders"] = sorted(leaders["imperial"])
    st["chaos_leaders"] = sorted(leaders["chaos"])
    ctx.close()
    return state


def put_unit(state: dict, code: str, loc: int, side: str = IMP, force: str | None = None,
             leader: int | None = None) -> str:
    """Place a mobile unit from the mix; ``side`` "imp" or "chaos" (Chaos with no force is a
    Rebel); ``leader`` takes that value out of the Imperial leader pool onto the unit."""
    ctx = context(state)
    uid = ctx.place_unit(code, side, loc, "TEST", force=force, why="test position")
    assert uid is not None, f"no {code} left in the mix"
    if leader is not None:
        state["imp_leaders"].remove(leader)
        state["units"][uid]["leader"] = leader
    ctx.close()
    return uid


def put_system(state: dict, n: int, side: str = IMP, rv: int | None = None,
               ie: int | None = None, like: str | None = None) -> str:
    """Place a system unit in sector n (a system sector) from the system pool: one with the
    given RV, or the first free counter with the same values as counter ``like`` (S01 1-0 RV1,
    S06 0-1 RV1, S16 2-0 RV1, S21 1-2 RV2, S31 2-2 RV2, S36 0-3 RV2, S41 2-3 RV3, S45 3-2 RV3,
    S53 3-3 RV4), if asked. Returns the counter id."""
    assert GAME.data.galaxy.is_system[n], f"{n} is not a system sector"
    ctx = context(state)
    counter = None
    counters = GAME.data.system_counters
    if like is not None:
        counter = next(c for c in state["system_pool"] if counters[c] == counters[like])
    elif rv is not None:
        counter = next(c for c in state["system_pool"] if counters[c][2] == rv)
    s = ctx.place_system(n, side, "TEST", ie=ie, counter=counter)
    ctx.close()
    return s["id"]


def put_force(state: dict, kind: str, loc: int, codes: Iterable[str], leader: int = 1,
              marker: str | None = None, ie: int | None = None) -> str:
    """A Chaos force of ``kind`` (usurper, mutant, ie, invader) made of new units in ``loc``.
    Returns the force id."""
    ctx = context(state)
    fid = ctx.new_force(kind, leader, "TEST", ie=ie, marker=marker)
    for code in codes:
        assert ctx.place_unit(code, CHAOS, loc, "TEST", force=fid) is not None
    ctx.close()
    return fid


def set_pool(state: dict, markers: Iterable[str], discard: Iterable[str] = ()) -> dict:
    """Replace the cup's contents (and the discard pile)."""
    state["pool"] = list(markers)
    state["discard"] = list(discard)
    return state


def set_ci(state: dict, ci: float) -> dict:
    state["ci2"] = int(round(ci * 2))
    return state


def system_sectors() -> tuple[int, ...]:
    return GAME.data.galaxy.system_sectors


def non_system_sectors() -> list[int]:
    g = GAME.data.galaxy
    return [n for n in g.numbers if not g.is_system[n]]


def log_rules(state: dict) -> list[str]:
    return [e["rule"] for e in state["log"]]


def marker_count(state: dict, marker_id: str) -> int:
    """Copies of a chaos event marker in the pool, discard pile, set-aside box and effects."""
    return sum(lst.count(marker_id) for lst in (state["pool"], state["discard"],
                                                 state["set_aside"], state["effects"]))


def empty_galaxy(ci: float = 50, turn: int = 2) -> dict:
    """An empty galaxy (scenario 2's pools, every optional rule on) at ``ci`` on ``turn``,
    with no effects, no RP and an empty log."""
    state = clear_map(new_game("2", 1, {"all": True}))
    state["turn"] = turn
    state["turn_flags"] = {}
    state["effects"] = []
    state["rp"] = 0
    set_ci(state, ci)
    state["log"] = []
    return state


def add_alien(state: dict, kind: str, loc: int, placed: int | None = None) -> dict:
    """An alien marker taken from the pool (if one is there) and put in ``loc``."""
    if kind in state["pool"]:
        state["pool"].remove(kind)
    state["next_seq"] += 1
    marker = {"kind": kind, "loc": loc, "placed": state["turn"] if placed is None else placed,
              "seq": state["next_seq"]}
    state["aliens"].append(marker)
    return marker


# The Combat Results Table as the rules print it (SGE-CMB-8): rows are modified rolls 0..9,
# columns the differential bands.
RULES_CRT = [
    ["A3", "A2", "A1", "-", "-", "D1"],
    ["A2", "A2", "A1", "-", "D1", "D1"],
    ["A2", "A1", "-", "D1", "D1", "D2"],
    ["A1", "A1", "-", "D1", "D2", "D2"],
    ["A1", "-", "D1", "D1", "D2", "D2"],
    ["-", "-", "D1", "D2", "D2", "D3"],
    ["-", "D1", "D1", "D2", "D3", "D3"],
    ["-", "D1", "D2", "D2", "D3", "D3"],
    ["D1", "D1", "D2", "D3", "D3", "D3"],
    ["D1", "D2", "D2", "D3", "D3", "D3"],
]


def bot_session(game, scenario: str = "4", seed: int = 3, actions: int = 60,
                options: dict | None = None):
    """A session the Imperial bot has played for ``actions`` actions (or to its end), with
    every optional rule on by default: a busy, realistic position for views of the game."""
    from struggle_desktop.engine.rng import Rng
    from struggle_desktop.engine.session import Session

    session = Session.new(game, scenario, seed, options or {"all": "on"}, record_digests=False)
    rng = Rng.from_seed(seed, 5)
    for _ in range(actions):
        if game.outcome(session.state) is not None:
            break
        session.perform("imperial", game.choose_action(session.state, "imperial", "bot", rng))
    return session
