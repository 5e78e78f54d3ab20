//! What happens in a battle, in words.

use std::fmt;

use serde::Serialize;
use volley_core::Outcome;

use crate::combat::{
    Guns, Resolution, Term, TestShare, bombardment_words, casualties_count, close_range_words, greens_count,
    long_range_words, test_words,
};
use crate::command::General;
use crate::model::{Fate, Order};

/// One thing that happened.
#[derive(Clone, Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A bound begins.
    BoundBegins {
        /// Bound number.
        bound: u32,
    },
    /// A general sent an order to a wing.
    OrderSent {
        /// Side.
        side: String,
        /// Wing.
        wing: String,
        /// The order.
        order: Order,
        /// Its place in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        place: String,
        /// Minutes it takes.
        minutes: u32,
        /// The battalions and cavalry regiments of the wing, 2 minutes each.
        #[serde(default)]
        units: u32,
        /// The general's quality, which scales the time.
        general: General,
        /// The bound it takes effect.
        arrives: u32,
        /// The bound it was sent.
        #[serde(default)]
        sent: u32,
    },
    /// An order reached its wing and takes effect.
    OrderArrives {
        /// Side.
        side: String,
        /// Wing.
        wing: String,
        /// The order.
        order: Order,
        /// Its place in words.
        #[serde(default, skip_serializing_if = "String::is_empty")]
        place: String,
    },
    /// An order waits: the wing's general is in close combat.
    OrderWaits {
        /// Side.
        side: String,
        /// Wing.
        wing: String,
    },
    /// The umpire gave a unit a tactical advantage.
    Advantage {
        /// Unit.
        unit: String,
        /// +0 to +3.
        value: u8,
        /// Why.
        reason: String,
    },
    /// The umpire adjusted a unit.
    Adjusted {
        /// Unit.
        unit: String,
        /// Its figures now.
        figures: u16,
        /// Its greens now.
        greens: u8,
        /// Put back in good order.
        steady: bool,
        /// Where it was put and its facing, if moved.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        moved: Option<(volley_table::Point, f64)>,
        /// Why.
        reason: String,
    },
    /// A close combat.
    CloseCombat {
        /// The attacking grouping.
        attackers: Vec<String>,
        /// The defender.
        defender: String,
        /// Dice, additions, rows.
        resolution: Box<Resolution>,
    },
    /// A pursuit test.
    PursuitTest {
        /// Unit.
        unit: String,
        /// Its d10.
        die: u8,
        /// Additions.
        addition: i32,
        /// The additions one by one, with their reasons.
        #[serde(default)]
        additions: Vec<Term>,
        /// The score needed.
        needs: i32,
        /// Whether it stayed under control.
        under_control: bool,
    },
    /// What pursuit costs: a beaten unit pursued, or cavalry following up a withdrawing enemy.
    PursuitLosses {
        /// The unit (or the units of a grouping).
        unit: String,
        /// Why, in the results table's words.
        why: String,
        /// Green counters it takes beyond its row's.
        greens: u8,
        /// Casualties it takes beyond its row's (those of the casualty test, if one).
        casualties: u8,
        /// The casualty test thrown at it, if one (its pursuers firing).
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        test: Vec<TestShare>,
    },
    /// A unit pursues a beaten enemy.
    Pursues {
        /// Unit.
        unit: String,
        /// The enemy.
        target: String,
    },
    /// A battery fired.
    Bombardment {
        /// Battery.
        battery: String,
        /// Target.
        target: String,
        /// Close range (canister) or long (ball).
        close: bool,
        /// The distance, inches.
        #[serde(default)]
        range: f64,
        /// The battery's guns, for its points.
        guns: Guns,
        /// The battery's green counters.
        #[serde(default)]
        battery_greens: u8,
        /// The d6.
        d6: u8,
        /// The score.
        score: i32,
        /// Casualties inflicted on the target.
        casualties: u8,
        /// Greens inflicted on the target.
        greens: u8,
        /// Units behind hit by the same ball.
        through: Vec<String>,
    },
    /// A unit ran, losing men to desertion.
    Ran {
        /// Unit.
        unit: String,
        /// Figures lost to desertion.
        deserted: u8,
        /// Why so many, in the results tables' words.
        #[serde(default)]
        why: String,
        /// How far it may run, and why, in words.
        #[serde(default)]
        way: String,
    },
    /// A unit withdrew.
    Withdrew {
        /// Unit.
        unit: String,
    },
    /// A running unit stopped, out of the enemy's reach.
    StoppedRunning {
        /// Unit.
        unit: String,
    },
    /// A unit left the battle.
    Gone {
        /// Unit.
        unit: String,
        /// How.
        fate: Fate,
    },
    /// Unreliable foreigners changed sides.
    ChangedSides {
        /// Unit.
        unit: String,
        /// The side it joined.
        to: String,
    },
    /// A side's wagons were taken.
    WagonsTaken {
        /// The side that lost them.
        side: String,
    },
    /// An objective changed hands.
    ObjectiveTaken {
        /// Objective.
        objective: String,
        /// Its new holder.
        side: String,
    },
    /// An army is broken.
    Broken {
        /// Side.
        side: String,
        /// Why.
        why: String,
    },
    /// The battle is over.
    BattleEnds {
        /// How.
        outcome: Outcome,
    },
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::BoundBegins { bound } => write!(f, "Turn {bound} (bound of 10 minutes)"),
            Event::OrderSent { side, wing, order, place, minutes, units, general, arrives, sent } => {
                let standard = crate::command::WRITE_MINUTES
                    + crate::command::TRANSMIT_MINUTES
                    + crate::command::PER_UNIT_MINUTES * units;
                write!(
                    f,
                    "{side}: order to the {wing}: {} ({minutes} minutes: {} to write, {} to transmit and {} for each of {units} battalion{} and regiment{} = {standard}, at {}% for {} general; takes effect {} bound{} on, in bound {arrives})",
                    order.words(place),
                    crate::command::WRITE_MINUTES,
                    crate::command::TRANSMIT_MINUTES,
                    crate::command::PER_UNIT_MINUTES,
                    if *units == 1 { "" } else { "s" },
                    if *units == 1 { "" } else { "s" },
                    general.percent(),
                    general.words(),
                    arrives.saturating_sub(*sent),
                    if arrives.saturating_sub(*sent) == 1 { "" } else { "s" },
                )
            }
            Event::OrderArrives { side, wing, order, place } => {
                write!(f, "{side}: the {wing} receives its order: {}", order.words(place))
            }
            Event::OrderWaits { side, wing } => {
                write!(f, "{side}: the {wing}'s order waits: its general is in close combat")
            }
            Event::Advantage { unit, value, reason } => {
                write!(f, "the umpire gives {unit} a tactical advantage of +{value}, because {reason}")
            }
            Event::Adjusted { unit, figures, greens, steady, moved, reason } => write!(
                f,
                "the umpire adjusts {unit}: {figures} figures, {greens} greens{}{}, because {reason}",
                if *steady { ", back in good order" } else { "" },
                moved.map_or(String::new(), |(p, facing)| format!(
                    ", moved to ({:.1}, {:.1}) facing {facing:.0}°",
                    p.x, p.y
                )),
            ),
            Event::CloseCombat { attackers, defender, resolution } => {
                write!(f, "close combat, {}: {} against {defender}", resolution.table.name(), attackers.join(" and "))?;
                if let Some(g) = resolution.guns_words() {
                    write!(f, "; the guns fire first at close range: {g}")?;
                }
                let guns = resolution.guns_first().map(|(_, _, c, g)| (c, g));
                let [a, d] = resolution.sides();
                let table = resolution.table;
                write!(
                    f,
                    "; attacker: {}; defender: {}",
                    a.words(table, d.total, guns, std::slice::from_ref(defender)),
                    d.words(table, a.total, None, attackers)
                )
            }
            Event::PursuitTest { unit, die, addition, additions, needs, under_control } => {
                write!(f, "{unit} pursuit test: d10 {die}")?;
                for t in additions {
                    write!(f, " {t}")?;
                }
                write!(
                    f,
                    " = {}, needs {needs} or more ({}): {}",
                    i32::from(*die) + addition,
                    if *needs > 0 { "cavalry" } else { "infantry" },
                    if *under_control { "stays under control" } else { "out of control" }
                )
            }
            Event::PursuitLosses { unit, why, greens, casualties, test } => {
                if test.is_empty() {
                    write!(f, "{unit}, {why}: {} and {} more", greens_count(*greens), casualties_count(*casualties))
                } else {
                    write!(f, "{unit}, {why}: casualty test against it: {}", test_words(test, &[]))
                }
            }
            Event::Pursues { unit, target } => write!(f, "{unit} pursues {target}"),
            Event::Bombardment { battery, target, close, range, guns, battery_greens, d6, score, through, .. } => {
                write!(
                    f,
                    "{battery} fires at {target} ({}, {range:.1}\"): {}: {}",
                    if *close { "close range, canister" } else { "long range, ball" },
                    bombardment_words(guns, *battery_greens, *d6),
                    if *close { close_range_words(*score) } else { long_range_words(*score) }
                )?;
                if !through.is_empty() {
                    write!(f, "; the ball passes on to {} with the same hit", through.join(" and "))?;
                }
                Ok(())
            }
            Event::Ran { unit, deserted, why, way } => {
                write!(
                    f,
                    "{unit} runs away {way}, {} figure{} deserting ({why})",
                    deserted,
                    if *deserted == 1 { "" } else { "s" }
                )
            }
            Event::Withdrew { unit } => write!(f, "{unit} withdraws in good order"),
            Event::StoppedRunning { unit } => write!(f, "{unit} stops running and rallies"),
            Event::Gone { unit, fate } => write!(f, "{unit} is gone: {}", fate_words(*fate)),
            Event::ChangedSides { unit, to } => write!(f, "{unit} changes sides and joins the {to}"),
            Event::WagonsTaken { side } => write!(f, "the {side}' wagons are taken"),
            Event::ObjectiveTaken { objective, side } => write!(f, "{side} hold {objective}"),
            Event::Broken { side, why } => write!(f, "the {side} army is broken: {why}"),
            Event::BattleEnds { outcome } => write!(f, "the battle ends: {}", outcome.reason),
        }
    }
}

fn fate_words(f: Fate) -> &'static str {
    match f {
        Fate::Dispersed => "dispersed",
        Fate::Surrendered => "surrendered, being surrounded",
        Fate::Fled => "fled off the table",
        Fate::Destroyed => "every figure lost",
    }
}
