//! Fire, melee, morale, rallying and officers on the table: the battle describes each situation to
//! the calculator ([`crate::combat`], [`crate::melee`]) and carries out what comes of it.

use volley_chance::{Chance, DrawKind};
use volley_core::calc::{CalcError, Calculator};
use volley_core::{ApplyError, Illegal, illegal};
use volley_table::{Cover, FrontArc, Point, TerrainKind, dist_to_segment, heading_to, segment_meets_polygon};

use super::moves::{ForcedMove, state_name};
use super::{Battle, possessive};
use crate::combat::{self, Combat, Firer, Morale, OfficerFate, Range, Resolution, Standing, Target, Volley};
use crate::events::{Event, ForcedKind, Side, Test};
use crate::melee::{self, End, Fighter, Melee, Pursuit, Winner};
use crate::model::{
    CAVALRY_RETREAT, COMMANDER_DEATH, Formation, RESTS_ON, SECURE_FLANK, State, Wound, near_polygon, rate,
};
use crate::units::{Arm, Chart};

/// A volley's aim, worked out.
#[derive(Clone, Debug, PartialEq)]
pub struct Aim {
    /// The nearest point of the target in the arc and range.
    pub at: Point,
    /// The distance from the firer's front edge.
    pub distance: f64,
    /// Short or long range.
    pub range: Range,
}

fn calc_to_apply(e: CalcError) -> ApplyError {
    match e {
        CalcError::Draw(d) => ApplyError::Draw(d),
        other => ApplyError::Illegal(Illegal::new(other.to_string())),
    }
}

fn dice_text(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
}

fn hits_words(n: u32) -> String {
    if n == 1 { "1 hit".into() } else { format!("{n} hits") }
}

fn morale_word(m: Morale, state: State) -> &'static str {
    match (m, state) {
        (Morale::Passed, _) => "passed",
        (_, State::Routing) => "failed: it is routing already",
        (Morale::Shaken, _) => "one die failed: shaken",
        (Morale::Rout, _) => "both dice failed: rout",
    }
}

impl Battle {
    /// Whether unit `u` is in cover against an enemy at `from`: in woods or a town, or behind a
    /// wall or works.
    pub fn in_cover(&self, u: usize, from: Point) -> bool {
        self.stat().table.cover(self.units[u].at, from) != Cover::Open
    }

    /// Whether unit `u` stands in hard cover (entrenchments, works, a wall) against `from`: the
    /// fire chart E for foot and guns.
    pub fn hard_cover(&self, u: usize, from: Point) -> bool {
        self.units[u].arm() != Arm::Cavalry
            && matches!(self.stat().table.cover(self.units[u].at, from), Cover::Works | Cover::Wall)
    }

    /// Whether both of unit `u`'s flanks are secure: each with a friendly unit (not routing)
    /// within 3", or resting on a town, woods or a wall.
    pub fn secure_flanks(&self, u: usize) -> bool {
        let unit = &self.units[u];
        let c = unit.corners();
        let flanks = [(c[0] + c[3]) * 0.5, (c[1] + c[2]) * 0.5];
        flanks.iter().zip([c[0] - c[1], c[1] - c[0]]).all(|(&p, out)| {
            // Outward from the flank, 1" at most: the town or wood beside it, not one ahead of
            // its front (a unit whose front meets a town does not rest its flanks on it).
            let out = out * (RESTS_ON / out.len().max(f64::EPSILON));
            let beside =
                |poly: &[Point]| (0..=4).any(|k| volley_table::point_in_polygon(p + out * (f64::from(k) / 4.0), poly));
            self.units.iter().enumerate().any(|(j, o)| {
                j != u && o.side == unit.side && o.steady() && near_polygon(p, &o.corners(), SECURE_FLANK)
            }) || self.stat().table.features().iter().any(|f| match f.kind {
                // Resting on it, not standing in it: the cover a unit stands in is its cover.
                TerrainKind::Town | TerrainKind::Woods => {
                    beside(&f.points) && !volley_table::point_in_polygon(unit.at, &f.points)
                }
                TerrainKind::Wall => volley_table::dist_to_polyline(p, &f.points) <= RESTS_ON,
                _ => false,
            })
        })
    }

    /// The unit as its morale test needs it (`from`: where the danger comes from).
    pub fn standing(&self, u: usize, from: Point) -> Standing {
        let x = &self.units[u];
        Standing {
            kind: x.kind,
            hits_before: x.hits,
            in_cover: self.in_cover(u, from),
            secure_flanks: self.secure_flanks(u),
            leader_attached: self.leader_attached(u),
            officer_attached: self.leader_attached(u),
            other_leader: self.officers_with(u).nth(1).is_some(),
            shaken: x.shaken(),
            figures: x.figures.max(1),
            figures_per_stand: x.figures_per_stand,
        }
    }

    /// The fronts unit `u` fires from: each stand of its front rank (a square: of each face),
    /// as the front edge's ends and the facing.
    pub fn firing_fronts(&self, u: usize) -> Vec<(Point, Point, f64)> {
        let unit = &self.units[u];
        let c = unit.corners();
        let faces: Vec<(Point, Point, f64)> = if unit.formation == Formation::Square {
            vec![
                (c[0], c[1], unit.facing),
                (c[1], c[2], unit.facing + 90.0),
                (c[2], c[3], unit.facing + 180.0),
                (c[3], c[0], unit.facing + 270.0),
            ]
        } else {
            vec![(c[0], c[1], unit.facing)]
        };
        if unit.arm() == Arm::Artillery {
            return faces;
        }
        let (w, _) = crate::model::stand_size(unit.arm());
        let (abreast, _) = unit.layout(unit.formation);
        let gap = if unit.formation == Formation::Skirmish { crate::model::SKIRMISH_GAP } else { 0.0 };
        let mut out = Vec::new();
        for (l, r, f) in faces {
            let along = r - l;
            let len = along.len().max(1e-9);
            let right = along * (1.0 / len);
            let n = if unit.formation == Formation::Square { abreast } else { abreast.max(1) };
            for i in 0..n {
                let left = l + right * (f64::from(i) * (w + gap));
                let end = left + right * w.min(len);
                out.push((left, end, volley_table::norm_heading(f)));
            }
        }
        out
    }

