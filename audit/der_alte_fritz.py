"""Der Alte Fritz: the rule text's clauses checked over battle traces.

Written from the rule text (/work/shared/rules/der-alte-fritz.txt), the trace format
(docs/trace.md) and what the binary prints, never from the engine's code. Each check names the
clause it checks. Checks with `keep = 0` are counts (distributions), never violations; their
tallies are in `tally` and printed by `summary()`.

What the trace does not give and is taken here from elsewhere:
- stands: the trace gives each unit's footprint and figures but not its stands. A stand is taken
  as 1" square for foot and 1.5" square for horse (the scenario notes: "the engine's defaults"),
  and the figures a stand from line 0 (figures / (area / stand area)).
- which side is Prussian (oblique movement): from the side's name in `table.sides`.
- how many morale dice and why (open, cover, secure flanks, leader): only in the event's text,
  never in its data; parsed from the text.
"""

import math
import re
import sys
import os
from collections import Counter, defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from common import (  # noqa: E402
    Check,
    centre,
    dist,
    events,
    footprint_points,
    heading_to,
    heading_vec,
    overlap_depth,
    point_in_polygon,
    polygon_distance,
    polygons_overlap,
    seg_dist,
    segments_cross,
    tag,
    turn,
)

EPS = 0.05  # inches: rounding in the trace's numbers
CHARTS = "ABCDE"


def level(ch):
    """A chart as levels above C: A +2 … E -2."""
    return 2 - CHARTS.index(ch)


def chart_at(lv):
    """The chart `lv` levels above C, kept within A…E."""
    return CHARTS[2 - max(-2, min(2, lv))]


# ----- the unit table (facts of the text, encoded as data) -----


class UnitType:
    def __init__(self, name, march, skirmish, column, line, charge, ranges, fire, melee, morale, kind):
        self.name = name
        self.rates = {"march column": march, "skirmish order": skirmish, "attack column": column, "line": line}
        self.march, self.skirmish, self.column, self.line = march, skirmish, column, line
        self.charge = charge  # None: "~" (or blank: not allowed)
        self.ranges = ranges  # () none; (r,) one range; (a, b) two numbers
        self.fire = fire  # 5 numbers (None for "~"); artillery: (short, long) pairs
        self.melee = melee
        self.morale = morale
        self.kind = kind  # foot, horse, guns


def _guns(name, march, prolonge, short, long_, fire):
    return UnitType(name, march, None, None, prolonge, None, (short, long_), fire,
                    (6, 3, 2, 1, 1), (9, 7, 5, 3, 1), "guns")


HOWITZER = ((8, 4), (7, 3), (6, 2), (5, 2), (4, 2))
GUN = ((7, 5), (6, 4), (5, 3), (4, 2), (3, 1))
N = None
TYPES = [
    UnitType("Grenadiers/Guards", 14, N, 12, 10, 2, (10,), (9, 7, 6, 5, 3), (9, 7, 6, 5, 3), (9, 8, 7, 5, 3), "foot"),
    UnitType("Musketeers & Fusiliers", 12, N, 10, 8, 2, (8,), (8, 6, 5, 4, 2), (8, 6, 5, 4, 2), (8, 7, 5, 4, 2), "foot"),
    UnitType("Garrison Troops", 10, N, 8, 6, 1, (8,), (7, 5, 4, 3, 1), (7, 5, 4, 3, 1), (7, 6, 4, 3, 1), "foot"),
    UnitType("Jagers/Croats & Irregulars", 20, 16, N, 6, N, (16, 12), (6, 4, 3, 2, 1), (5, 4, 3, 2, 1), (7, 5, 3, 1, 1), "foot"),
    UnitType("Irregular Light Cavalry (Cossacks)", N, 24, N, N, N, (4,), (3, 2, 1, N, N), (7, 5, 4, 3, 2), (7, 5, 3, 1, 1), "horse"),
    UnitType("Cuirassiers", 18, N, 16, 14, 4, (), (N,) * 5, (9, 8, 7, 6, 4), (9, 8, 7, 5, 3), "horse"),
    UnitType("Dragoons", 20, N, 18, 16, 4, (), (N,) * 5, (8, 7, 6, 5, 3), (9, 7, 5, 3, 2), "horse"),
    UnitType("Hussars", 28, 24, 22, 20, 6, (4,), (3, 3, 2, 1, N), (7, 6, 5, 4, 2), (8, 6, 4, 2, 1), "horse"),
    _guns("Heavy Howitzer", 8, 1, 10, 48, HOWITZER),
    _guns("Medium Howitzer", 10, 2, 8, 36, HOWITZER),
    _guns("Light Howitzer", 12, 3, 6, 24, HOWITZER),
    _guns("Heavy Artillery", 8, 1, 10, 48, GUN),
    _guns("Medium Artillery", 10, 2, 8, 36, GUN),
    _guns("Light Artillery", 12, 3, 6, 24, GUN),
    _guns("Horse Artillery", 16, 3, 6, 16, GUN),
]

ROUT = {"horse": 24.0, "foot": 12.0, "guns": 10.0}
MORALE_BANDS = [(1, 4, "A"), (5, 8, "B"), (9, 10, "C"), (11, 12, "D"), (13, 10 ** 9, "E")]


def chart_for_hits(h):
    """The morale chart for cumulative hits (none counted as the first band)."""
    for lo, hi, ch in MORALE_BANDS:
        if h <= hi:
            return ch
    return "E"


FATES = {1: "close_call", 2: "close_call", 3: "missed", 4: "missed", 5: "light_wound", 6: "light_wound",
         7: "severe_wound", 8: "severe_wound", 9: "killed", 10: "killed_by_round_shot"}

COVER_KINDS = {"town", "woods", "wall", "walls", "hedge", "redoubt", "entrenchment", "entrenchments"}
BARRIER_KINDS = {"town", "woods", "wall", "walls"}
NOT_ROUGH = {"hill", "road", "river", "impassable"}
UNFORMED_FORMATIONS = {"skirmish order"}


# ----- reading a trace line -----


class Unit:
    """One piece of a line, read."""

    __slots__ = ("name", "side", "arm", "type", "formation", "status", "figures", "hits", "poly", "facing",
                 "label", "piece")

    def __init__(self, p):
        self.piece = p
        self.name = p["unit"]
        self.side = p["side"]
        self.arm = p.get("arm")
        self.label = p.get("label", "")
        self.type, self.formation = parse_label(self.name, self.label)
        self.status = p.get("status")
        c = {x["kind"]: x["n"] for x in p.get("counters", [])}
        self.figures = c.get("figures")
        self.hits = c.get("hits")
        self.poly = footprint_points(p["footprint"])
        self.facing = p.get("facing", 0.0)

    @property
    def centre(self):
        return centre(self.piece["footprint"])

    @property
    def kind(self):
        return self.type.kind if self.type else {"infantry": "foot", "cavalry": "horse", "artillery": "guns"}.get(self.arm)


_LABEL = re.compile(r"^(?: \([^)]*\))?, ([a-z ]+)\)")


def parse_label(name, label):
    rest = label[len(name) + 2:] if label.startswith(name + " (") else label
    for t in TYPES:
        if rest.startswith(t.name):
            m = _LABEL.match(rest[len(t.name):])
            return t, (m.group(1) if m else None)
    return None, None


_cache = {}


def _cached(key, line, make):
    k = (key, id(line))
    hit = _cache.get(k)
    if hit is not None and hit[0] is line:
        return hit[1]
    if len(_cache) > 64:
        _cache.clear()
    v = make(line)
    _cache[k] = (line, v)
    return v


def evs(line, want=None):
    """The line's events' data (as common.events), read once a line."""
    allv = _cached("events", line, lambda ln: events(ln))
    return allv if want is None else [e for e in allv if tag(e) == want]


def units(line):
    """The line's units by name."""
    return _cached("units", line, lambda ln: {p["unit"]: Unit(p) for p in ln.get("pieces", [])})


def officers(line):
    """The line's officers (markers `commander`, `general`), in marker order (the events' numbers)."""
    return _cached("officers", line, lambda ln: [m for m in ln.get("markers", []) if m.get("kind") in ("commander", "general")])


def leaders_with(line, unit_name):
    return [m for m in officers(line) if m.get("unit") == unit_name]


class Battle:
    """What line 0 tells about the battle: the units' numbers, stands, sides, terrain."""

    def __init__(self, first):
        self.table = first.get("table", {})
        self.names = [p["unit"] for p in first.get("pieces", [])]
        self.sides = self.table.get("sides", ["?", "?"])
        self.prussian = {i for i, s in enumerate(self.sides) if "prussia" in s.lower()}
        self.terrain = self.table.get("terrain", [])
        self.officer_markers = officers(first)
        self.stand = {}  # stand's side, inches
        self.fps = {}  # figures a stand
        self.start = units(first)
        for name, u in self.start.items():
            w = 1.5 if u.kind in ("horse", "guns") else 1.0
            self.stand[name] = w
            area = polygon_area(u.poly)
            stands = max(1, round(area / (w * w))) if u.formation != "skirmish order" else None
            if stands is None:
                # skirmishers: stands spread along the front, 1 deep
                stands = max(1, round(u.figures / 4))
            self.fps[name] = (u.figures / stands) if u.figures else None

    def name(self, i):
        return self.names[i] if isinstance(i, int) and 0 <= i < len(self.names) else None

    def closed_terrain(self, kinds=None, exclude=()):
        for t in self.terrain:
            if t.get("closed") and (kinds is None or t.get("kind") in kinds) and t.get("kind") not in exclude:
                yield t


def battle(ctx, first=None):
    b = getattr(ctx, "_daf_battle", None)
    if b is None and first is not None:
        b = Battle(first)
        try:
            ctx._daf_battle = b
        except AttributeError:
            pass
    return b


# ----- geometry -----


def polygon_area(poly):
    n = len(poly)
    return abs(sum(poly[i][0] * poly[(i + 1) % n][1] - poly[(i + 1) % n][0] * poly[i][1] for i in range(n))) / 2


def front_corners(poly, facing):
    """The front edge's two corners (left, right as the unit faces)."""
    h = heading_vec(facing)
    proj = [p[0] * h[0] + p[1] * h[1] for p in poly]
    order = sorted(range(len(poly)), key=lambda i: -proj[i])
    a, b = poly[order[0]], poly[order[1]]
    # left of the facing: the perpendicular heading facing-90
    lv = heading_vec(facing - 90)
    if a[0] * lv[0] + a[1] * lv[1] >= b[0] * lv[0] + b[1] * lv[1]:
        return a, b
    return b, a


def rear_corners(poly, facing):
    l_, r = front_corners(poly, facing + 180)
    return r, l_


def extent(poly, facing):
    """(frontage, depth) of a rectangle facing `facing`."""
    h = heading_vec(facing)
    s = heading_vec(facing + 90)
    ph = [p[0] * h[0] + p[1] * h[1] for p in poly]
    ps = [p[0] * s[0] + p[1] * s[1] for p in poly]
    return max(ps) - min(ps), max(ph) - min(ph)


def clip(poly, a, n, eps=1e-9):
    """The part of convex polygon `poly` where (p - a)·n >= 0."""
    out = []
    k = len(poly)
    for i in range(k):
        p, q = poly[i], poly[(i + 1) % k]
        dp = (p[0] - a[0]) * n[0] + (p[1] - a[1]) * n[1]
        dq = (q[0] - a[0]) * n[0] + (q[1] - a[1]) * n[1]
        if dp >= -eps:
            out.append(p)
        if (dp >= -eps) != (dq >= -eps):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return out


def in_fire_arc(firer_poly, facing, target_poly, eps=EPS):
    """Whether some of the target lies in the widest reading of the arc: ahead of the front edge,
    within 45 degrees outward of straight ahead from each front corner."""
    left, right = front_corners(firer_poly, facing)
    part = list(target_poly)
    for a, n in ((left, heading_vec(facing)), (left, heading_vec(facing + 45)), (right, heading_vec(facing - 45))):
        a2 = (a[0] - n[0] * eps, a[1] - n[1] * eps)
        part = clip(part, a2, n)
        if len(part) < 3 and not part:
            return False
    return len(part) >= 1


def side_of_front(poly, facing, pts):
    """Signed distances of `pts` ahead of the line of the front edge of `poly` facing `facing`."""
    left, _ = front_corners(poly, facing)
    h = heading_vec(facing)
    return [(p[0] - left[0]) * h[0] + (p[1] - left[1]) * h[1] for p in pts]


def lateral_within_front(poly, facing, p):
    """Whether point p lies between the two side lines through the front corners."""
    left, right = front_corners(poly, facing)
    s = heading_vec(facing + 90)
    a = left[0] * s[0] + left[1] * s[1]
    b = right[0] * s[0] + right[1] * s[1]
    x = p[0] * s[0] + p[1] * s[1]
    return min(a, b) - 1e-9 <= x <= max(a, b) + 1e-9


def flank_clear_cases(attacker_poly, target_poly, target_facing, tol=0.25):
    """'front' when the attacker stands wholly ahead of the target's front edge and squarely
    before it; 'flank' when wholly behind the line of that edge; None otherwise (unclear)."""
    d = side_of_front(target_poly, target_facing, attacker_poly)
    if min(d) > tol and lateral_within_front(target_poly, target_facing, centroid(attacker_poly)):
        return "front"
    if max(d) < -tol:
        return "flank"
    return None


def centroid(poly):
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def seg_poly_dist(a, b, poly):
    """Least distance from segment a-b to polygon `poly`."""
    if point_in_polygon(a, poly) or point_in_polygon(b, poly):
        return 0.0
    best = math.inf
    k = len(poly)
    for i in range(k):
        if segments_cross(a, b, poly[i], poly[(i + 1) % k]):
            return 0.0
        best = min(best, seg_dist(poly[i], a, b))
    best = min(best, min(seg_dist(a, poly[i], poly[(i + 1) % k]) for i in range(k)),
               min(seg_dist(b, poly[i], poly[(i + 1) % k]) for i in range(k)))
    return best


def flank_edges(poly, facing):
    """The left and right side edges (front corner, rear corner) of a rectangle."""
    fl, fr = front_corners(poly, facing)
    rl, rr = rear_corners(poly, facing)
    return (fl, rl), (fr, rr)


def convex_hull(pts):
    pts = sorted(set(pts))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower, upper = [], []
    for p in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], p) <= 0:
            lower.pop()
        lower.append(p)
    for p in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], p) <= 0:
            upper.pop()
        upper.append(p)
    return lower[:-1] + upper[:-1]


def poly_inside(inner, outer):
    return all(point_in_polygon(p, outer) for p in inner)


# ----- morale tests -----


def test_problems(test, number=None):
    """What is wrong with a morale test {chart, number, dice, kept, result} on its face."""
    out = []
    dice = test.get("dice") or []
    kept = test.get("kept") or []
    if sorted(dice)[:2] != sorted(kept):
        out.append(f"kept {kept} are not the two lowest of {dice}")
    n = test.get("number")
    fails = sum(1 for k in kept if k > n)
    want = ["passed", "shaken", "rout"][min(fails, 2)]
    if test.get("result") != want and not (test.get("result") == "rout" and fails == 2):
        out.append(f"{fails} kept dice over {n} should be '{want}', not '{test.get('result')}'")
    if number is not None and n != number:
        out.append(f"passes on {n}, the table gives {number}")
    return out


_DICE_WHY = re.compile(r"(\d+) dice \((\d) (in the open|in cover with secure flanks|in cover and with secure flanks|"
                       r"in cover|with secure flanks)(, \+(\d) for its leader)?")


def dice_reasons(text):
    """Each morale test's dice in the text: (total, base, where, leader bonus) in order."""
    return [(int(m.group(1)), int(m.group(2)), m.group(3), int(m.group(5) or 0)) for m in _DICE_WHY.finditer(text)]


# ----- turn bookkeeping shared by the checks -----


class TurnTrack:
    """Which side moves first this turn (side A) and the phase's order."""

    def __init__(self):
        self.first = None
        self.turn = 0

    def see(self, prev, cur):
        for e in evs(cur):
            if tag(e) == "turn":
                self.turn = e.get("turn", self.turn)
                self.first = None
            if tag(e) == "chose":
                self.first = e.get("first")


def acted_by(line):
    b = line.get("by")
    return b.get("side") if isinstance(b, dict) else None


def action(line):
    a = line.get("action")
    return a if isinstance(a, dict) else {}


def unit_refs(e):
    """The unit numbers an event names."""
    t = tag(e)
    out = []
    for k in ("unit", "target", "charger", "defender"):
        v = e.get(k)
        if isinstance(v, int) and not (t == "officer" and k == "unit"):
            out.append(v)
    if t == "contact":
        out += [u for u in e.get("units", []) if isinstance(u, int)]
    return out


def norm_formation(f):
    if f is None:
        return None
    f = f.replace("_", " ")
    return {"skirmish": "skirmish order"}.get(f, f)


def rate_of(t, formation):
    """The table's rate for a formation (artillery: limbered the first column, unlimbered by
    prolonge the line column); None where the row has none."""
    if t is None:
        return None
    if t.kind == "guns":
        return {"limbered": t.march, "unlimbered": t.line}.get(formation)
    return t.rates.get(formation)


