//! Playing a turn once both sides' orders are given: firing, movement, melee, recovery and the
//! optional personal risk, in the text's sequence. Nothing here is a choice: the same orders in
//! the same position always come out the same.

use volley_chance::{Chance, DrawKind};
use volley_core::ApplyError;
use volley_table::{Point, convex_distance, convex_overlap, heading_to, norm_heading, turn as angle_between};

use super::{Battle, Change, Fought, Manoeuvre, Pending, Phase, Presence, Unit};
use crate::combat::{self, Assault, Direction, Party, terms_text};
use crate::events::{
    Attacker, Blocked, Body, Event, Fact, Figure, LineChange, MoveKind, NextTurn, PursuitEnd, Stage, Stop, UnitResult,
};
use crate::model::{Formation, Kind, corners, density};
use crate::orders::{Does, Order};
use crate::tables::{After, Arm, FireKind, Status, assault_result, fire_effect};

/// What a unit sets out to do this turn.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Intent {
    /// Stands; `hold_fire`: it does not fire in its own defence either (a halt card, at 4 or
    /// better).
    Stand { hold_fire: bool },
    /// Stands and fires.
    Fire,
    /// Advances straight ahead.
    Advance,
    /// Withdraws straight back, facing as it is.
    Withdraw,
    /// Closes with an enemy.
    Charge(usize),
    /// Changing formation or facing.
    Manoeuvre,
    /// Runs away.
    Run,
    /// A close assault's result: withdraws this far facing the winner.
    FallBack { cm: f64, from: usize },
    /// A close assault's result: pursues the loser.
    Pursue(usize),
}

/// A unit that reached the enemy it closed with this turn.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contact {
    attacker: usize,
    defender: usize,
    /// Where its front's centre started the move.
    from: Point,
    /// Its facing before it turned to close.
    facing: f64,
    /// The gap between the two when it started.
    start_gap: f64,
    /// The face it met.
    direction: Direction,
    /// How far it has gone this turn (what is left of its move may keep it in contact).
    used: f64,
    /// What brought it there: a charge, a pursuit, a follow-up.
    what: MoveKind,
    /// Where in the turn's events its words of reaching the enemy are (its data next after them).
    told_at: usize,
}

/// How far a move went and why it stopped there.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Went {
    /// Centimetres, along its path.
    pub cm: f64,
    /// Why it stopped.
    pub stop: Stop,
    /// Where along its path it turned about its centre to the facing it was to take, if it did.
    pub turned_at: Option<f64>,
}

/// What stops a step of a move.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Block {
    /// It would stand on this unit.
    Body(usize),
    /// It would come nearer this enemy than it may.
    StandOff(usize),
}

/// A close assault fought: the words for everyone, the explanation and the data, told once every
/// assault of the turn is fought (a failed attacker's stand-off comes after them all).
struct Fight {
    told: Vec<String>,
    explained: String,
    fact: Fact,
}

/// How a move ends at obstacles.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mode {
    /// Forward, of its own will: halts as its status says; `target`: the enemy it closes with;
    /// `past`: enemies farther off than it do not hold it off (see [`Battle::step_block`]).
    Forward { target: Option<usize>, past: bool },
    /// Forward after the loser it beat, as the results table orders: its status does not halt it
    /// (a Wavering winner pursues: the table's row for 1–2).
    Pursue { target: usize, past: bool },
    /// Backwards (a withdrawal).
    Back,
    /// Backwards by its card at Wavering or worse: it will not move closer to any enemy.
    NoCloser,
    /// Running away: leaving the table removes it.
    Run,
}

/// A move is measured every this many centimetres.
pub const STEP: f64 = 0.5;
/// Two bodies at most this far apart are in contact (base to base), centimetres: a close assault
/// is fought only between units so near when it is resolved (interpretation 34).
pub const CONTACT: f64 = 0.1;
/// A unit not closing with an enemy halts this far from it (as a failed attack does).
pub const STAND_OFF: f64 = 5.0;
/// Rallying fails within this distance of enemy cavalry, centimetres.
const CAVALRY_NEAR: f64 = 30.0;
/// Reinforcements stand within this distance, centimetres.
const SUPPORT: f64 = 10.0;
/// Turns a pursuing cavalry regiment is away before it rallies back on its command group.
const AWAY_TURNS: u32 = 3;

/// The calculator's formation for a unit's.
pub(crate) fn combat_formation(f: Formation) -> combat::Formation {
    match f {
        Formation::Line | Formation::CavalryLine => combat::Formation::Line,
        Formation::AssaultColumn | Formation::CavalryColumn => combat::Formation::Column,
        Formation::MarchColumn => combat::Formation::MarchColumn,
        Formation::Square => combat::Formation::Square,
        Formation::Limbered => combat::Formation::Limbered,
        Formation::Deployed => combat::Formation::Deployed,
    }
}

impl Battle {
    /// Play the turn: both sides' orders are in.
    pub(super) fn play_turn(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        self.sequence(events);
        if self.stat().rules.personal_risk {
            self.personal_risk(chance, events)?;
        }
        self.end_turn(events);
        Ok(())
    }

    /// The text's sequence up to the roll for personal risk: firing, movement, melee, recovery.
    fn sequence(&mut self, events: &mut Vec<Event>) {
        self.start_turn(events);
        let mut intents = self.intents(events);
        self.firing(&mut intents, events);
        let (contacts, held) = self.movement(&intents, events);
        self.melee(&contacts, &held, events);
        self.finish_held_changes(&held, events);
        self.recovery(events);
    }

    fn tell(&self, events: &mut Vec<Event>, text: String) {
        events.push(Event::Told { text });
    }

    /// An explanation with the happening as data.
    fn record(&self, events: &mut Vec<Event>, text: String, fact: Fact) {
        events.push(Event::Explained { text, fact: Some(Box::new(fact)) });
    }

    /// Where unit `i` stands, as data.
    pub fn body(&self, i: usize) -> Body {
        let x = &self.units[i];
        Body { at: x.at.into(), facing: x.facing, corners: x.corners().map(<[f64; 2]>::from) }
    }

    /// A unit's name, owned, for the data.
    fn called(&self, i: usize) -> String {
        self.name(i).to_string()
    }

    /// Each of unit `i`'s labels in `lines`: its status in `before` and now.
    fn changes(&self, i: usize, before: [Status; 2], lines: &[usize]) -> Vec<LineChange> {
        lines
            .iter()
            .map(|&l| LineChange { line: l as u8 + 1, from: before[l].level(), to: self.units[i].status[l].level() })
            .collect()
    }

