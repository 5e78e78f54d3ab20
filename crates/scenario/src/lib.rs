//! Scenario files: a TOML file in, a checked scenario out, or diagnostics that name the file,
//! line and column and say what was expected.
//!
//! A scenario has a common part that every rule set shares — name, rule set id and variant,
//! table size, terrain, objectives, sides with their commanders and rear edges, turn limit — and
//! two parts in the rule set's own vocabulary: each side's `units`, and the `[rules]` table of
//! options. [`Scenario`] is generic over both, so each rule set brings its own types and gets
//! the same parsing, positions and schema.
//!
//! Unknown keys are errors everywhere. [`probe`] reads only the `ruleset` key, so a program can
//! pick the rule set before parsing the rest.
//!
//! ```
//! use volley_scenario::{Source, Scenario};
//! #[derive(Debug, serde::Deserialize, schemars::JsonSchema)]
//! #[serde(deny_unknown_fields)]
//! struct Unit { name: String }
//! #[derive(Debug, serde::Deserialize, serde::Serialize, schemars::JsonSchema, Default)]
//! struct Rules {}
//!
//! let src = Source::new("demo.toml", r#"
//! name = "Demo"
//! ruleset = "demo"
//! [table]
//! width = 48
//! depth = 24
//! [[sides]]
//! name = "Blue"
//! rear_edge = "south"
//! commander = { name = "B", at = [10, 1] }
//! units = [{ name = "1st" }]
//! [[sides]]
//! name = "Red"
//! rear_edge = "north"
//! commander = { name = "R", at = [10, 23] }
//! units = [{ nme = "1st" }]
//! "#);
//! let err = Scenario::<Unit, Rules>::parse(&src).unwrap_err();
//! assert_eq!(err.to_string(), "demo.toml:16:12: unknown field `nme`, expected `name`");
//! ```
#![deny(missing_docs)]

use std::fmt;
use std::ops::Range;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
pub use toml::Spanned;
use volley_table::{Feature, Point, Table, TerrainKind};

pub mod edit;
pub mod generate;
pub mod places;

/// A scenario file's name and text, kept for diagnostics.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Source {
    /// The path as the user gave it.
    pub path: String,
    /// The whole text.
    pub text: String,
}

impl Source {
    /// A source named `path` holding `text`.
    pub fn new(path: impl Into<String>, text: impl Into<String>) -> Self {
        Source { path: path.into(), text: text.into() }
    }

    /// A source named `path` from a file's bytes, or a diagnostic at the first byte that is not
    /// UTF-8 (its line and column counted in the text before it).
    ///
    /// # Errors
    /// The bytes are not UTF-8 text.
    pub fn from_bytes(path: impl Into<String>, bytes: Vec<u8>) -> Result<Self, Diagnostic> {
        let path = path.into();
        match String::from_utf8(bytes) {
            Ok(text) => Ok(Source { path, text }),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let bytes = e.into_bytes();
                let before = Source::new(path.as_str(), String::from_utf8_lossy(&bytes[..at]).into_owned());
                let byte = bytes.get(at).copied().unwrap_or(0);
                Err(before.error(
                    before.text.len()..before.text.len(),
                    format!("not UTF-8 text (byte 0x{byte:02x}): save the file as UTF-8"),
                ))
            }
        }
    }

    /// 1-based line and column (in characters) of byte offset `at`.
    pub fn line_col(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let before = self.text.get(..at).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let col = before.get(line_start..).map_or(0, |s| s.chars().count()) + 1;
        (line, col)
    }

    /// A diagnostic at `span`.
    pub fn error(&self, span: Range<usize>, message: impl Into<String>) -> Diagnostic {
        let (line, col) = self.line_col(span.start);
        Diagnostic { path: self.path.clone(), line, col, message: message.into() }
    }

    /// A diagnostic for the file as a whole (line 1, column 1).
    pub fn error_whole(&self, message: impl Into<String>) -> Diagnostic {
        self.error(0..0, message)
    }

    /// Where the value at the key path `keys` (such as `["rules", "deployment_depth"]`) stands
    /// in the text, if the text holds it.
    pub fn key_span(&self, keys: &[&str]) -> Option<Range<usize>> {
        let doc = toml::de::DeTable::parse(&self.text).ok()?;
        let (first, rest) = keys.split_first()?;
        let mut at = doc.get_ref().get(*first)?;
        for k in rest {
            at = at.get_ref().get(*k)?;
        }
        Some(at.span())
    }

    /// A diagnostic at the value of the key path `keys`, or for the whole file when the text
    /// does not hold that key (a default was used).
    pub fn error_at_key(&self, keys: &[&str], message: impl Into<String>) -> Diagnostic {
        self.error(self.key_span(keys).unwrap_or(0..0), message)
    }

    /// The FNV-1a hash of the text, as 16 hex digits.
    pub fn hash(&self) -> String {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in self.text.as_bytes() {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        format!("{h:016x}")
    }
}

