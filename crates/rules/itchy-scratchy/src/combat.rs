//! Combat as a pure function of a described situation: the weapon and the range give the dice,
//! the target's type and cover give the pattern of dice that hits it, and a throw either shows
//! that pattern or not. The battle derives the situation from the grid and calls this; so do
//! `volley resolve` and `volley odds`.
//!
//! The hit patterns, with the author's answers to Arthur's questions:
//! * a General falls to a treble 1; Artillery and Machine Guns lose an SP to a double 1;
//!   Cavalry and Horse-drawn Transport to a double 2 or 3; Infantry to a double 4, 5 or 6;
//! * in cover, the pattern must come with "any other double" — which may be of the same number,
//!   so 1, 1, 1, 1 hits artillery in cover (four of a kind is the double and another double);
//! * each pattern is looked for in the whole throw: one throw can both take an SP from a unit and
//!   kill the General with it (1, 1, 1, 4, 4, 5 against infantry with a General, in the open or
//!   in cover);
//! * a target loses at most one SP to one attack.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::Chance;
use volley_core::Short;
use volley_core::calc::{CalcError, Calculator, OutcomeProbability, most_likely_first};

/// The ten weapons of the combat table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Weapon {
    /// Rifled heavy artillery.
    RifledHeavyArtillery,
    /// Rifled field artillery.
    RifledFieldArtillery,
    /// Rifled mountain artillery.
    RifledMountainArtillery,
    /// Smooth-bore heavy artillery.
    SmoothboreHeavyArtillery,
    /// Smooth-bore field artillery.
    SmoothboreFieldArtillery,
    /// Smooth-bore mountain artillery.
    SmoothboreMountainArtillery,
    /// Machine guns.
    MachineGuns,
    /// Rifles and carbines.
    RiflesAndCarbines,
    /// Muskets.
    Muskets,
    /// Hand-held weapons (spears, swords: native troops).
    HandHeld,
}

/// Dice thrown by each weapon at range 1, 2, 3 … grid areas (the combat table).
pub const DICE_BY_RANGE: [(Weapon, &[u8]); 10] = [
    (Weapon::RifledHeavyArtillery, &[6, 6, 6, 4, 4, 4, 2, 2, 2]),
    (Weapon::RifledFieldArtillery, &[6, 6, 4, 4, 2, 2]),
    (Weapon::RifledMountainArtillery, &[6, 4, 4, 2, 2]),
    (Weapon::SmoothboreHeavyArtillery, &[6, 6, 4, 4, 2, 2]),
    (Weapon::SmoothboreFieldArtillery, &[6, 4, 4, 2, 2]),
    (Weapon::SmoothboreMountainArtillery, &[4, 4, 2, 2]),
    (Weapon::MachineGuns, &[8, 6, 4, 2]),
    (Weapon::RiflesAndCarbines, &[6, 4, 2]),
    (Weapon::Muskets, &[4, 2]),
    (Weapon::HandHeld, &[4]),
];

/// Extra dice when a General is in the attacker's grid area.
pub const GENERAL_DICE: u8 = 2;

impl Weapon {
    /// Every weapon, in the table's order.
    pub const ALL: [Weapon; 10] = [
        Weapon::RifledHeavyArtillery,
        Weapon::RifledFieldArtillery,
        Weapon::RifledMountainArtillery,
        Weapon::SmoothboreHeavyArtillery,
        Weapon::SmoothboreFieldArtillery,
        Weapon::SmoothboreMountainArtillery,
        Weapon::MachineGuns,
        Weapon::RiflesAndCarbines,
        Weapon::Muskets,
        Weapon::HandHeld,
    ];

    /// The table's row for this weapon.
    pub fn row(self) -> &'static [u8] {
        DICE_BY_RANGE.iter().find(|(w, _)| *w == self).map_or(&[], |(_, r)| r)
    }

    /// The longest range, in grid areas.
    pub fn max_range(self) -> u8 {
        self.row().len() as u8
    }

    /// Dice thrown at `range` grid areas; `None` out of range (range 0 is no range).
    pub fn dice_at(self, range: u8) -> Option<u8> {
        usize::from(range).checked_sub(1).and_then(|i| self.row().get(i).copied())
    }

    /// The weapon's name as the table prints it.
    pub fn name(self) -> &'static str {
        match self {
            Weapon::RifledHeavyArtillery => "rifled heavy artillery",
            Weapon::RifledFieldArtillery => "rifled field artillery",
            Weapon::RifledMountainArtillery => "rifled mountain artillery",
            Weapon::SmoothboreHeavyArtillery => "smooth-bore heavy artillery",
            Weapon::SmoothboreFieldArtillery => "smooth-bore field artillery",
            Weapon::SmoothboreMountainArtillery => "smooth-bore mountain artillery",
            Weapon::MachineGuns => "machine guns",
            Weapon::RiflesAndCarbines => "rifles and carbines",
            Weapon::Muskets => "muskets",
            Weapon::HandHeld => "hand-held weapons",
        }
    }
}

