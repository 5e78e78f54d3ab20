//! How the heuristic computer player values an action.
//!
//! * Attacks: the expected Strength Points taken, from the exact chance of a hit (a table worked
//!   out once), worth more when it would destroy the unit, and more again for a General.
//! * Moves: a fresh side closes on the enemy (or on objectives it does not hold when the
//!   battle is decided by them), preferring to end where it can attack next turn and in cover;
//!   units with few Strength Points and all units of an exhausted side keep their distance;
//!   guns and machine guns keep out of the enemy's reach while they can shoot.
//! * The initiative winner goes first.

use volley_core::{Heuristic, SideId};
use volley_table::grid::{Area, Dir, in_arc};

use crate::combat::hit_chances;
use crate::game::{Action, Battle};
use crate::model::Kind;
use crate::occupancy::{Nearest, Occupancy};

/// Worth of one Strength Point taken.
const SP: f64 = 10.0;
/// Extra worth of destroying a unit.
const DESTROY: f64 = 5.0;
/// Worth of one area closer to the enemy or an objective.
const CLOSE: f64 = 1.0;
/// Worth of ending in cover.
const COVER: f64 = 1.5;
/// Cost of leaving an objective one's side holds.
const HOLD: f64 = 4.0;

/// What the scores of one side's moves share, worked out once for all of them.
struct Survey<'a> {
    /// Where the living units stand.
    occ: Occupancy<'a>,
    /// How far each area is from the nearest living enemy.
    enemies: Nearest,
    /// How far each area is from the nearest area of an objective the side does not hold.
    objectives: Nearest,
    /// The indices of the areas of the objectives the side holds, in rising order.
    held: Vec<usize>,
}

impl Battle {
    /// The survey for scoring `side`'s moves.
    fn survey(&self, side: SideId) -> Survey<'_> {
        let grid = &self.stat.grid;
        let objectives = self.stat().objectives.iter().zip(&self.holders);
        let not_held = objectives.clone().filter(|(_, h)| **h != Some(side)).flat_map(|((_, areas), _)| areas);
        let mut held: Vec<usize> = objectives
            .filter(|(_, h)| **h == Some(side))
            .flat_map(|((_, areas), _)| areas.iter().filter_map(|&a| grid.index(a)))
            .collect();
        held.sort_unstable();
        Survey {
            occ: self.occupancy(),
            enemies: self.nearest_enemies(side),
            objectives: Nearest::new(grid, not_held.map(|&a| (a, 0))),
            held,
        }
    }

    fn expected_damage(&self, side: u8, ui: usize, ti: usize) -> f64 {
        let Ok(s) = self.attack_situation(side, ui as u16, ti as u16) else { return 0.0 };
        let n = s.dice_count().unwrap_or(0);
        let (hit, general) = hit_chances(n, s.target, s.target_in_cover, s.general_with_target);
        let t = &self.units[ti];
        let worth = SP + if t.sp == 1 { DESTROY } else { 0.0 } + if t.kind == Kind::General { 2.0 * SP } else { 0.0 };
        hit * worth + general * 3.0 * SP
    }

    /// Whether a unit at `at` (on the grid) facing `facing` would have some enemy in its
    /// weapon's reach: the areas within reach looked at, unless the nearest enemy is further.
    fn threatens(&self, survey: &Survey<'_>, ui: usize, at: Area, facing: Dir) -> bool {
        let u = &self.units[ui];
        let Some(w) = u.weapon else { return false };
        if survey.enemies.get(&self.stat.grid, at).is_none_or(|(d, _)| d > u16::from(w.max_range())) {
            return false;
        }
        survey.occ.within(at, w.max_range()).any(|x| {
            let e = &self.units[x];
            e.side != u.side && e.area != at && in_arc(at, facing, e.area)
        })
    }

    /// A move's worth to its side (a move whose unit or end is off the grid, which no candidate
    /// is, is worth nothing: it has no distances).
    fn score_move(&self, survey: &Survey<'_>, ui: usize, path: &[Area], facing: Dir) -> f64 {
        let u = &self.units[ui];
        let side = u.side;
        let end = path.last().copied().unwrap_or(u.area);
        let grid = &self.stat.grid;
        let nearest_enemy = |a: Area| survey.enemies.get(grid, a).map(|(d, _)| d);
        let (Some(before), Some(after)) = (nearest_enemy(u.area), nearest_enemy(end)) else {
            return 0.0;
        };
        let mut v = 0.0;
        let fragile = u.sp * 2 <= u.sp_start && u.sp_start > 1;
        let keeps_off = matches!(u.kind, Kind::Artillery | Kind::MachineGuns | Kind::Transport | Kind::General);
        let exhausted = self.exhausted[usize::from(side)].is_some();
        let closing = f64::from(before) - f64::from(after);
        if exhausted || fragile {
            v -= CLOSE * closing;
        } else if keeps_off {
            // Guns come within reach but not next to the enemy.
            let reach = u.weapon.map_or(2, |w| u16::from(w.max_range()).min(4));
            if after <= 1 {
                v -= 3.0 * CLOSE;
            } else if after <= reach {
                v += CLOSE;
            } else {
                v += CLOSE * closing * 0.5;
            }
        } else {
            v += CLOSE * closing;
        }
        // Objectives not yet held, when the scenario is decided by them.
        if !self.stat().objectives.is_empty() && !exhausted {
            let obj = |a: Area| survey.objectives.get(grid, a).map(|(d, _)| d);
            if let (Some(a), Some(b)) = (obj(u.area), obj(end)) {
                v += CLOSE * (f64::from(a) - f64::from(b));
            }
        }
        // Cover: worth gaining, and worth keeping.
        v += COVER
            * (f64::from(u8::from(self.stat().terrain(end).cover()))
                - f64::from(u8::from(self.stat().terrain(u.area).cover())));
        // A unit alone on an objective its side holds stays there.
        let on = |a: Area| grid.index(a).is_some_and(|i| survey.held.binary_search(&i).is_ok());
        if on(u.area) && !on(end) && !matches!(u.kind, Kind::General | Kind::Transport) {
            v -= HOLD;
        }
        if self.threatens(survey, ui, end, facing) {
            v += 2.0;
        }
        if path.is_empty() {
            v -= 0.5;
        }
        v
    }
}

