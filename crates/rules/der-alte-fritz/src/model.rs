//! The pieces of a battle on the table: formations, stands and the footprints they make, a unit's
//! state, officers. The rates are the unit table's ([`crate::units`]); the sizes of stands are not
//! in the text and are this crate's (see the register).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::{Point, unit as heading_unit};

use crate::combat;
use crate::units::{Arm, UnitType};

/// Gap between skirmishing stands, inches (the text: 2" to 4").
pub const SKIRMISH_GAP: f64 = 3.0;
/// A unit may not end a move (other than a charge) nearer an enemy than this, inches: not in
/// contact.
pub const CONTACT_GAP: f64 = 0.5;
/// A flank is secure with a friendly unit within this distance, inches.
pub const SECURE_FLANK: f64 = 3.0;
/// A flank rests on a town, woods or wall within this distance, inches.
pub const RESTS_ON: f64 = 1.0;
/// Rout moves: cavalry, infantry, artillery (inches).
pub const ROUT_MOVE: [f64; 3] = [24.0, 12.0, 10.0];
/// Cavalry melees with no winner: both retreat this far; the pursuit's move is up to this.
pub const CAVALRY_RETREAT: f64 = 24.0;
/// Reserve moves: units farther than this from every enemy at the end of a turn.
pub const RESERVE_DISTANCE: f64 = 30.0;
/// The army commander's death by round shot: units within this distance test.
pub const COMMANDER_DEATH: f64 = 12.0;
/// An officer's ride in the leader phase, inches (not in the text; see the register).
pub const OFFICER_MOVE: f64 = 24.0;
/// A move within this many degrees of the facing is straight ahead.
pub const STRAIGHT: f64 = 5.0;
/// The Prussian oblique: up to this many degrees off the facing, at full rate less 2".
pub const OBLIQUE: f64 = 45.0;
/// What the oblique costs, inches.
pub const OBLIQUE_LESS: f64 = 2.0;
/// A turn of fewer degrees than this is no change of facing.
pub const TURN_TOLERANCE: f64 = 1.0;
/// A line is this many stands wide or more (the text: "Line: 3+ stands wide").
pub const MIN_LINE_STANDS: u32 = 3;

/// How a unit stands on the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Formation {
    /// March column: one stand wide (the march rate).
    MarchColumn,
    /// Attack column: two stands wide (the column rate).
    AttackColumn,
    /// Line: every stand abreast (the line rate).
    Line,
    /// Skirmish order: stands abreast 3" apart (the skirmish rate); unformed.
    Skirmish,
    /// Square (infantry): fired on at chart A, does not move.
    Square,
    /// Guns limbered: they move at the march rate and may not fire.
    Limbered,
    /// Guns unlimbered: they fire, and move only by prolonge (the table's line rate).
    Unlimbered,
}

impl Formation {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Formation::MarchColumn => "march column",
            Formation::AttackColumn => "attack column",
            Formation::Line => "line",
            Formation::Skirmish => "skirmish order",
            Formation::Square => "square",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// Whether troops in it are "unformed" (skirmishers and unlimbered guns; routing units and
    /// every artillery crew are too: [`Unit::unformed`]).
    pub fn unformed(self) -> bool {
        matches!(self, Formation::Skirmish | Formation::Unlimbered)
    }

    /// Whether moving in it backwards or sideways is at half rate (columns and lines).
    pub fn ordered(self) -> bool {
        matches!(self, Formation::MarchColumn | Formation::AttackColumn | Formation::Line)
    }

    /// How the calculator's fire chart sees it.
    pub fn target(self) -> combat::Formation {
        match self {
            Formation::MarchColumn | Formation::AttackColumn => combat::Formation::Column,
            Formation::Line => combat::Formation::Line,
            Formation::Skirmish => combat::Formation::Skirmish,
            Formation::Square => combat::Formation::Square,
            Formation::Limbered => combat::Formation::LimberedArtillery,
            Formation::Unlimbered => combat::Formation::UnlimberedArtillery,
        }
    }
}

