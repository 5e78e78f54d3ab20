//! Scenario files for En Avant: a table measured in centimetres, each side's battalions,
//! regiments and batteries with their statuses, its command group, and what wins; [`load`] reads
//! and checks one and builds the battle.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

use volley_scenario::{AtTurnLimit, Diagnostic, Diagnostics, Edge, Measure, Objective, Source};
use volley_table::{Point, Table, norm_heading};

use crate::battle::{Battle, Officer, Pending, Presence, Unit};
use crate::model::{Formation, Kind};
use crate::orders::Order;
use crate::tables::Status;

/// An En Avant scenario file.
pub type ScenarioFile = volley_scenario::Scenario<UnitSpec, Rules>;

/// One battalion, regiment, battery or rifle company.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, such as "2/95th Rifles".
    pub name: String,
    /// What it is.
    pub kind: Kind,
    /// The centre of its front edge, `[x, y]` in centimetres.
    pub at: Point,
    /// Facing in degrees clockwise from north; default: away from its side's rear edge.
    #[serde(default)]
    pub facing: Option<f64>,
    /// Formation; default line (guns: deployed).
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Its status at the start; default Steady. A cavalry regiment's first sub-group.
    #[serde(default)]
    pub status: Option<Status>,
    /// A cavalry regiment's second sub-group's status; default as the first.
    #[serde(default)]
    pub second_status: Option<Status>,
}

/// En Avant's options: the `[rules]` table.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Game Control keeps the rules from the players: they see status words and what happened,
    /// never a table, a modifier or a number (default true).
    pub rules_hidden: bool,
    /// The optional roll for personal risk (default false: off; the only dice of the game).
    pub personal_risk: bool,
    /// A side has lost when this percentage of its units is running away or gone at the end of a
    /// turn (default 50).
    pub break_at: u8,
    /// Game Control's choice: once the battle is over, every seat sees what Game Control saw
    /// (every order, the numbers and tables behind each result). Default true; false keeps the
    /// rules hidden after the battle too, for players who will play again.
    pub reveal_at_end: bool,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { rules_hidden: true, personal_risk: false, break_at: 50, reveal_at_end: true }
    }
}

/// What stays the same through a battle.
#[derive(Clone, Debug)]
pub struct Static {
    /// Scenario name.
    pub name: String,
    /// The sides' names.
    pub sides: [String; 2],
    /// Rear edges.
    pub rear: [Edge; 2],
    /// Each side's command group (its flag: where cavalry back from a pursuit rally).
    pub hq: [Point; 2],
    /// Unit names, by index.
    pub unit_names: Vec<String>,
    /// The table.
    pub table: Table,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// Units each side has at the start.
    pub units_start: [u32; 2],
    /// Last turn.
    pub turn_limit: u32,
    /// What the turn limit means.
    pub at_turn_limit: AtTurnLimit,
    /// The scenario's options.
    pub rules: Rules,
}

/// Turns fought when a scenario gives no turn limit.
pub const DEFAULT_TURN_LIMIT: u32 = 12;

/// Check a scenario's text as an En Avant scenario: the common parts, then each unit.
pub fn check(src: &Source) -> Result<ScenarioFile, Diagnostics> {
    let file = ScenarioFile::parse_in(src, Measure::Centimetres)?;
    build(src, &file)?;
    Ok(file)
}

