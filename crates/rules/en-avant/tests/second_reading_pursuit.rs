//! A second reading of one clause: what a close assault's winner does when its loser is no longer
//! on the table (a battery "destroyed in the process", or a loser carried off by other cavalry),
//! against the surrounding rules — the winner's status by band, DISORDERED for all involved, the
//! results taking the following turn, pursuit where the loser is still there, and orders again
//! the turn after. Worked by hand from the text alone; each case draws its table (north up, y in
//! cm from Blue's southern edge).
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;

use common::{battle, blues, charge, reds, status, told_of, turn, unit, y};
use volley_core::GameState;
use volley_en_avant::battle::{Action, Battle, Pending, Presence};
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;

/// Whether `order` may be given to `name` now.
fn takes(b: &Battle, name: &str, order: Order) -> bool {
    b.validate(&Action::Order { unit: unit(b, name) as u16, order }).is_ok()
}

/// A Pugnacious battalion in line takes a battery that holds its fire.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 75               [ Red battery ]  Steady, deployed, halt card
///                             | 15 cm
///   y= 60        [====== Blue line ======]  Pugnacious (6), 36 cm front
/// ```
///
/// Step one: 6 against 4, it closes (line rate 20 cm covers 15). Step two: "Artillery closed
/// with always lose melee, and are destroyed in the process." The winner is infantry of 5–6:
/// "Player can choose whether unit pursues –1 status": 6 → 5 (Determined); "All units involved
/// … DISORDERED, whether win or lose". Turn 2: the result takes the turn ("supersede any
/// orders"), but the one it might pursue is gone: no charge at it, no advance carried out, it
/// stands — and standing still without firing for a turn it is ORDERED again ("A unit may
/// re-order itself by remaining stationary and not firing for one turn"). Turn 3: its own orders
/// again — an advance carries it 20 cm.
#[test]
fn a_pugnacious_line_takes_a_battery_drops_to_determined_and_stands_one_turn() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 60], status = "pugnacious" }"#),
        &reds(r#"{ name = "Red battery", kind = "artillery", at = [90, 75] }"#),
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue line", c)], &[("Red battery", Order::Halt)]);
    assert_eq!(b.units[unit(&b, "Red battery")].presence, Presence::Destroyed, "{told:#?}");
    assert_eq!(status(&b, "Blue line"), Status::Determined, "5-6 winner: -1: {told:#?}");
    assert!(!b.units[unit(&b, "Blue line")].ordered(), "all involved DISORDERED");
    let at = y(&b, "Blue line");
    // Turn 2: the charge at the destroyed battery is no order at all; an advance is superseded.
    assert!(!takes(&b, "Blue line", c), "a charge at a destroyed battery");
    let advance: &[(&str, Order)] =
        if takes(&b, "Blue line", Order::Advance) { &[("Blue line", Order::Advance)] } else { &[] };
    let told2 = turn(&mut b, advance, &[]);
    assert_eq!(y(&b, "Blue line"), at, "the result takes turn 2: {told2:#?}");
    assert!(
        told_of(&told, "nobody left to pursue") || told_of(&told2, "nobody left to pursue"),
        "{told:#?} {told2:#?}"
    );
    assert!(b.units[unit(&b, "Blue line")].ordered(), "a turn still and not firing: {told2:#?}");
    assert_eq!(status(&b, "Blue line"), Status::Determined);
    // Turn 3: orders again.
    assert!(takes(&b, "Blue line", Order::Advance));
    let told3 = turn(&mut b, &[("Blue line", Order::Advance)], &[]);
    assert!((y(&b, "Blue line") - (at + 20.0)).abs() < 1e-6, "{told3:#?}");
}

