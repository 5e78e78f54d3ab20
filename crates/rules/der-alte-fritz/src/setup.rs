//! Scenario files for Der Alte Fritz: the table, each side's units with their figures and stands,
//! the officers, and what wins.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_scenario::places::Landmarks;
use volley_scenario::{AtTurnLimit, Diagnostic, Diagnostics, Edge, Objective, Source};
use volley_table::{Point, Table, convex_overlap, norm_heading};

use crate::game::Battle;
use crate::model::{Formation, Officer, State, Unit, Wound, rate};
use crate::units::{Arm, UnitType};

/// A Der Alte Fritz scenario file.
pub type ScenarioFile = volley_scenario::Scenario<UnitSpec, Rules>;

/// One battalion, cavalry regiment or battery in a scenario file.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, such as "IR 15 Garde".
    pub name: String,
    /// Its row of the unit table.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// The centre of its footprint, `[x, y]` in inches.
    pub at: Point,
    /// Facing in degrees clockwise from north; default: away from its side's rear edge.
    #[serde(default)]
    pub facing: Option<f64>,
    /// Formation; default line (skirmish order for Cossacks, unlimbered for guns).
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Figures (guns: gunners); default 24 foot, 12 horse, 4 gunners.
    #[serde(default)]
    pub figures: Option<u32>,
    /// Figures a stand; default 4 foot, 2 horse (guns: all the gunners on the one gun stand).
    #[serde(default)]
    pub figures_per_stand: Option<u32>,
    /// Jägers only: armed with rifles (range 16"), rather than Croats or irregulars (12").
    #[serde(default)]
    pub rifles: bool,
}

/// A side's own options.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SideRules {
    /// The side, by name.
    pub side: String,
    /// Its foot and horse move obliquely at full rate less 2" (the Prussians).
    #[serde(default)]
    pub oblique: bool,
    /// Its army commander is exceptional (Frederick, Saxe, Ferdinand): +1 to the initiative die.
    #[serde(default)]
    pub exceptional: bool,
    /// The unit its army commander rides with, by name; default: none (he stands where the
    /// side's `commander.at` puts him).
    #[serde(default)]
    pub commander_with: Option<String>,
}

/// A leader: a mounted officer attached to a unit.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OfficerSpec {
    /// The side, by name.
    pub side: String,
    /// His name.
    pub name: String,
    /// The unit he starts with, by name.
    pub with: String,
}

/// Der Alte Fritz's options: the `[rules]` table.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Each side's options.
    pub sides: Vec<SideRules>,
    /// Leaders attached to units.
    pub officers: Vec<OfficerSpec>,
    /// An army is broken, and loses, when this percentage of its units is removed or routing at
    /// the end of a turn (default 50).
    pub break_at: u8,
    /// The names of terrain areas that are very rough ground (a quarter rate: each inch costs
    /// four). Woods, towns and soft ground are rough (half rate) without being named.
    pub very_rough: Vec<String>,
}

impl Default for Rules {
    fn default() -> Self {
        Rules { sides: Vec::new(), officers: Vec::new(), break_at: 50, very_rough: Vec::new() }
    }
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
    /// Each side moves obliquely (Prussians).
    pub oblique: [bool; 2],
    /// Units each side has at the start.
    pub units_start: [u32; 2],
    /// Figures each side has at the start.
    pub figures_start: [u32; 2],
    /// Last turn.
    pub turn_limit: u32,
    /// What the turn limit means.
    pub at_turn_limit: AtTurnLimit,
    /// Break percentage.
    pub break_at: u8,
    /// The terrain features (by index) that are very rough ground.
    pub very_rough: Vec<usize>,
    /// The named ground (objectives, named terrain), for places in words.
    pub landmarks: Landmarks,
}

/// Turns fought when a scenario gives no turn limit.
pub const DEFAULT_TURN_LIMIT: u32 = 12;
/// The most figures a unit may have.
pub const MAX_FIGURES: u32 = 200;

fn default_formation(kind: UnitType) -> Formation {
    match kind.profile().arm {
        Arm::Artillery => Formation::Unlimbered,
        _ if kind == UnitType::Cossacks => Formation::Skirmish,
        _ => Formation::Line,
    }
}

