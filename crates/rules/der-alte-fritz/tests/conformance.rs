//! The conformance harness over every bundled Der Alte Fritz scenario, with heuristic and random
//! players on both sides, and the text's rules checked after every action of every battle:
//! 200 battles by default (`games(25)` for each scenario and pairing of players).
//!
//! The checks are written here from the text's clauses (and the register's readings of them),
//! not by calling the engine's own rules: each works out from the table before an action, the
//! table after it and the account's data whether the step kept the text.
//!
//! * **Bodies**: no footprint stands on another after any action; every unit is on the table.
//! * **Melee in contact**: every melee is fought between units in contact, where the charger went
//!   and where the defender stood.
//! * **Flanks**: a shot or charge counts as at the flank or rear exactly when the firer's (the
//!   charger's) centre is not ahead of the line of the target's front edge; a square has none.
//! * **Rates**: every move within its allowance — the formation's rate, half for a change of
//!   formation or facing, half backwards or sideways, the Prussian oblique 2" less, half shaken,
//!   guns' functions — with rough ground at double cost, very rough four times, and a linear
//!   obstacle halving the move; every charge within its formation's rate and charge bonus, half
//!   if shaken and half again if it turned to face its target (obliquely, by a side with the
//!   oblique in column or line, its facing kept and up to 45° off its front: the rate less 2"
//!   and the bonus); every forced move within what the
//!   text orders (a rout 24"/12"/10", a full column move, 24", a pursuit's line rate and 24") at
//!   the same costs.
//! * **Contact**: no two enemies stand in contact at three turn-ends running without a melee
//!   between them, unless the account says why.
//! * **The account adds up**: each volley's hits are its dice at or under its number, each test's
//!   kept dice are its two lowest and its result their failures.
//!
//! Each check is shown able to fail: a test feeds it a doctored step and sees it report.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::collections::HashMap;

use volley_core::Agent;
use volley_core::conformance::{Words, check_with, check_words_with, games};
use volley_der_alte_fritz::events::{ForcedKind, Test};
use volley_der_alte_fritz::model::{CONTACT_GAP, Formation, State, Unit};
use volley_der_alte_fritz::units::Arm;
use volley_der_alte_fritz::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::{
    Point, TerrainKind, convex_distance, convex_overlap, heading_to, point_in_polygon, segment_crosses_polyline, turn,
    unit as heading,
};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/der-alte-fritz/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    let names = kinds.map(String::from);
    move |seed| volley_ai::seated::<Battle>(&names, seed).unwrap()
}

const SCENARIOS: &[&str] = &["the-village.toml", "lobositz.toml"];

/// Slack for measuring: a path's cost is summed in steps of a fiftieth of an inch.
const SLACK: f64 = 0.15;

// ----- The text's numbers, read here -----

/// What an inch of going over `p` costs: woods, towns and soft ground (rough) 2, an area the
/// scenario names very rough 4, else 1.
fn going(b: &Battle, p: Point) -> f64 {
    let st = b.stat();
    let mut k: f64 = 1.0;
    for (i, f) in st.table.features().iter().enumerate() {
        let m = if st.very_rough.contains(&i) {
            4.0
        } else if matches!(f.kind, TerrainKind::Woods | TerrainKind::Town | TerrainKind::SoftGround) {
            2.0
        } else {
            continue;
        };
        if point_in_polygon(p, &f.points) {
            k = k.max(m);
        }
    }
    k
}

/// What going straight from `a` to `b` costs, summed in small steps; crossing a linear
/// obstacle (hedge, wall, trench, parapet) halves the move, so it costs double.
fn cost(b: &Battle, from: Point, to: Point) -> f64 {
    let len = from.dist(to);
    if len < 1e-9 {
        return 0.0;
    }
    let n = (len / 0.02).ceil().max(1.0) as usize;
    let step = len / n as f64;
    let sum: f64 = (0..n).map(|i| step * going(b, from.lerp(to, (i as f64 + 0.5) / n as f64))).sum();
    let crosses = b.stat().table.features().iter().any(|f| {
        matches!(f.kind, TerrainKind::Hedge | TerrainKind::Wall | TerrainKind::Trench | TerrainKind::Redoubt)
            && segment_crosses_polyline(from, to, &f.points)
    });
    if crosses { 2.0 * sum } else { sum }
}

