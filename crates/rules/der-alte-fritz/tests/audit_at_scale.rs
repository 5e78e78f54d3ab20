//! What the audit at scale (`audit/der_alte_fritz.py`, checks written from the text by an auditor
//! who had not seen the code, run over hundreds of computer-played battles) found where the
//! engine departed from the text, each on a small position with the dice given. Stands here are
//! the engine's: foot 1" square with 4 figures, horse 1.5" with 2.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;
use common::*;

use volley_core::GameState;
use volley_der_alte_fritz::game::Phase;
use volley_der_alte_fritz::model::{Formation, State};
use volley_der_alte_fritz::{Action, Event};
use volley_table::Point;

fn texts(ev: &[Event]) -> Vec<String> {
    ev.iter().map(ToString::to_string).collect()
}

/// "Change formation/facing at half effect, but may not do both on same turn": the reserve move
/// is in the same turn as the movement phase. A line that formed attack column in the movement
/// phase may not turn in its reserve move (the audit: 16 such turns in 400 battles), nor one
/// that turned form a column; a move with neither change is still allowed.
#[test]
fn a_change_of_formation_and_one_of_facing_are_not_both_made_in_one_turn_reserve_move_or_not() {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [20, 10] }"#;
    let mut b = moving(battle(p, FAR, ""), 0);
    apply(&mut b, &mv(0, [20.0, 12.0], 0.0, Formation::AttackColumn), &[]);
    while b.phase != (Phase::Leaders { side: 0 }) {
        apply(&mut b, &Action::Done, &[]);
    }
    assert!(b.units[0].reserve, "more than 30\" from every enemy: a reserve move");
    let turn = mv(0, [20.0, 12.0], 30.0, Formation::AttackColumn);
    let why = b.validate(&turn).expect_err("formed attack column this turn: no turn in the reserve move");
    assert!(why.to_string().contains("changed formation earlier this turn"), "{why}");
    // Ahead in its column, no change: allowed.
    assert!(b.validate(&mv(0, [20.0, 16.0], 0.0, Formation::AttackColumn)).is_ok());
    // The next turn it may turn again.
    let mut n = b.clone();
    n.turn = 2;
    assert!(n.validate(&turn).is_ok());

    // The other way round: turned in the movement phase, no change of formation in reserve.
    let mut b = moving(battle(p, FAR, ""), 0);
    apply(&mut b, &mv(0, [20.0, 10.0], 30.0, Formation::Line), &[]);
    while b.phase != (Phase::Leaders { side: 0 }) {
        apply(&mut b, &Action::Done, &[]);
    }
    let form = mv(0, [20.0, 10.0], 30.0, Formation::AttackColumn);
    let why = b.validate(&form).expect_err("turned this turn: no change of formation in the reserve move");
    assert!(why.to_string().contains("changed its facing earlier this turn"), "{why}");
}

/// The Morellen brook of Lobositz: 3" wide, impassable.
const BROOK: &str = r#"[[terrain]]
kind = "impassable"
name = "the brook"
polygon = [[47, 14], [50, 14], [50, 27], [47, 27]]"#;

