//! The One Step: a close combat as one pure function of the situation — the additions to each
//! side's d10, the difference, the results-table band each side reads, and the casualty tests the
//! bands call for — with the guns' close-range fire first when a battery is attacked. The
//! casualty test, the pursuit test and the bombardment are pure functions too.
//!
//! How the scan is read (see `docs/rules/old-fritz.md` for the reasons):
//! * "Take a casualty test" means the unit *suffers* a test thrown by its enemy: 1d10 per 6 of the
//!   enemy's figures, with the enemy's quality in the column of the enemy's own state
//!   (withdrawing, routing, standing), −2 per green counter on the enemy, −2 if the unit is in
//!   cover. The additions are made once per battalion's throw, not per die.
//! * Each side reads its own score (its total less the enemy's) in its own column.

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawKind};
use volley_core::Short;
use volley_core::calc::{CalcError, Calculator, OutcomeProbability, add_outcome, most_likely_first};

/// Troop quality, A (superlative) to G (poorly trained and ill disciplined).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub enum Quality {
    /// Superlative troops of the highest calibre.
    A,
    /// Elite units, usually guard.
    B,
    /// Good or very experienced line units.
    C,
    /// Standard well-trained units.
    D,
    /// Trained and disciplined but of low quality.
    E,
    /// Poorly trained or ill disciplined.
    F,
    /// Poorly trained and ill disciplined (Freikorps).
    G,
}

impl Quality {
    fn grade(self) -> i32 {
        self as i32
    }

    /// The grade's letter, as the text writes it.
    pub fn letter(self) -> &'static str {
        match self {
            Quality::A => "A",
            Quality::B => "B",
            Quality::C => "C",
            Quality::D => "D",
            Quality::E => "E",
            Quality::F => "F",
            Quality::G => "G",
        }
    }

    /// The row of the casualty test's additions: A, B, C/D, E/F, G.
    fn casualty_row(self) -> usize {
        match self {
            Quality::A => 0,
            Quality::B => 1,
            Quality::C | Quality::D => 2,
            Quality::E | Quality::F => 3,
            Quality::G => 4,
        }
    }
}

/// The kinds of cavalry, which differ in speed, weight and their additions against infantry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Cavalry {
    /// Hussars (light).
    Hussars,
    /// Light dragoons (light).
    LightDragoons,
    /// Dragoons.
    Dragoons,
    /// Cuirassiers (heavy).
    Cuirassiers,
    /// Gensdarmes (heavy).
    Gensdarmes,
}

impl Cavalry {
    /// Weight: 0 light, 1 dragoons, 2 heavy.
    pub fn weight(self) -> u8 {
        match self {
            Cavalry::Hussars | Cavalry::LightDragoons => 0,
            Cavalry::Dragoons => 1,
            Cavalry::Cuirassiers | Cavalry::Gensdarmes => 2,
        }
    }

    /// The addition against infantry.
    pub fn against_infantry(self) -> i32 {
        if self.weight() == 0 { HUSSARS_VS_INFANTRY } else { DRAGOONS_VS_INFANTRY }
    }
}

/// What a unit is, for the results tables (artillery fights as infantry once its guns have
/// fired).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Infantry (line, grenadiers, Grenz and Croats).
    Infantry,
    /// Cavalry.
    Cavalry,
    /// A battery of guns.
    Artillery,
}

/// A battery's guns, which fire first at close range when the battery is attacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Guns {
    /// Heavy guns (2 points) rather than medium (1 point).
    #[serde(default)]
    pub heavy: bool,
    /// Gunners lost so far.
    #[serde(default)]
    pub gunners_lost: u8,
}

/// One side of a close combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Unit {
    /// Infantry, cavalry or artillery.
    pub arm: Arm,
    /// The kind of cavalry (cavalry only).
    #[serde(default)]
    pub cavalry: Option<Cavalry>,
    /// Troop quality.
    pub quality: Quality,
    /// Figures now (for outnumbering, and the enemy's casualty test fired by these).
    #[schemars(example = 12)]
    pub figures: u16,
    /// Figures at the start of the battle (each 10% lost is −2); default: as now.
    #[serde(default)]
    pub figures_at_start: Option<u16>,
    /// Green counters.
    #[serde(default)]
    pub greens: u8,
    /// Its frontage is overlapped (outnumbered or overlapped: −1).
    #[serde(default)]
    pub overlapped: bool,
    /// The enemy is to its rear and engaging (−6).
    #[serde(default)]
    pub enemy_to_rear: bool,
    /// The umpire's tactical advantage, 0 to 3.
    #[serde(default)]
    pub tactical_advantage: u8,
    /// In effective cover (−2 on casualty tests against it).
    #[serde(default)]
    pub in_cover: bool,
    /// Unreliable troops (two casualties a bound running; −3 on the pursuit test).
    #[serde(default)]
    pub unreliable: bool,
    /// Rash troops (−3 on the pursuit test).
    #[serde(default)]
    pub rash: bool,
    /// Foreigners: they change sides when they disintegrate (unreliable foreigners; set
    /// `unreliable` too for the unreliable troops' −3 on the pursuit test and their desertion).
    #[serde(default)]
    pub foreign: bool,
    /// A battery's guns (artillery only), which fire first when attacked.
    #[serde(default)]
    pub guns: Option<Guns>,
}

impl Unit {
    /// A unit of `figures` with nothing else against it or for it: what a situation file's
    /// defaults give (the kind of cavalry only for cavalry, as [`Situation`] checks).
    pub fn new(arm: Arm, cavalry: Option<Cavalry>, quality: Quality, figures: u16) -> Self {
        Unit {
            arm,
            cavalry,
            quality,
            figures,
            figures_at_start: None,
            greens: 0,
            overlapped: false,
            enemy_to_rear: false,
            tactical_advantage: 0,
            in_cover: false,
            unreliable: false,
            rash: false,
            foreign: false,
            guns: None,
        }
    }
}

/// The additions to the d10 (section 6), as data.
pub const OUTNUMBERED_OR_OVERLAPPED: i32 = -1;
/// Outnumbered 2 to 1 or more.
pub const OUTNUMBERED_2_TO_1: i32 = -3;
/// Outnumbered 3 to 1 or more.
pub const OUTNUMBERED_3_TO_1: i32 = -5;
/// Enemy to the rear and engaging.
pub const ENEMY_TO_REAR: i32 = -6;
/// Each 10% casualties in the battle so far.
pub const EACH_TEN_PERCENT: i32 = -2;
/// Each green counter.
pub const EACH_GREEN: i32 = -3;
/// Cavalry fighting a heavier type of cavalry.
pub const HEAVIER_CAVALRY: i32 = -2;
/// Each quality grade higher than the enemy.
pub const EACH_GRADE_HIGHER: i32 = 2;
/// Hussars and light dragoons against infantry.
pub const HUSSARS_VS_INFANTRY: i32 = -3;
/// Dragoons and the other battle cavalry against infantry.
pub const DRAGOONS_VS_INFANTRY: i32 = -2;

/// The casualty test's additions: rows A, B, C/D, E/F, G; columns: the firer withdrawing,
/// routing, standing.
pub const CASUALTY_ADDITIONS: [[i32; 3]; 5] = [[3, 1, 4], [2, 0, 3], [1, -1, 2], [0, -2, 1], [-1, -3, 0]];
/// Each green counter on the firer.
pub const FIRER_GREEN: i32 = -2;
/// The target in effective cover.
pub const TARGET_IN_COVER: i32 = -2;
/// Casualty test scores: below 5 none, 5–14 one, 15–24 two, 25 and over three.
pub const CASUALTY_THRESHOLDS: [i32; 3] = [5, 15, 25];

/// The state of the unit fired upon in a casualty test, the test's column ("Enemy
/// withdrawing", "Enemy routing", "Enemy standing": the enemy of the firer).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TargetState {
    /// Withdrawing.
    Withdrawing,
    /// Routing.
    Routing,
    /// Standing.
    Standing,
}

/// A results-table band.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// +4 or over.
    Plus4,
    /// +1 to +3 (0 to +3 in the cavalry-against-infantry table).
    Plus1To3,
    /// Zero.
    Zero,
    /// −1 to −7.
    Minus1To7,
    /// −8 to −15.
    Minus8To15,
    /// −16 or under.
    Minus16,
}

impl Band {
    /// The band of a score; in the cavalry-against-infantry table 0 joins +1 to +3.
    pub fn of(score: i32, cav_vs_inf: bool) -> Band {
        // Looked up rather than matched: the score comes from the dice, and a lookup has no
        // branch to guess wrong.
        const BY_SCORE: [[Band; 21]; 2] = {
            let mut t = [[Band::Zero; 21]; 2];
            let mut i = 0;
            while i < 21 {
                t[0][i] = Band::matching(i as i32 - 16, false);
                t[1][i] = Band::matching(i as i32 - 16, true);
                i += 1;
            }
            t
        };
        BY_SCORE[usize::from(cav_vs_inf)][(score.clamp(-16, 4) + 16) as usize]
    }

    /// [`Band::of`] as the tables' bands read.
    const fn matching(score: i32, cav_vs_inf: bool) -> Band {
        match score {
            4.. => Band::Plus4,
            1..=3 => Band::Plus1To3,
            0 if cav_vs_inf => Band::Plus1To3,
            0 => Band::Zero,
            -7..=-1 => Band::Minus1To7,
            -15..=-8 => Band::Minus8To15,
            _ => Band::Minus16,
        }
    }

    /// The band's name as the tables print it.
    pub fn name(self, cav_vs_inf: bool) -> &'static str {
        match self {
            Band::Plus4 => "+4 or over",
            Band::Plus1To3 if cav_vs_inf => "0 to +3",
            Band::Plus1To3 => "+1 to +3",
            Band::Zero => "zero",
            Band::Minus1To7 => "-1 to -7",
            Band::Minus8To15 => "-8 to -15",
            Band::Minus16 => "-16 or under",
        }
    }
}

/// What a unit must do after the combat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Reaction {
    /// Unaffected: carries on with its orders.
    Unaffected,
    /// Pursues the beaten enemy.
    Pursue,
    /// Halts, and goes no further this bound.
    Halt,
    /// Stands in a firefight (infantry) or stands off (cavalry).
    Stand,
    /// Withdraws in good order at half speed.
    Withdraw,
    /// Runs away in disorder.
    RunAway,
    /// Disintegrates, disperses or deserts.
    Disintegrate,
}

