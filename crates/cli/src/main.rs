//! `volley`: play, check, replay and list horse-and-musket battles from the command line.

/// A mistake in what the user gave (a file, an option): reported with where it is, exit code 2.
#[derive(Debug)]
pub(crate) struct InputError(pub String);

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputError {}

/// An [`InputError`] from a format string, its quoted values kept short.
macro_rules! input {
    ($($arg:tt)*) => { anyhow::Error::new($crate::InputError(volley_scenario::shorten(&format!($($arg)*)).into_owned())) };
}

/// Return an [`InputError`] from a format string.
macro_rules! input_bail {
    ($($arg:tt)*) => { return Err(input!($($arg)*)) };
}

mod calc;
mod person;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context, Result, anyhow, bail};
use clap::{Parser, Subcommand, ValueEnum};
use serde::Serialize;
use volley_chance::Seeded;
use volley_core::log::{FORMAT, Header, Log, read_header};
use volley_core::run::{Runner, replay_verified};
use volley_core::{Agent, GameState, Heuristic, Tally, Viewer, hash_hex};
use volley_scenario::Source;
use volley_server::catalog as bundled;
use volley_server::catalog::{RULESETS, load_battle as load};

#[derive(Parser)]
#[command(name = "volley", version, about = "Rules engine and battle laboratory for horse-and-musket wargames")]
#[command(long_about = "Rules engine and battle laboratory for horse-and-musket wargames.\n\n\
Rule sets: blown-away (variants chance and without-chance), itchy-scratchy, old-fritz, der-alte-fritz, en-avant.\n\n\
A SCENARIO is a path to a scenario file or the name of a bundled one (see `volley scenarios`).\n\
Start with: volley play crossroads")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// A battle report for people.
    Text,
    /// One JSON object, for programs.
    Json,
}

#[derive(Subcommand)]
enum Command {
    /// List the bundled scenarios.
    Scenarios,
    /// Check scenario files: exit 0 if all are good, 2 with a diagnostic per problem.
    Check {
        /// Scenario files (or bundled names).
        #[arg(required = true)]
        files: Vec<String>,
    },
    /// Fight a battle to the end and print its account: computer players, or a person at the
    /// terminal against the computer (--agents person,heuristic).
    #[command(
        after_help = "A person (--agents person,heuristic) is shown, at each of his decisions, the battle as his\n\
side sees it and his choices numbered: he types a number, ? for help, or q to stop (Ctrl-D stops\n\
too); the battle is then summed up as far as it went, and --log writes its log, which `volley\n\
replay` rebuilds."
    )]
    Play {
        /// Scenario file or bundled name.
        scenario: String,
        /// Seed: the same seed fights the same battle.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who plays the first and second side, comma-separated: person (you, at the terminal),
        /// random, heuristic, or mcts (mcts:500ms for a time a decision, mcts:2000 for
        /// iterations, mcts:200ms:2t for threads).
        #[arg(long, default_value = "heuristic,heuristic")]
        agents: String,
        /// Write the battle's event log (JSON lines) here, to replay it later.
        #[arg(long)]
        log: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
        /// Stop the battle after this many actions if nothing has ended it (a scenario without
        /// a turn limit whose sides cannot finish each other), showing it as far as it went.
        #[arg(long, default_value_t = PLAY_MAX_ACTIONS, value_parser = clap::value_parser!(u64).range(1..))]
        max_actions: u64,
    },
    /// Play many battles of a scenario in parallel and sum them up: wins with 95% intervals,
    /// casualties, battle lengths, what became of each unit; with --out, the figures as JSON and
    /// CSV and plots as SVG.
    #[command(after_help = "Battle i has the seed `volley play --seed` would need to play it again: the\n\