def hits_running(prev, cur, b):
    """Yield (event, hits before it by unit name) for the action's events, adding each volley's
    and melee's hits as they come."""
    hits = {n: u.hits for n, u in units(prev).items()}
    for e in evs(cur):
        yield e, dict(hits)
        t = tag(e)
        if t == "volley":
            n = b.name(e.get("target"))
            if n in hits:
                hits[n] = (hits[n] or 0) + (e.get("hits") or 0)
        elif t == "melee" and e.get("fought"):
            c, d = b.name(e.get("charger")), b.name(e.get("defender"))
            f = e["fought"]
            if d in hits:
                hits[d] = (hits[d] or 0) + (f[0].get("hits") or 0)
            if c in hits:
                hits[c] = (hits[c] or 0) + (f[1].get("hits") or 0)


# ======================================================================
# Turn sequence and initiative
# ======================================================================

_INIT = re.compile(r"initiative: (.+?) (\d+)(?: \+(\d+) \(an exceptional commander\) = (\d+))?, "
                   r"(.+?) (\d+)(?: \+(\d+) \(an exceptional commander\) = (\d+))?: (.*)$")


class InitiativeRoll(Check):
    name = "initiative: one d10 a side (+1 at most for an exceptional commander); the high roll wins the choice"
    clause = "Initiative Die Roll"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.bonus_seen = [None, None]

    def line(self, prev, cur, ctx):
        inits = evs(cur, "initiative")
        draws = [d["value"] for d in cur.get("draws", []) if "initiative die" in d.get("purpose", "")]
        if inits:
            self.checked()
            got = [v for e in inits for v in e.get("dice", [])]
            if got != draws:
                self.violation(cur, f"initiative dice {got} are not the initiative draws {draws}")
        for e in inits:
            self.checked()
            m = _INIT.match(e.get("text", ""))
            dice = e.get("dice") or []
            if not m or len(dice) != 2:
                self.violation(cur, f"initiative event not understood: {e.get('text')!r}")
                continue
            totals = []
            for i, (die, bonus, total) in enumerate(((m.group(2), m.group(3), m.group(4)), (m.group(6), m.group(7), m.group(8)))):
                die, bonus = int(die), int(bonus or 0)
                tot = int(total) if total else die
                if die != dice[i] or not 1 <= die <= 10:
                    self.violation(cur, f"side {i}'s die {die} is not its drawn d10 {dice[i]}")
                if bonus > 1:
                    self.violation(cur, f"side {i} adds +{bonus}: the text allows +1")
                if tot != die + bonus:
                    self.violation(cur, f"side {i}: {die} +{bonus} is not {tot}")
                totals.append(tot)
            want = None if totals[0] == totals[1] else (0 if totals[0] > totals[1] else 1)
            if e.get("winner") != want:
                self.violation(cur, f"totals {totals}: the winner should be {want}, not {e.get('winner')}")


class ChoiceOfFirst(Check):
    name = "the initiative's winner chooses to move first or fire first: the side moving first fires second"
    clause = "Initiative Die Roll; Turn Sequence (Movement A then B, Firing B then A)"

    def start(self, ctx, first):
        self.winner = None

    def line(self, prev, cur, ctx):
        for e in evs(cur, "initiative"):
            if e.get("winner") is not None:
                self.winner = e["winner"]
        a = action(cur)
        if a.get("kind") == "initiative":
            self.checked()
            by = acted_by(cur)
            if by != self.winner:
                self.violation(cur, f"side {by} chose, but side {self.winner} won the initiative")
            for e in evs(cur, "chose"):
                want = self.winner if a.get("move_first") else (1 - self.winner if self.winner is not None else None)
                if e.get("first") != want:
                    self.violation(cur, f"winner {self.winner} chose move_first={a.get('move_first')}: side {want} should move first, not {e.get('first')}")


PHASES = ["initiative", "rally", "movement", "firing", "leader and reserve", "closing"]


class PhaseOrder(Check):
    name = "turn sequence: rally A then B, movement A then B, firing B then A, melee A then B, leader and reserve B then A"
    clause = "Turn Sequence"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tt = TurnTrack()
        self.seq = defaultdict(list)

    def _order(self, cur, what, sides, first_side):
        """sides: the sides in the order they acted; first_side must all come first."""
        seen_other = False
        for s in sides:
            if s is None:
                continue
            if s != first_side:
                seen_other = True
            elif seen_other:
                self.violation(cur, f"{what}: side {first_side} acted after side {1 - first_side} in turn {self.tt.turn}")
                return

    def line(self, prev, cur, ctx):
        new_turn = any(tag(e) == "turn" for e in evs(cur))
        self.tt.see(prev, cur)
        if new_turn:
            self.seq = defaultdict(list)
        A = self.tt.first
        if A is None:
            return
        B = 1 - A
        a = action(cur)
        k = a.get("kind")
        by = acted_by(cur)
        pp = prev.get("phase")
        # the kind of action in its phase
        if k in ("move", "charge"):
            self.checked()
            if pp not in ("movement", "leader and reserve"):
                self.violation(cur, f"a {k} in the {pp} phase")
            if k == "charge" and pp != "movement":
                self.violation(cur, f"a charge declared in the {pp} phase")
            u = self.b.name(a.get("unit"))
            pu = units(prev).get(u)
            if pu and pu.side != by:
                self.violation(cur, f"side {by} moved side {pu.side}'s {u}")
            self.seq[pp].append(by)
            self._order(cur, f"{pp} phase", self.seq[pp], A if pp == "movement" else B)
        elif k == "fire":
            self.checked()
            if pp != "firing":
                self.violation(cur, f"a volley in the {pp} phase")
            self.seq["firing"].append(by)
            self._order(cur, "firing phase", self.seq["firing"], B)
        elif k == "ride":
            self.checked()
            if pp != "leader and reserve":
                self.violation(cur, f"an officer rides in the {pp} phase")
            self.seq["leader and reserve"].append(by)
            self._order(cur, "leader and reserve phase", self.seq["leader and reserve"], B)
        elif k == "rally":
            self.checked()
            if pp != "rally":
                self.violation(cur, f"a rally chosen in the {pp} phase")
            self.seq["rally actions"].append(by)
            self._order(cur, "rally phase", self.seq["rally actions"], A)
        # rallies: side A's units first (over the whole rally phase)
        rallied = False
        for e in evs(cur, "morale"):
            if "tries to rally" in e.get("text", ""):
                u = units(prev).get(self.b.name(e.get("unit")))
                if u:
                    self.seq["rallies"].append(u.side)
                    rallied = True
        if rallied:
            self.checked()
            if pp not in ("initiative", "rally"):
                self.violation(cur, f"a rally after the {pp} phase")
            self._order(cur, "rallies", self.seq["rallies"], A)
        # melees: charges of side A first
        mel = []
        for e in evs(cur):
            if tag(e) in ("melee", "called_off"):
                u = units(prev).get(self.b.name(e.get("charger")))
                if u:
                    mel.append(u.side)
        if mel:
            self.checked()
            if pp not in ("firing", "movement"):  # after movement when nobody had a volley to fire
                self.violation(cur, f"melee resolved after the {pp} phase, not after firing")
            self._order(cur, "melee", mel, A)
        # phases move forward within a turn
        cp = cur.get("phase")
        if not new_turn and pp in PHASES and cp in PHASES and PHASES.index(cp) < PHASES.index(pp):
            self.checked()
            self.violation(cur, f"phase went back from {pp} to {cp}")


# ======================================================================
# Movement
# ======================================================================


def move_events(prev, cur, b):
    """(moved event, unit before) for the action's own moves."""
    for e in evs(cur, "moved"):
        u = units(prev).get(b.name(e.get("unit")))
        if u is not None:
            yield e, u


def direction_off_front(e):
    if e.get("distance", 0) <= EPS:
        return None
    return abs(turn(e.get("facing", 0.0), heading_to(e["from"], e["to"])))


class MoveWithinAllowance(Check):
    name = "a move goes no farther than it may spend (distance and its cost over the ground)"
    clause = "Movement (unit table's rates; Terrain)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for e, u in move_events(prev, cur, self.b):
            self.checked()
            d, c, al = e.get("distance", 0), e.get("cost", 0), e.get("allowance", 0)
            moved = dist(e["from"], e["to"])
            if moved > d + EPS:
                self.violation(cur, f"{u.name}: went {moved:.2f}\" in a straight line but reports {d:.2f}\"")
            if c > al + EPS:
                self.violation(cur, f"{u.name}: the way costs {c:.2f}\" of {al:.2f}\" it may spend")
            if c < d - EPS:
                self.violation(cur, f"{u.name}: costs {c:.2f}\" for {d:.2f}\" gone (less than the distance)")


class MoveAllowanceFromText(Check):
    name = "what a move may spend is within the text's rate for its formation, halved for a change of formation or facing, backwards/sideways (column, line) or shaken; oblique only Prussians, at full less 2\""
    clause = "Unit table (March, Skirmish, Column, Line); Movement: Direction; Formation Notes; Shaken Status Effects; Artillery"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for e, u in move_events(prev, cur, self.b):
            t = u.type
            if t is None:
                continue
            new = norm_formation(e.get("formation"))
            old = u.formation
            changed = new != old
            turned = abs(turn(u.facing, e.get("facing", u.facing))) > 0.5
            shaken = u.status == "shaken"
            if u.status == "running":
                continue
            r_new, r_old = rate_of(t, new), rate_of(t, old)
            if new == "square" or (old == "square" and r_new is None):
                continue  # the text gives squares no rate
            self.checked()
            if r_new is None:
                if e.get("distance", 0) > EPS:
                    self.violation(cur, f"{u.name} ({t.name}) moves {e['distance']:.1f}\" in {new}: its row has no rate for it")
                continue
            why = []
            if t.kind == "guns":
                if changed:
                    bound = t.march / 2.0
                    why.append("limber/unlimber and move: by halves")
                else:
                    bound = r_new
            else:
                bound = max(r_new, r_old or 0) if changed else r_new
                half = []
                if changed:
                    half.append("change of formation")
                if turned:
                    half.append("change of facing")
                if shaken:
                    half.append("shaken")
                ang = direction_off_front(e)
                col_line = new in ("line", "attack column", "march column")
                oblique = False
                if ang is not None and col_line:
                    if ang >= 80:
                        half.append(f"{'backwards' if ang > 100 else 'sideways'} {ang:.0f} deg")
                    elif ang > 2:
                        if u.side in self.b.prussian:
                            oblique = True
                        else:
                            half.append(f"oblique {ang:.0f} deg (not Prussian)")
                if half:
                    bound = bound / 2.0
                    why += half
                elif oblique:
                    bound = bound - 2.0
                    why.append("Prussian oblique: less 2\"")
            if shaken and t.kind == "guns":
                bound = bound / 2.0
                why.append("shaken")
            al = e.get("allowance", 0)
            nhalf = sum(1 for w in why if not w.startswith("Prussian"))
            if nhalf >= 2 and t.kind != "guns":
                base = r_new
                self.tally[f"{nhalf} halvings at once: " + ("multiplied" if abs(al - base / 2 ** nhalf) <= EPS else
                                                            "one half only" if abs(al - base / 2) <= EPS else f"{al:g} of {base:g}")] += 1
            if al > bound + EPS:
                self.violation(cur, f"{u.name} ({t.name}, {old} -> {new}{', shaken' if shaken else ''}) may spend {al:.2f}\": "
                                    f"the text allows at most {bound:.2f}\" ({'; '.join(why) or 'full rate'})")


class FormationOrFacing(Check):
    name = "a unit does not both change formation and change facing in one turn"
    clause = "Formation Notes: change formation/facing at half effect, but may not do both on same turn"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.turn_marks = defaultdict(set)
        self.tt = TurnTrack()

    def line(self, prev, cur, ctx):
        t0 = self.tt.turn
        self.tt.see(prev, cur)
        if self.tt.turn != t0:
            self.turn_marks = defaultdict(set)
        for e, u in move_events(prev, cur, self.b):
            if u.kind == "guns":
                continue
            self.checked()
            marks = self.turn_marks[u.name]
            ph = "reserve move" if prev.get("phase") == "leader and reserve" else "movement phase"
            if norm_formation(e.get("formation")) != u.formation:
                marks.add(("formation", ph))
            if abs(turn(u.facing, e.get("facing", u.facing))) > 0.5:
                marks.add(("facing", ph))
            kinds = {k for k, _ in marks if k != "reported"}
            if kinds == {"formation", "facing"} and ("reported", "") not in marks:
                how = ", ".join(f"{k} in the {p_}" for k, p_ in sorted(marks))
                self.violation(cur, f"{u.name} changed both formation and facing in turn {self.tt.turn} ({how})")
                marks.add(("reported", ""))


class TerrainCost(Check):
    name = "ground: a move clear of all terrain costs its distance; one wholly within rough ground costs double"
    clause = "Movement: Terrain (Rough: half movement rate)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.rough = [footprint_points({"shape": "polygon", "points": t["points"]}) for t in self.b.closed_terrain(exclude=NOT_ROUGH)]
        self.double = [footprint_points({"shape": "polygon", "points": t["points"]})
                       for t in self.b.closed_terrain(kinds={"woods", "softground", "soft_ground", "rough"})]

    def line(self, prev, cur, ctx):
        cu = units(cur)
        for e, u in move_events(prev, cur, self.b):
            d, c = e.get("distance", 0), e.get("cost", 0)
            if d <= EPS:
                continue
            end = cu.get(u.name)
            if end is None:
                continue
            hull = convex_hull(u.poly + end.poly)
            if len(hull) < 3:
                continue
            if not any(polygons_overlap(hull, r) for r in self.rough):
                self.checked()
                if c > d + EPS:
                    self.violation(cur, f"{u.name}: {d:.2f}\" clear of all terrain costs {c:.2f}\"")
            for r in self.double:
                if poly_inside(u.poly, r) and poly_inside(end.poly, r):
                    self.checked()
                    if c < 2 * d - EPS:
                        self.violation(cur, f"{u.name}: {d:.2f}\" wholly in rough ground costs {c:.2f}\", not double")


class NotIntoImpassable(Check):
    name = "no unit stands in ground the scenario makes impassable"
    clause = "scenario terrain (impassable); Movement: Terrain"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.imp = [(t.get("name"), footprint_points({"shape": "polygon", "points": t["points"]}))
                    for t in self.b.closed_terrain(kinds={"impassable"})]

    def line(self, prev, cur, ctx):
        if not self.imp:
            return
        pu = units(prev)
        for n, u in units(cur).items():
            p = pu.get(n)
            if p is not None and p.poly == u.poly:
                continue
            self.checked()
            for name, poly in self.imp:
                if overlap_depth(u.poly, poly) > EPS:
                    was = p is not None and overlap_depth(p.poly, poly) > EPS
                    self.violation(cur, f"{n} stands {overlap_depth(u.poly, poly):.2f}\" into {name}"
                                        f"{' (already before)' if was else ''}: {', '.join(sorted(set(tag(e) for e in evs(cur))))}")


class RoutMove(Check):
    name = "a rout moves cavalry 24\", infantry 12\", artillery 10\" and leaves the unit routing"
    clause = "Formation Notes: Rout Movement"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu, cu = units(prev), units(cur)
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        for e in evs(cur, "forced"):
            if e.get("why") != "rout":
                continue
            n = self.b.name(e.get("unit"))
            u = pu.get(n)
            if u is None:
                continue
            self.checked()
            want = ROUT.get(u.kind)
            if want is not None and abs(e.get("ordered", 0) - want) > EPS:
                self.violation(cur, f"{n} ({u.kind}) routs {e.get('ordered')}\": the text says {want}\"")
            if e.get("done", 0) > e.get("ordered", 0) + EPS:
                self.violation(cur, f"{n} routs {e.get('done'):.2f}\", more than {e.get('ordered')}\"")
            if dist(e["from"], e["to"]) > e.get("done", 0) + EPS:
                self.violation(cur, f"{n}'s rout goes {dist(e['from'], e['to']):.2f}\" but reports {e.get('done'):.2f}\"")
            if n not in removed and n in cu and cu[n].status != "running":
                later = [x.get("why") for x in evs(cur) if tag(x) == "forced" and self.b.name(x.get("unit")) == n and x is not e]
                self.violation(cur, f"{n} routed but is '{cu[n].status}' after (later in the action: {later or 'nothing'})")


class Frontage(Check):
    name = "formations' frontage: march column 1 stand, attack column 2 stands, line 3 or more stands wide; skirmishers' stands 2\"-4\" apart"
    clause = "Movement: Formations"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu = units(prev) if prev is not None else {}
        for n, u in units(cur).items():
            p = pu.get(n)
            if p is not None and p.poly == u.poly and p.figures == u.figures and p.formation == u.formation:
                continue
            if u.kind == "guns" or u.formation in (None, "square") or u.status == "running":
                continue
            fps, w = self.b.fps.get(n), self.b.stand.get(n)
            if not fps or not w or not u.figures:
                continue
            self.checked()
            stands = math.ceil(u.figures / fps - 1e-9)
            front, depth = extent(u.poly, u.facing)
            f = u.formation
            bad = None
            if f == "march column" and abs(front - w) > EPS:
                bad = f"{front:.2f}\" wide, one stand is {w}\""
            elif f == "attack column" and abs(front - 2 * w) > EPS and stands >= 2:
                bad = f"{front:.2f}\" wide, two stands are {2 * w}\""
            elif f == "line" and front < 3 * w - EPS:
                bad = f"{front:.2f}\" wide, less than three stands ({3 * w}\")"
            elif f == "skirmish order" and stands >= 2:
                lo, hi = stands * w + 2 * (stands - 1), stands * w + 4 * (stands - 1)
                if not lo - EPS <= front <= hi + EPS:
                    bad = f"{front:.2f}\" wide for {stands} stands 2\"-4\" apart ({lo}\"-{hi}\")"
            if bad:
                self.violation(cur, f"{n} in {f} ({u.figures} figures, {stands} stands): {bad}")


