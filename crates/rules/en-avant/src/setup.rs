//! Scenario files for En Avant: a table measured in centimetres, each side's battalions,
//! regiments and batteries with their statuses, its command group, and what wins. The battle that
//! plays them is not built yet (issue 18); [`check`] reads and checks a file so that scenarios
//! can be written and kept honest meanwhile.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_scenario::{Diagnostic, Diagnostics, Source};
use volley_table::{Point, norm_heading};

use crate::model::{Formation, Kind};
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
}

impl Default for Rules {
    fn default() -> Self {
        Rules { rules_hidden: true, personal_risk: false, break_at: 50 }
    }
}

/// Check a scenario's text as an En Avant scenario: the common parts, then each unit.
pub fn check(src: &Source) -> Result<ScenarioFile, Diagnostics> {
    let file = ScenarioFile::parse(src)?;
    let mut errors: Vec<Diagnostic> = Vec::new();
    file.check_ruleset(src, crate::RULESET_ID, false, &mut errors);
    volley_scenario::check_percent(src, "break_at", file.rules.break_at, &mut errors);
    let table = file.build_table(src);
    let mut names: Vec<&str> = Vec::new();
    for side in &file.sides {
        let sd = side.get_ref();
        for u in &sd.units {
            let (spec, span) = (u.get_ref(), u.span());
            let err = |m: String| src.error(span.clone(), format!("unit {:?}: {m}", spec.name));
            if names.contains(&spec.name.as_str()) {
                errors.push(err("two units have this name".into()));
            }
            names.push(&spec.name);
            if let Some(why) = volley_scenario::bad_name(&spec.name) {
                errors.push(err(why.into()));
            }
            let formation = spec.formation.unwrap_or(default_formation(spec.kind));
            if !spec.kind.formations().contains(&formation) {
                let allowed: Vec<&str> = spec.kind.formations().iter().map(|f| f.name()).collect();
                errors.push(err(format!(
                    "a {:?} may not stand in {}: {}",
                    spec.kind,
                    formation.name(),
                    allowed.join(", ")
                )));
            }
            if !table.passable(spec.at) {
                errors.push(err(format!(
                    "at [{}, {}] it is off the table or on impassable ground",
                    spec.at.x, spec.at.y
                )));
            }
            if spec.facing.is_some_and(|f| !f.is_finite()) {
                errors.push(err("facing must be a number of degrees".into()));
            }
            if spec.second_status.is_some() && spec.kind != Kind::Cavalry {
                errors.push(err("only a cavalry regiment has a second sub-group".into()));
            }
        }
    }
    if errors.is_empty() { Ok(file) } else { Err(Diagnostics(errors)) }
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
pub fn facing(spec: &UnitSpec, rear: volley_scenario::Edge) -> f64 {
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
  { name = "3e Hussards", kind = "cavalry", at = [130, 95], formation = "cavalry_column", status = "pugnacious", second_status = "steady" },
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
