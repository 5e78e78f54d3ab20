//! The audit of issue 28 (items 9–12 and 16): each finding as a hand-worked position, played
//! through a turn, with what the register now says must happen. Blue starts in the south facing
//! north, Red in the north facing south; a unit's `at` is the centre of its front edge.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

mod common;

use common::{BLUE_FAR, RED_FAR, battle, blues, reds, told_of, unit};
use volley_chance::Seeded;
use volley_core::{Actor, GameState, Viewer};
use volley_en_avant::battle::{Action, Battle, CONTACT, Pending, Presence, STAND_OFF};
use volley_en_avant::combat::Direction;
use volley_en_avant::events::{Blocked, Event, Fact, MoveKind, NextTurn, Stop};
use volley_en_avant::orders::Order;
use volley_en_avant::tables::Status;
use volley_table::{Point, heading_to, turn as angle_between};

/// Give each side its cards (by unit name), play the turn, and return every event.
fn play(b: &mut Battle, blue: &[(&str, Order)], red: &[(&str, Order)]) -> Vec<Event> {
    let mut events = Vec::new();
    let mut chance = Seeded::new(1);
    for orders in [blue, red] {
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

fn gap(b: &Battle, x: &str, y: &str) -> f64 {
    b.gap(unit(b, x), unit(b, y))
}

// Item 9: an assault was fought after its target moved out of contact in the same movement
// phase (the charger moved first and reached it, then it withdrew); the same orders with the
// other side moving first gave no assault. Now the contact must hold when the assault is fought:
// a charger whose enemy moves on keeps up with it with what is left of its move, or the contact
// is lost (interpretation 34).
//
//     Red line  ======   (withdraws 20 cm north)
//                 ^ 15 cm (the column), 10 cm (the horse)
//     Blue      [col]    (charges, 25 cm; the horse 40 cm)

const RED_LINE: &str = r#"{ name = "Red line", kind = "infantry", at = [90, 55] }"#;

/// Plays Blue's charge at Red's withdrawing line in the turn Blue leads (1) or Red leads (2);
/// returns the battle and the turn's events.
fn charge_at_a_withdrawal(blue: &str, red_leads: bool) -> (Battle, Vec<Event>) {
    let mut b = battle(&blues(blue), &reds(RED_LINE), "");
    if red_leads {
        play(&mut b, &[], &[]);
    }
    let red = unit(&b, "Red line") as u16;
    let blue_name = b.stat().unit_names[0].clone();
    let events = play(&mut b, &[(&blue_name, Order::Charge { target: red })], &[("Red line", Order::Withdraw)]);
    (b, events)
}

#[test]
fn a_charge_at_a_unit_that_withdraws_out_of_reach_is_no_assault_whoever_moves_first() {
    let column = r#"{ name = "Blue column", kind = "infantry", at = [90, 40], formation = "assault_column" }"#;
    for red_leads in [false, true] {
        let (b, events) = charge_at_a_withdrawal(column, red_leads);
        // 15 cm to close and the 20 cm Red withdraws: 35 cm, more than the column's 25.
        assert!(assaults(&events).is_empty(), "red leads {red_leads}: {:#?}", words(&events));
        assert!(gap(&b, "Blue column", "Red line") > 5.0, "red leads {red_leads}");
        assert!(!told_of(&words(&events), "closes with"), "red leads {red_leads}");
    }
}

#[test]
fn a_charge_that_can_keep_up_with_a_withdrawal_fights_it_in_contact_whoever_moves_first() {
    let horse = r#"{ name = "Blue horse", kind = "cavalry", at = [90, 45] }"#;
    for red_leads in [false, true] {
        let (b, events) = charge_at_a_withdrawal(horse, red_leads);
        // 10 cm and 20 cm: 30 cm, within the horse's 40.
        assert_eq!(
            assaults(&events),
            vec![(vec!["Blue horse".to_string()], "Red line".to_string())],
            "red leads {red_leads}: {:#?}",
            words(&events)
        );
        assert!(gap(&b, "Blue horse", "Red line") <= CONTACT, "fought in contact, red leads {red_leads}");
        assert!((b.units[unit(&b, "Red line")].at.y - 75.0).abs() < 1e-6, "Red went its 20 cm first");
    }
}

#[test]
fn the_farm_seed_10_fights_every_assault_in_contact() {
    // The audit's case (`volley play the-farm --seed 10`, turn 4): 2/6e Leger reached 2/95th
    // Rifles, which then withdrew 20 cm, and the assault was fought 20 cm apart. The battle now
    // goes otherwise from its first turns; every assault of it is fought in contact.
    let path = format!("{}/../../../scenarios/en-avant/the-farm.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap();
    let mut b = volley_en_avant::load(&volley_scenario::Source::new("the-farm.toml", text)).unwrap();
    let mut agents = volley_ai::seated::<Battle>(&["heuristic".to_string(), "heuristic".to_string()], 10).unwrap();
    let mut chance = Seeded::new(10);
    let mut cands = Vec::new();
    let mut fought = 0;
    while b.outcome.is_none() {
        let Actor::Side(s) = b.actor() else { break };
        cands.clear();
        b.candidate_actions(&mut cands);
        let a = cands[agents[usize::from(s)].choose(&b, &cands).min(cands.len() - 1)].clone();
        let mut events = Vec::new();
        b.apply(&a, &mut chance, &mut events).unwrap();
        for f in facts(&events) {
            if let Fact::Assault { attackers, .. } = f {
                for x in attackers {
                    fought += 1;
                    assert!(x.gap <= CONTACT, "{} fought {:.1} cm away: {:#?}", x.unit, x.gap, words(&events));
                }
            }
        }
    }
    assert!(fought > 0, "the battle holds close assaults");
}

// Item 10: contact that froze. A compulsory pursuit was dropped without a word when the loser was
// still in contact (a unit touching an enemy could not close with it), and a withdrawal cut
// short did nothing more. Now a pursuit into contact is a new close assault, and a withdrawal
// cut short follows the register's rule (interpretation 35).

/// Blue's horse (its front at y = 50) touching Red's line (its front at y = 50) front to front.
fn in_contact(red: &str) -> Battle {
    battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 50] }"#),
        &reds(&format!(r#"{{ name = "Red line", kind = "infantry", at = [90, 50] }}, {red}"#)),
        "",
    )
}

#[test]
fn a_pursuit_into_contact_is_a_new_close_assault() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 50] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 50], status = "nervous" }"#),
        "",
    );
    let (h, r) = (unit(&b, "Blue horse"), unit(&b, "Red line"));
    assert!(b.gap(h, r) <= CONTACT);
    // A unit touching an enemy may be ordered to close with it.
    assert!(b.check_order(1, r as u16, Order::Charge { target: h as u16 }).is_ok());
    b.units[h].pending = Pending::Pursue { target: r as u16 };
    let events = play(&mut b, &[], &[("Red line", Order::Halt)]);
    let told = words(&events);
    assert!(told_of(&told, "Blue horse pursues Red line and reaches it"), "{told:#?}");
    assert_eq!(assaults(&events), vec![(vec!["Blue horse".to_string()], "Red line".to_string())], "{told:#?}");
}

