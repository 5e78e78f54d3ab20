//! The second reading after issue 28 (`docs/second-reading/en-avant-issue28.md`, cases EA2-01 …
//! EA2-28, readings E1–E15): each case worked by hand from the text alone, played on the table.
//!
//! The table is 180 × 120 cm, x east and y north; Blue's rear edge is the south one (Blue faces
//! north), Red's the north one (Red faces south); a unit's `at` is the centre of its front edge, its
//! body behind it (line 36 × 2, assault column 12 × 6, square 6 × 6, cavalry line 32 × 4, cavalry
//! column 16 × 28). Each side has two spare battalions in its corners, so one unit gone does not
//! break it. Turn 1 is led by Blue, turn 2 by Red (interpretation 10a).
//!
//! Where the engine and the reader differ, the test asserts what the engine does and says why the
//! register's reading stands (or which fix made the engine the reader's).
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;

use common::{BLUE_FAR, battle, blues, charge, reds, told_of, unit};
use volley_chance::Seeded;
use volley_core::{Actor, GameState};
use volley_en_avant::battle::{Action, Battle, CONTACT, Fought, Pending, Presence};
use volley_en_avant::combat::Direction;
use volley_en_avant::events::{Blocked, Event, Fact, MoveKind, NextTurn};
use volley_en_avant::model::Formation;
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;
use volley_table::Point;

use Status::{Determined, Frightened, Nervous, Pugnacious, RunningAway, Steady, Wavering};

/// Give each side its cards (by unit name) and play the turn; every event.
fn play(b: &mut Battle, blue: &[(&str, Order)], red: &[(&str, Order)]) -> Vec<Event> {
    play_with(b, blue, &[], red, &[])
}

/// As [`play`], with each side's other actions (a second line's call, a ride) before its cards.
fn play_with(
    b: &mut Battle,
    blue: &[(&str, Order)],
    blue_more: &[Action],
    red: &[(&str, Order)],
    red_more: &[Action],
) -> Vec<Event> {
    let mut events = Vec::new();
    let mut chance = Seeded::new(1);
    for (orders, more) in [(blue, blue_more), (red, red_more)] {
        for a in more {
            b.apply(a, &mut chance, &mut events).unwrap_or_else(|e| panic!("{a:?}: {e}"));
        }
        for (name, order) in orders {
            let a = Action::Order { unit: unit(b, name) as u16, order: *order };
            b.apply(&a, &mut chance, &mut events).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
        b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    }
    events
}

fn words(events: &[Event]) -> Vec<String> {
    events.iter().map(ToString::to_string).collect()
}

/// What everyone reads: the told lines.
fn told(events: &[Event]) -> Vec<String> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Told { text } => Some(text.clone()),
            _ => None,
        })
        .collect()
}

fn facts(events: &[Event]) -> Vec<&Fact> {
    events.iter().filter_map(Event::fact).collect()
}

/// The close assaults fought: (attackers, defender).
fn assaults(events: &[Event]) -> Vec<(Vec<String>, String)> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Assault { defender, attackers, .. } => {
                Some((attackers.iter().map(|a| a.unit.clone()).collect(), defender.clone()))
            }
            _ => None,
        })
        .collect()
}

/// Each unit's result in the turn's close assaults.
fn results(events: &[Event]) -> Vec<(String, NextTurn)> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Assault { results, .. } => Some(results.iter().map(|r| (r.unit.clone(), r.next)).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

/// The face of the defender each attacker met.
fn directions(events: &[Event]) -> Vec<Direction> {
    facts(events)
        .into_iter()
        .filter_map(|f| match f {
            Fact::Assault { attackers, .. } => Some(attackers.iter().map(|a| a.direction).collect::<Vec<_>>()),
            _ => None,
        })
        .flatten()
        .collect()
}

fn x<'a>(b: &'a Battle, name: &str) -> &'a volley_en_avant::battle::Unit {
    &b.units[unit(b, name)]
}

fn at(b: &Battle, name: &str) -> Point {
    x(b, name).at
}

fn labels(b: &Battle, name: &str) -> [Status; 2] {
    x(b, name).status
}

fn ordered(b: &Battle, name: &str) -> bool {
    x(b, name).ordered()
}

fn gap(b: &Battle, p: &str, q: &str) -> f64 {
    b.gap(unit(b, p), unit(b, q))
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// Play turn 1 with no cards, so that turn 2 (Red leading) comes next.
fn red_leads(b: &mut Battle) {
    play(b, &[], &[]);
}

// ---------------------------------------------------------------------------------------------
// 1. A close assault on a target that moves in the same phase (E1–E5).
//
// The reader moves every unit at once (E1a): a charger and its target meet partway through the
// turn, and a unit contacted stops. The engine moves units one at a time (interpretation 10a),
// and a charger whose target moved on keeps up with it with the rest of its move (34): a charge
// at a unit that moves is settled against where that unit's own move ends, whichever side leads
// — the reader's "targets first" (E1d). The text's sequence puts the melee after the movement
// phase, in which each unit carries out its move; it never stops a unit's move because an enemy
// is charging it. Against a target moving straight away the two readings agree on whether there
// is contact (the reader says so, E1); they differ on where, and so on the ground the fight is
// fought on (EA2-02) and on who else arrives (EA2-08).
// ---------------------------------------------------------------------------------------------

/// EA2-01. Agree.
///
/// ```text
///  y 74 ┌──────── Red Foot ────────┐  retires 20 north
///  y 72 └──────────────────────────┘
///                gap 32
///  y 40  ┌────── Blue Horse ──────┐    charges Red Foot (40)
///  y 36  └────────────────────────┘
/// ```
///
/// 32 + 20 = 52 > 40: no contact, no test, no disorder; Blue's front ends at y 80, Red's at 92.
#[test]
fn ea2_01_a_target_that_retires_out_of_reach_is_not_assaulted() {
    for red_first in [false, true] {
        let mut b = battle(
            &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
            &reds(r#"{ name = "Red Foot", kind = "infantry", at = [90, 72] }"#),
            "",
        );
        if red_first {
            red_leads(&mut b);
        }
        let c = charge(&b, "Red Foot");
        let events = play(&mut b, &[("Blue Horse", c)], &[("Red Foot", Order::Withdraw)]);
        assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
        assert!(near(at(&b, "Blue Horse").y, 80.0) && near(at(&b, "Red Foot").y, 92.0), "{:#?}", words(&events));
        assert_eq!((labels(&b, "Blue Horse"), x(&b, "Red Foot").status[0]), ([Steady; 2], Steady));
        assert!(ordered(&b, "Blue Horse") && ordered(&b, "Red Foot"));
        if !red_first {
            assert!(told_of(&told(&events), "Red Foot draws off out of Blue Horse's reach"));
        }
    }
}

/// EA2-02. Disagree, kept (interpretations 10a, 34: the target's move is made whole).
///
/// ```text
///  y 95 ┌───────────── the mill ─────────────┐
///  y 75 └────────────────────────────────────┘
///  y 56   ══════ Red Foot ══════   retires 20
///  y 40   ══════ Blue Horse ════   charges Red Foot
/// ```
///
/// The reader meets the two at y 72, Red just short of the mill, and Blue wins the tie. The
/// engine lets Red make its 20 cm (its front at 76, body 76–78, in the mill) and Blue keeps up
/// with it (16 + 20 = 36 ≤ 40): step one 4 + 2 = 6 against 4 + 1 (defending a major defensive
/// feature) = 5, Blue closes; step two 4 against 4 + 1: Red wins — the reader's "targets first".
/// A unit's ordered move is carried out in the movement phase; nothing in the text stops it
/// half-way because an enemy rides at it, and the melee is fought where the units stand after
/// movement. The same comes of it whichever side leads.
#[test]
fn ea2_02_a_target_retiring_into_a_town_is_caught_there_and_defends_it() {
    let mill = "[[terrain]]\nkind = \"town\"\nname = \"the mill\"\nrect = [60, 75, 120, 95]\n";
    for red_first in [false, true] {
        let mut b = battle(
            &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
            &reds(r#"{ name = "Red Foot", kind = "infantry", at = [90, 56] }"#),
            mill,
        );
        if red_first {
            red_leads(&mut b);
        }
        let c = charge(&b, "Red Foot");
        let events = play(&mut b, &[("Blue Horse", c)], &[("Red Foot", Order::Withdraw)]);
        assert!(near(at(&b, "Red Foot").y, 76.0), "{:#?}", words(&events));
        assert_eq!(
            results(&events),
            vec![("Blue Horse".to_string(), NextTurn::Withdraw { cm: 25 }), ("Red Foot".to_string(), NextTurn::Pursue)],
            "{:#?}",
            words(&events)
        );
        assert_eq!(labels(&b, "Blue Horse"), [Wavering; 2]);
        assert_eq!(x(&b, "Red Foot").status[0], Steady);
        // T2: Blue withdraws its 25 cm; Red pursues out of its mill, 20 cm, and falls short.
        let events = play(&mut b, &[], &[]);
        assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
        assert!(gap(&b, "Blue Horse", "Red Foot") > 4.0, "{:#?}", words(&events));
    }
}

/// EA2-03. Disagree, kept (interpretations 34 and 38).
///
/// Blue's Nervous hussars (3/3, column, 50 cm) charge Red's Determined dragoons (5/5, line)
/// 8 cm off, which retire 40. The reader halts Blue where the gap first falls to 5 (its front at
/// 55, an end gap of 33). The engine: Red retires its whole 40 (front at 88); Blue keeps up
/// (8 + 40 ≤ 50) and takes step one there: 3 against 5, it fails and stops at 5 cm — its front at
/// 83, a gap of 5, DISORDERED (the reader's "targets first"). "Stop at 5 cm" is read as 5 cm
/// from the enemy the attack failed against, where it failed against it.
#[test]
fn ea2_03_a_failed_charge_at_retiring_cavalry_stops_five_cm_from_where_they_end() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Hussars", kind = "cavalry", at = [90, 40], formation = "cavalry_column", status = "nervous" }"#,
        ),
        &reds(r#"{ name = "Red Dragoons", kind = "cavalry", at = [90, 48], status = "determined" }"#),
        "",
    );
    let c = charge(&b, "Red Dragoons");
    let events = play(&mut b, &[("Blue Hussars", c)], &[("Red Dragoons", Order::Withdraw)]);
    assert!(told_of(&told(&events), "Blue Hussars will not close with Red Dragoons"), "{:#?}", words(&events));
    assert!(near(at(&b, "Red Dragoons").y, 88.0) && near(at(&b, "Blue Hussars").y, 83.0), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Hussars", "Red Dragoons"), 5.0));
    assert!(!ordered(&b, "Blue Hussars") && ordered(&b, "Red Dragoons"));
    assert_eq!((labels(&b, "Blue Hussars"), labels(&b, "Red Dragoons")), ([Nervous; 2], [Determined; 2]));
}

/// EA2-04. T1 agree; T2 disagree, kept (interpretation 38).
///
/// T1: Blue's column (25 cm) charges Red's Determined line 8 cm off, which retires 20: the gap
/// closes by 5, to 3; no contact, no test, Blue ORDERED (E3: a charge that does not reach is no
/// failed attack). T2: Red halts; Blue charges from 3 cm, takes step one (4 against 5) and fails.
/// The reader leaves it 3 cm off; the engine stops it at 5 cm, drawing it back 2 cm: "the
/// attackers must stop at 5 cm" gives the distance, and a failed attacker that began nearer has
/// not stopped there.
#[test]
fn ea2_04_a_charge_three_cm_short_then_a_failure_stops_at_five_cm() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 40], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red Line", kind = "infantry", at = [90, 48], status = "determined" }"#),
        "",
    );
    let c = charge(&b, "Red Line");
    let events = play(&mut b, &[("Blue Column", c)], &[("Red Line", Order::Withdraw)]);
    assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
    assert!(near(at(&b, "Blue Column").y, 65.0) && near(at(&b, "Red Line").y, 68.0), "{:#?}", words(&events));
    assert!(ordered(&b, "Blue Column"), "no failed attack: it did not reach");
    let events = play(&mut b, &[("Blue Column", c)], &[("Red Line", Order::Halt)]);
    assert!(told_of(&told(&events), "Blue Column will not close with Red Line"), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Column", "Red Line"), 5.0), "{:#?}", words(&events));
    assert!(near(at(&b, "Blue Column").y, 63.0));
    assert!(!ordered(&b, "Blue Column") && ordered(&b, "Red Line"));
}

/// EA2-05. (a) Agree (fixed): two regiments that charge each other and tie in step two are
/// drawn. (b) Agree (fixed): the one that will not close halts, and the other's charge is
/// fought.
///
/// ```text
///  y 84 ┌──── Red Horse ────┐   charges Blue Horse
///  y 80 └───────────────────┘
///             gap 40
///  y 40 ┌──── Blue Horse ───┐   charges Red Horse
///  y 36 └───────────────────┘
/// ```
///
/// "If both end up equal, then the attacker wins": here both are attackers, and the text knows
/// a drawn fight ("First line drawn"). Before, the side leading the turn reached the other first
/// and took the tie; and when its step one failed, the other's charge was dropped without a
/// word. The place is the engine's (interpretation 10a: Blue, leading, rides its 40 cm; the
/// reader meets them half-way, at y 60).
#[test]
fn ea2_05_two_regiments_charging_each_other_draw_on_a_tie_and_the_willing_one_attacks() {
    // (a) Both 4/4, with either side leading.
    for red_first in [false, true] {
        let mut b = battle(
            &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
            &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [90, 80] }"#),
            "",
        );
        if red_first {
            red_leads(&mut b);
        }
        let (c, d) = (charge(&b, "Red Horse"), charge(&b, "Blue Horse"));
        let events = play(&mut b, &[("Blue Horse", c)], &[("Red Horse", d)]);
        assert_eq!(assaults(&events).len(), 1, "one fight: {:#?}", words(&events));
        let r = results(&events);
        assert!(r.iter().all(|(_, n)| *n == NextTurn::Drawn) && r.len() == 2, "{r:?} {:#?}", words(&events));
        for name in ["Blue Horse", "Red Horse"] {
            let u = x(&b, name);
            assert_eq!(u.status, [Steady; 2], "{name}: no status lost");
            assert_eq!(u.disordered, [true; 2], "{name}: all four labels DISORDERED");
            assert_eq!(u.pending, Pending::None, "{name}: no result move");
            assert_eq!(u.fought.map(|f| f.1), Some(Fought::Drawn));
        }
        assert!(gap(&b, "Blue Horse", "Red Horse") <= CONTACT, "they stand in contact");
        assert!(told_of(&told(&events), "neither gives way"), "{:#?}", told(&events));
    }
    // (b) Red at 5/5: Blue's step one (4 against 5) fails, Red's (5 against 4 - 1) holds;
    // step two 5 against 4: Red wins, 5 -> 4/4 and pursues; Blue 4 -> 2/2 and withdraws 25.
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
        &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [90, 80], status = "determined" }"#),
        "",
    );
    let (c, d) = (charge(&b, "Red Horse"), charge(&b, "Blue Horse"));
    let events = play(&mut b, &[("Blue Horse", c)], &[("Red Horse", d)]);
    assert!(told_of(&told(&events), "Blue Horse will not close with Red Horse"), "{:#?}", words(&events));
    assert!(told_of(&told(&events), "Red Horse closes with Blue Horse: Red Horse wins"), "{:#?}", words(&events));
    assert_eq!((labels(&b, "Blue Horse"), labels(&b, "Red Horse")), ([Wavering; 2], [Steady; 2]));
    assert_eq!(x(&b, "Blue Horse").pending, Pending::Withdraw { cm: 25, from: unit(&b, "Red Horse") as u16 });
    assert_eq!(x(&b, "Red Horse").pending, Pending::Pursue { target: unit(&b, "Blue Horse") as u16 });
}

