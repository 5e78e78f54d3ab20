//! Scenario files for Itchy and Scratchy: the grid, its terrain by area, the units, and
//! building a battle from them.
//!
//! On a grid, the common `[table]` is measured in grid areas (`width` columns, `depth` rows), the
//! commanders' and objectives' places are grid coordinates, and terrain is given area by area in
//! `[[rules.areas]]` (the common `[[terrain]]` list, which holds polygons in inches, stays empty).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_scenario::{AtTurnLimit, Diagnostic, Diagnostics, Source};
use volley_table::Point;
use volley_table::grid::{Area, Dir, Grid};

use crate::combat::Weapon;
use crate::game::{Battle, Phase};
use crate::model::{Kind, Terrain, Unit};

/// An Itchy and Scratchy scenario file.
pub type ScenarioFile = volley_scenario::Scenario<UnitSpec, Rules>;

/// One unit in a scenario file.
#[derive(Clone, Debug, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct UnitSpec {
    /// Name, such as "1st Gordon Highlanders".
    pub name: String,
    /// Unit type.
    pub kind: Kind,
    /// Its grid area, `[column, row]`.
    pub at: Area,
    /// The edge it faces; default: away from its side's rear edge.
    #[serde(default)]
    pub facing: Option<Dir>,
    /// Strength Points, if adjusted for strength, equipment or training; default by type.
    #[serde(default)]
    pub sp: Option<u8>,
    /// Its weapon; default by type (rifles and carbines for infantry and cavalry, machine guns,
    /// rifled field artillery; none for transport and Generals).
    #[serde(default)]
    pub weapon: Option<Weapon>,
    /// Native troops: with `[rules] native_charge`, their charge with hand-held weapons costs
    /// no movement (an addition to the text, which has no such rule yet).
    #[serde(default)]
    pub native: bool,
}

/// Terrain for some grid areas.
#[derive(Clone, Debug, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct AreaSpec {
    /// The terrain.
    pub kind: Terrain,
    /// A block of areas `[col0, row0, col1, row1]`, both corners included.
    #[serde(default)]
    pub rect: Option<[i16; 4]>,
    /// Single areas, `[[col, row], ...]`.
    #[serde(default)]
    pub at: Vec<Area>,
}

/// Itchy and Scratchy's options: the `[rules]` table.
#[derive(Clone, Debug, Default, PartialEq, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct Rules {
    /// Terrain by area; every other area is open.
    #[schemars(with = "Vec<AreaSpec>")]
    pub areas: Vec<volley_scenario::Spanned<AreaSpec>>,
    /// An addition to the text: native troops (units marked `native`) armed with hand-held
    /// weapons do not lose a grid area of movement for attacking — the charge bonus the author
    /// said he would add and never wrote. Off by default: the text as written.
    pub native_charge: bool,
}

/// What stays the same for a whole battle.
#[derive(Debug, PartialEq)]
pub struct Static {
    /// Scenario name.
    pub name: String,
    /// The sides' names.
    pub sides: [String; 2],
    /// Unit names, by index.
    pub unit_names: Vec<String>,
    /// The grid and its terrain.
    pub grid: Grid,
    /// Objectives: name and areas.
    pub objectives: Vec<(String, Vec<Area>)>,
    /// Each side's Strength Points at the start.
    pub sp_start: [u32; 2],
    /// Last turn, if any.
    pub turn_limit: Option<u32>,
    /// What the turn limit means.
    pub at_turn_limit: AtTurnLimit,
    /// Rear edges, as the direction a side faces by default.
    pub forward: [Dir; 2],
    /// The named ground, for places in words: the objectives, then each kind of terrain but
    /// open ground by its name ("the woods", "the bridge") with its areas.
    pub places: Vec<(String, Vec<Area>)>,
}

impl Static {
    /// Whether `a` is on the grid.
    pub fn contains(&self, a: Area) -> bool {
        self.grid.contains(a)
    }

    /// The terrain at `a` (off the grid: impassable).
    pub fn terrain(&self, a: Area) -> Terrain {
        self.grid.terrain(a)
    }
}

fn whole(p: Point) -> Option<Area> {
    let (c, r) = (p.x.round(), p.y.round());
    ((p.x - c).abs() < 1e-9 && (p.y - r).abs() < 1e-9).then(|| Area::new(c as i16, r as i16))
}

