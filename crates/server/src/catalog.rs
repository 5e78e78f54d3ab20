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
}

/// A bundled scenario by its short name or repository path.
pub fn find(name: &str) -> Option<&'static Bundled> {
    SCENARIOS.iter().find(|b| b.name == name || b.path == name)
}

/// The rule sets this build plays.
pub const RULESETS: [&str; 3] =
    [volley_blown_away::RULESET_ID, volley_itchy_scratchy::RULESET_ID, volley_old_fritz::RULESET_ID];

/// A scenario's text, checked and made into a new game of its rule set: (rule set id, game).
pub fn load(src: &volley_scenario::Source) -> Result<(&'static str, Box<dyn Live>), volley_scenario::Diagnostics> {
    let (rs, _) = volley_scenario::probe(src)?;
    match rs.as_str() {
        volley_blown_away::RULESET_ID => {
            volley_blown_away::load(src).map(|b| (volley_blown_away::RULESET_ID, Box::new(Erased(b)) as Box<dyn Live>))
        }
        volley_itchy_scratchy::RULESET_ID => volley_itchy_scratchy::load(src)
            .map(|b| (volley_itchy_scratchy::RULESET_ID, Box::new(Erased(b)) as Box<dyn Live>)),
        volley_old_fritz::RULESET_ID => {
            volley_old_fritz::load(src).map(|b| (volley_old_fritz::RULESET_ID, Box::new(Erased(b)) as Box<dyn Live>))
        }
        _ => Err(src.error_whole(format!("unknown rule set {rs:?}: this build plays {RULESETS:?}")).into()),
    }
}

/// A bundled scenario for a list: name, rule set, variant, description.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Listed {
    /// Short name.
    pub name: &'static str,
    /// Rule set id.
    pub ruleset: String,
    /// Variant, if any.
    pub variant: Option<String>,
    /// The scenario's own name.
    pub title: String,
    /// Its description.
    pub description: String,
}

/// Every bundled scenario, described.
pub fn list() -> Vec<Listed> {
    #[derive(serde::Deserialize)]
    struct Head {
        name: String,
        ruleset: String,
        #[serde(default)]
        variant: Option<String>,
        #[serde(default)]
        description: String,
    }
    SCENARIOS
        .iter()
        .filter_map(|b| {
            let h: Head = toml_head(b.text)?;
            Some(Listed {
                name: b.name,
                ruleset: h.ruleset,
                variant: h.variant,
                title: h.name,
                description: h.description,
            })
        })
        .collect()
}

/// The top-level keys of a scenario, ignoring the rest.
fn toml_head<T: serde::de::DeserializeOwned>(text: &str) -> Option<T> {
    toml::from_str(text).ok()
}
