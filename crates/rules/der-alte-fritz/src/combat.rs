//! Fire, morale and rallying as pure functions of a described situation, the umpire's calculator
//! and the exact odds of the whole chain: a volley's hits, the target's morale test, its losses
//! and removal, and the fate of an officer riding with it.
//!
//! How a die meets a number (see the register): a die **at or under** the chart's number scores
//! a hit (firing, melee) or passes (morale); a morale die over the number **fails**. Of more than
//! two morale dice the two lowest are kept; one kept die failed: shaken; two: rout.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::calc::{CalcError, Calculator, OutcomeProbability, add_outcome, most_likely_first};

use crate::melee::{Melee, MeleeOutcome, MeleeResolution};
use crate::units::{Chart, FireNumber, UnitType};

/// The most dice one volley throws (a battery of 20 guns at short range; 160 figures of foot).
pub const MAX_FIRE_DICE: u32 = 40;

/// The most figures a unit in the calculator may have.
pub const MAX_FIGURES: u32 = 1000;

/// What a target stands in, for the firer's chart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// A square: chart A.
    Square,
    /// A column: chart B.
    Column,
    /// Artillery limbered: chart B.
    LimberedArtillery,
    /// A line: chart C.
    Line,
    /// Skirmishers: chart D.
    Skirmish,
    /// Artillery unlimbered: chart D.
    UnlimberedArtillery,
}

impl Formation {
    /// The chart the text gives for firing at it.
    pub fn chart(self) -> Chart {
        match self {
            Formation::Square => Chart::A,
            Formation::Column | Formation::LimberedArtillery => Chart::B,
            Formation::Line => Chart::C,
            Formation::Skirmish | Formation::UnlimberedArtillery => Chart::D,
        }
    }
}

/// Short or long range (artillery's two numbers; the jägers' row has one set of numbers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Range {
    /// Short range: 2 d10 a gunner, on the first number.
    #[default]
    Short,
    /// Long range: 1 d10 a gunner, on the second number.
    Long,
}

/// A unit as its morale test needs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Standing {
    /// Its type, a row of the unit table.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// Hits it has taken so far (before this fire).
    #[serde(default)]
    pub hits_before: u32,
    /// In cover (3 morale dice).
    #[serde(default)]
    pub in_cover: bool,
    /// Both flanks secure: a friendly unit within 3" of each, or a town, woods or wall (4 dice).
    #[serde(default)]
    pub secure_flanks: bool,
    /// A leader attached (one more die; one leader's bonus a unit).
    #[serde(default)]
    pub leader_attached: bool,
    /// A mounted officer figure attached: a volley that hits it rolls for his fate.
    #[serde(default)]
    pub officer_attached: bool,
    /// Another leader attached besides the officer whose fate is rolled: his death leaves the
    /// leader's die.
    #[serde(default)]
    pub other_leader: bool,
    /// Already shaken: it fires and fights on chart D, is fired at on D, and a rout removes it.
    #[serde(default)]
    pub shaken: bool,
    /// Figures it has now (each hit takes one: see the register).
    pub figures: u32,
    /// Figures a stand: it is removed when down to 1 stand of foot or 2 of horse.
    pub figures_per_stand: u32,
}

/// The firer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Firer {
    /// Its type.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// Figures firing (foot and horse: 1 d10 for every 4, two ranks deep), or gunners (guns:
    /// 2 d10 each at short range, 1 at long).
    pub firing: u32,
    /// Shaken: it fires on chart D (one level down, with the other differences).
    #[serde(default)]
    pub shaken: bool,
}

/// The target of a volley.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The unit, for its morale test and losses.
    #[serde(flatten)]
    pub unit: Standing,
    /// Its formation.
    pub formation: Formation,
    /// Shot in the flank or rear (chart A).
    #[serde(default)]
    pub flank_or_rear: bool,
    /// In hard cover, entrenchments (chart E).
    #[serde(default)]
    pub hard_cover: bool,
}

/// One volley: who fires, at what, at which range.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Volley {
    /// The firer.
    pub firer: Firer,
    /// The target.
    pub target: Target,
    /// Short or long range (artillery).
    #[serde(default)]
    pub range: Range,
}

