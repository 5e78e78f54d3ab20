//! The battle log: JSON lines, one record a line.
//!
//! 1. a [`Header`]: the log format, rule set and variant, the scenario (where it was read from,
//!    a hash of its text, and the text itself, so a log replays even if the file is gone), the
//!    seed and the agents;
//! 2. one [`Entry`] per accepted action: who took it, the action, and every draw it made with
//!    what the draw was for;
//! 3. a [`Footer`]: the number of actions, the outcome and the final state hash;
//! 4. (in logs a server exports) a [`Signature`] of every line before it, by the server's key.
//!
//! A replay needs no random numbers: it feeds each entry's draws back in order. It can also
//! check them: every draw is what the rules asked for, and what the header's seed gives by the
//! header's [`DrawScheme`] — so a log whose draws were chosen, not drawn, is found out.

use serde::{Deserialize, Serialize};
use volley_chance::Draw;

use crate::{Actor, Outcome};

/// The log format this build writes and reads.
pub const FORMAT: &str = "volley-log/1";

/// The first line of a log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub format: String,
    /// Rule set id.
    pub ruleset: String,
    /// Variant, if the rule set has variants.
    pub variant: Option<String>,
    /// Where the scenario was read from.
    pub scenario_path: String,
    /// FNV-1a hash of the scenario text, hex.
    pub scenario_hash: String,
    /// The scenario text itself.
    pub scenario: String,
    /// The master seed.
    pub seed: u64,
    /// The agents' names by side, if computer-played.
    pub agents: Vec<String>,
    /// The seed was chosen by a person (a practice or analysis game), so its dice could be
    /// foreseen; not drawn in secret by the server.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub seed_chosen: bool,
    /// How the draws come from the seed.
    #[serde(default, skip_serializing_if = "DrawScheme::is_sequential")]
    pub draws: DrawScheme,
}

impl Header {
    /// The header of a battle that is played but not kept (a benchmark, an experiment): rule set
    /// `ruleset`, seed `seed`, no scenario text, no agents named.
    pub fn unkept(ruleset: &str, seed: u64) -> Self {
        Header {
            format: FORMAT.into(),
            ruleset: ruleset.into(),
            variant: None,
            scenario_path: String::new(),
            scenario_hash: String::new(),
            scenario: String::new(),
            seed,
            agents: Vec::new(),
            seed_chosen: false,
            draws: DrawScheme::default(),
        }
    }
}

/// How a log's draws come from its seed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawScheme {
    /// One generator seeded with the seed, drawn from in order through the whole battle
    /// (`volley play`).
    #[default]
    Sequential,
    /// A generator for each action `n`, seeded with `Seeded::derive(seed, n)` (the server's
    /// games created before [`DrawScheme::PerPublicAction`]).
    PerAction,
    /// A generator for each action, seeded by [`draw_seed`]: from the number of actions everyone
    /// may know of, so that a side's secret acts (orders sent) never change the dice of what
    /// follows — even to someone who knows the seed (the server's games).
    PerPublicAction,
}

/// The seed of the draws of an action under [`DrawScheme::PerPublicAction`]: for an action
/// everyone may know of, the `k`th such (from 1); for one kept secret, the `k`th kept secret by
/// the same actor — each side's secrets numbered apart, so that neither side's dice depend on
/// what the other keeps from it.
pub fn draw_seed(seed: u64, public: bool, by: crate::Actor, k: u64) -> u64 {
    use volley_chance::Seeded;
    if public {
        return Seeded::derive(seed, k);
    }
    let who = match by {
        crate::Actor::Side(s) => u64::from(s) + 1,
        crate::Actor::Umpire => 3,
        crate::Actor::Terminal => 4,
    };
    // "secret" in ASCII, to set the secret acts' streams apart from the public ones.
    Seeded::derive(Seeded::derive(seed ^ 0x7365_6372_6574, who), k)
}

impl DrawScheme {
    /// Whether this is the default, [`DrawScheme::Sequential`].
    pub fn is_sequential(&self) -> bool {
        *self == DrawScheme::Sequential
    }
}

/// A signature of a log: of every byte of its text before the signature's line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Signature {
    /// The signer's Ed25519 public key, hex.
    pub key: String,
    /// The Ed25519 signature, hex.
    pub ed25519: String,
}

