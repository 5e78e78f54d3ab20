//! The text's tables as data: the status scale, the fire table (by the kind of fire, the firer's
//! status and the target's density), the close assault's modifiers and its results table, the
//! movement rates and the turns a change of formation takes.
//!
//! How the fire table's merged cells are read is in the register (`docs/rules/en-avant.md`).

use std::fmt;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// A unit's status, from Running away (0) to Pugnacious (6): the label everyone sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// 0: leaving the battlefield as fast as possible.
    RunningAway,
    /// 1: will break and run any moment now.
    Frightened,
    /// 2: will not move closer to the enemy; fire sporadic.
    Wavering,
    /// 3: always stops to fire when it can.
    Nervous,
    /// 4: does as it is told, without enthusiasm for risk.
    Steady,
    /// 5: moves forward and acts as ordered.
    Determined,
    /// 6: moves forward and acts as ordered no matter what; must try to close with the nearest
    /// enemy.
    Pugnacious,
}

impl Status {
    /// Every status, 0 to 6.
    pub const ALL: [Status; 7] = [
        Status::RunningAway,
        Status::Frightened,
        Status::Wavering,
        Status::Nervous,
        Status::Steady,
        Status::Determined,
        Status::Pugnacious,
    ];

    /// Its number, 0 to 6.
    pub fn level(self) -> u8 {
        self as u8
    }

    /// The status of `level` (kept within 0 to 6).
    pub fn of(level: i32) -> Status {
        Status::ALL[level.clamp(0, 6) as usize]
    }

    /// `n` levels lower, never below `floor`; a unit already below the floor stays.
    pub fn dropped(self, n: u8, floor: Status) -> Status {
        if self <= floor {
            return self;
        }
        Status::of(i32::from(self.level()) - i32::from(n)).max(floor)
    }

    /// The card's word, as the players see it.
    pub fn word(self) -> &'static str {
        match self {
            Status::RunningAway => "Running away",
            Status::Frightened => "Frightened",
            Status::Wavering => "Wavering",
            Status::Nervous => "Nervous",
            Status::Steady => "Steady",
            Status::Determined => "Determined",
            Status::Pugnacious => "Pugnacious",
        }
    }

    /// The fire table's column of the firer: 6–4 (true) or 3–1.
    pub fn steady_or_better(self) -> bool {
        self >= Status::Steady
    }

    /// The results table's row: 5–6, 3–4, 1–2 (and 0 with 1–2).
    pub fn band(self) -> Band {
        match self {
            Status::Pugnacious | Status::Determined => Band::High,
            Status::Steady | Status::Nervous => Band::Middle,
            _ => Band::Low,
        }
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A row of the close assault's results table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Band {
    /// Status 5–6.
    High,
    /// Status 3–4.
    Middle,
    /// Status 1–2 (and 0).
    Low,
}

/// The target's density.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Density {
    /// All cavalry, infantry in square, attack column or march column, limbered artillery.
    Dense,
    /// Infantry in line, light infantry, artillery deployed.
    Loose,
}

/// The kind of fire: a row of the fire table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum FireKind {
    /// The first infantry volley from line (range 10 cm).
    FirstLineVolley,
    /// A later volley from line (10 cm), or the first from column, square or a disordered line.
    LaterLineVolley,
    /// A later volley from column, square or a disordered line.
    LaterOtherVolley,
    /// Artillery canister, up to 25 cm.
    Canister,
    /// Artillery ball, over 25 cm up to 100 cm: never below Frightened.
    Ball,
    /// A British rifle company (10 cm): never below Wavering.
    Rifles,
}

impl FireKind {
    /// Every kind, in the table's order.
    pub const ALL: [FireKind; 6] = [
        FireKind::FirstLineVolley,
        FireKind::LaterLineVolley,
        FireKind::LaterOtherVolley,
        FireKind::Canister,
        FireKind::Ball,
        FireKind::Rifles,
    ];

    /// Its range in centimetres: the most, and the least (ball is over 25 cm).
    pub fn range(self) -> (f64, f64) {
        match self {
            FireKind::Canister => (0.0, 25.0),
            FireKind::Ball => (25.0, 100.0),
            _ => (0.0, 10.0),
        }
    }

    /// The status it may not take a unit below (ball: Frightened; rifles: Wavering).
    pub fn floor(self) -> Status {
        match self {
            FireKind::Ball => Status::Frightened,
            FireKind::Rifles => Status::Wavering,
            _ => Status::RunningAway,
        }
    }

    /// The table's words for it.
    pub fn words(self) -> &'static str {
        match self {
            FireKind::FirstLineVolley => "the first infantry volley from line",
            FireKind::LaterLineVolley => {
                "a later volley from line, or a first from column, square or a disordered line"
            }
            FireKind::LaterOtherVolley => "a later volley from column, square or a disordered line",
            FireKind::Canister => "artillery canister",
            FireKind::Ball => "artillery ball",
            FireKind::Rifles => "a British rifle company",
        }
    }
}