impl Reaction {
    /// What a unit of `arm` so reacting does, in the results tables' words, for `table`.
    pub fn words(self, table: Table, arm: Arm) -> &'static str {
        let cavalry = arm == Arm::Cavalry;
        match self {
            Reaction::Unaffected => "unaffected",
            Reaction::Pursue => "pursues",
            Reaction::Halt => "halts",
            Reaction::Stand if cavalry => "stands off",
            Reaction::Stand => "stands in a firefight",
            Reaction::Withdraw => "withdraws in good order",
            Reaction::RunAway => "runs away",
            Reaction::Disintegrate if table == Table::CavalryVsInfantry => "is dispersed",
            Reaction::Disintegrate => "disintegrates",
        }
    }

    /// The state a unit so reacting is fired upon in, for the casualty test against it.
    pub fn target_state(self) -> TargetState {
        match self {
            Reaction::Withdraw => TargetState::Withdrawing,
            Reaction::RunAway | Reaction::Disintegrate => TargetState::Routing,
            _ => TargetState::Standing,
        }
    }
}

/// One row of a results table, for one unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// What the unit does.
    pub reaction: Reaction,
    /// Green counters taken.
    pub greens: u8,
    /// Casualties (figures) taken outright.
    pub casualties: u8,
    /// The unit takes a casualty test (thrown by its enemy).
    pub casualty_test: bool,
    /// The unit takes a pursuit test.
    pub pursuit_test: bool,
    /// What else the row says, in brief.
    pub note: &'static str,
}

const fn row(reaction: Reaction, greens: u8, casualties: u8, casualty_test: bool, note: &'static str) -> Row {
    Row { reaction, greens, casualties, casualty_test, pursuit_test: false, note }
}

/// Infantry against infantry, bands +4 … −16 (section 7).
pub const INFANTRY_VS_INFANTRY: [Row; 6] = [
    row(
        Reaction::Unaffected,
        0,
        0,
        false,
        "continue to obey orders; a casualty test if the enemy withdraws, a pursuit test if it runs",
    ),
    row(Reaction::Halt, 1, 0, true, "morale still good; no further this bound"),
    row(Reaction::Stand, 1, 0, true, "both stand a bound in a firefight"),
    row(Reaction::Withdraw, 1, 0, true, "withdraw in good order at half speed"),
    row(
        Reaction::RunAway,
        2,
        0,
        false,
        "run away in disorder at 20\" a bound, a casualty a bound by desertion (two if unreliable); a casualty test if pursued",
    ),
    row(
        Reaction::Disintegrate,
        0,
        0,
        false,
        "disintegrates and deserts; surrenders if surrounded; unreliable foreigners change sides, with a casualty and two greens",
    ),
];

/// Cavalry against cavalry, bands +4 … −16.
pub const CAVALRY_VS_CAVALRY: [Row; 6] = [
    row(
        Reaction::Pursue,
        2,
        0,
        false,
        "pursue a beaten enemy: following up a withdrawing enemy costs a casualty and two greens, a running one two greens; if no pursuit, a pursuit test",
    ),
    row(Reaction::Halt, 1, 0, false, "halted 2\u{bd}\" from the enemy; no further this bound"),
    row(Reaction::Stand, 1, 0, false, "stand off: neither side has the nerve to close"),
    row(
        Reaction::Withdraw,
        2,
        0,
        false,
        "withdraw in good order at half trot (walk to manoeuvre); if pursued a casualty and three greens instead",
    ),
    row(
        Reaction::RunAway,
        4,
        0,
        false,
        "run away in disorder at full trot, a casualty a move by desertion (two a bound if pursued)",
    ),
    row(
        Reaction::Disintegrate,
        0,
        0,
        false,
        "disintegrates; surrenders if surrounded; a pursuing unit is dispersed too; may not regroup",
    ),
];

/// Cavalry against infantry: the cavalry's column, bands +4, 0 to +3, −1 to −7, −8 to −15,
/// −16 (the Zero slot repeats 0 to +3).
pub const CAVALRY_VS_INFANTRY_CAVALRY: [Row; 6] = [
    Row {
        pursuit_test: true,
        ..row(Reaction::Pursue, 2, 0, false, "pursue the defeated infantry (pursuit test); no casualties")
    },
    row(Reaction::Halt, 2, 0, true, "halted at musket range; no advance"),
    row(Reaction::Halt, 2, 0, true, "halted at musket range; no advance"),
    row(Reaction::Withdraw, 3, 1, false, "withdraw up to half a walk move"),
    row(Reaction::RunAway, 4, 0, true, "run away for a trot move"),
    row(Reaction::Disintegrate, 0, 0, false, "dispersed: blown away by musketry"),
];

/// Cavalry against infantry: the infantry's column.
pub const CAVALRY_VS_INFANTRY_INFANTRY: [Row; 6] = [
    row(Reaction::Unaffected, 0, 0, false, "remain steady and obey orders; no greens or casualties"),
    row(Reaction::Halt, 1, 0, false, "no advance; no casualties"),
    row(Reaction::Halt, 1, 0, false, "no advance; no casualties"),
    row(Reaction::Withdraw, 1, 0, false, "withdraw for half a bound; if pursued, the run-away result instead"),
    row(Reaction::RunAway, 2, 1, false, "run away; if pursued three greens and two casualties instead"),
    row(
        Reaction::Disintegrate,
        0,
        0,
        false,
        "dispersed; pursuing cavalry dispersed too, chasing individuals and looting baggage",
    ),
];

/// Which table a pairing reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Table {
    /// Infantry (or artillery) against infantry (or artillery).
    InfantryVsInfantry,
    /// Cavalry against cavalry.
    CavalryVsCavalry,
    /// Cavalry against infantry (or artillery).
    CavalryVsInfantry,
}

impl Table {
    /// The table's name, as the text heads it.
    pub fn name(self) -> &'static str {
        match self {
            Table::InfantryVsInfantry => "infantry against infantry",
            Table::CavalryVsCavalry => "cavalry against cavalry",
            Table::CavalryVsInfantry => "cavalry against infantry",
        }
    }

    /// The table for a pairing.
    pub fn of(a: Arm, b: Arm) -> Table {
        match (a == Arm::Cavalry, b == Arm::Cavalry) {
            (true, true) => Table::CavalryVsCavalry,
            (false, false) => Table::InfantryVsInfantry,
            _ => Table::CavalryVsInfantry,
        }
    }

    /// The row a unit of `arm` reads for `band`.
    pub fn row(self, arm: Arm, band: Band) -> Row {
        let i = band as usize;
        match self {
            Table::InfantryVsInfantry => INFANTRY_VS_INFANTRY[i],
            Table::CavalryVsCavalry => CAVALRY_VS_CAVALRY[i],
            Table::CavalryVsInfantry if arm == Arm::Cavalry => CAVALRY_VS_INFANTRY_CAVALRY[i],
            Table::CavalryVsInfantry => CAVALRY_VS_INFANTRY_INFANTRY[i],
        }
    }
}

/// The lines of the additions table (section 6), by name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AdditionRule {
    /// Outnumbered 3 to 1 or more.
    #[default]
    Outnumbered3To1,
    /// Outnumbered 2 to 1 or more.
    Outnumbered2To1,
    /// Outnumbered or overlapped frontage.
    OutnumberedOrOverlapped,
    /// Enemy to the rear and engaging.
    EnemyToRear,
    /// Each 10% casualties in the battle so far.
    EachTenPercent,
    /// Each green counter.
    EachGreen,
    /// Tactical advantage, given by the umpire.
    TacticalAdvantage,
    /// Cavalry against a heavier type of cavalry.
    HeavierCavalry,
    /// Each quality grade higher than the enemy.
    EachGradeHigher,
    /// Hussars or light dragoons against infantry.
    LightCavalryVsInfantry,
    /// Dragoons and others against infantry.
    CavalryVsInfantry,
}

impl AdditionRule {
    /// The line in words.
    pub fn name(self) -> &'static str {
        match self {
            AdditionRule::Outnumbered3To1 => "outnumbered 3 to 1 or more",
            AdditionRule::Outnumbered2To1 => "outnumbered 2 to 1 or more",
            AdditionRule::OutnumberedOrOverlapped => "outnumbered or overlapped frontage",
            AdditionRule::EnemyToRear => "enemy to the rear and engaging",
            AdditionRule::EachTenPercent => "each 10% casualties in the battle so far",
            AdditionRule::EachGreen => "each green counter",
            AdditionRule::TacticalAdvantage => "tactical advantage (the umpire)",
            AdditionRule::HeavierCavalry => "cavalry against a heavier type of cavalry",
            AdditionRule::EachGradeHigher => "each quality grade higher than the enemy",
            AdditionRule::LightCavalryVsInfantry => "hussars or light dragoons against infantry",
            AdditionRule::CavalryVsInfantry => "dragoons and others against infantry",
        }
    }
}

impl fmt::Display for AdditionRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Serialized as its words, as the explanation shows it.
impl Serialize for AdditionRule {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

/// One named addition to a die.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Addition {
    /// The rule it comes from.
    pub rule: AdditionRule,
    /// Its value.
    pub value: i32,
}

impl Addition {
    /// The addition's reason in words, with the count behind a value that is so much "each":
    /// `2 green counters, -3 each`.
    pub fn reason(&self) -> String {
        let each = |per: i32, what: &str, whats: &str| {
            let n = if per == 0 { 0 } else { self.value / per };
            format!("{n} {}, {per:+} each", if n == 1 { what } else { whats })
        };
        match self.rule {
            AdditionRule::EachTenPercent => {
                format!(
                    "{}% casualties in the battle so far, {EACH_TEN_PERCENT:+} each 10%",
                    10 * self.value / EACH_TEN_PERCENT
                )
            }
            AdditionRule::EachGreen => each(EACH_GREEN, "green counter", "green counters"),
            AdditionRule::EachGradeHigher => {
                each(EACH_GRADE_HIGHER, "quality grade higher than the enemy", "quality grades higher than the enemy")
            }
            rule => rule.name().to_string(),
        }
    }
}

/// A number that goes into a total, and why: `+2 (quality C, enemy standing)`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Term {
    /// Its value.
    pub value: i32,
    /// Why, in words.
    pub why: String,
}

impl Term {
    /// A term of `value` for `why`.
    pub fn new(value: i32, why: impl Into<String>) -> Self {
        Term { value, why: why.into() }
    }
}

/// Signed, with its reason in brackets: `-2 (target in effective cover)`.
impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:+} ({})", self.value, self.why)
    }
}

