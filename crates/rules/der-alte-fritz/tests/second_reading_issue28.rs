//! The second reading for issue 28 (`docs/second-reading/der-alte-fritz-issue28.md`, DAF2-01 …
//! DAF2-36): a reader who had not seen the code worked each case by hand from the rule text.
//! Each case is set up here on a small table with the dice given, and asserts what the reader
//! says must happen — or, where the register keeps the engine's reading against the reader's,
//! what the engine does, with why (the interpretation's number) in a comment.
//!
//! Stands are the engine's (the reader's too): foot 1" square with 4 figures, horse 1.5" with 2,
//! a gun 1.5" square (3" deep limbered). Prussians are side 0 (rear south), Austrians side 1
//! (rear north). Dice are the d10s in the order the engine draws them.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_chance::Scripted;
use volley_core::GameState;
use volley_der_alte_fritz::combat::morale_odds;
use volley_der_alte_fritz::events::{ForcedKind, Side};
use volley_der_alte_fritz::game::rally_words;
use volley_der_alte_fritz::model::{Formation, State};
use volley_der_alte_fritz::units::{Arm, Chart, UnitType, worn_out};
use volley_der_alte_fritz::{Action, Battle, Event, Phase, load};
use volley_scenario::Source;
use volley_table::{Point, convex_distance};

// ----- Set-ups -----

/// A battle on a table `w` by `d` inches: the Prussians' `p` units, the Austrians' `a`, then
/// `extra` TOML (terrain, rules).
fn table(w: f64, d: f64, p: &str, a: &str, extra: &str) -> Battle {
    let text = format!(
        r#"name = "issue 28"
ruleset = "der-alte-fritz"
turn_limit = 20
[table]
width = {w}
depth = {d}
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = {{ name = "Frederick", at = [{fx}, 0.5] }}
units = [{p}]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = {{ name = "Daun", at = [{fx}, {dy}] }}
units = [{a}]
{extra}
"#,
        fx = w - 1.0,
        dy = d - 0.5
    );
    load(&Source::new("issue28.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

/// A 100" square table.
fn battle(p: &str, a: &str, extra: &str) -> Battle {
    table(100.0, 100.0, p, a, extra)
}

/// `side`'s movement phase of turn 1, `side` being side A (it moves and charges first).
fn moving(mut b: Battle, side: u8) -> Battle {
    b.turn = 1;
    b.first = side;
    b.phase = Phase::Movement { side };
    b
}

/// `side`'s fire, the second of the turn (the other side is A).
fn firing(mut b: Battle, side: u8) -> Battle {
    b.turn = 1;
    b.first = 1 - side;
    b.phase = Phase::Firing { side };
    b
}

/// Apply `a` with the dice `dice`; every die must be used.
fn apply(b: &mut Battle, a: &Action, dice: &[u32]) -> Vec<Event> {
    let mut c = Scripted::new(dice.iter().copied());
    let mut ev = Vec::new();
    b.apply(a, &mut c, &mut ev).unwrap_or_else(|e| panic!("{a:?}: {e}"));
    assert_eq!(c.remaining(), 0, "every die is used: {ev:#?}");
    ev
}

fn ok(b: &Battle, a: &Action) -> bool {
    b.validate(a).is_ok()
}

fn refusal(b: &Battle, a: &Action) -> String {
    b.validate(a).map_or_else(|e| e.reason, |()| panic!("{a:?} is allowed"))
}

fn texts(ev: &[Event]) -> Vec<String> {
    ev.iter().map(ToString::to_string).collect()
}

/// In `side`'s movement phase (it being side A), unit `c` declares a charge at `t`; every phase
/// is then ended until the melees are over, with `dice` for the charge and whatever follows
/// (two more, 7 and 3, begin the next turn if nothing stops the turn first).
fn charge(b: &mut Battle, c: u16, t: u16, dice: &[u32]) -> Vec<Event> {
    let side = b.units[usize::from(c)].side;
    let mut m = moving(b.clone(), side);
    let mut ev = apply(&mut m, &Action::Charge { unit: c, target: t }, &[]);
    let mut all: Vec<u32> = dice.to_vec();
    all.extend([7, 3]);
    let mut chance = Scripted::new(all);
    while matches!(m.phase, Phase::Movement { .. } | Phase::Firing { .. }) && m.turn == 1 {
        m.apply(&Action::Done, &mut chance, &mut ev).unwrap_or_else(|e| panic!("{e}: {ev:#?}"));
    }
    // Every die given is used: the two for the next turn's initiative too if the turn ended.
    let left = chance.remaining();
    assert!((left == 2 && m.turn == 1) || (left == 0 && m.turn == 2), "{left} dice left: {:#?}", texts(&ev));
    *b = m;
    ev
}

/// The melee of a charge: its event, and each side as fought (if a melee was fought).
fn melee(ev: &[Event]) -> (&Event, Option<&[Side; 2]>) {
    let e = ev.iter().find(|e| matches!(e, Event::Melee { .. })).unwrap_or_else(|| panic!("no melee: {ev:#?}"));
    let Event::Melee { fought, .. } = e else { unreachable!() };
    (e, fought.as_deref())
}

/// Each side's melee chart and number as fought.
fn charts(ev: &[Event]) -> [(Chart, u8); 2] {
    let (_, f) = melee(ev);
    let f = f.unwrap_or_else(|| panic!("no melee fought: {ev:#?}"));
    [(f[0].chart, f[0].number), (f[1].chart, f[1].number)]
}

/// The forced moves of unit `u`: why, inches ordered and gone, where it ended.
fn forced_of(ev: &[Event], u: u16) -> Vec<(ForcedKind, f64, f64, Point, Option<String>)> {
    ev.iter()
        .filter_map(|e| match e {
            Event::Forced { unit, why, ordered, done, to, stopped, .. } if *unit == u => {
                Some((*why, *ordered, *done, *to, stopped.clone()))
            }
            _ => None,
        })
        .collect()
}

fn near(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

const FAR_P: &str = r#"{ name = "IR 9 Far", type = "musketeers", at = [90, 5] }"#;
const SINCERE: &str = r#"[rules]
officers = [{ side = "Austrians", name = "Colonel Sincere", with = "IR Botta" }]"#;

// ----- 1. Rallying a shaken unit -----

/// The Austrians' rally of turn 5 begun (they won the initiative and move first): IR Botta
/// shaken with 4 hits and Colonel Sincere attached.
fn botta_rallying(extra: &str) -> Battle {
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [30, 30], facing = 180, figures = 20 }"#;
    let mut b = battle(FAR_P, a, extra);
    apply(&mut b, &Action::Begin, &[3, 7]);
    b.turn = 5;
    b.units[1].state = State::Shaken;
    b.units[1].shaken_turn = 4;
    b.units[1].hits = 4;
    apply(&mut b, &Action::Initiative { move_first: true }, &[]);
    b
}

#[test]
fn daf2_01_a_leader_rallies_shaken_musketeers_on_chart_c_with_two_dice_three_results() {
    let b = botta_rallying(SINCERE);
    assert_eq!(b.phase, Phase::Rally { side: 1 });
    let rally = Action::Rally { unit: 1 };
    // Good order at once: then the full rate (8" in line), and fire on its own chart.
    let mut g = b.clone();
    let ev = apply(&mut g, &rally, &[2, 5]);
    assert_eq!(g.units[1].state, State::Good, "{:?}", texts(&ev));
    let Event::Morale { test: Some(t), .. } = &ev[0] else { panic!("{ev:#?}") };
    // Chart C (5), not A for its 4 hits (8); two dice, none for the leader.
    assert_eq!((t.chart, t.number, t.dice.len()), (Chart::C, 5, 2));
    apply(&mut g, &Action::Done, &[]);
    assert_eq!(g.phase, Phase::Movement { side: 1 }, "the Prussians have nobody to rally");
    assert_eq!(g.allowance(1, Some(180.0), 180.0, Formation::Line).unwrap().allowance, 8.0);
    // One die failed: still shaken, where it stood.
    let mut s = b.clone();
    apply(&mut s, &rally, &[4, 8]);
    assert_eq!((s.units[1].state, s.units[1].at), (State::Shaken, Point::new(30.0, 30.0)));
    // Both failed: a shaken unit that routs, removed at once — no rout move — and its colonel
    // left unattached where it stood.
    let mut r = b.clone();
    let ev = apply(&mut r, &rally, &[6, 9]);
    assert_eq!(r.units[1].state, State::Removed, "{:?}", texts(&ev));
    assert!(!ev.iter().any(|e| matches!(e, Event::Forced { .. })), "{ev:#?}");
    let sincere = r.officers.iter().find(|o| o.name == "Colonel Sincere").unwrap();
    assert_eq!((sincere.with, sincere.at), (None, Point::new(30.0, 30.0)));
    // The odds, as the umpire is shown them: 1/4, 1/2, 1/4.
    assert_eq!(morale_odds(2, 5), [0.25, 0.5, 0.25]);
    assert!(b.describe(&rally).contains("good order 25%, still shaken 50%, both dice failed and removed 25%"));
}

#[test]
fn daf2_02_the_rally_is_on_chart_c_whatever_the_hits_and_the_hits_stay() {
    // (a) 13 hits: C (5), not E (2): 5 5 passes. The hits stay: a volley's test after one more
    // hit reads chart E.
    let p = r#"{ name = "IR 1", type = "musketeers", at = [30, 24] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [30, 30], facing = 180, figures = 20 }"#;
    let mut b = battle(p, a, SINCERE);
    apply(&mut b, &Action::Begin, &[3, 7]);
    b.units[1].state = State::Shaken;
    b.units[1].hits = 13;
    let mut e = b.clone();
    apply(&mut e, &Action::Initiative { move_first: true }, &[]);
    let ev = apply(&mut e, &Action::Rally { unit: 1 }, &[5, 5]);
    assert_eq!((e.units[1].state, e.units[1].hits), (State::Good, 13), "{:?}", texts(&ev));
    let mut f = firing(e, 0);
    // One hit of six dice; the colonel's die 3 (missed); the test, 3 dice (his die): on E.
    let ev = apply(&mut f, &Action::Fire { unit: 0, target: 1 }, &[1, 10, 10, 10, 10, 10, 3, 1, 1, 1]);
    let Event::Volley { test: Some(t), .. } = &ev[0] else { panic!("{ev:#?}") };
    assert_eq!((t.chart, t.number), (Chart::E, 2));
    // (b) No hits: 6 7 both fail on C (they would pass on A): removed.
    let mut z = b.clone();
    z.units[1].hits = 0;
    apply(&mut z, &Action::Initiative { move_first: true }, &[]);
    apply(&mut z, &Action::Rally { unit: 1 }, &[6, 7]);
    assert_eq!(z.units[1].state, State::Removed);
    // The odds of one rally by type: good order, still shaken, removed.
    for (kinds, odds) in [
        ([UnitType::Grenadiers, UnitType::Cuirassiers].as_slice(), [0.49, 0.42, 0.09]),
        (&[UnitType::Musketeers, UnitType::Dragoons, UnitType::MediumArtillery], [0.25, 0.50, 0.25]),
        (&[UnitType::Garrison, UnitType::Hussars], [0.16, 0.48, 0.36]),
        (&[UnitType::Jagers, UnitType::Cossacks], [0.09, 0.42, 0.49]),
    ] {
        for &k in kinds {
            let got = morale_odds(2, k.profile().morale[Chart::C.index()]);
            assert!(got.iter().zip(odds).all(|(g, o)| near(*g, o, 1e-12)), "{k:?}: {got:?}");
            let words = rally_words(k);
            let pct = odds.map(|o| format!("{:.0}%", o * 100.0));
            assert!(words.contains(&format!("good order {}, still shaken {}", pct[0], pct[1])), "{words}");
        }
    }
}

#[test]
fn daf2_03_a_leader_may_rally_or_not_and_standing_still_a_whole_turn_restores_order() {
    // Turn 4: IR 1's volley shakes IR Botta (1 hit; the colonel's die 3, missed; 1 9 9: one of
    // the two lowest fails). The end of turn 4 does not restore it.
    let p = r#"{ name = "IR 1", type = "musketeers", at = [30, 24] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [30, 30], facing = 180, figures = 20 }"#;
    let mut b = firing(battle(p, a, SINCERE), 0);
    b.turn = 4;
    b.first = 0;
    b.phase = Phase::Firing { side: 0 };
    apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 10, 10, 10, 10, 10, 3, 1, 9, 9]);
    assert_eq!(b.units[1].state, State::Shaken);
    // The rest of turn 4 (nothing to do), and turn 5's initiative: the Prussians win, fire
    // first; the Austrians are A and rally first.
    apply(&mut b, &Action::Done, &[7, 3]);
    assert_eq!((b.turn, b.units[1].state), (5, State::Shaken), "not restored at the end of turn 4");
    apply(&mut b, &Action::Initiative { move_first: false }, &[]);
    assert_eq!(b.phase, Phase::Rally { side: 1 });
    // The attempt is the side's choice ("may"): offered, and not made by ending the phase (no die
    // is thrown: the script has none).
    let mut offered = Vec::new();
    b.candidate_actions(&mut offered);
    assert_eq!(offered, vec![Action::Rally { unit: 1 }, Action::Done]);
    let ev = apply(&mut b, &Action::Done, &[]);
    assert!(!ev.iter().any(|e| matches!(e, Event::Morale { .. })), "{ev:#?}");
    assert_eq!(b.units[1].state, State::Shaken);
    // Turn 5 without a move: at its end IR Botta is back in good order.
    let mut chance = Scripted::new([7, 3]);
    let mut ev = Vec::new();
    while b.turn == 5 {
        b.apply(&Action::Done, &mut chance, &mut ev).unwrap();
    }
    assert_eq!(b.units[1].state, State::Good, "{:?}", texts(&ev));
    assert!(texts(&ev).iter().any(|t| t == "IR Botta has stood a whole turn without moving: its order is restored"));
    // Without a leader there is no rally to offer: the phase passes.
    let mut n = battle(p, a, "");
    apply(&mut n, &Action::Begin, &[3, 7]);
    n.units[1].state = State::Shaken;
    apply(&mut n, &Action::Initiative { move_first: true }, &[]);
    assert_eq!(n.phase, Phase::Movement { side: 1 });
    assert!(refusal(&botta_rallying(""), &Action::Rally { unit: 1 }).contains("not allowed in the movement phase"));
}

#[test]
fn daf2_04_a_routed_unit_has_one_attempt_with_or_without_a_leader_and_no_leaders_die() {
    let a = r#"{ name = "IR Kaiser", type = "musketeers", at = [24, 32], facing = 0, figures = 18 }"#;
    let leader = r#"[rules]
officers = [{ side = "Austrians", name = "Colonel Sincere", with = "IR Kaiser" }]"#;
    for extra in [leader, ""] {
        let start = || {
            let mut b = battle(FAR_P, a, extra);
            apply(&mut b, &Action::Begin, &[3, 7]);
            b.units[1].state = State::Routing;
            b
        };
        // The attempt is made as the side's rally begins: not a choice.
        for (dice, state) in [([1, 4], State::Good), ([3, 7], State::Shaken), ([8, 10], State::Removed)] {
            let mut b = start();
            let ev = apply(&mut b, &Action::Initiative { move_first: true }, &dice);
            assert_eq!(b.units[1].state, state, "{dice:?}: {:?}", texts(&ev));
            let t = ev
                .iter()
                .find_map(|e| match e {
                    Event::Morale { test: Some(t), .. } => Some(t),
                    _ => None,
                })
                .unwrap();
            assert_eq!((t.chart, t.number, t.dice.len()), (Chart::C, 5, 2), "no die for the leader");
            if state == State::Good {
                assert_eq!(b.units[1].facing, 0.0, "still facing north, away from the enemy");
            }
            if state == State::Shaken {
                // Rallied out of the rout, shaken: its leader does not try again this turn.
                assert_eq!(b.phase, Phase::Movement { side: 1 });
                assert_eq!(b.units[1].shaken_turn, b.turn);
            }
        }
    }
    assert_eq!(morale_odds(2, 5), [0.25, 0.5, 0.25]);
}

/// ```text
///   y 40  DR Savoyen (dragoons), facing south, shaken, 3 hits, a leader
///           12.5" between the fronts
///   y 26  CR 8 Rochow (cuirassiers), facing north: 14" + 4" of reach
/// ```
#[test]
fn daf2_05_a_rally_decides_whether_dragoons_may_counter_charge() {
    let p = r#"{ name = "CR 8 Rochow", type = "cuirassiers", at = [30, 26] }"#;
    let a = r#"{ name = "DR Savoyen", type = "dragoons", at = [30, 40], facing = 180 }"#;
    let rules = r#"[rules]
officers = [{ side = "Austrians", name = "Colonel Sincere", with = "DR Savoyen" }]"#;
    let rallied = |dice: [u32; 2]| {
        let mut b = battle(p, a, rules);
        apply(&mut b, &Action::Begin, &[7, 3]);
        b.units[1].state = State::Shaken;
        b.units[1].hits = 3;
        apply(&mut b, &Action::Initiative { move_first: true }, &[]);
        assert_eq!(b.phase, Phase::Rally { side: 1 });
        apply(&mut b, &Action::Rally { unit: 1 }, &dice);
        b
    };
    // (a) 2 3: good order. Charged, the dragoons test to stand (3 dice with their leader) and
    // to counter-charge; passing, both fight on C: cuirassiers 7, dragoons 6.
    let mut b = rallied([2, 3]);
    assert_eq!(b.units[1].state, State::Good);
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 1]);
    let (Event::Melee { at_halt, counter_test, .. }, _) = melee(&ev) else { unreachable!() };
    assert!(!at_halt && counter_test.is_some());
    assert_eq!(charts(&ev), [(Chart::C, 7), (Chart::C, 6)]);
    // (b) 4 9: still shaken. No counter-charge and no test for it: at the halt. Cuirassiers
    // +1 +1: A (9); dragoons −1 −1: E (3). After the melee the dragoons test on E (2): failing
    // both dice, a shaken unit that routs, they are removed.
    let mut b = rallied([4, 9]);
    assert_eq!(b.units[1].state, State::Shaken);
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 1, 1, 5, 9, 9, 6]);
    let (Event::Melee { at_halt, counter_test, .. }, f) = melee(&ev) else { unreachable!() };
    assert!(*at_halt && counter_test.is_none());
    assert_eq!(charts(&ev), [(Chart::A, 9), (Chart::E, 3)]);
    let post = &f.unwrap()[1].post;
    assert_eq!((post.chart, post.number), (Chart::E, 2));
    assert_eq!(b.units[1].state, State::Removed, "{:?}", texts(&ev));
}

