//! The unit table, as data: each type's movement rates, firing range and numbers, and melee and
//! morale numbers on charts A–E. `None` stands for the table's `~` (not allowed).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A chart of the table, from the best (A) to the worst (E).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
pub enum Chart {
    /// Chart A.
    A,
    /// Chart B.
    B,
    /// Chart C, where chart differences start.
    C,
    /// Chart D.
    D,
    /// Chart E.
    E,
}

/// The chart's letter, as the text names it.
impl std::fmt::Display for Chart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Chart::A => "A",
            Chart::B => "B",
            Chart::C => "C",
            Chart::D => "D",
            Chart::E => "E",
        })
    }
}

impl Chart {
    /// Every chart, A to E.
    pub const ALL: [Chart; 5] = [Chart::A, Chart::B, Chart::C, Chart::D, Chart::E];

    /// Its column in the table, 0 (A) to 4 (E).
    pub fn index(self) -> usize {
        self as usize
    }

    /// Levels up from chart C: A +2, B +1, C 0, D −1, E −2.
    pub fn levels(self) -> i32 {
        2 - self as i32
    }

    /// The chart `levels` up from C (down if negative), kept within A to E.
    pub fn from_levels(levels: i32) -> Chart {
        Chart::ALL[(2 - levels).clamp(0, 4) as usize]
    }

    /// The chart reached from C by the net difference of `charts` (each counted as its levels
    /// from C), as the text's chart differences are worked out.
    pub fn net(charts: impl IntoIterator<Item = Chart>) -> Chart {
        Chart::from_levels(charts.into_iter().map(Chart::levels).sum())
    }

    /// The chart of `hits` cumulative hits, for a morale test: A 1–4, B 5–8, C 9–10, D 11–12,
    /// E 13 or more (and A for none: see the register).
    pub fn of_hits(hits: u32) -> Chart {
        match hits {
            0..=4 => Chart::A,
            5..=8 => Chart::B,
            9..=10 => Chart::C,
            11..=12 => Chart::D,
            _ => Chart::E,
        }
    }
}

/// The arm a type belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Guns.
    Artillery,
}

/// A unit type of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum UnitType {
    /// Grenadiers or Guards.
    Grenadiers,
    /// Musketeers and fusiliers.
    Musketeers,
    /// Garrison troops.
    Garrison,
    /// Jägers, Croats and irregulars.
    Jagers,
    /// Irregular light cavalry (Cossacks).
    Cossacks,
    /// Cuirassiers.
    Cuirassiers,
    /// Dragoons.
    Dragoons,
    /// Hussars.
    Hussars,
    /// Heavy howitzer (10 lbs.).
    HeavyHowitzer,
    /// Medium howitzer (6–9 lbs.).
    MediumHowitzer,
    /// Light howitzer (3–4 lbs.).
    LightHowitzer,
    /// Heavy artillery (over 9 lbs.).
    HeavyArtillery,
    /// Medium artillery (6–8 lbs.).
    MediumArtillery,
    /// Light artillery (3–4 lbs.).
    LightArtillery,
    /// Horse artillery.
    HorseArtillery,
}

/// A firing number: a musket's, or a gun's at short and long range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FireNumber {
    /// One number (infantry, cavalry).
    One(u8),
    /// Short range / long range (the table's `8/4'`).
    Gun(u8, u8),
}

/// One row of the unit table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Profile {
    /// The table's name for it.
    pub name: &'static str,
    /// Its arm.
    pub arm: Arm,
    /// March (column of march) rate, inches.
    pub march: Option<f64>,
    /// Skirmish rate.
    pub skirmish: Option<f64>,
    /// Column rate.
    pub column: Option<f64>,
    /// Line rate.
    pub line: Option<f64>,
    /// Charge bonus, inches.
    pub charge: Option<f64>,
    /// Its charge cell is the table's `~` (not allowed: jägers, Cossacks) rather than blank (the
    /// guns), when it has no charge bonus: for the words of a refusal.
    pub charge_tilde: bool,
    /// Firing range: short, and long if it has two.
    pub range: Option<(f64, Option<f64>)>,
    /// Firing numbers on charts A–E.
    pub fire: [Option<FireNumber>; 5],
    /// Melee numbers on charts A–E.
    pub melee: [Option<u8>; 5],
    /// Morale numbers on charts A–E.
    pub morale: [u8; 5],
}

