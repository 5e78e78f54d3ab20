//! The measured table: distances in inches, points and facings, arcs, line of sight and cover.
//!
//! Conventions, used by every rule set:
//!
//! * The table's origin is its south-west corner; `x` runs east along its width, `y` north
//!   along its depth. Units are inches.
//! * A facing (a heading) is in degrees clockwise from north: 0 faces north (+y), 90 east (+x),
//!   180 south, 270 west. It is always normalised to `[0, 360)`.
//! * Trigonometry goes through `libm`, so a battle computes the same numbers on every platform.
//!
//! Terrain features are polygons (woods, town, hill, river, bridge, field, impassable ground)
//! or polylines (walls, redoubt parapets, trenches, roads). [`Table`] answers the questions the
//! rule sets ask: is a place passable, does terrain block sight between two places, and what
//! cover does a target have against fire or attack from a given place.
//!
//! [`grid`] is the square grid for grid-based rule sets: areas, edges, facings, arcs of attack and
//! the areas a line of sight crosses.
//!
//! What this crate is not: it does not know what a unit or a man is. A rule set turns its
//! figures into points and asks.
//!
//! ```
//! use volley_table::{Point, Pose, heading_to};
//! let gun = Pose::new(Point::new(10.0, 10.0), 0.0);          // facing north
//! let target = Point::new(20.0, 20.0);                        // north-east of it
//! assert!((heading_to(gun.at, target) - 45.0).abs() < 1e-9);
//! assert!(gun.sees_within(target, 45.0));
//! assert!(!gun.sees_within(Point::new(20.0, 5.0), 45.0));
//! ```
#![deny(missing_docs)]

pub mod buckets;
pub mod grid;

use std::borrow::Cow;
use std::ops::{Add, Mul, Sub};

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Serialize};

/// Tolerance for geometric comparisons, in inches or degrees.
pub const EPS: f64 = 1e-9;

/// A point on the table, in inches. Serialised as `[x, y]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(from = "[f64; 2]", into = "[f64; 2]")]
pub struct Point {
    /// Inches east of the table's west edge.
    pub x: f64,
    /// Inches north of the table's south edge.
    pub y: f64,
}

impl From<[f64; 2]> for Point {
    fn from([x, y]: [f64; 2]) -> Self {
        Point { x, y }
    }
}

impl From<Point> for [f64; 2] {
    fn from(p: Point) -> Self {
        [p.x, p.y]
    }
}

impl JsonSchema for Point {
    fn schema_name() -> Cow<'static, str> {
        "Point".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut s = <[f64; 2]>::json_schema(generator);
        s.insert("description".into(), "[x, y] in inches from the table's south-west corner".into());
        s
    }
}

impl Point {
    /// The point `(x, y)`.
    pub const fn new(x: f64, y: f64) -> Self {
        Point { x, y }
    }

    /// Distance to `o`.
    pub fn dist(self, o: Point) -> f64 {
        (self - o).len()
    }

    /// Squared distance to `o` (cheaper; for comparisons).
    pub fn dist2(self, o: Point) -> f64 {
        let d = self - o;
        d.x * d.x + d.y * d.y
    }

    /// Length of this point taken as a vector. (`sqrt` is correctly rounded by IEEE 754, so
    /// this is the same on every platform, and much cheaper than `hypot`.)
    pub fn len(self) -> f64 {
        (self.x * self.x + self.y * self.y).sqrt()
    }

    /// Dot product.
    pub fn dot(self, o: Point) -> f64 {
        self.x * o.x + self.y * o.y
    }

    /// Cross product (z component).
    pub fn cross(self, o: Point) -> f64 {
        self.x * o.y - self.y * o.x
    }

    /// The point `d` inches from here along `heading`.
    pub fn toward(self, heading: f64, d: f64) -> Point {
        self + unit(heading) * d
    }

    /// Rotate this point about `centre` by `degrees` clockwise.
    pub fn rotate_about(self, centre: Point, degrees: f64) -> Point {
        let r = degrees.to_radians();
        let (s, c) = (libm::sin(r), libm::cos(r));
        let v = self - centre;
        // Clockwise rotation in a y-up frame.
        centre + Point::new(v.x * c + v.y * s, -v.x * s + v.y * c)
    }

    /// The point a fraction `t` of the way from here to `o`.
    pub fn lerp(self, o: Point, t: f64) -> Point {
        self + (o - self) * t
    }
}

impl Add for Point {
    type Output = Point;
    fn add(self, o: Point) -> Point {
        Point::new(self.x + o.x, self.y + o.y)
    }
}

impl Sub for Point {
    type Output = Point;
    fn sub(self, o: Point) -> Point {
        Point::new(self.x - o.x, self.y - o.y)
    }
}

impl Mul<f64> for Point {
    type Output = Point;
    fn mul(self, k: f64) -> Point {
        Point::new(self.x * k, self.y * k)
    }
}

/// Normalise a heading to `[0, 360)`.
pub fn norm_heading(h: f64) -> f64 {
    let r = h % 360.0;
    let r = if r < 0.0 { r + 360.0 } else { r };
    if r >= 360.0 { 0.0 } else { r }
}

/// The signed smallest turn from heading `a` to heading `b`, in `(-180, 180]` (positive is
/// clockwise).
pub fn turn(a: f64, b: f64) -> f64 {
    let d = norm_heading(b - a);
    if d > 180.0 { d - 360.0 } else { d }
}

/// The unit vector of a heading.
pub fn unit(heading: f64) -> Point {
    let r = heading.to_radians();
    Point::new(libm::sin(r), libm::cos(r))
}

/// The outline of the sector of radius `r` about `centre`, `half_angle` degrees either side of
/// `facing` (a whole circle when `half_angle` is 180 or more), in `steps` pieces of arc.
pub fn sector(centre: Point, facing: f64, half_angle: f64, r: f64, steps: usize) -> Vec<Point> {
    let steps = steps.max(2);
    if half_angle >= 180.0 {
        return (0..steps).map(|i| centre.toward(360.0 * i as f64 / steps as f64, r)).collect();
    }
    let mut out = vec![centre];
    for i in 0..=steps {
        out.push(centre.toward(facing - half_angle + 2.0 * half_angle * i as f64 / steps as f64, r));
    }
    out
}

/// The heading from `a` towards `b` (0 if they coincide).
pub fn heading_to(a: Point, b: Point) -> f64 {
    let d = b - a;
    if d.x.abs() < EPS && d.y.abs() < EPS {
        return 0.0;
    }
    norm_heading(libm::atan2(d.x, d.y).to_degrees())
}

/// A place and a facing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Pose {
    /// Where.
    pub at: Point,
    /// Heading in degrees clockwise from north.
    pub facing: f64,
}

