//! The rule-set abstraction every volley rule set implements, the battle log, and the machinery
//! that plays, records and replays a battle for any of them.
//!
//! * [`GameState`] — one battle in progress: who acts now, the candidate actions, validating
//!   and applying an action (drawing dice and cards through [`volley_chance::Chance`]), the
//!   outcome, and what a given viewer may see ([`View`]).
//! * [`Agent`] and [`Heuristic`] — computer players and the rule-set hook they use.
//! * [`log`] — the JSON-lines event log: a header naming the scenario and seed, then every
//!   action with the draws it made and what each was for, then the final state hash.
//! * [`run`] — play a battle with agents, recording the log; replay a log.
//! * [`conformance`] — the checks every rule set's tests run over many seeded battles.
//! * [`calc`] — the umpire's calculator: one combat resolved with its explanation, and exact odds.
//!
//! What this crate is not: it knows no rule set, reads no files and prints nothing.
#![deny(missing_docs)]

pub mod calc;
pub mod conformance;
mod hash;
pub mod log;
pub mod run;
mod short;
mod view;

use std::fmt::{self, Debug, Display};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use volley_chance::{Chance, DrawError};

pub use hash::{Fnv64, hash_serialized};
pub use short::Short;
pub use view::{
    Footprint, View, ViewCounter, ViewDeploy, ViewFeature, ViewMarker, ViewObjective, ViewPiece, ViewPlacement,
    ViewRange, ViewStanding,
};

/// A side's index in its scenario: 0 for the first side listed, 1 for the second.
pub type SideId = u8;

/// Who must decide next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// A side's player.
    Side(SideId),
    /// The umpire.
    Umpire,
    /// Nobody: the battle is over.
    Terminal,
}

/// Who is looking at a [`View`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Viewer {
    /// A side's player: sees what that side may see.
    Side(SideId),
    /// The umpire: sees everything.
    Umpire,
    /// A spectator: sees only what both sides may see.
    Spectator,
}

/// Where a battle stands, for the log and the screen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PhaseInfo {
    /// Turn number, from 1 (0 before play starts).
    pub turn: u32,
    /// The phase's name, such as "deployment" or "combat".
    pub phase: String,
    /// The side whose turn it is, if any.
    pub side: Option<SideId>,
}

/// How a battle ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// The winning side, or `None` for a draw.
    pub winner: Option<SideId>,
    /// Why, in words.
    pub reason: String,
}

/// An action the rules do not allow now, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
#[error("{reason}")]
pub struct Illegal {
    /// Why the action is refused.
    pub reason: String,
}

impl Illegal {
    /// An [`Illegal`] with this reason.
    pub fn new(reason: impl Into<String>) -> Self {
        Illegal { reason: reason.into() }
    }
}

/// Build an `Err(Illegal)` from a format string.
#[macro_export]
macro_rules! illegal {
    ($($arg:tt)*) => { Err($crate::Illegal::new(format!($($arg)*))) };
}

