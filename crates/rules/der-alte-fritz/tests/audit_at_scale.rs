//! What the audit at scale (`audit/der_alte_fritz.py`, checks written from the text by an auditor
//! who had not seen the code, run over hundreds of computer-played battles) found where the
//! engine departed from the text, each on a small position with the dice given. Stands here are
//! the engine's: foot 1" square with 4 figures, horse 1.5" with 2.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Scripted;
use volley_core::GameState;
use volley_der_alte_fritz::game::Phase;
use volley_der_alte_fritz::model::{Formation, State};
use volley_der_alte_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::Point;

/// A battle on a 100" square table: Prussians (side 0, rear south) with `prussians` units,
/// Austrians (side 1, rear north) with `austrians`, the `extra` TOML after (terrain, rules).
fn battle(prussians: &str, austrians: &str, extra: &str) -> Battle {
    let text = format!(
        r#"name = "test"
ruleset = "der-alte-fritz"
turn_limit = 20
[table]
width = 100
depth = 100
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = {{ name = "Frederick", at = [50, 1] }}
units = [{prussians}]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = {{ name = "Daun", at = [50, 99] }}
units = [{austrians}]
{extra}
"#
    );
    load(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

/// The battle in `side`'s movement phase of turn 1, `side` being side A.
fn moving(mut b: Battle, side: u8) -> Battle {
    b.turn = 1;
    b.first = side;
    b.phase = Phase::Movement { side };
    b
}

fn mv(u: u16, to: [f64; 2], facing: f64, formation: Formation) -> Action {
    Action::Move { unit: u, to: Point::new(to[0], to[1]), facing, formation }
}

fn apply(b: &mut Battle, a: &Action, dice: &[u32]) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut c = Scripted::new(dice.iter().copied());
    b.apply(a, &mut c, &mut ev).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    ev
}

fn texts(ev: &[Event]) -> Vec<String> {
    ev.iter().map(ToString::to_string).collect()
}

const FAR: &str = r#"{ name = "far", type = "musketeers", at = [90, 95], facing = 180 }"#;

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
