"""Noble Houses behind the game-module interface (ARCHITECTURE.md section 2).

Two to four houses, the roles ``A`` to ``D`` (seat 1 is A). Every decision is a prompt for one
house; everything is public (NH-SIM-1) except the declarations of a simultaneous step (nuke
launches, sacrifices) until every house involved has made them (NH-SIM-2).

>>> from struggle_desktop.games.nobles import GAME
>>> state = GAME.advance(GAME.setup("standard", seed=3, options={"houses": 3}))
>>> sorted(state["houses"]), len(state["worlds"]), len(state["units"])
(['A', 'B', 'C'], 24, 0)
>>> state["pending"]["kind"], state["pending"]["role"]      # house A picks its homeworld first
('homeworld', 'A')
"""

from __future__ import annotations

from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import BadOption
from struggle_desktop.engine.flowgame import FlowGame
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.nobles import combat, turn  # noqa: F401 (they register procedures)
from struggle_desktop.games.nobles.context import Ctx
from struggle_desktop.games.nobles.data import NoblesData, default_data
from struggle_desktop.games.nobles.mapgen import check_settings
from struggle_desktop.games.nobles.registry import RULES
from struggle_desktop.games.nobles.setup import empty_state

RULES_VERSION = "nh-rules-1"
ROLES = ("A", "B", "C", "D")
PLAYERS = ("human", "ai")
DIFFICULTIES = ("easy", "normal", "hard")
#: A seat's level that follows ``ai_difficulty`` (every program house's level).
SAME_LEVEL = "same"
#: A seat-only level (issue 28): a house that recruits and garrisons and never attacks
#: (games/nobles/ai_passive.py), for measuring that a house which only waits loses.
PASSIVE_LEVEL = "passive"
TERRAIN = ("obstacles", "jump_stations", "empty_systems", "stargate_pairs")


def _int(key: str, value: Any, low: int, high: int) -> int:
    try:
        number = int(str(value).strip())
    except ValueError:
        raise BadOption(f"option {key} takes a whole number, not {value!r}") from None
    if isinstance(value, bool) or not low <= number <= high:
        raise BadOption(f"option {key} must be from {low} to {high}, not {value!r}")
    return number


