//! The square grid: areas, the edges between them, facings, arcs and line of sight.
//!
//! Area `(col, row)` is the square from `(col, row)` to `(col + 1, row + 1)` in grid units,
//! columns running east and rows north, so its centre is `(col + 0.5, row + 0.5)`. Distances
//! and ranges count steps through edges, never corners: the distance between two areas is the
//! number of edges crossed, `|Δcol| + |Δrow|`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::Point;

/// One grid area.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(from = "[i16; 2]", into = "[i16; 2]")]
pub struct Area {
    /// Column, from 0 at the west edge.
    pub col: i16,
    /// Row, from 0 at the south edge.
    pub row: i16,
}

impl From<[i16; 2]> for Area {
    fn from([col, row]: [i16; 2]) -> Self {
        Area { col, row }
    }
}

impl From<Area> for [i16; 2] {
    fn from(a: Area) -> Self {
        [a.col, a.row]
    }
}

impl JsonSchema for Area {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Area".into()
    }

    fn json_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut s = <[i16; 2]>::json_schema(generator);
        s.insert("description".into(), "[column, row] of a grid area, from [0, 0] in the south-west corner".into());
        s
    }
}

/// The four edges an area's occupant can face.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Dir {
    /// Towards the next row (+row).
    North,
    /// Towards the next column (+col).
    East,
    /// Towards the previous row.
    South,
    /// Towards the previous column.
    West,
}

impl Dir {
    /// All four, clockwise from north.
    pub const ALL: [Dir; 4] = [Dir::North, Dir::East, Dir::South, Dir::West];

    /// The step to the neighbour across this edge.
    pub fn step(self) -> (i16, i16) {
        match self {
            Dir::North => (0, 1),
            Dir::East => (1, 0),
            Dir::South => (0, -1),
            Dir::West => (-1, 0),
        }
    }

    /// The heading, degrees clockwise from north.
    pub fn heading(self) -> f64 {
        match self {
            Dir::North => 0.0,
            Dir::East => 90.0,
            Dir::South => 180.0,
            Dir::West => 270.0,
        }
    }

    /// The opposite edge.
    pub fn opposite(self) -> Dir {
        match self {
            Dir::North => Dir::South,
            Dir::East => Dir::West,
            Dir::South => Dir::North,
            Dir::West => Dir::East,
        }
    }
}

/// Where an adjacent area lies relative to a unit facing `facing`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// The area it faces.
    Front,
    /// The areas to its left or right.
    Flank,
    /// The area behind it.
    Rear,
}

impl Area {
    /// The area at `(col, row)`.
    pub const fn new(col: i16, row: i16) -> Self {
        Area { col, row }
    }

    /// The neighbour across the edge `dir`.
    pub fn next(self, dir: Dir) -> Area {
        let (dc, dr) = dir.step();
        Area::new(self.col + dc, self.row + dr)
    }

    /// The four neighbours across edges.
    pub fn neighbours(self) -> [Area; 4] {
        Dir::ALL.map(|d| self.next(d))
    }

    /// Steps through edges to `o`.
    pub fn distance(self, o: Area) -> u16 {
        self.col.abs_diff(o.col) + self.row.abs_diff(o.row)
    }

    /// Whether `o` shares an edge with this area.
    pub fn adjacent(self, o: Area) -> bool {
        self.distance(o) == 1
    }

    /// The edge through which `o`, an adjacent area, lies.
    pub fn dir_to(self, o: Area) -> Option<Dir> {
        Dir::ALL.into_iter().find(|&d| self.next(d) == o)
    }

    /// The centre, in grid units.
    pub fn centre(self) -> Point {
        Point::new(f64::from(self.col) + 0.5, f64::from(self.row) + 0.5)
    }

    /// Where the adjacent area `o` lies for an occupant facing `facing`; `None` if `o` is not
    /// adjacent.
    pub fn side_of(self, facing: Dir, o: Area) -> Option<Side> {
        let d = self.dir_to(o)?;
        Some(if d == facing {
            Side::Front
        } else if d == facing.opposite() {
            Side::Rear
        } else {
            Side::Flank
        })
    }

