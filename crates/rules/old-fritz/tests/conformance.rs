//! The conformance harness over every bundled Old Fritz scenario, with heuristic and random
//! players on both sides, and the text's rules checked after every action of every battle:
//! 200 battles by default (`games(50)` for each scenario and pairing of players); the heuristic
//! player against the random one; every text in words and every sum adding up.
//!
//! The checks are written here from the text's clauses (and the register's readings of them),
//! not by calling the engine's own rules: each works out from the table before an action, the
//! table after it and the account's data whether the step kept the text.
//!
//! * **Bodies**: no two enemy footprints overlap after any action — after marches, wheels,
//!   changes of formation, attacks, withdrawals, routs and pursuits alike; and no move passes
//!   through an enemy that stood still.
//! * **Close combat in contact**: every close combat is fought between units within 2½" of each
//!   other, body to body (section 5a: "moved to within 2½" of each other"), measured on the
//!   bodies the account gives as the combat was resolved, and those bodies are where the units
//!   stood.
//! * **No wheel over 45° and an attack in one bound** (section 4: a wheel over 45° takes the
//!   whole bound, a close combat half): no unit of an attacking grouping has turned more than 45°
//!   (an about turn excepted) in the bound it fights, before the combat or after it; and the
//!   turns its paths tell cost no more than the half bound engaging leaves.
//! * **Rates**: every move within the rate for what the unit did (sections 3 and 4): its walk or
//!   trot (cavalry trot only if they did not change direction), less half a bound for a wheel up
//!   to 45°, an about turn, a change of formation, crossing a linear obstacle or engaging, less
//!   the whole bound for a wheel over 45°, halved across the wagons; no move while limbering or
//!   unlimbered; withdrawals at half speed, routs at 20" (cavalry their trot), pursuits at the
//!   pursuer's rate, each halved across a linear obstacle.
//! * **Contact**: no two enemies stand within 2½" of each other at three bound-ends running
//!   without a close combat between them unless the account says why, and every reason it gives
//!   is true of the table.
//! * **Told**: every unit that moved, turned or changed formation in a bound has its way in the
//!   account's data, from where it stood to where it stands.
//!
//! Each check is shown able to fail: a test feeds it a doctored step and sees it report.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::collections::HashMap;

use volley_chance::Seeded;
use volley_core::Agent;
use volley_core::conformance::{Words, check_words_with};
use volley_core::conformance::{check, check_with, games};
use volley_old_fritz::events::{MoveKind, NoAttack, Path};
use volley_old_fritz::model::{Formation, Kind, Order, State};
use volley_old_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::{Point, TerrainKind, convex_distance, convex_overlap, segment_crosses_polyline, turn};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/old-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    move |seed| {
        (0..2).map(|i| volley_ai::by_name::<Battle>(kinds[i], Seeded::derive(seed, i as u64)).unwrap()).collect()
    }
}

const SCENARIOS: &[&str] = &["attack-on-the-ridge.toml", "mittelhof.toml"];

/// Both scenarios, `games(50)` battles each, with `kinds` players and every check.
fn conform(kinds: [&'static str; 2], master: u64) -> [u64; 3] {
    let mut results = [0; 3];
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents(kinds), master, games(50), 100_000, checker());
        assert_eq!(r.games, games(50), "{s}");
        eprintln!("{s} {kinds:?}: {r:?}");
        for (sum, n) in results.iter_mut().zip(r.results) {
            *sum += n;
        }
    }
    results
}

#[test]
fn random_agents_conform() {
    conform(["random", "random"], 31);
}

#[test]
fn heuristic_agents_conform_and_fight() {
    let r = conform(["heuristic", "heuristic"], 32);
    assert!(r[0] + r[1] > 0, "some heuristic battles should be won: {r:?}");
}

#[test]
fn the_heuristic_player_beats_the_random_one_more_often_than_not() {
    // Mittelhof is nearly even: both armies alike but for their generals. The heuristic side, played from
    // both sides, wins more battles than the random side.
    let b = scenario("mittelhof.toml");
    let mut heuristic_wins = 0;
    let mut random_wins = 0;
    for (kinds, h) in [(["heuristic", "random"], 0u8), (["random", "heuristic"], 1u8)] {
        let r = check(|| b.clone(), agents(kinds), 33, 20, 100_000);
        heuristic_wins += r.results[usize::from(h)];
        random_wins += r.results[usize::from(1 - h)];
    }
    eprintln!("Mittelhof: heuristic {heuristic_wins} wins, random {random_wins}");
    assert!(heuristic_wins > random_wins, "heuristic {heuristic_wins}, random {random_wins}");
}

/// The orders the heuristic player gives for the side to move, best first, until it ends its
/// orders.
fn heuristic_orders(b: &mut Battle) -> Vec<(u16, volley_old_fritz::model::Order)> {
    use volley_core::{GameState, Heuristic};
    use volley_old_fritz::Action;
    let mut given = Vec::new();
    for _ in 0..20 {
        let mut cands = Vec::new();
        b.candidate_actions(&mut cands);
        let mut scores = Vec::new();
        b.scores(&cands, &mut scores);
        let best = (0..cands.len()).max_by(|&i, &j| scores[i].total_cmp(&scores[j])).unwrap();
        let action = cands[best].clone();
        if let Action::Order { wing, order } = &action {
            given.push((*wing, *order));
            b.apply(&action, &mut volley_chance::Scripted::new([]), &mut Vec::new()).unwrap();
        } else {
            break;
        }
    }
    given
}

fn sent_to(orders: &[(u16, volley_old_fritz::model::Order)], wing: u16, p: volley_table::Point) -> bool {
    orders.iter().any(|(w, o)| *w == wing && o.place().is_some_and(|at| at.dist(p) < 1.0))
}

