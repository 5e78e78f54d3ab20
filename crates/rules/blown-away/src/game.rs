//! The battle: phases, actions, and every rule that moves, rallies, fires and fights.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use volley_chance::{Chance, Deck, DrawKind};
use volley_core::{
    Actor, ApplyError, GameState, Illegal, Outcome, PhaseInfo, SideId, View, Viewer, hash_serialized, illegal,
};
use volley_table::{
    Cover, Point, dist_to_segment, heading_to, norm_heading, point_in_polygon, turn, unit as heading_unit,
};

use crate::combat::{self, Attacker, CardSide, Target};
use crate::events::Event;
use crate::model::{
    Arm, CREW_RADIUS, Formation, Front, Man, ManState, Role, SPACING, Unit, Variant, formed_places, lay_out,
};
use crate::setup::Static;

/// Combat range: units fight when less than this apart.
pub const COMBAT_RANGE: f64 = 4.0;
/// Runners go this far to the rear.
pub const RUN_DISTANCE: f64 = 6.0;
/// A mob of runners moves up to this far.
pub const MOB_MOVE: f64 = 18.0;
/// A mob may not pass closer than this to enemy troops.
pub const MOB_CLEARANCE: f64 = 6.0;
/// A running unit in the way is moved away this far.
pub const PUSH_DISTANCE: f64 = 18.0;
/// Rally case 1: no man in ranks this close to facing enemy men in ranks.
pub const RALLY_CLEAR: f64 = 6.0;
/// Rally case 2: all running men at least this far from enemy men in ranks.
pub const RALLY_FAR: f64 = 24.0;
/// The commander is "next to" a unit within this distance of one of its men.
pub const NEXT_TO: f64 = 2.0;
/// Gunners within this distance of their gun return to it when they rally; farther ones walk
/// back at this many inches a turn.
pub const GUNNER_RETURN: f64 = 6.0;
/// Long-range artillery: minimum and maximum range and half-arc about the boresight.
pub const LRA_RANGE: (f64, f64) = (4.0, 36.0);
/// Half-arc of long-range fire either side of the boresight, degrees.
pub const LRA_ARC: f64 = 45.0;
/// Units may move obliquely up to this far off their facing, degrees.
pub const OBLIQUE: f64 = 45.0;
/// Figures closer than this touch: a move may not end in contact with the enemy.
pub const CONTACT: f64 = 1.0;
/// Radius of a figure when it blocks a line of sight.
pub const FIGURE_RADIUS: f64 = 0.4;
/// Step used to trace a move, inches.
const STEP: f64 = 0.25;
/// The most legs a declared path may have.
pub const MAX_LEGS: usize = 4;

/// Where a battle stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Sides fix their deployments, first side 0 then side 1.
    Deploy,
    /// Move or rally one unit, and move the commander.
    Main,
    /// Fire long-range artillery.
    Artillery,
    /// Conduct (chance) or declare (without-chance) combats; `side` is who acts.
    Combat {
        /// The side acting.
        side: SideId,
    },
    /// The battle is over.
    Over,
}

/// A unit placed otherwise than the scenario file has it, during deployment.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Placement {
    /// Unit index.
    pub unit: u16,
    /// Front centre (artillery: the gun).
    pub at: Point,
    /// Facing.
    pub facing: f64,
    /// Formation.
    pub formation: Formation,
}

/// Everything a player may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Fix this side's deployment: the scenario's, with these units placed otherwise.
    Deploy {
        /// Units placed otherwise.
        #[serde(default)]
        placements: Vec<Placement>,
    },
    /// Move the commander anywhere on the table.
    MoveCommander {
        /// Where to.
        to: Point,
    },
    /// Pivot (optional) and move a unit in ranks: the front centre follows `path`.
    Move {
        /// Unit index.
        unit: u16,
        /// Pivot to this facing first (on the centre of the front rank, or the axle).
        #[serde(default)]
        pivot: Option<f64>,
        /// Waypoints of the front centre: one for a line, up to four for a column.
        path: Vec<Point>,
    },
    /// Change formation and facing instead of moving.
    Reform {
        /// Unit index.
        unit: u16,
        /// New formation.
        formation: Formation,
        /// New facing.
        facing: f64,
    },
    /// Rally a unit.
    Rally {
        /// Unit index.
        unit: u16,
    },
    /// Move a unit with no men in ranks as a mob: the running men follow `path` (offsets of
    /// the mob's centre).
    Mob {
        /// Unit index.
        unit: u16,
        /// Waypoints of the mob's centre.
        path: Vec<Point>,
    },
    /// Walk rallied gunners back towards their gun.
    ReturnGunners {
        /// Unit index.
        unit: u16,
    },
    /// Long-range fire.
    Fire {
        /// The artillery unit.
        gun: u16,
        /// The target unit.
        target: u16,
    },
    /// Conduct (chance) or declare (without-chance) a combat.
    Combat {
        /// The unit conducting it.
        unit: u16,
        /// The enemy unit.
        target: u16,
    },
    /// Finish this phase (or the deployment of the current unit action).
    EndPhase,
}

/// One Blown Away battle.
#[derive(Clone, Debug, Serialize)]
pub struct Battle {
    /// What never changes.
    #[serde(skip)]
    pub stat: Arc<Static>,
    /// Which version.
    pub variant: Variant,
    /// Turn number (each player's turn counts one); 0 during deployment.
    pub turn: u32,
    /// Phase.
    pub phase: Phase,
    /// Whose turn it is.
    pub mover: SideId,
    /// Units.
    pub units: Vec<Unit>,
    /// Where each side's commander is.
    pub commanders: [Point; 2],
    /// Each side's deck (chance version).
    pub decks: [Deck; 2],
    /// Who last occupied each objective.
    pub holders: Vec<Option<SideId>>,
    /// Next engagement id.
    pub next_engagement: u32,
    /// The outcome, once over.
    pub outcome: Option<Outcome>,
    /// Which sides have deployed.
    pub deployed: [bool; 2],
    /// Whether the one unit action of this turn has been taken.
    pub unit_done: bool,
    /// Whether the commander has moved this turn.
    pub commander_moved: bool,
    /// Combats declared this phase (without-chance version).
    pub declared: Vec<(u16, u16)>,
}

/// Result of tracing a move.
struct Trace {
    /// Distance actually covered.
    s: f64,
    /// Why it stopped short.
    stopped: Option<String>,
    /// Running units met on the way, with the point of meeting.
    pushes: Vec<usize>,
    /// Objectives entered by men in ranks on the way.
    entered: Vec<bool>,
}

/// How a unit's men are placed while it moves.
struct MoveShape {
    /// Polyline of the head (with a straight trail behind the start for columns).
    poly: Vec<Point>,
    /// Cumulative lengths along `poly`.
    cum: Vec<f64>,
    /// Unit vector of each leg of `poly` (`dirs[i]` runs from `poly[i]` to `poly[i + 1]`).
    dirs: Vec<Point>,
    /// Arc length of the head's start on `poly`.
    start: f64,
    /// For each man in ranks (index into `men`): offset right and back.
    slots: Vec<(usize, f64, f64)>,
    /// Rigid (line) or snake (column).
    rigid: bool,
    /// Facing of a rigid body, and of the whole unit before it moves.
    facing: f64,
    /// The unit vector of `facing`.
    fwd: Point,
    /// Gun offset (artillery): the axle at the head.
    gun: bool,
}

/// The unit vector to the right of the unit vector `fwd` (a quarter turn clockwise).
fn right_of(fwd: Point) -> Point {
    Point::new(fwd.y, -fwd.x)
}

impl MoveShape {
    fn new(poly: Vec<Point>, start: f64, slots: Vec<(usize, f64, f64)>, rigid: bool, facing: f64, gun: bool) -> Self {
        let fwd = heading_unit(facing);
        let mut cum = Vec::with_capacity(poly.len());
        let mut dirs = Vec::with_capacity(poly.len());
        let mut acc = 0.0;
        let mut dir = fwd;
        for (i, p) in poly.iter().enumerate() {
            if i > 0 {
                let d = *p - poly[i - 1];
                let l = d.len();
                acc += l;
                if l > 1e-12 {
                    dir = d * (1.0 / l);
                }
                dirs.push(dir);
            }
            cum.push(acc);
        }
        MoveShape { poly, cum, dirs, start, slots, rigid, facing, fwd, gun }
    }

    /// The point at arc length `s` and the unit vector of its leg.
    fn at(&self, s: f64) -> (Point, Point) {
        let s = s.clamp(0.0, *self.cum.last().unwrap_or(&0.0));
        let i = self.cum.partition_point(|&c| c < s).clamp(1, self.poly.len().max(2) - 1);
        let (a, b) = (self.poly[i - 1], self.poly.get(i).copied().unwrap_or(self.poly[i - 1]));
        let seg = self.cum.get(i).copied().unwrap_or(0.0) - self.cum[i - 1];
        let t = if seg > 1e-12 { (s - self.cum[i - 1]) / seg } else { 0.0 };
        (a.lerp(b, t), self.dirs.get(i - 1).copied().unwrap_or(self.fwd))
    }

    /// Head position, the men's positions and the unit vector of the unit's facing after
    /// covering `s`.
    fn place(&self, s: f64, out: &mut Vec<(usize, Point)>) -> (Point, Point) {
        out.clear();
        let (head, head_dir) = self.at(self.start + s);
        let fwd = if self.rigid { self.fwd } else { head_dir };
        let rgt = right_of(fwd);
        for &(i, r, b) in &self.slots {
            let p = if self.rigid || b < 1e-9 {
                head + rgt * r - fwd * b
            } else {
                let (c, d) = self.at(self.start + s - b);
                c + right_of(d) * r
            };
            out.push((i, p));
        }
        (head, fwd)
    }

    /// The facing, in degrees, that the unit vector `fwd` from [`MoveShape::place`] stands for.
    fn facing_of(&self, fwd: Point) -> f64 {
        if self.rigid { self.facing } else { heading_to(Point::default(), fwd) }
    }

    /// The farthest any man stands from the head.
    fn extent(&self) -> f64 {
        self.slots.iter().map(|&(_, r, b)| Point::new(r, b).len()).fold(0.0, f64::max)
    }

    fn len(&self) -> f64 {
        self.cum.last().copied().unwrap_or(0.0) - self.start
    }
}

/// An enemy unit near a move: its front, its body in ranks, and a circle holding the body.
struct Foe {
    front: Option<Front>,
    body: Vec<Point>,
    centre: Point,
    radius: f64,
}

fn path_len(start: Point, path: &[Point]) -> f64 {
    let mut prev = start;
    let mut l = 0.0;
    for &p in path {
        l += prev.dist(p);
        prev = p;
    }
    l
}

