//! The conformance harness over every bundled Itchy and Scratchy scenario, with heuristic and
//! random players in every seating, and the text's rules checked after every action of every
//! battle: 400 battles by default (`games(50)` for each scenario and each of the four pairings
//! of players), raised with `VOLLEY_CONFORMANCE_GAMES` for a long soak.
//!
//! The checks are written here from the text's clauses (and the register's readings of them,
//! `docs/rules/itchy-scratchy.md`), with the text's tables and the grid's geometry worked out
//! again here, not by calling the engine's own rules: each works out from the battle before an
//! action, the battle after it and the account's data whether the step kept the text.
//!
//! * **Bodies**: after any action no two enemy units share an area, and no two friendly units
//!   do unless one is horse-drawn transport or a General; every unit stands on the grid on
//!   ground it may enter; only the unit that moved has moved, only an attack's target (and the
//!   General with it) lose Strength Points, at most one each, and the destroyed stay destroyed.
//! * **Turns**: the initiative goes to the higher die, ties thrown again; the winner's choice
//!   decides who acts first; each side acts with its units one after another (a unit left for
//!   another does nothing more that turn); a unit moves once a turn and attacks once a turn.
//! * **Moves**: each step through an edge onto ground a unit may enter and never into an enemy's
//!   area; within the unit's rate, one less if it attacks that turn (before or after the move);
//!   halting on entering an area next to an enemy, facing an enemy next to it; a unit faced by
//!   an adjacent enemy going farther from each enemy facing it with every step and never into
//!   the area in front of another enemy (interpretation 7); an exhausted side taking no step
//!   nearer any enemy unit (interpretation 3).
//! * **Attacks**: by a unit with a weapon at an enemy within the weapon's reach (ranges through
//!   edges), within 60° of its facing (the area ahead at one area), the line from centre to
//!   centre passing through no woods, built-up area or unit (sight) and entering no cover but
//!   the target's own (1 area into cover; interpretation 14), nor between two areas of cover at
//!   a corner (interpretation 15), out of cover only from its edge in the direction of fire (the
//!   first area the line enters holds no cover; interpretation 10); the dice
//!   the table gives for the weapon and range, 2 more for a General with the attacker; the
//!   result the text's patterns give the dice (with "any other double" as the author answered),
//!   for the target and for a General with it.
//! * **Exhaustion**: at each turn's end a side that has lost half its starting Strength Points,
//!   rounded up, is told it has reached its Exhaustion Point (and only then); when both have,
//!   the battle is over.
//! * **Adjacent enemies**: enemies that stand next to each other at three turn-ends running
//!   without an attack between them are told at the turn's end, with each one's true reason for
//!   not attacking the other (no weapon, attacked another, moved its whole allowance, faces away,
//!   not ordered: no attack is compulsory; interpretation 16), and no others are.
//! * **The account**: each move's and attack's data (the trace's) is what the battle shows: where
//!   from and to, the areas passed, the allowance, why it stopped, whom it withdrew from; the
//!   arc, the areas the line passes, the ground, the moves made, the Generals, what was lost.
//!
//! Each check is shown able to fail: a test feeds it a doctored step and sees it report. And at
//! every decision of 80 more battles, every candidate the engine offers is held to the same
//! rules, and every attack and every area to move to that they allow is offered
//! (`every_choice_the_text_allows_is_offered_and_no_other`): the engine refuses nothing the text
//! allows.
#![allow(clippy::unwrap_used)] // tests may panic on what they did not expect

use std::collections::{HashMap, HashSet};

use volley_chance::{Scripted, Seeded};
use volley_core::conformance::{Words, check_with, check_words_with, games};
use volley_core::{Actor, Agent, GameState};
use volley_itchy_scratchy::combat::Weapon;
use volley_itchy_scratchy::events::{Held, Stop};
use volley_itchy_scratchy::game::Phase;
use volley_itchy_scratchy::model::{Kind, Terrain, Unit};
use volley_itchy_scratchy::{Action, Battle, Event, load};
use volley_scenario::Source;
use volley_table::grid::{Area, Dir};

