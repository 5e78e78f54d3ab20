"""Itchy and Scratchy (Bob Cordery, 2013 first draft, with the author's answers in the comments):
checks of the rule text's clauses over battle traces.

Written from the rule text (/work/shared/rules/itchy-and-scratchy.txt) and the trace format
(docs/trace.md) only. Where the text is unclear, a check holds what every sensible reading agrees
on and leaves the rest to a count (`keep = 0`, never a violation). Standard library only.

The trace: one action a line (an initiative throw, the winner's choice, one unit's move or one
unit's attack, the end of a side's half). `Track` below follows the turn (who acts, what each unit
has done this turn, which sides have reached their Exhaustion Point) from the lines before the one
a check looks at; every check reads the pieces as they stood before the action (`prev`) and after
it (`cur`) and works the grid's geometry out again itself.

Grid: area [c, r] is the unit square from (c, r); distances and moves count edges crossed (the
text: "measured through the edges of the grid areas not the corners"), so the range between two
areas is |dc| + |dr|. Adjacent means sharing an edge (an area's front, flanks and rear are its four
edges). Facings 0/90/180/270 face the north/east/south/west edge.
"""

import math
import re
from collections import Counter
from fractions import Fraction

from common import Check, events

# ----- the text's numbers -----

# "Unit Strength Points" (before any adjustment the first rule allows).
START_SP = {"infantry": 4, "dismounted cavalry": 3, "mounted cavalry": 3, "machine guns": 2,
            "artillery": 2, "horse-drawn transport": 1, "general": 1}

# "Movement": grid areas a turn.
RATE = {"infantry": 2, "dismounted cavalry": 2, "mounted cavalry": 3, "machine guns": 2,
        "artillery": 2, "horse-drawn transport": 2, "general": 3}

# "Combat": dice at range 1, 2, ... (the weapon as the pieces' labels name it, letters only).
DICE = {
    "rifledheavyartillery": [6, 6, 6, 4, 4, 4, 2, 2, 2],
    "rifledfieldartillery": [6, 6, 4, 4, 2, 2],
    "rifledmountainartillery": [6, 4, 4, 2, 2],
    "smoothboreheavyartillery": [6, 6, 4, 4, 2, 2],
    "smoothborefieldartillery": [6, 4, 4, 2, 2],
    "smoothboremountainartillery": [4, 4, 2, 2],
    "machineguns": [8, 6, 4, 2],
    "riflesandcarbines": [6, 4, 2],
    "riflescarbines": [6, 4, 2],
    "muskets": [4, 2],
    "handheldweapons": [4],
}
GENERAL_DICE = 2

# "Results": the faces whose double hits each kind of target. Dismounted cavalry is unclear
# (a Cavalry unit, or fighting as Infantry): both readings.
DOUBLE_FACES = {
    "artillery": [(1,)], "machine guns": [(1,)],
    "mounted cavalry": [(2, 3)], "horse-drawn transport": [(2, 3)],
    "dismounted cavalry": [(2, 3), (4, 5, 6)],
    "infantry": [(4, 5, 6)],
}

COVER = {"woods", "builtup", "built_up", "fortification"}
EXEMPT = {"horse-drawn transport", "general"}  # may share an area with friends

VEC = {0: (0, 1), 90: (1, 0), 180: (0, -1), 270: (-1, 0)}
FACING_WORD = {"north": 0, "east": 90, "south": 180, "west": 270}


# ----- reading pieces -----

LABEL = re.compile(r"^(.*?)\s+(\d+)\s*SP(?:,\s*(.*))?$")


def weapon_key(w):
    return re.sub(r"[^a-z]", "", (w or "").lower())


class Unit:
    """A piece as the rules see it: its area, facing, type, SP, weapon."""

    __slots__ = ("name", "side", "area", "facing", "type", "sp", "weapon", "counter", "square",
                 "label")

    def __init__(self, p):
        self.name = p.get("unit")
        self.side = p.get("side")
        self.label = p.get("label", "")
        pts = (p.get("footprint") or {}).get("points") or [[0, 0]]
        xs, ys = [q[0] for q in pts], [q[1] for q in pts]
        self.area = (int(round(min(xs))), int(round(min(ys))))
        self.square = (len(pts) == 4 and abs(max(xs) - min(xs) - 1) < 1e-9 and abs(max(ys) - min(ys) - 1) < 1e-9
                       and all(abs(v - round(v)) < 1e-9 for v in xs + ys))
        self.facing = p.get("facing")
        m = LABEL.match(self.label.strip())
        if m:
            t = m.group(1).strip().lower()
            self.type = "general" if t.startswith("general") else t
            self.sp = int(m.group(2))
            self.weapon = m.group(3)
        else:
            self.type, self.sp, self.weapon = (p.get("arm") or "?"), None, None
        self.counter = None
        for c in p.get("counters") or []:
            if c.get("kind") == "strength":
                self.counter = c.get("n")

    @property
    def general(self):
        return self.type == "general"

    def fvec(self):
        f = self.facing
        if f is None:
            return None
        f = round(f) % 360
        return VEC.get(f)


_CACHE = []


def units(line):
    """{name: Unit} of a line's pieces (the last few lines' kept, as every check reads them)."""
    for ln, us in _CACHE:
        if ln is line:
            return us
    us = {p.get("unit"): Unit(p) for p in line.get("pieces", [])}
    _CACHE.append((line, us))
    if len(_CACHE) > 4:
        _CACHE.pop(0)
    return us


def at(us, area, side=None, exclude=None):
    return [u for u in us.values() if u.area == tuple(area) and (side is None or u.side == side)
            and u.name != exclude]


# ----- grid geometry -----

def manhattan(a, b):
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


def adjacent(a, b):
    return manhattan(a, b) == 1


def add(a, v):
    return (a[0] + v[0], a[1] + v[1])


def facing_towards(u_area, fvec, other):
    """Whether a body at u_area facing fvec faces the edge it shares with area `other`."""
    return fvec is not None and add(u_area, fvec) == tuple(other)


def in_arc(fvec, a, b):
    """The text's arc: forward of the facing, never more than 60 degrees either side."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = dx * fvec[0] + dy * fvec[1]
    lat = dx * fvec[1] - dy * fvec[0]
    return f > 0 and lat * lat <= 3 * f * f


def off_facing(fvec, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    f = dx * fvec[0] + dy * fvec[1]
    lat = dx * fvec[1] - dy * fvec[0]
    return math.degrees(math.atan2(abs(lat), f))


def sight(a, b):
    """The line from area a's centre to area b's: (the areas whose inside it passes, between a
    and b, in order; the corners it passes exactly, each as the pair of areas either side)."""
    x0, y0 = Fraction(2 * a[0] + 1, 2), Fraction(2 * a[1] + 1, 2)
    dx, dy = b[0] - a[0], b[1] - a[1]
    ts = {Fraction(0), Fraction(1)}
    for d, o in ((dx, x0), (dy, y0)):
        if d:
            lo, hi = sorted((o, o + d))
            for k in range(math.ceil(lo), math.floor(hi) + 1):
                t = (k - o) / d
                if 0 < t < 1:
                    ts.add(t)
    ts = sorted(ts)
    cells = []
    for i in range(len(ts) - 1):
        tm = (ts[i] + ts[i + 1]) / 2
        cells.append((math.floor(x0 + dx * tm), math.floor(y0 + dy * tm)))
    corners = []
    for i in range(1, len(ts) - 1):
        t = ts[i]
        x, y = x0 + dx * t, y0 + dy * t
        if x.denominator == 1 and y.denominator == 1:
            p, n = cells[i - 1], cells[i]
            corners.append(((n[0], p[1]), (p[0], n[1])))
    return cells[1:-1], corners


# ----- dice -----

def pairs(c):
    return sum(v // 2 for v in c.values())


def unit_hit(dice, faces, cover):
    """A double of one of `faces` (in cover: PLUS any other double, which the author says may
    be of the same number)."""
    c = Counter(dice)
    if not any(c[f] >= 2 for f in faces):
        return False
    return (not cover) or pairs(c) >= 2


def general_hit(dice, cover):
    """A treble 1 (in cover: PLUS any other double, the same number allowed)."""
    c = Counter(dice)
    if c[1] < 3:
        return False
    if not cover:
        return True
    c[1] -= 3
    return pairs(c) >= 1


def _multisets(n, k=6):
    """Every way of n dice falling on k faces, as counts, with its probability."""
    def rec(n, k):
        if k == 1:
            yield (n,)
            return
        for i in range(n + 1):
            for rest in rec(n - i, k - 1):
                yield (i,) + rest
    total = 6 ** n
    for c in rec(n, k):
        m = math.factorial(n)
        for x in c:
            m //= math.factorial(x)
        yield c, m / total


_P = {}


def chance(n, pred):
    """The probability that n D6 give a throw for which pred(dice) holds (pred is given one
    representative list of dice for each way the counts can fall)."""
    key = (n, pred)
    if key not in _P:
        p = 0.0
        for c, w in _multisets(n):
            dice = [f + 1 for f in range(6) for _ in range(c[f])]
            if pred(dice):
                p += w
        _P[key] = p
    return _P[key]


def hit_readings(target_type, dice, cover):
    """The set of outcomes (hit or not) the text's readings give for a unit target."""
    return {unit_hit(dice, faces, cover) for faces in DOUBLE_FACES.get(target_type, [])}


