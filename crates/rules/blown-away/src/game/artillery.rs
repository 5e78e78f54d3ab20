//! Long-range artillery: range, arc, line of sight and the balls a shot costs.

use super::*;

impl Battle {
    /// The man of `target` that `gun` can hit, and the balls it costs, or why not.
    pub(super) fn lra_shot(&self, side: SideId, gun: u16, target: u16) -> Result<(usize, u8, Cover), Illegal> {
        let g = self.own_unit(gun, side)?;
        let t = self.unit(target)?;
        let (gi, ti) = (usize::from(gun), usize::from(target));
        let Some(cannon) = g.gun else {
            return illegal!("{} has no gun", self.name(gi));
        };
        if t.side == side {
            return illegal!("{} is not an enemy", self.name(ti));
        }
        if g.fired {
            return illegal!("{} has already fired this turn", self.name(gi));
        }
        if !g.crewed() {
            return illegal!("{} has no gunner at the gun", self.name(gi));
        }
        let want_ranks = t.in_ranks() > 0;
        let mut order: Vec<usize> =
            (0..t.men.len()).filter(|&i| if want_ranks { t.men[i].in_ranks() } else { t.men[i].running() }).collect();
        if order.is_empty() {
            return illegal!("{} has nobody on the table", self.name(ti));
        }
        order.sort_by(|&a, &b| t.men[a].at.dist2(cannon.at).total_cmp(&t.men[b].at.dist2(cannon.at)));
        // The unit must be between 4" and 36" away: with any of its men nearer than 4" it is
        // within combat range, not a long-range target.
        if let Some(&near) = order.first() {
            let d = t.men[near].at.dist(cannon.at);
            if d < LRA_RANGE.0 {
                return illegal!(
                    "{} is too close for long-range fire: a man of it stands {d:.1}\" from the gun (4\" to 36\")",
                    self.name(ti)
                );
            }
        }
        let mut why = "out of range (4\" to 36\")";
        for i in order {
            let p = t.men[i].at;
            let d = p.dist(cannon.at);
            if !(LRA_RANGE.0..=LRA_RANGE.1).contains(&d) {
                continue;
            }
            let pose = volley_table::Pose::new(cannon.at, cannon.facing);
            if !pose.sees_within(p, LRA_ARC) {
                why = "not within 45° of the boresight";
                continue;
            }
            if !self.clear_sight(cannon.at, p, gi, ti) {
                why = "no clear line of sight";
                continue;
            }
            let cover = self.cover_from_point(ti, cannon.at);
            let cost = match cover {
                Cover::Open | Cover::Soft => 1,
                Cover::Wall => 2,
                Cover::Works => 3,
            };
            if cannon.balls < cost {
                let place = match cover {
                    Cover::Open | Cover::Soft => "in the open or in soft cover",
                    Cover::Wall => "behind a solid wall",
                    Cover::Works => "behind a redoubt or in a trench",
                };
                return illegal!(
                    "{} has {} balls; firing at a target {place} needs {cost}",
                    self.name(gi),
                    cannon.balls
                );
            }
            return Ok((i, cost, cover));
        }
        illegal!("{} cannot fire at {}: {why}", self.name(gi), self.name(ti))
    }

    /// Whether the line from `a` to `b` is clear of blocking terrain and of other units' men.
    pub fn clear_sight(&self, a: Point, b: Point, from_unit: usize, to_unit: usize) -> bool {
        if self.stat.table.terrain_blocks_sight(a, b) {
            return false;
        }
        for (i, u) in self.units.iter().enumerate() {
            if i == from_unit || i == to_unit {
                continue;
            }
            // Quick reject by the unit's extent.
            let c = u.centre();
            let radius = u.men.iter().filter(|m| m.alive()).map(|m| m.at.dist(c)).fold(0.0, f64::max) + 1.0;
            if dist_to_segment(c, a, b) > radius {
                continue;
            }
            if u.men.iter().filter(|m| m.alive()).any(|m| dist_to_segment(m.at, a, b) < FIGURE_RADIUS) {
                return false;
            }
            // Nor through a formed body between its men (the gap between two files of a column
            // is no clear line: interpretation 32).
            let body = hull(u.men.iter().filter(|m| m.in_ranks()).map(|m| m.at).collect());
            let through = match body.len() {
                0 | 1 => false,
                2 => volley_table::segments_intersect(a, b, body[0], body[1]),
                _ => volley_table::segment_meets_polygon(a, b, &body),
            };
            if through {
                return false;
            }
        }
        true
    }

    /// The (gun, target) pairs of `side` that may fire long-range now. Cheap tests (balls, a
    /// gunner, a target within 36") come before the full check.
    pub(super) fn fire_pairs(&self, side: SideId) -> impl Iterator<Item = (usize, usize)> + '_ {
        let guns = (0..self.units.len()).filter(move |&gi| {
            let g = &self.units[gi];
            g.side == side && !g.fired && g.gun.is_some_and(|c| c.balls > 0) && g.crewed()
        });
        guns.flat_map(move |gi| {
            let at = self.units[gi].front;
            (0..self.units.len()).filter_map(move |ti| {
                let t = &self.units[ti];
                let near = t.side != side
                    && t.men.iter().any(|m| m.alive() && m.at.dist2(at) <= LRA_RANGE.1 * LRA_RANGE.1 + 1e-9);
                (near && self.lra_shot(side, gi as u16, ti as u16).is_ok()).then_some((gi, ti))
            })
        })
    }
}

/// The convex hull of `points`, counter-clockwise (fewer than three points as they are).
fn hull(mut points: Vec<Point>) -> Vec<Point> {
    points.sort_by(|p, q| p.x.total_cmp(&q.x).then(p.y.total_cmp(&q.y)));
    points.dedup_by(|p, q| p.dist(*q) < 1e-9);
    if points.len() < 3 {
        return points;
    }
    let cross = |o: Point, a: Point, b: Point| (a - o).cross(b - o);
    let mut lower: Vec<Point> = Vec::new();
    for &p in &points {
        while lower.len() >= 2 && cross(lower[lower.len() - 2], lower[lower.len() - 1], p) <= 0.0 {
            lower.pop();
        }
        lower.push(p);
    }
    let mut upper: Vec<Point> = Vec::new();
    for &p in points.iter().rev() {
        while upper.len() >= 2 && cross(upper[upper.len() - 2], upper[upper.len() - 1], p) <= 0.0 {
            upper.pop();
        }
        upper.push(p);
    }
    lower.pop();
    upper.pop();
    lower.extend(upper);
    lower
}
