//! A charge and its melee, one round, as the text's seven steps, and the exact odds of the whole
//! chain: the charger's test to charge, the defender's test (a cavalry defender's to
//! counter-charge), a failing defender falling back or routing, the melee on each side's chart,
//! the post-melee tests, the charger retiring shaken, the cavalry winner's pursuit test, and both
//! sides shaken unless the charger rallies on the spot.
//!
//! Readings (see the register): a melee is won by the side scoring more hits, a draw by none; a
//! test with no hits reads chart A; each post-melee test reads the chart of the unit's hits so
//! far, or E if its enemy fought on melee chart A.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::calc::{CalcError, OutcomeProbability, add_outcome};

use crate::combat::{MAX_FIGURES, Morale, morale_dice, morale_odds, morale_of};
use crate::units::{Arm, Chart, UnitType};

/// The most dice a side throws in one melee.
pub const MAX_MELEE_DICE: u32 = 30;

/// One side of a melee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Fighter {
    /// Its type.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// Figures in the melee (1 d10 for every 4, two ranks deep).
    pub figures: u32,
    /// The melee chart its advantages give it (the text's list: A major advantage … E major
    /// disadvantage), before its being shaken or caught at the halt; default C, equal.
    #[serde(default = "chart_c")]
    pub chart: Chart,
    /// Hits it has taken before (for its morale charts).
    #[serde(default)]
    pub hits_before: u32,
    /// Shaken already: melee on chart D; it may not counter-charge.
    #[serde(default)]
    pub shaken: bool,
    /// In cover (3 morale dice).
    #[serde(default)]
    pub in_cover: bool,
    /// Both flanks secure (4 morale dice).
    #[serde(default)]
    pub secure_flanks: bool,
    /// A leader attached (one more morale die).
    #[serde(default)]
    pub leader_attached: bool,
}

fn chart_c() -> Chart {
    Chart::C
}

/// A charge: the charger and its target.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Melee {
    /// The charging unit.
    pub charger: Fighter,
    /// The unit charged.
    pub defender: Fighter,
}

/// Where a unit ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum End {
    /// In good order.
    Good,
    /// Shaken (a charger that did not charge stays where it is; a shaken defender fell back).
    Shaken,
    /// Routing.
    Rout,
    /// Removed (a shaken unit that routed).
    Removed,
}

/// Who won the melee.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The charger scored more hits.
    Charger,
    /// The defender scored more hits.
    Defender,
}

/// The cavalry pursuit table, by the winner's d10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Pursuit {
    /// 1: pursue the opponent at once; shaken; 14–20" and up to 24" more.
    Pursue,
    /// 2–3: return to its own lines, back to the enemy; shaken; 14–20" and up to 24" more.
    ReturnToOwnLines,
    /// 4–5: hold its position; shaken.
    Hold,
    /// 6 (and 7–10, see the register): rally on the spot; good order.
    Rally,
}

impl Pursuit {
    /// The table's row for a d10 (the table is printed for 1–6; 7–10 read as 6).
    pub fn of(d: u8) -> Pursuit {
        match d {
            1 => Pursuit::Pursue,
            2 | 3 => Pursuit::ReturnToOwnLines,
            4 | 5 => Pursuit::Hold,
            _ => Pursuit::Rally,
        }
    }
}

/// What a charge comes to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub struct MeleeOutcome {
    /// The charger charged (passed its test).
    pub charged: bool,
    /// A melee was fought (both passed).
    pub fought: bool,
    /// Who won it (none: a draw, or no melee).
    pub winner: Option<Winner>,
    /// A cavalry melee with no winner: both retreat 24".
    pub both_retreat: bool,
    /// The charger retires a full move, shaken (both passed their post-melee tests).
    pub charger_retires: bool,
    /// The cavalry winner's pursuit result.
    pub pursuit: Option<Pursuit>,
    /// Where the charger ends.
    pub charger: End,
    /// Where the defender ends.
    pub defender: End,
}

