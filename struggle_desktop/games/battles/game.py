"""Battles for the Galactic Empire behind the game-module interface (ARCHITECTURE.md section 2).

Two roles, ``blue`` (Imperial) and ``red`` (Chaos). Every decision is a prompt for one role;
simultaneous secret steps (deployment, disengagement) are asked one player after the other and
kept out of the other player's ``view`` until both are made (BFG-HID-3).

>>> from struggle_desktop.games.battles import GAME
>>> state = GAME.advance(GAME.setup("civil-war", seed=1))
>>> state["pending"]["kind"], state["pending"]["role"]
('build', 'blue')
>>> view = GAME.view(state, "red")
>>> "hand" in view["players"]["blue"]
False
"""

from __future__ import annotations


from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.flowgame import FlowGame
from struggle_desktop.engine.options import parse_bool
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.battles import combat, turn  # noqa: F401 (they register procedures)
from struggle_desktop.games.battles.turn import chit_refusal
from struggle_desktop.games.battles.context import Ctx
from struggle_desktop.games.battles.data import BattlesData, default_data, other
from struggle_desktop.games.battles.registry import PROCEDURES, RULES

RULES_VERSION = "bfg-rules-1"
ROLES = ("blue", "red")          # BFG-COMP-1: exactly two players
#: Who may sit at a colour in the window (BFG-HID-1): a person or the program at one of its levels.
PLAYERS = ("human", "bot", "strong")
#: The options ``all=on`` switches on: the optional rules of seed section 11 and mixed value
#: chits; not the play settings (secrecy, open hands).
OPTIONAL_RULES = ("fire_main_weapon", "no_moon", "switcheroo", "switcheroo_d6", "better",
                  "mixed_chits")


