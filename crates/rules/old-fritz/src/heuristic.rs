//! How the heuristic computer player values an order. The player commands wings, as the text's
//! player does, so it judges whole wings: strength is figures weighted by quality and tired by
//! green counters.
//!
//! * Attack where the wing is clearly stronger than the enemy found there (by a fifth or more),
//!   and more readily an objective the side must take.
//! * Hold objectives not in the enemy's hands.
//! * Withdraw a wing that is worn out (two greens a unit, or half its figures gone).
//! * Guard the wagons: when an enemy comes within 24" of their park and nobody guards it, send
//!   a wing there (taken, they break the army). A side of three wings or more keeps one there
//!   all the time, the one farthest from every objective: cavalry crosses the table faster than
//!   an order arrives.
//! * Stay on an objective the side holds, unless a stronger wing is sent there too.
//! * Prefer near places to far ones, and places no other wing of the side is sent to, unless
//!   the wings sent there are too weak for the enemy they will find: then join them.
//! * Past half the bounds, a side that is not winning goes for the objectives it lacks.
//! * A new order must beat the order in effect by a margin: orders take long to arrive. The same
//!   order is sent again to free units halted under control after a pursuit test.

use volley_core::Heuristic;
use volley_scenario::AtTurnLimit;
use volley_table::Point;
use volley_table::buckets::Buckets;

use crate::game::{ATTACK_RADIUS, Action, Battle, GUARD_RADIUS, INDEX_FROM};
use crate::model::{Order, State, Unit};

/// What a new order must gain over the one in effect to be worth the time it takes.
const MARGIN: f64 = 3.0;
/// Cost of each inch between a wing and the place an order sends it.
const DISTANCE: f64 = 0.2;
/// Cost of sending a wing where another wing of the side is already sent.
const SHARED: f64 = 6.0;
/// Worth of going to the side's wagons when an enemy comes near them: taken, they break the army.
const GUARD: f64 = 14.0;
/// Worth of the keeper's keeping the side's wagons when no other wing does: cavalry crosses the
/// table in two bounds, quicker than an order arrives.
const KEEP: f64 = 12.0;
/// A side keeps a wing by its wagons only when it has this many wings in the field.
const KEEP_FROM: usize = 3;
/// Worth of holding an objective not in the enemy's hands (whether the side is winning or not:
/// an objective left to go after another is often lost to whoever walks in).
const HOLD: f64 = 9.0;
/// Worth of keeping an objective the side holds with the one wing sent there.
const HELD: f64 = 8.0;
/// An enemy this near the side's wagon park threatens it, inches.
const THREAT: f64 = 24.0;
/// Worth of attacking an objective the side lacks once half the bounds are gone and it is not
/// winning.
const LATE: f64 = 8.0;

fn strength(u: &Unit) -> f64 {
    if !matches!(u.state, State::Steady | State::Pursuing { .. } | State::Rallying) {
        return 0.0;
    }
    let grade = 6.0 - u.quality as u8 as f64;
    f64::from(u.figures) * (1.0 + 0.15 * grade) * (1.0 - 0.25 * f64::from(u.greens)).max(0.2)
}

/// What the player works out once a decision: each wing's figures, and the units bucketed by
/// place so that finding the enemy near a place looks only near it.
struct Survey {
    wings: Vec<WingSurvey>,
    /// The units by place, in battles big enough for it to pay.
    buckets: Option<Buckets>,
    /// Whether each side wins at the turn limit as things are.
    winning: [bool; 2],
    /// Whether each side's wagons are threatened: an enemy in good order near the park, and
    /// none of the side's own in good order guarding it.
    threatened: [bool; 2],
    /// The wing each side keeps its wagons with when nothing threatens them: the one farthest
    /// from every objective (it has least to do elsewhere).
    keeper: [Option<usize>; 2],
    /// The places the wings' orders (in effect and on their way) attack or hold: (wing, place),
    /// bucketed by place.
    places: Vec<(usize, Point)>,
    place_buckets: Option<Buckets>,
}