/// The most objectives a unit is offered to head for: the nearest (every one in the bundled
/// battles, which have at most four).
pub const NEAREST_OBJECTIVES: usize = 8;

impl Battle {
    /// Scenario-wide data.
    pub fn stat(&self) -> &Static {
        &self.stat
    }

    /// A unit's name.
    pub fn name(&self, u: usize) -> &str {
        self.stat.unit_names.get(u).map_or("?", |s| s.as_str())
    }

    fn side_name(&self, s: SideId) -> String {
        self.stat.sides[usize::from(s) & 1].clone()
    }

    fn unit(&self, u: u16) -> Result<&Unit, Illegal> {
        self.units.get(usize::from(u)).ok_or_else(|| Illegal::new(format!("there is no unit {u}")))
    }

    fn own_unit(&self, u: u16, side: SideId) -> Result<&Unit, Illegal> {
        let unit = self.unit(u)?;
        if unit.side != side {
            return illegal!("{} is not yours", self.name(usize::from(u)));
        }
        Ok(unit)
    }

    /// The side that must act.
    pub fn acting_side(&self) -> Option<SideId> {
        match self.phase {
            Phase::Deploy => Some(if self.deployed[0] { 1 } else { 0 }),
            Phase::Main | Phase::Artillery => Some(self.mover),
            Phase::Combat { side } => Some(side),
            Phase::Over => None,
        }
    }

    // ----- geometry between units -----

    /// Least distance between two units' bodies in ranks.
    pub fn unit_dist(&self, a: usize, b: usize) -> f64 {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        let mut best = f64::INFINITY;
        for p in ua.body() {
            for q in ub.body() {
                best = best.min(p.dist2(q));
            }
        }
        best.sqrt()
    }

    /// Whether two units' bodies in ranks are less than `d` apart (cheaper than
    /// [`Battle::unit_dist`] when they are far apart).
    pub fn within(&self, a: usize, b: usize, d: f64) -> bool {
        self.within_bounded(a, b, self.units[a].bounds(), self.units[b].bounds(), d)
    }

    /// [`Battle::within`] for a caller that already has both units' [`Unit::bounds`].
    fn within_bounded(
        &self,
        a: usize,
        b: usize,
        bounds_a: Option<(Point, f64)>,
        bounds_b: Option<(Point, f64)>,
        d: f64,
    ) -> bool {
        let (Some((ca, ra)), Some((cb, rb))) = (bounds_a, bounds_b) else { return false };
        let reach = ra + rb + d;
        if ca.dist2(cb) >= reach * reach {
            return false;
        }
        let (ua, ub) = (&self.units[a], &self.units[b]);
        ua.body().any(|p| ub.body().any(|q| p.dist2(q) < d * d))
    }

    /// Whether unit `a` faces unit `b`: part of `b`'s body lies in `a`'s front arc.
    pub fn faces(&self, a: usize, b: usize) -> bool {
        match self.units[a].front_edge() {
            Some(f) => self.units[b].body().any(|p| f.contains(p)),
            None => false,
        }
    }

    /// Whether `a` stands on `b`'s flank or rear: `a`'s centre is outside `b`'s front arc.
    pub fn on_flank_or_rear(&self, a: usize, b: usize) -> bool {
        match self.units[b].front_edge() {
            Some(f) => !f.contains(self.units[a].centre()),
            None => true,
        }
    }

    /// The cover unit `t` has against unit `from`.
    pub fn cover(&self, t: usize, from: usize) -> Cover {
        self.cover_from_point(t, self.units[from].centre())
    }

    fn cover_from_point(&self, t: usize, from: Point) -> Cover {
        let target = &self.units[t];
        let near = target.body().min_by(|a, b| a.dist2(from).total_cmp(&b.dist2(from))).unwrap_or(target.centre());
        let c = self.stat.table.cover(near, from);
        if c < Cover::Soft && self.stat.table.in_soft_cover(target.centre()) { Cover::Soft } else { c }
    }

    /// Whether two opposing units may fight: both have men in ranks, and they are in the same
    /// engagement, or less than 4" apart with at least one facing the other (without-chance:
    /// the one conducting the combat must face the other).
    pub fn may_fight(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        if ua.side == ub.side || ua.in_ranks() == 0 || ub.in_ranks() == 0 {
            return false;
        }
        if ua.engagement.is_some() && ua.engagement == ub.engagement {
            return true;
        }
        if !self.within(a, b, COMBAT_RANGE) {
            return false;
        }
        match self.variant {
            Variant::Chance => self.faces(a, b) || self.faces(b, a),
            Variant::WithoutChance => self.faces(a, b),
        }
    }

