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
//! 6. units that did nothing at all lose a green counter; the wagons, objectives and the end are
//!    judged.

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
        /// Why, for the log.
        reason: String,
    },
    /// This side has sent its orders for the bound.
    EndOrders,
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
/// Moves are traced this far at a time for enemy bodies in the way, inches.
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

    /// The centre of each wing's units in good order (its general's post), if it has any.
    pub fn wing_centres(&self) -> Vec<Option<Point>> {
        let mut sum = vec![(Point::default(), 0u32); self.wings.len()];
        for u in self.units.iter().filter(|u| u.in_order()) {
            if let Some(s) = sum.get_mut(usize::from(u.wing)) {
                s.0 = s.0 + u.at;
                s.1 += 1;
            }
        }
        sum.into_iter().map(|(p, n)| (n > 0).then(|| p * (1.0 / f64::from(n)))).collect()
    }

    /// Battalions and cavalry regiments a wing still has: the units an order counts 2 minutes
    /// for (the text names those; batteries are not counted).
    pub fn wing_units(&self, w: usize) -> u32 {
        self.units.iter().filter(|u| u.present() && usize::from(u.wing) == w && u.kind.arm() != Arm::Artillery).count()
            as u32
    }

    /// The minutes and bounds an order to wing `w` takes now.
    pub fn delay(&self, w: usize) -> (u32, u32) {
        let q = self.stat.wings.get(w).map_or(crate::command::General::Average, |x| x.quality);
        order_delay(self.wing_units(w), q)
    }

    /// Major units of `side` gone or running.
    pub fn lost_units(&self, side: SideId) -> u32 {
        self.units.iter().filter(|u| u.side == side && matches!(u.state, State::Gone(_) | State::Running)).count()
            as u32
            + self.units.iter().filter(|u| u.side != side && self.originally(u) == side).count() as u32
    }

    /// The side a unit began the battle on (units of foreigners may have changed sides).
    fn originally(&self, u: &Unit) -> SideId {
        self.stat.wings.get(usize::from(u.wing)).map_or(u.side, |w| w.side)
    }

    /// Figures a side has lost for good (casualties, and units gone or gone over).
    pub fn figures_lost(&self, side: SideId) -> u32 {
        self.units
            .iter()
            .filter(|u| self.originally(u) == side)
            .map(|u| {
                if matches!(u.state, State::Gone(_)) || u.side != side {
                    u32::from(u.figures_start)
                } else {
                    u32::from(u.figures_start - u.figures.min(u.figures_start))
                }
            })
            .sum()
    }

    /// Figures of a side now running.
    pub fn figures_running(&self, side: SideId) -> u32 {
        self.units.iter().filter(|u| u.side == side && u.state == State::Running).map(|u| u32::from(u.figures)).sum()
    }

    fn check_order(&self, side: SideId, wing: u16, order: &Order) -> Result<(), Illegal> {
        let w = usize::from(wing);
        let Some(info) = self.stat.wings.get(w) else { return illegal!("there is no wing {wing}") };
        if info.side != side {
            return illegal!("the {} is not yours", info.name);
        }
        if self.wings[w].general_engaged {
            return illegal!("{} is in close combat: he may not send or receive orders", info.general);
        }
        if let Some(p) = order.place() {
            if !(p.x.is_finite() && p.y.is_finite() && self.stat.table.contains(p)) {
                return illegal!("the order's place [{}, {}] is off the table", p.x, p.y);
            }
        }
        Ok(())
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
            Action::Adjust { unit, figures, greens: _, steady: _, reason } => {
                let Some(u) = self.units.get(usize::from(*unit)) else { return illegal!("there is no unit {unit}") };
                if !u.present() {
                    return illegal!("{} is no longer in the battle", self.name(usize::from(*unit)));
                }
                if let Some(f) = figures {
                    if *f == 0 || *f > u.figures_start {
                        return illegal!(
                            "{} can have 1 to {} figures, not {f}",
                            self.name(usize::from(*unit)),
                            u.figures_start
                        );
                    }
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
                events.push(Event::OrderSent {
                    side: self.stat.sides[usize::from(side)].clone(),
                    wing: self.wing_name(usize::from(*wing)).to_string(),
                    order: *order,
                    minutes,
                    arrives,
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
            Action::Adjust { unit, figures, greens, steady, reason } => {
                let i = usize::from(*unit);
                let u = &mut self.units[i];
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

    // ----- the bound -----

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
        self.deliver_orders(events);
        self.adopt_orders();
        for u in &mut self.units {
            u.in_combat = false;
            u.acted = false;
            u.under_fire = false;
        }
        self.carry_out_results(events);
        let combats = self.move_units();
        self.bombard(chance, events)?;
        for (defender, attackers) in &combats {
            self.close_combat(*defender, attackers, chance, events)?;
        }
        self.finish_moves(&combats);
        self.rest();
        self.end_of_bound(events);
        Ok(())
    }

    fn deliver_orders(&mut self, events: &mut Vec<Event>) {
        let mut waiting = Vec::new();
        for d in std::mem::take(&mut self.dispatches) {
            let w = usize::from(d.wing);
            if d.arrives > self.bound {
                waiting.push(d);
            } else if self.wings[w].general_engaged {
                events.push(Event::OrderWaits { side: self.wing_side_name(w), wing: self.wing_name(w).to_string() });
                waiting.push(d);
            } else {
                self.wings[w].order = d.order;
                self.wings[w].seq += 1;
                events.push(Event::OrderArrives {
                    side: self.wing_side_name(w),
                    wing: self.wing_name(w).to_string(),
                    order: d.order,
                });
            }
        }
        self.dispatches = waiting;
    }

    /// Units in good order and not in close combat take up their wing's latest order.
    fn adopt_orders(&mut self) {
        let centres = self.wing_centres();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let w = usize::from(u.wing);
            let Some(wing) = self.wings.get(w) else { continue };
            if u.state != State::Steady || u.in_combat || u.engage.is_some() || u.order_seq == wing.seq {
                continue;
            }
            let (order, seq) = (wing.order, wing.seq);
            let c = centres.get(w).copied().flatten();
            let u = &mut self.units[i];
            u.order = order;
            u.order_seq = seq;
            u.hold_here = false;
            let dest = place_in_wing(&self.stat, u, c);
            self.units[i].dest = dest;
        }
    }

    fn rear_heading(&self, side: SideId) -> f64 {
        norm_heading(self.stat.rear[usize::from(side) & 1].inward() + 180.0)
    }

    fn carry_out_results(&mut self, events: &mut Vec<Event>) {
        // Runners first, then withdrawing units, then pursuers, who follow where their enemy went.
        for i in 0..self.units.len() {
            if self.units[i].state != State::Running {
                continue;
            }
            let u = &self.units[i];
            let rate = match u.kind.arm() {
                Arm::Cavalry => u.kind.data().trot,
                _ => RUN_RATE,
            };
            let heading = self.rear_heading(u.side);
            // Crossing a linear obstacle costs half a bound, running or not.
            let mut to = u.at.toward(heading, rate);
            if self.crosses_obstacle(u.at, to) {
                to = u.at.toward(heading, rate / 2.0);
            }
            let deserted: u8 = if !u.deserts {
                0
            } else if u.unreliable || (u.kind.arm() == Arm::Cavalry && u.pursued) {
                2
            } else {
                1
            };
            let name = self.name(i).to_string();
            let u = &mut self.units[i];
            u.figures = u.figures.saturating_sub(u16::from(deserted));
            u.facing = heading;
            u.acted = true;
            u.engage = None;
            events.push(Event::Ran { unit: name.clone(), deserted });
            if u.figures == 0 {
                u.state = State::Gone(Fate::Destroyed);
                events.push(Event::Gone { unit: name, fate: Fate::Destroyed });
            } else {
                // Straight for the rear: off the table if the way to the edge is clear, else as
                // far as it can go (not into a river, not through the enemy).
                let from = u.at;
                let (edge, leaves) = clip_to_table(&self.stat, from, to);
                let shape = (u.facing, u.formation);
                let reach = self.clear_end(i, from, edge, None, shape);
                let u = &mut self.units[i];
                if leaves && reach.dist(edge) < 1e-9 {
                    u.state = State::Gone(Fate::Fled);
                    events.push(Event::Gone { unit: name, fate: Fate::Fled });
                    continue;
                }
                let side = u.side;
                let at = reach;
                self.put(i, at);
                let clear = self
                    .units_near(at, RUN_RATE + 1e-6)
                    .map(|j| &self.units[j])
                    .all(|e| e.side == side || !e.in_order() || e.at.dist(at) > RUN_RATE);
                if clear {
                    let u = &mut self.units[i];
                    u.state = State::Rallying;
                    u.facing = norm_heading(heading + 180.0);
                    events.push(Event::StoppedRunning { unit: name });
                }
            }
        }
        for i in 0..self.units.len() {
            if self.units[i].state != State::Withdrawing {
                continue;
            }
            // Guns limber before they move: an unlimbered battery spends the bound limbering up
            // (a bound for medium guns, the first of two for heavy) and withdraws no farther.
            if self.units[i].kind.is_guns() && !self.units[i].limbered {
                let u = &mut self.units[i];
                u.busy = u.kind.data().limber_bounds - 1.0;
                if u.busy <= 0.0 {
                    u.busy = 0.0;
                    u.limbered = true;
                }
                u.state = State::Steady;
                u.acted = true;
                u.engage = None;
                events.push(Event::Withdrew { unit: self.name(i).to_string() });
                continue;
            }
            let u = &self.units[i];
            // Half speed: half a trot for cavalry beaten by cavalry, half a walk for cavalry
            // beaten by infantry and for everyone else.
            let rate = match u.kind.arm() {
                Arm::Cavalry if !u.withdraw_walking => u.kind.data().trot / 2.0,
                _ => u.kind.data().walk / 2.0,
            };
            let back = self.rear_heading(u.side);
            let mut to = self.stat.table.clamp(u.at.toward(back, rate));
            if self.crosses_obstacle(u.at, to) {
                // Half the bound goes on crossing the obstacle.
                to = self.stat.table.clamp(u.at.toward(back, rate / 2.0));
            }
            let to = self.clear_end(i, u.at, to, None, (u.facing, u.formation));
            self.put(i, to);
            let u = &mut self.units[i];
            u.state = State::Steady;
            u.acted = true;
            u.engage = None;
            events.push(Event::Withdrew { unit: self.name(i).to_string() });
        }
        for i in 0..self.units.len() {
            let State::Pursuing { target } = self.units[i].state else { continue };
            let t = usize::from(target);
            let u = &self.units[i];
            let to = match self.units.get(t) {
                Some(e) if e.present() => {
                    let back = heading_to(e.at, u.at);
                    self.stat.table.clamp(e.at.toward(back, APPROACH + (u.depth() + e.depth()) / 2.0))
                }
                _ => u.at,
            };
            // A pursuer moves at most its own rate (cavalry at the trot), half of it if it must
            // cross a linear obstacle on the way.
            let mut rate = match u.kind.arm() {
                Arm::Cavalry => u.kind.data().trot,
                _ => u.kind.data().walk,
            };
            if self.crosses_obstacle(u.at, to) {
                rate /= 2.0;
            }
            let to = if u.at.dist(to) > rate { u.at.toward(heading_to(u.at, to), rate) } else { to };
            let to = self.clear_end(i, u.at, to, Some(t), (u.facing, u.formation));
            self.put(i, to);
            let u = &mut self.units[i];
            u.state = State::Steady;
            u.acted = true;
            u.engage = None;
        }
        for u in &mut self.units {
            u.pursued = false;
        }
    }

    /// Attackers that won and have a good part of their move left finish it where the enemy no
    /// longer stands in the way (it disintegrated, surrendered or was destroyed).
    fn finish_moves(&mut self, combats: &[(usize, Vec<usize>)]) {
        for (defender, attackers) in combats {
            if self.units[*defender].present() {
                continue;
            }
            for &a in attackers {
                let u = &self.units[a];
                if u.state == State::Steady && !u.hold_here && u.move_left >= MOVE_ON {
                    let left = u.move_left;
                    self.march_with(a, left);
                }
            }
        }
        for u in &mut self.units {
            u.move_left = 0.0;
        }
    }

    /// Move every unit in good order as its order says; returns the close combats to fight
    /// this bound: (defender, attackers).
    fn move_units(&mut self) -> Vec<(usize, Vec<usize>)> {
        let mut combats: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if !u.present() || u.acted {
                continue;
            }
            if u.state == State::Rallying {
                continue;
            }
            if u.busy > 0.0 {
                let u = &mut self.units[i];
                u.busy -= 1.0;
                u.acted = true;
                if u.busy <= 0.0 {
                    u.busy = 0.0;
                    u.limbered = !u.limbered;
                }
                continue;
            }
            // A unit an enemy has come to grips with (to fight this bound or the next) stays to
            // receive it: it may not turn and march off from contact. It may take on that enemy.
            let contacting: Vec<usize> = (0..self.units.len())
                .filter(|&a| {
                    let e = &self.units[a];
                    e.side != u.side
                        && e.present()
                        && (e.engage == Some(i as u16) || combats.iter().any(|(d, atk)| *d == i && atk.contains(&a)))
                })
                .collect();
            if !contacting.is_empty() {
                if let Some(t) = self.attack_target(i).filter(|t| contacting.contains(t)) {
                    self.attack(i, t, &mut combats);
                }
                continue;
            }
            if let Some(t) = self.attack_target(i) {
                self.attack(i, t, &mut combats);
                continue;
            }
            if u.kind.is_guns() {
                self.work_guns(i);
                continue;
            }
            if u.greens >= TIRED && matches!(u.order, Order::Attack { .. }) {
                // Spent, it no longer attacks: it rests — but not in an enemy battery's canister,
                // where it would only be shot to pieces bound after bound: it falls back out of
                // close range first.
                if let Some(need) = self.canister_depth(i) {
                    self.fall_back(i, need);
                }
                continue;
            }
            if u.hold_here {
                continue;
            }
            self.march(i);
        }
        combats
    }

    /// How far unit `i` stands inside the close range of an enemy battery that can fire at it
    /// (unlimbered, in good order, the unit within 45° of its facing), if it does.
    fn canister_depth(&self, i: usize) -> Option<f64> {
        let u = &self.units[i];
        self.units
            .iter()
            .filter(|g| g.side != u.side && g.present() && g.state == State::Steady && !g.limbered)
            .filter_map(|g| {
                let (close, _) = g.kind.ranges()?;
                let d = g.at.dist(u.at);
                (d <= close && turn(g.facing, heading_to(g.at, u.at)).abs() <= 45.0).then(|| close - d)
            })
            .max_by(f64::total_cmp)
    }

    /// Unit `i` turns to its rear and walks back `need` inches (and a little more), as far as a
    /// bound allows.
    fn fall_back(&mut self, i: usize, need: f64) {
        let u = &self.units[i];
        let back = self.rear_heading(u.side);
        let c = turn_cost(u.facing, back);
        let (to, _) = self.advance(i, (back, u.formation), 1.0 - c, u.kind.data().walk, need + 0.5, None);
        let u = &mut self.units[i];
        u.acted = true;
        u.facing = back;
        self.put(i, to);
    }

    /// The enemy unit `i` goes for this bound, if any: the one it reached last bound, else, under
    /// an order to attack, the nearest enemy (not running) near the order's place or near the
    /// unit — unless it has [`TIRED`] greens, or is in its wing's second line while the first
    /// line still has fresh units in good order.
    pub fn attack_target(&self, i: usize) -> Option<usize> {
        let u = &self.units[i];
        if u.state != State::Steady || u.hold_here || u.kind.is_guns() {
            return None;
        }
        if let Some(t) = u.engage {
            let t = usize::from(t);
            if self.units.get(t).is_some_and(|e| e.present() && e.state != State::Running) {
                return Some(t);
            }
        }
        let Order::Attack { at } = u.order else { return None };
        if u.greens >= TIRED {
            return None;
        }
        // Successive waves: the second line goes in once the first is spent.
        if u.second_line
            && self.units.iter().any(|f| f.wing == u.wing && !f.second_line && f.in_order() && f.greens < TIRED)
        {
            return None;
        }
        // Those near the order's place and those near the unit, in index order, once each.
        let near = if self.index.is_some() {
            let mut near: Vec<usize> =
                self.units_near(at, ATTACK_RADIUS).chain(self.units_near(u.at, ENGAGE_NEAR)).collect();
            near.sort_unstable();
            near.dedup();
            Near::Listed(near.into_iter())
        } else {
            Near::All(0..self.units.len())
        };
        near.map(|j| (j, &self.units[j]))
            .filter(|(_, e)| {
                e.side != u.side
                    && e.present()
                    && e.state != State::Running
                    && (e.at.dist(at) <= ATTACK_RADIUS || e.at.dist(u.at) <= ENGAGE_NEAR)
            })
            .map(|(j, e)| (j, e.at.dist(u.at) + SWING * turn(u.facing, heading_to(u.at, e.at)).abs()))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(j, _)| j)
    }

    /// Unit `i` goes for enemy `t`: approaches to 2½" and engages if the bound allows, else
    /// engages next bound.
    fn attack(&mut self, i: usize, t: usize, combats: &mut Vec<(usize, Vec<usize>)>) {
        let (u, e) = (&self.units[i], &self.units[t]);
        let mut budget = 1.0;
        let mut facing = u.facing;
        let want = heading_to(u.at, e.at);
        let mut formation = u.formation;
        if formation == Formation::Column {
            formation = Formation::Line;
            budget -= cost::FORMATION;
        }
        let wheel = turn_cost(facing, want);
        // Trotting cavalry may not change direction at all, not even by an incline.
        let trot = turn(facing, want).abs() < STRAIGHT && u.kind.data().trot > 0.0;
        budget -= wheel;
        facing = want;
        // The approach is body to body: the attacker goes straight for the enemy until the gap
        // between their footprints is 2½" (whatever the angle: a line's flank reaches out).
        let mut moving = u.clone();
        (moving.facing, moving.formation) = (facing, formation);
        let target = e.corners();
        let gap_at = |p: Point| volley_table::convex_distance(&moving.corners().map(|c| c - u.at + p), &target);
        let mut at = u.at;
        if gap_at(at) > APPROACH + 0.05 && budget > 0.0 {
            let rate = if trot { u.kind.data().trot } else { u.kind.data().walk };
            let far = u.at.dist(e.at);
            // The first point of the way where the gap is down to 2½" (the gap only shrinks
            // until then, going straight for the enemy's centre): strides, then halving.
            let (mut lo, mut hi) = (0.0, far);
            let mut s = 0.0;
            while s < far {
                s = (s + PATH_STEP).min(far);
                if gap_at(u.at.toward(facing, s)) <= APPROACH {
                    hi = s;
                    break;
                }
                lo = s;
            }
            for _ in 0..20 {
                let mid = (lo + hi) / 2.0;
                if gap_at(u.at.toward(facing, mid)) <= APPROACH {
                    hi = mid;
                } else {
                    lo = mid;
                }
            }
            let (to, used) = self.advance(i, (facing, formation), budget, rate, lo, Some(t));
            at = to;
            budget -= used;
        }
        let reached = gap_at(at) <= APPROACH + 0.05;
        let u = &mut self.units[i];
        u.acted = u.acted || at != u.at || facing != u.facing || formation != u.formation;
        u.facing = facing;
        u.formation = formation;
        self.put(i, at);
        let u = &mut self.units[i];
        if !reached {
            u.engage = None;
            return;
        }
        // Engaging takes half a bound; without it the combat is fought next bound.
        let defender_busy = combats.iter().any(|(_, atk)| atk.contains(&t));
        if budget + 1e-9 >= cost::ENGAGE && !defender_busy && !combats.iter().any(|(d, _)| *d == i) {
            u.engage = None;
            u.acted = true;
            u.move_left = (budget - cost::ENGAGE).max(0.0);
            match combats.iter_mut().find(|(d, _)| *d == t) {
                Some((_, atk)) => atk.push(i),
                None => combats.push((t, vec![i])),
            }
        } else {
            u.engage = Some(t as u16);
        }
    }

    /// Move unit `i` along `facing` for up to `budget` of a bound at `rate` inches a bound, no
    /// farther than `limit`: shortened where it would cross a linear obstacle (half a bound),
    /// the wagon parks (half speed), impassable ground, or come too near other units (`target`
    /// may be approached to 2½"). Returns where it ends and the budget used.
    fn advance(
        &self,
        i: usize,
        shape: (f64, Formation),
        budget: f64,
        rate: f64,
        limit: f64,
        target: Option<usize>,
    ) -> (Point, f64) {
        let u = &self.units[i];
        let facing = shape.0;
        let mut reach = (budget * rate).min(limit).max(0.0);
        let mut end = u.at.toward(facing, reach);
        if self.crosses_obstacle(u.at, end) {
            reach = ((budget - cost::OBSTACLE).max(0.0) * rate).min(limit);
            end = u.at.toward(facing, reach);
        }
        if self.stat.parks.iter().any(|&(c, h)| segment_meets_box(u.at, end, c, h)) {
            reach /= 2.0;
            end = u.at.toward(facing, reach);
        }
        let end = self.clear_end(i, u.at, end, target, shape);
        let moved = end.dist(u.at);
        let used = if rate > 0.0 { (moved / rate).min(budget) } else { 0.0 };
        (end, if moved > 0.0 && self.crosses_obstacle(u.at, end) { (used + cost::OBSTACLE).min(budget) } else { used })
    }

    /// The farthest point on the way from `from` towards `to` where unit `i` may end its move:
    /// the way there passable, crossing no enemy body, and room to stand at the end.
    fn clear_end(&self, i: usize, from: Point, to: Point, target: Option<usize>, shape: (f64, Formation)) -> Point {
        let limit = self.first_contact(i, from, to, target, shape);
        let last = (limit < 1.0).then(|| from.lerp(to, limit));
        let tenths = (1..=10).rev().map(|k| f64::from(k) / 10.0).filter(|&t| t <= limit).map(|t| from.lerp(to, t));
        for p in last.into_iter().chain(tenths) {
            if self.stat.table.segment_passable(from, p) && self.room_at(i, p, target) {
                return p;
            }
        }
        from
    }

    /// How far along the way from `from` to `to` (a fraction) unit `i`'s footprint, with the
    /// facing and formation it moves in (`shape`), goes before it would overlap the footprint of
    /// an enemy unit in good order (not its `target`, nor one it already overlaps): units are
    /// bodies, and no move passes through one. 1 if nothing is in the way. Traced a quarter of an
    /// inch at a time.
    fn first_contact(&self, i: usize, from: Point, to: Point, target: Option<usize>, shape: (f64, Formation)) -> f64 {
        let u = &self.units[i];
        let len = from.dist(to);
        if len < 1e-9 {
            return 1.0;
        }
        let mut moving = u.clone();
        (moving.facing, moving.formation) = shape;
        let corners = moving.corners();
        let shape_at = |p: Point| corners.map(|c| c - u.at + p);
        let start = shape_at(from);
        let r = len / 2.0 + u.radius() + self.reach() + 0.1;
        let foes: Vec<[Point; 4]> = self
            .units_near(from.lerp(to, 0.5), r)
            .filter(|&j| j != i && Some(j) != target)
            .map(|j| &self.units[j])
            .filter(|v| v.side != u.side && v.present() && v.state != State::Running)
            .map(Unit::corners)
            .filter(|c| !volley_table::convex_overlap(&start, c))
            .collect();
        if foes.is_empty() {
            return 1.0;
        }
        let steps = (len / PATH_STEP).ceil().max(1.0) as u32;
        for k in 1..=steps {
            let t = f64::from(k) / f64::from(steps);
            let shape = shape_at(from.lerp(to, t));
            if foes.iter().any(|c| volley_table::convex_overlap(&shape, c)) {
                return f64::from(k - 1) / f64::from(steps);
            }
        }
        1.0
    }

    fn room_at(&self, i: usize, p: Point, target: Option<usize>) -> bool {
        let u = &self.units[i];
        // Nobody farther than this can be in the way: the widest footprint's reach, or the
        // approach distance with the deepest.
        let r = (0.9 * (u.radius() + self.reach())).max(APPROACH + (u.depth() + self.reach()) / 2.0) + 0.1;
        self.units_near(p, r).map(|j| (j, &self.units[j])).all(|(j, v)| {
            if j == i || Some(j) == target || !v.present() || v.state == State::Running {
                return true;
            }
            let d = v.at.dist(p);
            if v.side == u.side {
                d >= 0.9 * (u.radius() + v.radius()) || d >= v.at.dist(u.at) - 1e-9
            } else {
                let gap = APPROACH + (u.depth() + v.depth()) / 2.0;
                d >= gap - 0.05 - if Some(j) == target { 0.1 } else { 0.0 } || d >= v.at.dist(u.at) - 1e-9
            }
        })
    }

    fn crosses_obstacle(&self, a: Point, b: Point) -> bool {
        self.stat.table.features().iter().any(|f| {
            matches!(f.kind, TerrainKind::Wall | TerrainKind::Hedge | TerrainKind::Redoubt | TerrainKind::Trench)
                && segment_crosses_polyline(a, b, &f.points)
        })
    }

    fn nearest_enemy(&self, i: usize) -> Option<(usize, f64)> {
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

    /// A unit that is not attacking goes where its order sends it.
    fn march(&mut self, i: usize) {
        self.march_with(i, 1.0);
    }

    /// [`Battle::march`] with `budget` of the bound's move.
    fn march_with(&mut self, i: usize, budget: f64) {
        let u = &self.units[i];
        let Some(dest) = u.dest else { return };
        let far = u.at.dist(dest);
        let enemy = self.nearest_enemy(i);
        let mut budget = budget;
        let mut facing = u.facing;
        let mut formation = u.formation;
        let column_wanted = u.kind.arm() == Arm::Infantry
            && matches!(u.order, Order::MoveTo { .. } | Order::WithdrawTo { .. })
            && far > 12.0
            && enemy.is_none_or(|(_, d)| d > COLUMN_CLEAR);
        let wanted = if column_wanted { Formation::Column } else { Formation::Line };
        if wanted != formation && u.kind.arm() == Arm::Infantry {
            formation = wanted;
            budget -= cost::FORMATION;
        }
        let mut at = u.at;
        if far > 0.3 {
            let want = heading_to(u.at, dest);
            // Only 180° is an about turn (half a bound); any other turn over 45° is a wheel of a
            // whole bound. A change of formation and such a wheel do not both fit in one bound:
            // the unit wheels this bound and changes formation the next.
            let c = turn_cost(facing, want);
            if c + (u.formation != formation).then_some(cost::FORMATION).unwrap_or(0.0) > 1.0 {
                formation = u.formation;
                budget += cost::FORMATION;
            }
            budget -= c;
            let straight = turn(facing, want).abs() < STRAIGHT;
            facing = want;
            if budget > 0.0 {
                let trot = straight && u.kind.data().trot > 0.0;
                let rate = if trot { u.kind.data().trot } else { u.kind.data().walk };
                let (to, used) = self.advance(i, (facing, formation), budget, rate, far, None);
                at = to;
                budget -= used;
            }
        }
        // Arrived (or holding): face the nearest enemy within reach if there is time.
        if at.dist(dest) <= 0.3 && budget >= cost::WHEEL_UP_TO_45 {
            if let Some((j, d)) = enemy {
                if d <= 24.0 && matches!(u.order, Order::Hold { .. } | Order::Attack { .. } | Order::Reserve) {
                    let want = heading_to(at, self.units[j].at);
                    let c = turn_cost(facing, want);
                    if c > 0.0 && c <= budget {
                        facing = want;
                    }
                }
            }
        }
        let u = &mut self.units[i];
        u.acted = u.acted || at != u.at || facing != u.facing || formation != u.formation;
        u.facing = facing;
        u.formation = formation;
        self.put(i, at);
    }

    /// A battery's bound: unlimber to fire at an enemy in range, limber to move, or move.
    fn work_guns(&mut self, i: usize) {
        let u = &self.units[i];
        let Some((_, long)) = u.kind.ranges() else { return };
        let enemy = self.nearest_enemy(i);
        let fighting = matches!(u.order, Order::Attack { .. } | Order::Hold { .. } | Order::Reserve);
        let in_range = enemy.filter(|&(_, d)| d <= long);
        let dest_far = u.dest.is_some_and(|d| d.dist(u.at) > 2.0) && !u.hold_here;
        let start_work = |u: &mut Unit| {
            let bounds = u.kind.data().limber_bounds;
            u.busy = bounds - 1.0;
            u.acted = true;
            if u.busy <= 0.0 {
                u.busy = 0.0;
                u.limbered = !u.limbered;
            }
        };
        if !u.limbered {
            if fighting && in_range.is_some() {
                // Swing the trail round to the enemy if it is out of the battery's arc.
                if let Some((j, _)) = in_range {
                    let want = heading_to(u.at, self.units[j].at);
                    if turn(u.facing, want).abs() > 45.0 {
                        let u = &mut self.units[i];
                        u.facing = want;
                        u.acted = true;
                    }
                }
                return;
            }
            if dest_far || (matches!(u.order, Order::Attack { .. }) && in_range.is_none() && u.dest.is_some()) {
                start_work(&mut self.units[i]);
            }
            return;
        }
        // Limbered.
        if fighting && in_range.is_some() && !dest_far || matches!(u.order, Order::Reserve) && !dest_far {
            start_work(&mut self.units[i]);
            return;
        }
        if matches!(u.order, Order::Attack { .. }) {
            // Go towards the enemy until within long range.
            if let Some((j, d)) = enemy {
                let e = self.units[j].at;
                if d > long * 0.8 {
                    let want = heading_to(u.at, e);
                    let c = turn_cost(u.facing, want);
                    let (to, _) =
                        self.advance(i, (want, u.formation), 1.0 - c, u.kind.data().walk, d - long * 0.8, None);
                    let u = &mut self.units[i];
                    u.acted = true;
                    u.facing = want;
                    self.put(i, to);
                    return;
                }
            }
        }
        self.march(i);
    }

    fn bombard(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let Some((close, long)) = u.kind.ranges() else { continue };
            if !u.present() || u.limbered || u.acted || u.state != State::Steady || u.engage.is_some() {
                continue;
            }
            let Some(t) = self.gun_target(i, long) else { continue };
            let name = self.name(i).to_string();
            let d6 = chance.draw(&DrawKind::Die { sides: 6 }, &format_args!("{name}'s bombardment: d6"))? as u8;
            let u = &self.units[i];
            let guns = combat::Guns {
                heavy: u.kind == Kind::HeavyGuns,
                gunners_lost: u.figures_start.saturating_sub(u.figures).min(255) as u8,
            };
            let score = bombardment_base(&guns, u.greens) - i32::from(d6);
            let dist = u.at.dist(self.units[t].at);
            let is_close = dist <= close;
            let (cas, greens) = if is_close { close_range_effect(score) } else { (0, long_range_effect(score)) };
            let mut through = Vec::new();
            let from = u.at;
            self.units[i].acted = true;
            // The hits are taken after the shot is told, so that a unit it destroys is gone after it.
            let mut hits = vec![(t, cas, greens)];
            // Ball on level ground passes on to units close behind the target.
            if !is_close
                && greens > 0
                && !self.stat.table.inside(TerrainKind::Hill, from)
                && !self.stat.table.inside(TerrainKind::SoftGround, self.units[t].at)
            {
                let (tp, tw) = (self.units[t].at, self.units[t].frontage());
                let dir = volley_table::unit(heading_to(from, tp));
                let r = BALL_THROUGH + tw / 2.0 + self.reach() + 0.1;
                // The units behind the target in the line of fire, within 5", nearest first; the
                // ball goes through two ranks of figures, so at most two of them, and never the
                // firing battery's own side.
                let side = self.units[i].side;
                let mut behind_it: Vec<(f64, usize)> = self
                    .units_near(tp, r)
                    .filter_map(|j| {
                        let v = &self.units[j];
                        if j == t || j == i || !v.present() || v.side == side {
                            return None;
                        }
                        let rel = v.at - tp;
                        let behind = rel.dot(dir);
                        let aside = rel.cross(dir).abs();
                        (behind > 0.0 && behind <= BALL_THROUGH && aside <= (tw + v.frontage()) / 2.0)
                            .then_some((behind, j))
                    })
                    .collect();
                behind_it.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                for &(_, j) in behind_it.iter().take(BALL_RANKS) {
                    through.push(self.name(j).to_string());
                    hits.push((j, 0, greens));
                }
            }
            events.push(Event::Bombardment {
                battery: name,
                target: self.name(t).to_string(),
                close: is_close,
                d6,
                score,
                casualties: cas,
                greens,
                through,
            });
            for (j, c, g) in hits {
                self.hit(j, c, g, events);
            }
        }
        Ok(())
    }

    /// The nearest enemy a battery can fire at: in its front arc (45° each side), within long
    /// range, in sight, and with no friendly unit in the way.
    fn gun_target(&self, i: usize, long: f64) -> Option<usize> {
        let u = &self.units[i];
        self.units_near(u.at, long)
            .map(|j| (j, &self.units[j]))
            .filter(|(_, e)| {
                e.side != u.side
                    && e.present()
                    && e.at.dist(u.at) <= long
                    && turn(u.facing, heading_to(u.at, e.at)).abs() <= 45.0
                    && !self.stat.table.terrain_blocks_sight(u.at, e.at)
            })
            .filter(|(_, e)| {
                // A friend in the way stands within its radius of the line of fire.
                let mid = u.at.lerp(e.at, 0.5);
                let r = u.at.dist(e.at) / 2.0 + self.reach() + 0.1;
                !self.units_near(mid, r).map(|k| (k, &self.units[k])).any(|(k, f)| {
                    k != i && f.side == u.side && f.present() && dist_to_segment(f.at, u.at, e.at) < f.radius()
                })
            })
            .min_by(|a, b| a.1.at.dist2(u.at).total_cmp(&b.1.at.dist2(u.at)))
            .map(|(j, _)| j)
    }

    /// Casualties (figures) and green counters on unit `j`.
    fn hit(&mut self, j: usize, casualties: u8, greens: u8, events: &mut Vec<Event>) {
        let name = self.name(j).to_string();
        let u = &mut self.units[j];
        u.figures = u.figures.saturating_sub(u16::from(casualties));
        u.greens = u.greens.saturating_add(greens);
        u.under_fire = true;
        if u.figures == 0 && u.present() {
            u.state = State::Gone(Fate::Destroyed);
            events.push(Event::Gone { unit: name, fate: Fate::Destroyed });
        }
    }

    /// The close combat situation of `attackers` (the first leading) against `defender`.
    pub fn situation(&self, defender: usize, attackers: &[usize]) -> Option<Situation> {
        let lead = *attackers.first()?;
        let d = self.units.get(defender)?;
        let l = self.units.get(lead)?;
        let mut a = l.combatant();
        let figures: u32 = attackers.iter().filter_map(|&k| self.units.get(k)).map(|x| u32::from(x.figures)).sum();
        let start: u32 = attackers.iter().filter_map(|&k| self.units.get(k)).map(|x| u32::from(x.figures_start)).sum();
        a.figures = figures.clamp(1, u32::from(u16::MAX)) as u16;
        a.figures_at_start = Some(start.clamp(1, u32::from(u16::MAX)) as u16);
        a.in_cover = self.stat.table.in_soft_cover(l.at);
        let mut def = d.combatant();
        let front: f64 = attackers.iter().filter_map(|&k| self.units.get(k)).map(Unit::frontage).sum();
        def.overlapped = front > d.frontage() + 0.05;
        a.overlapped = d.frontage() > front + 0.05;
        let fwd = volley_table::unit(d.facing);
        def.enemy_to_rear =
            attackers.iter().filter_map(|&k| self.units.get(k)).any(|x| (x.at - d.at).dot(fwd) < -d.depth() / 2.0);
        def.in_cover = self.stat.table.cover(d.at, l.at) != volley_table::Cover::Open;
        Some(Situation { attacker: a, defender: def })
    }

    fn close_combat(
        &mut self,
        defender: usize,
        attackers: &[usize],
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        if !self.units[defender].present() || attackers.iter().any(|&a| !self.units[a].present()) {
            return Ok(());
        }
        // A grouping fires one casualty test: no more units join it than that test's dice
        // allow (the others do not come to grips with this defender this bound).
        let mut firing = 0u32;
        let attackers: Vec<usize> = attackers
            .iter()
            .copied()
            .enumerate()
            .take_while(|&(n, k)| {
                firing += u32::from(self.units[k].figures);
                n == 0 || firing <= u32::from(combat::MAX_FIRING_FIGURES)
            })
            .map(|(_, k)| k)
            .collect();
        let attackers = attackers.as_slice();
        let Some(s) = self.situation(defender, attackers) else { return Ok(()) };
        let names: Vec<String> = attackers.iter().map(|&a| self.name(a).to_string()).collect();
        let dname = self.name(defender).to_string();
        let res = s.resolve_named(chance, &names.join(" and "), &dname).map_err(calc_to_apply)?;
        for &k in attackers.iter().chain([&defender]) {
            let u = &mut self.units[k];
            u.in_combat = true;
            u.acted = true;
            u.engage = None;
        }
        events.push(Event::CloseCombat { attackers: names, defender: dname, resolution: Box::new(res.clone()) });
        let table = res.table;
        // Take the results: greens and casualties on every unit of a grouping (casualties in turn).
        self.take(attackers, res.attacker.greens, res.attacker.casualties + res.attacker.test_casualties, events);
        self.take(&[defender], res.defender.greens, res.defender.casualties + res.defender.test_casualties, events);
        let groups: [(&[usize], &combat::Effect); 2] = [(attackers, &res.attacker), (&[defender], &res.defender)];
        let sides = [attackers.to_vec(), vec![defender]];
        // Every unit's reaction first (so a pursuer knows whether its enemy disintegrated), then
        // the pursuits.
        for (units, result) in groups {
            for &k in units {
                if !self.units[k].present() {
                    continue;
                }
                match result.reaction {
                    Reaction::Withdraw => {
                        self.units[k].state = State::Withdrawing;
                        self.units[k].withdraw_walking = table == Table::CavalryVsInfantry;
                    }
                    Reaction::RunAway => {
                        self.units[k].state = State::Running;
                        self.units[k].deserts = table != Table::CavalryVsInfantry;
                    }
                    Reaction::Disintegrate => self.disintegrate(k, table, events),
                    _ => {}
                }
            }
        }
        for g in 0..2 {
            let (units, result) = groups[g];
            let (enemy, eres) = (&sides[1 - g], if g == 0 { &res.defender } else { &res.attacker });
            self.follow_result(table, units, result, enemy, eres, &s, g == 0, chance, events)?;
        }
        Ok(())
    }

    /// Green counters and casualties on a grouping: greens on each, casualties one at a time
    /// from the first.
    fn take(&mut self, units: &[usize], greens: u8, casualties: u8, events: &mut Vec<Event>) {
        let alive: Vec<usize> = units.iter().copied().filter(|&k| self.units[k].present()).collect();
        for &k in &alive {
            self.hit(k, 0, greens, events);
        }
        for c in 0..usize::from(casualties) {
            if let Some(&k) = alive.get(c % alive.len().max(1)) {
                self.hit(k, 1, 0, events);
            }
        }
    }

    /// The pursuit that follows a beaten enemy, for a winning grouping: the pursuit test where
    /// the row calls for one, and what being pursued costs the enemy.
    #[allow(clippy::too_many_arguments)]
    fn follow_result(
        &mut self,
        table: Table,
        units: &[usize],
        result: &combat::Effect,
        enemy: &[usize],
        eres: &combat::Effect,
        s: &Situation,
        attacking: bool,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        // Pursuit, for the winner's grouping.
        let pursuer_rows = matches!(result.reaction, Reaction::Pursue | Reaction::Unaffected);
        if !pursuer_rows || result.score < 4 {
            return Ok(());
        }
        let me = if attacking { &s.attacker } else { &s.defender };
        let loser = eres.reaction;
        // Cavalry beating cavalry choose: a unit under orders to attack follows up a withdrawing
        // enemy and pursues a running one; any other declines — freely against a withdrawing
        // enemy ("if the unit follows up"), and against a running or dispersed one only if it
        // passes a pursuit test (pursuit is then "not required").
        let attacking = units.first().is_some_and(|&k| matches!(self.units[k].order, Order::Attack { .. }));
        let (test, must) = match table {
            Table::InfantryVsInfantry => (loser == Reaction::RunAway, false),
            Table::CavalryVsCavalry => match loser {
                Reaction::Withdraw => (false, attacking),
                Reaction::RunAway => (!attacking, attacking),
                _ => (true, false),
            },
            Table::CavalryVsInfantry => (me.arm == Arm::Cavalry, false),
        };
        let mut pursue = must;
        // The units this test keeps under control: it holds for this test only, so a unit kept
        // by an earlier one and failing this one pursues.
        let mut kept = Vec::new();
        if test {
            for &k in units {
                // A battery does not pursue: its guns would have to limber first.
                if !self.units[k].present() || self.units[k].kind.is_guns() {
                    continue;
                }
                let name = self.name(k).to_string();
                let die = chance.draw(&DrawKind::Die { sides: 10 }, &format_args!("{name}'s pursuit test: d10"))? as u8;
                let against_routing = self.units[k].kind.arm() == Arm::Cavalry
                    && table == Table::CavalryVsCavalry
                    && matches!(loser, Reaction::RunAway | Reaction::Disintegrate);
                let u = self.units[k].combatant();
                let addition = pursuit_addition(&u, against_routing);
                let needs = pursuit_needs(u.arm);
                let under_control = i32::from(die) + addition >= needs;
                events.push(Event::PursuitTest { unit: name, die, addition, needs, under_control });
                if under_control {
                    self.units[k].hold_here = true;
                    kept.push(k);
                } else {
                    pursue = true;
                }
            }
        }
        if !pursue {
            return Ok(());
        }
        let Some(&target) = enemy.iter().find(|&&e| self.units[e].present()) else {
            // The enemy disintegrated: pursuing cavalry scatter after it (cavalry tables).
            if table != Table::InfantryVsInfantry {
                for &k in units {
                    if self.units[k].present() && self.units[k].kind.arm() == Arm::Cavalry {
                        self.units[k].state = State::Gone(Fate::Dispersed);
                        events.push(Event::Gone { unit: self.name(k).to_string(), fate: Fate::Dispersed });
                    }
                }
            }
            return Ok(());
        };
        for &k in units {
            let u = &self.units[k];
            if !u.present() || kept.contains(&k) || u.kind.is_guns() {
                continue;
            }
            self.units[k].state = State::Pursuing { target: target as u16 };
            events.push(Event::Pursues { unit: self.name(k).to_string(), target: self.name(target).to_string() });
        }
        // What being pursued costs the beaten enemy, and following up costs the pursuer.
        match (table, loser) {
            (Table::InfantryVsInfantry, Reaction::RunAway) => {
                // The pursuer fires as it stood before the combat (its greens then), at a
                // routing enemy.
                let firer = if attacking { s.attacker } else { s.defender };
                let n = casualty_dice(firer.figures);
                let add = casualty_addition(&firer, TargetState::Routing, s_target_cover(s, attacking));
                let mut score = add;
                for d in 0..n {
                    let tn = self.name(target).to_string();
                    score += chance.draw(
                        &DrawKind::Die { sides: 10 },
                        &format_args!("casualty test against {tn}, pursued: d10 {} of {n}", d + 1),
                    )? as i32;
                }
                self.take(&[target], 0, casualties_for(score), events);
            }
            (Table::CavalryVsCavalry, Reaction::Withdraw) => {
                self.take(&[target], 1, 1, events);
                self.take(units, 0, 1, events);
            }
            (Table::CavalryVsCavalry, Reaction::RunAway) => self.units[target].pursued = true,
            (Table::CavalryVsInfantry, Reaction::Withdraw) => {
                if self.units[target].present() {
                    self.units[target].state = State::Running;
                }
                self.take(&[target], 2, 2, events);
            }
            (Table::CavalryVsInfantry, Reaction::RunAway) => self.take(&[target], 1, 1, events),
            _ => {}
        }
        Ok(())
    }

    /// A unit disintegrates: it surrenders if surrounded; unreliable foreigners (infantry
    /// table) change sides with a casualty and two greens; otherwise it is dispersed.
    fn disintegrate(&mut self, k: usize, table: Table, events: &mut Vec<Event>) {
        let name = self.name(k).to_string();
        if self.units[k].foreign && table == Table::InfantryVsInfantry {
            let to = 1 - self.units[k].side;
            let at = self.units[k].at;
            let wing = self
                .wing_centres()
                .iter()
                .enumerate()
                .filter(|(w, c)| self.stat.wings[*w].side == to && c.is_some())
                .min_by(|a, b| {
                    let (da, db) = (a.1.map_or(f64::MAX, |p| p.dist(at)), b.1.map_or(f64::MAX, |p| p.dist(at)));
                    da.total_cmp(&db)
                })
                .map(|(w, _)| w as u16);
            if let Some(w) = wing {
                let order = self.wings[usize::from(w)].order;
                let seq = self.wings[usize::from(w)].seq;
                let u = &mut self.units[k];
                u.side = to;
                u.wing = w;
                u.state = State::Rallying;
                u.order = order;
                u.order_seq = seq.wrapping_sub(1);
                u.facing = norm_heading(u.facing + 180.0);
                events.push(Event::ChangedSides { unit: name, to: self.stat.sides[usize::from(to)].clone() });
                self.take(&[k], 2, 1, events);
                return;
            }
        }
        let fate = if self.surrounded(k) { Fate::Surrendered } else { Fate::Dispersed };
        self.units[k].state = State::Gone(fate);
        events.push(Event::Gone { unit: name, fate });
    }

    /// Enemies in good order within [`SURROUND_RADIUS`] in at least three of the unit's four
    /// quarters (front, right, rear, left).
    pub fn surrounded(&self, k: usize) -> bool {
        let u = &self.units[k];
        let mut quarters = [false; 4];
        for e in self
            .units_near(u.at, SURROUND_RADIUS)
            .map(|j| &self.units[j])
            .filter(|e| e.side != u.side && e.in_order() && e.at.dist(u.at) <= SURROUND_RADIUS)
        {
            let rel = norm_heading(turn(u.facing, heading_to(u.at, e.at)) + 45.0);
            quarters[((rel / 90.0) as usize).min(3)] = true;
        }
        quarters.iter().filter(|&&q| q).count() >= 3
    }

    /// One green counter off each unit that did nothing at all this bound (and was not under
    /// fire); rallied units with fewer than two greens take up their orders again.
    fn rest(&mut self) {
        for u in &mut self.units {
            if !u.present() || u.acted || u.under_fire || !matches!(u.state, State::Steady | State::Rallying) {
                continue;
            }
            u.greens = u.greens.saturating_sub(1);
            if u.state == State::Rallying && u.greens < TIRED {
                u.state = State::Steady;
            }
        }
    }

    fn update_objectives(&mut self, events: &mut Vec<Event>) {
        for (o, obj) in self.stat.objectives.iter().enumerate() {
            // Those who may stand inside: within the circle round the objective's box.
            let near: Vec<usize> = volley_table::bounding_circle(obj.points.iter().copied())
                .map(|(c, r)| self.units_near(c, r + 0.1).collect())
                .unwrap_or_default();
            let inside = |s: SideId| {
                near.iter()
                    .map(|&j| &self.units[j])
                    .any(|u| u.side == s && u.in_order() && volley_table::point_in_polygon(u.at, &obj.points))
            };
            let (a, b) = (inside(0), inside(1));
            let holder = match (a, b) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => self.holders[o],
            };
            if holder != self.holders[o] {
                if let Some(h) = holder {
                    events.push(Event::ObjectiveTaken {
                        objective: obj.name.clone(),
                        side: self.stat.sides[usize::from(h)].clone(),
                    });
                }
                self.holders[o] = holder;
            }
        }
    }

    fn end_of_bound(&mut self, events: &mut Vec<Event>) {
        // Generals near a close combat are in it.
        let centres = self.wing_centres();
        for (w, c) in centres.iter().enumerate() {
            self.wings[w].general_engaged = c.is_some_and(|p| {
                self.units_near(p, GENERAL_NEAR).any(|j| {
                    self.units[j].in_combat && self.units[j].present() && self.units[j].at.dist(p) <= GENERAL_NEAR
                })
            });
        }
        // Unguarded wagons are taken.
        for s in 0..2usize {
            if self.wagons_taken[s] {
                continue;
            }
            let (c, h) = self.stat.parks[s];
            let enemy_in = self.units.iter().any(|u| {
                usize::from(u.side) != s
                    && u.in_order()
                    && (u.at.x - c.x).abs() <= h.x + 1.0
                    && (u.at.y - c.y).abs() <= h.y + 1.0
            });
            let guarded = self
                .units
                .iter()
                .any(|u| usize::from(u.side) == s && u.in_order() && u.at.dist(c) <= GUARD_RADIUS + h.x.max(h.y));
            if enemy_in && !guarded {
                self.wagons_taken[s] = true;
                events.push(Event::WagonsTaken { side: self.stat.sides[s].clone() });
            }
        }
        self.update_objectives(events);
        let broken: Vec<Option<String>> = (0..2u8).map(|s| self.broken(s)).collect();
        for (s, why) in broken.iter().enumerate() {
            if let Some(why) = why {
                events.push(Event::Broken { side: self.stat.sides[s].clone(), why: why.clone() });
            }
        }
        let outcome = match (&broken[0], &broken[1]) {
            (Some(_), Some(_)) => Some(Outcome { winner: None, reason: "both armies are broken".into() }),
            (Some(_), None) => {
                Some(Outcome { winner: Some(1), reason: format!("the {} army is broken", self.stat.sides[0]) })
            }
            (None, Some(_)) => {
                Some(Outcome { winner: Some(0), reason: format!("the {} army is broken", self.stat.sides[1]) })
            }
            (None, None) if self.bound >= self.stat.turn_limit => {
                let (winner, reason) =
                    self.stat.at_turn_limit.decide(self.stat.turn_limit, &self.stat.sides, &self.holders);
                Some(Outcome { winner, reason })
            }
            (None, None) => None,
        };
        match outcome {
            Some(o) => {
                events.push(Event::BattleEnds { outcome: o.clone() });
                self.outcome = Some(o);
                self.phase = Phase::Over;
            }
            None => {
                self.bound += 1;
                self.phase = Phase::Orders { side: 0 };
            }
        }
    }

    /// Why side `s`'s army is broken, if it is: the scenario's share of its battalions,
    /// regiments and batteries gone or running, or its wagons taken.
    pub fn broken(&self, s: SideId) -> Option<String> {
        let start = self.stat.major_units[usize::from(s) & 1];
        let lost = self.lost_units(s);
        if u64::from(lost) * 100 >= u64::from(self.stat.break_at) * u64::from(start) {
            return Some(format!("{lost} of its {start} battalions, regiments and batteries gone or running"));
        }
        if self.stat.wagons_taken_breaks && self.wagons_taken[usize::from(s) & 1] {
            return Some("its wagons are taken".into());
        }
        None
    }

    // ----- candidates -----

    /// The orders worth offering a wing now: attack each enemy wing or objective, hold each
    /// objective or where it stands, withdraw 12" towards its rear, stand in reserve (less the
    /// order it already has, unless some of its units, halted under control after a pursuit
    /// test, need it again as fresh orders). In a big battle only the [`NEAREST_PLACES`] enemy
    /// wings and objectives nearest the wing are offered.
    pub fn order_candidates(&self, w: usize, out: &mut Vec<Action>) {
        self.order_candidates_among(w, &self.wing_centres(), &self.wings_held(), out);
    }

    /// For each wing, whether some of its units halted under control (after a pursuit test)
    /// and need its order again.
    fn wings_held(&self) -> Vec<bool> {
        let mut held = vec![false; self.wings.len()];
        for u in self.units.iter().filter(|u| u.present() && u.hold_here) {
            if let Some(h) = held.get_mut(usize::from(u.wing)) {
                *h = true;
            }
        }
        held
    }

    /// [`Battle::order_candidates`] with the wings' centres, and which wings are held
    /// ([`Battle::wings_held`]), worked out once for every wing.
    fn order_candidates_among(&self, w: usize, centres: &[Option<Point>], held: &[bool], out: &mut Vec<Action>) {
        let side = self.stat.wings[w].side;
        let Some(here) = centres.get(w).copied().flatten() else { return };
        let mut orders: Vec<Order> = Vec::new();
        let enemies = centres
            .iter()
            .enumerate()
            .filter_map(|(v, c)| c.filter(|_| self.stat.wings[v].side != side).map(|c| (v, c)));
        for (_, c) in volley_table::nearest(here, enemies, NEAREST_PLACES) {
            orders.push(Order::Attack { at: round_point(c) });
        }
        let objectives = self.stat.objective_centres.iter().enumerate().filter_map(|(i, c)| c.map(|c| (i, c)));
        for (_, c) in volley_table::nearest(here, objectives, NEAREST_PLACES) {
            orders.push(Order::Attack { at: round_point(c) });
            orders.push(Order::Hold { at: round_point(c) });
        }
        orders.push(Order::Hold { at: round_point(here) });
        // The side's own wagons: to guard them, or to clear an enemy out of their park.
        let park = round_point(self.stat.parks[usize::from(side) & 1].0);
        orders.push(Order::Attack { at: park });
        orders.push(Order::Hold { at: park });
        let back = self.stat.table.clamp(here.toward(self.rear_heading(side), 12.0));
        orders.push(Order::WithdrawTo { at: round_point(back) });
        orders.push(Order::Reserve);
        let current =
            self.dispatches.iter().rev().find(|d| usize::from(d.wing) == w).map_or(self.wings[w].order, |d| d.order);
        // The order in effect again, when some of the wing's units halted under control need it.
        let held = held.get(w).copied().unwrap_or(false);
        if held {
            orders.insert(0, current);
        }
        // Each order once, at its first place in the list (a set of their bits: the list is long
        // in a big battle, a wing and an objective per place; -0 and 0 are one place).
        let key = |o: &Order| {
            let bits = |p: Point| ((p.x + 0.0).to_bits(), (p.y + 0.0).to_bits());
            match *o {
                Order::Attack { at } => (0u8, bits(at)),
                Order::Hold { at } => (1, bits(at)),
                Order::MoveTo { at } => (2, bits(at)),
                Order::WithdrawTo { at } => (3, bits(at)),
                Order::Reserve => (4, (0, 0)),
            }
        };
        let mut seen = std::collections::HashSet::with_capacity(orders.len());
        for o in orders {
            if (o == current && !held) || !seen.insert(key(&o)) {
                continue;
            }
            let a = Action::Order { wing: w as u16, order: o };
            if self.check_order(side, w as u16, &o).is_ok() {
                out.push(a);
            }
        }
    }

    fn candidates(&self, side: SideId, out: &mut Vec<Action>) {
        out.push(Action::EndOrders);
        let (centres, held) = (self.wing_centres(), self.wings_held());
        for w in 0..self.wings.len() {
            if self.stat.wings[w].side == side && !self.dispatches.iter().any(|d| usize::from(d.wing) == w) {
                self.order_candidates_among(w, &centres, &held, out);
            }
        }
    }
}

