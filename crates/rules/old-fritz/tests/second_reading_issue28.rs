//! The second reading of issue 28 (docs/second-reading/old-fritz-issue28.md, cases OF2-01 …
//! OF2-24): a reader who had not seen the engine worked each case from the text alone; each test
//! sets the case up (side "A" are the reader's Prussians, rear south; side "B" the Austrians,
//! rear north; the reader's origin is put at (40, 40) on a 96" table unless the case says) and
//! asserts what the reader says must happen, or — where the engine's reading stands against the
//! reader's — what the engine does, with the register's interpretation named.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;
use common::*;

use volley_old_fritz::model::{Fate, Formation, Order, State};
use volley_old_fritz::{Battle, Event};
use volley_table::Point;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() < tol
}

/// A lone unit of side A at (40, 40) facing north, given a wing order and one bound with no
/// dice; returns the battle after it and the distance its centre moved.
fn lone(unit: &str, order_: Order, extra: &str) -> (Battle, f64) {
    let mut b = battle(extra, &[unit], &[FAR]);
    b.wings[0].order = order_;
    b.wings[0].seq = 1;
    let from = b.units[0].at;
    bound(&mut b, &[]);
    let d = b.units[0].at.dist(from);
    (b, d)
}

/// The point `d` inches from (40, 40) on bearing `deg`.
fn off(deg: f64, d: f64) -> Point {
    Point::new(40.0, 40.0) + volley_table::unit(deg) * d
}

fn combats(ev: &[Event]) -> Vec<(Vec<String>, String)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::CloseCombat { attackers, defender, .. } => Some((attackers.clone(), defender.clone())),
            _ => None,
        })
        .collect()
}

// ----- A. Limits to movement within one bound -----

#[test]
fn of2_01_what_is_left_after_each_section_4_item_by_unit_type() {
    // One half-bound item (a 30° wheel) leaves half the rate: Grenz 7", heavy guns 5" (their
    // own rate, not the infantry's), cavalry at the walk 9".
    for (kind, fields, left) in [
        ("grenz", "", 7.0),
        ("heavy_guns", ", limbered = true", 5.0),
        ("medium_guns", ", limbered = true", 6.0),
        ("line_infantry", "", 6.0),
        ("cuirassiers", "", 9.0),
        ("hussars", "", 9.0),
    ] {
        let u = format!(r#"{{ name = "u", kind = "{kind}", at = [40, 40]{fields} }}"#);
        let (b, d) = lone(&u, hold_at(off(30.0, 60.0)), "");
        assert!(close(d, left), "{kind} after a 30° wheel: {d}");
        assert!(close(b.units[0].facing, 30.0));
    }
    // Two half-bound items fill the bound: a 30° wheel and forming column for a long march.
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 40] }"#;
    let (b, d) = lone(u, Order::MoveTo { at: off(30.0, 40.0) }, "");
    assert_eq!(b.units[0].formation, Formation::Column);
    assert!(close(b.units[0].facing, 30.0) && close(d, 0.0), "wheel + column: {d}");
    // A one-bound item (a 90° wheel) leaves nothing.
    let (b, d) = lone(u, hold_at(off(90.0, 30.0)), "");
    assert!(close(b.units[0].facing, 90.0) && close(d, 0.0), "{d}");
}

fn hold_at(p: Point) -> Order {
    Order::Hold { at: p }
}

#[test]
fn of2_02_a_wheel_of_45_degrees_costs_half_a_bound_and_is_made_about_the_centre() {
    // (c) and, by interpretation 5 of section 4, (a): the engine wheels or pivots every unit about
    // its centre (the text prices "wheel or pivot" alike; pivoting keeps the unit's place). The
    // reader's (a) wheels on the right front corner and ends at (4.499, 5.360); the engine ends
    // where the reader's pivot (c) does, (4.243, 4.243): the same time, another pivot point.
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 40] }"#;
    let (b, d) = lone(u, hold_at(off(45.0, 30.0)), "");
    assert!(close(b.units[0].facing, 45.0));
    assert!(close(d, 6.0), "45.0° is half a bound: {d}");
    let want = off(45.0, 6.0);
    assert!(b.units[0].at.dist(want) < 1e-6, "{:?}", b.units[0].at);
    // Not the outer flank's arc charged against the move (R4): 6", not 3.68".
    // (b) 45.01°: over 45°, the whole bound; it ends wheeled, 0" advanced.
    let (b, d) = lone(u, hold_at(off(45.01, 30.0)), "");
    assert!(close(b.units[0].facing, 45.01) && close(d, 0.0), "45.01°: {d}");
    // R3 says any wheel however small is a wheel; the engine's tolerance is 1° (interpretation 1
    // of section 4: under 1° is no turn on a table-top). 2° is a wheel (half a bound).
    let (_, d) = lone(u, hold_at(off(2.0, 30.0)), "");
    assert!(close(d, 6.0), "2°: {d}");
}

