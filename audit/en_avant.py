"""En Avant (Jim Wallman, One Brain Cell diceless Napoleonic system, 2003): checks of the rule
text's clauses over battle traces.

Written from the rule text (/work/shared/rules/en-avant.txt) and the trace format
(docs/trace.md) only. Where the text is unclear, a check holds what every sensible reading agrees
on and leaves the rest to a count (`keep = 0`, never a violation). Standard library only.

The trace: a whole turn is one action (the second side's `done`); its events carry facts
(`fire`, `move`, `withdrawal`, `run`, `assault`, `pursuit`, `rally`, `reordered`, `manoeuvre`,
`second_line`, `returned`) in the order they happened. `Battle` below rebuilds each turn from the
line before it (where everything stood when the turn began) and the line after it, and every
check looks at one turn at a time.
"""

import math
import re

from common import (Check, dist, heading_to, heading_vec, overlap_depth, point_in_polygon,
                    polygon_distance, polygons_overlap, turn)

# ----- the text's numbers -----

WORDS = {6: "pugnacious", 5: "determined", 4: "steady", 3: "nervous", 2: "wavering",
         1: "frightened", 0: "running"}

INFANTRY_KINDS = {"battalion", "light battalion", "rifle company"}

# "Movement": centimetres a turn, by kind and formation (the formation as the label names it).
MOVE = {
    ("infantry", "line"): 20, ("infantry", "assault column"): 25, ("infantry", "march column"): 25,
    ("infantry", "square"): 0,
    ("cavalry", "line"): 40, ("cavalry", "column"): 50,
    ("battery", "deployed"): 0, ("battery", "limbered"): 25,
    ("horse battery", "deployed"): 0, ("horse battery", "limbered"): 50,
}
HQ_MOVE = 60

# "Formations": turns to complete, from -> into (the manoeuvre facts' names).
FORMATION_TURNS = {
    ("march_column", "line"): 3, ("assault_column", "line"): 2,
    ("line", "march_column"): 3, ("line", "assault_column"): 2,
    ("assault_column", "square"): 1, ("march_column", "square"): 1, ("line", "square"): 1,
    ("cavalry_column", "cavalry_line"): 2, ("cavalry_line", "cavalry_column"): 2,
    ("deployed", "limbered"): 1, ("limbered", "deployed"): 1,
}
LINE_ABOUT_FACE = 2

# "Firing": each row's cells for (firer 6/5/4 or 3/2/1, dense or loose target). A cell is a
# set of readings (the canister row's loose cell for a 6/5/4 firer is unclear: one level or two).
# A reading is (who is hit: "any", "eq" target of equal or lower status, "lt" of lower status, or
# "none"; levels).
ANY2, ANY1, EQ1, LT1, NONE = ("any", 2), ("any", 1), ("eq", 1), ("lt", 1), ("none", 0)
FIRE_TABLE = {
    "first_line_volley": {("hi", "dense"): {ANY2}, ("hi", "loose"): {ANY1},
                          ("lo", "dense"): {EQ1}, ("lo", "loose"): {EQ1}},
    "later_line_volley": {("hi", "dense"): {EQ1}, ("hi", "loose"): {LT1},
                          ("lo", "dense"): {LT1}, ("lo", "loose"): {LT1}},
    "later_other_volley": {("hi", "dense"): {LT1}, ("hi", "loose"): {LT1},
                           ("lo", "dense"): {LT1}, ("lo", "loose"): {NONE}},
    "canister": {("hi", "dense"): {ANY2}, ("hi", "loose"): {ANY1, ANY2},
                 ("lo", "dense"): {ANY1}, ("lo", "loose"): {ANY1}},
    "ball": {("hi", "dense"): {EQ1}, ("hi", "loose"): {EQ1},
             ("lo", "dense"): {LT1}, ("lo", "loose"): {NONE}},
    "rifles": {("hi", "dense"): {EQ1}, ("hi", "loose"): {EQ1},
               ("lo", "dense"): {LT1}, ("lo", "loose"): {NONE}},
}
FIRE_FLOOR = {"ball": 1, "rifles": 2}  # notes 1 and 2
VOLLEY_ROWS = {"first_line_volley", "later_line_volley", "later_other_volley"}
MUSKET_ROWS = VOLLEY_ROWS | {"rifles"}
FIRE_RANGE = {"first_line_volley": (0, 10), "later_line_volley": (0, 10),
              "later_other_volley": (0, 10), "rifles": (0, 10), "canister": (0, 25),
              "ball": (25, 100)}

# "Close assault": step one's modifiers (words as the trace gives them) and their values.
STEP_ONE = {
    "attacking on the flank": 1, "attacking on rear of enemy": 2, "outnumbering": 1,
    "cavalry vs infantry square": -2, "cavalry vs infantry not in square": 2,
    "infantry defending a major defensive feature": 1, "senior officer personally involved": 1,
    "infantry fired their muskets last turn": -1, "infantry vs infantry in square": (1, -1),
    "DISORDERED": -1, "infantry forming square the same turn as a cavalry attack": -1,
}
STEP_TWO = {"attacking on the flank": 1, "attacking on rear": 2,
            "cavalry line vs cavalry column": 1,
            "infantry defending a major defensive feature": 1}

# The results table: (arm, band) -> winner (next, status change), loser (withdraw cm, change).
RESULTS = {
    ("cavalry", "5-6"): (("pursue", -1), (10, -2)),
    ("cavalry", "3-4"): (("pursue", 0), (25, -2)),
    ("cavalry", "1-2"): (("pursue", 0), (50, -2)),
    ("infantry", "5-6"): (("may_pursue", -1), (5, -1)),
    ("infantry", "3-4"): (("pursue", 0), (10, -1)),
    ("infantry", "1-2"): (("pursue", 0), (15, -1)),
}

DEFENSIVE = {"town", "redoubt", "building", "wall", "fieldworks", "field defences"}

EPS = 0.05      # cm: rounding in the trace
TOUCH = 0.5     # cm: bodies this close are in contact


def band(s):
    return "5-6" if s >= 5 else ("3-4" if s >= 3 else "1-2")


def fire_drop(row, firer, target, density):
    """The set of levels the table allows `target` to drop (before the notes' floors)."""
    cell = FIRE_TABLE[row][("hi" if firer >= 4 else "lo", density)]
    out = set()
    for who, n in cell:
        if who == "any" or (who == "eq" and target <= firer) or (who == "lt" and target < firer):
            out.add(n)
        else:
            out.add(0)
    return out


def fire_results(row, firer, target, density, compared=None):
    """The statuses the target may end at. `compared`: the target's status the table compares
    with the firer's, if not `target` (fire in one phase is simultaneous on one reading)."""
    out = set()
    for n in fire_drop(row, firer, target if compared is None else compared, density):
        to = max(0, target - n)
        floor = FIRE_FLOOR.get(row)
        if floor is not None and to < floor:
            to = min(target, floor)
        out.add(to)
    return out


# ----- reading pieces -----

LABEL_RE = re.compile(r"^\s*\(([^,()]+), ([^()]+)\): (.*)$")


class Unit:
    """A unit as a line's piece shows it."""

    def __init__(self, p):
        self.name = p["unit"]
        self.side = p["side"]
        self.arm = p.get("arm")
        self.word = p.get("status")
        self.facing = p.get("facing", 0.0)
        c = {x["kind"]: x["n"] for x in p.get("counters", [])}
        self.n = c.get("status")
        self.lines = {1: c.get("first line", self.n)}
        if "second line" in c:
            self.lines[2] = c["second line"]
        self.line_dis = {1: c.get("first line disordered"), 2: c.get("second line disordered")}
        fp = p.get("footprint") or {}
        self.poly = [tuple(q) for q in fp.get("points", [])] if fp.get("shape") == "polygon" else []
        lab = p.get("label", "")
        rest = lab[len(self.name):] if lab.startswith(self.name) else lab
        m = LABEL_RE.match(rest)
        self.kind, self.formation, tail = (m.group(1), m.group(2), m.group(3)) if m else ("?", "?", "")
        self.parts = [x.strip() for x in tail.split(", ")]
        self.disordered = "DISORDERED" in self.parts
        self.changing = any(x.startswith(("forming ", "turning to face", "facing about"))
                            for x in self.parts)

    @property
    def move_class(self):
        return "infantry" if self.kind in INFANTRY_KINDS else (
            "cavalry" if self.arm == "cavalry" else self.kind)

    @property
    def allowance(self):
        return MOVE.get((self.move_class, self.formation))

    @property
    def fact_formation(self):
        """The formation in the manoeuvre facts' words."""
        f = self.formation.replace(" ", "_")
        if self.arm == "cavalry":
            return "cavalry_" + f
        return f


def units(line):
    return {p["unit"]: Unit(p) for p in line.get("pieces", [])}


def body_poly(b):
    return [tuple(c) for c in b["corners"]]


def frame(poly, facing):
    """(front centre, forward unit vector, right unit vector, width, depth) of a body."""
    fl, fr, br, bl = poly[:4]
    fc = ((fl[0] + fr[0]) / 2, (fl[1] + fr[1]) / 2)
    u = heading_vec(facing)
    r = heading_vec(facing + 90.0)
    return fc, u, r, dist(fl, fr), dist(fr, br)


def local(p, fr):
    fc, u, r, _, _ = fr
    dx, dy = p[0] - fc[0], p[1] - fc[1]
    return dx * u[0] + dy * u[1], dx * r[0] + dy * r[1]


def rotate(poly, c, deg):
    a = math.radians(deg)
    ca, sa = math.cos(a), math.sin(a)
    # clockwise by deg (headings run clockwise from north)
    return [(c[0] + (x - c[0]) * ca + (y - c[1]) * sa, c[1] - (x - c[0]) * sa + (y - c[1]) * ca)
            for x, y in poly]


def centroid(poly):
    return (sum(p[0] for p in poly) / len(poly), sum(p[1] for p in poly) / len(poly))


def hull(points):
    pts = sorted(set(points))
    if len(pts) <= 2:
        return pts

    def cross(o, a, b):
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lo, hi = [], []
    for p in pts:
        while len(lo) >= 2 and cross(lo[-2], lo[-1], p) <= 0:
            lo.pop()
        lo.append(p)
    for p in reversed(pts):
        while len(hi) >= 2 and cross(hi[-2], hi[-1], p) <= 0:
            hi.pop()
        hi.append(p)
    return lo[:-1] + hi[:-1]


def gap(a, b):
    return polygon_distance(a, b) if a and b else math.inf


def room_to_face(t, i, n, poly, facing, new_facing, facing_enemy=None):
    """Whether unit `n`'s body `poly` (facing `facing`) has room, just before event `i`, to turn
    about its centre to `new_facing`: the turned body on the table, on no other body, and no
    nearer another enemy than the 5 cm stand-off unless it stood so near already and comes no
    nearer (the register's interpretations 24 and 34); `facing_enemy`, the enemy it turns to face
    (a loser its winner), only not touched (interpretation 35)."""
    turned = rotate(poly, centroid(poly), turn(facing, new_facing))
    w, d = t.battle.size
    if w and d and any(x < -EPS or x > w + EPS or y < -EPS or y > d + EPS for x, y in turned):
        return False
    enemies = set(t.enemies(n))
    for m, q in t.bodies_at(i).items():
        if m == n or not q:
            continue
        if polygons_overlap(turned, q):
            return False
        if m == facing_enemy:
            if gap(turned, q) <= 0.1:
                return False
        elif m in enemies:
            g0, g1 = gap(poly, q), gap(turned, q)
            if g1 < 5.0 - EPS and g1 < g0 - EPS:
                return False
    return True


def deviation(facing, h):
    """How far heading h is from the axis of `facing` (forward or backward), in degrees."""
    d = abs(turn(facing, h))
    return min(d, 180.0 - d)


# ----- a battle, turn by turn -----