    /// The edge facing most nearly towards `o` (ties go to the first of north, east, south,
    /// west).
    pub fn facing_towards(self, o: Area) -> Dir {
        let (dc, dr) = (i32::from(o.col - self.col), i32::from(o.row - self.row));
        if dr.abs() >= dc.abs() && dr != 0 {
            if dr > 0 { Dir::North } else { Dir::South }
        } else if dc > 0 {
            Dir::East
        } else {
            Dir::West
        }
    }
}

/// The terrain of a grid area.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Terrain {
    /// Open ground.
    #[default]
    Open,
    /// Woods: cover; blocks sight through it.
    Woods,
    /// A built-up area: cover; blocks sight through it.
    BuiltUp,
    /// A fortification: cover.
    Fortification,
    /// A river: impassable.
    River,
    /// A bridge over a river: open ground.
    Bridge,
    /// Other impassable ground.
    Impassable,
}

impl Terrain {
    /// Woods, built-up areas and fortifications count as cover.
    pub fn cover(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::BuiltUp | Terrain::Fortification)
    }

    /// Woods and built-up areas block a line of sight through them.
    pub fn blocks_sight(self) -> bool {
        matches!(self, Terrain::Woods | Terrain::BuiltUp)
    }

    /// Whether units may enter it.
    pub fn passable(self) -> bool {
        !matches!(self, Terrain::River | Terrain::Impassable)
    }

    /// Its name in the rules' words, for messages ("woods", "a built-up area").
    pub fn name(self) -> &'static str {
        match self {
            Terrain::Open => "open ground",
            Terrain::Woods => "woods",
            Terrain::BuiltUp => "a built-up area",
            Terrain::Fortification => "a fortification",
            Terrain::River => "a river",
            Terrain::Bridge => "a bridge",
            Terrain::Impassable => "impassable ground",
        }
    }
}

/// A rectangular grid of areas with the terrain of each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    cols: i16,
    rows: i16,
    terrain: Vec<Terrain>,
}

impl Grid {
    /// A grid of `cols` by `rows` open areas (each at least 1).
    pub fn new(cols: i16, rows: i16) -> Self {
        let (cols, rows) = (cols.max(1), rows.max(1));
        Grid { cols, rows, terrain: vec![Terrain::Open; cols as usize * rows as usize] }
    }

    /// Columns.
    pub fn cols(&self) -> i16 {
        self.cols
    }

    /// Rows.
    pub fn rows(&self) -> i16 {
        self.rows
    }

    /// Whether `a` is on the grid.
    pub fn contains(&self, a: Area) -> bool {
        a.col >= 0 && a.row >= 0 && a.col < self.cols && a.row < self.rows
    }

    /// How many areas the grid has (`cols × rows`).
    pub fn area_count(&self) -> usize {
        self.terrain.len()
    }

    /// The place of `a` in a list of the grid's areas row by row from the south-west (`cols ×
    /// rows` long), if it is on the grid.
    pub fn index(&self, a: Area) -> Option<usize> {
        self.contains(a).then(|| a.row as usize * self.cols as usize + a.col as usize)
    }

    /// The terrain of `a`; off the grid, impassable.
    pub fn terrain(&self, a: Area) -> Terrain {
        self.index(a).map_or(Terrain::Impassable, |i| self.terrain[i])
    }

    /// Set the terrain of `a`; false if `a` is off the grid.
    pub fn set(&mut self, a: Area, t: Terrain) -> bool {
        match self.index(a) {
            Some(i) => {
                self.terrain[i] = t;
                true
            }
            None => false,
        }
    }

    /// Every area, row by row from the south-west.
    pub fn areas(&self) -> impl Iterator<Item = Area> + '_ {
        (0..self.rows).flat_map(move |r| (0..self.cols).map(move |c| Area::new(c, r)))
    }
}

/// Half-angle of the arc of attack, degrees: never more than 60° either side of the facing.
pub const ARC_HALF_ANGLE: f64 = 60.0;

