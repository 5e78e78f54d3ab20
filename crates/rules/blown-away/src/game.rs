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

mod artillery;
mod choices;
mod fight;
mod geometry;
mod movement;
mod rally;
mod victory;

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
/// A unit already close enough to fight a facing enemy when its move begins may move along or
/// away, but halts where it would come this much nearer to that enemy (an eighth of an inch:
/// more than the figures' one-inch spacing makes the distance between two lines sliding past
/// each other swing).
pub const CLOSER: f64 = 0.125;
/// Units pass by enemy troops but not through them: a move is blocked where one of its men
/// would come this near an enemy figure (half the one-inch spacing of figures in a rank).
pub const PASS: f64 = 0.5;
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

/// Gunners walking back to their gun ([`Battle::gunner_walk`]).
#[derive(Default)]
struct GunnerWalk {
    /// Each walking gunner (index into `men`): where he ends, and the way he faces.
    ends: Vec<(usize, Point, f64)>,
    /// How far the walk went.
    s: f64,
    /// Why it stopped short, if it did.
    stopped: Option<&'static str>,
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

    /// As [`MoveShape::place`], with the gun (at the head, index `usize::MAX`) for artillery:
    /// the body that halts, fights and touches.
    fn body_at(&self, s: f64, out: &mut Vec<(usize, Point)>) -> (Point, Point) {
        let (head, fwd) = self.place(s, out);
        if self.gun {
            out.push((usize::MAX, head));
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

/// An enemy unit near a move: its front, its body in ranks, and a circle holding the body; or
/// an enemy gun that nobody serves (`troops` false): a model nobody may pass through or stand
/// on, which halts nobody (interpretation 19).
struct Foe {
    front: Option<Front>,
    body: Vec<Point>,
    centre: Point,
    radius: f64,
    troops: bool,
}

impl Battle {
    /// Where a move from `from` to `to` goes, in words: by the named ground
    /// ([`volley_scenario::places::Landmarks::way`]), else the compass point it goes; no move
    /// at all is said by where it stands.
    fn way_words(&self, from: Point, to: Point) -> String {
        if from.dist(to) < 0.05 {
            return "where it stands".to_string();
        }
        self.stat
            .landmarks
            .way(from, to)
            .unwrap_or_else(|| volley_scenario::places::compass(heading_to(from, to)).into())
    }

    /// Unit `ui`'s move along `path` (after a pivot to `pivot`, if any) in words: forward
    /// (`advance`) or obliquely forward to one hand by so many degrees, as the text has it; its
    /// length; and where it
    /// goes ([`Battle::way_words`]). A column's path of several legs is said by its legs.
    fn move_words(&self, ui: usize, pivot: Option<f64>, path: &[Point]) -> String {
        let Some(u) = self.units.get(ui) else { return "move".to_string() };
        let Some(&end) = path.last() else { return "move where it stands".to_string() };
        let from = u.front;
        let facing = pivot.map_or(u.facing, norm_heading);
        let first = path.iter().copied().find(|p| p.dist(from) > 1e-9).unwrap_or(end);
        let off = turn(facing, heading_to(from, first));
        let how = if path.len() > 1 {
            format!(" along a path of {} legs", path.len())
        } else if off.abs() < 0.5 || from.dist(end) < 0.05 {
            String::new()
        } else {
            // (By how much, in whole degrees off its front: two moves to the same ground read
            // apart.)
            format!(" obliquely {:.0}° to the {}", off.abs(), if off > 0.0 { "right" } else { "left" })
        };
        let sep = if how.is_empty() { "" } else { "," };
        format!("advance {:.1}\"{how}{sep} {}", path_len(from, path), self.way_words(from, end))
    }

    /// The commander's move to `to` in words: over to the units of his side he would be next
    /// to there (the account names the first), else to the place by the ground or the table.
    fn commander_words(&self, to: Point) -> String {
        let side = self.acting_side().unwrap_or(0);
        let name = &self.stat.commanders[usize::from(side)];
        let near: Vec<&str> = (0..self.units.len())
            .filter(|&i| self.units[i].side == side && self.next_to(i, to))
            .map(|i| self.name(i))
            .collect();
        if !near.is_empty() {
            // (Every unit he would be next to: two rides beside one unit and another read apart.)
            return format!("{name} rides over to {}", near.join(" and "));
        }
        format!("{name} rides to {}", self.place_words(to))
    }

    /// Where a man that may not stand at `p` would be, in words: off the table (by the part of
    /// the table it would leave), else on impassable ground (by the named ground, or the part
    /// of the table).
    pub(crate) fn where_man(&self, p: Point) -> String {
        let d = self.stat.table.depth;
        if !self.stat.table.contains(p) {
            let edge = if p.y > d {
                "north"
            } else if p.y < 0.0 {
                "south"
            } else if p.x < 0.0 {
                "west"
            } else {
                "east"
            };
            return format!("off the table, past its {edge} edge");
        }
        format!("on impassable ground, {}", self.place_words(p))
    }

    /// A place in words: the named ground it is in or near, else the part of the table.
    pub(crate) fn place_words(&self, to: Point) -> String {
        let (w, d) = (self.stat.table.width, self.stat.table.depth);
        self.stat.landmarks.named(to).unwrap_or_else(|| volley_scenario::places::region_words(to, w, d))
    }
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

    /// Where the turn stands, in the course of play's words, with the side that acts: `the
    /// Prussians move or rally one unit, and move their commander`.
    pub fn phase_words(&self) -> String {
        let side = self.acting_side().map_or(String::new(), |s| self.stat.sides[usize::from(s) & 1].clone());
        match self.phase {
            Phase::Deploy => format!("the {side} fix their deployment in secret"),
            Phase::Main => format!("the {side} move or rally one unit, and move their commander"),
            Phase::Artillery => format!("the {side} fire long-range artillery"),
            Phase::Combat { .. } => format!("the {side} conduct combats"),
            Phase::Over => "the battle is over".into(),
        }
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

    fn may_act_with(&self, ui: usize) -> Result<(), Illegal> {
        if self.unit_done {
            return illegal!("a unit has already moved or rallied this turn ({} must wait)", self.name(ui));
        }
        Ok(())
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
        if let Some(limit) = self.stat.turn_limit
            && self.turn >= limit
        {
            let (winner, reason) = self.stat.at_turn_limit.decide(limit, &self.stat.sides, &self.holders);
            return self.finish(winner, reason, events);
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
                events.push(Event::Deployed { side: self.side_name(side) });
                if !placements.is_empty() {
                    events.push(Event::Replanned { side: self.side_name(side), changed: placements.len() });
                }
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
                let place = near.is_none().then(|| self.place_words(*to));
                events.push(Event::CommanderMoved {
                    name: self.stat.commanders[usize::from(side)].clone(),
                    near: near.map(|i| self.name(i).to_string()),
                    place,
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
                } else {
                    u.reframe();
                }
                self.unit_done = true;
                events.push(Event::Moved {
                    unit: self.name(ui).to_string(),
                    distance: trace.s,
                    stopped: trace.stopped,
                    pivot: *pivot,
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
                let why = self.rally_why(ui, n);
                let (rallied, to_gun) = self.rally(ui, n);
                self.unit_done = true;
                events.push(Event::Rallied { unit: self.name(ui).to_string(), men: rallied, to_gun, why });
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
                // A mob keeps no formation: it has no frame until it rallies.
                self.units[ui].reframe();
                self.unit_done = true;
                events.push(Event::MobMoved { unit: self.name(ui).to_string(), distance: path_len(c, path) });
            }
            Action::ReturnGunners { unit } => {
                let ui = usize::from(*unit);
                let walk = self.gunner_walk(ui);
                let u = &mut self.units[ui];
                if let Some(g) = u.gun {
                    for &(i, at, facing) in &walk.ends {
                        // Those who reach the crew's place at the gun stand to it.
                        u.men[i].at = if at.dist(g.at) <= 1e-9 { g.at } else { at };
                        u.men[i].facing = facing;
                    }
                    lay_out(u);
                }
                let at_gun = u.gun.map_or(0, |g| {
                    u.men.iter().filter(|m| m.in_ranks() && m.at.dist(g.at) <= CREW_RADIUS + 1e-9).count()
                });
                self.unit_done = true;
                events.push(Event::GunnersReturned {
                    unit: self.name(ui).to_string(),
                    at_gun: at_gun as u16,
                    distance: walk.s,
                    stopped: walk.stopped.map(str::to_string),
                });
                self.update_objectives(None, events);
                self.check_victory(events);
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

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, _) => illegal!("the battle is over"),
            (Phase::Deploy, Action::Deploy { placements }) => {
                let depth = self.stat.rules.deployment_depth;
                let rear = self.stat.rear[usize::from(side)];
                let (w, d) = (self.stat.table.width, self.stat.table.depth);
                let mut seen = Vec::new();
                let mut placed: Vec<(usize, Unit)> = Vec::with_capacity(placements.len());
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
                    placed.push((usize::from(p.unit), probe));
                }
                // A unit placed may not stand on another of its side's, placed or not.
                let at = |i: usize| placed.iter().find(|(j, _)| *j == i).map_or(&self.units[i], |(_, u)| u);
                for (i, u) in &placed {
                    if let Some(j) =
                        (0..self.units.len()).find(|&j| j != *i && self.units[j].side == side && u.stands_on(at(j)))
                    {
                        return illegal!("{} would stand on {}", self.name(*i), self.name(j));
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
                let places = formed_places(u, *formation, norm_heading(*facing));
                if places.iter().any(|&(_, p)| !self.stat.table.passable(p)) {
                    return illegal!("the new formation would put men off the table or on impassable ground");
                }
                // Nobody may stand where enemy men (in ranks or running) or an enemy gun stand.
                if self.where_enemy_stands(side, places.iter().map(|&(_, p)| p)) {
                    return illegal!("the new formation would put men where the enemy stands");
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
                if u.engagement.is_some() {
                    return illegal!(
                        "{} is engaged in combat: its gunners may not move",
                        self.name(usize::from(*unit))
                    );
                }
                let walk = self.gunner_walk(usize::from(*unit));
                if walk.s < 0.05 {
                    return illegal!(
                        "{}'s gunners cannot walk back to their gun: {}",
                        self.name(usize::from(*unit)),
                        walk.stopped.unwrap_or("they are at it")
                    );
                }
                Ok(())
            }
            (Phase::Artillery, Action::Fire { gun, target }) => self.lra_shot(side, *gun, *target).map(|_| ()),
            (Phase::Combat { .. }, Action::Combat { unit, target }) => self.combat_refusal(*unit, *target, side),
            (_, Action::EndPhase) => Ok(()),
            (_, a) => illegal!("one may not {} now: {}", action_name(a), self.phase_words()),
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
        Action::MoveCommander { .. } => "move the commander",
        Action::Move { .. } => "move a unit",
        Action::Reform { .. } => "change a unit's formation or facing",
        Action::Rally { .. } => "rally a unit",
        Action::Mob { .. } => "move a mob",
        Action::ReturnGunners { .. } => "return gunners to their gun",
        Action::Fire { .. } => "fire long-range artillery",
        Action::Combat { .. } => "conduct a combat",
        Action::EndPhase => "end the phase",
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
    fn chance_words(&self) -> Option<&'static str> {
        match self.variant {
            Variant::Chance => Some("cards"),
            Variant::WithoutChance => None,
        }
    }

    type Action = Action;
    type Event = Event;

    fn actor(&self) -> Actor {
        match self.acting_side() {
            Some(s) => Actor::Side(s),
            None => Actor::Terminal,
        }
    }

    fn phase(&self) -> PhaseInfo {
        PhaseInfo { turn: self.turn, phase: self.phase_words(), side: self.acting_side() }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        if let Some(side) = self.acting_side() {
            self.candidates(side, out);
        }
    }

    /// The rules give the umpire no action of his own: every action is the acting side's.
    fn validate_by(&self, by: Actor, action: &Action) -> Result<(), Illegal> {
        volley_core::check_actor(self.actor(), by, false)?;
        match self.acting_side() {
            Some(side) => self.validate_for(side, action),
            None => illegal!("the battle is over"),
        }
    }

    fn apply_by(
        &mut self,
        by: Actor,
        action: &Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        // Every draw an action needs is made before anything changes, so a failed draw leaves
        // the state as it was.
        self.validate_by(by, action)?;
        self.apply_valid(action, chance, events)?;
        // Each unit's pivot is the centre man of its front rank as its men stand now.
        for u in &mut self.units {
            u.centre_on_front_man();
        }
        Ok(())
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

    /// How many units a side placed otherwise than the plan is for that side and the umpire.
    fn event_visible(&self, event: &Event, viewer: Viewer) -> bool {
        match (event, viewer) {
            (Event::Replanned { side, .. }, Viewer::Side(s)) => *side == self.side_name(s),
            (Event::Replanned { .. }, Viewer::Spectator) => false,
            _ => true,
        }
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
        let n = |u: &u16| self.name(usize::from(*u)).to_string();
        match action {
            Action::Deploy { placements } if placements.is_empty() => "fix the deployment as it stands".to_string(),
            Action::Deploy { placements } => format!(
                "fix the deployment, with {} placed otherwise",
                placements.iter().map(|p| self.name(usize::from(p.unit))).collect::<Vec<_>>().join(", ")
            ),
            Action::MoveCommander { to } => self.commander_words(*to),
            Action::Move { unit, pivot, path } => match (pivot, self.move_words(usize::from(*unit), *pivot, path)) {
                (Some(h), m) => {
                    format!("{}: pivot to {} ({h:.0}°) and {m}", n(unit), volley_scenario::places::compass(*h))
                }
                (None, m) => format!("{}: {m}", n(unit)),
            },
            Action::Reform { unit, formation, facing } => {
                format!(
                    "{}: form {} facing {} ({facing:.0}°)",
                    n(unit),
                    if *formation == Formation::Line { "line" } else { "column" },
                    volley_scenario::places::compass(*facing)
                )
            }
            Action::Rally { unit } => format!("{}: rally", n(unit)),
            Action::Mob { unit, path } => {
                let Some(u) = self.units.get(usize::from(*unit)) else { return format!("{}: mob", n(unit)) };
                let from = u.centre();
                let to = path.last().copied().unwrap_or(from);
                // The way it goes by the compass as well as by the ground: two ways to the same
                // side of a long river read apart.
                let way = if from.dist(to) < 0.05 {
                    "where it stands".to_string()
                } else {
                    let compass = volley_scenario::places::compass(heading_to(from, to));
                    match self.stat.landmarks.way(from, to) {
                        Some(w) => format!("{compass}, {w}"),
                        None => compass.to_string(),
                    }
                };
                format!("{}: mob {:.1}\" {way}", n(unit), path_len(from, path))
            }
            Action::ReturnGunners { unit } => format!("{}: return the gunners to the gun", n(unit)),
            Action::Fire { gun, target } => format!("{} fires at {}", n(gun), n(target)),
            Action::Combat { unit, target } => format!("{} engages {}", n(unit), n(target)),
            Action::EndPhase => "end the phase".into(),
        }
    }
}