/// No part of a body stands in impassable ground, not its corners alone: a 6" line may not end
/// astride a 3" brook with its four corners on dry ground either side (the audit: 247 times in
/// 400 battles, mostly 9" lines of cuirassiers, 0.05"–1.5" deep).
///
/// ```text
///        47   50
///   y 17 +-#####-+   the line's end here: refused
///        |  ###  |
///   y 14   #####     (the brook, 47-50 by 14-27)
///   y 10 +-------+   the line, 45.5-51.5, facing north
/// ```
#[test]
fn a_move_may_not_end_astride_impassable_ground_with_its_corners_outside_it() {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [48.5, 10] }"#;
    let b = moving(battle(p, FAR, BROOK), 0);
    assert_eq!(b.units[0].corners().map(|c| c.x.round()), [46.0, 52.0, 52.0, 46.0].map(|x: f64| x - 0.5 + 0.5));
    let why = b.validate(&mv(0, [48.5, 17.0], 0.0, Formation::Line)).expect_err("astride the brook");
    assert!(why.to_string().contains("impassable"), "{why}");
    // Short of it: allowed.
    assert!(b.validate(&mv(0, [48.5, 13.0], 0.0, Formation::Line)).is_ok());
    // Wheeling where it stands so that its middle swings over the brook's corner: refused too.
    let near = moving(battle(r#"{ name = "IR 1", type = "musketeers", at = [48.5, 13] }"#, FAR, BROOK), 0);
    let c = {
        let mut x = near.units[0].clone();
        x.facing = 45.0;
        x.corners()
    };
    assert!(c.iter().all(|p| !(47.0..=50.0).contains(&p.x) || !(14.0..=27.0).contains(&p.y)), "{c:?}");
    assert!(near.validate(&mv(0, [48.5, 13.0], 45.0, Formation::Line)).is_err());
}

/// A rout (and any forced move) stops short of impassable ground that lies between its ends'
/// paths: the line routing south over the brook stops north of it, not astride it.
#[test]
fn a_rout_stops_short_of_impassable_ground_between_its_corners_paths() {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [48.5, 32] }"#;
    let a = r#"{ name = "A1", type = "musketeers", at = [48.5, 40], facing = 180 }"#;
    let mut b = battle(p, a, BROOK);
    b.turn = 1;
    b.first = 0;
    b.phase = Phase::Firing { side: 1 };
    // Six dice, one hit; the test (chart A, 8) fails on both dice: a rout, 12" south.
    let ev = apply(&mut b, &Action::Fire { unit: 1, target: 0 }, &[1, 9, 9, 9, 9, 9, 9, 9]);
    assert_eq!(b.units[0].state, State::Routing, "{:#?}", texts(&ev));
    let rear = b.units[0].corners().iter().map(|c| c.y).fold(f64::INFINITY, f64::min);
    assert!(rear >= 27.0 - 1e-9, "the rout ends with its rear at y {rear:.2}, in the brook: {:#?}", texts(&ev));
    assert!(texts(&ev).iter().any(|t| t.contains("impassable ground")), "{:#?}", texts(&ev));
}

