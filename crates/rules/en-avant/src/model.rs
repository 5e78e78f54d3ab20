//! The troops on the table: kinds, formations with their movement rates and densities, the
//! turns a change of formation takes, and the bases' sizes.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_table::Point;

use crate::tables::{Arm, Density, FireKind, rates};

/// A kind of unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A battalion of the line: six bases and two of skirmishers (integral).
    Infantry,
    /// Light infantry: a loose target in any formation but square and columns.
    LightInfantry,
    /// A British rifle company working ahead of the line: fires as rifles.
    RifleCompany,
    /// A cavalry regiment: four bases in two sub-groups, each with its own status.
    Cavalry,
    /// A foot battery: two bases.
    Artillery,
    /// A horse battery: two bases, 50 cm limbered.
    HorseArtillery,
}

impl Kind {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Infantry => "battalion",
            Kind::LightInfantry => "light battalion",
            Kind::RifleCompany => "rifle company",
            Kind::Cavalry => "cavalry regiment",
            Kind::Artillery => "battery",
            Kind::HorseArtillery => "horse battery",
        }
    }

    /// Its arm.
    pub fn arm(self) -> Arm {
        match self {
            Kind::Infantry | Kind::LightInfantry | Kind::RifleCompany => Arm::Infantry,
            Kind::Cavalry => Arm::Cavalry,
            Kind::Artillery | Kind::HorseArtillery => Arm::Artillery,
        }
    }

    /// The formations it may take.
    pub fn formations(self) -> &'static [Formation] {
        use Formation::*;
        match self {
            Kind::Infantry | Kind::LightInfantry => &[Line, AssaultColumn, MarchColumn, Square],
            Kind::RifleCompany => &[Line],
            Kind::Cavalry => &[CavalryLine, CavalryColumn],
            Kind::Artillery | Kind::HorseArtillery => &[Limbered, Deployed],
        }
    }
}

/// How a unit stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// Infantry in line.
    Line,
    /// Infantry in assault (attack) column.
    AssaultColumn,
    /// Infantry in march column.
    MarchColumn,
    /// Infantry in square: four bases.
    Square,
    /// Cavalry in line: the two sub-groups side by side.
    CavalryLine,
    /// Cavalry in column: the second sub-group 20 cm behind the first.
    CavalryColumn,
    /// Artillery limbered.
    Limbered,
    /// Artillery deployed.
    Deployed,
}

impl Formation {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::AssaultColumn => "assault column",
            Formation::MarchColumn => "march column",
            Formation::Square => "square",
            Formation::CavalryLine => "line",
            Formation::CavalryColumn => "column",
            Formation::Limbered => "limbered",
            Formation::Deployed => "deployed",
        }
    }
}

/// The movement rate of `kind` in `formation`, centimetres a turn (0: it does not move).
pub fn rate(kind: Kind, formation: Formation) -> f64 {
    match (kind, formation) {
        (_, Formation::Line) => rates::INFANTRY_LINE,
        (_, Formation::AssaultColumn | Formation::MarchColumn) => rates::INFANTRY_COLUMN,
        (_, Formation::Square | Formation::Deployed) => 0.0,
        (_, Formation::CavalryLine) => rates::CAVALRY_LINE,
        (_, Formation::CavalryColumn) => rates::CAVALRY_COLUMN,
        (Kind::HorseArtillery, Formation::Limbered) => rates::HORSE_ARTILLERY_LIMBERED,
        (_, Formation::Limbered) => rates::ARTILLERY_LIMBERED,
    }
}

/// The target density of `kind` in `formation`.
pub fn density(kind: Kind, formation: Formation) -> Density {
    match (kind.arm(), formation) {
        (Arm::Cavalry, _) => Density::Dense,
        (_, Formation::Square | Formation::AssaultColumn | Formation::MarchColumn | Formation::Limbered) => {
            Density::Dense
        }
        _ => Density::Loose,
    }
}

