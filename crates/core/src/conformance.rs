//! The conformance harness: checks that any rule set's tests run over many seeded battles
//! (in the manner of OpenSpiel's random simulation test).
//!
//! For every decision of every battle it checks that:
//! * a battle that is not over has an actor that is a side and at least one candidate action;
//! * every candidate validates;
//! * every candidate survives a JSON round trip unchanged;
//! * the chosen action is refused from the other side, the umpire and nobody (the rule set
//!   itself knows who acts);
//! * an action whose draws are missing is refused with the state untouched;
//! * a clone given the same action and draws ends in the same state as the original;
//! * the chosen action applies.
//!
//! and for every battle that it ends within the limit, and that replaying its log from a new
//! state reproduces the final state hash. [`check_with`] adds the rule set's own invariants,
//! checked after every action: the geometry of the table as the text has it.
//!
//! [`check_words`] reads, over seeded battles, everything a person reads — every event's text,
//! the phase, every piece's label and status, every marker's and reach's label, the notes, every
//! candidate's description and the outcome — and fails at the first that shows a name from the
//! program rather than words ([`program_name`]). [`check_words_with`] can also fail a candidate's
//! description or an event's text that gives a place as raw coordinates ([`coordinates`]).

use volley_chance::{Chance, DrawError, Recorder, Scripted, Seeded};

use crate::run::replay;
use crate::{Actor, Agent, ApplyError, GameState, View, Viewer};