/// A rally: a shaken or routing unit tries to come back to good order.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Rally {
    /// The unit's type.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// Routing (its one attempt to rally), not only shaken (a leader rallying it). Either, failing
    /// both dice, is removed: a failed rally from rout, or a shaken unit that routs.
    #[serde(default)]
    pub routing: bool,
}

impl Rally {
    /// What a rally's two dice come to: none failed, good order; one, shaken (a routing unit
    /// rallies to shaken, a shaken one stays so); two, a rout: a routing unit has failed to rally
    /// (one attempt) and a shaken one routs, and either is removed ("fail on 2 dice: rout";
    /// removed are units that fail to rally from rout and shaken units that rout).
    fn outcome(&self, morale: Morale) -> VolleyOutcome {
        VolleyOutcome {
            hits: 0,
            morale: Some(morale),
            removed: morale == Morale::Rout,
            rallied: morale == Morale::Passed,
            officer: None,
        }
    }
}

/// What the calculator works out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Situation {
    /// A volley and what follows from it.
    Volley(Volley),
    /// A rally.
    Rally(Rally),
    /// A charge and its melee.
    Melee(Melee),
}

/// A morale test's result.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Morale {
    /// No kept die failed.
    Passed,
    /// One kept die failed.
    Shaken,
    /// Both kept dice failed.
    Rout,
}

/// An officer's fate, the officer casualty table by its d10.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum OfficerFate {
    /// 1–2: a grazing wound, no effect.
    CloseCall,
    /// 3–4: missed.
    Missed,
    /// 5–6: moves at half speed for the rest of the game.
    LightWound,
    /// 7–8: no movement for two turns.
    SevereWound,
    /// 9: killed; the next man up.
    Killed,
    /// 10: killed by round shot; an army commander's death makes every unit within 12" test.
    KilledByRoundShot,
}

impl OfficerFate {
    /// Whether he is dead (and, if he was the unit's leader, gives its tests no die).
    pub fn killed(self) -> bool {
        matches!(self, OfficerFate::Killed | OfficerFate::KilledByRoundShot)
    }

    /// The table's row for a d10.
    pub fn of(d: u8) -> OfficerFate {
        match d {
            1 | 2 => OfficerFate::CloseCall,
            3 | 4 => OfficerFate::Missed,
            5 | 6 => OfficerFate::LightWound,
            7 | 8 => OfficerFate::SevereWound,
            9 => OfficerFate::Killed,
            _ => OfficerFate::KilledByRoundShot,
        }
    }
}

/// What a volley (or a rally) comes to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub struct VolleyOutcome {
    /// Hits scored (none for a rally).
    pub hits: u32,
    /// The target's morale test, if it took one (a volley without hits needs none); a rally's.
    pub morale: Option<Morale>,
    /// The unit is removed: down to 1 stand of foot or 2 of horse, a shaken unit routed, or a
    /// failed rally from rout.
    pub removed: bool,
    /// Back in good order (a rally passed).
    pub rallied: bool,
    /// The fate of the officer with it, if one was attached and hit.
    pub officer: Option<OfficerFate>,
}

/// A volley or rally resolved, with the dice and the numbers they met.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VolleyResolution {
    /// The situation.
    pub situation: Situation,
    /// The chart fired on, and the number a die must not exceed to hit.
    pub fire: Option<(Chart, u8)>,
    /// The firing dice.
    pub fire_dice: Vec<u8>,
    /// The morale test: its chart, number, and dice (the two lowest are kept).
    pub test: Option<(Chart, u8, Vec<u8>)>,
    /// The officer's die.
    pub officer_die: Option<u8>,
    /// What it came to.
    pub outcome: VolleyOutcome,
}

/// What anything the calculator works out comes to.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// A volley's or a rally's.
    Volley(VolleyOutcome),
    /// A charge's.
    Melee(MeleeOutcome),
}

/// Anything the calculator works out, resolved with every die.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Resolution {
    /// A volley or a rally.
    Volley(VolleyResolution),
    /// A charge.
    Melee(MeleeResolution),
}

/// The Der Alte Fritz calculator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combat;

/// The morale test's dice: 2 in the open, 3 in cover, 4 with secure flanks (in cover or not),
/// and one more with a leader attached.
pub fn morale_dice(in_cover: bool, secure_flanks: bool, leader: bool) -> u32 {
    let base = if secure_flanks {
        4
    } else if in_cover {
        3
    } else {
        2
    };
    base + u32::from(leader)
}