/// The most additions one die can have: one from each line of the additions table.
pub const MAX_ADDITIONS: usize = 8;
/// The most dice a casualty test throws ([`casualty_dice`]).
pub const MAX_TEST_DICE: usize = 20;

/// The additions to a unit's d10 against `enemy`.
pub fn additions(me: &Unit, enemy: &Unit) -> Short<Addition, MAX_ADDITIONS> {
    let mut out = Short::default();
    // Each line of the table adds at most once, so the list never overflows.
    each_addition(me, enemy, |rule, value| {
        if value != 0 {
            let _ = out.push(Addition { rule, value });
        }
    });
    out
}

/// The sum of the additions to a unit's d10 against `enemy`.
#[inline]
pub fn addition_total(me: &Unit, enemy: &Unit) -> i32 {
    let mut total = 0;
    each_addition(me, enemy, |_, value| total += value);
    total
}

/// Each addition to a unit's d10 against `enemy`, in the table's order (some may be zero: the
/// outnumbered lines come as one, the first that applies or none).
#[inline(always)]
fn each_addition(me: &Unit, enemy: &Unit, mut add: impl FnMut(AdditionRule, i32)) {
    // The first line that applies, chosen without a branch (a battery's fire may just have
    // changed the figures).
    let (mine, theirs) = (u32::from(me.figures), u32::from(enemy.figures));
    let lines = [
        (theirs >= 3 * mine.max(1), AdditionRule::Outnumbered3To1, OUTNUMBERED_3_TO_1),
        (theirs >= 2 * mine.max(1), AdditionRule::Outnumbered2To1, OUTNUMBERED_2_TO_1),
        ((theirs > mine) | me.overlapped, AdditionRule::OutnumberedOrOverlapped, OUTNUMBERED_OR_OVERLAPPED),
    ];
    let (rule, value) =
        lines.iter().rev().fold(
            (AdditionRule::Outnumbered3To1, 0),
            |next, &(applies, rule, value)| {
                if applies { (rule, value) } else { next }
            },
        );
    add(rule, value);
    if me.enemy_to_rear {
        add(AdditionRule::EnemyToRear, ENEMY_TO_REAR);
    }
    let start = me.figures_at_start.unwrap_or(me.figures).max(1);
    let lost = start.saturating_sub(me.figures);
    let tenths = whole_tenths(u32::from(lost), u32::from(start));
    add(AdditionRule::EachTenPercent, EACH_TEN_PERCENT * tenths);
    add(AdditionRule::EachGreen, EACH_GREEN * i32::from(me.greens));
    add(AdditionRule::TacticalAdvantage, i32::from(me.tactical_advantage.min(3)));
    if let (Some(a), Some(b)) = (me.cavalry, enemy.cavalry)
        && me.arm == Arm::Cavalry
        && enemy.arm == Arm::Cavalry
        && b.weight() > a.weight()
    {
        add(AdditionRule::HeavierCavalry, HEAVIER_CAVALRY);
    }
    let grades = enemy.quality.grade() - me.quality.grade();
    if grades > 0 {
        add(AdditionRule::EachGradeHigher, EACH_GRADE_HIGHER * grades);
    }
    if me.arm == Arm::Cavalry
        && enemy.arm != Arm::Cavalry
        && let Some(c) = me.cavalry
    {
        let rule = if c.weight() == 0 { AdditionRule::LightCavalryVsInfantry } else { AdditionRule::CavalryVsInfantry };
        add(rule, c.against_infantry());
    }
}

/// How many whole tenths of `of` `part` is (`part` at most `of`; `of` zero counts as one):
/// `10 * part / of` rounded down.
fn whole_tenths(part: u32, of: u32) -> i32 {
    (10 * part / of.max(1)) as i32
}

/// The most figures that fire one casualty test: [`MAX_TEST_DICE`] d10s' worth (a situation with
/// more is refused, and a battle's grouping takes no more than these into one combat).
pub const MAX_FIRING_FIGURES: u16 = (MAX_TEST_DICE as u16) * 6 + 2;
/// The most guns (gunners) a battery has: the text groups artillery in sixes or fewer.
pub const MAX_BATTERY: u16 = 6;

/// Dice a casualty test throws: 1d10 per 6 figures firing, rounded to the nearest (at least 1);
/// at most [`MAX_TEST_DICE`], which [`MAX_FIRING_FIGURES`] figures reach.
pub fn casualty_dice(figures: u16) -> u8 {
    ((u32::from(figures) + 3) / 6).clamp(1, MAX_TEST_DICE as u32) as u8
}

/// The casualty test's fixed addition: the firer's quality (the row) against the state of the
/// unit fired upon (the column), −2 per green on the firer (those it held before the combat),
/// −2 if the target is in cover. Made once per battalion's throw.
pub fn casualty_addition(firer: &Unit, target: TargetState, target_in_cover: bool) -> i32 {
    let column = match target {
        TargetState::Withdrawing => 0,
        TargetState::Routing => 1,
        TargetState::Standing => 2,
    };
    CASUALTY_ADDITIONS[firer.quality.casualty_row()][column]
        + FIRER_GREEN * i32::from(firer.greens)
        + if target_in_cover { TARGET_IN_COVER } else { 0 }
}

/// [`casualty_addition`] term by term: the firer's quality against the state of the unit fired
/// upon (always given, though it be 0), its green counters and the target's cover (when they
/// count); the values sum to [`casualty_addition`].
pub fn casualty_terms(firer: &Unit, target: TargetState, target_in_cover: bool) -> Vec<Term> {
    let column = match target {
        TargetState::Withdrawing => 0,
        TargetState::Routing => 1,
        TargetState::Standing => 2,
    };
    let state = match target {
        TargetState::Withdrawing => "enemy withdrawing",
        TargetState::Routing => "enemy routing",
        TargetState::Standing => "enemy standing",
    };
    let mut out = vec![Term::new(
        CASUALTY_ADDITIONS[firer.quality.casualty_row()][column],
        format!("quality {}, {state}", firer.quality.letter()),
    )];
    if firer.greens > 0 {
        let n = firer.greens;
        out.push(Term::new(
            FIRER_GREEN * i32::from(n),
            format!("{n} green counter{} on the firer, {FIRER_GREEN:+} each", if n == 1 { "" } else { "s" }),
        ));
    }
    if target_in_cover {
        out.push(Term::new(TARGET_IN_COVER, "target in effective cover"));
    }
    debug_assert_eq!(out.iter().map(|t| t.value).sum::<i32>(), casualty_addition(firer, target, target_in_cover));
    out
}

/// The casualties a casualty test score gives, with the band of the table that gives them:
/// `1 casualty (5 to 14)`.
pub fn casualties_words(score: i32) -> String {
    let n = casualties_for(score);
    let band = match n {
        0 => "under 5",
        1 => "5 to 14",
        2 => "15 to 24",
        _ => "25 or more",
    };
    format!("{} ({band})", casualties_count(n))
}

/// `no casualties`, `1 casualty`, `2 casualties`.
pub fn casualties_count(n: u8) -> String {
    match n {
        0 => "no casualties".into(),
        1 => "1 casualty".into(),
        n => format!("{n} casualties"),
    }
}

/// `no green counters`, `1 green counter`, `2 green counters`.
pub fn greens_count(n: u8) -> String {
    match n {
        0 => "no green counters".into(),
        1 => "1 green counter".into(),
        n => format!("{n} green counters"),
    }
}

/// One firer's share of a casualty test: its figures, its d10s (1 per 6 figures) and its
/// additions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TestShare {
    /// The figures firing.
    pub figures: u16,
    /// Its d10s.
    pub dice: Vec<u8>,
    /// Its additions, with their reasons.
    pub additions: Vec<Term>,
}

/// A casualty test in words, every term of its score given: each share's dice, the figures that
/// threw them (named by `names`, the firers in order, when there are several), its additions,
/// then the score and the casualties: `9+2 (2 d10 for 12 figures firing) +2 (quality C, enemy
/// standing) = 13: 1 casualty (5 to 14)`. Every number outside brackets is a term of the sum.
pub fn test_words(shares: &[TestShare], names: &[String]) -> String {
    let mut out = String::new();
    let mut score = 0;
    for (k, share) in shares.iter().enumerate() {
        for (j, d) in share.dice.iter().enumerate() {
            if k > 0 || j > 0 {
                out.push('+');
            }
            out.push_str(&d.to_string());
            score += i32::from(*d);
        }
        let n = share.dice.len();
        let whose = match names.get(k) {
            Some(name) if shares.len() > 1 => format!("{}'s ", name),
            _ => String::new(),
        };
        out.push_str(&format!(" ({n} d10 for {whose}{} figures firing)", share.figures));
        for t in &share.additions {
            out.push_str(&format!(" {t}"));
            score += t.value;
        }
        out.push(' ');
    }
    format!("{}= {score}: {}", out, casualties_words(score))
}

/// Casualties for a casualty test score.
pub fn casualties_for(score: i32) -> u8 {
    CASUALTY_THRESHOLDS.iter().filter(|&&t| score >= t).count() as u8
}

/// The probability of 0, 1, 2 and 3 casualties from a test of `dice` d10 plus `addition`.
pub fn casualty_odds(dice: u8, addition: i32) -> [f64; 4] {
    // The distribution of the sum of the dice, one die at a time.
    let mut ways = vec![1u64];
    for _ in 0..dice {
        let mut next = vec![0u64; ways.len() + 10];
        for (s, &w) in ways.iter().enumerate() {
            for face in 1..=10 {
                next[s + face] += w;
            }
        }
        ways = next;
    }
    let total = 10f64.powi(i32::from(dice));
    let mut out = [0.0; 4];
    for (s, &w) in ways.iter().enumerate() {
        if w > 0 {
            out[usize::from(casualties_for(s as i32 + addition))] += w as f64 / total;
        }
    }
    out
}

/// The close-range effect of a battery's fire: (casualties, greens) for a bombardment score.
pub fn close_range_effect(score: i32) -> (u8, u8) {
    match score {
        0.. => (2, 1),
        -3..=-1 => (1, 1),
        _ => (0, 0),
    }
}

/// The long-range effect: greens for a bombardment score.
pub fn long_range_effect(score: i32) -> u8 {
    u8::from(score >= -1)
}

/// A battery's bombardment score before its d6: 1 medium / 2 heavy, less 1 per gunner lost,
/// less 2 per green.
pub fn bombardment_base(guns: &Guns, greens: u8) -> i32 {
    (if guns.heavy { 2 } else { 1 }) - i32::from(guns.gunners_lost) - 2 * i32::from(greens)
}

