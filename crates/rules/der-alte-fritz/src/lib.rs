//! Der Alte Fritz, rules for 18th-century warfare: d10s against the numbers of charts A–E for
//! fire, melee and morale, the two lowest morale dice kept, one-round melees, cavalry pursuit and
//! officers' fates.
//!
//! The unit table as data ([`units`]); the umpire's calculator with the exact odds of the whole
//! chain: a volley with the target's morale test, losses, removal and officer's fate, and a rally
//! ([`combat`]); a charge from the test to charge through the melee, the post-melee tests and the
//! cavalry pursuit ([`melee`]). [`Battle`] is the battle on a table measured in inches (the turn's
//! sequence, movement, formations, fire arcs, charges, officers) and implements
//! [`volley_core::GameState`]; [`setup`] reads scenario files. How the engine reads the text —
//! every clause, the test that covers it, and every interpretation — is in
//! `docs/rules/der-alte-fritz.md`.
//!
//! ```
//! use volley_der_alte_fritz::combat::morale_odds;
//!
//! // Two morale dice against 5, the two lowest kept: pass 1/4, shaken 1/2, rout 1/4.
//! let [pass, shaken, rout] = morale_odds(2, 5);
//! assert!((pass - 0.25).abs() < 1e-12 && (shaken - 0.5).abs() < 1e-12 && (rout - 0.25).abs() < 1e-12);
//! ```
#![deny(missing_docs)]

pub mod combat;
pub mod events;
pub mod game;
mod heuristic;
pub mod melee;
pub mod model;
pub mod setup;
pub mod units;
mod view;

pub use events::Event;
pub use game::{Action, Battle, Phase};
pub use setup::{Rules, ScenarioFile, UnitSpec, build, load};

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "der-alte-fritz";

/// The rule set's name, as players know it.
pub const RULESET_NAME: &str = "Der Alte Fritz";

/// Whether its umpire's calculator ever draws (dice or cards): a diceless one never does.
pub const RULESET_DRAWS: bool = true;

/// The Der Alte Fritz rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct DerAlteFritz;

impl volley_core::RuleSet for DerAlteFritz {
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