/// The games a conformance test plays per scenario and agent: `default`, or the environment's
/// `VOLLEY_CONFORMANCE_GAMES` for a long soak.
pub fn games(default: u64) -> u64 {
    std::env::var("VOLLEY_CONFORMANCE_GAMES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// What a conformance run saw, for the caller to assert on further.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// Battles played.
    pub games: u64,
    /// Decisions taken.
    pub decisions: u64,
    /// Candidates checked.
    pub candidates: u64,
    /// Battles won by each side, and drawn (last).
    pub results: [u64; 3],
    /// The longest battle, in decisions.
    pub longest: u64,
}

/// Play `games` battles from `new_state` with `agents(seed)` (one per side), each with seed
/// `Seeded::derive(master, i)`, checking everything listed in the module documentation.
/// Panics with a message naming the seed and decision at the first failure.
pub fn check<S, F, A>(new_state: F, agents: A, master: u64, games: u64, max_decisions: u64) -> Report
where
    S: GameState,
    F: FnMut() -> S,
    A: FnMut(u64) -> Vec<Box<dyn Agent<S>>>,
{
    check_with(new_state, agents, master, games, max_decisions, |_: &S, _: &S::Action, _: &S, _: &[S::Event]| Ok(()))
}

/// [`check`], with the rule set's own invariants: `invariant(before, action, after, events)` is
/// called after every action of every battle and returns why the step broke a rule of the text
/// (a move through an enemy, a combat the text does not allow, a bonus for a position the
/// table does not show, a move beyond the rate), which fails the run with the seed and decision.
pub fn check_with<S, F, A, I>(
    mut new_state: F,
    mut agents: A,
    master: u64,
    games: u64,
    max_decisions: u64,
    mut invariant: I,
) -> Report
where
    S: GameState,
    F: FnMut() -> S,
    A: FnMut(u64) -> Vec<Box<dyn Agent<S>>>,
    I: FnMut(&S, &S::Action, &S, &[S::Event]) -> Result<(), String>,
{
    let mut report = Report::default();
    let mut cands = Vec::new();
    let mut events = Vec::new();
    for g in 0..games {
        let seed = Seeded::derive(master, g);
        let mut rng = Seeded::new(seed);
        let mut players = agents(seed);
        let start = new_state();
        let mut state = start.clone();
        let mut entries = Vec::new();
        let mut n = 0u64;
        while state.outcome().is_none() {
            n += 1;
            assert!(n <= max_decisions, "seed {seed}: no end after {max_decisions} decisions");
            let actor = state.actor();
            let Actor::Side(side) = actor else {
                panic!("seed {seed} decision {n}: the battle is not over but the actor is {actor:?}");
            };
            cands.clear();
            state.candidate_actions(&mut cands);
            assert!(!cands.is_empty(), "seed {seed} decision {n}: no candidates for {actor:?}");
            for c in &cands {
                if let Err(e) = state.validate(c) {
                    panic!("seed {seed} decision {n}: candidate {c:?} does not validate: {e}");
                }
                let json = serde_json::to_string(c).expect("actions serialise");
                let back: S::Action = serde_json::from_str(&json).expect("actions deserialise");
                assert_eq!(&back, c, "seed {seed} decision {n}: JSON round trip changed the action");
            }
            report.candidates += cands.len() as u64;
            let i = players[usize::from(side)].choose(&state, &cands).min(cands.len() - 1);
            let action = cands[i].clone();
            // The rule set itself refuses it from anyone but the side whose turn it is.
            for other in [Actor::Side(1 - side), Actor::Umpire, Actor::Terminal] {
                assert!(
                    state.validate_by(other, &action).is_err(),
                    "seed {seed} decision {n}: {action:?} accepted from {other:?} while {actor:?} must act"
                );
            }

            // A missing draw leaves the state untouched.
            let before = state.state_hash();
            let mut nothing = Scripted::new([]);
            let mut probe = state.clone();
            match probe.apply(&action, &mut nothing, &mut events) {
                Err(ApplyError::Draw(DrawError::Missing { .. })) => {
                    assert_eq!(
                        probe.state_hash(),
                        before,
                        "seed {seed} decision {n}: a missing draw changed the state"
                    );
                }
                Err(e) => panic!("seed {seed} decision {n}: {action:?} refused: {e}"),
                Ok(()) => {}
            }

            let mut rec = Recorder::new(&mut rng as &mut dyn Chance);
            events.clear();
            let mut twin = state.clone();
            if let Err(e) = state.apply(&action, &mut rec, &mut events) {
                panic!("seed {seed} decision {n}: {action:?} refused: {e}");
            }
            if let Err(why) = invariant(&twin, &action, &state, &events) {
                panic!("seed {seed} decision {n}: {action:?} broke a rule: {why}\nevents: {events:?}");
            }
            let draws = rec.draws;
            let mut script = Scripted::new(draws.iter().map(|d| d.value));
            twin.apply(&action, &mut script, &mut Vec::new()).expect("the clone accepts what the original did");
            assert_eq!(twin.state_hash(), state.state_hash(), "seed {seed} decision {n}: a clone diverged");
            entries.push(crate::log::Entry { n, by: actor, action, draws });
        }
        let mut again = start;
        if let Err(e) = replay(&mut again, &entries, |_, _| {}) {
            panic!("seed {seed}: replay failed: {e}");
        }
        assert_eq!(again.state_hash(), state.state_hash(), "seed {seed}: replay reached another state");
        let outcome = state.outcome().expect("loop ends only at an outcome");
        match outcome.winner {
            Some(w) => report.results[usize::from(w).min(1)] += 1,
            None => report.results[2] += 1,
        }
        report.games += 1;
        report.decisions += n;
        report.longest = report.longest.max(n);
    }
    report
}

/// Why `text`, which a person reads, shows a name from the program rather than words, if it does:
/// a brace or an underscore (Rust's `Debug` of a struct, snake_case), `::` or `Some(`, or a word
/// with a capital letter straight after a small one (`InfantryVsInfantry`, `RunAway`). `names`
/// are proper names the scenario gives (units, sides, places, commanders), which may be spelled
/// any way ("McDonald"): they are taken out before the text is read.
pub fn program_name(text: &str, names: &[&str]) -> Option<String> {
    let mut rest = text.to_string();
    let mut names: Vec<&str> = names.iter().copied().filter(|n| !n.is_empty()).collect();
    // The longest first, so that a name inside another is not taken out of it first.
    names.sort_by_key(|n| std::cmp::Reverse(n.len()));
    for n in names {
        rest = rest.replace(n, " ");
    }
    for bad in ["{", "}", "_", "::", "Some("] {
        if rest.contains(bad) {
            return Some(format!("{bad:?} in {text:?}"));
        }
    }
    for word in rest.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = word.chars().collect();
        if chars.windows(2).any(|w| w[0].is_lowercase() && w[1].is_uppercase()) {
            return Some(format!("a program's name ({word}) in {text:?}"));
        }
    }
    None
}

