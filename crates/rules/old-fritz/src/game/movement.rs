//! Movement and its limits (sections 3 and 4): marches, wheels, obstacles, bodies in the way.

use super::*;
use crate::events::{MoveKind, NoAttack, Path, Stop, TurnMade};

/// Two bodies nearer than this, inches, touch: a turn that would bring a unit's footprint this
/// near an enemy's swings into it.
pub const TOUCH: f64 = 0.01;
/// The most steps a turn's sweep is checked in before a grazing turn is counted as touching.
const SWEEP_STEPS: usize = 400;

/// Where a move along a straight way ended, the part of the bound it used, and why it stopped.
pub(super) struct Went {
    /// Where the unit's centre ends.
    pub to: Point,
    /// The part of the bound used.
    pub used: f64,
    /// Why it ended there.
    pub stop: Stop,
    /// It crossed a linear obstacle (half a bound).
    pub obstacle: bool,
    /// It crossed a wagon park (half speed).
    pub wagons: bool,
    /// The inches it set out to go.
    pub ordered: f64,
    /// Its facing as it went.
    pub facing: f64,
}

/// An enemy near a unit's way: its index, its footprint, and its gap from the unit where the
/// unit stands.
struct Nearby {
    unit: usize,
    body: [Point; 4],
    gap: f64,
}

/// A turn from `from` to `to` costing `cost` of the bound.
pub(super) fn turn_made(from: f64, to: f64, cost: f64) -> TurnMade {
    TurnMade { from, to, degrees: turn(from, to), cost }
}

/// The heading `want`, or `facing` itself if the two differ only by the rounding of the
/// arithmetic (no turn at all).
pub(super) fn settle(facing: f64, want: f64) -> f64 {
    if turn(facing, want).abs() < 1e-9 { facing } else { want }
}

/// The gap between two footprints (rectangles, corners in order) if it may be under `need`;
/// `None` if an edge of either shows them at least `need` apart — a quick proof that saves
/// measuring (the gap between convex shapes is at least their gap along any axis).
pub(super) fn gap_under(a: &[Point; 4], b: &[Point; 4], need: f64) -> Option<f64> {
    let span = |poly: &[Point; 4], axis: Point| {
        poly.iter().map(|p| p.dot(axis)).fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), x| (l.min(x), h.max(x)))
    };
    let mut apart = false;
    for poly in [a, b] {
        // A rectangle's four edges lie on two axes.
        for k in 0..2 {
            let e = poly[k + 1] - poly[k];
            let len = e.len();
            if len < 1e-12 {
                continue;
            }
            let axis = Point::new(-e.y / len, e.x / len);
            let ((alo, ahi), (blo, bhi)) = (span(a, axis), span(b, axis));
            let gap = (blo - ahi).max(alo - bhi);
            if gap >= need {
                return None;
            }
            apart |= gap > 0.0;
        }
    }
    // No axis of either separates them: they overlap.
    let gap = if apart { rect_gap(a, b) } else { 0.0 };
    (gap < need).then_some(gap)
}

/// The least distance between two footprints (rectangles, corners in order) that do not
/// overlap: the nearest a corner of either comes to an edge of the other.
pub(super) fn rect_gap(a: &[Point; 4], b: &[Point; 4]) -> f64 {
    let to_edge = |p: Point, s: Point, e: Point| {
        let d = e - s;
        let len2 = d.dot(d);
        let t = if len2 > 0.0 { ((p - s).dot(d) / len2).clamp(0.0, 1.0) } else { 0.0 };
        let q = p - (s + d * t);
        q.dot(q)
    };
    let mut best = f64::INFINITY;
    for (p, q) in [(a, b), (b, a)] {
        for k in 0..4 {
            let (s, e) = (q[k], q[(k + 1) % 4]);
            for &v in p {
                best = best.min(to_edge(v, s, e));
            }
        }
    }
    best.sqrt()
}

/// The least distance between two footprints (rectangles, corners in order), 0 if they
/// overlap.
pub(super) fn footprint_gap(a: &[Point; 4], b: &[Point; 4]) -> f64 {
    gap_under(a, b, f64::INFINITY).unwrap_or(f64::INFINITY)
}

/// The farthest a footprint's corner reaches from its centre.
fn half_diagonal(outline: &[Point; 4]) -> f64 {
    outline.iter().map(|c| c.len()).fold(0.0, f64::max)
}

