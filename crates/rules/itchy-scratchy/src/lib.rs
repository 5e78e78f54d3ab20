//! Bob Cordery's *Itchy and Scratchy* rules (2013, first draft, with the author's answers in the
//! comments): units of Strength Points on a square grid, dice pools by weapon and range.
//!
//! [`combat`] holds the pure combat function the battle calls and the umpire's calculator uses,
//! with exact odds; [`Battle`] is the whole state of a battle and implements
//! [`volley_core::GameState`]; [`setup`] reads scenario files.
//!
//! How the engine reads the text — every clause, where it lives, which test covers it, and
//! every interpretation — is in `docs/rules/itchy-scratchy.md`.
//!
//! ```
//! use volley_itchy_scratchy::combat::{Situation, Target, Weapon, odds};
//!
//! // Rifles at 2 areas against infantry in the open: 4 dice, hit on a double 4, 5 or 6.
//! let s = Situation { weapon: Weapon::RiflesAndCarbines, range: 2, target: Target::Infantry,
//!     target_in_cover: false, general_with_attacker: false, general_with_target: false };
//! let hit: f64 = odds(&s).unwrap().iter().filter(|o| o.outcome.target_hit).map(|o| o.probability).sum();
//! assert!((hit - 0.3819444444444444).abs() < 1e-12); // 495 of the 1296 throws of 4 dice
//! ```
#![deny(missing_docs)]

pub mod combat;
pub mod events;
pub mod game;
mod heuristic;
pub mod model;
mod occupancy;
pub mod setup;
mod view;

pub use events::Event;
pub use game::{Action, Battle, Phase};
pub use setup::{Rules, ScenarioFile, UnitSpec, build, load};

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "itchy-scratchy";

/// The rule set's name, as players know it.
pub const RULESET_NAME: &str = "Itchy and Scratchy";

/// Whether its umpire's calculator ever draws (dice or cards): a diceless one never does.
pub const RULESET_DRAWS: bool = true;
