//! Computer players for any rule set.
//!
//! * [`RandomAgent`] picks uniformly among the candidate actions.
//! * [`HeuristicAgent`] picks the candidate the rule set's [`Heuristic`] scores highest,
//!   breaking ties at random.
//! * [`MctsAgent`] searches ahead by Monte Carlo tree search (see [`mcts`]), with the heuristic
//!   player as its guide and its rollout policy.
//!
//! Both draw their own randomness from a seeded [`Seeded`] generator, apart from the battle's,
//! so the same seeds replay the same battle.
//!
//! What this crate is not: it knows no rule set; rule-specific judgement lives in each rule set's
//! `Heuristic` implementation.
#![deny(missing_docs)]

pub mod mcts;

use volley_chance::Seeded;
use volley_core::{Agent, GameState, Heuristic, Tally};

pub use mcts::{Budget, MctsAgent, MctsConfig};

/// The names [`by_name`] accepts. `mcts` takes options: `mcts:500ms`, `mcts:2000` (iterations),
/// `mcts:200ms:2t` (two threads); see [`MctsConfig::parse`].
pub const AGENTS: [&str; 3] = ["random", "heuristic", "mcts[:200ms|:ITERATIONS][:THREADSt][:rROLLOUT]"];

/// Picks uniformly at random.
#[derive(Clone, Debug)]
pub struct RandomAgent {
    rng: Seeded,
}

impl RandomAgent {
    /// A random agent with its own seed.
    pub fn new(seed: u64) -> Self {
        RandomAgent { rng: Seeded::new(seed) }
    }
}

impl<S: GameState> Agent<S> for RandomAgent {
    fn name(&self) -> &str {
        "random"
    }

    fn choose(&mut self, _state: &S, candidates: &[S::Action]) -> usize {
        self.rng.below(candidates.len().max(1) as u64) as usize
    }
}

/// Picks the best-scored candidate.
#[derive(Clone, Debug)]
pub struct HeuristicAgent {
    rng: Seeded,
    scores: Vec<f64>,
}

impl HeuristicAgent {
    /// A heuristic agent; `seed` breaks ties.
    pub fn new(seed: u64) -> Self {
        HeuristicAgent { rng: Seeded::new(seed), scores: Vec::new() }
    }
}

impl<S: Heuristic> Agent<S> for HeuristicAgent {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn choose(&mut self, state: &S, candidates: &[S::Action]) -> usize {
        let mut best = f64::NEG_INFINITY;
        let mut ties = 0u64;
        let mut pick = 0;
        self.scores.clear();
        state.scores(candidates, &mut self.scores);
        for (i, &s) in self.scores.iter().enumerate() {
            if s > best + 1e-9 {
                best = s;
                pick = i;
                ties = 1;
            } else if (s - best).abs() <= 1e-9 {
                // Reservoir sampling among equal scores.
                ties += 1;
                if self.rng.below(ties) == 0 {
                    pick = i;
                }
            }
        }
        pick
    }
}

/// An agent by name (`random`, `heuristic`, `mcts` with its options), seeded.
pub fn by_name<S: Heuristic + Tally + Sync>(name: &str, seed: u64) -> Option<Box<dyn Agent<S>>> {
    match name {
        "random" => Some(Box::new(RandomAgent::new(seed))),
        "heuristic" => Some(Box::new(HeuristicAgent::new(seed))),
        _ => MctsConfig::parse(name).map(|cfg| Box::new(MctsAgent::new(cfg, seed)) as Box<dyn Agent<S>>),
    }
}

/// The agents of a battle's seats, one a side, by name, each seeded from the battle's `seed` as
/// `volley play --seed` seeds them: every tool that plays battle `seed` with the same names plays
/// the same battle. The error is the first unknown name.
pub fn seated<S: Heuristic + Tally + Sync>(names: &[String], seed: u64) -> Result<Vec<Box<dyn Agent<S>>>, String> {
    names
        .iter()
        .enumerate()
        .map(|(i, n)| by_name::<S>(n, Seeded::derive(seed, 1000 + i as u64)).ok_or_else(|| n.clone()))
        .collect()
}

