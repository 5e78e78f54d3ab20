//! The second reading of issue 28's topics: cases BA2-01 to BA2-25, worked by hand from the rule
//! text alone by a reader who had not seen the engine (`docs/second-reading/blown-away-issue28.md`,
//! readings U1-U10), each a test named after its case. Where the engine reads the text otherwise,
//! the test asserts the engine's reading, says so, and names the interpretation of
//! `docs/rules/blown-away.md` that gives the reason.
//!
//! Conventions as the reader's: x east, y north, facing in degrees clockwise from north; P (side
//! 0, the Prussians) have the south edge, A (side 1, the Austrians) the north edge. Cards are
//! scripted attacker first: `"8 5"` is the card of the unit conducting the combat, then its
//! enemy's.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;
use common::*;

use volley_blown_away::combat::Quarter;
use volley_blown_away::game::Phase;
use volley_blown_away::model::{Formation, ManState, Role};
use volley_blown_away::{Action, Battle, load};
use volley_core::GameState;
use volley_scenario::Source;
use volley_table::Point;

// ----------------------------------------------------------------------------------------------
// Helpers
// ----------------------------------------------------------------------------------------------

/// The Zieten Hussars of BA2-01: two ranks of 5, front rank at x = 57.5 (y 28..32), facing west.
const ZIETEN_WEST: &str = r#"{ name = "Zieten Hussars", arm = "cavalry", at = [57.5, 30], facing = 270 }"#;

fn running(b: &Battle, u: usize) -> usize {
    count(b, u, ManState::Running)
}

/// (killed, running, in ranks) of unit `u`.
fn losses(b: &Battle, u: usize) -> (usize, usize, usize) {
    (killed(b, u), running(b, u), in_ranks(b, u))
}

/// Pass the rest of this turn, and the next ones, until `side` may move again.
fn next_main_of(b: &mut Battle, side: u8) {
    let turn = b.turn;
    while b.turn == turn {
        apply(b, Action::EndPhase);
    }
    to_main_of(b, side);
}

fn combat(unit: u16, target: u16) -> Action {
    Action::Combat { unit, target }
}

/// The index of unit `u`'s man standing at (x, y).
fn man(b: &Battle, u: usize, x: f64, y: f64) -> usize {
    let at = Point::new(x, y);
    match b.units[u].men.iter().position(|m| m.at.dist(at) < 0.01) {
        Some(i) => i,
        None => panic!("{} has no man at ({x}, {y})", b.name(u)),
    }
}

/// Men of unit `u` killed in its current fight, left where they fell.
fn fall(b: &mut Battle, u: usize, at: &[(f64, f64)]) {
    for &(x, y) in at {
        let i = man(b, u, x, y);
        b.units[u].men[i].state = ManState::Fallen;
        b.units[u].killed += 1;
    }
}

/// Men of unit `u` killed in a fight that is over: in the tray.
fn dead(b: &mut Battle, u: usize, at: &[(f64, f64)]) {
    for &(x, y) in at {
        let i = man(b, u, x, y);
        b.units[u].men[i].state = ManState::Dead;
    }
}

/// Men of unit `u` who ran 6" to its rear and face it.
fn ran(b: &mut Battle, u: usize, at: &[(f64, f64)]) {
    let rear = b.units[u].facing + 180.0;
    for &(x, y) in at {
        let i = man(b, u, x, y);
        let m = &mut b.units[u].men[i];
        m.state = ManState::Running;
        m.at = m.at.toward(rear, 6.0);
        m.facing = rear % 360.0;
    }
}

/// The units of `pairs` in one fight, each pair engaged with each other (they have fought).
fn engaged(b: &mut Battle, pairs: &[(usize, usize)]) {
    b.next_engagement += 1;
    let id = b.next_engagement;
    for &(x, y) in pairs {
        for (p, q) in [(x, y), (y, x)] {
            b.units[p].engagement = Some(id);
            if !b.units[p].engaged_with.contains(&(q as u16)) {
                b.units[p].engaged_with.push(q as u16);
            }
        }
    }
}

/// A gun's 4 gunners in a row at `y`, x 47.25..48.75 (the stations' spread), in `state`, facing
/// `facing`.
fn gunners_at(b: &mut Battle, u: usize, y: f64, state: ManState, facing: f64) {
    for (i, m) in b.units[u].men.iter_mut().enumerate() {
        m.at = Point::new(47.25 + 0.5 * i as f64, y);
        m.state = state;
        m.facing = facing;
    }
}

fn gunner_ys(b: &Battle, u: usize) -> Vec<f64> {
    b.units[u].men.iter().filter(|m| m.in_ranks()).map(|m| m.at.y).collect()
}

/// The four objectives the reader's section 5 uses, in this order.
const HILL: usize = 0;
const FARM: usize = 1;
const MILL: usize = 2;
const VILLAGE: usize = 3;

/// A custom battle with the reader's four objectives, three of which win.
fn field(variant: &str, a: &str, b: &str) -> Battle {
    let text = format!(
        r#"name = "issue 28 objectives"
ruleset = "blown-away"
variant = "{variant}"
turn_limit = 50
[table]
width = 96
depth = 60
[rules]
setup = "custom"
objectives_to_win = 3
[[objectives]]
name = "hill"
rect = [14, 26, 26, 34]
[[objectives]]
name = "farm"
rect = [40, 26, 46, 34]
[[objectives]]
name = "mill"
rect = [50, 27, 54, 33]
[[objectives]]
name = "village"
rect = [78, 26, 86, 34]
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = {{ name = "Fritz", at = [90, 1] }}
units = [{a}]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = {{ name = "Daun", at = [90, 59] }}
units = [{b}]
"#
    );
    match load(&Source::new("issue28.toml", text)) {
        Ok(b) => b,
        Err(e) => panic!("{e}"),
    }
}

/// A reserve far from everything, whose re-forming in place is an action that makes the engine
/// look at the objectives again.
fn reserve(name: &str, y: f64) -> String {
    format!(r#"{{ name = "{name}", arm = "infantry", at = [70, {y}], facing = {} }}"#, if y < 30.0 { 0 } else { 180 })
}

// ----------------------------------------------------------------------------------------------
// 1. The +4 for a win on the flank or rear
// ----------------------------------------------------------------------------------------------

/// BA2-01's position:
///
/// ```text
/// y=32                                    P P
/// y=30   A A A A A A A A A A o d f        P P   <- Zieten Hussars face west
/// y=28                                    P P
///        42               52  54     57.5 58.5
///        IR Harrach faces north
/// ```
fn ba2_01(variant: &str) -> Battle {
    start(battle(variant, ZIETEN_WEST, &line("IR Harrach", "infantry", 13, 48.0, 30.0, 0.0), ""), 0)
}

#[test]
fn ba2_01_a_flanker_conducting_the_combat_wins_with_its_4_and_loses_or_ties_without_a_bonus_for_the_flanked() {
    let b = ba2_01("chance");
    assert!((b.unit_dist(0, 1) - 3.5).abs() < 1e-9);
    assert!(b.faces(0, 1) && !b.faces(1, 0));
    assert_eq!((b.quarter(0, 1), b.quarter(1, 0)), (Quarter::Flank, Quarter::Front));

    // (a) P 8 / A 5: 1 killed + (1 + 1 cavalry + 4 flank) run.
    let mut a = b.clone();
    to_combat(&mut a);
    apply_with(&mut a, combat(0, 1), "8 5");
    assert_eq!(losses(&a, 1), (1, 6, 6));
    let left: Vec<Role> = a.units[1].men.iter().filter(|m| m.in_ranks()).map(|m| m.role).collect();
    assert_eq!(left.iter().filter(|r| r.is_command()).count(), 3, "3 soldiers and the command element: {left:?}");
    for m in a.units[1].men.iter().filter(|m| m.running()) {
        assert!((m.at.y - 24.0).abs() < 1e-9 && (m.facing - 180.0).abs() < 1e-9, "south to y = 24: {m:?}");
    }

    // (b) P 5 / A 8: the hussars lose 1 killed + 1 run; no +4 for IR Harrach.
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(0, 1), "5 8");
    assert_eq!((losses(&c, 0), in_ranks(&c, 1)), ((1, 1, 8), 13));

    // (c) a tie: each side's losses chosen by the other; the +4 only for the hussars.
    let mut t = b.clone();
    to_combat(&mut t);
    apply_with(&mut t, combat(0, 1), "7 7");
    assert_eq!((losses(&t, 1), losses(&t, 0)), ((1, 6, 6), (1, 1, 8)));

    // W: 1 killed + (10 cavalrymen + 4) run: IR Harrach's 12 left after the kill all run; it may
    // not conduct combat, the hussars not being in front of it.
    let mut w = ba2_01("without-chance");
    assert!(w.may_fight(0, 1) && !w.may_fight(1, 0));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((killed(&w, 1), in_ranks(&w, 1)), (1, 0));
    assert_eq!(in_ranks(&w, 0), 10, "nobody of IR Harrach is left in ranks to make the cavalry run");
}

#[test]
fn ba2_02_the_flanked_unit_conducts_and_the_flanker_wins_without_its_4() {
    // Disagreement kept (interpretation 2). The reader (U3) gives the +4 by position: the hussars
    // stand on IR Harrach's flank, so their win carries it whoever turned the cards up. The
    // engine reads the text's "a unit attacking the flank or rear" as the unit conducting the
    // combat: here IR Harrach conducts and the hussars defend, so their win is 1 + 1 cavalry.
    let position = || {
        let mut b = ba2_01("chance");
        to_main_of(&mut b, 1); // P chose not to fight on its turn
        to_combat(&mut b);
        assert!(b.may_fight(1, 0), "in C it is enough that the hussars face IR Harrach");
        b
    };
    // (a) A 4 / P 9: the reader's 6 run (IR Harrach 6); the engine's 2 (IR Harrach 10).
    let mut b = position();
    apply_with(&mut b, combat(1, 0), "4 9");
    assert_eq!(losses(&b, 1), (1, 2, 10));
    // (b) A 6 / P 6: IR Harrach 1 + 2 (the reader's 1 + 6); the hussars 1 + 1.
    let mut b = position();
    apply_with(&mut b, combat(1, 0), "6 6");
    assert_eq!((losses(&b, 1), losses(&b, 0)), ((1, 2, 10), (1, 1, 8)));
    // (c) A 9 / P 4: the hussars lose 1 + 1; no bonus under any reading.
    let mut b = position();
    apply_with(&mut b, combat(1, 0), "9 4");
    assert_eq!((losses(&b, 0), in_ranks(&b, 1)), ((1, 1, 8), 13));
}