fn scenario(name: &str) -> Battle {
    let path = format!("{}/../../../scenarios/itchy-scratchy/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    load(&Source::new(name, text)).unwrap_or_else(|e| panic!("{e}"))
}

fn agents(kinds: [&'static str; 2]) -> impl FnMut(u64) -> Vec<Box<dyn Agent<Battle>>> {
    let names = kinds.map(String::from);
    move |seed| volley_ai::seated::<Battle>(&names, seed).unwrap()
}

const SCENARIOS: &[&str] = &["elands-ridge.toml", "hochdorf-mill.toml"];

// ----- The text's tables, read here -----

/// Grid areas a unit of this type moves (the movement table).
fn rate(k: Kind) -> u8 {
    match k {
        Kind::MountedCavalry | Kind::General => 3,
        Kind::Infantry | Kind::DismountedCavalry | Kind::MachineGuns | Kind::Artillery | Kind::Transport => 2,
    }
}

/// The areas unit `u` may move this turn, if it attacks this turn: its rate, one less for
/// attacking (native troops charging with hand-held weapons lose none: the scenario option that
/// adds the rule the author meant to write, the only way a unit is marked native).
fn allowance(u: &Unit, attacks: bool) -> u8 {
    let charge = u.native && u.weapon == Some(Weapon::HandHeld);
    rate(u.kind) - u8::from(attacks && !charge)
}

/// The dice each weapon throws at 1, 2, 3 … grid areas (the combat table).
fn dice_row(w: Weapon) -> &'static [u8] {
    match w {
        Weapon::RifledHeavyArtillery => &[6, 6, 6, 4, 4, 4, 2, 2, 2],
        Weapon::RifledFieldArtillery => &[6, 6, 4, 4, 2, 2],
        Weapon::RifledMountainArtillery => &[6, 4, 4, 2, 2],
        Weapon::SmoothboreHeavyArtillery => &[6, 6, 4, 4, 2, 2],
        Weapon::SmoothboreFieldArtillery => &[6, 4, 4, 2, 2],
        Weapon::SmoothboreMountainArtillery => &[4, 4, 2, 2],
        Weapon::MachineGuns => &[8, 6, 4, 2],
        Weapon::RiflesAndCarbines => &[6, 4, 2],
        Weapon::Muskets => &[4, 2],
        Weapon::HandHeld => &[4],
    }
}

/// Horse-drawn transport and commanders may share an area with a friend.
fn shares(k: Kind) -> bool {
    matches!(k, Kind::Transport | Kind::General)
}

/// Woods, built-up areas and fortifications are cover.
fn cover(t: Terrain) -> bool {
    matches!(t, Terrain::Woods | Terrain::BuiltUp | Terrain::Fortification)
}

/// Woods and built-up areas block a line of sight through them (interpretation 9).
fn blocks_sight(t: Terrain) -> bool {
    matches!(t, Terrain::Woods | Terrain::BuiltUp)
}

/// Ground a unit may enter: on the grid, not a river (a bridge is) nor impassable.
fn enterable(b: &Battle, a: Area) -> bool {
    b.stat().contains(a) && !matches!(b.stat().terrain(a), Terrain::River | Terrain::Impassable)
}

/// Whether a throw takes a Strength Point from (or kills, if a General alone) a target of type
/// `k`, and whether it kills a General standing with it: a treble 1 for a General, a double 1
/// for artillery and machine guns, a double 2 or 3 for cavalry and transport, a double 4, 5 or
/// 6 for infantry; in cover, with any other double besides, which may be of the same number
/// (the author's answer 1); each looked for in the whole throw (answers 2 and 3).
fn judge(dice: &[u8], k: Kind, in_cover: bool, general_with: bool) -> (bool, bool) {
    let mut n = [0u8; 7];
    for &d in dice {
        n[usize::from(d.min(6))] += 1;
    }
    let shows = |faces: &[usize], need: u8| {
        faces.iter().any(|&f| {
            let mut rest = n;
            rest[f] = rest[f].saturating_sub(need);
            n[f] >= need && (!in_cover || rest[1..].iter().any(|&c| c >= 2))
        })
    };
    let target = match k {
        Kind::General => shows(&[1], 3),
        Kind::Artillery | Kind::MachineGuns => shows(&[1], 2),
        Kind::DismountedCavalry | Kind::MountedCavalry | Kind::Transport => shows(&[2, 3], 2),
        Kind::Infantry => shows(&[4, 5, 6], 2),
    };
    (target, general_with && shows(&[1], 3))
}

// ----- The grid's geometry, worked out here -----

/// An area in words: `[column, row]`.
fn sq(a: Area) -> String {
    format!("[{}, {}]", a.col, a.row)
}

fn centre(a: Area) -> (f64, f64) {
    (f64::from(a.col) + 0.5, f64::from(a.row) + 0.5)
}

/// Degrees between the facing `facing` of a unit at `from` and the line from its area's centre
/// to `to`'s.
fn off_facing(from: Area, facing: Dir, to: Area) -> f64 {
    let (dx, dy) = (f64::from(to.col - from.col), f64::from(to.row - from.row));
    let (fx, fy) = match facing {
        Dir::North => (0.0, 1.0),
        Dir::East => (1.0, 0.0),
        Dir::South => (0.0, -1.0),
        Dir::West => (-1.0, 0.0),
    };
    ((dx * fx + dy * fy) / dx.hypot(dy)).clamp(-1.0, 1.0).acos().to_degrees()
}

/// The areas between `a` and `b` whose inside the segment between their centres passes through
/// (clipping the segment to each square), in the order it enters them; and the pairs of areas
/// it touches only at a corner it passes through exactly.
fn sight_line(a: Area, b: Area) -> (Vec<Area>, Vec<[Area; 2]>) {
    let ((x0, y0), (x1, y1)) = (centre(a), centre(b));
    let (c0, c1, r0, r1) = (a.col.min(b.col), a.col.max(b.col), a.row.min(b.row), a.row.max(b.row));
    let mut through = Vec::new();
    for col in c0..=c1 {
        for row in r0..=r1 {
            let sq = Area::new(col, row);
            if sq == a || sq == b {
                continue;
            }
            let (x, y) = (f64::from(col), f64::from(row));
            let (mut t0, mut t1) = (0.0f64, 1.0f64);
            for (p, q) in [(x0 - x1, x0 - x), (x1 - x0, x + 1.0 - x0), (y0 - y1, y0 - y), (y1 - y0, y + 1.0 - y0)] {
                if p == 0.0 {
                    if q < 0.0 {
                        t1 = -1.0;
                    }
                } else if p < 0.0 {
                    t0 = t0.max(q / p);
                } else {
                    t1 = t1.min(q / p);
                }
            }
            if t1 - t0 > 1e-9 {
                through.push((t0, sq));
            }
        }
    }
    through.sort_by(|p, q| p.0.total_cmp(&q.0));
    let through: Vec<Area> = through.into_iter().map(|(_, a)| a).collect();
    let mut corners = Vec::new();
    for x in c0 + 1..=c1 {
        for y in r0 + 1..=r1 {
            let (fx, fy) = (f64::from(x), f64::from(y));
            if (fx - x0) * (y1 - y0) != (fy - y0) * (x1 - x0) {
                continue;
            }
            let around = [Area::new(x - 1, y - 1), Area::new(x, y - 1), Area::new(x - 1, y), Area::new(x, y)];
            let touched: Vec<Area> =
                around.into_iter().filter(|s| *s != a && *s != b && !through.contains(s)).collect();
            if let [p, q] = touched[..] {
                corners.push([p, q]);
            }
        }
    }
    (through, corners)
}

/// A pair of corner areas in one order, to compare pairs as sets.
fn sorted(pairs: &[[Area; 2]]) -> Vec<[Area; 2]> {
    let mut v: Vec<[Area; 2]> = pairs.iter().map(|&[p, q]| if p <= q { [p, q] } else { [q, p] }).collect();
    v.sort();
    v
}

// ----- The checks -----

/// The living enemy units of `side`, by index.
fn enemies(b: &Battle, side: u8) -> impl Iterator<Item = (usize, &Unit)> {
    b.units.iter().enumerate().filter(move |(_, x)| x.alive() && x.side != side)
}

/// The living enemies of `side` next to area `a` (sharing an edge), in the list's order.
fn next_to(b: &Battle, side: u8, a: Area) -> Vec<usize> {
    enemies(b, side).filter(|(_, x)| x.area.distance(a) == 1).map(|(i, _)| i).collect()
}

/// The living enemies of unit `ui` next to it whose front faces its area.
fn facing_it(b: &Battle, ui: usize) -> Vec<usize> {
    let u = &b.units[ui];
    next_to(b, u.side, u.area).into_iter().filter(|&e| b.units[e].area.next(b.units[e].facing) == u.area).collect()
}

/// The living General of `side` in area `a`, other than unit `not`.
fn general_in(b: &Battle, side: u8, a: Area, not: usize) -> Option<usize> {
    (0..b.units.len()).find(|&i| {
        let x = &b.units[i];
        i != not && x.alive() && x.side == side && x.kind == Kind::General && x.area == a
    })
}

fn names(b: &Battle, list: &[usize]) -> Vec<String> {
    list.iter().map(|&i| b.name(i).to_string()).collect()
}

/// What the checks remember from one action to the next in a battle.
#[derive(Clone, Default)]
struct Checker {
    /// Areas each unit has moved this turn, once it has moved.
    moved: HashMap<usize, u8>,
    /// The units that have attacked this turn, and whom.
    attacked: HashMap<usize, usize>,
    /// The units the acting side has acted with in its part of the turn, in order.
    acted: Vec<usize>,
    /// The sides told they have reached their Exhaustion Point.
    exhausted: [bool; 2],
    /// Enemy pairs (lower index first) next to each other at turn-ends running, without an
    /// attack between them: how many turn-ends.
    adjacent: HashMap<(usize, usize), u32>,
    /// Enemy pairs with an attack between them this turn.
    fought: HashSet<(usize, usize)>,
    /// The most turn-ends running any pair stood next to each other without an attack between
    /// them, over every battle checked.
    longest_adjacent: u32,
}

impl Checker {
    /// Every check of one action: the rules of the action from the battle before it, the bodies
    /// after it, the account's data, and the turn's end.
    fn check(&mut self, before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
        if before.turn == 1 && before.phase == Phase::Initiative {
            // A new battle.
            let longest = self.longest_adjacent;
            *self = Checker { longest_adjacent: longest, ..Checker::default() };
        }
        match action {
            Action::Throw => self.initiative(before, after, events)?,
            Action::GoFirst { first } => {
                let Phase::Choose { side } = before.phase else { return Err("a choice out of its phase".into()) };
                let acts = if *first { side } else { 1 - side };
                if after.phase != (Phase::Act { side: acts, second: false }) {
                    return Err(format!("the winner chose to go first: {first}, yet {:?} follows", after.phase));
                }
            }
            Action::Move { unit, path, facing } => {
                let ui = usize::from(*unit);
                self.may_act(before, ui)?;
                self.move_allowed(before, ui, path, *facing)?;
            }
            Action::Attack { unit, target } => {
                let (ui, ti) = (usize::from(*unit), usize::from(*target));
                self.may_act(before, ui)?;
                self.attack_allowed(before, ui, ti)?;
            }
            Action::EndHalf => {}
        }
        bodies(before, action, after)?;
        match action {
            Action::Move { unit, path, facing } => {
                self.move_told(before, usize::from(*unit), path, *facing, after, events)?
            }
            Action::Attack { unit, target } => {
                self.attack_result(before, usize::from(*unit), usize::from(*target), after, events)?
            }
            _ => {}
        }
        self.turn_end(before, action, after, events)?;
        // Remember.
        match action {
            Action::Throw => {
                self.moved.clear();
                self.attacked.clear();
                self.fought.clear();
            }
            Action::GoFirst { .. } | Action::EndHalf => self.acted.clear(),
            Action::Move { unit, path, .. } => {
                self.moved.insert(usize::from(*unit), path.len() as u8);
                self.acting(usize::from(*unit));
            }
            Action::Attack { unit, target } => {
                let (a, t) = (usize::from(*unit), usize::from(*target));
                self.attacked.insert(a, t);
                self.fought.insert((a.min(t), a.max(t)));
                self.acting(a);
            }
        }
        Ok(())
    }

    fn acting(&mut self, ui: usize) {
        if self.acted.last() != Some(&ui) {
            self.acted.push(ui);
        }
    }

    /// Whether the acting side may act with unit `ui` now: its own, living, and not one it left
    /// for another unit this turn ("each of their units in turn").
    fn may_act(&self, b: &Battle, ui: usize) -> Result<(), String> {
        let Phase::Act { side, .. } = b.phase else {
            return Err(format!("{} acts out of its side's turn", b.name(ui)));
        };
        let u = b.units.get(ui).ok_or("no such unit")?;
        if !u.alive() || u.side != side {
            return Err(format!("{} acts, but is destroyed or not the acting side's", b.name(ui)));
        }
        if self.acted.contains(&ui) && self.acted.last() != Some(&ui) {
            return Err(format!("{} acts again after its side went on to another unit", b.name(ui)));
        }
        Ok(())
    }

    /// The movement rules for unit `ui` moving along `path` to face `facing`, from the battle
    /// before it.
    fn move_allowed(&self, b: &Battle, ui: usize, path: &[Area], facing: Dir) -> Result<(), String> {
        let u = &b.units[ui];
        let name = b.name(ui);
        if self.moved.contains_key(&ui) {
            return Err(format!("{name} moved a second time this turn"));
        }
        let allow = allowance(u, self.attacked.contains_key(&ui));
        if path.len() > usize::from(allow) {
            return Err(format!("{name} moved {} areas: its allowance is {allow}", path.len()));
        }
        let faced = facing_it(b, ui);
        let exhausted = self.exhausted[usize::from(u.side)];
        let mut at = u.area;
        for (k, &next) in path.iter().enumerate() {
            if at.distance(next) != 1 {
                return Err(format!(
                    "{name}: a step from {at_} to {next_} is not through an edge",
                    at_ = sq(at),
                    next_ = sq(next)
                ));
            }
            if !enterable(b, next) {
                return Err(format!("{name} entered {next_}, off the grid or impassable", next_ = sq(next)));
            }
            if enemies(b, u.side).any(|(_, x)| x.area == next) {
                return Err(format!("{name} entered an enemy's area {next_}", next_ = sq(next)));
            }
            if let Some(&e) = faced.iter().find(|&&e| next.distance(b.units[e].area) <= at.distance(b.units[e].area)) {
                return Err(format!(
                    "{name}, faced by {}, stepped to {next_}, no farther from it",
                    b.name(e),
                    next_ = sq(next)
                ));
            }
            if !faced.is_empty() {
                let front = enemies(b, u.side).find(|(e, x)| !faced.contains(e) && x.area.next(x.facing) == next);
                if let Some((e, _)) = front {
                    return Err(format!(
                        "{name}, withdrawing, moved into {next_}, in front of {}",
                        b.name(e),
                        next_ = sq(next)
                    ));
                }
            }
            if exhausted
                && let Some((e, _)) = enemies(b, u.side).find(|(_, x)| next.distance(x.area) < at.distance(x.area))
            {
                return Err(format!(
                    "{name}'s side is exhausted, yet it stepped to {next_}, nearer {}",
                    b.name(e),
                    next_ = sq(next)
                ));
            }
            if k + 1 < path.len() && !next_to(b, u.side, next).is_empty() {
                return Err(format!(
                    "{name} went on past {next_}, next to an enemy, where it had to stop",
                    next_ = sq(next)
                ));
            }
            at = next;
        }
        let crowd = b.units.iter().enumerate().find(|(i, x)| {
            *i != ui && x.alive() && x.side == u.side && x.area == at && !shares(x.kind) && !shares(u.kind)
        });
        if let Some((f, _)) = crowd.filter(|_| at != u.area) {
            return Err(format!("{name} ended its move in {at_} with {}, a friend", b.name(f), at_ = sq(at)));
        }
        if !path.is_empty() {
            let beside = next_to(b, u.side, at);
            if !beside.is_empty() && !beside.iter().any(|&e| b.units[e].area == at.next(facing)) {
                return Err(format!("{name} ended next to {} facing {facing:?}, not an enemy", b.name(beside[0])));
            }
        }
        Ok(())
    }

    /// The attack rules for unit `ui` attacking unit `ti`, from the battle before it: the dice it
    /// throws if it may.
    fn attack_allowed(&self, b: &Battle, ui: usize, ti: usize) -> Result<u8, String> {
        let (u, t) = (&b.units[ui], b.units.get(ti).ok_or("no such target")?);
        let (name, tname) = (b.name(ui), b.name(ti));
        if !t.alive() || t.side == u.side {
            return Err(format!("{name} attacked {tname}, destroyed or a friend"));
        }
        let w = u.weapon.ok_or_else(|| format!("{name} attacked with no weapon"))?;
        if self.attacked.contains_key(&ui) {
            return Err(format!("{name} attacked a second time this turn"));
        }
        if let Some(&m) = self.moved.get(&ui)
            && m > allowance(u, true)
        {
            return Err(format!("{name} moved {m} areas and attacked: attacking leaves it {}", allowance(u, true)));
        }
        let range = u.area.distance(t.area);
        let row = dice_row(w);
        if range == 0 || usize::from(range) > row.len() {
            return Err(format!("{name} attacked {tname} at range {range}: its weapon reaches {}", row.len()));
        }
        let off = off_facing(u.area, u.facing, t.area);
        if off > 60.0 + 1e-9 {
            return Err(format!("{name} attacked {tname}, {off:.1}° off its facing, outside the arc"));
        }
        let terrain = |a: Area| b.stat().terrain(a);
        let (through, corners) = sight_line(u.area, t.area);
        // Out of cover only from its edge: the adjacent area in the direction of fire (the first
        // the line enters) holds none (interpretation 10). At one area that is the target's own
        // (1 area into cover).
        if let Some(&first) = through.first().filter(|_| cover(terrain(u.area)))
            && cover(terrain(first))
        {
            return Err(format!(
                "{name} attacked out of cover, not from its edge: {first_} is the next area",
                first_ = sq(first)
            ));
        }
        for &a in &through {
            if blocks_sight(terrain(a)) {
                return Err(format!(
                    "{name} attacked {tname} with no line of sight: {:?} at {a_}",
                    terrain(a),
                    a_ = sq(a)
                ));
            }
            if cover(terrain(a)) {
                return Err(format!(
                    "{name} attacked {tname} through cover at {a_}: more than 1 area into cover",
                    a_ = sq(a)
                ));
            }
            if let Some(x) = b.units.iter().position(|x| x.alive() && x.area == a) {
                return Err(format!(
                    "{name} attacked {tname} with no line of sight: {} at {a_}",
                    b.name(x),
                    a_ = sq(a)
                ));
            }
        }
        if let Some([p, q]) = corners.into_iter().find(|&[p, q]| cover(terrain(p)) && cover(terrain(q))) {
            return Err(format!(
                "{name} attacked {tname} between two areas of cover meeting at a corner, {p_} {q_}",
                p_ = sq(p),
                q_ = sq(q)
            ));
        }

        let general = general_in(b, u.side, u.area, ui).is_some();
        Ok(row[usize::from(range) - 1] + if general { 2 } else { 0 })
    }

    /// Why unit `u` did not attack unit `e`, next to it, this turn, as the account must say: no
    /// weapon; it attacked another; it moved its whole allowance; the other is not ahead of it;
    /// else its side did not attack with it.
    fn held(&self, b: &Battle, u: usize, e: usize) -> Held {
        let x = &b.units[u];
        if x.weapon.is_none() {
            Held::NoWeapon
        } else if let Some(&t) = self.attacked.get(&u) {
            Held::AttackedAnother { target: b.name(t).to_string() }
        } else if self.moved.get(&u).is_some_and(|&m| m > allowance(x, true)) {
            Held::Spent
        } else if x.area.next(x.facing) != b.units[e].area {
            Held::OutOfArc
        } else {
            Held::NotOrdered
        }
    }

    /// An attack's dice and result, from the battle before it, the battle after it and the
    /// account.
    fn attack_result(
        &self,
        before: &Battle,
        ui: usize,
        ti: usize,
        after: &Battle,
        events: &[Event],
    ) -> Result<(), String> {
        let dice_due = self.attack_allowed(before, ui, ti)?;
        let (u, t) = (&before.units[ui], &before.units[ti]);
        let [
            Event::Attack {
                attacker,
                target,
                from,
                facing,
                at,
                off_facing: off,
                through,
                corners,
                ground,
                target_ground,
                moved,
                allowance: allow,
                general_with_attacker,
                general_with_target,
                resolution,
                target_left,
                general_killed,
            },
            rest @ ..,
        ] = events
        else {
            return Err("an attack told by no attack first".into());
        };
        let dice = resolution.dice();
        if dice.len() != usize::from(dice_due) {
            return Err(format!("{} dice thrown: the table gives {dice_due}", dice.len()));
        }
        let in_cover = cover(before.stat().terrain(t.area));
        let general = (t.kind != Kind::General).then(|| general_in(before, t.side, t.area, ti)).flatten();
        let (hit, killed) = judge(dice, t.kind, in_cover, general.is_some());
        let left = t.sp - u8::from(hit);
        if after.units[ti].sp != left {
            return Err(format!(
                "{} has {} SP after {dice:?}: the text leaves it {left}",
                before.name(ti),
                after.units[ti].sp
            ));
        }
        if let Some(g) = general
            && after.units[g].alive() == killed
        {
            return Err(format!("the General with the target after {dice:?}: killed {}", !after.units[g].alive()));
        }
        for (i, x) in before.units.iter().enumerate() {
            if i != ti && Some(i) != general && after.units[i].sp != x.sp {
                return Err(format!("{} lost Strength Points to an attack on another", before.name(i)));
            }
        }
        // The account's data.
        let s = &resolution.situation;
        let name = |i: Option<usize>| i.map(|i| before.name(i).to_string());
        let (want_through, want_corners) = sight_line(u.area, t.area);
        let terrain = |a: Area| before.stat().terrain(a);
        let said = [
            ("attacker", *attacker == before.name(ui)),
            ("target", *target == before.name(ti)),
            ("from", *from == u.area),
            ("facing", *facing == u.facing),
            ("at", *at == t.area),
            ("off_facing", (off - off_facing(u.area, u.facing, t.area)).abs() < 0.051),
            ("through", *through == want_through),
            ("corners", sorted(corners) == sorted(&want_corners)),
            ("ground", *ground == terrain(u.area)),
            ("target_ground", *target_ground == terrain(t.area)),
            ("moved", *moved == self.moved.get(&ui).copied()),
            ("allowance", *allow == allowance(u, true)),
            ("general_with_attacker", *general_with_attacker == name(general_in(before, u.side, u.area, ui))),
            ("general_with_target", *general_with_target == name(general)),
            ("target_left", *target_left == left),
            ("general_killed", *general_killed == name(general.filter(|_| killed))),
            ("weapon", Some(s.weapon) == u.weapon),
            ("range", u16::from(s.range) == u.area.distance(t.area)),
            ("target_in_cover", s.target_in_cover == in_cover),
            ("situation's General with the attacker", s.general_with_attacker == general_with_attacker.is_some()),
            ("situation's General with the target", s.general_with_target == general.is_some()),
            ("outcome", (resolution.outcome.target_hit, resolution.outcome.general_killed) == (hit, killed)),
        ];
        if let Some((field, _)) = said.iter().find(|(_, ok)| !ok) {
            return Err(format!("the attack's {field} is not what the battle shows"));
        }
        let mut losses = rest.iter().filter(|e| matches!(e, Event::LostSp { .. } | Event::Destroyed { .. }));
        if hit {
            let told = match losses.next() {
                Some(Event::LostSp { unit, left: l }) => *unit == before.name(ti) && *l == left && left > 0,
                Some(Event::Destroyed { unit }) => *unit == before.name(ti) && left == 0,
                _ => false,
            };
            if !told {
                return Err(format!("the target's loss of a Strength Point is not told ({rest:?})"));
            }
        }
        if let Some(g) = general.filter(|_| killed)
            && !matches!(losses.next(), Some(Event::Destroyed { unit }) if *unit == before.name(g))
        {
            return Err(format!("the General's death is not told ({rest:?})"));
        }
        if let Some(e) = losses.next() {
            return Err(format!("a loss told that the throw did not cause: {e:?}"));
        }
        Ok(())
    }

    /// A move's account: the one `Moved` event's data is what the battle shows.
    fn move_told(
        &self,
        before: &Battle,
        ui: usize,
        path: &[Area],
        facing_now: Dir,
        after: &Battle,
        events: &[Event],
    ) -> Result<(), String> {
        let u = &before.units[ui];
        let mut told = events.iter().filter(|e| matches!(e, Event::Moved { .. }));
        let (
            Some(Event::Moved {
                unit,
                areas,
                from,
                path: p,
                to,
                facing,
                allowance: allow,
                stop,
                withdrew,
                withdrew_from,
                exhausted,
                ..
            }),
            None,
        ) = (told.next(), told.next())
        else {
            return Err("a move not told by one move".into());
        };
        let end = path.last().copied().unwrap_or(u.area);
        let allow_now = allowance(u, self.attacked.contains_key(&ui));
        let faced = if path.is_empty() { Vec::new() } else { facing_it(before, ui) };
        let beside = next_to(before, u.side, end);
        let want_stop = if path.is_empty() {
            Stop::Turned
        } else if !beside.is_empty() {
            let faces = beside.iter().copied().find(|&e| before.units[e].area == end.next(facing_now));
            Stop::Enemy { units: names(before, &beside), faces: faces.map(|e| before.name(e).to_string()) }
        } else if path.len() == usize::from(allow_now) {
            Stop::Allowance
        } else {
            Stop::Short
        };
        let said = [
            ("unit", *unit == before.name(ui)),
            ("areas", usize::from(*areas) == path.len()),
            ("from", *from == u.area),
            ("path", p == path),
            ("to", *to == end && after.units[ui].area == end),
            ("facing", *facing == facing_now),
            ("allowance", *allow == allow_now),
            ("stop", *stop == want_stop),
            ("withdrew", *withdrew != faced.is_empty()),
            ("withdrew_from", *withdrew_from == names(before, &faced)),
            ("exhausted", *exhausted == self.exhausted[usize::from(u.side)]),
        ];
        match said.iter().find(|(_, ok)| !ok) {
            Some((field, _)) => Err(format!("the move's {field} is not what the battle shows")),
            None => Ok(()),
        }
    }

    /// The initiative: both dice thrown again on a tie; the higher chooses.
    fn initiative(&self, before: &Battle, after: &Battle, events: &[Event]) -> Result<(), String> {
        let Some(Event::Initiative { throws, winner, .. }) =
            events.iter().find(|e| matches!(e, Event::Initiative { .. }))
        else {
            return Err("a throw for the initiative with no throw told".into());
        };
        let Some((&(a, b), ties)) = throws.split_last() else { return Err("no dice thrown".into()) };
        if ties.iter().any(|(x, y)| x != y) || a == b {
            return Err(format!("the initiative was thrown again without a tie, or decided by one: {throws:?}"));
        }
        let higher: u8 = if a > b { 0 } else { 1 };
        if *winner != before.stat().sides[usize::from(higher)] || after.phase != (Phase::Choose { side: higher }) {
            return Err(format!("{winner} chooses after {throws:?}"));
        }
        Ok(())
    }

    /// At a turn's end: each side that has lost half its starting Strength Points (rounded up)
    /// has reached its Exhaustion Point and is told so, once; both: the battle is over. Enemies
    /// next to each other at three turn-ends running without an attack between them are told why.
    fn turn_end(&mut self, before: &Battle, action: &Action, after: &Battle, events: &[Event]) -> Result<(), String> {
        let told = |s: u8| {
            events.iter().find_map(|e| match e {
                Event::Exhausted { side, lost, point, start, turn } if *side == before.stat().sides[usize::from(s)] => {
                    Some((*lost, *point, *start, *turn))
                }
                _ => None,
            })
        };
        let ends = matches!(action, Action::EndHalf) && matches!(before.phase, Phase::Act { second: true, .. });
        for s in 0..2u8 {
            let ours = after.units.iter().filter(|x| x.side == s);
            let start: u32 = ours.clone().map(|x| u32::from(x.sp_start)).sum();
            let lost: u32 = ours.map(|x| u32::from(x.sp_start - x.sp)).sum();
            let point = start.div_ceil(2);
            let reached = lost >= point;
            match told(s) {
                Some(_) if !ends => return Err(format!("side {s} told it is exhausted in the middle of a turn")),
                Some(_) if self.exhausted[usize::from(s)] => {
                    return Err(format!("side {s} told it is exhausted twice"));
                }
                Some(t) if t != (lost, point, start, before.turn) => {
                    return Err(format!("side {s}'s exhaustion told as {t:?}: lost {lost}, point {point} of {start}"));
                }
                Some(_) if !reached => {
                    return Err(format!("side {s} told it is exhausted having lost {lost} of {start}"));
                }
                None if ends && reached && !self.exhausted[usize::from(s)] => {
                    return Err(format!("side {s} lost {lost} of {start} SP and was not told it is exhausted"));
                }
                Some(_) => self.exhausted[usize::from(s)] = true,
                None => {}
            }
        }
        if !ends {
            return Ok(());
        }
        if self.exhausted == [true, true] && after.outcome.is_none() {
            return Err("both sides are exhausted and the battle goes on".into());
        }
        if after.outcome.is_none() && (after.turn != before.turn + 1 || after.phase != Phase::Initiative) {
            return Err(format!("the turn ended into turn {} {:?}", after.turn, after.phase));
        }
        let mut now = HashMap::new();
        for (a, x) in after.units.iter().enumerate().filter(|(_, x)| x.alive()) {
            for (e, _) in enemies(after, x.side).filter(|(e, y)| *e > a && y.area.distance(x.area) == 1) {
                if !self.fought.contains(&(a, e)) {
                    let k = self.adjacent.get(&(a, e)).copied().unwrap_or(0) + 1;
                    self.longest_adjacent = self.longest_adjacent.max(k);
                    now.insert((a, e), k);
                }
            }
        }
        let mut standoffs: Vec<_> = events
            .iter()
            .filter_map(|e| match e {
                Event::Standoff { units, turns, why } => Some((units, *turns, why)),
                _ => None,
            })
            .collect();
        let mut long: Vec<_> = now.iter().filter(|(_, k)| **k >= 3).collect();
        long.sort();
        for (&(a, e), &k) in long {
            let pair = [after.name(a).to_string(), after.name(e).to_string()];
            let Some(i) = standoffs.iter().position(|(units, _, _)| **units == pair) else {
                return Err(format!(
                    "{} and {} have stood next to each other at {k} turn-ends without an attack between them, and nothing says why",
                    pair[0], pair[1]
                ));
            };
            let (_, turns, why) = standoffs.swap_remove(i);
            let want = [self.held(after, a, e), self.held(after, e, a)];
            if turns != k || *why != want {
                return Err(format!(
                    "{} and {}: told {turns} turn-ends, {why:?}; the battle shows {k}, {want:?}",
                    pair[0], pair[1]
                ));
            }
        }
        if let Some((units, turns, _)) = standoffs.first() {
            return Err(format!(
                "{units:?} told they stood next to each other at {turns} turn-ends without an attack between them: they did not"
            ));
        }
        self.adjacent = now;
        Ok(())
    }
}

/// After any action: where everything stands. No two enemies share an area, no two friends
/// unless one is transport or a General; every living unit on the grid on ground it may enter;
/// only the unit that moved has moved; no unit regains a Strength Point, and none loses one but
/// to an attack.
fn bodies(before: &Battle, action: &Action, after: &Battle) -> Result<(), String> {
    let living: Vec<(usize, &Unit)> = after.units.iter().enumerate().filter(|(_, x)| x.alive()).collect();
    for (i, (a, x)) in living.iter().enumerate() {
        if !enterable(after, x.area) {
            return Err(format!("{} stands at {}, off the grid or impassable", after.name(*a), sq(x.area)));
        }
        for (b, y) in &living[i + 1..] {
            if x.area != y.area {
                continue;
            }
            if x.side != y.side {
                return Err(format!("{} and {}, enemies, share {}", after.name(*a), after.name(*b), sq(x.area)));
            }
            if !shares(x.kind) && !shares(y.kind) {
                return Err(format!("{} and {}, friends, share {}", after.name(*a), after.name(*b), sq(x.area)));
            }
        }
    }
    let mover = match action {
        Action::Move { unit, path, facing } => Some((usize::from(*unit), path.last().copied(), *facing)),
        _ => None,
    };
    for (i, (x, y)) in before.units.iter().zip(&after.units).enumerate() {
        let (area, facing) = match mover {
            Some((m, end, facing)) if m == i => (end.unwrap_or(x.area), facing),
            _ => (x.area, x.facing),
        };
        if (y.area, y.facing) != (area, facing) && y.alive() {
            let what = if mover.is_some_and(|m| m.0 == i) {
                "did not end where its move took it"
            } else {
                "moved without moving"
            };
            return Err(format!("{} {what}", before.name(i)));
        }
        if y.sp > x.sp || (y.sp < x.sp && !matches!(action, Action::Attack { .. })) {
            return Err(format!("{} went from {} to {} SP without an attack", before.name(i), x.sp, y.sp));
        }
    }
    Ok(())
}

// ----- Battles -----

/// Plays `games(50)` battles of each scenario with these players, every action checked; the
/// results of each scenario.
fn conform(kinds: [&'static str; 2], master: u64) -> Vec<[u64; 3]> {
    let mut out = Vec::new();
    for s in SCENARIOS {
        let b = scenario(s);
        let mut c = Checker::default();
        let check = |x: &Battle, a: &Action, y: &Battle, e: &[Event]| c.check(x, a, y, e);
        let r = check_with(|| b.clone(), agents(kinds), master, games(50), 100_000, check);
        assert_eq!(r.games, games(50), "{s}");
        eprintln!("{s} {kinds:?}: {r:?}; longest next to an enemy without an attack: {} turn-ends", c.longest_adjacent);
        out.push(r.results);
    }
    out
}

#[test]
fn random_players_keep_the_text() {
    conform(["random", "random"], 21);
}

#[test]
fn heuristic_players_keep_the_text_and_finish_battles() {
    for r in conform(["heuristic", "heuristic"], 22) {
        assert!(r[0] + r[1] > 0, "heuristic battles should be won: {r:?}");
    }
}

#[test]
fn heuristic_and_random_players_keep_the_text_on_either_side() {
    conform(["heuristic", "random"], 23);
    conform(["random", "heuristic"], 24);
}

#[test]
fn an_objective_of_several_areas_is_drawn_round_all_of_them() {
    // Eland's Ridge: the ridge is the block from [4, 7] to [7, 7], four areas in a row.
    let b = scenario("elands-ridge.toml");
    let v = volley_core::GameState::view(&b, volley_core::Viewer::Umpire);
    let ridge = v.objectives.iter().find(|o| o.name == "the ridge").unwrap();
    assert_eq!(ridge.points, vec![[4.0, 7.0], [8.0, 7.0], [8.0, 8.0], [4.0, 8.0]]);
}

#[test]
fn the_heuristic_scores_the_same_all_together_as_one_by_one() {
    // The scores of a decision share a survey of the battle (where the units stand, how far
    // the nearest enemy and objective are): it must change no score. Ten Elands Ridges side by
    // side as well, where the survey matters most.
    let path = format!("{}/../../../scenarios/itchy-scratchy/elands-ridge.toml", env!("CARGO_MANIFEST_DIR"));
    let tiled = volley_scenario::generate::tile(&std::fs::read_to_string(path).unwrap(), 10).unwrap();
    let big = load(&Source::new("tiled", tiled)).unwrap();
    for (b, decisions) in [(scenario("elands-ridge.toml"), 400), (scenario("hochdorf-mill.toml"), 400), (big, 300)] {
        let n = volley_ai::check_scores(&b, decisions, 5).unwrap_or_else(|e| panic!("{}: {e}", b.stat().name));
        assert!(n > 100, "{} decisions checked", n);
    }
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

/// Every attack of seeded battles says for each result rule that could apply what the throw did
/// or what it needed, and the phase says who acts and whether first or second.
#[test]
fn every_attack_says_what_it_needed_and_the_phase_who_acts() {
    use volley_core::{Actor, GameState, Viewer};
    use volley_itchy_scratchy::Event;
    let (mut misses, mut phases) = (0, 0);
    for s in SCENARIOS {
        for g in 0..3 {
            let seed = Seeded::derive(75, g);
            let mut rng = Seeded::new(seed);
            let mut players = agents(["heuristic", "heuristic"])(seed);
            let mut b = scenario(s);
            let (mut cands, mut events) = (Vec::new(), Vec::new());
            while b.outcome().is_none() {
                let Actor::Side(side) = b.actor() else { break };
                let phase = b.view(Viewer::Spectator).phase;
                if phase.contains("move and attack") {
                    let who = b.view(Viewer::Spectator).sides[usize::from(side)].clone();
                    assert!(phase.starts_with(&format!("the {who} move and attack (")), "{phase}");
                    assert!(phase.ends_with("(first)") || phase.ends_with("(second)"), "{phase}");
                    phases += 1;
                }
                cands.clear();
                b.candidate_actions(&mut cands);
                let i = players[usize::from(side)].choose(&b, &cands);
                events.clear();
                b.apply(&cands[i], &mut rng, &mut events).unwrap();
                for e in &events {
                    let Event::Attack { resolution, .. } = e else { continue };
                    let text = e.to_string();
                    let rules = 1 + usize::from(resolution.situation.general_with_target);
                    let hits =
                        usize::from(resolution.outcome.target_hit) + usize::from(resolution.outcome.general_killed);
                    assert_eq!(text.matches("needed a ").count(), rules - hits, "{text}");
                    if hits == 0 {
                        assert!(text.ends_with(": no effect."), "{text}");
                        misses += 1;
                    }
                    assert!(text.contains(" dice"), "the dice's number explained: {text}");
                }
            }
        }
    }
    assert!(misses > 20 && phases > 20, "{misses} misses, {phases} phases read");
}

// ----- Every choice the text allows is offered, and no other -----

/// Every path of up to `n` steps through edges from `a`.
fn paths(a: Area, n: u8) -> Vec<Vec<Area>> {
    let mut out = vec![Vec::new()];
    let mut k = 0;
    while k < out.len() {
        let p = out[k].clone();
        k += 1;
        if p.len() < usize::from(n) {
            for next in p.last().copied().unwrap_or(a).neighbours() {
                let mut q = p.clone();
                q.push(next);
                out.push(q);
            }
        }
    }
    out
}

impl Checker {
    /// Whether the engine's candidates `cands` for the acting side of `b` are what the rules
    /// allow: each move and attack offered keeps them, and every attack they allow, and every
    /// area a unit may move to (by some path of edge steps, facing some way), is offered. The
    /// attacks and areas allowed, counted.
    fn offers(&self, b: &Battle, cands: &[Action]) -> Result<(usize, usize), String> {
        let Phase::Act { side, .. } = b.phase else { return Ok((0, 0)) };
        let mut attacks = HashSet::new();
        let mut ends = HashSet::new();
        for a in cands {
            let kept = match a {
                Action::Attack { unit, target } => {
                    attacks.insert((usize::from(*unit), usize::from(*target)));
                    let (u, t) = (usize::from(*unit), usize::from(*target));
                    self.may_act(b, u).and_then(|_| self.attack_allowed(b, u, t).map(|_| ()))
                }
                Action::Move { unit, path, facing } => {
                    let u = usize::from(*unit);
                    ends.insert((u, path.last().copied().unwrap_or(b.units[u].area)));
                    self.may_act(b, u).and_then(|_| self.move_allowed(b, u, path, *facing))
                }
                _ => Ok(()),
            };
            kept.map_err(|why| format!("offered {a:?}, which breaks a rule: {why}"))?;
        }
        let (mut n_attacks, mut n_ends) = (0, 0);
        for ui in (0..b.units.len()).filter(|&u| b.units[u].side == side && self.may_act(b, u).is_ok()) {
            for ti in (0..b.units.len()).filter(|&t| b.units[t].alive() && b.units[t].side != side) {
                if self.attack_allowed(b, ui, ti).is_ok() {
                    n_attacks += 1;
                    if !attacks.contains(&(ui, ti)) {
                        return Err(format!("{} may attack {}: not offered", b.name(ui), b.name(ti)));
                    }
                }
            }
            let u = &b.units[ui];
            if self.moved.contains_key(&ui) {
                continue;
            }
            let mut may = HashSet::new();
            for p in paths(u.area, allowance(u, self.attacked.contains_key(&ui))) {
                // A round trip back to where it stands is a turn on the spot.
                let Some(&end) = p.last().filter(|&&e| e != u.area) else { continue };
                if !may.contains(&end) && Dir::ALL.into_iter().any(|f| self.move_allowed(b, ui, &p, f).is_ok()) {
                    may.insert(end);
                    n_ends += 1;
                    if !ends.contains(&(ui, end)) {
                        return Err(format!(
                            "{} may move to {} by {}: not offered",
                            b.name(ui),
                            sq(end),
                            p.iter().map(|&a| sq(a)).collect::<Vec<_>>().join(" ")
                        ));
                    }
                }
            }
        }
        Ok((n_attacks, n_ends))
    }
}

/// At every decision of seeded battles (`games(10)` for each scenario and pairing of players),
/// the engine offers exactly what the rules checked above allow: nothing they refuse, every
/// attack they allow and every area a unit may move to.
#[test]
fn every_choice_the_text_allows_is_offered_and_no_other() {
    let (mut attacks, mut ends, mut battles) = (0, 0, 0);
    let pairings = [["random", "random"], ["heuristic", "heuristic"], ["heuristic", "random"], ["random", "heuristic"]];
    for s in SCENARIOS {
        for (g, kinds) in (0..games(10)).flat_map(|_| pairings).enumerate() {
            let seed = Seeded::derive(31, g as u64);
            let mut rng = Seeded::new(seed);
            let mut players = agents(kinds)(seed);
            let mut b = scenario(s);
            let mut c = Checker::default();
            let (mut cands, mut events) = (Vec::new(), Vec::new());
            while b.outcome().is_none() {
                let Actor::Side(side) = b.actor() else { break };
                cands.clear();
                b.candidate_actions(&mut cands);
                let (a, e) = c.offers(&b, &cands).unwrap_or_else(|e| panic!("{s} seed {seed} turn {}: {e}", b.turn));
                (attacks, ends) = (attacks + a, ends + e);
                let i = players[usize::from(side)].choose(&b, &cands);
                let before = b.clone();
                events.clear();
                b.apply(&cands[i], &mut rng, &mut events).unwrap();
                c.check(&before, &cands[i], &b, &events).unwrap_or_else(|e| panic!("{s} seed {seed}: {e}"));
            }
            battles += 1;
        }
    }
    eprintln!("{battles} battles: {attacks} attacks and {ends} areas to move to the text allows, all offered");
    assert!(attacks > 1000 && ends > 10_000, "{attacks} attacks, {ends} areas");
}

// ----- Each check shown able to fail -----

/// A battle on a 10 by 10 grid: `a` and `b` are TOML unit lists for the south side (Blue, its
/// General at [0, 0], unit 0) and the north side (Red, its General at [9, 9], listed after
/// Blue's units); `areas` adds terrain.
fn small(a: &str, b: &str, areas: &str) -> Battle {
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

fn terrain(kind: &str, at: &[[i16; 2]]) -> String {
    let list: Vec<String> = at.iter().map(|a| format!("[{}, {}]", a[0], a[1])).collect();
    format!("[[rules.areas]]\nkind = \"{kind}\"\nat = [{}]\n", list.join(", "))
}

fn ix(b: &Battle, name: &str) -> usize {
    b.stat().unit_names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no unit {name}"))
}

fn mv(b: &Battle, unit: &str, path: &[[i16; 2]], facing: Dir) -> Action {
    Action::Move { unit: ix(b, unit) as u16, path: path.iter().map(|&a| Area::from(a)).collect(), facing }
}

fn attack(b: &Battle, unit: &str, target: &str) -> Action {
    Action::Attack { unit: ix(b, unit) as u16, target: ix(b, target) as u16 }
}

/// Plays `action` with these dice through the checker, which must accept it; the battle
/// before it and the events.
fn step(c: &mut Checker, b: &mut Battle, action: &Action, dice: &[u32]) -> (Battle, Vec<Event>) {
    let before = b.clone();
    let mut events = Vec::new();
    b.apply(action, &mut Scripted::new(dice.iter().copied()), &mut events)
        .unwrap_or_else(|e| panic!("{action:?}: {e}"));
    c.check(&before, action, b, &events).unwrap_or_else(|e| panic!("{action:?} refused by the checks: {e}"));
    (before, events)
}

/// A battle past the initiative with Blue to act first, and its checker.
fn blue_first(a: &str, b: &str, areas: &str) -> (Checker, Battle) {
    let mut c = Checker::default();
    let mut battle = small(a, b, areas);
    step(&mut c, &mut battle, &Action::Throw, &[6, 1]);
    step(&mut c, &mut battle, &Action::GoFirst { first: true }, &[]);
    (c, battle)
}

/// The checks' report on a doctored step (a copy of the checker sees it), which must say `what`.
#[track_caller]
fn reports(c: &Checker, before: &Battle, action: &Action, after: &Battle, events: &[Event], what: &str) {
    match c.clone().check(before, action, after, events) {
        Ok(()) => panic!("the checks let {action:?} pass; expected: {what}"),
        Err(why) => assert!(why.contains(what), "expected {what:?}, got: {why}"),
    }
}

/// The checks' report on an action the engine would refuse, taken from `b` as it stands (the
/// battle after it left as before): the rules are checked from the battle before an action,
/// first.
#[track_caller]
fn refuses(c: &Checker, b: &Battle, action: &Action, what: &str) {
    reports(c, b, action, b, &[], what);
}

#[test]
fn the_bodies_check_reports_units_on_one_another_off_the_grid_moved_or_hurt_without_cause() {
    let (c, b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [6, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7] }"#,
        "",
    );
    let (i, j, r) = (ix(&b, "I"), ix(&b, "J"), ix(&b, "R"));
    let end = Action::EndHalf;
    let mut after = b.clone();
    after.phase = Phase::Act { side: 1, second: true };
    assert!(bodies(&b, &end, &after).is_ok());
    let doctored = |f: &dyn Fn(&mut Battle)| {
        let mut x = after.clone();
        f(&mut x);
        bodies(&b, &end, &x).unwrap_err()
    };
    assert!(doctored(&|x| x.units[i].area = x.units[r].area).contains("enemies, share"));
    assert!(doctored(&|x| x.units[j].area = x.units[i].area).contains("friends, share"));
    assert!(doctored(&|x| x.units[i].area = Area::new(4, -1)).contains("off the grid"));
    assert!(doctored(&|x| x.units[j].facing = Dir::East).contains("moved without moving"));
    assert!(doctored(&|x| x.units[r].sp = 3).contains("without an attack"));
    assert!(doctored(&|x| x.units[r].sp = 5).contains("without an attack"));
    // A General may share with a friend; the move must end where its path does.
    let mut x = after.clone();
    x.units[0].area = x.units[i].area;
    x.units[0].facing = Dir::North;
    let general = Action::Move { unit: 0, path: vec![Area::new(1, 0)], facing: Dir::North };
    assert!(bodies(&b, &general, &x).unwrap_err().contains("did not end where its move took it"));
    x.units[0].area = Area::new(1, 0);
    assert!(bodies(&b, &general, &x).is_ok());
    // Through the checker, too.
    reports(
        &c,
        &b,
        &end,
        &{
            let mut x = after.clone();
            x.units[r].sp = 3;
            x
        },
        &[],
        "without an attack",
    );
}

#[test]
fn the_turn_checks_report_a_wrong_initiative_or_choice_and_units_acting_out_of_turn() {
    let mut c = Checker::default();
    let mut b = small(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [6, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 8] }"#,
        "",
    );
    let start = b.clone();
    let (before, ev) = step(&mut c, &mut b, &Action::Throw, &[3, 3, 5, 2]);
    let doctored = |throws: Vec<(u32, u32)>, winner: &str| {
        let mut e = ev.clone();
        for x in &mut e {
            if let Event::Initiative { throws: t, winner: w, .. } = x {
                (*t, *w) = (throws.clone(), winner.to_string());
            }
        }
        e
    };
    let fresh = Checker::default();
    reports(&fresh, &start, &Action::Throw, &b, &doctored(vec![(3, 4), (5, 2)], "Blue"), "without a tie");
    reports(&fresh, &start, &Action::Throw, &b, &doctored(vec![(2, 2)], "Blue"), "without a tie");
    reports(&fresh, &start, &Action::Throw, &b, &doctored(vec![(3, 3), (5, 2)], "Red"), "chooses after");
    assert!(fresh.clone().check(&before, &Action::Throw, &b, &ev).is_ok());
    // Blue threw higher and goes first: the phase must say so.
    let choose = b.clone();
    step(&mut c, &mut b, &Action::GoFirst { first: true }, &[]);
    let mut wrong = b.clone();
    wrong.phase = Phase::Act { side: 1, second: false };
    reports(&c, &choose, &Action::GoFirst { first: true }, &wrong, &[], "the winner chose");
    // Each unit in turn: once J acts, I may not; Red's units not in Blue's part of the turn.
    let (a, j) = (mv(&b, "I", &[[4, 5]], Dir::North), mv(&b, "J", &[[6, 5]], Dir::North));
    step(&mut c, &mut b, &a, &[]);
    step(&mut c, &mut b, &j, &[]);
    refuses(&c, &b, &attack(&b, "I", "R"), "after its side went on to another unit");
    refuses(&c, &b, &mv(&b, "R", &[[4, 7]], Dir::South), "not the acting side's");
}

#[test]
fn the_move_checks_report_every_rule_of_movement_broken() {
    // I, J and the cavalry M for Blue; R faces south at [4, 7], S west at [8, 4], U south at
    // [6, 6]; a river at [3, 4].
    //
    //   row 7   .  .  .  .  R  .  .  .  .
    //   row 6   .  .  .  .  .  .  U  .  .
    //   row 4   .  .  .  ~  I  .  J  .  S     ~ river
    //   row 2   .  .  .  .  .  .  M  .  .
    //          c0 c1 c2 c3 c4 c5 c6 c7 c8
    let (mut c, mut b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [6, 4] }, { name = "M", kind = "mounted_cavalry", at = [6, 2] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7], facing = "south" }, { name = "S", kind = "infantry", at = [8, 4], facing = "west" }, { name = "U", kind = "infantry", at = [6, 6], facing = "south" }"#,
        &terrain("river", &[[3, 4]]),
    );
    refuses(&c, &b, &mv(&b, "I", &[[4, 5], [4, 6], [5, 6]], Dir::North), "its allowance is 2");
    refuses(&c, &b, &mv(&b, "M", &[[7, 2], [7, 3], [6, 3], [5, 3]], Dir::North), "its allowance is 3");
    refuses(&c, &b, &mv(&b, "I", &[[5, 5]], Dir::North), "not through an edge");
    refuses(&c, &b, &mv(&b, "I", &[[3, 4]], Dir::North), "off the grid or impassable");
    refuses(&c, &b, &mv(&b, "J", &[[5, 4], [4, 4]], Dir::North), "with I, a friend");
    // The stop rule: [7, 4] is next to S.
    refuses(&c, &b, &mv(&b, "J", &[[7, 4], [7, 5]], Dir::North), "went on past [7, 4]");
    refuses(&c, &b, &mv(&b, "J", &[[7, 4]], Dir::North), "facing North, not an enemy");
    let a = mv(&b, "J", &[[7, 4]], Dir::East);
    step(&mut c, &mut b, &a, &[]);
    refuses(&c, &b, &mv(&b, "J", &[[7, 5]], Dir::East), "a second time this turn");
    // J, now faced by S, may only withdraw: farther from S with every step, and never into
    // the area in front of U. (A copy of the checker that forgets J's move.)
    let mut again = c.clone();
    again.moved.clear();
    refuses(&again, &b, &mv(&b, "J", &[[8, 4]], Dir::East), "entered an enemy's area");
    refuses(&again, &b, &mv(&b, "J", &[[7, 3], [8, 3]], Dir::South), "no farther from it");
    refuses(&again, &b, &mv(&b, "J", &[[6, 4], [6, 5]], Dir::South), "in front of U");
    let (j, i) = (ix(&b, "J"), ix(&b, "I"));
    assert!(again.move_allowed(&b, j, &[Area::new(6, 4), Area::new(5, 4)], Dir::North).is_ok());
    // After an attack, one area less.
    let a = attack(&b, "I", "R");
    step(&mut c, &mut b, &a, &[1, 2]);
    refuses(&c, &b, &mv(&b, "I", &[[4, 3], [4, 2]], Dir::North), "its allowance is 1");
    // An exhausted side steps nearer no enemy.
    let mut tired = c.clone();
    tired.exhausted[0] = true;
    refuses(&tired, &b, &mv(&b, "I", &[[5, 4]], Dir::North), "exhausted, yet it stepped to [5, 4], nearer Red General");
    assert!(tired.move_allowed(&b, i, &[Area::new(4, 3)], Dir::North).is_ok());
    assert!(c.move_allowed(&b, i, &[Area::new(5, 4)], Dir::North).is_ok());
}

