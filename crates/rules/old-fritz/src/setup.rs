//! Scenario files for Old Fritz: the table, the wings with their generals and first orders, the
//! units of each wing, the supply wagons, and building a battle from them.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_scenario::places::{Landmark, Landmarks};
use volley_scenario::{AtTurnLimit, Diagnostic, Diagnostics, Edge, Objective, Source};
use volley_table::{Point, Table};

use crate::combat::Quality;
use crate::command::General;
use crate::game::Battle;
use crate::model::{Formation, Kind, Order, State, Unit};

/// An Old Fritz scenario file.
pub type ScenarioFile = volley_scenario::Scenario<UnitSpec, Rules>;

/// One battalion, cavalry regiment or battery in a scenario file.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, such as "IR 19 Markgraf Karl".
    pub name: String,
    /// Unit type.
    pub kind: Kind,
    /// The name of its wing (one of this side's `[[rules.wings]]`).
    pub wing: String,
    /// Troop quality, A to G.
    pub quality: Quality,
    /// Its centre, `[x, y]` in inches.
    pub at: Point,
    /// Facing in degrees clockwise from north; default: away from its side's rear edge.
    #[serde(default)]
    pub facing: Option<f64>,
    /// Figures (guns: guns); default 12 for infantry, 8 for cavalry, 6 for a battery.
    #[serde(default)]
    pub figures: Option<u16>,
    /// Line or column; default line.
    #[serde(default)]
    pub formation: Formation,
    /// Guns only: limbered at the start (default: unlimbered, ready to fire).
    #[serde(default)]
    pub limbered: bool,
    /// The wing's second line (it engages when the first line is spent: successive waves).
    #[serde(default)]
    pub second_line: bool,
    /// Unreliable troops.
    #[serde(default)]
    pub unreliable: bool,
    /// Rash troops.
    #[serde(default)]
    pub rash: bool,
    /// Unreliable foreigners (such as Saxons in Prussian service).
    #[serde(default)]
    pub foreign: bool,
}

/// A wing or corps: its general and the order it starts with.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WingSpec {
    /// The side it belongs to, by name.
    pub side: String,
    /// The wing's name, such as "right wing".
    pub name: String,
    /// Its general's name.
    pub general: String,
    /// Its general's quality; default average.
    #[serde(default = "average")]
    pub quality: General,
    /// The order it has when the battle begins; default: stand in reserve.
    #[serde(default = "reserve")]
    pub order: Order,
}

fn average() -> General {
    General::Average
}

fn reserve() -> Order {
    Order::Reserve
}

/// Where a side's supply wagons are parked.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WagonSpec {
    /// The side, by name.
    pub side: String,
    /// The park's centre; its size follows from the number of wagon models.
    pub at: Point,
}

/// Old Fritz's options: the `[rules]` table.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// The wings of both sides.
    pub wings: Vec<WingSpec>,
    /// Where each side's wagons are parked; default: the middle of its rear edge, 3" in.
    pub wagons: Vec<WagonSpec>,
    /// An army is broken when this percentage of its battalions, regiments and batteries is
    /// gone or running (default 50).
    pub break_at: u8,
    /// An army whose wagons are taken is broken (default true).
    pub wagons_taken_breaks: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { wings: Vec::new(), wagons: Vec::new(), break_at: 50, wagons_taken_breaks: true }
    }
}

/// A wing in a battle.
#[derive(Clone, Debug, PartialEq)]
pub struct WingInfo {
    /// Its side.
    pub side: u8,
    /// Its name.
    pub name: String,
    /// Its general's name.
    pub general: String,
    /// His quality.
    pub quality: General,
}

/// What stays the same for a whole battle.
#[derive(Debug, PartialEq)]
pub struct Static {
    /// Scenario name.
    pub name: String,
    /// The sides' names.
    pub sides: [String; 2],
    /// Rear edges.
    pub rear: [Edge; 2],
    /// Unit names, by index.
    pub unit_names: Vec<String>,
    /// The table.
    pub table: Table,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// Each objective's bounding box, to rule most out at a glance.
    pub objective_boxes: Vec<volley_table::Aabb>,
    /// Each objective's middle (the centre of its bounding circle): where orders to it send a
    /// wing.
    pub objective_centres: Vec<Option<Point>>,
    /// Wings.
    pub wings: Vec<WingInfo>,
    /// Each side's wagon park: centre and half-extents (x, y) in inches.
    pub parks: [(Point, Point); 2],
    /// Each side's wagon models.
    pub wagons: [u32; 2],
    /// Each side's battalions, regiments and batteries at the start.
    pub major_units: [u32; 2],
    /// Each side's figures at the start.
    pub figures_start: [u32; 2],
    /// Last bound.
    pub turn_limit: u32,
    /// What the turn limit means.
    pub at_turn_limit: AtTurnLimit,
    /// Break percentage.
    pub break_at: u8,
    /// Whether losing the wagons breaks an army.
    pub wagons_taken_breaks: bool,
    /// The named ground, for places in words ([`Static::place_words`]).
    pub landmarks: Landmarks,
}