/// One problem in a scenario file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Diagnostic {
    /// The file.
    pub path: String,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub col: usize,
    /// What is wrong and what was expected.
    pub message: String,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: {}", self.path, self.line, self.col, shorten(&self.message))
    }
}

/// The most characters of a quoted value an error message shows.
pub const QUOTE_SHOWN: usize = 40;

/// The most characters an error message has.
pub const MESSAGE_SHOWN: usize = 1000;

/// `message` with every quoted value (between `"` or `` ` ``) longer than [`QUOTE_SHOWN`]
/// characters cut short, saying how long it was, and the whole no longer than [`MESSAGE_SHOWN`]
/// characters: a 4 MB value in a file makes a one-line error, not a 4 MB one.
pub fn shorten(message: &str) -> std::borrow::Cow<'_, str> {
    let long_quote =
        |q: char| message.split(q).skip(1).step_by(2).any(|inside| inside.chars().nth(QUOTE_SHOWN + 20).is_some());
    if message.chars().nth(MESSAGE_SHOWN).is_none() && !long_quote('"') && !long_quote('`') {
        return std::borrow::Cow::Borrowed(message);
    }
    let mut out = String::new();
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        let q = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let after = &rest[open + 1..];
        let Some(close) = after.find(q) else {
            rest = after;
            break;
        };
        let inside = &after[..close];
        let n = inside.chars().count();
        if n > QUOTE_SHOWN + 20 {
            out.extend(inside.chars().take(QUOTE_SHOWN));
            out.push_str(&format!("…{q} ({n} characters)"));
        } else {
            out.push_str(inside);
            out.push(q);
        }
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    if out.chars().nth(MESSAGE_SHOWN).is_some() {
        let total = out.chars().count();
        out = out.chars().take(MESSAGE_SHOWN).collect();
        out.push_str(&format!("… (the message goes on for {} more characters)", total - MESSAGE_SHOWN));
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod shorten_tests {
    use super::*;

    #[test]
    fn bytes_not_utf8_are_told_at_their_line_and_column() {
        let e = Source::from_bytes("f.toml", b"name = 1\nab\xffc".to_vec()).unwrap_err();
        assert_eq!(e.to_string(), "f.toml:2:3: not UTF-8 text (byte 0xff): save the file as UTF-8");
        assert_eq!(Source::from_bytes("f.toml", b"x = 1".to_vec()).unwrap().text, "x = 1");
    }

    #[test]
    fn long_quoted_values_and_messages_are_cut_short() {
        assert_eq!(shorten("unknown field `x`, expected `y`"), "unknown field `x`, expected `y`");
        let long = "a".repeat(4_000_000);
        let s = shorten(&format!("unknown variant `{long}`, expected \"line\"")).into_owned();
        assert_eq!(s, format!("unknown variant `{}…` (4000000 characters), expected \"line\"", "a".repeat(40)));
        let s = shorten(&format!("no quotes {long}")).into_owned();
        assert!(s.len() < 1100 && s.ends_with("(the message goes on for 3999010 more characters)"), "{}", &s[..60]);
        assert_eq!(shorten("an \"unclosed quote"), "an \"unclosed quote");
    }
}

/// All the problems found in a file (at least one).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl From<Diagnostic> for Diagnostics {
    fn from(d: Diagnostic) -> Self {
        Diagnostics(vec![d])
    }
}

/// The table's size.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TableSpec {
    /// West–east extent in the rule set's measure — inches (an 8-foot table is 96), centimetres
    /// for En Avant — at most 10 000 (Blown Away: width times depth at most 4 000 000).
    pub width: f64,
    /// South–north extent in the rule set's measure (inches; En Avant: centimetres), at most
    /// 10 000.
    pub depth: f64,
}

