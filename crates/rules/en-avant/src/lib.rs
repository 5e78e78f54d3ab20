//! Jim Wallman's *En Avant*: a diceless Napoleonic battle system. Units have a status from
//! Pugnacious (6) to Running away (0), shown to everyone by a label; fire and close assault move
//! status up and down by the tables, with no dice: the same situation always comes out the same.
//!
//! Built so far (issue 18 goes on): the status scale, the fire table and the close assault's two
//! steps and results table as data ([`tables`]), and the umpire's calculator over them
//! ([`combat`]): one fire or close assault, resolved with every modifier and table cell that
//! made it; the troops as data ([`model`]: rates, densities, formation changes, which row a unit
//! fires) and what a unit does with its order card given its status ([`orders`]). Not yet: the
//! battle on the table, Game Control's hidden rules, scenarios and players — see
//! `docs/rules/en-avant.md`.
//!
//! ```
//! use volley_en_avant::tables::{Density, FireKind, Status, fire_effect};
//!
//! // A Determined battalion's first volley from line into a dense column: two levels.
//! let after = fire_effect(FireKind::FirstLineVolley, Status::Determined, Status::Steady, Density::Dense);
//! assert_eq!(after.status, Status::Wavering);
//! ```
#![deny(missing_docs)]

pub mod combat;
pub mod model;
pub mod orders;
pub mod setup;
pub mod tables;

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "en-avant";
