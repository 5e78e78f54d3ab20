//! The scenarios shipped inside the binary (so `volley play crossroads` works anywhere), and
//! loading any scenario into a game of its rule set.

use crate::live::{Erased, Live};

/// A bundled scenario.
pub struct Bundled {
    /// Short name, such as `crossroads`.
    pub name: &'static str,
    /// Its path in the repository.
    pub path: &'static str,
    /// Its text.
    pub text: &'static str,
}

macro_rules! bundle {
    ($($name:literal => $file:literal),* $(,)?) => {
        /// Every bundled scenario.
        pub const SCENARIOS: &[Bundled] = &[$(Bundled {
            name: $name,
            path: concat!("scenarios/", $file),
            text: include_str!(concat!("../../../scenarios/", $file)),
        }),*];
    };
}

bundle! {
    "advance-guard" => "blown-away/advance-guard.toml",
    "crossroads" => "blown-away/crossroads.toml",
    "fieldworks" => "blown-away/fieldworks.toml",
    "seven-years-war-chance" => "blown-away/seven-years-war-chance.toml",
    "seven-years-war-without-chance" => "blown-away/seven-years-war-without-chance.toml",
    "elands-ridge" => "itchy-scratchy/elands-ridge.toml",
    "hochdorf-mill" => "itchy-scratchy/hochdorf-mill.toml",
    "attack-on-the-ridge" => "old-fritz/attack-on-the-ridge.toml",
    "mittelhof" => "old-fritz/mittelhof.toml",
    "lobositz" => "der-alte-fritz/lobositz.toml",
    "the-village" => "der-alte-fritz/the-village.toml",
    "the-farm" => "en-avant/the-farm.toml",
    "the-heath" => "en-avant/the-heath.toml",
}

/// A bundled scenario by its short name or repository path.
pub fn find(name: &str) -> Option<&'static Bundled> {
    SCENARIOS.iter().find(|b| b.name == name || b.path == name)
}

/// Why a scenario named on a command line or in a call could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// Neither a file that can be read nor a bundled scenario's name.
    #[error("cannot read scenario {name:?} (not a file, and not a bundled scenario: see `volley scenarios`): {why}")]
    Unreadable {
        /// The name or path given.
        name: String,
        /// Why the file could not be read.
        why: std::io::Error,
    },
    /// An empty name.
    #[error("no scenario named: give a bundled scenario's name or a scenario file's path")]
    Empty,
    /// The file is not UTF-8 text.
    #[error("{0}")]
    NotText(volley_scenario::Diagnostic),
}

/// A scenario by a file's path or a bundled scenario's name: a file that exists is read (so a
/// file may share a bundled scenario's name), else the bundled one.
///
/// # Errors
/// Neither can be read, or the file is not UTF-8 text (told at its line and column).
pub fn source(name: &str) -> Result<volley_scenario::Source, SourceError> {
    if name.trim().is_empty() {
        return Err(SourceError::Empty);
    }
    if let Some(b) = find(name)
        && !std::path::Path::new(name).exists()
    {
        return Ok(volley_scenario::Source::new(b.path, b.text));
    }
    let bytes = read_file(std::path::Path::new(name), SCENARIO_LIMIT)
        .map_err(|why| SourceError::Unreadable { name: name.to_string(), why })?;
    volley_scenario::Source::from_bytes(name, bytes).map_err(SourceError::NotText)
}

/// The most a scenario file may hold: 16 MiB (ten Mittelhofs side by side, 420 units, take about
/// a tenth of that).
pub const SCENARIO_LIMIT: u64 = 16 << 20;

/// A file's bytes, if it is a regular file of at most `limit` bytes: a device (`/dev/zero`), a
/// folder or a pipe is refused, and so is a file larger than the limit, before any of it is read
/// into memory.
///
/// # Errors
/// The file cannot be opened or read, is not a regular file, or is too large (each an
/// [`std::io::Error`] whose words say which).
pub fn read_file(path: &std::path::Path, limit: u64) -> Result<Vec<u8>, std::io::Error> {
    use std::io::Read;
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a device, a folder or a pipe): give a file's path",
        ));
    }
    let too_big = |n: u64| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{n} bytes or more, larger than the {} MiB read at most", limit >> 20),
        )
    };
    if meta.len() > limit {
        return Err(too_big(meta.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(meta.len()).unwrap_or(0));
    // (A file that grows while it is read is cut off at the limit, and refused.)
    file.take(limit + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_big(limit + 1));
    }
    Ok(bytes)
}

