//! The battle: bounds of ten minutes in which the sides' generals send orders to their wings,
//! and the engine carries out what the wings' battalions, regiments and batteries then do — the
//! rule set's own automation, not a computer opponent: results carried over from the last bound,
//! movement by order with the limits of section 4, the batteries' bombardment, close combats by
//! the One Step, resting, wagons, objectives and the end.
//!
//! A bound runs in this order (see `docs/rules/old-fritz.md` for why):
//! 1. orders that have arrived take effect; units not in close combat adopt their wing's order;
//! 2. last bound's results are carried out: runners run (deserting), withdrawing units withdraw,
//!    pursuers follow;
//! 3. units move as their orders say, attackers approaching to 2½" and engaging;
//! 4. batteries bombard;
//! 5. close combats are fought;
//! 6. enemies left within 2½" with no combat between them are told with why; units that did
//!    nothing at all lose a green counter; the wagons, objectives and the end are judged.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::calc::CalcError;
use volley_core::{
    Actor, ApplyError, GameState, Illegal, Outcome, PhaseInfo, SideId, View, Viewer, hash_serialized, illegal,
};
use volley_table::buckets::Buckets;
use volley_table::{Point, TerrainKind, dist_to_segment, heading_to, norm_heading, segment_crosses_polyline, turn};

use crate::combat::{
    self, Arm, Reaction, Situation, Table, TargetState, bombardment_base, casualties_for, casualty_addition,
    casualty_dice, close_range_effect, long_range_effect, pursuit_addition, pursuit_needs,
};
use crate::command::order_delay;
use crate::events::Event;
use crate::model::{APPROACH, Fate, Formation, Kind, Order, RUN_RATE, State, Unit, cost};
use crate::setup::Static;

mod artillery;
mod choices;
mod close_combat;
mod movement;
mod orders;
mod victory;

/// Where a bound stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// A side's generals write and send orders (the first side, then the second; then the
    /// bound is carried out).
    Orders {
        /// The side.
        side: SideId,
    },
    /// The battle is over.
    Over,
}

/// Everything a player (or the umpire) may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Send an order to one of the side's wings; it takes effect after the time the text gives.
    Order {
        /// The wing, by index.
        wing: u16,
        /// The order.
        order: Order,
    },
    /// The umpire's tactical advantage (+0 to +3) for a unit's close combats, with the reason.
    /// Accepted at any decision; never offered to computer players.
    Advantage {
        /// The unit, by index.
        unit: u16,
        /// 0 to 3.
        value: u8,
        /// Why, for the log.
        reason: String,
    },
    /// The umpire adjusts a unit, with the reason ("where the rules produce unhistorical
    /// results, discard them or adjust them"): its figures, its green counters, and whether it
    /// is put back in good order (cancelling a withdrawal, a rout or a pursuit). Accepted at any
    /// decision; never offered to computer players.
    Adjust {
        /// The unit, by index.
        unit: u16,
        /// Figures it has now (no more than at the start), if changed.
        #[serde(default)]
        figures: Option<u16>,
        /// Green counters it has now, if changed.
        #[serde(default)]
        greens: Option<u8>,
        /// Put it back in good order.
        #[serde(default)]
        steady: bool,
        /// Where its centre is put, if moved: the umpire places a unit the rules cannot reach
        /// (out of any contact; on the table).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        /// Its facing now, in degrees clockwise from north, if turned.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        facing: Option<f64>,
        /// Why, for the log.
        reason: String,
    },
    /// This side has sent its orders for the bound.
    EndOrders,
}

/// The umpire's actions, for his form (a JSON Schema): each reads as the [`Action`] of the same
/// name (a test keeps them in step).
#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UmpireAction {
    /// Grant a tactical advantage for a unit's close combats.
    Advantage {
        /// The unit.
        unit: u16,
        /// The advantage, 0 to 3.
        #[schemars(range(min = 0, max = 3))]
        value: u8,
        /// Why (every player reads it).
        reason: String,
    },
    /// Adjust, move or turn a unit.
    Adjust {
        /// The unit.
        unit: u16,
        /// Figures it has now (no more than at the start).
        figures: Option<u16>,
        /// Green counters it has now.
        greens: Option<u8>,
        /// Put back in good order.
        steady: bool,
        /// Where its centre is put.
        #[serde(skip_serializing_if = "Option::is_none")]
        at: Option<[f64; 2]>,
        /// Its facing, in degrees clockwise from north.
        #[serde(skip_serializing_if = "Option::is_none")]
        facing: Option<f64>,
        /// Why (every player reads it).
        reason: String,
    },
}

