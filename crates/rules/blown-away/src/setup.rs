//! Scenario files for Blown Away: the units and options sections, their checks, and building a
//! battle from them.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_chance::Deck;
use volley_scenario::places::Landmarks;
use volley_scenario::{AtTurnLimit, Diagnostic, Diagnostics, Edge, Objective, Source};
use volley_table::{Point, Table};

use crate::game::{Battle, Phase};
use crate::model::{Arm, Formation, Gun, Man, ManState, Role, Unit, lay_out};

/// A Blown Away scenario file.
pub type ScenarioFile = volley_scenario::Scenario<UnitSpec, Rules>;

/// One unit in a scenario file. Infantry default to 10 soldiers and a command element of an
/// officer, a drummer and a flag bearer; cavalry to 10 cavalrymen; artillery to one gun with 4
/// gunners.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, such as "IR 15 Garde".
    pub name: String,
    /// Infantry, cavalry or artillery.
    pub arm: Arm,
    /// Centre of the front rank (artillery: the gun).
    pub at: Point,
    /// Facing in degrees clockwise from north; default: away from the side's rear edge.
    #[serde(default)]
    pub facing: Option<f64>,
    /// Line (default) or column.
    #[serde(default)]
    pub formation: Option<Formation>,
    /// Ranks of a line (default 2).
    #[serde(default)]
    pub ranks: Option<u8>,
    /// Files of a column (default 2).
    #[serde(default)]
    pub files: Option<u8>,
    /// Ordinary soldiers (infantry; default 10).
    #[serde(default)]
    pub soldiers: Option<u16>,
    /// Pikemen (infantry).
    #[serde(default)]
    pub pikemen: u16,
    /// Guardsmen (infantry).
    #[serde(default)]
    pub guardsmen: u16,
    /// Militiamen (infantry): a unit with any is a militia unit.
    #[serde(default)]
    pub militia: u16,
    /// Officers (default 1 for infantry, 0 otherwise).
    #[serde(default)]
    pub officers: Option<u16>,
    /// Drummers (default 1 for infantry, 0 otherwise).
    #[serde(default)]
    pub drummers: Option<u16>,
    /// Flag bearers (default 1 for infantry, 0 otherwise).
    #[serde(default)]
    pub flag_bearers: Option<u16>,
    /// Cavalrymen (cavalry; default 10).
    #[serde(default)]
    pub cavalrymen: Option<u16>,
    /// Gunners (artillery; default 4).
    #[serde(default)]
    pub gunners: Option<u16>,
    /// Cannon balls (artillery; default 4).
    #[serde(default)]
    pub balls: Option<u8>,
}

/// How the armies were set up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Setup {
    /// The rules' encounter set-up, checked: equal men and guns, one commander a side, four
    /// objectives near the middle, an 8-foot table, deployment within 7" of the own rear edge.
    #[default]
    Encounter,
    /// A historical or special set-up: forces and deployment as the file gives them.
    Custom,
}

/// Blown Away's options: the `[rules]` table.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Encounter (checked) or custom set-up.
    pub setup: Setup,
    /// The year of the battle: artillery may not move before 1750.
    pub year: u16,
    /// Objectives a side must hold to win (3 of the 4 in the encounter game); 0 when holding
    /// them wins nothing before the turn limit (a custom set-up whose `at_turn_limit` counts
    /// them, or one without objectives).
    pub objectives_to_win: u8,
    /// The sides (by name) that win by holding objectives; empty (the default) means both. An
    /// attack on a position names the attacker only, so that the defender's garrison does not
    /// win by standing in its own works.
    pub objective_sides: Vec<String>,
    /// A side with fewer men in ranks than this fraction of its men at the start is routed and
    /// loses (both at once: a draw). Unset: no rout rule; the text allows victory by routing
    /// the opposing force, and a scenario chooses it here.
    pub rout_below: Option<f64>,
    /// How far from its own rear edge a side may deploy, inches.
    pub deployment_depth: f64,
}

impl Default for Rules {
    fn default() -> Self {
        Rules {
            setup: Setup::Encounter,
            year: 1757,
            objectives_to_win: 3,
            objective_sides: Vec::new(),
            rout_below: None,
            deployment_depth: ENCOUNTER_DEPLOYMENT,
        }
    }
}