`seed` column of battles.csv. The same --seed gives the same summary.json whatever --jobs is.")]
    Simulate {
        /// Scenario file or bundled name.
        scenario: String,
        /// Battles to play.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        runs: u64,
        /// Agents for the first and second side, comma-separated: random, heuristic, or mcts
        /// (mcts:500ms for a time a decision, mcts:2000 for iterations, mcts:200ms:2t for threads).
        #[arg(long, default_value = "heuristic,heuristic")]
        agents: String,
        /// The master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: one a core).
        #[arg(long, default_value_t = 0)]
        jobs: usize,
        /// Write summary.json, battles.csv and SVG plots into this directory (made if missing).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Play every pair of agents against each other, each on both sides, and print a cross
    /// table: the row agent's share of the decided battles, with its 95% interval.
    Tournament {
        /// Scenario file or bundled name.
        scenario: String,
        /// The agents, comma-separated: random, heuristic, mcts (mcts:500ms, mcts:2000, mcts:200ms:2t).
        #[arg(long, default_value = "random,heuristic")]
        agents: String,
        /// Battles for each pairing on each side.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
        runs: u64,
        /// The master seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: one a core).
        #[arg(long, default_value_t = 0)]
        jobs: usize,
        /// Leave out each agent's battles against itself.
        #[arg(long)]
        no_mirrors: bool,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Change one value of a scenario across a list and simulate battles at each: the win rates
    /// and casualties against the value.
    #[command(after_help = "PATH names a value of the scenario file: keys and list indices separated by dots.\n\
Examples:\n  volley sweep fieldworks --set sides.0.units.0.men=10,14,18,22 --runs 200\n  \
volley sweep mittelhof --set turn_limit=20,30,40 --out sweep")]
    Sweep {
        /// Scenario file or bundled name.
        scenario: String,
        /// PATH=V1,V2,...: the value to change and the values to try (a list in brackets, such as [10, 20], or a quoted text is one value).
        #[arg(long)]
        set: String,
        /// Battles at each value.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
        runs: u64,
        /// Agents for the first and second side, comma-separated: random, heuristic, or mcts
        /// (mcts:500ms for a time a decision, mcts:2000 for iterations, mcts:200ms:2t for threads).
        #[arg(long, default_value = "heuristic,heuristic")]
        agents: String,
        /// The master seed (the same at every value).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Threads (default: one a core).
        #[arg(long, default_value_t = 0)]
        jobs: usize,
        /// Write sweep.json, sweep.csv and plots of the win rates into this directory.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Rebuild a battle from its log and check it: every draw against the log's seed (a draw
    /// that was chosen, not drawn, is found out), the numbering of the actions, the end line's
    /// counts and final state hash, and the server's signature if the log has one.
    #[command(
        after_help = "Exit status: 0 when everything holds; 1 when it does not (a draw the seed does not give, an action missing, an end that miscounts, another final state, a broken signature, a signature by a key not trusted); 2 when the log cannot be read or is of a rule set this build does not play.
A log exported by a server (GET /api/games/ID/log) is signed. Anyone can sign a log with a key of his own, so a signature says something only if its key is one you trust: give the server's key (GET /api/key) with --trust (or keep such keys in a file, one a line, and give the file). A log signed by a key not trusted fails unless --accept-unknown-key.
Examples:\n  volley replay game.jsonl --trust a21d96bd…acd\n  volley replay game.jsonl --trust ~/.volley-trusted-keys"
    )]
    Replay {
        /// A log written by `volley play --log`, or exported by a server.
        log: PathBuf,
        /// Print the battle's account as it replays.
        #[arg(long)]
        verbose: bool,
        /// Write every unit's place, facing and state after each action to this file, as JSON
        /// lines (`{"n", "turn", "phase", "pieces": [...]}`, the umpire's view of the table),
        /// to check the table's geometry, plot a battle's movements or compare two battles.
        #[arg(long, value_name = "FILE")]
        trace: Option<PathBuf>,
        /// A key the log must be signed with (hex, as `GET /api/key` gives it), or a file of
        /// such keys (one a line; `#` begins a comment); repeat for several. An unsigned log, or
        /// one signed by a key not given, fails.
        #[arg(long = "trust", visible_alias = "key", value_name = "HEX|FILE")]
        trust: Vec<String>,
        /// Replay a log signed by a key not trusted all the same (the signature is still
        /// checked; its key is said, and that it is not trusted).
        #[arg(long)]
        accept_unknown_key: bool,
    },
    /// Resolve one combat described in a JSON file, with the seeded generator or the dice or
    /// cards rolled on a real table, and explain the result.
    #[command(after_help = "The situation's fields: `volley schema situation RULESET`.\n\
Examples:\n  volley resolve itchy-scratchy attack.json --draws \"1 1 4 4 5 6\"\n  \
volley resolve blown-away fight.json --draws \"Q 7\" --format json")]
    Resolve {
        /// The rule set.
        #[arg(value_parser = ruleset_id())]
        ruleset: String,
        /// The situation: a JSON file.
        situation: PathBuf,
        /// Seed for the dice or cards.
        #[arg(long, default_value_t = 1, conflicts_with = "draws")]
        seed: u64,
        /// The dice or cards turned up on the table, in the order drawn: numbers, or A, J, Q, K
        /// for cards (suits ignored): "Q 7", "1,1,4,4,5,6".
        #[arg(long)]
        draws: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// The exact probability of every outcome of one combat described in a JSON file.
    Odds {
        /// The rule set.
        #[arg(value_parser = ruleset_id())]
        ruleset: String,
        /// The situation: a JSON file.
        situation: PathBuf,
        /// Output format.
        #[arg(long, value_enum, default_value_t = Format::Text)]
        format: Format,
    },
    /// Serve the game in the browser: pick a battle, play it against the computer or a friend.
    #[command(after_help = "Open the address it prints in a browser. Games are kept in the database\n\
(created if missing) and carry on after a restart; each keeps its scenario's text, so a game of a\n\
folder's battle plays on whatever becomes of the file.")]
    Serve {
        /// Address to listen on.
        #[arg(long, default_value = "127.0.0.1:8080")]
        addr: String,
        /// The SQLite file the games are kept in.
        #[arg(long, default_value = "volley.db")]
        db: PathBuf,
        /// Offer this folder's scenarios (its *.toml files) beside the bundled ones, each checked
        /// at the start: one that does not load is told on stderr (file:line:col) and left out.
        #[arg(long, value_name = "DIR")]
        scenarios: Option<PathBuf>,
        /// Games one address may create a minute (a club behind one address may want more).
        #[arg(long, default_value_t = 20, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        games_per_minute: u32,
        /// Live channels (WebSockets: open games' pages) one address may hold at once.
        #[arg(long, default_value_t = 16, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        watchers_per_address: u32,
        /// Answer only requests for this host name (as the browser's address bar has it, without
        /// the port); repeat for several. Without it, any: set it on a public server, so that a
        /// page of another site cannot reach this one through a name it controls.
        #[arg(long = "host", value_name = "NAME")]
        hosts: Vec<String>,
        /// A proxy in front of the server (its address, as the server sees it connect) whose
        /// X-Forwarded-For is taken for the client's address: the per-address limits then count
        /// each client, not the proxy. Repeat for several. Never name one that does not set it.
        #[arg(long = "trusted-proxy", value_name = "IP")]
        trusted_proxies: Vec<std::net::IpAddr>,
        /// Memory for games kept between requests, MiB (by an estimate of each game's size):
        /// past it the least recently used idle games are let go and rebuilt from the store when
        /// asked for again. Games being played, or a computer is thinking about, always stay.
        #[arg(long, default_value_t = 256, value_name = "MIB", value_parser = clap::value_parser!(u32).range(16..))]
        memory: u32,
        /// API requests in hand at once, past which a new one is answered at once "busy, try
        /// again" (503, Retry-After: 1) rather than left waiting: under more load than the
        /// machine serves, those let in are answered in time (the page asks again by itself).
        #[arg(long, default_value_t = 256, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
        waiting: u32,
    },
    /// Make a bigger battle from a scenario: copies side by side on a table as many times as
    /// wide (every place moved, every name numbered), for measuring how costs grow with size.
    #[command(after_help = "Example:\n  volley generate mittelhof --times 10 --out mittelhof-x10.toml\n  \
volley simulate mittelhof-x10.toml --runs 10")]
    Generate {
        /// Scenario file or bundled name.
        scenario: String,
        /// How many copies.
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..=1000))]
        times: u32,
        /// Write the new scenario here (default: print it).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Print a JSON Schema: of scenario files, or of a rule set's combat situation.
    Schema {
        /// What to describe.
        #[arg(value_enum)]
        what: SchemaKind,
        /// The rule set (each has its own scenario files and situations).
        #[arg(value_parser = ruleset_id())]
        ruleset: Option<String>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum SchemaKind {
    /// Scenario files.
    Scenario,
    /// A combat situation for `volley resolve` and `volley odds`.
    Situation,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        // A reader that stopped reading (`volley play ... | head`) is not an error.
        Err(e)
            if e.chain().any(|c| {
                c.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            }) =>
        {
            ExitCode::SUCCESS
        }
        // A mistake in the user's input: exit 2, as `check` does for a scenario's.
        Err(e) if e.downcast_ref::<InputError>().is_some() => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
        Err(e) => {
            eprintln!("error: {}", volley_scenario::shorten(&format!("{e:#}")));
            ExitCode::from(1)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Scenarios => {
            let mut out = std::io::stdout().lock();
            for s in bundled::list() {
                let variant = s.variant.map(|v| format!(" ({v})")).unwrap_or_default();
                writeln!(out, "{:<32} {}{variant}", s.name, s.ruleset)?;
                if !s.description.is_empty() {
                    writeln!(out, "    {}", s.description)?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check { files } => {
            let mut bad = false;
            for f in files {
                match read_scenario(&f) {
                    Ok(src) => match load(&src) {
                        Ok(_) => println!("{}: ok", src.path),
                        Err(e) => {
                            bad = true;
                            eprintln!("{e}");
                        }
                    },
                    Err(e) => {
                        bad = true;
                        eprintln!("{f}: {e:#}");
                    }
                }
            }
            Ok(if bad { ExitCode::from(2) } else { ExitCode::SUCCESS })
        }
        Command::Play { scenario, seed, agents, log, format, max_actions } => {
            let src = read_scenario(&scenario)?;
            let battle = match load(&src) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let names: Vec<String> = agents.split(',').map(|s| s.trim().to_string()).collect();
            if names.len() != 2 {
                input_bail!("--agents takes two names separated by a comma, such as heuristic,random");
            }
            let run = PlayRun { src: &src, seed, names: &names, log, format, max_actions };
            let id = battle.id();
            if names.iter().any(|n| n == person::PERSON) {
                if format == Format::Json {
                    input_bail!("--format json is for battles of computers alone: a person plays in words");
                }
                volley_server::with_battle!(battle, b => person::play(b, id, &run)?);
            } else {
                volley_server::with_battle!(battle, b => play(b, id, &run)?);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Replay { log, verbose, trace, trust, accept_unknown_key } => {
            let trusted = trusted_keys(&trust)?;
            replay_log(&log, verbose, trace.as_deref(), &Trust { keys: trusted, accept_unknown: accept_unknown_key })
        }
        Command::Sweep { scenario, set, runs, agents, seed, jobs, out } => {
            let src = read_scenario(&scenario)?;
            let (path, values) =
                set.split_once('=').ok_or_else(|| input!("--set takes PATH=V1,V2,..., such as turn_limit=20,30"))?;
            let values: Vec<&str> = split_values(values).into_iter().map(str::trim).filter(|v| !v.is_empty()).collect();
            if values.is_empty() {
                input_bail!("--set {path}=: give the values to try, separated by commas");
            }
            let cfg = volley_sim::Config {
                runs,
                master_seed: seed,
                agents: two_agents(&agents, "sweep")?,
                jobs,
                max_actions: 1_000_000,
            };
            // The file as written first: its own faults are told as `volley check` tells them.
            if let Err(e) = load(&src) {
                input_bail!("{e}");
            }
            let mut rows = Vec::new();
            let texts = volley_scenario::edit::set_each(&src.text, path, &values).map_err(|e| input!("--set {e}"))?;
            for (text, v) in texts.into_iter().zip(&values) {
                let changed = Source::new(format!("{} ({path} = {v})", src.path), text);
                let summary = match load(&changed) {
                    Ok(battle) => volley_server::with_battle!(battle, b => sweep_point(&b, &cfg)?),
                    Err(e) => input_bail!("with {path} = {v} the scenario does not load:\n{e}"),
                };
                rows.push((v.to_string(), summary));
            }
            let mut w = std::io::stdout().lock();
            let (n0, n1) = (rows[0].1.sides[0].name.clone(), rows[0].1.sides[1].name.clone());
            writeln!(w, "{}: {path} at {} values, {} battles each", rows[0].1.scenario, rows.len(), cfg.runs)?;
            writeln!(
                w,
                "{:>12} {:>24} {:>24} {:>7} {:>12} {:>12}",
                path.rsplit('.').next().unwrap_or(path),
                format!("{n0} win"),
                format!("{n1} win"),
                "draws",
                format!("{n0} lost"),
                format!("{n1} lost")
            )?;
            let mut csv = String::from(
                "value,side0_wins,side0_rate,side0_lo,side0_hi,side1_wins,side1_rate,side1_lo,side1_hi,draws,side0_casualty_pct,side1_casualty_pct\n",
            );
            for (v, s) in &rows {
                let cell = |i: usize| {
                    let x = &s.sides[i];
                    format!(
                        "{:.0}% ({:.0}-{:.0}%)",
                        x.win_rate * 100.0,
                        x.win_rate_95[0] * 100.0,
                        x.win_rate_95[1] * 100.0
                    )
                };
                writeln!(
                    w,
                    "{v:>12} {:>24} {:>24} {:>7} {:>11.1}% {:>11.1}%",
                    cell(0),
                    cell(1),
                    s.draws,
                    s.sides[0].casualty_pct.mean,
                    s.sides[1].casualty_pct.mean
                )?;
                csv.push_str(&format!(
                    "{v},{},{:.4},{:.4},{:.4},{},{:.4},{:.4},{:.4},{},{:.2},{:.2}\n",
                    s.sides[0].wins,
                    s.sides[0].win_rate,
                    s.sides[0].win_rate_95[0],
                    s.sides[0].win_rate_95[1],
                    s.sides[1].wins,
                    s.sides[1].win_rate,
                    s.sides[1].win_rate_95[0],
                    s.sides[1].win_rate_95[1],
                    s.draws,
                    s.sides[0].casualty_pct.mean,
                    s.sides[1].casualty_pct.mean
                ));
            }
            if let Some(dir) = out {
                std::fs::create_dir_all(&dir).with_context(|| format!("cannot make {}", dir.display()))?;
                let json: Vec<serde_json::Value> =
                    rows.iter().map(|(v, s)| serde_json::json!({"value": v, "summary": s})).collect();
                std::fs::write(dir.join("sweep.json"), serde_json::to_string_pretty(&json)? + "\n")?;
                std::fs::write(dir.join("sweep.csv"), csv)?;
                for (i, name) in [(0usize, &n0), (1usize, &n1)] {
                    let bars: Vec<(&str, f64, [f64; 2])> =
                        rows.iter().map(|(v, s)| (v.as_str(), s.sides[i].win_rate, s.sides[i].win_rate_95)).collect();
                    let plot = volley_sim::plot::rates(&format!("{name} win rate against {path}"), &bars);
                    std::fs::write(dir.join(format!("wins-side{i}.svg")), plot)?;
                }
                writeln!(w, "written: {}/{{sweep.json, sweep.csv, wins-side0.svg, wins-side1.svg}}", dir.display())?;
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Tournament { scenario, agents, runs, seed, jobs, no_mirrors, format } => {
            let src = read_scenario(&scenario)?;
            let battle = match load(&src) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let names: Vec<String> =
                agents.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect();
            if names.len() < 2 {
                input_bail!("--agents takes two or more names separated by commas, such as random,heuristic");
            }
            computers_only(&names, "tournament")?;
            use std::io::IsTerminal;
            let tty = std::io::stderr().is_terminal();
            let progress = |a: &str, b: &str, done: u64| {
                if tty {
                    eprint!("\r  {a} against {b}: {done} of {} battles   ", runs * 2);
                    if done == runs * 2 {
                        eprintln!();
                    }
                }
            };
            let mirrors = !no_mirrors;
            let table = volley_server::with_battle!(&battle, b => volley_sim::tournament(b, &names, runs, seed, jobs, mirrors, &progress))
            .map_err(|e| anyhow!("{e}"))?;
            let mut w = std::io::stdout().lock();
            match format {
                Format::Json => writeln!(w, "{}", serde_json::to_string_pretty(&table)?)?,
                Format::Text => {
                    writeln!(
                        w,
                        "{scenario}: {runs} battles a pairing on each side; the row's share of decided battles (95% interval)"
                    )?;
                    write!(w, "{:>12}", "")?;
                    for n in &names {
                        write!(w, " {n:>22}")?;
                    }
                    writeln!(w)?;
                    for a in &names {
                        write!(w, "{a:>12}")?;
                        for b in &names {
                            let cell = table.iter().find_map(|p| {
                                if &p.a == a && &p.b == b {
                                    Some((p.a_rate, p.a_rate_95))
                                } else if &p.a == b && &p.b == a {
                                    let decided = p.a_wins + p.b_wins;
                                    Some((1.0 - p.a_rate, volley_sim::stats::wilson(p.b_wins, decided)))
                                } else {
                                    None
                                }
                            });
                            match cell {
                                Some((r, [lo, hi])) => write!(
                                    w,
                                    " {:>22}",
                                    format!("{:.0}% ({:.0}-{:.0}%)", r * 100.0, lo * 100.0, hi * 100.0)
                                )?,
                                None => write!(w, " {:>22}", "-")?,
                            }
                        }
                        writeln!(w)?;
                    }
                    let draws: u64 = table.iter().map(|p| p.draws).sum();
                    writeln!(w, "draws in all pairings: {draws}")?;
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Simulate { scenario, runs, agents, seed, jobs, out, format } => {
            let src = read_scenario(&scenario)?;
            let battle = match load(&src) {
                Ok(b) => b,
                Err(e) => {
                    eprintln!("{e}");
                    return Ok(ExitCode::from(2));
                }
            };
            let cfg = volley_sim::Config {
                runs,
                master_seed: seed,
                agents: two_agents(&agents, "simulate")?,
                jobs,
                max_actions: 1_000_000,
            };
            volley_server::with_battle!(battle, b => simulate(&b, &cfg, out.as_deref(), format)?);
            Ok(ExitCode::SUCCESS)
        }
        Command::Serve {
            addr,
            db,
            scenarios,
            games_per_minute,
            watchers_per_address,
            hosts,
            trusted_proxies,
            memory,
            waiting,
        } => {
            let library = match &scenarios {
                Some(dir) => folder_library(dir)?,
                None => bundled::Library::default(),
            };
            let store = volley_store::SqliteStore::open_exclusive(&db)
                .with_context(|| format!("cannot open the game store {}", db.display()))?;
            let rt = tokio::runtime::Runtime::new().context("cannot start the server's runtime")?;
            let limits = volley_server::limits::Limits {
                creations_per_minute: f64::from(games_per_minute),
                watchers_per_client: watchers_per_address as usize,
                hosts,
                trusted_proxies,
                memory_for_games: (memory as usize) << 20,
                waiting: waiting as usize,
                ..volley_server::limits::Limits::default()
            };
            let served =
                rt.block_on(volley_server::serve_offering(&addr, std::sync::Arc::new(store), limits, library, |a| {
                    println!("volley is serving on http://{a}/ (games kept in {}); Ctrl-C stops it", db.display());
                }));
            // Computer players still thinking are not waited for: every action is stored already.
            rt.shutdown_timeout(std::time::Duration::from_secs(2));
            served?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Resolve { ruleset, situation, seed, draws, format } => {
            let source = match &draws {
                Some(d) => calc::Source::Entered(d),
                None => calc::Source::Seed(seed),
            };
            volley_server::with_calculator!(&ruleset, C, _S => calc::resolve(&C::default(), &situation, source, format),
                else Err(input!("no rule set {ruleset:?}: {:?}", bundled::CALCULATORS)))
        }
        Command::Odds { ruleset, situation, format } => volley_server::with_calculator!(&ruleset, C, _S =>
            calc::odds(&C::default(), &situation, format),
            else Err(input!("no rule set {ruleset:?}: {:?}", bundled::CALCULATORS))),
        Command::Generate { scenario, times, out } => {
            let src = read_scenario(&scenario)?;
            let text = volley_scenario::generate::tile(&src.text, times).map_err(|e| input!("{}: {e}", src.path))?;
            // What is made must load: the same checks as `volley check`.
            if let Err(e) = load(&Source::new("(generated)", text.clone())) {
                // One problem is often repeated for every copy: the first few say what it is.
                let e = e.to_string();
                let lines: Vec<&str> = e.lines().collect();
                let shown = lines[..lines.len().min(GENERATE_PROBLEMS_SHOWN)].join("\n");
                let more = lines.len().saturating_sub(GENERATE_PROBLEMS_SHOWN);
                let more = if more > 0 { format!("\n... and {more} more") } else { String::new() };
                input_bail!("the generated scenario ({times} copies of {}) does not load:\n{shown}{more}", src.path);
            }
            match out {
                Some(path) => {
                    std::fs::write(&path, &text).with_context(|| format!("cannot write {}", path.display()))?;
                    eprintln!("written: {} ({times} copies of {})", path.display(), src.path);
                }
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Schema { what, ruleset } => {
            let schema = match (what, ruleset) {
                (SchemaKind::Situation, None) => {
                    input_bail!(
                        "which rule set's situation? volley schema situation {}",
                        bundled::CALCULATORS.join(" | ")
                    )
                }
                (SchemaKind::Situation, Some(id)) => {
                    volley_server::with_calculator!(&id, _C, S => schemars::schema_for!(S),
                    else input_bail!("no rule set {id:?}: {:?}", bundled::CALCULATORS))
                }
                (SchemaKind::Scenario, None) => {
                    input_bail!(
                        "which rule set's scenario files? each has its own: volley schema scenario {}",
                        bundled::RULESETS.join(" | ")
                    )
                }
                (SchemaKind::Scenario, Some(id)) => {
                    let id = id.as_str();
                    volley_server::with_ruleset!(id, _B, _C, _S, F => schemars::schema_for!(F),
                    else if bundled::CALCULATORS.contains(&id) {
                        input_bail!("{id} has no scenarios yet: its battle is not built (only its calculator)")
                    } else {
                        input_bail!("no rule set {id:?}: this build plays {:?}", bundled::RULESETS)
                    })
                }
            };
            println!("{}", serde_json::to_string_pretty(&schema)?);
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The scenarios of folder `dir` (its `*.toml` files, by name) for the server to offer beside the
/// bundled ones: each is checked, and one that does not load is told on stderr and left out.
fn folder_library(dir: &std::path::Path) -> Result<bundled::Library> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| input!("--scenarios {}: cannot read the folder: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml") && p.is_file())
        .collect();
    paths.sort();
    let mut files = Vec::new();
    let mut problems = Vec::new();
    for p in &paths {
        let name = p.display().to_string();
        match volley_server::catalog::read_file(p, volley_server::catalog::SCENARIO_LIMIT) {
            Ok(bytes) => match Source::from_bytes(name, bytes) {
                Ok(src) => files.push(src),
                Err(d) => problems.push(d.to_string()),
            },
            Err(e) => problems.push(format!("{name}: cannot read it: {e}")),
        }
    }
    let (library, more) = bundled::Library::with_files(files);
    problems.extend(more);
    for p in &problems {
        eprintln!("{p}");
    }
    let offered = library.list().len() - bundled::list().len();
    println!(
        "{offered} scenario{} from {} beside the bundled ones{}",
        if offered == 1 { "" } else { "s" },
        dir.display(),
        if problems.is_empty() { String::new() } else { format!("; {} left out (above)", paths.len() - offered) }
    );
    Ok(library)
}

/// Read a scenario from a path or a bundled name.
fn read_scenario(name: &str) -> Result<Source> {
    bundled::source(name).map_err(|e| input!("{e}"))
}

/// A file's bytes as text, or an input error at the first byte that is not UTF-8.
pub(crate) fn utf8(name: &str, bytes: Vec<u8>) -> Result<String> {
    Source::from_bytes(name, bytes).map(|s| s.text).map_err(|d| input!("{d}"))
}

/// The most actions `volley play` lets a battle run before stopping it as one nothing ends
/// (about two minutes of a battle's work on this machine; the biggest battles made by
/// `volley generate` end in far fewer).
const PLAY_MAX_ACTIONS: u64 = 1_000_000;

/// The most of a generated scenario's problems `volley generate` shows.
const GENERATE_PROBLEMS_SHOWN: usize = 5;

/// `value_parser` for a rule set's id: one of those whose calculator this build has.
fn ruleset_id() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(volley_server::catalog::CALCULATORS.iter().copied())
}

/// A battle the cli can play, report and replay.
trait Playable: GameState + Heuristic + Tally + Sync {}
impl<T: GameState + Heuristic + Tally + Sync> Playable for T {}

#[derive(Serialize)]
struct SideReport {
    name: String,
    agent: String,
    /// What the next three count: "men" or "strength points".
    measure: &'static str,
    men_start: usize,
    killed: usize,
    running: usize,
    casualty_pct: f64,
}

#[derive(Serialize)]
struct Report {
    scenario: String,
    ruleset: String,
    variant: Option<String>,
    seed: u64,
    turns: u32,
    actions: u64,
    /// Whether the battle ended (a battle stopped at `PLAY_MAX_ACTIONS` did not).
    over: bool,
    winner: Option<String>,
    reason: String,
    sides: Vec<SideReport>,
    state_hash: String,
}

fn report<B: Playable>(b: &B, ruleset: &str, seed: u64, agents: &[String], actions: u64) -> Report {
    let outcome = b.outcome();
    Report {
        scenario: b.scenario_name().to_string(),
        ruleset: ruleset.to_string(),
        variant: b.variant().map(str::to_string),
        seed,
        turns: b.phase().turn,
        actions,
        over: outcome.is_some(),
        winner: outcome.as_ref().and_then(|o| o.winner).map(|w| b.side_name(w).to_string()),
        reason: outcome.map(|o| o.reason).unwrap_or_default(),
        sides: (0..2u8)
            .map(|s| {
                let (start, killed, running) = b.tally(s);
                SideReport {
                    name: b.side_name(s).to_string(),
                    agent: agents.get(usize::from(s)).cloned().unwrap_or_default(),
                    measure: b.measure(),
                    men_start: start,
                    killed,
                    running,
                    casualty_pct: (killed as f64 * 1000.0 / start.max(1) as f64).round() / 10.0,
                }
            })
            .collect(),
        state_hash: hash_hex(b.state_hash()),
    }
}

/// How `volley play` plays a battle.
struct PlayRun<'a> {
    src: &'a Source,
    seed: u64,
    names: &'a [String],
    log: Option<PathBuf>,
    format: Format,
    max_actions: u64,
}

fn play<B: Playable>(battle: B, ruleset: &str, run: &PlayRun<'_>) -> Result<()> {
    let PlayRun { src, seed, names, format, max_actions, .. } = *run;
    let mut agents: Vec<Box<dyn Agent<B>>> = volley_ai::seated(names, seed).map_err(|n| unknown_agent(&n))?;
    let header = play_header(&battle, ruleset, src, seed, names);
    let refs: Vec<&mut dyn Agent<B>> = agents.iter_mut().map(|a| &mut **a as &mut dyn Agent<B>).collect();
    let mut runner = Runner::new(battle, header, refs);
    runner.keep_events = format == Format::Text;
    let mut rng = Seeded::new(seed);
    // A battle nothing in its scenario ends is stopped, and shown as far as it went.
    let stopped = match runner.play(&mut rng, max_actions) {
        Ok(()) => false,
        Err(volley_core::run::RunError::TooLong(_)) => {
            runner.finish();
            true
        }
        Err(e) => bail!("the battle could not be played: {e}"),
    };
    let actions = runner.log.entries.len() as u64;
    if let Some(path) = &run.log {
        std::fs::write(path, runner.log.to_jsonl())
            .with_context(|| format!("cannot write the log to {}", path.display()))?;
    }
    let rep = report(&runner.state, ruleset, seed, names, actions);
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&rep)?)?,
        Format::Text => {
            let variant = rep.variant.as_ref().map(|v| format!(", {v} version")).unwrap_or_default();
            writeln!(
                out,
                "{} ({ruleset}{variant}), seed {seed}: {} ({}) against {} ({})",
                rep.scenario, rep.sides[0].name, names[0], rep.sides[1].name, names[1]
            )?;
            for (_, e) in &runner.events {
                let line = e.to_string();
                if line.starts_with("Turn ") {
                    writeln!(out, "{line}")?;
                } else {
                    writeln!(out, "  {line}")?;
                }
            }
            write_summary(&mut out, &rep)?;
        }
    }
    if stopped {
        bail!(
            "the battle was stopped after {actions} actions, at turn {}, without an end: nothing in the \
             scenario ended it (a `turn_limit` would); above is the battle so far",
            rep.turns
        );
    }
    Ok(())
}

/// `--set`'s values: separated by commas outside brackets, braces and quotes, so that a list
/// (`[10, 20]`) or a text with a comma is one value.
fn split_values(values: &str) -> Vec<&str> {
    let (mut out, mut depth, mut quote, mut from) = (Vec::new(), 0i32, None, 0);
    for (i, c) in values.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '[' | '{') => depth += 1,
            (None, ']' | '}') => depth -= 1,
            (None, ',') if depth <= 0 => {
                out.push(&values[from..i]);
                from = i + 1;
            }
            _ => {}
        }
    }
    out.push(&values[from..]);
    out
}

fn sweep_point<B: Playable>(start: &B, cfg: &volley_sim::Config) -> Result<volley_sim::Summary> {
    volley_sim::simulate(start, cfg, &|_| {}).map_err(|e| anyhow!("{e}"))
}

/// The two agents of `--agents`, one a side, for `command` (which plays computers alone).
fn two_agents(agents: &str, command: &str) -> Result<[String; 2]> {
    let names: Vec<String> = agents.split(',').map(|s| s.trim().to_string()).collect();
    computers_only(&names, command)?;
    match names.as_slice() {
        [a, b] => Ok([a.clone(), b.clone()]),
        _ => input_bail!("--agents takes two names separated by a comma, such as heuristic,random"),
    }
}

/// Refuse a person among the agents of `command`, which plays many battles of computers.
fn computers_only(names: &[String], command: &str) -> Result<()> {
    if names.iter().any(|n| n == person::PERSON) {
        input_bail!(
            "--agents: a person plays one battle, with `volley play SCENARIO --agents person,heuristic` (or in the \
             browser: `volley serve`); `volley {command}` plays many battles of computers: {}",
            volley_ai::AGENTS.join(", ")
        );
    }
    Ok(())
}

/// The error for an agent's name that is not one.
fn unknown_agent(name: &str) -> anyhow::Error {
    input!("unknown agent {name:?}: expected {} or one of {}", person::PERSON, volley_ai::AGENTS.join(", "))
}

/// The log's header for a battle `volley play` fights.
fn play_header<B: Playable>(battle: &B, ruleset: &str, src: &Source, seed: u64, names: &[String]) -> Header {
    Header {
        format: FORMAT.to_string(),
        ruleset: ruleset.to_string(),
        variant: battle.variant().map(str::to_string),
        scenario_path: src.path.clone(),
        scenario_hash: src.hash(),
        scenario: src.text.clone(),
        seed,
        agents: names.to_vec(),
        seed_chosen: true,
        draws: volley_core::log::DrawScheme::Sequential,
    }
}

fn simulate<B: Playable>(
    start: &B,
    cfg: &volley_sim::Config,
    out: Option<&std::path::Path>,
    format: Format,
) -> Result<()> {
    use std::io::IsTerminal;
    let tty = std::io::stderr().is_terminal();
    let every = (cfg.runs / 200).max(1);
    let progress = |done: u64| {
        if tty && (done.is_multiple_of(every) || done == cfg.runs) {
            eprint!("\r  {done} of {} battles", cfg.runs);
            if done == cfg.runs {
                eprintln!();
            }
        }
    };
    // battles.csv is written as the battles come in, and only running sums are kept: a run of
    // any length takes the same memory.
    let mut csv = match out {
        Some(dir) => {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot make {}", dir.display()))?;
            let path = dir.join("battles.csv");
            let f = std::fs::File::create(&path).with_context(|| format!("cannot write {}", path.display()))?;
            let mut f = std::io::BufWriter::new(f);
            f.write_all(volley_sim::csv_header(start).as_bytes())?;
            Some((f, path))
        }
        None => None,
    };
    let mut acc = volley_sim::Accumulator::new(start);
    volley_sim::run_each(start, cfg, &progress, &mut |r| {
        acc.add(&r);
        match &mut csv {
            Some((f, _)) => f.write_all(volley_sim::csv_row(start, &r).as_bytes()),
            None => Ok(()),
        }
    })
    .map_err(|e| anyhow!("{e}"))?;
    if let Some((mut f, path)) = csv {
        f.flush().with_context(|| format!("cannot write {}", path.display()))?;
    }
    let summary = acc.summary(start, cfg);
    let json = serde_json::to_string_pretty(&summary)?;
    if let Some(dir) = out {
        let write = |name: &str, text: &str| {
            std::fs::write(dir.join(name), text).with_context(|| format!("cannot write {}", dir.join(name).display()))
        };
        write("summary.json", &(json.clone() + "\n"))?;
        let cas = |s: u8| acc.casualties(s).histogram(20, 0.0, 100.0);
        let (n0, n1) = (start.side_name(0), start.side_name(1));
        write(
            "casualties.svg",
            &volley_sim::plot::histogram(
                &format!("{}: casualties ({} battles)", summary.scenario, summary.runs),
                &format!("{} lost, % of the start", summary.measure),
                0.0,
                100.0,
                &[(n0, cas(0)), (n1, cas(1))],
            ),
        )?;
        let longest = acc.turns().dist().max.max(1.0) as u32;
        let bins = (longest as usize).min(30);
        write(
            "length.svg",
            &volley_sim::plot::histogram(
                &format!("{}: battle length", summary.scenario),
                "turns",
                0.0,
                f64::from(longest),
                &[("battles", acc.turns().histogram(bins, 0.0, f64::from(longest)))],
            ),
        )?;
        let draw_rate = summary.draws as f64 / summary.runs.max(1) as f64;
        let bars = [
            (n0, summary.sides[0].win_rate, summary.sides[0].win_rate_95),
            (n1, summary.sides[1].win_rate, summary.sides[1].win_rate_95),
            ("draws", draw_rate, summary.draw_rate_95),
        ];
        write("wins.svg", &volley_sim::plot::rates(&format!("{}: who wins", summary.scenario), &bars))?;
    }
    let mut w = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(w, "{json}")?,
        Format::Text => {
            writeln!(
                w,
                "{}: {} battles, {} ({}) against {} ({}), master seed {}",
                summary.scenario,
                summary.runs,
                summary.sides[0].name,
                summary.sides[0].agent,
                summary.sides[1].name,
                summary.sides[1].agent,
                summary.master_seed
            )?;
            for s in &summary.sides {
                let c = &s.casualty_pct;
                writeln!(
                    w,
                    "  {}: {} wins, {:.1}% (95%: {:.1}-{:.1}%); casualties {:.1}% mean, {:.1}% median, {:.1}-{:.1}% (10th-90th)",
                    s.name,
                    s.wins,
                    s.win_rate * 100.0,
                    s.win_rate_95[0] * 100.0,
                    s.win_rate_95[1] * 100.0,
                    c.mean,
                    c.median,
                    c.p10,
                    c.p90
                )?;
            }
            writeln!(w, "  draws: {}", summary.draws)?;
            let t = &summary.turns;
            writeln!(
                w,
                "  length: {:.1} turns mean, {:.0} median, {:.0}-{:.0} (10th-90th)",
                t.mean, t.median, t.p10, t.p90
            )?;
            let mut lost: Vec<&volley_sim::UnitSummary> =
                summary.units.iter().filter(|u| u.gone + u.routed > 0).collect();
            lost.sort_by_key(|u| std::cmp::Reverse(u.gone + u.routed));
            for u in lost.iter().take(8) {
                writeln!(w, "  {}: gone in {} battles, running at the end in {}", u.name, u.gone, u.routed)?;
            }
            if let Some(dir) = out {
                writeln!(
                    w,
                    "  written: {}/{{summary.json, battles.csv, casualties.svg, length.svg, wins.svg}}",
                    dir.display()
                )?;
            }
        }
    }
    Ok(())
}

fn write_summary(out: &mut impl Write, rep: &Report) -> Result<()> {
    let turns = if rep.turns == 1 { "1 turn".to_string() } else { format!("{} turns", rep.turns) };
    match &rep.winner {
        _ if !rep.over => writeln!(out, "Result: none: the battle was stopped after {turns}, still going.")?,
        Some(w) => writeln!(out, "Result: {w} win after {turns}: {}.", rep.reason)?,
        None => writeln!(out, "Result: a draw after {turns}: {}.", rep.reason)?,
    }
    let parts: Vec<String> = rep
        .sides
        .iter()
        .map(|s| match s.measure {
            "men" => format!(
                "{} {:.0}% ({} of {} killed, {} running)",
                s.name, s.casualty_pct, s.killed, s.men_start, s.running
            ),
            m => format!("{} {:.0}% ({} of {} {m} lost)", s.name, s.casualty_pct, s.killed, s.men_start),
        })
        .collect();
    writeln!(out, "Casualties: {}", parts.join("; "))?;
    Ok(())
}

/// The keys whose signatures a replay trusts, and whether one signed by another is replayed all
/// the same.
struct Trust {
    /// Public keys, hex in lower case; none given, none trusted.
    keys: Vec<String>,
    /// Replay a log signed by a key not trusted (saying so).
    accept_unknown: bool,
}

/// The keys `--trust` gives: each a key (64 hex digits) or a file of keys, one a line.
fn trusted_keys(given: &[String]) -> Result<Vec<String>> {
    let is_key = |t: &str| t.len() == 64 && t.chars().all(|c| c.is_ascii_hexdigit());
    let mut keys = Vec::new();
    for g in given {
        let g = g.trim();
        if is_key(g) {
            keys.push(g.to_ascii_lowercase());
            continue;
        }
        let path = std::path::Path::new(g);
        let bytes = volley_server::catalog::read_file(path, 1 << 20)
            .map_err(|e| input!("--trust {g}: neither a key (64 hex digits) nor a file of keys: {e}"))?;
        let text = utf8(g, bytes)?;
        for (i, line) in text.lines().enumerate() {
            let key = line.split('#').next().unwrap_or("").trim();
            if key.is_empty() {
                continue;
            }
            if !is_key(key) {
                input_bail!("{g}:{}:1: not a key (64 hex digits): {key:?}", i + 1);
            }
            keys.push(key.to_ascii_lowercase());
        }
    }
    Ok(keys)
}

/// The most a battle's log may hold: 1 GiB (Lobositz, the largest bundled battle, logs a few
/// megabytes).
const LOG_LIMIT: u64 = 1 << 30;

fn replay_log(
    path: &std::path::Path,
    verbose: bool,
    trace: Option<&std::path::Path>,
    trust: &Trust,
) -> Result<ExitCode> {
    let bytes = volley_server::catalog::read_file(path, LOG_LIMIT)
        .map_err(|e| input!("cannot read {}: {e}", path.display()))?;
    let text = utf8(&path.display().to_string(), bytes)?;
    let header = read_header(&text).map_err(|e| input!("{}: {e}", path.display()))?;
    volley_server::with_ruleset!(header.ruleset.as_str(), B, _C, _S, _F => replay_as::<B>(path, &text, verbose, trace, trust),
        else input_bail!("{}: the log is of rule set {:?}; this build replays {RULESETS:?}", path.display(), header.ruleset))
}

/// One line of a replay's trace (`docs/trace.md`). Line 0 is the battle before its first action,
/// with the table (its size, measure, sides and terrain); each later line is action `n` as the log
/// has it (who took it, the action, its draws), what happened (each event as the umpire's account
/// words it, and as data), and where every piece and marker stands after it, with the objectives'
/// holders (the umpire's view, without the reach drawn for a selected unit).
#[derive(serde::Serialize)]
struct TraceLine<'a, A: serde::Serialize, E: serde::Serialize> {
    n: u64,
    turn: u32,
    phase: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    table: Option<TraceTable<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    by: Option<volley_core::Actor>,
    #[serde(skip_serializing_if = "Option::is_none")]
    action: Option<&'a A>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    draws: &'a [volley_chance::Draw],
    events: Vec<TraceEvent<'a, E>>,
    pieces: &'a [volley_core::ViewPiece],
    markers: &'a [volley_core::ViewMarker],
    objectives: &'a [volley_core::ViewObjective],
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<volley_core::Outcome>,
}

/// The table, on a trace's line 0.
#[derive(serde::Serialize)]
struct TraceTable<'a> {
    ruleset: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    variant: Option<&'a str>,
    title: &'a str,
    width: f64,
    depth: f64,
    unit: Option<&'a str>,
    sides: &'a [String],
    terrain: &'a [volley_core::ViewFeature],
}

/// An event in a trace: the umpire's words and the event as data.
#[derive(serde::Serialize)]
struct TraceEvent<'a, E: serde::Serialize> {
    text: String,
    data: &'a E,
}

/// Writes one trace line for `state` (the umpire's view, reaches left out).
fn write_trace_line<S: GameState>(
    w: &mut impl Write,
    state: &S,
    n: u64,
    table: Option<(&str, Option<&str>)>,
    entry: Option<&volley_core::log::Entry<S::Action>>,
    events: &[S::Event],
) -> std::io::Result<()> {
    let mut view = state.view(Viewer::Umpire);
    for p in &mut view.pieces {
        p.ranges.clear();
    }
    let line = TraceLine {
        n,
        turn: view.turn,
        phase: &view.phase,
        table: table.map(|(ruleset, variant)| TraceTable {
            ruleset,
            variant,
            title: &view.title,
            width: view.width,
            depth: view.depth,
            unit: view.unit.as_deref(),
            sides: &view.sides,
            terrain: &view.terrain,
        }),
        by: entry.map(|e| e.by),
        action: entry.map(|e| &e.action),
        draws: entry.map_or(&[][..], |e| &e.draws),
        events: events.iter().map(|e| TraceEvent { text: e.to_string(), data: e }).collect(),
        pieces: &view.pieces,
        markers: &view.markers,
        objectives: &view.objectives,
        outcome: state.outcome(),
    };
    serde_json::to_writer(&mut *w, &line)?;
    writeln!(w)
}

fn replay_as<B: Playable>(
    path: &std::path::Path,
    text: &str,
    verbose: bool,
    trace: Option<&std::path::Path>,
    trust: &Trust,
) -> Result<ExitCode>
where
    B::Event: std::fmt::Display,
{
    let log: Log<B::Action> = match Log::parse(text) {
        Ok(log) => log,
        // Out of order, or an end that miscounts: the log was changed.
        Err(e @ volley_core::log::LogError::Structure { .. }) => {
            eprintln!("{}: {e}", path.display());
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(input!("{}: {e}", path.display())),
    };
    // The signature first: it covers every line, the seed and the draws included.
    let mut out = std::io::stdout().lock();
    match &log.signature {
        Some((sig, signed)) => {
            if let Err(e) = volley_server::signing::verify(sig, signed) {
                eprintln!("{}: {e}", path.display());
                return Ok(ExitCode::from(1));
            }
            let fp = volley_server::signing::fingerprint(&sig.key).unwrap_or_default();
            let key = sig.key.to_ascii_lowercase();
            if trust.keys.contains(&key) {
                writeln!(out, "signed by key {key} (fingerprint {fp}), a key you trust: the signature holds")?;
            } else {
                let why = if trust.keys.is_empty() {
                    "an unknown key (none is trusted: give the server's key, GET /api/key, with --trust)"
                } else {
                    "a key not among those you trust"
                };
                let said = format!(
                    "signed by {why}: {key} (fingerprint {fp}). Anyone can sign a log with a key of his own: \
                     the signature holds, but says nothing of who kept the game"
                );
                if !trust.accept_unknown {
                    eprintln!("{}: {said}; --accept-unknown-key replays it all the same", path.display());
                    return Ok(ExitCode::from(1));
                }
                writeln!(out, "{said}")?;
            }
        }
        None if !trust.keys.is_empty() => {
            eprintln!("{}: the log is not signed, and --trust asks for a signature", path.display());
            return Ok(ExitCode::from(1));
        }
        None => {}
    }
    let src = Source::new(log.header.scenario_path.clone(), log.header.scenario.clone());
    if src.hash() != log.header.scenario_hash {
        input_bail!("{}: the scenario text in the log does not match its recorded hash", path.display());
    }
    let loaded = load(&src).map_err(|e| input!("the logged scenario no longer loads: {e}"))?;
    let loaded = volley_server::with_battle!(loaded, b => Box::new(b) as Box<dyn std::any::Any>);
    let Ok(mut battle) = loaded.downcast::<B>().map(|b| *b) else {
        input_bail!("{}: the log's rule set {:?} does not match its scenario", path.display(), log.header.ruleset);
    };
    let mut traced = match trace {
        Some(t) => Some(std::io::BufWriter::new(
            std::fs::File::create(t).with_context(|| format!("cannot write {}", t.display()))?,
        )),
        None => None,
    };
    let mut trace_error = None;
    if let Some(w) = traced.as_mut() {
        let table = Some((log.header.ruleset.as_str(), log.header.variant.as_deref()));
        trace_error = write_trace_line(w, &battle, 0, table, None, &[]).err();
    }
    let seed = Some((log.header.seed, log.header.draws));
    let replayed = replay_verified(&mut battle, &log.entries, seed, |n, state, events| {
        if verbose {
            for e in events {
                let _ = writeln!(out, "{e}");
            }
        }
        if let Some(w) = traced.as_mut().filter(|_| trace_error.is_none()) {
            let entry = log.entries.get((n as usize).wrapping_sub(1)).filter(|e| e.n == n);
            if let Err(e) = write_trace_line(w, state, n, None, entry, events) {
                trace_error = Some(e);
            }
        }
    });
    if let Err(e) = replayed {
        eprintln!("{}: the log does not replay: {e}", path.display());
        return Ok(ExitCode::from(1));
    }
    if let Some(e) = trace_error {
        bail!("cannot write the trace: {e}");
    }
    if let (Some(mut w), Some(t)) = (traced, trace) {
        w.flush().with_context(|| format!("cannot write {}", t.display()))?;
    }
    let hash = hash_hex(battle.state_hash());
    let rep = report(&battle, &log.header.ruleset, log.header.seed, &log.header.agents, log.entries.len() as u64);
    write_summary(&mut out, &rep)?;
    writeln!(out, "state_hash {hash}")?;
    let draws: usize = log.entries.iter().map(|e| e.draws.len()).sum();
    writeln!(out, "every one of the {draws} draws is what seed {} gives", log.header.seed)?;
    // (With so few draws, another seed could give the same: a changed seed cannot be found out.)
    if draws <= 1 && log.signature.is_none() {
        writeln!(
            out,
            "(with {} the seed cannot be checked: another seed could give the same, so a log changed to another seed reads as true; only a trusted signature shows it was not)",
            if draws == 0 { "no draw".to_string() } else { "one draw".to_string() }
        )?;
    }
    if log.header.seed_chosen {
        writeln!(out, "(a seed chosen by a person, not drawn in secret: whoever chose it could foresee the dice)")?;
    }
    match &log.footer {
        Some(f) if f.turns != battle.phase().turn || f.outcome != battle.outcome() => {
            eprintln!(
                "the log's end says turn {} and {:?}, but the replay ends in turn {} with {:?}",
                f.turns,
                f.outcome,
                battle.phase().turn,
                battle.outcome()
            );
            Ok(ExitCode::from(1))
        }
        Some(f) if f.state_hash == hash => {
            writeln!(out, "replay matches the recorded state hash")?;
            Ok(ExitCode::SUCCESS)
        }
        Some(f) => {
            eprintln!("replay reached state {hash}, but the log recorded {}", f.state_hash);
            Ok(ExitCode::from(1))
        }
        None => {
            eprintln!("the log has no end line: nothing to compare the state hash with");
            Ok(ExitCode::from(1))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::split_values;

    #[test]
    fn sweep_values_split_at_commas_outside_brackets_and_quotes() {
        assert_eq!(split_values("20,30, 40"), vec!["20", "30", " 40"]);
        assert_eq!(split_values("[10, 20],[30,40]"), vec!["[10, 20]", "[30,40]"]);
        assert_eq!(split_values("\"a, b\",c"), vec!["\"a, b\"", "c"]);
        assert_eq!(split_values("{ x = 1, y = 2 },'p,q'"), vec!["{ x = 1, y = 2 }", "'p,q'"]);
    }
}