/// Check a parsed scenario file's En Avant parts and build the battle.
pub fn build(src: &Source, file: &ScenarioFile) -> Result<Battle, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    file.check_ruleset(src, crate::RULESET_ID, false, &mut errors);
    volley_scenario::check_percent(src, "break_at", file.rules.break_at, &mut errors);
    let table = file.build_table(src);
    let objectives = file.build_objectives(src);
    let mut names: Vec<String> = Vec::new();
    let mut units: Vec<Unit> = Vec::new();
    let mut rear = [Edge::South, Edge::North];
    let mut hq = [Point::new(0.0, 0.0); 2];
    let mut side_names = [String::new(), String::new()];
    let mut officers: Vec<Officer> = Vec::new();
    let mut units_start = [0u32; 2];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        rear[si] = sd.rear_edge;
        hq[si] = sd.commander.at;
        side_names[si] = sd.name.clone();
        officers.push(Officer {
            name: sd.commander.name.clone(),
            at: sd.commander.at,
            with: None,
            since: 0,
            present: true,
            ride: None,
        });
        for u in &sd.units {
            let (spec, span) = (u.get_ref(), u.span());
            let err = |m: String| src.error(span.clone(), format!("unit {:?}: {m}", spec.name));
            if names.contains(&spec.name) {
                errors.push(err("two units have this name".into()));
            }
            if let Some(why) = volley_scenario::bad_name(&spec.name) {
                errors.push(err(why.into()));
            }
            let formation = spec.formation.unwrap_or(default_formation(spec.kind));
            if !spec.kind.formations().contains(&formation) {
                let allowed: Vec<&str> = spec.kind.formations().iter().map(|f| f.name()).collect();
                errors.push(err(format!(
                    "a {} may not stand in {}: {}",
                    spec.kind.name(),
                    formation.name(),
                    allowed.join(", ")
                )));
            }
            if spec.facing.is_some_and(|f| !f.is_finite()) {
                errors.push(err("facing must be a number of degrees".into()));
            }
            if spec.second_status.is_some() && spec.kind != Kind::Cavalry {
                errors.push(err("only a cavalry regiment has a second sub-group".into()));
            }
            let status = spec.status.unwrap_or(Status::Steady);
            let second = if spec.kind == Kind::Cavalry { spec.second_status.unwrap_or(status) } else { status };
            let unit = Unit {
                side: si as u8,
                kind: spec.kind,
                at: spec.at,
                facing: if spec.facing.is_some_and(|f| !f.is_finite()) { 0.0 } else { facing(spec, sd.rear_edge) },
                formation,
                status: [status, second],
                disordered: [false; 2],
                disordered_turn: 0,
                fired_turn: 0,
                fired_before: 0,
                fired_ever: false,
                moved_turn: 0,
                musket_turn: 0,
                engaged_turn: 0,
                change: None,
                formed_square: None,
                pending: Pending::None,
                ran: 0,
                presence: Presence::Here,
                card: Order::Halt,
                card_before: Order::Halt,
                carded: false,
                second_line: false,
                joined: false,
                fought: None,
                rallied: 0,
                support: None,
            };
            let c = unit.corners();
            if !c.iter().all(|&p| table.contains(p) && table.passable(p)) {
                errors.push(err(format!(
                    "at [{}, {}] its footprint is off the table or on impassable ground",
                    spec.at.x, spec.at.y
                )));
            }
            if let Some(j) = units.iter().position(|o| volley_table::convex_overlap(&o.corners(), &c)) {
                errors.push(err(format!("its footprint overlaps {:?}'s", names[j])));
            }
            names.push(spec.name.clone());
            units_start[si] += 1;
            units.push(unit);
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let [o0, o1]: [Officer; 2] = match officers.try_into() {
        Ok(o) => o,
        Err(_) => return Err(Diagnostics(vec![src.error_whole("a battle needs two sides")])),
    };
    let stat = Static {
        name: file.name.clone(),
        sides: side_names,
        rear,
        hq,
        unit_names: names,
        table,
        objectives,
        units_start,
        turn_limit: file.turn_limit.unwrap_or(DEFAULT_TURN_LIMIT),
        at_turn_limit: file.at_turn_limit.clone(),
        rules: file.rules.clone(),
    };
    Ok(Battle::new(Arc::new(stat), units, [o0, o1]))
}

/// Parse and check a scenario's text and build the battle.
pub fn load(src: &Source) -> Result<Battle, Diagnostics> {
    let file = ScenarioFile::parse_in(src, Measure::Centimetres)?;
    build(src, &file)
}

/// A unit's formation when the scenario names none.
pub fn default_formation(kind: Kind) -> Formation {
    match kind {
        Kind::Cavalry => Formation::CavalryLine,
        Kind::Artillery | Kind::HorseArtillery => Formation::Deployed,
        _ => Formation::Line,
    }
}

/// A unit's facing when the scenario names none: away from its side's rear edge.
pub fn facing(spec: &UnitSpec, rear: Edge) -> f64 {
    norm_heading(spec.facing.unwrap_or(rear.inward()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"name = "t"
ruleset = "en-avant"
[table]
width = 180
depth = 120
[[sides]]
name = "British"
rear_edge = "south"
commander = { name = "Brigadier", at = [90, 5] }
units = [
  { name = "1/52nd", kind = "infantry", at = [60, 30], status = "determined" },
  { name = "2/95th", kind = "rifle_company", at = [90, 45] },
]
[[sides]]
name = "French"
rear_edge = "north"
commander = { name = "Général", at = [90, 115] }
units = [
  { name = "1/6e Léger", kind = "light_infantry", at = [60, 90], formation = "assault_column" },
  { name = "3e Hussards", kind = "cavalry", at = [130, 85], formation = "cavalry_column", status = "pugnacious", second_status = "steady" },
]
"#;

    #[test]
    fn a_scenario_reads_and_its_mistakes_are_found_where_written() {
        let f = check(&Source::new("t.toml", GOOD)).unwrap();
        assert!(f.rules.rules_hidden && !f.rules.personal_risk);
        let bad = GOOD.replace(
            "kind = \"rifle_company\", at = [90, 45]",
            "kind = \"rifle_company\", at = [90, 45], formation = \"square\"",
        );
        let e = check(&Source::new("t.toml", bad)).unwrap_err().to_string();
        assert!(e.starts_with("t.toml:12:") && e.contains("may not stand in square"), "{e}");
        let bad = GOOD.replace("second_status = \"steady\"", "second_status = \"steady\", formation = \"line\"");
        assert!(check(&Source::new("t.toml", bad)).is_err(), "a duplicate key");
    }
}