// ----- 2. Forced moves -----

/// IR Kaiser (x 21–27, y 19.5–20.5, facing south) routed by IR 1's volley from the south: six
/// hits, 8 9 on chart B. It routs 12" north, about-turned.
fn kaiser_routs(extra: &str) -> (Battle, Vec<Event>) {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [24, 14] }"#;
    let a = r#"{ name = "IR Kaiser", type = "musketeers", at = [24, 20], facing = 180 }"#;
    let mut b = firing(battle(p, a, extra), 0);
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 1, 1, 1, 1, 1, 8, 9]);
    assert_eq!(b.units[1].state, State::Routing, "{:?}", texts(&ev));
    assert_eq!(b.units[1].facing, 0.0, "about-turned, free (not a change of facing at half effect)");
    (b, ev)
}

/// ```text
///  y 40 ┌────────── woods ──────────┐     (b) the woods from x 26: only the strip x 26–27
///  y 28 │   KKKKKK  the engine: 28.5 │         of the line enters; its centre (x 24) never
///  y 25 └───────────────────────────┘         does: the full 12", to y 32
///  y 20     KKKKKK  start (centre y 20)
/// ```
#[test]
fn daf2_06_a_rout_into_woods_is_slowed_where_the_centre_goes() {
    // Kept: interpretations 25 and 31 — the ground a move pays for is the ground its centre's
    // path crosses. The reader charges double from the moment any part enters (8.25", y 28.25;
    // in (b) also 8.25"). The engine: the centre reaches the wood after 5", the 7" left buy
    // 3.5": 8.5", y 28.5; in (b) the centre never enters: 12".
    let (b, ev) = kaiser_routs(
        r#"[[terrain]]
kind = "woods"
name = "the Thiergarten"
rect = [18, 25, 30, 40]"#,
    );
    let f = forced_of(&ev, 1);
    assert_eq!(f[0].0, ForcedKind::Rout);
    assert!(near(f[0].2, 8.5, 1e-6) && near(b.units[1].at.y, 28.5, 1e-6), "{f:?}");
    let (b, _) = kaiser_routs(
        r#"[[terrain]]
kind = "woods"
rect = [26, 25, 40, 40]"#,
    );
    assert!(near(b.units[1].at.y, 32.0, 1e-6), "{:?}", b.units[1].at);
}

