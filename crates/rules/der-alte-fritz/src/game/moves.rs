//! Movement on the table: rates and what halves them, terrain, bodies that may not pass through
//! each other, charges' reach, and the moves units must make (routs, falling back, pursuits).

use volley_core::Illegal;
use volley_scenario::places::compass;
use volley_table::{
    Point, TerrainKind, convex_distance, convex_overlap, convex_sweep, heading_to, norm_heading, point_in_polygon,
    polygon_crossings, segment_crosses_polyline, turn, unit as heading_unit,
};

use super::Battle;
use crate::model::{
    CONTACT_GAP, Formation, MIN_LINE_STANDS, OBLIQUE, OBLIQUE_LESS, STRAIGHT, State, TURN_TOLERANCE, formations, rate,
};
use crate::units::Arm;

/// Refuse with the reason in words when `$explain`, else with none (the candidates' quick checks
/// need only the verdict).
macro_rules! fail {
    ($explain:expr, $($arg:tt)*) => {
        return Err(Illegal::new(if $explain { format!($($arg)*) } else { String::new() }))
    };
}

/// Degrees of rounding allowed at the bounds of a move's direction: a move worked out to be 45°
/// off the front (to a place given to a hundredth of an inch) is an oblique, not sideways.
const ANGLE_SLACK: f64 = 1e-6;

/// How far apart a charger stops from its target: in contact for the melee, never on it.
pub const CHARGE_HAIR: f64 = 0.02;

/// A legal move, worked out.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveCheck {
    /// Inches it goes.
    pub distance: f64,
    /// What the path costs (rough ground counted double, very rough four times).
    pub cost: f64,
    /// What it may spend.
    pub allowance: f64,
    /// The move in words, with every term of its allowance.
    pub text: String,
}

impl MoveCheck {
    /// Whether the unit went anywhere (a change of formation or facing in place is no move).
    pub fn moved(&self) -> bool {
        self.distance > 1e-9
    }
}

/// What a unit may spend on a move, before terrain.
#[derive(Clone, Debug, PartialEq)]
pub struct Allowance {
    /// Inches.
    pub allowance: f64,
    /// Every term of it, in words.
    pub terms: Vec<String>,
    /// It changes facing.
    pub turned: bool,
    /// It changes formation.
    pub reformed: bool,
}

/// A charge's path, worked out.
#[derive(Clone, Debug, PartialEq)]
pub struct ChargePath {
    /// Where the charger's centre ends, touching its target.
    pub to: Point,
    /// Its facing: towards the target.
    pub facing: f64,
    /// What the path costs.
    pub cost: f64,
    /// Its reach: the formation's rate and the charge bonus, halved if it is shaken and again if
    /// it turns to face its target.
    pub reach: f64,
    /// Degrees it turns to face its target (0: straight ahead, its front meets the target, or
    /// obliquely).
    pub turned: f64,
    /// Degrees off its front it goes obliquely, keeping its facing (a side with the oblique, in
    /// column or line: its rate less 2" and the bonus); 0: not obliquely.
    pub oblique: f64,
    /// It comes at the target's flank or rear: from behind the line of the target's front edge.
    pub flank: bool,
}

/// How far a body goes on a move's allowance along a way, over the ground: see
/// [`Battle::reach_along`].
#[derive(Clone, Debug, PartialEq)]
pub struct Reach {
    /// Inches it goes.
    pub distance: f64,
    /// The ground that slowed it, in words: each rough area it goes into and each linear
    /// obstacle it crosses or stops at.
    pub terrain: Vec<String>,
}

/// A move a unit had to make (a rout, falling back, a retreat, a pursuit), as it went.
#[derive(Clone, Debug, PartialEq)]
pub struct ForcedMove {
    /// Where its centre was.
    pub from: Point,
    /// Where its centre ended (on the table's edge if it left the table).
    pub to: Point,
    /// It left the table.
    pub off: bool,
    /// Inches ordered (its rout move, a column move, 24").
    pub ordered: f64,
    /// Inches gone.
    pub done: f64,
    /// The ground that slowed it, in words.
    pub terrain: Vec<String>,
    /// What stopped it short, if anything did besides the ground.
    pub stopped: Option<String>,
}

/// How much going over `p` costs an inch: 1 open, 2 rough (woods, towns, soft ground), 4 very
/// rough (any area the scenario names in `[rules] very_rough`). Linear obstacles are counted
/// apart; impassable ground is not entered at all.
fn going(b: &Battle, p: Point) -> f64 {
    going_where(b, p).0
}

/// [`going`], with the area that costs it (the dearest one `p` lies in).
fn going_where(b: &Battle, p: Point) -> (f64, Option<usize>) {
    let st = b.stat();
    let mut k: (f64, Option<usize>) = (1.0, None);
    for (i, f) in st.table.features().iter().enumerate() {
        let m = if st.very_rough.contains(&i) {
            4.0
        } else {
            match f.kind {
                TerrainKind::Woods | TerrainKind::Town | TerrainKind::SoftGround => 2.0,
                _ => continue,
            }
        };
        if m > k.0 && point_in_polygon(p, &f.points) {
            k = (m, Some(i));
        }
    }
    k
}

/// Whether a terrain feature is a linear obstacle, which halves a move that crosses it.
fn obstacle(kind: TerrainKind) -> bool {
    matches!(kind, TerrainKind::Hedge | TerrainKind::Wall | TerrainKind::Trench | TerrainKind::Redoubt)
}

/// Where the segment `a`–`b` first crosses the polyline `line`, as a fraction of the way.
fn first_crossing(a: Point, b: Point, line: &[Point]) -> Option<f64> {
    line.windows(2)
        .filter_map(|w| {
            let (r, s) = (b - a, w[1] - w[0]);
            let denom = r.cross(s);
            if denom.abs() < 1e-15 {
                return None;
            }
            let t = (w[0] - a).cross(s) / denom;
            let u = (w[0] - a).cross(r) / denom;
            ((0.0..=1.0).contains(&t) && (0.0..=1.0).contains(&u)).then_some(t)
        })
        .min_by(f64::total_cmp)
}

