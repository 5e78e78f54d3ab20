//! One test per rule of the text, on small battles written inline.
#![allow(clippy::unwrap_used, clippy::expect_used)] // tests may panic on what they did not expect

use volley_chance::{Scripted, Seeded};
use volley_core::{GameState, Tally};
use volley_itchy_scratchy::game::Phase;
use volley_itchy_scratchy::model::Kind;
use volley_itchy_scratchy::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::grid::{Area, Dir};

/// A battle on a 10 by 10 grid: `a` and `b` are TOML unit lists for the south side (Blue, its
/// General at [0, 0]) and the north side (Red, its General at [9, 9]); `areas` adds terrain.
fn battle(a: &str, b: &str, areas: &str) -> Battle {
    let text = format!(
        r#"name = "test"
ruleset = "itchy-scratchy"
turn_limit = 30
[table]
width = 10
depth = 10
{areas}
[[sides]]
name = "Blue"
rear_edge = "south"
commander = {{ name = "Blue General", at = [0, 0] }}
units = [{a}]
[[sides]]
name = "Red"
rear_edge = "north"
commander = {{ name = "Red General", at = [9, 9] }}
units = [{b}]
"#
    );
    load(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Index of the unit named `name`.
fn ix(b: &Battle, name: &str) -> u16 {
    b.stat().unit_names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no unit {name}")) as u16
}

fn apply_fn(b: &mut Battle, a: Action, draws: &str) -> Vec<Event> {
    let mut ev = Vec::new();
    let mut s = Scripted::parse(draws).unwrap();
    if let Err(e) = b.apply(&a, &mut s, &mut ev) {
        panic!("{a:?} refused: {e}");
    }
    assert_eq!(s.remaining(), 0, "{a:?} left draws unused");
    ev
}

fn refused_fn(b: &mut Battle, a: Action) -> String {
    let before = b.state_hash();
    let err = b.apply(&a, &mut Seeded::new(1), &mut Vec::new()).expect_err("the action should be refused");
    assert_eq!(b.state_hash(), before, "a refused action changed the state");
    err.to_string()
}

/// Apply an action (worked out before the battle is borrowed) with these draws.
macro_rules! apply {
    ($b:expr, $a:expr, $d:expr) => {{
        let action = $a;
        apply_fn(&mut $b, action, $d)
    }};
}

/// The action is refused and changes nothing; the reason.
macro_rules! refused {
    ($b:expr, $a:expr) => {{
        let action = $a;
        refused_fn(&mut $b, action)
    }};
}

/// Throw for initiative (Blue 6, Red 1) and let Blue go first.
fn blue_first(b: &mut Battle) {
    apply_fn(b, Action::Throw, "6 1");
    apply_fn(b, Action::GoFirst { first: true }, "");
    assert_eq!(b.phase, Phase::Act { side: 0, second: false });
}

fn mv(unit: u16, path: &[[i16; 2]], facing: Dir) -> Action {
    Action::Move { unit, path: path.iter().map(|&a| Area::from(a)).collect(), facing }
}

#[test]
fn strength_points_and_movement_by_unit_type() {
    let b = battle(
        r#"{ name = "I", kind = "infantry", at = [1, 1] }, { name = "D", kind = "dismounted_cavalry", at = [2, 1] },
           { name = "M", kind = "mounted_cavalry", at = [3, 1] }, { name = "G", kind = "machine_guns", at = [4, 1] },
           { name = "A", kind = "artillery", at = [5, 1] }, { name = "T", kind = "transport", at = [6, 1] },
           { name = "Veteran", kind = "infantry", at = [7, 1], sp = 6 }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        "",
    );
    let sp: Vec<u8> = b.units.iter().map(|u| u.sp).collect();
    // Blue's General first, then the units in order; then Red's General and unit.
    assert_eq!(sp, vec![1, 4, 3, 3, 2, 2, 1, 6, 1, 4]);
    let moves: Vec<u8> = b.units.iter().map(|u| u.kind.movement()).collect();
    assert_eq!(moves, vec![3, 2, 2, 3, 2, 2, 2, 2, 3, 2]);
    // Exhaustion Point: half the initial SP, rounded up: Blue 22 -> 11, Red 5 -> 3.
    assert_eq!((b.exhaustion_point(0), b.exhaustion_point(1)), (11, 3));
}

#[test]
fn the_initiative_throw_is_repeated_on_a_tie_and_the_winner_chooses() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [1, 1] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        "",
    );
    let ev = apply!(b, Action::Throw, "3 3 4 4 2 5");
    assert!(
        ev.iter()
            .any(|e| matches!(e, Event::Initiative { throws, winner, .. } if throws.len() == 3 && winner == "Red"))
    );
    assert_eq!(b.phase, Phase::Choose { side: 1 });
    apply!(b, Action::GoFirst { first: false }, "");
    assert_eq!(b.phase, Phase::Act { side: 0, second: false }, "Red chose to go second");
    // A missing die is asked for and changes nothing.
    let mut c = battle(
        r#"{ name = "I", kind = "infantry", at = [1, 1] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        "",
    );
    let before = c.state_hash();
    let err = c.apply(&Action::Throw, &mut Scripted::parse("4").unwrap(), &mut Vec::new()).unwrap_err();
    assert!(err.to_string().contains("needs a d6"), "{err}");
    assert_eq!(c.state_hash(), before);
}