/// The rate of `kind` in `formation`, inches, or `None` if it may not take that formation (a
/// blank or `~` in the table; a square only for foot that form columns and lines, and it does not
/// move: 0).
pub fn rate(kind: UnitType, formation: Formation) -> Option<f64> {
    let p = kind.profile();
    let guns = p.arm == Arm::Artillery;
    match formation {
        Formation::MarchColumn if !guns => p.march,
        Formation::AttackColumn if !guns => p.column,
        Formation::Line if !guns => p.line,
        Formation::Skirmish if !guns => p.skirmish,
        Formation::Square if p.arm == Arm::Infantry && p.column.is_some() => Some(0.0),
        Formation::Limbered if guns => p.march,
        Formation::Unlimbered if guns => p.line,
        _ => None,
    }
}

/// The formations `kind` may take.
pub fn formations(kind: UnitType) -> impl Iterator<Item = Formation> {
    [
        Formation::MarchColumn,
        Formation::AttackColumn,
        Formation::Line,
        Formation::Skirmish,
        Formation::Square,
        Formation::Limbered,
        Formation::Unlimbered,
    ]
    .into_iter()
    .filter(move |&f| rate(kind, f).is_some())
}

/// A stand's frontage and depth, inches, by arm (not in the text: see the register).
pub fn stand_size(arm: Arm) -> (f64, f64) {
    match arm {
        Arm::Infantry => (1.0, 1.0),
        Arm::Cavalry => (1.5, 1.5),
        Arm::Artillery => (1.5, 1.5),
    }
}

/// How a unit is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// In good order.
    Good,
    /// Shaken: fires and fights on D, moves at half rate, may not counter-charge or charge.
    Shaken,
    /// Routing: unformed; one attempt to rally in the next rally phase, else removed.
    Routing,
    /// No longer in the battle.
    Removed,
}

/// One battalion, regiment or battery.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Unit {
    /// Owner.
    pub side: SideId,
    /// Its row of the unit table.
    pub kind: UnitType,
    /// Jägers with rifles (16"), not Croats or irregulars with muskets (12").
    pub rifles: bool,
    /// Centre of its footprint.
    pub at: Point,
    /// Facing, degrees clockwise from north.
    pub facing: f64,
    /// How it stands.
    pub formation: Formation,
    /// Figures now (guns: gunners).
    pub figures: u32,
    /// Figures at the start.
    pub figures_start: u32,
    /// Figures a stand (guns: the gunners of its one gun stand).
    pub figures_per_stand: u32,
    /// Cumulative hits.
    pub hits: u32,
    /// How it is doing.
    pub state: State,
    /// The turn it became shaken.
    pub shaken_turn: u32,
    /// The last turn it moved of its own will (0: not yet).
    pub last_moved: u32,
    /// The last turn it changed formation of its own will (0: not yet): a change of formation
    /// and a change of facing are not both made in one turn, whatever the phase (a reserve move
    /// is in the same turn as the movement phase's move).
    #[serde(default)]
    pub reformed_turn: u32,
    /// The last turn it changed facing of its own will (a move's, or a charge's turn to face its
    /// target; 0: not yet).
    #[serde(default)]
    pub turned_turn: u32,
    /// Has acted in the current phase.
    pub acted: bool,
    /// The enemy it will charge in its side's melee phase.
    pub charging: Option<u16>,
    /// Where that enemy stood, and how it faced, when the charge was declared: the account says
    /// so if it has moved by the melee phase and the charge is called off. Not part of the
    /// state's hash (it decides nothing).
    #[serde(skip)]
    pub charged_at: Option<(Point, f64)>,
    /// May make a reserve move this turn (more than 30" from every enemy when the phase began).
    pub reserve: bool,
}

impl Unit {
    /// Still in the battle.
    pub fn present(&self) -> bool {
        self.state != State::Removed
    }