/// BA2-03:
///
/// ```text
/// y=30   f d o A A A A A A A A A A                    (IR Botta, faces south)
/// y=27                   P P P P P P P P P P o d f    (IR 18, faces north)
///        42             50      54      59      62
/// ```
fn ba2_03(variant: &str) -> Battle {
    start(
        battle(
            variant,
            &line("IR 18", "infantry", 13, 56.0, 27.0, 0.0),
            &line("IR Botta", "infantry", 13, 48.0, 30.0, 180.0),
            "",
        ),
        0,
    )
}

#[test]
fn ba2_03_overlapping_lines_face_to_face_are_frontal_however_far_one_overhangs() {
    let mut b = ba2_03("chance");
    assert!(b.faces(0, 1) && b.faces(1, 0));
    assert_eq!((b.quarter(0, 1), b.quarter(1, 0)), (Quarter::Front, Quarter::Front));
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "10 2");
    assert_eq!(losses(&b, 1), (1, 1, 11), "no +4");

    let mut w = ba2_03("without-chance");
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((losses(&w, 0), losses(&w, 1)), ((1, 1, 11), (1, 1, 11)));
}

/// BA2-04: only three soldiers of each line stand opposite each other.
///
/// ```text
/// y=30   f d o A A A A A A A A A A                 IR Kaiser, faces south
/// y=27                       P P P P P P P P P P o d f    IR 27, faces north
///        42          49  52  54              61     64
/// ```
fn ba2_04(variant: &str) -> Battle {
    start(
        battle(
            variant,
            &line("IR 27", "infantry", 13, 58.0, 27.0, 0.0),
            &line("IR Kaiser", "infantry", 13, 48.0, 30.0, 180.0),
            "",
        ),
        0,
    )
}

#[test]
fn ba2_04_lines_offset_sideways_fight_on_frontally_after_the_men_who_faced_each_other_are_gone() {
    let mut b = ba2_04("chance");
    assert_eq!((b.quarter(0, 1), b.quarter(1, 0)), (Quarter::Front, Quarter::Front));
    // 1. P's turn, P 9 / A 3: (54,30) killed where he stands, (53,30) runs to (53,36).
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "9 3");
    assert_eq!(losses(&b, 1), (1, 1, 11));
    assert_eq!(b.units[1].men[man(&b, 1, 54.0, 30.0)].state, ManState::Fallen);
    let r = man(&b, 1, 53.0, 36.0);
    assert!(b.units[1].men[r].running() && b.units[1].men[r].facing.abs() < 1e-9);
    // 2. A's turn: IR Kaiser conducts, A 2 / P 10: its 2nd kill, (52,30) killed, (51,30) and
    //    (50,30) run.
    to_main_of(&mut b, 1);
    to_combat(&mut b);
    apply_with(&mut b, combat(1, 0), "2 10");
    assert_eq!(losses(&b, 1), (2, 3, 8));
    assert_eq!(b.units[1].men[man(&b, 1, 52.0, 30.0)].state, ManState::Fallen);
    let xs: Vec<f64> = b.units[1].men.iter().filter(|m| m.in_ranks()).map(|m| m.at.x).collect();
    assert!(xs.iter().all(|&x| x <= 49.0 + 1e-9), "IR Kaiser in ranks at x 42..49: {xs:?}");
    // Judged on the survivors, neither would face the other any more, 4.24" apart ...
    assert!(!b.faces(0, 1) && !b.faces(1, 0));
    assert!((b.unit_dist(0, 1) - 18f64.sqrt()).abs() < 1e-9);
    // ... but they stand where they formed (U4, interpretation 2): still frontal.
    assert_eq!((b.quarter(0, 1), b.quarter(1, 0)), (Quarter::Front, Quarter::Front));
    // 3. P's turn, P 7 / A 4: IR Kaiser's 3rd kill, 1 + 3 run, no +4: 1 soldier and the command.
    to_main_of(&mut b, 0);
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "7 4");
    assert_eq!(losses(&b, 1), (3, 6, 4));

    // W: both conduct each phase; the fight goes on frontally until both break in phase 4.
    let mut w = ba2_04("without-chance");
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((losses(&w, 0), losses(&w, 1)), ((1, 1, 11), (1, 1, 11)));
    assert_eq!(w.units[1].men[man(&w, 1, 54.0, 30.0)].state, ManState::Fallen, "P's pick");
    assert_eq!(w.units[0].men[man(&w, 0, 52.0, 27.0)].state, ManState::Fallen, "A's pick");
    let r = man(&w, 0, 53.0, 21.0);
    assert!(w.units[0].men[r].running());
    assert!(!w.faces(0, 1) && !w.faces(1, 0), "neither has the other in front of its remaining men");
    for (phase, left) in [(2, 8), (3, 4), (4, 0)] {
        to_combat(&mut w);
        fight_out(&mut w, &[(0, 1), (1, 0)]);
        assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (left, left), "phase {phase}");
    }
    assert_eq!((losses(&w, 0), losses(&w, 1)), ((4, 9, 0), (4, 9, 0)));
    assert!(w.units.iter().all(|u| u.engagement.is_none()), "the engagement is over");
    assert_eq!(count(&w, 0, ManState::Dead), 4, "the killed men go to the tray");
}

#[test]
fn ba2_05_a_unit_at_the_front_corner_outside_the_enemys_front_is_on_its_flank() {
    // The cuirassiers face south-west; IR Harrach's flag (54,30) is on their centre line 3.54"
    // ahead; their nearest man is at x = 55.09, outside IR Harrach's corridor (x <= 54.5).
    //
    // y=34                               P P
    // y=33                             P   P P
    // y=32                                  P P      Cuirassiers face SW
    // y=31                                    P P
    // y=30   A A A A A A A A A A o d f
    //        42                      54  55   57   58
    let cuirassiers = r#"{ name = "Cuirassiers", arm = "cavalry", at = [56.5, 32.5], facing = 225 }"#;
    let harrach = line("IR Harrach", "infantry", 13, 48.0, 30.0, 0.0);
    let mut b = start(battle("chance", cuirassiers, &harrach, ""), 0);
    assert!(b.faces(0, 1) && !b.faces(1, 0));
    assert_eq!((b.quarter(0, 1), b.quarter(1, 0)), (Quarter::Flank, Quarter::Front));
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "9 4");
    assert_eq!(losses(&b, 1), (1, 6, 6), "1 + 1 cavalry + 4 flank");

    let mut w = start(battle("without-chance", cuirassiers, &harrach, ""), 0);
    assert!(!w.may_fight(1, 0), "IR Harrach may not conduct combat");
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((killed(&w, 1), in_ranks(&w, 1)), (1, 0), "1 killed + 14 run");
}

/// BA2-06: IR 23 marches 6" west past IR Harrach's flag and halts inside its front.
///
/// ```text
///            before the move                      after it (halted at x = 54.5)
/// y=43                   f                   y=43          f
///  ...                   P  <- faces W        ...          P
/// y=31                   P                   y=31          P      <- (54.5,31), 1.1" from the flag
/// y=30   A A ... o d f                       y=30   A ... o d f
///        42        54    60                          42      54 54.5
/// ```
fn ba2_06(variant: &str) -> Battle {
    let mut b = start(
        battle(
            variant,
            &line("IR 23", "infantry", 13, 60.0, 37.0, 270.0),
            &line("IR Harrach", "infantry", 13, 48.0, 30.0, 0.0),
            "",
        ),
        0,
    );
    apply(&mut b, Action::Move { unit: 0, pivot: None, path: vec![Point::new(54.0, 37.0)] });
    b
}

#[test]
fn ba2_06_the_would_be_flanker_halts_inside_the_enemys_front_and_is_flanked_itself() {
    let b = ba2_06("chance");
    // It slid past the flag with neither facing the other and halted where its line entered
    // IR Harrach's corridor (x = 54.5), not where it first came within 4" of the flag.
    let x = b.units[0].front.x;
    assert!((54.45..=54.55).contains(&x), "halted at x = {x}");
    assert!(b.faces(1, 0) && !b.faces(0, 1));
    assert_eq!((b.quarter(1, 0), b.quarter(0, 1)), (Quarter::Flank, Quarter::Front), "IR Harrach on IR 23's flank");

    // C, P's turn: IR 23 may conduct; P 9 / A 4: 1 + 1, no +4 for "coming from the flank".
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(0, 1), "9 4");
    assert_eq!(losses(&c, 1), (1, 1, 11));
    // On A's turn IR Harrach conducts, and its win carries the +4.
    to_main_of(&mut c, 1);
    to_combat(&mut c);
    apply_with(&mut c, combat(1, 0), "8 3");
    assert_eq!(losses(&c, 0), (1, 5, 7), "1 + 4 flank");
    for m in c.units[0].men.iter().filter(|m| m.running()) {
        assert!((m.at.x - 60.5).abs() < 0.05 && (m.facing - 90.0).abs() < 1e-9, "east to x = 60.5: {m:?}");
    }

    // P 3 / A 8 on P's turn. Disagreement kept (interpretation 2): the reader gives IR Harrach,
    // which defends, the +4 by where it stands (1 + 5 run, IR 23 7); the engine gives the +4
    // only to the unit conducting the combat, so 1 + 1 run.
    let mut d = b.clone();
    to_combat(&mut d);
    apply_with(&mut d, combat(0, 1), "3 8");
    assert_eq!(losses(&d, 0), (1, 1, 11));

    // W: IR 23 never strikes: P's phase, IR Harrach conducts (1 + 5); A's phase, 1 + 6.
    let mut w = ba2_06("without-chance");
    assert!(!w.may_fight(0, 1) && w.may_fight(1, 0));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((losses(&w, 0), in_ranks(&w, 1)), ((1, 5, 7), 13));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (0, 13));
}

