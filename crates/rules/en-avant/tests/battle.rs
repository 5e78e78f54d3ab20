//! The battle played through hand-worked positions: each test sets a small table, gives the
//! orders, plays the turn and checks what the text says must happen.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;

use common::{battle, charge, status, turn, unit, y};
use volley_chance::Seeded;
use volley_core::GameState;
use volley_en_avant::battle::{Action, Pending, Presence};
use volley_en_avant::model::Formation;
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;

const BLUE_LINE: &str = r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#;

#[test]
fn ea_17_fire_in_the_firing_phase_is_simultaneous() {
    let mut b = battle(BLUE_LINE, r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#, "");
    let told = turn(&mut b, &[("Blue line", Order::Fire)], &[("Red line", Order::Fire)]);
    // Each fires its first volley from an ordered line at a loose target: one level each, both
    // from the statuses as the phase began.
    assert_eq!(status(&b, "Blue line"), Status::Nervous, "{told:#?}");
    assert_eq!(status(&b, "Red line"), Status::Nervous);
    assert!(!b.units[unit(&b, "Blue line")].ordered() && !b.units[unit(&b, "Red line")].ordered(), "I-5");
}

#[test]
fn ea_19_a_pugnacious_column_is_stopped_by_a_first_volley_in_defence() {
    let mut b = battle(
        BLUE_LINE,
        r#"{ name = "Red column", kind = "infantry", at = [90, 62], formation = "assault_column", status = "pugnacious" }"#,
        "",
    );
    // Blue holds no fire (its card is to fire, and nothing is in reach in the firing phase);
    // Red's card is to halt, but a Pugnacious unit must close with the nearest enemy.
    let told = turn(&mut b, &[("Blue line", Order::Fire)], &[("Red column", Order::Halt)]);
    // At 10 cm Blue's first volley (two levels at a dense target): 6 -> 4, DISORDERED; step one
    // 4 - 1 = 3 against 4: the attack fails 5 cm short.
    assert_eq!(status(&b, "Red column"), Status::Steady, "{told:#?}");
    let gap = b.gap(unit(&b, "Blue line"), unit(&b, "Red column"));
    assert!((gap - 5.0).abs() < 1e-6, "stops 5 cm short: {gap} {told:#?}");
    assert!(!b.units[unit(&b, "Red column")].ordered());
    assert!(b.units[unit(&b, "Blue line")].ordered(), "the defender of a failed attack stays ORDERED (I-13)");
    assert_eq!(status(&b, "Blue line"), Status::Steady);
}

#[test]
fn ea_21_and_23_a_nervous_unit_stops_and_fires_instead_of_assaulting() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [90, 40], formation = "assault_column", status = "nervous" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 48] }"#,
        "",
    );
    let red = unit(&b, "Red line") as u16;
    let told = turn(&mut b, &[("Blue column", Order::Charge { target: red })], &[("Red line", Order::Halt)]);
    // It fires its first volley, a column's: row B, a low firer at a loose target needs a lower
    // status: no effect. It does not move.
    assert_eq!(y(&b, "Blue column"), 40.0, "{told:#?}");
    assert_eq!(status(&b, "Red line"), Status::Steady);
    assert_eq!(b.units[unit(&b, "Blue column")].fired_turn, 1);
}

#[test]
fn a_nervous_unit_stops_and_fires_on_a_withdrawal_card_too() {
    // "Will always stop and fire if the opportunity presents" (interpretation 8, the audit at
    // scale): a Nervous line 8 cm from the enemy, given a withdrawal card, fires and stays.
    let mut b = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [90, 40], status = "nervous" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 48] }"#,
        "",
    );
    let told = turn(&mut b, &[("Blue line", Order::Withdraw)], &[("Red line", Order::Halt)]);
    assert_eq!(y(&b, "Blue line"), 40.0, "{told:#?}");
    assert_eq!(b.units[unit(&b, "Blue line")].fired_turn, 1, "{told:#?}");
}

