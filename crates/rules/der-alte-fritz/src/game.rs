//! The battle: the turn's sequence, the actions a side takes, and every rule that moves, fires,
//! fights and rallies.
//!
//! A turn: the initiative dice (the winner chooses to move first — side A — or to fire first,
//! leaving the other side to be A); the rally, A then B (each routing unit's one attempt is
//! rolled as the side's rally begins; the side chooses which shaken units with a leader attached
//! try to rally); movement, A then B (each unit moves, changes formation or facing, or declares a charge); firing, B then
//! A; the melee phase, A's charges then B's (the engine rolls every test); leader and reserve
//! moves, B then A.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::{
    Actor, ApplyError, GameState, Illegal, Outcome, PhaseInfo, SideId, View, Viewer, check_actor, hash_serialized,
    illegal,
};
use volley_table::Point;

use crate::events::Event;
use crate::model::{Formation, Officer, State, Unit};
use crate::setup::Static;

mod choices;
mod fight;
mod moves;

pub(crate) use moves::body_clear;

pub use fight::{Aim, rally_words};
pub use moves::{Allowance, ChargePath, ForcedMove, MoveCheck, Reach, path_cost};

/// Where a turn stands: who decides, and about what.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// Before the first turn: the first side begins the battle (the initiative dice are rolled).
    Begin,
    /// The winner of the initiative chooses to move first or fire first.
    Initiative {
        /// The winner.
        winner: SideId,
    },
    /// A side's rally: its routing units have had their one attempt; it chooses which of its
    /// shaken units with a leader attached try to rally.
    Rally {
        /// The side.
        side: SideId,
    },
    /// A side moves its units.
    Movement {
        /// The side.
        side: SideId,
    },
    /// A side fires.
    Firing {
        /// The side.
        side: SideId,
    },
    /// A side's leaders ride and its units far from the enemy make reserve moves.
    Leaders {
        /// The side.
        side: SideId,
    },
    /// The battle is over.
    Over,
}

/// Everything a side may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// Begin the battle: roll for the first turn's initiative.
    Begin,
    /// The initiative's winner: move first (be side A), or fire first (let the other side be A).
    Initiative {
        /// Move first.
        move_first: bool,
    },
    /// The leader attached to a shaken unit tries to rally it (rally phase): 2 d10 on chart C.
    Rally {
        /// The unit.
        unit: u16,
    },
    /// Move a unit (movement phase, or a reserve move): face `facing` and take `formation` where
    /// it stands, then go straight to `to` (its centre).
    Move {
        /// Unit index.
        unit: u16,
        /// Where its centre ends.
        to: Point,
        /// Its facing, degrees clockwise from north.
        facing: f64,
        /// Its formation.
        formation: Formation,
    },
    /// Declare a charge (movement phase): carried out in the side's melee phase.
    Charge {
        /// The charger.
        unit: u16,
        /// The enemy unit charged.
        target: u16,
    },
    /// Fire at an enemy unit (firing phase; no split fire).
    Fire {
        /// The firer.
        unit: u16,
        /// The target.
        target: u16,
    },
    /// An officer rides to another of his side's units and joins it (leader phase).
    Ride {
        /// Officer index.
        officer: u16,
        /// The unit he joins.
        unit: u16,
    },
    /// The side is done with this phase.
    Done,
}

/// A battle of Der Alte Fritz.
#[derive(Clone, Debug)]
pub struct Battle {
    stat: Arc<Static>,
    /// The units, by index (the scenario's order, first side first).
    pub units: Vec<Unit>,
    /// The officers: each side's army commander first (side 0's, then side 1's), then the leaders.
    pub officers: Vec<Officer>,
    /// Turn number, from 1 (0 before the battle begins).
    pub turn: u32,
    /// The phase.
    pub phase: Phase,
    /// Side A this turn: the side that rallies, moves and charges first.
    pub first: SideId,
    /// Each objective's holder.
    pub holders: Vec<Option<SideId>>,
    /// How it ended.
    pub outcome: Option<Outcome>,
}

