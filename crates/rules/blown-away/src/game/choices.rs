//! The finite choices offered to computer players and keyboard play.

use super::*;

/// Two turns to face enemies less than this apart, degrees, are one choice: a line facing the
/// one has the other well within its front (a player round found 37° and 30° offered side by
/// side).
const SAME_TURN: f64 = 15.0;

impl Battle {
    pub(super) fn candidates(&self, side: SideId, out: &mut Vec<Action>) {
        match self.phase {
            Phase::Over => {}
            Phase::Deploy => out.push(Action::Deploy { placements: Vec::new() }),
            Phase::Main => {
                out.push(Action::EndPhase);
                if !self.commander_moved {
                    // The commander rides over to a unit with men running, beside its man
                    // nearest its front (where they rally); then to any other of his side's
                    // units he is not next to, a step behind its man nearest him; a ride that
                    // reads as one already offered (next to the same units) is not offered again.
                    let here = self.commanders[usize::from(side)];
                    // (A ride reads as "rides over to" the units he would be next to there: they,
                    // not the words, tell two rides apart; no words are made on the computer
                    // players' path.)
                    let mut said: Vec<Vec<usize>> = Vec::new();
                    for running in [true, false] {
                        for ui in 0..self.units.len() {
                            let u = &self.units[ui];
                            if u.side != side
                                || !u.alive()
                                || self.commander_next_to(ui)
                                || (u.running() > 0) != running
                            {
                                continue;
                            }
                            let alive = u.men.iter().filter(|m| m.alive());
                            let to = if running {
                                alive.min_by(|a, b| a.at.dist2(u.front).total_cmp(&b.at.dist2(u.front))).map(|m| m.at)
                            } else {
                                alive
                                    .min_by(|a, b| a.at.dist2(here).total_cmp(&b.at.dist2(here)))
                                    .map(|m| m.at.toward(m.facing + 180.0, 1.0))
                            };
                            let Some(to) = to.map(|p| self.stat.table.clamp(p)) else { continue };
                            let over_to: Vec<usize> = (0..self.units.len())
                                .filter(|&i| self.units[i].side == side && self.next_to(i, to))
                                .collect();
                            if !said.contains(&over_to) {
                                said.push(over_to);
                                out.push(Action::MoveCommander { to });
                            }
                        }
                    }
                }
                if self.unit_done {
                    return;
                }
                for ui in 0..self.units.len() {
                    if self.units[ui].side != side || !self.units[ui].alive() {
                        continue;
                    }
                    let unit = ui as u16;
                    if self.units[ui].running() > 0 && self.rally_allowance(ui).is_ok() {
                        out.push(Action::Rally { unit });
                    }
                    let u = &self.units[ui];
                    if u.gun.is_some()
                        && u.running() == 0
                        && u.engagement.is_none()
                        && u.men.iter().any(|m| m.in_ranks() && m.at.dist(u.front) > CREW_RADIUS + 1e-9)
                        && self.gunner_walk(ui).s >= 0.05
                    {
                        out.push(Action::ReturnGunners { unit });
                    }
                    if u.in_ranks() == 0 {
                        self.mob_candidates(ui, out);
                    } else if u.running() == 0 && u.engagement.is_none() {
                        self.move_candidates(ui, out);
                    }
                }
            }
            Phase::Artillery => {
                out.push(Action::EndPhase);
                out.extend(self.fire_pairs(side).map(|(g, t)| Action::Fire { gun: g as u16, target: t as u16 }));
            }
            Phase::Combat { .. } => {
                out.push(Action::EndPhase);
                out.extend(
                    self.combat_pairs(side)
                        .into_iter()
                        .map(|(u, t)| Action::Combat { unit: u as u16, target: t as u16 }),
                );
            }
        }
    }

