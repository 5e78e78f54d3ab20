//! The battle on a table measured in centimetres.
//!
//! A turn: each side gives its order cards, the first side then the second, neither seeing the
//! other's (an order is known to its side and Game Control only); then the engine plays the turn
//! through the text's sequence — firing (simultaneous), movement (result moves first, then the
//! orders, with fire in a unit's own defence as a move brings it into range), melee (close
//! assaults, steps one and two and the results table), recovery of status and re-ordering, and the
//! optional roll for personal risk. Game Control (the umpire) may amend any unit's status or order
//! at any time; with no person as umpire the engine is Game Control.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use volley_chance::Chance;
use volley_core::{
    Actor, ApplyError, GameState, Illegal, Outcome, PhaseInfo, SideId, View, Viewer, check_actor, hash_serialized,
    illegal,
};
use volley_table::{Point, convex_distance, heading_to, norm_heading, turn as angle_between};

use crate::events::Event;
use crate::model::{Formation, Kind, change_turns, corners, fire_kind, rate};
use crate::orders::{Does, Order, Situation, carried_out};
use crate::setup::Static;
use crate::tables::{Arm, Status};

mod resolve;

pub use resolve::{CONTACT, STAND_OFF, STEP};

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// A side gives its orders.
    Orders {
        /// The side.
        side: SideId,
    },
    /// The battle is over.
    Over,
}

/// Everything a side (or Game Control) may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Put an order card by a unit (it stays until changed).
    Order {
        /// The unit.
        unit: u16,
        /// The card.
        order: Order,
    },
    /// The senior officer rides (up to 60 cm) to a unit of his side and supports it, or stays
    /// where he is, supporting nobody (`unit` none).
    Ride {
        /// The unit.
        unit: Option<u16>,
    },
    /// A cavalry regiment's second line: after its first line won, it follows up and joins in
    /// the next close assault; after its first line lost or failed to close, the two lines
    /// combine, each taking the average of their statuses.
    SecondLine {
        /// The regiment.
        unit: u16,
    },
    /// The side's orders are given.
    Done,
    /// Game Control changes a unit's status and order state (the umpire's only).
    Amend {
        /// The unit.
        unit: u16,
        /// Its status (a cavalry regiment's first line).
        status: Status,
        /// A cavalry regiment's second line's status (none: unchanged).
        #[serde(default)]
        second_status: Option<Status>,
        /// DISORDERED.
        disordered: bool,
        /// Why, in the umpire's words.
        #[serde(default)]
        reason: String,
    },
}

/// Game Control's actions, for the umpire's form (a JSON Schema): each reads as the [`Action`]
/// of the same kind (a test keeps them in step).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UmpireAction {
    /// Amend a unit's status and order.
    Amend {
        /// The unit.
        unit: u16,
        /// Its status (of its first line, if it has two).
        status: Status,
        /// Cavalry only: the second line's status (left out of another unit's values, so that
        /// its form does not ask for it).
        #[serde(skip_serializing_if = "Option::is_none")]
        second_status: Option<Status>,
        /// Disordered.
        disordered: bool,
        /// Why (every player reads it).
        reason: String,
    },
}

impl Action {
    fn umpires(&self) -> bool {
        matches!(self, Action::Amend { .. })
    }
}

/// What a close assault's result makes a unit do next turn, instead of its orders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Pending {
    /// Nothing: it takes orders.
    None,
    /// Withdraw this far, backwards, facing the enemy that beat it.
    Withdraw {
        /// Centimetres.
        cm: u8,
        /// The winner.
        from: u16,
    },
    /// Pursue the beaten enemy.
    Pursue {
        /// The loser.
        target: u16,
    },
    /// Its player chooses whether it pursues (a card to charge the loser, or any other card).
    MayPursue {
        /// The loser.
        target: u16,
    },
}

/// Whether a unit is in the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Presence {
    /// On the table.
    Here,
    /// Gone: ran off the table, caught by pursuing cavalry, or its guns abandoned.
    Removed,
    /// Artillery closed with and destroyed.
    Destroyed,
    /// Cavalry dispersed after pursuing off the table; back beside the command group in the
    /// recovery phase of turn `back`.
    Away {
        /// The turn it comes back.
        back: u32,
    },
}

/// A manoeuvre: made instead of moving, over the turns the text's table gives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Manoeuvre {
    /// Into another formation.
    Form {
        /// The new formation.
        formation: Formation,
    },
    /// Face about.
    AboutFace,
    /// Turn to face a bearing, up to a quarter turn.
    Face {
        /// The new facing, whole degrees.
        facing: u16,
    },
}

/// A manoeuvre under way.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Change {
    /// What it is.
    pub what: Manoeuvre,
    /// Turns still to go, this one included.
    pub left: u8,
}

/// The most a unit turns by a change of facing, degrees (more is facing about).
pub const QUARTER_TURN: f64 = 90.0;

/// Turns a change of facing or an about face takes: a line's two (the text's about face), one for
/// any other body (the text gives no figure; a column, a regiment or a team turns quicker).
pub fn turns_to_face(formation: Formation) -> u8 {
    if formation == Formation::Line { crate::model::ABOUT_FACE_TURNS } else { 1 }
}

/// How a unit's last close assault went, for its second line's options.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fought {
    /// Won.
    Won,
    /// Lost.
    Lost,
    /// The attack failed to close (no winner).
    Drawn,
}