    /// Why `unit` may not conduct combat against `target` now, if it may not.
    fn combat_refusal(&self, unit: u16, target: u16, side: SideId) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let t = self.unit(target)?;
        let (ui, ti) = (usize::from(unit), usize::from(target));
        if t.side == side {
            return illegal!("{} is not an enemy", self.name(ti));
        }
        if u.fought {
            return illegal!("{} has already conducted combat this turn", self.name(ui));
        }
        if u.in_ranks() == 0 {
            return illegal!("{} has no men in ranks", self.name(ui));
        }
        if u.arm == Arm::Artillery && !u.crewed() {
            return illegal!("{}'s gun has no gunner at it", self.name(ui));
        }
        if t.in_ranks() == 0 {
            return illegal!("{} has no men in ranks to fight", self.name(ti));
        }
        if !self.may_fight(ui, ti) {
            return illegal!(
                "{} and {} are not engaged: they must be less than 4\" apart with {} facing the other",
                self.name(ui),
                self.name(ti),
                if self.variant == Variant::Chance { "one" } else { "the attacker" }
            );
        }
        if u.arm == Arm::Cavalry && self.barred_to_cavalry(ti, ui) {
            return illegal!("cavalry may not fight a unit behind a redoubt or a wall, in a trench, or in woods");
        }
        Ok(())
    }

    /// Unit `me` in a card combat against unit `them`, as the table shows it now.
    pub fn card_side(&self, me: usize, them: usize) -> CardSide {
        let u = &self.units[me];
        CardSide {
            arm: Some(u.arm),
            behind_works: matches!(self.cover(me, them), Cover::Wall | Cover::Works),
            on_flank_or_rear: self.on_flank_or_rear(me, them),
            killed_before: u.killed,
            pikes_or_guards: u.pikes_or_guards(),
            militia: u.militia,
        }
    }

    /// Unit `a` attacking unit `t` in the without-chance version, as the table shows it now,
    /// `t` having lost `killed_before` men in its engagement so far.
    pub fn attack_situation(&self, a: usize, t: usize, killed_before: u16) -> (Attacker, Target) {
        let (ua, ut) = (&self.units[a], &self.units[t]);
        let attacker = Attacker {
            arm: Some(ua.arm),
            on_flank_or_rear: self.on_flank_or_rear(a, t),
            in_ranks: ua.in_ranks() as u16,
        };
        let target = Target {
            cover: self.cover(t, a),
            killed_before,
            pikes_or_guards: ut.pikes_or_guards(),
            militia: ut.militia,
        };
        (attacker, target)
    }

    /// Whether cavalry unit `cav` is barred from conducting combat against unit `t`: `t` is
    /// behind a redoubt or a wall or in a trench (as seen from the cavalry), or in woods.
    pub fn barred_to_cavalry(&self, t: usize, cav: usize) -> bool {
        matches!(self.cover(t, cav), Cover::Wall | Cover::Works)
            || self.stat.table.inside(volley_table::TerrainKind::Woods, self.units[t].centre())
    }

    // ----- moving -----

    fn move_shape(&self, ui: usize, pivot: Option<f64>, path: &[Point]) -> MoveShape {
        let u = &self.units[ui];
        // A pivot turns the unit about the centre of its front rank (or the axle), which keeps
        // every man's offset to the right and to the rear: only the facing changes.
        let facing = pivot.map_or(u.facing, norm_heading);
        let (fwd0, rgt0) = (heading_unit(u.facing), heading_unit(u.facing + 90.0));
        let mut slots = Vec::with_capacity(u.men.len());
        for (i, m) in u.men.iter().enumerate() {
            if m.in_ranks() {
                let d = m.at - u.front;
                slots.push((i, d.dot(rgt0), -d.dot(fwd0)));
            }
        }
        let rigid = u.formation == Formation::Line || u.gun.is_some();
        let depth = slots.iter().map(|s| s.2).fold(0.0, f64::max);
        let mut poly = Vec::with_capacity(path.len() + 2);
        let trail = if rigid { 0.0 } else { depth + SPACING };
        if !rigid {
            poly.push(u.front - heading_unit(facing) * trail);
        }
        poly.push(u.front);
        poly.extend_from_slice(path);
        if poly.len() < 2 {
            poly.push(u.front);
        }
        MoveShape::new(poly, trail, slots, rigid, facing, u.gun.is_some())
    }

    /// Why a declared move breaks the rules, if it does.
    fn check_move(&self, side: SideId, unit: u16, pivot: Option<f64>, path: &[Point]) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let ui = usize::from(unit);
        self.may_act_with(ui)?;
        if u.engagement.is_some() {
            return illegal!("{} is engaged in combat and may not pivot or move", self.name(ui));
        }
        if u.in_ranks() == 0 {
            return illegal!("{} has no men in ranks: move it as a mob", self.name(ui));
        }
        if u.running() > 0 {
            return illegal!("{} has men in ranks and men running and may not move", self.name(ui));
        }
        if u.arm == Arm::Artillery && self.stat.rules.year < 1750 {
            return illegal!("artillery before 1750 may not move (the scenario's year is {})", self.stat.rules.year);
        }
        if u.arm == Arm::Artillery && u.men.iter().any(|m| m.in_ranks() && m.at.dist(u.front) > CREW_RADIUS + 1e-9) {
            return illegal!("{}'s gunners must be back at the gun before it moves", self.name(ui));
        }
        if path.is_empty()
            || path.len() > MAX_LEGS
            || (u.formation == Formation::Line || u.gun.is_some()) && path.len() > 1
        {
            return illegal!("a line or gun moves along one straight leg, a column along up to {MAX_LEGS}");
        }
        if path.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) || pivot.is_some_and(|p| !p.is_finite()) {
            return illegal!("the path must be finite numbers");
        }
        let facing = pivot.map_or(u.facing, norm_heading);
        let mut heading = facing;
        let mut prev = u.front;
        for &p in path {
            if p.dist(prev) < 1e-9 {
                return illegal!("a leg of the path has no length");
            }
            let dir = heading_to(prev, p);
            if turn(heading, dir).abs() > OBLIQUE + 1e-6 {
                return illegal!(
                    "{} may move at most 45° off its facing (this leg is {:.0}° off)",
                    self.name(ui),
                    turn(heading, dir).abs()
                );
            }
            if u.formation == Formation::Column && u.gun.is_none() {
                heading = dir;
            }
            prev = p;
        }
        let len = path_len(u.front, path);
        let allow = u.arm.allowance();
        if len > allow + 1e-6 {
            return illegal!("{} may move at most {allow}\", this path is {len:.2}\"", self.name(ui));
        }
        // Every man stays on the table and off impassable ground along the whole path. A rigid
        // body moving along one straight leg sweeps a convex region, so on a table free of
        // impassable ground near the path its two ends decide; otherwise trace it inch by inch.
        if u.formation == Formation::Line || u.gun.is_some() {
            let fwd0 = heading_unit(u.facing);
            let fwd = if pivot.is_some() { heading_unit(facing) } else { fwd0 };
            let (rgt0, rgt) = (right_of(fwd0), right_of(fwd));
            let end = path[0];
            let mut places = Vec::with_capacity(2 * u.men.len() + 2);
            places.extend([u.front, end]);
            for m in u.men.iter().filter(|m| m.in_ranks()) {
                let d = m.at - u.front;
                let off = rgt * d.dot(rgt0) + fwd * d.dot(fwd0);
                places.extend([u.front + off, end + off]);
            }
            if let Some(p) = places.iter().find(|&&p| !self.stat.table.contains(p)) {
                return illegal!("{} would have a man at ({:.1}, {:.1}), off the table", self.name(ui), p.x, p.y);
            }
            if !self.stat.has_impassable {
                return Ok(());
            }
            // Each man (and the gun) goes straight from where he stands to where he ends.
            return match places.chunks(2).find(|pair| !self.stat.table.segment_passable(pair[0], pair[1])) {
                Some(pair) => illegal!(
                    "{} would cross impassable ground on the way from ({:.1}, {:.1}) to ({:.1}, {:.1})",
                    self.name(ui),
                    pair[0].x,
                    pair[0].y,
                    pair[1].x,
                    pair[1].y
                ),
                None => Ok(()),
            };
        }
        let shape = self.move_shape(ui, pivot, path);
        let check_ground = self.stat.has_impassable && self.stat.table.impassable_within(&Self::swept_box(&shape));
        let mut buf = Vec::with_capacity(shape.slots.len());
        let total = shape.len();
        let step = if shape.rigid && !check_ground { total.max(STEP) } else { STEP };
        let mut s = 0.0;
        loop {
            shape.place(s, &mut buf);
            for &(_, p) in &buf {
                if !self.stat.table.contains(p) || (check_ground && !self.stat.table.passable(p)) {
                    return illegal!(
                        "{} would have a man at ({:.1}, {:.1}), off the table or on impassable ground",
                        self.name(ui),
                        p.x,
                        p.y
                    );
                }
            }
            if s >= total {
                break;
            }
            s = (s + step).min(total);
        }
        Ok(())
    }

    /// The enemy units in ranks that could come within `margin` of a move sweeping the box `b`.
    fn foes_near(&self, ui: usize, b: &volley_table::Aabb, margin: f64) -> Vec<Foe> {
        let side = self.units[ui].side;
        let grown = [b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin];
        let inside = |p: &Point| p.x >= grown[0] && p.x <= grown[2] && p.y >= grown[1] && p.y <= grown[3];
        self.units
            .iter()
            .filter(|e| e.side != side && e.in_ranks() > 0)
            .filter(|e| e.body().any(|p| inside(&p)))
            .filter_map(|e| {
                let mut body = Vec::with_capacity(e.men.len() + 1);
                body.extend(e.body());
                let (centre, radius) = e.bounds()?;
                Some(Foe { front: e.front_edge(), body, centre, radius })
            })
            .collect()
    }

    /// The front edge of a moving unit whose men stand at `men`, its head at `head` facing the
    /// unit vector `fwd`.
    fn moving_front(&self, ui: usize, men: &[(usize, Point)], head: Point, fwd: Point, facing: f64) -> Front {
        let rgt = right_of(fwd);
        if self.units[ui].gun.is_some() {
            return Front::with_axes(head, head, facing, fwd, rgt, crate::model::GUN_TAN);
        }
        let (mut lo, mut hi, mut ahead) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(_, p) in men {
            let d = p - head;
            lo = lo.min(d.dot(rgt));
            hi = hi.max(d.dot(rgt));
            ahead = ahead.max(d.dot(fwd));
        }
        Front::with_axes(
            head + fwd * ahead + rgt * lo,
            head + fwd * ahead + rgt * hi,
            facing,
            fwd,
            rgt,
            crate::model::FRONT_TAN,
        )
    }

    /// The least distance from the moving men to the bodies of `foes` that face or are faced
    /// by the mover's `front` (infinity if none is within 4"), and a lower bound of the least
    /// distance to any body of `foes` (from circles holding the bodies: cheap, and enough to
    /// know how far the mover may go before anything can come within 4").
    fn gaps(foes: &[Foe], men: &[(usize, Point)], front: &Front) -> (f64, f64) {
        let Some((centre, radius)) = volley_table::bounding_circle(men.iter().map(|&(_, p)| p)) else {
            return (f64::INFINITY, f64::INFINITY);
        };
        let mut facing = COMBAT_RANGE * COMBAT_RANGE;
        let mut found = false;
        let mut any = f64::INFINITY;
        for foe in foes {
            let apart = (centre.dist(foe.centre) - radius - foe.radius).max(0.0);
            any = any.min(apart);
            if apart >= COMBAT_RANGE {
                continue;
            }
            for &q in &foe.body {
                for &(_, p) in men {
                    let d2 = p.dist2(q);
                    if d2 < facing && (front.contains(q) || foe.front.is_some_and(|f| f.contains(p))) {
                        facing = d2;
                        found = true;
                    }
                }
            }
        }
        (if found { facing.sqrt() } else { f64::INFINITY }, any)
    }

    /// Least distance from the moving men to any body of `foes`.
    fn contact_gap(foes: &[Foe], men: &[(usize, Point)]) -> f64 {
        let mut best = f64::INFINITY;
        for foe in foes {
            for &q in &foe.body {
                for &(_, p) in men {
                    best = best.min(p.dist2(q));
                }
            }
        }
        best.sqrt()
    }

    /// The box a move along `shape` sweeps, grown by the farthest man's offset from the head.
    fn swept_box(shape: &MoveShape) -> volley_table::Aabb {
        let reach = shape.extent() + SPACING;
        let bb = volley_table::bbox(&shape.poly);
        [bb[0] - reach, bb[1] - reach, bb[2] + reach, bb[3] + reach]
    }

    /// How far a move along `shape` goes before it must halt among `foes`, and why it halts.
    ///
    /// It halts at the first point where a man comes within 4" of a foe's body while one
    /// faces the other and the gap is closing (a unit already that close may move away), and it
    /// never ends in contact with the enemy. While every foe is farther than 4" plus a stride,
    /// the trace strides ahead: no man moves farther than the stride (plus the swing of a
    /// column's files at a corner), so nothing can be skipped.
    fn reach(
        &self,
        ui: usize,
        shape: &MoveShape,
        foes: &[Foe],
        buf: &mut Vec<(usize, Point)>,
    ) -> (f64, Option<&'static str>) {
        let total = shape.len();
        if foes.is_empty() {
            return (total, None);
        }
        if shape.rigid && shape.poly.len() == 2 {
            // Every man stays within `extent` of the head, which runs along one straight leg:
            // a foe farther than 4" from all of that sweep can neither stop nor touch the move.
            let extent = shape.extent();
            let (a, b) = (shape.poly[0], shape.poly[1]);
            if foes.iter().all(|f| dist_to_segment(f.centre, a, b) - f.radius - extent >= COMBAT_RANGE + CONTACT) {
                return (total, None);
            }
        }
        let swing = if shape.rigid { 0.0 } else { 2.0 * shape.slots.iter().map(|s| s.1.abs()).fold(0.0, f64::max) };
        let gaps_at = |s: f64, buf: &mut Vec<(usize, Point)>| {
            let (head, fwd) = shape.place(s, buf);
            let front = self.moving_front(ui, buf, head, fwd, shape.facing_of(fwd));
            Self::gaps(foes, buf, &front)
        };
        let (mut prev_gap, mut near) = gaps_at(0.0, buf);
        let (mut prev_s, mut s) = (0.0, 0.0);
        let mut end = total;
        let mut stopped = None;
        if shape.rigid && shape.poly.len() == 2 && prev_gap >= COMBAT_RANGE && total > 1e-12 {
            // A rigid body on one straight leg, not yet within 4" of a facing foe: for every
            // pair of a man and a foe's figure, the stretch of the leg where they are less than
            // 4" apart and the stretch where one faces the other are intervals; the move halts
            // where the first such pair of stretches overlaps. `buf` holds the men at the start.
            let v = (shape.poly[1] - shape.poly[0]) * (1.0 / total);
            let front = self.moving_front(ui, buf, shape.poly[0], shape.fwd, shape.facing);
            let mut first = f64::INFINITY;
            let (c0, rm) = volley_table::bounding_circle(buf.iter().map(|&(_, p)| p)).unwrap_or((shape.poly[0], 0.0));
            for foe in foes {
                // A foe that the whole moving body passes more than 4" from cannot stop it.
                let apart = dist_to_segment(foe.centre, c0, c0 + v * total) - foe.radius - rm;
                if apart >= COMBAT_RANGE {
                    continue;
                }
                for &q in &foe.body {
                    for &(_, p0) in buf.iter() {
                        let Some((dlo, dhi)) = volley_table::span_within(p0, v, q, COMBAT_RANGE, total) else {
                            continue;
                        };
                        if dlo >= first {
                            continue;
                        }
                        // The mover faces q once q lies in its front as it has moved on; the foe
                        // faces the man once he lies in the foe's front.
                        let spans =
                            [front.span_along(q, v * -1.0, total), foe.front.and_then(|f| f.span_along(p0, v, total))];
                        for (lo, hi) in spans.into_iter().flatten() {
                            let (lo, hi) = (lo.max(dlo), hi.min(dhi));
                            if lo < hi && lo < first {
                                // Just inside both: less than 4" apart, and facing.
                                first = lo + (1e-6f64).min((hi - lo) / 2.0);
                            }
                        }
                    }
                }
            }
            if first < total {
                end = first;
                stopped = Some("within 4\" of enemy troops, facing or faced");
            }
            s = total;
        }
        while s < total {
            s = (s + (near - COMBAT_RANGE - swing).max(STEP)).min(total);
            let (gap, any) = gaps_at(s, buf);
            if gap < COMBAT_RANGE && gap < prev_gap - 1e-9 {
                // Stop at the first point within 4": refine between prev_s and s.
                end = prev_s;
                if prev_gap >= COMBAT_RANGE {
                    let (mut lo, mut hi) = (prev_s, s);
                    for _ in 0..20 {
                        let mid = (lo + hi) / 2.0;
                        if gaps_at(mid, buf).0 < COMBAT_RANGE {
                            hi = mid;
                        } else {
                            lo = mid;
                        }
                    }
                    end = hi;
                }
                stopped = Some("within 4\" of enemy troops, facing or faced");
                break;
            }
            (prev_gap, prev_s, near) = (gap, s, any);
        }
        // Do not end in contact with the enemy: back off until clear.
        while end > 0.0 {
            shape.place(end, buf);
            if Self::contact_gap(foes, buf) >= CONTACT {
                break;
            }
            end = (end - STEP).max(0.0);
            stopped = Some("the way ahead is blocked by enemy troops");
        }
        (end, stopped)
    }

    fn trace_move(&self, ui: usize, shape: &MoveShape) -> Trace {
        let side = self.units[ui].side;
        // Everything the move can meet lies within its swept box grown by the combat range.
        let swept = Self::swept_box(shape);
        let foes = self.foes_near(ui, &swept, COMBAT_RANGE);
        let mut buf = Vec::with_capacity(shape.slots.len());
        let (end, stopped) = self.reach(ui, shape, &foes, &mut buf);
        // Running enemies met and objectives passed through on the way to where it halts.
        let mobs: Vec<usize> = (0..self.units.len())
            .filter(|&ei| {
                let e = &self.units[ei];
                e.side != side
                    && e.in_ranks() == 0
                    && e.men.iter().any(|m| m.running() && volley_table::in_box(&swept, m.at, CONTACT))
            })
            .collect();
        let goals: Vec<usize> = (0..self.stat.objectives.len())
            .filter(|&oi| volley_table::boxes_meet(&swept, &self.stat.objective_boxes[oi]))
            .collect();
        let mut pushes = Vec::new();
        let mut entered = vec![false; self.stat.objectives.len()];
        if !mobs.is_empty() || !goals.is_empty() {
            let mut s = 0.0;
            loop {
                shape.place(s, &mut buf);
                for &ei in &mobs {
                    let met = self.units[ei]
                        .men
                        .iter()
                        .any(|m| m.running() && buf.iter().any(|&(_, p)| p.dist2(m.at) < CONTACT * CONTACT));
                    if met && !pushes.contains(&ei) {
                        pushes.push(ei);
                    }
                }
                for &oi in &goals {
                    if !entered[oi] && buf.iter().any(|&(_, p)| point_in_polygon(p, &self.stat.objectives[oi].points)) {
                        entered[oi] = true;
                    }
                }
                if s >= end {
                    break;
                }
                s = (s + STEP).min(end);
            }
        }
        Trace { s: end, stopped: stopped.map(str::to_string), pushes, entered }
    }

    fn may_act_with(&self, ui: usize) -> Result<(), Illegal> {
        if self.unit_done {
            return illegal!("a unit has already moved or rallied this turn ({} must wait)", self.name(ui));
        }
        Ok(())
    }

    /// Whether unit `ui` (mob) may move along `path` (offsets of the mob's centre).
    fn check_mob(&self, side: SideId, unit: u16, path: &[Point]) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let ui = usize::from(unit);
        self.may_act_with(ui)?;
        if u.in_ranks() > 0 || u.running() == 0 {
            return illegal!("only a unit whose men are all running moves as a mob");
        }
        if path.is_empty() || path.len() > MAX_LEGS || path.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
            return illegal!("a mob's path has 1 to {MAX_LEGS} finite waypoints");
        }
        let c = u.centre();
        let len = path_len(c, path);
        if len > MOB_MOVE + 1e-6 {
            return illegal!("a mob moves at most {MOB_MOVE}\", this path is {len:.2}\"");
        }
        let runners: Vec<Point> = u.men.iter().filter(|m| m.running()).map(|m| m.at).collect();
        // Only enemies that the mob could come within its clearance of along this path matter.
        let spread = runners.iter().map(|r| r.dist(c)).fold(0.0, f64::max);
        let reach = len + spread + MOB_CLEARANCE + 1.0;
        let enemies: Vec<Point> = self
            .units
            .iter()
            .filter(|e| e.side != side)
            .flat_map(|e| e.men.iter().filter(|m| m.alive()).map(|m| m.at))
            .filter(|p| p.dist2(c) <= reach * reach)
            .collect();
        // Each runner moves in a straight line along each leg, so his distance to an enemy man
        // is least at one point of the leg. A mob already within 6" may move away, but no leg
        // may bring a runner closer to an enemy than 6" while closing on him.
        let mut from = c;
        for &to in path {
            let v = to - from;
            let vv = v.dot(v).max(1e-12);
            for &r in &runners {
                let start = r + (from - c);
                let end = r + (to - c);
                if !self.stat.table.contains(end) {
                    return illegal!("the mob would leave the table at ({:.1}, {:.1})", end.x, end.y);
                }
                for &e in &enemies {
                    let w = start - e;
                    let t = (-w.dot(v) / vv).clamp(0.0, 1.0);
                    if t > 1e-9 && (w + v * t).dist2(Point::default()) < MOB_CLEARANCE * MOB_CLEARANCE - 1e-9 {
                        return illegal!("a mob may not pass closer than 6\" to enemy troops");
                    }
                }
            }
            from = to;
        }
        if self.stat.has_impassable {
            let mut pts = runners.clone();
            pts.extend(runners.iter().map(|&r| r + (path[path.len() - 1] - c)));
            pts.extend(path.iter().copied());
            let b = volley_table::bbox(&pts);
            let swept = [b[0] - spread, b[1] - spread, b[2] + spread, b[3] + spread];
            if self.stat.table.impassable_within(&swept) {
                let poly = std::iter::once(c).chain(path.iter().copied()).collect();
                let shape = MoveShape::new(poly, 0.0, Vec::new(), true, 0.0, false);
                let mut s = 0.0;
                while s < len {
                    s = (s + STEP * 2.0).min(len);
                    let off = shape.at(s).0 - c;
                    if let Some(q) = runners.iter().map(|&r| r + off).find(|&q| !self.stat.table.passable(q)) {
                        return illegal!("the mob would cross impassable ground at ({:.1}, {:.1})", q.x, q.y);
                    }
                }
            }
        }
        Ok(())
    }

    // ----- rallying -----

    /// How many men unit `ui` may rally now, and why not if none.
    pub fn rally_allowance(&self, ui: usize) -> Result<u16, Illegal> {
        self.rally_allowance_with(ui, self.commanders[usize::from(self.units[ui].side)])
    }

    /// How many men unit `ui` could rally if its side's commander stood at `commander`.
    pub fn rally_allowance_with(&self, ui: usize, commander: Point) -> Result<u16, Illegal> {
        let u = &self.units[ui];
        let running = u.running() as u16;
        if running == 0 {
            return illegal!("{} has nobody running", self.name(ui));
        }
        let in_ranks = u.in_ranks() as u16;
        let commander = self.next_to(ui, commander);
        if in_ranks > 0 {
            // Case 1: nobody in ranks within 6" of enemy men in ranks facing them.
            for (ei, e) in self.units.iter().enumerate() {
                if e.side == u.side || e.in_ranks() == 0 {
                    continue;
                }
                let Some(front) = e.front_edge() else { continue };
                let threatened = u
                    .men
                    .iter()
                    .filter(|m| m.in_ranks())
                    .any(|m| front.contains(m.at) && e.body().any(|q| q.dist(m.at) <= RALLY_CLEAR + 1e-9));
                if threatened {
                    return illegal!("{} has men within 6\" of {} in ranks facing them", self.name(ui), self.name(ei));
                }
            }
            match self.variant {
                Variant::Chance => Ok(running.min(in_ranks)),
                Variant::WithoutChance if commander => Ok(running.min(6)),
                Variant::WithoutChance => illegal!("without chance, a unit rallies only with its commander next to it"),
            }
        } else {
            // Case 2: every running man at least 24" from every enemy man in ranks.
            for (ei, e) in self.units.iter().enumerate() {
                if e.side == u.side {
                    continue;
                }
                let near = |m: &Man| e.men.iter().any(|q| q.in_ranks() && q.at.dist(m.at) < RALLY_FAR - 1e-9);
                if u.men.iter().filter(|m| m.running()).any(near) {
                    return illegal!("{}'s runners are within 24\" of {}", self.name(ui), self.name(ei));
                }
            }
            if !commander {
                return illegal!("a unit with no men in ranks rallies only with the commander next to it");
            }
            Ok(match self.variant {
                Variant::Chance => 1,
                Variant::WithoutChance => running.min(6),
            })
        }
    }

    /// Whether the side's commander is next to unit `ui`.
    pub fn commander_next_to(&self, ui: usize) -> bool {
        self.next_to(ui, self.commanders[usize::from(self.units[ui].side)])
    }

    /// Whether a commander at `c` would be next to unit `ui`.
    fn next_to(&self, ui: usize, c: Point) -> bool {
        let u = &self.units[ui];
        u.men.iter().filter(|m| m.alive()).any(|m| m.at.dist(c) <= NEXT_TO + 1e-9)
            || u.gun.is_some_and(|g| g.at.dist(c) <= NEXT_TO + 1e-9)
    }

    // ----- long-range artillery -----

    /// The man of `target` that `gun` can hit, and the balls it costs, or why not.
    fn lra_shot(&self, side: SideId, gun: u16, target: u16) -> Result<(usize, u8, Cover), Illegal> {
        let g = self.own_unit(gun, side)?;
        let t = self.unit(target)?;
        let (gi, ti) = (usize::from(gun), usize::from(target));
        let Some(cannon) = g.gun else {
            return illegal!("{} has no gun", self.name(gi));
        };
        if t.side == side {
            return illegal!("{} is not an enemy", self.name(ti));
        }
        if g.fired {
            return illegal!("{} has already fired this turn", self.name(gi));
        }
        if !g.crewed() {
            return illegal!("{} has no gunner at the gun", self.name(gi));
        }
        let want_ranks = t.in_ranks() > 0;
        let mut order: Vec<usize> =
            (0..t.men.len()).filter(|&i| if want_ranks { t.men[i].in_ranks() } else { t.men[i].running() }).collect();
        if order.is_empty() {
            return illegal!("{} has nobody on the table", self.name(ti));
        }
        order.sort_by(|&a, &b| t.men[a].at.dist2(cannon.at).total_cmp(&t.men[b].at.dist2(cannon.at)));
        let mut why = "out of range (4\" to 36\")";
        for i in order {
            let p = t.men[i].at;
            let d = p.dist(cannon.at);
            if !(LRA_RANGE.0..=LRA_RANGE.1).contains(&d) {
                continue;
            }
            let pose = volley_table::Pose::new(cannon.at, cannon.facing);
            if !pose.sees_within(p, LRA_ARC) {
                why = "not within 45° of the boresight";
                continue;
            }
            if !self.clear_sight(cannon.at, p, gi, ti) {
                why = "no clear line of sight";
                continue;
            }
            let cover = self.cover_from_point(ti, cannon.at);
            let cost = match cover {
                Cover::Open | Cover::Soft => 1,
                Cover::Wall => 2,
                Cover::Works => 3,
            };
            if cannon.balls < cost {
                return illegal!(
                    "{} has {} balls; firing at a target with {cover:?} cover needs {cost}",
                    self.name(gi),
                    cannon.balls
                );
            }
            return Ok((i, cost, cover));
        }
        illegal!("{} cannot fire at {}: {why}", self.name(gi), self.name(ti))
    }

    /// Whether the line from `a` to `b` is clear of blocking terrain and of other units' men.
    pub fn clear_sight(&self, a: Point, b: Point, from_unit: usize, to_unit: usize) -> bool {
        if self.stat.table.terrain_blocks_sight(a, b) {
            return false;
        }
        for (i, u) in self.units.iter().enumerate() {
            if i == from_unit || i == to_unit {
                continue;
            }
            // Quick reject by the unit's extent.
            let c = u.centre();
            let radius = u.men.iter().filter(|m| m.alive()).map(|m| m.at.dist(c)).fold(0.0, f64::max) + 1.0;
            if dist_to_segment(c, a, b) > radius {
                continue;
            }
            if u.men.iter().filter(|m| m.alive()).any(|m| dist_to_segment(m.at, a, b) < FIGURE_RADIUS) {
                return false;
            }
        }
        true
    }

    // ----- casualties -----

    /// Pick the next man of unit `ui` to kill or make run: men in ranks, the command element
    /// only when nobody else is left in ranks, the flag bearer last of all. The choosing player
    /// takes pikemen and guardsmen first when killing, then the man nearest the enemy.
    fn pick_man(&self, ui: usize, towards: Point, killing: bool) -> Option<usize> {
        let u = &self.units[ui];
        let ordinary = u.men.iter().any(|m| m.in_ranks() && !m.role.is_command());
        let others_than_flag = u.men.iter().any(|m| m.in_ranks() && m.role != Role::FlagBearer);
        let eligible = |m: &Man| {
            m.in_ranks() && (!m.role.is_command() || !ordinary) && (m.role != Role::FlagBearer || !others_than_flag)
        };
        let steadying = killing && u.men.iter().any(|m| eligible(m) && m.role.steadies());
        u.men
            .iter()
            .enumerate()
            .filter(|(_, m)| eligible(m) && (!steadying || m.role.steadies()))
            .min_by(|(_, a), (_, b)| a.at.dist2(towards).total_cmp(&b.at.dist2(towards)))
            .map(|(i, _)| i)
    }

    /// Kill `killed` and make `run` men of unit `ui` run, as chosen for the enemy at
    /// `towards`; returns what was actually applied.
    fn inflict(&mut self, ui: usize, killed: u16, run: u16, towards: Point, on_field: bool) -> (u16, u16) {
        let mut done = (0, 0);
        for _ in 0..killed {
            let Some(i) = self.pick_man(ui, towards, true) else { break };
            let u = &mut self.units[ui];
            u.men[i].state = if on_field { ManState::Fallen } else { ManState::Dead };
            if on_field {
                u.killed += 1;
            }
            done.0 += 1;
        }
        for _ in 0..run {
            let Some(i) = self.pick_man(ui, towards, false) else { break };
            self.make_run(ui, i);
            done.1 += 1;
        }
        done
    }

    fn make_run(&mut self, ui: usize, i: usize) {
        let table = &self.stat.table;
        let u = &mut self.units[ui];
        let rear = norm_heading(u.gun.map_or(u.facing, |g| g.facing) + 180.0);
        let man = &mut u.men[i];
        man.state = ManState::Running;
        man.facing = rear;
        let mut d = RUN_DISTANCE;
        while d > 0.0 {
            let to = table.clamp(man.at.toward(rear, d));
            if table.passable(to) {
                man.at = to;
                break;
            }
            d -= 1.0;
        }
    }

    fn engage(&mut self, a: usize, b: usize) {
        let (ea, eb) = (self.units[a].engagement, self.units[b].engagement);
        let id = match (ea, eb) {
            (Some(x), Some(y)) => {
                if x != y {
                    for u in &mut self.units {
                        if u.engagement == Some(y) {
                            u.engagement = Some(x);
                        }
                    }
                }
                x
            }
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => {
                self.next_engagement += 1;
                self.next_engagement
            }
        };
        self.units[a].engagement = Some(id);
        self.units[b].engagement = Some(id);
    }

    /// End every engagement in which a side has no men in ranks left.
    fn close_engagements(&mut self, events: &mut Vec<Event>) {
        let mut ids: Vec<u32> = self.units.iter().filter_map(|u| u.engagement).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let mut ranks = [0usize; 2];
            for u in self.units.iter().filter(|u| u.engagement == Some(id)) {
                ranks[usize::from(u.side) & 1] += u.in_ranks();
            }
            if ranks[0] == 0 || ranks[1] == 0 {
                let mut names = Vec::new();
                for (i, u) in self.units.iter_mut().enumerate() {
                    if u.engagement == Some(id) {
                        u.engagement = None;
                        u.killed = 0;
                        for m in &mut u.men {
                            if m.state == ManState::Fallen {
                                m.state = ManState::Dead;
                            }
                        }
                        names.push(self.stat.unit_names.get(i).cloned().unwrap_or_default());
                    }
                }
                events.push(Event::EngagementOver { units: names });
            }
        }
    }

    // ----- objectives and the end -----

    fn update_objectives(&mut self, entered_by: Option<(SideId, &[bool])>, events: &mut Vec<Event>) {
        for oi in 0..self.stat.objectives.len() {
            let poly = &self.stat.objectives[oi].points;
            let bb = &self.stat.objective_boxes[oi];
            let mut present = [false; 2];
            for u in &self.units {
                if !present[usize::from(u.side) & 1]
                    && u.men
                        .iter()
                        .any(|m| m.in_ranks() && volley_table::in_box(bb, m.at, 0.0) && point_in_polygon(m.at, poly))
                {
                    present[usize::from(u.side) & 1] = true;
                }
            }
            let mut holder = match present {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => self.holders[oi],
            };
            if let Some((side, entered)) = entered_by {
                if entered.get(oi).copied().unwrap_or(false) && !present[usize::from(1 - side)] {
                    holder = Some(side);
                }
            }
            if holder != self.holders[oi] {
                self.holders[oi] = holder;
                if let Some(h) = holder {
                    events.push(Event::ObjectiveTaken {
                        objective: self.stat.objectives[oi].name.clone(),
                        side: self.side_name(h),
                    });
                }
            }
        }
    }

    fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        let need = usize::from(self.stat.rules.objectives_to_win);
        for s in 0..2u8 {
            let held = self.holders.iter().filter(|h| **h == Some(s)).count();
            if need > 0 && self.stat.objective_sides[usize::from(s)] && held >= need {
                return self.finish(
                    Some(s),
                    format!("{} hold {held} of the {} objectives", self.side_name(s), self.holders.len()),
                    events,
                );
            }
        }
        if let Some(f) = self.stat.rules.rout_below {
            let routed = [0u8, 1].map(|s| {
                let ranks: usize = self.units.iter().filter(|u| u.side == s).map(Unit::in_ranks).sum();
                (ranks as f64) < f * self.stat.men_start[usize::from(s)] as f64
            });
            let pct = f * 100.0;
            let why =
                |s: u8| format!("{} are routed: fewer than {pct:.0}% of their men are in ranks", self.side_name(s));
            match routed {
                [true, true] => {
                    let reason =
                        format!("both armies are routed: fewer than {pct:.0}% of either side's men are in ranks");
                    return self.finish(None, reason, events);
                }
                [true, false] => return self.finish(Some(1), why(0), events),
                [false, true] => return self.finish(Some(0), why(1), events),
                [false, false] => {}
            }
        }
        for s in 0..2u8 {
            if !self.units.iter().any(|u| u.side == s && u.alive()) {
                return self.finish(
                    Some(1 - s),
                    format!("{} have no men left on the field", self.side_name(s)),
                    events,
                );
            }
        }
    }

    fn finish(&mut self, winner: Option<SideId>, reason: String, events: &mut Vec<Event>) {
        let outcome = Outcome { winner, reason };
        events.push(Event::BattleOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
    }

    // ----- the turn -----

    /// The (gun, target) pairs of `side` that may fire long-range now. Cheap tests (balls, a
    /// gunner, a target within 36") come before the full check.
    fn fire_pairs(&self, side: SideId) -> impl Iterator<Item = (usize, usize)> + '_ {
        let guns = (0..self.units.len()).filter(move |&gi| {
            let g = &self.units[gi];
            g.side == side && !g.fired && g.gun.is_some_and(|c| c.balls > 0) && g.crewed()
        });
        guns.flat_map(move |gi| {
            let at = self.units[gi].front;
            (0..self.units.len()).filter_map(move |ti| {
                let t = &self.units[ti];
                let near = t.side != side
                    && t.men.iter().any(|m| m.alive() && m.at.dist2(at) <= LRA_RANGE.1 * LRA_RANGE.1 + 1e-9);
                (near && self.lra_shot(side, gi as u16, ti as u16).is_ok()).then_some((gi, ti))
            })
        })
    }

    /// The (unit, target) pairs of `side` that may conduct combat now. Cheap tests (in ranks,
    /// not yet fought, in the same engagement or within 4") come before the full check.
    fn combat_pairs(&self, side: SideId) -> Vec<(usize, usize)> {
        let bounds: Vec<Option<(Point, f64)>> = self.units.iter().map(Unit::bounds).collect();
        let mut out = Vec::new();
        for (ui, u) in self.units.iter().enumerate() {
            if u.side != side || u.fought || u.in_ranks() == 0 {
                continue;
            }
            for (ti, t) in self.units.iter().enumerate() {
                if t.side == side || t.in_ranks() == 0 {
                    continue;
                }
                let engaged = u.engagement.is_some() && u.engagement == t.engagement;
                let near = || self.within_bounded(ui, ti, bounds[ui], bounds[ti], COMBAT_RANGE);
                if (engaged || near()) && self.combat_refusal(ui as u16, ti as u16, side).is_ok() {
                    out.push((ui, ti));
                }
            }
        }
        out
    }

    fn has_fire(&self) -> bool {
        self.fire_pairs(self.mover).next().is_some()
    }

    fn has_combat(&self, side: SideId) -> bool {
        !self.combat_pairs(side).is_empty()
    }

    /// Move past phases in which nothing can be done.
    fn advance(&mut self, events: &mut Vec<Event>) {
        loop {
            if self.outcome.is_some() {
                self.phase = Phase::Over;
                return;
            }
            match self.phase {
                Phase::Main if self.unit_done && self.commander_moved => self.phase = Phase::Artillery,
                Phase::Artillery if !self.has_fire() => self.phase = Phase::Combat { side: self.mover },
                Phase::Combat { side } if !self.has_combat(side) => self.end_combat_phase(side, events),
                _ => return,
            }
        }
    }

    fn end_combat_phase(&mut self, side: SideId, events: &mut Vec<Event>) {
        match self.variant {
            Variant::Chance => self.next_turn(events),
            Variant::WithoutChance => {
                if side == self.mover {
                    self.phase = Phase::Combat { side: 1 - self.mover };
                } else {
                    self.resolve_simultaneous(events);
                    if self.outcome.is_none() {
                        self.next_turn(events);
                    }
                }
            }
        }
    }

    fn next_turn(&mut self, events: &mut Vec<Event>) {
        self.check_victory(events);
        if self.outcome.is_some() {
            return;
        }
        if let Some(limit) = self.stat.turn_limit {
            if self.turn >= limit {
                let (winner, reason) = self.stat.at_turn_limit.decide(limit, &self.stat.sides, &self.holders);
                return self.finish(winner, reason, events);
            }
        }
        self.turn += 1;
        self.mover = 1 - self.mover;
        self.phase = Phase::Main;
        self.unit_done = false;
        self.commander_moved = false;
        self.declared.clear();
        for u in &mut self.units {
            u.fought = false;
            u.fired = false;
        }
        events.push(Event::TurnBegins { turn: self.turn, side: self.side_name(self.mover) });
    }

    fn resolve_simultaneous(&mut self, events: &mut Vec<Event>) {
        let declared = std::mem::take(&mut self.declared);
        // Every effect is worked out from the state as the combat phase began.
        let mut killed_so_far: Vec<u16> = self.units.iter().map(|u| u.killed).collect();
        let mut plans = Vec::with_capacity(declared.len());
        for &(a, t) in &declared {
            let (ai, ti) = (usize::from(a), usize::from(t));
            let (attacker, target) = self.attack_situation(ai, ti, killed_so_far[ti]);
            let loss = combat::attack_effect(&attacker, &target);
            killed_so_far[ti] += loss.killed;
            plans.push((ai, ti, loss, self.units[ai].centre()));
        }
        for &(a, t) in &declared {
            self.engage(usize::from(a), usize::from(t));
        }
        for (ai, ti, loss, towards) in plans {
            let applied = self.inflict(ti, loss.killed, loss.run, towards, true);
            events.push(Event::Attack {
                attacker: self.name(ai).to_string(),
                target: self.name(ti).to_string(),
                loss,
                applied,
            });
        }
        // Cavalry's weakness.
        let mut cav: Vec<usize> =
            declared.iter().map(|&(a, _)| usize::from(a)).filter(|&a| self.units[a].arm == Arm::Cavalry).collect();
        cav.dedup();
        for c in cav {
            if self.units[c].in_ranks() == 0 {
                continue;
            }
            let side = self.units[c].side;
            let steady_enemy = (0..self.units.len()).any(|e| {
                let eu = &self.units[e];
                eu.side != side
                    && eu.in_ranks() > 0
                    && ((eu.engagement.is_some() && eu.engagement == self.units[c].engagement)
                        || self.within(c, e, COMBAT_RANGE))
                    && self.faces(e, c)
            });
            if steady_enemy {
                let idx: Vec<usize> =
                    (0..self.units[c].men.len()).filter(|&i| self.units[c].men[i].in_ranks()).collect();
                let n = idx.len() as u16;
                for i in idx {
                    self.make_run(c, i);
                }
                events.push(Event::CavalryWeakness { unit: self.name(c).to_string(), ran: n });
            }
        }
        self.close_engagements(events);
        self.update_objectives(None, events);
        self.check_victory(events);
    }

    fn card_combat(
        &mut self,
        a: usize,
        d: usize,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let (sa, sd) = (usize::from(self.units[a].side), usize::from(self.units[d].side));
        let ca = self.decks[sa].peek(
            chance,
            &format_args!("{} card for {} against {}", self.stat.sides[sa], self.name(a), self.name(d)),
        )?;
        let mut dd = self.decks[sd];
        if sa == sd {
            dd.take(ca);
        }
        let cd = dd.peek(
            chance,
            &format_args!("{} card for {} against {}", self.stat.sides[sd], self.name(d), self.name(a)),
        )?;
        self.decks[sa].take(ca);
        self.decks[sd].take(cd);
        let sides = [self.card_side(a, d), self.card_side(d, a)];
        let result = combat::resolve_cards(&sides, [ca, cd]);
        self.engage(a, d);
        let (ta, td) = (self.units[d].centre(), self.units[a].centre());
        let mut applied = [(0, 0); 2];
        if let Some(l) = &result.losses[0] {
            applied[0] = self.inflict(a, l.killed, l.run, ta, true);
        }
        if let Some(l) = &result.losses[1] {
            applied[1] = self.inflict(d, l.killed, l.run, td, true);
        }
        self.units[a].fought = true;
        events.push(Event::CardCombat {
            attacker: self.name(a).to_string(),
            defender: self.name(d).to_string(),
            result,
            applied,
        });
        self.close_engagements(events);
        self.update_objectives(None, events);
        self.check_victory(events);
        Ok(())
    }

    fn push_away(&mut self, ri: usize, by: usize, events: &mut Vec<Event>) {
        let from = self.units[by].centre();
        let c = self.units[ri].centre();
        let base = heading_to(from, c);
        let runners: Vec<usize> = (0..self.units[ri].men.len()).filter(|&i| self.units[ri].men[i].running()).collect();
        let table = &self.stat.table;
        let clear = |dir: f64| {
            runners.iter().all(|&i| {
                let p = self.units[ri].men[i].at;
                (1..=18).all(|k| {
                    let q = p.toward(dir, f64::from(k) * PUSH_DISTANCE / 18.0);
                    table.contains(q) && table.passable(q)
                })
            })
        };
        let dir =
            [0.0, 20.0, -20.0, 40.0, -40.0, 60.0, -60.0, 80.0, -80.0].iter().map(|o| base + o).find(|&d| clear(d));
        let eliminated = dir.is_none();
        let u = &mut self.units[ri];
        for &i in &runners {
            match dir {
                Some(d) => {
                    u.men[i].at = u.men[i].at.toward(d, PUSH_DISTANCE);
                    u.men[i].facing = norm_heading(d);
                }
                None => u.men[i].state = ManState::Dead,
            }
        }
        events.push(Event::Pushed { unit: self.name(ri).to_string(), by: self.name(by).to_string(), eliminated });
    }

    /// Apply a validated action (draws first; nothing changes if one fails).
    fn apply_valid(
        &mut self,
        action: &Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let side = self.acting_side().unwrap_or(0);
        match action {
            Action::Deploy { placements } => {
                let coin = if self.deployed[0] {
                    Some(chance.draw(&DrawKind::Coin, &"the coin flip for the first move")?)
                } else {
                    None
                };
                for p in placements {
                    let u = &mut self.units[usize::from(p.unit)];
                    place_unit(u, p);
                }
                self.deployed[usize::from(side)] = true;
                events.push(Event::Deployed { side: self.side_name(side), changed: placements.len() });
                if let Some(c) = coin {
                    let first = if c == 1 { 0 } else { 1 };
                    events.push(Event::FirstMove { coin: c, side: self.side_name(first) });
                    self.mover = 1 - first;
                    self.update_objectives(None, events);
                    self.next_turn(events);
                }
            }
            Action::MoveCommander { to } => {
                self.commanders[usize::from(side)] = *to;
                self.commander_moved = true;
                let near = (0..self.units.len()).find(|&i| self.units[i].side == side && self.commander_next_to(i));
                events.push(Event::CommanderMoved {
                    name: self.stat.commanders[usize::from(side)].clone(),
                    near: near.map(|i| self.name(i).to_string()),
                });
            }
            Action::Move { unit, pivot, path } => {
                let ui = usize::from(*unit);
                let shape = self.move_shape(ui, *pivot, path);
                let trace = self.trace_move(ui, &shape);
                let mut buf = Vec::new();
                let (head, fwd) = shape.place(trace.s, &mut buf);
                let facing = shape.facing_of(fwd);
                let u = &mut self.units[ui];
                for &(i, p) in &buf {
                    u.men[i].at = p;
                    u.men[i].facing = facing;
                }
                u.front = head;
                u.facing = facing;
                if let Some(g) = &mut u.gun {
                    g.at = head;
                    g.facing = facing;
                }
                if shape.gun {
                    lay_out(u);
                }
                self.unit_done = true;
                events.push(Event::Moved {
                    unit: self.name(ui).to_string(),
                    distance: trace.s,
                    stopped: trace.stopped,
                });
                for r in trace.pushes {
                    self.push_away(r, ui, events);
                }
                self.update_objectives(Some((side, &trace.entered)), events);
                self.check_victory(events);
            }
            Action::Reform { unit, formation, facing } => {
                let ui = usize::from(*unit);
                let u = &mut self.units[ui];
                u.formation = *formation;
                if let Some(g) = &mut u.gun {
                    g.facing = norm_heading(*facing);
                }
                u.facing = norm_heading(*facing);
                lay_out(u);
                self.unit_done = true;
                events.push(Event::Reformed {
                    unit: self.name(ui).to_string(),
                    formation: *formation,
                    facing: norm_heading(*facing),
                });
                self.update_objectives(None, events);
                self.check_victory(events);
            }
            Action::Rally { unit } => {
                let ui = usize::from(*unit);
                let n = self.rally_allowance(ui)?;
                let (rallied, to_gun) = self.rally(ui, n);
                self.unit_done = true;
                events.push(Event::Rallied { unit: self.name(ui).to_string(), men: rallied, to_gun });
                self.close_engagements(events);
                self.update_objectives(None, events);
                self.check_victory(events);
            }
            Action::Mob { unit, path } => {
                let ui = usize::from(*unit);
                let c = self.units[ui].centre();
                let end = path.last().copied().unwrap_or(c);
                let off = end - c;
                let dir = heading_to(path.iter().rev().nth(1).copied().unwrap_or(c), end);
                for m in self.units[ui].men.iter_mut().filter(|m| m.running()) {
                    m.at = m.at + off;
                    m.facing = dir;
                }
                self.unit_done = true;
                events.push(Event::MobMoved { unit: self.name(ui).to_string(), distance: path_len(c, path) });
            }
            Action::ReturnGunners { unit } => {
                let ui = usize::from(*unit);
                let u = &mut self.units[ui];
                if let Some(g) = u.gun {
                    for m in u.men.iter_mut().filter(|m| m.in_ranks()) {
                        let d = m.at.dist(g.at);
                        if d > CREW_RADIUS {
                            m.at = if d <= GUNNER_RETURN + CREW_RADIUS {
                                g.at
                            } else {
                                m.at.toward(heading_to(m.at, g.at), GUNNER_RETURN)
                            };
                        }
                    }
                    lay_out(u);
                }
                let at_gun = u.gun.map_or(0, |g| {
                    u.men.iter().filter(|m| m.in_ranks() && m.at.dist(g.at) <= CREW_RADIUS + 1e-9).count()
                });
                self.unit_done = true;
                events.push(Event::GunnersReturned { unit: self.name(ui).to_string(), at_gun: at_gun as u16 });
            }
            Action::Fire { gun, target } => {
                let (gi, ti) = (usize::from(*gun), usize::from(*target));
                let (man, cost, cover) = self.lra_shot(side, *gun, *target)?;
                let engaged = self.units[ti].engagement.is_some();
                let at = self.units[gi].front;
                // The firing player's choice of victim follows the command-element rule.
                let victim = self.pick_man(ti, at, true).unwrap_or(man);
                let t = &mut self.units[ti];
                t.men[victim].state = if engaged { ManState::Fallen } else { ManState::Dead };
                if engaged {
                    t.killed += 1;
                }
                let g = &mut self.units[gi];
                g.fired = true;
                let mut left = 0;
                if let Some(c) = &mut g.gun {
                    c.balls -= cost;
                    left = c.balls;
                }
                events.push(Event::Fired {
                    gun: self.name(gi).to_string(),
                    target: self.name(ti).to_string(),
                    cover,
                    spent: cost,
                    left,
                    on_field: engaged,
                });
                self.close_engagements(events);
                self.update_objectives(None, events);
                self.check_victory(events);
            }
            Action::Combat { unit, target } => {
                let (ui, ti) = (usize::from(*unit), usize::from(*target));
                match self.variant {
                    Variant::Chance => self.card_combat(ui, ti, chance, events)?,
                    Variant::WithoutChance => {
                        self.units[ui].fought = true;
                        self.declared.push((*unit, *target));
                    }
                }
            }
            Action::EndPhase => match self.phase {
                Phase::Main => self.phase = Phase::Artillery,
                Phase::Artillery => self.phase = Phase::Combat { side: self.mover },
                Phase::Combat { side } => self.end_combat_phase(side, events),
                Phase::Deploy | Phase::Over => {}
            },
        }
        self.advance(events);
        Ok(())
    }

    /// Rally `n` running men of unit `ui`; returns (rallied, straight back to the gun).
    fn rally(&mut self, ui: usize, n: u16) -> (u16, u16) {
        let commander = self.commanders[usize::from(self.units[ui].side)];
        let u = &mut self.units[ui];
        let had_ranks = u.in_ranks() > 0;
        let anchor = if had_ranks { u.front } else { commander };
        let mut idx: Vec<usize> = (0..u.men.len()).filter(|&i| u.men[i].running()).collect();
        idx.sort_by(|&a, &b| u.men[a].at.dist2(anchor).total_cmp(&u.men[b].at.dist2(anchor)));
        idx.truncate(usize::from(n));
        let mut to_gun = 0;
        for &i in &idx {
            let m = &mut u.men[i];
            m.state = ManState::InRanks;
            m.facing = u.facing;
            if let Some(g) = u.gun {
                // Gunners stand about an inch behind the axle and run 6" from there.
                if m.at.dist(g.at) <= GUNNER_RETURN + CREW_RADIUS + 1e-9 {
                    m.at = g.at;
                    to_gun += 1;
                }
            }
        }
        if u.gun.is_none() {
            if !had_ranks {
                if let Some(&first) = idx.first() {
                    u.front = u.men[first].at;
                }
            }
            lay_out(u);
        } else {
            lay_out(u);
        }
        (idx.len() as u16, to_gun)
    }

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, _) => illegal!("the battle is over"),
            (Phase::Deploy, Action::Deploy { placements }) => {
                let depth = self.stat.rules.deployment_depth;
                let rear = self.stat.rear[usize::from(side)];
                let (w, d) = (self.stat.table.width, self.stat.table.depth);
                let mut seen = Vec::new();
                for p in placements {
                    let u = self.own_unit(p.unit, side)?;
                    if seen.contains(&p.unit) {
                        return illegal!("{} is placed twice", self.name(usize::from(p.unit)));
                    }
                    seen.push(p.unit);
                    if !p.at.x.is_finite() || !p.at.y.is_finite() || !p.facing.is_finite() {
                        return illegal!("placements are finite numbers");
                    }
                    if u.gun.is_some() && p.formation == Formation::Column {
                        return illegal!("artillery has no column");
                    }
                    let mut probe = u.clone();
                    place_unit(&mut probe, p);
                    for m in &probe.men {
                        if rear.dist(m.at, w, d) > depth + 1e-9 || !self.stat.table.passable(m.at) {
                            return illegal!(
                                "{} must deploy on passable ground within {depth}\" of your rear edge",
                                self.name(usize::from(p.unit))
                            );
                        }
                    }
                }
                Ok(())
            }
            (Phase::Deploy, _) => illegal!("deployment first: fix your deployment with `deploy`"),
            (_, Action::Deploy { .. }) => illegal!("deployment is over"),
            (Phase::Main, Action::MoveCommander { to }) => {
                if self.commander_moved {
                    return illegal!("the commander has already moved this turn");
                }
                if !to.x.is_finite() || !to.y.is_finite() || !self.stat.table.contains(*to) {
                    return illegal!("the commander must stay on the table");
                }
                Ok(())
            }
            (Phase::Main, Action::Move { unit, pivot, path }) => self.check_move(side, *unit, *pivot, path),
            (Phase::Main, Action::Reform { unit, formation, facing }) => {
                let u = self.own_unit(*unit, side)?;
                let ui = usize::from(*unit);
                self.may_act_with(ui)?;
                if u.engagement.is_some() {
                    return illegal!("{} is engaged in combat and may not pivot", self.name(ui));
                }
                if u.in_ranks() == 0 || u.running() > 0 {
                    return illegal!("only a unit with all its men in ranks may change formation or facing");
                }
                if u.gun.is_some() && *formation == Formation::Column {
                    return illegal!("artillery has no column");
                }
                if !facing.is_finite() {
                    return illegal!("facing must be a number of degrees");
                }
                if formed_places(u, *formation, norm_heading(*facing))
                    .iter()
                    .any(|&(_, p)| !self.stat.table.passable(p))
                {
                    return illegal!("the new formation would put men off the table or on impassable ground");
                }
                Ok(())
            }
            (Phase::Main, Action::Rally { unit }) => {
                self.own_unit(*unit, side)?;
                self.may_act_with(usize::from(*unit))?;
                self.rally_allowance(usize::from(*unit)).map(|_| ())
            }
            (Phase::Main, Action::Mob { unit, path }) => self.check_mob(side, *unit, path),
            (Phase::Main, Action::ReturnGunners { unit }) => {
                let u = self.own_unit(*unit, side)?;
                self.may_act_with(usize::from(*unit))?;
                let Some(g) = u.gun else { return illegal!("only artillery has a gun to return to") };
                if u.running() > 0 {
                    return illegal!("rally the running gunners first");
                }
                if !u.men.iter().any(|m| m.in_ranks() && m.at.dist(g.at) > CREW_RADIUS + 1e-9) {
                    return illegal!("no gunner in ranks is away from the gun");
                }
                Ok(())
            }
            (Phase::Artillery, Action::Fire { gun, target }) => self.lra_shot(side, *gun, *target).map(|_| ()),
            (Phase::Combat { .. }, Action::Combat { unit, target }) => self.combat_refusal(*unit, *target, side),
            (_, Action::EndPhase) => Ok(()),
            (phase, a) => illegal!("{} is not allowed in the {phase:?} phase", action_name(a)),
        }
    }

    fn candidates(&self, side: SideId, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Over => {}
            Phase::Deploy => out.push(Action::Deploy { placements: Vec::new() }),
            Phase::Main => {
                out.push(Action::EndPhase);
                if !self.commander_moved {
                    for ui in 0..self.units.len() {
                        let u = &self.units[ui];
                        if u.side == side && u.running() > 0 && !self.commander_next_to(ui) {
                            if let Some(m) = u
                                .men
                                .iter()
                                .filter(|m| m.alive())
                                .min_by(|a, b| a.at.dist2(u.front).total_cmp(&b.at.dist2(u.front)))
                            {
                                let to = self.stat.table.clamp(m.at);
                                out.push(Action::MoveCommander { to });
                            }
                        }
                    }
                }
                if self.unit_done {
                    return;
                }
                for ui in 0..self.units.len() {
                    if self.units[ui].side != side || !self.units[ui].alive() {
                        continue;
                    }
                    let unit = ui as u16;
                    if self.units[ui].running() > 0 && self.rally_allowance(ui).is_ok() {
                        out.push(Action::Rally { unit });
                    }
                    let u = &self.units[ui];
                    if u.gun.is_some()
                        && u.running() == 0
                        && u.men.iter().any(|m| m.in_ranks() && m.at.dist(u.front) > CREW_RADIUS + 1e-9)
                    {
                        out.push(Action::ReturnGunners { unit });
                    }
                    if u.in_ranks() == 0 {
                        self.mob_candidates(ui, out);
                    } else if u.running() == 0 && u.engagement.is_none() {
                        self.move_candidates(ui, out);
                    }
                }
            }
            Phase::Artillery => {
                out.push(Action::EndPhase);
                out.extend(self.fire_pairs(side).map(|(g, t)| Action::Fire { gun: g as u16, target: t as u16 }));
            }
            Phase::Combat { .. } => {
                out.push(Action::EndPhase);
                out.extend(
                    self.combat_pairs(side)
                        .into_iter()
                        .map(|(u, t)| Action::Combat { unit: u as u16, target: t as u16 }),
                );
            }
        }
    }

    /// Points a unit might head for: the objectives (in a battle of more than
    /// [`NEAREST_OBJECTIVES`], those nearest it), the three nearest enemies and the nearest
    /// one's flank, and (for a unit under 60% of its men in ranks) its own rear edge. The flag
    /// marks the enemies themselves, which are also worth turning to face.
    pub fn destinations(&self, ui: usize) -> Vec<(Point, bool)> {
        let u = &self.units[ui];
        let objectives = self.stat.objective_centres.iter().copied().enumerate();
        let mut out: Vec<(Point, bool)> = volley_table::nearest(u.front, objectives, NEAREST_OBJECTIVES)
            .into_iter()
            .map(|(_, c)| (c, false))
            .collect();
        let mut enemies: Vec<(f64, usize, Point)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != u.side && e.in_ranks() > 0)
            .map(|(i, e)| {
                let c = e.centre();
                (c.dist2(u.front), i, c)
            })
            .collect();
        // The three nearest, nearest first (the lower index first between two as near): picked
        // out, then sorted, rather than sorting them all.
        let by_distance = |a: &(f64, usize, Point), b: &(f64, usize, Point)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if enemies.len() > 3 {
            enemies.select_nth_unstable_by(2, by_distance);
            enemies.truncate(3);
        }
        enemies.sort_by(by_distance);
        for (k, &(_, ei, c)) in enemies.iter().take(3).enumerate() {
            out.push((c, true));
            // The nearest enemy's flank: beside the end of its front.
            if let Some(f) = self.units[ei].front_edge().filter(|_| k == 0) {
                let side_dir = if (u.front - c).dot(heading_unit(f.facing + 90.0)) >= 0.0 { 90.0 } else { -90.0 };
                out.push((c.toward(f.facing + side_dir, 6.0), false));
            }
        }
        // A weakened unit may fall back towards its own rear edge.
        if u.in_ranks() * 5 < u.men.len() * 3 {
            let (w, d) = (self.stat.table.width, self.stat.table.depth);
            let rear = match self.stat.rear[usize::from(u.side)] {
                volley_scenario::Edge::South => Point::new(u.front.x, 3.0),
                volley_scenario::Edge::North => Point::new(u.front.x, d - 3.0),
                volley_scenario::Edge::West => Point::new(3.0, u.front.y),
                volley_scenario::Edge::East => Point::new(w - 3.0, u.front.y),
            };
            out.push((rear, false));
        }
        out
    }

    fn move_candidates(&self, ui: usize, out: &mut Vec<Action>) {
        let u = &self.units[ui];
        let unit = ui as u16;
        let immobile = u.arm == Arm::Artillery && self.stat.rules.year < 1750;
        let allow = u.arm.allowance();
        // Every move of this unit stays within its allowance (plus its own extent) of its front:
        // gather the enemy it could meet once.
        let extent = u.bounds().map_or(0.0, |(c, r)| c.dist(u.front) + r) + SPACING;
        let (f, reach) = (u.front, allow + extent);
        let foes = self.foes_near(ui, &[f.x - reach, f.y - reach, f.x + reach, f.y + reach], COMBAT_RANGE);
        let mut buf = Vec::with_capacity(u.men.len());
        for (dest, enemy) in self.destinations(ui) {
            let d = dest.dist(u.front);
            if d < 0.5 {
                continue;
            }
            let dir = heading_to(u.front, dest);
            if !immobile {
                let pivot = (turn(u.facing, dir).abs() > OBLIQUE).then_some(dir);
                let mut step = d.min(allow);
                // Halve a move that is refused (off the table, into impassable ground) twice.
                for _ in 0..3 {
                    let path = vec![u.front.toward(dir, step)];
                    if self.check_move(u.side, unit, pivot, &path).is_ok() {
                        // Offer the move as far as the unit would really go: a move that would
                        // halt before it starts is no move at all.
                        let gone = self.reach(ui, &self.move_shape(ui, pivot, &path), &foes, &mut buf).0;
                        if gone >= 0.5 {
                            let path = if gone < step - 1e-9 { vec![u.front.toward(dir, gone)] } else { path };
                            let fresh = !out.iter().any(
                                |a| matches!(a, Action::Move { unit: x, path: p, .. } if *x == unit && p == &path),
                            );
                            // A shorter path can end where the longer one only passed (a man's
                            // corner on a river bank between two checks): check it again.
                            if fresh && (gone >= step - 1e-9 || self.check_move(u.side, unit, pivot, &path).is_ok()) {
                                out.push(Action::Move { unit, pivot, path });
                            }
                        }
                        break;
                    }
                    step /= 2.0;
                    if step < 0.5 {
                        break;
                    }
                }
            }
            // Turn to face an enemy without moving (artillery, and units already close).
            if enemy && turn(u.facing, dir).abs() > 20.0 {
                let a = Action::Reform { unit, formation: u.formation, facing: dir };
                if self.validate_for(u.side, &a).is_ok() {
                    out.push(a);
                }
            }
        }
        if u.gun.is_none() {
            let other = if u.formation == Formation::Line { Formation::Column } else { Formation::Line };
            let a = Action::Reform { unit, formation: other, facing: u.facing };
            if self.validate_for(u.side, &a).is_ok() {
                out.push(a);
            }
        }
    }

    fn mob_candidates(&self, ui: usize, out: &mut Vec<Action>) {
        let u = &self.units[ui];
        let c = u.centre();
        let rear = self.stat.rear[usize::from(u.side)].inward() + 180.0;
        for off in [0.0, 45.0, -45.0, 90.0, -90.0] {
            for dist in [MOB_MOVE, MOB_MOVE / 2.0] {
                let path = vec![c.toward(rear + off, dist)];
                if self.check_mob(u.side, ui as u16, &path).is_ok() {
                    out.push(Action::Mob { unit: ui as u16, path });
                    break;
                }
            }
        }
    }

    /// Side `s`'s men at the start, killed, and running now.
    pub fn casualties(&self, s: SideId) -> (usize, usize, usize) {
        let mut t = (0, 0, 0);
        for u in self.units.iter().filter(|u| u.side == s) {
            t.0 += u.men.len();
            t.1 += u.dead();
            t.2 += u.running();
        }
        t
    }
}

