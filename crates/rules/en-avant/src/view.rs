//! What each viewer sees of a battle. Everyone sees the table, every unit's status label (its
//! word) and whether it is DISORDERED; a side sees its own order cards and no one else's. With
//! the rules hidden (the default) a player sees no number behind a status, no reach and no
//! table; Game Control sees everything, and while orders are being given, what the turn will
//! bring if the orders stand.

use volley_core::{Footprint, View, ViewCounter, ViewMarker, ViewPiece, ViewRange, ViewStanding, Viewer};

use crate::battle::{Battle, Pending, Phase, Unit, order_words};
use crate::model::Formation;
use crate::tables::FireKind;

/// The radius of a command group's or an officer's mounted figure as the trace and the map give
/// it, in centimetres.
const FIGURE_RADIUS: f64 = 2.0;

fn ranges(u: &Unit) -> Vec<ViewRange> {
    if !u.armed() {
        return Vec::new();
    }
    let c = u.corners();
    let fwd = volley_table::unit(u.facing);
    let zone = |label: String, r: f64| {
        if u.formation == Formation::Square {
            let centre = u.centre();
            return ViewRange {
                label,
                points: (0..16)
                    .map(|k| (centre + volley_table::unit(f64::from(k) * 22.5) * (r + 3.0)).into())
                    .collect(),
            };
        }
        ViewRange { label, points: vec![c[0].into(), (c[0] + fwd * r).into(), (c[1] + fwd * r).into(), c[1].into()] }
    };
    match u.kind {
        crate::model::Kind::Artillery | crate::model::Kind::HorseArtillery => vec![
            zone(format!("ball ({} cm)", FireKind::Ball.range().1), FireKind::Ball.range().1),
            zone(format!("canister ({} cm)", FireKind::Canister.range().1), FireKind::Canister.range().1),
        ],
        crate::model::Kind::RifleCompany => vec![zone("rifles (10 cm)".into(), FireKind::Rifles.range().1)],
        _ => vec![zone("volleys (10 cm)".into(), FireKind::FirstLineVolley.range().1)],
    }
}

/// The numbers on a unit for those who may see them: the status it acts on, drawn on the piece,
/// and as details (in its label too) a cavalry regiment's two lines (`first line`, `second
/// line`; each its own status) and whether each is DISORDERED (1) or not (0).
fn counters(u: &Unit) -> Vec<ViewCounter> {
    let c = |kind: &str, n: u32, detail: bool| ViewCounter { kind: kind.into(), n, detail };
    let mut out = vec![c("status", u32::from(u.step_status().level()), false)];
    if u.two_lines() {
        out.push(c("first line", u32::from(u.status[0].level()), true));
        out.push(c("second line", u32::from(u.status[1].level()), true));
        out.push(c("first line disordered", u32::from(u.disordered[0]), true));
        out.push(c("second line disordered", u32::from(u.disordered[1]), true));
    }
    out
}

