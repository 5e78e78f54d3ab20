//! Fire and close assault as pure functions of a described situation: the umpire's calculator.
//! There are no dice: a situation has one outcome, explained by the table cell and every modifier
//! that made it. Where the rules leave a choice to a player (an infantry winner of status 5–6
//! may pursue or not), the situation says which (`winner_pursues`), or the outcome says that the
//! player chooses.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::Chance;
use volley_core::calc::{CalcError, Calculator, OutcomeProbability};

use crate::tables::{After, Arm, Density, Effect, FireEffect, FireKind, Status, assault_result, fire_effect};

/// A fire: its kind, the firer's status, the target's status and density.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fire {
    /// The kind of fire (a row of the table).
    pub kind: FireKind,
    /// The firer's status.
    pub firer: Status,
    /// The target's status.
    pub target: Status,
    /// The target's density: dense (all cavalry, square, attack or march column, limbered guns)
    /// or loose (line, light infantry, guns deployed).
    pub density: Density,
    /// The distance in centimetres, if known: checked against the kind's range.
    #[serde(default)]
    pub range_cm: Option<f64>,
}

/// How a unit stands, for the close assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Infantry or cavalry in line.
    Line,
    /// Infantry in assault (attack) column, or cavalry in column.
    Column,
    /// Infantry in march column.
    MarchColumn,
    /// Infantry in square.
    Square,
    /// Artillery limbered.
    Limbered,
    /// Artillery deployed.
    Deployed,
}

impl Formation {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::MarchColumn => "march column",
            Formation::Square => "square",
            Formation::Limbered => "limbered",
            Formation::Deployed => "deployed",
        }
    }
}

/// Where the attack comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// On the front.
    #[default]
    Front,
    /// On the flank (+1).
    Flank,
    /// On the rear (+2).
    Rear,
}

/// One side of a close assault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Party {
    /// Its arm.
    pub arm: Arm,
    /// Its status.
    pub status: Status,
    /// Its formation.
    pub formation: Formation,
    /// DISORDERED (−1 to its willingness).
    #[serde(default)]
    pub disordered: bool,
    /// The senior officer personally involved (+1 to its willingness).
    #[serde(default)]
    pub senior_officer: bool,
    /// Infantry that fired their muskets last turn (−1, attacking or defending).
    #[serde(default)]
    pub fired_last_turn: bool,
    /// Infantry defending a major defensive feature, such as field defences or a building (the
    /// defender's +1, in both steps).
    #[serde(default)]
    pub defending_feature: bool,
    /// Infantry forming square this turn, against a cavalry attack (the defender's −1).
    #[serde(default)]
    pub forming_square: bool,
}

impl Party {
    /// A unit of `arm` and `status` in `formation`, ordered, with nothing else to its name.
    pub fn new(arm: Arm, status: Status, formation: Formation) -> Self {
        Party {
            arm,
            status,
            formation,
            disordered: false,
            senior_officer: false,
            fired_last_turn: false,
            defending_feature: false,
            forming_square: false,
        }
    }
}

impl Assault {
    /// `attacker` against `defender` from the front, with nothing else to the situation.
    pub fn new(attacker: Party, defender: Party) -> Self {
        Assault {
            attacker,
            defender,
            direction: Direction::Front,
            outnumbering: false,
            cavalry_within_half_a_turn: false,
            winner_pursues: None,
        }
    }
}

/// A close assault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Assault {
    /// The attacker.
    pub attacker: Party,
    /// The unit facing it.
    pub defender: Party,
    /// Front, flank or rear.
    #[serde(default)]
    pub direction: Direction,
    /// The attackers outnumber the defenders (+1).
    #[serde(default)]
    pub outnumbering: bool,
    /// Cavalry against a square still forming: the cavalry are half a turn's move away or closer
    /// (then the infantry are not yet in square from the cavalry's point of view).
    #[serde(default)]
    pub cavalry_within_half_a_turn: bool,
    /// An infantry winner of status 5–6 pursues (the player's choice); none: not chosen yet.
    #[serde(default)]
    pub winner_pursues: Option<bool>,
}

/// What the calculator works out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// A fire.
    Fire(Fire),
    /// A close assault.
    Assault(Assault),
}

/// A modifier and the words of the line it comes from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Term {
    /// The text's words.
    pub why: &'static str,
    /// Its value.
    pub value: i32,
}

/// One side's figure in a step: its status and the modifiers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reckoning {
    /// Its status.
    pub status: Status,
    /// The modifiers.
    pub terms: Vec<Term>,
    /// The total.
    pub total: i32,
}

