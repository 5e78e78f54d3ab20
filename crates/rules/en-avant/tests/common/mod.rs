//! What the battle's hand-worked cases share: a small table with the units a case names, and a
//! turn played with the cards it gives.
#![allow(dead_code)] // each test file uses what it needs

use volley_chance::Seeded;
use volley_core::GameState;
use volley_en_avant::battle::{Action, Battle};
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;
use volley_en_avant::{Event, load};
use volley_scenario::Source;

/// A battle of Blue (south, facing north) against Red (north, facing south) on a bare
/// 180 × 120 cm table; `blue` and `red` are TOML unit lists; `extra` goes at the end.
pub fn battle(blue: &str, red: &str, extra: &str) -> Battle {
    let text = format!(
        r#"name = "case"
ruleset = "en-avant"
turn_limit = 20
[table]
width = 180
depth = 120
[[sides]]
name = "Blue"
rear_edge = "south"
commander = {{ name = "Blue HQ", at = [10, 2] }}
units = [{blue}]
[[sides]]
name = "Red"
rear_edge = "north"
commander = {{ name = "Red HQ", at = [170, 118] }}
units = [{red}]
{extra}
"#
    );
    load(&Source::new("case.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

pub fn unit(b: &Battle, name: &str) -> usize {
    b.stat().unit_names.iter().position(|n| n == name).unwrap()
}

/// Give each side its cards (by unit name) and play the turn; returns what was told and
/// explained.
pub fn turn(b: &mut Battle, blue: &[(&str, Order)], red: &[(&str, Order)]) -> Vec<String> {
    let mut events = Vec::new();
    let mut chance = Seeded::new(1);
    for (side, orders) in [(0u8, blue), (1, red)] {
        assert_eq!(b.actor(), volley_core::Actor::Side(side));
        for (name, order) in orders {
            let a = Action::Order { unit: unit(b, name) as u16, order: *order };
            b.apply(&a, &mut chance, &mut events).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    }
    events
        .iter()
        .filter_map(|e| match e {
            Event::Told { text } => Some(text.clone()),
            Event::Explained { text, .. } => Some(format!("({text})")),
            _ => None,
        })
        .collect()
}

pub fn status(b: &Battle, name: &str) -> Status {
    b.units[unit(b, name)].status[0]
}

pub fn y(b: &Battle, name: &str) -> f64 {
    b.units[unit(b, name)].at.y
}

pub fn charge(b: &Battle, target: &str) -> Order {
    Order::Charge { target: unit(b, target) as u16 }
}

/// Two spare battalions of each side far off in its corners, so that one unit running or gone
/// does not break a side.
pub const RED_FAR: &str = r#"{ name = "Red reserve", kind = "infantry", at = [20, 110] }, { name = "Red guard", kind = "infantry", at = [160, 110] }"#;
/// Blue's two spare battalions.
pub const BLUE_FAR: &str = r#"{ name = "Blue reserve", kind = "infantry", at = [20, 12] }, { name = "Blue guard", kind = "infantry", at = [160, 12] }"#;

/// Red's units a case names, with its spares.
pub fn reds(near: &str) -> String {
    format!("{near}, {RED_FAR}")
}

/// Blue's units a case names, with its spares.
pub fn blues(near: &str) -> String {
    format!("{near}, {BLUE_FAR}")
}

/// Whether a line told contains `words`.
pub fn told_of(told: &[String], words: &str) -> bool {
    told.iter().any(|t| t.contains(words))
}