const fn one(n: [u8; 5]) -> [Option<FireNumber>; 5] {
    [
        Some(FireNumber::One(n[0])),
        Some(FireNumber::One(n[1])),
        Some(FireNumber::One(n[2])),
        Some(FireNumber::One(n[3])),
        Some(FireNumber::One(n[4])),
    ]
}

const fn guns(short: [u8; 5], long: [u8; 5]) -> [Option<FireNumber>; 5] {
    [
        Some(FireNumber::Gun(short[0], long[0])),
        Some(FireNumber::Gun(short[1], long[1])),
        Some(FireNumber::Gun(short[2], long[2])),
        Some(FireNumber::Gun(short[3], long[3])),
        Some(FireNumber::Gun(short[4], long[4])),
    ]
}

const fn some(n: [u8; 5]) -> [Option<u8>; 5] {
    [Some(n[0]), Some(n[1]), Some(n[2]), Some(n[3]), Some(n[4])]
}

const HOWITZER_FIRE: [Option<FireNumber>; 5] = guns([8, 7, 6, 5, 4], [4, 3, 2, 2, 2]);
const GUN_FIRE: [Option<FireNumber>; 5] = guns([7, 6, 5, 4, 3], [5, 4, 3, 2, 1]);
const GUN_MELEE: [Option<u8>; 5] = some([6, 3, 2, 1, 1]);
const GUN_MORALE: [u8; 5] = [9, 7, 5, 3, 1];

const fn gun(
    name: &'static str,
    march: f64,
    line: f64,
    short: f64,
    long: f64,
    fire: [Option<FireNumber>; 5],
) -> Profile {
    Profile {
        name,
        arm: Arm::Artillery,
        march: Some(march),
        skirmish: None,
        column: None,
        line: Some(line),
        charge: None,
        charge_tilde: false,
        range: Some((short, Some(long))),
        fire,
        melee: GUN_MELEE,
        morale: GUN_MORALE,
    }
}