/// The cost of going straight from `a` to `b` (rough ground double), and whether the way crosses
/// a linear obstacle (a hedge, wall, trench or parapet).
pub fn path_cost(b: &Battle, from: Point, to: Point) -> (f64, bool) {
    let t = &b.stat().table;
    let mut cuts = vec![0.0, 1.0];
    let mut crossed = false;
    for (idx, f) in t.features().iter().enumerate() {
        let rough = b.stat().very_rough.contains(&idx)
            || matches!(f.kind, TerrainKind::Woods | TerrainKind::Town | TerrainKind::SoftGround);
        if rough {
            cuts.extend(polygon_crossings(from, to, &f.points));
        } else if obstacle(f.kind) && segment_crosses_polyline(from, to, &f.points) {
            crossed = true;
        }
    }
    cuts.sort_by(f64::total_cmp);
    let len = from.dist(to);
    let cost = cuts.windows(2).map(|w| (w[1] - w[0]) * len * going(b, from.lerp(to, (w[0] + w[1]) / 2.0))).sum();
    (cost, crossed)
}

/// Twice the signed area of a polygon: positive when its corners run anticlockwise.
fn signed_area2(poly: &[Point]) -> f64 {
    let n = poly.len();
    (0..n).map(|i| poly[i].cross(poly[(i + 1) % n])).sum()
}

/// The part of the segment `a`–`b` strictly inside the convex polygon `poly` (a hair within its
/// edges, so that a line along an edge is not inside), as fractions of the way from `a`.
fn inside_convex(a: Point, b: Point, poly: &[Point]) -> Option<(f64, f64)> {
    const HAIR: f64 = 1e-7;
    let n = poly.len();
    let ccw = signed_area2(poly) > 0.0;
    let (mut lo, mut hi) = (0.0_f64, 1.0_f64);
    let d = b - a;
    for i in 0..n {
        let (p, q) = (poly[i], poly[(i + 1) % n]);
        let e = q - p;
        let len = e.len();
        if len < 1e-12 {
            continue;
        }
        // The inward distance from the edge's line: positive inside.
        let sign = if ccw { 1.0 } else { -1.0 };
        let at = |x: Point| sign * e.cross(x - p) / len - HAIR;
        let (fa, fd) = (at(a), sign * e.cross(d) / len);
        if fd.abs() < 1e-15 {
            if fa <= 0.0 {
                return None;
            }
            continue;
        }
        let t = -fa / fd;
        if fd > 0.0 {
            lo = lo.max(t);
        } else {
            hi = hi.min(t);
        }
        if lo >= hi {
            return None;
        }
    }
    (hi - lo > 1e-12).then_some((lo, hi))
}

/// The convex hull of `points` (anticlockwise; Andrew's monotone chain).
fn hull(mut points: Vec<Point>) -> Vec<Point> {
    points.sort_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup_by(|a, b| a.dist(*b) < 1e-12);
    if points.len() < 3 {
        return points;
    }
    let mut out: Vec<Point> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let start = out.len();
        let it: Box<dyn Iterator<Item = &Point>> =
            if pass == 0 { Box::new(points.iter()) } else { Box::new(points.iter().rev()) };
        for &p in it {
            while out.len() >= start + 2 {
                let (o, a) = (out[out.len() - 2], out[out.len() - 1]);
                if (a - o).cross(p - o) <= 0.0 {
                    out.pop();
                } else {
                    break;
                }
            }
            out.push(p);
        }
        out.pop();
    }
    out
}

/// The ground a convex body `start` goes over moving straight by `v`: the hull of where it
/// starts and where it ends.
pub(crate) fn swept_hull(start: &[Point], v: Point) -> Vec<Point> {
    if v.len() < 1e-12 {
        return start.to_vec();
    }
    hull(start.iter().copied().chain(start.iter().map(|&c| c + v)).collect())
}

/// Whether the convex body `body` lies wholly on the table and on ground troops may stand on —
/// no part of it, not its corners alone, in a river (off a bridge) or impassable ground: a 9"
/// line astride a 3" brook has every corner on dry ground. Its outline must be passable, and no
/// edge of a river or impassable area may pass inside it with that ground beside it (ground
/// wholly within the body).
pub(crate) fn body_clear(table: &volley_table::Table, body: &[Point]) -> bool {
    let n = body.len();
    if n == 0 {
        return true;
    }
    if !(0..n).all(|i| table.segment_passable(body[i], body[(i + 1) % n])) {
        return false;
    }
    if n < 3 || !table.impassable_within(&volley_table::bbox(body)) {
        return true;
    }
    let features = table.features();
    for f in features.iter().filter(|f| matches!(f.kind, TerrainKind::River | TerrainKind::Impassable)) {
        let m = f.points.len();
        if m < 3 {
            continue;
        }
        // The ground is on the inner side of each edge.
        let inward = if signed_area2(&f.points) > 0.0 { 1.0 } else { -1.0 };
        for i in 0..m {
            let (a, b) = (f.points[i], f.points[(i + 1) % m]);
            let Some((t0, t1)) = inside_convex(a, b, body) else {
                continue;
            };
            // Cut where bridges' outlines cross it: each piece is wholly on a bridge or off it.
            let mut cuts = vec![t0, t1];
            for g in features.iter().filter(|g| g.kind == TerrainKind::Bridge) {
                cuts.extend(polygon_crossings(a, b, &g.points).filter(|&t| t > t0 && t < t1));
            }
            cuts.sort_by(f64::total_cmp);
            let e = b - a;
            let normal = Point::new(-e.y, e.x) * (inward * 1e-9 / e.len().max(1e-12));
            for w in cuts.windows(2).filter(|w| w[1] - w[0] > 1e-12) {
                if !table.passable(a.lerp(b, (w[0] + w[1]) / 2.0) + normal) {
                    return false;
                }
            }
        }
    }
    true
}

/// How far (0 to 1) the body `start` goes along `v` before it first touches one of `bodies`: 1 if
/// it touches none, 0 if it stands on one already.
fn first_touch(start: &[Point; 4], v: Point, bodies: &[(usize, [Point; 4])]) -> f64 {
    bodies.iter().fold(1.0, |t, (_, body)| match convex_sweep(start, v, body) {
        Some((lo, hi)) if hi > 0.0 => t.min(lo.max(0.0)),
        _ => t,
    })
}