class FormationInTable(Check):
    name = "a unit stands only in formations its row of the table allows (a rate, not blank; square for foot; limbered/unlimbered for guns)"
    clause = "Unit table; Movement: Formations"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.seen = set()

    def line(self, prev, cur, ctx):
        for n, u in units(cur).items():
            key = (n, u.formation)
            if key in self.seen or u.type is None:
                continue
            self.seen.add(key)
            self.checked()
            t, f = u.type, u.formation
            ok = (f in ("limbered", "unlimbered")) if t.kind == "guns" else (
                f == "square" and t.kind == "foot") or (t.rates.get(f) is not None)
            if not ok:
                self.violation(cur, f"{n} ({t.name}) stands in {f}: its row has no rate for it")


# ======================================================================
# Firing
# ======================================================================


def volleys(prev, cur, b):
    """(volley event, firer before, target before) for the action's volleys."""
    pu = units(prev)
    for e in evs(cur, "volley"):
        f, t = pu.get(b.name(e.get("unit"))), pu.get(b.name(e.get("target")))
        if f is not None and t is not None:
            yield e, f, t


def fire_number(t, chart, rng):
    if t is None or chart not in CHARTS:
        return None
    v = t.fire[CHARTS.index(chart)]
    if t.kind == "guns":
        return v[0] if rng == "short" else v[1]
    return v


class FireRange(Check):
    name = "fire only within the firer's range (artillery: short or long as the table's two ranges say); horse without a firing range does not fire"
    clause = "Unit table: Firing range"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            self.checked()
            ty = f.type
            if ty is None:
                continue
            d = e.get("distance", 0)
            if not ty.ranges or all(x is None for x in ty.fire):
                self.violation(cur, f"{f.name} ({ty.name}) fires: its row has no firing")
                continue
            gap = polygon_distance(f.poly, t.poly)
            if gap > d + EPS:
                self.violation(cur, f"{f.name} -> {t.name}: the bodies are {gap:.2f}\" apart, the volley says {d:.2f}\"")
            if ty.kind == "guns":
                short, long_ = ty.ranges
                want = "short" if d <= short + 1e-9 else "long" if d <= long_ + 1e-9 else None
                if want is None:
                    self.violation(cur, f"{f.name} fires at {d:.2f}\": beyond its long range {long_}\"")
                elif e.get("range") != want:
                    self.violation(cur, f"{f.name} fires at {d:.2f}\" as {e.get('range')} range: {want} by the table ({short}\"/{long_}\")")
            else:
                if d > max(ty.ranges) + 1e-9:
                    self.violation(cur, f"{f.name} ({ty.name}) fires at {d:.2f}\": beyond its range {max(ty.ranges)}\"")
                if len(ty.ranges) == 2:
                    band = "12 inches or less" if d <= min(ty.ranges) else "over 12 inches (up to 16)"
                    self.tally[f"{ty.name} fire at {band}"] += 1


class FiringFrontRank(Check):
    name = "only the front stands fire (figures 2 ranks deep): no more figures than the front rank of stands holds"
    clause = "Firing Procedure: Infantry: Roll 1 D10 per 4 figures firing from 2 ranks deep"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            if f.kind == "guns" or f.formation in ("square", None):
                continue
            fps, w = self.b.fps.get(f.name), self.b.stand.get(f.name)
            if not fps or not w:
                continue
            front, depth = extent(f.poly, f.facing)
            if f.formation == "skirmish order":
                stands = math.ceil(f.figures / fps - 1e-9)
            else:
                stands = max(1, round(front / w))
            self.checked()
            most = min(f.figures, stands * fps)
            firing = e.get("firing") or 0
            if firing > most + 1e-9:
                self.violation(cur, f"{f.name} ({f.formation}, {stands} stands in front) fires with {firing} figures; its front holds {most:g}")
            self.tally[f"{f.formation}: {'all the front' if firing >= most else 'part of the front (in reach)'}"] += 1


class FireArc(Check):
    name = "the target is at least partly within 45 degrees of straight ahead from the firer's front corners"
    clause = "Firing Procedure: 45 degree arc of fire from each front corner"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            if f.formation == "square":
                continue  # a square faces every way
            self.checked()
            if not in_fire_arc(f.poly, f.facing, t.poly):
                off = abs(turn(f.facing, heading_to(centroid(f.poly), centroid(t.poly))))
                self.violation(cur, f"{f.name} (facing {f.facing:.0f}) fires at {t.name}, {off:.0f} deg off its front, outside the arcs")


class FireDice(Check):
    name = "firing dice: 1 d10 per 4 figures (artillery: 2 per gunner short, 1 long), hit on the table's number or under"
    clause = "Firing Procedure; unit table: Firing numbers A-E"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            self.checked()
            ty = f.type
            dice = e.get("dice") or []
            firing = e.get("firing") or 0
            if f.figures is not None and firing > f.figures:
                self.violation(cur, f"{f.name} fires with {firing} of its {f.figures} figures")
            if ty is not None and ty.kind == "guns":
                want = 2 * firing if e.get("range") == "short" else firing
            else:
                want = firing // 4
            if len(dice) != want:
                self.violation(cur, f"{f.name}: {len(dice)} dice for {firing} {'gunners' if ty and ty.kind == 'guns' else 'figures'} at {e.get('range')} range; {want} by the text")
            num = fire_number(ty, e.get("chart"), e.get("range"))
            if num is None:
                self.violation(cur, f"{f.name} ({ty.name if ty else '?'}) fires on chart {e.get('chart')}: its row has no number there")
            elif e.get("number") != num:
                self.violation(cur, f"{f.name} hits on {e.get('number')} on chart {e.get('chart')}: the table says {num}")
            if any(not 1 <= d <= 10 for d in dice):
                self.violation(cur, f"{f.name}: a die out of 1-10 in {dice}")
            if e.get("hits") != sum(1 for d in dice if d <= e.get("number", 0)):
                self.violation(cur, f"{f.name}: {e.get('hits')} hits from {dice} on {e.get('number')} or under")


_TERM = re.compile(r"([A-E])$")
FORMATION_CHART = {"square": "A", "attack column": "B", "march column": "B", "line": "C", "skirmish order": "D",
                   "limbered": "B", "unlimbered": "D"}


class FireChart(Check):
    name = "firing chart: start at C, move by the net of the target's formation (square A, column B, line C, skirmish D; guns limbered B, unlimbered D), flank/rear A, shaken target D, shaken firer D"
    clause = "Chart Differences; Firing Procedure charts A-E; Shaken Status Effects: Fire on Chart D"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            self.checked()
            why = e.get("why") or []
            letters = []
            for w in why:
                m = _TERM.search(w)
                if not m:
                    self.violation(cur, f"a chart reason without a chart: {w!r}")
                    continue
                letters.append(m.group(1))
            want = chart_at(sum(level(x) for x in letters))
            if e.get("chart") != want:
                self.violation(cur, f"{f.name} -> {t.name}: reasons {why} net to chart {want}, not {e.get('chart')}")
            has = lambda s: any(s in w for w in why)  # noqa: E731
            if t.status == "running":
                self.tally[f"volley at a routing unit: chart {e.get('chart')} ({'; '.join(why)})"] += 1
            fc = FORMATION_CHART.get(t.formation)
            if t.status != "running" and fc is not None:
                form_terms = [w for w in why if w.endswith("target " + fc) and "shaken" not in w]
                if not form_terms:
                    self.violation(cur, f"{f.name} -> {t.name} in {t.formation}: no 'target {fc}' among {why}")
            if (t.status == "shaken") != has("target shaken"):
                self.violation(cur, f"{f.name} -> {t.name} ({t.status}): target shaken term {'missing' if t.status == 'shaken' else 'wrongly given'} in {why}")
            if (f.status == "shaken") != has("firer shaken"):
                self.violation(cur, f"{f.name} ({f.status}) fires: firer shaken term {'missing' if f.status == 'shaken' else 'wrongly given'} in {why}")
            if bool(e.get("flank")) != has("flank or rear"):
                self.violation(cur, f"{f.name} -> {t.name}: flank={e.get('flank')} but the reasons are {why}")


class FireFlank(Check):
    name = "flank/rear shots (chart A): a firer wholly behind the line of the target's front is on its flank or rear; one squarely before its front is not"
    clause = "Firing Procedure: Chart A flank/rear shots"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            if t.formation == "square":
                continue
            case = flank_clear_cases(f.poly, t.poly, t.facing)
            if case is None:
                continue
            self.checked()
            if case == "front" and e.get("flank"):
                self.violation(cur, f"{f.name} stands squarely before {t.name}'s front (facing {t.facing:.0f}) but shoots on chart A for the flank")
            if case == "flank" and not e.get("flank"):
                self.violation(cur, f"{f.name} stands wholly behind the line of {t.name}'s front (facing {t.facing:.0f}) but gets no flank shot")


class ArtilleryFire(Check):
    name = "artillery fires only unlimbered, and after at most two functions (limber, move, unlimber, prolonge) that turn"
    clause = "Artillery Functions & Firing"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tt = TurnTrack()
        self.functions = Counter()

    def line(self, prev, cur, ctx):
        t0 = self.tt.turn
        self.tt.see(prev, cur)
        if self.tt.turn != t0:
            self.functions = Counter()
        for e, u in move_events(prev, cur, self.b):
            if u.kind != "guns":
                continue
            new = norm_formation(e.get("formation"))
            if new != u.formation:
                self.functions[u.name] += 1
            if e.get("distance", 0) > EPS:
                self.functions[u.name] += 1
        for e, f, t in volleys(prev, cur, self.b):
            if f.kind != "guns":
                continue
            self.checked()
            if f.formation != "unlimbered":
                self.violation(cur, f"{f.name} fires {f.formation}")
            if self.functions[f.name] > 2:
                self.violation(cur, f"{f.name} fires after {self.functions[f.name]} functions this turn")


class OneVolley(Check):
    name = "each unit fires once a turn, at one enemy (no split fire), in its side's firing phase"
    clause = "Firing Procedure: No Split Fire Allowed; Turn Sequence"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tt = TurnTrack()
        self.fired = set()

    def line(self, prev, cur, ctx):
        t0 = self.tt.turn
        self.tt.see(prev, cur)
        if self.tt.turn != t0:
            self.fired = set()
        by = acted_by(cur)
        for e, f, t in volleys(prev, cur, self.b):
            self.checked()
            if f.name in self.fired:
                self.violation(cur, f"{f.name} fires a second time in turn {self.tt.turn}")
            self.fired.add(f.name)
            if f.side != by:
                self.violation(cur, f"side {by}'s action fires {f.name} of side {f.side}")
            if t.side == f.side:
                self.violation(cur, f"{f.name} fires at its own side's {t.name}")
        if len(evs(cur, "volley")) > 1 and action(cur).get("kind") == "fire":
            self.checked()
            self.violation(cur, "one fire action makes more than one volley")


class FireTest(Check):
    name = "a unit taking hits tests morale at once (before it could return fire); no hits, no test"
    clause = "Firing Procedure: Note: units taking hits from first fire phase must check morale before returning fire"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        for e, f, t in volleys(prev, cur, self.b):
            self.checked()
            if (e.get("hits") or 0) > 0 and not e.get("test") and t.name not in removed:
                self.violation(cur, f"{t.name} takes {e.get('hits')} hits from {f.name} and does not test morale")
            if not (e.get("hits") or 0) and e.get("test"):
                self.violation(cur, f"{t.name} tests morale after no hits")


# ======================================================================
# Morale
# ======================================================================


class Test:
    """One morale test found in an action."""

    def __init__(self, kind, unit, test, event, reasons=None, hits_now=None, opponent_chart=None, body=None, index=0):
        self.kind, self.unit, self.test, self.event = kind, unit, test, event
        self.reasons, self.hits_now, self.opponent_chart, self.body, self.index = reasons, hits_now, opponent_chart, body, index


def tests_in(prev, cur, b):
    """Every morale test of the action, in order, with what it needs."""
    k = ("tests", id(prev), id(cur))
    hit = _cache.get(k)
    if hit is not None and hit[0] is cur and hit[2] is prev:
        return hit[1]
    out = _tests_in(prev, cur, b)
    _cache[k] = (cur, out, prev)
    return out


def _tests_in(prev, cur, b):
    out = []
    for i, (e, hits) in enumerate(hits_running(prev, cur, b)):
        t = tag(e)
        text = e.get("text", "")
        if t == "volley" and e.get("test"):
            n = b.name(e.get("target"))
            r = dice_reasons(text)
            out.append(Test("volley", n, e["test"], e, r[0] if r else None, (hits.get(n) or 0) + (e.get("hits") or 0), index=i))
        elif t == "morale" and e.get("test"):
            n = b.name(e.get("unit"))
            if "tries to rally" in text:
                kind = "rally_rout" if "rally from rout" in text else "rally"
                r = None
            else:
                kind = "death" if "army commander" in text else "other"
                rr = dice_reasons(text)
                r = rr[0] if rr else None
            out.append(Test(kind, n, e["test"], e, r, hits.get(n) or 0, index=i))
        elif t == "melee":
            c, d = b.name(e.get("charger")), b.name(e.get("defender"))
            rr = dice_reasons(text)
            k = 0
            fought = e.get("fought") or []
            a_chart = fought[0].get("chart") if fought else None
            for key, who in (("charge_test", c), ("defence_test", d), ("counter_test", d)):
                if e.get(key):
                    out.append(Test(key, who, e[key], e, rr[k] if k < len(rr) else None, hits.get(who) or 0,
                                    opponent_chart=a_chart if who == d else None, index=i))
                    k += 1
            if len(fought) == 2:
                for j, who in ((0, c), (1, d)):
                    post = fought[j].get("post")
                    if post:
                        got = fought[1 - j].get("hits") or 0
                        out.append(Test("post", who, post, e, rr[k] if k < len(rr) else None, (hits.get(who) or 0) + got,
                                        opponent_chart=fought[1 - j].get("chart"), body=fought[j].get("body"), index=i))
                        k += 1
    return out


def morale_number(u, chart):
    if u is None or u.type is None or chart not in CHARTS:
        return None
    return u.type.morale[CHARTS.index(chart)]


class MoraleArithmetic(Check):
    name = "morale tests: pass on the table's morale number; the two lowest dice count; one die over: shaken, both: rout"
    clause = "Morale: Procedure; Fail on 1 Die: shaken; Fail on 2 Dice: rout; always use 2 lowest rolls; unit table: Morale numbers"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for t in tests_in(prev, cur, self.b):
            self.checked()
            u = pu.get(t.unit)
            for p in test_problems(t.test, morale_number(u, t.test.get("chart"))):
                self.violation(cur, f"{t.unit}'s {t.kind} test: {p}")
            if any(not 1 <= d <= 10 for d in t.test.get("dice", [])):
                self.violation(cur, f"{t.unit}'s {t.kind} test: a die out of 1-10")


class MoraleChart(Check):
    name = "morale chart by cumulative hits (A 1-4, B 5-8, C 9-10, D 11-12, E 13+), C to rally, E in melee against a unit on chart A"
    clause = "Morale: Chart A-E"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for t in tests_in(prev, cur, self.b):
            ch = t.test.get("chart")
            if t.kind in ("rally", "rally_rout"):
                want = {"C"}
            else:
                want = {chart_for_hits(t.hits_now)}
                if t.kind == "post" and t.opponent_chart == "A":
                    want = {"E"}
                elif t.kind in ("defence_test", "counter_test") and t.opponent_chart == "A":
                    want.add("E")  # the text does not say whether the test to stand is 'in melee'
            self.checked()
            if ch not in want:
                self.violation(cur, f"{t.unit}'s {t.kind} test on chart {ch} with {t.hits_now} cumulative hits"
                                    f"{', the enemy on chart ' + t.opponent_chart if t.opponent_chart else ''}: chart {'/'.join(sorted(want))} by the text")


WHERE_BASE = {"in the open": 2, "in cover": 3, "with secure flanks": 4, "in cover with secure flanks": 4,
              "in cover and with secure flanks": 4}


