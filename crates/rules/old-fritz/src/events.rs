//! What happens in a battle, in words.

use std::fmt;

use serde::Serialize;
use volley_core::Outcome;

use crate::combat::{
    Arm, Guns, Quality, Resolution, Term, TestShare, bombardment_words, casualties_count, close_range_words,
    greens_count, long_range_words, test_words,
};
use crate::command::General;
use crate::model::{Fate, Formation, Order};
use volley_table::Point;

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
        /// Where it was put, in words (by the scenario's ground), if moved.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        place: Option<String>,
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
        /// Each unit as it stood when the combat was resolved: the grouping's units first, the
        /// defender last.
        #[serde(default)]
        fighters: Vec<Fighter>,
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
        /// Where it ran (none: an unlimbered battery limbering up instead, or a unit that
        /// deserted to the last figure).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Path>,
    },
    /// A unit withdrew.
    Withdrew {
        /// Unit.
        unit: String,
        /// Where it withdrew (none: an unlimbered battery limbering up instead).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        path: Option<Path>,
    },
    /// A running unit stopped, out of the enemy's reach.
    StoppedRunning {
        /// Unit.
        unit: String,
        /// Its turn to face the enemy again, if it had room to make it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        turned: Option<TurnMade>,
    },
    /// A unit moved, turned or changed formation as its orders (or its pursuit) say, or tried to
    /// and could not.
    Moved {
        /// Unit.
        unit: String,
        /// What it was doing.
        what: MoveKind,
        /// The way it went.
        path: Path,
    },
    /// A battery spent the bound limbering or unlimbering.
    Limbering {
        /// The battery.
        unit: String,
        /// Limbering up (true) or unlimbering (false).
        up: bool,
        /// Bounds the whole work takes (1 medium guns, 2 heavy).
        bounds: f64,
        /// Whether the work is done at the end of this bound.
        done: bool,
        /// Why, in words (to move, to fire, to withdraw, to run).
        why: String,
    },
    /// Two enemies stand within 2½" of each other at the end of a bound without a close combat
    /// between them this bound, each with its reason.
    Contact {
        /// The two units.
        units: [String; 2],
        /// Why each does not attack the other.
        why: [NoAttack; 2],
        /// The gap between their bodies, inches.
        gap: f64,
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

/// What a unit was doing when it moved.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum MoveKind {
    /// Marching where its order sends it (or turning to face the enemy there).
    March,
    /// Going for an enemy to engage it.
    Attack {
        /// The enemy.
        target: String,
    },
    /// A spent unit falling back out of canister range.
    FallBack,
    /// A winner finishing its move after the combat.
    Finish,
    /// Following a beaten enemy.
    Pursue {
        /// The enemy.
        target: String,
    },
    /// A battery going forward to bring an enemy into range, or swinging its trail round.
    Guns,
    /// Foreigners who changed sides turning about.
    ChangedSides,
}

/// One turn of a move: from one facing to another, and what it cost.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct TurnMade {
    /// Facing before, degrees clockwise from north.
    pub from: f64,
    /// Facing after.
    pub to: f64,
    /// Degrees turned, clockwise positive.
    pub degrees: f64,
    /// The part of the bound it cost (0: part of a result — a rout, a pursuit, a rally — not a
    /// manoeuvre).
    pub cost: f64,
}

/// Why a move ended where it did.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "cause", rename_all = "snake_case")]
pub enum Stop {
    /// It went as far as it was to go (its place, or the distance it set out to go).
    Arrived,
    /// The part of the bound left for moving ran out.
    Spent,
    /// It came to 2½" of the enemy it goes for.
    Reached {
        /// The enemy.
        unit: String,
    },
    /// An enemy's body lay in the way.
    Body {
        /// The enemy.
        unit: String,
    },
    /// It may come no nearer this unit: 2½" from an enemy it does not go for, or its room from a
    /// friend.
    Room {
        /// The unit.
        unit: String,
    },
    /// Ground it cannot cross.
    Ground,
    /// The table's edge.
    Edge,
    /// The turn it needed would swing its line into an enemy's body.
    NoRoomToTurn {
        /// The enemy.
        unit: String,
    },
    /// The turn it needed costs more of the bound than it had left.
    NoTime,
    /// The enemy it was to pursue is gone from the table.
    NoEnemy,
}