/// The text's illustrative times: turns to change from one formation into another (`None`: not
/// in the table; an infantry line's about face is [`ABOUT_FACE_TURNS`]).
pub fn change_turns(from: Formation, to: Formation) -> Option<u8> {
    use Formation::*;
    Some(match (from, to) {
        (MarchColumn, Line) => 3,
        (AssaultColumn, Line) => 2,
        (Line, MarchColumn) => 3,
        (Line, AssaultColumn) => 2,
        (AssaultColumn | MarchColumn | Line, Square) => 1,
        (CavalryColumn, CavalryLine) | (CavalryLine, CavalryColumn) => 2,
        (Limbered, Deployed) | (Deployed, Limbered) => 1,
        _ => return None,
    })
}

/// Turns an infantry line takes to face about.
pub const ABOUT_FACE_TURNS: u8 = 2;

/// A base's frontage in centimetres: infantry 6, cavalry 8 (the text's), artillery 6 (not given:
/// as infantry).
pub fn base_frontage(arm: Arm) -> f64 {
    match arm {
        Arm::Cavalry => 8.0,
        _ => 6.0,
    }
}

/// A base's depth in centimetres (the text: "as narrow as possible"; the engine's 2 cm foot, 4 cm
/// horse and guns).
pub fn base_depth(arm: Arm) -> f64 {
    match arm {
        Arm::Infantry => 2.0,
        _ => 4.0,
    }
}

/// Bases abreast and deep of a unit of `kind` in `formation` (infantry: the six close-order
/// bases; square: four).
pub fn layout(kind: Kind, formation: Formation) -> (u8, u8) {
    match (kind, formation) {
        (Kind::RifleCompany, _) => (1, 1),
        (_, Formation::Line) => (6, 1),
        (_, Formation::AssaultColumn) => (2, 3),
        (_, Formation::MarchColumn) => (1, 6),
        (_, Formation::Square) => (2, 2),
        (_, Formation::CavalryLine) => (4, 1),
        (_, Formation::CavalryColumn) => (2, 1),
        (_, Formation::Limbered | Formation::Deployed) => (2, 1),
    }
}

/// The row of the fire table a unit fires at `cm`, or `None` if it cannot fire there: volleys and
/// rifles to 10 cm, canister to 25 cm, ball over 25 up to 100 cm. An ordered line's first volley
/// of the battle is row A and its later ones row B; a column's, a square's or a disordered line's
/// first is row B and its later ones row C ("first": the unit's first of the battle, the second
/// reading's I-3). Cavalry and limbered guns do not fire.
pub fn fire_kind(kind: Kind, formation: Formation, ordered: bool, fired_before: bool, cm: f64) -> Option<FireKind> {
    let within = |k: FireKind| {
        let (least, most) = k.range();
        (cm <= most + 1e-9 && (least == 0.0 || cm > least)).then_some(k)
    };
    match kind {
        Kind::Cavalry => None,
        Kind::Artillery | Kind::HorseArtillery => match formation {
            Formation::Deployed => within(FireKind::Canister).or_else(|| within(FireKind::Ball)),
            _ => None,
        },
        Kind::RifleCompany => within(FireKind::Rifles),
        Kind::Infantry | Kind::LightInfantry => {
            let line = formation == Formation::Line && ordered;
            let k = match (line, fired_before) {
                (true, false) => FireKind::FirstLineVolley,
                (true, true) | (false, false) => FireKind::LaterLineVolley,
                (false, true) => FireKind::LaterOtherVolley,
            };
            within(k)
        }
    }
}

/// The gap between a cavalry regiment's two lines in column, centimetres.
pub const CAVALRY_COLUMN_GAP: f64 = 20.0;