/// EA2-06. (a) Agree on the flank attack (fixed), disagree on the place (kept, 34); (b) agree;
/// (b′) agree.
///
/// ```text
///                                         ┌┐ y 77
///  y 62 ┌──────── Red Foot ─────────┐     ││ Blue Horse (faces W)
///  y 60 └───────────────────────────┘ ◄── ││ charges W 40; front x = 128
///       x 72    ↓ advances 20    x 108    └┘ y 45
/// ```
///
/// Blue, leading, reached Red's east end; Red then marched its 20 cm south, out of Blue's front,
/// beyond the 45° Blue may turn from where it stood. Before, the charge was lost — while the
/// same orders with Red leading gave a flank attack. Now a charger that cannot keep up from where
/// it stands is judged from where it began its charge, with its whole move, as if the enemy had
/// moved first (interpretation 34): it turns within its 45° and meets Red's east end at y 40–42
/// — a flank attack, 7 against 4 and 5 against 4, whoever leads (the reader meets it at 50–52).
/// (b) From x = 144 (a gap of 36) Red gets clear (40.7 cm to its end): no contact. (b′) From
/// x = 142 Blue reaches the end of Red's line, the reader's corner touch: a flank attack.
#[test]
fn ea2_06_a_target_walking_across_a_flank_charge_is_caught_on_its_flank_whoever_leads() {
    for (start, caught) in [(128, true), (144, false), (142, true)] {
        for red_first in [false, true] {
            let mut b = battle(
                &blues(&format!(
                    r#"{{ name = "Blue Horse", kind = "cavalry", at = [{start}, 61], facing = 270 }}, {{ name = "Blue Line", kind = "infantry", at = [90, 10] }}"#
                )),
                &reds(r#"{ name = "Red Foot", kind = "infantry", at = [90, 60] }"#),
                "",
            );
            if red_first {
                red_leads(&mut b);
            }
            let c = charge(&b, "Red Foot");
            let events = play(&mut b, &[("Blue Horse", c)], &[("Red Foot", Order::Advance)]);
            let case = format!("from x {start}, red leads {red_first}");
            assert!(near(at(&b, "Red Foot").y, 40.0), "{case}: Red made its 20 cm: {:#?}", words(&events));
            // The data tells one move of at most its 40 cm, from where it stood to where it ended
            // (a charge settled again from its start takes back the first).
            let moves: Vec<(f64, f64)> = facts(&events)
                .into_iter()
                .filter_map(|f| match f {
                    Fact::Move { unit, from, to, done, .. } if unit == "Blue Horse" => {
                        Some((*done, Point::from(from.at).dist(Point::from(to.at))))
                    }
                    _ => None,
                })
                .collect();
            let done: f64 = moves.iter().map(|m| m.0).sum();
            assert!(done <= 40.0 + 1e-6 && moves.iter().all(|m| m.1 <= m.0 + 1e-6), "{case}: {moves:?}");
            if caught {
                assert_eq!(directions(&events), vec![Direction::Flank], "{case}: {:#?}", words(&events));
                assert_eq!(
                    results(&events),
                    vec![
                        ("Blue Horse".to_string(), NextTurn::Pursue),
                        ("Red Foot".to_string(), NextTurn::Withdraw { cm: 10 })
                    ],
                    "{case}"
                );
                assert_eq!(x(&b, "Red Foot").status[0], Nervous, "{case}");
            } else {
                assert!(assaults(&events).is_empty(), "{case}: {:#?}", words(&events));
                assert!(gap(&b, "Blue Horse", "Red Foot") > CONTACT, "{case}");
                assert!(ordered(&b, "Blue Horse") && ordered(&b, "Red Foot"), "{case}");
            }
        }
    }
}

/// EA2-07. Disagree, kept (interpretation 17).
///
/// ```text
///  y 77 ┌──────── Red Rear ────────┐  halt (holds its fire)
///  y 75 └──────────────────────────┘
///  y 67             ┌─┐ Red Front ──► advances E 25
///  y 55             └─┘
///  y 40        ┌Blue┐ charges Red Front (50)
/// ```
///
/// The reader lets Blue's lancers ride on into Red Rear, which they never charged, and beat it.
/// The engine: a charge card names its enemy, and a unit closes only with the enemy it charged;
/// Red Front marched out of its way (from where Blue began, too far aside to be reached within
/// 45°), so Blue halts where it reached Red Front's old place, ORDERED, with no close assault.
/// The text's charge is "to close" with "the unit facing it" — the one it set out against; an
/// umpire would not turn an order against one battalion into an attack on another.
#[test]
fn ea2_07_a_charge_whose_target_marches_away_does_not_fall_on_another_unit() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Lancers", kind = "cavalry", at = [90, 40], formation = "cavalry_column" }"#),
        &reds(
            r#"{ name = "Red Front", kind = "infantry", at = [100, 61], facing = 90, formation = "assault_column" }, { name = "Red Rear", kind = "infantry", at = [90, 75] }"#,
        ),
        "",
    );
    let c = charge(&b, "Red Front");
    let events = play(&mut b, &[("Blue Lancers", c)], &[("Red Front", Order::Advance), ("Red Rear", Order::Halt)]);
    assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
    assert!(near(at(&b, "Red Front").x, 125.0), "Red Front made its 25 cm east");
    assert!(gap(&b, "Blue Lancers", "Red Rear") >= 5.0 - 1e-6, "{:#?}", words(&events));
    for name in ["Blue Lancers", "Red Front", "Red Rear"] {
        assert!(ordered(&b, name), "{name}");
        assert_eq!(x(&b, name).status[0], Steady, "{name}");
    }
}