/// What one unit does after a close assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Ends {
    /// Its status after.
    pub status: Status,
    /// What it does next turn.
    pub after: Next,
    /// DISORDERED.
    pub disordered: bool,
}

/// What a unit does the turn after a close assault.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Next {
    /// Stays where it is (an attack that failed to close stops 5 cm short).
    Stays,
    /// Pursues the beaten enemy.
    Pursues,
    /// Its player chooses whether it pursues.
    MayPursue,
    /// Withdraws, backwards facing the enemy.
    Withdraws {
        /// Centimetres.
        cm: u8,
    },
    /// Runs away (status 0): double its move this first turn, facing away.
    RunsAway,
    /// Destroyed.
    Destroyed,
}

/// What a situation comes to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// The target's status after the fire.
    Fire {
        /// Levels dropped.
        dropped: u8,
        /// The status after.
        status: Status,
    },
    /// A close assault's.
    Assault {
        /// The attack closed (step one).
        closed: bool,
        /// The attacker won (step two).
        attacker_won: bool,
        /// The attacker's end.
        attacker: Ends,
        /// The defender's end.
        defender: Ends,
    },
}

/// A situation resolved with its explanation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// A fire.
    Fire {
        /// The situation.
        fire: Fire,
        /// The table's cell and what it did.
        effect: FireEffect,
    },
    /// A close assault.
    Assault {
        /// The situation.
        assault: Assault,
        /// Step one: each side's willingness.
        step_one: [Reckoning; 2],
        /// Step two, if the attack closed.
        step_two: Option<[Reckoning; 2]>,
        /// Artillery closed with (it always loses).
        artillery: bool,
        /// What it came to.
        outcome: Outcome,
    },
}

/// The En Avant calculator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combat;

fn reckon(status: Status, terms: Vec<Term>) -> Reckoning {
    let total = i32::from(status.level()) + terms.iter().map(|t| t.value).sum::<i32>();
    Reckoning { status, terms, total }
}

impl Fire {
    fn check(&self) -> Result<(), CalcError> {
        if let Some(r) = self.range_cm {
            let (least, most) = self.kind.range();
            if !r.is_finite() || r < 0.0 {
                return Err(CalcError::field("range_cm", "a distance in centimetres, 0 or more"));
            }
            if r > most || (least > 0.0 && r <= least) {
                return Err(CalcError::field(
                    "range_cm",
                    format!(
                        "{} reaches {}{most} cm, not {r} cm",
                        self.kind.words(),
                        if least > 0.0 { format!("over {least} up to ") } else { "up to ".into() }
                    ),
                ));
            }
        }
        if self.firer == Status::RunningAway {
            return Err(CalcError::field("firer", "a unit running away does not fire"));
        }
        Ok(())
    }
}

impl Assault {
    fn check(&self) -> Result<(), CalcError> {
        if self.attacker.arm == Arm::Artillery {
            return Err(CalcError::field("attacker.arm", "artillery does not make close assaults"));
        }
        if self.attacker.status == Status::RunningAway {
            return Err(CalcError::field("attacker.status", "a unit running away does not attack"));
        }
        for (who, p) in [("attacker", &self.attacker), ("defender", &self.defender)] {
            let ok = match p.arm {
                Arm::Infantry => !matches!(p.formation, Formation::Limbered | Formation::Deployed),
                Arm::Cavalry => matches!(p.formation, Formation::Line | Formation::Column),
                Arm::Artillery => matches!(p.formation, Formation::Limbered | Formation::Deployed),
            };
            if !ok {
                return Err(CalcError::field(
                    format!("{who}.formation"),
                    format!("{} may not stand in {}", p.arm.name(), p.formation.name()),
                ));
            }
        }
        if self.defender.forming_square && (self.defender.arm != Arm::Infantry || self.attacker.arm != Arm::Cavalry) {
            return Err(CalcError::field(
                "defender.forming_square",
                "only infantry forming square against a cavalry attack",
            ));
        }
        Ok(())
    }

    /// Whether the cavalry see a square: in square, or forming it while the cavalry are more than
    /// half a turn away.
    fn square_to_cavalry(&self) -> bool {
        self.defender.formation == Formation::Square
            || (self.defender.forming_square && !self.cavalry_within_half_a_turn)
    }