/// A loser's withdrawal, set up as the results table leaves it: `cm` from the winner.
fn withdraw(b: &mut Battle, loser: &str, winner: &str, cm: u8) -> Vec<Event> {
    let (l, w) = (unit(b, loser), unit(b, winner));
    b.units[l].pending = Pending::Withdraw { cm, from: w as u16 };
    b.units[l].status[0] = Status::Nervous;
    play(b, &[], &[])
}

fn withdrawal(events: &[Event]) -> (f64, f64, Stop, Blocked) {
    facts(events)
        .into_iter()
        .find_map(|f| match f {
            Fact::Withdrawal { ordered, done, stop, rule, .. } => Some((*ordered, *done, stop.clone(), *rule)),
            _ => None,
        })
        .unwrap()
}

#[test]
fn a_withdrawal_across_the_table_edge_leaves_the_field() {
    // Red's horse 6 cm from its own edge must withdraw 25 cm.
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 100] }"#),
        &format!(r#"{{ name = "Red horse", kind = "cavalry", at = [90, 110] }}, {RED_FAR}"#),
        "",
    );
    let events = withdraw(&mut b, "Red horse", "Blue line", 25);
    let (ordered, done, stop, rule) = withdrawal(&events);
    assert_eq!((ordered, stop, rule), (25.0, Stop::Edge, Blocked::OffTheField), "{:#?}", words(&events));
    assert!((done - 6.0).abs() < 1e-6, "{done}");
    assert_eq!(b.units[unit(&b, "Red horse")].presence, Presence::Removed);
    assert!(told_of(&words(&events), "Red horse falls back off the field"));
}

