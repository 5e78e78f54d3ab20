//! The umpire's calculator for Blown Away: one combat described by the two units' state, resolved
//! with its cards (or, without chance, worked out), and the exact odds of every outcome over the
//! cards left in both decks.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::{CARD_VALUES, Chance, Deck, card_name};
use volley_core::calc::{CalcError, Calculator, OutcomeProbability, add_outcome, most_likely_first};
use volley_table::Cover;

use crate::combat::{Attacker, CardResult, CardSide, Loss, Quarter, Target, attack_effect, resolve_cards};
use crate::model::{Arm, Variant};

/// One unit in a combat, as the umpire describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CombatUnit {
    /// Infantry, cavalry or artillery.
    pub arm: Arm,
    /// Men in ranks now (caps how many can run; cavalry's runs without chance; cavalry's
    /// weakness). Unset: no cap, and enough to stand.
    #[serde(default)]
    pub men_in_ranks: Option<u16>,
    /// Its men killed so far in this engagement (the run count grows with them).
    #[serde(default)]
    pub killed_so_far: u16,
    /// Pikemen and guardsmen in ranks.
    #[serde(default)]
    pub pikes_or_guards: u16,
    /// A militia unit.
    #[serde(default)]
    pub militia: bool,
    /// Where this unit stands in relation to the other: in its front (default), on its flank,
    /// or in its rear. Only the attacker's counts (the unit conducting the combat): a
    /// defender's must be its front.
    #[serde(default)]
    pub quarter: Quarter,
    /// Its cover against the other unit: open, soft (woods), wall, or works (redoubt, trench).
    #[serde(default = "open")]
    pub cover: Cover,
    /// It faces the other unit (without chance: only a unit in front fights back, and cavalry
    /// runs from steady men facing it). Default: yes.
    #[serde(default = "yes")]
    pub faces_the_other: bool,
    /// The cards left in its side's deck, Ace first (chance version). Unset: a full deck.
    #[serde(default)]
    pub deck: Option<[u8; CARD_VALUES]>,
}

fn open() -> Cover {
    Cover::Open
}

fn yes() -> bool {
    true
}

/// A Blown Away combat: the unit conducting it and the unit it fights.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// Which version of the rules.
    pub variant: Variant,
    /// The unit conducting the combat.
    pub attacker: CombatUnit,
    /// The unit it fights.
    pub defender: CombatUnit,
}

/// Who won a card combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Winner {
    /// The attacker's card was higher.
    Attacker,
    /// The defender's card was higher.
    Defender,
    /// Equal cards: both win.
    Both,
    /// Without chance there is no contest: the attack simply takes effect.
    NoContest,
}

/// Men put out of action on one side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Losses {
    /// Killed.
    pub killed: u16,
    /// Made to run (at most the men left in ranks, when known).
    pub run: u16,
}

/// What a combat comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// Who won.
    pub winner: Winner,
    /// The attacker's losses.
    pub attacker: Losses,
    /// The defender's losses.
    pub defender: Losses,
    /// Without chance: cavalry's weakness made the attacking cavalry's remaining men run (they
    /// are counted in `attacker.run`).
    pub cavalry_weakness: bool,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let side = |l: Losses| format!("{} killed, {} run", l.killed, l.run);
        match self.winner {
            Winner::Attacker => write!(f, "attacker wins: defender {}", side(self.defender)),
            Winner::Defender => write!(f, "defender wins: attacker {}", side(self.attacker)),
            Winner::Both => {
                write!(f, "both win: attacker {}; defender {}", side(self.attacker), side(self.defender))
            }
            Winner::NoContest => {
                write!(f, "defender {}", side(self.defender))?;
                if self.cavalry_weakness {
                    write!(f, "; cavalry's weakness: {} cavalrymen run", self.attacker.run)?;
                }
                Ok(())
            }
        }
    }
}

/// A resolved combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "variant", rename_all = "kebab-case")]
pub enum Resolution {
    /// A card combat.
    Chance {
        /// The cards, totals, winner and each side's losses with every modifier.
        cards: CardResult,
        /// What it comes to, runs capped by the men in ranks.
        outcome: Outcome,
    },
    /// An attack without chance.
    WithoutChance {
        /// The defender's losses with every modifier.
        loss: Loss,
        /// What it comes to.
        outcome: Outcome,
    },
}

impl CombatUnit {
    fn behind_works(&self) -> bool {
        matches!(self.cover, Cover::Wall | Cover::Works)
    }

