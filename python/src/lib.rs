//! volley for Python: the rule sets' battles and the umpire's calculators, speaking JSON text to
//! the thin Python layer in `volley/` (which turns it into Python objects).
//!
//! A game keeps the scenario it came from and every action with the draws it made, so that it is
//! saved (JSON, pickling) as a log and restored by replaying it: the same actions, the same dice.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use serde_json::{Value, json};
use volley_chance::{Chance, Draw, Recorder, Seeded};
use volley_core::{Actor, Viewer};
use volley_scenario::Source;
use volley_server::catalog;
use volley_server::live::Live;

fn err(message: impl std::fmt::Display) -> PyErr {
    PyValueError::new_err(message.to_string())
}

fn to_text(v: &impl serde::Serialize) -> PyResult<String> {
    serde_json::to_string(v).map_err(err)
}

/// The bundled scenarios, as JSON text: a list of {name, ruleset, variant, title, description, sides}.
#[pyfunction]
fn scenarios() -> PyResult<String> {
    to_text(&catalog::list())
}

/// One action taken, as a saved game keeps it.
#[derive(Clone, serde::Serialize, serde::Deserialize)]
struct Taken {
    by: Actor,
    action: Value,
    draws: Vec<Draw>,
}

/// A battle of any rule set.
#[pyclass(module = "volley._volley")]
struct Game {
    live: Box<dyn Live>,
    ruleset: &'static str,
    path: String,
    text: String,
    seed: u64,
    taken: Vec<Taken>,
}

impl Game {
    fn open(src: Source, seed: u64) -> PyResult<Game> {
        let (ruleset, live) = catalog::load(&src).map_err(err)?;
        Ok(Game { live, ruleset, path: src.path, text: src.text, seed, taken: Vec::new() })
    }

    fn take(&mut self, by: Actor, action: &Value, chance: &mut dyn Chance) -> PyResult<Vec<(String, (bool, bool))>> {
        let mut recorder = Recorder::new(chance);
        let applied = self.live.apply(by, action, &mut recorder).map_err(err)?;
        let draws = std::mem::take(&mut recorder.draws);
        self.taken.push(Taken { by, action: action.clone(), draws });
        Ok(applied.lines.into_iter().map(|(line, [a, b])| (line, (a, b))).collect())
    }
}

fn viewer(v: &Bound<'_, PyAny>) -> PyResult<Viewer> {
    if let Ok(side) = v.extract::<u8>() {
        return if side < 2 { Ok(Viewer::Side(side)) } else { Err(err(format!("viewer: side 0 or 1, not {side}"))) };
    }
    match v.extract::<String>()?.as_str() {
        "spectator" => Ok(Viewer::Spectator),
        "umpire" => Ok(Viewer::Umpire),
        other => Err(err(format!("viewer: 0, 1, \"spectator\" or \"umpire\", not {other:?}"))),
    }
}

#[pymethods]
impl Game {
    /// A bundled scenario by name, or a scenario file's path; `seed` for the dice.
    #[staticmethod]
    #[pyo3(signature = (name_or_path, seed = 0))]
    fn load(name_or_path: &str, seed: u64) -> PyResult<Game> {
        Game::open(scenario_source(name_or_path)?, seed)
    }