/// The post-melee tests are taken where the melee is fought: the charger's cover and flanks
/// where its charge took it, not where it set off (the audit: 34 post-melee tests counting cover
/// where the charger was not, 25 secure flanks with nothing within 3").
///
/// ```text
///   y 19.5  [ N N N N N N ]   the defender, facing south, in the open
///   y 18.5  [ M M M M M M ]   where M fights: in the open, alone
///              ^ 8.5"
///   y 11   +--------------------+  the town's edge (the second case: no town,
///   y 10   | [ M M M M M M ]    |  friends 1" off each of M's flanks instead)
///          +--------------------+
/// ```
#[test]
fn a_chargers_post_melee_test_counts_cover_and_flanks_where_it_fought() {
    let n = r#"{ name = "N", type = "musketeers", at = [23, 19.5], facing = 180 }"#;
    let town = r#"[[terrain]]
kind = "town"
name = "Kirchdorf"
rect = [12, 5, 34, 11]"#;
    // Out of the town: its test to charge has 3 dice (in cover), the post-melee test 2.
    let m = r#"{ name = "M", type = "musketeers", at = [23, 10] }"#;
    let mut b = moving(battle(m, n, town), 0);
    apply(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    apply(&mut b, &Action::Done, &[]);
    // Test to charge 1 1 1, to stand 1 1; no hits (6 dice each, all 10); post 1 1 and 1 1; the
    // next turn's initiative 7 3.
    let dice = [1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 7, 3];
    let ev = texts(&apply(&mut b, &Action::Done, &dice));
    let melee = ev.iter().find(|t| t.contains("after the melee")).unwrap_or_else(|| panic!("{ev:#?}"));
    assert!(melee.contains("Test to charge: chart A, pass on 8 or under, 3 dice (3 in cover"), "{melee}");
    assert!(melee.contains("after the melee M: chart A, pass on 8 or under, 2 dice (2 in the open): 1 1"), "{melee}");

    // Out from between two friends: 4 dice (secure flanks) to charge, 2 after the melee.
    let m = r#"{ name = "M", type = "musketeers", at = [23, 10] },
               { name = "L", type = "musketeers", at = [16, 10] },
               { name = "R", type = "musketeers", at = [30, 10] }"#;
    let mut b = moving(battle(m, n, ""), 0);
    apply(&mut b, &Action::Charge { unit: 0, target: 3 }, &[]);
    apply(&mut b, &Action::Done, &[]);
    let dice = [1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 7, 3];
    let ev = texts(&apply(&mut b, &Action::Done, &dice));
    let melee = ev.iter().find(|t| t.contains("after the melee")).unwrap_or_else(|| panic!("{ev:#?}"));
    assert!(melee.contains("Test to charge: chart A, pass on 8 or under, 4 dice (4 with secure flanks"), "{melee}");
    assert!(melee.contains("after the melee M: chart A, pass on 8 or under, 2 dice (2 in the open): 1 1"), "{melee}");
}

/// A flank rests on a town or wood beside it, not on one ahead of the unit's front: a charger
/// that meets an enemy at a town's edge does not have its flanks secured by that town (its
/// flanks' middles are within 1" of it, behind its front).
///
/// ```text
///   y 11.5 +---------------+   Kirchdorf
///   y 11   [ U U U U U U ]     U's front 0.5" short of it: flanks not secure
///
///   y 10   [ V V V V V V ]###  V's right flank 0.5" from a wood beside it,
///                         ###  its left on a friend: secure
/// ```
#[test]
fn a_flank_rests_on_a_town_beside_it_not_on_one_ahead() {
    let u = r#"{ name = "U", type = "musketeers", at = [23, 10.5] }"#;
    let town = r#"[[terrain]]
kind = "town"
name = "Kirchdorf"
rect = [10, 11.5, 40, 20]"#;
    let b = battle(u, FAR, town);
    assert!(!b.secure_flanks(0), "the town ahead does not secure its flanks");
    let v = r#"{ name = "V", type = "musketeers", at = [23, 10] },
               { name = "L", type = "musketeers", at = [15, 10] }"#;
    let wood = r#"[[terrain]]
kind = "woods"
name = "the Eichwald"
rect = [26.5, 0, 35, 30]"#;
    assert!(battle(v, FAR, wood).secure_flanks(0), "a wood beside its right flank and a friend on its left");
}

/// A routing unit charged that fails its test to stand by one die stays routing and goes back
/// as a router goes, 12" away; it is not made shaken, which would rally it without its one
/// attempt (the audit: 2 routers in 400 battles ended shaken after such a test).
#[test]
fn a_routing_unit_failing_one_die_when_charged_stays_routing() {
    let m = r#"{ name = "M", type = "musketeers", at = [23, 10] }"#;
    let n = format!(r#"{{ name = "N", type = "musketeers", at = [23, 19.5], facing = 180 }}, {FAR}"#);
    let mut b = moving(battle(m, &n, ""), 0);
    b.units[1].state = State::Routing;
    apply(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    apply(&mut b, &Action::Done, &[]);
    // Test to charge 1 1; N's test to stand (chart A, 8) 1 9: one die failed. The next turn's
    // initiative 7 3.
    let ev = texts(&apply(&mut b, &Action::Done, &[1, 1, 1, 9, 7, 3]));
    assert_eq!(b.units[1].state, State::Routing, "{ev:#?}");
    assert!((b.units[1].at.y - 31.5).abs() < 1e-6, "a rout move, 12\" away: {:?} {ev:#?}", b.units[1].at);
    assert!(ev.iter().any(|t| t.contains("N routs 12\"")), "{ev:#?}");
}

/// A line worn down to 2 stands is too narrow for a line; 2 wide is an attack column, which the
/// jägers' row does not have (no column rate): jägers form march column instead, as a
/// scenario's jägers of 2 stands do (the audit: 40 jäger units put in attack column).
#[test]
fn jagers_worn_to_two_stands_form_march_column_not_attack_column() {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [20, 10] }"#;
    let a = r#"{ name = "Jagers", type = "jagers", at = [20, 14], facing = 180, figures = 12 }"#;
    let mut b = battle(p, a, "");
    b.turn = 1;
    b.first = 0;
    b.phase = Phase::Firing { side: 0 };
    // Six dice on chart C (5): four hits; the test (chart A, 7) 1 1 passes.
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 1, 1, 1, 9, 9, 1, 1]);
    assert_eq!((b.units[1].figures, b.units[1].formation), (8, Formation::MarchColumn), "{:#?}", texts(&ev));
    assert!(texts(&ev).iter().any(|t| t.contains("forms march column")), "{:#?}", texts(&ev));
    assert_eq!(b.units[1].at, Point::new(20.0, 14.0), "room where it stands: it stays centred");
    // A friend 0.3" behind: the column keeps its rear and stands forward, 0.5" towards its front
    // (south), and the account says where.
    let a = r#"{ name = "Jagers", type = "jagers", at = [20, 14], facing = 180, figures = 12 },
               { name = "IR B", type = "musketeers", at = [20, 15.3], facing = 180 }"#;
    let mut b = battle(p, a, "");
    b.turn = 1;
    b.first = 0;
    b.phase = Phase::Firing { side: 0 };
    // Its test has 4 dice now: the friend is within 3" of both its flanks.
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 1, 1, 1, 9, 9, 1, 1, 1, 1]);
    assert_eq!(b.units[1].formation, Formation::MarchColumn);
    assert!(b.units[1].at.dist(Point::new(20.0, 13.5)) < 1e-9, "{:?}", b.units[1].at);
    assert!(
        ev.iter().any(|e| matches!(e, Event::Reformed { at: Some(p), .. } if p.dist(Point::new(20.0, 13.5)) < 1e-9))
    );
}