    fn card_side(&self) -> CardSide {
        CardSide {
            arm: Some(self.arm),
            behind_works: self.behind_works(),
            quarter: self.quarter,
            killed_before: self.killed_so_far,
            pikes_or_guards: self.pikes_or_guards,
            militia: self.militia,
        }
    }

    fn deck(&self) -> Result<Deck, CalcError> {
        match self.deck {
            None => Ok(Deck::new()),
            Some(counts) => Deck::with_counts(counts).ok_or_else(|| {
                CalcError::field("deck", "a deck holds 0 to 4 cards of each value and at least one card")
            }),
        }
    }

    fn capped(&self, l: Option<&Loss>) -> Losses {
        l.map_or(Losses::default(), |l| {
            let ranks = self.men_in_ranks.unwrap_or(u16::MAX);
            let killed = l.killed.min(ranks);
            Losses { killed, run: l.run.min(ranks - killed) }
        })
    }
}

/// The most men a unit in the calculator may have in ranks or have lost in one engagement.
pub const MAX_MEN: u16 = 10_000;

impl Situation {
    fn check(&self) -> Result<(), CalcError> {
        let invalid = |m: String| Err(CalcError::Invalid(m));
        for (who, u) in [("attacker", &self.attacker), ("defender", &self.defender)] {
            if u.men_in_ranks == Some(0) {
                return Err(CalcError::field(
                    format!("{who}.men_in_ranks"),
                    format!("the {who} has no men in ranks: it cannot fight"),
                ));
            }
            if let Some(n) = u.men_in_ranks.filter(|&n| n > MAX_MEN) {
                return Err(CalcError::field(
                    format!("{who}.men_in_ranks"),
                    format!("{n} men in ranks: at most {MAX_MEN}"),
                ));
            }
            if u.killed_so_far > MAX_MEN {
                return Err(CalcError::field(
                    format!("{who}.killed_so_far"),
                    format!("{} men killed so far: at most {MAX_MEN}", u.killed_so_far),
                ));
            }
            if let Some(n) = u.men_in_ranks.filter(|&n| u.pikes_or_guards > n) {
                return Err(CalcError::field(
                    format!("{who}.pikes_or_guards"),
                    format!("{} pikemen or guardsmen, more than its {n} men in ranks", u.pikes_or_guards),
                ));
            }
            if u.pikes_or_guards > MAX_MEN {
                return Err(CalcError::field(
                    format!("{who}.pikes_or_guards"),
                    format!("{} pikemen or guardsmen: at most {MAX_MEN}", u.pikes_or_guards),
                ));
            }
            if u.pikes_or_guards > 0 && u.arm != Arm::Infantry {
                return Err(CalcError::field(
                    format!("{who}.pikes_or_guards"),
                    "only infantry have pikemen or guardsmen",
                ));
            }
            if u.militia && u.arm != Arm::Infantry {
                return Err(CalcError::field(format!("{who}.militia"), "only infantry units are militia"));
            }
        }
        if self.defender.quarter != Quarter::Front {
            return Err(CalcError::field(
                "defender.quarter",
                "only the unit conducting the combat (the attacker) wins on the flank or rear; the defender's quarter is its front",
            ));
        }
        if self.variant == Variant::WithoutChance
            && self.attacker.arm == Arm::Cavalry
            && self.attacker.men_in_ranks.is_none()
        {
            return invalid(
                "without chance, attacking cavalry make as many men run as they have in ranks: give attacker.men_in_ranks"
                    .into(),
            );
        }
        if self.attacker.arm == Arm::Cavalry && (self.defender.behind_works() || self.defender.cover == Cover::Soft) {
            return Err(CalcError::Invalid(
                "cavalry may not fight a unit behind a redoubt or a wall, in a trench, or in woods".into(),
            ));
        }
        if self.variant == Variant::WithoutChance && !self.attacker.faces_the_other {
            return Err(CalcError::Invalid("without chance, a unit fights only an enemy in front of it".into()));
        }
        Ok(())
    }

    /// The result of a card combat with these cards.
    pub fn with_cards(&self, cards: [u8; 2]) -> Resolution {
        let r = resolve_cards(&[self.attacker.card_side(), self.defender.card_side()], cards);
        let winner = match r.winner {
            Some(0) => Winner::Attacker,
            Some(_) => Winner::Defender,
            None => Winner::Both,
        };
        let outcome = Outcome {
            winner,
            attacker: self.attacker.capped(r.losses[0].as_ref()),
            defender: self.defender.capped(r.losses[1].as_ref()),
            cavalry_weakness: false,
        };
        Resolution::Chance { cards: r, outcome }
    }

