"""What the Battles rules work with: the state's shape, and questions about it.

The state is plain JSON data (ARCHITECTURE.md section 2). Its Battles-specific parts:

- ``regions``: ``"1"``..``"6"`` -> ``{"C"|"P"|"R": {"chit", "value", "plus"}, "resolved",
  "controller"}``; a slot's value is the chit's number plus its upgrades (BFG-OPT-7).
- ``fleets``: id (``B-SF3``) -> ``{"type", "owner", "at", "region", "seq", "tactical",
  "hits", "waiting"}``. ``owner`` is the colour the counter shows (BFG-COMP-15). ``at`` is one
  of the places of BFG-COMP-16: ``pool`` (force pool), ``supply`` (TH not in play),
  ``display``, ``map`` (deployed in ``region``), ``garrison`` (on ``region``'s label) and
  ``common`` (the common pool). ``seq`` orders the line-up
  (BFG-CMB-19); ``waiting`` marks a fleet that came back to the display this turn (BFG-DEP-7).
- ``players``: side -> ``{"hand", "own_chits", "discards", "deploy", "rp", "banked"}``;
  ``hand``, ``discards`` and ``deploy`` are private (view.py hides them from the opponent).
- ``chit_pool``: the common pool (Civil War) or the single shared pool (Invasion).
- ``battle``: the public side of the region being resolved (targets, last results...).
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from struggle_desktop.engine.flow import ViewContext
from struggle_desktop.games.battles.data import (CHIT_TYPES, FLEET_TYPES, SIDES, BattlesData,
                                                 other)

SIDE_NAMES = {"blue": "Blue (Imperial)", "red": "Red (Chaos)"}   # BFG-SETUP-2
SHORT = {"blue": "Blue", "red": "Red"}
IN_REGION = ("map", "garrison")


def fleet_sort_key(fid: str) -> tuple:
    """Canonical order of fleet ids: colour, then type as in the counter mix, then number."""
    colour, _, rest = fid.partition("-")
    code = rest.rstrip("0123456789")
    return (colour != "B", FLEET_TYPES.index(code) if code in FLEET_TYPES else 9,
            int(rest[len(code):] or 0))


def chit_type(chit: str) -> str:
    return chit.rsplit("-", 1)[0]


def chit_sort_key(chit: str) -> tuple:
    """Canonical chit order (BFG-SETUP-8): Build, Move, Tactical, Illumination, Repression,
    then number."""
    kind, _, number = chit.rpartition("-")
    return (CHIT_TYPES.index(kind), int(number))


def value_chit_sort_key(chit: str) -> tuple:
    return ("CPR".index(chit[0]), int(chit[1:]))


class Ctx(ViewContext):
    """A flow context with the Battles data and helpers. Procedures change the state only
    through it (or the state dicts it hands out)."""

    data: BattlesData

    # --------------------------------------------------------------------------- log
    def log(self, rule: str, kind: str, text: str, refs: Sequence[Any] = (),
            dice: Sequence[dict] = ()) -> dict:
        """A log entry; a region named by its number becomes the reference ``region:N``
        (fleets are named by their ids)."""
        refs = [f"region:{r}" if isinstance(r, int) else r for r in refs]
        return super().log(rule, kind, text, refs=refs, dice=dice)

    def note(self, rule: str, text: str, refs: Sequence[Any] = (), kind: str = "note",
             dice: Sequence[dict] = ()) -> dict:
        return self.log(rule, kind, text, refs=refs, dice=dice)

    def draw_secret_index(self, side: str, k: int, rule: str, why: str) -> int:
        """A random position among ``k`` items that only ``side`` may know (BFG-HID-3): the
        same draw as ``draw_index`` (same generator, same result), but the face and its die
        are in the entry's private part. Everyone else reads ``why`` alone: the chit pools
        are kept in a known order, so "5 of 10" would name the chit drawn."""
        if k <= 1:
            return 0
        face = self.rng.below(k) + 1
        if self.keeps_log:
            entry = self.log(rule, "draw", why)
            entry["private"] = {"role": side, "text": f"{why}: {face} of {k}",
                                "dice": [{"die": f"d{k}", "face": face, "modifiers": [],
                                          "result": face}]}
        return face - 1

    def note_private(self, side: str, rule: str, text: str, public_text: str,
                     refs: Sequence[Any] = ()) -> dict:
        """A log entry whose full text only ``side`` may read; everyone else reads
        ``public_text`` (BFG-HID-11)."""
        entry = self.log(rule, "private", public_text, refs=refs)
        entry["private"] = {"role": side, "text": text}
        return entry

    # --------------------------------------------------------------------------- tracks
    @property
    def ci(self) -> int:
        return self.state["ci"]

    def option(self, key: str) -> bool:
        return bool(self.state["options"].get(key))

    def player(self, side: str) -> dict:
        return self.state["players"][side]

    # --------------------------------------------------------------------------- regions
    def region(self, number: int) -> dict:
        return self.state["regions"][str(number)]

    def region_name(self, number: int) -> str:
        return self.data.region_names[number]

    def slot_value(self, number: int, slot: str) -> int:
        chit = self.region(number)[slot]
        return chit["value"] + chit["plus"]

    def unresolved(self) -> list[int]:
        return [n for n in range(1, 7) if not self.region(n)["resolved"]]

    def controlled_by(self, side: str) -> list[int]:
        return [n for n in range(1, 7) if self.region(n)["controller"] == side]

    # --------------------------------------------------------------------------- fleets
    def fleet(self, fid: str) -> dict:
        return self.state["fleets"][fid]

    def fleet_type(self, fid: str):
        return self.data.fleet_types[self.state["fleets"][fid]["type"]]

    def fleets_where(self, side: str | None = None, at: str | Iterable[str] | None = None,
                     region: int | None = None, ftype: str | None = None) -> list[str]:
        """Fleet ids matching every given filter, in line-up order for fleets in a region
        (``seq``), else in canonical id order."""
        places = (at,) if isinstance(at, str) else (tuple(at) if at is not None else None)
        out = [fid for fid, f in self.state["fleets"].items()
               if (side is None or f["owner"] == side)
               and (places is None or f["at"] in places)
               and (region is None or f["region"] == region)
               and (ftype is None or f["type"] == ftype)]
        if region is not None:
            out.sort(key=lambda fid: (self.state["fleets"][fid]["seq"], fleet_sort_key(fid)))
        else:
            out.sort(key=fleet_sort_key)
        return out

    def in_region(self, number: int, side: str | None = None) -> list[str]:
        """The fleets of ``side`` (or both) in a region, deployed or in the garrison, in
        line-up order."""
        return self.fleets_where(side, IN_REGION, region=number)

    def value(self, fid: str, segment: str) -> int:
        """A fleet's military (``"mil"``) or morph value now; TH read the CI (BFG-COMP-8)."""
        f = self.state["fleets"][fid]
        ftype = self.data.fleet_types[f["type"]]
        printed = ftype.mil if segment == "mil" else ftype.morph
        if printed is not None:
            return printed
        return self.th_value(f["owner"])

    def th_value(self, side: str) -> int:
        """BFG-COMP-7, BFG-COMP-8: a CI at or below a band's top reads that band; above the
        last band reads the last band."""
        rows = self.data["units"]["th_values"]
        for row in rows:
            if self.ci <= row["ci_max"]:
                return row[side]
        return rows[-1][side]

    def total(self, fid: str) -> int:
        return self.value(fid, "mil") + self.value(fid, "morph")

    def next_seq(self) -> int:
        self.state["seq"] += 1
        return self.state["seq"]

    def move_fleet(self, fid: str, at: str, region: int | None = None) -> None:
        """Put a fleet in a new place (BFG-COMP-16). A fleet leaving the map loses its
        Tactical chit (BFG-CHIT-15); one entering a region joins the end of the line-up."""
        f = self.state["fleets"][fid]
        if at not in IN_REGION and f["tactical"]:
            self.return_chit(f["tactical"])
            f["tactical"] = None
        if at in IN_REGION and f["at"] not in IN_REGION:
            f["seq"] = self.next_seq()
        f["at"] = at
        f["region"] = region if at in IN_REGION else None
        if at == "display":
            f["waiting"] = True

    def fleet_label(self, fid: str) -> str:
        """``B-SF3`` and, for a converted fleet, its new owner: ``R-CG2 (Blue)``."""
        f = self.state["fleets"][fid]
        if f["owner"][0].upper() != fid[0]:
            return f"{fid} ({SHORT[f['owner']]})"
        return fid

    def list_fleets(self, fids: Iterable[str]) -> str:
        fids = list(fids)
        return ", ".join(self.fleet_label(f) for f in fids) if fids else "nothing"

    # --------------------------------------------------------------------------- chits
    def shared_chits(self) -> list[str]:
        return self.state["chit_pool"]

    def return_chit(self, chit: str) -> None:
        """A chit whose effect ended goes back to the pool: the common pool of a split game,
        or the shared pool (BFG-CHIT-7, BFG-SCN-5)."""
        pool = self.state["chit_pool"]
        pool.append(chit)
        pool.sort(key=chit_sort_key)

    def hand(self, side: str) -> list[str]:
        return self.state["players"][side]["hand"]

    def holds(self, side: str, kind: str) -> list[str]:
        return [c for c in self.hand(side) if chit_type(c) == kind]

    # --------------------------------------------------------------------------- order
    def ci_first(self) -> str:
        """Red first when the CI is at most the neutral point, else Blue (BFG-CHIT-4,
        BFG-BLD-8)."""
        return "red" if self.ci <= self.data.procedure["red_first_at_or_below"] else "blue"


__all__ = ["Ctx", "SIDES", "SIDE_NAMES", "SHORT", "other", "fleet_sort_key", "chit_type",
           "chit_sort_key", "value_chit_sort_key"]