class MoraleDiceCount(Check):
    name = "morale dice: 2 in the open, 3 in cover, 4 with secure flanks (or cover and secure), +1 if a leader is attached (one bonus only); 2 to rally"
    clause = "Morale: Procedure"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for t in tests_in(prev, cur, self.b):
            n = len(t.test.get("dice") or [])
            self.checked()
            if t.kind in ("rally", "rally_rout"):
                if n != 2:
                    self.violation(cur, f"{t.unit} rallies with {n} dice: the text says 2")
                continue
            if t.reasons is None:
                self.violation(cur, f"{t.unit}'s {t.kind} test: its dice are not explained in the text")
                continue
            total, base, where, bonus = t.reasons
            if total != n:
                self.violation(cur, f"{t.unit}'s {t.kind} test: the text says {total} dice, {n} were rolled")
            if WHERE_BASE.get(where) != base:
                self.violation(cur, f"{t.unit}'s {t.kind} test: {base} dice {where}; the text gives {WHERE_BASE.get(where)}")
            att = leaders_with(prev, t.unit)
            attached = len(att)
            # interpretation 8: the officer's die is rolled before the volley's test; a leader it
            # kills gives that one test no die unless another leader is still with the unit (the
            # next man up takes his place after it, so every later test has him)
            killed_now = t.kind == "volley" and t.event.get("officer_die") in (9, 10)
            want = 1 if attached - (1 if killed_now else 0) > 0 else 0
            if bonus != want:
                offs = officers(prev)
                just_died = [x for x in evs(cur)[: t.index + 1] if tag(x) == "volley" and x.get("officer_die") in (9, 10)
                             and self.b.name(x.get("target")) == t.unit]
                self.violation(cur, f"{t.unit}'s {t.kind} test: +{bonus} for a leader with {attached} attached (one bonus a unit)"
                                    + (f"; its officer was killed by the die just before (die {just_died[0].get('officer_die')})"
                                       + (f", {attached - 1} other officer(s) still with it" if attached > 1 else "")
                                       + (" (interpretation 8: that test has no die from him)" if killed_now else
                                          " (the next man up leads it in every later test)") if just_died else ""))
            if base + bonus != n:
                self.violation(cur, f"{t.unit}'s {t.kind} test: {base} +{bonus} is not the {n} dice rolled")


def role(t, b):
    """'charger' or 'defender' for a test in a melee, '' otherwise."""
    if tag(t.event) != "melee":
        return ""
    return " (the charger)" if t.unit == b.name(t.event.get("charger")) else " (the defender)"


def test_body(t, prev, b):
    """The ground a tested unit stood on when tested (None when it had moved in this action)."""
    if t.body:
        return [tuple(p) for p in t.body]
    u = units(prev).get(t.unit)
    return u.poly if u else None


class CoverClaim(Check):
    name = "'in cover' (3 dice) only for a unit touching cover; a unit wholly in a town or wood is not 'in the open'"
    clause = "Morale: Roll 3 D10 if in cover"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.any_terrain = [footprint_points({"shape": "polygon", "points": x["points"]})
                            for x in self.b.closed_terrain(exclude={"hill", "impassable", "road"})]
        self.hard = [footprint_points({"shape": "polygon", "points": x["points"]}) for x in self.b.closed_terrain(kinds={"town", "woods"})]

    def line(self, prev, cur, ctx):
        moved = set()
        for t in tests_in(prev, cur, self.b):
            if t.reasons is None:
                continue
            for e in evs(cur)[: t.index]:
                if tag(e) in ("forced", "moved", "reformed"):
                    moved.add(self.b.name(e.get("unit")))
                if tag(e) == "melee" and e.get("went"):
                    moved.add(self.b.name(e.get("charger")))
            if t.unit in moved and not t.body:
                continue
            body = test_body(t, prev, self.b)
            if not body:
                continue
            where = t.reasons[2]
            self.checked()
            if "cover" in where and not any(polygons_overlap(body, p) for p in self.any_terrain):
                self.violation(cur, f"{t.unit}'s {t.kind} test{role(t, self.b)} counts cover, but it touches no terrain" + (" where it fought" if t.body else ""))
            if where == "in the open" and any(poly_inside(body, p) for p in self.hard):
                self.violation(cur, f"{t.unit}'s {t.kind} test{role(t, self.b)} is 'in the open' though it stands wholly in a town or wood" + (" where it fought" if t.body else ""))


class SecureFlanksClaim(Check):
    name = "'secure flanks' (4 dice) only when each flank has another unit (or a town, wood or wall) within 3\""
    clause = "Formation Notes: Secure flanks; Morale: Roll 4 D10 if flanks secure"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.barriers = [footprint_points({"shape": "polygon", "points": x["points"]})
                         for x in self.b.closed_terrain(kinds=BARRIER_KINDS)]
        self.lines = [[tuple(p) for p in x["points"]] for x in self.b.terrain if not x.get("closed") and x.get("kind") in BARRIER_KINDS]

    def flank_ok(self, edge, others):
        a, b = edge
        for o in others:
            if seg_poly_dist(a, b, o) <= 3.0 + 0.25:
                return True
        # 'resting on' a barrier: taken as leniently as a unit, within 3"
        for p in self.barriers:
            if seg_poly_dist(a, b, p) <= 3.0 + 0.25:
                return True
        for ln in self.lines:
            for i in range(len(ln) - 1):
                if min(seg_dist(ln[i], a, b), seg_dist(ln[i + 1], a, b), seg_dist(a, ln[i], ln[i + 1]), seg_dist(b, ln[i], ln[i + 1])) <= 3.25:
                    return True
        return False

    def line(self, prev, cur, ctx):
        pu = units(prev)
        moved = set()
        for t in tests_in(prev, cur, self.b):
            if t.reasons is None or "secure" not in t.reasons[2]:
                continue
            for e in evs(cur)[: t.index]:
                if tag(e) in ("forced", "moved", "reformed"):
                    moved.add(self.b.name(e.get("unit")))
                if tag(e) == "melee" and e.get("went"):
                    moved.add(self.b.name(e.get("charger")))
            u = pu.get(t.unit)
            if u is None or u.formation == "square" or (t.unit in moved and not t.body):
                continue
            body = test_body(t, prev, self.b)
            facing = u.facing
            if t.body:
                f = t.event.get("fought") or []
                facing = f[0 if t.unit == self.b.name(t.event.get("charger")) else 1].get("facing", facing)
            cu = units(cur)
            # other units where they stood before the action or after it (one moved in the action may have secured it)
            others = [o.poly for n, o in pu.items() if n != t.unit] + [o.poly for n, o in cu.items() if n != t.unit]
            for e in evs(cur)[: t.index + 1]:  # and where units stood in this action's melees
                if tag(e) == "melee":
                    for k, s_ in zip(("charger", "defender"), e.get("fought") or []):
                        if self.b.name(e.get(k)) != t.unit and s_.get("body"):
                            others.append([tuple(p) for p in s_["body"]])
            self.checked()
            # A unit that lost figures earlier in the action (a volley's hits, then its army
            # commander's death test) stands narrower when it tests again: its body then.
            bodies = [body]
            cu_t = cu.get(t.unit)
            if not t.body and cu_t is not None and cu_t.figures != u.figures and t.kind in ("death", "other"):
                bodies.append(cu_t.poly)
            bad = None
            for bd in bodies:
                bad = next((sd for sd, edge in zip(("left", "right"), flank_edges(bd, facing)) if not self.flank_ok(edge, others)), None)
                if bad is None:
                    break
            if bad is not None:
                self.violation(cur, f"{t.unit}'s {t.kind} test{role(t, self.b)} counts secure flanks, but nothing is within 3\" of its {bad} flank"
                                    + (" where it fought" if t.body else ""))


class SecureFlanksByLetter(Check):
    """A count: tests of units with a friend within 3\" of each flank that were not given secure flanks."""
    name = "count: tests of units with a friend within 3\" of both flanks rolled without secure flanks"
    clause = "Formation Notes: Secure flanks"
    keep = 0

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def end(self, ctx, last):
        _fill_examples(self, ctx, last)

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for t in tests_in(prev, cur, self.b):
            if t.reasons is None or t.kind not in ("volley", "death"):
                continue
            u = pu.get(t.unit)
            if u is None or u.formation in ("square", "skirmish order") or u.kind == "guns":
                continue
            friends = [o.poly for n, o in pu.items() if n != t.unit and o.side == u.side and o.status != "running"]
            both = all(any(seg_poly_dist(a, b, o) <= 3.0 - 0.25 for o in friends) for a, b in flank_edges(u.poly, u.facing))
            if both:
                self.checked()
                self.tally["secure" if "secure" in t.reasons[2] else "not secure: " + t.reasons[2]] += 1


class TestOutcome(Check):
    name = "a failed test takes effect: one die shaken, two dice rout; a shaken unit that routs is removed"
    clause = "Morale: Fail on 1 Die: shaken; Fail on 2 Dice: rout; Removal of units when shaken units that rout"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu, cu = units(prev), units(cur)
        status = {n: u.status for n, u in pu.items()}
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        worst = {}
        restored = set()
        order = ["good order", "shaken", "running"]
        by_index = defaultdict(list)
        for t in tests_in(prev, cur, self.b):
            by_index[t.index].append(t)
        for i, e in enumerate(evs(cur)):
            for t in by_index.get(i, []):
                r = t.test.get("result")
                st = status.get(t.unit)
                if t.kind == "counter_test":
                    continue  # failing it leaves the unit at the halt, not shaken
                if t.kind in ("rally", "rally_rout"):
                    if r == "passed":
                        status[t.unit] = "good order"
                        restored.add(t.unit)
                    elif r == "rout":
                        self.checked()
                        if t.unit not in removed:
                            self.violation(cur, f"{t.unit} ({st}) fails its rally on both dice and is not removed")
                    continue
                if r not in ("shaken", "rout") or st is None:
                    continue
                if st == "running":
                    continue  # a routing unit's test: the text does not say what it does
                self.checked()
                if r == "rout" and st == "shaken":
                    if t.unit not in removed:
                        self.violation(cur, f"{t.unit}, shaken, routs on its {t.kind} test and is not removed")
                    status[t.unit] = "removed"
                elif st in order:
                    new = "shaken" if r == "shaken" else "running"
                    if order.index(new) > order.index(st):
                        status[t.unit] = new
                    worst[t.unit] = max(worst.get(t.unit, "good order"), status[t.unit], key=order.index)
            if tag(e) == "melee" and (e.get("pursuit_die") or 0) >= 6:
                restored.add(self.b.name(e.get("winner")))
                status[self.b.name(e.get("winner"))] = "good order"  # rallied on the spot: its later tests start from there
            if tag(e) == "morale" and not e.get("test"):
                restored.add(self.b.name(e.get("unit")))
        for n, w in worst.items():
            if n in removed or n in restored or n not in cu or w == "good order":
                continue
            self.checked()
            if order.index(cu[n].status) < order.index(w) if cu[n].status in order else False:
                self.violation(cur, f"{n} went {w} on a test in this action but is '{cu[n].status}' after")


class RallyFromRout(Check):
    name = "a routing unit has one attempt to rally; failing it (both dice) removes the unit"
    clause = "Morale: Removal of units when fail to rally from rout (1 attempt)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.attempts = Counter()

    def line(self, prev, cur, ctx):
        pu, cu = units(prev), units(cur)
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        for e in evs(cur, "morale"):
            if "tries to rally" not in e.get("text", "") or not e.get("test"):
                continue
            n = self.b.name(e.get("unit"))
            u = pu.get(n)
            if u is None or u.status != "running":
                continue
            self.checked()
            self.attempts[n] += 1
            if self.attempts[n] > 1:
                self.violation(cur, f"{n} tries to rally from the same rout a {self.attempts[n]}th time")
            if e["test"].get("result") == "rout" and n not in removed:
                self.violation(cur, f"{n} fails to rally from rout (both dice) and is not removed")
        for n, u in cu.items():
            if u.status != "running":
                self.attempts.pop(n, None)


class LastStands(Check):
    name = "a unit down to 1 infantry stand or 2 cavalry stands is removed"
    clause = "Morale: Removal of units when unit is reduced to 1 infantry or 2 cavalry stands"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for n, u in units(cur).items():
            p = pu.get(n)
            if p is not None and p.figures == u.figures:
                continue
            fps = self.b.fps.get(n)
            if not fps or u.kind not in ("foot", "horse"):
                continue
            self.checked()
            limit = fps * (1 if u.kind == "foot" else 2)
            if u.figures <= limit + 1e-9:
                self.violation(cur, f"{n} ({u.kind}) is down to {u.figures} figures ({u.figures / fps:.2f} stands of {fps:g}) and still on the table")


# ======================================================================
# Shaken status
# ======================================================================


class MovesThisTurn:
    """Which units moved (by their own move, a forced move or a charge) in the turn so far, and
    which only changed formation or facing where they stood."""

    def __init__(self):
        self.moved = {}

    def see_event(self, e, b, pu):
        t = tag(e)
        if t == "moved":
            n = b.name(e.get("unit"))
            u = pu.get(n)
            if e.get("distance", 0) > EPS:
                self.moved[n] = "moved"
            elif u and (abs(turn(u.facing, e.get("facing", u.facing))) > 0.5 or norm_formation(e.get("formation")) != u.formation):
                self.moved.setdefault(n, "changed formation or facing where it stood")
        elif t == "forced" and e.get("done", 0) > EPS:
            self.moved[b.name(e.get("unit"))] = "moved"
        elif t == "melee" and e.get("went"):
            self.moved[b.name(e.get("charger"))] = "moved"


class ShakenRestore(Check):
    name = "order restored by standing still only after a whole turn without moving"
    clause = "Shaken Status Effects: Can not move for 1 turn in order to restore normal morale state"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.mv = MovesThisTurn()
        self.shaken_at_start = set()
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for e in evs(cur):
            if tag(e) == "turn":
                self.mv = MovesThisTurn()
                self.shaken_at_start = None  # taken from the first line of the turn's movement
                continue
            if tag(e) == "morale" and not e.get("test") and "stood" in e.get("text", ""):
                n = self.b.name(e.get("unit"))
                self.checked()
                how = self.mv.moved.get(n)
                if how == "moved":
                    self.violation(cur, f"{n}'s order is restored though it moved this turn")
                elif how:
                    self.tally[f"restored though it {how} this turn"] += 1
                if pu.get(n) is not None and pu[n].status != "shaken":
                    self.violation(cur, f"{n}'s order is restored but it was '{pu[n].status}'")
                if self.shaken_at_start is not None:
                    self.tally["restored: shaken since the turn began" if n in self.shaken_at_start
                               else "restored: shaken during the turn (did not stand a whole turn shaken)"] += 1
            self.mv.see_event(e, self.b, pu)
        if self.shaken_at_start is None and cur.get("phase") == "movement":
            self.shaken_at_start = {n for n, u in units(prev).items() if u.status == "shaken"}


class RallyByLeader(Check):
    name = "a shaken unit is rallied only by a leader attached to it"
    clause = "Shaken Status Effects: Attached leader may rally any shaken unit"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for e in evs(cur, "morale"):
            if "tries to rally" not in e.get("text", ""):
                continue
            n = self.b.name(e.get("unit"))
            u = pu.get(n)
            if u is None or u.status != "shaken":
                continue
            self.checked()
            if not leaders_with(prev, n):
                self.violation(cur, f"{n} (shaken) tries to rally with no leader attached")


# ======================================================================
# Melee
# ======================================================================


def melees(cur):
    """(melee or called_off event, the events after it up to the next one)."""
    out = []
    for e in evs(cur):
        if tag(e) in ("melee", "called_off"):
            out.append((e, []))
        elif out:
            out[-1][1].append(e)
    return out


class MeleeCtx:
    def __init__(self, e, prev, b, touched):
        self.e = e
        pu = units(prev)
        self.cn, self.dn = b.name(e.get("charger")), b.name(e.get("defender"))
        self.c, self.d = pu.get(self.cn), pu.get(self.dn)
        self.fresh_c = self.cn not in touched
        self.fresh_d = self.dn not in touched


def melee_ctxs(prev, cur, b):
    touched = set()
    for e, after in melees(cur):
        if tag(e) == "melee":
            yield MeleeCtx(e, prev, b, set(touched)), after
        for x in [e] + after:
            for i in unit_refs(x):
                touched.add(b.name(i))


class ChargeDeclaration(Check):
    name = "a charge reaches no farther than the formation's rate plus the charge bonus (halved if shaken, less 2\" if oblique, and oblique only for Prussians); no charge by rows with no bonus (~)"
    clause = "Unit table: Charge; Shaken Status Effects: Move at half rate"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for e in evs(cur, "declared"):
            n = self.b.name(e.get("unit"))
            u, t = pu.get(n), pu.get(self.b.name(e.get("target")))
            if u is None or u.type is None:
                continue
            self.checked()
            if u.type.charge is None:
                self.violation(cur, f"{n} ({u.type.name}) declares a charge: its row has no charge bonus")
                continue
            if t is not None and t.side == u.side:
                self.violation(cur, f"{n} charges its own side's {t.name}")
            r = rate_of(u.type, u.formation)
            if r is None:
                self.violation(cur, f"{n} charges from {u.formation}: its row has no rate for it")
                continue
            obl = e.get("oblique") or 0
            if obl > 0 and u.side not in self.b.prussian:
                self.violation(cur, f"{n} (not Prussian) charges obliquely, {obl:.0f} deg off its front")
            most = (r + u.type.charge - (2.0 if obl > 0 else 0.0)) * (0.5 if u.status == "shaken" else 1.0)
            if e.get("reach", 0) > most + EPS:
                self.violation(cur, f"{n} ({u.formation}, {u.status}) reaches {e.get('reach')}\": at most {most}\" by the text")
            if e.get("cost", 0) > e.get("reach", 0) + EPS:
                self.violation(cur, f"{n}'s charge costs {e.get('cost'):.2f}\" of its {e.get('reach')}\" reach")
            if u.status == "running":
                self.violation(cur, f"{n} charges while routing")