/// A charge resolved, every die shown.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MeleeResolution {
    /// The charge.
    pub melee: Melee,
    /// The charger's test to charge: chart, number, dice.
    pub charge_test: (Chart, u8, Vec<u8>),
    /// The defender's test (to stand, or for cavalry to counter-charge).
    pub defence_test: Option<(Chart, u8, Vec<u8>)>,
    /// The melee: each side's chart, number and dice (charger, defender).
    pub melee_dice: Option<[(Chart, u8, Vec<u8>); 2]>,
    /// The post-melee tests (charger, defender).
    pub post_tests: Option<[(Chart, u8, Vec<u8>); 2]>,
    /// The pursuit die.
    pub pursuit_die: Option<u8>,
    /// What it came to.
    pub outcome: MeleeOutcome,
}

impl Fighter {
    fn check(&self, who: &str) -> Result<(), CalcError> {
        if self.figures == 0 || self.figures > MAX_FIGURES {
            return Err(CalcError::field(format!("{who}.figures"), format!("1 to {MAX_FIGURES} figures")));
        }
        if self.hits_before > MAX_FIGURES {
            return Err(CalcError::field(format!("{who}.hits_before"), format!("at most {MAX_FIGURES}")));
        }
        if self.figures.div_ceil(4) > MAX_MELEE_DICE {
            return Err(CalcError::field(
                format!("{who}.figures"),
                format!("{} dice: a side throws at most {MAX_MELEE_DICE} in a melee", self.figures.div_ceil(4)),
            ));
        }
        Ok(())
    }

    fn morale_dice(&self) -> u32 {
        morale_dice(self.in_cover, self.secure_flanks, self.leader_attached)
    }

    /// Its morale number for `hits` cumulative hits (chart A with none), or chart E when its
    /// enemy fought on melee chart A.
    fn morale(&self, hits: u32, against_a: bool) -> (Chart, u8) {
        let chart = if against_a { Chart::E } else { Chart::of_hits(hits) };
        (chart, self.kind.profile().morale[chart.index()])
    }
}

impl Melee {
    fn check(&self) -> Result<(), CalcError> {
        self.charger.check("charger")?;
        self.defender.check("defender")?;
        if self.charger.kind.profile().charge.is_none() {
            return Err(CalcError::field(
                "charger.type",
                format!("{} do not charge (the table's `~`)", self.charger.kind.profile().name),
            ));
        }
        Ok(())
    }

    /// Cavalry charging cavalry: the defender's test is its test to counter-charge.
    fn cavalry_on_cavalry(&self) -> bool {
        self.charger.kind.profile().arm == Arm::Cavalry && self.defender.kind.profile().arm == Arm::Cavalry
    }

    /// Each side's melee chart and number, given whether the defender (cavalry) was caught at the
    /// halt: its own chart, D if shaken, and for cavalry at the halt D (the charger B).
    fn charts(&self, at_halt: bool) -> [(Chart, u8); 2] {
        let side = |f: &Fighter, extra: Option<Chart>| {
            let mut charts = vec![f.chart];
            if f.shaken {
                charts.push(Chart::D);
            }
            charts.extend(extra);
            let chart = Chart::net(charts);
            (chart, f.kind.profile().melee[chart.index()].unwrap_or(0))
        };
        let (c_extra, d_extra) = if at_halt { (Some(Chart::B), Some(Chart::D)) } else { (None, None) };
        [side(&self.charger, c_extra), side(&self.defender, d_extra)]
    }
}

