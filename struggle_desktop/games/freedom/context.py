"""What the Part A resolver works with: the state's shape, the dice, and questions about the
environs (rules-freedom.md section 2).

The state is plain JSON data (ARCHITECTURE.md section 2). Keys common to the three Freedom modes
(FIG-GEN-7): ``game`` ("freedom"), ``scenario``, ``kind`` ("mission-phase" here), ``seed``,
``options``, ``rng`` (the PCG32 state), ``stack`` (procedure frames), ``pending`` (the prompt),
``log``, ``outcome`` (None until the environs is resolved, then the report list of FIG-MIS-24),
``turn`` and ``phase``. The Part A parts:

- ``turn``: the step being played (0 before the Mission Action segment; the last step after it);
  ``phase``: the segment (``recruitment``, ``assignment``, ``steps``, ``bonus``, ``failure``,
  ``resolution``, ``report``).
- ``environs``: the environs context (FIG-CTX-1, FIG-CTX-2, FIG-CTX-3, FIG-CTX-4, FIG-CTX-5,
  FIG-CTX-6, FIG-CTX-7, FIG-CTX-8, FIG-CTX-9, FIG-CTX-10, FIG-CTX-11, FIG-CTX-12) after checking
  and filling in defaults (environs.py), changed as the phase goes on: characters
  (``detected``, ``hits``, ``captured``, ``dead``, ``possessions``, ratings entered at prompts),
  ``loyalty`` / ``planet_state``, ``units`` (``damaged``, ``destroyed``, ``side``), ``pdb_down``,
  ``mulligans``, the pools and the game-long ``memory`` (FIG-FOE-5).
- ``groups``: the mission groups in assignment order: ``{"id": "G1", "mission": letter,
  "leader": name or None, "members": [names, leader first], "performer": None or a cell/camp
  id, "target": name, unit id, "pdb" or None, "ship": name or None, "torture": bool, "status":
  active | waiting (J and Q) | aborted | called_off, "level", "bonus_adj" (FIG-BDR-10),
  "lose_all", "count", "rolled", "failure" (what the failure roll left for the resolution)}``;
  later also ``"lost"`` (members killed or captured on the way, FIG-HOOK-1) and
  ``"resolved"`` (its levels have taken effect, FIG-MIS-22).
- ``draft``: the groups being formed at the assignment prompt (FIG-MIS-3), else None.
- ``steps``: how many steps the Mission Action segment has (FIG-MIS-5).
- ``flags``: ``off_season`` (FIG-RE-3), ``lucky_strike`` (FIG-RE-7), ``no_searches``
  (FIG-RE-14), ``bonus_cancelled`` (FIG-RE-23), ``populace_wild`` (FIG-RE-22), ``occurred``
  (the starred rows seen, FIG-MIS-9), ``synestins`` (a Rebel win over the Synestins, FIG-CRE-44),
  ``bonus_condition`` (the loyalty read at the start of the bonus segment, FIG-BDR-11).
- ``changes``: the report lines gathered so far, each ``{"rule", "kind", "text", "refs"}``.

Dice (FIG-GEN-3, FIG-GEN-4, FIG-GEN-5) come from a *dice source*: :class:`RngDice` over the
state's own generator, or a test's scripted faces. Every roll is logged with its rule ID, die,
faces, modifiers, result and the groups and characters it concerns (FIG-GEN-6).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from struggle_desktop.engine.flow import Context
from struggle_desktop.engine.rng import Rng
from struggle_desktop.games.freedom.data import FreedomData

SIDES = ("rebel", "imperial")
ROLES = ("phasing", "enemy")
LOYALTY = ("patriotic", "loyal", "neutral", "dissent", "unrest")
REBELLION_STATES = ("in_rebellion", "rebellion_stopped", "rebel_controlled")
RATINGS = ("intelligence", "diplomacy", "leadership", "navigation", "ef")


def other(side: str) -> str:
    return "imperial" if side == "rebel" else "rebel"


class ModeContext(Context):
    """A flow context with the Freedom data for the chit-mug and events-deck modes (Parts B and
    C), also for running a mode on its own (tests, tools). ``rng`` may be given (a scripted
    generator in tests); the state's generator is written back only when it is the state's."""

    def __init__(self, state: dict, procedures: dict | None = None,
                 data: FreedomData | None = None, rng=None):
        from struggle_desktop.games.freedom.data import default_data
        from struggle_desktop.games.freedom.registry import RULES

        self.state = state
        self.procedures = procedures if procedures is not None else RULES.procedures
        self.data = data if data is not None else default_data()
        self.rng = rng if rng is not None else Rng.from_json(state["rng"])

    def close(self) -> None:
        if hasattr(self.rng, "to_json"):
            super().close()


def shuffle(ctx: Context, items: list, rule: str, why: str) -> list:
    """A Fisher-Yates shuffle on the game's generator (from the last place down, each place
    swapped with a random one at or above it). The log says that a pile was shuffled, never its
    order: the order stays hidden until the chits or cards are drawn."""
    items = list(items)
    for i in range(len(items) - 1, 0, -1):
        j = ctx.rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    ctx.log(rule, "shuffle", f"{why}: {len(items)} shuffled")
    return items


def die_sides(die: str) -> int:
    """The k of a ``dk`` die name such as ``d3`` (FIG-GEN-5)."""
    return int(die[1:])


class RngDice:
    """Faces from the game's seeded generator (ARCHITECTURE.md section 3)."""

    def __init__(self, rng: Rng):
        self.rng = rng

    def faces(self, die: str) -> list[int]:
        rng = self.rng
        if die in ("p2d6", "2d6"):
            return [rng.d6(), rng.d6()]
        if die == "d6":
            return [rng.d6()]
        if die == "d10":
            return [rng.below(10) + 1]      # faces 1-10 (FIG-GEN-4)
        return [rng.below(die_sides(die)) + 1]   # dk (FIG-GEN-5)


