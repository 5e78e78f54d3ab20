//! What happens in a battle, for the log and the screen: each event carries the words that explain
//! it (every die, the number it had to meet, and why that number), written when it happened, and
//! the same as data (`docs/trace.md`): enough to check the geometry and the results from the trace
//! alone — a volley's chart and why, its dice and hits; each morale test's chart, dice, the two
//! kept and the result; a charge's reach and the turn it took; a melee's charts and why, and where
//! both bodies stood when it was fought; a forced move's distance ordered and gone, and the ground
//! it crossed; an officer's die and fate.

use std::fmt;

use serde::{Deserialize, Serialize};
use volley_core::SideId;
use volley_table::Point;

use crate::combat::{Morale, OfficerFate, Range, morale_of};
use crate::model::Formation;
use crate::units::Chart;

/// A morale test as data: its chart, the number to pass, every die, the two kept, the result.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Test {
    /// The chart read.
    pub chart: Chart,
    /// A die passes at this number or under.
    pub number: u8,
    /// Every die thrown, in order.
    pub dice: Vec<u8>,
    /// The two lowest, which count.
    pub kept: Vec<u8>,
    /// What they came to: none of the kept dice failed, one, or both.
    pub result: Morale,
}

impl Test {
    /// The test of `dice` on `chart` against `number`.
    pub fn new(chart: Chart, number: u8, dice: &[u8]) -> Test {
        let mut kept = dice.to_vec();
        kept.sort_unstable();
        kept.truncate(2);
        Test { chart, number, dice: dice.to_vec(), kept, result: morale_of(dice, number) }
    }

    /// How many of the kept dice failed, in words: `none failed`, `one die failed`, `both failed`.
    pub fn failed_words(&self) -> &'static str {
        match self.kept.iter().filter(|&&d| d > self.number).count() {
            0 => "none failed",
            1 => "one die failed",
            _ => "both dice failed",
        }
    }
}

/// Why a unit had to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForcedKind {
    /// A rout move (cavalry 24", infantry 12", artillery 10").
    Rout,
    /// Falling back a full column move, shaken by a failed test.
    FallBack,
    /// The charger retiring a full move, shaken (step 5).
    Retire,
    /// A cavalry melee with no winner: both retreat 24".
    Retreat,
    /// The cavalry winner pursuing (its line rate and 24").
    Pursue,
    /// The cavalry winner returning to its own lines (its line rate and 24").
    Return,
}

/// One side of a melee as fought: where its body stood, its chart, dice and hits.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Side {
    /// Its footprint when the melee was fought (front left, front right, rear right, rear left).
    pub body: [Point; 4],
    /// Its facing.
    pub facing: f64,
    /// Its melee chart, by the net difference of every reason.
    pub chart: Chart,
    /// A die hits at this number or under.
    pub number: u8,
    /// Its dice (1 for every 4 figures in its front rank).
    pub dice: Vec<u8>,
    /// The hits they scored (on the other side).
    pub hits: u32,
    /// Its test after the melee.
    pub post: Test,
}

