//! A battle small enough to know exactly: one die decides it. Side 0 wins on 3 to 5, side 1 on
//! 1 or 2, a 6 is a draw; side 0 loses `6 − roll` of its 10 men and side 1 loses `roll`. The
//! simulation's figures must agree with the exact answers.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::{Actor, ApplyError, GameState, Heuristic, Illegal, Outcome, PhaseInfo, SideId, Tally, View, Viewer};
use volley_sim::{Accumulator, Config, run_each};

#[derive(Clone, Debug)]
struct Duel {
    roll: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct Fight;

#[derive(Clone, Debug, Serialize)]
struct Rolled(u32);

impl fmt::Display for Rolled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "rolled {}", self.0)
    }
}

impl GameState for Duel {
    type Action = Fight;
    type Event = Rolled;
    fn actor(&self) -> Actor {
        if self.roll.is_some() { Actor::Terminal } else { Actor::Side(0) }
    }
    fn phase(&self) -> PhaseInfo {
        PhaseInfo { turn: 1, phase: "fight".into(), side: Some(0) }
    }
    fn candidate_actions(&self, out: &mut Vec<Fight>) {
        out.push(Fight);
    }
    fn validate_by(&self, _: volley_core::Actor, _: &Fight) -> Result<(), Illegal> {
        Ok(())
    }
    fn apply_by(
        &mut self,
        _: volley_core::Actor,
        _: &Fight,
        chance: &mut dyn Chance,
        ev: &mut Vec<Rolled>,
    ) -> Result<(), ApplyError> {
        let r = chance.draw(&DrawKind::Die { sides: 6 }, &"the duel")?;
        ev.push(Rolled(r));
        self.roll = Some(r);
        Ok(())
    }
    fn outcome(&self) -> Option<Outcome> {
        self.roll.map(|r| Outcome {
            winner: match r {
                1 | 2 => Some(1),
                6 => None,
                _ => Some(0),
            },
            reason: "the die".into(),
        })
    }
    fn view(&self, _: Viewer) -> View {
        View::default()
    }
    fn state_hash(&self) -> u64 {
        u64::from(self.roll.unwrap_or(0))
    }
}

impl Heuristic for Duel {
    fn score(&self, _: &Fight) -> f64 {
        0.0
    }
}

impl Tally for Duel {
    fn scenario_name(&self) -> &str {
        "duel"
    }
    fn variant(&self) -> Option<&'static str> {
        None
    }
    fn side_name(&self, side: SideId) -> &str {
        ["first", "second"][usize::from(side & 1)]
    }
    fn measure(&self) -> &'static str {
        "men"
    }
    fn tally(&self, side: SideId) -> (usize, usize, usize) {
        let r = self.roll.unwrap_or(0) as usize;
        (10, if side == 0 { 6usize.saturating_sub(r).min(10) * usize::from(r > 0) } else { r }, 0)
    }
}

#[test]
fn win_rates_casualties_and_quantiles_agree_with_the_exact_answers() {
    let runs = 6000;
    let cfg = Config { runs, master_seed: 3, agents: ["random".into(), "random".into()], jobs: 2, max_actions: 10 };
    let start = Duel { roll: None };
    let mut acc = Accumulator::new(&start);
    let mut seen = 0;
    run_each(&start, &cfg, &|_| {}, &mut |r| {
        assert_eq!(r.index, seen, "records come in order");
        seen += 1;
        acc.add(&r);
        Ok(())
    })
    .unwrap();
    let s = acc.summary(&start, &cfg);
    assert_eq!(s.runs, runs);
    // Wins: exactly 1/2, 1/3 and 1/6; each within its 95% interval, which is as wide as the
    // binomial's standard error says (±1.96 √(p(1 − p)/n)).
    for (p, rate_95, wins) in [
        (1.0 / 2.0, s.sides[0].win_rate_95, s.sides[0].wins),
        (1.0 / 3.0, s.sides[1].win_rate_95, s.sides[1].wins),
        (1.0 / 6.0, s.draw_rate_95, s.draws),
    ] {
        assert!(rate_95[0] < p && p < rate_95[1], "{p} not in {rate_95:?} ({wins} of {runs})");
        let half = 1.96 * (p * (1.0 - p) / runs as f64).sqrt();
        assert!(((rate_95[1] - rate_95[0]) / 2.0 - half).abs() < 0.002, "{rate_95:?} against ±{half}");
    }
    // Casualties: side 0 loses 0 to 50% evenly (mean 25%), side 1 10 to 60% (mean 35%); the
    // standard error of each mean is 17.1/√6000 = 0.22 points.
    let (c0, c1) = (&s.sides[0].casualty_pct, &s.sides[1].casualty_pct);
    assert!((c0.mean - 25.0).abs() < 0.9 && (c1.mean - 35.0).abs() < 0.9, "{c0:?} {c1:?}");
    // The 10th and 90th percentiles of six even values sampled 6000 times are their exact
    // values (the least value holds 1/6 > 0.1 of the weight, the greatest 1/6 too); the median
    // sits on the boundary between the third and fourth, so it is one of them or between.
    assert_eq!((c0.min, c0.p10, c0.p90, c0.max), (0.0, 0.0, 50.0, 50.0));
    assert_eq!((c1.min, c1.p10, c1.p90, c1.max), (10.0, 10.0, 60.0, 60.0));
    assert!((20.0..=30.0).contains(&c0.median) && (30.0..=40.0).contains(&c1.median), "{c0:?} {c1:?}");
    assert_eq!((s.turns.mean, s.turns.max), (1.0, 1.0));
    // What the sums keep does not grow with the battles: six distinct values a side.
    assert_eq!(acc.casualties(0).iter().count(), 6);
}
