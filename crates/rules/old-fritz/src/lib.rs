//! Jim Wallman's *One Brain Cell* rules for the Seven Years War ("Old Fritz", 1992): the close
//! combat decided in one step — one d10 a side with additions, a results table by the
//! difference, casualty and pursuit tests — and the guns' bombardment.
//!
//! So far this crate holds the rule set's combat as pure functions and the umpire's calculator
//! ([`combat`]) and the time orders take ([`command`]); the battle on the table (wings acting on
//! their orders, movement, supply) is still to come.
//! How the engine reads the scan, clause by clause, is in `docs/rules/old-fritz.md`.
//!
//! ```
//! use volley_old_fritz::combat::{Band, casualty_odds};
//!
//! // The score bands of the results tables.
//! assert_eq!(Band::of(-9, false), Band::Minus8To15);
//! // A casualty test of two d10 with no additions: 1 casualty on 5 to 14.
//! let p = casualty_odds(2, 0);
//! assert!((p[1] - 0.73).abs() < 1e-12);
//! ```
#![deny(missing_docs)]

pub mod combat;
pub mod command;

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "old-fritz";