/// A place farther than this from every named one (inches) is given by its coordinates.
pub const NAMED_NEAR: f64 = volley_scenario::places::NAMED_NEAR;

impl Static {
    /// A place in words, by the names the scenario gives the ground: an objective, a wagon park
    /// or a terrain feature it lies in (`Mittelhof`), else the nearest of them within
    /// [`NAMED_NEAR`] with the distance and the direction from it (`6" south of Mittelhof`),
    /// else its coordinates (`(48, 5)`). See [`volley_scenario::places::Landmarks::named`].
    pub fn place_words(&self, p: Point) -> String {
        self.landmarks.named(p).unwrap_or_else(|| table_part(p, self.table.width, self.table.depth))
    }
}

/// Where `p` is on a table `width` by `depth` inches, in words, for a place no named ground is
/// near: at an edge ("the south edge, 18\" from the west corner") or in a part of the table ("the
/// north-west of the table").
fn table_part(p: Point, width: f64, depth: f64) -> String {
    const EDGE: f64 = 1.0;
    let across = |d: f64, from: &str| format!("{d:.0}\" from the {from} corner");
    if p.y <= EDGE {
        return format!("the south edge, {}", across(p.x, "west"));
    }
    if p.y >= depth - EDGE {
        return format!("the north edge, {}", across(p.x, "west"));
    }
    if p.x <= EDGE {
        return format!("the west edge, {}", across(p.y, "south"));
    }
    if p.x >= width - EDGE {
        return format!("the east edge, {}", across(p.y, "south"));
    }
    let ns = if p.y > depth * 2.0 / 3.0 {
        "north"
    } else if p.y < depth / 3.0 {
        "south"
    } else {
        ""
    };
    let ew = if p.x > width * 2.0 / 3.0 {
        "east"
    } else if p.x < width / 3.0 {
        "west"
    } else {
        ""
    };
    let part = match (ns, ew) {
        ("", "") => "the middle of the table".to_string(),
        (a, "") | ("", a) => format!("the {a} of the table"),
        (a, b) => format!("the {a}-{b} of the table"),
    };
    format!("{part}, {:.0}\" from the west edge and {:.0}\" from the south", p.x, p.y)
}

/// The named ground of a battle: the objectives, the wagon parks and the named terrain.
fn landmarks(sides: &[String; 2], objectives: &[Objective], parks: &[(Point, Point); 2], table: &Table) -> Landmarks {
    let parks = parks.iter().enumerate().map(|(s, (c, h))| Landmark {
        name: format!("the {} wagon park", volley_scenario::possessive(&sides[s])),
        points: vec![
            Point::new(c.x - h.x, c.y - h.y),
            Point::new(c.x + h.x, c.y - h.y),
            Point::new(c.x + h.x, c.y + h.y),
            Point::new(c.x - h.x, c.y + h.y),
        ],
        closed: true,
    });
    Landmarks::new(objectives, parks, table)
}

/// Bounds fought when a scenario gives no turn limit: 30 bounds, five hours.
pub const DEFAULT_TURN_LIMIT: u32 = 30;
/// Width of a wagon model's place in the park, inches.
const WAGON_WIDTH: f64 = 1.0;
/// Depth of a row of wagons, inches.
const WAGON_ROW: f64 = 1.0;
/// Wagon models in a row of the park, at least.
const WAGONS_A_ROW: u32 = 10;
/// Rows a park has at most: a bigger train (over a hundred models) widens its rows instead of
/// reaching ever deeper into the table.
const PARK_ROWS: u32 = 10;