#[test]
fn ba2_07_without_chance_the_flanker_fights_on_with_its_4_after_its_facing_men_fall() {
    // y=39                      f
    // y=33                      P        IR 23 faces W (x = 57, y 27..39)
    // y=30  A A ... o d f       P
    // y=27                      P
    // y=23.5                  A A A A A A A A A A o d f     IR Kaiser faces N
    //       42        54        57                   67
    let mut w = start(
        battle(
            "without-chance",
            &line("IR 23", "infantry", 13, 57.0, 33.0, 270.0),
            &format!(
                "{}, {}",
                line("IR Harrach", "infantry", 13, 48.0, 30.0, 0.0),
                line("IR Kaiser", "infantry", 13, 61.0, 23.5, 0.0)
            ),
            "",
        ),
        0,
    );
    assert_eq!((w.quarter(0, 1), w.quarter(2, 0)), (Quarter::Flank, Quarter::Flank));
    assert!(!w.may_fight(1, 0), "IR Harrach cannot conduct combat");
    // Phase 1: IR 23 on IR Harrach (1 + 5); IR Kaiser on IR 23 (1 + 5): (57,27) killed and
    // (57,28..32) run east to x = 63.
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (2, 0)]);
    assert_eq!((losses(&w, 1), losses(&w, 0)), ((1, 5, 7), (1, 5, 7)));
    assert_eq!(w.units[0].men[man(&w, 0, 57.0, 27.0)].state, ManState::Fallen);
    for y in [28.0, 29.0, 30.0, 31.0, 32.0] {
        assert!(w.units[0].men[man(&w, 0, 63.0, y)].running());
    }
    // IR 23's survivors (y 33..39) no longer have IR Harrach in front of them ...
    assert!(!w.faces(0, 1));
    // ... but IR 23 stands where it formed (U4): phase 2, IR 23 on IR Harrach again, 1 + 2 + 4.
    assert_eq!(w.quarter(1, 0), Quarter::Front);
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (2, 0)]);
    assert_eq!((in_ranks(&w, 1), in_ranks(&w, 0)), (0, 0), "both break in the same phase");
    assert!(w.units.iter().all(|u| u.engagement.is_none()), "P has nobody in ranks left: the fight is over");
    assert_eq!((in_ranks(&w, 2), count(&w, 0, ManState::Fallen)), (13, 0), "the killed men are in the tray");
}

/// BA2-08 and BA2-09: IR Botta after its first fight with the Fusiliers, and the Zieten Hussars
/// where they stand on turn 3, facing south-east.
///
/// ```text
/// y=34-35        P P P                     Zieten Hussars: two ranks facing SE, x 42.1..45.6
/// y=33        P P P      f d o P P P P     Fusiliers: x 48..54, facing S
/// y=32      P P
/// y=31    P
/// y=30    x r x r r A A A A A o d f        IR Botta: killed (x) at 42 and 44, runners (r)
///         42  44    47        52  54
/// ```
fn ba2_08(variant: &str, fusiliers: bool) -> Battle {
    let fus = line("Fusiliers", "infantry", 7, 51.0, 33.0, 180.0);
    let hussars = r#"{ name = "Zieten Hussars", arm = "cavalry", at = [44.2, 32.8], facing = 135 }"#;
    let p = if fusiliers { format!("{hussars}, {fus}") } else { hussars.to_string() };
    start(battle(variant, &p, &line("IR Botta", "infantry", 13, 48.0, 30.0, 0.0), ""), 0)
}

#[test]
fn ba2_08_a_unit_joining_later_among_the_fallen_attacks_the_front_not_the_flank() {
    let mut b = ba2_08("chance", true);
    let (hussars, fusiliers, botta) = (0, 1, 2);
    // Turns 1 and 2 as the reader played them (the choices of casualties are the reader's):
    // (42,30) killed and (43,30) ran; then (44,30) killed and (45,30), (46,30) ran.
    fall(&mut b, botta, &[(42.0, 30.0), (44.0, 30.0)]);
    ran(&mut b, botta, &[(43.0, 30.0), (45.0, 30.0), (46.0, 30.0)]);
    engaged(&mut b, &[(fusiliers, botta)]);
    assert_eq!(in_ranks(&b, botta), 8);
    // The hussars face IR Botta; its survivors (x 47..54) would not face them ...
    assert!(b.faces(hussars, botta) && !b.faces(botta, hussars));
    assert!(b.unit_dist(hussars, botta) < 4.0);
    // ... but every hussar is inside the frontage it formed on (x 41.5..54.5): frontal (U4).
    assert_eq!(b.quarter(hussars, botta), Quarter::Front);
    to_combat(&mut b);
    apply_with(&mut b, combat(hussars as u16, botta as u16), "10 6");
    assert_eq!(losses(&b, botta), (3, 7, 3), "3rd kill: 1 + 3 + 1 cavalry");
    assert!(b.units[botta].men.iter().filter(|m| m.in_ranks()).all(|m| m.role.is_command()));
}

#[test]
fn ba2_09_re_engaged_before_the_rally_the_unit_still_stands_where_it_formed() {
    // Disagreement kept (interpretation 2). The reader takes a new fight's frontage from the men
    // in ranks at that moment (x 46.5..54.5), which puts the hussars on IR Botta's flank (1 + 6
    // run, IR Botta 1). The engine keeps a unit on the ground it formed on until it forms again
    // (it cannot move or re-form with men running): the text says such a unit has "less depth",
    // not less frontage. So the hussars attack its front; the count starts afresh: 1 + 1 + 1.
    let mut b = ba2_08("chance", false);
    dead(&mut b, 1, &[(42.0, 30.0), (44.0, 30.0)]);
    ran(&mut b, 1, &[(43.0, 30.0), (45.0, 30.0), (46.0, 30.0)]);
    assert!(b.units[1].engagement.is_none() && b.units[1].killed == 0);
    assert!(b.faces(0, 1) && !b.faces(1, 0));
    assert_eq!(b.quarter(0, 1), Quarter::Front);
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "10 6");
    assert_eq!(in_ranks(&b, 1), 5, "8 - 1 killed - 2 run (the reader: 1)");
    // If A wins the cards: the hussars lose 1 + 1.
    let mut c = ba2_08("chance", false);
    dead(&mut c, 1, &[(42.0, 30.0), (44.0, 30.0)]);
    ran(&mut c, 1, &[(43.0, 30.0), (45.0, 30.0), (46.0, 30.0)]);
    to_combat(&mut c);
    apply_with(&mut c, combat(0, 1), "6 10");
    assert_eq!(losses(&c, 0), (1, 1, 8));

    // W: the reader has IR Botta barred from striking back (the hussars on its flank): 0, and
    // the hussars keep 10. The engine has them in its front: it strikes back (1 + 1), and is
    // broken all the same by 1 + 10 run.
    let mut w = ba2_08("without-chance", false);
    dead(&mut w, 1, &[(42.0, 30.0), (44.0, 30.0)]);
    ran(&mut w, 1, &[(43.0, 30.0), (45.0, 30.0), (46.0, 30.0)]);
    assert!(w.may_fight(1, 0));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 1), losses(&w, 0)), (0, (1, 1, 8)));
}

// ----------------------------------------------------------------------------------------------
// 2. Engagements with several units
// ----------------------------------------------------------------------------------------------

/// BA2-10 and BA2-11 (`hussars` is the unit in the hussars' place):
///
/// ```text
/// y=33                 f d o A A A A A A A A A A                      IR Harrach, faces S
/// y=32                                              A A
/// y=30   A A A A A A A A A A o d f  P P P ... P o d f   A A   <- Hussars face W
/// y=28                                              A A
///        28    IR Kaiser      40 42   IR 18     54  57.5
/// ```
fn ba2_10(variant: &str, hussars: &str) -> Battle {
    start(
        battle(
            variant,
            &line("IR 18", "infantry", 13, 48.0, 30.0, 0.0),
            &format!(
                "{}, {hussars}, {}",
                line("IR Harrach", "infantry", 13, 48.0, 33.0, 180.0),
                line("IR Kaiser", "infantry", 13, 34.0, 30.0, 0.0)
            ),
            "",
        ),
        0,
    )
}

const HUSSARS_WEST: &str = r#"{ name = "Hussars", arm = "cavalry", at = [57.5, 30], facing = 270 }"#;

#[test]
fn ba2_10_one_combat_a_turn_against_a_unit_in_reach_several_against_one_in_any_order() {
    let b = ba2_10("chance", HUSSARS_WEST);
    assert!(b.faces(0, 1) && b.faces(1, 0));
    assert_eq!(b.quarter(2, 0), Quarter::Flank, "the hussars on IR 18's flank");
    assert!(!b.faces(0, 3) && !b.faces(3, 0) && b.unit_dist(0, 3) < 4.0, "IR Kaiser beside it");

    // (a) P's turn: one combat, against IR Harrach or the hussars, never IR Kaiser.
    let mut a = b.clone();
    to_combat(&mut a);
    assert!(a.validate(&combat(0, 3)).is_err());
    assert!(a.validate(&combat(0, 1)).is_ok());
    apply_with(&mut a, combat(0, 2), "9 4");
    assert_eq!(losses(&a, 2), (1, 1, 8), "IR 18 stands in the hussars' front: no +4");
    assert!(a.validate(&combat(0, 1)).is_err(), "IR 18 has fought this turn");
    // A 9 / P 4 against the hussars. Disagreement kept (interpretation 2): the reader gives the
    // defending hussars their +4 (IR 18 6); the engine 1 + 1 cavalry (IR 18 10).
    let mut a = b.clone();
    to_combat(&mut a);
    apply_with(&mut a, combat(0, 2), "4 9");
    assert_eq!(losses(&a, 0), (1, 2, 10));

    // (b) A's turn, IR 18 fresh: IR Harrach then the hussars, or the other way: 3 either way.
    for order in [[(1u16, "8 2"), (2, "J 5")], [(2, "J 5"), (1, "8 2")]] {
        let mut c = b.clone();
        to_main_of(&mut c, 1);
        to_combat(&mut c);
        let (first, second) = (order[0], order[1]);
        apply_with(&mut c, combat(first.0, 0), first.1);
        assert_eq!(in_ranks(&c, 0), if first.0 == 1 { 11 } else { 6 });
        apply_with(&mut c, combat(second.0, 0), second.1);
        assert_eq!(in_ranks(&c, 0), 3, "order {order:?}");
    }

    // (c) A turns IR Kaiser to face east instead. Disagreement kept (interpretation 29): the
    // reader turns every man where he stands, making IR Kaiser a file whose front (its flag,
    // (40,30)) is 2" from IR 18's flank, with a flank combat the same turn; the engine re-forms
    // the line facing east about the centre of its front rank, x = 34, y 24..36, 8" off.
    let mut c = b.clone();
    to_main_of(&mut c, 1);
    apply(&mut c, Action::Reform { unit: 3, formation: Formation::Line, facing: 90.0 });
    let kaiser = &c.units[3];
    assert!(kaiser.men.iter().all(|m| (m.at.x - 34.0).abs() < 1e-9 && (24.0 - 1e-9..=36.0 + 1e-9).contains(&m.at.y)));
    assert!((c.unit_dist(3, 0) - 8.0).abs() < 1e-9);
    assert!(!c.may_fight(3, 0));
}

