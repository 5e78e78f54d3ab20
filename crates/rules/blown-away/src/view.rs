//! What each viewer may see of a battle.
//!
//! Hidden: the order of the decks (the engine keeps none: only the counts of cards left, which
//! both players can work out from the cards turned up) and, during deployment, the other side's
//! placements until both sides have fixed theirs.

use volley_chance::card_name;
use volley_core::{Footprint, View, ViewMarker, ViewPiece, Viewer};

use crate::game::{Battle, Phase, Placement};
use crate::model::{ManState, Variant};
use volley_scenario::Edge;

/// The view of `b` for `viewer`.
pub fn view(b: &Battle, viewer: Viewer) -> View {
    let st = b.stat();
    let hidden = |side: u8| -> bool {
        b.phase == Phase::Deploy
            && match viewer {
                Viewer::Umpire => false,
                Viewer::Side(s) => s != side,
                Viewer::Spectator => true,
            }
    };
    let terrain = volley_scenario::view_terrain(&st.table);
    let objectives = volley_scenario::view_objectives(&st.objectives, &b.holders);
    let mut pieces = Vec::new();
    let mut markers = Vec::new();
    for (i, u) in b.units.iter().enumerate() {
        if hidden(u.side) {
            continue;
        }
        let name = b.name(i).to_string();
        // The unit's reach, on its first piece: combat within 4" all round; a gun's arc.
        let mut reach = vec![volley_scenario::view_sector(
            format!("combat within {}\"", crate::game::COMBAT_RANGE),
            u.centre(),
            0.0,
            180.0,
            crate::game::COMBAT_RANGE,
            32,
        )];
        if let Some(g) = u.gun {
            reach.push(volley_scenario::view_sector(
                format!("the gun's arc ({}° each side)", crate::game::LRA_ARC),
                g.at,
                g.facing,
                crate::game::LRA_ARC,
                st.table.width.max(st.table.depth),
                16,
            ));
        }
        let arm = match u.arm {
            crate::model::Arm::Infantry => "infantry",
            crate::model::Arm::Cavalry => "cavalry",
            crate::model::Arm::Artillery => "artillery",
        };
        let mut first = true;
        for m in &u.men {
            let status = match m.state {
                ManState::InRanks => "in ranks",
                ManState::Running => "running",
                ManState::Fallen => "fallen",
                ManState::Dead => continue,
            };
            pieces.push(ViewPiece {
                side: Some(u.side),
                unit: Some(name.clone()),
                label: m.role.name().to_string(),
                footprint: Footprint::Circle { at: m.at.into(), r: 0.4 },
                facing: Some(m.facing),
                status: status.to_string(),
                counters: Vec::new(),
                ranges: if first { std::mem::take(&mut reach) } else { Vec::new() },
                arm: Some(arm.into()),
                group: None,
            });
            first = false;
        }
        if let Some(g) = u.gun {
            markers.push(ViewMarker {
                side: Some(u.side),
                kind: "gun".into(),
                at: g.at.into(),
                label: format!("{name}: {} ball{}", g.balls, if g.balls == 1 { "" } else { "s" }),
                footprint: Some(Footprint::Circle { at: g.at.into(), r: crate::game::FIGURE_RADIUS }),
                facing: Some(g.facing),
                unit: Some(name.clone()),
            });
        }
    }
    // Each commander is a marker with his figure's ground, a unit of his own (the page makes him
    // a piece to pick and ride anywhere; the trace keeps him a marker, docs/trace.md).
    for s in 0..2u8 {
        if !hidden(s) {
            markers.push(ViewMarker {
                side: Some(s),
                kind: "commander".into(),
                at: b.commanders[usize::from(s)].into(),
                label: st.commanders[usize::from(s)].clone(),
                footprint: Some(Footprint::Circle {
                    at: b.commanders[usize::from(s)].into(),
                    r: crate::game::FIGURE_RADIUS,
                }),
                facing: None,
                // (He is a unit of his own: the page makes him a piece to pick and ride.)
                unit: Some(st.commanders[usize::from(s)].clone()),
            });
        }
    }
    let mut notes = Vec::new();
    if b.variant == Variant::Chance {
        for s in 0..2 {
            let counts = b.decks[s].counts();
            // Each card turned up, as often as it was: "2, 10, K, K".
            let seen: Vec<&str> = counts
                .iter()
                .enumerate()
                .flat_map(|(v, c)| std::iter::repeat_n(card_name(v as u8 + 1), usize::from(4u8.saturating_sub(*c))))
                .collect();
            notes.push(format!(
                "{} deck: {} cards left; turned up since the shuffle: {}",
                st.sides[s],
                b.decks[s].left(),
                if seen.is_empty() { "none".into() } else { seen.join(", ") }
            ));
        }
    }
    if b.phase == Phase::Deploy {
        notes.push("deployments are secret until both sides have fixed theirs".into());
    }
    View {
        title: st.name.clone(),
        turn: b.turn,
        phase: b.phase_words(),
        width: st.table.width,
        depth: st.table.depth,
        sides: st.sides.to_vec(),
        terrain,
        objectives,
        pieces,
        markers,
        notes,
        unit: Some("inch".into()),
        standing: standing(b),
        deploy: deployment(b, viewer),
    }
}