/// Whether the body `start` going by `v` goes away from `body` or along it: the distance between
/// them does not shrink as it sets off (and, both being convex, never shrinks after).
fn leaves(start: &[Point; 4], v: Point, body: &[Point; 4]) -> bool {
    let len = v.len();
    if len < 1e-9 || convex_overlap(start, body) {
        return false;
    }
    // Touching, the distance stays nothing as it goes into the body: that is nearer too.
    if matches!(convex_sweep(start, v, body), Some((lo, hi)) if lo < 1.0 && hi > 0.0) {
        return false;
    }
    let step = v * (1e-3 / len);
    convex_distance(&start.map(|c| c + step), body) >= convex_distance(start, body) - 1e-9
}

/// A rectangle grown by `g` on every side (corners in [`Unit::corners`] order).
fn grown(c: &[Point; 4], g: f64) -> [Point; 4] {
    let fwd = c[0] - c[3];
    let right = c[1] - c[0];
    let (lf, lr) = (fwd.len().max(1e-9), right.len().max(1e-9));
    let (f, r) = (fwd * (g / lf), right * (g / lr));
    [c[0] + f - r, c[1] + f + r, c[2] - f + r, c[3] - f - r]
}

impl Battle {
    /// The footprints another body may not enter when unit `u`'s body `start` goes by `v`:
    /// every other unit's, the enemy's grown by the contact gap (no move but a charge comes into
    /// contact). An enemy it already stands within the gap of (after a melee, or hemmed in) is
    /// left out when the move goes away from it or along it, never nearer: a unit may always
    /// step out of contact. `except`: a unit left out (a charge's target).
    fn obstacles(&self, u: usize, start: &[Point; 4], v: Point, except: Option<usize>) -> Vec<(usize, [Point; 4])> {
        let mut out = self.bodies(u, except, CONTACT_GAP);
        let side = self.units[u].side;
        let here = volley_table::bbox(start);
        out.retain(|(j, grown)| {
            let other = &self.units[*j];
            !(other.side != side
                && volley_table::boxes_meet(&here, &volley_table::bbox(grown))
                && convex_overlap(start, grown)
                && leaves(start, v, &other.corners()))
        });
        out
    }

    /// Whether unit `u` would stand on the table, on passable ground and on no other unit at
    /// `at` facing `facing` in `formation`.
    pub(super) fn fits(&self, u: usize, at: Point, facing: f64, formation: Formation) -> bool {
        let body = self.units[u].outline_at(at, facing, formation);
        body_clear(&self.stat().table, &body)
            && !self.bodies(u, None, 0.0).iter().any(|(_, b)| convex_overlap(&body, b))
    }

    /// Every other unit's footprint, the enemy's grown by `gap`.
    fn bodies(&self, u: usize, except: Option<usize>, gap: f64) -> Vec<(usize, [Point; 4])> {
        let side = self.units[u].side;
        self.units
            .iter()
            .enumerate()
            .filter(|&(j, o)| j != u && Some(j) != except && o.present())
            .map(|(j, o)| (j, if o.side == side || gap <= 0.0 { o.corners() } else { grown(&o.corners(), gap) }))
            .collect()
    }

    /// Whether the body `start` may go by `v` (the whole way) without entering another body, on
    /// the table and on passable ground. `Err` names what is in the way.
    fn clear_way(
        &self,
        u: usize,
        start: &[Point; 4],
        v: Point,
        except: Option<usize>,
        explain: bool,
    ) -> Result<(), String> {
        let table = &self.stat().table;
        // What the body sweeps over, to pass by far-away units at the cost of a box test.
        let mut swept = volley_table::bbox(start);
        let end = volley_table::bbox(&start.map(|c| c + v));
        swept = [swept[0].min(end[0]), swept[1].min(end[1]), swept[2].max(end[2]), swept[3].max(end[3])];
        for (j, body) in self.obstacles(u, start, v, except) {
            if !volley_table::boxes_meet(&swept, &volley_table::bbox(&body)) {
                continue;
            }
            if convex_overlap(start, &body) {
                if !explain {
                    return Err(String::new());
                }
                let enemy = self.units[j].side != self.units[u].side;
                return Err(if enemy && !convex_overlap(start, &self.units[j].corners()) {
                    format!(
                        "it stands in contact with {}: it may step back or aside, not nearer (only a charge comes into contact with the enemy)",
                        self.name(j)
                    )
                } else {
                    format!("it would stand on {}", self.name(j))
                });
            }
            if let Some((lo, hi)) = convex_sweep(start, v, &body)
                && lo < 1.0
                && hi > 0.0
            {
                if !explain {
                    return Err(String::new());
                }
                let what = if self.units[j].side == self.units[u].side {
                    "units do not pass through each other"
                } else {
                    "only a charge comes into contact with the enemy"
                };
                return Err(format!("{} is in the way after {:.1}\" ({what})", self.name(j), v.len() * lo.max(0.0)));
            }
        }
        if !body_clear(table, &swept_hull(start, v)) {
            return Err("the way leaves the table or crosses impassable ground".into());
        }
        Ok(())
    }

    /// How far a body goes from `from` straight along `heading` on `budget` inches of movement
    /// over the ground, as a move's allowance is spent: each inch of rough ground costs two,
    /// of very rough four, and crossing a linear obstacle halves the whole move (what has been
    /// spent reaching it counts against the half: a body that has spent more stops at it).
    /// Bodies and the table's edge are not looked at here.
    pub fn reach_along(&self, from: Point, heading: f64, budget: f64) -> Reach {
        if budget <= 0.0 {
            return Reach { distance: 0.0, terrain: Vec::new() };
        }
        let features = self.stat().table.features();
        let to = from + heading_unit(heading) * budget;
        let mut cuts = vec![0.0, 1.0];
        let mut first_obstacle: Option<(f64, usize)> = None;
        for (i, f) in features.iter().enumerate() {
            if self.stat().very_rough.contains(&i)
                || matches!(f.kind, TerrainKind::Woods | TerrainKind::Town | TerrainKind::SoftGround)
            {
                cuts.extend(polygon_crossings(from, to, &f.points));
            } else if obstacle(f.kind)
                && let Some(t) = first_crossing(from, to, &f.points)
                && first_obstacle.is_none_or(|(o, _)| t < o)
            {
                first_obstacle = Some((t, i));
            }
        }
        cuts.sort_by(f64::total_cmp);
        // Each piece of the way wholly in or out of every area: its cost an inch, and the area.
        let pieces: Vec<(f64, f64, f64, Option<usize>)> = cuts
            .windows(2)
            .filter(|w| w[1] > w[0])
            .map(|w| {
                let (m, area) = going_where(self, from.lerp(to, (w[0] + w[1]) / 2.0));
                (w[0] * budget, w[1] * budget, m, area)
            })
            .collect();
        let walk = |allowance: f64| -> f64 {
            let mut spent = 0.0;
            for &(a, b, m, _) in &pieces {
                if spent + (b - a) * m > allowance + 1e-12 {
                    return a + (allowance - spent) / m;
                }
                spent += (b - a) * m;
            }
            budget
        };
        let mut distance = walk(budget);
        let mut terrain = Vec::new();
        if let Some((t, i)) = first_obstacle {
            let at = t * budget;
            if distance > at {
                let f = &features[i];
                let halved = walk(budget / 2.0);
                if halved > at {
                    distance = halved;
                    terrain.push(format!("crossing {}: half", feature_words(f)));
                } else {
                    distance = (at - 0.05).max(0.0);
                    terrain.push(format!("stopping at {} (crossing it halves the move)", feature_words(f)));
                }
            }
        }
        let mut seen: Vec<usize> = Vec::new();
        for &(a, _, m, area) in &pieces {
            if let Some(i) = area.filter(|_| a < distance)
                && !seen.contains(&i)
            {
                seen.push(i);
                let dear = if m >= 4.0 { "at four times the cost" } else { "at double cost" };
                terrain.insert(seen.len() - 1, format!("{} {dear}", feature_words(&features[i])));
            }
        }
        Reach { distance, terrain }
    }