def ground_of(table, area):
    return table.get(tuple(area), "open")


def terrain_map(first):
    out = {}
    for t in first.get("table", {}).get("terrain", []):
        pts = t.get("points") or []
        if not pts:
            continue
        xs, ys = [p[0] for p in pts], [p[1] for p in pts]
        # an area's square, or a rectangle of areas
        for c in range(int(round(min(xs))), int(round(max(xs)))):
            for r in range(int(round(min(ys))), int(round(max(ys)))):
                out[(c, r)] = t.get("kind")
    return out


def is_cover(table, area):
    return ground_of(table, area) in COVER


# ----- following the turn -----

class Track:
    """What the lines before the current one say: the turn, the side acting, what each unit has
    done this turn, the sides that have reached their Exhaustion Point."""

    def __init__(self, first):
        t = first.get("table", {})
        self.sides = list(t.get("sides", []))
        self.width, self.depth = t.get("width"), t.get("depth")
        self.ground = terrain_map(first)
        us = units(first)
        self.start_units = us
        self.index = [p.get("unit") for p in first.get("pieces", [])]
        self.start_sp = {s: 0 for s in range(len(self.sides) or 2)}
        for u in us.values():
            self.start_sp[u.side] = self.start_sp.get(u.side, 0) + (u.sp or 0)
        self.turn = 0
        self.first = None       # side index going first this turn
        self.half = 0           # 0 before the order, 1 first half, 2 second half
        self.acting = None
        self.moves = {}         # unit -> areas moved this turn
        self.move_count = Counter()
        self.attacks = Counter()
        self.attack_n = {}      # unit -> action n of its attack this turn
        self.seq = []           # units acting this half, in order
        self.exhausted = set()
        self.over = False
        self.half_begun = None

    def side_no(self, name):
        try:
            return self.sides.index(name)
        except ValueError:
            return None

    def before(self, cur):
        for e in events(cur):
            t = e.get("event")
            if t == "turn_begins":
                self.turn = e.get("turn")
                self.first, self.half, self.acting = None, 0, None
                self.moves, self.move_count, self.attacks, self.attack_n = {}, Counter(), Counter(), {}
                self.seq = []
            elif t == "order":
                self.first = self.side_no(e.get("side"))
                self.half, self.acting, self.seq = 1, self.first, []
            elif t == "second_half":
                self.half, self.acting, self.seq = 2, self.side_no(e.get("side")), []
                self.half_begun = cur.get("n")

    def after(self, cur):
        for e in events(cur):
            t = e.get("event")
            if t == "moved":
                u = e.get("unit")
                self.moves[u] = self.moves.get(u, 0) + len(e.get("path") or [])
                self.move_count[u] += 1
                self.seq.append(u)
            elif t == "attack":
                u = e.get("attacker")
                self.attacks[u] += 1
                self.attack_n[u] = cur.get("n")
                self.seq.append(u)
            elif t == "exhausted":
                s = self.side_no(e.get("side"))
                if s is not None:
                    self.exhausted.add(s)
        if "outcome" in cur:
            self.over = True

    def turn_end(self, cur):
        """Whether this line's action closes the turn (the second side's end of its half)."""
        return self.half == 2 and cur.get("action") == "end_half" and self.half_begun != cur.get("n")


class Tracked(Check):
    """A check that sees `self.t`, the turn as the lines before the current one left it."""

    def start(self, ctx, first):
        self.t = Track(first)
        self.begin(ctx, first)

    def line(self, prev, cur, ctx):
        self.t.before(cur)
        self.step(prev, cur, ctx)
        self.t.after(cur)

    def begin(self, ctx, first):
        pass

    def step(self, prev, cur, ctx):
        pass


def sp_of(us, name):
    u = us.get(name)
    return 0 if u is None else (u.sp or 0)


def side_sp(us, side):
    return sum((u.sp or 0) for u in us.values() if u.side == side)


def enemies(us, side):
    return [u for u in us.values() if u.side != side]


def fmt(a):
    return f"[{a[0]}, {a[1]}]"


# =====================================================================================
# Bodies on the grid
# =====================================================================================


class OnTheGrid(Check):
    name = "every unit stands in one grid area, on the table"
    clause = "Movement (units move area to area on the grid); trace.md (a piece is its area's square)"

    def start(self, ctx, first):
        t = first.get("table", {})
        self.w, self.d = t.get("width"), t.get("depth")
        self.look(first)

    def look(self, line):
        for u in units(line).values():
            self.checked()
            c, r = u.area
            if not u.square:
                self.violation(line, f"{u.name}'s footprint is not one grid area's square")
            elif self.w is not None and not (0 <= c < self.w and 0 <= r < self.d):
                self.violation(line, f"{u.name} stands at {fmt(u.area)}, off the {self.w} by {self.d} grid")

    def line(self, prev, cur, ctx):
        self.look(cur)


class FacingEdge(Check):
    name = "every unit faces an edge of its area, not a corner"
    clause = "Movement, rules: a unit must end its move facing the edge of the grid area not the corner"

    def start(self, ctx, first):
        self.look(first)

    def look(self, line):
        for u in units(line).values():
            self.checked()
            if u.facing is None or abs(u.facing - round(u.facing)) > 1e-9 or round(u.facing) % 90 != 0:
                self.violation(line, f"{u.name} faces {u.facing} degrees, not an edge")

    def line(self, prev, cur, ctx):
        self.look(cur)


class NoEnemyShare(Check):
    name = "no unit shares a grid area with an enemy unit"
    clause = "Movement, rules: no unit may start or end its move in the same grid area as an enemy unit"

    def start(self, ctx, first):
        self.look(first)

    def look(self, line):
        byarea = {}
        for u in units(line).values():
            byarea.setdefault(u.area, []).append(u)
        for a, us in byarea.items():
            self.checked()
            if len({u.side for u in us}) > 1:
                self.violation(line, f"enemies share {fmt(a)}: " + ", ".join(f"{u.name} (side {u.side})" for u in us))

    def line(self, prev, cur, ctx):
        self.look(cur)


class NoFriendShare(Check):
    name = "no two friendly units share an area unless one is horse-drawn transport or a General"
    clause = ("Movement, rules: with the exception of a horse-drawn transport unit and commanders, a unit "
              "may not start or end its move in the same grid area as a friendly unit")

    def start(self, ctx, first):
        self.look(first)

    def look(self, line):
        byarea = {}
        for u in units(line).values():
            byarea.setdefault((u.side, u.area), []).append(u)
        for (s, a), us in byarea.items():
            self.checked()
            plain = [u for u in us if u.type not in EXEMPT]
            if len(plain) > 1:
                self.violation(line, f"friends share {fmt(a)}: " + ", ".join(u.name for u in plain))

    def line(self, prev, cur, ctx):
        self.look(cur)


