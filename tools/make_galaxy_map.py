"""Generate ``assets/maps/struggle-galaxy.yaml``, the shipped Struggle galaxy map (SGE-MAP-1;
the map rules it follows are listed in ``RULES``).

This is a development tool, run by hand when the map's look or layout changes; the program
never runs it. It needs numpy and scipy, and shapely for the label positions (shapely is a
development dependency only). The output is deterministic: the same script always writes
the same bytes. Run it from anywhere::

    python tools/make_galaxy_map.py            # write the map, check it, print a summary
    python tools/make_galaxy_map.py --preview out.png   # also draw it (needs matplotlib)
    python tools/make_galaxy_map.py --check    # only check that the file on disk is current

How the map is built
--------------------
The layout is drawn in a "spiral frame" with two coordinates: a radial level ``s`` and an
untwisted angle ``v`` (degrees). The frame is mapped to the canvas with radius ``r(s)`` and
angle ``v + twist(s)``: near the Core the arms leave almost straight, farther out they
follow a logarithmic spiral (pitch PITCH_OUT), so a line ``v = const`` is a spiral arm.

* The Core (01) is the disc ``s < 1`` at the centre of the canvas (SGE-MAP-3).
* Ring 1 (02-07) closes a full circle round the Core, six wedges split by short spokes,
  so the Core touches exactly 02-07 (SGE-MAP-10).
* From ring 2 outwards each arm is a strip of half-width ``h(s)`` round ``v = 60 * arm``
  (Norma 0, Scutum-Centaurus 60, Sagittarius 120, Orion 180, Perseus 240, Outer 300).
  Ring k of arm a is sector 6k-4+a, cut from the next ring by a line that crosses the arm
  nearly at a right angle (TILT), which keeps the sectors compact instead of sheared.
  56 and 57 add ring 10 to Scutum-Centaurus and Perseus.
* The six gaps between the arms hold the inter-arm sectors, each gap cut into an inner,
  middle and outer sector (58+g, 64+g, 70+g); the outer ones and the arm tips form the
  galaxy's edge.
* 58 (Rim) stands on the corner where Orion's tip 53 meets 73, straight out from the
  Core, and touches only those two sectors (SGE-MAP-9).
* Twelve Void cells fill the ring between the sectors and the rim of the disc; they are
  split by the arm edges continued outwards (SGE-MAP-5, SGE-MAP-6).

Each outline is a chain of pieces along four kinds of curve: levels (``s`` fixed: the Core
and the rim), arm edges (``v = 60 * arm +- h(s)``), spokes (``v`` fixed) and cuts (straight
segments in the frame). Every curve is sampled at one canonical set of parameters (a
regular grid plus every corner any cell has on that curve), and each point is computed
once from its canonical key and rounded to 0.1, so two cells that share a boundary list
exactly the same vertices along it and there are no T-junctions (SGE-MAP-8). A gentle,
smooth ripple makes the outlines look drawn rather than ruled.

Finally the script reads its own YAML back, runs the game's validator (``check_galaxy``,
which must report no error and no warning, SGE-MAP-13) and checks the layout goals
of this map: no sector smaller than 0.2 % of the disc,
labels (poles of inaccessibility) well inside their sectors, and exactly the
Void-adjacent sectors that SGE-MAP-6 lists. Any failure stops the script before it writes.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

import numpy as np
from scipy.interpolate import PchipInterpolator

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "assets" / "maps" / "struggle-galaxy.yaml"
sys.path.insert(0, str(REPO))

# ----------------------------------------------------------------------------- roster
# SGE-MAP-15: number, name, arm, system symbol.
ROSTER = [
    (1, "Imperial Core", "Core", True),
    (2, "Norma Gate", "Norma", True),
    (3, "Scutum Gate", "Scutum-Centaurus", True),
    (4, "Sagittarius Gate", "Sagittarius", True),
    (5, "Orion Gate", "Orion", True),
    (6, "Perseus Gate", "Perseus", True),
    (7, "Camelopardalis Drift", "Outer", False),
    (8, "Ara Cluster", "Norma", True),
    (9, "Centaurus Prime", "Scutum-Centaurus", True),
    (10, "Lagoon", "Sagittarius", True),
    (11, "Sol March", "Orion", True),
    (12, "Cassiopeia", "Perseus", True),
    (13, "Lynx Bastion", "Outer", True),
    (14, "Circinus", "Norma", True),
    (15, "Crux Shoals", "Scutum-Centaurus", False),
    (16, "Trifid", "Sagittarius", True),
    (17, "Cygnus", "Orion", True),
    (18, "Cepheus", "Perseus", True),
    (19, "Ursa Drift", "Outer", False),
    (20, "Norma Deep", "Norma", True),
    (21, "Hadar", "Scutum-Centaurus", True),
    (22, "Star Cloud Reach", "Sagittarius", False),
    (23, "Lyra", "Orion", True),
    (24, "Double Cluster Drift", "Perseus", False),
    (25, "Draco", "Outer", True),
    (26, "Triangulum Australe", "Norma", True),
    (27, "Musca", "Scutum-Centaurus", True),
    (28, "Omega Nebula", "Sagittarius", True),
    (29, "Gould Belt", "Orion", False),
    (30, "Auriga", "Perseus", True),
    (31, "Halcyon", "Outer", True),
    (32, "Lupus March", "Norma", True),
    (33, "Coalsack Marches", "Scutum-Centaurus", True),
    (34, "Aquila Rift", "Sagittarius", False),
    (35, "Rigel", "Orion", True),
    (36, "Heart Nebula", "Perseus", True),
    (37, "Far Cygnus", "Outer", True),
    (38, "Kestrel Drift", "Norma", False),
    (39, "Carina", "Scutum-Centaurus", True),
    (40, "Serpens", "Sagittarius", True),
    (41, "Betelgeuse", "Orion", True),
    (42, "Monoceros", "Perseus", True),
    (43, "Morrow's Reach", "Outer", True),
    (44, "Vantor's Veil", "Norma", False),
    (45, "Eta Carinae", "Scutum-Centaurus", True),
    (46, "Eagle Nebula", "Sagittarius", True),
    (47, "Horsehead", "Orion", True),
    (48, "Gemini", "Perseus", True),
    (49, "Tyrean Throne", "Outer", True),
    (50, "Norma Terminus", "Norma", True),
    (51, "Vela Drift", "Scutum-Centaurus", False),
    (52, "Sagittarius Terminus", "Sagittarius", True),
    (53, "Puppis", "Orion", True),
    (54, "Algol Drift", "Perseus", False),
    (55, "Rim of Night", "Outer", True),
    (56, "Centaurus Terminus", "Scutum-Centaurus", True),
    (57, "Perseus Terminus", "Perseus", True),
    (58, "Orion Verge", "Rim", False),
    (59, "Sable Gap", "Inter-arm", False),
    (60, "Hollow Reach", "Inter-arm", False),
    (61, "Grey Expanse", "Inter-arm", False),
    (62, "Local Gap", "Inter-arm", False),
    (63, "Dusk Reach", "Inter-arm", False),
    (64, "Shadow Gap", "Inter-arm", False),
    (65, "Ashfall Expanse", "Inter-arm", False),
    (66, "Ember Gap", "Inter-arm", False),
    (67, "Mirren Gulf", "Inter-arm", False),
    (68, "Tethys Drift", "Inter-arm", False),
    (69, "Karst Gulf", "Inter-arm", False),
    (70, "Veil of Sorrows", "Inter-arm", False),
    (71, "Lacuna Prime", "Inter-arm", False),
    (72, "Silent Deep", "Inter-arm", False),
    (73, "Last Light", "Inter-arm", False),
    (74, "Farholm", "Inter-arm", False),
    (75, "Wraith Expanse", "Inter-arm", False),
    (76, "Edge of Night", "Inter-arm", False),
]
RULES = ["SGE-MAP-1", "SGE-MAP-2", "SGE-MAP-3", "SGE-MAP-4", "SGE-MAP-5", "SGE-MAP-6",
         "SGE-MAP-7", "SGE-MAP-8", "SGE-MAP-9", "SGE-MAP-10", "SGE-MAP-11", "SGE-MAP-14",
         "SGE-MAP-15"]
# Sectors that SGE-MAP-6 lists as Void-adjacent; this map makes them the only ones.
VOID_ADJACENT = {50, 52, 53, 55, 56, 57, 58, 71, 72, 73, 74, 75, 76}

# ----------------------------------------------------------------------------- layout
CANVAS = 1000.0
CX = CY = CANVAS / 2           # SGE-MAP-3: the Core at the centre of the canvas
# Radius (canvas units) of each level s = 1..12: 1 = rim of the Core, ring k lies between
# k and k + 1, 12 = rim of the disc (outside edge of the Void).
RADII = [62, 115, 160, 200, 237, 272, 305, 337, 368, 398, 436, 494]
PITCH_IN, PITCH_OUT = 62.0, 31.0  # spiral pitch (degrees) near the Core and in the arms
H_IN, H_OUT = 20.0, 13.0       # arm half-width (degrees of v) at s = 2 and s = 10
TILT = [0, 0, 0.6, 0.8, 0.9, 0.9, 0.9, 0.85, 0.6, 0.35, 0.15, 0.1]  # share of a square cut
GAP_CUTS = (4.9, 7.5)          # levels of the cuts inner|middle and middle|outer in a gap
GAP_TILT = 0.75
MID_S = 2.0                    # level of the ring-1 spokes' outer ends
P1_AT, P2_AT = 0.86, 0.62      # where 58's sides stand on the tops of 73 and 53
S58 = 11.5                     # level of 58's outer edge
RIPPLE = 3.0                   # amplitude of the smooth ripple (canvas units)
SEG = 11.0                     # target length of an outline segment (canvas units)
TOP = {0: 10, 1: 11, 2: 10, 3: 10, 4: 11, 5: 10}  # level of each arm's tip (56, 57: ring 10)

_r_of_s = PchipInterpolator(range(1, 13), RADII)
_dr_of_s = _r_of_s.derivative()


def radius(s: float) -> float:
    return float(_r_of_s(s))


def pitch(s: float) -> float:
    """Pitch angle (radians) of the arms at level s: steep near the Core, then a spiral."""
    t = min(1.0, max(0.0, (s - 1.5) / 1.5))
    t = t * t * (3 - 2 * t)
    return math.radians(PITCH_IN + (PITCH_OUT - PITCH_IN) * t)


# twist(s) = integral of cot(pitch) * r'/r ds, tabulated once
_S_TAB = np.linspace(1.0, 12.0, 4401)
_T_RATE = np.array([float(_dr_of_s(s)) / radius(s) / math.tan(pitch(s)) for s in _S_TAB])
_T_TAB = np.concatenate([[0.0], np.cumsum((_T_RATE[1:] + _T_RATE[:-1]) / 2 * np.diff(_S_TAB))])


def twist(s: float) -> float:
    """Extra angle (degrees) by which the frame is turned at level s."""
    return math.degrees(float(np.interp(s, _S_TAB, _T_TAB)))


def half_width(s: float) -> float:
    """Half-width of an arm (degrees of v) at level s."""
    t = (s - 2.0) / 8.0
    return H_IN + (H_OUT - H_IN) * t


def square_tilt(s: float, half_deg: float) -> float:
    """How far (in s) the ends of a cut across a strip of half-width half_deg must move
    apart for the cut to cross the spiral at a right angle at level s."""
    psi = pitch(s)
    return radius(s) / float(_dr_of_s(s)) * math.sin(psi) * math.cos(psi) * math.radians(half_deg)


def tilt_factor(s: float) -> float:
    return float(np.interp(s, range(1, 13), TILT))


def e(a: int, side: int, s: float) -> tuple[float, float]:
    """The point at level s on the edge of arm a (side -1: towards lower v, +1: higher v)."""
    return (s, 60.0 * a + side * half_width(s))


def arm_cut(a: int, k: float):
    """The cut across arm a near level k: (left end on side -1, right end on side +1)."""
    d = tilt_factor(k) * square_tilt(k, half_width(k))
    return e(a, -1, k + d), e(a, +1, k - d)


def gap_cut(a: int, k: float):
    """The cut across the gap after arm a near level k: (end on arm a, end on arm a + 1)."""
    d = GAP_TILT * square_tilt(k, 30.0 - half_width(k))
    return e(a, +1, k + d), e(a + 1, -1, k - d)


def ripple(x: float, y: float) -> tuple[float, float]:
    """A smooth displacement, zero inside the Core and at the rim of the disc."""
    dx, dy = x - CX, y - CY
    r = math.hypot(dx, dy)
    lo, hi = RADII[0] + 6, RADII[-1] - 6
    if r <= lo or r >= hi:
        return 0.0, 0.0
    w = math.sin(math.pi * (r - lo) / (hi - lo)) ** 2
    ox = math.sin(x / 37.0 + 1.3) * math.cos(y / 53.0 - 0.4) + 0.5 * math.sin((x + y) / 23.0)
    oy = math.cos(x / 41.0 - 0.7) * math.sin(y / 31.0 + 2.1) + 0.5 * math.cos((x - y) / 29.0)
    return RIPPLE * w * ox, RIPPLE * w * oy


def to_canvas(s: float, v: float) -> tuple[float, float]:
    r = radius(s)
    phi = math.radians(v + twist(s))
    x, y = CX + r * math.cos(phi), CY + r * math.sin(phi)
    dx, dy = ripple(x, y)
    return x + dx, y + dy


# ----------------------------------------------------------------------------- curves
# Outlines are chains of pieces (curve, t0, t1), each a stretch of one curve:
#   ("L", s)          a level (circle), parameter v in degrees (may run past 360)
#   ("E", a, side)    the edge v = 60 a + side h(s) of arm a, parameter s
#   ("V", v)          a spoke v = const, parameter s
#   ("X", P, Q)       the straight segment from P to Q in the (s, v) frame, parameter 0..1


def point_key(p) -> tuple[float, float]:
    """Canonical key of a frame point (s, v): rounded, with v reduced to [0, 360)."""
    return (round(p[0], 9), round(p[1] % 360.0, 9) % 360.0)


def canon(curve):
    """(canonical curve, flipped): one name per curve, whichever cell names it."""
    kind = curve[0]
    if kind == "L":
        return ("L", round(curve[1], 9)), False
    if kind == "E":
        return ("E", curve[1] % 6, curve[2]), False
    if kind == "V":
        return ("V", round(curve[1] % 360.0, 9) % 360.0), False
    p, q = curve[1], curve[2]
    kp, kq = point_key(p), point_key(q)
    flip = kq < kp
    if flip:
        p, q, kp = q, p, kq
    # Bring P's v into [0, 360) and Q along with it, the short way round; leave the
    # numbers untouched when they already are (so the ends stay bit-for-bit the same).
    pv, qv = p[1], q[1]
    turns = math.floor(pv / 360.0)
    if turns:
        pv, qv = pv - 360.0 * turns, qv - 360.0 * turns
    if qv - pv > 180.0:
        qv -= 360.0
    elif qv - pv < -180.0:
        qv += 360.0
    return ("X", (p[0], pv), (q[0], qv)), flip


def frame_point(c, t):
    """Frame point (s, v) at parameter t of canonical curve c."""
    kind = c[0]
    if kind == "L":
        return (c[1], t)
    if kind == "E":
        return e(c[1], c[2], t)
    if kind == "V":
        return (t, c[1])
    p, q = c[1], c[2]
    if t == 0:
        return p
    if t == 1:
        return q
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


class Builder:
    """Collects the cells' outlines as pieces, then samples every curve once, canonically."""

    def __init__(self):
        self.cells: dict = {}
        self.marks: dict = {}   # canonical curve -> parameters where some cell has a corner
        self.xy: dict = {}      # point key -> rounded canvas point

    def add(self, cid, pieces):
        pieces = [p for p in pieces if abs(p[1] - p[2]) > 1e-12]
        norm = []
        for curve, t0, t1 in pieces:
            c, flip = canon(curve)
            if flip:
                t0, t1 = 1 - t0, 1 - t1
            norm.append((c, t0, t1))
        for i, (c, t0, t1) in enumerate(norm):  # the chain must close up
            nc, n0, _ = norm[(i + 1) % len(norm)]
            a, b = point_key(frame_point(c, t1)), point_key(frame_point(nc, n0))
            assert a == b, f"outline of {cid} breaks after piece {i}: {a} != {b}"
        self.cells[cid] = norm
        for c, t0, t1 in norm:
            for t in (t0, t1):
                self.marks.setdefault(c, set()).add(self._norm_t(c, t))

    @staticmethod
    def _norm_t(c, t):
        return round(t % 360.0, 9) % 360.0 if c[0] == "L" else round(t, 9)

    def _length(self, c, lo, hi):
        pts = [to_canvas(*frame_point(c, lo + (hi - lo) * i / 64)) for i in range(65)]
        return sum(math.dist(pts[i], pts[i + 1]) for i in range(64))

    def _samples(self, c):
        """Every parameter at which curve c gets a vertex: its marks plus a regular grid."""
        marks = sorted(self.marks[c])
        if c[0] == "L":
            n = max(12, math.ceil(2 * math.pi * radius(c[1]) / SEG))
            step = 360.0 / n
            grid = [i * step for i in range(n)]
        else:
            lo, hi = min(marks), max(marks)
            n = max(1, math.ceil(self._length(c, lo, hi) / SEG))
            step = (hi - lo) / n
            grid = [lo + i * step for i in range(1, n)]
        keep = []
        for g in grid:
            d = min(abs(g - m) for m in marks)
            if c[0] == "L":
                d = min(d, 360.0 - d)
            if d > 0.45 * step:
                keep.append(round(g, 9))
        return sorted(set(marks) | set(keep))

    def point(self, c, t):
        key = point_key(frame_point(c, t))
        if key not in self.xy:
            x, y = to_canvas(*key)
            self.xy[key] = (round(x, 1), round(y, 1))
        return self.xy[key]

    def polygons(self) -> dict:
        samples = {c: self._samples(c) for c in self.marks}
        out = {}
        for cid, pieces in self.cells.items():
            pts = []
            for c, t0, t1 in pieces:
                lo, hi = min(t0, t1), max(t0, t1)
                g = samples[c]
                if c[0] == "L":
                    g = [x + 360.0 * m for m in range(-2, 3) for x in g]
                inner = sorted(t for t in g if lo + 1e-7 < t < hi - 1e-7)
                if t1 < t0:
                    inner.reverse()
                for t in [t0] + inner:
                    pts.append(self.point(c, t))
            out[cid] = pts
        return out


