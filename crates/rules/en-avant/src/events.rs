//! What happens in a battle, for the log and the screen. Each happening is told twice: in words
//! for everyone ([`Event::Told`]: who did what, and the status words that came of it), and with the
//! rules behind it ([`Event::Explained`]: the table's row and cell, every modifier and number) for
//! Game Control — and for the players too when the scenario does not keep the rules hidden.
//!
//! An explanation also carries the happening as data ([`Fact`]): who did what to whom, where
//! each body stood, the distances ordered and gone and why a move stopped, each side's figures in
//! a close assault, each label's status before and after. A trace (`volley replay --trace`) gives
//! it beside the words, so that the geometry and the results can be checked from the trace alone
//! (`docs/trace.md`). Statuses in the data are levels: 6 Pugnacious … 0 Running away.

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_core::SideId;

use crate::combat::Direction;
use crate::model::Formation;
use crate::tables::{Density, FireKind};

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins.
    Turn {
        /// Its number.
        turn: u32,
    },
    /// A side gave an order (known to that side and Game Control only).
    Ordered {
        /// The side.
        side: SideId,
        /// In words.
        text: String,
    },
    /// What happened, in words a player without the rules reads: no table, modifier or number.
    Told {
        /// In words.
        text: String,
    },
    /// The rules behind what happened: the tables' rows and cells, the modifiers, the numbers.
    Explained {
        /// In words and figures.
        text: String,
        /// The same as data, where the happening has any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fact: Option<Box<Fact>>,
    },
    /// The battle is over.
    Over {
        /// The winner, if any.
        winner: Option<SideId>,
        /// Why.
        text: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Turn { turn } => write!(f, "turn {turn}"),
            Event::Ordered { text, .. } | Event::Told { text } | Event::Over { text, .. } => f.write_str(text),
            Event::Explained { text, .. } => write!(f, "(rules) {text}"),
        }
    }
}

impl Event {
    /// The happening as data, if the event carries it.
    pub fn fact(&self) -> Option<&Fact> {
        match self {
            Event::Explained { fact, .. } => fact.as_deref(),
            _ => None,
        }
    }
}

/// Where a unit stood: its front's centre, its facing and its body's four corners (front left,
/// front right, back right, back left), centimetres from the table's south-west corner.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Body {
    /// The centre of its front edge.
    pub at: [f64; 2],
    /// Degrees clockwise from north.
    pub facing: f64,
    /// The corners.
    pub corners: [[f64; 2]; 4],
}

/// One status label's change: a cavalry regiment's first (1) or second (2) line, or any other
/// unit's one label (1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineChange {
    /// Which label.
    pub line: u8,
    /// Its status before (a level, 6 … 0).
    pub from: u8,
    /// After.
    pub to: u8,
}

/// Why a move ended where it did.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum Stop {
    /// It went the whole distance.
    Full,
    /// It reached the enemy it was closing with.
    Contact {
        /// That enemy.
        unit: String,
    },
    /// Another body stood in its way.
    Body {
        /// That unit.
        unit: String,
        /// Whether it is an enemy.
        enemy: bool,
    },
    /// An enemy it was not closing with: no nearer than the stand-off (5 cm), or, for a unit that
    /// will not move closer, no nearer at all.
    StandOff {
        /// That enemy.
        unit: String,
    },
    /// The table's edge.
    Edge,
    /// Ground it cannot cross.
    Ground,
    /// Its status stopped it: broken, will not move closer, halts to fire.
    Status {
        /// In words.
        why: String,
    },
    /// It had no room to turn as it had to first.
    NoRoom,
    /// The enemy was not ahead of it within a charge's small variation.
    NotAhead,
}

/// What moved a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MoveKind {
    /// An advance card.
    Advance,
    /// A withdraw card.
    Withdraw,
    /// A charge at an enemy (a close assault ordered, or a Pugnacious unit closing).
    Charge,
    /// A pursuit the results table ordered, or an infantry winner's choice.
    Pursue,
    /// A charger keeping up with an enemy it reached that then moved away, with the rest of its
    /// move (interpretation 34).
    FollowUp,
    /// A failed attack stopping short of the enemy (step one).
    StandOff,
}

/// One side's figure in a step of a close assault: its status, each modifier and the total.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// The status level.
    pub status: u8,
    /// Each modifier: the text's words and its value.
    pub modifiers: Vec<(String, i32)>,
    /// Status plus modifiers.
    pub total: i32,
}

impl From<&crate::combat::Reckoning> for Figure {
    fn from(r: &crate::combat::Reckoning) -> Self {
        Figure {
            status: r.status.level(),
            modifiers: r.terms.iter().map(|t| (t.why.to_string(), t.value)).collect(),
            total: r.total,
        }
    }
}