/// A Steady assault column takes a battery: the infantry winner of 3–4 has no choice.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 80               [ Red battery ]  Steady, halt card
///                             | 20 cm
///   y= 60                 [Blue col]  Steady (4), assault column, 12 cm front
/// ```
///
/// Step one: 4 against 4, "equal or higher … will move forward to close". Battery destroyed.
/// Infantry winner of 3–4: "Pursue enemy", no status change: it stays Steady, DISORDERED.
/// Turn 2: it has to pursue and cannot; no card but (at most) a halt is offered — an advance is
/// refused, the result superseding its orders — and given no card it stands where it took the guns (it does not go after the far Red battalions instead: the
/// enemy of "pursue enemy" is the one it beat). Turn 3: an advance carries it 25 cm.
#[test]
fn a_steady_column_over_a_battery_must_pursue_has_nobody_and_stands() {
    let mut b = battle(
        &blues(r#"{ name = "Blue column", kind = "infantry", at = [90, 60], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red battery", kind = "artillery", at = [90, 80] }"#),
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red battery", Order::Halt)]);
    assert_eq!(b.units[unit(&b, "Red battery")].presence, Presence::Destroyed, "{told:#?}");
    assert_eq!(status(&b, "Blue column"), Status::Steady, "3-4 winner: no change: {told:#?}");
    assert!(!b.units[unit(&b, "Blue column")].ordered());
    let mut cards = Vec::new();
    b.cards(unit(&b, "Blue column"), &mut cards);
    // Its result is not a choice: no card but (at most) a halt is offered, no charge, no move.
    assert!(cards.iter().all(|&o| o == Order::Halt), "{cards:?}");
    assert!(!takes(&b, "Blue column", Order::Advance), "the result supersedes its orders");
    assert!(!takes(&b, "Blue column", c));
    let (at, x) = (y(&b, "Blue column"), b.units[unit(&b, "Blue column")].at.x);
    let told2 = turn(&mut b, &[], &[]);
    let col = &b.units[unit(&b, "Blue column")];
    assert_eq!((col.at.y, col.at.x), (at, x), "{told2:#?}");
    assert!(col.ordered(), "re-ordered standing: {told2:#?}");
    assert_eq!(col.pending, Pending::None);
    let told3 = turn(&mut b, &[("Blue column", Order::Advance)], &[]);
    assert!((y(&b, "Blue column") - (at + 25.0)).abs() < 1e-6, "{told3:#?}");
}

/// A Determined cavalry line rides over a battery.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 55               [ Red battery ]  Steady, halt card
///                             | 35 cm
///   y= 20      [==== Blue horse ====]  Determined (5) both lines, cavalry line, 32 cm front
/// ```
///
/// Step one: 5 against 4 (no cavalry-against-infantry term: guns are not infantry), it closes
/// within its 40 cm. The guns are destroyed. Cavalry winner of 5–6: "Pursue enemy -1 status":
/// both labels (in line both fight) 5 → 4, DISORDERED. Turn 2: "Cavalry will pursue an enemy off
/// the table" — but there is no enemy left to pursue, so it does not ride off (it stays on the
/// table, not dispersed to come back in 3 turns), and it stands; re-ordered. Turn 3: an advance
/// of 40 cm.
#[test]
fn a_determined_cavalry_line_over_a_battery_drops_one_and_does_not_ride_off() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 20], status = "determined" }"#),
        &reds(r#"{ name = "Red battery", kind = "artillery", at = [90, 55] }"#),
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red battery", Order::Halt)]);
    assert_eq!(b.units[unit(&b, "Red battery")].presence, Presence::Destroyed, "{told:#?}");
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!(horse.status, [Status::Steady; 2], "5-6 cavalry winner: -1: {told:#?}");
    assert_eq!(horse.disordered, [true; 2], "{told:#?}");
    assert!(!takes(&b, "Blue horse", c));
    let mut cards = Vec::new();
    b.cards(unit(&b, "Blue horse"), &mut cards);
    assert!(cards.iter().all(|&o| o == Order::Halt), "{cards:?}");
    assert!(!takes(&b, "Blue horse", Order::Advance), "the result supersedes its orders");
    let at = y(&b, "Blue horse");
    let told2 = turn(&mut b, &[], &[]);
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!(horse.presence, Presence::Here, "nobody to pursue off the table: {told2:#?}");
    assert_eq!(horse.at.y, at, "{told2:#?}");
    assert!(horse.ordered(), "{told2:#?}");
    assert!(
        told_of(&told, "Blue horse has nobody left to pursue")
            || told_of(&told2, "Blue horse has nobody left to pursue"),
        "{told:#?} {told2:#?}"
    );
    let told3 = turn(&mut b, &[("Blue horse", Order::Advance)], &[]);
    assert!((y(&b, "Blue horse") - (at + 40.0)).abs() < 1e-6, "{told3:#?}");
}