/// The table, row by row, in the text's order.
pub const TABLE: [(UnitType, Profile); 15] = [
    (
        UnitType::Grenadiers,
        Profile {
            name: "Grenadiers/Guards",
            arm: Arm::Infantry,
            march: Some(14.0),
            skirmish: None,
            column: Some(12.0),
            line: Some(10.0),
            charge: Some(2.0),
            charge_tilde: false,
            range: Some((10.0, None)),
            fire: one([9, 7, 6, 5, 3]),
            melee: some([9, 7, 6, 5, 3]),
            morale: [9, 8, 7, 5, 3],
        },
    ),
    (
        UnitType::Musketeers,
        Profile {
            name: "Musketeers & Fusiliers",
            arm: Arm::Infantry,
            march: Some(12.0),
            skirmish: None,
            column: Some(10.0),
            line: Some(8.0),
            charge: Some(2.0),
            charge_tilde: false,
            range: Some((8.0, None)),
            fire: one([8, 6, 5, 4, 2]),
            melee: some([8, 6, 5, 4, 2]),
            morale: [8, 7, 5, 4, 2],
        },
    ),
    (
        UnitType::Garrison,
        Profile {
            name: "Garrison Troops",
            arm: Arm::Infantry,
            march: Some(10.0),
            skirmish: None,
            column: Some(8.0),
            line: Some(6.0),
            charge: Some(1.0),
            charge_tilde: false,
            range: Some((8.0, None)),
            fire: one([7, 5, 4, 3, 1]),
            melee: some([7, 5, 4, 3, 1]),
            morale: [7, 6, 4, 3, 1],
        },
    ),
    (
        UnitType::Jagers,
        Profile {
            name: "Jagers/Croats & Irregulars",
            arm: Arm::Infantry,
            march: Some(20.0),
            skirmish: Some(16.0),
            column: None,
            line: Some(6.0),
            charge: None,
            charge_tilde: true,
            range: Some((16.0, Some(12.0))),
            fire: one([6, 4, 3, 2, 1]),
            melee: some([5, 4, 3, 2, 1]),
            morale: [7, 5, 3, 1, 1],
        },
    ),
    (
        UnitType::Cossacks,
        Profile {
            name: "Irregular Light Cavalry (Cossacks)",
            arm: Arm::Cavalry,
            march: None,
            skirmish: Some(24.0),
            column: None,
            line: None,
            charge: None,
            charge_tilde: true,
            range: Some((4.0, None)),
            fire: [Some(FireNumber::One(3)), Some(FireNumber::One(2)), Some(FireNumber::One(1)), None, None],
            melee: some([7, 5, 4, 3, 2]),
            morale: [7, 5, 3, 1, 1],
        },
    ),
    (
        UnitType::Cuirassiers,
        Profile {
            name: "Cuirassiers",
            arm: Arm::Cavalry,
            march: Some(18.0),
            skirmish: None,
            column: Some(16.0),
            line: Some(14.0),
            charge: Some(4.0),
            charge_tilde: false,
            range: None,
            fire: [None; 5],
            melee: some([9, 8, 7, 6, 4]),
            morale: [9, 8, 7, 5, 3],
        },
    ),
    (
        UnitType::Dragoons,
        Profile {
            name: "Dragoons",
            arm: Arm::Cavalry,
            march: Some(20.0),
            skirmish: None,
            column: Some(18.0),
            line: Some(16.0),
            charge: Some(4.0),
            charge_tilde: false,
            range: None,
            fire: [None; 5],
            melee: some([8, 7, 6, 5, 3]),
            morale: [9, 7, 5, 3, 2],
        },
    ),
    (
        UnitType::Hussars,
        Profile {
            name: "Hussars",
            arm: Arm::Cavalry,
            march: Some(28.0),
            skirmish: Some(24.0),
            column: Some(22.0),
            line: Some(20.0),
            charge: Some(6.0),
            charge_tilde: false,
            range: Some((4.0, None)),
            fire: [
                Some(FireNumber::One(3)),
                Some(FireNumber::One(3)),
                Some(FireNumber::One(2)),
                Some(FireNumber::One(1)),
                None,
            ],
            melee: some([7, 6, 5, 4, 2]),
            morale: [8, 6, 4, 2, 1],
        },
    ),
    (UnitType::HeavyHowitzer, gun("Heavy Howitzer (10 lbs.)", 8.0, 1.0, 10.0, 48.0, HOWITZER_FIRE)),
    (UnitType::MediumHowitzer, gun("Medium Howitzer (6-9 lbs.)", 10.0, 2.0, 8.0, 36.0, HOWITZER_FIRE)),
    (UnitType::LightHowitzer, gun("Light Howitzer (3-4 lbs.)", 12.0, 3.0, 6.0, 24.0, HOWITZER_FIRE)),
    (UnitType::HeavyArtillery, gun("Heavy Artillery (over 9 lbs.)", 8.0, 1.0, 10.0, 48.0, GUN_FIRE)),
    (UnitType::MediumArtillery, gun("Medium Artillery (6-8 lbs.)", 10.0, 2.0, 8.0, 36.0, GUN_FIRE)),
    (UnitType::LightArtillery, gun("Light Artillery (3-4 lbs.)", 12.0, 3.0, 6.0, 24.0, GUN_FIRE)),
    (UnitType::HorseArtillery, gun("Horse Artillery", 16.0, 3.0, 6.0, 16.0, GUN_FIRE)),
];