class Turn:
    """One turn: the line before it, the line after it, its facts in order, its orders."""

    def __init__(self, battle, t, prev, cur, cards, rides, seconds):
        self.battle = battle
        self.t = t
        self.prev, self.cur = prev, cur
        self.n = cur.get("n")
        self.start = units(prev)
        self.end = units(cur)
        self.cards = cards          # unit -> order (the card given this turn)
        self.rides = rides          # side -> unit the commander was sent to
        self.seconds = seconds      # cavalry units whose second line was given a choice
        self.facts = []
        self.told = []
        for i, e in enumerate(cur.get("events", [])):
            d = e.get("data") or {}
            if d.get("kind") == "explained" and d.get("fact"):
                f = dict(d["fact"])
                f["_i"] = i
                f["_text"] = d.get("text", "")
                self.facts.append(f)
            elif d.get("kind") == "told":
                self.told.append((i, d.get("text", "")))
        self.fired_before = set(battle.fired)
        self.previous = battle.turns[-1] if battle.turns else None
        self._bodies = None

    # facts
    def of(self, kind):
        return [f for f in self.facts if f["fact"] == kind]

    def moves_of(self, unit):
        return [f for f in self.facts if f["fact"] in ("move", "withdrawal", "run")
                and f.get("unit") == unit]

    def fires_by(self, unit, defence=None):
        return [f for f in self.of("fire") if f["firer"] == unit
                and (defence is None or f["in_defence"] == defence)]

    def assaults_of(self, unit):
        return [a for a in self.of("assault") if a["defender"] == unit
                or any(x["unit"] == unit for x in a["attackers"])]

    def manoeuvres_of(self, unit):
        return [f for f in self.of("manoeuvre") if f["unit"] == unit]

    # where everything stood
    def status_at(self, unit, i, line=1):
        """A unit's status (one line) just before event i, replaying the facts' changes."""
        u = self.start.get(unit)
        s = u.lines.get(line) if u else None
        for f in self.facts:
            if f["_i"] >= i:
                break
            for who, lines in changes(f):
                if who == unit and s is not None:
                    for x in lines:
                        if x.get("line", 1) == line:
                            s = x["to"]
        return s

    def acting_at(self, unit, i):
        """The status a unit acts on just before event i: a cavalry regiment in line acts on its
        two lines' average rounded down (as the trace's `status` counter does), else line 1."""
        s1 = self.status_at(unit, i, 1)
        u = self.start.get(unit)
        if u is not None and u.arm == "cavalry" and 2 in u.lines and \
                self.formation_at(unit, i) == "cavalry_line":
            s2 = self.status_at(unit, i, 2)
            if s1 is not None and s2 is not None:
                return (s1 + s2) // 2
        return s1

    def disordered_at(self, unit, i):
        """(disordered, sure): the unit's order state just before event i. `sure` is False when
        the facts do not settle it."""
        u = self.start.get(unit)
        if u is None:
            return None, False
        d = u.disordered
        for f in self.facts:
            if f["_i"] >= i:
                break
            k = f["fact"]
            if k == "fire" and f["target"] == unit and f.get("disordered"):
                d = True
            elif k == "manoeuvre" and f["unit"] == unit and f["stage"] == "begun":
                d = True
            elif k == "assault" and any(a["unit"] == unit for a in f["attackers"]):
                d = True
            elif k == "assault" and f["defender"] == unit and any(a["closed"] for a in f["attackers"]):
                # A failed attack (step one) disorders its attackers only; step two, everyone.
                d = True
            elif k == "second_line" and f["unit"] == unit and not f.get("follows_up"):
                # the combined lines take the second line's order state
                d2 = u.line_dis.get(2)
                if d2 is None:
                    return d, False
                d = bool(d2)
        return d, True

    def formation_at(self, unit, i):
        u = self.start.get(unit)
        if u is None:
            return None
        form = u.fact_formation
        for f in self.facts:
            if f["_i"] >= i:
                break
            if f["fact"] == "manoeuvre" and f["unit"] == unit and f["stage"] == "done":
                form = f["formation"]
        return form

    def bodies(self):
        """[(event index, {unit: polygon} just before it)], replaying the facts' bodies."""
        if self._bodies is None:
            cur = {n: u.poly for n, u in self.start.items() if u.poly}
            snaps = []
            for f in self.facts:
                snaps.append((f["_i"], dict(cur)))
                k = f["fact"]
                if k in ("move", "withdrawal", "run") and f.get("to"):
                    cur[f["unit"]] = body_poly(f["to"])
                    if f.get("off_the_field") or f.get("rule") == "off_the_field":
                        cur.pop(f["unit"], None)     # gone from the table
                elif k in ("manoeuvre", "returned") and f.get("body"):
                    cur[f["unit"]] = body_poly(f["body"])
                elif k == "pursuit" and f.get("outcome") in ("carried_off", "followed_off"):
                    cur.pop(f["unit"], None)
                    cur.pop(f["target"], None)
                elif k == "assault":
                    for r in f.get("results") or []:
                        if r["next"].get("next") == "destroyed":
                            cur.pop(r["unit"], None)
            snaps.append((10 ** 9, dict(cur)))
            self._bodies = snaps
        return self._bodies

    def bodies_at(self, i):
        last = None
        for j, b in self.bodies():
            if j >= i:
                return b
            last = b
        return last

    def side_of(self, unit):
        return self.battle.side.get(unit)

    def enemies(self, unit):
        s = self.side_of(unit)
        return [n for n, side in self.battle.side.items() if side is not None and side != s]

    def commander_with(self, side):
        """The unit the side's commander was with during the turn: where he was sent this turn
        (he rides first), else where he stood when it began."""
        if side in self.rides:
            return self.rides[side]
        for m in self.prev.get("markers", []):
            if m.get("kind") == "commander" and m.get("side") == side:
                return m.get("unit")
        return None


def changes(f):
    """[(unit, lines)] a fact changes the status of."""
    k = f["fact"]
    if k == "fire":
        return [(f["target"], f.get("lines") or [])]
    if k == "assault":
        return [(r["unit"], r.get("lines") or []) for r in f.get("results") or []]
    if k in ("rally", "second_line"):
        return [(f["unit"], f.get("lines") or [])]
    if k == "withdrawal" and f.get("rule") == "caught":
        # the engine breaks a unit caught touching the enemy; the trace gives no lines: take it
        # to 0 on every line so that what follows can be checked (CaughtBreaks counts these)
        return [(f["unit"], [{"line": 1, "from": None, "to": 0}, {"line": 2, "from": None, "to": 0}])]
    return []


class Battle:
    """The battle being read, shared by every check (kept on the checks' context)."""

    def __init__(self, first):
        self.first = first
        self.names = [p["unit"] for p in first.get("pieces", [])]
        self.side = {p["unit"]: p["side"] for p in first.get("pieces", [])}
        self.arm = {p["unit"]: p.get("arm") for p in first.get("pieces", [])}
        self.terrain = (first.get("table") or {}).get("terrain", [])
        self.size = ((first.get("table") or {}).get("width"), (first.get("table") or {}).get("depth"))
        self.hq = {m.get("side"): tuple(m["at"]) for m in first.get("markers", [])
                   if m.get("kind") == "headquarters"}
        self.turns = []
        self.fired = set()
        self._cards, self._rides, self._seconds = {}, {}, set()
        self._last = None
        self._turn = None

    def name(self, i):
        return self.names[i] if isinstance(i, int) and 0 <= i < len(self.names) else i

    def feed(self, prev, cur):
        if self._last is cur:
            return self._turn
        self._last = cur
        self._turn = None
        a = cur.get("action")
        kind = a.get("kind") if isinstance(a, dict) else a
        if kind == "order":
            self._cards[self.name(a.get("unit"))] = a.get("order") or {}
        elif kind == "ride":
            self._rides[(cur.get("by") or {}).get("side")] = self.name(a.get("unit"))
        elif kind == "second_line":
            self._seconds.add(self.name(a.get("unit")))
        if kind == "done" and (cur.get("events") or cur.get("outcome")
                               or cur.get("turn") != prev.get("turn")):
            t = Turn(self, prev.get("turn"), prev, cur, self._cards, self._rides, self._seconds)
            self._cards, self._rides, self._seconds = {}, {}, set()
            for f in t.of("fire"):
                if f["row"] in VOLLEY_ROWS:
                    self.fired.add(f["firer"])
            self.turns.append(t)
            self._turn = t
        return self._turn


class EACheck(Check):
    """A check that looks at one turn at a time."""

    def start(self, ctx, first):
        if getattr(ctx, "_en_avant", None) is None or ctx._en_avant.first is not first:
            ctx._en_avant = Battle(first)
        self.begin(ctx._en_avant)

    def line(self, prev, cur, ctx):
        b = getattr(ctx, "_en_avant", None)
        if b is None:
            b = ctx._en_avant = Battle(prev)
            self.begin(b)
        t = b.feed(prev, cur)
        if t is not None:
            self.turn(t, b)

    def begin(self, battle):
        pass

    def turn(self, t, battle):
        pass

    def bad(self, t, what):
        self.violation(t.cur, f"turn {t.t}: {what}")


class Count(EACheck):
    """A count, reported, never a violation."""
    keep = 0


# =====================================================================================
# Unit status
# =====================================================================================


class StatusWords(EACheck):
    name = "status word, number and lines agree"
    clause = ("Unit Status: the seven states 6 Pugnacious ... 0 Running away; Cavalry "
              "formations: each sub-division has its own status label")

    def turn(self, t, b):
        for u in t.end.values():
            self.checked()
            if u.n is None or not 0 <= u.n <= 6 or WORDS.get(u.n) != u.word:
                self.bad(t, f"{u.name}: status {u.word!r} with number {u.n}")
                if u.n is None:
                    continue
            for ln, s in u.lines.items():
                if s is not None and not 0 <= s <= 6:
                    self.bad(t, f"{u.name}: line {ln} at {s}")
            if u.arm == "cavalry" and 2 in u.lines:
                if u.formation == "column" and u.n != u.lines[1]:
                    self.bad(t, f"{u.name} in column acts on {u.n}, its first line is {u.lines[1]}")
                if u.formation == "line" and u.n != (u.lines[1] + u.lines[2]) // 2:
                    self.bad(t, f"{u.name} in line acts on {u.n}, its lines are "
                                f"{u.lines[1]} and {u.lines[2]}")


class StatusAccounted(EACheck):
    name = "every status change comes from fire, melee, rally or the second line"
    clause = ("Unit Status: 'All the combat rules affect this status'; Firing; Close Assault "
              "results; Status Recovery; Cavalry Second Lines")

    def turn(self, t, b):
        cur = {n: dict(u.lines) for n, u in t.start.items()}
        for f in t.facts:
            for who, lines in changes(f):
                for x in lines:
                    ln = x.get("line", 1)
                    have = cur.get(who, {}).get(ln)
                    if x["from"] is None:
                        if have is not None:
                            cur[who][ln] = x["to"]
                        continue
                    self.checked()
                    if have is not None and x["from"] != have:
                        self.bad(t, f"{f['fact']} says {who} line {ln} was {x['from']}, "
                                    f"it stood at {have}")
                    cur.setdefault(who, {})[ln] = x["to"]
        for n, u in t.end.items():
            if n not in t.start:
                continue
            for ln, s in u.lines.items():
                self.checked()
                want = cur.get(n, {}).get(ln)
                if want is not None and s != want:
                    self.bad(t, f"{n} line {ln} ends the turn at {s}; the turn's facts leave "
                                f"it at {want} (from {t.start[n].lines.get(ln)})")


# =====================================================================================
# Firing
# =====================================================================================


class FireResult(EACheck):
    name = "fire result as the firing table and its notes give it"
    clause = ("Firing table (rows, firer 6/5/4 or 3/2/1, dense or loose target); note 1 ball "
              "not below Frightened; note 2 rifles not below Wavering")

    def turn(self, t, b):
        for f in t.of("fire"):
            if f["row"] not in FIRE_TABLE:
                self.checked()
                self.bad(t, f"{f['firer']} fires on an unknown row {f['row']!r}")
                continue
            tu = t.start.get(f["target"])
            for x in f.get("lines") or []:
                self.checked()
                ok = fire_results(f["row"], f["firer_status"], x["from"], f["density"])
                s0 = tu.lines.get(x.get("line", 1)) if tu else None
                if s0 is not None and not f["in_defence"]:
                    # fire in one phase taken as simultaneous: compared at the phase's start
                    ok |= fire_results(f["row"], f["firer_status"], x["from"], f["density"], s0)
                if x["to"] not in ok:
                    self.bad(t, f"{f['firer']} ({f['firer_status']}) {f['row']} at {f['target']} "
                                f"line {x.get('line', 1)} ({f['density']}, {x['from']}): "
                                f"-> {x['to']}, the table gives {sorted(ok)}")


class FireRange(EACheck):
    name = "fire within its row's range"
    clause = ("Firing table: line volleys and rifles 10 cm, canister up to 25 cm, ball over 25 "
              "up to 100 cm; range measured again from the bodies")

    def turn(self, t, b):
        for f in t.of("fire"):
            lo, hi = FIRE_RANGE.get(f["row"], (0, math.inf))
            self.checked()
            r = f["range"]
            if r > hi + EPS or (lo and r <= lo - EPS):
                self.bad(t, f"{f['firer']} {f['row']} at {f['target']} from {r:.1f} cm "
                            f"(row {lo}-{hi} cm)")
            if not f["in_defence"]:
                bodies = t.bodies_at(f["_i"])
                a, c = bodies.get(f["firer"]), bodies.get(f["target"])
                if a and c:
                    self.checked()
                    g = polygon_distance(a, c)
                    if abs(g - r) > 0.5:
                        self.bad(t, f"{f['firer']} at {f['target']}: range given {r:.1f} cm, "
                                    f"the bodies stand {g:.1f} cm apart")


class FireRow(EACheck):
    name = "fire on the row the firer's kind, formation, order and first volley give"
    clause = ("Firing table rows: first volley from line; subsequent from line or first from "
              "column, square or disordered line; subsequent from those; canister up to 25 cm, "
              "ball beyond; British rifle company")

    def begin(self, b):
        self.fired = set()

    def turn(self, t, b):
        for f in t.of("fire"):
            u = t.start.get(f["firer"])
            if u is None:
                continue
            self.checked()
            row = f["row"]
            s = t.acting_at(f["firer"], f["_i"])
            if s is not None and f["firer_status"] != s and \
                    (f["in_defence"] or f["firer_status"] != u.n):
                self.bad(t, f"{f['firer']} fires as {f['firer_status']}, it stood at {s}"
                            f" (and at {u.n} when the turn began)")
            if u.kind == "rifle company":
                want = {"rifles"}
            elif u.kind in ("battery", "horse battery"):
                want = {"canister"} if f["range"] <= 25 + 1e-6 else {"ball"}
            elif u.kind in INFANTRY_KINDS:
                dis, sure = t.disordered_at(f["firer"], f["_i"])
                form = t.formation_at(f["firer"], f["_i"])
                first = f["firer"] not in self.fired
                good_line = form == "line" and not dis
                changing = any(m["stage"] == "begun" and m["_i"] < f["_i"]
                               for m in t.manoeuvres_of(f["firer"])) or u.changing
                if changing:
                    want = VOLLEY_ROWS
                elif first:
                    want = {"first_line_volley"} if good_line else {"later_line_volley"}
                else:
                    want = {"later_line_volley"} if good_line else {"later_other_volley"}
            else:
                want = set()
            if row not in want:
                self.bad(t, f"{f['firer']} ({u.kind}, {u.formation}, "
                            f"{'disordered' if t.disordered_at(f['firer'], f['_i'])[0] else 'ordered'}"
                            f", {'has fired before' if f['firer'] in self.fired else 'first volley'}"
                            f") fires {row}; the table gives {sorted(want) or 'no fire'}")
            if row in VOLLEY_ROWS:
                self.fired.add(f["firer"])


