//! What happens in a battle, in words a wargamer would use in a battle report.

use std::fmt;

use serde::Serialize;
use volley_chance::card_name;
use volley_core::Outcome;
use volley_table::Cover;

use crate::combat::{CardResult, Loss};
use crate::model::Formation;

/// One thing that happened.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A side fixed its deployment (known to all).
    Deployed {
        /// Side.
        side: String,
    },
    /// How a side's deployment departs from the scenario's plan: for that side and the umpire
    /// only (the enemy learns where the units are when deployment is revealed, not how many moved).
    Replanned {
        /// Side.
        side: String,
        /// Units placed other than as the scenario file has them.
        changed: usize,
    },
    /// The coin flip for the first move.
    FirstMove {
        /// 1 heads, 2 tails.
        coin: u32,
        /// Who moves first.
        side: String,
    },
    /// A turn begins.
    TurnBegins {
        /// Turn number.
        turn: u32,
        /// Whose.
        side: String,
    },
    /// A commander moved.
    CommanderMoved {
        /// Commander's name.
        name: String,
        /// Next to which unit, if any.
        near: Option<String>,
        /// Where he rode, in words (by the ground or the part of the table), when next to no
        /// unit.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<String>,
    },
    /// A unit moved.
    Moved {
        /// Unit.
        unit: String,
        /// Inches covered.
        distance: f64,
        /// Why it stopped short, if it did.
        stopped: Option<String>,
        /// The heading it pivoted to first, if it pivoted.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pivot: Option<f64>,
    },
    /// A unit changed formation or facing.
    Reformed {
        /// Unit.
        unit: String,
        /// New formation.
        formation: Formation,
        /// New facing.
        facing: f64,
    },
    /// A running unit in the way was pushed away (or eliminated).
    Pushed {
        /// The running unit.
        unit: String,
        /// The unit that came on.
        by: String,
        /// Whether it could not go the full 18" and was eliminated.
        eliminated: bool,
    },
    /// Men rallied.
    Rallied {
        /// Unit.
        unit: String,
        /// How many returned to ranks.
        men: u16,
        /// Why so many, in the rules' words.
        #[serde(default)]
        why: String,
        /// Gunners who went straight back to their gun.
        to_gun: u16,
    },
    /// Gunners walked back towards their gun.
    GunnersReturned {
        /// Unit.
        unit: String,
        /// Gunners now at the gun.
        at_gun: u16,
        /// Inches walked (the farthest gunner's walk).
        #[serde(default)]
        distance: f64,
        /// Why the walk stopped short, if it did.
        #[serde(default)]
        stopped: Option<String>,
    },
    /// A mob of running men moved.
    MobMoved {
        /// Unit.
        unit: String,
        /// Inches.
        distance: f64,
    },
    /// Long-range artillery fire.
    Fired {
        /// The gun's unit.
        gun: String,
        /// Target unit.
        target: String,
        /// The target's cover against the gun.
        cover: Cover,
        /// Balls spent.
        spent: u8,
        /// Balls left.
        left: u8,
        /// Whether the dead man stays on the field (target engaged).
        on_field: bool,
    },
    /// A card combat (chance version).
    CardCombat {
        /// Attacking unit.
        attacker: String,
        /// Defending unit.
        defender: String,
        /// Cards, totals, winner, losses and why.
        result: CardResult,
        /// (killed, ran) actually applied to attacker and defender.
        applied: [(u16, u16); 2],
    },
    /// An attack (without-chance version).
    Attack {
        /// Attacking unit.
        attacker: String,
        /// Target unit.
        target: String,
        /// What the rules call for, and why.
        loss: Loss,
        /// (killed, ran) actually applied.
        applied: (u16, u16),
    },
    /// Cavalry's weakness: cavalry ran because steady enemy still faced it.
    CavalryWeakness {
        /// Unit.
        unit: String,
        /// How many ran.
        ran: u16,
    },
    /// An engagement ended; its dead went to the tray.
    EngagementOver {
        /// Units that were in it and leave it (all of them when it is over as a whole).
        units: Vec<String>,
    },
    /// An objective changed hands.
    ObjectiveTaken {
        /// Objective.
        objective: String,
        /// New holder.
        side: String,
    },
    /// The battle ended.
    BattleOver {
        /// How.
        outcome: Outcome,
    },
}

