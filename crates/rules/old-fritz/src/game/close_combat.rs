//! Close action (sections 5 to 7): the approach, the combat, and its results carried out: withdrawals, routs, pursuits.

use super::*;
use crate::events::{MoveKind, NoAttack, Stop};
use movement::turn_made;

/// One way a runner may take: how far it goes, where it ends, facing which way, whether it
/// leaves the table, why it stops short, whether it crosses an obstacle, how far it set out.
struct RunWay {
    gone: f64,
    end: Point,
    face: f64,
    fled: bool,
    stop: Option<Stop>,
    obstacle: bool,
    ordered: f64,
}

impl Battle {
    pub(super) fn carry_out_results(&mut self, events: &mut Vec<Event>) {
        // Runners first, then withdrawing units, then pursuers, who follow where their enemy went.
        for i in 0..self.units.len() {
            let why = match self.units[i].state {
                State::Running => "running".to_string(),
                State::Withdrawing => "withdrawing".to_string(),
                State::Pursuing { target } => format!("pursuing {}", self.name(usize::from(target))),
                _ => continue,
            };
            self.decide(i, NoAttack::NotInOrder { state: why });
        }
        for i in 0..self.units.len() {
            if self.units[i].state == State::Running {
                self.run(i, events);
            }
        }
        for i in 0..self.units.len() {
            if self.units[i].state != State::Withdrawing {
                continue;
            }
            // Guns limber before they move: an unlimbered battery spends the bound limbering up
            // (a bound for medium guns, the first of two for heavy) and withdraws no farther.
            if self.units[i].kind.is_guns() && !self.units[i].limbered {
                let name = self.name(i).to_string();
                let u = &mut self.units[i];
                u.busy = u.kind.data().limber_bounds - 1.0;
                if u.busy <= 0.0 {
                    u.busy = 0.0;
                    u.limbered = true;
                }
                u.state = State::Steady;
                u.acted = true;
                u.engage = None;
                let (bounds, done) = (u.kind.data().limber_bounds, u.limbered);
                events.push(Event::Withdrew { unit: name.clone(), path: None });
                events.push(Event::Limbering { unit: name, up: true, bounds, done, why: "to withdraw".into() });
                continue;
            }
            // A battery beaten while unlimbering withdraws on its limbers: the unlimbering is
            // given up.
            self.units[i].busy = 0.0;
            let u = &self.units[i];
            let mut path = self.path_from(i, 1.0);
            // Half speed: half a trot for cavalry beaten by cavalry, half a walk for cavalry
            // beaten by infantry and for everyone else.
            let rate = match u.kind.arm() {
                Arm::Cavalry if !u.withdraw_walking => u.kind.data().trot / 2.0,
                _ => u.kind.data().walk / 2.0,
            };
            // Back towards its own rear edge — unless that brings it nearer an enemy close by
            // (within its half-speed way and 2½" beyond; one that beat it from its rear
            // quarter): then straight away from the nearest such enemy (the audit at scale: 26
            // withdrawals in 800 battles ended nearer the unit that beat them).
            let back = {
                let rear = self.rear_heading(u.side);
                let shape = u.outline(u.facing, u.formation);
                let body = |at: Point| shape.map(|c| c + at);
                let here = body(u.at);
                let mut close: Vec<(f64, usize)> = self
                    .units_near(u.at, 2.0 * u.radius() + rate + 2.0 * APPROACH + 2.0)
                    .filter(|&j| self.units[j].side != u.side && self.units[j].present())
                    .map(|j| (movement::footprint_gap(&here, &self.units[j].corners()), j))
                    .filter(|&(g, _)| g <= rate + CONTACT)
                    .collect();
                // And the enemies that beat it, wherever they stand now.
                for j in u.beaten_by.iter().map(|&j| usize::from(j)) {
                    if self.units.get(j).is_some_and(|e| e.present()) && !close.iter().any(|c| c.1 == j) {
                        close.push((movement::footprint_gap(&here, &self.units[j].corners()), j));
                    }
                }
                let beat = |j: usize| u.beaten_by.contains(&(j as u16));
                // A gap between two bodies, one moving straight, is convex in the distance gone:
                // if the first step takes it no nearer, no later point does.
                let nearer = |h: f64, winners_only: bool| {
                    let to = body(u.at.toward(h, 0.05_f64.min(rate)));
                    close
                        .iter()
                        .filter(|c| !winners_only || beat(c.1))
                        .any(|&(g, j)| movement::footprint_gap(&to, &self.units[j].corners()) < g - 1e-9)
                };
                // The rear if it goes no nearer any of them, else the heading nearest the rear
                // that does (by 15°, up to square to it); hemmed in, the nearest that goes no
                // nearer those that beat it; else straight away from the nearest of those (or of
                // the others close by).
                let from = close
                    .iter()
                    .filter(|c| beat(c.1))
                    .min_by(|a, b| a.0.total_cmp(&b.0))
                    .or_else(|| close.iter().min_by(|a, b| a.0.total_cmp(&b.0)));
                let ways = [0.0, -15.0, 15.0, -30.0, 30.0, -45.0, 45.0, -60.0, 60.0, -75.0, 75.0, -90.0, 90.0]
                    .map(|d| norm_heading(rear + d));
                ways.iter()
                    .copied()
                    .find(|&h| !nearer(h, false))
                    .or_else(|| ways.iter().copied().find(|&h| !nearer(h, true)))
                    .unwrap_or_else(|| from.map_or(rear, |&(_, j)| heading_to(self.units[j].at, u.at)))
            };
            let mut way = u.at.toward(back, rate);
            if self.crosses_obstacle(u.at, way) {
                // Half the bound goes on crossing the obstacle.
                way = u.at.toward(back, rate / 2.0);
                path.obstacle = true;
            }
            // The wagons get in the way of a withdrawal as of any move (section 10): half speed.
            if self.stat.parks.iter().any(|&(c, h)| segment_meets_box(u.at, way, c, h)) {
                way = u.at.toward(back, u.at.dist(way) / 2.0);
                path.wagons = true;
            }
            let to = self.stat.table.clamp(way);
            let (end, stop) = self.clear_end(i, u.at, to, None, (u.facing, u.formation));
            path.rate = rate;
            path.ordered = u.at.dist(way);
            path.stop = stop.unwrap_or(if to.dist(way) > 1e-9 { Stop::Edge } else { Stop::Arrived });
            self.put(i, end);
            let u = &mut self.units[i];
            u.state = State::Steady;
            u.acted = true;
            u.engage = None;
            u.beaten_by.clear();
            let path = self.path_ended(i, path);
            events.push(Event::Withdrew { unit: self.name(i).to_string(), path: Some(path) });
        }
        for i in 0..self.units.len() {
            let State::Pursuing { target } = self.units[i].state else { continue };
            self.pursue(i, usize::from(target), events);
        }
        for u in &mut self.units {
            u.pursued = false;
        }
    }