/// A battalion, regiment, battery or rifle company.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Its side.
    pub side: SideId,
    /// What it is.
    pub kind: Kind,
    /// The centre of its front edge, centimetres.
    pub at: Point,
    /// Facing, degrees clockwise from north.
    pub facing: f64,
    /// Formation.
    pub formation: Formation,
    /// Status labels: a cavalry regiment's first and second lines; others use the first only.
    pub status: [Status; 2],
    /// DISORDERED, by line as `status`.
    pub disordered: [bool; 2],
    /// The turn its latest disorder arose.
    pub disordered_turn: u32,
    /// The last turn it fired (0: none).
    pub fired_turn: u32,
    /// The turn it fired before that (0: none): a unit that fired last turn and fires again this
    /// turn still fired its muskets last turn.
    #[serde(default)]
    pub fired_before: u32,
    /// It has fired in the battle (its first volley is spent).
    pub fired_ever: bool,
    /// The last turn it moved or manoeuvred (0: none).
    pub moved_turn: u32,
    /// The last turn it was under musket fire (0: none).
    pub musket_turn: u32,
    /// The last turn it was in a close assault or under fire (for personal risk).
    pub engaged_turn: u32,
    /// A formation change under way.
    pub change: Option<Change>,
    /// The turn a change into square was completed, and the formation before it.
    pub formed_square: Option<(u32, Formation)>,
    /// What a close assault's result makes it do next turn.
    pub pending: Pending,
    /// Turns it has run (0: not yet running, or its first turn of running to come).
    pub ran: u32,
    /// Whether it is in the battle.
    pub presence: Presence,
    /// Its order card.
    pub card: Order,
    /// Its card when this turn's orders began (what the enemy may guess).
    pub card_before: Order,
    /// It has been given its card this turn.
    pub carded: bool,
    /// Its second line follows up or combines this turn.
    pub second_line: bool,
    /// Its second line joins this turn's close assault (set as the turn is played).
    pub joined: bool,
    /// Its last close assault: the turn and how it went.
    pub fought: Option<(u32, Fought)>,
    /// Turns in a row of the commander's rallying.
    pub rallied: u8,
    /// A higher-status friend within 10 cm and the turns in a row both have stood still.
    pub support: Option<(u16, u8)>,
}

impl Unit {
    /// Its arm.
    pub fn arm(&self) -> Arm {
        self.kind.arm()
    }

    /// On the table.
    pub fn here(&self) -> bool {
        self.presence == Presence::Here
    }

    /// Its corners.
    pub fn corners(&self) -> [Point; 4] {
        corners(self.kind, self.formation, self.at, self.facing)
    }

    /// Its centre.
    pub fn centre(&self) -> Point {
        let c = self.corners();
        (c[0] + c[2]) * 0.5
    }

    /// Whether it has a second line of its own (a cavalry regiment).
    pub fn two_lines(&self) -> bool {
        self.kind == Kind::Cavalry
    }

    /// The lines that fight and are shot at: both in line, the first only in column (and the
    /// second too when it has joined in).
    pub fn lines(&self) -> &'static [usize] {
        if !self.two_lines() {
            &[0]
        } else if self.formation == Formation::CavalryLine || self.joined {
            &[0, 1]
        } else {
            &[0]
        }
    }

    /// The status it acts on: its label, or its fighting lines' average rounded down (the second
    /// reading's I-28).
    pub fn step_status(&self) -> Status {
        let lines = self.lines();
        let sum: u32 = lines.iter().map(|&l| u32::from(self.status[l].level())).sum();
        Status::of((sum / lines.len() as u32) as i32)
    }

    /// Whether any fighting line is DISORDERED.
    pub fn is_disordered(&self) -> bool {
        self.lines().iter().any(|&l| self.disordered[l])
    }

    /// Whether it is running away: the status it acts on is 0 (a cavalry regiment's two lines
    /// in line at 0 and 1 average 0, and the regiment, one body, runs: interpretation 18).
    pub fn running(&self) -> bool {
        self.step_status() == Status::RunningAway
    }

    /// Whether it fired its muskets (or guns) in turn `turn`, whatever it did after.
    pub fn fired_in(&self, turn: u32) -> bool {
        turn > 0 && (self.fired_turn == turn || self.fired_before == turn)
    }

    /// Its move this turn by its formation (a square runs at the column rate).
    pub fn rate(&self) -> f64 {
        rate(self.kind, self.formation)
    }

    /// It carries muskets, rifles or guns ready to fire.
    pub fn armed(&self) -> bool {
        match self.kind {
            Kind::Cavalry => false,
            Kind::Artillery | Kind::HorseArtillery => self.formation == Formation::Deployed,
            _ => true,
        }
    }

    /// It is ORDERED in every line.
    pub fn ordered(&self) -> bool {
        !self.disordered.iter().take(if self.two_lines() { 2 } else { 1 }).any(|&d| d)
    }

    /// Set the disorder of its fighting lines.
    pub(crate) fn disorder(&mut self, turn: u32) {
        for &l in self.lines() {
            self.disordered[l] = true;
        }
        self.disordered_turn = turn;
    }
}

/// The senior officer of a side: the mounted figure sent from the command group to the unit he
/// supports.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Officer {
    /// His name.
    pub name: String,
    /// Where he is.
    pub at: Point,
    /// The unit he is with.
    pub with: Option<u16>,
    /// The turn he joined it.
    pub since: u32,
    /// Still in the battle (personal risk may take him).
    pub present: bool,
    /// This turn's ride, if ordered: to a unit, or stay where he is.
    pub ride: Option<Option<u16>>,
}

/// The distance the senior officer rides in a turn, centimetres.
pub const OFFICER_RIDE: f64 = crate::tables::rates::COMMAND;

/// A battle of En Avant.
#[derive(Clone, Debug)]
pub struct Battle {
    stat: Arc<Static>,
    /// The units, by index (the scenario's order, first side first).
    pub units: Vec<Unit>,
    /// Each side's senior officer.
    pub officers: [Officer; 2],
    /// Turn number, from 1.
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// Each objective's holder.
    pub holders: Vec<Option<SideId>>,
    /// How it ended.
    pub outcome: Option<Outcome>,
}

#[derive(Serialize)]
struct Hashed<'a> {
    units: &'a [Unit],
    officers: &'a [Officer; 2],
    turn: u32,
    phase: Phase,
    holders: &'a [Option<SideId>],
    outcome: &'a Option<Outcome>,
}

/// The other side.
pub fn other(side: SideId) -> SideId {
    1 - side
}