#[test]
fn ba2_11_without_chance_only_the_unit_in_front_one_phase_for_all() {
    let mut w = ba2_10("without-chance", HUSSARS_WEST);
    assert!(w.may_fight(0, 1) && !w.may_fight(0, 2) && !w.may_fight(0, 3));
    assert!(w.may_fight(1, 0) && w.may_fight(2, 0) && !w.may_fight(3, 0));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0), (2, 0)]);
    // IR 18: 2 killed, 1 + 14 (or 2 + 14) to run: nobody left in ranks. It struck back with the
    // men it had as the phase began: IR Harrach 1 + 1.
    assert_eq!((killed(&w, 0), in_ranks(&w, 0)), (2, 0));
    assert_eq!(losses(&w, 1), (1, 1, 11));
    assert_eq!(in_ranks(&w, 2), 10, "no IR 18 man in ranks is left to make the hussars run");
    assert_eq!(in_ranks(&w, 3), 13);
    // P has nobody in ranks in the fight: it is over, the dead in the tray, the count afresh.
    assert!(w.units.iter().all(|u| u.engagement.is_none() && u.killed == 0));
    assert_eq!(count(&w, 1, ManState::Dead), 1);

    // The hussars decline: IR 18 and IR Harrach 11 each; the hussars, not engaged, keep 10
    // though IR 18 stands within 4" of them (it does not face them).
    let mut w = ba2_10("without-chance", HUSSARS_WEST);
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1), in_ranks(&w, 2)), (11, 11, 10));

    // Infantry in the hussars' place: kills no. 1 and no. 2 in one phase, 1 + (2 + 4) run in
    // either order: IR 18 4.
    let foot = r#"{ name = "IR Los Rios", arm = "infantry", at = [57.5, 30], facing = 270, soldiers = 7 }"#;
    let mut w = ba2_10("without-chance", foot);
    assert_eq!(w.quarter(2, 0), Quarter::Flank);
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0), (2, 0)]);
    assert_eq!(losses(&w, 0), (2, 7, 4));
}

#[test]
fn ba2_12_a_fight_of_four_units_ends_unit_by_unit() {
    // y=33   f d o P P P P P P P P P P              IR 18 (faces S)
    // y=30   A A A A A A A A A A o d f       P P    IR Harrach (faces N); hussars (face W)
    // y=28                                   P P
    // y=24.5                     A A A A A A A A A A o d f   IR Kaiser (faces N), x 52..64
    //        42                 52   54     57.5      64
    let mut b = start(
        battle(
            "chance",
            &format!("{}, {ZIETEN_WEST}", line("IR 18", "infantry", 13, 48.0, 33.0, 180.0)),
            &format!(
                "{}, {}",
                line("IR Harrach", "infantry", 13, 48.0, 30.0, 0.0),
                line("IR Kaiser", "infantry", 13, 58.0, 24.5, 0.0)
            ),
            "",
        ),
        0,
    );
    let (ir18, hussars, harrach, kaiser) = (0, 1, 2, 3);
    assert_eq!(b.quarter(hussars, harrach), Quarter::Flank);
    assert_eq!(b.quarter(kaiser, hussars), Quarter::Flank);
    // The state at the start of P's turn: all four in one fight.
    fall(&mut b, harrach, &[(42.0, 30.0), (43.0, 30.0), (44.0, 30.0)]);
    ran(&mut b, harrach, &[(45.0, 30.0), (46.0, 30.0), (47.0, 30.0), (48.0, 30.0), (49.0, 30.0), (50.0, 30.0)]);
    fall(&mut b, ir18, &[(48.0, 33.0)]);
    ran(&mut b, ir18, &[(47.0, 33.0)]);
    fall(&mut b, hussars, &[(58.5, 32.0)]);
    ran(&mut b, hussars, &[(58.5, 31.0), (58.5, 30.0), (58.5, 29.0), (58.5, 28.0), (57.5, 32.0)]);
    fall(&mut b, kaiser, &[(52.0, 24.5)]);
    ran(&mut b, kaiser, &[(53.0, 24.5), (54.0, 24.5)]);
    engaged(&mut b, &[(ir18, harrach), (hussars, harrach), (kaiser, hussars)]);
    assert_eq!([4, 11, 4, 10], [harrach, ir18, hussars, kaiser].map(|u| in_ranks(&b, u)));

    // Combat 1: IR 18 on IR Harrach, P 10 / A 7: its 4th kill, the soldier killed and the
    // command element runs.
    to_combat(&mut b);
    apply_with(&mut b, combat(ir18 as u16, harrach as u16), "10 7");
    assert_eq!(in_ranks(&b, harrach), 0);
    // As the reader (U6) has it (interpretation 24, issue 28): IR 18's fight with its only
    // opponent is over, IR Harrach having nobody in ranks, so IR 18 leaves the engagement and
    // its dead go to the tray, while the hussars and IR Kaiser fight on. (The engine first kept
    // IR 18 engaged until a whole side had nobody in ranks, and so could neither move it nor
    // let it fight IR Kaiser, 8.5" away and never engaged with it: a fight that froze.)
    assert!(b.units[ir18].engagement.is_none());
    assert_eq!(count(&b, ir18, ManState::Fallen), 0);
    assert!(b.units[kaiser].engagement.is_some() && b.units[hussars].engagement.is_some());

    // Combat 2: the hussars on IR Kaiser (which faces them), 6 / 6. IR Kaiser: 1 + (2 + 1). The
    // hussars: the reader gives IR Kaiser, defending, its +4 (1 + 6, the hussars broken); the
    // engine does not (interpretation 2): 1 + 2, one hussar left.
    assert!(b.faces(kaiser, hussars));
    apply_with(&mut b, combat(hussars as u16, kaiser as u16), "6 6");
    assert_eq!((in_ranks(&b, kaiser), running(&b, kaiser)), (6, 5));
    assert_eq!(in_ranks(&b, hussars), 1);

    // On A's turn IR Harrach, nobody in ranks, may move as a mob away from the enemy.
    to_main_of(&mut b, 1);
    let c = b.units[harrach].centre();
    apply(&mut b, Action::Mob { unit: harrach as u16, path: vec![c + Point::new(-8.0, -8.0)] });
    // On P's next turn IR 18 is no longer engaged. The reader has it move; but it has a man
    // running and men in ranks, and such a unit may not move until it has rallied (the text's
    // Moving), which is what the engine says — not that it is engaged.
    to_main_of(&mut b, 0);
    let err = refused(&mut b, Action::Move { unit: ir18 as u16, pivot: None, path: vec![Point::new(48.0, 36.0)] });
    assert!(err.contains("men running") && !err.contains("engaged"), "{err}");
}

// ----------------------------------------------------------------------------------------------
// 3. Gunners walking back to their gun; a cannon nobody serves
// ----------------------------------------------------------------------------------------------
//
// The gun stands at (48,30) facing north; its gunners' stations are (47.25..48.75, 29).

fn crewed(b: &Battle, u: usize) -> bool {
    b.units[u].crewed()
}

/// Unit `u`'s gunners in ranks, each within the crew's reach of the gun (1.5").
fn at_gun(b: &Battle, u: usize) -> usize {
    let g = b.units[u].gun.unwrap().at;
    b.units[u].men.iter().filter(|m| m.in_ranks() && m.at.dist(g) <= 1.5 + 1e-9).count()
}

#[test]
fn ba2_13a_gunners_who_made_only_their_combat_run_go_back_to_the_gun_on_rallying() {
    // One gunner in ranks at the gun, one dead, two running at (47.75,23) and (48.25,23), 7.0"
    // from the gun (1" station + the 6" run): they rally straight back to it, not where they
    // stand, and nobody has to walk.
    let setup = |variant: &str| {
        let mut b = start(
            battle(variant, &gun("Prussian gun", 48.0, 30.0, 0.0), &line("Far", "infantry", 13, 48.0, 58.0, 180.0), ""),
            0,
        );
        gunners_at(&mut b, 0, 29.0, ManState::InRanks, 0.0);
        b.units[0].men[3].state = ManState::Dead;
        ran(&mut b, 0, &[(47.75, 29.0), (48.25, 29.0)]);
        assert_eq!(b.units[0].men[1].at, Point::new(47.75, 23.0));
        b
    };
    let mut b = setup("chance");
    apply(&mut b, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&b, 0), at_gun(&b, 0), running(&b, 0)), (2, 2, 1), "turn 1: one, at his station");
    next_main_of(&mut b, 0);
    apply(&mut b, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&b, 0), at_gun(&b, 0)), (3, 3), "turn 2: the other");
    // W: with the commander next to the unit both rally in one turn, back at the gun.
    let mut w = setup("without-chance");
    apply(&mut w, Action::MoveCommander { to: Point::new(48.0, 28.0) });
    apply(&mut w, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&w, 0), at_gun(&w, 0)), (3, 3));
}

