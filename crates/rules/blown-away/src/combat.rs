//! Combat as pure functions of a described situation: the cards (chance version) or the arms
//! (without-chance version) in, who is killed and how many run out, with every modifier named.
//! The battle derives the situation from the table and calls these; so can an umpire.

use std::borrow::Cow;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use volley_table::Cover;

use crate::model::Arm;

/// Added to the card of infantry or artillery behind a redoubt or wall or in a trench.
pub const WORKS_CARD_BONUS: u8 = 3;
/// Runners caused by an artillery win, by the winning card's face value (A … K); J, Q and K
/// count 4.
pub const ARTILLERY_RUNS_BY_CARD: [u16; 13] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 4, 4, 4];
/// Extra runners when cavalry wins.
pub const CAVALRY_WIN: i32 = 1;
/// Runners when the loser still has pikemen or guardsmen after its casualty.
pub const STEADIED: i32 = -1;
/// Extra runners in a militia unit.
pub const MILITIA: i32 = 2;
/// Extra runners caused by a winner on the loser's flank or rear.
pub const FLANK_OR_REAR: i32 = 4;
/// Runners caused by infantry against a target behind works (without-chance version).
pub const BEHIND_WORKS_RUNS: i32 = -2;
/// Without-chance artillery: (killed, run) in the open, against a redoubt or trench, and
/// against a flank.
pub const ARTILLERY_EFFECT: [(u16, u16); 3] = [(1, 6), (1, 2), (2, 10)];

/// Where one unit stands in relation to another: in its front, on its flank, or in its rear
/// (see `docs/rules/blown-away.md`, "Front, flank and rear", for the geometry).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Quarter {
    /// In its front: ahead of the line of its front rank.
    #[default]
    Front,
    /// On its flank: beside it, neither ahead of its front rank nor squarely behind it.
    Flank,
    /// In its rear: behind its rearmost rank.
    Rear,
}

impl Quarter {
    /// On the flank or in the rear: the "+4 on the flank or rear" applies.
    pub fn flank_or_rear(self) -> bool {
        self != Quarter::Front
    }
}

/// One named contribution to a result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Modifier {
    /// The rule it comes from (borrowed from the rule set's own table of names, so building an
    /// explanation allocates no strings).
    pub rule: Cow<'static, str>,
    /// Its value.
    pub value: i32,
}

fn m(rule: &'static str, value: i32) -> Modifier {
    Modifier { rule: Cow::Borrowed(rule), value }
}

/// What one unit loses in one fight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Loss {
    /// Men killed.
    pub killed: u16,
    /// Men made to run (before any limit by the men actually in ranks).
    pub run: u16,
    /// How `run` was reached: the base and each modifier, in order.
    pub explanation: Vec<Modifier>,
}

/// One unit in a card combat, as it stands against the other.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CardSide {
    /// Infantry, cavalry or artillery.
    pub arm: Option<Arm>,
    /// Behind a redoubt or wall, or in a trench, against this opponent.
    #[serde(default)]
    pub behind_works: bool,
    /// Where it stands in relation to the opponent (front, flank or rear).
    #[serde(default)]
    pub quarter: Quarter,
    /// Its men killed so far in this engagement, before this fight.
    #[serde(default)]
    pub killed_before: u16,
    /// Pikemen and guardsmen in ranks before this fight.
    #[serde(default)]
    pub pikes_or_guards: u16,
    /// A militia unit.
    #[serde(default)]
    pub militia: bool,
}

impl CardSide {
    fn arm(&self) -> Arm {
        self.arm.unwrap_or(Arm::Infantry)
    }
}

/// The result of one card combat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct CardResult {
    /// The cards turned up (A = 1 … K = 13), first the attacker's.
    pub cards: [u8; 2],
    /// The totals compared.
    pub totals: [u8; 2],
    /// What was added to each card.
    pub additions: [Vec<Modifier>; 2],
    /// 0 or 1 for the side whose total is higher; `None` when equal (both win).
    pub winner: Option<usize>,
    /// What each side lost (`None` for a side that lost nothing).
    pub losses: [Option<Loss>; 2],
}