impl Pose {
    /// A pose at `at` facing `facing` (normalised).
    pub fn new(at: Point, facing: f64) -> Self {
        Pose { at, facing: norm_heading(facing) }
    }

    /// Whether `p` lies within `half_angle` degrees either side of the facing (a point at the
    /// pose itself counts as inside).
    pub fn sees_within(&self, p: Point, half_angle: f64) -> bool {
        if self.at.dist2(p) < EPS {
            return true;
        }
        turn(self.facing, heading_to(self.at, p)).abs() <= half_angle + EPS
    }

    /// The unit vector straight ahead.
    pub fn forward(&self) -> Point {
        unit(self.facing)
    }

    /// The unit vector to the right.
    pub fn right(&self) -> Point {
        unit(self.facing + 90.0)
    }
}

/// The front arc of a body whose front edge runs from `left` to `right` (seen from behind,
/// facing `facing`): everything ahead of the front edge's line and within a half-angle outward
/// of straight ahead from the nearer end. A single figure is the case `left == right`.
///
/// The axes and the tangent of the half-angle are worked out once, so that testing many points
/// against one arc costs no trigonometry.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FrontArc {
    /// Left end of the front edge.
    pub left: Point,
    /// Right end of the front edge.
    pub right: Point,
    /// Facing, degrees clockwise from north.
    pub facing: f64,
    fwd: Point,
    rgt: Point,
    width: f64,
    tan: f64,
}

impl FrontArc {
    /// The arc of the edge `left`–`right` facing `facing`, widening by `half_angle` degrees.
    pub fn new(left: Point, right: Point, facing: f64, half_angle: f64) -> Self {
        Self::with_axes(left, right, facing, unit(facing), unit(facing + 90.0), libm::tan(half_angle.to_radians()))
    }

    /// As [`FrontArc::new`], for a caller that already has the unit vectors ahead (`fwd`) and to
    /// the right (`rgt`) of `facing`, and the tangent of the half-angle.
    pub fn with_axes(left: Point, right: Point, facing: f64, fwd: Point, rgt: Point, tan_half_angle: f64) -> Self {
        let width = (right - left).dot(rgt).max(0.0);
        FrontArc { left, right, facing, fwd, rgt, width, tan: tan_half_angle }
    }

    /// Whether `p` lies in the arc.
    pub fn contains(&self, p: Point) -> bool {
        let d = p - self.left;
        let ahead = d.dot(self.fwd);
        if ahead < -EPS {
            return false;
        }
        let side = d.dot(self.rgt);
        // Outside the edge by `over` inches sideways; allowed up to ahead * tan(half_angle).
        let over = if side < 0.0 {
            -side
        } else if side > self.width {
            side - self.width
        } else {
            0.0
        };
        over <= ahead * self.tan + EPS
    }

    /// The values of `s` in `[0, s_max]` for which `p0 + v * s` lies in the arc: an interval,
    /// since the arc is convex (the half-planes ahead of the front edge and inside the two
    /// widening sides), or `None` if the line misses it there. The same tolerances as
    /// [`FrontArc::contains`].
    pub fn span_along(&self, p0: Point, v: Point, s_max: f64) -> Option<(f64, f64)> {
        let d = p0 - self.left;
        let (a0, a1) = (d.dot(self.fwd), v.dot(self.fwd));
        let (b0, b1) = (d.dot(self.rgt), v.dot(self.rgt));
        // Each half-plane is c0 + s * c1 >= 0.
        let planes = [
            (a0 + EPS, a1),
            (b0 + a0 * self.tan + EPS, b1 + a1 * self.tan),
            (self.width - b0 + a0 * self.tan + EPS, -b1 + a1 * self.tan),
        ];
        let (mut lo, mut hi) = (0.0, s_max);
        for (c0, c1) in planes {
            if c1.abs() < 1e-15 {
                if c0 < 0.0 {
                    return None;
                }
            } else if c1 > 0.0 {
                lo = f64::max(lo, -c0 / c1);
            } else {
                hi = f64::min(hi, -c0 / c1);
            }
        }
        (lo <= hi).then_some((lo, hi))
    }
}

/// The values of `s` in `[0, s_max]` for which `p0 + v * s` is less than `r` from `q`: an
/// interval (the roots of a quadratic), or `None`.
pub fn span_within(p0: Point, v: Point, q: Point, r: f64, s_max: f64) -> Option<(f64, f64)> {
    let w = p0 - q;
    let (a, b, c) = (v.dot(v), 2.0 * w.dot(v), w.dot(w) - r * r);
    if a < 1e-15 {
        return (c < 0.0).then_some((0.0, s_max));
    }
    let disc = b * b - 4.0 * a * c;
    if disc <= 0.0 {
        return None;
    }
    let root = disc.sqrt();
    let (lo, hi) = ((-b - root) / (2.0 * a), (-b + root) / (2.0 * a));
    let (lo, hi) = (lo.max(0.0), hi.min(s_max));
    (lo < hi).then_some((lo, hi))
}

/// Whether two convex polygons (their corners in order, either way round) overlap: share more
/// than a boundary (separating axes; touching edges do not count).
pub fn convex_overlap(a: &[Point], b: &[Point]) -> bool {
    let separated_by_edges_of = |p: &[Point], q: &[Point]| {
        (0..p.len()).any(|k| {
            let e = p[(k + 1) % p.len()] - p[k];
            let axis = Point::new(-e.y, e.x);
            let span = |poly: &[Point]| {
                poly.iter()
                    .map(|v| v.dot(axis))
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), x| (lo.min(x), hi.max(x)))
            };
            let ((alo, ahi), (blo, bhi)) = (span(p), span(q));
            let tol = 1e-9 * axis.len().max(1.0);
            ahi <= blo + tol || bhi <= alo + tol
        })
    };
    !a.is_empty() && !b.is_empty() && !separated_by_edges_of(a, b) && !separated_by_edges_of(b, a)
}

/// The values of `t` for which the convex polygon `a`, moved by `v * t`, overlaps the convex
/// polygon `b` (shares more than a boundary): an open interval, since both are convex, or `None`
/// if it never does. Exact: on each separating axis the overlap is an interval of `t`.
pub fn convex_sweep(a: &[Point], v: Point, b: &[Point]) -> Option<(f64, f64)> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY);
    let span = |poly: &[Point], axis: Point| {
        poly.iter().map(|p| p.dot(axis)).fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(x), h.max(x)))
    };
    for poly in [a, b] {
        for k in 0..poly.len() {
            let e = poly[(k + 1) % poly.len()] - poly[k];
            let axis = Point::new(-e.y, e.x);
            let tol = 1e-9 * axis.len().max(1.0);
            let ((alo, ahi), (blo, bhi)) = (span(a, axis), span(b, axis));
            let s = v.dot(axis);
            // Overlap on this axis: alo + s t < bhi - tol and ahi + s t > blo + tol.
            let (c1, c2) = (bhi - tol - alo, blo + tol - ahi);
            if s.abs() < 1e-15 {
                if !(c1 > 0.0 && c2 < 0.0) {
                    return None;
                }
            } else if s > 0.0 {
                lo = lo.max(c2 / s);
                hi = hi.min(c1 / s);
            } else {
                lo = lo.max(c1 / s);
                hi = hi.min(c2 / s);
            }
            if lo >= hi {
                return None;
            }
        }
    }
    Some((lo, hi))
}