/// Let `agent` decide for whichever side is to act while `go_on(state, decisions taken)` holds,
/// drawing from `chance`, until the battle ends or nobody but a side could act. `false` if the
/// rule set refused one of its own candidates (the battle stands where it was).
pub(crate) fn play_on<S: GameState, A: Agent<S>>(
    s: &mut S,
    agent: &mut A,
    chance: &mut dyn volley_chance::Chance,
    go_on: &mut dyn FnMut(&S, usize) -> bool,
    cands: &mut Vec<S::Action>,
    events: &mut Vec<S::Event>,
) -> bool {
    let mut taken = 0;
    while s.outcome().is_none() && go_on(s, taken) {
        if !matches!(s.actor(), volley_core::Actor::Side(_)) {
            break;
        }
        cands.clear();
        s.candidate_actions(cands);
        if cands.is_empty() {
            break;
        }
        let i = agent.choose(s, cands).min(cands.len() - 1);
        events.clear();
        if s.apply(&cands[i], chance, events).is_err() {
            return false;
        }
        taken += 1;
    }
    true
}

/// The battle `start` after `decisions` decisions by the heuristic player on both sides (fewer
/// if it ends first), its dice from `seed`: a position from the thick of a battle, for
/// benchmarks and tests. `None` if the rule set refuses one of its own candidates.
pub fn advanced<S: Heuristic>(start: &S, decisions: usize, seed: u64) -> Option<S> {
    heuristic_play(start, seed, &mut |_, taken| taken < decisions)
}

/// The battle `start` played on by the heuristic player on both sides for as long as `go_on`
/// holds (and the battle lasts), its dice from `seed`: a battle at its second turn, say, or a
/// benchmark's whole turn. `None` if the rule set refuses one of its own candidates.
pub fn advanced_while<S: Heuristic>(start: &S, seed: u64, mut go_on: impl FnMut(&S) -> bool) -> Option<S> {
    heuristic_play(start, seed, &mut |s, _| go_on(s))
}

/// Play up to `decisions` decisions of the battle `start` with the heuristic player (dice from
/// `seed`), checking before each that scoring all the candidates at once ([`Heuristic::scores`],
/// which a rule set may speed up by sharing work) gives what scoring each alone does
/// ([`Heuristic::score`]): the decisions checked, or the first that differs (the action and both
/// scores). A rule set's tests call this.
pub fn check_scores<S: Heuristic>(start: &S, decisions: usize, seed: u64) -> Result<usize, String> {
    let (mut cands, mut scores, mut differs) = (Vec::new(), Vec::new(), None);
    let mut checked = 0;
    let played = heuristic_play(start, seed, &mut |s, taken| {
        if taken == decisions {
            return false;
        }
        cands.clear();
        s.candidate_actions(&mut cands);
        scores.clear();
        s.scores(&cands, &mut scores);
        differs = cands.iter().zip(&scores).find_map(|(a, &together)| {
            let alone = s.score(a);
            (alone.to_bits() != together.to_bits())
                .then(|| format!("decision {taken}: {}: {together} among all, {alone} alone", s.describe(a)))
        });
        checked = taken + 1;
        differs.is_none()
    });
    match (differs, played) {
        (Some(why), _) => Err(why),
        (None, None) => Err(format!("decision {checked}: the rule set refused its own candidate")),
        (None, Some(_)) => Ok(checked),
    }
}

/// `start` played on by the heuristic player on both sides (dice from `seed`) while
/// `go_on(state, decisions taken)` holds; `None` if the rule set refuses its own candidate.
fn heuristic_play<S: Heuristic>(start: &S, seed: u64, go_on: &mut dyn FnMut(&S, usize) -> bool) -> Option<S> {
    let mut s = start.clone();
    let (mut agent, mut rng) = (HeuristicAgent::new(seed), Seeded::new(seed));
    play_on(&mut s, &mut agent, &mut rng, go_on, &mut Vec::new(), &mut Vec::new()).then_some(s)
}

/// The first position from `decisions` decisions into a battle (as [`advanced`] plays it) on
/// where the side to act has a choice, with its candidates: where a benchmark of a player's
/// decision starts. `None` if the battle ends first or the rule set refuses its own candidate.
pub fn position_with_a_choice<S: Heuristic>(start: &S, decisions: usize, seed: u64) -> Option<(S, Vec<S::Action>)> {
    let mut s = advanced(start, decisions, seed)?;
    let mut cands = Vec::new();
    loop {
        if s.outcome().is_some() {
            return None;
        }
        cands.clear();
        s.candidate_actions(&mut cands);
        if cands.len() > 1 {
            return Some((s, cands));
        }
        s = advanced(&s, 1, seed)?;
    }
}