/// A terrain feature: an area (`polygon`, or `rect` = `[x0, y0, x1, y1]`) or, for walls,
/// redoubt parapets, trenches and roads, a `line`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TerrainSpec {
    /// What it is.
    pub kind: TerrainKind,
    /// Its name.
    #[serde(default)]
    pub name: Option<String>,
    /// An area's outline.
    #[serde(default)]
    pub polygon: Option<Vec<Point>>,
    /// An area given as `[x0, y0, x1, y1]`.
    #[serde(default)]
    pub rect: Option<[f64; 4]>,
    /// A linear feature's points.
    #[serde(default)]
    pub line: Option<Vec<Point>>,
}

/// An objective: an area to occupy.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectiveSpec {
    /// Its name.
    pub name: String,
    /// Its outline.
    #[serde(default)]
    pub polygon: Option<Vec<Point>>,
    /// Its outline as `[x0, y0, x1, y1]`.
    #[serde(default)]
    pub rect: Option<[f64; 4]>,
}

/// A table edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, JsonSchema, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Edge {
    /// `y = 0`.
    South,
    /// `y = depth`.
    North,
    /// `x = 0`.
    West,
    /// `x = width`.
    East,
}

impl Edge {
    /// Distance from `p` to this edge of a table of the given size.
    pub fn dist(self, p: Point, width: f64, depth: f64) -> f64 {
        match self {
            Edge::South => p.y,
            Edge::North => depth - p.y,
            Edge::West => p.x,
            Edge::East => width - p.x,
        }
    }

    /// The heading that faces away from this edge, into the table.
    pub fn inward(self) -> f64 {
        match self {
            Edge::South => 0.0,
            Edge::West => 90.0,
            Edge::North => 180.0,
            Edge::East => 270.0,
        }
    }
}

/// A side's commander.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommanderSpec {
    /// Name.
    pub name: String,
    /// Where he starts.
    pub at: Point,
}

/// One side.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "U: DeserializeOwned"))]
pub struct SideSpec<U> {
    /// Name, such as "Prussians".
    pub name: String,
    /// The table edge behind this side.
    pub rear_edge: Edge,
    /// The commander.
    pub commander: CommanderSpec,
    /// Units, in the rule set's vocabulary.
    #[schemars(with = "Vec<U>")]
    pub units: Vec<Spanned<U>>,
}

/// What happens when the turn limit is reached.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum AtTurnLimit {
    /// A draw.
    #[default]
    Draw,
    /// The named side wins.
    Win(String),
    /// The side holding more objectives wins; equal is a draw.
    MostObjectives,
}

impl AtTurnLimit {
    /// The winner (by side index; `None` for a draw) and the reason, when the turn limit
    /// `limit` is reached, with the sides named `sides` and the objectives held by `holders`
    /// (each objective's holding side, if any).
    pub fn decide(&self, limit: u32, sides: &[String; 2], holders: &[Option<u8>]) -> (Option<u8>, String) {
        match self {
            AtTurnLimit::Draw => (None, format!("the turn limit ({limit}) is reached: a draw")),
            AtTurnLimit::Win(name) => {
                let w = sides.iter().position(|s| s == name).map(|i| i as u8);
                (w, format!("the turn limit ({limit}) is reached: {name} win as the scenario says"))
            }
            AtTurnLimit::MostObjectives => {
                let held = |s: u8| holders.iter().filter(|h| **h == Some(s)).count();
                let (a, b) = (held(0), held(1));
                let w = match a.cmp(&b) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                (w, format!("the turn limit ({limit}) is reached with objectives held {a} to {b}"))
            }
        }
    }
}

/// A scenario file, with the rule set's units `U` and options `R`.
#[derive(Clone, Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[serde(bound(deserialize = "U: DeserializeOwned, R: DeserializeOwned + Default"))]
#[schemars(bound = "U: JsonSchema, R: JsonSchema + Default + serde::Serialize")]
pub struct Scenario<U, R> {
    /// The battle's name.
    pub name: String,
    /// The rule set id, such as `blown-away`.
    pub ruleset: String,
    /// The rule set's variant, such as `chance`.
    #[serde(default)]
    pub variant: Option<String>,
    /// A paragraph for the list of scenarios.
    #[serde(default)]
    pub description: String,
    /// Sources, and what had to be guessed.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Table size.
    pub table: TableSpec,
    /// Terrain features.
    #[serde(default)]
    #[schemars(with = "Vec<TerrainSpec>")]
    pub terrain: Vec<Spanned<TerrainSpec>>,
    /// Objectives.
    #[serde(default)]
    #[schemars(with = "Vec<ObjectiveSpec>")]
    pub objectives: Vec<Spanned<ObjectiveSpec>>,
    /// The sides, usually two.
    #[schemars(with = "Vec<SideSpec<U>>")]
    pub sides: Vec<Spanned<SideSpec<U>>>,
    /// Last turn to be played, if any.
    #[serde(default)]
    pub turn_limit: Option<u32>,
    /// What reaching the turn limit means.
    #[serde(default)]
    pub at_turn_limit: AtTurnLimit,
    /// The rule set's own options.
    #[serde(default)]
    pub rules: R,
}