#[test]
fn the_attack_checks_report_an_attack_the_text_does_not_allow() {
    //   row 8   .  .  .  .  Far
    //   row 6   .  .  .  .  R  .  .  .
    //   row 4   .  .  .  .  I  J  .  Side
    //          c0 c1 c2 c3 c4 c5 c6 c7
    let (mut c, mut b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [5, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 6], facing = "south" }, { name = "Far", kind = "infantry", at = [4, 8] }, { name = "Side", kind = "infantry", at = [7, 4] }"#,
        "",
    );
    refuses(&c, &b, &attack(&b, "I", "Far"), "at range 4: its weapon reaches 3");
    refuses(&c, &b, &attack(&b, "I", "Side"), "90.0° off its facing, outside the arc");
    refuses(&c, &b, &attack(&b, "I", "J"), "destroyed or a friend");
    refuses(&c, &b, &attack(&b, "Blue General", "R"), "with no weapon");
    let a = attack(&b, "I", "R");
    step(&mut c, &mut b, &a, &[1, 2, 3, 5]);
    refuses(&c, &b, &a, "a second time this turn");
    // J moves its whole allowance: attacking costs an area, so it may not attack.
    let a = mv(&b, "J", &[[5, 5], [5, 6]], Dir::West);
    step(&mut c, &mut b, &a, &[]);
    refuses(&c, &b, &attack(&b, "J", "R"), "moved 2 areas and attacked: attacking leaves it 1");

    // Sight and cover: woods, a fortification or a unit between; two woods meeting at a corner
    // the line passes; out of a wood not from its edge.
    let sight = |areas: &str, blue: &str| {
        let units = format!(r#"{{ name = "G", kind = "artillery", at = [4, 4] }}{blue}"#);
        blue_first(
            &units,
            r#"{ name = "T", kind = "infantry", at = [4, 6] }, { name = "D", kind = "infantry", at = [6, 6] }, { name = "E", kind = "infantry", at = [4, 7] }"#,
            areas,
        )
    };
    let (c, b) = sight(&terrain("woods", &[[4, 5]]), "");
    refuses(&c, &b, &attack(&b, "G", "T"), "no line of sight: Woods at [4, 5]");
    let (c, b) = sight(&terrain("fortification", &[[4, 5]]), "");
    refuses(&c, &b, &attack(&b, "G", "T"), "through cover at [4, 5]: more than 1 area into cover");
    let (c, b) = sight("", r#", { name = "J", kind = "infantry", at = [4, 5] }"#);
    refuses(&c, &b, &attack(&b, "G", "T"), "no line of sight: J at [4, 5]");
    let (c, b) = sight(&terrain("woods", &[[5, 4], [4, 5]]), "");
    refuses(&c, &b, &attack(&b, "G", "D"), "between two areas of cover meeting at a corner, [5, 4] [4, 5]");
    let (c, b) = sight(&terrain("woods", &[[4, 4], [4, 5]]), "");
    refuses(&c, &b, &attack(&b, "G", "E"), "out of cover, not from its edge: [4, 5] is the next area");
    let (c, b) = sight(&terrain("woods", &[[4, 4], [5, 4]]), "");
    assert_eq!(
        c.attack_allowed(&b, ix(&b, "G"), ix(&b, "D")),
        Ok(4),
        "out of the wood's edge, past its corner: 4 dice at 4"
    );
}

/// Blue's I (with its General) attacks Red's R (with its General) with the author's throw
/// 1 1 1 4 4 5: R loses a Strength Point and the General with it falls.
fn the_author_s_throw() -> (Checker, Battle, Battle, Vec<Event>) {
    let (mut c, mut b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }, { name = "J", kind = "infantry", at = [7, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 6], facing = "south" }"#,
        "",
    );
    b.units[0].area = Area::new(4, 4);
    let red_general = ix(&b, "Red General");
    b.units[red_general].area = Area::new(4, 6);
    let a = attack(&b, "I", "R");
    let (before, ev) = step(&mut c, &mut b, &a, &[1, 1, 1, 4, 4, 5]);
    assert!(matches!(&ev[0], Event::Attack { target_left: 3, general_killed: Some(g), .. } if g == "Red General"));
    // The checker before the attack, to be shown doctored versions of it.
    let mut fresh = c.clone();
    fresh.attacked.clear();
    fresh.acted.clear();
    (fresh, before, b, ev)
}