/// One attacker's part in a close assault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attacker {
    /// The unit.
    pub unit: String,
    /// Where it stood when the assault was resolved (in contact with the defender).
    pub body: Body,
    /// Which face of the defender it met.
    pub direction: Direction,
    /// The gap between the two bodies when the assault was resolved, centimetres.
    pub gap: f64,
    /// Step one: the attacker's figure and the defender's against it.
    pub step_one: [Figure; 2],
    /// Whether it was willing to close (its figure at least the defender's).
    pub closed: bool,
    /// A failed attack: how far it drew back to stop short of the enemy, centimetres (none if
    /// it closed).
    pub stood_off: Option<f64>,
}

/// What the results table makes a unit do next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "next", rename_all = "snake_case")]
pub enum NextTurn {
    /// Pursue the loser.
    Pursue,
    /// Its player chooses whether it pursues.
    MayPursue,
    /// Nobody left to pursue: it halts.
    NobodyToPursue,
    /// Withdraw this far, facing the winner.
    Withdraw {
        /// Centimetres.
        cm: u8,
    },
    /// It breaks and runs (brought to 0).
    Runs,
    /// Already running, it runs on.
    RunsOn,
    /// A battery closed with: destroyed.
    Destroyed,
    /// Two units that charged each other and tied in step two: drawn, no winner and no result
    /// move (interpretation 40).
    Drawn,
}

/// A unit's result in a close assault.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UnitResult {
    /// The unit.
    pub unit: String,
    /// Whether it won.
    pub won: bool,
    /// Each label's status before and after.
    pub lines: Vec<LineChange>,
    /// What it does next turn.
    pub next: NextTurn,
}

/// A manoeuvre's stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Stage {
    /// Begun this turn.
    Begun,
    /// Completed at the end of this turn's movement.
    Done,
    /// Given up: no room for the new formation or facing, or broken off (the unit broken by
    /// fire, or in a close assault).
    GivenUp,
}