#[test]
fn ba2_13b_gunners_pushed_far_rally_where_they_stand_then_walk_6_inches_a_turn() {
    // All 4 gunners running at (47.25..48.75, 5), 25" from the gun; the commander at (48,4);
    // an Austrian target 20" north of the gun.
    let setup = |variant: &str| {
        let far = line("Target", "infantry", 13, 48.0, 50.0, 180.0);
        let mut b = start(battle(variant, &gun("Prussian gun", 48.0, 30.0, 0.0), &far, ""), 0);
        gunners_at(&mut b, 0, 5.0, ManState::Running, 180.0);
        b.commanders[0] = Point::new(48.0, 4.0);
        b
    };
    let dist = |b: &Battle| {
        let g = b.units[0].gun.unwrap().at;
        b.units[0].men.iter().filter(|m| m.in_ranks()).map(|m| m.at.dist(g)).fold(0.0, f64::max)
    };
    let mut b = setup("chance");
    // T1: rally case 2, the commander next to them: 1, where he stands.
    apply(&mut b, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&b, 0), running(&b, 0)), (1, 3));
    assert!((dist(&b) - 25.0).abs() < 0.1, "not sent to the gun: {}", dist(&b));
    assert!(refused(&mut b, Action::ReturnGunners { unit: 0 }).contains("already"), "one thing a turn");
    // T2: the walk is barred while any gunner runs; rally case 1: 1 more. T3: 2 more.
    next_main_of(&mut b, 0);
    assert!(refused(&mut b, Action::ReturnGunners { unit: 0 }).contains("running"));
    apply(&mut b, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&b, 0), running(&b, 0)), (2, 2));
    next_main_of(&mut b, 0);
    apply(&mut b, Action::Rally { unit: 0 });
    assert_eq!((in_ranks(&b, 0), running(&b, 0)), (4, 0));
    // T4-T6: 6" a turn; the gun cannot fire. T7: the last 7" (within 6" of the stations) and
    // the gun fires in T7's fire step.
    for left in [19.0, 13.0, 7.0] {
        next_main_of(&mut b, 0);
        apply(&mut b, Action::ReturnGunners { unit: 0 });
        assert!((dist(&b) - left).abs() < 0.1, "{} from the gun", dist(&b));
        assert!(!crewed(&b, 0));
    }
    next_main_of(&mut b, 0);
    apply(&mut b, Action::ReturnGunners { unit: 0 });
    assert_eq!(at_gun(&b, 0), 4);
    apply(&mut b, Action::EndPhase);
    assert_eq!(b.phase, Phase::Artillery);
    apply(&mut b, Action::Fire { gun: 0, target: 1 });

    // W: T1 rallies all 4 with the commander; T2-T4 walk, T5 reaches the gun and fires.
    let mut w = setup("without-chance");
    apply(&mut w, Action::Rally { unit: 0 });
    assert_eq!(in_ranks(&w, 0), 4);
    for _ in 0..3 {
        next_main_of(&mut w, 0);
        apply(&mut w, Action::ReturnGunners { unit: 0 });
        assert!(!crewed(&w, 0));
    }
    next_main_of(&mut w, 0);
    apply(&mut w, Action::ReturnGunners { unit: 0 });
    apply(&mut w, Action::EndPhase);
    assert_eq!((at_gun(&w, 0), w.phase), (4, Phase::Artillery));
}

/// BA2-14: IR Kaiser 1.5" beyond the unserved gun; the gunners in ranks at y = 23 walk back.
///
/// ```text
/// y=31.5  f d o A A A A A A A A A A      IR Kaiser (faces S)
/// y=30                 G                 gun, unserved
/// y=29               . . . .             stations
/// y=27.5             g g g g             <- where the walk halts
/// y=23               g g g g             start
/// ```
fn ba2_14(variant: &str, kaiser_facing: f64) -> Battle {
    let kaiser = line("IR Kaiser", "infantry", 13, 48.0, 31.5, kaiser_facing);
    let mut b = start(battle(variant, &gun("Prussian gun", 48.0, 30.0, 0.0), &kaiser, ""), 0);
    gunners_at(&mut b, 0, 23.0, ManState::InRanks, 0.0);
    b
}

#[test]
fn ba2_14_a_walk_halts_within_4_inches_of_an_enemy_by_the_gun_whichever_way_it_faces() {
    for facing in [180.0, 0.0] {
        let mut b = ba2_14("chance", facing);
        assert!(b.faces(0, 1), "the gunners face IR Kaiser");
        apply(&mut b, Action::ReturnGunners { unit: 0 });
        for y in gunner_ys(&b, 0) {
            assert!((27.4..27.6).contains(&y), "IR Kaiser facing {facing}: halted at y = {y}");
        }
        assert!(!crewed(&b, 0), "not at the gun: it may not fire");
        assert!(b.unit_dist(0, 1) < 4.0 && b.unit_dist(0, 1) > 3.9);
    }
    // Combat after the walk. Disagreement kept (interpretation 19): the reader (U7) lets the
    // gunners conduct combat as men on foot on P's turn; the engine does not let an artillery
    // unit conduct combat until a gunner is back at the gun (the text: they must be moved back
    // "before they can fire it again", and an artillery unit's combat is its cannon's fire).
    let mut b = ba2_14("chance", 180.0);
    apply(&mut b, Action::ReturnGunners { unit: 0 });
    apply(&mut b, Action::EndPhase);
    assert!(b.may_fight(1, 0), "IR Kaiser faces them within 4\"");
    assert_eq!((b.mover, b.phase), (1, Phase::Main), "P had no combat to conduct: its combat phase passed");
    // Fought by IR Kaiser on A's turn they fight as men on foot, not as artillery: a win by the
    // gunners (A 4 / P 10) makes 1 run, not the card's 10; a loss costs them 1 + 1.
    to_main_of(&mut b, 1);
    to_combat(&mut b);
    let mut lose = b.clone();
    apply_with(&mut b, combat(1, 0), "4 10");
    assert_eq!(losses(&b, 1), (1, 1, 11));
    apply_with(&mut lose, combat(1, 0), "10 4");
    assert_eq!(in_ranks(&lose, 0), 2);

    // W (i): IR Kaiser on the gunners 1 + 1; the gunners conduct nothing.
    let mut w = ba2_14("without-chance", 180.0);
    apply(&mut w, Action::ReturnGunners { unit: 0 });
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (2, 13));
}

#[test]
fn ba2_15a_a_walk_passes_an_enemy_facing_away_at_0_9_inches() {
    // y=31                 A>
    // y=30          G      A>      gun (48,30); IR Kaiser at x = 49.65, y 19..31, faces E
    // y=29        . . . .  A>      stations
    // y=27        g g g g  A>      after one walk
    // y=21        g g g g  A>      start
    let kaiser = line("IR Kaiser", "infantry", 13, 49.65, 25.0, 90.0);
    let mut b = start(battle("chance", &gun("Prussian gun", 48.0, 30.0, 0.0), &kaiser, ""), 0);
    gunners_at(&mut b, 0, 21.0, ManState::InRanks, 0.0);
    assert!(!b.faces(0, 1) && !b.faces(1, 0));
    apply(&mut b, Action::ReturnGunners { unit: 0 });
    for y in gunner_ys(&b, 0) {
        assert!((26.9..27.1).contains(&y), "turn 1 to y = 27: {y}");
    }
    next_main_of(&mut b, 0);
    apply(&mut b, Action::ReturnGunners { unit: 0 });
    assert_eq!(at_gun(&b, 0), 4, "turn 2: at the stations");
}

#[test]
fn ba2_15b_a_walk_halts_where_it_enters_the_front_of_an_enemy_facing_its_path() {
    // IR Kaiser at x = 51.5, y 26..38, facing west, towards the walk.
    let kaiser = line("IR Kaiser", "infantry", 13, 51.5, 32.0, 270.0);
    let mut b = start(battle("chance", &gun("Prussian gun", 48.0, 30.0, 0.0), &kaiser, ""), 0);
    gunners_at(&mut b, 0, 21.0, ManState::InRanks, 0.0);
    apply(&mut b, Action::ReturnGunners { unit: 0 });
    let ys = gunner_ys(&b, 0);
    assert!(ys.iter().all(|y| (25.4..25.6).contains(y)), "halted at y = 25.5: {ys:?}");
    assert!(b.faces(1, 0) && b.unit_dist(0, 1) < 4.0);
    assert_eq!(b.quarter(1, 0), Quarter::Flank, "IR Kaiser on the gunners' flank");
    // Next turn they may not walk at all: every step towards the gun would bring them nearer
    // IR Kaiser, which faces them within 4" (a unit already in reach moves only along or away,
    // interpretations 16 and 26). The gun cannot be reached.
    next_main_of(&mut b, 0);
    let err = refused(&mut b, Action::ReturnGunners { unit: 0 });
    assert!(err.contains("cannot walk back"), "{err}");
    // C: IR Kaiser's win on A's turn carries the +4 (1 + 1 + 4 > the 3 left: none stay).
    to_main_of(&mut b, 1);
    to_combat(&mut b);
    apply_with(&mut b, combat(1, 0), "8 3");
    assert_eq!(in_ranks(&b, 0), 0);
}

/// BA2-16: the gunners walking back at y = 20; the Hussars 12" off, facing west.
fn ba2_16(variant: &str) -> Battle {
    let hussars = r#"{ name = "Hussars", arm = "cavalry", at = [60, 20], facing = 270 }"#;
    let mut b = start(battle(variant, &gun("Prussian gun", 48.0, 30.0, 0.0), hussars, ""), 1);
    gunners_at(&mut b, 0, 20.0, ManState::InRanks, 0.0);
    apply(&mut b, Action::Move { unit: 1, pivot: None, path: vec![Point::new(48.0, 20.0)] });
    b
}

#[test]
fn ba2_16_gunners_away_from_the_gun_halt_an_enemy_move_and_can_be_caught_in_the_flank() {
    let b = ba2_16("chance");
    let x = b.units[1].front.x;
    assert!((52.7..52.8).contains(&x), "the hussars halt 4\" from the gunners: x = {x}");
    assert_eq!(b.quarter(1, 0), Quarter::Flank);
    // A 9 / P 5: 1 + (1 + 1 + 4) run, 3 left after the kill: none stay. They run 6" south to
    // y = 14 and face 180, 16" from the gun: they will rally there and walk.
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(1, 0), "9 5");
    assert_eq!(losses(&c, 0), (1, 3, 0));
    for m in c.units[0].men.iter().filter(|m| m.running()) {
        assert!((m.at.y - 14.0).abs() < 1e-9 && (m.facing - 180.0).abs() < 1e-9);
    }
    // P 9 / A 5 (the gunners win): as men on foot, 1 + 1.
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(1, 0), "5 9");
    assert_eq!(losses(&c, 1), (1, 1, 8));
    // W: 1 + 10 + 4; the gunners may not conduct combat.
    let mut w = ba2_16("without-chance");
    assert!(!w.may_fight(0, 1));
    to_combat(&mut w);
    fight_out(&mut w, &[(1, 0), (0, 1)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (0, 10));
}