#[test]
fn movement_counts_edges_once_a_turn_and_attacking_costs_an_area() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [1, 1] }, { name = "M", kind = "mounted_cavalry", at = [5, 1] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        "",
    );
    blue_first(&mut b);
    let (i, m) = (ix(&b, "I"), ix(&b, "M"));
    let why = refused!(b, mv(i, &[[2, 2]], Dir::North));
    assert!(why.contains("crosses an edge"), "{why}");
    let why = refused!(b, mv(i, &[[1, 2], [1, 3], [1, 4]], Dir::North));
    assert!(why.contains("2 grid areas"), "{why}");
    apply!(b, mv(i, &[[1, 2], [2, 2]], Dir::East), "");
    assert_eq!((b.units[usize::from(i)].area, b.units[usize::from(i)].facing), (Area::new(2, 2), Dir::East));
    let why = refused!(b, mv(i, &[[2, 3]], Dir::North));
    assert!(why.contains("already moved") || why.contains("had its turn"), "{why}");
    // Cavalry moves 3.
    apply!(b, mv(m, &[[5, 2], [5, 3], [5, 4]], Dir::North), "");
    // A unit that has moved its full allowance may not attack (it costs an area).
    let mut c = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7] }"#,
        "",
    );
    blue_first(&mut c);
    let i = ix(&c, "I");
    apply!(c, mv(i, &[[4, 3], [4, 4]], Dir::North), "");
    let why = refused!(c, Action::Attack { unit: i, target: ix(&c, "R") });
    assert!(why.contains("full allowance"), "{why}");
    // Attacking first leaves one area to move.
    let mut d = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7] }"#,
        "",
    );
    blue_first(&mut d);
    let i = ix(&d, "I");
    apply!(d, Action::Attack { unit: i, target: ix(&d, "R") }, "1 2");
    let why = refused!(d, mv(i, &[[3, 4], [2, 4]], Dir::North));
    assert!(why.contains("one less"), "{why}");
    apply!(d, mv(i, &[[3, 4]], Dir::North), "");
}

#[test]
fn stacking_transport_and_generals_excepted_and_never_with_the_enemy() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [1, 1] }, { name = "J", kind = "infantry", at = [3, 1] },
           { name = "T", kind = "transport", at = [5, 1] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        "",
    );
    blue_first(&mut b);
    let why = refused!(b, mv(ix(&b, "I"), &[[2, 1], [3, 1]], Dir::North));
    assert!(why.contains("friendly"), "{why}");
    apply!(b, mv(ix(&b, "T"), &[[4, 1], [3, 1]], Dir::North), "");
    apply!(b, mv(0, &[[1, 0], [2, 0], [3, 0]], Dir::North), ""); // the General
    apply!(b, mv(ix(&b, "I"), &[[1, 2]], Dir::North), "");
    let mut c = battle(
        r#"{ name = "I", kind = "infantry", at = [5, 5] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 7] }"#,
        "",
    );
    blue_first(&mut c);
    let why = refused!(c, mv(ix(&c, "I"), &[[4, 5], [4, 6], [4, 7]], Dir::North));
    assert!(why.contains("stop") || why.contains("2 grid areas"), "{why}");
}

#[test]
fn a_move_stops_next_to_an_enemy_and_faces_it() {
    let mut b = battle(
        r#"{ name = "M", kind = "mounted_cavalry", at = [5, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 5] }"#,
        "",
    );
    blue_first(&mut b);
    let m = ix(&b, "M");
    // [5, 4] is next to Red at [5, 5]: the cavalry must stop there, not go on.
    let why = refused!(b, mv(m, &[[5, 3], [5, 4], [4, 4]], Dir::West));
    assert!(why.contains("must stop at [5, 4]"), "{why}");
    let why = refused!(b, mv(m, &[[5, 3], [5, 4]], Dir::East));
    assert!(why.contains("must face it"), "{why}");
    apply!(b, mv(m, &[[5, 3], [5, 4]], Dir::North), "");
}

#[test]
fn a_unit_faced_by_an_adjacent_enemy_may_only_withdraw() {
    // Red at [5, 6] faces south onto Blue at [5, 5]; S at [3, 4] faces east onto [4, 4].
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [5, 5] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 6], facing = "south" }, { name = "S", kind = "infantry", at = [3, 4], facing = "east" }"#,
        "",
    );
    blue_first(&mut b);
    let i = ix(&b, "I");
    // Facing the adjacent enemy already (north), it is offered no turn to the way it faces
    // (issue 29, player round 4: "turn 40e Ligne to face north" while it faced north).
    let mut offered = Vec::new();
    volley_core::GameState::candidate_actions(&b, &mut offered);
    assert!(
        !offered.iter().any(|a| matches!(a, Action::Move { unit, path, facing } if *unit == i && path.is_empty() && *facing == Dir::North)),
        "{offered:?}"
    );
    let why = refused!(b, mv(i, &[[4, 5], [4, 6]], Dir::East));
    assert!(why.contains("withdraw"), "{why}");
    let why = refused!(b, mv(i, &[[4, 5], [4, 4]], Dir::North));
    assert!(why.contains("front of another enemy"), "{why}");
    // Said as the text has it: a withdrawal, in areas and a direction.
    assert_eq!(b.describe(&mv(i, &[[5, 4], [5, 3]], Dir::North)), "withdraw I 2 areas south, facing north");
    let ev = apply!(b, mv(i, &[[5, 4], [5, 3]], Dir::North), "");
    assert!(ev.iter().any(|e| e.to_string() == "I withdraws 2 areas south, facing north."), "{ev:?}");
}

