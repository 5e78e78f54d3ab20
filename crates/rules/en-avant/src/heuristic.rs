//! How the heuristic computer player values an order. It knows the rules (it is the engine's
//! own player), so it reckons a close assault's two steps before ordering a charge.
//!
//! * Fire when an enemy is in reach, and stand with a fire card (to fire in its own defence) when
//!   one is near; charge where both steps favour the charger once the target's fire as it comes
//!   in is counted (never horse against a formed square); advance towards the nearest objective
//!   it does not hold, else the nearest enemy, while out of reach (and wait when the side holds
//!   every objective); withdraw when Wavering or worse, or when shot at with nothing to answer,
//!   except from an objective it holds; halt to re-order when no enemy is near; never charge
//!   where another body bars the way; turn to face an enemy close by that is not ahead, or the ground
//!   to take when it is off to the side.
//! * Infantry form square when enemy horse is near, and leave it when none is; guns deploy
//!   within ball range.
//! * The senior officer rides to the lowest-status unit within his ride to rally it.
//! * A second line combines when that raises the first; it always follows up a win.

use volley_core::Heuristic;
use volley_table::{Point, point_in_polygon};

use crate::battle::{Action, Battle, Fought};
use crate::combat::Assault;
use crate::model::{Formation, Kind};
use crate::orders::Order;
use crate::tables::{Arm, Status};

/// What the heuristic weighs of one unit's situation, the same for each of its cards.
struct Context {
    /// The gap to the nearest enemy, centimetres.
    gap: f64,
    /// An enemy is in its reach now.
    can_fire: bool,
    /// Foot with enemy horse within 60 cm.
    horse_near: bool,
    /// An enemy has it in its reach.
    under_fire: bool,
}

impl Battle {
    /// Where unit `u` should go: the nearest objective its side does not hold, else the nearest
    /// enemy.
    fn goal(&self, u: usize) -> Option<Point> {
        self.objective_goal(u).or_else(|| self.nearest_enemy(u).map(|e| self.units[e].centre()))
    }

