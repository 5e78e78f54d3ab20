//! Bigger battles made from bundled ones, for measuring how costs grow with the number of units:
//! [`tile`] lays `k` copies of a scenario side by side on a table `k` times as wide.
//!
//! It works on the scenario's TOML, not on a rule set's types, so it serves every rule set
//! whose places are in the table's own units (inches, or grid areas for a grid whose `width`
//! counts its columns): every `at` point, `rect`, `polygon` and `line` is moved
//! along by the table's width for each copy; every `name` (of a unit, a wing, a terrain feature,
//! an objective) and every unit's `wing` gets the copy's number; each side keeps one commander.

use toml::{Table, Value};

/// Why a scenario could not be tiled.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The text is not TOML.
    #[error("the scenario is not TOML: {0}")]
    Toml(String),
    /// A field the tiling needs is missing or of the wrong kind.
    #[error("the scenario has no {0}")]
    Missing(&'static str),
    /// The result could not be written as TOML.
    #[error("cannot write the tiled scenario: {0}")]
    Write(String),
}

/// `k` copies of the scenario `text` side by side (copy `i` moved `i` table widths east), as
/// TOML text. `k` of 1 gives the scenario back with its names marked `#1`.
pub fn tile(text: &str, k: u32) -> Result<String, GenerateError> {
    let doc: Table = text.parse().map_err(|e: toml::de::Error| GenerateError::Toml(e.to_string()))?;
    let width = doc
        .get("table")
        .and_then(|t| t.get("width"))
        .and_then(|w| w.as_float().or_else(|| w.as_integer().map(|i| i as f64)))
        .ok_or(GenerateError::Missing("[table] width"))?;
    let k = k.max(1);
    let mut out = doc.clone();
    if let Some(Value::Table(t)) = out.get_mut("table") {
        t.insert("width".into(), number(width * f64::from(k)));
    }
    if let Some(Value::String(n)) = out.get_mut("name") {
        n.push_str(&format!(" ({k} copies side by side)"));
    }
    for key in ["terrain", "objectives"] {
        if let Some(Value::Array(items)) = doc.get(key) {
            out.insert(key.into(), Value::Array(copies(items, k, width)));
        }
    }
    if let Some(Value::Table(rules)) = doc.get("rules") {
        let mut r = rules.clone();
        for (key, v) in rules {
            if let Value::Array(items) = v
                && items.iter().all(Value::is_table)
            {
                r.insert(key.clone(), Value::Array(copies(items, k, width)));
            }
        }
        out.insert("rules".into(), Value::Table(r));
    }
    let Some(Value::Array(sides)) = doc.get("sides") else { return Err(GenerateError::Missing("[[sides]]")) };
    let mut new_sides = Vec::new();
    for side in sides {
        let mut s = side.clone();
        if let (Value::Table(t), Some(Value::Array(units))) = (&mut s, side.get("units")) {
            t.insert("units".into(), Value::Array(copies(units, k, width)));
        }
        new_sides.push(s);
    }
    out.insert("sides".into(), Value::Array(new_sides));
    toml::to_string(&out).map_err(|e| GenerateError::Write(e.to_string()))
}

fn number(x: f64) -> Value {
    if x.fract() == 0.0 && x.abs() < 1e15 { Value::Integer(x as i64) } else { Value::Float(x) }
}

/// Copies `1..=k` of each item, names numbered, places moved.
fn copies(items: &[Value], k: u32, width: f64) -> Vec<Value> {
    let mut out = Vec::with_capacity(items.len() * k as usize);
    for i in 0..k {
        for item in items {
            let mut v = item.clone();
            shift(&mut v, width * f64::from(i), i + 1);
            out.push(v);
        }
    }
    out
}

/// Move every point in `v` `dx` east and number its names with `n`.
fn shift(v: &mut Value, dx: f64, n: u32) {
    let Value::Table(t) = v else { return };
    for (key, val) in t.iter_mut() {
        match (key.as_str(), val) {
            ("name" | "wing", Value::String(s)) => s.push_str(&format!(" #{n}")),
            ("at", Value::Array(p)) => move_point(p, dx),
            ("rect", Value::Array(r)) => {
                for i in [0, 2] {
                    if let Some(x) = r.get_mut(i) {
                        move_x(x, dx);
                    }
                }
            }
            ("polygon" | "line", Value::Array(ps)) => {
                for p in ps {
                    if let Value::Array(p) = p {
                        move_point(p, dx);
                    }
                }
            }
            (_, inner @ Value::Table(_)) => shift(inner, dx, n),
            _ => {}
        }
    }
}

fn move_point(p: &mut [Value], dx: f64) {
    if let Some(x) = p.first_mut() {
        move_x(x, dx);
    }
}

fn move_x(x: &mut Value, dx: f64) {
    let v = x.as_float().or_else(|| x.as_integer().map(|i| i as f64));
    if let Some(v) = v {
        *x = number(v + dx);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SMALL: &str = r#"
name = "small"
[table]
width = 40
depth = 30
[[terrain]]
kind = "woods"
name = "wood"
rect = [1, 2, 5, 6]
[[terrain]]
kind = "river"
name = "brook"
line = [[0, 10], [40, 12.5]]
[[rules.wings]]
side = "A"
name = "left"
order = { attack = { at = [20, 20] } }
[[sides]]
name = "A"
commander = { name = "ca", at = [1, 1] }
units = [{ name = "u", wing = "left", at = [10, 5] }]
"#;

    #[test]
    fn copies_sit_side_by_side_with_numbered_names() {
        let t: Table = tile(SMALL, 3).unwrap_or_default().parse().unwrap_or_default();
        assert_eq!(t["table"]["width"].as_integer(), Some(120));
        let woods = t["terrain"].as_array().map(|a| a.len());
        assert_eq!(woods, Some(6));
        assert_eq!(t["terrain"][4]["rect"].as_array().map(|r| r[0].as_integer()), Some(Some(81)));
        assert_eq!(t["terrain"][4]["name"].as_str(), Some("wood #3"));
        assert_eq!(t["terrain"][5]["line"][1][0].as_integer(), Some(120));
        assert_eq!(t["terrain"][5]["line"][1][1].as_float(), Some(12.5));
        let units = t["sides"][0]["units"].as_array().cloned().unwrap_or_default();
        assert_eq!(units.len(), 3);
        assert_eq!(units[1]["at"][0].as_integer(), Some(50));
        assert_eq!((units[2]["name"].as_str(), units[2]["wing"].as_str()), (Some("u #3"), Some("left #3")));
        let wings = t["rules"]["wings"].as_array().cloned().unwrap_or_default();
        assert_eq!(wings[1]["order"]["attack"]["at"][0].as_integer(), Some(60));
        assert_eq!(t["sides"][0]["commander"]["at"][0].as_integer(), Some(1), "one commander");
    }

    #[test]
    fn a_scenario_without_a_width_is_refused() {
        assert!(matches!(tile("name = \"x\"", 2), Err(GenerateError::Missing(_))));
        assert!(matches!(tile("name = ", 2), Err(GenerateError::Toml(_))));
    }
}