class TargetDensity(EACheck):
    name = "target dense or loose as the text lists"
    clause = ("Target Density: dense = all cavalry, infantry square, attack column, march "
              "column, limbered artillery; loose = infantry line, light infantry, artillery")

    def turn(self, t, b):
        for f in t.of("fire"):
            u = t.start.get(f["target"])
            if u is None:
                continue
            form = t.formation_at(f["target"], f["_i"])
            if u.arm == "cavalry" or form in ("square", "march_column", "limbered"):
                want = "dense"
            elif form == "assault_column":
                if u.kind == "light battalion":
                    continue  # unclear: attack column (dense) or light infantry (loose)
                want = "dense"
            elif form in ("line", "deployed"):
                want = "loose"
            else:
                continue
            self.checked()
            if f["density"] != want:
                self.bad(t, f"{f['target']} ({u.kind}, {form}) fired at as {f['density']}, "
                            f"the text makes it {want}")


class WhoFires(EACheck):
    name = "only infantry, rifles and artillery fire, and not when running away"
    clause = ("Firing table rows (infantry volleys, artillery, British rifle company); "
              "0 Running away - leaving the battlefield as fast as possible")

    def turn(self, t, b):
        for f in t.of("fire"):
            u = t.start.get(f["firer"])
            self.checked()
            if u is None:
                self.bad(t, f"{f['firer']} fires from off the table")
                continue
            if u.arm == "cavalry":
                self.bad(t, f"cavalry {f['firer']} fires")
            if f["firer_status"] == 0:
                self.bad(t, f"{f['firer']} fires while running away")
            if f["target"] not in t.start or t.side_of(f["target"]) == u.side:
                self.bad(t, f"{f['firer']} fires at {f['target']}, no enemy on the table")


# =====================================================================================
# Movement and manoeuvres
# =====================================================================================

CARD_MOVES = ("advance", "withdraw", "charge", "follow_up", "pursue")


class MoveAllowance(EACheck):
    name = "moves within the movement table's distance"
    clause = ("Movement: infantry line 20, column 25, square no move; cavalry line 40, column "
              "50; artillery deployed no move, limbered 25, horse artillery limbered 50")

    def turn(self, t, b):
        used = {}
        for f in t.of("move"):
            u = t.start.get(f["unit"])
            if u is None:
                continue
            allow = u.allowance
            self.checked()
            if allow is None:
                continue
            straight = dist(f["from"]["at"], f["to"]["at"])
            if f["done"] > f["ordered"] + EPS:
                self.bad(t, f"{f['unit']} {f['what']}: {f['done']:.1f} cm done of {f['ordered']:.1f}")
            if straight > f["done"] + 0.1:
                self.bad(t, f"{f['unit']} {f['what']}: said {f['done']:.1f} cm, "
                            f"went {straight:.1f} cm")
            if allow == 0 and f["done"] > EPS:
                self.bad(t, f"{f['unit']} ({u.kind}, {u.formation}) {f['what']}s "
                            f"{f['done']:.1f} cm: the table says no move")
            used[f["unit"]] = used.get(f["unit"], 0.0) + max(f["done"], straight)
            if used[f["unit"]] > allow + 0.1 and allow > 0:
                self.bad(t, f"{f['unit']} ({u.kind}, {u.formation}) moves {used[f['unit']]:.1f} cm "
                            f"this turn, its move is {allow} cm")


class MoveStraight(EACheck):
    name = "advances and withdrawals go straight forward or back on the facing"
    clause = ("Manoeuvres: 'units can only move directly forward (or backward) on their current "
              "facing' (small variation allowed when closing to combat)")

    def turn(self, t, b):
        for f in t.of("move"):
            if f["what"] not in ("advance", "withdraw"):
                continue
            a, z = f["from"], f["to"]
            d = dist(a["at"], z["at"])
            self.checked()
            if abs(turn(a["facing"], z["facing"])) > 1.0:
                self.bad(t, f"{f['unit']} {f['what']}s and turns from {a['facing']:.0f} to "
                            f"{z['facing']:.0f} degrees")
            if d > 0.5:
                h = heading_to(a["at"], z["at"])
                want = a["facing"] if f["what"] == "advance" else a["facing"] + 180.0
                if abs(turn(want, h)) > 5.0:
                    self.bad(t, f"{f['unit']} {f['what']}s on a heading of {h:.0f}, facing "
                                f"{a['facing']:.0f}")


class CloseVariation(EACheck):
    name = "a charge or pursuit turns or drifts at most 45 degrees off its facing"
    clause = ("Manoeuvres: 'game control may allow small variation, for example when closing to "
              "combat' (45 degrees is no small variation on any reading)")

    def turn(self, t, b):
        for f in t.of("move"):
            if f["what"] not in ("charge", "pursue", "follow_up"):
                continue
            a, z = f["from"], f["to"]
            self.checked()
            tw = abs(turn(a["facing"], z["facing"]))
            d = dist(a["at"], z["at"])
            dev = abs(turn(a["facing"], heading_to(a["at"], z["at"]))) if d > 0.5 else 0.0
            dev2 = abs(turn(z["facing"], heading_to(a["at"], z["at"]))) if d > 0.5 else 0.0
            # The register's interpretation 39: a pursuit (the results table's, superseding
            # orders) turns as far as it must to face its loser, then closes as a charge does,
            # its path within 45 degrees of its new facing. A charge is held to 45 both ways.
            if f["what"] == "pursue":
                bad = dev2 > 45.0
            else:
                bad = tw > 45.0 or dev > 45.0
            if bad:
                self.bad(t, f"{f['unit']} {f['what']} at {f['target']}: facing {a['facing']:.0f} "
                            f"-> {z['facing']:.0f} (turned {tw:.0f}), moved {d:.1f} cm on a "
                            f"heading {dev:.0f} degrees off its first facing, {dev2:.0f} off its "
                            f"last")


class CloseVariationSmall(Count):
    name = "count: charges and pursuits more than 10 degrees off their facing (turned or drifted)"
    clause = "Manoeuvres: small variation when closing to combat"

    def turn(self, t, b):
        for f in t.of("move"):
            if f["what"] in ("charge", "pursue", "follow_up"):
                a, z = f["from"], f["to"]
                d = dist(a["at"], z["at"])
                dev = abs(turn(a["facing"], heading_to(a["at"], z["at"]))) if d > 0.5 else 0.0
                if max(dev, abs(turn(a["facing"], z["facing"]))) > 10.0:
                    self.checked()


class ManoeuvreInsteadOfMove(EACheck):
    name = "no move while changing formation or facing"
    clause = ("Manoeuvres: 'All manoeuvres must be conducted instead of movement (i.e. while the "
              "unit is stationary)'")

    def turn(self, t, b):
        busy = {}
        for n, u in t.start.items():
            if u.changing:   # the label: forming ..., turning to face ..., facing about
                busy[n] = "a change begun earlier"
        for m in t.of("manoeuvre"):
            if m["stage"] == "begun":
                busy[m["unit"]] = f"its change to {m['formation']} begun this turn"
        for n, why in busy.items():
            self.checked()
            for f in t.of("move"):
                if f["unit"] == n and f["what"] in CARD_MOVES and f["done"] > EPS:
                    self.bad(t, f"{n} {f['what']}s {f['done']:.1f} cm during {why}")


class ChangeDropped(Count):
    name = "count: changes of formation or facing that vanish without a 'done' or 'given_up' fact"
    clause = "Formations (the trace: a change's stages)"

    def begin(self, b):
        self.open = set()

    def turn(self, t, b):
        for n in list(self.open):
            u = t.start.get(n)
            if u is not None and not u.changing:
                self.checked()
            self.open.discard(n)
        for m in t.of("manoeuvre"):
            if m["stage"] == "begun":
                self.open.add(m["unit"])
        for m in t.of("manoeuvre"):
            if m["stage"] in ("done", "given_up"):
                self.open.discard(m["unit"])
        for n in list(self.open):
            if n not in t.end:
                self.open.discard(n)


class FormationTimes(EACheck):
    name = "formation changes take the table's turns"
    clause = ("Formations: the table of turns to complete (march column -> line 3, assault "
              "column -> line 2, line -> march column 3, line -> assault column 2, line about "
              "face 2, -> square 1, cavalry 2, artillery 1)")

    def begin(self, b):
        self.open = {}

    def turn(self, t, b):
        for m in t.of("manoeuvre"):
            n = m["unit"]
            if m["stage"] == "begun":
                u = t.start.get(n)
                frm = u.fact_formation if u else None
                if m.get("facing") is not None:
                    key = "about" if u and abs(abs(turn(u.facing, m["facing"])) - 180) < 1 else None
                    want = LINE_ABOUT_FACE if key == "about" and frm == "line" else None
                else:
                    want = FORMATION_TURNS.get((frm, m["formation"]))
                self.open[n] = (t.t, m["turns"])
                if want is not None:
                    self.checked()
                    if m["turns"] != want:
                        what = "about face" if m.get("facing") is not None else m["formation"]
                        self.bad(t, f"{n} {frm} -> {what} takes {m['turns']} turn(s), the "
                                    f"table says {want}")
            elif m["stage"] == "done":
                if n in self.open:
                    t0, k = self.open.pop(n)
                    self.checked()
                    if t.t != t0 + k - 1:
                        self.bad(t, f"{n}: a {k}-turn change begun in turn {t0} done in turn {t.t}")
            else:
                self.open.pop(n, None)


class UnlistedChanges(Count):
    name = "count: changes the formation table does not list (square -> other, turns, ...)"
    clause = "Formations: 'here are illustrative times'"

    def turn(self, t, b):
        for m in t.of("manoeuvre"):
            if m["stage"] != "begun":
                continue
            u = t.start.get(m["unit"])
            frm = u.fact_formation if u else None
            if m.get("facing") is not None:
                if not (frm == "line" and u and abs(abs(turn(u.facing, m["facing"])) - 180) < 1):
                    self.checked()
            elif (frm, m["formation"]) not in FORMATION_TURNS:
                self.checked()


# =====================================================================================
# Status behaviour
# =====================================================================================


def obligations(prev_turn):
    """unit -> what the results table made it do in the turn after `prev_turn`."""
    out = {}
    if prev_turn is None:
        return out
    for a in prev_turn.of("assault"):
        for r in a.get("results") or []:
            out[r["unit"]] = r["next"]
    return out


class Pugnacious(EACheck):
    name = "a Pugnacious unit that can move closes with the nearest enemy"
    clause = "Unit Status 6: 'if possible MUST try and close with the nearest enemy'"

    def turn(self, t, b):
        owed = obligations(t.previous)
        # The status it moves on: at the turn's first move, or (no move this turn) before the
        # recovery phase's rallies.
        first_move = min([f["_i"] for f in t.facts if f["fact"] in ("move", "withdrawal", "run")]
                         + [f["_i"] for f in t.facts if f["fact"] in ("rally", "reordered", "returned")]
                         + [10 ** 9])
        for n, u in t.start.items():
            if u.allowance in (None, 0) or n in owed or u.arm == "artillery":
                continue
            if t.status_at(n, first_move) != 6:
                continue
            if any(m["stage"] == "begun" for m in t.manoeuvres_of(n)) or u.changing:
                continue
            en = [(gap(u.poly, t.start[e].poly), e) for e in t.enemies(n) if e in t.start]
            if not en:
                continue
            near = min(en)[0]
            if near <= TOUCH:
                continue
            nearest = {e for g, e in en if g <= near + EPS}
            if not any(ahead(u, t.start[e]) for e in nearest):
                continue  # it would have to turn first: counted apart
            if not any(chargeable(u, t.start[e]) for e in nearest):
                continue  # "if possible": no face it can close with going forward (interpretation 16)
            # "If possible": the register's reading (interpretations 16, 17) is a charge it can
            # make from where it stands; another body between it and the enemy (the ground the
            # two bodies span) makes it impossible.
            others = [q.poly for m, q in t.start.items() if m != n and m not in nearest and q.poly]
            if all(any(polygons_overlap(hull(u.poly + t.start[e].poly), q) for q in others)
                   for e in nearest):
                continue
            self.checked()
            mv = [f for f in t.of("move") if f["unit"] == n and f["what"] in ("charge", "pursue")]
            if not mv:
                card = (t.cards.get(n) or {}).get("card")
                self.bad(t, f"{n} is Pugnacious, {near:.1f} cm from {sorted(nearest)}, and does not "
                            f"charge (card {card})")
            elif not any(f["target"] in nearest for f in mv):
                self.bad(t, f"{n} is Pugnacious and charges {mv[0]['target']}, not the nearest "
                            f"enemy {sorted(nearest)} ({near:.1f} cm)")


