//! Many battles at once: play N battles of a scenario in parallel (rayon), each exactly as
//! `volley play --seed` would, and sum them up — wins with confidence intervals, casualties,
//! battle lengths, what became of each unit — with SVG plots.
//!
//! Battle `i` has seed `Seeded::derive(master, i)`; results are gathered in index order, so the
//! summary is the same whatever the number of threads.
//!
//! What this crate is not: it knows no rule set and reads no files; it is generic over
//! [`GameState`] + [`Heuristic`] + [`Tally`].
#![deny(missing_docs)]

pub mod plot;
pub mod stats;

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use serde::Serialize;
use volley_chance::Seeded;
use volley_core::{Actor, Agent, GameState, Heuristic, Tally, Viewer};

use crate::stats::{Counts, Dist, wilson};

/// Why a simulation could not run.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// An agent's name is unknown.
    #[error("unknown agent {0:?}: expected one of {agents}", agents = volley_ai::AGENTS.join(", "))]
    Agent(String),
    /// A battle failed: a bug in the rule set.
    #[error("battle {index} (seed {seed}) failed: {why}")]
    Battle {
        /// Its index.
        index: u64,
        /// Its seed.
        seed: u64,
        /// What went wrong.
        why: String,
    },
    /// A record could not be written.
    #[error("cannot write a battle's record: {0}")]
    Io(#[from] std::io::Error),
    /// The thread pool could not be built.
    #[error("cannot start {0} threads")]
    Threads(usize),
    /// More threads asked for than any machine has use for.
    #[error("jobs: at most {MAX_JOBS} threads, not {0}")]
    TooManyThreads(usize),
}

/// What to simulate.
#[derive(Clone, Debug)]
pub struct Config {
    /// Battles to play.
    pub runs: u64,
    /// The master seed.
    pub master_seed: u64,
    /// The agents of the two sides.
    pub agents: [String; 2],
    /// Threads (0: as many as cores).
    pub jobs: usize,
    /// A battle still going after this many actions is an error.
    pub max_actions: u64,
}

/// One side's figures in one battle.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct SideRecord {
    /// Strength at the start, in the rule set's measure.
    pub start: usize,
    /// Lost for good.
    pub lost: usize,
    /// Out of action for now (running).
    pub running: usize,
}

impl SideRecord {
    /// Losses as a percentage of the start.
    pub fn casualty_pct(&self) -> f64 {
        self.lost as f64 * 100.0 / self.start.max(1) as f64
    }
}

/// One battle's result.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
pub struct BattleRecord {
    /// Its index.
    pub index: u64,
    /// Its seed (`volley play --seed` plays it again).
    pub seed: u64,
    /// The winner, if any.
    pub winner: Option<u8>,
    /// Turns played.
    pub turns: u32,
    /// Decisions taken.
    pub actions: u64,
    /// Each side's figures.
    pub sides: [SideRecord; 2],
    /// Units (by their index in the first view's list) no longer on the table at the end.
    pub gone: Vec<u16>,
    /// Units whose every piece was running at the end.
    pub routed: Vec<u16>,
}

/// The units of a battle as its view lists them: (name, side), in order of first appearance.
fn units_of(view: &volley_core::View) -> Vec<(String, Option<u8>)> {
    let mut out: Vec<(String, Option<u8>)> = Vec::new();
    for p in &view.pieces {
        if let Some(u) = &p.unit
            && !out.iter().any(|(n, _)| n == u)
        {
            out.push((u.clone(), p.side));
        }
    }
    out
}