/// A fire a unit can make now.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot {
    /// The nearest enemy in its reach.
    pub target: usize,
    /// The row of the fire table.
    pub kind: crate::tables::FireKind,
    /// The distance, body to body, centimetres.
    pub range: f64,
}

/// Where a unit closing with an enemy would meet it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Meeting {
    /// Its front's centre at contact.
    pub hit: Point,
    /// Its facing at contact.
    pub facing: f64,
    /// How far its front's centre goes.
    pub dist: f64,
    /// Which face of the target it meets.
    pub direction: crate::combat::Direction,
}

/// Why an action is refused: in words a player who does not know the rules may read (no number,
/// no rule), and with the rule behind it for Game Control.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// For a player when the rules are hidden.
    pub words: String,
    /// For Game Control (and for the players when the rules are not hidden).
    pub reason: String,
}

impl Refusal {
    /// A refusal whose words and reason differ.
    fn new<T>(words: impl Into<String>, reason: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal { words: words.into(), reason: reason.into() })
    }

    /// A refusal that tells no rule: the same for everyone.
    fn plain<T>(words: impl Into<String>) -> Result<T, Refusal> {
        let words = words.into();
        Err(Refusal { reason: words.clone(), words })
    }
}

/// How far ahead of straight a charge may turn to close with its target (the text: "small
/// variation ... when closing to combat"), degrees.
pub const CHARGE_VARIATION: f64 = 45.0;

impl Battle {
    /// A battle ready for the first side's orders.
    pub fn new(stat: Arc<Static>, units: Vec<Unit>, officers: [Officer; 2]) -> Self {
        let holders = vec![None; stat.objectives.len()];
        let mut b = Battle { stat, units, officers, turn: 1, phase: Phase::Orders { side: 0 }, holders, outcome: None };
        b.update_holders();
        b
    }

    /// What stays the same.
    pub fn stat(&self) -> &Static {
        &self.stat
    }

    /// A unit's name.
    pub fn name(&self, u: usize) -> &str {
        self.stat.unit_names.get(u).map_or("?", String::as_str)
    }

    /// A side's name.
    pub fn side_name(&self, s: SideId) -> &str {
        &self.stat.sides[usize::from(s) & 1]
    }

    /// Whether the scenario keeps the rules from the players.
    pub fn rules_hidden(&self) -> bool {
        self.stat.rules.rules_hidden
    }

    /// Whether everyone sees what Game Control sees: the battle is over and Game Control chose
    /// to reveal it then (the scenario's `reveal_at_end`, interpretation 36).
    pub fn revealed(&self) -> bool {
        self.outcome.is_some() && self.stat.rules.reveal_at_end
    }

    /// The side giving orders now, if any.
    pub fn acting_side(&self) -> Option<SideId> {
        match self.phase {
            Phase::Orders { side } => Some(side),
            Phase::Over => None,
        }
    }

    /// Where a side's senior officer is.
    pub fn officer_at(&self, s: SideId) -> Point {
        let o = &self.officers[usize::from(s)];
        match o.with.and_then(|u| self.units.get(usize::from(u))).filter(|u| u.here()) {
            Some(u) => u.centre(),
            None => o.at,
        }
    }

    /// Whether side `s`'s senior officer is with unit `u`.
    pub fn officer_with(&self, u: usize) -> bool {
        self.units.get(u).is_some_and(|x| {
            let o = &self.officers[usize::from(x.side)];
            o.present && o.with == Some(u as u16)
        })
    }

    /// The least distance between two units' bodies, centimetres.
    pub fn gap(&self, a: usize, b: usize) -> f64 {
        convex_distance(&self.units[a].corners(), &self.units[b].corners())
    }

    /// Whether `target`'s body is at least partly in front of the line of `firer`'s front edge
    /// (a square fires all round): the second reading's I-26.
    pub fn in_arc(&self, firer: usize, target: usize) -> bool {
        let f = &self.units[firer];
        if f.formation == Formation::Square {
            return true;
        }
        let fwd = volley_table::unit(f.facing);
        self.units[target].corners().iter().any(|&c| (c - f.at).dot(fwd) > 1e-9)
    }

    /// The row of the fire table `firer` would fire at `target` now, if it can reach it.
    pub fn fire_at(&self, firer: usize, target: usize) -> Option<crate::tables::FireKind> {
        let f = &self.units[firer];
        let t = &self.units[target];
        if !f.here() || !t.here() || f.side == t.side || !f.armed() || f.change.is_some() || f.running() {
            return None;
        }
        if !self.in_arc(firer, target) {
            return None;
        }
        fire_kind(f.kind, f.formation, f.ordered(), f.fired_ever, self.gap(firer, target))
    }

    /// The nearest enemy `u` can fire at now: the target, the row of the fire table and the range.
    pub fn fire_target(&self, u: usize) -> Option<Shot> {
        let mut best: Option<Shot> = None;
        for t in 0..self.units.len() {
            if let Some(kind) = self.fire_at(u, t) {
                let range = self.gap(u, t);
                if best.is_none_or(|b| range < b.range) {
                    best = Some(Shot { target: t, kind, range });
                }
            }
        }
        best
    }