impl Battle {
    /// The score of `action`, the surveys of the sides' moves made when first needed.
    fn score_with<'a>(&'a self, surveys: &mut [Option<Survey<'a>>; 2], action: &Action) -> f64 {
        let side = self.acting_side().unwrap_or(0);
        match action {
            Action::Throw => 1.0,
            Action::GoFirst { first } => {
                if *first {
                    1.0
                } else {
                    0.5
                }
            }
            Action::EndHalf => 0.0,
            Action::Attack { unit, target } => {
                1.0 + self.expected_damage(side, usize::from(*unit), usize::from(*target))
            }
            Action::Move { unit, path, facing } => {
                let ui = usize::from(*unit);
                let Some(u) = self.units.get(ui) else { return 0.0 };
                let survey = surveys[usize::from(u.side) & 1].get_or_insert_with(|| self.survey(u.side));
                self.score_move(survey, ui, path, *facing)
            }
        }
    }
}

impl Heuristic for Battle {
    fn score(&self, action: &Action) -> f64 {
        self.score_with(&mut [None, None], action)
    }

    fn scores(&self, actions: &[Action], out: &mut Vec<f64>) {
        let mut surveys = [None, None];
        out.extend(actions.iter().map(|a| self.score_with(&mut surveys, a)));
    }
}

#[cfg(test)]
mod tests {
    use volley_core::GameState;

    #[test]
    fn the_survey_answers_as_the_units_and_objectives_do() {
        // Elands Ridge twice side by side, 60 decisions in: units moved, some perhaps lost, the
        // ridges held or not.
        let path = format!("{}/../../../scenarios/itchy-scratchy/elands-ridge.toml", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let text = volley_scenario::generate::tile(&text, 2).unwrap_or_default();
        let start = crate::load(&volley_scenario::Source::new("tiled", text)).unwrap_or_else(|e| panic!("{e}"));
        let b = volley_ai::advanced(&start, 60, 3).unwrap_or_else(|| panic!("refused"));
        assert!(b.outcome().is_none());
        let grid = &b.stat.grid;
        for side in 0..2 {
            let survey = b.survey(side);
            let objectives = b.stat.objectives.iter().zip(&b.holders);
            for a in grid.areas() {
                let i = grid.index(a).unwrap_or(usize::MAX);
                let held = objectives.clone().any(|((_, areas), h)| *h == Some(side) && areas.contains(&a));
                assert_eq!(survey.held.binary_search(&i).is_ok(), held, "side {side} at {a:?}");
                let unheld = objectives
                    .clone()
                    .filter(|(_, h)| **h != Some(side))
                    .flat_map(|((_, areas), _)| areas.iter().map(|o| o.distance(a)))
                    .min();
                assert_eq!(survey.objectives.get(grid, a).map(|x| x.0), unheld, "side {side} at {a:?}");
                assert_eq!(survey.enemies.get(grid, a).map(|x| x.0), b.nearest_enemy(side, a), "side {side} at {a:?}");
                let here: Vec<usize> =
                    (0..b.units.len()).filter(|&u| b.units[u].alive() && b.units[u].area == a).collect();
                assert_eq!(survey.occ.at(a).iter().map(|&u| usize::from(u)).collect::<Vec<_>>(), here);
            }
        }
        // Some objective is held by one side and not the other by now, so both cases are seen.
        assert!(b.holders.iter().any(Option::is_some), "{:?}", b.holders);
    }
}