/// A happening as data, for checking from a trace.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "fact", rename_all = "snake_case")]
pub enum Fact {
    /// A fire, in the firing phase or in a unit's own defence.
    Fire {
        /// The firer.
        firer: String,
        /// The target.
        target: String,
        /// The row of the fire table.
        row: FireKind,
        /// The firer's status level.
        firer_status: u8,
        /// The target's density.
        density: Density,
        /// Body to body, centimetres.
        range: f64,
        /// Fired in its own defence as the target came into its reach.
        in_defence: bool,
        /// Each label of the target that was shot at: its status before and after.
        lines: Vec<LineChange>,
        /// Whether the target was DISORDERED by it (a status lowered).
        disordered: bool,
    },
    /// A unit's move: its card, a charge, a pursuit, a follow-up or a failed attack standing off.
    Move {
        /// The unit.
        unit: String,
        /// What moved it.
        what: MoveKind,
        /// The enemy it closed with, pursued or stood off from.
        target: Option<String>,
        /// Where it stood before.
        from: Body,
        /// Where it stands after.
        to: Body,
        /// The distance it was to go, centimetres (its move, or the way to the enemy if shorter).
        ordered: f64,
        /// The distance it went.
        done: f64,
        /// Why it stopped.
        stop: Stop,
    },
    /// A withdrawal the results table ordered.
    Withdrawal {
        /// The unit.
        unit: String,
        /// The enemy that beat it (it turns to face it, about its centre: first, if there is
        /// room, else where it stops).
        winner: String,
        /// Where it stood before (before it turned).
        from: Body,
        /// Where it stands after.
        to: Body,
        /// The heading it went on: straight away from the winner (from its middle to the
        /// winner's, turned about), whether or not it had room to turn to face it.
        heading: f64,
        /// The results table's distance, centimetres.
        ordered: f64,
        /// The distance it went.
        done: f64,
        /// Why it stopped.
        stop: Stop,
        /// The register's rule for a withdrawal cut short (interpretation 35): `none` (it went
        /// the whole way), `short` (it went as far as the ground let it and is clear of the
        /// enemy), `off_the_field` (the table's edge: it leaves the battle), `caught` (still in
        /// contact with an enemy: it breaks and runs).
        rule: Blocked,
        /// The enemy it still touches where it stopped (caught).
        touching: Option<String>,
        /// How far it had gone when it turned about its centre to face the winner: 0 where it
        /// stood, farther on its way where it first had room to turn (none: it did not turn, facing
        /// the winner already, or without room anywhere on its way).
        #[serde(default)]
        turned_at: Option<f64>,
        /// Each label's status before and after (caught: it breaks, every label to 0; else
        /// none change).
        #[serde(default)]
        lines: Vec<LineChange>,
    },
    /// A unit running away.
    Run {
        /// The unit.
        unit: String,
        /// Where it stood before (before it turned its back on the enemy).
        from: Body,
        /// Where it stands after (or where it left the table).
        to: Body,
        /// The heading it ran on.
        heading: f64,
        /// The distance it was to run: double its move the first turn, its move after.
        ordered: f64,
        /// The distance it went, along its path.
        done: f64,
        /// Its first turn of running (double move).
        first_turn: bool,
        /// Why it stopped.
        stop: Stop,
        /// It ran off the table and is gone.
        off_the_field: bool,
        /// How far it had run when it turned about its centre to face its way: 0 where it stood,
        /// farther on where it first had room to turn (none: it did not turn).
        #[serde(default)]
        turned_at: Option<f64>,
        /// It could not move at all and touched an enemy: cut down as it fled, it is gone
        /// (interpretation 31).
        #[serde(default)]
        cut_down: bool,
    },
    /// A close assault on one defender by every unit that reached it.
    Assault {
        /// The defender.
        defender: String,
        /// Where it stood.
        body: Body,
        /// Each attacker.
        attackers: Vec<Attacker>,
        /// More than one attacker (each takes "outnumbering").
        outnumbering: bool,
        /// The defender charged an attacker of this assault too, and both would close: both are
        /// attackers, and a tie in step two is drawn (interpretation 40).
        #[serde(default)]
        mutual: bool,
        /// Step two, if any attacker closed: the highest attacker's figure and the defender's.
        step_two: Option<[Figure; 2]>,
        /// The attacker whose figure counted in step two.
        best: Option<String>,
        /// Whether the attackers won (artillery closed with always loses; ties go to the
        /// attacker); none if no attacker closed, or if the fight was drawn (two units that
        /// charged each other, equal in step two: interpretation 40).
        attackers_won: Option<bool>,
        /// Each unit's result by the results table (the attackers that closed, then the
        /// defender).
        results: Vec<UnitResult>,
    },
    /// A pursuit that did not move: the loser carried off, followed off the table, nobody left
    /// to pursue, or no room to turn.
    Pursuit {
        /// The winner.
        unit: String,
        /// The loser.
        target: String,
        /// What came of it.
        outcome: PursuitEnd,
    },
    /// The commander's rallying or a reinforcement raised a unit's status.
    Rally {
        /// The unit.
        unit: String,
        /// The senior officer's name, or the friend beside it.
        by: String,
        /// Whether it was the commander (else a reinforcement).
        commander: bool,
        /// Each label before and after.
        lines: Vec<LineChange>,
    },
    /// A unit re-ordered: a whole turn still, not firing, begun after its disorder.
    Reordered {
        /// The unit.
        unit: String,
    },
    /// A change of formation or facing.
    Manoeuvre {
        /// The unit.
        unit: String,
        /// Into what formation (its formation, for a change of facing).
        formation: Formation,
        /// The new facing, when it turns (an about face or a change of facing).
        facing: Option<f64>,
        /// Turns still to go, this one included (when begun).
        turns: u8,
        /// Begun, done or given up.
        stage: Stage,
        /// Where it stands after.
        body: Body,
    },
    /// A cavalry regiment's second line follows up or the two lines combine.
    SecondLine {
        /// The regiment.
        unit: String,
        /// Follows up (after its first line won), else the lines combine.
        follows_up: bool,
        /// Each label before and after.
        lines: Vec<LineChange>,
    },
    /// Cavalry back from a pursuit off the table, beside their command group.
    Returned {
        /// The regiment.
        unit: String,
        /// Where it stands.
        body: Body,
    },
    /// The optional roll for personal risk.
    PersonalRisk {
        /// The senior officer.
        officer: String,
        /// The die.
        die: u32,
        /// Whether he fell (on a 1).
        fell: bool,
    },
}

/// The register's rule for a withdrawal the results table orders that cannot go its whole way
/// (interpretation 35).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Blocked {
    /// Not cut short.
    None,
    /// As far as the ground let it, clear of every enemy.
    Short,
    /// Its way back crosses the table's edge: it leaves the battle.
    OffTheField,
    /// Cut short still in contact with an enemy: it breaks and runs.
    Caught,
}

/// How a pursuit that did not move ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PursuitEnd {
    /// Cavalry rode down a loser running away and carried it off: both leave the table.
    CarriedOff,
    /// The loser had run off the table: the cavalry followed it off.
    FollowedOff,
    /// The loser is gone: nobody to pursue.
    Nobody,
    /// No face of the loser it can reach going forward.
    NotAhead,
}
