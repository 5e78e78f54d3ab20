//! The battle: the turn sequence, movement on the grid, attacks, exhaustion and the end.

use std::sync::Arc;

use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::{
    Actor, ApplyError, GameState, Illegal, Outcome, PhaseInfo, SideId, View, Viewer, hash_serialized, illegal,
};
use volley_table::grid::{Area, Dir, in_arc, line_between};

use crate::combat::{self, MAX_DICE, Resolution};
use crate::events::{Event, Held, Stop};
use crate::model::{Kind, Unit};
use crate::occupancy::{Nearest, Occupancy};
use crate::setup::Static;

/// Where a turn stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Both sides throw a D6 (side 0's player throws for both).
    Initiative,
    /// The side with the higher throw chooses whether to go first.
    Choose {
        /// The side that chooses.
        side: SideId,
    },
    /// A side moves and attacks with its units, one after another.
    Act {
        /// The side acting.
        side: SideId,
        /// Whether this is the second side to act this turn.
        second: bool,
    },
    /// The battle is over.
    Over,
}

/// Everything a player may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Throw the two initiative dice (ties are thrown again).
    Throw,
    /// The winner of the throw goes first (`true`) or second.
    GoFirst {
        /// Whether to go first.
        first: bool,
    },
    /// Move a unit along `path` (each area sharing an edge with the one before; empty to turn
    /// on the spot) and end facing `facing`.
    Move {
        /// Unit index.
        unit: u16,
        /// The areas entered, in order.
        path: Vec<Area>,
        /// The edge it faces at the end.
        facing: Dir,
    },
    /// Attack an enemy unit.
    Attack {
        /// Unit index.
        unit: u16,
        /// The enemy unit attacked.
        target: u16,
    },
    /// Finish this side's part of the turn.
    EndHalf,
}

/// One Itchy and Scratchy battle.
#[derive(Clone, Debug, Serialize)]
pub struct Battle {
    /// What never changes.
    #[serde(skip)]
    pub stat: Arc<Static>,
    /// Turn number, from 1.
    pub turn: u32,
    /// Phase.
    pub phase: Phase,
    /// Units (Generals included); destroyed ones stay with 0 SP.
    pub units: Vec<Unit>,
    /// The side that went first this turn.
    pub first: SideId,
    /// Which sides have reached their Exhaustion Point, and at which turn's end.
    pub exhausted: [Option<u32>; 2],
    /// The side last to have a unit in each objective.
    pub holders: Vec<Option<SideId>>,
    /// The unit the acting side is acting with.
    pub active: Option<u16>,
    /// Enemy units (the lower index first) next to each other at turn-ends running without an
    /// attack between them, with how many turn-ends.
    pub standoffs: Vec<(u16, u16, u32)>,
    /// The outcome, once over.
    pub outcome: Option<Outcome>,
}

impl Battle {
    /// A battle at the first turn's initiative throw.
    pub fn new(stat: Arc<Static>, units: Vec<Unit>, phase: Phase) -> Self {
        let holders = vec![None; stat.objectives.len()];
        let mut b = Battle {
            stat,
            turn: 1,
            phase,
            units,
            first: 0,
            exhausted: [None, None],
            holders,
            active: None,
            standoffs: Vec::new(),
            outcome: None,
        };
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

    /// The side that must act.
    pub fn acting_side(&self) -> Option<SideId> {
        match self.phase {
            Phase::Initiative => Some(0),
            Phase::Choose { side } | Phase::Act { side, .. } => Some(side),
            Phase::Over => None,
        }
    }

    fn unit(&self, u: u16) -> Result<&Unit, Illegal> {
        match self.units.get(usize::from(u)) {
            Some(x) if x.alive() => Ok(x),
            Some(_) => illegal!("{} has been destroyed", self.name(usize::from(u))),
            None => illegal!("there is no unit {u}"),
        }
    }

    /// Strength Points each side has lost.
    pub fn sp_lost(&self, s: SideId) -> u32 {
        self.units.iter().filter(|u| u.side == s).map(|u| u32::from(u.sp_start - u.sp)).sum()
    }

    /// Where the turn stands, in the turn sequence's words: `the British move and attack
    /// (first)`.
    pub fn phase_words(&self) -> String {
        let side = |s: SideId| &self.stat.sides[usize::from(s) & 1];
        match self.phase {
            Phase::Initiative => "both sides throw a D6 for the initiative".into(),
            Phase::Choose { side: s } => format!("the {} threw higher and choose to go first or second", side(s)),
            Phase::Act { side: s, second } => {
                format!("the {} move and attack ({})", side(s), if second { "second" } else { "first" })
            }
            Phase::Over => "the battle is over".into(),
        }
    }

    /// A side's Exhaustion Point: half its initial Strength Points, rounded up.
    pub fn exhaustion_point(&self, s: SideId) -> u32 {
        self.stat.sp_start[usize::from(s) & 1].div_ceil(2)
    }

    /// Where the living units stand now, for many questions about this state.
    pub(crate) fn occupancy(&self) -> Occupancy<'_> {
        Occupancy::new(&self.stat.grid, &self.units)
    }

