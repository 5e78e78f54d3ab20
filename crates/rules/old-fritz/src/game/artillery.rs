//! The effect of artillery (section 8): batteries at work, bombardment, ball passing on.

use super::*;

impl Battle {
    /// A battery's bound: unlimber to fire at an enemy in range, limber to move, or move.
    pub(super) fn work_guns(&mut self, i: usize, events: &mut Vec<Event>) {
        let u = &self.units[i];
        let Some((_, long)) = u.kind.ranges() else { return };
        let enemy = self.nearest_enemy(i);
        let fighting = matches!(u.order, Order::Attack { .. } | Order::Hold { .. } | Order::Reserve);
        let in_range = enemy.filter(|&(_, d)| d <= long);
        let dest_far = u.dest.is_some_and(|d| d.dist(u.at) > 2.0) && !u.hold_here;
        let start_work = |b: &mut Battle, why: String, events: &mut Vec<Event>| {
            let name = b.name(i).to_string();
            let u = &mut b.units[i];
            let bounds = u.kind.data().limber_bounds;
            let up = !u.limbered;
            u.busy = bounds - 1.0;
            u.acted = true;
            if u.busy <= 0.0 {
                u.busy = 0.0;
                u.limbered = !u.limbered;
            }
            events.push(Event::Limbering { unit: name, up, bounds, done: u.busy <= 0.0, why });
        };
        if !u.limbered {
            if fighting && in_range.is_some() {
                // Swing the trail round to the enemy if it is out of the battery's arc: a turn
                // over 45° (the whole bound), if its line has room to swing.
                if let Some((j, _)) = in_range {
                    let want = heading_to(u.at, self.units[j].at);
                    if turn(u.facing, want).abs() > 45.0 {
                        let mut path = self.path_from(i, 1.0);
                        match self.turn_blocked(i, u.at, (u.facing, u.formation), (want, u.formation)) {
                            Some(k) => {
                                path.stop = crate::events::Stop::NoRoomToTurn { unit: self.name(k).to_string() };
                                self.units[i].no_room = true;
                            }
                            None => {
                                path.turns.push(movement::turn_made(u.facing, want, turn_cost(u.facing, want)));
                                let u = &mut self.units[i];
                                u.facing = want;
                                u.acted = true;
                            }
                        }
                        self.tell_move(i, crate::events::MoveKind::Guns, path, events);
                    }
                }
                return;
            }
            if dest_far || (matches!(u.order, Order::Attack { .. }) && in_range.is_none() && u.dest.is_some()) {
                start_work(self, "to move".into(), events);
            }
            return;
        }
        // Limbered.
        if fighting && in_range.is_some() && !dest_far || matches!(u.order, Order::Reserve) && !dest_far {
            let why = match in_range {
                Some((j, _)) => format!("to fire at {}", self.name(j)),
                None => "to stand in reserve".to_string(),
            };
            start_work(self, why, events);
            return;
        }
        if matches!(u.order, Order::Attack { .. }) {
            // Go towards the enemy until within long range.
            if let Some((j, d)) = enemy {
                let e = self.units[j].at;
                if d > long * 0.8 {
                    let want = movement::settle(u.facing, heading_to(u.at, e));
                    let c = turn_cost(u.facing, want);
                    let mut path = self.path_from(i, 1.0);
                    if let Some(k) = self.turn_blocked(i, u.at, (u.facing, u.formation), (want, u.formation)) {
                        path.stop = crate::events::Stop::NoRoomToTurn { unit: self.name(k).to_string() };
                        self.units[i].no_room = true;
                        self.tell_move(i, crate::events::MoveKind::Guns, path, events);
                        return;
                    }
                    if want != u.facing {
                        path.turns.push(movement::turn_made(u.facing, want, c));
                    }
                    let rate = u.kind.data().walk;
                    let went = self.advance(i, (want, u.formation), 1.0 - c, rate, d - long * 0.8, None);
                    path.went(rate, &went);
                    let u = &mut self.units[i];
                    u.acted = true;
                    u.facing = want;
                    self.put(i, went.to);
                    self.tell_move(i, crate::events::MoveKind::Guns, path, events);
                    return;
                }
            }
        }
        self.march(i, events);
    }

