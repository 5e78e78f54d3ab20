//! Combat on the table: who may fight whom, the situation each combat is judged in, casualties chosen and applied, engagements begun and ended.

use super::*;
use crate::combat::Quarter;

impl Battle {
    /// Whether two opposing units may fight: both have men in ranks, and they are in the same
    /// engagement, or less than 4" apart with at least one facing the other; without chance the
    /// other must be in front of the one conducting the combat in either case (in its front as
    /// both formed: [`Battle::quarter`]).
    pub fn may_fight(&self, a: usize, b: usize) -> bool {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        if ua.side == ub.side || ua.in_ranks() == 0 || ub.in_ranks() == 0 {
            return false;
        }
        // Without chance a unit conducts combat only against an enemy in front of it, engaged
        // or not; in the chance version an engagement goes on whoever faces whom.
        if self.variant == Variant::WithoutChance && self.quarter(b, a) != Quarter::Front {
            return false;
        }
        if self.engaged_with(a, b) {
            return true;
        }
        self.within(a, b, COMBAT_RANGE)
            && (self.variant == Variant::WithoutChance || self.faces(a, b) || self.faces(b, a))
    }

    /// Whether units `a` and `b` are engaged with each other: they have fought each other in
    /// their engagement, which goes on however far apart they now stand.
    pub fn engaged_with(&self, a: usize, b: usize) -> bool {
        u16::try_from(b).is_ok_and(|b| self.units[a].engaged_with.contains(&b))
    }