/// Why [`GameState::apply`] did not apply an action. In every case the state is untouched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ApplyError {
    /// The action breaks a rule.
    #[error("illegal: {0}")]
    Illegal(#[from] Illegal),
    /// A draw could not be made (a person must supply it, or supplied an impossible value).
    #[error("{0}")]
    Draw(#[from] DrawError),
}

/// One battle in progress under one rule set.
pub trait GameState: Clone + Send + 'static {
    /// What a player (or the umpire) may do.
    type Action: Clone + PartialEq + Debug + Serialize + DeserializeOwned + Send;
    /// What happened as a result, for accounts and the screen.
    type Event: Clone + Debug + Serialize + Display;

    /// Who must decide now.
    fn actor(&self) -> Actor;

    /// Turn and phase.
    fn phase(&self) -> PhaseInfo;

    /// A finite set of legal actions for the current actor (appended to `out`, which the
    /// caller clears). Never empty while the battle is not over.
    fn candidate_actions(&self, out: &mut Vec<Self::Action>);

    /// Whether `by` may take `action` now. Accepts any legal action, not only the candidates.
    /// The rule set itself refuses an action from anyone but its owner: a side's action from
    /// the other side, the umpire or nobody; an umpire's action (where the rules have any) from
    /// a side. [`check_actor`] is the common part of that check.
    fn validate_by(&self, by: Actor, action: &Self::Action) -> Result<(), Illegal>;

    /// Apply a legal action taken by `by`, drawing what it needs from `chance` and appending what
    /// happened to `events`. Every draw is made before anything changes: if a draw fails, or the
    /// action is illegal (or not `by`'s to take), the state is left exactly as it was.
    fn apply_by(
        &mut self,
        by: Actor,
        action: &Self::Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), ApplyError>;

    /// Why `by`'s action is refused, as the umpire reads it (`None` if it would be taken). A
    /// rule set whose players read their refusals in words without the rules (En Avant with its
    /// rules hidden) gives the umpire the rule here; by default it is the refusal `by` reads.
    fn refusal_for_umpire(&self, by: Actor, action: &Self::Action) -> Option<String> {
        self.validate_by(by, action).err().map(|e| e.reason)
    }

    /// [`GameState::validate_by`] for whoever must decide now ([`GameState::actor`]): what a
    /// computer player, or a test, taking its turn means.
    fn validate(&self, action: &Self::Action) -> Result<(), Illegal> {
        self.validate_by(self.actor(), action)
    }

    /// [`GameState::apply_by`] for whoever must decide now ([`GameState::actor`]). An umpire's
    /// action is never the actor's: it needs `apply_by(Actor::Umpire, ..)`.
    fn apply(
        &mut self,
        action: &Self::Action,
        chance: &mut dyn Chance,
        events: &mut Vec<Self::Event>,
    ) -> Result<(), ApplyError> {
        self.apply_by(self.actor(), action, chance, events)
    }

    /// `Some` once the battle is over.
    fn outcome(&self) -> Option<Outcome>;

    /// What `viewer` may see: hidden information never appears in a player's view.
    fn view(&self, viewer: Viewer) -> View;

    /// A hash of the whole state, stable across runs and platforms for the same build.
    fn state_hash(&self) -> u64;

    /// Whether `viewer` may see `event`: an event that tells what a side may keep secret (an order
    /// on its way) is for that side and the umpire only. The default: everyone.
    fn event_visible(&self, event: &Self::Event, viewer: Viewer) -> bool {
        let _ = (event, viewer);
        true
    }

    /// Whether `viewer` may know that `by` took `action` (called on the state before it): an
    /// action the rules keep secret (an order sent) is for its side and the umpire only, and
    /// must then change nothing else `viewer` sees — not the actor, the view or a visible event.
    /// The default: everyone.
    fn action_visible(&self, by: Actor, action: &Self::Action, viewer: Viewer) -> bool {
        let _ = (by, action, viewer);
        true
    }

    /// The units the umpire's actions name, by the index those actions use, if the rules give
    /// the umpire actions of his own (for the umpire's desk to offer). The default: none.
    fn umpire_units(&self) -> Option<Vec<String>> {
        None
    }

    /// The umpire's actions as a JSON Schema (as `schemars` writes it), for a page to build the
    /// umpire's form from: a field named `unit` is an index into [`GameState::umpire_units`], `at`
    /// a place on the table and `facing` degrees clockwise from north. A value the form makes
    /// is an action as [`GameState::Action`] reads it. The default: none.
    fn umpire_schema(&self) -> Option<serde_json::Value> {
        None
    }

    /// Whether a side may know anything the other may not (secret orders, a hidden deployment):
    /// a page shared by both sides (hot seat) then hands the screen over between them. The
    /// default: yes.
    fn has_secrets(&self) -> bool {
        true
    }

    /// For each of [`GameState::umpire_units`], an umpire's action about it as it stands now (its
    /// present status, say), for his form to start from, so that an amendment changes only what
    /// he changes; a field of the action's kind left out of a unit's value does not apply to that
    /// unit (a second line's status to a unit of one line), and the form does not ask for it.
    /// The default: none (the form starts from the schema's first values).
    fn umpire_values(&self) -> Option<Vec<serde_json::Value>> {
        None
    }

    /// What chance this battle draws on, in a word for players ("dice", "cards"), or none if it
    /// draws nothing (a diceless rule set, a variant without chance). The default: dice.
    fn chance_words(&self) -> Option<&'static str> {
        Some("dice")
    }

    /// The places `action` involves, in the view's coordinates and in order — where a unit is
    /// and where it would go, or who fires at whom — for drawing it over the map. The default:
    /// none (a page may look for places in the action's JSON instead).
    fn action_points(&self, action: &Self::Action) -> Vec<[f64; 2]> {
        let _ = action;
        Vec::new()
    }

    /// The battle as `side` may know it, for computer players that look ahead by playing it on:
    /// whatever `side` may not see (the enemy's orders, a secret deployment) is replaced by a
    /// guess the rule set documents. The default, for rule sets that hide nothing: a copy.
    fn redacted(&self, side: SideId) -> Self {
        let _ = side;
        self.clone()
    }

    /// `action` in words, naming units as the scenario does, for lists of choices on a screen.
    /// The default is its JSON.
    fn describe(&self, action: &Self::Action) -> String {
        serde_json::to_string(action).unwrap_or_else(|_| format!("{action:?}"))
    }
}

/// The check every rule set makes before anything else: may `by` take an action now, given who
/// must decide (`now`) and whether the action is one only the umpire takes (`umpire_action`)?
///
/// * An umpire's action: only from [`Actor::Umpire`], at any decision while the battle lasts.
/// * Any other action: only from the side that must decide now — never from the other side,
///   the umpire (who does not play a side's turn) or [`Actor::Terminal`].
pub fn check_actor(now: Actor, by: Actor, umpire_action: bool) -> Result<(), Illegal> {
    if now == Actor::Terminal {
        return illegal!("the battle is over");
    }
    match (by, umpire_action) {
        (Actor::Umpire, true) => Ok(()),
        (_, true) => illegal!("only the umpire may do that, not {by}"),
        (Actor::Terminal, false) => illegal!("an action needs someone to take it, not {by}"),
        (Actor::Umpire, false) => illegal!("the umpire does not play a side's turn: {now} must act"),
        (Actor::Side(_), false) if by == now => Ok(()),
        (Actor::Side(_), false) => illegal!("it is not {by}'s turn: {now} must act"),
    }
}