/// The rate of the table for `x` in `formation` (a square stands still; guns limbered at their
/// march rate, unlimbered by prolonge at the line figure).
fn table_rate(x: &Unit, formation: Formation) -> Option<f64> {
    let p = x.kind.profile();
    match formation {
        Formation::MarchColumn | Formation::Limbered => p.march,
        Formation::AttackColumn => p.column,
        Formation::Line | Formation::Unlimbered => p.line,
        Formation::Skirmish => p.skirmish,
        Formation::Square => Some(0.0),
    }
}

/// What unit `u` may spend moving to `to`, facing `facing`, in `formation`: the text's movement
/// clauses as the register reads them.
fn allowance(b: &Battle, u: usize, to: Point, facing: f64, formation: Formation) -> Result<f64, String> {
    let x = &b.units[u];
    let turned = turn(x.facing, facing).abs() >= 1.0;
    let reformed = formation != x.formation;
    let mut a;
    if x.arm() == Arm::Artillery {
        // Two functions a turn: limber, move half, unlimber, prolonge; a full move is two.
        let march = x.kind.profile().march.unwrap_or(0.0);
        a = match (x.formation, formation) {
            (Formation::Limbered, Formation::Limbered) => march,
            (Formation::Unlimbered, Formation::Limbered) | (Formation::Limbered, Formation::Unlimbered) => march / 2.0,
            _ => table_rate(x, Formation::Unlimbered).unwrap_or(0.0) / if turned { 2.0 } else { 1.0 },
        };
    } else {
        if turned && reformed {
            return Err(format!("{} changed formation and facing in one turn", b.name(u)));
        }
        a = table_rate(x, formation).ok_or_else(|| format!("{} may not move in {formation:?}", b.name(u)))?;
        if reformed || turned {
            a /= 2.0;
        }
        let ordered = matches!(formation, Formation::MarchColumn | Formation::AttackColumn | Formation::Line);
        if ordered && x.at.dist(to) > 1e-9 {
            let off = turn(facing, heading_to(x.at, to)).abs();
            // A millionth of a degree for rounding at the bounds.
            if off <= 5.0 + 1e-6 {
            } else if off <= 45.0 + 1e-6 && b.stat().oblique[usize::from(x.side)] {
                a = (a - 2.0).max(0.0);
            } else {
                a /= 2.0;
            }
        }
    }
    if x.state == State::Shaken {
        a /= 2.0;
    }
    Ok(a)
}

/// The distance the text orders for a forced move.
fn ordered(x: &Unit, why: ForcedKind) -> f64 {
    let p = x.kind.profile();
    match why {
        ForcedKind::Rout => match x.arm() {
            Arm::Cavalry => 24.0,
            Arm::Infantry => 12.0,
            Arm::Artillery => 10.0,
        },
        ForcedKind::FallBack | ForcedKind::Retire => p.column.or(p.march).or(p.skirmish).or(p.line).unwrap_or(0.0),
        ForcedKind::Retreat => 24.0,
        ForcedKind::Pursue | ForcedKind::Return => p.line.or(p.skirmish).unwrap_or(0.0) + 24.0,
    }
}

/// Whether the point `p` is ahead of the line of unit `x`'s front edge (standing at `at`,
/// facing `facing`): a shot or charge from anywhere else is at its flank or rear.
fn ahead(x: &Unit, at: Point, facing: f64, p: Point) -> bool {
    let c = x.outline_at(at, facing, x.formation);
    (p - c[0]).dot(heading(facing)) > 1e-9
}

/// A test's data against its dice: the kept dice are the two lowest, the result their failures
/// (none: passed; one: shaken; both: rout).
fn test_adds_up(t: &Test, what: &str) -> Result<(), String> {
    use volley_der_alte_fritz::combat::Morale;
    let mut kept = t.dice.clone();
    kept.sort_unstable();
    kept.truncate(2);
    let failed = kept.iter().filter(|&&d| d > t.number).count();
    if kept != t.kept || t.result != [Morale::Passed, Morale::Shaken, Morale::Rout][failed] {
        return Err(format!("{what}: {t:?} does not add up"));
    }
    Ok(())
}