#[test]
fn the_heuristic_keeps_its_wagons_with_the_wing_farthest_from_the_objectives() {
    // Mittelhof: three wings a side. The Prussian right wing (wing 2, under the Kiefernwald)
    // is farthest from both objectives: it keeps the wagons; the centre goes for Mittelhof.
    let mut b = scenario("mittelhof.toml");
    let orders = heuristic_orders(&mut b);
    let park = b.stat.parks[0].0;
    assert!(sent_to(&orders, 2, park), "{orders:?}");
    assert!(!sent_to(&orders, 0, park) && !sent_to(&orders, 1, park), "{orders:?}");
    assert!(sent_to(&orders, 0, volley_table::Point::new(48.0, 30.0)), "{orders:?}");
    // The attack on the ridge: two wings a side, both needed in the fight: neither is sent to
    // the wagons.
    let mut b = scenario("attack-on-the-ridge.toml");
    let orders = heuristic_orders(&mut b);
    let park = b.stat.parks[0].0;
    assert!(!orders.iter().any(|(w, _)| sent_to(&orders, *w, park)), "{orders:?}");
}

#[test]
fn a_wing_told_to_hold_where_it_stands_stands_still() {
    use volley_core::GameState;
    // Player round 5: the ridge's eight battalions, ordered to hold the ridge where they stand,
    // wheeled 66 degrees right in bound 1 to shuffle an inch towards their places (the order's
    // point plus each one's offset from the wing's centre, its batteries included), then 66
    // degrees left in bound 3 to face the enemy again. Within `HOLD_NEAR` of its place, a unit
    // that would have to wheel to get there holds where it stands.
    let mut b = scenario("attack-on-the-ridge.toml");
    let ridge: Vec<usize> =
        (0..b.units.len()).filter(|&i| b.units[i].side == 1 && b.units[i].kind == Kind::LineInfantry).collect();
    assert_eq!(ridge.len(), 7, "the ridge's line battalions");
    let start: Vec<(Point, f64)> = ridge.iter().map(|&i| (b.units[i].at, b.units[i].facing)).collect();
    let mut dice = Seeded::new(5);
    let mut events = Vec::new();
    while b.bound <= 4 {
        b.apply(&Action::EndOrders, &mut dice, &mut events).unwrap();
    }
    let text: Vec<String> = events.iter().map(ToString::to_string).collect();
    for (k, &i) in ridge.iter().enumerate() {
        assert_eq!((b.units[i].at, b.units[i].facing), start[k], "{} moved: {text:#?}", b.name(i));
    }
    assert!(!text.iter().any(|t| t.contains("wheels")), "{text:#?}");
}

