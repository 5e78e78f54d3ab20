//! The second reading of issue 28 (docs/second-reading/old-fritz-issue28.md, cases OF2-01 …
//! OF2-24): a reader who had not seen the engine worked each case from the text alone; each test
//! sets the case up (side "A" are the reader's Prussians, rear south; side "B" the Austrians,
//! rear north; the reader's origin is put at (40, 40) on a 96" table unless the case says) and
//! asserts what the reader says must happen, or — where the engine's reading stands against the
//! reader's — what the engine does, with the register's interpretation named.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Scripted;
use volley_core::{Actor, ApplyError, GameState, Viewer};
use volley_old_fritz::model::{Fate, Formation, Order, State};
use volley_old_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::Point;

/// A battle on a 96" by 96" table: side "A" (rear south) with wing "a", side "B" (rear north)
/// with wing "b", both in reserve unless `extra` says otherwise (extra TOML: terrain, wings,
/// rules). Units are inline tables without their wing and quality (given as `wing = "a"`,
/// `quality = "C"` unless the unit says).
fn battle(extra: &str, a: &[&str], b: &[&str]) -> Battle {
    let unit = |u: &&str, wing: &str| {
        let mut s = u.trim_end_matches('}').to_string();
        if !s.contains("wing =") {
            s.push_str(&format!(", wing = \"{wing}\""));
        }
        if !s.contains("quality =") {
            s.push_str(", quality = \"C\"");
        }
        s.push_str(" }");
        s
    };
    let units = |us: &[&str], wing: &str| us.iter().map(|u| unit(u, wing)).collect::<Vec<_>>().join(",\n  ");
    let wings = if extra.contains("[[rules.wings]]") {
        String::new()
    } else {
        "[[rules.wings]]\nside = \"A\"\nname = \"a\"\ngeneral = \"Ga\"\n\n[[rules.wings]]\nside = \"B\"\nname = \"b\"\ngeneral = \"Gb\"\n"
            .to_string()
    };
    // Top-level keys in `extra` (before its first table) go before `[table]`.
    let split = extra.find("\n[").map_or(if extra.starts_with('[') { 0 } else { extra.len() }, |i| i + 1);
    let (top, extra) = if extra.starts_with('[') { ("", extra) } else { extra.split_at(split) };
    let text = format!(
        "name = \"test\"\nruleset = \"old-fritz\"\nturn_limit = 40\n{top}\n[table]\nwidth = 96\ndepth = 96\n\n{extra}\n{wings}\n\
[[sides]]\nname = \"A\"\nrear_edge = \"south\"\ncommander = {{ name = \"ca\", at = [1, 1] }}\nunits = [\n  {}\n]\n\n\
[[sides]]\nname = \"B\"\nrear_edge = \"north\"\ncommander = {{ name = \"cb\", at = [1, 95] }}\nunits = [\n  {}\n]\n",
        units(a, "a"),
        units(b, "b")
    );
    load(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

/// A far-off enemy that takes no part.
const FAR: &str = r#"{ name = "far", kind = "line_infantry", at = [90, 90] }"#;
/// A far-off friend for side A.
const AFAR: &str = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
/// Two more, so that one beaten unit does not break its army.
const FAR2: &str = r#"{ name = "far2", kind = "line_infantry", at = [80, 90] }"#;
const FAR3: &str = r#"{ name = "far3", kind = "line_infantry", at = [70, 90] }"#;

/// Both sides end their orders: one bound is carried out with exactly `dice`.
fn bound(b: &mut Battle, dice: &[u32]) -> Vec<Event> {
    let mut script = Scripted::new(dice.iter().copied());
    let mut events = Vec::new();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(script.remaining(), 0, "dice left over: {events:?}");
    events
}

fn order(b: &mut Battle, wing: u16, order: Order) -> Vec<Event> {
    let mut events = Vec::new();
    b.apply(&Action::Order { wing, order }, &mut Scripted::new([]), &mut events).unwrap();
    events
}

fn hold(x: f64, y: f64) -> Order {
    Order::Hold { at: Point::new(x, y) }
}

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
    // total (40°, half a bound) nor of their net (0°, free). A battalion holding a place 0.5" off
    // to its right wheels 20° (half), steps 0.5" there, and would wheel back 20° to face the
    // enemy ahead of it: that second wheel needs another half bound, which it has not got — it
    // stays facing 20°. Charged by the total turn, it would have faced the enemy again.
    let e = r#"{ name = "e", kind = "line_infantry", at = [40, 60], facing = 180 }"#;
    let mut b = battle("", &[u], &[e, FAR]);
    b.wings[0].order = hold_at(off(20.0, 0.5));
    b.wings[0].seq = 1;
    let ev = bound(&mut b, &[]);
    assert!(b.units[0].at.dist(off(20.0, 0.5)) < 1e-6, "{:?}", b.units[0].at);
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
    // Against an enemy C3 it is refused; among friends the engine does not sweep (friends may
    // pass through each other's ranks, as lines passed through lines: interpretation 6 of
    // section 4), so the reader's refusal holds for enemies only. Kept.
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
    assert!(close(b.units[0].facing, 45.0), "{:?}", b.units[0]);
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