#[test]
fn ea_24_a_wavering_line_will_not_advance_but_may_withdraw() {
    let mut b = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [40, 40], status = "wavering" }"#,
        r#"{ name = "Red column", kind = "infantry", at = [40, 70], formation = "assault_column" }"#,
        "",
    );
    turn(&mut b, &[("Blue line", Order::Advance)], &[("Red column", Order::Halt)]);
    assert_eq!(y(&b, "Blue line"), 40.0);
    turn(&mut b, &[("Blue line", Order::Withdraw)], &[("Red column", Order::Halt)]);
    assert!((y(&b, "Blue line") - 20.0).abs() < 1e-6, "straight back its 20 cm, still facing north");
    assert_eq!(b.units[unit(&b, "Blue line")].facing, 0.0);
}

#[test]
fn ea_32_cavalry_against_cavalry_equal_closes_and_the_attacker_wins() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#,
        r#"{ name = "Red horse", kind = "cavalry", at = [90, 70] }"#,
        "",
    );
    let c = charge(&b, "Red horse");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red horse", Order::Halt)]);
    let (bl, rd) = (&b.units[unit(&b, "Blue horse")], &b.units[unit(&b, "Red horse")]);
    assert_eq!(bl.status, [Status::Steady; 2], "{told:#?}");
    assert_eq!(rd.status, [Status::Wavering; 2]);
    assert!(!bl.ordered() && !rd.ordered());
    assert!(matches!(rd.pending, Pending::Withdraw { cm: 25, .. }));
    assert!(matches!(bl.pending, Pending::Pursue { .. }));
    // Next turn Red withdraws 25 cm facing Blue, and Blue pursues.
    let before = y(&b, "Red horse");
    let told = turn(&mut b, &[], &[]);
    assert!(y(&b, "Red horse") >= before + 25.0 - 1e-6 || !b.units[unit(&b, "Red horse")].here(), "{told:#?}");
}

#[test]
fn ea_32b_a_nervous_charge_fails_5_cm_short_disordered() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], status = "nervous" }"#,
        r#"{ name = "Red horse", kind = "cavalry", at = [90, 70] }"#,
        "",
    );
    let c = charge(&b, "Red horse");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red horse", Order::Halt)]);
    let gap = b.gap(unit(&b, "Blue horse"), unit(&b, "Red horse"));
    assert!((gap - 5.0).abs() < 1e-6, "{gap} {told:#?}");
    assert!(!b.units[unit(&b, "Blue horse")].ordered());
    assert!(b.units[unit(&b, "Red horse")].ordered());
    assert_eq!(b.units[unit(&b, "Red horse")].status, [Status::Steady; 2]);
}

#[test]
fn ea_35_horse_will_not_close_with_a_formed_square() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], status = "determined" }"#,
        r#"{ name = "Red square", kind = "infantry", at = [90, 70], formation = "square" }"#,
        "",
    );
    let c = charge(&b, "Red square");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red square", Order::Halt)]);
    // The square holds its fire (a halt card, Steady): step one 5 - 2 = 3 against 4.
    let gap = b.gap(unit(&b, "Blue horse"), unit(&b, "Red square"));
    assert!((gap - 5.0).abs() < 1e-6, "{gap} {told:#?}");
    assert_eq!(status(&b, "Red square"), Status::Steady);
}

#[test]
fn ea_37_a_square_forming_as_horse_charge_from_near_and_far() {
    for (start, closes) in [(18.0, true), (35.0, false)] {
        let red = format!(r#"{{ name = "Red line", kind = "infantry", at = [90, {}] }}"#, 40.0 + start);
        let mut b = battle(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#, &red, "");
        let c = charge(&b, "Red line");
        let told = turn(&mut b, &[("Blue horse", c)], &[("Red line", Order::Form { formation: Formation::Square })]);
        let red = &b.units[unit(&b, "Red line")];
        if closes {
            // 4 + 2 = 6 against 4 - 1 = 3: closes; step two 4 against 4: the horse win.
            assert_eq!(red.status[0], Status::Nervous, "{start}: {told:#?}");
            assert!(matches!(red.pending, Pending::Withdraw { cm: 10, .. }));
        } else {
            // 4 - 2 = 2 against 3: fails.
            assert_eq!(red.status[0], Status::Steady, "{start}: {told:#?}");
            assert_eq!(red.formation, Formation::Square);
        }
    }
}

#[test]
fn ea_38_the_senior_officer_gives_plus_one_in_step_one_only() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [90, 60], formation = "assault_column" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 80], status = "determined" }"#,
        "",
    );
    let mut chance = Seeded::new(1);
    let mut ev = Vec::new();
    // The officer at [10, 2] is too far (more than 60 cm): refused.
    let bc = unit(&b, "Blue column") as u16;
    assert!(b.apply(&Action::Ride { unit: Some(bc) }, &mut chance, &mut ev).is_err());
    b.officers[0].at = volley_table::Point::new(90.0, 10.0);
    b.apply(&Action::Ride { unit: Some(bc) }, &mut chance, &mut ev).unwrap();
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    // Step one 4 + 1 = 5 against 5: closes; step two 4 against 5: Red wins.
    assert_eq!(status(&b, "Blue column"), Status::Nervous, "{told:#?}");
    assert_eq!(status(&b, "Red line"), Status::Steady);
    assert!(matches!(b.units[unit(&b, "Red line")].pending, Pending::MayPursue { .. }));
}

