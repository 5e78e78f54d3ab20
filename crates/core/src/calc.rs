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
    /// One field of the situation is impossible: its path (keys and indices joined by dots,
    /// such as `attacker.figures`), so that a tool can point at it, and why.
    #[error("{path}: {message}")]
    Field {
        /// Where, such as `defender.men_in_ranks`.
        path: String,
        /// What is wrong.
        message: String,
    },
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

impl CalcError {
    /// A [`CalcError::Field`] at `path`.
    pub fn field(path: impl Into<String>, message: impl Into<String>) -> Self {
        CalcError::Field { path: path.into(), message: message.into() }
    }

    /// The situation's field it is about, if one.
    pub fn path(&self) -> Option<&str> {
        match self {
            CalcError::Field { path, .. } => Some(path),
            _ => None,
        }
    }
}

/// Where `path` (keys and indices joined by dots) is in the JSON `text`: the byte offset of its
/// key (or of an array's element), if the text has it. For pointing at a field of a situation
/// file that the rules refuse.
pub fn locate(text: &str, path: &str) -> Option<usize> {
    let want: Vec<&str> = path.split('.').collect();
    let b = text.as_bytes();
    let mut i = 0;
    find(b, &mut i, &want, 0)
}

fn skip_ws(b: &[u8], i: &mut usize) {
    while *i < b.len() && b[*i].is_ascii_whitespace() {
        *i += 1;
    }
}

/// Skip a string at `i` (its opening quote); returns its contents' span.
fn string(b: &[u8], i: &mut usize) -> Option<(usize, usize)> {
    if b.get(*i) != Some(&b'"') {
        return None;
    }
    let start = *i + 1;
    *i += 1;
    while *i < b.len() {
        match b[*i] {
            b'\\' => *i += 2,
            b'"' => {
                *i += 1;
                return Some((start, *i - 1));
            }
            _ => *i += 1,
        }
    }
    None
}

/// Walk the value at `i`; if `want[depth..]` leads into it, the offset found.
fn find(b: &[u8], i: &mut usize, want: &[&str], depth: usize) -> Option<usize> {
    skip_ws(b, i);
    match b.get(*i)? {
        b'{' => {
            *i += 1;
            loop {
                skip_ws(b, i);
                if b.get(*i) == Some(&b'}') {
                    *i += 1;
                    return None;
                }
                let at = *i;
                let (s, e) = string(b, i)?;
                skip_ws(b, i);
                if b.get(*i) != Some(&b':') {
                    return None;
                }
                *i += 1;
                let hit = want.get(depth).is_some_and(|w| w.as_bytes() == &b[s..e]);
                if hit && depth + 1 == want.len() {
                    return Some(at);
                }
                if let Some(found) = find(b, i, if hit { want } else { &[] }, depth + 1) {
                    return Some(found);
                }
                skip_ws(b, i);
                match b.get(*i)? {
                    b',' => *i += 1,
                    b'}' => {
                        *i += 1;
                        return None;
                    }
                    _ => return None,
                }
            }
        }
        b'[' => {
            *i += 1;
            let mut k = 0usize;
            loop {
                skip_ws(b, i);
                if b.get(*i) == Some(&b']') {
                    *i += 1;
                    return None;
                }
                let hit = want.get(depth).is_some_and(|w| w.parse() == Ok(k));
                if hit && depth + 1 == want.len() {
                    return Some(*i);
                }
                if let Some(found) = find(b, i, if hit { want } else { &[] }, depth + 1) {
                    return Some(found);
                }
                skip_ws(b, i);
                match b.get(*i)? {
                    b',' => *i += 1,
                    b']' => {
                        *i += 1;
                        return None;
                    }
                    _ => return None,
                }
                k += 1;
            }
        }
        b'"' => {
            string(b, i)?;
            None
        }
        _ => {
            while *i < b.len() && !matches!(b[*i], b',' | b'}' | b']') && !b[*i].is_ascii_whitespace() {
                *i += 1;
            }
            None
        }
    }
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
    fn a_field_is_found_by_its_path() {
        let text = "{ \"attacker\": { \"arm\": \"infantry\", \"figures\": 0 },\n  \"defender\": { \"figures\": 12, \"x\": [1, {\"figures\": 3}] } }";
        let at = |p| locate(text, p).map(|i| &text[i..i + 11]);
        assert_eq!(at("attacker.figures"), Some("\"figures\": "));
        assert_eq!(locate(text, "defender.figures"), text.rfind("\"figures\": 12"));
        assert_eq!(locate(text, "defender.x.1.figures"), text.rfind("\"figures\": 3"));
        assert_eq!(locate(text, "defender.x.0"), text.find("1,"));
        assert_eq!(locate(text, "defender.arm"), None);
        assert_eq!(locate("{ \"a\": ", "a.b"), None, "cut short");
    }

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