    /// Where unit `u` may aim at `t`, and how many of its stands may fire: a stand fires when a
    /// point of the target lies within the 45° arcs from its front corners and within range of its
    /// front edge, with nothing between (terrain or another unit). The aim is the nearest such
    /// point.
    pub fn aim(&self, u: usize, t: usize) -> Option<(Aim, u32)> {
        let (unit, target) = (&self.units[u], &self.units[t]);
        let (short, long) = unit.range()?;
        let reach = long.unwrap_or(short);
        let tc = target.corners();
        let mut samples = vec![target.at];
        for k in 0..4 {
            samples.push(tc[k]);
            samples.push((tc[k] + tc[(k + 1) % 4]) * 0.5);
        }
        let table = &self.stat().table;
        let mut best: Option<Aim> = None;
        let mut stands = 0;
        // Every other unit's footprint with its box, to pass by those far from a line of fire.
        let others: Vec<([Point; 4], volley_table::Aabb)> = self
            .units
            .iter()
            .enumerate()
            .filter(|&(j, o)| j != u && j != t && o.present())
            .map(|(_, o)| {
                let c = o.corners();
                (c, volley_table::bbox(&c))
            })
            .collect();
        let mut near: Vec<(f64, Point)> = Vec::with_capacity(samples.len());
        for (l, r, facing) in self.firing_fronts(u) {
            let arc = FrontArc::new(l, r, facing, 45.0);
            let from = (l + r) * 0.5;
            // The target's points in this stand's arcs and range, nearest first: the first with a
            // clear line is its aim.
            near.clear();
            near.extend(
                samples
                    .iter()
                    .filter(|&&p| arc.contains(p))
                    .map(|&p| (dist_to_segment(p, l, r), p))
                    .filter(|&(d, _)| d <= reach + 1e-9),
            );
            near.sort_by(|a, b| a.0.total_cmp(&b.0));
            let clear = |p: Point| {
                let seg = volley_table::bbox(&[from, p]);
                !table.terrain_blocks_sight(from, p)
                    && !others
                        .iter()
                        .any(|(c, bb)| volley_table::boxes_meet(&seg, bb) && segment_meets_polygon(from, p, c))
            };
            if let Some(&(d, p)) = near.iter().find(|&&(_, p)| clear(p)) {
                stands += 1;
                let range = if d <= short + 1e-9 { Range::Short } else { Range::Long };
                if best.as_ref().is_none_or(|b| d < b.distance) {
                    best = Some(Aim { at: p, distance: d, range });
                }
            }
        }
        best.map(|b| (b, stands))
    }

    /// The volley `u` would fire at `t`, or why it may not.
    pub fn volley(&self, u: usize, t: usize) -> Result<(Volley, Aim), Illegal> {
        let Some(unit) = self.units.get(u) else {
            return illegal!("there is no unit {u}");
        };
        let Some(target) = self.units.get(t) else {
            return illegal!("there is no unit {t}");
        };
        let (name, tname) = (self.name(u), self.name(t));
        if target.side == unit.side {
            return illegal!("{tname} is not an enemy");
        }
        if !target.present() {
            return illegal!("{tname} is no longer in the battle");
        }
        if !unit.steady() {
            return illegal!("{name} is {}", state_name(unit.state));
        }
        if unit.charging.is_some() {
            return illegal!("{name} has declared a charge and does not fire");
        }
        if unit.range().is_none() {
            return illegal!("{} do not fire (the table's `~`)", unit.kind.profile().name);
        }
        if unit.formation == Formation::Limbered {
            return illegal!("{name} is limbered: guns fire only unlimbered");
        }
        let Some((aim, stands)) = self.aim(u, t) else {
            return illegal!(
                "{tname} is not within {name}'s range and the 45° arcs from its front corners, or the line of fire is blocked"
            );
        };
        let from = (unit.corners()[0] + unit.corners()[1]) * 0.5;
        let v = Volley {
            firer: Firer {
                kind: unit.kind,
                firing: if unit.arm() == Arm::Artillery {
                    unit.figures
                } else {
                    (stands * unit.figures_per_stand).min(unit.front_figures())
                },
                shaken: unit.shaken(),
            },
            target: Target {
                unit: self.standing(t, from),
                formation: target.formation.target(),
                flank_or_rear: !self.in_front(t, unit.at),
                hard_cover: self.hard_cover(t, from),
            },
            range: if unit.arm() == Arm::Artillery { aim.range } else { Range::Short },
        };
        v.dice().map_err(|e| Illegal::new(format!("{name} cannot fire at {tname}: {e}")))?;
        Ok((v, aim))
    }

    pub(super) fn check_fire(&self, u: usize, t: usize) -> Result<(), Illegal> {
        self.volley(u, t).map(|_| ())
    }

