//! Monte Carlo tree search over any rule set.
//!
//! * **Nodes in a `Vec`**, children as (action, index) pairs: no pointers, one allocation that
//!   grows, dropped whole after each decision.
//! * **Open loop**: a node stands for a sequence of actions, not a state. Each iteration starts
//!   from a fresh copy of the root and draws new dice and cards as it goes down, so a node's
//!   value averages over chance, and the candidates met at a node may differ from one iteration
//!   to the next (only those offered now are chosen among).
//! * **Heuristic guidance**: at each node the candidates are ranked by the rule set's
//!   [`Heuristic`], and only the best `1 + ⌊w·√visits⌋` are considered (progressive widening),
//!   so a wide choice (every unit's every move) is searched from its most promising end.
//! * **Rollouts** by the heuristic player for both sides, for a set number of decisions or to
//!   the end; an unfinished battle is valued by each side's losses ([`Tally`]).
//! * **Root parallelism**: each thread grows its own tree from the root with its own seed; the
//!   visits of the root's actions are summed and the most visited is played.
//! * **No cheating**: the search starts from [`GameState::redacted`], the battle as the deciding
//!   side may know it.

use std::time::{Duration, Instant};

use volley_chance::Seeded;
use volley_core::{Actor, Agent, GameState, Heuristic, SideId, Tally};

use crate::HeuristicAgent;

/// How much thought a decision gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budget {
    /// This many iterations on each thread: the same seed gives the same choice.
    Iterations(u64),
    /// This long, wall-clock, whatever the iterations come to.
    Time(Duration),
}

/// The search's settings.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// The budget a decision.
    pub budget: Budget,
    /// Threads, each with its own tree (root parallelism).
    pub threads: usize,
    /// Decisions a rollout plays before the battle is valued by losses; 0 plays to the end.
    pub rollout: u32,
    /// UCT's exploration constant.
    pub exploration: f64,
    /// Progressive widening: a node with `v` visits considers its best `1 + ⌊w·√v⌋` candidates.
    pub widening: f64,
}

impl Default for MctsConfig {
    fn default() -> Self {
        MctsConfig {
            budget: Budget::Time(Duration::from_millis(200)),
            threads: 1,
            rollout: 40,
            exploration: 0.5,
            widening: 1.0,
        }
    }
}

impl MctsConfig {
    /// Settings from the agent's name: `mcts`, then in any order `:200ms` (a time budget) or
    /// `:5000` (iterations), `:2t` (threads), `:r40` (rollout decisions; `r0` plays rollouts to
    /// the end). `None` if the name is not of that form.
    pub fn parse(name: &str) -> Option<MctsConfig> {
        let mut parts = name.split(':');
        if parts.next()? != "mcts" {
            return None;
        }
        let mut cfg = MctsConfig::default();
        for p in parts {
            if let Some(ms) = p.strip_suffix("ms") {
                cfg.budget = Budget::Time(Duration::from_millis(ms.parse().ok().filter(|&m| m > 0 && m <= MAX_MS)?));
            } else if let Some(t) = p.strip_suffix('t') {
                cfg.threads = t.parse().ok().filter(|&t| t > 0 && t <= 256)?;
            } else if let Some(r) = p.strip_prefix('r') {
                cfg.rollout = r.parse().ok()?;
            } else {
                cfg.budget = Budget::Iterations(p.parse().ok().filter(|&i| i > 0 && i <= MAX_ITERATIONS)?);
            }
        }
        Some(cfg)
    }
}

/// The longest time budget a name may ask for: an hour a decision, milliseconds.
pub const MAX_MS: u64 = 3_600_000;
/// The most iterations a name may ask for.
pub const MAX_ITERATIONS: u64 = 1_000_000_000;

/// What the last search did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SearchStats {
    /// Iterations, all threads together.
    pub iterations: u64,
    /// Nodes grown, all threads together.
    pub nodes: usize,
    /// The chosen action's share of the root's visits.
    pub confidence: f64,
    /// The chosen action's mean value to the deciding side, 0 (lost) to 1 (won).
    pub value: f64,
}