#[test]
fn cavalry_pursuing_a_loser_that_withdrew_off_the_field_follow_it_off() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 100] }"#),
        &format!(r#"{{ name = "Red horse", kind = "cavalry", at = [90, 110] }}, {RED_FAR}"#),
        "",
    );
    let (h, r) = (unit(&b, "Blue horse"), unit(&b, "Red horse"));
    b.units[h].pending = Pending::Pursue { target: r as u16 };
    let events = withdraw(&mut b, "Red horse", "Blue horse", 25);
    assert_eq!(b.units[r].presence, Presence::Removed, "{:#?}", words(&events));
    assert!(matches!(b.units[h].presence, Presence::Away { .. }), "{:#?}", words(&events));
    assert!(told_of(&words(&events), "Blue horse pursue Red horse off the field"));
}

#[test]
fn a_loser_that_cannot_get_clear_of_the_enemy_is_caught_and_runs() {
    // A Red battalion stands right behind the Red line, touching it: it cannot give an inch.
    let mut b = in_contact(r#"{ name = "Red support", kind = "infantry", at = [90, 52] }"#);
    let events = withdraw(&mut b, "Red line", "Blue horse", 10);
    let (_, done, stop, rule) = withdrawal(&events);
    assert_eq!((done, rule), (0.0, Blocked::Caught), "{:#?}", words(&events));
    assert!(matches!(stop, Stop::Body { ref unit, enemy: false } if unit == "Red support"), "{stop:?}");
    let r = &b.units[unit(&b, "Red line")];
    assert!(!r.here() || r.running(), "it breaks and runs");
    assert!(facts(&events).iter().any(|f| matches!(f, Fact::Run { unit, .. } if unit == "Red line")));
}

#[test]
fn a_withdrawal_cut_short_but_clear_of_the_enemy_stands_where_the_ground_stopped_it() {
    // The support stands 3 cm behind the line: it falls back 3 of its 10 cm.
    let mut b = in_contact(r#"{ name = "Red support", kind = "infantry", at = [90, 55] }"#);
    let events = withdraw(&mut b, "Red line", "Blue horse", 10);
    let (_, done, _, rule) = withdrawal(&events);
    assert_eq!(rule, Blocked::Short, "{:#?}", words(&events));
    assert!((done - 3.0).abs() < 1e-6, "{done}");
    assert_eq!(b.units[unit(&b, "Red line")].status[0], Status::Nervous, "no more than the table's loss");
    assert!((gap(&b, "Blue horse", "Red line") - 3.0).abs() < 1e-6);
}

// Item 12.

#[test]
fn the_commanders_rally_raises_both_lines_of_a_cavalry_column() {
    let mut b = battle(
        &format!(
            r#"{{ name = "Blue horse", kind = "cavalry", at = [50, 30], formation = "cavalry_column", status = "nervous", second_status = "wavering" }}, {BLUE_FAR}"#
        ),
        RED_FAR,
        "",
    );
    let h = unit(&b, "Blue horse");
    let mut events = Vec::new();
    let mut chance = Seeded::new(1);
    b.apply(&Action::Ride { unit: Some(h as u16) }, &mut chance, &mut events).unwrap();
    b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    b.apply(&Action::Done, &mut chance, &mut events).unwrap();
    let events = play(&mut b, &[], &[]);
    assert_eq!(b.units[h].status, [Status::Steady, Status::Nervous], "{:#?}", words(&events));
    let rally = facts(&events).into_iter().find(|f| matches!(f, Fact::Rally { .. })).unwrap();
    assert!(matches!(rally, Fact::Rally { commander: true, lines, .. } if lines.len() == 2));
}

#[test]
fn a_unit_fired_at_without_effect_still_reorders() {
    // A Nervous battery's roundshot at a loose line 60 cm off: no effect (the fire table).
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#),
        &reds(r#"{ name = "Red guns", kind = "artillery", at = [90, 100], status = "nervous" }"#),
        "",
    );
    let l = unit(&b, "Blue line");
    b.units[l].disordered = [true, true];
    let events = play(&mut b, &[("Blue line", Order::Halt)], &[("Red guns", Order::Fire)]);
    let told = words(&events);
    assert!(told_of(&told, "Red guns' roundshot at Blue line has no effect"), "{told:#?}");
    assert!(b.units[l].ordered(), "still, not firing, a whole turn: {told:#?}");
    assert!(facts(&events).iter().any(|f| matches!(f, Fact::Reordered { unit } if unit == "Blue line")));
}

#[test]
fn a_failed_attack_draws_back_as_far_as_the_ground_lets_it() {
    // Blue's Nervous, DISORDERED horse 1 cm from a Determined line: 3 + 2 - 1 = 4 against 5, it
    // will not close. Its own foot stand 3 cm behind where it reaches: it draws back 3 cm, not
    // the 5 the text gives, and not 0.
    //
    //     Red line   ====== (front at y 50)
    //     Blue horse [====] (front at y 49, 4 cm deep)
    //     Blue line  ====== (front at y 43)
    let mut b = battle(
        &blues(
            r#"{ name = "Blue horse", kind = "cavalry", at = [90, 49], status = "nervous" }, { name = "Blue line", kind = "infantry", at = [90, 43] }"#,
        ),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 50], status = "determined" }"#),
        "",
    );
    let h = unit(&b, "Blue horse");
    b.units[h].disordered = [true, true];
    let red = unit(&b, "Red line") as u16;
    let events = play(&mut b, &[("Blue horse", Order::Charge { target: red })], &[("Red line", Order::Halt)]);
    let told = words(&events);
    assert!(told_of(&told, "Blue horse will not close with Red line"), "{told:#?}");
    let g = gap(&b, "Blue horse", "Red line");
    assert!((g - 3.0).abs() < 1e-6 && g < STAND_OFF, "{g} {told:#?}");
    let stood = facts(&events).into_iter().find_map(|f| match f {
        Fact::Assault { attackers, .. } => attackers[0].stood_off,
        _ => None,
    });
    assert_eq!(stood, Some(3.0));
}

