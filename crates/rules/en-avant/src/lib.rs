//! Jim Wallman's *En Avant*: a diceless Napoleonic battle system. Units have a status from
//! Pugnacious (6) to Running away (0), shown to everyone by a label; fire and close assault move
//! status up and down by the tables, with no dice: the same situation always comes out the same.
//!
//! The tables as data ([`tables`]) and the umpire's calculator over them ([`combat`]); the troops
//! ([`model`]) and what a unit does with its order card by its status ([`orders`]); the battle
//! on a table measured in centimetres ([`Battle`], [`battle`]): secret order cards, the turn by
//! the text's sequence, Game Control with the rules hidden from the players ([`events`]);
//! scenario files ([`setup`]). How the engine reads every clause is `docs/rules/en-avant.md`.
//!
//! ```
//! use volley_en_avant::tables::{Density, FireKind, Status, fire_effect};
//!
//! // A Determined battalion's first volley from line into a dense column: two levels.
//! let after = fire_effect(FireKind::FirstLineVolley, Status::Determined, Status::Steady, Density::Dense);
//! assert_eq!(after.status, Status::Wavering);
//! ```
#![deny(missing_docs)]

pub mod battle;
pub mod combat;
pub mod events;
mod heuristic;
pub mod model;
pub mod orders;
pub mod setup;
pub mod tables;
mod view;

pub use battle::{Action, Battle, Phase};
pub use events::Event;
pub use setup::{Rules, ScenarioFile, UnitSpec, build, load};

/// The En Avant rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct EnAvant;

impl volley_core::RuleSet for EnAvant {
    type State = Battle;
    type Scenario = (volley_scenario::Source, ScenarioFile);
    type Error = volley_scenario::Diagnostics;

    fn id(&self) -> &'static str {
        RULESET_ID
    }

    fn new_game(&self, scenario: &Self::Scenario) -> Result<Battle, Self::Error> {
        build(&scenario.0, &scenario.1)
    }
}

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "en-avant";

/// The rule set's name, as players know it.
pub const RULESET_NAME: &str = "En Avant";

/// Whether its umpire's calculator ever draws (dice or cards): a diceless one never does.
pub const RULESET_DRAWS: bool = false;
