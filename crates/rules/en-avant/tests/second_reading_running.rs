//! A second reading of running away (status 0), worked by hand from the rule text alone against
//! the engine's interpretation 31: "Units that reach 'run away' status (0) do so at double their
//! normal move for the first turn, then at their normal move every turn after that", "Run away is
//! always facing away from the enemy, unsurprisingly", "0. Running away – leaving the battlefield
//! as fast as possible", "Cavalry will pursue an enemy off the table. The losers are removed from
//! play. The winners are dispersed", and rallying ("It can be moving though").
//!
//! Each case draws its table: north up, x east and y north in cm, Blue's rear edge y = 0, Red's
//! y = 120; `at` is the centre of a unit's front edge, the body behind it (line 36 × 2, assault
//! column 12 × 6, square 6 × 6, cavalry line 32 × 4). Each side has two spare battalions far off
//! in its corners (x 2–38 and 142–178), so one unit running or gone does not break it.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;

use common::{battle, blues, charge, reds, status, told_of, turn, unit};
use volley_chance::Seeded;
use volley_core::GameState;
use volley_en_avant::battle::{Action, Battle, Pending, Presence};
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;
use volley_table::Point;

fn centre(b: &Battle, name: &str) -> Point {
    b.units[unit(b, name)].centre()
}

fn facing(b: &Battle, name: &str) -> f64 {
    b.units[unit(b, name)].facing
}

fn presence(b: &Battle, name: &str) -> Presence {
    b.units[unit(b, name)].presence
}

fn gap(b: &Battle, a: &str, c: &str) -> f64 {
    b.gap(unit(b, a), unit(b, c))
}

fn near(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-6
}

/// A Frightened Blue line beaten from the front by an off-centre Red column (turn 1 played).
fn beaten_from_the_front() -> Battle {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 50], status = "frightened" }"#),
        &reds(r#"{ name = "Red column", kind = "infantry", at = [100, 70], formation = "assault_column" }"#),
        "",
    );
    let c = charge(&b, "Blue line");
    let told = turn(&mut b, &[("Blue line", Order::Halt)], &[("Red column", c)]);
    assert_eq!(status(&b, "Blue line"), Status::RunningAway, "{told:#?}");
    b
}

/// Enemy in front, off its centre.
///
/// ```text
///   y=76            [Red col]      x 94-106, facing S, Steady, charging
///   y=70            ---------
///                       | 20 cm
///   y=50   [====== Blue line ======]  x 72-108, facing N, Frightened (1), centre (90, 49)
///   y=12  Blue reserve                               Blue guard
/// ```
///
/// Turn 1: step one 4 against 1, step two 4 against 1: the column wins; the line, infantry
/// loser of 1–2, "Withdraw 15cm -1 status" → 0: it runs instead of withdrawing. Turn 2 ("Results
/// apply to the following turn"): "double their normal move for the first turn", 2 × 20 = 40 cm,
/// "facing away from the enemy": the column stands off its front face, so it faces about (180°)
/// and runs straight to its rear, south, centre (90, 49) → (90, 9) — not slantwise away from the
/// column's middle, which is 10 cm east (interpretation 31; I agree: a line breaks to its rear).
#[test]
fn an_enemy_in_front_sends_a_line_straight_to_its_rear_at_double_move() {
    let mut b = beaten_from_the_front();
    let before = centre(&b, "Blue line");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Blue line");
    assert!(near(before.y - after.y, 40.0), "40 cm south: {before:?} -> {after:?} {told:#?}");
    assert!(near(after.x, before.x), "straight to its rear: {after:?}");
    assert!(near(facing(&b, "Blue line"), 180.0), "its back to the enemy: {}", facing(&b, "Blue line"));
}