/// What a cell of the fire table does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Effect {
    /// The target drops this many levels.
    Drops(u8),
    /// A target of equal or lower status than the firer drops one level.
    EqualOrLowerDrops,
    /// A target of lower status than the firer drops one level.
    LowerDrops,
    /// No effect.
    NoEffect,
}

impl Effect {
    /// The table's words.
    pub fn words(self) -> &'static str {
        match self {
            Effect::Drops(2) => "the target drops two levels",
            Effect::Drops(_) => "the target drops one level",
            Effect::EqualOrLowerDrops => "a target of equal or lower status drops one level",
            Effect::LowerDrops => "a target of lower status drops one level",
            Effect::NoEffect => "no effect",
        }
    }
}

use Effect::{Drops, EqualOrLowerDrops as EqualOrLower, LowerDrops as Lower, NoEffect};

/// The fire table: `FIRE[kind][firer][density]`, the firer 0 for 6–4 and 1 for 3–1, the density 0
/// for dense and 1 for loose. Merged cells are repeated (see the register for each reading).
pub const FIRE: [[[Effect; 2]; 2]; 6] = [
    // First line volley: 6–4 dense two, loose one; 3–1 (one cell) equal or lower drops one.
    [[Drops(2), Drops(1)], [EqualOrLower, EqualOrLower]],
    // Later line volley, or first from others: 6–4 dense equal or lower; the rest lower.
    [[EqualOrLower, Lower], [Lower, Lower]],
    // Later volley from others: lower, lower (6–4 loose and 3–1 dense one cell), no effect.
    [[Lower, Lower], [Lower, NoEffect]],
    // Canister: 6–4 dense two levels (a narrow cell); the rest one level (one wide cell).
    [[Drops(2), Drops(1)], [Drops(1), Drops(1)]],
    // Ball: 6–4 (one cell) equal or lower; 3–1 dense lower, loose no effect.
    [[EqualOrLower, EqualOrLower], [Lower, NoEffect]],
    // Rifles: as ball.
    [[EqualOrLower, EqualOrLower], [Lower, NoEffect]],
];

/// The cell for a fire.
pub fn fire_cell(kind: FireKind, firer: Status, density: Density) -> Effect {
    let row = FireKind::ALL.iter().position(|&k| k == kind).unwrap_or(0);
    let col = usize::from(!firer.steady_or_better());
    let d = usize::from(density == Density::Loose);
    FIRE[row][col][d]
}

/// A fire's effect on its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct FireEffect {
    /// The table's cell.
    pub cell: Effect,
    /// Levels the target drops.
    pub dropped: u8,
    /// Its status after.
    pub status: Status,
}

/// What a fire of `kind` by a firer of status `firer` does to a target of status `target` and
/// `density`.
pub fn fire_effect(kind: FireKind, firer: Status, target: Status, density: Density) -> FireEffect {
    let cell = fire_cell(kind, firer, density);
    let n = match cell {
        Drops(n) => n,
        EqualOrLower if target <= firer => 1,
        Lower if target < firer => 1,
        _ => 0,
    };
    let status = target.dropped(n, kind.floor());
    FireEffect { cell, dropped: target.level() - status.level(), status }
}

/// A unit's arm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Arm {
    /// Infantry.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Artillery.
    Artillery,
}

impl Arm {
    /// Its name.
    pub fn name(self) -> &'static str {
        match self {
            Arm::Infantry => "infantry",
            Arm::Cavalry => "cavalry",
            Arm::Artillery => "artillery",
        }
    }
}

/// What a loser or winner of a close assault does next turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum After {
    /// Pursues the beaten enemy.
    Pursue,
    /// The player chooses whether it pursues (the infantry winner of status 5–6).
    MayPursue,
    /// Withdraws this many centimetres, backwards facing the enemy.
    Withdraw {
        /// Centimetres.
        cm: u8,
    },
    /// Destroyed (artillery closed with).
    Destroyed,
}

/// A row of the results table: what the unit does and the status it loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub struct Result {
    /// What it does.
    pub after: After,
    /// Status lost.
    pub lost: u8,
}

/// The close assault's results table: by arm, winner or loser, and the unit's own status band.
pub fn assault_result(arm: Arm, won: bool, band: Band) -> Result {
    let r = |after, lost| Result { after, lost };
    match (arm, won, band) {
        (Arm::Artillery, false, _) => r(After::Destroyed, 0),
        (Arm::Cavalry, true, Band::High) => r(After::Pursue, 1),
        (Arm::Cavalry, true, _) => r(After::Pursue, 0),
        (Arm::Cavalry, false, Band::High) => r(After::Withdraw { cm: 10 }, 2),
        (Arm::Cavalry, false, Band::Middle) => r(After::Withdraw { cm: 25 }, 2),
        (Arm::Cavalry, false, Band::Low) => r(After::Withdraw { cm: 50 }, 2),
        (_, true, Band::High) => r(After::MayPursue, 1),
        (_, true, _) => r(After::Pursue, 0),
        (_, false, Band::High) => r(After::Withdraw { cm: 5 }, 1),
        (_, false, Band::Middle) => r(After::Withdraw { cm: 10 }, 1),
        (_, false, Band::Low) => r(After::Withdraw { cm: 15 }, 1),
    }
}