/// A unit's way in a bound: where it started, its turns and change of formation, the distance
/// and why it stopped.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Path {
    /// Its centre at the start.
    pub from: Point,
    /// Its centre at the end.
    pub to: Point,
    /// Its facing at the start.
    pub facing_from: f64,
    /// Its facing at the end.
    pub facing: f64,
    /// Its formation at the start.
    pub formation_from: Formation,
    /// Its formation at the end.
    pub formation: Formation,
    /// Its turns, in order.
    pub turns: Vec<TurnMade>,
    /// Its facing while it moved: after the turns it made before moving, before any it made
    /// after (a unit that arrived turning to face the enemy). A withdrawal goes back facing the
    /// enemy, a runner with no room to turn runs as it faces; everything else moves straight
    /// ahead.
    pub moving: f64,
    /// The part of the bound it had for all of this (1: the whole bound).
    pub budget: f64,
    /// Its rate, inches a bound (the walk, the trot, a run of 20", half a rate withdrawing).
    pub rate: f64,
    /// The inches it set out to go.
    pub ordered: f64,
    /// The inches it went (its centre, in a straight line).
    pub distance: f64,
    /// It crossed a linear obstacle (half a bound).
    pub obstacle: bool,
    /// It crossed a wagon park (half speed).
    pub wagons: bool,
    /// Why it ended there.
    pub stop: Stop,
}

/// Why a unit standing within 2½" of an enemy does not attack it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum NoAttack {
    /// It is not in good order (running, withdrawing, rallying).
    NotInOrder {
        /// Its state, in words.
        state: String,
    },
    /// A battery: its guns fire, it does not attack.
    Guns,
    /// It fought another close combat this bound.
    FoughtOther {
        /// The enemy it fought.
        enemy: String,
    },
    /// It reached this enemy without half a bound left to engage: they fight next bound.
    Engaged,
    /// An enemy came to grips with it: it stays to receive that attack.
    Receives {
        /// The enemy.
        enemy: String,
    },
    /// Kept under control after a pursuit test: it waits for fresh orders.
    UnderControl,
    /// Its orders do not insist on an attack (hold, move, withdraw, reserve).
    NotOrdered,
    /// Two green counters or more: it rests rather than attacks.
    Spent {
        /// Its green counters.
        greens: u8,
    },
    /// In its wing's second line, which goes in when the first is spent.
    SecondLine,
    /// It goes for another enemy.
    GoesFor {
        /// The enemy.
        enemy: String,
    },
    /// It went for this enemy and did not reach it: the enemy came within 2½" only after it had
    /// moved.
    CameUp,
    /// When it moved it found no enemy it could attack (none near its order's place or itself,
    /// or only running ones, which are not attacked).
    NoTarget,
    /// The turn to face this enemy would swing it into an enemy's body.
    NoRoomToTurn,
    /// The enemy was fought this bound by a grouping of another arm, which a grouping may not
    /// mix: it engages next bound.
    OtherArm,
    /// It reached this enemy, but the bombardment of the bound cost one of the two figures and
    /// its line, narrowing about its centre, left them beyond 2½": they fight next bound.
    Narrowed {
        /// The enemy it reached.
        enemy: String,
    },
}