    /// The rule set's id.
    #[getter]
    fn ruleset(&self) -> &'static str {
        self.ruleset
    }

    /// Who must act now, as JSON text.
    fn actor(&self) -> PyResult<String> {
        to_text(&self.live.actor())
    }

    /// The actions the actor may take now, as JSON text: a list of {action, text}.
    fn legal_actions(&self) -> PyResult<String> {
        let list: Vec<Value> = self
            .live
            .candidates()
            .into_iter()
            .map(|(action, text, _)| json!({"action": action, "text": text}))
            .collect();
        to_text(&list)
    }

    /// Take `action` (JSON text) as `by` (JSON text of an actor; the one to act if None), with the
    /// game's dice; the account's new lines, each with whether side 0 and side 1 may read it.
    #[pyo3(signature = (action, by = None))]
    fn apply(&mut self, action: &str, by: Option<&str>) -> PyResult<Vec<(String, (bool, bool))>> {
        let action: Value = serde_json::from_str(action).map_err(|e| err(format!("the action is not JSON: {e}")))?;
        let by: Actor = match by {
            Some(b) => serde_json::from_str(b).map_err(|e| err(format!("by: {e}")))?,
            None => self.live.actor(),
        };
        let mut dice = Seeded::new(Seeded::derive(self.seed, self.taken.len() as u64));
        self.take(by, &action, &mut dice)
    }

    /// What `viewer` (0, 1, "spectator" or "umpire") may see, as JSON text.
    #[pyo3(signature = (viewer = None))]
    fn view(&self, viewer: Option<&Bound<'_, PyAny>>) -> PyResult<String> {
        let v = match viewer {
            Some(v) => crate::viewer(v)?,
            None => Viewer::Spectator,
        };
        to_text(&self.live.view(v))
    }

    /// The outcome once the battle is over (JSON text of {winner, reason}), else None.
    fn outcome(&self) -> PyResult<Option<String>> {
        self.live.outcome().map(|o| to_text(&o)).transpose()
    }

    /// The state's hash.
    #[getter]
    fn state_hash(&self) -> u64 {
        self.live.state_hash()
    }

    /// How many actions were taken.
    #[getter]
    fn actions(&self) -> usize {
        self.taken.len()
    }

    /// A copy, to try actions on.
    fn clone(&self) -> Game {
        Game {
            live: self.live.clone_box(),
            ruleset: self.ruleset,
            path: self.path.clone(),
            text: self.text.clone(),
            seed: self.seed,
            taken: self.taken.clone(),
        }
    }

    /// The game as JSON text: the scenario, the seed, and every action with its draws.
    fn to_json(&self) -> PyResult<String> {
        to_text(&json!({
            "format": "volley-game/1",
            "path": self.path,
            "scenario": self.text,
            "seed": self.seed,
            "actions": self.taken,
            "state_hash": format!("{:016x}", self.live.state_hash()),
        }))
    }

    /// A game from `to_json`'s text: the scenario replayed, every action with its own draws.
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Game> {
        let v: Value = serde_json::from_str(text).map_err(|e| err(format!("not a saved game: {e}")))?;
        let field = |k: &str| v.get(k).ok_or_else(|| err(format!("not a saved game: no {k:?}")));
        let format = field("format")?;
        if format != "volley-game/1" {
            return Err(err(format!("not a saved game of this version: format {format}, not \"volley-game/1\"")));
        }
        let path = field("path")?.as_str().ok_or_else(|| err("path: text"))?.to_string();
        let scenario = field("scenario")?.as_str().ok_or_else(|| err("scenario: text"))?.to_string();
        let seed = field("seed")?.as_u64().ok_or_else(|| err("seed: a whole number"))?;
        let taken: Vec<Taken> = serde_json::from_value(field("actions")?.clone()).map_err(err)?;
        let mut game = Game::open(Source::new(path, scenario), seed)?;
        for (i, t) in taken.into_iter().enumerate() {
            // Each action's dice are the seed's for that action (as `apply` drew them): a saved
            // game whose seed or draws were changed does not replay.
            let mut dice = Seeded::new(Seeded::derive(seed, i as u64));
            game.take(t.by, &t.action, &mut dice).map_err(|e| err(format!("action {}: {}", i + 1, e.value(py))))?;
            let drawn: Vec<u32> =
                game.taken.last().map(|x| x.draws.iter().map(|d| d.value).collect()).unwrap_or_default();
            let saved: Vec<u32> = t.draws.iter().map(|d| d.value).collect();
            if drawn != saved {
                return Err(err(format!(
                    "action {}: its draws {saved:?} are not what the seed {seed} gives ({drawn:?}): the saved game was changed",
                    i + 1
                )));
            }
        }
        // The state it was saved in, where it says (games saved before it said replay as they are).
        if let Some(h) = v.get("state_hash") {
            let want = h.as_str().ok_or_else(|| err("state_hash: text"))?;
            let got = format!("{:016x}", game.live.state_hash());
            if !want.eq_ignore_ascii_case(&got) {
                return Err(err(format!(
                    "the saved game replays to state {got}, not the {want} it was saved in: it was changed"
                )));
            }
        }
        Ok(game)
    }
}