    /// Living enemy units of `side` in area `a`.
    fn enemies_in<'a>(&'a self, occ: &'a Occupancy<'_>, side: SideId, a: Area) -> impl Iterator<Item = usize> + 'a {
        occ.at(a).iter().map(|&i| usize::from(i)).filter(move |&i| self.units[i].side != side)
    }

    /// Whether area `a` shares an edge with an area holding an enemy of `side`.
    fn next_to_enemy(&self, occ: &Occupancy<'_>, side: SideId, a: Area) -> bool {
        a.neighbours().iter().any(|&n| self.enemies_in(occ, side, n).next().is_some())
    }

    /// How far each area is from the nearest living enemy of `side`, and which that is (the
    /// first in the list of units of those as near).
    pub(crate) fn nearest_enemies(&self, side: SideId) -> Nearest {
        let enemies = self.units.iter().enumerate().filter(|(_, u)| u.alive() && u.side != side);
        Nearest::new(&self.stat.grid, enemies.map(|(i, u)| (u.area, i as u16)))
    }

    /// Grid distance from `a` to the nearest enemy unit of `side`.
    #[cfg(test)]
    pub(crate) fn nearest_enemy(&self, side: SideId, a: Area) -> Option<u16> {
        self.units.iter().filter(|u| u.alive() && u.side != side).map(|u| u.area.distance(a)).min()
    }

    /// The edges of area `a` across which an enemy of `side` stands.
    fn enemy_edges(&self, occ: &Occupancy<'_>, side: SideId, a: Area) -> Vec<Dir> {
        Dir::ALL.into_iter().filter(|&d| self.enemies_in(occ, side, a.next(d)).next().is_some()).collect()
    }

    /// The enemy units adjacent to unit `ui` that face it (it is in their front area), in the
    /// list's order.
    fn faced_by(&self, occ: &Occupancy<'_>, ui: usize) -> Vec<usize> {
        let u = &self.units[ui];
        let mut faced: Vec<usize> = u
            .area
            .neighbours()
            .into_iter()
            .flat_map(|n| self.enemies_in(occ, u.side, n))
            .filter(|&e| {
                let x = &self.units[e];
                x.area.next(x.facing) == u.area
            })
            .collect();
        faced.sort_unstable();
        faced
    }

    // ----- movement -----

    /// Unit `ui`'s move along `path` (from where it stands now) in words: whether it withdraws
    /// (an adjacent enemy faces it: the text's withdrawal), and how many areas, which way and
    /// where it ends by the ground ([`volley_scenario::places::grid_way`]).
    pub fn move_words(&self, ui: usize, path: &[Area]) -> (bool, String) {
        let u = &self.units[ui];
        let withdraw = !path.is_empty() && !self.faced_by(&self.occupancy(), ui).is_empty();
        let to = path.last().copied().unwrap_or(u.area);
        (withdraw, volley_scenario::places::grid_way(u.area, to, path.len(), &self.stat.places))
    }

    fn may_act_with(&self, side: SideId, ui: usize) -> Result<(), Illegal> {
        let u = self.unit(ui as u16)?;
        if u.side != side {
            return illegal!("{} is not yours", self.name(ui));
        }
        if u.done {
            return illegal!("{} has had its turn: the side went on to another unit", self.name(ui));
        }
        Ok(())
    }

    /// Why a move breaks the rules, if it does.
    pub fn check_move(&self, side: SideId, unit: u16, path: &[Area], facing: Dir) -> Result<(), Illegal> {
        self.check_move_in(&self.occupancy(), side, unit, path, facing)
    }

    /// [`Battle::check_move`] with the units' places worked out.
    fn check_move_in(
        &self,
        occ: &Occupancy<'_>,
        side: SideId,
        unit: u16,
        path: &[Area],
        facing: Dir,
    ) -> Result<(), Illegal> {
        let ui = usize::from(unit);
        self.may_act_with(side, ui)?;
        let u = &self.units[ui];
        if u.moved.is_some() {
            return illegal!("{} has already moved this turn", self.name(ui));
        }
        let allow = u.allowance(u.attacked.is_some());
        if path.len() > usize::from(allow) {
            return illegal!(
                "{} may move {allow} grid areas{}; this path has {}",
                self.name(ui),
                if u.attacked.is_some() && allow < u.kind.movement() { " (one less: it has attacked)" } else { "" },
                path.len()
            );
        }
        // The withdrawal rule: a unit faced by an adjacent enemy may only move away from it,
        // farther with every step (so never round its flank to behind it).
        let faced = self.faced_by(occ, ui);
        let exhausted = self.exhausted[usize::from(side)].is_some();
        let mut at = u.area;
        for (i, &next) in path.iter().enumerate() {
            if !at.adjacent(next) {
                return illegal!(
                    "each step crosses an edge: [{}, {}] is not next to [{}, {}]",
                    next.col,
                    next.row,
                    at.col,
                    at.row
                );
            }
            if !self.stat.contains(next) || !self.stat.terrain(next).passable() {
                return illegal!("[{}, {}] is impassable or off the grid", next.col, next.row);
            }
            if self.enemies_in(occ, side, next).next().is_some() {
                return illegal!("[{}, {}] holds an enemy unit", next.col, next.row);
            }
            if let Some(&e) =
                faced.iter().find(|&&e| next.distance(self.units[e].area) <= at.distance(self.units[e].area))
            {
                return illegal!(
                    "withdrawing from {}, {} must move farther from it with every step",
                    self.name(e),
                    self.name(ui)
                );
            }
            // An exhausted side moves towards no enemy unit, step by step.
            if exhausted {
                let towards = self
                    .units
                    .iter()
                    .enumerate()
                    .find(|(_, x)| x.alive() && x.side != side && next.distance(x.area) < at.distance(x.area));
                if let Some((e, _)) = towards {
                    return illegal!(
                        "the side is exhausted: {} may not move towards the enemy ([{}, {}] is nearer {})",
                        self.name(ui),
                        next.col,
                        next.row,
                        self.name(e)
                    );
                }
            }
            if !faced.is_empty() {
                // Whoever faces `next` stands next to it.
                let front_of_another = next.neighbours().into_iter().any(|n| {
                    self.enemies_in(occ, side, n).any(|e| {
                        let x = &self.units[e];
                        !faced.contains(&e) && x.area.next(x.facing) == next
                    })
                });
                if front_of_another {
                    return illegal!(
                        "withdrawing, {} may not move next to the front of another enemy unit",
                        self.name(ui)
                    );
                }
            }
            // The stop rule: a move ends on entering an area next to an enemy, whichever it is.
            let stop = next.neighbours().iter().any(|&n| self.enemies_in(occ, side, n).next().is_some());
            if stop && i + 1 < path.len() {
                return illegal!(
                    "{} must stop at [{}, {}]: it is next to an enemy unit",
                    self.name(ui),
                    next.col,
                    next.row
                );
            }
            at = next;
        }
        if !faced.is_empty() && !path.is_empty() {
            let away = faced.iter().all(|&e| !self.units[e].area.adjacent(at));
            if !away {
                return illegal!("faced by an adjacent enemy, {} may only withdraw away from it", self.name(ui));
            }
        }
        // Stacking at the end.
        if at != u.area {
            let crowded =
                occ.of_side(&self.units, side, at).any(|o| o != ui && !self.units[o].kind.stacks() && !u.kind.stacks());
            if crowded {
                return illegal!("[{}, {}] already holds a friendly unit", at.col, at.row);
            }
        }
        // Next to an enemy at the end, the unit turns to face it.
        if !path.is_empty() {
            let adjacent = self.enemy_edges(occ, side, at);
            if !adjacent.is_empty() && !adjacent.contains(&facing) {
                return illegal!("{} ends next to an enemy unit and must face it", self.name(ui));
            }
        }
        Ok(())
    }

    // ----- attacks -----

    /// The combat situation of unit `a` attacking unit `t`, or why it may not.
    pub fn attack_situation(&self, side: SideId, a: u16, t: u16) -> Result<combat::Situation, Illegal> {
        let (ai, ti) = (usize::from(a), usize::from(t));
        self.may_act_with(side, ai)?;
        let target = self.unit(t)?;
        let u = &self.units[ai];
        if target.side == side {
            return illegal!("{} is not an enemy", self.name(ti));
        }
        let Some(weapon) = u.weapon else {
            return illegal!("{} carries no weapon", self.name(ai));
        };
        if u.attacked.is_some() {
            return illegal!("{} has already attacked this turn", self.name(ai));
        }
        if u.moved.is_some_and(|m| m > u.allowance(true)) {
            return illegal!("{} moved its full allowance: attacking costs a grid area of movement", self.name(ai));
        }
        let range = u.area.distance(target.area);
        let Some(_) = weapon.dice_at(range.min(255) as u8) else {
            return illegal!(
                "{} is {range} grid areas away: {} reach {}",
                self.name(ti),
                weapon.name(),
                weapon.max_range()
            );
        };
        if !in_arc(u.area, u.facing, target.area) {
            return illegal!("{} is not in {}'s arc of attack", self.name(ti), self.name(ai));
        }
        let there = self.stat.terrain(target.area);
        let (between_areas, corners) = line_between(u.area, target.area);
        // Out of cover only from its edge in the direction of fire: the first area the line of
        // fire enters (not the one the unit faces, which the line may pass beside) holds no
        // cover; at one area that is the target's own, which may be cover (1 area into it).
        if let Some(&first) = between_areas.first().filter(|_| self.stat.terrain(u.area).cover()) {
            let t = self.stat.terrain(first);
            if t.cover() {
                return illegal!(
                    "{} is not on the edge of its cover in the direction it attacks: the line of fire enters {} at [{}, {}]",
                    self.name(ai),
                    t.name(),
                    first.col,
                    first.row
                );
            }
        }
        // The line of fire may enter one area of cover, the target's own: any cover on the way
        // (woods and buildings also block the sight) stops it, and so do two areas of it
        // meeting at a corner the line passes through.
        const INTO: &str = "an attack goes only 1 grid area into woods, built-up areas and fortifications";
        for between in between_areas {
            let t = self.stat.terrain(between);
            if t.blocks_sight() {
                return illegal!("no line of sight: {} at [{}, {}] ({INTO})", t.name(), between.col, between.row);
            }
            if t.cover() {
                return illegal!(
                    "the line of fire crosses {} at [{}, {}] before the target: {INTO}",
                    t.name(),
                    between.col,
                    between.row
                );
            }
            if self.units.iter().any(|x| x.alive() && x.area == between) {
                return illegal!("no line of sight: a unit stands at [{}, {}]", between.col, between.row);
            }
        }
        for [x, y] in corners {
            let (tx, ty) = (self.stat.terrain(x), self.stat.terrain(y));
            if tx.cover() && ty.cover() {
                return illegal!(
                    "the line of fire passes through the corner where {} at [{}, {}] and {} at [{}, {}] meet: {INTO}",
                    tx.name(),
                    x.col,
                    x.row,
                    ty.name(),
                    y.col,
                    y.row
                );
            }
        }
        Ok(combat::Situation {
            weapon,
            range: range as u8,
            target: target.kind.target(),
            target_in_cover: there.cover(),
            general_with_attacker: self.general_in(side, u.area, ai).is_some(),
            general_with_target: target.kind != Kind::General
                && self.general_in(target.side, target.area, ti).is_some(),
        })
    }

    /// The first living General of `side` in area `area` other than unit `not`, if any.
    fn general_in(&self, side: SideId, area: Area, not: usize) -> Option<usize> {
        self.units
            .iter()
            .enumerate()
            .position(|(i, x)| i != not && x.alive() && x.side == side && x.kind == Kind::General && x.area == area)
    }

    /// The account's record of unit `ui`'s move along `path` to face `facing` (a valid move,
    /// from the battle before it): where from and to, the areas passed, its allowance, why it
    /// stopped there, and the enemies it withdrew from.
    fn move_record(&self, ui: usize, path: &[Area], facing: Dir) -> Event {
        let occ = self.occupancy();
        let u = &self.units[ui];
        let names = |list: &mut dyn Iterator<Item = usize>| list.map(|i| self.name(i).to_string()).collect::<Vec<_>>();
        let withdrew_from = if path.is_empty() { Vec::new() } else { names(&mut self.faced_by(&occ, ui).into_iter()) };
        let to = path.last().copied().unwrap_or(u.area);
        let allowance = u.allowance(u.attacked.is_some());
        let stop = if path.is_empty() {
            Stop::Turned
        } else {
            let mut next: Vec<usize> =
                to.neighbours().into_iter().flat_map(|n| self.enemies_in(&occ, u.side, n)).collect();
            next.sort_unstable();
            if next.is_empty() {
                if path.len() >= usize::from(allowance) { Stop::Allowance } else { Stop::Short }
            } else {
                let faces = self.enemies_in(&occ, u.side, to.next(facing)).min().map(|e| self.name(e).to_string());
                Stop::Enemy { units: names(&mut next.into_iter()), faces }
            }
        };
        let way = volley_scenario::places::grid_way(u.area, to, path.len(), &self.stat.places);
        Event::Moved {
            unit: self.name(ui).to_string(),
            areas: path.len() as u8,
            from: u.area,
            path: path.to_vec(),
            to,
            facing,
            allowance,
            stop,
            way,
            withdrew: !withdrew_from.is_empty(),
            withdrew_from,
            exhausted: self.exhausted[usize::from(u.side) & 1].is_some(),
        }
    }

    /// The account's record of unit `ui`'s attack on unit `ti` (a valid one, from the battle
    /// before it), resolved as `resolution`, with `general` the General standing with the
    /// target: where each stands, the arc, the line of sight, the ground, the Generals, and what
    /// it did.
    fn attack_record(&self, ui: usize, ti: usize, resolution: Resolution, general: Option<usize>) -> Event {
        let (u, t) = (&self.units[ui], &self.units[ti]);
        let (through, corners) = line_between(u.area, t.area);
        let (dc, dr) = (f64::from(t.area.col - u.area.col), f64::from(t.area.row - u.area.row));
        let (fc, fr) = u.facing.step();
        let cos = (dc * f64::from(fc) + dr * f64::from(fr)) / dc.hypot(dr).max(f64::MIN_POSITIVE);
        let off_facing = (cos.clamp(-1.0, 1.0).acos().to_degrees() * 10.0).round() / 10.0;
        let name = |i: Option<usize>| i.map(|i| self.name(i).to_string());
        let outcome = resolution.outcome;
        Event::Attack {
            attacker: self.name(ui).to_string(),
            target: self.name(ti).to_string(),
            from: u.area,
            facing: u.facing,
            at: t.area,
            off_facing,
            through,
            corners,
            ground: self.stat.terrain(u.area),
            target_ground: self.stat.terrain(t.area),
            moved: u.moved,
            allowance: u.allowance(true),
            general_with_attacker: name(self.general_in(u.side, u.area, ui)),
            general_with_target: name(general),
            resolution,
            target_left: if outcome.target_hit { t.sp.saturating_sub(1) } else { t.sp },
            general_killed: name(general.filter(|_| outcome.general_killed)),
        }
    }

    // ----- the end -----

    fn update_objectives(&mut self, events: &mut Vec<Event>) {
        for oi in 0..self.stat.objectives.len() {
            let mut present = [false; 2];
            for u in self.units.iter().filter(|u| u.alive()) {
                if self.stat.objectives[oi].1.contains(&u.area) {
                    present[usize::from(u.side) & 1] = true;
                }
            }
            let holder = match present {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => self.holders[oi],
            };
            if holder != self.holders[oi] {
                self.holders[oi] = holder;
                if let Some(h) = holder {
                    events.push(Event::ObjectiveTaken {
                        objective: self.stat.objectives[oi].0.clone(),
                        side: self.stat.sides[usize::from(h)].clone(),
                    });
                }
            }
        }
    }

    fn finish(&mut self, winner: Option<SideId>, reason: String, events: &mut Vec<Event>) {
        let outcome = Outcome { winner, reason };
        events.push(Event::BattleOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
    }

    /// The side that has lost the smaller share of its Strength Points, if one has.
    fn lesser_loser(&self) -> (Option<SideId>, String) {
        let share = |s: SideId| f64::from(self.sp_lost(s)) / f64::from(self.stat.sp_start[usize::from(s)].max(1));
        let (a, b) = (share(0), share(1));
        let pct = |x: f64| format!("{:.0}%", x * 100.0);
        let w = if (a - b).abs() < 1e-12 {
            None
        } else if a < b {
            Some(0)
        } else {
            Some(1)
        };
        (
            w,
            format!(
                "{} lost {} of their Strength Points, {} lost {}",
                self.stat.sides[0],
                pct(a),
                self.stat.sides[1],
                pct(b)
            ),
        )
    }

    fn check_annihilation(&mut self, events: &mut Vec<Event>) {
        for s in 0..2u8 {
            if !self.units.iter().any(|u| u.side == s && u.alive()) {
                let reason = format!("{} have no units left", self.stat.sides[usize::from(s)]);
                return self.finish(Some(1 - s), reason, events);
            }
        }
    }

    /// At a turn's end: the enemies next to each other with no attack between them this turn,
    /// counted in turn-ends running; those at three or more are told, with why neither attacked.
    fn standoffs(&mut self, events: &mut Vec<Event>) {
        let mut now = Vec::new();
        {
            let occ = self.occupancy();
            for (a, x) in self.units.iter().enumerate().filter(|(_, x)| x.alive()) {
                for n in x.area.neighbours() {
                    for e in self.enemies_in(&occ, x.side, n).filter(|&e| e > a) {
                        let (a16, e16) = (a as u16, e as u16);
                        if x.attacked == Some(e16) || self.units[e].attacked == Some(a16) {
                            continue;
                        }
                        let before = self.standoffs.iter().find(|s| (s.0, s.1) == (a16, e16)).map_or(0, |s| s.2);
                        now.push((a16, e16, before + 1));
                    }
                }
            }
        }
        now.sort_unstable();
        for &(a, e, turns) in now.iter().filter(|s| s.2 >= 3) {
            let (a, e) = (usize::from(a), usize::from(e));
            events.push(Event::Standoff {
                units: [self.name(a).to_string(), self.name(e).to_string()],
                turns,
                why: [self.held(a, e), self.held(e, a)],
            });
        }
        self.standoffs = now;
    }

    /// Why unit `u` did not attack unit `e`, next to it, this turn.
    fn held(&self, u: usize, e: usize) -> Held {
        let x = &self.units[u];
        if x.weapon.is_none() {
            Held::NoWeapon
        } else if let Some(t) = x.attacked {
            Held::AttackedAnother { target: self.name(usize::from(t)).to_string() }
        } else if x.moved.is_some_and(|m| m > x.allowance(true)) {
            Held::Spent
        } else if x.area.next(x.facing) != self.units[e].area {
            Held::OutOfArc
        } else {
            Held::NotOrdered
        }
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        self.standoffs(events);
        for s in 0..2u8 {
            if self.exhausted[usize::from(s)].is_none() && self.sp_lost(s) >= self.exhaustion_point(s) {
                self.exhausted[usize::from(s)] = Some(self.turn);
                events.push(Event::Exhausted {
                    side: self.stat.sides[usize::from(s)].clone(),
                    lost: self.sp_lost(s),
                    point: self.exhaustion_point(s),
                    start: self.stat.sp_start[usize::from(s)],
                    turn: self.turn,
                });
            }
        }
        if self.exhausted.iter().all(Option::is_some) {
            let (w, why) = self.lesser_loser();
            return self.finish(w, format!("both sides are exhausted: {why}"), events);
        }
        if let Some(limit) = self.stat.turn_limit
            && self.turn >= limit
        {
            let (winner, reason) = self.stat.at_turn_limit.decide(limit, &self.stat.sides, &self.holders);
            return self.finish(winner, reason, events);
        }
        self.turn += 1;
        self.phase = Phase::Initiative;
        for u in &mut self.units {
            u.moved = None;
            u.attacked = None;
            u.done = false;
        }
        self.active = None;
    }

    /// Note that the side is acting with unit `ui`: the unit it acted with before is done.
    fn activate(&mut self, ui: usize) {
        if let Some(prev) = self.active
            && usize::from(prev) != ui
        {
            self.units[usize::from(prev)].done = true;
        }
        self.active = Some(ui as u16);
    }

    fn validate_for(&self, side: SideId, action: &Action) -> Result<(), Illegal> {
        match (self.phase, action) {
            (Phase::Over, _) => illegal!("the battle is over"),
            (Phase::Initiative, Action::Throw) => Ok(()),
            (Phase::Initiative, _) => illegal!("the turn begins with the throw for initiative"),
            (Phase::Choose { .. }, Action::GoFirst { .. }) => Ok(()),
            (Phase::Choose { .. }, _) => illegal!("the winner of the throw first chooses to go first or second"),
            (Phase::Act { .. }, Action::Move { unit, path, facing }) => self.check_move(side, *unit, path, *facing),
            (Phase::Act { .. }, Action::Attack { unit, target }) => {
                self.attack_situation(side, *unit, *target).map(|_| ())
            }
            (Phase::Act { .. }, Action::EndHalf) => Ok(()),
            (Phase::Act { .. }, _) => illegal!("that is not done in the middle of a side's moves"),
        }
    }

    fn apply_valid(
        &mut self,
        action: &Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let side = self.acting_side().unwrap_or(0);
        match action {
            Action::Throw => {
                events.push(Event::TurnBegins { turn: self.turn });
                let mut throws = Vec::new();
                loop {
                    let k = throws.len() / 2 + 1;
                    let a = chance.draw(
                        &DrawKind::Die { sides: 6 },
                        &format_args!("{}'s initiative die (throw {k})", self.stat.sides[0]),
                    )?;
                    let b = chance.draw(
                        &DrawKind::Die { sides: 6 },
                        &format_args!("{}'s initiative die (throw {k})", self.stat.sides[1]),
                    )?;
                    throws.push((a, b));
                    if a != b {
                        break;
                    }
                }
                let (a, b) = throws[throws.len() - 1];
                let winner = if a > b { 0 } else { 1 };
                events.push(Event::Initiative {
                    sides: self.stat.sides.to_vec(),
                    throws,
                    winner: self.stat.sides[winner].clone(),
                });
                self.phase = Phase::Choose { side: winner as u8 };
            }
            Action::GoFirst { first } => {
                self.first = if *first { side } else { 1 - side };
                events.push(Event::Order { side: self.stat.sides[usize::from(self.first)].clone() });
                self.phase = Phase::Act { side: self.first, second: false };
            }
            Action::Move { unit, path, facing } => {
                let ui = usize::from(*unit);
                let moved = self.move_record(ui, path, *facing);
                self.activate(ui);
                let u = &mut self.units[ui];
                if let Some(&end) = path.last() {
                    u.area = end;
                }
                u.facing = *facing;
                u.moved = Some(path.len() as u8);
                events.push(moved);
                self.update_objectives(events);
            }
            Action::Attack { unit, target } => {
                let (ui, ti) = (usize::from(*unit), usize::from(*target));
                let situation = self.attack_situation(side, *unit, *target)?;
                let n = situation.dice_count().map_err(|e| Illegal::new(e.to_string()))?;
                let mut thrown = [0u8; MAX_DICE];
                let dice = thrown
                    .get_mut(..usize::from(n))
                    .ok_or_else(|| Illegal::new(format!("{n} dice are more than an attack can throw")))?;
                chance.dice(6, dice, &|i, f| {
                    write!(f, "{} attacking {}: die {} of {n}", self.name(ui), self.name(ti), i + 1)
                })?;
                let resolution: Resolution = situation.resolve_dice(dice).map_err(|e| Illegal::new(e.to_string()))?;
                let outcome = resolution.outcome;
                // The General with the target, who falls with it to a treble 1.
                let general = (self.units[ti].kind != Kind::General)
                    .then(|| self.general_in(self.units[ti].side, self.units[ti].area, ti))
                    .flatten();
                let record = self.attack_record(ui, ti, resolution, general);
                self.activate(ui);
                self.units[ui].attacked = Some(*target);
                events.push(record);
                if outcome.target_hit {
                    self.hit(ti, events);
                }
                if let Some(g) = general.filter(|_| outcome.general_killed) {
                    self.units[g].sp = 0;
                    events.push(Event::Destroyed { unit: self.name(g).to_string() });
                }
                self.update_objectives(events);
                self.check_annihilation(events);
            }
            Action::EndHalf => {
                if let Some(prev) = self.active.take() {
                    self.units[usize::from(prev)].done = true;
                }
                match self.phase {
                    Phase::Act { side, second: false } => {
                        self.phase = Phase::Act { side: 1 - side, second: true };
                        events.push(Event::SecondHalf { side: self.stat.sides[usize::from(1 - side)].clone() });
                    }
                    _ => self.end_turn(events),
                }
            }
        }
        Ok(())
    }

    fn hit(&mut self, ti: usize, events: &mut Vec<Event>) {
        let left = self.units[ti].sp.saturating_sub(1);
        self.units[ti].sp = left;
        let unit = self.name(ti).to_string();
        events.push(if left == 0 { Event::Destroyed { unit } } else { Event::LostSp { unit, left } });
    }

    fn candidates(&self, side: SideId, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Over => {}
            Phase::Initiative => out.push(Action::Throw),
            Phase::Choose { .. } => {
                out.push(Action::GoFirst { first: true });
                out.push(Action::GoFirst { first: false });
            }
            Phase::Act { .. } => {
                out.push(Action::EndHalf);
                let occ = self.occupancy();
                let mut nearest = None;
                for ui in 0..self.units.len() {
                    let u = &self.units[ui];
                    if u.side != side || !u.alive() || u.done {
                        continue;
                    }
                    if let Some(w) = u.weapon.filter(|_| u.attacked.is_none()) {
                        // Only the enemies within reach, in the list's order, are checked in
                        // full (the check words why it refuses, which takes longer).
                        let mut targets: Vec<usize> =
                            occ.within(u.area, w.max_range()).filter(|&t| self.units[t].side != side).collect();
                        targets.sort_unstable();
                        for ti in targets {
                            if self.attack_situation(side, ui as u16, ti as u16).is_ok() {
                                out.push(Action::Attack { unit: ui as u16, target: ti as u16 });
                            }
                        }
                    }
                    if u.moved.is_none() {
                        let nearest = nearest.get_or_insert_with(|| self.nearest_enemies(side));
                        self.move_candidates(&occ, nearest, side, ui, out);
                    }
                }
            }
        }
    }

    /// Every area unit `ui` could end a move in, with a path to it (breadth first, so a
    /// shortest one), and the facings worth offering there.
    fn move_candidates(&self, occ: &Occupancy<'_>, nearest: &Nearest, side: SideId, ui: usize, out: &mut Vec<Action>) {
        let u = &self.units[ui];
        let allow = usize::from(u.allowance(u.attacked.is_some()));
        let mut paths: Vec<(Area, Vec<Area>)> = vec![(u.area, Vec::new())];
        let mut frontier = 0;
        while frontier < paths.len() {
            let (at, path) = paths[frontier].clone();
            frontier += 1;
            if path.len() >= allow || (!path.is_empty() && self.next_to_enemy(occ, side, at)) {
                continue;
            }
            for n in at.neighbours() {
                if paths.iter().any(|(a, _)| *a == n) {
                    continue;
                }
                let mut p = path.clone();
                p.push(n);
                // Keep a step only if some move may pass through or end there.
                if self.stat.contains(n)
                    && self.stat.terrain(n).passable()
                    && self.enemies_in(occ, side, n).next().is_none()
                {
                    paths.push((n, p));
                }
            }
        }
        let unit = ui as u16;
        let nearest_area = |a: Area| nearest.get(&self.stat.grid, a).map(|(_, e)| self.units[usize::from(e)].area);
        for (end, path) in paths {
            let mut facings = Vec::with_capacity(2);
            let adjacent = self.enemy_edges(occ, side, end);
            if let Some(&d) = adjacent.first() {
                facings.push(d);
            } else if let Some(e) = nearest_area(end) {
                facings.push(end.facing_towards(e));
            }
            // Staying where it is, a turn to the way it already faces is no choice at all.
            if path.is_empty() {
                facings.retain(|&f| f != u.facing);
            }
            for facing in facings {
                let a = Action::Move { unit, path: path.clone(), facing };
                if self.check_move_in(occ, side, unit, &path, facing).is_ok() {
                    out.push(a);
                }
            }
        }
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
        "strength points"
    }

    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        (self.stat.sp_start[usize::from(side) & 1] as usize, self.sp_lost(side) as usize, 0)
    }
}