def chargeable(u, e):
    """Whether u can charge e from where it stands as the register's interpretation 16 reads
    "directly forward ... small variation when closing": some face of e turned towards u that u
    meets square after turning at most 45 degrees, its front centre's way to the nearest point of
    that face within 45 degrees of both its old and its new facing."""
    if len(u.poly) < 4 or len(e.poly) < 3:
        return False
    fc = frame(u.poly, u.facing)[0]
    c = centroid(e.poly)
    k = len(e.poly)
    for i in range(k):
        a, z = e.poly[i], e.poly[(i + 1) % k]
        mid = ((a[0] + z[0]) / 2, (a[1] + z[1]) / 2)
        out = heading_to(c, mid)                 # the face's outward direction
        if abs(turn(out, heading_to(mid, fc))) >= 90.0:
            continue                             # not turned towards u
        need = (out + 180.0) % 360.0             # facing that meets it square
        if abs(turn(u.facing, need)) > 45.0 + 1e-6:
            continue
        dx, dy = z[0] - a[0], z[1] - a[1]
        ll = dx * dx + dy * dy
        s_ = 0.0 if ll == 0 else max(0.0, min(1.0, ((fc[0] - a[0]) * dx + (fc[1] - a[1]) * dy) / ll))
        hit = (a[0] + s_ * dx, a[1] + s_ * dy)
        if dist(fc, hit) <= 1e-6:
            return True
        way = heading_to(fc, hit)
        if abs(turn(need, way)) <= 45.0 + 1e-6 and abs(turn(u.facing, way)) <= 45.0 + 1e-6:
            return True
    return False


def ahead(u, e):
    """Whether enemy e's body lies at least partly ahead of u's front edge, within 45 degrees
    either side of u's facing (so that moving forward closes with it)."""
    if len(u.poly) < 4 or len(e.poly) < 3:
        return False
    fr = frame(u.poly, u.facing)
    for p in e.poly + [centroid(e.poly)]:
        fwd, lat = local(p, fr)
        if fwd > 0 and abs(lat) <= fwd + fr[3] / 2:
            return True
    return False


class PugnaciousNotAhead(Count):
    name = ("count: Pugnacious units (not artillery) whose nearest enemy was not ahead and that "
            "did not close (they would have to turn first)")
    clause = "Unit Status 6: 'if possible MUST try and close with the nearest enemy'"

    def turn(self, t, b):
        owed = obligations(t.previous)
        for n, u in t.start.items():
            if u.allowance in (None, 0) or n in owed or u.arm == "artillery" or u.n != 6:
                continue
            en = [(gap(u.poly, t.start[e].poly), e) for e in t.enemies(n) if e in t.start]
            if not en or min(en)[0] <= TOUCH:
                continue
            near = min(en)[0]
            nearest = {e for g, e in en if g <= near + 1.0}
            if any(ahead(u, t.start[e]) for e in nearest):
                continue
            if not [f for f in t.of("move") if f["unit"] == n and f["what"] in ("charge", "pursue")]:
                self.checked()


class PugnaciousManoeuvring(Count):
    name = "count: Pugnacious units that changed formation or facing instead of closing"
    clause = "Unit Status 6 against Manoeuvres"

    def turn(self, t, b):
        for n, u in t.start.items():
            if u.n == 6 and (any(m["stage"] == "begun" for m in t.manoeuvres_of(n)) or u.changing):
                self.checked()


class WaveringNotCloser(EACheck):
    name = "a Wavering unit does not move closer to the enemy"
    clause = "Unit Status 2: 'Will not move closer to the enemy'"

    def turn(self, t, b):
        for f in t.of("move"):
            n = f["unit"]
            if t.status_at(n, f["_i"]) != 2 or f["done"] <= EPS:
                continue
            if f["what"] == "pursue":
                continue  # the results table orders it; counted apart
            # Fire in its own defence (interpretation 11) that brought it to Wavering as it moved
            # halts it there: the move it made before is told after the fire.
            mid = [g for g in t.of("fire") if g["target"] == n and g["in_defence"] and g["_i"] < f["_i"]
                   and any(x["from"] > 2 for x in g.get("lines") or [])]
            if mid:
                continue
            bodies = t.bodies_at(f["_i"])
            en = [bodies[e] for e in t.enemies(n) if e in bodies]
            if not en:
                continue
            self.checked()
            a, z = body_poly(f["from"]), body_poly(f["to"])
            before = min(gap(a, e) for e in en)
            after = min(gap(z, e) for e in en)
            if f["what"] in ("charge", "advance", "follow_up") and after < before - 0.1:
                self.bad(t, f"{n} is Wavering and {f['what']}s {f['done']:.1f} cm: nearest enemy "
                            f"{before:.1f} -> {after:.1f} cm")


class WaveringWithdrawsCloser(Count):
    name = "count: Wavering units whose withdrawal brought them closer to some other enemy"
    clause = "Unit Status 2: 'Will not move closer to the enemy'"

    def turn(self, t, b):
        for f in t.of("move"):
            n = f["unit"]
            if f["what"] != "withdraw" or t.status_at(n, f["_i"]) != 2 or f["done"] <= EPS:
                continue
            bodies = t.bodies_at(f["_i"])
            en = [bodies[e] for e in t.enemies(n) if e in bodies]
            if en and min(gap(body_poly(f["to"]), e) for e in en) < \
                    min(gap(body_poly(f["from"]), e) for e in en) - 0.1:
                self.checked()


class WaveringPursues(Count):
    name = "count: Wavering or Frightened winners that pursued (the results table orders it)"
    clause = "Unit Status 2 against the results table's 'Pursue enemy'"

    def turn(self, t, b):
        for f in t.of("move"):
            if f["what"] == "pursue" and (t.status_at(f["unit"], f["_i"]) or 9) <= 2:
                self.checked()


class NervousFires(EACheck):
    name = "a Nervous unit with an enemy in its range fires and stops"
    clause = "Unit Status 3: 'Will always stop and fire if the opportunity presents'"

    def turn(self, t, b):
        fire_i = min([f["_i"] for f in t.facts if f["fact"] in ("move", "withdrawal", "run")]
                     + [10 ** 9])
        owed = obligations(t.previous)
        for n, u in t.start.items():
            if u.n != 3 or n in owed or t.status_at(n, fire_i) != 3:
                continue
            if u.changing or any(m["stage"] == "begun" for m in t.manoeuvres_of(n)):
                continue  # changing formation: whether it may fire too is not said
            if u.kind == "rifle company" or (u.kind in INFANTRY_KINDS):
                rng = 10
            elif u.formation == "deployed":
                rng = 100
            else:
                continue
            en = [e for e in t.enemies(n) if e in t.start and gap(u.poly, t.start[e].poly) <= rng
                  and ahead(u, t.start[e])]
            if not en:
                continue  # (an enemy in range but off to a side or behind: not counted)
            self.checked()
            if not t.fires_by(n):
                self.bad(t, f"{n} is Nervous with {sorted(en)} within {rng} cm and does not fire")
            for f in t.of("move"):
                if f["unit"] == n and f["what"] in ("advance", "charge") and f["done"] > EPS:
                    self.bad(t, f"{n} is Nervous with {sorted(en)} within {rng} cm and "
                                f"{f['what']}s {f['done']:.1f} cm instead of stopping")


# =====================================================================================
# Close assault
# =====================================================================================


def direction_of(att_body, def_body):
    """'front', 'flank', 'rear' where the attacker's front centre clearly lies, else None."""
    dp = body_poly(def_body)
    fr = frame(dp, def_body["facing"])
    _, _, _, w, dpt = fr
    fwd, lat = local(tuple(att_body["at"]), fr)
    inside = abs(lat) < w / 2 - 0.5
    if fwd >= -0.5 and inside:
        return "front"
    if fwd <= -dpt + 0.5 and inside:
        return "rear"
    if abs(lat) >= w / 2 - 0.5 and -dpt + 0.5 < fwd < -0.5:
        return "flank"
    return None


class AssaultContact(EACheck):
    name = "an assault is fought in base to base contact"
    clause = ("Close Assault step one: 'In order for units to get into base to base contact ...'; "
              "step two 'If the attack actually reaches the enemy unit'")

    def turn(self, t, b):
        for a in t.of("assault"):
            d = body_poly(a["body"])
            for x in a["attackers"]:
                self.checked()
                g = gap(body_poly(x["body"]), d)
                if g > TOUCH or (x.get("gap") or 0) > TOUCH:
                    self.bad(t, f"{x['unit']} assaults {a['defender']} from {g:.1f} cm "
                                f"(gap given {x.get('gap')})")
                dep = overlap_depth(body_poly(x["body"]), d)
                if dep > 0.1:
                    self.bad(t, f"{x['unit']} stands {dep:.1f} cm inside {a['defender']}")
                if t.side_of(x["unit"]) == t.side_of(a["defender"]):
                    self.bad(t, f"{x['unit']} assaults its own side's {a['defender']}")


class ChargeResolved(EACheck):
    name = "a charge that reaches its enemy is resolved as a close assault"
    clause = ("Close Assault step one ('In order for units to get into base to base contact ...'), "
              "step two ('If the attack actually reaches the enemy unit ...')")

    def turn(self, t, b):
        for f in t.of("move"):
            st = f.get("stop") or {}
            if st.get("cause") != "contact" or not f.get("target"):
                continue
            u, v = f["unit"], f["target"]
            self.checked()
            pair = False
            for a in t.of("assault"):
                if a["_i"] < f["_i"]:
                    continue
                for x in a["attackers"]:
                    if (x["unit"], a["defender"]) in ((u, v), (v, u)):
                        pair = True
            if pair:
                continue
            later = [g for g in t.facts if g["_i"] > f["_i"] and g.get("unit") in (u, v)
                     and g["fact"] in ("move", "withdrawal", "run")
                     and g.get("done", 0) > EPS]
            gone = v not in t.end or u not in t.end
            if later or gone:
                continue  # one of them moved on (counted apart)
            self.bad(t, f"{u}'s {f['what']} reaches {v}, and no close assault between them follows")


class ContactBrokenOff(Count):
    name = "count: charges that reached their enemy, who then moved off before any melee (drew off)"
    clause = "Close Assault (the text has no evading a charge)"

    def turn(self, t, b):
        for f in t.of("move"):
            st = f.get("stop") or {}
            if st.get("cause") != "contact" or not f.get("target"):
                continue
            u, v = f["unit"], f["target"]
            fought = any((x["unit"], a["defender"]) in ((u, v), (v, u))
                         for a in t.of("assault") for x in a["attackers"])
            moved = [g for g in t.facts if g["_i"] > f["_i"] and g.get("unit") == v
                     and g["fact"] in ("move", "withdrawal", "run") and g.get("done", 0) > EPS]
            if moved and not fought:
                self.checked()


class DefenceFire(EACheck):
    name = "fire in its own defence only at a unit moving that turn"
    clause = ("Firing: 'where a move brings the unit through the range of a unit, then that unit "
              "always has the opportunity to open fire in its own defence'")

    def turn(self, t, b):
        for f in t.of("fire"):
            if not f["in_defence"]:
                continue
            self.checked()
            if not [g for g in t.moves_of(f["target"]) if g.get("done", 0) > EPS]:
                self.bad(t, f"{f['firer']} fires in its own defence at {f['target']}, which does "
                            f"not move this turn")


class AssaultDirection(EACheck):
    name = "front, flank or rear as the bodies stand"
    clause = "Close Assault: 'Attacking on the flank +1', 'Attacking on rear of enemy +2'"

    def turn(self, t, b):
        for a in t.of("assault"):
            if t.formation_at(a["defender"], a["_i"]) == "square":
                continue  # a square has no flank or rear to speak of
            for x in a["attackers"]:
                want = direction_of(x["body"], a["body"])
                if want is None or changed_before(t, a, x):
                    continue
                self.checked()
                if x["direction"] != want:
                    fr = frame(body_poly(a["body"]), a["body"]["facing"])
                    fwd, lat = local(tuple(x["body"]["at"]), fr)
                    self.bad(t, f"{x['unit']} on {a['defender']}: called {x['direction']}, but its "
                                f"front centre stands {fwd:.1f} cm ahead of and {lat:.1f} cm "
                                f"beside {a['defender']}'s front centre (its {want})")


def changed_before(t, a, x):
    """Whether the defender or attacker finished a change of formation or facing in this turn
    before the assault was resolved (after contact, on the trace's order)."""
    return any(m["stage"] == "done" and m["_i"] < a["_i"]
               for n in (a["defender"], x["unit"]) for m in t.manoeuvres_of(n))


class AssaultDirectionAfterChange(Count):
    name = ("count: assaults whose direction disagrees with the bodies at resolution after the "
            "defender or attacker finished a change of facing or formation in contact")
    clause = "Close Assault: flank and rear"

    def turn(self, t, b):
        for a in t.of("assault"):
            if t.formation_at(a["defender"], a["_i"]) == "square":
                continue
            for x in a["attackers"]:
                want = direction_of(x["body"], a["body"])
                if want is not None and changed_before(t, a, x) and want != x["direction"]:
                    self.checked()