/// One combat resolved at the umpire's desk (`situation` JSON text), with `draws` as a person
/// types them, else the seeded dice; the result as JSON text {text, resolution, draws}.
#[pyfunction]
#[pyo3(signature = (ruleset, situation, draws = None, seed = 0))]
fn resolve(py: Python<'_>, ruleset: &str, situation: &str, draws: Option<&str>, seed: u64) -> PyResult<String> {
    let (desk, situation) = at_the_desk(ruleset, situation)?;
    let r = py.detach(|| desk.resolve(&situation, draws, seed)).map_err(|e| err(e.message))?;
    to_text(&r)
}

/// The exact probability of every outcome of one combat, as JSON text {outcomes: [...]}.
#[pyfunction]
fn odds(py: Python<'_>, ruleset: &str, situation: &str) -> PyResult<String> {
    let (desk, situation) = at_the_desk(ruleset, situation)?;
    let r = py.detach(|| desk.odds(&situation)).map_err(|e| err(e.message))?;
    to_text(&r)
}

/// The rule set's desk and the situation (JSON text) read.
fn at_the_desk(ruleset: &str, situation: &str) -> PyResult<(Box<dyn volley_server::desk::Desk>, Value)> {
    let desk = volley_server::desk::desk(ruleset).ok_or_else(|| err(format!("no rule set is named {ruleset:?}")))?;
    let situation = serde_json::from_str(situation).map_err(|e| err(format!("the situation is not JSON: {e}")))?;
    Ok((desk, situation))
}

/// One column of a table of battles for Arrow: its name, its type (`u64`, `u32`, `u8`, `f64`), its values
/// little-endian in a `bytes` the table uses as it is, and its validity bitmap if it has nulls.
type Column<'py> = (&'static str, &'static str, Bound<'py, PyBytes>, Option<Bound<'py, PyBytes>>);

/// A column of `W`-byte values, written straight into the `bytes` Arrow will use.
fn column<'py, const W: usize>(
    py: Python<'py>,
    name: &'static str,
    kind: &'static str,
    records: &[volley_sim::BattleRecord],
    value: impl Fn(&volley_sim::BattleRecord) -> [u8; W],
) -> PyResult<Column<'py>> {
    let data = PyBytes::new_with(py, records.len() * W, |buf| {
        for (cell, r) in buf.chunks_exact_mut(W).zip(records) {
            cell.copy_from_slice(&value(r));
        }
        Ok(())
    })?;
    Ok((name, kind, data, None))
}

/// The battles' records as Arrow columns (see [`Column`]), one value a battle.
fn columns<'py>(py: Python<'py>, records: &[volley_sim::BattleRecord]) -> PyResult<Vec<Column<'py>>> {
    let mut out = vec![
        column(py, "index", "u64", records, |r| r.index.to_le_bytes())?,
        column(py, "seed", "u64", records, |r| r.seed.to_le_bytes())?,
        column(py, "winner", "u8", records, |r| [r.winner.unwrap_or(0)])?,
        column(py, "turns", "u32", records, |r| r.turns.to_le_bytes())?,
        column(py, "actions", "u64", records, |r| r.actions.to_le_bytes())?,
    ];
    if records.iter().any(|r| r.winner.is_none()) {
        let valid = PyBytes::new_with(py, records.len().div_ceil(8), |bits| {
            bits.fill(0);
            for (i, r) in records.iter().enumerate() {
                if r.winner.is_some() {
                    bits[i / 8] |= 1 << (i % 8);
                }
            }
            Ok(())
        })?;
        out[2].3 = Some(valid);
    }
    const SIDES: [[&str; 3]; 2] =
        [["side0_start", "side0_lost", "side0_running"], ["side1_start", "side1_lost", "side1_running"]];
    for (side, names) in SIDES.iter().enumerate() {
        out.push(column(py, names[0], "u64", records, |r| (r.sides[side].start as u64).to_le_bytes())?);
        out.push(column(py, names[1], "u64", records, |r| (r.sides[side].lost as u64).to_le_bytes())?);
        out.push(column(py, names[2], "u64", records, |r| (r.sides[side].running as u64).to_le_bytes())?);
    }
    out.push(column(py, "side0_casualty_pct", "f64", records, |r| r.sides[0].casualty_pct().to_le_bytes())?);
    out.push(column(py, "side1_casualty_pct", "f64", records, |r| r.sides[1].casualty_pct().to_le_bytes())?);
    Ok(out)
}