/// Whether a unit of `arm` with `figures` left, `figures_per_stand` a stand, is removed by its
/// losses: down to 1 stand of foot or 2 of horse (a part-filled stand counting), a battery when its
/// last gunner is gone (the text names foot and horse).
pub fn worn_out(arm: Arm, figures: u32, figures_per_stand: u32) -> bool {
    let stands = figures.div_ceil(figures_per_stand.max(1));
    stands
        <= match arm {
            Arm::Cavalry => 2,
            Arm::Infantry => 1,
            Arm::Artillery => 0,
        }
}

impl Profile {
    /// Why a type without a charge bonus may not charge, by its cell in the table: `~`, or blank.
    pub fn no_charge_words(&self) -> String {
        if self.charge_tilde {
            format!("{} do not charge (the table's `~`)", self.name)
        } else {
            format!("{} do not charge (the table gives them no charge bonus: the cell is blank)", self.name)
        }
    }
}

impl UnitType {
    /// Its row of the table.
    pub fn profile(self) -> &'static Profile {
        // Every type has its row: the table is in the order of the enum.
        &TABLE[self as usize].1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_in_the_types_order_and_reads_as_printed() {
        for (i, (t, _)) in TABLE.iter().enumerate() {
            assert_eq!(*t as usize, i, "{t:?}");
        }
        let m = UnitType::Musketeers.profile();
        assert_eq!((m.march, m.column, m.line, m.charge), (Some(12.0), Some(10.0), Some(8.0), Some(2.0)));
        assert_eq!(m.fire[Chart::C.index()], Some(FireNumber::One(5)));
        assert_eq!(m.morale, [8, 7, 5, 4, 2]);
        // `~`: cuirassiers do not fire; Cossacks have no D or E fire; hussars no E.
        assert!(UnitType::Cuirassiers.profile().fire.iter().all(Option::is_none));
        assert_eq!(UnitType::Cossacks.profile().fire[Chart::D.index()], None);
        assert_eq!(UnitType::Hussars.profile().fire[Chart::E.index()], None);
        // The guns' `8/4'` cells: short / long.
        assert_eq!(UnitType::HeavyHowitzer.profile().fire[Chart::A.index()], Some(FireNumber::Gun(8, 4)));
        assert_eq!(UnitType::LightArtillery.profile().fire[Chart::E.index()], Some(FireNumber::Gun(3, 1)));
        assert_eq!(UnitType::HorseArtillery.profile().range, Some((6.0, Some(16.0))));
        assert_eq!(UnitType::Jagers.profile().range, Some((16.0, Some(12.0))));
        // No charge: `~` for jägers and Cossacks, a blank cell for every gun.
        for t in [UnitType::Jagers, UnitType::Cossacks] {
            assert!(t.profile().no_charge_words().contains("`~`"), "{t:?}");
        }
        for (t, p) in TABLE.iter().filter(|(_, p)| p.arm == Arm::Artillery) {
            assert!(p.charge.is_none(), "{t:?}");
            let why = p.no_charge_words();
            assert!(why.contains("blank") && !why.contains('~'), "{t:?}: {why}");
        }
    }

    #[test]
    fn chart_differences_start_at_c() {
        // The text's example: A is two levels up, D one down: net one up, chart B.
        assert_eq!(Chart::net([Chart::A, Chart::D]), Chart::B);
        assert_eq!(Chart::net([]), Chart::C);
        assert_eq!(Chart::net([Chart::A, Chart::A]), Chart::A, "no higher than A");
        assert_eq!(Chart::net([Chart::E, Chart::D]), Chart::E, "no lower than E");
        assert_eq!(
            [1, 4, 5, 8, 9, 10, 11, 12, 13, 40].map(Chart::of_hits),
            [Chart::A, Chart::A, Chart::B, Chart::B, Chart::C, Chart::C, Chart::D, Chart::D, Chart::E, Chart::E]
        );
    }
}