/// What stays the same for a whole battle, shared by every copy of its state.
#[derive(Debug, PartialEq)]
pub struct Static {
    /// Scenario name.
    pub name: String,
    /// The sides' names.
    pub sides: [String; 2],
    /// The commanders' names.
    pub commanders: [String; 2],
    /// Rear edges.
    pub rear: [Edge; 2],
    /// The units' names, by index.
    pub unit_names: Vec<String>,
    /// The table and its terrain.
    pub table: Table,
    /// Objectives.
    pub objectives: Vec<Objective>,
    /// The centre (mean of the corners) of each objective.
    pub objective_centres: Vec<Point>,
    /// The bounding box of each objective.
    pub objective_boxes: Vec<volley_table::Aabb>,
    /// Walking distances to each objective, when the table has impassable ground to go round
    /// (empty otherwise: straight lines will do).
    pub objective_fields: Vec<volley_table::DistanceField>,
    /// Options.
    pub rules: Rules,
    /// Last turn, if any.
    pub turn_limit: Option<u32>,
    /// What the turn limit means.
    pub at_turn_limit: AtTurnLimit,
    /// Whether the table has impassable ground (to skip checks when it has none).
    pub has_impassable: bool,
    /// Which sides win by holding objectives.
    pub objective_sides: [bool; 2],
    /// Each side's men at the start.
    pub men_start: [usize; 2],
    /// The named ground (objectives, named terrain), for places in words.
    pub landmarks: Landmarks,
}

fn men_for(spec: &UnitSpec) -> Vec<(Role, u16)> {
    let cmd = |v: Option<u16>| v.unwrap_or(if spec.arm == Arm::Infantry { 1 } else { 0 });
    let mut roles = vec![
        (Role::Officer, cmd(spec.officers)),
        (Role::Drummer, cmd(spec.drummers)),
        (Role::FlagBearer, cmd(spec.flag_bearers)),
    ];
    match spec.arm {
        Arm::Infantry => {
            roles.push((Role::Soldier, spec.soldiers.unwrap_or(10)));
            roles.push((Role::Pikeman, spec.pikemen));
            roles.push((Role::Guardsman, spec.guardsmen));
            roles.push((Role::Militia, spec.militia));
        }
        Arm::Cavalry => roles.push((Role::Cavalryman, spec.cavalrymen.unwrap_or(10))),
        Arm::Artillery => roles.push((Role::Gunner, spec.gunners.unwrap_or(4))),
    }
    // Roster order: ordinary men first, then the command element, the flag bearer last.
    roles.rotate_left(3);
    roles
}

/// The largest table a Blown Away battle is played on, in square inches: each objective's
/// distance field has a cell an inch square (4 000 000 cells, about 36 MB a field).
pub const MAX_TABLE_AREA: f64 = 4_000_000.0;

/// How far from its own rear edge a side deploys in the encounter set-up, at most, inches.
pub const ENCOUNTER_DEPLOYMENT: f64 = 7.0;

