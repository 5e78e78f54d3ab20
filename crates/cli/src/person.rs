//! A person playing a side at the terminal (`volley play FILE --agents person,heuristic`): at each
//! of his decisions, the battle as his side may see it in words and his choices numbered; he
//! answers with a number, `?` for help or `q` to stop.

use std::cell::Cell;
use std::io::{BufRead, Write};
use std::rc::Rc;

use volley_core::{Agent, GameState, SideId, View, ViewPiece, Viewer};
use volley_scenario::places::{compass, region_words, with_article};
use volley_table::{Point, point_in_polygon};

/// The agent name that seats a person.
pub(crate) const PERSON: &str = "person";

/// The most lines of the account shown before a decision (the earlier ones are counted).
const ACCOUNT_SHOWN: usize = 20;

/// What the person answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The choice at this index (from 0).
    Pick(usize),
    /// He typed `q`: stop the battle here.
    Quit,
    /// His input ended (Ctrl-D, or a script's last line).
    EndOfInput,
}

/// A person's seat as the [`volley_core::run::Runner`] sees it: it takes the choice the person
/// made before the runner asked (kept in a cell the play loop sets).
pub(crate) struct Chosen(pub(crate) Rc<Cell<usize>>);

impl<S: GameState> Agent<S> for Chosen {
    fn name(&self) -> &str {
        PERSON
    }

    fn choose(&mut self, _state: &S, _candidates: &[S::Action]) -> usize {
        self.0.get()
    }
}

/// The help `?` prints.
pub(crate) const HELP: &str = "\
Type the number of a choice and press Enter: your side takes it, and the battle goes on until
you must decide again. Above the choices is the battle as your side may see it: the turn and the
phase, where it stands, your units and the enemy's you can see, and what happened since your
last decision.
  ?   this help
  q   stop the battle here (with --log, the log of the battle so far is written, and
      `volley replay` rebuilds it); Ctrl-D, the end of the input, stops it too";

/// Ask for one of `n` choices (numbered from 1) until a good answer comes: a bad one is told
/// why and asked again.
///
/// # Errors
/// Reading the input or writing the question failed.
pub(crate) fn ask(input: &mut impl BufRead, out: &mut impl Write, n: usize) -> std::io::Result<Answer> {
    loop {
        write!(out, "Your choice (1-{n}, ? for help, q to stop): ")?;
        out.flush()?;
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line)? == 0 {
            writeln!(out)?;
            return Ok(Answer::EndOfInput);
        }
        let line = String::from_utf8_lossy(&line);
        let answer = line.trim();
        match answer {
            "?" | "h" | "help" => writeln!(out, "{HELP}")?,
            "q" | "Q" | "quit" => return Ok(Answer::Quit),
            "" => writeln!(out, "Nothing typed: type the number of a choice, from 1 to {n}.")?,
            _ => match answer.parse::<u64>() {
                Ok(k) if k >= 1 && k <= n as u64 => return Ok(Answer::Pick(k as usize - 1)),
                Ok(k) => writeln!(out, "There is no choice {k}: the choices are numbered from 1 to {n}.")?,
                Err(_) => writeln!(
                    out,
                    "{:?} is not a choice: type a number from 1 to {n}, ? for help, or q to stop.",
                    volley_scenario::shorten(answer)
                )?,
            },
        }
    }
}