    /// Points a unit might head for: the objectives (in a battle of more than
    /// [`NEAREST_OBJECTIVES`], those nearest it), the three nearest enemies and the nearest
    /// one's flank, and (for a unit under 60% of its men in ranks) its own rear edge. The flag
    /// marks the enemies themselves, which are also worth turning to face.
    pub fn destinations(&self, ui: usize) -> Vec<(Point, bool)> {
        let u = &self.units[ui];
        let objectives = self.stat.objective_centres.iter().copied().enumerate();
        let mut out: Vec<(Point, bool)> = volley_table::nearest(u.front, objectives, NEAREST_OBJECTIVES)
            .into_iter()
            .map(|(_, c)| (c, false))
            .collect();
        let mut enemies: Vec<(f64, usize, Point)> = self
            .units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != u.side && e.in_ranks() > 0)
            .map(|(i, e)| {
                let c = e.centre();
                (c.dist2(u.front), i, c)
            })
            .collect();
        // The three nearest, nearest first (the lower index first between two as near): picked
        // out, then sorted, rather than sorting them all.
        let by_distance = |a: &(f64, usize, Point), b: &(f64, usize, Point)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if enemies.len() > 3 {
            enemies.select_nth_unstable_by(2, by_distance);
            enemies.truncate(3);
        }
        enemies.sort_by(by_distance);
        for (k, &(_, ei, c)) in enemies.iter().take(3).enumerate() {
            out.push((c, true));
            // The nearest enemy's flank: beside the end of its front.
            if let Some(f) = self.units[ei].front_edge().filter(|_| k == 0) {
                let side_dir = if (u.front - c).dot(heading_unit(f.facing + 90.0)) >= 0.0 { 90.0 } else { -90.0 };
                out.push((c.toward(f.facing + side_dir, 6.0), false));
            }
        }
        // A weakened unit may fall back towards its own rear edge.
        if u.in_ranks() * 5 < u.men.len() * 3 {
            let (w, d) = (self.stat.table.width, self.stat.table.depth);
            let rear = match self.stat.rear[usize::from(u.side)] {
                volley_scenario::Edge::South => Point::new(u.front.x, 3.0),
                volley_scenario::Edge::North => Point::new(u.front.x, d - 3.0),
                volley_scenario::Edge::West => Point::new(3.0, u.front.y),
                volley_scenario::Edge::East => Point::new(w - 3.0, u.front.y),
            };
            out.push((rear, false));
        }
        out
    }

    pub(super) fn move_candidates(&self, ui: usize, out: &mut Vec<Action>) {
        let u = &self.units[ui];
        let unit = ui as u16;
        let immobile = u.arm == Arm::Artillery && self.stat.rules.year < 1750;
        let allow = u.arm.allowance();
        // Every move of this unit stays within its allowance (plus its own extent) of its front:
        // gather the enemy it could meet once.
        let extent = u.bounds().map_or(0.0, |(c, r)| c.dist(u.front) + r) + SPACING;
        let (f, reach) = (u.front, allow + extent);
        let foes = self.foes_near(ui, &[f.x - reach, f.y - reach, f.x + reach, f.y + reach], COMBAT_RANGE);
        let mut buf = Vec::with_capacity(u.men.len());
        for (dest, enemy) in self.destinations(ui) {
            let d = dest.dist(u.front);
            if d < 0.5 {
                continue;
            }
            let dir = heading_to(u.front, dest);
            if !immobile {
                let pivot = (turn(u.facing, dir).abs() > OBLIQUE).then_some(dir);
                let mut step = d.min(allow);
                // Halve a move that is refused (off the table, into impassable ground) twice.
                for _ in 0..3 {
                    let path = vec![u.front.toward(dir, step)];
                    if self.check_move(u.side, unit, pivot, &path).is_ok() {
                        // Offer the move as far as the unit would really go: a move that would
                        // halt before it starts is no move at all.
                        let gone = self.reach(ui, &self.move_shape(ui, pivot, &path), &foes, &mut buf).0;
                        if gone >= 0.5 {
                            let path = if gone < step - 1e-9 { vec![u.front.toward(dir, gone)] } else { path };
                            // A move whose words (its pivot and how far off its front, to the
                            // whole degree; its length, to the tenth of an inch) are those of one
                            // offered already ends within a few tenths of an inch of it: one
                            // choice, the later (aimed at an enemy rather than at ground) kept.
                            let key = |q: Option<f64>, p: &[Point]| {
                                let leg = p.iter().copied().find(|x| x.dist(u.front) > 1e-9).unwrap_or(u.front);
                                let face = q.map_or(u.facing, norm_heading);
                                (
                                    q.map(|q| norm_heading(q).round() as i64),
                                    (path_len(u.front, p) * 10.0).round() as i64,
                                    turn(face, heading_to(u.front, leg)).round() as i64,
                                    p.len(),
                                )
                            };
                            let mine = key(pivot, &path);
                            let same = out.iter().position(|a| {
                                matches!(a, Action::Move { unit: x, pivot: q, path: p } if *x == unit && key(*q, p) == mine)
                            });
                            let exact =
                                same.is_some_and(|i| matches!(&out[i], Action::Move { path: p, .. } if *p == path));
                            // A shorter path can end where the longer one only passed (a man's
                            // corner on a river bank between two checks): check it again.
                            if !exact && (gone >= step - 1e-9 || self.check_move(u.side, unit, pivot, &path).is_ok()) {
                                let a = Action::Move { unit, pivot, path };
                                match same {
                                    Some(i) => out[i] = a,
                                    None => out.push(a),
                                }
                            }
                        }
                        break;
                    }
                    step /= 2.0;
                    if step < 0.5 {
                        break;
                    }
                }
            }
            // Turn to face an enemy without moving (artillery, and units already close).
            // (Two enemies within [`SAME_TURN`] of one direction give one turn, the first's:
            // "facing north-east (37°)" and "(30°)" side by side read as one choice.)
            let turned = |a: &Action| {
                matches!(a, Action::Reform { unit: x, formation: f, facing }
                    if *x == unit && *f == u.formation && turn(*facing, dir).abs() < SAME_TURN)
            };
            if enemy && turn(u.facing, dir).abs() > 20.0 && !out.iter().any(turned) {
                let a = Action::Reform { unit, formation: u.formation, facing: dir };
                if self.validate_for(u.side, &a).is_ok() {
                    out.push(a);
                }
            }
        }
        if u.gun.is_none() {
            let other = if u.formation == Formation::Line { Formation::Column } else { Formation::Line };
            let a = Action::Reform { unit, formation: other, facing: u.facing };
            if self.validate_for(u.side, &a).is_ok() {
                out.push(a);
            }
        }
    }

    pub(super) fn mob_candidates(&self, ui: usize, out: &mut Vec<Action>) {
        let u = &self.units[ui];
        let c = u.centre();
        let rear = self.stat.rear[usize::from(u.side)].inward() + 180.0;
        for off in [0.0, 45.0, -45.0, 90.0, -90.0] {
            for dist in [MOB_MOVE, MOB_MOVE / 2.0] {
                let path = vec![c.toward(rear + off, dist)];
                if self.check_mob(u.side, ui as u16, &path).is_ok() {
                    out.push(Action::Mob { unit: ui as u16, path });
                    break;
                }
            }
        }
    }
}