/// Every text of `view` a person reads, with where it is: the phase, each piece's label and
/// status, arm and command, each counter's kind and reach's label, each marker's label, the
/// notes and the lines of where the battle stands.
pub fn view_texts(view: &View) -> Vec<(&'static str, String)> {
    let mut out = vec![("the view's phase", view.phase.clone())];
    for p in &view.pieces {
        out.push(("a piece's label", p.label.clone()));
        out.push(("a piece's status", p.status.clone()));
        out.extend(p.counters.iter().map(|c| ("a counter's kind", c.kind.clone())));
        out.extend(p.ranges.iter().map(|r| ("a reach's label", r.label.clone())));
    }
    out.extend(view.markers.iter().map(|m| ("a marker's label", m.label.clone())));
    out.extend(view.notes.iter().map(|n| ("a note", n.clone())));
    out.extend(view.standing.iter().map(|l| ("a line of where the battle stands", l.text.clone())));
    for p in &view.pieces {
        out.extend(p.arm.iter().map(|a| ("a piece's arm", a.clone())));
        out.extend(p.group.iter().map(|g| ("a piece's command", g.clone())));
    }
    out
}

/// The proper names a view gives, each once: the title, the sides, the terrain's, the
/// objectives', the units' and their commands' names (the names [`program_name`] lets be).
pub fn view_names(view: &View) -> Vec<String> {
    let mut out = vec![view.title.clone()];
    out.extend(view.sides.iter().cloned());
    out.extend(view.terrain.iter().map(|f| f.name.clone()));
    out.extend(view.objectives.iter().map(|o| o.name.clone()));
    out.extend(view.pieces.iter().filter_map(|p| p.unit.clone()));
    out.extend(view.pieces.iter().filter_map(|p| p.group.clone()));
    out.sort();
    out.dedup();
    out
}

/// Why `text`, which a person reads, gives a place as raw coordinates, if it does: a `[`
/// straight before a number (`[15.0, 13.9]`, `[3, 3]`, `[-2, 4]`). A place is said by the
/// ground ("into Kirchdorf", "2 areas north, next to the mill"), not by where the program keeps it.
pub fn coordinates(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    bytes.iter().enumerate().find_map(|(i, &b)| {
        let next = bytes.get(i + 1..).unwrap_or_default();
        let number = match next {
            [d, ..] if d.is_ascii_digit() => true,
            [b'-', d, ..] if d.is_ascii_digit() => true,
            _ => false,
        };
        (b == b'[' && number).then(|| format!("coordinates in {text:?}"))
    })
}

/// What [`check_words_with`] reads for, beyond names from the program.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Words {
    /// Fail a candidate's description or an event's text that gives a place as raw coordinates
    /// ([`coordinates`]).
    pub no_coordinates: bool,
    /// Fail a decision at which two candidates read alike (a person could not tell them apart
    /// without pointing at each).
    pub distinct_choices: bool,
}

/// Play `games` battles as [`check`] does (seeds `Seeded::derive(master, i)`, `agents(seed)` one
/// per side) and read everything a person reads at every decision: the phase, the view of each
/// side, the umpire and a spectator ([`view_texts`]), every candidate's description, every event's
/// text, and the outcome's reason. Panics at the first text that shows a program's name
/// ([`program_name`]), with the seed and decision; `names` are proper names the scenario gives
/// beyond those in the view (commanders, officers). Returns how many texts were read.
pub fn check_words<S, F, A>(new_state: F, agents: A, master: u64, games: u64, max_decisions: u64, names: &[&str]) -> u64
where
    S: GameState,
    F: FnMut() -> S,
    A: FnMut(u64) -> Vec<Box<dyn Agent<S>>>,
{
    check_words_with(new_state, agents, master, games, max_decisions, names, Words::default())
}