/// The view of `b` for `viewer`.
pub fn view(b: &Battle, viewer: Viewer) -> View {
    let st = b.stat();
    // Once the battle is over everyone may read everything, if Game Control so chose.
    let all = viewer == Viewer::Umpire || b.revealed();
    let rules = all || !b.rules_hidden();
    let own = |side: u8| all || viewer == Viewer::Side(side);
    let mut pieces = Vec::new();
    for (i, u) in b.units.iter().enumerate() {
        if !u.here() {
            continue;
        }
        let word = |s: crate::tables::Status| {
            if rules { format!("{s} ({})", s.level()) } else { s.to_string() }
        };
        let mut label = format!("{} ({}, {}): {}", b.name(i), u.kind.name(), u.formation.name(), word(u.status[0]));
        if u.two_lines() && u.disordered[0] != u.disordered[1] {
            // (Each line's order said with it, where they differ.)
            let state = |l: usize| if u.disordered[l] { "DISORDERED" } else { "ordered" };
            label = format!(
                "{} ({}, {}): first line {}, {}, second line {}, {}",
                b.name(i),
                u.kind.name(),
                u.formation.name(),
                word(u.status[0]),
                state(0),
                word(u.status[1]),
                state(1)
            );
        } else {
            if u.two_lines() {
                label.push_str(&format!(", second line {}", word(u.status[1])));
            }
            label.push_str(if u.ordered() { ", ordered" } else { ", DISORDERED" });
        }
        if let Some(ch) = u.change {
            let to = match ch.what {
                crate::battle::Manoeuvre::Form { formation } => format!("forming {}", formation.name()),
                crate::battle::Manoeuvre::AboutFace => "facing about".to_string(),
                crate::battle::Manoeuvre::Face { facing } => {
                    format!("turning to face {}", crate::battle::bearing_words(facing))
                }
            };
            label.push_str(&format!(", {to}"));
        }
        match u.pending {
            Pending::Withdraw { .. } => label.push_str(", must fall back"),
            Pending::Pursue { target } | Pending::MayPursue { target } if !b.units[usize::from(target)].here() => {
                label.push_str(", nobody left to pursue")
            }
            Pending::Pursue { target } => label.push_str(&format!(", will pursue {}", b.name(usize::from(target)))),
            Pending::MayPursue { target } => label.push_str(&format!(", may pursue {}", b.name(usize::from(target)))),
            Pending::None => {}
        }
        if b.officer_with(i) {
            label.push_str(&format!(", with {}", b.officers[usize::from(u.side)].name));
        }
        if own(u.side) && !u.running() {
            label.push_str(&format!(", card: {}", order_words(b, u.card)));
        }
        if rules && u.fired_ever {
            label.push_str(", first volley spent");
        }
        pieces.push(ViewPiece {
            side: Some(u.side),
            unit: Some(b.name(i).to_string()),
            label,
            footprint: Footprint::Polygon { points: u.corners().iter().map(|&p| p.into()).collect() },
            facing: Some(u.facing),
            // "running", the word every rule set's view uses for troops out of action for now.
            status: if u.running() { "running".into() } else { u.step_status().word().to_lowercase() },
            counters: if rules { counters(u) } else { Vec::new() },
            ranges: if rules { ranges(u) } else { Vec::new() },
            arm: Some(
                match u.kind.arm() {
                    crate::tables::Arm::Infantry => "infantry",
                    crate::tables::Arm::Cavalry => "cavalry",
                    crate::tables::Arm::Artillery => "artillery",
                }
                .into(),
            ),
            group: None,
        });
    }
    let mut markers = Vec::new();
    for s in 0..2u8 {
        let o = &b.officers[usize::from(s)];
        markers.push(ViewMarker {
            side: Some(s),
            kind: "headquarters".into(),
            at: st.hq[usize::from(s)].into(),
            label: format!("the {} command group", b.side_name(s)),
            footprint: Some(Footprint::Circle { at: st.hq[usize::from(s)].into(), r: FIGURE_RADIUS }),
            facing: None,
            unit: None,
        });
        if o.present {
            let with = o.with.filter(|&u| b.units[usize::from(u)].here());
            markers.push(ViewMarker {
                side: Some(s),
                kind: "commander".into(),
                at: b.officer_at(s).into(),
                label: match with {
                    Some(u) => format!("{} with {}", o.name, b.name(usize::from(u))),
                    None => o.name.clone(),
                },
                footprint: Some(Footprint::Circle { at: b.officer_at(s).into(), r: FIGURE_RADIUS }),
                facing: None,
                unit: with.map(|u| b.name(usize::from(u)).to_string()),
            });
        }
    }
    let mut notes = Vec::new();
    let mut standing = vec![ViewStanding { side: None, text: format!("turn {} of {}", b.turn, st.turn_limit) }];
    if let Phase::Orders { side } = b.phase {
        notes.push(format!("{} give their orders", b.side_name(side)));
    }
    for s in 0..2u8 {
        let (lost, start) = b.losses(s);
        standing.push(ViewStanding {
            side: Some(s),
            text: format!("{}: {lost} of {start} units running away or gone", b.side_name(s)),
        });
    }
    for (i, u) in b.units.iter().enumerate() {
        if let crate::battle::Presence::Away { .. } = u.presence {
            notes.push(format!("{} are away, pursuing off the field", b.name(i)));
        }
    }
    if !rules && b.outcome.is_none() {
        // Why a player reads results without reasons (the text's Game Control keeps the rules).
        notes.push(format!(
            "Game Control keeps the rules: you read what happens, not the numbers behind it{}",
            if b.stat().rules.reveal_at_end { "; every reason is shown when the battle ends" } else { "" }
        ));
    }
    if all && b.outcome.is_none() {
        notes.push("if the orders given so far stand, this turn:".into());
        notes.extend(b.forecast().into_iter().map(|t| format!("  {t}")));
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
        unit: Some("cm".into()),
        standing,
        deploy: None,
    }
}