#[test]
fn daf2_07_a_rout_across_a_hedge_halves_the_whole_move_or_stops_at_it() {
    let hedge = |y: f64| {
        format!(
            r#"[[terrain]]
kind = "hedge"
line = [[10, {y}], [40, {y}]]"#
        )
    };
    // At 24: crossed; the whole move halved to 6" (not 3.5" + 8.5"/2): y 26.
    let (b, _) = kaiser_routs(&hedge(24.0));
    assert!(near(b.units[1].at.y, 26.0, 1e-6), "{:?}", b.units[1].at);
    // At 26: the centre reaches it after 6", what the halved move allows: it stops at it,
    // astride it (the reader: 6", astride, y 26).
    let (b, _) = kaiser_routs(&hedge(26.0));
    assert!(near(b.units[1].at.y, 26.0, 0.06), "{:?}", b.units[1].at);
    // At 27.5. Kept (interpretations 25, 31: the centre's path): the centre reaches it after
    // 7.5", beyond the halved 6", so the rout stops at it, the centre 0.05" short — its front
    // half over the hedge, not having crossed it: 7.45", y 27.45. The reader stops the leading
    // edge against the hedge: 7", y 27.
    let (b, ev) = kaiser_routs(&hedge(27.5));
    assert!(near(b.units[1].at.y, 27.45, 1e-6), "{:?}", b.units[1].at);
    assert!(texts(&ev).iter().any(|t| t.contains("stopping at a hedge (crossing it halves the move)")), "{ev:#?}");
}

#[test]
fn daf2_08_a_cavalry_rout_into_very_rough_ground_and_guns_routing_into_a_town() {
    // (a) Dragoons (x 35.5–44.5, y 19.25–20.75) rout 24" north into a bog named very rough.
    // Kept (interpretations 25, 31): the centre reaches it after 10.75", the 13.25" left buy
    // 3.3125": 14.06" (the reader's "by the centre" reading; his own, by the leading edge:
    // 13.5").
    let p = r#"{ name = "IR 1", type = "musketeers", at = [40, 14] }"#;
    let a = r#"{ name = "DR Liechtenstein", type = "dragoons", at = [40, 20], facing = 180 }"#;
    let bog = r#"[[terrain]]
kind = "soft_ground"
name = "the Morast"
rect = [30, 30.75, 50, 60]
[rules]
very_rough = ["the Morast"]"#;
    let mut b = firing(battle(p, a, bog), 0);
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 10, 10, 10, 10, 10, 10, 10]);
    let f = forced_of(&ev, 1);
    assert_eq!((f[0].0, f[0].1), (ForcedKind::Rout, 24.0), "{:?}", texts(&ev));
    assert!(near(f[0].2, 10.75 + 13.25 / 4.0, 1e-6), "{f:?}");
    // (b) Guns (y 19.25–20.75) rout 10" into a town from 3.75" (the centre): 3.75 + 6.25/2 =
    // 6.875" (the reader, by the leading edge: 6.5"). Not held to the 2" of the prolonge.
    let g = r#"{ name = "Battery Feuerstein", type = "medium_artillery", at = [10, 20], facing = 180 }"#;
    let town = r#"[[terrain]]
kind = "town"
name = "Welmina"
rect = [5, 23.75, 15, 40]"#;
    let mut b = firing(battle(r#"{ name = "IR 1", type = "musketeers", at = [10, 14] }"#, g, town), 0);
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 10, 10, 10, 10, 10, 10, 10]);
    let f = forced_of(&ev, 1);
    assert_eq!((f[0].0, f[0].1), (ForcedKind::Rout, 10.0), "{:?}", texts(&ev));
    assert!(near(f[0].2, 6.875, 1e-6), "{f:?}");
}

#[test]
fn daf2_09_falling_back_before_a_charge_is_a_full_column_move_not_halved() {
    // Prussian grenadiers (x 21–27, front y 22.5) charge IR Harrach (x 21–27, y 29.5–30.5,
    // facing south), 7" off, and pass their test (1 1); `dice`: IR Harrach's test to stand.
    let p = r#"{ name = "Grenadiers", type = "grenadiers", at = [24, 22] }"#;
    let a = r#"{ name = "IR Harrach", type = "musketeers", at = [24, 30], facing = 180 }"#;
    let go = |extra: &str, dice: &[u32]| {
        let mut b = battle(p, a, extra);
        let mut all = vec![1, 1];
        all.extend_from_slice(dice);
        let ev = charge(&mut b, 0, 1, &all);
        (b, ev)
    };
    // 3 9: shaken; it falls back 10" (the column figure: not halved for shaken nor for going
    // backwards), facing south still; no melee; the grenadiers stay in good order.
    let (b, ev) = go("", &[3, 9]);
    let (_, fought) = melee(&ev);
    assert!(fought.is_none());
    let f = forced_of(&ev, 1);
    assert_eq!((f[0].0, f[0].1, f[0].2), (ForcedKind::FallBack, 10.0, 10.0), "{:?}", texts(&ev));
    assert!(b.units[1].at.dist(Point::new(24.0, 40.0)) < 1e-6 && b.units[1].facing == 180.0);
    assert_eq!((b.units[0].state, b.units[1].state), (State::Good, State::Shaken));
    // Woods behind from y 35.5. Kept (interpretations 25, 31): the centre reaches them after
    // 5.5", the 4.5" left buy 2.25": 7.75" (the reader, by the rear edge: 7.5"). It is then in
    // cover: 3 morale dice.
    let woods = r#"[[terrain]]
kind = "woods"
rect = [18, 35.5, 30, 45]"#;
    let (b, ev) = go(woods, &[3, 9]);
    assert!(near(forced_of(&ev, 1)[0].2, 7.75, 1e-6), "{:?}", texts(&ev));
    assert!(b.standing(1, b.units[0].at).in_cover);
    // 9 10: a rout, 12" north, about-turned; with the woods 5.5 + 6.5/2 = 8.75" (the reader:
    // 8.5").
    let (b, ev) = go("", &[9, 10]);
    assert_eq!(b.units[1].state, State::Routing);
    assert!(b.units[1].at.dist(Point::new(24.0, 42.0)) < 1e-6 && b.units[1].facing == 0.0, "{:?}", texts(&ev));
    let (_, ev) = go(woods, &[9, 10]);
    assert!(near(forced_of(&ev, 1)[0].2, 8.75, 1e-6), "{:?}", texts(&ev));
    // Already shaken, 9 10: removed where it stands; nothing moves, IR Kaiser behind it is not
    // pushed.
    let p2 = r#"{ name = "Grenadiers", type = "grenadiers", at = [24, 22] }"#;
    let a2 = r#"{ name = "IR Harrach", type = "musketeers", at = [24, 30], facing = 180 },
                { name = "IR Kaiser", type = "musketeers", at = [24, 34], facing = 180, figures = 8 }"#;
    let mut b = battle(p2, a2, "");
    b.units[1].state = State::Shaken;
    let ev = charge(&mut b, 0, 1, &[1, 1, 9, 10]);
    assert_eq!(b.units[1].state, State::Removed, "{:?}", texts(&ev));
    assert!(forced_of(&ev, 1).is_empty() && forced_of(&ev, 2).is_empty());
    assert_eq!(b.units[2].at, Point::new(24.0, 34.0));
}

#[test]
fn daf2_10_after_the_melee_the_charger_retires_a_full_column_move_and_the_loser_falls_back() {
    // (a) Musketeers against musketeers, both pass after the melee: the charger retires 10"
    // (its column figure) facing the enemy, shaken; IR Harrach stays, shaken.
    let p = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [24, 22] }"#;
    let a = r#"{ name = "IR Harrach", type = "musketeers", at = [24, 30], facing = 180 }"#;
    let mut b = battle(p, a, "");
    let mut dice = vec![1, 1, 1, 1];
    dice.extend([10; 12]);
    dice.extend([1, 1, 1, 1]);
    let ev = charge(&mut b, 0, 1, &dice);
    let f = forced_of(&ev, 0);
    assert_eq!((f[0].0, f[0].1, f[0].2), (ForcedKind::Retire, 10.0, 10.0), "{:?}", texts(&ev));
    assert!(near(b.units[0].at.y, 29.0 - 0.02 - 10.0, 1e-6) && b.units[0].facing == 0.0);
    assert_eq!((b.units[0].state, b.units[1].state), (State::Shaken, State::Shaken));
    assert_eq!(b.units[1].at, Point::new(24.0, 30.0));
    // (b) Dragoons against IR Harrach in a town: E (3) against A (8). The dragoons test after
    // the melee on E (2, their enemy on A): 1 9, one die failed — shaken, they fall back 18"
    // (their column figure), not 24" (the retreat of a cavalry melee with no winner).
    let town = r#"[[terrain]]
kind = "town"
rect = [18, 29.5, 30, 36]"#;
    let d = r#"{ name = "DR 1 Normann", type = "dragoons", at = [24, 20] }"#;
    let fight = |post: [u32; 2]| {
        let mut b = battle(d, a, town);
        let mut dice = vec![1, 1, 1, 1, 1, 10, 10, 10];
        dice.extend([10; 6]);
        dice.extend(post);
        dice.extend([1, 1, 1]);
        let ev = charge(&mut b, 0, 1, &dice);
        (b, ev)
    };
    let (b, ev) = fight([1, 9]);
    assert_eq!(charts(&ev), [(Chart::E, 3), (Chart::A, 8)]);
    let (_, f) = melee(&ev);
    assert_eq!((f.unwrap()[0].post.chart, f.unwrap()[0].post.number), (Chart::E, 2));
    let fb = forced_of(&ev, 0);
    assert_eq!((fb[0].0, fb[0].1, fb[0].2), (ForcedKind::FallBack, 18.0, 18.0), "{:?}", texts(&ev));
    assert!(near(b.units[0].at.y, 28.73 - 18.0, 1e-6) && b.units[0].facing == 0.0, "{:?}", b.units[0].at);
    // (c) Both pass: no winner, and not horse against horse: step 5, the dragoons retire 18".
    let (_, ev) = fight([1, 1]);
    let fb = forced_of(&ev, 0);
    assert_eq!((fb[0].0, fb[0].1), (ForcedKind::Retire, 18.0), "{:?}", texts(&ev));
}

