//! Rallying: the two cases, the commander next to the unit, gunners back to their gun.

use super::*;

impl Battle {
    /// How many men unit `ui` may rally now, and why not if none.
    pub fn rally_allowance(&self, ui: usize) -> Result<u16, Illegal> {
        self.rally_allowance_with(ui, self.commanders[usize::from(self.units[ui].side)])
    }

    /// How many men unit `ui` could rally if its side's commander stood at `commander`: as many
    /// as the rules allow, fewer where more would stand on enemy men or guns (interpretation 25,
    /// as for re-forming), none if even one would.
    pub fn rally_allowance_with(&self, ui: usize, commander: Point) -> Result<u16, Illegal> {
        let most = self.rally_most(ui, commander)?;
        (1..=most).rev().find(|&n| self.rally_blocked(ui, n, commander).is_none()).map_or_else(
            || {
                let why = self.rally_blocked(ui, 1, commander).unwrap_or("would not stand clear");
                illegal!("{}'s rallied men {why}", self.name(ui))
            },
            Ok,
        )
    }

    /// Why rallying `n` men of unit `ui` (its commander at `commander`) may not be done, if it
    /// may not: a man in ranks would stand within half an inch of enemy men or guns, or a man it
    /// places would stand off the table or on impassable ground.
    fn rally_blocked(&self, ui: usize, n: u16, commander: Point) -> Option<&'static str> {
        let mut probe = self.units[ui].clone();
        rally_unit(&mut probe, n, commander);
        let was = &self.units[ui].men;
        let ranks = || probe.men.iter().zip(was).filter(|(m, _)| m.in_ranks());
        if self.where_enemy_stands(probe.side, ranks().map(|(m, _)| m.at)) {
            Some("would stand where the enemy stands")
        } else if ranks().any(|(m, w)| m.at != w.at && !self.stat.table.passable(m.at)) {
            Some("would stand off the table or on impassable ground")
        } else {
            None
        }
    }

    /// Whether any of `places` lies within half an inch ([`PASS`]) of a man (in ranks or
    /// running) or a gun of `side`'s enemy: where a re-formed or rallied man may not stand
    /// (interpretation 25).
    pub(super) fn where_enemy_stands(&self, side: SideId, places: impl Iterator<Item = Point>) -> bool {
        let places: Vec<Point> = places.collect();
        // (Only enemy figures within the places' box, widened by half an inch, can be that near.)
        let (lo, hi) = places.iter().fold(
            (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY)),
            |(lo, hi), p| (Point::new(lo.x.min(p.x), lo.y.min(p.y)), Point::new(hi.x.max(p.x), hi.y.max(p.y))),
        );
        let near_box = |q: &Point| q.x > lo.x - PASS && q.x < hi.x + PASS && q.y > lo.y - PASS && q.y < hi.y + PASS;
        self.units
            .iter()
            .filter(|e| e.side != side)
            .flat_map(|e| e.men.iter().filter(|m| m.in_ranks() || m.running()).map(|m| m.at).chain(e.gun.map(|g| g.at)))
            .filter(near_box)
            .any(|q| places.iter().any(|p| q.dist2(*p) < PASS * PASS))
    }

    /// How many men the rules let unit `ui` rally with its commander at `commander`, before
    /// the ground is looked at.
    fn rally_most(&self, ui: usize, commander: Point) -> Result<u16, Illegal> {
        let u = &self.units[ui];
        let running = u.running() as u16;
        if running == 0 {
            return illegal!("{} has nobody running", self.name(ui));
        }
        let in_ranks = u.in_ranks() as u16;
        let commander = self.next_to(ui, commander);
        if in_ranks > 0 {
            // Case 1: nobody in ranks within 6" of enemy men in ranks facing them.
            for (ei, e) in self.units.iter().enumerate() {
                if e.side == u.side || e.in_ranks() == 0 {
                    continue;
                }
                let Some(front) = e.front_edge() else { continue };
                let threatened = u
                    .men
                    .iter()
                    .filter(|m| m.in_ranks())
                    .any(|m| front.contains(m.at) && e.body().any(|q| q.dist(m.at) <= RALLY_CLEAR + 1e-9));
                if threatened {
                    return illegal!("{} has men within 6\" of {} in ranks facing them", self.name(ui), self.name(ei));
                }
            }
            match self.variant {
                Variant::Chance => Ok(running.min(in_ranks)),
                Variant::WithoutChance if commander => Ok(running.min(6)),
                Variant::WithoutChance => illegal!("without chance, a unit rallies only with its commander next to it"),
            }
        } else {
            // Case 2: every running man at least 24" from every enemy man in ranks.
            for (ei, e) in self.units.iter().enumerate() {
                if e.side == u.side {
                    continue;
                }
                let near = |m: &Man| e.men.iter().any(|q| q.in_ranks() && q.at.dist(m.at) < RALLY_FAR - 1e-9);
                if u.men.iter().filter(|m| m.running()).any(near) {
                    return illegal!("{}'s runners are within 24\" of {}", self.name(ui), self.name(ei));
                }
            }
            if !commander {
                return illegal!("a unit with no men in ranks rallies only with the commander next to it");
            }
            Ok(match self.variant {
                Variant::Chance => 1,
                Variant::WithoutChance => running.min(6),
            })
        }
    }

    /// Why unit `ui` rallies `n` men now, in the rules' words (asked before it rallies):
    /// `at most as many as are already in ranks: 3`, `1: no men in ranks, and the commander next
    /// to it`.
    pub fn rally_why(&self, ui: usize, n: u16) -> String {
        let u = &self.units[ui];
        let (running, in_ranks) = (u.running() as u16, u.in_ranks() as u16);
        let most = match (self.variant, in_ranks > 0) {
            (Variant::Chance, true) => format!("at most as many as are already in ranks: {in_ranks}"),
            (Variant::Chance, false) => return "1: no men in ranks, and the commander next to it".to_string(),
            (Variant::WithoutChance, _) => "at most 6, with the commander next to it".to_string(),
        };
        let commander = self.commanders[usize::from(u.side)];
        let rules = self.rally_most(ui, commander).unwrap_or(n);
        if n < rules {
            let why = self.rally_blocked(ui, n + 1, commander).unwrap_or("would not stand clear");
            format!("{most}; {n}, as more {why}")
        } else if n == running {
            format!("all that were running; {most}")
        } else {
            most
        }
    }

    /// Whether the side's commander is next to unit `ui`.
    pub fn commander_next_to(&self, ui: usize) -> bool {
        self.next_to(ui, self.commanders[usize::from(self.units[ui].side)])
    }

    /// Whether a commander at `c` would be next to unit `ui`.
    pub(super) fn next_to(&self, ui: usize, c: Point) -> bool {
        let u = &self.units[ui];
        u.men.iter().filter(|m| m.alive()).any(|m| m.at.dist(c) <= NEXT_TO + 1e-9)
            || u.gun.is_some_and(|g| g.at.dist(c) <= NEXT_TO + 1e-9)
    }

    /// Rally `n` running men of unit `ui`; returns (rallied, straight back to the gun).
    pub(super) fn rally(&mut self, ui: usize, n: u16) -> (u16, u16) {
        let commander = self.commanders[usize::from(self.units[ui].side)];
        rally_unit(&mut self.units[ui], n, commander)
    }
}