/// The table's edge behind the runner: it leaves the battle.
///
/// Same table as the case above. After turn 2 the line's body is at y 8–10, 8 cm from Blue's
/// rear edge. Turn 3: its normal 20 cm south carries it over the edge: "leaving the battlefield"
/// — it is removed from play (not left standing at the edge). One of Blue's three units gone
/// is not half: the battle goes on.
#[test]
fn a_runner_that_reaches_the_tables_edge_leaves_play() {
    let mut b = beaten_from_the_front();
    turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Blue line"), Presence::Here);
    let told = turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Blue line"), Presence::Removed, "{told:#?}");
    assert!(b.outcome.is_none(), "one unit in three is not a broken side");
}

/// Enemy on its left flank (a Blue line facing north: its left is west).
///
/// ```text
///   y=55  [Red col]>          x 49-55, facing E, Steady, charging the line's west end
///   y=49          | 17 cm [====== Blue line ======]  x 72-108, facing N, Frightened
/// ```
///
/// Turn 1: "+1 if attacking on the flank": 5 against 1 in both steps; the line → 0. Turn 2: the
/// enemy stands off its left face: it turns its back on it, facing east (90°), and runs 40 cm
/// straight east: centre (90, 49) → (130, 49). (The engine's own case is a right flank; this
/// mirrors it on the other side and the other army.)
#[test]
fn an_enemy_on_the_left_flank_sends_the_runner_to_its_right() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 50], status = "frightened" }"#),
        &reds(
            r#"{ name = "Red column", kind = "infantry", at = [55, 49], facing = 90, formation = "assault_column" }"#,
        ),
        "",
    );
    let c = charge(&b, "Blue line");
    let told = turn(&mut b, &[("Blue line", Order::Halt)], &[("Red column", c)]);
    assert_eq!(status(&b, "Blue line"), Status::RunningAway, "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Blue line");
    assert!(near(after.x, 130.0) && near(after.y, 49.0), "40 cm east: {after:?} {told:#?}");
    assert!(near(facing(&b, "Blue line"), 90.0));
}

/// Enemy in its rear: it runs forward, without turning.
///
/// ```text
///   y=86            [Blue col]     x 84-96, facing S, Steady, charging Red's back
///   y=80            ----------
///                       | 18 cm
///   y=62   [====== Red line =======]  x 72-108, facing S, Frightened, centre (90, 61)
///   y=60   ------------------------
/// ```
///
/// Turn 1: "+2 if attacking on rear": 6 against 1; Red → 0. Turn 2: the enemy stands off its
/// rear face, so facing away from it is the way it already faces: south, 40 cm, centre
/// (90, 61) → (90, 21), still facing 180°. (Towards Blue's side of the table: the text says away
/// from the enemy, not towards one's own edge.)
#[test]
fn an_enemy_in_the_rear_sends_the_runner_forward_without_turning() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue column", kind = "infantry", at = [90, 80], facing = 180, formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 60], status = "frightened" }"#),
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Red line");
    assert!(near(after.x, 90.0) && near(after.y, 21.0), "40 cm south: {after:?} {told:#?}");
    assert!(near(facing(&b, "Red line"), 180.0));
}

/// Two enemies on different faces: one in front, one on the flank.
///
/// ```text
///   y=72   [====== Red line =======]   x 72-108, facing S, Running away   [Blue B]<  x 125-131,
///   y=70   -------------------------                                      (y 65-77, facing W)
///                       | 20 cm                                  17 cm from the line's east end
///   y=50            [Blue A]          x 84-96, facing N
/// ```
///
/// Both within its 40 cm run. "Facing away from the enemy" with two enemies: away from both —
/// due north-west would be the purest reading; the engine took their middle (109, 59), which is
/// off its front, and ran to its rear (north); since this reading it runs between the two ways
/// out (north and west), nearer the one from the nearer enemy. Either way it must end farther
/// from both, and must not be turned towards either: I accept north or anything between north
/// and west.
#[test]
fn enemies_on_the_front_and_a_flank_the_runner_gets_away_from_both() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue A", kind = "infantry", at = [90, 50], formation = "assault_column" }, { name = "Blue B", kind = "infantry", at = [125, 71], facing = 270, formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }"#),
        "",
    );
    let (a0, b0) = (gap(&b, "Red line", "Blue A"), gap(&b, "Red line", "Blue B"));
    let before = centre(&b, "Red line");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Red line");
    assert!(!told_of(&told, "blocked"), "{told:#?}");
    assert!(near(after.dist(before), 40.0), "its full 40 cm: {before:?} -> {after:?} {told:#?}");
    assert!(gap(&b, "Red line", "Blue A") > a0 + 15.0, "{told:#?}");
    assert!(gap(&b, "Red line", "Blue B") > b0 + 15.0, "{told:#?}");
    let f = facing(&b, "Red line");
    assert!(f == 0.0 || (270.0..360.0).contains(&f), "between north and west: {f}");
}