#[test]
fn a_pursuit_turns_to_the_face_it_can_reach_going_forward() {
    // The horse is off the end of the loser's front: closing with the front it would slide 74°
    // off its facing; it turns to face the loser's flank instead and goes at most 45° off.
    //
    //     Red line ====== (x 60..96, front at y 50)
    //                              Blue horse (front centre [130, 40], facing north)
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [130, 40] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [78, 50] }"#),
        "",
    );
    let (h, r) = (unit(&b, "Blue horse"), unit(&b, "Red line"));
    b.units[h].pending = Pending::Pursue { target: r as u16 };
    let start = b.units[h].at;
    let events = play(&mut b, &[], &[("Red line", Order::Halt)]);
    let x = &b.units[h];
    let off = angle_between(x.facing, heading_to(start, x.at)).abs();
    assert!(off <= 45.0 + 1e-6, "it went {off:.0}° off its facing: {:#?}", words(&events));
    let fought = facts(&events).into_iter().find_map(|f| match f {
        Fact::Assault { attackers, .. } => Some(attackers[0].direction),
        _ => None,
    });
    assert_eq!(fought, Some(Direction::Flank), "{:#?}", words(&events));
}

// Item 11: the rules leaked through refusals in the rules-hidden game.

#[test]
fn a_players_refusals_are_in_words_and_game_control_reads_the_reason() {
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [150, 100] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [30, 60] }"#),
        "",
    );
    let far = Action::Ride { unit: Some(unit(&b, "Blue line") as u16) };
    let aside = Action::Order {
        unit: unit(&b, "Blue line") as u16,
        order: Order::Charge { target: unit(&b, "Red line") as u16 },
    };
    for a in [&far, &aside] {
        let e = b.validate_by(Actor::Side(0), a).unwrap_err().reason;
        assert!(!e.chars().any(|c| c.is_ascii_digit()) && !e.contains("straight ahead"), "{e}");
        let r = b.refusal(Actor::Side(0), a).unwrap();
        assert_eq!(r.words, e);
        assert!(r.reason.chars().any(|c| c.is_ascii_digit()), "Game Control reads the rule: {}", r.reason);
    }
    // With the rules open the player reads the reason.
    let open = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [150, 100] }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [30, 60] }"#),
        "[rules]\nrules_hidden = false",
    );
    assert!(open.validate_by(Actor::Side(0), &far).unwrap_err().reason.contains("60 cm"));
    let _ = &mut b;
}