fn action_name(a: &Action) -> &'static str {
    match a {
        Action::Deploy { .. } => "deploy",
        Action::MoveCommander { .. } => "move_commander",
        Action::Move { .. } => "move",
        Action::Reform { .. } => "reform",
        Action::Rally { .. } => "rally",
        Action::Mob { .. } => "mob",
        Action::ReturnGunners { .. } => "return_gunners",
        Action::Fire { .. } => "fire",
        Action::Combat { .. } => "combat",
        Action::EndPhase => "end_phase",
    }
}

/// The centroid of a polygon's vertices.
pub fn centroid(points: &[Point]) -> Point {
    let n = points.len().max(1) as f64;
    points.iter().fold(Point::default(), |a, &p| a + p) * (1.0 / n)
}

fn place_unit(u: &mut Unit, p: &Placement) {
    u.front = p.at;
    u.facing = norm_heading(p.facing);
    u.formation = p.formation;
    if let Some(g) = &mut u.gun {
        g.at = p.at;
        g.facing = u.facing;
        for m in &mut u.men {
            m.at = p.at;
        }
    }
    lay_out(u);
}

impl volley_core::Tally for Battle {
    fn scenario_name(&self) -> &str {
        &self.stat.name
    }

    fn variant(&self) -> Option<&'static str> {
        Some(self.variant.id())
    }

    fn side_name(&self, side: SideId) -> &str {
        &self.stat.sides[usize::from(side) & 1]
    }

    fn measure(&self) -> &'static str {
        "men"
    }

    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        self.casualties(side)
    }
}