#[test]
fn the_result_checks_report_dice_or_losses_the_table_and_the_patterns_do_not_give() {
    let (c, before, after, ev) = the_author_s_throw();
    let a = attack(&before, "I", "R");
    let (r, g, j) = (ix(&before, "R"), ix(&before, "Red General"), ix(&before, "J"));
    assert!(c.clone().check(&before, &a, &after, &ev).is_ok());
    let state = |f: &dyn Fn(&mut Battle)| {
        let mut x = after.clone();
        f(&mut x);
        x
    };
    reports(
        &c,
        &before,
        &a,
        &state(&|x| x.units[r].sp = 4),
        &ev,
        "R has 4 SP after [1, 1, 1, 4, 4, 5]: the text leaves it 3",
    );
    reports(&c, &before, &a, &state(&|x| x.units[g].sp = 1), &ev, "the General with the target after");
    reports(&c, &before, &a, &state(&|x| x.units[j].sp = 3), &ev, "J lost Strength Points to an attack on another");
    let events = |f: &dyn Fn(&mut Vec<Event>)| {
        let mut e = ev.clone();
        f(&mut e);
        e
    };
    let dice = |d: &'static [u8]| {
        move |e: &mut Vec<Event>| {
            if let Event::Attack { resolution, .. } = &mut e[0] {
                let mut s = resolution.situation.clone();
                s.general_with_attacker = d.len() == 6;
                s.range = if d.len() == 2 { 3 } else { s.range };
                *resolution = s.resolve_dice(d).unwrap();
            }
        }
    };
    // Four dice where the table gives 4 and a General 2 more; a throw with no hit.
    reports(&c, &before, &a, &after, &events(&dice(&[1, 1, 1, 4])), "4 dice thrown: the table gives 6");
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&dice(&[1, 2, 3, 4, 5, 6])),
        "R has 3 SP after [1, 2, 3, 4, 5, 6]: the text leaves it 4",
    );
    // The account: what the attack's data says, and the losses told.
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| {
            if let Event::Attack { off_facing, .. } = &mut e[0] {
                *off_facing = 10.0;
            }
        }),
        "the attack's off_facing",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| {
            if let Event::Attack { general_with_attacker, .. } = &mut e[0] {
                *general_with_attacker = None;
            }
        }),
        "the attack's general_with_attacker",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| {
            if let Event::Attack { through, .. } = &mut e[0] {
                through.clear();
            }
        }),
        "the attack's through",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| e.retain(|x| !matches!(x, Event::LostSp { .. }))),
        "the target's loss of a Strength Point is not told",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| e.retain(|x| !matches!(x, Event::Destroyed { .. }))),
        "the General's death is not told",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| e.push(Event::Destroyed { unit: "J".into() })),
        "a loss told that the throw did not cause",
    );
    reports(
        &c,
        &before,
        &a,
        &after,
        &events(&|e| {
            e.remove(0);
        }),
        "an attack told by no attack first",
    );
}