/// A Steady cavalry column rides over a battery: only its first line fights.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 85               [ Red battery ]  Steady, halt card
///                             | 45 cm
///   y= 40                 [1st line]   Steady (4)
///                         [ 20 cm  ]
///                         [2nd line]   Steady (4)       column, 16 cm front, 50 cm a turn
/// ```
///
/// Step one: 4 against 4, closes. The guns are destroyed. Cavalry winner of 3–4: "Pursue enemy",
/// no status change: the first line stays Steady and is DISORDERED. Turn 2: nobody to pursue; it
/// stays on the table where it stood, its second line too. Turn 3 it takes orders: an advance of
/// 50 cm — stopped, if need be, by the table's northern edge (the column's front then at most at
/// 120).
#[test]
fn a_steady_cavalry_column_over_a_battery_keeps_its_status_and_stands() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], formation = "cavalry_column" }"#),
        &reds(r#"{ name = "Red battery", kind = "artillery", at = [90, 85] }"#),
        "",
    );
    let c = charge(&b, "Red battery");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red battery", Order::Halt)]);
    assert_eq!(b.units[unit(&b, "Red battery")].presence, Presence::Destroyed, "{told:#?}");
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!(horse.status[0], Status::Steady, "3-4 cavalry winner: no change: {told:#?}");
    assert!(horse.disordered[0], "{told:#?}");
    let at = y(&b, "Blue horse");
    let told2 = turn(&mut b, &[], &[]);
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!((horse.presence, horse.at.y), (Presence::Here, at), "{told2:#?}");
    assert!(takes(&b, "Blue horse", Order::Advance), "orders again in turn 3");
    let told3 = turn(&mut b, &[("Blue horse", Order::Advance)], &[]);
    assert!(y(&b, "Blue horse") > at + 20.0, "{told3:#?}");
}

/// An infantry winner of 5–6 whose loser is still on the table may pursue, or not.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 80        [====== Red line ======]  Steady (4), halt card
///                             | 20 cm
///   y= 60                 [Blue col]  Determined (5), assault column
/// ```
///
/// Step one 5 against 4: closes; step two 5 against 4: Blue wins. Blue, 5–6: "Player can choose
/// whether unit pursues –1 status": Steady, DISORDERED. Red, infantry loser of 3–4: "Withdraw
/// 10 cm -1 status": Nervous, DISORDERED. Turn 2, the loser still there: the choice is Blue's.
/// (a) A charge at the Red line (pursuit) is accepted: Red withdraws 10 cm and Blue goes after it
/// (at least the 10 cm it withdrew). (b) A halt: Blue stands, re-ordering. Nobody is told it has
/// nobody to pursue.
#[test]
fn an_infantry_winner_whose_loser_is_still_there_may_pursue_or_stand() {
    for pursues in [true, false] {
        let mut b = battle(
            &blues(
                r#"{ name = "Blue column", kind = "infantry", at = [90, 60], formation = "assault_column", status = "determined" }"#,
            ),
            &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 80] }"#),
            "",
        );
        let c = charge(&b, "Red line");
        let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
        assert_eq!(status(&b, "Blue column"), Status::Steady, "{told:#?}");
        assert_eq!(status(&b, "Red line"), Status::Nervous, "{told:#?}");
        assert!(!b.units[unit(&b, "Blue column")].ordered() && !b.units[unit(&b, "Red line")].ordered());
        assert!(matches!(b.units[unit(&b, "Blue column")].pending, Pending::MayPursue { .. }));
        assert!(takes(&b, "Blue column", c), "pursuit of a loser still there is open to it");
        let (blue_at, red_at) = (y(&b, "Blue column"), y(&b, "Red line"));
        let card = if pursues { c } else { Order::Halt };
        let told2 = turn(&mut b, &[("Blue column", card)], &[]);
        assert!(!told_of(&told, "nobody left") && !told_of(&told2, "nobody left"), "{told:#?} {told2:#?}");
        assert!(b.units[unit(&b, "Red line")].here());
        assert!(y(&b, "Red line") >= red_at + 10.0 - 1e-6, "withdraws 10 cm: {told2:#?}");
        if pursues {
            assert!(y(&b, "Blue column") >= blue_at + 10.0 - 1e-6, "pursues: {told2:#?}");
        } else {
            assert_eq!(y(&b, "Blue column"), blue_at, "{told2:#?}");
            assert!(b.units[unit(&b, "Blue column")].ordered(), "{told2:#?}");
        }
    }
}