#[test]
fn daf2_11_units_without_a_column_figure_fall_back_their_march_figure() {
    // One figure a type, for falling back, retiring and step 3 alike: the column figure, else the
    // march figure, else the only one.
    let cases = [
        (r#"{ name = "J", type = "jagers", at = [20, 30], formation = "skirmish", figures = 12 }"#, 20.0),
        (r#"{ name = "J", type = "jagers", at = [20, 30], formation = "line", figures = 12 }"#, 20.0),
        (r#"{ name = "C", type = "cossacks", at = [20, 30] }"#, 24.0),
        (r#"{ name = "G", type = "medium_artillery", at = [20, 30] }"#, 10.0),
        (r#"{ name = "H", type = "hussars", at = [20, 30], formation = "skirmish", figures = 12 }"#, 22.0),
        (r#"{ name = "K", type = "cuirassiers", at = [20, 30] }"#, 16.0),
    ];
    for (u, d) in cases {
        let b = battle(FAR_P, u, "");
        assert_eq!(b.units[1].column_move(), d, "{u}");
    }
    // Croats in skirmish order (x 25.5–34.5) charged by musketeers fail their test on one die:
    // shaken, they fall back 20".
    let p = r#"{ name = "IR 1", type = "musketeers", at = [30, 22] }"#;
    let j =
        r#"{ name = "Croats", type = "jagers", at = [30, 30], facing = 180, formation = "skirmish", figures = 12 }"#;
    let mut b = battle(p, j, "");
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 9]);
    let f = forced_of(&ev, 1);
    assert_eq!((f[0].0, f[0].1, f[0].2), (ForcedKind::FallBack, 20.0, 20.0), "{:?}", texts(&ev));
    assert!(b.units[1].at.dist(Point::new(30.0, 50.0)) < 1e-6);
}

/// The cuirassiers (side 0, from y 20) charge the dragoons (y 30–31.5); the dragoons pass
/// their tests to stand and to counter-charge; no hits. `post`: the tests after the melee. IR 5,
/// a march column 1" wide, stands behind the cuirassiers (its front y 18.48), too narrow to
/// secure their flanks.
fn cavalry_draw(t: (f64, f64), extra: &str, post: [u32; 4]) -> (Battle, Vec<Event>) {
    let p = r#"{ name = "CR 2 Prinz von Preussen", type = "cuirassiers", at = [30, 20] },
               { name = "IR 5", type = "musketeers", at = [30, 15.48], formation = "march_column" }"#;
    let a = r#"{ name = "DR Savoyen", type = "dragoons", at = [30, 30.75], facing = 180 }"#;
    let mut b = table(t.0, t.1, p, a, extra);
    let mut dice = vec![1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10];
    dice.extend(post);
    let ev = charge(&mut b, 0, 2, &dice);
    (b, ev)
}

#[test]
fn daf2_12_a_drawn_cavalry_melee_sends_both_back_24_one_of_them_over_a_hedge() {
    let hedge = r#"[[terrain]]
kind = "hedge"
line = [[20, 40], [40, 40]]"#;
    // Both pass: no winner (no pursuit die), both shaken. The cuirassiers (met at y 29.23, rear
    // edge 28.48) go 24" south — here IR 5 stands 10" behind them and stops them after 10" (less
    // the hair between bodies); the dragoons cross the hedge 9.25" behind them, the move halved
    // to 12".
    let (b, ev) = cavalry_draw((72.0, 96.0), hedge, [1, 1, 1, 1]);
    let (Event::Melee { winner, pursuit_die, .. }, _) = melee(&ev) else { unreachable!() };
    assert_eq!((*winner, *pursuit_die), (None, None));
    assert_eq!([b.units[0].state, b.units[2].state], [State::Shaken, State::Shaken]);
    let c = forced_of(&ev, 0);
    assert_eq!((c[0].0, c[0].1), (ForcedKind::Retreat, 24.0), "{:?}", texts(&ev));
    assert!(near(c[0].2, 9.95, 1e-6) && c[0].4.as_deref() == Some("IR 5 in the way"), "{c:?}");
    let d = forced_of(&ev, 2);
    assert_eq!((d[0].0, d[0].2), (ForcedKind::Retreat, 12.0), "{:?}", texts(&ev));
    assert!(b.units[2].at.dist(Point::new(30.0, 42.75)) < 1e-6 && b.units[2].facing == 180.0);
    // Without IR 5 in the way: the whole 24", facing north still.
    let (b, ev) = {
        let p = r#"{ name = "CR 2 Prinz von Preussen", type = "cuirassiers", at = [30, 20] },
                   { name = "IR 5", type = "musketeers", at = [60, 8.5] }"#;
        let a = r#"{ name = "DR Savoyen", type = "dragoons", at = [30, 30.75], facing = 180 }"#;
        let mut b = table(72.0, 96.0, p, a, hedge);
        let ev = charge(&mut b, 0, 2, &[1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1]);
        (b, ev)
    };
    assert!(near(forced_of(&ev, 0)[0].2, 24.0, 1e-9));
    assert!(near(b.units[0].at.y, 29.23 - 24.0, 1e-6) && b.units[0].facing == 0.0, "{:?}", b.units[0].at);
    // Both fail: still no winner, the same distances; the side that failed both dice routs,
    // about-turned (a cavalry rout is 24" too, halved over the hedge).
    let (b, ev) = cavalry_draw((72.0, 96.0), hedge, [10, 1, 10, 10]);
    assert_eq!(b.units[0].state, State::Shaken);
    assert_eq!(forced_of(&ev, 0)[0].0, ForcedKind::Retreat);
    let d = forced_of(&ev, 2);
    assert_eq!((d[0].0, d[0].1, d[0].2), (ForcedKind::Rout, 24.0, 12.0), "{:?}", texts(&ev));
    assert_eq!((b.units[2].state, b.units[2].facing), (State::Routing, 0.0));
}

/// The hussars (side 0, from y 40) charge the dragoons (y 50–51.5, facing south), who
/// counter-charge; no hits; the hussars pass after the melee, the dragoons fail both dice and
/// rout 24" north towards a wood (y 60–66). `pursuit`: the hussars' pursuit die.
fn pursuit(die: u32) -> (Battle, Vec<Event>) {
    let p = r#"{ name = "HR 1 Szekely", type = "hussars", at = [30, 40] }"#;
    let a = r#"{ name = "DR Savoyen", type = "dragoons", at = [30, 50.75], facing = 180 }"#;
    let woods = r#"[[terrain]]
kind = "woods"
rect = [20, 60, 40, 66]"#;
    let mut b = table(72.0, 96.0, p, a, woods);
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 1, 1, 10, 10, die]);
    (b, ev)
}

#[test]
fn daf2_13_a_rout_and_a_pursuit_through_a_wood_and_the_other_pursuit_results() {
    // The rout. Kept (interpretations 25, 31): the centre reaches the wood after 9.25", crosses
    // 6" of it for 12", and has 2.75" left: 18", y 68.75 (the reader, by the edges: 16.5").
    let (b, ev) = pursuit(1);
    let r = forced_of(&ev, 1);
    assert_eq!((r[0].0, r[0].1), (ForcedKind::Rout, 24.0));
    assert!(near(r[0].2, 18.0, 1e-6) && near(b.units[1].at.y, 68.75, 1e-6), "{r:?}");
    // 1: pursue, shaken, up to the line rate and 24" (44"), through the wood. Kept
    // (interpretations 28, 31): the pursuer stops the contact gap short of the router — only a
    // charge comes into contact, and no second melee follows — where the reader has it in
    // contact.
    let p = forced_of(&ev, 0);
    assert_eq!((p[0].0, p[0].1), (ForcedKind::Pursue, 44.0), "{:?}", texts(&ev));
    assert_eq!(b.units[0].state, State::Shaken);
    let gap = convex_distance(&b.units[0].corners(), &b.units[1].corners());
    assert!((0.5..0.6).contains(&gap) && b.units[0].at.y > 60.0, "{gap} {:?}", b.units[0].at);
    // 2–3: back to its own lines, its back to the enemy, 44" south, shaken.
    let (b, _) = pursuit(2);
    assert!(near(b.units[0].at.y, 49.23 - 44.0, 1e-6) && b.units[0].facing == 180.0, "{:?}", b.units[0].at);
    assert_eq!(b.units[0].state, State::Shaken);
    // 4–5: hold, shaken; 6 (and 7–10): rally on the spot, good order; neither moves.
    for (die, state) in [(4, State::Shaken), (5, State::Shaken), (6, State::Good), (9, State::Good)] {
        let (b, ev) = pursuit(die);
        assert_eq!(b.units[0].state, state, "{die}");
        assert!(forced_of(&ev, 0).is_empty() && near(b.units[0].at.y, 49.23, 1e-6));
    }
}

#[test]
fn daf2_14_a_router_hemmed_in_by_its_own_side_stops_and_is_not_removed() {
    // IR 3 Anhalt charges IR Harrach from the south; IR Harrach fails both dice of its test to
    // stand (4 dice with both flanks resting on a friend, 2 with one).
    let run = |behind: &str, test: &[u32]| {
        let p = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [24, 22] }"#;
        let a = format!(r#"{{ name = "IR Harrach", type = "musketeers", at = [24, 30], facing = 180 }}, {behind}"#);
        let mut b = battle(p, &a, "");
        let mut dice = vec![1, 1];
        dice.extend_from_slice(test);
        let ev = charge(&mut b, 0, 1, &dice);
        assert_eq!(b.units[1].state, State::Routing, "{:?}", texts(&ev));
        (b, ev)
    };
    // (a) Grenadiers 1" behind: it about-turns and goes 1" (less the hair), stopped by them.
    let (b, ev) =
        run(r#"{ name = "Grenadiers Lascy", type = "grenadiers", at = [24, 32], facing = 180 }"#, &[9, 10, 9, 10]);
    let f = forced_of(&ev, 1);
    assert!(near(f[0].2, 0.95, 1e-6) && f[0].4.as_deref() == Some("Grenadiers Lascy in the way"), "{f:?}");
    assert_eq!(b.units[1].facing, 0.0);
    // (b) Touching: it cannot move at all, and stays, routing.
    let (b, ev) =
        run(r#"{ name = "Grenadiers Lascy", type = "grenadiers", at = [24, 31], facing = 180 }"#, &[9, 10, 9, 10]);
    assert!(near(forced_of(&ev, 1)[0].2, 0.0, 1e-9) && b.units[1].at == Point::new(24.0, 30.0));
    // (c) A single gun stand across part of its way: stopped after 1" too; it does not step
    // aside.
    let (b, ev) = run(r#"{ name = "Battery", type = "medium_artillery", at = [26, 32.25], facing = 180 }"#, &[9, 10]);
    assert!(near(forced_of(&ev, 1)[0].2, 0.95, 1e-6), "{:?}", texts(&ev));
    assert_eq!(b.units[1].at.x, 24.0);
    // Routing, it is unformed: charged again it would fight on E against formed foot.
    assert_eq!(b.melee_charts(0, 1, false).0, [Chart::A, Chart::E]);
}

#[test]
fn daf2_15_a_router_at_the_tables_edge() {
    // A table 48" deep. IR Kaiser routs 12" north from y 36 (front 36.5 after turning): it
    // would end half an inch over the edge — removed.
    let rout = |y: f64| {
        let p = format!(r#"{{ name = "IR 1", type = "musketeers", at = [24, {}] }}"#, y - 6.0);
        let a = format!(r#"{{ name = "IR Kaiser", type = "musketeers", at = [24, {y}], facing = 180 }}"#);
        let mut b = firing(table(60.0, 48.0, &p, &a, ""), 0);
        let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 1, 1, 1, 1, 1, 8, 9]);
        (b, ev)
    };
    let (b, ev) = rout(36.0);
    assert_eq!(b.units[1].state, State::Removed, "{:?}", texts(&ev));
    assert!(ev.iter().any(|e| matches!(e, Event::Forced { off_table: true, .. })));
    // From y 35.5 it ends exactly at the edge (y 47–48): it stays, routing.
    let (b, ev) = rout(35.5);
    assert_eq!(b.units[1].state, State::Routing, "{:?}", texts(&ev));
    assert!(near(b.units[1].at.y, 47.5, 1e-9));
    // A move that is not a rout stops at the edge: the dragoons' 24" retreat on a table 45"
    // deep.
    let (b, ev) = cavalry_draw((72.0, 45.0), "", [1, 1, 1, 1]);
    let d = forced_of(&ev, 2);
    assert_eq!((d[0].0, d[0].4.as_deref()), (ForcedKind::Retreat, Some("the table's edge")), "{:?}", texts(&ev));
    let top = b.units[2].corners().iter().map(|c| c.y).fold(f64::MIN, f64::max);
    assert!(b.units[2].present() && top <= 45.0 && top > 44.9, "{top}");
}

/// ```text
///   y 34   KKKKKK  IR Kaiser            ◄ IR 2 (x 32.5–33.5, y 31–37), firing west
///           3" gap
///   y 30   BBBBBB  IR Botta
///   y 24   PPPPPP  IR 1, firing north
/// ```
#[test]
fn daf2_16_two_routs_in_one_fire_phase_the_order_of_the_volleys_decides() {
    // The closest position to the reader's: IR Kaiser stands straight behind IR Botta, so no
    // line of fire from the south reaches it past IR Botta; IR 2 fires at it from the east, and
    // it routs west (away from its firer) where the reader's went north.
    let p = r#"{ name = "IR 1", type = "musketeers", at = [24, 24] },
               { name = "IR 2", type = "musketeers", at = [33, 34], facing = 270 }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [24, 30], facing = 180 },
               { name = "IR Kaiser", type = "musketeers", at = [24, 34], facing = 180 }"#;
    let rout = [1, 1, 1, 1, 1, 1, 8, 9];
    // IR Botta's volley first: it routs at once and stops against IR Kaiser after 3" (less the
    // hair); IR Kaiser then routs its full 12"; IR Botta does not go on.
    let mut b = firing(battle(p, a, ""), 0);
    apply(&mut b, &Action::Fire { unit: 0, target: 2 }, &rout);
    assert!(near(b.units[2].at.y, 32.95, 1e-6), "{:?}", b.units[2].at);
    let ev = apply(&mut b, &Action::Fire { unit: 1, target: 3 }, &rout);
    assert!(near(forced_of(&ev, 3)[0].2, 12.0, 1e-6) && near(b.units[3].at.x, 12.0, 1e-6), "{:?}", texts(&ev));
    assert!(near(b.units[2].at.y, 32.95, 1e-6));
    // IR Kaiser's first: IR Botta's way is clear: the full 12", to y 42.
    let mut b = firing(battle(p, a, ""), 0);
    apply(&mut b, &Action::Fire { unit: 1, target: 3 }, &rout);
    apply(&mut b, &Action::Fire { unit: 0, target: 2 }, &rout);
    assert!(b.units[2].at.dist(Point::new(24.0, 42.0)) < 1e-6, "{:?}", b.units[2].at);
}

// ----- 3. Melee charts -----

#[test]
fn daf2_17_gun_crews_are_unformed_limbered_or_not() {
    for formation in ["unlimbered", "limbered"] {
        let g = format!(
            r#"{{ name = "Battery Feuerstein", type = "medium_artillery", at = [30, 30], facing = 180, formation = "{formation}" }}"#
        );
        // Dragoons in line (8 figures: 2 dice): A (8) against E (1); 8 3 is 2 hits on A. After
        // the melee the guns test on E (1): their enemy fought on A.
        let d = r#"{ name = "DR", type = "dragoons", at = [30, 22], figures = 8 }"#;
        let mut b = battle(d, &g, "");
        let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 8, 3, 10, 1, 1, 1, 1]);
        assert_eq!(charts(&ev), [(Chart::A, 8), (Chart::E, 1)], "{formation}");
        let (_, f) = melee(&ev);
        let f = f.unwrap();
        assert_eq!((f[0].hits, f[1].post.chart, f[1].post.number), (2, Chart::E, 1));
        // Musketeers in line: A (8) against E (1).
        let m = r#"{ name = "IR 1", type = "musketeers", at = [30, 22] }"#;
        let b = battle(m, &g, "");
        assert_eq!(b.melee_charts(0, 1, false).0, [Chart::A, Chart::E]);
        // Hussars in skirmish order: both unformed, neither advantage: C (5) and C (2). They
        // may charge in skirmish order (the table gives hussars both).
        let h = r#"{ name = "HR", type = "hussars", at = [30, 22], formation = "skirmish", figures = 12 }"#;
        let mut b = battle(h, &g, "");
        assert!(b.check_charge(0, 1).is_ok(), "{:?}", b.check_charge(0, 1));
        let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 10, 10, 10, 10, 1, 1, 1, 1]);
        assert_eq!(charts(&ev), [(Chart::C, 5), (Chart::C, 2)], "{formation}");
    }
}