/// The battle as `side` sees it before a decision, in words: the turn and phase, where the
/// battle stands, the objectives, his units and the enemy's he sees, the notes, the account's
/// last lines (`account`: those his side may read since his last decision), and his choices.
pub(crate) fn position<S: GameState>(state: &S, side: SideId, account: &[String], choices: &[S::Action]) -> String {
    let view = state.view(Viewer::Side(side));
    let phase = state.phase();
    let mut out = String::new();
    let name = |s: SideId| view.sides.get(usize::from(s)).cloned().unwrap_or_else(|| format!("side {}", s + 1));
    let me = name(side);
    out.push_str(&format!("\n=== {}: turn {}, {} ===\n", view.title, phase.turn, phase.phase));
    out.push_str(&format!("You are the {me}.\n"));
    if !account.is_empty() {
        out.push_str("What happened since your last decision:\n");
        let skipped = account.len().saturating_sub(ACCOUNT_SHOWN);
        if skipped > 0 {
            out.push_str(&format!("  ({skipped} earlier lines)\n"));
        }
        for line in &account[skipped..] {
            out.push_str(&account_line(line));
            out.push('\n');
        }
    }
    if !view.standing.is_empty() {
        out.push_str("Where the battle stands:\n");
        for s in &view.standing {
            out.push_str(&format!("  {}\n", s.text));
        }
    }
    if !view.objectives.is_empty() {
        let held: Vec<String> = view
            .objectives
            .iter()
            .map(|o| match o.holder {
                Some(h) => format!("{} (held by the {})", o.name, name(h)),
                None => format!("{} (held by nobody)", o.name),
            })
            .collect();
        out.push_str(&format!("Objectives: {}\n", held.join("; ")));
    }
    let enemy = 1 - (side & 1);
    for (who, s) in [(format!("Your units ({me})"), side), (format!("The enemy you see ({})", name(enemy)), enemy)] {
        let units = units(&view, s);
        out.push_str(&format!("{who}:\n"));
        if units.is_empty() {
            out.push_str("  none\n");
        }
        for u in units {
            out.push_str(&format!("  {u}\n"));
        }
        let marks: Vec<String> = view
            .markers
            .iter()
            .filter(|m| m.side == Some(s) && m.unit.is_none())
            .map(|m| format!("  {}, {}", m.label, place(&view, Point::new(m.at[0], m.at[1]))))
            .collect();
        for m in marks {
            out.push_str(&m);
            out.push('\n');
        }
    }
    for n in &view.notes {
        out.push_str(&format!("Note: {n}\n"));
    }
    out.push_str("Your choices:\n");
    let width = choices.len().to_string().len();
    for (i, a) in choices.iter().enumerate() {
        out.push_str(&format!("  {:>width$}. {}\n", i + 1, state.describe(a)));
    }
    out
}

/// A line of the account, indented as `volley play` prints it (a turn's heading flush left).
pub(crate) fn account_line(line: &str) -> String {
    if line.starts_with("Turn ") { line.to_string() } else { format!("  {line}") }
}

/// Side `side`'s units in `view`, a line each: the pieces of one unit together (a Blown Away
/// unit is its men), with what they are, their state, facing and where they stand.
fn units(view: &View, side: SideId) -> Vec<String> {
    let mut order: Vec<(Option<&str>, Vec<&ViewPiece>)> = Vec::new();
    for p in view.pieces.iter().filter(|p| p.side == Some(side)) {
        match p.unit.as_deref() {
            Some(u) => match order.iter_mut().find(|(name, _)| *name == Some(u)) {
                Some((_, ps)) => ps.push(p),
                None => order.push((Some(u), vec![p])),
            },
            None => order.push((None, vec![p])),
        }
    }
    order
        .into_iter()
        .map(|(name, ps)| {
            let centre = ps.iter().map(|p| centre(&p.footprint)).fold(Point::new(0.0, 0.0), |a, c| {
                Point::new(a.x + c.x / ps.len() as f64, a.y + c.y / ps.len() as f64)
            });
            let what = match (name, ps.as_slice()) {
                (Some(n), [p]) if p.label.starts_with(n) => format!("{}; {}", p.label, p.status),
                (Some(n), [p]) => format!("{n}: {}; {}", p.label, p.status),
                (None, [p]) => format!("{}; {}", p.label, p.status),
                (name, ps) => {
                    let mut states: Vec<(&str, usize)> = Vec::new();
                    for p in ps {
                        match states.iter_mut().find(|(s, _)| *s == p.status) {
                            Some((_, k)) => *k += 1,
                            None => states.push((&p.status, 1)),
                        }
                    }
                    let name = name.unwrap_or("pieces");
                    match states.as_slice() {
                        [(s, _)] => format!("{name}: {} figures, {s}", ps.len()),
                        _ => {
                            let states: Vec<String> = states.iter().map(|(s, k)| format!("{k} {s}")).collect();
                            format!("{name}: {} figures ({})", ps.len(), states.join(", "))
                        }
                    }
                }
            };
            let facing =
                ps.first().and_then(|p| p.facing).map(|f| format!(", facing {}", compass(f))).unwrap_or_default();
            format!("{what}{facing}, {}", place(view, centre))
        })
        .collect()
}

/// The middle of a footprint.
fn centre(f: &volley_core::Footprint) -> Point {
    match f {
        volley_core::Footprint::Circle { at, .. } => Point::new(at[0], at[1]),
        volley_core::Footprint::Polygon { points } => {
            let n = points.len().max(1) as f64;
            let (x, y) = points.iter().fold((0.0, 0.0), |(x, y), p| (x + p[0] / n, y + p[1] / n));
            Point::new(x, y)
        }
    }
}