/// The chain after the melee: the ends from its hits, the post-melee tests and the pursuit die.
fn after_melee(m: &Melee, hits: [u32; 2], post: [Morale; 2], pursuit_die: Option<u8>) -> MeleeOutcome {
    let cavalry = m.cavalry_on_cavalry();
    let winner = match hits[0].cmp(&hits[1]) {
        std::cmp::Ordering::Greater => Some(Winner::Charger),
        std::cmp::Ordering::Less => Some(Winner::Defender),
        std::cmp::Ordering::Equal => None,
    };
    let winner_arm = |w: Winner| match w {
        Winner::Charger => m.charger.kind.profile().arm,
        Winner::Defender => m.defender.kind.profile().arm,
    };
    let pursuit = winner.filter(|&w| winner_arm(w) == Arm::Cavalry).and(pursuit_die).map(Pursuit::of);
    let end = |morale: Morale, was_shaken: bool, rallied: bool| match morale {
        Morale::Rout if was_shaken => End::Removed,
        Morale::Rout => End::Rout,
        // Step 7: both shaken after the melee, unless the charger rallies on the spot.
        _ if rallied => End::Good,
        _ => End::Shaken,
    };
    let charger_rallies = winner == Some(Winner::Charger) && pursuit == Some(Pursuit::Rally);
    let charger = end(post[0], m.charger.shaken, charger_rallies);
    let defender = end(post[1], m.defender.shaken, false);
    MeleeOutcome {
        charged: true,
        fought: true,
        winner,
        both_retreat: cavalry && winner.is_none(),
        charger_retires: post == [Morale::Passed, Morale::Passed] && !charger_rallies,
        pursuit,
        charger,
        defender,
    }
}

fn d10s(chance: &mut dyn Chance, n: u32, what: &dyn Fn(u32) -> String) -> Result<Vec<u8>, CalcError> {
    (0..n).map(|i| Ok(chance.draw(&DrawKind::Die { sides: 10 }, &what(i))? as u8)).collect()
}

/// Where a unit ends when its test before the melee fails.
fn failed(morale: Morale, was_shaken: bool) -> End {
    match morale {
        Morale::Rout if was_shaken => End::Removed,
        Morale::Rout => End::Rout,
        _ => End::Shaken,
    }
}

