//! The umpire's calculator: one combat, described, resolved with explanation; and the exact
//! probability of every outcome.
//!
//! A rule set exposes its combat as a [`Calculator`]: a situation type (everything the combat
//! depends on, in the rule set's own words), a resolution (the dice or cards, each modifier with
//! the rule it came from, the result line that applied) and an outcome (what the result means
//! for the units). The same pure function serves the game on the virtual table, `volley resolve`
//! and `volley odds`.

use std::fmt::Display;

use serde::Serialize;
use serde::de::DeserializeOwned;
use volley_chance::{Chance, DrawError};

/// Why a combat could not be resolved or its odds worked out.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CalcError {
    /// The situation is impossible under the rules; says what and why.
    #[error("{0}")]
    Invalid(String),
    /// A draw could not be made (a person must supply it, or supplied an impossible value).
    #[error("{0}")]
    Draw(#[from] DrawError),
}

/// One outcome and its probability.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OutcomeProbability<O> {
    /// The outcome.
    pub outcome: O,
    /// Its exact probability.
    pub probability: f64,
}

/// A rule set's combat, as the umpire's calculator sees it.
pub trait Calculator {
    /// Everything one combat depends on.
    type Situation: DeserializeOwned;
    /// A resolved combat with its explanation.
    type Resolution: Serialize + Display;
    /// What a combat can come to, for the odds.
    type Outcome: Serialize + Display + Clone + PartialEq;

    /// Resolve one combat, drawing dice or cards from `chance`.
    fn resolve(&self, situation: &Self::Situation, chance: &mut dyn Chance) -> Result<Self::Resolution, CalcError>;

    /// The exact probability of every outcome (worked out, not sampled), most likely first;
    /// the probabilities sum to 1.
    fn odds(&self, situation: &Self::Situation) -> Result<Vec<OutcomeProbability<Self::Outcome>>, CalcError>;
}

/// Add `probability` to `outcome` in `out`: to its entry if it has one, else as a new entry.
pub fn add_outcome<O: PartialEq>(out: &mut Vec<OutcomeProbability<O>>, outcome: O, probability: f64) {
    match out.iter_mut().find(|x| x.outcome == outcome) {
        Some(x) => x.probability += probability,
        None => out.push(OutcomeProbability { outcome, probability }),
    }
}

/// Order outcomes most likely first; equally likely ones in the outcome's own order, so the
/// list reads the same on every run.
pub fn most_likely_first<O: Ord>(out: &mut [OutcomeProbability<O>]) {
    out.sort_by(|a, b| b.probability.total_cmp(&a.probability).then(a.outcome.cmp(&b.outcome)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_gather_and_sort_most_likely_first() {
        let mut out = Vec::new();
        add_outcome(&mut out, 'b', 0.25);
        add_outcome(&mut out, 'a', 0.25);
        add_outcome(&mut out, 'c', 0.125);
        add_outcome(&mut out, 'c', 0.375);
        assert_eq!(out.len(), 3, "a second 'c' adds to the first");
        most_likely_first(&mut out);
        let order: Vec<(char, f64)> = out.iter().map(|o| (o.outcome, o.probability)).collect();
        assert_eq!(order, [('c', 0.5), ('a', 0.25), ('b', 0.25)]);
    }
}