def roll_value(die: str, faces: Sequence[int]) -> int:
    """What the faces read as: tens and units for p2d6 (FIG-GEN-3), a sum for 2d6."""
    if die == "p2d6":
        return 10 * faces[0] + faces[1]
    return sum(faces)


def faces_text(die: str, faces: Sequence[int]) -> str:
    return ",".join(map(str, faces))


class Ctx(Context):
    """A flow context with the Freedom data and the Part A helpers. Procedures change the state
    only through it (or the dicts it hands out)."""

    def __init__(self, state: dict, procedures: dict, data: FreedomData, dice=None):
        # Not Context.__init__: a view has no generator, and tests script their own faces.
        self.state = state
        self.procedures = procedures
        self.data = data
        self.rng = None
        if dice is None and state.get("rng") is not None:
            self.rng = Rng.from_json(state["rng"])
            dice = RngDice(self.rng)
        self.dice = dice

    def close(self) -> None:
        if self.rng is not None:
            self.state["rng"] = self.rng.to_json()

    # ------------------------------------------------------------------------- options
    def option(self, key: str) -> Any:
        return self.state["options"].get(key)

    # ------------------------------------------------------------------------- log
    def note(self, rule: str, text: str, refs: Iterable[Any] = (), kind: str = "note",
             **extra: Any) -> dict:
        entry = self.log(rule, kind, text, refs=list(refs))
        entry.update(extra)
        return entry

    def change(self, rule: str, kind: str, text: str, refs: Iterable[Any] = ()) -> None:
        """A line of the outcome report (FIG-MIS-24), logged as well."""
        refs = list(refs)
        self.state["changes"].append({"rule": rule, "kind": kind, "text": text, "refs": refs})
        self.note(rule, text, refs, kind="change")

    # ------------------------------------------------------------------------- dice
    def throw(self, die: str, rule: str, why: str, modifiers: Sequence[Sequence[Any]] = (),
              refs: Iterable[Any] = ()) -> dict:
        """Roll ``die`` now and log it (FIG-GEN-6); returns ``{"die", "faces", "value",
        "result"}``. Procedures use :meth:`need`, which lets a mulligan follow (FIG-MIS-23)."""
        faces = list(self.dice.faces(die))
        value = roll_value(die, faces)
        mods = [[str(label), int(amount)] for label, amount in modifiers]
        result = value + sum(a for _, a in mods)
        text = f"{why}: {die} {faces_text(die, faces)}"
        if die in ("2d6", "p2d6"):
            text += f" = {value}"
        for label, amount in mods:
            text += f" {'+' if amount >= 0 else '-'} {abs(amount)} ({label})"
        if mods:
            text += f" = {result}"
        self.log(rule, "roll", text, refs=list(refs),
                 dice=[{"die": die, "faces": faces, "modifiers": mods, "result": result}])
        return {"die": die, "faces": faces, "value": value, "result": result}

    def need(self, frame: dict, key: str, die: str, rule: str, why: str,
             modifiers: Sequence[Sequence[Any]] = (), refs: Iterable[Any] = ()) -> dict | None:
        """The roll ``key`` of ``frame``: its result once made, else None after pushing the
        roll frame (resolver.py), which rolls, offers mulligans and hands the result back.
        A procedure calls this first in a stage and changes nothing before it has the result."""
        got = frame.get("rolls", {}).get(key)
        if got is not None:
            return got
        self.push("roll", key=key, die=die, rule=rule, why=why,
                  modifiers=[list(m) for m in modifiers], refs=list(refs))
        return None

    def pick(self, frame: dict, key: str, candidates: Sequence[Any], rule: str, why: str,
             refs: Iterable[Any] = ()) -> Any:
        """One of ``candidates`` at random: a dk in their fixed order (FIG-GEN-5). With one
        candidate nothing is rolled. None while the roll is pending."""
        if not candidates:
            raise ValueError("pick() among no candidates")
        if len(candidates) == 1:
            return candidates[0]
        got = self.need(frame, key, f"d{len(candidates)}", rule, why, refs=refs)
        return None if got is None else candidates[got["value"] - 1]

    # ------------------------------------------------------------------------- sides and roles
    @property
    def env(self) -> dict:
        return self.state["environs"]

    @property
    def side(self) -> str:
        """The phasing side (FIG-CTX-2)."""
        return self.env["phasing_side"]

    @property
    def enemy(self) -> str:
        return other(self.env["phasing_side"])

    def role_of(self, side: str) -> str:
        return "phasing" if side == self.side else "enemy"

    # ------------------------------------------------------------------------- characters
    def char(self, name: str) -> dict:
        for c in self.env["characters"]:
            if c["name"] == name:
                return c
        raise KeyError(name)

    def has_char(self, name: str) -> bool:
        return any(c["name"] == name for c in self.env["characters"])

    def present(self, side: str | None = None) -> list[dict]:
        """Characters in the environs, free and alive (optionally of one side), entry order."""
        return [c for c in self.env["characters"] if not c["captured"] and not c["dead"]
                and (side is None or c["side"] == side)]

    def captives_of(self, side: str) -> list[dict]:
        """``side``'s characters held captive here (FIG-CTX-11), entry order."""
        return [c for c in self.env["characters"] if c["captured"] and not c["dead"]
                and c["side"] == side]

    def rating(self, name: str, rating: str) -> int | None:
        """A character's rating, or None while the players have not entered it (FIG-CTX-9).
        A sovereign's intelligence is its leadership when only that is entered (FIG-MSN-17)."""
        c = self.char(name)
        value = c.get(rating)
        if value is None and rating == "intelligence" and c.get("npc_sovereign"):
            return c.get("leadership")
        return value

    def chart_row(self, name: str, group: dict | None = None):
        """The bonus chart row a character uses: his variant row when it applies (FIG-BDR-7),
        else his own; None for an NPC sovereign, who has no row."""
        c = self.char(name)
        if c.get("npc_sovereign"):
            return None
        base = self.data.chart_row(name)
        for row in self.data.bonus_chart(c["side"], "character").values():
            if row.variant_of != base.name:
                continue
            when = row.variant_when
            if when == "flag" and c.get("variant"):
                return row
            if isinstance(when, dict) or hasattr(when, "get"):
                mate = when.get("together_with")
                if group is not None and mate in group["members"]:
                    return row
        return base

    def detect(self, names: Iterable[str], rule: str) -> list[str]:
        """Mark characters detected; report those that were not (FIG-MIS-24)."""
        newly = []
        for name in names:
            c = self.char(name)
            if not c["detected"]:
                c["detected"] = True
                newly.append(name)
        if newly:
            self.change(rule, "detection", f"Detected: {', '.join(newly)}", refs=newly)
        return newly

    def detect_all(self, rule: str) -> list[str]:
        """"All characters in the environs become detected": every free phasing character
        here, on a mission or not (FIG-MIS-13; the enemy's own characters are not concerned)."""
        names = [c["name"] for c in self.present(self.side)]
        newly = self.detect(names, rule)
        if not newly:
            self.note(rule, "All characters here are detected (they already were)")
        return newly

    def add_hits(self, name: str, hits: int, rule: str, why: str) -> None:
        """Record hits on a character (FIG-HOOK-8); wounds and deaths are for the players."""
        if hits <= 0:
            self.note(rule, f"{name} takes no hits ({why})", refs=[name])
            return
        c = self.char(name)
        c["hits"] += hits
        self.change(rule, "hits", f"{name} takes {hits} hit{'s' if hits != 1 else ''} ({why}); "
                                  f"{c['hits']} in all", refs=[name])

    # ------------------------------------------------------------------------- groups
    @property
    def groups(self) -> list[dict]:
        return self.state["groups"]

    def group(self, gid: str) -> dict:
        return next(g for g in self.groups if g["id"] == gid)

    def active_groups(self, characters_only: bool = False) -> list[dict]:
        """Active groups (FIG-MIS-7): not aborted, not called off, not J or Q. Cells and camps
        are active but never the target of an event (FIG-MIS-8)."""
        return [g for g in self.groups if g["status"] == "active"
                and (not characters_only or g["performer"] is None)]

    def group_of(self, name: str) -> dict | None:
        for g in self.groups:
            if name in g["members"]:
                return g
        return None

    def event_characters(self) -> list[str]:
        """Characters of the active character groups: group order, then leader first and
        entry order (FIG-GEN-5, FIG-MIS-8)."""
        return [m for g in self.active_groups(characters_only=True) for m in g["members"]]

    def label(self, group: dict) -> str:
        mission = self.data.mission(group["mission"]).name
        who = group["performer"] or group["leader"]
        return f"{group['id']} ({group['mission']}, {mission}, {who})"

    # ------------------------------------------------------------------------- the planet
    def condition(self) -> str | None:
        """The loyalty space, or the rebellion state when the planet is in one (FIG-CTX-3);
        None in an orbit box entered without its planet."""
        env = self.env
        if env.get("planet_state") == "loyalty":
            return env["loyalty"]
        return env.get("planet_state")

    def in_rebellion_state(self) -> bool:
        return self.env.get("planet_state") in REBELLION_STATES

    def loyalty_modifier(self, side: str, condition: str | None = None) -> int:
        """FIG-REC-3 for ``side`` on the current (or given) condition."""
        condition = condition or self.condition()
        return 0 if condition is None else self.data.loyalty_modifier(condition, side)

    def shift_loyalty(self, toward: str, spaces: int, rule: str, why: str) -> int:
        """Move loyalty ``spaces`` toward ``toward``'s end of the track, clamped to the five
        spaces (FIG-MIS-22); nothing moves in a rebellion state. Returns the spaces moved."""
        env = self.env
        if env.get("planet_state") != "loyalty":
            self.note(rule, f"{why}: no loyalty shift, the planet is "
                            f"{(env.get('planet_state') or 'not entered').replace('_', ' ')}")
            return 0
        start = LOYALTY.index(env["loyalty"])
        step = 1 if toward == "rebel" else -1
        end = max(0, min(len(LOYALTY) - 1, start + step * spaces))
        if end == start:
            self.note(rule, f"{why}: loyalty stays {env['loyalty']} (end of the track)")
            return 0
        path = " -> ".join(LOYALTY[i] for i in range(start, end + step, step))
        env["loyalty"] = LOYALTY[end]
        self.change(rule, "loyalty", f"Loyalty shifts toward the {toward} ({why}): {path}")
        return abs(end - start)

    def enemy_ground_units(self) -> list[dict]:
        """The enemy's ground units here that still stand, entry order (FIG-CTX-4)."""
        return [u for u in self.env["units"] if u["side"] == self.enemy
                and u["kind"] != "landed_starship" and not u["destroyed"]]

    def enemy_units(self) -> list[dict]:
        """Enemy ground units and landed starships still standing."""
        return [u for u in self.env["units"] if u["side"] == self.enemy and not u["destroyed"]]

    def unit(self, uid: str) -> dict:
        return next(u for u in self.env["units"] if u["id"] == uid)

    def sovereign(self, name: str) -> dict:
        return next(s for s in self.env["sovereigns"] if s["name"] == name)

    def sovereign_side(self, s: dict) -> str | None:
        """Whose a sovereign is: its summoner's once summoned, else its alignment's; None for
        a neutral one (FIG-BDR-8)."""
        if s["summoned"]:
            return s["summoned"]
        return {"pro_rebel": "rebel", "pro_imperial": "imperial"}.get(s["alignment"])

    # ------------------------------------------------------------------------- possessions
    def gain_mulligan(self, side: str, rule: str, why: str) -> None:
        self.env["mulligans"][side] += 1
        self.change(rule, "mulligan", f"The {side} side gains a mulligan ({why}); "
                                      f"{self.env['mulligans'][side]} held")