/// Movement rates, centimetres a turn (none: it does not move).
pub mod rates {
    /// Infantry in line.
    pub const INFANTRY_LINE: f64 = 20.0;
    /// Infantry in column.
    pub const INFANTRY_COLUMN: f64 = 25.0;
    /// Cavalry in line.
    pub const CAVALRY_LINE: f64 = 40.0;
    /// Cavalry in column.
    pub const CAVALRY_COLUMN: f64 = 50.0;
    /// The regiment's or brigade's headquarters (command group).
    pub const COMMAND: f64 = 60.0;
    /// Foot artillery limbered.
    pub const ARTILLERY_LIMBERED: f64 = 25.0;
    /// Horse artillery limbered.
    pub const HORSE_ARTILLERY_LIMBERED: f64 = 50.0;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_cell_of_the_fire_table_reads_as_printed() {
        use Density::{Dense, Loose};
        use FireKind::*;
        use Status::*;
        let s = |k, f, t, d| fire_effect(k, f, t, d).status;
        // First line volley: 6–4 dense two, loose one; 3–1 equal or lower.
        assert_eq!(s(FirstLineVolley, Steady, Pugnacious, Dense), Steady);
        assert_eq!(s(FirstLineVolley, Steady, Pugnacious, Loose), Determined);
        assert_eq!(s(FirstLineVolley, Nervous, Nervous, Loose), Wavering);
        assert_eq!(s(FirstLineVolley, Nervous, Steady, Dense), Steady, "higher than the firer: no effect");
        // Later line volley: 6–4 dense equal or lower; else lower.
        assert_eq!(s(LaterLineVolley, Steady, Steady, Dense), Nervous);
        assert_eq!(s(LaterLineVolley, Steady, Steady, Loose), Steady);
        assert_eq!(s(LaterLineVolley, Steady, Nervous, Loose), Wavering);
        assert_eq!(s(LaterLineVolley, Wavering, Frightened, Dense), RunningAway);
        // Later volley from others: lower, lower, lower, none.
        assert_eq!(s(LaterOtherVolley, Determined, Steady, Loose), Nervous);
        assert_eq!(s(LaterOtherVolley, Nervous, Wavering, Dense), Frightened);
        assert_eq!(s(LaterOtherVolley, Nervous, Wavering, Loose), Wavering);
        // Canister: 6–4 dense two levels, the rest one, whatever the target's status.
        assert_eq!(s(Canister, Steady, Pugnacious, Dense), Steady);
        assert_eq!(s(Canister, Steady, Pugnacious, Loose), Determined);
        assert_eq!(s(Canister, Frightened, Pugnacious, Dense), Determined);
        // Ball: never below Frightened.
        assert_eq!(s(Ball, Steady, Wavering, Dense), Frightened);
        assert_eq!(s(Ball, Pugnacious, Frightened, Dense), Frightened);
        assert_eq!(s(Ball, Nervous, Wavering, Loose), Wavering);
        // Rifles: never below Wavering.
        assert_eq!(s(Rifles, Steady, Wavering, Loose), Wavering);
        assert_eq!(s(Rifles, Steady, Nervous, Loose), Wavering);
        assert_eq!(s(Rifles, Frightened, RunningAway, Dense), RunningAway, "already below: stays");
    }

    #[test]
    fn the_results_table_by_arm_outcome_and_band() {
        assert_eq!(assault_result(Arm::Cavalry, true, Band::High), Result { after: After::Pursue, lost: 1 });
        assert_eq!(
            assault_result(Arm::Cavalry, false, Band::Middle),
            Result { after: After::Withdraw { cm: 25 }, lost: 2 }
        );
        assert_eq!(
            assault_result(Arm::Cavalry, false, Band::Low),
            Result { after: After::Withdraw { cm: 50 }, lost: 2 }
        );
        assert_eq!(assault_result(Arm::Infantry, true, Band::High), Result { after: After::MayPursue, lost: 1 });
        assert_eq!(assault_result(Arm::Infantry, true, Band::Low), Result { after: After::Pursue, lost: 0 });
        assert_eq!(
            assault_result(Arm::Infantry, false, Band::High),
            Result { after: After::Withdraw { cm: 5 }, lost: 1 }
        );
        assert_eq!(
            assault_result(Arm::Infantry, false, Band::Low),
            Result { after: After::Withdraw { cm: 15 }, lost: 1 }
        );
        assert_eq!(assault_result(Arm::Artillery, false, Band::High).after, After::Destroyed);
        assert_eq!(
            [Status::Pugnacious, Status::Nervous, Status::Frightened, Status::RunningAway].map(Status::band),
            [Band::High, Band::Middle, Band::Low, Band::Low]
        );
    }
}
