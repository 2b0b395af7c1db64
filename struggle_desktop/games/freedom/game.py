"""Freedom in the Galaxy missions behind the game-module interface (ARCHITECTURE.md section 2).

Scenarios are ``scenarios/freedom/*.yaml`` (``schemas/scenario.schema.yaml``): ``id``,
``title``, ``kind``, ``description`` and a ``context`` the mode checks itself (FIG-GEN-7).

- ``mission-phase`` (Part A, this package's resolver.py): the Mission Phase of one environs.
- ``chit-mug`` and ``events-deck`` (Parts B and C) live in ``chits.py`` and ``deck.py``,
  imported when a scenario of that kind is set up or played. A mode module provides
  ``new_state(data, scenario, options, seed) -> state`` (the common keys of context.py; ``rng``
  is filled in here if it is left out), registers its procedures and prompts on
  ``registry.RULES`` (run on ``context.ModeContext``), and provides ``OPTIONS`` (its own
  options, offered for its scenarios only) with ``option_values(options)``, ``redact(state,
  role)`` for a role's view, and ``choose(state, view, role, legal_actions, policy, rng)`` for
  the program's player.

Roles: in the two Mission-phase modes ``phasing`` (the player whose Mission phase it is) and
``enemy`` (the other player: he enters the results of fights, patrols and searches,
FIG-HOOK); in the events deck the two sides, ``rebel`` and ``imperial`` (FIG-EVT).
``outcome(state)`` is None until the environs is resolved; then ``{"result": a short label of
each group's level, "changes": the report of FIG-MIS-24, "turn": the steps played}``. The
report itself is ``state["outcome"]``.

>>> from struggle_desktop.games.freedom import GAME
>>> state = GAME.advance(GAME.setup("a1", seed=1))
>>> state["pending"]["kind"], state["pending"]["role"], GAME.outcome(state)
('call_off', 'phasing', None)
"""

from __future__ import annotations

import importlib
from typing import Any

from struggle_desktop.engine.canonical import clone
from struggle_desktop.engine.errors import BadOption, DataError, IllegalAction, excerpt
from struggle_desktop.engine.flowgame import FlowGame
from struggle_desktop.engine.options import parse_bool
from struggle_desktop.engine.rng import Rng
from struggle_desktop.engine.data import read_yaml
from struggle_desktop.games.freedom import environs, events, foes, missions, resolver  # noqa: F401
from struggle_desktop.games.freedom import chits_data, deck_data
from struggle_desktop.games.freedom.context import RATINGS, ROLES, Ctx, ModeContext, other
from struggle_desktop.games.freedom.data import MISSION_LETTERS, FreedomData, default_data
from struggle_desktop.games.freedom.registry import RULES

RULES_VERSION = "fig-rules-1"
KINDS = ("mission-phase", "chit-mug", "events-deck")
#: The module of each mode (FIG-GEN-7); Part A is always here.
MODE_MODULES = {"chit-mug": "struggle_desktop.games.freedom.chits",
                "events-deck": "struggle_desktop.games.freedom.deck"}
#: The events deck's roles (deck.SIDES), named here so the game's roles are known without
#: importing the mode.
DECK_SIDES = ("rebel", "imperial")
OPPONENTS = {"phasing": "enemy", "enemy": "phasing", "rebel": "imperial", "imperial": "rebel"}
#: The order in which the simple player forms groups: missions that help most and risk least
#: first; the orbit box's two missions before anything else.
SIMPLE_MISSIONS = "JQDIHSFCBPTERA"


def mode_module(kind: str):
    """The module of a Part B or C mode (imported on first use)."""
    return importlib.import_module(MODE_MODULES[kind])



def _kind_of(value: Any) -> str:
    """What a value is, in words, without quoting it."""
    if isinstance(value, str):
        return "a line of text" if "\n" not in value.strip() else "lines of text"
    if isinstance(value, list):
        return "a list"
    return "a single value" if value is not None else "an empty document"