/// EA2-08. Disagree, kept (interpretations 10a, 34).
///
/// ```text
///  y 62      ┌────── Red Line ──────┐   Determined, retires 20
///  y 44 ┌──── Blue X ────┐              Nervous 3/3, charges (gap 16)
///  y 38                   ┌──── Blue Y ────┐   Determined 5/5, charges (gap 22)
/// ```
///
/// The reader stops Red where X catches it (y 76), so that Y arrives too and Y's 5 wins the tie.
/// The engine makes Red's 20 cm whole (front at 80): X reaches it (16 + 20 ≤ 40), Y does not
/// (42 > 40) — the reader's "targets first": X alone, step one 3 + 2 = 5 against 5, step two
/// 3 against 5: Red wins; X 3 -> 1/1 withdraws 25; Red 5 -> 4 may pursue; Y stands short, ORDERED.
#[test]
fn ea2_08_two_chargers_at_a_retiring_line_the_slower_to_reach_arrives_alone() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue X", kind = "cavalry", at = [80, 44], status = "nervous" }, { name = "Blue Y", kind = "cavalry", at = [113, 38], status = "determined" }"#,
        ),
        &reds(r#"{ name = "Red Line", kind = "infantry", at = [90, 60], status = "determined" }"#),
        "",
    );
    let c = charge(&b, "Red Line");
    let events = play(&mut b, &[("Blue X", c), ("Blue Y", c)], &[("Red Line", Order::Withdraw)]);
    assert_eq!(assaults(&events), vec![(vec!["Blue X".to_string()], "Red Line".to_string())], "{:#?}", words(&events));
    assert!(near(at(&b, "Red Line").y, 80.0));
    assert_eq!(labels(&b, "Blue X"), [Frightened; 2]);
    assert_eq!(x(&b, "Red Line").status[0], Steady);
    assert_eq!(x(&b, "Red Line").pending, Pending::MayPursue { target: unit(&b, "Blue X") as u16 });
    assert!(ordered(&b, "Blue Y") && gap(&b, "Blue Y", "Red Line") > CONTACT);
}

// ---------------------------------------------------------------------------------------------
// 2. Withdrawals and runs that cannot be completed (E7–E10).
// ---------------------------------------------------------------------------------------------

/// Red's two spares out of the way of the north edge.
const RED_MID: &str = r#"{ name = "Red reserve", kind = "infantry", at = [20, 60] }, { name = "Red guard", kind = "infantry", at = [160, 60] }"#;

/// EA2-09. Agree, (a), (b) and (c).
///
/// ```text
///  y 120 ═══════════════ the north edge ═══════════════
///  y 110 ┌──── Red Foot ────┐  (a) front at 108; (b) at 109
///  y 108 └──────────────────┘
///  y  95       ┌Blue┐          column, charges (gap 13 / 14)
/// ```
///
/// (a) T1 Blue wins the tie; T2 Red withdraws 10 to the edge (its rear on it: still on the
/// table), Blue pursues and wins again; T3 its 10 cm would take it over the edge: it leaves the
/// battle (interpretation 35), and Blue, with nobody to pursue, stands and re-orders. (b) A 1 cm
/// overshoot in T2 takes it off at once. (c) The same at the west edge.
#[test]
fn ea2_09_a_withdrawal_over_the_table_edge_leaves_the_battle() {
    for (front, off_in) in [(108, 3), (109, 2)] {
        let mut b = battle(
            &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 95], formation = "assault_column" }"#),
            &format!(r#"{{ name = "Red Foot", kind = "infantry", at = [90, {front}] }}, {RED_MID}"#),
            "",
        );
        let c = charge(&b, "Red Foot");
        play(&mut b, &[("Blue Column", c)], &[("Red Foot", Order::Halt)]);
        assert_eq!(x(&b, "Red Foot").status[0], Nervous);
        let events = play(&mut b, &[], &[]);
        if off_in == 2 {
            assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
            assert!(told_of(&told(&events), "Blue Column has nobody left to pursue"));
            assert!(ordered(&b, "Blue Column"), "it stood the turn: ORDERED");
            continue;
        }
        assert!(x(&b, "Red Foot").here() && near(at(&b, "Red Foot").y, 118.0), "{:#?}", words(&events));
        assert_eq!(x(&b, "Red Foot").status[0], Wavering, "beaten again at the edge: {:#?}", words(&events));
        let events = play(&mut b, &[], &[]);
        assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
        let rule = facts(&events).into_iter().find_map(|f| match f {
            Fact::Withdrawal { rule, .. } => Some(*rule),
            _ => None,
        });
        assert_eq!(rule, Some(Blocked::OffTheField));
        assert!(ordered(&b, "Blue Column"), "nobody to pursue: it stands and re-orders");
    }
    // (c) The west edge: Red faces east, its back 4 cm from the edge.
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Column", kind = "infantry", at = [20, 58], facing = 270, formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red Foot", kind = "infantry", at = [6, 58], facing = 90 }"#),
        "",
    );
    let c = charge(&b, "Red Foot");
    play(&mut b, &[("Blue Column", c)], &[("Red Foot", Order::Halt)]);
    let events = play(&mut b, &[], &[]);
    assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
}

/// EA2-10. T2 agree (fixed); T3 disagree, kept (interpretation 35); the variant disagree, kept
/// (interpretation 15 — the reader's own E7).
///
/// ```text
///  y 80 ┌──── Red Second Line ────┐  halt
///  y 78 └─────────────────────────┘
///  y 72 ┌──── Red Front Line ─────┐  halt (holds its fire)
///  y 70 └─────────────────────────┘
///  y 55          ┌Blue┐  column, charges (gap 15)
/// ```
///
/// T1 Blue wins (4 against 4). T2: Red Front Line withdraws 6 cm, to its friend, and stands
/// (cut short, clear of the enemy). Blue pursues its 6 cm and reaches it: step one 4 - 1
/// against 3 - 1, step two 4 against 3; Red Front Line 3 -> 2. Before, Blue stopped 3 cm short:
/// the friend behind the loser held it off at 5 cm as an enemy it was not closing with, and the
/// two stood 3 cm apart for good. An enemy farther off than the one a unit closes with is
/// reached only through it: it no longer holds the charger off, though the charger may not touch
/// it. T3: the reader leaves Red Front Line where it stands, to be assaulted again; the engine:
/// it cannot give an inch and still touches its winner, so it is caught and runs (interpretation
/// 35: the table's loss supposes a loser that gets away).
#[test]
fn ea2_10_a_withdrawal_into_a_friend_stops_there_and_the_pursuit_reaches_it() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(
            r#"{ name = "Red Front Line", kind = "infantry", at = [90, 70] }, { name = "Red Second Line", kind = "infantry", at = [90, 78] }"#,
        ),
        "",
    );
    let c = charge(&b, "Red Front Line");
    let halt = [("Red Front Line", Order::Halt), ("Red Second Line", Order::Halt)];
    play(&mut b, &[("Blue Column", c)], &halt);
    assert_eq!(x(&b, "Red Front Line").status[0], Nervous);
    let events = play(&mut b, &[], &[("Red Second Line", Order::Halt)]);
    assert!(near(at(&b, "Red Front Line").y, 76.0), "6 of its 10 cm: {:#?}", words(&events));
    assert_eq!(
        assaults(&events),
        vec![(vec!["Blue Column".to_string()], "Red Front Line".to_string())],
        "{:#?}",
        words(&events)
    );
    assert_eq!(x(&b, "Red Front Line").status[0], Wavering);
    assert!(ordered(&b, "Red Second Line") && x(&b, "Red Second Line").status[0] == Steady);
    assert!(gap(&b, "Blue Column", "Red Second Line") > CONTACT, "never touching the second line");
    // T3: no way back at all, and still touching its winner: caught, it runs.
    let events = play(&mut b, &[], &[("Red Second Line", Order::Halt)]);
    let rule = facts(&events).into_iter().find_map(|f| match f {
        Fact::Withdrawal { rule, .. } => Some(*rule),
        _ => None,
    });
    assert_eq!(rule, Some(Blocked::Caught), "{:#?}", words(&events));
    let front = x(&b, "Red Front Line");
    assert!(!front.here() || front.running(), "{:#?}", words(&events));
}

/// EA2-10, the variant: the second line starts 15 cm behind and advances in T2. Red Front Line
/// withdraws its whole 10 cm first (result moves come first, E2: agreed); Blue pursues into
/// contact; Red Second Line then advances only until it is 5 cm from Blue Column, beyond its
/// friend (2 cm, its front at 85) — not the 5 cm to its friend the reader gives: his own E7 stops
/// any move but a close assault 5 cm short of an enemy.
#[test]
fn ea2_10_variant_a_friend_moving_up_behind_stops_five_cm_from_the_enemy() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(
            r#"{ name = "Red Front Line", kind = "infantry", at = [90, 70] }, { name = "Red Second Line", kind = "infantry", at = [90, 87] }"#,
        ),
        "",
    );
    let c = charge(&b, "Red Front Line");
    play(&mut b, &[("Blue Column", c)], &[("Red Front Line", Order::Halt), ("Red Second Line", Order::Halt)]);
    let events = play(&mut b, &[], &[("Red Second Line", Order::Advance)]);
    assert!(near(at(&b, "Red Front Line").y, 80.0), "its whole 10 cm: {:#?}", words(&events));
    assert!(near(at(&b, "Red Second Line").y, 85.0), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Column", "Red Second Line"), 5.0));
}