/// The morale test's dice in words, with where their number comes from: `3 dice (2 in the open,
/// +1 for its leader; the two lowest count)`.
pub fn morale_dice_words(in_cover: bool, secure_flanks: bool, leader: bool) -> String {
    let base = if secure_flanks {
        "4 with secure flanks"
    } else if in_cover {
        "3 in cover"
    } else {
        "2 in the open"
    };
    let n = morale_dice(in_cover, secure_flanks, leader);
    format!(
        "{n} dice ({base}{}{})",
        if leader { ", +1 for its leader" } else { "" },
        if n > 2 { "; the two lowest count" } else { "" }
    )
}

/// The result of morale dice against `number`: the two lowest kept, each over the number failed.
pub fn morale_of(dice: &[u8], number: u8) -> Morale {
    let passing = dice.iter().filter(|&&d| d <= number).count();
    match passing {
        0 => Morale::Rout,
        1 => Morale::Shaken,
        _ => Morale::Passed,
    }
}

/// The chance of each morale result with `dice` d10 against `number`: [passed, shaken, rout].
pub fn morale_odds(dice: u32, number: u8) -> [f64; 3] {
    let q = f64::from(number.min(10)) / 10.0;
    let n = dice as i32;
    let none = (1.0 - q).powi(n);
    let one = f64::from(dice) * q * (1.0 - q).powi(n - 1);
    [1.0 - none - one, one, none]
}