/// A name as it reads after a verb: "the bridge" for `bridge`, but "the mill" for `the mill`
/// and "Leuthen" for `Leuthen`.
fn the(name: &str) -> String {
    if name.starts_with("the ") || name.starts_with(char::is_uppercase) {
        name.to_string()
    } else {
        format!("the {name}")
    }
}

/// What the rules call for, every number with its terms: `1 killed (one man a combat), 2 to
/// run: 1 (one runs for each man killed in this engagement so far) +1 (cavalry win)`.
fn loss_text(f: &mut fmt::Formatter<'_>, l: &Loss) -> fmt::Result {
    let artillery = l.explanation.first().filter(|m| m.rule.starts_with("artillery") && m.rule.contains("killed"));
    match artillery {
        Some(m) => write!(f, "{} killed ({})", l.killed, m.rule)?,
        None => write!(f, "{} killed (one man a combat)", l.killed)?,
    }
    write!(f, ", {} to run:", l.run)?;
    for (k, m) in l.explanation.iter().enumerate() {
        if k == 0 {
            write!(f, " {} ({})", m.value, m.rule)?;
        } else {
            write!(f, " {:+} ({})", m.value, m.rule)?;
        }
    }
    let sum: i32 = l.explanation.iter().map(|m| m.value).sum();
    if sum < 0 {
        write!(f, " = {sum}: none")?;
    }
    Ok(())
}

/// What was done of what the rules called for: `1 killed, 3 ran (no more in ranks)`.
fn applied_text(f: &mut fmt::Formatter<'_>, l: &Loss, applied: (u16, u16)) -> fmt::Result {
    write!(f, " -> {} killed, {} ran", applied.0, applied.1)?;
    if applied.0 < l.killed || applied.1 < l.run {
        write!(f, " (no more men in ranks)")?;
    }
    Ok(())
}

