//! Objectives held and the end of the battle.

use super::*;

/// Whether a man standing at `p` is on the objective outlined by `poly`: inside it or on its
/// outline, every edge alike (a man on the edge of a hill stands on the hill; the ray test of a
/// point in a polygon alone counts two of a rectangle's edges and not the other two).
pub(super) fn on_objective(p: Point, poly: &[Point]) -> bool {
    point_in_polygon(p, poly) || (0..poly.len()).any(|i| dist_to_segment(p, poly[i], poly[(i + 1) % poly.len()]) < 1e-9)
}

impl Battle {
    pub(super) fn update_objectives(&mut self, entered_by: Option<(SideId, &[bool])>, events: &mut Vec<Event>) {
        for oi in 0..self.stat.objectives.len() {
            let poly = &self.stat.objectives[oi].points;
            let bb = &self.stat.objective_boxes[oi];
            let mut present = [false; 2];
            for u in &self.units {
                if !present[usize::from(u.side) & 1]
                    && u.men
                        .iter()
                        .any(|m| m.in_ranks() && volley_table::in_box(bb, m.at, 1e-9) && on_objective(m.at, poly))
                {
                    present[usize::from(u.side) & 1] = true;
                }
            }
            let mut holder = match present {
                [true, false] => Some(0),
                [false, true] => Some(1),
                _ => self.holders[oi],
            };
            if let Some((side, entered)) = entered_by
                && entered.get(oi).copied().unwrap_or(false)
                && !present[usize::from(1 - side)]
            {
                holder = Some(side);
            }
            if holder != self.holders[oi] {
                self.holders[oi] = holder;
                if let Some(h) = holder {
                    events.push(Event::ObjectiveTaken {
                        objective: self.stat.objectives[oi].name.clone(),
                        side: self.side_name(h),
                    });
                }
            }
        }
    }

    pub(super) fn check_victory(&mut self, events: &mut Vec<Event>) {
        if self.outcome.is_some() {
            return;
        }
        let need = usize::from(self.stat.rules.objectives_to_win);
        for s in 0..2u8 {
            let held = self.holders.iter().filter(|h| **h == Some(s)).count();
            if need > 0 && self.stat.objective_sides[usize::from(s)] && held >= need {
                return self.finish(
                    Some(s),
                    format!("{} hold {held} of the {} objectives", self.side_name(s), self.holders.len()),
                    events,
                );
            }
        }
        if let Some(f) = self.stat.rules.rout_below {
            let routed = [0u8, 1].map(|s| {
                let ranks: usize = self.units.iter().filter(|u| u.side == s).map(Unit::in_ranks).sum();
                (ranks as f64) < f * self.stat.men_start[usize::from(s)] as f64
            });
            let pct = f * 100.0;
            let why =
                |s: u8| format!("{} are routed: fewer than {pct:.0}% of their men are in ranks", self.side_name(s));
            match routed {
                [true, true] => {
                    let reason =
                        format!("both armies are routed: fewer than {pct:.0}% of either side's men are in ranks");
                    return self.finish(None, reason, events);
                }
                [true, false] => return self.finish(Some(1), why(0), events),
                [false, true] => return self.finish(Some(0), why(1), events),
                [false, false] => {}
            }
        }
        for s in 0..2u8 {
            if !self.units.iter().any(|u| u.side == s && u.alive()) {
                return self.finish(
                    Some(1 - s),
                    format!("{} have no men left on the field", self.side_name(s)),
                    events,
                );
            }
        }
    }

    pub(super) fn finish(&mut self, winner: Option<SideId>, reason: String, events: &mut Vec<Event>) {
        let outcome = Outcome { winner, reason };
        events.push(Event::BattleOver { outcome: outcome.clone() });
        self.outcome = Some(outcome);
        self.phase = Phase::Over;
    }
}