/// Resolve a charge, drawing every die from `chance` in the text's order.
pub fn resolve(m: &Melee, chance: &mut dyn Chance) -> Result<MeleeResolution, CalcError> {
    m.check()?;
    let (c, d) = (&m.charger, &m.defender);
    // 1. The charger's test to charge.
    let (cc, cn) = c.morale(c.hits_before, false);
    let k = c.morale_dice();
    let cdice =
        d10s(chance, k, &|i| format!("the charger's test to charge, die {} of {k} (passes on {cn} or under)", i + 1))?;
    let charge = morale_of(&cdice, cn);
    let mut res = MeleeResolution {
        melee: m.clone(),
        charge_test: (cc, cn, cdice),
        defence_test: None,
        melee_dice: None,
        post_tests: None,
        pursuit_die: None,
        outcome: MeleeOutcome {
            charged: false,
            fought: false,
            winner: None,
            both_retreat: false,
            charger_retires: false,
            pursuit: None,
            charger: failed(charge, c.shaken),
            defender: if d.shaken { End::Shaken } else { End::Good },
        },
    };
    if charge != Morale::Passed {
        return Ok(res);
    }
    res.outcome.charged = true;
    res.outcome.charger = if c.shaken { End::Shaken } else { End::Good };
    // 2. The defender's test (cavalry: to counter-charge).
    let (dc, dn) = d.morale(d.hits_before, false);
    let k = d.morale_dice();
    let ddice = d10s(chance, k, &|i| format!("the defender's test, die {} of {k} (passes on {dn} or under)", i + 1))?;
    let defence = morale_of(&ddice, dn);
    res.defence_test = Some((dc, dn, ddice));
    let cavalry = m.cavalry_on_cavalry();
    // A cavalry defender that fails one die (or is shaken) meets the charge at the halt; one that
    // routs, routs. Anyone else that fails falls back shaken or routs (3).
    let at_halt = cavalry && (defence == Morale::Shaken || (d.shaken && defence == Morale::Passed));
    if defence == Morale::Rout || (defence == Morale::Shaken && !cavalry) {
        res.outcome.defender = failed(defence, d.shaken);
        return Ok(res);
    }
    // 4. The melee.
    let charts = m.charts(at_halt);
    let mut thrown = Vec::new();
    for (who, f, (chart, number)) in [("charger", c, charts[0]), ("defender", d, charts[1])] {
        let n = f.figures.div_ceil(4);
        let dice = d10s(chance, n, &|i| format!("the {who}'s melee die {} of {n} (hits on {number} or under)", i + 1))?;
        thrown.push((chart, number, dice));
    }
    let hits = [0, 1].map(|i| thrown[i].2.iter().filter(|&&x| x <= thrown[i].1).count() as u32);
    // 5. The post-melee tests: each side's hits so far, or E against an enemy on melee chart A.
    let mut post = Vec::new();
    for (who, f, taken, enemy_chart) in [("charger", c, hits[1], charts[1].0), ("defender", d, hits[0], charts[0].0)] {
        let (chart, number) = f.morale(f.hits_before + taken, enemy_chart == Chart::A);
        let k = f.morale_dice();
        let dice = d10s(chance, k, &|i| {
            format!("the {who}'s post-melee test, die {} of {k} (passes on {number} or under)", i + 1)
        })?;
        post.push((chart, number, dice));
    }
    let post_morale = [morale_of(&post[0].2, post[0].1), morale_of(&post[1].2, post[1].1)];
    // 6. The cavalry winner's pursuit test.
    let winner_cavalry = match hits[0].cmp(&hits[1]) {
        std::cmp::Ordering::Greater => c.kind.profile().arm == Arm::Cavalry,
        std::cmp::Ordering::Less => d.kind.profile().arm == Arm::Cavalry,
        std::cmp::Ordering::Equal => false,
    };
    let pursuit_die =
        if winner_cavalry { Some(d10s(chance, 1, &|_| "the winner's pursuit test".into())?[0]) } else { None };
    res.outcome = after_melee(m, hits, post_morale, pursuit_die);
    res.melee_dice = Some([thrown[0].clone(), thrown[1].clone()]);
    res.post_tests = Some([post[0].clone(), post[1].clone()]);
    res.pursuit_die = pursuit_die;
    Ok(res)
}

/// The binomial distribution of hits: `dice` d10 hitting on `number` or under.
fn hits(dice: u32, number: u8) -> Vec<f64> {
    let p = f64::from(number.min(10)) / 10.0;
    let mut dist = vec![1.0];
    for _ in 0..dice {
        let mut next = vec![0.0; dist.len() + 1];
        for (k, &w) in dist.iter().enumerate() {
            next[k] += w * (1.0 - p);
            next[k + 1] += w * p;
        }
        dist = next;
    }
    dist
}

const RESULTS: [Morale; 3] = [Morale::Passed, Morale::Shaken, Morale::Rout];