    /// Step one: each side's willingness, the attacker's modifiers and the defender's.
    pub fn step_one(&self) -> [Reckoning; 2] {
        let (a, d) = (&self.attacker, &self.defender);
        let mut at = Vec::new();
        let mut dt = Vec::new();
        let push = |v: &mut Vec<Term>, on: bool, why, value| {
            if on {
                v.push(Term { why, value });
            }
        };
        push(&mut at, self.direction == Direction::Flank, "attacking on the flank", 1);
        push(&mut at, self.direction == Direction::Rear, "attacking on rear of enemy", 2);
        push(&mut at, self.outnumbering, "outnumbering", 1);
        let cav_on_foot = a.arm == Arm::Cavalry && d.arm == Arm::Infantry;
        push(&mut at, cav_on_foot && self.square_to_cavalry(), "cavalry vs infantry square", -2);
        push(&mut at, cav_on_foot && !self.square_to_cavalry(), "cavalry vs infantry not in square", 2);
        push(
            &mut at,
            a.arm == Arm::Infantry && d.arm == Arm::Infantry && d.formation == Formation::Square,
            "infantry vs infantry in square",
            1,
        );
        push(&mut at, a.senior_officer, "senior officer personally involved", 1);
        push(&mut at, a.arm == Arm::Infantry && a.fired_last_turn, "infantry fired their muskets last turn", -1);
        push(&mut at, a.disordered, "DISORDERED", -1);
        push(&mut dt, d.arm == Arm::Infantry && d.defending_feature, "infantry defending a major defensive feature", 1);
        push(&mut dt, d.senior_officer, "senior officer personally involved", 1);
        push(&mut dt, d.arm == Arm::Infantry && d.fired_last_turn, "infantry fired their muskets last turn", -1);
        // Forming square against horse takes the place of the disorder the change of formation
        // brings: counted both, a square formed in time would be ridden down.
        let forming = d.forming_square && cav_on_foot;
        push(&mut dt, d.disordered && !forming, "DISORDERED", -1);
        push(&mut dt, forming, "infantry forming square the same turn as a cavalry attack", -1);
        [reckon(a.status, at), reckon(d.status, dt)]
    }

    /// Step two: the statuses with the only modifiers it has.
    pub fn step_two(&self) -> [Reckoning; 2] {
        let (a, d) = (&self.attacker, &self.defender);
        let mut at = Vec::new();
        let mut dt = Vec::new();
        if self.direction == Direction::Flank {
            at.push(Term { why: "attacking on the flank", value: 1 });
        }
        if self.direction == Direction::Rear {
            at.push(Term { why: "attacking on rear", value: 2 });
        }
        let cav = a.arm == Arm::Cavalry && d.arm == Arm::Cavalry;
        if cav && a.formation == Formation::Line && d.formation == Formation::Column {
            at.push(Term { why: "cavalry line vs cavalry column", value: 1 });
        }
        if cav && d.formation == Formation::Line && a.formation == Formation::Column {
            dt.push(Term { why: "cavalry line vs cavalry column", value: 1 });
        }
        if d.arm == Arm::Infantry && d.defending_feature {
            dt.push(Term { why: "infantry defending a major defensive feature", value: 1 });
        }
        [reckon(a.status, at), reckon(d.status, dt)]
    }

    fn ends(&self, p: &Party, won: bool) -> Ends {
        let r = assault_result(p.arm, won, p.status.band());
        let status = p.status.dropped(r.lost, Status::RunningAway);
        let after = match r.after {
            After::Destroyed => Next::Destroyed,
            _ if status == Status::RunningAway => Next::RunsAway,
            After::Pursue => Next::Pursues,
            After::MayPursue => match self.winner_pursues {
                Some(true) => Next::Pursues,
                Some(false) => Next::Stays,
                None => Next::MayPursue,
            },
            After::Withdraw { cm } => Next::Withdraws { cm },
        };
        Ends { status, after, disordered: true }
    }

    /// The whole assault: steps one and two, and the results.
    pub fn resolve(&self) -> Result<Resolution, CalcError> {
        self.check()?;
        let one = self.step_one();
        if one[0].total < one[1].total {
            // Stops 5 cm short, DISORDERED; the defender as it was.
            let outcome = Outcome::Assault {
                closed: false,
                attacker_won: false,
                attacker: Ends { status: self.attacker.status, after: Next::Stays, disordered: true },
                defender: Ends {
                    status: self.defender.status,
                    after: Next::Stays,
                    disordered: self.defender.disordered,
                },
            };
            return Ok(Resolution::Assault {
                assault: self.clone(),
                step_one: one,
                step_two: None,
                artillery: false,
                outcome,
            });
        }
        let two = self.step_two();
        let artillery = self.defender.arm == Arm::Artillery;
        let attacker_won = artillery || two[0].total >= two[1].total;
        let outcome = Outcome::Assault {
            closed: true,
            attacker_won,
            attacker: self.ends(&self.attacker, attacker_won),
            defender: self.ends(&self.defender, !attacker_won),
        };
        Ok(Resolution::Assault { assault: self.clone(), step_one: one, step_two: Some(two), artillery, outcome })
    }
}