#[test]
fn a_withdrawal_goes_farther_with_every_step_never_round_the_flank() {
    // Mounted cavalry C at [5, 5], faced by R at [5, 6] (facing south). Round R's flank to
    // behind it, [6, 5] [6, 6] [6, 7], comes back next to R at [6, 6]: refused. Straight back
    // three areas is a withdrawal.
    //
    //   row 7   .  .  .  .  .  .  x
    //   row 6   .  .  .  .  .  R  x      x: the path refused
    //   row 5   .  .  .  .  .  C  x
    //          c0 c1 c2 c3 c4 c5 c6
    let mut b = battle(
        r#"{ name = "C", kind = "mounted_cavalry", at = [5, 5] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 6], facing = "south" }"#,
        "",
    );
    blue_first(&mut b);
    let c = ix(&b, "C");
    let why = refused!(b, mv(c, &[[6, 5], [6, 6], [6, 7]], Dir::West));
    assert!(why.contains("withdrawing from R, C must move farther from it with every step"), "{why}");
    let why = refused!(b, mv(c, &[[6, 5], [7, 5], [7, 6]], Dir::North));
    assert!(why.contains("farther from it"), "{why}");
    apply!(b, mv(c, &[[6, 5], [7, 5], [8, 5]], Dir::North), "");
}

#[test]
fn an_exhausted_side_moves_towards_no_enemy_unit() {
    // Blue is exhausted. I at [4, 2]; R1 at [4, 5] (3 areas, the nearest) and R2 at [9, 2]
    // (5 areas). East to [5, 2] takes I farther from R1 but nearer R2 (and Red's General at
    // [9, 9]): refused. West is away from all of them.
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 2] }"#,
        r#"{ name = "R1", kind = "infantry", at = [4, 5] }, { name = "R2", kind = "infantry", at = [9, 2] }"#,
        "",
    );
    blue_first(&mut b);
    b.exhausted[0] = Some(1);
    let i = ix(&b, "I");
    let why = refused!(b, mv(i, &[[5, 2]], Dir::East));
    assert!(why.contains("exhausted") && why.contains("[5, 2] is nearer"), "{why}");
    let why = refused!(b, mv(i, &[[4, 1], [5, 1]], Dir::East));
    assert!(why.contains("[5, 1] is nearer"), "step by step: {why}");
    apply!(b, mv(i, &[[3, 2]], Dir::West), "");
}

#[test]
fn an_attack_needs_range_arc_sight_and_the_cover_rules() {
    // I at [5, 4] faces north with rifles (range 3). Woods at [5, 6] and [5, 7], and at [2, 5]
    // and [2, 6] where W stands.
    //
    //   row 8   .  .  B  .  .  F  .  .  .
    //   row 7   .  .  .  .  .  D# .  .  .      # woods
    //   row 6   .  .  #  .  .  E# .  .  .
    //   row 5   .  .  W# .  .  .  .  .  .
    //   row 4   .  .  .  .  .  I  .  .  S
    //          c0 c1 c2 c3 c4 c5 c6 c7 c8
    let woods = r#"[[rules.areas]]
kind = "woods"
at = [[5, 6], [5, 7], [2, 5], [2, 6]]"#;
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [5, 4] }, { name = "W", kind = "infantry", at = [2, 5] }"#,
        r#"{ name = "Far", kind = "infantry", at = [5, 8] }, { name = "Edge", kind = "infantry", at = [5, 6] }, { name = "Deep", kind = "infantry", at = [5, 7] }, { name = "Side", kind = "infantry", at = [8, 4] }, { name = "Beyond", kind = "infantry", at = [2, 8] }"#,
        woods,
    );
    blue_first(&mut b);
    let i = ix(&b, "I");
    let names = b.stat().unit_names.clone();
    let at = move |t: &str| Action::Attack { unit: i, target: names.iter().position(|n| n == t).unwrap() as u16 };
    let why = refused!(b, at("Far"));
    assert!(why.contains("reach 3"), "{why}");
    let why = refused!(b, at("Side"));
    assert!(why.contains("arc"), "{why}");
    // The first area of woods along the line of fire may be attacked at any range the weapon
    // has (here 2 areas: 4 dice), the second may not.
    assert!(b.validate(&at("Edge")).is_ok());
    let s = b.attack_situation(0, i, ix(&b, "Edge")).unwrap();
    assert!(s.target_in_cover && s.range == 2);
    let why = refused!(b, at("Deep"));
    assert!(why.contains("1 grid area into woods"), "{why}");
    // A unit in the woods, not at its edge in the direction it faces, cannot shoot out.
    let w = ix(&b, "W");
    let why = refused!(b, Action::Attack { unit: w, target: ix(&b, "Beyond") });
    assert!(why.contains("edge of its cover"), "{why}");
    // One area into the woods from next to it is allowed too.
    let mut c = battle(
        r#"{ name = "I", kind = "infantry", at = [5, 5] }"#,
        r#"{ name = "Wood", kind = "infantry", at = [5, 6] }"#,
        woods,
    );
    blue_first(&mut c);
    assert!(c.validate(&Action::Attack { unit: ix(&c, "I"), target: ix(&c, "Wood") }).is_ok());
}

