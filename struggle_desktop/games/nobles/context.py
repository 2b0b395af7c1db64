"""What the Noble Houses rules work with: the state's shape, and questions about it.

The state is plain JSON data (ARCHITECTURE.md section 2). Its Noble Houses parts:

- ``map``: the generated map (mapgen.py's dict: ``worlds`` name -> ``[x, y]``, ``features``
  keyed ``"x,y"``, ``stargates``, ``width``, ``height``).
- ``houses``: letter (``"A"`` is seat 1) -> ``{"seat", "homeworld", "player" (human|ai),
  "solats", "allies" (names, in deal order), "alive", "initiative_mod" (this turn's Strategic
  Planning shift, NH-SEQ-4), "planning" (the shift chosen this turn for the next one),
  "attempts" ({assassination, intrigue} this turn, NH-NOB-16), "ally_uses" (ally -> kind ->
  uses left this turn, NH-ALLY-7), "pyreen" (Diplomacy attempts left from Pyreen, NH-WORLD-6),
  "aristocracy" (this turn's Imperial Aristocracy choice, NH-ALLY-10), "bought" (world ->
  units bought there this turn, NH-REC-3)}``.
- ``order``: the houses still playing in this turn's initiative order (NH-SEQ-4).
- ``worlds``: name -> ``{"controller": letter or None, "govern": bool}`` (NH-WORLD-9).
- ``units``: id (``A-HT1``: house letter, type code, number) -> ``{"type" (canonical name),
  "owner", "hex" ([x, y]), "ship" (the jumpship it is aboard, or None: on the ground),
  "moved", "fought", "ally" (the ally that provided it, NH-ALLY-6), "home" (a Defender's world,
  NH-ABIL-9)}``. A unit aboard a ship is in the ship's hex. An id is never used twice: the
  ``ids`` counters (letter -> code -> last number) only grow, even when a unit changes owner.
- ``unassigned``: the allies no house holds (NH-ALLY-3, NH-VIC-3).
- ``battle`` / ``exchange``: the public side of the fight being resolved, for the screen.

Every house's everything is public (NH-SIM-1), except a pending simultaneous declaration
(nuke launches, sacrifices; NH-SIM-2): those wait in the asking frame until every house has
declared, and ``view`` leaves them out.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Iterable, Sequence

from struggle_desktop.engine.flow import ViewContext
from struggle_desktop.games.nobles.data import NoblesData, UnitType
from struggle_desktop.games.nobles.mapgen import SYSTEM_KINDS, hex_key

HexLike = Sequence[int]


def hex_order(h: HexLike) -> tuple[int, int]:
    """Hexes are handled in order of y, then x (NH-NUK-3, NH-BAT-5)."""
    return (h[1], h[0])


def unit_sort_key(uid: str) -> tuple:
    """Unit ids in line-up order (NH-BAT-7): house letter, type code, number."""
    letter, _, rest = uid.partition("-")
    code = rest.rstrip("0123456789")
    return (letter, code, int(rest[len(code):] or 0))


#: ``unit_sort_key`` remembered per id: a pure function of the string, and the rules sort the
#: same few hundred ids (a game's units) over and over.
_id_order = cache(unit_sort_key)


class Ctx(ViewContext):
    """A flow context with the Noble Houses data and helpers. Procedures change the state only
    through it (or the dicts it hands out)."""

    data: NoblesData

    # --------------------------------------------------------------------------- log
    def note(self, rule: str, text: str, refs: Sequence[Any] = (), kind: str = "note") -> dict:
        return self.log(rule, kind, text, refs=[self._ref(r) for r in refs])

    @staticmethod
    def _ref(r: Any) -> Any:
        """A hex given as a pair becomes the reference ``hex:x,y``; ids and names stay."""
        if isinstance(r, (list, tuple)) and len(r) == 2:
            return f"hex:{hex_key(r)}"
        return r

    def d6(self, rule: str, why: str, refs: Sequence[Any] = ()) -> int:
        return self.roll("d6", rule, why, refs=[self._ref(r) for r in refs])

    # --------------------------------------------------------------------------- options
    def option(self, key: str) -> Any:
        return self.state["options"].get(key)

    @property
    def procedure(self) -> dict:
        return self.data.procedure

    # --------------------------------------------------------------------------- houses
    def house(self, letter: str) -> dict:
        return self.state["houses"][letter]

    def house_name(self, letter: str) -> str:
        """``House Lortran`` (a house is known by its homeworld)."""
        return f"House {self.state['houses'][letter]['homeworld']}"

    def alive(self) -> list[str]:
        """The houses still playing, in seat order."""
        return [h for h, row in self.state["houses"].items() if row["alive"]]

    def in_order(self) -> list[str]:
        """The houses still playing, in this turn's initiative order (NH-SEQ-5)."""
        return [h for h in self.state["order"] if self.state["houses"][h]["alive"]]

    def initiative_rank(self, letter: str) -> int:
        order = self.state["order"]
        return order.index(letter) if letter in order else len(order)

    # --------------------------------------------------------------------------- map
    @property
    def map(self) -> dict:
        return self.state["map"]

    def feature(self, h: HexLike) -> dict | None:
        return self.state["map"]["features"].get(hex_key(h))

    def world_at(self, h: HexLike) -> str | None:
        f = self.feature(h)
        return f["name"] if f is not None and f["kind"] == "world" else None

    def world_hex(self, world: str) -> list[int]:
        return list(self.state["map"]["worlds"][world])

    def is_system(self, h: HexLike) -> bool:
        f = self.feature(h)
        return f is not None and f["kind"] in SYSTEM_KINDS

    # --------------------------------------------------------------------------- worlds
    def controller(self, world: str) -> str | None:
        return self.state["worlds"][world]["controller"]

    def worlds_of(self, letter: str) -> list[str]:
        """The worlds a house controls, in table order."""
        return [w for w, row in self.state["worlds"].items() if row["controller"] == letter]

    def world_income(self, world: str) -> int:
        """A world's income with its Govern bonus (NH-WORLD-9)."""
        return self.data.worlds[world].income + (1 if self.state["worlds"][world]["govern"] else 0)

    def ally_income(self, letter: str) -> int:
        """What the house's allies pay in every Production step (NH-ALLY-4, NH-ALLY-8)."""
        return sum(self.data.allies[a].benefits.get("income", 0)
                   for a in self.state["houses"][letter]["allies"])

    def income(self, letter: str) -> int:
        """NH-PROD-2: controlled worlds with their Govern bonus, plus the allies' income."""
        return sum(self.world_income(w) for w in self.worlds_of(letter)) + self.ally_income(letter)

    # --------------------------------------------------------------------------- units
    def unit(self, uid: str) -> dict:
        return self.state["units"][uid]

    def utype(self, uid: str) -> UnitType:
        return self.data.units[self.state["units"][uid]["type"]]

    def is_army(self, uid: str) -> bool:
        return self.utype(uid).category == "army"

    def category(self, uid: str) -> str:
        return self.utype(uid).category

    def units_where(self, owner: str | None = None, h: HexLike | None = None,
                    category: str | Iterable[str] | None = None,
                    ship: str | None | bool = False) -> list[str]:
        """Unit ids matching every filter, in id order. ``ship``: False (any), None (on the
        ground), or a ship id (aboard it)."""
        cats = (category,) if isinstance(category, str) else (
            tuple(category) if category is not None else None)
        # One filter at a time, each over what the one before kept: the owner (most calls
        # give one) leaves about a quarter of the units for the other tests.
        found = self.state["units"].items()
        if owner is not None:
            found = [(uid, u) for uid, u in found if u["owner"] == owner]
        if h is not None:
            hx = list(h)
            found = [(uid, u) for uid, u in found if u["hex"] == hx]
        if cats is not None:
            category_of = self.data.categories
            found = [(uid, u) for uid, u in found if category_of[u["type"]] in cats]
        if ship is not False:
            found = [(uid, u) for uid, u in found if u["ship"] == ship]
        out = [uid for uid, _ in found]
        out.sort(key=_id_order)
        return out

    def armies(self, owner: str | None = None, h: HexLike | None = None) -> list[str]:
        return self.units_where(owner, h, "army")

    def ships(self, owner: str | None = None, h: HexLike | None = None) -> list[str]:
        """Jumpships and Self Transport units (NH-ABIL-11)."""
        units = self.data.units
        return [uid for uid in self.units_where(owner, h)
                if units[self.state["units"][uid]["type"]].is_ship]

    def cargo(self, ship: str) -> list[str]:
        return self.units_where(ship=ship)

    def slots_used(self, ship: str) -> int:
        """Armies and nukes aboard; Nobles use no slot (NH-MOV-2)."""
        return sum(1 for uid in self.cargo(ship) if self.category(uid) in ("army", "nuke"))

    def slots(self, ship: str) -> int:
        ability = self.utype(ship).ability("transport")
        return ability["slots"] if ability else 0

    def world_army_owners(self) -> dict[str, set[str]]:
        """World name -> the houses with armies on it, for every world holding armies (Diplomacy's
        targets and the purchase list ask this at every prompt). The pass over the units only
        collects the distinct (hex, owner) pairs, a few dozen; those are then placed on worlds."""
        is_army = self.data.army_types
        pairs = {(tuple(u["hex"]), u["owner"])
                 for u in self.state["units"].values() if is_army[u["type"]]}
        hex_world = {(h[0], h[1]): name for name, h in self.state["map"]["worlds"].items()}
        out: dict[str, set[str]] = {}
        for h, owner in pairs:
            world = hex_world.get(h)
            if world is not None:
                out.setdefault(world, set()).add(owner)
        return out

    def houses_at(self, h: HexLike) -> list[str]:
        """The houses with units in a hex, in seat order."""
        hx = list(h)
        owners = {u["owner"] for u in self.state["units"].values() if u["hex"] == hx}
        return [letter for letter in self.state["houses"] if letter in owners]

    def contested_hexes(self) -> list[list[int]]:
        """Hexes holding units of two or more houses, in order of y, then x: any number of
        units may share a hex, and rivals there fight (NH-MOV-12)."""
        seen: dict[str, set[str]] = {}
        for u in self.state["units"].values():
            seen.setdefault(hex_key(u["hex"]), set()).add(u["owner"])
        out = [[int(v) for v in key.split(",")] for key, owners in seen.items() if len(owners) > 1]
        out.sort(key=hex_order)
        return out

    def new_unit(self, owner: str, unit_type: str, h: HexLike, ally: str | None = None,
                 home: str | None = None) -> str:
        """Place a new unit on the ground; its id is the next free one of its house and type."""
        code = self.data.units[unit_type].code
        counters = self.state["ids"].setdefault(owner, {})
        counters[code] = counters.get(code, 0) + 1
        uid = f"{owner}-{code}{counters[code]}"
        self.state["units"][uid] = {"type": unit_type, "owner": owner, "hex": list(h),
                                    "ship": None, "moved": False, "fought": False,
                                    "ally": ally, "home": home}
        return uid

    def remove(self, uid: str) -> list[str]:
        """Take a unit out of play, and with a ship everything aboard (NH-MOV-10, NH-MOV-11).
        Returns every id removed, the unit first."""
        removed = [uid]
        for passenger in self.cargo(uid):
            removed.extend(self.remove(passenger))
        del self.state["units"][uid]
        return removed

    def unit_label(self, uid: str) -> str:
        """``A-HT1 (House Troops)``."""
        return f"{uid} ({self.state['units'][uid]['type']})"

    def list_units(self, uids: Iterable[str]) -> str:
        uids = list(uids)
        return ", ".join(uids) if uids else "nothing"

    # --------------------------------------------------------------------------- upkeep
    def upkeep_count(self, letter: str) -> int:
        """Armies, jumpships and nukes a house owns; Nobles are free and a Self Transport
        unit counts once (NH-UPK-2)."""
        units = self.data.units
        return sum(1 for u in self.state["units"].values()
                   if u["owner"] == letter and units[u["type"]].category != "noble")

    def upkeep_due(self, letter: str) -> int:
        return self.upkeep_count(letter) // self.state["options"]["upkeep_divisor"]


__all__ = ["Ctx", "hex_order", "unit_sort_key"]
