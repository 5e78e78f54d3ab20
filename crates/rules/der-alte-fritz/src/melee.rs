//! A charge and its melee, one round, as the text's seven steps, and the exact odds of the whole
//! chain: the charger's test to charge, the defender's test (a cavalry defender's to
//! counter-charge), a failing defender falling back or routing, the melee on each side's chart,
//! the post-melee tests, the charger retiring shaken, the cavalry winner's pursuit test, and both
//! sides shaken unless the charger rallies on the spot.
//!
//! Readings (see the register): a melee is won by the side that passes its post-melee test while
//! the other fails (both pass or both fail: no winner); a test with no hits reads chart A; each
//! post-melee test reads the chart of the unit's hits so far, or E if its enemy fought on melee
//! chart A; a cavalry defender that passes its test then tests again to counter-charge.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::Chance;
use volley_core::calc::{CalcError, OutcomeProbability, add_outcome};

use crate::combat::{MAX_FIGURES, Morale, hit_odds, morale_dice, morale_odds, morale_of, roll};
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
    /// More charts from the text's lists that apply to it, each counted by its levels from C
    /// together with `chart`, its being shaken, the enemy shaken and the halt, in one net
    /// difference (the battle gives each advantage here, so that two are not capped at A
    /// before a disadvantage counts).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<Chart>,
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
    /// In cover where it fights, when that is not where it stood for its test to charge or to
    /// stand (the charger, gone into contact): its post-melee test's dice. None: as where it stood.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_in_cover: Option<bool>,
    /// Both flanks secure where it fights, when that is not where it stood for its test to charge
    /// or to stand. None: as where it stood.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub post_secure_flanks: Option<bool>,
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
    /// The charger passed its post-melee test and the defender failed.
    Charger,
    /// The defender passed and the charger failed.
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
    /// A cavalry defender met the charge at the halt (failed to counter-charge, or shaken).
    pub at_halt: bool,
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
    /// The defender's test to stand.
    pub defence_test: Option<(Chart, u8, Vec<u8>)>,
    /// A cavalry defender's test to counter-charge (failed: it meets the charge at the halt).
    pub counter_test: Option<(Chart, u8, Vec<u8>)>,
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
        if self.figures / 4 > MAX_MELEE_DICE {
            return Err(CalcError::field(
                format!("{who}.figures"),
                format!("{} dice: a side throws at most {MAX_MELEE_DICE} in a melee", self.figures / 4),
            ));
        }
        Ok(())
    }

    fn morale_dice(&self) -> u32 {
        morale_dice(self.in_cover, self.secure_flanks, self.leader_attached)
    }

    /// Where it fights: in cover, and with both flanks secure (its post-melee test).
    pub fn post_ground(&self) -> (bool, bool) {
        (self.post_in_cover.unwrap_or(self.in_cover), self.post_secure_flanks.unwrap_or(self.secure_flanks))
    }

    /// Its post-melee test's dice, counted where it fights.
    fn post_morale_dice(&self) -> u32 {
        let (cover, flanks) = self.post_ground();
        morale_dice(cover, flanks, self.leader_attached)
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
            return Err(CalcError::field("charger.type", self.charger.kind.profile().no_charge_words()));
        }
        Ok(())
    }

    /// Cavalry charging cavalry: the defender's test is its test to counter-charge.
    fn cavalry_on_cavalry(&self) -> bool {
        self.charger.kind.profile().arm == Arm::Cavalry && self.defender.kind.profile().arm == Arm::Cavalry
    }

    /// Each side's melee chart and number, given whether the defender (cavalry) was caught at the
    /// halt: its own charts, D if shaken, B against a shaken enemy, and for cavalry at the halt D
    /// (the charger B), by one net difference.
    pub fn charts(&self, at_halt: bool) -> [(Chart, u8); 2] {
        let side = |f: &Fighter, enemy: &Fighter, extra: Option<Chart>| {
            let mut charts = vec![f.chart];
            charts.extend(f.also.iter().copied());
            if f.shaken {
                charts.push(Chart::D);
            }
            // "vs. Shaken": against a shaken enemy, a minor advantage (B).
            if enemy.shaken {
                charts.push(Chart::B);
            }
            charts.extend(extra);
            let chart = Chart::net(charts);
            (chart, f.kind.profile().melee[chart.index()].unwrap_or(0))
        };
        let (c_extra, d_extra) = if at_halt { (Some(Chart::B), Some(Chart::D)) } else { (None, None) };
        [side(&self.charger, &self.defender, c_extra), side(&self.defender, &self.charger, d_extra)]
    }
}