#[derive(Clone, Copy, Default)]
struct WingSurvey {
    /// Strength of all its units.
    strength: f64,
    /// Units present.
    present: u32,
    /// Their green counters.
    greens: f64,
    /// Their figures.
    figures: f64,
    /// Figures of all its units at the start.
    start: f64,
    /// Its centre (its units in good order), if any.
    centre: Option<Point>,
}

impl Battle {
    /// The survey for this decision; sums are taken in the units' order, as a unit-by-unit
    /// count would.
    fn survey(&self) -> Survey {
        let mut wings = vec![WingSurvey::default(); self.wings.len()];
        let big = self.units.len() >= INDEX_FROM;
        let mut buckets = big.then(|| Buckets::new(self.stat.table.width, self.stat.table.depth, ATTACK_RADIUS));
        for (i, u) in self.units.iter().enumerate() {
            if let Some(b) = &mut buckets {
                b.insert(i as u32, u.at);
            }
            let Some(w) = wings.get_mut(usize::from(u.wing)) else { continue };
            w.strength += strength(u);
            w.start += f64::from(u.figures_start);
            if u.present() {
                w.present += 1;
                w.greens += f64::from(u.greens);
                w.figures += f64::from(u.figures);
            }
        }
        for (w, c) in wings.iter_mut().zip(self.wing_centres()) {
            w.centre = c;
        }
        let mut places = Vec::new();
        let mut place_buckets = big.then(|| Buckets::new(self.stat.table.width, self.stat.table.depth, 4.0));
        for w in 0..self.wings.len() {
            for o in self.orders_of(w) {
                if let Order::Attack { at } | Order::Hold { at } = o {
                    if let Some(b) = &mut place_buckets {
                        b.insert(places.len() as u32, at);
                    }
                    places.push((w, at));
                }
            }
        }
        let threatened = [0u8, 1].map(|s| {
            let (c, h) = self.stat.parks[usize::from(s)];
            let guard = GUARD_RADIUS + h.x.max(h.y);
            let near = |own: bool, r: f64| {
                self.units.iter().any(|u| (u.side == s) == own && u.in_order() && u.at.dist(c) <= r)
            };
            !self.wagons_taken[usize::from(s)] && near(false, THREAT) && !near(true, guard)
        });
        let keeper = [0u8, 1].map(|s| {
            let far = |w: usize| {
                let c = wings[w].centre?;
                let d = self.stat.objective_centres.iter().flatten().map(|p| p.dist(c));
                Some(d.fold(f64::INFINITY, f64::min))
            };
            let candidates: Vec<(usize, f64)> = (0..self.wings.len())
                .filter(|&w| self.stat.wings[w].side == s)
                .filter_map(|w| far(w).map(|d| (w, d)))
                .filter(|(_, d)| d.is_finite())
                .collect();
            // A side of two wings needs both in the fight.
            if candidates.len() < KEEP_FROM {
                return None;
            }
            candidates.into_iter().max_by(|a, b| a.1.total_cmp(&b.1)).map(|(w, _)| w)
        });
        Survey {
            wings,
            keeper,
            buckets,
            winning: [self.wins_at_limit(0), self.wins_at_limit(1)],
            threatened,
            places,
            place_buckets,
        }
    }