    /// Where and how `u` would meet `target` if it closed with it, turning at most `max_turn`
    /// degrees from its facing (and, closing within a charge's variation, going no further off
    /// its new facing than that): `None` if the target is not ahead within that.
    pub fn meeting(&self, u: usize, target: usize, max_turn: f64) -> Option<Meeting> {
        let a = self.units.get(u)?;
        let t = self.units.get(target)?;
        if !a.here() || !t.here() || a.side == t.side {
            return None;
        }
        let c = t.corners();
        let fwd = volley_table::unit(t.facing);
        let right = volley_table::unit(t.facing + 90.0);
        let p = a.at;
        use crate::combat::Direction;
        // The face it meets: of the faces turned towards it, the one it meets most squarely (the
        // least turn); front, flank or rear by that face. A square has no flank or rear.
        let square = t.formation == Formation::Square;
        let side = if square { Direction::Front } else { Direction::Flank };
        let rear = if square { Direction::Front } else { Direction::Rear };
        let faces = [
            (c[0], c[1], fwd, Direction::Front),
            (c[1], c[2], right, side),
            (c[2], c[3], fwd * -1.0, rear),
            (c[3], c[0], right * -1.0, side),
        ];
        let heading = |v: Point| norm_heading(volley_table::heading_to(Point::new(0.0, 0.0), v));
        let charge = max_turn < 90.0;
        // Each face turned towards it, or that it already touches (base to base: a unit in
        // contact may close with the enemy it touches): where it would meet it, facing it square.
        let meet = |&(s, e, normal, direction): &(Point, Point, Point, Direction)| {
            let edge = e - s;
            let len = edge.len();
            let off = (p - s).dot(normal);
            let raw = (p - s).dot(edge) / (len * len);
            let touching = off.abs() <= 1e-6 && (-1e-9..=1.0 + 1e-9).contains(&raw);
            if off <= 1e-9 && !touching {
                return None;
            }
            let hit = s + edge * raw.clamp(0.0, 1.0);
            let facing = heading(normal * -1.0);
            let way = hit - p;
            // Closing, it goes forward, turning a little: its path no further off its new
            // facing than the variation allows, and a charge's no further off the facing it had
            // before it turned either ("directly forward ... small variation": interpretation
            // 16); a pursuit turns as it must first (interpretation 39).
            let off = |f: f64| angle_between(f, heading(way)).abs() <= CHARGE_VARIATION + 1e-9;
            let straight = way.len() <= 1e-9 || (off(facing) && (!charge || off(a.facing)));
            Some((Meeting { hit, facing, dist: way.len(), direction }, straight))
        };
        let turn = |m: &Meeting| angle_between(a.facing, m.facing).abs();
        let m = if charge {
            // A charge: the face it meets most squarely, if it can close with it going forward.
            let (m, straight) = faces.iter().filter_map(meet).min_by(|x, y| turn(&x.0).total_cmp(&turn(&y.0)))?;
            straight.then_some(m)?
        } else {
            // A pursuit turns as it must: the face it meets most squarely of those it can close
            // with going forward (it never slides more than a charge's small variation).
            faces.iter().filter_map(meet).filter(|x| x.1).map(|x| x.0).min_by(|x, y| turn(x).total_cmp(&turn(y)))?
        };
        (turn(&m) <= max_turn + 1e-9).then_some(m)
    }

    /// [`Battle::meeting`] within a charge's small variation.
    pub fn contact(&self, u: usize, target: usize) -> Option<Meeting> {
        self.meeting(u, target, CHARGE_VARIATION)
    }

    /// Whether `u`'s charge at `target` has a clear way this turn: room to turn, and no other body
    /// across the path its own sweeps up to the contact (or its move).
    pub fn charge_way_clear(&self, u: usize, target: usize) -> bool {
        let Some(m) = self.contact(u, target) else { return false };
        let x = &self.units[u];
        let start = corners(x.kind, x.formation, x.at, m.facing);
        let len = m.dist.min(x.rate());
        let way = if m.dist > 1e-9 { (m.hit - x.at) * (len / m.dist) } else { Point::new(0.0, 0.0) };
        self.units.iter().enumerate().all(|(j, o)| {
            j == u
                || j == target
                || !o.here()
                || volley_table::convex_sweep(&start, way, &o.corners()).is_none_or(|(lo, hi)| hi <= 1e-9 || lo >= 1.0)
        })
    }

    /// Whether `u` can close with `target` by a charge (ahead, within the small variation).
    pub fn can_charge(&self, u: usize, target: usize) -> bool {
        let a = &self.units[u];
        a.arm() != Arm::Artillery && a.rate() > 0.0 && a.change.is_none() && self.contact(u, target).is_some()
    }

    /// The nearest enemy to `u` (body to body), if any is on the table.
    pub fn nearest_enemy(&self, u: usize) -> Option<usize> {
        let side = self.units[u].side;
        (0..self.units.len())
            .filter(|&j| self.units[j].here() && self.units[j].side != side)
            .min_by(|&x, &y| self.gap(u, x).total_cmp(&self.gap(u, y)))
    }

    /// What `u` does this turn with its card, by its status (the status rules come first).
    pub fn does(&self, u: usize) -> Does {
        let x = &self.units[u];
        let nearest = self.nearest_enemy(u);
        let situation = Situation {
            can_fire: self.fire_target(u).is_some(),
            can_move: x.rate() > 0.0 && x.change.is_none(),
            nearest_ahead: nearest.filter(|&n| self.can_charge(u, n)).map(|n| n as u16),
        };
        carried_out(x.step_status(), x.card, situation)
    }

    /// Why `order` may not be given to `u` now, as Game Control reads it.
    pub fn check_order(&self, side: SideId, u: u16, order: Order) -> Result<(), Illegal> {
        self.order_refusal(side, u, order).map_err(|r| Illegal::new(r.reason))
    }