/// [`bombardment_base`] term by term: the battery's points, then less 1 a gunner lost and 2 a
/// green counter (when there are any); the values sum to it.
pub fn bombardment_terms(guns: &Guns, greens: u8) -> Vec<Term> {
    let mut out = vec![if guns.heavy { Term::new(2, "heavy battery") } else { Term::new(1, "medium battery") }];
    if guns.gunners_lost > 0 {
        let n = guns.gunners_lost;
        out.push(Term::new(-i32::from(n), format!("{n} gunner{} lost, -1 each", if n == 1 { "" } else { "s" })));
    }
    if greens > 0 {
        out.push(Term::new(
            -2 * i32::from(greens),
            format!("{greens} green counter{}, -2 each", if greens == 1 { "" } else { "s" }),
        ));
    }
    debug_assert_eq!(out.iter().map(|t| t.value).sum::<i32>(), bombardment_base(guns, greens));
    out
}

/// A bombardment's score in words, every term given: the battery's points less its d6 `d6`,
/// `2 (heavy battery) -1 (1 gunner lost, -1 each) -4 (the d6 thrown: ⚃) = -3`.
pub fn bombardment_words(guns: &Guns, greens: u8, d6: u8) -> String {
    let terms = bombardment_terms(guns, greens);
    let mut out = String::new();
    for (k, t) in terms.iter().enumerate() {
        if k == 0 {
            out.push_str(&format!("{} ({})", t.value, t.why));
        } else {
            out.push_str(&format!(" {t}"));
        }
    }
    let score = bombardment_base(guns, greens) - i32::from(d6);
    format!("{out} -{d6} (the d6 thrown: {}) = {score}", die_face(d6))
}

/// A d6's face as players see it on the table: ⚀ to ⚅ (the number itself if it is not 1 to 6).
pub fn die_face(d6: u8) -> String {
    match d6 {
        1..=6 => char::from_u32(0x267F + u32::from(d6)).map_or_else(|| d6.to_string(), |c| c.to_string()),
        _ => d6.to_string(),
    }
}

/// The close-range effect of score `score` in words, with the band: `1 casualty and 1 green
/// counter (-3 to -1)`.
pub fn close_range_words(score: i32) -> String {
    let (cas, greens) = close_range_effect(score);
    let band = match score {
        0.. => "0 or over",
        -3..=-1 => "-3 to -1",
        _ => "under -3",
    };
    if cas == 0 && greens == 0 {
        format!("no effect ({band})")
    } else {
        format!("{} and {} ({band})", casualties_count(cas), greens_count(greens))
    }
}

/// The long-range effect of score `score` in words, with the band: `1 green counter (-1 or
/// over)`.
pub fn long_range_words(score: i32) -> String {
    match long_range_effect(score) {
        0 => "no effect (under -1)".into(),
        g => format!("{} (-1 or over)", greens_count(g)),
    }
}

/// The pursuit test: the unit stays under control on 1d10 plus additions of 2 or more (cavalry)
/// or 0 or more (infantry).
pub fn pursuit_addition(unit: &Unit, against_routing_cavalry: bool) -> i32 {
    let quality = match unit.quality {
        Quality::A => 0,
        Quality::B => -1,
        Quality::C => -2,
        Quality::D | Quality::E => -3,
        Quality::F | Quality::G => -4,
    };
    quality
        + if unit.unreliable || unit.rash { -3 } else { 0 }
        + if unit.arm == Arm::Cavalry && against_routing_cavalry { -2 } else { 0 }
}

/// [`pursuit_addition`] term by term (those that are not 0); the values sum to it.
pub fn pursuit_terms(unit: &Unit, against_routing_cavalry: bool) -> Vec<Term> {
    let quality = match unit.quality {
        Quality::A => 0,
        Quality::B => -1,
        Quality::C => -2,
        Quality::D | Quality::E => -3,
        Quality::F | Quality::G => -4,
    };
    let mut out = Vec::new();
    if quality != 0 {
        out.push(Term::new(quality, format!("quality {}", unit.quality.letter())));
    }
    if unit.unreliable || unit.rash {
        out.push(Term::new(-3, if unit.unreliable { "unreliable" } else { "rash" }));
    }
    if unit.arm == Arm::Cavalry && against_routing_cavalry {
        out.push(Term::new(-2, "cavalry against routing cavalry"));
    }
    debug_assert_eq!(out.iter().map(|t| t.value).sum::<i32>(), pursuit_addition(unit, against_routing_cavalry));
    out
}

/// The score a pursuit test needs to stay under control.
pub fn pursuit_needs(arm: Arm) -> i32 {
    if arm == Arm::Cavalry { 2 } else { 0 }
}

/// A battalion (or regiment) of an attacking grouping besides its leader: it fires its own
/// share of the casualty test the grouping throws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Battalion {
    /// Troop quality.
    pub quality: Quality,
    /// Figures now.
    #[schemars(example = 12)]
    pub figures: u16,
    /// Green counters it held before the combat.
    #[serde(default)]
    pub greens: u8,
}

/// A close combat as the umpire describes it: the attacker and the defender.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Situation {
    /// The attacking unit (or grouping: its figures all the grouping's, the rest as its leader).
    pub attacker: Unit,
    /// The defending unit (or grouping).
    pub defender: Unit,
    /// The attacking grouping's battalions besides its leader (whose figures are the
    /// attacker's less theirs). A casualty test the grouping fires adds up every battalion's
    /// score: its own dice (1d10 per 6 of its figures), its own quality and its own greens.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attacker_group: Vec<Battalion>,
}

/// What one side came to, with the reasons: the additions, the totals, the row, the tests'
/// dice ([`Resolution::sides`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SideResult {
    /// Additions to its die, with their rules.
    pub additions: Short<Addition, MAX_ADDITIONS>,
    /// Its d10.
    pub die: u8,
    /// Its total.
    pub total: i32,
    /// Its total less the enemy's.
    pub score: i32,
    /// The band it reads.
    pub band: Band,
    /// What it must do.
    pub reaction: Reaction,
    /// Greens taken (the guns' fire included).
    pub greens: u8,
    /// Casualties taken outright (the guns' fire included).
    pub casualties: u8,
    /// The casualty test thrown against it, if it took one: the dice and the score.
    pub casualty_test: Option<(Short<u8, MAX_TEST_DICE>, i32)>,
    /// That test share by share (one for each battalion firing), every term of its score given;
    /// empty if it took none.
    pub casualty_test_shares: Vec<TestShare>,
    /// Infantry, cavalry or artillery: the column of the table it reads.
    pub arm: Arm,
    /// Casualties from that test.
    pub test_casualties: u8,
    /// A pursuit test is due.
    pub pursuit_test: bool,
    /// That pursuit test, thrown at the umpire's desk (the battle throws its own, as the
    /// unit's orders decide): `None` if none was thrown.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pursuit: Option<PursuitThrow>,
    /// The row's other instructions.
    pub note: &'static str,
}

/// A pursuit test thrown: the d10, the terms added, what it needs and whether the unit stays
/// under control (does not pursue).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PursuitThrow {
    /// The d10.
    pub die: u8,
    /// The additions, term by term (those that are not 0).
    pub additions: Vec<Term>,
    /// The die and the additions.
    pub total: i32,
    /// The least total that keeps it under control.
    pub needs: i32,
    /// It stays under control: no pursuit.
    pub under_control: bool,
}

impl fmt::Display for PursuitThrow {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "pursuit test: d10 {}", self.die)?;
        for t in &self.additions {
            write!(f, " {:+} ({})", t.value, t.why)?;
        }
        write!(
            f,
            " = {}, needs {} or more: {}",
            self.total,
            self.needs,
            if self.under_control {
                "stays under control, no pursuit"
            } else {
                "out of control, it pursues (the beaten enemy's \"if pursued\" applies)"
            }
        )
    }
}

impl SideResult {
    /// The side in words, every number with the terms that made it: its d10 and additions, its
    /// total against the enemy's (`enemy_total`), the band and what it must do in `table`'s
    /// words, the green counters and casualties it takes (`guns`: those the defending battery's
    /// fire gave it, as (casualties, greens)), and the casualty test against it (its firers named
    /// by `firers`, in order, when several fire).
    pub fn words(&self, table: Table, enemy_total: i32, guns: Option<(u8, u8)>, firers: &[String]) -> String {
        let mut out = format!("d10 {}", self.die);
        for a in &self.additions {
            out.push_str(&format!(" {:+} ({})", a.value, a.reason()));
        }
        out.push_str(&format!(
            " = {}, score {:+} ({} against {enemy_total}): {}, {}",
            self.total,
            self.score,
            self.total,
            self.band.name(table == Table::CavalryVsInfantry),
            self.reaction.words(table, self.arm)
        ));
        let (gun_cas, gun_greens) = guns.unwrap_or((0, 0));
        let by_table = |all: u8, from_guns: u8| match (all - from_guns, from_guns) {
            (_, 0) => String::new(),
            (0, _) => " (from the guns)".to_string(),
            (t, g) => format!(" ({t} by the table, {g} from the guns)"),
        };
        out.push_str(&format!("; {}{}", greens_count(self.greens), by_table(self.greens, gun_greens.min(self.greens))));
        if self.casualties > 0 {
            out.push_str(&format!(
                ", {}{}",
                casualties_count(self.casualties),
                match by_table(self.casualties, gun_cas.min(self.casualties)) {
                    s if s.is_empty() => " (by the table)".to_string(),
                    s => s,
                }
            ));
        }
        if !self.casualty_test_shares.is_empty() {
            out.push_str(&format!("; casualty test against it: {}", test_words(&self.casualty_test_shares, firers)));
        }
        out
    }
}

/// What one side of a close combat must do: all a game needs to play on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Effect {
    /// Its total less the enemy's.
    pub score: i32,
    /// The band it reads.
    pub band: Band,
    /// What it must do.
    pub reaction: Reaction,
    /// Greens taken (the guns' fire included).
    pub greens: u8,
    /// Casualties taken outright (the guns' fire included).
    pub casualties: u8,
    /// Casualties from the casualty test thrown against it (0 if none).
    pub test_casualties: u8,
    /// A pursuit test is due.
    pub pursuit_test: bool,
}