#[test]
fn daf2_18_guns_behind_works_against_cavalry_cover_in_melee_is_for_infantry() {
    // The battery (y 29.25–30.75) behind a redoubt at y 28; cuirassiers charge from the south
    // over it. Formed against unformed: A (9) and E (1); no "in cover" for guns. The guns throw
    // 3 morale dice for the works, and test on E after the melee.
    let g = r#"{ name = "Battery Feuerstein", type = "medium_artillery", at = [30, 30], facing = 180 }"#;
    let c = r#"{ name = "CR", type = "cuirassiers", at = [30, 22] }"#;
    let works = r#"[[terrain]]
kind = "redoubt"
line = [[27, 28], [33, 28]]"#;
    let mut b = battle(c, g, works);
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 1, 10, 10, 10, 10, 1, 1, 1, 1, 1]);
    assert_eq!(charts(&ev), [(Chart::A, 9), (Chart::E, 1)], "{:?}", texts(&ev));
    let (Event::Melee { defence_test: Some(t), .. }, f) = melee(&ev) else { unreachable!() };
    assert_eq!(t.dice.len(), 3);
    let post = &f.unwrap()[1].post;
    assert_eq!((post.chart, post.number, post.dice.len()), (Chart::E, 1, 3));
}

/// ```text
///   y 30   CR 8 Rochow, facing south (its centre behind IR Kaiser's front line)
///   ┌──────────── Kirchdorf (a town, y 16–24) ────────────┐
///   │  L ▬▬▬▬▬▬  2.5"  KKKKKK IR Kaiser  2.5"  ▬▬▬▬▬▬ R   │  y 20, all facing south
///   └─────────────────────────────────────────────────────┘
/// ```
#[test]
fn daf2_19_the_charts_are_summed_then_kept_within_a_to_e_a_rear_charge_on_shaken_foot_in_a_town() {
    let p = r#"{ name = "CR 8 Rochow", type = "cuirassiers", at = [24, 30], facing = 180 }"#;
    let a = r#"{ name = "IR Kaiser", type = "musketeers", at = [24, 20], facing = 180 },
               { name = "IR L", type = "musketeers", at = [15.5, 20], facing = 180 },
               { name = "IR R", type = "musketeers", at = [32.5, 20], facing = 180 }"#;
    let town = r#"[[terrain]]
kind = "town"
name = "Kirchdorf"
rect = [18, 16, 30, 24]"#;
    let mut b = battle(p, a, town);
    b.units[1].state = State::Shaken;
    assert!(b.secure_flanks(1));
    // Cuirassiers: rear +2, against a shaken enemy +1, against foot in cover −2: B (8). IR
    // Kaiser: rear −2, shaken −1, in cover against horse +2: D (4). Their 8 9 2: 2 hits on B.
    // IR Kaiser tests after the melee on the chart of its hits (A), not E: nobody fought on A.
    // The cuirassiers test after it where they fought, their centre inside Kirchdorf (y 21.75):
    // 3 dice in cover (the audit at scale: not 2, as in the open where they set off).
    let mut dice = vec![1, 1, 1, 1, 1, 1, 8, 9, 2];
    dice.extend([10; 6]);
    dice.extend([1, 1, 1, 1, 1, 1, 1]);
    let ev = charge(&mut b, 0, 1, &dice);
    let (Event::Melee { flank, .. }, f) = melee(&ev) else { unreachable!() };
    assert!(*flank);
    assert_eq!(charts(&ev), [(Chart::B, 8), (Chart::D, 4)], "{:?}", texts(&ev));
    let f = f.unwrap();
    assert_eq!((f[0].hits, f[1].post.chart), (2, Chart::A));
    assert_eq!(f[0].post.dice.len(), 3, "{:?}", texts(&ev));
}

