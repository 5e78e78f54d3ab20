//! The search player on small games whose best moves are known.

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_ai::{Budget, MctsAgent, MctsConfig};
use volley_chance::{Chance, DrawKind};
use volley_core::{
    Actor, Agent, ApplyError, GameState, Heuristic, Illegal, Outcome, PhaseInfo, SideId, Tally, View, Viewer,
};

/// Nim: take 1 to 3 stones; who takes the last wins. The winning move leaves a multiple of 4.
#[derive(Clone, Debug)]
struct Nim {
    stones: u32,
    mover: SideId,
    /// Whether side 1's secret is known: `redacted` must be called.
    secret: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Take(u32);

#[derive(Clone, Debug, Serialize)]
struct Took(u32);

impl fmt::Display for Took {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "took {}", self.0)
    }
}

impl GameState for Nim {
    type Action = Take;
    type Event = Took;

    fn actor(&self) -> Actor {
        if self.stones == 0 { Actor::Terminal } else { Actor::Side(self.mover) }
    }
    fn phase(&self) -> PhaseInfo {
        PhaseInfo { turn: 1, phase: "play".into(), side: Some(self.mover) }
    }
    fn candidate_actions(&self, out: &mut Vec<Take>) {
        out.extend((1..=self.stones.min(3)).map(Take));
    }
    fn validate_by(&self, _: volley_core::Actor, a: &Take) -> Result<(), Illegal> {
        if (1..=self.stones.min(3)).contains(&a.0) { Ok(()) } else { Err(Illegal::new("no")) }
    }
    fn apply_by(
        &mut self,
        _: volley_core::Actor,
        a: &Take,
        _: &mut dyn Chance,
        ev: &mut Vec<Took>,
    ) -> Result<(), ApplyError> {
        self.validate(a)?;
        self.stones -= a.0;
        ev.push(Took(a.0));
        if self.stones > 0 {
            self.mover = 1 - self.mover;
        }
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        (self.stones == 0).then(|| Outcome { winner: Some(self.mover), reason: "last stone".into() })
    }
    fn view(&self, _: Viewer) -> View {
        View::default()
    }
    fn state_hash(&self) -> u64 {
        u64::from(self.stones) * 2 + u64::from(self.mover)
    }
    fn redacted(&self, _: SideId) -> Self {
        Nim { secret: false, ..self.clone() }
    }
}

impl Heuristic for Nim {
    /// A poor guide on purpose: it likes taking one stone best.
    fn score(&self, a: &Take) -> f64 {
        if self.secret {
            panic!("the search looked at the unredacted state");
        }
        -f64::from(a.0)
    }
}

impl Tally for Nim {
    fn scenario_name(&self) -> &str {
        "nim"
    }
    fn variant(&self) -> Option<&'static str> {
        None
    }
    fn side_name(&self, _: SideId) -> &str {
        "side"
    }
    fn measure(&self) -> &'static str {
        "stones"
    }
    fn tally(&self, _: SideId) -> (usize, usize, usize) {
        (1, 0, 0)
    }
}

fn mcts(iterations: u64, threads: usize, seed: u64) -> MctsAgent {
    let cfg = MctsConfig { budget: Budget::Iterations(iterations), threads, rollout: 0, ..MctsConfig::default() };
    MctsAgent::new(cfg, seed)
}

fn pick<S: Heuristic + Tally + Sync>(agent: &mut MctsAgent, s: &S) -> S::Action {
    let mut c = Vec::new();
    s.candidate_actions(&mut c);
    let i = Agent::<S>::choose(agent, s, &c);
    c[i].clone()
}

#[test]
fn finds_the_winning_move_in_nim_against_its_guide() {
    for (stones, best) in [(5, 1), (6, 2), (7, 3), (9, 1), (10, 2), (11, 3)] {
        let s = Nim { stones, mover: 0, secret: true };
        let mut a = mcts(3000, 1, 7);
        assert_eq!(pick(&mut a, &s), Take(best), "from {stones} stones");
        assert!(a.last().value > 0.6, "{stones}: a won position valued {}", a.last().value);
    }
}

#[test]
fn a_lost_position_is_valued_low() {
    let s = Nim { stones: 8, mover: 1, secret: false };
    let mut a = mcts(3000, 1, 3);
    pick(&mut a, &s);
    assert!(a.last().value < 0.4, "valued {}", a.last().value);
}

#[test]
fn the_same_seed_and_iterations_give_the_same_search() {
    let s = Nim { stones: 13, mover: 0, secret: false };
    let (mut a, mut b) = (mcts(500, 1, 11), mcts(500, 1, 11));
    assert_eq!(pick(&mut a, &s), pick(&mut b, &s));
    assert_eq!(a.last(), b.last());
    assert_eq!(a.last().iterations, 500);
}

