//! Where the living units stand, area by area, and how far every area is from the nearest of a
//! set of areas: worked out once when many questions are asked of one state — a decision's
//! candidate moves and their scores — so that each question looks at an area or two rather than
//! at every unit. In a big battle (`volley generate`) a scan of every unit for every question made
//! a decision cost the square of the units, and a turn the cube.
//!
//! Neither costs more than the units do on a big grid with few units: the units are sorted by
//! area (no list of every area), and distances are spread over the grid only when the grid is
//! not much bigger than the places measured from ([`SPREAD_PER_SOURCE`]).

use volley_core::SideId;
use volley_table::grid::{Area, Grid};

use crate::model::Unit;

/// The living units of a battle by the area they stand in.
pub(crate) struct Occupancy<'a> {
    /// The grid, for the index of an area.
    grid: &'a Grid,
    /// The area index of each of `units`, in rising order.
    areas: Vec<u32>,
    /// Unit indices, area by area, each area's in the battle's order.
    units: Vec<u16>,
    /// Unless the grid is much bigger than the units ([`SPREAD_PER_SOURCE`] areas a unit): where
    /// each area's units start in `units`, by area index (one more at the end), so that they are
    /// looked up rather than searched for.
    start: Option<Vec<u32>>,
}

impl<'a> Occupancy<'a> {
    /// The living `units` on `grid` (set-up and moves keep every unit on it; one that were not
    /// would be left out).
    pub(crate) fn new(grid: &'a Grid, units: &[Unit]) -> Self {
        let mut placed: Vec<(u32, u16)> = units
            .iter()
            .enumerate()
            .filter(|(_, u)| u.alive())
            .filter_map(|(ui, u)| grid.index(u.area).map(|i| (i as u32, ui as u16)))
            .collect();
        placed.sort_unstable();
        let (areas, units): (Vec<u32>, Vec<u16>) = placed.into_iter().unzip();
        let cells = grid.area_count();
        let start = (cells <= SPREAD_PER_SOURCE * units.len().max(1)).then(|| {
            let mut start = vec![0u32; cells + 1];
            for &i in &areas {
                start[i as usize + 1] += 1;
            }
            for i in 0..cells {
                start[i + 1] += start[i];
            }
            start
        });
        Occupancy { grid, areas, units, start }
    }

    /// The living units in area `a`, in the battle's order (none off the grid).
    pub(crate) fn at(&self, a: Area) -> &[u16] {
        let Some(i) = self.grid.index(a) else { return &[] };
        if let Some(start) = &self.start {
            return &self.units[start[i] as usize..start[i + 1] as usize];
        }
        let i = i as u32;
        let from = self.areas.partition_point(|&x| x < i);
        let to = from + self.areas[from..].partition_point(|&x| x == i);
        &self.units[from..to]
    }

    /// The living units in the areas at most `reach` steps from `at` (`at` included), area by
    /// area.
    pub(crate) fn within(&self, at: Area, reach: u8) -> impl Iterator<Item = usize> + '_ {
        let reach = i16::from(reach);
        (-reach..=reach).flat_map(move |dr| {
            let across = reach - dr.abs();
            (-across..=across).flat_map(move |dc| {
                self.at(Area::new(at.col.saturating_add(dc), at.row.saturating_add(dr))).iter().map(|&i| usize::from(i))
            })
        })
    }

    /// The living units of `side` in area `a`, in the battle's order.
    pub(crate) fn of_side<'b>(&'b self, units: &'b [Unit], side: SideId, a: Area) -> impl Iterator<Item = usize> + 'b {
        self.at(a).iter().map(|&i| usize::from(i)).filter(move |&i| units[i].side == side)
    }
}

/// Grid areas a source above which the distances are measured from the sources one by one
/// rather than spread over the grid: a spread costs the grid, a measure the sources.
pub(crate) const SPREAD_PER_SOURCE: usize = 64;

/// Every area's distance (steps through edges) to the nearest of some sources, and the smallest
/// tag of those as near.
pub(crate) enum Nearest {
    /// By area index: (distance, tag), or `None` with no source at all.
    Spread(Vec<Option<(u16, u16)>>),
    /// The sources (area, tag), each measured when asked.
    Measured(Vec<(Area, u16)>),
}