/// The binomial distribution of hits: `dice` d10, each hitting with chance `number`/10.
pub(crate) fn hit_odds(dice: u32, number: u8) -> Vec<f64> {
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

impl Volley {
    /// The chart fired on: from C by the net difference of the target's formation, a shot in its
    /// flank or rear (A), hard cover (E), the target shaken (D) and the firer shaken (D).
    pub fn chart(&self) -> Chart {
        let t = &self.target;
        let mut charts = vec![t.formation.chart()];
        if t.flank_or_rear {
            charts.push(Chart::A);
        }
        if t.hard_cover {
            charts.push(Chart::E);
        }
        if t.unit.shaken {
            charts.push(Chart::D);
        }
        if self.firer.shaken {
            charts.push(Chart::D);
        }
        Chart::net(charts)
    }

    /// The dice thrown and the number each must not exceed to hit, or why it cannot fire.
    pub fn dice(&self) -> Result<(Chart, u32, u8), CalcError> {
        let chart = self.chart();
        let p = self.firer.kind.profile();
        let Some(number) = p.fire[chart.index()] else {
            return Err(CalcError::field(
                "firer.type",
                format!("{} do not fire on chart {chart} (the table's `~`)", p.name),
            ));
        };
        let n = self.firer.firing;
        let (dice, number) = match (number, self.range) {
            // One die for every full 4 figures (see the register).
            (FireNumber::One(k), Range::Short) => (n / 4, k),
            (FireNumber::One(_), Range::Long) if p.range.is_some_and(|(_, long)| long.is_none()) => {
                return Err(CalcError::field("range", format!("{} have one range: short", p.name)));
            }
            (FireNumber::One(k), Range::Long) => (n / 4, k),
            (FireNumber::Gun(short, _), Range::Short) => (2 * n, short),
            (FireNumber::Gun(_, long), Range::Long) => (n, long),
        };
        if dice == 0 {
            return Err(CalcError::field(
                "firer.firing",
                "fewer than 4 figures throw no die: 1 d10 for every 4 figures",
            ));
        }
        if dice > MAX_FIRE_DICE {
            return Err(CalcError::field(
                "firer.firing",
                format!("{dice} dice: one volley throws at most {MAX_FIRE_DICE}"),
            ));
        }
        Ok((chart, dice, number))
    }

    fn check(&self) -> Result<(), CalcError> {
        let u = &self.target.unit;
        if u.figures == 0 || u.figures > MAX_FIGURES {
            return Err(CalcError::field("target.figures", format!("1 to {MAX_FIGURES} figures, not {}", u.figures)));
        }
        if u.figures_per_stand == 0 {
            return Err(CalcError::field("target.figures_per_stand", "at least 1 figure a stand"));
        }
        if u.hits_before > MAX_FIGURES {
            return Err(CalcError::field("target.hits_before", format!("at most {MAX_FIGURES}")));
        }
        if self.firer.firing > MAX_FIGURES {
            return Err(CalcError::field("firer.firing", format!("at most {MAX_FIGURES}")));
        }
        Ok(())
    }

    /// Whether `hits` leave the target at 1 stand of foot or 2 of horse: removed at once, with
    /// no morale test.
    fn worn_out(&self, hits: u32) -> bool {
        let u = &self.target.unit;
        crate::units::worn_out(u.kind.profile().arm, u.figures.saturating_sub(hits), u.figures_per_stand)
    }

    /// The morale test after `hits`: its chart, number and dice — without the leader's die if
    /// the officer's fate killed him (`leader_lost`).
    fn test(&self, hits: u32, leader_lost: bool) -> (Chart, u8, u32) {
        let u = &self.target.unit;
        let chart = Chart::of_hits(u.hits_before + hits);
        let number = u.kind.profile().morale[chart.index()];
        (chart, number, morale_dice(u.in_cover, u.secure_flanks, u.leader_attached && (!leader_lost || u.other_leader)))
    }
}

/// `n` d10s, each drawn for the purpose `what` writes.
pub(crate) fn roll(chance: &mut dyn Chance, n: u32, what: &dyn Fn(u32) -> String) -> Result<Vec<u8>, CalcError> {
    (0..n)
        .map(|i| {
            let v = chance.draw(&DrawKind::Die { sides: 10 }, &what(i))?;
            Ok(v as u8)
        })
        .collect()
}

impl Calculator for Combat {
    type Situation = Situation;
    type Resolution = Resolution;
    type Outcome = Outcome;

    fn resolve(&self, situation: &Situation, chance: &mut dyn Chance) -> Result<Resolution, CalcError> {
        match situation {
            Situation::Volley(v) => {
                v.check()?;
                let (chart, n, number) = v.dice()?;
                let fire = roll(chance, n, &|i| format!("firing die {} of {n} (hits on {number} or under)", i + 1))?;
                let hits = fire.iter().filter(|&&d| d <= number).count() as u32;
                let (mut test, mut morale, mut officer_die) = (None, None, None);
                let worn_out = v.worn_out(hits);
                if hits > 0 {
                    // The officer's fate first: a leader killed gives no die to the test.
                    if v.target.unit.officer_attached {
                        officer_die = Some(roll(chance, 1, &|_| "the officer's fate".into())?[0]);
                    }
                    if !worn_out {
                        let lost = officer_die.is_some_and(|d| OfficerFate::of(d).killed());
                        let (mchart, mnum, k) = v.test(hits, lost);
                        let dice =
                            roll(chance, k, &|i| format!("morale die {} of {k} (passes on {mnum} or under)", i + 1))?;
                        morale = Some(morale_of(&dice, mnum));
                        test = Some((mchart, mnum, dice));
                    }
                }
                let routed_shaken = v.target.unit.shaken && morale == Some(Morale::Rout);
                let outcome = VolleyOutcome {
                    hits,
                    morale,
                    removed: worn_out || routed_shaken,
                    rallied: false,
                    officer: officer_die.map(OfficerFate::of),
                };
                Ok(Resolution::Volley(VolleyResolution {
                    situation: situation.clone(),
                    fire: Some((chart, number)),
                    fire_dice: fire,
                    test,
                    officer_die,
                    outcome,
                }))
            }
            Situation::Rally(r) => {
                let number = r.kind.profile().morale[Chart::C.index()];
                let dice = roll(chance, 2, &|i| format!("rally die {} of 2 (passes on {number} or under)", i + 1))?;
                let outcome = r.outcome(morale_of(&dice, number));
                Ok(Resolution::Volley(VolleyResolution {
                    situation: situation.clone(),
                    fire: None,
                    fire_dice: Vec::new(),
                    test: Some((Chart::C, number, dice)),
                    officer_die: None,
                    outcome,
                }))
            }
            Situation::Melee(m) => crate::melee::resolve(m, chance).map(Resolution::Melee),
        }
    }

    fn odds(&self, situation: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
        let mut out = Vec::new();
        match situation {
            Situation::Volley(v) => {
                v.check()?;
                let (_, n, number) = v.dice()?;
                for (hits, p_hits) in hit_odds(n, number).into_iter().enumerate() {
                    let hits = hits as u32;
                    if p_hits == 0.0 {
                        continue;
                    }
                    if hits == 0 || v.worn_out(hits) {
                        // No test: nothing hit, or too few left to stand (removed at once).
                        let fates: Vec<(Option<OfficerFate>, f64)> = if hits > 0 && v.target.unit.officer_attached {
                            (1..=10).map(|d| (Some(OfficerFate::of(d)), 0.1)).collect()
                        } else {
                            vec![(None, 1.0)]
                        };
                        for (officer, p_o) in fates {
                            let o = VolleyOutcome { hits, morale: None, removed: hits > 0, rallied: false, officer };
                            add_outcome(&mut out, Outcome::Volley(o), p_hits * p_o);
                        }
                        continue;
                    }
                    let fates: Vec<(Option<OfficerFate>, f64)> = if v.target.unit.officer_attached {
                        (1..=10).map(|d| (Some(OfficerFate::of(d)), 0.1)).collect()
                    } else {
                        vec![(None, 1.0)]
                    };
                    for (officer, p_o) in fates {
                        let lost = officer.is_some_and(OfficerFate::killed);
                        let (_, mnum, k) = v.test(hits, lost);
                        for (morale, p_m) in
                            [Morale::Passed, Morale::Shaken, Morale::Rout].into_iter().zip(morale_odds(k, mnum))
                        {
                            if p_m == 0.0 {
                                continue;
                            }
                            let removed = v.target.unit.shaken && morale == Morale::Rout;
                            let o = VolleyOutcome { hits, morale: Some(morale), removed, rallied: false, officer };
                            add_outcome(&mut out, Outcome::Volley(o), p_hits * p_m * p_o);
                        }
                    }
                }
            }
            Situation::Rally(r) => {
                let number = r.kind.profile().morale[Chart::C.index()];
                for (morale, p) in
                    [Morale::Passed, Morale::Shaken, Morale::Rout].into_iter().zip(morale_odds(2, number))
                {
                    add_outcome(&mut out, Outcome::Volley(r.outcome(morale)), p);
                }
            }
            Situation::Melee(m) => {
                for o in crate::melee::odds(m)? {
                    add_outcome(&mut out, Outcome::Melee(o.outcome), o.probability);
                }
            }
        }
        out.retain(|o| o.probability > 0.0);
        most_likely_first(&mut out);
        Ok(out)
    }
}

impl fmt::Display for Morale {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Morale::Passed => "passes",
            Morale::Shaken => "shaken",
            Morale::Rout => "routs",
        })
    }
}