#[test]
fn the_account_check_reports_a_move_told_other_than_it_went() {
    let (mut c, mut b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7], facing = "south" }"#,
        "",
    );
    let a = mv(&b, "I", &[[4, 5], [4, 6]], Dir::North);
    let fresh = c.clone();
    let (before, ev) = step(&mut c, &mut b, &a, &[]);
    assert!(matches!(&ev[0], Event::Moved { stop: Stop::Enemy { faces: Some(f), .. }, .. } if f == "R"));
    let doctored = |f: &dyn Fn(&mut Event)| {
        let mut e = ev.clone();
        f(&mut e[0]);
        e
    };
    reports(
        &fresh,
        &before,
        &a,
        &b,
        &doctored(&|e| {
            if let Event::Moved { from, .. } = e {
                *from = Area::new(4, 3)
            }
        }),
        "the move's from",
    );
    reports(
        &fresh,
        &before,
        &a,
        &b,
        &doctored(&|e| {
            if let Event::Moved { stop, .. } = e {
                *stop = Stop::Allowance
            }
        }),
        "the move's stop",
    );
    reports(
        &fresh,
        &before,
        &a,
        &b,
        &doctored(&|e| {
            if let Event::Moved { path, .. } = e {
                path.pop();
            }
        }),
        "the move's path",
    );
    reports(
        &fresh,
        &before,
        &a,
        &b,
        &doctored(&|e| {
            if let Event::Moved { withdrew_from, .. } = e {
                withdrew_from.push("R".into())
            }
        }),
        "the move's withdrew_from",
    );
    reports(
        &fresh,
        &before,
        &a,
        &b,
        &doctored(&|e| {
            if let Event::Moved { exhausted, .. } = e {
                *exhausted = true
            }
        }),
        "the move's exhausted",
    );
    reports(&fresh, &before, &a, &b, &[], "a move not told by one move");
}

