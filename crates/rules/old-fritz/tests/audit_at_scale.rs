//! The audit at scale (audit/old_fritz.py over hundreds of battles): each finding the engine
//! departed from the text on, as a small battle played with scripted dice.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Scripted;
use volley_core::GameState;
use volley_old_fritz::model::Order;
use volley_old_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::Point;

/// A battle on a 96" by 96" table: side "A" (rear south) with wing "a", side "B" (rear north)
/// with wing "b", both in reserve. Units are inline tables; `wing = "a"` / `"b"` and quality C
/// are added.
fn battle(a: &[&str], b: &[&str]) -> Battle {
    let units = |us: &[&str], wing: &str| {
        us.iter()
            .map(|u| format!("{}, wing = \"{wing}\", quality = \"C\" }}", u.trim_end_matches('}')))
            .collect::<Vec<_>>()
            .join(",\n  ")
    };
    let text = format!(
        "name = \"test\"\nruleset = \"old-fritz\"\nturn_limit = 40\n\n[table]\nwidth = 96\ndepth = 96\n\n\
[[rules.wings]]\nside = \"A\"\nname = \"a\"\ngeneral = \"Ga\"\n\n[[rules.wings]]\nside = \"B\"\nname = \"b\"\ngeneral = \"Gb\"\n\n\
[[sides]]\nname = \"A\"\nrear_edge = \"south\"\ncommander = {{ name = \"ca\", at = [1, 1] }}\nunits = [\n  {}\n]\n\n\
[[sides]]\nname = \"B\"\nrear_edge = \"north\"\ncommander = {{ name = \"cb\", at = [1, 95] }}\nunits = [\n  {}\n]\n",
        units(a, "a"),
        units(b, "b")
    );
    load(&Source::new("test.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

/// Far-off enemies that take no part (so that one beaten unit does not break its army).
const FAR: [&str; 3] = [
    r#"{ name = "far", kind = "line_infantry", at = [90, 90] }"#,
    r#"{ name = "far2", kind = "line_infantry", at = [80, 90] }"#,
    r#"{ name = "far3", kind = "line_infantry", at = [70, 90] }"#,
];

/// Both sides end their orders: one bound is carried out with exactly `dice`.
fn bound(b: &mut Battle, dice: &[u32]) -> Vec<Event> {
    let mut script = Scripted::new(dice.iter().copied());
    let mut events = Vec::new();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap();
    b.apply(&Action::EndOrders, &mut script, &mut events).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(script.remaining(), 0, "dice left over: {events:?}");
    events
}

/// The gaps of the attackers of the bound's close combats, as the account gives them.
fn combat_gaps(ev: &[Event]) -> Vec<f64> {
    ev.iter()
        .filter_map(|e| if let Event::CloseCombat { fighters, .. } = e { Some(fighters) } else { None })
        .flat_map(|f| f.iter().filter(|f| f.attacker).map(|f| f.gap))
        .collect()
}

/// Finding 1 (section 5a: the forces are moved to within 2½" of each other): an attacker
/// standing 2.53" from its enemy, front to front, closes the last 0.03" before it fights; it
/// does not fight from where it stands.
///
/// ```text
///   b1 (facing south)  ====   y 13.03, front edge 12.78
///                               2.53"
///   a1 (facing north)  ====   y 10, front edge 10.25
/// ```
#[test]
fn an_attacker_a_little_beyond_two_and_a_half_inches_closes_before_it_fights() {
    let a = r#"{ name = "a1", kind = "line_infantry", at = [20, 10] }"#;
    let e = r#"{ name = "b1", kind = "line_infantry", at = [20, 13.03], facing = 180 }"#;
    let mut b = battle(&[a], &[&[e][..], &FAR[..]].concat());
    b.wings[0].order = Order::Attack { at: Point::new(20.0, 13.03) };
    b.wings[0].seq = 1;
    // Attacker 10, defender 1: +9, the defender runs; the winner's pursuit test (d10 10).
    let ev = bound(&mut b, &[10, 1, 10]);
    let gaps = combat_gaps(&ev);
    assert_eq!(gaps.len(), 1, "{ev:?}");
    assert!(gaps[0] <= 2.5 + 1e-6, "fought from {:.3}\" away", gaps[0]);
    assert!((b.units[0].at.y - 10.03).abs() < 1e-3, "it closed to 2½\": {:?}", b.units[0].at);
}

/// Finding 1 again: a line narrows about its centre as it loses figures, so the bombardment
/// between the approach and the combat can leave an attacker on its flank beyond 2½". That one
/// does not fight this bound: it closes again and fights the next.
///
/// ```text
///                b1 (facing south, 12 figures, 2.95" wide: x 18.52..21.48)
///                ======     2½"  | a1 (facing west, its flank edge at x 23.98)
///                                |
///                  g (battery of A, 5" south of b1: canister)
/// ```
/// (b1 is 75 mm wide, 2.953"; a1 stands at x 24.226.) The battery's 2 casualties leave b1 10 figures, 2.46" wide: its east end moves 0.25" west,
/// and a1 stands 2.75" from it.
#[test]
fn an_attacker_the_bombardment_leaves_beyond_two_and_a_half_inches_fights_next_bound() {
    let a = r#"{ name = "a1", kind = "line_infantry", at = [24.2263779528, 13], facing = 270 }"#;
    let g = r#"{ name = "g", kind = "medium_guns", at = [20, 8] }"#;
    let e = r#"{ name = "b1", kind = "line_infantry", at = [20, 13], facing = 180 }"#;
    let mut b = battle(&[a, g], &[&[e][..], &FAR[..]].concat());
    b.units[0].order = Order::Attack { at: Point::new(20.0, 13.0) };
    let gap = |b: &Battle| volley_table::convex_distance(&b.units[0].corners(), &b.units[2].corners());
    assert!((gap(&b) - 2.5).abs() < 1e-7, "{}", gap(&b));
    // The battery: 1 (medium) - d6 1 = 0 at close range: 2 casualties and a green.
    let ev = bound(&mut b, &[1]);
    assert!(ev.iter().any(|e| matches!(e, Event::Bombardment { casualties: 2, .. })), "{ev:?}");
    assert!(combat_gaps(&ev).is_empty(), "fought from beyond 2½\": {:?}", combat_gaps(&ev));
    assert!(gap(&b) > 2.7, "{}", gap(&b));
    assert_eq!(b.units[0].engage, Some(2), "it has come to grips: it engages next bound");
    // Next bound: it closes to 2½" and fights (the battery fires again first, d6 6: -5, nothing;
    // then attacker 10, defender 1: +9, b1 runs; the winner's pursuit test, d10 10).
    let ev = bound(&mut b, &[6, 10, 1, 10]);
    let gaps = combat_gaps(&ev);
    assert_eq!(gaps.len(), 1, "{ev:?}");
    assert!(gaps[0] <= 2.5 + 1e-6, "{}", gaps[0]);
}

/// Finding 2 (section 4: trotting cavalry may not change direction at all): a cavalry pursuer
/// that must turn to follow its enemy walks; only one that goes straight on trots.
///
/// ```text
///        huss runs north, 45" ─┐
///                  huss ▓      │   cuir, facing 45° at the combat, must turn about 40°
///             cuir ▞           │   to follow: it walks 18", it does not trot 36"
/// ```
#[test]
fn cavalry_pursuing_with_a_turn_walks_rather_than_trots() {
    let a = r#"{ name = "cuir", kind = "cuirassiers", at = [16, 10], facing = 45 }"#;
    let afar = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
    let e = r#"{ name = "huss", kind = "hussars", at = [20, 14], facing = 180 }"#;
    let mut b = battle(&[a, afar], &[&[e][..], &FAR[..]].concat());
    b.wings[0].order = Order::Attack { at: Point::new(20.0, 14.0) };
    b.wings[0].seq = 1;
    // 10 against 1 - 2 (the hussars against heavier cavalry): +11 and -11: the hussars run, and
    // the cuirassiers (under orders to attack) pursue.
    let ev = bound(&mut b, &[10, 1]);
    assert!(ev.iter().any(|e| matches!(e, Event::CloseCombat { .. })), "{ev:?}");
    let (from, facing) = (b.units[0].at, b.units[0].facing);
    let ev = bound(&mut b, &[]);
    let turned = volley_table::turn(facing, b.units[0].facing).abs();
    assert!(turned > 10.0, "the pursuer turned {turned}°");
    let moved = b.units[0].at.dist(from);
    assert!(moved > 10.0 && moved <= 18.0 + 1e-6, "the cuirassiers pursued {moved}\" after turning: {ev:?}");
    let rate = ev.iter().find_map(|e| match e {
        Event::Moved { unit, path, .. } if unit == "cuir" => Some(path.rate),
        _ => None,
    });
    assert_eq!(rate, Some(18.0), "{ev:?}");
}

/// Finding 4 (section 10: the wagons get in the way and slow the army's movement): a unit
/// withdrawing across its own wagon park goes at half its withdrawal's pace, as a march does.
///
/// ```text
///   u (withdrawing, rear south)  ▭  y 6
///                                │  3" of its 6" would cross the park
///   park (side A's, 3" in)      [▦]  y 3.5, x 48
/// ```
#[test]
fn a_withdrawal_across_the_wagon_park_is_halved() {
    let afar = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
    let withdraw = |x: f64| {
        let u = format!(r#"{{ name = "u", kind = "line_infantry", at = [{x}, 8] }}"#);
        let mut b = battle(&[&u, afar], &FAR);
        b.units[0].state = volley_old_fritz::model::State::Withdrawing;
        let ev = bound(&mut b, &[]);
        let wagons = ev.iter().any(|e| matches!(e, Event::Withdrew { path: Some(p), .. } if p.wagons));
        (8.0 - b.units[0].at.y, wagons)
    };
    let (gone, wagons) = withdraw(48.0);
    assert!((gone - 3.0).abs() < 1e-6 && wagons, "across the park: {gone}\" (marked {wagons})");
    let (gone, wagons) = withdraw(30.0);
    assert!((gone - 6.0).abs() < 1e-6 && !wagons, "clear of it: {gone}\" (marked {wagons})");
}

/// The audit at scale (finding 5): a unit withdrawing goes back towards its own rear edge unless
/// that brings it nearer the enemy that beat it (or one close by); then the heading nearest the
/// rear that does not, up to square to it (section 7, interpretation 12). Here the winner E
/// stands 2½" behind it: straight back would walk into it; it sidesteps, no nearer.
///
/// ```text
///   y 20   [ u ]   facing north, withdrawing (its rear edge is south)
///   y 17   [ E ]   the enemy that beat it, facing north
/// ```
#[test]
fn a_withdrawal_goes_no_nearer_the_enemy_that_beat_it() {
    let afar = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 20] }"#;
    let e = r#"{ name = "E", kind = "line_infantry", at = [40, 17] }"#;
    let mut b = battle(&[u, afar], &[e, FAR[0], FAR[1], FAR[2]]);
    b.units[0].state = volley_old_fritz::model::State::Withdrawing;
    b.units[0].beaten_by = vec![2];
    let gap = |b: &Battle| volley_table::convex_distance(&b.units[0].corners(), &b.units[2].corners());
    let (before, was) = (gap(&b), b.units[0].at);
    let ev = bound(&mut b, &[]);
    assert!(gap(&b) >= before - 1e-9, "nearer the winner: {before:.2} -> {:.2} {ev:?}", gap(&b));
    assert!(b.units[0].at.dist(was) > 1.0, "it withdrew: {:?} {ev:?}", b.units[0].at);
}

/// The audit at scale (finding 3) and its defensibility reading: a unit may pass through a friend
/// but not end on it (section 4, interpretation 6). Withdrawing 3" straight back, its end would
/// stand on F: it stops where it first stands clear, short of it.
///
/// ```text
///   y 20    [ u ]   withdrawing south 3"
///   y 17.2  [ F ]   a friend, standing
/// ```
#[test]
fn a_withdrawal_does_not_end_on_a_friend() {
    let afar = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 20] }"#;
    let f = r#"{ name = "F", kind = "line_infantry", at = [40, 17.2] }"#;
    let mut b = battle(&[u, f, afar], &FAR);
    b.units[0].state = volley_old_fritz::model::State::Withdrawing;
    let was = b.units[0].at;
    let ev = bound(&mut b, &[]);
    assert!(!volley_table::convex_overlap(&b.units[0].corners(), &b.units[1].corners()), "{:?} {ev:?}", b.units[0].at);
    assert!(b.units[0].at.y < was.y - 1.0, "it withdrew as far as it could: {:?}", b.units[0].at);
}

/// The audit at scale (finding 7): an attacker that engages an enemy standing behind it (it had
/// no room to turn) has the enemy to its rear: −6, as a defender would.
#[test]
fn an_attacker_engaging_an_enemy_behind_it_has_the_enemy_to_its_rear() {
    let afar = r#"{ name = "afar", kind = "line_infantry", at = [90, 5] }"#;
    let u = r#"{ name = "u", kind = "line_infantry", at = [40, 20] }"#;
    let behind = r#"{ name = "E", kind = "line_infantry", at = [40, 17] }"#;
    let b = battle(&[u, afar], &[behind, FAR[0], FAR[1], FAR[2]]);
    let s = b.situation(2, &[0]).unwrap();
    assert!(s.attacker.enemy_to_rear, "E stands behind u");
    let ahead = r#"{ name = "E", kind = "line_infantry", at = [40, 23], facing = 180 }"#;
    let b = battle(&[u, afar], &[ahead, FAR[0], FAR[1], FAR[2]]);
    assert!(!b.situation(2, &[0]).unwrap().attacker.enemy_to_rear, "E stands in front of u");
}