impl Nearest {
    /// From `sources` (area, tag), nearest first by distance, then by the smaller tag.
    ///
    /// A breadth-first spread over the grid's rectangle: between two areas of a rectangle there
    /// is always a shortest path inside it, so the spread's distance is [`Area::distance`]. An
    /// area one step further than its neighbours takes the smallest tag among them, so ties go
    /// to the smallest tag as a scan in tag order would.
    pub(crate) fn new(grid: &Grid, sources: impl IntoIterator<Item = (Area, u16)>) -> Self {
        let sources: Vec<(Area, u16)> = sources.into_iter().filter(|&(a, _)| grid.contains(a)).collect();
        if grid.area_count() > SPREAD_PER_SOURCE * sources.len().max(1) {
            return Nearest::Measured(sources);
        }
        let (cols, rows) = (usize::from(grid.cols().unsigned_abs()), usize::from(grid.rows().unsigned_abs()));
        let mut cells: Vec<Option<(u16, u16)>> = vec![None; grid.area_count()];
        let mut layer = Vec::new();
        for (i, tag) in sources.into_iter().filter_map(|(a, tag)| Some((grid.index(a)?, tag))) {
            match &mut cells[i] {
                Some((_, t)) => *t = (*t).min(tag),
                cell @ None => {
                    *cell = Some((0, tag));
                    layer.push(i);
                }
            }
        }
        let mut next = Vec::new();
        let mut d = 0u16;
        while !layer.is_empty() {
            d += 1;
            for &i in &layer {
                let Some((_, tag)) = cells[i] else { continue };
                let (c, r) = (i % cols, i / cols);
                let steps = [
                    (c + 1 < cols).then(|| i + 1),
                    (c > 0).then(|| i - 1),
                    (r + 1 < rows).then(|| i + cols),
                    (r > 0).then(|| i - cols),
                ];
                for j in steps.into_iter().flatten() {
                    match &mut cells[j] {
                        Some((dj, t)) if *dj == d => *t = (*t).min(tag),
                        Some(_) => {}
                        cell @ None => {
                            *cell = Some((d, tag));
                            next.push(j);
                        }
                    }
                }
            }
            std::mem::swap(&mut layer, &mut next);
            next.clear();
        }
        Nearest::Spread(cells)
    }

    /// The distance from `a` to the nearest source, and its tag (`None`: no sources, or `a` off
    /// the grid).
    pub(crate) fn get(&self, grid: &Grid, a: Area) -> Option<(u16, u16)> {
        let i = grid.index(a)?;
        match self {
            Nearest::Spread(cells) => cells[i],
            Nearest::Measured(sources) => sources.iter().map(|&(s, tag)| (s.distance(a), tag)).min(),
        }
    }
}

#[cfg(test)]
mod tests {
    use volley_table::grid::Dir;

    use super::*;
    use crate::model::Kind;

    fn unit(side: SideId, col: i16, row: i16, sp: u8) -> Unit {
        Unit {
            side,
            kind: Kind::Infantry,
            area: Area::new(col, row),
            facing: Dir::North,
            sp,
            sp_start: 4,
            weapon: None,
            native: false,
            moved: None,
            attacked: None,
            done: false,
        }
    }

    #[test]
    fn the_living_units_are_found_by_their_area_in_the_lists_order() {
        // Looked up on a small grid, searched for on a big one: the same answers.
        for grid in [Grid::new(6, 4), Grid::new(100, 80)] {
            let units = [unit(0, 2, 1, 3), unit(1, 0, 0, 2), unit(1, 2, 1, 1), unit(0, 2, 1, 0), unit(0, 5, 3, 4)];
            let occ = Occupancy::new(&grid, &units);
            assert_eq!(occ.start.is_some(), grid.cols() == 6);
            the_same_units_are_found(&occ, &units);
        }
    }

    fn the_same_units_are_found(occ: &Occupancy<'_>, units: &[Unit]) {
        assert_eq!(occ.at(Area::new(2, 1)), &[0, 2], "the destroyed unit 3 is left out");
        assert_eq!(occ.at(Area::new(0, 0)), &[1]);
        assert_eq!(occ.at(Area::new(5, 3)), &[4], "the last area of the small grid");
        assert!(occ.at(Area::new(1, 1)).is_empty() && occ.at(Area::new(-1, 0)).is_empty());
        assert!(occ.at(Area::new(6, 3)).is_empty() && occ.at(Area::new(5, 2)).is_empty());
        assert_eq!(occ.of_side(units, 1, Area::new(2, 1)).collect::<Vec<_>>(), [2]);
        // Within two steps of [1, 1]: [2, 1] (one step) and [0, 0] (two), not [5, 3].
        let mut near: Vec<usize> = occ.within(Area::new(1, 1), 2).collect();
        near.sort_unstable();
        assert_eq!(near, [0, 1, 2]);
        assert_eq!(occ.within(Area::new(0, 0), 0).collect::<Vec<_>>(), [1], "reach 0: the area itself");
        assert_eq!(occ.within(Area::new(4, 0), 2).count(), 0, "[2, 1] is three steps away");
    }

    #[test]
    fn the_spread_gives_the_distance_and_the_first_of_the_nearest() {
        // A small grid is spread over; a big one with the same few sources is measured.
        for grid in [Grid::new(7, 5), Grid::new(60, 40)] {
            let sources = [(Area::new(1, 1), 4), (Area::new(5, 3), 2), (Area::new(5, 3), 9), (Area::new(3, 0), 7)];
            let near = Nearest::new(&grid, sources);
            assert_eq!(matches!(near, Nearest::Spread(_)), grid.cols() == 7);
            for a in grid.areas() {
                let best = sources.iter().map(|&(s, t)| (s.distance(a), t)).min();
                assert_eq!(near.get(&grid, a), best, "at {a:?}");
            }
            assert_eq!(near.get(&grid, Area::new(-1, 0)), None);
            assert_eq!(Nearest::new(&grid, []).get(&grid, Area::new(0, 0)), None);
        }
    }
}