impl Action {
    /// Whether only the umpire takes it (a tactical advantage, an adjustment).
    pub fn is_umpires(&self) -> bool {
        matches!(self, Action::Advantage { .. } | Action::Adjust { .. })
    }
}

/// An order on its way to a wing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Dispatch {
    /// The wing.
    pub wing: u16,
    /// The order.
    pub order: Order,
    /// The bound it takes effect.
    pub arrives: u32,
}

/// A wing's order in effect and its general's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Wing {
    /// The order in effect.
    pub order: Order,
    /// How many orders the wing has had (its units compare their own number with this).
    pub seq: u32,
    /// The general was in close combat last bound: he may not send or receive orders.
    pub general_engaged: bool,
}

/// One Old Fritz battle.
#[derive(Clone, Debug, Serialize)]
pub struct Battle {
    /// What never changes.
    #[serde(skip)]
    pub stat: Arc<Static>,
    /// Bound number, from 1.
    pub bound: u32,
    /// Phase.
    pub phase: Phase,
    /// Units.
    pub units: Vec<Unit>,
    /// Wings, as the scenario lists them.
    pub wings: Vec<Wing>,
    /// Orders on their way.
    pub dispatches: Vec<Dispatch>,
    /// The side last to hold each objective.
    pub holders: Vec<Option<SideId>>,
    /// Whether each side's wagons have been taken.
    pub wagons_taken: [bool; 2],
    /// The outcome, once over.
    pub outcome: Option<Outcome>,
    /// During a bound: the units bucketed by place, and the most any unit's footprint reaches
    /// from its centre (in line or column), for the queries of a bound that look near a place.
    #[serde(skip)]
    index: Option<(Buckets, f64)>,
    /// During a bound: what each unit decided when it moved (or why it did not move as its
    /// orders say), for telling why enemies left within 2½" fought no close combat.
    #[serde(skip)]
    decided: Vec<Option<Decided>>,
}

/// What a unit decided in a bound's movement.
#[derive(Clone, Debug, PartialEq)]
enum Decided {
    /// It went for this enemy.
    Attacked(usize),
    /// It attacked nobody, for this reason.
    Not(crate::events::NoAttack),
}

/// Buckets of the spatial index, inches: about a bound's march.
const BUCKET: f64 = 12.0;
/// Battles of this many units or more use the spatial index; smaller ones scan every unit,
/// which is quicker below about a hundred (`bound_of_a_tiled_battle` in BENCHMARKS.md).
pub const INDEX_FROM: usize = 128;

/// Units that may stand near a place: every unit, or those the spatial index lists.
enum Near {
    All(std::ops::Range<usize>),
    Listed(std::vec::IntoIter<usize>),
}

impl Iterator for Near {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        match self {
            Near::All(r) => r.next(),
            Near::Listed(v) => v.next(),
        }
    }
}

/// How far from its order's place an attacking unit looks for the enemy, inches.
pub const ATTACK_RADIUS: f64 = 15.0;
/// Choosing whom to attack, each degree the unit would have to wheel counts as this many
/// inches farther: units go for the enemy in front of them rather than swing about.
pub const SWING: f64 = 0.2;
/// An attacking unit also engages an enemy this near itself, inches.
pub const ENGAGE_NEAR: f64 = 8.0;
/// A unit with this many green counters rests rather than attacks (automation).
pub const TIRED: u8 = 2;
/// Ball passes on to units this far behind the target, inches.
pub const BALL_THROUGH: f64 = 5.0;
/// The shortest stride of an attacker's approach, inches; a move stops a tenth of it short of
/// the first enemy body in its way.
pub const PATH_STEP: f64 = 0.25;
/// Ball penetrates two ranks of figures behind the target: at most this many units.
pub const BALL_RANKS: usize = 2;
/// A general is in close combat when a unit that fought one stands this near his post, inches.
pub const GENERAL_NEAR: f64 = 4.0;
/// Wagons are guarded by a unit in good order this near the park, inches.
pub const GUARD_RADIUS: f64 = 6.0;
/// A disintegrating unit is surrounded with enemies this near in three of its four quarters.
pub const SURROUND_RADIUS: f64 = 6.0;
/// A change of direction under this many degrees is going straight on (trotting cavalry may
/// change direction not at all).
pub const STRAIGHT: f64 = 1.0;
/// The part of a bound's move left after a combat that lets a winner finish its move (a
/// "reasonable proportion": a quarter).
pub const MOVE_ON: f64 = 0.25;
/// Infantry march in column when the nearest enemy is farther than this, inches.
pub const COLUMN_CLEAR: f64 = 18.0;