/// Makes every list of rule sets from the one below: the ids, the battle of any rule set
/// ([`Loaded`]), loading one, and the macros that run code for any rule set's types
/// ([`with_battle!`](crate::with_battle), [`with_ruleset!`](crate::with_ruleset),
/// [`with_calculator!`](crate::with_calculator)). Rule sets whose battle is not built yet are
/// listed apart, with their calculator only. `$d` is a `$`, for the macros it defines.
macro_rules! define_rulesets {
    ($d:tt $( $variant:ident : $krate:ident {
        battle: $($battle:ident)::+,
        combat: $($combat:ident)::+,
        situation: $($situation:ident)::+,
        file: $($file:ident)::+ $(,)?
    } ),* $(,)?;
    calculators only: $( $ckrate:ident {
        combat: $($ccombat:ident)::+,
        situation: $($csituation:ident)::+ $(,)?
    } ),* $(,)?) => {
        $(
            #[doc = concat!("The rule set `", stringify!($krate), "`, for the macros' use in other crates.")]
            pub use $krate;
        )*
        $(
            #[doc = concat!("The rule set `", stringify!($ckrate), "` (its calculator so far), for the macros' use in other crates.")]
            pub use $ckrate;
        )*

        /// The rule sets whose umpire's calculator this build has, by id: those it plays, and
        /// those whose battle is not built yet.
        pub const CALCULATORS: &[&str] = &[$( $krate::RULESET_ID, )* $( $ckrate::RULESET_ID, )*];

        /// `$body` with type aliases for the calculator of the rule set whose id is `$id`, and
        /// its situation; `$other` if this build has no such calculator.
        #[macro_export]
        macro_rules! with_calculator {
            ($d id:expr, $d combat:ident, $d situation:ident => $d body:expr, else $d other:expr) => {
                'found: {
                let id: &str = $d id;
                $(
                    if id == $crate::catalog::$krate::RULESET_ID {
                        #[allow(dead_code)]
                        type $d combat = $crate::catalog::$krate::$($combat)::+;
                        #[allow(dead_code)]
                        type $d situation = $crate::catalog::$krate::$($situation)::+;
                        break 'found $d body;
                    }
                )*
                $(
                    if id == $crate::catalog::$ckrate::RULESET_ID {
                        #[allow(dead_code)]
                        type $d combat = $crate::catalog::$ckrate::$($ccombat)::+;
                        #[allow(dead_code)]
                        type $d situation = $crate::catalog::$ckrate::$($csituation)::+;
                        break 'found $d body;
                    }
                )*
                $d other
                }
            };
        }

        /// The rule sets this build plays, by id.
        pub const RULESETS: &[&str] = &[$( $krate::RULESET_ID ),*];

        /// Every rule set this build knows (plays, or has the calculator of): id, name, and
        /// whether its calculator ever draws (dice or cards).
        pub const NAMES: &[(&str, &str, bool)] = &[$( ($krate::RULESET_ID, $krate::RULESET_NAME, $krate::RULESET_DRAWS), )* $( ($ckrate::RULESET_ID, $ckrate::RULESET_NAME, $ckrate::RULESET_DRAWS), )*];

        /// A battle of any rule set this build plays.
        pub enum Loaded {
            $(
                #[doc = concat!("A battle of `", stringify!($krate), "`.")]
                $variant($krate::$($battle)::+),
            )*
        }

        impl Loaded {
            /// Its rule set's id.
            pub fn id(&self) -> &'static str {
                match self {
                    $( Loaded::$variant(_) => $krate::RULESET_ID, )*
                }
            }
        }

        /// A scenario made into a battle of its rule set (named in the file).
        pub fn load_battle(src: &volley_scenario::Source) -> Result<Loaded, volley_scenario::Diagnostics> {
            let (rs, _) = volley_scenario::probe(src)?;
            $(
                if rs == $krate::RULESET_ID {
                    return $krate::load(src).map(Loaded::$variant);
                }
            )*
            Err(src.error_whole(format!("unknown rule set {rs:?}: this build plays {RULESETS:?}")).into())
        }

        /// `$body` with `$b` bound to the battle in `$loaded` (a [`Loaded`]), whatever its rule set:
        /// the body is generic code, compiled once for each.
        #[macro_export]
        macro_rules! with_battle {
            ($d loaded:expr, $d b:ident => $d body:expr) => {
                match $d loaded {
                    $( $crate::catalog::Loaded::$variant($d b) => $d body, )*
                }
            };
        }

        /// `$body` with type aliases for the rule set whose id is `$id`: its battle, its
        /// calculator, the calculator's situation and its scenario file; `$other` if this build
        /// plays no such rule set.
        #[macro_export]
        macro_rules! with_ruleset {
            ($d id:expr, $d battle:ident, $d combat:ident, $d situation:ident, $d file:ident => $d body:expr, else $d other:expr) => {
                'found: {
                let id: &str = $d id;
                $(
                    if id == $crate::catalog::$krate::RULESET_ID {
                        #[allow(dead_code)]
                        type $d battle = $crate::catalog::$krate::$($battle)::+;
                        #[allow(dead_code)]
                        type $d combat = $crate::catalog::$krate::$($combat)::+;
                        #[allow(dead_code)]
                        type $d situation = $crate::catalog::$krate::$($situation)::+;
                        #[allow(dead_code)]
                        type $d file = $crate::catalog::$krate::$($file)::+;
                        break 'found $d body;
                    }
                )*
                $d other
                }
            };
        }
    };
}