#[test]
fn ea_42_artillery_closed_with_is_destroyed() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], formation = "cavalry_column" }"#,
        r#"{ name = "Red battery", kind = "artillery", at = [90, 85] }"#,
        "",
    );
    let c = charge(&b, "Red battery");
    // The battery fires ball in the firing phase at the column's first line: 4 -> 3 and
    // DISORDERED; step one 3 - 1 = 2 against 4: the charge fails (EA-20, option 1).
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red battery", Order::Fire)]);
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!(horse.status, [Status::Nervous, Status::Steady], "only the first line is hit: {told:#?}");
    assert!(b.units[unit(&b, "Red battery")].here());
    // A battery that holds its fire is ridden over: 4 against 4 closes, the guns always lose.
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], formation = "cavalry_column" }"#,
        r#"{ name = "Red battery", kind = "artillery", at = [90, 85] }"#,
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red battery", Order::Halt)]);
    assert_eq!(b.units[unit(&b, "Red battery")].presence, Presence::Destroyed, "{told:#?}");
}

/// Found by a player of the Python environment (the farm): a column that took a battery was
/// still offered "charge" at the destroyed guns the next turn, and the order was accepted. The
/// winner has nobody to pursue: it is told so, the charge is refused, and it halts.
#[test]
fn ea_42b_a_winner_over_a_destroyed_battery_has_nobody_to_pursue() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [90, 60], formation = "assault_column", status = "determined" }"#,
        r#"{ name = "Red battery", kind = "artillery", at = [90, 80] }, { name = "Red reserve", kind = "infantry", at = [20, 110] }, { name = "Red guard", kind = "infantry", at = [160, 110] }"#,
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red battery", Order::Halt)]);
    let battery = unit(&b, "Red battery");
    assert_eq!(b.units[battery].presence, Presence::Destroyed, "{told:#?}");
    let all = format!("{told:?}");
    assert!(all.contains("Blue column has nobody left to pursue and halts"), "{told:#?}");
    assert!(!all.contains("Blue column may pursue"), "{told:#?}");
    let bc = unit(&b, "Blue column") as u16;
    let e = b.validate(&Action::Order { unit: bc, order: c }).unwrap_err().to_string();
    assert!(e.contains("nobody to pursue"), "{e}");
    let mut cards = Vec::new();
    b.cards(usize::from(bc), &mut cards);
    assert_eq!(cards, vec![Order::Halt], "halting is all that is left");
    let at = y(&b, "Blue column");
    let told = turn(&mut b, &[("Blue column", Order::Halt)], &[]);
    assert_eq!(y(&b, "Blue column"), at, "{told:#?}");
}

/// Running away "facing away from the enemy" (interpretation 31): the loser turns its back on
/// the face the enemy stands off and runs straight from it.
///
/// ```text
///  north ^        Red line (facing south) at [90, 70], frightened: beaten, it runs
///        |        ======
///        |     [##]          Blue column at [80, 50], 10 cm west of Red's middle, charging north
/// ```
/// The winner is off-centre, but in front of the line: the line runs to its rear (north), not
/// slantwise away from the column's middle.
#[test]
fn ea_31_a_loser_beaten_from_the_front_runs_to_its_rear() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [80, 50], formation = "assault_column", status = "determined" }, { name = "Blue reserve", kind = "infantry", at = [20, 20] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "frightened" }, { name = "Red reserve", kind = "infantry", at = [160, 100] }, { name = "Red guard", kind = "infantry", at = [30, 100] }"#,
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    let red = unit(&b, "Red line");
    let before = b.units[red].centre();
    let told = turn(&mut b, &[("Blue column", Order::Halt)], &[]);
    let after = b.units[red].centre();
    assert!(after.y - before.y >= 30.0, "ran north: {before:?} -> {after:?} {told:#?}");
    assert!((after.x - before.x).abs() < 1.0, "straight to its rear: {before:?} -> {after:?}");
    assert!((b.units[red].facing - 0.0).abs() < 1e-6, "its back to the enemy");
}

