//! The pieces: men with a role, a state and a place; units; guns.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::{FrontArc, Point, unit as heading_unit};

use crate::combat::Quarter;

/// Spacing between figures in a formation, inches (25 mm figures on about 1" bases).
pub const SPACING: f64 = 1.0;
/// A gunner this close to his gun crews it.
pub const CREW_RADIUS: f64 = 1.5;
/// Half-angle of a unit's front arc, degrees: a unit of men faces what lies in the corridor
/// straight ahead of its front rank (0° of widening), so that units can pass each other's flanks
/// as the text allows. Artillery faces what lies within 45° of its boresight.
pub const FRONT_ARC: f64 = 0.0;
/// A unit's front reaches this far beyond the centres of its end men: half a figure's frontage,
/// so that the corridor ahead is as wide as the figures standing in the front rank.
pub const HALF_FIGURE: f64 = SPACING / 2.0;
/// Half-angle of a gun's front arc, degrees (the text's 45° either side of the boresight).
pub const GUN_ARC: f64 = 45.0;
/// The tangent of [`FRONT_ARC`].
pub const FRONT_TAN: f64 = 0.0;
/// The tangent of [`GUN_ARC`].
pub const GUN_TAN: f64 = 1.0;

/// Which of the two versions of the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Combat by playing cards; only the moving player's units fight.
    Chance,
    /// Automatic combat; both sides fight, simultaneously.
    WithoutChance,
}

impl Variant {
    /// The variant's id as scenario files and logs spell it.
    pub fn id(self) -> &'static str {
        match self {
            Variant::Chance => "chance",
            Variant::WithoutChance => "without-chance",
        }
    }
}

/// A unit's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// A cannon and its gunners.
    Artillery,
}

impl Arm {
    /// Normal move allowance in inches.
    pub fn allowance(self) -> f64 {
        match self {
            Arm::Infantry | Arm::Artillery => 6.0,
            Arm::Cavalry => 12.0,
        }
    }
}

/// What a figure is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// A musketeer or other ordinary foot soldier.
    Soldier,
    /// The unit's officer (command element).
    Officer,
    /// The drummer (command element).
    Drummer,
    /// The flag bearer (command element, always the last to go).
    FlagBearer,
    /// A pikeman: while any are left the unit has one fewer run.
    Pikeman,
    /// A guardsman: as a pikeman.
    Guardsman,
    /// A militiaman: his unit has two more run.
    Militia,
    /// An artilleryman.
    Gunner,
    /// A cavalryman.
    Cavalryman,
}

impl Role {
    /// The man's role in words: `flag bearer`.
    pub fn name(self) -> &'static str {
        match self {
            Role::Soldier => "soldier",
            Role::Officer => "officer",
            Role::Drummer => "drummer",
            Role::FlagBearer => "flag bearer",
            Role::Pikeman => "pikeman",
            Role::Guardsman => "guardsman",
            Role::Militia => "militiaman",
            Role::Gunner => "gunner",
            Role::Cavalryman => "cavalryman",
        }
    }

    /// Whether the figure belongs to the command element.
    pub fn is_command(self) -> bool {
        matches!(self, Role::Officer | Role::Drummer | Role::FlagBearer)
    }

    /// Whether the figure steadies his unit (pikemen and guardsmen).
    pub fn steadies(self) -> bool {
        matches!(self, Role::Pikeman | Role::Guardsman)
    }
}

/// A figure's state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ManState {
    /// In ranks.
    InRanks,
    /// Running.
    Running,
    /// Killed and lying where he fell (his engagement goes on).
    Fallen,
    /// Killed and returned to the storage tray.
    Dead,
}

/// One figure.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Man {
    /// What he is.
    pub role: Role,
    /// In ranks, running, or dead.
    pub state: ManState,
    /// Where he stands (meaningless once dead).
    pub at: Point,
    /// Which way he faces.
    pub facing: f64,
}

impl Man {
    /// In ranks?
    pub fn in_ranks(&self) -> bool {
        self.state == ManState::InRanks
    }

    /// Running?
    pub fn running(&self) -> bool {
        self.state == ManState::Running
    }

    /// On the table and alive?
    pub fn alive(&self) -> bool {
        matches!(self.state, ManState::InRanks | ManState::Running)
    }
}

/// A formation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// A line: wide, and rigid when it moves.
    Line,
    /// A column: narrow, and its men follow the head like a snake.
    Column,
}

/// A cannon.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Gun {
    /// The axle.
    pub at: Point,
    /// Boresight.
    pub facing: f64,
    /// Cannon balls left.
    pub balls: u8,
}

