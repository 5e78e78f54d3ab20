//! The pieces of a battle on the table: unit types with their movement rates and frontages,
//! formations, a unit's state, and the orders a wing may be given.
//!
//! Rates, costs and frontages are the text's numbers (sections 1, 3 and 4), kept as data here.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::Point;

use crate::combat::{self, Arm, Cavalry, Quality};

/// Millimetres of table per metre of ground: 1 mm = 2 m.
pub const MM_PER_METRE: f64 = 0.5;
/// Millimetres in an inch.
pub const MM_PER_INCH: f64 = 25.4;
/// Men a figure stands for: the text gives 50 to 60; frontages use 50.
pub const MEN_PER_FIGURE: f64 = 50.0;
/// Metres a gun and its crew take in a battery's line (not in the text; see the rules document).
pub const METRES_PER_GUN: f64 = 18.0;
/// The approach distance of a close combat: 2½ inches (120 m).
pub const APPROACH: f64 = 2.5;
/// How fast running infantry (and gunners) go: 20 inches a bound.
pub const RUN_RATE: f64 = 20.0;

/// The unit types the text names, with their rates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Line infantry (grenadiers, fusiliers, musketeers): 12".
    LineInfantry,
    /// Grenz, Croats and other light infantry: 14".
    Grenz,
    /// Hussars: walk 18", trot 45".
    Hussars,
    /// Light dragoons: walk 18", trot 45".
    LightDragoons,
    /// Dragoons: walk 18", trot 36".
    Dragoons,
    /// Cuirassiers: walk 18", trot 36".
    Cuirassiers,
    /// Gensdarmes: walk 18", trot 36".
    Gensdarmes,
    /// A battery of medium guns: 12"; a bound to limber or unlimber.
    MediumGuns,
    /// A battery of heavy guns: 10"; two bounds to limber or unlimber.
    HeavyGuns,
}

/// One row of the unit-type table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KindData {
    /// The type.
    pub kind: Kind,
    /// Walking (or marching) rate in inches a bound.
    pub walk: f64,
    /// Trotting rate in inches a bound (cavalry), else 0.
    pub trot: f64,
    /// Men a metre of frontage holds (guns: 0, see [`METRES_PER_GUN`]).
    pub men_per_metre: f64,
    /// Bounds to limber or unlimber (guns), else 0.
    pub limber_bounds: f64,
    /// Figures in a unit unless the scenario says otherwise (guns: the guns).
    pub figures: u16,
}

const fn k(kind: Kind, walk: f64, trot: f64, men_per_metre: f64, limber_bounds: f64, figures: u16) -> KindData {
    KindData { kind, walk, trot, men_per_metre, limber_bounds, figures }
}

/// Rates (section 3), frontages (section 1), limbering (section 4).
pub const KINDS: [KindData; 9] = [
    k(Kind::LineInfantry, 12.0, 0.0, 4.0, 0.0, 12),
    k(Kind::Grenz, 14.0, 0.0, 4.0, 0.0, 12),
    k(Kind::Hussars, 18.0, 45.0, 1.0, 0.0, 8),
    k(Kind::LightDragoons, 18.0, 45.0, 1.0, 0.0, 8),
    k(Kind::Dragoons, 18.0, 36.0, 3.0, 0.0, 8),
    k(Kind::Cuirassiers, 18.0, 36.0, 3.0, 0.0, 8),
    k(Kind::Gensdarmes, 18.0, 36.0, 3.0, 0.0, 8),
    k(Kind::MediumGuns, 12.0, 0.0, 0.0, 1.0, 6),
    k(Kind::HeavyGuns, 10.0, 0.0, 0.0, 2.0, 6),
];