#[derive(Serialize)]
struct Hashed<'a> {
    units: &'a [Unit],
    officers: &'a [Officer],
    turn: u32,
    phase: Phase,
    first: SideId,
    holders: &'a [Option<SideId>],
    outcome: &'a Option<Outcome>,
}

/// The other side.
pub fn other(side: SideId) -> SideId {
    1 - side
}

impl Battle {
    /// A battle ready to begin.
    pub fn new(stat: Arc<Static>, units: Vec<Unit>, officers: Vec<Officer>) -> Self {
        let holders = vec![None; stat.objectives.len()];
        let mut b = Battle { stat, units, officers, turn: 0, phase: Phase::Begin, first: 0, holders, outcome: None };
        b.update_holders();
        b
    }

    /// What stays the same.
    pub fn stat(&self) -> &Static {
        &self.stat
    }

    /// A unit's name.
    pub fn name(&self, u: usize) -> &str {
        &self.stat.unit_names[u]
    }

    /// A side's name.
    pub fn side_name(&self, s: SideId) -> &str {
        &self.stat.sides[usize::from(s)]
    }

    /// The side that acts now, if any.
    pub fn acting_side(&self) -> Option<SideId> {
        match self.phase {
            Phase::Begin => Some(0),
            Phase::Initiative { winner } => Some(winner),
            Phase::Rally { side } | Phase::Movement { side } | Phase::Firing { side } | Phase::Leaders { side } => {
                Some(side)
            }
            Phase::Over => None,
        }
    }