/// Read only the `ruleset` (and `variant`) keys of a scenario file.
pub fn probe(src: &Source) -> Result<(String, Option<String>), Diagnostic> {
    #[derive(Deserialize)]
    struct Probe {
        ruleset: Option<String>,
        variant: Option<String>,
    }
    let p: Probe = toml::from_str(&src.text).map_err(|e| toml_error(src, &e))?;
    match p.ruleset {
        Some(r) => Ok((r, p.variant)),
        None => Err(src.error_whole("missing key `ruleset`: expected the rule set id, such as \"blown-away\"")),
    }
}

fn toml_error(src: &Source, e: &toml::de::Error) -> Diagnostic {
    let span = e.span().unwrap_or(0..0);
    src.error(span, in_plain_words(e.message().trim()).replace('\n', "; "))
}

/// A serde error message with the Rust type names it quotes (`f64`, `u8`, ...) put in the words
/// a person writing a scenario or a situation file uses: "a number", "a whole number from 0 to
/// 255".
pub fn in_plain_words(message: &str) -> String {
    let mut message = message.to_string();
    for (rust, words) in [
        ("expected f64", "expected a number"),
        ("expected i16", "expected a whole number from -32768 to 32767"),
        ("expected i32", "expected a whole number from -2147483648 to 2147483647"),
        ("expected u8", "expected a whole number from 0 to 255"),
        ("expected u16", "expected a whole number from 0 to 65535"),
        ("expected u32", "expected a whole number from 0 to 4294967295"),
        ("expected u64", "expected a whole number from 0 to 18446744073709551615"),
    ] {
        message = message.replace(rust, words);
    }
    message
}

/// An area from `polygon` or `rect`, checked.
fn area(
    src: &Source,
    span: Range<usize>,
    what: &str,
    polygon: &Option<Vec<Point>>,
    rect: &Option<[f64; 4]>,
    errors: &mut Vec<Diagnostic>,
) -> Vec<Point> {
    match (polygon, rect) {
        (Some(p), None) => {
            if p.len() < 3 {
                errors.push(
                    src.error(span.clone(), format!("{what}: a polygon needs at least 3 points, found {}", p.len())),
                );
            }
            if !p.iter().all(|q| q.x.is_finite() && q.y.is_finite()) {
                errors.push(src.error(span, format!("{what}: every point of a polygon must be two numbers")));
                return Vec::new();
            }
            p.clone()
        }
        (None, Some([x0, y0, x1, y1])) => {
            if ![x0, y0, x1, y1].iter().all(|v| v.is_finite()) {
                errors.push(src.error(span, format!("{what}: rect must be four numbers")));
                return Vec::new();
            }
            if x1 <= x0 || y1 <= y0 {
                errors.push(src.error(span, format!("{what}: rect must be [x0, y0, x1, y1] with x1 > x0 and y1 > y0")));
            }
            vec![Point::new(*x0, *y0), Point::new(*x1, *y0), Point::new(*x1, *y1), Point::new(*x0, *y1)]
        }
        _ => {
            errors.push(src.error(span, format!("{what}: expected exactly one of `polygon` or `rect`")));
            Vec::new()
        }
    }
}

/// Why `name` cannot name a unit, a side or an officer in an account, if it cannot: empty, or
/// holding a line break or another control character (it could forge lines of a battle's
/// account).
pub fn bad_name(name: &str) -> Option<&'static str> {
    if name.trim().is_empty() {
        Some("a name may not be empty")
    } else if name.chars().any(char::is_control) {
        Some("a name may not hold a line break or another control character")
    } else {
        None
    }
}

/// A `[rules]` percentage (such as `break_at`) from 1 to 100, or an error at its key.
pub fn check_percent(src: &Source, key: &str, value: u8, errors: &mut Vec<Diagnostic>) {
    if value == 0 || value > 100 {
        errors.push(src.error_at_key(&["rules", key], format!("[rules] {key} {value}: a percentage from 1 to 100")));
    }
}