    pub(super) fn bombard(&mut self, chance: &mut dyn Chance, events: &mut Vec<Event>) -> Result<(), ApplyError> {
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let Some((close, long)) = u.kind.ranges() else { continue };
            if !u.present() || u.limbered || u.acted || u.state != State::Steady || u.engage.is_some() {
                continue;
            }
            let Some(t) = self.gun_target(i, long) else { continue };
            let name = self.name(i).to_string();
            let d6 = chance.draw(&DrawKind::Die { sides: 6 }, &format_args!("{name}'s bombardment: d6"))? as u8;
            let u = &self.units[i];
            let guns = combat::Guns {
                heavy: u.kind == Kind::HeavyGuns,
                gunners_lost: u.figures_start.saturating_sub(u.figures).min(255) as u8,
            };
            let score = bombardment_base(&guns, u.greens) - i32::from(d6);
            let dist = u.at.dist(self.units[t].at);
            let is_close = dist <= close;
            let (cas, greens) = if is_close { close_range_effect(score) } else { (0, long_range_effect(score)) };
            let mut through = Vec::new();
            let from = u.at;
            self.units[i].acted = true;
            // The hits are taken after the shot is told, so that a unit it destroys is gone after it.
            let mut hits = vec![(t, cas, greens)];
            // Ball on level ground passes on to units close behind the target.
            if !is_close
                && greens > 0
                && !self.stat.table.inside(TerrainKind::Hill, from)
                && !self.stat.table.inside(TerrainKind::SoftGround, self.units[t].at)
            {
                let (tp, tw) = (self.units[t].at, self.units[t].frontage());
                let dir = volley_table::unit(heading_to(from, tp));
                let r = BALL_THROUGH + tw / 2.0 + self.reach() + 0.1;
                // The units behind the target in the line of fire, within 5", nearest first; the
                // ball goes through two ranks of figures, so at most two of them, and never the
                // firing battery's own side.
                let side = self.units[i].side;
                let mut behind_it: Vec<(f64, usize)> = self
                    .units_near(tp, r)
                    .filter_map(|j| {
                        let v = &self.units[j];
                        if j == t || j == i || !v.present() || v.side == side {
                            return None;
                        }
                        let rel = v.at - tp;
                        let behind = rel.dot(dir);
                        let aside = rel.cross(dir).abs();
                        (behind > 0.0 && behind <= BALL_THROUGH && aside <= (tw + v.frontage()) / 2.0)
                            .then_some((behind, j))
                    })
                    .collect();
                behind_it.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                for &(_, j) in behind_it.iter().take(BALL_RANKS) {
                    through.push(self.name(j).to_string());
                    hits.push((j, 0, greens));
                }
            }
            events.push(Event::Bombardment {
                battery: name,
                target: self.name(t).to_string(),
                close: is_close,
                range: dist,
                guns,
                battery_greens: self.units[i].greens,
                d6,
                score,
                casualties: cas,
                greens,
                through,
            });
            for (j, c, g) in hits {
                self.hit(j, c, g, events);
            }
        }
        Ok(())
    }

    /// The nearest enemy a battery can fire at: in its front arc (45° each side), within long
    /// range, in sight, and with no friendly unit in the way.
    pub(super) fn gun_target(&self, i: usize, long: f64) -> Option<usize> {
        let u = &self.units[i];
        self.units_near(u.at, long)
            .map(|j| (j, &self.units[j]))
            .filter(|(_, e)| {
                e.side != u.side
                    && e.present()
                    && e.at.dist(u.at) <= long
                    && turn(u.facing, heading_to(u.at, e.at)).abs() <= 45.0
                    && !self.stat.table.terrain_blocks_sight(u.at, e.at)
            })
            .filter(|(_, e)| {
                // A friend in the way stands within its radius of the line of fire.
                let mid = u.at.lerp(e.at, 0.5);
                let r = u.at.dist(e.at) / 2.0 + self.reach() + 0.1;
                !self.units_near(mid, r).map(|k| (k, &self.units[k])).any(|(k, f)| {
                    k != i && f.side == u.side && f.present() && dist_to_segment(f.at, u.at, e.at) < f.radius()
                })
            })
            .min_by(|a, b| a.1.at.dist2(u.at).total_cmp(&b.1.at.dist2(u.at)))
            .map(|(j, _)| j)
    }

    /// Casualties (figures) and green counters on unit `j`.
    pub(super) fn hit(&mut self, j: usize, casualties: u8, greens: u8, events: &mut Vec<Event>) {
        let name = self.name(j).to_string();
        let u = &mut self.units[j];
        u.figures = u.figures.saturating_sub(u16::from(casualties));
        u.greens = u.greens.saturating_add(greens);
        u.under_fire = true;
        if u.figures == 0 && u.present() {
            u.state = State::Gone(Fate::Destroyed);
            events.push(Event::Gone { unit: name, fate: Fate::Destroyed });
        }
    }
}