/// A unit's frontage and depth on the table, centimetres: its bases abreast and deep, a square
/// as four bases round a hollow (one base's frontage each way), a cavalry column as its two
/// lines and the 20 cm between them (one body for what it touches).
pub fn size(kind: Kind, formation: Formation) -> (f64, f64) {
    let arm = kind.arm();
    let (abreast, deep) = layout(kind, formation);
    match formation {
        Formation::Square => (base_frontage(arm), base_frontage(arm)),
        Formation::CavalryColumn => {
            (f64::from(abreast) * base_frontage(arm), 2.0 * base_depth(arm) + CAVALRY_COLUMN_GAP)
        }
        _ => (f64::from(abreast) * base_frontage(arm), f64::from(deep) * base_depth(arm)),
    }
}

/// The corners of a unit whose front edge's centre is `at`, facing `facing`: front left, front
/// right, back right, back left.
pub fn corners(kind: Kind, formation: Formation, at: Point, facing: f64) -> [Point; 4] {
    let (w, d) = size(kind, formation);
    let fwd = volley_table::unit(facing);
    let right = volley_table::unit(facing + 90.0);
    let (l, r) = (at - right * (w / 2.0), at + right * (w / 2.0));
    [l, r, r - fwd * d, l - fwd * d]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rates_densities_and_changes_read_as_printed() {
        assert_eq!(rate(Kind::Infantry, Formation::Line), 20.0);
        assert_eq!(rate(Kind::Infantry, Formation::AssaultColumn), 25.0);
        assert_eq!(rate(Kind::Infantry, Formation::Square), 0.0);
        assert_eq!(rate(Kind::Cavalry, Formation::CavalryColumn), 50.0);
        assert_eq!(rate(Kind::HorseArtillery, Formation::Limbered), 50.0);
        assert_eq!(rate(Kind::Artillery, Formation::Deployed), 0.0);
        assert_eq!(density(Kind::Cavalry, Formation::CavalryLine), Density::Dense);
        assert_eq!(density(Kind::Infantry, Formation::Line), Density::Loose);
        assert_eq!(density(Kind::Artillery, Formation::Limbered), Density::Dense);
        assert_eq!(density(Kind::Artillery, Formation::Deployed), Density::Loose);
        assert_eq!(change_turns(Formation::MarchColumn, Formation::Line), Some(3));
        assert_eq!(change_turns(Formation::Line, Formation::Square), Some(1));
        assert_eq!(change_turns(Formation::Square, Formation::Line), None);
    }

    #[test]
    fn ea_5_ea_6_ea_18_which_row_a_unit_fires() {
        use FireKind::*;
        let inf = |f, ordered, before, cm| fire_kind(Kind::Infantry, f, ordered, before, cm);
        assert_eq!(inf(Formation::Line, true, false, 10.0), Some(FirstLineVolley));
        assert_eq!(inf(Formation::Line, true, true, 10.0), Some(LaterLineVolley), "EA-18: not first again");
        assert_eq!(inf(Formation::Square, true, false, 10.0), Some(LaterLineVolley), "EA-5a");
        assert_eq!(inf(Formation::Line, false, false, 10.0), Some(LaterLineVolley), "EA-6: disordered line");
        assert_eq!(inf(Formation::AssaultColumn, true, true, 9.0), Some(LaterOtherVolley));
        assert_eq!(inf(Formation::Line, true, false, 10.5), None);
        let guns = |f, cm| fire_kind(Kind::Artillery, f, true, true, cm);
        assert_eq!(guns(Formation::Deployed, 25.0), Some(Canister));
        assert_eq!(guns(Formation::Deployed, 26.0), Some(Ball));
        assert_eq!(guns(Formation::Deployed, 100.5), None);
        assert_eq!(guns(Formation::Limbered, 20.0), None);
        assert_eq!(fire_kind(Kind::Cavalry, Formation::CavalryLine, true, false, 5.0), None);
        assert_eq!(fire_kind(Kind::RifleCompany, Formation::Line, false, true, 10.0), Some(Rifles));
    }
}