class StrengthBook(Check):
    name = "Strength Points are lost only to attacks, one at a time, and a unit at 0 is removed"
    clause = ("Unit Strength Points, rules (losses recorded; at 0 the unit is destroyed and removed); "
              "Combat, results (one Strength Point; a General destroyed); all lost SP removed immediately")

    def start(self, ctx, first):
        self.start_sp = {n: u.sp for n, u in units(first).items()}
        for n, u in units(first).items():
            self.checked()
            if u.sp is None or u.counter != u.sp or u.sp < 1:
                self.violation(first, f"{n} starts with label SP {u.sp} and counter {u.counter}")

    def line(self, prev, cur, ctx):
        p, c = units(prev), units(cur)
        att = events(cur, "attack")
        target = att[0].get("target") if att else None
        tarea = p[target].area if target in p else None
        tside = p[target].side if target in p else None
        for n, u in c.items():
            self.checked()
            if n not in p:
                self.violation(cur, f"{n} appears on the table")
                continue
            if u.sp is None or u.counter != u.sp:
                self.violation(cur, f"{n}: label SP {u.sp} but strength counter {u.counter}")
            if u.sp is not None and u.sp <= 0:
                self.violation(cur, f"{n} is still on the table with {u.sp} SP")
            lost = (p[n].sp or 0) - (u.sp or 0)
            if lost < 0:
                self.violation(cur, f"{n} gains {-lost} SP")
            elif lost > 0:
                if n != target:
                    tgt_general = target in p and p[target].general
                    if not (tgt_general and u.area == tarea and u.side == tside):
                        self.violation(cur, f"{n} loses {lost} SP but is not the target of an attack"
                                       + (f" (the target is {target})" if target else ""))
                elif lost > 1:
                    self.violation(cur, f"{n} loses {lost} SP to one attack")
        for n, u in p.items():
            if n in c:
                continue
            self.checked()
            if n == target:
                if (u.sp or 0) != 1:
                    self.violation(cur, f"{n} is removed from {u.sp} SP by one attack")
            elif not (u.general and tarea == u.area and u.side == tside):
                self.violation(cur, f"{n} leaves the table without being the target of an attack "
                               "or a General in the target's area")
            else:
                if not any(e.get("general_killed") == n for e in att):
                    self.violation(cur, f"{n} (a General) is removed but the attack says no General was killed")


class OnlyActorChanges(Tracked):
    name = "an action changes only its own unit: a move moves only the mover, an attack moves no one"
    clause = ("Turn Sequence 2 (each unit in turn); Movement (a unit's move is its own); Combat (an attack "
              "removes Strength Points, it moves no unit)")

    def step(self, prev, cur, ctx):
        p, c = units(prev), units(cur)
        mv = events(cur, "moved")
        mover = mv[0].get("unit") if mv else None
        for n, u in c.items():
            if n not in p:
                continue
            self.checked()
            if (u.area, u.facing) != (p[n].area, p[n].facing) and n != mover:
                self.violation(cur, f"{n} goes from {fmt(p[n].area)} facing {p[n].facing} to {fmt(u.area)} "
                               f"facing {u.facing} in an action that is not its move "
                               f"({cur.get('action') if isinstance(cur.get('action'), str) else next(iter(cur.get('action')))})")
        if len(mv) > 1:
            self.checked()
            self.violation(cur, f"one action moves {len(mv)} units")


# =====================================================================================
# The turn sequence
# =====================================================================================


class Initiative(Tracked):
    name = "each turn both sides throw a D6; the higher may choose to go first or second"
    clause = "Turn Sequence 1"

    def begin(self, ctx, first):
        self.winner = None
        self.turns = Counter()

    def step(self, prev, cur, ctx):
        sides = self.t.sides
        for e in events(cur):
            t = e.get("event")
            if t == "turn_begins":
                self.turns[e.get("turn")] += 1
            if t == "initiative":
                self.checked()
                throws = e.get("throws") or []
                draws = [d for d in cur.get("draws") or [] if d.get("kind") == "die"]
                flat = [v for th in throws for v in th]
                if [d.get("value") for d in draws] != flat or any(d.get("sides") != 6 for d in draws):
                    self.violation(cur, f"the initiative throws {throws} are not the line's D6 draws "
                                   f"{[(d.get('sides'), d.get('value')) for d in draws]}")
                if not throws or any(len(th) != 2 for th in throws):
                    self.violation(cur, f"initiative throws {throws}: not one die a side")
                    continue
                if any(not (1 <= v <= 6) for v in flat):
                    self.violation(cur, f"an initiative die off a D6: {throws}")
                if any(a != b for a, b in throws[:-1]):
                    self.violation(cur, f"throws {throws}: thrown again though not tied")
                a, b = throws[-1]
                if a == b:
                    self.violation(cur, f"the last initiative throw {throws[-1]} is a tie, yet there is a winner")
                    continue
                w = 0 if a > b else 1
                if e.get("winner") != (sides[w] if w < len(sides) else None):
                    self.violation(cur, f"{throws[-1]}: the higher is {sides[w]}, yet {e.get('winner')} wins")
                self.winner = w
            if t == "order":
                self.checked()
                act = cur.get("action")
                gf = act.get("go_first") if isinstance(act, dict) else None
                by = (cur.get("by") or {}).get("side") if isinstance(cur.get("by"), dict) else None
                if gf is None:
                    self.violation(cur, "the order of play is set by no go_first choice")
                    continue
                if self.winner is None:
                    self.violation(cur, "an order of play without an initiative throw this turn")
                    continue
                if by != self.winner:
                    self.violation(cur, f"the choice is made by side {by}, not the winner {sides[self.winner]}")
                want = self.winner if gf.get("first") else 1 - self.winner
                if self.t.side_no(e.get("side")) != want:
                    self.violation(cur, f"{sides[self.winner]} chose first={gf.get('first')} but "
                                   f"{e.get('side')} goes first")
                self.winner = None

    def end(self, ctx, last):
        for turn, k in self.turns.items():
            self.checked()
            if k != 1:
                self.violation(last, f"turn {turn} begins {k} times")


class Halves(Tracked):
    name = "the first side moves and attacks with its units, then the other side"
    clause = "Turn Sequence 2"

    def step(self, prev, cur, ctx):
        p = units(prev)
        for e in events(cur):
            t = e.get("event")
            if t not in ("moved", "attack"):
                continue
            name = e.get("unit") if t == "moved" else e.get("attacker")
            self.checked()
            u = p.get(name)
            if u is None:
                self.violation(cur, f"{name} acts but is not on the table")
                continue
            by = cur.get("by")
            by = by.get("side") if isinstance(by, dict) else by
            if self.t.acting is None:
                self.violation(cur, f"{name} acts before the order of play is settled")
            elif u.side != self.t.acting:
                self.violation(cur, f"{name} (side {u.side}) acts in side {self.t.acting}'s half")
            if by != u.side:
                self.violation(cur, f"{name} (side {u.side}) acts by the hand of {by}")
            act = cur.get("action")
            if isinstance(act, dict):
                k = next(iter(act))
                idx = (act.get(k) or {}).get("unit")
                if isinstance(idx, int) and 0 <= idx < len(self.t.index) and self.t.index[idx] != name:
                    self.violation(cur, f"the action names unit {idx} ({self.t.index[idx]}) but {name} acts")
        if self.t.turn_end(cur):
            self.checked()
            if self.t.first is None:
                self.violation(cur, "a turn ends with no side having gone first")


class EachUnitInTurn(Tracked):
    name = "a side's units act one at a time: a unit's move and attack are not split by another unit's"
    clause = "Turn Sequence 2: move and/or conduct combats with each of their units in turn"

    def step(self, prev, cur, ctx):
        for e in events(cur):
            t = e.get("event")
            if t not in ("moved", "attack"):
                continue
            name = e.get("unit") if t == "moved" else e.get("attacker")
            self.checked()
            seq = self.t.seq
            if name in seq and seq[-1] != name:
                after = [x for x in seq[seq.index(name) + 1:] if x != name]
                self.violation(cur, f"{name} acts again after {', '.join(dict.fromkeys(after))} acted "
                               "in between this half")


class OneMove(Tracked):
    name = "a unit moves at most once a turn"
    clause = "Movement, rules: a unit may be moved only once each turn"

    def step(self, prev, cur, ctx):
        for e in events(cur, "moved"):
            self.checked()
            u = e.get("unit")
            if self.t.move_count[u] >= 1:
                self.violation(cur, f"{u} moves a second time in turn {self.t.turn}")