/// Check a parsed scenario file's Itchy and Scratchy parts and build the battle.
pub fn build(src: &Source, file: &ScenarioFile) -> Result<Battle, Diagnostics> {
    let mut errors: Vec<Diagnostic> = Vec::new();
    file.check_ruleset(src, crate::RULESET_ID, false, &mut errors);
    let (w, d) = (file.table.width, file.table.depth);
    let (cols, rows) = (w.round() as i16, d.round() as i16);
    if (w - f64::from(cols)).abs() > 1e-9
        || (d - f64::from(rows)).abs() > 1e-9
        || cols < 2
        || rows < 2
        || cols > 200
        || rows > 200
    {
        errors.push(src.error_at_key(
            &["table"],
            format!(
                "table: on a grid, width and depth count grid areas: whole numbers from 2 to 200, found {w} by {d}"
            ),
        ));
    }
    if let Some(t) = file.terrain.first() {
        errors
            .push(src.error(t.span(), "a grid gives its terrain area by area in [[rules.areas]], not in [[terrain]]"));
    }
    let (cols, rows) = (cols.clamp(2, 200), rows.clamp(2, 200));
    let mut grid = Grid::new(cols, rows);
    for spanned in &file.rules.areas {
        let (spec, span) = (spanned.get_ref(), spanned.span());
        let kind = spec.kind.name();
        let on_grid = |c: i16, r: i16| (0..cols).contains(&c) && (0..rows).contains(&r);
        if spec.rect.is_none() && spec.at.is_empty() {
            errors.push(src.error(span.clone(), format!("[[rules.areas]] of {kind}: expected `rect` or `at`")));
        }
        if let Some([c0, r0, c1, r1]) = spec.rect {
            if on_grid(c0, r0) && on_grid(c1, r1) {
                for c in c0.min(c1)..=c0.max(c1) {
                    for r in r0.min(r1)..=r0.max(r1) {
                        grid.set(Area::new(c, r), spec.kind);
                    }
                }
            } else {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "[[rules.areas]] of {kind}: rect [{c0}, {r0}, {c1}, {r1}] reaches off the {cols} by {rows} grid \
                         (columns 0 to {}, rows 0 to {})",
                        cols - 1,
                        rows - 1
                    ),
                ));
            }
        }
        let off: Vec<&Area> = spec.at.iter().filter(|a| !grid.set(**a, spec.kind)).collect();
        if let Some(first) = off.first() {
            let more = if off.len() > 1 { format!(" (and {} more)", off.len() - 1) } else { String::new() };
            errors.push(src.error(
                span.clone(),
                format!(
                    "[[rules.areas]] of {kind}: area [{}, {}]{more} is off the {cols} by {rows} grid (columns 0 to {}, rows 0 to {})",
                    first.col,
                    first.row,
                    cols - 1,
                    rows - 1
                ),
            ));
        }
    }
    let objectives: Vec<(String, Vec<Area>)> = file
        .build_objectives(src)
        .into_iter()
        .zip(&file.objectives)
        .map(|(o, spanned)| {
            let areas: Vec<Area> =
                grid.areas().filter(|a| volley_table::point_in_polygon(a.centre(), &o.points)).collect();
            if areas.is_empty() {
                errors.push(src.error(spanned.span(), format!("objective {:?} covers no grid area's centre", o.name)));
            }
            (o.name, areas)
        })
        .collect();
    let mut units = Vec::new();
    let mut names = Vec::new();
    let mut sp_start = [0u32; 2];
    let mut forward = [Dir::North, Dir::South];
    for (si, side) in file.sides.iter().enumerate().take(2) {
        let sd = side.get_ref();
        forward[si] = match sd.rear_edge {
            volley_scenario::Edge::South => Dir::North,
            volley_scenario::Edge::North => Dir::South,
            volley_scenario::Edge::West => Dir::East,
            volley_scenario::Edge::East => Dir::West,
        };
        // The side's commander is its General, a unit like any other.
        let mut specs: Vec<(UnitSpec, std::ops::Range<usize>)> = Vec::new();
        match whole(sd.commander.at) {
            Some(at) => specs.push((
                UnitSpec {
                    name: sd.commander.name.clone(),
                    kind: Kind::General,
                    at,
                    facing: None,
                    sp: None,
                    weapon: None,
                    native: false,
                },
                side.span(),
            )),
            None => errors.push(src.error(
                side.span(),
                format!("side {:?}: the commander's `at` is a grid area: two whole numbers [column, row]", sd.name),
            )),
        }
        specs.extend(sd.units.iter().map(|u| (u.get_ref().clone(), u.span())));
        for (spec, span) in specs {
            let sp = spec.sp.unwrap_or_else(|| spec.kind.strength());
            if sp == 0 {
                errors.push(src.error(span.clone(), format!("unit {:?}: sp must be at least 1", spec.name)));
            }
            let weapon = spec.weapon.or_else(|| spec.kind.default_weapon());
            if spec.weapon.is_some() && matches!(spec.kind, Kind::General | Kind::Transport) {
                errors.push(
                    src.error(span.clone(), format!("unit {:?}: {}s carry no weapon", spec.name, spec.kind.name())),
                );
            }
            if !grid.contains(spec.at) {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "unit {:?}: area [{}, {}] is off the {cols} by {rows} grid",
                        spec.name, spec.at.col, spec.at.row
                    ),
                ));
            } else if !grid.terrain(spec.at).passable() {
                errors.push(src.error(span.clone(), format!("unit {:?} stands on impassable ground", spec.name)));
            }
            if names.contains(&spec.name) {
                errors.push(src.error(span.clone(), format!("two units are named {:?}", spec.name)));
            }
            let clash = units.iter().zip(&names).find(|(u, _): &(&Unit, &String)| {
                u.area == spec.at && (u.side != si as u8 || (!u.kind.stacks() && !spec.kind.stacks()))
            });
            if let Some((u, other)) = clash {
                let why = if u.side != si as u8 { "an enemy unit" } else { "another unit that does not stack" };
                errors.push(
                    src.error(span.clone(), format!("unit {:?} shares its area with {why}, {other:?}", spec.name)),
                );
            }
            if spec.native && !file.rules.native_charge {
                errors.push(src.error(
                    span.clone(),
                    format!(
                        "unit {:?} is native, but the text gives native troops no rule of their own: \
                         add [rules] native_charge = true for the charge bonus the author meant to write \
                         (an addition to the text), or drop `native`",
                        spec.name
                    ),
                ));
            }
            sp_start[si] += u32::from(sp);
            names.push(spec.name.clone());
            units.push(Unit {
                side: si as u8,
                kind: spec.kind,
                area: spec.at,
                facing: spec.facing.unwrap_or(forward[si]),
                sp,
                sp_start: sp,
                weapon,
                native: spec.native,
                moved: None,
                attacked: None,
                done: false,
            });
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let places = named_ground(&objectives, &grid);
    let stat = Static {
        places,
        name: file.name.clone(),
        sides: [file.sides[0].get_ref().name.clone(), file.sides[1].get_ref().name.clone()],
        unit_names: names,
        grid,
        objectives,
        sp_start,
        turn_limit: file.turn_limit,
        at_turn_limit: file.at_turn_limit.clone(),
        forward,
    };
    Ok(Battle::new(Arc::new(stat), units, Phase::Initiative))
}

/// The named ground of a grid: the objectives by their names, then each kind of terrain but open
/// ground by its name in the rules' words, with its areas.
fn named_ground(objectives: &[(String, Vec<Area>)], grid: &Grid) -> Vec<(String, Vec<Area>)> {
    let mut out: Vec<(String, Vec<Area>)> =
        objectives.iter().map(|(n, a)| (volley_scenario::places::with_article(n), a.clone())).collect();
    for (kind, name) in [
        (Terrain::Bridge, "the bridge"),
        (Terrain::BuiltUp, "the built-up area"),
        (Terrain::Fortification, "the fortifications"),
        (Terrain::Woods, "the woods"),
        (Terrain::River, "the river"),
        (Terrain::Impassable, "the impassable ground"),
    ] {
        let areas: Vec<Area> = grid.areas().filter(|&a| grid.terrain(a) == kind).collect();
        if !areas.is_empty() {
            out.push((name.to_string(), areas));
        }
    }
    out
}

/// Parse and check a scenario's text and build the battle.
pub fn load(src: &Source) -> Result<Battle, Diagnostics> {
    let file = ScenarioFile::parse(src)?;
    build(src, &file)
}
