"""The rules' working context: queries and the primitive changes every rule is built from.

Rule procedures receive a ``Ctx``: the plain-data state, the seeded generator, the tables and
the galaxy. Every change to units, systems, the Chaos Index and the Resource Points goes through
a primitive here, which logs it with its rule ID and then runs the continuous checks of
SGE-SEQ-17, so no rule can forget them.

State layout (all JSON): ``units`` maps a mobile counter id (``"SF-03"``) to ``{"type",
"side": "imp"|"chaos", "loc": sector|None, "force": force id|None, "leader": value|None}``;
``systems`` maps a sector number (as a string) to ``{"id", "side", "ie", "irs"}``; ``forces``
maps a force id to ``{"kind": "usurper"|"mutant"|"ie"|"invader", "leader", "ie", "seq"}``;
``ies`` maps an IE number (string) to ``{"home", "leader", "sectors", "arises"}``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any, Iterable

from struggle_desktop.engine.flow import Context
from struggle_desktop.games.struggle.data import StruggleData
from struggle_desktop.games.struggle.registry import PROCEDURES

IMP = "imp"
CHAOS = "chaos"

#: Chaos force kinds, leftmost column of the Chaos Operations Table first (SGE-OPS-2).
FORCE_ORDER = {"usurper": 0, "mutant": 0, "ie": 1, "invader": 2}


#: The texts of sector numbers, made once: the log names sectors thousands of times a game.
_SECTOR_TEXT = {n: f"{n:02d}" for n in range(100)}
_SECTOR_REF = {n: f"sector:{n:02d}" for n in range(100)}


#: ``str(n)`` of the sector numbers, the keys of ``systems``, and back (``int(key)``, also
#: of the keys of ``ies``): the rules look systems up thousands of times a game, and a
#: look-up here costs less than ``str`` or ``int``.
_KEY = {n: str(n) for n in range(100)}
_NUMBER = {text: n for n, text in _KEY.items()}


def sector_ref(n: int) -> str:
    text = _SECTOR_REF.get(n) if type(n) is int else None
    return text if text is not None else f"sector:{n:02d}"


def fmt_sector(n: int) -> str:
    text = _SECTOR_TEXT.get(n) if type(n) is int else None
    return text if text is not None else f"{n:02d}"


class Ctx(Context):
    def __init__(self, state: dict, data: StruggleData):
        super().__init__(state, PROCEDURES)
        self.data = data
        self.galaxy = data.galaxy
        self.units: dict[str, dict] = state["units"]
        self.systems: dict[str, dict] = state["systems"]
        # Where-is-what indexes (sector -> units, force -> units), built on first use and
        # then kept up to date by the primitives that move units or change their force
        # (set_loc, set_force, place_unit, remove_unit...). Each list keeps the order of
        # ``units`` (``_pos``: a unit's rank in that dict), so results equal a plain scan.
        self._at: dict[int, list[str]] | None = None
        self._by_force: dict[str, list[str]] = {}
        self._imperial: dict[int, int] = {}   # sector -> Imperial mobile units there
        self._pos: dict[str, int] = {}
        self._next = 0
        #: How many changes to units this context made: a session's cache (cache.py) notes
        #: it to tell whether the state changed since its player chose an action.
        self.edits = 0
        #: Derived facts a read-only user (the bot) keeps while this context stays current.
        self.notes: dict = {}

    # ======================================================================= indexes
    def _index(self) -> dict[int, list[str]]:
        if self._at is None:
            at: dict[int, list[str]] = {}
            by_force: dict[str, list[str]] = {}
            imperial: dict[int, int] = {}
            pos: dict[str, int] = {}
            for uid, u in self.units.items():
                pos[uid] = len(pos)
                loc = u["loc"]
                if loc is not None:
                    at.setdefault(loc, []).append(uid)
                    if u["side"] == IMP:
                        imperial[loc] = imperial.get(loc, 0) + 1
                f = u["force"]
                if f is not None:
                    by_force.setdefault(f, []).append(uid)
            self._at = at
            self._by_force = by_force
            self._imperial = imperial
            self._pos = pos
            self._next = len(pos)
        return self._at

    def _edited(self) -> None:
        self.edits += 1

    def current(self) -> bool:
        """Whether this context still describes its state: the same unit and system tables.
        It cannot see a change made through another context or by hand: whoever keeps a
        context between calls (a session's cache) must see that nothing else changes the
        state, and a change by hand needs ``invalidate``."""
        st = self.state
        return self.units is st["units"] and self.systems is st["systems"]

    def invalidate(self) -> None:
        """Forget the indexes after a unit changed sector, side or force by hand."""
        self._at = None
        self._edited()

    def _file(self, table: dict, key, uid: str) -> None:
        """Add uid to ``table[key]`` at its place in the order of ``units``."""
        found = table.get(key)
        if found is None:
            table[key] = [uid]
            return
        pos = self._pos
        rank = pos[uid]
        i = len(found)
        while i and pos[found[i - 1]] > rank:
            i -= 1
        found.insert(i, uid)

    @staticmethod
    def _unfile(table: dict, key, uid: str) -> None:
        found = table[key]
        found.remove(uid)
        if not found:
            del table[key]

    def _refile(self, uid: str, key: str, value, table: dict | None) -> None:
        """Set a unit's ``loc`` or ``force`` and move it in that index (when built)."""
        u = self.units[uid]
        old = u[key]
        if self._at is not None and old != value:
            if old is not None:
                self._unfile(table, old, uid)
            if value is not None:
                self._file(table, value, uid)
            if key == "loc" and u["side"] == IMP:
                self._count_imperial(old, -1)
                self._count_imperial(value, 1)
        u[key] = value
        self._edited()

    def _count_imperial(self, n: int | None, delta: int) -> None:
        if n is not None:
            left = self._imperial.get(n, 0) + delta
            if left:
                self._imperial[n] = left
            else:
                del self._imperial[n]

    def imperial_mobile_sectors(self) -> dict[int, int]:
        """Sector -> how many Imperial mobile units stand there, for the sectors that hold
        any (the index itself: read it, never change it)."""
        self._index()
        return self._imperial

    def set_loc(self, uid: str, n: int | None) -> None:
        # self._refile(uid, "loc", n, self._at), written out: units move often (every step
        # of every move), and the helpers' calls cost more than their work.
        u = self.units[uid]
        old = u["loc"]
        at = self._at
        if at is not None and old != n:
            if old is not None:   # self._unfile(at, old, uid)
                found = at[old]
                found.remove(uid)
                if not found:
                    del at[old]
            if n is not None:
                self._file(at, n, uid)
            if u["side"] == IMP:   # self._count_imperial(old, -1) and (n, 1)
                imperial = self._imperial
                if old is not None:
                    left = imperial.get(old, 0) - 1
                    if left:
                        imperial[old] = left
                    else:
                        del imperial[old]
                if n is not None:
                    imperial[n] = imperial.get(n, 0) + 1
        u["loc"] = n
        self.edits += 1   # self._edited()

    def set_force(self, uid: str, fid: str | None) -> None:
        self._refile(uid, "force", fid, self._by_force)

    # ======================================================================= options
    def option(self, key: str) -> bool:
        return bool(self.state["options"].get(key))

    # ======================================================================= CI
    @property
    def ci(self) -> float:
        return self.state["ci2"] / 2

    def effect_active(self, marker: str) -> bool:
        return marker in self.state["effects"]

    def leviathan_in_effect(self) -> bool:
        return self.state["leviathan"]

    def change_ci(self, raw: int, cause: str, rule: str, from_event: bool = False,
                  refs: Iterable[Any] = ()) -> None:
        """SGE-CI-13: multiplier (Spectacle doubles, Leviathan halves, both: neither), the
        turn-1 cap for event increases (SGE-CI-9), the floor of 0, then the check for 100.
        Every change of the CI comes through here, so the multipliers apply to all of them,
        whatever their cause (SGE-CI-6)."""
        if raw == 0 or self.state["outcome"] is not None:
            return
        spectacle = self.effect_active("SPECTACLE")
        leviathan = self.leviathan_in_effect()
        delta2 = raw * 2
        mult = "x1"
        values = self.data["event_values"]
        if spectacle and not leviathan:          # SGE-CI-7
            factor = values["spectacle_ci_multiplier"]
            delta2 = math.floor(delta2 * factor)
            mult = f"{multiplier_label(factor)} (Spectacle)"
        elif leviathan and not spectacle:        # SGE-CI-5
            factor = values["leviathan_ci_multiplier"]
            delta2 = math.floor(delta2 * factor)
            mult = f"{multiplier_label(factor)} (Leviathan)"
        old = self.state["ci2"]
        new = old + delta2
        capped = ""
        cap2 = self.data["ci_track"]["turn1_cap"] * 2
        from_event = from_event or self.state["in_event"]
        if from_event and delta2 > 0 and self.state["turn"] == 1:   # SGE-CI-8, SGE-CI-9
            if old >= cap2:
                new = old
                capped = " (turn-1 cap: ignored)"
            elif new > cap2:
                new = cap2
                capped = " (turn-1 cap 95)"
        new = max(self.data["ci_track"]["floor"] * 2, new)   # SGE-CI-1
        self.state["ci2"] = new
        if self.keeps_log:
            self.log(rule, "ci", f"Chaos Index {fmt_ci(old)} -> {fmt_ci(new)}: {cause} "
                     f"(raw {raw:+d}, {mult}){capped}", refs=list(refs))
        self.state["stats"]["ci_changes"] += 1
        if new >= self.data["ci_track"]["collapse_at"] * 2:   # SGE-VIC-3
            self.end_game("collapse", "SGE-VIC-3")

    def change_rp(self, delta: int, cause: str, rule: str) -> int:
        """SGE-RES-10: whole numbers, kept within the floor and cap of misc_decided's
        resource_points (0 and none). Returns the change actually made."""
        old = self.state["rp"]
        track = self.data["misc_decided"]["resource_points"]
        new = max(track["floor"], old + delta)
        if track["cap"] is not None:
            new = min(track["cap"], new)
        self.state["rp"] = new
        if new != old and self.keeps_log:
            self.log(rule, "rp", f"Resource Points {old} -> {new}: {cause}")
        return new - old

    # ======================================================================= end
    def vp(self) -> int:
        """SGE-VIC-2: sectors holding an Imperial system unit."""
        return sum(1 for s in self.systems.values() if s["side"] == IMP)

    def end_game(self, result: str, rule: str) -> None:
        if self.state["outcome"] is not None:
            return
        self.state["outcome"] = {"result": result, "vp": self.vp(), "ci": self.ci,
                                 "turn": self.state["turn"]}
        self.log(rule, "outcome", f"The game ends: {result} (VP {self.vp()}, CI {fmt_ci(self.state['ci2'])}, "
                 f"turn {self.state['turn']})")

    # ======================================================================= units
    def unit_type(self, code: str):
        return self.data.unit_types[code]

    def factor(self, uid: str, kind: str, defending: bool = True) -> int:
        """A mobile unit's military or morph factor (kind 'mil' or 'morph').
        Parenthesized factors count only in defence (SGE-REC-4); Trans-humans read the CI
        (SGE-TH-2)."""
        u = self.units[uid]
        t = self.data.unit_types[u["type"]]
        value = t.mil if kind == "mil" else t.morph
        if value is None:
            value = self.th_factor(u["side"])
        elif not defending and (t.mil_paren if kind == "mil" else t.morph_paren):
            return 0
        return value

    def factor_total(self, uids: Iterable[str], kind: str, defending: bool = True) -> int:
        """The sum of ``factor`` over ``uids``, in one loop (the combat rules and the bot
        add up factors very often)."""
        units = self.units
        types = self.data.unit_types
        mil = kind == "mil"
        total = 0
        for uid in uids:
            u = units[uid]
            t = types[u["type"]]
            value = t.mil if mil else t.morph
            if value is None:
                value = self.th_factor(u["side"])
            elif not defending and (t.mil_paren if mil else t.morph_paren):
                continue
            total += value
        return total

    def changes_side(self, unit: dict) -> bool:
        """Whether a mobile unit can ever change side (Imperial Order never does, SGE-IO-2)."""
        return not self.data.unit_types[unit["type"]].never_converts

    def th_factor(self, side: str) -> int:
        ci = self.ci
        for band in self.data["th_factors"]["bands"]:
            if band["ci_max"] is None or ci <= band["ci_max"]:
                return band["imperial" if side == IMP else "chaos"]
        raise AssertionError("th_factors has no open band")

    def mobile_at(self, n: int) -> list[str]:
        return list(self._index().get(n, ()))

    def mobile_count(self, n: int) -> int:
        return len(self._index().get(n, ()))

    def imp_mobile_at(self, n: int) -> list[str]:
        units = self.units
        return [uid for uid in self._index().get(n, ()) if units[uid]["side"] == IMP]

    def chaos_mobile_at(self, n: int) -> list[str]:
        units = self.units
        return [uid for uid in self._index().get(n, ()) if units[uid]["side"] == CHAOS]

    def force_units(self, fid: str) -> list[str]:
        self._index()
        return list(self._by_force.get(fid, ()))

    def rebels_at(self, n: int) -> list[str]:
        units = self.units
        return [uid for uid in self._index().get(n, ())
                if units[uid]["side"] == CHAOS and units[uid]["force"] is None]

    def system_at(self, n: int) -> dict | None:
        key = _KEY.get(n) if type(n) is int else None
        return self.systems.get(str(n) if key is None else key)

    def system_values(self, sys_unit: dict) -> tuple[int, int, int]:
        return self.data.system_counters[sys_unit["id"]]

    def effective_rv(self, sys_unit: dict) -> int:
        """SGE-IRS-2: RV + 1 (misc_decided's increased_resources.rv_bonus) with an Increased
        Resources marker."""
        return self.data.system_counters[sys_unit["id"]][2] + self.irs_bonus(sys_unit)

    def irs_bonus(self, sys_unit: dict) -> int:
        """What an Increased Resources marker adds to a system's RV (SGE-IRS-2), 0 without one."""
        if not sys_unit.get("irs"):
            return 0
        return self.data["misc_decided"]["increased_resources"]["rv_bonus"]

    def too_close_to_nexus(self, n: int) -> bool:
        """SGE-NEX-2: a Nexus stands in n or closer than misc_decided's nexus.min_distance (2:
        never in or next to a sector with another Nexus)."""
        nexus = self.state["nexus"]
        if not nexus:
            return False
        reach = self.data["misc_decided"]["nexus"]["min_distance"]
        if reach == 2:   # the table's value: n and its neighbours, looked up directly
            return n in nexus or any(m in nexus for m in self.galaxy.neighbours[n])
        return any(n == m or (self.galaxy.distance(m, n) or reach) < reach for m in nexus)

    def imperial_controlled(self, n: int) -> bool:
        """SGE-RES-7."""
        key = _KEY.get(n) if type(n) is int else None   # str(n)
        s = self.systems.get(str(n) if key is None else key)
        return s is not None and s["side"] == IMP

    def imperial_system_sectors(self) -> list[int]:
        return sorted(int(k) for k, s in self.systems.items() if s["side"] == IMP)

    def leaders_in(self, n: int) -> list[int]:
        units = self.units
        return [units[uid]["leader"] for uid in self._index().get(n, ())
                if units[uid]["side"] == IMP and units[uid]["leader"]]

    def has_imperial_unit(self, n: int) -> bool:
        if self.imperial_controlled(n):
            return True
        units = self.units
        return any(units[uid]["side"] == IMP for uid in self._index().get(n, ()))

    def flippable_at(self, n: int, mobile_only: bool) -> bool:
        """A sector qualifies for the Usurper/Rebellion searches only with an Imperial unit
        that can change side (SGE-DICE-8, SGE-IO-2)."""
        units = self.units
        for uid in self._index().get(n, ()):
            u = units[uid]
            if u["side"] == IMP and self.changes_side(u):
                return True
        return (not mobile_only) and self.imperial_controlled(n)

    # ------------------------------------------------------------------ placing units
    def place_unit(self, code: str, side: str, loc: int | None, rule: str,
                   force: str | None = None, why: str = "") -> str | None:
        """Take a counter of ``code`` from the mix (SGE-REC-6: none left, none placed)."""
        free = self.state["mix"][code]
        if not free:
            self.log("SGE-REC-6", "note", f"No {code} counter left in the mix: none placed"
                     + (f" ({why})" if why else ""))
            return None
        uid = free.pop(0)
        self.units[uid] = {"type": code, "side": side, "loc": loc, "force": force, "leader": None}
        if self._at is not None:   # the new unit comes last in ``units``
            self._pos[uid] = self._next
            self._next += 1
            if loc is not None:
                self._at.setdefault(loc, []).append(uid)
                if side == IMP:
                    self._count_imperial(loc, 1)
            if force is not None:
                self._by_force.setdefault(force, []).append(uid)
        self._edited()
        if loc is not None and self.keeps_log:
            owner = "Imperial" if side == IMP else ("Rebel" if force is None else f"force {force}")
            self.log(rule, "place", f"{uid} ({owner}) placed in {fmt_sector(loc)}"
                     + (f": {why}" if why else ""), refs=[uid, sector_ref(loc)])
        return uid

    def remove_unit(self, uid: str, rule: str, why: str, combat: str | None = None) -> None:
        """Eliminate or disband a mobile unit: back to the mix (SGE-CMB-14, SGE-REC-6)."""
        u = self.units.pop(uid)
        if self._at is not None:
            if u["loc"] is not None:
                self._unfile(self._at, u["loc"], uid)
                if u["side"] == IMP:
                    self._count_imperial(u["loc"], -1)
            if u["force"] is not None:
                self._unfile(self._by_force, u["force"], uid)
            del self._pos[uid]
        self._edited()
        if u["leader"]:
            self._lose_imperial_leader(u["leader"], uid, "its unit is gone")
        free = self.state["mix"][u["type"]]
        free.append(uid)
        free.sort(key=_counter_order)
        loc = u["loc"]
        if self.keeps_log:
            self.log(rule, "eliminate", f"{uid} eliminated in {fmt_sector(loc)}: {why}",
                     refs=[uid, sector_ref(loc)] if loc else [uid])
        if combat == "mil":   # SGE-CI-2, SGE-CI-3: by the losing unit's side
            key = "imperial_mobile_eliminated" if u["side"] == IMP else "chaos_mobile_eliminated"
            self.change_ci(self.data["ci_changes"]["combat"][key], f"{uid} eliminated in combat",
                           "SGE-CI-2")

    def convert_unit(self, uid: str, rule: str, why: str, force: str | None = None,
                     combat: str | None = None) -> bool:
        """Flip a mobile unit to its other side (IO never flips, SGE-IO-2). The new owner is
        ``force`` (a Chaos force id) or None (Rebel or ordinary Imperial unit)."""
        u = self.units[uid]
        if not self.changes_side(u):
            self.log("SGE-IO-2", "note", f"{uid} is Imperial Order and does not change side")
            return False
        old_side = u["side"]
        u["side"] = CHAOS if old_side == IMP else IMP
        if self._at is not None:
            self._count_imperial(u["loc"], 1 if u["side"] == IMP else -1)
        self.set_force(uid, force if u["side"] == CHAOS else None)
        if u["leader"]:
            leader = u["leader"]
            u["leader"] = None
            self._lose_imperial_leader(leader, uid, "its unit changed side")
        if self.keeps_log:
            owner = ("Imperial" if u["side"] == IMP else
                     ("a Rebel" if force is None else f"part of force {force}"))
            self.log(rule, "convert", f"{uid} in {fmt_sector(u['loc'])} changes side and is now "
                     f"{owner}: {why}", refs=[uid, sector_ref(u["loc"])])
        if combat == "morph":
            key = "imperial_mobile_converted" if old_side == IMP else "chaos_mobile_converted"
            self.change_ci(self.data["ci_changes"]["combat"][key], f"{uid} converted in combat",
                           "SGE-CI-2")
        return True

    def _lose_imperial_leader(self, value: int, uid: str, why: str) -> None:
        """SGE-LDR-4: an eliminated Imperial leader returns to the Imperial leader pool."""
        pool = self.state["imp_leaders"]
        pool.append(value)
        pool.sort()
        self.log("SGE-LDR-4", "leader", f"Imperial leader {value} on {uid} is eliminated: {why}",
                 refs=[uid])

    def remove_leader(self, uid: str, rule: str, why: str) -> None:
        u = self.units[uid]
        if u["leader"]:
            value = u["leader"]
            u["leader"] = None
            self._lose_imperial_leader(value, uid, why)

    # ------------------------------------------------------------------ systems
    def place_system(self, n: int, side: str, rule: str, ie: int | None = None,
                     counter: str | None = None, why: str = "") -> dict | None:
        """Draw a system unit from the pool (or take ``counter``) and put it in sector n."""
        pool = self.state["system_pool"]
        if counter is None:
            if not pool:
                self.log(rule, "note", f"The system pool is empty: no system unit for {fmt_sector(n)}")
                return None
            counter = pool.pop(self.rng.below(len(pool)))
        else:
            pool.remove(counter)
        s = {"id": counter, "side": side, "ie": ie, "irs": False}
        self.systems[str(n)] = s
        if self.keeps_log:
            mil, morph, rv = self.data.system_counters[counter]
            self.log(rule, "place", f"{'Imperial' if side == IMP else 'Chaos'} system unit "
                     f"{counter} ({mil}-{morph}, RV {rv}) placed in {fmt_sector(n)}"
                     + (f": {why}" if why else ""), refs=[sector_ref(n)])
        if ie is not None:
            self.add_ie_sector(ie, n)
        return s

    def remove_system(self, n: int, rule: str, why: str, combat: str | None = None) -> None:
        """Eliminate a system unit: back to the pool; the sector stays a system sector."""
        s = self.systems.pop(str(n))
        rv = self.effective_rv(s)
        self.state["system_pool"].append(s["id"])
        self.state["system_pool"].sort()
        self.log(rule, "eliminate", f"System unit {s['id']} in {fmt_sector(n)} eliminated: {why}",
                 refs=[sector_ref(n)])
        if s.get("irs"):
            self.log("SGE-IRS-3", "note", f"The Increased Resources marker in {fmt_sector(n)} is removed")
        if combat == "mil":
            c = self.data["ci_changes"]["combat"]
            side = "imperial" if s["side"] == IMP else "chaos"
            per = c[f"{side}_system_eliminated_per_rv"]
            self.change_ci(per * rv, f"system in {fmt_sector(n)} eliminated in combat", "SGE-CI-2")
        self.after_system_change(n, s)

    def convert_system(self, n: int, rule: str, why: str, ie: int | None = None,
                       combat: str | None = None) -> None:
        s = self.systems[str(n)]
        rv = self.effective_rv(s)
        old_side = s["side"]
        old_ie = s["ie"]
        s["side"] = CHAOS if old_side == IMP else IMP
        s["ie"] = ie if s["side"] == CHAOS else None
        if s.get("irs"):
            s["irs"] = False
            self.log("SGE-IRS-3", "note", f"The Increased Resources marker in {fmt_sector(n)} is removed")
        if self.keeps_log:
            self.log(rule, "convert", f"System unit in {fmt_sector(n)} changes side and is now "
                     f"{owner_words(s['side'], ie)}: {why}", refs=[sector_ref(n)])
        if combat == "morph":
            c = self.data["ci_changes"]["combat"]
            side = "imperial" if old_side == IMP else "chaos"
            per = c[f"{side}_system_converted_per_rv"]
            self.change_ci(per * rv, f"system in {fmt_sector(n)} converted in combat", "SGE-CI-2")
        if ie is not None and s["side"] == CHAOS:
            self.add_ie_sector(ie, n)
        if old_ie is not None:
            self.after_system_change(n, {"ie": old_ie})
        else:
            self.after_system_change(n, s)

    def after_system_change(self, n: int, old: dict) -> None:
        """A system left its IE or the Empire: drop the IE marker, dissolve the IE if it was
        the home (SGE-CMB-10, SGE-IE-8), then the continuous checks."""
        ie = old.get("ie")
        if ie is not None:
            rec = self.state["ies"].get(str(ie))
            if rec is not None and n in rec["sectors"] and n != rec["home"]:
                s = self.systems.get(str(n))
                if s is not None and s["ie"] != ie:
                    rec["sectors"].remove(n)
        self.checks()

    # ------------------------------------------------------------------ IEs
    def add_ie_sector(self, ie: int, n: int) -> None:
        rec = self.state["ies"].get(str(ie))
        if rec is not None and n not in rec["sectors"]:
            rec["sectors"].append(n)
            rec["sectors"].sort()

    def ie_of_sector(self, n: int) -> int | None:
        for key, rec in self.state["ies"].items():
            if n in rec["sectors"]:
                return int(key)
        return None

    # ------------------------------------------------------------------ forces
    def new_force(self, kind: str, leader: int, rule: str, ie: int | None = None,
                  leader_marker: bool = False, marker: str | None = None) -> str:
        self.state["next_seq"] += 1
        seq = self.state["next_seq"]
        fid = f"F{seq}"
        self.state["forces"][fid] = {"kind": kind, "leader": leader, "ie": ie, "seq": seq,
                                     "leader_marker": leader_marker, "marker": marker,
                                     "detachment": False}
        return fid

    def force_name(self, fid: str) -> str:
        f = self.state["forces"][fid]
        if f["kind"] == "ie":
            return f"IE #{f['ie']} {'home detachment' if f['detachment'] else 'force'} ({fid})"
        return f"{f['kind'].capitalize()} force {fid}"

    def force_location(self, fid: str) -> int | None:
        self._index()
        members = self._by_force.get(fid)
        return self.units[members[0]]["loc"] if members else None

    def forces_at(self, n: int) -> list[str]:
        """The Chaos forces located in n (``force_location``), in the order of ``forces``.
        A force is where its first unit is, so only forces of units in n can qualify."""
        units = self.units
        at = self._at if self._at is not None else self._index()
        # The forces of the units in n: ``first``, and all of them in ``present`` once a
        # second one shows up (most sectors hold none, or one).
        first = None
        present = None
        for uid in at.get(n, ()):
            fid = units[uid]["force"]
            if fid is not None and fid != first:
                if first is None:
                    first = fid
                elif present is None:
                    present = {first, fid}
                else:
                    present.add(fid)
        if first is None:
            return []
        forces = self.state["forces"]
        by_force = self._by_force
        if present is None:   # no need to walk every force for the order
            return [first] if first in forces and units[by_force[first][0]]["loc"] == n else []
        return [fid for fid in forces
                if fid in present and units[by_force[fid][0]]["loc"] == n]

    def end_force(self, fid: str, why: str) -> None:
        """SGE-OPS-1: a force's marker is discarded; its leader marker returns to the pool
        (SGE-LDR-8)."""
        f = self.state["forces"].pop(fid)
        if f.get("leader_marker"):
            self.state["chaos_leaders"].append(f["leader"])
            self.state["chaos_leaders"].sort()
        if f.get("marker"):
            self.state["discard"].append(f["marker"])
        for uid in self.force_units(fid):
            self.set_force(uid, None)   # remaining units become Rebels
        self.log("SGE-OPS-1", "force", f"{self.force_name_raw(fid, f)} ends: {why}")

    @staticmethod
    def force_name_raw(fid: str, f: dict) -> str:
        if f["kind"] == "ie":
            return f"IE #{f['ie']} force ({fid})"
        return f"{f['kind'].capitalize()} force {fid}"

    # ------------------------------------------------------------------ continuous checks
    def checks(self) -> None:
        """SGE-SEQ-17, in its order (the CI check happens in change_ci)."""
        st = self.state
        if st["outcome"] is not None:
            return
        # 2. Leviathan needs an Imperial system in the Core.
        if st["leviathan"] and not self.imperial_controlled(self.galaxy.core):
            st["leviathan"] = False
            st["discard"].append("LEVIATHAN")
            self.log("SGE-EV-LEVIATHAN", "marker", "The Core holds no Imperial system: Leviathan ends")
        # 3. Nexus without an Imperial system is eliminated.
        if st["nexus"]:
            for n in list(st["nexus"]):
                if not self.imperial_controlled(n):
                    self.lose_nexus(n, "its sector holds no Imperial system", "SGE-NEX-4")
        # 4. Stargates likewise, without a CI change.
        if st["stargates"]:
            for n in list(st["stargates"]):
                if not self.imperial_controlled(n):
                    st["stargates"].remove(n)
                    self.log("SGE-STG-3", "marker", f"The Stargate in {fmt_sector(n)} is removed",
                             refs=[sector_ref(n)])
        # 5. A force with no mobile units ends.
        forces = st["forces"]
        if forces:
            if self._at is None:
                self._index()
            # Every force has units, almost always: a test in C first. Forces end in the
            # order of ``forces``.
            if not forces.keys() <= self._by_force.keys():
                alive = self._by_force
                for fid in [f for f in forces if f not in alive]:
                    self.end_force(fid, "it has no mobile units left")
        # 6. An IE without its home system dissolves.
        ies = st["ies"]
        if ies:
            # The checks run after every change and mostly find nothing to do: system_at(n)
            # and int(number) are written out for this, the one loop that always runs.
            systems = self.systems
            for number, rec in list(ies.items()):
                n = rec["home"]
                key = _KEY.get(n) if type(n) is int else None
                home = systems.get(str(n) if key is None else key)
                ie = _NUMBER.get(number)   # int(number)
                if ie is None:
                    ie = int(number)
                if home is None or home["side"] != CHAOS or home["ie"] != ie:
                    self.dissolve_ie(ie)
        # 7. The Institute returns to the pool when a force there is strong enough.
        if st["institutes"]:
            limit = self.data["event_values"]["institute_return_strength"]
            units = self.units
            at = self._at if self._at is not None else self._index()
            for inst in list(st["institutes"]):
                # Each Chaos force there, and the Rebels as one: (mil, morph) attack strength.
                totals: dict[str | None, list[int]] = {None: [0, 0]}
                for uid in at.get(inst["loc"], ()):
                    u = units[uid]
                    if u["side"] == CHAOS:
                        t = totals.setdefault(u["force"], [0, 0])
                        t[0] += self.factor(uid, "mil", defending=False)
                        t[1] += self.factor(uid, "morph", defending=False)
                for mil, morph in totals.values():
                    if mil >= limit or morph >= limit:
                        st["institutes"].remove(inst)
                        st["pool"].append("INSTITUTE")
                        self.log("SGE-EV-INSTITUTE", "marker",
                                 f"A Chaos force of strength {limit}+ stands on the Institute "
                                 f"in {fmt_sector(inst['loc'])}: it returns to the pool",
                                 refs=[sector_ref(inst["loc"])])
                        break

    def lose_nexus(self, n: int, why: str, rule: str) -> None:
        self.state["nexus"].remove(n)
        self.log(rule, "marker", f"The Nexus in {fmt_sector(n)} is eliminated: {why}",
                 refs=[sector_ref(n)])
        amounts = self.data["ci_changes"]["nexus_lost"]
        self.change_ci(amounts["core"] if n == self.galaxy.core else amounts["other"],
                       f"Nexus lost in {fmt_sector(n)}", "SGE-CI-2")

    def dissolve_ie(self, ie: int) -> None:
        """SGE-IE-8: markers removed, systems and units become Rebels, leader to the pool
        (SGE-LDR-8)."""
        rec = self.state["ies"].pop(str(ie))
        for s in self.systems.values():
            if s["ie"] == ie:
                s["ie"] = None
        for fid, f in list(self.state["forces"].items()):
            if f["kind"] == "ie" and f["ie"] == ie:
                for uid in self.force_units(fid):
                    self.set_force(uid, None)
                del self.state["forces"][fid]
        if rec.get("leader_marker", True):
            self.state["chaos_leaders"].append(rec["leader"])
            self.state["chaos_leaders"].sort()
        if rec.get("arises"):
            self.state["discard"].append("IE-ARISES")
        self.log("SGE-IE-8", "ie", f"IE #{ie} loses its home system in {fmt_sector(rec['home'])} "
                 "and dissolves: its systems and units become Rebels", refs=[sector_ref(rec["home"])])

    # ------------------------------------------------------------------ leaders
    def random_leader_value(self, rule: str, why: str) -> int:
        """SGE-LDR-7: a d10 read on the random leader table (Usurpers, empty Chaos pool)."""
        face = self.roll("d10", "SGE-LDR-7", f"{why}: random leader value")
        for row in self.data["leaders"]["random_value"]:
            if face <= row["face_max"]:
                return row["value"]
        raise AssertionError("leaders.random_value does not cover every face")

    def draw_chaos_leader(self, rule: str, why: str) -> tuple[int, bool]:
        """A leader marker drawn at random from the Chaos pool (SGE-LDR-2); SGE-LDR-7 when the
        pool is empty. Returns (value, whether a marker was taken)."""
        pool = self.state["chaos_leaders"]
        if not pool:
            return self.random_leader_value(rule, why), False
        value = pool.pop(self.rng.below(len(pool)))
        self.log(rule, "draw", f"{why}: Chaos leader {value} drawn from the pool")
        return value, True

    # ------------------------------------------------------------------ random sectors
    def random_sector(self, rule: str, why: str, system_only: bool = False,
                      max_number: int | None = None) -> int:
        """SGE-DICE-6: two d10 read as tens and units (SGE-DICE-1); reroll 00 and anything
        off the map."""
        top = max_number or min(self.data["misc_decided"]["random_sector"]["max_sector"],
                                len(self.galaxy.numbers))
        faces = []
        while True:
            tens, units = self.rng.d10(), self.rng.d10()
            value = tens * 10 + units
            faces.append(value)
            if 1 <= value <= top and (not system_only or self.galaxy.is_system[value]):
                break
        self.log("SGE-DICE-6", "roll", f"{why}: random sector {fmt_sector(value)}"
                 + (f" (rerolled {', '.join(f'{f:02d}' for f in faces[:-1])})" if len(faces) > 1 else ""),
                 refs=[sector_ref(value)],
                 dice=[{"die": "2d10", "face": f, "modifiers": [], "result": f} for f in faces])
        return value


def owner_words(side: str, ie: int | None) -> str:
    if side == IMP:
        return "Imperial"
    return f"part of IE #{ie}" if ie else "a Rebel system"


def multiplier_label(factor: float) -> str:
    """How a CI multiplier reads in the log: x2, x1/2 (the table's defaults), x1.5, ..."""
    return "x1/2" if factor == 0.5 else f"x{factor:g}"


def fmt_ci(ci2: int) -> str:
    return f"{ci2 // 2}.5" if ci2 % 2 else str(ci2 // 2)


@lru_cache(maxsize=None)
def _counter_order(uid: str) -> tuple[str, int]:
    code, _, num = uid.partition("-")
    return code, int(num)


def ceil_div(a: int, b: int) -> int:
    return -(-a // b)


__all__ = ["Ctx", "IMP", "CHAOS", "sector_ref", "fmt_sector",
           "fmt_ci", "ceil_div", "FORCE_ORDER"]