/// What is being shot at, as the result rules group targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// Infantry.
    Infantry,
    /// Cavalry, mounted or dismounted.
    Cavalry,
    /// Machine guns.
    MachineGuns,
    /// Artillery.
    Artillery,
    /// Horse-drawn transport.
    Transport,
    /// A General on his own.
    General,
}

/// A hit pattern: at least `count` dice showing one of `faces`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// The faces that count.
    pub faces: &'static [u8],
    /// How many of one face are needed.
    pub count: u8,
    /// The pattern's name in the result rules.
    pub name: &'static str,
}

impl Pattern {
    /// The pattern's faces as a mask: bit `f - 1` for face `f`.
    pub const fn mask(self) -> u8 {
        let mut m = 0u8;
        let mut i = 0;
        while i < self.faces.len() {
            let f = self.faces[i];
            if f >= 1 && f <= 6 {
                m |= 1 << (f - 1);
            }
            i += 1;
        }
        m
    }
}

/// The pattern that hits a General (a treble 1).
pub const GENERAL_PATTERN: Pattern = Pattern { faces: &[1], count: 3, name: "treble 1" };

impl Target {
    /// Every target.
    pub const ALL: [Target; 6] =
        [Target::Infantry, Target::Cavalry, Target::MachineGuns, Target::Artillery, Target::Transport, Target::General];

    /// The pattern that takes a Strength Point from (or kills) this target.
    pub const fn pattern(self) -> Pattern {
        match self {
            Target::General => GENERAL_PATTERN,
            Target::Artillery | Target::MachineGuns => Pattern { faces: &[1], count: 2, name: "double 1" },
            Target::Cavalry | Target::Transport => Pattern { faces: &[2, 3], count: 2, name: "double 2 or 3" },
            Target::Infantry => Pattern { faces: &[4, 5, 6], count: 2, name: "double 4, 5 or 6" },
        }
    }

    /// This target's pattern as [`Showing`] reads it (its faces spread one to a byte, and its
    /// count), worked out from [`Target::pattern`] when compiling.
    fn needs(self) -> (u64, u8) {
        const NEEDS: [(u64, u8); 6] = {
            let mut t = [(0, 0); 6];
            let mut i = 0;
            while i < Target::ALL.len() {
                let p = Target::ALL[i].pattern();
                t[Target::ALL[i] as usize] = (spread(p.mask()), p.count);
                i += 1;
            }
            t
        };
        NEEDS[self as usize]
    }

    /// The target's name.
    pub fn name(self) -> &'static str {
        match self {
            Target::Infantry => "infantry",
            Target::Cavalry => "cavalry",
            Target::MachineGuns => "machine guns",
            Target::Artillery => "artillery",
            Target::Transport => "horse-drawn transport",
            Target::General => "a General",
        }
    }
}

/// Counts of each face in a throw: `counts[f - 1]` dice show `f`.
pub type Counts = [u8; 6];

/// A one in the low bit of each of the six faces' bytes.
const ONES: u64 = 0x0000_0101_0101_0101;

/// A face mask (bit `f - 1` for face `f`) spread one face to a byte: bit 7 of byte `f - 1`.
const fn spread(mask: u8) -> u64 {
    let mut out = 0u64;
    let mut f = 0;
    while f < 6 {
        if mask & (1 << f) != 0 {
            out |= 0x80 << (8 * f);
        }
        f += 1;
    }
    out
}

/// How many dice of a throw show each face, one face to a byte (byte `f - 1` for face `f`), so
/// that the faces shown at least `k` times are found for all six at once.
///
/// Each byte holds at most 127: dice beyond the 127th of a throw are not counted, and counts are
/// held at 127 (an attack throws at most [`MAX_DICE`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Showing {
    counts: u64,
}