/// Hussars (side 0, from y 20, 12 figures: 3 dice) charge dragoons (side 1) standing at
/// `at` facing `facing`; `shaken`: which of them are shaken; `dice` from the test to stand on.
fn hussars_on_dragoons(at: [f64; 2], facing: f64, shaken: [bool; 2], dice: &[u32]) -> (Battle, Vec<Event>) {
    let p = r#"{ name = "HR", type = "hussars", at = [30, 20] }"#;
    let a = format!(r#"{{ name = "DR", type = "dragoons", at = [{}, {}], facing = {facing} }}"#, at[0], at[1]);
    let mut b = battle(p, &a, "");
    for (u, s) in shaken.iter().enumerate() {
        if *s {
            b.units[u].state = State::Shaken;
        }
    }
    let mut all = vec![1, 1];
    all.extend_from_slice(dice);
    let ev = charge(&mut b, 0, 1, &all);
    (b, ev)
}

#[test]
fn daf2_20_shaken_and_at_the_halt_in_one_chart_cavalry_against_cavalry() {
    let melee_dice = [10, 10, 10, 10, 10, 10];
    let both_pass = [1, 1, 1, 1];
    let front = ([30.0, 30.75], 180.0);
    // (a) Shaken hussars; the dragoons fail to counter-charge: at the halt. +1 −1: C (5); −1 +1:
    // C (6).
    let mut d = vec![1, 1, 10, 10];
    d.extend(melee_dice);
    d.extend(both_pass);
    let (_, ev) = hussars_on_dragoons(front.0, front.1, [true, false], &d);
    assert_eq!(charts(&ev), [(Chart::C, 5), (Chart::C, 6)]);
    // (b) They counter-charge: D (4) against B (7).
    let mut d = vec![1, 1, 1, 1];
    d.extend(melee_dice);
    d.extend(both_pass);
    let (_, ev) = hussars_on_dragoons(front.0, front.1, [true, false], &d);
    assert_eq!(charts(&ev), [(Chart::D, 4), (Chart::B, 7)]);
    // (c) Good hussars at the flank of shaken dragoons facing east (their front x 30.75): at the
    // halt without a test. +2 +1 +1: A (7); −2 −1 −1: E (3). The dragoons test on E (2) after:
    // 5 9, both failed, a shaken unit that routs — removed.
    let mut d = vec![1, 1];
    d.extend(melee_dice);
    d.extend([1, 1, 5, 9, 6]);
    let (b, ev) = hussars_on_dragoons([30.0, 30.0], 90.0, [false, true], &d);
    let (Event::Melee { flank, at_halt, counter_test, .. }, f) = melee(&ev) else { unreachable!() };
    assert!(*flank && *at_halt && counter_test.is_none());
    assert_eq!(charts(&ev), [(Chart::A, 7), (Chart::E, 3)]);
    assert_eq!((f.unwrap()[1].post.chart, f.unwrap()[1].post.number), (Chart::E, 2));
    assert_eq!(b.units[1].state, State::Removed);
    // (d) Both shaken, frontal, at the halt: +1 +1 −1: B (6); −1 −1 +1: D (5).
    let mut d = vec![1, 1];
    d.extend(melee_dice);
    d.extend(both_pass);
    let (_, ev) = hussars_on_dragoons(front.0, front.1, [true, true], &d);
    assert_eq!(charts(&ev), [(Chart::B, 6), (Chart::D, 5)]);
}

#[test]
fn daf2_21_against_a_shaken_enemy_is_a_minor_advantage_for_any_arm() {
    let p = r#"{ name = "Grenadiers", type = "grenadiers", at = [24, 22] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [24, 30], facing = 180 }"#;
    let mut b = battle(p, a, "");
    b.units[1].state = State::Shaken;
    // The grenadiers on B (7): their 7 is a hit (a miss on C, 6). The musketeers on D (4).
    let mut dice = vec![1, 1, 1, 1, 7, 10, 10, 10, 10, 10];
    dice.extend([10; 6]);
    dice.extend([1, 1, 1, 1]);
    let ev = charge(&mut b, 0, 1, &dice);
    assert_eq!(charts(&ev), [(Chart::B, 7), (Chart::D, 4)]);
    assert_eq!(melee(&ev).1.unwrap()[0].hits, 1);
}

#[test]
fn daf2_22_unformed_cavalry_and_cavalry_against_unformed_infantry_counted_once() {
    // (a) Hussars in skirmish order (24" wide) at musketeers in line, open, flanks not secure:
    // unformed against formed −2, against foot without secure flanks +1: D (4); the musketeers
    // +2 −1: B (6).
    let h = r#"{ name = "HR", type = "hussars", at = [30, 20], formation = "skirmish", figures = 12 }"#;
    let m = r#"{ name = "IR 1", type = "musketeers", at = [30, 28], facing = 180 }"#;
    let mut b = battle(h, m, "");
    let mut dice = vec![1, 1, 1, 1, 10, 10, 10];
    dice.extend([10; 6]);
    dice.extend([1, 1, 1, 1]);
    let ev = charge(&mut b, 0, 1, &dice);
    assert_eq!(charts(&ev), [(Chart::D, 4), (Chart::B, 6)], "{:?}", texts(&ev));
    // (b) Hussars in skirmish order (6 figures, 10.5" wide) at Croats in skirmish order whose
    // flanks rest on friends 1.5" away: "cavalry vs unformed infantry" asks nothing of the
    // horse's order: A (7); the Croats, not facing formed troops, C (3) — and they test on E (1)
    // after the melee, their enemy on A.
    let h = r#"{ name = "HR", type = "hussars", at = [30, 20], formation = "skirmish", figures = 6 }"#;
    let j = r#"{ name = "Croats", type = "jagers", at = [30, 30], facing = 180, formation = "skirmish", figures = 12 },
               { name = "IR L", type = "musketeers", at = [21, 30], facing = 180 },
               { name = "IR R", type = "musketeers", at = [39, 30], facing = 180 }"#;
    let mut b = battle(h, j, "");
    assert!(b.secure_flanks(1));
    // The Croats' tests: 4 dice (secure flanks); 1 die for the hussars, 3 for the Croats.
    let ev = charge(&mut b, 0, 1, &[1, 1, 1, 1, 1, 1, 10, 10, 10, 10, 1, 1, 1, 1, 1, 1]);
    assert_eq!(charts(&ev), [(Chart::A, 7), (Chart::C, 3)], "{:?}", texts(&ev));
    let post = &melee(&ev).1.unwrap()[1].post;
    assert_eq!((post.chart, post.number), (Chart::E, 1));
    // (c) Dragoons in line at Croats in skirmish order in a wood: the unformed-infantry
    // advantage once (+2), against foot in cover −2: C (6); the Croats −2 +2: C (3).
    let d = r#"{ name = "DR", type = "dragoons", at = [30, 20] }"#;
    let j =
        r#"{ name = "Croats", type = "jagers", at = [30, 30], facing = 180, formation = "skirmish", figures = 12 }"#;
    let woods = r#"[[terrain]]
kind = "woods"
rect = [20, 27, 40, 40]"#;
    let b = battle(d, j, woods);
    assert_eq!(b.melee_charts(0, 1, false).0, [Chart::C, Chart::C]);
}

// ----- 4. Flank and rear -----

/// The chart and flank of a volley by the Austrian firer `f` at IR 3 Anhalt (`t`).
fn shot(t: &str, f: &str) -> (Chart, u8, bool) {
    let b = firing(battle(t, f, ""), 1);
    let (v, _) = b.volley(1, 0).unwrap_or_else(|e| panic!("{f}: {e}"));
    let (chart, _, number) = v.dice().unwrap();
    (chart, number, v.target.flank_or_rear)
}

#[test]
fn daf2_23_firing_at_a_line_from_six_places() {
    // IR 3 Anhalt: x 27–33, y 19–20, facing north (front edge y 20). Interpretation 22: a shot
    // is at the flank or rear when the firer's centre is not ahead of the line of that front.
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 19.5] }"#;
    let at = |x: f64, y: f64, facing: f64| {
        format!(r#"{{ name = "F", type = "musketeers", at = [{x}, {y}], facing = {facing} }}"#)
    };
    assert_eq!(shot(t, &at(30.0, 26.5, 180.0)), (Chart::C, 5, false), "F1 ahead");
    // F2 (x 40–41, y 19.5–25.5), 7" off the line's end and 2.5" ahead of its front: kept
    // (interpretation 22), a frontal shot, C (5). The reader: no part of F2 lies in the line's
    // own 45° arcs, so it could not be shot back at: a flank shot, A (8).
    assert_eq!(shot(t, &at(40.5, 22.5, 270.0)), (Chart::C, 5, false), "F2 enfilade");
    assert_eq!(shot(t, &at(40.5, 19.0, 270.0)), (Chart::A, 8, true), "F3 beside");
    assert_eq!(shot(t, &at(30.0, 13.5, 0.0)), (Chart::A, 8, true), "F4 behind");
    assert_eq!(shot(t, &at(39.0, 24.5, 180.0)), (Chart::C, 5, false), "F5 ahead, off to the side");
    // F6: its centre exactly on the line: not ahead of it, a flank shot.
    assert_eq!(shot(t, &at(40.5, 20.0, 270.0)), (Chart::A, 8, true), "F6 on the line");
}

#[test]
fn daf2_24_firing_at_an_attack_column_from_beside_it() {
    // IR 3 Anhalt in attack column: x 29–31, y 17–20, facing north. Its own chart B.
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 18.5], formation = "attack_column" }"#;
    let at = |x: f64, y: f64| format!(r#"{{ name = "G", type = "musketeers", at = [{x}, {y}], facing = 270 }}"#);
    // G1 (x 37–38, y 19–25), its centre 2" ahead of the column's front: kept (interpretation
    // 22), frontal: B (6). The reader: outside the column's arcs, a flank shot: A (8).
    assert_eq!(shot(t, &at(37.5, 22.0)), (Chart::B, 6, false), "G1");
    assert_eq!(shot(t, &at(35.5, 18.5)), (Chart::A, 8, true), "G2 level with it");
    assert_eq!(shot(t, &at(35.5, 23.0)), (Chart::B, 6, false), "G3 in its arcs");
}

#[test]
fn daf2_25_a_square_has_no_flank_no_rear_and_no_flanks_to_secure() {
    // IR 3 Anhalt in square: x 28.5–31.5, y 17–20.
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 18.5], formation = "square" }"#;
    // (a) Shaken musketeers from the south: square +2, shaken firer −1: B (6), no rear shot.
    let f = r#"{ name = "F", type = "musketeers", at = [30, 12], facing = 0 }"#;
    let mut b = firing(battle(t, f, ""), 1);
    b.units[1].state = State::Shaken;
    let (v, _) = b.volley(1, 0).unwrap();
    assert_eq!((v.dice().unwrap().0, v.dice().unwrap().2, v.target.flank_or_rear), (Chart::B, 6, false));
    // (b) Cuirassiers charge it from the south: E (4) against A (8); no rear, no flanks; they
    // test on E (3) after the melee.
    let c = r#"{ name = "CR", type = "cuirassiers", at = [30, 10], facing = 0 }"#;
    let mut b = battle(t, c, "");
    let m = moving(b.clone(), 1);
    assert!(!m.check_charge(1, 0).unwrap().flank);
    let ev = charge(&mut b, 1, 0, &[1, 1, 1, 1, 10, 10, 10, 10, 10, 1, 1, 1, 1]);
    assert_eq!(charts(&ev), [(Chart::E, 4), (Chart::A, 8)], "{:?}", texts(&ev));
    let post = &melee(&ev).1.unwrap()[0].post;
    assert_eq!((post.chart, post.number), (Chart::E, 3));
}