/// Two enemies on opposite faces, the flanks open.
///
/// ```text
///   y=98            [Blue B]          x 84-96, facing S        (20 cm behind the line)
///   y=92            --------
///   y=72   [====== Red line =======]   x 72-108, facing S, Running away, centre (90, 71)
///   y=70   -------------------------     open ground east and west, 60 cm and more
///   y=55            [Blue A]          x 84-96, facing N        (15 cm in front)
/// ```
///
/// "Run away is always facing away from the enemy": with an enemy in front and one behind, a
/// sensible umpire runs it out of a flank — east or west, away from both (perpendicular to
/// both, the only heading that closes on neither). It must not turn to face one of them and run
/// at it. Expected: turn 1, about 40 cm east or west, neither gap smaller; turn 2 the same way
/// on.
///
/// (Before the fix that settled this reading, 2026-11-25:) The engine takes the middle of the two (just north of the line's centre, off its rear), turns
/// to face south, runs 10 cm straight at Blue A and stops 5 cm from it; in turn 2 only Blue B is
/// within its 20 cm the other way... it turns about and runs 20 cm at Blue B. It faces an enemy
/// both turns and never leaves.
#[test]

fn enemies_in_front_and_behind_the_runner_breaks_out_of_a_flank() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue A", kind = "infantry", at = [90, 55], formation = "assault_column" }, { name = "Blue B", kind = "infantry", at = [90, 92], facing = 180, formation = "assault_column" }"#,
        ),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }"#),
        "",
    );
    let (a0, b0) = (gap(&b, "Red line", "Blue A"), gap(&b, "Red line", "Blue B"));
    let before = centre(&b, "Red line");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Red line");
    assert!(gap(&b, "Red line", "Blue A") >= a0 - 1e-6, "no closer to A: {after:?} {told:#?}");
    assert!(gap(&b, "Red line", "Blue B") >= b0 - 1e-6, "no closer to B: {after:?} {told:#?}");
    assert!((after.x - before.x).abs() >= 30.0, "out of a flank: {before:?} -> {after:?} {told:#?}");
    let told = turn(&mut b, &[], &[]);
    let later = centre(&b, "Red line");
    assert!((later.x - before.x).abs() >= 45.0, "and on the same way: {later:?} {told:#?}");
}

/// A friend standing behind the runner — the first turn.
///
/// ```text
///   y=86            [Red F]           x 84-96, facing S, a friendly column, Steady
///   y=80            -------
///                       | 8 cm
///   y=72   [====== Red line =======]   x 72-108, facing S, Running away
///   y=70   -------------------------
///                       | 15 cm
///   y=55            [Blue A]          x 84-96, facing N
/// ```
///
/// The text says nothing of running through friends. Its moves go "directly forward (or
/// backward)" and bodies do not pass through bodies (interpretation 15); so the line turns about
/// and runs north until it meets its friend: about 8 cm. The friend is not moved nor harmed.
/// For one turn I accept this (an umpire might as well have it veer, but it is not wrong).
///
/// Settled (interpretation 31, after this reading): the runner goes round what stands in its
/// way, in the first turn as in the later ones — it meets its friend, turns aside and streams
/// round it, its whole 40 cm along its path, never closer to Blue A; the friend untouched.
#[test]
fn a_friend_behind_stops_the_first_turns_run_at_its_body() {
    let mut b = battle(
        &blues(r#"{ name = "Blue A", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(
            r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }, { name = "Red F", kind = "infantry", at = [90, 80], formation = "assault_column" }"#,
        ),
        "",
    );
    let before = centre(&b, "Red line");
    let friend = centre(&b, "Red F");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Red line");
    assert!(after.y - before.y >= 8.0, "past where its friend stood in its way: {after:?} {told:#?}");
    assert!(after.dist(before) >= 20.0, "round it, not held: {before:?} -> {after:?} {told:#?}");
    assert!(near(facing(&b, "Red line"), 0.0), "turned about, its back to Blue A");
    assert!(gap(&b, "Red line", "Blue A") > 15.0, "{told:#?}");
    assert_eq!(centre(&b, "Red F"), friend);
    assert_eq!(status(&b, "Red F"), Status::Steady);
}