impl Battle {
    pub(super) fn rear_heading(&self, side: SideId) -> f64 {
        norm_heading(self.stat.rear[usize::from(side) & 1].inward() + 180.0)
    }

    /// Move every unit in good order as its order says; returns the close combats to fight
    /// this bound: (defender, attackers).
    pub(super) fn move_units(&mut self, events: &mut Vec<Event>) -> Vec<(usize, Vec<usize>)> {
        let mut combats: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if !u.present() || u.acted {
                continue;
            }
            if u.state == State::Rallying {
                self.decide(i, NoAttack::NotInOrder { state: "rallying".into() });
                continue;
            }
            if u.busy > 0.0 {
                self.decide(i, NoAttack::Guns);
                let name = self.name(i).to_string();
                let u = &mut self.units[i];
                u.busy -= 1.0;
                u.acted = true;
                let up = !u.limbered;
                if u.busy <= 0.0 {
                    u.busy = 0.0;
                    u.limbered = !u.limbered;
                }
                events.push(Event::Limbering {
                    unit: name,
                    up,
                    bounds: u.kind.data().limber_bounds,
                    done: u.busy <= 0.0,
                    why: "(its work goes on)".into(),
                });
                continue;
            }
            // A unit an enemy has come to grips with (to fight this bound or the next) stays to
            // receive it: it may not turn and march off from contact.
            let contacting: Vec<usize> = (0..self.units.len())
                .filter(|&a| {
                    let e = &self.units[a];
                    e.side != u.side
                        && e.present()
                        && (e.engage == Some(i as u16) || combats.iter().any(|(d, atk)| *d == i && atk.contains(&a)))
                })
                .collect();
            if let Some(&e) = contacting.first() {
                // It receives the enemy where it stands and as it faces: turning would swing its
                // line out of the contact the enemy came to.
                let enemy = self.name(e).to_string();
                self.decide(i, NoAttack::Receives { enemy });
                continue;
            }
            if let Some(t) = self.attack_target(i) {
                self.decided[i] = Some(Decided::Attacked(t));
                self.attack(i, t, &mut combats, events);
                continue;
            }
            let why = if u.kind.is_guns() {
                NoAttack::Guns
            } else if u.hold_here {
                NoAttack::UnderControl
            } else if !matches!(u.order, Order::Attack { .. }) {
                NoAttack::NotOrdered
            } else if u.greens >= TIRED {
                NoAttack::Spent { greens: u.greens }
            } else if u.second_line {
                NoAttack::SecondLine
            } else {
                NoAttack::NoTarget
            };
            self.decide(i, why);
            let u = &self.units[i];
            if u.kind.is_guns() {
                self.work_guns(i, events);
                continue;
            }
            if u.greens >= TIRED && matches!(u.order, Order::Attack { .. }) {
                // Spent, it no longer attacks: it rests — but not in an enemy battery's canister,
                // where it would only be shot to pieces bound after bound: it falls back out of
                // close range first.
                if let Some(need) = self.canister_depth(i) {
                    self.fall_back(i, need, events);
                }
                continue;
            }
            if u.hold_here {
                continue;
            }
            self.march(i, events);
        }
        combats
    }

    /// Note why unit `i` attacked nobody this bound (if it is not noted already).
    pub(super) fn decide(&mut self, i: usize, why: NoAttack) {
        if let Some(d) = self.decided.get_mut(i) {
            d.get_or_insert(Decided::Not(why));
        }
    }

    /// How far unit `i` stands inside the close range of an enemy battery that can fire at it
    /// (unlimbered, in good order, the unit within 45° of its facing), if it does.
    pub(super) fn canister_depth(&self, i: usize) -> Option<f64> {
        let u = &self.units[i];
        self.units
            .iter()
            .filter(|g| g.side != u.side && g.present() && g.state == State::Steady && !g.limbered)
            .filter_map(|g| {
                let (close, _) = g.kind.ranges()?;
                let d = g.at.dist(u.at);
                (d <= close && turn(g.facing, heading_to(g.at, u.at)).abs() <= 45.0).then_some(close - d)
            })
            .max_by(f64::total_cmp)
    }

    /// Unit `i` turns to its rear and walks back `need` inches (and a little more), as far as a
    /// bound allows — if it has room to turn.
    pub(super) fn fall_back(&mut self, i: usize, need: f64, events: &mut Vec<Event>) {
        let u = &self.units[i];
        let mut path = self.path_from(i, 1.0);
        let back = settle(u.facing, self.rear_heading(u.side));
        let c = turn_cost(u.facing, back);
        if let Some(j) = self.turn_blocked(i, u.at, (u.facing, u.formation), (back, u.formation)) {
            path.stop = Stop::NoRoomToTurn { unit: self.name(j).to_string() };
            self.units[i].no_room = true;
            self.tell_move(i, MoveKind::FallBack, path, events);
            return;
        }
        if back != u.facing {
            path.turns.push(turn_made(u.facing, back, c));
        }
        let rate = u.kind.data().walk;
        let went = self.advance(i, (back, u.formation), 1.0 - c, rate, need + 0.5, None);
        path.went(rate, &went);
        let u = &mut self.units[i];
        u.acted = true;
        u.facing = back;
        self.put(i, went.to);
        self.tell_move(i, MoveKind::FallBack, path, events);
    }

    /// A path starting where unit `i` stands, with `budget` of the bound for it.
    pub(super) fn path_from(&self, i: usize, budget: f64) -> Path {
        let u = &self.units[i];
        Path {
            from: u.at,
            to: u.at,
            facing_from: u.facing,
            facing: u.facing,
            formation_from: u.formation,
            formation: u.formation,
            turns: Vec::new(),
            moving: u.facing,
            budget,
            rate: 0.0,
            ordered: 0.0,
            distance: 0.0,
            obstacle: false,
            wagons: false,
            stop: Stop::Arrived,
        }
    }

    /// `path` ended where unit `i` now stands, as it now faces.
    pub(super) fn path_ended(&self, i: usize, mut path: Path) -> Path {
        let u = &self.units[i];
        path.to = u.at;
        path.facing = u.facing;
        path.formation = u.formation;
        path.distance = path.from.dist(u.at);
        path
    }

    /// Tell unit `i`'s move, ended where the unit now stands, if it moved, turned, changed
    /// formation or tried and could not.
    pub(super) fn tell_move(&self, i: usize, what: MoveKind, path: Path, events: &mut Vec<Event>) {
        let path = self.path_ended(i, path);
        let changed = path.distance > 0.0 || path.facing != path.facing_from || path.formation != path.formation_from;
        if changed
            || matches!(path.stop, Stop::NoRoomToTurn { .. } | Stop::NoTime | Stop::NoEnemy)
            || path.ordered > 0.0
        {
            events.push(Event::Moved { unit: self.name(i).to_string(), what, path });
        }
    }

    /// Move unit `i` along `facing` for up to `budget` of a bound at `rate` inches a bound, no
    /// farther than `limit`: shortened where it would cross a linear obstacle (half a bound),
    /// the wagon parks (half speed), impassable ground, or come too near other units (`target`
    /// may be approached to 2½").
    pub(super) fn advance(
        &self,
        i: usize,
        shape: (f64, Formation),
        budget: f64,
        rate: f64,
        limit: f64,
        target: Option<usize>,
    ) -> Went {
        let u = &self.units[i];
        let facing = shape.0;
        let mut reach = (budget * rate).min(limit).max(0.0);
        let ordered = reach;
        let mut end = u.at.toward(facing, reach);
        // An obstacle in the way takes its half bound whether or not the rest gets it across.
        let in_the_way = self.crosses_obstacle(u.at, end);
        if in_the_way {
            reach = ((budget - cost::OBSTACLE).max(0.0) * rate).min(limit);
            end = u.at.toward(facing, reach);
        }
        let wagons = self.stat.parks.iter().any(|&(c, h)| segment_meets_box(u.at, end, c, h));
        if wagons {
            reach /= 2.0;
            end = u.at.toward(facing, reach);
        }
        let (end, stop) = self.clear_end(i, u.at, end, target, shape);
        let moved = end.dist(u.at);
        let used = if rate > 0.0 { (moved / rate).min(budget) } else { 0.0 };
        let crossed = moved > 0.0 && self.crosses_obstacle(u.at, end);
        let used = if crossed { (used + cost::OBSTACLE).min(budget) } else { used };
        // With less than the obstacle's half bound left it does not start across: no time spent on it.
        let obstacle = crossed || (in_the_way && budget >= cost::OBSTACLE - 1e-9);
        let stop = stop.unwrap_or(if reach >= limit - 1e-9 { Stop::Arrived } else { Stop::Spent });
        Went { to: end, used, stop, obstacle, wagons, ordered, facing }
    }

    /// The farthest point on the way from `from` (where unit `i` stands) towards `to` where it may
    /// end its move: the way there passable, crossing no enemy body, and room to stand at the end;
    /// with why it ended short of `to`, if it did.
    pub(super) fn clear_end(
        &self,
        i: usize,
        from: Point,
        to: Point,
        target: Option<usize>,
        shape: (f64, Formation),
    ) -> (Point, Option<Stop>) {
        let (limit, hit) = self.first_contact(i, from, to, target, shape);
        let last = (limit < 1.0).then(|| from.lerp(to, limit));
        let tenths = (1..=10).rev().map(|k| f64::from(k) / 10.0).filter(|&t| t <= limit).map(|t| from.lerp(to, t));
        let mut why = hit.map(|j| Stop::Body { unit: self.name(j).to_string() });
        // The enemies that may come within 2½" of it anywhere on the way (by the circles round
        // the bodies), each with its footprint and its gap from where the unit stands.
        let u = &self.units[i];
        let outline = u.outline(shape.0, shape.1);
        let ur = half_diagonal(&outline);
        let start = outline.map(|c| c + from);
        let len = from.dist(to);
        // And the friends it may pass through but not end on (section 4, interpretation 6):
        // those near the way that it does not stand on already. One search for both.
        let mut enemies: Vec<Nearby> = Vec::new();
        let mut friends: Vec<(usize, [Point; 4])> = Vec::new();
        for j in self.units_near(from.lerp(to, 0.5), len / 2.0 + APPROACH + ur + 1.5 * self.reach() + 0.1) {
            let v = &self.units[j];
            if j == i || !v.present() {
                continue;
            }
            let off = dist_to_segment(v.at, from, to) - (ur + v.radius() + v.depth() / 2.0 + 0.1);
            if v.side != u.side && off <= APPROACH {
                let body = v.corners();
                enemies.push(Nearby { unit: j, body, gap: footprint_gap(&start, &body) });
            } else if v.side == u.side && off <= 0.0 {
                let body = v.corners();
                if !volley_table::convex_overlap(&start, &body) {
                    friends.push((j, body));
                }
            }
        }
        // The unit that left no room at one point is the likeliest to at the next: asked first.
        let mut blame = None;
        for p in last.into_iter().chain(tenths) {
            if !self.stat.table.segment_passable(from, p) {
                why.get_or_insert(Stop::Ground);
                continue;
            }
            let here = outline.map(|c| c + p);
            if let Some(&(j, _)) = friends.iter().find(|(_, body)| volley_table::convex_overlap(&here, body)) {
                why.get_or_insert_with(|| Stop::Room { unit: self.name(j).to_string() });
                continue;
            }
            if let Some(j) = self.crowded_at(i, p, target, &outline, &enemies, blame) {
                why.get_or_insert_with(|| Stop::Room { unit: self.name(j).to_string() });
                blame = Some(j);
                continue;
            }
            return (p, if p == to { None } else { why });
        }
        (from, Some(why.unwrap_or(Stop::Ground)))
    }

    /// How far along the way from `from` to `to` (a fraction) unit `i`'s footprint, with the
    /// facing and formation it moves in (`shape`), goes before it would overlap the footprint of
    /// an enemy unit (not its `target`, nor one it already overlaps), and that enemy: units are
    /// bodies, and no move passes through one — a running enemy's no more than a steady one's.
    /// 1 if nothing is in the way. Worked out exactly (`volley_table::convex_sweep`); the move
    /// stops a fortieth of an inch short.
    pub(super) fn first_contact(
        &self,
        i: usize,
        from: Point,
        to: Point,
        target: Option<usize>,
        shape: (f64, Formation),
    ) -> (f64, Option<usize>) {
        let u = &self.units[i];
        let len = from.dist(to);
        if len < 1e-9 {
            return (1.0, None);
        }
        let start = u.outline(shape.0, shape.1).map(|c| c + from);
        // The farthest its footprint reaches from its centre.
        let reach = start.iter().map(|c| c.dist(from)).fold(0.0, f64::max);
        let dir = (to - from) * (1.0 / len);
        let r = len / 2.0 + u.radius() + self.reach() + 0.1;
        // The first distance along the way at which the footprint meets an enemy body, exactly
        // (each enemy's footprint against the moving one is an interval of the way); enemies it
        // already overlaps at the start are passed (it is leaving them).
        let mut first = f64::INFINITY;
        let mut who = None;
        for j in self.units_near(from.lerp(to, 0.5), r) {
            let v = &self.units[j];
            if j == i || Some(j) == target || v.side == u.side || !v.present() {
                continue;
            }
            // Far from the whole way (by the circles round both footprints): it cannot be met.
            if dist_to_segment(v.at, from, to) > reach + v.radius() * 1.5 {
                continue;
            }
            if let Some((lo, hi)) = volley_table::convex_sweep(&start, dir, &v.corners())
                && lo >= 0.0
                && lo < first
                && !(lo <= 0.0 && hi > 0.0)
            {
                first = lo;
                who = Some(j);
            }
        }
        if first >= len {
            return (1.0, None);
        }
        // Stop just short of it.
        (((first - PATH_STEP / 10.0) / len).max(0.0), who)
    }

    /// The unit, if any, that leaves unit `i` no room to stand at `p` with its footprint
    /// `outline` (corners about its centre): a friend whose circle it would come into (unless it
    /// gets no nearer), or one of the `enemies` near its way whose body it would come within 2½"
    /// of (its `target` excepted, which it may approach to 2½"), unless it gets no nearer that
    /// enemy than it stood. `first` is asked first.
    fn crowded_at(
        &self,
        i: usize,
        p: Point,
        target: Option<usize>,
        outline: &[Point; 4],
        enemies: &[Nearby],
        first: Option<usize>,
    ) -> Option<usize> {
        let u = &self.units[i];
        let body = outline.map(|c| c + p);
        let enemy = |e: &Nearby| {
            let need = APPROACH - if Some(e.unit) == target { 0.15 } else { 0.05 };
            gap_under(&body, &e.body, need).is_some_and(|gap| gap < e.gap - 1e-9)
        };
        if let Some(e) = enemies.iter().find(|e| Some(e.unit) == first)
            && enemy(e)
        {
            return Some(e.unit);
        }
        if let Some(e) = enemies.iter().find(|e| Some(e.unit) != first && enemy(e)) {
            return Some(e.unit);
        }
        // Friends: nobody farther than the widest footprint's reach can be in the way.
        let r = 0.9 * (u.radius() + self.reach()) + 0.1;
        self.units_near(p, r).find(|&j| {
            let v = &self.units[j];
            if j == i || !v.present() || v.side != u.side {
                return false;
            }
            let d = v.at.dist(p);
            !(d >= 0.9 * (u.radius() + v.radius()) || d >= v.at.dist(u.at) - 1e-9)
        })
    }

    /// The enemy, if any, whose body unit `i` standing at `at` would swing into by turning from
    /// `from` to `to` (facing and formation) about its centre: the whole sweep of its footprint
    /// is checked, not only where it ends (a wheel that passes through a body and out again is
    /// as bad as one that ends in it). Enemies it already overlaps are passed.
    pub(super) fn turn_blocked(
        &self,
        i: usize,
        at: Point,
        from: (f64, Formation),
        to: (f64, Formation),
    ) -> Option<usize> {
        let u = &self.units[i];
        let angle = turn(from.0, to.0);
        // An about turn is the men facing about where they stand (section 4 prices it apart from
        // a wheel): the block does not swing round, so it sweeps no ground; only where it ends
        // (the same ground, within the degree of an about turn's tolerance) is looked at.
        let about = from.1 == to.1 && angle.abs() >= 180.0 - cost::ABOUT_TURN_WITHIN;
        let formations: &[Formation] = if from.1 == to.1 { &[from.1] } else { &[from.1, to.1] };
        let end = u.outline(to.0, to.1).map(|c| c + at);
        let r = formations.iter().map(|&f| half_diagonal(&u.outline(from.0, f))).fold(0.0, f64::max);
        let start = u.outline(from.0, from.1).map(|c| c + at);
        self.units_near(at, r + 1.5 * self.reach() + 0.1).find(|&j| {
            let v = &self.units[j];
            if j == i || !v.present() {
                return false;
            }
            // A friend may be swept through (the passage of lines) but not stood on where the
            // turn ends, unless the unit stood on it already (section 4, interpretation 6).
            if v.side == u.side {
                let body = v.corners();
                return v.at.dist(at) <= r + v.radius() + v.depth() / 2.0 + TOUCH
                    && volley_table::convex_overlap(&end, &body)
                    && !volley_table::convex_overlap(&start, &body);
            }
            // Apart by more than the circles round both footprints: never met.
            if v.at.dist(at) > r + v.radius() + v.depth() / 2.0 + TOUCH {
                return false;
            }
            let body = v.corners();
            if volley_table::convex_overlap(&start, &body) {
                return false;
            }
            if about {
                return volley_table::convex_overlap(&end, &body);
            }
            formations.iter().any(|&f| sweep_meets(u, at, f, from.0, angle, r, &body))
        })
    }

    pub(super) fn crosses_obstacle(&self, a: Point, b: Point) -> bool {
        self.stat.table.features().iter().any(|f| {
            matches!(f.kind, TerrainKind::Wall | TerrainKind::Hedge | TerrainKind::Redoubt | TerrainKind::Trench)
                && segment_crosses_polyline(a, b, &f.points)
        })
    }

    pub(super) fn nearest_enemy(&self, i: usize) -> Option<(usize, f64)> {
        let u = &self.units[i];
        if let Some((b, _)) = &self.index {
            return b
                .nearest(u.at, |j| {
                    let e = &self.units[j as usize];
                    (e.side != u.side && e.present()).then(|| e.at.dist(u.at))
                })
                .map(|(j, d)| (j as usize, d));
        }
        self.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != u.side && e.present())
            .map(|(j, e)| (j, e.at.dist(u.at)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The way unit `i`'s wing faces the enemy: from the centre of the wing's units in good
    /// order to the enemy nearest it — counting, as an attack does, each degree the line would
    /// have to wheel as 0.2" farther, so that an enemy ahead is faced before a nearer one on a
    /// flank — among the enemy within 24" of one of them (or of unit `i`) that are not running
    /// or gone (a beaten enemy fleeing behind is no threat to face); `None` if there is none.
    pub(super) fn wing_front(&self, i: usize) -> Option<f64> {
        const REACH: f64 = 24.0;
        let u = &self.units[i];
        let centre = self.wing_centres().get(usize::from(u.wing)).copied().flatten().unwrap_or(u.at);
        let mates: Vec<Point> = self
            .units
            .iter()
            .filter(|v| v.wing == u.wing && v.in_order())
            .map(|v| v.at)
            .chain(std::iter::once(u.at))
            .collect();
        // (A box round the wing, widened by the reach, passes over most of a big battle's enemy
        // at once: only those inside it are measured to each unit.)
        let (lo, hi) = mates.iter().fold((u.at, u.at), |(lo, hi), p| {
            (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y)))
        });
        let near = |e: &Unit| {
            (lo.x - REACH..=hi.x + REACH).contains(&e.at.x)
                && (lo.y - REACH..=hi.y + REACH).contains(&e.at.y)
                && mates.iter().any(|v| v.dist(e.at) <= REACH)
        };
        let weight = |e: &Unit| e.at.dist(centre) + SWING * turn(u.facing, heading_to(centre, e.at)).abs();
        self.units
            .iter()
            .filter(|e| e.side != u.side && e.present() && !matches!(e.state, State::Running) && near(e))
            .min_by(|a, b| weight(a).total_cmp(&weight(b)))
            .map(|e| heading_to(centre, e.at))
    }

    /// A unit that is not attacking goes where its order sends it.
    pub(super) fn march(&mut self, i: usize, events: &mut Vec<Event>) {
        self.march_with(i, 1.0, MoveKind::March, events);
    }

    /// [`Battle::march`] with `budget` of the bound's move. Every turn and change of formation
    /// is paid for out of the budget and made only if it fits in it, and only if the unit's line
    /// has room to swing (no enemy body in the sweep).
    pub(super) fn march_with(&mut self, i: usize, budget: f64, what: MoveKind, events: &mut Vec<Event>) {
        let u = &self.units[i];
        let Some(dest) = u.dest else { return };
        let far = u.at.dist(dest);
        if far > 0.3
            && far < HOLD_NEAR
            && matches!(u.order, Order::Hold { .. })
            && turn_cost(u.facing, settle(u.facing, heading_to(u.at, dest))) > 0.0
        {
            // Near enough its place to hold it where it stands ([`HOLD_NEAR`]).
            self.units[i].dest = Some(u.at);
            return self.march_with(i, budget, what, events);
        }
        let u = &self.units[i];
        let mut path = self.path_from(i, budget);
        let enemy = self.nearest_enemy(i);
        let mut budget = budget;
        let mut facing = u.facing;
        let column_wanted = u.kind.arm() == Arm::Infantry
            && matches!(u.order, Order::MoveTo { .. } | Order::WithdrawTo { .. })
            && far > 12.0
            && enemy.is_none_or(|(_, d)| d > COLUMN_CLEAR);
        let wanted = if column_wanted { Formation::Column } else { Formation::Line };
        let mut formation = if u.kind.arm() == Arm::Infantry { wanted } else { u.formation };
        let want = if far > 0.3 { settle(facing, heading_to(u.at, dest)) } else { facing };
        let c = turn_cost(facing, want);
        // Only 180° is an about turn (half a bound); any other turn over 45° is a wheel of a
        // whole bound. A change of formation and such a wheel do not both fit in one bound:
        // the unit wheels this bound and changes formation the next.
        if formation != u.formation && c + cost::FORMATION > budget + 1e-9 {
            formation = u.formation;
        }
        let reform = if formation != u.formation { cost::FORMATION } else { 0.0 };
        let mut stop = None;
        let mut at = u.at;
        if c > budget + 1e-9 {
            // Too little of the bound is left for the turn it needs (a winner finishing its
            // move): it does not turn.
            stop = Some(Stop::NoTime);
            formation = u.formation;
        } else if want != facing || reform > 0.0 {
            if let Some(j) = self.turn_blocked(i, u.at, (facing, u.formation), (want, formation)) {
                stop = Some(Stop::NoRoomToTurn { unit: self.name(j).to_string() });
                formation = u.formation;
                self.units[i].no_room = true;
            } else {
                if want != facing {
                    path.turns.push(turn_made(facing, want, c));
                }
                budget -= c + reform;
                facing = want;
            }
        }
        let (start_facing, data, order) = (self.units[i].facing, self.units[i].kind.data(), self.units[i].order);
        let mut trotted = false;
        if stop.is_none() && far > 0.3 {
            if budget > 1e-9 {
                // Trotting cavalry may not change direction at all: any turn means walking.
                let trot = turn(start_facing, facing).abs() < STRAIGHT && data.trot > 0.0;
                trotted = trot;
                let rate = if trot { data.trot } else { data.walk };
                let went = self.advance(i, (facing, formation), budget, rate, far, None);
                at = went.to;
                budget -= went.used;
                path.went(rate, &went);
                stop = Some(went.stop);
            } else {
                stop = Some(Stop::Spent);
            }
        }
        // Arrived (or holding): face the enemy within reach if there is time and room — but not
        // after trotting there (trotting cavalry may not change direction at all). The wing
        // faces as one line: every unit the way from the wing's centre to the enemy nearest it
        // (not each its own nearest, which turned a line into a zig-zag), and only when that
        // way is more than [`FACE_SLACK`] off its front (a line covers what is nearly ahead).
        if stop.as_ref().is_none_or(|s| *s == Stop::Arrived)
            && !trotted
            && at.dist(dest) <= 0.3
            && budget >= cost::WHEEL_UP_TO_45
            && matches!(order, Order::Hold { .. } | Order::Attack { .. } | Order::Reserve)
            && let Some(way) = self.wing_front(i)
            && turn(facing, way).abs() > FACE_SLACK
        {
            let want = settle(facing, way);
            let c = turn_cost(facing, want);
            if c > 0.0 && c <= budget + 1e-9 {
                if self.turn_blocked(i, at, (facing, formation), (want, formation)).is_none() {
                    path.turns.push(turn_made(facing, want, c));
                    facing = want;
                } else {
                    self.units[i].no_room = true;
                }
            }
        }
        if let Some(s) = stop {
            path.stop = s;
        }
        let u = &mut self.units[i];
        u.acted = u.acted || at != u.at || facing != u.facing || formation != u.formation;
        u.facing = facing;
        u.formation = formation;
        self.put(i, at);
        self.tell_move(i, what, path, events);
    }

    /// How far unit `i`, from `at` facing `facing` in `formation`, goes straight ahead before the
    /// gap between its body and enemy `t`'s is down to 2½" (or as far as the two centres are
    /// apart, if it never is).
    pub(super) fn approach_reach(&self, i: usize, at: Point, facing: f64, formation: Formation, t: usize) -> f64 {
        let u = &self.units[i];
        let e = &self.units[t];
        let target = e.corners();
        let shape = u.outline(facing, formation);
        let ahead = volley_table::unit(facing);
        let gap_at = |s: f64| {
            let p = at + ahead * s;
            footprint_gap(&shape.map(|c| c + p), &target)
        };
        let far = at.dist(e.at);
        let now = gap_at(0.0);
        if now <= APPROACH {
            return 0.0;
        }
        // The first point of the way where the gap is down to 2½" (the gap only shrinks until
        // then, going straight for the enemy's centre, and by no more than the way gone):
        // strides as long as the gap allows, then halving.
        let (mut lo, mut hi) = (0.0, far);
        let (mut s, mut gap) = (0.0, now);
        while s < far {
            s = (s + (gap - APPROACH).max(PATH_STEP)).min(far);
            gap = gap_at(s);
            if gap <= APPROACH {
                hi = s;
                break;
            }
            lo = s;
        }
        // Then the point itself between the last stride short of it and the first past it, by
        // false position (the Illinois way: an end kept twice has its gap halved), to a
        // billionth of an inch (or of its gap); the gap stays over 2½" at `lo` and not over it
        // at `hi`.
        let (mut flo, mut fhi) = (gap_at(lo) - APPROACH, gap_at(hi) - APPROACH);
        let mut kept = 0i8;
        for _ in 0..60 {
            if hi - lo < 1e-9 || fhi > 0.0 || flo < 1e-10 {
                break;
            }
            let mut mid = (lo * fhi - hi * flo) / (fhi - flo);
            if !(mid > lo && mid < hi) {
                mid = (lo + hi) / 2.0;
            }
            let f = gap_at(mid) - APPROACH;
            if f > 0.0 {
                (lo, flo) = (mid, f);
                if kept == 1 {
                    fhi /= 2.0;
                }
                kept = 1;
            } else {
                (hi, fhi) = (mid, f);
                if kept == -1 {
                    flo /= 2.0;
                }
                kept = -1;
            }
        }
        lo
    }
}