# ----------------------------------------------------------------------------- cells


def build_cells() -> Builder:
    """All sectors and Void cells as outlines in the frame (see the module docstring)."""
    b = Builder()
    mid = {a: (MID_S, 60.0 * a + 30.0) for a in range(6)}  # outer ends of ring-1 spokes

    def tip(a):  # (left, right) ends of the cut across the tip of arm a
        return arm_cut(a, TOP[a])

    # SGE-MAP-3: the Core, a disc at the centre.
    b.add(1, [(("L", 1.0), 0.0, 360.0)])
    # SGE-MAP-10: ring 1 closes the circle round the Core, so the Core touches exactly 02-07.
    for a in range(6):
        lo, hi = 60.0 * a - 30.0, 60.0 * a + 30.0
        left, right = arm_cut(a, 2)
        b.add(2 + a, [(("L", 1.0), lo, hi), (("V", hi), 1.0, MID_S),
                      (("X", mid[a], right), 0, 1), (("X", right, left), 0, 1),
                      (("X", left, (MID_S, lo)), 0, 1), (("V", lo), MID_S, 1.0)])
    # Rings 2..9 of every arm, and ring 10 of Scutum-Centaurus (56) and Perseus (57).
    for a in range(6):
        for k in range(2, TOP[a]):
            n = 6 * k - 4 + a if k <= 9 else {1: 56, 4: 57}[a]
            if n == 53:
                continue  # Orion's tip is cut for 58, below
            l0, r0 = arm_cut(a, k)
            l1, r1 = arm_cut(a, k + 1)
            b.add(n, [(("X", l0, r0), 0, 1), (("E", a, +1), r0[0], r1[0]),
                      (("X", r1, l1), 0, 1), (("E", a, -1), l1[0], l0[0])])
    # Gap g (1..6) between arm a = g - 1 and arm a + 1: inner 58+g, middle 64+g, outer 70+g.
    p1 = p2 = None
    for a in range(6):
        g = a + 1
        l_in, r_in = arm_cut(a, 2)[1], arm_cut(a + 1, 2)[0]   # on arm a / arm a + 1
        c1a, c1b = gap_cut(a, GAP_CUTS[0])
        c2a, c2b = gap_cut(a, GAP_CUTS[1])
        ta, tb = tip(a)[1], tip(a + 1)[0] if a < 5 else tip(0)[0]
        tb = (tb[0], tb[1] + (360.0 if a == 5 else 0.0))
        b.add(58 + g, [(("X", l_in, mid[a]), 0, 1), (("X", mid[a], r_in), 0, 1),
                       (("E", a + 1, -1), r_in[0], c1b[0]), (("X", c1b, c1a), 0, 1),
                       (("E", a, +1), c1a[0], l_in[0])])
        b.add(64 + g, [(("X", c1a, c1b), 0, 1), (("E", a + 1, -1), c1b[0], c2b[0]),
                       (("X", c2b, c2a), 0, 1), (("E", a, +1), c2a[0], c1a[0])])
        if a == 2:
            # SGE-MAP-9: 58 stands on the corner of 73 and 53 and touches nothing else.
            p1 = lerp(ta, tb, P1_AT)
            top = [(("X", tb, p1), 0, 1), (("X", p1, ta), 0, 1)]
        else:
            top = [(("X", tb, ta), 0, 1)]
        b.add(70 + g, [(("X", c2a, c2b), 0, 1), (("E", a + 1, -1), c2b[0], tb[0])] + top
              + [(("E", a, +1), ta[0], c2a[0])])
    # SGE-MAP-10: 58 (Rim) beyond the tip of Orion, with sides running straight out from
    # the Core and a top that follows a circle; a Void spoke leaves from the top's middle.
    c53, r53 = tip(3)
    p2 = lerp(c53, r53, P2_AT)
    q1, q2 = radial(p1, S58), radial(p2, S58)
    qm = lerp(q1, q2, 0.5)
    rim58 = radial(qm, 12.0)
    b.add(58, [(("X", p1, c53), 0, 1), (("X", c53, p2), 0, 1), (("X", p2, q2), 0, 1),
               (("X", q2, qm), 0, 1), (("X", qm, q1), 0, 1), (("X", q1, p1), 0, 1)])
    # 53's top runs under 58: split where 58's right side stands.
    l53, r53 = arm_cut(3, 9)
    b.add(53, [(("X", l53, r53), 0, 1), (("E", 3, +1), r53[0], tip(3)[1][0]),
               (("X", tip(3)[1], p2), 0, 1), (("X", p2, c53), 0, 1),
               (("E", 3, -1), c53[0], l53[0])])
    # SGE-MAP-5, SGE-MAP-6: twelve Void cells between the sectors and the rim (s = 12),
    # split by the arm edges continued outwards: one over each arm tip, one over each gap.
    for a in range(6):
        ltip, rtip = tip(a)
        top_l, top_r = e(a, -1, 12.0), e(a, +1, 12.0)
        if a == 3:
            bottom = [(("X", qm, q2), 0, 1), (("X", q2, p2), 0, 1), (("X", p2, rtip), 0, 1)]
            left = [(("X", rim58, qm), 0, 1)]
            top_l = rim58
        else:
            bottom = [(("X", ltip, rtip), 0, 1)]
            left = [(("E", a, -1), 12.0, ltip[0])]
        b.add(f"V{2 * a + 1:02d}", bottom + [(("E", a, +1), rtip[0], 12.0),
                                             (("L", 12.0), top_r[1], top_l[1])] + left)
        nl = tip((a + 1) % 6)[0]
        nl = (nl[0], nl[1] + (360.0 if a == 5 else 0.0))
        if a == 2:
            bottom = [(("X", rtip, p1), 0, 1), (("X", p1, q1), 0, 1), (("X", q1, qm), 0, 1)]
            right = [(("X", qm, rim58), 0, 1)]
            v_end = rim58[1]
        else:
            bottom = [(("X", rtip, nl), 0, 1)]
            right = [(("E", a + 1, -1), nl[0], 12.0)]
            v_end = 60.0 * (a + 1) - half_width(12.0)
        b.add(f"V{2 * a + 2:02d}", bottom + right + [(("L", 12.0), v_end, top_r[1]),
                                                     (("E", a, +1), 12.0, rtip[0])])
    return b