impl fmt::Display for OfficerFate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            OfficerFate::CloseCall => "close call: a grazing wound, no effect",
            OfficerFate::Missed => "missed",
            OfficerFate::LightWound => "light wound: half speed for the rest of the game",
            OfficerFate::SevereWound => "severe wound: no movement for two turns",
            OfficerFate::Killed => "killed: the next man up",
            OfficerFate::KilledByRoundShot => "killed by round shot (an army commander: units within 12\" test)",
        })
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Volley(o) => o.fmt(f),
            Outcome::Melee(o) => o.fmt(f),
        }
    }
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resolution::Volley(r) => r.fmt(f),
            Resolution::Melee(r) => r.fmt(f),
        }
    }
}

impl fmt::Display for VolleyOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.rallied {
            write!(f, "rallies")?;
        } else if self.hits == 0 && self.morale.is_some() {
            // A test without fire: a rally that failed one die or both (a volley without hits
            // takes no test).
            write!(
                f,
                "{}",
                if self.morale == Some(Morale::Rout) {
                    "the rally fails on both dice: rout"
                } else {
                    "the rally fails on one die: shaken"
                }
            )?;
        } else {
            write!(f, "{} hit{}", self.hits, if self.hits == 1 { "" } else { "s" })?;
            if let Some(m) = self.morale {
                write!(f, ", {m}")?;
            }
        }
        if self.removed {
            write!(f, ", removed")?;
        }
        if let Some(o) = self.officer {
            write!(f, "; officer: {o}")?;
        }
        Ok(())
    }
}

