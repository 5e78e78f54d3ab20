//! What happens in a battle, for the log and the screen: each event carries the words that explain
//! it (every die, the number it had to meet, and why that number), written when it happened.

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::Point;

use crate::model::Formation;

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins.
    Turn {
        /// Its number.
        turn: u32,
    },
    /// The initiative dice.
    Initiative {
        /// Each side's die.
        dice: [u8; 2],
        /// The winner (none: a tie, rolled again).
        winner: Option<SideId>,
        /// In words.
        text: String,
    },
    /// The winner of the initiative chose.
    Chose {
        /// The side that moves first (side A).
        first: SideId,
        /// In words.
        text: String,
    },
    /// A unit moved of its own will (or changed formation or facing).
    Moved {
        /// The unit.
        unit: u16,
        /// Where its centre went.
        to: Point,
        /// Its facing.
        facing: f64,
        /// Its formation.
        formation: Formation,
        /// In words.
        text: String,
    },
    /// A unit declared a charge.
    Declared {
        /// The charger.
        unit: u16,
        /// Its target.
        target: u16,
        /// In words.
        text: String,
    },
    /// A volley and what followed.
    Volley {
        /// The firer.
        unit: u16,
        /// The target.
        target: u16,
        /// Hits.
        hits: u32,
        /// In words.
        text: String,
    },
    /// A charge and its melee.
    Melee {
        /// The charger.
        charger: u16,
        /// The unit charged.
        defender: u16,
        /// In words.
        text: String,
    },
    /// A morale test outside fire and melee (a rally, the army commander's death).
    Morale {
        /// The unit.
        unit: u16,
        /// In words.
        text: String,
    },
    /// A unit moved because it had to: a rout, falling back, retreating, pursuing.
    Forced {
        /// The unit.
        unit: u16,
        /// Where its centre went.
        to: Point,
        /// In words.
        text: String,
    },
    /// A unit left the battle.
    Removed {
        /// The unit.
        unit: u16,
        /// In words.
        text: String,
    },
    /// An officer's fate or ride.
    Officer {
        /// The officer.
        officer: u16,
        /// In words.
        text: String,
    },
    /// The battle is over.
    Over {
        /// The winner (none: a draw).
        winner: Option<SideId>,
        /// Why.
        text: String,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Turn { turn } => write!(f, "turn {turn} begins"),
            Event::Initiative { text, .. }
            | Event::Chose { text, .. }
            | Event::Moved { text, .. }
            | Event::Declared { text, .. }
            | Event::Volley { text, .. }
            | Event::Melee { text, .. }
            | Event::Morale { text, .. }
            | Event::Forced { text, .. }
            | Event::Removed { text, .. }
            | Event::Officer { text, .. }
            | Event::Over { text, .. } => f.write_str(text),
        }
    }
}