/// [`check_words`], reading also for what `words` asks: with `no_coordinates`, every candidate's
/// description and every event's text must give places in words, not coordinates.
pub fn check_words_with<S, F, A>(
    mut new_state: F,
    mut agents: A,
    master: u64,
    games: u64,
    max_decisions: u64,
    names: &[&str],
    words: Words,
) -> u64
where
    S: GameState,
    F: FnMut() -> S,
    A: FnMut(u64) -> Vec<Box<dyn Agent<S>>>,
{
    let mut read = 0u64;
    let mut cands = Vec::new();
    let mut events = Vec::new();
    for g in 0..games {
        let seed = Seeded::derive(master, g);
        let mut rng = Seeded::new(seed);
        let mut players = agents(seed);
        let mut state = new_state();
        let known: Vec<String> = view_names(&state.view(Viewer::Umpire));
        let mut allowed: Vec<&str> = known.iter().map(String::as_str).collect();
        allowed.extend_from_slice(names);
        let mut read_one = |what: &str, text: &str, n: u64| {
            read += 1;
            if let Some(why) = program_name(text, &allowed) {
                panic!("seed {seed} decision {n}: {what}: {why}");
            }
        };
        let placed = |what: &str, text: &str, n: u64| {
            if words.no_coordinates
                && let Some(why) = coordinates(text)
            {
                panic!("seed {seed} decision {n}: {what}: {why}");
            }
        };
        let mut n = 0u64;
        loop {
            read_one("the phase", &state.phase().phase, n);
            for viewer in [Viewer::Umpire, Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
                for (what, text) in view_texts(&state.view(viewer)) {
                    read_one(what, &text, n);
                }
            }
            if let Some(o) = state.outcome() {
                read_one("the outcome", &o.reason, n);
                break;
            }
            n += 1;
            assert!(n <= max_decisions, "seed {seed}: no end after {max_decisions} decisions");
            let Actor::Side(side) = state.actor() else { panic!("seed {seed} decision {n}: no side acts") };
            cands.clear();
            state.candidate_actions(&mut cands);
            let mut said = std::collections::HashSet::new();
            for c in &cands {
                let text = state.describe(c);
                read_one("a candidate", &text, n);
                placed("a candidate", &text, n);
                if words.distinct_choices && !said.insert(text.clone()) {
                    panic!("seed {seed} decision {n}: two choices read alike: {text}");
                }
            }
            let i = players[usize::from(side)].choose(&state, &cands).min(cands.len() - 1);
            let action = cands[i].clone();
            events.clear();
            if let Err(e) = state.apply(&action, &mut rng, &mut events) {
                panic!("seed {seed} decision {n}: {action:?} refused: {e}");
            }
            for e in &events {
                let text = e.to_string();
                read_one("an event", &text, n);
                placed("an event", &text, n);
            }
        }
    }
    read
}

#[cfg(test)]
mod tests {
    use super::{coordinates, program_name};

    #[test]
    fn program_names_are_told_from_words() {
        for bad in [
            "close combat (InfantryVsInfantry): score -1: Withdraw",
            "attacker RunAway",
            "Turn 9, act { side: 0, second: true }",
            "in soft_ground",
            "Some(3)",
        ] {
            assert!(program_name(bad, &[]).is_some(), "{bad}");
        }
        for good in [
            "close combat, infantry against infantry: withdraws",
            "IR 3 Lothringen (line infantry, quality C)",
            "hold [48, 5]",
            "2/95th Rifles: Steady -> Nervous, DISORDERED",
        ] {
            assert_eq!(program_name(good, &[]), None, "{good}");
        }
        assert!(program_name("Captain McDonald rides", &[]).is_some());
        assert_eq!(program_name("hold [48, 5]", &[]), None, "coordinates are words to this check");
        assert_eq!(program_name("Captain McDonald rides", &["McDonald"]), None);
    }

    #[test]
    fn coordinates_are_told_from_places_in_words() {
        for bad in [
            "IR 3 Anhalt: moves 7.9\" to [15.0, 13.9] (may spend 8.0\": line 8\")",
            "move General Souham 2 areas to [3, 3], facing north",
            "move the commander to [-1.5, 4.0]",
        ] {
            assert!(coordinates(bad).is_some(), "{bad}");
        }
        for good in [
            "IR 27: advances 6.0\" towards the wheatfield (may spend 8.0\": line 8\")",
            "move General Souham 2 areas north-east, to the bridge, facing north",
            "hold (80, 60)",
            "a list [of words] and a bracket at the end [",
        ] {
            assert_eq!(coordinates(good), None, "{good}");
        }
    }
}