/// EA2-11. T1, T2 and the variant agree; T3 disagree on the way, kept (interpretation 35).
///
/// ```text
///  y 82 ┌──── Blue Rear (faces S) ────┐  halt, has fired before
///  y 80 └─────────────────────────────┘
///  y 72 ┌──────── Red Foot ───────────┐
///  y 70 └─────────────────────────────┘
///  y 50   ┌──── Blue Horse ───────┐  charges (gap 20)
/// ```
///
/// T2: Red's 10 cm withdrawal north stops 5 cm from Blue Rear (3 cm); Blue Horse follows and
/// wins again (5 against 2; 4 against 3): Red 3 -> 2. T3: Red can go no nearer Blue Rear; the
/// reader has it assaulted in place, brought to 0 and cut down; the engine: it cannot give ground
/// and still touches its winner, so it is caught and runs, and the pursuing horse ride it down —
/// gone either way. The variant (Red Nervous, Wavering after T1) still withdraws its 3 cm: the
/// result supersedes "will not move closer".
#[test]
fn ea2_11_a_withdrawal_towards_an_enemy_behind_stops_five_cm_from_it() {
    for start in ["steady", "nervous"] {
        let mut b = battle(
            &blues(
                r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 50] }, { name = "Blue Rear", kind = "infantry", at = [90, 80], facing = 180 }"#,
            ),
            &reds(&format!(r#"{{ name = "Red Foot", kind = "infantry", at = [90, 70], status = "{start}" }}"#)),
            "",
        );
        let k = unit(&b, "Blue Rear");
        b.units[k].fired_ever = true;
        let c = charge(&b, "Red Foot");
        play(&mut b, &[("Blue Horse", c), ("Blue Rear", Order::Halt)], &[("Red Foot", Order::Halt)]);
        let after_t1 = if start == "steady" { Nervous } else { Wavering };
        assert_eq!(x(&b, "Red Foot").status[0], after_t1);
        let events = play(&mut b, &[("Blue Rear", Order::Halt)], &[]);
        assert!(near(at(&b, "Red Foot").y, 73.0), "3 cm, 5 from Blue Rear: {:#?}", words(&events));
        assert!(near(gap(&b, "Red Foot", "Blue Rear"), 5.0));
        assert_eq!(assaults(&events), vec![(vec!["Blue Horse".to_string()], "Red Foot".to_string())]);
        if start == "nervous" {
            continue;
        }
        assert_eq!(x(&b, "Red Foot").status[0], Wavering);
        let events = play(&mut b, &[("Blue Rear", Order::Halt)], &[]);
        assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
        assert!(matches!(x(&b, "Blue Horse").presence, Presence::Away { .. }), "ridden down: {:#?}", words(&events));
    }
}

/// A Blue line of Determined horse beats Red's chasseurs in column 30 cm off (turn 1).
fn chasseurs_beaten(red_status: &str) -> Battle {
    let mut b = battle(
        &blues(r#"{ name = "Blue Dragoons", kind = "cavalry", at = [90, 30], status = "determined" }"#),
        &reds(&format!(
            r#"{{ name = "Red Chasseurs", kind = "cavalry", at = [90, 60], formation = "cavalry_column", status = "{red_status}" }}"#
        )),
        "",
    );
    let c = charge(&b, "Red Chasseurs");
    play(&mut b, &[("Blue Dragoons", c)], &[("Red Chasseurs", Order::Halt)]);
    b
}

/// EA2-12. T1 agree; (b) and (a) disagree, kept (interpretation 18); (c) agree.
///
/// ```text
///  y 88 ┌R2┐   second line, Steady
///  y 84 └──┘
///        20 cm
///  y 64 ┌R1┐   first line, Steady        (one body, 16 × 28)
///  y 60 └──┘
///  y 30 ┌──── Blue Dragoons ────┐  line, Determined 5/5, charges (gap 30)
/// ```
///
/// T1: 5 against 4; 5 + 1 (line against column) against 4: R1 4 -> 2, withdraw 25; Blue 5 ->
/// 4/4, pursue; R2 4, ORDERED. The reader has R1 alone fall back until it meets R2 (20 cm). The
/// engine moves the regiment as one body — its sub-groups "always operate together" — so the
/// column withdraws its 25 cm, and Blue's pursuit beats it again: R1 2 -> 0 and the regiment,
/// running, is pursued off the table, R2 with it. (a) Combining first (both 3), the pursuit's
/// fight takes R1 3 -> 1 and leaves R2 at 3 (the reader: both to 1): in column only the first line
/// fights, unless the second follows up or joins a drawn fight. (c) A 5–6 loser's 10 cm does not
/// reach R2, and the lines may still combine (the engine ties the call to no distance).
#[test]
fn ea2_12_a_cavalry_column_withdraws_as_one_body() {
    let mut b = chasseurs_beaten("steady");
    assert_eq!(labels(&b, "Red Chasseurs"), [Wavering, Steady]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Steady; 2]);
    assert_eq!(x(&b, "Red Chasseurs").disordered, [true, false]);
    // (b) No combining.
    let events = play(&mut b, &[], &[]);
    assert!(near(at(&b, "Red Chasseurs").y, 85.0), "the whole column, 25 cm: {:#?}", words(&events));
    assert_eq!(labels(&b, "Red Chasseurs"), [RunningAway, Steady], "{:#?}", words(&events));
    let events = play(&mut b, &[], &[]);
    assert_eq!(x(&b, "Red Chasseurs").presence, Presence::Removed, "{:#?}", words(&events));
    assert!(matches!(x(&b, "Blue Dragoons").presence, Presence::Away { .. }));
    // (a) Combining.
    let mut b = chasseurs_beaten("steady");
    let r = unit(&b, "Red Chasseurs") as u16;
    let events = play_with(&mut b, &[], &[], &[], &[Action::SecondLine { unit: r }]);
    assert!(told_of(&told(&events), "Red Chasseurs' two lines combine: both are now Nervous"), "{:#?}", words(&events));
    assert_eq!(labels(&b, "Red Chasseurs"), [Frightened, Nervous], "{:#?}", words(&events));
    // (c) A 5-6 loser withdraws 10 and may still combine with a second line 20 cm behind.
    let b = chasseurs_beaten("determined");
    assert_eq!(x(&b, "Red Chasseurs").pending, Pending::Withdraw { cm: 10, from: unit(&b, "Blue Dragoons") as u16 });
    assert_eq!(b.second_line_option(unit(&b, "Red Chasseurs")), Some(Fought::Lost));
}

/// A Frightened Red line that has fired before, 4 cm short of `ground` behind it, broken by a
/// Blue column's charge in turn 1.
fn runner_before(ground: &str, square: bool) -> Battle {
    let sq = if square {
        r#", { name = "Red Square", kind = "infantry", at = [90, 86], formation = "square" }"#
    } else {
        ""
    };
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 65], formation = "assault_column" }"#),
        &format!(r#"{{ name = "Red Foot", kind = "infantry", at = [90, 80], status = "frightened" }}{sq}, {RED_MID}"#),
        ground,
    );
    let k = unit(&b, "Red Foot");
    b.units[k].fired_ever = true;
    let c = charge(&b, "Red Foot");
    let events = play(&mut b, &[("Blue Column", c)], &[("Red Foot", Order::Halt)]);
    assert_eq!(x(&b, "Red Foot").status[0], RunningAway, "{:#?}", words(&events));
    b
}

/// EA2-13. Disagree, kept (interpretations 31 and 32).
///
/// ```text
///  y 92 ≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈ the brook ≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈
///  y 86 ≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈≈
///  y 82 ┌──────── Red Foot ───────────┐  Frightened, 4 cm from the brook
///  y 80 └─────────────────────────────┘
///  y 65          ┌Blue┐  column, charges (gap 15)
/// ```
///
/// T1: Red's volley in its own defence has no effect; 4 against 1: Red 1 -> 0. The reader stops
/// its run at the bank, where the pursuit catches it and cuts it down (E8, E10). The engine's
/// runners go round what stands in their way (interpretation 31: the text has no rule for a run
/// that meets a river or a friend, and an umpire lets fugitives stream along the bank rather than
/// freeze them at 0 for the rest of the battle), so Red runs along the brook, out of the column's
/// reach; and a runner beaten again by foot runs on (32) — only horse ride fugitives down, and the
/// table's edge ends them. (b) The same round a friendly square, which is not disordered by them.
#[test]
fn ea2_13_a_run_that_meets_a_brook_or_a_friend_goes_round_it() {
    let brook = "[[terrain]]\nkind = \"river\"\nname = \"the brook\"\nrect = [0, 86, 180, 92]\n";
    let mut b = runner_before(brook, false);
    let events = play(&mut b, &[], &[]);
    let run = facts(&events).into_iter().find_map(|f| match f {
        Fact::Run { done, .. } => Some(*done),
        _ => None,
    });
    assert!(run.is_some_and(|d| d > 20.0), "it ran, round the brook: {:#?}", words(&events));
    assert!(x(&b, "Red Foot").here() && x(&b, "Red Foot").running());
    assert!(x(&b, "Red Foot").corners().iter().all(|p| p.y < 86.0 + 1e-9), "not into the brook");
    assert!(gap(&b, "Blue Column", "Red Foot") > CONTACT && assaults(&events).is_empty());
    // (b) A friendly square 4 cm behind instead.
    let mut b = runner_before("", true);
    let events = play(&mut b, &[], &[]);
    assert!(x(&b, "Red Foot").here() && x(&b, "Red Foot").running(), "{:#?}", words(&events));
    assert!(gap(&b, "Blue Column", "Red Foot") > CONTACT && assaults(&events).is_empty());
    assert!(ordered(&b, "Red Square") && x(&b, "Red Square").status[0] == Steady, "fugitives disorder no friend");
}

// ---------------------------------------------------------------------------------------------
// 3. Pursuit (E11, E12).
// ---------------------------------------------------------------------------------------------