    /// The orders wing `w` has: in effect, and on their way.
    fn orders_of(&self, w: usize) -> impl Iterator<Item = Order> + '_ {
        std::iter::once(self.wings[w].order)
            .chain(self.dispatches.iter().filter(move |d| usize::from(d.wing) == w).map(|d| d.order))
    }

    fn enemy_within(&self, survey: &Survey, side: u8, at: Point, r: f64) -> f64 {
        let wanted = |u: &&Unit| u.side != side && u.at.dist(at) <= r;
        let Some(b) = &survey.buckets else { return self.units.iter().filter(wanted).map(strength).sum() };
        let mut near = Vec::new();
        b.near(at, r, &mut near);
        near.sort_unstable();
        near.iter().map(|&j| &self.units[j as usize]).filter(wanted).map(strength).sum()
    }

    /// The strength of `side`'s wings other than `w` already sent to `p` (each wing once), if
    /// any are.
    fn others_at(&self, survey: &Survey, w: usize, side: u8, p: Point) -> Option<f64> {
        let sent = |k: usize| {
            let (v, at) = survey.places[k];
            (v != w && self.stat.wings[v].side == side && at.dist(p) < 1.0).then_some(v)
        };
        let mut others: Option<f64> = None;
        let mut counted: Vec<usize> = Vec::new();
        let mut count = |k: usize| {
            // A wing with two orders there counts once: at its first.
            if let Some(v) = sent(k).filter(|v| !counted.contains(v)) {
                counted.push(v);
                *others.get_or_insert(0.0) += survey.wings.get(v).map_or(0.0, |x| x.strength);
            }
        };
        match &survey.place_buckets {
            Some(b) => {
                // Every place within 1" of `p` is among those near it, taken in order.
                let mut near = Vec::new();
                b.near(p, 1.0, &mut near);
                near.sort_unstable();
                near.into_iter().for_each(|k| count(k as usize));
            }
            None => (0..survey.places.len()).for_each(count),
        }
        others
    }

    /// Worth of sending wing `w` to `at` for the side's wagons: [`GUARD`] if `at` is their park
    /// and they are threatened; [`KEEP`] if they are not, `w` is the side's keeper and no other
    /// wing is sent there (`sent_elsewhere`); a little less than nothing otherwise; nothing for
    /// other places.
    fn guard_value(&self, survey: &Survey, w: usize, side: u8, at: Point, sent_elsewhere: bool) -> f64 {
        let s = usize::from(side & 1);
        if at.dist(self.stat.parks[s].0) > 1.0 {
            return 0.0;
        }
        if survey.threatened[s] {
            GUARD
        } else if survey.keeper[s] == Some(w) && !sent_elsewhere {
            KEEP
        } else {
            -2.0
        }
    }

    /// Worth of a wing of strength `mine` staying at a place that is `objective` (if it is one)
    /// when the side holds it and the other wings sent there (of strength `others`) are weaker:
    /// leaving it to them invites the enemy in.
    fn keeping(&self, objective: Option<usize>, side: u8, mine: f64, others: Option<f64>) -> f64 {
        match objective {
            Some(o) if others.is_none_or(|x| x < mine) && self.holders[o] == Some(side) => HELD,
            _ => 0.0,
        }
    }

    fn objective_at(&self, at: Point) -> Option<usize> {
        let boxes = &self.stat.objective_boxes;
        self.stat
            .objectives
            .iter()
            .zip(boxes)
            .position(|(o, b)| volley_table::in_box(b, at, 0.0) && volley_table::point_in_polygon(at, &o.points))
    }

    /// Whether `side` wins if the turn limit comes with things as they are (so it need not attack).
    fn wins_at_limit(&self, side: u8) -> bool {
        match &self.stat.at_turn_limit {
            AtTurnLimit::Win(name) => self.stat.sides[usize::from(side)] == *name,
            AtTurnLimit::MostObjectives => {
                let held = |s: u8| self.holders.iter().filter(|h| **h == Some(s)).count();
                held(side) > held(1 - side)
            }
            AtTurnLimit::Draw => false,
        }
    }

    /// The worth of wing `w` having `order`.
    fn order_value(&self, survey: &Survey, w: usize, order: &Order) -> f64 {
        let side = self.stat.wings[w].side;
        let Some(wing) = survey.wings.get(w) else { return f64::NEG_INFINITY };
        let mine = wing.strength;
        let winning = survey.winning[usize::from(side & 1)];
        let n = f64::from(wing.present.max(1));
        let greens = wing.greens / n;
        let worn = greens >= 2.0 || wing.figures < wing.start * 0.5;
        // Far places take long to reach; a place another wing is already sent to is taken care of.
        let centre = wing.centre;
        let far = match (centre, order.place()) {
            (Some(c), Some(p)) => DISTANCE * c.dist(p),
            _ => 0.0,
        };
        let others = order.place().and_then(|p| self.others_at(survey, w, side, p));
        let shared = if others.is_some() { SHARED } else { 0.0 };
        match *order {
            Order::Attack { at } => {
                let theirs = self.enemy_within(survey, side, at, ATTACK_RADIUS);
                let objective = self.objective_at(at);
                let wanted = objective.is_some_and(|o| self.holders[o] != Some(side));
                // Where the wings already sent are too weak for the enemy there, this one joins
                // them: their strength is counted with its own, and sharing costs nothing.
                let others_enough = others.is_none_or(|o| o >= 1.2 * theirs);
                let (mine, shared) = if others_enough { (mine, shared) } else { (mine + others.unwrap_or(0.0), 0.0) };
                let mut v = if theirs < 1.0 {
                    // Nobody there: worth going only to take an objective.
                    if wanted { 8.0 } else { -5.0 }
                } else {
                    10.0 * (mine / theirs - 1.2).min(1.0) + if wanted { 6.0 } else { 0.0 }
                };
                if winning {
                    v -= 6.0;
                } else if wanted && self.bound * 2 >= self.stat.turn_limit {
                    // Half the time gone and not winning: a draw is no better than a fight.
                    v += LATE;
                }
                if worn {
                    v -= 10.0;
                }
                v + self.keeping(objective, side, wing.strength, others)
                    + self.guard_value(survey, w, side, at, others.is_some())
                    - far
                    - shared
            }
            Order::Hold { at } => {
                let mut v = 1.0;
                let objective = self.objective_at(at);
                if let Some(o) = objective
                    && self.holders[o] != Some(1 - side)
                {
                    v += HOLD;
                }
                v + self.keeping(objective, side, wing.strength, others)
                    + self.guard_value(survey, w, side, at, others.is_some())
                    - far
                    - shared
            }
            Order::MoveTo { .. } => 0.0,
            Order::WithdrawTo { .. } => {
                if worn {
                    5.0
                } else {
                    -10.0
                }
            }
            Order::Reserve => -2.0,
        }
    }
}