/// Where the battle stands: the objectives that win, the turns left, each side's men in ranks
/// against the rout.
fn standing(b: &Battle) -> Vec<volley_core::ViewStanding> {
    let st = b.stat();
    let mut out = Vec::new();
    let need = st.rules.objectives_to_win;
    if need > 0 {
        out.push(volley_core::ViewStanding {
            side: None,
            text: format!("{need} of the {} objectives win", st.objectives.len()),
        });
    }
    if let Some(limit) = st.turn_limit {
        out.push(volley_core::ViewStanding { side: None, text: format!("turn {} of {limit}", b.turn) });
    }
    for s in 0..2u8 {
        let ranks: usize = b.units.iter().filter(|u| u.side == s).map(crate::model::Unit::in_ranks).sum();
        let rout = st.rules.rout_below.map(|f| format!(" (routed below {:.0}%)", f * 100.0)).unwrap_or_default();
        out.push(volley_core::ViewStanding {
            side: Some(s),
            text: format!(
                "{}: {ranks} of {} men in ranks{rout}",
                st.sides[usize::from(s)],
                st.men_start[usize::from(s)]
            ),
        });
    }
    out
}

/// The viewer's deployment while it is his to fix: the band along his rear edge, and each of
/// his units as a placement where it stands.
fn deployment(b: &Battle, viewer: Viewer) -> Option<volley_core::ViewDeploy> {
    let Viewer::Side(side) = viewer else { return None };
    if b.phase != Phase::Deploy || b.deployed[usize::from(side) & 1] {
        return None;
    }
    let st = b.stat();
    let depth = st.rules.deployment_depth;
    let (w, d) = (st.table.width, st.table.depth);
    let zone = match st.rear[usize::from(side) & 1] {
        Edge::South => vec![[0.0, 0.0], [w, 0.0], [w, depth], [0.0, depth]],
        Edge::North => vec![[0.0, d - depth], [w, d - depth], [w, d], [0.0, d]],
        Edge::West => vec![[0.0, 0.0], [depth, 0.0], [depth, d], [0.0, d]],
        Edge::East => vec![[w - depth, 0.0], [w, 0.0], [w, d], [w - depth, d]],
    };
    let units = b
        .units
        .iter()
        .enumerate()
        .filter(|(_, u)| u.side == side)
        .filter_map(|(i, u)| {
            let placement = Placement { unit: i as u16, at: u.front, facing: u.facing, formation: u.formation };
            Some(volley_core::ViewPlacement {
                unit: b.name(i).to_string(),
                placement: serde_json::to_value(placement).ok()?,
            })
        })
        .collect();
    Some(volley_core::ViewDeploy { zone, units })
}