impl GameState for Battle {
    type Action = Action;
    type Event = Event;

    fn actor(&self) -> Actor {
        match self.acting_side() {
            Some(s) => Actor::Side(s),
            None => Actor::Terminal,
        }
    }

    fn phase(&self) -> PhaseInfo {
        let phase = match self.phase {
            Phase::Deploy => "deployment",
            Phase::Main => "move or rally",
            Phase::Artillery => "long-range artillery",
            Phase::Combat { .. } => "combat",
            Phase::Over => "over",
        };
        PhaseInfo { turn: self.turn, phase: phase.to_string(), side: self.acting_side() }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        if let Some(side) = self.acting_side() {
            self.candidates(side, out);
        }
    }

    fn validate(&self, action: &Action) -> Result<(), Illegal> {
        match self.acting_side() {
            Some(side) => self.validate_for(side, action),
            None => illegal!("the battle is over"),
        }
    }

    fn apply(&mut self, action: &Action, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        // Every draw an action needs is made before anything changes, so a failed draw leaves
        // the state as it was.
        self.validate(action)?;
        self.apply_valid(action, chance, events)
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, viewer: Viewer) -> View {
        crate::view::view(self, viewer)
    }

    fn state_hash(&self) -> u64 {
        hash_serialized(self)
    }