#[test]
fn a_wing_holding_an_objective_alone_stays_there() {
    use volley_core::{GameState, Heuristic};
    use volley_old_fritz::Action;
    use volley_old_fritz::model::Order;
    // The Prussian centre stands in Mittelhof, which the Prussians hold, ordered to hold it;
    // the Galgenberg is the Austrians', held by one weak battalion. Past half the bounds, one
    // objective each (not winning), the hill is worth going for — but not by the centre, which
    // would leave the town empty: a wing that holds nothing should go.
    let mut b = scenario("mittelhof.toml");
    let town = volley_table::Point::new(48.0, 30.0);
    for (k, u) in b.units.iter_mut().enumerate().filter(|(_, u)| u.side == 0 && u.wing == 0) {
        u.at = volley_table::Point::new(45.0 + (k % 4) as f64 * 2.0, 28.0 + (k / 4 % 3) as f64 * 2.0);
    }
    b.wings[0].order = Order::Hold { at: town };
    // The Austrian right wing is wing 5.
    let hill = b.units.iter().position(|u| u.side == 1 && u.wing == 5).unwrap();
    b.units[hill].at = volley_table::Point::new(22.0, 30.0);
    b.holders = vec![Some(0), Some(1)];
    b.bound = 16;
    let mut cands = Vec::new();
    b.candidate_actions(&mut cands);
    let mut scores = Vec::new();
    b.scores(&cands, &mut scores);
    let to_hill = |wing: u16| {
        let i = cands
            .iter()
            .position(|c| matches!(c, Action::Order { wing: w, order: Order::Attack { at } } if *w == wing && at.dist(volley_table::Point::new(23.0, 31.0)) < 1.0))
            .unwrap();
        scores[i]
    };
    assert!(to_hill(0) < 0.0, "the centre would leave the town: {}", to_hill(0));
    assert!(to_hill(2) > 0.0, "the hill is worth a wing that holds nothing: {}", to_hill(2));
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share a survey (wings' centres, objectives held, the places
    // near each wing): it must change no score. Ten Mittelhofs side by side as well, where a
    // wing is offered only the places nearest it.
    let path = format!("{}/../../../scenarios/old-fritz/mittelhof.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 10).unwrap();
    let mut battles: Vec<Battle> = SCENARIOS.iter().map(|s| scenario(s)).collect();
    battles.push(load(&Source::new("tiled", tiled)).unwrap());
    for b in battles {
        // Battles from more seeds until more than 50 decisions are checked (a battle may be
        // short: an army broken early).
        let mut n = 0;
        for seed in 5..10 {
            n += volley_ai::check_scores(&b, 300, seed).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
            if n > 50 {
                break;
            }
        }
        assert!(n > 50, "{}: {n} decisions checked", b.stat().name);
    }
}

// ----- The text's rules, checked after every action of every battle above -----

/// Slack for measuring, inches: moves stop a fortieth of an inch short of a body, approaches are
/// found to a hundredth.
const SLACK: f64 = 0.06;
/// The close-combat distance (section 5a): 2½" (120 m).
const CLOSE: f64 = 2.5;
/// Running infantry (and gunners) go 20" a bound (section 7).
const RUN: f64 = 20.0;

/// The text's rates (section 3), inches a bound: the walk (or march) and the trot.
fn rates(k: Kind) -> (f64, f64) {
    match k {
        Kind::LineInfantry => (12.0, 0.0),
        Kind::Grenz => (14.0, 0.0),
        Kind::Hussars | Kind::LightDragoons => (18.0, 45.0),
        Kind::Dragoons | Kind::Cuirassiers | Kind::Gensdarmes => (18.0, 36.0),
        Kind::MediumGuns => (12.0, 0.0),
        Kind::HeavyGuns => (10.0, 0.0),
    }
}

fn mounted(k: Kind) -> bool {
    rates(k).1 > 0.0
}

fn guns(k: Kind) -> bool {
    matches!(k, Kind::MediumGuns | Kind::HeavyGuns)
}

/// What a turn through `t` degrees costs (section 4): nothing for none (under 1°, a table's
/// measuring tolerance), half a bound up to 45° and for an about turn, the whole bound for any
/// other wheel over 45°.
fn turn_cost(t: f64) -> f64 {
    let t = t.abs();
    if t < 1.0 {
        0.0
    } else if t <= 45.0 || t >= 179.0 {
        0.5
    } else {
        1.0
    }
}

/// Whether the straight way from `from` to `to` crosses a linear obstacle.
fn crosses_obstacle(b: &Battle, from: Point, to: Point) -> bool {
    b.stat().table.features().iter().any(|f| {
        matches!(f.kind, TerrainKind::Wall | TerrainKind::Hedge | TerrainKind::Redoubt | TerrainKind::Trench)
            && segment_crosses_polyline(from, to, &f.points)
    })
}

/// Whether the straight way from `from` to `to` meets a wagon park (a box: centre, half
/// extents).
fn crosses_wagons(b: &Battle, from: Point, to: Point) -> bool {
    b.stat().parks.iter().any(|&(c, h)| {
        let inside = |p: Point| (p.x - c.x).abs() <= h.x && (p.y - c.y).abs() <= h.y;
        let corners = [
            Point::new(c.x - h.x, c.y - h.y),
            Point::new(c.x + h.x, c.y - h.y),
            Point::new(c.x + h.x, c.y + h.y),
            Point::new(c.x - h.x, c.y + h.y),
        ];
        inside(from)
            || inside(to)
            || (0..4).any(|k| volley_table::segments_intersect(from, to, corners[k], corners[(k + 1) % 4]))
    })
}

/// A unit's index by its name.
fn index(b: &Battle, name: &str) -> Result<usize, String> {
    b.stat().unit_names.iter().position(|n| n == name).ok_or_else(|| format!("no unit is called {name:?}"))
}

/// A close combat as the account gives it: its attackers, its defender, the fighters as they
/// stood.
type Fight = (Vec<usize>, usize, Vec<volley_old_fritz::events::Fighter>);

/// The close combats of a bound.
fn combats(b: &Battle, events: &[Event]) -> Result<Vec<Fight>, String> {
    let mut out = Vec::new();
    for ev in events {
        if let Event::CloseCombat { attackers, defender, fighters, .. } = ev {
            let a = attackers.iter().map(|n| index(b, n)).collect::<Result<Vec<_>, _>>()?;
            out.push((a, index(b, defender)?, fighters.clone()));
        }
    }
    Ok(out)
}

/// One step of a unit's way as the account tells it: a path, or a rallied runner's turn.
enum Leg<'a> {
    Path(&'a Path),
    Turn(&'a volley_old_fritz::events::TurnMade),
}

/// Each unit's ways in a bound, in the order told, with whether each was a winner finishing
/// its move.
fn legs<'a>(b: &Battle, events: &'a [Event]) -> Result<HashMap<usize, Vec<(Leg<'a>, bool)>>, String> {
    let mut out: HashMap<usize, Vec<(Leg<'a>, bool)>> = HashMap::new();
    for ev in events {
        let (unit, leg, finish) = match ev {
            Event::Moved { unit, what, path } => (unit, Leg::Path(path), *what == MoveKind::Finish),
            Event::Ran { unit, path: Some(path), .. } | Event::Withdrew { unit, path: Some(path) } => {
                (unit, Leg::Path(path), false)
            }
            Event::StoppedRunning { unit, turned: Some(t) } => (unit, Leg::Turn(t), false),
            _ => continue,
        };
        out.entry(index(b, unit)?).or_default().push((leg, finish));
    }
    Ok(out)
}

/// **Bodies**: no two enemy footprints overlap.
fn bodies(after: &Battle) -> Result<(), String> {
    let n = after.units.len();
    for a in 0..n {
        for b in a + 1..n {
            let (x, y) = (&after.units[a], &after.units[b]);
            if x.side == y.side || !x.present() || !y.present() || x.at.dist(y.at) > x.radius() + y.radius() + 4.0 {
                continue;
            }
            if convex_overlap(&x.corners(), &y.corners()) {
                return Err(format!(
                    "{} ({:?}) and {} ({:?}) stand on each other at {:?} and {:?}",
                    after.name(a),
                    x.state,
                    after.name(b),
                    y.state,
                    x.at,
                    y.at
                ));
            }
        }
    }
    Ok(())
}

/// **Close combat in contact**: each combat's attackers within 2½" of the defender, body to
/// body, as the account gives their bodies; and those bodies where the units stood.
fn combats_in_contact(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let legs = legs(after, events)?;
    for (attackers, defender, fighters) in combats(after, events)? {
        let names: Vec<usize> = fighters.iter().map(|f| index(after, &f.unit)).collect::<Result<_, _>>()?;
        let mut expected = attackers.clone();
        expected.push(defender);
        if names != expected || fighters.iter().filter(|f| f.attacker).count() != attackers.len() {
            return Err(format!("the close combat against {} does not list its fighters", after.name(defender)));
        }
        let Some(d) = fighters.last() else { continue };
        for (f, &k) in fighters.iter().zip(&names) {
            // The body is a footprint at the unit's centre, its front edge square to its facing.
            let centre = f.body.iter().fold(Point::default(), |s, &c| s + c) * 0.25;
            let front = (f.body[0] + f.body[1]) * 0.5 - f.at;
            let width = f.body[0].dist(f.body[1]);
            if centre.dist(f.at) > 1e-6
                || (width - f.frontage).abs() > 1e-6
                || (front.len() > 1e-9
                    && turn(volley_table::heading_to(Point::default(), front), f.facing).abs() > 1e-6)
            {
                return Err(format!("{}'s body in the close combat is not its footprint at {:?}", f.unit, f.at));
            }
            if f.attacker {
                // A line narrows about its centre as it loses figures: a bombardment between the
                // approach and the combat may open the gap by half the frontage each lost.
                let lost = |name: &str, now: f64| {
                    index(before, name).map(|k| ((before.units[k].frontage() - now) / 2.0).max(0.0))
                };
                let slack = SLACK + lost(&f.unit, f.frontage)? + lost(&d.unit, d.frontage)?;
                let gap = convex_distance(&f.body, &d.body);
                if gap > CLOSE + slack {
                    return Err(format!("{} fought {} with {gap:.2}\" between them, not within 2½\"", f.unit, d.unit));
                }
            }
            // Nothing moves after a combat in its bound but a winner finishing its move.
            let moved_on = legs.get(&k).is_some_and(|l| l.iter().any(|(_, finish)| *finish));
            let u = &after.units[k];
            if u.present() && !moved_on && (u.at.dist(f.at) > 1e-6 || turn(u.facing, f.facing).abs() > 1e-6) {
                return Err(format!(
                    "{} fought at {:?} facing {:.0} but stood at {:?} facing {:.0}",
                    f.unit, f.at, f.facing, u.at, u.facing
                ));
            }
            let _ = before;
        }
    }
    Ok(())
}

/// **No wheel over 45° and an attack in one bound**: no attacker has turned more than 45° (an
/// about turn excepted) from where it faced at the start of the bound, when it fought or after;
/// and the turns told cost no more than half a bound, the other half going on engaging.
fn no_wheel_and_attack(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let legs = legs(after, events)?;
    for (attackers, defender, fighters) in combats(after, events)? {
        for (&k, f) in attackers.iter().zip(&fighters) {
            let start = before.units[k].facing;
            let ends = [Some(f.facing), after.units[k].present().then_some(after.units[k].facing)];
            for end in ends.into_iter().flatten() {
                let t = turn(start, end);
                if turn_cost(t) >= 1.0 {
                    return Err(format!(
                        "{} turned {t:.0}° and attacked {} in one bound",
                        after.name(k),
                        after.name(defender)
                    ));
                }
            }
            let cost: f64 =
                legs.get(&k)
                    .into_iter()
                    .flatten()
                    .filter_map(|(l, _)| {
                        if let Leg::Path(p) = l { Some(p.turns.iter().map(|t| t.cost).sum::<f64>()) } else { None }
                    })
                    .sum();
            if cost > 0.5 + 1e-9 {
                return Err(format!("{}'s turns cost {cost} of the bound and it attacked in it", after.name(k)));
            }
        }
    }
    Ok(())
}

/// **Rates**: every unit's move within the rate for what it did this bound.
fn within_rates(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let attacked: Vec<usize> = combats(after, events)?.into_iter().flat_map(|(a, _, _)| a).collect();
    for (i, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        if !u0.present() || !u1.present() {
            continue;
        }
        let moved = u0.at.dist(u1.at);
        let (walk, trot) = rates(u0.kind);
        let obstacle = crosses_obstacle(after, u0.at, u1.at);
        let half = |x: f64| if obstacle { x / 2.0 } else { x };
        // Guns move only limbered (section 4: limbering takes a bound, two for heavy guns).
        let unlimbered = guns(u0.kind) && !u0.limbered;
        let working = guns(u0.kind) && (unlimbered || !u1.limbered || u0.busy > 0.0 || u1.busy > 0.0);
        let (most, what) = match u0.state {
            State::Running if unlimbered => (0.0, "a battery with its guns unlimbered".to_string()),
            State::Running => (half(if mounted(u0.kind) { trot } else { RUN }), "running".into()),
            State::Withdrawing if unlimbered => (0.0, "a battery with its guns unlimbered".into()),
            State::Withdrawing => {
                (half(if mounted(u0.kind) && !u0.withdraw_walking { trot } else { walk } / 2.0), "withdrawing".into())
            }
            State::Pursuing { .. } => (half(if mounted(u0.kind) { trot } else { walk }), "pursuing".into()),
            State::Rallying => (0.0, "rallying".into()),
            State::Steady if working => (0.0, "a battery with its guns unlimbered or limbering".into()),
            State::Steady => {
                // Each incline (a change of direction under 1°, no turn on a table-top) is free
                // each time it is made: a unit that inclines to its enemy and again as it
                // finishes its move may end up to 2° off at no cost (register, interpretation 1).
                let inclines = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::Moved { unit, path, .. } if unit.as_str() == after.name(i) => Some(path),
                        _ => None,
                    })
                    .flat_map(|p| p.turns.iter())
                    .filter(|t| t.cost == 0.0)
                    .count();
                let t = turn(u0.facing, u1.facing);
                let t = if inclines > 1 && t.abs() < inclines as f64 { 0.0 } else { t };
                let reform = if u0.formation != u1.formation { 0.5 } else { 0.0 };
                let engage = if attacked.contains(&i) { 0.5 } else { 0.0 };
                let obst = if obstacle { 0.5 } else { 0.0 };
                let rate = if mounted(u0.kind) && t.abs() < 1.0 { trot } else { walk };
                let left = (1.0 - turn_cost(t) - reform - engage - obst).max(0.0);
                let wagons = crosses_wagons(after, u0.at, u1.at);
                let most = left * rate / if wagons { 2.0 } else { 1.0 };
                (
                    most,
                    format!(
                        "{left} of the bound left at {rate}\" after turning {t:.0}°{}{}{}{}",
                        if reform > 0.0 { ", changing formation" } else { "" },
                        if engage > 0.0 { ", engaging" } else { "" },
                        if obstacle { ", crossing an obstacle" } else { "" },
                        if wagons { ", across the wagons" } else { "" }
                    ),
                )
            }
            State::Gone(_) => continue,
        };
        if moved > most + SLACK {
            return Err(format!(
                "{} ({:?}) went {moved:.2}\" in a bound, at most {most:.2}\" ({what})",
                after.name(i),
                u0.state
            ));
        }
    }
    Ok(())
}

/// **Told**: every unit that moved, turned or changed formation has its way in the account, in
/// order, from where it stood to where it stands; each path's turns carry its facing from its
/// start to its end, and its distance is the straight way.
fn told(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let legs = legs(after, events)?;
    for (i, (u0, u1)) in before.units.iter().zip(&after.units).enumerate() {
        if !u0.present() || !u1.present() {
            continue;
        }
        let changed = u0.at.dist(u1.at) > 1e-9 || u0.facing != u1.facing || u0.formation != u1.formation;
        let Some(ways) = legs.get(&i) else {
            if changed {
                return Err(format!("{} moved or turned and the account does not tell it", after.name(i)));
            }
            continue;
        };
        let (mut at, mut facing, mut formation) = (u0.at, u0.facing, u0.formation);
        for (leg, _) in ways {
            match leg {
                Leg::Path(p) => {
                    if p.from.dist(at) > 1e-9
                        || turn(p.facing_from, facing).abs() > 1e-9
                        || p.formation_from != formation
                    {
                        return Err(format!(
                            "{}'s way starts at {:?}, not where it stood, {at:?}",
                            after.name(i),
                            p.from
                        ));
                    }
                    let mut f = p.facing_from;
                    for t in &p.turns {
                        if turn(t.from, f).abs() > 1e-9 || (turn(t.from, t.to) - t.degrees).abs() > 1e-9 {
                            return Err(format!("{}'s turns do not follow on from each other", after.name(i)));
                        }
                        f = t.to;
                    }
                    if turn(f, p.facing).abs() > 1e-9 {
                        return Err(format!("{} faced {:.0} with no turn told", after.name(i), p.facing));
                    }
                    if (p.distance - p.from.dist(p.to)).abs() > 1e-9 {
                        return Err(format!("{}'s distance is not its way", after.name(i)));
                    }
                    (at, facing, formation) = (p.to, p.facing, p.formation);
                }
                Leg::Turn(t) => {
                    if turn(t.from, facing).abs() > 1e-9 {
                        return Err(format!("{}'s turn starts from the wrong facing", after.name(i)));
                    }
                    facing = t.to;
                }
            }
        }
        if at.dist(u1.at) > 1e-9 || turn(facing, u1.facing).abs() > 1e-9 || formation != u1.formation {
            return Err(format!(
                "{}'s way told ends at {at:?} facing {facing:.0}, but it stands at {:?} facing {:.0}",
                after.name(i),
                u1.at,
                u1.facing
            ));
        }
    }
    Ok(())
}

/// No unit's footprint passes through an enemy's that stood still all bound: each way the
/// account tells is checked along its straight line, in the facing and formation the unit moved
/// in.
fn no_passing_through(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let legs = legs(after, events)?;
    for (i, ways) in &legs {
        let (i, u) = (*i, &after.units[*i]);
        for (leg, _) in ways {
            let Leg::Path(p) = leg else { continue };
            let moved = p.from.dist(p.to);
            if moved < 1e-9 {
                continue;
            }
            let footprint = |at: Point| u.outline(p.moving, p.formation).map(|c| c + at);
            for (j, (e0, e1)) in before.units.iter().zip(&after.units).enumerate() {
                let still = e0.at.dist(e1.at) < 1e-9
                    && (e0.facing - e1.facing).abs() < 1e-9
                    && e0.formation == e1.formation
                    && e0.figures == e1.figures;
                if e0.side == before.units[i].side || !e0.present() || !e1.present() || !still {
                    continue;
                }
                let body = e1.corners();
                if convex_overlap(&footprint(p.from), &body) {
                    continue;
                }
                let steps = (moved / 0.25).ceil() as u32;
                for k in 1..=steps {
                    let at = p.from.lerp(p.to, f64::from(k) / f64::from(steps));
                    if convex_overlap(&footprint(at), &body) {
                        return Err(format!(
                            "{} passed through {} on its way from {:?} to {:?}",
                            after.name(i),
                            after.name(j),
                            p.from,
                            p.to
                        ));
                    }
                }
            }
        }
    }
    Ok(())
}

/// Every check of one action but the contacts (which remember bounds).
fn invariants(before: &Battle, _action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    bodies(after)?;
    if !events.iter().any(|e| matches!(e, Event::BoundBegins { .. })) {
        return Ok(());
    }
    combats_in_contact(before, after, events)?;
    no_wheel_and_attack(before, after, events)?;
    within_rates(before, after, events)?;
    told(before, after, events)?;
    no_passing_through(before, after, events)
}

/// Whether `why`, the account's reason for `a` not attacking `b`, is true of the table after the
/// bound.
fn reason_holds(
    before: &Battle,
    after: &Battle,
    a: usize,
    b: usize,
    why: &NoAttack,
    events: &[Event],
) -> Result<(), String> {
    let u = &after.units[a];
    let holds = match why {
        // Told as the bound's actions left the table, before resting: a unit that did nothing
        // at all sheds a green counter at the bound's end, and a rallying one with fewer than two
        // is in good order again.
        // A unit that withdrew or pursued this bound is in good order again at its end.
        NoAttack::NotInOrder { state } => {
            let name = after.name(a);
            u.state != State::Steady
                || state == "rallying"
                || events.iter().any(|e| match e {
                    Event::Withdrew { unit, .. } => unit == name && state == "withdrawing",
                    Event::Moved { unit, what: MoveKind::Pursue { target }, .. } => {
                        unit == name && *state == format!("pursuing {target}")
                    }
                    _ => false,
                })
        }
        NoAttack::Guns => guns(u.kind),
        NoAttack::NotOrdered => !matches!(u.order, Order::Attack { .. }),
        // Spent when it moved: its greens then were those it began the bound with.
        NoAttack::Spent { greens } => *greens >= 2 && before.units[a].greens == *greens,
        NoAttack::UnderControl => u.hold_here,
        NoAttack::SecondLine => u.second_line,
        NoAttack::Engaged | NoAttack::OtherArm => u.engage == Some(b as u16),
        NoAttack::NoRoomToTurn => u.no_room,
        NoAttack::Narrowed { enemy } => u.engage == Some(index(after, enemy)? as u16),
        NoAttack::FoughtOther { enemy } => {
            let e = index(after, enemy)?;
            combats(after, events)?
                .iter()
                .any(|(atk, d, _)| (*d == a && atk.contains(&e)) || (*d == e && atk.contains(&a)))
        }
        NoAttack::GoesFor { enemy } => {
            let e = index(after, enemy)?;
            e != b && before.units[e].side != before.units[a].side
        }
        NoAttack::Receives { enemy } => {
            // An enemy at grips with it when it moved: engaged with it since last bound, or now.
            let e = index(after, enemy)?;
            before.units[e].engage == Some(a as u16)
                || after.units[e].engage == Some(a as u16)
                || events.iter().any(|ev| {
                    matches!(ev, Event::Moved { unit, what: MoveKind::Attack { target }, .. }
                        if unit == enemy && target == after.name(a))
                })
        }
        // It was under orders to attack (it went for this enemy, or found none).
        NoAttack::CameUp | NoAttack::NoTarget => matches!(u.order, Order::Attack { .. }),
    };
    if holds {
        Ok(())
    } else {
        Err(format!(
            "the account says {} does not attack {} because {why:?}, which is not so",
            after.name(a),
            after.name(b)
        ))
    }
}

/// Enemy pairs within 2½" of each other at bound-ends running, without a close combat between
/// them.
#[derive(Default)]
struct Contacts {
    bounds: HashMap<(usize, usize), u32>,
}

impl Contacts {
    /// After each action: a pair of enemies within 2½" at three bound-ends running with no
    /// close combat between them, and no word in the account of why, breaks the rule; so does
    /// a reason that is not true.
    fn check(&mut self, before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
        if before.bound == 1 && !events.iter().any(|e| matches!(e, Event::BoundBegins { .. })) {
            self.bounds.clear();
        }
        if !events.iter().any(|e| matches!(e, Event::BoundBegins { .. })) {
            return Ok(());
        }
        let fought: Vec<(usize, usize)> = combats(after, events)?
            .into_iter()
            .flat_map(|(atk, d, _)| atk.into_iter().map(move |a| (a.min(d), a.max(d))))
            .collect();
        let mut told = Vec::new();
        for ev in events {
            if let Event::Contact { units, why, .. } = ev {
                let (a, b) = (index(after, &units[0])?, index(after, &units[1])?);
                reason_holds(before, after, a, b, &why[0], events)?;
                reason_holds(before, after, b, a, &why[1], events)?;
                told.push((a.min(b), a.max(b)));
            }
        }
        let mut now = HashMap::new();
        let n = after.units.len();
        for a in 0..n {
            for b in a + 1..n {
                let (x, y) = (&after.units[a], &after.units[b]);
                if x.side == y.side || !x.present() || !y.present() || fought.contains(&(a, b)) {
                    continue;
                }
                if x.at.dist(y.at) > x.radius() + y.radius() + 4.0 + CLOSE {
                    continue;
                }
                if convex_distance(&x.corners(), &y.corners()) <= CLOSE + 0.04 {
                    let k = self.bounds.get(&(a, b)).copied().unwrap_or(0) + 1;
                    if k >= 3 && !told.contains(&(a, b)) {
                        return Err(format!(
                            "{} and {} have stood within 2½\" at {k} bound-ends without a close combat, and nothing says why",
                            after.name(a),
                            after.name(b)
                        ));
                    }
                    now.insert((a, b), k);
                }
            }
        }
        self.bounds = now;
        Ok(())
    }
}

/// Every check, with the contact check's memory across actions.
fn checker() -> impl FnMut(&Battle, &Action, &Battle, &[Event]) -> Result<(), String> {
    let mut contacts = Contacts::default();
    move |before, action, after, events| {
        invariants(before, action, after, events)?;
        contacts.check(before, after, events)
    }
}

// ----- Each check shown able to fail -----

/// The first bound of a heuristic Mittelhof (seed 7) in which a close combat is fought: the
/// battle before it, the action that carried it out, the battle after it and its events.
fn a_bound_with_a_close_combat() -> (Battle, Action, Battle, Vec<Event>) {
    use volley_core::{Actor, GameState};
    let mut b = scenario("mittelhof.toml");
    let mut players = agents(["heuristic", "heuristic"])(7);
    let mut rng = Seeded::new(7);
    let mut cands = Vec::new();
    loop {
        let Actor::Side(side) = b.actor() else { panic!("no close combat in the battle") };
        cands.clear();
        b.candidate_actions(&mut cands);
        let action = cands[players[usize::from(side)].choose(&b, &cands)].clone();
        let before = b.clone();
        let mut events = Vec::new();
        b.apply(&action, &mut rng, &mut events).unwrap();
        if events.iter().any(|e| matches!(e, Event::CloseCombat { .. })) {
            assert_eq!(invariants(&before, &action, &b, &events), Ok(()));
            return (before, action, b, events);
        }
    }
}

/// The first close combat's first attacker and its defender, by index.
fn first_fight(b: &Battle, events: &[Event]) -> (usize, usize) {
    let (atk, d, _) = combats(b, events).unwrap().into_iter().next().unwrap();
    (atk[0], d)
}

#[test]
fn the_body_check_reports_enemies_standing_on_each_other() {
    let (_, _, mut after, events) = a_bound_with_a_close_combat();
    assert_eq!(bodies(&after), Ok(()));
    let (a, d) = first_fight(&after, &events);
    after.units[a].at = after.units[d].at;
    let why = bodies(&after).unwrap_err();
    assert!(why.contains("stand on each other"), "{why}");
}

#[test]
fn the_contact_check_reports_a_close_combat_fought_apart_or_where_the_units_did_not_stand() {
    let (before, _, after, events) = a_bound_with_a_close_combat();
    // The first attacker said to have fought 3" farther back.
    let mut doctored = events.clone();
    let mut shifted = after.clone();
    for e in &mut doctored {
        if let Event::CloseCombat { fighters, .. } = e {
            let back = volley_table::unit(fighters[0].facing) * -3.0;
            fighters[0].at = fighters[0].at + back;
            for c in &mut fighters[0].body {
                *c = *c + back;
            }
            let k = index(&after, &fighters[0].unit).unwrap();
            shifted.units[k].at = fighters[0].at;
            break;
        }
    }
    let why = combats_in_contact(&before, &shifted, &doctored).unwrap_err();
    assert!(why.contains("not within 2½\""), "{why}");
    // Its body moved but not the unit: the account's body is not where it stood.
    let mut doctored = events.clone();
    for e in &mut doctored {
        if let Event::CloseCombat { fighters, .. } = e {
            fighters[0].at.x += 0.5;
            for c in &mut fighters[0].body {
                c.x += 0.5;
            }
            break;
        }
    }
    let why = combats_in_contact(&before, &after, &doctored).unwrap_err();
    assert!(why.contains("but stood at"), "{why}");
}

#[test]
fn the_wheel_check_reports_a_wheel_over_45_degrees_and_an_attack_in_one_bound() {
    let (before, _, after, events) = a_bound_with_a_close_combat();
    assert_eq!(no_wheel_and_attack(&before, &after, &events), Ok(()));
    let (a, _) = first_fight(&after, &events);
    let mut turned = before.clone();
    turned.units[a].facing = (turned.units[a].facing + 90.0) % 360.0;
    let why = no_wheel_and_attack(&turned, &after, &events).unwrap_err();
    assert!(why.contains("turned") && why.contains("and attacked"), "{why}");
    // An about turn (half a bound) and an attack (half) fit in one bound.
    let mut about = before.clone();
    about.units[a].facing = (about.units[a].facing + 180.0) % 360.0;
    assert_eq!(no_wheel_and_attack(&about, &after, &events), Ok(()));
}

#[test]
fn the_rate_check_reports_a_move_beyond_the_rate_for_what_the_unit_did() {
    let (before, _, after, events) = a_bound_with_a_close_combat();
    assert_eq!(within_rates(&before, &after, &events), Ok(()));
    // An attacker that fought this bound has half a bound at most for moving (engaging takes
    // the other half): 7" for infantry is too far, whatever way it went.
    let (a, _) = first_fight(&after, &events);
    let mut far = after.clone();
    let ahead = volley_table::unit(before.units[a].facing);
    far.units[a].at = before.units[a].at + ahead * (rates(before.units[a].kind).0 / 2.0 + 1.0);
    far.units[a].facing = before.units[a].facing;
    let why = within_rates(&before, &far, &events).unwrap_err();
    assert!(why.contains("engaging"), "{why}");
    // A battery standing unlimbered moves not at all.
    let g = before.units.iter().position(|u| guns(u.kind) && !u.limbered && u.present() && u.state == State::Steady);
    let g = g.expect("an unlimbered battery in the bound");
    let mut moved = after.clone();
    moved.units[g].at.x += 1.0;
    let why = within_rates(&before, &moved, &events).unwrap_err();
    assert!(why.contains("unlimbered"), "{why}");
}

#[test]
fn the_told_check_reports_a_move_the_account_does_not_tell() {
    let (before, _, after, events) = a_bound_with_a_close_combat();
    assert_eq!(told(&before, &after, &events), Ok(()));
    // A unit that did not move in the bound put elsewhere.
    let still = (0..after.units.len())
        .find(|&i| {
            after.units[i].present()
                && before.units[i].at == after.units[i].at
                && before.units[i].facing == after.units[i].facing
                && !events.iter().any(|e| matches!(e, Event::Moved { unit, .. } if unit == after.name(i)))
        })
        .unwrap();
    let mut moved = after.clone();
    moved.units[still].at.y += 1.0;
    let why = told(&before, &moved, &events).unwrap_err();
    assert!(why.contains("does not tell"), "{why}");
    // A move told ending 30° off the way it began, with no turn told.
    let mut doctored = events.clone();
    let cut = doctored.iter_mut().find_map(|e| match e {
        Event::Moved { path, .. } if path.distance > 0.0 => {
            path.facing = (path.facing + 30.0) % 360.0;
            Some(())
        }
        _ => None,
    });
    assert!(cut.is_some(), "a move told in the bound");
    let why = told(&before, &after, &doctored).unwrap_err();
    assert!(why.contains("no turn told"), "{why}");
}

#[test]
fn the_contact_check_reports_enemies_left_within_two_and_a_half_inches_three_bounds_unexplained() {
    // Two battalions 2" apart, body to body; three bound-ends pass with nothing fought and
    // nothing said.
    let mut b = scenario("mittelhof.toml");
    let enemy = b.units.iter().position(|u| u.side == 1 && u.kind == Kind::LineInfantry).unwrap();
    b.units[0].at = Point::new(40.0, 40.0);
    b.units[0].facing = 0.0;
    b.units[enemy].at = Point::new(40.0, 42.5);
    b.units[enemy].facing = 180.0;
    let bound_events = [Event::BoundBegins { bound: 1 }];
    let mut contacts = Contacts::default();
    let mut before = b.clone();
    for n in 2..=4 {
        let mut after = before.clone();
        after.bound = n;
        let r = contacts.check(&before, &after, &bound_events);
        assert_eq!(r.is_ok(), n < 4, "bound-end {}: {r:?}", n - 1);
        before = after;
    }
    // Told why, and truly, it passes.
    b.units[0].order = Order::Hold { at: Point::new(40.0, 40.0) };
    b.units[enemy].order = Order::Hold { at: Point::new(40.0, 42.5) };
    let why = [NoAttack::NotOrdered, NoAttack::NotOrdered];
    let told = [
        Event::BoundBegins { bound: 1 },
        Event::Contact { units: [b.name(0).to_string(), b.name(enemy).to_string()], why, gap: 2.0 },
    ];
    let mut contacts = Contacts::default();
    let mut before = b.clone();
    for n in 2..=4 {
        let mut after = before.clone();
        after.bound = n;
        assert_eq!(contacts.check(&before, &after, &told), Ok(()));
        before = after;
    }
    // A reason that is not so: the first is under orders to attack.
    let mut attacking = before.clone();
    attacking.units[0].order = Order::Attack { at: Point::new(40.0, 42.5) };
    let why = Contacts::default().check(&before, &attacking, &told).unwrap_err();
    assert!(why.contains("which is not so"), "{why}");
}

#[test]
fn a_step_that_keeps_every_rule_passes_every_check() {
    let (before, action, after, events) = a_bound_with_a_close_combat();
    assert_eq!(invariants(&before, &action, &after, &events), Ok(()));
    // A change of formation is half a bound: a column formed from line with a full march
    // besides is too far.
    let (a, _) = first_fight(&after, &events);
    let mut reformed = after.clone();
    let k = (0..after.units.len())
        .find(|&k| {
            k != a
                && after.units[k].present()
                && before.units[k].state == State::Steady
                && !guns(before.units[k].kind)
                && after.units[k].side == after.units[a].side
        })
        .unwrap();
    reformed.units[k].formation =
        if before.units[k].formation == Formation::Line { Formation::Column } else { Formation::Line };
    reformed.units[k].facing = before.units[k].facing;
    reformed.units[k].at = before.units[k].at + volley_table::unit(before.units[k].facing) * 8.0;
    let why = within_rates(&before, &reformed, &events).unwrap_err();
    assert!(why.contains("changing formation"), "{why}");
}

// Every text a person reads — the account's lines, the phase, the pieces' labels and status,
// the markers, the notes, the candidates' descriptions — in words: no name from the program
// (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
// (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
// bundled scenario.

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word: the generals' rank "GdC" (General der Cavallerie).
const NAMES: &[&str] = &["GdC"];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 3), ("random", 72, 2)] {
            let words = Words { no_coordinates: true, distinct_choices: true };
            let read = check_words_with(|| b.clone(), agents([kind, kind]), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}

/// Every event's text of `games` battles of scenario `s` with `kind` players.
fn accounts(s: &str, kind: &'static str, master: u64, games: u64) -> Vec<String> {
    use volley_core::{Actor, GameState};
    let mut lines = Vec::new();
    for g in 0..games {
        let seed = Seeded::derive(master, g);
        let mut rng = Seeded::new(seed);
        let mut players = agents([kind, kind])(seed);
        let mut b = scenario(s);
        let (mut cands, mut events) = (Vec::new(), Vec::new());
        while b.outcome().is_none() {
            let Actor::Side(side) = b.actor() else { break };
            cands.clear();
            b.candidate_actions(&mut cands);
            let i = players[usize::from(side)].choose(&b, &cands);
            events.clear();
            b.apply(&cands[i], &mut rng, &mut events).unwrap();
            lines.extend(events.iter().map(ToString::to_string));
        }
    }
    lines
}

/// `text` without what stands in brackets (the reasons), nested or not.
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

/// The signed whole numbers of `terms` ("9+2 +2 -4"), or why it holds something else.
fn numbers(terms: &str) -> Result<Vec<i32>, String> {
    let mut out = Vec::new();
    let mut chars = terms.chars().peekable();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() {
            chars.next();
            continue;
        }
        let mut n = String::new();
        if c == '+' || c == '-' {
            n.push(c);
            chars.next();
        }
        while let Some(&d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            n.push(d);
            chars.next();
        }
        out.push(n.parse::<i32>().map_err(|_| format!("{terms:?} holds more than numbers"))?);
    }
    Ok(out)
}