/// A resolved close combat: the situation, the dice, and what each side must do. The reasons
/// (additions, totals, the rows' words, the tests' scores) are worked out from the dice when
/// they are asked for — by [`Resolution::sides`], the JSON and the text — so resolving builds
/// no explanation it may not need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resolution {
    /// The combat.
    situation: Situation,
    /// The battery's d6, if the defender is a battery.
    d6: Option<u8>,
    /// The attacker's and the defender's d10.
    d10s: [u8; 2],
    /// The casualty tests' dice against the attacker and the defender (none: no test).
    test_dice: [TestDice; 2],
    /// The table read.
    pub table: Table,
    /// What the attacker must do.
    pub attacker: Effect,
    /// What the defender must do.
    pub defender: Effect,
    /// The attacker's and the defender's pursuit-test d10, where the desk threw one.
    pursuit_dice: [Option<u8>; 2],
}

impl Resolution {
    /// The pursuit test of side `i` (0 the attacker) as it would be thrown with `die`: its
    /// additions (against routing cavalry when the enemy, cavalry, runs or disintegrates), total
    /// and whether the unit stays under control.
    fn pursuit_with(&self, i: usize, die: u8) -> PursuitThrow {
        let s = &self.situation;
        let (me, enemy) = if i == 0 { (&s.attacker, &s.defender) } else { (&s.defender, &s.attacker) };
        let beaten = if i == 0 { self.defender.reaction } else { self.attacker.reaction };
        let against_routing = me.arm == Arm::Cavalry
            && enemy.arm == Arm::Cavalry
            && matches!(beaten, Reaction::RunAway | Reaction::Disintegrate);
        let addition = pursuit_addition(me, against_routing);
        let needs = pursuit_needs(me.arm);
        let total = i32::from(die) + addition;
        PursuitThrow { die, additions: pursuit_terms(me, against_routing), total, needs, under_control: total >= needs }
    }

    /// Throw the pursuit tests the table calls for (a battery does not pursue), drawing each
    /// d10 from `chance` after the combat's dice: the umpire's desk, which has no orders to say
    /// whether the winner would pursue anyway.
    fn throw_pursuit_tests(&mut self, chance: &mut dyn Chance) -> Result<(), CalcError> {
        for (i, who) in ["the attacker", "the defender"].into_iter().enumerate() {
            let effect = if i == 0 { self.attacker } else { self.defender };
            let unit = if i == 0 { &self.situation.attacker } else { &self.situation.defender };
            if effect.pursuit_test && unit.arm != Arm::Artillery && unit.guns.is_none() {
                let die = chance.draw(&DrawKind::Die { sides: 10 }, &format_args!("{who}'s pursuit test: d10"))?;
                self.pursuit_dice[i] = Some(die as u8);
            }
        }
        Ok(())
    }

    /// How many dice the combat threw: the guns' d6 (if a battery defended), the two d10s, the
    /// casualty tests' d10s and the pursuit tests' (thrown at the desk).
    pub fn dice_thrown(&self) -> usize {
        usize::from(self.d6.is_some())
            + 2
            + self.test_dice.iter().map(|t| usize::from(t.len)).sum::<usize>()
            + self.pursuit_dice.iter().flatten().count()
    }

    /// The defending battery's close-range fire first: its d6, score, and the attacker's
    /// casualties and greens from it.
    pub fn guns_first(&self) -> Option<(u8, i32, u8, u8)> {
        self.situation.after_guns(self.d6).1
    }

    /// The defending battery's close-range fire first in words, every term of its score given,
    /// if the defender is an unlimbered battery: `2 (heavy battery) -3 (d6) = -1: on the attacker
    /// 1 casualty and 1 green counter (-3 to -1)`.
    pub fn guns_words(&self) -> Option<String> {
        let (d6, score, _, _) = self.guns_first()?;
        let guns = self.situation.defender.guns?;
        Some(format!(
            "{}: on the attacker {}",
            bombardment_words(&guns, self.situation.defender.greens, d6),
            close_range_words(score)
        ))
    }

    /// Both sides in full, the attacker first: additions, dice, totals, rows and tests.
    pub fn sides(&self) -> [SideResult; 2] {
        let s = &self.situation;
        let (attacker, _) = s.after_guns(self.d6);
        let units = [&attacker, &s.defender];
        let effects = [self.attacker, self.defender];
        std::array::from_fn(|i| {
            let e = effects[i];
            let additions = additions(units[i], units[1 - i]);
            // A test was taken if it threw dice (`casualty_dice` throws at least one).
            let test = (self.test_dice[i].len > 0).then(|| {
                let dice = self.test_dice[i].dice();
                let (_, add) = s.test_throw(&attacker, i, effects[i].reaction.target_state());
                let score = dice.iter().map(|&d| i32::from(d)).sum::<i32>() + add;
                (dice, score)
            });
            let shares = if self.test_dice[i].len > 0 {
                s.test_shares(&attacker, i, effects[i].reaction.target_state(), &self.test_dice[i].dice())
            } else {
                Vec::new()
            };
            SideResult {
                total: i32::from(self.d10s[i]) + additions.iter().map(|a| a.value).sum::<i32>(),
                casualty_test_shares: shares,
                arm: units[i].arm,
                additions,
                die: self.d10s[i],
                score: e.score,
                band: e.band,
                reaction: e.reaction,
                greens: e.greens,
                casualties: e.casualties,
                casualty_test: test,
                test_casualties: e.test_casualties,
                pursuit_test: e.pursuit_test,
                pursuit: self.pursuit_dice[i].map(|d| self.pursuit_with(i, d)),
                note: self.table.row(units[i].arm, e.band).note,
            }
        })
    }
}

/// The JSON of a resolution: `table`, `guns_first`, `attacker` and `defender` in full.
impl Serialize for Resolution {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let [attacker, defender] = self.sides();
        let mut st = serializer.serialize_struct("Resolution", 4)?;
        st.serialize_field("table", &self.table)?;
        st.serialize_field("guns_first", &self.guns_first())?;
        st.serialize_field("attacker", &attacker)?;
        st.serialize_field("defender", &defender)?;
        st.end()
    }
}

/// A casualty test's d10s, four bits a die (at most [`MAX_TEST_DICE`]), and how many: packed
/// in registers as they are read, so the resolution takes them in two words rather than byte by
/// byte (a byte-by-byte copy just after the draws stalls the processor).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct TestDice {
    /// Die `k` in bits `4k..4k + 4` (dice 16 and up in the second word).
    bits: [u64; 2],
    /// How many dice.
    len: u8,
}

impl TestDice {
    /// These dice (faces 0 to 15 kept; at most [`MAX_TEST_DICE`]).
    fn of(dice: &[u8]) -> Self {
        let (mut lo, mut hi) = (0u64, 0u64);
        let dice = &dice[..dice.len().min(MAX_TEST_DICE)];
        for (k, &d) in dice.iter().enumerate() {
            let nibble = u64::from(d & 0xf);
            if k < 16 {
                lo |= nibble << (4 * k);
            } else {
                hi |= nibble << (4 * (k - 16));
            }
        }
        TestDice { bits: [lo, hi], len: dice.len() as u8 }
    }

    /// The dice, in order.
    fn dice(&self) -> Short<u8, MAX_TEST_DICE> {
        let mut out = Short::default();
        for k in 0..usize::from(self.len) {
            let _ = out.push((self.bits[k / 16] >> (4 * (k % 16)) & 0xf) as u8);
        }
        out
    }
}

/// A close combat judged from its d10s (and the guns' d6), before the casualty tests' dice.
struct Verdict {
    /// The table read.
    table: Table,
    /// What each side must do (no test casualties yet).
    effects: [Effect; 2],
    /// The casualty test due against each side: (dice, addition).
    tests: [Option<(u8, i32)>; 2],
}

/// What a close combat comes to, for the odds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
pub struct Outcome {
    /// The attacker's band.
    pub attacker_band: Band,
    /// The defender's band.
    pub defender_band: Band,
    /// Casualties the attacker takes from casualty tests (0 to 3).
    pub attacker_test_casualties: u8,
    /// Casualties the defender takes from casualty tests (0 to 3).
    pub defender_test_casualties: u8,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let short = |b: Band| match b {
            Band::Plus4 => "+4 or over",
            Band::Plus1To3 => "+1 to +3 (0 to +3 cavalry against infantry)",
            Band::Zero => "zero",
            Band::Minus1To7 => "-1 to -7",
            Band::Minus8To15 => "-8 to -15",
            Band::Minus16 => "-16 or under",
        };
        let cas = |n: u8| if n == 1 { "1 casualty".to_string() } else { format!("{n} casualties") };
        write!(
            f,
            "attacker {}, {} from casualty tests; defender {}, {} from casualty tests",
            short(self.attacker_band),
            cas(self.attacker_test_casualties),
            short(self.defender_band),
            cas(self.defender_test_casualties)
        )
    }
}

impl Situation {
    /// A combat of one attacking unit (or a grouping described as one) against a defender.
    pub fn new(attacker: Unit, defender: Unit) -> Self {
        Situation { attacker, defender, attacker_group: Vec::new() }
    }

    #[inline]
    fn check(&self) -> Result<(), CalcError> {
        // Every condition tested at once; the reason is only worked out for a bad situation.
        let bad = |u: &Unit| {
            ((u.arm == Arm::Cavalry) != u.cavalry.is_some())
                | (u.guns.is_some() & (u.arm != Arm::Artillery))
                | (u.figures == 0)
                | (u.tactical_advantage > 3)
                | (u.figures > MAX_FIRING_FIGURES)
                | u.figures_at_start.is_some_and(|s| s < u.figures)
                | ((u.arm == Arm::Artillery) & (u.figures_at_start.unwrap_or(u.figures) > MAX_BATTERY))
                | u.guns.is_some_and(|g| u16::from(g.gunners_lost) + u.figures > MAX_BATTERY)
        };
        let group_bad = !self.attacker_group.is_empty() && {
            let (others, dice) = self.group_totals();
            self.attacker_group.iter().any(|b| b.figures == 0)
                || others >= u32::from(self.attacker.figures)
                || dice + 1 > MAX_TEST_DICE as u32
        };
        if bad(&self.attacker) | bad(&self.defender) | group_bad { self.refused() } else { Ok(()) }
    }