def radial(p, s):
    """The frame point at level s straight out from (or in towards) the Core from p."""
    return (s, p[1] - (twist(s) - twist(p[0])))


def lerp(p, q, t):
    return (p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t)


# ----------------------------------------------------------------------------- output


def label_point(poly) -> list[float]:
    """Where the number and name go: the pole of inaccessibility (the inside point farthest
    from the outline), rounded to 0.1."""
    from shapely.geometry import Polygon
    from shapely.ops import polylabel
    p = polylabel(Polygon(poly), 0.1)
    return [round(p.x, 1), round(p.y, 1)]


def make_map() -> dict:
    """The map as the dictionary of SGE-MAP-1, in the order it is written."""
    from struggle_desktop.engine.geometry import edge_adjacency, polygon_area
    polys = build_cells().polygons()
    for cid, pts in polys.items():
        if polygon_area(pts) < 0:  # one orientation throughout: clockwise on screen
            pts.reverse()
        i = min(range(len(pts)), key=lambda j: pts[j])  # start at the smallest vertex
        polys[cid] = [list(p) for p in pts[i:] + pts[:i]]
    adj = edge_adjacency(polys)
    nbrs = {n: sorted(m for m in polys if isinstance(m, int) and frozenset((n, m)) in adj)
            for n in polys if isinstance(n, int)}
    sectors = []
    for n, name, arm, system in ROSTER:
        sectors.append({"number": n, "name": name, "arm": arm, "is_system": system,
                        "is_core": n == 1, "label_at": label_point(polys[n]),
                        "neighbours": nbrs[n], "polygon": polys[n]})
    voids = [{"id": cid, "polygon": polys[cid]}
             for cid in sorted(c for c in polys if isinstance(c, str))]
    return {"id": "struggle-galaxy",
            "title": "The Galactic Empire (reconstructed map)",
            "reconstructed": True,
            "rules": RULES,
            "canvas": {"width": int(CANVAS), "height": int(CANVAS)},
            "sectors": sectors,
            "void_cells": voids}