/// The most enemy wings, and the most objectives, a wing is offered to attack or hold: the
/// nearest (a general's eye is on what lies before him; in the bundled battles every one is
/// offered).
pub const NEAREST_PLACES: usize = 8;

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

    fn validate(&self, action: &Action) -> Result<(), Illegal> {
        match self.acting_side() {
            Some(side) => self.validate_for(side, action),
            None => illegal!("the battle is over"),
        }
    }

    fn apply(&mut self, action: &Action, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
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

    /// The enemy's orders on their way are dropped: a side looking ahead assumes the enemy goes
    /// on as its units are seen to act (each unit's adopted order is what it visibly does).
    fn redacted(&self, side: SideId) -> Self {
        let mut b = self.clone();
        b.dispatches.retain(|d| self.stat.wings.get(usize::from(d.wing)).is_some_and(|w| w.side == side));
        b
    }

    fn event_visible(&self, event: &Event, viewer: Viewer) -> bool {
        // Orders, on their way or arriving, are for their own side (and the umpire).
        let side = match event {
            Event::OrderSent { side, .. } | Event::OrderArrives { side, .. } | Event::OrderWaits { side, .. } => side,
            _ => return true,
        };
        match viewer {
            Viewer::Umpire => true,
            Viewer::Side(s) => self.stat.sides.get(usize::from(s)) == Some(side),
            Viewer::Spectator => false,
        }
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
                let (_, bounds) = self.delay(w);
                format!("order the {}: {order} (takes effect in bound {})", self.wing_name(w), self.bound + bounds)
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