/// Who holds each objective once `pieces` (each a side and a place: the units that may hold
/// ground) stand where they are: the side with a piece in it and no enemy piece; otherwise whoever
/// held it last (`holders`, in the objectives' order, is updated).
pub fn hold_objectives(objectives: &[Objective], holders: &mut [Option<u8>], pieces: &[(u8, Point)]) {
    for (o, h) in objectives.iter().zip(holders.iter_mut()) {
        let mut there = [false; 2];
        for &(side, at) in pieces {
            if volley_table::point_in_polygon(at, &o.points) {
                there[usize::from(side) & 1] = true;
            }
        }
        match there {
            [true, false] => *h = Some(0),
            [false, true] => *h = Some(1),
            _ => {}
        }
    }
}

/// A battle decided by a break percentage: each side's units `lost` (in the rule set's sense,
/// `what` says which) of those it began with; a side whose share reaches `break_at` percent is
/// broken and loses; both broken, a draw. The winner (none: a draw) and the reason, or `None` if
/// neither is broken.
pub fn broken_sides(
    sides: &[String; 2],
    lost: [(u32, u32); 2],
    break_at: u8,
    what: &str,
) -> Option<(Option<u8>, String)> {
    let broken = |s: usize| {
        let (n, start) = lost[s];
        start > 0 && u64::from(n) * 100 >= u64::from(break_at) * u64::from(start)
    };
    let words = |s: usize| format!("{}: {} of {} units {what}", sides[s], lost[s].0, lost[s].1);
    match (broken(0), broken(1)) {
        (true, true) => Some((None, format!("both sides are broken ({}; {}): a draw", words(0), words(1)))),
        (true, false) => Some((Some(1), format!("{} are broken ({}, at {break_at}%)", sides[0], words(0)))),
        (false, true) => Some((Some(0), format!("{} are broken ({}, at {break_at}%)", sides[1], words(1)))),
        (false, false) => None,
    }
}

/// "the Prussians'", "Daun's": a name's possessive for accounts.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') { format!("{name}'") } else { format!("{name}'s") }
}

/// A checked objective.
#[derive(Clone, Debug, PartialEq)]
pub struct Objective {
    /// Name.
    pub name: String,
    /// Outline.
    pub points: Vec<Point>,
}

/// A measured table's terrain as a [`volley_core::View`] draws it.
pub fn view_terrain(table: &Table) -> Vec<volley_core::ViewFeature> {
    table
        .features()
        .iter()
        .map(|f| volley_core::ViewFeature {
            kind: format!("{:?}", f.kind).to_lowercase(),
            name: f.name.clone(),
            points: f.points.iter().map(|&p| p.into()).collect(),
            closed: !f.kind.is_linear(),
        })
        .collect()
}

/// A unit's reach as a view draws it: the sector of radius `r` about `at`, `half_angle` degrees
/// either side of `facing` (all round from 180), outlined in `steps` pieces of arc.
pub fn view_sector(
    label: String,
    at: Point,
    facing: f64,
    half_angle: f64,
    r: f64,
    steps: usize,
) -> volley_core::ViewRange {
    volley_core::ViewRange {
        label,
        points: volley_table::sector(at, facing, half_angle, r, steps).into_iter().map(Into::into).collect(),
    }
}

/// Objectives with the side holding each (`holders`, in the same order) as a view draws them.
pub fn view_objectives(objectives: &[Objective], holders: &[Option<u8>]) -> Vec<volley_core::ViewObjective> {
    objectives
        .iter()
        .zip(holders)
        .map(|(o, h)| volley_core::ViewObjective {
            name: o.name.clone(),
            points: o.points.iter().map(|&p| p.into()).collect(),
            holder: *h,
        })
        .collect()
}

/// The longest side a table may have, in its measure (in inches, about 830 feet: ten times the
/// largest bundled battle laid side by side is under a thousand).
pub const MAX_TABLE_SIDE: f64 = 10_000.0;

/// The most units a battle may hold, both sides together: actions and logs number units with
/// 16 bits, and ten times the largest bundled battle is under five hundred.
pub const MAX_UNITS: usize = 10_000;

/// The measure a rule set's table is in, for what a scenario's diagnostics say.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// Inches (most rule sets).
    Inches,
    /// Centimetres (En Avant).
    Centimetres,
}

