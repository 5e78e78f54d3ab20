//! Der Alte Fritz, rules for 18th-century warfare: d10s against the numbers of charts A–E for
//! fire, melee and morale, the two lowest morale dice kept, one-round melees, cavalry pursuit and
//! officers' fates.
//!
//! Built so far (issue 17 goes on): the unit table as data ([`units`]) and the umpire's
//! calculator with the exact odds of the whole chain: a volley with the target's morale test,
//! losses, removal and officer's fate, and a rally ([`combat`]); a charge from the test to charge
//! through the melee, the post-melee tests and the cavalry pursuit ([`melee`]). Not yet: the
//! battle on the table (turn sequence, movement, formations), scenarios and players — see
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
pub mod melee;
pub mod units;

/// The rule set's id in scenario files and on the command line.
pub const RULESET_ID: &str = "der-alte-fritz";
