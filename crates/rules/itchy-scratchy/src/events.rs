//! What happens in a battle, in words.

use std::fmt;

use serde::Serialize;
use volley_core::Outcome;
use volley_table::grid::{Area, Dir};

use crate::combat::Resolution;

/// One thing that happened.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins.
    TurnBegins {
        /// Turn number.
        turn: u32,
    },
    /// The initiative throw (ties thrown again).
    Initiative {
        /// The sides' names, the first side's first.
        #[serde(default)]
        sides: Vec<String>,
        /// Each throw: the first side's die and the second's.
        throws: Vec<(u32, u32)>,
        /// Who threw higher.
        winner: String,
    },
    /// Who goes first this turn.
    Order {
        /// The side going first.
        side: String,
    },
    /// The second side's part of the turn begins.
    SecondHalf {
        /// The side.
        side: String,
    },
    /// A unit moved (or turned).
    Moved {
        /// Unit.
        unit: String,
        /// Grid areas moved.
        areas: u8,
        /// Where it ended.
        to: Area,
        /// The edge it faces.
        facing: Dir,
        /// The move in words: how many areas, which way, and where it ended by the ground
        /// ("2 areas north-east, to the bridge").
        way: String,
        /// It withdrew from an adjacent enemy facing it.
        withdrew: bool,
    },
    /// An attack.
    Attack {
        /// Attacking unit.
        attacker: String,
        /// Target.
        target: String,
        /// Dice, rules and result.
        resolution: Resolution,
    },
    /// A unit lost a Strength Point.
    LostSp {
        /// Unit.
        unit: String,
        /// SP left.
        left: u8,
    },
    /// A unit was destroyed.
    Destroyed {
        /// Unit.
        unit: String,
    },
    /// A side reached its Exhaustion Point.
    Exhausted {
        /// Side.
        side: String,
        /// SP lost.
        lost: u32,
        /// The Exhaustion Point.
        point: u32,
        /// Its Strength Points at the start.
        #[serde(default)]
        start: u32,
    },
    /// An objective changed hands.
    ObjectiveTaken {
        /// Objective.
        objective: String,
        /// New holder.
        side: String,
    },
    /// The battle ended.
    BattleOver {
        /// How.
        outcome: Outcome,
    },
}

/// An edge's direction in a word.
pub fn dir(d: Dir) -> &'static str {
    match d {
        Dir::North => "north",
        Dir::East => "east",
        Dir::South => "south",
        Dir::West => "west",
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::TurnBegins { turn } => write!(f, "Turn {turn}"),
            Event::Initiative { sides, throws, winner } => {
                let name = |k: usize| sides.get(k).map_or("", String::as_str);
                let t: Vec<String> =
                    throws.iter().map(|(a, b)| format!("{} {a} against {} {b}", name(0), name(1))).collect();
                let tie = if throws.len() > 1 { " (a tie is thrown again)" } else { "" };
                write!(f, "Initiative: {}{tie}; {winner} throw higher and choose.", t.join(", then "))
            }
            Event::Order { side } => write!(f, "{side} go first."),
            Event::SecondHalf { side } => write!(f, "{side} move and attack second."),
            Event::Moved { unit, areas, facing, way, withdrew, .. } => {
                if *areas == 0 {
                    write!(f, "{unit} turn to face {}.", dir(*facing))
                } else {
                    let verb = if *withdrew { "withdraw" } else { "move" };
                    write!(f, "{unit} {verb} {way}, facing {}.", dir(*facing))
                }
            }
            Event::Attack { attacker, target, resolution } => {
                let dice: Vec<String> = resolution.dice().iter().map(u8::to_string).collect();
                write!(f, "{attacker} attack {target}: {} ({}): ", dice.join(" "), resolution.dice_words())?;
                write!(f, "{}", resolution.verdicts().join("; "))?;
                if resolution.lines().is_empty() { write!(f, ": no effect.") } else { write!(f, ".") }
            }
            Event::LostSp { unit, left } => write!(f, "{unit} lose a Strength Point ({left} left)."),
            Event::Destroyed { unit } => write!(f, "{unit} are destroyed."),
            Event::Exhausted { side, lost, point, start } => {
                write!(
                    f,
                    "{side} have lost {lost} Strength Points and reached their Exhaustion Point ({point}: half their {start} at the start, rounded up): no more aggressive action."
                )
            }
            Event::ObjectiveTaken { objective, side } => write!(f, "{side} take {objective}."),
            Event::BattleOver { outcome } => write!(f, "The battle is over: {}.", outcome.reason),
        }
    }
}
