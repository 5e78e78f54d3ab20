//! Helpers shared by the rule tests: small battles written inline, and bounds played with
//! scripted dice.
#![allow(dead_code)] // each test file uses some of them

use volley_chance::Scripted;
use volley_core::GameState;
use volley_old_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;

/// A battle on a 96" by 96" table: side "A" (rear south) with wing "a", side "B" (rear north)
/// with wing "b", both in reserve unless `extra` says otherwise (extra TOML: terrain, wings,
/// rules). Units are inline tables without their wing and quality (given as `wing = "a"`,
/// `quality = "C"` unless the unit says).
pub fn battle(extra: &str, a: &[&str], b: &[&str]) -> Battle {
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
pub const FAR: &str = r#"{ name = "far", kind = "line_infantry", at = [90, 90] }"#;
/// A far-off friend for side A.
pub const AFAR: &str = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
/// Two more, so that one beaten unit does not break its army.
pub const FAR2: &str = r#"{ name = "far2", kind = "line_infantry", at = [80, 90] }"#;
pub const FAR3: &str = r#"{ name = "far3", kind = "line_infantry", at = [70, 90] }"#;

/// Both sides end their orders: one bound is carried out with exactly `dice`.
pub fn bound(b: &mut Battle, dice: &[u32]) -> Vec<Event> {
    let mut script = Scripted::new(dice.iter().copied());
    let mut events = Vec::new();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(script.remaining(), 0, "dice left over: {events:?}");
    events
}