/// Blue's Determined line beats Red's Wavering line 12 cm off (turn 1).
fn wavering_line_beaten() -> Battle {
    let mut b = battle(
        &blues(r#"{ name = "Blue Line", kind = "infantry", at = [90, 40], status = "determined" }"#),
        &reds(r#"{ name = "Red Line", kind = "infantry", at = [90, 52], status = "wavering" }"#),
        "",
    );
    let k = unit(&b, "Red Line");
    b.units[k].fired_ever = true;
    let c = charge(&b, "Red Line");
    let events = play(&mut b, &[("Blue Line", c)], &[("Red Line", Order::Halt)]);
    assert!(told_of(&told(&events), "Red Line's volley at Blue Line has no effect"), "{:#?}", words(&events));
    assert_eq!((x(&b, "Blue Line").status[0], x(&b, "Red Line").status[0]), (Steady, Frightened));
    b
}

/// EA2-14. Not pursuing, disagree, kept (interpretation 19); pursuing, agree.
///
/// T1: Red, Wavering, fires in its own defence at 10 cm without effect; 5 against 2: Blue wins,
/// 5 -> 4 and may pursue; Red 2 -> 1 withdraws 15. The reader lets Blue, choosing not to pursue,
/// fire in T2 at 0 cm (1 -> 0: Red runs instead). The engine: the results "supersede any orders"
/// for the following turn — the 5–6 winner's one choice is whether it pursues; not pursuing, it
/// stands (no fire, no other card), and Red withdraws its 15 at 1 (the reader's "a winner's result
/// uses up its turn"). Pursuing: Red withdraws 15, Blue follows 15 into contact, 4 - 1 against
/// 1 - 1 (DISORDERED) - 1 (Red fired its muskets last turn, in its own defence: the reader left
/// this out; it changes nothing), 4 against 1: Red 1 -> 0 runs; Blue, now 3–4, must pursue.
#[test]
fn ea2_14_an_infantry_winner_of_five_or_six_chooses_to_pursue_or_stand_and_nothing_else() {
    let mut b = wavering_line_beaten();
    let u = unit(&b, "Blue Line") as u16;
    assert!(b.check_order(0, u, Order::Fire).is_err(), "no fire instead of the result");
    assert!(b.check_order(0, u, Order::Halt).is_ok());
    let events = play(&mut b, &[("Blue Line", Order::Halt)], &[]);
    assert!(!facts(&events).iter().any(|f| matches!(f, Fact::Fire { .. })), "{:#?}", words(&events));
    assert!(near(at(&b, "Red Line").y, 67.0) && x(&b, "Red Line").status[0] == Frightened, "{:#?}", words(&events));
    assert!(ordered(&b, "Blue Line"), "it stood still, not firing");
    // Pursuing.
    let mut b = wavering_line_beaten();
    let c = charge(&b, "Red Line");
    let events = play(&mut b, &[("Blue Line", c)], &[]);
    let fight = facts(&events).into_iter().find_map(|f| match f {
        Fact::Assault { attackers, .. } => Some(attackers[0].step_one.clone()),
        _ => None,
    });
    let [blue, red] = fight.unwrap_or_else(|| panic!("{:#?}", words(&events)));
    assert_eq!((blue.total, red.total), (3, -1), "{:#?}", words(&events));
    assert_eq!(x(&b, "Red Line").status[0], RunningAway);
    assert_eq!(x(&b, "Blue Line").pending, Pending::Pursue { target: unit(&b, "Red Line") as u16 });
}

/// EA2-15. T1 disagree, kept (interpretation 17, and the register's "not implemented"); the
/// pursuit, agree (fixed), in the closest position.
///
/// ```text
///  y 74        ┌──── Red Horse ────┐  charges Blue Firm; its front meets both
///  y 70        └───────────────────┘
///  y 40 ┌── Blue Shaken ──┐┌── Blue Firm ──┐  Wavering 2 | Determined 5
///      x 54            x 90             x 126
/// ```
///
/// T1 as written cannot be played: the engine makes no close assault on two units at once (the
/// earlier reader's I-8; "not implemented"): Red Horse's charge must have a clear way and halts
/// 5 cm from Blue Shaken, which it would also meet. So the pursuit is set up as the reader's T1
/// leaves it: Blue Shaken (Wavering, DISORDERED) must pursue Red Horse (2/2), which withdraws 25.
/// The results table gives a winner of 1–2 "Pursue enemy": that row is about units that are
/// Wavering or Frightened, so the result comes before the status card's "will not move closer",
/// as it supersedes orders. Before, the pursuer halted after its first half-centimetre. In line
/// (20 cm) it ends 5 cm short; in column (25 cm) it reaches the horse: 2 - 1 against 2 - 1, then
/// 2 against 2 — the attacker's tie: the horse 2 -> 0 and run.
#[test]
fn ea2_15_a_wavering_winner_pursues() {
    // T1: no close assault with two defenders.
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Shaken", kind = "infantry", at = [72, 40], status = "wavering" }, { name = "Blue Firm", kind = "infantry", at = [108, 40], status = "determined" }"#,
        ),
        &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [90, 70] }"#),
        "",
    );
    let c = charge(&b, "Blue Firm");
    let events = play(&mut b, &[("Blue Firm", Order::Halt)], &[("Red Horse", c)]);
    assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
    assert!(near(gap(&b, "Red Horse", "Blue Shaken"), 5.0), "{:#?}", words(&events));
    // The pursuit, from the position T1 leaves in the reading.
    for (formation, reached) in [("line", false), ("assault_column", true)] {
        let mut b = battle(
            &blues(&format!(
                r#"{{ name = "Blue Shaken", kind = "infantry", at = [72, 40], formation = "{formation}", status = "wavering" }}"#
            )),
            &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [72, 40], status = "wavering" }"#),
            "",
        );
        let (s, h) = (unit(&b, "Blue Shaken"), unit(&b, "Red Horse"));
        assert!(b.gap(s, h) <= CONTACT);
        b.units[s].pending = Pending::Pursue { target: h as u16 };
        b.units[h].pending = Pending::Withdraw { cm: 25, from: s as u16 };
        b.units[s].disordered = [true; 2];
        b.units[h].disordered = [true; 2];
        let events = play(&mut b, &[], &[]);
        assert!(near(at(&b, "Red Horse").y, 65.0), "{formation}: {:#?}", words(&events));
        if reached {
            assert_eq!(assaults(&events), vec![(vec!["Blue Shaken".to_string()], "Red Horse".to_string())]);
            assert_eq!(labels(&b, "Red Horse"), [RunningAway; 2], "{:#?}", words(&events));
            assert_eq!(x(&b, "Blue Shaken").status[0], Wavering);
        } else {
            assert!(near(gap(&b, "Blue Shaken", "Red Horse"), 5.0), "{formation}: {:#?}", words(&events));
            assert!(near(at(&b, "Blue Shaken").y, 60.0), "20 cm");
        }
    }
}

/// EA2-16. T1 agree; T2 disagree, kept (interpretation 39): the pursuit falls 1 cm short.
///
/// ```text
///                                 Red Hussars (faces W), front x = 130, y 32–64
///  y 50 ┌──── Blue Horse ────┐◄── Nervous 3/3, the Red commander with it, charges (gap 24)
///  y 46 └────────────────────┘    Determined 5/5, faces N
///      x 74               x 106
/// ```
///
/// T1: 3 + 1 (flank) + 1 (senior officer) = 5 against 5, Red closes; 3 + 1 against 5: Blue wins,
/// 5 -> 4/4, must pursue; Red 3 -> 1/1, withdraws 25 east (front at 131). T2: Blue turns to face
/// Red at no cost and rides 40 cm. The reader measures 25 cm from Blue's east end; the engine
/// turns a charger or pursuer on the middle of its front (as a charge's small turn is made), so
/// its front's centre, at x 90, has 41 cm to go: it ends 1 cm short, with no fight. A unit
/// turning to face its flank does not arrive where its end stood; the text is silent on the
/// pivot, and one pivot for every turn to close keeps a pursuit and a charge alike.
#[test]
fn ea2_16_a_defender_that_wins_against_a_flank_attack_pursues_turning_to_face_the_loser() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 50], status = "determined" }"#),
        &reds(r#"{ name = "Red Hussars", kind = "cavalry", at = [130, 48], facing = 270, status = "nervous" }"#),
        "",
    );
    b.officers[1].with = Some(unit(&b, "Red Hussars") as u16);
    let c = charge(&b, "Blue Horse");
    let events = play(&mut b, &[("Blue Horse", Order::Halt)], &[("Red Hussars", c)]);
    assert_eq!(directions(&events), vec![Direction::Flank], "{:#?}", words(&events));
    assert_eq!((labels(&b, "Blue Horse"), labels(&b, "Red Hussars")), ([Steady; 2], [Frightened; 2]));
    let events = play(&mut b, &[], &[]);
    assert!(near(at(&b, "Red Hussars").x, 131.0), "25 cm east: {:#?}", words(&events));
    assert!(near(x(&b, "Blue Horse").facing, 90.0), "turned to face it: {:#?}", words(&events));
    assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Horse", "Red Hussars"), 1.0), "{:#?}", words(&events));
}

/// EA2-17. Agree, (a) and (b).
///
/// T1: Blue's column beats Red's horse (4 against 4, no modifier for foot against horse): Red
/// 4 -> 2/2, withdraws 25. T2: Red's front goes from 60 to 85; the column's 25 cm just reaches it:
/// 3 against 1, 4 against 2: Red 2 -> 0. (b) A line's 20 cm ends 5 short: no fight, and it moved,
/// so it stays DISORDERED.
#[test]
fn ea2_17_a_pursuit_at_exactly_its_reach() {
    for (formation, reached) in [("assault_column", true), ("line", false)] {
        let mut b = battle(
            &blues(&format!(
                r#"{{ name = "Blue Column", kind = "infantry", at = [90, 40], formation = "{formation}" }}"#
            )),
            &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [90, 60] }"#),
            "",
        );
        let c = charge(&b, "Red Horse");
        play(&mut b, &[("Blue Column", c)], &[("Red Horse", Order::Halt)]);
        assert_eq!(labels(&b, "Red Horse"), [Wavering; 2], "{formation}");
        let events = play(&mut b, &[], &[]);
        assert!(near(at(&b, "Red Horse").y, 85.0));
        if reached {
            assert_eq!(labels(&b, "Red Horse"), [RunningAway; 2], "{:#?}", words(&events));
        } else {
            assert!(assaults(&events).is_empty());
            assert!(near(gap(&b, "Blue Column", "Red Horse"), 5.0), "{:#?}", words(&events));
            assert!(!ordered(&b, "Blue Column"));
        }
    }
}