/// Who won: the side that passed its post-melee test while the other failed.
fn winner(post: [Morale; 2]) -> Option<Winner> {
    match (post[0] == Morale::Passed, post[1] == Morale::Passed) {
        (true, false) => Some(Winner::Charger),
        (false, true) => Some(Winner::Defender),
        _ => None,
    }
}

/// Whether the winner (if any) is cavalry, and so tests for pursuit.
fn pursues(m: &Melee, post: [Morale; 2]) -> bool {
    match winner(post) {
        Some(Winner::Charger) => m.charger.kind.profile().arm == Arm::Cavalry,
        Some(Winner::Defender) => m.defender.kind.profile().arm == Arm::Cavalry,
        None => false,
    }
}

/// The chain after the melee: the ends from the post-melee tests and the pursuit die.
fn after_melee(m: &Melee, at_halt: bool, post: [Morale; 2], pursuit_die: Option<u8>) -> MeleeOutcome {
    let cavalry = m.cavalry_on_cavalry();
    let winner = winner(post);
    let pursuit = pursuit_die.filter(|_| pursues(m, post)).map(Pursuit::of);
    let rallies = |w: Winner| winner == Some(w) && pursuit == Some(Pursuit::Rally);
    let end = |morale: Morale, was_shaken: bool, rallied: bool| match morale {
        Morale::Rout if was_shaken => End::Removed,
        Morale::Rout => End::Rout,
        // Step 7: shaken after the melee, unless the cavalry winner rallies on the spot.
        _ if rallied => End::Good,
        _ => End::Shaken,
    };
    let both_retreat = cavalry && winner.is_none();
    MeleeOutcome {
        charged: true,
        at_halt,
        fought: true,
        winner,
        both_retreat,
        // Step 5: both passed; in a cavalry melee the 24" retreat takes its place.
        charger_retires: post == [Morale::Passed, Morale::Passed] && !both_retreat,
        pursuit,
        charger: end(post[0], m.charger.shaken, rallies(Winner::Charger)),
        defender: end(post[1], m.defender.shaken, rallies(Winner::Defender)),
    }
}