/// Fractions of a bound that the limits to movement cost (section 4).
pub mod cost {
    /// A wheel or pivot through more than 45°.
    pub const WHEEL_OVER_45: f64 = 1.0;
    /// A wheel or pivot through up to 45°.
    pub const WHEEL_UP_TO_45: f64 = 0.5;
    /// Line to column or back.
    pub const FORMATION: f64 = 0.5;
    /// About turn.
    pub const ABOUT_TURN: f64 = 0.5;
    /// Crossing a linear obstacle.
    pub const OBSTACLE: f64 = 0.5;
    /// Engaging in a close combat.
    pub const ENGAGE: f64 = 0.5;
    /// A change of direction under this many degrees is no wheel (the measuring tolerance of
    /// a table-top; the same as [`crate::game::STRAIGHT`]): any wheel at all costs half a bound.
    pub const INCLINE: f64 = 1.0;
    /// A turn within this many degrees of 180° is an about turn; any other turn over 45° is a
    /// wheel over 45°.
    pub const ABOUT_TURN_WITHIN: f64 = 1.0;
}

impl Kind {
    /// The type's row of [`KINDS`].
    pub fn data(self) -> &'static KindData {
        // KINDS lists every variant in declaration order.
        &KINDS[self as usize]
    }

    /// Infantry, cavalry or artillery.
    pub fn arm(self) -> Arm {
        match self {
            Kind::LineInfantry | Kind::Grenz => Arm::Infantry,
            Kind::MediumGuns | Kind::HeavyGuns => Arm::Artillery,
            _ => Arm::Cavalry,
        }
    }

    /// The kind of cavalry, for the combat.
    pub fn cavalry(self) -> Option<Cavalry> {
        match self {
            Kind::Hussars => Some(Cavalry::Hussars),
            Kind::LightDragoons => Some(Cavalry::LightDragoons),
            Kind::Dragoons => Some(Cavalry::Dragoons),
            Kind::Cuirassiers => Some(Cavalry::Cuirassiers),
            Kind::Gensdarmes => Some(Cavalry::Gensdarmes),
            _ => None,
        }
    }

    /// Guns.
    pub fn is_guns(self) -> bool {
        self.arm() == Arm::Artillery
    }

    /// Supply wagon models the unit brings: one per battalion or battery, two per cavalry
    /// regiment (section 10).
    pub fn wagons(self) -> u32 {
        if self.arm() == Arm::Cavalry { 2 } else { 1 }
    }

    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::LineInfantry => "line infantry",
            Kind::Grenz => "Grenz",
            Kind::Hussars => "hussars",
            Kind::LightDragoons => "light dragoons",
            Kind::Dragoons => "dragoons",
            Kind::Cuirassiers => "cuirassiers",
            Kind::Gensdarmes => "gensdarmes",
            Kind::MediumGuns => "medium guns",
            Kind::HeavyGuns => "heavy guns",
        }
    }

    /// Close range and long range of a battery, in inches (6"/12" medium, 8"/18" heavy).
    pub fn ranges(self) -> Option<(f64, f64)> {
        match self {
            Kind::MediumGuns => Some((6.0, 12.0)),
            Kind::HeavyGuns => Some((8.0, 18.0)),
            _ => None,
        }
    }
}

/// Line or column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// In line.
    #[default]
    Line,
    /// In column: a quarter of the frontage, four times the depth.
    Column,
}

/// How a unit is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// In good order, carrying out its orders.
    Steady,
    /// Beaten: withdraws in good order at half speed next bound.
    Withdrawing,
    /// Running away in disorder.
    Running,
    /// Has stopped running; rests until it has fewer than two green counters.
    Rallying,
    /// Pursuing a beaten enemy next bound.
    Pursuing {
        /// The enemy it follows.
        target: u16,
    },
    /// No longer in the battle.
    Gone(Fate),
}

/// Why a unit left the battle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// Disintegrated, dispersed or deserted.
    Dispersed,
    /// Surrendered, being surrounded.
    Surrendered,
    /// Ran off the table.
    Fled,
    /// Every figure lost.
    Destroyed,
}