#[test]
fn ba2_17_gunners_in_ranks_block_an_enemy_rally_an_unserved_gun_and_running_gunners_do_not() {
    // The Pandours' command element in ranks at (47..49, 25), facing south; 4 soldiers dead, 6
    // running at y = 31. The gunners 5" south of them, walking back (facing north).
    let setup = |gunners: ManState| {
        let pandours = line("Pandours", "infantry", 13, 53.0, 25.0, 180.0);
        let mut b = start(battle("chance", &gun("Prussian gun", 48.0, 30.0, 0.0), &pandours, ""), 1);
        dead(&mut b, 1, &[(59.0, 25.0), (58.0, 25.0), (57.0, 25.0), (56.0, 25.0)]);
        ran(&mut b, 1, &[(55.0, 25.0), (54.0, 25.0), (53.0, 25.0), (52.0, 25.0), (51.0, 25.0), (50.0, 25.0)]);
        let facing = if gunners == ManState::InRanks { 0.0 } else { 180.0 };
        gunners_at(&mut b, 0, 20.0, gunners, facing);
        b
    };
    // (a) No rally: enemy men in ranks facing them 5" away.
    let mut b = setup(ManState::InRanks);
    assert!(refused(&mut b, Action::Rally { unit: 1 }).contains("within 6"));
    // (b) The gunners running: the gun 5" off is no man in ranks. 3 rally.
    let mut b = setup(ManState::Running);
    apply(&mut b, Action::Rally { unit: 1 });
    assert_eq!(in_ranks(&b, 1), 6);
    // (c) Case 2: a broken Austrian unit 20" from the walking gunners may not rally; from the
    // running gunners it may (with the commander next to it).
    for (gunners, may) in [(ManState::InRanks, false), (ManState::Running, true)] {
        let broken = line("Broken", "infantry", 13, 48.0, 40.0, 180.0);
        let mut b = start(battle("chance", &gun("Prussian gun", 48.0, 30.0, 0.0), &broken, ""), 1);
        for m in b.units[1].men.iter_mut() {
            m.state = ManState::Running;
        }
        gunners_at(&mut b, 0, 20.0, gunners, 0.0);
        b.commanders[1] = Point::new(48.0, 41.0);
        assert_eq!(b.validate(&Action::Rally { unit: 1 }).is_ok(), may, "gunners {gunners:?}");
    }
}

#[test]
fn ba2_18_a_cannon_nobody_serves_halts_nobody_and_is_not_passed_through() {
    // y=36   A A A A A A A A A A A A A    start
    // y=31   A A A A A A A A A A A A A    after T1
    // y=30               G                unserved gun
    // y=23             r r r r            running gunners
    let setup = |gun_x: f64| {
        let kaiser = line("IR Kaiser", "infantry", 13, 48.0, 36.0, 180.0);
        let mut b = start(battle("chance", &gun("Prussian gun", gun_x, 30.0, 0.0), &kaiser, ""), 1);
        gunners_at(&mut b, 0, 23.0, ManState::Running, 180.0);
        b
    };
    let mut b = setup(48.0);
    // T1: 5" south to 1" from the gun: not halted, no combat.
    apply(&mut b, Action::Move { unit: 1, pivot: None, path: vec![Point::new(48.0, 31.0)] });
    assert!((b.units[1].front.y - 31.0).abs() < 1e-9);
    assert!(!b.may_fight(1, 0) && !b.may_fight(0, 1));
    // T2: 6" on. Disagreement kept (interpretation 19): the reader lets IR Kaiser pass over the
    // gun (the reports' "overrun") and meet the running gunners; the engine keeps the gun a
    // model on the table that nobody passes through or stands on: the line is blocked by it
    // and stays an inch clear, where it stood.
    next_main_of(&mut b, 1);
    apply(&mut b, Action::Move { unit: 1, pivot: None, path: vec![Point::new(48.0, 25.0)] });
    let g = b.units[0].gun.unwrap().at;
    assert!(b.units[1].men.iter().all(|m| m.at.dist(g) >= 1.0 - 1e-9), "nobody on the gun");
    assert!(b.units[1].front.y > 30.9);
    assert!(b.units[0].men.iter().all(|m| (m.at.y - 23.0).abs() < 1e-9), "the gunners were not met");

    // The closest position for the meeting: the gun off the line's path. Disagreement kept
    // (interpretation 30): the reader has the line "encounter" the all-running gunners where the
    // halt would otherwise come (within 4", facing them: y < 27) and push them 18"; the engine
    // has it meet them only where a moving man comes within an inch of one. Ending 2" short of
    // them, it pushes nobody; marching on through them next turn, it pushes them and goes on.
    let mut b = setup(20.0);
    b.units[1].front = Point::new(48.0, 31.0);
    for m in b.units[1].men.iter_mut() {
        m.at.y = 31.0;
    }
    b.units[1].reframe();
    apply(&mut b, Action::Move { unit: 1, pivot: None, path: vec![Point::new(48.0, 25.0)] });
    assert!((b.units[1].front.y - 25.0).abs() < 1e-9);
    assert!(b.units[0].men.iter().all(|m| (m.at.y - 23.0).abs() < 1e-9), "2\" short: not met");
    next_main_of(&mut b, 1);
    apply(&mut b, Action::Move { unit: 1, pivot: None, path: vec![Point::new(48.0, 19.0)] });
    assert!((b.units[1].front.y - 19.0).abs() < 1e-9, "completes its move");
    assert!(b.units[0].men.iter().all(|m| m.at.dist(Point::new(48.0, 23.0)) > 17.0), "pushed 18\"");
}

// ----------------------------------------------------------------------------------------------
// 4. Changing formation or facing in place near the enemy
// ----------------------------------------------------------------------------------------------

#[test]
fn ba2_19_a_change_of_facing_re_forms_the_line_about_its_centre_not_man_by_man() {
    // y=30   P P P P P P P P P P o d f   A A A A A A A A A A o d f     all face north
    //        34                    46  48                      60
    // Disagreement kept (interpretation 29). The reader turns every man of IR 18 where he
    // stands: a file facing east whose front, its flag (46,30), is 2" from IR Harrach's end man,
    // on its flank, with a combat the same turn (C: IR Harrach 7; W likewise). The engine
    // re-forms the unit in its formation facing the new way about the centre of its front rank:
    // a line facing east at x = 40, y 24..36 (the reader's alternative), 8" off: no combat.
    for variant in ["chance", "without-chance"] {
        let mut b = start(
            battle(
                variant,
                &line("IR 18", "infantry", 13, 40.0, 30.0, 0.0),
                &line("IR Harrach", "infantry", 13, 54.0, 30.0, 0.0),
                "",
            ),
            0,
        );
        assert!(!b.faces(0, 1) && !b.faces(1, 0));
        apply(&mut b, Action::Reform { unit: 0, formation: Formation::Line, facing: 90.0 });
        assert!(b.units[0].men.iter().all(|m| (m.at.x - 40.0).abs() < 1e-9 && (m.facing - 90.0).abs() < 1e-9));
        assert!((b.unit_dist(0, 1) - 8.0).abs() < 1e-9);
        assert!(b.faces(0, 1), "IR Harrach's line lies ahead of it");
        assert!(!b.may_fight(0, 1), "{variant}: no combat at 8\"");
    }
}

#[test]
fn ba2_20_an_engaged_unit_may_not_turn_nor_one_with_men_running() {
    // (a) The hussars conducted a combat: IR Harrach is engaged and may not change facing; it
    // may conduct combat against them. They win it without the +4 (interpretation 2; the
    // reader: with it, BA2-02).
    let mut b = ba2_01("chance");
    to_combat(&mut b);
    apply_with(&mut b, combat(0, 1), "8 5");
    to_main_of(&mut b, 1);
    assert!(refused(&mut b, Action::Reform { unit: 1, formation: Formation::Line, facing: 90.0 }).contains("engaged"));
    to_combat(&mut b);
    apply_with(&mut b, combat(1, 0), "4 9");
    assert_eq!(losses(&b, 1), (2, 9, 2), "2nd kill: 1 + 2 + 1 cavalry (the reader: + 4, none left)");

    // (b) The hussars declined: IR Harrach is not engaged and may turn. Disagreement kept
    // (interpretation 29): the reader turns each man where he stands (its flag becomes the
    // front, 3.5" from the hussars: a frontal fight); the engine re-forms the line about its
    // centre, x = 48, y 24..36 facing east, 9.5" from the hussars: no combat, in either version
    // (the reader's (c) has both conduct in W).
    for variant in ["chance", "without-chance"] {
        let mut b = ba2_01(variant);
        to_main_of(&mut b, 1);
        apply(&mut b, Action::Reform { unit: 1, formation: Formation::Line, facing: 90.0 });
        assert!((b.unit_dist(0, 1) - 9.5).abs() < 1e-9);
        assert!(!b.may_fight(1, 0) && !b.may_fight(0, 1), "{variant}");
        next_main_of(&mut b, 0);
        assert_eq!((in_ranks(&b, 0), in_ranks(&b, 1)), (10, 13));
    }

    // (d) IR Botta of BA2-09, 8 in ranks and 3 running, not engaged, on its own turn.
    // Disagreement kept (interpretation 29): the reader lets it turn in place; the engine, for
    // which a change of facing re-forms the unit as a pivot turns it, asks for every man in
    // ranks, as the pivot does.
    let mut b = ba2_08("chance", false);
    dead(&mut b, 1, &[(42.0, 30.0), (44.0, 30.0)]);
    ran(&mut b, 1, &[(43.0, 30.0), (45.0, 30.0), (46.0, 30.0)]);
    to_main_of(&mut b, 1);
    assert!(
        refused(&mut b, Action::Reform { unit: 1, formation: Formation::Line, facing: 315.0 }).contains("all its men")
    );
}

/// BA2-21: IR 23 in column re-forms into a line of 2 ranks about the centre of its front rank.
///
/// ```text
///         before                                 after
/// y=23                 A A              y=23                              A A
/// y=22          P P    A A   <- Hussars y=22     P P P P P P P          A A
/// y=21          P P    A A              y=21      P P P o d f           A A
///               47.5 48.5  53.5                  45          51        53.5
/// ```
fn ba2_21(variant: &str) -> Battle {
    let mut b = start(
        battle(
            variant,
            r#"{ name = "IR 23", arm = "infantry", at = [48, 22], facing = 0, formation = "column" }"#,
            r#"{ name = "Hussars", arm = "cavalry", at = [53.5, 21], facing = 270 }"#,
            "",
        ),
        0,
    );
    assert!((b.unit_dist(0, 1) - 5.0).abs() < 1e-9);
    apply(&mut b, Action::Reform { unit: 0, formation: Formation::Line, facing: 0.0 });
    b
}