/// Play one battle as `volley play --seed seed --agents a,b` does.
pub fn play_one<B>(
    start: &B,
    index: u64,
    seed: u64,
    cfg: &Config,
    units: &[(String, Option<u8>)],
) -> Result<BattleRecord, SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let mut agents: Vec<Box<dyn Agent<B>>> = volley_ai::seated(&cfg.agents, seed).map_err(SimError::Agent)?;
    let mut state = start.clone();
    let mut rng = Seeded::new(seed);
    let mut cands = Vec::new();
    let mut events = Vec::new();
    let mut actions = 0u64;
    let fail = |why: String| SimError::Battle { index, seed, why };
    while state.outcome().is_none() {
        if actions >= cfg.max_actions {
            return Err(fail(format!(
                "still going after {actions} actions, at turn {}: nothing in the scenario ended it (a `turn_limit` would)",
                state.phase().turn
            )));
        }
        let Actor::Side(side) = state.actor() else {
            return Err(fail(format!("no side to act but {}", state.actor())));
        };
        cands.clear();
        state.candidate_actions(&mut cands);
        if cands.is_empty() {
            return Err(fail("no candidate actions".into()));
        }
        let agent = agents.get_mut(usize::from(side)).ok_or_else(|| fail(format!("no agent for side {side}")))?;
        let i = agent.choose(&state, &cands).min(cands.len() - 1);
        events.clear();
        state.apply(&cands[i], &mut rng, &mut events).map_err(|e| fail(e.to_string()))?;
        actions += 1;
    }
    let end = state.view(Viewer::Umpire);
    let mut gone = Vec::new();
    let mut routed = Vec::new();
    for (k, (name, _)) in units.iter().enumerate() {
        let pieces: Vec<&volley_core::ViewPiece> =
            end.pieces.iter().filter(|p| p.unit.as_ref() == Some(name)).collect();
        if pieces.is_empty() {
            gone.push(k as u16);
        } else if pieces.iter().all(|p| p.status == "running" || p.status == "fallen") {
            routed.push(k as u16);
        }
    }
    let side = |s: u8| {
        let (start, lost, running) = state.tally(s);
        SideRecord { start, lost, running }
    };
    Ok(BattleRecord {
        index,
        seed,
        winner: state.outcome().and_then(|o| o.winner),
        turns: state.phase().turn,
        actions,
        sides: [side(0), side(1)],
        gone,
        routed,
    })
}

/// The most threads a simulation starts (`jobs`); more is refused (a machine has no use for
/// them, and starting them all takes memory and time).
pub const MAX_JOBS: usize = 1024;

/// The thread pool for `cfg`: `cfg.jobs` threads (0: one a core), never more than the battles
/// to play.
fn pool(cfg: &Config, battles: u64) -> Result<rayon::ThreadPool, SimError> {
    if cfg.jobs > MAX_JOBS {
        return Err(SimError::TooManyThreads(cfg.jobs));
    }
    let n = if cfg.jobs == 0 { 0 } else { cfg.jobs.min(usize::try_from(battles.max(1)).unwrap_or(usize::MAX)) };
    rayon::ThreadPoolBuilder::new().num_threads(n).build().map_err(|_| SimError::Threads(cfg.jobs))
}

/// Battles are played this many at a time, so that what waits to be handed on in order stays
/// small however many battles there are.
const CHUNK: u64 = 4096;

/// Play `cfg.runs` battles from `start` on `cfg.jobs` threads and hand each record to `sink` in
/// index order as soon as it and all before it are done; `progress(done)` is called as battles
/// finish (from any thread). Memory does not grow with `cfg.runs`.
pub fn run_each<B>(
    start: &B,
    cfg: &Config,
    progress: &(dyn Fn(u64) + Sync),
    sink: &mut dyn FnMut(BattleRecord) -> std::io::Result<()>,
) -> Result<(), SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let units = units_of(&start.view(Viewer::Umpire));
    let pool = pool(cfg, cfg.runs)?;
    let done = AtomicU64::new(0);
    let mut from = 0;
    while from < cfg.runs {
        let to = cfg.runs.min(from + CHUNK);
        let records = pool.install(|| {
            (from..to)
                .into_par_iter()
                .map(|i| {
                    let r = play_one(start, i, Seeded::derive(cfg.master_seed, i), cfg, &units);
                    progress(done.fetch_add(1, Ordering::Relaxed) + 1);
                    r
                })
                .collect::<Result<Vec<_>, _>>()
        })?;
        for r in records {
            sink(r)?;
        }
        from = to;
    }
    Ok(())
}

/// Play the battles numbered `indices` of the `cfg.runs` that [`run`] would play (their seeds
/// derived from the master seed and their numbers, as there) on `cfg.jobs` threads: a share of a
/// simulation split between machines. Their records, in index order, are [`run`]'s for those
/// numbers; gathered from every share, they make the same [`summarize`].
pub fn run_indices<B>(start: &B, cfg: &Config, indices: std::ops::Range<u64>) -> Result<Vec<BattleRecord>, SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let units = units_of(&start.view(Viewer::Umpire));
    let pool = pool(cfg, indices.end.saturating_sub(indices.start))?;
    pool.install(|| {
        indices
            .into_par_iter()
            .map(|i| play_one(start, i, Seeded::derive(cfg.master_seed, i), cfg, &units))
            .collect::<Result<Vec<_>, _>>()
    })
}

/// Play `cfg.runs` battles as [`run_each`] does, keeping every record (in index order).
pub fn run<B>(start: &B, cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Result<Vec<BattleRecord>, SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let mut out = Vec::new();
    run_each(start, cfg, progress, &mut |r| {
        out.push(r);
        Ok(())
    })?;
    Ok(out)
}