impl Battle {
    /// The score of `action`, given the worth of each wing's order in effect (`current`, worked
    /// out once for all of a decision's candidates).
    fn score_with(&self, survey: &Survey, action: &Action, current: &mut [Option<f64>]) -> f64 {
        match action {
            Action::EndOrders | Action::Advantage { .. } | Action::Adjust { .. } => 0.0,
            Action::Order { wing, order } => {
                let w = usize::from(*wing);
                if w >= self.wings.len() {
                    return f64::NEG_INFINITY;
                }
                if *order == self.wings[w].order {
                    // The same order again: fresh orders for units halted under control.
                    let held = self.units.iter().filter(|u| usize::from(u.wing) == w && u.present() && u.hold_here);
                    return 2.0 * held.count() as f64 - MARGIN;
                }
                let now = match current.get(w).copied().flatten() {
                    Some(v) => v,
                    None => {
                        let v = self.order_value(survey, w, &self.wings[w].order);
                        if let Some(slot) = current.get_mut(w) {
                            *slot = Some(v);
                        }
                        v
                    }
                };
                self.order_value(survey, w, order) - now - MARGIN
            }
        }
    }
}

impl Heuristic for Battle {
    fn score(&self, action: &Action) -> f64 {
        self.score_with(&self.survey(), action, &mut vec![None; self.wings.len()])
    }

    fn scores(&self, actions: &[Action], out: &mut Vec<f64>) {
        let mut current = vec![None; self.wings.len()];
        let survey = self.survey();
        out.extend(actions.iter().map(|a| self.score_with(&survey, a, &mut current)));
    }
}
