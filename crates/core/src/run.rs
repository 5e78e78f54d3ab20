//! Playing a battle with agents, and replaying a log.

use volley_chance::{Chance, Draw, DrawError, DrawKind, Recorder, Seeded};

use crate::log::{DrawScheme, Entry, Footer, Header, Log};
use crate::{Actor, Agent, ApplyError, GameState, hash_hex};

/// Why a battle could not be played or replayed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// A candidate the rule set offered was refused: a bug in the rule set.
    #[error("action {n} ({action}) was refused: {error}")]
    Refused {
        /// Sequence number.
        n: u64,
        /// The action, as debug text.
        action: String,
        /// Why.
        error: ApplyError,
    },
    /// The rule set offered no action while the battle was not over: a bug in the rule set.
    #[error("no candidate actions for {0} at action {1}")]
    NoCandidates(Actor, u64),
    /// The actor has no agent.
    #[error("nobody plays for {0}")]
    NoAgent(Actor),
    /// The battle did not end within the limit on actions.
    #[error("the battle was still going after {0} actions")]
    TooLong(u64),
    /// A replayed action was taken by someone other than the log says.
    #[error("action {n}: the log says {logged} acted, but it was {actual}'s turn")]
    WrongActor {
        /// Sequence number.
        n: u64,
        /// Who the log names.
        logged: Actor,
        /// Who was to act.
        actual: Actor,
    },
    /// A replayed action left draws unused.
    #[error("action {n}: {left} recorded draws were not used")]
    UnusedDraws {
        /// Sequence number.
        n: u64,
        /// How many.
        left: usize,
    },
}

/// Plays a battle to its end with one agent per side, recording the log.
pub struct Runner<'a, S: GameState> {
    /// The battle.
    pub state: S,
    /// The log so far.
    pub log: Log<S::Action>,
    /// Every event so far, with the number of the action that caused it.
    pub events: Vec<(u64, S::Event)>,
    /// Whether to keep events (off for batch runs).
    pub keep_events: bool,
    agents: Vec<&'a mut dyn Agent<S>>,
    buf: Vec<S::Action>,
    scratch: Vec<S::Event>,
}