impl fmt::Display for VolleyResolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dice = |d: &[u8]| d.iter().map(u8::to_string).collect::<Vec<_>>().join(" ");
        if let (Situation::Volley(v), Some((chart, number))) = (&self.situation, self.fire) {
            writeln!(
                f,
                "{} fire on chart {chart} (hit on {number} or under): d10 {} -> {} hit{}",
                v.firer.kind.profile().name,
                dice(&self.fire_dice),
                self.outcome.hits,
                if self.outcome.hits == 1 { "" } else { "s" }
            )?;
        }
        // In the order the dice are thrown: the officer's fate before the morale test.
        if let (Some(d), Some(o)) = (self.officer_die, self.outcome.officer) {
            writeln!(f, "officer: d10 {d} -> {o}")?;
        }
        if let Some((chart, number, d)) = &self.test {
            let mut kept = d.clone();
            kept.sort_unstable();
            kept.truncate(2);
            writeln!(
                f,
                "morale on chart {chart} (pass on {number} or under): d10 {} (kept {}) -> {}",
                dice(d),
                dice(&kept),
                self.outcome.morale.map_or("no test".into(), |m| m.to_string())
            )?;
        }
        write!(f, "{}", self.outcome)
    }
}

#[cfg(test)]
mod tests {
    use volley_chance::Scripted;

    use super::*;

    fn standing(kind: UnitType, figures: u32) -> Standing {
        Standing {
            kind,
            hits_before: 0,
            in_cover: false,
            secure_flanks: false,
            leader_attached: false,
            officer_attached: false,
            other_leader: false,
            shaken: false,
            figures,
            figures_per_stand: 4,
        }
    }

    fn volley(firing: u32, formation: Formation) -> Volley {
        Volley {
            firer: Firer { kind: UnitType::Musketeers, firing, shaken: false },
            target: Target {
                unit: standing(UnitType::Musketeers, 24),
                formation,
                flank_or_rear: false,
                hard_cover: false,
            },
            range: Range::Short,
        }
    }

    fn resolve(s: Situation, draws: &str) -> VolleyResolution {
        match Combat.resolve(&s, &mut Scripted::parse(draws).unwrap()).unwrap() {
            Resolution::Volley(r) => r,
            Resolution::Melee(r) => panic!("{r}"),
        }
    }

    fn volley_odds(s: &Situation) -> Vec<(VolleyOutcome, f64)> {
        Combat
            .odds(s)
            .unwrap()
            .into_iter()
            .map(|o| match o.outcome {
                Outcome::Volley(v) => (v, o.probability),
                Outcome::Melee(m) => panic!("{m}"),
            })
            .collect()
    }

    #[test]
    fn musketeers_volley_into_a_line_hits_on_five_or_under_and_the_target_tests_morale() {
        // 24 figures: 6 dice on chart C (number 5). 1 5 6 9 3 10: three hits.
        // Morale: 3 cumulative hits, chart A (8), 2 dice in the open: 4 and 9 -> one fails: shaken.
        let r = resolve(Situation::Volley(volley(24, Formation::Line)), "1 5 6 9 3 10 4 9");
        assert_eq!(r.fire, Some((Chart::C, 5)));
        assert_eq!(r.outcome.hits, 3);
        assert_eq!(r.test, Some((Chart::A, 8, vec![4, 9])));
        assert_eq!(r.outcome.morale, Some(Morale::Shaken));
        assert!(!r.outcome.removed);
        let text = r.to_string();
        assert!(text.contains("chart C (hit on 5 or under): d10 1 5 6 9 3 10 -> 3 hits"), "{text}");
    }

    #[test]
    fn no_hit_no_test_and_only_full_fours_throw_dice() {
        // 7 figures: 1 die (the 3 left over throw none).
        let r = resolve(Situation::Volley(volley(7, Formation::Line)), "6");
        assert_eq!((r.fire_dice.len(), r.outcome.hits, r.outcome.morale, r.test.is_none()), (1, 0, None, true));
        // 3 figures throw no die at all: refused, with why.
        let why = volley(3, Formation::Line).dice().unwrap_err().to_string();
        assert!(why.contains("fewer than 4 figures"), "{why}");
    }

    #[test]
    fn chart_differences_square_and_a_shaken_firer() {
        // A square (A) fired on by a shaken firer (D): net +1, chart B (musketeers 6).
        let mut v = volley(4, Formation::Square);
        v.firer.shaken = true;
        assert_eq!(v.chart(), Chart::B);
        // A line in hard cover (E) shot in the flank (A): C.
        let mut v = volley(4, Formation::Line);
        v.target.hard_cover = true;
        v.target.flank_or_rear = true;
        assert_eq!(v.chart(), Chart::C);
    }