/// The exact probability of every way a charge can end, most likely first.
pub fn odds(m: &Melee) -> Result<Vec<OutcomeProbability<MeleeOutcome>>, CalcError> {
    m.check()?;
    let (c, d) = (&m.charger, &m.defender);
    let mut out = Vec::new();
    let (_, cn) = c.morale(c.hits_before, false);
    let charge = morale_odds(c.morale_dice(), cn);
    let (_, dn) = d.morale(d.hits_before, false);
    let defence = morale_odds(d.morale_dice(), dn);
    let cavalry = m.cavalry_on_cavalry();
    let base = |charger: End, defender: End, charged: bool| MeleeOutcome {
        charged,
        fought: false,
        winner: None,
        both_retreat: false,
        charger_retires: false,
        pursuit: None,
        charger,
        defender,
    };
    let standing = |f: &Fighter| if f.shaken { End::Shaken } else { End::Good };
    for (cm, pc) in RESULTS.into_iter().zip(charge) {
        if pc == 0.0 {
            continue;
        }
        if cm != Morale::Passed {
            add_outcome(&mut out, base(failed(cm, c.shaken), standing(d), false), pc);
            continue;
        }
        for (dm, pd) in RESULTS.into_iter().zip(defence) {
            if pd == 0.0 {
                continue;
            }
            let p = pc * pd;
            if dm == Morale::Rout || (dm == Morale::Shaken && !cavalry) {
                add_outcome(&mut out, base(standing(c), failed(dm, d.shaken), true), p);
                continue;
            }
            let at_halt = cavalry && (dm == Morale::Shaken || (d.shaken && dm == Morale::Passed));
            let charts = m.charts(at_halt);
            let hc = hits(c.figures.div_ceil(4), charts[0].1);
            let hd = hits(d.figures.div_ceil(4), charts[1].1);
            for (h0, p0) in hc.iter().enumerate() {
                for (h1, p1) in hd.iter().enumerate() {
                    let ph = p * p0 * p1;
                    if ph == 0.0 {
                        continue;
                    }
                    let h = [h0 as u32, h1 as u32];
                    let (_, n0) = c.morale(c.hits_before + h[1], charts[1].0 == Chart::A);
                    let (_, n1) = d.morale(d.hits_before + h[0], charts[0].0 == Chart::A);
                    let post0 = morale_odds(c.morale_dice(), n0);
                    let post1 = morale_odds(d.morale_dice(), n1);
                    let winner_cavalry = match h[0].cmp(&h[1]) {
                        std::cmp::Ordering::Greater => c.kind.profile().arm == Arm::Cavalry,
                        std::cmp::Ordering::Less => d.kind.profile().arm == Arm::Cavalry,
                        std::cmp::Ordering::Equal => false,
                    };
                    let dies: Vec<(Option<u8>, f64)> =
                        if winner_cavalry { (1..=10).map(|x| (Some(x), 0.1)).collect() } else { vec![(None, 1.0)] };
                    for (a, qa) in RESULTS.into_iter().zip(post0) {
                        for (b, qb) in RESULTS.into_iter().zip(post1) {
                            for &(die, qd) in &dies {
                                let q = ph * qa * qb * qd;
                                if q > 0.0 {
                                    add_outcome(&mut out, after_melee(m, h, [a, b], die), q);
                                }
                            }
                        }
                    }
                }
            }
        }
    }
    out.retain(|o| o.probability > 0.0);
    out.sort_by(|a, b| b.probability.total_cmp(&a.probability).then(a.outcome.cmp(&b.outcome)));
    Ok(out)
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            End::Good => "in good order",
            End::Shaken => "shaken",
            End::Rout => "routing",
            End::Removed => "removed",
        })
    }
}

impl fmt::Display for Pursuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Pursuit::Pursue => "pursues at once (shaken; 14-20\" and up to 24\" more)",
            Pursuit::ReturnToOwnLines => {
                "returns to its own lines, back to the enemy (shaken; 14-20\" and up to 24\" more)"
            }
            Pursuit::Hold => "holds its position (shaken)",
            Pursuit::Rally => "rallies on the spot (good order)",
        })
    }
}

impl fmt::Display for MeleeOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.charged {
            return write!(f, "no charge: the charger is {}", self.charger);
        }
        if !self.fought {
            return write!(f, "no melee: the defender is {}", self.defender);
        }
        match self.winner {
            Some(Winner::Charger) => write!(f, "the charger wins")?,
            Some(Winner::Defender) => write!(f, "the defender wins")?,
            None => write!(f, "no winner")?,
        }
        if self.both_retreat {
            write!(f, ", both retreat 24\"")?;
        }
        if let Some(p) = self.pursuit {
            write!(f, "; the winner {p}")?;
        }
        write!(f, "; charger {}, defender {}", self.charger, self.defender)?;
        if self.charger_retires {
            write!(f, "; the charger retires a full move")?;
        }
        Ok(())
    }
}