impl Showing {
    /// The showing of a throw with these counts.
    pub fn of_counts(counts: &Counts) -> Self {
        let counts = counts.iter().rev().fold(0u64, |m, &n| (m << 8) | u64::from(n.min(127)));
        Showing { counts }
    }

    /// The showing of these dice (faces 1 to 6; others count as nothing).
    pub fn of_dice(dice: &[u8]) -> Self {
        // A one in the face's byte; nothing for what is not a face. Looked up die by die (the
        // dice were just written one byte at a time: reading them several at once would wait).
        const ONE_OF: [u64; 8] = {
            let mut t = [0u64; 8];
            let mut f = 1;
            while f <= 6 {
                t[f] = 1 << (8 * (f - 1));
                f += 1;
            }
            t
        };
        let mut counts = 0u64;
        for &d in dice.iter().take(127) {
            counts += ONE_OF[usize::from(d.min(7))];
        }
        Showing { counts }
    }

    /// The faces at least `k` dice show, spread: bit 7 of byte `f - 1` for face `f`. Adding
    /// `128 - k` to a count of at most 127 sets its top bit exactly when the count is at least
    /// `k`, and never carries into the next byte.
    fn at_least(&self, k: u8) -> u64 {
        (self.counts + ONES * u64::from(0x80u8.saturating_sub(k))) & (ONES << 7)
    }

    /// Whether the throw shows `pattern` — in cover, with another double besides (which may
    /// be of the same number).
    ///
    /// The pattern shows if a face of it has `count` dice; in cover, another double is either a
    /// second face with two dice (the hit face has at least two, so two faces with a pair are
    /// enough) or two more dice of a hit face.
    pub fn shows(&self, pattern: Pattern, cover: bool) -> bool {
        self.shows_spread(spread(pattern.mask()), pattern.count, cover)
    }

    /// [`Showing::shows`] for a pattern's faces spread one to a byte, and its count; worked out
    /// without a branch, since the dice decide every test.
    #[inline]
    fn shows_spread(&self, faces: u64, count: u8, cover: bool) -> bool {
        let pairs = self.at_least(2);
        let hit = self.at_least(count) & faces != 0;
        let two_pairs = pairs & pairs.wrapping_sub(1) != 0;
        let four = self.at_least(count.saturating_add(2)) & faces != 0;
        hit & (!cover | two_pairs | four)
    }
}

/// Whether a throw with these counts shows `pattern` — in cover, with another double besides
/// (which may be of the same number). See [`Showing::shows`].
pub fn shows(counts: &Counts, pattern: Pattern, cover: bool) -> bool {
    Showing::of_counts(counts).shows(pattern, cover)
}

/// One attack as the umpire describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The attacker's weapon.
    pub weapon: Weapon,
    /// The range in grid areas, counted through edges (1 = the adjacent area).
    #[schemars(example = 2)]
    pub range: u8,
    /// What is attacked.
    pub target: Target,
    /// The target is in cover (woods, a built-up area, a fortification).
    #[serde(default)]
    pub target_in_cover: bool,
    /// A General is in the attacker's grid area (+2 dice).
    #[serde(default)]
    pub general_with_attacker: bool,
    /// A General is in the target's grid area (he falls to a treble 1, in cover with another
    /// double).
    #[serde(default)]
    pub general_with_target: bool,
}

/// One named contribution to the number of dice.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DiceFrom {
    /// Where the dice come from.
    pub rule: String,
    /// How many.
    pub dice: u8,
}

/// The most dice one attack throws that a [`Resolution`] holds (the tables give at most 10).
pub const MAX_DICE: usize = 16;

/// What an attack did, and why. Resolving allocates nothing: where the dice came from and the
/// result lines in words are worked out from the situation when they are asked for (as
/// [`Resolution::dice_from`] and [`Resolution::lines`], and in its JSON and its text).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The situation.
    pub situation: Situation,
    /// The dice thrown, in order.
    thrown: Short<u8, MAX_DICE>,
    /// The outcome.
    pub outcome: Outcome,
}

impl Resolution {
    /// The dice thrown, in order.
    pub fn dice(&self) -> &[u8] {
        &self.thrown
    }