/// An order to a wing (section 2).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Order {
    /// Attack the enemy at or near a place: close with and fight the enemy found there.
    Attack {
        /// The place.
        at: Point,
    },
    /// Go to a place (or stay) and hold it: fight only when attacked.
    Hold {
        /// The place.
        at: Point,
    },
    /// March to a place.
    MoveTo {
        /// The place.
        at: Point,
    },
    /// Withdraw to a place.
    WithdrawTo {
        /// The place.
        at: Point,
    },
    /// Stand in reserve where it is.
    Reserve,
}

impl Order {
    /// The place the order names, if any.
    pub fn place(&self) -> Option<Point> {
        match *self {
            Order::Attack { at } | Order::Hold { at } | Order::MoveTo { at } | Order::WithdrawTo { at } => Some(at),
            Order::Reserve => None,
        }
    }
}

impl Order {
    /// The order in words, its place named by `place` (the place in words, as
    /// [`crate::setup::Static::place_words`] gives it; its coordinates if empty).
    pub fn words(&self, place: &str) -> String {
        let at = |at: &Point| {
            if place.is_empty() { format!("({:.0}, {:.0})", at.x, at.y) } else { place.to_string() }
        };
        match self {
            Order::Attack { at: p } => format!("attack the enemy at {}", at(p)),
            Order::Hold { at: p } => format!("hold {}", at(p)),
            Order::MoveTo { at: p } => format!("move to {}", at(p)),
            Order::WithdrawTo { at: p } => format!("withdraw to {}", at(p)),
            Order::Reserve => "stand in reserve".into(),
        }
    }
}

impl std::fmt::Display for Order {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let p = |at: &Point| format!("[{:.0}, {:.0}]", at.x, at.y);
        match self {
            Order::Attack { at } => write!(f, "attack the enemy at {}", p(at)),
            Order::Hold { at } => write!(f, "hold {}", p(at)),
            Order::MoveTo { at } => write!(f, "move to {}", p(at)),
            Order::WithdrawTo { at } => write!(f, "withdraw to {}", p(at)),
            Order::Reserve => write!(f, "stand in reserve"),
        }
    }
}

/// One battalion, cavalry regiment or battery on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Owner (a unit of unreliable foreigners may change sides).
    pub side: SideId,
    /// Its wing, an index into the battle's wings.
    pub wing: u16,
    /// Type.
    pub kind: Kind,
    /// Troop quality.
    pub quality: Quality,
    /// Centre of the unit.
    pub at: Point,
    /// Facing, degrees clockwise from north.
    pub facing: f64,
    /// Line or column.
    pub formation: Formation,
    /// Guns: limbered (may move, may not fire).
    pub limbered: bool,
    /// Figures now (guns: guns with their gunners).
    pub figures: u16,
    /// Figures at the start.
    pub figures_start: u16,
    /// Green counters.
    pub greens: u8,
    /// In its wing's second line: attacks only once the first line is spent.
    pub second_line: bool,
    /// Unreliable troops.
    pub unreliable: bool,
    /// Rash troops.
    pub rash: bool,
    /// Unreliable foreigners.
    pub foreign: bool,
    /// How it is doing.
    pub state: State,
    /// The order it is carrying out.
    pub order: Order,
    /// The number of the wing order it carries out.
    pub order_seq: u32,
    /// Where its order sends it (the order's place plus its place in the wing).
    pub dest: Option<Point>,
    /// Retained under control after a pursuit: stays where it is until fresh orders come.
    pub hold_here: bool,
    /// Half-bounds of limbering or unlimbering still to do (heavy guns take two bounds).
    pub busy: f64,
    /// The enemy it reached at the end of its move: the close combat is fought next bound.
    pub engage: Option<u16>,
    /// Took part in a close combat this bound.
    pub in_combat: bool,
    /// Did something this bound (moved, turned, fought, fired, limbered).
    pub acted: bool,
    /// Being pursued this bound.
    pub pursued: bool,
    /// Fired on this bound (by guns or in close combat): not resting.
    pub under_fire: bool,
    /// Cavalry beaten by infantry withdraw half a walk move, not half a trot.
    pub withdraw_walking: bool,
    /// Runs with a casualty a bound by desertion: the infantry and cavalry tables say so; the
    /// cavalry-against-infantry table gives no desertion.
    #[serde(default)]
    pub deserts: bool,
    /// The part of this bound's move left after engaging in a close combat.
    pub move_left: f64,
    /// The umpire's tactical advantage, 0 to 3.
    pub advantage: u8,
    /// This bound it wanted to turn (to march, attack or face the enemy) and had no room: the
    /// turn would have swung its line into an enemy's body.
    #[serde(default)]
    pub no_room: bool,
    /// The enemies it fought in the combat that made it withdraw (it withdraws away from them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub beaten_by: Vec<u16>,
}