/// Each sum in `line` that starts after `key`: the terms up to " = " (their reasons in brackets
/// left out) and the total printed after it. Fails if the terms do not add up to the total.
fn check_sums(line: &str, key: &str) -> Result<usize, String> {
    let mut checked = 0;
    for (at, _) in line.match_indices(key) {
        let rest = &line[at + key.len()..];
        let Some(eq) = rest.find(" = ") else { continue };
        let terms = numbers(&without_brackets(&rest[..eq]))?;
        let total: String =
            rest[eq + 3..].chars().take_while(|c| c.is_ascii_digit() || *c == '-' || *c == '+').collect();
        let total: i32 = total.parse().map_err(|_| format!("no total after {key:?} in {line}"))?;
        if terms.iter().sum::<i32>() != total {
            return Err(format!("{terms:?} do not add up to {total} after {key:?} in {line}"));
        }
        checked += 1;
    }
    Ok(checked)
}

#[test]
fn every_sum_in_the_account_adds_up_to_the_total_it_prints() {
    let mut tests = 0;
    let mut others = 0;
    for s in SCENARIOS {
        for (kind, master) in [("heuristic", 73), ("random", 74)] {
            for line in accounts(s, kind, master, 3) {
                // The casualty tests: each die and each addition, then the score.
                tests += check_sums(&line, "casualty test against it: ").unwrap();
                // The close combats' d10s with their additions, the pursuit tests', the
                // bombardments' and the guns' scores.
                for key in ["attacker: d10 ", "defender: d10 ", "pursuit test: d10 ", "\"): ", "at close range: "] {
                    others += check_sums(&line, key).unwrap();
                }
                // Each score is its total less the enemy's: "score +4 (7 against 3)".
                for (at, _) in line.match_indices("score ") {
                    let rest = &line[at + 6..];
                    let nums =
                        numbers(&rest[..rest.find(')').unwrap()].replace(['(', ','], " ").replace("against", " "))
                            .unwrap();
                    assert_eq!(nums.len(), 3, "{line}");
                    assert_eq!(nums[0], nums[1] - nums[2], "{line}");
                }
            }
        }
    }
    assert!(tests > 50 && others > 100, "{tests} casualty tests and {others} other sums read");
}