def _num(x) -> str:
    return f"{x:.1f}"


def _pts(poly) -> str:
    return "[" + ", ".join(f"[{_num(x)}, {_num(y)}]" for x, y in poly) + "]"


def to_yaml(m: dict) -> str:
    """Compact, stable YAML: one line per polygon. Names are written as JSON strings."""
    out = ["# The Struggle galaxy map (SGE-MAP-1). Generated by tools/make_galaxy_map.py:",
           "# do not edit by hand; change the script and run it again.",
           f"id: {m['id']}",
           f"title: {json.dumps(m['title'])}",
           f"reconstructed: {'true' if m['reconstructed'] else 'false'}",
           "rules: [" + ", ".join(m["rules"]) + "]",
           f"canvas: {{width: {m['canvas']['width']}, height: {m['canvas']['height']}}}",
           "sectors:"]
    for s in m["sectors"]:
        out += [f"- number: {s['number']}",
                f"  name: {json.dumps(s['name'])}",
                f"  arm: {s['arm']}",
                f"  is_system: {'true' if s['is_system'] else 'false'}",
                f"  is_core: {'true' if s['is_core'] else 'false'}",
                f"  label_at: [{_num(s['label_at'][0])}, {_num(s['label_at'][1])}]",
                "  neighbours: [" + ", ".join(str(n) for n in s["neighbours"]) + "]",
                f"  polygon: {_pts(s['polygon'])}"]
    out.append("void_cells:")
    for v in m["void_cells"]:
        out += [f"- id: {v['id']}", f"  polygon: {_pts(v['polygon'])}"]
    return "\n".join(out) + "\n"