    /// Runner `i` runs (section 7): a figure deserting (two if unreliable, or cavalry pursued),
    /// straight for its own rear edge at 20" (cavalry: its trot), half that crossing a linear
    /// obstacle — turning its back to the enemy if it has room to turn, else running as it
    /// faces; veering up to 45° either way, by 15°, if an enemy or ground it cannot cross blocks
    /// the straight way. Off the table if the way to the edge is clear; out of every enemy's
    /// reach, it stops running and rallies. An unlimbered battery limbers up first.
    fn run(&mut self, i: usize, events: &mut Vec<Event>) {
        let u = &self.units[i];
        let rate = match u.kind.arm() {
            Arm::Cavalry => u.kind.data().trot,
            _ => RUN_RATE,
        };
        let heading = self.rear_heading(u.side);
        let pace = if u.kind.arm() == Arm::Cavalry { "its trot" } else { "running infantry's rate" };
        let inches = |x: f64| if x.fract() == 0.0 { format!("{x:.0}\"") } else { format!("{x:.1}\"") };
        let (deserted, why): (u8, &str) = if !u.deserts {
            (0, "the cavalry-against-infantry table gives no desertion")
        } else if u.unreliable {
            (2, "two a bound: unreliable troops")
        } else if u.kind.arm() == Arm::Cavalry && u.pursued {
            (2, "two a bound: pursued")
        } else {
            (1, "one a bound by desertion")
        };
        let name = self.name(i).to_string();
        let mut path = self.path_from(i, 1.0);
        let u = &mut self.units[i];
        u.figures = u.figures.saturating_sub(u16::from(deserted));
        u.acted = true;
        u.engage = None;
        if u.figures == 0 {
            events.push(Event::Ran { unit: name.clone(), deserted, why: why.into(), way: String::new(), path: None });
            u.state = State::Gone(Fate::Destroyed);
            events.push(Event::Gone { unit: name, fate: Fate::Destroyed });
            return;
        }
        if u.kind.is_guns() && !u.limbered {
            // Guns limber before they move, running or not: the bound goes on limbering up.
            if u.busy <= 0.0 {
                u.busy = u.kind.data().limber_bounds;
            }
            u.busy -= 1.0;
            if u.busy <= 0.0 {
                u.busy = 0.0;
                u.limbered = true;
            }
            let (bounds, done) = (u.kind.data().limber_bounds, u.limbered);
            let way = "nowhere yet: its guns limber up first".to_string();
            events.push(Event::Ran { unit: name.clone(), deserted, why: why.into(), way, path: None });
            events.push(Event::Limbering { unit: name, up: true, bounds, done, why: "to run".into() });
            return;
        }
        // A battery beaten while unlimbering runs on its limbers: the unlimbering is given up.
        u.busy = 0.0;
        let (from, facing, formation) = (u.at, u.facing, u.formation);
        // The straight way first; if it is cut short, 15°, 30° and 45° to either side, the
        // first clear one, else the longest.
        let mut best: Option<RunWay> = None;
        for off in [0.0, -15.0, 15.0, -30.0, 30.0, -45.0, 45.0] {
            let h = norm_heading(heading + off);
            let face =
                if self.turn_blocked(i, from, (facing, formation), (h, formation)).is_none() { h } else { facing };
            let mut to = from.toward(h, rate);
            let obstacle = self.crosses_obstacle(from, to);
            if obstacle {
                to = from.toward(h, rate / 2.0);
            }
            let (edge, leaves) = clip_to_table(&self.stat, from, to);
            let (end, stop) = self.clear_end(i, from, edge, None, (face, formation));
            let d = end.dist(from);
            let clear = stop.is_none();
            if best.as_ref().is_none_or(|b| d > b.gone + 1e-9) {
                best =
                    Some(RunWay { gone: d, end, face, fled: leaves && clear, stop, obstacle, ordered: from.dist(to) });
            }
            if clear {
                break;
            }
        }
        let Some(RunWay { end, face, fled, stop, obstacle, ordered, .. }) = best else { return };
        let way = if obstacle {
            format!("up to {} (half of {pace} {}, crossing an obstacle)", inches(rate / 2.0), inches(rate))
        } else {
            format!("up to {} ({pace})", inches(rate))
        };
        if face != facing {
            path.turns.push(turn_made(facing, face, 0.0));
        }
        path.rate = rate;
        path.moving = face;
        path.ordered = ordered;
        path.obstacle = obstacle;
        path.stop = stop.unwrap_or(if fled { Stop::Edge } else { Stop::Arrived });
        self.units[i].facing = face;
        self.put(i, end);
        let path = self.path_ended(i, path);
        events.push(Event::Ran { unit: name.clone(), deserted, why: why.into(), way, path: Some(path) });
        if fled {
            self.units[i].state = State::Gone(Fate::Fled);
            events.push(Event::Gone { unit: name, fate: Fate::Fled });
            return;
        }
        let side = self.units[i].side;
        let clear = self
            .units_near(end, RUN_RATE + 1e-6)
            .map(|j| &self.units[j])
            .all(|e| e.side == side || !e.in_order() || e.at.dist(end) > RUN_RATE);
        if clear {
            // Rallied, it turns to face the enemy again if it has room.
            let front = norm_heading(heading + 180.0);
            let u = &self.units[i];
            let turned = (self.turn_blocked(i, end, (u.facing, u.formation), (front, u.formation)).is_none()
                && u.facing != front)
                .then(|| turn_made(u.facing, front, 0.0));
            let u = &mut self.units[i];
            u.state = State::Rallying;
            if turned.is_some() {
                u.facing = front;
            }
            events.push(Event::StoppedRunning { unit: name, turned });
        }
    }