/// Issue 29 (player round 3): a player who reads no reason is told why, and whether he will read
/// them at the end; Game Control, and a battle with the rules open, read no such note.
#[test]
fn a_player_is_told_that_game_control_keeps_the_rules() {
    let note =
        |b: &Battle, v: Viewer| b.view(v).notes.iter().find(|n| n.starts_with("Game Control keeps the rules")).cloned();
    for (extra, end) in [("", true), ("[rules]\nreveal_at_end = false", false)] {
        let b = battle(
            r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#,
            r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#,
            extra,
        );
        for side in 0..2 {
            let n = note(&b, Viewer::Side(side)).expect("told");
            assert_eq!(n.contains("every reason is shown when the battle ends"), end, "{n}");
        }
        assert!(note(&b, Viewer::Umpire).is_none());
    }
    let open = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#,
        "[rules]\nrules_hidden = false",
    );
    assert!(note(&open, Viewer::Side(0)).is_none());
}

#[test]
fn game_control_chooses_whether_the_battle_is_revealed_at_its_end() {
    for (reveal, extra) in [(true, ""), (false, "[rules]\nreveal_at_end = false")] {
        let mut b = battle(
            r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#,
            r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#,
            extra,
        );
        let events = play(&mut b, &[("Blue line", Order::Fire)], &[("Red line", Order::Fire)]);
        let over = (1..20).any(|_| {
            if b.outcome.is_some() {
                return true;
            }
            play(&mut b, &[], &[]);
            b.outcome.is_some()
        });
        assert!(over || b.outcome.is_some(), "the battle ends");
        let explained = events.iter().find(|e| matches!(e, Event::Explained { .. })).unwrap();
        assert_eq!(b.event_visible(explained, Viewer::Side(0)), reveal);
        let v = b.view(Viewer::Side(1));
        assert_eq!(v.pieces.iter().any(|p| !p.counters.is_empty()), reveal, "numbers on the pieces");
        assert!(b.event_visible(explained, Viewer::Umpire));
    }
}

// Item 16: each event's data.

