//! How the heuristic computer player values an action: advance on objectives it does not hold,
//! go for weakened enemy units and their flanks, rally runners (bringing the commander over
//! first when that is what rallying needs), fire the guns at long range, fight whenever the
//! odds are not against it, and keep cavalry away from the fronts of steady infantry.

use volley_core::Heuristic;
use volley_table::{Cover, Point};

use crate::game::{Action, Battle, COMBAT_RANGE, centroid};
use crate::model::{Arm, Variant};

/// Weight of an inch gained towards an objective not yet held.
const OBJECTIVE_PULL: f64 = 1.0;
/// Weight of closing on a weakened enemy.
const PREY_PULL: f64 = 0.6;

impl Battle {
    fn weakness(&self, ui: usize) -> f64 {
        let u = &self.units[ui];
        1.0 - u.in_ranks() as f64 / u.men.len().max(1) as f64
    }

    fn nearest_unheld_objective(&self, side: u8, p: Point) -> Option<f64> {
        self.stat()
            .objectives
            .iter()
            .zip(&self.holders)
            .filter(|(_, h)| **h != Some(side))
            .map(|(o, _)| centroid(&o.points).dist(p))
            .min_by(f64::total_cmp)
    }

    fn nearest_enemy(&self, side: u8, p: Point) -> Option<(usize, f64)> {
        self.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != side && e.in_ranks() > 0)
            .map(|(i, e)| (i, e.body().map(|q| q.dist(p)).fold(f64::INFINITY, f64::min)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// Steady infantry whose front would face cavalry arriving at `p`.
    fn steady_infantry_front(&self, side: u8, p: Point) -> bool {
        self.units.iter().any(|e| {
            e.side != side
                && e.arm == Arm::Infantry
                && e.in_ranks() >= 6
                && e.front_edge().is_some_and(|f| f.faces(p))
                && e.body().any(|q| q.dist(p) < COMBAT_RANGE + 6.0)
        })
    }

    fn score_move(&self, ui: usize, end: Point) -> f64 {
        let u = &self.units[ui];
        let side = u.side;
        let start = u.front;
        let mut v = 0.0;
        if let (Some(a), Some(b)) = (self.nearest_unheld_objective(side, start), self.nearest_unheld_objective(side, end)) {
            v += (a - b) * OBJECTIVE_PULL;
        }
        if let (Some((ea, da)), Some((_, db))) = (self.nearest_enemy(side, start), self.nearest_enemy(side, end)) {
            let prey = self.weakness(ea);
            v += (da - db) * PREY_PULL * (prey + if u.in_ranks() >= 8 { 0.3 } else { 0.0 });
            // Do not walk weakened units into the enemy.
            if self.weakness(ui) > 0.5 && db < da {
                v -= (da - db) * 1.5;
            }
            if db < COMBAT_RANGE + 0.5 && self.on_flank_or_rear_point(end, ea) {
                v += 4.0;
            }
        }
        if u.arm == Arm::Cavalry && self.steady_infantry_front(side, end) {
            v -= 12.0;
        }
        if u.arm == Arm::Artillery && self.units.iter().enumerate().any(|(ti, t)| t.side != side && self.would_fire(ui, ti)) {
            v -= 4.0;
        }
        v
    }

    fn on_flank_or_rear_point(&self, p: Point, ei: usize) -> bool {
        self.units[ei].front_edge().is_some_and(|f| !f.faces(p))
    }

    fn would_fire(&self, gi: usize, ti: usize) -> bool {
        let g = &self.units[gi];
        let Some(c) = g.gun else { return false };
        c.balls > 0 && self.units[ti].body().any(|q| (4.0..=36.0).contains(&q.dist(c.at)))
    }
}

impl Heuristic for Battle {
    fn score(&self, action: &Action) -> f64 {
        let side = self.acting_side().unwrap_or(0);
        match action {
            Action::EndPhase => 0.0,
            Action::Deploy { .. } => 1.0,
            Action::MoveCommander { to } => {
                // Worth it if it lets a unit rally that otherwise could not.
                let best = (0..self.units.len())
                    .filter(|&i| self.units[i].side == side && self.units[i].running() > 0)
                    .filter(|&i| self.units[i].men.iter().any(|m| m.alive() && m.at.dist(*to) <= 2.0))
                    .map(|i| {
                        let mut probe = self.clone();
                        probe.commanders[usize::from(side)] = *to;
                        match (self.rally_allowance(i), probe.rally_allowance(i)) {
                            (Err(_), Ok(n)) => 20.0 + f64::from(n),
                            (Ok(a), Ok(b)) if b > a => 10.0 + f64::from(b - a),
                            _ => -1.0,
                        }
                    })
                    .fold(0.0, f64::max);
                best
            }
            Action::Rally { unit } => {
                let n = self.rally_allowance(usize::from(*unit)).map_or(0, |n| n);
                12.0 + 2.0 * f64::from(n)
            }
            Action::ReturnGunners { .. } => 7.0,
            Action::Mob { unit, path } => {
                let ui = usize::from(*unit);
                let c = self.units[ui].centre();
                let end = path.last().copied().unwrap_or(c);
                let before = self.nearest_enemy(side, c).map_or(99.0, |x| x.1);
                let after = self.nearest_enemy(side, end).map_or(99.0, |x| x.1);
                2.0 + (after - before) / 4.0
            }
            Action::Move { unit, path, .. } => {
                let ui = usize::from(*unit);
                let end = path.last().copied().unwrap_or(self.units[ui].front);
                self.score_move(ui, end)
            }
            Action::Reform { unit, formation, facing } => {
                let ui = usize::from(*unit);
                let u = &self.units[ui];
                let near = self.nearest_enemy(side, u.front);
                let mut v = -0.5;
                if let Some((ei, d)) = near {
                    let dir = volley_table::heading_to(u.front, self.units[ei].centre());
                    let now_off = volley_table::turn(u.facing, dir).abs();
                    let new_off = volley_table::turn(*facing, dir).abs();
                    if d < 14.0 && now_off > 30.0 && new_off < 20.0 {
                        v += 6.0;
                    }
                    if *formation != u.formation {
                        v += if d > 20.0 && *formation == crate::model::Formation::Column { 0.4 } else { -1.0 };
                        if d < 12.0 && *formation == crate::model::Formation::Line {
                            v += 3.0;
                        }
                    }
                }
                v
            }
            Action::Fire { gun: _, target } => {
                let ti = usize::from(*target);
                let t = &self.units[ti];
                let mut v = 5.0 + 4.0 * self.weakness(ti);
                if t.engagement.is_some() {
                    v += 2.0;
                }
                if t.arm == Arm::Artillery {
                    v -= 3.0;
                }
                v
            }
            Action::Combat { unit, target } => {
                let (ui, ti) = (usize::from(*unit), usize::from(*target));
                let u = &self.units[ui];
                let t = &self.units[ti];
                let mut v = 4.0 + 3.0 * self.weakness(ti);
                if self.on_flank_or_rear(ui, ti) {
                    v += 4.0;
                }
                match self.variant {
                    Variant::Chance => {
                        let their_works = matches!(self.cover(ti, ui), Cover::Wall | Cover::Works) && t.arm != Arm::Cavalry;
                        let our_works = matches!(self.cover(ui, ti), Cover::Wall | Cover::Works) && u.arm != Arm::Cavalry;
                        if their_works && !our_works {
                            v -= 6.0;
                        }
                    }
                    Variant::WithoutChance => {
                        if u.arm == Arm::Cavalry {
                            // Cavalry's weakness: it runs if the target keeps men in ranks facing it.
                            let survives = t.in_ranks() as i64 - 1 - u.in_ranks() as i64 > 0;
                            if survives && self.faces(ti, ui) {
                                v -= 10.0;
                            }
                        }
                    }
                }
                v
            }
        }
    }
}