    /// Fire `u`'s volley at `t` and carry out what comes of it.
    pub(super) fn fire(
        &mut self,
        u: usize,
        t: usize,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let (v, aim) = self.volley(u, t).map_err(ApplyError::Illegal)?;
        let (chart, _, number) = v.dice().map_err(calc_to_apply)?;
        let Resolution::Volley(r) =
            Combat.resolve(&combat::Situation::Volley(v.clone()), chance).map_err(calc_to_apply)?
        else {
            return Ok(());
        };
        let mut why =
            vec![format!("{} target {}", formation_words(self.units[t].formation), v.target.formation.chart())];
        if v.target.flank_or_rear {
            why.push("a flank or rear shot (from behind the line of its front) A".into());
        }
        if v.target.hard_cover {
            why.push("hard cover E".into());
        }
        if v.target.unit.shaken {
            why.push("target shaken D".into());
        }
        if v.firer.shaken {
            why.push("firer shaken D".into());
        }
        let mut text = format!(
            "{} fires at {} ({:.1}\"{}): {} ({} {}) on chart {chart} [{}], hits on {number} or under: {} — {} hit{}",
            self.name(u),
            self.name(t),
            aim.distance,
            if self.units[u].arm() == Arm::Artillery {
                if aim.range == Range::Short { ", short range" } else { ", long range" }
            } else {
                ""
            },
            if r.fire_dice.len() == 1 { "1 die".to_string() } else { format!("{} dice", r.fire_dice.len()) },
            v.firer.firing,
            if self.units[u].arm() == Arm::Artillery { "gunners" } else { "figures of the front stands in reach" },
            chart_sum(&why, chart),
            dice_text(&r.fire_dice),
            r.outcome.hits,
            if r.outcome.hits == 1 { "" } else { "s" }
        );
        let hits = r.outcome.hits;
        {
            let x = &mut self.units[t];
            x.hits += hits;
            x.figures = x.figures.saturating_sub(hits);
        }
        // The account in the order of the draws: the fire, the officer's die, the target's test;
        // then what follows — the officer's fate, the target's morale, and (if the army commander
        // fell) his units' tests.
        let officer = match (r.officer_die, r.outcome.officer) {
            (Some(d), Some(fate)) => self.first_officer_with(t).map(|o| (o, d, fate)),
            _ => None,
        };
        if let Some((o, d, _)) = officer {
            text.push_str(&format!("; the die for {}'s fate {d}", self.officers[o].name));
        }
        let test = r.test.as_ref().map(|(c, n, d)| Test::new(*c, *n, d));
        if let Some(tt) = &test {
            // The leader's die is thrown only while he stands with the unit.
            let tu = &v.target.unit;
            let leader = tt.dice.len() as u32 > combat::morale_dice(tu.in_cover, tu.secure_flanks, false);
            text.push_str(&format!(
                "; {} tests morale on chart {} ({} in all), passes on {} or under, {}: {} — {}",
                self.name(t),
                tt.chart,
                hits_words(self.units[t].hits),
                tt.number,
                combat::morale_dice_words(tu.in_cover, tu.secure_flanks, leader),
                dice_text(&tt.dice),
                morale_word(tt.result, self.units[t].state)
            ));
        }
        let front = self.units[u].corners();
        events.push(Event::Volley {
            unit: u as u16,
            target: t as u16,
            from: (front[0] + front[1]) * 0.5,
            distance: aim.distance,
            range: aim.range,
            firing: v.firer.firing,
            chart,
            why,
            flank: v.target.flank_or_rear,
            number,
            dice: r.fire_dice.clone(),
            hits,
            officer_die: r.officer_die,
            test,
            text,
        });
        let from = self.units[u].at;
        let lost_leader = officer.is_some_and(|(_, _, f)| f.killed());
        // Where he fell: his unit may rout or fall back with his successor before his death's
        // tests are taken, and the 12" is measured from the officer.
        let fell_at = officer.map(|(o, _, _)| self.officer_at(o));
        if let Some((o, d, fate)) = officer {
            self.officer_fate_words(o, d, fate, events);
        }
        if !r.outcome.removed {
            self.narrow(t, events);
        }
        if r.outcome.removed {
            let why = if self.units[t].worn_out() && self.units[t].arm() == Arm::Artillery {
                "its last gunner is down".to_string()
            } else if self.units[t].worn_out() {
                "down to its last stands".to_string()
            } else {
                "a shaken unit that routs is removed".to_string()
            };
            self.remove(t, &why, events);
        } else if let Some(m) = r.outcome.morale {
            self.morale_result(t, m, from, events);
        }
        if let Some((o, _, fate)) = officer
            && lost_leader
            && fate == OfficerFate::KilledByRoundShot
            && self.officers[o].commander
        {
            let at = fell_at.unwrap_or_else(|| self.officer_at(o));
            self.commander_death(o, at, chance, events)?;
        }
        Ok(())
    }

    /// Carry out a morale result on a unit: shaken, or routed (a rout move away from `from`).
    pub(super) fn morale_result(&mut self, t: usize, m: Morale, from: Point, events: &mut Vec<Event>) {
        // A unit already routing (by a test a moment before) or gone has nothing more to lose.
        if !self.units[t].steady() {
            return;
        }
        match m {
            Morale::Passed => {}
            Morale::Shaken => {
                // Shaken (again): a whole turn without moving from now restores it.
                self.units[t].state = State::Shaken;
                self.units[t].shaken_turn = self.turn;
            }
            Morale::Rout => {
                if self.units[t].shaken() {
                    self.remove(t, "a shaken unit that routs is removed", events);
                } else {
                    self.rout(t, from, events);
                }
            }
        }
    }

    /// Unit `t` routs: unformed, a rout move straight away from `from`; off the table, it is gone.
    pub(super) fn rout(&mut self, t: usize, from: Point, events: &mut Vec<Event>) {
        self.units[t].state = State::Routing;
        let away = heading_to(from, self.units[t].at);
        let d = self.units[t].rout_move();
        let m = self.forced_move(t, away, d, Some(away), true);
        let text = if m.off {
            format!("{} routs {d}\": {:.1}\" takes it off the table", self.name(t), m.done)
        } else {
            format!("{} routs {d}\"{} {}", self.name(t), forced_short(&m), self.way_words(m.from, m.to))
        };
        self.forced_event(t, ForcedKind::Rout, away, &m, text, events);
        if m.off {
            self.remove(t, "routed off the table", events);
        }
    }

    /// Unit `t` falls back `d` inches "to rear facing enemy" from the enemy at `from` (`kind`:
    /// falling back, retiring or retreating; `why`: the words for it). A unit facing the enemy
    /// (its centre ahead of the line of the unit's front, [`Battle::in_front`]) goes straight to
    /// its rear, keeping its facing: fronts that met off centre do not send it sliding along the
    /// other's line. One that does not face it (taken in flank or rear) turns to face it and goes
    /// straight away from it (interpretation 52).
    pub(super) fn fall_back(
        &mut self,
        t: usize,
        from: Point,
        d: f64,
        kind: ForcedKind,
        why: &str,
        events: &mut Vec<Event>,
    ) {
        let (at, facing) = (self.units[t].at, self.units[t].facing);
        let to_enemy = heading_to(at, from);
        let (face, away) =
            if self.in_front(t, from) { (facing, (facing + 180.0) % 360.0) } else { (to_enemy, heading_to(from, at)) };
        let m = self.forced_move(t, away, d, Some(face), false);
        let text = format!(
            "{} {why} {d}\"{} {}, facing the enemy",
            self.name(t),
            forced_short(&m),
            self.way_words(m.from, m.to)
        );
        self.forced_event(t, kind, away, &m, text, events);
    }

    /// The account of a forced move, in words and as data.
    pub(super) fn forced_event(
        &self,
        t: usize,
        why: ForcedKind,
        heading: f64,
        m: &ForcedMove,
        text: String,
        events: &mut Vec<Event>,
    ) {
        events.push(Event::Forced {
            unit: t as u16,
            why,
            from: m.from,
            to: m.to,
            heading,
            facing: self.units[t].facing,
            ordered: m.ordered,
            done: m.done,
            terrain: m.terrain.clone(),
            stopped: m.stopped.clone(),
            off_table: m.off,
            text,
        });
    }