#[test]
fn of2_03_each_turn_is_paid_on_its_own_a_wheel_out_and_back_is_two() {
    // (b) pivot 20° then advance 6": (2.052, 5.638) from the start, facing 20.
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 40] }"#;
    let (b, d) = lone(u, hold_at(off(20.0, 30.0)), "");
    assert!(close(d, 6.0) && close(b.units[0].facing, 20.0), "{d}");
    assert!(b.units[0].at.dist(Point::new(42.052, 45.638)) < 1e-3, "{:?}", b.units[0].at);
    // (c) R2: a wheel out and a wheel back are two wheels (half a bound each), not one of their
    // total (40°, half a bound) nor of their net (0°, free). A battalion holding a place 2.5" off
    // to its right wheels 20° (half), steps 2.5" there, and would wheel back 20° to face the
    // enemy ahead of it: that second wheel needs another half bound, which it has not got — it
    // stays facing 20°. Charged by the total turn, it would have faced the enemy again. (Under
    // 2" off, `HOLD_NEAR`, it would hold where it stands: player round 5.)
    let e = r#"{ name = "e", kind = "line_infantry", at = [40, 60], facing = 180 }"#;
    let mut b = battle("", &[u], &[e, FAR]);
    b.wings[0].order = hold_at(off(20.0, 2.5));
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[]);
    assert!(b.units[0].at.dist(off(20.0, 2.5)) < 1e-6, "{:?}", b.units[0].at);
    assert!(close(b.units[0].facing, 20.0), "wheeled back within the same bound: {ev:?}");
    // The order of a move and a pivot within one bound (the reader's (a), advance then pivot) is
    // not the engine's to offer: the automation turns first, then goes (section 4,
    // interpretation 4); both orders cost the same bound.
}