// ----- The checks -----

/// The checks of one action that need nothing but the action: see the module's documentation.
fn invariants(before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
    bodies(after)?;
    if let Action::Move { unit, to, facing, formation } = action {
        let u = usize::from(*unit);
        let a = allowance(before, u, *to, *facing, *formation)?;
        let c = cost(before, before.units[u].at, *to);
        if c > a + SLACK {
            return Err(format!("{} moved at a cost of {c:.2}\" on an allowance of {a:.2}\"", before.name(u)));
        }
        if after.units[u].at.dist(*to) > 1e-9 {
            return Err(format!("{} is not where it moved", before.name(u)));
        }
    }
    account(before, after, events)
}

/// No footprint on another; every unit on the table.
fn bodies(after: &Battle) -> Result<(), String> {
    let present: Vec<usize> = (0..after.units.len()).filter(|&i| after.units[i].present()).collect();
    for &i in &present {
        let c = after.units[i].corners();
        if !c.iter().all(|&p| after.stat().table.contains(p)) {
            return Err(format!("{} is off the table at {:?}", after.name(i), after.units[i].at));
        }
        for &j in present.iter().filter(|&&j| j > i) {
            if convex_overlap(&c, &after.units[j].corners()) {
                return Err(format!("{} stands on {}", after.name(i), after.name(j)));
            }
        }
    }
    Ok(())
}