    /// Pursuer `i` follows enemy `t` (section 7): turned to follow it (part of the pursuit, no
    /// cost, if it has room to turn), straight for it at its own rate (cavalry at the trot, half
    /// that crossing a linear obstacle) until 2½" from its body; then it takes up its orders.
    fn pursue(&mut self, i: usize, t: usize, events: &mut Vec<Event>) {
        let mut path = self.path_from(i, 1.0);
        let u = &self.units[i];
        let present = self.units.get(t).is_some_and(Unit::present);
        // An enemy that ran off the table this bound is followed its bound's way to the edge
        // (section 7, interpretation 6: the second reading's OF2-17 (a)).
        let fled = self.units.get(t).is_some_and(|x| x.state == State::Gone(Fate::Fled));
        if present || fled {
            let want = movement::settle(u.facing, heading_to(u.at, self.units[t].at));
            // Cavalry pursue at the trot going straight on; trotting cavalry may not change
            // direction at all (section 4), so a pursuer that turns to follow walks.
            let rate = if u.kind.arm() == Arm::Cavalry && turn(u.facing, want).abs() < STRAIGHT {
                u.kind.data().trot
            } else {
                u.kind.data().walk
            };
            if let Some(j) = self.turn_blocked(i, u.at, (u.facing, u.formation), (want, u.formation)) {
                path.stop = Stop::NoRoomToTurn { unit: self.name(j).to_string() };
                self.units[i].no_room = true;
            } else {
                if want != u.facing {
                    path.turns.push(turn_made(u.facing, want, 0.0));
                }
                let reach = if present {
                    self.approach_reach(i, u.at, want, u.formation, t)
                } else {
                    // Where the runner left the table, its body kept on it.
                    (u.at.dist(self.units[t].at) - u.depth() / 2.0).max(0.0)
                };
                let went = self.advance(i, (want, u.formation), 1.0, rate, reach, present.then_some(t));
                path.went(rate, &went);
                if path.stop == Stop::Arrived {
                    path.stop = if present { Stop::Reached { unit: self.name(t).to_string() } } else { Stop::Edge };
                }
                self.units[i].facing = want;
                self.put(i, went.to);
            }
        } else {
            path.stop = Stop::NoEnemy;
        }
        let u = &mut self.units[i];
        u.state = State::Steady;
        u.acted = true;
        u.engage = None;
        // A pursuit is told even where it goes nowhere (its enemy gone, or already 2½" off).
        let target = self.name(t).to_string();
        let path = self.path_ended(i, path);
        events.push(Event::Moved { unit: self.name(i).to_string(), what: MoveKind::Pursue { target }, path });
    }

    /// Attackers that won and have a good part of their move left finish it where the enemy no
    /// longer stands in the way (it disintegrated, surrendered or was destroyed).
    pub(super) fn finish_moves(&mut self, combats: &[(usize, Vec<usize>)], events: &mut Vec<Event>) {
        for (defender, attackers) in combats {
            if self.units[*defender].present() {
                continue;
            }
            for &a in attackers {
                let u = &self.units[a];
                if u.state == State::Steady && !u.hold_here && u.move_left >= MOVE_ON {
                    let left = u.move_left;
                    self.march_with(a, left, MoveKind::Finish, events);
                }
            }
        }
        for u in &mut self.units {
            u.move_left = 0.0;
        }
    }