/// One thing that happened.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins.
    Turn {
        /// Its number.
        turn: u32,
    },
    /// The initiative dice.
    Initiative {
        /// Each side's die.
        dice: [u8; 2],
        /// The winner (none: a tie, rolled again).
        winner: Option<SideId>,
        /// In words.
        text: String,
    },
    /// The winner of the initiative chose.
    Chose {
        /// The side that moves first (side A).
        first: SideId,
        /// In words.
        text: String,
    },
    /// A unit moved of its own will (or changed formation or facing).
    Moved {
        /// The unit.
        unit: u16,
        /// Where its centre was.
        from: Point,
        /// Where its centre went.
        to: Point,
        /// Its facing.
        facing: f64,
        /// Its formation.
        formation: Formation,
        /// Inches its centre went.
        distance: f64,
        /// What the way cost (rough ground double, very rough four times).
        cost: f64,
        /// What it could spend: its rate with every halving (a linear obstacle crossed
        /// included).
        allowance: f64,
        /// In words.
        text: String,
    },
    /// A unit's losses left it too few stands for its formation: a line of 2 stands stands as a
    /// column.
    Reformed {
        /// The unit.
        unit: u16,
        /// Its formation now.
        formation: Formation,
        /// Where its centre stands now, when the change moved it (jägers worn down to 2 stands
        /// forming march column where they have room: interpretation 42).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at: Option<Point>,
        /// In words.
        text: String,
    },
    /// A unit declared a charge.
    Declared {
        /// The charger.
        unit: u16,
        /// Its target.
        target: u16,
        /// What the way to contact costs, inches, as things stand now.
        cost: f64,
        /// Its reach: the formation's rate and the charge bonus (obliquely, the rate less 2"),
        /// halved if shaken and if it turns.
        reach: f64,
        /// Degrees it turns to face its target (0: straight ahead or obliquely).
        turned: f64,
        /// Degrees off its front it goes obliquely, its facing kept (the Prussian oblique: its
        /// rate less 2"); 0: not obliquely.
        #[serde(default)]
        oblique: f64,
        /// It comes from behind the line of the target's front edge: a flank or rear attack.
        flank: bool,
        /// In words.
        text: String,
    },
    /// A volley and what followed.
    Volley {
        /// The firer.
        unit: u16,
        /// The target.
        target: u16,
        /// Where it fired from: the middle of its front edge.
        from: Point,
        /// The distance from its front edge to the nearest point of the target it aims at.
        distance: f64,
        /// Short or long range.
        range: Range,
        /// Figures of its front stands in reach (guns: gunners).
        firing: u32,
        /// The chart fired on.
        chart: Chart,
        /// Why: each term of the net difference, as the chart it names.
        why: Vec<String>,
        /// A shot from behind the line of the target's front edge (the firer's centre not ahead
        /// of it): at its flank or rear.
        flank: bool,
        /// A die hits at this number or under.
        number: u8,
        /// The firing dice.
        dice: Vec<u8>,
        /// Hits.
        hits: u32,
        /// The officer's die, if an officer with the target was at risk.
        officer_die: Option<u8>,
        /// The target's morale test, if it took one.
        test: Option<Test>,
        /// In words.
        text: String,
    },
    /// A charge and its melee.
    Melee {
        /// The charger.
        charger: u16,
        /// The unit charged.
        defender: u16,
        /// A flank or rear attack (the charger's centre, before it charged, was not ahead of the
        /// line of the target's front edge).
        flank: bool,
        /// Degrees the charger turned to face its target.
        turned: f64,
        /// Degrees off its front the charger went obliquely, its facing kept; 0: not obliquely.
        #[serde(default)]
        oblique: f64,
        /// Its reach (the formation's rate and charge bonus, halved if shaken and if it turned).
        reach: f64,
        /// What its way to contact cost, inches (rough ground double, an obstacle doubling it).
        cost: f64,
        /// Where its centre went to meet the target, and its facing there (none: it did not
        /// charge).
        went: Option<(Point, f64)>,
        /// The reasons for the charts, from the text's lists (shaken and the halt included).
        why: Vec<String>,
        /// The charger's test to charge.
        charge_test: Test,
        /// The defender's test to stand.
        defence_test: Option<Test>,
        /// A cavalry defender's test to counter-charge.
        counter_test: Option<Test>,
        /// The defender met the charge at the halt.
        at_halt: bool,
        /// The melee, if one was fought: charger's side, defender's side, each as it stood in
        /// contact.
        fought: Option<Box<[Side; 2]>>,
        /// The winner, by unit (none: no winner, or no melee).
        winner: Option<u16>,
        /// The cavalry winner's pursuit die.
        pursuit_die: Option<u8>,
        /// In words.
        text: String,
    },
    /// A declared charge that did not go in (its target gone, out of reach, or in the way).
    CalledOff {
        /// The charger.
        charger: u16,
        /// The unit it meant to charge.
        defender: u16,
        /// In words.
        text: String,
    },
    /// A morale test outside fire and melee (a rally, the army commander's death), or a shaken
    /// unit's order restored.
    Morale {
        /// The unit.
        unit: u16,
        /// The test, if one was thrown (none: order restored by standing still).
        test: Option<Test>,
        /// In words.
        text: String,
    },
    /// A unit moved because it had to: a rout, falling back, retreating, pursuing.
    Forced {
        /// The unit.
        unit: u16,
        /// Why.
        why: ForcedKind,
        /// Where its centre was.
        from: Point,
        /// Where its centre went (the table's edge, if it left the table).
        to: Point,
        /// The way it went, degrees clockwise from north.
        heading: f64,
        /// Its facing after.
        facing: f64,
        /// Inches ordered.
        ordered: f64,
        /// Inches gone.
        done: f64,
        /// The ground that slowed it, in words (rough areas entered, obstacles crossed).
        terrain: Vec<String>,
        /// What stopped it short besides the ground (a unit in the way, the table's edge,
        /// impassable ground).
        stopped: Option<String>,
        /// It left the table (a rout).
        off_table: bool,
        /// In words.
        text: String,
    },
    /// Two enemies stand in contact at the end of a turn without having fought in it: why no
    /// melee (a melee comes only of a declared charge; whether each may charge the other).
    Contact {
        /// The two units.
        units: [u16; 2],
        /// In words.
        text: String,
    },
    /// A unit left the battle.
    Removed {
        /// The unit.
        unit: u16,
        /// In words.
        text: String,
    },
    /// An officer's fate or ride.
    Officer {
        /// The officer.
        officer: u16,
        /// His die, when his fate was rolled.
        die: Option<u8>,
        /// His fate by it.
        fate: Option<OfficerFate>,
        /// A ride: where he rode from, to which unit, and how far.
        ride: Option<Ride>,
        /// In words.
        text: String,
    },
    /// The battle is over.
    Over {
        /// The winner (none: a draw).
        winner: Option<SideId>,
        /// Why.
        text: String,
    },
}

/// An officer's ride in the leader phase.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Ride {
    /// Where he was.
    pub from: Point,
    /// The unit he joins.
    pub unit: u16,
    /// Inches ridden.
    pub distance: f64,
    /// The most he may ride now (24", 12" lightly wounded).
    pub most: f64,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Turn { turn } => write!(f, "turn {turn} begins"),
            Event::Initiative { text, .. }
            | Event::Chose { text, .. }
            | Event::Moved { text, .. }
            | Event::Reformed { text, .. }
            | Event::Declared { text, .. }
            | Event::Volley { text, .. }
            | Event::Melee { text, .. }
            | Event::CalledOff { text, .. }
            | Event::Morale { text, .. }
            | Event::Forced { text, .. }
            | Event::Contact { text, .. }
            | Event::Removed { text, .. }
            | Event::Officer { text, .. }
            | Event::Over { text, .. } => f.write_str(text),
        }
    }
}