/// Check a parsed scenario file's Blown Away parts and build the battle.
pub fn build(src: &Source, file: &ScenarioFile) -> Result<Battle, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    let variant = match file.variant.as_deref() {
        Some("chance") => crate::model::Variant::Chance,
        Some("without-chance") => crate::model::Variant::WithoutChance,
        other => {
            let found = other.map_or_else(|| "no `variant` key".to_string(), |v| format!("variant {v:?}"));
            errors.push(src.error_at_key(
                &["variant"],
                format!("{found}: blown-away scenarios need variant = \"chance\" or variant = \"without-chance\""),
            ));
            crate::model::Variant::Chance
        }
    };
    file.check_ruleset(src, crate::RULESET_ID, true, &mut errors);
    let rules = file.rules.clone();
    for t in &file.terrain {
        let kind = t.get_ref().kind;
        if matches!(kind, volley_table::TerrainKind::Hedge | volley_table::TerrainKind::SoftGround) {
            errors.push(src.error(
                t.span(),
                format!(
                    "terrain kind = {:?}: Blown Away has no rule for it (it is Old Fritz terrain)",
                    if kind == volley_table::TerrainKind::Hedge { "hedge" } else { "soft_ground" }
                ),
            ));
        }
    }
    let table = file.build_table(src);
    let objectives = file.build_objectives(src);
    let (w, d) = (table.width, table.depth);
    let mut units = Vec::new();
    let mut unit_names = Vec::new();
    let mut men_count = [0usize; 2];
    let mut guns = [0usize; 2];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        for u in &sd.units {
            let spec = u.get_ref();
            let span = u.span();
            let facing = spec.facing.unwrap_or(sd.rear_edge.inward());
            let mut men = Vec::new();
            for (role, n) in men_for(spec) {
                for _ in 0..n {
                    men.push(Man { role, state: ManState::InRanks, at: spec.at, facing });
                }
            }
            let wrong_roles = match spec.arm {
                Arm::Infantry => spec.cavalrymen.is_some() || spec.gunners.is_some() || spec.balls.is_some(),
                Arm::Cavalry => {
                    spec.soldiers.is_some()
                        || spec.pikemen + spec.guardsmen + spec.militia > 0
                        || spec.gunners.is_some()
                        || spec.balls.is_some()
                }
                Arm::Artillery => {
                    spec.soldiers.is_some()
                        || spec.pikemen + spec.guardsmen + spec.militia > 0
                        || spec.cavalrymen.is_some()
                }
            };
            if wrong_roles {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "unit {:?}: a unit is of one type only; {:?} units take {}",
                        spec.name,
                        spec.arm,
                        match spec.arm {
                            Arm::Infantry => "soldiers, pikemen, guardsmen, militia and a command element",
                            Arm::Cavalry => "cavalrymen and an optional command element",
                            Arm::Artillery => "gunners and balls",
                        }
                    ),
                ));
            }
            if men.is_empty() {
                errors.push(src.error(span.clone(), format!("unit {:?} has no men", spec.name)));
            }
            if spec.ranks == Some(0) || spec.files == Some(0) {
                errors
                    .push(src.error(span.clone(), format!("unit {:?}: ranks and files must be at least 1", spec.name)));
            }
            let formation = spec.formation.unwrap_or(Formation::Line);
            if spec.arm == Arm::Artillery && formation == Formation::Column {
                errors
                    .push(src.error(span.clone(), format!("unit {:?}: artillery has no column formation", spec.name)));
            }
            men_count[si] += men.len();
            let gun = (spec.arm == Arm::Artillery).then(|| Gun { at: spec.at, facing, balls: spec.balls.unwrap_or(4) });
            guns[si] += usize::from(gun.is_some());
            let mut unit = Unit {
                side: si as u8,
                arm: spec.arm,
                formation,
                ranks: spec.ranks.unwrap_or(2),
                files: spec.files.unwrap_or(2),
                front: spec.at,
                facing: volley_table::norm_heading(facing),
                men,
                gun,
                militia: spec.militia > 0,
                engagement: None,
                engaged_with: Vec::new(),
                killed: 0,
                fought: false,
                fired: false,
                frame: None,
            };
            lay_out(&mut unit);
            for m in &unit.men {
                if !table.passable(m.at) {
                    errors.push(src.error(span.clone(), format!(
                        "unit {:?}: a man at ({:.1}, {:.1}) would stand off the table or on impassable ground; move `at` or change the formation",
                        spec.name, m.at.x, m.at.y
                    )));
                    break;
                }
            }
            if rules.setup == Setup::Encounter {
                let depth = rules.deployment_depth;
                if unit.men.iter().any(|m| sd.rear_edge.dist(m.at, w, d) > depth + 1e-9) {
                    errors.push(src.error(span.clone(), format!(
                        "unit {:?}: in the encounter set-up units deploy within {depth}\" of their own rear edge ({:?})",
                        spec.name, sd.rear_edge
                    )));
                }
            }
            // No unit stands on another of its side (as at the deployment).
            if let Some(k) = units.iter().position(|o: &Unit| o.side == unit.side && unit.stands_on(o)) {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "unit {:?} would stand on {:?}: units of a side stand at least 1\" apart (the figures' spacing)",
                        spec.name,
                        unit_names.get(k).map_or("", String::as_str)
                    ),
                ));
            }
            if unit_names.contains(&spec.name) {
                errors.push(src.error(span.clone(), format!("two units are named {:?}", spec.name)));
            }
            unit_names.push(spec.name.clone());
            units.push(unit);
        }
    }
    if rules.setup == Setup::Encounter {
        if men_count[0] != men_count[1] || guns[0] != guns[1] {
            errors.push(src.error_whole(format!(
                "the encounter set-up needs equal forces: {} men and {} guns against {} men and {} guns (use [rules] setup = \"custom\" for a historical battle)",
                men_count[0], guns[0], men_count[1], guns[1]
            )));
        }
        if objectives.len() != 4 {
            errors
                .push(src.error_whole(format!("the encounter set-up places 4 objectives, found {}", objectives.len())));
        }
        if (w - 96.0).abs() > 1e-9 {
            errors.push(src.error_at_key(
                &["table", "width"],
                format!("the encounter set-up uses an 8-foot table: width = 96, found {w}"),
            ));
        }
        for (o, spec) in objectives.iter().zip(&file.objectives) {
            let c = o.points.iter().fold(Point::default(), |a, &p| a + p) * (1.0 / o.points.len().max(1) as f64);
            if c.y < d / 4.0 || c.y > 3.0 * d / 4.0 {
                errors.push(src.error(spec.span(), format!(
                    "objective {:?}: in the encounter set-up objectives lie near the middle (the middle half of the table's depth)",
                    o.name
                )));
            }
        }
    }
    // 0 in a custom set-up: the objectives win nothing on the way, and decide only at the turn
    // limit (`at_turn_limit = "most_objectives"`).
    let least = usize::from(rules.setup == Setup::Encounter && !objectives.is_empty());
    if usize::from(rules.objectives_to_win) > objectives.len() || usize::from(rules.objectives_to_win) < least {
        errors.push(src.error_at_key(
            &["rules", "objectives_to_win"],
            format!(
                "[rules] objectives_to_win is {}, but there are {} objectives: expected {least} to {}",
                rules.objectives_to_win,
                objectives.len(),
                objectives.len()
            ),
        ));
    }
    let side_names: Vec<&str> = file.sides.iter().map(|s| s.get_ref().name.as_str()).collect();
    for name in &rules.objective_sides {
        if !side_names.contains(&name.as_str()) {
            errors.push(src.error_at_key(
                &["rules", "objective_sides"],
                format!("[rules] objective_sides names {name:?}, which is not a side: expected one of {side_names:?}"),
            ));
        }
    }
    if let Some(f) = rules.rout_below
        && !(f > 0.0 && f < 1.0)
    {
        errors.push(src.error_at_key(
            &["rules", "rout_below"],
            format!("[rules] rout_below is {f}: expected a fraction between 0 and 1"),
        ));
    }
    let depth = rules.deployment_depth;
    let most = if rules.setup == Setup::Encounter { ENCOUNTER_DEPLOYMENT } else { f64::from(u16::MAX) };
    if !(depth > 0.0 && depth <= most) {
        errors.push(src.error_at_key(
            &["rules", "deployment_depth"],
            if rules.setup == Setup::Encounter {
                format!(
                    "[rules] deployment_depth is {depth}: the encounter set-up deploys up to {ENCOUNTER_DEPLOYMENT}\" \
                     from the own rear edge (use setup = \"custom\" for another battle)"
                )
            } else {
                format!("[rules] deployment_depth is {depth}: expected inches greater than 0")
            },
        ));
    }
    if objectives.is_empty() && rules.rout_below.is_none() && file.turn_limit.is_none() {
        errors.push(src.error_whole(
            "the battle has no objectives, no [rules] rout_below and no turn_limit: nothing would end it but annihilation",
        ));
    }
    let area = file.table.width * file.table.depth;
    if area > MAX_TABLE_AREA {
        errors.push(src.error_whole(format!(
            "table: a Blown Away table is at most {MAX_TABLE_AREA} square inches (the way to each objective \
             is mapped an inch square at a time), found {} by {} = {area}",
            file.table.width, file.table.depth
        )));
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let side_names = [file.sides[0].get_ref().name.clone(), file.sides[1].get_ref().name.clone()];
    let commanders_at = [file.sides[0].get_ref().commander.at, file.sides[1].get_ref().commander.at];
    let has_impassable = table
        .features()
        .iter()
        .any(|f| matches!(f.kind, volley_table::TerrainKind::River | volley_table::TerrainKind::Impassable));
    let holders = vec![None; objectives.len()];
    let objective_fields = if has_impassable {
        objectives.iter().map(|o| volley_table::DistanceField::to_area(&table, &o.points, 1.0)).collect()
    } else {
        Vec::new()
    };
    let landmarks = Landmarks::new(&objectives, [], &table).with_articles();
    let stat = Static {
        landmarks,
        name: file.name.clone(),
        commanders: [file.sides[0].get_ref().commander.name.clone(), file.sides[1].get_ref().commander.name.clone()],
        sides: side_names,
        rear: [file.sides[0].get_ref().rear_edge, file.sides[1].get_ref().rear_edge],
        unit_names,
        table,
        objective_centres: objectives.iter().map(|o| crate::game::centroid(&o.points)).collect(),
        objective_boxes: objectives.iter().map(|o| volley_table::bbox(&o.points)).collect(),
        objective_fields,
        objectives,
        turn_limit: file.turn_limit,
        at_turn_limit: file.at_turn_limit.clone(),
        has_impassable,
        objective_sides: [0, 1].map(|i| {
            rules.objective_sides.is_empty() || rules.objective_sides.iter().any(|n| *n == file.sides[i].get_ref().name)
        }),
        men_start: men_count,
        rules,
    };
    Ok(Battle {
        stat: Arc::new(stat),
        variant,
        turn: 0,
        phase: Phase::Deploy,
        mover: 0,
        units,
        commanders: commanders_at,
        decks: [Deck::new(), Deck::new()],
        holders,
        next_engagement: 0,
        outcome: None,
        deployed: [false, false],
        unit_done: false,
        commander_moved: false,
        declared: Vec::new(),
    })
}

/// Parse and check a scenario's text and build the battle.
pub fn load(src: &Source) -> Result<Battle, Diagnostics> {
    let file = ScenarioFile::parse(src)?;
    build(src, &file)
}