/// The least distance between two convex polygons (0 when they overlap).
pub fn convex_distance(a: &[Point], b: &[Point]) -> f64 {
    if convex_overlap(a, b) {
        return 0.0;
    }
    let edges = |p: &[Point], q: &[Point]| {
        let mut best = f64::INFINITY;
        for k in 0..p.len() {
            let (s, e) = (p[k], p[(k + 1) % p.len()]);
            for &v in q {
                best = best.min(dist_to_segment(v, s, e));
            }
        }
        best
    };
    edges(a, b).min(edges(b, a))
}

/// Whether `p` lies in the [`FrontArc`] of the edge `left`–`right` facing `facing`, widening by
/// `half_angle` degrees.
pub fn in_front_arc(left: Point, right: Point, facing: f64, half_angle: f64, p: Point) -> bool {
    FrontArc::new(left, right, facing, half_angle).contains(p)
}

/// Distance from `p` to the segment `a`–`b`.
pub fn dist_to_segment(p: Point, a: Point, b: Point) -> f64 {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 < EPS {
        return p.dist(a);
    }
    let t = ((p - a).dot(ab) / l2).clamp(0.0, 1.0);
    p.dist(a + ab * t)
}

/// Whether segments `a`–`b` and `c`–`d` cross or touch.
pub fn segments_intersect(a: Point, b: Point, c: Point, d: Point) -> bool {
    let d1 = (b - a).cross(c - a);
    let d2 = (b - a).cross(d - a);
    let d3 = (d - c).cross(a - c);
    let d4 = (d - c).cross(b - c);
    if ((d1 > EPS && d2 < -EPS) || (d1 < -EPS && d2 > EPS)) && ((d3 > EPS && d4 < -EPS) || (d3 < -EPS && d4 > EPS)) {
        return true;
    }
    let on = |p: Point, q: Point, r: Point| dist_to_segment(r, p, q) < 1e-7;
    on(a, b, c) || on(a, b, d) || on(c, d, a) || on(c, d, b)
}

/// Where the segment `a`–`b` crosses the segment `c`–`d`, as a fraction of the way from `a` to
/// `b`; `None` if they do not cross (or are parallel).
fn crossing(a: Point, b: Point, c: Point, d: Point) -> Option<f64> {
    let (r, s) = (b - a, d - c);
    let denom = r.cross(s);
    if denom.abs() < 1e-15 {
        return None;
    }
    let t = (c - a).cross(s) / denom;
    let u = (c - a).cross(r) / denom;
    ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
}

/// Where the segment `a`–`b` crosses the outline of the polygon `poly`, as fractions of the way
/// from `a` to `b` (unsorted): cut the segment there and every piece lies wholly in or out.
pub fn polygon_crossings(a: Point, b: Point, poly: &[Point]) -> impl Iterator<Item = f64> + '_ {
    edges(poly, true).filter_map(move |(c, d)| crossing(a, b, c, d))
}

/// Whether the convex polygon `poly` (its corners in order; one point, or a segment's two ends,
/// will do) meets the region where `n · p >= c` for every half-plane `(n, c)` of `half_planes`:
/// the polygon is cut by each half-plane in turn (Sutherland–Hodgman), and whatever is left
/// meets it. A point on an edge counts as inside.
pub fn convex_meets_half_planes(poly: &[Point], half_planes: &[(Point, f64)]) -> bool {
    const EPS: f64 = 1e-9;
    let mut cur: Vec<Point> = poly.to_vec();
    let mut next = Vec::with_capacity(cur.len() + half_planes.len());
    for &(n, c) in half_planes {
        next.clear();
        let k = cur.len();
        for i in 0..k {
            let (a, b) = (cur[i], cur[(i + 1) % k]);
            let (da, db) = (n.dot(a) - c, n.dot(b) - c);
            if da >= -EPS {
                next.push(a);
            }
            // The edge a–b crosses the line: keep the crossing (a lone point's "edge" to itself
            // never crosses).
            if (da >= -EPS) != (db >= -EPS) && k > 1 {
                next.push(a.lerp(b, da / (da - db)));
            }
        }
        std::mem::swap(&mut cur, &mut next);
        if cur.is_empty() {
            return false;
        }
    }
    !cur.is_empty()
}

/// Whether `p` is inside the polygon `poly` (even-odd rule; a point on the boundary may go
/// either way).
pub fn point_in_polygon(p: Point, poly: &[Point]) -> bool {
    let mut inside = false;
    let n = poly.len();
    if n < 3 {
        return false;
    }
    let mut j = n - 1;
    for i in 0..n {
        let (a, b) = (poly[i], poly[j]);
        if (a.y > p.y) != (b.y > p.y) {
            let x = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if p.x < x {
                inside = !inside;
            }
        }
        j = i;
    }
    inside
}

/// Whether the segment `a`–`b` touches the polygon (crosses its boundary or lies inside it).
pub fn segment_meets_polygon(a: Point, b: Point, poly: &[Point]) -> bool {
    if point_in_polygon(a, poly) || point_in_polygon(b, poly) {
        return true;
    }
    edges(poly, true).any(|(c, d)| segments_intersect(a, b, c, d))
}

/// Whether the segment `a`–`b` crosses the polyline `line`.
pub fn segment_crosses_polyline(a: Point, b: Point, line: &[Point]) -> bool {
    edges(line, false).any(|(c, d)| segments_intersect(a, b, c, d))
}

/// Distance from `p` to a polyline.
pub fn dist_to_polyline(p: Point, line: &[Point]) -> f64 {
    match line {
        [] => f64::INFINITY,
        [only] => p.dist(*only),
        _ => edges(line, false).map(|(a, b)| dist_to_segment(p, a, b)).fold(f64::INFINITY, f64::min),
    }
}

fn edges(pts: &[Point], closed: bool) -> impl Iterator<Item = (Point, Point)> + '_ {
    let n = pts.len();
    let count = if closed && n >= 3 { n } else { n.saturating_sub(1) };
    (0..count).map(move |i| (pts[i], pts[(i + 1) % n]))
}