/// One side over all the battles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// Its name.
    pub name: String,
    /// Its agent.
    pub agent: String,
    /// Battles won.
    pub wins: u64,
    /// Wins over all battles.
    pub win_rate: f64,
    /// The 95% Wilson interval of the win rate.
    pub win_rate_95: [f64; 2],
    /// Casualties as a percentage of its strength at the start.
    pub casualty_pct: Dist,
}

/// What became of one unit over all the battles.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct UnitSummary {
    /// Its name.
    pub name: String,
    /// Its side at the start.
    pub side: Option<u8>,
    /// Battles it ended off the table (destroyed, dispersed, fled...).
    pub gone: u64,
    /// Battles it ended running.
    pub routed: u64,
}

/// All the battles summed up.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// The scenario.
    pub scenario: String,
    /// The rule set's variant, if any.
    pub variant: Option<String>,
    /// The master seed.
    pub master_seed: u64,
    /// Battles played.
    pub runs: u64,
    /// What the strengths count (men, figures, strength points).
    pub measure: String,
    /// Each side.
    pub sides: Vec<SideSummary>,
    /// Drawn battles.
    pub draws: u64,
    /// The 95% Wilson interval of the share of draws.
    pub draw_rate_95: [f64; 2],
    /// Battle length in turns.
    pub turns: Dist,
    /// Each unit.
    pub units: Vec<UnitSummary>,
}

/// The running sums of a simulation: battles are added one at a time and forgotten; what is kept
/// grows with the scenario (its units, the values losses and lengths can take), not with the
/// number of battles.
#[derive(Clone, Debug)]
pub struct Accumulator {
    units: Vec<(String, Option<u8>)>,
    wins: [u64; 2],
    draws: u64,
    casualties: [Counts; 2],
    turns: Counts,
    gone: Vec<u64>,
    routed: Vec<u64>,
}

impl Accumulator {
    /// Empty sums for battles from `start`.
    pub fn new<B: GameState>(start: &B) -> Self {
        let units = units_of(&start.view(Viewer::Umpire));
        let n = units.len();
        Accumulator {
            units,
            wins: [0; 2],
            draws: 0,
            casualties: Default::default(),
            turns: Counts::default(),
            gone: vec![0; n],
            routed: vec![0; n],
        }
    }

    /// Add one battle.
    pub fn add(&mut self, r: &BattleRecord) {
        match r.winner {
            Some(w) => self.wins[usize::from(w) & 1] += 1,
            None => self.draws += 1,
        }
        for (c, s) in self.casualties.iter_mut().zip(&r.sides) {
            c.add(s.casualty_pct());
        }
        self.turns.add(f64::from(r.turns));
        for &u in &r.gone {
            if let Some(g) = self.gone.get_mut(usize::from(u)) {
                *g += 1;
            }
        }
        for &u in &r.routed {
            if let Some(g) = self.routed.get_mut(usize::from(u)) {
                *g += 1;
            }
        }
    }

    /// A side's casualty percentages so far.
    pub fn casualties(&self, side: u8) -> &Counts {
        &self.casualties[usize::from(side) & 1]
    }

    /// The battles' lengths in turns so far.
    pub fn turns(&self) -> &Counts {
        &self.turns
    }

    /// The summary of the battles added.
    pub fn summary<B: Tally>(&self, start: &B, cfg: &Config) -> Summary {
        let n = self.turns.len();
        let sides = (0..2u8)
            .map(|s| {
                let wins = self.wins[usize::from(s)];
                SideSummary {
                    name: start.side_name(s).to_string(),
                    agent: cfg.agents[usize::from(s)].clone(),
                    wins,
                    win_rate: if n == 0 { 0.0 } else { wins as f64 / n as f64 },
                    win_rate_95: wilson(wins, n),
                    casualty_pct: self.casualties[usize::from(s)].dist(),
                }
            })
            .collect();
        Summary {
            scenario: start.scenario_name().to_string(),
            variant: start.variant().map(str::to_string),
            master_seed: cfg.master_seed,
            runs: n,
            measure: start.measure().to_string(),
            sides,
            draws: self.draws,
            draw_rate_95: wilson(self.draws, n),
            turns: self.turns.dist(),
            units: self
                .units
                .iter()
                .enumerate()
                .map(|(k, (name, side))| UnitSummary {
                    name: name.clone(),
                    side: *side,
                    gone: self.gone[k],
                    routed: self.routed[k],
                })
                .collect(),
        }
    }
}

/// Play `cfg.runs` battles as [`run_each`] does and sum them up, keeping no record.
pub fn simulate<B>(start: &B, cfg: &Config, progress: &(dyn Fn(u64) + Sync)) -> Result<Summary, SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let mut acc = Accumulator::new(start);
    run_each(start, cfg, progress, &mut |r| {
        acc.add(&r);
        Ok(())
    })?;
    Ok(acc.summary(start, cfg))
}