class BattlesGame(FlowGame):
    id = "battles"
    title = "Battles for the Galactic Empire"
    roles = ROLES
    rules_version = RULES_VERSION
    rules = RULES
    presentation = "struggle_desktop.games.battles.presentation"
    #: ``strong-blue`` / ``strong-red``: the stronger level on one side, the baseline on the
    #: other (to measure one against the other).
    policies = ("bot", "strong", "random", "strong-blue", "strong-red")
    chart_tracks = ("ci", "regions_blue", "regions_red")
    outcome_order = ("blue", "red")

    invariants_module = "struggle_desktop.games.battles.invariants"
    catalog_module = "struggle_desktop.games.battles.catalog"
    data: BattlesData   # the base's, loaded on first use
    load_data = staticmethod(default_data)

    # ------------------------------------------------------------------ catalogue
    def scenarios(self) -> list[dict]:
        return [{"id": sid, "title": sc["title"], "rule": sc["rule"], "required_options": [],
                 "description": sc["description"], "turns": self.data.procedure["last_turn"],
                 "mode": sc["mode"]} for sid, sc in self.data.scenarios.items()]

    def options(self) -> dict[str, dict]:
        opts = {key: {"type": "bool", "default": row["default"], "help": row["label"],
                      "rule": row["rule"]} for key, row in self.data.option_rows.items()}
        opts["all"] = {"type": "bool", "default": False,
                       "help": "switch every optional rule on (" + ", ".join(OPTIONAL_RULES) + ")"}
        for side, default in (("blue", "human"), ("red", "bot")):
            opts[f"{side}_player"] = {
                "type": "choice", "default": default, "choices": list(PLAYERS),
                "help": f"who plays {side.capitalize()} in the window: a person, the program, "
                        "or the program's stronger level (simulate lets the program play both)"}
        opts["invader"] = {"type": "choice", "default": "red", "choices": list(ROLES),
                           "scenarios": ["invasion"],
                           "help": "Invasion: which colour invades (BFG-SCN-7)"}
        return opts

    def normalize_options(self, scenario: str, options: dict | None) -> tuple[dict, str]:
        """Check the scenario and options; return (option values, invading colour)."""
        options = dict(options or {})
        known = self.options()
        for key in options:
            if key not in known:
                raise BadOption(f"unknown option {key!r} for battles "
                                f"(known: {', '.join(sorted(known))})")
        if str(scenario) not in self.data.scenarios:
            raise BadOption(f"unknown scenario {scenario!r} for battles "
                            f"(known: {', '.join(self.data.scenarios)})")
        everything = parse_bool("all", options.get("all", False))
        values = {}
        for key, row in self.data.option_rows.items():
            default = True if (everything and key in OPTIONAL_RULES) else row["default"]
            values[key] = parse_bool(key, options[key]) if key in options else default
        sc = self.data.scenarios[str(scenario)]
        invader = str(options.get("invader", sc.get("default_invader", "red"))).lower()
        if invader not in ROLES:
            raise BadOption(f"option invader takes blue or red, not {options['invader']!r}")
        if "invader" in options and sc["mode"] != "invasion":
            raise BadOption("option invader only applies to the invasion scenario")
        for side in ROLES:
            who = str(options.get(f"{side}_player", "human")).lower()
            if who not in PLAYERS:
                raise BadOption(f"option {side}_player takes {', '.join(PLAYERS)}, not {who!r}")
        return values, invader

    def players(self, state: dict) -> dict[str, str]:
        """Who plays each colour in the window: ``human``, ``bot`` or ``strong``."""
        opts = state.get("seats") or {}
        return {side: opts.get(side, "human") for side in ROLES}

    # ------------------------------------------------------------------ interface
    def setup(self, scenario: str, seed: int, options: dict | None = None) -> dict:
        from struggle_desktop.games.battles.setup import new_state

        values, invader = self.normalize_options(str(scenario), options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOption(f"the seed must be a whole number, not {seed!r}")
        state = new_state(self.data, self.data.scenarios[str(scenario)], seed, values, invader)
        options = options or {}
        state["seats"] = {side: str(options.get(f"{side}_player",
                                                  self.options()[f"{side}_player"]["default"])).lower()
                            for side in ROLES}
        state["rng"] = Rng.from_seed(seed).to_json()
        return state

    def context(self, state: dict, rng=None) -> Ctx:
        return Ctx(state, PROCEDURES, self.data, rng=rng)

    def view(self, state: dict, role: str, with_log: bool = True) -> dict:
        """What ``role`` may see (BFG-HID-2, BFG-HID-3, BFG-HID-10): hands, set-aside chits,
        plans of deployment and pending secret answers of the other player are left out; only
        counts remain. ``role`` may also be ``"public"`` (the shared screen): both are hidden."""
        from struggle_desktop.games.battles.view import player_view

        return player_view(self, state, role, with_log=with_log)

    def imagined_state(self, state: dict, role: str, seed: int) -> dict:
        """A whole position imagined from ``role``'s view alone, the other player's hidden
        chits dealt anew and their unseen plan set aside (games/battles/imagine.py)."""
        from struggle_desktop.games.battles.imagine import imagined_state

        return imagined_state(self, state, role, seed)

    # ------------------------------------------------------------------ players
    def choose_action(self, state: dict, role: str, policy: str, rng: Rng,
                      cache=None) -> dict:
        """The program player's action for ``role``, decided from ``view(state, role)``
        only (BFG-HID-10): ``bot`` is the baseline of ai.py, ``strong`` the level that
        samples its deployment plans by playouts (ai.py), ``strong-blue``/``strong-red`` the
        strong level on one side and the baseline on the other, ``random`` a legal action
        drawn with ``rng`` (a generator of the caller's, never the game's)."""
        from struggle_desktop.games.battles import ai

        if policy not in self.policies:
            raise BadOption(f"unknown policy {policy!r} (known: {', '.join(self.policies)})")
        view = self.view(state, role, with_log=False)
        if policy == "random":
            legal = view["legal_actions"]
            return legal[rng.below(len(legal))]
        strong = policy == "strong" or policy == f"strong-{role}"
        return ai.choose(self, view, role, strong=strong, rng=rng)

    def tracks(self, state: dict) -> dict:
        return turn.tracks(self.context(state))

    # ------------------------------------------------------------------ for the window
    def wrong_role_reason(self, pending: dict, role: str) -> str:
        return f"it is {pending['role'].capitalize()}'s decision, not {str(role).capitalize()}'s"

    def refusal(self, ctx, pending: dict, action: dict) -> str:
        """Why a chit cannot be played, a region resolved, a fleet deployed or a firer given
        a target now, in the rules' terms; other answers (and what these do not explain) as
        the base."""
        explain = {"play": chit_refusal, "resolve": turn.resolve_refusal,
                   "assign": turn.deploy_refusal,
                   "target": combat.firer_refusal}.get(action.get("verb"))
        return ((explain(ctx, pending, action) if explain else None)
                or super().refusal(ctx, pending, action))

    def log_entries(self, state: dict, start: int = 0, role: str = "public") -> list[dict]:
        from struggle_desktop.games.battles.view import visible_log

        return visible_log(state["log"][start:], role, state["options"].get("open_hands"))

    def opponent(self, role: str) -> str:
        return other(role)