#[test]
fn of2_04_trotting_cavalry_and_a_target_not_straight_ahead() {
    // (a) K trots 18" straight for B (20.5" apart) and engages with the half bound left: dice
    // this bound. K 10, B 1: K +2 (C) hmm both C: K −2 against infantry, −1 outnumbered: 10−3 =
    // 7 against 1: +6 (pursuit test, d10 10: kept); B −6: withdraws half a bound.
    let k = r#"{ name = "K", kind = "cuirassiers", at = [40, 40] }"#;
    let bb = r#"{ name = "B", kind = "line_infantry", at = [40, 61.25], facing = 180 }"#;
    let mut b = battle("", &[k], &[bb, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 61.25) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[10, 1, 10]);
    assert_eq!(combats(&ev).len(), 1, "{ev:?}");
    assert!(near(b.units[0].at.y, 58.0, 1e-3), "18\" at the trot: {:?}", b.units[0].at);
    // With B 0.01" farther, K needs more than half its trot: it stops at 2½" and fights next bound.
    let bb = r#"{ name = "B", kind = "line_infantry", at = [40, 61.26], facing = 180 }"#;
    let mut b = battle("", &[k], &[bb, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 61.26) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[]);
    assert!(combats(&ev).is_empty() && b.units[0].engage == Some(1), "{ev:?}");
    // (b) and (c): B off to one side. The engine's attack turns to face its enemy's centre
    // (5.4° or 8°), so K walks this bound (R5: a unit that turns walks), half a bound after the
    // wheel: 9". No combat this bound either way. The reader's (c), a straight trot ending
    // exactly 2.50" from a B overlapping K's front, is a player's choice the automation does not
    // make: it attacks face to face (interpretation 5a of the register's attack column: an
    // attacker turns to face its enemy). Kept.
    for x in [43.0, 42.0] {
        let bb = format!(r#"{{ name = "B", kind = "line_infantry", at = [{x}, 61.25], facing = 180 }}"#);
        let mut b = battle("", &[k], &[&bb, FAR, FAR2, FAR3]);
        b.wings[0].order = Order::Attack { at: Point::new(x, 61.25) };
        b.wings[0].seq = 1;
        let ev = bound(&mut b, &[]);
        assert!(combats(&ev).is_empty(), "{ev:?}");
        assert!(b.units[0].facing > 1.0, "it turned to face B");
        assert!(near(b.units[0].at.dist(Point::new(40.0, 40.0)), 9.0, 1e-6), "walked: {:?}", b.units[0].at);
    }
}

#[test]
fn of2_05_a_trotting_bound_holds_an_obstacle_but_no_turn() {
    // Hussars trot straight over a hedge: half a bound for the hedge, 22.5".
    let h = r#"{ name = "H", kind = "hussars", at = [40, 40] }"#;
    let hedge = "[[terrain]]\nkind = \"hedge\"\nline = [[0, 50], [96, 50]]\n";
    let (b, d) = lone(h, hold_at(Point::new(40.0, 90.0)), hedge);
    assert!(close(d, 22.5) && close(b.units[0].facing, 0.0), "{d}");
    // A 5° wheel: the hussars walk, 9" after it; with the hedge as well, nothing is left to cross
    // it with: they stay south of it.
    let (b, d) = lone(h, hold_at(off(5.0, 50.0)), "");
    assert!(close(d, 9.0), "{d}");
    assert!(close(b.units[0].facing, 5.0));
    let hedge_near = "[[terrain]]\nkind = \"hedge\"\nline = [[0, 42], [96, 42]]\n";
    let (b, _) = lone(h, hold_at(off(5.0, 50.0)), hedge_near);
    assert!(b.units[0].at.y + 0.5 < 42.0 + 1e-6, "crossed the hedge with no time left: {:?}", b.units[0].at);
    // Cavalry beaten by cavalry withdraw at half their trot, straight back, not turning.
    let mut b = battle("", &[h, AFAR], &[FAR]);
    b.units[0].state = State::Withdrawing;
    bound(&mut b, &[]);
    assert!(close(b.units[0].at.y, 40.0 - 22.5) && close(b.units[0].facing, 0.0), "{:?}", b.units[0]);
}

#[test]
fn of2_06_fighting_over_a_hedge_without_crossing_then_crossing_and_closing() {
    // A and B 2.5" apart with a hedge between: A fights where it stands, no crossing paid.
    let hedge = "[[terrain]]\nkind = \"hedge\"\nline = [[0, 41], [96, 41]]\n";
    let a = r#"{ name = "A", kind = "line_infantry", at = [40, 40] }"#;
    let bb = r#"{ name = "B", kind = "line_infantry", at = [40, 43], facing = 180 }"#;
    let mut b = battle(hedge, &[a], &[bb, FAR]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    // 5 against 5: zero, a firefight; a casualty test each (2 d10 each).
    let ev = bound(&mut b, &[5, 5, 1, 1, 1, 1]);
    assert_eq!(combats(&ev).len(), 1, "{ev:?}");
    assert_eq!(b.units[0].at, Point::new(40.0, 40.0));
    // B at 6.0: A crosses (half) and closes 3" (a quarter): a quarter left, less than the half
    // engaging needs: A stands at (0, 3.0) and the dice come next bound.
    let bb = r#"{ name = "B", kind = "line_infantry", at = [40, 46], facing = 180 }"#;
    let mut b = battle(hedge, &[a], &[bb, FAR]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 46.0) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[]);
    assert!(combats(&ev).is_empty(), "{ev:?}");
    assert!(near(b.units[0].at.y, 43.0, 1e-3), "{:?}", b.units[0].at);
    assert_eq!(b.units[0].engage, Some(1));
}

#[test]
fn of2_07_limbering_moving_and_pivoting_guns() {
    // Unlimbered, ordered to a point 12" off on a bearing of 30°. Medium: bound 1 limbers (no
    // move); bound 2 wheels 30° (half) and goes 6"; bound 3 the last 6". Heavy: bounds 1–2
    // limber; bound 3 wheels and goes 5"; bound 4 the last 7".
    for (kind, limber, legs) in [("medium_guns", 1, [6.0, 12.0]), ("heavy_guns", 2, [5.0, 12.0])] {
        let g = format!(r#"{{ name = "g", kind = "{kind}", at = [40, 40] }}"#);
        let mut b = battle("", &[&g], &[FAR]);
        b.wings[0].order = Order::MoveTo { at: off(30.0, 12.0) };
        b.wings[0].seq = 1;
        for n in 1..=limber {
            bound(&mut b, &[]);
            assert_eq!(b.units[0].at, Point::new(40.0, 40.0), "{kind}: limbering, bound {n}");
            assert!(close(b.units[0].facing, 0.0));
        }
        assert!(b.units[0].limbered, "{kind}");
        for leg in legs {
            bound(&mut b, &[]);
            let gone = b.units[0].at.dist(Point::new(40.0, 40.0));
            assert!(near(gone, leg, 1e-6), "{kind}: {gone} for {leg}");
            assert!(close(b.units[0].facing, 30.0));
        }
    }
}

// ----- B. Turning near other units -----

#[test]
fn of2_08_a_wheel_whose_swing_would_meet_an_enemy_is_made_about_the_centre_where_it_is_clear() {
    // A faces north; E stands off its left end facing east, 1.10" from A's front.
    //
    //  4 |  |E|
    //  3 |  |E|>        E's front edge is x = -1.2
    //  2 |  |E|
    // 1.35 +-+
    //  0 |   [=====A=====]
    //
    // The reader's wheel on the right flank would swing A's left corner through E at about
    // 21.9°. The engine turns about the centre (section 4, interpretation 5), the reader's
    // remedy (i): the corners sweep a circle of 1.497", and E's nearest corner is 1.806" from
    // A's centre: the pivot is made and A goes 6" on 45°. No close combat: none was declared.
    let a = r#"{ name = "A", kind = "line_infantry", at = [40, 40] }"#;
    let e = r#"{ name = "E", kind = "line_infantry", at = [38.55, 42.826], facing = 90 }"#;
    let mut b = battle("", &[a], &[e, FAR]);
    b.wings[0].order = Order::MoveTo { at: off(45.0, 6.0) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[]);
    assert!(close(b.units[0].facing, 45.0), "{ev:?}");
    assert!(b.units[0].at.dist(off(45.0, 6.0)) < 1e-6, "{:?}", b.units[0].at);
    assert!(combats(&ev).is_empty());
    // Moved 3" nearer E's corner, a pivot about the centre would meet it: then it is not made.
    let e = r#"{ name = "E", kind = "line_infantry", at = [38.55, 41.9], facing = 90 }"#;
    let mut b = battle("", &[a], &[e, FAR]);
    b.wings[0].order = Order::MoveTo { at: off(45.0, 6.0) };
    b.wings[0].seq = 1;
    bound(&mut b, &[]);
    assert!(close(b.units[0].facing, 0.0) && b.units[0].no_room, "{:?}", b.units[0]);
}

#[test]
fn of2_09_an_about_turn_sweeps_nothing() {
    // (a) A column between two others 0.5" off each side, about-turning: the men face about where
    // they stand; the block does not swing round. Modelled as a rotation about the centre its
    // corners (1.066" out) would sweep through the neighbours' inner edges (0.869").
    //
    //   [C2]  [C1]  [C3]     gaps 0.5"
    //
    // Among friends the engine sweeps nothing (section 4, interpretation 5: turns are swept for
    // enemy bodies): C1 about-turns (half) and marches 6" south.
    let cols = [
        r#"{ name = "C1", kind = "line_infantry", formation = "column", at = [40, 40] }"#,
        r#"{ name = "C2", kind = "line_infantry", formation = "column", at = [38.762, 40] }"#,
        r#"{ name = "C3", kind = "line_infantry", formation = "column", at = [41.238, 40] }"#,
    ];
    let mut b = battle("", &cols, &[FAR]);
    b.wings[0].order = Order::MoveTo { at: Point::new(40.0, 20.0) };
    b.wings[0].seq = 1;
    bound(&mut b, &[]);
    assert!(close(b.units[0].facing, 180.0) && near(b.units[0].at.y, 34.0, 1e-6), "{:?}", b.units[0]);
    // With enemy columns beside it, the same about turn is made: an Austrian column running for
    // its own (north) edge, facing south, turns its back between two Prussian columns. Until
    // this reading the about turn was swept as a half circle about the centre, met the
    // neighbours, and the runner ran facing the wrong way ("no room to turn").
    let runner = r#"{ name = "C1", kind = "line_infantry", formation = "column", at = [40, 40], facing = 180 }"#;
    let sides = [
        r#"{ name = "C2", kind = "line_infantry", formation = "column", at = [38.762, 40] }"#,
        r#"{ name = "C3", kind = "line_infantry", formation = "column", at = [41.238, 40] }"#,
        AFAR,
    ];
    let mut b = battle("", &sides, &[runner, FAR, FAR2, FAR3]);
    b.units[3].state = State::Running;
    b.units[3].deserts = true;
    let ev = bound(&mut b, &[]);
    let ran_facing = ev.iter().find_map(|e| match e {
        Event::Ran { path: Some(p), .. } => Some(p.moving),
        _ => None,
    });
    assert_eq!(ran_facing, Some(0.0), "the runner could not face about: {ev:?}");
    assert!(near(b.units[3].at.y, 60.0, 1e-6), "{:?}", b.units[3].at);
    // (b) Pivoting 45° on its centre, C1's front corner would go to (0.968, 0.446), inside C3.
    // Against an enemy C3 it is refused; among friends too, as the reader has it: a unit may
    // sweep through a friend's ranks (as lines passed through lines) but not end on one
    // (section 4, interpretation 6, since the defensibility reading of issue 28; before, the
    // engine made the pivot and left the two overlapping).
    let c1 = r#"{ name = "C1", kind = "line_infantry", formation = "column", at = [40, 40] }"#;
    let c3 = r#"{ name = "C3", kind = "line_infantry", formation = "column", at = [41.238, 40], facing = 180 }"#;
    let mut b = battle("", &[c1], &[c3, FAR]);
    b.wings[0].order = Order::MoveTo { at: off(45.0, 40.0) };
    b.wings[0].seq = 1;
    bound(&mut b, &[]);
    assert!(close(b.units[0].facing, 0.0) && b.units[0].no_room, "{:?}", b.units[0]);
    let mut b = battle("", &cols, &[FAR]);
    b.wings[0].order = Order::MoveTo { at: off(45.0, 40.0) };
    b.wings[0].seq = 1;
    bound(&mut b, &[]);
    assert!(close(b.units[0].facing, 0.0) && b.units[0].no_room, "{:?}", b.units[0]);
}

#[test]
fn of2_10_a_change_of_formation_keeps_the_centre() {
    // A forms column for a long march with a friend F 1.0" behind it. The engine changes
    // formation about the unit's centre (section 4, interpretation 5): the column stands on
    // y -1.0 .. 1.0 (clear of F, 0.25" short of it), then marches 6" north: centre (0, 6.0). The
    // reader's R7 (the column's head on the line's front centre) would put it on y -1.75 .. 0.25,
    // into F, and refuse it. Kept: the text is silent on where a new formation stands.
    let a = r#"{ name = "A", kind = "line_infantry", at = [40, 40] }"#;
    let f = r#"{ name = "F", kind = "line_infantry", at = [40, 38.5] }"#;
    let mut b = battle("", &[a, f], &[FAR]);
    b.wings[0].order = Order::MoveTo { at: Point::new(40.0, 80.0) };
    b.wings[0].seq = 1;
    bound(&mut b, &[]);
    assert_eq!(b.units[0].formation, Formation::Column);
    assert!(near(b.units[0].at.y, 46.0, 1e-6) && close(b.units[0].at.x, 40.0), "{:?}", b.units[0].at);
    // An enemy where the column's tail would stand: the change is swept in both shapes, and not
    // made; the battalion stays in line.
    let e = r#"{ name = "E", kind = "line_infantry", at = [40, 38.9], facing = 0 }"#;
    let mut b = battle("", &[a], &[e, FAR]);
    b.wings[0].order = Order::MoveTo { at: Point::new(40.0, 80.0) };
    b.wings[0].seq = 1;
    b.units[0].order = Order::MoveTo { at: Point::new(40.0, 80.0) };
    bound(&mut b, &[]);
    assert_eq!(b.units[0].formation, Formation::Line, "{:?}", b.units[0]);
}

/// The close combat of a bound: its table and two sides, and its words.
fn fight(ev: &[Event]) -> (volley_old_fritz::combat::Table, [volley_old_fritz::combat::SideResult; 2], String) {
    let Some(e @ Event::CloseCombat { resolution, .. }) = ev.iter().find(|e| matches!(e, Event::CloseCombat { .. }))
    else {
        panic!("no close combat: {ev:?}")
    };
    (resolution.table, resolution.sides(), e.to_string())
}

#[test]
fn of2_11_infantry_and_cuirassiers_against_one_battalion_fight_as_groupings_of_one_arm() {
    // The reader's R8 pairs each attacker with the defender, with its own additions and table.
    // The engine's grouping is of one arm (section 5, interpretation 5): A (infantry, first to
    // arrive) fights D on the infantry table; K, which would read the cavalry-against-infantry
    // table, engages D next bound. Kept.
    //
    //  3 |      [=====D=====] v
    //  0 | [=====A=====] [====K====] ^ ^
    let a = r#"{ name = "A", kind = "line_infantry", at = [39, 40], facing = 18.4349488 }"#;
    let k = r#"{ name = "K", kind = "cuirassiers", at = [42, 39.75], facing = 327.7 }"#;
    let d = r#"{ name = "D", kind = "line_infantry", quality = "D", at = [40, 43], facing = 180 }"#;
    let mut b = battle("", &[a, k, AFAR], &[d, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    for i in 0..2 {
        b.units[i].facing = volley_table::heading_to(b.units[i].at, b.units[3].at);
    }
    let ev = bound(&mut b, &[6, 5, 3, 4, 5, 6]);
    assert_eq!(combats(&ev), vec![(vec!["A".to_string()], "D".to_string())], "{ev:?}");
    let (table, sides, words) = fight(&ev);
    assert_eq!(table, volley_old_fritz::combat::Table::InfantryVsInfantry, "{words}");
    assert_eq!(b.units[1].engage, Some(3), "K engages D next bound");
    assert_eq!(b.units[1].greens, 0, "K is not in this bound's combat");
    // A +2 for C over D; 12 against 12: 8 against 5 = +3 ("+1 to +3"); D withdraws.
    assert_eq!((sides[0].score, sides[1].score), (3, -3), "{words}");
    assert_eq!(b.units[3].state, State::Withdrawing);
}

#[test]
fn of2_12_hussars_and_dragoons_together_throw_one_die_with_their_leaders_additions() {
    // The reader's R8: each reads its own score with its own quality and arm modifier. The
    // engine's grouping (section 5, interpretations 2 and 5) throws one die with one set of
    // additions, its leader's (the first to arrive: Dr, C, dragoons −2 against infantry), with
    // the figures and frontages summed, and its result falls on every unit. Kept: the text's
    // "one die per … convenient grouping" gives the grouping one score.
    let dr = r#"{ name = "Dr", kind = "dragoons", at = [40, 39.75] }"#;
    let h = r#"{ name = "H", kind = "hussars", quality = "E", at = [45.4, 39.75] }"#;
    let i = r#"{ name = "I", kind = "line_infantry", quality = "D", at = [40, 43], facing = 180 }"#;
    let mut b = battle("", &[dr, h, AFAR], &[i, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    // H, whose wide line would have to wheel over 45° to face I (the engine's attack faces its
    // enemy), has no time to engage this bound; Dr fights alone with its own additions: 7 − 1
    // (outnumbered 8 to 12) + 2 (C over D) − 2 (dragoons) = 6 against 6: 0, "0 to +3" on both
    // sides: Dr halts with 2 greens and I fires on it (4 + 4 + 2 = 10: one casualty); I a green.
    // The reader's grouping of the two reads one die with one set of additions in the engine
    // too (section 5, interpretation 2: the leader's).
    let ev = bound(&mut b, &[7, 6, 4, 4]);
    let (_, sides, words) = fight(&ev);
    assert_eq!(combats(&ev)[0].0, vec!["Dr".to_string()], "{words}");
    assert_eq!((sides[0].score, sides[1].score), (0, 0), "{words}");
    assert_eq!((b.units[0].greens, b.units[0].figures, b.units[1].greens), (2, 7, 0), "{words}");
    assert_eq!((b.units[3].state, b.units[3].greens), (State::Steady, 1));
}

#[test]
fn of2_13_cuirassiers_against_a_battery_fire_first_then_cavalry_against_infantry() {
    // M fires first at close range (d6 3: 1 − 3 = −2: a casualty and a green on K), then the
    // combat is read as cavalry against infantry (the battery "as if infantry"), K taking its −2
    // against infantry. K: 1 of 8 lost −2, a green −3, C over D +2, −2: −5; M outnumbered 6 to 7:
    // −1. 7 − 5 = 2 against 4 − 1 = 3: K −1, withdraws with a casualty and three greens; M +1,
    // a green. (The battery's bombardment comes first in the bound: d6 6, nothing.)
    let k = r#"{ name = "K", kind = "cuirassiers", at = [40, 39.75] }"#;
    let m = r#"{ name = "M", kind = "medium_guns", quality = "D", at = [40, 43.5], facing = 180 }"#;
    let mut b = battle("", &[k, AFAR], &[m, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.5) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[6, 3, 7, 4]);
    let (table, sides, words) = fight(&ev);
    assert_eq!(table, volley_old_fritz::combat::Table::CavalryVsInfantry, "{words}");
    assert_eq!((sides[0].score, sides[1].score), (-1, 1), "{words}");
    assert_eq!((b.units[0].figures, b.units[0].greens, b.units[0].state), (6, 4, State::Withdrawing), "{words}");
    assert_eq!(b.units[2].greens, 1, "{words}");
}

#[test]
fn of2_14_one_regiment_fights_one_enemy_a_bound() {
    // The reader has Dr fight a battalion and a hussar regiment at once, reading each pairing and
    // suffering the worst row. In the engine a unit attacks one enemy (the nearest, counting its
    // wheel) and a defender fights one combat a bound (section 5, interpretation 2): one combat,
    // one table. Kept.
    let dr = r#"{ name = "Dr", kind = "dragoons", at = [40, 39.75] }"#;
    let i = r#"{ name = "I", kind = "line_infantry", quality = "D", at = [38, 43], facing = 180 }"#;
    let h = r#"{ name = "H", kind = "hussars", quality = "D", at = [44, 43.25], facing = 180 }"#;
    let mut b = battle("", &[dr, AFAR], &[i, h, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[8, 4, 6, 5]);
    assert_eq!(combats(&ev).len(), 1, "{ev:?}");
}

// ----- D. Pursuit and running away -----

/// K (C cuirassiers) beats I (D battalion) by +8 in bound 1 and fails its pursuit test; I runs.
fn of2_15_setup(extra_b: &[&str]) -> Battle {
    let k = r#"{ name = "K", kind = "cuirassiers", at = [40, 39.75] }"#;
    let i = r#"{ name = "I", kind = "line_infantry", quality = "D", at = [40, 43], facing = 180 }"#;
    let mut bs = vec![i, FAR, FAR2, FAR3];
    bs.extend_from_slice(extra_b);
    let mut b = battle("", &[k, AFAR], &bs);
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    b
}

#[test]
fn of2_15_a_cavalry_pursuer_ends_two_and_a_half_inches_behind_running_infantry() {
    let mut b = of2_15_setup(&[]);
    // K 10 + 2 − 2 − 1 = 9 against 1: +8; the pursuit test d10 3 − 2 = 1 < 2: K pursues. I runs,
    // pursued: three greens and two casualties.
    let ev = bound(&mut b, &[10, 1, 3]);
    assert_eq!(b.units[0].state, State::Pursuing { target: 2 }, "{ev:?}");
    assert_eq!((b.units[2].state, b.units[2].figures, b.units[2].greens), (State::Running, 10, 3));
    // Bound 2: I runs first, 20" north (no desertion: the cavalry table names none); K follows
    // and stops with 2½" between the bodies: front 20.25, centre (0, 19.75), 20" gone.
    bound(&mut b, &[]);
    assert!(near(b.units[2].at.y, 63.0, 1e-6), "{:?}", b.units[2].at);
    assert!(near(b.units[0].at.y, 59.75, 0.03), "{:?}", b.units[0].at);
    let gap = volley_table::convex_distance(&b.units[0].corners(), &b.units[2].corners());
    assert!((2.45..=2.53).contains(&gap), "{gap}");
}

#[test]
fn of2_16_a_runner_does_not_pass_through_a_steady_friend() {
    // S stands 9" north of I. The reader's I stops at S (R12); the engine's runner, cut short
    // straight back, veers 15°, 30° or 45° either way and takes the first clear way (section 7,
    // interpretation 9: a crowd running from the enemy goes round what is in its way). Kept.
    // Either way it passes through no one, and S is unaffected.
    let s = r#"{ name = "S", kind = "line_infantry", at = [40, 52], facing = 180 }"#;
    let mut b = of2_15_setup(&[s]);
    bound(&mut b, &[10, 1, 3]);
    let ev = bound(&mut b, &[]);
    assert!(!overlap(&b, 2, 6) && !overlap(&b, 0, 2) && !overlap(&b, 0, 6), "{ev:?}");
    assert_eq!((b.units[6].at, b.units[6].greens, b.units[6].state), (Point::new(40.0, 52.0), 0, State::Steady));
    assert!(b.units[2].at.y > 52.0, "I went round S: {:?}", b.units[2].at);
}

fn overlap(b: &Battle, i: usize, j: usize) -> bool {
    volley_table::convex_overlap(&b.units[i].corners(), &b.units[j].corners())
}

#[test]
fn of2_17_runners_leave_by_the_edge_withdrawers_stop_at_it() {
    // (a) I beaten by 9 two and a half inches from A, 7.75" short of its own (north) edge: it
    // runs off the table and is gone. A failed its pursuit test: it follows its enemy's way for
    // its bound, to the table's edge (the reader's reading; the engine's pursuer first stood
    // still, its enemy gone, which a defensibility reading found could not be defended: failing
    // the pursuit test would then be better than passing it. Section 7, interpretation 6.)
    let a = r#"{ name = "A", kind = "line_infantry", at = [10, 85] }"#;
    let i = r#"{ name = "I", kind = "line_infantry", at = [10, 88], facing = 180 }"#;
    let mut b = battle("", &[a, AFAR], &[i, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(10.0, 88.0) };
    b.wings[0].seq = 1;
    // 10 against 1: +9; A's pursuit test d10 1 − 2: it pursues; the pursued runner's test (2 d10).
    bound(&mut b, &[10, 1, 1, 1, 1]);
    assert_eq!(b.units[0].state, State::Pursuing { target: 2 });
    let was = b.units[0].at;
    let ev = bound(&mut b, &[]);
    assert_eq!(b.units[2].state, State::Gone(Fate::Fled), "{ev:?}");
    let a = &b.units[0];
    assert!(a.at.y > was.y + 1.0, "the pursuer follows north: {:?} from {was:?} {ev:?}", a.at);
    assert!(a.corners().iter().all(|c| c.y <= 96.0 + 1e-6), "on the table: {:?}", a.corners());
    // (b) A withdrawer 3.75" from the edge stops on the table, facing as it was.
    let i = r#"{ name = "I", kind = "line_infantry", at = [10, 92], facing = 180 }"#;
    let mut b = battle("", &[AFAR], &[i, FAR, FAR2, FAR3]);
    b.units[1].state = State::Withdrawing;
    bound(&mut b, &[]);
    assert_eq!(b.units[1].state, State::Steady);
    assert!(b.units[1].at.y > 92.0 && b.units[1].at.y <= 96.0 && close(b.units[1].facing, 180.0), "{:?}", b.units[1]);
    // (c) J attacked from behind by P, beaten by 9: the reader runs it directly away from P,
    // south, off the table; the engine's runner goes for its own (north) edge, veering round P
    // (section 7, interpretation 9: a rout runs for its own army's rear). Kept.
    let p = r#"{ name = "P", kind = "line_infantry", at = [30, 21], facing = 180 }"#;
    let j = r#"{ name = "J", kind = "line_infantry", at = [30, 18], facing = 180 }"#;
    let mut b = battle("", &[p, AFAR], &[j, FAR, FAR2, FAR3]);
    b.wings[0].order = Order::Attack { at: Point::new(30.0, 18.0) };
    b.wings[0].seq = 1;
    // P 4, J 1 − 6 (enemy to its rear): +9. P's pursuit test d10 10: kept.
    let ev = bound(&mut b, &[4, 1, 10]);
    assert_eq!(b.units[2].state, State::Running, "{ev:?}");
    // Every way north within 45° passes P: J is hemmed in, and stays where it is, running (the
    // reader's own "reading compared": it could not move at all).
    bound(&mut b, &[]);
    assert_eq!((b.units[2].state, b.units[2].at), (State::Running, Point::new(30.0, 18.0)), "{:?}", b.units[2]);
    assert!(!overlap(&b, 0, 2));
}

#[test]
fn of2_18_a_beaten_battery_limbers_first() {
    // Unlimbered and told to withdraw: the engine spends the following bound limbering (medium:
    // done) and the result is then over: it stands limbered and takes up its orders. The reader
    // withdraws it 6" a bound later (R14). Kept (section 4, "guns limber before they move", and
    // section 7, interpretation 12): the result is carried out "on the following bound", one
    // bound (R18's own rule), and that bound goes on limbering.
    let g = r#"{ name = "M", kind = "medium_guns", at = [40, 40] }"#;
    let mut b = battle("", &[g, AFAR], &[FAR]);
    b.units[0].state = State::Withdrawing;
    bound(&mut b, &[]);
    assert!(b.units[0].limbered && b.units[0].at == Point::new(40.0, 40.0), "{:?}", b.units[0]);
    // Limbered: it withdraws half its own rate — 6" medium, 5" heavy, not the infantry's.
    for (kind, back) in [("medium_guns", 6.0), ("heavy_guns", 5.0)] {
        let g = format!(r#"{{ name = "M", kind = "{kind}", at = [40, 40], limbered = true }}"#);
        let mut b = battle("", &[&g, AFAR], &[FAR]);
        b.units[0].state = State::Withdrawing;
        bound(&mut b, &[]);
        assert!(near(b.units[0].at.y, 40.0 - back, 1e-6), "{kind}: {:?}", b.units[0].at);
    }
    // Told to run unlimbered: it limbers first, its gunners deserting, and runs 20" the next
    // bound (section 7, interpretation 13; the reader's alternative (b)). The reader abandons the
    // guns and runs the gunners at once. Kept: the text has no abandoned guns.
    let friends = [
        r#"{ name = "a2", kind = "line_infantry", at = [80, 5] }"#,
        r#"{ name = "a3", kind = "line_infantry", at = [85, 5] }"#,
        r#"{ name = "a4", kind = "line_infantry", at = [90, 5] }"#,
    ];
    let mut b = battle("", &[g, friends[0], friends[1], friends[2]], &[FAR]);
    b.units[0].state = State::Running;
    b.units[0].deserts = true;
    bound(&mut b, &[]);
    assert_eq!((b.units[0].at, b.units[0].figures), (Point::new(40.0, 40.0), 5));
    bound(&mut b, &[]);
    assert!(near(b.units[0].at.y, 20.0, 1e-6), "{:?}", b.units[0].at);
}

#[test]
fn of2_19_withdrawing_cavalry_go_straight_back_through_a_friend() {
    // D withdraws at half its trot (18") straight back; S, a friend, stands 4.75" behind. The
    // text's "walk if a manoeuvre is necessary" is not implemented (the register's list), and
    // the reader's R12 (a withdrawer stops at a friend) is not the engine's: enemies are bodies
    // to every move, but friends pass through each other's ranks (section 4, interpretation 6:
    // units keep clear of friends only where they end, as lines passed through lines). D ends
    // 18" back, beyond S, clear of it. Kept.
    let d = r#"{ name = "D", kind = "dragoons", at = [40, 43.5], facing = 180 }"#;
    let s = r#"{ name = "S", kind = "line_infantry", at = [40, 49], facing = 180 }"#;
    let mut b = battle("", &[AFAR], &[d, s, FAR]);
    b.units[1].state = State::Withdrawing;
    bound(&mut b, &[]);
    assert!(near(b.units[1].at.y, 61.5, 1e-6), "{:?}", b.units[1].at);
    assert!(!overlap(&b, 1, 2) && close(b.units[1].facing, 180.0));
    assert_eq!((b.units[2].at, b.units[2].state), (Point::new(40.0, 49.0), State::Steady));
}

// ----- E. The casualty test and the pursuit test -----

#[test]
fn of2_20_two_casualty_tests_dice_rounded_to_the_nearest_cover_and_the_firers_old_greens() {
    use volley_old_fritz::combat::{TargetState, casualties_for, casualty_dice};
    // 15 figures: 2.5 dice, rounded half up: 3; 10: 2; 9: 2; 8: 1.
    assert_eq!([15, 10, 9, 8].map(casualty_dice), [3, 2, 2, 1]);
    // A (C, now 10 figures, 1 green) against B (E, 15 figures, behind a wall): 7 against 6.
    let a = r#"{ name = "A", kind = "line_infantry", at = [40, 40] }"#;
    let bb = r#"{ name = "B", kind = "line_infantry", quality = "E", figures = 15, at = [40, 43], facing = 180 }"#;
    let wall = "[[terrain]]\nkind = \"wall\"\nline = [[0, 42.6], [96, 42.6]]\n";
    let mut b = battle(wall, &[a], &[bb, FAR, FAR2, FAR3]);
    b.units[0].figures = 10;
    b.units[0].greens = 1;
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    // A: −2 (2 of 12 lost) −3 (a green) +4 (C two over E) −1 (outnumbered) = −2: 5 against 6:
    // −1, withdraws; B fires 3 dice 5 + 6 + 4 = 15, E/F withdrawing 0: 2 casualties. B +1:
    // halts; A fires 2 dice 6 + 2 = 8 + 2 (C standing) − 2 (its green before) − 2 (cover) = 6:
    // one casualty.
    let ev = bound(&mut b, &[7, 6, 5, 6, 4, 6, 2]);
    let (_, sides, words) = fight(&ev);
    assert_eq!((sides[0].score, sides[1].score), (-1, 1), "{words}");
    assert_eq!((b.units[0].figures, b.units[0].greens), (8, 2), "{words}");
    assert_eq!((b.units[1].figures, b.units[1].greens), (14, 1), "{words}");
    assert_eq!(casualties_for(15), 2);
    let _ = TargetState::Withdrawing;
}

#[test]
fn of2_21_each_winner_takes_its_own_pursuit_test() {
    // A1 (D) and A2 (B, rash) beat R (E, unreliable) by 9 or more: R runs. Each winner takes its
    // own pursuit test with its own quality and rashness: A1 d10 2 − 3 = −1, fails, pursues; A2
    // d10 5 − 1 − 3 = 1, kept under control. (The grouping's one score is its leader's: section
    // 5, interpretation 2; the reader's per-pairing scores, +9 and +13, read the same row.)
    let a1 = r#"{ name = "A1", kind = "line_infantry", quality = "D", at = [38.5, 40] }"#;
    let a2 = r#"{ name = "A2", kind = "line_infantry", quality = "B", rash = true, at = [41.5, 40] }"#;
    let r = r#"{ name = "R", kind = "line_infantry", quality = "E", unreliable = true, at = [40, 43], facing = 180 }"#;
    let mut b = battle("", &[a1, a2, AFAR], &[r, FAR, FAR2, FAR3]);
    b.units[3].greens = 1;
    b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
    b.wings[0].seq = 1;
    for i in 0..2 {
        b.units[i].facing = volley_table::heading_to(b.units[i].at, b.units[3].at);
    }
    // The pursued runner's casualty test: the reader's R15 has the pursuers alone fire (A1: 2
    // dice); the engine has the winning grouping fire it, each battalion its share (A1 and A2:
    // 4 dice; section 7, interpretation 1 and the grouping's shares). Not settled in this
    // reading: left as the engine has it.
    let ev = bound(&mut b, &[6, 5, 2, 5, 8, 9, 1, 1]);
    let (_, sides, words) = fight(&ev);
    assert!(sides[0].score >= 8, "{words}");
    assert_eq!(b.units[0].state, State::Pursuing { target: 3 }, "{ev:?}");
    assert!(b.units[1].hold_here && b.units[1].state == State::Steady, "{ev:?}");
    assert_eq!(b.units[3].state, State::Running);
}

#[test]
fn of2_22_cavalry_against_cavalry_never_asks_a_casualty_test() {
    use volley_old_fritz::combat::{Band, CAVALRY_VS_CAVALRY};
    assert!(CAVALRY_VS_CAVALRY.iter().all(|r| !r.casualty_test));
    // +4: 2 greens, no casualty (following up a withdrawing enemy costs one more: the battle);
    // +1 to +3 and zero a green; −1 to −7 two greens; −8 to −15 four.
    let g: Vec<(u8, u8)> = CAVALRY_VS_CAVALRY.iter().map(|r| (r.greens, r.casualties)).collect();
    assert_eq!(g, vec![(2, 0), (1, 0), (1, 0), (2, 0), (4, 0), (0, 0)]);
    assert_eq!(Band::of(-6, false), Band::Minus1To7);
}

#[test]
fn of2_23_cavalry_against_infantry_who_is_tested_in_every_band() {
    use volley_old_fritz::combat::{CAVALRY_VS_INFANTRY_CAVALRY as CAV, CAVALRY_VS_INFANTRY_INFANTRY as INF};
    // The infantry never take a casualty test in this table; the cavalry's −1 to −7 loss is a
    // fixed casualty (and three greens), not a test; halted and running cavalry are tested.
    assert!(INF.iter().all(|r| !r.casualty_test));
    assert_eq!((CAV[3].casualties, CAV[3].greens, CAV[3].casualty_test), (1, 3, false));
    assert!(CAV[1].casualty_test && CAV[4].casualty_test && !CAV[0].casualty_test);
    // The infantry at "0 to +3" take a green, at "+4" none.
    assert_eq!((INF[1].greens, INF[0].greens), (1, 0));
    // Halted cavalry are fired on in the Standing column, running cavalry in the Routing one.
    use volley_old_fritz::combat::{Reaction, TargetState};
    assert_eq!(Reaction::Halt.target_state(), TargetState::Standing);
    assert_eq!(Reaction::RunAway.target_state(), TargetState::Routing);
}

#[test]
fn of2_24_the_pursuer_of_a_dispersed_battalion_is_dispersed_only_if_it_pursues() {
    // K (B) against I (F, 2 greens): 9 + 8 − 2 − 1 = 14 against 2 − 6 = −4: +18, I dispersed.
    // K's pursuit test: B −1, needs 2: d10 3 keeps it (it stays, 2 greens); d10 2 sends it after
    // the fragments, and it is dispersed too.
    for (die, dispersed) in [(3, false), (2, true)] {
        let k = r#"{ name = "K", kind = "cuirassiers", quality = "B", at = [40, 39.75] }"#;
        let i = r#"{ name = "I", kind = "line_infantry", quality = "F", at = [40, 43], facing = 180 }"#;
        let mut b = battle("", &[k, AFAR], &[i, FAR, FAR2, FAR3]);
        b.units[2].greens = 2;
        b.wings[0].order = Order::Attack { at: Point::new(40.0, 43.0) };
        b.wings[0].seq = 1;
        let ev = bound(&mut b, &[9, 2, die]);
        assert_eq!(b.units[2].state, State::Gone(Fate::Dispersed), "{ev:?}");
        assert_eq!(b.units[0].state == State::Gone(Fate::Dispersed), dispersed, "d10 {die}: {ev:?}");
        if !dispersed {
            assert!(b.units[0].hold_here && b.units[0].greens == 2);
        }
    }
}