/// A rule set: makes new battles from its scenarios.
pub trait RuleSet {
    /// Its battles.
    type State: GameState;
    /// The scenario it plays.
    type Scenario;
    /// Why a scenario cannot be played.
    type Error: std::error::Error;

    /// The rule set's id, such as `blown-away`.
    fn id(&self) -> &'static str;

    /// A new battle, before anything has been decided.
    fn new_game(&self, scenario: &Self::Scenario) -> Result<Self::State, Self::Error>;
}

/// A battle's figures for reports: the scenario, and each side's strength and losses in the
/// rule set's own measure (men for Blown Away, Strength Points for Itchy and Scratchy).
pub trait Tally {
    /// The scenario's name.
    fn scenario_name(&self) -> &str;
    /// The rule set's variant, if it has variants.
    fn variant(&self) -> Option<&'static str>;
    /// A side's name.
    fn side_name(&self, side: SideId) -> &str;
    /// What is counted, such as "men" or "strength points".
    fn measure(&self) -> &'static str;
    /// A side's strength at the start, what it has lost for good, and what is out of action
    /// for now (running men), in that measure.
    fn tally(&self, side: SideId) -> (usize, usize, usize);
}

/// A computer player.
pub trait Agent<S: GameState> {
    /// The agent's name, as given on the command line.
    fn name(&self) -> &str;

    /// Pick one of `candidates` (never empty) for `state`; returns its index.
    fn choose(&mut self, state: &S, candidates: &[S::Action]) -> usize;
}

/// The rule-set hook that heuristic agents use: how much the acting side likes an action.
pub trait Heuristic: GameState {
    /// The value of `action` now to the side that would take it; higher is better.
    fn score(&self, action: &Self::Action) -> f64;

    /// The values of all of `actions`, appended to `out` in order. A rule set overrides this
    /// when scoring many actions of one state can share work; the result must equal calling
    /// [`Heuristic::score`] on each.
    fn scores(&self, actions: &[Self::Action], out: &mut Vec<f64>) {
        out.extend(actions.iter().map(|a| self.score(a)));
    }
}

/// A state hash as the log and the command line print it: 16 hex digits.
pub fn hash_hex(h: u64) -> String {
    format!("{h:016x}")
}

impl Display for Actor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Actor::Side(s) => write!(f, "side {s}"),
            Actor::Umpire => write!(f, "the umpire"),
            Actor::Terminal => write!(f, "nobody (the battle is over)"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Actor, check_actor};

    #[test]
    fn only_the_owner_of_an_action_may_take_it() {
        let (s0, s1, u, t) = (Actor::Side(0), Actor::Side(1), Actor::Umpire, Actor::Terminal);
        // A side's action: only that side, when it must act.
        assert!(check_actor(s0, s0, false).is_ok());
        for by in [s1, u, t] {
            assert!(check_actor(s0, by, false).is_err(), "{by:?}");
        }
        // The umpire's: only the umpire, at any decision.
        for now in [s0, s1] {
            assert!(check_actor(now, u, true).is_ok());
            for by in [s0, s1, t] {
                assert!(check_actor(now, by, true).is_err(), "{by:?}");
            }
        }
        // Nobody acts once the battle is over.
        for by in [s0, s1, u, t] {
            for umpires in [false, true] {
                assert_eq!(check_actor(t, by, umpires).unwrap_err().reason, "the battle is over");
            }
        }
    }
}

/// A name in the possessive, as English writes it: `IR 7 Bevern's`, but `2/95th Rifles'` and
/// `Hussars'` for a name ending in s.
pub fn possessive(name: &str) -> String {
    if name.ends_with('s') { format!("{name}'") } else { format!("{name}'s") }
}

/// Words someone typed, to follow "because" in a sentence: the first letter made small unless
/// the first word is a name in capitals or a proper name of several capitals (`IR 7`, `NATO`).
pub fn after_because(text: &str) -> String {
    let t = text.trim();
    let mut chars = t.chars();
    match (chars.next(), chars.next()) {
        (Some(a), Some(b)) if a.is_uppercase() && b.is_lowercase() => {
            let mut out: String = a.to_lowercase().collect();
            out.push_str(&t[a.len_utf8()..]);
            out
        }
        _ => t.to_string(),
    }
}

#[cfg(test)]
mod words_tests {
    #[test]
    fn possessives_and_reasons_read_as_english() {
        assert_eq!(super::possessive("IR 7 Bevern"), "IR 7 Bevern's");
        assert_eq!(super::possessive("2/95th Rifles"), "2/95th Rifles'");
        assert_eq!(super::after_because("The battalion was misplaced"), "the battalion was misplaced");
        assert_eq!(super::after_because("IR 7 was misplaced"), "IR 7 was misplaced");
        assert_eq!(super::after_because(" fresh troops "), "fresh troops");
    }
}