#[test]
fn guns_shell_a_town_at_range_but_not_a_fort_behind_a_fort() {
    // Rifled field artillery (6 areas) at [4, 1] facing north; a town at [4, 5] and a fort of
    // two areas at [6, 4] and [6, 5].
    let areas = r#"[[rules.areas]]
kind = "built_up"
at = [[4, 5]]
[[rules.areas]]
kind = "fortification"
at = [[6, 4], [6, 5]]"#;
    let mut b = battle(
        r#"{ name = "Guns", kind = "artillery", at = [4, 1] }"#,
        r#"{ name = "Town", kind = "infantry", at = [4, 5] }, { name = "Front of fort", kind = "infantry", at = [6, 4] }, { name = "Back of fort", kind = "infantry", at = [6, 5] }"#,
        areas,
    );
    blue_first(&mut b);
    let g = ix(&b, "Guns");
    assert!(
        b.validate(&Action::Attack { unit: g, target: ix(&b, "Town") }).is_ok(),
        "4 areas into the town's first area"
    );
    assert!(b.validate(&Action::Attack { unit: g, target: ix(&b, "Front of fort") }).is_ok());
    // [6, 5] seen from [4, 1]: the line passes through [5, 2], [5, 3], [6, 4]: the fort's other area.
    let why = refused!(b, Action::Attack { unit: g, target: ix(&b, "Back of fort") });
    assert!(why.contains("crosses a fortification at [6, 4]") && why.contains("1 grid area into"), "{why}");
}

#[test]
fn a_line_of_fire_through_the_corner_where_two_woods_meet_is_blocked() {
    // Machine guns I at [2, 2] (range 4) face north; R at [4, 4] is 4 areas off and within 60°
    // of the facing (45°). The line from centre to centre passes exactly through the
    // corners at [2.5, 2.5] and [3.5, 3.5], entering [3, 3].
    //
    //   row 4   .  .  .  .  R
    //   row 3   .  .  #  .  .
    //   row 2   .  .  I  #  .
    //          c0 c1 c2 c3 c4
    // Woods at [2, 3] and [3, 2] meet at the corner [2.5, 2.5]: the line passes between them,
    // through no wood, but the two woods close the gap: blocked.
    let mut b = battle(
        r#"{ name = "I", kind = "machine_guns", at = [2, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 4], facing = "south" }"#,
        "[[rules.areas]]\nkind = \"woods\"\nat = [[2, 3], [3, 2]]",
    );
    blue_first(&mut b);
    let why = refused!(b, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") });
    assert!(why.contains("corner where woods at [3, 2] and woods at [2, 3] meet"), "{why}");
    // One wood at the corner leaves the gap open.
    let mut b = battle(
        r#"{ name = "I", kind = "machine_guns", at = [2, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 4], facing = "south" }"#,
        "[[rules.areas]]\nkind = \"woods\"\nat = [[2, 3]]",
    );
    blue_first(&mut b);
    assert!(b.validate(&Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") }).is_ok());
}

#[test]
fn line_of_sight_is_blocked_by_woods_buildings_and_units() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [5, 3] }, { name = "J", kind = "infantry", at = [3, 3] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 5] }, { name = "S", kind = "infantry", at = [3, 5] }, { name = "Screen", kind = "infantry", at = [3, 4], facing = "east" }"#,
        "[[rules.areas]]\nkind = \"built_up\"\nat = [[5, 4]]",
    );
    blue_first(&mut b);
    let why = refused!(b, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") });
    assert!(why.contains("no line of sight: a built-up area at [5, 4]"), "{why}");
    let why = refused!(b, Action::Attack { unit: ix(&b, "J"), target: ix(&b, "S") });
    assert!(why.contains("a unit stands"), "{why}");
}

