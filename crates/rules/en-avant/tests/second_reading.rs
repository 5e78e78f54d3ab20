//! The second reading's cases for the calculator (`docs/second-reading/en-avant.md`): the fire
//! table cell by cell (EA-1 … EA-15) and the close assault (EA-32 … EA-43), worked by hand from the
//! text by a reader who had not seen the code. The table moves of the battle are not yet built.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use volley_en_avant::combat::{Assault, Direction, Ends, Fire, Formation, Next, Outcome, Party, Situation, resolve};
use volley_en_avant::tables::{Arm, Density, FireKind, Status, fire_effect};

use Density::{Dense, Loose};
use FireKind::*;
use Status::*;

fn fire(kind: FireKind, firer: Status, target: Status, density: Density) -> Status {
    fire_effect(kind, firer, target, density).status
}

fn in_range(kind: FireKind, cm: f64) -> bool {
    resolve(&Situation::Fire(Fire { kind, firer: Steady, target: Steady, density: Dense, range_cm: Some(cm) })).is_ok()
}

#[test]
fn ea_1_to_ea_3_the_first_volley_from_line() {
    assert_eq!(fire(FirstLineVolley, Steady, Pugnacious, Dense), Steady, "EA-1: any target drops two");
    assert_eq!(fire(FirstLineVolley, Steady, Pugnacious, Loose), Determined, "EA-2: any target drops one");
    assert_eq!(fire(FirstLineVolley, Nervous, Nervous, Dense), Wavering, "EA-3a");
    assert_eq!(fire(FirstLineVolley, Wavering, Steady, Loose), Steady, "EA-3b: higher, no effect");
    assert_eq!(fire(FirstLineVolley, Frightened, Frightened, Loose), RunningAway, "EA-3c");
}

#[test]
fn ea_4_to_ea_8_later_volleys_and_volleys_from_columns_squares_and_disordered_lines() {
    assert_eq!(fire(LaterLineVolley, Determined, Determined, Dense), Steady, "EA-4a");
    assert_eq!(fire(LaterLineVolley, Determined, Determined, Loose), Determined, "EA-4b");
    assert_eq!(fire(LaterLineVolley, Determined, Steady, Loose), Nervous, "EA-4b at 4");
    assert_eq!(fire(LaterLineVolley, Steady, Steady, Dense), Nervous, "EA-5a: a square's first");
    assert_eq!(fire(LaterLineVolley, Determined, Determined, Loose), Determined, "EA-5b");
    assert_eq!(fire(LaterLineVolley, Nervous, Nervous, Dense), Nervous, "EA-6a: lower needed");
    assert_eq!(fire(LaterLineVolley, Nervous, Wavering, Dense), Frightened, "EA-6b");
    assert_eq!(fire(LaterLineVolley, Nervous, Wavering, Loose), Frightened, "EA-6c");
    assert_eq!(fire(LaterOtherVolley, Steady, Steady, Dense), Steady, "EA-7a");
    assert_eq!(fire(LaterOtherVolley, Steady, Nervous, Dense), Wavering, "EA-7b");
    assert_eq!(fire(LaterOtherVolley, Determined, Steady, Loose), Nervous, "EA-7c");
    assert_eq!(fire(LaterOtherVolley, Wavering, Frightened, Dense), RunningAway, "EA-8a");
    assert_eq!(fire(LaterOtherVolley, Wavering, Frightened, Loose), Frightened, "EA-8b: no effect");
}