    /// A unit whose losses leave it too few stands for its formation takes the one its stands
    /// make: a line down to 2 stands (2 wide) stands as an attack column, on the same ground.
    pub(super) fn narrow(&mut self, u: usize, events: &mut Vec<Event>) {
        let x = &self.units[u];
        if !x.present() {
            return;
        }
        if x.too_narrow_for(x.formation) {
            // 2 wide is an attack column; a row without one (jägers) forms march column, as a
            // scenario's unit of 2 stands does (interpretation 42): on either stand's ground or
            // between them, its front or rear kept or centred, wherever it has room.
            let column = rate(x.kind, Formation::AttackColumn).is_some();
            let f = if column { Formation::AttackColumn } else { Formation::MarchColumn };
            let stands = x.stands();
            let at_before = x.at;
            if !column {
                let (at, facing) = (x.at, x.facing);
                let (fwd, right) = (volley_table::unit(facing), volley_table::unit(facing + 90.0));
                let half = crate::model::stand_size(x.arm()).1 / 2.0;
                let place = [0.0, -half, half]
                    .iter()
                    .flat_map(|&a| [0.0, -half, half].map(|l| at + fwd * a + right * l))
                    .find(|&p| self.fits(u, p, facing, f));
                let Some(p) = place else {
                    return;
                };
                self.units[u].at = p;
            }
            let moved = self.units[u].at != at_before;
            self.units[u].formation = f;
            events.push(Event::Reformed {
                unit: u as u16,
                formation: f,
                at: moved.then_some(self.units[u].at),
                text: format!(
                    "{} is down to {stands} stands, too few for a line (3 or more stands wide): {}",
                    self.name(u),
                    if column {
                        "2 wide, it stands as an attack column"
                    } else {
                        "its row has no attack column, and it forms march column"
                    }
                ),
            });
        }
    }

    /// Take unit `t` out of the battle; its officers stay where it stood.
    pub(super) fn remove(&mut self, t: usize, why: &str, events: &mut Vec<Event>) {
        if !self.units[t].present() {
            return;
        }
        self.units[t].state = State::Removed;
        self.units[t].charging = None;
        let at = self.units[t].at;
        for o in &mut self.officers {
            if o.with == Some(t as u16) {
                o.with = None;
                o.at = at;
            }
        }
        events.push(Event::Removed { unit: t as u16, text: format!("{} is removed: {why}", self.name(t)) });
    }

    /// An officer's fate by his die, and (killed by round shot, the army commander) his units'
    /// tests.
    pub(super) fn officer_fate(
        &mut self,
        o: usize,
        die: u8,
        fate: OfficerFate,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let at = self.officer_at(o);
        let commander = self.officers[o].commander;
        self.officer_fate_words(o, die, fate, events);
        if fate == OfficerFate::KilledByRoundShot && commander {
            return self.commander_death(o, at, chance, events);
        }
        Ok(())
    }

    /// An officer's fate by his die: his wounds, or the next man up.
    pub(super) fn officer_fate_words(&mut self, o: usize, die: u8, fate: OfficerFate, events: &mut Vec<Event>) {
        let name = self.officers[o].name.clone();
        let words = match fate {
            OfficerFate::CloseCall => "a close call, a grazing wound: no effect".to_string(),
            OfficerFate::Missed => "missed".to_string(),
            OfficerFate::LightWound => {
                // Half speed for the rest of the game, whatever else befalls him (a severe wound
                // healed, he still rides at half speed).
                self.officers[o].wound.light = true;
                "a light wound: he moves at half speed for the rest of the game".to_string()
            }
            OfficerFate::SevereWound => {
                self.officers[o].wound.severe_until = Some(self.turn + 2);
                format!(
                    "a severe wound: no movement for two turns (until turn {}{})",
                    self.turn + 2,
                    if self.officers[o].wound.light { "; then at half speed, lightly wounded before" } else { "" }
                )
            }
            OfficerFate::Killed | OfficerFate::KilledByRoundShot => {
                let successor = successor_of(&name);
                let commander = self.officers[o].commander;
                let off = &mut self.officers[o];
                off.name = successor.clone();
                off.wound = Wound::NONE;
                off.exceptional = false;
                let mut w = format!(
                    "{}: {successor} takes his place",
                    if fate == OfficerFate::Killed { "killed" } else { "killed by round shot" }
                );
                if fate == OfficerFate::KilledByRoundShot && commander {
                    w.push_str(&format!(
                        "; the army commander is dead: every unit of his within {COMMANDER_DEATH}\" tests morale"
                    ));
                }
                w
            }
        };
        events.push(Event::Officer {
            officer: o as u16,
            die: Some(die),
            fate: Some(fate),
            ride: None,
            text: format!("{name}'s fate, die {die}: {words}"),
        });
    }

    /// The army commander killed by round shot at `at`: every unit of his side within 12" tests.
    fn commander_death(
        &mut self,
        o: usize,
        at: Point,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let side = self.officers[o].side;
        let near: Vec<usize> = (0..self.units.len())
            .filter(|&i| {
                let u = &self.units[i];
                u.side == side && u.steady() && crate::model::near_polygon(at, &u.corners(), COMMANDER_DEATH)
            })
            .collect();
        for i in near {
            if !self.units[i].steady() {
                continue;
            }
            let enemy = self.nearest_enemy(i).map_or(at, |e| self.units[e].at);
            let s = self.standing(i, enemy);
            let chart = Chart::of_hits(s.hits_before);
            let number = s.kind.profile().morale[chart.index()];
            let k = combat::morale_dice(s.in_cover, s.secure_flanks, s.leader_attached);
            let mut dice = Vec::new();
            for j in 0..k {
                let what =
                    format!("{} morale die {} of {k} (passes on {number} or under)", possessive(self.name(i)), j + 1);
                dice.push(chance.draw(&DrawKind::Die { sides: 10 }, &what)? as u8);
            }
            let m = combat::morale_of(&dice, number);
            events.push(Event::Morale {
                unit: i as u16,
                test: Some(Test::new(chart, number, &dice)),
                text: format!(
                    "{} tests for the army commander's death on chart {chart}, passes on {number} or under, {}: {} — {}",
                    self.name(i),
                    combat::morale_dice_words(s.in_cover, s.secure_flanks, s.leader_attached),
                    dice_text(&dice),
                    morale_word(m, self.units[i].state)
                ),
            });
            self.morale_result(i, m, enemy, events);
        }
        Ok(())
    }