/// Cavalry that beat infantry still on the table pursue it whatever their card.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 70        [====== Red line ======]  Steady (4), halt card
///                             | 30 cm
///   y= 40       [==== Blue horse ====]  Steady (4), cavalry line
/// ```
///
/// Step one 4 + 2 (cavalry against infantry not in square) against 4: closes; step two 4 against
/// 4: "If both end up equal, then the attacker wins." Red, infantry loser of 3–4: withdraws
/// 10 cm, Nervous. Blue, cavalry winner of 3–4: "Pursue enemy", no change, DISORDERED. Turn 2:
/// the result supersedes Blue's orders and the loser is there: it rides after the Red line (no
/// "nobody left to pursue"), and moves north.
#[test]
fn cavalry_beating_infantry_still_there_pursue_it() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 70] }"#),
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red line", Order::Halt)]);
    let horse = &b.units[unit(&b, "Blue horse")];
    assert_eq!(horse.status, [Status::Steady; 2], "{told:#?}");
    assert_eq!(horse.disordered, [true; 2]);
    assert!(matches!(horse.pending, Pending::Pursue { .. }), "{:?}", horse.pending);
    assert_eq!(status(&b, "Red line"), Status::Nervous);
    let at = y(&b, "Blue horse");
    let told2 = turn(&mut b, &[], &[]);
    assert!(!told_of(&told, "nobody left") && !told_of(&told2, "nobody left"), "{told:#?} {told2:#?}");
    assert!(y(&b, "Blue horse") > at + 5.0 || !b.units[unit(&b, "Blue horse")].here(), "{told2:#?}");
}