/// Whether `target` lies in the arc of attack of an occupant of `from` facing `facing`: ahead,
/// within 60° of the facing, measured between area centres. At one area that is only the area
/// straight ahead; the arc widens with range.
pub fn in_arc(from: Area, facing: Dir, target: Area) -> bool {
    if from == target {
        return false;
    }
    let (dc, dr) = (f64::from(target.col - from.col), f64::from(target.row - from.row));
    let (c, r) = facing.step();
    let (fc, fr) = (f64::from(c), f64::from(r));
    let along = dc * fc + dr * fr;
    if along <= 0.0 {
        return false;
    }
    let across = (dc * fr - dr * fc).abs();
    // Within 60°: across <= along * tan 60° (compared squared, exactly: tan² 60° = 3).
    across * across <= 3.0 * along * along + 1e-9
}

/// The areas whose inside the straight line between the centres of `a` and `b` passes
/// through, `a` and `b` excluded, in order. Where the line passes exactly through a corner it
/// goes from one area to the diagonal one, touching the other two only at the corner, which
/// does not count here ([`line_between`] gives those pairs too).
pub fn areas_between(a: Area, b: Area) -> Vec<Area> {
    line_between(a, b).0
}

/// The pairs of areas that the straight line between the centres of `a` and `b` touches only at
/// a corner, passing exactly between them (on a diagonal line, the two areas either side of
/// each grid corner it crosses).
pub fn corners_between(a: Area, b: Area) -> Vec<[Area; 2]> {
    line_between(a, b).1
}