/// EA2-18. T1 agree (fixed); T2 disagree, kept (interpretation 17).
///
/// ```text
///  y 66    ┌RC┐┌─────────── Red Support ──────────┐  halt
///  y 64    │  │└──────────────────────────────────┘
///  y 60    └──┘
///  y 40 ┌──── Blue Horse ────┐  charges Red Column (gap 20)
///      x74  x84 x96 x98   x106                  x134
/// ```
///
/// T1: Blue reaches Red Column at y 60 with Red Support 4 cm off (before, Red Support, farther
/// off than the column Blue closed with, held it off at 5 cm and the charge stopped 1 cm short);
/// 6 against 4, 4 against 4: Blue wins, Red Column 4 -> 3 withdraws 10. T2: Red Column falls back
/// behind Red Support, which is now the nearer: the reader has the pursuit fall on Red Support;
/// the engine's pursuit closes only with its loser and may not come within 5 cm of another enemy
/// nearer than it — already 4 cm off, Blue does not move (the reader's "a pursuit may only
/// assault the loser"). A Red Support volley in T2 (a first volley from an ordered line at
/// horse, two levels: 2/2) would leave the pursuit due all the same (E8, and EA2-15).
#[test]
fn ea2_18_a_pursuit_that_would_meet_another_enemy_first_is_held_off_by_it() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
        &reds(
            r#"{ name = "Red Column", kind = "infantry", at = [90, 60], formation = "assault_column" }, { name = "Red Support", kind = "infantry", at = [116, 64] }"#,
        ),
        "",
    );
    let c = charge(&b, "Red Column");
    let events = play(&mut b, &[("Blue Horse", c)], &[("Red Column", Order::Halt), ("Red Support", Order::Halt)]);
    assert_eq!(
        assaults(&events),
        vec![(vec!["Blue Horse".to_string()], "Red Column".to_string())],
        "{:#?}",
        words(&events)
    );
    assert!(near(gap(&b, "Blue Horse", "Red Support"), 4.0));
    assert_eq!(x(&b, "Red Column").status[0], Nervous);
    let events = play(&mut b, &[], &[("Red Support", Order::Fire)]);
    assert_eq!(labels(&b, "Blue Horse"), [Wavering; 2], "the volley: {:#?}", words(&events));
    assert!(!told_of(&told(&events), "Blue Horse: it will not move closer"), "{:#?}", words(&events));
    assert!(
        facts(&events)
            .iter()
            .any(|f| matches!(f, Fact::Move { unit, what: MoveKind::Pursue, .. } if unit == "Blue Horse")),
        "the pursuit is still due: {:#?}",
        words(&events)
    );
    assert!(assaults(&events).is_empty(), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Horse", "Red Support"), 4.0), "it does not move: {:#?}", words(&events));
}

/// EA2-19. Agree.
///
/// T1: Blue's horse beats Red's line 2 cm from the north edge (6 against 4, 4 against 4): Red
/// 4 -> 3, withdraw 10. T2: its way back crosses the edge: it leaves the battle; Blue, due to
/// pursue, follows it off and is dispersed. Absent in T3, T4 and T5; back in the recovery of T5
/// beside its command group (here at [10, 2]), DISORDERED, at 4/4; it acts from T6.
#[test]
fn ea2_19_cavalry_follow_a_loser_that_withdrew_off_the_table_and_come_back_after_three_turns() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 80] }"#),
        &format!(r#"{{ name = "Red Foot", kind = "infantry", at = [90, 109] }}, {RED_MID}"#),
        "",
    );
    let c = charge(&b, "Red Foot");
    play(&mut b, &[("Blue Horse", c)], &[("Red Foot", Order::Halt)]);
    let events = play(&mut b, &[], &[]);
    assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
    assert_eq!(x(&b, "Blue Horse").presence, Presence::Away { back: 5 }, "{:#?}", words(&events));
    play(&mut b, &[], &[]);
    play(&mut b, &[], &[]);
    assert!(!x(&b, "Blue Horse").here(), "absent in T3 and T4");
    let events = play(&mut b, &[], &[]);
    assert!(x(&b, "Blue Horse").here(), "back in T5's recovery: {:#?}", words(&events));
    assert_eq!(x(&b, "Blue Horse").disordered, [true; 2]);
    assert_eq!(labels(&b, "Blue Horse"), [Steady; 2]);
    assert!(at(&b, "Blue Horse").dist(Point::new(10.0, 2.0)) < 70.0, "beside its command group");
}

/// EA2-20. Agree.
///
/// T1: Red's Frightened line fires in its own defence without effect and is beaten (6 against 1,
/// 4 against 1): 1 -> 0. T2: cavalry pursuing a runner carry it off: Red Foot is gone, Blue's
/// horse dispersed (back in T5's recovery), and the square behind is untouched.
#[test]
fn ea2_20_cavalry_pursuing_a_runner_carry_it_off_past_a_friendly_square() {
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 40] }"#),
        &reds(
            r#"{ name = "Red Foot", kind = "infantry", at = [90, 60], status = "frightened" }, { name = "Red Square", kind = "infantry", at = [90, 82], formation = "square" }"#,
        ),
        "",
    );
    let c = charge(&b, "Red Foot");
    play(&mut b, &[("Blue Horse", c)], &[("Red Foot", Order::Halt)]);
    assert_eq!(x(&b, "Red Foot").status[0], RunningAway);
    let events = play(&mut b, &[], &[]);
    assert_eq!(x(&b, "Red Foot").presence, Presence::Removed, "{:#?}", words(&events));
    assert_eq!(x(&b, "Blue Horse").presence, Presence::Away { back: 5 });
    assert!(ordered(&b, "Red Square") && x(&b, "Red Square").status[0] == Steady && x(&b, "Red Square").here());
}

// ---------------------------------------------------------------------------------------------
// 4. Units in contact (E5, E6).
// ---------------------------------------------------------------------------------------------

/// Two regiments at 4/4 in contact front to front at y 60, both DISORDERED, their fight of the
/// turn before drawn (EA2-05 (a)); turn 2 comes next (Red leading).
fn drawn_regiments() -> Battle {
    let mut b = battle(
        &blues(r#"{ name = "Blue Horse", kind = "cavalry", at = [90, 60] }"#),
        &reds(r#"{ name = "Red Horse", kind = "cavalry", at = [90, 60] }"#),
        "",
    );
    red_leads(&mut b);
    for name in ["Blue Horse", "Red Horse"] {
        let k = unit(&b, name);
        b.units[k].disordered = [true; 2];
        b.units[k].disordered_turn = 1;
        b.units[k].fought = Some((1, Fought::Drawn));
    }
    b
}

/// EA2-21. Agree (iv fixed; iii agrees on the result, the place kept by interpretation 10a).
///
/// (i) Both halt: nothing happens by itself; a whole turn still, both re-order. (ii) Blue
/// charges, Red halts: 4 - 1 against 4 - 1, then 4 against 4: the attacker wins, Red 4 -> 2/2.
/// (iii) Blue charges, Red retires 40: Red (leading this turn) goes its 40, Blue's 40 catches it
/// there; the same result. (iv) Both charge again: drawn again.
#[test]
fn ea2_21_the_turn_after_a_drawn_fight_nothing_happens_by_itself() {
    // (i)
    let mut b = drawn_regiments();
    let events = play(&mut b, &[("Blue Horse", Order::Halt)], &[("Red Horse", Order::Halt)]);
    assert!(assaults(&events).is_empty());
    assert!(ordered(&b, "Blue Horse") && ordered(&b, "Red Horse"), "{:#?}", words(&events));
    // (ii) and (iii)
    for red in [Order::Halt, Order::Withdraw] {
        let mut b = drawn_regiments();
        let c = charge(&b, "Red Horse");
        let events = play(&mut b, &[("Blue Horse", c)], &[("Red Horse", red)]);
        assert_eq!(
            results(&events),
            vec![
                ("Blue Horse".to_string(), NextTurn::Pursue),
                ("Red Horse".to_string(), NextTurn::Withdraw { cm: 25 })
            ],
            "{red:?}: {:#?}",
            words(&events)
        );
        assert_eq!(labels(&b, "Red Horse"), [Wavering; 2]);
    }
    // (iv)
    let mut b = drawn_regiments();
    let (c, d) = (charge(&b, "Red Horse"), charge(&b, "Blue Horse"));
    let events = play(&mut b, &[("Blue Horse", c)], &[("Red Horse", d)]);
    let r = results(&events);
    assert!(r.len() == 2 && r.iter().all(|(_, n)| *n == NextTurn::Drawn), "{:#?}", words(&events));
    assert_eq!((labels(&b, "Blue Horse"), labels(&b, "Red Horse")), ([Steady; 2], [Steady; 2]));
}

/// EA2-22. Agree (fixed).
///
/// ```text
///  y 108 ┌R2┐  Red Chasseurs, column 4/4          charges Blue
///  y  80 └R1┘
///  y  40 ┌B1┐  Blue Lancers, column 4 / 6 (second line Pugnacious)   charges Red
///  y  12 └B2┘
/// ```
///
/// T1: the first lines meet; 4 against 4 each way, 4 against 4 in step two, both attackers: drawn
/// (before: Blue, leading, took the tie). B1 and R1 DISORDERED, the second lines not. T2: Blue's
/// second line joins in: both labels (4 + 6) / 2 = 5, the second line's order (ORDERED); Red
/// halts. 5 against 4 - 1; 5 against 4: Blue wins; R1 4 -> 2, withdraws 25; Blue, 5–6 winner,
/// both labels 5 -> 4 and pursue — both lines fought, having joined (before, the combined second
/// line took no part in the fight and kept its 5).
#[test]
fn ea2_22_a_drawn_cavalry_fight_and_the_second_line_that_joins_in() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Lancers", kind = "cavalry", at = [90, 40], formation = "cavalry_column", second_status = "pugnacious" }"#,
        ),
        &reds(r#"{ name = "Red Chasseurs", kind = "cavalry", at = [90, 80], formation = "cavalry_column" }"#),
        "",
    );
    let (c, d) = (charge(&b, "Red Chasseurs"), charge(&b, "Blue Lancers"));
    let events = play(&mut b, &[("Blue Lancers", c)], &[("Red Chasseurs", d)]);
    let r = results(&events);
    assert!(r.len() == 2 && r.iter().all(|(_, n)| *n == NextTurn::Drawn), "{:#?}", words(&events));
    assert_eq!(x(&b, "Blue Lancers").disordered, [true, false]);
    assert_eq!(x(&b, "Red Chasseurs").disordered, [true, false]);
    assert_eq!(b.second_line_option(unit(&b, "Blue Lancers")), Some(Fought::Drawn));
    let blue = unit(&b, "Blue Lancers") as u16;
    let c = charge(&b, "Red Chasseurs");
    let events = play_with(
        &mut b,
        &[("Blue Lancers", c)],
        &[Action::SecondLine { unit: blue }],
        &[("Red Chasseurs", Order::Halt)],
        &[],
    );
    let step_one = facts(&events).into_iter().find_map(|f| match f {
        Fact::Assault { attackers, .. } => Some(attackers[0].step_one.clone()),
        _ => None,
    });
    let [blue_one, red_one] = step_one.unwrap_or_else(|| panic!("{:#?}", words(&events)));
    assert_eq!((blue_one.total, red_one.total), (5, 3), "{:#?}", words(&events));
    assert_eq!(labels(&b, "Blue Lancers"), [Steady; 2], "both lines fought and dropped one: {:#?}", words(&events));
    assert_eq!(labels(&b, "Red Chasseurs"), [Wavering, Steady], "{:#?}", words(&events));
    assert_eq!(x(&b, "Red Chasseurs").pending, Pending::Withdraw { cm: 25, from: blue });
}

