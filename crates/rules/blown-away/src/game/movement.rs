//! Moving: declared moves checked and traced (the 4" stop, passing by, the snake of a column), mobs of runners, running units pushed out of the way.

use super::*;

impl Battle {
    pub(super) fn move_shape(&self, ui: usize, pivot: Option<f64>, path: &[Point]) -> MoveShape {
        let u = &self.units[ui];
        // A pivot turns the unit about the centre of its front rank (or the axle), which keeps
        // every man's offset to the right and to the rear: only the facing changes.
        let facing = pivot.map_or(u.facing, norm_heading);
        let (fwd0, rgt0) = (heading_unit(u.facing), heading_unit(u.facing + 90.0));
        let mut slots = Vec::with_capacity(u.men.len());
        for (i, m) in u.men.iter().enumerate() {
            if m.in_ranks() {
                let d = m.at - u.front;
                slots.push((i, d.dot(rgt0), -d.dot(fwd0)));
            }
        }
        let rigid = u.formation == Formation::Line || u.gun.is_some();
        let depth = slots.iter().map(|s| s.2).fold(0.0, f64::max);
        let mut poly = Vec::with_capacity(path.len() + 2);
        let trail = if rigid { 0.0 } else { depth + SPACING };
        if !rigid {
            poly.push(u.front - heading_unit(facing) * trail);
        }
        poly.push(u.front);
        poly.extend_from_slice(path);
        if poly.len() < 2 {
            poly.push(u.front);
        }
        MoveShape::new(poly, trail, slots, rigid, facing, u.gun.is_some())
    }

