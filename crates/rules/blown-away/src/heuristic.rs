//! How the heuristic computer player values an action.
//!
//! * Moving: progress, measured in moves of the unit's own allowance, towards the nearest
//!   objective its side does not hold (for a side that wins by objectives), going round rivers
//!   by their bridges; taking an objective (passing through it or ending on it, uncontested) is
//!   worth more, taking the one that wins most of all, and taking one back from an enemy one
//!   objective short of winning more than taking a free one; fresh units close on the enemy, the weaker the target the more eagerly,
//!   and weakened units keep away; a move that ends on an enemy's flank is worth more; cavalry
//!   keeps away from the fronts of steady infantry; a defending side's units stay on the
//!   objectives they hold; guns that can fire stay put.
//! * Rallying comes first when it can be done, bringing the commander over when that is what it
//!   needs; running mobs flee towards room to rally.
//! * Guns fire at long range, at weakened and engaged units first.
//! * Combat: the expected men put out of action on each side, worked out exactly from the cards
//!   left in both decks (chance version) or from the combat rules (without-chance version,
//!   where cavalry's weakness can make an attack a loss); an attack is declined when it would
//!   cost more than it gains.

use std::cell::OnceCell;

use volley_core::Heuristic;
use volley_table::Point;

use crate::combat::{attack_effect, resolve_cards};
use crate::game::{Action, Battle, COMBAT_RANGE, LRA_RANGE};
use crate::model::{Arm, Formation, Front, Variant};

/// Weight of one move's worth of progress towards an objective.
const OBJECTIVE_PULL: f64 = 6.0;
/// Weight of one move's worth of closing on the enemy, for a fresh unit against a fresh target.
const ENEMY_PULL: f64 = 3.0;
/// Worth of ending a move on an enemy's flank or rear, close enough to fight.
const FLANK: f64 = 4.0;
/// Cost of a defending unit leaving the objective it alone holds for its side.
const LEAVE_OBJECTIVE: f64 = 8.0;
/// Cost of cavalry ending in front of steady infantry.
const CAVALRY_INTO_INFANTRY: f64 = 12.0;
/// Cost of moving a gun that could fire where it stands.
const GUN_LEAVES_POSITION: f64 = 4.0;
/// Worth of a move that takes an objective (passes through it, or ends on it) for its side.
const TAKE: f64 = 8.0;
/// Worth of a move that takes the objective that wins the battle.
const TAKE_AND_WIN: f64 = 100.0;
/// How much more taking back an objective is worth when the enemy is one objective short of
/// winning.
const URGENT: f64 = 3.0;

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
    /// For each unit, the objective it alone holds for its side ([`Battle::holds_alone`]),
    /// worked out when first asked for: the same for every move of the unit.
    alone_on: Vec<OnceCell<Option<usize>>>,
    /// For each gun, whether it could fire at some enemy where it stands, worked out when first
    /// asked for.
    gun_has_target: Vec<OnceCell<bool>>,
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
        let n = b.units.len();
        Enemies {
            units,
            points,
            fronts,
            from_front: vec![OnceCell::new(); n],
            alone_on: vec![OnceCell::new(); n],
            gun_has_target: vec![OnceCell::new(); n],
        }
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

    /// The enemy unit nearest the front of unit `ui` (whose front is at `front`).
    fn nearest_front(&self, ui: usize, front: Point) -> Option<(usize, f64)> {
        *self.from_front[ui].get_or_init(|| self.nearest(front))
    }
}

impl Battle {
    fn strength(&self, ui: usize) -> f64 {
        let u = &self.units[ui];
        u.in_ranks() as f64 / u.men.len().max(1) as f64
    }

    /// Walking distance from `p` to the nearest objective `side` does not hold: straight to its
    /// centre, or round impassable ground when the table has some.
    fn nearest_unheld_objective(&self, side: u8, p: Point) -> Option<f64> {
        let st = self.stat();
        (0..st.objectives.len())
            .filter(|&o| self.holders[o] != Some(side))
            .map(|o| st.objective_fields.get(o).map_or_else(|| st.objective_centres[o].dist(p), |f| f.at(p)))
            .min_by(f64::total_cmp)
    }