impl<'a, S: GameState> Runner<'a, S> {
    /// A runner for `state`, with `agents[i]` playing side `i`.
    pub fn new(state: S, header: Header, agents: Vec<&'a mut dyn Agent<S>>) -> Self {
        Runner {
            state,
            log: Log { header, entries: Vec::new(), footer: None, signature: None },
            events: Vec::new(),
            keep_events: true,
            agents,
            buf: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Take one decision; returns false when the battle is over.
    pub fn step(&mut self, chance: &mut dyn Chance) -> Result<bool, RunError> {
        if self.state.outcome().is_some() {
            return Ok(false);
        }
        let n = self.log.entries.len() as u64 + 1;
        let actor = self.state.actor();
        let agent = match actor {
            Actor::Side(s) => self.agents.get_mut(usize::from(s)).ok_or(RunError::NoAgent(actor))?,
            Actor::Umpire | Actor::Terminal => return Err(RunError::NoAgent(actor)),
        };
        self.buf.clear();
        self.state.candidate_actions(&mut self.buf);
        if self.buf.is_empty() {
            return Err(RunError::NoCandidates(actor, n));
        }
        let i = agent.choose(&self.state, &self.buf).min(self.buf.len() - 1);
        let action = self.buf.swap_remove(i);
        let mut rec = Recorder::new(chance);
        self.scratch.clear();
        self.state.apply(&action, &mut rec, &mut self.scratch).map_err(|error| RunError::Refused {
            n,
            action: format!("{action:?}"),
            error,
        })?;
        if self.keep_events {
            self.events.extend(self.scratch.drain(..).map(|e| (n, e)));
        }
        self.log.entries.push(Entry { n, by: actor, action, draws: rec.draws });
        Ok(true)
    }

    /// Play until the battle ends (or `max_actions` have been taken), then write the footer.
    pub fn play(&mut self, chance: &mut dyn Chance, max_actions: u64) -> Result<(), RunError> {
        while self.step(chance)? {
            if self.log.entries.len() as u64 >= max_actions {
                return Err(RunError::TooLong(max_actions));
            }
        }
        self.finish();
        Ok(())
    }

    /// Write the footer for the state as it is.
    pub fn finish(&mut self) {
        self.log.footer = Some(Footer {
            actions: self.log.entries.len() as u64,
            turns: self.state.phase().turn,
            outcome: self.state.outcome(),
            state_hash: hash_hex(self.state.state_hash()),
        });
    }
}

/// Replay `entries` on `state`, feeding each action exactly the draws recorded with it.
/// `on_event` sees every event with its action's number.
pub fn replay<S: GameState>(
    state: &mut S,
    entries: &[Entry<S::Action>],
    mut on_event: impl FnMut(u64, &S::Event),
) -> Result<(), RunError> {
    replay_steps(state, entries, |n, _, events| {
        for ev in events {
            on_event(n, ev);
        }
    })
}

/// [`replay`], calling `after(n, state, events)` once after each action with the state it left.
pub fn replay_steps<S: GameState>(
    state: &mut S,
    entries: &[Entry<S::Action>],
    after: impl FnMut(u64, &S, &[S::Event]),
) -> Result<(), RunError> {
    replay_verified(state, entries, None, after)
}

/// [`replay_steps`], checking every draw as it goes: that it is of the kind the rules draw (a
/// die of as many sides, a card from a deck holding as many of each value), and, given the
/// log's seed and how its draws come from it, that it is the value the seed gives. A draw
/// that fails is reported as [`DrawError::Doctored`] inside [`RunError::Refused`].
pub fn replay_verified<S: GameState>(
    state: &mut S,
    entries: &[Entry<S::Action>],
    seed: Option<(u64, DrawScheme)>,
    mut after: impl FnMut(u64, &S, &[S::Event]),
) -> Result<(), RunError> {
    let mut events = Vec::new();
    let mut sequential = match seed {
        Some((s, DrawScheme::Sequential)) => Some(Seeded::new(s)),
        _ => None,
    };
    // Under PerPublicAction: the actions everyone may know of, and each actor's secret ones.
    let mut public = 0u64;
    let mut secret: std::collections::HashMap<Actor, u64> = std::collections::HashMap::new();
    for e in entries {
        // The umpire acts at any decision; a side only when it must.
        let actual = state.actor();
        if actual != e.by && e.by != Actor::Umpire {
            return Err(RunError::WrongActor { n: e.n, logged: e.by, actual });
        }
        let mut per_action = match seed {
            Some((s, DrawScheme::PerAction)) => Some(Seeded::new(Seeded::derive(s, e.n))),
            Some((s, DrawScheme::PerPublicAction)) => {
                let open = state.action_visible(e.by, &e.action, crate::Viewer::Spectator);
                let k = if open {
                    public += 1;
                    public
                } else {
                    let k = secret.entry(e.by).or_insert(0);
                    *k += 1;
                    *k
                };
                Some(Seeded::new(crate::log::draw_seed(s, open, e.by, k)))
            }
            _ => None,
        };
        let mut check = Verified { logged: e.draws.iter(), seeded: per_action.as_mut().or(sequential.as_mut()) };
        events.clear();
        state.apply_by(e.by, &e.action, &mut check, &mut events).map_err(|error| RunError::Refused {
            n: e.n,
            action: format!("{:?}", e.action),
            error,
        })?;
        let left = check.logged.len();
        if left > 0 {
            return Err(RunError::UnusedDraws { n: e.n, left });
        }
        after(e.n, state, &events);
    }
    Ok(())
}

/// The logged draws of one action, checked against what the rules ask for and (if given) the
/// seeded generator.
struct Verified<'a> {
    logged: std::slice::Iter<'a, Draw>,
    seeded: Option<&'a mut Seeded>,
}

impl Chance for Verified<'_> {
    fn draw(&mut self, kind: &DrawKind, purpose: &dyn std::fmt::Display) -> Result<u32, DrawError> {
        let Some(d) = self.logged.next() else {
            return Err(DrawError::Missing { kind: kind.clone(), purpose: purpose.to_string() });
        };
        if d.kind != *kind {
            let why = format!("is {}, where the rules draw {kind}", d.kind);
            return Err(DrawError::Doctored { purpose: purpose.to_string(), why });
        }
        if !kind.admits(d.value) {
            return Err(DrawError::Invalid { value: d.value, kind: kind.clone(), purpose: purpose.to_string() });
        }
        if let Some(g) = self.seeded.as_deref_mut() {
            let v = g.draw(kind, purpose)?;
            if v != d.value {
                let why = format!("is {}, but the log's seed gives {v}", d.value);
                return Err(DrawError::Doctored { purpose: purpose.to_string(), why });
            }
        }
        Ok(d.value)
    }
}
