//! What happens in a battle, for the log and the screen. Each happening is told twice: in words
//! for everyone ([`Event::Told`]: who did what, and the status words that came of it), and with the
//! rules behind it ([`Event::Explained`]: the table's row and cell, every modifier and number) for
//! Game Control — and for the players too when the scenario does not keep the rules hidden.

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_core::SideId;

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
            Event::Explained { text } => write!(f, "(rules) {text}"),
        }
    }
}
