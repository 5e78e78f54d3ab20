//! Geometry between units: distances between bodies, facing, flank and rear, cover.

use super::*;
use crate::combat::Quarter;

impl Battle {
    /// Least distance between two units' bodies in ranks.
    pub fn unit_dist(&self, a: usize, b: usize) -> f64 {
        let (ua, ub) = (&self.units[a], &self.units[b]);
        let mut best = f64::INFINITY;
        for p in ua.body() {
            for q in ub.body() {
                best = best.min(p.dist2(q));
            }
        }
        best.sqrt()
    }

    /// Whether two units' bodies in ranks are less than `d` apart (cheaper than
    /// [`Battle::unit_dist`] when they are far apart).
    pub fn within(&self, a: usize, b: usize, d: f64) -> bool {
        self.within_bounded(a, b, self.units[a].bounds(), self.units[b].bounds(), d)
    }

    /// [`Battle::within`] for a caller that already has both units' [`Unit::bounds`].
    pub(super) fn within_bounded(
        &self,
        a: usize,
        b: usize,
        bounds_a: Option<(Point, f64)>,
        bounds_b: Option<(Point, f64)>,
        d: f64,
    ) -> bool {
        let (Some((ca, ra)), Some((cb, rb))) = (bounds_a, bounds_b) else { return false };
        let reach = ra + rb + d;
        if ca.dist2(cb) >= reach * reach {
            return false;
        }
        let (ua, ub) = (&self.units[a], &self.units[b]);
        ua.body().any(|p| ub.body().any(|q| p.dist2(q) < d * d))
    }

    /// Whether unit `a` faces unit `b`: part of `b`'s body lies in `a`'s front arc.
    pub fn faces(&self, a: usize, b: usize) -> bool {
        match self.units[a].front_edge() {
            Some(f) => self.units[b].body().any(|p| f.contains(p)),
            None => false,
        }
    }

    /// Which quarter of unit `b` unit `a` stands in ([`Unit::quarter_of`]): in its front when
    /// part of the ground `a` formed on lies in the corridor ahead of `b`'s front rank as `b`
    /// formed, else in its rear or on its flank. Men falling or running leave both as they
    /// formed, so a fight that began frontal stays frontal.
    pub fn quarter(&self, a: usize, b: usize) -> Quarter {
        if self.units[a].in_ranks() == 0 {
            return Quarter::Front;
        }
        self.units[b].quarter_of(&self.units[a])
    }

    /// The cover unit `t` has against unit `from`.
    pub fn cover(&self, t: usize, from: usize) -> Cover {
        self.cover_from_point(t, self.units[from].centre())
    }

    pub(super) fn cover_from_point(&self, t: usize, from: Point) -> Cover {
        let target = &self.units[t];
        let near = target.body().min_by(|a, b| a.dist2(from).total_cmp(&b.dist2(from))).unwrap_or(target.centre());
        let c = self.stat.table.cover(near, from);
        // Inside a redoubt, against an attacker outside it whose line to the target crosses its
        // parapet: behind it, however far from the parapet the target stands (interpretation 3).
        // Outside it, against an attacker inside: not behind it.
        let across = |inside: Point, outside: Point| {
            self.stat.table.features().iter().any(|f| {
                f.kind == volley_table::TerrainKind::Redoubt
                    && volley_table::point_in_polygon(inside, &f.points)
                    && !volley_table::point_in_polygon(outside, &f.points)
                    && volley_table::segment_crosses_polyline(outside, inside, &f.points)
            })
        };
        if c < Cover::Works && across(near, from) {
            return Cover::Works;
        }
        let c = if c == Cover::Works && across(from, near) { Cover::Open } else { c };
        if c < Cover::Soft && self.stat.table.in_soft_cover(target.centre()) { Cover::Soft } else { c }
    }
}