    /// The nearest enemy of unit `u` still in the battle.
    pub fn nearest_enemy(&self, u: usize) -> Option<usize> {
        let me = &self.units[u];
        self.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != me.side && e.present())
            .min_by(|a, b| me.at.dist2(a.1.at).total_cmp(&me.at.dist2(b.1.at)))
            .map(|(i, _)| i)
    }

    /// The start of `side`'s rally: each routing unit has its one attempt (not a choice). A
    /// unit that has tried is done with the phase: rallied from rout to shaken, its leader does
    /// not try again this turn.
    pub(super) fn rally_routers(
        &mut self,
        side: u8,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        for i in 0..self.units.len() {
            if self.units[i].side == side && self.units[i].state == State::Routing {
                self.units[i].acted = true;
                self.rally_unit(i, chance, events)?;
            }
        }
        Ok(())
    }

    /// Whether unit `u`'s leader may try to rally it now: it is shaken and has a leader attached
    /// (the text: an attached leader *may* rally a shaken unit; whether he tries is the side's
    /// choice).
    pub(super) fn check_rally(&self, u: usize) -> Result<(), Illegal> {
        let x = &self.units[u];
        if !x.shaken() {
            return illegal!(
                "{} is {}: only a shaken unit is rallied by its leader",
                self.name(u),
                state_name(x.state)
            );
        }
        if !self.leader_attached(u) {
            return illegal!(
                "{} has no leader attached: a shaken unit without one restores its order by a whole turn without moving",
                self.name(u)
            );
        }
        Ok(())
    }

    /// Unit `i`'s rally: 2 d10 on chart C — a routing unit's one attempt, or a shaken unit's
    /// leader trying.
    pub(super) fn rally_unit(
        &mut self,
        i: usize,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let u = &self.units[i];
        let routing = u.state == State::Routing;
        let why = if routing { "its one attempt to rally from rout" } else { "its leader rallies it" };
        let r = combat::Rally { kind: u.kind, routing };
        let Resolution::Volley(res) = Combat.resolve(&combat::Situation::Rally(r), chance).map_err(calc_to_apply)?
        else {
            return Ok(());
        };
        let (chart, number, dice) = res.test.clone().unwrap_or((Chart::C, 0, Vec::new()));
        let test = Test::new(chart, number, &dice);
        // Said by the dice: how many failed, whatever the result.
        let failed = test.failed_words();
        let result = if res.outcome.removed && routing {
            "it has failed to rally"
        } else if res.outcome.removed {
            "a rout: a shaken unit that routs"
        } else if res.outcome.rallied {
            "back in good order"
        } else if routing {
            "it rallies, but shaken"
        } else {
            "still shaken"
        };
        events.push(Event::Morale {
            unit: i as u16,
            text: format!(
                "{} tries to rally ({why}): 2 dice on chart {chart}, pass on {number} or under: {} — {failed}: {result}",
                self.name(i),
                dice_text(&dice)
            ),
            test: Some(test),
        });
        if res.outcome.removed {
            self.remove(
                i,
                if routing { "failed to rally from rout" } else { "a shaken unit that routs is removed" },
                events,
            );
        } else if res.outcome.rallied {
            self.units[i].state = State::Good;
        } else if routing {
            self.units[i].state = State::Shaken;
            self.units[i].shaken_turn = self.turn;
        }
        Ok(())
    }

    /// Each fighter's chart from the text's lists of advantages, netted from C (shaken, "vs.
    /// shaken" and the halt are the calculator's, netted with these in the melee itself):
    /// charger's, defender's, with the reasons.
    pub fn melee_charts(&self, c: usize, d: usize, flank: bool) -> ([Chart; 2], Vec<String>) {
        let ([cl, dl], why) = self.melee_situation(c, d, flank);
        ([Chart::net(cl), Chart::net(dl)], why)
    }

    /// Every chart the text's lists of advantages give each fighter (charger's, defender's), not
    /// yet netted, with the reasons: the melee nets them with shaken and the halt in one sum.
    pub fn melee_situation(&self, c: usize, d: usize, flank: bool) -> ([Vec<Chart>; 2], Vec<String>) {
        let (cu, du) = (&self.units[c], &self.units[d]);
        let mut cl: Vec<Chart> = Vec::new();
        let mut dl: Vec<Chart> = Vec::new();
        let mut why = Vec::new();
        let table = &self.stat().table;
        let on_hill = |p: Point| table.inside(TerrainKind::Hill, p);
        let (cav_c, inf_d) = (cu.arm() == Arm::Cavalry, du.arm() == Arm::Infantry);
        let (inf_c, cav_d) = (cu.arm() == Arm::Infantry, du.arm() == Arm::Cavalry);
        if flank {
            cl.push(Chart::A);
            dl.push(Chart::E);
            why.push("a flank or rear attack: A for the charger, E for the defender".to_string());
        }
        if cav_c && du.formation == Formation::Square {
            dl.push(Chart::A);
            cl.push(Chart::E);
            why.push("square against cavalry: A, cavalry against a square: E".into());
        }
        // "Any formed vs unformed" (A, the unformed E) and "cavalry vs unformed infantry" (A,
        // whatever the horse's own order: skirmishing hussars too), counted once; the infantry's
        // E is "any unformed vs formed", so unformed foot against unformed horse is not on E.
        let (c_unf, d_unf) = (cu.unformed(), du.unformed());
        if (!c_unf && d_unf) || (cav_c && inf_d && d_unf) {
            cl.push(Chart::A);
            if !c_unf {
                dl.push(Chart::E);
            }
            why.push(match (cav_c && inf_d, c_unf) {
                (true, false) => "cavalry against unformed infantry: A; the unformed: E".into(),
                (true, true) => {
                    "cavalry against unformed infantry: A (the horse unformed too: no formed against unformed for the foot's E)"
                        .into()
                }
                _ => "formed against unformed: A; the unformed: E".into(),
            });
        } else if (c_unf && !d_unf) || (cav_d && inf_c && c_unf) {
            dl.push(Chart::A);
            if !d_unf {
                cl.push(Chart::E);
            }
            why.push(if d_unf {
                "cavalry against unformed infantry: A (the horse unformed too: no formed against unformed for the foot's E)".into()
            } else {
                "unformed against formed: E; the formed: A".into()
            });
        }
        let d_cover = self.in_cover(d, cu.at);
        if cav_c && inf_d && d_cover {
            dl.push(Chart::A);
            cl.push(Chart::E);
            why.push("infantry in cover against cavalry: A; cavalry against infantry in cover: E".into());
        }
        if inf_c && inf_d {
            if d_cover || (on_hill(du.at) && !on_hill(cu.at)) {
                dl.push(Chart::B);
                cl.push(Chart::D);
                why.push("infantry uphill or behind cover against infantry: B; the other: D".into());
            } else if on_hill(cu.at) && !on_hill(du.at) {
                cl.push(Chart::B);
                dl.push(Chart::D);
                why.push("infantry uphill against infantry: B; the other: D".into());
            }
        }
        // Flanks count for foot in the open: in cover, the cover decides the fight with horse.
        if cav_c && inf_d && !d_cover && !self.secure_flanks(d) && du.formation != Formation::Square {
            cl.push(Chart::B);
            dl.push(Chart::D);
            why.push("cavalry against infantry without secure flanks: B; the infantry: D".into());
        }
        if inf_c && cav_d && !self.in_cover(c, du.at) && !self.secure_flanks(c) {
            cl.push(Chart::D);
            dl.push(Chart::B);
            why.push("infantry without secure flanks against cavalry: D; the cavalry: B".into());
        }
        ([cl, dl], why)
    }

    /// The melee phase of `side`: each of its declared charges, in the units' order.
    pub(super) fn melee_phase(
        &mut self,
        side: u8,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        for c in 0..self.units.len() {
            if self.units[c].side != side {
                continue;
            }
            let Some(t) = self.units[c].charging.take() else {
                continue;
            };
            let t = usize::from(t);
            let declared = self.units[c].charged_at.take();
            let path = match self.check_charge(c, t) {
                Ok(p) => p,
                Err(why) => {
                    // What changed since it was declared, if the target moved or turned.
                    let since = match declared {
                        Some((at, facing)) => {
                            let (moved, turned) =
                                (at.dist(self.units[t].at), volley_table::turn(facing, self.units[t].facing).abs());
                            let what = match (moved > 0.05, turned > 0.5) {
                                (true, true) => format!("has moved {moved:.1}\" and turned {turned:.0}°"),
                                (true, false) => format!("has moved {moved:.1}\""),
                                (false, true) => format!("has turned {turned:.0}°"),
                                (false, false) => String::new(),
                            };
                            if what.is_empty() {
                                what
                            } else {
                                format!(" ({} {what} since the charge was declared)", self.name(t))
                            }
                        }
                        None => String::new(),
                    };
                    events.push(Event::CalledOff {
                        charger: c as u16,
                        defender: t as u16,
                        text: format!(
                            "{} charge at {} is called off: {why}{since}",
                            possessive(self.name(c)),
                            self.name(t)
                        ),
                    });
                    continue;
                }
            };
            self.charge(c, t, &path, chance, events)?;
            if self.outcome.is_some() {
                return Ok(());
            }
        }
        Ok(())
    }

    fn fighter(&self, u: usize, charts: Vec<Chart>, enemy_at: Point) -> Fighter {
        let x = &self.units[u];
        Fighter {
            kind: x.kind,
            figures: x.front_figures().max(1),
            chart: Chart::C,
            also: charts,
            hits_before: x.hits,
            shaken: x.shaken(),
            in_cover: self.in_cover(u, enemy_at),
            secure_flanks: self.secure_flanks(u),
            leader_attached: self.leader_attached(u),
            post_in_cover: None,
            post_secure_flanks: None,
        }
    }

    fn charge(
        &mut self,
        c: usize,
        d: usize,
        path: &super::moves::ChargePath,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        // A unit routing before the charge stays routing whatever its tests (interpretation 38).
        let was_routing = |b: &Self, u: usize| b.units[u].state == State::Routing;
        let routing_before = [was_routing(self, c), was_routing(self, d)];
        let ([cl, dl], why) = self.melee_situation(c, d, path.flank);
        let mut m =
            Melee { charger: self.fighter(c, cl, self.units[d].at), defender: self.fighter(d, dl, self.units[c].at) };
        // The post-melee tests are taken where the melee is fought: the charger's cover and
        // flanks where its charge took it (the defender has not moved: its cover is against the
        // charge as it came, over any works or wall).
        let before = (self.units[c].at, self.units[c].facing);
        (self.units[c].at, self.units[c].facing) = (path.to, path.facing);
        m.charger.post_in_cover = Some(self.in_cover(c, self.units[d].at));
        m.charger.post_secure_flanks = Some(self.secure_flanks(c));
        (self.units[c].at, self.units[c].facing) = before;
        let r = melee::resolve(&m, chance).map_err(calc_to_apply)?;
        let o = r.outcome.clone();
        let (cn, dn) = (self.name(c).to_string(), self.name(d).to_string());
        let words = |t: &(Chart, u8, Vec<u8>), (cover, flanks): (bool, bool), leader: bool| {
            format!(
                "chart {}, pass on {} or under, {}: {}",
                t.0,
                t.1,
                combat::morale_dice_words(cover, flanks, leader),
                dice_text(&t.2)
            )
        };
        let test =
            |t: &(Chart, u8, Vec<u8>), f: &melee::Fighter| words(t, (f.in_cover, f.secure_flanks), f.leader_attached);
        let post_test = |t: &(Chart, u8, Vec<u8>), f: &melee::Fighter| words(t, f.post_ground(), f.leader_attached);
        let data = |t: &(Chart, u8, Vec<u8>)| Test::new(t.0, t.1, &t.2);
        let mut why = why;
        for (f, name, other) in [(&m.charger, &cn, &dn), (&m.defender, &dn, &cn)] {
            if f.shaken {
                why.push(format!("{name} shaken: D; {other} against a shaken enemy: B"));
            }
        }
        if o.at_halt {
            why.push(format!("{dn} at the halt: D; {cn} against cavalry at the halt: B"));
        }
        let mut text = format!("{cn} charges {dn}");
        if !why.is_empty() {
            text.push_str(&format!(" ({})", why.join("; ")));
        }
        text.push_str(&format!(". Test to charge: {}", test(&r.charge_test, &m.charger)));
        let mut fought = None;
        if o.charged {
            self.units[c].at = path.to;
            self.units[c].facing = path.facing;
            self.units[c].last_moved = self.turn;
            if path.turned >= crate::model::TURN_TOLERANCE {
                self.units[c].turned_turn = self.turn;
            }
            if let Some(t) = &r.defence_test {
                text.push_str(&format!("; {} test to stand: {}", possessive(&dn), test(t, &m.defender)));
                if !o.fought && o.defender != End::Good {
                    text.push_str(&format!(" — {}", data(t).failed_words()));
                }
            }
            if let Some(t) = &r.counter_test {
                text.push_str(&format!(
                    "; test to counter-charge: {}{}",
                    test(t, &m.defender),
                    if o.at_halt { " — at the halt" } else { "" }
                ));
            } else if o.at_halt {
                text.push_str(" — being shaken, it may not counter-charge: it meets the charge at the halt");
            }
        } else {
            text.push_str(&format!(
                " — {}: it will not charge, {}",
                data(&r.charge_test).failed_words(),
                match o.charger {
                    End::Rout => "and routs".to_string(),
                    End::Removed => "and routs: a shaken unit that routs, it is removed".to_string(),
                    _ => "and is shaken".to_string(),
                }
            ));
        }
        let mut hits = [0u32; 2];
        if let (Some(md), Some(pt)) = (&r.melee_dice, &r.post_tests) {
            for (k, (chart, number, dice)) in md.iter().enumerate() {
                hits[k] = dice.iter().filter(|&&x| x <= *number).count() as u32;
                let f = if k == 0 { &m.charger } else { &m.defender };
                text.push_str(&format!(
                    "; {} fights on chart {chart}, hits on {number} or under, {} d10 (1 per 4 of its {} figures): {} — {} hit{}",
                    if k == 0 { &cn } else { &dn },
                    dice.len(),
                    f.figures,
                    dice_text(dice),
                    hits[k],
                    if hits[k] == 1 { "" } else { "s" }
                ));
            }
            text.push_str(&format!(
                "; after the melee {cn}: {}, {dn}: {}",
                post_test(&pt[0], &m.charger),
                post_test(&pt[1], &m.defender)
            ));
            let side = |k: usize, u: usize| Side {
                body: self.units[u].corners(),
                facing: self.units[u].facing,
                chart: md[k].0,
                number: md[k].1,
                dice: md[k].2.clone(),
                hits: hits[k],
                post: data(&pt[k]),
            };
            fought = Some(Box::new([side(0, c), side(1, d)]));
        }
        match o.winner {
            Some(Winner::Charger) => text.push_str(&format!("; {cn} wins")),
            Some(Winner::Defender) => text.push_str(&format!("; {dn} wins")),
            None if o.fought => text.push_str("; no winner"),
            None => {}
        }
        if let (Some(die), Some(p)) = (r.pursuit_die, o.pursuit) {
            text.push_str(&format!("; pursuit die {die}: {}", pursuit_words(p)));
        }
        events.push(Event::Melee {
            charger: c as u16,
            defender: d as u16,
            flank: path.flank,
            turned: path.turned,
            oblique: path.oblique,
            reach: path.reach,
            cost: path.cost,
            went: o.charged.then_some((path.to, path.facing)),
            why,
            charge_test: data(&r.charge_test),
            defence_test: r.defence_test.as_ref().map(data),
            counter_test: r.counter_test.as_ref().map(data),
            at_halt: o.at_halt,
            fought,
            winner: match o.winner {
                Some(Winner::Charger) => Some(c as u16),
                Some(Winner::Defender) => Some(d as u16),
                None => None,
            },
            pursuit_die: r.pursuit_die,
            text,
        });
        // Hits: the defender's dice hit the charger, the charger's the defender.
        for (u, h) in [(c, hits[1]), (d, hits[0])] {
            let x = &mut self.units[u];
            x.hits += h;
            x.figures = x.figures.saturating_sub(h);
        }
        // An officer with a unit hit in the melee meets his fate (see the register).
        for (u, h) in [(c, hits[1]), (d, hits[0])] {
            if h > 0
                && let Some(of) = self.first_officer_with(u)
            {
                let die = chance
                    .draw(&DrawKind::Die { sides: 10 }, &format!("the fate of the officer with {}", self.name(u)))?
                    as u8;
                self.officer_fate(of, die, OfficerFate::of(die), chance, events)?;
            }
        }
        let (cat, dat) = (self.units[c].at, self.units[d].at);
        let post = r
            .post_tests
            .as_ref()
            .map_or([Morale::Passed; 2], |p| [combat::morale_of(&p[0].2, p[0].1), combat::morale_of(&p[1].2, p[1].1)]);
        // Whose end the charge decides: the charger's alone if it would not charge; the
        // defender's alone if it failed its test to stand; both after a melee.
        let decided: &[(usize, End, Point)] = if !o.charged {
            &[(c, o.charger, dat)]
        } else if !o.fought {
            &[(d, o.defender, cat)]
        } else {
            &[(c, o.charger, dat), (d, o.defender, cat)]
        };
        for &(u, end, enemy_at) in decided {
            if !self.units[u].present() {
                continue;
            }
            if self.units[u].worn_out() {
                self.remove(u, "down to its last stands", events);
                continue;
            }
            match end {
                End::Removed => self.remove(u, "a shaken unit that routs is removed", events),
                End::Rout => self.rout(u, enemy_at, events),
                // Routing already: one die failed does not make it shaken; failing its test to
                // stand (step 3), it goes back as a router goes, a rout move away.
                End::Shaken if routing_before[usize::from(u == d)] => {
                    let k = usize::from(u == d);
                    let failed = !o.fought || post[k] == Morale::Shaken;
                    if o.charged && failed {
                        self.rout(u, enemy_at, events);
                    }
                }
                // Routed since the melee (its army commander killed with it, and its death's
                // test failed): still routing, not shaken or rallied by step 7 or a pursuit die.
                End::Shaken | End::Good if self.units[u].state == State::Routing => {}
                End::Shaken => {
                    // Shaken (again) by the charge: a whole turn without moving from now restores it.
                    self.units[u].state = State::Shaken;
                    self.units[u].shaken_turn = self.turn;
                    // A charger that would not charge stays where it is. A unit that goes shaken
                    // by failing a test — the defender's before the melee, either side's after it —
                    // retires a full column move facing the enemy, and so does a charger retiring
                    // by step 5; a unit made shaken by step 7 alone stays (a cavalry melee with no
                    // winner: both retreat 24" instead).
                    let k = usize::from(u == d);
                    let failed = !o.fought || post[k] == Morale::Shaken;
                    if o.charged && !o.both_retreat && (failed || (u == c && o.charger_retires)) {
                        let (kind, why) = if u == c && o.charger_retires {
                            (ForcedKind::Retire, "retires a full move, shaken,")
                        } else {
                            (ForcedKind::FallBack, "falls back")
                        };
                        let dist = self.units[u].column_move();
                        self.fall_back(u, enemy_at, dist, kind, why, events);
                    }
                }
                End::Good => self.units[u].state = State::Good,
            }
        }
        if o.fought {
            for u in [c, d] {
                if self.units[u].present() && self.units[u].worn_out() {
                    self.remove(u, "down to its last stands", events);
                }
                self.narrow(u, events);
            }
        }
        if o.both_retreat {
            for (u, enemy_at) in [(c, dat), (d, cat)] {
                if self.units[u].steady() {
                    self.fall_back(
                        u,
                        enemy_at,
                        CAVALRY_RETREAT,
                        ForcedKind::Retreat,
                        "retreats (a cavalry melee with no winner)",
                        events,
                    );
                }
            }
        }
        if let Some(p) = o.pursuit {
            let (w, l) = if o.winner == Some(Winner::Charger) { (c, d) } else { (d, c) };
            if self.units[w].steady() {
                match p {
                    Pursuit::Pursue | Pursuit::ReturnToOwnLines => {
                        let head = if p == Pursuit::Pursue {
                            heading_to(self.units[w].at, self.units[l].at)
                        } else {
                            (self.stat().rear[usize::from(self.units[w].side)].inward() + 180.0) % 360.0
                        };
                        let dist = pursuit_move(&self.units[w]);
                        let mv = self.forced_move(w, head, dist, Some(head), false);
                        let turned = (volley_table::turn(self.units[w].facing, head)).abs() < 1.0;
                        let how = if p == Pursuit::Pursue {
                            "pursues".to_string()
                        } else if turned {
                            "returns towards its own lines, its back to the enemy,".to_string()
                        } else {
                            "returns towards its own lines (no room to turn its back),".to_string()
                        };
                        let text = format!(
                            "{} {how} {dist}\" (its line rate and 24\"){} {}",
                            self.name(w),
                            forced_short(&mv),
                            self.way_words(mv.from, mv.to)
                        );
                        let kind = if p == Pursuit::Pursue { ForcedKind::Pursue } else { ForcedKind::Return };
                        self.forced_event(w, kind, head, &mv, text, events);
                    }
                    Pursuit::Hold | Pursuit::Rally => {}
                }
            }
        }
        Ok(())
    }
}