#[test]
fn a_general_adds_two_dice_and_can_fall_with_the_unit_he_stands_with() {
    // Blue's General stands with the attacking infantry; Red's with its target.
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [0, 1] }"#,
        r#"{ name = "R", kind = "infantry", at = [0, 3], facing = "south" }"#,
        "",
    );
    b.units[0].area = Area::new(0, 1);
    let red_general = b.units.iter().position(|u| u.side == 1 && u.kind == Kind::General).unwrap();
    b.units[red_general].area = Area::new(0, 3);
    blue_first(&mut b);
    // Rifles at range 2: 4 dice + 2 for the General = 6: the author's 1 1 1 4 4 5.
    let ev = apply!(b, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") }, "1 1 1 4 4 5");
    assert!(ev.iter().any(|e| matches!(e, Event::LostSp { unit, left: 3 } if unit == "R")), "{ev:?}");
    assert!(ev.iter().any(|e| matches!(e, Event::Destroyed { unit } if unit == "Red General")), "{ev:?}");
    assert_eq!(b.units[red_general].sp, 0);
    // One attack a turn.
    let why = refused!(b, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") });
    assert!(why.contains("already attacked"), "{why}");
}

#[test]
fn a_target_loses_at_most_one_point_and_is_removed_at_zero() {
    let mut b = battle(
        r#"{ name = "G", kind = "machine_guns", at = [4, 4] }"#,
        r#"{ name = "T", kind = "transport", at = [4, 5], facing = "west" }, { name = "R", kind = "infantry", at = [8, 8] }"#,
        "",
    );
    blue_first(&mut b);
    // 8 dice with two doubles of 2: still one Strength Point.
    let ev = apply!(b, Action::Attack { unit: ix(&b, "G"), target: ix(&b, "T") }, "2 2 3 3 2 2 5 6");
    assert!(ev.iter().any(|e| matches!(e, Event::Destroyed { unit } if unit == "T")), "{ev:?}");
    assert!(!b.units[usize::from(ix(&b, "T"))].alive());
    assert_eq!(b.sp_lost(1), 1);
}

#[test]
fn exhaustion_stops_advances_and_both_exhausted_end_the_battle() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 2], sp = 1 }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7], sp = 1 }"#,
        "",
    );
    // Blue: General 1 + 1 = 2 SP, Exhaustion Point 1. Red the same.
    let r = usize::from(ix(&b, "R"));
    b.units[r].sp = 1;
    blue_first(&mut b);
    b.units[0].sp = 0; // Blue's General falls (as if by an attack)
    apply!(b, Action::EndHalf, "");
    let ev = apply!(b, Action::EndHalf, "");
    assert!(
        ev.iter().any(|e| matches!(e, Event::Exhausted { side, lost: 1, point: 1, .. } if side == "Blue")),
        "{ev:?}"
    );
    assert!(b.exhausted[0].is_some() && b.exhausted[1].is_none());
    // Exhausted, Blue may not move towards the enemy, but may move away and still shoot.
    apply!(b, Action::Throw, "6 2");
    apply!(b, Action::GoFirst { first: true }, "");
    let i = ix(&b, "I");
    let why = refused!(b, mv(i, &[[4, 3]], Dir::North));
    assert!(why.contains("exhausted"), "{why}");
    apply!(b, mv(i, &[[3, 2]], Dir::North), "");
    // Red loses its General too: both exhausted, the battle ends; equal shares lost: a draw.
    let rg = b.units.iter().position(|u| u.side == 1 && u.kind == Kind::General).unwrap();
    b.units[rg].sp = 0;
    apply!(b, Action::EndHalf, "");
    let ev = apply!(b, Action::EndHalf, "");
    assert!(ev.iter().any(|e| matches!(e, Event::BattleOver { .. })), "{ev:?}");
    let o = b.outcome().unwrap();
    assert_eq!(o.winner, None, "{o:?}");
    assert!(o.reason.contains("both sides are exhausted"), "{o:?}");
    assert_eq!(b.tally(0), (2, 1, 0));
}

#[test]
fn native_troops_charge_without_losing_movement_only_as_an_addition_to_the_text() {
    // The text gives native troops no rule (the author meant to add a charge bonus and did
    // not): by default a hand-held weapon's attack costs an area like any other.
    let mut b = battle(
        r#"{ name = "Impi", kind = "infantry", at = [4, 3], weapon = "hand_held" }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 5], facing = "south" }"#,
        "",
    );
    blue_first(&mut b);
    assert_eq!(b.units[usize::from(ix(&b, "Impi"))].allowance(true), 1);
    // Marking them native without the option is refused, at the unit.
    let text = format!(
        "name = \"t\"\nruleset = \"itchy-scratchy\"\n[table]\nwidth = 10\ndepth = 10\n[[sides]]\nname = \"Blue\"\nrear_edge = \"south\"\ncommander = {{ name = \"G\", at = [0, 0] }}\nunits = [\n  {}\n]\n[[sides]]\nname = \"Red\"\nrear_edge = \"north\"\ncommander = {{ name = \"H\", at = [9, 9] }}\nunits = [{{ name = \"R\", kind = \"infantry\", at = [4, 5] }}]\n",
        r#"{ name = "Impi", kind = "infantry", at = [4, 3], weapon = "hand_held", native = true }"#
    );
    let err = load(&Source::new("t.toml", text)).map(|_| ()).unwrap_err().to_string();
    assert!(err.contains("t.toml:11:3") && err.contains("native_charge"), "{err}");
    // With [rules] native_charge, the addition: the charge costs no area.
    let mut b = battle(
        r#"{ name = "Impi", kind = "infantry", at = [4, 3], weapon = "hand_held", native = true }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 5], facing = "south" }"#,
        "[rules]\nnative_charge = true",
    );
    blue_first(&mut b);
    let u = ix(&b, "Impi");
    apply!(b, mv(u, &[[4, 4]], Dir::North), "");
    apply!(b, Action::Attack { unit: u, target: ix(&b, "R") }, "1 2 3 4");
    assert_eq!(b.units[usize::from(u)].allowance(true), 2, "the charge costs no area");
}

#[test]
fn units_act_one_after_another() {
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [6, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 6] }"#,
        "",
    );
    blue_first(&mut b);
    let (i, j) = (ix(&b, "I"), ix(&b, "J"));
    // I may move and then attack...
    apply!(b, mv(i, &[[4, 5]], Dir::North), "");
    // ...but once J acts, I's turn is over.
    apply!(b, mv(j, &[[6, 5]], Dir::North), "");
    let why = refused!(b, Action::Attack { unit: i, target: ix(&b, "R") });
    assert!(why.contains("had its turn"), "{why}");
}

#[test]
fn woods_buildings_and_fortifications_are_cover() {
    let fort = "[[rules.areas]]\nkind = \"fortification\"\nat = [[4, 6]]";
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 5] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 6] }"#,
        fort,
    );
    blue_first(&mut b);
    let s = b.attack_situation(0, ix(&b, "I"), ix(&b, "R")).unwrap();
    assert!(s.target_in_cover);
    // A double 4 alone does not hit infantry in cover; with another double it does.
    let mut c = b.clone();
    let ev = apply!(c, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") }, "4 4 1 2 3 6");
    assert!(!ev.iter().any(|e| matches!(e, Event::LostSp { .. })), "{ev:?}");
    let ev = apply!(b, Action::Attack { unit: ix(&b, "I"), target: ix(&b, "R") }, "4 4 1 1 3 6");
    assert!(ev.iter().any(|e| matches!(e, Event::LostSp { .. })), "{ev:?}");
}

