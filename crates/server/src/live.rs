//! A game of any rule set behind one object-safe trait, so that the server holds games of every
//! rule set side by side and speaks JSON to them.

use serde_json::Value;
use volley_chance::Chance;
use volley_core::{Actor, Agent, ApplyError, GameState, Heuristic, Outcome, PhaseInfo, View, Viewer};

/// Why an action was not taken.
#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// Not an action of this rule set.
    #[error("not an action of this game: {0}")]
    Malformed(String),
    /// The rules refuse it (or a draw could not be made).
    #[error("{0}")]
    Refused(#[from] ApplyError),
}

/// Which of the choices a person reads (each its words and the places it involves) to show: the
/// index of each, less any that reads as an earlier one and goes to the same place (its last
/// place within an inch, or an area, of the other's; or neither names a place). To a person they
/// are one choice. Choices alike in words that go to places apart are kept: the page tells them
/// apart by where they go.
pub fn distinct<'a>(choices: impl IntoIterator<Item = (&'a str, &'a [[f64; 2]])>) -> Vec<usize> {
    let mut kept: Vec<(usize, &str, &[[f64; 2]])> = Vec::new();
    for (i, (text, points)) in choices.into_iter().enumerate() {
        let same = |k: &(usize, &str, &[[f64; 2]])| {
            k.1 == text
                && match (k.2.last(), points.last()) {
                    (Some(p), Some(q)) => (p[0] - q[0]).hypot(p[1] - q[1]) < 1.0,
                    (None, None) => true,
                    _ => false,
                }
        };
        if !kept.iter().any(same) {
            kept.push((i, text, points));
        }
    }
    kept.into_iter().map(|k| k.0).collect()
}

/// A game in progress, of any rule set.
pub trait Live: Send + Sync {
    /// Who must decide now.
    fn actor(&self) -> Actor;
    /// Turn and phase.
    fn phase(&self) -> PhaseInfo;
    /// The outcome, once over.
    fn outcome(&self) -> Option<Outcome>;
    /// What `viewer` may see.
    fn view(&self, viewer: Viewer) -> View;
    /// The actions the actor may take now, as JSON, each with its description and the places it
    /// involves.
    fn candidates(&self) -> Vec<(Value, String, Vec<[f64; 2]>)>;
    /// Whether side 0, side 1 and a spectator may know that `by` took `action` (JSON) now.
    fn visible(&self, by: Actor, action: &Value) -> Result<[bool; 3], LiveError>;
    /// An action (JSON) in words, as the choices say it; `None` if it is not one of this game.
    fn describe(&self, action: &Value) -> Option<String>;
    /// Whether `by` may take `action` (JSON) now, without taking it or drawing anything: the
    /// rule set's reason if not.
    fn check(&self, by: Actor, action: &Value) -> Result<(), LiveError>;
    /// Why `by`'s `action` (JSON) is refused, as the umpire reads it (with the rule, where the
    /// player reads only words); `None` if it is taken or is not an action of this game.
    fn umpire_reason(&self, by: Actor, action: &Value) -> Option<String>;
    /// Apply an action given as JSON, taken by `by`, drawing from `chance`: the rule set
    /// refuses it if it is not `by`'s to take.
    fn apply(&mut self, by: Actor, action: &Value, chance: &mut dyn Chance) -> Result<Applied, LiveError>;
    /// The action a computer player (`random` or `heuristic`) takes now, seeded by `seed`.
    fn choose(&self, player: &str, seed: u64) -> Option<Value>;
    /// The units the umpire's actions name, by index, if the rules give the umpire actions.
    fn umpire_units(&self) -> Option<Vec<String>>;
    /// The umpire's actions as a JSON Schema, if the rules give him any (for his form).
    fn umpire_schema(&self) -> Option<Value>;
    /// For each unit the umpire's actions name, his action about it as it stands now.
    fn umpire_values(&self) -> Option<Vec<Value>>;
    /// Whether a side may know anything the other may not.
    fn has_secrets(&self) -> bool;
    /// What chance the battle draws on, in a word ("dice", "cards"), if any.
    fn chance_words(&self) -> Option<&'static str>;
    /// The rule set's variant, if it has variants.
    fn variant(&self) -> Option<&'static str>;
    /// A copy.
    fn clone_box(&self) -> Box<dyn Live>;
    /// The state's hash.
    fn state_hash(&self) -> u64;
    /// Where the game stands, in words: who won and why, or whose turn it is (for lists of
    /// games; kept with each action).
    fn status(&self) -> String;
}

