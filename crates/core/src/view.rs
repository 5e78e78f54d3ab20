//! What a viewer may see, in a form one generic renderer can draw for any rule set.

use serde::{Deserialize, Serialize};

use crate::SideId;

/// A drawable picture of a battle as one viewer may see it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The scenario's name.
    pub title: String,
    /// Turn number.
    pub turn: u32,
    /// Phase name.
    pub phase: String,
    /// Table width (x), in the table's measure.
    pub width: f64,
    /// Table depth (y), in the table's measure.
    pub depth: f64,
    /// The table's measure: `inch`, `cm`, or `area` (a grid's squares), for a scale bar.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// The sides' names, by [`SideId`].
    pub sides: Vec<String>,
    /// Terrain.
    pub terrain: Vec<ViewFeature>,
    /// Objectives and who holds them.
    pub objectives: Vec<ViewObjective>,
    /// Units, figures and other pieces.
    pub pieces: Vec<ViewPiece>,
    /// Other marks: commanders, fallen men, cannon balls left.
    pub markers: Vec<ViewMarker>,
    /// Lines of text: public state such as cards left in each deck, and what is hidden.
    pub notes: Vec<String>,
    /// Where the battle stands, a line each: turns left, each side's losses against its break
    /// point or exhaustion (the objectives' holders are in `objectives`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<ViewStanding>,
    /// What the viewer may place before the battle, while its deployment is his to fix.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deploy: Option<ViewDeploy>,
}

/// A deployment the viewer is to fix: where his units may stand, and each unit as the rule
/// set's deploy action places it, for the page to move and send back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewDeploy {
    /// Where the units may stand: a polygon.
    pub zone: Vec<[f64; 2]>,
    /// Each unit he may place.
    pub units: Vec<ViewPlacement>,
}

/// A unit as a deploy action places it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewPlacement {
    /// The unit's name (as its pieces give it).
    pub unit: String,
    /// Its placement where it stands now, as the rule set's deploy action takes it (JSON); the
    /// page moves its `at`.
    pub placement: serde_json::Value,
}

/// A line of where the battle stands.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewStanding {
    /// The side it is about, if one.
    pub side: Option<SideId>,
    /// What it says.
    pub text: String,
}

/// A terrain feature.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewFeature {
    /// Kind, such as `woods` or `wall`.
    pub kind: String,
    /// Name.
    pub name: String,
    /// Outline or line.
    pub points: Vec<[f64; 2]>,
    /// Whether the outline is a closed area.
    pub closed: bool,
}

/// An objective.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewObjective {
    /// Name.
    pub name: String,
    /// Outline.
    pub points: Vec<[f64; 2]>,
    /// The side that holds it, if any.
    pub holder: Option<SideId>,
}

/// The shape a piece covers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "shape", rename_all = "snake_case")]
pub enum Footprint {
    /// A round base.
    Circle {
        /// Centre.
        at: [f64; 2],
        /// Radius in inches.
        r: f64,
    },
    /// A polygon.
    Polygon {
        /// Outline.
        points: Vec<[f64; 2]>,
    },
}

/// A piece on the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewPiece {
    /// Owning side.
    pub side: Option<SideId>,
    /// The unit it belongs to, if the rule set has units.
    pub unit: Option<String>,
    /// Short label.
    pub label: String,
    /// Footprint.
    pub footprint: Footprint,
    /// Facing in degrees clockwise from north, if it has one.
    pub facing: Option<f64>,
    /// State, such as `in ranks`, `running`.
    pub status: String,
    /// Counters and numbers on the piece, such as green counters or Strength Points.
    #[serde(default)]
    pub counters: Vec<ViewCounter>,
    /// What the unit reaches from where it stands — weapon ranges within their arcs — drawn when
    /// it is selected (given on one piece of each unit).
    #[serde(default)]
    pub ranges: Vec<ViewRange>,
    /// Its arm, for the map's sign: `infantry`, `cavalry`, `artillery`, `general` or
    /// `transport`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arm: Option<String>,
    /// The command it belongs to, where orders go to commands (an Old Fritz wing).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub group: Option<String>,
}

/// An area a unit reaches, such as a battery's long range within its arc.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewRange {
    /// What it is, such as `long range (12")`.
    pub label: String,
    /// Its outline.
    pub points: Vec<[f64; 2]>,
}

/// A counter or number shown on a piece.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewCounter {
    /// What it counts, such as `green` (Old Fritz's green counters) or `strength`.
    pub kind: String,
    /// How many.
    pub n: u32,
    /// A detail, read on hover and in the trace but not drawn on the piece (where a row of bare
    /// numbers would read as a puzzle).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub detail: bool,
}

/// Any other mark.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ViewMarker {
    /// Owning side, if any.
    pub side: Option<SideId>,
    /// Kind, such as `commander` or `fallen`.
    pub kind: String,
    /// Where.
    pub at: [f64; 2],
    /// Label.
    pub label: String,
    /// The ground it covers, where it is a model on the table (a gun, a commander's or an
    /// officer's figure, a wagon park); `None` for a mark that is no model (an order's
    /// destination, a wing's centre).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub footprint: Option<Footprint>,
    /// Which way it faces, in degrees clockwise from north, where that matters (a gun's
    /// boresight).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<f64>,
    /// The unit it belongs to or is with, if any (a gun's unit; an officer's unit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}
