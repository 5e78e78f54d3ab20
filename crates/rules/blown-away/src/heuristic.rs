//! How the heuristic computer player values an action: advance on objectives it does not hold,
//! go for weakened enemy units and their flanks, rally runners (bringing the commander over
//! first when that is what rallying needs), fire the guns at long range, fight whenever the
//! odds are not against it, and keep cavalry away from the fronts of steady infantry.

use std::cell::OnceCell;

use volley_core::Heuristic;
use volley_table::{Cover, Point};

use crate::game::{Action, Battle, COMBAT_RANGE};
use crate::model::{Arm, Front, Variant};

/// Weight of an inch gained towards an objective not yet held.
const OBJECTIVE_PULL: f64 = 1.0;
/// Weight of closing on a weakened enemy.
const PREY_PULL: f64 = 0.6;

/// The enemy's bodies in ranks, gathered once per decision: the heuristic asks "how far is the
/// nearest enemy from here" for every candidate.
struct Enemies {
    /// Every enemy unit with men in ranks: its index, a circle holding its body, and the range
    /// of its body's points in `points`.
    units: Vec<(usize, Point, f64, std::ops::Range<usize>)>,
    /// The points of the enemy bodies in ranks.
    points: Vec<Point>,
    /// The front of every unit (`None` for own units and units with nobody in ranks).
    fronts: Vec<Option<Front>>,
    /// For each unit, the enemy nearest its front now, worked out when first asked for.
    from_front: Vec<OnceCell<Option<(usize, f64)>>>,
}

impl Enemies {
    fn of(b: &Battle, side: u8) -> Self {
        let mut points = Vec::new();
        let mut units = Vec::new();
        let mut fronts = vec![None; b.units.len()];
        for (i, e) in b.units.iter().enumerate().filter(|(_, e)| e.side != side && e.in_ranks() > 0) {
            let from = points.len();
            points.extend(e.body());
            if let Some((c, r)) = e.bounds() {
                units.push((i, c, r, from..points.len()));
            }
            fronts[i] = e.front_edge();
        }
        Enemies { units, points, fronts, from_front: vec![OnceCell::new(); b.units.len()] }
    }

    /// The enemy unit nearest the front of unit `ui` (whose front is at `front`).
    fn nearest_front(&self, ui: usize, front: Point) -> Option<(usize, f64)> {
        *self.from_front[ui].get_or_init(|| self.nearest(front))
    }

    /// The enemy unit nearest `p`, and its distance.
    fn nearest(&self, p: Point) -> Option<(usize, f64)> {
        let mut best: Option<(usize, f64)> = None;
        for (i, c, r, range) in &self.units {
            // Skip a unit whose whole body is farther than the best so far.
            let gap = (c.dist(p) - r).max(0.0);
            if best.is_some_and(|(_, b)| gap * gap >= b) {
                continue;
            }
            for q in &self.points[range.clone()] {
                let d2 = q.dist2(p);
                if best.is_none_or(|(_, b)| d2 < b) {
                    best = Some((*i, d2));
                }
            }
        }
        best.map(|(i, d2)| (i, d2.sqrt()))
    }
}

impl Battle {
    fn weakness(&self, ui: usize) -> f64 {
        let u = &self.units[ui];
        1.0 - u.in_ranks() as f64 / u.men.len().max(1) as f64
    }

    fn nearest_unheld_objective(&self, side: u8, p: Point) -> Option<f64> {
        self.stat()
            .objective_centres
            .iter()
            .zip(&self.holders)
            .filter(|(_, h)| **h != Some(side))
            .map(|(c, _)| c.dist(p))
            .min_by(f64::total_cmp)
    }

    /// Steady infantry whose front would face cavalry arriving at `p`.
    fn steady_infantry_front(&self, enemies: &Enemies, p: Point) -> bool {
        self.units.iter().zip(&enemies.fronts).any(|(e, front)| {
            e.arm == Arm::Infantry
                && e.in_ranks() >= 6
                && front.is_some_and(|f| f.contains(p))
                && e.body().any(|q| q.dist2(p) < (COMBAT_RANGE + 6.0) * (COMBAT_RANGE + 6.0))
        })
    }

    fn score_move(&self, enemies: &Enemies, ui: usize, end: Point) -> f64 {
        let u = &self.units[ui];
        let side = u.side;
        let start = u.front;
        let mut v = 0.0;
        if let (Some(a), Some(b)) =
            (self.nearest_unheld_objective(side, start), self.nearest_unheld_objective(side, end))
        {
            v += (a - b) * OBJECTIVE_PULL;
        }
        if let (Some((ea, da)), Some((_, db))) = (enemies.nearest_front(ui, start), enemies.nearest(end)) {
            let prey = self.weakness(ea);
            v += (da - db) * PREY_PULL * (prey + if u.in_ranks() >= 8 { 0.3 } else { 0.0 });
            // Do not walk weakened units into the enemy.
            if self.weakness(ui) > 0.5 && db < da {
                v -= (da - db) * 1.5;
            }
            if db < COMBAT_RANGE + 0.5 && enemies.fronts[ea].is_some_and(|f| !f.contains(end)) {
                v += 4.0;
            }
        }
        if u.arm == Arm::Cavalry && self.steady_infantry_front(enemies, end) {
            v -= 12.0;
        }
        if u.arm == Arm::Artillery
            && self.units.iter().enumerate().any(|(ti, t)| t.side != side && self.would_fire(ui, ti))
        {
            v -= 4.0;
        }
        v
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
        self.score_with(&Enemies::of(self, side), action)
    }

    fn scores(&self, actions: &[Action], out: &mut Vec<f64>) {
        let enemies = Enemies::of(self, self.acting_side().unwrap_or(0));
        out.extend(actions.iter().map(|a| self.score_with(&enemies, a)));
    }
}

impl Battle {
    fn score_with(&self, enemies: &Enemies, action: &Action) -> f64 {
        let side = self.acting_side().unwrap_or(0);
        match action {
            Action::EndPhase => 0.0,
            Action::Deploy { .. } => 1.0,
            Action::MoveCommander { to } => {
                // Worth it if it lets a unit rally that otherwise could not.
                (0..self.units.len())
                    .filter(|&i| self.units[i].side == side && self.units[i].running() > 0)
                    .filter(|&i| self.units[i].men.iter().any(|m| m.alive() && m.at.dist(*to) <= 2.0))
                    .map(|i| match (self.rally_allowance(i), self.rally_allowance_with(i, *to)) {
                        (Err(_), Ok(n)) => 20.0 + f64::from(n),
                        (Ok(a), Ok(b)) if b > a => 10.0 + f64::from(b - a),
                        _ => -1.0,
                    })
                    .fold(0.0, f64::max)
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
                let before = enemies.nearest(c).map_or(99.0, |x| x.1);
                let after = enemies.nearest(end).map_or(99.0, |x| x.1);
                2.0 + (after - before) / 4.0
            }
            Action::Move { unit, path, .. } => {
                let ui = usize::from(*unit);
                let end = path.last().copied().unwrap_or(self.units[ui].front);
                self.score_move(enemies, ui, end)
            }
            Action::Reform { unit, formation, facing } => {
                let ui = usize::from(*unit);
                let u = &self.units[ui];
                let near = enemies.nearest(u.front);
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
                        let their_works =
                            matches!(self.cover(ti, ui), Cover::Wall | Cover::Works) && t.arm != Arm::Cavalry;
                        let our_works =
                            matches!(self.cover(ui, ti), Cover::Wall | Cover::Works) && u.arm != Arm::Cavalry;
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