impl fmt::Display for MeleeResolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dice = |d: &[u8]| d.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        let (chart, n, d) = &self.charge_test;
        writeln!(f, "test to charge on chart {chart:?} (pass on {n} or under): d10 {}", dice(d))?;
        if let Some((chart, n, d)) = &self.defence_test {
            writeln!(f, "the defender's test on chart {chart:?} (pass on {n} or under): d10 {}", dice(d))?;
        }
        if let Some(m) = &self.melee_dice {
            for (who, (chart, n, d)) in ["charger", "defender"].iter().zip(m) {
                let h = d.iter().filter(|&&x| x <= *n).count();
                writeln!(f, "{who} melee on chart {chart:?} (hit on {n} or under): d10 {} -> {h} hits", dice(d))?;
            }
        }
        if let Some(p) = &self.post_tests {
            for (who, (chart, n, d)) in ["charger", "defender"].iter().zip(p) {
                writeln!(f, "{who}'s post-melee test on chart {chart:?} (pass on {n} or under): d10 {}", dice(d))?;
            }
        }
        if let Some(d) = self.pursuit_die {
            writeln!(f, "pursuit test: d10 {d}")?;
        }
        write!(f, "{}", self.outcome)
    }
}

#[cfg(test)]
mod tests {
    use volley_chance::Scripted;

    use super::*;

    fn fighter(kind: UnitType, figures: u32) -> Fighter {
        Fighter {
            kind,
            figures,
            chart: Chart::C,
            hits_before: 0,
            shaken: false,
            in_cover: false,
            secure_flanks: false,
            leader_attached: false,
        }
    }

    fn run(m: &Melee, draws: &str) -> MeleeResolution {
        let mut s = Scripted::parse(draws).unwrap();
        let r = resolve(m, &mut s).unwrap();
        assert_eq!(s.remaining(), 0, "every draw used");
        r
    }

    #[test]
    fn a_charger_that_fails_to_charge_stays_and_a_defender_that_fails_falls_back() {
        let m = Melee { charger: fighter(UnitType::Musketeers, 8), defender: fighter(UnitType::Musketeers, 8) };
        // Test to charge on chart A (no hits: 8): 9 and 3 -> one fails: shaken, no charge.
        let r = run(&m, "9 3");
        assert_eq!((r.outcome.charged, r.outcome.charger), (false, End::Shaken));
        // It charges (3 4); the defender fails one die (9 2): shaken, falls back; no melee.
        let r = run(&m, "3 4 9 2");
        assert_eq!((r.outcome.charged, r.outcome.fought, r.outcome.defender), (true, false, End::Shaken));
    }

    #[test]
    fn infantry_melee_the_more_hits_win_and_both_end_shaken_the_charger_retiring() {
        let m = Melee { charger: fighter(UnitType::Grenadiers, 8), defender: fighter(UnitType::Musketeers, 8) };
        // Both pass (1 1, 1 1). Melee on C: grenadiers 6 (2 dice: 2 5 -> 2 hits), musketeers 5
        // (2 dice: 6 9 -> 0). Post tests: charger with 0 hits, chart A 9 (1 2); defender with 2,
        // chart A 8 (3 4): both pass -> the charger retires shaken; both shaken. No pursuit
        // (infantry do not pursue).
        let r = run(&m, "1 1 1 1 2 5 6 9 1 2 3 4");
        let o = &r.outcome;
        assert_eq!(o.winner, Some(Winner::Charger));
        assert_eq!((o.charger, o.defender, o.charger_retires, o.pursuit), (End::Shaken, End::Shaken, true, None));
        assert!(r.to_string().contains("charger melee on chart C (hit on 6 or under): d10 2 5 -> 2 hits"), "{r}");
    }