    /// Check a move of unit `u` to `to`, facing `facing`, in `formation` (`reserve`: a reserve
    /// move).
    pub fn check_move(
        &self,
        u: usize,
        to: Point,
        facing: f64,
        formation: Formation,
        reserve: bool,
    ) -> Result<MoveCheck, Illegal> {
        self.check_move_with(u, to, facing, formation, reserve, true)
    }

    /// [`Battle::check_move`], with the words (of the move or of the refusal) only if `explain`.
    pub(super) fn check_move_with(
        &self,
        u: usize,
        to: Point,
        facing: f64,
        formation: Formation,
        reserve: bool,
        explain: bool,
    ) -> Result<MoveCheck, Illegal> {
        let Some(unit) = self.units.get(u) else {
            fail!(explain, "there is no unit {u}");
        };
        let name = self.name(u);
        if !to.x.is_finite() || !to.y.is_finite() || !facing.is_finite() {
            fail!(explain, "a move needs a place and a facing in numbers");
        }
        match unit.state {
            State::Routing => fail!(explain, "{name} is routing: it moves only as a rout"),
            State::Removed => fail!(explain, "{name} is no longer in the battle"),
            _ => {}
        }
        if unit.charging.is_some() {
            fail!(explain, "{name} has declared a charge");
        }
        if unit.at.dist(to) > 1e-9
            && let Some(c) =
                self.units.iter().position(|e| e.side != unit.side && e.present() && e.charging == Some(u as u16))
        {
            fail!(
                explain,
                "{name} is charged by {} and awaits the charge: it may change formation or facing where it stands, not move away",
                self.name(c)
            );
        }
        let facing = norm_heading(facing);
        let distance = unit.at.dist(to);
        let heading = (distance > 1e-9).then(|| heading_to(unit.at, to));
        let Allowance { mut allowance, mut terms, turned, reformed } =
            self.allowance_with(u, heading, facing, formation, explain)?;
        let (mut cost, obstacle) = path_cost(self, unit.at, to);
        if obstacle {
            allowance /= 2.0;
            if explain {
                terms.push("crossing a linear obstacle: half".into());
            }
        }
        if cost > allowance + 1e-9 {
            let rough = if cost > distance + 1e-9 {
                format!(" (costing {cost:.1}\" over rough ground)")
            } else {
                String::new()
            };
            fail!(explain, "{name} may go {allowance:.1}\" ({}), not {distance:.1}\"{rough}", terms.join(", "));
        }
        if distance <= 1e-9 {
            cost = 0.0;
        }
        let mut probe = unit.clone();
        probe.formation = formation;
        let start = probe.outline_at(unit.at, facing, formation);
        let end = probe.outline_at(to, facing, formation);
        if !body_clear(&self.stat().table, &end) {
            fail!(explain, "{name} would end off the table or on impassable ground");
        }
        self.clear_way(u, &start, to - unit.at, None, explain)
            .map_err(|why| Illegal::new(if explain { format!("{name}: {why}") } else { String::new() }))?;
        if reserve
            && self
                .units
                .iter()
                .any(|e| e.side != unit.side && e.present() && convex_distance(&end, &e.corners()) <= CONTACT_GAP)
        {
            fail!(explain, "a reserve move may not come into contact with the enemy");
        }
        if !(distance > 1e-9 || reformed || turned) {
            fail!(explain, "{name}: a move must go somewhere or change formation or facing");
        }
        if !explain {
            return Ok(MoveCheck { distance, cost, allowance, text: String::new() });
        }
        // First what it does where it stands, then the move: its kind as the text has it
        // (ahead, oblique, sideways, backwards), its length and where it goes by the ground.
        let mut steps: Vec<String> = Vec::new();
        if reformed {
            steps.push(match formation {
                Formation::Limbered => "limbers".to_string(),
                Formation::Unlimbered => "unlimbers".to_string(),
                f => format!("forms {}", f.name()),
            });
        }
        if turned {
            steps.push(format!("turns to face {} ({facing:.0}°)", compass(facing)));
        }
        let mut text = steps.join(", ");
        match heading {
            Some(h) if distance > 1e-9 => {
                if !text.is_empty() {
                    text.push_str(", then ");
                }
                let oblique = self.stat().oblique[usize::from(unit.side)];
                text.push_str(&self.move_words(unit.at, to, facing, h, formation, oblique));
            }
            _ => text.push_str(" where it stands"),
        }
        text.push_str(&format!(" (may spend {allowance:.1}\": {}", terms.join(", ")));
        if cost > distance + 1e-9 {
            text.push_str(&format!("; the way costs {cost:.1}\" over rough ground"));
        }
        text.push(')');
        Ok(MoveCheck { distance, cost, allowance, text })
    }