/// ```text
///  north ^
///        |   Blue column [80, 70] --> facing east      ====== Red line at [100, 70], facing south
/// ```
/// Beaten from its right flank (west, for a line facing south), the line runs east.
#[test]
fn ea_31_a_loser_beaten_on_its_flank_runs_away_from_that_flank() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [70, 70], facing = 90, formation = "assault_column", status = "determined" }, { name = "Blue reserve", kind = "infantry", at = [20, 20] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [100, 70], status = "frightened" }, { name = "Red reserve", kind = "infantry", at = [160, 100] }, { name = "Red guard", kind = "infantry", at = [30, 100] }"#,
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    let red = unit(&b, "Red line");
    let before = b.units[red].centre();
    let told = turn(&mut b, &[("Blue column", Order::Halt)], &[]);
    let after = b.units[red].centre();
    assert!(after.x - before.x >= 20.0, "ran east: {before:?} -> {after:?} {told:#?}");
    assert!((after.y - before.y).abs() < 1.0, "straight from the flank: {before:?} -> {after:?}");
}

#[test]
fn ea_44_the_infantry_winners_choice_to_pursue() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [90, 60], formation = "assault_column", status = "determined" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 80] }"#,
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Blue column"), Status::Steady, "{told:#?}");
    assert_eq!(status(&b, "Red line"), Status::Nervous);
    // It may pursue or halt, nothing else.
    let bc = unit(&b, "Blue column") as u16;
    assert!(b.validate(&Action::Order { unit: bc, order: Order::Advance }).is_err());
    let at = y(&b, "Blue column");
    let told = turn(&mut b, &[("Blue column", Order::Halt)], &[]);
    assert_eq!(y(&b, "Blue column"), at, "{told:#?}");
    assert!(b.units[unit(&b, "Blue column")].ordered(), "still and not firing: ORDERED again (EA-44a)");
}

#[test]
fn ea_45_cavalry_ride_down_a_running_enemy_and_come_back_three_turns_later() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "frightened" }, { name = "Red reserve", kind = "infantry", at = [150, 110] }, { name = "Red guns", kind = "artillery", at = [20, 110] }"#,
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert_eq!(b.units[unit(&b, "Red line")].presence, Presence::Removed, "{told:#?}");
    assert_eq!(b.units[unit(&b, "Blue horse")].presence, Presence::Away { back: 5 });
    for _ in 0..2 {
        turn(&mut b, &[], &[]);
    }
    assert!(!b.units[unit(&b, "Blue horse")].here());
    let told = turn(&mut b, &[], &[]);
    let horse = &b.units[unit(&b, "Blue horse")];
    assert!(horse.here() && !horse.ordered(), "back in turn 5's recovery, disordered: {told:#?}");
    assert!(horse.centre().dist(volley_table::Point::new(10.0, 2.0)) < 80.0);
}

#[test]
fn ea_26_running_away_double_the_first_turn_then_normal() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [90, 100], formation = "assault_column", status = "running_away" }, { name = "B2", kind = "infantry", at = [20, 10] }, { name = "B3", kind = "infantry", at = [160, 10] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 115] }"#,
        "",
    );
    let start = b.units[unit(&b, "Blue column")].centre().y;
    turn(&mut b, &[], &[]);
    let first = start - b.units[unit(&b, "Blue column")].centre().y;
    assert!((first - 50.0).abs() < 1e-6, "{first}");
    turn(&mut b, &[], &[]);
    let second = start - b.units[unit(&b, "Blue column")].centre().y - first;
    assert!((second - 25.0).abs() < 1e-6, "{second}");
}