/// The kinds of terrain a scenario may place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TerrainKind {
    /// Woods: soft cover; blocks sight through it.
    Woods,
    /// A town, village or farm: soft cover; blocks sight through it.
    Town,
    /// A hill: blocks sight across it between two places off it.
    Hill,
    /// A river: impassable except where a bridge lies.
    River,
    /// A bridge: passable ground over a river.
    Bridge,
    /// Other impassable ground (a lake, a marsh the scenario forbids).
    Impassable,
    /// A field (a wheatfield, a walled field's interior): open ground, for naming objectives.
    Field,
    /// A road: open ground.
    Road,
    /// A solid wall (polyline): cover against what lies across it.
    Wall,
    /// A redoubt's parapet (polyline, closed or open at the gorge): works.
    Redoubt,
    /// A trench's parapet (polyline): works.
    Trench,
    /// A hedge, fence or ditch (polyline): a linear obstacle to cross (Old Fritz).
    Hedge,
    /// Soft ground (ploughland, water meadow): cannon ball does not bounce through it (Old Fritz).
    SoftGround,
}

impl TerrainKind {
    /// Whether this kind is drawn as a polyline (`line`) rather than an area (`polygon`).
    pub fn is_linear(self) -> bool {
        matches!(
            self,
            TerrainKind::Wall | TerrainKind::Redoubt | TerrainKind::Trench | TerrainKind::Road | TerrainKind::Hedge
        )
    }
}

/// The cover a target has against a particular attacker or gun.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cover {
    /// In the open.
    Open,
    /// Soft cover such as woods or buildings.
    Soft,
    /// Behind a solid wall.
    Wall,
    /// Behind a redoubt or in a trench.
    Works,
}

/// One terrain feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Feature {
    /// What it is.
    pub kind: TerrainKind,
    /// Its name, for messages and the map.
    pub name: String,
    /// The outline (areas) or the line (linear kinds).
    pub points: Vec<Point>,
}

/// How close (inches) a target must be to a wall or parapet that lies between it and the enemy
/// to count as behind it.
pub const BEHIND_WORKS: f64 = 2.0;

/// An axis-aligned box: `[min_x, min_y, max_x, max_y]`.
pub type Aabb = [f64; 4];

/// The bounding box of `points` (an empty box, min > max, when there are none).
pub fn bbox(points: &[Point]) -> Aabb {
    let mut b = [f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY];
    for p in points {
        // Plain comparisons: cheaper than `f64::min`, which must mind NaN.
        if p.x < b[0] {
            b[0] = p.x;
        }
        if p.y < b[1] {
            b[1] = p.y;
        }
        if p.x > b[2] {
            b[2] = p.x;
        }
        if p.y > b[3] {
            b[3] = p.y;
        }
    }
    b
}

/// A circle holding every one of `points`: the centre and half the diagonal of their bounding
/// box (not the smallest such circle, but as cheap as the box); `None` when there are none.
pub fn bounding_circle(points: impl IntoIterator<Item = Point>) -> Option<(Point, f64)> {
    let (mut lo, mut hi) = (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
    for p in points {
        lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
        hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
    }
    (lo.x <= hi.x).then(|| (lo.lerp(hi, 0.5), (hi - lo).len() / 2.0))
}

/// The `k` of `places` (index, point) nearest `here`, the lower index first between two as near,
/// kept in their given order; all of them when there are no more than `k`.
pub fn nearest(here: Point, places: impl Iterator<Item = (usize, Point)>, k: usize) -> Vec<(usize, Point)> {
    let mut all: Vec<(usize, Point)> = places.collect();
    if k == 0 {
        all.clear();
    } else if all.len() > k {
        let by_distance =
            |a: &(usize, Point), b: &(usize, Point)| here.dist2(a.1).total_cmp(&here.dist2(b.1)).then(a.0.cmp(&b.0));
        all.select_nth_unstable_by(k - 1, by_distance);
        all.truncate(k);
        all.sort_unstable_by_key(|p| p.0);
    }
    all
}

/// Whether `p` lies within `margin` of the box `b` (inside it, or outside by at most `margin`
/// along each axis).
pub fn in_box(b: &Aabb, p: Point, margin: f64) -> bool {
    p.x >= b[0] - margin && p.x <= b[2] + margin && p.y >= b[1] - margin && p.y <= b[3] + margin
}

/// Whether two boxes overlap (or touch).
pub fn boxes_meet(a: &Aabb, b: &Aabb) -> bool {
    a[0] <= b[2] + EPS && b[0] <= a[2] + EPS && a[1] <= b[3] + EPS && b[1] <= a[3] + EPS
}

/// A rectangular table with its terrain.
///
/// The features are kept with their bounding boxes, so that the questions asked thousands of
/// times a turn (is this place passable, does this line cross a wood) reject far-away features
/// at the cost of four comparisons.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// West–east extent in inches.
    pub width: f64,
    /// South–north extent in inches.
    pub depth: f64,
    features: Vec<Feature>,
    #[serde(skip)]
    boxes: Vec<Aabb>,
}

impl Table {
    /// An empty table.
    pub fn new(width: f64, depth: f64) -> Self {
        Table { width, depth, features: Vec::new(), boxes: Vec::new() }
    }

    /// Add a terrain feature.
    pub fn add(&mut self, feature: Feature) {
        self.boxes.push(bbox(&feature.points));
        self.features.push(feature);
    }

    /// The terrain features, in the order they were added.
    pub fn features(&self) -> &[Feature] {
        &self.features
    }

    fn with_boxes(&self) -> impl Iterator<Item = (&Feature, &Aabb)> {
        self.features.iter().zip(&self.boxes)
    }

    /// Whether `p` is on the table.
    pub fn contains(&self, p: Point) -> bool {
        p.x >= -EPS && p.y >= -EPS && p.x <= self.width + EPS && p.y <= self.depth + EPS
    }

    /// `p` moved onto the table if it is off it.
    pub fn clamp(&self, p: Point) -> Point {
        Point::new(p.x.clamp(0.0, self.width), p.y.clamp(0.0, self.depth))
    }

    /// Whether any river or impassable ground lies within the box `b`: when none does, every
    /// place in it that is on the table is passable.
    pub fn impassable_within(&self, b: &Aabb) -> bool {
        self.with_boxes()
            .any(|(f, fb)| matches!(f.kind, TerrainKind::River | TerrainKind::Impassable) && boxes_meet(b, fb))
    }