/// One accepted action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(bound(deserialize = "A: serde::de::DeserializeOwned"))]
pub struct Entry<A> {
    /// Sequence number from 1.
    pub n: u64,
    /// Who took it.
    pub by: Actor,
    /// The action.
    pub action: A,
    /// The draws it made, in order, with what each was for.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub draws: Vec<Draw>,
}

/// The last line of a finished log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Footer {
    /// Number of actions.
    pub actions: u64,
    /// Turns played.
    pub turns: u32,
    /// The outcome, if the battle ended.
    pub outcome: Option<Outcome>,
    /// The final state hash, hex.
    pub state_hash: String,
}

/// One line of a log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[serde(bound(deserialize = "A: serde::de::DeserializeOwned"))]
pub enum Line<A> {
    /// The header.
    Header(Header),
    /// An action.
    Action(Entry<A>),
    /// The footer.
    End(Footer),
    /// A signature of every line before it.
    Signature(Signature),
}

/// A parsed log.
#[derive(Clone, Debug, PartialEq)]
pub struct Log<A> {
    /// The header.
    pub header: Header,
    /// The actions.
    pub entries: Vec<Entry<A>>,
    /// The footer, if the battle was finished when the log was written.
    pub footer: Option<Footer>,
    /// The signature, if the log was signed, and the text it signs.
    pub signature: Option<(Signature, String)>,
}

/// A log line that cannot be read.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// Not JSON of the right shape.
    #[error("line {line}: {message}")]
    Syntax {
        /// Line number from 1.
        line: usize,
        /// What was wrong.
        message: String,
    },
    /// Lines out of order or missing.
    #[error("line {line}: {message}")]
    Structure {
        /// Line number from 1.
        line: usize,
        /// What was wrong.
        message: String,
    },
}

/// The header of a log's text (its first line), read without the rest: enough to know which
/// rule set's actions the log holds before parsing it with [`Log::parse`].
pub fn read_header(text: &str) -> Result<Header, LogError> {
    let first = text.lines().next().unwrap_or_default();
    match serde_json::from_str::<Line<serde::de::IgnoredAny>>(first) {
        Ok(Line::Header(h)) => Ok(h),
        Ok(_) => Err(LogError::Structure { line: 1, message: "no header line".into() }),
        Err(e) => Err(LogError::Syntax { line: 1, message: e.to_string() }),
    }
}

