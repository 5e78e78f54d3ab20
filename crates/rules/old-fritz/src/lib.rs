//! Jim Wallman's *One Brain Cell* rules for the Seven Years War ("Old Fritz", 1992): the close
//! combat decided in one step — one d10 a side with additions, a results table by the
//! difference, casualty and pursuit tests — the guns' bombardment, and the battle around them,
//! in which the player commands wings by orders that take time to arrive.
//!
//! * [`combat`]: the One Step as pure functions, the umpire's calculator and its exact odds.
//! * [`command`]: the time an order takes.
//! * [`model`]: unit types (rates, frontages), formations, states, orders.
//! * [`Battle`]: the whole state of a battle; implements [`volley_core::GameState`]. Each bound
//!   the engine carries out what the wings' orders say (the rule set's own automation).
//! * [`setup`]: scenario files.
//!
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
pub mod events;
pub mod game;
mod heuristic;
pub mod model;
pub mod setup;
mod view;

pub use events::Event;
pub use game::{Action, Battle, Phase};
pub use setup::{Rules, ScenarioFile, UnitSpec, build, load};

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "old-fritz";

/// The rule set's name, as players know it.
pub const RULESET_NAME: &str = "Old Fritz (One Brain Cell)";

/// Whether its umpire's calculator ever draws (dice or cards): a diceless one never does.
pub const RULESET_DRAWS: bool = true;