/// A unit gone shaken by a charge falls back facing the enemy. With no room to turn where it
/// stands (a friend close behind it), it turns where its move ends (the audit: 21 units in 400
/// battles, 20 charged in the flank or rear, fell back keeping their old facing).
///
/// ```text
///          y 22   D                       N turned, after 10" east,
///   D D D  y 20  D> [ N N N N N N ]  ->   facing west:   |N|
///          y 18   D       [ F F F F F F ]                |N|
///        x 10.75  20  23     26   29                     x 33
/// ```
#[test]
fn a_unit_shaken_by_a_flank_charge_falls_back_facing_the_enemy() {
    let d = r#"{ name = "D", type = "dragoons", at = [10, 20], facing = 90, figures = 6 }"#;
    let n = r#"{ name = "N", type = "musketeers", at = [23, 20], facing = 0 },
               { name = "F", type = "musketeers", at = [26, 18], facing = 0 }"#;
    let mut b = moving(battle(d, n, ""), 0);
    {
        let mut turned = b.units[1].clone();
        turned.facing = 270.0;
        let t = turned.corners();
        let f = b.units[2].corners();
        assert!(volley_table::convex_overlap(&t, &f), "no room to turn where it stands");
    }
    apply(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    apply(&mut b, &Action::Done, &[]);
    // Test to charge 1 1; N's test to stand (chart A, 8) 1 9: shaken, it falls back 10". The
    // next turn's initiative 7 3.
    let ev = texts(&apply(&mut b, &Action::Done, &[1, 1, 1, 9, 7, 3]));
    assert!(ev.iter().any(|t| t.contains("N falls back")), "{ev:#?}");
    assert_eq!(b.units[1].state, State::Shaken);
    assert!(b.units[1].at.x > 30.0, "{:?} {ev:#?}", b.units[1].at);
    assert!((b.units[1].facing - 270.0).abs() < 1.0, "facing {} {ev:#?}", b.units[1].facing);
}

/// The army commander killed by round shot: the 12" is measured from where he fell, not from
/// where his unit's rout carries his successor (the audit: 8 units in 400 battles tested or not
/// by where the routed unit ended).
///
/// ```text
///   y 38                 A3    (11.5" from where A1 ends, 23.5" from where he fell: no test)
///   y 26                 A1 after its rout, 12" north
///   y 14                 A1, Daun with it: killed here
///   y 10    A2           IR 1 (firing north)       A2: 9.7" from where he fell: tests
///         x 8            x 20
/// ```
#[test]
fn the_army_commanders_death_is_measured_from_where_he_fell() {
    let rules = r#"[rules]
sides = [{ side = "Austrians", commander_with = "A1" }]"#;
    let p = r#"{ name = "IR 1", type = "musketeers", at = [20, 10] }"#;
    let a = r#"{ name = "A1", type = "musketeers", at = [20, 14], facing = 180 },
               { name = "A2", type = "musketeers", at = [8, 10], facing = 180 },
               { name = "A3", type = "musketeers", at = [20, 38], facing = 180 }"#;
    let mut b = battle(p, a, rules);
    b.turn = 1;
    b.phase = Phase::Firing { side: 0 };
    // One hit; the officer's die 10; A1's test (no leader's die: interpretation 8) 9 10: it routs
    // 12" north; A2 tests 1 1.
    let ev = texts(&apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 9, 9, 9, 9, 9, 10, 9, 10, 1, 1]));
    assert!(ev.iter().any(|t| t.contains("killed by round shot")), "{ev:#?}");
    assert!((b.units[1].at.y - 26.0).abs() < 1e-6, "A1 routed 12\": {:?} {ev:#?}", b.units[1].at);
    assert!(ev.iter().any(|t| t.starts_with("A2 tests for the army commander's death")), "{ev:#?}");
    assert!(!ev.iter().any(|t| t.starts_with("A3 tests")), "{ev:#?}");
}

