//! The second reading: cases worked by hand from the rule text alone by a reader who never saw
//! the code (`docs/second-reading/der-alte-fritz.md`), each with the situation, the dice in the
//! order the procedure rolls them, and what must happen. Where the readings differ, the register
//! says which is kept and why.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use serde_json::{Value, json};
use volley_chance::Scripted;
use volley_core::calc::{Calculator, OutcomeProbability};
use volley_der_alte_fritz::combat::{Combat, Morale, OfficerFate, Outcome, Resolution, Situation, VolleyResolution};
use volley_der_alte_fritz::melee::{End, MeleeResolution, Pursuit, Winner};
use volley_der_alte_fritz::units::Chart;

fn situation(v: Value) -> Situation {
    serde_json::from_value(v).unwrap()
}

fn run(v: Value, draws: &str) -> Resolution {
    let mut s = Scripted::parse(draws).unwrap();
    let r = Combat.resolve(&situation(v), &mut s).unwrap();
    assert_eq!(s.remaining(), 0, "every die the case lists is used: {r}");
    r
}

fn volley(v: Value, draws: &str) -> VolleyResolution {
    match run(json!({ "volley": v }), draws) {
        Resolution::Volley(r) => r,
        Resolution::Melee(m) => panic!("{m}"),
    }
}

fn charge(v: Value, draws: &str) -> MeleeResolution {
    match run(json!({ "melee": v }), draws) {
        Resolution::Melee(r) => r,
        Resolution::Volley(r) => panic!("{r}"),
    }
}

fn with(mut base: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        base[k] = v.clone();
    }
    base
}

fn target(kind: &str, figures: u32, formation: &str, extra: Value) -> Value {
    with(json!({"type": kind, "figures": figures, "figures_per_stand": 4, "formation": formation}), extra)
}

fn fighter(kind: &str, figures: u32, extra: Value) -> Value {
    with(json!({"type": kind, "figures": figures}), extra)
}