/// Runners that one card-combat win causes to `loser`; `tie` when the cards were equal (both
/// win, and the runners come from the tie rule: the loser's dead, whatever the winner's arm).
pub fn card_runs(winner: &CardSide, winner_card: u8, loser: &CardSide, tie: bool) -> Loss {
    let mut ex = Vec::new();
    let base = if winner.arm() == Arm::Artillery && !tie {
        let v = ARTILLERY_RUNS_BY_CARD[usize::from(winner_card.clamp(1, 13)) - 1];
        ex.push(m("artillery win: face value of the winning card (J, Q, K count 4)", i32::from(v)));
        i32::from(v)
    } else {
        let k = i32::from(loser.killed_before) + 1;
        let rule = if tie {
            "equal cards: one runs for each man killed in this engagement so far"
        } else {
            "one runs for each man killed in this engagement so far"
        };
        ex.push(m(rule, k));
        k
    };
    let mut run = base;
    let mut add = |rule: &'static str, v: i32, ex: &mut Vec<Modifier>| {
        run += v;
        ex.push(m(rule, v));
    };
    if winner.arm() == Arm::Cavalry {
        add("cavalry win", CAVALRY_WIN, &mut ex);
    }
    if loser.pikes_or_guards > 1 {
        add("pikemen or guardsmen left after the casualty", STEADIED, &mut ex);
    }
    if loser.militia {
        add("militia unit", MILITIA, &mut ex);
    }
    if winner.quarter.flank_or_rear() {
        add("win on the flank or rear", FLANK_OR_REAR, &mut ex);
    }
    Loss { killed: 1, run: run.clamp(0, i32::from(u16::MAX)) as u16, explanation: ex }
}

/// Resolve a card combat between `sides[0]` (the attacker: the unit conducting the combat) and
/// `sides[1]`, with the cards each turned up. Only the attacker can win on the other's flank
/// or rear: the defender's `quarter` is not read.
pub fn resolve_cards(sides: &[CardSide; 2], cards: [u8; 2]) -> CardResult {
    let defender = CardSide { quarter: Quarter::Front, ..sides[1].clone() };
    let sides = &[sides[0].clone(), defender];
    let mut totals = [0u8; 2];
    let mut additions: [Vec<Modifier>; 2] = [Vec::new(), Vec::new()];
    for i in 0..2 {
        totals[i] = cards[i];
        if sides[i].behind_works && matches!(sides[i].arm(), Arm::Infantry | Arm::Artillery) {
            totals[i] += WORKS_CARD_BONUS;
            additions[i]
                .push(m("infantry or artillery behind a redoubt, wall or in a trench", i32::from(WORKS_CARD_BONUS)));
        }
    }
    let winner = match totals[0].cmp(&totals[1]) {
        std::cmp::Ordering::Greater => Some(0),
        std::cmp::Ordering::Less => Some(1),
        std::cmp::Ordering::Equal => None,
    };
    let tie = winner.is_none();
    let loss_of = |loser: usize| Some(card_runs(&sides[1 - loser], cards[1 - loser], &sides[loser], tie));
    let losses = match winner {
        Some(w) => {
            let mut l = [None, None];
            l[1 - w] = loss_of(1 - w);
            l
        }
        None => [loss_of(0), loss_of(1)],
    };
    CardResult { cards, totals, additions, winner, losses }
}

/// A unit conducting combat in the without-chance version.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Attacker {
    /// Infantry, cavalry or artillery.
    pub arm: Option<Arm>,
    /// Where it stands in relation to the target (front, flank or rear).
    #[serde(default)]
    pub quarter: Quarter,
    /// Cavalrymen in ranks when the combat began (cavalry only).
    #[serde(default)]
    pub in_ranks: u16,
}

/// The unit it attacks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// The target's cover against this attacker.
    pub cover: Cover,
    /// Its men killed so far in this engagement, before this attack.
    #[serde(default)]
    pub killed_before: u16,
    /// Pikemen and guardsmen in ranks before this attack.
    #[serde(default)]
    pub pikes_or_guards: u16,
    /// A militia unit.
    #[serde(default)]
    pub militia: bool,
}