/// A unit routed in the middle of a charge by its army commander's death (killed with it in the
/// melee, and its test for his death failed on both dice) is still routing when step 7 makes
/// both sides shaken: step 7 does not rally a router (the audit: a unit routed and then shaken
/// in the same action).
#[test]
fn a_unit_routed_by_its_commanders_death_in_a_melee_is_not_made_shaken_by_step_7() {
    let rules = r#"[rules]
sides = [{ side = "Austrians", commander_with = "N" }]"#;
    let m = r#"{ name = "M", type = "musketeers", at = [23, 10] }"#;
    let n = format!(r#"{{ name = "N", type = "musketeers", at = [23, 19.5], facing = 180 }}, {FAR}"#);
    let mut b = moving(battle(m, &n, rules), 0);
    apply(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    apply(&mut b, &Action::Done, &[]);
    // Test to charge 1 1; N's test to stand (its leader: 3 dice) 1 1 1; M's melee dice hit once
    // (1, then five 10s), N's none; after the melee M 1 1, N 1 1 1: both pass, no winner. The
    // officer's die for Daun, 10: killed by round shot; N tests for his death (his successor
    // with it: 3 dice) 10 10 10 and routs. The next turn's initiative 7 3.
    let dice = [1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 1, 10, 10, 10, 10, 7, 3];
    let ev = texts(&apply(&mut b, &Action::Done, &dice));
    assert!(
        ev.iter().any(|t| t.starts_with("N tests for the army commander's death") && t.ends_with("rout")),
        "{ev:#?}"
    );
    assert_eq!(b.units[1].state, State::Routing, "{ev:#?}");
}

/// A unit touching an enemy (after a melee) may step back or aside, never into it: a move that
/// keeps the distance at nothing while it goes into the enemy's body is refused (the audit: a
/// shaken march column went 2.5" obliquely into the Croats it touched and stood 0.75" on them).
///
/// ```text
///   y 11.5 [ N N N N N N ]   N, facing south, its front on M's
///   y 10.5 [ M M M M M M ]   M, facing north: to (24, 10.5) refused, to (24, 9.5) allowed
/// ```
#[test]
fn a_unit_touching_an_enemy_may_not_move_into_it() {
    let m = r#"{ name = "M", type = "musketeers", at = [23, 10] }"#;
    let n = r#"{ name = "N", type = "musketeers", at = [23, 11], facing = 180 }"#;
    let b = moving(battle(m, n, ""), 0);
    assert!(volley_table::convex_distance(&b.units[0].corners(), &b.units[1].corners()) < 1e-9);
    let into = mv(0, [24.0, 10.5], 0.0, Formation::Line);
    let why = b.validate(&into).expect_err("into the enemy it touches");
    assert!(why.to_string().contains("not nearer") || why.to_string().contains("in the way"), "{why}");
    // Aside and back: allowed.
    assert!(b.validate(&mv(0, [24.0, 9.5], 0.0, Formation::Line)).is_ok());
}
