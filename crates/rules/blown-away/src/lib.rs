//! John Michael Fischer's *Blown Away*: simple rules for musket-era battles with toy soldiers,
//! in both versions — the chance version, where combat turns up playing cards, and the
//! without-chance version, where combat is automatic and simultaneous.
//!
//! Men are individual figures with a role, a state (in ranks, running, fallen, dead) and a place
//! on the table. [`Battle`] is the whole state of a battle and implements
//! [`volley_core::GameState`]; [`combat`] holds the pure combat functions the battle calls and an
//! umpire can call directly; [`setup`] reads scenario files.
//!
//! How the engine reads the text — every clause, where it lives, which test covers it, and
//! every interpretation — is in `docs/rules/blown-away.md`.
//!
//! ```
//! use volley_blown_away::combat::{CardSide, resolve_cards};
//! use volley_blown_away::model::Arm;
//!
//! // A cavalry unit turns up a queen against infantry who turn up a 3.
//! let cav = CardSide { arm: Some(Arm::Cavalry), ..CardSide::default() };
//! let inf = CardSide { arm: Some(Arm::Infantry), ..CardSide::default() };
//! let r = resolve_cards(&[cav, inf], [12, 3]);
//! assert_eq!(r.winner, Some(0));
//! let loss = r.losses[1].as_ref().unwrap();
//! assert_eq!((loss.killed, loss.run), (1, 2)); // first man killed: 1 runs, +1 for cavalry
//! ```
#![deny(missing_docs)]

pub mod calc;
pub mod combat;
pub mod events;
pub mod game;
mod heuristic;
pub mod model;
pub mod setup;
mod view;

pub use events::Event;
pub use game::{Action, Battle, Phase, Placement};
pub use model::Variant;
pub use setup::{Rules, ScenarioFile, UnitSpec, build, load};

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "blown-away";

/// The rule set's name, as players know it.
pub const RULESET_NAME: &str = "Blown Away";

/// Whether its umpire's calculator ever draws (dice or cards): a diceless one never does.
pub const RULESET_DRAWS: bool = true;

/// The Blown Away rule set.
#[derive(Clone, Copy, Debug, Default)]
pub struct BlownAway;

impl volley_core::RuleSet for BlownAway {
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