class OneAttack(Tracked):
    name = "a unit attacks at most once a turn"
    clause = "Combat, rules: each unit may attack only once each turn"

    def step(self, prev, cur, ctx):
        for e in events(cur, "attack"):
            self.checked()
            u = e.get("attacker")
            if self.t.attacks[u] >= 1:
                self.violation(cur, f"{u} attacks a second time in turn {self.t.turn}")


# =====================================================================================
# Movement
# =====================================================================================


def move_of(prev, cur):
    """(event, the mover before, the mover after) of a move line, or None."""
    mv = events(cur, "moved")
    if not mv:
        return None
    e = mv[0]
    p, c = units(prev), units(cur)
    return e, p.get(e.get("unit")), c.get(e.get("unit")), p, c


class EdgeSteps(Check):
    name = "a move goes area to area across edges, from where the unit stood to where it stands"
    clause = "Movement, rules: all movement is measured through the edges of the grid areas not the corners"

    def start(self, ctx, first):
        t = first.get("table", {})
        self.w, self.d = t.get("width"), t.get("depth")

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        self.checked()
        if u0 is None or u1 is None:
            self.violation(cur, f"{e.get('unit')} moves but is not on the table before and after")
            return
        path = [tuple(a) for a in e.get("path") or []]
        here = u0.area
        for a in path:
            if not adjacent(here, a):
                self.violation(cur, f"{u0.name} steps from {fmt(here)} to {fmt(a)}, not across an edge")
                return
            if self.w is not None and not (0 <= a[0] < self.w and 0 <= a[1] < self.d):
                self.violation(cur, f"{u0.name} steps off the grid at {fmt(a)}")
                return
            here = a
        if here != u1.area:
            self.violation(cur, f"{u0.name}'s path ends at {fmt(here)} but it stands at {fmt(u1.area)}")


class MoveRate(Tracked):
    name = "a unit moves no more areas than its rate, one fewer in a turn it attacks"
    clause = ("Movement: the table of grid areas; rules: a unit that is attacking this turn reduces its "
              "movement by 1 grid area")

    def step(self, prev, cur, ctx):
        p = units(prev)
        for e in events(cur, "moved"):
            u = p.get(e.get("unit"))
            if u is None:
                continue
            self.checked()
            rate = RATE.get(u.type)
            n = len(e.get("path") or [])
            if rate is None:
                self.violation(cur, f"{u.name}: no movement rate for a {u.type}")
                continue
            less = 1 if self.t.attacks[u.name] else 0
            if n > rate - less:
                self.violation(cur, f"{u.name} ({u.type}, {rate} areas) moves {n} areas"
                               + (" having attacked this turn" if less else ""))
        for e in events(cur, "attack"):
            u = p.get(e.get("attacker"))
            if u is None or u.name not in self.t.moves:
                continue
            self.checked()
            rate = RATE.get(u.type, 0)
            n = self.t.moves[u.name]
            if n > rate - 1:
                self.violation(cur, f"{u.name} ({u.type}, {rate} areas) attacks having moved {n} areas this turn")


class StopNextToEnemy(Check):
    name = "a move stops in the first area it enters next to an enemy unit"
    clause = ("Movement, rules: a unit must stop as soon as it enters a grid area that is adjacent to the "
              "front, flank or rear of enemy unit")

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None:
            return
        path = [tuple(a) for a in e.get("path") or []]
        foes = [v for v in enemies(p, u0.side) if not v.general]
        for a in path[:-1]:
            self.checked()
            near = [v.name for v in foes if adjacent(v.area, a)]
            if near:
                self.violation(cur, f"{u0.name} goes on through {fmt(a)}, next to {', '.join(near)}, "
                               f"to {fmt(path[-1])}")
                break


class FaceEnemyOnStop(Check):
    name = "a unit that moves into an area next to an enemy unit ends facing one of them"
    clause = "Movement, rules: ... and must turn to face the enemy unit at once"

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None or not e.get("path"):
            return
        foes = [v for v in enemies(p, u0.side) if not v.general and adjacent(v.area, u1.area)]
        if not foes:
            return
        self.checked()
        # an enemy General next to it is a unit on one reading (CountMoves counts facing him)
        gens = [v for v in enemies(p, u0.side) if v.general and adjacent(v.area, u1.area)]
        if not any(facing_towards(u1.area, u1.fvec(), v.area) for v in foes + gens):
            self.violation(cur, f"{u0.name} ends at {fmt(u1.area)} next to {', '.join(v.name for v in foes)} "
                           f"but faces {u1.facing}")


def faced_by(us, u, generals=False):
    """The enemies in areas next to u whose front is the edge they share with it."""
    return [v for v in enemies(us, u.side)
            if (generals or not v.general) and adjacent(v.area, u.area)
            and facing_towards(v.area, v.fvec(), u.area)]


class Withdrawal(Check):
    name = ("a unit faced by an adjacent enemy moves only away from it, and never into the area "
            "in front of another enemy unit")
    clause = ("Movement, rules: if a unit is being faced by an enemy unit that is in an adjacent grid area "
              "... it may move (i.e. withdraw away from the enemy unit) providing that it does not move into "
              "a grid area that is adjacent to the front of another enemy unit")

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None or not e.get("path"):
            return
        facing = faced_by(p, u0)
        if not facing:
            return
        self.checked()
        for v in facing:
            if manhattan(u1.area, v.area) <= manhattan(u0.area, v.area):
                self.violation(cur, f"{u0.name}, faced by {v.name} at {fmt(v.area)}, moves from {fmt(u0.area)} "
                               f"to {fmt(u1.area)}: not away from it")
                return
        fronts = {add(v.area, v.fvec()): v for v in enemies(p, u0.side)
                  if not v.general and v.fvec() is not None and v.name not in {f.name for f in facing}}
        for a in [tuple(x) for x in e.get("path") or []]:
            if a in fronts:
                self.violation(cur, f"{u0.name} withdraws from {', '.join(v.name for v in facing)} into {fmt(a)}, "
                               f"the area in front of {fronts[a].name}")
                return


def nearest(us, side, area, generals=True):
    ds = [manhattan(v.area, area) for v in enemies(us, side) if generals or not v.general]
    return min(ds) if ds else None