/// Rally `n` running men of `u` (its side's commander at `commander`): the nearest to its front
/// (or, with nobody in ranks, to the commander) take their places in the formation; gunners near
/// the gun go straight to it. Returns (rallied, straight back to the gun).
fn rally_unit(u: &mut Unit, n: u16, commander: Point) -> (u16, u16) {
    let had_ranks = u.in_ranks() > 0;
    let anchor = if had_ranks { u.front } else { commander };
    let mut idx: Vec<usize> = (0..u.men.len()).filter(|&i| u.men[i].running()).collect();
    idx.sort_by(|&a, &b| u.men[a].at.dist2(anchor).total_cmp(&u.men[b].at.dist2(anchor)));
    idx.truncate(usize::from(n));
    let mut to_gun = 0;
    for &i in &idx {
        let m = &mut u.men[i];
        m.state = ManState::InRanks;
        m.facing = u.facing;
        if let Some(g) = u.gun {
            // Gunners stand about an inch behind the axle and run 6" from there.
            if m.at.dist(g.at) <= GUNNER_RETURN + CREW_RADIUS + 1e-9 {
                m.at = g.at;
                to_gun += 1;
            }
        }
    }
    if u.gun.is_none()
        && !had_ranks
        && let Some(&first) = idx.first()
    {
        u.front = u.men[first].at;
    }
    lay_out(u);
    (idx.len() as u16, to_gun)
}