#[test]
fn a_close_assault_is_told_as_data_who_whom_from_where_the_figures_and_the_results() {
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], formation = "cavalry_column" }"#),
        &reds(r#"{ name = "Red line", kind = "infantry", at = [90, 52] }"#),
        "",
    );
    let red = unit(&b, "Red line") as u16;
    let events = play(&mut b, &[("Blue horse", Order::Charge { target: red })], &[("Red line", Order::Halt)]);
    let Some(Fact::Assault { defender, attackers, step_two, attackers_won, results, .. }) =
        facts(&events).into_iter().find(|f| matches!(f, Fact::Assault { .. }))
    else {
        panic!("no assault: {:#?}", words(&events));
    };
    assert_eq!(defender, "Red line");
    let a = &attackers[0];
    assert_eq!((a.unit.as_str(), a.direction, a.closed), ("Blue horse", Direction::Front, true));
    // Step one: Steady 4, +2 cavalry against infantry not in square; the defender's 4.
    assert_eq!((a.step_one[0].total, a.step_one[1].total), (6, 4));
    assert!(a.step_one[0].modifiers.iter().any(|(w, v)| w == "cavalry vs infantry not in square" && *v == 2));
    assert_eq!(step_two.as_ref().map(|t| (t[0].total, t[1].total)), Some((4, 4)));
    assert_eq!(*attackers_won, Some(true), "ties go to the attacker");
    // The column's first line fought (its second did not follow up); the loser 4 -> 3.
    let horse = results.iter().find(|r| r.unit == "Blue horse").unwrap();
    assert_eq!((horse.won, horse.lines.len(), horse.next), (true, 1, NextTurn::Pursue));
    let line = results.iter().find(|r| r.unit == "Red line").unwrap();
    assert_eq!((line.lines[0].from, line.lines[0].to, line.next), (4, 3, NextTurn::Withdraw { cm: 10 }));
    let charged = facts(&events).into_iter().any(|f| {
        matches!(f, Fact::Move { unit, what: MoveKind::Charge, stop: Stop::Contact { .. }, done, .. } if unit == "Blue horse" && (*done - 12.0).abs() < 1e-6)
    });
    assert!(charged, "{:#?}", words(&events));
}

#[test]
fn a_move_stopped_by_another_unit_names_both_in_the_data() {
    // Flattened, the stop's own `unit` once hid the mover's: the mover stays `unit`.
    let fact = Fact::Move {
        unit: "Blue horse".into(),
        what: MoveKind::Advance,
        target: None,
        from: volley_en_avant::events::Body { at: [0.0, 0.0], facing: 0.0, corners: [[0.0; 2]; 4] },
        to: volley_en_avant::events::Body { at: [0.0, 0.0], facing: 0.0, corners: [[0.0; 2]; 4] },
        ordered: 40.0,
        done: 0.0,
        stop: Stop::StandOff { unit: "Red line".into() },
    };
    let v = serde_json::to_value(Event::Explained { text: "x".into(), fact: Some(Box::new(fact)) }).unwrap();
    assert_eq!(v["fact"]["unit"], "Blue horse");
    assert_eq!(v["fact"]["stop"]["unit"], "Red line");
    assert_eq!(v["fact"]["stop"]["cause"], "stand_off");
}

