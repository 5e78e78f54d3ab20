//! Places in words, by the names the scenario gives the ground: where a unit stands or where a
//! move takes it, said as a wargamer would say it ("6\" north of Dorf", "into Kirchdorf",
//! "to 2\" short of the Eichwald", "towards the wheatfield"), never as coordinates.
//!
//! [`Landmarks`] is the named ground of a table: the objectives, whatever the rule set adds
//! (Old Fritz's wagon parks) and the named terrain features. [`grid_way`] does the same for a
//! grid of areas, whose terrain has kinds but no names.

use volley_table::grid::Area;
use volley_table::{Point, Table, heading_to, point_in_polygon};

use crate::Objective;

/// A place farther than this from every named one (inches) is not named by the ground.
pub const NAMED_NEAR: f64 = 18.0;

/// On a grid, an area farther than this many areas from every named one is not named by it.
pub const GRID_NAMED_NEAR: u16 = 3;

/// A named piece of ground: an outline (closed) or a line (a road, a hedge, a stream).
#[derive(Clone, Debug, PartialEq)]
pub struct Landmark {
    /// Its name, as the scenario gives it.
    pub name: String,
    /// Its outline or line.
    pub points: Vec<Point>,
    /// An outline (an area one may be in), not a line.
    pub closed: bool,
}

/// The named ground of a table, in the order it is looked at: objectives first, then what the
/// rule set adds, then the named terrain features.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Landmarks {
    marks: Vec<Landmark>,
}

/// The nearest point of the segment `a`–`b` to `p`.
fn nearest_on_segment(p: Point, a: Point, b: Point) -> Point {
    let ab = b - a;
    let l2 = ab.dot(ab);
    if l2 < 1e-12 {
        return a;
    }
    a + ab * ((p - a).dot(ab) / l2).clamp(0.0, 1.0)
}

/// How far along the ray from `p` in the direction `d` (a unit vector) it meets the segment
/// `a`–`b`, if it does within `reach`.
fn ray_meets(p: Point, d: Point, reach: f64, a: Point, b: Point) -> Option<f64> {
    let s = b - a;
    let denom = d.cross(s);
    if denom.abs() < 1e-12 {
        return None;
    }
    let t = (a - p).cross(s) / denom;
    let u = (a - p).cross(d) / denom;
    ((0.0..=reach).contains(&t) && (-1e-9..=1.0 + 1e-9).contains(&u)).then_some(t)
}

/// The eight points of the compass, for a heading in degrees clockwise from north.
pub fn compass(heading: f64) -> &'static str {
    const POINTS: [&str; 8] =
        ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];
    POINTS[((heading.rem_euclid(360.0) + 22.5) / 45.0) as usize % 8]
}

/// A whole number of inches for a distance in words: rounded, and at least 1 (a place half an
/// inch off is "1\" short", never "0\" short").
fn inches(d: f64) -> String {
    format!("{:.0}\"", d.round().max(1.0))
}

/// A name as a place in a sentence: with "the" before a common name that has no article
/// ("west wood" becomes "the west wood", "farm" "the farm"); a proper name ("Kirchdorf",
/// "Birch wood") and a name with its article ("the mill") as given.
pub fn with_article(name: &str) -> String {
    let name = name.trim();
    let lower = name.to_lowercase();
    let has_article = ["the ", "a ", "an "].iter().any(|a| lower.starts_with(a));
    match name.chars().next() {
        Some(c) if c.is_lowercase() && !has_article => format!("the {name}"),
        _ => name.to_string(),
    }
}

/// Where `p` lies on a table of `width` by `depth` inches, when no named ground is near: by the
/// thirds of the table ("the north-west of the table", "the middle of the table").
pub fn region_words(p: Point, width: f64, depth: f64) -> String {
    let third = |v: f64, extent: f64| {
        if v < extent / 3.0 {
            0
        } else if v > extent * 2.0 / 3.0 {
            2
        } else {
            1
        }
    };
    let ns = ["south", "", "north"][third(p.y, depth)];
    let ew = ["west", "", "east"][third(p.x, width)];
    match (ns, ew) {
        ("", "") => "the middle of the table".to_string(),
        ("", w) => format!("the {w} of the table"),
        (n, "") => format!("the {n} of the table"),
        (n, w) => format!("the {n}-{w} of the table"),
    }
}

