//! One value of a scenario file changed, for sweeps (`volley sweep`, `volley.sweep` in Python):
//! the file's text in, the changed text out, or an error naming the path and what is there.
//!
//! The text is edited in place (`toml_edit`): everything but the changed value keeps its place,
//! so that a diagnostic of the changed scenario points at the line and column of the file the
//! user wrote (a new key is added at the end of its table).

use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// Why a value could not be set: the message names the path and what the scenario has there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct EditError(pub String);

/// Set the value at `path` (keys and list indices separated by dots, such as
/// `sides.0.units.3.figures` or `turn_limit`) in the scenario `text` to `value` (read as TOML: a
/// number, `true`, a quoted string; anything else is taken as a bare word), and return the new
/// text. The last key may be new (a value the file leaves to its default), and so may tables on
/// the way to it (`rules.rules_hidden` in a file without `[rules]`); list entries must exist.
///
/// # Errors
/// The text is not TOML, the path is malformed, or it does not lead to a value of the scenario.
pub fn set(text: &str, path: &str, value: &str) -> Result<String, EditError> {
    let mut doc: DocumentMut = text.parse().map_err(|e| EditError(format!("the scenario is not TOML: {e}")))?;
    let parts: Vec<&str> = path.split('.').collect();
    if parts.iter().any(|p| p.is_empty()) {
        return Err(EditError(format!(
            "{path}: a path is keys and indices separated by single dots, such as sides.0.units.2.figures"
        )));
    }
    let walk = Walk { path, new: parse_value(value) };
    walk.item(doc.as_item_mut(), &parts, "")?;
    Ok(doc.to_string())
}

/// The scenario `text` with the value at `path` set to each of `values` in turn ([`set`]), for
/// a sweep: one text a value, in order.
///
/// # Errors
/// As [`set`]; and two values that make the same scenario (`3` and ` 3`, `48` given twice) are
/// refused, naming both.
pub fn set_each(text: &str, path: &str, values: &[&str]) -> Result<Vec<String>, EditError> {
    let mut out: Vec<String> = Vec::with_capacity(values.len());
    for v in values {
        let changed = set(text, path, v)?;
        if let Some(j) = out.iter().position(|t| *t == changed) {
            return Err(EditError(format!("{path}: {} and {v} are the same value", values[j])));
        }
        out.push(changed);
    }
    Ok(out)
}

struct Walk<'a> {
    path: &'a str,
    new: Value,
}

impl Walk<'_> {
    fn err<T>(&self, what: String) -> Result<T, EditError> {
        Err(EditError(format!("{}: {what}", self.path)))
    }

    /// The new value, keeping the place and spacing of the `old` one.
    fn replacing(&self, old: Option<&Value>) -> Value {
        let mut v = self.new.clone();
        if let Some(old) = old {
            *v.decor_mut() = old.decor().clone();
        }
        v
    }

    fn item(&self, here: &mut Item, parts: &[&str], walked: &str) -> Result<(), EditError> {
        match here {
            Item::Table(t) => self.table(t, false, parts, walked),
            Item::Value(v) => self.value(v, parts, walked),
            Item::ArrayOfTables(a) => {
                let Some((part, rest)) = parts.split_first() else {
                    return self.err(format!("{walked} is a list of tables: set one of their values"));
                };
                let k = self.index(part, a.len(), walked)?;
                let Some(t) = a.get_mut(k) else { return self.err(format!("{walked} has no entry {k}")) };
                self.table(t, false, rest, &join(walked, part))
            }
            Item::None => self.err(format!("{walked} has no value")),
        }
    }

    /// A step into a table, a `[section]` or an inline `{ ... }` one (`inline`).
    fn table(&self, t: &mut dyn TableLike, inline: bool, parts: &[&str], walked: &str) -> Result<(), EditError> {
        let Some((part, rest)) = parts.split_first() else {
            return self.err(format!("{} is a table: set one of its values", at(walked)));
        };
        if rest.is_empty() {
            return match t.get_mut(part) {
                Some(Item::Value(old)) => {
                    *old = self.replacing(Some(old));
                    Ok(())
                }
                Some(Item::ArrayOfTables(_)) => {
                    self.err(format!("{} is a list of tables: set one of their values", join(walked, part)))
                }
                Some(Item::Table(_)) => self.err(format!("{} is a table: set one of its values", join(walked, part))),
                Some(Item::None) | None => {
                    t.insert(part, Item::Value(self.replacing(None)));
                    Ok(())
                }
            };
        }
        if !t.contains_key(part) {
            // A key missing on the way: a table is made for it when what follows is a key (a
            // section at the file's end, so that no line of the file moves); an index after it
            // means a list, which must be in the file.
            if rest.first().is_some_and(|r| r.parse::<usize>().is_ok()) {
                let keys: Vec<String> = t.iter().map(|(k, _)| k.to_string()).collect();
                return self.err(format!("{} has no {part:?} (it has {keys:?})", at(walked)));
            }
            let made =
                if inline { Item::Value(Value::InlineTable(InlineTable::new())) } else { Item::Table(Table::new()) };
            t.insert(part, made);
        }
        let Some(child) = t.get_mut(part) else { return self.err(format!("{} has no {part:?}", at(walked))) };
        self.item(child, rest, &join(walked, part))
    }

    fn value(&self, v: &mut Value, parts: &[&str], walked: &str) -> Result<(), EditError> {
        let Some((part, rest)) = parts.split_first() else { return Ok(()) };
        match v {
            Value::InlineTable(t) => self.table(t, true, parts, walked),
            Value::Array(a) => {
                let k = self.index(part, a.len(), walked)?;
                if rest.is_empty() {
                    let new = self.replacing(a.get(k));
                    a.replace(k, new);
                    return Ok(());
                }
                let Some(child) = a.get_mut(k) else { return self.err(format!("{walked} has no entry {k}")) };
                self.value(child, rest, &join(walked, part))
            }
            _ => self.err(format!("{} is a single value, not a table or a list", at(walked))),
        }
    }

    fn index(&self, part: &str, len: usize, walked: &str) -> Result<usize, EditError> {
        let k: usize = match part.parse() {
            Ok(k) => k,
            Err(_) => {
                return self.err(format!(
                    "{walked} is a list: expected an index from 0 to {}, found {part:?}",
                    len.saturating_sub(1)
                ));
            }
        };
        if k >= len {
            return self.err(format!("{walked} has {len} entries (0 to {}), not {k}", len.saturating_sub(1)));
        }
        Ok(k)
    }
}