    fn action_points(&self, action: &Action) -> Vec<[f64; 2]> {
        let at = |u: &u16| self.units.get(usize::from(*u)).map(|x| <[f64; 2]>::from(x.centre()));
        let gun = |u: &u16| self.units.get(usize::from(*u)).and_then(|x| x.gun).map(|g| <[f64; 2]>::from(g.at));
        let path = |p: &[Point]| p.iter().map(|&q| <[f64; 2]>::from(q)).collect::<Vec<_>>();
        match action {
            Action::Move { unit, path: p, .. } | Action::Mob { unit, path: p } => {
                at(unit).into_iter().chain(path(p)).collect()
            }
            Action::Fire { gun: g, target } => gun(g).or_else(|| at(g)).into_iter().chain(at(target)).collect(),
            Action::Combat { unit, target } => at(unit).into_iter().chain(at(target)).collect(),
            Action::MoveCommander { to } => vec![(*to).into()],
            _ => Vec::new(),
        }
    }

    fn describe(&self, action: &Action) -> String {
        let p = |q: &Point| format!("[{:.1}, {:.1}]", q.x, q.y);
        let n = |u: &u16| self.name(usize::from(*u)).to_string();
        match action {
            Action::Deploy { placements } => format!("deploy ({} placements)", placements.len()),
            Action::MoveCommander { to } => format!("move the commander to {}", p(to)),
            Action::Move { unit, pivot, path } => {
                let to = path.last().map_or_else(|| "where it stands".to_string(), p);
                match pivot {
                    Some(h) => format!("{}: pivot to {h:.0}° and move to {to}", n(unit)),
                    None => format!("{}: move to {to}", n(unit)),
                }
            }
            Action::Reform { unit, formation, facing } => {
                format!("{}: reform in {formation:?} facing {facing:.0}°", n(unit))
            }
            Action::Rally { unit } => format!("{}: rally", n(unit)),
            Action::Mob { unit, path } => {
                format!("{}: mob to {}", n(unit), path.last().map_or_else(|| "where it stands".to_string(), p))
            }
            Action::ReturnGunners { unit } => format!("{}: return the gunners to the gun", n(unit)),
            Action::Fire { gun, target } => format!("{} fires at {}", n(gun), n(target)),
            Action::Combat { unit, target } => format!("{} engages {}", n(unit), n(target)),
            Action::EndPhase => "end the phase".into(),
        }
    }
}