/// EA2-23. (a) Disagree, kept (interpretation 24); (b) agree. Both in the closest position.
///
/// ```text
///  y 45                                    ┌──┐
///  y 40  line would stand x 72..108 ─ ─ ─ ─│RC│ Red Column faces W, (a) its front at x 106
///  y 34        ┌Blue┐ column x 84..96       └──┘
/// ```
///
/// The engine forms a line on the middle of the column's front (x 72–108), not on a flank file,
/// so the reader's Red Column at x 118 leaves it room: it forms. Closest: Red at x 106, where the
/// line would overlap it. (a) The reader refuses the card as it is played; the engine takes it
/// and gives the change up at its end (the unit stays a column, DISORDERED for the two turns):
/// the room is judged when the new formation would stand, as it must be when an enemy walks in
/// during the change, and an enemy standing there when the card is played may yet move off.
/// (b) An enemy arriving during the change (Red from x 128 advancing 25 in T2): given up, still a
/// column, still DISORDERED.
#[test]
fn ea2_23_a_change_of_formation_that_would_touch_an_enemy_is_given_up() {
    let line = Order::Form { formation: Formation::Line };
    // As written: the line forms, 10 cm from Red.
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 40], formation = "assault_column" }"#),
        &reds(
            r#"{ name = "Red Column", kind = "infantry", at = [118, 39], facing = 270, formation = "assault_column" }"#,
        ),
        "",
    );
    play(&mut b, &[("Blue Column", line)], &[]);
    play(&mut b, &[], &[]);
    assert_eq!(x(&b, "Blue Column").formation, Formation::Line);
    for (start, red) in [(106, Order::Halt), (128, Order::Advance)] {
        let mut b = battle(
            &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 40], formation = "assault_column" }"#),
            &reds(&format!(
                r#"{{ name = "Red Column", kind = "infantry", at = [{start}, 39], facing = 270, formation = "assault_column" }}"#
            )),
            "",
        );
        assert!(b.check_order(0, unit(&b, "Blue Column") as u16, line).is_ok(), "the card is taken");
        play(&mut b, &[("Blue Column", line)], &[("Red Column", Order::Halt)]);
        let events = play(&mut b, &[], &[("Red Column", red)]);
        assert!(near(at(&b, "Red Column").x, 103.0) || start == 106, "{:#?}", words(&events));
        assert_eq!(x(&b, "Blue Column").formation, Formation::AssaultColumn, "{start}: {:#?}", words(&events));
        assert!(!ordered(&b, "Blue Column"));
        assert!(told_of(&told(&events), "Blue Column has no room to finish its change and gives it up"));
        assert!(gap(&b, "Blue Column", "Red Column") > CONTACT);
    }
}

/// EA2-24. Disagree, kept (interpretation 24); the about face agrees.
///
/// ```text
///  y 40 ┌────────── Blue Line (faces N) ──────────┐
///  y 38 └──────────────┌RC┐─────────────────────────┘   Red Column faces S, its rear 2 cm
///  y 36                │  │                            behind Blue's rear edge
///  y 30                └──┘
/// ```
///
/// Turning the line to face east would put its front on Red's flank. The reader refuses the card;
/// the engine takes it and gives the turn up at its end (two turns, DISORDERED), as in EA2-23. An
/// about face keeps the footprint: it is made, and Red's rear is then 2 cm in front of Blue; a
/// charge next turn is a rear attack: 4 + 2 - 1 (still DISORDERED) against 4.
#[test]
fn ea2_24_a_turn_that_would_touch_an_enemy_is_given_up_an_about_face_is_not() {
    let setup = || {
        battle(
            &blues(r#"{ name = "Blue Line", kind = "infantry", at = [90, 40] }"#),
            &reds(r#"{ name = "Red Column", kind = "infantry", at = [97, 30], formation = "assault_column" }"#),
            "",
        )
    };
    let mut b = setup();
    let east = Order::Face { facing: 90 };
    play(&mut b, &[("Blue Line", east)], &[("Red Column", Order::Halt)]);
    let events = play(&mut b, &[], &[("Red Column", Order::Halt)]);
    assert!(
        told_of(&told(&events), "Blue Line has no room to finish its change and gives it up"),
        "{:#?}",
        words(&events)
    );
    assert!(near(x(&b, "Blue Line").facing, 0.0) && !ordered(&b, "Blue Line"));
    // The about face.
    let mut b = setup();
    play(&mut b, &[("Blue Line", Order::AboutFace)], &[("Red Column", Order::Halt)]);
    let events = play(&mut b, &[], &[("Red Column", Order::Halt)]);
    assert!(near(x(&b, "Blue Line").facing, 180.0), "{:#?}", words(&events));
    assert!(near(gap(&b, "Blue Line", "Red Column"), 2.0));
    let c = charge(&b, "Red Column");
    let events = play(&mut b, &[("Blue Line", c)], &[("Red Column", Order::Halt)]);
    assert_eq!(directions(&events), vec![Direction::Rear], "{:#?}", words(&events));
    let one = facts(&events).into_iter().find_map(|f| match f {
        Fact::Assault { attackers, .. } => Some(attackers[0].step_one.clone()),
        _ => None,
    });
    assert_eq!(one.map(|[a, d]| (a.total, d.total)), Some((5, 4)), "{:#?}", words(&events));
}

// ---------------------------------------------------------------------------------------------
// 5. Status recovery (E13, E14).
// ---------------------------------------------------------------------------------------------

/// Blue's dragoons in column (`first` / `second`), the commander with them from turn 1, and `red`
/// (Red's units near them); `extra` Blue units.
fn dragoons(first: &str, second: &str, extra: &str, red: &str) -> Battle {
    let mut b = battle(
        &format!(
            r#"{{ name = "Blue Dragoons", kind = "cavalry", at = [60, 50], formation = "cavalry_column", status = "{first}", second_status = "{second}" }}{extra}, {BLUE_FAR}"#
        ),
        &reds(red),
        "",
    );
    b.officers[0].at = Point::new(60.0, 10.0);
    let d = unit(&b, "Blue Dragoons") as u16;
    let mut events = Vec::new();
    let mut chance = Seeded::new(1);
    b.apply(&Action::Ride { unit: Some(d) }, &mut chance, &mut events).unwrap();
    b
}

/// Finish turn 1's orders (the ride already given) with Red's `cards`.
fn finish(b: &mut Battle, red: &[(&str, Order)]) -> Vec<Event> {
    play(b, &[], red)
}

/// EA2-25. Agree, (a) to (e).
///
/// The commander rides to the regiment (T1) and stays (T2): at T2's recovery both labels rise,
/// 2 -> 3 and 4 -> 5 (interpretation 22). (b) Its own second line and a friendly regiment 10 cm
/// off do not bar it: "cavalry" is the enemy's. (c) Enemy horse 28 cm from the second line (31 cm
/// from the first) bar the whole regiment: the 30 cm is measured from its body, both lines. (d) A
/// musket volley without effect in T2 spoils that turn: the rally comes at T4's recovery. (e) A
/// label at 6 stays 6.
#[test]
fn ea2_25_the_commander_rallies_both_lines_of_a_cavalry_regiment() {
    // (a) and (b): a friendly regiment 10 cm to the east (Frightened: no reinforcement).
    let friend = r#", { name = "Blue Hussars", kind = "cavalry", at = [94, 50], status = "frightened" }"#;
    let mut b = dragoons("wavering", "steady", friend, r#"{ name = "Red Far", kind = "infantry", at = [90, 100] }"#);
    finish(&mut b, &[]);
    let events = play(&mut b, &[], &[]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Nervous, Determined], "{:#?}", words(&events));
    // (c) Red lancers: body x 96–100, y 0–32; 28 cm from the second line, 31.3 from the first.
    let lancers = r#"{ name = "Red Lancers", kind = "cavalry", at = [96, 16], facing = 270 }"#;
    let mut b = dragoons("wavering", "steady", "", lancers);
    assert!(near(gap(&b, "Blue Dragoons", "Red Lancers"), 28.0));
    finish(&mut b, &[("Red Lancers", Order::Halt)]);
    let events = play(&mut b, &[], &[("Red Lancers", Order::Halt)]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Wavering, Steady], "{:#?}", words(&events));
    // (d) A Red column that has fired before, 10 cm in front of the first line, fires in T2
    // without effect (a later volley from a column needs a lower status).
    let column = r#"{ name = "Red Column", kind = "infantry", at = [60, 60], formation = "assault_column" }"#;
    let mut b = dragoons("steady", "steady", "", column);
    let k = unit(&b, "Red Column");
    b.units[k].fired_ever = true;
    finish(&mut b, &[("Red Column", Order::Halt)]);
    let events = play(&mut b, &[], &[("Red Column", Order::Fire)]);
    assert!(told_of(&told(&events), "Red Column's volley at Blue Dragoons has no effect"), "{:#?}", words(&events));
    play(&mut b, &[], &[("Red Column", Order::Halt)]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Steady; 2], "T3: one clean turn");
    let events = play(&mut b, &[], &[("Red Column", Order::Halt)]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Determined; 2], "T4: {:#?}", words(&events));
    // (e) The cap.
    let mut b = dragoons("nervous", "pugnacious", "", r#"{ name = "Red Far", kind = "infantry", at = [90, 100] }"#);
    finish(&mut b, &[]);
    play(&mut b, &[], &[]);
    assert_eq!(labels(&b, "Blue Dragoons"), [Steady, Pugnacious]);
}