#[test]
fn terrain_off_the_grid_is_one_error_each_at_its_table() {
    // A rect over the whole i16 range and a list with two areas off a 10 by 10 grid: one error
    // each, at the [[rules.areas]] that holds it, in the rules' words, and at once.
    let text = r#"name = "t"
ruleset = "itchy-scratchy"
[table]
width = 10
depth = 10
[[rules.areas]]
kind = "built_up"
rect = [-32768, -32768, 32767, 32767]
[[rules.areas]]
kind = "woods"
at = [[100, 100], [2, 2], [10, 3]]
[[sides]]
name = "Blue"
rear_edge = "south"
commander = { name = "G", at = [0, 0] }
units = [{ name = "I", kind = "infantry", at = [4, 3] }]
[[sides]]
name = "Red"
rear_edge = "north"
commander = { name = "H", at = [9, 9] }
units = [{ name = "R", kind = "infantry", at = [4, 5] }]
"#;
    let err = load(&Source::new("t.toml", text)).map(|_| ()).unwrap_err().to_string();
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(
        lines[0].starts_with(
            "t.toml:6:1: [[rules.areas]] of a built-up area: rect [-32768, -32768, 32767, 32767] reaches off"
        ),
        "{err}"
    );
    assert!(
        lines[1]
            .starts_with("t.toml:9:1: [[rules.areas]] of woods: area [100, 100] (and 1 more) is off the 10 by 10 grid"),
        "{err}"
    );
}

// ----- The second reading (docs/second-reading/itchy-scratchy.md), case by case -----

/// Whether Blue's `a` may attack Red's `t` on this battle, and the dice and cover if so.
fn may_attack(b: &Battle, a: &str, t: &str) -> Result<(u8, bool), String> {
    b.attack_situation(0, ix(b, a), ix(b, t)).map(|s| (s.range, s.target_in_cover)).map_err(|e| e.to_string())
}

fn woods(at: &[[i16; 2]]) -> String {
    let list: Vec<String> = at.iter().map(|a| format!("[{}, {}]", a[0], a[1])).collect();
    format!("[[rules.areas]]\nkind = \"woods\"\nat = [{}]", list.join(", "))
}

#[test]
fn is_01_02_range_counts_edges_and_a_diagonal_is_two_away() {
    let mut b = battle(
        r#"{ name = "F", kind = "infantry", at = [4, 4] }, { name = "H", kind = "infantry", at = [2, 2], weapon = "hand_held" }"#,
        r#"{ name = "D", kind = "infantry", at = [5, 5] }, { name = "E", kind = "infantry", at = [3, 3] }"#,
        "",
    );
    blue_first(&mut b);
    assert_eq!(may_attack(&b, "F", "D").map(|x| x.0), Ok(2), "the diagonal neighbour is range 2");
    assert!(may_attack(&b, "H", "E").unwrap_err().contains("reach 1"), "hand-held weapons reach no diagonal");
}

#[test]
fn is_03_04_the_arc_is_60_degrees_between_centres() {
    // F faces north at [4, 2] with rifles: [6, 3] is 2 across and 1 forward (63.4°): out of
    // the arc; [5, 3] (45°) is in. Artillery at [1, 1]: [4, 3] is 3 across, 2 forward (56.3°): in.
    let mut b = battle(
        r#"{ name = "F", kind = "infantry", at = [4, 2] }, { name = "K", kind = "artillery", at = [1, 1] }"#,
        r#"{ name = "Wide", kind = "infantry", at = [6, 3] }, { name = "In", kind = "infantry", at = [5, 3] }, { name = "Far", kind = "infantry", at = [4, 3] }"#,
        "",
    );
    blue_first(&mut b);
    assert!(may_attack(&b, "F", "Wide").unwrap_err().contains("arc"));
    assert!(may_attack(&b, "F", "In").is_ok());
    assert_eq!(may_attack(&b, "K", "Far").map(|x| x.0), Ok(5));
}