    /// Why `order` may not be given to `u` now: in words, and with the rule.
    fn order_refusal(&self, side: SideId, u: u16, order: Order) -> Result<(), Refusal> {
        let x = self.own(side, u)?;
        let name = self.name(usize::from(u));
        if x.running() {
            return Refusal::plain(format!("{name} is running away and takes no orders"));
        }
        if x.change.is_some() {
            return Refusal::plain(format!("{name} is changing formation and takes no other order until it is done"));
        }
        match x.pending {
            Pending::Withdraw { .. } | Pending::Pursue { .. } => {
                return Refusal::plain(format!(
                    "{name} must carry out its close assault's result this turn: no orders"
                ));
            }
            Pending::MayPursue { target } => {
                if order == (Order::Charge { target }) && !self.units[usize::from(target)].here() {
                    return Refusal::plain(format!(
                        "{} is no longer in the battle: {name} has nobody to pursue and halts this turn",
                        self.name(usize::from(target))
                    ));
                }
                let ok = matches!(order, Order::Halt) || order == Order::Charge { target };
                if !ok {
                    return Refusal::plain(format!(
                        "{name} won its close assault: it may pursue {} (charge it) or halt, nothing else this turn",
                        self.name(usize::from(target))
                    ));
                }
                return Ok(());
            }
            Pending::None => {}
        }
        let cannot_move = || {
            Refusal::new(
                format!("{name} cannot move as it stands"),
                format!("{name} cannot move in {} (its rate is nothing)", x.formation.name()),
            )
        };
        match order {
            Order::Halt => Ok(()),
            Order::Advance | Order::Withdraw if x.rate() <= 0.0 => cannot_move(),
            Order::Advance | Order::Withdraw => Ok(()),
            Order::Fire if !x.armed() => Refusal::plain(format!("{name} has nothing to fire")),
            Order::Fire => Ok(()),
            Order::Charge { target } => {
                let t = usize::from(target);
                match self.units.get(t) {
                    None => Refusal::new("there is no such unit", format!("there is no unit {target}")),
                    Some(e) if e.side == side => Refusal::plain(format!("{} is not an enemy", self.name(t))),
                    Some(e) if !e.here() => Refusal::plain(format!("{} is no longer in the battle", self.name(t))),
                    Some(_) if x.arm() == Arm::Artillery => {
                        Refusal::new(format!("{name} cannot charge"), "artillery does not make close assaults")
                    }
                    Some(_) if x.rate() <= 0.0 => cannot_move(),
                    Some(_) if self.contact(usize::from(u), t).is_none() => Refusal::new(
                        format!("{name} cannot charge {} from where it stands", self.name(t)),
                        format!(
                            "{} is not ahead of {name}: a unit moves only straight ahead, turning a little (at most {CHARGE_VARIATION}°) as it closes",
                            self.name(t)
                        ),
                    ),
                    Some(_) => Ok(()),
                }
            }
            Order::Form { formation } => {
                if !x.kind.formations().contains(&formation) {
                    return Refusal::plain(format!("a {} cannot form {}", x.kind.name(), formation.name()));
                }
                if formation == x.formation {
                    return Refusal::plain(format!("{name} is already in {}", formation.name()));
                }
                if turns_to_change(x.formation, formation).is_none() {
                    return Refusal::plain(format!(
                        "{name} cannot change from {} into {}",
                        x.formation.name(),
                        formation.name()
                    ));
                }
                Ok(())
            }
            Order::AboutFace | Order::Face { .. } if matches!(x.formation, Formation::Square | Formation::Deployed) => {
                Refusal::plain(format!("{name} in {} has no front to turn", x.formation.name()))
            }
            Order::AboutFace => Ok(()),
            Order::Face { facing } => {
                if facing >= 360 {
                    return Refusal::new("that is no bearing", format!("a facing is 0 to 359 degrees, not {facing}"));
                }
                let turn = angle_between(x.facing, f64::from(facing)).abs();
                if !(1.0..=QUARTER_TURN + 1e-9).contains(&turn) {
                    return Refusal::new(
                        format!(
                            "{name} cannot turn to face {} with this card (facing about is its own card)",
                            bearing_words(facing)
                        ),
                        format!(
                            "{name} faces {:.0}°: a change of facing turns it by more than nothing and at most a quarter turn ({facing}° is {turn:.0}° away; facing about is its own card)",
                            x.facing
                        ),
                    );
                }
                Ok(())
            }
        }
    }

    fn own(&self, side: SideId, u: u16) -> Result<&Unit, Refusal> {
        match self.units.get(usize::from(u)) {
            None => Refusal::new("there is no such unit", format!("there is no unit {u}")),
            Some(x) if x.side != side => {
                Refusal::plain(format!("{} is not {}'s", self.name(usize::from(u)), self.side_name(side)))
            }
            Some(x) if matches!(x.presence, Presence::Away { .. }) => Refusal::new(
                format!(
                    "{} is scattered after its pursuit and will rally on its command group in time",
                    self.name(usize::from(u))
                ),
                format!(
                    "{} is dispersed after pursuing off the table: back beside its command group in the recovery of turn {}",
                    self.name(usize::from(u)),
                    match x.presence {
                        Presence::Away { back } => back,
                        _ => self.turn,
                    }
                ),
            ),
            Some(x) if !x.here() => Refusal::plain(format!("{} is not in the battle", self.name(usize::from(u)))),
            Some(x) => Ok(x),
        }
    }

    /// Whether `u`'s second line may follow up or combine this turn, and which.
    pub fn second_line_option(&self, u: usize) -> Option<Fought> {
        let x = self.units.get(u)?;
        if !x.here() || !x.two_lines() || x.running() {
            return None;
        }
        match x.fought {
            Some((t, f)) if t + 1 == self.turn => match f {
                Fought::Won if x.formation == Formation::CavalryColumn => Some(Fought::Won),
                Fought::Won => None,
                _ if x.status[0] != x.status[1] || x.disordered[0] != x.disordered[1] => Some(f),
                _ => None,
            },
            _ => None,
        }
    }

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Refusal> {
        match action {
            Action::Order { unit, order } => self.order_refusal(side, *unit, *order),
            Action::Ride { unit } => {
                let o = &self.officers[usize::from(side)];
                if !o.present {
                    return Refusal::plain(format!("{} has fallen", o.name));
                }
                let Some(u) = unit else { return Ok(()) };
                let x = self.own(side, *u)?;
                let d = self.officer_at(side).dist(x.centre());
                if d > OFFICER_RIDE + 1e-9 {
                    return Refusal::new(
                        format!("{} cannot reach {} this turn", o.name, self.name(usize::from(*u))),
                        format!(
                            "{} is {d:.0} cm from {}: he rides at most {OFFICER_RIDE} cm a turn",
                            self.name(usize::from(*u)),
                            o.name
                        ),
                    );
                }
                Ok(())
            }
            Action::SecondLine { unit } => {
                self.own(side, *unit)?;
                if self.second_line_option(usize::from(*unit)).is_none() {
                    return Refusal::new(
                        format!("{}'s second line has no call this turn", self.name(usize::from(*unit))),
                        format!(
                            "{}'s second line has no call this turn: it follows up after its first line won in column, or combines after its first line lost or failed to close",
                            self.name(usize::from(*unit))
                        ),
                    );
                }
                Ok(())
            }
            Action::Done => Ok(()),
            Action::Amend { .. } => Refusal::plain("only Game Control amends a unit"),
        }
    }

