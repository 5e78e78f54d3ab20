//! Rest, losses, objectives and the end of the battle (sections 6, 10 and 11).

use super::*;

impl Battle {
    /// Major units of `side` gone or running.
    pub fn lost_units(&self, side: SideId) -> u32 {
        self.units.iter().filter(|u| u.side == side && matches!(u.state, State::Gone(_) | State::Running)).count()
            as u32
            + self.units.iter().filter(|u| u.side != side && self.originally(u) == side).count() as u32
    }

    /// The side a unit began the battle on (units of foreigners may have changed sides).
    pub(super) fn originally(&self, u: &Unit) -> SideId {
        self.stat.wings.get(usize::from(u.wing)).map_or(u.side, |w| w.side)
    }

    /// Figures a side has lost for good (casualties, and units gone or gone over).
    pub fn figures_lost(&self, side: SideId) -> u32 {
        self.units
            .iter()
            .filter(|u| self.originally(u) == side)
            .map(|u| {
                if matches!(u.state, State::Gone(_)) || u.side != side {
                    u32::from(u.figures_start)
                } else {
                    u32::from(u.figures_start - u.figures.min(u.figures_start))
                }
            })
            .sum()
    }

    /// Figures of a side now running.
    pub fn figures_running(&self, side: SideId) -> u32 {
        self.units.iter().filter(|u| u.side == side && u.state == State::Running).map(|u| u32::from(u.figures)).sum()
    }

    /// One green counter off each unit that did nothing at all this bound (and was not under
    /// fire); rallied units with fewer than two greens take up their orders again.
    pub(super) fn rest(&mut self) {
        for u in &mut self.units {
            if !u.present() || u.acted || u.under_fire || !matches!(u.state, State::Steady | State::Rallying) {
                continue;
            }
            u.greens = u.greens.saturating_sub(1);
            if u.state == State::Rallying && u.greens < TIRED {
                u.state = State::Steady;
            }
        }
    }

    pub(super) fn update_objectives(&mut self, events: &mut Vec<Event>) {
        for (o, obj) in self.stat.objectives.iter().enumerate() {
            // Those who may stand inside: within the circle round the objective's box.
            let near: Vec<usize> = volley_table::bounding_circle(obj.points.iter().copied())
                .map(|(c, r)| self.units_near(c, r + 0.1).collect())
                .unwrap_or_default();
            let inside = |s: SideId| {
                near.iter()
                    .map(|&j| &self.units[j])
                    .any(|u| u.side == s && u.in_order() && volley_table::point_in_polygon(u.at, &obj.points))
            };
            let (a, b) = (inside(0), inside(1));
            let holder = match (a, b) {
                (true, false) => Some(0),
                (false, true) => Some(1),
                _ => self.holders[o],
            };
            if holder != self.holders[o] {
                if let Some(h) = holder {
                    events.push(Event::ObjectiveTaken {
                        objective: obj.name.clone(),
                        side: self.stat.sides[usize::from(h)].clone(),
                    });
                }
                self.holders[o] = holder;
            }
        }
    }

    pub(super) fn end_of_bound(&mut self, events: &mut Vec<Event>) {
        // Generals near a close combat are in it.
        let centres = self.wing_centres();
        for (w, c) in centres.iter().enumerate() {
            self.wings[w].general_engaged = c.is_some_and(|p| {
                self.units_near(p, GENERAL_NEAR).any(|j| {
                    self.units[j].in_combat && self.units[j].present() && self.units[j].at.dist(p) <= GENERAL_NEAR
                })
            });
        }
        // Unguarded wagons are taken.
        for s in 0..2usize {
            if self.wagons_taken[s] {
                continue;
            }
            let (c, h) = self.stat.parks[s];
            let enemy_in = self.units.iter().any(|u| {
                usize::from(u.side) != s
                    && u.in_order()
                    && (u.at.x - c.x).abs() <= h.x + 1.0
                    && (u.at.y - c.y).abs() <= h.y + 1.0
            });
            let guarded = self
                .units
                .iter()
                .any(|u| usize::from(u.side) == s && u.in_order() && u.at.dist(c) <= GUARD_RADIUS + h.x.max(h.y));
            if enemy_in && !guarded {
                self.wagons_taken[s] = true;
                events.push(Event::WagonsTaken { side: self.stat.sides[s].clone() });
            }
        }
        self.update_objectives(events);
        let broken: Vec<Option<String>> = (0..2u8).map(|s| self.broken(s)).collect();
        for (s, why) in broken.iter().enumerate() {
            if let Some(why) = why {
                events.push(Event::Broken { side: self.stat.sides[s].clone(), why: why.clone() });
            }
        }
        let outcome = match (&broken[0], &broken[1]) {
            (Some(_), Some(_)) => Some(Outcome { winner: None, reason: "both armies are broken".into() }),
            (Some(_), None) => {
                Some(Outcome { winner: Some(1), reason: format!("the {} army is broken", self.stat.sides[0]) })
            }
            (None, Some(_)) => {
                Some(Outcome { winner: Some(0), reason: format!("the {} army is broken", self.stat.sides[1]) })
            }
            (None, None) if self.bound >= self.stat.turn_limit => {
                let (winner, reason) =
                    self.stat.at_turn_limit.decide(self.stat.turn_limit, &self.stat.sides, &self.holders);
                Some(Outcome { winner, reason })
            }
            (None, None) => None,
        };
        match outcome {
            Some(o) => {
                events.push(Event::BattleEnds { outcome: o.clone() });
                self.outcome = Some(o);
                self.phase = Phase::Over;
            }
            None => {
                self.bound += 1;
                self.phase = Phase::Orders { side: 0 };
            }
        }
    }

    /// Why side `s`'s army is broken, if it is: the scenario's share of its battalions,
    /// regiments and batteries gone or running, or its wagons taken.
    pub fn broken(&self, s: SideId) -> Option<String> {
        let start = self.stat.major_units[usize::from(s) & 1];
        let lost = self.lost_units(s);
        if u64::from(lost) * 100 >= u64::from(self.stat.break_at) * u64::from(start) {
            return Some(format!("{lost} of its {start} battalions, regiments and batteries gone or running"));
        }
        if self.stat.wagons_taken_breaks && self.wagons_taken[usize::from(s) & 1] {
            return Some("its wagons are taken".into());
        }
        None
    }
}
