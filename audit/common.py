"""What the rule sets' audit checks share: the check's base class, reading traces, geometry.

Standard library only. Coordinates and footprints are as `docs/trace.md` gives them."""

import json
import math

# ----- checks -----


class Check:
    """One clause checked over battles. Subclasses set `name` and `clause` and override
    `line` (and, for checks over a whole battle, `start` and `end`)."""

    name = "unnamed"
    clause = ""
    #: how many violations to keep as examples
    keep = 5

    def __init__(self):
        self.count = 0
        self.violations = 0
        self.examples = []
        self.ctx = None

    def checked(self, n=1):
        self.count += n

    def violation(self, line, what):
        self.violations += 1
        if len(self.examples) < self.keep:
            c = self.ctx
            where = f"{c.scenario} seed {c.seed} {c.agents}" if c else "?"
            n = line.get("n") if isinstance(line, dict) else None
            self.examples.append(f"{where}, action {n}: {what}")

    def start(self, ctx, first):
        """Called with line 0 (the table) before the first action."""

    def line(self, prev, cur, ctx):
        """Called for every action: `prev` the line before it, `cur` the line after it."""

    def end(self, ctx, last):
        """Called after the battle's last line."""


class Context:
    """The battle a check is looking at."""

    def __init__(self, first, scenario="?", seed=None, agents="?"):
        self.table = first.get("table", {})
        self.scenario = scenario
        self.seed = seed
        self.agents = agents


def run_trace(lines, checks, scenario="?", seed=None, agents="?"):
    """Feed the trace `lines` (an iterable of dicts, line 0 first) to every check."""
    it = iter(lines)
    first = next(it)
    ctx = Context(first, scenario, seed, agents)
    for c in checks:
        c.ctx = ctx
        c.start(ctx, first)
    prev = first
    for cur in it:
        for c in checks:
            c.line(prev, cur, ctx)
        prev = cur
    for c in checks:
        c.end(ctx, prev)


def read_trace(path):
    """The lines of a trace file, one dict at a time."""
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


# ----- reading lines -----


def events(line, tag=None):
    """The line's events' data (each a dict with `text` added), or those whose tag (`event` or
    `kind`) is `tag`."""
    out = []
    for e in line.get("events", []):
        d = dict(e.get("data") or {})
        d.setdefault("text", e.get("text", ""))
        t = d.get("event", d.get("kind"))
        if tag is None or t == tag:
            out.append(d)
    return out


def tag(event):
    """An event's tag."""
    return event.get("event", event.get("kind"))


def pieces_by_unit(line):
    """The line's pieces grouped by unit name: {unit: [piece, ...]}."""
    out = {}
    for p in line.get("pieces", []):
        out.setdefault(p.get("unit"), []).append(p)
    return out


def action_kind(line):
    """The action's name (its JSON's first key, or the text for a bare action)."""
    a = line.get("action")
    if isinstance(a, dict):
        return next(iter(a), None)
    return a


# ----- geometry (x east, y north; headings in degrees clockwise from north) -----


def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def heading_vec(h):
    r = math.radians(h)
    return (math.sin(r), math.cos(r))


def heading_to(a, b):
    return math.degrees(math.atan2(b[0] - a[0], b[1] - a[1])) % 360.0


def turn(a, b):
    """The signed turn from heading a to heading b, in (-180, 180]."""
    d = (b - a) % 360.0
    return d - 360.0 if d > 180.0 else d


def footprint_points(fp, circle_sides=12):
    """A footprint as a polygon (a circle as a regular polygon around it)."""
    if fp["shape"] == "circle":
        (x, y), r = fp["at"], fp["r"]
        return [(x + r * math.sin(2 * math.pi * k / circle_sides), y + r * math.cos(2 * math.pi * k / circle_sides))
                for k in range(circle_sides)]
    return [tuple(p) for p in fp["points"]]


def centre(fp):
    if fp["shape"] == "circle":
        return tuple(fp["at"])
    pts = fp["points"]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def point_in_polygon(p, poly):
    inside = False
    n = len(poly)
    j = n - 1
    for i in range(n):
        (xi, yi), (xj, yj) = poly[i], poly[j]
        if (yi > p[1]) != (yj > p[1]):
            x = xi + (p[1] - yi) * (xj - xi) / (yj - yi)
            if p[0] < x:
                inside = not inside
        j = i
    return inside


def seg_dist(p, a, b):
    """Distance from point p to segment a-b."""
    vx, vy = b[0] - a[0], b[1] - a[1]
    L = vx * vx + vy * vy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / L))
    return dist(p, (a[0] + t * vx, a[1] + t * vy))


def segments_cross(a, b, c, d):
    def orient(p, q, r):
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])
    o1, o2, o3, o4 = orient(a, b, c), orient(a, b, d), orient(c, d, a), orient(c, d, b)
    return (o1 > 0) != (o2 > 0) and (o3 > 0) != (o4 > 0)


def polygon_distance(p, q):
    """Least distance between two polygons (0 when they overlap or touch)."""
    if polygons_overlap(p, q):
        return 0.0
    best = math.inf
    for poly, other in ((p, q), (q, p)):
        for v in poly:
            for i in range(len(other)):
                best = min(best, seg_dist(v, other[i], other[(i + 1) % len(other)]))
    return best


def polygons_overlap(p, q, eps=1e-9):
    """Whether two simple polygons share some area (or one lies in the other)."""
    for i in range(len(p)):
        for j in range(len(q)):
            if segments_cross(p[i], p[(i + 1) % len(p)], q[j], q[(j + 1) % len(q)]):
                return True
    return point_in_polygon(p[0], q) or point_in_polygon(q[0], p)


def overlap_depth(p, q):
    """How far two convex polygons overlap: the least push that separates them (0 if apart),
    by the separating-axis test."""
    depth = math.inf
    for poly in (p, q):
        for i in range(len(poly)):
            a, b = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = b[1] - a[1], a[0] - b[0]
            L = math.hypot(nx, ny)
            if L == 0:
                continue
            nx, ny = nx / L, ny / L
            pa = [v[0] * nx + v[1] * ny for v in p]
            qa = [v[0] * nx + v[1] * ny for v in q]
            o = min(max(pa), max(qa)) - max(min(pa), min(qa))
            if o <= 0:
                return 0.0
            depth = min(depth, o)
    return 0.0 if depth == math.inf else depth