    /// A move from `from` to `to` along `heading` by a unit facing `facing` in `formation`, in
    /// words: its kind relative to the front as the allowance counts it (`advances`, `moves …
    /// obliquely to the right` for a side that has the oblique, `sideways`, `backwards`), its
    /// length and where it goes by the ground ([`volley_scenario::places::Landmarks::way`]; the
    /// compass point if nothing named lies ahead or near).
    fn move_words(
        &self,
        from: Point,
        to: Point,
        facing: f64,
        heading: f64,
        formation: Formation,
        oblique: bool,
    ) -> String {
        let off = turn(facing, heading);
        let hand = if off > 0.0 { "right" } else { "left" };
        let (straight, within) = (off.abs() <= STRAIGHT + ANGLE_SLACK, off.abs() <= OBLIQUE + ANGLE_SLACK);
        let kind = if straight || (!formation.ordered() && within) {
            None
        } else if within && oblique && formation.ordered() {
            Some(format!("obliquely to the {hand}"))
        } else if off.abs() > 135.0 {
            Some("backwards".to_string())
        } else {
            Some(format!("sideways to the {hand}"))
        };
        let distance = from.dist(to);
        let way = self.way_words(from, to);
        // An advance that is not dead ahead (within the slack of straight, a limbered
        // battery's, skirmishers') says by how many whole degrees it leans to which hand, so that
        // two advances to places alike by the ground read apart.
        let lean = (off.abs() >= 0.5).then(|| format!("{:.0}° to the {hand}", off.abs()));
        match (kind, lean) {
            (None, None) => format!("advances {distance:.1}\" {way}"),
            (None, Some(l)) => format!("advances {distance:.1}\" {l}, {way}"),
            (Some(k), _) => format!("moves {distance:.1}\" {k}, {way}"),
        }
    }

    /// Where a move from `from` to `to` goes, in words ([`volley_scenario::places::Landmarks::way`]):
    /// by the ground, else the compass point it goes; a move that hardly went anywhere is said by
    /// where it stands.
    pub(super) fn way_words(&self, from: Point, to: Point) -> String {
        let marks = &self.stat().landmarks;
        if from.dist(to) < 0.05 {
            return marks
                .named(to)
                .map_or_else(|| "where it stands".to_string(), |p| format!("where it stands, at {p}"));
        }
        marks.way(from, to).unwrap_or_else(|| compass(heading_to(from, to)).to_string())
    }

    /// What unit `u` may spend on a move going along `heading` (none: it stays where it is),
    /// ending facing `facing` in `formation`, before terrain: its rate and every halving.
    pub fn allowance(
        &self,
        u: usize,
        heading: Option<f64>,
        facing: f64,
        formation: Formation,
    ) -> Result<Allowance, Illegal> {
        self.allowance_with(u, heading, facing, formation, true)
    }

    /// [`Battle::allowance`], with its terms in words only if `explain`.
    fn allowance_with(
        &self,
        u: usize,
        heading: Option<f64>,
        facing: f64,
        formation: Formation,
        explain: bool,
    ) -> Result<Allowance, Illegal> {
        let unit = &self.units[u];
        let name = self.name(u);
        let Some(new_rate) = rate(unit.kind, formation) else {
            let allowed: Vec<&str> = formations(unit.kind).map(Formation::name).collect();
            fail!(
                explain,
                "{} may not stand in {}: {}",
                unit.kind.profile().name,
                formation.name(),
                allowed.join(", ")
            );
        };
        if unit.too_narrow_for(formation) {
            fail!(explain, "{name} has {} stands: a line is {MIN_LINE_STANDS} or more stands wide", unit.stands());
        }
        let facing = norm_heading(facing);
        let turned = turn(unit.facing, facing).abs() >= TURN_TOLERANCE;
        let reformed = formation != unit.formation;
        let guns = unit.arm() == Arm::Artillery;
        let mut terms: Vec<String> = Vec::new();
        let mut allowance;
        if guns {
            // Two functions a turn: limber, move (half the march rate), unlimber, prolong; a full
            // march move is two.
            let march = rate(unit.kind, Formation::Limbered).unwrap_or(0.0);
            let prolong = rate(unit.kind, Formation::Unlimbered).unwrap_or(0.0);
            allowance = match (unit.formation, formation) {
                (Formation::Limbered, Formation::Limbered) => {
                    if explain {
                        terms.push(format!("limbered, a full move {march}\" (two functions)"));
                    }
                    march
                }
                (Formation::Unlimbered, Formation::Limbered) => {
                    if explain {
                        terms.push(format!("limber, then move half {}\"", march / 2.0));
                    }
                    march / 2.0
                }
                (Formation::Limbered, _) => {
                    if explain {
                        terms.push(format!("move half {}\", then unlimber", march / 2.0));
                    }
                    march / 2.0
                }
                _ => {
                    if explain {
                        terms.push(format!("by prolonge {prolong}\""));
                    }
                    prolong
                }
            };
            if turned && formation == Formation::Unlimbered && unit.formation == Formation::Unlimbered {
                allowance /= 2.0;
                if explain {
                    terms.push("turning: half".into());
                }
            }
        } else {
            if turned && reformed {
                fail!(explain, "{name} may change formation or facing in a turn, not both (each at half effect)");
            }
            // Not both in one turn, whatever the phase: the movement phase's move and a reserve
            // move (or a charge's turn) are in the same turn.
            if self.turn > 0 && reformed && unit.turned_turn == self.turn {
                fail!(
                    explain,
                    "{name} changed its facing earlier this turn: it may not also change formation this turn (one or the other, each at half effect)"
                );
            }
            if self.turn > 0 && turned && unit.reformed_turn == self.turn {
                fail!(
                    explain,
                    "{name} changed formation earlier this turn: it may not also change its facing this turn (one or the other, each at half effect)"
                );
            }
            if unit.formation == Formation::Square && heading.is_some() {
                fail!(explain, "{name} is in square: a square does not move");
            }
            allowance = new_rate;
            if explain {
                terms.push(format!("{} {new_rate}\"", formation.name()));
            }
            if reformed {
                allowance /= 2.0;
                if explain {
                    terms.push(format!("forms {} from {}: half", formation.name(), unit.formation.name()));
                }
            }
            if turned {
                allowance /= 2.0;
                if explain {
                    terms.push(format!("turns to face {} ({facing:.0}°): half", compass(facing)));
                }
            }
            if let (Some(h), true) = (heading, formation.ordered()) {
                let off = turn(facing, h).abs();
                if off <= STRAIGHT + ANGLE_SLACK {
                } else if off <= OBLIQUE + ANGLE_SLACK && self.stat().oblique[usize::from(unit.side)] {
                    allowance = (allowance - OBLIQUE_LESS).max(0.0);
                    if explain {
                        terms.push(format!("oblique {off:.0}° off the front: less {OBLIQUE_LESS}\""));
                    }
                } else {
                    allowance /= 2.0;
                    if explain {
                        terms.push(format!(
                            "{} {off:.0}° off the front: half",
                            if off > 135.0 { "backwards" } else { "sideways" }
                        ));
                    }
                }
            }
        }
        if unit.shaken() {
            allowance /= 2.0;
            if explain {
                terms.push("shaken: half".into());
            }
        }
        Ok(Allowance { allowance, terms, turned, reformed })
    }

