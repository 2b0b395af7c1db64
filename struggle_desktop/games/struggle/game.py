"""Struggle for the Galactic Empire behind the game-module interface (ARCHITECTURE.md section 2).

>>> from struggle_desktop.games.struggle import GAME
>>> state = GAME.advance(GAME.setup("3", seed=1))
>>> state["pending"]["kind"]
'setup_placement'
>>> state = GAME.advance(GAME.apply(state, "imperial", {"verb": "auto_place"}))
>>> state["turn"] >= 1
True
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import BadOption, IllegalAction, StruggleError
from struggle_desktop.engine.flowgame import FlowGame
from struggle_desktop.engine.options import parse_bool, parse_int
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.struggle import (aliens, bot, chaos_ops, combat,  # noqa: F401
                                             events, imperial, search, setup, turn)
from struggle_desktop.games.struggle.cache import StruggleCache
from struggle_desktop.games.struggle.context import Ctx
from struggle_desktop.games.struggle.data import StruggleData, default_data
from struggle_desktop.games.struggle.manual import ADJUST, adjust, adjustment_reason
from struggle_desktop.games.struggle.registry import RULES

#: Bumped with every change that replays a game differently (the golden saves pin it).
#: 2: SGE-OPS-9 amended, a force in the Core leaves it on Move Higher.
#: 3: SGE-POOL-18 amended, the Mutant takes its sector out of its IE.
#: 4: SGE-EV-INSTITUTE/SGE-ALN-4 amended, an alien wipe-out returns the Institute.
RULES_VERSION = "sge-rules-4"

OPTION_HELP = {
    "imperial_order": "Imperial Order units (SGE-IO)",
    "trans_humans": "Trans-humans (SGE-TH)",
    "nexus": "Imperial Nexus markers (SGE-NEX)",
    "illumination": "Illumination, Repression and Suppression (SGE-ILL, SGE-REP, SGE-SUP)",
    "stargates": "Stargates (SGE-STG)",
    "increased_resources": "Increased Resources (SGE-IRS)",
    "expeditions": "Expeditions (SGE-EXP)",
}


#: The most turns scenario 7 may be played on for (a 999-turn game plays in a fraction of a
#: second; beyond that the option could only make a runaway game).
MAX_TURNS_LIMIT = 999


class StruggleGame(FlowGame):
    """The shared flow-game base (engine/flowgame.py) with what Struggle adds: manual
    adjustments (free placement) answered outside the prompts, and a cache a session keeps
    between calls (cache.py), which holds the rules context and the action the program's
    player vouched for."""

    id = "struggle"
    title = "Struggle for the Galactic Empire"
    roles = ("imperial",)
    rules_version = RULES_VERSION
    rules = RULES
    presentation = "struggle_desktop.games.struggle.presentation"
    #: The rules never read the log back and ``digest`` leaves it out, so a simulation that
    #: writes no log may drop it (Session.new, keep_log).
    log_is_output_only = True

    invariants_module = "struggle_desktop.games.struggle.invariants"
    catalog_module = "struggle_desktop.games.struggle.catalog"
    data: StruggleData   # the base's, loaded on first use
    load_data = staticmethod(default_data)

    # ------------------------------------------------------------------ catalogue
    def scenarios(self) -> list[dict]:
        out = []
        for sid, sc in self.data.scenarios.items():
            out.append({"id": sid, "title": sc["title"], "rule": sc["rule"],
                        "required_options": list(sc.get("required_options") or []),
                        "description": sc.get("description", ""),
                        "turns": sc.get("turns"), "mode": sc.get("mode"),
                        "victory": dict(sc["victory"]) if sc.get("victory") else None})
        return out

    def options(self) -> dict[str, dict]:
        opts = {key: {"type": "bool", "default": False, "help": text}
                for key, text in OPTION_HELP.items()}
        opts["all"] = {"type": "bool", "default": False,
                       "help": "switch every optional rule on"}
        opts["base"] = {"type": "scenario", "default": "1",
                        "help": "scenario 7 (Sweep of Empire): the scenario it is played on"}
        # Bounded like every option: a billion turns would only end as a runaway game.
        opts["max_turns"] = {"type": "int", "default": 40, "min": 1, "max": MAX_TURNS_LIMIT,
                             "help": "scenario 7: stop an unfinished game after this many turns"}
        return opts

    def normalize_options(self, scenario: str, options: dict | None) -> tuple[dict, dict, bool, int]:
        """Check the options; return (rule toggles, base scenario, sweep?, max_turns)."""
        options = dict(options or {})
        known = self.options()
        for key in options:
            if key not in known:
                raise BadOption(f"unknown option {key!r} for struggle "
                                f"(known: {', '.join(sorted(known))})")
        scenarios = self.data.scenarios
        if str(scenario) not in scenarios:
            raise BadOption(f"unknown scenario {scenario!r} for struggle "
                            f"(known: {', '.join(scenarios)})")
        sc = scenarios[str(scenario)]
        sweep = sc.get("mode") == "sweep"
        if sweep:
            base_id = str(options.get("base", sc.get("default_base", "1")))
            if base_id not in scenarios or scenarios[base_id].get("mode") == "sweep":
                raise BadOption(f"option base must name scenario 1-6, not {base_id!r}")
            base = scenarios[base_id]
        else:
            if "base" in options:
                raise BadOption("option base only applies to scenario 7 (Sweep of Empire)")
            base = sc
        max_turns = parse_int("max_turns", options.get("max_turns", 40), 1, MAX_TURNS_LIMIT)
        everything = parse_bool("all", options.get("all", False))
        toggles = {}
        for key in OPTION_HELP:
            toggles[key] = parse_bool(key, options[key]) if key in options else everything
        for key in base.get("required_options") or []:
            if key in options and not toggles[key]:
                raise BadOption(f"scenario {base['id']} requires the optional rule {key}")
            toggles[key] = True   # SGE-SEQ-19: forced on
        return toggles, base, sweep, max_turns

    # ------------------------------------------------------------------ interface
    def setup(self, scenario: str, seed: int, options: dict | None = None) -> dict:
        toggles, base, sweep, max_turns = self.normalize_options(str(scenario), options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOption(f"the seed must be a whole number, not {seed!r}")
        state = setup.new_state(self.data, self.data.scenarios[str(scenario)], base, seed,
                                toggles, sweep, max_turns)
        state["rng"] = Rng.from_seed(seed).to_json()
        return state

    def context(self, state: dict) -> Ctx:
        """A new context on ``state``."""
        return Ctx(state, self.data)

    def new_cache(self) -> StruggleCache:
        return StruggleCache(self.data)

    def context_for(self, state: dict, cache: StruggleCache | None = None) -> Ctx:
        return cache.context(state) if cache is not None else Ctx(state, self.data)

    def wrong_role_reason(self, pending: dict, role: str) -> str:
        return f"it is not the {role} player's decision"

    def check_action(self, state: dict, role: str, action: Any,
                     cache: StruggleCache | None = None) -> str | None:
        # The fast path: the very action the program's player chose and knew to be legal.
        if cache is not None and cache.vouched(state, action):
            return None
        return super().check_action(state, role, action, cache=cache)

    def verdict(self, ctx: Ctx, pending: dict, action: dict) -> str | None:
        if action["verb"] == ADJUST:
            return adjustment_reason(ctx, action)
        return super().verdict(ctx, pending, action)

    def apply(self, state: dict, role: str, action: dict, copy: bool = True,
              cache: StruggleCache | None = None) -> dict:
        """As the base, but a manual adjustment changes the position directly and the
        prompt keeps waiting."""
        if not (isinstance(action, dict) and action.get("verb") == ADJUST):
            return super().apply(state, role, action, copy=copy, cache=cache)
        reason = self.check_action(state, role, action, cache=cache)
        if reason is not None:
            raise IllegalAction(reason)
        new = clone(state) if copy else state
        adjust(self.context_for(new, cache), action)
        return new

    def warm_up(self) -> None:
        """Load and check everything the rules read, the galaxy's derived graph included,
        so that the first game played does not pay for it (simulate calls this)."""
        self.data.data_digest
        self.data.galaxy

    def view(self, state: dict, role: str = "imperial") -> dict:
        """Everything the player may see. The cup's contents are hidden: only its size."""
        cache = self.new_cache()    # one context for every read below
        ctx = cache.context(state)
        hidden = {"pool", "rng", "stack", "expedition_cup", "system_pool"}
        board = {k: v for k, v in state.items() if k not in hidden}
        board["pool_count"] = len(state["pool"])
        board["system_pool_count"] = len(state["system_pool"])
        board["expedition_cup_count"] = len(state["expedition_cup"])
        board["ci"] = ctx.ci
        board["vp"] = ctx.vp()
        board["legal_actions"] = self.legal_actions(state, role, cache=cache)
        return board

    # ------------------------------------------------------------------ players
    policies = ("bot", "strong", "random")
    #: The in-game hint asks the stronger player (search.py): it decides well within a second.
    hint_policy = "strong"
    chart_tracks = ("ci", "vp", "rp")
    chart_marks = ("leader", "alien", "usurpation")
    outcome_order = ("galactic", "expanding", "survival", "decline", "collapse")

    def choose_action(self, state: dict, role: str, policy: str, rng: Rng,
                      cache: StruggleCache | None = None) -> dict:
        """The action the program would take for ``role``: ``bot`` is the Imperial bot
        (bot.py), ``strong`` the stronger Imperial player (search.py), ``random`` a uniform
        choice among the legal actions drawn from ``rng`` (a generator of the caller's, never
        the game's own). With a session's ``cache`` the choice is vouched for, so the
        session's ``apply`` does not check it again."""
        if policy not in self.policies:
            raise BadOption(f"unknown policy {policy!r} (known: {', '.join(self.policies)})")
        kept = cache if cache is not None else self.new_cache()
        if policy == "random":
            legal = self.legal_actions(state, role, cache=kept)
            action = legal[rng.below(len(legal))]
            known_legal = True
        elif policy == "strong":
            action, known_legal = search.choose(self, state, role, rng, kept)
        else:
            action, known_legal = bot.choose(self, state, role, rng, kept)
        if known_legal and cache is not None:
            cache.vouch(state, action)
        return action

    def tracks(self, state: dict) -> dict:
        """CI, RP, VP and counts for turn lines and summaries."""
        return turn.tracks(self.context(state))

    # ------------------------------------------------------------------ for the window
    # What the desktop client draws, as plain data: presentation.py, through the base's
    # map_layout, board, describe_action, preview and log_entries. It reads the state only;
    # the window changes the game through Session.perform like everyone else.
    def drop_action(self, state: dict, piece_id: str, sector: int,
                    free: bool = False) -> dict | None:
        """What dropping ``piece_id`` on ``sector`` asks of the rules now, for the window to
        learn why a drop is refused: a free-placement adjustment (``free``), else the move or
        the placement the waiting prompt takes; None when it takes neither."""
        if free:
            return {"verb": "adjust", "unit": piece_id, "to": sector}
        verbs = {a["verb"] for a in self.legal_actions(state, "imperial")}
        if "move" in verbs:
            return {"verb": "move", "unit": piece_id, "to": sector}
        if "place" in verbs:
            return {"verb": "place", "unit": piece_id, "at": sector}
        return None

    def purchase_cost(self, state: dict, action: dict) -> int | None:
        """The RP a recruitment purchase would take now, worked out by making it on a copy of
        the position (so every price rule and event counts); None if it is not legal now."""
        try:
            after = self.advance(self.apply(state, "imperial", action, copy=True))
        except StruggleError:
            return None
        return int(state["rp"]) - int(after["rp"])