    /// Present and not routing.
    pub fn steady(&self) -> bool {
        matches!(self.state, State::Good | State::Shaken)
    }

    /// Shaken.
    pub fn shaken(&self) -> bool {
        self.state == State::Shaken
    }

    /// Its arm.
    pub fn arm(&self) -> Arm {
        self.kind.profile().arm
    }

    /// Unformed: skirmishers, artillery crews (limbered or not: the text calls the crews
    /// unformed), routing units.
    pub fn unformed(&self) -> bool {
        self.formation.unformed() || self.arm() == Arm::Artillery || self.state == State::Routing
    }

    /// Whether it has too few stands for `formation`: a line is 3 or more stands wide. Two stands
    /// side by side are 2 wide, which the text calls an attack column: a line reduced to 2 stands
    /// stands as one, on the same ground (jägers, whose row has no column rate, must then re-form
    /// to move).
    pub fn too_narrow_for(&self, formation: Formation) -> bool {
        formation == Formation::Line && self.arm() != Arm::Artillery && self.stands() < MIN_LINE_STANDS
    }

    /// Stands now (a part-filled stand counts).
    pub fn stands(&self) -> u32 {
        if self.arm() == Arm::Artillery { 1 } else { self.figures.div_ceil(self.figures_per_stand.max(1)).max(1) }
    }

    /// Stands abreast in `formation`, and ranks of stands.
    pub fn layout(&self, formation: Formation) -> (u32, u32) {
        let n = self.stands();
        match formation {
            Formation::MarchColumn | Formation::Limbered | Formation::Unlimbered => (1, n),
            Formation::AttackColumn => (n.min(2), n.div_ceil(2)),
            Formation::Line | Formation::Skirmish => (n, 1),
            Formation::Square => {
                let side = n.div_ceil(4).max(1);
                (side, side)
            }
        }
    }

    /// Frontage and depth in inches in `formation`.
    pub fn size(&self, formation: Formation) -> (f64, f64) {
        let (w, d) = stand_size(self.arm());
        let (abreast, ranks) = self.layout(formation);
        let width = match formation {
            Formation::Skirmish => f64::from(abreast) * w + f64::from(abreast.saturating_sub(1)) * SKIRMISH_GAP,
            Formation::Square => f64::from(abreast) * w + d,
            _ => f64::from(abreast) * w,
        };
        let depth = match formation {
            Formation::Square => width,
            Formation::Limbered => 2.0 * d,
            _ => f64::from(ranks) * d,
        };
        (width, depth)
    }

    /// The footprint's corners in `formation` facing `facing` about `at`: front left, front
    /// right, rear right, rear left.
    pub fn outline_at(&self, at: Point, facing: f64, formation: Formation) -> [Point; 4] {
        let (w, d) = self.size(formation);
        // A quarter turn clockwise of the facing: (x, y) → (y, −x).
        let fwd = heading_unit(facing);
        let right = Point::new(fwd.y, -fwd.x);
        let (hw, hd) = (w / 2.0, d / 2.0);
        [at + fwd * hd - right * hw, at + fwd * hd + right * hw, at + right * hw - fwd * hd, at - right * hw - fwd * hd]
    }

    /// The footprint as it stands.
    pub fn corners(&self) -> [Point; 4] {
        self.outline_at(self.at, self.facing, self.formation)
    }

    /// Figures in its front rank of stands: those that fire and fight (two ranks deep).
    pub fn front_figures(&self) -> u32 {
        if self.arm() == Arm::Artillery {
            return self.figures;
        }
        let (abreast, _) = self.layout(self.formation);
        (abreast * self.figures_per_stand).min(self.figures)
    }

    /// Its firing range, inches: the jägers' row has rifles (16") and muskets (12").
    pub fn range(&self) -> Option<(f64, Option<f64>)> {
        let r = self.kind.profile().range?;
        if self.kind == UnitType::Jagers {
            return Some((if self.rifles { r.0 } else { r.1.unwrap_or(r.0) }, None));
        }
        Some(r)
    }

