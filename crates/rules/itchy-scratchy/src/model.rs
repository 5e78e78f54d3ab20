//! The pieces: units of Strength Points on grid areas, and the terrain of an area.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::grid::{Area, Dir};

use crate::combat::{Target, Weapon};

/// The unit types of the Strength Point and movement tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Infantry: 4 SP, 2 areas.
    Infantry,
    /// Dismounted cavalry: 3 SP, 2 areas.
    DismountedCavalry,
    /// Mounted cavalry: 3 SP, 3 areas.
    MountedCavalry,
    /// Machine guns: 2 SP, 2 areas.
    MachineGuns,
    /// Artillery: 2 SP, 2 areas.
    Artillery,
    /// Horse-drawn transport: 1 SP, 2 areas.
    Transport,
    /// A General: 1 SP, 3 areas.
    General,
}

/// Strength Points by unit type (the text's table).
pub const STRENGTH: [(Kind, u8); 7] = [
    (Kind::Infantry, 4),
    (Kind::DismountedCavalry, 3),
    (Kind::MountedCavalry, 3),
    (Kind::MachineGuns, 2),
    (Kind::Artillery, 2),
    (Kind::Transport, 1),
    (Kind::General, 1),
];

/// Movement in grid areas by unit type (the text's table).
pub const MOVEMENT: [(Kind, u8); 7] = [
    (Kind::Infantry, 2),
    (Kind::DismountedCavalry, 2),
    (Kind::MountedCavalry, 3),
    (Kind::MachineGuns, 2),
    (Kind::Artillery, 2),
    (Kind::Transport, 2),
    (Kind::General, 3),
];

fn lookup(table: &[(Kind, u8); 7], k: Kind) -> u8 {
    table.iter().find(|(x, _)| *x == k).map_or(0, |(_, v)| *v)
}

impl Kind {
    /// Strength Points at the start, unless the scenario adjusts them.
    pub fn strength(self) -> u8 {
        lookup(&STRENGTH, self)
    }

    /// Grid areas a move may cover.
    pub fn movement(self) -> u8 {
        lookup(&MOVEMENT, self)
    }

    /// How the result rules see this unit as a target.
    pub fn target(self) -> Target {
        match self {
            Kind::Infantry => Target::Infantry,
            Kind::DismountedCavalry | Kind::MountedCavalry => Target::Cavalry,
            Kind::MachineGuns => Target::MachineGuns,
            Kind::Artillery => Target::Artillery,
            Kind::Transport => Target::Transport,
            Kind::General => Target::General,
        }
    }

    /// The weapon a unit of this type carries unless the scenario says otherwise (Generals and
    /// transport carry none).
    pub fn default_weapon(self) -> Option<Weapon> {
        match self {
            Kind::Infantry | Kind::DismountedCavalry | Kind::MountedCavalry => Some(Weapon::RiflesAndCarbines),
            Kind::MachineGuns => Some(Weapon::MachineGuns),
            Kind::Artillery => Some(Weapon::RifledFieldArtillery),
            Kind::Transport | Kind::General => None,
        }
    }

    /// Whether it may share a grid area with a friendly unit (transport and Generals).
    pub fn stacks(self) -> bool {
        matches!(self, Kind::Transport | Kind::General)
    }

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Infantry => "infantry",
            Kind::DismountedCavalry => "dismounted cavalry",
            Kind::MountedCavalry => "mounted cavalry",
            Kind::MachineGuns => "machine guns",
            Kind::Artillery => "artillery",
            Kind::Transport => "horse-drawn transport",
            Kind::General => "General",
        }
    }
}

pub use volley_table::grid::Terrain;

/// One unit.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Unit {
    /// Owner.
    pub side: SideId,
    /// Type.
    pub kind: Kind,
    /// Where it stands.
    pub area: Area,
    /// The edge it faces.
    pub facing: Dir,
    /// Strength Points left; 0: destroyed and removed.
    pub sp: u8,
    /// Strength Points at the start.
    pub sp_start: u8,
    /// Its weapon, if it has one.
    pub weapon: Option<Weapon>,
    /// Native troops whose charge costs no movement: only with `[rules] native_charge`, an
    /// addition to the text.
    pub native: bool,
    /// Grid areas moved this turn, if it has moved.
    pub moved: Option<u8>,
    /// The unit it attacked this turn, if it has attacked.
    pub attacked: Option<u16>,
    /// Whether its side has gone on to another unit this turn: it may do nothing more.
    pub done: bool,
}

impl Unit {
    /// Still on the battlefield.
    pub fn alive(&self) -> bool {
        self.sp > 0
    }

    /// Grid areas it may move this turn, given whether it attacks this turn.
    pub fn allowance(&self, attacking: bool) -> u8 {
        let charge = self.native && self.weapon == Some(Weapon::HandHeld);
        let full = self.kind.movement();
        if attacking && !charge { full.saturating_sub(1) } else { full }
    }
}