#[test]
fn the_exhaustion_check_reports_a_side_not_told_told_wrongly_or_a_battle_going_on() {
    // Each side: its General (1 SP) and a unit of 1 SP; the Exhaustion Point is 1.
    let (mut c, mut b) = blue_first(
        r#"{ name = "I", kind = "infantry", at = [4, 2], sp = 1 }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 7], sp = 1 }"#,
        "",
    );
    b.units[0].sp = 0; // Blue's General has fallen (as if to an attack)
    let end = Action::EndHalf;
    let exhausted =
        |side: &str, lost: u32, turn: u32| Event::Exhausted { side: side.into(), lost, point: 1, start: 2, turn };
    let (first_half, ev) = step(&mut c, &mut b, &end, &[]);
    reports(
        &c,
        &first_half,
        &end,
        &b,
        &[ev, vec![exhausted("Blue", 1, 1)]].concat(),
        "told it is exhausted in the middle of a turn",
    );
    let fresh = c.clone();
    let (turn_end, ev) = step(&mut c, &mut b, &end, &[]);
    assert!(ev.iter().any(|e| matches!(e, Event::Exhausted { side, .. } if side == "Blue")), "{ev:?}");
    let without: Vec<Event> = ev.iter().filter(|e| !matches!(e, Event::Exhausted { .. })).cloned().collect();
    reports(&fresh, &turn_end, &end, &b, &without, "side 0 lost 1 of 2 SP and was not told it is exhausted");
    reports(
        &fresh,
        &turn_end,
        &end,
        &b,
        &[without.clone(), vec![exhausted("Blue", 2, 1)]].concat(),
        "exhaustion told as (2, 1, 2, 1)",
    );
    reports(
        &fresh,
        &turn_end,
        &end,
        &b,
        &[ev.clone(), vec![exhausted("Red", 0, 1)]].concat(),
        "side 1 told it is exhausted having lost 0 of 2",
    );
    let mut stuck = b.clone();
    stuck.turn = 1;
    reports(&fresh, &turn_end, &end, &stuck, &ev, "the turn ended into turn 1");
    // The next turn: told again, it is told twice; Red exhausted too, the battle must end.
    step(&mut c, &mut b, &Action::Throw, &[6, 1]);
    step(&mut c, &mut b, &Action::GoFirst { first: true }, &[]);
    step(&mut c, &mut b, &end, &[]);
    let red_general = ix(&b, "Red General");
    b.units[red_general].sp = 0;
    let fresh = c.clone();
    let (turn_end, ev) = step(&mut c, &mut b, &end, &[]);
    assert!(b.outcome.is_some());
    reports(
        &fresh,
        &turn_end,
        &end,
        &b,
        &[ev.clone(), vec![exhausted("Blue", 1, 2)]].concat(),
        "side 0 told it is exhausted twice",
    );
    let mut going_on = b.clone();
    going_on.outcome = None;
    reports(&fresh, &turn_end, &end, &going_on, &ev, "both sides are exhausted and the battle goes on");
}