    /// The result of an attack without chance.
    pub fn without_chance(&self) -> Resolution {
        let (a, d) = (&self.attacker, &self.defender);
        let attacker = Attacker { arm: Some(a.arm), quarter: a.quarter, in_ranks: a.men_in_ranks.unwrap_or(0) };
        let target = Target {
            cover: d.cover,
            killed_before: d.killed_so_far,
            pikes_or_guards: d.pikes_or_guards,
            militia: d.militia,
        };
        let loss = attack_effect(&attacker, &target);
        let defender = d.capped(Some(&loss));
        // Cavalry's weakness: men in ranks left in the target, facing the cavalry.
        let left = d.men_in_ranks.map_or(1, |r| r - defender.killed - defender.run);
        let weakness = a.arm == Arm::Cavalry && left > 0 && d.faces_the_other;
        let attacker = Losses { killed: 0, run: if weakness { attacker.in_ranks } else { 0 } };
        let outcome = Outcome { winner: Winner::NoContest, attacker, defender, cavalry_weakness: weakness };
        Resolution::WithoutChance { loss, outcome }
    }
}

impl Resolution {
    /// What the combat came to.
    pub fn outcome(&self) -> Outcome {
        match self {
            Resolution::Chance { outcome, .. } | Resolution::WithoutChance { outcome, .. } => *outcome,
        }
    }
}

/// The Blown Away calculator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combat;

impl Calculator for Combat {
    type Situation = Situation;
    type Resolution = Resolution;
    type Outcome = Outcome;

    fn resolve(&self, s: &Situation, chance: &mut dyn Chance) -> Result<Resolution, CalcError> {
        s.check()?;
        match s.variant {
            Variant::WithoutChance => Ok(s.without_chance()),
            Variant::Chance => {
                let ca = s.attacker.deck()?.peek(chance, &"the attacker's card")?;
                let cd = s.defender.deck()?.peek(chance, &"the defender's card")?;
                Ok(s.with_cards([ca, cd]))
            }
        }
    }

    fn odds(&self, s: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
        s.check()?;
        let mut out: Vec<OutcomeProbability<Outcome>> = Vec::new();
        match s.variant {
            Variant::WithoutChance => {
                out.push(OutcomeProbability { outcome: s.without_chance().outcome(), probability: 1.0 })
            }
            Variant::Chance => {
                let (da, dd) = (s.attacker.deck()?, s.defender.deck()?);
                let total = f64::from(da.left()) * f64::from(dd.left());
                for (cards, ways) in da.pairs_with(dd) {
                    add_outcome(&mut out, s.with_cards(cards).outcome(), f64::from(ways) / total);
                }
            }
        }
        most_likely_first(&mut out);
        Ok(out)
    }
}