impl Measure {
    /// The measure's name, in the plural: `inches`, `centimetres`.
    pub fn plural(self) -> &'static str {
        match self {
            Measure::Inches => "inches",
            Measure::Centimetres => "centimetres",
        }
    }
}

impl<U: DeserializeOwned, R: DeserializeOwned + Default> Scenario<U, R> {
    /// Parse and check the common part of a scenario whose table is in inches. The rule set
    /// checks its own parts.
    pub fn parse(src: &Source) -> Result<Self, Diagnostics> {
        Self::parse_in(src, Measure::Inches)
    }

    /// [`Scenario::parse`] for a rule set whose table is in `measure`: the diagnostics give
    /// sizes in it.
    pub fn parse_in(src: &Source, measure: Measure) -> Result<Self, Diagnostics> {
        let s: Self = toml::from_str(&src.text).map_err(|e| Diagnostics::from(toml_error(src, &e)))?;
        let mut errors = Vec::new();
        let unit = measure.plural();
        if !(s.table.width > 0.0 && s.table.depth > 0.0) {
            errors.push(src.error_at_key(&["table"], format!("table: width and depth must be positive {unit}")));
        } else if !(s.table.width <= MAX_TABLE_SIDE && s.table.depth <= MAX_TABLE_SIDE) {
            errors.push(src.error_at_key(
                &["table"],
                format!(
                    "table: width and depth are at most {MAX_TABLE_SIDE} {unit}, found {} by {}",
                    s.table.width, s.table.depth
                ),
            ));
        }
        let on_table = |p: &Point| p.x >= 0.0 && p.y >= 0.0 && p.x <= s.table.width && p.y <= s.table.depth;
        let _ = s.table_with_terrain_checked(src, &mut errors);
        let _ = s.objectives_checked(src, &mut errors);
        if s.sides.len() != 2 {
            errors.push(src.error_whole(format!("expected exactly 2 [[sides]], found {}", s.sides.len())));
        }
        for (i, side) in s.sides.iter().enumerate() {
            let sd = side.get_ref();
            if s.sides[..i].iter().any(|o| o.get_ref().name == sd.name) {
                errors.push(src.error(side.span(), format!("two sides are named {:?}", sd.name)));
            }
            for n in [&sd.name, &sd.commander.name] {
                if let Some(why) = bad_name(n) {
                    errors.push(src.error(side.span(), format!("{n:?}: {why}")));
                }
            }
            if !on_table(&sd.commander.at) {
                errors.push(src.error(
                    side.span(),
                    format!("side {:?}: commander {} is off the table", sd.name, sd.commander.name),
                ));
            }
            if sd.units.is_empty() {
                errors.push(src.error(side.span(), format!("side {:?} has no units", sd.name)));
            }
        }
        let units: usize = s.sides.iter().map(|x| x.get_ref().units.len()).sum();
        if units > MAX_UNITS {
            errors.push(src.error_whole(format!(
                "a battle holds at most {MAX_UNITS} units, both sides together; this one has {units}"
            )));
        }
        if s.sides.len() == 2 && s.sides[0].get_ref().rear_edge == s.sides[1].get_ref().rear_edge {
            errors.push(src.error(s.sides[1].span(), "both sides have the same rear edge"));
        }
        if s.turn_limit == Some(0) {
            errors.push(src.error_at_key(&["turn_limit"], "turn_limit must be at least 1"));
        }
        if let AtTurnLimit::Win(name) = &s.at_turn_limit
            && !s.sides.iter().any(|x| &x.get_ref().name == name)
        {
            errors.push(
                src.error_at_key(&["at_turn_limit"], format!("at_turn_limit names {name:?}, which is not a side")),
            );
        }
        if errors.is_empty() { Ok(s) } else { Err(Diagnostics(errors)) }
    }

    fn table_with_terrain_checked(&self, src: &Source, errors: &mut Vec<Diagnostic>) -> Table {
        let mut table = Table::new(self.table.width, self.table.depth);
        for t in &self.terrain {
            let spec = t.get_ref();
            let name = spec.name.clone().unwrap_or_else(|| format!("{:?}", spec.kind).to_lowercase());
            let points = if spec.kind.is_linear() {
                if spec.polygon.is_some() || spec.rect.is_some() {
                    errors.push(
                        src.error(
                            t.span(),
                            format!("{name}: a {:?} is a `line`, not an area", spec.kind).to_lowercase(),
                        ),
                    );
                }
                match &spec.line {
                    Some(l) if l.len() >= 2 && !l.iter().all(|q| q.x.is_finite() && q.y.is_finite()) => {
                        errors.push(src.error(t.span(), format!("{name}: every point of a line must be two numbers")));
                        Vec::new()
                    }
                    Some(l) if l.len() >= 2 => l.clone(),
                    _ => {
                        errors.push(src.error(t.span(), format!("{name}: expected `line` with at least 2 points")));
                        Vec::new()
                    }
                }
            } else {
                if spec.line.is_some() {
                    errors.push(src.error(t.span(), format!("{name}: an area takes `polygon` or `rect`, not `line`")));
                }
                area(src, t.span(), &name, &spec.polygon, &spec.rect, errors)
            };
            table.add(Feature { kind: spec.kind, name, points });
        }
        table
    }

