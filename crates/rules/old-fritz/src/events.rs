//! What happens in a battle, in words.

use std::fmt;

use serde::Serialize;
use volley_core::Outcome;

use crate::combat::Resolution;
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
        /// Minutes it takes.
        minutes: u32,
        /// The bound it takes effect.
        arrives: u32,
    },
    /// An order reached its wing and takes effect.
    OrderArrives {
        /// Side.
        side: String,
        /// Wing.
        wing: String,
        /// The order.
        order: Order,
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
        /// The score needed.
        needs: i32,
        /// Whether it stayed under control.
        under_control: bool,
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
            Event::OrderSent { side, wing, order, minutes, arrives } => {
                write!(f, "{side}: order to the {wing}: {order} ({minutes} minutes; takes effect in bound {arrives})")
            }
            Event::OrderArrives { side, wing, order } => write!(f, "{side}: the {wing} receives its order: {order}"),
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
                let side = |s: &crate::combat::SideResult| {
                    let adds: Vec<String> = s.additions.iter().map(|a| format!("{:+} {}", a.value, a.rule)).collect();
                    let test = s.casualty_test.as_ref().map_or(String::new(), |(dice, score)| {
                        let d: Vec<String> = dice.iter().map(u8::to_string).collect();
                        format!("; casualty test {} = {score}", d.join("+"))
                    });
                    format!(
                        "d10 {}{}{} = {}, score {:+}: {:?}, {} green(s), {} casualt{}{test}",
                        s.die,
                        if adds.is_empty() { "" } else { " " },
                        adds.join(" "),
                        s.total,
                        s.score,
                        s.reaction,
                        s.greens,
                        s.casualties + s.test_casualties,
                        if s.casualties + s.test_casualties == 1 { "y" } else { "ies" }
                    )
                };
                write!(f, "close combat ({:?}): {} against {defender}", resolution.table, attackers.join(" and "))?;
                if let Some((d6, score, cas, greens)) = resolution.guns_first() {
                    write!(f, "; the guns fire first: d6 {d6}, score {score}: {cas} casualties, {greens} green")?;
                }
                let [attacker, defender] = resolution.sides();
                write!(f, "; attacker {}; defender {}", side(&attacker), side(&defender))
            }
            Event::PursuitTest { unit, die, addition, needs, under_control } => write!(
                f,
                "{unit} pursuit test: d10 {die} {addition:+} = {} (needs {needs}): {}",
                i32::from(*die) + addition,
                if *under_control { "stays under control" } else { "out of control" }
            ),
            Event::Pursues { unit, target } => write!(f, "{unit} pursues {target}"),
            Event::Bombardment { battery, target, close, d6, score, casualties, greens, through } => {
                write!(
                    f,
                    "{battery} fires at {target} ({}): d6 {d6}, score {score}: {casualties} casualties, {greens} green",
                    if *close { "close range" } else { "long range" }
                )?;
                if !through.is_empty() {
                    write!(f, "; the ball passes on to {}", through.join(", "))?;
                }
                Ok(())
            }
            Event::Ran { unit, deserted } => write!(f, "{unit} runs, {deserted} figure(s) deserting"),
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