fn loss_line(f: &mut fmt::Formatter<'_>, who: &str, l: &Loss) -> fmt::Result {
    writeln!(f, "  {who}: {} killed, {} to run", l.killed, l.run)?;
    for m in &l.explanation {
        writeln!(f, "    {:+} {}", m.value, m.rule)?;
    }
    Ok(())
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Resolution::Chance { cards, outcome } => {
                for (i, who) in ["attacker", "defender"].iter().enumerate() {
                    write!(f, "  {who}'s card: {}", card_name(cards.cards[i]))?;
                    for m in &cards.additions[i] {
                        write!(f, " {:+} ({})", m.value, m.rule)?;
                    }
                    writeln!(f, " = {}", cards.totals[i])?;
                }
                writeln!(
                    f,
                    "  {}",
                    match cards.winner {
                        Some(0) => "the attacker's total is higher: the attacker wins",
                        Some(_) => "the defender's total is higher: the defender wins",
                        None => "equal totals: both win",
                    }
                )?;
                for (i, who) in ["attacker", "defender"].iter().enumerate() {
                    if let Some(l) = &cards.losses[i] {
                        loss_line(f, who, l)?;
                    }
                }
                write!(f, "  result: {outcome}")
            }
            Resolution::WithoutChance { loss, outcome } => {
                loss_line(f, "defender", loss)?;
                write!(f, "  result: {outcome}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(arm: Arm) -> CombatUnit {
        CombatUnit {
            arm,
            men_in_ranks: None,
            killed_so_far: 0,
            pikes_or_guards: 0,
            militia: false,
            quarter: Quarter::Front,
            cover: Cover::Open,
            faces_the_other: true,
            deck: None,
        }
    }

    #[test]
    fn full_decks_make_a_fair_fight_between_equals() {
        let s = Situation { variant: Variant::Chance, attacker: unit(Arm::Infantry), defender: unit(Arm::Infantry) };
        let o = Combat.odds(&s).unwrap();
        let p = |w: Winner| o.iter().filter(|x| x.outcome.winner == w).map(|x| x.probability).sum::<f64>();
        // Equal cards: 13 values, 4 of each in both decks: 1/13.
        assert!((p(Winner::Both) - 1.0 / 13.0).abs() < 1e-12);
        assert!((p(Winner::Attacker) - p(Winner::Defender)).abs() < 1e-12);
        assert!((o.iter().map(|x| x.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn known_cards_left_change_the_odds() {
        // The attacker's deck holds only kings: it wins unless the defender turns up a king too.
        let mut a = unit(Arm::Infantry);
        a.deck = Some([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4]);
        let s = Situation { variant: Variant::Chance, attacker: a, defender: unit(Arm::Infantry) };
        let o = Combat.odds(&s).unwrap();
        let win: f64 = o.iter().filter(|x| x.outcome.winner == Winner::Attacker).map(|x| x.probability).sum();
        assert!((win - 48.0 / 52.0).abs() < 1e-12);
    }

    #[test]
    fn without_chance_the_worked_example_comes_out() {
        // 10 cavalry against 13 infantry: the infantry lose 1 killed and 10 run; 2 stay in ranks
        // facing the cavalry, so all 10 cavalrymen run (the cavalry's own casualty is the
        // infantry's attack, a separate combat).
        let mut cav = unit(Arm::Cavalry);
        cav.men_in_ranks = Some(10);
        let mut inf = unit(Arm::Infantry);
        inf.men_in_ranks = Some(13);
        let s = Situation { variant: Variant::WithoutChance, attacker: cav, defender: inf };
        let o = Combat.odds(&s).unwrap();
        assert_eq!(o.len(), 1);
        let o = o[0].outcome;
        assert_eq!(o.defender, Losses { killed: 1, run: 10 });
        assert!(o.cavalry_weakness);
        assert_eq!(o.attacker.run, 10);
    }

    #[test]
    fn odds_equal_brute_force_over_every_pair_of_cards() {
        // Card by card, every one of the 52 x 52 (or fewer) pairs of physical cards, against
        // the odds worked out over the counts of each value.
        let mut a = unit(Arm::Artillery);
        a.deck = Some([4, 3, 4, 4, 2, 4, 4, 4, 4, 1, 4, 4, 0]);
        a.cover = Cover::Works;
        let mut d = unit(Arm::Infantry);
        d.killed_so_far = 3;
        d.pikes_or_guards = 2;
        d.men_in_ranks = Some(6);
        let s = Situation { variant: Variant::Chance, attacker: a, defender: d };
        let cards = |counts: [u8; 13]| -> Vec<u8> {
            (1..=13u8).flat_map(|v| std::iter::repeat_n(v, usize::from(counts[usize::from(v) - 1]))).collect()
        };
        let (ca, cd) = (cards(s.attacker.deck.unwrap()), cards([4; 13]));
        let mut tally: Vec<(Outcome, u32)> = Vec::new();
        for &x in &ca {
            for &y in &cd {
                let o = s.with_cards([x, y]).outcome();
                match tally.iter_mut().find(|t| t.0 == o) {
                    Some(t) => t.1 += 1,
                    None => tally.push((o, 1)),
                }
            }
        }
        let total = (ca.len() * cd.len()) as f64;
        let exact = Combat.odds(&s).unwrap();
        assert_eq!(exact.len(), tally.len());
        for (o, n) in tally {
            let p = exact.iter().find(|e| e.outcome == o).unwrap().probability;
            assert!((p - f64::from(n) / total).abs() < 1e-12, "{o:?}");
        }
    }

    #[test]
    fn resolving_many_times_agrees_with_the_odds() {
        let s = Situation { variant: Variant::Chance, attacker: unit(Arm::Cavalry), defender: unit(Arm::Infantry) };
        let exact = Combat.odds(&s).unwrap();
        let mut rng = volley_chance::Seeded::new(77);
        let runs = 30_000u32;
        let mut seen: Vec<(Outcome, u32)> = Vec::new();
        for _ in 0..runs {
            let o = Combat.resolve(&s, &mut rng).unwrap().outcome();
            match seen.iter_mut().find(|t| t.0 == o) {
                Some(t) => t.1 += 1,
                None => seen.push((o, 1)),
            }
        }
        for e in &exact {
            let n = seen.iter().find(|t| t.0 == e.outcome).map_or(0, |t| t.1);
            let freq = f64::from(n) / f64::from(runs);
            let se = (e.probability * (1.0 - e.probability) / f64::from(runs)).sqrt();
            assert!((freq - e.probability).abs() < 5.0 * se + 1e-9, "{:?}: {freq} vs {}", e.outcome, e.probability);
        }
    }

    #[test]
    fn impossible_situations_are_refused() {
        let mut works = unit(Arm::Infantry);
        works.cover = Cover::Works;
        let s = Situation { variant: Variant::Chance, attacker: unit(Arm::Cavalry), defender: works };
        assert!(Combat.odds(&s).unwrap_err().to_string().contains("cavalry may not"));
        let mut bad = unit(Arm::Infantry);
        bad.deck = Some([5; 13]);
        let s = Situation { variant: Variant::Chance, attacker: bad, defender: unit(Arm::Infantry) };
        assert!(Combat.odds(&s).is_err());
    }

    fn refused(variant: Variant, attacker: CombatUnit, defender: CombatUnit) -> String {
        Combat.odds(&Situation { variant, attacker, defender }).unwrap_err().to_string()
    }

    #[test]
    fn out_of_range_counts_are_refused_not_wrapped() {
        // 65 535 men killed so far would make 65 536 run, which does not fit: refused.
        let mut d = unit(Arm::Infantry);
        d.killed_so_far = u16::MAX;
        let why = refused(Variant::Chance, unit(Arm::Infantry), d);
        assert!(why.contains("defender.killed_so_far: 65535 men killed so far"), "{why}");
        // Pikemen above the men in ranks.
        let mut d = unit(Arm::Infantry);
        d.men_in_ranks = Some(3);
        d.pikes_or_guards = 5;
        let why = refused(Variant::Chance, unit(Arm::Infantry), d);
        assert!(why.contains("pikes_or_guards: 5 pikemen or guardsmen, more than its 3 men in ranks"), "{why}");
        // Pikemen in a cavalry unit.
        let mut c = unit(Arm::Cavalry);
        c.pikes_or_guards = 1;
        assert!(refused(Variant::Chance, c, unit(Arm::Infantry)).contains("only infantry"));
        // Without chance, attacking cavalry need their count of men: it is the runners.
        let why = refused(Variant::WithoutChance, unit(Arm::Cavalry), unit(Arm::Infantry));
        assert!(why.contains("attacker.men_in_ranks"), "{why}");
        // Only the unit conducting the combat wins on the flank or rear: a defender's quarter
        // is refused, named.
        let mut flanker = unit(Arm::Infantry);
        flanker.quarter = Quarter::Flank;
        let why = refused(Variant::Chance, unit(Arm::Infantry), flanker);
        assert!(why.contains("defender.quarter") && why.contains("only the unit conducting the combat"), "{why}");
        // At the limit, the counts work out.
        let mut d = unit(Arm::Infantry);
        d.killed_so_far = MAX_MEN;
        let s = Situation { variant: Variant::Chance, attacker: unit(Arm::Infantry), defender: d };
        assert_eq!(s.with_cards([9, 1]).outcome().defender.run, MAX_MEN + 1);
    }

    #[test]
    fn the_quarter_decides_the_extra_runners() {
        // Without chance: artillery on the flank kills 2 and makes 10 run; in the rear 1 and 6;
        // infantry in the rear has its +4.
        let mut gun = unit(Arm::Artillery);
        let flank = |gun: &CombatUnit| {
            let s = Situation { variant: Variant::WithoutChance, attacker: gun.clone(), defender: unit(Arm::Infantry) };
            s.without_chance().outcome().defender
        };
        gun.quarter = Quarter::Flank;
        assert_eq!(flank(&gun), Losses { killed: 2, run: 10 });
        gun.quarter = Quarter::Rear;
        assert_eq!(flank(&gun), Losses { killed: 1, run: 6 });
        let mut inf = unit(Arm::Infantry);
        inf.quarter = Quarter::Rear;
        assert_eq!(flank(&inf), Losses { killed: 1, run: 5 });
    }
}