class StepOne(EACheck):
    name = "step one: totals, closing on equal or higher, failed attack stops at 5 cm"
    clause = ("Close Assault step one: 'If the unit's status is equal or higher to the unit "
              "facing it, then it will move forward to close'; 'the attackers must stop at 5 cm'")

    def turn(self, t, b):
        for a in t.of("assault"):
            for x in a["attackers"]:
                s1 = x.get("step_one") or []
                self.checked()
                if len(s1) != 2:
                    self.bad(t, f"{x['unit']} on {a['defender']}: no step one")
                    continue
                for who, fig in zip((x["unit"], a["defender"]), s1):
                    want = fig["status"] + sum(v for _, v in fig["modifiers"])
                    if fig["total"] != want:
                        self.bad(t, f"{who}'s step one total {fig['total']} is not {want}")
                    for w, v in fig["modifiers"]:
                        val = STEP_ONE.get(w)
                        if val is None or (v not in val if isinstance(val, tuple) else v != val):
                            self.bad(t, f"{who}'s step one modifier {w!r} {v:+d} is not the text's")
                    s = t.acting_at(who, a["_i"])
                    if s is not None and fig["status"] != s:
                        self.bad(t, f"{who} takes step one at {fig['status']}, it stood at {s}")
                closes = s1[0]["total"] >= s1[1]["total"]
                if bool(x["closed"]) != closes:
                    self.bad(t, f"{x['unit']} {s1[0]['total']} against {a['defender']} "
                                f"{s1[1]['total']}: closed = {x['closed']}")
                if not x["closed"]:
                    end = t.end.get(x["unit"])
                    dfd = t.end.get(a["defender"])
                    if end and dfd:
                        g = gap(end.poly, dfd.poly)
                        # The register's interpretation 38: it draws back as far as the ground
                        # lets it (a body close behind it), or stays where another of the turn's
                        # fights holds it.
                        held = any(y is not a and (y["defender"] == x["unit"] or any(
                            z["unit"] == x["unit"] for z in y["attackers"])) for y in t.of("assault"))
                        behind = any(m not in (x["unit"], a["defender"]) and q.poly
                                     and gap(end.poly, q.poly) < 0.6 for m, q in t.end.items())
                        if g < 5.0 - 0.6 and (held or behind):
                            pass
                        elif abs(g - 5.0) > 0.6:
                            self.bad(t, f"{x['unit']}'s attack on {a['defender']} fails; it ends "
                                        f"{g:.1f} cm away, not 5")
                    if end and not end.disordered:
                        self.bad(t, f"{x['unit']}'s attack fails and it ends the turn ordered")


class StepOneModifiers(EACheck):
    name = "step one's modifiers where the situation gives them, and not elsewhere"
    clause = ("Close Assault step one, the modifiers table (flank, rear, outnumbering, cavalry vs "
              "square / not in square, defensive feature, senior officer, fired last turn, "
              "infantry vs square, DISORDERED, forming square)")

    def turn(self, t, b):
        fired_last = set()
        if t.previous is not None:
            fired_last = {f["firer"] for f in t.previous.of("fire") if f["row"] in MUSKET_ROWS}
        fired_now = {f["firer"] for f in t.of("fire") if f["row"] in MUSKET_ROWS}
        for a in t.of("assault"):
            dfd = a["defender"]
            du = t.start.get(dfd)
            dform = t.formation_at(dfd, a["_i"])
            forming_sq = any(m["formation"] == "square" and m["stage"] == "begun"
                             for m in t.manoeuvres_of(dfd))
            if any(m["formation"] == "square" and m["stage"] == "given_up" and m["_i"] < a["_i"]
                   for m in t.manoeuvres_of(dfd)):
                forming_sq = None   # it began to form square and gave it up: unclear
            for x in a["attackers"]:
                s1 = x.get("step_one") or []
                if len(s1) != 2:
                    continue
                au = t.start.get(x["unit"])
                got = [{w for w, _ in fig["modifiers"]} for fig in s1]
                want = [dict(), dict()]  # modifier -> True (must) / False (must not); absent: unsure

                def need(k, w, v):
                    want[k][w] = v
                d = x["direction"]
                need(0, "attacking on the flank", d == "flank")
                need(0, "attacking on rear of enemy", d == "rear")
                need(0, "outnumbering", bool(a.get("outnumbering")))
                a_cav = au is not None and au.arm == "cavalry"
                a_inf = au is not None and au.kind in INFANTRY_KINDS
                d_inf = du is not None and du.kind in INFANTRY_KINDS
                if forming_sq is None:
                    pass
                elif not forming_sq:
                    need(0, "cavalry vs infantry square", a_cav and d_inf and dform == "square")
                    need(0, "cavalry vs infantry not in square",
                         a_cav and d_inf and dform != "square")
                    need(1, "infantry forming square the same turn as a cavalry attack", False)
                else:
                    need(1, "infantry forming square the same turn as a cavalry attack", a_cav)
                    if not a_cav:
                        need(0, "cavalry vs infantry square", False)
                        need(0, "cavalry vs infantry not in square", False)
                    elif au.allowance and au.poly and du.poly:
                        # Cavalry vs Forming Square: more than half a turn away, the infantry is
                        # 'in square' for the cavalry; half a turn or closer, 'not in square'
                        g = gap(au.poly, du.poly)
                        half = au.allowance / 2.0
                        if g > half + 1.0:
                            need(0, "cavalry vs infantry square", True)
                            need(0, "cavalry vs infantry not in square", False)
                        elif g < half - 1.0:
                            need(0, "cavalry vs infantry square", False)
                            need(0, "cavalry vs infantry not in square", True)
                need(0, "infantry vs infantry in square", a_inf and d_inf and dform == "square")
                for k, n in ((0, x["unit"]), (1, dfd)):
                    u = t.start.get(n)
                    side = t.side_of(n)
                    need(k, "senior officer personally involved", t.commander_with(side) == n)
                    dis, sure = t.disordered_at(n, a["_i"])
                    if sure and k == 1 and forming_sq and a_cav:
                        # Interpretation 41: "forming square" against horse takes the place of
                        # the disorder its change of formation brings; not counted twice.
                        need(k, "DISORDERED", False)
                    elif sure:
                        need(k, "DISORDERED", bool(dis))
                    inf = u is not None and u.kind in INFANTRY_KINDS
                    if n in fired_last:
                        need(k, "infantry fired their muskets last turn", inf)
                    elif n not in fired_now:
                        need(k, "infantry fired their muskets last turn", False)
                    if k == 0:
                        need(0, "infantry defending a major defensive feature", False)
                for k in (0, 1):
                    for w, v in want[k].items():
                        self.checked()
                        if v and w not in got[k]:
                            self.bad(t, f"{(x['unit'], dfd)[k]} ({'attacker' if k == 0 else 'defender'}"
                                        f", {x['unit']} on {dfd}) lacks {w!r}")
                        if not v and w in got[k]:
                            self.bad(t, f"{(x['unit'], dfd)[k]} ({'attacker' if k == 0 else 'defender'}"
                                        f", {x['unit']} on {dfd}) has {w!r} without cause")
                # the defensive feature: wholly inside a building or works, it has it; clear of
                # every feature (woods too, which may or may not count), it has not
                if du is not None and du.kind in INFANTRY_KINDS:
                    poly = body_poly(a["body"])
                    inside, touches = False, False
                    for ter in b.terrain:
                        tp = [tuple(q) for q in ter.get("points", [])]
                        if not ter.get("closed") or len(tp) < 3:
                            continue
                        defensive = ter.get("kind") in DEFENSIVE
                        if defensive and all(point_in_polygon(q, tp) for q in poly):
                            inside = True
                        if (defensive or ter.get("kind") == "woods") and polygons_overlap(poly, tp):
                            touches = True
                    w = "infantry defending a major defensive feature"
                    if inside or not touches:
                        self.checked()
                        if inside and w not in got[1]:
                            self.bad(t, f"{dfd} inside a defensive feature lacks {w!r}")
                        if not touches and w in got[1]:
                            self.bad(t, f"{dfd}, clear of every feature, has {w!r}")


class StepTwo(EACheck):
    name = "step two: only its four modifiers, highest wins, ties to the attacker, artillery loses"
    clause = ("Close Assault step two: 'the highest base status wins'; the only modifiers "
              "flank +1, rear +2, cavalry line vs column +1, defensive feature +1; 'If both end "
              "up equal, then the attacker wins'; 'Artillery closed with always lose melee'")

    def turn(self, t, b):
        for a in t.of("assault"):
            closed = [x for x in a["attackers"] if x["closed"]]
            self.checked()
            if not closed:
                if a.get("step_two") or a.get("results"):
                    self.bad(t, f"no attacker reached {a['defender']}, yet it was fought")
                continue
            s2 = a.get("step_two") or []
            if len(s2) != 2:
                self.bad(t, f"{a['defender']}: attackers reached it, no step two")
                continue
            best = next((x for x in closed if x["unit"] == a.get("best")), None)
            if best is None:
                self.bad(t, f"{a['defender']}: best attacker {a.get('best')} did not close")
                continue
            for who, fig in zip((best["unit"], a["defender"]), s2):
                if fig["total"] != fig["status"] + sum(v for _, v in fig["modifiers"]):
                    self.bad(t, f"{who}'s step two total {fig['total']} is not its sum")
                for w, v in fig["modifiers"]:
                    if STEP_TWO.get(w) != v:
                        self.bad(t, f"{who}'s step two has {w!r} {v:+d}, not one of the text's")
                if fig["status"] != (best["step_one"][0] if who == best["unit"]
                                     else best["step_one"][1])["status"]:
                    self.bad(t, f"{who}'s step two status {fig['status']} differs from step one")
            w0 = {w for w, _ in s2[0]["modifiers"]}
            w1 = {w for w, _ in s2[1]["modifiers"]}
            if ("attacking on the flank" in w0) != (best["direction"] == "flank") or \
               ("attacking on rear" in w0) != (best["direction"] == "rear"):
                self.bad(t, f"{best['unit']} attacks {a['defender']} on its {best['direction']}, "
                            f"step two gives {sorted(w0)}")
            au, du = t.start.get(best["unit"]), t.start.get(a["defender"])
            lc = "cavalry line vs cavalry column"
            if au and du:
                fa_, fd_ = t.formation_at(best["unit"], a["_i"]), t.formation_at(a["defender"], a["_i"])
                cav = au.arm == "cavalry" and du.arm == "cavalry"
                # the text lists it among step two's modifiers without saying whose: the side in
                # line against a column has it, attacking or defending
                for who, mine, theirs, ws in ((best["unit"], fa_, fd_, w0),
                                              (a["defender"], fd_, fa_, w1)):
                    want = cav and mine == "cavalry_line" and theirs == "cavalry_column"
                    if want != (lc in ws):
                        self.bad(t, f"{who} ({mine}) against {theirs}: {lc!r} "
                                    f"{'missing' if want else 'without cause'}")
            # every closed attacker's own total; the best is the highest
            tops = []
            for x in closed:
                m = x["step_one"][0]["status"]
                m += {"flank": 1, "rear": 2}.get(x["direction"], 0)
                tops.append(m)
            if s2[0]["total"] < max(tops):
                self.bad(t, f"{a['defender']}: the best attacker's {s2[0]['total']} is below "
                            f"another's {max(tops)}")
            want = s2[0]["total"] >= s2[1]["total"]
            if du and du.arm == "artillery":
                want = True
            if a.get("mutual") and s2[0]["total"] == s2[1]["total"] and not (du and du.arm == "artillery"):
                # The register's interpretation 40: two units that charged each other are both
                # attackers, and a tie names no winner: drawn (attackers_won none).
                if a["attackers_won"] is not None:
                    self.bad(t, f"{best['unit']} and {a['defender']} charged each other and tied "
                                f"{s2[0]['total']}: attackers_won = {a['attackers_won']}, not drawn")
                continue
            if a["attackers_won"] is None or bool(a["attackers_won"]) != want:
                self.bad(t, f"{best['unit']} {s2[0]['total']} against {a['defender']} "
                            f"{s2[1]['total']}: attackers_won = {a['attackers_won']}")


