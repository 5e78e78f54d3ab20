//! What each viewer may see of a battle.
//!
//! Hidden: the orders a side has sent and those its wings carry out. A side sees its own; the
//! umpire sees both; a spectator and the enemy see neither (the enemy sees only what the troops
//! do on the table).

use volley_core::{Footprint, View, ViewCounter, ViewMarker, ViewPiece, ViewRange, ViewStanding, Viewer};

use crate::game::{Battle, Phase};
use crate::model::State;

/// A unit's reach: a battery's close and long ranges within its arc (45° each side); for
/// infantry and cavalry, the approach to close combat (2½") all round.
fn ranges(u: &crate::model::Unit) -> Vec<ViewRange> {
    let arc = |label: String, r: f64, half: f64| volley_scenario::view_sector(label, u.at, u.facing, half, r, 24);
    match u.kind.ranges() {
        Some((close, long)) => vec![
            arc(format!("long range, ball ({long}\")"), long, 45.0),
            arc(format!("close range, canister ({close}\")"), close, 45.0),
        ],
        None => vec![arc(
            format!("close combat at {}\"", crate::model::APPROACH),
            crate::model::APPROACH + u.depth() / 2.0,
            180.0,
        )],
    }
}

/// The view of `b` for `viewer`.
pub fn view(b: &Battle, viewer: Viewer) -> View {
    let st = b.stat();
    let sees_orders = |side: u8| match viewer {
        Viewer::Umpire => true,
        Viewer::Side(s) => s == side,
        Viewer::Spectator => false,
    };
    let terrain = volley_scenario::view_terrain(&st.table);
    let objectives = volley_scenario::view_objectives(&st.objectives, &b.holders);
    let mut pieces = Vec::new();
    for (i, u) in b.units.iter().enumerate() {
        if !u.present() {
            continue;
        }
        let status = match u.state {
            State::Steady => "steady",
            State::Withdrawing => "withdrawing",
            State::Running => "running",
            State::Rallying => "rallying",
            State::Pursuing { .. } => "pursuing",
            State::Gone(_) => continue,
        };
        let guns = if u.kind.is_guns() { if u.limbered { ", limbered" } else { ", unlimbered" } } else { "" };
        pieces.push(ViewPiece {
            side: Some(u.side),
            unit: Some(b.name(i).to_string()),
            label: format!(
                "{} ({}, quality {}): {} of {} figures, {} green{}{guns}",
                b.name(i),
                u.kind.name(),
                u.quality.letter(),
                u.figures,
                u.figures_start,
                u.greens,
                if u.greens == 1 { "" } else { "s" }
            ),
            footprint: Footprint::Polygon { points: u.corners().iter().map(|&p| p.into()).collect() },
            facing: Some(u.facing),
            status: status.to_string(),
            counters: vec![
                ViewCounter { kind: "figures".into(), n: u32::from(u.figures), detail: false },
                ViewCounter { kind: "green".into(), n: u32::from(u.greens), detail: false },
            ],
            ranges: ranges(u),
            arm: Some(arm_word(u.kind.arm()).into()),
            group: Some(b.wing_name(usize::from(u.wing)).to_string()),
        });
    }
    let mut markers = Vec::new();
    let centres = b.wing_centres();
    for (w, c) in centres.iter().enumerate() {
        let info = &st.wings[w];
        if let Some(c) = c {
            markers.push(ViewMarker {
                side: Some(info.side),
                kind: "general".into(),
                at: (*c).into(),
                label: format!("{} ({} general), {}", info.general, info.quality.name(), info.name),
                footprint: None,
                facing: None,
                unit: None,
            });
        }
    }
    for s in 0..2usize {
        let (c, h) = st.parks[s];
        markers.push(ViewMarker {
            side: Some(s as u8),
            kind: "wagons".into(),
            at: c.into(),
            label: format!(
                "{} wagon models{}",
                st.wagons[s],
                if b.wagons_taken[s] { ", taken by the enemy" } else { "" }
            ),
            footprint: Some(Footprint::Polygon {
                points: vec![
                    [c.x - h.x, c.y - h.y],
                    [c.x + h.x, c.y - h.y],
                    [c.x + h.x, c.y + h.y],
                    [c.x - h.x, c.y + h.y],
                ],
            }),
            facing: None,
            unit: None,
        });
    }
    let mut notes = Vec::new();
    for (w, wing) in b.wings.iter().enumerate() {
        let info = &st.wings[w];
        if !sees_orders(info.side) {
            continue;
        }
        notes.push(format!(
            "{} {}: {}{}",
            st.sides[usize::from(info.side)],
            info.name,
            wing.order.words(&b.place_of(&wing.order)),
            if wing.general_engaged { " (its general is in close combat)" } else { "" }
        ));
        // The order on the map, where the wing is going.
        if let Some(p) = wing.order.place() {
            markers.push(ViewMarker {
                side: Some(info.side),
                kind: "order".into(),
                at: p.into(),
                label: format!("the {}'s order: {}", info.name, wing.order.words(&b.place_of(&wing.order))),
                footprint: None,
                facing: None,
                unit: None,
            });
        }
        for d in b.dispatches.iter().filter(|d| usize::from(d.wing) == w) {
            notes.push(format!(
                "  on its way to the {}: {} (takes effect in bound {})",
                info.name,
                d.order.words(&b.place_of(&d.order)),
                d.arrives
            ));
            if let Some(p) = d.order.place() {
                markers.push(ViewMarker {
                    side: Some(info.side),
                    kind: "order on its way".into(),
                    at: p.into(),
                    label: format!(
                        "on its way to the {}: {} (takes effect in bound {})",
                        info.name,
                        d.order.words(&b.place_of(&d.order)),
                        d.arrives
                    ),
                    footprint: None,
                    facing: None,
                    unit: None,
                });
            }
        }
    }
    if viewer != Viewer::Umpire {
        notes.push("the enemy's orders are hidden".into());
    }
    let standing = (0..2u8)
        .map(|s| ViewStanding {
            side: Some(s),
            text: format!(
                "{}: {} of {} battalions, regiments and batteries gone or running (broken at {}%)",
                st.sides[usize::from(s)],
                b.lost_units(s),
                st.major_units[usize::from(s)],
                st.break_at
            ),
        })
        .collect();
    View {
        title: st.name.clone(),
        turn: b.bound,
        phase: match b.phase {
            Phase::Orders { .. } => "orders".into(),
            Phase::Over => "over".into(),
        },
        width: st.table.width,
        depth: st.table.depth,
        sides: st.sides.to_vec(),
        terrain,
        objectives,
        pieces,
        markers,
        notes,
        unit: Some("inch".into()),
        standing,
        deploy: None,
    }
}

/// An arm as the map's sign names it.
fn arm_word(arm: crate::combat::Arm) -> &'static str {
    match arm {
        crate::combat::Arm::Infantry => "infantry",
        crate::combat::Arm::Cavalry => "cavalry",
        crate::combat::Arm::Artillery => "artillery",
    }
}