class MeleeSequence(Check):
    name = "melee procedure: the charger tests; if it passes the defender tests; a defender that fails falls back or routs at once; if both pass, a melee (one round)"
    clause = "Melee Procedure 1)-4)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        for m, after in melee_ctxs(prev, cur, self.b):
            e = m.e
            self.checked()
            if m.d is not None and m.d.status == "running":
                dt = e.get("defence_test")
                self.tally[f"a routing unit charged: {'tests to stand: ' + dt.get('result') if dt else 'no test to stand'}"
                           f"{', fights' if e.get('fought') else ''}"] += 1
            ct, dt = e.get("charge_test"), e.get("defence_test")
            if not ct:
                self.violation(cur, f"{m.cn} charges {m.dn} without a test to charge")
                continue
            if ct.get("result") != "passed":
                if dt or e.get("fought"):
                    self.violation(cur, f"{m.cn} failed its test to charge, yet {'the defender tested' if dt else 'a melee was fought'}")
                continue
            if not dt:
                self.violation(cur, f"{m.cn} passed its test to charge and {m.dn} did not test")
                continue
            if dt.get("result") != "passed":
                if e.get("fought"):
                    self.violation(cur, f"{m.dn} failed its test to stand, yet a melee was fought")
                went = [x for x in after if tag(x) == "forced" and self.b.name(x.get("unit")) == m.dn
                        and x.get("why") in ("fall_back", "rout", "retire", "retreat")]
                if not went and m.dn not in removed:
                    self.violation(cur, f"{m.dn} failed its test to stand ({dt.get('result')}) but neither fell back nor routed")
                continue
            if not e.get("fought"):
                self.violation(cur, f"{m.cn} and {m.dn} both passed, but no melee was fought")


class CounterCharge(Check):
    name = "a shaken unit cannot counter-charge; a counter-charge test only for horse charged by horse; a charged horse that does not counter-charge is at the halt"
    clause = "Cavalry Countercharge; Shaken Status Effects: Can not counter-charge"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            e = m.e
            if m.c is None or m.d is None or not e.get("defence_test") or e["defence_test"].get("result") != "passed":
                continue
            self.checked()
            cav = m.c.kind == "horse" and m.d.kind == "horse"
            shaken = m.d.status == "shaken" and m.fresh_d
            ctest = e.get("counter_test")
            if shaken and ctest:
                self.violation(cur, f"{m.dn} is shaken but takes a test to counter-charge")
            if ctest and m.d.kind != "horse":
                self.violation(cur, f"{m.dn} ({m.d.kind}) tests to counter-charge")
            if e.get("at_halt") and m.d.kind != "horse":
                self.violation(cur, f"{m.dn} ({m.d.kind}) is 'at the halt'")
            if cav:
                failed = ctest is not None and ctest.get("result") != "passed"
                if (shaken or failed) and not e.get("at_halt"):
                    self.violation(cur, f"{m.dn} {'is shaken' if shaken else 'failed to counter-charge'} but is not at the halt")
                if ctest and ctest.get("result") == "passed" and e.get("at_halt"):
                    self.violation(cur, f"{m.dn} passed its counter-charge test but is at the halt")
                shaken_now = shaken or "being shaken" in e.get("text", "")
                self.tally["horse charged by horse: " + ("shaken, at the halt" if shaken_now else
                                                          "no counter-charge test" if ctest is None else
                                                          "counter-charges" if ctest.get("result") == "passed" else "fails, at the halt")] += 1


_MFIG = re.compile(r"fights on chart ([A-E]), hits on (\d+) or under, (\d+) d10 \(1 per 4 of its (\d+) figures\)")


def melee_number(u, chart):
    if u is None or u.type is None or chart not in CHARTS:
        return None
    return u.type.melee[CHARTS.index(chart)]


class MeleeDice(Check):
    """Interpretation 50: the figures in melee are the front rank's, however much of the front
    touches (counted by how much touches)."""
    name = "melee dice: 1 d10 per 4 figures in melee, hit on the table's melee number or under"
    clause = "Melee: Procedure; unit table: Melee numbers A-E"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            f = m.e.get("fought")
            if not f:
                continue
            found = _MFIG.findall(m.e.get("text", ""))
            for j, (u, fresh, who) in enumerate(((m.c, m.fresh_c, "charger"), (m.d, m.fresh_d, "defender"))):
                if u is None:
                    continue
                self.checked()
                s = f[j]
                dice = s.get("dice") or []
                num = melee_number(u, s.get("chart"))
                if num is not None and s.get("number") != num:
                    self.violation(cur, f"{u.name} fights on chart {s.get('chart')} hitting on {s.get('number')}: the table says {num}")
                if s.get("hits") != sum(1 for d in dice if d <= s.get("number", 0)):
                    self.violation(cur, f"{u.name}: {s.get('hits')} hits from {dice} on {s.get('number')} or under")
                if j < len(found):
                    figs = int(found[j][3])
                    if len(dice) != figs // 4:
                        self.violation(cur, f"{u.name}: {len(dice)} dice for {figs} figures")
                    if fresh and u.figures is not None and figs > u.figures:
                        self.violation(cur, f"{u.name} fights with {figs} figures of its {u.figures}")
                    if fresh and u.figures:
                        body = [tuple(p) for p in s.get("body") or []]
                        enemy = [tuple(p) for p in f[1 - j].get("body") or []]
                        frac = contact_fraction(body, s.get("facing", 0.0), enemy) if body and enemy else None
                        self.tally[f"{who}: {'all its figures' if figs >= u.figures else 'part of its figures'}"
                                   f"{'' if frac is None else ', front touching the enemy ' + ('all' if frac > 0.95 else 'half or more' if frac >= 0.5 else 'less than half')}"] += 1
                else:
                    self.violation(cur, f"{u.name}'s melee dice are not explained in the text")


def contact_fraction(body, facing, enemy, steps=40):
    """The share of a body's front edge within 0.1\" of the enemy's body."""
    a, b = front_corners(body, facing)
    n = 0
    for i in range(steps):
        t = (i + 0.5) / steps
        p = (a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]))
        if point_in_polygon(p, enemy) or min(seg_dist(p, enemy[k], enemy[(k + 1) % len(enemy)]) for k in range(len(enemy))) <= 0.1:
            n += 1
    return n / steps


def _arm(u):
    return {"foot": "infantry", "horse": "cavalry", "guns": "artillery"}.get(u.kind) if u else None


def _unformed(u):
    return u is not None and (u.formation in UNFORMED_FORMATIONS or u.status == "running" or u.kind == "guns")


_CLAUSE = re.compile(r"(?P<desc>[^:;]+?): (?P<ch>[A-E])(?=$|[;,] )")


def melee_assignments(e, c, d):
    """Each way the melee's reasons can be given to the two sides: [(charger letters, defender letters)]."""
    options = [([], [])]
    names = sorted([(c.name, "c"), (d.name, "d")], key=lambda x: -len(x[0]))
    for w in e.get("why") or []:
        if w.startswith("a flank or rear attack"):
            m = re.search(r": ([A-E]) for the charger, ([A-E]) for the defender", w)
            if m:
                options = [(a + [m.group(1)], b_ + [m.group(2)]) for a, b_ in options]
            continue
        clauses = [(m.group("desc").strip(), m.group("ch")) for m in _CLAUSE.finditer(w)]
        sides = []
        for desc, ch in clauses:
            s = None
            for nm, who in names:
                if desc.startswith(nm + " "):
                    s = who
                    break
            if s is None:
                arm_of = {"c": _arm(c), "d": _arm(d)}
                unf = [k for k, u in (("c", c), ("d", d)) if _unformed(u)]
                if desc == "the other" and sides:
                    s = None if sides[-1] is None else ("d" if sides[-1] == "c" else "c")
                elif desc in ("the infantry", "the cavalry"):
                    want = desc.split()[1]
                    k = [x for x in "cd" if arm_of[x] == want]
                    s = k[0] if len(k) == 1 else None
                elif desc == "the unformed":
                    s = unf[0] if len(unf) == 1 else None
                elif desc.startswith("formed against unformed"):
                    s = ("d" if unf[0] == "c" else "c") if len(unf) == 1 else None
                elif desc.startswith("cavalry against") or desc.startswith("cavalry vs"):
                    k = [x for x in "cd" if arm_of[x] == "cavalry"]
                    s = k[0] if len(k) == 1 else None
                elif desc.startswith("infantry") and "against cavalry" in desc or desc.startswith("square against cavalry"):
                    k = [x for x in "cd" if arm_of[x] == "infantry"]
                    s = k[0] if len(k) == 1 else None
            sides.append(s)
        # an unknown side in a pair: both ways
        if any(s is None for s in sides):
            if len(clauses) == 2:
                choices = [("c", "d"), ("d", "c")]
            else:
                choices = [tuple(x) for x in ([["c"] * len(clauses), ["d"] * len(clauses)])]
            new = []
            for a, b_ in options:
                for ch in choices:
                    aa, bb = list(a), list(b_)
                    for (desc, letter), s in zip(clauses, ch):
                        (aa if s == "c" else bb).append(letter)
                    new.append((aa, bb))
            options = new
        else:
            options = [(a + [l_ for (_, l_), s in zip(clauses, sides) if s == "c"],
                        b_ + [l_ for (_, l_), s in zip(clauses, sides) if s == "d"]) for a, b_ in options]
    return options


class MeleeChart(Check):
    name = "melee charts: start at C, move by the net of each side's advantages (flank A/E, formed v unformed A/E, shaken D and the enemy B, at the halt D/B, square v horse A/E, ...)"
    clause = "Melee: Charts A-E; Chart Differences; Shaken Status Effects: Melee on Chart D"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            e, f = m.e, m.e.get("fought")
            if not f or m.c is None or m.d is None:
                continue
            self.checked()
            why = e.get("why") or []
            got = (f[0].get("chart"), f[1].get("chart"))
            opts = melee_assignments(e, m.c, m.d)
            results = {(chart_at(sum(level(x) for x in a)), chart_at(sum(level(x) for x in b_))) for a, b_ in opts}
            if got not in results:
                self.violation(cur, f"{m.cn} v {m.dn}: reasons {why} give charts {sorted(results)}, fought on {got}")
            has = lambda s: any(s in w for w in why)  # noqa: E731
            for u, fresh in ((m.c, m.fresh_c), (m.d, m.fresh_d)):
                if fresh and (u.status == "shaken") != any(w.startswith(u.name + " shaken") or ("; " + u.name + " shaken") in w for w in why):
                    self.violation(cur, f"{u.name} is {u.status} but the reasons {why} {'miss' if u.status == 'shaken' else 'give'} its shaken D")
            if bool(e.get("flank")) != has("flank or rear attack"):
                self.violation(cur, f"{m.cn} v {m.dn}: flank={e.get('flank')} but the reasons are {why}")
            if bool(e.get("at_halt")) != has("at the halt"):
                self.violation(cur, f"{m.cn} v {m.dn}: at_halt={e.get('at_halt')} but the reasons are {why}")
            if m.fresh_d and m.d.formation == "square" and m.c.kind == "horse" and not has("square"):
                self.violation(cur, f"{m.cn} (horse) charges {m.dn} in square: no square v cavalry A/E in {why}")
            if m.fresh_c and m.fresh_d and _unformed(m.c) != _unformed(m.d):
                if not (has("unformed")):
                    self.violation(cur, f"{m.cn} ({m.c.formation}, {m.c.status}) v {m.dn} ({m.d.formation}, {m.d.status}): "
                                        f"formed against unformed, but no A/E in {why}")


class MeleeFlank(Check):
    name = "flank/rear attacks: a charger starting wholly behind the line of the target's front attacks its flank or rear; one squarely before its front does not"
    clause = "Melee: Chart A any flank or rear attack; Chart E any flank/rear attack"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            if m.c is None or m.d is None or not (m.fresh_c and m.fresh_d) or m.d.formation == "square":
                continue
            case = flank_clear_cases(m.c.poly, m.d.poly, m.d.facing)
            if case is None:
                continue
            self.checked()
            if case == "front" and m.e.get("flank"):
                self.violation(cur, f"{m.cn} starts squarely before {m.dn}'s front (facing {m.d.facing:.0f}) but attacks as on its flank")
            if case == "flank" and not m.e.get("flank"):
                self.violation(cur, f"{m.cn} starts wholly behind the line of {m.dn}'s front (facing {m.d.facing:.0f}) but is not a flank attack")


class MeleeContact(Check):
    name = "a melee is fought in contact: the two bodies touch and do not overlap; the charger goes no farther than its reach"
    clause = "Melee; Unit table: Charge"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            e = m.e
            f = e.get("fought")
            if f:
                self.checked()
                a = [tuple(p) for p in f[0].get("body") or []]
                b_ = [tuple(p) for p in f[1].get("body") or []]
                if a and b_:
                    gap = polygon_distance(a, b_)
                    if gap > EPS:
                        self.violation(cur, f"{m.cn} and {m.dn} fight {gap:.2f}\" apart")
                    dep = overlap_depth(a, b_)
                    if dep > EPS:
                        self.violation(cur, f"{m.cn} and {m.dn} fight overlapping {dep:.2f}\"")
            if e.get("went") and m.c is not None and m.fresh_c:
                self.checked()
                go = dist(m.c.centre, e["went"][0])
                if go > (e.get("reach") or 0) + EPS:
                    self.violation(cur, f"{m.cn} goes {go:.2f}\" to charge {m.dn}, beyond its reach {e.get('reach')}\"")
                if (e.get("cost") or 0) > (e.get("reach") or 0) + EPS:
                    self.violation(cur, f"{m.cn}'s charge costs {e.get('cost'):.2f}\" of its {e.get('reach')}\" reach")


def forced_of(after, b, name, whys=None):
    return [x for x in after if tag(x) == "forced" and b.name(x.get("unit")) == name and (whys is None or x.get("why") in whys)]


class MeleeOutcome(Check):
    name = "after the melee: both pass, the charger retires a full move shaken; horse v horse with no winner both retreat 24\"; the winner is the side that passed when the other failed"
    clause = "Melee Procedure 5); Cavalry Countercharge: If no winner, both sides retreat 24\""

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        cu = units(cur)
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        ms = list(melee_ctxs(prev, cur, self.b))
        for k, (m, after) in enumerate(ms):
            e, f = m.e, m.e.get("fought")
            if not f or m.c is None or m.d is None:
                continue
            # rallied on the spot by a later melee of the action (a winner's pursuit die 6+)
            rallied_later = {self.b.name(x.e.get("winner")) for x, _ in ms[k + 1:] if (x.e.get("pursuit_die") or 0) >= 6}
            self.checked()
            pc = (f[0].get("post") or {}).get("result")
            pd = (f[1].get("post") or {}).get("result")
            w = e.get("winner")
            wn = self.b.name(w) if w is not None else None
            self.tally[f"posts {pc}/{pd}: winner {'charger' if wn == m.cn else 'defender' if wn == m.dn else 'none'}"] += 1
            if wn is not None:
                mine, other = (pc, pd) if wn == m.cn else (pd, pc)
                if mine != "passed" or other == "passed":
                    self.violation(cur, f"{wn} wins with its post-melee test {mine} against {other}")
            elif (pc == "passed") != (pd == "passed"):
                self.violation(cur, f"one side passed after the melee and the other failed ({pc}/{pd}) but no winner")
            cav = m.c.kind == "horse" and m.d.kind == "horse"
            if cav and wn is None:
                for n in (m.cn, m.dn):
                    if n in removed:
                        continue
                    r = forced_of(after, self.b, n)
                    if not r or not any(x.get("why") in ("retreat", "rout") and abs(x.get("ordered", 0) - 24) <= EPS for x in r):
                        self.violation(cur, f"horse v horse, no winner: {n} does not retreat 24\" ({[(x.get('why'), x.get('ordered')) for x in r]})")
            elif pc == "passed" and pd == "passed":
                if m.cn not in removed:
                    r = forced_of(after, self.b, m.cn)
                    if not any(x.get("why") == "retire" for x in r):
                        self.violation(cur, f"both passed after the melee: {m.cn} (charger) does not retire ({[x.get('why') for x in r]})")
                    if m.cn in cu and cu[m.cn].status not in ("shaken", "running") and m.cn not in rallied_later:
                        self.violation(cur, f"both passed after the melee: {m.cn} retires but is '{cu[m.cn].status}', not shaken")


class PostMeleeShaken(Check):
    name = "after a melee both sides are shaken (or worse) unless the charger rallies on the spot"
    clause = "Melee Procedure 7)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        cu = units(cur)
        last = {}
        for m, after in melee_ctxs(prev, cur, self.b):
            if m.e.get("fought"):
                last[m.cn] = (m, "charger")
                last[m.dn] = (m, "defender")
        for n, (m, role) in last.items():
            if n not in cu:
                continue
            self.checked()
            pdie = m.e.get("pursuit_die")
            winner = self.b.name(m.e.get("winner")) if m.e.get("winner") is not None else None
            rallied = winner == n and pdie is not None and pdie >= 6
            st = cu[n].status
            if st == "good order":
                if rallied:
                    self.tally[f"good order after the melee: the {role} rallied on the spot (die {pdie})"] += 1
                else:
                    self.violation(cur, f"{n} ({role}) is in good order after the melee without rallying on the spot")


PURSUIT = {1: "pursue", 2: "return", 3: "return", 4: "hold", 5: "hold", 6: "rally"}