impl<A: Serialize + serde::de::DeserializeOwned> Log<A> {
    /// Parse a log's text.
    pub fn parse(text: &str) -> Result<Self, LogError> {
        let mut header = None;
        let mut entries: Vec<Entry<A>> = Vec::new();
        let mut footer: Option<Footer> = None;
        let mut signature = None;
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            let line = i + 1;
            let start = offset;
            offset += raw.len();
            let raw = raw.trim_end_matches(['\n', '\r']);
            if raw.trim().is_empty() {
                continue;
            }
            if signature.is_some() {
                return Err(LogError::Structure { line, message: "nothing may follow the signature".into() });
            }
            let parsed: Line<A> =
                serde_json::from_str(raw).map_err(|e| LogError::Syntax { line, message: e.to_string() })?;
            match parsed {
                Line::Header(h) => {
                    if header.is_some() || line != 1 {
                        return Err(LogError::Structure {
                            line,
                            message: "the header must be the first line, once".into(),
                        });
                    }
                    if h.format != FORMAT {
                        return Err(LogError::Structure {
                            line,
                            message: format!("log format {:?} is not {FORMAT:?}", h.format),
                        });
                    }
                    header = Some(h);
                }
                Line::Action(e) => {
                    if header.is_none() || footer.is_some() {
                        return Err(LogError::Structure { line, message: "an action outside header and end".into() });
                    }
                    let expected = entries.len() as u64 + 1;
                    if e.n != expected {
                        return Err(LogError::Structure {
                            line,
                            message: format!(
                                "action {} where action {expected} should be: an entry is missing or moved",
                                e.n
                            ),
                        });
                    }
                    entries.push(e);
                }
                Line::End(f) => {
                    if header.is_none() || footer.is_some() {
                        return Err(LogError::Structure {
                            line,
                            message: "a second end, or an end before the header".into(),
                        });
                    }
                    if f.actions != entries.len() as u64 {
                        return Err(LogError::Structure {
                            line,
                            message: format!("the end counts {} actions, but the log has {}", f.actions, entries.len()),
                        });
                    }
                    footer = Some(f);
                }
                Line::Signature(sig) => {
                    if header.is_none() {
                        return Err(LogError::Structure { line, message: "a signature of nothing".into() });
                    }
                    signature = Some((sig, text[..start].to_string()));
                }
            }
        }
        let header = header.ok_or(LogError::Structure { line: 1, message: "no header line".into() })?;
        Ok(Log { header, entries, footer, signature })
    }

    /// The log as JSON lines, each ending in a newline.
    pub fn to_jsonl(&self) -> String {
        let mut out = String::new();
        let mut push = |l: &Line<&A>| {
            // Serialising plain data with string keys cannot fail.
            if let Ok(s) = serde_json::to_string(l) {
                out.push_str(&s);
                out.push('\n');
            }
        };
        push(&Line::Header(self.header.clone()));
        for e in &self.entries {
            push(&Line::Action(Entry { n: e.n, by: e.by, action: &e.action, draws: e.draws.clone() }));
        }
        if let Some(f) = &self.footer {
            push(&Line::End(f.clone()));
        }
        if let Some((sig, _)) = &self.signature {
            push(&Line::Signature(sig.clone()));
        }
        out
    }

    /// The line a signature of `text` (a log's lines, each ending in a newline) appends.
    pub fn signature_line(sig: &Signature) -> String {
        let mut s = serde_json::to_string(&Line::<A>::Signature(sig.clone())).unwrap_or_default();
        s.push('\n');
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            format: FORMAT.into(),
            ruleset: "itchy-scratchy".into(),
            variant: None,
            scenario_path: "s.toml".into(),
            scenario_hash: "0".into(),
            scenario: "name = \"s\"".into(),
            seed: 7,
            agents: vec!["random".into(), "heuristic".into()],
            seed_chosen: false,
            draws: DrawScheme::Sequential,
        }
    }

    #[test]
    fn the_header_reads_without_the_actions() {
        let log = Log {
            header: header(),
            entries: vec![Entry { n: 1, by: Actor::Side(0), action: 3u8, draws: vec![] }],
            footer: None,
            signature: None,
        };
        let text = log.to_jsonl();
        assert_eq!(read_header(&text).unwrap(), header());
        assert_eq!(Log::<u8>::parse(&text).unwrap(), log);
        let actions_only: String = text.lines().skip(1).collect();
        assert!(matches!(read_header(&actions_only), Err(LogError::Structure { line: 1, .. })));
        assert!(matches!(read_header("not json"), Err(LogError::Syntax { line: 1, .. })));
        assert!(matches!(read_header(""), Err(LogError::Syntax { line: 1, .. })));
    }

    #[test]
    fn entries_must_be_numbered_in_order_and_the_end_must_count_them() {
        let entry = |n| Entry { n, by: Actor::Side(0), action: 3u8, draws: vec![] };
        let footer = |actions| Footer { actions, turns: 1, outcome: None, state_hash: "0".into() };
        let log = |entries, footer| Log { header: header(), entries, footer, signature: None };
        assert!(Log::<u8>::parse(&log(vec![entry(1), entry(2)], Some(footer(2))).to_jsonl()).is_ok());
        let gap = Log::<u8>::parse(&log(vec![entry(1), entry(3)], None).to_jsonl()).unwrap_err();
        assert!(gap.to_string().contains("action 3 where action 2 should be"), "{gap}");
        let short = Log::<u8>::parse(&log(vec![entry(1), entry(2)], Some(footer(3))).to_jsonl()).unwrap_err();
        assert!(short.to_string().contains("counts 3 actions, but the log has 2"), "{short}");
        // A signature signs exactly the text before it; nothing may follow it.
        let mut text = log(vec![entry(1)], Some(footer(1))).to_jsonl();
        let signed = text.clone();
        text.push_str(&Log::<u8>::signature_line(&Signature { key: "k".into(), ed25519: "s".into() }));
        let parsed = Log::<u8>::parse(&text).unwrap();
        assert_eq!(parsed.signature.as_ref().map(|(_, t)| t.as_str()), Some(signed.as_str()));
        assert_eq!(parsed.to_jsonl(), text);
        text.push_str(signed.lines().nth(1).unwrap());
        assert!(Log::<u8>::parse(&text).is_err());
    }
}