/// The Monte Carlo tree search player.
#[derive(Clone, Debug)]
pub struct MctsAgent {
    cfg: MctsConfig,
    seed: u64,
    decisions: u64,
    last: SearchStats,
}

impl MctsAgent {
    /// A search player with these settings; `seed` drives its rollouts and tie-breaks.
    pub fn new(cfg: MctsConfig, seed: u64) -> Self {
        MctsAgent { cfg, seed, decisions: 0, last: SearchStats::default() }
    }

    /// What the last decision's search did.
    pub fn last(&self) -> &SearchStats {
        &self.last
    }
}

impl<S: Heuristic + Tally + Sync> Agent<S> for MctsAgent {
    fn name(&self) -> &str {
        "mcts"
    }

    fn choose(&mut self, state: &S, candidates: &[S::Action]) -> usize {
        self.decisions += 1;
        if candidates.len() <= 1 {
            return 0;
        }
        let Actor::Side(me) = state.actor() else {
            return 0;
        };
        let root = state.redacted(me);
        let seed = Seeded::derive(self.seed, self.decisions);
        let deadline = match self.cfg.budget {
            // A budget past the clock's end is no deadline at all.
            Budget::Time(d) => Instant::now().checked_add(d),
            Budget::Iterations(_) => None,
        };
        let threads = self.cfg.threads.max(1);
        let trees: Vec<Tree<S::Action>> = if threads == 1 {
            vec![grow(&root, &self.cfg, seed, deadline)]
        } else {
            let (root, cfg) = (&root, &self.cfg);
            std::thread::scope(|scope| {
                let handles: Vec<_> = (0..threads)
                    .map(|t| scope.spawn(move || grow(root, cfg, Seeded::derive(seed, t as u64), deadline)))
                    .collect();
                handles.into_iter().filter_map(|h| h.join().ok()).collect()
            })
        };
        // Sum the root's visits by action over the trees, in the order of `candidates`.
        let mut visits = vec![0u64; candidates.len()];
        let mut value = vec![0.0f64; candidates.len()];
        let mut stats = SearchStats::default();
        for tree in &trees {
            stats.iterations += tree.iterations;
            stats.nodes += tree.nodes.len();
            for e in &tree.nodes[0].children {
                if let Some(i) = candidates.iter().position(|c| *c == e.action) {
                    let n = &tree.nodes[e.child as usize];
                    visits[i] += u64::from(n.visits);
                    value[i] += n.value;
                }
            }
        }
        let total: u64 = visits.iter().sum();
        // The most visited; ties go to the better mean value, then to the earlier candidate.
        let mut best = 0;
        for i in 1..candidates.len() {
            let better = visits[i] > visits[best]
                || (visits[i] == visits[best]
                    && visits[i] > 0
                    && value[i] / visits[i] as f64 > value[best] / visits[best] as f64);
            if better {
                best = i;
            }
        }
        if total == 0 {
            // No time for even one iteration: fall back on the heuristic's choice.
            let mut h = HeuristicAgent::new(seed);
            self.last = stats;
            return h.choose(state, candidates);
        }
        stats.confidence = visits[best] as f64 / total as f64;
        stats.value = if visits[best] > 0 { value[best] / visits[best] as f64 } else { 0.5 };
        self.last = stats;
        best
    }
}

/// A node: a sequence of actions from the root.
#[derive(Clone, Debug)]
struct Node<A> {
    /// Iterations through it.
    visits: u32,
    /// Sum of the values, to the side that took the action leading here.
    value: f64,
    /// Actions tried from here.
    children: Vec<Edge<A>>,
}

#[derive(Clone, Debug)]
struct Edge<A> {
    action: A,
    child: u32,
}

/// One thread's tree.
struct Tree<A> {
    nodes: Vec<Node<A>>,
    iterations: u64,
}

/// The value of `s` to side 0, from 0 (side 1 has won) to 1 (side 0 has won): the outcome if
/// it is over, otherwise by the share of each side's strength lost or running (running troops
/// count as lost: every rule set's test of a broken army counts them out).
pub fn evaluate<S: GameState + Tally>(s: &S) -> f64 {
    if let Some(o) = s.outcome() {
        return match o.winner {
            Some(0) => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        };
    }
    let hurt = |side: SideId| {
        let (start, lost, running) = s.tally(side);
        (lost + running) as f64 / start.max(1) as f64
    };
    0.5 + 0.5 * (3.0 * (hurt(1) - hurt(0))).tanh()
}