/// A unit.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Owner.
    pub side: SideId,
    /// Type.
    pub arm: Arm,
    /// Formation (artillery keep `Line`).
    pub formation: Formation,
    /// Ranks of a line.
    pub ranks: u8,
    /// Files of a column.
    pub files: u8,
    /// Centre of the front rank (for artillery, the gun's axle).
    pub front: Point,
    /// Facing of the formation (for artillery, the boresight).
    pub facing: f64,
    /// The figures.
    pub men: Vec<Man>,
    /// The cannon, for artillery.
    pub gun: Option<Gun>,
    /// Whether this is a militia unit.
    pub militia: bool,
    /// The engagement the unit is in, if any.
    pub engagement: Option<u32>,
    /// Men of this unit killed in its current engagement.
    pub killed: u16,
    /// Whether the unit has conducted combat this turn.
    pub fought: bool,
    /// Whether the unit's gun has fired long-range this turn.
    pub fired: bool,
}

/// The front edge of a body and the arc it faces.
pub type Front = FrontArc;

impl Unit {
    /// Men in ranks.
    pub fn in_ranks(&self) -> usize {
        self.men.iter().filter(|m| m.in_ranks()).count()
    }

    /// Men running.
    pub fn running(&self) -> usize {
        self.men.iter().filter(|m| m.running()).count()
    }

    /// Men killed (fallen or in the tray).
    pub fn dead(&self) -> usize {
        self.men.iter().filter(|m| !m.alive()).count()
    }

    /// Whether the gun has a gunner in ranks at it.
    pub fn crewed(&self) -> bool {
        match &self.gun {
            Some(g) => self.men.iter().any(|m| m.in_ranks() && m.at.dist(g.at) <= CREW_RADIUS + 1e-9),
            None => false,
        }
    }

    /// Whether any pikemen or guardsmen are left in ranks.
    pub fn steadied(&self) -> bool {
        self.men.iter().any(|m| m.in_ranks() && m.role.steadies())
    }

    /// The points that make up the unit's body in ranks: men in ranks and, for artillery, the gun
    /// while a gunner in ranks serves it. A gun nobody serves is no body: it cannot fight, stop
    /// a move or be fought.
    pub fn body(&self) -> impl Iterator<Item = Point> + '_ {
        let gun = self.gun.filter(|_| self.crewed()).map(|g| g.at);
        self.men.iter().filter(|m| m.in_ranks()).map(|m| m.at).chain(gun)
    }

    /// The arm the unit fights as: an artillery unit whose gun nobody serves fights as its
    /// gunners alone, men on foot without the artillery's rules.
    pub fn combat_arm(&self) -> Arm {
        if self.arm == Arm::Artillery && !self.crewed() { Arm::Infantry } else { self.arm }
    }

    /// The front edge of the men in ranks (for artillery, the gun and its boresight); `None`
    /// with nobody in ranks.
    pub fn front_edge(&self) -> Option<Front> {
        if let Some(g) = &self.gun {
            // Gunners away from their gun face nothing: they are walking back to it.
            return self.crewed().then(|| FrontArc::new(g.at, g.at, g.facing, GUN_ARC));
        }
        let fwd = heading_unit(self.facing);
        let rgt = heading_unit(self.facing + 90.0);
        let mut any = false;
        let (mut ahead, mut lo, mut hi) = (f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for m in self.men.iter().filter(|m| m.in_ranks()) {
            any = true;
            let d = m.at - self.front;
            ahead = ahead.max(d.dot(fwd));
            lo = lo.min(d.dot(rgt));
            hi = hi.max(d.dot(rgt));
        }
        any.then(|| {
            let left = self.front + fwd * ahead + rgt * (lo - HALF_FIGURE);
            let right = self.front + fwd * ahead + rgt * (hi + HALF_FIGURE);
            FrontArc::with_axes(left, right, self.facing, fwd, rgt, FRONT_TAN)
        })
    }

    /// The centre of the unit's body in ranks (men in ranks and a served gun); `None` with
    /// nobody in ranks.
    pub fn body_centre(&self) -> Option<Point> {
        let (mut s, mut n) = (Point::default(), 0.0);
        for p in self.body() {
            s = s + p;
            n += 1.0;
        }
        (n > 0.0).then(|| s * (1.0 / n))
    }

    /// Which quarter of this unit a unit whose body is `other` and whose centre is `centre`
    /// stands in. Its front: this unit faces it (part of it lies in this unit's front, the
    /// corridor straight ahead of its front rank, or a gun's 45° arc). Otherwise its rear when
    /// the centre lies behind its rearmost rank and within its width (for a gun, more than 135°
    /// off the boresight); anywhere else, its flank. A unit with nobody in ranks faces nothing:
    /// every unit is in its rear.
    pub fn quarter_of(&self, other: impl IntoIterator<Item = Point>, centre: Point) -> Quarter {
        let Some(front) = self.front_edge() else { return Quarter::Rear };
        if other.into_iter().any(|p| front.contains(p)) {
            return Quarter::Front;
        }
        if let Some(g) = self.gun.filter(|_| self.crewed()) {
            let off = volley_table::turn(g.facing, volley_table::heading_to(g.at, centre)).abs();
            return if off > 180.0 - GUN_ARC { Quarter::Rear } else { Quarter::Flank };
        }
        let fwd = heading_unit(self.facing);
        let rgt = heading_unit(self.facing + 90.0);
        let (mut back, mut lo, mut hi) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY);
        for q in self.body() {
            let d = q - self.front;
            back = back.min(d.dot(fwd));
            lo = lo.min(d.dot(rgt));
            hi = hi.max(d.dot(rgt));
        }
        let d = centre - self.front;
        let (f, r) = (d.dot(fwd), d.dot(rgt));
        if f < back - 1e-9 && r >= lo - HALF_FIGURE - 1e-9 && r <= hi + HALF_FIGURE + 1e-9 {
            Quarter::Rear
        } else {
            Quarter::Flank
        }
    }

    /// A circle holding the unit's body in ranks: its centre and radius; `None` when the unit has
    /// no body in ranks.
    pub fn bounds(&self) -> Option<(Point, f64)> {
        volley_table::bounding_circle(self.body())
    }

    /// Pikemen and guardsmen in ranks (they steady a unit in combat).
    pub fn pikes_or_guards(&self) -> u16 {
        self.men.iter().filter(|m| m.in_ranks() && m.role.steadies()).count() as u16
    }

    /// Centre of the men in ranks (or of the living men if none are in ranks).
    pub fn centre(&self) -> Point {
        let pick = |f: &dyn Fn(&Man) -> bool| {
            let (mut s, mut n) = (Point::default(), 0.0);
            for m in self.men.iter().filter(|m| f(m)) {
                s = s + m.at;
                n += 1.0;
            }
            (n > 0.0).then(|| s * (1.0 / n))
        };
        pick(&|m: &Man| m.in_ranks()).or_else(|| pick(&|m: &Man| m.alive())).unwrap_or(self.front)
    }

    /// Whether anything of the unit is on the table.
    pub fn alive(&self) -> bool {
        self.men.iter().any(|m| m.alive())
    }
}