/// [`areas_between`] and [`corners_between`] from one walk along the line.
pub fn line_between(a: Area, b: Area) -> (Vec<Area>, Vec<[Area; 2]>) {
    let (dc, dr) = (i32::from(b.col - a.col), i32::from(b.row - a.row));
    let (n, m) = (dc.abs(), dr.abs());
    let (sc, sr) = (dc.signum() as i16, dr.signum() as i16);
    let mut out = Vec::with_capacity((n + m) as usize);
    let mut corners = Vec::new();
    let mut at = a;
    // Walk from centre to centre: crossing a vertical grid line (a column step) happens at
    // parameter (2i + 1) / (2n), a horizontal one at (2j + 1) / (2m); compare them exactly as
    // (2i + 1) * m against (2j + 1) * n.
    let (mut i, mut j) = (0, 0);
    while i < n || j < m {
        let col_next = if i < n { Some((2 * i + 1) * m) } else { None };
        let row_next = if j < m { Some((2 * j + 1) * n) } else { None };
        match (col_next, row_next) {
            (Some(c), Some(r)) if c == r => {
                corners.push([Area::new(at.col + sc, at.row), Area::new(at.col, at.row + sr)]);
                at = Area::new(at.col + sc, at.row + sr);
                i += 1;
                j += 1;
            }
            (Some(c), Some(r)) if c < r => {
                at = Area::new(at.col + sc, at.row);
                i += 1;
            }
            (Some(_), None) => {
                at = Area::new(at.col + sc, at.row);
                i += 1;
            }
            _ => {
                at = Area::new(at.col, at.row + sr);
                j += 1;
            }
        }
        if at != b {
            out.push(at);
        }
    }
    (out, corners)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn a_diagonal_line_passes_between_the_areas_at_each_corner() {
        // From [0, 0] to [2, 2]: through [1, 1]; between [1, 0] and [0, 1], then [2, 1] and [1, 2].
        let (a, b) = (Area::new(0, 0), Area::new(2, 2));
        assert_eq!(areas_between(a, b), vec![Area::new(1, 1)]);
        assert_eq!(corners_between(a, b), vec![[Area::new(1, 0), Area::new(0, 1)], [Area::new(2, 1), Area::new(1, 2)]]);
        // A line that meets no corner touches none.
        assert!(corners_between(Area::new(0, 0), Area::new(2, 1)).is_empty());
        assert!(corners_between(Area::new(0, 0), Area::new(0, 3)).is_empty());
    }

    #[test]
    fn distance_counts_edges_not_corners() {
        assert_eq!(Area::new(0, 0).distance(Area::new(1, 1)), 2);
        assert_eq!(Area::new(2, 3).distance(Area::new(2, 6)), 3);
        assert!(Area::new(0, 0).adjacent(Area::new(0, 1)));
        assert!(!Area::new(0, 0).adjacent(Area::new(1, 1)));
    }

    #[test]
    fn the_arc_is_straight_ahead_at_one_area_and_widens_to_60_degrees() {
        let o = Area::new(5, 5);
        assert!(in_arc(o, Dir::North, Area::new(5, 6)));
        assert!(!in_arc(o, Dir::North, Area::new(6, 5)), "beside is not ahead");
        assert!(in_arc(o, Dir::North, Area::new(6, 6)), "45° at two areas");
        assert!(in_arc(o, Dir::North, Area::new(6, 7)));
        assert!(!in_arc(o, Dir::North, Area::new(7, 6)), "63° is outside");
        assert!(in_arc(o, Dir::North, Area::new(8, 7)), "56° at five areas");
        assert!(!in_arc(o, Dir::North, Area::new(5, 4)), "behind");
        assert!(in_arc(o, Dir::West, Area::new(3, 4)));
    }

    #[test]
    fn terrain_by_area_with_rivers_impassable_unless_bridged() {
        let mut g = Grid::new(4, 3);
        assert!(g.set(Area::new(1, 1), Terrain::River));
        assert!(g.set(Area::new(2, 1), Terrain::Bridge));
        assert!(g.set(Area::new(3, 2), Terrain::Woods));
        assert!(!g.set(Area::new(4, 0), Terrain::Woods), "off the grid");
        assert!(!g.terrain(Area::new(1, 1)).passable());
        assert!(g.terrain(Area::new(2, 1)).passable());
        assert!(g.terrain(Area::new(3, 2)).cover() && g.terrain(Area::new(3, 2)).blocks_sight());
        assert!(Terrain::Fortification.cover() && !Terrain::Fortification.blocks_sight());
        assert_eq!(g.terrain(Area::new(-1, 0)), Terrain::Impassable);
        assert_eq!(g.areas().count(), 12);
    }

    #[test]
    fn sides_of_a_unit() {
        let o = Area::new(2, 2);
        assert_eq!(o.side_of(Dir::East, Area::new(3, 2)), Some(Side::Front));
        assert_eq!(o.side_of(Dir::East, Area::new(1, 2)), Some(Side::Rear));
        assert_eq!(o.side_of(Dir::East, Area::new(2, 3)), Some(Side::Flank));
        assert_eq!(o.side_of(Dir::East, Area::new(3, 3)), None);
    }

    #[test]
    fn the_line_between_centres_crosses_these_areas() {
        let straight = areas_between(Area::new(0, 0), Area::new(3, 0));
        assert_eq!(straight, vec![Area::new(1, 0), Area::new(2, 0)]);
        // A true diagonal goes corner to corner.
        assert_eq!(areas_between(Area::new(0, 0), Area::new(2, 2)), vec![Area::new(1, 1)]);
        // A knight's move: the line crosses two areas besides the ends.
        assert_eq!(areas_between(Area::new(0, 0), Area::new(1, 2)), vec![Area::new(0, 1), Area::new(1, 1)]);
        assert!(areas_between(Area::new(4, 4), Area::new(4, 5)).is_empty());
    }

    proptest! {
        #[test]
        fn the_crossed_areas_are_those_the_line_passes_inside(c in -6i16..6, r in -6i16..6) {
            let (a, b) = (Area::new(0, 0), Area::new(c, r));
            prop_assume!(a != b);
            let got = areas_between(a, b);
            // Sample the line densely; an area counts if a sample falls strictly inside it.
            let mut seen = Vec::new();
            for k in 1..4000 {
                let p = a.centre().lerp(b.centre(), f64::from(k) / 4000.0);
                let (fx, fy) = (p.x.floor(), p.y.floor());
                if (p.x - fx).abs() < 1e-6 || (p.y - fy).abs() < 1e-6 {
                    continue;
                }
                let ar = Area::new(fx as i16, fy as i16);
                if ar != a && ar != b && !seen.contains(&ar) {
                    seen.push(ar);
                }
            }
            prop_assert_eq!(got, seen);
        }

        #[test]
        fn facing_towards_points_into_the_arc_when_it_can(c in -6i16..6, r in -6i16..6) {
            let (a, b) = (Area::new(0, 0), Area::new(c, r));
            prop_assume!(a != b);
            let f = a.facing_towards(b);
            // The edge most nearly towards a target within 60° of some edge has it in its arc.
            if Dir::ALL.iter().any(|&d| in_arc(a, d, b)) {
                prop_assert!(in_arc(a, f, b));
            }
        }
    }
}