    /// Why `by` may not take `action` now, both ways: in words for a player who does not know
    /// the rules, and with the rule for Game Control (interpretation 36). `validate_by` gives a
    /// side the words when the rules are hidden; this gives Game Control the reason.
    pub fn refusal(&self, by: Actor, action: &Action) -> Option<Refusal> {
        if let Err(e) = check_actor(self.actor(), by, action.umpires()) {
            return Some(Refusal { words: e.reason.clone(), reason: e.reason });
        }
        if action.umpires() {
            return self.validate_amend(action).err().map(|e| Refusal { words: e.reason.clone(), reason: e.reason });
        }
        let side = self.acting_side()?;
        self.validate_for(side, action).err()
    }

    fn validate_amend(&self, action: &Action) -> Result<(), Illegal> {
        if let Action::Amend { unit, second_status, .. } = action {
            let Some(x) = self.units.get(usize::from(*unit)) else {
                return illegal!("there is no unit {unit}");
            };
            if second_status.is_some() && !x.two_lines() {
                return illegal!("{} has no second line", self.name(usize::from(*unit)));
            }
            if !x.here() {
                return illegal!("{} is not on the table", self.name(usize::from(*unit)));
            }
        }
        Ok(())
    }

    fn apply_valid(
        &mut self,
        side: SideId,
        action: &Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        match action {
            Action::Order { unit, order } => {
                let i = usize::from(*unit);
                let text = format!("{}: {}", self.name(i), order_words(self, *order));
                let x = &mut self.units[i];
                x.card = *order;
                x.carded = true;
                events.push(Event::Ordered { side, text });
            }
            Action::Ride { unit } => {
                self.officers[usize::from(side)].ride = Some(*unit);
                let o = &self.officers[usize::from(side)].name;
                let text = match unit {
                    Some(u) => format!("{o} will ride to {}", self.name(usize::from(*u))),
                    None => format!("{o} will stay where he is"),
                };
                events.push(Event::Ordered { side, text });
            }
            Action::SecondLine { unit } => {
                let i = usize::from(*unit);
                self.units[i].second_line = true;
                let text = match self.second_line_option(i) {
                    Some(Fought::Won) => format!("{}: the second line will follow up", self.name(i)),
                    _ => format!("{}: the two lines will combine", self.name(i)),
                };
                events.push(Event::Ordered { side, text });
            }
            Action::Done => {
                if side == 0 {
                    self.phase = Phase::Orders { side: 1 };
                } else {
                    self.play_turn(chance, events)?;
                }
            }
            Action::Amend { unit, status, second_status, disordered, reason } => {
                let i = usize::from(*unit);
                let turn = self.turn;
                let x = &mut self.units[i];
                x.status[0] = *status;
                if let Some(s2) = second_status {
                    x.status[1] = *s2;
                }
                if *disordered && !x.ordered() {
                    // already disordered
                } else if *disordered {
                    x.disorder(turn);
                } else {
                    x.disordered = [false; 2];
                }
                if x.running() && x.pending != Pending::None {
                    x.pending = Pending::None;
                }
                // Game Control's reason is his own words, for every player (the form says so):
                // it tells what he decided, not the rules behind a result.
                let words = format!(
                    "Game Control: {} is now {}{}{}{}",
                    self.name(i),
                    status,
                    second_status.map(|s| format!(" (second line {s})")).unwrap_or_default(),
                    if *disordered { ", DISORDERED" } else { ", ORDERED" },
                    if reason.trim().is_empty() {
                        String::new()
                    } else {
                        format!(", because {}", volley_core::after_because(reason))
                    }
                );
                events.push(Event::Told { text: words });
            }
        }
        Ok(())
    }

    /// Units each side has lost: running away or gone; and its units at the start.
    pub fn losses(&self, side: SideId) -> (u32, u32) {
        let lost = self
            .units
            .iter()
            .filter(|u| {
                u.side == side && matches!(u.presence, Presence::Removed | Presence::Destroyed)
                    || (u.side == side && u.here() && u.running())
            })
            .count() as u32;
        (lost, self.stat.units_start[usize::from(side)])
    }

    pub(crate) fn update_holders(&mut self) {
        let pieces: Vec<(SideId, Point)> =
            self.units.iter().filter(|u| u.here() && !u.running()).map(|u| (u.side, u.centre())).collect();
        volley_scenario::hold_objectives(&self.stat.objectives, &mut self.holders, &pieces);
    }

    pub(crate) fn decide(&self) -> Option<Outcome> {
        let lost = [self.losses(0), self.losses(1)];
        if let Some((winner, reason)) =
            volley_scenario::broken_sides(&self.stat.sides, lost, self.stat.rules.break_at, "running away or gone")
        {
            return Some(Outcome { winner, reason });
        }
        if self.turn >= self.stat.turn_limit {
            let (winner, reason) =
                self.stat.at_turn_limit.decide(self.stat.turn_limit, &self.stat.sides, &self.holders);
            return Some(Outcome { winner, reason });
        }
        None
    }