    /// Why `unit` may not conduct combat against `target` now, if it may not.
    pub(super) fn combat_refusal(&self, unit: u16, target: u16, side: SideId) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let t = self.unit(target)?;
        let (ui, ti) = (usize::from(unit), usize::from(target));
        if t.side == side {
            return illegal!("{} is not an enemy", self.name(ti));
        }
        if u.fought {
            return illegal!("{} has already conducted combat this turn", self.name(ui));
        }
        if u.in_ranks() == 0 {
            return illegal!("{} has no men in ranks", self.name(ui));
        }
        if u.arm == Arm::Artillery && !u.crewed() {
            return illegal!("{}'s gun has no gunner at it", self.name(ui));
        }
        if t.in_ranks() == 0 {
            return illegal!("{} has no men in ranks to fight", self.name(ti));
        }
        if !self.may_fight(ui, ti) {
            return illegal!(
                "{} and {} are not engaged: they must be less than 4\" apart with {} facing the other",
                self.name(ui),
                self.name(ti),
                if self.variant == Variant::Chance { "one" } else { "the attacker" }
            );
        }
        if u.arm == Arm::Cavalry && self.barred_to_cavalry(ti, ui) {
            return illegal!("cavalry may not fight a unit behind a redoubt or a wall, in a trench, or in woods");
        }
        Ok(())
    }

    /// Unit `me` in a card combat against unit `them`, as the table shows it now; `attacking`
    /// when `me` conducts the combat. Only the unit attacking can win on the flank or rear of
    /// the other (interpretation 2): the defender's quarter is its front.
    pub fn card_side(&self, me: usize, them: usize, attacking: bool) -> CardSide {
        let u = &self.units[me];
        CardSide {
            arm: Some(u.combat_arm()),
            behind_works: matches!(self.cover(me, them), Cover::Wall | Cover::Works),
            quarter: if attacking { self.quarter(me, them) } else { Quarter::Front },
            killed_before: u.killed,
            pikes_or_guards: u.pikes_or_guards(),
            militia: u.militia,
        }
    }

    /// Unit `a` attacking unit `t` in the without-chance version, as the table shows it now,
    /// `t` having lost `killed_before` men in its engagement so far.
    pub fn attack_situation(&self, a: usize, t: usize, killed_before: u16) -> (Attacker, Target) {
        let (ua, ut) = (&self.units[a], &self.units[t]);
        let attacker =
            Attacker { arm: Some(ua.combat_arm()), quarter: self.quarter(a, t), in_ranks: ua.in_ranks() as u16 };
        let target = Target {
            cover: self.cover(t, a),
            killed_before,
            pikes_or_guards: ut.pikes_or_guards(),
            militia: ut.militia,
        };
        (attacker, target)
    }

    /// Whether cavalry unit `cav` is barred from conducting combat against unit `t`: `t` is
    /// behind a redoubt or a wall or in a trench (as seen from the cavalry), or in woods.
    pub fn barred_to_cavalry(&self, t: usize, cav: usize) -> bool {
        matches!(self.cover(t, cav), Cover::Wall | Cover::Works)
            || self.stat.table.inside(volley_table::TerrainKind::Woods, self.units[t].centre())
    }

    /// Pick the next man of unit `ui` to kill or make run: men in ranks, the command element
    /// only when nobody else is left in ranks, the flag bearer last of all. The choosing player
    /// takes pikemen and guardsmen first when killing, then the man nearest the enemy.
    pub(super) fn pick_man(&self, ui: usize, towards: Point, killing: bool) -> Option<usize> {
        let u = &self.units[ui];
        let ordinary = u.men.iter().any(|m| m.in_ranks() && !m.role.is_command());
        let others_than_flag = u.men.iter().any(|m| m.in_ranks() && m.role != Role::FlagBearer);
        let eligible = |m: &Man| {
            m.in_ranks() && (!m.role.is_command() || !ordinary) && (m.role != Role::FlagBearer || !others_than_flag)
        };
        let steadying = killing && u.men.iter().any(|m| eligible(m) && m.role.steadies());
        u.men
            .iter()
            .enumerate()
            .filter(|(_, m)| eligible(m) && (!steadying || m.role.steadies()))
            .min_by(|(_, a), (_, b)| a.at.dist2(towards).total_cmp(&b.at.dist2(towards)))
            .map(|(i, _)| i)
    }

    /// Kill `killed` and make `run` men of unit `ui` run, as chosen for the enemy at
    /// `towards`; returns what was actually applied.
    pub(super) fn inflict(&mut self, ui: usize, killed: u16, run: u16, towards: Point, on_field: bool) -> (u16, u16) {
        let mut done = (0, 0);
        for _ in 0..killed {
            let Some(i) = self.pick_man(ui, towards, true) else { break };
            let u = &mut self.units[ui];
            u.men[i].state = if on_field { ManState::Fallen } else { ManState::Dead };
            if on_field {
                u.killed += 1;
            }
            done.0 += 1;
        }
        for _ in 0..run {
            let Some(i) = self.pick_man(ui, towards, false) else { break };
            self.make_run(ui, i);
            done.1 += 1;
        }
        done
    }

    pub(super) fn make_run(&mut self, ui: usize, i: usize) {
        let table = &self.stat.table;
        let u = &mut self.units[ui];
        let rear = norm_heading(u.gun.map_or(u.facing, |g| g.facing) + 180.0);
        let man = &mut u.men[i];
        man.state = ManState::Running;
        man.facing = rear;
        let mut d = RUN_DISTANCE;
        while d > 0.0 {
            let to = table.clamp(man.at.toward(rear, d));
            if table.passable(to) {
                man.at = to;
                break;
            }
            d -= 1.0;
        }
    }

    pub(super) fn engage(&mut self, a: usize, b: usize) {
        let (ea, eb) = (self.units[a].engagement, self.units[b].engagement);
        let id = match (ea, eb) {
            (Some(x), Some(y)) => {
                if x != y {
                    for u in &mut self.units {
                        if u.engagement == Some(y) {
                            u.engagement = Some(x);
                        }
                    }
                }
                x
            }
            (Some(x), None) | (None, Some(x)) => x,
            (None, None) => {
                self.next_engagement += 1;
                self.next_engagement
            }
        };
        self.units[a].engagement = Some(id);
        self.units[b].engagement = Some(id);
        for (x, y) in [(a, b), (b, a)] {
            let y = y as u16;
            if !self.units[x].engaged_with.contains(&y) {
                self.units[x].engaged_with.push(y);
            }
        }
    }

    /// End what is over of every engagement. Two units engaged with each other stay so until
    /// one of them has no men in ranks: then their fight with each other is over. A unit whose
    /// every such fight is over leaves the engagement — its dead go to the tray and its count of
    /// the killed starts again — so a fight ends as a whole when a side has no men in ranks left
    /// in it, and a unit whose enemies are all broken is free while the others fight on
    /// (interpretation 24).
    pub(super) fn close_engagements(&mut self, events: &mut Vec<Event>) {
        let ranks: Vec<bool> = self.units.iter().map(|u| u.in_ranks() > 0).collect();
        for (i, u) in self.units.iter_mut().enumerate() {
            if u.engagement.is_some() {
                u.engaged_with.retain(|&e| ranks[i] && ranks.get(usize::from(e)).copied().unwrap_or(false));
            }
        }
        let mut ids: Vec<u32> =
            self.units.iter().filter(|u| u.engaged_with.is_empty()).filter_map(|u| u.engagement).collect();
        ids.sort_unstable();
        ids.dedup();
        for id in ids {
            let mut names = Vec::new();
            for (i, u) in self.units.iter_mut().enumerate() {
                if u.engagement == Some(id) && u.engaged_with.is_empty() {
                    u.engagement = None;
                    u.killed = 0;
                    for m in &mut u.men {
                        if m.state == ManState::Fallen {
                            m.state = ManState::Dead;
                        }
                    }
                    names.push(self.stat.unit_names.get(i).cloned().unwrap_or_default());
                }
            }
            events.push(Event::EngagementOver { units: names });
        }
    }

    /// The (unit, target) pairs of `side` that may conduct combat now. Cheap tests (in ranks,
    /// not yet fought, in the same engagement or within 4") come before the full check.
    pub(super) fn combat_pairs(&self, side: SideId) -> Vec<(usize, usize)> {
        let bounds: Vec<Option<(Point, f64)>> = self.units.iter().map(Unit::bounds).collect();
        let mut out = Vec::new();
        for (ui, u) in self.units.iter().enumerate() {
            if u.side != side || u.fought || u.in_ranks() == 0 {
                continue;
            }
            for (ti, t) in self.units.iter().enumerate() {
                if t.side == side || t.in_ranks() == 0 {
                    continue;
                }
                let engaged = self.engaged_with(ui, ti);
                let near = || self.within_bounded(ui, ti, bounds[ui], bounds[ti], COMBAT_RANGE);
                if (engaged || near()) && self.combat_refusal(ui as u16, ti as u16, side).is_ok() {
                    out.push((ui, ti));
                }
            }
        }
        out
    }

    pub(super) fn resolve_simultaneous(&mut self, events: &mut Vec<Event>) {
        let declared = std::mem::take(&mut self.declared);
        // Every effect is worked out from the state as the combat phase began.
        let mut killed_so_far: Vec<u16> = self.units.iter().map(|u| u.killed).collect();
        let mut plans = Vec::with_capacity(declared.len());
        for &(a, t) in &declared {
            let (ai, ti) = (usize::from(a), usize::from(t));
            let (attacker, target) = self.attack_situation(ai, ti, killed_so_far[ti]);
            let loss = combat::attack_effect(&attacker, &target);
            killed_so_far[ti] += loss.killed;
            plans.push((ai, ti, loss, self.units[ai].centre()));
        }
        for &(a, t) in &declared {
            self.engage(usize::from(a), usize::from(t));
        }
        for (ai, ti, loss, towards) in plans {
            let applied = self.inflict(ti, loss.killed, loss.run, towards, true);
            events.push(Event::Attack {
                attacker: self.name(ai).to_string(),
                target: self.name(ti).to_string(),
                loss,
                applied,
            });
        }
        // Cavalry's weakness, for every cavalry unit engaged after the combats: those that
        // fought, and those that were fought (or barred from fighting) as well.
        let cav: Vec<usize> = (0..self.units.len())
            .filter(|&c| self.units[c].arm == Arm::Cavalry && self.units[c].engagement.is_some())
            .collect();
        for c in cav {
            if self.units[c].in_ranks() == 0 {
                continue;
            }
            let side = self.units[c].side;
            let steady_enemy = (0..self.units.len()).any(|e| {
                let eu = &self.units[e];
                eu.side != side
                    && eu.in_ranks() > 0
                    && (self.engaged_with(c, e) || self.within(c, e, COMBAT_RANGE))
                    && self.faces(e, c)
            });
            if steady_enemy {
                let idx: Vec<usize> =
                    (0..self.units[c].men.len()).filter(|&i| self.units[c].men[i].in_ranks()).collect();
                let n = idx.len() as u16;
                for i in idx {
                    self.make_run(c, i);
                }
                events.push(Event::CavalryWeakness { unit: self.name(c).to_string(), ran: n });
            }
        }
        self.close_engagements(events);
        self.update_objectives(None, events);
        self.check_victory(events);
    }

    pub(super) fn card_combat(
        &mut self,
        a: usize,
        d: usize,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        let (sa, sd) = (usize::from(self.units[a].side), usize::from(self.units[d].side));
        let ca = self.decks[sa].peek(
            chance,
            &format_args!("{} card for {} against {}", self.stat.sides[sa], self.name(a), self.name(d)),
        )?;
        let mut dd = self.decks[sd];
        if sa == sd {
            dd.take(ca);
        }
        let cd = dd.peek(
            chance,
            &format_args!("{} card for {} against {}", self.stat.sides[sd], self.name(d), self.name(a)),
        )?;
        self.decks[sa].take(ca);
        self.decks[sd].take(cd);
        let sides = [self.card_side(a, d, true), self.card_side(d, a, false)];
        let result = combat::resolve_cards(&sides, [ca, cd]);
        self.engage(a, d);
        let (ta, td) = (self.units[d].centre(), self.units[a].centre());
        let mut applied = [(0, 0); 2];
        if let Some(l) = &result.losses[0] {
            applied[0] = self.inflict(a, l.killed, l.run, ta, true);
        }
        if let Some(l) = &result.losses[1] {
            applied[1] = self.inflict(d, l.killed, l.run, td, true);
        }
        self.units[a].fought = true;
        events.push(Event::CardCombat {
            attacker: self.name(a).to_string(),
            defender: self.name(d).to_string(),
            result,
            applied,
        });
        self.close_engagements(events);
        self.update_objectives(None, events);
        self.check_victory(events);
        Ok(())
    }
}