/// Grow a tree from `root` until the budget is spent.
fn grow<S: Heuristic + Tally>(root: &S, cfg: &MctsConfig, seed: u64, deadline: Option<Instant>) -> Tree<S::Action> {
    let mut rng = Seeded::new(seed);
    let mut roll = HeuristicAgent::new(Seeded::derive(seed, u64::MAX));
    let mut tree = Tree { nodes: vec![Node { visits: 0, value: 0.0, children: Vec::new() }], iterations: 0 };
    let mut cands: Vec<S::Action> = Vec::new();
    let mut scores: Vec<f64> = Vec::new();
    let mut order: Vec<usize> = Vec::new();
    let mut events = Vec::new();
    let mut path: Vec<(u32, SideId)> = Vec::new();
    let max_iterations = match cfg.budget {
        Budget::Iterations(n) => n,
        Budget::Time(_) => u64::MAX,
    };
    while tree.iterations < max_iterations {
        if let Some(d) = deadline
            && Instant::now() >= d
        {
            break;
        }
        tree.iterations += 1;
        let mut s = root.clone();
        path.clear();
        let mut node = 0u32;
        let mut broken = false;
        // Selection and expansion.
        loop {
            if s.outcome().is_some() {
                break;
            }
            let Actor::Side(mover) = s.actor() else { break };
            cands.clear();
            s.candidate_actions(&mut cands);
            if cands.is_empty() {
                broken = true;
                break;
            }
            scores.clear();
            s.scores(&cands, &mut scores);
            order.clear();
            order.extend(0..cands.len());
            order.sort_by(|&a, &b| scores[b].total_cmp(&scores[a]));
            let n = &tree.nodes[node as usize];
            let allowed = (1 + (cfg.widening * f64::from(n.visits).sqrt()) as usize).min(cands.len());
            let mut untried = None;
            let mut best: Option<(f64, usize, u32)> = None;
            let ln = f64::from(n.visits.max(1)).ln();
            for &i in &order[..allowed] {
                match n.children.iter().find(|e| e.action == cands[i]) {
                    None => {
                        untried = Some(i);
                        break;
                    }
                    Some(e) => {
                        let c = &tree.nodes[e.child as usize];
                        let v = f64::from(c.visits.max(1));
                        let uct = c.value / v + cfg.exploration * (ln / v).sqrt();
                        if best.is_none_or(|(b, _, _)| uct > b) {
                            best = Some((uct, i, e.child));
                        }
                    }
                }
            }
            let (i, child, fresh) = match (untried, best) {
                (Some(i), _) => {
                    let child = tree.nodes.len() as u32;
                    tree.nodes.push(Node { visits: 0, value: 0.0, children: Vec::new() });
                    tree.nodes[node as usize].children.push(Edge { action: cands[i].clone(), child });
                    (i, child, true)
                }
                (None, Some((_, i, child))) => (i, child, false),
                (None, None) => {
                    broken = true;
                    break;
                }
            };
            events.clear();
            if s.apply(&cands[i], &mut rng, &mut events).is_err() {
                broken = true;
                break;
            }
            path.push((child, mover));
            node = child;
            if fresh {
                break;
            }
        }
        if broken {
            // A rule set refused its own candidate: value nothing, learn nothing from it.
            continue;
        }
        // Rollout (a refused candidate ends it where it stands).
        let limit = if cfg.rollout > 0 { cfg.rollout as usize } else { usize::MAX };
        let _ = crate::play_on(&mut s, &mut roll, &mut rng, &mut |_, taken| taken < limit, &mut cands, &mut events);
        // Backpropagation.
        let v0 = evaluate(&s);
        tree.nodes[0].visits += 1;
        for &(n, mover) in &path {
            let node = &mut tree.nodes[n as usize];
            node.visits += 1;
            node.value += if mover == 0 { v0 } else { 1.0 - v0 };
        }
    }
    tree
}