class FreedomGame(FlowGame):
    id = "freedom"
    title = "Freedom in the Galaxy missions"
    #: Part A and B prompts go to ``phasing``/``enemy``, Part C prompts to the two sides.
    roles = ROLES + DECK_SIDES
    rules_version = RULES_VERSION
    rules = RULES
    presentation = "struggle_desktop.games.freedom.presentation"
    #: ``simple`` answers every prompt with a fixed, sensible choice (FIG-HOOK-7's default
    #: responder for the players' results); ``bot`` is the same player under the name the
    #: command line uses by default.
    policies = ("simple", "random", "bot")

    data: FreedomData   # the base's, loaded on first use
    load_data = staticmethod(default_data)

    # ------------------------------------------------------------------ catalogue
    def scenarios(self) -> list[dict]:
        out = []
        for sid, sc in self.data.scenarios.items():
            out.append({"id": str(sid), "title": sc["title"], "kind": sc["kind"],
                        "required_options": [], "description": " ".join(
                            sc["description"].split()), "rules": list(sc.get("rules", [])),
                        "turns": None})
        return out

    def options(self) -> dict[str, dict]:
        """Part A's options, then those of the other modes present (each applies only to its
        own kind of scenario)."""
        opts = self.mission_options()
        for kind in MODE_MODULES:
            module = mode_module(kind)
            for key, spec in module.OPTIONS.items():
                opts[key] = dict(spec, kind=kind)
        return opts

    def mission_options(self) -> dict[str, dict]:
        return {
            "recruit_choice": {"type": "choice", "default": "random", "kind": "mission-phase",
                               "choices": ["random", "chosen"], "rule": "FIG-REC-4",
                               "help": "the new recruit is drawn at random, or chosen by the "
                                       "phasing player"},
            "continue_steps_when_idle": {"type": "bool", "default": False, "rule": "FIG-MIS-17",
                                         "kind": "mission-phase",
                                         "help": "play every step even when no group is left "
                                                 "active"},
            "context": {"type": "context", "default": None, "kind": "mission-phase",
                        "rule": "FIG-CTX-13", "from_file": True,
                        "help": "scenario custom only: the environs, as a YAML file like a "
                                "scenario's context (the window's New Environs form fills it "
                                "in; without it, custom plays its example environs)"},
        }

    def normalize_options(self, scenario: str, options: dict | None) -> dict:
        """Check the scenario and options; return the stored option values."""
        options = dict(options or {})
        known = self.options()
        for key in options:
            if key not in known:
                raise BadOption(f"unknown option {key!r} for freedom "
                                f"(known: {', '.join(known)})")
        ids = [s["id"] for s in self.scenarios()]
        if str(scenario) not in ids:
            raise BadOption(f"unknown scenario {scenario!r} for freedom (known: "
                            f"{', '.join(ids)})")
        kind = self.data.scenarios[str(scenario)]["kind"]
        for key in options:
            if known[key]["kind"] != kind:
                raise BadOption(f"option {key} applies only to {known[key]['kind']} scenarios, "
                                f"not to {scenario} ({kind})")
        if kind != "mission-phase":
            return mode_module(kind).option_values(options)
        choice = str(options.get("recruit_choice", "random")).strip().lower()
        if choice not in known["recruit_choice"]["choices"]:
            raise BadOption(f"option recruit_choice takes random or chosen, not "
                            f"{options['recruit_choice']!r}")
        values = {"recruit_choice": choice,
                  "continue_steps_when_idle": parse_bool(
                      "continue_steps_when_idle", options.get("continue_steps_when_idle", False))}
        if self.data.scenarios[str(scenario)].get("context_from_option"):
            if options.get("context") is not None:      # else the scenario's own example
                values["context"] = self._context_option(options["context"])
        elif options.get("context") is not None:
            raise BadOption(f"option context applies only to scenario custom, not to {scenario}")
        return values

    def _context_option(self, value: Any) -> dict:
        """Scenario custom's environs (FIG-CTX): a context document, checked here so that a
        bad one is refused before play with the field it gets wrong (FIG-CTX-13). The
        document itself is what is kept (and saved).

        A file name is never accepted here: options also come from save files, and a save
        must not make the program read a file of the player's. The command line reads the
        file the person names (``--option context=FILE.yaml``) and passes its document."""
        if not isinstance(value, dict):
            # Its type only: the value may be a whole file of the player's that is not an
            # environs file at all, and a message has no business quoting it.
            raise BadOption(f"option context must be an environs document (a mapping of "
                            f"fields), not {_kind_of(value)}")
        try:
            environs.normalize(value, self.data, "option context")
        except DataError as exc:          # the schema's message or a ContextError naming a field
            raise BadOption(str(exc)) from None
        return clone(value)

    # ------------------------------------------------------------------ interface
    def setup(self, scenario: str, seed: int, options: dict | None = None) -> dict:
        values = self.normalize_options(str(scenario), options)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise BadOption(f"the seed must be a whole number, not {seed!r}")
        sc = self.data.scenarios[str(scenario)]
        if sc["kind"] != "mission-phase":
            state = mode_module(sc["kind"]).new_state(self.data, sc, values, seed)
            state.setdefault("seed", seed)
            if state.get("rng") is None:
                state["rng"] = Rng.from_seed(seed).to_json()
            return state
        source = f"scenario {sc['id']}: context"
        if sc.get("context_from_option") and "context" in values:
            raw = values["context"]
        elif sc.get("generated"):
            raw = environs.random_context(seed, self.data)
        else:
            raw = sc["context"]
        env = environs.normalize(raw, self.data, source)
        state = resolver.new_state(self.data, sc, env, seed, values, Rng.from_seed(seed))
        self._check_assignment(state, sc["title"])
        return state

    def _check_assignment(self, state: dict, title: str) -> None:
        """A scenario's own assignment must meet its missions' requirements (FIG-MIS-4) as
        far as they can be checked before play (a recruit or a rating may still change it).
        The refusal is in a player's words: the environs (by its scenario's title), the group
        by its number, mission and leader, and the requirement it breaks."""
        given = state["environs"]["assignment"]
        if not given:
            return
        ctx = Ctx(state, RULES.procedures, self.data, dice=False)
        groups = [missions.new_group(g["mission"], g.get("leader"), g.get("members", ()),
                                     g.get("performer"), g.get("target"), g.get("ship"),
                                     g.get("torture", False)) for g in given]
        for i, g in enumerate(groups):
            problem = missions.group_problem(ctx, g, groups[:i])
            if problem:
                raise environs.ContextError(f"{title}: group {i + 1} ({self._group_words(g)}) "
                                            f"is refused: {problem} (FIG-MIS-4)")

    def _group_words(self, group: dict) -> str:
        """``D (Diplomacy), led by Vudot Vodot``: a pre-set group as the players know it."""
        letter = group["mission"]
        try:
            mission = f"{letter} ({self.data.mission(letter).name})"
        except KeyError:
            mission = str(letter)
        who = (f"performed by {group['performer']}" if group.get("performer")
               else f"led by {group.get('leader')}")
        return f"{mission}, {who}"

    def context(self, state: dict, dice=None) -> Ctx:
        kind = state.get("kind", "mission-phase")
        if kind != "mission-phase":
            mode_module(kind)                  # its procedures are registered on import
            return ModeContext(state, RULES.procedures, self.data, rng=dice)
        return Ctx(state, RULES.procedures, self.data, dice=dice)

    def game_over_reason(self) -> str:
        return "the Mission phase of this environs is over"

    def wrong_role_reason(self, pending: dict, role: str) -> str:
        return (f"the {pending['role']} player decides this ({pending['text']}), not the "
                f"{role} player")

    def refusal(self, ctx: Ctx, pending: dict, action: dict) -> str:
        if pending["kind"] == "assign" and action.get("verb") in ("form", "join"):
            return self._assignment_reason(ctx, action)
        return super().refusal(ctx, pending, action)

    def _assignment_reason(self, ctx: Ctx, action: dict) -> str:
        """Why a group cannot be formed or joined (FIG-MIS-4: the unmet requirement)."""
        draft = ctx.state["draft"]
        try:
            if action["verb"] == "form":
                group = resolver.group_from_action(action)
                problem = missions.group_problem(ctx, group, draft)
            else:
                group = next(g for g in draft if g["id"] == action["group"])
                trial = dict(group, members=group["members"] + [action["character"]])
                problem = missions.group_problem(ctx, trial, [g for g in draft if g is not group])
                if problem is None and action["character"] in {m for g in draft
                                                               for m in g["members"]}:
                    problem = f"{action['character']} is already in a group"
        except (KeyError, StopIteration, ValueError, TypeError):
            problem = "the group or a name in it does not exist"
        return f"refused: {problem or 'not a legal assignment now'} (FIG-MIS-4)"

    def outcome(self, state: dict) -> dict | None:
        report = state.get("outcome")
        if report is None:
            return None
        if state.get("kind", "mission-phase") != "mission-phase":
            return {"result": "resolved", "changes": report, "turn": state.get("turn", 0)}
        return {"result": resolver.result_summary(state), "changes": report,
                "turn": state.get("turn", 0)}

    def view(self, state: dict, role: str, with_log: bool = True) -> dict:
        """What ``role`` may see: the whole position (the players enter it together at the
        table) but the procedure stack and the generator; ``legal_actions`` are ``role``'s."""
        kind = state.get("kind", "mission-phase")
        source = state if kind == "mission-phase" else mode_module(kind).redact(state, role)
        view = {k: clone(v) for k, v in source.items()
                if k not in ("stack", "rng", "log") or (k == "log" and with_log)}
        view["role"] = role
        view["legal_actions"] = self.legal_actions(state, role)
        return view

    def imagined_state(self, state: dict, role: str, seed: int) -> dict:
        """The position as side ``role`` may know it: in the events deck, the other side's
        hidden cards and the unseen decks dealt anew (games/freedom/imagine.py)."""
        from struggle_desktop.games.freedom.imagine import imagined_state

        return imagined_state(self, state, role, seed)

    # ------------------------------------------------------------------ players
    def choose_action(self, state: dict, role: str, policy: str, rng: Rng,
                      cache=None) -> dict:
        """The program's answer for ``role``: ``simple`` (and ``bot``) gives a fixed, sensible
        answer per prompt kind (never call off, the default responder for hooks, no mulligans,
        roll on to the maximum useful level); ``random`` draws a legal action with ``rng``
        (never the game's generator)."""
        if policy not in self.policies:
            raise BadOption(f"unknown policy {policy!r} (known: {', '.join(self.policies)})")
        kind = state.get("kind", "mission-phase")
        view = self.view(state, role, with_log=False) if kind != "mission-phase" else None
        legal = view["legal_actions"] if view is not None else self.legal_actions(state, role)
        if not legal:
            raise IllegalAction(f"nothing waits for the {role} player")
        if kind != "mission-phase":
            mode_policy = "random" if policy == "random" else "simple"
            return mode_module(kind).choose(state, view, role, legal, mode_policy, rng)
        if policy == "random":
            return legal[rng.below(len(legal))]
        return simple_choice(self.context(state), state["pending"], legal)

    def suppression_roll(self, state: dict, af: int, leadership: int = 0, dice=None) -> list[str]:
        """FIG-MSN-16: the separate roll, outside the Mission phase, in which unopposed
        Imperial ground units try to remove the Rebel cells and camps of a Part A state's
        environs; it changes the state in place, logs the rolls and returns the ids removed."""
        ctx = self.context(state, dice=dice)
        try:
            return missions.suppression_roll(ctx, af, leadership)
        finally:
            ctx.close()

    def invariants(self, state: dict) -> list[str]:
        """What must hold in any Part A position (the fuzzers check it after every action)."""
        if state.get("kind", "mission-phase") != "mission-phase":
            return []
        return invariant_problems(state)

    def tracks(self, state: dict) -> dict:
        """The planet and the groups, for simulation logs."""
        if state.get("kind", "mission-phase") != "mission-phase":
            return {}
        env = state["environs"]
        return {"planet_state": env["planet_state"], "loyalty": env["loyalty"],
                "groups": resolver.result_summary(state), "steps": state["steps"]}

    def catalog(self) -> dict:
        from struggle_desktop.engine.catalog import (catalog_header, load_rule_list,
                                                     rule_ids_section, rule_list_path,
                                                     table_entries)

        data = self.data
        return {
            **catalog_header(self),
            "policies": list(self.policies),
            "units": [],
            "missions": [{"letter": m.letter, "name": m.name, "sides": list(m.sides),
                          "bonus_only": m.bonus_only, "summary": m.summary}
                         for m in data.missions.values()],
            "creatures": [{"rule": c.rule, "name": c.name, "kind": c.kind, "af": c.af,
                           "ef": c.ef} for c in data.creatures.values()],
            "races": [{"name": r.name, "af": r.af, "ef": r.ef} for r in data.races.values()],
            "tables": table_entries(data.tables),
            "overrides": dict(data.tables.overrides),
            "warnings": list(data.warnings),
            "rule_ids": rule_ids_section(load_rule_list(rule_list_path(self.id))),
        }

    def opponent(self, role: str) -> str:
        return OPPONENTS[role]

    # ------------------------------------------------------------------ the window's reads
    # The Freedom screens (the New Environs form, the chit and deck panels) ask these, so
    # that the window never imports a rules module of this game.

    #: The Part A mission letters in chart order, and those whose group needs a target.
    mission_letters = MISSION_LETTERS
    targeted_missions = missions.TARGETED
    #: A character's ratings besides his hits, in the order the form shows them.
    ratings = RATINGS

    @staticmethod
    def other_side(side: str) -> str:
        return other(side)

    def environs_schema(self) -> dict:
        """The schema of an environs (a scenario's ``context``): the form offers its values."""
        return read_yaml(environs.SCHEMA)

    def chit_tables(self):
        """The checked Part B tables of this game's data (house rules included)."""
        return chits_data.chit_tables(self.data)

    def deck_tables(self):
        """The checked Part C tables of this game's data (house rules included)."""
        return deck_data.deck_tables(self.data)

    @staticmethod
    def describe_roll(rolled: dict) -> str:
        """An event card's roll in words ("12, 14", "Ayal", "none")."""
        from struggle_desktop.games.freedom.deck import describe_roll

        return describe_roll(rolled)

    @staticmethod
    def form_group(record: dict) -> dict:
        """A group of the New Environs form (an ``assignment`` entry) as the engine holds it."""
        return missions.new_group(record["mission"], record.get("leader"),
                                  record.get("members", ()), record.get("performer"),
                                  record.get("target"), record.get("ship"),
                                  record.get("torture", False))

    @staticmethod
    def judge_group(probe: Ctx, group: dict, earlier: list[dict]) -> tuple[str, list]:
        """``group`` as the set-up would judge it (FIG-MIS-4) after the groups ``earlier``:
        why it is refused ("" if it is not) and the ratings the game will ask for. ``probe``
        is ``context()`` of the environs without its groups."""
        problem = missions.group_problem(probe, group, earlier)
        return problem or "", [] if problem else missions.missing_ratings(probe, group)

    @staticmethod
    def target_options(probe: Ctx, letter: str) -> list:
        return missions.target_options(probe, letter)

    @staticmethod
    def ship_options(probe: Ctx) -> list:
        return missions.ship_options(probe)