/// A Blue line, DISORDERED from an earlier turn, Steady; `red` near it.
fn disordered_line(status: &str, red: &str) -> Battle {
    let mut b = battle(
        &blues(&format!(r#"{{ name = "Blue Line", kind = "infantry", at = [90, 40], status = "{status}" }}"#)),
        &reds(red),
        "",
    );
    let k = unit(&b, "Blue Line");
    b.units[k].disordered = [true; 2];
    b.units[k].fired_ever = true;
    b
}

/// EA2-26. Agree, (a) to (f).
///
/// A Blue line DISORDERED from an earlier turn, halting and holding its fire: (a) roundshot from a
/// Steady battery 50 cm off drops it 4 -> 3 and disorders it again: not ORDERED this turn.
/// (b) A Nervous battery's roundshot has no effect: ORDERED. (c) A Red column's later volley at
/// 10 cm without effect: ORDERED (musket fire bars rallying, not re-ordering). (d) Both Nervous:
/// Red's volley has no effect, but Blue is bound to fire back: it fired, it stays DISORDERED.
/// (e) An ORDERED line fired at without effect stays ORDERED; with effect it is DISORDERED.
/// (f) A Red column (4, DISORDERED, fired last turn) charges from 20 cm: 4 - 1 - 1 against
/// 4 - 1, it fails; Blue, the defender of a failed attack, is not disordered by it: holding its
/// fire it re-orders; firing in its own defence it does not.
#[test]
fn ea2_26_reordering_when_fired_at_while_standing() {
    let battery =
        |status: &str| format!(r#"{{ name = "Red Battery", kind = "artillery", at = [90, 90], status = "{status}" }}"#);
    // (a) and (b)
    for (status, effect) in [("steady", true), ("nervous", false)] {
        let mut b = disordered_line("steady", &battery(status));
        let events = play(&mut b, &[("Blue Line", Order::Halt)], &[("Red Battery", Order::Fire)]);
        assert_eq!(x(&b, "Blue Line").status[0] == Nervous, effect, "{:#?}", words(&events));
        assert_eq!(ordered(&b, "Blue Line"), !effect, "{status}: {:#?}", words(&events));
    }
    // (c) and (d)
    let column = |status: &str| {
        format!(
            r#"{{ name = "Red Column", kind = "infantry", at = [90, 50], formation = "assault_column", status = "{status}" }}"#
        )
    };
    for (status, reorders) in [("steady", true), ("nervous", false)] {
        let mut b = disordered_line(status, &column(status));
        let k = unit(&b, "Red Column");
        b.units[k].fired_ever = true;
        let events = play(&mut b, &[("Blue Line", Order::Halt)], &[("Red Column", Order::Fire)]);
        assert!(told_of(&told(&events), "Red Column's volley at Blue Line has no effect"), "{:#?}", words(&events));
        assert_eq!(x(&b, "Blue Line").fired_turn == 1, !reorders, "{status}: {:#?}", words(&events));
        assert_eq!(ordered(&b, "Blue Line"), reorders, "{status}: {:#?}", words(&events));
    }
    // (e)
    for (status, effect) in [("steady", true), ("nervous", false)] {
        let mut b =
            battle(&blues(r#"{ name = "Blue Line", kind = "infantry", at = [90, 40] }"#), &reds(&battery(status)), "");
        play(&mut b, &[("Blue Line", Order::Halt)], &[("Red Battery", Order::Fire)]);
        assert_eq!(ordered(&b, "Blue Line"), !effect, "{status}");
    }
    // (f)
    for (card, reorders) in [(Order::Halt, true), (Order::Fire, false)] {
        let mut b = disordered_line(
            "steady",
            r#"{ name = "Red Column", kind = "infantry", at = [90, 60], formation = "assault_column" }"#,
        );
        red_leads(&mut b);
        let k = unit(&b, "Red Column");
        b.units[k].disordered = [true; 2];
        b.units[k].disordered_turn = 1;
        b.units[k].fired_ever = true;
        b.units[k].fired_turn = 1;
        let l = unit(&b, "Blue Line");
        b.units[l].disordered = [true; 2];
        b.units[l].disordered_turn = 1;
        let c = charge(&b, "Blue Line");
        let events = play(&mut b, &[("Blue Line", card)], &[("Red Column", c)]);
        assert!(told_of(&told(&events), "Red Column will not close with Blue Line"), "{card:?}: {:#?}", words(&events));
        assert_eq!(ordered(&b, "Blue Line"), reorders, "{card:?}: {:#?}", words(&events));
    }
}

// ---------------------------------------------------------------------------------------------
// 6. When Game Control keeps the rules hidden (E15).
// ---------------------------------------------------------------------------------------------

/// What a player may read with the rules hidden: no digit, no rule's word.
fn in_words(text: &str) {
    assert!(!text.chars().any(|c| c.is_ascii_digit()), "a number in {text:?}");
    for w in [" cm", "status", "modifier", "step one", "step two", "+", "=", "table", "turns", "°"] {
        assert!(!text.contains(w), "{w:?} in {text:?}");
    }
}

/// The words a side reads when `action` is refused.
fn refused(b: &Battle, side: u8, action: Action) -> String {
    let e = b.validate_by(Actor::Side(side), &action).expect_err("refused");
    in_words(&e.reason);
    e.reason
}

/// EA2-27. (a), (h), (i) and (j) disagree on when the player hears, kept (interpretations 8, 10,
/// 24, 36); (e) agree (fixed: dispersed horse were told they were "not in the battle"); the rest
/// agree.
///
/// The engine refuses a card only for what makes it no order at all (a unit that cannot move, a
/// result due, a unit running, changing formation, dispersed; a target it cannot charge from
/// where it stands), in words. A card the unit's status will not let it carry out (a Wavering
/// unit's charge, a Pugnacious unit's halt), a manoeuvre into ground an enemy holds and a fire
/// card with nobody in reach are taken, and the player is told in words what came of it: the
/// status words are the player's to see, and a fire card also means fire in its own defence if
/// an enemy comes in reach — a volley at nobody is not fired, so the unit has not "fired".
#[test]
fn ea2_27_refusals_and_what_comes_of_a_card_are_in_words() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Shaken", kind = "infantry", at = [40, 40], status = "wavering" }, { name = "Blue Square", kind = "infantry", at = [90, 20], formation = "square" }, { name = "Blue Keen", kind = "infantry", at = [140, 40], status = "pugnacious" }"#,
        ),
        &reds(
            r#"{ name = "Red Near", kind = "infantry", at = [40, 60] }, { name = "Red Far", kind = "infantry", at = [140, 51] }"#,
        ),
        "",
    );
    let id = |b: &Battle, n: &str| unit(b, n) as u16;
    // (b) A square cannot march; re-forming is taken.
    let words = refused(&b, 0, Action::Order { unit: id(&b, "Blue Square"), order: Order::Advance });
    assert!(words.contains("cannot move"), "{words}");
    assert!(b.check_order(0, id(&b, "Blue Square"), Order::Form { formation: Formation::Line }).is_ok());
    // (g) A charge at a unit well off to the side.
    let words = refused(&b, 0, Action::Order { unit: id(&b, "Blue Shaken"), order: charge(&b, "Red Far") });
    assert!(words.contains("cannot"), "{words}");
    // (a) and (j): taken; what came of them told in words. (i) A fire card with no enemy within
    // a volley's reach (the square's nearest is 35 cm off): taken, and it does not fire.
    let c = charge(&b, "Red Near");
    assert!(b.check_order(0, id(&b, "Blue Square"), Order::Fire).is_ok());
    let events = play(&mut b, &[("Blue Shaken", c), ("Blue Keen", Order::Halt), ("Blue Square", Order::Fire)], &[]);
    let t = told(&events);
    assert!(told_of(&t, "Blue Shaken: Wavering: it will not move closer to the enemy"), "{t:#?}");
    assert!(told_of(&t, "Blue Keen: Pugnacious: it must close with the nearest enemy"), "{t:#?}");
    for line in &t {
        in_words(&line.replace("Blue Keen", "").replace("Blue Shaken", ""));
    }
    assert_eq!(x(&b, "Blue Shaken").fired_turn, 0, "it did not fire");
    assert_eq!(x(&b, "Blue Square").fired_turn, 0, "nobody in reach: it has not fired");
    // (c) A result due; (d) running; (f) changing formation; (e) dispersed.
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Loser", kind = "infantry", at = [40, 40] }, { name = "Blue Runner", kind = "infantry", at = [90, 40], status = "running_away" }, { name = "Blue Forming", kind = "infantry", at = [140, 40] }, { name = "Blue Horse", kind = "cavalry", at = [90, 20] }"#,
        ),
        &reds(r#"{ name = "Red Far", kind = "infantry", at = [90, 100] }"#),
        "",
    );
    let (l, f, h) = (unit(&b, "Blue Loser"), unit(&b, "Blue Forming"), unit(&b, "Blue Horse"));
    b.units[l].pending = Pending::Withdraw { cm: 10, from: unit(&b, "Red Far") as u16 };
    b.units[f].change = Some(volley_en_avant::battle::Change {
        what: volley_en_avant::battle::Manoeuvre::Form { formation: Formation::Square },
        left: 1,
    });
    b.units[h].presence = Presence::Away { back: 4 };
    for (name, expect) in [
        ("Blue Loser", "must carry out"),
        ("Blue Runner", "running away"),
        ("Blue Forming", "changing formation"),
        ("Blue Horse", "scattered"),
    ] {
        let words = refused(&b, 0, Action::Order { unit: unit(&b, name) as u16, order: Order::Advance });
        assert!(words.contains(expect), "{name}: {words}");
    }
}

/// EA2-28. Agree.
///
/// (a) A charge whose step one will fail is taken and played: "will not close … halts short,
/// disordered", afterwards, with no figure. (b) A charge at an enemy out of reach: "charges
/// towards". (c) A target that retires out of reach: "draws off out of … reach", after the move.
/// (e) The 5–6 infantry winner's choice: "may pursue", and the cards offered are the pursuit and a
/// halt. No number or rule in anything a player reads.
#[test]
fn ea2_28_orders_whose_outcome_is_hidden_are_played_and_told_afterwards() {
    // (a)
    let mut b = battle(
        &blues(r#"{ name = "Blue Column", kind = "infantry", at = [90, 40], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red Line", kind = "infantry", at = [90, 50], status = "determined" }"#),
        "",
    );
    let c = charge(&b, "Red Line");
    assert!(b.validate_by(Actor::Side(0), &Action::Order { unit: unit(&b, "Blue Column") as u16, order: c }).is_ok());
    let events = play(&mut b, &[("Blue Column", c)], &[("Red Line", Order::Halt)]);
    let t = told(&events);
    assert!(told_of(&t, "Blue Column will not close with Red Line: it halts short, disordered"), "{t:#?}");
    // (b) and (c)
    let mut b = battle(
        &blues(
            r#"{ name = "Blue Column", kind = "infantry", at = [40, 40], formation = "assault_column" }, { name = "Blue Horse", kind = "cavalry", at = [140, 40] }"#,
        ),
        &reds(
            r#"{ name = "Red Far", kind = "infantry", at = [40, 90] }, { name = "Red Foot", kind = "infantry", at = [140, 72] }"#,
        ),
        "",
    );
    let (c, d) = (charge(&b, "Red Far"), charge(&b, "Red Foot"));
    let events = play(&mut b, &[("Blue Column", c), ("Blue Horse", d)], &[("Red Foot", Order::Withdraw)]);
    let t2 = told(&events);
    assert!(told_of(&t2, "Blue Column charges towards Red Far"), "{t2:#?}");
    assert!(told_of(&t2, "Red Foot draws off out of Blue Horse's reach"), "{t2:#?}");
    // (e)
    let b = wavering_line_beaten();
    let mut cards = Vec::new();
    b.cards(unit(&b, "Blue Line"), &mut cards);
    assert_eq!(cards, vec![charge(&b, "Red Line"), Order::Halt]);
    for line in t.iter().chain(&t2) {
        let mut s = line.clone();
        for n in ["Blue Column", "Blue Horse", "Red Line", "Red Far", "Red Foot"] {
            s = s.replace(n, "");
        }
        in_words(&s);
    }
}