impl Battle {
    /// A battle at the first bound's orders, each wing with its first order.
    pub fn new(stat: Arc<Static>, units: Vec<Unit>, first_orders: Vec<Order>) -> Self {
        let wings = first_orders.into_iter().map(|order| Wing { order, seq: 0, general_engaged: false }).collect();
        let holders = vec![None; stat.objectives.len()];
        let mut b = Battle {
            stat,
            bound: 1,
            phase: Phase::Orders { side: 0 },
            units,
            wings,
            dispatches: Vec::new(),
            holders,
            wagons_taken: [false; 2],
            outcome: None,
            index: None,
            decided: Vec::new(),
        };
        let centres = b.wing_centres();
        for u in &mut b.units {
            let c = centres.get(usize::from(u.wing)).copied().flatten();
            u.dest = place_in_wing(&b.stat, u, c);
        }
        b.update_objectives(&mut Vec::new());
        b
    }

    /// Scenario-wide data.
    pub fn stat(&self) -> &Static {
        &self.stat
    }

    /// A unit's name.
    pub fn name(&self, u: usize) -> &str {
        self.stat.unit_names.get(u).map_or("?", |s| s.as_str())
    }

    /// The place `order` names, in words ([`Static::place_words`]); empty if it names none.
    pub fn place_of(&self, order: &Order) -> String {
        order.place().map_or(String::new(), |p| self.stat.place_words(p))
    }

    /// A wing's name.
    pub fn wing_name(&self, w: usize) -> &str {
        self.stat.wings.get(w).map_or("?", |x| x.name.as_str())
    }

    /// The name of the side wing `w` belongs to.
    fn wing_side_name(&self, w: usize) -> String {
        let side = self.stat.wings.get(w).map_or(0, |x| x.side);
        self.stat.sides[usize::from(side) & 1].clone()
    }

    /// The side that must act.
    pub fn acting_side(&self) -> Option<SideId> {
        match self.phase {
            Phase::Orders { side } => Some(side),
            Phase::Over => None,
        }
    }

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Illegal> {
        match action {
            Action::Order { wing, order } => self.check_order(side, *wing, order),
            Action::Advantage { unit, value, reason } => {
                match self.units.get(usize::from(*unit)) {
                    Some(u) if u.present() => {}
                    Some(_) => return illegal!("{} is no longer in the battle", self.name(usize::from(*unit))),
                    None => return illegal!("there is no unit {unit}"),
                }
                if *value > 3 {
                    return illegal!("a tactical advantage is +1 to +3 (0 to take it away), not {value}");
                }
                if reason.trim().is_empty() {
                    return illegal!("the umpire's tactical advantage needs a reason, for the log");
                }
                Ok(())
            }
            Action::Adjust { unit, figures, greens: _, steady: _, at, facing, reason } => {
                if let Some(p) = at {
                    let t = &self.stat.table;
                    if !(p.x.is_finite()
                        && p.y.is_finite()
                        && (0.0..=t.width).contains(&p.x)
                        && (0.0..=t.depth).contains(&p.y))
                    {
                        return illegal!("({}, {}) is off the table ({} by {})", p.x, p.y, t.width, t.depth);
                    }
                }
                if facing.is_some_and(|f| !f.is_finite()) {
                    return illegal!("a facing is a number of degrees");
                }
                let Some(u) = self.units.get(usize::from(*unit)) else { return illegal!("there is no unit {unit}") };
                if !u.present() {
                    return illegal!("{} is no longer in the battle", self.name(usize::from(*unit)));
                }
                if let Some(f) = figures
                    && (*f == 0 || *f > u.figures_start)
                {
                    return illegal!(
                        "{} can have 1 to {} figures, not {f}",
                        self.name(usize::from(*unit)),
                        u.figures_start
                    );
                }
                if reason.trim().is_empty() {
                    return illegal!("the umpire's adjustment needs a reason, for the log");
                }
                Ok(())
            }
            Action::EndOrders => Ok(()),
        }
    }

