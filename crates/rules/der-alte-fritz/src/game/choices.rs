//! The candidate actions: a finite list for computer players and for keyboard play. Any legal
//! action is accepted, not only these.

use volley_table::{Point, heading_to, norm_heading, turn};

use super::{Action, Battle, Phase};
use crate::model::{Formation, formations};

/// How many of a side's units an officer is offered to ride to, the nearest first.
const RIDES: usize = 4;

/// Two moves of a unit whose ends lie closer than this, inches, with the same formation and
/// facing to the degree, are one choice (their words, tenths of an inch and whole degrees, would
/// read alike; 1° at a 16" move is 0.28").
const SAME_PLACE: f64 = 0.35;

impl Battle {
    /// Whether the side acting has anything to do but end the phase: [`Battle::choices`] would
    /// list more than `Done`. Stops at the first unit with a choice, so that entering a phase
    /// does not work out every unit's candidates only to throw them away.
    pub fn has_choice(&self) -> bool {
        let mut scratch = Vec::new();
        match self.phase {
            Phase::Begin | Phase::Initiative { .. } => true,
            Phase::Over => false,
            Phase::Rally { side } => self.rallies(side).next().is_some(),
            Phase::Movement { side } => (0..self.units.len()).any(|u| {
                let x = &self.units[u];
                if x.side != side || !x.steady() || x.acted || x.charging.is_some() {
                    return false;
                }
                scratch.clear();
                self.charges_of(u, &mut scratch);
                self.moves_of(u, false, &mut scratch);
                !scratch.is_empty()
            }),
            Phase::Firing { side } => (0..self.units.len()).any(|u| {
                let x = &self.units[u];
                x.side == side
                    && !x.acted
                    && x.steady()
                    && x.range().is_some()
                    && (0..self.units.len())
                        .any(|t| self.units[t].side != side && self.units[t].present() && self.check_fire(u, t).is_ok())
            }),
            Phase::Leaders { side } => {
                let rides = (0..self.officers.len()).any(|o| {
                    let off = &self.officers[o];
                    off.side == side
                        && !off.acted
                        && off.ride(self.turn) > 0.0
                        && (0..self.units.len()).any(|u| self.check_ride(side, o as u16, u as u16).is_ok())
                });
                rides
                    || (0..self.units.len()).any(|u| {
                        let x = &self.units[u];
                        if x.side != side || !x.reserve || x.acted || !x.steady() {
                            return false;
                        }
                        scratch.clear();
                        self.moves_of(u, true, &mut scratch);
                        !scratch.is_empty()
                    })
            }
        }
    }