/// Slot offsets (right, back) in inches for `n` men in a block `files` wide; the last rank is
/// centred.
pub fn block_slots(n: usize, files: usize) -> impl Iterator<Item = (f64, f64)> {
    let files = files.max(1);
    (0..n).map(move |i| {
        let rank = i / files;
        let in_rank = (n - rank * files).min(files);
        let f = i % files;
        let right = (f as f64 - (in_rank as f64 - 1.0) / 2.0) * SPACING;
        (right, rank as f64 * SPACING)
    })
}

/// How many files a formation of `n` men has.
pub fn files_for(formation: Formation, ranks: u8, files: u8, n: usize) -> usize {
    match formation {
        Formation::Line => n.div_ceil(usize::from(ranks.max(1))).max(1),
        Formation::Column => usize::from(files.max(1)),
    }
}

/// The order in which men take the slots of a formation: command element in the middle of the
/// front rank is a nicety we skip; men keep their roster order.
pub fn lay_out(unit: &mut Unit) {
    let (formation, facing) = (unit.formation, unit.facing);
    for (i, p) in formed_places(unit, formation, facing) {
        unit.men[i].at = p;
        unit.men[i].facing = facing;
    }
}

/// Where each man in ranks (by index) would stand with the unit formed in `formation` facing
/// `facing` about the centre of its front rank; for artillery, the gunners at the gun stand in
/// a row an inch behind the axle, and gunners away from it stay where they are.
pub fn formed_places(unit: &Unit, formation: Formation, facing: f64) -> Vec<(usize, Point)> {
    let mut out = Vec::with_capacity(unit.men.len());
    if let Some(g) = unit.gun {
        let at_gun = |m: &Man| m.in_ranks() && m.at.dist2(g.at) <= (CREW_RADIUS + 1e-9) * (CREW_RADIUS + 1e-9);
        let n = unit.men.iter().filter(|m| at_gun(m)).count();
        let back = heading_unit(facing + 180.0);
        let rgt = heading_unit(facing + 90.0);
        let slots = block_slots(n, n.max(1));
        let crew = unit.men.iter().enumerate().filter(|(_, m)| at_gun(m));
        out.extend(crew.zip(slots).map(|((i, _), (r, _))| (i, g.at + back * 1.0 + rgt * (r * 0.5))));
        return out;
    }
    let n = unit.in_ranks();
    let files = files_for(formation, unit.ranks, unit.files, n);
    let fwd = heading_unit(facing);
    let rgt = heading_unit(facing + 90.0);
    let ranks = unit.men.iter().enumerate().filter(|(_, m)| m.in_ranks());
    out.extend(ranks.zip(block_slots(n, files)).map(|((i, _), (r, b))| (i, unit.front + rgt * r - fwd * b)));
    out
}