    /// The enemy unit `i` goes for this bound, if any: the one it reached last bound, else, under
    /// an order to attack, the nearest enemy (not running) near the order's place or near the
    /// unit — unless it has [`TIRED`] greens, or is in its wing's second line while the first
    /// line still has fresh units in good order.
    pub fn attack_target(&self, i: usize) -> Option<usize> {
        let u = &self.units[i];
        if u.state != State::Steady || u.hold_here || u.kind.is_guns() {
            return None;
        }
        if let Some(t) = u.engage {
            let t = usize::from(t);
            if self.units.get(t).is_some_and(|e| e.present() && e.state != State::Running) {
                return Some(t);
            }
        }
        let Order::Attack { at } = u.order else { return None };
        if u.greens >= TIRED {
            return None;
        }
        // Successive waves: the second line goes in once the first is spent.
        if u.second_line
            && self.units.iter().any(|f| f.wing == u.wing && !f.second_line && f.in_order() && f.greens < TIRED)
        {
            return None;
        }
        // Those near the order's place and those near the unit, in index order, once each.
        let near = if self.index.is_some() {
            let mut near: Vec<usize> =
                self.units_near(at, ATTACK_RADIUS).chain(self.units_near(u.at, ENGAGE_NEAR)).collect();
            near.sort_unstable();
            near.dedup();
            Near::Listed(near.into_iter())
        } else {
            Near::All(0..self.units.len())
        };
        near.map(|j| (j, &self.units[j]))
            .filter(|(_, e)| {
                e.side != u.side
                    && e.present()
                    && e.state != State::Running
                    && (e.at.dist(at) <= ATTACK_RADIUS || e.at.dist(u.at) <= ENGAGE_NEAR)
            })
            .map(|(j, e)| (j, e.at.dist(u.at) + SWING * turn(u.facing, heading_to(u.at, e.at)).abs()))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(j, _)| j)
    }

    /// Unit `i` goes for enemy `t`: turns to face it (if it has room), approaches to 2½" and
    /// engages if the bound allows, else engages next bound. A grouping is of one arm: a unit
    /// that reaches an enemy a grouping of the other arm fights this bound engages it next bound.
    pub(super) fn attack(
        &mut self,
        i: usize,
        t: usize,
        combats: &mut Vec<(usize, Vec<usize>)>,
        events: &mut Vec<Event>,
    ) {
        let (u, e) = (&self.units[i], &self.units[t]);
        let mut path = self.path_from(i, 1.0);
        let mut budget = 1.0;
        let want = movement::settle(u.facing, heading_to(u.at, e.at));
        let wheel = turn_cost(u.facing, want);
        // An attack goes in line: a column forms line first (half a bound), unless its wheel
        // takes the whole bound — then it wheels this bound and forms line the next.
        let mut formation = u.formation;
        if formation == Formation::Column && wheel + cost::FORMATION <= 1.0 {
            formation = Formation::Line;
        }
        let mut facing = u.facing;
        let mut stop = None;
        if want != u.facing || formation != u.formation {
            if let Some(j) = self.turn_blocked(i, u.at, (u.facing, u.formation), (want, formation)) {
                // No room to turn: it stands as it is (within 2½" of its enemy already, it
                // engages as it stands: the text asks only that the two be within 2½").
                formation = u.formation;
                stop = Some(Stop::NoRoomToTurn { unit: self.name(j).to_string() });
                self.units[i].no_room = true;
            } else {
                if formation != u.formation {
                    budget -= cost::FORMATION;
                }
                if want != u.facing {
                    path.turns.push(turn_made(u.facing, want, wheel));
                }
                budget -= wheel;
                facing = want;
            }
        }
        let u = &self.units[i];
        // Trotting cavalry may not change direction at all, not even by an incline.
        let trot = turn(u.facing, facing).abs() < STRAIGHT && u.kind.data().trot > 0.0;
        // The approach is body to body: the attacker goes straight for the enemy until the gap
        // between their footprints is 2½" (whatever the angle: a line's flank reaches out).
        let target = self.units[t].corners();
        let shape = u.outline(facing, formation);
        let mut at = u.at;
        let now = movement::footprint_gap(&shape.map(|c| c + at), &target);
        if stop.is_none() {
            if now <= REACHED {
                stop = Some(Stop::Reached { unit: self.name(t).to_string() });
            } else if budget > 1e-9 {
                let rate = if trot { u.kind.data().trot } else { u.kind.data().walk };
                let reach = self.approach_reach(i, at, facing, formation, t);
                let went = self.advance(i, (facing, formation), budget, rate, reach, Some(t));
                at = went.to;
                budget -= went.used;
                path.went(rate, &went);
                stop = Some(if went.stop == Stop::Arrived {
                    Stop::Reached { unit: self.name(t).to_string() }
                } else {
                    went.stop
                });
            } else {
                stop = Some(Stop::Spent);
            }
        }
        if let Some(s) = stop {
            path.stop = s;
        }
        let reached = movement::footprint_gap(&shape.map(|c| c + at), &target) <= REACHED;
        let u = &mut self.units[i];
        u.acted = u.acted || at != u.at || facing != u.facing || formation != u.formation;
        u.facing = facing;
        u.formation = formation;
        self.put(i, at);
        let name = self.name(t).to_string();
        self.tell_move(i, MoveKind::Attack { target: name }, path, events);
        let mounted = |k: usize| self.units[k].kind.arm() == Arm::Cavalry;
        if !reached {
            self.units[i].engage = None;
            return;
        }
        // Engaging takes half a bound; without it the combat is fought next bound. So it is
        // when the enemy fights elsewhere this bound, or a grouping of the other arm fights it:
        // the results tables are of infantry against infantry, cavalry against cavalry and
        // cavalry against infantry, and a grouping reads one of them.
        let defender_busy = combats.iter().any(|(_, atk)| atk.contains(&t));
        let other_arm = combats
            .iter()
            .find(|(d, _)| *d == t)
            .and_then(|(_, atk)| atk.first())
            .is_some_and(|&lead| mounted(lead) != mounted(i));
        let u = &mut self.units[i];
        if budget + 1e-9 >= cost::ENGAGE && !defender_busy && !other_arm && !combats.iter().any(|(d, _)| *d == i) {
            u.engage = None;
            u.acted = true;
            u.move_left = (budget - cost::ENGAGE).max(0.0);
            match combats.iter_mut().find(|(d, _)| *d == t) {
                Some((_, atk)) => atk.push(i),
                None => combats.push((t, vec![i])),
            }
        } else {
            u.engage = Some(t as u16);
        }
    }

    /// The close combat situation of `attackers` (the first leading) against `defender`.
    pub fn situation(&self, defender: usize, attackers: &[usize]) -> Option<Situation> {
        let lead = *attackers.first()?;
        let d = self.units.get(defender)?;
        let l = self.units.get(lead)?;
        let mut a = l.combatant();
        let figures: u32 = attackers.iter().filter_map(|&k| self.units.get(k)).map(|x| u32::from(x.figures)).sum();
        let start: u32 = attackers.iter().filter_map(|&k| self.units.get(k)).map(|x| u32::from(x.figures_start)).sum();
        a.figures = figures.clamp(1, u32::from(u16::MAX)) as u16;
        a.figures_at_start = Some(start.clamp(1, u32::from(u16::MAX)) as u16);
        a.in_cover = self.stat.table.in_soft_cover(l.at);
        let mut def = d.combatant();
        let front: f64 = attackers.iter().filter_map(|&k| self.units.get(k)).map(Unit::frontage).sum();
        def.overlapped = front > d.frontage() + 0.05;
        a.overlapped = d.frontage() > front + 0.05;
        let fwd = volley_table::unit(d.facing);
        def.enemy_to_rear =
            attackers.iter().filter_map(|&k| self.units.get(k)).any(|x| (x.at - d.at).dot(fwd) < -d.depth() / 2.0);
        // And an attacker that had no room to turn and engages an enemy behind it (the audit at
        // scale, its finding 7): the leader's additions are the grouping's.
        a.enemy_to_rear = (d.at - l.at).dot(volley_table::unit(l.facing)) < -l.depth() / 2.0;
        def.in_cover = self.stat.table.cover(d.at, l.at) != volley_table::Cover::Open;
        // The grouping's other battalions fire their own shares of its casualty test.
        let attacker_group = attackers[1..]
            .iter()
            .filter_map(|&k| self.units.get(k))
            .map(|x| combat::Battalion { quality: x.quality, figures: x.figures.max(1), greens: x.greens })
            .collect();
        Some(Situation { attacker: a, defender: def, attacker_group })
    }

    /// Fight the close combat of `attackers` against `defender`; returns the attackers that
    /// fought it (none if it was not fought).
    pub(super) fn close_combat(
        &mut self,
        defender: usize,
        attackers: &[usize],
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<Vec<usize>, ApplyError> {
        if !self.units[defender].present() || attackers.iter().any(|&a| !self.units[a].present()) {
            return Ok(Vec::new());
        }
        // The forces fight within 2½" of each other (section 5a). A line narrows about its
        // centre as it loses figures, so a bombardment between the approach and the combat may
        // leave an attacker beyond 2½" of its enemy (on a flank most of all): that one does not
        // come to grips this bound; it closes again and engages next bound.
        let dbody = self.units[defender].corners();
        let (attackers, beyond): (Vec<usize>, Vec<usize>) =
            attackers.iter().partition(|&&k| movement::footprint_gap(&self.units[k].corners(), &dbody) <= REACHED);
        for &k in &beyond {
            let enemy = self.name(defender).to_string();
            self.decided[k] = Some(Decided::Not(NoAttack::Narrowed { enemy }));
            let u = &mut self.units[k];
            u.engage = Some(defender as u16);
            u.move_left = 0.0;
        }
        // A grouping fires one casualty test: no more units join it than that test's dice
        // allow (the others do not come to grips with this defender this bound).
        let (mut firing, mut dice) = (0u32, 0u32);
        let attackers: Vec<usize> = attackers
            .into_iter()
            .enumerate()
            .take_while(|&(n, k)| {
                firing += u32::from(self.units[k].figures);
                dice += u32::from(combat::casualty_dice(self.units[k].figures.max(1)));
                n == 0 || (firing <= u32::from(combat::MAX_FIRING_FIGURES) && dice <= combat::MAX_TEST_DICE as u32)
            })
            .map(|(_, k)| k)
            .collect();
        let attackers = attackers.as_slice();
        let Some(s) = self.situation(defender, attackers) else { return Ok(Vec::new()) };
        let names: Vec<String> = attackers.iter().map(|&a| self.name(a).to_string()).collect();
        let dname = self.name(defender).to_string();
        let res = s.resolve_named(chance, &names.join(" and "), &dname).map_err(calc_to_apply)?;
        let fighters = attackers
            .iter()
            .map(|&k| (k, true))
            .chain([(defender, false)])
            .map(|(k, attacker)| {
                let u = &self.units[k];
                let body = u.corners();
                crate::events::Fighter {
                    unit: self.name(k).to_string(),
                    attacker,
                    arm: u.kind.arm(),
                    quality: u.quality,
                    figures: u.figures,
                    figures_start: u.figures_start,
                    greens: u.greens,
                    frontage: u.frontage(),
                    at: u.at,
                    facing: u.facing,
                    body,
                    gap: if attacker { volley_table::convex_distance(&body, &dbody) } else { 0.0 },
                }
            })
            .collect();
        for &k in attackers.iter().chain([&defender]) {
            let u = &mut self.units[k];
            u.in_combat = true;
            u.acted = true;
            u.engage = None;
        }
        events.push(Event::CloseCombat {
            attackers: names,
            defender: dname,
            resolution: Box::new(res.clone()),
            fighters,
        });
        let table = res.table;
        // Take the results: greens and casualties on every unit of a grouping (casualties in turn).
        self.take(attackers, res.attacker.greens, res.attacker.casualties + res.attacker.test_casualties, events);
        self.take(&[defender], res.defender.greens, res.defender.casualties + res.defender.test_casualties, events);
        let groups: [(&[usize], &combat::Effect); 2] = [(attackers, &res.attacker), (&[defender], &res.defender)];
        let sides = [attackers.to_vec(), vec![defender]];
        // Every unit's reaction first (so a pursuer knows whether its enemy disintegrated), then
        // the pursuits.
        for (g, (units, result)) in groups.into_iter().enumerate() {
            for &k in units {
                if !self.units[k].present() {
                    continue;
                }
                match result.reaction {
                    Reaction::Withdraw => {
                        self.units[k].state = State::Withdrawing;
                        self.units[k].beaten_by = sides[1 - g].iter().map(|&e| e as u16).collect();
                        self.units[k].withdraw_walking = table == Table::CavalryVsInfantry;
                    }
                    Reaction::RunAway => {
                        self.units[k].state = State::Running;
                        self.units[k].deserts = table != Table::CavalryVsInfantry;
                    }
                    Reaction::Disintegrate => self.disintegrate(k, table, events),
                    _ => {}
                }
            }
        }
        for g in 0..2 {
            let (units, result) = groups[g];
            let (enemy, eres) = (&sides[1 - g], if g == 0 { &res.defender } else { &res.attacker });
            self.follow_result(table, units, result, enemy, eres, &s, g == 0, chance, events)?;
        }
        Ok(attackers.to_vec())
    }

    /// Green counters and casualties on a grouping: greens on each, casualties one at a time
    /// from the first.
    pub(super) fn take(&mut self, units: &[usize], greens: u8, casualties: u8, events: &mut Vec<Event>) {
        let alive: Vec<usize> = units.iter().copied().filter(|&k| self.units[k].present()).collect();
        for &k in &alive {
            self.hit(k, 0, greens, events);
        }
        for c in 0..usize::from(casualties) {
            if let Some(&k) = alive.get(c % alive.len().max(1)) {
                self.hit(k, 1, 0, events);
            }
        }
    }

    /// [`Battle::take`] for what pursuit costs, told first: `why` in the results table's words.
    fn losses(
        &mut self,
        units: &[usize],
        why: &str,
        table: Table,
        greens: u8,
        casualties: u8,
        events: &mut Vec<Event>,
    ) {
        let names: Vec<&str> = units.iter().filter(|&&k| self.units[k].present()).map(|&k| self.name(k)).collect();
        if !names.is_empty() {
            events.push(Event::PursuitLosses {
                unit: names.join(" and "),
                why: format!("{why} ({})", table.name()),
                greens,
                casualties,
                test: Vec::new(),
            });
        }
        self.take(units, greens, casualties, events);
    }

    /// The pursuit that follows a beaten enemy, for a winning grouping: the pursuit test where
    /// the row calls for one, and what being pursued costs the enemy.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn follow_result(
        &mut self,
        table: Table,
        units: &[usize],
        result: &combat::Effect,
        enemy: &[usize],
        eres: &combat::Effect,
        s: &Situation,
        attacking: bool,
        chance: &mut dyn Chance,
        events: &mut Vec<Event>,
    ) -> Result<(), ApplyError> {
        // Pursuit, for the winner's grouping.
        let pursuer_rows = matches!(result.reaction, Reaction::Pursue | Reaction::Unaffected);
        if !pursuer_rows || result.score < 4 {
            return Ok(());
        }
        let me = if attacking { &s.attacker } else { &s.defender };
        let loser = eres.reaction;
        // Cavalry beating cavalry choose: a unit under orders to attack follows up a withdrawing
        // enemy and pursues a running one; any other declines — freely against a withdrawing
        // enemy ("if the unit follows up"), and against a running or dispersed one only if it
        // passes a pursuit test (pursuit is then "not required").
        let attacking = units.first().is_some_and(|&k| matches!(self.units[k].order, Order::Attack { .. }));
        let (test, must) = match table {
            Table::InfantryVsInfantry => (loser == Reaction::RunAway, false),
            Table::CavalryVsCavalry => match loser {
                Reaction::Withdraw => (false, attacking),
                Reaction::RunAway => (!attacking, attacking),
                _ => (true, false),
            },
            Table::CavalryVsInfantry => (me.arm == Arm::Cavalry, false),
        };
        let mut pursue = must;
        // The units this test keeps under control: it holds for this test only, so a unit kept
        // by an earlier one and failing this one pursues.
        let mut kept = Vec::new();
        if test {
            for &k in units {
                // A battery does not pursue: its guns would have to limber first.
                if !self.units[k].present() || self.units[k].kind.is_guns() {
                    continue;
                }
                let name = self.name(k).to_string();
                let die = chance.draw(&DrawKind::Die { sides: 10 }, &format_args!("{name}'s pursuit test: d10"))? as u8;
                let against_routing = self.units[k].kind.arm() == Arm::Cavalry
                    && table == Table::CavalryVsCavalry
                    && matches!(loser, Reaction::RunAway | Reaction::Disintegrate);
                let u = self.units[k].combatant();
                let addition = pursuit_addition(&u, against_routing);
                let needs = pursuit_needs(u.arm);
                let under_control = i32::from(die) + addition >= needs;
                let additions = combat::pursuit_terms(&u, against_routing);
                events.push(Event::PursuitTest { unit: name, die, addition, additions, needs, under_control });
                if under_control {
                    self.units[k].hold_here = true;
                    kept.push(k);
                } else {
                    pursue = true;
                }
            }
        }
        if !pursue {
            return Ok(());
        }
        let Some(&target) = enemy.iter().find(|&&e| self.units[e].present()) else {
            // The enemy disintegrated: pursuing cavalry scatter after it (cavalry tables).
            if table != Table::InfantryVsInfantry {
                for &k in units {
                    if self.units[k].present() && self.units[k].kind.arm() == Arm::Cavalry {
                        self.units[k].state = State::Gone(Fate::Dispersed);
                        events.push(Event::Gone { unit: self.name(k).to_string(), fate: Fate::Dispersed });
                    }
                }
            }
            return Ok(());
        };
        for &k in units {
            let u = &self.units[k];
            if !u.present() || kept.contains(&k) || u.kind.is_guns() {
                continue;
            }
            self.units[k].state = State::Pursuing { target: target as u16 };
            events.push(Event::Pursues { unit: self.name(k).to_string(), target: self.name(target).to_string() });
        }
        // What being pursued costs the beaten enemy, and following up costs the pursuer.
        match (table, loser) {
            (Table::InfantryVsInfantry, Reaction::RunAway) => {
                // The pursuer fires as it stood before the combat (its greens then), at a
                // routing enemy.
                let firer = if attacking { s.attacker } else { s.defender };
                let n = casualty_dice(firer.figures);
                let cover = s_target_cover(s, attacking);
                let add = casualty_addition(&firer, TargetState::Routing, cover);
                let mut score = add;
                let mut dice = Vec::with_capacity(usize::from(n));
                for d in 0..n {
                    let tn = self.name(target).to_string();
                    let die = chance.draw(
                        &DrawKind::Die { sides: 10 },
                        &format_args!("casualty test against {tn}, pursued: d10 {} of {n}", d + 1),
                    )? as i32;
                    score += die;
                    dice.push(die as u8);
                }
                let casualties = casualties_for(score);
                events.push(Event::PursuitLosses {
                    unit: self.name(target).to_string(),
                    why: format!("pursued while running away ({})", table.name()),
                    greens: 0,
                    casualties,
                    test: vec![combat::TestShare {
                        figures: firer.figures,
                        dice,
                        additions: combat::casualty_terms(&firer, TargetState::Routing, cover),
                    }],
                });
                self.take(&[target], 0, casualties, events);
            }
            (Table::CavalryVsCavalry, Reaction::Withdraw) => {
                self.losses(&[target], "pursued while withdrawing", table, 1, 1, events);
                self.losses(units, "following up a withdrawing enemy", table, 0, 1, events);
            }
            (Table::CavalryVsCavalry, Reaction::RunAway) => self.units[target].pursued = true,
            (Table::CavalryVsInfantry, Reaction::Withdraw) => {
                if self.units[target].present() {
                    self.units[target].state = State::Running;
                }
                self.losses(&[target], "pursued while withdrawing: runs away instead", table, 2, 2, events);
            }
            (Table::CavalryVsInfantry, Reaction::RunAway) => {
                self.losses(&[target], "pursued while running away", table, 1, 1, events);
            }
            _ => {}
        }
        Ok(())
    }

    /// A unit disintegrates: it surrenders if surrounded; unreliable foreigners (infantry
    /// table) change sides with a casualty and two greens; otherwise it is dispersed.
    pub(super) fn disintegrate(&mut self, k: usize, table: Table, events: &mut Vec<Event>) {
        let name = self.name(k).to_string();
        if self.units[k].foreign && table == Table::InfantryVsInfantry {
            let to = 1 - self.units[k].side;
            let at = self.units[k].at;
            let wing = self
                .wing_centres()
                .iter()
                .enumerate()
                .filter(|(w, c)| self.stat.wings[*w].side == to && c.is_some())
                .min_by(|a, b| {
                    let (da, db) = (a.1.map_or(f64::MAX, |p| p.dist(at)), b.1.map_or(f64::MAX, |p| p.dist(at)));
                    da.total_cmp(&db)
                })
                .map(|(w, _)| w as u16);
            if let Some(w) = wing {
                let order = self.wings[usize::from(w)].order;
                let seq = self.wings[usize::from(w)].seq;
                let u = &mut self.units[k];
                u.side = to;
                u.wing = w;
                u.state = State::Rallying;
                u.order = order;
                u.order_seq = seq.wrapping_sub(1);
                events.push(Event::ChangedSides { unit: name, to: self.stat.sides[usize::from(to)].clone() });
                // It turns about to face its old side, if it has room to.
                let u = &self.units[k];
                let about = norm_heading(u.facing + 180.0);
                if self.turn_blocked(k, u.at, (u.facing, u.formation), (about, u.formation)).is_none() {
                    let mut path = self.path_from(k, 1.0);
                    path.turns.push(turn_made(u.facing, about, 0.0));
                    self.units[k].facing = about;
                    self.tell_move(k, MoveKind::ChangedSides, path, events);
                }
                self.take(&[k], 2, 1, events);
                return;
            }
        }
        let fate = if self.surrounded(k) { Fate::Surrendered } else { Fate::Dispersed };
        self.units[k].state = State::Gone(fate);
        events.push(Event::Gone { unit: name, fate });
    }

    /// Enemies in good order within [`SURROUND_RADIUS`] in at least three of the unit's four
    /// quarters (front, right, rear, left).
    pub fn surrounded(&self, k: usize) -> bool {
        let u = &self.units[k];
        let mut quarters = [false; 4];
        for e in self
            .units_near(u.at, SURROUND_RADIUS)
            .map(|j| &self.units[j])
            .filter(|e| e.side != u.side && e.in_order() && e.at.dist(u.at) <= SURROUND_RADIUS)
        {
            let rel = norm_heading(turn(u.facing, heading_to(u.at, e.at)) + 45.0);
            quarters[((rel / 90.0) as usize).min(3)] = true;
        }
        quarters.iter().filter(|&&q| q).count() >= 3
    }
}