def verify(m: dict) -> list[str]:
    """Every rule and layout goal the shipped map must meet; returns the failures."""
    from struggle_desktop.engine.geometry import (distance_to_outline, point_in_polygon,
                                                  polygon_area)
    from struggle_desktop.games.struggle.galaxy import check_galaxy, load_galaxy
    fails = [f"error {e}" for e in check_galaxy(m)[0]]
    fails += [f"warning {w}" for w in check_galaxy(m)[1]]
    if fails:
        return fails
    g = load_galaxy(m)
    if g.void_adjacent != frozenset(VOID_ADJACENT):
        fails.append(f"Void-adjacent sectors are {sorted(g.void_adjacent)}")
    disc = math.pi * RADII[-1] ** 2
    for s in m["sectors"]:
        n, poly = s["number"], s["polygon"]
        area = abs(polygon_area(poly))
        if area < 0.002 * disc:
            fails.append(f"sector {n} is too small: {area / disc:.2%} of the disc")
        if not point_in_polygon(s["label_at"], poly) or \
                distance_to_outline(s["label_at"], poly) < 14.0:
            fails.append(f"sector {n}: label_at is not well inside")
    for c in [s["polygon"] for s in m["sectors"]] + [v["polygon"] for v in m["void_cells"]]:
        for x, y in c:
            if not (0 <= x <= CANVAS and 0 <= y <= CANVAS):
                fails.append(f"point {x, y} is off the canvas")
    return fails


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preview", type=Path, help="also draw the map to this PNG file")
    ap.add_argument("--check", action="store_true",
                    help="do not write; fail if the file on disk differs from the output")
    args = ap.parse_args(argv)
    import yaml
    m = make_map()
    text = to_yaml(m)
    parsed = yaml.safe_load(text)
    assert parsed == m, "the YAML does not read back as the map"
    fails = verify(parsed)
    if fails:
        print("the map breaks its rules:", *fails, sep="\n  ", file=sys.stderr)
        return 1
    if args.preview:
        preview({s["number"]: s["polygon"] for s in m["sectors"]}
                | {v["id"]: v["polygon"] for v in m["void_cells"]}, args.preview)
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print(f"{OUT.relative_to(REPO)} is {'up to date' if same else 'OUT OF DATE'}")
        return 0 if same else 1
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(text, encoding="utf-8", newline="\n")
    npts = sum(len(s["polygon"]) for s in m["sectors"]) + sum(
        len(v["polygon"]) for v in m["void_cells"])
    print(f"wrote {OUT.relative_to(REPO)}: {len(m['sectors'])} sectors, "
          f"{len(m['void_cells'])} Void cells, {npts} vertices, {len(text)} bytes")
    return 0


