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
    /// The enemy units it is engaged with: those it has fought, or been fought by, in its
    /// current engagement (they may fight on however far apart they stand).
    #[serde(default)]
    pub engaged_with: Vec<u16>,
    /// Men of this unit killed in its current engagement.
    pub killed: u16,
    /// Whether the unit has conducted combat this turn.
    pub fought: bool,
    /// Whether the unit's gun has fired long-range this turn.
    pub fired: bool,
    /// The ground its formation covered when it last formed (see [`Frame`]); `None` with nobody
    /// in ranks then.
    #[serde(default)]
    pub frame: Option<Frame>,
}

/// The ground a unit's formation covers as it last formed — was placed, moved, re-formed or
/// rallied — in its own axes from its `front`: how far its men stood ahead of `front` (`ahead`,
/// the front rank) and behind it (`back`, negative: the rearmost rank), and to the left and
/// right (`lo`, `hi`; the men's centres). Men who fall or run later leave the frame as it was:
/// the unit stands where it formed until it forms again, and it cannot move or re-form while it
/// is engaged or has men running. Flank and rear are judged against it (interpretation 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frame {
    /// Forward offset of the front rank.
    pub ahead: f64,
    /// Forward offset of the rearmost rank (negative behind `front`).
    pub back: f64,
    /// Offset of the leftmost man (negative left of `front`).
    pub lo: f64,
    /// Offset of the rightmost man.
    pub hi: f64,
}

impl Frame {
    /// The frame of men standing at `men`, in the axes of `facing` from `origin`; `None` for
    /// nobody.
    pub fn around(origin: Point, facing: f64, men: impl IntoIterator<Item = Point>) -> Option<Frame> {
        let (fwd, rgt) = (heading_unit(facing), heading_unit(facing + 90.0));
        let mut frame: Option<Frame> = None;
        for p in men {
            let d = p - origin;
            let (f, r) = (d.dot(fwd), d.dot(rgt));
            let fr = frame.get_or_insert(Frame { ahead: f, back: f, lo: r, hi: r });
            fr.ahead = fr.ahead.max(f);
            fr.back = fr.back.min(f);
            fr.lo = fr.lo.min(r);
            fr.hi = fr.hi.max(r);
        }
        frame
    }

    /// Its corners on the table, for a unit at `origin` facing `facing`.
    pub fn corners(&self, origin: Point, facing: f64) -> [Point; 4] {
        let (fwd, rgt) = (heading_unit(facing), heading_unit(facing + 90.0));
        let at = |a: f64, r: f64| origin + fwd * a + rgt * r;
        [at(self.ahead, self.lo), at(self.ahead, self.hi), at(self.back, self.hi), at(self.back, self.lo)]
    }

    /// The front of men framed so, at `origin` facing `facing`: the corridor straight ahead of
    /// the front rank, as wide as the figures in it (half a figure beyond each end man).
    pub fn corridor(&self, origin: Point, facing: f64) -> Front {
        let (fwd, rgt) = (heading_unit(facing), heading_unit(facing + 90.0));
        let left = origin + fwd * self.ahead + rgt * (self.lo - HALF_FIGURE);
        let right = origin + fwd * self.ahead + rgt * (self.hi + HALF_FIGURE);
        FrontArc::with_axes(left, right, facing, fwd, rgt, FRONT_TAN)
    }
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

    /// Whether this unit's body stands on `other`'s: a man (or the gun) of it nearer than the
    /// figures' 1" spacing to one of the other's. Units of a side are not set up so (at the
    /// deployment, or by a scenario): figures on a table cannot stand on each other.
    pub fn stands_on(&self, other: &Unit) -> bool {
        self.body().any(|a| other.body().any(|b| a.dist(b) < 1.0 - 1e-9))
    }

    /// The arm the unit fights as: an artillery unit whose gun nobody serves fights as its
    /// gunners alone, men on foot without the artillery's rules.
    pub fn combat_arm(&self) -> Arm {
        if self.arm == Arm::Artillery && !self.crewed() { Arm::Infantry } else { self.arm }
    }

    /// The front edge of the men in ranks (for artillery, the gun and its boresight); `None`
    /// with nobody in ranks. Gunners away from their gun are men on foot: their front is the
    /// corridor straight ahead of them, the way they face (interpretation 19).
    pub fn front_edge(&self) -> Option<Front> {
        if let Some(g) = &self.gun {
            if self.crewed() {
                return Some(FrontArc::new(g.at, g.at, g.facing, GUN_ARC));
            }
            let facing = self.men.iter().find(|m| m.in_ranks())?.facing;
            let (origin, frame) = self.frame_now(facing)?;
            return Some(frame.corridor(origin, facing));
        }
        let (origin, frame) = self.frame_now(self.facing)?;
        Some(frame.corridor(origin, self.facing))
    }