class NoblesGame(FlowGame):
    id = "nobles"
    title = "Noble Houses"
    roles = ROLES
    rules_version = RULES_VERSION
    rules = RULES
    presentation = "struggle_desktop.games.nobles.presentation"
    #: ``bot-vs-random``: house A is the program house, every other seat plays at random
    #: (docs/balance.md measures the program against random play with it).
    policies = ("bot", "random", "bot-vs-random")
    chart_tracks = ("*.income",)

    #: The fuzzer's option sets (tools/fuzz.py): every seat played, a short limit (random
    #: play never conquers), and a crowded map with the variants.
    fuzz_option_sets = {
        "h2": {"houses": 2, "seat1": "ai", "turn_limit": 10},
        "h3": {"houses": 3, "seat1": "ai", "turn_limit": 10},
        "h4": {"houses": 4, "seat1": "ai", "turn_limit": 10},
        "terrain": {"houses": 4, "seat1": "ai", "turn_limit": 10, "obstacles": 6,
                    "jump_stations": 3, "empty_systems": 3, "stargate_pairs": 1,
                    "jump_range": 4, "upkeep_divisor": 5},
    }

    invariants_module = "struggle_desktop.games.nobles.invariants"
    catalog_module = "struggle_desktop.games.nobles.catalog"
    data: NoblesData   # the base's, loaded on first use
    load_data = staticmethod(default_data)

    # ------------------------------------------------------------------ catalogue
    def scenarios(self) -> list[dict]:
        return [{"id": sid, "title": sc["title"], "rule": sc["rule"], "required_options": [],
                 "description": sc["description"], "turns": None}
                for sid, sc in self.data.scenarios.items()]

    def options(self) -> dict[str, dict]:
        sc = self.data.scenario()["options"]
        opts: dict[str, dict] = {
            "houses": {"type": "choice", "default": sc["houses"]["default"],
                       "choices": list(range(sc["houses"]["min"], sc["houses"]["max"] + 1)),
                       "rule": "NH-SETUP-1", "help": "how many noble houses play"}}
        seats = sc["seats"]["default"]
        for i, letter in enumerate(ROLES):
            opts[f"seat{i + 1}"] = {
                "type": "choice", "default": seats[i] if i < len(seats) else "ai",
                "choices": list(PLAYERS), "rule": "NH-SIM-3",
                "help": f"who plays house {letter} (seat {i + 1}): a person or the program"}
        opts["jump_range"] = {"type": "choice", "default": sc["jump_range"]["default"],
                              "choices": sc["jump_range"]["choices"], "rule": "NH-MOV-6",
                              "help": "hexes a jumpship may move"}
        opts["upkeep_divisor"] = {"type": "choice", "default": sc["upkeep_divisor"]["default"],
                                  "choices": sc["upkeep_divisor"]["choices"], "rule": "NH-UPK-2",
                                  "help": "units per Solat of upkeep (5: higher upkeep)"}
        opts["turn_limit"] = {"type": "int", "default": 0, "min": 0, "max": 10_000,
                              "rule": "NH-VIC-5",
                              "help": "end the game after this many turns (0: no limit; games "
                                      "without a human seat stop after "
                                      f"{sc['turn_limit']['unattended']})"}
        opts["ai_difficulty"] = {"type": "choice", "default": sc["ai_difficulty"]["default"],
                                 "choices": list(DIFFICULTIES), "rule": "NH-AI-14",
                                 "help": "how well the program houses play"}
        for i, letter in enumerate(ROLES):
            opts[f"level{i + 1}"] = {
                "type": "choice", "default": SAME_LEVEL,
                "choices": [SAME_LEVEL, *DIFFICULTIES, PASSIVE_LEVEL], "rule": "NH-AI-14",
                "help": f"how well the program plays house {letter} (seat {i + 1}), if it "
                        f"does; {SAME_LEVEL}: as ai_difficulty says; {PASSIVE_LEVEL}: "
                        f"recruits and garrisons, never attacks"}
        size = sc["map_size"]
        for key in ("width", "height"):
            opts[key] = {"type": "int", "default": size["default"][0 if key == "width" else 1],
                         "min": size["min"], "max": size["max"], "rule": "NH-OPT-3",
                         "help": f"map {key} in hexes"}
        for key, row in self.data.map_settings["settings"].items():
            opts[key] = {"type": "int", "default": row["default"], "min": row["min"],
                         "max": row["max"], "rule": "NH-MAP-16", "help": row["label"]}
        return opts

    def normalize_options(self, scenario: str, options: dict | None) -> dict:
        """Check the scenario and options; return the stored option values."""
        options = dict(options or {})
        known = self.options()
        for key in options:
            if key not in known:
                raise BadOption(f"unknown option {key!r} for nobles "
                                f"(known: {', '.join(known)})")
        if str(scenario) not in self.data.scenarios:
            raise BadOption(f"unknown scenario {scenario!r} for nobles "
                            f"(known: {', '.join(self.data.scenarios)})")
        values: dict[str, Any] = {}
        for key, spec in known.items():
            raw = options.get(key, spec["default"])
            if spec["type"] == "choice":
                choices = spec["choices"]
                match = [c for c in choices if str(c) == str(raw).strip().lower()]
                if not match:
                    raise BadOption(f"option {key} takes {', '.join(map(str, choices))}, "
                                    f"not {raw!r}")
                values[key] = match[0]
            else:
                values[key] = _int(key, raw, spec["min"], spec["max"])
        houses = values["houses"]
        stored = {
            "houses": houses,
            "seats": [values[f"seat{i + 1}"] for i in range(houses)],
            "jump_range": values["jump_range"],
            "upkeep_divisor": values["upkeep_divisor"],
            "turn_limit": values["turn_limit"] or None,
            "ai_difficulty": values["ai_difficulty"],
            "map_size": [values["width"], values["height"]],
        }
        levels = [values["ai_difficulty"] if values[f"level{i + 1}"] == SAME_LEVEL
                  else values[f"level{i + 1}"] for i in range(houses)]
        if any(level != values["ai_difficulty"] for level in levels):
            # Only then: a game with every program house at one level stores what it always
            # stored, so its saves and digests stay as they were.
            stored["levels"] = levels
        try:
            stored["terrain"] = check_settings({k: values[k] for k in TERRAIN})
        except ValueError as exc:
            raise BadOption(str(exc)) from None
        return stored

    def simulation_options(self, options: dict) -> dict:
        """``simulate`` lets the program play every seat (NH-SIM-3), so the unattended turn
        limit applies unless one is given (NH-VIC-6)."""
        options = dict(options)
        for i in range(len(ROLES)):
            options.setdefault(f"seat{i + 1}", "ai")
        return options

    def players(self, state: dict) -> dict[str, str]:
        """Who plays each house: ``human`` or ``ai``."""
        return {letter: h["player"] for letter, h in state["houses"].items()}

    # ------------------------------------------------------------------ interface
    def setup(self, scenario: str, seed: int, options: dict | None = None) -> dict:
        stored = self.normalize_options(str(scenario), options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOption(f"the seed must be a whole number, not {seed!r}")
        state = empty_state(self.data, stored, seed)
        state["rng"] = Rng.from_seed(seed).to_json()
        return state

    def context(self, state: dict, rng=None) -> Ctx:
        return Ctx(state, RULES.procedures, self.data, rng=rng)

    def view(self, state: dict, role: str, with_log: bool = True) -> dict:
        """What ``role`` may see: everything (NH-SIM-1; the whole map and the seed, NH-MAP-19)
        but the procedure stack, where the declarations of a simultaneous step wait until all
        are made (NH-SIM-2), and the generator. ``legal_actions`` are ``role``'s."""
        view = {k: clone(v) for k, v in state.items()
                if k not in ("stack", "rng", "log") or (k == "log" and with_log)}
        view["role"] = role
        view["legal_actions"] = self.legal_actions(state, role)
        return view

    def imagined_state(self, state: dict, role: str, seed: int) -> dict:
        """The position as house ``role`` may know it: the other houses' pending secret
        declarations set aside, to be made again (games/nobles/imagine.py)."""
        from struggle_desktop.games.nobles.imagine import imagined_state

        return imagined_state(self, state, role, seed)

    # ------------------------------------------------------------------ players
    def choose_action(self, state: dict, role: str, policy: str, rng: Rng,
                      cache=None) -> dict:
        """The program house's action for ``role``, decided from ``view(state, role)``
        (NH-AI-1): ``bot`` follows section 20 of the rules at the game's difficulty,
        ``random`` draws a legal action with ``rng`` (never the game's generator, NH-AI-2)."""
        if policy not in self.policies:
            raise BadOption(f"unknown policy {policy!r} (known: {', '.join(self.policies)})")
        if policy == "bot-vs-random":
            policy = "bot" if role == "A" else "random"
        view = self.view(state, role, with_log=False)
        legal = view["legal_actions"]
        if policy == "random":
            return legal[rng.below(len(legal))]
        from struggle_desktop.games.nobles import ai

        return ai.choose(self, view, role, rng)

    def tracks(self, state: dict) -> dict:
        """Per house: worlds, income, Solats and units (for logs and the final line)."""
        return turn.tracks(self.context(state))

    # ------------------------------------------------------------------ for the window
    def wrong_role_reason(self, pending: dict, role: str) -> str:
        return f"it is house {pending['role']}'s decision, not house {role}'s"

    def refusal(self, ctx, pending: dict, action: dict) -> str:
        """Why a jump is not possible now, in the rules' terms; other answers as the base."""
        reason = turn.jump_refusal(ctx, pending, action) if action.get("verb") == "jump" \
            else None
        return reason or super().refusal(ctx, pending, action)

    def opponent(self, role: str) -> str:
        return next(r for r in ROLES if r != role)