/// An attacker whose body is this near its enemy's has come within 2½" of it (section 5a): 2½"
/// exactly, give or take the rounding of the arithmetic (a millionth of an inch), since the
/// approach stops where the gap is down to 2½" (`Battle::approach_reach`).
pub const REACHED: f64 = APPROACH + 1e-6;

/// Two enemies this near each other, body to body, stand in contact (the close-combat distance,
/// with the approach's tolerance).
pub const CONTACT: f64 = APPROACH + 0.05;

impl Battle {
    /// Enemies standing within 2½" of each other at the end of the bound with no close combat
    /// between them this bound are told, each with why it does not attack the other (if the
    /// engine knows why: a pair it cannot explain is left untold).
    pub(super) fn tell_contacts(&self, fought: &[(usize, Vec<usize>)], events: &mut Vec<Event>) {
        // Half the frontage and half the depth: no less than the half-diagonal.
        let diag = |u: &Unit| u.radius() + u.depth() / 2.0;
        for a in 0..self.units.len() {
            let x = &self.units[a];
            if !x.present() {
                continue;
            }
            let xr = diag(x);
            for b in self.units_near(x.at, xr + 1.5 * self.reach() + CONTACT + 0.1) {
                let y = &self.units[b];
                if b <= a || y.side == x.side || !y.present() || x.at.dist(y.at) > xr + diag(y) + CONTACT {
                    continue;
                }
                let Some(gap) = movement::gap_under(&x.corners(), &y.corners(), CONTACT + 1e-9) else { continue };
                if fought.iter().any(|(d, atk)| (*d == a && atk.contains(&b)) || (*d == b && atk.contains(&a))) {
                    continue;
                }
                if let (Some(wa), Some(wb)) = (self.no_attack(a, b, fought), self.no_attack(b, a, fought)) {
                    events.push(Event::Contact {
                        units: [self.name(a).to_string(), self.name(b).to_string()],
                        why: [wa, wb],
                        gap,
                    });
                }
            }
        }
    }