    /// The cards `u` may be given now that the computer players consider.
    pub fn cards(&self, u: usize, out: &mut Vec<Order>) {
        let x = &self.units[u];
        let side = x.side;
        let mut push = |o: Order| {
            // (A turn its words give as one already offered, to the compass point, is that
            // choice again.)
            let said = |f: u16| {
                out.iter().any(|p| matches!(p, Order::Face { facing } if bearing_words(*facing) == bearing_words(f)))
            };
            if matches!(o, Order::Face { facing } if said(facing)) {
                return;
            }
            if self.check_order(side, u as u16, o).is_ok() {
                out.push(o);
            }
        };
        if let Pending::MayPursue { target } = x.pending {
            push(Order::Charge { target });
            push(Order::Halt);
            return;
        }
        for o in [Order::Halt, Order::Advance, Order::Withdraw, Order::Fire, Order::AboutFace] {
            push(o);
        }
        for &f in x.kind.formations() {
            push(Order::Form { formation: f });
        }
        // Turning towards the nearest enemy and the nearest objective its side does not hold.
        let towards = |p: Point| Order::Face { facing: (heading_to(x.centre(), p).round() as u16) % 360 };
        if let Some(e) = self.nearest_enemy(u) {
            push(towards(self.units[e].centre()));
        }
        for (k, o) in self.stat.objectives.iter().enumerate() {
            if self.holders[k] != Some(side) && !o.points.is_empty() {
                let n = o.points.len() as f64;
                push(towards(o.points.iter().fold(Point::new(0.0, 0.0), |a, &p| a + p) * (1.0 / n)));
            }
        }
        let reach = x.rate() * 2.0;
        for t in 0..self.units.len() {
            if self.units[t].here() && self.units[t].side != side && self.gap(u, t) <= reach {
                push(Order::Charge { target: t as u16 });
            }
        }
    }

    fn choices(&self, out: &mut Vec<Action>) {
        let Some(side) = self.acting_side() else { return };
        let mut cards = Vec::new();
        for u in 0..self.units.len() {
            let x = &self.units[u];
            if x.side != side || !x.here() || x.carded {
                continue;
            }
            cards.clear();
            self.cards(u, &mut cards);
            out.extend(cards.iter().map(|&order| Action::Order { unit: u as u16, order }));
            if !x.second_line && self.second_line_option(u).is_some() {
                out.push(Action::SecondLine { unit: u as u16 });
            }
        }
        let o = &self.officers[usize::from(side)];
        if o.present && o.ride.is_none() {
            let at = self.officer_at(side);
            for u in 0..self.units.len() {
                let x = &self.units[u];
                if x.side == side && x.here() && o.with != Some(u as u16) && at.dist(x.centre()) <= OFFICER_RIDE {
                    out.push(Action::Ride { unit: Some(u as u16) });
                }
            }
        }
        out.push(Action::Done);
    }
}

/// Turns to change from one formation into another: the text's table; a change back out of
/// square, or back from a column into line, takes as long as the change into it; between march
/// and assault column, one turn (neither is in the table).
pub fn turns_to_change(from: Formation, to: Formation) -> Option<u8> {
    use Formation::*;
    change_turns(from, to).or_else(|| change_turns(to, from)).or(match (from, to) {
        (MarchColumn, AssaultColumn) | (AssaultColumn, MarchColumn) => Some(1),
        _ => None,
    })
}

/// A bearing in words, as a player reads a compass: "north", "north-east by east" is too fine;
/// the nearest of sixteen points.
pub fn bearing_words(facing: u16) -> &'static str {
    const POINTS: [&str; 16] = [
        "north",
        "north-north-east",
        "north-east",
        "east-north-east",
        "east",
        "east-south-east",
        "south-east",
        "south-south-east",
        "south",
        "south-south-west",
        "south-west",
        "west-south-west",
        "west",
        "west-north-west",
        "north-west",
        "north-north-west",
    ];
    POINTS[((f64::from(facing % 360) / 22.5).round() as usize) % 16]
}

/// A card in words.
pub fn order_words(b: &Battle, order: Order) -> String {
    match order {
        Order::Halt => "halt".into(),
        Order::Advance => "advance".into(),
        Order::Withdraw => "withdraw".into(),
        Order::Fire => "fire".into(),
        Order::Charge { target } => format!("charge {}", b.name(usize::from(target))),
        Order::Form { formation } => format!("form {}", formation.name()),
        Order::AboutFace => "about face".into(),
        Order::Face { facing } => format!("turn to face {}", bearing_words(facing)),
    }
}

impl volley_core::Tally for Battle {
    fn scenario_name(&self) -> &str {
        &self.stat.name
    }