#[test]
fn the_standoff_check_reports_enemies_next_to_each_other_three_turns_unexplained() {
    // I faces R, next to it; R faces away; Blue's General stands beside R. Nobody attacks.
    let mut c = Checker::default();
    let mut b = small(
        r#"{ name = "I", kind = "infantry", at = [4, 4] }"#,
        r#"{ name = "R", kind = "infantry", at = [4, 5], facing = "north" }"#,
        "",
    );
    b.units[0].area = Area::new(5, 5);
    let end = Action::EndHalf;
    for turn in 1..=3 {
        step(&mut c, &mut b, &Action::Throw, &[6, 1]);
        step(&mut c, &mut b, &Action::GoFirst { first: true }, &[]);
        step(&mut c, &mut b, &end, &[]);
        let fresh = c.clone();
        let (before, ev) = step(&mut c, &mut b, &end, &[]);
        let told: Vec<&Event> = ev.iter().filter(|e| matches!(e, Event::Standoff { .. })).collect();
        if turn < 3 {
            assert!(told.is_empty(), "{told:?}");
            let mut e = ev.clone();
            e.push(Event::Standoff {
                units: ["I".into(), "R".into()],
                turns: 3,
                why: [Held::NotOrdered, Held::OutOfArc],
            });
            reports(&fresh, &before, &end, &b, &e, "they did not");
            continue;
        }
        // Both pairs told, with why: the General carries no weapon, I was not ordered to attack,
        // R faces away.
        assert_eq!(told.len(), 2, "{told:?}");
        assert!(
            matches!(told[0], Event::Standoff { units, turns: 3, why: [Held::NoWeapon, Held::OutOfArc] } if units[0] == "Blue General"),
            "{told:?}"
        );
        assert!(
            matches!(told[1], Event::Standoff { units, turns: 3, why: [Held::NotOrdered, Held::OutOfArc] } if units[0] == "I"),
            "{told:?}"
        );
        let without: Vec<Event> =
            ev.iter().filter(|e| !matches!(e, Event::Standoff { units, .. } if units[0] == "I")).cloned().collect();
        reports(
            &fresh,
            &before,
            &end,
            &b,
            &without,
            "I and R have stood next to each other at 3 turn-ends without an attack between them, and nothing says why",
        );
        let mut wrong = ev.clone();
        for e in &mut wrong {
            if let Event::Standoff { why, .. } = e {
                why[1] = Held::NotOrdered;
            }
        }
        reports(&fresh, &before, &end, &b, &wrong, "told 3 turn-ends");
    }
}