/// What one attack does in the without-chance version.
pub fn attack_effect(a: &Attacker, t: &Target) -> Loss {
    let mut ex = Vec::new();
    match a.arm.unwrap_or(Arm::Infantry) {
        Arm::Infantry => {
            let k = i32::from(t.killed_before) + 1;
            ex.push(m("infantry: one runs for each man killed in this engagement so far", k));
            let mut run = k;
            let mut add = |rule: &'static str, v: i32, ex: &mut Vec<Modifier>| {
                run += v;
                ex.push(m(rule, v));
            };
            if t.pikes_or_guards > 1 {
                add("pikemen or guardsmen left after the casualty", STEADIED, &mut ex);
            }
            if matches!(t.cover, Cover::Wall | Cover::Works) {
                add("target behind a redoubt, wall or in a trench", BEHIND_WORKS_RUNS, &mut ex);
            }
            if t.militia {
                add("militia unit", MILITIA, &mut ex);
            }
            if a.quarter.flank_or_rear() {
                add("attack on the flank or rear", FLANK_OR_REAR, &mut ex);
            }
            Loss { killed: 1, run: run.clamp(0, i32::from(u16::MAX)) as u16, explanation: ex }
        }
        Arm::Artillery => {
            // Artillery's extra is for firing on the flank only (infantry and cavalry have
            // theirs on the flank or rear); in the rear it is an ordinary artillery attack.
            let (rule, (killed, run)) = if a.quarter == Quarter::Flank {
                ("artillery firing on the flank: 2 killed, 10 run", ARTILLERY_EFFECT[2])
            } else if t.cover == Cover::Works {
                ("artillery against a redoubt or trench: 1 killed, 2 run", ARTILLERY_EFFECT[1])
            } else {
                ("artillery: 1 killed, 6 run", ARTILLERY_EFFECT[0])
            };
            ex.push(m(rule, i32::from(run)));
            Loss { killed, run, explanation: ex }
        }
        Arm::Cavalry => {
            let mut run = i32::from(a.in_ranks);
            ex.push(m("cavalry: one runs for each cavalryman in ranks when the combat began", run));
            if a.quarter.flank_or_rear() {
                run += FLANK_OR_REAR;
                ex.push(m("attack on the flank or rear", FLANK_OR_REAR));
            }
            Loss { killed: 1, run: run.clamp(0, i32::from(u16::MAX)) as u16, explanation: ex }
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn only_the_attacker_earns_the_flank_bonus() {
        // The defender stands on the attacker's flank (a quarter of its own): when it wins the
        // cards it makes the usual runners only; the attacker on the defender's flank gets its +4.
        let inf = |quarter| CardSide { arm: Some(Arm::Infantry), quarter, ..CardSide::default() };
        let r = resolve_cards(&[inf(Quarter::Front), inf(Quarter::Flank)], [3, 9]);
        assert_eq!(r.winner, Some(1));
        assert_eq!(r.losses[0].as_ref().map(|l| l.run), Some(1), "the defender's win: no +4");
        let r = resolve_cards(&[inf(Quarter::Flank), inf(Quarter::Front)], [9, 3]);
        assert_eq!(r.losses[1].as_ref().map(|l| l.run), Some(5), "the attacker's win on the flank: 1 + 4");
        // A tie: both win; only the attacker's win carries the +4.
        let r = resolve_cards(&[inf(Quarter::Rear), inf(Quarter::Rear)], [6, 6]);
        assert_eq!(r.losses.each_ref().map(|l| l.as_ref().map(|l| l.run)), [Some(1), Some(5)]);
    }

    use super::*;

    fn side(arm: Arm) -> CardSide {
        CardSide { arm: Some(arm), ..CardSide::default() }
    }

    #[test]
    fn higher_card_wins_and_the_first_kill_makes_one_run() {
        let r = resolve_cards(&[side(Arm::Infantry), side(Arm::Infantry)], [9, 4]);
        assert_eq!(r.winner, Some(0));
        assert_eq!(r.losses[0], None);
        let l = r.losses[1].clone().unwrap();
        assert_eq!((l.killed, l.run), (1, 1));
    }

    #[test]
    fn the_run_count_grows_with_each_man_killed() {
        // The third man killed in the engagement: three run.
        let mut d = side(Arm::Infantry);
        d.killed_before = 2;
        let r = resolve_cards(&[side(Arm::Infantry), d], [10, 2]);
        assert_eq!(r.losses[1].as_ref().unwrap().run, 3);
    }

    #[test]
    fn works_add_three_to_the_defenders_card() {
        let mut d = side(Arm::Infantry);
        d.behind_works = true;
        let r = resolve_cards(&[side(Arm::Infantry), d], [10, 7]);
        assert_eq!(r.totals, [10, 10]);
        assert_eq!(r.winner, None, "10 against 7 + 3 is a tie: both win");
        assert!(r.losses[0].is_some() && r.losses[1].is_some());
    }

    #[test]
    fn cavalry_cannot_use_works_but_artillery_can() {
        let mut c = side(Arm::Cavalry);
        c.behind_works = true;
        let r = resolve_cards(&[c, side(Arm::Infantry)], [5, 5]);
        assert_eq!(r.totals, [5, 5]);
        let mut a = side(Arm::Artillery);
        a.behind_works = true;
        let r = resolve_cards(&[a, side(Arm::Infantry)], [5, 5]);
        assert_eq!(r.totals, [8, 5]);
    }

    #[test]
    fn artillery_wins_by_face_value_even_behind_works() {
        for (card, runs) in [(1u8, 1u16), (7, 7), (10, 10), (11, 4), (12, 4), (13, 4)] {
            let mut a = side(Arm::Artillery);
            a.behind_works = true;
            let r = resolve_cards(&[a, side(Arm::Infantry)], [card, 1]);
            let l = r.losses[1].clone().unwrap();
            if card == 1 {
                // Ace + 3 = 4 beats 1; face value 1.
                assert_eq!(r.winner, Some(0));
            }
            assert_eq!(l.run, runs, "card {card}");
        }
    }

    #[test]
    fn special_combat_situations_add_up() {
        let mut cav = side(Arm::Cavalry);
        cav.quarter = Quarter::Flank;
        let mut inf = side(Arm::Infantry);
        inf.militia = true;
        inf.killed_before = 1;
        let l = resolve_cards(&[cav, inf], [12, 3]).losses[1].clone().unwrap();
        // 2 (second man killed) + 1 cavalry + 2 militia + 4 flank.
        assert_eq!(l.run, 9);
        assert_eq!(l.explanation.len(), 4);
    }

    #[test]
    fn a_tie_with_artillery_runs_by_the_dead_not_the_card() {
        // Equal cards: both win, and each loses a man with runners by its own dead; the
        // artillery's face-value rule is for an artillery win, not a tie.
        let mut inf = side(Arm::Infantry);
        inf.killed_before = 2;
        let r = resolve_cards(&[side(Arm::Artillery), inf], [9, 9]);
        assert_eq!(r.winner, None);
        assert_eq!(r.losses[1].as_ref().unwrap().run, 3, "third man killed: 3 run, not the card's 9");
        assert_eq!(r.losses[0].as_ref().unwrap().run, 1, "the gunners' first dead: 1 runs");
        // A win by the same gun with the same card: 9 run.
        let mut inf = side(Arm::Infantry);
        inf.killed_before = 2;
        assert_eq!(resolve_cards(&[side(Arm::Artillery), inf], [9, 8]).losses[1].as_ref().unwrap().run, 9);
    }

    #[test]
    fn pikemen_left_after_the_casualty_mean_one_fewer_runs() {
        let mut pikes = side(Arm::Infantry);
        pikes.pikes_or_guards = 2;
        pikes.killed_before = 3;
        assert_eq!(resolve_cards(&[side(Arm::Infantry), pikes.clone()], [9, 1]).losses[1].as_ref().unwrap().run, 3);
        // With one pikeman, the winner kills him: none left, no reduction.
        pikes.pikes_or_guards = 1;
        assert_eq!(resolve_cards(&[side(Arm::Infantry), pikes], [9, 1]).losses[1].as_ref().unwrap().run, 4);
    }

    #[test]
    fn without_chance_effects_by_arm() {
        let t = Target { cover: Cover::Open, killed_before: 0, pikes_or_guards: 0, militia: false };
        let inf = Attacker { arm: Some(Arm::Infantry), ..Attacker::default() };
        assert_eq!((attack_effect(&inf, &t).killed, attack_effect(&inf, &t).run), (1, 1));
        let art = Attacker { arm: Some(Arm::Artillery), ..Attacker::default() };
        assert_eq!(attack_effect(&art, &t).run, 6);
        let works = Target { cover: Cover::Works, ..t.clone() };
        assert_eq!(attack_effect(&art, &works).run, 2);
        let flank = Attacker { quarter: Quarter::Flank, ..art.clone() };
        assert_eq!((attack_effect(&flank, &t).killed, attack_effect(&flank, &t).run), (2, 10));
        // Artillery's extra is for the flank only: in the rear it is 1 killed and 6 run.
        let rear = Attacker { quarter: Quarter::Rear, ..art };
        assert_eq!((attack_effect(&rear, &t).killed, attack_effect(&rear, &t).run), (1, 6));
        let inf_rear = Attacker { quarter: Quarter::Rear, ..inf.clone() };
        assert_eq!(attack_effect(&inf_rear, &t).run, 5, "infantry in the rear: 1 + 4");
        let cav = Attacker { arm: Some(Arm::Cavalry), in_ranks: 10, quarter: Quarter::Front };
        assert_eq!(attack_effect(&cav, &t).run, 10);
        let walled = Target { cover: Cover::Wall, killed_before: 4, ..t };
        assert_eq!(attack_effect(&inf, &walled).run, 3, "5th man killed, -2 behind a wall");
    }
}