/// The same table, turns 2 and 3: is the runner held by its friend for ever?
///
/// After turn 1 the line (36 cm wide) stands against a column 12 cm wide; to either side of
/// the column 12 cm of the line's front is clear, and the table beyond is empty. "0. Running
/// away – leaving the battlefield as fast as possible": a sensible umpire has the fugitives
/// stream round the small column (or through it) — within two more turns (20 cm each) the line
/// is well clear, at least 30 cm from where it started.
///
/// (Before the fix that settled this reading, 2026-11-25:) The engine: its way is "blocked" and it stays, turn after turn, because the fallback of
/// interpretation 31 (a heading up to 60° off) turns the line about its centre, and a line
/// pressed against a body can turn no heading at all. It never leaves.
#[test]

fn a_runner_is_not_held_for_ever_by_a_small_friend_behind_it() {
    let mut b = battle(
        &blues(r#"{ name = "Blue A", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(
            r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }, { name = "Red F", kind = "infantry", at = [90, 80], formation = "assault_column" }"#,
        ),
        "",
    );
    let before = centre(&b, "Red line");
    let mut told = Vec::new();
    for _ in 0..3 {
        told.extend(turn(&mut b, &[], &[]));
    }
    let after = centre(&b, "Red line");
    assert!(
        presence(&b, "Red line") != Presence::Here || after.dist(before) >= 30.0,
        "got round its friend: {before:?} -> {after:?} {told:#?}"
    );
}