#[test]
fn is_08_11_the_first_area_of_woods_and_not_beyond_or_through() {
    // IS-08: F at [1, 0] facing north; woods at [0, 2], [1, 2], [2, 2], [1, 3].
    let w = woods(&[[0, 2], [1, 2], [2, 2], [1, 3]]);
    let mut b = battle(
        r#"{ name = "F", kind = "infantry", at = [1, 0] }"#,
        r#"{ name = "T", kind = "infantry", at = [1, 2] }"#,
        &w,
    );
    blue_first(&mut b);
    assert_eq!(may_attack(&b, "F", "T"), Ok((2, true)), "(a) the first area of woods: 4 dice, in cover");
    let mut b = battle(
        r#"{ name = "F", kind = "infantry", at = [1, 0] }"#,
        r#"{ name = "T", kind = "infantry", at = [1, 3] }"#,
        &w,
    );
    blue_first(&mut b);
    assert!(may_attack(&b, "F", "T").unwrap_err().contains("1 grid area into"), "(b) two areas in");
    // IS-11: woods at [1, 1] and [1, 3]: a target in the open behind the wood, or in the
    // second wood, may not be attacked.
    let w = woods(&[[1, 1], [1, 3]]);
    for t in [[1, 2], [1, 3]] {
        let red = format!(r#"{{ name = "T", kind = "infantry", at = [{}, {}] }}"#, t[0], t[1]);
        let mut b = battle(r#"{ name = "F", kind = "infantry", at = [1, 0] }"#, &red, &w);
        blue_first(&mut b);
        assert!(may_attack(&b, "F", "T").is_err(), "target at {t:?}");
    }
}

#[test]
fn is_10_guns_into_a_town_straight_and_oblique() {
    // K, rifled field artillery at [2, 0] facing north; a town at [2, 4], [2, 5], [3, 4].
    let town = "[[rules.areas]]\nkind = \"built_up\"\nat = [[2, 4], [2, 5], [3, 4]]";
    let one = |t: [i16; 2]| {
        let red = format!(r#"{{ name = "T", kind = "infantry", at = [{}, {}] }}"#, t[0], t[1]);
        let mut b = battle(r#"{ name = "K", kind = "artillery", at = [2, 0] }"#, &red, town);
        blue_first(&mut b);
        may_attack(&b, "K", "T")
    };
    assert_eq!(one([2, 4]), Ok((4, true)), "T1: 4 areas into the town's first area");
    assert!(one([2, 5]).unwrap_err().contains("1 grid area into"), "T2: the second area of the town");
    assert_eq!(one([3, 4]), Ok((5, true)), "T3: oblique, the line crosses only open areas first");
}

#[test]
fn is_12_13_corners_between_two_woods_block_and_one_does_not() {
    let one = |w: &[[i16; 2]], t: [i16; 2], gun: [i16; 2]| {
        let blue = format!(r#"{{ name = "K", kind = "artillery", at = [{}, {}] }}"#, gun[0], gun[1]);
        let red = format!(r#"{{ name = "T", kind = "infantry", at = [{}, {}] }}"#, t[0], t[1]);
        let mut b = battle(&blue, &red, &woods(w));
        blue_first(&mut b);
        may_attack(&b, "K", "T")
    };
    // IS-12: K at [0, 0]; T at [2, 2]; woods at [2, 1] and [1, 2] meet at the corner the line
    // passes through: blocked. Only [2, 1]: allowed, T in the open. [1, 1]: blocked.
    assert!(one(&[[2, 1], [1, 2]], [2, 2], [0, 0]).is_err());
    assert_eq!(one(&[[2, 1]], [2, 2], [0, 0]), Ok((4, false)));
    assert!(one(&[[1, 1]], [2, 2], [0, 0]).is_err());
    assert_eq!(one(&[[2, 1], [2, 2]], [2, 2], [0, 0]), Ok((4, true)), "T itself in woods, one wood at the corner");
    // IS-13: T in woods at [1, 1], woods at [1, 0]; the corner [0.5, 0.5] is between [1, 0]
    // (woods) and [0, 1] (open): allowed. With [0, 1] woods too: blocked.
    let blue_at = [0, 0];
    assert_eq!(one(&[[1, 0], [1, 1]], [1, 1], blue_at), Ok((2, true)));
    assert!(one(&[[1, 0], [1, 1], [0, 1]], [1, 1], blue_at).is_err());
}

#[test]
fn is_14_15_17_attacking_out_of_cover() {
    // IS-14: woods fill rows 0 and 1 of columns 0 to 2; U at [1, 1] on the edge may attack T at
    // [1, 3]; V at [1, 0] behind it may not.
    let w = woods(&[[0, 0], [1, 0], [2, 0], [0, 1], [1, 1], [2, 1]]);
    let mut b = battle(
        r#"{ name = "U", kind = "infantry", at = [1, 1] }, { name = "V", kind = "infantry", at = [1, 0] }"#,
        r#"{ name = "T", kind = "infantry", at = [1, 3] }, { name = "S", kind = "infantry", at = [2, 3] }"#,
        &w,
    );
    blue_first(&mut b);
    assert_eq!(may_attack(&b, "U", "T"), Ok((2, false)));
    assert_eq!(may_attack(&b, "U", "S"), Ok((3, false)));
    assert!(may_attack(&b, "V", "T").is_err());
    // IS-15: heavy guns in woods at [0, 0], woods at [1, 0], open at [0, 1]; T at [3, 2]
    // (56.3°): the line leaves through the wood at [1, 0]: no attack.
    let mut b = battle(
        r#"{ name = "G", kind = "artillery", at = [0, 0], weapon = "rifled_heavy_artillery" }"#,
        r#"{ name = "T", kind = "infantry", at = [3, 2] }"#,
        &woods(&[[0, 0], [1, 0]]),
    );
    blue_first(&mut b);
    assert!(may_attack(&b, "G", "T").unwrap_err().contains("woods at [1, 0]"));
    // IS-17: out of a town's edge, across open ground, into a wood's first area.
    let areas = format!(
        "{}\n[[rules.areas]]\nkind = \"built_up\"\nat = [[0, 0], [1, 0], [2, 0]]",
        woods(&[[0, 2], [1, 2], [2, 2]])
    );
    let mut b = battle(
        r#"{ name = "F", kind = "infantry", at = [1, 0] }"#,
        r#"{ name = "T", kind = "dismounted_cavalry", at = [1, 2] }"#,
        &areas,
    );
    blue_first(&mut b);
    assert_eq!(may_attack(&b, "F", "T"), Ok((2, true)));
}

#[test]
fn oblique_fire_out_of_a_wood_is_judged_in_the_direction_of_fire_not_the_facing() {
    // IS-15 the other way round: heavy guns G in woods at [0, 0] facing north, with woods ahead
    // at [0, 1] and open ground beside at [1, 0]. The area ahead is not where the guns fire:
    // at T (56.3° off the facing) the line leaves through the open east side, at U (45°) through
    // the corner between the wood ahead and the open area beside it; both are fired at from the
    // edge of the wood (interpretation 10). Straight ahead, at V, the line enters the wood ahead.
    //
    //   row 3   V  .  .  .
    //   row 2   .  .  U  T      (T and U in separate battles: U stands on the line to T)
    //   row 1   #  .  .  .      # woods
    //   row 0   G# .  .  .
    //          c0 c1 c2 c3
    let guns = |woods_at: &[[i16; 2]], target: [i16; 2]| {
        let red = format!(
            r#"{{ name = "T", kind = "infantry", at = [{}, {}] }}, {{ name = "V", kind = "infantry", at = [0, 3] }}"#,
            target[0], target[1]
        );
        let mut b = battle(
            r#"{ name = "G", kind = "artillery", at = [0, 0], weapon = "rifled_heavy_artillery" }"#,
            &red,
            &woods(woods_at),
        );
        b.units[0].area = Area::new(9, 0); // Blue's General out of the way
        blue_first(&mut b);
        b
    };
    let wood = [[0, 0], [0, 1]];
    assert_eq!(may_attack(&guns(&wood, [3, 2]), "G", "T"), Ok((5, false)));
    assert_eq!(may_attack(&guns(&wood, [2, 2]), "G", "T"), Ok((4, false)));
    let why = may_attack(&guns(&wood, [3, 2]), "G", "V").unwrap_err();
    assert!(why.contains("edge of its cover") && why.contains("woods at [0, 1]"), "{why}");
    // With the side wood too, the line leaves through woods either way.
    let wider = [[0, 0], [0, 1], [1, 0]];
    let why = may_attack(&guns(&wider, [3, 2]), "G", "T").unwrap_err();
    assert!(why.contains("edge of its cover") && why.contains("woods at [1, 0]"), "{why}");
    let why = may_attack(&guns(&wider, [2, 2]), "G", "T").unwrap_err();
    assert!(why.contains("corner"), "{why}");
}

#[test]
fn is_35_36_only_a_faced_unit_is_kept_from_the_enemy_s_rear() {
    // IS-36: a unit beside an enemy's flank (not faced) may go round to its rear; it stops on
    // entering the area behind the enemy, which is adjacent to it.
    let mut b = battle(
        r#"{ name = "C", kind = "mounted_cavalry", at = [4, 5] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 5], facing = "south" }"#,
        "",
    );
    blue_first(&mut b);
    let c = ix(&b, "C");
    apply!(b, mv(c, &[[4, 6], [5, 6]], Dir::South), "");
}

#[test]
fn is_41_no_unit_passes_through_an_enemy() {
    let mut b = battle(
        r#"{ name = "C", kind = "mounted_cavalry", at = [5, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 3], facing = "east" }"#,
        "",
    );
    blue_first(&mut b);
    let why = refused!(b, mv(ix(&b, "C"), &[[5, 3], [5, 4]], Dir::North));
    assert!(why.contains("holds an enemy unit"), "{why}");
}

#[test]
fn a_move_is_told_in_areas_a_direction_and_the_ground_it_ends_in_or_next_to() {
    // A river along row 5 with a bridge at [4, 5]; the mill, an objective, at [4, 4] before it.
    let ground = r#"
[[rules.areas]]
kind = "river"
rect = [0, 5, 3, 5]

[[rules.areas]]
kind = "river"
rect = [5, 5, 9, 5]

[[rules.areas]]
kind = "bridge"
at = [[4, 5]]

[[rules.areas]]
kind = "woods"
at = [[8, 2]]

[[objectives]]
name = "the mill"
rect = [4, 4, 5, 5]
"#;
    let mut b = battle(
        r#"{ name = "I", kind = "infantry", at = [4, 2] }, { name = "J", kind = "infantry", at = [1, 0] }"#,
        r#"{ name = "R", kind = "infantry", at = [5, 8] }"#,
        ground,
    );
    blue_first(&mut b);
    let (i, j) = (ix(&b, "I"), ix(&b, "J"));
    let say = |b: &Battle, a: Action| b.describe(&a);
    assert_eq!(say(&b, mv(i, &[[4, 3]], Dir::North)), "move I 1 area north, next to the mill, facing north");
    assert_eq!(
        say(&b, mv(i, &[[5, 2], [6, 2]], Dir::East)),
        "move I 2 areas east, to 2 areas west of the woods, facing east"
    );
    assert_eq!(
        say(&b, mv(i, &[[3, 2], [3, 3]], Dir::North)),
        "move I 2 areas north-west, to 2 areas south-west of the mill, facing north"
    );
    assert_eq!(say(&b, mv(j, &[[1, 1]], Dir::North)), "move J 1 area north, facing north");
    assert_eq!(say(&b, mv(i, &[], Dir::East)), "turn I to face east");
    let text = say(&b, mv(i, &[[4, 3], [4, 4]], Dir::North));
    assert_eq!(text, "move I 2 areas north, to the mill, facing north");
    let ev = apply!(b, mv(i, &[[4, 3], [4, 4]], Dir::North), "");
    assert!(ev.iter().any(|e| e.to_string() == "I moves 2 areas north, to the mill, facing north."), "{ev:?}");
}