// The one list of rule sets: the command line, the server, the umpire's desk and the laboratory
// read it. Adding a rule set is one entry here (and its scenarios).
define_rulesets! { $
    BlownAway: volley_blown_away {
        battle: Battle,
        combat: calc::Combat,
        situation: calc::Situation,
        file: ScenarioFile,
    },
    ItchyScratchy: volley_itchy_scratchy {
        battle: Battle,
        combat: combat::Combat,
        situation: combat::Situation,
        file: ScenarioFile,
    },
    OldFritz: volley_old_fritz {
        battle: Battle,
        combat: combat::Combat,
        situation: combat::Situation,
        file: ScenarioFile,
    },
    DerAlteFritz: volley_der_alte_fritz {
        battle: Battle,
        combat: combat::Combat,
        situation: combat::Situation,
        file: ScenarioFile,
    },
    EnAvant: volley_en_avant {
        battle: Battle,
        combat: combat::Combat,
        situation: combat::Situation,
        file: ScenarioFile,
    };
    calculators only:
}

/// A scenario's text, checked and made into a new game of its rule set: (rule set id, game).
pub fn load(src: &volley_scenario::Source) -> Result<(&'static str, Box<dyn Live>), volley_scenario::Diagnostics> {
    let battle = load_battle(src)?;
    let id = battle.id();
    Ok((id, with_battle!(battle, b => Box::new(Erased(b)) as Box<dyn Live>)))
}

/// A scenario for a list (a card on the first page): name, rule set, variant, description.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Listed {
    /// Short name: a bundled scenario's, or a folder's file name without `.toml`.
    pub name: String,
    /// Rule set id.
    pub ruleset: String,
    /// Variant, if any.
    pub variant: Option<String>,
    /// The scenario's own name.
    pub title: String,
    /// Its description.
    pub description: String,
    /// The sides' names (the armies), where the scenario names them.
    pub sides: Vec<String>,
    /// The file it was read from (its name, without the folder), for a scenario not bundled.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// How many turns it lasts at most, where the file says.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub turns: Option<u32>,
    /// How many units each side has (a bundled scenario's; its size at a glance).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<[usize; 2]>,
}

/// Every bundled scenario, described.
pub fn list() -> Vec<Listed> {
    static CARDS: std::sync::OnceLock<Vec<Listed>> = std::sync::OnceLock::new();
    CARDS
        .get_or_init(|| {
            SCENARIOS
                .iter()
                .filter_map(|b| {
                    let mut c = card(b.name, b.text, None)?;
                    c.units = units(b);
                    Some(c)
                })
                .collect()
        })
        .clone()
}

/// How many units each side of a bundled scenario has, as the umpire sees it before the battle
/// (a secret deployment's units included).
fn units(b: &Bundled) -> Option<[usize; 2]> {
    let (_, live) = load(&volley_scenario::Source::new(b.path, b.text)).ok()?;
    let view = live.view(volley_core::Viewer::Umpire);
    let mut seen = std::collections::HashSet::new();
    let mut n = [0, 0];
    for p in &view.pieces {
        if let (Some(u), Some(side)) = (&p.unit, p.side)
            && side < 2
            && seen.insert(u.clone())
        {
            n[usize::from(side)] += 1;
        }
    }
    Some(n)
}

/// A scenario's card from its text, without loading it: `name` is its name in lists, `file` its
/// file's; the rest is what the file says of itself. `None` if its top-level keys do not read (a
/// scenario that loads always reads).
pub fn card(name: &str, text: &str, file: Option<&str>) -> Option<Listed> {
    #[derive(serde::Deserialize)]
    struct Head {
        name: String,
        ruleset: String,
        #[serde(default)]
        variant: Option<String>,
        #[serde(default)]
        description: String,
        #[serde(default)]
        sides: Vec<SideHead>,
        #[serde(default)]
        turn_limit: Option<u32>,
    }
    #[derive(serde::Deserialize)]
    struct SideHead {
        name: String,
    }
    let h: Head = toml_head(text)?;
    Some(Listed {
        name: name.to_string(),
        ruleset: h.ruleset,
        variant: h.variant,
        title: h.name,
        description: h.description,
        sides: h.sides.into_iter().map(|s| s.name).collect(),
        file: file.map(str::to_string),
        turns: h.turn_limit,
        units: None,
    })
}