fn config(runs: u64, agents: (String, String), seed: u64, jobs: usize) -> volley_sim::Config {
    volley_sim::Config { runs, master_seed: seed, agents: [agents.0, agents.1], jobs, max_actions: 1_000_000 }
}

/// A bundled scenario by name, or a scenario file by path: (its path, its text).
#[pyfunction]
fn source(name_or_path: &str) -> PyResult<(String, String)> {
    let src = scenario_source(name_or_path)?;
    Ok((src.path, src.text))
}

/// The scenario `text` with the value at `path` (keys and list indices separated by dots) set to
/// each of `values` (read as TOML; a bare word is text), as `volley sweep --set` changes it: a
/// text a value; two values that make the same text are refused.
#[pyfunction]
fn edit_each(text: &str, path: &str, values: Vec<String>) -> PyResult<Vec<String>> {
    let values: Vec<&str> = values.iter().map(String::as_str).collect();
    volley_scenario::edit::set_each(text, path, &values).map_err(err)
}

/// Play `runs` battles of the scenario (`(path, text)`, as `source` gives it) as `volley simulate` does, with the
/// interpreter released: the battles as Arrow columns, and the summary (JSON text) as `volley
/// simulate`'s summary.json has it (the same master seed, the same figures, whatever `jobs`).
#[pyfunction]
#[pyo3(signature = (scenario, runs, agents = ("heuristic".to_string(), "heuristic".to_string()), seed = 1, jobs = 0))]
fn simulate<'py>(
    py: Python<'py>,
    scenario: (String, String),
    runs: u64,
    agents: (String, String),
    seed: u64,
    jobs: usize,
) -> PyResult<(Vec<Column<'py>>, String)> {
    if runs == 0 {
        return Err(err("runs: at least 1 battle"));
    }
    let battle = catalog::load_battle(&Source::new(scenario.0, scenario.1)).map_err(err)?;
    let cfg = config(runs, agents, seed, jobs);
    let (records, summary) = volley_server::with_battle!(battle, b => {
        // In slices, the interpreter released while each is played and asked between them
        // whether it was interrupted (Ctrl-C), so that a long simulation stops when asked.
        let mut records = Vec::with_capacity(usize::try_from(runs).unwrap_or(0).min(1 << 20));
        let threads = if jobs == 0 { std::thread::available_parallelism().map_or(1, usize::from) } else { jobs };
        let slice = SLICE.max(16 * threads as u64);
        let mut first = 0;
        while first < runs {
            let last = runs.min(first + slice);
            records.extend(py.detach(|| volley_sim::run_indices(&b, &cfg, first..last)).map_err(err)?);
            py.check_signals()?;
            first = last;
        }
        let summary = py.detach(|| volley_sim::summarize(&b, &cfg, &records));
        (records, to_text(&summary)?)
    });
    Ok((columns(py, &records)?, summary))
}

/// The fewest battles a simulation plays between two looks at whether it was interrupted (16 a
/// thread when there are more threads): every thread kept busy, and a stop within a second or so.
const SLICE: u64 = 256;