/// The account's events, walked in order with where each unit stands (its place, facing,
/// figures and formation as the events change them): every melee in contact, every flank where
/// the text has one, every charge and forced move within what the text allows, every test adding
/// up.
fn account(before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
    let mut units: Vec<Unit> = before.units.clone();
    let name = |u: u16| before.name(usize::from(u));
    let same = |a: &[Point; 4], b: &[Point; 4]| a.iter().zip(b).all(|(p, q)| p.dist(*q) < 1e-6);
    for ev in events {
        match ev {
            Event::Volley { unit: f, target: t, flank, number, dice, hits, test, .. } => {
                let (x, y) = (&units[usize::from(*f)], &units[usize::from(*t)]);
                let from_behind = y.formation != Formation::Square && !ahead(y, y.at, y.facing, x.at);
                if *flank != from_behind {
                    return Err(format!(
                        "{} fired at {} {} the line of its front, and the volley says flank {flank}",
                        name(*f),
                        name(*t),
                        if from_behind { "from behind" } else { "from ahead of" }
                    ));
                }
                if dice.iter().filter(|&&d| d <= *number).count() as u32 != *hits {
                    return Err(format!("a volley's hits do not add up: {ev:?}"));
                }
                if let Some(t) = test {
                    test_adds_up(t, "a volley's test")?;
                }
            }
            Event::Declared { unit: c, target: t, flank, cost: spent, reach, .. } => {
                let (x, y) = (&units[usize::from(*c)], &units[usize::from(*t)]);
                let from_behind = y.formation != Formation::Square && !ahead(y, y.at, y.facing, x.at);
                if *flank != from_behind || *spent > *reach + 1e-9 {
                    return Err(format!("a declared charge: flank {flank}, {spent}\" of {reach}\": {ev:?}"));
                }
            }
            Event::Melee {
                charger,
                defender,
                flank,
                turned,
                oblique,
                reach,
                went,
                fought,
                charge_test,
                winner,
                pursuit_die,
                ..
            } => {
                let (c, d) = (usize::from(*charger), usize::from(*defender));
                test_adds_up(charge_test, "a test to charge")?;
                let (x, y) = (&units[c], &units[d]);
                let from_behind = y.formation != Formation::Square && !ahead(y, y.at, y.facing, x.at);
                if *flank != from_behind {
                    return Err(format!(
                        "{} charged {} {} the line of its front, and the melee says flank {flank}",
                        name(*charger),
                        name(*defender),
                        if from_behind { "from behind" } else { "from ahead of" }
                    ));
                }
                if let Some((to, facing)) = went {
                    // The charge's reach: the formation's rate and the bonus, half again for
                    // turning to face the target, and half if shaken (as it was before this
                    // action, or made so by an earlier melee of it). Obliquely (a side with the
                    // oblique, in column or line, its facing kept, up to 45° off its front): the
                    // rate less 2" and the bonus.
                    let p = x.kind.profile();
                    let mut most = table_rate(x, x.formation).unwrap_or(0.0) + p.charge.unwrap_or(0.0);
                    let turn_taken = turn(x.facing, *facing).abs();
                    if turn_taken >= 1.0 {
                        most /= 2.0;
                    }
                    if *oblique > 0.0 {
                        // (One already touching the target with its front goes nowhere: its way
                        // off the front is the one it found, not one its centre shows.)
                        let off =
                            if x.at.dist(*to) < 1e-6 { *oblique } else { turn(x.facing, heading_to(x.at, *to)).abs() };
                        let ordered =
                            matches!(x.formation, Formation::MarchColumn | Formation::AttackColumn | Formation::Line);
                        if !before.stat().oblique[usize::from(x.side)]
                            || !ordered
                            || turn_taken >= 1.0
                            || off > 45.0 + 1e-6
                            || (off - oblique).abs() > 1e-6
                        {
                            return Err(format!(
                                "{} charged obliquely {oblique}° ({off:.1}° off its front, turned {turn_taken:.1}°): {ev:?}",
                                name(*charger)
                            ));
                        }
                        most = table_rate(x, x.formation).unwrap_or(0.0) - 2.0 + p.charge.unwrap_or(0.0);
                    }
                    // Shaken as the walk has it: as before this action, unless an earlier melee
                    // of it rallied the unit on the spot (the pursuit table's 6).
                    let shaken = units[c].state == State::Shaken;
                    let fits = (*reach - most / 2.0).abs() < 1e-9 || (!shaken && (*reach - most).abs() < 1e-9);
                    if (turn_taken - turned).abs() > 1e-6 || !fits {
                        return Err(format!(
                            "{} turned {turn_taken:.1}° to charge, its reach {most}\"{}: {ev:?}",
                            name(*charger),
                            if shaken { " halved, shaken" } else { "" }
                        ));
                    }
                    let spent = cost(before, x.at, *to);
                    if spent > reach + SLACK {
                        return Err(format!(
                            "{} charged at a cost of {spent:.2}\" on a reach of {reach}\"",
                            name(*charger)
                        ));
                    }
                    units[c].at = *to;
                    units[c].facing = *facing;
                }
                if let Some([cs, ds]) = fought.as_deref() {
                    let (x, y) = (&units[c], &units[d]);
                    if went.is_none() || !same(&cs.body, &x.corners()) {
                        return Err(format!("{} fought where it did not stand: {ev:?}", name(*charger)));
                    }
                    if !same(&ds.body, &y.corners()) {
                        return Err(format!("{} fought where it did not stand: {ev:?}", name(*defender)));
                    }
                    let gap = convex_distance(&cs.body, &ds.body);
                    if gap > 0.05 {
                        return Err(format!(
                            "{} and {} fought {gap:.2}\" apart, not in contact",
                            name(*charger),
                            name(*defender)
                        ));
                    }
                    for s in [cs, ds] {
                        test_adds_up(&s.post, "a post-melee test")?;
                        if s.dice.iter().filter(|&&v| v <= s.number).count() as u32 != s.hits {
                            return Err(format!("a melee's hits do not add up: {ev:?}"));
                        }
                    }
                    units[c].figures = units[c].figures.saturating_sub(ds.hits);
                    units[d].figures = units[d].figures.saturating_sub(cs.hits);
                }
                // The cavalry winner's pursuit die of 6 or more: rallied on the spot, good order.
                if let (Some(w), Some(6..)) = (winner, pursuit_die) {
                    units[usize::from(*w)].state = State::Good;
                }
            }
            Event::Reformed { unit: u, formation, at, .. } => {
                units[usize::from(*u)].formation = *formation;
                if let Some(p) = at {
                    units[usize::from(*u)].at = *p;
                }
            }
            Event::Forced { unit: f, why, from, to, facing, ordered: o, done, .. } => {
                let u = usize::from(*f);
                if from.dist(units[u].at) > 1e-6 {
                    return Err(format!("{} was forced from where it did not stand: {ev:?}", name(*f)));
                }
                let must = ordered(&units[u], *why);
                if (must - o).abs() > 1e-9 {
                    return Err(format!("{} was ordered {o}\" for {why:?}; the text gives {must}\"", name(*f)));
                }
                if (from.dist(*to) - done).abs() > 1e-6 {
                    return Err(format!("{} went {:.2}\" and says {done:.2}\"", name(*f), from.dist(*to)));
                }
                let spent = cost(before, *from, *to);
                if spent > must + SLACK {
                    return Err(format!(
                        "{} was forced {:.2}\" at a cost of {spent:.2}\" on a move of {must}\" ({why:?})",
                        name(*f),
                        from.dist(*to)
                    ));
                }
                units[u].at = *to;
                units[u].facing = *facing;
            }
            Event::Morale { test: Some(t), .. } => test_adds_up(t, "a test")?,
            _ => {}
        }
    }
    // Where the account leaves each unit it moved is where the unit stands.
    for (u, x) in after.units.iter().enumerate() {
        if x.present() && units[u].at.dist(before.units[u].at) > 1e-9 && units[u].at.dist(x.at) > 1e-6 {
            return Err(format!("{} stands at {:?}, the account put it at {:?}", after.name(u), x.at, units[u].at));
        }
    }
    Ok(())
}