#[test]
fn ea_9_to_ea_13_canister_and_ball() {
    assert_eq!(fire(Canister, Determined, Pugnacious, Dense), Steady, "EA-9a: dense, two");
    assert_eq!(fire(Canister, Determined, Pugnacious, Loose), Determined, "EA-9b: loose, one");
    assert_eq!(fire(Canister, Wavering, Pugnacious, Dense), Determined, "EA-10a");
    assert_eq!(fire(Canister, Wavering, Steady, Loose), Nervous, "EA-10b");
    assert_eq!(fire(Canister, Steady, Wavering, Dense), RunningAway, "EA-10c: no floor");
    assert_eq!(fire(Ball, Steady, Steady, Dense), Nervous, "EA-11a");
    assert!(in_range(Ball, 26.0) && !in_range(Ball, 25.0), "EA-11: ball is over 25 cm");
    assert!(in_range(Canister, 25.0) && in_range(Ball, 100.0) && !in_range(Ball, 100.5), "EA-11a′, b, d");
    assert_eq!(fire(Ball, Steady, Steady, Loose), Nervous, "EA-11b");
    assert_eq!(fire(Ball, Steady, Determined, Loose), Determined, "EA-11c");
    assert_eq!(fire(Ball, Nervous, Wavering, Dense), Frightened, "EA-12a");
    assert_eq!(fire(Ball, Nervous, Nervous, Dense), Nervous, "EA-12b");
    assert_eq!(fire(Ball, Nervous, Wavering, Loose), Wavering, "EA-12c");
    assert_eq!(fire(Ball, Pugnacious, Wavering, Dense), Frightened, "EA-13a");
    assert_eq!(fire(Ball, Pugnacious, Frightened, Dense), Frightened, "EA-13b: the floor");
    assert_eq!(fire(Canister, Pugnacious, Frightened, Dense), RunningAway, "EA-13c");
}

#[test]
fn ea_14_ea_15_rifles_never_below_wavering() {
    assert_eq!(fire(Rifles, Steady, Nervous, Dense), Wavering, "EA-14a");
    assert_eq!(fire(Rifles, Steady, Wavering, Dense), Wavering, "EA-14a: next turn, the floor");
    assert_eq!(fire(Rifles, Determined, Determined, Loose), Steady, "EA-14b");
    assert!(in_range(Rifles, 10.0) && !in_range(Rifles, 10.5), "EA-14c");
    // A rifle company at 3 or below never changes a status.
    for t in Status::ALL {
        for d in [Dense, Loose] {
            assert_eq!(fire(Rifles, Nervous, t, d), t, "EA-15 {t:?} {d:?}");
        }
    }
}

fn party(arm: Arm, status: Status, formation: Formation) -> Party {
    Party::new(arm, status, formation)
}

fn assault(a: Party, d: Party) -> Assault {
    Assault::new(a, d)
}

/// (closed, attacker won, attacker's end, defender's end).
fn outcome(a: &Assault) -> (bool, bool, Ends, Ends) {
    match resolve(&Situation::Assault(a.clone())).unwrap().outcome() {
        Outcome::Assault { closed, attacker_won, attacker, defender } => (closed, attacker_won, attacker, defender),
        o => panic!("{o:?}"),
    }
}

fn ends(status: Status, after: Next) -> Ends {
    Ends { status, after, disordered: true }
}

#[test]
fn ea_32_equal_is_enough_and_a_failed_attack_stops() {
    let cav = |s| party(Arm::Cavalry, s, Formation::Line);
    let (closed, won, a, d) = outcome(&assault(cav(Steady), cav(Steady)));
    assert!(closed && won);
    assert_eq!((a, d), (ends(Steady, Next::Pursues), ends(Wavering, Next::Withdraws { cm: 25 })));
    let (closed, _, a, d) = outcome(&assault(cav(Nervous), cav(Steady)));
    assert!(!closed);
    assert_eq!((a.status, a.after, a.disordered), (Nervous, Next::Stays, true));
    assert_eq!((d.status, d.disordered), (Steady, false), "the defender stays ORDERED");
}

#[test]
fn ea_33_the_defenders_disorder_and_fire_count_against_it() {
    let mut d = party(Arm::Infantry, Determined, Formation::Line);
    d.disordered = true;
    d.fired_last_turn = true;
    let (closed, won, a, d) = outcome(&assault(party(Arm::Infantry, Steady, Formation::Column), d));
    assert!(closed && !won, "4 against 5 − 1 − 1 closes; 4 against 5 loses");
    assert_eq!(a, ends(Nervous, Next::Withdraws { cm: 10 }));
    assert_eq!(d, ends(Steady, Next::MayPursue));
}

#[test]
fn ea_34_flank_and_rear() {
    let mut a =
        assault(party(Arm::Cavalry, Steady, Formation::Line), party(Arm::Infantry, Determined, Formation::Line));
    a.direction = Direction::Flank;
    let (closed, won, x, d) = outcome(&a);
    assert!(closed && won, "4 + 1 against 5: a tie, the attacker wins");
    assert_eq!((x, d), (ends(Steady, Next::Pursues), ends(Steady, Next::Withdraws { cm: 5 })));
    a.direction = Direction::Front;
    let (_, won, x, _) = outcome(&a);
    assert!(!won);
    assert_eq!(x, ends(Wavering, Next::Withdraws { cm: 25 }));
    a.direction = Direction::Rear;
    assert!(outcome(&a).1);
}

