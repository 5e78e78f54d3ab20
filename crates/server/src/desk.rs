//! The umpire's desk: each rule set's calculator behind one object-safe trait — the situation's
//! JSON Schema (the page builds its form from it), exact odds, and a resolution with the seeded
//! generator or the dice and cards rolled on a real table.

use schemars::JsonSchema;
use serde_json::{Value, json};
use volley_chance::{Chance, Recorder, Scripted, Seeded};
use volley_core::calc::Calculator;

use crate::server::ApiError;

/// A rule set's calculator, for JSON.
pub trait Desk: Send + Sync {
    /// The situation's JSON Schema.
    fn schema(&self) -> Value;
    /// Every outcome with its exact probability, most likely first.
    fn odds(&self, situation: &Value) -> Result<Value, ApiError>;
    /// One combat resolved: with `draws` (as a person types them) if given, else with `seed`;
    /// the answer lists every draw made, in order, with what it was for.
    fn resolve(&self, situation: &Value, draws: Option<&str>, seed: u64) -> Result<Value, ApiError>;
}

struct Of<C>(C);

fn situation<C: Calculator>(v: &Value) -> Result<C::Situation, ApiError>
where
    C::Situation: JsonSchema,
{
    serde_json::from_value(v.clone()).map_err(|e| {
        let e = e.to_string();
        // A situation of several kinds (Der Alte Fritz, En Avant) is an object with the kind as
        // its only key: say which kinds there are rather than serde's "a map with a single key".
        let kinds = kinds(&serde_json::to_value(schemars::schema_for!(C::Situation)).unwrap_or(Value::Null));
        if e.contains("single key") && !kinds.is_empty() {
            return ApiError::bad(format!(
                "the situation: one kind of combat as its only key, one of {}, such as {{\"{}\": {{...}}}}",
                kinds.join(", "),
                kinds[0]
            ));
        }
        ApiError::bad(format!("the situation: {}", volley_scenario::in_plain_words(&e)))
    })
}

/// The kinds of a situation whose schema is one of several objects, each with a single
/// required key (an externally tagged enum).
fn kinds(schema: &Value) -> Vec<String> {
    let Some(one_of) = schema.get("oneOf").and_then(Value::as_array) else { return Vec::new() };
    one_of
        .iter()
        .filter_map(|s| match s.get("required").and_then(Value::as_array).map(Vec::as_slice) {
            Some([k]) => k.as_str().map(str::to_string),
            _ => None,
        })
        .collect()
}

impl<C> Desk for Of<C>
where
    C: Calculator + Send + Sync,
    C::Situation: JsonSchema,
{
    fn schema(&self) -> Value {
        serde_json::to_value(schemars::schema_for!(C::Situation)).unwrap_or(Value::Null)
    }

    fn odds(&self, v: &Value) -> Result<Value, ApiError> {
        let s = situation::<C>(v)?;
        let outcomes = self.0.odds(&s).map_err(|e| ApiError::bad(e.to_string()))?;
        let list: Vec<Value> = outcomes
            .iter()
            .map(|o| json!({"outcome": o.outcome.to_string(), "detail": o.outcome, "probability": o.probability}))
            .collect();
        Ok(json!({"outcomes": list}))
    }

    fn resolve(&self, v: &Value, draws: Option<&str>, seed: u64) -> Result<Value, ApiError> {
        let s = situation::<C>(v)?;
        let mut seeded = Seeded::new(seed);
        let mut scripted = match draws {
            Some(text) => Scripted::parse(text).map_err(|e| ApiError::bad(format!("the draws: {e}")))?,
            None => Scripted::default(),
        };
        let chance: &mut dyn Chance = if draws.is_some() { &mut scripted } else { &mut seeded };
        // Every draw made, in order, with what it was for: the umpire learns what to roll.
        let mut recorder = Recorder::new(chance);
        let r = self.0.resolve(&s, &mut recorder).map_err(|e| ApiError::bad(e.to_string()))?;
        let made = std::mem::take(&mut recorder.draws);
        if scripted.remaining() > 0 {
            return Err(ApiError::bad(format!(
                "{} of the draws given were not needed (this combat needed {}, in this order: {})",
                scripted.remaining(),
                made.len(),
                made.iter().map(|d| d.purpose.as_str()).collect::<Vec<_>>().join("; ")
            )));
        }
        Ok(json!({"text": r.to_string(), "resolution": r, "draws": made}))
    }
}

/// The desk of a rule set, by id. Its schema carries `examples`: a situation of each kind the
/// rule set's calculator works out, from which the page's form starts (an ordinary combat, not
/// zeros that no rule accepts).
pub fn desk(ruleset: &str) -> Option<Box<dyn Desk>> {
    let inner = with_calculator!(ruleset, C, _S => Some(Box::new(Of(C::default())) as Box<dyn Desk>), else None)?;
    let examples = EXAMPLES
        .iter()
        .filter(|(id, _)| *id == ruleset)
        .filter_map(|(_, text)| serde_json::from_str(text).ok())
        .collect();
    Some(Box::new(WithExamples { inner, examples }))
}

/// A situation of each kind, by rule set: the fuzz corpus's seeds, each a valid situation (a
/// test resolves every one).
const EXAMPLES: &[(&str, &str)] = &[
    ("blown-away", include_str!("../../../fuzz/corpus/situations/blown-away/cavalry-on-the-flank.json")),
    ("itchy-scratchy", include_str!("../../../fuzz/corpus/situations/itchy-scratchy/machine-guns.json")),
    ("old-fritz", include_str!("../../../fuzz/corpus/situations/old-fritz/cuirassiers.json")),
    ("der-alte-fritz", include_str!("../../../fuzz/corpus/situations/der-alte-fritz/volley.json")),
    ("der-alte-fritz", include_str!("../../../fuzz/corpus/situations/der-alte-fritz/charge.json")),
    ("der-alte-fritz", include_str!("../../../fuzz/corpus/situations/der-alte-fritz/rally.json")),
    ("en-avant", include_str!("../../../fuzz/corpus/situations/en-avant/assault.json")),
    ("en-avant", include_str!("../../../fuzz/corpus/situations/en-avant/fire.json")),
];

struct WithExamples {
    inner: Box<dyn Desk>,
    examples: Vec<Value>,
}

impl Desk for WithExamples {
    fn schema(&self) -> Value {
        let mut schema = self.inner.schema();
        if let Some(o) = schema.as_object_mut() {
            o.insert("examples".into(), Value::Array(self.examples.clone()));
        }
        schema
    }

    fn odds(&self, situation: &Value) -> Result<Value, ApiError> {
        self.inner.odds(situation)
    }

    fn resolve(&self, situation: &Value, draws: Option<&str>, seed: u64) -> Result<Value, ApiError> {
        self.inner.resolve(situation, draws, seed)
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_situation_without_its_kind_says_which_kinds_there_are() {
        for (ruleset, kinds) in [("der-alte-fritz", ["volley", "melee"]), ("en-avant", ["fire", "assault"])] {
            let d = desk(ruleset).unwrap();
            let e = d.odds(&json!({})).unwrap_err().message;
            assert!(e.starts_with("the situation: one kind of combat as its only key, one of"), "{e}");
            for k in kinds {
                assert!(e.contains(k), "{ruleset}: {e}");
            }
        }
        // A rule set with one kind of situation keeps serde's words, made plain.
        let e = desk("old-fritz").unwrap().odds(&json!({"attacker": 1})).unwrap_err().message;
        assert!(e.starts_with("the situation: "), "{e}");
    }
}