/// Nothing if the scenario (`(path, text)`) loads and the `agents` (if given) are agents' names;
/// else what is wrong.
#[pyfunction]
#[pyo3(signature = (scenario, agents = None))]
fn check(scenario: (String, String), agents: Option<(String, String)>) -> PyResult<()> {
    let battle = catalog::load_battle(&Source::new(scenario.0, scenario.1)).map_err(err)?;
    let Some(agents) = agents else { return Ok(()) };
    volley_server::with_battle!(battle, b => seated(&b, agents))
}

/// Whether both agents' names are known (an agent is made for each, as a simulation would).
fn seated<B: volley_server::live::Playable>(_: &B, agents: (String, String)) -> PyResult<()> {
    volley_ai::seated::<B>(&[agents.0, agents.1], 0).map(|_| ()).map_err(|n| err(volley_sim::SimError::Agent(n)))
}

/// The scenario's text by file path or bundled name.
fn scenario_source(scenario: &str) -> PyResult<Source> {
    catalog::source(scenario).map_err(err)
}

/// A share of a simulation, for a worker: the battles numbered `first .. first + count` of a
/// simulation from master `seed` (their seeds as `simulate` derives them), on `jobs` threads;
/// their records as JSON text.
#[pyfunction]
#[pyo3(signature = (scenario, first, count, agents, seed, jobs = 0))]
fn simulate_share(
    py: Python<'_>,
    scenario: (String, String),
    first: u64,
    count: u64,
    agents: (String, String),
    seed: u64,
    jobs: usize,
) -> PyResult<String> {
    let battle = catalog::load_battle(&Source::new(scenario.0, scenario.1)).map_err(err)?;
    let cfg = config(count, agents, seed, jobs);
    py.detach(|| {
        volley_server::with_battle!(battle, b => {
            let records = volley_sim::run_indices(&b, &cfg, first..first + count).map_err(err)?;
            to_text(&records)
        })
    })
}

/// A simulation gathered from its shares (`simulate_share`'s texts, in order, every battle of
/// `runs` once): the same columns and summary as `simulate` gives.
#[pyfunction]
fn gather<'py>(
    py: Python<'py>,
    scenario: (String, String),
    runs: u64,
    agents: (String, String),
    seed: u64,
    shares: Vec<String>,
) -> PyResult<(Vec<Column<'py>>, String)> {
    let battle = catalog::load_battle(&Source::new(scenario.0, scenario.1)).map_err(err)?;
    let mut records: Vec<volley_sim::BattleRecord> = Vec::with_capacity(runs as usize);
    for (i, share) in shares.iter().enumerate() {
        let part: Vec<volley_sim::BattleRecord> =
            serde_json::from_str(share).map_err(|e| err(format!("share {}: not a share's records: {e}", i + 1)))?;
        records.extend(part);
    }
    if records.len() as u64 != runs || records.iter().enumerate().any(|(i, r)| r.index != i as u64) {
        return Err(err(format!(
            "the shares gathered are not battles 0 to {}: a share is missing or repeated",
            runs.saturating_sub(1)
        )));
    }
    let cfg = config(runs, agents, seed, 1);
    let summary = volley_server::with_battle!(battle, b => to_text(&volley_sim::summarize(&b, &cfg, &records)))?;
    Ok((columns(py, &records)?, summary))
}

/// The module.
#[pymodule]
fn _volley(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(scenarios, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(odds, m)?)?;
    m.add_function(wrap_pyfunction!(simulate, m)?)?;
    m.add_function(wrap_pyfunction!(simulate_share, m)?)?;
    m.add_function(wrap_pyfunction!(gather, m)?)?;
    m.add_function(wrap_pyfunction!(source, m)?)?;
    m.add_function(wrap_pyfunction!(edit_each, m)?)?;
    m.add_function(wrap_pyfunction!(check, m)?)?;
    m.add_class::<Game>()?;
    Ok(())
}
