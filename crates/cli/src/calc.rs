//! `volley resolve` and `volley odds`: the umpire's calculator, for any rule set's combat.

use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

use anyhow::Result;
use serde::Serialize;
use volley_chance::{Chance, Scripted, Seeded};
use volley_core::calc::Calculator;

use crate::Format;

/// Read a situation file (with its text); a mistake in it is reported as file:line:col and `None`
/// returned.
fn read_situation<C: Calculator>(path: &Path) -> Result<Option<(C::Situation, String)>> {
    let bytes = volley_server::catalog::read_file(path, volley_server::catalog::SCENARIO_LIMIT)
        .map_err(|e| input!("cannot read {}: {e}", path.display()))?;
    let text = crate::utf8(&path.display().to_string(), bytes)?;
    match serde_json::from_str(&text) {
        Ok(s) => Ok(Some((s, text))),
        Err(e) => {
            let message = e.to_string();
            let message = message.rfind(" at line ").map_or(message.as_str(), |i| &message[..i]);
            let message = volley_scenario::in_plain_words(message);
            let message = volley_scenario::shorten(&message);
            // serde_json counts a column 0 before the first character of a line (an end of file
            // on an empty line): a person's editor counts it 1.
            eprintln!("{}:{}:{}: {message}", path.display(), e.line(), e.column().max(1));
            Ok(None)
        }
    }
}

/// Say why the rules refuse the situation in `path`: at the line and column of the field it is
/// about, if the error names one that the file has; else at the file's start.
fn refused(path: &Path, text: &str, e: &volley_core::calc::CalcError) {
    let at = e.path().and_then(|p| volley_core::calc::locate(text, p)).unwrap_or(0);
    let (line, col) = volley_scenario::Source::new("", text).line_col(at);
    eprintln!("{}:{line}:{col}: {}", path.display(), volley_scenario::shorten(&e.to_string()));
}

/// Where the dice or cards come from.
pub enum Source<'a> {
    /// The seeded generator.
    Seed(u64),
    /// What a person rolled or turned up, as typed.
    Entered(&'a str),
}

/// Resolve one combat and print it.
pub fn resolve<C: Calculator>(calc: &C, path: &Path, source: Source<'_>, format: Format) -> Result<ExitCode> {
    let Some((situation, text)) = read_situation::<C>(path)? else { return Ok(ExitCode::from(2)) };
    let mut seeded = Seeded::new(match source {
        Source::Seed(s) => s,
        Source::Entered(_) => 0,
    });
    let mut scripted = Scripted::default();
    let chance: &mut dyn Chance = match source {
        Source::Seed(_) => &mut seeded,
        Source::Entered(text) => {
            scripted = match Scripted::parse(text) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("--draws: {e}");
                    return Ok(ExitCode::from(2));
                }
            };
            &mut scripted
        }
    };
    let resolution = match calc.resolve(&situation, chance) {
        Ok(r) => r,
        Err(e) => {
            refused(path, &text, &e);
            return Ok(ExitCode::from(2));
        }
    };
    if scripted.remaining() > 0 {
        eprintln!("{}: {} of the draws given were not needed", path.display(), scripted.remaining());
        return Ok(ExitCode::from(2));
    }
    let mut out = std::io::stdout().lock();
    match format {
        Format::Text => writeln!(out, "{resolution}")?,
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&resolution)?)?,
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(Serialize)]
struct OddsReport<O: Serialize> {
    outcomes: Vec<volley_core::calc::OutcomeProbability<O>>,
}

/// Print the exact odds of every outcome.
pub fn odds<C: Calculator>(calc: &C, path: &Path, format: Format) -> Result<ExitCode> {
    let Some((situation, text)) = read_situation::<C>(path)? else { return Ok(ExitCode::from(2)) };
    let outcomes = match calc.odds(&situation) {
        Ok(o) => o,
        Err(e) => {
            refused(path, &text, &e);
            return Ok(ExitCode::from(2));
        }
    };
    let mut out = std::io::stdout().lock();
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string_pretty(&OddsReport { outcomes })?)?,
        Format::Text => {
            for o in &outcomes {
                writeln!(out, "{:>8.4}%  {}", o.probability * 100.0, o.outcome)?;
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}