#[test]
fn a_casualty_tests_sum_is_read_term_by_term() {
    let line = "x; casualty test against it: 5+9 (2 d10 for IR 3's 12 figures firing) +0 (quality E, enemy \
                withdrawing) +5 (1 d10 for B's 6 figures firing) +1 (quality D, enemy withdrawing) -2 (1 green \
                counter on the firer, -2 each) = 18: 2 casualties (15 to 24)";
    assert_eq!(check_sums(line, "casualty test against it: "), Ok(1));
    let wrong = line.replace("= 18", "= 19");
    assert!(check_sums(&wrong, "casualty test against it: ").is_err());
    let hidden = "casualty test against it: 3+3 = 0: no casualties (under 5)";
    assert!(check_sums(hidden, "casualty test against it: ").is_err(), "an addition left out");
}

#[test]
fn the_passing_check_reports_a_way_through_an_enemy_that_stood_still() {
    let (before, _, after, events) = a_bound_with_a_close_combat();
    assert_eq!(no_passing_through(&before, &after, &events), Ok(()));
    // A march told as going straight through an enemy that did not move: from 6" short of it to
    // 6" beyond.
    let mut doctored = events.clone();
    let done = doctored.iter_mut().find_map(|e| {
        let Event::Moved { unit, path, .. } = e else { return None };
        let side = after.units[index(&after, unit).ok()?].side;
        let e = (0..after.units.len()).find(|&j| {
            let (e0, e1) = (&before.units[j], &after.units[j]);
            e1.present() && e1.side != side && e0.at == e1.at && e0.facing == e1.facing && e0.figures == e1.figures
        })?;
        let at = after.units[e].at;
        path.from = at + volley_table::unit(path.moving) * -6.0;
        path.to = at + volley_table::unit(path.moving) * 6.0;
        Some(())
    });
    assert!(done.is_some());
    let why = no_passing_through(&before, &after, &doctored).unwrap_err();
    assert!(why.contains("passed through"), "{why}");
}