#[test]
fn ea_35_to_ea_37_cavalry_against_squares_formed_and_forming() {
    let cav = party(Arm::Cavalry, Determined, Formation::Line);
    let mut sq = party(Arm::Infantry, Steady, Formation::Square);
    assert!(!outcome(&assault(cav.clone(), sq.clone())).0, "EA-35: 5 − 2 against 4");
    sq.fired_last_turn = true;
    let (closed, won, ..) = outcome(&assault(cav.clone(), sq));
    assert!(closed && won, "EA-35 note: 3 against 3 closes, 5 against 4 wins");
    // EA-36: the cavalry disordered by fire, at 3.
    let mut c3 = party(Arm::Cavalry, Nervous, Formation::Line);
    c3.disordered = true;
    let (closed, won, a, d) = outcome(&assault(c3, party(Arm::Infantry, Steady, Formation::Line)));
    assert!(closed && !won);
    assert_eq!((a, d), (ends(Frightened, Next::Withdraws { cm: 25 }), ends(Steady, Next::Pursues)));
    // EA-37: forming square, the change's disorder not counted twice.
    let mut forming = party(Arm::Infantry, Steady, Formation::Line);
    forming.forming_square = true;
    forming.disordered = true;
    let mut near = assault(party(Arm::Cavalry, Steady, Formation::Line), forming);
    near.cavalry_within_half_a_turn = true;
    let (closed, won, _, d) = outcome(&near);
    assert!(closed && won, "EA-37a: 6 against 3, then 4 against 4");
    assert_eq!(d, ends(Nervous, Next::Withdraws { cm: 10 }));
    near.cavalry_within_half_a_turn = false;
    assert!(!outcome(&near).0, "EA-37b: 2 against 3");
}

#[test]
fn ea_38_to_ea_41_officer_fire_numbers_and_line_against_column() {
    let mut col = party(Arm::Infantry, Steady, Formation::Column);
    col.senior_officer = true;
    let (closed, won, a, _) = outcome(&assault(col, party(Arm::Infantry, Determined, Formation::Line)));
    assert!(closed && !won, "EA-38: the officer in step one only");
    assert_eq!(a, ends(Nervous, Next::Withdraws { cm: 10 }));
    let mut fired = party(Arm::Infantry, Determined, Formation::Column);
    fired.fired_last_turn = true;
    assert!(!outcome(&assault(fired, party(Arm::Infantry, Determined, Formation::Line))).0, "EA-39");
    let mut two =
        assault(party(Arm::Infantry, Steady, Formation::Column), party(Arm::Infantry, Determined, Formation::Line));
    two.outnumbering = true;
    let (closed, won, ..) = outcome(&two);
    assert!(closed && !won, "EA-40");
    let mut line = party(Arm::Cavalry, Determined, Formation::Line);
    line.senior_officer = true;
    let (closed, won, a, d) = outcome(&assault(line, party(Arm::Cavalry, Pugnacious, Formation::Column)));
    assert!(closed && won, "EA-41: 6 against 6 in both steps");
    assert_eq!((a, d), (ends(Steady, Next::Pursues), ends(Steady, Next::Withdraws { cm: 10 })));
}

#[test]
fn ea_42_ea_43_artillery_and_the_results_table() {
    let guns = party(Arm::Artillery, Steady, Formation::Deployed);
    let cav = party(Arm::Cavalry, Steady, Formation::Column);
    let (closed, won, a, d) = outcome(&assault(cav.clone(), guns));
    assert!(closed && won);
    assert_eq!((a, d.after), (ends(Steady, Next::Pursues), Next::Destroyed));
    assert!(!outcome(&assault(cav, party(Arm::Artillery, Pugnacious, Formation::Deployed))).0);
    // A cavalry loser of 1–2 is brought to 0: it runs away rather than withdrawing 50 cm.
    let mut low =
        assault(party(Arm::Infantry, Steady, Formation::Column), party(Arm::Cavalry, Wavering, Formation::Line));
    low.direction = Direction::Front;
    let (_, won, _, d) = outcome(&low);
    assert!(won);
    assert_eq!(d, ends(RunningAway, Next::RunsAway));
}