    /// Where the dice came from.
    pub fn dice_from(&self) -> Vec<DiceFrom> {
        self.situation.dice().unwrap_or_default()
    }

    /// The result rules that applied, in words (empty if none did).
    pub fn lines(&self) -> Vec<String> {
        self.situation.judge(&Showing::of_dice(self.dice())).1
    }

    /// Every result rule that could apply, in words: what the throw did, or what it needed
    /// (`needed a double 1 to take 1 SP from artillery in the open`).
    pub fn verdicts(&self) -> Vec<String> {
        self.situation.verdicts(&Showing::of_dice(self.dice()))
    }

    /// The dice thrown and where they come from, in words: `4 dice for rifles and carbines at
    /// range 2` or `6 dice: 4 for rifles and carbines at range 2 + 2 for a General in the
    /// attacker's grid area`.
    pub fn dice_words(&self) -> String {
        let from = self.dice_from();
        let n: u8 = from.iter().map(|d| d.dice).sum();
        match from.as_slice() {
            [one] => format!("{} dice for {}", one.dice, one.rule),
            many => {
                let parts: Vec<String> = many.iter().map(|d| format!("{} for {}", d.dice, d.rule)).collect();
                format!("{n} dice: {}", parts.join(" + "))
            }
        }
    }
}

/// The JSON of a resolution: `situation`, `dice_from`, `dice`, `lines`, `outcome`.
impl Serialize for Resolution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut st = serializer.serialize_struct("Resolution", 5)?;
        st.serialize_field("situation", &self.situation)?;
        st.serialize_field("dice_from", &self.dice_from())?;
        st.serialize_field("dice", self.dice())?;
        st.serialize_field("lines", &self.lines())?;
        st.serialize_field("outcome", &self.outcome)?;
        st.end()
    }
}

/// What an attack comes to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// The target loses one Strength Point (a General on his own: is killed).
    pub target_hit: bool,
    /// The General in the target's area is killed.
    pub general_killed: bool,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.target_hit, self.general_killed) {
            (false, false) => write!(f, "no effect"),
            (true, false) => write!(f, "the target loses 1 SP"),
            (false, true) => write!(f, "the General with the target is killed"),
            (true, true) => write!(f, "the target loses 1 SP and the General with it is killed"),
        }
    }
}

impl Situation {
    /// The dice this attack throws and where they come from, or why it cannot be made.
    pub fn dice(&self) -> Result<Vec<DiceFrom>, CalcError> {
        let Some(base) = self.weapon.dice_at(self.range) else {
            return Err(CalcError::field(
                "range",
                format!(
                    "{} reach 1 to {} grid areas; range {} is out of range",
                    self.weapon.name(),
                    self.weapon.max_range(),
                    self.range
                ),
            ));
        };
        if self.target == Target::General && self.general_with_target {
            return Err(CalcError::field(
                "general_with_target",
                "the target is a General on his own: general_with_target does not apply",
            ));
        }
        let mut from = vec![DiceFrom { rule: format!("{} at range {}", self.weapon.name(), self.range), dice: base }];
        if self.general_with_attacker {
            from.push(DiceFrom { rule: "a General in the attacker's grid area".into(), dice: GENERAL_DICE });
        }
        Ok(from)
    }

    /// How many dice this attack throws, or why it cannot be made (as [`Situation::dice`]
    /// says, without building its list).
    #[inline]
    pub fn dice_count(&self) -> Result<u8, CalcError> {
        match self.weapon.dice_at(self.range) {
            Some(base) if !(self.target == Target::General && self.general_with_target) => {
                Ok(base + if self.general_with_attacker { GENERAL_DICE } else { 0 })
            }
            _ => self.dice_count_refused(),
        }
    }

    /// [`Situation::dice_count`] when [`Situation::dice`] refuses the attack: its reason.
    #[cold]
    fn dice_count_refused(&self) -> Result<u8, CalcError> {
        Ok(self.dice()?.iter().map(|d| d.dice).sum())
    }

    /// The outcome of a throw with these counts.
    pub fn outcome(&self, counts: &Counts) -> Outcome {
        self.outcome_of(&Showing::of_counts(counts))
    }