/// Impassable ground behind the runner — the first turn.
///
/// ```text
///   y=100   +~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
///           ~        lake (impassable)           ~   x 60-120, y 80-100
///   y=80    +~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~+
///                       | 8 cm
///   y=72         [====== Red line =======]   x 72-108, facing S, Running away
///                       | 15 cm
///   y=55                  [Blue A]          x 84-96, facing N
/// ```
///
/// Away from Blue A is north, into the lake. The text has no terrain rules for running; no
/// move enters impassable ground (interpretation 15): the line turns about and runs north to
/// the shore, 8 cm, and stops there. Accepted for the first turn.
///
/// Settled (interpretation 31, after this reading): it reaches the shore and goes along it,
/// round the lake's end, its whole 40 cm along its path, never into the lake nor closer to
/// Blue A.
#[test]
fn a_lake_behind_stops_the_first_turns_run_at_the_shore() {
    let lake = "[[terrain]]\nkind = \"impassable\"\nname = \"lake\"\nrect = [60, 80, 120, 100]\n";
    let mut b = battle(
        &blues(r#"{ name = "Blue A", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }"#),
        lake,
    );
    let before = centre(&b, "Red line");
    let told = turn(&mut b, &[], &[]);
    let after = centre(&b, "Red line");
    assert!(after.y - before.y > 5.0 && (after.x - before.x).abs() > 10.0, "along the shore: {after:?} {told:#?}");
    assert!(gap(&b, "Red line", "Blue A") > 15.0, "{told:#?}");
    assert!(near(facing(&b, "Red line"), 0.0));
    assert_eq!(presence(&b, "Red line"), Presence::Here);
}

/// The same lake, turns 2 and 3.
///
/// The lake is 60 cm wide; the line's ends are 12 cm (west) and 12 cm (east) inside its ends.
/// A sensible umpire has the fugitives go round along the shore (or, if he judged the lake a
/// (Before the fix that settled this reading, 2026-11-25:) trap, says so — the text gives him nothing either way). But the engine's interpretation 31
/// has a fallback of 60° for exactly this, and it never works here: a line against the shore
/// cannot turn about its centre without its end entering the water, so every heading is
/// "blocked" and it stands at the shore for ever, a unit "leaving the battlefield as fast as
/// possible" that never moves again. Expected: within two more turns it is clear, 30 cm or more
/// from where it started.
#[test]

fn a_runner_is_not_held_for_ever_at_a_lakes_shore() {
    let lake = "[[terrain]]\nkind = \"impassable\"\nname = \"lake\"\nrect = [60, 80, 120, 100]\n";
    let mut b = battle(
        &blues(r#"{ name = "Blue A", kind = "infantry", at = [90, 55], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 70], status = "running_away" }"#),
        lake,
    );
    let before = centre(&b, "Red line");
    let mut told = Vec::new();
    for _ in 0..3 {
        told.extend(turn(&mut b, &[], &[]));
    }
    let after = centre(&b, "Red line");
    assert!(
        presence(&b, "Red line") != Presence::Here || after.dist(before) >= 30.0,
        "got round the lake: {before:?} -> {after:?} {told:#?}"
    );
}

/// The second turn and after: the normal move, not double.
///
/// ```text
///   y=42   [====== Red line =======]   x 72-108, facing S, Frightened, centre (90, 41)
///   y=40   -------------------------
///                       | 20 cm
///   y=20            [Blue col]        x 84-96, facing N, Steady, charging
/// ```
///
/// Turn 1: the column wins, Red → 0. Turn 2 (its first turn running): 40 cm north, centre 81;
/// the column pursues 25 cm and cannot catch it. Turn 3: "then at their normal move every turn
/// after that": 20 cm, centre 101. Turn 4: 20 cm more takes its body over the northern edge:
/// removed.
#[test]
fn after_the_first_turn_a_runner_goes_at_its_normal_move() {
    let mut b = battle(
        &blues(r#"{ name = "Blue column", kind = "infantry", at = [90, 20], formation = "assault_column" }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 40], status = "frightened" }"#),
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert!(near(centre(&b, "Red line").y, 81.0), "double: {:?} {told:#?}", centre(&b, "Red line"));
    let told = turn(&mut b, &[], &[]);
    assert!(near(centre(&b, "Red line").y, 101.0), "normal: {:?} {told:#?}", centre(&b, "Red line"));
    assert_eq!(presence(&b, "Red line"), Presence::Here);
    let told = turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Red line"), Presence::Removed, "{told:#?}");
}

/// A square running.
///
/// ```text
///   y=69  [Red col]>               x 64-70, facing E
///   y=63          | 20 cm  [S]     Blue square, front x 90 facing W, body x 90-96, y 57-63,
///   y=57                           Running away, centre (93, 60)
/// ```
///
/// "Infantry in square no move": doubled, still none — read literally a broken square would never
/// run, against "leaving the battlefield as fast as possible". A square that breaks is a crowd;
/// a sensible umpire moves it as infantry in column (25 cm), as the engine does (interpretation
/// 19). Turn 1: away from the enemy on its west face, east, 50 cm: centre (143, 60). Turn 2: no
/// enemy within its 25 cm; the nearest is now the Red guard in the north-east corner (body y
/// 110-112, x 142-178: 47 cm north), the column 70 cm west: away from the nearest, south, 25 cm:
/// centre (143, 35).
#[test]
fn a_broken_square_runs_at_the_columns_rate_doubled_then_normal() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue square", kind = "infantry", at = [90, 60], facing = 270, formation = "square", status = "running_away" }"#,
        ),
        &reds(
            r#"{ name = "Red column", kind = "infantry", at = [70, 63], facing = 90, formation = "assault_column" }"#,
        ),
        "",
    );
    let told = turn(&mut b, &[], &[]);
    let c = centre(&b, "Blue square");
    assert!(near(c.x, 143.0) && near(c.y, 60.0), "50 cm east: {c:?} {told:#?}");
    let told = turn(&mut b, &[], &[]);
    let c = centre(&b, "Blue square");
    assert!(near(c.x, 143.0) && near(c.y, 35.0), "25 cm south, from the Red guard: {c:?} {told:#?}");
    assert!(near(facing(&b, "Blue square"), 180.0));
}

/// Fire bringing a unit to 0.
///
/// ```text
///   y=56            [Red col]      x 84-96, facing S, Frightened, centre (90, 53)
///   y=50            ---------
///                       | 10 cm
///   y=40   [====== Blue line ======]  Steady, fire card
/// ```
///
/// Firing comes before movement. Blue's first volley from an ordered line at a dense target:
/// "Any target drops two levels": 1 → 0. The "results apply to the following turn" is the close
/// assault's; fire's effect stands at once, so in this turn's movement the column runs: its
/// first turn, double 25 = 50 cm, away from the line — north, centre (90, 103), facing 0°.
/// Turn 2: 25 cm more carries it over Red's edge: removed.
#[test]
fn a_unit_broken_by_fire_runs_the_same_turn_at_double_move() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#),
        &reds(
            r#"{ name = "Red column", kind = "infantry", at = [90, 50], formation = "assault_column", status = "frightened" }"#,
        ),
        "",
    );
    let told = turn(&mut b, &[("Blue line", Order::Fire)], &[("Red column", Order::Halt)]);
    assert_eq!(status(&b, "Red column"), Status::RunningAway, "{told:#?}");
    let c = centre(&b, "Red column");
    assert!(near(c.x, 90.0) && near(c.y, 103.0), "50 cm north this turn: {c:?} {told:#?}");
    assert!(near(facing(&b, "Red column"), 0.0));
    let told = turn(&mut b, &[("Blue line", Order::Halt)], &[]);
    assert_eq!(presence(&b, "Red column"), Presence::Removed, "{told:#?}");
}

