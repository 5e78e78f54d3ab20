//! How the heuristic computer player values an action.
//!
//! * Fire at the target where the volley's expected hits count most (shaken targets, targets
//!   near breaking); always fire rather than hold fire.
//! * Charge where the charts favour the charger (a flank, unformed or shaken enemy, cavalry
//!   against infantry without secure flanks), never against a square or into cover with horse.
//! * Move towards what the side needs: the nearest objective it does not hold, else the nearest
//!   enemy; stay on an objective it holds; fall back when shaken.
//! * Formations: columns far from the enemy, lines within musket reach, guns unlimbered within
//!   their long range and limbered when far from any target.
//! * Officers ride to shaken units to rally them; a leader tries to rally a shaken unit when the
//!   chance of good order is well above the chance of losing the unit (both dice failed):
//!   grenadiers and cuirassiers (chart C 7), not musketeers (5).
//! * Move first? No: fire first (the other side moves into its fire).

use volley_core::Heuristic;
use volley_table::{Point, point_in_polygon};

use crate::game::{Action, Battle, Phase};
use crate::model::{Formation, Unit};
use crate::units::Arm;

/// What each inch nearer the goal is worth.
const PROGRESS: f64 = 0.3;
/// What leaving an objective the side holds costs.
const LEAVE: f64 = 6.0;

fn worth(u: &Unit) -> f64 {
    if !u.steady() {
        return 0.0;
    }
    f64::from(u.figures) * if u.shaken() { 0.6 } else { 1.0 }
}

impl Battle {
    /// The place unit `u` should go: the nearest objective its side does not hold, else the
    /// nearest enemy.
    fn goal(&self, u: usize) -> Option<Point> {
        let x = &self.units[u];
        let mut best: Option<(f64, Point)> = None;
        for (k, o) in self.stat().objectives.iter().enumerate() {
            if self.holders[k] == Some(x.side) {
                continue;
            }
            if let Some((c, _)) = volley_table::bounding_circle(o.points.iter().copied()) {
                let d = c.dist(x.at);
                if best.is_none_or(|b| d < b.0) {
                    best = Some((d, c));
                }
            }
        }
        let enemy = self.nearest_enemy(u).map(|e| self.units[e].at);
        match (best, enemy) {
            // An enemy much nearer than the objective is dealt with first.
            (Some((d, _)), Some(e)) if e.dist(x.at) < d * 0.5 => Some(e),
            (Some((_, c)), _) => Some(c),
            (None, e) => e,
        }
    }

    fn on_held_objective(&self, u: usize, p: Point) -> bool {
        let side = self.units[u].side;
        self.stat()
            .objectives
            .iter()
            .enumerate()
            .any(|(k, o)| self.holders[k] == Some(side) && point_in_polygon(p, &o.points))
    }

    fn enemy_distance(&self, u: usize, p: Point) -> f64 {
        let side = self.units[u].side;
        self.units.iter().filter(|e| e.side != side && e.steady()).map(|e| e.at.dist(p)).fold(f64::INFINITY, f64::min)
    }

    fn score_move(&self, u: usize, to: Point, facing: f64, formation: Formation) -> f64 {
        let x = &self.units[u];
        let mut v = 0.0;
        let near = self.enemy_distance(u, to);
        if x.shaken() {
            // Shaken: still if it can be (a turn without moving restores its order), away from an
            // enemy close by.
            let now = self.enemy_distance(u, x.at);
            return if now < 8.0 {
                (near - now) * 0.2
            } else if to.dist(x.at) > 1e-9 {
                -2.0
            } else {
                0.0
            };
        }
        if let Some(g) = self.goal(u) {
            v += PROGRESS * (x.at.dist(g) - to.dist(g));
        }
        if self.on_held_objective(u, x.at) && !self.on_held_objective(u, to) {
            v -= LEAVE;
        }
        let reach = x.range().map_or(4.0, |(s, l)| l.unwrap_or(s));
        match x.arm() {
            Arm::Artillery => {
                if formation == Formation::Unlimbered && near <= reach {
                    v += 3.0;
                }
                if formation == Formation::Limbered && near > reach + 6.0 {
                    v += 1.0;
                }
                if formation == Formation::Limbered && near <= reach {
                    v -= 3.0;
                }
            }
            Arm::Infantry => {
                let wants_line = near <= reach + 8.0;
                // Light troops fight in skirmish order (fired at on chart D, and their best fire).
                let light = crate::model::rate(x.kind, Formation::Skirmish).is_some();
                match formation {
                    Formation::Skirmish if light => v += 2.5,
                    Formation::Line if light => v -= 1.0,
                    Formation::Line if wants_line => v += 2.0,
                    Formation::Line => v -= 0.5,
                    Formation::AttackColumn | Formation::MarchColumn if wants_line => v -= 2.0,
                    Formation::AttackColumn if near > 24.0 => v += 1.0,
                    Formation::Skirmish => v += 0.5,
                    Formation::Square => {
                        // Square only against horse that can reach it, and no foot nearer.
                        let nearest = |arm: Arm| {
                            self.units
                                .iter()
                                .filter(|e| e.side != x.side && e.steady() && e.arm() == arm)
                                .map(|e| e.at.dist(to))
                                .fold(f64::INFINITY, f64::min)
                        };
                        let horse = nearest(Arm::Cavalry);
                        v += if horse < 20.0 && horse < nearest(Arm::Infantry) { 2.5 } else { -4.0 };
                    }
                    _ => {}
                }
                // Keep out of the reach of stronger fire before it can answer.
                if near < reach * 0.5 {
                    v -= 1.0;
                }
            }
            Arm::Cavalry => {
                if formation == Formation::Line && near < 20.0 {
                    v += 1.0;
                }
                // Cavalry standing just out of the enemy's muskets waits to charge.
                if near < 6.0 {
                    v -= 2.0;
                }
            }
        }
        // Face the enemy.
        if let Some(e) = self.nearest_enemy(u) {
            let off = volley_table::turn(facing, volley_table::heading_to(to, self.units[e].at)).abs();
            v -= off / 90.0;
        }
        v
    }