/// Enemy pairs in contact at turn-ends running, without a melee between them.
#[derive(Default)]
struct Contacts {
    turns: HashMap<(usize, usize), u32>,
}

impl Contacts {
    /// After each action: a pair of enemies in contact at three turn-ends running with no melee
    /// between them, and no word in the account of why, breaks the rule.
    fn check(&mut self, before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
        if before.turn == 0 {
            self.turns.clear();
        }
        for ev in events {
            if let Event::Melee { charger, defender, .. } = ev {
                let (a, b) = (usize::from(*charger), usize::from(*defender));
                self.turns.remove(&(a.min(b), a.max(b)));
            }
        }
        if after.turn == before.turn && after.outcome.is_none() {
            return Ok(());
        }
        let mut now = HashMap::new();
        let n = after.units.len();
        for a in 0..n {
            for b in a + 1..n {
                let (x, y) = (&after.units[a], &after.units[b]);
                if x.side == y.side || !x.present() || !y.present() {
                    continue;
                }
                if convex_distance(&x.corners(), &y.corners()) < CONTACT_GAP {
                    let k = self.turns.get(&(a, b)).copied().unwrap_or(0) + 1;
                    let told = events
                        .iter()
                        .any(|e| matches!(e, Event::Contact { units, .. } if *units == [a as u16, b as u16]));
                    if k >= 3 && !told {
                        return Err(format!(
                            "{} and {} have stood in contact at {k} turn-ends without a melee, and nothing says why",
                            after.name(a),
                            after.name(b)
                        ));
                    }
                    now.insert((a, b), k);
                }
            }
        }
        self.turns = now;
        Ok(())
    }
}

/// Every check, with the contact check's memory across actions.
fn checker() -> impl FnMut(&Battle, &Action, &Battle, &[Event]) -> Result<(), String> {
    let mut contacts = Contacts::default();
    move |before, action, after, events| {
        invariants(before, action, after, events)?;
        contacts.check(before, after, events)
    }
}