/// A cavalry loser brought to 0 runs (it does not withdraw its 50 cm).
///
/// ```text
///   y=76              | Red horse |  line, front x 40 facing W, body x 40-44, y 44-76,
///   y=66  [Blue col]> |           |  Wavering (2) both lines, centre (42, 60)
///   y=54  x 19-25     | 15 cm gap |
///   y=44              |           |
/// ```
///
/// Turn 1: the Determined column charges: 5 against 2 in both steps, it wins. Red, cavalry loser
/// of 1–2: "Withdraw 50cm –2 status": 2 → 0 on both labels: it runs instead. Turn 2: cavalry in
/// line, 40 cm, doubled: 80 cm, away from the column (west of it): east, centre x 122, facing 90°.
#[test]
fn a_cavalry_loser_at_zero_runs_double_its_forty_instead_of_withdrawing() {
    let mut b = battle(
        &blues(
            r#"{ name = "Blue column", kind = "infantry", at = [25, 60], facing = 90, formation = "assault_column", status = "determined" }"#,
        ),
        &reds(
            r#"{ name = "Red horse", kind = "cavalry", at = [40, 60], facing = 270, status = "wavering", second_status = "wavering" }"#,
        ),
        "",
    );
    let c = charge(&b, "Red horse");
    let told = turn(&mut b, &[("Blue column", c)], &[("Red horse", Order::Halt)]);
    let h = &b.units[unit(&b, "Red horse")];
    assert_eq!(h.status, [Status::RunningAway; 2], "{told:#?}");
    assert!(!matches!(h.pending, Pending::Withdraw { .. }), "{:?}", h.pending);
    let told = turn(&mut b, &[], &[]);
    let c = centre(&b, "Red horse");
    assert!(near(c.x, 122.0) && near(c.y, 60.0), "80 cm east: {c:?} {told:#?}");
    assert!(near(facing(&b, "Red horse"), 90.0));
}