class ExhaustedNoAdvance(Tracked):
    name = "a side at its Exhaustion Point makes no move towards the enemy"
    clause = ("Exhaustion Point: a side that has reached its Exhaustion Point must immediately stop taking "
              "aggressive action (... will not continue any movement towards the enemy)")

    def step(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None or u0.side not in self.t.exhausted:
            return
        self.checked()
        closer = []
        for g in (True, False):
            a, b = nearest(p, u0.side, u0.area, g), nearest(p, u0.side, u1.area, g)
            closer.append(a is not None and b is not None and b < a)
        if all(closer):
            self.violation(cur, f"{u0.name} (side {u0.side}, exhausted) moves from {fmt(u0.area)} to {fmt(u1.area)}: "
                           f"the nearest enemy from {nearest(p, u0.side, u0.area)} to "
                           f"{nearest(p, u0.side, u1.area)} areas")


# =====================================================================================
# Combat
# =====================================================================================


def attack_of(prev, cur):
    at_ = events(cur, "attack")
    if not at_:
        return None
    e = at_[0]
    p, c = units(prev), units(cur)
    return e, p.get(e.get("attacker")), p.get(e.get("target")), p, c


class AttackWeaponRange(Check):
    name = "an attacker has a weapon of the table and the enemy target is within its range"
    clause = ("Combat: the table of dice by weapon and range; rules: all ranges are measured through the "
              "edges of the grid areas")

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        self.checked()
        if a is None or t is None:
            self.violation(cur, f"{e.get('attacker')} attacks {e.get('target')}: not both on the table")
            return
        if a.side == t.side:
            self.violation(cur, f"{a.name} attacks a friend, {t.name}")
        table = DICE.get(weapon_key(a.weapon))
        if table is None:
            self.violation(cur, f"{a.name} ({a.type}) attacks with no weapon of the table ({a.weapon!r})")
            return
        r = manhattan(a.area, t.area)
        if not 1 <= r <= len(table):
            self.violation(cur, f"{a.name} ({a.weapon}) attacks {t.name} at range {r}; its reach is {len(table)}")


class AttackArc(Check):
    name = "the target is forward of the attacker: directly ahead at range 1, never more than 60 degrees off"
    clause = ("Combat, rules: units have an arc of attack ... directly into the adjacent grid area, widening "
              "out as the range increases but never exceeding 60 degrees on either side")

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        fv = a.fvec()
        if fv is None or not in_arc(fv, a.area, t.area):
            ang = off_facing(fv, a.area, t.area) if fv else None
            self.violation(cur, f"{a.name} at {fmt(a.area)} facing {a.facing} attacks {t.name} at {fmt(t.area)}, "
                           f"{ang:.1f} degrees off its facing" if ang is not None else "with no facing")


class AttackSight(Check):
    name = ("the line of fire passes through no woods, built-up area or fortification: "
            "1 area into cover, out of cover only from its edge")
    clause = ("Combat, rules: units may only attack targets in direct line-of-sight; can attack 1 grid area "
              "into woods, built-up areas and fortifications; can attack out of them only from a grid area on "
              "their edge (the adjacent area in the direction of fire holds none)")

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        cells, corners = sight(a.area, t.area)
        for x in cells:
            if is_cover(self.ground, x):
                what = ("out of cover not from its edge" if is_cover(self.ground, a.area) and x == cells[0]
                        else ("more than 1 area into cover" if is_cover(self.ground, t.area) else "through cover"))
                self.violation(cur, f"{a.name} {fmt(a.area)} attacks {t.name} {fmt(t.area)} {what}: the line "
                               f"passes through {fmt(x)} ({ground_of(self.ground, x)})")
                return
        for x, y in corners:
            if is_cover(self.ground, x) and is_cover(self.ground, y):
                self.violation(cur, f"{a.name} {fmt(a.area)} attacks {t.name} {fmt(t.area)} between {fmt(x)} and "
                               f"{fmt(y)}, both cover, touching at the corner the line passes")
                return


class AttackDice(Check):
    name = "the dice thrown are the table's for the weapon and range, 2 more with a General in the attacker's area"
    clause = ("Combat: the table (the numbers show how many D6 are thrown at different ranges); rules: attacking "
              "units in the same grid area as a General increase the number of D6 thrown by 2")

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        table = DICE.get(weapon_key(a.weapon))
        r = manhattan(a.area, t.area)
        if table is None or not 1 <= r <= len(table):
            return
        self.checked()
        gen = [g.name for g in at(p, a.area, a.side, a.name) if g.general]
        want = table[r - 1] + (GENERAL_DICE if gen else 0)
        draws = [d for d in cur.get("draws") or [] if d.get("kind") == "die"]
        got = [d.get("value") for d in draws]
        if len(got) != want:
            self.violation(cur, f"{a.name} ({a.weapon}, range {r}{', with ' + gen[0] if gen else ''}) throws "
                           f"{len(got)} dice, not {want}")
        if any(d.get("sides") != 6 or not 1 <= (d.get("value") or 0) <= 6 for d in draws):
            self.violation(cur, f"{a.name}'s dice are not all D6: {[(d.get('sides'), d.get('value')) for d in draws]}")
        res = (e.get("resolution") or {}).get("dice")
        if res is not None and list(res) != got:
            self.violation(cur, f"the attack's dice {res} are not the line's draws {got}")


class AttackResult(Check):
    name = "the result is the text's: the target's double (in cover, plus any other double), a General's treble 1"
    clause = ("Combat, results (the eight lines) with the author's answers: 'any other double' may be the "
              "same number; a unit and a General in its area are both hit by the same throw")

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        dice = [d.get("value") for d in cur.get("draws") or [] if d.get("kind") == "die"]
        cover = is_cover(self.ground, t.area)
        where = "in cover" if cover else "in the open"
        lost = (t.sp or 0) - sp_of(c, t.name)
        if t.general:
            want = {general_hit(dice, cover)}
        else:
            want = hit_readings(t.type, dice, cover)
            if not want:
                self.violation(cur, f"{t.name}: a {t.type} is no target the results name")
                return
        got = lost >= 1
        if got not in want:
            self.violation(cur, f"{a.name} throws {sorted(dice)} at {t.name} ({t.type} {where}): "
                           f"{'hit' if got else 'no hit'}, the text gives {'hit' if True in want else 'no hit'}")
        if lost > 1:
            self.violation(cur, f"{t.name} loses {lost} SP to one attack")
        if lost == 1 and t.sp == 1 and t.name in c:
            self.violation(cur, f"{t.name} is reduced to 0 SP but not removed")
        for g in at(p, t.area, t.side, t.name):
            if not g.general:
                continue
            self.checked()
            killed = g.name not in c
            if killed != general_hit(dice, cover):
                self.violation(cur, f"{a.name} throws {sorted(dice)} at {t.name} with {g.name} in its area {where}: "
                               f"the General {'is killed' if killed else 'survives'}, the text gives "
                               f"{'killed' if not killed else 'survives'}")


class ExhaustionPoint(Tracked):
    name = "a side reaches its Exhaustion Point (half its starting SP, rounded up) when it has lost that many, told at the turn's end"
    clause = ("Exhaustion Point (one half of the side's total initial Strength Points, rounded up); Turn "
              "Sequence 3 (at the end of each turn both sides check)")

    def begin(self, ctx, first):
        self.missed = set()

    def step(self, prev, cur, ctx):
        c = units(cur)
        said = {}
        for e in events(cur, "exhausted"):
            s = self.t.side_no(e.get("side"))
            said[s] = e
        end = self.t.turn_end(cur)
        for s in range(len(self.t.sides)):
            start = self.t.start_sp.get(s, 0)
            point = (start + 1) // 2
            lost = start - side_sp(c, s)
            if s in said:
                self.checked()
                e = said[s]
                if (e.get("start"), e.get("point"), e.get("lost")) != (start, point, lost):
                    self.violation(cur, f"{self.t.sides[s]}: told start {e.get('start')}, point {e.get('point')}, "
                                   f"lost {e.get('lost')}; the pieces give {start}, {point}, {lost}")
                if lost < point:
                    self.violation(cur, f"{self.t.sides[s]} told exhausted having lost {lost} of {start} (point {point})")
                if s in self.t.exhausted:
                    self.violation(cur, f"{self.t.sides[s]} told exhausted a second time")
                if not end:
                    self.violation(cur, f"{self.t.sides[s]} told exhausted at a line that is not a turn's end")
            elif end and s not in self.t.exhausted and s not in self.missed:
                self.checked()
                if lost >= point:
                    self.missed.add(s)
                    self.violation(cur, f"{self.t.sides[s]} has lost {lost} of {start} SP (point {point}) at the end "
                                   f"of turn {self.t.turn} but is not told exhausted")


class BothExhaustedEnd(Tracked):
    name = "when both sides have reached their Exhaustion Points the battle ends"
    clause = "Exhaustion Point: when both sides have reached their Exhaustion Point, the battle ends"

    def begin(self, ctx, first):
        self.ended_at = None
        self.reported = False

    def step(self, prev, cur, ctx):
        if self.ended_at is not None:
            self.checked()
            self.violation(cur, f"action {cur.get('n')} after the battle ended at action {self.ended_at}")
            return
        ex = set(self.t.exhausted)
        for e in events(cur, "exhausted"):
            s = self.t.side_no(e.get("side"))
            if s is not None:
                ex.add(s)
        if len(ex) >= 2 and not self.reported:
            self.checked()
            if "outcome" not in cur:
                self.reported = True
                self.violation(cur, "both sides have reached their Exhaustion Points but the battle goes on")
        if "outcome" in cur:
            self.ended_at = cur.get("n")


# =====================================================================================
# The trace's own account agrees with its pieces (not clauses: the data a reader relies on)
# =====================================================================================


class MoveData(Tracked):
    name = "each move's data agree with the pieces (from, to, facing, allowance, stop, withdrew, exhausted)"
    clause = "docs/trace.md, Itchy and Scratchy: moved"

    def step(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None:
            return
        self.checked()
        bad = []
        path = [tuple(a) for a in e.get("path") or []]
        if tuple(e.get("from") or ()) != u0.area:
            bad.append(f"from {e.get('from')} (stood at {fmt(u0.area)})")
        if tuple(e.get("to") or ()) != u1.area:
            bad.append(f"to {e.get('to')} (stands at {fmt(u1.area)})")
        if e.get("areas") != len(path):
            bad.append(f"areas {e.get('areas')} for a path of {len(path)}")
        if FACING_WORD.get(e.get("facing")) != (round(u1.facing) % 360 if u1.facing is not None else None):
            bad.append(f"facing {e.get('facing')} (piece faces {u1.facing})")
        rate = RATE.get(u0.type)
        if rate is not None:
            want = rate - (1 if self.t.attacks[u0.name] else 0)
            if e.get("allowance") != want:
                bad.append(f"allowance {e.get('allowance')} (rate {rate}, attacked: {bool(self.t.attacks[u0.name])})")
        if bool(e.get("exhausted")) != (u0.side in self.t.exhausted):
            bad.append(f"exhausted {e.get('exhausted')}")
        faced = {v.name for v in faced_by(p, u0, generals=True)}
        if e.get("withdrew"):
            if set(e.get("withdrew_from") or []) != faced:
                bad.append(f"withdrew_from {e.get('withdrew_from')} (facing it: {sorted(faced)})")
        elif faced and path:
            bad.append(f"withdrew false though faced by {sorted(faced)} and moving")
        st = e.get("stop") or {}
        cause = st.get("cause")
        near = {v.name for v in enemies(p, u0.side) if adjacent(v.area, u1.area)}
        if cause == "enemy":
            if not path or set(st.get("units") or []) != near:
                bad.append(f"stop enemy {st.get('units')} (next to {sorted(near)}, path {len(path)})")
        elif cause == "turned":
            if path:
                bad.append("stop 'turned' on a move of areas")
        elif cause == "allowance":
            if len(path) != e.get("allowance"):
                bad.append(f"stop 'allowance' after {len(path)} of {e.get('allowance')}")
        elif cause == "short":
            if not path or len(path) >= (e.get("allowance") or 0):
                bad.append(f"stop 'short' after {len(path)} of {e.get('allowance')}")
        else:
            bad.append(f"stop cause {cause!r}")
        if bad:
            self.violation(cur, f"{u0.name}'s move: " + "; ".join(bad))


class AttackData(Tracked):
    name = "each attack's data agree with the pieces (areas, facing, range, arc, sight, ground, Generals, dice, result)"
    clause = "docs/trace.md, Itchy and Scratchy: attack, lost_sp, destroyed"

    def line(self, prev, cur, ctx):
        self.t.before(cur)
        self.check(prev, cur)
        self.t.after(cur)

    def check(self, prev, cur):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        g = self.t.ground
        bad = []
        if tuple(e.get("from") or ()) != a.area:
            bad.append(f"from {e.get('from')}")
        if tuple(e.get("at") or ()) != t.area:
            bad.append(f"at {e.get('at')}")
        if FACING_WORD.get(e.get("facing")) != (round(a.facing) % 360 if a.facing is not None else None):
            bad.append(f"facing {e.get('facing')} (piece {a.facing})")
        res = e.get("resolution") or {}
        sit = res.get("situation") or {}
        r = manhattan(a.area, t.area)
        if sit.get("range") != r:
            bad.append(f"range {sit.get('range')} (counted {r})")
        if a.fvec() and e.get("off_facing") is not None and abs(e["off_facing"] - off_facing(a.fvec(), a.area, t.area)) > 0.06:
            bad.append(f"off_facing {e.get('off_facing')} (worked out {off_facing(a.fvec(), a.area, t.area):.1f})")
        cells, corners = sight(a.area, t.area)
        if [tuple(x) for x in e.get("through") or []] != cells:
            bad.append(f"through {e.get('through')} (worked out {[list(x) for x in cells]})")
        told = {frozenset(map(tuple, pr)) for pr in e.get("corners") or []}
        if told != {frozenset(pr) for pr in corners}:
            bad.append(f"corners {e.get('corners')} (worked out {[list(map(list, pr)) for pr in corners]})")
        gw = {"builtup": "built_up"}
        if e.get("ground") != gw.get(ground_of(g, a.area), ground_of(g, a.area)):
            bad.append(f"ground {e.get('ground')} ({ground_of(g, a.area)})")
        if e.get("target_ground") != gw.get(ground_of(g, t.area), ground_of(g, t.area)):
            bad.append(f"target_ground {e.get('target_ground')} ({ground_of(g, t.area)})")
        if bool(sit.get("target_in_cover")) != is_cover(g, t.area):
            bad.append(f"target_in_cover {sit.get('target_in_cover')}")
        ga = [u.name for u in at(p, a.area, a.side, a.name) if u.general]
        gt = [u.name for u in at(p, t.area, t.side, t.name) if u.general]
        if e.get("general_with_attacker") != (ga[0] if ga else None):
            bad.append(f"general_with_attacker {e.get('general_with_attacker')} ({ga})")
        if e.get("general_with_target") != (gt[0] if gt else None):
            bad.append(f"general_with_target {e.get('general_with_target')} ({gt})")
        mv = self.t.moves.get(a.name)
        if e.get("moved") != mv:
            bad.append(f"moved {e.get('moved')} (this turn: {mv})")
        if a.type in RATE and e.get("allowance") != RATE[a.type] - 1:
            bad.append(f"allowance {e.get('allowance')}")
        left = sp_of(c, t.name)
        if e.get("target_left") != left:
            bad.append(f"target_left {e.get('target_left')} (has {left})")
        gk = [n for n in gt if n not in c]
        if t.general and t.name not in c:
            # a General who is himself the target: his name or null (trace.md does not say which)
            if e.get("general_killed") not in (None, t.name):
                bad.append(f"general_killed {e.get('general_killed')} (the target General {t.name} fell)")
        elif e.get("general_killed") != (gk[0] if gk else None):
            bad.append(f"general_killed {e.get('general_killed')} ({gk})")
        lost = [x for x in events(cur, "lost_sp")]
        dest = [x.get("unit") for x in events(cur, "destroyed")]
        if left < (t.sp or 0):
            if left > 0 and not any(x.get("unit") == t.name and x.get("left") == left for x in lost):
                bad.append("no lost_sp event for the target's loss")
            if left == 0 and t.name not in dest:
                bad.append("no destroyed event for the target")
        elif lost or (t.name in dest):
            bad.append(f"lost_sp/destroyed events {lost} {dest} without a loss")
        if bad:
            self.violation(cur, f"{a.name} attacks {t.name}: " + "; ".join(bad))


# =====================================================================================
# Counts (keep = 0): distributions and the readings the text leaves open
# =====================================================================================


class Tally(Check):
    """A count check: `self.n` holds named counters, printed by `summary()`."""
    keep = 0

    def __init__(self):
        super().__init__()
        self.n = Counter()

    def summary(self):
        return [f"{k}: {round(v, 1) if isinstance(v, float) else v}"
                for k, v in sorted(self.n.items(), key=lambda kv: str(kv[0]))]

    def end(self, ctx, last):
        # the counts as the report's lines under the check (never violations)
        self.examples = self.summary()


_PRED = {}


class CountAttacks(Tally):
    name = "count: attacks by range, target and ground; hits; General kills; +2 dice; hits against the odds"
    clause = "Combat (distribution)"

    def summary(self):
        out = super().summary()
        for ag in sorted({k.split(" agent:")[0] for k in self.n if " agent:" in k}):
            v = self.n[f"{ag} agent: variance of that"]
            if v > 0:
                z = (self.n[f"{ag} agent: hits on the target"] - self.n[f"{ag} agent: hits expected by the odds"]) / math.sqrt(v)
                out.append(f"{ag} agent: hits against the odds, z = {z:.2f}")
        return out

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        r = manhattan(a.area, t.area)
        cov = "cover" if is_cover(self.ground, t.area) else "open"
        hit = sp_of(c, t.name) < (t.sp or 0)
        self.n["attacks"] += 1
        # hits against the text's odds, by the attacking side's agent: a player who could see the
        # dice before choosing would hit more often than the odds
        ags = (ctx.agents or "").split(",")
        ag = ags[a.side] if isinstance(a.side, int) and a.side < len(ags) else "?"
        nd = len([d for d in cur.get("draws") or [] if d.get("kind") == "die"])
        cv = cov == "cover"
        if t.general:
            pred = _PRED.setdefault(("general", cv), lambda d, c=cv: general_hit(d, c))
        else:
            faces = DOUBLE_FACES.get(t.type, [()])[0]
            pred = _PRED.setdefault((faces, cv), lambda d, f=faces, c=cv: unit_hit(d, f, c))
        pr = chance(nd, pred)
        self.n[f"{ag} agent: hits on the target"] += hit
        self.n[f"{ag} agent: hits expected by the odds"] += pr
        self.n[f"{ag} agent: variance of that"] += pr * (1 - pr)
        self.n[f"range {r}"] += 1
        self.n[f"target {t.type} {cov}"] += 1
        self.n[f"hit {t.type} {cov}"] += hit
        self.n["hits"] += hit
        if t.name not in c:
            self.n["target removed"] += 1
        gt = [u for u in at(p, t.area, t.side, t.name) if u.general]
        if gt:
            self.n["a General in the target's area"] += 1
            self.n["General in target's area killed"] += sum(1 for g in gt if g.name not in c)
        if t.general:
            with_him = [u for u in at(p, t.area, t.side, t.name) if not u.general]
            self.n["lone-General target" if not with_him else "General targeted though a unit shares his area"] += 1
            self.n["General target killed"] += t.name not in c
            if any(sp_of(c, u.name) < (u.sp or 0) for u in with_him):
                self.n["... and a unit with him lost SP"] += 1
        if [u for u in at(p, a.area, a.side, a.name) if u.general]:
            self.n["+2 dice for a General"] += 1
        for d in cur.get("draws") or []:
            if d.get("kind") == "die":
                self.n[f"face {d.get('value')}"] += 1


class CountDoubleReadings(Tally):
    name = "count: throws where the readings of the results differ (dismounted cavalry; several doubles; trebles)"
    clause = ("Combat, results: 'a Cavalry ... unit' (is dismounted cavalry one?); 'a double ... destroys one "
              "Strength Point' (one a throw, or one a double?); is a treble a double?")

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None or t.general:
            return
        self.checked()
        dice = [d.get("value") for d in cur.get("draws") or [] if d.get("kind") == "die"]
        cover = is_cover(self.ground, t.area)
        hit = sp_of(c, t.name) < (t.sp or 0)
        cnt = Counter(dice)
        if t.type == "dismounted cavalry":
            cav = unit_hit(dice, (2, 3), cover)
            inf = unit_hit(dice, (4, 5, 6), cover)
            if cav != inf:
                self.n["dismounted cavalry: readings differ"] += 1
                self.n["... engine followed the cavalry line" if hit == cav else "... engine followed the infantry line"] += 1
        for faces in DOUBLE_FACES.get(t.type, []):
            if hit and unit_hit(dice, faces, cover):
                k = sum(cnt[f] // 2 for f in faces)
                if not cover and k >= 2:
                    self.n["hit with 2+ qualifying doubles (1 SP lost; 'one a double' would take more)"] += 1
                if not any(cnt[f] == 2 for f in faces) and not any(cnt[f] in (2, 3) and pairs(cnt) >= 2 for f in faces) \
                        and not cover:
                    self.n["hit only through 3+ of a kind (a treble counted as a double)"] += 1
                break


class CountSharing(Tally):
    name = "count: moves ending in (or starting from) a friend's area where one is a General or transport"
    clause = ("Movement, rules: 'with the exception of a horse-drawn transport unit and commanders' (does the "
              "exception free only the transport/General that moves, or any pair with one of them?)")

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None or not e.get("path"):
            return
        self.checked()
        for when, area in (("starts", u0.area), ("ends", u1.area)):
            friends = at(p, area, u0.side, u0.name)
            if not friends:
                continue
            if u0.type in EXEMPT:
                self.n[f"a {u0.type} {when} with a friend"] += 1
            else:
                self.n[f"a {u0.type} (not exempt) {when} with only exempt friends "
                       f"({'/'.join(sorted({f.type for f in friends}))})"] += 1


class CountMoves(Tally):
    name = "count: moves (areas; stopped next to an enemy; withdrawals; paths past Generals; through enemies)"
    clause = "Movement (distribution and the readings it leaves open; the text has no terrain effect on moves)"

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = move_of(prev, cur)
        if not m:
            return
        e, u0, u1, p, c = m
        if u0 is None or u1 is None:
            return
        self.checked()
        path = [tuple(a) for a in e.get("path") or []]
        self.n[f"moves of {len(path)} areas"] += 1
        foes = enemies(p, u0.side)
        if path and any(adjacent(v.area, u1.area) for v in foes if not v.general):
            self.n["ended next to an enemy unit (stop rule)"] += 1
        if path and not any(adjacent(v.area, u1.area) for v in foes if not v.general) and \
                any(adjacent(v.area, u1.area) for v in foes if v.general):
            self.n["ended next to only an enemy General"] += 1
            if any(facing_towards(u1.area, u1.fvec(), v.area) for v in foes if v.general and adjacent(v.area, u1.area)):
                self.n["... and faced him"] += 1
        for a in path[:-1]:
            if any(adjacent(v.area, a) for v in foes if v.general) and not any(
                    adjacent(v.area, a) for v in foes if not v.general):
                self.n["went on past an area next to only an enemy General"] += 1
                break
        if any(at(p, a, 1 - u0.side) for a in path):
            self.n["path entered an enemy's area"] += 1
        for a in path:
            g = ground_of(self.ground, a)
            if g not in ("open", "bridge"):
                self.n[f"entered {g} areas"] += 1
        faced = faced_by(p, u0)
        faced_g = faced_by(p, u0, generals=True)
        if faced:
            self.n["moves by units faced by an adjacent enemy"] += 1
            self.n["... withdrew (1+ areas)" if path else "... turned on the spot"] += 1
            if not path and not any(facing_towards(u1.area, u1.fvec(), v.area) for v in faced):
                self.n["... turned on the spot, not facing the enemy facing it"] += 1
        elif faced_g:
            self.n["moves by units faced only by an adjacent enemy General"] += 1
            if path and any(manhattan(u1.area, v.area) <= 1 for v in faced_g):
                self.n["... moving, but not away from him"] += 1
        if faced_g and path:
            gfronts = {add(v.area, v.fvec()) for v in foes if v.general and v.fvec() is not None
                       and v.name not in {f.name for f in faced_g}}
            if any(a in gfronts for a in path):
                self.n["withdrawal into the area in front of another enemy General"] += 1
        if path:
            near = [v for v in foes if not v.general and adjacent(v.area, u1.area)]
            if near and not any(facing_towards(u1.area, u1.fvec(), v.area) for v in near):
                self.n["stopped next to an enemy unit, facing only an enemy General"] += 1
        if not path and u1.facing == u0.facing:
            self.n["moves of 0 areas that leave the facing as it was (the turn's move spent)"] += 1
        if not path:
            near = [v for v in foes if not v.general and adjacent(v.area, u0.area)]
            if near and not any(facing_towards(u1.area, u1.fvec(), v.area) for v in near):
                self.n["turn on the spot next to an enemy ending facing none of them"] += 1


class CountExhausted(Tally):
    name = "count: what exhausted sides do (attacks; moves nearer any enemy unit; before the turn-end check)"
    clause = ("Exhaustion Point: 'stop taking aggressive action (i.e. ... continue to fight to defend its "
              "existing position, but ... no movement towards the enemy)'; 'immediately' against the turn-end check")

    def start(self, ctx, first):
        self.t = Track(first)

    def line(self, prev, cur, ctx):
        self.t.before(cur)
        p = units(prev)
        for e in events(cur):
            tg = e.get("event")
            if tg == "attack":
                a = p.get(e.get("attacker"))
                if a is None:
                    continue
                if a.side in self.t.exhausted:
                    self.checked()
                    self.n["attacks by an exhausted side"] += 1
                elif self.reached(p, a.side):
                    self.checked()
                    self.n["attacks by a side past its point, not yet checked at a turn's end"] += 1
            if tg == "moved":
                u0 = p.get(e.get("unit"))
                u1 = units(cur).get(e.get("unit"))
                if u0 is None or u1 is None or not e.get("path"):
                    continue
                ex = u0.side in self.t.exhausted
                early = not ex and self.reached(p, u0.side)
                if not (ex or early):
                    continue
                self.checked()
                key = "exhausted side" if ex else "side past its point, not yet checked"
                self.n[f"moves by an {key}" if ex else f"moves by a {key}"] += 1
                if any(manhattan(v.area, u1.area) < manhattan(v.area, u0.area) for v in enemies(p, u0.side)):
                    self.n[f"... ({key}) ending nearer some enemy unit"] += 1
                n0, n1 = nearest(p, u0.side, u0.area), nearest(p, u0.side, u1.area)
                if n0 is not None and n1 is not None and n1 < n0:
                    self.n[f"... ({key}) ending nearer the nearest enemy"] += 1
                here = u0.area
                for a in [tuple(x) for x in e.get("path")]:
                    if nearest(p, u0.side, a) < nearest(p, u0.side, here):
                        self.n[f"... ({key}) with a step nearer the nearest enemy"] += 1
                        break
                    here = a
        self.t.after(cur)

    def reached(self, us, side):
        start = self.t.start_sp.get(side, 0)
        return start - side_sp(us, side) >= (start + 1) // 2


def standoff_runs(track, cur, runs, hit):
    """At a turn's end: the enemy pairs next to each other, each with its run of turn ends
    without an attack between them (updating `runs`, emptying `hit`)."""
    c = units(cur)
    now = {}
    us = list(c.values())
    for i, u in enumerate(us):
        for v in us[i + 1:]:
            if u.side != v.side and adjacent(u.area, v.area):
                k = frozenset((u.name, v.name))
                runs[k] = 0 if k in hit else runs.get(k, 0) + 1
                now[k] = runs[k]
    for k in list(runs):
        if k not in now:
            del runs[k]
    hit.clear()
    return now


class StandoffTold(Tracked):
    name = "the trace tells every pair of enemies side by side at 3+ turn ends running without an attack between them"
    clause = "docs/trace.md, Itchy and Scratchy: standoff (told from 3)"

    def begin(self, ctx, first):
        self.runs, self.hit = {}, set()

    def step(self, prev, cur, ctx):
        for e in events(cur, "attack"):
            self.hit.add(frozenset((e.get("attacker"), e.get("target"))))
        told = {frozenset(e.get("units") or []): e.get("turns") for e in events(cur, "standoff")}
        if self.t.turn_end(cur):
            now = standoff_runs(self.t, cur, self.runs, self.hit)
            for k, n in now.items():
                if n >= 3 or k in told:
                    self.checked()
                    if told.get(k) != n:
                        self.violation(cur, f"{' and '.join(sorted(k))}: {n} turn ends running without an attack "
                                       f"between them, told {told.get(k)}")
            for k in told:
                if k not in now:
                    self.checked()
                    self.violation(cur, f"a standoff told for {' and '.join(sorted(k))}, not next to each other")
        elif told:
            self.checked()
            self.violation(cur, "a standoff told at a line that is not a turn's end")


class CountStandoffs(Tally):
    name = "count: enemies side by side at turn ends without an attack between them (runs of turn ends)"
    clause = "Movement/Combat: the text makes no attack compulsory (a count, not a clause)"

    def start(self, ctx, first):
        self.t = Track(first)
        self.run = {}
        self.hit = set()

    def line(self, prev, cur, ctx):
        self.t.before(cur)
        c = units(cur)
        for e in events(cur, "attack"):
            self.hit.add(frozenset((e.get("attacker"), e.get("target"))))
        for e in events(cur, "standoff"):
            self.n["standoff events told"] += 1
        if self.t.turn_end(cur):
            self.checked()
            now = standoff_runs(self.t, cur, self.run, self.hit)
            for k, n in now.items():
                gen = any(c[x].general for x in k if x in c)
                self.n["adjacent enemy pairs at turn ends" + (" (one a General)" if gen else "")] += 1
                if n:
                    self.n["... with no attack between them this turn" + (" (one a General)" if gen else "")] += 1
                if n >= 3:
                    self.n["... in a run of 3+ turn ends" + (" (one a General)" if gen else "")] += 1
                self.n["longest run"] = max(self.n["longest run"], n)
        self.t.after(cur)


class CountSight(Tally):
    name = "count: lines of fire past units, past one cover area at a corner, cover to adjacent cover"
    clause = ("Combat, rules: 'direct line-of-sight' (what blocks it besides cover is not said); 'out of woods "
              "... if ... the adjacent grid area in the direction they are firing does not contain woods'")

    def start(self, ctx, first):
        self.ground = terrain_map(first)

    def line(self, prev, cur, ctx):
        m = attack_of(prev, cur)
        if not m:
            return
        e, a, t, p, c = m
        if a is None or t is None:
            return
        self.checked()
        cells, corners = sight(a.area, t.area)
        if any(at(p, x) for x in cells):
            self.n["line of fire through a unit's area"] += 1
        if any(at(p, x) for pr in corners for x in pr):
            self.n["line of fire past a unit's area at a corner"] += 1
        if any(at(p, x) and at(p, y) for x, y in corners):
            self.n["line of fire between two units' areas touching at a corner"] += 1
        if any(is_cover(self.ground, x) != is_cover(self.ground, y) for x, y in corners):
            self.n["line of fire at a corner with cover on one side only"] += 1
        if is_cover(self.ground, a.area):
            self.n["attacks out of cover"] += 1
            first_corner = corners and (not cells or manhattan(a.area, cells[0]) == 2)
            if first_corner:
                self.n["... leaving through a corner first"] += 1
                if any(is_cover(self.ground, x) for x in corners[0]):
                    self.n["... leaving through a corner with cover on one side of it"] += 1
            if manhattan(a.area, t.area) == 1 and is_cover(self.ground, t.area):
                self.n["... into adjacent cover (the 'edge' reading unclear)"] += 1
        if is_cover(self.ground, t.area):
            self.n["attacks into cover"] += 1


class CountInitiative(Tally):
    name = "count: initiative ties thrown again; the winner's choice"
    clause = "Turn Sequence 1 (a tie is not provided for)"

    def line(self, prev, cur, ctx):
        for e in events(cur, "initiative"):
            self.checked()
            self.n["initiative throws"] += 1
            self.n["ties thrown again"] += len(e.get("throws") or []) - 1
        a = cur.get("action")
        if isinstance(a, dict) and "go_first" in a:
            self.n["winner went first" if (a["go_first"] or {}).get("first") else "winner went second"] += 1


class CountEnds(Tally):
    name = "count: how the battles end; Strength Points at the start against the table"
    clause = "Exhaustion Point; Unit Strength Points (SP 'may be adjusted')"

    def start(self, ctx, first):
        for u in units(first).values():
            self.n["units at the table's SP" if START_SP.get(u.type) == u.sp else "units with adjusted SP"] += 1

    def line(self, prev, cur, ctx):
        o = cur.get("outcome")
        if o:
            self.checked()
            r = o.get("reason") or ""
            self.n["both sides exhausted" if "exhausted" in r else ("turn limit" if "turn limit" in r else r[:40])] += 1


CHECKS = [
    OnTheGrid, FacingEdge, NoEnemyShare, NoFriendShare, StrengthBook, OnlyActorChanges,
    Initiative, Halves, EachUnitInTurn, OneMove, OneAttack,
    EdgeSteps, MoveRate, StopNextToEnemy, FaceEnemyOnStop, Withdrawal, ExhaustedNoAdvance,
    AttackWeaponRange, AttackArc, AttackSight, AttackDice, AttackResult,
    ExhaustionPoint, BothExhaustedEnd,
    MoveData, AttackData, StandoffTold,
    CountAttacks, CountDoubleReadings, CountSharing, CountMoves, CountExhausted, CountStandoffs,
    CountSight, CountInitiative, CountEnds,
]