    /// Whether unit `ui`, with its men in ranks where they stand, is the only unit of its side
    /// on an objective.
    fn holds_alone(&self, ui: usize) -> Option<usize> {
        let u = &self.units[ui];
        let on = |o: usize, m: &crate::model::Man| {
            m.in_ranks() && volley_table::point_in_polygon(m.at, &self.stat().objectives[o].points)
        };
        (0..self.stat().objectives.len()).find(|&o| {
            u.men.iter().any(|m| on(o, m))
                && !self
                    .units
                    .iter()
                    .enumerate()
                    .any(|(i, v)| i != ui && v.side == u.side && v.men.iter().any(|m| on(o, m)))
        })
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

    /// What taking objectives on a move from `start` to `end` (the unit's front) is worth to
    /// `side`: each objective the path enters that the side does not hold and no enemy in ranks
    /// stands on; the one that wins the battle most of all, and taking one back from an enemy
    /// one objective short of winning more than taking a free one.
    fn taking(&self, side: u8, start: Point, end: Point) -> f64 {
        let st = self.stat();
        let need = usize::from(st.rules.objectives_to_win);
        if st.objectives.is_empty() || !st.objective_sides[usize::from(side)] {
            return 0.0;
        }
        let held = |s: u8| self.holders.iter().filter(|h| **h == Some(s)).count();
        let (ours, theirs) = (held(side), held(1 - side));
        let enemy_near_win = st.objective_sides[usize::from(1 - side)] && theirs + 1 >= need;
        let mut v = 0.0;
        let mut taken = 0;
        for (o, obj) in st.objectives.iter().enumerate() {
            if self.holders[o] == Some(side) {
                continue;
            }
            let poly = &obj.points;
            let enters = volley_table::point_in_polygon(end, poly)
                || volley_table::point_in_polygon(start, poly)
                || volley_table::polygon_crossings(start, end, poly).next().is_some();
            let contested = self.units.iter().any(|e| {
                e.side != side && e.men.iter().any(|m| m.in_ranks() && volley_table::point_in_polygon(m.at, poly))
            });
            if !enters || contested {
                continue;
            }
            taken += 1;
            v += if self.holders[o] == Some(1 - side) && enemy_near_win { TAKE * URGENT } else { TAKE };
        }
        if need > 0 && taken > 0 && ours + taken >= need {
            v += TAKE_AND_WIN;
        }
        v
    }

    fn score_move(&self, enemies: &Enemies, ui: usize, end: Point) -> f64 {
        let u = &self.units[ui];
        let side = u.side;
        let start = u.front;
        let allow = u.arm.allowance();
        let mut v = 0.0;
        if self.stat().objective_sides[usize::from(side)] {
            if let (Some(a), Some(b)) =
                (self.nearest_unheld_objective(side, start), self.nearest_unheld_objective(side, end))
            {
                v += OBJECTIVE_PULL * (a - b) / allow;
            }
            v += self.taking(side, start, end);
        } else if let Some(o) = *enemies.alone_on[ui].get_or_init(|| self.holds_alone(ui))
            && !volley_table::point_in_polygon(end, &self.stat().objectives[o].points)
        {
            v -= LEAVE_OBJECTIVE;
        }
        if let (Some((ea, da)), Some((eb, db))) = (enemies.nearest_front(ui, start), enemies.nearest(end)) {
            // A fresh unit closes on a fresh enemy; the weaker the target and the stronger the
            // unit, the more eagerly; a unit under half strength keeps away.
            let eagerness = self.strength(ui) - 0.5 + (1.0 - self.strength(ea));
            v += ENEMY_PULL * eagerness * (da - db) / allow;
            if db < COMBAT_RANGE + 0.5 && enemies.fronts[eb].is_some_and(|f| !f.contains(end)) {
                v += FLANK;
            }
        }
        if u.arm == Arm::Cavalry && self.steady_infantry_front(enemies, end) {
            v -= CAVALRY_INTO_INFANTRY;
        }
        if u.arm == Arm::Artillery
            && *enemies.gun_has_target[ui]
                .get_or_init(|| self.units.iter().enumerate().any(|(ti, t)| t.side != side && self.would_fire(ui, ti)))
        {
            v -= GUN_LEAVES_POSITION;
        }
        v
    }

    fn would_fire(&self, gi: usize, ti: usize) -> bool {
        let g = &self.units[gi];
        let Some(c) = g.gun else { return false };
        let (near, far) = (LRA_RANGE.0 * LRA_RANGE.0, LRA_RANGE.1 * LRA_RANGE.1);
        c.balls > 0 && self.units[ti].body().any(|q| (near..=far).contains(&q.dist2(c.at)))
    }

    /// Men of `ui` put out of action (killed, or in ranks made to run) by a loss of `killed`
    /// and `run`.
    fn out_of_action(&self, ui: usize, killed: u16, run: u16) -> f64 {
        f64::from(killed + run).min(self.units[ui].in_ranks() as f64)
    }

    /// The expected men put out of action on each side (`[attacker's, target's]`) when unit
    /// `a` conducts a card combat against unit `t`, over every pair of cards left in the decks.
    fn card_combat_expectation(&self, a: usize, t: usize) -> [f64; 2] {
        let sides = [self.card_side(a, t, true), self.card_side(t, a, false)];
        let decks = [self.decks[usize::from(self.units[a].side)], self.decks[usize::from(self.units[t].side)]];
        let total = f64::from(decks[0].left()) * f64::from(decks[1].left());
        let mut e = [0.0; 2];
        for (cards, ways) in decks[0].pairs_with(decks[1]) {
            let r = resolve_cards(&sides, cards);
            for (i, ui) in [a, t].into_iter().enumerate() {
                if let Some(l) = &r.losses[i] {
                    e[i] += f64::from(ways) / total * self.out_of_action(ui, l.killed, l.run);
                }
            }
        }
        e
    }

    fn score_combat(&self, a: usize, t: usize) -> f64 {
        let [ours, theirs] = match self.variant {
            Variant::Chance => self.card_combat_expectation(a, t),
            Variant::WithoutChance => {
                let (attacker, target) = self.attack_situation(a, t, self.units[t].killed);
                let l = attack_effect(&attacker, &target);
                let theirs = self.out_of_action(t, l.killed, l.run);
                // Cavalry's weakness: if the target keeps men in ranks facing the cavalry, every
                // cavalryman left in ranks runs.
                let u = &self.units[a];
                let left = self.units[t].in_ranks() as f64 - theirs;
                let ours =
                    if u.arm == Arm::Cavalry && left > 0.0 && self.faces(t, a) { u.in_ranks() as f64 } else { 0.0 };
                [ours, theirs]
            }
        };
        2.0 + theirs - ours + 3.0 * (1.0 - self.strength(t))
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
                // Worth it if it lets a unit rally that otherwise could not, or rally more; a
                // ride to a unit with men running is as good as ending the phase otherwise (he
                // is there when they may rally); a ride to a unit without is worth less.
                let running: Vec<usize> = (0..self.units.len())
                    .filter(|&i| self.units[i].side == side && self.units[i].running() > 0)
                    .filter(|&i| self.units[i].men.iter().any(|m| m.alive() && m.at.dist(*to) <= 2.0))
                    .collect();
                if running.is_empty() {
                    return -0.5;
                }
                running
                    .into_iter()
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
                // Flee to where the runners can rally: out of reach of the enemy.
                let ui = usize::from(*unit);
                let c = self.units[ui].centre();
                let end = path.last().copied().unwrap_or(c);
                let before = enemies.nearest(c).map_or(99.0, |x| x.1);
                let after = enemies.nearest(end).map_or(99.0, |x| x.1);
                2.0 + (after.min(30.0) - before.min(30.0)) / 4.0
            }
            Action::Move { unit, path, .. } => {
                let ui = usize::from(*unit);
                let end = path.last().copied().unwrap_or(self.units[ui].front);
                self.score_move(enemies, ui, end)
            }
            Action::Reform { unit, formation, facing } => {
                let ui = usize::from(*unit);
                let u = &self.units[ui];
                let mut v = -0.5;
                if let Some((ei, d)) = enemies.nearest(u.front) {
                    let dir = volley_table::heading_to(u.front, self.units[ei].centre());
                    let now_off = volley_table::turn(u.facing, dir).abs();
                    let new_off = volley_table::turn(*facing, dir).abs();
                    // Turn to face an enemy that is close, or that a gun could fire at.
                    let near = if u.arm == Arm::Artillery { 36.0 } else { 14.0 };
                    if d < near && now_off > 30.0 && new_off < 20.0 {
                        v += 6.0;
                    }
                    if *formation != u.formation {
                        v += if d > 20.0 && *formation == Formation::Column { 0.4 } else { -1.0 };
                        if d < 12.0 && *formation == Formation::Line {
                            v += 3.0;
                        }
                    }
                }
                v
            }
            Action::Fire { gun: _, target } => {
                let ti = usize::from(*target);
                let t = &self.units[ti];
                let mut v = 5.0 + 4.0 * (1.0 - self.strength(ti));
                if t.engagement.is_some() {
                    v += 2.0;
                }
                if t.arm == Arm::Artillery {
                    v -= 3.0;
                }
                v
            }
            Action::Combat { unit, target } => self.score_combat(usize::from(*unit), usize::from(*target)),
        }
    }
}