    pub(super) fn choices(&self, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Begin => out.push(Action::Begin),
            Phase::Initiative { .. } => {
                out.push(Action::Initiative { move_first: true });
                out.push(Action::Initiative { move_first: false });
            }
            Phase::Rally { side } => {
                out.extend(self.rallies(side).map(|u| Action::Rally { unit: u as u16 }));
                out.push(Action::Done);
            }
            Phase::Movement { side } => {
                for u in 0..self.units.len() {
                    let x = &self.units[u];
                    if x.side == side && x.steady() && !x.acted && x.charging.is_none() {
                        self.charges_of(u, out);
                        self.moves_of(u, false, out);
                    }
                }
                out.push(Action::Done);
            }
            Phase::Firing { side } => {
                for u in 0..self.units.len() {
                    let x = &self.units[u];
                    if x.side != side || x.acted || !x.steady() || x.range().is_none() {
                        continue;
                    }
                    for t in 0..self.units.len() {
                        if self.units[t].side != side && self.units[t].present() && self.check_fire(u, t).is_ok() {
                            out.push(Action::Fire { unit: u as u16, target: t as u16 });
                        }
                    }
                }
                out.push(Action::Done);
            }
            Phase::Leaders { side } => {
                for o in 0..self.officers.len() {
                    let off = &self.officers[o];
                    if off.side != side || off.acted || off.ride(self.turn) <= 0.0 {
                        continue;
                    }
                    let here = self.officer_at(o);
                    let mut near: Vec<(f64, usize)> = (0..self.units.len())
                        .filter(|&u| self.check_ride(side, o as u16, u as u16).is_ok())
                        .map(|u| (here.dist(self.units[u].at), u))
                        .collect();
                    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                    for &(_, u) in near.iter().take(RIDES) {
                        out.push(Action::Ride { officer: o as u16, unit: u as u16 });
                    }
                }
                for u in 0..self.units.len() {
                    let x = &self.units[u];
                    if x.side == side && x.reserve && !x.acted && x.steady() {
                        self.moves_of(u, true, out);
                    }
                }
                out.push(Action::Done);
            }
            Phase::Over => {}
        }
    }

    /// `side`'s units whose leader may still try to rally them this phase.
    fn rallies(&self, side: u8) -> impl Iterator<Item = usize> + '_ {
        (0..self.units.len()).filter(move |&u| {
            let x = &self.units[u];
            x.side == side && !x.acted && self.check_rally(u).is_ok()
        })
    }

    /// Charges unit `u` may declare.
    fn charges_of(&self, u: usize, out: &mut Vec<Action>) {
        let x = &self.units[u];
        let Some(bonus) = x.kind.profile().charge else {
            return;
        };
        if !x.steady() {
            return;
        }
        let reach = crate::model::rate(x.kind, x.formation).unwrap_or(0.0) + bonus + 10.0;
        for t in 0..self.units.len() {
            let e = &self.units[t];
            if e.side != x.side && e.present() && e.at.dist(x.at) <= reach && self.check_charge(u, t).is_ok() {
                out.push(Action::Charge { unit: u as u16, target: t as u16 });
            }
        }
    }

    /// A handful of moves for unit `u`: ahead, back, towards the nearest enemy and the nearest
    /// objective not held, obliquely (Prussians), and each change of formation where it stands.
    fn moves_of(&self, u: usize, reserve: bool, out: &mut Vec<Action>) {
        let x = &self.units[u];
        let (at, facing, formation) = (x.at, x.facing, x.formation);
        // (A move is offered once: one within a hair of it, to the same place and facing to the
        // whole degree its words give, reads alike and is the same choice.)
        let offered = |out: &[Action], a: &Action| {
            let Action::Move { unit, to, facing, formation } = a else { return false };
            out.iter().any(|b| {
                matches!(b, Action::Move { unit: u2, to: t2, facing: f2, formation: m2 }
                    if u2 == unit && m2 == formation && t2.dist(*to) < SAME_PLACE && turn(*f2, *facing).abs() < 1.0)
            })
        };
        // The furthest it may go that way (checked there), or that fraction of it (checked).
        let push = |out: &mut Vec<Action>, heading: f64, face: f64, form: Formation, fraction: f64| {
            let d = self.furthest(u, heading, face, form, reserve) * fraction;
            if d >= 0.5 {
                let to = super::moves::rounded(at + volley_table::unit(heading) * d);
                let a = Action::Move { unit: u as u16, to, facing: face, formation: form };
                if (fraction == 1.0 || self.check_move_with(u, to, face, form, reserve, false).is_ok())
                    && !offered(out, &a)
                {
                    out.push(a);
                }
            }
        };
        if formation != Formation::Square && formation != Formation::Unlimbered {
            push(out, facing, facing, formation, 1.0);
            push(out, facing, facing, formation, 0.5);
            push(out, norm_heading(facing + 180.0), facing, formation, 1.0);
            if self.stat().oblique[usize::from(x.side)] && formation.ordered() {
                push(out, norm_heading(facing + 30.0), facing, formation, 1.0);
                push(out, norm_heading(facing - 30.0), facing, formation, 1.0);
            }
        }
        let mut goals: Vec<Point> = Vec::new();
        if let Some(e) = self.nearest_enemy(u) {
            goals.push(self.units[e].at);
        }
        for (k, o) in self.stat().objectives.iter().enumerate() {
            if self.holders[k] != Some(x.side)
                && let Some((c, _)) = volley_table::bounding_circle(o.points.iter().copied())
            {
                goals.push(c);
            }
        }
        for g in goals {
            let h = heading_to(at, g);
            if turn(facing, h).abs() > 10.0 {
                let f = (h * 10.0).round() / 10.0;
                let a = Action::Move { unit: u as u16, to: at, facing: f, formation };
                if self.check_move_with(u, at, f, formation, reserve, false).is_ok() && !offered(out, &a) {
                    out.push(a);
                }
                if formation != Formation::Square && formation != Formation::Unlimbered {
                    push(out, f, f, formation, 1.0);
                }
            } else if formation == Formation::Limbered || formation == Formation::Skirmish {
                push(out, h, facing, formation, 1.0);
            }
        }
        if reserve {
            return;
        }
        for f in formations(x.kind) {
            if f == formation {
                continue;
            }
            let a = Action::Move { unit: u as u16, to: at, facing, formation: f };
            if self.check_move_with(u, at, facing, f, reserve, false).is_ok() {
                out.push(a);
            }
            // Forming and moving on ahead at half effect; guns limbering to move on, or moving up
            // to unlimber.
            push(out, facing, facing, f, 1.0);
        }
    }
}