impl Resolution {
    /// What it came to.
    pub fn outcome(&self) -> Outcome {
        match self {
            Resolution::Fire { effect, .. } => Outcome::Fire { dropped: effect.dropped, status: effect.status },
            Resolution::Assault { outcome, .. } => outcome.clone(),
        }
    }
}

/// Resolve a situation (there are no dice).
pub fn resolve(situation: &Situation) -> Result<Resolution, CalcError> {
    match situation {
        Situation::Fire(f) => {
            f.check()?;
            Ok(Resolution::Fire { fire: f.clone(), effect: fire_effect(f.kind, f.firer, f.target, f.density) })
        }
        Situation::Assault(a) => a.resolve(),
    }
}

impl Calculator for Combat {
    type Situation = Situation;
    type Resolution = Resolution;
    type Outcome = Outcome;

    fn resolve(&self, situation: &Situation, _chance: &mut dyn Chance) -> Result<Resolution, CalcError> {
        resolve(situation)
    }

    fn odds(&self, situation: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
        Ok(vec![OutcomeProbability { outcome: resolve(situation)?.outcome(), probability: 1.0 }])
    }
}

pub(crate) fn terms_text(r: &Reckoning) -> String {
    let mut s = format!("{} ({})", r.status.level(), r.status);
    for t in &r.terms {
        s.push_str(&format!(" {:+} {}", t.value, t.why));
    }
    if !r.terms.is_empty() {
        s.push_str(&format!(" = {}", r.total));
    }
    s
}

impl fmt::Display for Next {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Next::Stays => f.write_str("stays"),
            Next::Pursues => f.write_str("pursues the enemy"),
            Next::MayPursue => f.write_str("pursues or not, as its player chooses"),
            Next::Withdraws { cm } => write!(f, "withdraws {cm} cm, facing the enemy"),
            Next::RunsAway => f.write_str("runs away at double its move, facing away"),
            Next::Destroyed => f.write_str("is destroyed"),
        }
    }
}