/// Where a unit stands when nothing happens to it: as it was.
fn standing(f: &Fighter) -> End {
    if f.shaken { End::Shaken } else { End::Good }
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
        roll(chance, k, &|i| format!("the charger's test to charge, die {} of {k} (passes on {cn} or under)", i + 1))?;
    let charge = morale_of(&cdice, cn);
    let mut res = MeleeResolution {
        melee: m.clone(),
        charge_test: (cc, cn, cdice),
        defence_test: None,
        counter_test: None,
        melee_dice: None,
        post_tests: None,
        pursuit_die: None,
        outcome: MeleeOutcome {
            charged: false,
            at_halt: false,
            fought: false,
            winner: None,
            both_retreat: false,
            charger_retires: false,
            pursuit: None,
            charger: failed(charge, c.shaken),
            defender: standing(d),
        },
    };
    if charge != Morale::Passed {
        return Ok(res);
    }
    res.outcome.charged = true;
    res.outcome.charger = standing(c);
    // 2. The defender's test; 3. failing, it falls back (shaken) or routs.
    let (dc, dn) = d.morale(d.hits_before, false);
    let k = d.morale_dice();
    let ddice = roll(chance, k, &|i| format!("the defender's test, die {} of {k} (passes on {dn} or under)", i + 1))?;
    let defence = morale_of(&ddice, dn);
    res.defence_test = Some((dc, dn, ddice));
    if defence != Morale::Passed {
        res.outcome.defender = failed(defence, d.shaken);
        return Ok(res);
    }
    // Cavalry charged by cavalry counter-charges if it passes a second test; failing, or shaken
    // (which may not counter-charge), it meets the charge at the halt.
    let mut at_halt = false;
    if m.cavalry_on_cavalry() {
        if d.shaken {
            at_halt = true;
        } else {
            let dice = roll(chance, k, &|i| {
                format!("the defender's test to counter-charge, die {} of {k} (passes on {dn} or under)", i + 1)
            })?;
            at_halt = morale_of(&dice, dn) != Morale::Passed;
            res.counter_test = Some((dc, dn, dice));
        }
    }
    // 4. The melee.
    let charts = m.charts(at_halt);
    let mut thrown = Vec::new();
    for (who, f, (chart, number)) in [("charger", c, charts[0]), ("defender", d, charts[1])] {
        let n = f.figures / 4;
        let dice = roll(chance, n, &|i| format!("the {who}'s melee die {} of {n} (hits on {number} or under)", i + 1))?;
        thrown.push((chart, number, dice));
    }
    let hits = [0, 1].map(|i| thrown[i].2.iter().filter(|&&x| x <= thrown[i].1).count() as u32);
    // 5. The post-melee tests: each side's hits so far, or E against an enemy on melee chart A.
    let mut post = Vec::new();
    for (who, f, taken, enemy_chart) in [("charger", c, hits[1], charts[1].0), ("defender", d, hits[0], charts[0].0)] {
        let (chart, number) = f.morale(f.hits_before + taken, enemy_chart == Chart::A);
        let k = f.post_morale_dice();
        let dice = roll(chance, k, &|i| {
            format!("the {who}'s post-melee test, die {} of {k} (passes on {number} or under)", i + 1)
        })?;
        post.push((chart, number, dice));
    }
    let post_morale = [morale_of(&post[0].2, post[0].1), morale_of(&post[1].2, post[1].1)];
    // 6. The cavalry winner's pursuit test.
    let pursuit_die =
        if pursues(m, post_morale) { Some(roll(chance, 1, &|_| "the winner's pursuit test".into())?[0]) } else { None };
    res.outcome = after_melee(m, at_halt, post_morale, pursuit_die);
    res.melee_dice = Some([thrown[0].clone(), thrown[1].clone()]);
    res.post_tests = Some([post[0].clone(), post[1].clone()]);
    res.pursuit_die = pursuit_die;
    Ok(res)
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
    let base = |charger: End, defender: End, charged: bool| MeleeOutcome {
        charged,
        at_halt: false,
        fought: false,
        winner: None,
        both_retreat: false,
        charger_retires: false,
        pursuit: None,
        charger,
        defender,
    };
    // Before the melee: no charge, or the defender falls back or routs.
    let [pc_pass, _, _] = charge;
    for (cm, pc) in RESULTS.into_iter().zip(charge).skip(1) {
        add_outcome(&mut out, base(failed(cm, c.shaken), standing(d), false), pc);
    }
    let [pd_pass, _, _] = defence;
    for (dm, pd) in RESULTS.into_iter().zip(defence).skip(1) {
        add_outcome(&mut out, base(standing(c), failed(dm, d.shaken), true), pc_pass * pd);
    }
    // The melee, at the halt or not.
    let halts: Vec<(bool, f64)> = if !m.cavalry_on_cavalry() {
        vec![(false, 1.0)]
    } else if d.shaken {
        vec![(true, 1.0)]
    } else {
        let counter = morale_odds(d.morale_dice(), dn)[0];
        vec![(false, counter), (true, 1.0 - counter)]
    };
    for (at_halt, ph) in halts {
        let p = pc_pass * pd_pass * ph;
        if p == 0.0 {
            continue;
        }
        let charts = m.charts(at_halt);
        let hc = hit_odds(c.figures / 4, charts[0].1);
        let hd = hit_odds(d.figures / 4, charts[1].1);
        for (h0, p0) in hc.iter().enumerate() {
            for (h1, p1) in hd.iter().enumerate() {
                let phits = p * p0 * p1;
                if phits == 0.0 {
                    continue;
                }
                let (_, n0) = c.morale(c.hits_before + h1 as u32, charts[1].0 == Chart::A);
                let (_, n1) = d.morale(d.hits_before + h0 as u32, charts[0].0 == Chart::A);
                let post0 = morale_odds(c.post_morale_dice(), n0);
                let post1 = morale_odds(d.post_morale_dice(), n1);
                for (a, qa) in RESULTS.into_iter().zip(post0) {
                    for (b, qb) in RESULTS.into_iter().zip(post1) {
                        let q = phits * qa * qb;
                        if q == 0.0 {
                            continue;
                        }
                        if pursues(m, [a, b]) {
                            for die in 1..=10 {
                                add_outcome(&mut out, after_melee(m, at_halt, [a, b], Some(die)), q * 0.1);
                            }
                        } else {
                            add_outcome(&mut out, after_melee(m, at_halt, [a, b], None), q);
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
        if self.at_halt {
            write!(f, "at the halt; ")?;
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
        writeln!(f, "test to charge on chart {chart} (pass on {n} or under): d10 {}", dice(d))?;
        if let Some((chart, n, d)) = &self.defence_test {
            writeln!(f, "the defender's test on chart {chart} (pass on {n} or under): d10 {}", dice(d))?;
        }
        if let Some((chart, n, d)) = &self.counter_test {
            writeln!(f, "its test to counter-charge on chart {chart} (pass on {n} or under): d10 {}", dice(d))?;
        }
        if let Some(m) = &self.melee_dice {
            for (who, (chart, n, d)) in ["charger", "defender"].iter().zip(m) {
                let h = d.iter().filter(|&&x| x <= *n).count();
                writeln!(
                    f,
                    "{who} melee on chart {chart} (hit on {n} or under): d10 {} -> {h} hit{}",
                    dice(d),
                    if h == 1 { "" } else { "s" }
                )?;
            }
        }
        if let Some(p) = &self.post_tests {
            for (who, (chart, n, d)) in ["charger", "defender"].iter().zip(p) {
                writeln!(f, "{who}'s post-melee test on chart {chart} (pass on {n} or under): d10 {}", dice(d))?;
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
            also: Vec::new(),
            hits_before: 0,
            shaken: false,
            in_cover: false,
            secure_flanks: false,
            leader_attached: false,
            post_in_cover: None,
            post_secure_flanks: None,
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
    fn every_chart_of_the_situation_nets_with_shaken_and_the_halt_in_one_sum() {
        // Two major advantages (A, A: 4 levels up) and shaken (D): 3 up, still A. Capped at A
        // first and then shaken, it would have read B.
        let mut c = fighter(UnitType::Cuirassiers, 12);
        c.also = vec![Chart::A, Chart::A];
        c.shaken = true;
        let mut d = fighter(UnitType::Musketeers, 12);
        d.also = vec![Chart::E, Chart::E];
        let m = Melee { charger: c, defender: d };
        let [(cc, cn), (dc, _)] = m.charts(false);
        assert_eq!((cc, cn), (Chart::A, 9), "A A D nets to A");
        // E E (4 down) and against a shaken enemy (B, 1 up): 3 down, E.
        assert_eq!(dc, Chart::E);
        // `chart` and `also` are one list: C with [A, A] is A A.
        let mut one = m.clone();
        one.charger.chart = Chart::A;
        one.charger.also = vec![Chart::A];
        assert_eq!(one.charts(false), m.charts(false));
    }

    #[test]
    fn unfit_charges_are_refused_at_the_field() {
        let m = Melee { charger: fighter(UnitType::Jagers, 4), defender: fighter(UnitType::Musketeers, 4) };
        assert_eq!(odds(&m).unwrap_err().path(), Some("charger.type"), "jägers have no charge (~)");
        assert!(odds(&m).unwrap_err().to_string().contains("the table's `~`"));
        // A gun's charge cell is blank, not `~`: the refusal says which.
        let m = Melee { charger: fighter(UnitType::LightArtillery, 4), defender: fighter(UnitType::Musketeers, 4) };
        let why = odds(&m).unwrap_err().to_string();
        assert!(why.contains("blank") && !why.contains('~'), "{why}");
        let m = Melee { charger: fighter(UnitType::Musketeers, 0), defender: fighter(UnitType::Musketeers, 4) };
        assert_eq!(odds(&m).unwrap_err().path(), Some("charger.figures"));
    }
}