    fn score_fire(&self, u: usize, t: usize) -> f64 {
        let Ok((v, _)) = self.volley(u, t) else {
            return -1.0;
        };
        let Ok((_, dice, number)) = v.dice() else {
            return -1.0;
        };
        let expected = f64::from(dice) * f64::from(number.min(10)) / 10.0;
        let target = &self.units[t];
        let mut w = 1.0;
        if target.shaken() {
            w += 0.6;
        }
        if target.arm() == Arm::Artillery {
            w += 0.3;
        }
        5.0 + expected * w
    }

    fn score_charge(&self, u: usize, t: usize) -> f64 {
        let Ok(path) = self.check_charge(u, t) else {
            return -1.0;
        };
        let ([cc, dc], _) = self.melee_charts(u, t, path.flank);
        let (x, e) = (&self.units[u], &self.units[t]);
        let levels = f64::from((cc.levels() - dc.levels()) as i8);
        let mut v = 2.0 * levels;
        if e.shaken() {
            v += 3.0;
        }
        if !e.steady() {
            v += 2.0;
        }
        v += (worth(x) / worth(e).max(1.0) - 1.0) * 2.0;
        let p = x.kind.profile();
        let mine = f64::from(p.melee[cc.index()].unwrap_or(0));
        let theirs = f64::from(e.kind.profile().melee[dc.index()].unwrap_or(0));
        v += (mine - theirs) * 0.5;
        if x.arm() == Arm::Infantry {
            v -= 2.0;
        }
        v
    }
}

impl Heuristic for Battle {
    fn score(&self, action: &Action) -> f64 {
        match action {
            Action::Begin => 1.0,
            Action::Initiative { move_first } => {
                if *move_first {
                    0.0
                } else {
                    1.0
                }
            }
            Action::Done => 0.0,
            Action::Rally { unit } => {
                // Good order a turn sooner against the unit lost: worth it only when the odds
                // favour it well (chart C 7: 49% against 9%; 5: 25% against 25%).
                let x = &self.units[usize::from(*unit)];
                let number = x.kind.profile().morale[crate::units::Chart::C.index()];
                let [good, _, lost] = crate::combat::morale_odds(2, number);
                good - 2.0 * lost - 0.1
            }
            Action::Fire { unit, target } => self.score_fire(usize::from(*unit), usize::from(*target)),
            Action::Charge { unit, target } => self.score_charge(usize::from(*unit), usize::from(*target)),
            Action::Move { unit, to, facing, formation } => {
                let u = usize::from(*unit);
                let x = &self.units[u];
                let here = self.score_move(u, x.at, x.facing, x.formation);
                let there = self.score_move(u, *to, *facing, *formation);
                // A move must be worth something over standing, more so in the reserve phase.
                there - here - if matches!(self.phase, Phase::Leaders { .. }) { 0.5 } else { 0.1 }
            }
            Action::Ride { officer, unit } => {
                let u = usize::from(*unit);
                let o = &self.officers[usize::from(*officer)];
                let from = o.with.map(usize::from);
                let need = |i: usize| {
                    let x = &self.units[i];
                    (if x.shaken() { 3.0 } else { 0.0 }) - self.enemy_distance(i, x.at) / 60.0
                };
                need(u) - from.map_or(0.0, need) - 0.5
            }
        }
    }
}