    /// The [`Frame`] of the men in ranks where they stand now, in the axes of `facing` from the
    /// unit's `front`; `None` with nobody in ranks.
    fn frame_now(&self, facing: f64) -> Option<(Point, Frame)> {
        Frame::around(self.front, facing, self.men.iter().filter(|m| m.in_ranks()).map(|m| m.at))
            .map(|f| (self.front, f))
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

    /// The centre man of the front rank of its men in ranks — the man the text has a unit pivot
    /// on (with an even number in the front rank, the point midway between the two middle men:
    /// interpretation 30); `None` for a gun
    /// (it pivots on its axle) or a unit with nobody in ranks. The front rank is the men
    /// foremost along the facing, within half a figure's spacing of the foremost.
    pub fn centre_man(&self) -> Option<Point> {
        if self.gun.is_some() {
            return None;
        }
        let (fwd, rgt) = (heading_unit(self.facing), heading_unit(self.facing + 90.0));
        let ranks = || self.men.iter().filter(|m| m.in_ranks()).map(|m| ((m.at - self.front).dot(fwd), m.at));
        let foremost = ranks().map(|(f, _)| f).fold(f64::NEG_INFINITY, f64::max);
        let mut rank: Vec<(f64, Point)> =
            ranks().filter(|&(f, _)| f > foremost - HALF_FIGURE).map(|(_, p)| ((p - self.front).dot(rgt), p)).collect();
        rank.sort_by(|a, b| a.0.total_cmp(&b.0));
        let k = rank.len();
        match k {
            0 => None,
            _ if k % 2 == 1 => Some(rank[k / 2].1),
            _ => Some(rank[k / 2 - 1].1.lerp(rank[k / 2].1, 0.5)),
        }
    }

    /// Make its reference point (`front`) the centre man of its front rank as its men in ranks
    /// stand now (men fall, run and rally), keeping its [`Frame`] where it was on the table: a
    /// move's path starts at that man and its pivot turns about him.
    pub fn centre_on_front_man(&mut self) {
        let Some(c) = self.centre_man() else { return };
        let d = c - self.front;
        if d.len() < 1e-12 {
            return;
        }
        let (fwd, rgt) = (heading_unit(self.facing), heading_unit(self.facing + 90.0));
        if let Some(f) = &mut self.frame {
            let (a, r) = (d.dot(fwd), d.dot(rgt));
            f.ahead -= a;
            f.back -= a;
            f.lo -= r;
            f.hi -= r;
        }
        self.front = c;
    }

    /// Fix the unit's [`Frame`] where its men in ranks stand now: after it is placed, moves,
    /// re-forms or rallies (and by [`lay_out`]).
    pub fn reframe(&mut self) {
        self.frame = self.frame_now(self.facing).map(|(_, f)| f);
    }

    /// The corners of the ground the unit's formation covers as it last formed (its
    /// [`Frame`]), or `None` without one.
    pub fn frame_corners(&self) -> Option<[Point; 4]> {
        Some(self.frame?.corners(self.front, self.facing))
    }

    /// The ground a unit stands on, for the quarter it is in: for a unit of men, its
    /// formation's frame as it last formed; for a gun or gunners, their body in ranks now.
    fn stance(&self) -> Vec<Point> {
        match (self.gun, self.frame_corners()) {
            (None, Some(c)) if self.in_ranks() > 0 => c.to_vec(),
            _ => self.body().collect(),
        }
    }

    /// Which quarter of this unit `other` stands in, as both stand on the table: for a unit of
    /// men, the ground its formation covers as it last formed (its [`Frame`]: men who fall or
    /// run leave it as it was); for a gun or gunners, their body now.
    ///
    /// In its front: part of `other`'s ground lies in this unit's front — a served gun's 45°
    /// arc, or the corridor straight ahead of its front rank, as wide as its figures. Otherwise
    /// in its rear: a gun, `other`'s middle more than 135° off the boresight; men, `other`'s
    /// middle behind the rearmost rank and within the width. Anywhere else, on its flank. A
    /// unit with nobody in ranks faces nothing: every unit is in its rear.
    pub fn quarter_of(&self, other: &Unit) -> Quarter {
        if self.in_ranks() == 0 {
            return Quarter::Rear;
        }
        let stance = other.stance();
        let Some((centre, _)) = volley_table::bounding_circle(stance.iter().copied()) else {
            return Quarter::Front;
        };
        if let Some(g) = self.gun.filter(|_| self.crewed()) {
            // The wedge of the arc: within GUN_ARC either side of the boresight.
            let (fwd, rgt) = (heading_unit(g.facing), heading_unit(g.facing + 90.0));
            let (sin, cos) = (GUN_ARC.to_radians().sin(), GUN_ARC.to_radians().cos());
            let (n1, n2) = (fwd * sin - rgt * cos, fwd * sin + rgt * cos);
            if volley_table::convex_meets_half_planes(&stance, &[(n1, n1.dot(g.at)), (n2, n2.dot(g.at))]) {
                return Quarter::Front;
            }
            let off = volley_table::turn(g.facing, volley_table::heading_to(g.at, centre)).abs();
            return if off > 180.0 - GUN_ARC { Quarter::Rear } else { Quarter::Flank };
        }
        let (origin, facing, frame) = match (self.gun, self.frame) {
            (None, Some(f)) => (self.front, self.facing, f),
            _ => {
                let facing = self.men.iter().find(|m| m.in_ranks()).map_or(self.facing, |m| m.facing);
                let Some((origin, f)) = self.frame_now(facing) else { return Quarter::Rear };
                (origin, facing, f)
            }
        };
        let (fwd, rgt) = (heading_unit(facing), heading_unit(facing + 90.0));
        let (lo, hi) = (frame.lo - HALF_FIGURE, frame.hi + HALF_FIGURE);
        // The corridor ahead: d·fwd >= ahead and lo <= d·rgt <= hi, d measured from `origin`.
        let at = |n: Point, c: f64| (n, n.dot(origin) + c);
        let corridor = [at(fwd, frame.ahead), at(rgt, lo), at(rgt * -1.0, -hi)];
        if volley_table::convex_meets_half_planes(&stance, &corridor) {
            return Quarter::Front;
        }
        let d = centre - origin;
        let (f, r) = (d.dot(fwd), d.dot(rgt));
        if f < frame.back - 1e-9 && r >= lo - 1e-9 && r <= hi + 1e-9 { Quarter::Rear } else { Quarter::Flank }
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
    unit.reframe();
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