/// What an action did, as the server keeps it.
#[derive(Clone, Debug)]
pub struct Applied {
    /// What happened, in words, each with whether side 0 and side 1 may see it.
    pub lines: Vec<(String, [bool; 2])>,
    /// Whether side 0, side 1 and a spectator may know the action was taken.
    pub seen: [bool; 3],
}

/// Any battle the server can hold.
pub trait Playable: GameState + Heuristic + volley_core::Tally + Sync {}
impl<T: GameState + Heuristic + volley_core::Tally + Sync> Playable for T {}

/// A battle behind [`Live`].
#[derive(Clone)]
pub struct Erased<B>(pub B);

impl<B: Playable> Live for Erased<B>
where
    B::Event: std::fmt::Display,
{
    fn actor(&self) -> Actor {
        self.0.actor()
    }

    fn phase(&self) -> PhaseInfo {
        self.0.phase()
    }

    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }

    fn view(&self, viewer: Viewer) -> View {
        self.0.view(viewer)
    }

    fn candidates(&self) -> Vec<(Value, String, Vec<[f64; 2]>)> {
        let mut out = Vec::new();
        self.0.candidate_actions(&mut out);
        let mut all: Vec<(Value, String, Vec<[f64; 2]>)> = out
            .iter()
            .filter_map(|a| serde_json::to_value(a).ok().map(|v| (v, self.0.describe(a), self.0.action_points(a))))
            .collect();
        let keep = distinct(all.iter().map(|c| (c.1.as_str(), c.2.as_slice())));
        let mut k = keep.into_iter().peekable();
        let mut i = 0;
        all.retain(|_| {
            let kept = k.peek() == Some(&i);
            if kept {
                k.next();
            }
            i += 1;
            kept
        });
        all
    }

    fn visible(&self, by: Actor, action: &Value) -> Result<[bool; 3], LiveError> {
        let a: B::Action = serde_json::from_value(action.clone()).map_err(|e| LiveError::Malformed(e.to_string()))?;
        Ok([Viewer::Side(0), Viewer::Side(1), Viewer::Spectator].map(|v| self.0.action_visible(by, &a, v)))
    }

    fn describe(&self, action: &Value) -> Option<String> {
        let a: B::Action = serde_json::from_value(action.clone()).ok()?;
        Some(self.0.describe(&a))
    }

    fn check(&self, by: Actor, action: &Value) -> Result<(), LiveError> {
        let a: B::Action = serde_json::from_value(action.clone()).map_err(|e| LiveError::Malformed(e.to_string()))?;
        self.0.validate_by(by, &a).map_err(|e| LiveError::Refused(e.into()))
    }

    fn umpire_reason(&self, by: Actor, action: &Value) -> Option<String> {
        let a: B::Action = serde_json::from_value(action.clone()).ok()?;
        self.0.refusal_for_umpire(by, &a)
    }

    fn apply(&mut self, by: Actor, action: &Value, chance: &mut dyn Chance) -> Result<Applied, LiveError> {
        let a: B::Action = serde_json::from_value(action.clone()).map_err(|e| LiveError::Malformed(e.to_string()))?;
        let seen = [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator].map(|v| self.0.action_visible(by, &a, v));
        let mut events = Vec::new();
        self.0.apply_by(by, &a, chance, &mut events)?;
        let lines = events
            .iter()
            .map(|e| {
                let vis = [self.0.event_visible(e, Viewer::Side(0)), self.0.event_visible(e, Viewer::Side(1))];
                (e.to_string(), vis)
            })
            .collect();
        Ok(Applied { lines, seen })
    }

    fn choose(&self, player: &str, seed: u64) -> Option<Value> {
        let mut agent = volley_ai::by_name::<B>(player, seed)?;
        let mut cands = Vec::new();
        self.0.candidate_actions(&mut cands);
        if cands.is_empty() {
            return None;
        }
        let i = Agent::choose(agent.as_mut(), &self.0, &cands).min(cands.len() - 1);
        serde_json::to_value(&cands[i]).ok()
    }

    fn umpire_units(&self) -> Option<Vec<String>> {
        self.0.umpire_units()
    }

    fn umpire_schema(&self) -> Option<Value> {
        self.0.umpire_schema()
    }

    fn umpire_values(&self) -> Option<Vec<Value>> {
        self.0.umpire_values()
    }

    fn has_secrets(&self) -> bool {
        self.0.has_secrets()
    }

    fn chance_words(&self) -> Option<&'static str> {
        self.0.chance_words()
    }

    fn variant(&self) -> Option<&'static str> {
        volley_core::Tally::variant(&self.0)
    }

    fn clone_box(&self) -> Box<dyn Live> {
        Box::new(self.clone())
    }

    fn state_hash(&self) -> u64 {
        self.0.state_hash()
    }

    fn status(&self) -> String {
        let turn = self.0.phase().turn;
        match (self.0.outcome(), self.0.actor()) {
            (Some(o), _) => match o.winner {
                Some(w) => format!("{} won: {}", self.0.side_name(w), o.reason),
                None => format!("a draw: {}", o.reason),
            },
            (None, Actor::Side(s)) => format!("turn {turn}, {} to act", self.0.side_name(s)),
            (None, other) => format!("turn {turn}, {other} to act"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_alike_in_words_and_place_are_shown_once_and_those_apart_are_kept() {
        let near: &[[f64; 2]] = &[[0.0, 0.0], [10.0, 10.0]];
        let hair: &[[f64; 2]] = &[[0.0, 0.0], [10.3, 10.4]];
        let far: &[[f64; 2]] = &[[0.0, 0.0], [14.0, 10.0]];
        let none: &[[f64; 2]] = &[];
        let choices = [
            ("IR 1: advance 6\" to the mill", near),
            ("IR 1: advance 6\" to the mill", hair),
            ("IR 1: advance 6\" to the mill", far),
            ("end the phase", none),
            ("end the phase", none),
            ("IR 1: advance 6\" towards the wood", hair),
        ];
        assert_eq!(distinct(choices), vec![0, 2, 3, 5]);
    }

    #[test]
    fn no_choice_the_server_offers_reads_as_another_going_to_the_same_place() {
        // Every bundled battle, ten computer battles' worth of decisions each (heuristic and
        // random alternately), as the page is offered them.
        for b in crate::catalog::list() {
            let src = crate::catalog::source(&b.name).expect("bundled");
            let (_, mut live) = crate::catalog::load(&src).expect("loads");
            let mut rng = volley_chance::Seeded::new(7);
            for n in 0..400u64 {
                if live.outcome().is_some() {
                    break;
                }
                let Actor::Side(side) = live.actor() else { break };
                let c = live.candidates();
                for (i, a) in c.iter().enumerate() {
                    for d in &c[i + 1..] {
                        let apart = match (a.2.last(), d.2.last()) {
                            (Some(p), Some(q)) => (p[0] - q[0]).hypot(p[1] - q[1]) >= 1.0,
                            _ => false,
                        };
                        assert!(a.1 != d.1 || apart, "{}, decision {n}: {:?} twice", b.name, a.1);
                    }
                }
                let player = if n % 2 == 0 { "heuristic" } else { "random" };
                let Some(action) = live.choose(player, n + u64::from(side)) else { break };
                live.apply(Actor::Side(side), &action, &mut rng).expect("its own choice");
            }
        }
    }
}