impl fmt::Display for Ends {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, {}{}", self.status, self.after, if self.disordered { ", DISORDERED" } else { "" })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Fire { dropped, status } => {
                write!(f, "the target drops {dropped} level{}: {status}", if *dropped == 1 { "" } else { "s" })
            }
            Outcome::Assault { closed: false, attacker, .. } => {
                write!(f, "the attack stops 5 cm short: attacker {attacker}")
            }
            Outcome::Assault { attacker_won, attacker, defender, .. } => write!(
                f,
                "{} wins: attacker {attacker}; defender {defender}",
                if *attacker_won { "the attacker" } else { "the defender" }
            ),
        }
    }
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resolution::Fire { fire, effect } => {
                writeln!(
                    f,
                    "{} by a {} ({}) firer at a {} target: {}",
                    fire.kind.words(),
                    fire.firer,
                    if fire.firer.steady_or_better() { "6/5/4" } else { "3/2/1" },
                    if fire.density == Density::Dense { "dense" } else { "loose" },
                    effect.cell.words()
                )?;
                if matches!(effect.cell, Effect::EqualOrLowerDrops | Effect::LowerDrops) {
                    writeln!(f, "target {} against firer {}", fire.target, fire.firer)?;
                }
                if fire.kind.floor() > Status::RunningAway {
                    writeln!(f, "{} may not take a unit below {}", fire.kind.words(), fire.kind.floor())?;
                }
                write!(f, "{} -> {}", fire.target, effect.status)
            }
            Resolution::Assault { step_one, step_two, artillery, outcome, .. } => {
                writeln!(
                    f,
                    "step one, willingness to close: attacker {}; defender {}",
                    terms_text(&step_one[0]),
                    terms_text(&step_one[1])
                )?;
                match step_two {
                    None => writeln!(f, "the attacker's is lower: the attack fails")?,
                    Some(two) => {
                        writeln!(f, "the attacker's is equal or higher: it closes")?;
                        writeln!(f, "step two: attacker {}; defender {}", terms_text(&two[0]), terms_text(&two[1]))?;
                        if *artillery {
                            writeln!(f, "artillery closed with always loses")?;
                        } else if two[0].total == two[1].total {
                            writeln!(f, "equal: the attacker wins")?;
                        }
                    }
                }
                write!(f, "{outcome}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn party(arm: Arm, status: Status, formation: Formation) -> Party {
        Party::new(arm, status, formation)
    }

    fn assault(a: Party, d: Party) -> Assault {
        Assault::new(a, d)
    }

    #[test]
    fn cavalry_against_a_steady_line_closes_and_wins_by_status() {
        let a = assault(
            party(Arm::Cavalry, Status::Steady, Formation::Line),
            party(Arm::Infantry, Status::Determined, Formation::Line),
        );
        // Step one: 4 + 2 (not in square) = 6 against 5: it closes. Step two: 4 against 5: the
        // infantry win; the cavalry (3–4) withdraw 25 cm and lose two levels.
        let Ok(Resolution::Assault { step_one, outcome, .. }) = a.resolve() else { panic!() };
        assert_eq!([step_one[0].total, step_one[1].total], [6, 5]);
        let Outcome::Assault { closed, attacker_won, attacker, defender } = outcome else { panic!() };
        assert!(closed && !attacker_won);
        assert_eq!(attacker, Ends { status: Status::Wavering, after: Next::Withdraws { cm: 25 }, disordered: true });
        assert_eq!(defender.after, Next::MayPursue);
        assert_eq!(defender.status, Status::Steady);
    }

    #[test]
    fn against_a_square_horse_will_not_close_and_a_forming_square_depends_on_the_distance() {
        let mut a = assault(
            party(Arm::Cavalry, Status::Pugnacious, Formation::Line),
            party(Arm::Infantry, Status::Steady, Formation::Square),
        );
        // 6 − 2 = 4 against 4: closes (equal or higher)...
        assert!(matches!(a.resolve(), Ok(Resolution::Assault { step_two: Some(_), .. })));
        a.attacker.status = Status::Determined;
        // ... 5 − 2 = 3 against 4: stops 5 cm short, disordered.
        let Ok(Resolution::Assault { outcome: Outcome::Assault { closed: false, attacker, .. }, .. }) = a.resolve()
        else {
            panic!()
        };
        assert!(attacker.disordered);
        // Forming square: far, the horse see a square (−2) and the foot are forming (−1): 3 against 3.
        a.defender.formation = Formation::Line;
        a.defender.forming_square = true;
        let one = a.step_one();
        assert_eq!([one[0].total, one[1].total], [3, 3]);
        // Half a turn away or closer: not yet in square (+2): 7 against 3.
        a.cavalry_within_half_a_turn = true;
        assert_eq!(a.step_one()[0].total, 7);
    }

    #[test]
    fn artillery_closed_with_always_loses_and_ties_go_to_the_attacker() {
        let a = assault(
            party(Arm::Infantry, Status::Nervous, Formation::Column),
            party(Arm::Artillery, Status::Pugnacious, Formation::Deployed),
        );
        // Step one: 3 against 6 — it will not close.
        assert!(matches!(a.resolve(), Ok(Resolution::Assault { step_two: None, .. })));
        let mut b = a.clone();
        b.attacker.status = Status::Pugnacious;
        let Ok(Resolution::Assault { outcome: Outcome::Assault { attacker_won, defender, .. }, .. }) = b.resolve()
        else {
            panic!()
        };
        assert!(attacker_won);
        assert_eq!(defender.after, Next::Destroyed);
        let t = assault(
            party(Arm::Infantry, Status::Steady, Formation::Column),
            party(Arm::Infantry, Status::Steady, Formation::Line),
        );
        let Ok(Resolution::Assault { outcome: Outcome::Assault { attacker_won, defender, .. }, .. }) = t.resolve()
        else {
            panic!()
        };
        assert!(attacker_won, "equal: the attacker wins");
        assert_eq!(defender, Ends { status: Status::Nervous, after: Next::Withdraws { cm: 10 }, disordered: true });
    }

    #[test]
    fn the_odds_are_one_outcome_at_probability_one() {
        let s = Situation::Fire(Fire {
            kind: FireKind::Ball,
            firer: Status::Steady,
            target: Status::Steady,
            density: Density::Dense,
            range_cm: Some(60.0),
        });
        let o = Combat.odds(&s).unwrap();
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].outcome, Outcome::Fire { dropped: 1, status: Status::Nervous });
        let near = Situation::Fire(Fire {
            kind: FireKind::Ball,
            firer: Status::Steady,
            target: Status::Steady,
            density: Density::Dense,
            range_cm: Some(20.0),
        });
        assert!(Combat.odds(&near).unwrap_err().to_string().contains("over 25 up to 100 cm"));
    }
}
