//! The scenarios shipped inside the binary, so `volley play crossroads` works anywhere.

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