#[test]
fn root_parallelism_sums_the_threads() {
    let s = Nim { stones: 7, mover: 1, secret: false };
    let mut a = mcts(1500, 2, 5);
    assert_eq!(pick(&mut a, &s), Take(3));
    assert_eq!(a.last().iterations, 3000);
}

#[test]
fn a_time_budget_is_kept() {
    let s = Nim { stones: 40, mover: 0, secret: false };
    let cfg = MctsConfig { budget: Budget::Time(std::time::Duration::from_millis(30)), ..MctsConfig::default() };
    let mut a = MctsAgent::new(cfg, 1);
    let t = std::time::Instant::now();
    pick(&mut a, &s);
    assert!(t.elapsed().as_millis() < 1000);
    assert!(a.last().iterations > 0);
}

/// A gamble against a sure thing: `Safe` wins 60% of the time, `Gamble` only on a 6. The
/// search must average over the die (open loop) rather than remember one lucky roll.
#[derive(Clone, Debug)]
struct Gamble {
    done: Option<bool>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
enum Bet {
    Safe,
    Gamble,
}

impl GameState for Gamble {
    type Action = Bet;
    type Event = Took;

    fn actor(&self) -> Actor {
        if self.done.is_some() { Actor::Terminal } else { Actor::Side(0) }
    }
    fn phase(&self) -> PhaseInfo {
        PhaseInfo { turn: 1, phase: "bet".into(), side: Some(0) }
    }
    fn candidate_actions(&self, out: &mut Vec<Bet>) {
        out.extend([Bet::Gamble, Bet::Safe]);
    }
    fn validate_by(&self, _: volley_core::Actor, _: &Bet) -> Result<(), Illegal> {
        Ok(())
    }
    fn apply_by(
        &mut self,
        _: volley_core::Actor,
        a: &Bet,
        chance: &mut dyn Chance,
        ev: &mut Vec<Took>,
    ) -> Result<(), ApplyError> {
        let roll = chance.draw(&DrawKind::Die { sides: 10 }, &"the bet")?;
        let won = match a {
            Bet::Safe => roll <= 6,
            Bet::Gamble => roll == 10,
        };
        ev.push(Took(roll));
        self.done = Some(won);
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.done.map(|w| Outcome { winner: Some(if w { 0 } else { 1 }), reason: "the bet".into() })
    }
    fn view(&self, _: Viewer) -> View {
        View::default()
    }
    fn state_hash(&self) -> u64 {
        0
    }
}

impl Heuristic for Gamble {
    /// The guide prefers the gamble.
    fn score(&self, a: &Bet) -> f64 {
        if *a == Bet::Gamble { 1.0 } else { 0.0 }
    }
}

impl Tally for Gamble {
    fn scenario_name(&self) -> &str {
        "gamble"
    }
    fn variant(&self) -> Option<&'static str> {
        None
    }
    fn side_name(&self, _: SideId) -> &str {
        "side"
    }
    fn measure(&self) -> &'static str {
        "bets"
    }
    fn tally(&self, _: SideId) -> (usize, usize, usize) {
        (1, 0, 0)
    }
}

#[test]
fn chance_is_averaged_not_remembered() {
    for seed in 0..5 {
        let mut a = mcts(400, 1, seed);
        assert_eq!(pick(&mut a, &Gamble { done: None }), Bet::Safe, "seed {seed}");
        assert!((a.last().value - 0.6).abs() < 0.1, "the sure thing valued {}", a.last().value);
    }
}

#[test]
fn names_parse() {
    let p = |n: &str| MctsConfig::parse(n);
    assert_eq!(p("mcts"), Some(MctsConfig::default()));
    assert_eq!(p("mcts:500ms").map(|c| c.budget), Some(Budget::Time(std::time::Duration::from_millis(500))));
    let c = p("mcts:2000:2t").expect("parses");
    assert_eq!((c.budget, c.threads), (Budget::Iterations(2000), 2));
    let c = p("mcts:r0:300ms").expect("parses");
    assert_eq!((c.budget, c.rollout), (Budget::Time(std::time::Duration::from_millis(300)), 0));
    for bad in [
        "mcts:",
        "mcts:0",
        "mcts:fast",
        "mcts:0ms",
        "mcts:0t",
        "mcts:rx",
        "mcts:3600001ms",
        "mcts:99999999999999999999",
        "mcts:1000000001",
        "heuristic",
        "mctsx",
    ] {
        assert_eq!(p(bad), None, "{bad}");
    }
}