#[test]
fn ba2_21_a_formation_change_may_bring_the_unit_into_contact() {
    let b = ba2_21("chance");
    // Front rank (45..51, 22); rear rank (45.5..47.5, 21), then the officer, drummer and flag.
    for (role, x, y) in [(Role::Soldier, 51.0, 22.0), (Role::Officer, 48.5, 21.0), (Role::FlagBearer, 50.5, 21.0)] {
        assert_eq!(b.units[0].men[man(&b, 0, x, y)].role, role);
    }
    // Not a move: no 4" stop. (51,22) is 2.5" from the hussars, in their front.
    assert!((b.unit_dist(0, 1) - 2.5).abs() < 1e-9);
    assert!(b.faces(1, 0) && !b.faces(0, 1));
    assert_eq!(b.quarter(1, 0), Quarter::Flank);
    // C, P's turn: IR 23 may conduct. P 9 / A 5: the hussars 1 + 1.
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(0, 1), "9 5");
    assert_eq!(losses(&c, 1), (1, 1, 8));
    // A 9 / P 5. Disagreement kept (interpretation 2): the reader gives the defending hussars
    // their +4 (IR 23 6); the engine 1 + 1 cavalry (IR 23 10).
    let mut c = b.clone();
    to_combat(&mut c);
    apply_with(&mut c, combat(0, 1), "5 9");
    assert_eq!(losses(&c, 0), (1, 2, 10));
    // On A's turn the hussars' wins carry 1 + 1 + 4.
    let mut c = b.clone();
    to_main_of(&mut c, 1);
    to_combat(&mut c);
    apply_with(&mut c, combat(1, 0), "9 5");
    assert_eq!(losses(&c, 0), (1, 6, 6));
    // W: IR 23 may not conduct; the hussars 1 + 14: none left.
    let mut w = ba2_21("without-chance");
    assert!(!w.may_fight(0, 1));
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (0, 10));
}

// ----------------------------------------------------------------------------------------------
// 5. Objectives: hill [14,26]-[26,34], farm [40,26]-[46,34], mill [50,27]-[54,33], village
//    [78,26]-[86,34]; three of the four win.
// ----------------------------------------------------------------------------------------------

/// BA2-22: IR 18 at `x` (one rank, x - 6 .. x + 6, y 30), with a broken Austrian unit's 4
/// runners on the hill, an Austrian gun on it whose gunners run elsewhere, and reserves far off.
///
/// ```text
/// y=34  +-----------hill-----------+
/// y=32  |  G                       |
/// y=30  |              P P P P P   P P P P P P P P     (IR 18: x 22..34)
/// y=28  |  r r r r                 |
/// y=26  +--------------------------+
///       14                        26
/// ```
fn ba2_22(x: f64) -> Battle {
    let mut b = field(
        "chance",
        &format!("{}, {}", line("IR 18", "infantry", 13, x, 30.0, 0.0), reserve("P reserve", 4.0)),
        &format!(
            "{}, {}, {}",
            line("Broken", "infantry", 4, 17.5, 28.0, 0.0),
            gun("Austrian gun", 16.0, 32.0, 180.0),
            reserve("A reserve", 56.0)
        ),
    );
    for m in b.units[2].men.iter_mut() {
        m.state = ManState::Running;
    }
    for m in b.units[3].men.iter_mut() {
        m.state = ManState::Running;
        m.at.y += 6.0;
    }
    start(b, 0)
}

#[test]
fn ba2_22_men_in_ranks_occupy_an_objective_alone_runners_and_a_gun_do_not() {
    let b = ba2_22(28.0);
    assert_eq!(b.holders, vec![Some(0), None, None, None], "the hill is P's");
    // The edge of the outline counts: IR 18 at x 26..38 has one man on the hill's east edge.
    // The engine counted a man on an objective's south or west edge but not on its north or east
    // edge (the ray test of a point in a polygon); fixed, every edge counts alike.
    let b = ba2_22(32.0);
    assert_eq!(b.holders[HILL], Some(0), "(26,30) on the edge");
    let b = ba2_22(32.1);
    assert_eq!(b.holders[HILL], None, "x 26.1..38.1: nobody on the hill");

    // (b) The Austrian gunners, rallied, in ranks on the hill walking back to their gun.
    // Disagreement kept (interpretation 11): the reader has a contested objective count for
    // neither side; the engine reads "completely occupy, or were the last to occupy" so that the
    // last side to occupy it alone keeps it until the other occupies it alone: still P's.
    let mut b = ba2_22(28.0);
    gunners_at(&mut b, 3, 29.0, ManState::InRanks, 0.0);
    for m in b.units[3].men.iter_mut() {
        m.at.x -= 32.0; // x 15.25..16.75
    }
    apply(&mut b, Action::Reform { unit: 1, formation: Formation::Line, facing: 0.0 });
    assert_eq!(b.holders[HILL], Some(0));
    // Only if P leaves is it A's: the gunners alone occupy it.
    for m in b.units[0].men.iter_mut() {
        m.state = ManState::Running;
    }
    next_main_of(&mut b, 1);
    apply(&mut b, Action::Reform { unit: 4, formation: Formation::Line, facing: 180.0 });
    assert_eq!(b.holders[HILL], Some(1));

    // Passing along an edge counts as passing through: a column of hussars whose south file
    // rides along the hill's north edge (y = 34) for an inch, then turns north-west and ends
    // wholly off the hill, takes it (the same fix, for the men on the way).
    //
    //   y=36.6          . P P                       (where the column ends)
    //   y=35        . P P . . . . . . P P P P P    (the north file)
    //   y=34  ------+P P=============== P P P P P  (the south file; the hill's north edge)
    //              25 26                   32
    let column = r#"{ name = "Hussars", arm = "cavalry", at = [32, 34.5], facing = 270, formation = "column" }"#;
    let mut b = start(field("chance", column, &reserve("A reserve", 56.0)), 0);
    assert_eq!(b.holders[HILL], None);
    let turn = Point::new(25.0, 34.5);
    let end = turn + Point::new(-5.0 / 2f64.sqrt(), 5.0 / 2f64.sqrt());
    apply(&mut b, Action::Move { unit: 0, pivot: None, path: vec![turn, end] });
    assert!(b.units[0].men.iter().all(|m| m.at.y > 34.5), "the column ends off the hill");
    assert_eq!(b.holders[HILL], Some(0));
}

/// BA2-23: the Fusiliers (7) inside the farm facing south; the Hussars in column west of it.
///
/// ```text
/// y=32.5   A A A A A >        |         |
/// y=31.5   A A A A A >        |  farm   |
/// y=29.5                      |  P P P  |      Fusiliers, facing S
/// y=28.5                      | P P P P |
///          35      39        40         46
/// ```
fn ba2_23(extra_a: &str) -> Battle {
    let fusiliers = r#"{ name = "Fusiliers", arm = "infantry", at = [43, 28.5], facing = 180, soldiers = 4 }"#;
    let hussars = r#"{ name = "Hussars", arm = "cavalry", at = [39, 32], facing = 90, formation = "column" }"#;
    let a = if extra_a.is_empty() { hussars.to_string() } else { format!("{hussars}, {extra_a}") };
    let b = field("chance", &format!("{fusiliers}, {}", reserve("P reserve", 4.0)), &a);
    start(b, 0)
}

#[test]
fn ba2_23_the_last_to_occupy_holds_it_and_passing_through_takes_an_empty_objective() {
    let b = ba2_23("");
    assert_eq!(b.holders[FARM], Some(0));
    let ride = Action::Move { unit: 2, pivot: None, path: vec![Point::new(51.0, 32.0)] };

    // (a) The Fusiliers march out: still P's. (d) Then the hussars ride through it: A's, though
    // they end wholly outside it (x 47..51; they end in the mill, which is A's too).
    let mut a = b.clone();
    apply(&mut a, Action::Move { unit: 0, pivot: None, path: vec![Point::new(43.0, 22.5)] });
    assert_eq!(a.holders[FARM], Some(0));
    let mut d = a.clone();
    next_main_of(&mut d, 1);
    apply(&mut d, ride.clone());
    assert!(d.units[2].front.dist(Point::new(51.0, 32.0)) < 1e-9);
    assert_eq!(d.holders[FARM], Some(1));

    // (b) The Fusiliers broken, all running, some still inside: still P's.
    let mut c = b.clone();
    for m in c.units[0].men.iter_mut() {
        m.state = ManState::Running;
    }
    apply(&mut c, Action::Reform { unit: 1, formation: Formation::Line, facing: 0.0 });
    assert_eq!(c.holders[FARM], Some(0));

    // (c) An Austrian mob crosses the farm after (a): still P's.
    let mut m = ba2_23(&line("A mob", "infantry", 4, 31.5, 30.0, 0.0));
    for man in m.units[3].men.iter_mut() {
        man.state = ManState::Running;
    }
    apply(&mut m, Action::Move { unit: 0, pivot: None, path: vec![Point::new(43.0, 22.5)] });
    next_main_of(&mut m, 1);
    let c0 = m.units[3].centre();
    apply(&mut m, Action::Mob { unit: 3, path: vec![c0 + Point::new(17.0, 0.0)] });
    assert!(m.units[3].centre().x > 46.0, "the mob crossed the farm");
    assert_eq!(m.holders[FARM], Some(0));

    // (e) The same ride with the Fusiliers still in the farm: the column passes 2" north of
    // their rear rank, neither facing the other, and is not halted; the farm stays P's (the
    // reader: contested, nobody's, while the hussars are in it, and P's again once they leave;
    // the engine looks at the holders when the move ends).
    let mut e = b.clone();
    next_main_of(&mut e, 1);
    apply(&mut e, ride);
    assert!(e.units[2].front.dist(Point::new(51.0, 32.0)) < 1e-9, "not halted");
    assert_eq!(e.holders[FARM], Some(0));
}