impl Path {
    /// Note a straight move at `rate` that came to `went`.
    pub(super) fn went(&mut self, rate: f64, went: &Went) {
        self.rate = rate;
        self.moving = went.facing;
        self.ordered = went.ordered;
        self.obstacle = went.obstacle;
        self.wagons = went.wagons;
        self.stop = went.stop.clone();
    }
}

/// Whether unit `u`'s footprint in `formation`, centred at `at`, turning from `from` through
/// `angle` degrees, comes to touch the convex `body`. Conservative advancement: at each step the
/// footprint is `d` from the body, and no point of it, `r` at most from the centre, moves farther
/// than `r` times the angle turned, so it may turn `d / r` radians more before it can touch.
fn sweep_meets(u: &Unit, at: Point, formation: Formation, from: f64, angle: f64, r: f64, body: &[Point; 4]) -> bool {
    let total = angle.abs().to_radians();
    let sign = if angle < 0.0 { -1.0 } else { 1.0 };
    let mut done = 0.0f64;
    for _ in 0..SWEEP_STEPS {
        let shape = u.outline(from + sign * done.to_degrees(), formation).map(|c| c + at);
        let d = footprint_gap(&shape, body);
        if d < TOUCH {
            return true;
        }
        if done >= total {
            return false;
        }
        done = (done + d / r.max(1e-9)).min(total);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A rectangle `w` by `d` centred at `c`, facing `f`.
    fn rect(c: Point, f: f64, w: f64, d: f64) -> [Point; 4] {
        let (fwd, right) = (volley_table::unit(f), volley_table::unit(f + 90.0));
        [
            fwd * (d / 2.0) - right * (w / 2.0),
            fwd * (d / 2.0) + right * (w / 2.0),
            right * (w / 2.0) - fwd * (d / 2.0),
            right * (-w / 2.0) - fwd * (d / 2.0),
        ]
        .map(|p| p + c)
    }

    /// The quick footprint gap is the exact convex distance, and the quick proof that two are
    /// apart never wrong, over many rectangles at random (a fixed sequence).
    #[test]
    fn the_quick_gap_between_footprints_is_the_exact_one() {
        let mut x: u64 = 12345;
        let mut next = move || {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (x >> 11) as f64 / (1u64 << 53) as f64
        };
        for _ in 0..20_000 {
            let a =
                rect(Point::new(next() * 10.0, next() * 10.0), next() * 360.0, 0.5 + next() * 8.0, 0.5 + next() * 2.0);
            let b =
                rect(Point::new(next() * 10.0, next() * 10.0), next() * 360.0, 0.5 + next() * 8.0, 0.5 + next() * 2.0);
            let exact = volley_table::convex_distance(&a, &b);
            assert!((footprint_gap(&a, &b) - exact).abs() < 1e-9, "{a:?} {b:?}");
            let need = next() * 4.0;
            match gap_under(&a, &b, need) {
                Some(g) => assert!(g < need && (g - exact).abs() < 1e-9),
                None => assert!(exact >= need - 1e-9),
            }
        }
    }
}