/// Check a parsed scenario file's Der Alte Fritz parts and build the battle.
pub fn build(src: &Source, file: &ScenarioFile) -> Result<Battle, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    file.check_ruleset(src, crate::RULESET_ID, false, &mut errors);
    let table = file.build_table(src);
    let objectives = file.build_objectives(src);
    let rules = &file.rules;
    volley_scenario::check_percent(src, "break_at", rules.break_at, &mut errors);
    let side_names: Vec<String> = file.sides.iter().map(|s| s.get_ref().name.clone()).collect();
    let side_of = |name: &str| side_names.iter().position(|s| s == name).map(|i| i as u8);
    let mut units: Vec<Unit> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    let mut rear = [Edge::South, Edge::North];
    let mut units_start = [0u32; 2];
    let mut figures_start = [0u32; 2];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        rear[si] = sd.rear_edge;
        for u in &sd.units {
            let (spec, span) = (u.get_ref(), u.span());
            let err = |m: String| src.error(span.clone(), format!("unit {:?}: {m}", spec.name));
            let p = spec.kind.profile();
            let formation = spec.formation.unwrap_or_else(|| default_formation(spec.kind));
            if rate(spec.kind, formation).is_none() {
                errors.push(err(format!("{} may not stand in {}", p.name, formation.name())));
            }
            let (fig_default, fps_default) = match p.arm {
                Arm::Infantry => (24, 4),
                Arm::Cavalry => (12, 2),
                Arm::Artillery => (4, 0),
            };
            let figures = spec.figures.unwrap_or(fig_default);
            if figures == 0 || figures > MAX_FIGURES {
                errors.push(err(format!("figures {figures}: 1 to {MAX_FIGURES}")));
            }
            let fps = match p.arm {
                Arm::Artillery => {
                    if spec.figures_per_stand.is_some() {
                        errors.push(err("a battery's gunners stand with its one gun: no figures_per_stand".into()));
                    }
                    figures.max(1)
                }
                _ => spec.figures_per_stand.unwrap_or(fps_default),
            };
            if fps == 0 || fps > figures.max(1) {
                errors.push(err(format!("figures_per_stand {fps}: 1 to its {figures} figures")));
            }
            if spec.rifles && spec.kind != UnitType::Jagers {
                errors.push(err("only jägers carry rifles".into()));
            }
            if names.contains(&spec.name) {
                errors.push(err("two units have this name".into()));
            }
            if let Some(why) = volley_scenario::bad_name(&spec.name) {
                errors.push(err(why.into()));
            }
            let facing = spec.facing.unwrap_or(sd.rear_edge.inward());
            if !facing.is_finite() {
                errors.push(err("facing must be a number of degrees".into()));
            }
            let mut unit = Unit {
                side: si as u8,
                kind: spec.kind,
                rifles: spec.rifles,
                at: spec.at,
                facing: norm_heading(if facing.is_finite() { facing } else { 0.0 }),
                formation,
                figures,
                figures_start: figures,
                figures_per_stand: fps.max(1),
                hits: 0,
                state: State::Good,
                shaken_turn: 0,
                last_moved: 0,
                reformed_turn: 0,
                turned_turn: 0,
                acted: false,
                charging: None,
                charged_at: None,
                reserve: false,
            };
            // A line is 3 or more stands wide: a unit of 2 stands stands as a column unless the
            // file says line, which is refused.
            if unit.too_narrow_for(formation) {
                let narrow = if rate(spec.kind, Formation::AttackColumn).is_some() {
                    Formation::AttackColumn
                } else {
                    Formation::MarchColumn
                };
                if spec.formation.is_some() {
                    errors.push(err(format!(
                        "{} stands may not stand in line (a line is 3 or more stands wide): {} will do",
                        unit.stands(),
                        narrow.name()
                    )));
                } else {
                    unit.formation = narrow;
                }
            }
            if unit.worn_out() && figures > 0 {
                errors.push(err(format!(
                    "{figures} figures at {fps} a stand are already too few (a unit is removed at 1 stand of foot or 2 of horse)"
                )));
            }
            let corners = unit.corners();
            if !crate::game::body_clear(&table, &corners) || !table.passable(spec.at) {
                errors.push(err(format!(
                    "at [{}, {}] its footprint is off the table or on impassable ground",
                    spec.at.x, spec.at.y
                )));
            }
            if let Some(j) = units.iter().position(|o| convex_overlap(&o.corners(), &corners)) {
                errors.push(err(format!("its footprint overlaps {:?}'s", names[j])));
            }
            names.push(spec.name.clone());
            units_start[si] += 1;
            figures_start[si] += figures;
            units.push(unit);
        }
    }
    let unit_of = |name: &str, side: u8| names.iter().position(|n| n == name).filter(|&i| units[i].side == side);
    let mut officers: Vec<Officer> = Vec::new();
    let mut oblique = [false; 2];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        let own = rules.sides.iter().find(|r| r.side == sd.name);
        oblique[si] = own.is_some_and(|r| r.oblique);
        let with = match own.and_then(|r| r.commander_with.as_deref()) {
            Some(n) => {
                let u = unit_of(n, si as u8);
                if u.is_none() {
                    errors.push(src.error_at_key(
                        &["rules", "sides"],
                        format!("[[rules.sides]] {}: commander_with {n:?} is not one of its units", sd.name),
                    ));
                }
                u
            }
            None => None,
        };
        officers.push(Officer {
            side: si as u8,
            name: sd.commander.name.clone(),
            with: with.map(|u| u as u16),
            at: with.map_or(sd.commander.at, |u| units[u].at),
            commander: true,
            exceptional: own.is_some_and(|r| r.exceptional),
            wound: Wound::NONE,
            acted: false,
        });
    }
    for (k, r) in rules.sides.iter().enumerate() {
        if side_of(&r.side).is_none() {
            errors.push(src.error_at_key(
                &["rules", "sides"],
                format!("[[rules.sides]]: {:?} is not one of {side_names:?}", r.side),
            ));
        }
        if rules.sides[..k].iter().any(|o| o.side == r.side) {
            errors.push(src.error_at_key(&["rules", "sides"], format!("[[rules.sides]]: {:?} is given twice", r.side)));
        }
    }
    for (k, o) in rules.officers.iter().enumerate() {
        let taken = rules.officers[..k].iter().any(|p| p.name == o.name)
            || file.sides.iter().any(|sd| sd.get_ref().commander.name == o.name);
        if taken {
            errors.push(src.error_at_key(
                &["rules", "officers"],
                format!("[[rules.officers]]: two officers are named {:?} (an account must tell them apart)", o.name),
            ));
        }
        if let Some(why) = volley_scenario::bad_name(&o.name) {
            errors.push(src.error_at_key(&["rules", "officers"], format!("[[rules.officers]] {:?}: {why}", o.name)));
        }
        let Some(side) = side_of(&o.side) else {
            errors.push(src.error_at_key(
                &["rules", "officers"],
                format!("[[rules.officers]] {:?}: side {:?} is not one of {side_names:?}", o.name, o.side),
            ));
            continue;
        };
        match unit_of(&o.with, side) {
            Some(u) => officers.push(Officer {
                side,
                name: o.name.clone(),
                with: Some(u as u16),
                at: units[u].at,
                commander: false,
                exceptional: false,
                wound: Wound::NONE,
                acted: false,
            }),
            None => errors.push(src.error_at_key(
                &["rules", "officers"],
                format!("[[rules.officers]] {:?}: {:?} is not one of the units of {}", o.name, o.with, o.side),
            )),
        }
    }
    let mut very_rough = Vec::new();
    for name in &rules.very_rough {
        match table.features().iter().position(|f| &f.name == name && !f.kind.is_linear()) {
            Some(i) => very_rough.push(i),
            None => errors.push(src.error_at_key(
                &["rules", "very_rough"],
                format!("[rules] very_rough: {name:?} is not the name of a terrain area"),
            )),
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let landmarks = Landmarks::new(&objectives, [], &table).with_articles();
    let stat = Static {
        landmarks,
        name: file.name.clone(),
        sides: [side_names[0].clone(), side_names[1].clone()],
        rear,
        unit_names: names,
        table,
        objectives,
        oblique,
        units_start,
        figures_start,
        turn_limit: file.turn_limit.unwrap_or(DEFAULT_TURN_LIMIT),
        at_turn_limit: file.at_turn_limit.clone(),
        break_at: rules.break_at,
        very_rough,
    };
    Ok(Battle::new(Arc::new(stat), units, officers))
}

/// Parse and check a scenario's text and build the battle.
pub fn load(src: &Source) -> Result<Battle, Diagnostics> {
    let file = ScenarioFile::parse(src)?;
    build(src, &file)
}