    fn objectives_checked(&self, src: &Source, errors: &mut Vec<Diagnostic>) -> Vec<Objective> {
        self.objectives
            .iter()
            .map(|o| {
                let spec = o.get_ref();
                let points = area(src, o.span(), &spec.name, &spec.polygon, &spec.rect, errors);
                Objective { name: spec.name.clone(), points }
            })
            .collect()
    }

    /// The rule set's own first checks: the file names rule set `id`, and names a variant only if
    /// the rule set has variants (`variants`: it then checks which itself).
    pub fn check_ruleset(&self, src: &Source, id: &str, variants: bool, errors: &mut Vec<Diagnostic>) {
        if self.ruleset != id {
            errors.push(src.error_at_key(&["ruleset"], format!("ruleset {:?}: expected {id:?}", self.ruleset)));
        }
        if let (Some(v), false) = (&self.variant, variants) {
            errors.push(src.error_at_key(&["variant"], format!("variant {v:?}: {id} has no variants")));
        }
    }

    /// The table with its terrain (the file must have passed [`Scenario::parse`]).
    pub fn build_table(&self, src: &Source) -> Table {
        self.table_with_terrain_checked(src, &mut Vec::new())
    }

    /// The objectives (the file must have passed [`Scenario::parse`]).
    pub fn build_objectives(&self, src: &Source) -> Vec<Objective> {
        self.objectives_checked(src, &mut Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_side_breaks_at_its_percentage_and_objectives_go_to_whoever_alone_stands_there() {
        let sides = ["A".to_string(), "B".to_string()];
        assert_eq!(broken_sides(&sides, [(2, 5), (1, 4)], 50, "gone"), None);
        let (w, why) = broken_sides(&sides, [(3, 6), (1, 4)], 50, "gone").unwrap();
        assert_eq!(w, Some(1));
        assert!(why.contains("A: 3 of 6 units gone") && why.contains("at 50%"), "{why}");
        assert_eq!(broken_sides(&sides, [(3, 6), (2, 4)], 50, "gone").unwrap().0, None, "both: a draw");
        let square = Objective {
            name: "o".into(),
            points: vec![Point::new(0.0, 0.0), Point::new(10.0, 0.0), Point::new(10.0, 10.0), Point::new(0.0, 10.0)],
        };
        let mut holders = vec![None];
        let inside = Point::new(5.0, 5.0);
        hold_objectives(std::slice::from_ref(&square), &mut holders, &[(1, inside), (0, Point::new(20.0, 5.0))]);
        assert_eq!(holders, [Some(1)]);
        hold_objectives(std::slice::from_ref(&square), &mut holders, &[(1, inside), (0, inside)]);
        assert_eq!(holders, [Some(1)], "contested: the last holder keeps it");
        assert_eq!(possessive("Prussians"), "Prussians'");
    }

    #[test]
    fn names_that_could_forge_an_account_are_refused() {
        assert_eq!(bad_name("IR 15 Garde"), None);
        assert!(bad_name("IR 15\nturn 11 begins").is_some());
        assert!(bad_name("  ").is_some());
        let text = GOOD.replace("name = \"A\"", "name = \"A\\nB\"");
        let e = parse(&text).unwrap_err().to_string();
        assert!(e.contains("line break"), "{e}");
    }

    #[test]
    fn the_turn_limit_decides_as_the_scenario_says() {
        let sides = ["Blue".to_string(), "Red".to_string()];
        let held = [Some(1), None, Some(1), Some(0)];
        assert_eq!(AtTurnLimit::Draw.decide(8, &sides, &held).0, None);
        assert_eq!(AtTurnLimit::Win("Red".into()).decide(8, &sides, &held).0, Some(1));
        let (w, why) = AtTurnLimit::MostObjectives.decide(8, &sides, &held);
        assert_eq!(w, Some(1));
        assert!(why.contains("held 1 to 2"), "{why}");
        assert_eq!(AtTurnLimit::MostObjectives.decide(8, &sides, &held[..2]).0, Some(1));
        assert_eq!(AtTurnLimit::MostObjectives.decide(8, &sides, &[Some(0), Some(1)]).0, None, "equal: a draw");
    }

    #[derive(Debug, Deserialize, JsonSchema)]
    #[serde(deny_unknown_fields)]
    struct U {
        #[allow(dead_code)]
        name: String,
    }

    const GOOD: &str = r#"name = "T"
ruleset = "x"
[table]
width = 96
depth = 60
[[terrain]]
kind = "woods"
rect = [10, 10, 20, 20]
[[objectives]]
name = "hill"
rect = [40, 28, 44, 32]
[[sides]]
name = "A"
rear_edge = "south"
commander = { name = "a", at = [1, 1] }
units = [{ name = "u" }]
[[sides]]
name = "B"
rear_edge = "north"
commander = { name = "b", at = [1, 59] }
units = [{ name = "v" }]
"#;

    fn parse(text: &str) -> Result<Scenario<U, ()>, Diagnostics> {
        Scenario::<U, ()>::parse(&Source::new("t.toml", text))
    }

    #[test]
    fn a_good_file_parses() {
        let s = parse(GOOD).unwrap();
        assert_eq!(s.sides.len(), 2);
        assert_eq!(s.build_objectives(&Source::new("t", GOOD))[0].points.len(), 4);
    }

    #[test]
    fn an_unknown_key_names_its_line_and_column() {
        let bad = GOOD.replace("turn", "x").replace("depth = 60", "depth = 60\ncolour = \"green\"");
        let e = parse(&bad).unwrap_err();
        let d = &e.0[0];
        assert_eq!((d.line, d.col), (6, 1), "{e}");
        assert!(d.message.contains("colour"), "{e}");
    }

    #[test]
    fn a_bad_value_says_what_was_expected() {
        let bad = GOOD.replace("kind = \"woods\"", "kind = \"swamp\"");
        let e = parse(&bad).unwrap_err().to_string();
        assert!(e.starts_with("t.toml:7:8:"), "{e}");
        assert!(e.contains("woods"), "the message lists the kinds: {e}");
    }

    #[test]
    fn a_table_of_absurd_size_is_refused_before_anything_is_built_on_it() {
        for depth in ["1e9", "inf", "nan", "0", "-60"] {
            let e = parse(&GOOD.replace("depth = 60", &format!("depth = {depth}"))).unwrap_err().to_string();
            assert!(e.contains("table: width and depth"), "{depth}: {e}");
        }
        assert!(parse(&GOOD.replace("depth = 60", "depth = 10000")).is_ok());
    }

    #[test]
    fn a_battle_of_more_units_than_actions_can_number_is_refused() {
        let many = |n: usize| {
            let list: Vec<String> = (0..n).map(|i| format!("{{ name = \"u{i}\" }}")).collect();
            GOOD.replace("units = [{ name = \"u\" }]", &format!("units = [{}]", list.join(", ")))
        };
        assert!(parse(&many(MAX_UNITS - 1)).is_ok(), "with side B's one: the most");
        let e = parse(&many(MAX_UNITS)).unwrap_err().to_string();
        assert!(e.contains("at most 10000 units") && e.contains("has 10001"), "{e}");
    }

    #[test]
    fn semantic_errors_point_at_the_entry() {
        let bad = GOOD.replace("rect = [10, 10, 20, 20]", "polygon = [[1, 1], [2, 2]]");
        let e = parse(&bad).unwrap_err();
        assert_eq!(e.0[0].line, 6, "{e}");
        assert!(e.0[0].message.contains("at least 3 points"), "{e}");
    }

    #[test]
    fn line_col_counts_characters() {
        let s = Source::new("f", "ab\ncé d");
        assert_eq!(s.line_col(0), (1, 1));
        assert_eq!(s.line_col(3), (2, 1));
        assert_eq!(s.line_col(6), (2, 3));
    }

    #[test]
    fn probe_reads_the_ruleset_first() {
        assert_eq!(probe(&Source::new("f", GOOD)).unwrap().0, "x");
        let e = probe(&Source::new("f", "name = \"x\"")).unwrap_err();
        assert!(e.message.contains("ruleset"));
    }
}