#[test]
fn daf2_26_flank_or_not_is_settled_where_the_charger_starts() {
    // IR 3 Anhalt in line: x 27–33, y 19–20, facing north, flanks not secure.
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 19.5] }"#;
    // (a) Hussars beside it (x 40.5–42, y 15–24) facing west: straight ahead 7.5", no turn; a
    // flank attack: A (7) against E (2).
    let h = r#"{ name = "HR Esterhazy", type = "hussars", at = [41.25, 19.5], facing = 270 }"#;
    let b = moving(battle(t, h, ""), 1);
    let c = b.check_charge(1, 0).unwrap();
    assert!(c.flank && c.turned == 0.0 && c.reach == 26.0 && near(c.cost, 7.48, 1e-6), "{c:?}");
    let (ch, _) = b.melee_charts(1, 0, c.flank);
    assert_eq!(ch, [Chart::A, Chart::E]);
    // (b) Ahead and to the right (x 40–41.5, y 20.5–29.5): frontal; it must turn (half: 13").
    // Against foot without secure flanks: B (6) and D (4), whatever face it strikes.
    let h = r#"{ name = "HR Esterhazy", type = "hussars", at = [40.75, 25], facing = 270 }"#;
    let b = moving(battle(t, h, ""), 1);
    let c = b.check_charge(1, 0).unwrap();
    assert!(!c.flank && c.turned > 1.0 && c.reach == 13.0 && c.cost <= 13.0, "{c:?}");
    assert_eq!(b.melee_charts(1, 0, c.flank).0, [Chart::B, Chart::D]);
    // (c) Dragoons behind it, 6" from its rear: a rear attack, A (8) against E (2).
    let d = r#"{ name = "DR Savoyen", type = "dragoons", at = [30, 12.25], facing = 0 }"#;
    let mut b = battle(t, d, "");
    let ev = charge(&mut b, 1, 0, &[1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1]);
    assert_eq!(charts(&ev), [(Chart::A, 8), (Chart::E, 2)], "{:?}", texts(&ev));
}

// ----- 5. Charges: turning, formation changes, the oblique -----

#[test]
fn daf2_27_straight_ahead_the_full_reach_exactly() {
    // Dragoons x 15.5–24.5, front y 10.75; 16" + 4" = 20".
    let d = r#"{ name = "DR 1 Normann", type = "dragoons", at = [20, 10] }"#;
    let t = |x: f64, y: f64| format!(r#"{{ name = "IR Botta", type = "musketeers", at = [{x}, {y}], facing = 180 }}"#);
    let b = moving(battle(d, &t(26.0, 31.25), ""), 0);
    let c = b.check_charge(0, 1).unwrap();
    assert!(c.turned == 0.0 && c.reach == 20.0 && c.cost <= 20.0, "20.0\": {c:?}");
    let b = moving(battle(d, &t(26.0, 31.3), ""), 0);
    assert!(refusal(&b, &Action::Charge { unit: 0, target: 1 }).contains("at most 20\""), "20.05\"");
    // No frontage overlap (1" clear): it must turn, half: 10".
    let b = moving(battle(d, &t(28.5, 31.25), ""), 0);
    assert!(refusal(&b, &Action::Charge { unit: 0, target: 1 }).contains("at most 10\""));
    // As Prussians with the oblique: 16 − 2 + 4 = 18" against a way of at least 20.02": none.
    let oblique = r#"[rules]
sides = [{ side = "Prussians", oblique = true }]"#;
    let b = moving(battle(d, &t(28.5, 31.25), oblique), 0);
    let why = refusal(&b, &Action::Charge { unit: 0, target: 1 });
    assert!(why.contains("obliquely it would need at least 20.0\" of 18\""), "{why}");
}

#[test]
fn daf2_28_a_charge_at_a_unit_level_with_the_charger_is_not_made() {
    // Hussars x 44–53, y 18.5–20, facing north; IR 3 Anhalt's centre (30, 19.5) is 0.5" behind
    // the line of the hussars' front. Kept (interpretation 19): a charge goes at an enemy
    // ahead of the charger's front edge; a unit first turns to face (a move), and charges in a
    // later turn. The reader turns the hussars 90° (13") and measures from where they stood
    // (11"): a charge. Turned about their centre, as the engine turns any unit, their front
    // would be 14.75" from the target's flank: no charge either.
    let h = r#"{ name = "HR Esterhazy", type = "hussars", at = [48.5, 19.25], facing = 0 }"#;
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 19.5] }"#;
    let b = moving(battle(t, h, ""), 1);
    let why = refusal(&b, &Action::Charge { unit: 1, target: 0 });
    assert!(why.contains("is not ahead of HR Esterhazy"), "{why}");
    // Having turned west where they stand (a move at half effect), the next turn they charge
    // straight ahead: 14.75" of 26".
    let mut b = b;
    apply(
        &mut b,
        &Action::Move { unit: 1, to: Point::new(48.5, 19.25), facing: 270.0, formation: Formation::Line },
        &[],
    );
    let mut next = moving(b, 1);
    next.units[1].acted = false;
    let c = next.check_charge(1, 0).unwrap();
    assert!(c.turned == 0.0 && near(c.cost, 14.73, 1e-6), "{c:?}");
}

#[test]
fn daf2_29_a_unit_does_not_form_up_and_charge_in_one_turn() {
    // IR 3 Anhalt in attack column (x 19–21, y 8.5–11.5); IR Botta's front 6" ahead.
    let p = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [20, 10], formation = "attack_column" }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [20, 18], facing = 180 }"#;
    let b = moving(battle(p, a, ""), 0);
    let c = b.check_charge(0, 1).unwrap();
    assert!(c.reach == 12.0 && near(c.cost, 5.98, 1e-6), "in column: 10\" + 2\": {c:?}");
    // The reader's line charge after forming line, at half effect ((8 + 2) / 2 = 5"): not in
    // the engine, which has no such option. Kept (interpretation 19): a charge is declared
    // as the unit's one action of the movement phase and made in the formation it stands in;
    // forming line is a move of its own, after which it may not declare a charge that turn.
    let mut f = b.clone();
    apply(&mut f, &Action::Move { unit: 0, to: Point::new(20.0, 10.0), facing: 0.0, formation: Formation::Line }, &[]);
    assert!(refusal(&f, &Action::Charge { unit: 0, target: 1 }).contains("has already acted this phase"));
    // In line from the start (the next turn), its charge reaches 10" (8" + 2").
    let mut n = moving(f, 0);
    n.units[0].acted = false;
    assert_eq!(n.check_charge(0, 1).unwrap().reach, 10.0);
}

/// ```text
///   y 25  · · · · · · · ▬▬▬▬▬▬  IR Botta (x 27–33), front y 24.75
///                      ↗   14" ahead and 2.5" clear to the right
///   y 10  ▬▬▬▬▬▬▬▬▬  DR 1 Normann (x 15.5–24.5), front y 10.75, facing north
/// ```
#[test]
fn daf2_30_a_prussian_charge_may_go_obliquely_at_its_rate_less_2() {
    let d = r#"{ name = "DR 1 Normann", type = "dragoons", at = [20, 10] }"#;
    let t = r#"{ name = "IR Botta", type = "musketeers", at = [30, 25.25], facing = 180 }"#;
    let oblique = r#"[rules]
sides = [{ side = "Prussians", oblique = true }]"#;
    // (a) In good order: 16 − 2 + 4 = 18". The cheapest way meets IR Botta's corner with the
    // dragoons' front: about 14.2" at some 10° off the front, facing kept — a frontal charge.
    let mut b = moving(battle(d, t, oblique), 0);
    let c = b.check_charge(0, 1).unwrap();
    assert!(c.reach == 18.0 && c.turned == 0.0 && c.facing == 0.0, "{c:?}");
    assert!(c.oblique > 5.0 && c.oblique <= 45.0 && c.cost < 14.35 && !c.flank, "{c:?}");
    let ev = apply(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    assert!(ev[0].to_string().contains("obliquely"), "{ev:?}");
    let mut dice = vec![1, 1, 1, 1, 10, 10, 10];
    dice.extend([10; 6]);
    dice.extend([1, 1, 1, 1]);
    let mut m = battle(d, t, oblique);
    let ev = charge(&mut m, 0, 1, &dice);
    let (Event::Melee { oblique: off, turned, .. }, f) = melee(&ev) else { unreachable!() };
    let f = f.unwrap();
    assert!(*off > 5.0 && *turned == 0.0 && f[0].facing == 0.0);
    assert!(convex_distance(&f[0].body, &f[1].body) < 0.05, "fought in contact");
    // (b) Shaken: (16 − 2 + 4) / 2 = 9": no charge.
    let mut s = moving(battle(d, t, oblique), 0);
    s.units[0].state = State::Shaken;
    let why = refusal(&s, &Action::Charge { unit: 0, target: 1 });
    assert!(why.contains("of 9\" (its rate less 2\")"), "{why}");
    // (c) Without the oblique (Austrian dragoons in the same place): it must turn: 10", no
    // charge.
    let b = moving(battle(d, t, ""), 0);
    assert!(refusal(&b, &Action::Charge { unit: 0, target: 1 }).contains("at most 10\""));
}

#[test]
fn daf2_31_a_charge_at_an_enemy_behind_is_not_made() {
    // Cuirassiers (y 26–27.5) facing north; IR 3 Anhalt's front 6" behind them. Kept
    // (interpretation 19): a unit does not charge what is behind it; the reader about-turns
    // them at half effect, (14 + 4) / 2 = 9", and charges.
    let c = r#"{ name = "CR Cordua", type = "cuirassiers", at = [30, 26.75], facing = 0 }"#;
    let t = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [30, 19.5] }"#;
    let b = moving(battle(t, c, ""), 1);
    assert!(refusal(&b, &Action::Charge { unit: 1, target: 0 }).contains("is not ahead of CR Cordua"));
}

// ----- 6. Officers, stands, the shaken oblique, sight -----

/// IR Botta with Colonel Sincere under IR 1's fire: one volley in each `(turn, officer's die)`,
/// 1 hit each, the test passed. The colonel as he is after.
fn wounds(volleys: &[(u32, u32)]) -> (Battle, usize) {
    let p = r#"{ name = "IR 1", type = "musketeers", at = [30, 24] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [30, 30], facing = 180 }"#;
    let mut b = firing(battle(p, a, SINCERE), 0);
    for &(turn, die) in volleys {
        b.turn = turn;
        b.units[0].acted = false;
        // Killed, he gives the test no die (the next man up takes his place after it).
        let test: &[u32] = if die >= 9 { &[1, 1] } else { &[1, 1, 1] };
        let mut dice = vec![1, 10, 10, 10, 10, 10, die];
        dice.extend_from_slice(test);
        apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &dice);
    }
    let o = b.officers.iter().position(|o| o.with == Some(1)).unwrap();
    (b, o)
}