/// Cavalry winners pursue a runner off the table even when it runs faster than they ride.
///
/// ```text
///   y=56            [Red col]      x 84-96, facing S, Frightened
///   y=50            ---------
///                       | 20 cm
///   y=30   [=== Blue horse ===]    cavalry line, Steady
/// ```
///
/// Turn 1: 4 + 2 (cavalry against infantry not in square) against 1; step two 4 against 1:
/// the horse win and "Pursue enemy"; the column → 0. Turn 2: the column runs 50 cm (double its
/// 25), the horse ride only 40 — but "Cavalry will pursue an enemy off the table. The losers are
/// removed from play. The winners are dispersed": no race is run; the column is removed, the
/// horse away until they rally on their flag.
#[test]
fn cavalry_winners_carry_off_a_runner_that_outpaces_them() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 30] }"#),
        &reds(
            r#"{ name = "Red column", kind = "infantry", at = [90, 50], formation = "assault_column", status = "frightened" }"#,
        ),
        "",
    );
    let c = charge(&b, "Red column");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red column", Order::Halt)]);
    assert_eq!(status(&b, "Red column"), Status::RunningAway, "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Red column"), Presence::Removed, "{told:#?}");
    assert!(matches!(presence(&b, "Blue horse"), Presence::Away { .. }), "{told:#?}");
}

/// A runner already running, caught by fresh cavalry: it has already had its double move.
///
/// ```text
///   y=76  | Blue horse |>   | Red line |>      Red line: front x 40 facing E, body x 38-40,
///         |  x 16-20   | 18 |  x 38-40 |       y 42-78, Running away (its first turn to come)
///   y=44  |  facing E  | cm |          |       Blue horse: cavalry line, Steady, charge card
/// ```
///
/// Turn 1: Red runs 40 (double) east, centre x 79; the horse ride 40 at it, 18 cm short.
/// Turn 2: Red runs 20 (normal), centre x 99; the horse reach it: a close assault from its rear,
/// the horse win; Red stays 0 and the horse will pursue. Turn 3: Red did not "reach" 0 now — it
/// reached it before turn 1 — so "then at their normal move every turn after that": 20 cm,
/// centre x 119; the horse pursue it off the table: removed, horse dispersed.
///
/// (Before the fix that settled this reading, 2026-11-25:) The engine says "R breaks and runs" again and gives it a second "first turn": 40 cm, to
/// x 139 (where the horse then carry it off). Here the distance changes nothing else, but near
/// an edge it lets the runner leave by itself before the pursuit (next case).
#[test]

fn a_runner_beaten_again_does_not_get_a_second_double_move() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [20, 60], facing = 90 }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [40, 60], facing = 90, status = "running_away" }"#),
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue horse", c)], &[]);
    assert!(near(centre(&b, "Red line").x, 79.0), "{told:#?}");
    let told = turn(&mut b, &[("Blue horse", c)], &[]);
    assert!(near(centre(&b, "Red line").x, 99.0), "normal 20: {told:#?}");
    assert!(matches!(b.units[unit(&b, "Blue horse")].pending, Pending::Pursue { .. }), "caught it: {told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Red line"), Presence::Removed, "{told:#?}");
    assert!(matches!(presence(&b, "Blue horse"), Presence::Away { .. }), "{told:#?}");
    let c = centre(&b, "Red line");
    assert!(near(c.x, 119.0), "ran its normal 20 cm, not 40: {c:?} {told:#?}");
}

/// Cavalry winners whose runner leaves the table by itself, near its edge.
///
/// ```text
///   y=120  ================= Red's edge =================
///   y=102   [====== Red line =======]   x 72-108, facing S, Frightened
///   y=100   -------------------------
///                       | 20 cm
///   y=80    [=== Blue horse ===]        cavalry line, Steady, charging
/// ```
///
/// Turn 1: the horse win, Red → 0, the horse "Pursue enemy". Turn 2: Red runs 40 cm north and
/// its body is over the edge before the horse move. "Cavalry will pursue an enemy off the table.
/// The losers are removed from play. The winners are dispersed, but will rally back … after 3
/// turns": this is exactly that — the enemy going off the table with the horse at its heels.
/// Expected: Red removed, the horse dispersed (away).
///
/// (Before the fix that settled this reading, 2026-11-25:) The engine removes Red ("runs off the field") and tells the horse it has "nobody left to
/// pursue": they stand on the table, re-ordered. The same horse, had the runner been 10 cm
/// further from the edge, would be dispersed (`ea_45`); a loser's distance to the edge decides
/// whether the winner is spared the text's dispersal.
#[test]

