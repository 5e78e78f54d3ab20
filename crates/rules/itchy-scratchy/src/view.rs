//! What a viewer sees: the grid, its terrain, the units. Nothing is hidden in Itchy and
//! Scratchy, so every viewer sees the same.

use volley_core::{
    Footprint, View, ViewCounter, ViewFeature, ViewObjective, ViewPiece, ViewRange, ViewStanding, Viewer,
};
use volley_table::grid::Area;

use crate::game::Battle;
use crate::model::{Kind, Terrain};

fn square(a: Area) -> Vec<[f64; 2]> {
    block(&[a])
}

/// The outline of the block of areas from the least to the greatest column and row of
/// `areas` (empty if there are none), in grid units.
fn block(areas: &[Area]) -> Vec<[f64; 2]> {
    let (Some(c0), Some(c1)) = (areas.iter().map(|a| a.col).min(), areas.iter().map(|a| a.col).max()) else {
        return Vec::new();
    };
    let (r0, r1) = (areas.iter().map(|a| a.row).min().unwrap_or(0), areas.iter().map(|a| a.row).max().unwrap_or(0));
    let (x0, y0, x1, y1) = (f64::from(c0), f64::from(r0), f64::from(c1) + 1.0, f64::from(r1) + 1.0);
    vec![[x0, y0], [x1, y0], [x1, y1], [x0, y1]]
}

/// The areas a unit's weapon reaches, in its arc, each with the dice it throws there.
fn ranges(b: &Battle, u: &crate::model::Unit) -> Vec<ViewRange> {
    let Some(w) = u.weapon else { return Vec::new() };
    b.stat()
        .grid
        .areas()
        .filter_map(|a| {
            let d = u.area.distance(a);
            let dice = w.dice_at(u8::try_from(d).ok()?)?;
            volley_table::grid::in_arc(u.area, u.facing, a)
                .then(|| ViewRange { label: format!("range {d}: {dice} dice"), points: square(a) })
        })
        .collect()
}

/// The view of `b` (the same for every viewer).
pub fn view(b: &Battle, _viewer: Viewer) -> View {
    let st = b.stat();
    let mut terrain = Vec::new();
    for a in st.grid.areas() {
        let t = st.terrain(a);
        if t != Terrain::Open {
            terrain.push(ViewFeature {
                kind: format!("{t:?}").to_lowercase(),
                name: format!("[{}, {}]", a.col, a.row),
                points: square(a),
                closed: true,
            });
        }
    }
    let objectives = st
        .objectives
        .iter()
        .zip(&b.holders)
        // An objective is a block of areas (a scenario gives it as a rectangle or polygon; the
        // areas are those whose centres it holds): drawn as the block around them.
        .map(|((name, areas), h)| ViewObjective { name: name.clone(), points: block(areas), holder: *h })
        .collect();
    let pieces = b
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.alive())
        .map(|(i, u)| ViewPiece {
            side: Some(u.side),
            unit: Some(b.name(i).to_string()),
            label: match u.weapon {
                Some(w) => format!("{} {} SP, {}", u.kind.name(), u.sp, w.name()),
                None => format!("{} {} SP", u.kind.name(), u.sp),
            },
            footprint: Footprint::Polygon { points: square(u.area) },
            facing: Some(u.facing.heading()),
            status: if u.done || (u.moved.is_some() && u.attacked.is_some()) { "done".into() } else { "ready".into() },
            counters: vec![ViewCounter { kind: "strength".into(), n: u32::from(u.sp), detail: false }],
            ranges: ranges(b, u),
            arm: Some(
                match u.kind {
                    Kind::Infantry | Kind::DismountedCavalry | Kind::MachineGuns => "infantry",
                    Kind::MountedCavalry => "cavalry",
                    Kind::Artillery => "artillery",
                    Kind::Transport => "transport",
                    Kind::General => "general",
                }
                .into(),
            ),
            group: None,
        })
        .collect();
    let standing = (0..2u8)
        .map(|s| ViewStanding {
            side: Some(s),
            text: format!(
                "{}: {} of {} Strength Points lost (Exhaustion Point {}){}",
                st.sides[usize::from(s)],
                b.sp_lost(s),
                st.sp_start[usize::from(s)],
                b.exhaustion_point(s),
                if b.exhausted[usize::from(s)].is_some() { ", exhausted" } else { "" }
            ),
        })
        .collect();
    View {
        title: st.name.clone(),
        turn: b.turn,
        phase: b.phase_words(),
        width: f64::from(st.grid.cols()),
        depth: f64::from(st.grid.rows()),
        sides: st.sides.to_vec(),
        terrain,
        objectives,
        pieces,
        markers: Vec::new(),
        notes: Vec::new(),
        unit: Some("area".into()),
        standing,
        deploy: None,
    }
}