/// A scenario's text checked as `volley check` checks it, and made into its card and its table
/// before the battle, as the umpire sees it (the file is public) (the first page's picture). `name` is its name in
/// lists; `src.path` names the file in diagnostics.
///
/// # Errors
/// The scenario does not load: every problem, at its line and column.
pub fn check(
    name: &str,
    src: &volley_scenario::Source,
) -> Result<(Listed, volley_core::View), volley_scenario::Diagnostics> {
    let (_, live) = load(src)?;
    let file = std::path::Path::new(&src.path).file_name().map(|f| f.to_string_lossy().into_owned());
    let card = card(name, &src.text, file.as_deref()).ok_or_else(|| {
        src.error_whole("the scenario loads, but its name, rule set, description or sides do not read")
    })?;
    Ok((card, live.view(volley_core::Viewer::Umpire)))
}

/// The scenarios a server offers: the bundled ones, and those of a folder
/// (`volley serve --scenarios DIR`), each checked when the server starts. Cheap to clone.
#[derive(Clone, Default)]
pub struct Library {
    extra: std::sync::Arc<Vec<Offered>>,
}

/// A scenario of a folder, checked.
struct Offered {
    card: Listed,
    src: volley_scenario::Source,
    view: volley_core::View,
}

/// A scenario a [`Library`] offers, found by its name.
pub struct Found<'a> {
    /// Its name in lists (stored with a game made of it).
    pub name: &'a str,
    /// Its path: a bundled scenario's in the repository, or the file's as the folder was given.
    pub path: &'a str,
    /// Its text.
    pub text: &'a str,
}

impl Library {
    /// The bundled scenarios and `files` (their paths and texts; a file is named in lists by
    /// its name without the folder and `.toml`). Each file is checked as `volley check` checks
    /// it: one that does not load, or whose name a bundled scenario or an earlier file has, is
    /// left out, and its problems (`file:line:col: ...`) returned.
    pub fn with_files(files: Vec<volley_scenario::Source>) -> (Library, Vec<String>) {
        let mut extra: Vec<Offered> = Vec::new();
        let mut problems = Vec::new();
        for src in files {
            let p = std::path::Path::new(&src.path);
            let name = p.file_stem().map(|f| f.to_string_lossy().into_owned()).unwrap_or_default();
            if name.is_empty() {
                problems.push(src.error_whole("a file without a name").to_string());
                continue;
            }
            if let Some(b) = find(&name) {
                problems.push(
                    src.error_whole(format!(
                        "a bundled scenario is named {:?} ({}): rename the file to offer it",
                        name, b.path
                    ))
                    .to_string(),
                );
                continue;
            }
            if extra.iter().any(|o| o.card.name == name) {
                problems.push(src.error_whole(format!("another file is named {name:?}")).to_string());
                continue;
            }
            match check(&name, &src) {
                Ok((card, view)) => extra.push(Offered { card, src, view }),
                Err(e) => problems.push(e.to_string()),
            }
        }
        (Library { extra: std::sync::Arc::new(extra) }, problems)
    }

    /// Every scenario offered, described: the bundled ones, then the folder's.
    pub fn list(&self) -> Vec<Listed> {
        let mut all = list();
        all.extend(self.extra.iter().map(|o| o.card.clone()));
        all
    }

    /// The scenario offered as `name` (a bundled one's name or path, or a folder's file's name).
    pub fn find(&self, name: &str) -> Option<Found<'_>> {
        if let Some(b) = find(name) {
            return Some(Found { name: b.name, path: b.path, text: b.text });
        }
        self.extra.iter().find(|o| o.card.name == name).map(|o| Found {
            name: &o.card.name,
            path: &o.src.path,
            text: &o.src.text,
        })
    }

    /// The table of the scenario offered as `name` before the battle, as the umpire sees it (the file is public).
    pub fn preview(&self, name: &str) -> Option<volley_core::View> {
        match self.extra.iter().find(|o| o.card.name == name) {
            Some(o) => Some(o.view.clone()),
            None => preview(name),
        }
    }
}

/// A bundled scenario's table before the battle, as the umpire sees it (the first page's
/// picture of it); `None` if there is no such scenario.
pub fn preview(name: &str) -> Option<volley_core::View> {
    let bundled = find(name)?;
    let (_, live) = load(&volley_scenario::Source::new(bundled.path, bundled.text)).ok()?;
    // (As the umpire sees it: a secret deployment's units stand where the file puts them — the
    // file is public — rather than leaving the picture an empty table.)
    Some(live.view(volley_core::Viewer::Umpire))
}

/// The top-level keys of a scenario, ignoring the rest.
fn toml_head<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    toml::from_str(text).ok()
}