impl GameState for Battle {
    type Action = Action;
    type Event = Event;

    fn actor(&self) -> Actor {
        self.acting_side().map_or(Actor::Terminal, Actor::Side)
    }

    fn phase(&self) -> PhaseInfo {
        PhaseInfo { turn: self.turn, phase: self.phase_words(), side: self.acting_side() }
    }

    fn candidate_actions(&self, out: &mut Vec<Action>) {
        if let Some(side) = self.acting_side() {
            self.candidates(side, out);
        }
    }

    /// The rules give the umpire no action of his own: every action is the acting side's.
    fn validate_by(&self, by: Actor, action: &Action) -> Result<(), Illegal> {
        volley_core::check_actor(self.actor(), by, false)?;
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
        // Every draw an action needs is made before anything changes, so a failed draw leaves
        // the state as it was.
        self.validate_by(by, action)?;
        self.apply_valid(action, chance, events)
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
        hash_serialized(self)
    }

    fn action_points(&self, action: &Action) -> Vec<[f64; 2]> {
        let centre = |a: Area| [f64::from(a.col) + 0.5, f64::from(a.row) + 0.5];
        let at = |u: &u16| self.units.get(usize::from(*u)).map(|x| centre(x.area));
        match action {
            Action::Move { unit, path, .. } => at(unit).into_iter().chain(path.iter().map(|&a| centre(a))).collect(),
            Action::Attack { unit, target } => at(unit).into_iter().chain(at(target)).collect(),
            _ => Vec::new(),
        }
    }

    fn describe(&self, action: &Action) -> String {
        match action {
            Action::Throw => "throw for the initiative".into(),
            Action::GoFirst { first: true } => "go first".into(),
            Action::GoFirst { first: false } => "go second".into(),
            Action::Move { unit, path, facing } => {
                let name = self.name(usize::from(*unit));
                if path.is_empty() || self.units.get(usize::from(*unit)).is_none() {
                    return format!("turn {name} to face {}", crate::events::dir(*facing));
                }
                let (withdraw, way) = self.move_words(usize::from(*unit), path);
                let verb = if withdraw { "withdraw" } else { "move" };
                format!("{verb} {name} {way}, facing {}", crate::events::dir(*facing))
            }
            Action::Attack { unit, target } => {
                format!("{} attacks {}", self.name(usize::from(*unit)), self.name(usize::from(*target)))
            }
            Action::EndHalf => "end this side's part of the turn".into(),
        }
    }
}