#[test]
fn a_cavalry_regiments_second_line_is_counted_for_game_control() {
    let b = battle(
        r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40], formation = "cavalry_column", status = "nervous", second_status = "determined" }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 90] }"#,
        "",
    );
    let v = b.view(Viewer::Umpire);
    let p = v.pieces.iter().find(|p| p.unit.as_deref() == Some("Blue horse")).unwrap();
    let n = |k: &str| p.counters.iter().find(|c| c.kind == k).map(|c| c.n);
    assert_eq!((n("status"), n("first line"), n("second line")), (Some(3), Some(3), Some(5)));
    assert_eq!((n("first line disordered"), n("second line disordered")), (Some(0), Some(0)));
    // Only the status it acts on is drawn on the piece; the lines' numbers are details (said in
    // its label, read on hover), not a row of bare digits.
    let drawn: Vec<&str> = p.counters.iter().filter(|c| !c.detail).map(|c| c.kind.as_str()).collect();
    assert_eq!(drawn, vec!["status"]);
    assert!(p.label.contains("Nervous (3), second line Determined (5), ordered"), "{}", p.label);
    let mut b = b;
    let h = (0..b.units.len()).find(|&i| b.name(i) == "Blue horse").unwrap();
    b.units[h].disordered[1] = true;
    let v = b.view(Viewer::Umpire);
    let p = v.pieces.iter().find(|p| p.unit.as_deref() == Some("Blue horse")).unwrap();
    assert!(p.label.contains("first line Nervous (3), ordered, second line Determined (5), DISORDERED"), "{}", p.label);
    assert!(b.view(Viewer::Side(0)).pieces.iter().all(|p| p.counters.is_empty()), "rules hidden");
}

#[test]
fn two_units_that_charge_each_other_fight_one_close_assault() {
    // Blue's horse and Red's horse 10 cm apart, each charging the other: Blue leads in turn 1,
    // reaches Red first and is the attacker; Red's charge from contact is the same fight.
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 40] }"#),
        &reds(r#"{ name = "Red horse", kind = "cavalry", at = [90, 50] }"#),
        "",
    );
    let (h, r) = (unit(&b, "Blue horse") as u16, unit(&b, "Red horse") as u16);
    let events =
        play(&mut b, &[("Blue horse", Order::Charge { target: r })], &[("Red horse", Order::Charge { target: h })]);
    assert_eq!(
        assaults(&events),
        vec![(vec!["Blue horse".to_string()], "Red horse".to_string())],
        "{:#?}",
        words(&events)
    );
}

#[test]
fn a_failed_attack_draws_back_no_nearer_another_enemy_than_any_move() {
    // Blue's horse 1 cm from a Determined line fails to close (as above); a Red battalion, faced
    // about, stands across its way back: it draws back only until it would come within 5 cm of
    // it — not into contact with a second enemy.
    //
    //     Red line   ======  front at y 50, facing south
    //     Blue horse [====]  front at y 49, back at y 45
    //     Red rear   ======  front at y 39, facing north
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [90, 49], status = "nervous" }"#),
        &reds(
            r#"{ name = "Red line", kind = "infantry", at = [90, 50], status = "determined" }, { name = "Red rear", kind = "infantry", at = [90, 39], facing = 0 }"#,
        ),
        "",
    );
    let h = unit(&b, "Blue horse");
    b.units[h].disordered = [true, true];
    let red = unit(&b, "Red line") as u16;
    let events = play(
        &mut b,
        &[("Blue horse", Order::Charge { target: red })],
        &[("Red line", Order::Halt), ("Red rear", Order::Halt)],
    );
    let told = words(&events);
    assert!(told_of(&told, "Blue horse will not close with Red line"), "{told:#?}");
    // The horse reaches y 50 (its back at 46); Red rear's front is at 39: 7 cm behind. It may
    // draw back until its back is 5 cm from it: 2 cm.
    let g = gap(&b, "Blue horse", "Red rear");
    assert!(g >= STAND_OFF - 1e-6, "{g} {told:#?}");
    assert!((gap(&b, "Blue horse", "Red line") - 2.0).abs() < 1e-6, "{told:#?}");
}