    fn apply_valid(
        &mut self,
        action: &Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let Phase::Orders { side } = self.phase else { return Err(Illegal::new("the battle is over").into()) };
        match action {
            Action::Order { wing, order } => {
                let (minutes, bounds) = self.delay(usize::from(*wing));
                let arrives = self.bound + bounds;
                self.dispatches.push(Dispatch { wing: *wing, order: *order, arrives });
                let w = usize::from(*wing);
                events.push(Event::OrderSent {
                    side: self.stat.sides[usize::from(side)].clone(),
                    wing: self.wing_name(w).to_string(),
                    order: *order,
                    place: self.place_of(order),
                    minutes,
                    units: self.wing_units(w),
                    general: self.stat.wings.get(w).map_or(crate::command::General::Average, |x| x.quality),
                    arrives,
                    sent: self.bound,
                });
            }
            Action::Advantage { unit, value, reason } => {
                self.units[usize::from(*unit)].advantage = *value;
                events.push(Event::Advantage {
                    unit: self.name(usize::from(*unit)).to_string(),
                    value: *value,
                    reason: reason.clone(),
                });
            }
            Action::Adjust { unit, figures, greens, steady, at, facing, reason } => {
                let i = usize::from(*unit);
                let u = &mut self.units[i];
                if let Some(p) = at {
                    u.at = *p;
                    u.engage = None;
                }
                if let Some(f) = facing {
                    u.facing = f.rem_euclid(360.0);
                }
                if let Some(f) = figures {
                    u.figures = *f;
                }
                if let Some(g) = greens {
                    u.greens = *g;
                }
                if *steady {
                    u.state = State::Steady;
                    u.engage = None;
                }
                let u = &self.units[i];
                events.push(Event::Adjusted {
                    unit: self.name(i).to_string(),
                    figures: u.figures,
                    greens: u.greens,
                    steady: *steady,
                    moved: at.map(|_| (u.at, u.facing)),
                    place: at.map(|_| self.stat.place_words(u.at)),
                    reason: reason.clone(),
                });
            }
            Action::EndOrders => {
                if side == 0 {
                    self.phase = Phase::Orders { side: 1 };
                } else {
                    // Every draw of the bound is made on a copy: if one fails, nothing changes.
                    let mut next = self.clone();
                    let mut evs = Vec::new();
                    next.run_bound(chance, &mut evs)?;
                    *self = next;
                    events.append(&mut evs);
                }
            }
        }
        Ok(())
    }

    fn run_bound(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        if self.units.len() < INDEX_FROM {
            return self.bound_with_index(chance, events);
        }
        let table = &self.stat.table;
        let mut buckets = Buckets::new(table.width, table.depth, BUCKET);
        let mut reach = 0.0f64;
        for (i, u) in self.units.iter().enumerate() {
            buckets.insert(i as u32, u.at);
            for formation in [Formation::Line, Formation::Column] {
                let v = Unit { formation, ..u.clone() };
                reach = reach.max(v.radius()).max(v.depth());
            }
        }
        self.index = Some((buckets, reach));
        let r = self.bound_with_index(chance, events);
        self.index = None;
        r
    }

    /// Move unit `i` to `to`, keeping the index up to date.
    fn put(&mut self, i: usize, to: Point) {
        let from = self.units[i].at;
        self.units[i].at = to;
        if let Some((b, _)) = &mut self.index {
            b.relocate(i as u32, from, to);
        }
    }

    /// The units that may stand within `r` of `p` (all of them without the index), in index
    /// order.
    fn units_near(&self, p: Point, r: f64) -> Near {
        match &self.index {
            Some((b, _)) => {
                let mut out = Vec::new();
                b.near(p, r, &mut out);
                let mut out: Vec<usize> = out.into_iter().map(|i| i as usize).collect();
                out.sort_unstable();
                Near::Listed(out.into_iter())
            }
            None => Near::All(0..self.units.len()),
        }
    }

    /// The most any unit's footprint reaches from its centre.
    fn reach(&self) -> f64 {
        match &self.index {
            Some((_, r)) => *r,
            None => f64::INFINITY,
        }
    }