    fn variant(&self) -> Option<&'static str> {
        None
    }

    fn side_name(&self, side: SideId) -> &str {
        Battle::side_name(self, side)
    }

    fn measure(&self) -> &'static str {
        "units"
    }

    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        let start = self.stat.units_start[usize::from(side)] as usize;
        let gone = self
            .units
            .iter()
            .filter(|u| u.side == side && matches!(u.presence, Presence::Removed | Presence::Destroyed))
            .count();
        let running = self.units.iter().filter(|u| u.side == side && u.here() && u.running()).count();
        (start, gone, running)
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
        PhaseInfo {
            turn: self.turn,
            phase: match self.phase {
                Phase::Orders { .. } => "orders".into(),
                Phase::Over => "over".into(),
            },
            side: self.acting_side(),
        }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        self.choices(out);
    }

    fn refusal_for_umpire(&self, by: Actor, action: &Action) -> Option<String> {
        self.refusal(by, action).map(|r| r.reason)
    }

    fn validate_by(&self, by: Actor, action: &Action) -> Result<(), Illegal> {
        check_actor(self.actor(), by, action.umpires())?;
        if action.umpires() {
            return self.validate_amend(action);
        }
        match self.acting_side() {
            Some(s) => self.validate_for(s, action).map_err(|r| {
                // With the rules hidden a player reads his refusal in words; Game Control reads
                // the reason (`Battle::refusal`).
                let hidden = self.rules_hidden() && matches!(by, Actor::Side(_));
                Illegal::new(if hidden { r.words } else { r.reason })
            }),
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
        self.validate_by(by, action)?;
        let side = self.acting_side().unwrap_or(0);
        // The personal-risk roll is the only draw; if it fails, the battle is left as it was.
        let mut next = self.clone();
        let mut evs = Vec::new();
        next.apply_valid(side, action, chance, &mut evs)?;
        *self = next;
        events.extend(evs);
        Ok(())
    }

    fn outcome(&self) -> Option<Outcome> {
        self.outcome.clone()
    }

    fn view(&self, viewer: Viewer) -> View {
        crate::view::view(self, viewer)
    }

    fn state_hash(&self) -> u64 {
        hash_serialized(&Hashed {
            units: &self.units,
            officers: &self.officers,
            turn: self.turn,
            phase: self.phase,
            holders: &self.holders,
            outcome: &self.outcome,
        })
    }

    fn event_visible(&self, event: &Event, viewer: Viewer) -> bool {
        if self.revealed() {
            // Once the battle is over everyone may read everything, if Game Control so chose.
            return true;
        }
        match (event, viewer) {
            (_, Viewer::Umpire) => true,
            (Event::Ordered { side, .. }, Viewer::Side(s)) => *side == s,
            (Event::Ordered { .. }, Viewer::Spectator) => false,
            (Event::Explained { .. }, _) => !self.rules_hidden(),
            _ => true,
        }
    }

    /// An order, a ride and a second line's call are known to their side and Game Control only;
    /// ending the orders and Game Control's amendments are known to all.
    fn action_visible(&self, by: Actor, action: &Action, viewer: Viewer) -> bool {
        match (action, viewer) {
            (Action::Order { .. } | Action::Ride { .. } | Action::SecondLine { .. }, Viewer::Side(s)) => {
                by == Actor::Side(s)
            }
            (Action::Order { .. } | Action::Ride { .. } | Action::SecondLine { .. }, Viewer::Spectator) => false,
            _ => true,
        }
    }

    fn umpire_units(&self) -> Option<Vec<String>> {
        Some(self.stat.unit_names.clone())
    }

    fn umpire_schema(&self) -> Option<serde_json::Value> {
        serde_json::to_value(schemars::schema_for!(UmpireAction)).ok()
    }

    /// Game Control's amendment of each unit as it stands: its status (and its second line's),
    /// and whether it is disordered, so that clearing a disorder does not change its status.
    fn umpire_values(&self) -> Option<Vec<serde_json::Value>> {
        Some(
            self.units
                .iter()
                .enumerate()
                .map(|(i, x)| {
                    let amend = UmpireAction::Amend {
                        unit: i as u16,
                        status: x.status[0],
                        second_status: x.two_lines().then_some(x.status[1]),
                        disordered: !x.ordered(),
                        reason: String::new(),
                    };
                    serde_json::to_value(amend).unwrap_or(serde_json::Value::Null)
                })
                .collect(),
        )
    }

    /// En Avant has no dice.
    fn chance_words(&self) -> Option<&'static str> {
        None
    }

    fn action_points(&self, action: &Action) -> Vec<[f64; 2]> {
        let at = |u: u16| self.units.get(usize::from(u)).map(|x| <[f64; 2]>::from(x.centre()));
        match action {
            Action::Order { unit, order: Order::Charge { target } } => {
                at(*unit).into_iter().chain(at(*target)).collect()
            }
            Action::Order { unit, .. } | Action::SecondLine { unit } | Action::Amend { unit, .. } => {
                at(*unit).into_iter().collect()
            }
            Action::Ride { unit } => {
                let side = self.acting_side().unwrap_or(0);
                std::iter::once(self.officer_at(side).into()).chain(unit.and_then(at)).collect()
            }
            Action::Done => Vec::new(),
        }
    }

    /// The enemy's cards are replaced by those it had when this turn's orders began (what its
    /// units were seen doing), and its officer's ride and second-line calls are forgotten.
    fn redacted(&self, side: SideId) -> Self {
        let mut b = self.clone();
        for u in b.units.iter_mut().filter(|u| u.side != side) {
            u.card = u.card_before;
            u.carded = false;
            u.second_line = false;
        }
        b.officers[usize::from(other(side))].ride = None;
        b
    }

    fn describe(&self, action: &Action) -> String {
        match action {
            Action::Order { unit, order } => {
                format!("{}: {}", self.name(usize::from(*unit)), order_words(self, *order))
            }
            Action::Ride { unit: Some(u) } => {
                format!(
                    "{} rides to {}",
                    self.officers[usize::from(self.acting_side().unwrap_or(0))].name,
                    self.name(usize::from(*u))
                )
            }
            Action::Ride { unit: None } => "the senior officer stays where he is".into(),
            Action::SecondLine { unit } => match self.second_line_option(usize::from(*unit)) {
                Some(Fought::Won) => format!("{}: the second line follows up", self.name(usize::from(*unit))),
                _ => format!("{}: the two lines combine", self.name(usize::from(*unit))),
            },
            Action::Done => "orders given: play the turn".into(),
            Action::Amend { unit, status, .. } => {
                format!("Game Control: {} is {status}", self.name(usize::from(*unit)))
            }
        }
    }
}

#[cfg(test)]
mod umpire_form {
    use super::{Action, UmpireAction};
    use crate::tables::Status;

    // What Game Control's form makes is an action the rules read, with the same values.
    #[test]
    fn game_controls_form_makes_actions_the_rules_read() {
        let made = UmpireAction::Amend {
            unit: 4,
            status: Status::Wavering,
            second_status: None,
            disordered: true,
            reason: "a flank".into(),
        };
        let read: Action = serde_json::from_value(serde_json::to_value(&made).unwrap()).unwrap();
        assert_eq!(
            read,
            Action::Amend {
                unit: 4,
                status: Status::Wavering,
                second_status: None,
                disordered: true,
                reason: "a flank".into()
            }
        );
        let schema = serde_json::to_value(schemars::schema_for!(UmpireAction)).unwrap().to_string();
        for word in ["\"amend\"", "\"kind\"", "\"unit\"", "\"status\""] {
            assert!(schema.contains(word), "{word} in {schema}");
        }
    }
}