    /// Whether troops may stand at `p`: on the table, and not in a river or impassable ground
    /// unless on a bridge.
    pub fn passable(&self, p: Point) -> bool {
        if !self.contains(p) {
            return false;
        }
        let inside = |(f, b): (&Feature, &Aabb), kind: fn(TerrainKind) -> bool| {
            kind(f.kind) && in_box(b, p, EPS) && point_in_polygon(p, &f.points)
        };
        let blocked =
            self.with_boxes().any(|fb| inside(fb, |k| matches!(k, TerrainKind::River | TerrainKind::Impassable)));
        !blocked || self.with_boxes().any(|fb| inside(fb, |k| k == TerrainKind::Bridge))
    }

    /// Whether terrain blocks sight between `a` and `b`: woods or a town that the line passes
    /// through and that holds neither end (troops at a wood's edge see and are seen), or a hill
    /// that the line crosses while neither end is on it.
    pub fn terrain_blocks_sight(&self, a: Point, b: Point) -> bool {
        let seg = bbox(&[a, b]);
        self.with_boxes().any(|(f, fb)| {
            matches!(f.kind, TerrainKind::Woods | TerrainKind::Town | TerrainKind::Hill)
                && boxes_meet(&seg, fb)
                && !point_in_polygon(a, &f.points)
                && !point_in_polygon(b, &f.points)
                && segment_meets_polygon(a, b, &f.points)
        })
    }

    /// Whether troops can go straight from `a` to `b`: both on the table, and no point of the
    /// segment in a river or impassable ground except on a bridge. Exact: the segment is cut
    /// where it crosses the edge of any river, impassable ground or bridge, and each piece is
    /// judged by its middle, since passability cannot change within a piece.
    pub fn segment_passable(&self, a: Point, b: Point) -> bool {
        if !self.contains(a) || !self.contains(b) {
            return false;
        }
        let seg = bbox(&[a, b]);
        if !self.impassable_within(&seg) {
            return true;
        }
        let mut cuts = vec![0.0, 1.0];
        for (f, fb) in self.with_boxes() {
            if matches!(f.kind, TerrainKind::River | TerrainKind::Impassable | TerrainKind::Bridge)
                && boxes_meet(&seg, fb)
            {
                cuts.extend(polygon_crossings(a, b, &f.points));
            }
        }
        cuts.sort_by(f64::total_cmp);
        self.passable(a) && self.passable(b) && cuts.windows(2).all(|w| self.passable(a.lerp(b, (w[0] + w[1]) / 2.0)))
    }

    /// Whether `p` lies in an area of terrain of `kind` (a wood, a town, a field...).
    pub fn inside(&self, kind: TerrainKind, p: Point) -> bool {
        self.with_boxes().any(|(f, b)| f.kind == kind && in_box(b, p, EPS) && point_in_polygon(p, &f.points))
    }

    /// Whether `p` is in soft cover (woods or a town).
    pub fn in_soft_cover(&self, p: Point) -> bool {
        self.with_boxes().any(|(f, b)| {
            matches!(f.kind, TerrainKind::Woods | TerrainKind::Town)
                && in_box(b, p, EPS)
                && point_in_polygon(p, &f.points)
        })
    }

    /// The cover that a figure at `target` has against an attacker at `from`: works or a wall if
    /// one crosses the line between them within [`BEHIND_WORKS`] of the target and nearer the
    /// target than the attacker (so cover is directional: a redoubt open at the gorge gives none
    /// against fire from behind, and an attacker pressed against the far side of a wall is not
    /// behind it), else soft
    /// cover if the target stands in woods or a town, else open.
    pub fn cover(&self, target: Point, from: Point) -> Cover {
        let mut best = Cover::Open;
        for f in &self.features {
            let c = match f.kind {
                TerrainKind::Wall => Cover::Wall,
                TerrainKind::Redoubt | TerrainKind::Trench => Cover::Works,
                TerrainKind::Woods | TerrainKind::Town => {
                    if point_in_polygon(target, &f.points) {
                        best = best.max(Cover::Soft);
                    }
                    continue;
                }
                _ => continue,
            };
            let near = dist_to_polyline(target, &f.points);
            if c > best
                && near <= BEHIND_WORKS
                && near < dist_to_polyline(from, &f.points)
                && segment_crosses_polyline(from, target, &f.points)
            {
                best = c;
            }
        }
        best
    }
}

/// Walking distances over a table to an area, on a grid of square cells: the length of the
/// shortest path through passable cells (stepping to any of the eight neighbours), so that a
/// river is gone round by its bridges. Built once per scenario and area; looking a distance up
/// costs a few operations.
#[derive(Clone, Debug, PartialEq)]
pub struct DistanceField {
    cell: f64,
    cols: usize,
    rows: usize,
    dist: Vec<f64>,
}

/// A cell waiting in [`DistanceField::to_area`]'s queue, nearest first.
#[derive(PartialEq)]
struct Queued(f64, usize);

impl Eq for Queued {}

impl PartialOrd for Queued {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Queued {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        // Reversed: the binary heap pops the greatest, and we want the nearest.
        other.0.total_cmp(&self.0).then(other.1.cmp(&self.1))
    }
}

impl DistanceField {
    /// Distances to the area `outline` over `table`, on cells `cell` inches square.
    pub fn to_area(table: &Table, outline: &[Point], cell: f64) -> Self {
        let cell = cell.max(0.1);
        let cols = (table.width / cell).ceil().max(1.0) as usize;
        let rows = (table.depth / cell).ceil().max(1.0) as usize;
        let centre = |i: usize| Point::new(((i % cols) as f64 + 0.5) * cell, ((i / cols) as f64 + 0.5) * cell);
        let open: Vec<bool> = (0..cols * rows).map(|i| table.passable(centre(i))).collect();
        let mut dist = vec![f64::INFINITY; cols * rows];
        let mut queue = std::collections::BinaryHeap::new();
        for i in (0..cols * rows).filter(|&i| open[i] && point_in_polygon(centre(i), outline)) {
            dist[i] = 0.0;
            queue.push(Queued(0.0, i));
        }
        if queue.is_empty() {
            // An area smaller than a cell: start from the cell nearest its middle.
            let b = bbox(outline);
            let mid = Point::new((b[0] + b[2]) / 2.0, (b[1] + b[3]) / 2.0);
            let (c, r) = (
                (mid.x / cell).floor().clamp(0.0, (cols - 1) as f64),
                (mid.y / cell).floor().clamp(0.0, (rows - 1) as f64),
            );
            let i = r as usize * cols + c as usize;
            dist[i] = 0.0;
            queue.push(Queued(0.0, i));
        }
        const STEPS: [(isize, isize, f64); 8] = [
            (1, 0, 1.0),
            (-1, 0, 1.0),
            (0, 1, 1.0),
            (0, -1, 1.0),
            (1, 1, std::f64::consts::SQRT_2),
            (1, -1, std::f64::consts::SQRT_2),
            (-1, 1, std::f64::consts::SQRT_2),
            (-1, -1, std::f64::consts::SQRT_2),
        ];
        while let Some(Queued(d, i)) = queue.pop() {
            if d > dist[i] {
                continue;
            }
            let (c, r) = ((i % cols) as isize, (i / cols) as isize);
            for (dc, dr, cost) in STEPS {
                let (nc, nr) = (c + dc, r + dr);
                if nc < 0 || nr < 0 || nc >= cols as isize || nr >= rows as isize {
                    continue;
                }
                let j = nr as usize * cols + nc as usize;
                let nd = d + cost * cell;
                if open[j] && nd < dist[j] {
                    dist[j] = nd;
                    queue.push(Queued(nd, j));
                }
            }
        }
        DistanceField { cell, cols, rows, dist }
    }

