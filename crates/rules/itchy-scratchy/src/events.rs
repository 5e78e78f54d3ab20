//! What happens in a battle, in words.

use std::fmt;

use serde::Serialize;
use volley_core::Outcome;
use volley_table::grid::{Area, Dir};

use crate::combat::Resolution;
use crate::model::Terrain;

/// Why a move ended where it did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum Stop {
    /// It turned on the spot: a move of no areas.
    Turned,
    /// It entered an area next to these enemy units (the front, flank or rear of each), where the
    /// text stops it and turns it to face one of them.
    Enemy {
        /// The enemy units next to the area it stopped in.
        units: Vec<String>,
        /// The one it faces (the text turns it to face an enemy unit at once).
        faces: Option<String>,
    },
    /// It went its whole allowance.
    Allowance,
    /// Its player stopped it short of its allowance.
    Short,
}

/// Why a unit did not attack the enemy next to it this turn (the text obliges no unit to
/// attack), in the order looked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Held {
    /// It carries no weapon (a General, horse-drawn transport).
    NoWeapon,
    /// It attacked another unit.
    AttackedAnother {
        /// The unit it attacked.
        target: String,
    },
    /// It moved its whole allowance, and attacking costs a grid area of movement.
    Spent,
    /// It ends the turn facing away: the enemy is not in its arc of attack.
    OutOfArc,
    /// Its side did not attack with it.
    NotOrdered,
}

impl fmt::Display for Held {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Held::NoWeapon => write!(f, "carries no weapon"),
            Held::AttackedAnother { target } => write!(f, "attacked {target}"),
            Held::Spent => write!(f, "moved its whole allowance, and attacking costs an area"),
            Held::OutOfArc => write!(f, "faces away from the other"),
            Held::NotOrdered => write!(f, "was not ordered to attack"),
        }
    }
}

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
    /// A unit moved (or turned on the spot: a move of no areas).
    Moved {
        /// Unit.
        unit: String,
        /// Grid areas moved.
        areas: u8,
        /// Where it started.
        from: Area,
        /// The areas it entered, in order, each across an edge of the one before (the last is
        /// `to`; empty for a turn on the spot).
        path: Vec<Area>,
        /// Where it ended.
        to: Area,
        /// The edge it faces.
        facing: Dir,
        /// The grid areas it might move this turn: its type's rate, one less if it attacked
        /// earlier this turn.
        allowance: u8,
        /// Why it ended where it did.
        stop: Stop,
        /// The move in words: how many areas, which way, and where it ended by the ground
        /// ("2 areas north-east, to the bridge").
        way: String,
        /// It withdrew from an adjacent enemy facing it.
        withdrew: bool,
        /// The adjacent enemy units facing it when it began, which it withdrew from (empty when
        /// none faced it).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        withdrew_from: Vec<String>,
        /// Its side had reached its Exhaustion Point: no step may take it nearer an enemy unit.
        exhausted: bool,
    },
    /// An attack.
    Attack {
        /// Attacking unit.
        attacker: String,
        /// Target.
        target: String,
        /// The attacker's grid area.
        from: Area,
        /// The edge the attacker faces.
        facing: Dir,
        /// The target's grid area.
        at: Area,
        /// The arc: degrees between the attacker's facing and the line from its area's centre to
        /// the target's (at most 60), to a tenth of a degree.
        off_facing: f64,
        /// The sight: the areas between whose inside the line from centre to centre passes
        /// through, in order (none holds woods, a built-up area, a fortification or a unit).
        through: Vec<Area>,
        /// The pairs of areas the line passes exactly between at a corner, touching each only
        /// there (never two areas of cover).
        #[serde(skip_serializing_if = "Vec::is_empty")]
        corners: Vec<[Area; 2]>,
        /// The ground of the attacker's area (in cover, it attacks beyond the next area only if
        /// the first area of `through` is not cover: from the edge in the direction of fire).
        ground: Terrain,
        /// The ground of the target's area (its cover).
        target_ground: Terrain,
        /// Grid areas the attacker had moved this turn before it attacked, if it had moved.
        moved: Option<u8>,
        /// The grid areas its move may cover this turn, now that it attacks.
        allowance: u8,
        /// The General in the attacker's area (two more dice), if one is.
        general_with_attacker: Option<String>,
        /// The General in the target's area (he falls to a treble 1), if one is.
        general_with_target: Option<String>,
        /// Dice, rules and result.
        resolution: Resolution,
        /// The target's Strength Points after the attack (0: destroyed).
        target_left: u8,
        /// The General with the target killed by the throw, if one was.
        general_killed: Option<String>,
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
        start: u32,
        /// The turn at whose end it was reached.
        turn: u32,
    },
    /// Two enemy units have stood next to each other at three turn-ends or more running without
    /// an attack between them (the text obliges no unit to attack, and lets a unit faced by an
    /// enemy withdraw or stay): told at the turn's end, with why each did not attack the other
    /// this turn.
    Standoff {
        /// The two units, the first listed first.
        units: [String; 2],
        /// Turn-ends running they have stood next to each other without an attack between them.
        turns: u32,
        /// Why each did not attack the other this turn.
        why: [Held; 2],
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
                    write!(f, "{unit} turns to face {}.", dir(*facing))
                } else {
                    let verb = if *withdrew { "withdraws" } else { "moves" };
                    write!(f, "{unit} {verb} {way}, facing {}.", dir(*facing))
                }
            }
            Event::Attack { attacker, target, resolution, .. } => {
                let dice: Vec<String> = resolution.dice().iter().map(u8::to_string).collect();
                write!(f, "{attacker} attacks {target}: {} ({}): ", dice.join(" "), resolution.dice_words())?;
                write!(f, "{}", resolution.verdicts().join("; "))?;
                if resolution.lines().is_empty() { write!(f, ": no effect.") } else { write!(f, ".") }
            }
            Event::LostSp { unit, left } => write!(f, "{unit} loses a Strength Point ({left} left)."),
            Event::Destroyed { unit } => write!(f, "{unit} is destroyed."),
            Event::Exhausted { side, lost, point, start, .. } => {
                write!(
                    f,
                    "{side} have lost {lost} Strength Points and reached their Exhaustion Point ({point}: half their {start} at the start, rounded up): no more aggressive action."
                )
            }
            Event::Standoff { units: [a, b], turns, why: [wa, wb] } => write!(
                f,
                "{a} and {b} have stood next to each other at {turns} turn-ends without attacking each other, as the rules allow: {a} {wa}; {b} {wb}."
            ),
            Event::ObjectiveTaken { objective, side } => write!(f, "{side} take {objective}."),
            Event::BattleOver { outcome } => write!(f, "The battle is over: {}.", outcome.reason),
        }
    }
}