class CavalryPursuit(Check):
    name = "only a cavalry winner rolls for pursuit: 1 pursue, 2-3 return to own lines (both 14-20\" +24\"), 4-5 hold; all shaken; 6 rally, good order; infantry never pursue"
    clause = "Melee Procedure 6); Post Melee Cavalry Pursuit; Infantry do not pursue post-melee"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        cu = units(cur)
        pu = units(prev)
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        for e in evs(cur, "forced"):
            if e.get("why") in ("pursue", "return"):
                u = pu.get(self.b.name(e.get("unit")))
                self.checked()
                if u is not None and u.kind != "horse":
                    self.violation(cur, f"{u.name} ({u.kind}) makes a pursuit move ({e.get('why')})")
        fought_at = defaultdict(list)
        for k, (m, after) in enumerate(melee_ctxs(prev, cur, self.b)):
            if m.e.get("fought"):
                fought_at[m.cn].append(k)
                fought_at[m.dn].append(k)
        for k, (m, after) in enumerate(melee_ctxs(prev, cur, self.b)):
            e = m.e
            if not e.get("fought"):
                continue
            self.checked()
            w = e.get("winner")
            wn = self.b.name(w) if w is not None else None
            wu = m.c if wn == m.cn else m.d if wn == m.dn else None
            die = e.get("pursuit_die")
            if wu is None:
                if die is not None:
                    self.violation(cur, f"a pursuit die {die} with no winner")
                continue
            if (wu.kind == "horse") != (die is not None):
                self.violation(cur, f"{wn} ({wu.kind}) wins {'without' if die is None else 'with'} a pursuit die")
                continue
            if die is None:
                continue
            res = PURSUIT.get(die, "not in the table")
            self.tally[f"die {die}: {res}"] += 1
            moves = forced_of(after, self.b, wn, ("pursue", "return"))
            want_move = {"pursue": "pursue", "return": "return"}.get(res)
            if res in ("pursue", "return", "hold", "rally"):
                if want_move and wn not in removed and not any(x.get("why") == want_move for x in moves):
                    self.violation(cur, f"{wn}'s pursuit die {die} ({res}) but it makes no '{want_move}' move")
                if not want_move and moves:
                    self.violation(cur, f"{wn}'s pursuit die {die} ({res}) but it moves: {[x.get('why') for x in moves]}")
                for x in moves:
                    line_rate = wu.type.line if wu.type else None
                    o = x.get("ordered", 0)
                    if not 14 + 24 - EPS <= o <= 20 + 24 + EPS:
                        self.violation(cur, f"{wn}'s {x.get('why')} of {o}\": the table says 14-20\" +24\"")
                    elif line_rate is not None and abs(o - (line_rate + 24)) > EPS:
                        self.tally[f"{x.get('why')} ordered {o}\" (line rate {line_rate}\" + 24\" is {line_rate + 24}\")"] += 1
                if wn in cu and max(fought_at[wn]) == k:
                    st = cu[wn].status
                    want_st = "good order" if res == "rally" else "shaken"
                    if st != want_st and not (want_st == "shaken" and st == "running"):
                        self.violation(cur, f"{wn}'s pursuit die {die} ({res}): it should be {want_st}, it is {st}")
            elif wn in cu:
                self.tally[f"die {die} (not in the table): {cu[wn].status}, moves {[x.get('why') for x in moves]}"] += 1


def turned_poly(poly, facing, new_facing, at):
    """The footprint `poly` (facing `facing`) turned to `new_facing` about its centre, set at `at`."""
    c = centroid(poly)
    f0, r0 = heading_vec(facing), heading_vec(facing + 90.0)
    f1, r1 = heading_vec(new_facing), heading_vec(new_facing + 90.0)
    out = []
    for p in poly:
        d = (p[0] - c[0], p[1] - c[1])
        a, b = d[0] * f0[0] + d[1] * f0[1], d[0] * r0[0] + d[1] * r0[1]
        out.append((at[0] + a * f1[0] + b * r1[0], at[1] + a * f1[1] + b * r1[1]))
    return out


class ShakenInMeleeRetires(Check):
    """Interpretation 27: turned to face the enemy where it stands, or, with no room there, where
    its move ends; a unit hemmed in at both ends keeps its facing (counted). Interpretation 38: a
    unit routing before the charge that fails by one die is still routing and makes a rout move
    instead."""
    name = "a unit that goes shaken in melee retires a full column move to the rear, facing the enemy"
    clause = "Melee: Rout status Units that go shaken in melee retire a full column move to rear facing enemy"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def room_to_turn(self, n, u, facing, at, others):
        body = turned_poly(u.poly, u.facing, facing, at)
        w, d = self.b.table.get("width"), self.b.table.get("depth")
        if w and d and any(not (-EPS <= x <= w + EPS and -EPS <= y <= d + EPS) for x, y in body):
            return False
        return not any(polygons_overlap(body, o, eps=1e-6) for o in others)

    def line(self, prev, cur, ctx):
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        routed = set()  # routed by an earlier melee of this action
        for m, after in melee_ctxs(prev, cur, self.b):
            was_routed = set(routed)
            for x in after:
                if tag(x) == "forced" and (x.get("data") or x).get("why") == "rout":
                    routed.add(self.b.name((x.get("data") or x).get("unit")))
            e, f = m.e, m.e.get("fought")
            cases = []
            if f:
                for j, (n, u, enemy_body) in enumerate(((m.cn, m.c, f[1].get("body")), (m.dn, m.d, f[0].get("body")))):
                    if (f[j].get("post") or {}).get("result") == "shaken":
                        cases.append((n, u, enemy_body, "post-melee"))
            dt = e.get("defence_test")
            if dt and dt.get("result") == "shaken" and not f:
                cases.append((m.dn, m.d, None, "test to stand"))
            for n, u, enemy_body, when in cases:
                if u is None or n in removed:
                    continue
                self.checked()
                r = forced_of(after, self.b, n)
                if u.status == "running" or n in was_routed:
                    # interpretation 38: a router failing by one die goes back as a router goes
                    if not [x for x in r if x.get("why") == "rout"] or units(cur).get(n) is None or units(cur)[n].status != "running":
                        self.violation(cur, f"{n} (routing) fails by one die in a charge: it should make a rout move and still be routing ({[x.get('why') for x in r]})")
                    continue
                back = [x for x in r if x.get("why") in ("fall_back", "retire", "retreat")]
                if not back:
                    if when == "post-melee":
                        self.violation(cur, f"{n} goes shaken in melee but does not retire ({[x.get('why') for x in r]})")
                    continue
                x = back[0]
                col = u.type.column if u.type else None
                if when == "post-melee":
                    if x.get("why") == "retreat":
                        continue  # horse v horse with no winner: 24"
                    if col is not None and abs(x.get("ordered", 0) - col) > EPS:
                        self.violation(cur, f"{n} goes shaken in melee and retires {x.get('ordered')}\": a full column move is {col}\"")
                    if col is None:
                        self.tally[f"no column rate ({u.type.name if u.type else '?'}): retires {x.get('ordered')}\""] += 1
                else:
                    self.tally[f"fails its test to stand, shaken: falls back {x.get('ordered')}\" ({'= column' if col == x.get('ordered') else 'column ' + str(col)})"] += 1
                self.tally["goes straight to its rear" if abs(abs(turn(x.get("heading", 0), x.get("facing", 0))) - 180) <= 1.0
                           else "goes back at a slant to its facing"] += 1
                if enemy_body and x.get("done", 0) > EPS:
                    to_enemy = heading_to(x["from"], centroid([tuple(p) for p in enemy_body]))
                    if abs(turn(x.get("facing", 0), to_enemy)) > 90:
                        others = [o.poly for k, o in units(cur).items() if k != n] + [[tuple(p) for p in enemy_body]]
                        face = heading_to(x["from"], centroid([tuple(p) for p in enemy_body]))
                        if x.get("stopped") and not self.room_to_turn(n, u, face, x["from"], others) \
                                and not self.room_to_turn(n, u, face, x["to"], others):
                            self.tally["hemmed in, no room to turn to face the enemy where it stood or stopped (interpretation 27)"] += 1
                        else:
                            self.violation(cur, f"{n} retires facing {x.get('facing'):.0f}, away from the enemy (at {to_enemy:.0f})")
                    if abs(turn(x.get("heading", 0), to_enemy)) < 90:
                        self.violation(cur, f"{n} retires heading {x.get('heading'):.0f}, towards the enemy (at {to_enemy:.0f})")


class OneRound(Check):
    """Interpretation 51: one round a melee; the same pair may meet again in the turn when the
    other side charges in its own melee phase (counted)."""
    name = "melees last one round: the same charger fights the same defender at most once a turn"
    clause = "Melee (1 round only); Melee Procedure - all melees last one round only"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tt = TurnTrack()
        self.pairs = set()
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        t0 = self.tt.turn
        self.tt.see(prev, cur)
        if self.tt.turn != t0:
            self.pairs = set()
        for e in evs(cur, "melee"):
            if not e.get("fought"):
                continue
            self.checked()
            key = (e.get("charger"), e.get("defender"))
            c, d = self.b.name(key[0]), self.b.name(key[1])
            if key in self.pairs:
                self.violation(cur, f"{c} and {d} fight a second round in turn {self.tt.turn}")
            elif key[::-1] in self.pairs:
                self.tally["the same two units fight twice in a turn, the second time the other charging"] += 1
            self.pairs.add(key)


# ======================================================================
# Reserve moves
# ======================================================================


class ReserveMove(Check):
    name = "a reserve move only for a unit more than 30\" from every enemy, and never into contact with the enemy"
    clause = "Reserve Moves"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        if prev.get("phase") != "leader and reserve":
            return
        pu, cu = units(prev), units(cur)
        for e, u in move_events(prev, cur, self.b):
            self.checked()
            enemies = [o for o in pu.values() if o.side != u.side]
            if not enemies:
                continue
            near = min(polygon_distance(u.poly, o.poly) for o in enemies)
            cc = min(dist(u.centre, o.centre) for o in enemies)
            if cc <= 30.0:
                self.violation(cur, f"{u.name} makes a reserve move {cc:.1f}\" (centre to centre) from the nearest enemy")
            elif near <= 30.0:
                self.tally["reserve move within 30\" body to body, beyond 30\" centre to centre"] += 1
            else:
                self.tally["reserve move beyond 30\" of every enemy"] += 1
            end = cu.get(u.name)
            if end is not None:
                after = [o for o in cu.values() if o.side != u.side]
                if after and min(polygon_distance(end.poly, o.poly) for o in after) <= 0.01:
                    self.violation(cur, f"{u.name}'s reserve move ends in contact with the enemy")


# ======================================================================
# Officers
# ======================================================================


class OfficerFate(Check):
    name = "officer casualty die: 1-2 close call, 3-4 missed, 5-6 light wound, 7-8 severe wound, 9 killed, 10 killed by round shot"
    clause = "Officer or Leader Casualties"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for e in evs(cur, "officer"):
            if e.get("die") is None:
                continue
            self.checked()
            if FATES.get(e["die"]) != e.get("fate"):
                self.violation(cur, f"officer {e.get('officer')}'s die {e['die']} gives '{e.get('fate')}': the table says '{FATES.get(e['die'])}'")


class OfficerDieOnlyAttached(Check):
    name = "the officer casualty die is rolled only for an officer attached to the unit hit"
    clause = "Officer or Leader Casualties: This test is applied only when a mounted officer figure is attached to the unit"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        offs = officers(prev)
        for e, f, t in volleys(prev, cur, self.b):
            att = leaders_with(prev, t.name)
            self.checked()
            if e.get("officer_die") is not None and not att:
                self.violation(cur, f"an officer's die for {t.name}, which has no officer attached")
            if att:
                self.tally[f"volley at a unit with an officer, {'hits' if e.get('hits') else 'no hits'}: "
                           f"{'die rolled' if e.get('officer_die') is not None else 'no die'}"] += 1
        engaged = set()
        for e in evs(cur):
            engaged.update(self.b.name(i) for i in unit_refs(e) if tag(e) in ("volley", "melee"))
        for e in evs(cur, "officer"):
            if e.get("die") is None:
                continue
            i = e.get("officer")
            self.checked()
            m = offs[i] if isinstance(i, int) and i < len(offs) else None
            if m is None or m.get("unit") not in engaged:
                self.violation(cur, f"officer {i}'s fate is rolled, but he is not with a unit under fire or in melee ({m.get('unit') if m else None})")


class ArmyCommanderDeath(Check):
    """Interpretation 49: his own units, not routing, within 12\" of where he fell test; enemy
    units and his routing units are counted, not checked."""
    name = "the army commander killed by round shot: every unit within 12\" of him tests morale; no such test for another fate or officer"
    clause = "Officer or Leader Casualties: 10"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        offs = officers(prev)
        tested = {self.b.name(e.get("unit")) for e in evs(cur, "morale") if "army commander" in e.get("text", "")}
        hit = {self.b.name(e.get("target")) for e in evs(cur, "volley") if e.get("test")}
        removed = {self.b.name(e.get("unit")) for e in evs(cur, "removed")}
        shot = []
        went = {}
        for e in evs(cur):
            if tag(e) == "melee" and e.get("went"):
                went[self.b.name(e.get("charger"))] = tuple(e["went"][0])
            if tag(e) != "officer":
                continue
            i = e.get("officer")
            m = offs[i] if isinstance(i, int) and i < len(offs) else None
            if e.get("fate") == "killed_by_round_shot" and m and m.get("kind") == "commander":
                m = dict(m)
                if m.get("unit") in went:  # he fell where his unit charged to
                    m["at"] = went[m["unit"]]
                shot.append(m)
        if tested and not shot:
            self.checked()
            self.violation(cur, f"units test for the army commander's death ({sorted(tested)}) but no army commander was killed by round shot")
        for m in shot:
            self.checked()
            at = tuple(m.get("at"))
            for n, u in units(prev).items():
                dd = 0.0 if point_in_polygon(at, u.poly) else min(seg_dist(at, u.poly[k], u.poly[(k + 1) % len(u.poly)]) for k in range(len(u.poly)))
                if u.side == m.get("side"):
                    routing = u.status == "running" or any(tag(x) == "forced" and x.get("why") == "rout" and self.b.name(x.get("unit")) == n
                                                           for x in evs(cur))
                    if dd <= 12.0 - EPS and n not in tested and n not in removed and routing:
                        self.tally["a routing unit within 12\": no test"] += 1
                    elif dd <= 12.0 - EPS and n not in tested and n not in removed:
                        if n in hit:
                            self.tally["the unit hit, within 12\", tested by the volley only"] += 1
                        else:
                            self.violation(cur, f"{n} is {dd:.1f}\" from where the army commander fell and does not test")
                    if dd > 12.0 + EPS and n in tested and dist(at, u.centre) > 12.0 + EPS:
                        self.violation(cur, f"{n} is {dd:.1f}\" from where the army commander fell and tests"
                                            " (measured from where his unit went after the shot?)")
                elif dd <= 12.0 - EPS:
                    self.tally["enemy unit within 12\" of the dead army commander: " + ("tests" if n in tested else "does not test")] += 1


class WoundedOfficer(Check):
    name = "a severely wounded officer does not move for two turns; a lightly wounded one moves at half speed for the rest of the game"
    clause = "Officer or Leader Casualties: 5-6, 7-8"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tt = TurnTrack()
        self.severe = {}
        self.light = set()
        self.normal = 0.0
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        self.tt.see(prev, cur)
        T = cur.get("turn", self.tt.turn)
        for e in evs(cur, "officer"):
            i = e.get("officer")
            if e.get("fate") == "severe_wound":
                self.severe[i] = T
            elif e.get("fate") == "light_wound":
                self.light.add(i)
            elif e.get("fate") in ("killed", "killed_by_round_shot"):
                self.severe.pop(i, None)
                self.light.discard(i)  # the next man up
            r = e.get("ride")
            if not r:
                continue
            self.checked()
            most, d = r.get("most", 0), r.get("distance", 0)
            if d > most + EPS:
                self.violation(cur, f"officer {i} rides {d:.1f}\", more than his {most}\"")
            if i in self.severe:
                w = self.severe[i]
                if T <= w + 1:
                    self.violation(cur, f"officer {i}, severely wounded in turn {w}, rides in turn {T}")
                elif T == w + 2:
                    self.tally["severely wounded officer rides in the second turn after his wound"] += 1
            if i in self.light:
                if self.normal and most > self.normal / 2 + EPS:
                    self.violation(cur, f"officer {i}, lightly wounded, may ride {most}\": half of {self.normal}\" is {self.normal / 2}\"")
            elif i not in self.severe:
                self.normal = max(self.normal, most)
        po, co = officers(prev), officers(cur)
        for i, w in self.severe.items():
            if T <= w + 1 and i < len(po) and i < len(co) and dist(po[i]["at"], co[i]["at"]) > EPS:
                if not any(tag(e) == "officer" and e.get("officer") == i for e in evs(cur)):
                    self.tally["severely wounded officer carried along with his unit within two turns"] += 1


# ======================================================================
# Bodies on the table
# ======================================================================