#[test]
fn ea_27_re_ordering_needs_a_whole_turn_still_after_the_disorder() {
    // Determined, so that the volley leaves it Steady: a Nervous line with the enemy in reach
    // would stop and fire whatever its card (interpretation 8), and never stand still.
    let blue = r#"{ name = "Blue line", kind = "infantry", at = [90, 40], status = "determined" }"#;
    let mut b = battle(blue, r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#, "");
    turn(&mut b, &[("Blue line", Order::Halt)], &[("Red line", Order::Fire)]);
    let bl = unit(&b, "Blue line");
    assert!(!b.units[bl].ordered(), "disordered by fire in turn 1, not re-ordered in turn 1");
    turn(&mut b, &[("Blue line", Order::Withdraw)], &[("Red line", Order::Halt)]);
    assert!(!b.units[bl].ordered(), "it moved in turn 2");
    turn(&mut b, &[("Blue line", Order::Halt)], &[("Red line", Order::Halt)]);
    assert!(b.units[bl].ordered(), "still and not firing in turn 3");
}

#[test]
fn ea_29_a_change_of_formation_takes_its_turns_disordered() {
    let mut b = battle(BLUE_LINE, r#"{ name = "Red line", kind = "infantry", at = [90, 110] }"#, "");
    turn(&mut b, &[("Blue line", Order::Form { formation: Formation::AssaultColumn })], &[]);
    let bl = unit(&b, "Blue line");
    assert_eq!(b.units[bl].formation, Formation::Line, "still a line after turn 1 of 2");
    assert!(!b.units[bl].ordered());
    assert!(b.validate(&Action::Order { unit: bl as u16, order: Order::Advance }).is_err(), "busy");
    turn(&mut b, &[], &[]);
    assert_eq!(b.units[bl].formation, Formation::AssaultColumn);
    turn(&mut b, &[], &[]);
    assert!(b.units[bl].ordered(), "re-ordered in turn 3, standing still");
}

#[test]
fn ea_49_two_turns_of_the_commanders_rallying_raise_a_status() {
    let mut b = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [40, 30], status = "wavering" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [150, 110] }"#,
        "",
    );
    let mut chance = Seeded::new(1);
    let mut ev = Vec::new();
    let bl = unit(&b, "Blue line") as u16;
    b.apply(&Action::Ride { unit: Some(bl) }, &mut chance, &mut ev).unwrap();
    let told = turn(&mut b, &[("Blue line", Order::Withdraw)], &[]);
    assert_eq!(status(&b, "Blue line"), Status::Wavering, "one turn: {told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert_eq!(status(&b, "Blue line"), Status::Nervous, "two turns, moving allowed: {told:#?}");
}

#[test]
fn ea_51_a_higher_status_unit_within_10_cm_two_still_turns() {
    let mut b = battle(
        r#"{ name = "L1", kind = "infantry", at = [60, 40], status = "wavering" }, { name = "L2", kind = "infantry", at = [60, 30], status = "determined" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [150, 110] }"#,
        "",
    );
    turn(&mut b, &[], &[]);
    assert_eq!(status(&b, "L1"), Status::Wavering);
    turn(&mut b, &[], &[]);
    assert_eq!(status(&b, "L1"), Status::Nervous);
}

#[test]
fn ea_47_a_beaten_first_line_combines_with_the_second() {
    let mut b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], status = "determined" }"#,
        r#"{ name = "Red horse", kind = "cavalry", at = [90, 75], formation = "cavalry_column" }"#,
        "",
    );
    let c = charge(&b, "Red horse");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red horse", Order::Halt)]);
    // Step two 5 + 1 (line against column) = 6 against 4: Blue wins; Red's first line 4 -> 2.
    assert_eq!(b.units[unit(&b, "Red horse")].status, [Status::Wavering, Status::Steady], "{told:#?}");
    let mut chance = Seeded::new(1);
    let mut ev = Vec::new();
    b.apply(&Action::Done, &mut chance, &mut ev).unwrap();
    let rh = unit(&b, "Red horse") as u16;
    b.apply(&Action::SecondLine { unit: rh }, &mut chance, &mut ev).unwrap();
    b.apply(&Action::Done, &mut chance, &mut ev).unwrap();
    // (2 + 4) / 2 = 3 on both; the second line's order state.
    let r = &b.units[usize::from(rh)];
    assert!(r.status[0] <= Status::Nervous && r.status[1] <= Status::Nervous, "{:?}", r.status);
}