    /// Why [`Situation::check`] refuses this situation.
    #[cold]
    fn refused(&self) -> Result<(), CalcError> {
        for (who, u) in [("attacker", &self.attacker), ("defender", &self.defender)] {
            if (u.arm == Arm::Cavalry) != u.cavalry.is_some() {
                return Err(CalcError::field(
                    format!("{who}.cavalry"),
                    format!("the {who}: give `cavalry` (its kind) for cavalry, and only for cavalry"),
                ));
            }
            if u.guns.is_some() && u.arm != Arm::Artillery {
                return Err(CalcError::field(format!("{who}.guns"), format!("the {who}: only artillery has `guns`")));
            }
            if u.figures == 0 {
                return Err(CalcError::field(format!("{who}.figures"), format!("the {who} has no figures")));
            }
            if u.tactical_advantage > 3 {
                return Err(CalcError::field(
                    format!("{who}.tactical_advantage"),
                    format!("the {who}'s tactical advantage is +1 to +3"),
                ));
            }
            if u.figures > MAX_FIRING_FIGURES {
                return Err(CalcError::field(
                    format!("{who}.figures"),
                    format!(
                        "the {who} has {} figures: at most {MAX_FIRING_FIGURES} fire one casualty test ({MAX_TEST_DICE} d10s)",
                        u.figures
                    ),
                ));
            }
            if let Some(start) = u.figures_at_start.filter(|&s| s < u.figures) {
                return Err(CalcError::field(
                    format!("{who}.figures_at_start"),
                    format!(
                        "the {who} has {} figures, more than its {start} at the start (figures_at_start)",
                        u.figures
                    ),
                ));
            }
            if u.arm == Arm::Artillery && u.figures_at_start.unwrap_or(u.figures) > MAX_BATTERY {
                return Err(CalcError::field(
                    format!("{who}.figures"),
                    format!(
                        "the {who}: a battery has {MAX_BATTERY} guns or fewer, found {}",
                        u.figures_at_start.unwrap_or(u.figures)
                    ),
                ));
            }
            if let Some(g) = u.guns.filter(|g| u16::from(g.gunners_lost) + u.figures > MAX_BATTERY) {
                return Err(CalcError::field(
                    format!("{who}.guns.gunners_lost"),
                    format!(
                        "the {who}: {} gunners lost and {} left make more than a battery's {MAX_BATTERY} guns",
                        g.gunners_lost, u.figures
                    ),
                ));
            }
        }
        if !self.attacker_group.is_empty() {
            let (others, dice) = self.group_totals();
            if self.attacker_group.iter().any(|b| b.figures == 0) {
                return Err(CalcError::field("attacker_group", "a battalion of the attacker's group has no figures"));
            }
            if others >= u32::from(self.attacker.figures) {
                return Err(CalcError::Invalid(format!(
                    "the attacker's figures ({}) are the whole grouping's: more than its group's other battalions' {others}",
                    self.attacker.figures
                )));
            }
            if dice + 1 > MAX_TEST_DICE as u32 {
                return Err(CalcError::Invalid(format!(
                    "the attacking grouping would fire more than {MAX_TEST_DICE} dice in one casualty test"
                )));
            }
        }
        Ok(())
    }

    /// The figures of the attacking grouping's battalions besides its leader, and the dice
    /// they fire in its casualty test.
    fn group_totals(&self) -> (u32, u32) {
        self.attacker_group
            .iter()
            .fold((0, 0), |(f, d), b| (f + u32::from(b.figures), d + u32::from(casualty_dice(b.figures))))
    }

    /// The dice and the addition of the casualty test fired at side `i` (0: the attacker, 1: the
    /// defender), the attacker as it fights being `attacker`, the side fired upon in `target`'s
    /// state. A grouping's test adds up each battalion's dice and additions (the text: "add
    /// together the scores from each battalion firing").
    fn test_throw(&self, attacker: &Unit, i: usize, target: TargetState) -> (u8, i32) {
        let units = [attacker, &self.defender];
        let (firer, cover) = (units[1 - i], units[i].in_cover);
        if i == 0 || self.attacker_group.is_empty() {
            return (casualty_dice(firer.figures), casualty_addition(firer, target, cover));
        }
        let (others, _) = self.group_totals();
        let mut lead = *attacker;
        lead.figures = (u32::from(attacker.figures).saturating_sub(others)).max(1) as u16;
        let mut dice = u32::from(casualty_dice(lead.figures));
        let mut add = casualty_addition(&lead, target, cover);
        for b in &self.attacker_group {
            let u = Unit { quality: b.quality, greens: b.greens, figures: b.figures, ..*attacker };
            dice += u32::from(casualty_dice(b.figures));
            add += casualty_addition(&u, target, cover);
        }
        (dice.min(MAX_TEST_DICE as u32) as u8, add)
    }

    /// [`Situation::test_throw`] share by share, with the `dice` thrown: each battalion firing,
    /// its figures, its own dice (in the order thrown: the leader's first) and its additions.
    fn test_shares(&self, attacker: &Unit, i: usize, target: TargetState, dice: &[u8]) -> Vec<TestShare> {
        let units = [attacker, &self.defender];
        let (firer, cover) = (units[1 - i], units[i].in_cover);
        let mut firers: Vec<Unit> = Vec::new();
        if i == 0 || self.attacker_group.is_empty() {
            firers.push(*firer);
        } else {
            let (others, _) = self.group_totals();
            let mut lead = *attacker;
            lead.figures = (u32::from(attacker.figures).saturating_sub(others)).max(1) as u16;
            firers.push(lead);
            for b in &self.attacker_group {
                firers.push(Unit { quality: b.quality, greens: b.greens, figures: b.figures, ..*attacker });
            }
        }
        let mut rest = dice;
        firers
            .iter()
            .map(|u| {
                let n = usize::from(casualty_dice(u.figures)).min(rest.len());
                let (mine, more) = rest.split_at(n);
                rest = more;
                TestShare { figures: u.figures, dice: mine.to_vec(), additions: casualty_terms(u, target, cover) }
            })
            .collect()
    }

    /// The attacker after the defending battery's close-range fire with `d6`: (the attacker as
    /// it then fights, the guns' record).
    fn after_guns(&self, d6: Option<u8>) -> (Unit, Option<(u8, i32, u8, u8)>) {
        let mut a = self.attacker;
        let (Some(g), Some(d)) = (self.defender.guns, d6) else { return (a, None) };
        let score = bombardment_base(&g, self.defender.greens) - i32::from(d);
        let (cas, greens) = close_range_effect(score);
        a.figures_at_start = Some(a.figures_at_start.unwrap_or(a.figures));
        a.figures = a.figures.saturating_sub(u16::from(cas)).max(1);
        a.greens += greens;
        (a, Some((d, score, cas, greens)))
    }

    /// The combat judged from the two d10s (and the guns' d6), casualty tests to come.
    #[inline(always)]
    fn verdict(&self, d6: Option<u8>, dice: &[u8; 2]) -> Verdict {
        let (attacker, guns_first) = self.after_guns(d6);
        let defender = &self.defender;
        let units = [&attacker, defender];
        let table = Table::of(attacker.arm, defender.arm);
        let cav_inf = table == Table::CavalryVsInfantry;
        let totals = [
            i32::from(dice[0]) + addition_total(&attacker, defender),
            i32::from(dice[1]) + addition_total(defender, &attacker),
        ];
        let scores = [totals[0] - totals[1], totals[1] - totals[0]];
        let bands = [Band::of(scores[0], cav_inf), Band::of(scores[1], cav_inf)];
        let rows = [table.row(units[0].arm, bands[0]), table.row(units[1].arm, bands[1])];
        // In the infantry table the winner by +4 takes a casualty test when the enemy withdraws
        // (rather than runs), and a pursuit test when it runs.
        let plus4 = |i: usize| (table == Table::InfantryVsInfantry) & (bands[i] == Band::Plus4);
        let (gun_casualties, gun_greens) = guns_first.map_or((0, 0), |(_, _, c, g)| (c, g));
        let effect = |i: usize| Effect {
            score: scores[i],
            band: bands[i],
            reaction: rows[i].reaction,
            greens: rows[i].greens + if i == 0 { gun_greens } else { 0 },
            casualties: rows[i].casualties + if i == 0 { gun_casualties } else { 0 },
            test_casualties: 0,
            pursuit_test: rows[i].pursuit_test | (plus4(i) & (rows[1 - i].reaction == Reaction::RunAway)),
        };
        let test = |i: usize| {
            let takes = rows[i].casualty_test | (plus4(i) & (rows[1 - i].reaction == Reaction::Withdraw));
            takes.then(|| self.test_throw(&attacker, i, rows[i].reaction.target_state()))
        };
        Verdict { table, effects: [effect(0), effect(1)], tests: [test(0), test(1)] }
    }

    /// The combat judged from the guns' d6 (if any) and the two d10s, the casualty tests' d10s
    /// filled in by `test_dice(counts, dice)`: `counts[0]` dice of the test against the
    /// attacker, then `counts[1]` of the test against the defender, in one throw.
    fn complete(
        &self,
        d6: Option<u8>,
        d10s: &[u8; 2],
        mut test_dice: impl FnMut([usize; 2], &mut [u8]) -> Result<(), CalcError>,
    ) -> Result<Resolution, CalcError> {
        let Verdict { table, mut effects, tests, .. } = self.verdict(d6, d10s);
        // `casualty_dice` gives at most MAX_TEST_DICE a test.
        let counts = tests.map(|t| t.map_or(0, |(n, _)| usize::from(n).min(MAX_TEST_DICE)));
        let mut thrown = [TestDice::default(); 2];
        if counts != [0, 0] {
            let mut buffer = [0u8; 2 * MAX_TEST_DICE];
            let dice = &mut buffer[..counts[0] + counts[1]];
            test_dice(counts, dice)?;
            let (mine, theirs) = dice.split_at(counts[0]);
            for (i, dice) in [mine, theirs].into_iter().enumerate() {
                if let Some((_, add)) = tests[i] {
                    thrown[i] = TestDice::of(dice);
                    let score = dice.iter().map(|&d| i32::from(d)).sum::<i32>() + add;
                    effects[i].test_casualties = casualties_for(score);
                }
            }
        }
        let [attacker, defender] = effects;
        Ok(Resolution {
            situation: self.clone(),
            d6,
            d10s: *d10s,
            test_dice: thrown,
            table,
            attacker,
            defender,
            pursuit_dice: [None; 2],
        })
    }

    /// Resolve the combat, drawing the guns' d6 (if the defender is a battery), the attacker's
    /// and the defender's d10, then each casualty test's d10s from `chance`; each draw's purpose
    /// names the side as `attacker` and `defender` say.
    pub fn resolve_named(
        &self,
        chance: &mut dyn Chance,
        attacker: &str,
        defender: &str,
    ) -> Result<Resolution, CalcError> {
        self.resolve_for(chance, &[attacker, defender])
    }