fn conform(kinds: [&'static str; 2], master: u64) -> [u64; 3] {
    let mut results = [0; 3];
    for s in SCENARIOS {
        let b = scenario(s);
        let r = check_with(|| b.clone(), agents(kinds), master, games(25), 100_000, checker());
        assert_eq!(r.games, games(25), "{s}");
        eprintln!("{s} {kinds:?}: {r:?}");
        if *s == "the-village.toml" {
            results = r.results;
        }
    }
    results
}

#[test]
fn random_agents_conform() {
    conform(["random", "random"], 41);
}

#[test]
fn heuristic_agents_conform() {
    let r = conform(["heuristic", "heuristic"], 42);
    assert!(r[0] + r[1] > 0, "some heuristic battles should be won: {r:?}");
}

/// The Village is even: the same three battalions, a regiment and a battery a side. The
/// heuristic side wins at least nine in ten of the decided battles, from either side.
fn the_heuristic_wins(kinds: [&'static str; 2], master: u64) {
    let r = conform(kinds, master);
    let h = usize::from(kinds[1] == "heuristic");
    let (heuristic_wins, random_wins) = (r[h], r[1 - h]);
    eprintln!("The Village, {kinds:?}: heuristic {heuristic_wins} wins, random {random_wins}");
    assert!(
        heuristic_wins >= 9 * (heuristic_wins + random_wins) / 10,
        "heuristic {heuristic_wins}, random {random_wins}"
    );
}

#[test]
fn the_heuristic_player_conforms_and_beats_the_random_one_as_the_first_side() {
    the_heuristic_wins(["heuristic", "random"], 43);
}

#[test]
fn the_heuristic_player_conforms_and_beats_the_random_one_as_the_second_side() {
    the_heuristic_wins(["random", "heuristic"], 44);
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    for s in SCENARIOS {
        let b = scenario(s);
        let n = volley_ai::check_scores(&b, 300, 5).unwrap_or_else(|e| panic!("{s}: {e}"));
        assert!(n > 50, "{n} decisions checked");
    }
}

// ----- Each check shown able to fail -----

/// A small battle: `p` the Prussians' units (side 0, south), `a` the Austrians' (north).
fn small(p: &str, a: &str, extra: &str) -> Battle {
    let text = format!(
        r#"name = "t"
ruleset = "der-alte-fritz"
[table]
width = 100
depth = 100
[[sides]]
name = "Prussians"
rear_edge = "south"
commander = {{ name = "F", at = [50, 1] }}
units = [{p}]
[[sides]]
name = "Austrians"
rear_edge = "north"
commander = {{ name = "D", at = [50, 99] }}
units = [{a}]
{extra}
"#
    );
    load(&Source::new("t.toml", text)).unwrap_or_else(|e| panic!("{e}"))
}

fn step(b: &mut Battle, a: &Action, dice: &[u32]) -> (Battle, Vec<Event>) {
    use volley_core::GameState;
    let before = b.clone();
    let mut ev = Vec::new();
    b.apply(a, &mut volley_chance::Scripted::new(dice.iter().copied()), &mut ev).unwrap();
    (before, ev)
}

#[test]
fn the_bodies_check_reports_a_unit_standing_on_an_enemy() {
    let b = scenario("the-village.toml");
    let mut after = b.clone();
    assert!(invariants(&b, &Action::Begin, &after, &[]).is_ok());
    let enemy = after.units.iter().position(|u| u.side == 1).unwrap();
    after.units[0].at = after.units[enemy].at;
    let why = invariants(&b, &Action::Begin, &after, &[]).unwrap_err();
    assert!(why.contains("stands on"), "{why}");
}

/// Dragoons charge musketeers 8" ahead; every test passes, no hits: a melee in contact.
fn melee() -> (Battle, Battle, Vec<Event>) {
    let mut b = small(
        r#"{ name = "DR", type = "dragoons", at = [50, 20] }"#,
        r#"{ name = "IR", type = "musketeers", at = [50, 30], facing = 180 }"#,
        "",
    );
    b.turn = 1;
    b.first = 0;
    b.phase = volley_der_alte_fritz::Phase::Movement { side: 0 };
    step(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    step(&mut b, &Action::Done, &[]);
    let (before, ev) = step(&mut b, &Action::Done, &[1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 7, 3]);
    assert!(ev.iter().any(|e| matches!(e, Event::Melee { fought: Some(_), .. })), "{ev:#?}");
    (before, b, ev)
}

#[test]
fn the_melee_check_reports_a_melee_fought_out_of_contact() {
    let (before, after, ev) = melee();
    assert_eq!(invariants(&before, &Action::Done, &after, &ev), Ok(()));
    // The charger said to have fought 2" short of its target.
    let mut doctored = ev.clone();
    for e in &mut doctored {
        if let Event::Melee { fought: Some(sides), went: Some((to, _)), .. } = e {
            to.y -= 2.0;
            for p in &mut sides[0].body {
                p.y -= 2.0;
            }
        }
    }
    let why = invariants(&before, &Action::Done, &after, &doctored).unwrap_err();
    assert!(why.contains("not in contact"), "{why}");
}

#[test]
fn the_flank_check_reports_a_flank_shot_from_ahead_and_a_frontal_one_from_behind() {
    let mut b = small(
        r#"{ name = "IR 1", type = "musketeers", at = [20, 10] }"#,
        r#"{ name = "IR A", type = "musketeers", at = [20, 16], facing = 180 }"#,
        "",
    );
    b.turn = 1;
    b.phase = volley_der_alte_fritz::Phase::Firing { side: 0 };
    let (before, ev) = step(&mut b, &Action::Fire { unit: 0, target: 1 }, &[9, 9, 9, 9, 9, 9]);
    assert_eq!(invariants(&before, &Action::Fire { unit: 0, target: 1 }, &b, &ev), Ok(()));
    let mut doctored = ev.clone();
    if let Event::Volley { flank, .. } = &mut doctored[0] {
        *flank = true;
    }
    let why = invariants(&before, &Action::Fire { unit: 0, target: 1 }, &b, &doctored).unwrap_err();
    assert!(why.contains("from ahead of the line of its front"), "{why}");
    // The target turned about: the same shot comes from behind its front, a flank shot.
    let mut turned = before.clone();
    turned.units[1].facing = 0.0;
    let why = invariants(&turned, &Action::Fire { unit: 0, target: 1 }, &b, &ev).unwrap_err();
    assert!(why.contains("from behind the line of its front"), "{why}");
}

#[test]
fn the_rate_check_reports_a_move_too_far_over_rough_ground_and_a_rout_too_long() {
    let woods = r#"[[terrain]]
kind = "woods"
rect = [0, 12, 100, 40]"#;
    let b = small(r#"{ name = "IR 1", type = "musketeers", at = [13, 10] }"#, FAR, woods);
    // 2" clear and 3" in the wood spend the line's 8"; 5.5" would be too far.
    for (y, fine) in [(15.0, true), (15.5, false)] {
        let a = Action::Move { unit: 0, to: Point::new(13.0, y), facing: 0.0, formation: Formation::Line };
        let mut after = b.clone();
        after.units[0].at = Point::new(13.0, y);
        let r = invariants(&b, &a, &after, &[]);
        assert_eq!(r.is_ok(), fine, "{y}: {r:?}");
    }
    // A rout of 12" told as 12" but gone the whole way through the wood (it goes 6").
    let a = r#"{ name = "IR A", type = "musketeers", at = [20, 60], facing = 180 }"#;
    let forest = r#"[[terrain]]
kind = "woods"
rect = [0, 55, 100, 100]"#;
    let mut b = small(r#"{ name = "IR 1", type = "musketeers", at = [20, 54] }"#, a, forest);
    b.turn = 1;
    b.phase = volley_der_alte_fritz::Phase::Firing { side: 0 };
    let fire = Action::Fire { unit: 0, target: 1 };
    let (before, ev) = step(&mut b, &fire, &[1, 1, 1, 1, 1, 1, 8, 9, 9]);
    assert_eq!(invariants(&before, &fire, &b, &ev), Ok(()));
    let mut doctored = ev.clone();
    let mut after = b.clone();
    for e in &mut doctored {
        if let Event::Forced { to, done, .. } = e {
            to.y = 72.0;
            *done = 12.0;
        }
    }
    after.units[1].at.y = 72.0;
    let why = invariants(&before, &fire, &after, &doctored).unwrap_err();
    assert!(why.contains("at a cost of 24.00\" on a move of 12\""), "{why}");
}

const FAR: &str = r#"{ name = "far", type = "musketeers", at = [90, 95], facing = 180 }"#;

/// ```text
///   IR A ▬▬▬▬▬▬ (x 27–33), 14" ahead and 2.5" clear to the right
///   DR ▬▬▬▬▬▬▬▬▬ (x 15.5–24.5) facing north: obliquely, its facing kept, 18" of reach
/// ```
#[test]
fn the_charge_check_reports_an_oblique_charge_without_the_oblique_or_beyond_its_reach() {
    let oblique = r#"[rules]
sides = [{ side = "Prussians", oblique = true }]"#;
    let mut b = small(
        r#"{ name = "DR", type = "dragoons", at = [20, 10] }"#,
        r#"{ name = "IR A", type = "musketeers", at = [30, 25.25], facing = 180 }"#,
        oblique,
    );
    b.turn = 1;
    b.first = 0;
    b.phase = volley_der_alte_fritz::Phase::Movement { side: 0 };
    step(&mut b, &Action::Charge { unit: 0, target: 1 }, &[]);
    step(&mut b, &Action::Done, &[]);
    let dice = [1, 1, 1, 1, 10, 10, 10, 10, 10, 10, 10, 10, 10, 1, 1, 1, 1, 7, 3];
    let (before, ev) = step(&mut b, &Action::Done, &dice);
    assert!(ev.iter().any(|e| matches!(e, Event::Melee { oblique, fought: Some(_), .. } if *oblique > 0.0)), "{ev:#?}");
    assert_eq!(invariants(&before, &Action::Done, &b, &ev), Ok(()));
    // The same charge by a side without the oblique.
    let mut plain = small(
        r#"{ name = "DR", type = "dragoons", at = [20, 10] }"#,
        r#"{ name = "IR A", type = "musketeers", at = [30, 25.25], facing = 180 }"#,
        "",
    );
    plain.units.clone_from(&before.units);
    let why = invariants(&plain, &Action::Done, &b, &ev).unwrap_err();
    assert!(why.contains("charged obliquely"), "{why}");
    // Its reach said to be the full 20" (the rate less 2" gives 18").
    let mut doctored = ev.clone();
    for e in &mut doctored {
        if let Event::Melee { reach, .. } = e {
            *reach = 20.0;
        }
    }
    let why = invariants(&before, &Action::Done, &b, &doctored).unwrap_err();
    assert!(why.contains("its reach"), "{why}");
}

#[test]
fn the_contact_check_reports_enemies_left_in_contact_three_turns_unexplained() {
    let b = small(
        r#"{ name = "IR 1", type = "musketeers", at = [20, 10] }"#,
        r#"{ name = "IR A", type = "musketeers", at = [20, 11.02], facing = 180 }"#,
        "",
    );
    let mut contacts = Contacts::default();
    let mut before = b.clone();
    before.turn = 1;
    for turn in 2..=4 {
        let mut after = before.clone();
        after.turn = turn;
        let r = contacts.check(&before, &after, &[]);
        assert_eq!(r.is_ok(), turn < 4, "turn-end {}: {r:?}", turn - 1);
        before = after;
    }
    // Told why, it passes.
    let mut contacts = Contacts::default();
    let mut before = b.clone();
    before.turn = 1;
    let told = [Event::Contact { units: [0, 1], text: "why".into() }];
    for turn in 2..=4 {
        let mut after = before.clone();
        after.turn = turn;
        assert!(contacts.check(&before, &after, &told).is_ok());
        before = after;
    }
}

#[test]
fn the_account_check_reports_a_test_that_does_not_add_up() {
    let (before, after, ev) = melee();
    let mut doctored = ev.clone();
    for e in &mut doctored {
        if let Event::Melee { charge_test, .. } = e {
            charge_test.kept = vec![9, 9];
        }
    }
    let why = invariants(&before, &Action::Done, &after, &doctored).unwrap_err();
    assert!(why.contains("does not add up"), "{why}");
}

// Every text a person reads — the account's lines, the phase, the pieces' labels and status,
// the markers, the notes, the candidates' descriptions — in words: no name from the program
// (a `Debug` name such as `RunAway`, braces, snake_case) and no place given as raw coordinates
// (`[15.0, 13.9]`) in a candidate's description or an event's text, over seeded battles of every
// bundled scenario.

/// Proper names of the scenarios that are not in the view (commanders) and are spelled with a
/// capital inside a word.
const NAMES: &[&str] = &[];

#[test]
fn every_text_a_person_reads_is_in_words() {
    for s in SCENARIOS {
        let b = scenario(s);
        for (kind, master, games) in [("heuristic", 71, 3), ("random", 72, 2)] {
            let words = Words { no_coordinates: true, distinct_choices: true };
            let read = check_words_with(|| b.clone(), agents([kind, kind]), master, games, 100_000, NAMES, words);
            assert!(read > 100, "{s}: only {read} texts read");
        }
    }
}