def preview(polys, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Polygon as MplPolygon
    fig, ax = plt.subplots(figsize=(10, 10), dpi=100)
    colours = {"Core": "#f5d76e", "Norma": "#e57373", "Scutum-Centaurus": "#ffb74d",
               "Sagittarius": "#fff176", "Orion": "#81c784", "Perseus": "#64b5f6",
               "Outer": "#ba68c8", "Inter-arm": "#37474f", "Rim": "#8d6e63"}
    info = {n: (name, arm, sys_) for n, name, arm, sys_ in ROSTER}
    from shapely.geometry import Polygon as SPoly
    from shapely.ops import polylabel
    for cid, pts in polys.items():
        fc = "#0b0b16" if isinstance(cid, str) else colours[info[cid][1]]
        ax.add_patch(MplPolygon(pts, closed=True, fc=fc, ec="white", lw=0.6))
        lp = polylabel(SPoly(pts), 0.5)
        ax.text(lp.x, lp.y, str(cid), ha="center", va="center", fontsize=7,
                color="white" if isinstance(cid, str) or info[cid][1] == "Inter-arm" else "black")
    ax.set_xlim(0, CANVAS)
    ax.set_ylim(CANVAS, 0)
    ax.set_aspect("equal")
    fig.savefig(path)


if __name__ == "__main__":
    sys.exit(main())