#[test]
fn the_choice_check_reports_an_attack_or_a_move_the_text_allows_not_offered_or_one_it_refuses_offered() {
    // G, heavy guns in the scrub at [0, 0] facing north with scrub ahead, may fire at T past
    // it (interpretation 10): the engine must offer it.
    let (c, b) = blue_first(
        r#"{ name = "G", kind = "artillery", at = [0, 0], weapon = "rifled_heavy_artillery" }"#,
        r#"{ name = "T", kind = "infantry", at = [3, 2] }"#,
        &terrain("woods", &[[0, 0], [0, 1]]),
    );
    let mut cands = Vec::new();
    b.candidate_actions(&mut cands);
    assert!(c.offers(&b, &cands).is_ok());
    let fire = attack(&b, "G", "T");
    let without: Vec<Action> = cands.iter().filter(|&a| *a != fire).cloned().collect();
    assert!(without.len() < cands.len());
    assert_eq!(c.offers(&b, &without).unwrap_err(), "G may attack T: not offered");
    let no_move: Vec<Action> = cands
        .iter()
        .filter(|a| !matches!(a, Action::Move { path, .. } if path.last() == Some(&Area::new(1, 0))))
        .cloned()
        .collect();
    assert!(c.offers(&b, &no_move).unwrap_err().contains("may move to [1, 0]"));
    let mut more = cands.clone();
    more.push(mv(&b, "G", &[[1, 0], [2, 0], [3, 0]], Dir::North));
    assert!(c.offers(&b, &more).unwrap_err().contains("its allowance is 2"));
}