    /// The walking distance from `p` (clamped to the table) to the area: that of the cell
    /// holding `p`, plus the way from `p` to the cell's centre. Infinity if no path reaches it.
    pub fn at(&self, p: Point) -> f64 {
        let c = ((p.x / self.cell).floor().max(0.0) as usize).min(self.cols - 1);
        let r = ((p.y / self.cell).floor().max(0.0) as usize).min(self.rows - 1);
        let centre = Point::new((c as f64 + 0.5) * self.cell, (r as f64 + 0.5) * self.cell);
        let d = self.dist[r * self.cols + c];
        if d == 0.0 { 0.0 } else { d + p.dist(centre) }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_convex_shape_meets_half_planes_only_where_part_of_it_lies_in_all_of_them() {
        // The strip 0 <= x <= 2, y >= 1 (a corridor running north from y = 1).
        let strip = [(Point::new(1.0, 0.0), 0.0), (Point::new(-1.0, 0.0), -2.0), (Point::new(0.0, 1.0), 1.0)];
        let sq = |x: f64, y: f64, s: f64| {
            [Point::new(x, y), Point::new(x + s, y), Point::new(x + s, y + s), Point::new(x, y + s)]
        };
        assert!(convex_meets_half_planes(&sq(0.5, 2.0, 1.0), &strip), "wholly inside");
        assert!(convex_meets_half_planes(&sq(-3.0, 2.0, 10.0), &strip), "wider than the strip: no corner inside");
        assert!(!convex_meets_half_planes(&sq(3.0, 2.0, 1.0), &strip), "beside it");
        assert!(!convex_meets_half_planes(&sq(0.5, -2.0, 1.0), &strip), "short of it");
        assert!(convex_meets_half_planes(&sq(2.0, 2.0, 1.0), &strip), "touching its edge");
        // A diamond whose corners all lie outside, across the strip's corner.
        let diamond = [Point::new(-1.0, 1.5), Point::new(0.5, 0.0), Point::new(2.0, 1.5), Point::new(0.5, 3.0)];
        assert!(convex_meets_half_planes(&diamond, &strip));
        // A point, and a segment crossing the strip with both ends outside.
        assert!(convex_meets_half_planes(&[Point::new(1.0, 5.0)], &strip));
        assert!(!convex_meets_half_planes(&[Point::new(1.0, 0.5)], &strip));
        assert!(convex_meets_half_planes(&[Point::new(-1.0, 3.0), Point::new(4.0, 3.0)], &strip));
        assert!(!convex_meets_half_planes(&[Point::new(-1.0, 0.0), Point::new(4.0, 0.0)], &strip));
    }

    use super::*;

    #[test]
    fn the_nearest_places_are_kept_in_their_order() {
        let places = [
            (0, Point::new(9.0, 0.0)),
            (1, Point::new(1.0, 0.0)),
            (2, Point::new(5.0, 0.0)),
            (3, Point::new(1.0, 0.0)),
        ];
        let here = Point::new(0.0, 0.0);
        let near = |k| nearest(here, places.iter().copied(), k).iter().map(|p| p.0).collect::<Vec<_>>();
        assert_eq!(near(2), [1, 3]);
        assert_eq!(near(3), [1, 2, 3]);
        assert_eq!(near(9), [0, 1, 2, 3]);
        assert!(near(0).is_empty());
        // Between two as near, the lower index.
        assert_eq!(near(1), [1]);
    }

    use proptest::prelude::*;

    fn pt() -> impl Strategy<Value = Point> {
        (-100.0f64..100.0, -100.0f64..100.0).prop_map(|(x, y)| Point::new(x, y))
    }

    #[test]
    fn headings_follow_the_compass() {
        let o = Point::new(0.0, 0.0);
        assert!((heading_to(o, Point::new(0.0, 5.0)) - 0.0).abs() < 1e-9);
        assert!((heading_to(o, Point::new(5.0, 0.0)) - 90.0).abs() < 1e-9);
        assert!((heading_to(o, Point::new(0.0, -5.0)) - 180.0).abs() < 1e-9);
        assert!((heading_to(o, Point::new(-5.0, 0.0)) - 270.0).abs() < 1e-9);
        assert_eq!(turn(350.0, 10.0), 20.0);
        assert_eq!(turn(10.0, 350.0), -20.0);
    }

    #[test]
    fn convex_polygons_overlap_unless_an_axis_separates_them() {
        let sq = |x: f64, y: f64, r: f64| {
            vec![Point::new(x - r, y - r), Point::new(x + r, y - r), Point::new(x + r, y + r), Point::new(x - r, y + r)]
        };
        assert!(convex_overlap(&sq(0.0, 0.0, 1.0), &sq(1.5, 0.5, 1.0)));
        assert!(!convex_overlap(&sq(0.0, 0.0, 1.0), &sq(2.0, 0.0, 1.0)), "touching edges only");
        assert!(!convex_overlap(&sq(0.0, 0.0, 1.0), &sq(3.0, 3.0, 1.0)));
        // A diamond beside a square's corner: the diamond's own edges separate them.
        let diamond = vec![Point::new(2.2, 2.2), Point::new(3.0, 1.4), Point::new(3.8, 2.2), Point::new(3.0, 3.0)];
        assert!(!convex_overlap(&sq(0.0, 0.0, 1.0), &diamond));
        let diamond = vec![Point::new(0.5, 0.5), Point::new(1.5, -0.5), Point::new(2.5, 0.5), Point::new(1.5, 1.5)];
        assert!(convex_overlap(&sq(0.0, 0.0, 1.0), &diamond));
        assert_eq!(convex_distance(&sq(0.0, 0.0, 1.0), &diamond), 0.0);
        assert!((convex_distance(&sq(0.0, 0.0, 1.0), &sq(4.0, 0.5, 1.0)) - 2.0).abs() < 1e-12);
        assert!((convex_distance(&sq(0.0, 0.0, 1.0), &sq(4.0, 4.0, 1.0)) - 2.0 * 2f64.sqrt()).abs() < 1e-12);
        // Swept: a unit square moving east along y = 0 meets one centred at (5, 0.5) from t = 3
        // to t = 7, and misses one at (5, 3).
        let (lo, hi) = convex_sweep(&sq(0.0, 0.0, 1.0), Point::new(1.0, 0.0), &sq(5.0, 0.5, 1.0)).unwrap();
        assert!((lo - 3.0).abs() < 1e-6 && (hi - 7.0).abs() < 1e-6, "{lo} {hi}");
        assert!(convex_sweep(&sq(0.0, 0.0, 1.0), Point::new(1.0, 0.0), &sq(5.0, 3.0, 1.0)).is_none());
        // It agrees with the overlap test along the way.
        let (a, b, v) = (sq(0.0, 0.0, 1.0), diamond.clone(), Point::new(0.3, -0.2));
        let iv = convex_sweep(&a, v, &b);
        for k in -40..40 {
            let t = f64::from(k) * 0.25;
            let moved: Vec<Point> = a.iter().map(|&p| p + v * t).collect();
            let inside = iv.is_some_and(|(lo, hi)| t > lo + 1e-6 && t < hi - 1e-6);
            let near_edge = iv.is_some_and(|(lo, hi)| (t - lo).abs() < 1e-6 || (t - hi).abs() < 1e-6);
            if !near_edge {
                assert_eq!(convex_overlap(&moved, &b), inside, "t = {t}");
            }
        }
    }

    #[test]
    fn front_arc_of_a_line_widens_at_45_degrees() {
        // A front edge 10" wide facing north, from (0,0) to (10,0).
        let (l, r) = (Point::new(0.0, 0.0), Point::new(10.0, 0.0));
        assert!(in_front_arc(l, r, 0.0, 45.0, Point::new(5.0, 3.0)));
        assert!(in_front_arc(l, r, 0.0, 45.0, Point::new(-2.9, 3.0)));
        assert!(!in_front_arc(l, r, 0.0, 45.0, Point::new(-3.1, 3.0)));
        assert!(!in_front_arc(l, r, 0.0, 45.0, Point::new(5.0, -1.0)), "behind is not in front");
    }

    #[test]
    fn rivers_are_impassable_except_on_bridges() {
        let mut t = Table::new(96.0, 60.0);
        t.add(Feature {
            kind: TerrainKind::River,
            name: "Protz".into(),
            points: vec![Point::new(0.0, 28.0), Point::new(96.0, 28.0), Point::new(96.0, 32.0), Point::new(0.0, 32.0)],
        });
        t.add(Feature {
            kind: TerrainKind::Bridge,
            name: "bridge".into(),
            points: vec![
                Point::new(40.0, 27.0),
                Point::new(44.0, 27.0),
                Point::new(44.0, 33.0),
                Point::new(40.0, 33.0),
            ],
        });
        assert!(!t.passable(Point::new(10.0, 30.0)));
        assert!(t.passable(Point::new(42.0, 30.0)));
        assert!(t.passable(Point::new(10.0, 20.0)));
        assert!(!t.passable(Point::new(-1.0, 20.0)));
    }

    #[test]
    fn woods_block_sight_through_but_not_out_of_the_edge() {
        let mut t = Table::new(96.0, 60.0);
        t.add(Feature {
            kind: TerrainKind::Woods,
            name: "wood".into(),
            points: vec![
                Point::new(40.0, 20.0),
                Point::new(50.0, 20.0),
                Point::new(50.0, 30.0),
                Point::new(40.0, 30.0),
            ],
        });
        assert!(t.terrain_blocks_sight(Point::new(30.0, 25.0), Point::new(60.0, 25.0)));
        assert!(!t.terrain_blocks_sight(Point::new(30.0, 25.0), Point::new(45.0, 25.0)));
        assert!(!t.terrain_blocks_sight(Point::new(30.0, 10.0), Point::new(60.0, 10.0)));
        assert_eq!(t.cover(Point::new(45.0, 25.0), Point::new(30.0, 25.0)), Cover::Soft);
    }

    #[test]
    fn works_give_cover_only_against_fire_across_them() {
        let mut t = Table::new(96.0, 60.0);
        t.add(Feature {
            kind: TerrainKind::Redoubt,
            name: "east redoubt".into(),
            // A lunette open to the north (its gorge).
            points: vec![
                Point::new(40.0, 31.0),
                Point::new(40.0, 30.0),
                Point::new(50.0, 30.0),
                Point::new(50.0, 31.0),
            ],
        });
        let defender = Point::new(45.0, 31.0);
        assert_eq!(t.cover(defender, Point::new(45.0, 20.0)), Cover::Works);
        assert_eq!(t.cover(defender, Point::new(45.0, 40.0)), Cover::Open, "fire from the gorge");
        assert_eq!(t.cover(Point::new(45.0, 36.0), Point::new(45.0, 20.0)), Cover::Open, "too far behind");
    }

    #[test]
    fn walking_distances_go_round_a_river_by_its_bridge() {
        let mut t = Table::new(40.0, 40.0);
        t.add(Feature {
            kind: TerrainKind::River,
            name: "river".into(),
            points: vec![Point::new(0.0, 18.0), Point::new(40.0, 18.0), Point::new(40.0, 22.0), Point::new(0.0, 22.0)],
        });
        t.add(Feature {
            kind: TerrainKind::Bridge,
            name: "bridge".into(),
            points: vec![
                Point::new(30.0, 17.0),
                Point::new(34.0, 17.0),
                Point::new(34.0, 23.0),
                Point::new(30.0, 23.0),
            ],
        });
        let goal = [Point::new(8.0, 30.0), Point::new(12.0, 30.0), Point::new(12.0, 34.0), Point::new(8.0, 34.0)];
        let f = DistanceField::to_area(&t, &goal, 1.0);
        assert_eq!(f.at(Point::new(10.0, 32.0)), 0.0, "inside the area");
        // From (10, 10), straight north is 20" but the river is in the way: the walk goes by the
        // bridge at x = 32, about 24 + 23 = 47" (the grid's eight directions add a little).
        let d = f.at(Point::new(10.0, 10.0));
        assert!((45.0..52.0).contains(&d), "{d}");
        // On the far bank, nothing is in the way.
        let d = f.at(Point::new(10.0, 25.0));
        assert!((4.0..7.0).contains(&d), "{d}");
        // Without a bridge there is no way across.
        let mut closed = Table::new(40.0, 40.0);
        closed.add(t.features()[0].clone());
        assert!(DistanceField::to_area(&closed, &goal, 1.0).at(Point::new(10.0, 10.0)).is_infinite());
    }

    proptest! {
        #[test]
        fn a_segment_is_passable_exactly_when_every_point_of_it_is(a in pt(), b in pt()) {
            let mut t = Table::new(200.0, 200.0);
            let (a, b) = (a + Point::new(100.0, 100.0), b + Point::new(100.0, 100.0));
            t.add(Feature { kind: TerrainKind::River, name: "r".into(), points: vec![Point::new(0.0, 90.0), Point::new(200.0, 95.0), Point::new(200.0, 105.0), Point::new(0.0, 110.0)] });
            t.add(Feature { kind: TerrainKind::Bridge, name: "b".into(), points: vec![Point::new(80.0, 85.0), Point::new(95.0, 85.0), Point::new(95.0, 115.0), Point::new(80.0, 115.0)] });
            t.add(Feature { kind: TerrainKind::Impassable, name: "lake".into(), points: vec![Point::new(130.0, 130.0), Point::new(160.0, 140.0), Point::new(140.0, 170.0)] });
            let sampled = (0..=2000).all(|i| t.passable(a.lerp(b, f64::from(i) / 2000.0)));
            let exact = t.segment_passable(a, b);
            // Where they disagree, the segment clips a sliver too thin for 2000 samples: a much
            // finer look must find it.
            if exact != sampled {
                prop_assert!(!exact, "exact passable but a sample is not: {:?} {:?}", a, b);
                let fine = (0..=2_000_000).all(|i| t.passable(a.lerp(b, f64::from(i) / 2_000_000.0)));
                prop_assert!(!fine, "exact says blocked, but no point is: {:?} {:?}", a, b);
            }
        }

        #[test]
        fn an_arc_span_agrees_with_contains(
            h in 0.0f64..360.0, w in 0.0f64..10.0, gun in proptest::bool::ANY,
            p0 in pt(), dir in 0.0f64..360.0, len in 0.5f64..20.0,
        ) {
            let left = Point::new(3.0, -2.0);
            let arc = FrontArc::new(left, left + unit(h + 90.0) * w, h, if gun { 45.0 } else { 0.0 });
            let v = unit(dir);
            let span = arc.span_along(p0, v, len);
            for i in 0..=200 {
                let s = len * f64::from(i) / 200.0;
                let inside = arc.contains(p0 + v * s);
                match span {
                    // Away from the ends of the span (rounding), membership agrees.
                    Some((lo, hi)) if s > lo + 1e-6 && s < hi - 1e-6 => prop_assert!(inside, "s {s} in {lo}..{hi}"),
                    Some((lo, hi)) if s < lo - 1e-6 || s > hi + 1e-6 => prop_assert!(!inside, "s {s} outside {lo}..{hi}"),
                    None => prop_assert!(!inside, "s {s}: no span"),
                    _ => {}
                }
            }
        }

        #[test]
        fn a_distance_span_agrees_with_distances(p0 in pt(), dir in 0.0f64..360.0, q in pt(), r in 0.5f64..30.0) {
            let v = unit(dir);
            let span = span_within(p0, v, q, r, 50.0);
            for i in 0..=200 {
                let s = 50.0 * f64::from(i) / 200.0;
                let d = (p0 + v * s).dist(q);
                match span {
                    Some((lo, hi)) if s > lo + 1e-6 && s < hi - 1e-6 => prop_assert!(d < r + 1e-9),
                    Some((lo, hi)) if s < lo - 1e-6 || s > hi + 1e-6 => prop_assert!(d >= r - 1e-9),
                    None => prop_assert!(d >= r - 1e-9),
                    _ => {}
                }
            }
        }

        #[test]
        fn a_bounding_circle_holds_its_points(ps in proptest::collection::vec(pt(), 0..20)) {
            match bounding_circle(ps.iter().copied()) {
                None => prop_assert!(ps.is_empty()),
                Some((c, r)) => {
                    for p in &ps {
                        prop_assert!(c.dist(*p) <= r + 1e-9, "{:?} outside ({:?}, {})", p, c, r);
                    }
                    // No bigger than the box's half-diagonal: two points at least r apart on
                    // each axis' extremes.
                    let b = bbox(&ps);
                    prop_assert!((r - Point::new(b[2] - b[0], b[3] - b[1]).len() / 2.0).abs() < 1e-9);
                }
            }
        }

        #[test]
        fn distance_is_a_metric(a in pt(), b in pt(), c in pt()) {
            prop_assert!((a.dist(b) - b.dist(a)).abs() < 1e-9);
            prop_assert!(a.dist(c) <= a.dist(b) + b.dist(c) + 1e-9);
            prop_assert!(a.dist(a) == 0.0);
        }

        #[test]
        fn rotation_keeps_distances(a in pt(), b in pt(), c in pt(), deg in -720.0f64..720.0) {
            let (ra, rb) = (a.rotate_about(c, deg), b.rotate_about(c, deg));
            prop_assert!((ra.dist(rb) - a.dist(b)).abs() < 1e-6);
        }

        #[test]
        fn rotating_a_heading_vector_adds_to_the_heading(h in 0.0f64..360.0, deg in -180.0f64..180.0) {
            let o = Point::new(0.0, 0.0);
            let p = o.toward(h, 10.0).rotate_about(o, deg);
            prop_assert!(turn(heading_to(o, p), norm_heading(h + deg)).abs() < 1e-6);
        }

        #[test]
        fn turn_is_antisymmetric_and_bounded(a in -1000.0f64..1000.0, b in -1000.0f64..1000.0) {
            let t = turn(a, b);
            prop_assert!(t > -180.0 - 1e-9 && t <= 180.0 + 1e-9);
            prop_assert!((norm_heading(a + t) - norm_heading(b)).abs() < 1e-6
                || (norm_heading(a + t) - norm_heading(b)).abs() > 360.0 - 1e-6);
        }

        #[test]
        fn a_point_straight_ahead_is_in_the_front_arc(h in 0.0f64..360.0, d in 0.1f64..50.0, w in 0.0f64..20.0) {
            let left = Point::new(5.0, 5.0);
            let right = left + unit(h + 90.0) * w;
            let mid = left.lerp(right, 0.5);
            prop_assert!(in_front_arc(left, right, h, 45.0, mid.toward(h, d)));
            prop_assert!(!in_front_arc(left, right, h, 45.0, mid.toward(h + 180.0, d)));
        }

        #[test]
        fn a_segment_from_inside_meets_its_polygon(x in 1.0f64..9.0, y in 1.0f64..9.0, b in pt()) {
            let sq = [Point::new(0.0, 0.0), Point::new(10.0, 0.0), Point::new(10.0, 10.0), Point::new(0.0, 10.0)];
            prop_assert!(point_in_polygon(Point::new(x, y), &sq));
            prop_assert!(segment_meets_polygon(Point::new(x, y), b, &sq));
        }
    }
}