    /// The centre of the nearest objective `u`'s side does not hold.
    fn objective_goal(&self, u: usize) -> Option<Point> {
        let x = &self.units[u];
        let mut best: Option<(f64, Point)> = None;
        for (k, o) in self.stat().objectives.iter().enumerate() {
            if self.holders[k] == Some(x.side) {
                continue;
            }
            let n = o.points.len().max(1) as f64;
            let c = o.points.iter().fold(Point::new(0.0, 0.0), |a, &p| a + p) * (1.0 / n);
            let d = c.dist(x.centre());
            if best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, c));
            }
        }
        best.map(|(_, p)| p)
    }

    fn on_held_objective(&self, u: usize) -> bool {
        let x = &self.units[u];
        self.stat()
            .objectives
            .iter()
            .enumerate()
            .any(|(k, o)| self.holders[k] == Some(x.side) && point_in_polygon(x.centre(), &o.points))
    }

    fn enemy_horse_within(&self, u: usize, cm: f64) -> bool {
        let side = self.units[u].side;
        (0..self.units.len()).any(|j| {
            let o = &self.units[j];
            o.here() && o.side != side && o.kind == Kind::Cavalry && !o.running() && self.gap(u, j) <= cm
        })
    }

    fn charge_worth(&self, u: usize, t: usize) -> f64 {
        let Some(m) = self.contact(u, t) else { return -5.0 };
        if !self.charge_way_clear(u, t) {
            return -0.5;
        }
        let x = &self.units[u];
        let mut a = Assault::new(self.party(u), self.party(t));
        a.direction = m.direction;
        if x.arm() == Arm::Cavalry && self.units[t].formation == Formation::Square {
            return -4.0;
        }
        // The target's fire as the charge comes into its reach (if it can fire at all), from the
        // front only: the charger arrives shaken and DISORDERED.
        let target = &self.units[t];
        let defends = m.direction == crate::combat::Direction::Front
            && target.armed()
            && !target.running()
            && target.fired_turn != self.turn;
        if defends {
            let kind = crate::model::fire_kind(target.kind, target.formation, target.ordered(), target.fired_ever, 0.0);
            if let Some(kind) = kind {
                let dens = crate::model::density(x.kind, x.formation);
                let hit = crate::tables::fire_effect(kind, target.step_status(), a.attacker.status, dens);
                if hit.dropped > 0 {
                    a.attacker.status = hit.status;
                    a.attacker.disordered = true;
                }
            }
        }
        let one = a.step_one();
        if one[0].total < one[1].total {
            return -3.0;
        }
        let two = a.step_two();
        let wins = self.units[t].arm() == Arm::Artillery || two[0].total >= two[1].total;
        let near = if m.dist <= x.rate() { 1.0 } else { 0.4 };
        if wins { (4.0 + f64::from(two[0].total - two[1].total)) * near } else { -2.0 }
    }

    fn context(&self, u: usize) -> Context {
        let x = &self.units[u];
        Context {
            gap: self.nearest_enemy(u).map_or(f64::INFINITY, |e| self.gap(u, e)),
            can_fire: self.fire_target(u).is_some(),
            horse_near: x.arm() == Arm::Infantry && self.enemy_horse_within(u, 60.0),
            under_fire: (0..self.units.len()).any(|j| self.fire_at(j, u).is_some()),
        }
    }

    fn order_worth(&self, u: usize, order: Order, cx: &Context) -> f64 {
        let x = &self.units[u];
        let s = x.step_status();
        let Context { gap, can_fire, horse_near, under_fire } = *cx;
        match order {
            // Standing with a fire card, a unit fires in its own defence; a halt card holds fire.
            Order::Fire if can_fire => 3.0,
            Order::Fire if x.armed() && gap <= 60.0 => 1.0,
            Order::Fire => 0.2,
            // At Wavering or worse a unit will not move closer: the card would be wasted.
            Order::Charge { .. } if s <= Status::Wavering => -1.0,
            Order::Charge { target } => self.charge_worth(u, usize::from(target)),
            Order::Advance => {
                if s <= Status::Nervous || horse_near || self.on_held_objective(u) {
                    return -0.5;
                }
                // Holding every objective, the side waits for the enemy to come on.
                if !self.holders.is_empty() && self.holders.iter().all(|h| *h == Some(x.side)) {
                    return 0.1;
                }
                let Some(goal) = self.goal(u) else { return 0.0 };
                let fwd = volley_table::unit(x.facing);
                let toward = (goal - x.centre()).dot(fwd) / goal.dist(x.centre()).max(1e-9);
                // Within a move of the enemy, going on is a charge's business (or nobody's),
                // unless there is ground to take.
                if gap <= x.rate() && self.objective_goal(u).is_none() { 0.3 } else { 2.0 * toward }
            }
            Order::Withdraw if self.on_held_objective(u) => -1.0,
            Order::Withdraw if s <= Status::Wavering => 2.5,
            // Shot at with nothing to answer: out of the enemy's reach.
            Order::Withdraw if under_fire && !can_fire => 1.5,
            Order::Withdraw => -1.0,
            Order::Halt if !x.ordered() && gap > 30.0 => 1.5,
            Order::Halt => 0.5,
            Order::Form { formation } => {
                let square = x.formation == Formation::Square;
                match formation {
                    Formation::Square if horse_near => 5.0,
                    Formation::Line | Formation::AssaultColumn if square && !horse_near => 3.0,
                    Formation::Deployed if gap <= 100.0 => 3.5,
                    Formation::Limbered if gap > 120.0 => 0.5,
                    Formation::CavalryLine if gap <= 60.0 => 1.0,
                    _ => -2.0,
                }
            }
            Order::Face { facing } => {
                // Turn towards the enemy close by that is not ahead, or the ground to take.
                let fwd = volley_table::unit(x.facing);
                let ahead = |p: Point| (p - x.centre()).dot(fwd) / p.dist(x.centre()).max(1e-9);
                let new = volley_table::unit(f64::from(facing));
                let at = |p: Point| (p - x.centre()).dot(new) / p.dist(x.centre()).max(1e-9) > 0.95;
                if let Some(e) = self.nearest_enemy(u).filter(|_| gap <= 60.0) {
                    let p = self.units[e].centre();
                    return if at(p) && ahead(p) < 0.7 { 2.5 } else { -1.0 };
                }
                match self.objective_goal(u) {
                    Some(g) if at(g) && ahead(g) < 0.7 && s > Status::Nervous => 1.8,
                    _ => -1.0,
                }
            }
            Order::AboutFace => {
                let Some(e) = self.nearest_enemy(u) else { return -2.0 };
                let fwd = volley_table::unit(x.facing);
                if (self.units[e].centre() - x.centre()).dot(fwd) < 0.0 { 2.0 } else { -3.0 }
            }
        }
    }
}

impl Heuristic for Battle {
    fn score(&self, action: &Action) -> f64 {
        match action {
            Action::Order { unit, order } => {
                let u = usize::from(*unit);
                self.order_worth(u, *order, &self.context(u))
            }
            Action::Ride { unit: Some(u) } => {
                let x = &self.units[usize::from(*u)];
                1.0 + f64::from(6 - x.step_status().level()) * 0.3
            }
            Action::Ride { unit: None } => 0.1,
            Action::SecondLine { unit } => {
                let x = &self.units[usize::from(*unit)];
                match self.second_line_option(usize::from(*unit)) {
                    Some(Fought::Won) => 2.0,
                    Some(_) if x.status[1] > x.status[0] => 2.0,
                    _ => -1.0,
                }
            }
            Action::Done => 0.0,
            Action::Amend { .. } => -10.0,
        }
    }

    /// As [`Heuristic::score`] on each, each unit's situation reckoned once for all its cards.
    fn scores(&self, actions: &[Action], out: &mut Vec<f64>) {
        let mut last: Option<(usize, Context)> = None;
        for a in actions {
            match a {
                Action::Order { unit, order } => {
                    let u = usize::from(*unit);
                    if last.as_ref().is_none_or(|(v, _)| *v != u) {
                        last = Some((u, self.context(u)));
                    }
                    let cx = last.as_ref().map(|(_, c)| c);
                    out.push(cx.map_or_else(|| self.score(a), |c| self.order_worth(u, *order, c)));
                }
                _ => out.push(self.score(a)),
            }
        }
    }
}