class MeleeResults(EACheck):
    name = "melee results as the results table gives them"
    clause = ("Close Assault results table: cavalry winner pursue (-1 at 5-6), loser withdraw "
              "10/25/50 cm -2; infantry winner at 5-6 may choose to pursue -1, else pursue; loser "
              "withdraw 5/10/15 cm -1; status 0 runs; artillery destroyed")

    def turn(self, t, b):
        for a in t.of("assault"):
            if not a.get("results"):
                continue
            if a.get("mutual") and a["attackers_won"] is None:
                # The register's interpretation 40: drawn, no status lost, no result move.
                for r in a["results"]:
                    self.checked()
                    if r["won"] or r["next"].get("next") != "drawn" or any(
                            x["to"] != x["from"] for x in r.get("lines") or []):
                        self.bad(t, f"{r['unit']}: a drawn fight gives {r['next']}, "
                                    f"won = {r['won']}, lines {r.get('lines')}")
                continue
            winners = {x["unit"] for x in a["attackers"] if x["closed"]} if a["attackers_won"] \
                else {a["defender"]}
            for r in a["results"]:
                n = r["unit"]
                u = t.start.get(n)
                self.checked()
                if bool(r["won"]) != (n in winners):
                    self.bad(t, f"{n}: won = {r['won']}")
                    continue
                if u is None:
                    continue
                nxt = r["next"]["next"]
                if u.arm == "artillery":
                    if not r["won"] and nxt != "destroyed":
                        self.bad(t, f"artillery {n} loses and is not destroyed ({nxt})")
                    if not r["won"] and n in t.end:
                        self.bad(t, f"artillery {n} loses and stays on the table")
                    continue
                arm = "cavalry" if u.arm == "cavalry" else "infantry"
                lines = r.get("lines") or []
                if not lines:
                    self.bad(t, f"{n}: no status line in its result")
                    continue
                for x in lines:
                    (_, wd), (_, ld) = RESULTS[(arm, band(x["from"]))]
                    delta = wd if r["won"] else ld
                    want = max(0, x["from"] + delta)
                    if x["to"] != want:
                        self.bad(t, f"{n} ({arm}, line {x.get('line', 1)}, {x['from']}, "
                                    f"{'won' if r['won'] else 'lost'}) -> {x['to']}, the table "
                                    f"gives {want}")
                froms = {x["from"] for x in lines}
                tos = {x["to"] for x in lines}
                if arm == "cavalry" and len(lines) == 2:
                    # two lines with their own status: which one the regiment acts on (and
                    # whether one line at 0 makes it run) is not said; any of them will do
                    froms.add((lines[0]["from"] + lines[1]["from"]) // 2)
                    tos.add((lines[0]["to"] + lines[1]["to"]) // 2)
                else:
                    froms, tos = {lines[0]["from"]}, {lines[0]["to"]}
                runs = nxt in ("runs", "runs_on")
                if tos == {0}:
                    ok, want_s = runs, "runs"
                elif r["won"]:
                    allowed = {RESULTS[(arm, band(c))][0][0] for c in froms if c > 0}
                    ok = nxt in allowed or nxt == "nobody_to_pursue" or (runs and 0 in tos)
                    want_s = " or ".join(sorted(allowed))
                else:
                    cms = {RESULTS[(arm, band(c))][1][0] for c in froms if c > 0}
                    ok = (nxt == "withdraw" and r["next"].get("cm") in cms) or (runs and 0 in tos)
                    want_s = f"withdraw {sorted(cms)} cm"
                if not ok:
                    self.bad(t, f"{n} ({arm}, {sorted(froms)}, {'won' if r['won'] else 'lost'}): "
                                f"next {r['next']}, the table gives {want_s}")


class AssaultDisorders(EACheck):
    name = "everyone in a close assault ends it DISORDERED"
    clause = ("Close Assault: 'All units involved in a close assault are automatically "
              "DISORDERED, whether win or lose'; a failed attack leaves the attackers DISORDERED")

    def turn(self, t, b):
        for a in t.of("assault"):
            who = [x["unit"] for x in a["attackers"]]
            if any(x["closed"] for x in a["attackers"]):
                who.append(a["defender"])
            for n in who:
                u = t.end.get(n)
                if u is None:
                    continue
                self.checked()
                later = [f for f in t.of("reordered") if f["unit"] == n and f["_i"] > a["_i"]]
                if not u.disordered:
                    self.bad(t, f"{n} ends the turn of its assault ordered"
                                + (" (re-ordered the same turn)" if later else ""))


# =====================================================================================
# Results of the assault in the following turn
# =====================================================================================


class ResultsNextTurn(EACheck):
    name = "results carried out the following turn, over any orders"
    clause = ("Close Assault: 'Results apply to the following turn, and supersede any orders "
              "players' might wish to issue'")

    def turn(self, t, b):
        owed = obligations(t.previous)
        for n, nxt in owed.items():
            if n not in t.start:
                continue
            k = nxt["next"]
            mine = t.moves_of(n)
            ran = [f for f in t.of("run") if f["unit"] == n]
            if k in ("withdraw", "pursue") and ran:
                # Interpretation 19: broken by fire before it moved, it runs this turn, the
                # withdrawal or pursuit it owed with it.
                self.checked()
                if (t.acting_at(n, ran[0]["_i"]) or 0) != 0:
                    self.bad(t, f"{n} runs instead of its {k} though it is not broken")
                continue
            if k == "withdraw":
                self.checked()
                w = [f for f in t.of("withdrawal") if f["unit"] == n]
                if not w:
                    self.bad(t, f"{n} was to withdraw {nxt.get('cm')} cm and does not")
                elif abs(w[0]["ordered"] - nxt.get("cm", 0)) > EPS:
                    self.bad(t, f"{n} withdraws {w[0]['ordered']} cm, the result said "
                                f"{nxt.get('cm')} cm")
            elif k in ("runs", "runs_on"):
                if t.start[n].n != 0:
                    continue  # rallied out of running away the turn it broke (counted apart)
                self.checked()
                if not [f for f in t.of("run") if f["unit"] == n]:
                    self.bad(t, f"{n} was to run away and does not")
            elif k == "pursue":
                if not ([f for f in t.of("move") if f["unit"] == n and f["what"] == "pursue"]
                        or [f for f in t.of("pursuit") if f["unit"] == n]):
                    first = min([f["_i"] for f in t.facts if f["fact"] in ("move", "withdrawal",
                                                                           "run")] + [10 ** 9])
                    if (t.acting_at(n, first) or 9) <= 2:
                        continue  # Wavering by now: 'will not move closer' (counted apart)
                    self.checked()
                    self.bad(t, f"{n} was to pursue and does not")
                else:
                    self.checked()
                    beaten = {r["unit"] for a in t.previous.of("assault")
                              for r in a.get("results") or [] if not r["won"]
                              and any(r2["unit"] == n and r2["won"] for r2 in a["results"])}
                    for g in t.of("move"):
                        if g["unit"] == n and g["what"] == "pursue" and g["target"] not in beaten:
                            self.bad(t, f"{n} pursues {g['target']}, not the enemy it beat "
                                        f"({sorted(beaten)})")
            if k in ("withdraw", "runs", "runs_on", "pursue"):
                self.checked()
                other = [f for f in mine if f["fact"] == "move" and f["what"] in
                         ("advance", "withdraw", "charge")]
                man = [m for m in t.manoeuvres_of(n) if m["stage"] == "begun"]
                if other or man:
                    what = other[0]["what"] if other else "change of formation"
                    self.bad(t, f"{n} owes a result ({k}) and carries out a card's {what}")


class ResultsLapsed(Count):
    name = ("count: results not carried out because the unit fell to Wavering first (pursuit) or "
            "was rallied out of running away the turn it broke")
    clause = "Close Assault: results apply to the following turn; Unit Status 2"

    def turn(self, t, b):
        for n, nxt in obligations(t.previous).items():
            if n not in t.start:
                continue
            k = nxt["next"]
            if k in ("runs", "runs_on") and t.start[n].n != 0:
                self.checked()
            elif k == "pursue" and not ([f for f in t.of("move") if f["unit"] == n
                                         and f["what"] == "pursue"]
                                        or [f for f in t.of("pursuit") if f["unit"] == n]):
                self.checked()


class WithdrawBackwards(EACheck):
    name = "a withdrawal is backwards, facing the enemy"
    clause = ("Close Assault: 'Withdraw is a controlled movement backwards facing the enemy'; "
              "the distance the table gives")

    def turn(self, t, b):
        for f in t.of("withdrawal"):
            a, z = f["from"], f["to"]
            pa, pz = body_poly(a), body_poly(z)
            self.checked()
            if f["done"] > f["ordered"] + EPS:
                self.bad(t, f"{f['unit']} withdraws {f['done']:.1f} of {f['ordered']:.1f} cm")
            # Measured centre to centre: a unit turning to face its winner turns about its centre.
            d = dist(centroid(pa), centroid(pz))
            if d > f["done"] + 0.1:
                self.bad(t, f"{f['unit']} said to withdraw {f['done']:.1f} cm, went {d:.1f}")
            if f["done"] < 0.5:
                continue  # it did not go anywhere (the edge, a body): nothing to see
            back = (z["facing"] + 180.0) % 360.0
            off_back = abs(turn(back, f["heading"]))
            win = t.bodies_at(f["_i"]).get(f["winner"])
            off_enemy = abs(turn(z["facing"], heading_to(centroid(pa), centroid(win)))) if win else 0.0
            if off_back <= 10.0 and off_enemy <= 45.0:
                continue
            # The register's interpretation 35: without room to turn to face its winner, where it
            # stood and anywhere on its way, it goes straight away from the winner as it stands.
            face = (f["heading"] + 180.0) % 360.0
            no_room = (f.get("turned_at") is None and abs(turn(a["facing"], z["facing"])) < 1e-6
                       and not room_to_face(t, f["_i"], f["unit"], pz, z["facing"], face,
                                            facing_enemy=f["winner"]))
            away = heading_to(centroid(win), centroid(pa)) if win else f["heading"]
            if no_room and abs(turn(away, f["heading"])) <= 10.0:
                continue
            self.bad(t, f"{f['unit']} withdraws {f['done']:.1f} cm on a heading of "
                        f"{f['heading']:.0f} facing {z['facing']:.0f}: "
                        f"{off_back:.0f} degrees off straight back, the winner "
                        f"{f['winner']} {off_enemy:.0f} degrees off its front"
                        + (" (it had room to turn to face it)" if f.get("turned_at") is None else ""))


class WithdrawOffAxis(Count):
    name = "count: withdrawals whose heading is more than 10 degrees off the unit's rear"
    clause = "Close Assault: withdraw backwards facing the enemy"

    def turn(self, t, b):
        for f in t.of("withdrawal"):
            a, z = f["from"], f["to"]
            h = f["heading"]
            if abs(turn((z["facing"] + 180.0) % 360.0, h)) > 10.0:
                self.checked()


class WithdrawCutShort(Count):
    name = "count: withdrawals cut short (edge, body, status)"
    clause = "Close Assault results: withdraw N cm"

    def turn(self, t, b):
        for f in t.of("withdrawal"):
            if f["done"] < f["ordered"] - EPS:
                self.checked()


class RunAway(EACheck):
    name = "running away: double move the first turn, normal after, facing away, every turn"
    clause = ("Close Assault: 'Units that reach run away status (0) do so at double their "
              "normal move for the first turn, then at their normal move every turn after that'; "
              "'Run away is always facing away from the enemy'")

    def begin(self, b):
        self.ran = set()

    def turn(self, t, b):
        runs = {f["unit"]: f for f in t.of("run")}
        for n, u in t.start.items():
            if u.n == 0 and n not in runs:
                self.checked()
                self.bad(t, f"{n} is running away and does not run")
        for n, f in runs.items():
            u = t.start.get(n)
            self.checked()
            if u is None:
                continue
            first = n not in self.ran
            self.ran.add(n)
            if bool(f["first_turn"]) != first:
                self.bad(t, f"{n}: first_turn = {f['first_turn']} on its "
                            f"{'first' if first else 'later'} turn of running")
            base = u.allowance
            if base:
                want = base * (2 if first else 1)
                if abs(f["ordered"] - want) > EPS:
                    self.bad(t, f"{n} ({u.kind}, {u.formation}) runs {f['ordered']} cm on its "
                                f"{'first' if first else 'later'} turn; its move is {base} cm")
            if f["done"] > f["ordered"] + EPS:
                self.bad(t, f"{n} runs {f['done']} of {f['ordered']} cm")
            z = f["to"]
            why = []
            # The register's interpretation 31: with no room to turn its back on the enemy where
            # it stood or anywhere on its way, it runs that way as it stands.
            if (f.get("turned_at") is None and abs(turn(f["from"]["facing"], z["facing"])) < 1e-6
                    and abs(turn(z["facing"], f["heading"])) > 1e-6
                    and not room_to_face(t, f["_i"], n, body_poly(z), z["facing"], f["heading"])):
                continue
            if abs(turn(z["facing"], f["heading"])) > 45.0:
                why.append(f"its facing {z['facing']:.0f} is {abs(turn(z['facing'], f['heading'])):.0f}"
                           f" degrees off its way {f['heading']:.0f}")
            bodies = t.bodies_at(f["_i"])
            en = [(gap(bodies[n], bodies[e]), e) for e in t.enemies(n) if e in bodies and n in bodies]
            if en:
                g, e = min(en)
                away = heading_to(centroid(bodies[e]), centroid(bodies[n]))
                off = abs(turn(away, z["facing"]))
                # The register's interpretation 31 weighs every enemy within its first turn's
                # run: one on each side sends it out of a flank or its rear, across the line
                # away from the nearest, so long as it gets farther from it.
                after = gap(body_poly(z), bodies[e])
                if off > 90.0 and after <= g + EPS:
                    why.append(f"it faces the nearest enemy {e} ({g:.1f} cm; away is {away:.0f})")
            if why:
                self.bad(t, f"{n} runs {f['done']:.1f} cm not facing away: " + "; ".join(why))
            if u.n == 0:
                for g in t.fires_by(n):
                    self.bad(t, f"{n}, running away since the turn began, fires at {g['target']}")
            for g in t.of("move"):
                if g["unit"] == n:
                    self.bad(t, f"{n} runs and also {g['what']}s")


class RunBlocked(Count):
    name = "count: runs cut short by another body"
    clause = "0 Running away: 'leaving the battlefield as fast as possible'"

    def turn(self, t, b):
        for f in t.of("run"):
            if f["done"] < f["ordered"] - EPS and (f.get("stop") or {}).get("cause") not in ("edge",):
                self.checked()


class CavalryPursuit(EACheck):
    name = "cavalry pursuit off the table: loser removed, winners back after 3 turns DISORDERED"
    clause = ("Close Assault: 'Cavalry will pursue an enemy off the table. The losers are removed "
              "from play. The winners are dispersed, but will rally back on their side's command "
              "group after 3 turns ... They arrive DISORDERED'")

    def begin(self, b):
        self.away = {}

    def turn(self, t, b):
        for f in t.of("pursuit"):
            if f["outcome"] not in ("carried_off", "followed_off"):
                continue
            self.checked()
            if f["target"] in t.end:
                self.bad(t, f"{f['unit']} pursues {f['target']} off the table, {f['target']} "
                            f"is still on it")
            if f["unit"] in t.end:
                self.bad(t, f"{f['unit']} pursues off the table and is still on it")
            self.away[f["unit"]] = t.t
        for f in t.of("returned"):
            n = f["unit"]
            self.checked()
            t0 = self.away.pop(n, None)
            if t0 is None:
                self.bad(t, f"{n} returns without having pursued off the table")
                continue
            late = any("no room beside their command group" in x for tt in b.turns
                       if t0 < tt.t < t.t for _, x in tt.told if x.startswith(n))
            if t.t - t0 != 3 and not (late and t.t - t0 > 3):
                self.bad(t, f"{n} pursued off in turn {t0}, returns in turn {t.t}")
            u = t.end.get(n)
            if u is None:
                self.bad(t, f"{n} returns and is not on the table")
                continue
            if not u.disordered:
                self.bad(t, f"{n} returns ordered")

    def end(self, ctx, last):
        b = getattr(ctx, "_en_avant", None)
        if b is None or not b.turns:
            return
        tl = b.turns[-1].t
        for n, t0 in self.away.items():
            if tl - t0 > 3 and not any("no room beside their command group" in x for tt in b.turns
                                       if tt.t > t0 for _, x in tt.told if x.startswith(n)):
                self.checked()
                self.violation(last, f"{n} pursued off in turn {t0}, never returned by turn {tl}")


class ReturnDistance(Count):
    name = "count: cavalry back from a pursuit more than 10 cm from their command group's flag"
    clause = "Close Assault: 'simply place the units next to the HQ flag'"

    def turn(self, t, b):
        for f in t.of("returned"):
            u = t.end.get(f["unit"])
            hq = b.hq.get(u.side) if u else None
            if hq and gap(u.poly, [hq, hq, hq]) > 10.0:
                self.checked()


class CavalryPursueOnTable(Count):
    name = "count: cavalry pursuits that moved on the table rather than off it"
    clause = "Close Assault: 'Cavalry will pursue an enemy off the table'"

    def turn(self, t, b):
        for f in t.of("move"):
            if f["what"] == "pursue" and b.arm.get(f["unit"]) == "cavalry":
                self.checked()


class CavalrySecondLineRuns(Count):
    name = "count: regiments running away whose second line was not at 0 (the lines operate together)"
    clause = "Cavalry formations: 'Each has it's own status label, but they always operate together'"

    def turn(self, t, b):
        for f in t.of("run"):
            u = t.start.get(f["unit"])
            if u is not None and u.arm == "cavalry" and (u.lines.get(2) or 0) > 0:
                self.checked()


class RallyFromRunning(Count):
    name = "count: rallies of units running away (0 -> 1)"
    clause = "Status Recovery; Close Assault: units at 0 run away"

    def turn(self, t, b):
        for f in t.of("rally"):
            if any(x["from"] == 0 for x in f.get("lines") or []):
                self.checked()


class RallyTwiceInATurn(Count):
    name = "count: units rallied both ways (commander and friend) in one turn"
    clause = "Status Recovery: 'in one of two ways'"

    def turn(self, t, b):
        seen = {}
        for f in t.of("rally"):
            seen.setdefault(f["unit"], set()).add(bool(f.get("commander")))
        for ways in seen.values():
            if len(ways) == 2:
                self.checked()


class RallyByFriend(Count):
    name = "count: rallies by a higher-status friend standing by (reinforcements)"
    clause = "Status Recovery: 'Bring up reinforcements'"

    def turn(self, t, b):
        for f in t.of("rally"):
            if not f.get("commander"):
                self.checked()


class StandOff(Count):
    name = "count: moves stopped 5 cm short of an enemy they were not closing with"
    clause = "(no clause: the text stops at 5 cm only a failed attack)"

    def turn(self, t, b):
        for f in t.of("move"):
            if (f.get("stop") or {}).get("cause") == "stand_off":
                self.checked()


class PursuitOutcomes(Count):
    name = "count: pursuits that did not move (carried off, followed off, nobody, not ahead)"
    clause = "Close Assault: 'Cavalry will pursue an enemy off the table'"

    def turn(self, t, b):
        for f in t.of("pursuit"):
            self.checked()


class SecondLine(EACheck):
    name = "cavalry second line: follows up a win, combines (the average) after a loss"
    clause = ("Cavalry Second Lines: 'First Line Winning: follow up and join in, or hold back'; "
              "'First line losing: withdraw on to the second line and combine ... taking the "
              "average'")

    def turn(self, t, b):
        prev = t.previous
        fought = {}
        if prev is not None:
            for a in prev.of("assault"):
                for r in a.get("results") or []:
                    fought[r["unit"]] = r["won"]
                for x in a["attackers"]:
                    if not x["closed"]:
                        fought[x["unit"]] = False   # its attack failed at step one
                        fought.setdefault(a["defender"], True)
        for f in t.of("second_line"):
            n = f["unit"]
            self.checked()
            if n not in fought:
                self.bad(t, f"{n}'s second line acts without a melee of its first line the round "
                            f"before")
            elif f["follows_up"] and not fought[n]:
                self.bad(t, f"{n}'s second line follows up a lost melee")
            if not f["follows_up"]:
                ls = {x["line"]: x for x in f["lines"]}
                if 1 in ls and 2 in ls:
                    avg = (ls[1]["from"] + ls[2]["from"]) / 2.0
                    for x in ls.values():
                        if x["to"] not in (math.floor(avg), math.ceil(avg)):
                            self.bad(t, f"{n}: lines {ls[1]['from']} and {ls[2]['from']} combine "
                                        f"to {x['to']}, not their average")
                else:
                    self.bad(t, f"{n}: lines combine without both lines' status")


class SecondLineCombinedAfterWin(Count):
    name = "count: second lines combined after a won or un-fought first line"
    clause = "Cavalry Second Lines: combine after the first line loses"

    def turn(self, t, b):
        prev = t.previous
        won = set()
        if prev is not None:
            for a in prev.of("assault"):
                for r in a.get("results") or []:
                    if r["won"]:
                        won.add(r["unit"])
        for f in t.of("second_line"):
            if not f["follows_up"] and f["unit"] in won:
                self.checked()


# =====================================================================================
# Order, recovery
# =====================================================================================


class Reordered(EACheck):
    name = "re-ordered only after a turn stationary and not firing"
    clause = ("Order: 'A unit may re-order itself by remaining stationary and not firing for one "
              "turn'")

    def turn(self, t, b):
        back = {f["unit"] for f in t.of("reordered")}
        for n in back:
            self.checked()
            u = t.start.get(n)
            if u is not None and not u.disordered:
                self.bad(t, f"{n} re-orders but began the turn ordered")
            moved = [f for f in t.moves_of(n) if f["done"] > EPS]
            if moved:
                self.bad(t, f"{n} re-orders after moving {moved[0]['done']:.1f} cm "
                            f"({moved[0].get('what', moved[0]['fact'])})")
            if t.fires_by(n):
                self.bad(t, f"{n} re-orders after firing")
            if t.manoeuvres_of(n):
                self.bad(t, f"{n} re-orders while changing formation")
            if [a for a in t.assaults_of(n) if any(x["closed"] for x in a["attackers"]
                                                   if x["unit"] == n or a["defender"] == n)]:
                self.bad(t, f"{n} re-orders in the turn of its close assault")
        for n, u in t.end.items():
            s = t.start.get(n)
            if s is None:
                continue
            if s.disordered and not u.disordered:
                self.checked()
                combined = [f for f in t.of("second_line") if f["unit"] == n
                            and not f["follows_up"]]
                if n not in back and not combined:
                    self.bad(t, f"{n} goes from DISORDERED to ordered without re-ordering")


class OrderedByCombining(Count):
    name = "count: DISORDERED regiments made ordered by combining with their second line"
    clause = "Cavalry Second Lines: 'Usually the second line it ORDERED'"

    def turn(self, t, b):
        for f in t.of("second_line"):
            s, u = t.start.get(f["unit"]), t.end.get(f["unit"])
            if not f["follows_up"] and s and s.disordered and not t.disordered_at(f["unit"], f["_i"] + 1)[0]:
                self.checked()


class ReorderedSameTurn(Count):
    name = "count: re-orders by units disordered during the same turn"
    clause = "Order: 'remaining stationary and not firing for one turn'"

    def turn(self, t, b):
        for f in t.of("reordered"):
            u = t.start.get(f["unit"])
            if u is not None and not u.disordered:
                self.checked()


class DisorderCauses(Count):
    name = "count: units falling into disorder with no fire, change of formation or combat"
    clause = ("Order: 'Disorder is caused by a variety of things, such as changing formation, "
              "enemy fire or combat'")

    def turn(self, t, b):
        for n, u in t.end.items():
            s = t.start.get(n)
            if s is None or s.disordered or not u.disordered:
                continue
            if t.disordered_at(n, 10 ** 9)[0]:
                continue
            if [f for f in t.of("returned") if f["unit"] == n]:
                continue
            self.checked()


class Rally(EACheck):
    name = "status recovery: two turns' rallying (commander, or a higher friend still within 10 cm), no musket fire, no cavalry within 30 cm; one level"
    clause = ("Status Recovery: '2 turns of conspicuous rallying activity by Commander will raise "
              "status by one level ... must not be under musket fire or within 30 cm of cavalry'; "
              "'Moving a higher status unit to stand within 10cm. Both units must remain "
              "stationary for 2 turns ...'")

    def begin(self, b):
        self.hist = []
        self.last = {}

    def turn(self, t, b):
        self.hist.append(t)
        last2 = self.hist[-2:]
        for f in t.of("rally"):
            n = f["unit"]
            self.checked()
            way = (n, bool(f.get("commander")))
            if way in self.last and t.t - self.last[way] < 2:
                self.bad(t, f"{n} rallied {'by its commander' if way[1] else 'by a friend'} in turn "
                            f"{self.last[way]} and again in turn {t.t}: a level a turn, not one "
                            f"for two turns")
            self.last[way] = t.t
            lines = f.get("lines") or []
            ups = [x for x in lines if x["to"] == x["from"] + 1]
            for x in lines:
                # A friend steadies a regiment's lines no higher than its own status
                # (interpretation 23): a second line already there stays.
                held = (not f.get("commander") and ups and x["to"] == x["from"]
                        and x["from"] >= max(y["to"] for y in ups))
                if x["to"] != x["from"] + 1 and not held:
                    self.bad(t, f"{n} rallies {x['from']} -> {x['to']}, not one level")
            if len(last2) < 2:
                self.bad(t, f"{n} rallies in the battle's first turn")
                continue
            side = t.side_of(n)
            who = [n]
            if f.get("commander"):
                for tt in last2:
                    if tt.commander_with(side) != n:
                        self.bad(t, f"{n} rallied by its commander, who was not with it in turn "
                                    f"{tt.t}")
            else:
                friend = f.get("by")
                who.append(friend)
                for tt in last2:
                    if friend not in tt.end or n not in tt.end:
                        continue
                    g = gap(tt.end[friend].poly, tt.end[n].poly)
                    if g > 10.0 + EPS:
                        self.bad(t, f"{n} rallied by {friend}, {g:.1f} cm away in turn {tt.t}")
                    fs = tt.end[friend].n
                    us = tt.start.get(n).n if tt.start.get(n) else None
                    if tt is t and us is not None and fs is not None and fs <= us:
                        self.bad(t, f"{n} ({us}) rallied by {friend} of status {fs}, not higher")
                for w in who:
                    for tt in last2:
                        mv = [g for g in tt.moves_of(w) if g["done"] > EPS]
                        if mv:
                            self.bad(t, f"{n} rallied by {friend}: {w} moved in turn {tt.t}")
            for w in who:
                for tt in last2:
                    fired_at = [g for g in tt.of("fire") if g["target"] == w and g["row"] in MUSKET_ROWS]
                    if fired_at:
                        self.bad(t, f"{n} rallies; {w} was under musket fire from "
                                    f"{fired_at[0]['firer']} in turn {tt.t}")
                    cav = [e for e in tt.enemies(w) if e in tt.end and w in tt.end
                           and tt.end[e].arm == "cavalry"
                           and gap(tt.end[e].poly, tt.end[w].poly) < 30.0 - EPS]
                    if cav:
                        self.bad(t, f"{n} rallies; {w} was within 30 cm of cavalry {cav[0]} at the end "
                                    f"of turn {tt.t}")


# =====================================================================================
# The table: bodies
# =====================================================================================


class Frontages(EACheck):
    name = "bodies as the bases make them"
    clause = ("Troop Representation: infantry 6 bases of 6 cm, cavalry 4 bases of 8 cm in two "
              "sub-divisions; Cavalry formations: in column the two lines about 20 cm apart, in "
              "line side by side; square of 4 bases")

    def turn(self, t, b):
        for u in t.end.values():
            if len(u.poly) < 4:
                continue
            _, _, _, w, d = frame(u.poly, u.facing)
            if u.kind == "battalion" or u.kind == "light battalion":
                if u.formation == "line":
                    self.checked()
                    if abs(w - 36.0) > 0.1:
                        self.bad(t, f"{u.name} in line is {w:.1f} cm wide, six 6 cm bases are 36")
                elif u.formation == "square":
                    self.checked()
                    if w > 12.0 + 0.1 or d > 12.0 + 0.1:
                        self.bad(t, f"{u.name} in square is {w:.1f} by {d:.1f} cm, more than "
                                    f"4 bases")
            elif u.arm == "cavalry":
                self.checked()
                if u.formation == "line" and abs(w - 32.0) > 0.1:
                    self.bad(t, f"{u.name} in line is {w:.1f} cm wide, four 8 cm bases are 32")
                if u.formation == "column":
                    if abs(w - 16.0) > 0.1:
                        self.bad(t, f"{u.name} in column is {w:.1f} cm wide, two 8 cm bases are 16")
                    if d < 20.0:
                        self.bad(t, f"{u.name} in column is {d:.1f} cm deep: no room for its "
                                    f"lines 20 cm apart")


class NoOverlap(EACheck):
    name = "no two bodies overlap"
    clause = ("Troop Representation (the bases stand on the table); Close Assault: base to base "
              "contact")

    def turn(self, t, b):
        us = [u for u in t.end.values() if len(u.poly) >= 3]
        for i in range(len(us)):
            for j in range(i + 1, len(us)):
                self.checked()
                dep = overlap_depth(us[i].poly, us[j].poly)
                if dep > 0.1:
                    self.bad(t, f"{us[i].name} and {us[j].name} overlap by {dep:.1f} cm")


class PathClear(EACheck):
    name = "no straight move, withdrawal or run passes through another body"
    pivots = False
    clause = ("Manoeuvres: moves directly forward or back; a turn (pivot) is a manoeuvre; "
              "bodies cannot pass through one another")

    def turn(self, t, b):
        for f in t.facts:
            k = f["fact"]
            if k in ("move", "withdrawal", "run"):
                a, z = body_poly(f["from"]), body_poly(f["to"])
                if abs(turn(f["from"]["facing"], f["to"]["facing"])) > 1.0:
                    continue  # a wheel's path is not traced; its end is checked by NoOverlap
                if dist(f["from"]["at"], f["to"]["at"]) < f.get("done", 0) - 0.2:
                    continue  # a path that bends (round a body) is not traced
                swept = hull(a + z)
            elif k == "manoeuvre" and f.get("facing") is not None and f["stage"] == "done" \
                    and self.pivots:
                u = t.start.get(f["unit"])
                if u is None or len(u.poly) < 4:
                    continue
                old = t.bodies_at(f["_i"]).get(f["unit"]) or u.poly
                c0, c1 = centroid(old), centroid(body_poly(f["body"]))
                if dist(c0, c1) > 0.1:
                    continue
                rot = turn(u.facing, f["body"]["facing"])
                steps = max(1, int(abs(rot) // 5))
                pts = []
                for s in range(steps + 1):
                    pts += rotate(old, c0, rot * s / steps)
                swept = hull(pts)
            else:
                continue
            bodies = t.bodies_at(f["_i"])
            mine = bodies.get(f.get("unit"))
            for other, poly in bodies.items():
                if other == f.get("unit") or other == f.get("target") or len(poly) < 3:
                    continue
                self.checked()
                dep = overlap_depth(swept, hull(poly))
                if dep > 0.3:
                    if mine and overlap_depth(hull(mine), hull(poly)) > 0.3:
                        continue  # overlapping before it moved: NoOverlap's business
                    what = f.get("what") or k
                    self.bad(t, f"{f['unit']}'s {what} sweeps {dep:.1f} cm through {other}")


class PivotSweep(Count, PathClear):
    name = ("count: turns to a new facing (not about-faces) whose rotation about the body's centre "
            "would sweep through another body (the trace has no pivot path)")
    clause = "Manoeuvres: turning is a manoeuvre; the trace gives only the old and new bodies"
    pivots = True
    keep = 0

    def bad(self, t, what):
        if "manoeuvre" in what:
            self.count += 1

    def checked(self, n=1):
        pass

    def turn(self, t, b):
        about = {f["unit"] for f in t.of("manoeuvre") if f.get("facing") is not None
                 and t.start.get(f["unit"]) is not None
                 and abs(abs(turn(t.start[f["unit"]].facing, f["facing"])) - 180.0) < 1.0}
        saved = t.facts
        t.facts = [f for f in saved if f["fact"] == "manoeuvre" and f["unit"] not in about]
        t._bodies_saved, t._bodies = t._bodies, None
        try:
            PathClear.turn(self, t, b)
        finally:
            t.facts = saved
            t._bodies = t._bodies_saved


class ContactUnfought(EACheck):
    name = "enemies in contact fight: no pair stands in contact two turn-ends running without an assault"
    clause = ("Close Assault: 'In order for units to get into base to base contact, they must "
              "first assess their Willingness to Close' (contact is a close assault)")

    def begin(self, b):
        self.was = set()
        self.drawn = set()

    def turn(self, t, b):
        now = set()
        us = [u for u in t.end.values() if len(u.poly) >= 3]
        fought = set()
        for a in t.of("assault"):
            for x in a["attackers"]:
                pair = frozenset((x["unit"], a["defender"]))
                fought.add(pair)
                # Interpretation 40: two units that charged each other and drew stand in
                # contact, and nothing parts them by itself; either may charge again.
                if a.get("mutual") and a.get("attackers_won") is None and a.get("step_two"):
                    self.drawn.add(pair)
                else:
                    self.drawn.discard(pair)
        for i in range(len(us)):
            for j in range(i + 1, len(us)):
                if us[i].side == us[j].side:
                    continue
                if gap(us[i].poly, us[j].poly) <= 0.1:
                    pair = frozenset((us[i].name, us[j].name))
                    now.add(pair)
                    self.checked()
                    if pair in self.was and pair not in fought and pair not in self.drawn:
                        self.bad(t, f"{us[i].name} ({us[i].word}) and {us[j].name} "
                                    f"({us[j].word}) stand in contact at the end of turns "
                                    f"{t.t - 1} and {t.t} and do not fight")
        self.drawn &= now
        self.was = now


class NearlyTouching(Count):
    name = ("count: enemy pairs within 1 cm (not touching) at two turn-ends running with no assault "
            "between them")
    clause = "Close Assault (a charge or pursuit should reach)"

    def begin(self, b):
        self.was = set()

    def turn(self, t, b):
        now = set()
        us = [u for u in t.end.values() if len(u.poly) >= 3]
        fought = {frozenset((x["unit"], a["defender"])) for a in t.of("assault")
                  for x in a["attackers"]}
        for i in range(len(us)):
            for j in range(i + 1, len(us)):
                if us[i].side != us[j].side and 0.1 < gap(us[i].poly, us[j].poly) <= 1.0:
                    pair = frozenset((us[i].name, us[j].name))
                    now.add(pair)
                    if pair in self.was and pair not in fought:
                        self.checked()
        self.was = now


class StandOffBlocksClose(Count):
    name = ("count: charges and pursuits stopped 5 cm from another enemy before reaching their "
            "target (a stand-off the text does not have)")
    clause = "Close Assault step one: 'it will move forward to close'"

    def turn(self, t, b):
        for f in t.of("move"):
            st = f.get("stop") or {}
            if f["what"] in ("charge", "pursue", "follow_up") and st.get("cause") == "stand_off" \
                    and st.get("unit") != f.get("target"):
                self.checked()


class CaughtBreaks(Count):
    name = ("count: withdrawals blocked while touching the enemy that break the unit (status 0, "
            "no status fact in the trace)")
    clause = "Close Assault results: withdraw N cm (the text says nothing of a blocked withdrawal)"

    def turn(self, t, b):
        for f in t.of("withdrawal"):
            if f.get("rule") == "caught":
                self.checked()


class ContactAtTurnEnd(Count):
    name = "count: enemy pairs in contact at a turn's end without an assault between them that turn"
    clause = "Close Assault"

    def turn(self, t, b):
        us = [u for u in t.end.values() if len(u.poly) >= 3]
        fought = set()
        for a in t.of("assault"):
            for x in a["attackers"]:
                fought.add(frozenset((x["unit"], a["defender"])))
        for i in range(len(us)):
            for j in range(i + 1, len(us)):
                if us[i].side != us[j].side and gap(us[i].poly, us[j].poly) <= TOUCH:
                    if frozenset((us[i].name, us[j].name)) not in fought:
                        self.checked()


# =====================================================================================
# Sequence, command
# =====================================================================================

PHASE = {"second_line": 0, "fire": 1, "move": 2, "withdrawal": 2, "run": 2, "pursuit": 2,
         "assault": 3, "reordered": 4, "rally": 4, "returned": 4}


def phase(f):
    k = f["fact"]
    if k == "fire":
        return 2 if f["in_defence"] else 1
    if k == "manoeuvre":
        return 0 if f["stage"] == "begun" else 2
    return PHASE.get(k)


class Sequence(EACheck):
    name = "firing, then movement, then melee, then recovery"
    clause = "Sequence of Action: 1 Firing, 2 Movement, 3 Melee, 4 Recovery of status / Reordering"

    def turn(self, t, b):
        last, lastf = -1, None
        fought = set()
        for f in t.facts:
            p = phase(f)
            if f["fact"] == "assault":
                fought.add(f["defender"])
                fought.update(x["unit"] for x in f["attackers"])
            if f["fact"] == "manoeuvre" and f["stage"] == "given_up":
                # Broken off by fire (phase 1), for want of room (2) or in a close assault (3).
                continue
            if f["fact"] == "manoeuvre" and f["stage"] == "done" and f["unit"] in fought:
                # The register's interpretation 34: a unit caught in the last turn of its change
                # by an enemy's charge fights as it stands; the change completes after the melee.
                p = 3
            if p is None:
                continue
            self.checked()
            if p < last:
                self.bad(t, f"{f['fact']} of {f.get('unit') or f.get('firer') or f.get('defender')} "
                            f"(phase {p}) after {lastf['fact']} (phase {last})")
            if p > last:
                last, lastf = p, f


class CommanderRide(Count):
    name = "count: commander rides longer than the HQ group's 60 cm"
    clause = "Movement: 'Regt / Bde HQ Group 60 cm'; Command: the mounted figure sent to a unit"

    def turn(self, t, b):
        a = {m.get("side"): m for m in t.prev.get("markers", []) if m.get("kind") == "commander"}
        for m in t.cur.get("markers", []):
            if m.get("kind") == "commander" and m.get("side") in a:
                if dist(a[m["side"]]["at"], m["at"]) > HQ_MOVE + EPS:
                    self.checked()


class HeadquartersMove(EACheck):
    name = "the command group moves at most 60 cm a turn"
    clause = "Movement: 'Regt / Bde HQ Group 60 cm'"

    def turn(self, t, b):
        a = {m.get("side"): m for m in t.prev.get("markers", []) if m.get("kind") == "headquarters"}
        for m in t.cur.get("markers", []):
            if m.get("kind") == "headquarters" and m.get("side") in a:
                self.checked()
                d = dist(a[m["side"]]["at"], m["at"])
                if d > HQ_MOVE + EPS:
                    self.bad(t, f"side {m['side']}'s command group moves {d:.1f} cm")


class CanisterLoose(Count):
    name = "count: canister from a 6/5/4 battery at a loose target (unclear cell), two levels"
    clause = "Firing table: canister row, 6/5/4 firer, loose target"

    def turn(self, t, b):
        for f in t.of("fire"):
            if f["row"] == "canister" and f["firer_status"] >= 4 and f["density"] == "loose":
                for x in f.get("lines") or []:
                    if x["from"] - x["to"] == 2:
                        self.checked()


class LightColumnDensity(Count):
    name = "count: light infantry in attack column fired at as dense (unclear: dense or loose)"
    clause = "Target Density: 'infantry attack column' dense, 'light infantry' loose"

    def turn(self, t, b):
        for f in t.of("fire"):
            u = t.start.get(f["target"])
            if u and u.kind == "light battalion" and t.formation_at(f["target"], f["_i"]) == "assault_column":
                if f["density"] == "dense":
                    self.checked()


CHECKS = [
    StatusWords, StatusAccounted,
    FireResult, FireRange, FireRow, TargetDensity, WhoFires,
    MoveAllowance, MoveStraight, CloseVariation, ManoeuvreInsteadOfMove, FormationTimes,
    Pugnacious, WaveringNotCloser, NervousFires,
    AssaultContact, ChargeResolved, DefenceFire, AssaultDirection, StepOne, StepOneModifiers, StepTwo, MeleeResults,
    AssaultDisorders, ResultsNextTurn, WithdrawBackwards, RunAway, CavalryPursuit, SecondLine,
    Reordered, Rally,
    Frontages, NoOverlap, PathClear, ContactUnfought,
    Sequence, HeadquartersMove,
    # counts
    ChangeDropped, WaveringWithdrawsCloser, NearlyTouching, StandOffBlocksClose, CaughtBreaks,
    AssaultDirectionAfterChange, ContactBrokenOff, ResultsLapsed, ReturnDistance, OrderedByCombining,
    CloseVariationSmall, UnlistedChanges, PugnaciousNotAhead, PugnaciousManoeuvring, PivotSweep, WaveringPursues,
    WithdrawOffAxis, WithdrawCutShort, RunBlocked, PursuitOutcomes, SecondLineCombinedAfterWin,
    CavalryPursueOnTable, CavalrySecondLineRuns, RallyFromRunning, RallyTwiceInATurn, RallyByFriend, StandOff,
    ReorderedSameTurn, DisorderCauses, ContactAtTurnEnd, CommanderRide, CanisterLoose,
    LightColumnDensity,
]