/// Check a parsed scenario file's Old Fritz parts and build the battle.
pub fn build(src: &Source, file: &ScenarioFile) -> Result<Battle, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    file.check_ruleset(src, crate::RULESET_ID, false, &mut errors);
    let table = file.build_table(src);
    let objectives = file.build_objectives(src);
    let rules = &file.rules;
    volley_scenario::check_percent(src, "break_at", rules.break_at, &mut errors);
    let side_names: Vec<String> = file.sides.iter().map(|s| s.get_ref().name.clone()).collect();
    let side_of = |name: &str| side_names.iter().position(|s| s == name).map(|i| i as u8);
    let mut wings: Vec<WingInfo> = Vec::new();
    let mut first_orders: Vec<Order> = Vec::new();
    for w in &rules.wings {
        match side_of(&w.side) {
            Some(side) => {
                if wings.iter().any(|x| x.side == side && x.name == w.name) {
                    errors.push(
                        src.error_whole(format!("[[rules.wings]]: {} have two wings named {:?}", w.side, w.name)),
                    );
                }
                if let Some(p) = w.order.place()
                    && !table.contains(p)
                {
                    errors.push(src.error_whole(format!(
                        "[[rules.wings]] {:?}: its order's place [{}, {}] is off the table",
                        w.name, p.x, p.y
                    )));
                }
                wings.push(WingInfo { side, name: w.name.clone(), general: w.general.clone(), quality: w.quality });
                first_orders.push(w.order);
            }
            None => errors.push(src.error_whole(format!(
                "[[rules.wings]] {:?}: side {:?} is not one of the scenario's sides {side_names:?}",
                w.name, w.side
            ))),
        }
    }
    let mut units: Vec<Unit> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut rear = [Edge::South, Edge::North];
    let mut wagons = [0u32; 2];
    let mut major = [0u32; 2];
    let mut figures_start = [0u32; 2];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        rear[si] = sd.rear_edge;
        if !wings.iter().any(|w| usize::from(w.side) == si) {
            errors.push(src.error(side.span(), format!("side {:?} has no wing in [[rules.wings]]", sd.name)));
        }
        for u in &sd.units {
            let (spec, span) = (u.get_ref(), u.span());
            let wing = wings.iter().position(|w| usize::from(w.side) == si && w.name == spec.wing);
            if wing.is_none() {
                let mine: Vec<&str> =
                    wings.iter().filter(|w| usize::from(w.side) == si).map(|w| w.name.as_str()).collect();
                errors.push(src.error(
                    span.clone(),
                    format!("unit {:?}: wing {:?} is not one of {}'s wings {mine:?}", spec.name, spec.wing, sd.name),
                ));
            }
            let figures = spec.figures.unwrap_or(spec.kind.data().figures);
            if figures == 0 || figures > 60 {
                errors.push(src.error(span.clone(), format!("unit {:?}: figures {figures}: 1 to 60", spec.name)));
            }
            if spec.kind.is_guns() && figures > 6 {
                errors.push(src.error(
                    span.clone(),
                    format!("unit {:?}: a battery has six guns or fewer, found {figures}", spec.name),
                ));
            }
            if spec.limbered && !spec.kind.is_guns() {
                errors.push(src.error(span.clone(), format!("unit {:?}: only guns limber", spec.name)));
            }
            if !table.passable(spec.at) {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "unit {:?} at [{}, {}] is off the table or on impassable ground",
                        spec.name, spec.at.x, spec.at.y
                    ),
                ));
            }
            if names.contains(&spec.name) {
                errors.push(src.error(span.clone(), format!("two units are named {:?}", spec.name)));
            }
            let facing = spec.facing.unwrap_or(sd.rear_edge.inward());
            if !facing.is_finite() {
                errors
                    .push(src.error(span.clone(), format!("unit {:?}: facing must be a number of degrees", spec.name)));
            }
            names.push(spec.name.clone());
            wagons[si] += spec.kind.wagons();
            major[si] += 1;
            figures_start[si] += u32::from(figures);
            let wing = wing.unwrap_or(0) as u16;
            units.push(Unit {
                side: si as u8,
                wing,
                kind: spec.kind,
                quality: spec.quality,
                at: spec.at,
                facing: volley_table::norm_heading(if facing.is_finite() { facing } else { 0.0 }),
                formation: spec.formation,
                limbered: spec.limbered,
                figures,
                figures_start: figures,
                greens: 0,
                second_line: spec.second_line,
                unreliable: spec.unreliable,
                rash: spec.rash,
                foreign: spec.foreign,
                state: State::Steady,
                order: first_orders.get(usize::from(wing)).copied().unwrap_or(Order::Reserve),
                order_seq: 0,
                dest: None,
                hold_here: false,
                busy: 0.0,
                engage: None,
                in_combat: false,
                acted: false,
                pursued: false,
                under_fire: false,
                withdraw_walking: false,
                deserts: false,
                move_left: 0.0,
                advantage: 0,
                no_room: false,
                beaten_by: Vec::new(),
            });
        }
        if sd.units.is_empty() {
            errors.push(src.error(side.span(), format!("side {:?} has no units", sd.name)));
        }
    }
    // The army reserve: one wagon for every three major units.
    for s in 0..2 {
        wagons[s] += major[s] / 3;
    }
    let mut parks = [(Point::default(), Point::default()); 2];
    for s in 0..2usize {
        let a_row = WAGONS_A_ROW.max(wagons[s].div_ceil(PARK_ROWS));
        let rows = wagons[s].div_ceil(a_row).max(1);
        let across = f64::from(wagons[s].clamp(1, a_row)) * WAGON_WIDTH / 2.0;
        let along = f64::from(rows) * WAGON_ROW / 2.0;
        let spec = rules.wagons.iter().find(|w| side_of(&w.side) == Some(s as u8));
        let centre = match spec {
            Some(w) => w.at,
            None => default_park(rear[s], table.width, table.depth, along),
        };
        let half = match rear[s] {
            Edge::South | Edge::North => Point::new(across, along),
            Edge::West | Edge::East => Point::new(along, across),
        };
        if !table.contains(centre) {
            let side = side_names.get(s).map_or("?", |n| n.as_str());
            errors.push(src.error_whole(match spec {
                Some(_) => format!("[[rules.wagons]] of {side}: [{}, {}] is off the table", centre.x, centre.y),
                None => format!(
                    "the wagon park of {side} ({} models, in the middle of its rear edge): [{}, {}] is off the table",
                    wagons[s], centre.x, centre.y
                ),
            }));
        }
        parks[s] = (centre, half);
    }
    for w in &rules.wagons {
        if side_of(&w.side).is_none() {
            errors.push(src.error_whole(format!("[[rules.wagons]]: side {:?} is not one of {side_names:?}", w.side)));
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let sides = [side_names[0].clone(), side_names[1].clone()];
    let stat = Static {
        landmarks: landmarks(&sides, &objectives, &parks, &table),
        name: file.name.clone(),
        sides,
        rear,
        unit_names: names,
        table,
        objective_boxes: objectives.iter().map(|o| volley_table::bbox(&o.points)).collect(),
        objective_centres: objectives
            .iter()
            .map(|o| volley_table::bounding_circle(o.points.iter().copied()).map(|(c, _)| c))
            .collect(),
        objectives,
        wings,
        parks,
        wagons,
        major_units: major,
        figures_start,
        turn_limit: file.turn_limit.unwrap_or(DEFAULT_TURN_LIMIT),
        at_turn_limit: file.at_turn_limit.clone(),
        break_at: rules.break_at,
        wagons_taken_breaks: rules.wagons_taken_breaks,
    };
    Ok(Battle::new(Arc::new(stat), units, first_orders))
}

fn default_park(edge: Edge, w: f64, d: f64, along: f64) -> Point {
    let inset = 3.0 + along;
    match edge {
        Edge::South => Point::new(w / 2.0, inset),
        Edge::North => Point::new(w / 2.0, d - inset),
        Edge::West => Point::new(inset, d / 2.0),
        Edge::East => Point::new(w - inset, d / 2.0),
    }
}

/// Parse and check a scenario's text and build the battle.
pub fn load(src: &Source) -> Result<Battle, Diagnostics> {
    let file = ScenarioFile::parse(src)?;
    build(src, &file)
}

#[cfg(test)]
mod place_words {
    use super::table_part;
    use volley_table::Point;

    // A place no named ground is near is said by the table's edges and parts, never by numbers.
    #[test]
    fn a_place_far_from_named_ground_is_said_in_words() {
        assert_eq!(table_part(Point::new(18.0, 0.0), 72.0, 48.0), "the south edge, 18\" from the west corner");
        assert_eq!(table_part(Point::new(72.0, 30.0), 72.0, 48.0), "the east edge, 30\" from the south corner");
        assert_eq!(
            table_part(Point::new(10.0, 40.0), 72.0, 48.0),
            "the north-west of the table, 10\" from the west edge and 40\" from the south"
        );
        assert!(table_part(Point::new(36.0, 24.0), 72.0, 48.0).starts_with("the middle of the table, 36\""));
        assert!(table_part(Point::new(36.0, 40.0), 72.0, 48.0).starts_with("the north of the table, "));
    }
}
