//! Helpers shared by the rule tests: small battles written inline, and ways to act in them.
#![allow(dead_code)] // each test file uses some of them

use volley_blown_away::game::Phase;
use volley_blown_away::model::ManState;
use volley_blown_away::{Action, Battle, Event, load};
use volley_chance::{Scripted, Seeded};
use volley_core::GameState;
use volley_scenario::Source;

/// A custom-setup battle on an empty 96 x 60 table. `a` and `b` are TOML unit lists for the
/// south side (Prussians) and the north side (Austrians); `extra` adds terrain, objectives or
/// rule options.
pub fn battle(variant: &str, a: &str, b: &str, extra: &str) -> Battle {
    let text = format!(
        r#"name = "test"
ruleset = "blown-away"
variant = "{variant}"
turn_limit = 50
[table]
width = 96
depth = 60
[rules]
setup = "custom"
objectives_to_win = 1
{extra}
[[objectives]]
name = "far away"
rect = [0, 0, 1, 1]
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = {{ name = "Fritz", at = [90, 1] }}
units = [{a}]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = {{ name = "Daun", at = [90, 59] }}
units = [{b}]
"#
    );
    match load(&Source::new("test.toml", text)) {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

/// Deploy both sides as written; `first` moves first.
pub fn start(mut b: Battle, first: u8) -> Battle {
    let mut ev = Vec::new();
    let mut coin = Scripted::new([u32::from(first) + 1]);
    b.apply(&Action::Deploy { placements: vec![] }, &mut coin, &mut ev).unwrap();
    b.apply(&Action::Deploy { placements: vec![] }, &mut coin, &mut ev).unwrap();
    assert_eq!(b.mover, first);
    b
}

pub fn apply(b: &mut Battle, a: Action) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut rng = Seeded::new(5);
    if let Err(e) = b.apply(&a, &mut rng, &mut ev) {
        panic!("{a:?} refused: {e}");
    }
    ev
}

pub fn apply_with(b: &mut Battle, a: Action, draws: &str) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut s = Scripted::parse(draws).unwrap();
    if let Err(e) = b.apply(&a, &mut s, &mut ev) {
        panic!("{a:?} refused: {e}");
    }
    ev
}

pub fn refused(b: &mut Battle, a: Action) -> String {
    let before = b.state_hash();
    let mut rng = Seeded::new(5);
    let err = b.apply(&a, &mut rng, &mut Vec::new()).expect_err("the action should be refused");
    assert_eq!(b.state_hash(), before, "a refused action changed the state");
    err.to_string()
}

pub fn count(b: &Battle, u: usize, s: ManState) -> usize {
    b.units[u].men.iter().filter(|m| m.state == s).count()
}

/// A line of `n` men in one rank with its front centre at (x, y), facing `facing`.
pub fn line(name: &str, arm: &str, n: u16, x: f64, y: f64, facing: f64) -> String {
    let men = match arm {
        "cavalry" => format!("cavalrymen = {n}"),
        _ => format!("soldiers = {}", n - 3),
    };
    format!(r#"{{ name = "{name}", arm = "{arm}", at = [{x}, {y}], facing = {facing}, ranks = 1, {men} }}"#)
}

pub fn gun(name: &str, x: f64, y: f64, facing: f64) -> String {
    format!(r#"{{ name = "{name}", arm = "artillery", at = [{x}, {y}], facing = {facing} }}"#)
}

pub fn in_ranks(b: &Battle, u: usize) -> usize {
    count(b, u, ManState::InRanks)
}

pub fn killed(b: &Battle, u: usize) -> usize {
    count(b, u, ManState::Fallen) + count(b, u, ManState::Dead)
}

/// Pass phases until `side` may move.
pub fn to_main_of(b: &mut Battle, side: u8) {
    while !(b.mover == side && b.phase == Phase::Main) {
        apply(b, Action::EndPhase);
    }
}

/// Through the combat phases to the next main phase: each of `fights` (unit, target) conducts
/// its combat when the rules let it, and every phase is ended.
pub fn fight_out(b: &mut Battle, fights: &[(u16, u16)]) {
    while b.phase != Phase::Main && b.outcome.is_none() {
        let due = fights.iter().find(|&&(unit, target)| b.validate(&Action::Combat { unit, target }).is_ok());
        match due {
            Some(&(unit, target)) => apply(b, Action::Combat { unit, target }),
            None => apply(b, Action::EndPhase),
        };
    }
}

/// Pass the main phase (and the artillery phase, if any) to reach the combats.
pub fn to_combat(b: &mut Battle) {
    while !matches!(b.phase, Phase::Combat { .. }) {
        apply(b, Action::EndPhase);
    }
}
