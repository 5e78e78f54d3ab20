//! Movement and its limits (sections 3 and 4): marches, wheels, obstacles, bodies in the way.

use super::*;

impl Battle {
    pub(super) fn rear_heading(&self, side: SideId) -> f64 {
        norm_heading(self.stat.rear[usize::from(side) & 1].inward() + 180.0)
    }

    /// Move every unit in good order as its order says; returns the close combats to fight
    /// this bound: (defender, attackers).
    pub(super) fn move_units(&mut self) -> Vec<(usize, Vec<usize>)> {
        let mut combats: Vec<(usize, Vec<usize>)> = Vec::new();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            if !u.present() || u.acted {
                continue;
            }
            if u.state == State::Rallying {
                continue;
            }
            if u.busy > 0.0 {
                let u = &mut self.units[i];
                u.busy -= 1.0;
                u.acted = true;
                if u.busy <= 0.0 {
                    u.busy = 0.0;
                    u.limbered = !u.limbered;
                }
                continue;
            }
            // A unit an enemy has come to grips with (to fight this bound or the next) stays to
            // receive it: it may not turn and march off from contact.
            let contacting: Vec<usize> = (0..self.units.len())
                .filter(|&a| {
                    let e = &self.units[a];
                    e.side != u.side
                        && e.present()
                        && (e.engage == Some(i as u16) || combats.iter().any(|(d, atk)| *d == i && atk.contains(&a)))
                })
                .collect();
            if !contacting.is_empty() {
                // It receives the enemy where it stands and as it faces: turning would swing its
                // line out of the contact the enemy came to.
                continue;
            }
            if let Some(t) = self.attack_target(i) {
                self.attack(i, t, &mut combats);
                continue;
            }
            if u.kind.is_guns() {
                self.work_guns(i);
                continue;
            }
            if u.greens >= TIRED && matches!(u.order, Order::Attack { .. }) {
                // Spent, it no longer attacks: it rests — but not in an enemy battery's canister,
                // where it would only be shot to pieces bound after bound: it falls back out of
                // close range first.
                if let Some(need) = self.canister_depth(i) {
                    self.fall_back(i, need);
                }
                continue;
            }
            if u.hold_here {
                continue;
            }
            self.march(i);
        }
        combats
    }

    /// How far unit `i` stands inside the close range of an enemy battery that can fire at it
    /// (unlimbered, in good order, the unit within 45° of its facing), if it does.
    pub(super) fn canister_depth(&self, i: usize) -> Option<f64> {
        let u = &self.units[i];
        self.units
            .iter()
            .filter(|g| g.side != u.side && g.present() && g.state == State::Steady && !g.limbered)
            .filter_map(|g| {
                let (close, _) = g.kind.ranges()?;
                let d = g.at.dist(u.at);
                (d <= close && turn(g.facing, heading_to(g.at, u.at)).abs() <= 45.0).then_some(close - d)
            })
            .max_by(f64::total_cmp)
    }

    /// Unit `i` turns to its rear and walks back `need` inches (and a little more), as far as a
    /// bound allows.
    pub(super) fn fall_back(&mut self, i: usize, need: f64) {
        let u = &self.units[i];
        let back = self.rear_heading(u.side);
        let c = turn_cost(u.facing, back);
        let (to, _) = self.advance(i, (back, u.formation), 1.0 - c, u.kind.data().walk, need + 0.5, None);
        let u = &mut self.units[i];
        u.acted = true;
        u.facing = back;
        self.put(i, to);
    }

    /// Move unit `i` along `facing` for up to `budget` of a bound at `rate` inches a bound, no
    /// farther than `limit`: shortened where it would cross a linear obstacle (half a bound),
    /// the wagon parks (half speed), impassable ground, or come too near other units (`target`
    /// may be approached to 2½"). Returns where it ends and the budget used.
    pub(super) fn advance(
        &self,
        i: usize,
        shape: (f64, Formation),
        budget: f64,
        rate: f64,
        limit: f64,
        target: Option<usize>,
    ) -> (Point, f64) {
        let u = &self.units[i];
        let facing = shape.0;
        let mut reach = (budget * rate).min(limit).max(0.0);
        let mut end = u.at.toward(facing, reach);
        if self.crosses_obstacle(u.at, end) {
            reach = ((budget - cost::OBSTACLE).max(0.0) * rate).min(limit);
            end = u.at.toward(facing, reach);
        }
        if self.stat.parks.iter().any(|&(c, h)| segment_meets_box(u.at, end, c, h)) {
            reach /= 2.0;
            end = u.at.toward(facing, reach);
        }
        let end = self.clear_end(i, u.at, end, target, shape);
        let moved = end.dist(u.at);
        let used = if rate > 0.0 { (moved / rate).min(budget) } else { 0.0 };
        (end, if moved > 0.0 && self.crosses_obstacle(u.at, end) { (used + cost::OBSTACLE).min(budget) } else { used })
    }

    /// The farthest point on the way from `from` towards `to` where unit `i` may end its move:
    /// the way there passable, crossing no enemy body, and room to stand at the end.
    pub(super) fn clear_end(
        &self,
        i: usize,
        from: Point,
        to: Point,
        target: Option<usize>,
        shape: (f64, Formation),
    ) -> Point {
        let limit = self.first_contact(i, from, to, target, shape);
        let last = (limit < 1.0).then(|| from.lerp(to, limit));
        let tenths = (1..=10).rev().map(|k| f64::from(k) / 10.0).filter(|&t| t <= limit).map(|t| from.lerp(to, t));
        for p in last.into_iter().chain(tenths) {
            if self.stat.table.segment_passable(from, p) && self.room_at(i, p, target) {
                return p;
            }
        }
        from
    }

    /// How far along the way from `from` to `to` (a fraction) unit `i`'s footprint, with the
    /// facing and formation it moves in (`shape`), goes before it would overlap the footprint of
    /// an enemy unit in good order (not its `target`, nor one it already overlaps): units are
    /// bodies, and no move passes through one. 1 if nothing is in the way. Worked out exactly
    /// (`volley_table::convex_sweep`); the move stops a fortieth of an inch short.
    pub(super) fn first_contact(
        &self,
        i: usize,
        from: Point,
        to: Point,
        target: Option<usize>,
        shape: (f64, Formation),
    ) -> f64 {
        let u = &self.units[i];
        let len = from.dist(to);
        if len < 1e-9 {
            return 1.0;
        }
        let start = u.outline(shape.0, shape.1).map(|c| c + from);
        // The farthest its footprint reaches from its centre.
        let reach = start.iter().map(|c| c.dist(from)).fold(0.0, f64::max);
        let dir = (to - from) * (1.0 / len);
        let r = len / 2.0 + u.radius() + self.reach() + 0.1;
        // The first distance along the way at which the footprint meets an enemy body, exactly
        // (each enemy's footprint against the moving one is an interval of the way); enemies it
        // already overlaps at the start are passed (it is leaving them).
        let mut first = f64::INFINITY;
        for j in self.units_near(from.lerp(to, 0.5), r) {
            let v = &self.units[j];
            if j == i || Some(j) == target || v.side == u.side || !v.present() || v.state == State::Running {
                continue;
            }
            // Far from the whole way (by the circles round both footprints): it cannot be met.
            if dist_to_segment(v.at, from, to) > reach + v.radius() * 1.5 {
                continue;
            }
            if let Some((lo, hi)) = volley_table::convex_sweep(&start, dir, &v.corners()) {
                if lo >= 0.0 && lo < first && !(lo <= 0.0 && hi > 0.0) {
                    first = lo;
                }
            }
        }
        if first >= len {
            return 1.0;
        }
        // Stop just short of it.
        ((first - PATH_STEP / 10.0) / len).max(0.0)
    }

    pub(super) fn room_at(&self, i: usize, p: Point, target: Option<usize>) -> bool {
        let u = &self.units[i];
        // Nobody farther than this can be in the way: the widest footprint's reach, or the
        // approach distance with the deepest.
        let r = (0.9 * (u.radius() + self.reach())).max(APPROACH + (u.depth() + self.reach()) / 2.0) + 0.1;
        self.units_near(p, r).map(|j| (j, &self.units[j])).all(|(j, v)| {
            if j == i || Some(j) == target || !v.present() || v.state == State::Running {
                return true;
            }
            let d = v.at.dist(p);
            if v.side == u.side {
                d >= 0.9 * (u.radius() + v.radius()) || d >= v.at.dist(u.at) - 1e-9
            } else {
                let gap = APPROACH + (u.depth() + v.depth()) / 2.0;
                d >= gap - 0.05 - if Some(j) == target { 0.1 } else { 0.0 } || d >= v.at.dist(u.at) - 1e-9
            }
        })
    }

    pub(super) fn crosses_obstacle(&self, a: Point, b: Point) -> bool {
        self.stat.table.features().iter().any(|f| {
            matches!(f.kind, TerrainKind::Wall | TerrainKind::Hedge | TerrainKind::Redoubt | TerrainKind::Trench)
                && segment_crosses_polyline(a, b, &f.points)
        })
    }

    pub(super) fn nearest_enemy(&self, i: usize) -> Option<(usize, f64)> {
        let u = &self.units[i];
        if let Some((b, _)) = &self.index {
            return b
                .nearest(u.at, |j| {
                    let e = &self.units[j as usize];
                    (e.side != u.side && e.present()).then(|| e.at.dist(u.at))
                })
                .map(|(j, d)| (j as usize, d));
        }
        self.units
            .iter()
            .enumerate()
            .filter(|(_, e)| e.side != u.side && e.present())
            .map(|(j, e)| (j, e.at.dist(u.at)))
            .min_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// A unit that is not attacking goes where its order sends it.
    pub(super) fn march(&mut self, i: usize) {
        self.march_with(i, 1.0);
    }

    /// [`Battle::march`] with `budget` of the bound's move.
    pub(super) fn march_with(&mut self, i: usize, budget: f64) {
        let u = &self.units[i];
        let Some(dest) = u.dest else { return };
        let far = u.at.dist(dest);
        let enemy = self.nearest_enemy(i);
        let mut budget = budget;
        let mut facing = u.facing;
        let mut formation = u.formation;
        let column_wanted = u.kind.arm() == Arm::Infantry
            && matches!(u.order, Order::MoveTo { .. } | Order::WithdrawTo { .. })
            && far > 12.0
            && enemy.is_none_or(|(_, d)| d > COLUMN_CLEAR);
        let wanted = if column_wanted { Formation::Column } else { Formation::Line };
        if wanted != formation && u.kind.arm() == Arm::Infantry {
            formation = wanted;
            budget -= cost::FORMATION;
        }
        let mut at = u.at;
        if far > 0.3 {
            let want = heading_to(u.at, dest);
            // Only 180° is an about turn (half a bound); any other turn over 45° is a wheel of a
            // whole bound. A change of formation and such a wheel do not both fit in one bound:
            // the unit wheels this bound and changes formation the next.
            let c = turn_cost(facing, want);
            let reform = if u.formation != formation { cost::FORMATION } else { 0.0 };
            if c + reform > 1.0 {
                formation = u.formation;
                budget += cost::FORMATION;
            }
            budget -= c;
            let straight = turn(facing, want).abs() < STRAIGHT;
            facing = want;
            if budget > 0.0 {
                let trot = straight && u.kind.data().trot > 0.0;
                let rate = if trot { u.kind.data().trot } else { u.kind.data().walk };
                let (to, used) = self.advance(i, (facing, formation), budget, rate, far, None);
                at = to;
                budget -= used;
            }
        }
        // Arrived (or holding): face the nearest enemy within reach if there is time.
        if at.dist(dest) <= 0.3 && budget >= cost::WHEEL_UP_TO_45 {
            if let Some((j, d)) = enemy {
                if d <= 24.0 && matches!(u.order, Order::Hold { .. } | Order::Attack { .. } | Order::Reserve) {
                    let want = heading_to(at, self.units[j].at);
                    let c = turn_cost(facing, want);
                    if c > 0.0 && c <= budget {
                        facing = want;
                    }
                }
            }
        }
        let u = &mut self.units[i];
        u.acted = u.acted || at != u.at || facing != u.facing || formation != u.formation;
        u.facing = facing;
        u.formation = formation;
        self.put(i, at);
    }
}
