//! Helpers shared by the battle tests: small battles written inline on a 100" table, and
//! actions applied with scripted dice.
#![allow(dead_code)] // each test file uses some of them

use volley_chance::Scripted;
use volley_core::GameState;
use volley_der_alte_fritz::game::Phase;
use volley_der_alte_fritz::model::Formation;
use volley_der_alte_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::Point;

/// A battle on a 100" square table: Prussians (side 0, rear south) with `prussians` units,
/// Austrians (side 1, rear north) with `austrians`, the `extra` TOML after (terrain, rules).
pub fn battle(prussians: &str, austrians: &str, extra: &str) -> Battle {
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
pub fn moving(mut b: Battle, side: u8) -> Battle {
    b.turn = 1;
    b.first = side;
    b.phase = Phase::Movement { side };
    b
}

pub fn mv(u: u16, to: [f64; 2], facing: f64, formation: Formation) -> Action {
    Action::Move { unit: u, to: Point::new(to[0], to[1]), facing, formation }
}

pub fn apply(b: &mut Battle, a: &Action, dice: &[u32]) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut c = Scripted::new(dice.iter().copied());
    b.apply(a, &mut c, &mut ev).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    ev
}

pub const FAR: &str = r#"{ name = "far", type = "musketeers", at = [90, 95], facing = 180 }"#;