    /// The furthest unit `u` may go from where it stands straight along `heading`, facing
    /// `facing` in `formation` (the allowance, or short of whatever is in the way); 0 if not at
    /// all.
    pub fn furthest(&self, u: usize, heading: f64, facing: f64, formation: Formation, reserve: bool) -> f64 {
        let Ok(a) = self.allowance_with(u, Some(heading), facing, formation, false) else {
            return 0.0;
        };
        let limit = a.allowance;
        if limit < 0.1 {
            return 0.0;
        }
        let unit = &self.units[u];
        let dir = heading_unit(heading);
        let mut probe = unit.clone();
        probe.formation = formation;
        let start = probe.outline_at(unit.at, facing, formation);
        let v = dir * limit;
        let t_max = first_touch(&start, v, &self.obstacles(u, &start, v, None));
        let ok =
            |d: f64| self.check_move_with(u, rounded(unit.at + dir * d), facing, formation, reserve, false).is_ok();
        let top = (t_max * limit - 0.05).max(0.0);
        if top < 0.1 {
            return 0.0;
        }
        if ok(top) {
            return top;
        }
        // Rough ground, an obstacle or the table's edge: the furthest allowed, by halves.
        let (mut lo, mut hi) = (0.0, top);
        for _ in 0..8 {
            let mid = (lo + hi) / 2.0;
            if ok(mid) { lo = mid } else { hi = mid }
        }
        if lo < 0.1 { 0.0 } else { lo }
    }

    /// Check a charge by `u` at `t`: the charger, not routing, of a type that charges, goes
    /// straight ahead if its front meets the target that way; else a side with the oblique (in
    /// column or line) may go obliquely, up to 45° off its front and keeping its facing, at its
    /// rate less 2" and the bonus; else it turns to face the target (half effect) and goes
    /// straight at it — until they touch, within its reach, with nothing else in the way.
    pub fn check_charge(&self, u: usize, t: usize) -> Result<ChargePath, Illegal> {
        let Some(unit) = self.units.get(u) else {
            return volley_core::illegal!("there is no unit {u}");
        };
        let Some(target) = self.units.get(t) else {
            return volley_core::illegal!("there is no unit {t}");
        };
        let (name, tname) = (self.name(u), self.name(t));
        if target.side == unit.side {
            return volley_core::illegal!("{tname} is not an enemy");
        }
        if !target.present() {
            return volley_core::illegal!("{tname} is no longer in the battle");
        }
        if !unit.steady() {
            return volley_core::illegal!("{name} is {}: a routing unit does not charge", state_name(unit.state));
        }
        let p = unit.kind.profile();
        let Some(bonus) = p.charge else {
            return volley_core::illegal!("{}", p.no_charge_words());
        };
        // A square does not move. Skirmish order charges (hussars: its rate and the bonus), as
        // unformed troops.
        if unit.formation == Formation::Square {
            return volley_core::illegal!("{name} may not charge in {}", unit.formation.name());
        }
        // A charge goes at an enemy ahead: its centre in front of the charger's front edge.
        let c = unit.corners();
        if (target.at - c[0]).dot(heading_unit(unit.facing)) <= 0.0 {
            return volley_core::illegal!("{tname} is not ahead of {name}: a charge goes at an enemy in front");
        }
        let base = rate(unit.kind, unit.formation).unwrap_or(0.0);
        // A shaken unit moves at half rate: its charge too (the bonus with it).
        let mut reach = if unit.shaken() { (base + bonus) / 2.0 } else { base + bonus };
        let mut terms = vec![format!("{} {base}\" and {bonus}\" charge bonus", unit.formation.name())];
        if unit.shaken() {
            terms.push("shaken: half".into());
        }
        // Straight ahead if its front meets the target going that way; else it turns to face the
        // target, a change of facing at half effect, as any move's.
        let ahead = heading_unit(unit.facing) * (reach + 50.0);
        let straight = matches!(convex_sweep(&c, ahead, &target.corners()), Some((lo, hi)) if lo > 0.0 && hi > 0.0);
        // A side with the oblique goes at it obliquely if it can: it moves that way at its rate
        // less 2" (then halved if shaken, as any move: interpretation 39), keeping its front.
        let mut oblique_note = None;
        if !straight && self.stat().oblique[usize::from(unit.side)] && unit.formation.ordered() {
            let less = (base - OBLIQUE_LESS).max(0.0) + bonus;
            let most = if unit.shaken() { less / 2.0 } else { less };
            match self.oblique_charge(u, t, most) {
                Some(Ok(path)) => return Ok(path),
                Some(Err(cost)) if cost.is_finite() => {
                    oblique_note =
                        Some(format!("; obliquely it would need at least {cost:.1}\" of {most}\" (its rate less 2\")"))
                }
                Some(Err(_)) => oblique_note = Some("; obliquely something else is in the way".to_string()),
                None => {}
            }
        }
        let facing = if straight { unit.facing } else { heading_to(unit.at, target.at) };
        let turned = if straight { 0.0 } else { turn(unit.facing, facing).abs() };
        if turned >= TURN_TOLERANCE {
            reach /= 2.0;
            terms.push(format!("turns {turned:.0}° to face {tname}: half"));
        }
        let start = unit.outline_at(unit.at, facing, unit.formation);
        let far = heading_unit(facing) * (reach + 50.0);
        let Some((lo, hi)) = convex_sweep(&start, far, &target.corners()) else {
            return volley_core::illegal!("{name} cannot reach {tname} going straight at it");
        };
        if hi <= 0.0 {
            return volley_core::illegal!("{name} cannot reach {tname} going straight at it");
        }
        if lo <= 0.0 {
            return volley_core::illegal!("{name} has no room to wheel to face {tname}: turned, it would stand on it");
        }
        // Contact: the fronts meet (a hair apart, so that no footprint stands on another).
        let along = (lo.max(0.0) * far.len() - CHARGE_HAIR).max(0.0);
        let to = unit.at + heading_unit(facing) * along;
        let (mut cost, obstacle) = path_cost(self, unit.at, to);
        if obstacle {
            cost *= 2.0;
        }
        if cost > reach + 1e-9 {
            return volley_core::illegal!(
                "{tname} is {along:.1}\" away{}: {name} charges at most {reach}\" ({}){}",
                if cost > along + 1e-9 {
                    format!(" (costing {cost:.1}\" over rough ground or an obstacle)")
                } else {
                    String::new()
                },
                terms.join(", "),
                oblique_note.unwrap_or_default()
            );
        }
        self.clear_way(u, &start, to - unit.at, Some(t), true).map_err(|why| Illegal::new(format!("{name}: {why}")))?;
        Ok(ChargePath { to, facing, cost, reach, turned, oblique: 0.0, flank: !self.in_front(t, unit.at) })
    }