/// Where `p` is, in words: at the objective or in (on a hill or bridge: on) the named ground it
/// is in, else in the part of the table.
fn place(view: &View, p: Point) -> String {
    let inside = |points: &[[f64; 2]]| {
        let poly: Vec<Point> = points.iter().map(|q| Point::new(q[0], q[1])).collect();
        point_in_polygon(p, &poly)
    };
    if let Some(o) = view.objectives.iter().find(|o| inside(&o.points)) {
        return format!("at {}", with_article(&o.name));
    }
    if let Some(f) = view.terrain.iter().find(|f| f.closed && !f.name.is_empty() && inside(&f.points)) {
        let on = matches!(f.kind.as_str(), "hill" | "bridge");
        return format!("{} {}", if on { "on" } else { "in" }, with_article(&f.name));
    }
    format!("in {}", region_words(p, view.width, view.depth))
}

/// Why a battle with a person in it stopped before its end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stopped {
    /// He typed `q`.
    Quit,
    /// His input ended.
    EndOfInput,
    /// `--max-actions` were taken.
    TooLong,
}

/// `volley play` with a person in one seat or both: at each of his decisions the battle as his
/// side sees it and his choices, from the terminal; the computer's seat as `volley play` seats
/// it (the same agent, seeded the same way). He may stop at any decision: the battle is then
/// summed up as far as it went, and its log (with `--log`) written, ending there.
///
/// # Errors
/// An unknown agent, the terminal failing, the log not written, or a rule set refusing its own
/// candidate.
pub(crate) fn play<B: crate::Playable>(battle: B, ruleset: &str, run: &crate::PlayRun<'_>) -> anyhow::Result<()> {
    let crate::PlayRun { src, seed, names, max_actions, .. } = *run;
    let person: Vec<bool> = names.iter().map(|n| n == PERSON).collect();
    let picked = Rc::new(Cell::new(0));
    let mut agents: Vec<Box<dyn Agent<B>>> = Vec::new();
    for (i, n) in names.iter().enumerate() {
        if person[i] {
            agents.push(Box::new(Chosen(picked.clone())));
        } else {
            // As `volley_ai::seated` seeds a seat: the computer plays as it would against a computer.
            let seat = volley_chance::Seeded::derive(seed, 1000 + i as u64);
            let agent = volley_ai::by_name::<B>(n, seat).ok_or_else(|| crate::unknown_agent(n))?;
            agents.push(agent);
        }
    }
    let header = crate::play_header(&battle, ruleset, src, seed, names);
    let refs: Vec<&mut dyn Agent<B>> = agents.iter_mut().map(|a| &mut **a as &mut dyn Agent<B>).collect();
    let mut runner = volley_core::run::Runner::new(battle, header, refs);
    runner.keep_events = true;
    let mut rng = volley_chance::Seeded::new(seed);
    // Which sides may read each event (by its index in `runner.events`), and how many events
    // each side has been shown.
    let mut readers: Vec<[bool; 2]> = Vec::new();
    let mut read = [0usize; 2];
    let (stdin, stdout) = (std::io::stdin(), std::io::stdout());
    let (mut input, mut out) = (stdin.lock(), stdout.lock());
    let sides = [runner.state.side_name(0).to_string(), runner.state.side_name(1).to_string()];
    let variant = runner.state.variant().map(|v| format!(", {v} version")).unwrap_or_default();
    writeln!(
        out,
        "{} ({ruleset}{variant}), seed {seed}: {} ({}) against {} ({})",
        runner.state.scenario_name(),
        sides[0],
        names[0],
        sides[1],
        names[1]
    )?;
    let mut stopped = None;
    let mut cands = Vec::new();
    while runner.state.outcome().is_none() {
        if runner.log.entries.len() as u64 >= max_actions {
            stopped = Some(Stopped::TooLong);
            break;
        }
        if let volley_core::Actor::Side(s) = runner.state.actor()
            && person.get(usize::from(s)).copied().unwrap_or(false)
        {
            let i = usize::from(s) & 1;
            cands.clear();
            runner.state.candidate_actions(&mut cands);
            // As the page offers them: two choices that read alike and go to one place are one.
            let said: Vec<(String, Vec<[f64; 2]>)> =
                cands.iter().map(|a| (runner.state.describe(a), runner.state.action_points(a))).collect();
            let shown = volley_server::live::distinct(said.iter().map(|(t, p)| (t.as_str(), p.as_slice())));
            let offered: Vec<B::Action> = shown.iter().map(|&k| cands[k].clone()).collect();
            let account: Vec<String> = runner.events[read[i]..]
                .iter()
                .zip(&readers[read[i]..])
                .filter(|(_, r)| r[i])
                .map(|((_, e), _)| e.to_string())
                .collect();
            write!(out, "{}", position(&runner.state, s, &account, &offered))?;
            read[i] = runner.events.len();
            if !offered.is_empty() {
                match ask(&mut input, &mut out, offered.len())? {
                    Answer::Pick(k) => picked.set(shown[k]),
                    Answer::Quit => {
                        stopped = Some(Stopped::Quit);
                        break;
                    }
                    Answer::EndOfInput => {
                        stopped = Some(Stopped::EndOfInput);
                        break;
                    }
                }
            }
        }
        let before = runner.events.len();
        if !runner.step(&mut rng).map_err(|e| anyhow::anyhow!("the battle could not be played: {e}"))? {
            break;
        }
        for (_, e) in &runner.events[before..] {
            readers.push([0, 1].map(|v| runner.state.event_visible(e, Viewer::Side(v))));
        }
    }
    runner.finish();
    let actions = runner.log.entries.len() as u64;
    if let Some(path) = &run.log {
        std::fs::write(path, runner.log.to_jsonl())
            .map_err(|e| anyhow::anyhow!("cannot write the log to {}: {e}", path.display()))?;
    }
    // The rest of the account, as the person's side (either, with two) may read it.
    let from = (0..2).filter(|&i| person.get(i).copied().unwrap_or(false)).map(|i| read[i]).min().unwrap_or(0);
    if from < runner.events.len() {
        writeln!(out)?;
    }
    for ((_, e), r) in runner.events[from..].iter().zip(&readers[from..]) {
        if (0..2).any(|i| r[i] && person.get(i).copied().unwrap_or(false)) {
            writeln!(out, "{}", account_line(&e.to_string()))?;
        }
    }
    let rep = crate::report(&runner.state, ruleset, seed, names, actions);
    match stopped {
        Some(Stopped::Quit) => writeln!(out, "You stopped the battle in turn {}, after {actions} actions.", rep.turns)?,
        Some(Stopped::EndOfInput) => {
            writeln!(out, "The input ended: the battle stops in turn {}, after {actions} actions.", rep.turns)?
        }
        Some(Stopped::TooLong) | None => {}
    }
    crate::write_summary(&mut out, &rep)?;
    if let Some(path) = &run.log {
        writeln!(out, "The log is in {}: `volley replay {}` rebuilds the battle.", path.display(), path.display())?;
    }
    if stopped == Some(Stopped::TooLong) {
        anyhow::bail!(
            "the battle was stopped after {actions} actions, at turn {}, without an end: nothing in the \
             scenario ended it (a `turn_limit` would); above is the battle so far",
            rep.turns
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn answers(typed: &str, n: usize) -> (Answer, String) {
        let mut out = Vec::new();
        let a = ask(&mut typed.as_bytes(), &mut out, n).unwrap();
        (a, String::from_utf8(out).unwrap())
    }

    #[test]
    fn a_number_in_range_is_taken_and_a_bad_answer_asked_again() {
        assert_eq!(answers("2\n", 3).0, Answer::Pick(1));
        let (a, said) = answers("7\nabc\n\n?\n3\n", 3);
        assert_eq!(a, Answer::Pick(2));
        assert!(said.contains("There is no choice 7: the choices are numbered from 1 to 3."), "{said}");
        assert!(said.contains("\"abc\" is not a choice"), "{said}");
        assert!(said.contains("Nothing typed"), "{said}");
        assert!(said.contains("q   stop the battle here"), "{said}");
        assert_eq!(said.matches("Your choice (1-3").count(), 5, "{said}");
    }

    #[test]
    fn q_stops_and_the_end_of_input_stops() {
        assert_eq!(answers("q\n", 3).0, Answer::Quit);
        assert_eq!(answers("", 3).0, Answer::EndOfInput);
        assert_eq!(answers("99999999999999999999999\n", 3).0, Answer::EndOfInput);
        assert_eq!(answers("1", 3).0, Answer::Pick(0));
        let mut out = Vec::new();
        assert_eq!(ask(&mut &b"\xff\xfe\n2\n"[..], &mut out, 3).unwrap(), Answer::Pick(1));
        assert!(String::from_utf8(out).unwrap().contains("is not a choice"));
    }
}