    /// [`Situation::resolve_named`] with the names of the attacker and the defender, in that
    /// order, behind one reference: only read when a purpose is written out.
    fn resolve_for(&self, chance: &mut dyn Chance, names: &[&str; 2]) -> Result<Resolution, CalcError> {
        let [attacker, defender] = names;
        self.check()?;
        let d6 =
            match self.defender.guns {
                Some(_) => Some(chance.draw(
                    &DrawKind::Die { sides: 6 },
                    &format_args!("{defender}'s guns' d6 (close range, firing first)"),
                )? as u8),
                None => None,
            };
        let mut d10s = [0u8; 2];
        chance.dice(10, &mut d10s, &|i, f| write!(f, "{}'s d10", names[i.min(1)]))?;
        self.complete(d6, &d10s, |counts, dice| {
            Ok(chance.dice(10, dice, &|k, f| {
                let (who, k, n) =
                    if k < counts[0] { (attacker, k, counts[0]) } else { (defender, k - counts[0], counts[1]) };
                write!(f, "casualty test against {who}: d10 {} of {n}", k + 1)
            })?)
        })
    }

    /// The result of a close combat with these dice: the guns' d6 if the defender is a battery,
    /// the attacker's and the defender's d10, then each casualty test's d10s.
    pub fn with_dice(&self, dice: &[u8]) -> Result<Resolution, CalcError> {
        self.check()?;
        let mut it = dice.iter().copied();
        let mut next = |sides: u8| -> Result<u8, CalcError> {
            let d = it.next().ok_or_else(|| CalcError::Invalid("too few dice".into()))?;
            if (1..=sides).contains(&d) {
                Ok(d)
            } else {
                Err(CalcError::Invalid(format!("{d} is not a face of a d{sides}")))
            }
        };
        let d6 = if self.defender.guns.is_some() { Some(next(6)?) } else { None };
        let (da, dd) = (next(10)?, next(10)?);
        let res = self.complete(d6, &[da, dd], |_, dice| {
            for d in dice {
                *d = next(10)?;
            }
            Ok(())
        })?;
        if it.next().is_some() {
            return Err(CalcError::Invalid("more dice given than the combat uses".into()));
        }
        Ok(res)
    }
}

/// The Old Fritz close-combat calculator.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combat;

impl Calculator for Combat {
    type Situation = Situation;
    type Resolution = Resolution;
    type Outcome = Outcome;

    fn resolve(&self, s: &Situation, chance: &mut dyn Chance) -> Result<Resolution, CalcError> {
        let mut r = s.resolve_for(chance, &["the attacker", "the defender"])?;
        r.throw_pursuit_tests(chance)?;
        Ok(r)
    }

    fn odds(&self, s: &Situation) -> Result<Vec<OutcomeProbability<Outcome>>, CalcError> {
        s.check()?;
        let d6s: Vec<Option<u8>> = if s.defender.guns.is_some() { (1..=6).map(Some).collect() } else { vec![None] };
        let p_d6 = 1.0 / d6s.len() as f64;
        let mut out: Vec<OutcomeProbability<Outcome>> = Vec::new();
        // The same tests recur across the 100 pairs of d10s: work each distribution out once.
        let mut known: Vec<((u8, i32), [f64; 4])> = Vec::new();
        let mut dist = |t: Option<(u8, i32)>| -> [f64; 4] {
            let Some(key) = t else { return [1.0, 0.0, 0.0, 0.0] };
            if let Some((_, d)) = known.iter().find(|(k, _)| *k == key) {
                return *d;
            }
            let d = casualty_odds(key.0, key.1);
            known.push((key, d));
            d
        };
        for &d6 in &d6s {
            for da in 1..=10u8 {
                for dd in 1..=10u8 {
                    let v = s.verdict(d6, &[da, dd]);
                    let p = p_d6 / 100.0;
                    let (pa, pd) = (dist(v.tests[0]), dist(v.tests[1]));
                    for (ca, &qa) in pa.iter().enumerate() {
                        for (cd, &qd) in pd.iter().enumerate() {
                            let q = p * qa * qd;
                            if q == 0.0 {
                                continue;
                            }
                            let o = Outcome {
                                attacker_band: v.effects[0].band,
                                defender_band: v.effects[1].band,
                                attacker_test_casualties: ca as u8,
                                defender_test_casualties: cd as u8,
                            };
                            add_outcome(&mut out, o, q);
                        }
                    }
                }
            }
        }
        most_likely_first(&mut out);
        Ok(out)
    }
}