impl Unit {
    /// Still in the battle.
    pub fn present(&self) -> bool {
        !matches!(self.state, State::Gone(_))
    }

    /// Present and not running, rallying or withdrawing: counts for holding ground and guards.
    pub fn in_order(&self) -> bool {
        matches!(self.state, State::Steady | State::Pursuing { .. })
    }

    /// Frontage in inches: men per metre from the text, guns by [`METRES_PER_GUN`]; a column has
    /// a quarter of its line's.
    pub fn frontage(&self) -> f64 {
        self.frontage_in(self.formation)
    }

    /// [`Unit::frontage`] in `formation`.
    fn frontage_in(&self, formation: Formation) -> f64 {
        let d = self.kind.data();
        let metres = if d.men_per_metre > 0.0 {
            f64::from(self.figures) * MEN_PER_FIGURE / d.men_per_metre
        } else {
            f64::from(self.figures) * METRES_PER_GUN
        };
        let line = (metres * MM_PER_METRE / MM_PER_INCH).max(0.5);
        match formation {
            Formation::Line => line,
            Formation::Column => line / 4.0,
        }
    }

    /// Depth in inches (bases: infantry ½", cavalry 1", guns 1½"; a column four times).
    pub fn depth(&self) -> f64 {
        self.depth_in(self.formation)
    }

    /// [`Unit::depth`] in `formation`.
    fn depth_in(&self, formation: Formation) -> f64 {
        let line = match self.kind.arm() {
            Arm::Infantry => 0.5,
            Arm::Cavalry => 1.0,
            Arm::Artillery => 1.5,
        };
        match formation {
            Formation::Line => line,
            Formation::Column => line * 4.0,
        }
    }

    /// The radius of the circle round the unit used to keep units apart.
    pub fn radius(&self) -> f64 {
        0.5 * self.frontage().max(self.depth())
    }

    /// The footprint's corners: front left, front right, rear right, rear left.
    pub fn corners(&self) -> [Point; 4] {
        self.outline(self.facing, self.formation).map(|c| c + self.at)
    }

    /// The corners of the footprint the unit would have facing `facing` in `formation`,
    /// relative to its centre (as [`Unit::corners`]).
    pub fn outline(&self, facing: f64, formation: Formation) -> [Point; 4] {
        let fwd = volley_table::unit(facing);
        let right = volley_table::unit(facing + 90.0);
        let (hw, hd) = (self.frontage_in(formation) / 2.0, self.depth_in(formation) / 2.0);
        [fwd * hd - right * hw, fwd * hd + right * hw, right * hw - fwd * hd, right * -hw - fwd * hd]
    }

    /// The unit as the close-combat function sees it.
    pub fn combatant(&self) -> combat::Unit {
        let mut u = combat::Unit::new(self.kind.arm(), self.kind.cavalry(), self.quality, self.figures.max(1));
        u.figures_at_start = Some(self.figures_start);
        u.greens = self.greens;
        u.tactical_advantage = self.advantage;
        u.unreliable = self.unreliable;
        u.rash = self.rash;
        u.foreign = self.foreign;
        if self.kind.is_guns() && !self.limbered {
            u.guns = Some(combat::Guns {
                heavy: self.kind == Kind::HeavyGuns,
                gunners_lost: self.figures_start.saturating_sub(self.figures).min(255) as u8,
            });
        }
        u
    }
}