    /// The outcome of a throw that shows these faces.
    pub fn outcome_of(&self, showing: &Showing) -> Outcome {
        let cover = self.target_in_cover;
        let (faces, count) = self.target.needs();
        let (general, treble) = Target::General.needs();
        Outcome {
            target_hit: showing.shows_spread(faces, count, cover),
            general_killed: self.general_with_target & showing.shows_spread(general, treble, cover),
        }
    }

    /// The outcome of a throw that shows these faces, and the result lines that applied.
    pub fn judge(&self, showing: &Showing) -> (Outcome, Vec<String>) {
        let cover = self.target_in_cover;
        let place = if cover { "in cover, with any other double" } else { "in the open" };
        let mut lines = Vec::new();
        let p = self.target.pattern();
        let Outcome { target_hit, general_killed } = self.outcome_of(showing);
        if target_hit {
            lines.push(if self.target == Target::General {
                format!("{} kills a General {place}", p.name)
            } else {
                format!("{} takes 1 SP from {} {place}", p.name, self.target.name())
            });
        }
        if general_killed {
            lines.push(format!("{} kills the General with the target {place}", GENERAL_PATTERN.name));
        }
        (Outcome { target_hit, general_killed }, lines)
    }

    /// Every result rule that could apply to a throw that shows these faces, in words: the
    /// line that applied, or what it needed.
    pub fn verdicts(&self, showing: &Showing) -> Vec<String> {
        let cover = self.target_in_cover;
        let (place, and) = if cover { ("in cover", " and any other double") } else { ("in the open", "") };
        let p = self.target.pattern();
        let Outcome { target_hit, general_killed } = self.outcome_of(showing);
        let (hits, lines) = self.judge(showing);
        debug_assert_eq!((hits.target_hit, hits.general_killed), (target_hit, general_killed));
        let mut lines = lines.into_iter();
        let mut out = Vec::new();
        if target_hit {
            out.extend(lines.next());
        } else if self.target == Target::General {
            out.push(format!("needed a {}{and} to kill a General {place}", p.name));
        } else {
            out.push(format!("needed a {}{and} to take 1 SP from {} {place}", p.name, self.target.name()));
        }
        if self.general_with_target {
            if general_killed {
                out.extend(lines.next());
            } else {
                out.push(format!("needed a {}{and} to kill the General with the target {place}", GENERAL_PATTERN.name));
            }
        }
        out
    }

    /// The outcome of these dice.
    pub fn resolve_dice(&self, dice: &[u8]) -> Result<Resolution, CalcError> {
        let n = self.dice_count()?;
        if dice.len() != usize::from(n) {
            return Err(CalcError::Invalid(format!("this attack throws {n} dice, {} were given", dice.len())));
        }
        if dice.len() > MAX_DICE {
            return Err(CalcError::Invalid(format!("{n} dice are more than the {MAX_DICE} an attack can throw")));
        }
        if let Some(d) = dice.iter().find(|d| !(1..=6).contains(*d)) {
            return Err(CalcError::Invalid(format!("{d} is not a face of a D6")));
        }
        let mut thrown = Short::default();
        // At most MAX_DICE: checked above.
        thrown.grow(dice.len()).copy_from_slice(dice);
        Ok(Resolution { situation: self.clone(), thrown, outcome: self.outcome_of(&Showing::of_dice(dice)) })
    }
}

/// The most dice the exact odds count (34! is the largest factorial a `u128` holds).
pub const MAX_EXACT_DICE: u8 = 34;