impl Landmarks {
    /// The named ground of `table`: `objectives`, then `extra` (such as wagon parks), then the
    /// terrain features that have a name. Names are as the scenario gives them.
    pub fn new(objectives: &[Objective], extra: impl IntoIterator<Item = Landmark>, table: &Table) -> Self {
        let mut marks: Vec<Landmark> = objectives
            .iter()
            .map(|o| Landmark { name: o.name.clone(), points: o.points.clone(), closed: true })
            .collect();
        marks.extend(extra);
        for f in table.features().iter().filter(|f| !f.name.trim().is_empty()) {
            marks.push(Landmark { name: f.name.clone(), points: f.points.clone(), closed: !f.kind.is_linear() });
        }
        Landmarks { marks }
    }

    /// The same ground with "the" before each common name that has none ([`with_article`]),
    /// for sentences ("into the farm", not "into farm").
    pub fn with_articles(mut self) -> Self {
        for m in &mut self.marks {
            m.name = with_article(&m.name);
        }
        self
    }

    /// The named ground, in the order it is looked at.
    pub fn marks(&self) -> &[Landmark] {
        &self.marks
    }

    /// The named outline `p` lies in.
    ///
    /// Of several (a bridge over a river, a wood on a hill), the smallest: the most particular
    /// place, so that a move onto the bridge is not said to go into the river.
    fn containing(&self, p: Point) -> Option<&Landmark> {
        let area =
            |pts: &[Point]| (0..pts.len()).map(|i| pts[i].cross(pts[(i + 1) % pts.len()])).sum::<f64>().abs() / 2.0;
        self.marks
            .iter()
            .filter(|m| m.closed && m.points.len() >= 3 && point_in_polygon(p, &m.points))
            .map(|m| (m, area(&m.points)))
            .fold(None, |best: Option<(&Landmark, f64)>, (m, a)| match best {
                Some((_, b)) if b <= a => best,
                _ => Some((m, a)),
            })
            .map(|(m, _)| m)
    }

    /// Whether `p` lies in an outline named `name`.
    fn in_named(&self, p: Point, name: &str) -> bool {
        self.marks.iter().any(|m| m.closed && m.name == name && m.points.len() >= 3 && point_in_polygon(p, &m.points))
    }

    /// The named ground nearest `p`, with its nearest point to `p`.
    fn nearest(&self, p: Point) -> Option<(&Landmark, Point)> {
        self.marks
            .iter()
            .filter_map(|m| {
                let pts = &m.points;
                let n = pts.len();
                let edges = if m.closed { n } else { n.saturating_sub(1) };
                (0..edges)
                    .map(|k| nearest_on_segment(p, pts[k], pts[(k + 1) % n]))
                    .min_by(|a, b| a.dist2(p).total_cmp(&b.dist2(p)))
                    .or_else(|| pts.first().copied())
                    .map(|q| (m, q))
            })
            .min_by(|a, b| a.1.dist2(p).total_cmp(&b.1.dist2(p)))
    }

    /// `p` in words, if named ground is in or near it: the objective, added place or terrain
    /// feature it lies in (`Mittelhof`), else the nearest of them within [`NAMED_NEAR`] with the
    /// distance and the direction from it (`6" south of Mittelhof`); `None` if none is that near.
    pub fn named(&self, p: Point) -> Option<String> {
        if let Some(m) = self.containing(p) {
            return Some(m.name.clone());
        }
        match self.nearest(p) {
            Some((m, q)) if q.dist(p) < 0.5 => Some(m.name.clone()),
            Some((m, q)) if q.dist(p) <= NAMED_NEAR => {
                Some(format!("{:.0}\" {} of {}", q.dist(p), compass(heading_to(q, p)), m.name))
            }
            _ => None,
        }
    }