fn at(walked: &str) -> &str {
    if walked.is_empty() { "the scenario" } else { walked }
}

fn join(walked: &str, part: &str) -> String {
    if walked.is_empty() { part.to_string() } else { format!("{walked}.{part}") }
}

/// `v` read as a TOML value (`12`, `true`, `"text"`, `[1, 2]`); anything else is a bare word,
/// taken as text.
fn parse_value(v: &str) -> Value {
    let parsed = format!("x = {v}\n").parse::<DocumentMut>().ok().and_then(|doc| {
        if doc.len() != 1 {
            return None;
        }
        doc.get("x").and_then(Item::as_value).cloned()
    });
    parsed.unwrap_or_else(|| Value::from(v))
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
        let e = set(TEXT, "sides", "1").unwrap_err().to_string();
        assert!(e.contains("sides is a list of tables"), "{e}");
    }

    #[test]
    fn the_rest_of_the_file_keeps_its_place() {
        let text = "# a comment\nname = \"t\"   # the name\nturn_limit = 10  # bounds\n\n[[sides]]\nname = \"A\"\nunits = [\n  { name = \"x\", figures = 12 },\n  { name = \"y\" },\n]\n";
        let out = set(text, "turn_limit", "20").unwrap();
        assert_eq!(out, text.replace("turn_limit = 10", "turn_limit = 20"), "only the value changes");
        let out = set(text, "sides.0.units.0.figures", "8").unwrap();
        assert_eq!(out, text.replace("figures = 12", "figures = 8"));
        // A new key in an inline table stays on its line; every line keeps its number.
        let out = set(text, "sides.0.units.1.figures", "6").unwrap();
        assert_eq!(out.lines().count(), text.lines().count(), "{out}");
        assert!(out.lines().nth(8).unwrap().contains("figures = 6"), "{out}");
    }

    #[test]
    fn a_sweeps_values_make_one_text_each_and_never_the_same_twice() {
        let texts = set_each(TEXT, "turn_limit", &["5", "6"]).unwrap();
        assert_eq!(texts, vec![set(TEXT, "turn_limit", "5").unwrap(), set(TEXT, "turn_limit", "6").unwrap()]);
        let e = set_each(TEXT, "turn_limit", &["3", "4", " 3"]).unwrap_err().to_string();
        assert_eq!(e, "turn_limit: 3 and  3 are the same value");
        assert!(set_each(TEXT, "nothing.0", &["1"]).is_err());
    }

    #[test]
    fn missing_tables_on_the_way_are_made() {
        let t: toml::Table = set(TEXT, "rules.rules_hidden", "false").unwrap().parse().unwrap();
        assert_eq!(t["rules"]["rules_hidden"].as_bool(), Some(false));
        let t: toml::Table = set(TEXT, "sides.0.units.1.extra.deep", "1").unwrap().parse().unwrap();
        assert_eq!(t["sides"][0]["units"][1]["extra"]["deep"].as_integer(), Some(1));
    }

    #[test]
    fn values_are_read_as_toml_or_taken_as_words() {
        let t: toml::Table = set(TEXT, "turn_limit", "\"20\"").unwrap().parse().unwrap();
        assert_eq!(t["turn_limit"].as_str(), Some("20"), "a quoted number is text");
        let t: toml::Table = set(TEXT, "turn_limit", "2.5").unwrap().parse().unwrap();
        assert_eq!(t["turn_limit"].as_float(), Some(2.5));
        let t: toml::Table = set(TEXT, "turn_limit", "3\n[evil]").unwrap().parse().unwrap();
        assert_eq!(t["turn_limit"].as_str(), Some("3\n[evil]"), "more than a value is a word, not TOML");
        assert!(!t.contains_key("evil"));
    }
}