/// Sum up `records` of battles from `start`.
pub fn summarize<B: GameState + Tally>(start: &B, cfg: &Config, records: &[BattleRecord]) -> Summary {
    let mut acc = Accumulator::new(start);
    records.iter().for_each(|r| acc.add(r));
    acc.summary(start, cfg)
}

/// `battles.csv`: a row a battle — index, seed, winner (side name or empty), turns, actions, and
/// each side's start, lost, running and casualty percentage.
pub fn csv<B: Tally>(start: &B, records: &[BattleRecord]) -> String {
    let mut out = csv_header(start);
    records.iter().for_each(|r| out.push_str(&csv_row(start, r)));
    out
}

/// The header line of `battles.csv`, with its newline.
pub fn csv_header<B: Tally>(start: &B) -> String {
    let col = |s: &str| s.chars().map(|c| if c.is_alphanumeric() { c } else { '_' }).collect::<String>();
    let (a, b) = (col(start.side_name(0)), col(start.side_name(1)));
    format!(
        "index,seed,winner,turns,actions,{a}_start,{a}_lost,{a}_running,{a}_casualty_pct,{b}_start,{b}_lost,{b}_running,{b}_casualty_pct\n"
    )
}

/// One battle's line of `battles.csv`, with its newline.
pub fn csv_row<B: Tally>(start: &B, r: &BattleRecord) -> String {
    let quote = |s: &str| format!("\"{}\"", s.replace('"', "\"\""));
    let winner = r.winner.map_or(String::new(), |w| quote(start.side_name(w)));
    let mut out = format!("{},{},{},{},{}", r.index, r.seed, winner, r.turns, r.actions);
    for s in &r.sides {
        out.push_str(&format!(",{},{},{},{:.2}", s.start, s.lost, s.running, s.casualty_pct()));
    }
    out.push('\n');
    out
}

/// One pairing of a tournament: `a` against `b`, with `a` on each side in turn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The first agent.
    pub a: String,
    /// The second agent.
    pub b: String,
    /// Battles `a` won (on either side).
    pub a_wins: u64,
    /// Battles `b` won.
    pub b_wins: u64,
    /// Draws.
    pub draws: u64,
    /// `a`'s share of the decided battles.
    pub a_rate: f64,
    /// Its 95% Wilson interval.
    pub a_rate_95: [f64; 2],
}

/// Every pair of `agents`, `runs` battles with each on each side: `runs` × 2 battles a pairing;
/// with `mirrors`, each agent against itself too (a check of the sides' balance). Battles of a
/// pairing have the master seed derived from the pairing's place in the full table (mirrors
/// counted whether played or not), so one pairing does not change another and leaving the
/// mirrors out changes no other pairing. `progress(a, b, done)` is called as battles of the
/// pairing of `a` and `b` finish (from any thread).
#[allow(clippy::too_many_arguments)]
pub fn tournament<B>(
    start: &B,
    agents: &[String],
    runs: u64,
    master_seed: u64,
    jobs: usize,
    mirrors: bool,
    progress: &(dyn Fn(&str, &str, u64) + Sync),
) -> Result<Vec<Pairing>, SimError>
where
    B: GameState + Heuristic + Tally + Sync,
{
    let mut out = Vec::new();
    let mut k = 0u64;
    for (i, a) in agents.iter().enumerate() {
        for (j, b) in agents.iter().enumerate().skip(i) {
            if i == j && !mirrors {
                k += 2;
                continue;
            }
            let mut a_wins = 0;
            let mut b_wins = 0;
            let mut draws = 0;
            let done = AtomicU64::new(0);
            for (side_of_a, pair) in [(0u8, [a.clone(), b.clone()]), (1u8, [b.clone(), a.clone()])] {
                let cfg = Config {
                    runs,
                    master_seed: Seeded::derive(master_seed, k),
                    agents: pair,
                    jobs,
                    max_actions: 1_000_000,
                };
                k += 1;
                let tick = |_| progress(a, b, done.fetch_add(1, Ordering::Relaxed) + 1);
                run_each(start, &cfg, &tick, &mut |r| {
                    match r.winner {
                        Some(w) if w == side_of_a => a_wins += 1,
                        Some(_) => b_wins += 1,
                        None => draws += 1,
                    }
                    Ok(())
                })?;
            }
            let decided = a_wins + b_wins;
            out.push(Pairing {
                a: a.clone(),
                b: b.clone(),
                a_wins,
                b_wins,
                draws,
                a_rate: if decided == 0 { 0.0 } else { a_wins as f64 / decided as f64 },
                a_rate_95: wilson(a_wins, decided),
            });
        }
    }
    Ok(out)
}