    #[test]
    fn cavalry_winner_tests_for_pursuit_and_may_rally_on_the_spot() {
        let m = Melee { charger: fighter(UnitType::Cuirassiers, 4), defender: fighter(UnitType::Dragoons, 4) };
        // Tests pass; melee: cuirassiers C 7 (1 die: 3 -> hit), dragoons C 6 (8 -> miss).
        // Post: both pass; pursuit 6: rally on the spot, good order, no retiring.
        let r = run(&m, "1 1 1 1 3 8 1 1 1 1 6");
        let o = &r.outcome;
        assert_eq!(
            (o.winner, o.pursuit, o.charger, o.charger_retires),
            (Some(Winner::Charger), Some(Pursuit::Rally), End::Good, false)
        );
        // The table printed for 1-6 is read for 7-10 as 6.
        assert_eq!(
            [1, 2, 4, 6, 7, 10].map(Pursuit::of),
            [Pursuit::Pursue, Pursuit::ReturnToOwnLines, Pursuit::Hold, Pursuit::Rally, Pursuit::Rally, Pursuit::Rally]
        );
    }

    #[test]
    fn cavalry_that_fails_to_counter_charge_meets_the_charge_at_the_halt() {
        let m = Melee { charger: fighter(UnitType::Hussars, 4), defender: fighter(UnitType::Dragoons, 4) };
        // The dragoons fail one die (10 1): at the halt — the hussars on B (6), the dragoons on D (5).
        // Melee: 6 -> hit; 5 -> hit: no winner: both retreat 24".
        let r = run(&m, "1 1 10 1 6 5 1 1 1 1");
        let md = r.melee_dice.as_ref().unwrap();
        assert_eq!((md[0].0, md[0].1, md[1].0, md[1].1), (Chart::B, 6, Chart::D, 5));
        assert_eq!((r.outcome.winner, r.outcome.both_retreat), (None, true));
    }

    #[test]
    fn a_post_melee_test_against_an_enemy_on_chart_a_reads_chart_e() {
        let mut c = fighter(UnitType::Cuirassiers, 4);
        c.chart = Chart::A; // e.g. cavalry against unformed infantry
        let m = Melee { charger: c, defender: fighter(UnitType::Musketeers, 4) };
        let r = run(&m, "1 1 1 1 1 9 1 1 2 2 3");
        let post = r.post_tests.as_ref().unwrap();
        assert_eq!(post[1].0, Chart::E, "the musketeers test on E");
        assert_eq!(post[1].1, 2);
    }

    #[test]
    fn the_odds_of_the_whole_chain_sum_to_one_and_match_a_hand_count() {
        let m = Melee { charger: fighter(UnitType::Musketeers, 4), defender: fighter(UnitType::Musketeers, 4) };
        let o = odds(&m).unwrap();
        let total: f64 = o.iter().map(|x| x.probability).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // No charge: the test on chart A (8) with two dice fails a die with 1 - 0.64 = 0.36.
        let no_charge: f64 = o.iter().filter(|x| !x.outcome.charged).map(|x| x.probability).sum();
        assert!((no_charge - 0.36).abs() < 1e-12, "{no_charge}");
        // Charged but no melee: 0.64 x 0.36.
        let fell_back: f64 = o.iter().filter(|x| x.outcome.charged && !x.outcome.fought).map(|x| x.probability).sum();
        assert!((fell_back - 0.64 * 0.36).abs() < 1e-12, "{fell_back}");
        // Cavalry on cavalry, with pursuit: still sums to one.
        let m = Melee { charger: fighter(UnitType::Hussars, 24), defender: fighter(UnitType::Cuirassiers, 20) };
        let total: f64 = odds(&m).unwrap().iter().map(|x| x.probability).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn unfit_charges_are_refused_at_the_field() {
        let m = Melee { charger: fighter(UnitType::Jagers, 4), defender: fighter(UnitType::Musketeers, 4) };
        assert_eq!(odds(&m).unwrap_err().path(), Some("charger.type"), "jägers have no charge (~)");
        let m = Melee { charger: fighter(UnitType::Musketeers, 0), defender: fighter(UnitType::Musketeers, 4) };
        assert_eq!(odds(&m).unwrap_err().path(), Some("charger.figures"));
    }
}