class NoOverlap(Check):
    name = "no two units' bodies overlap after an action"
    clause = "Movement (bodies on the table); Melee (contact)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        pu, cu = units(prev), units(cur)
        changed = [n for n, u in cu.items() if n not in pu or pu[n].poly != u.poly]
        if not changed:
            return
        names = list(cu)
        done = set()
        for n in changed:
            for o in names:
                if o == n or (o, n) in done:
                    continue
                done.add((n, o))
                self.checked()
                dep = overlap_depth(cu[n].poly, cu[o].poly)
                if dep > EPS:
                    foe = cu[n].side != cu[o].side
                    was = n in pu and o in pu and overlap_depth(pu[n].poly, pu[o].poly) > EPS
                    why = sorted({tag(e) + (":" + e.get("why") if tag(e) == "forced" else "") for e in evs(cur)
                                  if self.b.name(e.get("unit")) in (n, o) or self.b.name(e.get("charger")) in (n, o)})
                    self.violation(cur, f"{n} and {o} ({'enemies' if foe else 'friends'}) overlap {dep:.2f}\""
                                        f"{' (already before)' if was else ''} after {why}")


class DiceDrawn(Check):
    name = "every die an event reports is a d10 drawn for the action, and every die drawn is reported"
    clause = "d10s against charts A-E (dice in each line's draws)"

    def line(self, prev, cur, ctx):
        draws = cur.get("draws") or []
        got = []
        for e in evs(cur):
            t = tag(e)
            if t == "initiative":
                got += e.get("dice") or []
            elif t == "volley":
                got += e.get("dice") or []
                got += (e.get("test") or {}).get("dice") or []
            elif t == "officer" and e.get("die") is not None:
                got.append(e["die"])
            elif t == "morale" and e.get("test"):
                got += e["test"].get("dice") or []
            elif t == "melee":
                for k in ("charge_test", "defence_test", "counter_test"):
                    got += (e.get(k) or {}).get("dice") or []
                for s_ in e.get("fought") or []:
                    got += s_.get("dice") or []
                    got += (s_.get("post") or {}).get("dice") or []
                if e.get("pursuit_die") is not None:
                    got.append(e["pursuit_die"])
        if not draws and not got:
            return
        self.checked()
        if any(d.get("kind") != "die" or d.get("sides") != 10 for d in draws):
            self.violation(cur, "a draw that is not a d10")
        if sorted(got) != sorted(d.get("value") for d in draws):
            self.violation(cur, f"the events' dice {sorted(got)} are not the draws {sorted(d.get('value') for d in draws)}")


class MeleeAgreesWithTests(Check):
    name = "within one melee, the charts' 'secure flanks' and 'cover' for a defending foot unit agree with its test to stand"
    clause = "Melee Charts B/D (infantry w/o secure flanks v cavalry), A/E (infantry in cover v cavalry); Morale: 3 in cover, 4 flanks secure"

    def start(self, ctx, first):
        self.b = battle(ctx, first)

    def line(self, prev, cur, ctx):
        for m, after in melee_ctxs(prev, cur, self.b):
            e = m.e
            if not e.get("fought") or m.c is None or m.d is None:
                continue
            if {m.c.kind, m.d.kind} != {"foot", "horse"}:
                continue
            foot, horse = (m.c, m.d) if m.c.kind == "foot" else (m.d, m.c)
            if foot is m.c or foot.formation in ("square",) or _unformed(foot):
                continue  # a charging foot tests where it starts and fights where it arrives
            why = " | ".join(e.get("why") or [])
            rr = dice_reasons(e.get("text", ""))
            # the foot's test to stand, taken where it fights
            k = 1
            if k >= len(rr):
                continue
            where = rr[k][2]
            self.checked()
            no_flanks = "without secure flanks" in why
            cover_term = "in cover" in why
            if "secure" in where and no_flanks:
                self.violation(cur, f"{foot.name} tests with secure flanks but fights {horse.name} as 'without secure flanks'")
            if "cover" in where and not cover_term:
                self.violation(cur, f"{foot.name} tests in cover but fights {horse.name} without 'infantry in cover' A/E")
            if where == "in the open" and not no_flanks and not cover_term:
                self.violation(cur, f"{foot.name} tests in the open (flanks not secure) but fights {horse.name} with no 'without secure flanks' B/D")


# ======================================================================
# Counts (keep = 0: distributions, never violations)
# ======================================================================


class Count(Check):
    keep = 0

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        if not hasattr(self, "tally"):
            self.tally = Counter()

    def add(self, key, n=1):
        self.checked(n)
        self.tally[key] += n


class CountContactAtTurnEnd(Count):
    name = "count: enemies left in (or within 0.5\" of) contact at a turn's end, and for how many turn ends running"
    clause = "Melee (only charges fight); Reserve Moves"

    def start(self, ctx, first):
        super().start(ctx, first)
        self.runs = Counter()
        self.fought = set()

    def line(self, prev, cur, ctx):
        for e in evs(cur, "melee"):
            self.fought.add(frozenset((self.b.name(e.get("charger")), self.b.name(e.get("defender")))))
        for e in evs(cur, "contact"):
            self.tally["'contact' events (left in contact, no melee)"] += 1
        if not any(tag(e) == "turn" for e in evs(cur)) and not cur.get("outcome"):
            return
        pu = units(prev)
        now = {}
        ns = list(pu)
        for i, a in enumerate(ns):
            for b_ in ns[i + 1:]:
                if pu[a].side != pu[b_].side:
                    d = polygon_distance(pu[a].poly, pu[b_].poly)
                    if d <= 0.5:
                        now[frozenset((a, b_))] = d
        for k in list(self.runs):
            if k not in now:
                del self.runs[k]
        for k, d in now.items():
            self.runs[k] += 1
            self.add(f"enemy pair {'touching' if d <= EPS else 'within 0.5 inch'} at a turn's end "
                     f"({'fought a melee' if k in self.fought else 'no melee between them'} that turn), "
                     f"{'first turn end' if self.runs[k] == 1 else str(self.runs[k]) + ' turn ends running'}")
        self.fought = set()


class CountRemovals(Count):
    name = "count: why units are removed"
    clause = "Morale: Removal of units"

    def line(self, prev, cur, ctx):
        for e in evs(cur, "removed"):
            self.add(re.sub(r"^.*? is removed: ", "", e.get("text", "")))


class CountForcedShort(Count):
    name = "count: forced moves (rout, fall back, retire, retreat, pursue, return) cut short, and by what"
    clause = "Rout Movement; Melee Procedure"

    def line(self, prev, cur, ctx):
        for e in evs(cur, "forced"):
            short = e.get("done", 0) < e.get("ordered", 0) - EPS
            why = e.get("stopped") or ("off the table" if e.get("off_table") else "ground" if e.get("terrain") else "")
            why = "a unit in the way" if why.endswith(" in the way") else why
            self.add(f"{e.get('why')}: {'cut short by ' + why if short else 'full'}{' (slowed by ground)' if e.get('terrain') else ''}")


class CountFlanks(Count):
    name = "count: the share of volleys and melees on a flank or rear"
    clause = "Firing Chart A flank/rear shots; Melee Chart A/E flank or rear attack"

    def line(self, prev, cur, ctx):
        for e in evs(cur, "volley"):
            self.add(f"volley {'on flank/rear' if e.get('flank') else 'frontal'}")
        for e in evs(cur, "melee"):
            if e.get("fought"):
                self.add(f"melee {'on flank/rear' if e.get('flank') else 'frontal'}")


class CountHitsFigures(Count):
    name = "count: figures lost against hits taken (the text does not say hits remove figures)"
    clause = "Morale: cumulative hits; Removal of units when reduced to 1 infantry or 2 cavalry stands"

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for n, u in units(cur).items():
            p = pu.get(n)
            if p is None:
                continue
            dh, df = (u.hits or 0) - (p.hits or 0), (p.figures or 0) - (u.figures or 0)
            if dh or df:
                self.add("a figure lost for each hit" if dh == df else f"hits {dh}, figures lost {df}")


class CountInitiative(Count):
    name = "count: initiative ties rolled again, and the exceptional commander's +1 after his death"
    clause = "Initiative Die Roll"

    def start(self, ctx, first):
        super().start(ctx, first)
        self.dead = set()

    def line(self, prev, cur, ctx):
        offs = officers(prev)
        for e in evs(cur, "officer"):
            i = e.get("officer")
            if e.get("fate") in ("killed", "killed_by_round_shot") and isinstance(i, int) and i < len(offs) and offs[i].get("kind") == "commander":
                self.dead.add(offs[i].get("side"))
        for e in evs(cur, "initiative"):
            m = _INIT.match(e.get("text", ""))
            self.add("tie, rolled again" if e.get("winner") is None else "decided")
            if m:
                for side, bonus in ((0, m.group(3)), (1, m.group(7))):
                    if bonus:
                        self.tally[f"side {side} adds +1 ({'after' if side in self.dead else 'before'} its army commander's death)"] += 1


class CountZeroHitTests(Count):
    name = "count: morale tests of units with no hits (the text's charts start at 1 hit)"
    clause = "Morale: Chart A suffered 1-4 cumulative hits"

    def line(self, prev, cur, ctx):
        for t in tests_in(prev, cur, self.b):
            if t.kind not in ("rally", "rally_rout") and t.hits_now == 0:
                self.add(f"{t.kind} test at 0 hits on chart {t.test.get('chart')}")


class CountRoutingActs(Count):
    name = "count: what routing units do of their own accord (move, fire, charge), and routs never rallied"
    clause = "Rout Movement; Formation Notes: Routing units are unformed"

    def start(self, ctx, first):
        super().start(ctx, first)
        self.ever = set()
        self.tried = set()

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for n, u in units(cur).items():
            if u.status == "running":
                self.ever.add(n)
        for e in evs(cur):
            t = tag(e)
            u = pu.get(self.b.name(e.get("unit") if t != "melee" else e.get("charger")))
            if u is None or u.status != "running":
                continue
            if t == "moved":
                self.add("a routing unit moves of its own accord")
            elif t == "volley":
                self.add("a routing unit fires")
            elif t == "declared":
                self.add("a routing unit declares a charge")
            elif t == "morale" and "rally" in e.get("text", ""):
                self.tried.add(u.name)

    def end(self, ctx, last):
        cu = units(last)
        for n in self.ever:
            if n in cu and cu[n].status == "running" and n not in self.tried:
                self.add("a unit still routing at the end, never having tried to rally")
        _fill_examples(self, ctx, last)


class CountFireAtCover(Count):
    name = "count: volleys at units standing in a town or wood, and their chart reasons (hard cover is chart E)"
    clause = "Firing: Chart E Infantry/artillery in hard cover (entrenchments)"

    def start(self, ctx, first):
        super().start(ctx, first)
        self.cover = [(x.get("kind"), footprint_points({"shape": "polygon", "points": x["points"]}))
                      for x in self.b.closed_terrain(kinds={"town", "woods", "redoubt", "entrenchment"})]

    def line(self, prev, cur, ctx):
        for e, f, t in volleys(prev, cur, self.b):
            for kind, poly in self.cover:
                if polygons_overlap(t.poly, poly):
                    self.add(f"at a target {'wholly' if poly_inside(t.poly, poly) else 'partly'} in a {kind}: "
                             f"{'a cover term' if any('cover' in w for w in e.get('why') or []) else 'no cover term'}")
                    break


class CountRallies(Count):
    name = "count: rallies (shaken by a leader; from rout, one attempt) and their results"
    clause = "Morale: Roll 2 D10 to rally; Removal of units when fail to rally from rout"

    def line(self, prev, cur, ctx):
        pu = units(prev)
        for e in evs(cur, "morale"):
            if "tries to rally" in e.get("text", "") and e.get("test"):
                u = pu.get(self.b.name(e.get("unit")))
                r = e["test"].get("result")
                after = re.sub(r"^.*— ", "", e.get("text", ""))
                self.add(f"rally of a {u.status if u else '?'} unit: {r} ({after})")


# ======================================================================
# Falling back "to rear" (interpretation 52): every move back after a melee or a failed test to
# stand — falling back, the charger's retiring, the 24" retreat of horse with no winner
# ======================================================================

BACK_WHYS = ("fall_back", "retire", "retreat")
ANGLE_TOL = 1.0  # degrees: the trace's facings are given to a tenth


def back_column_rate(t):
    """'A full column move': the column rate, else the march rate (interpretation 27), else the line's."""
    if t is None:
        return None
    return t.column if t.column is not None else t.march if t.march is not None else t.line


class BackMove:
    """One forced move back, with where everything stood when it was made."""

    __slots__ = ("e", "unit", "side", "kind", "type", "enemy", "when", "facing0", "body0", "frm", "to",
                 "enemy_c0", "enemy_c", "enemy_body", "body1", "others", "tracked_from", "reshaped")


def _state_of(prev):
    return {n: [list(u.poly), u.facing, u.side, u] for n, u in units(prev).items()}


def _apply(st, n, facing, at, after=None):
    """Unit `n` moved to `at`, facing `facing`: its body turned and carried there, or, where it
    then stands as the line after the action has it, that footprint (a router's or a unit's
    that lost a rank in the melee differs from the body it fought with)."""
    s = st.get(n)
    if s is None:
        return
    a = (after or {}).get(n)
    if a is not None and dist(centroid(a.poly), at) <= 0.05 and abs(turn(a.facing, facing)) <= ANGLE_TOL:
        s[0] = list(a.poly)
    else:
        s[0] = turned_poly(s[0], s[1], facing, tuple(at))
    s[1] = facing


def back_moves(prev, cur, b):
    """Each forced move back in the action (BackMove), the table followed event by event."""
    return _cached("back_moves", cur, lambda ln: _back_moves(prev, ln, b))


def _back_moves(prev, cur, b):
    st = _state_of(prev)
    after = units(cur)
    out = []
    m = None  # the melee the forced moves that follow belong to
    at_melee = {}
    for e in evs(cur):
        t = tag(e)
        if t == "melee":
            m = e
            cn, dn = b.name(e.get("charger")), b.name(e.get("defender"))
            went = e.get("went")
            if went and cn in st:
                _apply(st, cn, went[1], went[0])
            f = e.get("fought")
            if f:
                for n, side in ((cn, f[0]), (dn, f[1])):
                    if n in st and side.get("body"):
                        st[n][0] = [tuple(p) for p in side["body"]]
                        st[n][1] = side.get("facing", st[n][1])
            at_melee = {n: (list(st[n][0]), st[n][1]) for n in (cn, dn) if n in st}
        elif t == "called_off":
            m = None
        elif t == "forced":
            n = b.name(e.get("unit"))
            if e.get("why") in BACK_WHYS and m is not None and n in st:
                cn, dn = b.name(m.get("charger")), b.name(m.get("defender"))
                en = dn if n == cn else cn if n == dn else None
                x = BackMove()
                x.e, x.unit = e, n
                x.side, x.type = st[n][2], st[n][3].type
                x.kind = st[n][3].kind
                x.enemy = en
                x.when = ("retire (both passed)" if e.get("why") == "retire" else
                          "retreat (horse, no winner)" if e.get("why") == "retreat" else
                          "falls back after the melee" if m.get("fought") else "falls back: failed its test to stand")
                body0, f0 = at_melee.get(n, (list(st[n][0]), st[n][1]))
                x.facing0 = f0
                x.body0 = list(st[n][0])
                x.tracked_from = centroid(st[n][0])
                x.frm, x.to = tuple(e["from"]), tuple(e["to"])
                if en is not None and en in at_melee:
                    x.enemy_c0 = centroid(at_melee[en][0])
                elif en in st:
                    x.enemy_c0 = centroid(st[en][0])
                else:
                    x.enemy_c0 = None
                x.enemy_c = centroid(st[en][0]) if en in st else x.enemy_c0
                x.enemy_body = list(st[en][0]) if en in st else (at_melee[en][0] if en in at_melee else None)
                _apply(st, n, e.get("facing", st[n][1]), e["to"], after)
                x.body1 = list(st[n][0])
                # losses in the melee may leave the body smaller than it fought (a rank gone): the
                # trace's 'from' is then the centre of the body as it fought
                f1 = e.get("facing", x.facing0)
                x.reshaped = any(abs(p - q) > 0.05 for p, q in zip(extent(x.body1, f1), extent(x.body0, x.facing0)))
                x.others = {k: (list(v[0]), v[2]) for k, v in st.items() if k != n}
                out.append(x)
                continue
            if n in st and e.get("to") is not None:
                _apply(st, n, e.get("facing", st[n][1]), e["to"], after)
        elif t == "moved":
            n = b.name(e.get("unit"))
            if n in st and e.get("to") is not None:
                _apply(st, n, e.get("facing", st[n][1]), e["to"], after)
        elif t == "removed":
            st.pop(b.name(e.get("unit")), None)
    return out


def back_case(x):
    """'front' (the enemy's centre ahead of the line of the unit's front as it fought: straight
    back, facing kept), 'flank' (turn to face the enemy, straight away from its centre) or 'edge'
    (within 0.05" of that line: either). (Interpretation 52 as amended the same day: at first the
    enemy's centre under 90 degrees off its facing, which left a march column charged along its
    side in contact.)"""
    if x.enemy_c0 is None:
        return None, None
    to_enemy = heading_to(x.frm, x.enemy_c0)
    fv = (math.sin(math.radians(x.facing0)), math.cos(math.radians(x.facing0)))
    front = max(px * fv[0] + py * fv[1] for px, py in x.body0)
    ahead = x.enemy_c0[0] * fv[0] + x.enemy_c0[1] * fv[1] - front
    if abs(ahead) <= 0.05:
        return "edge", to_enemy
    return ("front" if ahead > 0 else "flank"), to_enemy