#[test]
fn a_unit_does_not_turn_into_contact_with_an_enemy() {
    // Red's horse turns from south to east about its centre: its new body would reach down to
    // Blue's line and touch it. A unit touches an enemy only by closing with it: the change of
    // facing is given up (interpretation 34).
    //
    //     Red horse  [====]   front at y 60, facing south; turned east it would span y 46..78
    //     Blue line  ======   front at y 46, facing north
    let mut b = battle(
        &blues(r#"{ name = "Blue line", kind = "infantry", at = [90, 46] }"#),
        &reds(r#"{ name = "Red horse", kind = "cavalry", at = [90, 60] }"#),
        "",
    );
    let events = play(&mut b, &[("Blue line", Order::Halt)], &[("Red horse", Order::Face { facing: 90 })]);
    let told = words(&events);
    assert!(told_of(&told, "Red horse has no room to finish its change and gives it up"), "{told:#?}");
    assert_eq!(b.units[unit(&b, "Red horse")].facing, 180.0);
    assert!(gap(&b, "Blue line", "Red horse") >= STAND_OFF);
}

#[test]
fn a_loser_without_room_to_turn_withdraws_straight_away_from_its_winner() {
    // Red's column of horse was beaten from its flank by Blue's horse. Turned to face it, the
    // column would stand on it: it withdraws as it stands, straight away from the winner (east),
    // not backwards along its own facing (north), which slid it along the winner and left the two
    // touching.
    //
    //     Blue horse |[ Red column ]   (Red faces south, 16 wide, 28 deep)
    //                |[            ]
    let mut b = battle(
        &blues(r#"{ name = "Blue horse", kind = "cavalry", at = [82, 74], facing = 90 }"#),
        &reds(r#"{ name = "Red column", kind = "cavalry", at = [90, 60], formation = "cavalry_column" }"#),
        "",
    );
    assert!(gap(&b, "Blue horse", "Red column") <= CONTACT);
    let was = b.units[unit(&b, "Red column")].centre();
    let events = withdraw(&mut b, "Red column", "Blue horse", 10);
    let heading = facts(&events).into_iter().find_map(|f| match f {
        Fact::Withdrawal { heading, .. } => Some(*heading),
        _ => None,
    });
    assert_eq!(heading.map(|h| h.round()), Some(90.0), "{:#?}", words(&events));
    let turned_at = facts(&events).into_iter().find_map(|f| match f {
        Fact::Withdrawal { turned_at, .. } => Some(*turned_at),
        _ => None,
    });
    // It turns about its centre to face its winner as soon as it has room on its way (the
    // column's half depth, 14, less its half width, 8, beyond where it stood, and a hair more):
    // backwards facing the enemy (interpretation 35), its centre 10 cm east, clear of the winner.
    let t = turned_at.flatten().expect("it turned on its way");
    assert!(t > 0.0 && t <= 10.0, "turned after {t} cm");
    let r = unit(&b, "Red column");
    assert_eq!(b.units[r].facing, 270.0, "facing the winner, west");
    assert!(b.units[r].centre().dist(was + Point::new(10.0, 0.0)) < 1e-6, "{:#?}", words(&events));
    assert!(gap(&b, "Blue horse", "Red column") > CONTACT, "{:#?}", words(&events));
}

/// Issue 29 (player round 4): Game Control's reason for an amendment is his own words, and the
/// form promises every player reads it: it is in the line both sides read, not a rules line.
#[test]
fn game_controls_reason_for_an_amendment_is_read_by_every_player() {
    let mut b = battle(
        r#"{ name = "Blue line", kind = "infantry", at = [90, 40] }"#,
        r#"{ name = "Red line", kind = "infantry", at = [90, 50] }"#,
        "",
    );
    let amend = Action::Amend {
        unit: 0,
        status: Status::Steady,
        second_status: None,
        disordered: true,
        reason: "the riflemen were behind the farm wall".into(),
    };
    let mut events = Vec::new();
    b.apply_by(Actor::Umpire, &amend, &mut Seeded::new(1), &mut events).unwrap();
    let line = events
        .iter()
        .find(|e| e.to_string().starts_with("Game Control: Blue line is now"))
        .unwrap_or_else(|| panic!("{events:?}"));
    assert!(line.to_string().ends_with(", because the riflemen were behind the farm wall"), "{line}");
    for v in [Viewer::Side(0), Viewer::Side(1), Viewer::Spectator] {
        assert!(b.event_visible(line, v), "{v:?}");
    }
}