    #[test]
    fn more_morale_dice_keep_the_two_lowest() {
        assert_eq!(morale_dice(false, false, false), 2);
        assert_eq!(morale_dice(true, false, false), 3);
        assert_eq!(morale_dice(false, true, false), 4);
        assert_eq!(morale_dice(true, true, true), 5);
        assert_eq!(morale_of(&[10, 9, 2, 3], 5), Morale::Passed);
        assert_eq!(morale_of(&[10, 9, 2], 5), Morale::Shaken);
        assert_eq!(morale_of(&[10, 9, 6], 5), Morale::Rout);
        // Two dice against 5: pass 1/4, shaken 1/2, rout 1/4.
        let [p, s, r] = morale_odds(2, 5);
        assert!((p - 0.25).abs() < 1e-12 && (s - 0.5).abs() < 1e-12 && (r - 0.25).abs() < 1e-12);
    }

    #[test]
    fn guns_throw_two_dice_a_gunner_short_and_one_long() {
        let mut v = volley(3, Formation::Column);
        v.firer.kind = UnitType::MediumArtillery;
        // Column: chart B, short 6.
        assert_eq!(v.dice().unwrap(), (Chart::B, 6, 6));
        v.range = Range::Long;
        assert_eq!(v.dice().unwrap(), (Chart::B, 3, 4));
        // Musketeers have one range.
        let mut m = volley(4, Formation::Line);
        m.range = Range::Long;
        assert_eq!(m.dice().unwrap_err().path(), Some("range"));
        // Cuirassiers do not fire.
        let mut c = volley(4, Formation::Line);
        c.firer.kind = UnitType::Cuirassiers;
        assert!(c.dice().is_err());
    }

    #[test]
    fn exact_odds_sum_to_one_and_match_a_hand_count() {
        // One die at 5 against a line; the target in the open, no officer.
        let o = volley_odds(&Situation::Volley(volley(4, Formation::Line)));
        let total: f64 = o.iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-12, "{total}");
        // No hit: 1/2. One hit, chart A (8), two dice: pass 0.64, shaken 0.32, rout 0.04.
        let p = |hits, morale| o.iter().find(|x| x.0.hits == hits && x.0.morale == morale).map_or(0.0, |x| x.1);
        assert!((p(0, None) - 0.5).abs() < 1e-12);
        assert!((p(1, Some(Morale::Passed)) - 0.32).abs() < 1e-12);
        assert!((p(1, Some(Morale::Shaken)) - 0.16).abs() < 1e-12);
        assert!((p(1, Some(Morale::Rout)) - 0.02).abs() < 1e-12);
        // With an officer: ten fates for each test result.
        let mut v = volley(40, Formation::Square);
        v.target.unit.officer_attached = true;
        v.target.unit.figures = 40;
        let total: f64 = volley_odds(&Situation::Volley(v)).iter().map(|x| x.1).sum();
        assert!((total - 1.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn a_charge_goes_through_the_calculator_too() {
        let s: Situation = serde_json::from_str(
            r#"{"melee": {"charger": {"type": "cuirassiers", "figures": 12},
                          "defender": {"type": "musketeers", "figures": 24, "chart": "D"}}}"#,
        )
        .unwrap();
        let odds = Combat.odds(&s).unwrap();
        let total: f64 = odds.iter().map(|o| o.probability).sum();
        assert!((total - 1.0).abs() < 1e-9);
        assert!(odds.iter().all(|o| matches!(o.outcome, Outcome::Melee(_))));
        let r = Combat.resolve(&s, &mut volley_chance::Seeded::new(3)).unwrap();
        assert!(r.to_string().contains("test to charge on chart A"), "{r}");
    }

    #[test]
    fn situations_read_from_json() {
        let s: Situation = serde_json::from_str(
            r#"{"volley": {"firer": {"type": "grenadiers", "firing": 16},
                "target": {"type": "hussars", "figures": 12, "figures_per_stand": 2, "formation": "column"}}}"#,
        )
        .unwrap();
        let Situation::Volley(v) = &s else { panic!() };
        assert_eq!(v.dice().unwrap(), (Chart::B, 4, 7));
    }
}