    /// An oblique charge by `u` at `t` within `most` inches: its facing kept, going up to 45° off
    /// its front until its front edge touches the target, with nothing else in the way — the
    /// shortest such way (to half a degree) whose cost over the ground is within `most`. `None`:
    /// no way meets the target with its front; `Err(inches)`: none within `most` (at least that
    /// far).
    fn oblique_charge(&self, u: usize, t: usize, most: f64) -> Option<Result<ChargePath, f64>> {
        let unit = &self.units[u];
        let target = self.units[t].corners();
        let start = unit.corners();
        // Farther off than its reach by the shortest way of all: no need to look.
        let gap = convex_distance(&start, &target);
        if gap > most + 1e-9 {
            return Some(Err(gap));
        }
        // Going `off` degrees off the front, its front edge (from its left corner to its right)
        // sweeps a strip that holds a point of the target only if `off` lies between the point's
        // direction from the right corner and its direction from the left: the ways worth
        // looking at lie between the least of the one and the greatest of the other.
        let off_from = |c: Point, p: Point| turn(unit.facing, heading_to(c, p));
        let lo = target.iter().map(|&p| off_from(start[1], p)).fold(f64::INFINITY, f64::min).max(-OBLIQUE);
        let hi = target.iter().map(|&p| off_from(start[0], p)).fold(f64::NEG_INFINITY, f64::max).min(OBLIQUE);
        if lo > hi {
            return None;
        }
        // The way `off` degrees off the front, if it meets the target with the front: how far,
        // how far off the front, where the centre ends.
        let way = |off: f64| -> Option<(f64, f64, Point)> {
            if off == 0.0 {
                return None;
            }
            let heading = norm_heading(unit.facing + off);
            let far = heading_unit(heading) * (most + 50.0);
            let (lo, hi) = convex_sweep(&start, far, &target)?;
            if lo <= 0.0 || hi <= 0.0 {
                return None;
            }
            let along = (lo * far.len() - CHARGE_HAIR).max(0.0);
            let v = heading_unit(heading) * along;
            // It meets the target with its front edge, not a flank.
            (convex_distance(&[start[0] + v, start[1] + v], &target) <= CHARGE_HAIR + 1e-3).then_some((
                along,
                off,
                unit.at + v,
            ))
        };
        // Every half degree between them, or if they are far apart every sixteenth of the way and
        // then every half degree either side of the shortest of those.
        let half = |d: f64| (d * 2.0).round() / 2.0;
        let (lo, hi) = (((lo * 2.0).floor() / 2.0).max(-OBLIQUE), ((hi * 2.0).ceil() / 2.0).min(OBLIQUE));
        let step = ((hi - lo) / 16.0).max(0.5);
        let n = ((hi - lo) / step).round() as i32;
        let mut ways: Vec<(f64, f64, Point)> = (0..=n).filter_map(|k| way(half(lo + f64::from(k) * step))).collect();
        let best = ways.iter().min_by(|a, b| a.0.total_cmp(&b.0)).map(|w| w.1)?;
        if step > 0.5 {
            let k = (step * 2.0).ceil() as i32;
            for j in -k..=k {
                let off = best + f64::from(j) / 2.0;
                if j != 0 && off.abs() <= OBLIQUE {
                    ways.extend(way(off));
                }
            }
        }
        // The shortest first (the cost over the ground is never less than the length).
        ways.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.abs().total_cmp(&b.1.abs())));
        let mut cheapest = f64::INFINITY;
        for (along, off, to) in ways {
            if along > most + 1e-9 {
                cheapest = cheapest.min(along);
                break;
            }
            let (mut cost, obstacle) = path_cost(self, unit.at, to);
            if obstacle {
                cost *= 2.0;
            }
            if cost > most + 1e-9 || self.clear_way(u, &start, to - unit.at, Some(t), false).is_err() {
                if cost > most + 1e-9 {
                    cheapest = cheapest.min(cost);
                }
                continue;
            }
            return Some(Ok(ChargePath {
                to,
                facing: unit.facing,
                cost,
                reach: most,
                turned: 0.0,
                oblique: off.abs(),
                flank: !self.in_front(t, unit.at),
            }));
        }
        Some(Err(cheapest))
    }

    /// Whether `p` lies in front of unit `t`: ahead of the line through its front edge. A shot
    /// or a charge by a unit whose centre is anywhere else (level with that line, beside or
    /// behind the unit) is at its flank or rear. A square has no flank or rear: everything is in
    /// front of it.
    pub fn in_front(&self, t: usize, p: Point) -> bool {
        let u = &self.units[t];
        if u.formation == Formation::Square {
            return true;
        }
        (p - u.corners()[0]).dot(heading_unit(u.facing)) > 1e-9
    }

    /// Move unit `u` as far as it can on a move of `d` inches along `heading`, its facing kept (or
    /// set to `facing`): the ground slows it as any move ([`Battle::reach_along`]); it stops short
    /// of any other unit and of impassable ground; at the table's edge it stops, or — a rout
    /// (`may_leave`) — leaves the table.
    pub(super) fn forced_move(
        &mut self,
        u: usize,
        heading: f64,
        d: f64,
        facing: Option<f64>,
        may_leave: bool,
    ) -> ForcedMove {
        let unit = &self.units[u];
        let from = unit.at;
        let table = &self.stat().table;
        let others = self.bodies(u, None, 0.0);
        // The new facing, if the unit has room to turn where it stands (on the table, on no one).
        let wanted = norm_heading(facing.unwrap_or(unit.facing));
        let turned = unit.outline_at(unit.at, wanted, unit.formation);
        let room = body_clear(table, &turned) && !others.iter().any(|(_, b)| convex_overlap(&turned, b));
        let facing = if room { wanted } else { unit.facing };
        let Reach { distance: go, terrain } = self.reach_along(from, heading, d);
        let dir = heading_unit(heading);
        let start = unit.outline_at(unit.at, facing, unit.formation);
        let v = dir * go;
        // It stops short of friends, and of the enemy by the contact gap: only a charge comes
        // into contact.
        let bodies = self.obstacles(u, &start, v, None);
        let t_max = if go > 0.0 { first_touch(&start, v, &bodies) } else { 0.0 };
        // The table's edge: where the first corner would cross it.
        let mut t_edge: f64 = 1.0;
        for c in start {
            for (p, w, lim) in [(c.x, v.x, table.width), (c.y, v.y, table.depth)] {
                if w > 1e-12 {
                    t_edge = t_edge.min(((lim - p) / w).max(0.0));
                } else if w < -1e-12 {
                    t_edge = t_edge.min((p / -w).max(0.0));
                }
            }
        }
        if may_leave && go > 0.0 && t_edge < t_max {
            // Routed off the table before anything stopped it.
            let to = unit.at + v * t_edge;
            return ForcedMove { from, to, off: true, ordered: d, done: go * t_edge, terrain, stopped: None };
        }
        let mut t = t_max.min(t_edge);
        let mut stopped = if t_max < 1.0 && t_max <= t_edge {
            bodies
                .iter()
                .find(|(_, b)| matches!(convex_sweep(&start, v, b), Some((lo, hi)) if hi > 0.0 && (lo.max(0.0) - t_max).abs() < 1e-9))
                .map(|&(j, _)| format!("{} in the way", self.name(j)))
        } else if t_edge < 1.0 {
            Some("the table's edge".to_string())
        } else {
            None
        };
        // Impassable ground: as far as the way is clear, to a hundredth of an inch (the swept
        // body clear up to t is clear up to any less). (It stepped back a fifth at a time until
        // the audit at scale found retreats stopped up to 2" short of the brook.)
        let clear = |t: f64| body_clear(table, &swept_hull(&start, v * t));
        let was = t;
        if !clear(t) {
            let (mut lo, mut hi) = (0.0, t);
            if clear(0.0) {
                while (hi - lo) * go > 0.01 {
                    let mid = (lo + hi) / 2.0;
                    if clear(mid) { lo = mid } else { hi = mid }
                }
            }
            t = lo;
        }
        if t < was {
            stopped = Some("impassable ground".to_string());
        }
        // A little short of whatever stopped it.
        let t = if t < 1.0 { (t - 0.05 / go.max(1e-9)).max(0.0) } else { t };
        let to = unit.at + v * t;
        // Stopped short by something else, the ground it went over is what it crossed.
        let terrain = if stopped.is_some() { self.ground_along(from, to) } else { terrain };
        // No room to turn where it stood (hemmed in against the enemy that struck its flank):
        // it turns where its move ends, if there is room there.
        let facing = if room || facing == wanted {
            facing
        } else {
            let there = unit.outline_at(to, wanted, unit.formation);
            if body_clear(table, &there) && !others.iter().any(|(_, b)| convex_overlap(&there, b)) {
                wanted
            } else {
                facing
            }
        };
        let turn_now = self.turn;
        let unit = &mut self.units[u];
        unit.at = to;
        unit.last_moved = turn_now;
        unit.facing = facing;
        ForcedMove { from, to, off: false, ordered: d, done: go * t, terrain, stopped }
    }

    /// The rough ground and linear obstacles the way from `from` to `to` goes into or over, in
    /// words.
    fn ground_along(&self, from: Point, to: Point) -> Vec<String> {
        let features = self.stat().table.features();
        let mut cuts = vec![0.0, 1.0];
        let mut crossed = Vec::new();
        for f in features {
            if obstacle(f.kind) {
                if segment_crosses_polyline(from, to, &f.points) {
                    crossed.push(format!("crossing {}: half", feature_words(f)));
                }
            } else {
                cuts.extend(polygon_crossings(from, to, &f.points));
            }
        }
        cuts.sort_by(f64::total_cmp);
        let mut out: Vec<String> = Vec::new();
        let mut seen: Vec<usize> = Vec::new();
        for w in cuts.windows(2).filter(|w| w[1] > w[0]) {
            if let (m, Some(i)) = going_where(self, from.lerp(to, (w[0] + w[1]) / 2.0))
                && !seen.contains(&i)
            {
                seen.push(i);
                let dear = if m >= 4.0 { "at four times the cost" } else { "at double cost" };
                out.push(format!("{} {dear}", feature_words(&features[i])));
            }
        }
        out.extend(crossed);
        out
    }
}

/// A terrain feature in words: its name and kind (`the Eichwald (woods)`), or its kind.
fn feature_words(f: &volley_table::Feature) -> String {
    let kind = match f.kind {
        TerrainKind::Woods => "woods",
        TerrainKind::Town => "a town",
        TerrainKind::SoftGround => "soft ground",
        TerrainKind::Hedge => "a hedge",
        TerrainKind::Wall => "a wall",
        TerrainKind::Trench => "a trench",
        TerrainKind::Redoubt => "a redoubt",
        _ => "very rough ground",
    };
    // A feature the scenario did not name is called by its kind.
    if f.name.is_empty() || kind.ends_with(f.name.as_str()) { kind.to_string() } else { format!("{} ({kind})", f.name) }
}

/// A place rounded to a hundredth of an inch, as candidate moves name it.
pub fn rounded(p: Point) -> Point {
    Point::new((p.x * 100.0).round() / 100.0, (p.y * 100.0).round() / 100.0)
}

/// A unit's state in words.
pub(super) fn state_name(s: State) -> &'static str {
    match s {
        State::Good => "in good order",
        State::Shaken => "shaken",
        State::Routing => "routing",
        State::Removed => "removed",
    }
}