    /// The officers with unit `u`.
    pub fn officers_with(&self, u: usize) -> impl Iterator<Item = usize> + '_ {
        self.officers.iter().enumerate().filter(move |(_, o)| o.with == Some(u as u16)).map(|(i, _)| i)
    }

    /// The first officer with unit `u`.
    pub fn first_officer_with(&self, u: usize) -> Option<usize> {
        self.officers_with(u).next()
    }

    /// Whether a leader is attached to unit `u`.
    pub fn leader_attached(&self, u: usize) -> bool {
        self.officers_with(u).next().is_some()
    }

    /// Where an officer is.
    pub fn officer_at(&self, o: usize) -> Point {
        let off = &self.officers[o];
        match off.with {
            Some(u) => self.units[usize::from(u)].at,
            None => off.at,
        }
    }

    /// Units of `side` removed or routing, and its units at the start.
    pub fn losses(&self, side: SideId) -> (u32, u32) {
        let lost = self.units.iter().filter(|u| u.side == side && !u.steady()).count() as u32;
        (lost, self.stat.units_start[usize::from(side)])
    }

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Illegal> {
        let own = |u: u16| -> Result<&Unit, Illegal> {
            match self.units.get(usize::from(u)) {
                None => illegal!("there is no unit {u}"),
                Some(x) if x.side != side => {
                    illegal!("{} is not {}'s", self.name(usize::from(u)), self.side_name(side))
                }
                Some(x) if !x.present() => illegal!("{} is no longer in the battle", self.name(usize::from(u))),
                Some(x) => Ok(x),
            }
        };
        match (self.phase, action) {
            (Phase::Begin, Action::Begin) => Ok(()),
            (Phase::Initiative { .. }, Action::Initiative { .. }) => Ok(()),
            (
                Phase::Rally { .. } | Phase::Movement { .. } | Phase::Firing { .. } | Phase::Leaders { .. },
                Action::Done,
            ) => Ok(()),
            (Phase::Rally { .. }, Action::Rally { unit }) => {
                let u = own(*unit)?;
                if u.acted {
                    return illegal!("{} has had its rally this turn", self.name(usize::from(*unit)));
                }
                self.check_rally(usize::from(*unit))
            }
            (Phase::Movement { .. }, Action::Move { unit, to, facing, formation }) => {
                let u = own(*unit)?;
                if u.acted {
                    return illegal!("{} has already acted this phase", self.name(usize::from(*unit)));
                }
                self.check_move(usize::from(*unit), *to, *facing, *formation, false).map(|_| ())
            }
            (Phase::Leaders { .. }, Action::Move { unit, to, facing, formation }) => {
                let u = own(*unit)?;
                if !u.reserve {
                    return illegal!(
                        "{} may not make a reserve move: it was not more than 30\" from every enemy at the end of the turn",
                        self.name(usize::from(*unit))
                    );
                }
                if u.acted {
                    return illegal!("{} has already made its reserve move", self.name(usize::from(*unit)));
                }
                self.check_move(usize::from(*unit), *to, *facing, *formation, true).map(|_| ())
            }
            (Phase::Movement { .. }, Action::Charge { unit, target }) => {
                let u = own(*unit)?;
                if u.acted {
                    return illegal!("{} has already acted this phase", self.name(usize::from(*unit)));
                }
                self.check_charge(usize::from(*unit), usize::from(*target)).map(|_| ())
            }
            (Phase::Firing { .. }, Action::Fire { unit, target }) => {
                let u = own(*unit)?;
                if u.acted {
                    return illegal!("{} has already fired this turn (no split fire)", self.name(usize::from(*unit)));
                }
                self.check_fire(usize::from(*unit), usize::from(*target)).map(|_| ())
            }
            (Phase::Leaders { .. }, Action::Ride { officer, unit }) => self.check_ride(side, *officer, *unit),
            (Phase::Over, _) => illegal!("the battle is over"),
            (phase, a) => illegal!("{} is not allowed in the {} phase", action_name(a), phase_name(phase)),
        }
    }

    fn check_ride(&self, side: SideId, officer: u16, unit: u16) -> Result<(), Illegal> {
        let Some(o) = self.officers.get(usize::from(officer)) else {
            return illegal!("there is no officer {officer}");
        };
        if o.side != side {
            return illegal!("{} is not {}'s officer", o.name, self.side_name(side));
        }
        if o.acted {
            return illegal!("{} has already ridden this phase", o.name);
        }
        let Some(u) = self.units.get(usize::from(unit)) else {
            return illegal!("there is no unit {unit}");
        };
        if u.side != side || !u.steady() {
            return illegal!("{} may join only his own side's units that are not routing", o.name);
        }
        if o.with == Some(unit) {
            return illegal!("{} is already with {}", o.name, self.name(usize::from(unit)));
        }
        let ride = o.ride(self.turn);
        if ride <= 0.0 {
            return illegal!("{} is severely wounded and may not move this turn", o.name);
        }
        let d = self.officer_at(usize::from(officer)).dist(u.at);
        if d > ride + 1e-9 {
            return illegal!("{} is {d:.1}\" away: {} rides at most {ride}\"", self.name(usize::from(unit)), o.name);
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
            Action::Begin => {
                self.turn = 1;
                events.push(Event::Turn { turn: 1 });
                self.roll_initiative(chance, events)?;
            }
            Action::Initiative { move_first } => {
                self.first = if *move_first { side } else { other(side) };
                events.push(Event::Chose {
                    first: self.first,
                    text: format!(
                        "{} chose to {}: {} move first, {} fire first",
                        self.side_name(side),
                        if *move_first { "move first" } else { "fire first" },
                        self.side_name(self.first),
                        self.side_name(other(self.first))
                    ),
                });
                self.enter(Phase::Rally { side: self.first }, chance, events)?;
            }
            Action::Rally { unit } => {
                let i = usize::from(*unit);
                self.units[i].acted = true;
                self.rally_unit(i, chance, events)?;
            }
            Action::Move { unit, to, facing, formation } => {
                let reserve = matches!(self.phase, Phase::Leaders { .. });
                let i = usize::from(*unit);
                let check = self.check_move(i, *to, *facing, *formation, reserve).map_err(ApplyError::Illegal)?;
                let u = &mut self.units[i];
                let from = u.at;
                let facing = volley_table::norm_heading(*facing);
                if volley_table::turn(u.facing, facing).abs() >= crate::model::TURN_TOLERANCE {
                    u.turned_turn = self.turn;
                }
                if *formation != u.formation {
                    u.reformed_turn = self.turn;
                }
                u.at = *to;
                u.facing = facing;
                u.formation = *formation;
                u.acted = true;
                if check.moved() {
                    u.last_moved = self.turn;
                }
                events.push(Event::Moved {
                    unit: *unit,
                    from,
                    to: *to,
                    facing: u.facing,
                    formation: *formation,
                    distance: check.distance,
                    cost: check.cost,
                    allowance: check.allowance,
                    text: format!("{}{}: {}", self.name(i), if reserve { " (reserve move)" } else { "" }, check.text),
                });
            }
            Action::Charge { unit, target } => {
                let (i, t) = (usize::from(*unit), usize::from(*target));
                let c = self.check_charge(i, t).map_err(ApplyError::Illegal)?;
                self.units[i].acted = true;
                self.units[i].charging = Some(*target);
                self.units[i].charged_at = Some((self.units[t].at, self.units[t].facing));
                events.push(Event::Declared {
                    unit: *unit,
                    target: *target,
                    cost: c.cost,
                    reach: c.reach,
                    turned: c.turned,
                    oblique: c.oblique,
                    flank: c.flank,
                    text: format!(
                        "{} will charge {} in the melee phase{} ({:.1}\" of its {:.1}\" reach{}){}",
                        self.name(i),
                        self.name(t),
                        if c.turned >= crate::model::TURN_TOLERANCE {
                            format!(", turning {:.0}° to face it", c.turned)
                        } else if c.oblique > 0.0 {
                            format!(", obliquely {:.1}° off its front (its rate less 2\")", c.oblique)
                        } else {
                            ", straight ahead".to_string()
                        },
                        c.cost,
                        c.reach,
                        if c.turned >= crate::model::TURN_TOLERANCE { ", halved for the turn" } else { "" },
                        if c.flank { ": at its flank or rear" } else { "" }
                    ),
                });
            }
            Action::Fire { unit, target } => {
                self.units[usize::from(*unit)].acted = true;
                self.fire(usize::from(*unit), usize::from(*target), chance, events)?;
            }
            Action::Ride { officer, unit } => {
                let from = self.officer_at(usize::from(*officer));
                let to = self.units[usize::from(*unit)].at;
                let most = self.officers[usize::from(*officer)].ride(self.turn);
                let o = &mut self.officers[usize::from(*officer)];
                o.with = Some(*unit);
                o.acted = true;
                o.at = to;
                let name = o.name.clone();
                let distance = from.dist(to);
                events.push(Event::Officer {
                    officer: *officer,
                    die: None,
                    fate: None,
                    ride: Some(crate::events::Ride { from, unit: *unit, distance, most }),
                    text: format!(
                        "{name} rides {distance:.1}\" (at most {most}\") to {} and joins it",
                        self.name(usize::from(*unit))
                    ),
                });
            }
            Action::Done => self.next_phase(chance, events)?,
        }
        if self.outcome.is_none() {
            self.check_wipeout(events);
        }
        Ok(())
    }

    /// Roll the initiative: 1 d10 each, +1 for an exceptional army commander alive; a tie is
    /// rolled again.
    fn roll_initiative(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        loop {
            let mut dice = [0u8; 2];
            let mut totals = [0u8; 2];
            for s in 0..2u8 {
                let d = chance
                    .draw(&DrawKind::Die { sides: 10 }, &format!("{} initiative die", possessive(self.side_name(s))))?;
                dice[usize::from(s)] = d as u8;
                let bonus = u8::from(self.officers.iter().any(|o| o.side == s && o.commander && o.exceptional));
                totals[usize::from(s)] = d as u8 + bonus;
            }
            let winner = match totals[0].cmp(&totals[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            let term = |s: usize| {
                if totals[s] > dice[s] {
                    format!("{} +1 (an exceptional commander) = {}", dice[s], totals[s])
                } else {
                    format!("{}", dice[s])
                }
            };
            events.push(Event::Initiative {
                dice,
                winner,
                text: format!(
                    "initiative: {} {}, {} {}: {}",
                    self.side_name(0),
                    term(0),
                    self.side_name(1),
                    term(1),
                    match winner {
                        Some(w) => format!("{} win and choose", self.side_name(w)),
                        None => "a tie, rolled again".into(),
                    }
                ),
            });
            if let Some(w) = winner {
                self.phase = Phase::Initiative { winner: w };
                return Ok(());
            }
        }
    }

    /// Go to the phase after the current one's side is done.
    fn next_phase(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        let (a, b) = (self.first, other(self.first));
        let next = match self.phase {
            Phase::Rally { side } if side == a => Phase::Rally { side: b },
            Phase::Rally { .. } => Phase::Movement { side: a },
            Phase::Movement { side } if side == a => Phase::Movement { side: b },
            Phase::Movement { .. } => Phase::Firing { side: b },
            Phase::Firing { side } if side == b => Phase::Firing { side: a },
            Phase::Firing { .. } => {
                for s in [a, b] {
                    self.melee_phase(s, chance, events)?;
                    if self.outcome.is_some() {
                        return Ok(());
                    }
                }
                self.mark_reserves();
                Phase::Leaders { side: b }
            }
            Phase::Leaders { side } if side == b => Phase::Leaders { side: a },
            Phase::Leaders { .. } => return self.end_turn(chance, events),
            _ => return Ok(()),
        };
        self.enter(next, chance, events)
    }

    /// Enter `phase`, passing over it at once when its side has nothing to do there.
    fn enter(&mut self, phase: Phase, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        self.phase = phase;
        for u in &mut self.units {
            u.acted = false;
        }
        for o in &mut self.officers {
            o.acted = false;
        }
        if self.outcome.is_some() {
            self.phase = Phase::Over;
            return Ok(());
        }
        // A side's rally begins with each routing unit's one attempt: not a choice.
        if let Phase::Rally { side } = phase {
            self.rally_routers(side, chance, events)?;
        }
        if !self.has_choice() {
            return self.next_phase(chance, events);
        }
        Ok(())
    }

    /// Units more than 30" from every enemy may make a reserve move.
    fn mark_reserves(&mut self) {
        let far: Vec<bool> = (0..self.units.len())
            .map(|i| {
                let u = &self.units[i];
                u.steady()
                    && u.formation != Formation::Square
                    && self.units.iter().all(|e| {
                        e.side == u.side
                            || !e.present()
                            || volley_table::convex_distance(&u.corners(), &e.corners())
                                > crate::model::RESERVE_DISTANCE
                    })
            })
            .collect();
        for (u, f) in self.units.iter_mut().zip(far) {
            u.reserve = f;
        }
    }

    fn end_turn(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        for u in &mut self.units {
            u.charging = None;
            u.reserve = false;
        }
        // A unit shaken since before this turn that has not moved in it restores its order.
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if u.shaken() && u.shaken_turn < self.turn && u.last_moved < self.turn {
                self.units[i].state = State::Good;
                events.push(Event::Morale {
                    unit: i as u16,
                    test: None,
                    text: format!("{} has stood a whole turn without moving: its order is restored", self.name(i)),
                });
            }
        }
        self.tell_contacts(events);
        self.update_holders();
        if let Some(o) = self.decide() {
            events.push(Event::Over { winner: o.winner, text: o.reason.clone() });
            self.outcome = Some(o);
            self.phase = Phase::Over;
            return Ok(());
        }
        self.turn += 1;
        events.push(Event::Turn { turn: self.turn });
        self.roll_initiative(chance, events)
    }

    /// Enemies left standing in contact at the end of a turn (hemmed in after a melee), each pair
    /// told with why no melee came of it: a melee comes only of a declared charge, and whether
    /// each may charge the other next turn, or why not.
    fn tell_contacts(&self, events: &mut Vec<Event>) {
        for a in 0..self.units.len() {
            for b in a + 1..self.units.len() {
                let (x, y) = (&self.units[a], &self.units[b]);
                if x.side == y.side || !x.present() || !y.present() || !self.in_contact(a, b) {
                    continue;
                }
                let may = |u: usize, t: usize| match self.check_charge(u, t) {
                    Ok(_) => format!("{} may charge {}", self.name(u), self.name(t)),
                    Err(e) => format!("{} may not charge {}: {}", self.name(u), self.name(t), e.reason),
                };
                events.push(Event::Contact {
                    units: [a as u16, b as u16],
                    text: format!(
                        "{} and {} stand in contact without a melee: a melee comes only of a declared charge ({}; {})",
                        self.name(a),
                        self.name(b),
                        may(a, b),
                        may(b, a)
                    ),
                });
            }
        }
    }

    /// Whether units `a` and `b` stand in contact: nearer than the contact gap.
    pub fn in_contact(&self, a: usize, b: usize) -> bool {
        volley_table::convex_distance(&self.units[a].corners(), &self.units[b].corners()) < crate::model::CONTACT_GAP
    }

    /// Each objective is held by the side with a unit (not routing) whose centre is in it and no
    /// such enemy; otherwise by whoever held it last.
    fn update_holders(&mut self) {
        let pieces: Vec<(SideId, Point)> = self.units.iter().filter(|u| u.steady()).map(|u| (u.side, u.at)).collect();
        volley_scenario::hold_objectives(&self.stat.objectives, &mut self.holders, &pieces);
    }

    /// The end of a turn: an army broken (its share of units removed or routing at the break
    /// percentage) loses; both broken, a draw; the turn limit as the scenario says.
    fn decide(&self) -> Option<Outcome> {
        let lost = [self.losses(0), self.losses(1)];
        if let Some((winner, reason)) =
            volley_scenario::broken_sides(&self.stat.sides, lost, self.stat.break_at, "removed or routing")
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

    /// A side with no unit left that is not routing has lost at once.
    fn check_wipeout(&mut self, events: &mut Vec<Event>) {
        let left = |s: SideId| self.units.iter().any(|u| u.side == s && u.steady());
        let outcome = match (left(0), left(1)) {
            (true, true) => return,
            (false, false) => Outcome { winner: None, reason: "neither army has a unit left in the field".into() },
            (true, false) => {
                Outcome { winner: Some(0), reason: format!("{} have no unit left in the field", self.side_name(1)) }
            }
            (false, true) => {
                Outcome { winner: Some(1), reason: format!("{} have no unit left in the field", self.side_name(0)) }
            }
        };
        events.push(Event::Over { winner: outcome.winner, text: outcome.reason.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
    }
}

pub(crate) use volley_scenario::possessive;

fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Begin => "opening",
        Phase::Initiative { .. } => "initiative",
        Phase::Rally { .. } => "rally",
        Phase::Movement { .. } => "movement",
        Phase::Firing { .. } => "firing",
        Phase::Leaders { .. } => "leader and reserve",
        Phase::Over => "closing",
    }
}

fn action_name(a: &Action) -> &'static str {
    match a {
        Action::Begin => "beginning the battle",
        Action::Initiative { .. } => "choosing to move or fire first",
        Action::Rally { .. } => "a rally",
        Action::Move { .. } => "a move",
        Action::Charge { .. } => "declaring a charge",
        Action::Fire { .. } => "firing",
        Action::Ride { .. } => "an officer's ride",
        Action::Done => "ending the phase",
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
        "figures"
    }

    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        let start = self.stat.figures_start[usize::from(side)] as usize;
        let mut lost = 0usize;
        let mut out = 0usize;
        for u in self.units.iter().filter(|u| u.side == side) {
            match u.state {
                State::Removed => lost += u.figures_start as usize,
                State::Routing => {
                    lost += (u.figures_start - u.figures) as usize;
                    out += u.figures as usize;
                }
                _ => lost += (u.figures_start - u.figures) as usize,
            }
        }
        (start, lost, out)
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
        PhaseInfo { turn: self.turn, phase: phase_name(self.phase).into(), side: self.acting_side() }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        self.choices(out);
    }

    fn validate_by(&self, by: Actor, action: &Action) -> Result<(), Illegal> {
        check_actor(self.actor(), by, false)?;
        match self.acting_side() {
            Some(s) => self.validate_for(s, action),
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
        // Draws are made as the action goes; if one fails, the battle is left as it was.
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

    /// Nothing is hidden: every viewer sees the same.
    fn has_secrets(&self) -> bool {
        false
    }

    fn state_hash(&self) -> u64 {
        hash_serialized(&Hashed {
            units: &self.units,
            officers: &self.officers,
            turn: self.turn,
            phase: self.phase,
            first: self.first,
            holders: &self.holders,
            outcome: &self.outcome,
        })
    }

    fn action_points(&self, action: &Action) -> Vec<[f64; 2]> {
        let at = |u: u16| self.units.get(usize::from(u)).map(|x| <[f64; 2]>::from(x.at));
        match action {
            Action::Move { unit, to, .. } => at(*unit).into_iter().chain([<[f64; 2]>::from(*to)]).collect(),
            Action::Charge { unit, target } | Action::Fire { unit, target } => {
                at(*unit).into_iter().chain(at(*target)).collect()
            }
            Action::Ride { officer, unit } => self
                .officers
                .get(usize::from(*officer))
                .map(|_| self.officer_at(usize::from(*officer)).into())
                .into_iter()
                .chain(at(*unit))
                .collect(),
            _ => Vec::new(),
        }
    }

    fn describe(&self, action: &Action) -> String {
        let name = |u: u16| self.stat.unit_names.get(usize::from(u)).map_or("?", String::as_str);
        match action {
            Action::Begin => "begin the battle: roll for initiative".into(),
            Action::Initiative { move_first: true } => "move first".into(),
            Action::Initiative { move_first: false } => "fire first".into(),
            Action::Move { unit, to, facing, formation } => {
                match self.check_move(usize::from(*unit), *to, *facing, *formation, self.phase_is_leaders()) {
                    Ok(c) => format!("{}: {}", name(*unit), c.text),
                    Err(e) => format!("{}: {e}", name(*unit)),
                }
            }
            Action::Rally { unit } => {
                let i = usize::from(*unit);
                match self.units.get(i) {
                    Some(x) => format!("{}: {}", name(*unit), rally_words(x.kind)),
                    None => format!("{}: rally", name(*unit)),
                }
            }
            Action::Charge { unit, target } => format!("{}: charge {}", name(*unit), name(*target)),
            Action::Fire { unit, target } => format!("{}: fire at {}", name(*unit), name(*target)),
            Action::Ride { officer, unit } => format!(
                "{} rides to {}",
                self.officers.get(usize::from(*officer)).map_or("?", |o| o.name.as_str()),
                name(*unit)
            ),
            Action::Done => format!("end the {} phase", phase_name(self.phase)),
        }
    }
}

impl Battle {
    fn phase_is_leaders(&self) -> bool {
        matches!(self.phase, Phase::Leaders { .. })
    }
}