#[test]
fn daf2_32_wounds_one_after_another() {
    // How far he may ride in each of `turns`, after the volleys up to each turn.
    let rides = |v: &[(u32, u32)], turns: std::ops::RangeInclusive<u32>| {
        turns
            .map(|t| {
                let upto: Vec<(u32, u32)> = v.iter().copied().filter(|&(w, _)| w <= t).collect();
                let (b, o) = wounds(&upto);
                assert_eq!(b.officers[o].with, Some(1), "he stays with the unit");
                b.officers[o].ride(t)
            })
            .collect::<Vec<_>>()
    };
    // Kept (interpretation 34): the two turns of a severe wound are the turn he is hit in
    // (officers ride in its leader phase, after the fire and the melees) and the next; the
    // reader's are the next two whole turns, one turn later throughout.
    // Severe in turn 3, light in turn 4: no ride in turns 3 and 4 (the light wound does not
    // free him), then half speed for good. The reader: none in 4 and 5, half from 6.
    assert_eq!(rides(&[(3, 7), (4, 5)], 3..=7), [0.0, 0.0, 12.0, 12.0, 12.0]);
    // Light in 3, severe in 4: half in 3; none in 4 and 5; half again from 6 (the reader: half
    // in 4, none in 5 and 6, half from 7).
    assert_eq!(rides(&[(3, 6), (4, 8)], 3..=7), [12.0, 0.0, 0.0, 12.0, 12.0]);
    // Two light wounds: half speed, not a quarter.
    assert_eq!(rides(&[(3, 5), (5, 6)], 5..=6), [12.0, 12.0]);
    // Two severe wounds: the second's two turns (4 and 5; the reader: 4 to 6, the second's).
    assert_eq!(rides(&[(3, 7), (4, 8)], 3..=6), [0.0, 0.0, 0.0, 24.0]);
    // Lightly wounded, then killed: the next man up is unhurt, and the unit keeps a leader.
    let (b, o) = wounds(&[(3, 6), (6, 9)]);
    assert_eq!((b.officers[o].name.as_str(), b.officers[o].ride(6)), ("Colonel Sincere's successor", 24.0));
    assert!(b.leader_attached(1));
}

#[test]
fn daf2_33_stands_wear_down_a_line_of_two_stands_is_an_attack_column() {
    // IR Botta, 12 figures: 3 stands, a line 3" wide.
    let p = r#"{ name = "IR 1", type = "musketeers", at = [30, 24] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [30, 30], facing = 180, figures = 12 }"#;
    let mut b = firing(battle(p, a, ""), 0);
    // A volley of 6 dice with `hits` hits, and its test passed (none if the unit is removed).
    let volley = |b: &mut Battle, hits: usize| {
        b.units[0].acted = false;
        let mut dice: Vec<u32> = vec![1; hits];
        dice.resize(6, 10);
        if b.units[1].figures > hits as u32 + 4 {
            dice.extend([1, 1]);
        }
        apply(b, &Action::Fire { unit: 0, target: 1 }, &dice)
    };
    for (hits, figures) in [(1, 11), (2, 9)] {
        volley(&mut b, hits);
        assert_eq!((b.units[1].figures, b.units[1].stands(), b.units[1].formation), (figures, 3, Formation::Line));
    }
    assert_eq!(b.volley(0, 1).unwrap().0.dice().unwrap().0, Chart::C);
    // 8 figures: 2 stands, 2 wide: an attack column where it stands, fired on at B (6), and
    // moving 10".
    let ev = volley(&mut b, 1);
    assert_eq!((b.units[1].figures, b.units[1].stands(), b.units[1].formation), (8, 2, Formation::AttackColumn));
    assert!(ev.iter().any(|e| matches!(e, Event::Reformed { .. })));
    assert_eq!(b.units[1].at, Point::new(30.0, 30.0));
    let (v, _) = b.volley(0, 1).unwrap();
    assert_eq!((v.dice().unwrap().0, v.dice().unwrap().2), (Chart::B, 6));
    assert_eq!(b.allowance(1, Some(180.0), 180.0, Formation::AttackColumn).unwrap().allowance, 10.0);
    // 7 and 5 figures: still 2 stands; 4: 1 stand, removed.
    assert!(b.units[1].too_narrow_for(Formation::Line));
    volley(&mut b, 4);
    assert_eq!(b.units[1].state, State::Removed);
    // Dragoons at 2 figures a stand: 5 or 6 figures are 3 stands (a line 4.5" wide); 4 are 2
    // stands: removed.
    let d = r#"{ name = "DR", type = "dragoons", at = [30, 30], facing = 180, figures = 5 }"#;
    let b = battle(FAR_P, d, "");
    assert_eq!(
        (b.units[1].stands(), b.units[1].formation, b.units[1].size(Formation::Line).0),
        (3, Formation::Line, 4.5)
    );
    assert!(!worn_out(Arm::Cavalry, 5, 2) && worn_out(Arm::Cavalry, 4, 2));
}

#[test]
fn daf2_34_a_shaken_prussian_unit_moving_obliquely_less_2_then_half() {
    let oblique = r#"[rules]
sides = [{ side = "Prussians", oblique = true }]"#;
    let at45 = |d: f64| Point::new(20.0 + d * 45f64.to_radians().sin(), 10.0 + d * 45f64.to_radians().cos());
    // (type, formation, oblique, straight ahead, sideways), all shaken.
    for (kind, formation, ob, ahead, side) in [
        ("musketeers", Formation::Line, 3.0, 4.0, 2.0),
        ("musketeers", Formation::AttackColumn, 4.0, 5.0, 2.5),
        ("garrison", Formation::Line, 2.0, 3.0, 1.5),
        ("hussars", Formation::Line, 9.0, 10.0, 5.0),
    ] {
        let f = if formation == Formation::Line { "line" } else { "attack_column" };
        let u = format!(r#"{{ name = "IR 3 Anhalt", type = "{kind}", at = [20, 10], formation = "{f}" }}"#);
        let mut b =
            moving(battle(&u, r#"{ name = "Far", type = "musketeers", at = [90, 95], facing = 180 }"#, oblique), 0);
        b.units[0].state = State::Shaken;
        let a = |h: f64| b.allowance(0, Some(h), 0.0, formation).unwrap().allowance;
        assert_eq!([a(45.0), a(0.0), a(90.0)], [ob, ahead, side], "{kind} {f}");
        let r = b.validate(&Action::Move { unit: 0, to: at45(ob), facing: 0.0, formation });
        assert!(r.is_ok(), "{kind} {f}: {r:?}");
        assert!(!ok(&b, &Action::Move { unit: 0, to: at45(ob + 0.1), facing: 0.0, formation }));
    }
    // Rough ground 1" along the oblique way: 1" and then 2" of allowance at double cost: 2".
    let woods = format!(
        r#"{oblique}

[[terrain]]
kind = "woods"
rect = [0, {}, 100, 40]"#,
        10.0 + 45f64.to_radians().cos()
    );
    let mut b = moving(
        battle(
            r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [20, 10] }"#,
            FAR_P.replace("90, 5", "90, 95").as_str(),
            &woods,
        ),
        0,
    );
    b.units[0].state = State::Shaken;
    let line = Formation::Line;
    assert!(ok(&b, &Action::Move { unit: 0, to: at45(2.0), facing: 0.0, formation: line }));
    assert!(!ok(&b, &Action::Move { unit: 0, to: at45(2.1), facing: 0.0, formation: line }));
}

/// ```text
///  16 |  BBBBBB          IR Botta, x 10-16
///  14 |wwwwwww           woods x 8-13.5, y 12-14
///  12 |wwwwwww
///  10 |  PPPPPP          IR 3, x 10-16
///       10  13.5 16
/// ```
#[test]
fn daf2_35_a_wood_between_firer_and_target_is_counted_stand_by_stand() {
    let p = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [13, 9.5] }"#;
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [13, 16.5], facing = 180 }"#;
    let woods = r#"[[terrain]]
kind = "woods"
name = "the Fasanerie"
rect = [8, 12, 13.5, 14]"#;
    let b = firing(battle(p, a, woods), 0);
    // The stands at x 12–16 see past the wood's end; those at 10–12 do not: 16 figures, 4 dice
    // on C (5).
    let (v, _) = b.volley(0, 1).unwrap();
    assert_eq!(v.firer.firing, 16);
    assert_eq!(v.dice().unwrap(), (Chart::C, 4, 5));
}

#[test]
fn daf2_36_a_town_units_in_it_fire_and_are_fired_at_not_through_it() {
    let town = r#"[[terrain]]
kind = "town"
name = "Kirchdorf"
rect = [20, 18, 28, 22]"#;
    let p = r#"{ name = "IR 3 Anhalt", type = "musketeers", at = [24, 13.5] }"#;
    // (a) IR Botta 1" inside the town: fired at, 5", on C (a town is no hard cover); its test
    // has 3 dice (cover).
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [24, 19.5], facing = 180 }"#;
    let mut b = firing(battle(p, a, town), 0);
    let (v, aim) = b.volley(0, 1).unwrap();
    assert!(near(aim.distance, 5.0, 1e-9) && v.dice().unwrap().0 == Chart::C);
    let ev = apply(&mut b, &Action::Fire { unit: 0, target: 1 }, &[1, 10, 10, 10, 10, 10, 1, 1, 1]);
    let Event::Volley { test: Some(t), .. } = &ev[0] else { panic!("{ev:#?}") };
    assert_eq!(t.dice.len(), 3);
    // (d) Out of the town it fires back.
    let back = firing(battle(p, a, town), 1);
    assert!(back.volley(1, 0).is_ok());
    // (b) 2.5" inside: still fired at (6.5").
    let a = r#"{ name = "IR Botta", type = "musketeers", at = [24, 21], facing = 180 }"#;
    let b = firing(battle(p, a, town), 0);
    assert!(near(b.volley(0, 1).unwrap().1.distance, 6.5, 1e-9));
    // (c) Grenadiers (10") and a battalion behind the town, 9" off: every line crosses it, and
    // neither stands in it: no fire.
    let g = r#"{ name = "Grenadiers", type = "grenadiers", at = [24, 13.5] }"#;
    let l = r#"{ name = "Grenadier battalion Lascy", type = "grenadiers", at = [24, 23.5], facing = 180 }"#;
    let b = firing(battle(g, l, town), 0);
    assert!(refusal(&b, &Action::Fire { unit: 0, target: 1 }).contains("the line of fire is blocked"));
}