    /// Where a move from `from` to `to` goes, in words to follow its distance ("advances 6\" …"):
    ///
    /// * ending in named ground (the smallest that holds it): `into Kirchdorf`, or `within
    ///   Kirchdorf` if it began there (`onto the bridge`, `on the ridge` for a bridge or a hill);
    /// * else by the first named ground straight on along the move: `to the edge of the
    ///   Eichwald` (or `up to the road`, a line) if it ends at it, `to 2" short of the Eichwald`
    ///   within [`NAMED_NEAR`], `towards the Eichwald` farther;
    /// * else by the nearest named ground within [`NAMED_NEAR`]: `to 6" north of Dorf`;
    /// * else `None`: nothing named lies ahead or near (say the compass point of the move).
    pub fn way(&self, from: Point, to: Point) -> Option<String> {
        if let Some(m) = self.containing(to) {
            // (Onto a bridge or a hill; into a town, a wood, a field.)
            let onto = ["bridge", "hill", "ridge", "height", "berg", "mound", "knoll"]
                .iter()
                .any(|w| m.name.to_lowercase().contains(w));
            return Some(if self.in_named(from, &m.name) {
                format!("{} {}", if onto { "on" } else { "within" }, m.name)
            } else {
                format!("{} {}", if onto { "onto" } else { "into" }, m.name)
            });
        }
        let len = from.dist(to);
        if len > 1e-9 {
            let d = (to - from) * (1.0 / len);
            let first = self
                .marks
                .iter()
                .filter_map(|m| {
                    let pts = &m.points;
                    let n = pts.len();
                    let edges = if m.closed { n } else { n.saturating_sub(1) };
                    (0..edges)
                        .filter_map(|k| ray_meets(to, d, 1e6, pts[k], pts[(k + 1) % n]))
                        .min_by(f64::total_cmp)
                        .map(|t| (m, t))
                })
                .min_by(|a, b| a.1.total_cmp(&b.1));
            if let Some((m, t)) = first {
                return Some(if t < 0.5 {
                    if m.closed { format!("to the edge of {}", m.name) } else { format!("up to {}", m.name) }
                } else if t <= NAMED_NEAR {
                    format!("to {} short of {}", inches(t), m.name)
                } else {
                    format!("towards {}", m.name)
                });
            }
        }
        match self.nearest(to) {
            Some((m, q)) if q.dist(to) < 0.5 => {
                Some(if m.closed { format!("to the edge of {}", m.name) } else { format!("up to {}", m.name) })
            }
            Some((m, q)) if q.dist(to) <= NAMED_NEAR => {
                Some(format!("to {} {} of {}", inches(q.dist(to)), compass(heading_to(q, to)), m.name))
            }
            _ => None,
        }
    }
}

/// How many areas, in words: "1 area", "2 areas".
pub fn areas(n: usize) -> String {
    format!("{n} area{}", if n == 1 { "" } else { "s" })
}

/// The compass point from area `a` to area `b` (rows count northwards, columns eastwards).
pub fn grid_compass(a: Area, b: Area) -> &'static str {
    compass(heading_to(a.centre(), b.centre()))
}

/// An area in words on a grid, by named ground: `named` lists each name with its areas (the
/// objectives first, then the terrain by its kind: "the woods", "the bridge"). The name of the
/// first that holds `a` (`the bridge`); else the first next to it across an edge (`next to the
/// mill`); else the nearest within [`GRID_NAMED_NEAR`] areas with the count and the direction
/// (`2 areas south of the mill`); `None` if none is that near.
pub fn grid_place(a: Area, named: &[(String, Vec<Area>)]) -> Option<String> {
    if let Some((n, _)) = named.iter().find(|(_, areas)| areas.contains(&a)) {
        return Some(n.clone());
    }
    if let Some((n, _)) = named.iter().find(|(_, areas)| areas.iter().any(|x| x.adjacent(a))) {
        return Some(format!("next to {n}"));
    }
    let (n, at, d) = named
        .iter()
        .filter_map(|(n, areas)| areas.iter().map(|&x| (n, x, x.distance(a))).min_by_key(|&(_, _, d)| d))
        .min_by_key(|&(_, _, d)| d)?;
    (d <= GRID_NAMED_NEAR).then(|| format!("{} {} of {n}", areas(usize::from(d)), grid_compass(at, a)))
}