#[test]
fn a_change_of_facing_is_a_manoeuvre_of_up_to_a_quarter_turn() {
    let mut b = battle(
        r#"{ name = "Blue column", kind = "infantry", at = [40, 40], formation = "assault_column" }, { name = "Blue line", kind = "infantry", at = [120, 20] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [150, 60] }"#,
        "",
    );
    let bc = unit(&b, "Blue column");
    // Far off to the side: no charge (SR-12), and no turn of more than a quarter.
    let c = charge(&b, "Red line");
    assert!(b.validate(&Action::Order { unit: bc as u16, order: c }).is_err());
    assert!(b.validate(&Action::Order { unit: bc as u16, order: Order::Face { facing: 135 } }).is_err());
    let centre = b.units[bc].centre();
    let told =
        turn(&mut b, &[("Blue column", Order::Face { facing: 80 }), ("Blue line", Order::Face { facing: 90 })], &[]);
    // A column turns in one turn, about its centre, disordered; a line takes two.
    let col = &b.units[bc];
    assert_eq!(col.facing, 80.0, "{told:#?}");
    assert!(col.centre().dist(centre) < 1e-6 && !col.ordered());
    let bl = unit(&b, "Blue line");
    assert_eq!(b.units[bl].facing, 0.0, "a line is still turning");
    turn(&mut b, &[], &[]);
    assert_eq!(b.units[bl].facing, 90.0);
    // Now the column faces the Red line's flank end, and may charge it.
    let c = charge(&b, "Red line");
    assert!(b.validate(&Action::Order { unit: bc as u16, order: c }).is_ok());
}

#[test]
fn a_scenario_s_table_is_told_in_centimetres() {
    // Issue 28: the common part of a scenario file names the table's measure, centimetres
    // here, not inches.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../scenarios/en-avant/the-farm.toml");
    let text = std::fs::read_to_string(path).unwrap();
    let bad = text.replacen("width = ", "width = 0 #", 1);
    let e = volley_en_avant::load(&volley_scenario::Source::new("farm.toml", bad)).unwrap_err().to_string();
    assert!(e.contains("width and depth must be positive centimetres"), "{e}");
    assert!(!e.contains("inches"), "{e}");
}

// A fire order with nobody within reach does nothing, and the player is told why in words.
#[test]
fn a_fire_order_with_no_enemy_within_reach_says_why_it_stands() {
    //   Red line at [90, 112]: 104 cm north, beyond any reach (100 cm at most)
    //   Blue line at [90, 8], ordered to fire
    let mut b = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [90, 8] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 112] }"#,
        "",
    );
    let told = turn(&mut b, &[("Blue line", Order::Fire)], &[("Red line", Order::Halt)]);
    assert!(told.iter().any(|t| t.contains("Blue line: no enemy within reach to fire at, so it stands")), "{told:#?}");
    assert_eq!(status(&b, "Red line"), Status::Steady, "nobody was hit");
}

#[test]
fn a_charge_is_offered_only_at_an_enemy_ahead() {
    // Player round 5 (The Farm): "14th Light Dragoons: charge 1/69e Ligne" was offered beside
    // "turn to face north-west", and played, "cannot close with 1/69e Ligne: it is not ahead".
    // A charge is offered (and accepted) only at an enemy ahead when it is ordered; orders are
    // carried out together, and that one had moved off before the dragoons set out.
    //
    //   Red A  (90, 75) ahead, facing south      Red B (62, 42) to its left, facing east
    //   Blue dragoons (90, 40) facing north
    let mut b = battle(
        r#"{ name = "Dragoons", kind = "cavalry", at = [90, 40] }"#,
        r#"{ name = "Red A", kind = "infantry", at = [90, 75] }, { name = "Red B", kind = "infantry", at = [62, 42], facing = 90 }"#,
        "",
    );
    let d = unit(&b, "Dragoons");
    let mut cards = Vec::new();
    b.cards(d, &mut cards);
    assert!(cards.contains(&charge(&b, "Red A")), "the enemy ahead: {cards:?}");
    assert!(!cards.contains(&charge(&b, "Red B")), "not the one to its left: {cards:?}");
    // Turned to face it, the one to its left is ahead: then its charge is offered.
    let left = b.units[unit(&b, "Red B")].at;
    let at = b.units[d].at;
    b.units[d].facing = volley_table::heading_to(at, left);
    cards.clear();
    b.cards(d, &mut cards);
    assert!(cards.contains(&charge(&b, "Red B")), "{cards:?}");
}
