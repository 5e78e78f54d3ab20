//! The conformance harness over every bundled Blown Away scenario, with both agents.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_blown_away::game::{COMBAT_RANGE, GUNNER_RETURN, LRA_RANGE, MOB_CLEARANCE, MOB_MOVE, PASS};
use volley_blown_away::model::CREW_RADIUS;
use volley_blown_away::model::Unit;
use volley_blown_away::{Action, Battle, Event, load};
use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check_with, games};
use volley_scenario::Source;
use volley_table::{Point, dist_to_segment, heading_to, turn, unit as heading};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/blown-away/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kind: &'static str) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| (0..2).map(|i| volley_ai::by_name::<Battle>(kind, seed.wrapping_add(i)).expect("known agent")).collect()
}

const SCENARIOS: &[&str] = &[
    "advance-guard.toml",
    "crossroads.toml",
    "fieldworks.toml",
    "seven-years-war-chance.toml",
    "seven-years-war-without-chance.toml",
];

#[test]
fn random_agents_conform() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents("random"), 11, games(100), 200_000, invariants);
        assert_eq!(r.games, games(100), "{s}");
        eprintln!("{s} random: {r:?}");
    }
}

#[test]
fn heuristic_agents_conform_and_finish_battles() {
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents("heuristic"), 12, games(100), 200_000, invariants);
        eprintln!("{s} heuristic: {r:?}");
        assert!(r.results[0] + r.results[1] > 0, "{s}: heuristic battles should sometimes be won");
    }
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share what they can (the enemy bodies, the nearest enemy to a
    // unit's front, the objective a unit alone holds, whether a gun has a target): it must
    // change no score. Five Fieldworks side by side as well.
    let path = format!("{}/../../../scenarios/blown-away/fieldworks.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 5).unwrap();
    let mut battles: Vec<Battle> = SCENARIOS.iter().map(|s| scenario(s)).collect();
    battles.push(load(&Source::new("tiled", tiled)).unwrap());
    for b in battles {
        let n = volley_ai::check_scores(&b, 300, 5).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
        assert!(n > 50, "{n} decisions checked");
    }
}

// ----- The geometry of the table, checked after every action of every battle above -----

/// The points of a unit's body in ranks: men in ranks, and the gun while a gunner in ranks stands
/// within 1.5" of it.
fn body(u: &Unit) -> Vec<Point> {
    let mut out: Vec<Point> = u.men.iter().filter(|m| m.in_ranks()).map(|m| m.at).collect();
    if let Some(g) = u.gun
        && u.men.iter().any(|m| m.in_ranks() && m.at.dist(g.at) <= 1.5 + 1e-9)
    {
        out.push(g.at);
    }
    out
}

/// Whether unit `a` faces the point `p`, worked out here from the text's words alone: a gun
/// within 45° of its boresight; men, in the corridor straight ahead of their front rank (as
/// wide as its figures) — gunners away from their gun too, the way they face.
fn faces_point(a: &Unit, p: Point) -> bool {
    if let Some(g) = a.gun
        && body(a).contains(&g.at)
    {
        return p.dist(g.at) > 1e-9 && turn(g.facing, heading_to(g.at, p)).abs() <= 45.0 + 1e-6;
    }
    let men: Vec<Point> = a.men.iter().filter(|m| m.in_ranks()).map(|m| m.at).collect();
    let Some(facing) = a.men.iter().find(|m| m.in_ranks()).map(|m| if a.gun.is_some() { m.facing } else { a.facing })
    else {
        return false;
    };
    in_corridor(a.front, facing, &men, p)
}

/// Whether `p` lies in the corridor straight ahead of men standing at `men` and facing
/// `facing` (measured from `origin`), as wide as their figures.
fn in_corridor(origin: Point, facing: f64, men: &[Point], p: Point) -> bool {
    let (fwd, rgt) = (heading(facing), heading(facing + 90.0));
    let ahead = men.iter().map(|m| (*m - origin).dot(fwd)).fold(f64::NEG_INFINITY, f64::max);
    let lo = men.iter().map(|m| (*m - origin).dot(rgt)).fold(f64::INFINITY, f64::min) - 0.5;
    let hi = men.iter().map(|m| (*m - origin).dot(rgt)).fold(f64::NEG_INFINITY, f64::max) + 0.5;
    let d = p - origin;
    d.dot(fwd) >= ahead - 1e-6 && (lo - 1e-6..=hi + 1e-6).contains(&d.dot(rgt))
}

/// Whether the ground unit `w` formed on meets the front of unit `l` as `l` formed: worked out
/// here from the two frames (each the ground its men stood on when it last formed), sampled
/// finely, against the corridor ahead of `l`'s frame; for a gun, its 45° arc.
fn in_front_as_formed(l: &Unit, w: &Unit) -> bool {
    let shape: Vec<Point> = match (w.gun, w.frame_corners()) {
        (None, Some(c)) => {
            // The frame's outline and inside, every tenth of an inch or so.
            let mut pts = Vec::new();
            for i in 0..=20 {
                for j in 0..=20 {
                    let (s, t) = (f64::from(i) / 20.0, f64::from(j) / 20.0);
                    pts.push(c[0].lerp(c[1], s).lerp(c[3].lerp(c[2], s), t));
                }
            }
            pts
        }
        _ => body(w),
    };
    if l.gun.is_some_and(|g| body(l).contains(&g.at)) {
        return shape.iter().any(|&p| faces_point(l, p));
    }
    match (l.gun, l.frame_corners()) {
        (None, Some(c)) => shape.iter().any(|&p| in_corridor(l.front, l.facing, &c, p)),
        _ => shape.iter().any(|&p| faces_point(l, p)),
    }
}

fn faces(a: &Unit, b: &Unit) -> bool {
    body(b).into_iter().any(|p| faces_point(a, p))
}

fn gap(a: &Unit, b: &Unit) -> f64 {
    let (pa, pb) = (body(a), body(b));
    pa.iter().flat_map(|p| pb.iter().map(move |q| p.dist(*q))).fold(f64::INFINITY, f64::min)
}

fn unit_named(b: &Battle, name: &str) -> usize {
    b.stat().unit_names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no unit {name}"))
}

/// What the text allows of one action, checked from the table before and after it.
fn invariants(before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    match action {
        Action::Move { unit, pivot, path } => {
            let u = usize::from(*unit);
            let (u0, u1) = (&before.units[u], &after.units[u]);
            let moved = u0.front.dist(u1.front);
            if moved > u0.arm.allowance() + 1e-6 {
                return Err(format!("{} moved {moved:.2}\" at a rate of {}", before.name(u), u0.arm.allowance()));
            }
            let _ = path;
            for (e, eu) in before.units.iter().enumerate().filter(|(_, e)| e.side != u0.side) {
                let enemy = body(eu);
                // Nobody passes through the enemy: every man in ranks of a line or gun goes
                // straight from where he stood to where he stands; a column's head follows its
                // path. None comes within half an inch of an enemy figure.
                if pivot.is_none() {
                    let legs: Vec<(Point, Point)> =
                        if u1.formation == volley_blown_away::model::Formation::Column && u1.gun.is_none() {
                            let mut pts = vec![u0.front];
                            pts.extend(path.iter().copied());
                            pts.windows(2).map(|w| (w[0], w[1])).collect()
                        } else {
                            u0.men
                                .iter()
                                .zip(&u1.men)
                                .filter(|(m, _)| m.in_ranks())
                                .map(|(m0, m1)| (m0.at, m1.at))
                                .collect()
                        };
                    for (a, b) in legs {
                        if let Some(q) = enemy.iter().find(|q| dist_to_segment(**q, a, b) < PASS - 1e-6) {
                            return Err(format!("{} passed through {} at {q:?}", before.name(u), before.name(e)));
                        }
                    }
                }
                // Where combat with a facing enemy becomes possible, the move has halted.
                let reach = |b: &Battle| {
                    let (x, y) = (&b.units[u], &b.units[e]);
                    gap(x, y) < COMBAT_RANGE && (faces(x, y) || faces(y, x))
                };
                if reach(after) && !reach(before) {
                    let halted = events.iter().any(|ev| matches!(ev, Event::Moved { stopped: Some(_), .. }));
                    let full = (moved - u0.arm.allowance()).abs() < 1e-6
                        || path.last().is_some_and(|p| p.dist(u1.front) < 1e-6);
                    if !halted && full && gap(u1, &after.units[e]) < COMBAT_RANGE - 0.2 {
                        return Err(format!(
                            "{} came {:.2}\" from {} facing or faced without halting",
                            before.name(u),
                            gap(u1, &after.units[e]),
                            before.name(e)
                        ));
                    }
                }
            }
        }
        Action::Mob { unit, .. } => {
            let u = usize::from(*unit);
            for (m0, m1) in before.units[u].men.iter().zip(&after.units[u].men) {
                if m0.running() && m0.at.dist(m1.at) > MOB_MOVE + 1e-6 {
                    return Err(format!("a runner of {} went {:.2}\"", before.name(u), m0.at.dist(m1.at)));
                }
            }
            let near = |b: &Battle| {
                let runners: Vec<Point> = b.units[u].men.iter().filter(|m| m.running()).map(|m| m.at).collect();
                b.units
                    .iter()
                    .filter(|e| e.side != b.units[u].side)
                    .flat_map(|e| e.men.iter().filter(|m| m.in_ranks()).map(|m| m.at))
                    .flat_map(|q| runners.iter().map(move |p| p.dist(q)))
                    .fold(f64::INFINITY, f64::min)
            };
            if near(after) < near(before).min(MOB_CLEARANCE) - 1e-6 {
                return Err(format!("the mob of {} ended {:.2}\" from the enemy", before.name(u), near(after)));
            }
        }
        Action::ReturnGunners { unit } => {
            let u = usize::from(*unit);
            let (u0, u1) = (&before.units[u], &after.units[u]);
            for (m0, m1) in u0.men.iter().zip(&u1.men).filter(|(m, _)| m.in_ranks()) {
                // At most 6" a turn, or all the way when within 6" of the crew's place.
                if m0.at.dist(m1.at) > GUNNER_RETURN + CREW_RADIUS + 1.0 + 1e-6 {
                    return Err(format!("a gunner of {} walked {:.2}\"", before.name(u), m0.at.dist(m1.at)));
                }
            }
            for (e, eu) in before.units.iter().enumerate().filter(|(_, e)| e.side != u0.side) {
                // Nobody walks through the enemy: no walker's straight walk comes within half
                // an inch of an enemy figure or an enemy gun.
                let mut obstacles = body(eu);
                obstacles.extend(eu.gun.map(|g| g.at));
                for (m0, m1) in
                    u0.men.iter().zip(&u1.men).filter(|(m, _)| m.in_ranks() && m.at.dist(u0.front) > CREW_RADIUS)
                {
                    // He walks straight for the gun, as far as the walk went (a gunner who ends
                    // within 1.5" of the gun then takes his place in its crew).
                    let walked = events
                        .iter()
                        .find_map(|ev| match ev {
                            Event::GunnersReturned { distance, .. } => Some(*distance),
                            _ => None,
                        })
                        .unwrap_or(0.0);
                    let d = m0.at.dist(u0.front);
                    let most = if d <= GUNNER_RETURN + CREW_RADIUS { d } else { GUNNER_RETURN };
                    let end = m0.at.toward(heading_to(m0.at, u0.front), walked.min(most));
                    if m1.at.dist(u0.front) > CREW_RADIUS + 1e-6 && m1.at.dist(end) > 1e-6 {
                        return Err(format!("a gunner of {} ended off his way to the gun", before.name(u)));
                    }
                    if let Some(q) = obstacles.iter().find(|q| dist_to_segment(**q, m0.at, end) < PASS - 1e-6) {
                        return Err(format!(
                            "a gunner of {} walked through {} at {q:?}",
                            before.name(u),
                            before.name(e)
                        ));
                    }
                }
                // Where combat with facing enemy troops becomes possible, the walk has halted.
                let reach = |b: &Battle| {
                    let (x, y) = (&b.units[u], &b.units[e]);
                    gap(x, y) < COMBAT_RANGE && (faces(x, y) || faces(y, x))
                };
                if reach(after) && !reach(before) {
                    let halted = events.iter().any(|ev| matches!(ev, Event::GunnersReturned { stopped: Some(_), .. }));
                    if !halted && gap(u1, &after.units[e]) < COMBAT_RANGE - 0.2 {
                        return Err(format!(
                            "the gunners of {} came within 4\" of {} without halting",
                            before.name(u),
                            before.name(e)
                        ));
                    }
                }
            }
        }
        Action::Fire { gun, target } => {
            let (g, t) = (&before.units[usize::from(*gun)], &before.units[usize::from(*target)]);
            let at = g.gun.map(|c| c.at).unwrap_or(g.front);
            let men: Vec<Point> = t.men.iter().filter(|m| m.in_ranks()).map(|m| m.at).collect();
            let men = if men.is_empty() { t.men.iter().filter(|m| m.running()).map(|m| m.at).collect() } else { men };
            let near = men.iter().map(|p| p.dist(at)).fold(f64::INFINITY, f64::min);
            if !(LRA_RANGE.0 - 1e-9..=LRA_RANGE.1 + 1e-9).contains(&near) {
                return Err(format!("long-range fire at a unit whose nearest man is {near:.2}\" away"));
            }
        }
        _ => {}
    }
    // A unit's frame (the ground it formed on) changes only when it forms: it is placed, moves,
    // re-forms, rallies or its gunners walk back; then it is where its men in ranks stand.
    let forms = |u: usize| match action {
        Action::Deploy { .. } => true,
        Action::Move { unit, .. }
        | Action::Reform { unit, .. }
        | Action::Rally { unit }
        | Action::ReturnGunners { unit }
        | Action::Mob { unit, .. } => usize::from(*unit) == u,
        _ => false,
    };
    for (u, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        if u1.gun.is_some() {
            continue;
        }
        if forms(u) {
            let (fwd, rgt) = (heading(u1.facing), heading(u1.facing + 90.0));
            let men: Vec<(f64, f64)> = u1
                .men
                .iter()
                .filter(|m| m.in_ranks())
                .map(|m| ((m.at - u1.front).dot(fwd), (m.at - u1.front).dot(rgt)))
                .collect();
            let extent = |k: fn(&(f64, f64)) -> f64, most: bool| {
                men.iter().map(k).fold(if most { f64::NEG_INFINITY } else { f64::INFINITY }, |a, b| {
                    if most { a.max(b) } else { a.min(b) }
                })
            };
            let fits = match u1.frame {
                None => men.is_empty(),
                Some(f) => {
                    (f.ahead - extent(|m| m.0, true)).abs() < 1e-6
                        && (f.back - extent(|m| m.0, false)).abs() < 1e-6
                        && (f.lo - extent(|m| m.1, false)).abs() < 1e-6
                        && (f.hi - extent(|m| m.1, true)).abs() < 1e-6
                }
            };
            if !fits {
                return Err(format!("{} formed, but its frame is not where its men in ranks stand", before.name(u)));
            }
        } else if u0.frame.is_some() != u1.frame.is_some()
            || u0.facing != u1.facing
            || u0
                .frame_corners()
                .zip(u1.frame_corners())
                .is_some_and(|(a, b)| a.iter().zip(&b).any(|(p, q)| p.dist(*q) > 1e-9))
        {
            // The ground it formed on, on the table (its reference point follows the centre man
            // of its front rank as men fall: interpretation 31).
            return Err(format!("the ground {} formed on changed though it did not form", before.name(u)));
        }
    }
    // Units become engaged with an enemy only by fighting it in this action.
    let fought: Vec<(String, String)> = events
        .iter()
        .filter_map(|ev| match ev {
            Event::CardCombat { attacker, defender, .. } => Some((attacker.clone(), defender.clone())),
            Event::Attack { attacker, target, .. } => Some((attacker.clone(), target.clone())),
            _ => None,
        })
        .collect();
    for (u, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        for &e in u1.engaged_with.iter().filter(|e| !u0.engaged_with.contains(e)) {
            let (x, y) = (before.name(u).to_string(), before.name(usize::from(e)).to_string());
            if !fought.iter().any(|(a, d)| (*a == x && *d == y) || (*a == y && *d == x)) {
                return Err(format!("{x} became engaged with {y} without a combat between them"));
            }
        }
    }
    // Nobody who moved stands on an enemy gun (a model on the table, served or not).
    let mover = match action {
        Action::Move { unit, .. } | Action::Mob { unit, .. } | Action::ReturnGunners { unit } => {
            Some(usize::from(*unit))
        }
        _ => None,
    };
    if let Some(u) = mover {
        for g in after.units.iter().filter(|g| g.side != after.units[u].side) {
            let Some(gun) = g.gun else { continue };
            // (A crew standing to its own gun stands with the gun's model.)
            let dist = |un: &Unit| {
                let own = un.gun.map(|g| g.at);
                un.men
                    .iter()
                    .filter(|m| m.alive() && !own.is_some_and(|o| m.at.dist(o) <= CREW_RADIUS + 1e-9))
                    .map(|m| m.at.dist(gun.at))
                    .fold(f64::INFINITY, f64::min)
            };
            let (was, now) = (dist(&before.units[u]), dist(&after.units[u]));
            if now < PASS - 1e-6 && now < was - 1e-6 {
                return Err(format!("a man of {} ended {now:.2}\" from an enemy gun", before.name(u)));
            }
        }
    }
    // A man made to run runs 6" straight to the rear and faces it: where that is off the table
    // he stops at its edge; where it ends on impassable ground, at the farthest whole inch short
    // of it that is not (the register's rule for a run cut short).
    for (u, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        let rear = volley_table::norm_heading(u0.gun.map_or(u0.facing, |g| g.facing) + 180.0);
        let table = &before.stat().table;
        for (m0, m1) in u0.men.iter().zip(&u1.men).filter(|(m0, m1)| m0.in_ranks() && m1.running()) {
            let due = (0..=6)
                .rev()
                .map(|k| table.clamp(m0.at.toward(rear, f64::from(k))))
                .find(|&q| table.passable(q))
                .unwrap_or(m0.at);
            if m1.at.dist(due) > 1e-6 || turn(m1.facing, rear).abs() > 1e-6 {
                let d = m0.at.dist(m1.at);
                return Err(format!(
                    "a man of {} ran {d:.2}\" facing {:.0}, not 6\" to the rear ({rear:.0}) as the ground allows",
                    before.name(u),
                    m1.facing
                ));
            }
        }
    }
    // Every combat between units the text lets fight; every flank or rear bonus for the unit
    // conducting the combat ("a unit attacking the flank or rear"), standing outside the
    // loser's front as the loser formed.
    for ev in events {
        let (a, d, flank_for) = match ev {
            Event::CardCombat { attacker, defender, result, .. } => {
                let (a, d) = (unit_named(before, attacker), unit_named(before, defender));
                let mut who = Vec::new();
                for (i, loss) in result.losses.iter().enumerate() {
                    if let Some(l) = loss
                        && l.explanation.iter().any(|m| m.rule.contains("flank"))
                    {
                        if i == 0 {
                            return Err(format!(
                                "{} won defending and had a flank or rear bonus against {}, which attacked it",
                                before.name(d),
                                before.name(a)
                            ));
                        }
                        who.push((a, d));
                    }
                }
                (a, d, who)
            }
            Event::Attack { attacker, target, loss, .. } => {
                let (a, t) = (unit_named(before, attacker), unit_named(before, target));
                let who = if loss.explanation.iter().any(|m| m.rule.contains("flank")) { vec![(a, t)] } else { vec![] };
                (a, t, who)
            }
            _ => continue,
        };
        let (ua, ud) = (&before.units[a], &before.units[d]);
        // Engaged with each other: they have fought each other in this engagement (checked
        // below: units become engaged with each other only by fighting).
        let engaged = ua.engaged_with.contains(&(d as u16)) && ud.engaged_with.contains(&(a as u16));
        let without_chance = matches!(ev, Event::Attack { .. });
        // Without chance a unit conducts combat only against an enemy in front of it (as it
        // formed), engaged or not.
        if without_chance && !in_front_as_formed(ua, ud) {
            return Err(format!("{} attacked {}, which is not in front of it", before.name(a), before.name(d)));
        }
        if !engaged && !(gap(ua, ud) < COMBAT_RANGE && (without_chance || faces(ua, ud) || faces(ud, ua))) {
            return Err(format!(
                "{} fought {} {:.2}\" away, neither facing",
                before.name(a),
                before.name(d),
                gap(ua, ud)
            ));
        }
        for (w, l) in flank_for {
            if in_front_as_formed(&before.units[l], &before.units[w]) {
                return Err(format!(
                    "{} had a flank or rear bonus against {}, standing in its front as it formed",
                    before.name(w),
                    before.name(l)
                ));
            }
        }
    }
    Ok(())
}

/// The page's deployment: each side is given its own units as placements, and the band along
/// its rear edge, while its deployment is its to fix; nobody else is. A placement given back as
/// it stands is legal; moved out of the band, it is refused.
#[test]
fn a_side_fixing_its_deployment_is_given_its_units_and_its_band_and_nobody_else_is() {
    use volley_core::{GameState, Viewer};
    let mut b = scenario("crossroads.toml");
    for side in 0..2u8 {
        let v = b.view(Viewer::Side(side));
        let d = v.deploy.as_ref().unwrap_or_else(|| panic!("side {side} deploys"));
        let names: Vec<&str> =
            v.pieces.iter().filter(|p| p.side == Some(side)).filter_map(|p| p.unit.as_deref()).collect();
        assert!(!d.units.is_empty());
        assert!(d.units.iter().all(|u| names.contains(&u.unit.as_str())), "only its own units");
        // The band lies along its rear edge, as deep as the rules say.
        let ys: Vec<f64> = d.zone.iter().map(|p| p[1]).collect();
        let depth = ys.iter().cloned().fold(f64::MIN, f64::max) - ys.iter().cloned().fold(f64::MAX, f64::min);
        assert!(depth > 1.0 && depth < v.depth / 2.0, "{:?}", d.zone);
    }
    assert!(b.view(Viewer::Spectator).deploy.is_none());
    assert!(b.view(Viewer::Umpire).deploy.is_none());
    // Side 0's placements, as given, make a legal deployment; one moved across the table, not.
    let d = b.view(Viewer::Side(0)).deploy.unwrap();
    let as_given: Vec<serde_json::Value> = d.units.iter().map(|u| u.placement.clone()).collect();
    let act = |ps: Vec<serde_json::Value>| -> Action {
        serde_json::from_value(serde_json::json!({"deploy": {"placements": ps}})).unwrap()
    };
    assert!(b.validate(&act(as_given.clone())).is_ok());
    let mut far = as_given.clone();
    far[0]["at"][1] = serde_json::json!(b.view(Viewer::Side(0)).depth / 2.0);
    assert!(b.validate(&act(far)).is_err());
    // Once side 0 has fixed its deployment, it is given none; side 1 still is.
    let mut events = Vec::new();
    b.apply(&act(as_given), &mut volley_chance::Seeded::new(1), &mut events).unwrap();
    assert!(b.view(Viewer::Side(0)).deploy.is_none());
    assert!(b.view(Viewer::Side(1)).deploy.is_some());
}

// Every text a person reads — the account's lines, the phase, the pieces' labels and status,
// the markers, the notes, the candidates' descriptions — in words: no name from the program
// (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
// (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
// bundled scenario.

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word.
const NAMES: &[&str] = &[];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 2), ("random", 72, 1)] {
            let words = Words { no_coordinates: true, distinct_choices: true };
            let read = check_words_with(|| b.clone(), agents(kind), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}

/// `text` without what stands in brackets (the reasons).
fn without_brackets(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// Every combat of seeded battles gives the men to run term by term, and the terms add up.
#[test]
fn the_men_to_run_are_given_term_by_term_and_add_up() {
    use volley_core::{Actor, GameState};
    let mut read = 0;
    for s in SCENARIOS {
        let seed = Seeded::derive(76, 0);
        let mut rng = Seeded::new(seed);
        let mut players = agents("heuristic")(seed);
        let mut b = scenario(s);
        let (mut cands, mut events) = (Vec::new(), Vec::new());
        while b.outcome().is_none() {
            let Actor::Side(side) = b.actor() else { break };
            cands.clear();
            b.candidate_actions(&mut cands);
            let i = players[usize::from(side)].choose(&b, &cands);
            events.clear();
            b.apply(&cands[i], &mut rng, &mut events).unwrap();
            for line in events.iter().map(ToString::to_string) {
                for (at, _) in line.match_indices(" to run: ") {
                    let before: String = line[..at]
                        .chars()
                        .rev()
                        .take_while(char::is_ascii_digit)
                        .collect::<Vec<_>>()
                        .into_iter()
                        .rev()
                        .collect();
                    let total: i32 = before.parse().unwrap();
                    let rest = &line[at + 9..];
                    let terms = without_brackets(&rest[..rest.find(" -> ").unwrap()]);
                    // Fewer than none run none: "... = -1: none".
                    let terms = terms.split(" = ").next().unwrap_or("");
                    let sum: i32 = terms.split_whitespace().map(|t| t.parse::<i32>().unwrap()).sum();
                    assert_eq!(sum.max(0), total, "{line}");
                    read += 1;
                }
            }
        }
    }
    assert!(read > 20, "{read} combats read");
}

// ----- Each invariant above, shown able to fail: a doctored step, and the check reporting it -----

mod common;

/// A Prussian line of 13 (two ranks) at `p` facing north, an Austrian unit as `a` (TOML), on an
/// empty table; deployed, the Prussians to move.
fn two(variant: &str, p: (f64, f64), a: &str) -> Battle {
    let p = format!(r#"{{ name = "P", arm = "infantry", at = [{}, {}] }}"#, p.0, p.1);
    common::start(common::battle(variant, &p, a, ""), 0)
}

/// Unit `u` of `b` moved by `by` (its front, its men and its gun), as if it had gone there.
fn shifted(b: &Battle, u: usize, by: Point) -> Battle {
    let mut after = b.clone();
    let x = &mut after.units[u];
    x.front = x.front + by;
    for m in &mut x.men {
        m.at = m.at + by;
    }
    if let Some(g) = &mut x.gun {
        g.at = g.at + by;
    }
    x.reframe();
    after
}

fn fails(before: &Battle, action: &Action, after: &Battle, events: &[Event], says: &str) {
    match invariants(before, action, after, events) {
        Err(e) => assert!(e.contains(says), "expected a report of {says:?}, got {e:?}"),
        Ok(()) => panic!("the invariant let it pass: expected {says:?}"),
    }
}

#[test]
fn each_invariant_reports_a_doctored_step() {
    use volley_blown_away::combat::{CardSide, Quarter, resolve_cards};
    let mv = |to: Point| Action::Move { unit: 0, pivot: None, path: vec![to] };
    let far = r#"{ name = "A", arm = "infantry", at = [80, 55], facing = 180 }"#;
    // A move beyond the rate.
    let b = two("chance", (40.0, 10.0), far);
    fails(&b, &mv(Point::new(40.0, 20.0)), &shifted(&b, 0, Point::new(0.0, 10.0)), &[], "moved 10.00");
    // Through the enemy: A's line stands across the way, facing east (not at P).
    let b = two("chance", (40.0, 10.0), r#"{ name = "A", arm = "infantry", at = [40, 13], facing = 90 }"#);
    fails(&b, &mv(Point::new(40.0, 16.0)), &shifted(&b, 0, Point::new(0.0, 6.0)), &[], "passed through");
    // Within 4" of a facing enemy without halting.
    let b = two("chance", (40.0, 10.0), r#"{ name = "A", arm = "infantry", at = [40, 19], facing = 180 }"#);
    fails(&b, &mv(Point::new(40.0, 16.0)), &shifted(&b, 0, Point::new(0.0, 6.0)), &[], "without halting");
    // A mob beyond 18".
    let mut b = two("chance", (40.0, 10.0), far);
    for m in &mut b.units[0].men {
        m.state = volley_blown_away::model::ManState::Running;
    }
    let c = b.units[0].centre();
    let after = shifted(&b, 0, Point::new(0.0, 20.0));
    fails(&b, &Action::Mob { unit: 0, path: vec![c + Point::new(0.0, 20.0)] }, &after, &[], "went 20.00");
    // Long-range fire at a unit 3" away.
    let b = common::start(
        common::battle(
            "chance",
            r#"{ name = "Gun", arm = "artillery", at = [40, 10] }"#,
            r#"{ name = "A", arm = "infantry", at = [40, 13], facing = 180 }"#,
            "",
        ),
        0,
    );
    fails(&b, &Action::Fire { gun: 0, target: 1 }, &b, &[], "long-range fire at a unit whose nearest man");
    // Combat out of reach, and flank bonuses where the text gives none.
    let b = two("chance", (40.0, 10.0), far);
    let inf = |quarter| CardSide { arm: Some(volley_blown_away::model::Arm::Infantry), quarter, ..CardSide::default() };
    let card = |cards: [u8; 2], quarters: [Quarter; 2]| Event::CardCombat {
        attacker: "P".into(),
        defender: "A".into(),
        result: resolve_cards(&[inf(quarters[0]), inf(quarters[1])], cards),
        applied: [(0, 0), (0, 0)],
    };
    let fight = Action::Combat { unit: 0, target: 1 };
    fails(&b, &fight, &b, &[card([9, 3], [Quarter::Front, Quarter::Front])], "neither facing");
    let b = two("chance", (40.0, 10.0), r#"{ name = "A", arm = "infantry", at = [40, 13], facing = 180 }"#);
    fails(&b, &fight, &b, &[card([9, 3], [Quarter::Flank, Quarter::Front])], "standing in its front as it formed");
    // (A defender's win with the +4: resolve_cards never gives it, so the event is doctored.)
    let mut defended = card([3, 9], [Quarter::Front, Quarter::Front]);
    if let Event::CardCombat { result, .. } = &mut defended
        && let Some(l) = &mut result.losses[0]
    {
        l.explanation.push(volley_blown_away::combat::Modifier { rule: "win on the flank or rear".into(), value: 4 });
    }
    fails(&b, &fight, &b, &[defended], "won defending");
    // Without chance, a unit attacks only what is in front of it: A beside P, facing it.
    let b = two("without-chance", (40.0, 10.0), r#"{ name = "A", arm = "infantry", at = [46, 10.5], facing = 270 }"#);
    let attack = Event::Attack {
        attacker: "P".into(),
        target: "A".into(),
        loss: volley_blown_away::combat::Loss { killed: 1, run: 1, explanation: Vec::new() },
        applied: (1, 1),
    };
    fails(&b, &fight, &b, &[attack], "not in front of it");
    // The ground a unit formed on changes only when it forms, and then is where its men stand.
    let b = two("chance", (40.0, 10.0), far);
    let mut after = b.clone();
    after.units[0].frame.as_mut().unwrap().hi += 3.0;
    fails(&b, &Action::EndPhase, &after, &[], "changed though it did not form");
    let mut after = shifted(&b, 0, Point::new(0.0, 3.0));
    after.units[0].frame.as_mut().unwrap().lo -= 3.0;
    fails(&b, &mv(Point::new(40.0, 13.0)), &after, &[], "frame is not where");
    // A man made to run 3" only, with open ground behind him.
    let b = two("chance", (40.0, 10.0), far);
    let mut after = b.clone();
    after.units[0].men[0].state = volley_blown_away::model::ManState::Running;
    after.units[0].men[0].at = after.units[0].men[0].at + Point::new(0.0, -3.0);
    after.units[0].men[0].facing = 180.0;
    fails(&b, &Action::EndPhase, &after, &[], "ran 3.00");
    // Engaged with an enemy without fighting it.
    let mut after = b.clone();
    after.units[0].engaged_with.push(1);
    fails(&b, &Action::EndPhase, &after, &[], "became engaged");
    // A man stands on an enemy gun nobody serves, after moving.
    let mut b = two("chance", (40.0, 10.0), r#"{ name = "Gun", arm = "artillery", at = [37, 15], facing = 90 }"#);
    for m in &mut b.units[1].men {
        m.state = volley_blown_away::model::ManState::Dead;
    }
    fails(&b, &mv(Point::new(40.0, 15.0)), &shifted(&b, 0, Point::new(0.0, 5.0)), &[], "from an enemy gun");
}

#[test]
fn the_gunners_walk_invariants_report_a_doctored_step() {
    // The battery's one gunner in ranks stands 12" south of his gun (40, 27).
    let with = |enemy: &str| {
        let mut b = common::start(
            common::battle("chance", r#"{ name = "Battery", arm = "artillery", at = [40, 27] }"#, enemy, ""),
            0,
        );
        for (i, m) in b.units[0].men.iter_mut().enumerate() {
            if i == 0 {
                m.at = Point::new(40.0, 15.0);
            } else {
                m.state = volley_blown_away::model::ManState::Dead;
            }
        }
        b
    };
    let walked = |b: &Battle, to: Point, distance: f64| {
        let mut after = b.clone();
        after.units[0].men[0].at = to;
        let ev = Event::GunnersReturned { unit: "Battery".into(), at_gun: 0, distance, stopped: None };
        (after, ev)
    };
    let walk = Action::ReturnGunners { unit: 0 };
    // Too far in a turn.
    let b = with(r#"{ name = "A", arm = "infantry", at = [80, 55], facing = 180 }"#);
    let (after, ev) = walked(&b, Point::new(40.0, 25.4), 10.4);
    fails(&b, &walk, &after, &[ev], "walked 10.40");
    // Through an enemy line across his way (facing east, away from him).
    let b = with(r#"{ name = "A", arm = "infantry", at = [40, 18], facing = 90 }"#);
    let (after, ev) = walked(&b, Point::new(40.0, 21.0), 6.0);
    fails(&b, &walk, &after, &[ev], "walked through");
    // Within 4" of an enemy facing him, without halting.
    let b = with(r#"{ name = "A", arm = "infantry", at = [40, 24], facing = 180 }"#);
    let (after, ev) = walked(&b, Point::new(40.0, 21.0), 6.0);
    fails(&b, &walk, &after, &[ev], "without halting");
}