/// A move on a grid from area `from` to area `to` over `steps` areas, in words: the count, the
/// direction and where it ends by the ground ([`grid_place`]): `2 areas north-east, to the
/// bridge`, `1 area north, next to the mill`, `3 areas west` when nothing named is near. Where
/// the compass point is not the whole truth (neither straight along a row or column nor on a
/// diagonal), the areas each way follow it: `3 areas north-east (2 east, 1 north)`, so that two
/// moves to one stretch of ground read apart.
pub fn grid_way(from: Area, to: Area, steps: usize, named: &[(String, Vec<Area>)]) -> String {
    let mut s = areas(steps);
    if from != to {
        s.push(' ');
        s.push_str(grid_compass(from, to));
        let (dx, dy) = (to.col - from.col, to.row - from.row);
        if dx != 0 && dy != 0 && dx.abs() != dy.abs() {
            let ew = if dx > 0 { "east" } else { "west" };
            let ns = if dy > 0 { "north" } else { "south" };
            s.push_str(&format!(" ({} {ew}, {} {ns})", dx.abs(), dy.abs()));
        }
    }
    match grid_place(to, named) {
        Some(p) if p.starts_with("next to ") => s.push_str(&format!(", {p}")),
        Some(p) => s.push_str(&format!(", to {p}")),
        None => {}
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use volley_table::{Feature, TerrainKind};

    fn rect(x0: f64, y0: f64, x1: f64, y1: f64) -> Vec<Point> {
        vec![Point::new(x0, y0), Point::new(x1, y0), Point::new(x1, y1), Point::new(x0, y1)]
    }

    fn ground() -> Landmarks {
        let mut table = Table::new(96.0, 72.0);
        table.add(Feature { kind: TerrainKind::Town, name: "Dorf".into(), points: rect(40.0, 40.0, 50.0, 50.0) });
        table.add(Feature { kind: TerrainKind::Woods, name: "west wood".into(), points: rect(10.0, 20.0, 20.0, 30.0) });
        table.add(Feature {
            kind: TerrainKind::Road,
            name: "the road".into(),
            points: vec![Point::new(0.0, 10.0), Point::new(96.0, 10.0)],
        });
        let objectives = [Objective { name: "the mill".into(), points: rect(10.0, 60.0, 14.0, 64.0) }];
        Landmarks::new(&objectives, [], &table).with_articles()
    }

    #[test]
    fn a_place_on_a_bridge_over_a_river_is_on_the_bridge_not_in_the_river() {
        let mut table = Table::new(96.0, 72.0);
        table.add(Feature { kind: TerrainKind::River, name: "Protz".into(), points: rect(0.0, 30.0, 96.0, 34.0) });
        table.add(Feature { kind: TerrainKind::Bridge, name: "bridge".into(), points: rect(46.0, 29.0, 50.0, 35.0) });
        let g = Landmarks::new(&[], [], &table).with_articles();
        assert_eq!(g.named(Point::new(48.0, 32.0)).as_deref(), Some("the bridge"));
        assert_eq!(g.named(Point::new(20.0, 32.0)).as_deref(), Some("Protz"));
        assert_eq!(g.way(Point::new(48.0, 20.0), Point::new(48.0, 32.0)).as_deref(), Some("onto the bridge"));
        assert_eq!(g.way(Point::new(47.0, 31.0), Point::new(48.0, 32.0)).as_deref(), Some("on the bridge"));
    }

    #[test]
    fn a_place_is_named_by_the_ground_it_lies_in_or_near() {
        let g = ground();
        assert_eq!(g.named(Point::new(45.0, 45.0)).as_deref(), Some("Dorf"));
        assert_eq!(g.named(Point::new(12.0, 62.0)).as_deref(), Some("the mill"));
        assert_eq!(g.named(Point::new(45.0, 56.0)).as_deref(), Some("6\" north of Dorf"));
        assert_eq!(g.named(Point::new(15.0, 25.0)).as_deref(), Some("the west wood"));
        assert_eq!(g.named(Point::new(80.0, 60.0)), None);
        assert_eq!(region_words(Point::new(80.0, 60.0), 96.0, 72.0), "the north-east of the table");
        assert_eq!(region_words(Point::new(48.0, 36.0), 96.0, 72.0), "the middle of the table");
        assert_eq!(region_words(Point::new(48.0, 2.0), 96.0, 72.0), "the south of the table");
    }

    #[test]
    fn a_move_is_told_by_where_it_ends_and_what_lies_ahead() {
        let g = ground();
        let p = Point::new;
        assert_eq!(g.way(p(45.0, 30.0), p(45.0, 42.0)).as_deref(), Some("into Dorf"));
        assert_eq!(g.way(p(45.0, 42.0), p(45.0, 48.0)).as_deref(), Some("within Dorf"));
        assert_eq!(g.way(p(45.0, 30.0), p(45.0, 39.8)).as_deref(), Some("to the edge of Dorf"));
        assert_eq!(g.way(p(45.0, 30.0), p(45.0, 38.0)).as_deref(), Some("to 2\" short of Dorf"));
        assert_eq!(g.way(p(45.0, 12.0), p(45.0, 18.0)).as_deref(), Some("towards Dorf"));
        assert_eq!(g.way(p(30.0, 20.0), p(30.0, 10.2)).as_deref(), Some("up to the road"));
        // Nothing ahead: by the nearest named ground; nothing near: none.
        assert_eq!(g.way(p(45.0, 60.0), p(45.0, 62.0)).as_deref(), Some("to 12\" north of Dorf"));
        assert_eq!(g.way(p(90.0, 60.0), p(90.0, 66.0)), None);
        assert_eq!(with_article("farm"), "the farm");
        assert_eq!(with_article("Birch wood"), "Birch wood");
        assert_eq!(with_article("the mill"), "the mill");
    }

    #[test]
    fn an_area_is_named_by_the_ground_in_or_next_to_it() {
        let named = vec![
            ("the mill".to_string(), vec![Area::new(4, 3)]),
            ("the bridge".to_string(), vec![Area::new(4, 4)]),
            ("the woods".to_string(), vec![Area::new(0, 6), Area::new(1, 6)]),
        ];
        assert_eq!(grid_place(Area::new(4, 4), &named).as_deref(), Some("the bridge"));
        assert_eq!(grid_place(Area::new(4, 2), &named).as_deref(), Some("next to the mill"));
        assert_eq!(grid_place(Area::new(4, 1), &named).as_deref(), Some("2 areas south of the mill"));
        assert_eq!(grid_place(Area::new(9, 0), &named), None);
        assert_eq!(grid_way(Area::new(3, 3), Area::new(4, 4), 2, &named), "2 areas north-east, to the bridge");
        assert_eq!(grid_way(Area::new(4, 0), Area::new(4, 2), 2, &named), "2 areas north, next to the mill");
        assert_eq!(grid_way(Area::new(9, 3), Area::new(9, 0), 3, &named), "3 areas south");
        // Off the compass's eight lines, the areas each way are said too.
        assert_eq!(grid_way(Area::new(9, 3), Area::new(10, 0), 4, &named), "4 areas south (1 east, 3 south)");
        assert_eq!(grid_way(Area::new(9, 3), Area::new(11, 4), 3, &named), "3 areas north-east (2 east, 1 north)");
    }
}