    /// Whether it is removed by losses: down to 1 stand of foot or 2 of horse (a battery when
    /// its last gunner is gone).
    pub fn worn_out(&self) -> bool {
        crate::units::worn_out(self.arm(), self.figures, self.figures_per_stand)
    }

    /// Its rout move, inches.
    pub fn rout_move(&self) -> f64 {
        match self.arm() {
            Arm::Cavalry => ROUT_MOVE[0],
            Arm::Infantry => ROUT_MOVE[1],
            Arm::Artillery => ROUT_MOVE[2],
        }
    }

    /// A full column move (for falling back from a melee): the column rate, else the march rate,
    /// else the rate it has.
    pub fn column_move(&self) -> f64 {
        let p = self.kind.profile();
        p.column.or(p.march).or(p.skirmish).or(p.line).unwrap_or(0.0)
    }
}

/// An officer's wounds: a light wound lasts the rest of the game, a severe one two turns; an
/// officer may carry both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Wound {
    /// A light wound: half speed for the rest of the game.
    pub light: bool,
    /// A severe wound: no movement before this turn.
    pub severe_until: Option<u32>,
}

impl Wound {
    /// Unhurt (or grazed).
    pub const NONE: Wound = Wound { light: false, severe_until: None };

    /// Whether a severe wound keeps him still in `turn`.
    pub fn held(&self, turn: u32) -> bool {
        self.severe_until.is_some_and(|until| turn < until)
    }
}

/// A mounted officer: a leader attached to a unit, or the army commander.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Officer {
    /// His side.
    pub side: SideId,
    /// His name (the next man up takes it with "'s successor").
    pub name: String,
    /// The unit he is attached to, if any.
    pub with: Option<u16>,
    /// Where he is when with no unit.
    pub at: Point,
    /// The army commander.
    pub commander: bool,
    /// An exceptional army commander: +1 to the initiative die.
    pub exceptional: bool,
    /// His wounds.
    pub wound: Wound,
    /// Has moved in this leader phase.
    pub acted: bool,
}

impl Officer {
    /// How far he may ride in the leader phase now.
    pub fn ride(&self, turn: u32) -> f64 {
        if self.wound.held(turn) {
            0.0
        } else if self.wound.light {
            OFFICER_MOVE / 2.0
        } else {
            OFFICER_MOVE
        }
    }
}

/// Whether `p` is within `d` of the convex polygon `poly` (inside counts).
pub fn near_polygon(p: Point, poly: &[Point], d: f64) -> bool {
    volley_table::point_in_polygon(p, poly) || volley_table::dist_to_polyline(p, &closed(poly)) <= d
}

/// The polygon's outline closed as a polyline.
pub fn closed(poly: &[Point]) -> Vec<Point> {
    let mut v = poly.to_vec();
    if let Some(&first) = poly.first() {
        v.push(first);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    fn officer(wound: Wound) -> Officer {
        Officer {
            side: 0,
            name: "X".into(),
            with: None,
            at: Point::new(0.0, 0.0),
            commander: false,
            exceptional: false,
            wound,
            acted: false,
        }
    }

    #[test]
    fn a_light_wound_halves_every_ride_after_a_severe_one_heals() {
        // Lightly wounded, then severely in turn 3: no ride in turns 3 and 4, then 12" (half
        // speed for the rest of the game), never 24" again.
        let o = officer(Wound { light: true, severe_until: Some(5) });
        assert_eq!([3, 4, 5, 9].map(|t| o.ride(t)), [0.0, 0.0, 12.0, 12.0]);
        let o = officer(Wound { light: false, severe_until: Some(5) });
        assert_eq!([4, 5].map(|t| o.ride(t)), [0.0, 24.0]);
        assert_eq!(officer(Wound::NONE).ride(1), 24.0);
    }
}