def simple_choice(ctx: Ctx, pending: dict, legal: list[dict]) -> dict:
    """The simple player's answer to a Part A prompt."""
    kind = pending["kind"]
    by_verb: dict[str, list[dict]] = {}
    for a in legal:
        by_verb.setdefault(a["verb"], []).append(a)
    if kind == "mulligan":
        return {"verb": "keep"}
    if kind == "call_off":
        return {"verb": "continue"}
    if kind == "bonus_roll":
        return {"verb": "roll"}
    if kind == "hook":
        return {"verb": "default"}
    if kind == "value":
        return {"verb": "enter", "value": missions.default_value(pending)}
    if kind == "assign":
        forms = by_verb.get("form", [])
        taken = {g["mission"] for g in ctx.state["draft"]}
        if forms:
            # One group per character, each on the first mission of SIMPLE_MISSIONS he may
            # lead; cells and camps after the characters.
            def rank(a: dict) -> tuple:
                return ("performer" in a, SIMPLE_MISSIONS.index(a["mission"]))
            best = min((a for a in forms if a["mission"] not in taken), key=rank, default=None)
            if best is not None:
                return best
        return {"verb": "done"}
    return legal[0]


def invariant_problems(state: dict) -> list[str]:
    problems = []
    env = state["environs"]
    names = [c["name"] for c in env["characters"]]
    if len(set(names)) != len(names):
        problems.append("a character is entered twice")
    seen: set[str] = set()
    for g in state["groups"]:
        if g["status"] not in ("active", "waiting", "aborted", "called_off"):
            problems.append(f"{g['id']}: unknown status {g['status']}")
        if g["level"] < 0 or g["rolled"] < 0:
            problems.append(f"{g['id']}: negative level or rolls")
        if g["status"] == "aborted" and g["level"]:
            problems.append(f"{g['id']}: an aborted group keeps levels")
        for m in g["members"]:
            if m in seen:
                problems.append(f"{m} is in two groups")
            seen.add(m)
            if m not in names:
                problems.append(f"{g['id']}: {m} is not a character here")
        if g["count"] is not None and g["rolled"] > g["count"]:
            problems.append(f"{g['id']}: rolled {g['rolled']} of {g['count']}")
    if env["planet_state"] == "loyalty" and env["loyalty"] not in (
            "patriotic", "loyal", "neutral", "dissent", "unrest"):
        problems.append(f"loyalty {env['loyalty']!r} is off the track")
    for side in ("rebel", "imperial"):
        if env["mulligans"][side] < 0:
            problems.append(f"the {side} side holds a negative number of mulligans")
    for c in env["characters"]:
        if c["hits"] < 0:
            problems.append(f"{c['name']} has negative hits")
    if state["turn"] > state["steps"]:
        problems.append(f"step {state['turn']} of {state['steps']}")
    return problems