    /// Why unit `a` does not attack enemy `b` standing beside it, at the end of a bound in which
    /// `fought` were the close combats (defender, attackers): as it decided when it moved.
    fn no_attack(&self, a: usize, b: usize, fought: &[(usize, Vec<usize>)]) -> Option<NoAttack> {
        let x = &self.units[a];
        let name = |k: usize| self.name(k).to_string();
        if !x.present() {
            return None;
        }
        if let Some((d, atk)) = fought.iter().find(|(d, atk)| *d == a || atk.contains(&a)) {
            let enemy = if *d == a { atk.first().copied()? } else { *d };
            return Some(NoAttack::FoughtOther { enemy: name(enemy) });
        }
        let mounted = |k: usize| self.units[k].kind.arm() == Arm::Cavalry;
        match self.decided.get(a)?.as_ref()? {
            Decided::Attacked(t) if *t == b => Some(if x.engage == Some(b as u16) {
                let other_arm = fought
                    .iter()
                    .find(|(d, _)| *d == b)
                    .and_then(|(_, atk)| atk.first())
                    .is_some_and(|&lead| mounted(lead) != mounted(a));
                if other_arm { NoAttack::OtherArm } else { NoAttack::Engaged }
            } else if x.no_room {
                NoAttack::NoRoomToTurn
            } else {
                NoAttack::CameUp
            }),
            Decided::Attacked(t) => Some(NoAttack::GoesFor { enemy: name(*t) }),
            Decided::Not(why) => Some(why.clone()),
        }
    }
}