/// A card and its value, with what was added to it: `Q = 12`, `8 +3 (...) = 11`.
fn card_text(card: u8, additions: &[crate::combat::Modifier], total: u8) -> String {
    let name = card_name(card);
    let mut out = if name == card.to_string() { name.to_string() } else { format!("{name} = {card}") };
    for m in additions {
        out.push_str(&format!(" {:+} ({})", m.value, m.rule));
    }
    if !additions.is_empty() {
        out.push_str(&format!(" = {total}"));
    }
    out
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Deployed { side } => write!(f, "{side} fix their deployment in secret"),
            Event::Replanned { side, changed } => {
                let units = if *changed == 1 { "unit" } else { "units" };
                write!(f, "{side}: {changed} {units} placed otherwise than the plan")
            }
            Event::FirstMove { coin, side } => {
                write!(f, "The coin falls {}: {side} move first.", if *coin == 1 { "heads" } else { "tails" })
            }
            Event::TurnBegins { turn, side } => write!(f, "Turn {turn} ({side})"),
            Event::CommanderMoved { name, near, place } => match (near, place) {
                (Some(u), _) => write!(f, "{name} rides over to {u}."),
                (None, Some(p)) => write!(f, "{name} rides to {p}."),
                (None, None) => write!(f, "{name} moves."),
            },
            Event::Moved { unit, distance, stopped, pivot } => {
                if let Some(h) = pivot {
                    write!(f, "{unit} pivot to face {} ({h:.0}°) and", volley_scenario::places::compass(*h))?;
                    write!(f, " advance {distance:.1}\"")?;
                } else {
                    write!(f, "{unit} advance {distance:.1}\"")?;
                }
                if let Some(s) = stopped {
                    write!(f, " and halt: {s}")?;
                }
                write!(f, ".")
            }
            Event::Reformed { unit, formation, facing } => {
                write!(
                    f,
                    "{unit} form {} facing {} ({facing:.0}°).",
                    if *formation == Formation::Line { "line" } else { "column" },
                    volley_scenario::places::compass(*facing)
                )
            }
            Event::Pushed { unit, by, eliminated } => {
                if *eliminated {
                    write!(f, "The running men of {unit}, caught by {by} with nowhere to go, are eliminated.")
                } else {
                    write!(f, "The running men of {unit} scatter 18\" before {by}.")
                }
            }
            Event::Rallied { unit, men, to_gun, why } => {
                write!(f, "{unit} rally {men} {}", if *men == 1 { "man" } else { "men" })?;
                if !why.is_empty() {
                    write!(f, " ({why})")?;
                }
                if *to_gun > 0 {
                    write!(f, " ({to_gun} straight back to the gun)")?;
                }
                write!(f, ".")
            }
            Event::GunnersReturned { unit, at_gun, distance, stopped } => {
                write!(f, "Gunners of {unit} walk back {distance:.1}\" towards their gun ({at_gun} at it)")?;
                match stopped {
                    Some(why) => write!(f, " and halt: {why}."),
                    None => write!(f, "."),
                }
            }
            Event::MobMoved { unit, distance } => write!(f, "The mob of {unit} flees {distance:.1}\"."),
            Event::Fired { gun, target, cover, spent, left, on_field } => {
                write!(
                    f,
                    "{gun} fires at {target} ({}): one man killed{}; {spent} ball{} spent ({}), {left} left.",
                    match cover {
                        Cover::Open => "in the open",
                        Cover::Soft => "in soft cover",
                        Cover::Wall => "behind a wall",
                        Cover::Works => "behind works",
                    },
                    if *on_field { " and left where he fell" } else { "" },
                    if *spent == 1 { "" } else { "s" },
                    match cover {
                        Cover::Open | Cover::Soft => "1 for a target in the open or in soft cover",
                        Cover::Wall => "2 for a target behind a solid wall",
                        Cover::Works => "3 for a target behind a redoubt or in a trench",
                    }
                )
            }
            Event::CardCombat { attacker, defender, result, applied } => {
                write!(
                    f,
                    "{attacker} ({}) against {defender} ({}): ",
                    card_text(result.cards[0], &result.additions[0], result.totals[0]),
                    card_text(result.cards[1], &result.additions[1], result.totals[1]),
                )?;
                match result.winner {
                    Some(0) => write!(f, "{attacker} wins.")?,
                    Some(_) => write!(f, "{defender} wins.")?,
                    None => write!(f, "equal cards, both win.")?,
                }
                let names = [attacker, defender];
                for i in 0..2 {
                    if let Some(l) = &result.losses[i] {
                        write!(f, " {}: ", names[i])?;
                        loss_text(f, l)?;
                        applied_text(f, l, applied[i])?;
                        write!(f, ".")?;
                    }
                }
                Ok(())
            }
            Event::Attack { attacker, target, loss, applied } => {
                write!(f, "{attacker} attack {target}: ")?;
                loss_text(f, loss)?;
                applied_text(f, loss, *applied)?;
                write!(f, ".")
            }
            Event::CavalryWeakness { unit, ran } => {
                write!(f, "Steady enemy still face {unit}: the remaining {ran} cavalrymen run.")
            }
            Event::EngagementOver { units } => match units.as_slice() {
                [one] => write!(f, "{one}'s fight is over: no enemy it fought has men in ranks."),
                _ => write!(f, "The fight between {} is over.", units.join(", ")),
            },
            Event::ObjectiveTaken { objective, side } => write!(f, "{side} take {}.", the(objective)),
            Event::BattleOver { outcome } => write!(f, "The battle is over: {}.", outcome.reason),
        }
    }
}
