//! A spatial index of points on the table: square buckets of a fixed size, each listing the
//! items whose point falls in it. Finding what is within a distance of a place, or the nearest
//! item that passes a test, looks only at the buckets that can hold an answer, so with units
//! spread over the table the work per query does not grow with their number.
//!
//! Points off the table are kept in the edge bucket nearest them; since moving a point onto the
//! table never lengthens a distance, the queries stay exact for them too.

use crate::Point;

/// Items (by index) bucketed by where they stand.
#[derive(Clone, Debug, PartialEq)]
pub struct Buckets {
    size: f64,
    cols: usize,
    rows: usize,
    cells: Vec<Vec<u32>>,
}

impl Buckets {
    /// Empty buckets of side `size` inches over a table `width` by `depth`.
    pub fn new(width: f64, depth: f64, size: f64) -> Self {
        let size = if size.is_finite() && size > 0.0 { size } else { 1.0 };
        let count = |len: f64| ((len.max(0.0) / size).ceil() as usize).clamp(1, 4096);
        let (cols, rows) = (count(width), count(depth));
        Buckets { size, cols, rows, cells: vec![Vec::new(); cols * rows] }
    }

    fn cell_of(&self, p: Point) -> (usize, usize) {
        let c = |v: f64, n: usize| if v.is_nan() { 0 } else { ((v / self.size).floor().max(0.0) as usize).min(n - 1) };
        (c(p.x, self.cols), c(p.y, self.rows))
    }

    /// Put item `i` at `p`.
    pub fn insert(&mut self, i: u32, p: Point) {
        let (c, r) = self.cell_of(p);
        self.cells[r * self.cols + c].push(i);
    }

    /// Take item `i` away from `p` (where it was put).
    pub fn remove(&mut self, i: u32, p: Point) {
        let (c, r) = self.cell_of(p);
        let cell = &mut self.cells[r * self.cols + c];
        if let Some(k) = cell.iter().position(|&j| j == i) {
            cell.swap_remove(k);
        }
    }

    /// Item `i` moved from `from` to `to`.
    pub fn relocate(&mut self, i: u32, from: Point, to: Point) {
        if self.cell_of(from) != self.cell_of(to) {
            self.remove(i, from);
            self.insert(i, to);
        }
    }

    /// Every item that may be within `r` of `p` (and some that are not: the caller measures),
    /// appended to `out`, in no particular order.
    pub fn near(&self, p: Point, r: f64, out: &mut Vec<u32>) {
        // A negative or undefined reach looks at the bucket of `p` alone.
        let r = if r > 0.0 { r } else { 0.0 };
        let (c0, r0) = self.cell_of(Point::new(p.x - r, p.y - r));
        let (c1, r1) = self.cell_of(Point::new(p.x + r, p.y + r));
        for row in r0..=r1 {
            for cell in &self.cells[row * self.cols + c0..=row * self.cols + c1] {
                out.extend_from_slice(cell);
            }
        }
    }

    /// The item nearest `p` among those `dist` measures (`None`: not wanted), ties to the lower
    /// index, with its distance. `dist` must be the distance from `p` to where the item was put.
    pub fn nearest(&self, p: Point, mut dist: impl FnMut(u32) -> Option<f64>) -> Option<(u32, f64)> {
        let (pc, pr) = self.cell_of(p);
        let mut best: Option<(u32, f64)> = None;
        let most = self.cols.max(self.rows);
        for ring in 0..=most {
            let (c0, c1) = (pc.saturating_sub(ring), (pc + ring).min(self.cols - 1));
            let (r0, r1) = (pr.saturating_sub(ring), (pr + ring).min(self.rows - 1));
            for row in r0..=r1 {
                for col in c0..=c1 {
                    // Only the ring's own cells: those inside were searched before.
                    if row.abs_diff(pr) != ring && col.abs_diff(pc) != ring {
                        continue;
                    }
                    for &i in &self.cells[row * self.cols + col] {
                        if let Some(d) = dist(i)
                            && best.is_none_or(|(bi, bd)| d < bd || (d == bd && i < bi))
                        {
                            best = Some((i, d));
                        }
                    }
                }
            }
            // Whatever lies beyond this ring is more than `ring` buckets away.
            if best.is_some_and(|(_, d)| d < ring as f64 * self.size) {
                break;
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scatter of points, some off the table.
    fn points() -> Vec<Point> {
        (0..300u32)
            .map(|i| {
                let x = f64::from((i * 7919) % 1013) / 1013.0 * 130.0 - 10.0;
                let y = f64::from((i * 104_729) % 997) / 997.0 * 70.0 - 5.0;
                Point::new(x, y)
            })
            .collect()
    }

    #[test]
    fn near_finds_everything_within_reach_and_nearest_agrees_with_a_full_scan() {
        let pts = points();
        let mut b = Buckets::new(120.0, 60.0, 7.0);
        for (i, p) in pts.iter().enumerate() {
            b.insert(i as u32, *p);
        }
        let mut out = Vec::new();
        for (k, q) in pts.iter().enumerate().step_by(7) {
            for r in [0.5, 3.0, 11.0, 40.0] {
                out.clear();
                b.near(*q, r, &mut out);
                for (i, p) in pts.iter().enumerate() {
                    if p.dist(*q) <= r {
                        assert!(out.contains(&(i as u32)), "{i} within {r} of {k} missed");
                    }
                }
                assert!(out.len() < pts.len() || r >= 40.0, "a short reach looks at fewer than all");
            }
            let odd = |i: u32| (i % 2 == 1 && i as usize != k).then(|| pts[i as usize].dist(*q));
            let scan = (0..pts.len() as u32)
                .filter_map(|i| odd(i).map(|d| (i, d)))
                .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
            assert_eq!(b.nearest(*q, odd), scan);
        }
        assert_eq!(b.nearest(Point::new(1.0, 1.0), |_| None), None);
        // Odd reaches and places do not panic: the bucket of the place, or everything.
        for r in [-5.0, f64::NAN, f64::INFINITY] {
            out.clear();
            b.near(Point::new(f64::NAN, 30.0), r, &mut out);
            b.near(Point::new(-1e300, 1e300), r, &mut out);
        }
        out.clear();
        b.near(Point::new(60.0, 30.0), f64::INFINITY, &mut out);
        assert_eq!(out.len(), pts.len());
    }

    #[test]
    fn items_move_and_leave() {
        let mut b = Buckets::new(50.0, 50.0, 10.0);
        b.insert(3, Point::new(5.0, 5.0));
        b.relocate(3, Point::new(5.0, 5.0), Point::new(45.0, 45.0));
        let mut out = Vec::new();
        b.near(Point::new(5.0, 5.0), 2.0, &mut out);
        assert!(out.is_empty());
        b.near(Point::new(44.0, 44.0), 2.0, &mut out);
        assert_eq!(out, vec![3]);
        b.remove(3, Point::new(45.0, 45.0));
        out.clear();
        b.near(Point::new(44.0, 44.0), 2.0, &mut out);
        assert!(out.is_empty());
    }
}