    /// Why a declared move breaks the rules, if it does.
    pub(super) fn check_move(
        &self,
        side: SideId,
        unit: u16,
        pivot: Option<f64>,
        path: &[Point],
    ) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let ui = usize::from(unit);
        self.may_act_with(ui)?;
        if u.engagement.is_some() {
            return illegal!("{} is engaged in combat and may not pivot or move", self.name(ui));
        }
        if u.in_ranks() == 0 {
            return illegal!("{} has no men in ranks: move it as a mob", self.name(ui));
        }
        if u.running() > 0 {
            return illegal!("{} has men in ranks and men running and may not move", self.name(ui));
        }
        if u.arm == Arm::Artillery && self.stat.rules.year < 1750 {
            return illegal!("artillery before 1750 may not move (the scenario's year is {})", self.stat.rules.year);
        }
        if u.arm == Arm::Artillery && u.men.iter().any(|m| m.in_ranks() && m.at.dist(u.front) > CREW_RADIUS + 1e-9) {
            return illegal!("{}'s gunners must be back at the gun before it moves", self.name(ui));
        }
        if path.is_empty()
            || path.len() > MAX_LEGS
            || (u.formation == Formation::Line || u.gun.is_some()) && path.len() > 1
        {
            return illegal!("a line or gun moves along one straight leg, a column along up to {MAX_LEGS}");
        }
        if path.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) || pivot.is_some_and(|p| !p.is_finite()) {
            return illegal!("the path must be finite numbers");
        }
        let facing = pivot.map_or(u.facing, norm_heading);
        let mut heading = facing;
        let mut prev = u.front;
        for &p in path {
            if p.dist(prev) < 1e-9 {
                return illegal!("a leg of the path has no length");
            }
            let dir = heading_to(prev, p);
            if turn(heading, dir).abs() > OBLIQUE + 1e-6 {
                // (Said to a tenth where a whole degree would read as the limit itself.)
                let off = turn(heading, dir).abs();
                return illegal!(
                    "{} may move at most 45° off its facing (this leg is {}° off)",
                    self.name(ui),
                    if off < 45.5 { format!("{off:.1}") } else { format!("{off:.0}") }
                );
            }
            if u.formation == Formation::Column && u.gun.is_none() {
                heading = dir;
            }
            prev = p;
        }
        let len = path_len(u.front, path);
        let allow = u.arm.allowance();
        if len > allow + 1e-6 {
            return illegal!("{} may move at most {allow}\", this path is {}\"", self.name(ui), longer(len, allow));
        }
        // Every man stays on the table and off impassable ground along the whole path. A rigid
        // body moving along one straight leg sweeps a convex region, so on a table free of
        // impassable ground near the path its two ends decide; otherwise trace it inch by inch.
        if u.formation == Formation::Line || u.gun.is_some() {
            let fwd0 = heading_unit(u.facing);
            let fwd = if pivot.is_some() { heading_unit(facing) } else { fwd0 };
            let (rgt0, rgt) = (right_of(fwd0), right_of(fwd));
            let end = path[0];
            let mut places = Vec::with_capacity(2 * u.men.len() + 2);
            places.extend([u.front, end]);
            for m in u.men.iter().filter(|m| m.in_ranks()) {
                let d = m.at - u.front;
                let off = rgt * d.dot(rgt0) + fwd * d.dot(fwd0);
                places.extend([u.front + off, end + off]);
            }
            if let Some(p) = places.iter().find(|&&p| !self.stat.table.contains(p)) {
                return illegal!("{} would have a man {}", self.name(ui), self.where_man(*p));
            }
            if !self.stat.has_impassable {
                return Ok(());
            }
            // Each man (and the gun) goes straight from where he stands to where he ends.
            return match places.chunks(2).find(|pair| !self.stat.table.segment_passable(pair[0], pair[1])) {
                Some(pair) => illegal!(
                    "{} would cross impassable ground on the way from {} to {}",
                    self.name(ui),
                    self.place_words(pair[0]),
                    self.place_words(pair[1])
                ),
                None => Ok(()),
            };
        }
        let shape = self.move_shape(ui, pivot, path);
        let check_ground = self.stat.has_impassable && self.stat.table.impassable_within(&Self::swept_box(&shape));
        let mut buf = Vec::with_capacity(shape.slots.len());
        let total = shape.len();
        let step = if shape.rigid && !check_ground { total.max(STEP) } else { STEP };
        let mut s = 0.0;
        loop {
            shape.place(s, &mut buf);
            for &(_, p) in &buf {
                if !self.stat.table.contains(p) || (check_ground && !self.stat.table.passable(p)) {
                    return illegal!("{} would have a man {}", self.name(ui), self.where_man(p));
                }
            }
            if s >= total {
                break;
            }
            s = (s + step).min(total);
        }
        Ok(())
    }

    /// The enemy units in ranks that could come within `margin` of a move sweeping the box `b`,
    /// and the enemy guns there that nobody serves (obstacles, not troops).
    pub(super) fn foes_near(&self, ui: usize, b: &volley_table::Aabb, margin: f64) -> Vec<Foe> {
        let side = self.units[ui].side;
        let grown = [b[0] - margin, b[1] - margin, b[2] + margin, b[3] + margin];
        let inside = |p: &Point| p.x >= grown[0] && p.x <= grown[2] && p.y >= grown[1] && p.y <= grown[3];
        let enemies = self.units.iter().filter(|e| e.side != side);
        let troops =
            enemies.clone().filter(|e| e.in_ranks() > 0).filter(|e| e.body().any(|p| inside(&p))).filter_map(|e| {
                let mut body = Vec::with_capacity(e.men.len() + 1);
                body.extend(e.body());
                let (centre, radius) = e.bounds()?;
                Some(Foe { front: e.front_edge(), body, centre, radius, troops: true })
            });
        let guns = enemies.filter(|e| !e.crewed()).filter_map(|e| e.gun).filter(|g| inside(&g.at)).map(|g| Foe {
            front: None,
            body: vec![g.at],
            centre: g.at,
            radius: 0.0,
            troops: false,
        });
        troops.chain(guns).collect()
    }

    /// The front edge of a moving unit whose men stand at `men`, its head at `head` facing the
    /// unit vector `fwd`.
    pub(super) fn moving_front(
        &self,
        ui: usize,
        men: &[(usize, Point)],
        head: Point,
        fwd: Point,
        facing: f64,
    ) -> Front {
        let rgt = right_of(fwd);
        if self.units[ui].gun.is_some() {
            return Front::with_axes(head, head, facing, fwd, rgt, crate::model::GUN_TAN);
        }
        let (mut lo, mut hi, mut ahead) = (f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &(_, p) in men {
            let d = p - head;
            lo = lo.min(d.dot(rgt));
            hi = hi.max(d.dot(rgt));
            ahead = ahead.max(d.dot(fwd));
        }
        Front::with_axes(
            head + fwd * ahead + rgt * (lo - crate::model::HALF_FIGURE),
            head + fwd * ahead + rgt * (hi + crate::model::HALF_FIGURE),
            facing,
            fwd,
            rgt,
            crate::model::FRONT_TAN,
        )
    }

    /// Where a moving body stands against one foe: the least distance between the two bodies,
    /// and whether one faces the other (the mover's `front` holds part of the foe's body, or
    /// the foe's front holds part of the mover's).
    pub(super) fn against(foe: &Foe, body: &[(usize, Point)], front: &Front) -> (f64, bool) {
        let mut d2 = f64::INFINITY;
        for &q in &foe.body {
            for &(_, p) in body {
                d2 = d2.min(p.dist2(q));
            }
        }
        let facing = foe.body.iter().any(|&q| front.contains(q))
            || foe.front.as_ref().is_some_and(|f| body.iter().any(|&(_, p)| f.contains(p)));
        (d2.sqrt(), facing)
    }

    /// A lower bound of the least distance from `body` to any body of `foes` (from circles
    /// holding the bodies: cheap, and enough to know how far the mover may go before anything
    /// can come within 4").
    pub(super) fn near_bound(foes: &[Foe], body: &[(usize, Point)]) -> f64 {
        let Some((centre, radius)) = volley_table::bounding_circle(body.iter().map(|&(_, p)| p)) else {
            return f64::INFINITY;
        };
        foes.iter().map(|f| (centre.dist(f.centre) - radius - f.radius).max(0.0)).fold(f64::INFINITY, f64::min)
    }

    /// Least distance from the moving men to any body of `foes`.
    pub(super) fn contact_gap(foes: &[Foe], men: &[(usize, Point)]) -> f64 {
        let mut best = f64::INFINITY;
        for foe in foes {
            for &q in &foe.body {
                for &(_, p) in men {
                    best = best.min(p.dist2(q));
                }
            }
        }
        best.sqrt()
    }

    /// The box a move along `shape` sweeps, grown by the farthest man's offset from the head.
    pub(super) fn swept_box(shape: &MoveShape) -> volley_table::Aabb {
        let reach = shape.extent() + SPACING;
        let bb = volley_table::bbox(&shape.poly);
        [bb[0] - reach, bb[1] - reach, bb[2] + reach, bb[3] + reach]
    }

    /// How far a move along `shape` goes before it must halt among `foes`, and why it halts.
    ///
    /// The move halts where combat with a foe first becomes possible: the two bodies (men in
    /// ranks, and a served gun) less than 4" apart while one faces the other, measured unit
    /// against unit, foe by foe. A foe with whom combat was already possible when the move began
    /// does not hold the mover where it stands: it may move along or away, and halts only where
    /// it would come [`CLOSER`] nearer to that foe than it began. Nobody passes through the
    /// enemy: a move that would bring a man within [`PASS`] of an enemy figure is blocked there,
    /// facing or not; and it never ends in contact with the enemy. A rigid body on one straight leg is solved exactly (every distance and
    /// every facing along the leg is an interval); a column's snake is traced in strides that no
    /// foe can slip between (while every foe is farther than 4" plus a stride, plus the swing of
    /// a column's files at a corner), the halt found by bisection.
    pub(super) fn reach(
        &self,
        ui: usize,
        shape: &MoveShape,
        foes: &[Foe],
        buf: &mut Vec<(usize, Point)>,
    ) -> (f64, Option<&'static str>) {
        const HALT: &str = "within 4\" of enemy troops, facing or faced";
        const BLOCKED: &str = "the way ahead is blocked by enemy troops";
        let total = shape.len();
        if foes.is_empty() {
            return (total, None);
        }
        let straight = shape.rigid && shape.poly.len() == 2;
        if straight {
            // Every man stays within `extent` of the head, which runs along one straight leg:
            // a foe farther than 4" from all of that sweep can neither stop nor touch the move.
            let extent = shape.extent();
            let (a, b) = (shape.poly[0], shape.poly[1]);
            if foes.iter().all(|f| dist_to_segment(f.centre, a, b) - f.radius - extent >= COMBAT_RANGE + CONTACT) {
                return (total, None);
            }
        }
        let front_at = |s: f64, buf: &mut Vec<(usize, Point)>| {
            let (head, fwd) = shape.body_at(s, buf);
            self.moving_front(ui, buf, head, fwd, shape.facing_of(fwd))
        };
        // How near each foe the body may come while one faces the other (bounding circles rule
        // out the foes that are far off, which are most).
        let front0 = front_at(0.0, buf);
        let circle = |buf: &[(usize, Point)]| {
            volley_table::bounding_circle(buf.iter().map(|&(_, p)| p)).unwrap_or((shape.poly[0], 0.0))
        };
        let apart = |f: &Foe, (c, r): (Point, f64)| c.dist(f.centre) - r - f.radius;
        let c0 = circle(buf);
        let limits: Vec<f64> = foes
            .iter()
            .map(|f| {
                if !f.troops {
                    // Nobody there to face or be faced: it only blocks.
                    return 0.0;
                }
                if apart(f, c0) >= COMBAT_RANGE {
                    return COMBAT_RANGE;
                }
                match Self::against(f, buf, &front0) {
                    (d, true) if d < COMBAT_RANGE => (d - CLOSER).min(COMBAT_RANGE),
                    _ => COMBAT_RANGE,
                }
            })
            .collect();
        // Whether the move halts (or is blocked) at `s`, and which.
        let halts = |s: f64, buf: &mut Vec<(usize, Point)>| {
            let front = front_at(s, buf);
            let c = circle(buf);
            foes.iter().zip(&limits).find_map(|(f, &lim)| {
                if apart(f, c) >= COMBAT_RANGE {
                    return None;
                }
                let (d, facing) = Self::against(f, buf, &front);
                if d < PASS { Some(BLOCKED) } else { (d < lim && facing).then_some(HALT) }
            })
        };
        // A pivot that brings combat with a foe goes no farther: the unit halts where it turned.
        let u = &self.units[ui];
        if (shape.facing - u.facing).abs() > 1e-9 {
            let now: Vec<(usize, Point)> = u.body().map(|p| (0, p)).collect();
            let front = u.front_edge();
            let newly = foes.iter().zip(&limits).any(|(f, &lim)| {
                f.troops
                    && lim < COMBAT_RANGE
                    && !front.as_ref().is_some_and(|front| {
                        let (d, facing) = Self::against(f, &now, front);
                        d < COMBAT_RANGE && facing
                    })
            });
            if newly {
                return (0.0, Some("the pivot brought it within 4\" of enemy troops, facing or faced"));
            }
        }
        let mut end = total;
        let mut stopped = None;
        if straight && total > 1e-12 {
            // For every pair of a body point and a foe's figure, the stretch of the leg where
            // they are nearer than the limit is an interval, and so is each stretch where a
            // figure lies in the other's front; the move halts where the first of the former
            // meets any of the latter. `buf` holds the body at the start.
            let v = (shape.poly[1] - shape.poly[0]) * (1.0 / total);
            let (c0, rm) = c0;
            let mut first = f64::INFINITY;
            let mut faced = Vec::new();
            for (foe, &lim) in foes.iter().zip(&limits).filter(|(f, _)| f.troops) {
                // A foe that the whole moving body passes farther than the limit from cannot stop it.
                if dist_to_segment(foe.centre, c0, c0 + v * total) - foe.radius - rm >= lim {
                    continue;
                }
                // The mover faces q once q lies in its front as it has moved on; the foe faces the
                // mover once a point of its body lies in the foe's front.
                faced.clear();
                faced.extend(foe.body.iter().filter_map(|&q| front0.span_along(q, v * -1.0, total)));
                if let Some(f) = &foe.front {
                    faced.extend(buf.iter().filter_map(|&(_, p0)| f.span_along(p0, v, total)));
                }
                if faced.is_empty() {
                    continue;
                }
                for &q in &foe.body {
                    for &(_, p0) in buf.iter() {
                        let Some((dlo, dhi)) = volley_table::span_within(p0, v, q, lim, total) else {
                            continue;
                        };
                        if dlo >= first {
                            continue;
                        }
                        for &(flo, fhi) in &faced {
                            let (lo, hi) = (dlo.max(flo), dhi.min(fhi));
                            if lo < hi && lo < first {
                                // Just inside both: nearer than the limit, and facing.
                                first = lo + (1e-6f64).min((hi - lo) / 2.0);
                            }
                        }
                    }
                }
            }
            if first < total {
                end = first;
                stopped = Some(HALT);
            }
            // Nobody passes through the enemy: the move is blocked where a man would come
            // within [`PASS`] of an enemy figure, facing or not.
            for foe in foes {
                if dist_to_segment(foe.centre, c0, c0 + v * end) - foe.radius - rm >= PASS {
                    continue;
                }
                for &q in &foe.body {
                    for &(_, p0) in buf.iter() {
                        if let Some((lo, _)) = volley_table::span_within(p0, v, q, PASS, end)
                            && lo < end
                        {
                            end = lo;
                            stopped = Some(BLOCKED);
                        }
                    }
                }
            }
        } else {
            let swing = if shape.rigid { 0.0 } else { 2.0 * shape.slots.iter().map(|s| s.1.abs()).fold(0.0, f64::max) };
            let mut near = Self::near_bound(foes, buf);
            let (mut prev_s, mut s) = (0.0, 0.0);
            while s < total {
                s = (s + (near - COMBAT_RANGE - swing).max(STEP)).min(total);
                if let Some(why) = halts(s, buf) {
                    // The first point of the stride where it halts, to a millionth of the stride.
                    let (mut lo, mut hi, mut why) = (prev_s, s, why);
                    for _ in 0..20 {
                        let mid = (lo + hi) / 2.0;
                        if let Some(w) = halts(mid, buf) {
                            (hi, why) = (mid, w);
                        } else {
                            lo = mid;
                        }
                    }
                    end = hi;
                    stopped = Some(why);
                    break;
                }
                near = Self::near_bound(foes, buf);
                prev_s = s;
            }
        }
        // A move blocked short of the enemy backs off until it is clear of contact (one that
        // merely ends beside an enemy it passed, neither facing the other, stays there).
        while end > 0.0 && stopped == Some(BLOCKED) {
            shape.body_at(end, buf);
            if Self::contact_gap(foes, buf) >= CONTACT {
                break;
            }
            end = (end - STEP).max(0.0);
        }
        (end, stopped)
    }

    pub(super) fn trace_move(&self, ui: usize, shape: &MoveShape) -> Trace {
        let side = self.units[ui].side;
        // Everything the move can meet lies within its swept box grown by the combat range.
        let swept = Self::swept_box(shape);
        let foes = self.foes_near(ui, &swept, COMBAT_RANGE);
        let mut buf = Vec::with_capacity(shape.slots.len());
        let (end, stopped) = self.reach(ui, shape, &foes, &mut buf);
        // Running enemies met and objectives passed through on the way to where it halts.
        let mobs: Vec<usize> = (0..self.units.len())
            .filter(|&ei| {
                let e = &self.units[ei];
                e.side != side
                    && e.in_ranks() == 0
                    && e.men.iter().any(|m| m.running() && volley_table::in_box(&swept, m.at, CONTACT))
            })
            .collect();
        let goals: Vec<usize> = (0..self.stat.objectives.len())
            .filter(|&oi| volley_table::boxes_meet(&swept, &self.stat.objective_boxes[oi]))
            .collect();
        let mut pushes = Vec::new();
        let mut entered = vec![false; self.stat.objectives.len()];
        if !mobs.is_empty() || !goals.is_empty() {
            let mut s = 0.0;
            loop {
                shape.place(s, &mut buf);
                for &ei in &mobs {
                    let met = self.units[ei]
                        .men
                        .iter()
                        .any(|m| m.running() && buf.iter().any(|&(_, p)| p.dist2(m.at) < CONTACT * CONTACT));
                    if met && !pushes.contains(&ei) {
                        pushes.push(ei);
                    }
                }
                for &oi in &goals {
                    let (bb, poly) = (&self.stat.objective_boxes[oi], &self.stat.objectives[oi].points);
                    if !entered[oi]
                        && buf
                            .iter()
                            .any(|&(_, p)| volley_table::in_box(bb, p, 1e-9) && super::victory::on_objective(p, poly))
                    {
                        entered[oi] = true;
                    }
                }
                if s >= end {
                    break;
                }
                s = (s + STEP).min(end);
            }
        }
        Trace { s: end, stopped: stopped.map(str::to_string), pushes, entered }
    }

    /// The walk of unit `ui`'s gunners in ranks back towards their gun: each goes straight for
    /// it, up to 6" (all the way when he is within 6" of the crew's place at it), and the walk
    /// obeys what any move obeys: it halts where combat with enemy troops first becomes
    /// possible (the gunners less than 4" from an enemy body, facing it or faced by it — away
    /// from the gun they face the way the first of them walks, at it the gun faces its arc; a
    /// foe already in reach lets them walk only along or away), and nobody walks through
    /// the enemy or an enemy gun (blocked within [`PASS`], then backed off an inch clear). The
    /// body at each point of the walk is the unit as it would stand if it stopped there, its
    /// crew laid out at the gun. Gives where each walking gunner ends and the way he faces, how
    /// far the walk went, and why it stopped short.
    pub(super) fn gunner_walk(&self, ui: usize) -> GunnerWalk {
        const HALT: &str = "within 4\" of enemy troops, facing or faced";
        const BLOCKED: &str = "the way back is blocked by enemy troops";
        let u = &self.units[ui];
        let Some(g) = u.gun else { return GunnerWalk::default() };
        // (man, start, way, length of his walk)
        let walkers: Vec<(usize, Point, Point, f64)> = u
            .men
            .iter()
            .enumerate()
            .filter(|(_, m)| m.in_ranks())
            .filter_map(|(i, m)| {
                let d = m.at.dist(g.at);
                (d > CREW_RADIUS + 1e-9).then(|| {
                    let len = if d <= GUNNER_RETURN + CREW_RADIUS { d } else { GUNNER_RETURN };
                    (i, m.at, (g.at - m.at) * (1.0 / d), len)
                })
            })
            .collect();
        let total = walkers.iter().map(|w| w.3).fold(0.0, f64::max);
        // The gunners away from the gun face the way the first of them faces (as
        // `Unit::front_edge` has it): a walker faces the way he walks.
        let lead = u.men.iter().position(|m| m.in_ranks());
        let lead_facing = walkers
            .iter()
            .find(|w| Some(w.0) == lead)
            .map_or_else(|| lead.map_or(u.facing, |i| u.men[i].facing), |w| heading_to(Point::default(), w.2));
        let mut ghost = u.clone();
        // The unit had it stopped after `s`: its body in `buf` (the gun, index `usize::MAX`,
        // when served), and its front.
        let mut stand = |s: f64, buf: &mut Vec<(usize, Point)>| -> Option<Front> {
            for &(i, p, v, len) in &walkers {
                let at = p + v * s.min(len);
                ghost.men[i].at = if at.dist(g.at) <= 1e-9 { g.at } else { at };
                ghost.men[i].facing = lead_facing;
            }
            for (i, p) in formed_places(&ghost, ghost.formation, ghost.facing) {
                ghost.men[i].at = p;
            }
            buf.clear();
            buf.extend(ghost.men.iter().enumerate().filter(|(_, m)| m.in_ranks()).map(|(i, m)| (i, m.at)));
            if ghost.crewed() {
                buf.push((usize::MAX, g.at));
            }
            ghost.front_edge()
        };
        let mut buf = Vec::with_capacity(u.men.len() + 1);
        let mut pts: Vec<Point> = walkers.iter().flat_map(|&(_, p, v, len)| [p, p + v * len]).collect();
        pts.extend(u.men.iter().filter(|m| m.in_ranks()).map(|m| m.at));
        pts.push(g.at);
        let foes = self.foes_near(ui, &volley_table::bbox(&pts), COMBAT_RANGE + CONTACT + SPACING);
        let against = |foe: &Foe, buf: &[(usize, Point)], front: &Option<Front>| {
            let d = Self::contact_gap(std::slice::from_ref(foe), buf);
            let facing = front.as_ref().is_some_and(|f| foe.body.iter().any(|&q| f.contains(q)))
                || foe.front.as_ref().is_some_and(|f| buf.iter().any(|&(_, p)| f.contains(p)));
            (d, facing)
        };
        let front0 = stand(0.0, &mut buf);
        let limits: Vec<f64> = foes
            .iter()
            .map(|f| match against(f, &buf, &front0) {
                _ if !f.troops => 0.0,
                // Straight walks have no swing of files to allow for: a foe in reach holds them
                // where they stand, but for walking along or away.
                (d, true) if d < COMBAT_RANGE => d - 1e-9,
                _ => COMBAT_RANGE,
            })
            .collect();
        // Nobody walks through the enemy: each walker on his straight way, before the crew
        // takes its places at the gun.
        let walking = |s: f64| walkers.iter().map(move |&(i, p, v, len)| (i, p + v * s.min(len)));
        let through = |s: f64| {
            walkers.iter().any(|&(_, p, v, len)| {
                let to = p + v * s.min(len);
                foes.iter().any(|f| f.body.iter().any(|&q| dist_to_segment(q, p, to) < PASS))
            })
        };
        let mut halts = |s: f64, buf: &mut Vec<(usize, Point)>| {
            if through(s) {
                return Some(BLOCKED);
            }
            let front = stand(s, buf);
            foes.iter().zip(&limits).find_map(|(f, &lim)| {
                let (d, facing) = against(f, buf, &front);
                if d < PASS { Some(BLOCKED) } else { (f.troops && d < lim && facing).then_some(HALT) }
            })
        };
        let (mut end, mut stopped) = (total, None);
        let (mut prev, mut s) = (0.0, 0.0);
        while s < total {
            s = (s + STEP).min(total);
            if let Some(why) = halts(s, &mut buf) {
                let (mut lo, mut hi, mut why) = (prev, s, why);
                for _ in 0..20 {
                    let mid = (lo + hi) / 2.0;
                    if let Some(w) = halts(mid, &mut buf) {
                        (hi, why) = (mid, w);
                    } else {
                        lo = mid;
                    }
                }
                // It halts where combat first becomes possible, as a move does.
                (end, stopped) = (hi, Some(why));
                break;
            }
            prev = s;
        }
        while end > 0.0 && stopped == Some(BLOCKED) {
            stand(end, &mut buf);
            let way: Vec<(usize, Point)> = walking(end).collect();
            if Self::contact_gap(&foes, &buf) >= CONTACT && Self::contact_gap(&foes, &way) >= CONTACT {
                break;
            }
            end = (end - STEP).max(0.0);
        }
        let ends = walkers.iter().map(|&(i, p, v, len)| (i, p + v * end.min(len), lead_facing)).collect();
        GunnerWalk { ends, s: end, stopped }
    }

    /// Whether unit `ui` (mob) may move along `path` (offsets of the mob's centre).
    pub(super) fn check_mob(&self, side: SideId, unit: u16, path: &[Point]) -> Result<(), Illegal> {
        let u = self.own_unit(unit, side)?;
        let ui = usize::from(unit);
        self.may_act_with(ui)?;
        if u.in_ranks() > 0 || u.running() == 0 {
            return illegal!("only a unit whose men are all running moves as a mob");
        }
        if path.is_empty() || path.len() > MAX_LEGS || path.iter().any(|p| !p.x.is_finite() || !p.y.is_finite()) {
            return illegal!("a mob's path has 1 to {MAX_LEGS} finite waypoints");
        }
        let c = u.centre();
        let len = path_len(c, path);
        if len > MOB_MOVE + 1e-6 {
            return illegal!("a mob moves at most {MOB_MOVE}\", this path is {}\"", longer(len, MOB_MOVE));
        }
        let runners: Vec<Point> = u.men.iter().filter(|m| m.running()).map(|m| m.at).collect();
        // Only enemies that the mob could come within its clearance of along this path matter.
        let spread = runners.iter().map(|r| r.dist(c)).fold(0.0, f64::max);
        let reach = len + spread + MOB_CLEARANCE + 1.0;
        let enemies: Vec<Point> = self
            .units
            .iter()
            .filter(|e| e.side != side)
            .flat_map(|e| e.men.iter().filter(|m| m.alive()).map(|m| m.at))
            .filter(|p| p.dist2(c) <= reach * reach)
            .collect();
        // Nor may a runner go through an enemy gun that nobody serves: a model on the table.
        let guns: Vec<Point> = self
            .units
            .iter()
            .filter(|e| e.side != side && !e.crewed())
            .filter_map(|e| e.gun.map(|g| g.at))
            .filter(|p| p.dist2(c) <= reach * reach)
            .collect();
        // Each runner moves in a straight line along each leg, so his distance to an enemy man
        // is least at one point of the leg. A mob already within 6" may move away, but no leg
        // may bring a runner closer to an enemy than 6" while closing on him.
        let mut from = c;
        for &to in path {
            let v = to - from;
            let vv = v.dot(v).max(1e-12);
            for &r in &runners {
                let start = r + (from - c);
                let end = r + (to - c);
                if !self.stat.table.contains(end) {
                    return illegal!("the mob would leave the table {}", self.where_man(end));
                }
                for &e in &enemies {
                    let w = start - e;
                    let t = (-w.dot(v) / vv).clamp(0.0, 1.0);
                    if t > 1e-9 && (w + v * t).dist2(Point::default()) < MOB_CLEARANCE * MOB_CLEARANCE - 1e-9 {
                        return illegal!("a mob may not pass closer than 6\" to enemy troops");
                    }
                }
                for &gun in &guns {
                    if dist_to_segment(gun, start, end) < PASS {
                        return illegal!("a mob may not run through an enemy gun");
                    }
                }
            }
            from = to;
        }
        if self.stat.has_impassable {
            let mut pts = runners.clone();
            pts.extend(runners.iter().map(|&r| r + (path[path.len() - 1] - c)));
            pts.extend(path.iter().copied());
            let b = volley_table::bbox(&pts);
            let swept = [b[0] - spread, b[1] - spread, b[2] + spread, b[3] + spread];
            if self.stat.table.impassable_within(&swept) {
                let poly = std::iter::once(c).chain(path.iter().copied()).collect();
                let shape = MoveShape::new(poly, 0.0, Vec::new(), true, 0.0, false);
                let mut s = 0.0;
                while s < len {
                    s = (s + STEP * 2.0).min(len);
                    let off = shape.at(s).0 - c;
                    if let Some(q) = runners.iter().map(|&r| r + off).find(|&q| !self.stat.table.passable(q)) {
                        return illegal!("the mob would cross impassable ground, {}", self.place_words(q));
                    }
                }
            }
        }
        Ok(())
    }

    pub(super) fn push_away(&mut self, ri: usize, by: usize, events: &mut Vec<Event>) {
        let from = self.units[by].centre();
        let c = self.units[ri].centre();
        let base = heading_to(from, c);
        let runners: Vec<usize> = (0..self.units[ri].men.len()).filter(|&i| self.units[ri].men[i].running()).collect();
        let table = &self.stat.table;
        let clear = |dir: f64| {
            runners.iter().all(|&i| {
                let p = self.units[ri].men[i].at;
                (1..=18).all(|k| {
                    let q = p.toward(dir, f64::from(k) * PUSH_DISTANCE / 18.0);
                    table.contains(q) && table.passable(q)
                })
            })
        };
        let dir =
            [0.0, 20.0, -20.0, 40.0, -40.0, 60.0, -60.0, 80.0, -80.0].iter().map(|o| base + o).find(|&d| clear(d));
        let eliminated = dir.is_none();
        let u = &mut self.units[ri];
        for &i in &runners {
            match dir {
                Some(d) => {
                    u.men[i].at = u.men[i].at.toward(d, PUSH_DISTANCE);
                    u.men[i].facing = norm_heading(d);
                }
                None => u.men[i].state = ManState::Dead,
            }
        }
        events.push(Event::Pushed { unit: self.name(ri).to_string(), by: self.name(by).to_string(), eliminated });
    }
}

/// A length over a limit, in inches to a tenth, or to a hundredth where a tenth would not show
/// it over ("6.04", not "6.0", past 6).
fn longer(len: f64, limit: f64) -> String {
    let tenth = format!("{len:.1}");
    if tenth.parse::<f64>().is_ok_and(|t| t > limit) { tenth } else { format!("{len:.2}") }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_length_over_a_limit_shows_it_over() {
        assert_eq!(super::longer(36.214, 6.0), "36.2");
        assert_eq!(super::longer(6.04, 6.0), "6.04");
        assert_eq!(super::longer(6.06, 6.0), "6.1");
    }
}
