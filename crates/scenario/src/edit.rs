//! One value of a scenario file changed, for sweeps (`volley sweep`, `volley.sweep` in Python):
//! the file's text in, the changed text out, or an error naming the path and what is there.

use toml::Value;

/// Why a value could not be set: the message names the path and what the scenario has there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(pub String);

/// Set the value at `path` (keys and list indices separated by dots, such as
/// `sides.0.units.3.figures` or `turn_limit`) in the scenario `text` to `value` (read as TOML: a
/// number, `true`, a quoted string; anything else is taken as a bare word), and return the new
/// text. The last key may be new (a value the file leaves to its default); everything before it
/// must exist.
///
/// # Errors
/// The text is not TOML, the path is malformed, or it does not lead to a value of the scenario.
pub fn set(text: &str, path: &str, value: &str) -> Result<String, EditError> {
    let doc: toml::Table = text.parse().map_err(|e| EditError(format!("the scenario is not TOML: {e}")))?;
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(EditError(format!(
            "{path}: a path is keys and indices separated by single dots, such as sides.0.units.2.figures"
        )));
    }
    let mut root = Value::Table(doc);
    set_in(&mut root, &parts, "", path, parse_value(value))?;
    let Value::Table(t) = root else { return Err(EditError("the scenario stopped being a table".into())) };
    toml::to_string(&t).map_err(|e| EditError(format!("cannot write the changed scenario: {e}")))
}

fn set_in(here: &mut Value, parts: &[&str], walked: &str, path: &str, new: Value) -> Result<(), EditError> {
    let Some((part, rest)) = parts.split_first() else { return Ok(()) };
    let at = if walked.is_empty() { "the scenario".to_string() } else { walked.to_string() };
    let next_walked = if walked.is_empty() { (*part).to_string() } else { format!("{walked}.{part}") };
    match here {
        Value::Table(t) => {
            if rest.is_empty() {
                t.insert((*part).to_string(), new);
                return Ok(());
            }
            let keys: Vec<String> = t.keys().cloned().collect();
            let child =
                t.get_mut(*part).ok_or_else(|| EditError(format!("{path}: {at} has no {part:?} (it has {keys:?})")))?;
            set_in(child, rest, &next_walked, path, new)
        }
        Value::Array(a) => {
            let len = a.len();
            let k: usize = part.parse().map_err(|_| {
                EditError(format!(
                    "{path}: {at} is a list: expected an index from 0 to {}, found {part:?}",
                    len.saturating_sub(1)
                ))
            })?;
            if k >= len {
                return Err(EditError(format!(
                    "{path}: {at} has {len} entries (0 to {}), not {k}",
                    len.saturating_sub(1)
                )));
            }
            if rest.is_empty() {
                a[k] = new;
                return Ok(());
            }
            set_in(&mut a[k], rest, &next_walked, path, new)
        }
        _ => Err(EditError(format!("{path}: {at} is a single value, not a table or a list"))),
    }
}

fn parse_value(v: &str) -> Value {
    match format!("x = {v}").parse::<toml::Table>() {
        Ok(mut t) => t.remove("x").unwrap_or_else(|| Value::String(v.to_string())),
        Err(_) => Value::String(v.to_string()),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    const TEXT: &str = "name = \"t\"\nturn_limit = 10\n[[sides]]\nname = \"A\"\nunits = [{ name = \"x\", figures = 12 }, { name = \"y\" }]\n";

    #[test]
    fn a_path_reaches_keys_and_list_entries() {
        let t: toml::Table = set(TEXT, "sides.0.units.1.figures", "8").unwrap().parse().unwrap();
        assert_eq!(t["sides"][0]["units"][1]["figures"].as_integer(), Some(8));
        assert_eq!(t["sides"][0]["units"][0]["figures"].as_integer(), Some(12), "the rest is untouched");
        let t: toml::Table = set(TEXT, "turn_limit", "20").unwrap().parse().unwrap();
        assert_eq!(t["turn_limit"].as_integer(), Some(20));
        let t: toml::Table = set(TEXT, "sides.0.units.0.kind", "dragoons").unwrap().parse().unwrap();
        assert_eq!(t["sides"][0]["units"][0]["kind"].as_str(), Some("dragoons"), "a bare word is a string");
    }

    #[test]
    fn a_bad_path_is_a_clear_error_naming_it() {
        let e = set(TEXT, "sides.0.units.5.figures", "8").unwrap_err().to_string();
        assert!(e.contains("sides.0.units has 2 entries (0 to 1), not 5"), "{e}");
        let e = set(TEXT, "sides.0.troops.0", "8").unwrap_err().to_string();
        assert!(e.contains("sides.0 has no \"troops\""), "{e}");
        let e = set(TEXT, "sides.first.name", "B").unwrap_err().to_string();
        assert!(e.contains("sides is a list: expected an index"), "{e}");
        let e = set(TEXT, "turn_limit.x", "1").unwrap_err().to_string();
        assert!(e.contains("turn_limit is a single value"), "{e}");
        assert!(set(TEXT, "sides..name", "B").is_err());
        assert!(set("not = [toml", "turn_limit", "1").unwrap_err().to_string().contains("not TOML"));
    }
}