    /// The labels a unit has: a cavalry regiment's two, anyone else's one.
    fn labels(&self, i: usize) -> &'static [usize] {
        if self.units[i].two_lines() { &[0, 1] } else { &[0] }
    }

    /// Why unit `i`'s move stopped, as data: `block`, or (none) ground it cannot cross.
    fn stop_of(&self, i: usize, block: Option<Block>) -> Stop {
        match block {
            Some(Block::Body(j)) => {
                Stop::Body { unit: self.called(j), enemy: self.units[j].side != self.units[i].side }
            }
            Some(Block::StandOff(j)) => Stop::StandOff { unit: self.called(j) },
            None => Stop::Ground,
        }
    }

    /// Second lines combine or join in; the senior officers ride.
    fn start_turn(&mut self, events: &mut Vec<Event>) {
        for i in 0..self.units.len() {
            if !self.units[i].second_line {
                continue;
            }
            let was = self.units[i].status;
            match self.second_line_option(i) {
                Some(Fought::Won) => {
                    self.units[i].joined = true;
                    self.tell(events, format!("{} second line follows up", volley_core::possessive(self.name(i))));
                    let fact = Fact::SecondLine {
                        unit: self.called(i),
                        follows_up: true,
                        lines: self.changes(i, was, &[0, 1]),
                    };
                    self.record(events, format!("{}: both lines fight this turn", self.name(i)), fact);
                }
                Some(how) => {
                    let x = &mut self.units[i];
                    let (a, b) = (x.status[0], x.status[1]);
                    let avg = Status::of((i32::from(a.level()) + i32::from(b.level())) / 2);
                    x.status = [avg, avg];
                    x.disordered = [x.disordered[1]; 2];
                    // After a draw the second line "can join in": it fights beside the first this
                    // turn (interpretation 40); after a loss the first falls back on it.
                    x.joined = how == Fought::Drawn;
                    let words = format!(
                        "{} two lines {}: both are now {avg}{}",
                        volley_core::possessive(self.name(i)),
                        if how == Fought::Drawn { "join together" } else { "combine" },
                        if self.units[i].disordered[0] { ", DISORDERED" } else { "" }
                    );
                    self.tell(events, words);
                    let fact = Fact::SecondLine {
                        unit: self.called(i),
                        follows_up: false,
                        lines: self.changes(i, was, &[0, 1]),
                    };
                    self.record(
                        events,
                        format!(
                            "{}: the average of {} ({a}) and {} ({b}), rounded down, is {} ({avg}); the second line's order state",
                            self.name(i),
                            a.level(),
                            b.level(),
                            avg.level()
                        ),
                        fact,
                    );
                }
                None => {}
            }
        }
        for s in 0..2u8 {
            let Some(ride) = self.officers[usize::from(s)].ride.take() else { continue };
            let here = self.officer_at(s);
            let turn = self.turn;
            let o = &mut self.officers[usize::from(s)];
            o.at = here;
            match ride {
                Some(u) => {
                    o.with = Some(u);
                    o.since = turn;
                    let name = o.name.clone();
                    o.at = self.units[usize::from(u)].centre();
                    self.tell(events, format!("{name} rides to {}", self.name(usize::from(u))));
                }
                None => o.with = None,
            }
        }
    }

    /// What each unit sets out to do: a close assault's result first, then running, a change
    /// under way, then its card as its status allows. Starts the changes of formation ordered.
    fn intents(&mut self, events: &mut Vec<Event>) -> Vec<Intent> {
        let mut out = Vec::with_capacity(self.units.len());
        for i in 0..self.units.len() {
            let x = &self.units[i];
            if !x.here() {
                out.push(Intent::Stand { hold_fire: true });
                continue;
            }
            let intent = match x.pending {
                // A unit at 0 runs away, whatever result it owes (its second lines combined at 0,
                // say): it is leaving the battlefield (interpretation 19).
                _ if x.running() => Intent::Run,
                Pending::Withdraw { cm, from } => Intent::FallBack { cm: f64::from(cm), from: usize::from(from) },
                Pending::Pursue { target } => Intent::Pursue(usize::from(target)),
                Pending::MayPursue { target } if x.card == (Order::Charge { target }) => {
                    Intent::Pursue(usize::from(target))
                }
                Pending::MayPursue { .. } => Intent::Stand { hold_fire: true },
                Pending::None if x.change.is_some() => Intent::Manoeuvre,
                Pending::None => {
                    let does = self.does(i);
                    if let Some(why) = does.why(x.step_status())
                        && (!matches!(x.card, Order::Halt) || !matches!(does, Does::Stands))
                    {
                        self.tell(events, format!("{}: {why}", self.name(i)));
                    }
                    match does {
                        Does::AsOrdered { order } => match order {
                            Order::Halt => Intent::Stand { hold_fire: true },
                            Order::Fire => Intent::Fire,
                            Order::Advance => Intent::Advance,
                            Order::Withdraw => Intent::Withdraw,
                            Order::Charge { target } => Intent::Charge(usize::from(target)),
                            Order::Form { formation } => {
                                let left = super::turns_to_change(x.formation, formation).unwrap_or(1);
                                self.begin_change(i, Manoeuvre::Form { formation }, left, events);
                                Intent::Manoeuvre
                            }
                            Order::AboutFace => {
                                let left = super::turns_to_face(x.formation);
                                self.begin_change(i, Manoeuvre::AboutFace, left, events);
                                Intent::Manoeuvre
                            }
                            Order::Face { facing } => {
                                let left = super::turns_to_face(x.formation);
                                self.begin_change(i, Manoeuvre::Face { facing }, left, events);
                                Intent::Manoeuvre
                            }
                        },
                        Does::ClosesWith { target } => Intent::Charge(usize::from(target)),
                        Does::StopsAndFires => Intent::Fire,
                        Does::Stands => Intent::Stand { hold_fire: false },
                        Does::RunsAway => Intent::Run,
                    }
                }
            };
            out.push(intent);
        }
        for x in &mut self.units {
            x.pending = Pending::None;
        }
        out
    }

    fn begin_change(&mut self, i: usize, what: Manoeuvre, left: u8, events: &mut Vec<Event>) {
        let turn = self.turn;
        let x = &mut self.units[i];
        x.change = Some(Change { what, left });
        x.card = Order::Halt;
        x.disorder(turn);
        let manoeuvre = what;
        let what = match what {
            Manoeuvre::AboutFace => "to face about".to_string(),
            Manoeuvre::Face { facing } => format!("to turn to face {}", super::bearing_words(facing)),
            Manoeuvre::Form { formation: Formation::Limbered } => "to limber".to_string(),
            Manoeuvre::Form { formation: Formation::Deployed } => "to deploy".to_string(),
            Manoeuvre::Form { formation } => format!("to form {}", formation.name()),
        };
        self.tell(events, format!("{} begins {what}, disordered while it does", self.name(i)));
        let fact = self.manoeuvre_fact(i, Change { what: manoeuvre, left }, Stage::Begun);
        self.record(
            events,
            format!(
                "{}: the change takes {left} turn{} (the formation table)",
                self.name(i),
                if left == 1 { "" } else { "s" }
            ),
            fact,
        );
    }

    /// The firing phase: every firer uses the statuses as the phase began, and the results are
    /// applied together (I-2).
    #[allow(clippy::needless_range_loop)] // a unit's intent and the unit go together by index
    fn firing(&mut self, intents: &mut [Intent], events: &mut Vec<Event>) {
        // Every fire is reckoned from the statuses as the phase began.
        let mut shots = Vec::new();
        for i in 0..self.units.len() {
            if intents[i] == Intent::Fire {
                match self.fire_target(i) {
                    Some(shot) => shots.push((i, self.units[i].step_status(), shot)),
                    None => {
                        // A fire order that finds nobody to fire at is said so, in words.
                        if matches!(self.units[i].card, Order::Fire) {
                            self.tell(
                                events,
                                format!("{}: no enemy within reach to fire at, so it stands", self.name(i)),
                            );
                        }
                        intents[i] = Intent::Stand { hold_fire: false };
                    }
                }
            }
        }
        let before: Vec<[Status; 2]> = self.units.iter().map(|u| u.status).collect();
        for &(i, firer, shot) in &shots {
            self.volley(i, shot.target, shot.kind, firer, shot.range, Some(&before[shot.target]), events);
        }
        // Statuses changed: a unit brought to 0 runs this turn (I-30); one brought to 2 or below
        // will not move closer.
        for i in 0..self.units.len() {
            let x = &self.units[i];
            if !x.here() || x.status == before[i] {
                continue;
            }
            if x.running() {
                // Broken by fire: it runs this turn, a withdrawal or pursuit it owed with it.
                intents[i] = Intent::Run;
            } else if x.step_status() <= Status::Wavering && matches!(intents[i], Intent::Advance | Intent::Charge(_)) {
                // (A pursuit is the results table's: it is made all the same.)
                intents[i] = Intent::Stand { hold_fire: false };
                self.tell(events, format!("{}: it will not move closer to the enemy", self.name(i)));
            }
        }
    }

    /// One fire of `kind` by `i` (at status `firer`) at `t`; `start`: the target's labels as the
    /// firing phase began (the phase's fire is simultaneous), else its labels now.
    #[allow(clippy::too_many_arguments)]
    fn volley(
        &mut self,
        i: usize,
        t: usize,
        kind: FireKind,
        firer: Status,
        range: f64,
        start: Option<&[Status; 2]>,
        events: &mut Vec<Event>,
    ) {
        let turn = self.turn;
        let target = &self.units[t];
        let dens = density(target.kind, target.formation);
        let lines: Vec<usize> = target.lines().to_vec();
        let was_labels = target.status;
        let mut lowered = false;
        let mut explained = Vec::new();
        for &l in &lines {
            let was = start.map_or(self.units[t].status[l], |s| s[l]);
            let eff = fire_effect(kind, firer, was, dens);
            let now = self.units[t].status[l].dropped(eff.dropped, kind.floor());
            if now < self.units[t].status[l] {
                lowered = true;
            }
            self.units[t].status[l] = now;
            let f = combat::Fire { kind, firer, target: was, density: dens, range_cm: None };
            if let Ok(r) = combat::resolve(&combat::Situation::Fire(f)) {
                explained.push(format!("{r}").replace('\n', "; "));
            }
        }
        let u = &mut self.units[i];
        if u.fired_turn != turn {
            u.fired_before = u.fired_turn;
        }
        u.fired_turn = turn;
        u.fired_ever = true;
        let musket = !matches!(kind, FireKind::Canister | FireKind::Ball);
        let x = &mut self.units[t];
        x.engaged_turn = turn;
        if musket {
            x.musket_turn = turn;
        }
        if lowered {
            x.disorder(turn);
        }
        let broken_off = if x.running() { x.change.take() } else { None };
        let what = match kind {
            FireKind::Canister => "canister",
            FireKind::Ball => "roundshot",
            FireKind::Rifles => "rifle fire",
            _ => "volley",
        };
        let now = self.units[t].step_status();
        let told = if lowered {
            if now == Status::RunningAway {
                format!("{} {what} breaks {}: it is running away", volley_core::possessive(self.name(i)), self.name(t))
            } else {
                format!(
                    "{} {what} shakes {}: it is now {now}, disordered",
                    volley_core::possessive(self.name(i)),
                    self.name(t)
                )
            }
        } else {
            format!("{} {what} at {} has no effect", volley_core::possessive(self.name(i)), self.name(t))
        };
        self.tell(events, told);
        let fact = Fact::Fire {
            firer: self.called(i),
            target: self.called(t),
            row: kind,
            firer_status: firer.level(),
            density: dens,
            range,
            in_defence: start.is_none(),
            lines: self.changes(t, was_labels, &lines),
            disordered: lowered,
        };
        self.record(
            events,
            format!("{} fires at {} ({range:.1} cm): {}", self.name(i), self.name(t), explained.join(" | ")),
            fact,
        );
        if let Some(ch) = broken_off {
            self.break_off(t, ch, "broken by fire", events);
        }
    }

    /// Unit `i`'s change `ch` (already ended) is broken off: told, with its data (given up).
    fn break_off(&self, i: usize, ch: Change, why: &str, events: &mut Vec<Event>) {
        self.tell(events, format!("{} breaks off its change", self.name(i)));
        let fact = self.manoeuvre_fact(i, ch, Stage::GivenUp);
        self.record(events, format!("{}: its change is broken off ({why})", self.name(i)), fact);
    }

    /// The movement phase: close assaults' results first (withdrawals, then units running,
    /// then pursuits), then the orders, the two sides' units taken in turn (each side leading in
    /// alternate turns); changes of formation complete at its end. A charger whose enemy moved
    /// out of contact after it was reached keeps up with it if what is left of its move lets it
    /// (interpretation 34). Returns who is in contact with the enemy it closed with, and the
    /// changes of formation or facing of the units caught in them (finished after the melee).
    #[allow(clippy::needless_range_loop)] // a unit's intent and the unit go together by index
    fn movement(&mut self, intents: &[Intent], events: &mut Vec<Event>) -> (Vec<Contact>, Vec<(usize, Change)>) {
        let mut contacts = Vec::new();
        // Who may fire in its own defence: a unit standing (not on the move, not changing
        // formation), unless a halt card holds its fire and its status does not make it fire.
        let hold: Vec<bool> = (0..intents.len())
            .map(|i| match intents[i] {
                Intent::Stand { hold_fire } => hold_fire && self.units[i].step_status() > Status::Nervous,
                Intent::Fire => false,
                _ => true,
            })
            .collect();
        let n = self.units.len();
        let mut caught = Vec::new();
        for i in 0..n {
            if let Intent::FallBack { cm, from } = intents[i]
                && self.fall_back(i, cm, from, &hold, events)
            {
                caught.push(i);
            }
        }
        for i in 0..n {
            if (intents[i] == Intent::Run || caught.contains(&i)) && self.units[i].here() {
                self.run(i, &hold, events);
            }
        }
        for i in 0..n {
            if let Intent::Pursue(t) = intents[i] {
                self.pursue(i, t, &hold, &mut contacts, events);
            }
        }
        let mut order: Vec<usize> = Vec::new();
        // The sides' units in turn, the first side leading in odd turns and the second in even
        // ones (no side always first to contact).
        let lead = u8::from(self.turn.is_multiple_of(2));
        let sides: [Vec<usize>; 2] = [lead, 1 - lead].map(|s| (0..n).filter(|&i| self.units[i].side == s).collect());
        for k in 0..sides[0].len().max(sides[1].len()) {
            for s in &sides {
                if let Some(&i) = s.get(k) {
                    order.push(i);
                }
            }
        }
        for i in order {
            if !self.units[i].here() || self.units[i].running() {
                continue;
            }
            match intents[i] {
                Intent::Advance => {
                    let x = &self.units[i];
                    let (dir, rate, facing) = (volley_table::unit(x.facing), x.rate(), x.facing);
                    let from = self.body(i);
                    let went = self.travel(
                        i,
                        facing,
                        dir,
                        rate,
                        Mode::Forward { target: None, past: false },
                        None,
                        &hold,
                        events,
                    );
                    self.tell_move(i, MoveKind::Advance, from, rate, went, events);
                }
                Intent::Withdraw => {
                    let x = &self.units[i];
                    let (dir, rate, facing) = (volley_table::unit(x.facing) * -1.0, x.rate(), x.facing);
                    let mode = if x.step_status() <= Status::Wavering { Mode::NoCloser } else { Mode::Back };
                    let from = self.body(i);
                    let went = self.travel(i, facing, dir, rate, mode, None, &hold, events);
                    self.tell_move(i, MoveKind::Withdraw, from, rate, went, events);
                }
                Intent::Charge(t) => self.charge(i, t, &hold, &mut contacts, events),
                _ => {}
            }
        }
        // A unit an enemy's charge has reached is caught in its change: it fights as it stands,
        // and its change completes after the melee if it is not beaten (interpretation 34).
        let caught_changing = self.caught_changing(&contacts);
        let held: Vec<(usize, Change)> =
            caught_changing.iter().filter_map(|&i| self.units[i].change.map(|ch| (i, ch))).collect();
        self.complete_changes(&caught_changing, events);
        self.keep_up(&mut contacts, &hold, events);
        (contacts, held)
    }

    /// A move by a card, in words and as data.
    fn tell_move(&self, i: usize, what: MoveKind, from: Body, ordered: f64, went: Went, events: &mut Vec<Event>) {
        if !self.units[i].here() {
            return;
        }
        let verb = if what == MoveKind::Advance { "advances" } else { "withdraws" };
        let d = went.cm;
        if d > 0.0 {
            self.tell(events, format!("{} {verb}", self.name(i)));
        } else {
            self.tell(events, format!("{} cannot {}: the way is blocked", self.name(i), verb.trim_end_matches('s')));
        }
        let fact = Fact::Move {
            unit: self.called(i),
            what,
            target: None,
            from,
            to: self.body(i),
            ordered,
            done: d,
            stop: went.stop,
        };
        self.record(events, format!("{} {verb} {d:.1} cm of its {ordered} cm", self.name(i)), fact);
    }

    /// Turn a unit about its centre to `facing`, if its body has room there.
    /// `facing_enemy`: the enemy it turns to face (a loser its winner), which does not hold it
    /// off 5 cm as another would, so long as the turn brings it no nearer contact with it.
    fn wheel(&mut self, i: usize, facing: f64, facing_enemy: Option<usize>) -> bool {
        let x = &self.units[i];
        let centre = x.centre();
        let (_, depth) = crate::model::size(x.kind, x.formation);
        let at = centre + volley_table::unit(facing) * (depth / 2.0);
        let c = corners(x.kind, x.formation, at, facing);
        if !self.room(i, &c, facing_enemy) {
            return false;
        }
        if let Some(w) = facing_enemy.filter(|&w| self.units[w].here()) {
            let (now, then) = (self.gap(i, w), convex_distance(&c, &self.units[w].corners()));
            if then <= CONTACT && then < now - 1e-9 {
                return false;
            }
        }
        let x = &mut self.units[i];
        x.at = at;
        x.facing = norm_heading(facing);
        true
    }

    /// Whether unit `i` may stand in the body `c` after turning or changing formation where it
    /// stands: [`Battle::clear`], and no nearer an enemy (not `target`, the one it closes with)
    /// than the stand-off unless it was so near already and comes no nearer — a unit touches an
    /// enemy only by closing with it (interpretation 34).
    fn room(&self, i: usize, c: &[Point; 4], target: Option<usize>) -> bool {
        let others: Vec<usize> = (0..self.units.len()).filter(|&j| j != i && self.units[j].here()).collect();
        self.clear(i, c, None) && !self.step_blocked(i, &others, c, &self.units[i].corners(), target, Mode::Back)
    }

    /// Whether a body at `c` for unit `i` is on the table, on passable ground and on no other
    /// body (`except` aside).
    fn clear(&self, i: usize, c: &[Point; 4], except: Option<usize>) -> bool {
        let table = &self.stat().table;
        c.iter().all(|&p| table.contains(p) && table.passable(p))
            && self
                .units
                .iter()
                .enumerate()
                .all(|(j, o)| j == i || Some(j) == except || !o.here() || !convex_overlap(c, &o.corners()))
    }

    /// An enemy unit `i` touches (within [`CONTACT`]), if any.
    fn touching_enemy(&self, i: usize) -> Option<usize> {
        let side = self.units[i].side;
        (0..self.units.len()).find(|&j| {
            let o = &self.units[j];
            o.here() && o.side != side && self.gap(i, j) <= CONTACT
        })
    }

    /// A withdrawal the results table ordered: facing the winner, straight away from it `cm`. Cut
    /// short, the register's rule (interpretation 35): its way across the table's edge takes it off
    /// the field; still touching an enemy, it is caught and breaks (returns true: it runs now);
    /// else it stands where the ground stopped it.
    fn fall_back(&mut self, i: usize, cm: f64, from: usize, hold: &[bool], events: &mut Vec<Event>) -> bool {
        if !self.units[i].here() {
            return false;
        }
        // Backwards facing the winner: it turns about its centre to face it, if it has room, and
        // goes straight away from it; without room to turn where it stands (touching the winner,
        // a body turned even a little pokes into it) it goes away as it stands and turns to face
        // the winner as soon as it has room on its way (interpretation 35).
        let start = self.body(i);
        let face = self
            .units
            .get(from)
            .filter(|w| w.here())
            .map(|w| norm_heading(heading_to(self.units[i].centre(), w.centre())));
        let away = face.map_or(norm_heading(self.units[i].facing + 180.0), |f| norm_heading(f + 180.0));
        let mut turned_at = None;
        if let Some(f) = face
            && angle_between(self.units[i].facing, f).abs() > 1e-9
            && self.wheel(i, f, Some(from))
        {
            turned_at = Some(0.0);
        }
        if let Some(ch) = self.units[i].change.take() {
            self.break_off(i, ch, "withdrawing", events);
        }
        let (dir, facing) = (volley_table::unit(away), self.units[i].facing);
        let turn = face.filter(|_| turned_at.is_none()).map(|f| (f, Some(from)));
        let went = self.travel(i, facing, dir, cm, Mode::Back, turn, hold, events);
        turned_at = turned_at.or(went.turned_at);
        let d = went.cm;
        let touching = self.touching_enemy(i);
        let rule = if d >= cm - 1e-6 || !self.units[i].here() {
            Blocked::None
        } else if went.stop == Stop::Edge {
            Blocked::OffTheField
        } else if touching.is_some() {
            Blocked::Caught
        } else {
            Blocked::Short
        };
        let name = self.called(i);
        let (told, why) = match rule {
            Blocked::None => (format!("{name} falls back, facing the enemy"), String::new()),
            Blocked::Short => (
                format!("{name} falls back, facing the enemy, as far as the ground lets it"),
                ": the way is blocked; it stands where it stopped".into(),
            ),
            Blocked::OffTheField => (
                format!("{name} falls back off the field and is out of the battle"),
                ": the table's edge; a unit that leaves the table leaves the battle".into(),
            ),
            Blocked::Caught => (
                format!("{name} cannot fall back from the enemy: it breaks and runs"),
                ": the way is blocked and it still touches the enemy; caught, it breaks".into(),
            ),
        };
        let was = self.units[i].status;
        match rule {
            Blocked::OffTheField => {
                let turn = self.turn;
                let x = &mut self.units[i];
                x.presence = Presence::Removed;
                x.moved_turn = turn; // gone this turn: pursuing horse follow it off
            }
            Blocked::Caught => {
                let x = &mut self.units[i];
                x.status = [Status::RunningAway; 2];
                x.ran = 0;
            }
            _ => {}
        }
        let lines = if rule == Blocked::Caught { self.changes(i, was, self.labels(i)) } else { Vec::new() };
        let fact = Fact::Withdrawal {
            unit: self.called(i),
            winner: self.called(from),
            from: start,
            to: self.body(i),
            heading: away,
            ordered: cm,
            done: d,
            stop: went.stop,
            rule,
            touching: touching.filter(|_| rule == Blocked::Caught).map(|j| self.called(j)),
            turned_at,
            lines,
        };
        self.tell(events, told);
        self.record(events, format!("{name} withdraws {d:.1} cm of its {cm} cm (the results table){why}"), fact);
        rule == Blocked::Caught
    }

    fn run(&mut self, i: usize, hold: &[bool], events: &mut Vec<Event>) {
        let x = &self.units[i];
        if x.formation == Formation::Deployed {
            self.units[i].presence = Presence::Removed;
            self.tell(events, format!("{} gunners run, abandoning their guns", volley_core::possessive(self.name(i))));
            return;
        }
        let x = &self.units[i];
        let base = if x.formation == Formation::Square { crate::tables::rates::INFANTRY_COLUMN } else { x.rate() };
        let first_turn = x.ran == 0;
        let len = if first_turn { base * 2.0 } else { base };
        // It turns its back on the enemy about its centre where it stands, if it has room; else
        // it runs that way as it stands and turns as soon as it has room on its way
        // (interpretation 31).
        let from = self.body(i);
        let (way, can_turn) = self.run_heading(i, base * 2.0).unwrap_or((self.units[i].facing, false));
        let mut turned_at = None;
        if can_turn && angle_between(self.units[i].facing, way).abs() > 1e-9 && self.wheel(i, way, None) {
            turned_at = Some(0.0);
        }
        let facing = self.units[i].facing;
        let dir = volley_table::unit(way);
        if let Some(ch) = self.units[i].change.take() {
            self.break_off(i, ch, "running away", events);
        }
        let turn = Some((way, None)).filter(|_| turned_at.is_none());
        let went = self.travel(i, facing, dir, len, Mode::Run, turn, hold, events);
        turned_at = turned_at.or(went.turned_at);
        self.units[i].ran += 1;
        let d = went.cm;
        let off = !self.units[i].here();
        // A runner that cannot move at all while an enemy touches it is cut down as it flees:
        // it is gone (interpretation 31).
        let cut_down = !off && d <= 0.0 && self.touching_enemy(i).is_some();
        if cut_down {
            self.units[i].presence = Presence::Removed;
            self.tell(events, format!("{} cannot get away from the enemy and is cut down", self.name(i)));
        } else if !off && d <= 0.0 {
            self.tell(events, format!("{} would run but the way is blocked", self.name(i)));
        } else if !off {
            self.tell(events, format!("{} runs away", self.name(i)));
        }
        let fact = Fact::Run {
            unit: self.called(i),
            from,
            to: self.body(i),
            heading: norm_heading(way),
            ordered: len,
            done: d,
            first_turn,
            stop: went.stop,
            off_the_field: off,
            turned_at,
            cut_down,
        };
        self.record(
            events,
            format!(
                "{} runs {d:.1} cm of {len} cm ({}){}",
                self.name(i),
                if first_turn { "double its move, the first turn" } else { "its move" },
                if off {
                    ", off the table"
                } else if cut_down {
                    ": it cannot move and an enemy touches it; caught as it flees, it is cut down"
                } else {
                    ""
                }
            ),
            fact,
        );
    }

    fn pursue(&mut self, i: usize, t: usize, hold: &[bool], contacts: &mut Vec<Contact>, events: &mut Vec<Event>) {
        if !self.units[i].here() {
            return;
        }
        let Some(target) = self.units.get(t) else { return };
        // A loser that has run off the field this turn, ahead of the horse, or withdrawn off it
        // (interpretation 35), is pursued off it all the same: the text's "pursue an enemy off the
        // table" does not wait on catching it.
        let ran_off = target.presence == Presence::Removed && (target.running() || target.moved_turn == self.turn);
        let followed = ran_off && self.units[i].arm() == Arm::Cavalry;
        let fact = |b: &Battle, outcome| Fact::Pursuit { unit: b.called(i), target: b.called(t), outcome };
        if !(target.here() || followed) {
            self.tell(events, format!("{} has nobody left to pursue", self.name(i)));
            self.record(
                events,
                format!("{}: its loser {} is gone", self.name(i), self.name(t)),
                fact(self, PursuitEnd::Nobody),
            );
            return;
        }
        if followed || (self.units[i].arm() == Arm::Cavalry && target.running()) {
            let back = self.turn + AWAY_TURNS;
            self.units[t].presence = Presence::Removed;
            self.units[i].presence = Presence::Away { back };
            self.units[i].moved_turn = self.turn;
            self.tell(
                events,
                if ran_off {
                    format!(
                        "{} pursue {} off the field: the horsemen are dispersed and will rally on their command group",
                        self.name(i),
                        self.name(t)
                    )
                } else {
                    format!(
                        "{} ride down {} and pursue it off the field: {} is gone; the horsemen are dispersed and will rally on their command group",
                        self.name(i),
                        self.name(t),
                        self.name(t)
                    )
                },
            );
            let end = if ran_off { PursuitEnd::FollowedOff } else { PursuitEnd::CarriedOff };
            self.record(events, format!("{} returns in the recovery of turn {back}", self.name(i)), fact(self, end));
            return;
        }
        let Some(m) = self.meeting(i, t, 180.0) else {
            self.tell(events, format!("{} cannot get at {} to pursue it", self.name(i), self.name(t)));
            self.record(
                events,
                format!("{}: no face of {} it can reach going forward", self.name(i), self.name(t)),
                fact(self, PursuitEnd::NotAhead),
            );
            return;
        };
        let from = self.body(i);
        if !self.turn_to(i, m.facing, t) {
            self.tell(events, format!("{} has no room to turn and pursue", self.name(i)));
            let fact = Fact::Move {
                unit: self.called(i),
                what: MoveKind::Pursue,
                target: Some(self.called(t)),
                to: from.clone(),
                from,
                ordered: m.dist.min(self.units[i].rate()),
                done: 0.0,
                stop: Stop::NoRoom,
            };
            self.record(events, format!("{} cannot turn to face {}", self.name(i), self.name(t)), fact);
            return;
        }
        self.close(i, t, from, 0.0, hold, contacts, events, MoveKind::Pursue);
    }

    /// Pivot about the front's centre to `facing`, if there is room.
    fn turn_to(&mut self, i: usize, facing: f64, target: usize) -> bool {
        let x = &self.units[i];
        let c = corners(x.kind, x.formation, x.at, facing);
        if !self.room(i, &c, Some(target)) {
            return false;
        }
        self.units[i].facing = norm_heading(facing);
        true
    }

    fn charge(&mut self, i: usize, t: usize, hold: &[bool], contacts: &mut Vec<Contact>, events: &mut Vec<Event>) {
        let Some(m) = self.contact(i, t) else {
            // It sets out and cannot: its enemy is not (or no longer) ahead of it.
            self.tell(events, format!("{} cannot close with {}: it is not ahead", self.name(i), self.name(t)));
            if self.units[t].here() {
                let from = self.body(i);
                let fact = Fact::Move {
                    unit: self.called(i),
                    what: MoveKind::Charge,
                    target: Some(self.called(t)),
                    to: from.clone(),
                    from,
                    ordered: 0.0,
                    done: 0.0,
                    stop: Stop::NotAhead,
                };
                self.record(
                    events,
                    format!("{}: {} is not ahead of it within a charge's small variation", self.name(i), self.name(t)),
                    fact,
                );
            }
            return;
        };
        let from = self.body(i);
        if !self.turn_to(i, m.facing, t) {
            self.tell(events, format!("{} has no room to turn towards {}", self.name(i), self.name(t)));
            let fact = Fact::Move {
                unit: self.called(i),
                what: MoveKind::Charge,
                target: Some(self.called(t)),
                to: from.clone(),
                from,
                ordered: m.dist.min(self.units[i].rate()),
                done: 0.0,
                stop: Stop::NoRoom,
            };
            self.record(events, format!("{} cannot turn to face {}", self.name(i), self.name(t)), fact);
            return;
        }
        self.close(i, t, from, 0.0, hold, contacts, events, MoveKind::Charge);
    }

    /// Move `i` (already turned) straight at where it meets `t`, up to its move less `used`
    /// (gone already this turn); a contact if it gets there. `from`: where it stood before it
    /// turned.
    #[allow(clippy::too_many_arguments)]
    fn close(
        &mut self,
        i: usize,
        t: usize,
        from: Body,
        used: f64,
        hold: &[bool],
        contacts: &mut Vec<Contact>,
        events: &mut Vec<Event>,
        what: MoveKind,
    ) -> bool {
        let verb = match what {
            MoveKind::Pursue => "pursues",
            MoveKind::FollowUp => "keeps up with",
            _ => "charges",
        };
        let Some(m) = self.meeting(i, t, 180.0) else {
            self.tell(events, format!("{} cannot get forward towards {}", self.name(i), self.name(t)));
            return false;
        };
        let start = self.units[i].at;
        let start_gap = self.gap(i, t);
        let rate = self.units[i].rate();
        let way = m.hit - start;
        let dir = if m.dist > 1e-9 { way * (1.0 / m.dist) } else { volley_table::unit(self.units[i].facing) };
        let len = m.dist.min(rate - used).max(0.0);
        let facing = self.units[i].facing;
        // Enemies farther off than the one it closes with do not hold it off, unless it would
        // touch one of them where it meets it.
        let x = &self.units[i];
        let there = corners(x.kind, x.formation, m.hit, facing);
        let past = !(0..self.units.len()).any(|j| {
            let o = &self.units[j];
            j != i && j != t && o.here() && o.side != x.side && convex_distance(&there, &o.corners()) <= CONTACT + 1e-9
        });
        let mode = if what == MoveKind::Pursue {
            Mode::Pursue { target: t, past }
        } else {
            Mode::Forward { target: Some(t), past }
        };
        let went = self.travel(i, facing, dir, len, mode, None, hold, events);
        let d = went.cm;
        let reached = self.units[i].here() && self.units[t].here() && d >= m.dist - 1e-6;
        let mut stop = went.stop;
        if reached {
            self.units[i].at = m.hit;
            contacts.push(Contact {
                attacker: i,
                defender: t,
                from: start,
                facing: from.facing,
                start_gap,
                direction: m.direction,
                used: used + d,
                what,
                told_at: events.len(),
            });
            stop = Stop::Contact { unit: self.called(t) };
            if what == MoveKind::FollowUp {
                self.tell(events, format!("{} keeps up with {} and stays in contact", self.name(i), self.name(t)));
            } else {
                self.tell(events, format!("{} {verb} {} and reaches it", self.name(i), self.name(t)));
            }
        } else if what == MoveKind::FollowUp && self.units[i].here() {
            self.tell(
                events,
                format!("{} draws off out of {} reach", self.name(t), volley_core::possessive(self.name(i))),
            );
        } else if self.units[i].here() && d > 0.0 {
            self.tell(events, format!("{} {verb} towards {}", self.name(i), self.name(t)));
        } else if self.units[i].here() {
            self.tell(
                events,
                format!("{} cannot get forward towards {}: the way is blocked", self.name(i), self.name(t)),
            );
        }
        let fact = Fact::Move {
            unit: self.called(i),
            what,
            target: Some(self.called(t)),
            from,
            to: self.body(i),
            ordered: len,
            done: d,
            stop,
        };
        self.record(
            events,
            format!(
                "{} moves {d:.1} cm of its {rate} cm{}; {:.1} cm to contact at the start",
                self.name(i),
                if used > 0.0 { format!(" ({used:.1} cm gone already)") } else { String::new() },
                m.dist
            ),
            fact,
        );
        reached
    }

    /// A charger that reached its enemy, which then moved on (withdrew, advanced, turned, changed
    /// formation), keeps up with it with what is left of its move, closing as a charge does
    /// (interpretation 34). If it cannot from where it stands, it is judged from where it began
    /// its charge, with its whole move, as if the enemy had moved first: it charges again from
    /// there (so the outcome does not hang on which side led the turn). If it cannot from there
    /// either, the contact is lost where it stands and no close assault is fought.
    fn keep_up(&mut self, contacts: &mut Vec<Contact>, hold: &[bool], events: &mut Vec<Event>) {
        let mut kept = Vec::with_capacity(contacts.len());
        // The words and data of charges settled again from where they began: taken back.
        let mut retracted = Vec::new();
        for c in contacts.drain(..) {
            let (a, d) = (c.attacker, c.defender);
            if !self.units[a].here() || !self.units[d].here() || self.gap(a, d) <= CONTACT {
                kept.push(c);
                continue;
            }
            let left = (self.units[a].rate() - c.used).max(0.0);
            let from = self.body(a);
            let cannot = if self.units[a].running() {
                Some(Stop::Status { why: "broken".into() })
            } else if left <= 1e-9 {
                Some(Stop::Full)
            } else {
                match self.contact(a, d) {
                    None => Some(Stop::NotAhead),
                    Some(m) if m.dist > left + 1e-9 => Some(Stop::Full),
                    Some(m) if !self.turn_to(a, m.facing, d) => Some(Stop::NoRoom),
                    Some(_) => None,
                }
            };
            let Some(stop) = cannot else {
                let mut again = Vec::new();
                if self.close(a, d, from, c.used, hold, &mut again, events, MoveKind::FollowUp)
                    && let Some(n) = again.pop()
                {
                    kept.push(Contact { from: c.from, facing: c.facing, start_gap: c.start_gap, ..n });
                }
                continue;
            };
            if !self.units[a].running()
                && let Some(reached) = self.charge_again(&c, hold, events)
            {
                kept.extend(reached);
                retracted.push(c.told_at);
                continue;
            }
            self.tell(
                events,
                format!("{} draws off out of {} reach", self.name(d), volley_core::possessive(self.name(a))),
            );
            let fact = Fact::Move {
                unit: self.called(a),
                what: MoveKind::FollowUp,
                target: Some(self.called(d)),
                to: from.clone(),
                from,
                ordered: left,
                done: 0.0,
                stop,
            };
            self.record(
                events,
                format!("{}: {left:.1} cm of its move left; it cannot close with {} again", self.name(a), self.name(d)),
                fact,
            );
        }
        *contacts = kept;
        retracted.sort_unstable();
        for k in retracted.into_iter().rev() {
            let ours = matches!(events.get(k), Some(Event::Told { .. }))
                && matches!(events.get(k + 1).and_then(Event::fact), Some(Fact::Move { .. }));
            if ours {
                events.drain(k..k + 2);
            }
        }
    }

    /// Contact `c`'s charger, back where it began its charge and facing as it did, charges its
    /// enemy where it now stands, with its whole move ([`Battle::keep_up`]), going as far towards
    /// it as a charge would (a pursuit as a pursuit does); its first move's words and data are
    /// taken back by the caller, this one's standing for its move this turn. `None` (and the
    /// charger left where it is) if it could not close with it from there: not ahead, no room
    /// there or to turn. Else the contact, if it reached it.
    fn charge_again(&mut self, c: &Contact, hold: &[bool], events: &mut Vec<Event>) -> Option<Option<Contact>> {
        let (a, d) = (c.attacker, c.defender);
        let (at, facing) = (self.units[a].at, self.units[a].facing);
        let x = &self.units[a];
        let there = corners(x.kind, x.formation, c.from, c.facing);
        self.units[a].at = c.from;
        self.units[a].facing = c.facing;
        let from = self.body(a);
        let m = if c.what == MoveKind::Pursue { self.meeting(a, d, 180.0) } else { self.contact(a, d) };
        let ok = self.clear(a, &there, None) && m.is_some_and(|m| self.turn_to(a, m.facing, d));
        if !ok {
            self.units[a].at = at;
            self.units[a].facing = facing;
            return None;
        }
        let mut again = Vec::new();
        let reached = self.close(a, d, from, 0.0, hold, &mut again, events, c.what);
        if !reached && self.units[a].here() && self.units[d].here() {
            self.tell(
                events,
                format!("{} draws off out of {} reach", self.name(d), volley_core::possessive(self.name(a))),
            );
        }
        Some(again.pop().filter(|_| reached).map(|n| Contact {
            from: c.from,
            facing: c.facing,
            start_gap: c.start_gap,
            ..n
        }))
    }

    /// Whether enemy `j` fires in its own defence now.
    fn may_defend(&self, j: usize, hold: &[bool]) -> bool {
        let x = &self.units[j];
        x.here() && x.armed() && !x.running() && x.change.is_none() && x.fired_turn != self.turn && !hold[j]
    }

    /// Move unit `i`, facing `facing`, along `dir` up to `len`: it halts at another body, the
    /// table's edge or impassable ground, and (closing with nobody) 5 cm from an enemy; enemies
    /// it comes in reach of fire in their own defence; its status may halt it. `face`: a facing
    /// it turns to about its centre as soon as it has room on its way (a withdrawal facing its
    /// winner, a runner its way). Returns the distance gone, why it stopped and where it turned.
    #[allow(clippy::too_many_arguments)]
    fn travel(
        &mut self,
        i: usize,
        facing: f64,
        dir: volley_table::Point,
        len: f64,
        mode: Mode,
        face: Option<(f64, Option<usize>)>,
        hold: &[bool],
        events: &mut Vec<Event>,
    ) -> Went {
        if len <= 0.0 {
            return Went { cm: 0.0, stop: Stop::Full, turned_at: None };
        }
        let mut facing = facing;
        let mut turned_at = None;
        let mut start = self.units[i].at;
        let side = self.units[i].side;
        let (kind, formation) = (self.units[i].kind, self.units[i].formation);
        let reach = len + 150.0;
        let near: Vec<usize> = (0..self.units.len())
            .filter(|&j| j != i && self.units[j].here() && self.units[j].centre().dist(self.units[i].centre()) <= reach)
            .collect();
        let target = match mode {
            Mode::Forward { target, .. } => target,
            Mode::Pursue { target, .. } => Some(target),
            _ => None,
        };
        // The enemies that already have it in reach: it does not come into their reach.
        let mut in_reach: Vec<bool> = near.iter().map(|&j| self.fire_at(j, i).is_some()).collect();
        let steps = (len / STEP).ceil() as usize;
        let mut gone = 0.0;
        let mut stop = Stop::Full;
        let mut prev = self.units[i].corners();
        // A unit running away goes round what stands in its way (friends, ground it cannot
        // cross): a step blocked straight ahead is tried turned aside, 30°, 60° and 90°, on the
        // side it first turned to; the distance is counted along its path.
        let way = heading_to(Point::new(0.0, 0.0), dir);
        let mut aside = 1.0;
        let threats: Vec<usize> = if mode == Mode::Run {
            near.iter().copied().filter(|&j| self.units[j].side != side && self.gap(i, j) <= len).collect()
        } else {
            Vec::new()
        };
        for k in 1..=steps {
            let t = (k as f64 * STEP).min(len);
            let tries: &[f64] = if mode == Mode::Run { &[0.0, 30.0, -30.0, 60.0, -60.0, 90.0, -90.0] } else { &[0.0] };
            let mut step = None;
            let mut why = None;
            for &turn in tries {
                let p = if turn == 0.0 && mode != Mode::Run {
                    start + dir * t
                } else {
                    self.units[i].at + volley_table::unit(way + turn * aside) * (t - gone)
                };
                let c = corners(kind, formation, p, facing);
                let table = &self.stat().table;
                if !c.iter().all(|&q| table.contains(q)) {
                    if mode == Mode::Run {
                        self.units[i].presence = Presence::Removed;
                        self.units[i].at = p;
                        self.tell(events, format!("{} runs off the field", self.name(i)));
                        return Went { cm: t, stop: Stop::Edge, turned_at };
                    }
                    why = why.or(Some(Stop::Edge));
                    break;
                }
                // Turned aside, a runner comes no closer to the enemies it runs from.
                if !c.iter().all(|&q| table.passable(q)) {
                    why = why.or(Some(Stop::Ground));
                    continue;
                }
                if let Some(b) = self.step_block(i, &near, &c, &prev, target, mode) {
                    why = why.or(Some(self.stop_of(i, Some(b))));
                    continue;
                }
                if turn != 0.0 && self.step_block(i, &threats, &c, &prev, None, Mode::NoCloser).is_some() {
                    continue;
                }
                if turn < 0.0 {
                    aside = -aside; // it went round by the other side: it keeps to it
                }
                step = Some((p, c));
                break;
            }
            let Some((p, c)) = step else {
                stop = why.unwrap_or(Stop::Ground);
                break;
            };
            self.units[i].at = p;
            gone = t;
            prev = c;
            if let Some((f, w)) = face.filter(|&(f, _)| turned_at.is_none() && angle_between(facing, f).abs() > 1e-9) {
                let was = self.units[i].at;
                if self.wheel(i, f, w) {
                    turned_at = Some(gone);
                    start = start + (self.units[i].at - was);
                    facing = self.units[i].facing;
                    prev = self.units[i].corners();
                }
            }
            // Fire in its own defence, by each enemy it has come within reach of.
            for (k, &j) in near.iter().enumerate() {
                if self.units[j].side == side {
                    continue;
                }
                let reach = self.fire_at(j, i);
                let entered = reach.is_some() && !in_reach[k];
                in_reach[k] = reach.is_some();
                if !entered || !self.may_defend(j, hold) {
                    continue;
                }
                if let Some(kind) = reach {
                    let firer = self.units[j].step_status();
                    let range = self.gap(j, i);
                    self.tell(events, format!("{} fires in its own defence", self.name(j)));
                    self.volley(j, i, kind, firer, range, None, events);
                }
            }
            let x = &self.units[i];
            if x.running() && mode != Mode::Run {
                self.tell(events, format!("{} halts, broken", self.name(i)));
                stop = Stop::Status { why: "broken".into() };
                break;
            }
            if let Mode::Forward { .. } = mode {
                if x.step_status() <= Status::Wavering {
                    self.tell(events, format!("{} halts: it will not move closer to the enemy", self.name(i)));
                    stop = Stop::Status { why: "will not move closer to the enemy".into() };
                    break;
                }
                // At 3 or below a unit that can fire stops when an enemy comes in its reach.
                if x.step_status() <= Status::Nervous && x.armed() && self.fire_target(i).is_some() {
                    self.tell(events, format!("{} halts to fire", self.name(i)));
                    stop = Stop::Status { why: "halts to fire".into() };
                    break;
                }
            }
        }
        if gone > 0.0 {
            self.units[i].moved_turn = self.turn;
        }
        Went { cm: gone, stop, turned_at }
    }

    /// What stops a step of unit `i` to the body `c` (from `prev`), among the units `near`: it
    /// would overlap one, or come closer to an enemy (not its `target`) than the stand-off (or
    /// closer at all, when it will not move closer). Closing with its target (`mode` with
    /// `past`), an enemy farther from the body than the target is reached only through it and
    /// holds it off only from touching it (a second line behind the one it charges).
    fn step_block(
        &self,
        i: usize,
        near: &[usize],
        c: &[Point; 4],
        prev: &[Point; 4],
        target: Option<usize>,
        mode: Mode,
    ) -> Option<Block> {
        let side = self.units[i].side;
        // Closing with an enemy, how far the body is from it: an enemy farther off than that is
        // reached only through it, and does not hold it off (it may not touch it).
        let closing = matches!(mode, Mode::Forward { past: true, .. } | Mode::Pursue { past: true, .. });
        let to_target =
            target.filter(|&t| closing && self.units[t].here()).map(|t| convex_distance(c, &self.units[t].corners()));
        near.iter().copied().find_map(|j| {
            let o = &self.units[j];
            if !o.here() {
                return None;
            }
            let oc = o.corners();
            if convex_overlap(c, &oc) {
                return Some(Block::Body(j));
            }
            if o.side != side && Some(j) != target {
                let d = convex_distance(c, &oc);
                let closer = d < convex_distance(prev, &oc) - 1e-9;
                let beyond = to_target.is_some_and(|t| t < d - 1e-9);
                let held = if beyond { d <= CONTACT + 1e-9 } else { d < STAND_OFF - 1e-9 };
                (closer && (mode == Mode::NoCloser || held)).then_some(Block::StandOff(j))
            } else {
                None
            }
        })
    }

    /// Whether a step of unit `i` is stopped by one of the units `near` ([`Battle::step_block`]).
    fn step_blocked(
        &self,
        i: usize,
        near: &[usize],
        c: &[Point; 4],
        prev: &[Point; 4],
        target: Option<usize>,
        mode: Mode,
    ) -> bool {
        self.step_block(i, near, c, prev, target, mode).is_some()
    }

    /// The heading a unit running away takes: it turns its back on the enemy (interpretation
    /// 31). The enemies within its first turn's run (`len`: double its move), or the nearest if
    /// none is so near, each stand off
    /// one face of its body (front, rear, a flank), weighing more the nearer they are; it runs
    /// out of a face no enemy stands off, the one opposite the most weight (an enemy in front
    /// sends it to its rear; enemies in front and behind, out of a flank). The heading it can
    /// turn to: that one, or the nearest within 60° (in 15° steps), or the next way out; `None`
    /// (keep its facing) if it cannot turn at all. Returns (the way it runs, whether it can turn
    /// to face it).
    fn run_heading(&self, i: usize, len: f64) -> Option<(f64, bool)> {
        let x = &self.units[i];
        let side = x.side;
        let mut near: Vec<usize> = (0..self.units.len())
            .filter(|&j| self.units[j].here() && self.units[j].side != side && self.gap(i, j) <= len)
            .collect();
        if near.is_empty() {
            near.extend(self.nearest_enemy(i));
        }
        if near.is_empty() {
            return None;
        }
        let centre = x.centre();
        let (width, depth) = crate::model::size(x.kind, x.formation);
        let (ahead_dir, right_dir) = (volley_table::unit(x.facing), volley_table::unit(x.facing + 90.0));
        // Weight on each face: front, rear, right flank, left flank.
        let mut weight = [0.0f64; 4];
        for &j in &near {
            let off = self.units[j].centre() - centre;
            let ahead = off.dot(ahead_dir) / (depth / 2.0).max(1e-6);
            let right = off.dot(right_dir) / (width / 2.0).max(1e-6);
            let face = if ahead.abs() >= right.abs() {
                if ahead > 0.0 { 0 } else { 1 }
            } else if right > 0.0 {
                2
            } else {
                3
            };
            weight[face] += 1.0 / (self.gap(i, j) + 5.0);
        }
        // The ways out: through the rear (away from the front), the front, the left flank
        // (away from the right), the right flank; each with its heading and the face opposite.
        let ways =
            [(x.facing + 180.0, 1usize, 0usize), (x.facing, 0, 1), (x.facing - 90.0, 3, 2), (x.facing + 90.0, 2, 3)];
        let mut ranked: Vec<(f64, f64)> = ways
            .iter()
            .map(|&(h, through, opposite)| (norm_heading(h), weight[opposite] - 1000.0 * weight[through]))
            .collect();
        // Ways alike: the one leading farthest from the enemies, each weighed as above.
        let pull = near.iter().fold(Point::new(0.0, 0.0), |a, &j| {
            let off = self.units[j].centre() - centre;
            a + off * (1.0 / ((off.dot(off)).sqrt().max(1e-6) * (self.gap(i, j) + 5.0)))
        });
        ranked.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then_with(|| volley_table::unit(a.0).dot(pull).total_cmp(&volley_table::unit(b.0).dot(pull)))
        });
        // Enemies off two neighbouring faces (in front and on a flank): between the two ways
        // out, nearer the one from the heavier weight.
        let (first, second) = (ranked[0], ranked[1]);
        let between = ((second.0 - first.0 + 540.0) % 360.0) - 180.0;
        if first.1 > 0.0 && second.1 > 0.0 && (between.abs() - 90.0).abs() < 1e-6 {
            ranked[0].0 = norm_heading(first.0 + between * second.1 / (first.1 + second.1));
        }
        let best = ranked[0].0;
        let can_turn = |h: f64| {
            let at = centre + volley_table::unit(h) * (depth / 2.0);
            self.clear(i, &corners(x.kind, x.formation, at, h), None)
        };
        // Without turning: its first step that way, as it stands, closer to none of the enemies
        // it runs from.
        let others: Vec<usize> = (0..self.units.len()).filter(|&j| j != i && self.units[j].here()).collect();
        let can_slide = |h: f64| {
            let now = x.corners();
            let step = corners(x.kind, x.formation, x.at + volley_table::unit(h) * STEP, x.facing);
            let table = &self.stat().table;
            !step.iter().all(|&q| table.contains(q))
                || (step.iter().all(|&q| table.passable(q))
                    && !self.step_blocked(i, &others, &step, &now, None, Mode::Run)
                    && !self.step_blocked(i, &near, &step, &now, None, Mode::NoCloser))
        };
        const TRIES: [f64; 8] = [15.0, -15.0, 30.0, -30.0, 45.0, -45.0, 60.0, -60.0];
        for &(way, score) in &ranked {
            if score < ranked[0].1 - 1e-9 && score < 0.0 {
                break; // never out through a face an enemy stands off while a better way exists
            }
            if can_turn(way) {
                return Some((way, true));
            }
            if can_slide(way) {
                return Some((way, false)); // no room to turn: it runs that way as it stands
            }
            if let Some(h) = TRIES.iter().map(|d| norm_heading(way + d)).find(|&h| can_turn(h)) {
                return Some((h, true));
            }
        }
        Some((best, false))
    }

    /// A manoeuvre as data.
    fn manoeuvre_fact(&self, i: usize, ch: Change, stage: Stage) -> Fact {
        let x = &self.units[i];
        let (formation, facing) = match ch.what {
            Manoeuvre::Form { formation } => (formation, None),
            Manoeuvre::AboutFace => {
                (x.formation, Some(norm_heading(x.facing + if stage == Stage::Done { 0.0 } else { 180.0 })))
            }
            Manoeuvre::Face { facing } => (x.formation, Some(f64::from(facing))),
        };
        Fact::Manoeuvre { unit: self.called(i), formation, facing, turns: ch.left, stage, body: self.body(i) }
    }

    /// The changes of formation and facing at the end of the movement phase: each one under way
    /// has a turn less to go, and one in its last turn completes — except those of units `held`
    /// (an enemy's charge reached them this turn), which wait for the melee (interpretation 34).
    fn complete_changes(&mut self, held: &[usize], events: &mut Vec<Event>) {
        let turn = self.turn;
        for i in 0..self.units.len() {
            let Some(ch) = self.units[i].change else { continue };
            if !self.units[i].here() {
                continue;
            }
            self.units[i].moved_turn = turn;
            if ch.left > 1 {
                self.units[i].change = Some(Change { left: ch.left - 1, ..ch });
                continue;
            }
            if held.contains(&i) {
                continue;
            }
            self.finish_change(i, ch, events);
        }
    }

    /// The units whose change completes this turn that an enemy's charge has reached and still
    /// touches: caught in the change, they fight as they stand (interpretation 34).
    fn caught_changing(&self, contacts: &[Contact]) -> Vec<usize> {
        let mut held: Vec<usize> = contacts
            .iter()
            .filter(|c| {
                let d = &self.units[c.defender];
                d.here()
                    && d.change.is_some_and(|ch| ch.left <= 1)
                    && self.units[c.attacker].here()
                    && self.gap(c.attacker, c.defender) <= CONTACT
            })
            .map(|c| c.defender)
            .collect();
        held.sort_unstable();
        held.dedup();
        held
    }

    /// After the melee, the changes of the units caught in them: completed by those still on the
    /// table and not beaten (a close assault that beat it, or broke it, ends its change).
    fn finish_held_changes(&mut self, held: &[(usize, Change)], events: &mut Vec<Event>) {
        for &(i, ch) in held {
            let x = &self.units[i];
            let beaten = x.fought.is_some_and(|(t, f)| t == self.turn && f == Fought::Lost);
            if !x.here() || x.running() || beaten {
                self.units[i].change = None;
                if self.units[i].here() {
                    self.break_off(i, ch, if beaten { "beaten in its close assault" } else { "broken" }, events);
                }
                continue;
            }
            self.finish_change(i, ch, events);
        }
    }

    /// Complete unit `i`'s change `ch` where it stands, if its new body has room (else it is
    /// given up).
    fn finish_change(&mut self, i: usize, ch: Change, events: &mut Vec<Event>) {
        let turn = self.turn;
        let x = &self.units[i];
        let (_, depth) = crate::model::size(x.kind, x.formation);
        let (formation, at, facing) = match ch.what {
            // The new formation keeps the centre of the old one's front.
            Manoeuvre::Form { formation } => (formation, x.at, x.facing),
            Manoeuvre::AboutFace => {
                (x.formation, x.at - volley_table::unit(x.facing) * depth, norm_heading(x.facing + 180.0))
            }
            // Turning about its centre.
            Manoeuvre::Face { facing } => {
                let h = f64::from(facing);
                (x.formation, x.centre() + volley_table::unit(h) * (depth / 2.0), h)
            }
        };
        let c = corners(x.kind, formation, at, facing);
        if !self.room(i, &c, None) {
            // No room for the new formation where it stands: the change is given up.
            self.units[i].change = None;
            self.tell(events, format!("{} has no room to finish its change and gives it up", self.name(i)));
            let fact = self.manoeuvre_fact(i, ch, Stage::GivenUp);
            self.record(
                events,
                format!("{}: its new body would stand on another or off its ground", self.name(i)),
                fact,
            );
            return;
        }
        let old = x.formation;
        let x = &mut self.units[i];
        x.formation = formation;
        x.at = at;
        x.facing = facing;
        x.change = None;
        if formation == Formation::Square && old != Formation::Square {
            x.formed_square = Some((turn, old));
        }
        let words = match ch.what {
            Manoeuvre::Form { formation: f @ (Formation::Limbered | Formation::Deployed) } => {
                format!("{} is now {}", self.name(i), f.name())
            }
            Manoeuvre::Form { formation } => format!("{} is now in {}", self.name(i), formation.name()),
            Manoeuvre::AboutFace => format!("{} has faced about", self.name(i)),
            Manoeuvre::Face { facing } => format!("{} now faces {}", self.name(i), super::bearing_words(facing)),
        };
        self.tell(events, words);
        let fact = self.manoeuvre_fact(i, ch, Stage::Done);
        self.record(events, format!("{}: the change is done", self.name(i)), fact);
    }

    /// Unit `u` as the calculator's party to a close assault: its arm, status, formation, order,
    /// the senior officer with it, and infantry that fired last turn.
    pub(crate) fn party(&self, u: usize) -> Party {
        let x = &self.units[u];
        let mut p = Party::new(x.arm(), x.step_status(), combat_formation(x.formation));
        p.disordered = x.is_disordered();
        p.senior_officer = self.officer_with(u);
        p.fired_last_turn = x.arm() == Arm::Infantry && x.fired_in(self.turn - 1);
        p
    }

    /// Whether infantry `d` defends a major defensive feature against an attack from `from`: in a
    /// town, or behind a wall or works.
    fn defends_feature(&self, d: usize, from: Point) -> bool {
        let x = &self.units[d];
        if x.arm() != Arm::Infantry {
            return false;
        }
        let table = &self.stat().table;
        let centre = x.centre();
        table.inside(volley_table::TerrainKind::Town, centre)
            || matches!(table.cover(x.at, from), volley_table::Cover::Wall | volley_table::Cover::Works)
            || matches!(table.cover(centre, from), volley_table::Cover::Wall | volley_table::Cover::Works)
    }

    /// The melee phase: each enemy reached, with every unit in contact with it that reached it.
    /// A failed attacker stops short of the enemy (5 cm) once every assault is fought, unless it
    /// is in another of this turn's assaults.
    fn melee(&mut self, contacts: &[Contact], held: &[(usize, Change)], events: &mut Vec<Event>) {
        let changes: Vec<Option<Change>> = self.units.iter().map(|x| x.change).collect();
        let live: Vec<Contact> = contacts
            .iter()
            .filter(|c| {
                let (a, d) = (&self.units[c.attacker], &self.units[c.defender]);
                a.here() && !a.running() && d.here() && self.gap(c.attacker, c.defender) <= CONTACT
            })
            .copied()
            .collect();
        // Two units that charged each other (interpretation 40): both willing, they fight one
        // close assault in which both are attackers, drawn if equal in step two; one willing, it
        // is the attacker (the other's attack fails first, if it reached the other first); neither,
        // each attack fails in turn.
        let mut dropped = vec![false; live.len()];
        let mut drawn_on_tie = vec![false; live.len()];
        for k in 0..live.len() {
            for m in k + 1..live.len() {
                let (c, e) = (live[k], live[m]);
                if dropped[k] || dropped[m] || e.attacker != c.defender || e.defender != c.attacker {
                    continue;
                }
                match (self.willing(&live, k), self.willing(&live, m)) {
                    (true, true) => (dropped[m], drawn_on_tie[k]) = (true, true),
                    (true, false) => dropped[m] = true, // it defends in the other's assault anyway
                    (false, _) => {}
                }
            }
        }
        let live: Vec<(Contact, bool)> =
            live.into_iter().zip(drawn_on_tie).zip(dropped).filter(|(_, gone)| !gone).map(|(c, _)| c).collect();
        let mut defenders: Vec<usize> = Vec::new();
        let mut fights = vec![0u8; self.units.len()];
        for (c, _) in &live {
            if !defenders.contains(&c.defender) {
                defenders.push(c.defender);
            }
            fights[c.attacker] += 1;
            fights[c.defender] += 1;
        }
        let mut fought = Vec::new();
        for d in defenders {
            let group: Vec<Contact> = live.iter().filter(|(c, _)| c.defender == d).map(|(c, _)| *c).collect();
            let mutual = live.iter().any(|(c, tie)| c.defender == d && *tie);
            fought.push(self.assault(d, &group, mutual));
        }
        let index = |b: &Battle, name: &str| b.stat().unit_names.iter().position(|n| n == name).unwrap_or(0);
        for f in &mut fought {
            let Fact::Assault { attackers, defender, .. } = &mut f.fact else { continue };
            let d = index(self, defender);
            for att in attackers.iter_mut().filter(|a| !a.closed) {
                let a = index(self, &att.unit);
                if fights[a] > 1 {
                    att.stood_off = Some(0.0);
                    continue;
                }
                let back = self.stand_off(a, d);
                att.stood_off = Some(back);
                if back < CONTACT {
                    f.told.push(format!("{} cannot draw back from the enemy", self.name(a)));
                }
            }
        }
        for f in fought {
            for t in f.told {
                self.tell(events, t);
            }
            self.record(events, f.explained, f.fact);
        }
        // A change of formation or facing a close assault ended (those caught in their last turn
        // of it are settled after the melee).
        for (i, ch) in changes.into_iter().enumerate() {
            if let Some(ch) = ch
                && self.units[i].change.is_none()
                && !held.iter().any(|&(h, _)| h == i)
            {
                self.break_off(i, ch, "its close assault", events);
            }
        }
    }

    /// A failed attacker stops short of `d`: straight back from its front as far as the ground
    /// lets it, up to the stand-off, coming no nearer another enemy than the stand-off (as any
    /// move). Returns how far it went.
    fn stand_off(&mut self, a: usize, d: usize) -> f64 {
        let x = &self.units[a];
        let (start, back) = (x.at, volley_table::unit(x.facing) * -1.0);
        let others: Vec<usize> = (0..self.units.len()).filter(|&j| j != a && self.units[j].here()).collect();
        let mut went = 0.0;
        let mut prev = x.corners();
        for k in 1..=((STAND_OFF / STEP).round() as usize) {
            let s = k as f64 * STEP;
            let x = &self.units[a];
            let c = corners(x.kind, x.formation, start + back * s, x.facing);
            if !self.clear(a, &c, None) || self.step_blocked(a, &others, &c, &prev, Some(d), Mode::Back) {
                break;
            }
            went = s;
            prev = c;
        }
        self.units[a].at = start + back * went;
        went
    }

    /// The calculator's close assault for contact `c`: the two parties as they stand, the face
    /// met, outnumbering, and cavalry against a square forming by its distance.
    fn terms(&self, c: &Contact, outnumbering: bool) -> Assault {
        let (a, d) = (c.attacker, c.defender);
        let attacker = self.party(a);
        let mut defender = self.party(d);
        defender.defending_feature = self.defends_feature(d, c.from);
        let cavalry = attacker.arm == Arm::Cavalry;
        let x = &self.units[d];
        // Forming square this turn: formed already, or caught in its last turn of forming it
        // (interpretation 34); "forming square" to the infantry, and to the cavalry by its
        // distance.
        let formed = x.formed_square.filter(|&(t, _)| t == self.turn && x.formation == Formation::Square);
        let forming =
            x.change.is_some_and(|ch| ch.left <= 1 && ch.what == (Manoeuvre::Form { formation: Formation::Square }));
        let before = formed.map(|(_, f)| f).or(forming.then_some(x.formation));
        if let (Some(before), true) = (before, cavalry) {
            defender.forming_square = true;
            defender.formation = combat_formation(before);
        }
        let mut asl = Assault::new(attacker, defender);
        asl.direction = c.direction;
        asl.outnumbering = outnumbering;
        asl.cavalry_within_half_a_turn = cavalry && c.start_gap <= self.units[a].rate() / 2.0 + 1e-9;
        asl
    }

    /// Whether the attacker of `live[k]` passes step one as things stand.
    fn willing(&self, live: &[Contact], k: usize) -> bool {
        let c = &live[k];
        let outnumbering = live.iter().filter(|e| e.defender == c.defender).count() > 1;
        let one = self.terms(c, outnumbering).step_one();
        one[0].total >= one[1].total
    }

    /// The close assault on `d` by every unit of `group` that reached it; `mutual`: one of them
    /// was charged by `d` too, and both would close: both are attackers, and a tie is drawn
    /// (interpretation 40).
    fn assault(&mut self, d: usize, group: &[Contact], mutual: bool) -> Fight {
        let turn = self.turn;
        let outnumbering = group.len() > 1;
        let mut closed: Vec<(usize, Assault)> = Vec::new();
        let mut told = Vec::new();
        let mut explained = Vec::new();
        let mut parts = Vec::new();
        let body = self.body(d);
        for c in group {
            let a = c.attacker;
            let asl = self.terms(c, outnumbering);
            let one = asl.step_one();
            explained.push(format!(
                "{} against {}, step one: {} {} against {} {}",
                self.name(a),
                self.name(d),
                self.name(a),
                terms_text(&one[0]),
                self.name(d),
                terms_text(&one[1])
            ));
            let willing = one[0].total >= one[1].total;
            parts.push(Attacker {
                unit: self.called(a),
                body: self.body(a),
                direction: c.direction,
                gap: self.gap(a, d),
                step_one: [Figure::from(&one[0]), Figure::from(&one[1])],
                closed: willing,
                stood_off: None,
            });
            if willing {
                closed.push((a, asl));
            } else {
                // Stops 5 cm short (once every assault is fought), DISORDERED.
                let x = &mut self.units[a];
                x.disorder(turn);
                x.engaged_turn = turn;
                x.fought = Some((turn, Fought::Drawn));
                told.push(format!("{} will not close with {}: it halts short, disordered", self.name(a), self.name(d)));
            }
        }
        let mut fact = Fact::Assault {
            defender: self.called(d),
            body,
            attackers: parts,
            outnumbering,
            mutual,
            step_two: None,
            best: None,
            attackers_won: None,
            results: Vec::new(),
        };
        if closed.is_empty() {
            return Fight { told, explained: format!("{}: the attack fails", explained.join("; ")), fact };
        }
        // Step two: each side's highest unit with its modifiers (I-27).
        let (best, two) = closed
            .iter()
            .map(|(a, asl)| (*a, asl.step_two()))
            .max_by_key(|(_, two)| two[0].total)
            .unwrap_or((closed[0].0, closed[0].1.step_two()));
        let artillery = self.units[d].arm() == Arm::Artillery;
        if mutual && !artillery && two[0].total == two[1].total {
            return self.drawn(d, &closed, best, two, told, explained, fact);
        }
        let attacker_won = artillery || two[0].total >= two[1].total;
        explained.push(format!(
            "step two: {} {} against {} {}{}",
            self.name(best),
            terms_text(&two[0]),
            self.name(d),
            terms_text(&two[1]),
            if artillery {
                ": artillery closed with always loses".to_string()
            } else if two[0].total == two[1].total {
                ": equal, the attacker wins".to_string()
            } else {
                String::new()
            }
        ));
        let attackers: Vec<usize> = closed.iter().map(|c| c.0).collect();
        let mut results: Vec<(usize, bool, usize)> = attackers.iter().map(|&a| (a, attacker_won, d)).collect();
        results.push((d, !attacker_won, best));
        // The losers first, so that a winner knows whether its loser is still there to pursue
        // (a battery closed with is destroyed); told in the order of `results`.
        let mut words = vec![String::new(); results.len()];
        let mut why = vec![String::new(); results.len()];
        let mut data: Vec<Option<UnitResult>> = vec![None; results.len()];
        for pass in [false, true] {
            for (k, &(u, won, other_unit)) in results.iter().enumerate() {
                if won == pass {
                    let (w, y, r) = self.ends(u, won, other_unit);
                    (words[k], why[k], data[k]) = (w, y, Some(r));
                }
            }
        }
        explained.extend(why);
        let names: Vec<&str> = attackers.iter().map(|&a| self.name(a)).collect();
        told.push(format!(
            "{} close{} with {}: {} win{}. {}",
            names.join(" and "),
            if names.len() == 1 { "s" } else { "" },
            self.name(d),
            if attacker_won { names.join(" and ") } else { self.name(d).to_string() },
            if attacker_won && names.len() > 1 { "" } else { "s" },
            words.join("; ")
        ));
        if let Fact::Assault { step_two, best: b, attackers_won, results: r, .. } = &mut fact {
            *step_two = Some([Figure::from(&two[0]), Figure::from(&two[1])]);
            *b = Some(self.called(best));
            *attackers_won = Some(attacker_won);
            *r = data.into_iter().flatten().collect();
        }
        Fight { told, explained: explained.join("; "), fact }
    }

    /// A close assault between two units that charged each other, equal in step two: "the attacker
    /// wins" names no winner when both are attackers, and the text knows a drawn fight ("First line
    /// drawn"). Nobody loses status or moves for it; all are DISORDERED (interpretation 40).
    #[allow(clippy::too_many_arguments)]
    fn drawn(
        &mut self,
        d: usize,
        closed: &[(usize, Assault)],
        best: usize,
        two: [combat::Reckoning; 2],
        mut told: Vec<String>,
        mut explained: Vec<String>,
        mut fact: Fact,
    ) -> Fight {
        let turn = self.turn;
        explained.push(format!(
            "step two: {} {} against {} {}: equal, and both charged: neither is the attacker, the fight is drawn",
            self.name(best),
            terms_text(&two[0]),
            self.name(d),
            terms_text(&two[1])
        ));
        let mut data = Vec::new();
        for u in closed.iter().map(|c| c.0).chain([d]) {
            let lines = self.units[u].lines().to_vec();
            let was = self.units[u].status;
            let x = &mut self.units[u];
            x.disorder(turn);
            x.engaged_turn = turn;
            x.change = None;
            x.fought = Some((turn, Fought::Drawn));
            x.pending = Pending::None;
            data.push(UnitResult {
                unit: self.called(u),
                won: false,
                lines: self.changes(u, was, &lines),
                next: NextTurn::Drawn,
            });
        }
        let names: Vec<&str> = closed.iter().map(|c| self.name(c.0)).collect();
        told.push(format!(
            "{} and {} close with each other: neither gives way, and all are disordered",
            names.join(" and "),
            self.name(d)
        ));
        if let Fact::Assault { step_two, best: b, results, .. } = &mut fact {
            *step_two = Some([Figure::from(&two[0]), Figure::from(&two[1])]);
            *b = Some(self.called(best));
            *results = data;
        }
        Fight { told, explained: explained.join("; "), fact }
    }

    /// Apply the results table to unit `u` (won or lost against `foe`): each line by its own
    /// status band (I-28); DISORDERED; what it does next turn. Returns the words for the players,
    /// the explanation and the result as data.
    fn ends(&mut self, u: usize, won: bool, foe: usize) -> (String, String, UnitResult) {
        let turn = self.turn;
        let x = &self.units[u];
        let arm = x.arm();
        let before = x.step_status();
        let was = x.status;
        let was_running = x.running();
        let lines: Vec<usize> = x.lines().to_vec();
        let band_result = assault_result(arm, won, before.band());
        let mut explained = Vec::new();
        for &l in &lines {
            let s = self.units[u].status[l];
            let r = assault_result(arm, won, s.band());
            let now = s.dropped(r.lost, Status::RunningAway);
            explained.push(format!(
                "{}{} {} {} ({}): {} {} -> {}",
                self.name(u),
                if lines.len() > 1 { format!(" line {}", l + 1) } else { String::new() },
                if won { "winner" } else { "loser" },
                s.level(),
                match s.band() {
                    crate::tables::Band::High => "5-6",
                    crate::tables::Band::Middle => "3-4",
                    crate::tables::Band::Low => "1-2",
                },
                after_words(r.after),
                if r.lost > 0 { format!("-{} status", r.lost) } else { "no status lost".into() },
                now.level()
            ));
            self.units[u].status[l] = now;
        }
        let x = &mut self.units[u];
        x.disorder(turn);
        x.engaged_turn = turn;
        x.change = None;
        x.fought = Some((turn, if won { Fought::Won } else { Fought::Lost }));
        let now = x.step_status();
        let destroyed = matches!(band_result.after, After::Destroyed);
        let words;
        let next;
        if destroyed {
            x.presence = Presence::Destroyed;
            words = format!("{} is overrun and destroyed", self.name(u));
            next = NextTurn::Destroyed;
        } else if x.running() {
            x.pending = Pending::None;
            if was_running {
                // Its first turn of running is behind it: it runs on at its normal move.
                words = format!("{} runs on", self.name(u));
                next = NextTurn::RunsOn;
            } else {
                x.ran = 0;
                words = format!("{} breaks and runs", self.name(u));
                next = NextTurn::Runs;
            }
        } else {
            x.pending = match band_result.after {
                After::Pursue => Pending::Pursue { target: foe as u16 },
                After::MayPursue => Pending::MayPursue { target: foe as u16 },
                After::Withdraw { cm } => Pending::Withdraw { cm, from: foe as u16 },
                After::Destroyed => Pending::None,
            };
            let gone = !self.units[foe].here();
            (words, next) = match band_result.after {
                After::Pursue | After::MayPursue if gone => {
                    (format!("{} has nobody left to pursue and halts, {now}", self.name(u)), NextTurn::NobodyToPursue)
                }
                After::Pursue => (format!("{} will pursue, {now}", self.name(u)), NextTurn::Pursue),
                After::MayPursue => (format!("{} may pursue, {now}", self.name(u)), NextTurn::MayPursue),
                After::Withdraw { cm } => {
                    (format!("{} must fall back, {now}", self.name(u)), NextTurn::Withdraw { cm })
                }
                After::Destroyed => (format!("{} must fall back, {now}", self.name(u)), NextTurn::Destroyed),
            };
        }
        let result = UnitResult { unit: self.called(u), won, lines: self.changes(u, was, &lines), next };
        (words, explained.join(", "), result)
    }

    /// Cavalry back from a pursuit; then recovery of status and re-ordering (the cavalry back
    /// first: a unit they stand within 30 cm of at the turn's end does not rally that turn).
    fn recovery(&mut self, events: &mut Vec<Event>) {
        let turn = self.turn;
        // Cavalry back from a pursuit, beside their command group, DISORDERED.
        for i in 0..self.units.len() {
            if self.units[i].presence == (Presence::Away { back: turn }) {
                self.come_back(i, events);
            }
        }
        for i in 0..self.units.len() {
            if !self.units[i].here() {
                continue;
            }
            // Re-ordering: a whole turn still and not firing, begun after the disorder (I-23). A
            // unit in a close assault this turn is disordered by it; one fired at without effect
            // may still re-order.
            let x = &self.units[i];
            if !x.ordered()
                && !x.running()
                && x.moved_turn < turn
                && x.fired_turn < turn
                && x.disordered_turn < turn
                && x.change.is_none()
            {
                self.units[i].disordered = [false; 2];
                self.tell(events, format!("{} has stood still and re-ordered", self.name(i)));
                let fact = Fact::Reordered { unit: self.called(i) };
                self.record(
                    events,
                    format!("{}: a whole turn still and not firing, begun after its disorder", self.name(i)),
                    fact,
                );
            }
            let cavalry_near = self.enemy_cavalry_near(i);
            let musket = self.units[i].musket_turn == turn;
            // The commander's rallying: two turns in a row with him (I-20).
            if self.officer_with(i) && !musket && !cavalry_near {
                self.units[i].rallied += 1;
            } else {
                self.units[i].rallied = 0;
            }
            if self.units[i].rallied >= 2 {
                self.units[i].rallied = 0;
                let side = self.units[i].side;
                let who = self.officers[usize::from(side)].name.clone();
                self.raise(i, Status::Pugnacious, &who, true, events);
            }
            // Reinforcement: a higher-status friend within 10 cm, both still (I-21).
            let partner = self.support_partner(i, musket, cavalry_near);
            let x = &mut self.units[i];
            x.support = match (partner, x.support) {
                (Some(p), Some((q, n))) if p as u16 == q => Some((q, n + 1)),
                (Some(p), _) => Some((p as u16, 1)),
                (None, _) => None,
            };
            if let Some((p, n)) = self.units[i].support
                && n >= 2
            {
                self.units[i].support = None;
                let cap = self.units[usize::from(p)].step_status();
                let by = self.called(usize::from(p));
                self.raise(i, cap, &by, false, events);
            }
        }
    }

    fn enemy_cavalry_near(&self, i: usize) -> bool {
        let side = self.units[i].side;
        (0..self.units.len()).any(|j| {
            let o = &self.units[j];
            o.here() && o.side != side && o.kind == Kind::Cavalry && self.gap(i, j) <= CAVALRY_NEAR + 1e-9
        })
    }

    fn support_partner(&self, i: usize, musket: bool, cavalry_near: bool) -> Option<usize> {
        let x = &self.units[i];
        if musket || cavalry_near || x.moved_turn == self.turn || x.running() {
            return None;
        }
        (0..self.units.len()).find(|&j| {
            let o = &self.units[j];
            j != i
                && o.here()
                && o.side == x.side
                && !o.running()
                && o.step_status() > x.step_status()
                && o.moved_turn != self.turn
                && o.musket_turn != self.turn
                && self.gap(i, j) <= SUPPORT + 1e-9
                && !self.enemy_cavalry_near(j)
        })
    }

    /// Raise `i`'s status one level, never above `cap`: every label of the unit (a cavalry
    /// regiment's two lines, in column too: the unit is rallied, not one line of it). `by`: the
    /// commander rallying it, or the friend steadying it.
    fn raise(&mut self, i: usize, cap: Status, by: &str, commander: bool, events: &mut Vec<Event>) {
        let was = self.units[i].step_status();
        let labels = self.units[i].status;
        let mut up = false;
        for &l in self.labels(i) {
            let s = self.units[i].status[l];
            let to = Status::of(i32::from(s.level()) + 1).min(cap.max(s));
            if to > s {
                self.units[i].status[l] = to;
                up = true;
            }
        }
        if !up {
            return;
        }
        let x = &mut self.units[i];
        if was == Status::RunningAway {
            x.ran = 0;
        }
        let now = x.step_status();
        let why = if commander { format!("rallied by {by}") } else { format!("steadied by {by} beside it") };
        self.tell(events, format!("{} is {why}: now {now}", self.name(i)));
        let fact = Fact::Rally {
            unit: self.called(i),
            by: by.to_string(),
            commander,
            lines: self.changes(i, labels, self.labels(i)),
        };
        self.record(events, format!("{}: status {} -> {}", self.name(i), was.level(), now.level()), fact);
    }

    fn come_back(&mut self, i: usize, events: &mut Vec<Event>) {
        let side = self.units[i].side;
        let hq = self.stat().hq[usize::from(side)];
        let facing = self.stat().rear[usize::from(side)].inward();
        let (kind, formation) = (self.units[i].kind, self.units[i].formation);
        let right = volley_table::unit(facing + 90.0);
        let fwd = volley_table::unit(facing);
        // "Next to the HQ flag": beside it first (its flank 1.5 cm from the flag), then farther
        // along the line of the flag, or a little before or behind it, where there is room.
        let (width, _) = crate::model::size(kind, formation);
        let mut spots = Vec::new();
        for k in 0..12 {
            for s in [1.0, -1.0] {
                for f in [0.0, 15.0, -15.0, 40.0] {
                    spots.push(hq + right * (s * (width / 2.0 + 1.5 + 20.0 * f64::from(k))) + fwd * f);
                }
            }
        }
        for p in spots {
            let c = corners(kind, formation, p, facing);
            if self.clear(i, &c, None) {
                let turn = self.turn;
                let x = &mut self.units[i];
                x.presence = Presence::Here;
                x.at = p;
                x.facing = norm_heading(facing);
                x.pending = Pending::None;
                x.card = Order::Halt;
                x.disordered = [true; 2];
                x.disordered_turn = turn;
                x.moved_turn = turn;
                self.tell(events, format!("{} rally back beside their command group, disordered", self.name(i)));
                let fact = Fact::Returned { unit: self.called(i), body: self.body(i) };
                self.record(events, format!("{}: back from its pursuit after {AWAY_TURNS} turns", self.name(i)), fact);
                return;
            }
        }
        self.units[i].presence = Presence::Away { back: self.turn + 1 };
        self.tell(events, format!("{} find no room beside their command group yet", self.name(i)));
    }

    /// The optional roll for personal risk: a die for each senior officer with a unit that was
    /// under fire or in a close assault this turn; on a 1 he falls.
    fn personal_risk(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        for s in 0..2u8 {
            let o = &self.officers[usize::from(s)];
            if !o.present {
                continue;
            }
            let Some(u) = o.with else { continue };
            let Some(x) = self.units.get(usize::from(u)) else { continue };
            if x.engaged_turn != self.turn {
                continue;
            }
            let name = o.name.clone();
            let die = chance.draw(&DrawKind::Die { sides: 6 }, &format!("personal risk: {name}"))?;
            let fact = Fact::PersonalRisk { officer: name.clone(), die, fell: die == 1 };
            self.record(events, format!("personal risk: {name} rolls {die} (falls on a 1)"), fact);
            if die == 1 {
                self.officers[usize::from(s)].present = false;
                self.officers[usize::from(s)].with = None;
                self.tell(events, format!("{name} falls"));
            }
        }
        Ok(())
    }

    fn end_turn(&mut self, events: &mut Vec<Event>) {
        for x in &mut self.units {
            x.joined = false;
            x.second_line = false;
            x.carded = false;
        }
        self.update_holders();
        if let Some(o) = self.decide() {
            events.push(Event::Over { winner: o.winner, text: o.reason.clone() });
            self.outcome = Some(o);
            self.phase = Phase::Over;
            return;
        }
        self.turn += 1;
        events.push(Event::Turn { turn: self.turn });
        let present: Vec<bool> = self.units.iter().map(Unit::here).collect();
        for x in &mut self.units {
            if let Order::Charge { target } = x.card
                && !present.get(usize::from(target)).copied().unwrap_or(false)
            {
                x.card = Order::Halt;
            }
            x.card_before = x.card;
        }
        self.phase = Phase::Orders { side: 0 };
    }
}

fn after_words(a: After) -> String {
    match a {
        After::Pursue => "pursue",
        After::MayPursue => "may pursue",
        After::Withdraw { cm } => return format!("withdraw {cm} cm"),
        After::Destroyed => "destroyed",
    }
    .into()
}

impl Battle {
    /// What this turn would bring if the orders given so far stand (the other cards as they
    /// are): every happening in words and with the rules behind it, for Game Control. The
    /// personal-risk roll is left out (it is the game's one chance).
    pub fn forecast(&self) -> Vec<String> {
        let mut b = self.clone();
        let mut ev = Vec::new();
        b.sequence(&mut ev);
        ev.into_iter()
            .filter_map(|e| match e {
                Event::Told { text } => Some(text),
                Event::Explained { text, .. } => Some(format!("({text})")),
                _ => None,
            })
            .collect()
    }
}