/// A unit in a close combat as it stood when the combat was resolved.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Fighter {
    /// The unit.
    pub unit: String,
    /// In the attacking grouping (else the defender).
    pub attacker: bool,
    /// Infantry, cavalry or artillery: the arm that picks the results table.
    pub arm: Arm,
    /// Its troop quality.
    pub quality: Quality,
    /// Figures it had (guns: guns with their gunners).
    pub figures: u16,
    /// Figures it had at the start of the battle.
    pub figures_start: u16,
    /// Green counters it had.
    pub greens: u8,
    /// Its frontage, inches.
    pub frontage: f64,
    /// Its centre.
    pub at: Point,
    /// Its facing.
    pub facing: f64,
    /// Its footprint's corners: front left, front right, rear right, rear left.
    pub body: [Point; 4],
    /// The gap between its body and the defender's, inches (0 for the defender itself).
    pub gap: f64,
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
                write!(
                    f,
                    "the umpire gives {unit} a tactical advantage of +{value}, because {}",
                    volley_core::after_because(reason)
                )
            }
            Event::Adjusted { unit, figures, greens, steady, moved, place, reason } => write!(
                f,
                "the umpire adjusts {unit}: {figures} figures, {greens} green counter{}{}{}, because {}",
                if *greens == 1 { "" } else { "s" },
                if *steady { ", back in good order" } else { "" },
                moved.map_or(String::new(), |(p, facing)| {
                    let at = place.clone().unwrap_or_else(|| format!("({:.1}, {:.1})", p.x, p.y));
                    format!(", moved to {at}, facing {} ({facing:.0}°)", volley_scenario::places::compass(facing))
                }),
                volley_core::after_because(reason),
            ),
            Event::CloseCombat { attackers, defender, resolution, .. } => {
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
            Event::Ran { unit, deserted, why, way, path } => {
                write!(
                    f,
                    "{unit} runs away {way}, {} figure{} deserting ({why})",
                    deserted,
                    if *deserted == 1 { "" } else { "s" }
                )?;
                match path {
                    Some(p) => write!(f, "; {}", path_words(p)),
                    None => Ok(()),
                }
            }
            Event::Withdrew { unit, path } => match path {
                Some(p) => write!(f, "{unit} withdraws in good order: {}", path_words(p)),
                None => write!(f, "{unit} withdraws in good order: its guns limber up first"),
            },
            Event::StoppedRunning { unit, turned } => match turned {
                Some(t) => write!(f, "{unit} stops running and rallies, {} to face the enemy", turn_words(t)),
                None => write!(f, "{unit} stops running and rallies, with no room to turn to face the enemy"),
            },
            Event::Moved { unit, what, path } => {
                let what_kind = what;
                let what = match what {
                    MoveKind::March => "marches".to_string(),
                    MoveKind::Attack { target } => format!("goes for {target}"),
                    MoveKind::FallBack => "falls back out of canister range".to_string(),
                    MoveKind::Finish => "finishes its move".to_string(),
                    MoveKind::Pursue { target } => format!("pursues {target}"),
                    MoveKind::Guns => "moves its guns".to_string(),
                    MoveKind::ChangedSides => "turns about to its new side".to_string(),
                };
                // A unit that goes nowhere and turns not at all says only why, without the
                // distances (a crowded bound has many).
                if path.distance <= 0.005 && path.turns.is_empty() && path.formation == path.formation_from {
                    let going = match what_kind {
                        MoveKind::Attack { target } | MoveKind::Pursue { target } => format!(" (going for {target})"),
                        _ => String::new(),
                    };
                    return write!(f, "{unit} stays where it is{going}: {}", held_words(&path.stop));
                }
                write!(f, "{unit} {what}: {}", path_words(path))
            }
            Event::Limbering { unit, up, bounds, done, why } => {
                let work = if *up { "limbers up" } else { "unlimbers" };
                let part = if *bounds <= 1.0 {
                    "a bound"
                } else if *done {
                    "the second of two bounds"
                } else {
                    "the first of two bounds"
                };
                write!(f, "{unit} {work} ({part}) {why}")
            }
            Event::Contact { units, why, gap } => write!(
                f,
                "{} and {} stand {gap:.1}\" apart with no close combat between them: {} {}; {} {}",
                units[0],
                units[1],
                units[0],
                no_attack_words(&why[0]),
                units[1],
                no_attack_words(&why[1])
            ),
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

/// A turn in words: "wheels 30° right (half a bound)", "about-turns (half a bound)", "turns 90°
/// left" (a turn that is part of a result and costs nothing).
pub fn turn_words(t: &TurnMade) -> String {
    let deg = t.degrees.abs();
    let side = if t.degrees >= 0.0 { "right" } else { "left" };
    if t.cost <= 0.0 {
        if deg < crate::model::cost::INCLINE {
            return format!("inclining {deg:.1}° (under 1°: no wheel)");
        }
        return format!("turning {deg:.0}° {side}");
    }
    let what = if deg >= 180.0 - crate::model::cost::ABOUT_TURN_WITHIN {
        "about-turns".to_string()
    } else {
        format!("wheels {deg:.0}° {side}")
    };
    let cost = if t.cost >= 1.0 { "the whole bound" } else { "half a bound" };
    format!("{what} ({cost})")
}

fn inches(x: f64) -> String {
    format!("{x:.1}\"")
}

/// Why a move stopped, in words.
pub fn stop_words(s: &Stop) -> String {
    match s {
        Stop::Arrived => "as far as it was to go".into(),
        Stop::Spent => "its move spent".into(),
        Stop::Reached { unit } => format!("2½\" from {unit}"),
        Stop::Body { unit } => format!("stopped short of {unit}, in its way"),
        Stop::Room { unit } => format!("no nearer {unit}"),
        Stop::Ground => "stopped by ground it cannot cross".into(),
        Stop::Edge => "at the table's edge".into(),
        Stop::NoRoomToTurn { unit } => format!("no room to turn: {unit} is too close"),
        Stop::NoTime => "too little of the bound left for the turn it needs".into(),
        Stop::NoEnemy => "the enemy is gone from the table".into(),
    }
}

/// Why a unit that was to move stays where it is, in words.
pub fn held_words(s: &Stop) -> String {
    match s {
        Stop::Arrived => "it is where it was to go".into(),
        Stop::Spent => "its move is spent".into(),
        Stop::Reached { unit } => format!("it is 2½\" from {unit}"),
        Stop::Body { unit } => format!("{unit} is in its way"),
        Stop::Room { unit } => format!("it is as near {unit} as it may go"),
        Stop::Ground => "ground it cannot cross is ahead".into(),
        Stop::Edge => "it is at the table's edge".into(),
        Stop::NoRoomToTurn { unit } => format!("no room to turn: {unit} is too close"),
        Stop::NoTime => "too little of the bound is left for the turn it needs".into(),
        Stop::NoEnemy => "the enemy is gone from the table".into(),
    }
}

/// A path in words: its turns, its change of formation, the distance at its rate and why it
/// stopped.
pub fn path_words(p: &Path) -> String {
    let mut parts: Vec<String> = p.turns.iter().map(turn_words).collect();
    if p.formation != p.formation_from {
        parts
            .push(format!("forms {} (half a bound)", if p.formation == Formation::Column { "column" } else { "line" }));
    }
    if p.distance > 0.005 || p.ordered > 0.005 {
        let mut how = format!("{} a bound", inches(p.rate));
        if p.obstacle {
            how.push_str(", crossing an obstacle (half a bound)");
        }
        if p.wagons {
            how.push_str(", across the wagons (half speed)");
        }
        parts.push(format!("goes {} of {} ({how})", inches(p.distance), inches(p.ordered)));
    } else if parts.is_empty() {
        parts.push("does not move".into());
    }
    format!("{}: {}", parts.join(", "), stop_words(&p.stop))
}

/// Why a unit does not attack an enemy beside it, in words.
pub fn no_attack_words(w: &NoAttack) -> String {
    match w {
        NoAttack::NotInOrder { state } => format!("is {state}"),
        NoAttack::Guns => "is a battery: its guns fire, it does not attack".into(),
        NoAttack::FoughtOther { enemy } => format!("fought {enemy} this bound"),
        NoAttack::Engaged => "reached it without half a bound left to engage: they fight next bound".into(),
        NoAttack::Receives { enemy } => format!("stays to receive the attack of {enemy}"),
        NoAttack::UnderControl => "is kept under control after its pursuit test, awaiting fresh orders".into(),
        NoAttack::NotOrdered => "has no orders to attack".into(),
        NoAttack::Spent { greens } => format!("rests with {greens} green counters (two or more: no attack)"),
        NoAttack::SecondLine => "is in its wing's second line, which goes in once the first is spent".into(),
        NoAttack::GoesFor { enemy } => format!("goes for {enemy}"),
        NoAttack::CameUp => "went for it but it came within 2½\" only after the move".into(),
        NoAttack::NoTarget => "found no enemy to attack when it moved (running enemies are not attacked)".into(),
        NoAttack::NoRoomToTurn => "has no room to turn to face it".into(),
        NoAttack::OtherArm => "waits: a grouping of another arm fought it this bound".into(),
        NoAttack::Narrowed { enemy } => {
            format!("reached {enemy}, but the bombardment's losses left them beyond 2½\": they fight next bound")
        }
    }
}