    /// The bound itself; the spatial index, if built, is kept up to date as units move.
    fn bound_with_index(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        events.push(Event::BoundBegins { bound: self.bound });
        self.decided = vec![None; self.units.len()];
        self.deliver_orders(events);
        self.adopt_orders();
        for u in &mut self.units {
            u.in_combat = false;
            u.acted = false;
            u.under_fire = false;
            u.no_room = false;
        }
        self.carry_out_results(events);
        let combats = self.move_units(events);
        self.bombard(chance, events)?;
        let mut fought = Vec::with_capacity(combats.len());
        for (defender, attackers) in &combats {
            let attackers = self.close_combat(*defender, attackers, chance, events)?;
            if !attackers.is_empty() {
                fought.push((*defender, attackers));
            }
        }
        self.finish_moves(&combats, events);
        self.tell_contacts(&fought, events);
        self.rest();
        self.end_of_bound(events);
        Ok(())
    }
}

/// The most enemy wings, and the most objectives, a wing is offered to attack or hold: the
/// nearest (a general's eye is on what lies before him; in the bundled battles every one is
/// offered).
pub const NEAREST_PLACES: usize = 8;

/// A unit holding its place turns to face the enemy only when the way its wing faces the enemy
/// is more than this off its front, degrees: half the 45° wheel that costs half a bound.
pub const FACE_SLACK: f64 = 22.5;

/// A unit told to hold a place that stands less than this from its place in the wing, inches,
/// and would have to wheel to get there, is there already: it does not wheel a bound to shuffle
/// an inch or two (interpretation: the wing's places are the order's point plus each unit's
/// offset from the wing's centre, batteries included, so a wing told to hold where it stands
/// is a little off its own centre).
pub const HOLD_NEAR: f64 = 2.0;

/// Two places for orders of the same kind nearer than this, inches, are one place: the second
/// is not offered (an enemy wing drawn up on an objective is one place to attack).
pub const SAME_PLACE: f64 = 3.0;

fn s_target_cover(s: &Situation, attacking: bool) -> bool {
    // The pursued unit is the other side of the combat.
    if attacking { s.defender.in_cover } else { s.attacker.in_cover }
}

fn round_point(p: Point) -> Point {
    Point::new(p.x.round(), p.y.round())
}

/// Where a unit's order sends it: the order's place plus the unit's place relative to its
/// wing's centre `centre`, kept on the table.
fn place_in_wing(stat: &Static, u: &Unit, centre: Option<Point>) -> Option<Point> {
    let at = u.order.place()?;
    let offset = centre.map_or(Point::default(), |c| u.at - c);
    Some(stat.table.clamp(at + offset))
}

/// The segment `from`–`to` cut where it leaves the table: its end on the table, and whether it
/// was cut.
fn clip_to_table(stat: &Static, from: Point, to: Point) -> (Point, bool) {
    if stat.table.contains(to) {
        return (to, false);
    }
    let d = to - from;
    let mut t: f64 = 1.0;
    for (p, v, max) in [(from.x, d.x, stat.table.width), (from.y, d.y, stat.table.depth)] {
        if v < 0.0 {
            t = t.min(-p / v);
        } else if v > 0.0 {
            t = t.min((max - p) / v);
        }
    }
    (stat.table.clamp(from + d * t.clamp(0.0, 1.0)), true)
}

/// What turning from `from` to `to` costs, as a fraction of a bound: nothing under
/// [`cost::INCLINE`] (no turn at all on a table-top), half a bound up to 45°, half a bound for an
/// about turn (180°, within [`cost::ABOUT_TURN_WITHIN`]), a whole bound for any other turn.
pub fn turn_cost(from: f64, to: f64) -> f64 {
    let t = turn(from, to).abs();
    if t < cost::INCLINE {
        0.0
    } else if t <= 45.0 {
        cost::WHEEL_UP_TO_45
    } else if t >= 180.0 - cost::ABOUT_TURN_WITHIN {
        cost::ABOUT_TURN
    } else {
        cost::WHEEL_OVER_45
    }
}

/// Whether segment `a`–`b` meets the axis-aligned box of centre `c` and half-extents `h`.
fn segment_meets_box(a: Point, b: Point, c: Point, h: Point) -> bool {
    let inside = |p: Point| (p.x - c.x).abs() <= h.x && (p.y - c.y).abs() <= h.y;
    if inside(a) || inside(b) {
        return true;
    }
    let corners = [
        Point::new(c.x - h.x, c.y - h.y),
        Point::new(c.x + h.x, c.y - h.y),
        Point::new(c.x + h.x, c.y + h.y),
        Point::new(c.x - h.x, c.y + h.y),
    ];
    (0..4).any(|k| volley_table::segments_intersect(a, b, corners[k], corners[(k + 1) % 4]))
}