fn cavalry_winners_follow_a_runner_that_leaves_by_itself_off_the_table() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 80] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 100], status = "frightened" }"#),
        "",
    );
    let c = charge(&b, "Red line");
    let told = turn(&mut b, &[("Blue horse", c)], &[("Red line", Order::Halt)]);
    assert_eq!(status(&b, "Red line"), Status::RunningAway, "{told:#?}");
    assert!(matches!(b.units[unit(&b, "Blue horse")].pending, Pending::Pursue { .. }));
    let told = turn(&mut b, &[], &[]);
    assert_eq!(presence(&b, "Red line"), Presence::Removed, "{told:#?}");
    assert!(matches!(presence(&b, "Blue horse"), Presence::Away { .. }), "dispersed: {told:#?}");
}

/// Rallying a runner while it runs.
///
/// ```text
///   y=100  [====== Red line =======]   facing S, Steady, halt card (holds its fire)
///                       | 18 cm
///   y=80   [====== Blue line ======]   facing N, Running away, centre (90, 79)
///   y=40      (Blue HQ, moved here: within his 60 cm ride)
/// ```
///
/// "2 turns of conspicuous rallying activity by Commander will raise status by one level … the
/// unit must not be under musket fire or within 30 cm of cavalry. It can be moving though."
/// Turn 1: the commander rides to the line; it runs 40 cm south (centre 39). Turn 2: it runs
/// 20 cm (centre 19); the second turn of rallying: 0 → 1, Frightened. Turn 3: no longer running
/// (Frightened "will break and run any moment now" — not yet), it stays where it is.
#[test]
fn a_commander_rallies_a_running_unit_in_two_turns_and_it_stops() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 80], status = "running_away" }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 100] }"#),
        "",
    );
    b.officers[0].at = Point::new(90.0, 40.0);
    let mut chance = Seeded::new(1);
    let mut ev = Vec::new();
    let bl = unit(&b, "Blue line") as u16;
    b.apply(&Action::Ride { unit: Some(bl) }, &mut chance, &mut ev).unwrap();
    let told = turn(&mut b, &[], &[]);
    assert_eq!(status(&b, "Blue line"), Status::RunningAway, "one turn: {told:#?}");
    assert!(near(centre(&b, "Blue line").y, 39.0), "{told:#?}");
    let told = turn(&mut b, &[], &[]);
    assert!(near(centre(&b, "Blue line").y, 19.0), "ran 20 cm while rallied: {told:#?}");
    assert_eq!(status(&b, "Blue line"), Status::Frightened, "two turns: {told:#?}");
    let at = centre(&b, "Blue line");
    let told = turn(&mut b, &[], &[]);
    assert_eq!(centre(&b, "Blue line"), at, "it has stopped running: {told:#?}");
    assert_eq!(presence(&b, "Blue line"), Presence::Here);
}

/// No enemy within its run: it runs from the nearest.
///
/// ```text
///   y=61   [====== Blue line ======]  x 82-118, facing N, Running away      <[Red col] x 170-176
///   y=59                              centre (100, 59)       52 cm          (y 54-66, facing W)
/// ```
///
/// Its run is 40 cm; the Red column is 52 cm off, the only enemy near: "facing away from the
/// enemy" is from it, which stands off its right flank: it faces west and runs 40 cm, centre
/// (60, 59). (Not south to its own edge: the text says away from the enemy.)
#[test]
fn with_no_enemy_within_its_run_it_runs_from_the_nearest() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [100, 60], status = "running_away" }"#),
        &reds(
            r#"{ name = "Red column", kind = "infantry", at = [170, 60], facing = 270, formation = "assault_column" }"#,
        ),
        "",
    );
    let told = turn(&mut b, &[], &[]);
    let c = centre(&b, "Blue line");
    assert!(near(c.x, 60.0) && near(c.y, 59.0), "40 cm west: {c:?} {told:#?}");
    assert!(near(facing(&b, "Blue line"), 270.0));
}