/// Two Blue units beat a Frightened battalion together; the horse carry it off; the foot,
/// which won too, are left with nobody.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 70        [======= Red X ========]  Frightened (1), line, x 72-108, halt card
///                                   | 20 cm
///   y= 50                        [B col]   Steady (4), assault column, x 94-106
///                     | 30 cm
///   y= 40          [B horse]                Steady (4), cavalry column, x 72-88
///   y= 12  Blue reserve (x 20)                      Blue guard (x 160)
/// ```
///
/// Turn 1: each attacker's step one with outnumbering (+1; the horse +2 against infantry not in
/// square): both close. Step two 4 against 1: Blue wins. Red X, infantry loser of 1–2: "Withdraw
/// 15cm -1 status" → 0: it runs away. Both winners of 3–4 "Pursue enemy", no status change,
/// DISORDERED. Turn 2: X runs; "Cavalry will pursue an enemy off the table. The losers are
/// removed from play. The winners are dispersed": X removed, the horse away. The column's
/// pursuit goes after a unit that is running and then gone; whatever it did in turn 2 (the
/// engine has X's run blocked — see the next case — the horse ride it down where it stands and
/// the column is told it has nobody left to pursue), its result was for that turn only. Turn 3: a charge at X is refused (X is not on the table), and
/// an advance is taken and carried out.
#[test]
fn a_winner_whose_loser_other_cavalry_carried_off_takes_orders_after() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue horse", kind = "cavalry", at = [80, 40], formation = "cavalry_column" }, { name = "Blue column", kind = "infantry", at = [100, 50], formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red X", kind = "infantry", at = [90, 70], status = "frightened" }"#),
        "",
    );
    let c = charge(&b, "Red X");
    let told = turn(&mut b, &[("Blue horse", c), ("Blue column", c)], &[("Red X", Order::Halt)]);
    assert_eq!(status(&b, "Red X"), Status::RunningAway, "{told:#?}");
    assert_eq!(status(&b, "Blue column"), Status::Steady, "{told:#?}");
    assert_eq!(b.units[unit(&b, "Blue horse")].status[0], Status::Steady, "{told:#?}");
    assert!(!b.units[unit(&b, "Blue column")].ordered() && b.units[unit(&b, "Blue horse")].disordered[0]);
    assert!(matches!(b.units[unit(&b, "Blue column")].pending, Pending::Pursue { .. }));
    assert!(matches!(b.units[unit(&b, "Blue horse")].pending, Pending::Pursue { .. }));
    let told2 = turn(&mut b, &[], &[]);
    assert_eq!(b.units[unit(&b, "Red X")].presence, Presence::Removed, "{told2:#?}");
    assert!(matches!(b.units[unit(&b, "Blue horse")].presence, Presence::Away { .. }), "{told2:#?}");
    let col = &b.units[unit(&b, "Blue column")];
    assert!(col.here() && col.pending == Pending::None, "{told2:#?}");
    // Turn 3: its own orders again.
    assert!(!takes(&b, "Blue column", c), "X is gone");
    assert!(takes(&b, "Blue column", Order::Advance));
    let at = y(&b, "Blue column");
    let told3 = turn(&mut b, &[("Blue column", Order::Advance)], &[]);
    assert!(y(&b, "Blue column") > at + 1.0, "{told3:#?}");
}

/// The loser of the case above, beaten by two battalions and no horse: it must run.
///
/// ```text
///   y=110  Red reserve (x 20)                       Red guard (x 160)
///   y= 70        [======= Red X ========]  Frightened (1), line, x 72-108, halt card
///                     | 20 cm       | 20 cm          (nothing north of it but open table)
///   y= 50          [B left]      [B right]  Steady (4), assault columns, x 74-86 and 94-106
/// ```
///
/// Turn 1: both close (4 + 1 outnumbering against 1) and win (4 against 1); Red X, infantry
/// loser of 1–2, "-1 status" → 0. Turn 2: "Units that reach 'run away' status (0) do so at
/// double their normal move for the first turn" (a line's 20 cm doubled: 40 cm), "Run away is
/// always facing away from the enemy" — the enemy is along its southern front, the table north
/// of it is empty: it turns about and runs about 40 cm north, out of the pursuing columns' 25 cm.
#[test]
fn a_loser_beaten_by_two_units_side_by_side_runs_away_to_its_rear() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue left", kind = "infantry", at = [80, 50], formation = "assault_column" }, { name = "Blue right", kind = "infantry", at = [100, 50], formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red X", kind = "infantry", at = [90, 70], status = "frightened" }"#),
        "",
    );
    let c = charge(&b, "Red X");
    let told = turn(&mut b, &[("Blue left", c), ("Blue right", c)], &[("Red X", Order::Halt)]);
    assert_eq!(status(&b, "Red X"), Status::RunningAway, "{told:#?}");
    let told2 = turn(&mut b, &[], &[]);
    assert!(!told_of(&told2, "blocked"), "{told2:#?}");
    assert!(y(&b, "Red X") >= 100.0, "ran about 40 cm north: {} {told2:#?}", y(&b, "Red X"));
}