/// `BINOMIALS[n][k]` is `n` choose `k`: the ways to pick which `k` of `n` dice show a face.
static BINOMIALS: [[u128; MAX_EXACT_DICE as usize + 1]; MAX_EXACT_DICE as usize + 1] = {
    let mut b = [[0u128; MAX_EXACT_DICE as usize + 1]; MAX_EXACT_DICE as usize + 1];
    let mut n = 0;
    while n <= MAX_EXACT_DICE as usize {
        b[n][0] = 1;
        let mut k = 1;
        while k <= n {
            b[n][k] = b[n - 1][k - 1] + if k < n { b[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    b
};

/// Visit every composition of `n` dice (at most [`MAX_EXACT_DICE`]) into six faces, with the
/// number of throws (of the `6^n` equally likely ones) that show it.
pub fn each_throw(n: u8, mut visit: impl FnMut(&Counts, u128)) {
    // The ways to throw these counts: which of the dice left show this face, times the ways for
    // the faces after it (a product of binomials: the multinomial coefficient, no division).
    fn go(face: usize, left: u8, counts: &mut Counts, ways: u128, visit: &mut dyn FnMut(&Counts, u128)) {
        if face == 5 {
            counts[5] = left;
            visit(counts, ways);
            return;
        }
        for k in 0..=left {
            counts[face] = k;
            go(face + 1, left - k, counts, ways * BINOMIALS[usize::from(left)][usize::from(k)], visit);
        }
    }
    let mut counts = [0u8; 6];
    go(0, n.min(MAX_EXACT_DICE), &mut counts, 1, &mut visit);
}

/// The exact probability of each outcome of `situation`, most likely first.
pub fn odds(situation: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
    let n = situation.dice_count()?;
    if n > MAX_EXACT_DICE {
        return Err(CalcError::Invalid(format!(
            "{n} dice is more than the calculator counts exactly ({MAX_EXACT_DICE})"
        )));
    }
    let mut ways = [0u128; 4];
    each_throw(n, |counts, w| {
        let o = situation.outcome(counts);
        ways[usize::from(o.target_hit) * 2 + usize::from(o.general_killed)] += w;
    });
    let total = 6u128.pow(u32::from(n));
    let mut out: Vec<OutcomeProbability<Outcome>> = (0..4)
        .filter(|&i| ways[i] > 0)
        .map(|i| OutcomeProbability {
            outcome: Outcome { target_hit: i >= 2, general_killed: i % 2 == 1 },
            probability: ways[i] as f64 / total as f64,
        })
        .collect();
    most_likely_first(&mut out);
    Ok(out)
}

/// The Itchy and Scratchy calculator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combat;

impl Calculator for Combat {
    type Situation = Situation;
    type Resolution = Resolution;
    type Outcome = Outcome;

    fn resolve(&self, situation: &Situation, chance: &mut dyn Chance) -> Result<Resolution, CalcError> {
        let n = situation.dice_count()?;
        if usize::from(n) > MAX_DICE {
            return Err(CalcError::Invalid(format!("{n} dice are more than the {MAX_DICE} an attack can throw")));
        }
        let mut thrown = Short::<u8, MAX_DICE>::default();
        // At most MAX_DICE: checked above.
        let dice = thrown.grow(usize::from(n));
        chance.dice(6, dice, &|i, f| {
            write!(f, "die {} of {n} for {} at range {}", i + 1, situation.weapon.name(), situation.range)
        })?;
        let outcome = situation.outcome_of(&Showing::of_dice(dice));
        Ok(Resolution { situation: situation.clone(), thrown, outcome })
    }

    fn odds(&self, situation: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
        odds(situation)
    }
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = &self.situation;
        write!(f, "{} at range {} against {}", s.weapon.name(), s.range, s.target.name())?;
        if s.target_in_cover {
            write!(f, " in cover")?;
        }
        if s.general_with_target {
            write!(f, " (with a General)")?;
        }
        writeln!(f)?;
        writeln!(f, "  dice: {}", self.dice_words())?;
        let shown: Vec<String> = self.dice().iter().map(u8::to_string).collect();
        writeln!(f, "  thrown: {}", shown.join(" "))?;
        for l in self.verdicts() {
            writeln!(f, "  {l}")?;
        }
        write!(f, "  result: {}", self.outcome)
    }
}

/// The chance that an attack of `dice` dice hits a `target` (in cover or not), and that it
/// kills a General standing with the target, from a table worked out once by [`odds`]' method.
/// For computer players, which ask this for every candidate attack.
pub fn hit_chances(dice: u8, target: Target, cover: bool, general_with_target: bool) -> (f64, f64) {
    const MAX: usize = 16;
    const TARGETS: [Target; 6] =
        [Target::Infantry, Target::Cavalry, Target::MachineGuns, Target::Artillery, Target::Transport, Target::General];
    static TABLE: std::sync::OnceLock<Vec<(f64, f64)>> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = Vec::with_capacity(MAX * TARGETS.len() * 2);
        for n in 0..MAX as u8 {
            for target in TARGETS {
                for cover in [false, true] {
                    let s = Situation {
                        weapon: Weapon::HandHeld,
                        range: 1,
                        target,
                        target_in_cover: cover,
                        general_with_attacker: false,
                        general_with_target: target != Target::General,
                    };
                    let (mut hit, mut general) = (0u128, 0u128);
                    each_throw(n, |c, w| {
                        let o = s.outcome(c);
                        hit += if o.target_hit { w } else { 0 };
                        general += if o.general_killed { w } else { 0 };
                    });
                    let total = 6u128.pow(u32::from(n)) as f64;
                    t.push((hit as f64 / total, general as f64 / total));
                }
            }
        }
        t
    });
    let ti = TARGETS.iter().position(|&t| t == target).unwrap_or(0);
    let (h, g) = table[(usize::from(dice).min(MAX - 1) * TARGETS.len() + ti) * 2 + usize::from(cover)];
    (h, if general_with_target { g } else { 0.0 })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn situation(target: Target, cover: bool, general: bool) -> Situation {
        Situation {
            weapon: Weapon::RiflesAndCarbines,
            range: 1,
            target,
            target_in_cover: cover,
            general_with_attacker: false,
            general_with_target: general,
        }
    }

    /// The rule read face by face: a face of the pattern with `count` dice; in cover, with those
    /// set aside, any face (that one included) with two left.
    fn shows_face_by_face(counts: &Counts, pattern: Pattern, cover: bool) -> bool {
        pattern.faces.iter().any(|&h| {
            let n = counts[usize::from(h) - 1];
            n >= pattern.count
                && (!cover
                    || (1..=6u8).any(|f| {
                        let left = if f == h { n - pattern.count } else { counts[usize::from(f) - 1] };
                        left >= 2
                    }))
        })
    }

    #[test]
    fn each_target_is_judged_by_its_own_pattern() {
        for t in Target::ALL {
            let p = t.pattern();
            assert_eq!(t.needs(), (spread(p.mask()), p.count), "{}", t.name());
        }
    }

    #[test]
    fn what_is_not_a_face_counts_as_nothing_and_long_throws_do_not_spill() {
        // Values that are not faces of a D6 add to no face.
        assert_eq!(Showing::of_dice(&[0, 7, 9, 255, 4, 4]), Showing::of_counts(&[0, 0, 0, 2, 0, 0]));
        // 200 ones: counted up to 127, held there, and never carried into the twos.
        let ones = Showing::of_dice(&[1; 200]);
        assert_eq!(ones, Showing::of_counts(&[127, 0, 0, 0, 0, 0]));
        assert_eq!(Showing::of_counts(&[200, 0, 0, 0, 0, 0]), ones);
        assert!(ones.shows(GENERAL_PATTERN, true));
        assert!(!ones.shows(Target::Cavalry.pattern(), false));
        assert!(!ones.shows(Target::Infantry.pattern(), false));
    }

    #[test]
    fn the_face_counts_agree_with_the_rule_read_face_by_face_for_every_throw_up_to_twelve_dice() {
        let patterns =
            [GENERAL_PATTERN, Target::Infantry.pattern(), Target::Cavalry.pattern(), Target::Artillery.pattern()];
        let mut seen = 0;
        let mut hits = 0;
        for n in 0..=12 {
            each_throw(n, |c, _| {
                // The dice of this composition, highest face first (not sorted low to high).
                let dice: Vec<u8> =
                    (1..=6u8).rev().flat_map(|f| std::iter::repeat_n(f, usize::from(c[usize::from(f) - 1]))).collect();
                for p in patterns {
                    for cover in [false, true] {
                        let expected = shows_face_by_face(c, p, cover);
                        assert_eq!(Showing::of_dice(&dice), Showing::of_counts(c), "{dice:?}");
                        assert_eq!(shows(c, p, cover), expected, "{c:?} {} cover {cover}", p.name);
                        seen += 1;
                        hits += usize::from(expected);
                    }
                }
            });
        }
        // Both answers occur often: the comparison is not of all-false or all-true.
        assert!(hits > 1000 && seen - hits > 1000, "{hits} of {seen}");
    }

    #[test]
    fn the_table_gives_the_dice_by_weapon_and_range() {
        assert_eq!(Weapon::RifledHeavyArtillery.dice_at(9), Some(2));
        assert_eq!(Weapon::RifledHeavyArtillery.dice_at(10), None);
        assert_eq!(Weapon::MachineGuns.dice_at(1), Some(8));
        assert_eq!(Weapon::HandHeld.dice_at(1), Some(4));
        assert_eq!(Weapon::HandHeld.dice_at(2), None);
        assert_eq!(Weapon::Muskets.dice_at(0), None);
        let total: usize = Weapon::ALL.iter().map(|w| w.row().len()).sum();
        assert_eq!(total, 9 + 6 + 5 + 6 + 5 + 4 + 4 + 3 + 2 + 1);
    }

    #[test]
    fn a_general_with_the_attacker_adds_two_dice() {
        let mut s = situation(Target::Infantry, false, false);
        s.general_with_attacker = true;
        let n = s.dice_count().unwrap();
        assert_eq!(n, 8);
    }

    #[test]
    fn authors_answer_1_any_other_double_may_be_the_same_number() {
        let art = situation(Target::Artillery, true, false);
        assert!(art.judge(&Showing::of_dice(&[1, 1, 1, 1])).0.target_hit);
        assert!(art.judge(&Showing::of_dice(&[1, 1, 2, 2])).0.target_hit);
        assert!(art.judge(&Showing::of_dice(&[1, 1, 3, 3])).0.target_hit);
        assert!(
            !art.judge(&Showing::of_dice(&[1, 1, 1, 2])).0.target_hit,
            "a treble is not a double and another double"
        );
        assert!(!art.judge(&Showing::of_dice(&[1, 1, 2, 3])).0.target_hit);
    }

    #[test]
    fn authors_answer_2_infantry_and_general_both_hit_in_the_open() {
        let s = situation(Target::Infantry, false, true);
        let (o, lines) = s.judge(&Showing::of_dice(&[1, 1, 1, 4, 4, 5]));
        assert_eq!(o, Outcome { target_hit: true, general_killed: true });
        assert_eq!(lines.len(), 2);
    }

    #[test]
    fn authors_answer_3_infantry_and_general_both_hit_in_cover() {
        let s = situation(Target::Infantry, true, true);
        assert_eq!(
            s.judge(&Showing::of_dice(&[1, 1, 1, 4, 4, 5])).0,
            Outcome { target_hit: true, general_killed: true }
        );
    }

    #[test]
    fn each_target_has_its_own_double() {
        let open = |t: Target, dice: &[u8]| situation(t, false, false).judge(&Showing::of_dice(dice)).0.target_hit;
        assert!(open(Target::Cavalry, &[2, 2, 5]));
        assert!(open(Target::Transport, &[3, 3, 1]));
        assert!(!open(Target::Cavalry, &[1, 1, 4, 4]));
        assert!(open(Target::Infantry, &[6, 6]));
        assert!(!open(Target::Infantry, &[1, 1, 2, 2, 3, 3]));
        assert!(open(Target::MachineGuns, &[1, 1]));
        assert!(open(Target::General, &[1, 1, 1]));
        assert!(!open(Target::General, &[1, 1, 6, 6]));
        let cover = |t: Target, dice: &[u8]| situation(t, true, false).judge(&Showing::of_dice(dice)).0.target_hit;
        assert!(!cover(Target::Infantry, &[4, 4, 1, 2]));
        assert!(cover(Target::Infantry, &[4, 4, 5, 5]));
        assert!(cover(Target::General, &[1, 1, 1, 1, 1]), "a treble 1 and a double 1 besides");
        assert!(!cover(Target::General, &[1, 1, 1, 1]));
    }

    #[test]
    fn odds_sum_to_one_and_match_a_known_case() {
        // Two dice against artillery in the open: a double 1 is 1 in 36.
        let s = Situation { weapon: Weapon::Muskets, range: 2, ..situation(Target::Artillery, false, false) };
        let o = odds(&s).unwrap();
        let hit = o.iter().find(|x| x.outcome.target_hit).unwrap().probability;
        assert!((hit - 1.0 / 36.0).abs() < 1e-15);
        assert!((o.iter().map(|x| x.probability).sum::<f64>() - 1.0).abs() < 1e-12);
    }

    #[test]
    fn out_of_range_and_bad_dice_are_refused() {
        let s = Situation { weapon: Weapon::Muskets, range: 3, ..situation(Target::Infantry, false, false) };
        assert!(s.dice().unwrap_err().to_string().contains("out of range"));
        let s = situation(Target::Infantry, false, false);
        assert!(s.resolve_dice(&[1, 2]).is_err());
        assert!(s.resolve_dice(&[1, 2, 7, 4, 4, 4]).is_err());
    }
}