impl fmt::Display for Resolution {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.table.name())?;
        if let Some(g) = self.guns_words() {
            writeln!(f, "  the battery fires first at close range: {g}")?;
        }
        let guns = self.guns_first().map(|(_, _, c, g)| (c, g));
        let [attacker, defender] = self.sides();
        let firers: Vec<String> = std::iter::once("the leading battalion".to_string())
            .chain((0..self.situation.attacker_group.len()).map(|k| format!("battalion {} of the group", k + 2)))
            .collect();
        for (who, s, enemy, guns, firers) in [
            ("attacker", &attacker, defender.total, guns, Vec::new()),
            ("defender", &defender, attacker.total, None, firers),
        ] {
            writeln!(f, "  {who}: {}", s.words(self.table, enemy, guns, &firers))?;
            writeln!(f, "    {}", s.note)?;
            match &s.pursuit {
                Some(p) => writeln!(f, "    {p}")?,
                // (A battery does not pursue: its guns would have to limber first.)
                None if s.pursuit_test && s.arm == Arm::Artillery => {
                    writeln!(f, "    a battery does not pursue: no pursuit test")?
                }
                None if s.pursuit_test => writeln!(f, "    a pursuit test is due")?,
                None => {}
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(arm: Arm, quality: Quality) -> Unit {
        let figures = if arm == Arm::Artillery { MAX_BATTERY } else { 12 };
        Unit::new(arm, (arm == Arm::Cavalry).then_some(Cavalry::Dragoons), quality, figures)
    }

    #[test]
    fn bands_follow_the_score() {
        let b = |s| Band::of(s, false);
        assert_eq!(
            [b(9), b(4), b(3), b(1), b(0), b(-1), b(-7), b(-8), b(-15), b(-16)],
            [
                Band::Plus4,
                Band::Plus4,
                Band::Plus1To3,
                Band::Plus1To3,
                Band::Zero,
                Band::Minus1To7,
                Band::Minus1To7,
                Band::Minus8To15,
                Band::Minus8To15,
                Band::Minus16
            ]
        );
        assert_eq!(Band::of(0, true), Band::Plus1To3, "cavalry against infantry: 0 to +3");
    }

    #[test]
    fn additions_come_from_the_table() {
        let mut me = unit(Arm::Cavalry, Quality::B);
        me.cavalry = Some(Cavalry::Hussars);
        me.figures = 8;
        me.figures_at_start = Some(10);
        me.greens = 1;
        me.tactical_advantage = 2;
        let enemy = unit(Arm::Infantry, Quality::D);
        let a = additions(&me, &enemy);
        let sum: i32 = a.iter().map(|x| x.value).sum();
        // Outnumbered (12 to 8): -1; 20% lost: -4; a green: -3; +2 advantage; B over D: +4;
        // hussars against infantry: -3.
        assert_eq!(sum, -1 - 4 - 3 + 2 + 4 - 3, "{a:?}");
        let mut few = unit(Arm::Infantry, Quality::D);
        few.figures = 4;
        assert!(additions(&few, &enemy).iter().any(|x| x.value == OUTNUMBERED_3_TO_1));
    }

    #[test]
    fn the_casualty_test_reads_the_firer_quality_and_state() {
        let a = unit(Arm::Infantry, Quality::A);
        assert_eq!(casualty_addition(&a, TargetState::Standing, false), 4);
        let mut g = unit(Arm::Infantry, Quality::G);
        g.greens = 1;
        assert_eq!(casualty_addition(&g, TargetState::Routing, true), -3 - 2 - 2);
        assert_eq!(
            [casualties_for(4), casualties_for(5), casualties_for(14), casualties_for(15), casualties_for(25)],
            [0, 1, 1, 2, 3]
        );
        assert_eq!(casualty_dice(12), 2);
        let p = casualty_odds(2, 0);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        // Two d10 score 2 to 20: under 5 is 2, 3 or 4: 6 of 100.
        assert!((p[0] - 0.06).abs() < 1e-12);
    }

    #[test]
    fn odds_sum_to_one_and_match_brute_force() {
        let mut s = Situation::new(unit(Arm::Infantry, Quality::C), unit(Arm::Artillery, Quality::D));
        s.defender.guns = Some(Guns { heavy: false, gunners_lost: 0 });
        s.defender.in_cover = true;
        let odds = Combat.odds(&s).unwrap();
        assert!((odds.iter().map(|o| o.probability).sum::<f64>() - 1.0).abs() < 1e-12);
        // Brute force: every d6, both d10 and every casualty-test die, one by one.
        // Counted in whole ways out of 6 x 100 x 10^4 (at most four test dice here), and divided
        // once at the end: adding up a hundred thousand small fractions would itself err.
        const MOST_TEST_DICE: u32 = 4;
        let mut tally: Vec<(Outcome, u64)> = Vec::new();
        for d6 in 1..=6u8 {
            for da in 1..=10u8 {
                for dd in 1..=10u8 {
                    let tests = s.verdict(Some(d6), &[da, dd]).tests;
                    let n = tests.iter().map(|t| t.map_or(0, |x| usize::from(x.0))).sum::<usize>();
                    assert!(n as u32 <= MOST_TEST_DICE);
                    let ways = 10u64.pow(MOST_TEST_DICE - n as u32);
                    let mut extra = vec![1u8; n];
                    loop {
                        let mut dice = vec![d6, da, dd];
                        dice.extend(&extra);
                        let r = s.with_dice(&dice).unwrap();
                        let o = Outcome {
                            attacker_band: r.attacker.band,
                            defender_band: r.defender.band,
                            attacker_test_casualties: r.attacker.test_casualties,
                            defender_test_casualties: r.defender.test_casualties,
                        };
                        match tally.iter_mut().find(|t| t.0 == o) {
                            Some(t) => t.1 += ways,
                            None => tally.push((o, ways)),
                        }
                        let mut i = 0;
                        while i < n && extra[i] == 10 {
                            extra[i] = 1;
                            i += 1;
                        }
                        if i == n {
                            break;
                        }
                        extra[i] += 1;
                    }
                }
            }
        }
        assert_eq!(tally.len(), odds.len());
        let total = 600 * 10u64.pow(MOST_TEST_DICE);
        for (o, ways) in tally {
            let p = ways as f64 / total as f64;
            let q = odds.iter().find(|x| x.outcome == o).unwrap().probability;
            assert!((p - q).abs() < 1e-12, "{o:?}: {p} vs {q}");
        }
    }

    #[test]
    fn whole_tenths_are_the_quotient_rounded_down() {
        for of in 1..=300u32 {
            for part in 0..=of {
                // The most tenths of `of` that `part` holds, counted.
                let counted = (0..=10u32).filter(|&k| k * of <= 10 * part).count() as i32 - 1;
                assert_eq!(whole_tenths(part, of), counted, "{part} of {of}");
            }
        }
    }

    #[test]
    fn test_dice_are_kept_as_thrown() {
        for n in [0usize, 1, 2, 15, 16, 17, MAX_TEST_DICE] {
            let dice: Vec<u8> = (0..n).map(|k| (k * 7 % 10 + 1) as u8).collect();
            assert_eq!(&*TestDice::of(&dice).dice(), &dice[..], "{n} dice");
        }
        let too_many = [10u8; MAX_TEST_DICE + 3];
        assert_eq!(TestDice::of(&too_many).dice().len(), MAX_TEST_DICE);
    }

    #[test]
    fn a_resolution_counts_the_dice_it_threw() {
        let mut battery = unit(Arm::Artillery, Quality::C);
        battery.figures = 6;
        battery.guns = Some(Guns { heavy: false, gunners_lost: 0 });
        let s = Situation::new(unit(Arm::Infantry, Quality::C), battery);
        let mut rng = volley_chance::Seeded::new(3);
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..500 {
            let mut rec = volley_chance::Recorder::new(&mut rng);
            let r = Combat.resolve(&s, &mut rec).unwrap();
            assert_eq!(r.dice_thrown(), rec.draws.len());
            seen.insert(rec.draws.len());
        }
        assert!(seen.len() > 1, "tests taken and not: {seen:?}");
    }

    #[test]
    /// Issue 29 (player round 3): the desk threw no pursuit test ("a pursuit test is due").
    /// Cuirassiers B beat infantry D by +4 or more: the cavalry's pursuit test is thrown after the
    /// combat's dice, d10 − 1 for quality B, 2 or more to stay under control.
    fn the_desk_throws_the_pursuit_test_the_table_calls_for() {
        let situation: Situation = serde_json::from_str(
            r#"{ "attacker": { "arm": "cavalry", "cavalry": "cuirassiers", "quality": "B", "figures": 10 },
                 "defender": { "arm": "infantry", "quality": "D", "figures": 12, "greens": 1 } }"#,
        )
        .unwrap();
        for (die, kept) in [(1u32, false), (2, false), (3, true), (10, true)] {
            let mut dice = volley_chance::Scripted::new([10, 1, die]);
            let r = Combat.resolve(&situation, &mut dice).unwrap();
            let [a, d] = r.sides();
            assert!(a.pursuit_test && !d.pursuit_test);
            let p = a.pursuit.expect("thrown");
            assert_eq!((p.die, p.total, p.needs, p.under_control), (die as u8, die as i32 - 1, 2, kept));
            let text = r.to_string();
            assert!(text.contains(&format!("pursuit test: d10 {die} -1 (quality B) = {}", die as i32 - 1)), "{text}");
            assert_eq!(text.contains("it pursues"), !kept, "{text}");
            assert!(!text.contains("is due"), "{text}");
        }
        // The battle's own resolution throws none (its test follows the unit's orders).
        let r = situation.resolve_named(&mut volley_chance::Scripted::new([10, 1]), "a", "d").unwrap();
        assert!(r.sides()[0].pursuit.is_none() && r.to_string().contains("a pursuit test is due"));
    }

    #[test]
    fn impossible_situations_are_refused_with_the_field_named() {
        let why = |a: Unit, d: Unit| Combat.odds(&Situation::new(a, d)).unwrap_err().to_string();
        let mut a = unit(Arm::Infantry, Quality::C);
        a.figures_at_start = Some(10);
        assert!(why(a, unit(Arm::Infantry, Quality::C)).contains("12 figures, more than its 10 at the start"));
        let mut guns = unit(Arm::Artillery, Quality::C);
        guns.figures = 40;
        assert!(why(unit(Arm::Infantry, Quality::C), guns).contains("a battery has 6 guns or fewer, found 40"));
        let mut guns = unit(Arm::Artillery, Quality::C);
        guns.figures = 4;
        guns.guns = Some(Guns { heavy: false, gunners_lost: 5 });
        assert!(why(unit(Arm::Infantry, Quality::C), guns).contains("5 gunners lost and 4 left"));
        let mut horde = unit(Arm::Infantry, Quality::C);
        horde.figures = 200;
        assert!(
            why(horde, unit(Arm::Infantry, Quality::C)).contains("200 figures: at most 122 fire one casualty test")
        );
        // At the limit, the test throws its 20 dice.
        assert_eq!(casualty_dice(MAX_FIRING_FIGURES), 20);
    }

    #[test]
    fn a_grouping_adds_up_each_battalions_own_score() {
        // Second reading OF-43: A1 (C, 12 figures) leads A2 (E, 12, a green before the combat)
        // against B (D, 12). 5 + 2 (C over D) against 4 - 3 (B outnumbered 2 to 1): +6 / -6, B
        // withdraws and takes the grouping's test: A1 2d10 + 1 (C, withdrawing), A2 2d10 + 0
        // (E/F, withdrawing) - 2 (its green): dice 5 3 and 4 4, 8 + 1 + 8 - 2 = 15: two
        // casualties (with A1's quality and greens for all four dice it would be 16 + 1 = 17;
        // with A2's green charged to both, 13: one).
        let mut s = Situation::new(unit(Arm::Infantry, Quality::C), unit(Arm::Infantry, Quality::D));
        s.attacker.figures = 24;
        s.attacker_group = vec![Battalion { quality: Quality::E, figures: 12, greens: 1 }];
        let r = s.with_dice(&[5, 4, 1, 1, 5, 3, 4, 4]).unwrap();
        let [_, b] = r.sides();
        assert_eq!(b.band, Band::Minus1To7);
        assert_eq!(b.casualty_test.as_ref().map(|t| (t.0.len(), t.1)), Some((4, 15)));
        assert_eq!(r.defender.test_casualties, 2);
        // The odds agree with the grouping's dice and additions.
        let odds = Combat.odds(&s).unwrap();
        assert!((odds.iter().map(|o| o.probability).sum::<f64>() - 1.0).abs() < 1e-12);
        // A group whose other battalions hold all the figures is refused.
        s.attacker.figures = 12;
        assert!(Combat.odds(&s).unwrap_err().to_string().contains("the whole grouping's"));
    }

    #[test]
    fn the_casualty_test_column_is_the_state_of_the_unit_fired_upon() {
        // Infantry A and B, both quality C, dice 9 and 4: A +5, B -5. B withdraws and takes a
        // casualty test thrown by A: C's row, B's column (withdrawing): +1 (the firer's own
        // state, standing, would give +2). A, unaffected, takes one thrown by the withdrawing B:
        // C's row, A's column (standing): +2 (the firer's state would give +1). Test dice: 1 1
        // against A, 1 1 against B.
        let s = Situation::new(unit(Arm::Infantry, Quality::C), unit(Arm::Infantry, Quality::C));
        let r = s.with_dice(&[9, 4, 1, 1, 1, 1]).unwrap();
        let [a, b] = r.sides();
        assert_eq!((a.band, b.band), (Band::Plus4, Band::Minus1To7));
        assert_eq!(b.casualty_test.as_ref().map(|t| t.1), Some(1 + 1 + 1), "C's row, withdrawing column");
        assert_eq!(a.casualty_test.as_ref().map(|t| t.1), Some(1 + 1 + 2), "C's row, standing column");
        // A runner is read in the Routing column (a pursued runner's test in the battle).
        assert_eq!(casualty_addition(&unit(Arm::Infantry, Quality::A), Reaction::RunAway.target_state(), false), 1);
    }

    #[test]
    fn the_battery_fires_first_at_close_range() {
        let mut s = Situation::new(unit(Arm::Infantry, Quality::D), unit(Arm::Artillery, Quality::D));
        s.defender.guns = Some(Guns { heavy: true, gunners_lost: 0 });
        // Heavy: 2 - d6 1 = 1: two casualties and a green on the attacker before the d10s.
        // Then the d10s: the attacker 5 - 2 (2 of 12 lost) - 3 (the green) = 0, the battery of 6
        // against 10 figures 5 - 1 (outnumbered) = 4: -4 and +4. The withdrawing attacker takes
        // a casualty test thrown by the battery (6 gunners: 1 die), and the battery (+4, its
        // enemy withdrawing) one thrown by the attacker (10 figures: 2 dice).
        let r = s.with_dice(&[1, 5, 5, 1, 1, 1]).unwrap();
        let [attacker, defender] = r.sides();
        assert_eq!(attacker.casualty_test.as_ref().map(|t| t.0.len()), Some(1));
        assert_eq!(defender.casualty_test.as_ref().map(|t| t.0.len()), Some(2));
        assert_eq!(r.guns_first(), Some((1, 1, 2, 1)));
        assert!(attacker.additions.iter().any(|a| a.value == EACH_GREEN), "{:?}", attacker.additions);
        // The attacker scores -4: -1 to -7, withdraw.
        assert_eq!(r.attacker.score, -4);
        assert_eq!(r.attacker.band, Band::Minus1To7);
        assert_eq!(attacker.band, Band::Minus1To7);
        // The guns' two casualties and green are on the attacker, beside its row's.
        let row = Table::InfantryVsInfantry.row(Arm::Infantry, Band::Minus1To7);
        assert_eq!((r.attacker.casualties, r.attacker.greens), (row.casualties + 2, row.greens + 1));
    }
}

#[cfg(test)]
mod die_faces {
    use super::die_face;

    // The bombardment's die is shown as a die.
    #[test]
    fn a_d6_is_shown_by_its_face() {
        assert_eq!(["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"].to_vec(), (1..=6).map(die_face).collect::<Vec<_>>());
        assert_eq!(die_face(7), "7");
    }
}