/// BA2-24: IR 27 and IR Kaiser fight in the village, 3" apart, face to face; IR 27 has lost 2
/// killed and 3 running and has three soldiers left in the village.
///
/// ```text
/// y=34   +---------- village ----------+
/// y=33   f d o A A A A A A A A A A  (IR Kaiser, x 76..88)
/// y=30     P P P P P        o d f   (IR 27 in ranks: 76.5, 77.5 | 78.5..80.5 | 86.5..88.5)
/// y=26   +-----------------------------+
///       76 78                   86 88
/// ```
fn ba2_24(variant: &str) -> Battle {
    let mut b = field(
        variant,
        &format!(
            "{}, {}",
            line("IR 27", "infantry", 13, 82.5, 30.0, 0.0),
            line("Hill guard", "infantry", 13, 20.0, 30.0, 0.0)
        ),
        &format!(
            "{}, {}",
            line("IR Kaiser", "infantry", 13, 82.0, 33.0, 180.0),
            line("Farm guard", "infantry", 7, 43.0, 30.0, 180.0)
        ),
    );
    fall(&mut b, 0, &[(85.5, 30.0), (84.5, 30.0)]);
    ran(&mut b, 0, &[(83.5, 30.0), (82.5, 30.0), (81.5, 30.0)]);
    engaged(&mut b, &[(0, 2)]);
    let mut b = start(b, 1);
    // The hill is P's, the farm A's (men in ranks there); the mill A's (the last to occupy it);
    // the village has men in ranks of both sides. The reader counts it for nobody; the engine
    // (interpretation 11) for its last holder: P, who came first (with A, A would have won).
    b.holders[MILL] = Some(1);
    b.holders[VILLAGE] = Some(0);
    b
}

#[test]
fn ba2_24_a_contested_objective_cleared_in_combat_changes_hands_and_the_win_is_at_once() {
    let mut b = ba2_24("chance");
    assert_eq!(b.holders, vec![Some(0), Some(1), Some(1), Some(0)]);
    // A's turn, IR Kaiser conducts, A Q / P 9: IR 27's 3rd kill, 1 + 3. The engine chooses for
    // A the soldiers nearest IR Kaiser: (80.5,30) killed, (79.5,30), (78.5,30), (77.5,30) run;
    // the reader's choice ((78.5,30) killed; (79.5,30), (80.5,30), (76.5,30) run) clears the
    // village too. Nobody of IR 27 in ranks is left in it: A's at once, and A wins.
    to_combat(&mut b);
    apply_with(&mut b, combat(2, 0), "Q 9");
    assert_eq!(losses(&b, 0), (3, 6, 4));
    assert!(b.units[0].men.iter().filter(|m| m.in_ranks()).all(|m| m.at.x < 78.0 || m.at.x > 86.0));
    assert_eq!(b.holders[VILLAGE], Some(1));
    assert_eq!(b.outcome.as_ref().and_then(|o| o.winner), Some(1));
    assert_eq!(b.phase, Phase::Over, "A's other combats are not fought");

    // W: the same after the phase's simultaneous combats (IR 27 strikes back, IR Kaiser stays).
    let mut w = ba2_24("without-chance");
    to_combat(&mut w);
    fight_out(&mut w, &[(2, 0), (0, 2)]);
    assert_eq!(losses(&w, 2), (1, 1, 11));
    assert_eq!(w.outcome.as_ref().and_then(|o| o.winner), Some(1));

    // W: both sides' last men in ranks in the village removed in one phase. The reader: nobody
    // holds it; the engine (interpretation 11, the reader's alternative): it stays with its last
    // holder, P.
    let mut w = field(
        "without-chance",
        r#"{ name = "P cav", arm = "cavalry", at = [86, 30], facing = 0, ranks = 1, cavalrymen = 2 }"#,
        r#"{ name = "A cav", arm = "cavalry", at = [86, 33], facing = 180, ranks = 1, cavalrymen = 2 }"#,
    );
    w = start(w, 0);
    w.holders[VILLAGE] = Some(0);
    to_combat(&mut w);
    fight_out(&mut w, &[(0, 1), (1, 0)]);
    assert_eq!((in_ranks(&w, 0), in_ranks(&w, 1)), (0, 0));
    assert_eq!(w.holders[VILLAGE], Some(0));
}

/// BA2-25: the Zieten Hussars ride 12" east along y 29.5..30.5, through the farm and into the
/// mill, with IR 18 on the hill (P's) and IR Kaiser in the village (A's).
///
/// ```text
///         farm (40..46)         mill (50..54)
/// y=30  PP>|=================|   |=====|
///       35 39 40           46   50    54
/// ```
fn ba2_25(extra_a: &str) -> Battle {
    let p = r#"{ name = "IR 18", arm = "infantry", at = [20, 30], facing = 0 },
               { name = "Zieten Hussars", arm = "cavalry", at = [39, 30], facing = 90, formation = "column" }"#;
    let kaiser = r#"{ name = "IR Kaiser", arm = "infantry", at = [82, 30], facing = 180 }"#;
    let a = if extra_a.is_empty() { kaiser.to_string() } else { format!("{kaiser}, {extra_a}") };
    start(field("chance", p, &a), 0)
}

/// The Zieten Hussars' ride 12" east.
fn ride() -> Action {
    Action::Move { unit: 1, pivot: None, path: vec![Point::new(51.0, 30.0)] }
}

#[test]
fn ba2_25_passing_through_objectives_in_one_move_wins_when_the_third_is_taken() {
    // (a) The farm A's (Pandours passed through it), the mill never occupied: P holds 1, A 2.
    // The ride takes the farm and the mill: P holds 3 and wins. (The engine finishes the move
    // and then looks at the objectives; the reader stops the battle as the head enters the
    // mill: the same winner, and nothing after the move is played either way.)
    let mut b = ba2_25("");
    b.holders[FARM] = Some(1);
    assert_eq!(b.holders, vec![Some(0), Some(1), None, Some(1)]);
    apply(&mut b, ride());
    assert_eq!(b.holders, vec![Some(0), Some(0), Some(0), Some(1)]);
    assert_eq!(b.outcome.as_ref().and_then(|o| o.winner), Some(0));

    // (b) The farm never occupied; Pandours in the mill (four of them inside, facing north).
    // The column passes 2" from them, neither facing the other: not halted. The farm becomes
    // P's; the mill, with both sides in it, is contested: no win either way. Disagreement kept
    // (interpretation 11): the reader counts it for nobody (P 2, A 1); the engine leaves it with
    // A, the last to occupy it alone (P 2, A 2).
    let pandours = r#"{ name = "Pandours", arm = "infantry", at = [52.5, 32.5], facing = 0, ranks = 1, soldiers = 2 }"#;
    let mut b = ba2_25(pandours);
    assert_eq!(b.holders, vec![Some(0), None, Some(1), Some(1)]);
    apply(&mut b, ride());
    assert!(b.units[1].front.dist(Point::new(51.0, 30.0)) < 1e-9, "not halted");
    assert_eq!(b.holders, vec![Some(0), Some(0), Some(1), Some(1)]);
    assert!(b.outcome.is_none());

    // (c) As (a), with an all-running Austrian unit in the farm at (42..45, 31): met, pushed 18"
    // away; the hussars complete their ride; the farm is P's, running men never held it.
    let mut b = ba2_25(&line("Runners", "infantry", 4, 43.5, 31.0, 0.0));
    for m in b.units[3].men.iter_mut() {
        m.state = ManState::Running;
    }
    b.holders[FARM] = Some(1);
    let before = b.units[3].centre();
    apply(&mut b, ride());
    assert!((b.units[3].centre().dist(before) - 18.0).abs() < 1e-6, "pushed 18\"");
    assert!(b.units[1].front.dist(Point::new(51.0, 30.0)) < 1e-9);
    assert_eq!(b.holders[FARM], Some(0));
    assert_eq!(b.outcome.as_ref().and_then(|o| o.winner), Some(0));
}

/// The audit at scale (interpretation 31): a unit pivots on the centre man of its front rank as
/// its men stand now. A line of nine, facing north, has lost its four left-hand men; its centre
/// man is the middle one of the five left (x 42), not the empty place at x 40 where the line's
/// centre stood when it formed. Pivoted to face east and moved 6", he goes exactly 6".
///
/// ```text
///   before:  x x x x [. . . . o o O o o]   y 10, facing north (x: fallen, O: the centre man)
///   after:   the line faces east, its centre man at (48, 10)
/// ```
#[test]
fn a_line_that_lost_men_at_one_end_pivots_on_its_centre_man() {
    let mut b = start(
        battle(
            "chance",
            &line("IR 1", "infantry", 9, 40.0, 10.0, 0.0),
            &line("IR 2", "infantry", 9, 40.0, 50.0, 180.0),
            "",
        ),
        0,
    );
    let mut order: Vec<usize> = (0..b.units[0].men.len()).collect();
    order.sort_by(|&i, &j| b.units[0].men[i].at.x.total_cmp(&b.units[0].men[j].at.x));
    for &i in &order[..4] {
        b.units[0].men[i].state = ManState::Dead;
    }
    let centre = b.units[0].men[order[6]].at;
    assert!((centre.x - 42.0).abs() < 1e-9, "{centre:?}");
    // Any action finds the centre man again; the commander's ride is one. The frame the line
    // formed in stays where it was (flank and rear are judged against it).
    let formed = b.units[0].frame_corners().unwrap();
    apply(&mut b, Action::MoveCommander { to: Point::new(80.0, 2.0) });
    assert!(b.units[0].front.dist(centre) < 1e-9, "the pivot {:?} is not the centre man {centre:?}", b.units[0].front);
    let kept = b.units[0].frame_corners().unwrap();
    assert!(formed.iter().zip(&kept).all(|(p, q)| p.dist(*q) < 1e-9), "{formed:?} {kept:?}");
    let frame = b.units[0].frame_corners();
    apply(&mut b, Action::Move { unit: 0, pivot: Some(90.0), path: vec![centre + Point::new(6.0, 0.0)] });
    let man = b.units[0].men[order[6]].at;
    assert!(man.dist(centre) <= 6.0 + 1e-9, "the centre man went {:.2}\"", man.dist(centre));
    assert!(man.dist(Point::new(48.0, 10.0)) < 1e-9, "{man:?}");
    assert_ne!(frame, b.units[0].frame_corners(), "moved, it formed again where it stands");
}