/// Why a forced move went less than ordered, in words (nothing if it went the whole way):
/// ` (7.0": the Eichwald (woods) at double cost)`.
fn forced_short(m: &ForcedMove) -> String {
    if m.off || m.done + 0.1 >= m.ordered {
        return String::new();
    }
    // Stopped by a unit, the edge or impassable ground: that is why; else the ground.
    let mut why = match &m.stopped {
        Some(s) => vec![format!("stopped by {s}")],
        None => m.terrain.clone(),
    };
    if why.is_empty() {
        why.push("as far as it could go".into());
    }
    format!(" ({:.1}\": {})", m.done, why.join("; "))
}

/// The pursuit table's move: "14-20"" is the line rate of the horse that may win (cuirassiers
/// 14" … hussars 20"), and the 24" more of the note (see the register).
pub fn pursuit_move(u: &crate::model::Unit) -> f64 {
    let p = u.kind.profile();
    p.line.or(p.skirmish).unwrap_or(0.0) + CAVALRY_RETREAT
}

fn pursuit_words(p: Pursuit) -> &'static str {
    match p {
        Pursuit::Pursue => "pursue the opponent at once, shaken",
        Pursuit::ReturnToOwnLines => "return to its own lines, back to the enemy, shaken",
        Pursuit::Hold => "hold its position, shaken",
        Pursuit::Rally => "rally on the spot, good order",
    }
}