def _room_to_turn(b, x, facing, at):
    body = turned_poly(x.body0, x.facing0, facing, at)
    w, d = b.table.get("width"), b.table.get("depth")
    if w and d and any(not (-1e-6 <= px <= w + 1e-6 and -1e-6 <= py <= d + 1e-6) for px, py in body):
        return False
    if any(overlap_depth(body, footprint_points({"shape": "polygon", "points": t["points"]})) > 1e-6
           for t in b.closed_terrain(kinds={"impassable"})):
        return False
    return not any(polygons_overlap(body, o, eps=1e-6) for o, _ in x.others.values())


def clear_way(b, start, body, heading, upto, others, side, step=0.05, strict=True):
    """How far `body` (standing at `start`) could go along `heading`, up to `upto`, before it goes
    deeper into impassable ground or a friend (more than 0.001"), over the table's edge, or nearer
    an enemy while within 0.6" of it (the 0.5" contact gap, interpretation 31, and the engine's
    margin: it stops some units passing an enemy 0.51"-0.56" away): walked in `step`s. `others`:
    {unit: (body, side)}. Not `strict`: the most it might go, with a margin the other way (an
    enemy within 0.45", 0.05" into a friend or impassable ground)."""
    imp = [footprint_points({"shape": "polygon", "points": t["points"]}) for t in b.closed_terrain(kinds={"impassable"})]
    w, d = b.table.get("width"), b.table.get("depth")
    hv = heading_vec(heading)
    near = [(n, o, s_) for n, (o, s_) in others.items() if polygon_distance(body, o) < upto + 1.0]
    last = None
    k = 0
    while True:
        dd = min(k * step, upto)
        moved = [(p[0] + hv[0] * dd, p[1] + hv[1] * dd) for p in body]
        now = {}
        if w and d:
            now["edge"] = max(0.0, max(max(-px, px - w, -py, py - d) for px, py in moved))
        for i, p in enumerate(imp):
            now[("imp", i)] = overlap_depth(moved, p)
        for n, o, s_ in near:
            now[n] = overlap_depth(moved, o) if s_ == side else -polygon_distance(moved, o)
        if last is not None:
            for key, v in now.items():
                enemy = key in others and others[key][1] != side
                lim = (-0.6 if strict else -0.45) if enemy else (0.001 if strict else 0.05)
                # strict: an enemy kept alongside within 0.6" stops it too
                if v > lim and v > last.get(key, -math.inf) + (-1e-6 if enemy and strict else 1e-6):
                    return max(0.0, dd - step)
        if dd >= upto:
            return upto
        last = now
        k += 1


class BackToRear(Check):
    """Interpretation 52. A unit that faces its enemy (the enemy's centre, as they met, less than
    90 degrees off its facing before the move) goes straight back opposite its facing and keeps its
    facing; one taken in flank or rear turns to face the enemy and goes straight away from its
    centre. A unit with no room to turn where it stood or where it stopped (a body, impassable
    ground, the table's edge) keeps its facing (interpretation 27; counted)."""
    name = "a move back after a melee or a failed test to stand (fall back, retire, 24\" retreat) goes to the unit's rear: facing its enemy, straight back with its facing kept; taken in flank or rear, turned to face the enemy and straight away from its centre"
    clause = "Melee Chart E: Units that go shaken in melee retire a full column move to rear facing enemy; Procedure 3), 5); Cavalry: both sides retreat 24\" (interpretation 52)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for x in back_moves(prev, cur, self.b):
            e = x.e
            case, to_enemy = back_case(x)
            if case is None:
                self.tally["no enemy to measure from"] += 1
                continue
            self.checked()
            if dist(x.tracked_from, x.frm) > 0.1:
                self.tally["the move's 'from' is not where the unit stood (tracking)"] += 1
            if x.enemy_c is not None and dist(x.enemy_c, x.enemy_c0) > 0.05:
                now = heading_to(x.frm, x.enemy_c)
                self.tally[f"{x.when}: the enemy had moved since the melee; measured from where they met"
                           f"{'' if (abs(turn(x.facing0, now)) < 90) == (case == 'front') else ' (where it stands now would give the other case)'}"] += 1
            h, f1 = e.get("heading", 0.0), e.get("facing", 0.0)
            straight = abs(turn(h, x.facing0 + 180.0)) <= ANGLE_TOL and abs(turn(f1, x.facing0)) <= ANGLE_TOL
            turned = abs(turn(f1, to_enemy)) <= ANGLE_TOL and abs(turn(h, to_enemy + 180.0)) <= ANGLE_TOL
            what = f"{x.unit} ({x.when}, {e.get('why')}): facing {x.facing0:.1f} before, enemy {x.enemy} at {to_enemy:.1f}, " \
                   f"goes {h:.1f} and faces {f1:.1f} after"
            hemmed = abs(turn(f1, x.facing0)) <= ANGLE_TOL and abs(turn(h, to_enemy + 180.0)) <= ANGLE_TOL \
                and not _room_to_turn(self.b, x, to_enemy, x.frm) and not _room_to_turn(self.b, x, to_enemy, x.to)
            edge = " (enemy within 1 degree of 90 off)" if case == "edge" else ""
            if case in ("front", "edge") and straight:
                self.tally[f"{x.when}: facing the enemy, straight back, facing kept{edge}"] += 1
            elif case in ("flank", "edge") and turned:
                self.tally[f"{x.when}: taken in flank or rear, turned to face and straight away{edge}"] += 1
            elif case in ("flank", "edge") and hemmed:
                self.tally[f"{x.when}: taken in flank or rear, no room to turn where it stood or stopped, facing kept, straight away (interpretation 27){edge}"] += 1
            elif case == "front":
                self.violation(cur, what + ": it faced its enemy, so straight back, facing kept")
            else:
                self.violation(cur, what + ": taken in flank or rear, it should turn to face the enemy and go straight away from it")


class BackDistance(Check):
    """The distance: a full column move (the column rate, else the march rate: interpretation 27)
    for falling back and retiring, 24" for the retreat; gone in a straight line; cut short only by
    a unit in the way (its body where the move ends), the ground (rough or an obstacle: slower,
    at least a quarter of it, an eighth with an obstacle too), impassable ground or the table's
    edge, each seen where the move ends (the body turned there or not: interpretation 27): a
    friend touching (0.25"), an enemy within 1" (the contact gap is 0.5"; stops come short of
    it by up to a quarter inch or so), impassable ground within 1", the edge within 0.1"."""
    name = "a move back is a full column move (24\" retreat), cut short only by a unit in the way, the ground, impassable ground or the table's edge, each there where it stops"
    clause = "Melee Chart E: retire a full column move; Procedure 5) retire a full move; Cavalry: both sides retreat 24\"; Movement: Terrain"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())
        self.imp = [footprint_points({"shape": "polygon", "points": t["points"]})
                    for t in self.b.closed_terrain(kinds={"impassable"})]

    def line(self, prev, cur, ctx):
        for x in back_moves(prev, cur, self.b):
            e = x.e
            self.checked()
            o, done = e.get("ordered", 0.0), e.get("done", 0.0)
            want = 24.0 if e.get("why") == "retreat" else back_column_rate(x.type)
            if want is not None and abs(o - want) > EPS:
                self.violation(cur, f"{x.unit} ({x.type.name if x.type else '?'}) {e.get('why')} ordered {o}\": the text gives {want}\"")
            if abs(dist(x.frm, x.to) - done) > EPS:
                self.violation(cur, f"{x.unit}'s {e.get('why')} goes {dist(x.frm, x.to):.2f}\" from 'from' to 'to' but reports {done:.2f}\"")
            if done > o + EPS:
                self.violation(cur, f"{x.unit}'s {e.get('why')} goes {done:.2f}\", more than {o}\"")
            if done >= o - EPS:
                self.tally[f"{e.get('why')}: full{' (over ground, no slowing)' if e.get('terrain') else ''}"] += 1
                continue
            stop = e.get("stopped") or ""
            # a unit with no room to turn where it stood goes unturned and turns where it stops
            # (interpretation 27): the body it moved with
            f1 = e.get("facing", x.facing0)
            moving = f1
            if abs(turn(f1, x.facing0)) > ANGLE_TOL and not _room_to_turn(self.b, x, f1, x.frm):
                moving = x.facing0
            # the body it moved with: as it fought (a rank lost in the melee is taken off where it stops)
            at_end = turned_poly(x.body0, x.facing0, moving, x.to)
            ends = (x.body1, at_end)
            if stop and e.get("heading") is not None:
                if not x.reshaped:
                    room = clear_way(self.b, x.frm, turned_poly(x.body0, x.facing0, moving, x.frm), e["heading"], o,
                                     x.others, x.side, strict=False)
                    if done > room + 0.1:
                        self.violation(cur, f"{x.unit}'s {e.get('why')} goes {done:.2f}\" but its body had room for only {room:.2f}\" on that line")
                else:
                    self.tally[f"{e.get('why')}: its body changed size in the melee (a rank lost): the way from where it stood not walked"] += 1
                beyond = min(clear_way(self.b, x.to, body, e["heading"], o - done, x.others, x.side)
                             for body in ((at_end, turned_poly(x.body1, f1, moving, x.to)) if x.reshaped else (at_end,)))
                if not e.get("terrain"):
                    self.tally[f"{e.get('why')}: stopped ('{'a unit' if stop.endswith(' in the way') else stop}') with room for "
                               f"{'under 0.1' if beyond < 0.1 else 'under 0.5' if beyond < 0.5 else '0.5 or more'}\" more"] += 1
                    if beyond >= 0.5:
                        self.violation(cur, f"{x.unit}'s {e.get('why')} stops after {done:.2f}\" of {o}\" ('{stop}'), "
                                            f"but its body had room for {beyond:.2f}\" more on that line")
            if stop.endswith(" in the way"):
                who = stop[:-len(" in the way")]
                ob = x.others.get(who)
                if ob is None:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} is stopped by '{who}', not on the table")
                    continue
                gap = min(polygon_distance(body, ob[0]) for body in ends)
                friend = ob[1] == x.side
                self.tally[f"{e.get('why')}: cut short by a {'friend' if friend else 'enemy'} in the way"
                           f"{' (and slowed by ground)' if e.get('terrain') else ''}"] += 1
                if gap > (1.0 if not friend else 0.25):
                    self.violation(cur, f"{x.unit}'s {e.get('why')} stops {done:.2f}\" of {o}\", 'stopped by {who} in the way', "
                                        f"but ends {gap:.2f}\" from it")
            elif stop == "the table's edge":
                w, d = self.b.table.get("width"), self.b.table.get("depth")
                m = min(min(min(px, w - px, py, d - py) for px, py in body) for body in ends)
                self.tally[f"{e.get('why')}: cut short by the table's edge"] += 1
                if m > 0.1:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} stops at the table's edge but ends {m:.2f}\" from it")
            elif stop == "impassable ground":
                g = min((polygon_distance(body, p) for p in self.imp for body in ends), default=math.inf)
                self.tally[f"{e.get('why')}: cut short by impassable ground"] += 1
                if g > 1.0:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} stops at impassable ground but ends {g:.2f}\" from it")
            elif stop:
                self.tally[f"{e.get('why')}: cut short by {stop}"] += 1
            elif e.get("terrain"):
                self.tally[f"{e.get('why')}: cut short by the ground ({'; '.join(e.get('terrain'))})"] += 1
                if done < o / 8 - EPS:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} goes {done:.2f}\" of {o}\" for the ground: more than very rough and an obstacle")
            else:
                self.violation(cur, f"{x.unit}'s {e.get('why')} goes {done:.2f}\" of {o}\" with nothing said to stop it")


class BackNotNearer(Check):
    """Never nearer the enemy it fell back from (its centre, as they met and where it stands when
    the move is made), never ending in contact with any enemy (touching)."""
    name = "a move back never ends nearer the enemy it fell back from, nor in contact with any enemy"
    clause = "Melee Chart E: retire ... to rear facing enemy; forced moves stop the contact gap short (interpretations 25, 52)"

    def start(self, ctx, first):
        self.b = battle(ctx, first)
        self.tally = getattr(self, "tally", Counter())

    def line(self, prev, cur, ctx):
        for x in back_moves(prev, cur, self.b):
            e = x.e
            self.checked()
            for label, c in (("as they met", x.enemy_c0), ("where it stands now", x.enemy_c)):
                if c is None:
                    continue
                d0, d1 = dist(x.frm, c), dist(x.to, c)
                if d1 < d0 - EPS:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} ends {d0 - d1:.2f}\" nearer {x.enemy}'s centre ({label}): "
                                        f"{d0:.2f}\" -> {d1:.2f}\"")
                    break
            if x.enemy_body is not None:
                g0, g1 = polygon_distance(x.body0, x.enemy_body), polygon_distance(x.body1, x.enemy_body)
                if g1 < g0 - EPS:
                    self.violation(cur, f"{x.unit}'s {e.get('why')} ends nearer {x.enemy}'s body: {g0:.2f}\" -> {g1:.2f}\"")
            for k, (poly, side) in x.others.items():
                if side == x.side:
                    continue
                g = polygon_distance(x.body1, poly)
                if g <= 0.01:
                    was = polygon_distance(x.body0, poly)
                    if e.get("done", 0.0) <= EPS and was <= 0.01:
                        self.tally[f"{e.get('why')}: did not move at all ({e.get('stopped')}), still touching {'its enemy' if k == x.enemy else 'another enemy'}"] += 1
                        self.violation(cur, f"{x.unit}'s {e.get('why')} goes nowhere ({e.get('stopped')}) and it stays in contact with {k}")
                    else:
                        self.violation(cur, f"{x.unit}'s {e.get('why')} ({e.get('done', 0):.2f}\") ends in contact with {k} "
                                            f"({'its enemy in the melee' if k == x.enemy else 'another enemy'}; {was:.2f}\" before)")
                elif g < 0.5 - EPS:
                    self.tally[f"{e.get('why')}: ends within the 0.5\" contact gap of an enemy, not touching"] += 1


class CountBack(Count):
    name = "count: moves back (fall back, retire, retreat): straight back or turned first, full or cut short and by what"
    clause = "Melee Chart E: retire a full column move to rear facing enemy (interpretation 52)"

    def line(self, prev, cur, ctx):
        for x in back_moves(prev, cur, self.b):
            e = x.e
            case, to_enemy = back_case(x)
            h, f1 = e.get("heading", 0.0), e.get("facing", 0.0)
            if abs(turn(h, x.facing0 + 180.0)) <= ANGLE_TOL and abs(turn(f1, x.facing0)) <= ANGLE_TOL:
                how = "straight back"
            elif case is not None and abs(turn(f1, to_enemy)) <= ANGLE_TOL:
                how = "turned first"
            elif case is not None and abs(turn(f1, x.facing0)) <= ANGLE_TOL and abs(turn(h, to_enemy + 180.0)) <= ANGLE_TOL:
                how = "facing kept, straight away from the enemy's centre (no room to turn: interpretation 27)"
            else:
                how = "other"
            self.add(f"{e.get('why')}: {how}")
            o, done = e.get("ordered", 0.0), e.get("done", 0.0)
            stop = e.get("stopped") or ""
            if done >= o - EPS:
                short = "full"
            elif stop.endswith(" in the way"):
                ob = x.others.get(stop[:-len(" in the way")])
                short = "cut short by " + ("a friend" if ob and ob[1] == x.side else "an enemy") + " in the way"
            else:
                short = "cut short by " + (stop or "the ground")
            self.tally[f"{e.get('why')}: {short}"] += 1


def _fill_examples(self, ctx, last):
    self.examples = [f"{v:>7}  {k}" for k, v in sorted(self.tally.items(), key=lambda kv: kv[0])]


Count.end = _fill_examples


CHECKS = [
    # turn sequence
    InitiativeRoll, ChoiceOfFirst, PhaseOrder,
    # movement
    MoveWithinAllowance, MoveAllowanceFromText, FormationOrFacing, TerrainCost, NotIntoImpassable, RoutMove,
    Frontage, FormationInTable,
    # firing
    FireRange, FiringFrontRank, FireArc, FireDice, FireChart, FireFlank, ArtilleryFire, OneVolley, FireTest,
    # morale
    MoraleArithmetic, MoraleChart, MoraleDiceCount, CoverClaim, SecureFlanksClaim, TestOutcome, RallyFromRout,
    LastStands, ShakenRestore, RallyByLeader,
    # melee
    ChargeDeclaration, MeleeSequence, CounterCharge, MeleeDice, MeleeChart, MeleeFlank, MeleeContact, MeleeOutcome,
    PostMeleeShaken, CavalryPursuit, ShakenInMeleeRetires, OneRound, BackToRear, BackDistance, BackNotNearer,
    # reserve moves, officers, bodies
    ReserveMove, OfficerFate, OfficerDieOnlyAttached, ArmyCommanderDeath, WoundedOfficer, NoOverlap, DiceDrawn,
    MeleeAgreesWithTests,
    # counts
    SecureFlanksByLetter, CountContactAtTurnEnd, CountRemovals, CountForcedShort, CountFlanks, CountHitsFigures,
    CountInitiative, CountZeroHitTests, CountRallies, CountRoutingActs, CountFireAtCover, CountBack,
]


def summary(checks, out=sys.stdout):
    """Print every check's tally (the counts, and the tallies some checks keep beside their verdict)."""
    for c in checks:
        t = getattr(c, "tally", None)
        if t:
            print(f"\n  {c.name} [{c.clause}]", file=out)
            for k, v in sorted(t.items()):
                print(f"    {v:>7}  {k}", file=out)