fn calc_to_apply(e: CalcError) -> ApplyError {
    match e {
        CalcError::Draw(d) => ApplyError::Draw(d),
        CalcError::Invalid(s) => ApplyError::Illegal(Illegal::new(s)),
        e @ CalcError::Field { .. } => ApplyError::Illegal(Illegal::new(e.to_string())),
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
        &self.stat.sides[usize::from(side) & 1]
    }

    fn measure(&self) -> &'static str {
        "figures"
    }

    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        (
            self.stat.figures_start[usize::from(side) & 1] as usize,
            self.figures_lost(side) as usize,
            self.figures_running(side) as usize,
        )
    }
}

impl GameState for Battle {
    type Action = Action;
    type Event = Event;

    fn actor(&self) -> Actor {
        self.acting_side().map_or(Actor::Terminal, Actor::Side)
    }

    fn phase(&self) -> PhaseInfo {
        let phase = match self.phase {
            Phase::Orders { .. } => "orders",
            Phase::Over => "over",
        };
        PhaseInfo { turn: self.bound, phase: phase.to_string(), side: self.acting_side() }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        if let Some(side) = self.acting_side() {
            self.candidates(side, out);
        }
    }

    /// A tactical advantage and an adjustment are the umpire's, at any decision while the battle
    /// lasts; orders and the end of them are the acting side's.
    fn validate_by(&self, by: Actor, action: &Action) -> Result<(), Illegal> {
        volley_core::check_actor(self.actor(), by, action.is_umpires())?;
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
        self.validate_by(by, action)?;
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

    /// The enemy's orders on their way are dropped: a side looking ahead assumes the enemy goes
    /// on as its units are seen to act (each unit's adopted order is what it visibly does).
    fn redacted(&self, side: SideId) -> Self {
        let mut b = self.clone();
        b.dispatches.retain(|d| self.stat.wings.get(usize::from(d.wing)).is_some_and(|w| w.side == side));
        b
    }

    fn event_visible(&self, event: &Event, viewer: Viewer) -> bool {
        // Orders, on their way or arriving, are for their own side (and the umpire); so are the
        // reasons enemies left within 2½" do not fight, which name what each side's orders are
        // (the umpire's).
        let side = match event {
            Event::OrderSent { side, .. } | Event::OrderArrives { side, .. } | Event::OrderWaits { side, .. } => side,
            Event::Contact { .. } => return viewer == Viewer::Umpire,
            _ => return true,
        };
        match viewer {
            Viewer::Umpire => true,
            Viewer::Side(s) => self.stat.sides.get(usize::from(s)) == Some(side),
            Viewer::Spectator => false,
        }
    }

    /// An order sent is known to its side and the umpire only (the enemy learns of it when it
    /// takes effect); ending the orders, and the umpire's open acts, are known to all.
    fn action_visible(&self, by: Actor, action: &Action, viewer: Viewer) -> bool {
        match (action, viewer) {
            (Action::Order { .. }, Viewer::Side(s)) => by == Actor::Side(s),
            (Action::Order { .. }, Viewer::Spectator) => false,
            _ => true,
        }
    }

    /// A tactical advantage and an adjustment name a unit by its index.
    fn umpire_units(&self) -> Option<Vec<String>> {
        Some((0..self.units.len()).map(|i| self.name(i).to_string()).collect())
    }

    fn umpire_schema(&self) -> Option<serde_json::Value> {
        serde_json::to_value(schemars::schema_for!(UmpireAction)).ok()
    }

    fn action_points(&self, action: &Action) -> Vec<[f64; 2]> {
        match action {
            Action::Order { wing, order } => {
                let from = self.wing_centres().get(usize::from(*wing)).copied().flatten();
                from.into_iter().chain(order.place()).map(Into::into).collect()
            }
            Action::Advantage { unit, .. } | Action::Adjust { unit, .. } => {
                self.units.get(usize::from(*unit)).map(|u| vec![u.at.into()]).unwrap_or_default()
            }
            Action::EndOrders => Vec::new(),
        }
    }

    fn describe(&self, action: &Action) -> String {
        match action {
            Action::Order { wing, order } => {
                let w = usize::from(*wing);
                let (minutes, bounds) = self.delay(w);
                format!(
                    "order the {}: {}; {minutes} minutes, in effect in bound {}",
                    self.wing_name(w),
                    order.words(&self.place_of(order)),
                    self.bound + bounds
                )
            }
            Action::Advantage { unit, value, reason } => {
                format!("umpire: {} tactical advantage +{value} ({reason})", self.name(usize::from(*unit)))
            }
            Action::Adjust { unit, reason, .. } => {
                format!("umpire: adjust {} ({reason})", self.name(usize::from(*unit)))
            }
            Action::EndOrders => "end this side's orders for the bound".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use volley_ai::HeuristicAgent;
    use volley_chance::Seeded;
    use volley_core::{Actor, Agent, GameState};

    use super::*;

    /// The spatial index only saves work: bounds run with it and with a scan of every unit for
    /// every query come out the same, in Mittelhof four times over (168 units), the wings
    /// ordered by the heuristic player.
    #[test]
    fn bounds_come_out_the_same_with_the_index_and_without() -> Result<(), String> {
        let path = format!("{}/../../../scenarios/old-fritz/mittelhof.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).map_err(|e| e.to_string())?;
        let text = volley_scenario::generate::tile(&text, 4).map_err(|e| e.to_string())?;
        let mut b = crate::load(&volley_scenario::Source::new("tiled", text)).map_err(|e| e.to_string())?;
        assert!(b.units.len() >= INDEX_FROM);
        let mut agent = HeuristicAgent::new(1);
        let mut cands = Vec::new();
        let mut bounds = 0;
        while b.outcome.is_none() && bounds < 25 {
            let Actor::Side(_) = b.actor() else { break };
            cands.clear();
            b.candidate_actions(&mut cands);
            let a = cands[agent.choose(&b, &cands)].clone();
            if matches!(a, Action::EndOrders) && b.phase == (Phase::Orders { side: 1 }) {
                // The bound both ways from the same state with the same dice.
                let (mut with, mut without) = (b.clone(), b.clone());
                let (mut ev1, mut ev2) = (Vec::new(), Vec::new());
                with.run_bound(&mut Seeded::new(bounds), &mut ev1).map_err(|e| e.to_string())?;
                without.bound_with_index(&mut Seeded::new(bounds), &mut ev2).map_err(|e| e.to_string())?;
                assert!(with.index.is_none() && without.index.is_none());
                assert_eq!(with.units, without.units, "bound {}", b.bound);
                assert_eq!(format!("{ev1:?}"), format!("{ev2:?}"), "bound {}", b.bound);
                bounds += 1;
            }
            b.apply(&a, &mut Seeded::new(bounds), &mut Vec::new()).map_err(|e| e.to_string())?;
        }
        assert!(bounds >= 10, "{bounds} bounds compared");
        Ok(())
    }
}

#[cfg(test)]
mod umpire_form {
    use super::{Action, UmpireAction};

    // What the umpire's form makes is an action the rules read, with the same values.
    #[test]
    fn the_umpires_form_makes_actions_the_rules_read() {
        let made = [
            UmpireAction::Advantage { unit: 2, value: 3, reason: "a ford".into() },
            UmpireAction::Adjust {
                unit: 1,
                figures: Some(7),
                greens: None,
                steady: true,
                at: Some([10.0, 20.0]),
                facing: Some(90.0),
                reason: "a wall".into(),
            },
        ];
        let read: Vec<Action> =
            made.iter().map(|m| serde_json::from_value(serde_json::to_value(m).unwrap()).unwrap()).collect();
        assert!(matches!(&read[0], Action::Advantage { unit: 2, value: 3, reason } if reason == "a ford"));
        match &read[1] {
            Action::Adjust {
                unit: 1,
                figures: Some(7),
                greens: None,
                steady: true,
                at: Some(p),
                facing: Some(f),
                ..
            } => {
                assert_eq!((p.x, p.y, *f), (10.0, 20.0, 90.0));
            }
            other => panic!("{other:?}"),
        }
        // The schema names both, each with its unit.
        let schema = serde_json::to_value(schemars::schema_for!(UmpireAction)).unwrap().to_string();
        for word in ["\"advantage\"", "\"adjust\"", "\"unit\"", "\"at\"", "\"facing\""] {
            assert!(schema.contains(word), "{word} in {schema}");
        }
    }
}