fn formation_words(f: Formation) -> &'static str {
    match f {
        Formation::Square => "a square:",
        Formation::MarchColumn | Formation::AttackColumn => "a column:",
        Formation::Limbered => "limbered guns:",
        Formation::Line => "a line:",
        Formation::Skirmish => "skirmishers:",
        Formation::Unlimbered => "unlimbered guns:",
    }
}

/// What a leader's rally of a unit of `kind` risks, in words: 2 d10 on chart C and the odds of
/// each end (good order, still shaken, removed: a shaken unit that routs).
pub fn rally_words(kind: crate::units::UnitType) -> String {
    let number = kind.profile().morale[Chart::C.index()];
    let [good, shaken, removed] = combat::morale_odds(2, number);
    format!(
        "its leader tries to rally it: 2 dice on chart C, pass on {number} or under (back in good order {:.0}%, still shaken {:.0}%, both dice failed and removed {:.0}%)",
        good * 100.0,
        shaken * 100.0,
        removed * 100.0
    )
}

/// The name of the next man up: "X's successor", then "X's 2nd successor" and so on.
fn successor_of(name: &str) -> String {
    if let Some(base) = name.strip_suffix("'s successor") {
        return format!("{base}'s 2nd successor");
    }
    if let Some((base, rest)) = name.rsplit_once("'s ")
        && let Some(n) = rest
            .strip_suffix(" successor")
            .and_then(|k| k.trim_end_matches(|c: char| c.is_alphabetic()).parse::<u32>().ok())
    {
        let k = n + 1;
        let suffix = match k % 10 {
            1 if k % 100 != 11 => "st",
            2 if k % 100 != 12 => "nd",
            3 if k % 100 != 13 => "rd",
            _ => "th",
        };
        return format!("{base}'s {k}{suffix} successor");
    }
    format!("{name}'s successor")
}

/// A volley's chart reasons in words, each ending in its chart's letter, and where there are
/// several how they net from chart C to `chart` (each counts its levels from C: A two up, B one,
/// D one down, E two): "a line: target C, target shaken D: C, 1 down = D".
fn chart_sum(why: &[String], chart: crate::units::Chart) -> String {
    let listed = why.join(", ");
    if why.len() < 2 {
        return listed;
    }
    let steps: Vec<String> = why
        .iter()
        .filter_map(|w| w.chars().last())
        .filter_map(|c| crate::units::Chart::ALL.iter().copied().find(|ch| ch.to_string() == c.to_string()))
        .map(|ch| match ch.levels() {
            0 => "0".to_string(),
            l if l > 0 => format!("{l} up"),
            l => format!("{} down", -l),
        })
        .collect();
    format!("{listed}: from C, {} = {chart}", steps.join(", "))
}
