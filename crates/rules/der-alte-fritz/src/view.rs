//! What each viewer sees of a battle. Der Alte Fritz hides nothing: every viewer sees the whole
//! table (declared charges too: the units are seen making ready).

use volley_core::{Footprint, View, ViewCounter, ViewMarker, ViewPiece, ViewRange, ViewStanding, Viewer};

use crate::game::{Battle, Phase};
use crate::model::{State, Unit};

/// The radius of an officer's mounted figure as the trace and the map give it, in inches.
const OFFICER_RADIUS: f64 = 0.5;

/// A unit's fire zone: the 45° arcs from its front corners out to its range (guns: short and
/// long).
fn ranges(u: &Unit) -> Vec<ViewRange> {
    let Some((short, long)) = u.range() else {
        return Vec::new();
    };
    let c = u.corners();
    let fwd = volley_table::unit(u.facing);
    // Ahead of the front edge out to the range, and the 45° arcs at the corners.
    let zone = |label: String, r: f64| ViewRange {
        label,
        points: vec![
            c[0].into(),
            (c[0] + volley_table::unit(u.facing - 45.0) * r).into(),
            (c[0] + fwd * r).into(),
            (c[1] + fwd * r).into(),
            (c[1] + volley_table::unit(u.facing + 45.0) * r).into(),
            c[1].into(),
        ],
    };
    let mut out = Vec::new();
    if let Some(l) = long {
        out.push(zone(format!("long range ({l}\")"), l));
    }
    out.push(zone(format!("{}range ({short}\")", if long.is_some() { "short " } else { "" }), short));
    out
}

/// The view of `b` for `viewer` (all viewers see the same).
pub fn view(b: &Battle, _viewer: Viewer) -> View {
    let st = b.stat();
    let mut pieces = Vec::new();
    for (i, u) in b.units.iter().enumerate() {
        if !u.present() {
            continue;
        }
        let state = match u.state {
            State::Good => "good order",
            State::Shaken => "shaken",
            State::Routing => "routing",
            State::Removed => continue,
        };
        let charging = u.charging.map(|t| format!(", will charge {}", b.name(usize::from(t)))).unwrap_or_default();
        pieces.push(ViewPiece {
            side: Some(u.side),
            unit: Some(b.name(i).to_string()),
            label: format!(
                "{} ({}, {}): {} of {} figures, {} hit{}, {}{}{}",
                b.name(i),
                u.kind.profile().name,
                u.formation.name(),
                u.figures,
                u.figures_start,
                u.hits,
                if u.hits == 1 { "" } else { "s" },
                state,
                if b.leader_attached(i) { ", leader attached" } else { "" },
                charging
            ),
            footprint: Footprint::Polygon { points: u.corners().iter().map(|&p| p.into()).collect() },
            facing: Some(u.facing),
            // "running", the word every rule set's view uses for troops out of action for now.
            status: if u.state == State::Routing { "running".into() } else { state.to_string() },
            counters: vec![
                ViewCounter { kind: "figures".into(), n: u.figures, detail: false },
                ViewCounter { kind: "hits".into(), n: u.hits, detail: false },
            ],
            ranges: ranges(u),
            arm: Some(
                match u.arm() {
                    crate::units::Arm::Infantry => "infantry",
                    crate::units::Arm::Cavalry => "cavalry",
                    crate::units::Arm::Artillery => "artillery",
                }
                .into(),
            ),
            group: None,
        });
    }
    let mut markers = Vec::new();
    for (k, o) in b.officers.iter().enumerate() {
        let wound = match (o.wound.light, o.wound.held(b.turn)) {
            (false, false) => "",
            (true, false) => ", lightly wounded",
            (false, true) => ", severely wounded",
            (true, true) => ", severely and lightly wounded",
        };
        let with = o.with.map(|u| format!(" with {}", b.name(usize::from(u)))).unwrap_or_default();
        markers.push(ViewMarker {
            side: Some(o.side),
            kind: if o.commander { "commander".into() } else { "general".into() },
            at: b.officer_at(k).into(),
            label: format!("{}{}{with}{wound}", o.name, if o.commander { " (army commander)" } else { "" }),
            footprint: Some(Footprint::Circle { at: b.officer_at(k).into(), r: OFFICER_RADIUS }),
            facing: None,
            unit: o.with.map(|u| b.name(usize::from(u)).to_string()),
        });
    }
    let mut notes = Vec::new();
    if b.turn > 0 && !matches!(b.phase, Phase::Initiative { .. } | Phase::Begin) {
        notes.push(format!(
            "turn {} of {}: {} move first, {} fire first",
            b.turn,
            st.turn_limit,
            b.side_name(b.first),
            b.side_name(1 - b.first)
        ));
    }
    let mut standing = Vec::new();
    if b.turn > 0 {
        standing.push(ViewStanding { side: None, text: format!("turn {} of {}", b.turn, st.turn_limit) });
    }
    for s in 0..2u8 {
        let (lost, start) = b.losses(s);
        standing.push(ViewStanding {
            side: Some(s),
            text: format!(
                "{}: {lost} of {start} units removed or routing (broken at {}%)",
                b.side_name(s),
                st.break_at
            ),
        });
    }
    View {
        title: st.name.clone(),
        turn: b.turn,
        phase: volley_core::GameState::phase(b).phase,
        width: st.table.width,
        depth: st.table.depth,
        sides: st.sides.to_vec(),
        terrain: volley_scenario::view_terrain(&st.table),
        objectives: volley_scenario::view_objectives(&st.objectives, &b.holders),
        pieces,
        markers,
        notes,
        unit: Some("inch".into()),
        standing,
        deploy: None,
    }
}