#[test]
fn daf_1_a_musketeer_volley_into_a_line() {
    let r = volley(
        json!({"firer": {"type": "musketeers", "firing": 24}, "target": target("musketeers", 24, "line", json!({}))}),
        "1 5 6 9 3 10 4 9",
    );
    assert_eq!((r.fire, r.outcome.hits), (Some((Chart::C, 5)), 3));
    assert_eq!(r.test.as_ref().map(|t| (t.0, t.1)), Some((Chart::A, 8)));
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_3_grenadiers_fire_at_a_square_the_morale_chart_moves_to_b() {
    let r = volley(
        json!({"firer": {"type": "grenadiers", "firing": 12},
               "target": target("musketeers", 24, "square", json!({"hits_before": 3}))}),
        "9 10 2 7 8",
    );
    assert_eq!((r.fire, r.outcome.hits), (Some((Chart::A, 9)), 2));
    assert_eq!(r.test.as_ref().map(|t| (t.0, t.1)), Some((Chart::B, 7)));
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_4_the_texts_example_a_shaken_firer_at_a_square_fires_on_b_and_the_officer_is_missed() {
    let r = volley(
        json!({"firer": {"type": "musketeers", "firing": 16, "shaken": true},
               "target": target("grenadiers", 24, "square",
                   json!({"hits_before": 7, "secure_flanks": true, "leader_attached": true, "officer_attached": true}))}),
        "6 7 2 10 4 9 8 3 10 8",
    );
    assert_eq!((r.fire, r.outcome.hits), (Some((Chart::B, 6)), 2));
    assert_eq!(r.outcome.officer, Some(OfficerFate::Missed));
    // 9 cumulative hits: chart C (7); 4 dice and the leader's: kept 3 and 8: shaken.
    assert_eq!(r.test.as_ref().map(|t| (t.0, t.1, t.2.len())), Some((Chart::C, 7, 5)));
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_5_a_line_in_hard_cover_shot_in_the_flank_is_back_on_c() {
    let r = volley(
        json!({"firer": {"type": "grenadiers", "firing": 20},
               "target": target("musketeers", 24, "line",
                   json!({"hard_cover": true, "flank_or_rear": true, "in_cover": true, "secure_flanks": true, "hits_before": 2}))}),
        "6 7 1 2 10 8 9 7 10",
    );
    assert_eq!((r.fire, r.outcome.hits), (Some((Chart::C, 6)), 3));
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_6_charts_stop_at_e_and_a_unit_may_pass_on_e() {
    let r = volley(
        json!({"firer": {"type": "musketeers", "firing": 8, "shaken": true},
               "target": target("garrison", 24, "line", json!({"hard_cover": true, "in_cover": true, "hits_before": 12}))}),
        "2 3 1 1 7",
    );
    assert_eq!((r.fire, r.outcome.hits), (Some((Chart::E, 2)), 1));
    assert_eq!(r.test.as_ref().map(|t| (t.0, t.1)), Some((Chart::E, 1)));
    assert_eq!(r.outcome.morale, Some(Morale::Passed));
}

#[test]
fn daf_7_and_8_guns_short_and_long() {
    // Heavy guns, 3 gunners, short range at a column: 6 dice on B's first number, 6.
    let r = volley(
        json!({"firer": {"type": "heavy_artillery", "firing": 3},
               "target": target("musketeers", 24, "column", json!({}))}),
        "1 7 6 3 9 2 9 10",
    );
    assert_eq!((r.fire, r.outcome.hits, r.outcome.morale), (Some((Chart::B, 6)), 4, Some(Morale::Rout)));
    assert!(!r.outcome.removed, "in good order, a rout is not removal");
    // A medium howitzer at long range at an unlimbered battery: D's second number, 2.
    let r = volley(
        json!({"firer": {"type": "medium_howitzer", "firing": 2}, "range": "long",
               "target": target("light_artillery", 4, "unlimbered_artillery", json!({"figures_per_stand": 1}))}),
        "2 3 10 1",
    );
    assert_eq!((r.fire, r.outcome.hits, r.outcome.morale), (Some((Chart::D, 2)), 1, Some(Morale::Shaken)));
}

#[test]
fn daf_11_12_13_light_horse_fire_and_the_tables_tildes() {
    let r = volley(
        json!({"firer": {"type": "hussars", "firing": 8}, "target": target("jagers", 8, "skirmish", json!({}))}),
        "1 2 8 3",
    );
    assert_eq!((r.fire, r.outcome.hits, r.outcome.morale), (Some((Chart::D, 1)), 1, Some(Morale::Shaken)));
    // Shaken Cossacks at a line: C less one is D, a `~`: they cannot fire.
    let s = situation(json!({"volley": {"firer": {"type": "cossacks", "firing": 12, "shaken": true},
        "target": target("musketeers", 24, "line", json!({}))}}));
    assert!(Combat.odds(&s).unwrap_err().to_string().contains("do not fire on chart D"));
    // Cuirassiers never fire.
    let s = situation(json!({"volley": {"firer": {"type": "cuirassiers", "firing": 12},
        "target": target("musketeers", 24, "line", json!({}))}}));
    assert!(Combat.odds(&s).is_err());
}

#[test]
fn daf_14_an_officer_killed_first_takes_the_leaders_die_away() {
    let r = volley(
        json!({"firer": {"type": "jagers", "firing": 8},
               "target": target("grenadiers", 24, "line", json!({"leader_attached": true, "officer_attached": true}))}),
        "3 4 9 10 2",
    );
    assert_eq!((r.outcome.hits, r.outcome.officer), (1, Some(OfficerFate::Killed)));
    assert_eq!(r.test.as_ref().map(|t| t.2.len()), Some(2), "two dice: the leader is dead");
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_15_seven_figures_throw_one_die() {
    let r = volley(
        json!({"firer": {"type": "garrison", "firing": 7}, "target": target("musketeers", 24, "column", json!({}))}),
        "5 1 1",
    );
    assert_eq!((r.fire, r.outcome.hits, r.outcome.morale), (Some((Chart::B, 5)), 1, Some(Morale::Passed)));
}

#[test]
fn daf_16_and_17_soft_cover_gives_a_die_not_a_chart_and_the_hit_bands() {
    let r = volley(
        json!({"firer": {"type": "grenadiers", "firing": 8},
               "target": target("musketeers", 24, "line", json!({"in_cover": true, "hits_before": 4}))}),
        "4 6 2 9 10",
    );
    assert_eq!((r.fire, r.outcome.hits, r.outcome.morale), (Some((Chart::C, 6)), 2, Some(Morale::Shaken)));
    let r = volley(
        json!({"firer": {"type": "jagers", "firing": 8},
               "target": target("dragoons", 24, "line", json!({"hits_before": 10}))}),
        "2 5 3 4",
    );
    assert_eq!(r.test.as_ref().map(|t| (t.0, t.1)), Some((Chart::D, 3)));
    assert_eq!(r.outcome.morale, Some(Morale::Shaken));
}

#[test]
fn daf_18_19_a_shaken_unit_that_routs_is_removed_one_that_is_shaken_again_stays() {
    // (Kept reading: a shaken target is fired on one chart down, D; the second reader read C.
    // With these dice it comes to the same: 1 hit.)
    let t = target("musketeers", 24, "line", json!({"shaken": true, "hits_before": 9}));
    let r = volley(json!({"firer": {"type": "musketeers", "firing": 8}, "target": t.clone()}), "1 9 6 7");
    assert_eq!((r.outcome.hits, r.outcome.morale, r.outcome.removed), (1, Some(Morale::Rout), true));
    let r = volley(json!({"firer": {"type": "musketeers", "firing": 8}, "target": t}), "1 9 3 7");
    assert_eq!((r.outcome.morale, r.outcome.removed), (Some(Morale::Shaken), false));
}

#[test]
fn daf_20_down_to_its_last_stand_a_unit_is_removed_without_a_test() {
    let r = volley(
        json!({"firer": {"type": "grenadiers", "firing": 12},
               "target": target("musketeers", 6, "line", json!({"hits_before": 18}))}),
        "2 5 8",
    );
    assert_eq!((r.outcome.hits, r.outcome.morale, r.outcome.removed), (2, None, true));
    // Horse: 9 figures in stands of 3 losing 3: 2 stands left, removed.
    let r = volley(
        json!({"firer": {"type": "grenadiers", "firing": 12},
               "target": target("dragoons", 9, "line", json!({"figures_per_stand": 3}))}),
        "1 2 3",
    );
    assert_eq!((r.outcome.hits, r.outcome.removed), (3, true));
}

#[test]
fn daf_21_a_rally_is_two_dice_on_c() {
    for (dice, rallied, removed, morale) in [
        ("6 9", false, true, Morale::Rout),
        ("3 7", false, false, Morale::Shaken),
        ("2 5", true, false, Morale::Passed),
    ] {
        let r = match run(json!({"rally": {"type": "musketeers", "routing": true}}), dice) {
            Resolution::Volley(r) => r,
            Resolution::Melee(m) => panic!("{m}"),
        };
        assert_eq!(r.test.as_ref().map(|t| (t.0, t.1)), Some((Chart::C, 5)));
        assert_eq!(
            (r.outcome.rallied, r.outcome.removed, r.outcome.morale),
            (rallied, removed, Some(morale)),
            "{dice}"
        );
    }
}

#[test]
fn daf_23_24_the_charger_refuses_or_the_defender_falls_back() {
    let r = charge(
        json!({"charger": fighter("musketeers", 16, json!({})), "defender": fighter("musketeers", 16, json!({}))}),
        "9 3",
    );
    assert_eq!((r.outcome.charged, r.outcome.charger), (false, End::Shaken));
    let r = charge(
        json!({"charger": fighter("musketeers", 16, json!({"shaken": true})), "defender": fighter("musketeers", 16, json!({}))}),
        "9 10",
    );
    assert_eq!(r.outcome.charger, End::Removed, "a shaken charger that routs");
    let r = charge(
        json!({"charger": fighter("musketeers", 16, json!({})), "defender": fighter("garrison", 16, json!({"hits_before": 6}))}),
        "3 5 7 3",
    );
    assert_eq!(
        (r.outcome.charged, r.outcome.fought, r.outcome.defender, r.outcome.charger),
        (true, false, End::Shaken, End::Good)
    );
}

#[test]
fn daf_25_infantry_attack_a_wall_and_the_defenders_win() {
    let r = charge(
        json!({"charger": fighter("musketeers", 16, json!({"chart": "D"})),
               "defender": fighter("musketeers", 16, json!({"chart": "B", "in_cover": true, "hits_before": 3}))}),
        "3 5 9 2 4 4 5 1 9 6 2 7 3 9 1 8 6 2",
    );
    let md = r.melee_dice.as_ref().unwrap();
    assert_eq!((md[0].1, md[1].1), (4, 6));
    assert_eq!(r.outcome.winner, Some(Winner::Defender));
    assert_eq!((r.outcome.charger, r.outcome.defender, r.outcome.pursuit), (End::Shaken, End::Shaken, None));
}

#[test]
fn daf_26_the_grenadiers_win_and_do_not_pursue() {
    let r = charge(
        json!({"charger": fighter("grenadiers", 16, json!({"leader_attached": true})), "defender": fighter("garrison", 12, json!({}))}),
        "10 4 6 5 7 2 6 7 9 5 8 10 1 2 10 8 9",
    );
    assert_eq!(r.outcome.winner, Some(Winner::Charger));
    assert_eq!((r.outcome.charger, r.outcome.defender, r.outcome.pursuit), (End::Shaken, End::Rout, None));
}

#[test]
fn daf_27_cavalry_fail_to_counter_charge_are_caught_at_the_halt_and_the_winner_rallies_on_a_6() {
    let r = charge(
        json!({"charger": fighter("cuirassiers", 12, json!({})), "defender": fighter("dragoons", 12, json!({"hits_before": 2}))}),
        "4 6 3 7 10 2 8 9 2 5 6 10 3 9 10 10 6",
    );
    assert!(r.outcome.at_halt);
    let md = r.melee_dice.as_ref().unwrap();
    assert_eq!(((md[0].0, md[0].1), (md[1].0, md[1].1)), ((Chart::B, 8), (Chart::D, 5)));
    assert_eq!(r.outcome.winner, Some(Winner::Charger));
    assert_eq!(
        (r.outcome.pursuit, r.outcome.charger, r.outcome.defender),
        (Some(Pursuit::Rally), End::Good, End::Rout)
    );
}

#[test]
fn daf_28_hussars_both_pass_no_winner_both_retreat() {
    let r = charge(
        json!({"charger": fighter("hussars", 12, json!({})), "defender": fighter("hussars", 12, json!({}))}),
        "2 5 6 1 4 8 5 7 1 3 6 9 7 2 8 8",
    );
    assert!(!r.outcome.at_halt, "it counter-charged");
    assert_eq!((r.outcome.winner, r.outcome.both_retreat, r.outcome.pursuit), (None, true, None));
    assert_eq!((r.outcome.charger, r.outcome.defender), (End::Shaken, End::Shaken));
}

#[test]
fn daf_33_a_shaken_cavalry_target_is_at_the_halt_untested_and_routing_is_removed() {
    let r = charge(
        json!({"charger": fighter("cuirassiers", 12, json!({})),
               "defender": fighter("dragoons", 9, json!({"shaken": true, "hits_before": 5}))}),
        "5 5 2 6 9 10 1 3 4 7 8 5 3 4",
    );
    assert!(r.outcome.at_halt && r.counter_test.is_none());
    let md = r.melee_dice.as_ref().unwrap();
    assert_eq!(((md[0].0, md[0].1), (md[1].0, md[1].1)), ((Chart::A, 9), (Chart::E, 3)));
    assert_eq!(r.post_tests.as_ref().unwrap()[1].0, Chart::E, "against an enemy on A");
    assert_eq!((r.outcome.winner, r.outcome.defender), (Some(Winner::Charger), End::Removed));
    assert_eq!(r.outcome.pursuit, Some(Pursuit::Hold));
}

#[test]
fn daf_38_cuirassiers_on_a_square_test_to_charge_on_their_hits_chart() {
    let r = charge(
        json!({"charger": fighter("cuirassiers", 12, json!({"chart": "E"})),
               "defender": fighter("musketeers", 8, json!({"chart": "A"}))}),
        "5 2 3 3 4 6 9 8 2 3 9 1 8",
    );
    assert_eq!(r.charge_test.0, Chart::A);
    assert_eq!(r.post_tests.as_ref().unwrap()[0].0, Chart::E);
    assert_eq!(
        (r.outcome.winner, r.outcome.charger, r.outcome.defender),
        (Some(Winner::Defender), End::Shaken, End::Shaken)
    );
}

#[test]
fn daf_40_both_pass_the_charger_retires() {
    let r = charge(
        json!({"charger": fighter("grenadiers", 12, json!({"hits_before": 2})),
               "defender": fighter("musketeers", 12, json!({"secure_flanks": true, "hits_before": 6}))}),
        "4 4 7 2 9 10 6 9 10 6 8 9 3 8 1 7 10 10",
    );
    assert_eq!((r.outcome.winner, r.outcome.charger_retires), (None, true));
    assert_eq!((r.outcome.charger, r.outcome.defender), (End::Shaken, End::Shaken));
}

fn chance(o: &[OutcomeProbability<Outcome>], f: impl Fn(&Outcome) -> bool) -> f64 {
    o.iter().filter(|x| f(&x.outcome)).map(|x| x.probability).sum()
}

#[test]
fn the_second_readers_exact_probabilities() {
    // P1: one die at a line; a fresh target in the open.
    let s = situation(json!({"volley": {"firer": {"type": "musketeers", "firing": 4},
        "target": target("musketeers", 24, "line", json!({}))}}));
    let o = Combat.odds(&s).unwrap();
    let vol = |f: &dyn Fn(u32, Option<Morale>) -> bool| {
        chance(&o, |x| matches!(x, Outcome::Volley(v) if f(v.hits, v.morale)))
    };
    assert!((vol(&|h, _| h == 0) - 0.5).abs() < 1e-12);
    assert!((vol(&|h, m| h == 1 && m == Some(Morale::Shaken)) - 0.16).abs() < 1e-12);
    assert!((vol(&|h, m| h == 1 && m == Some(Morale::Rout)) - 0.02).abs() < 1e-12);
    // P2: a musketeer charger with no hits refuses: 0.36 in the open, 0.104 with a leader,
    // 0.0272 with secure flanks.
    for (extra, p) in
        [(json!({}), 0.36), (json!({"leader_attached": true}), 0.104), (json!({"secure_flanks": true}), 0.0272)]
    {
        let s = situation(
            json!({"melee": {"charger": fighter("musketeers", 16, extra), "defender": fighter("musketeers", 16, json!({}))}}),
        );
        let refused = chance(&Combat.odds(&s).unwrap(), |x| matches!(x, Outcome::Melee(m) if !m.charged));
        assert!((refused - p).abs() < 1e-12, "{refused} against {p}");
    }
    // P3: cuirassiers charging a square go in 0.81 of the time.
    let s = situation(json!({"melee": {"charger": fighter("cuirassiers", 12, json!({"chart": "E"})),
        "defender": fighter("musketeers", 8, json!({"chart": "A"}))}}));
    let went_in = chance(&Combat.odds(&s).unwrap(), |x| matches!(x, Outcome::Melee(m) if m.charged));
    assert!((went_in - 0.81).abs() < 1e-12, "{went_in}");
    // P6: rallying routed musketeers: good 1/4, shaken 1/2, removed 1/4.
    let o = Combat.odds(&situation(json!({"rally": {"type": "musketeers", "routing": true}}))).unwrap();
    assert!((chance(&o, |x| matches!(x, Outcome::Volley(v) if v.rallied)) - 0.25).abs() < 1e-12);
    assert!((chance(&o, |x| matches!(x, Outcome::Volley(v) if v.removed)) - 0.25).abs() < 1e-12);
    // P8: fresh dragoons charged by cuirassiers end at the halt: the charge goes in (0.81), they
    // stand (0.81) and fail to counter-charge (0.19).
    let s = situation(
        json!({"melee": {"charger": fighter("cuirassiers", 12, json!({})), "defender": fighter("dragoons", 12, json!({}))}}),
    );
    let halted = chance(&Combat.odds(&s).unwrap(), |x| matches!(x, Outcome::Melee(m) if m.at_halt));
    assert!((halted - 0.81 * 0.81 * 0.19).abs() < 1e-12, "{halted}");
}

#[test]
fn a_shaken_unit_failing_both_rally_dice_routs_and_is_removed_in_the_odds_too() {
    // "Fail on 2 dice: rout", and a shaken unit that routs is removed: shaken musketeers
    // rallying on chart C (5) pass 1/4, stay shaken 1/2 (one die failed), are removed 1/4.
    let s: volley_der_alte_fritz::combat::Situation =
        serde_json::from_str(r#"{"rally": {"type": "musketeers"}}"#).unwrap();
    let odds = volley_der_alte_fritz::combat::Combat.odds(&s).unwrap();
    assert_eq!(odds.len(), 3, "{odds:?}");
    let p = |f: &dyn Fn(&volley_der_alte_fritz::combat::VolleyOutcome) -> bool| -> f64 {
        odds.iter().filter(|o| matches!(&o.outcome, Outcome::Volley(v) if f(v))).map(|o| o.probability).sum()
    };
    assert!((p(&|v| v.rallied) - 0.25).abs() < 1e-12);
    assert!((p(&|v| v.morale == Some(Morale::Shaken) && !v.removed) - 0.5).abs() < 1e-12);
    assert!((p(&|v| v.removed && v.morale == Some(Morale::Rout)) - 0.25).abs() < 1e-12);
    // The calculator's words for it: no "0 hits" for a rally.
    let r = run(json!({"rally": {"type": "musketeers"}}), "6 9");
    assert_eq!(r.to_string().lines().last(), Some("the rally fails on both dice: rout, removed"), "{r}");
    let r = run(json!({"rally": {"type": "musketeers"}}), "3 9");
    assert!(!r.to_string().contains("hits"), "{r}");
}
