//! Command and control (section 2 of the text): orders to wings, their delays, and units taking them up.

use super::*;

impl Battle {
    /// The centre of each wing's units in good order (its general's post), if it has any.
    pub fn wing_centres(&self) -> Vec<Option<Point>> {
        let mut sum = vec![(Point::default(), 0u32); self.wings.len()];
        for u in self.units.iter().filter(|u| u.in_order()) {
            if let Some(s) = sum.get_mut(usize::from(u.wing)) {
                s.0 = s.0 + u.at;
                s.1 += 1;
            }
        }
        sum.into_iter().map(|(p, n)| (n > 0).then(|| p * (1.0 / f64::from(n)))).collect()
    }

    /// Battalions and cavalry regiments a wing still has: the units an order counts 2 minutes
    /// for (the text names those; batteries are not counted).
    pub fn wing_units(&self, w: usize) -> u32 {
        self.units.iter().filter(|u| u.present() && usize::from(u.wing) == w && u.kind.arm() != Arm::Artillery).count()
            as u32
    }

    /// The minutes and bounds an order to wing `w` takes now.
    pub fn delay(&self, w: usize) -> (u32, u32) {
        let q = self.stat.wings.get(w).map_or(crate::command::General::Average, |x| x.quality);
        order_delay(self.wing_units(w), q)
    }

    pub(super) fn check_order(&self, side: SideId, wing: u16, order: &Order) -> Result<(), Illegal> {
        let w = usize::from(wing);
        let Some(info) = self.stat.wings.get(w) else { return illegal!("there is no wing {wing}") };
        if info.side != side {
            return illegal!("the {} is not yours", info.name);
        }
        if self.wings[w].general_engaged {
            return illegal!("{} is in close combat: he may not send or receive orders", info.general);
        }
        if let Some(p) = order.place()
            && !(p.x.is_finite() && p.y.is_finite() && self.stat.table.contains(p))
        {
            return illegal!("the order's place [{}, {}] is off the table", p.x, p.y);
        }
        Ok(())
    }

    pub(super) fn deliver_orders(&mut self, events: &mut Vec<Event>) {
        let mut waiting = Vec::new();
        for d in std::mem::take(&mut self.dispatches) {
            let w = usize::from(d.wing);
            if d.arrives > self.bound {
                waiting.push(d);
            } else if self.wings[w].general_engaged {
                events.push(Event::OrderWaits { side: self.wing_side_name(w), wing: self.wing_name(w).to_string() });
                waiting.push(d);
            } else {
                self.wings[w].order = d.order;
                self.wings[w].seq += 1;
                events.push(Event::OrderArrives {
                    side: self.wing_side_name(w),
                    wing: self.wing_name(w).to_string(),
                    order: d.order,
                    place: self.place_of(&d.order),
                });
            }
        }
        self.dispatches = waiting;
    }

    /// Units in good order and not in close combat take up their wing's latest order.
    pub(super) fn adopt_orders(&mut self) {
        let centres = self.wing_centres();
        for i in 0..self.units.len() {
            let u = &self.units[i];
            let w = usize::from(u.wing);
            let Some(wing) = self.wings.get(w) else { continue };
            if u.state != State::Steady || u.in_combat || u.engage.is_some() || u.order_seq == wing.seq {
                continue;
            }
            let (order, seq) = (wing.order, wing.seq);
            let c = centres.get(w).copied().flatten();
            let u = &mut self.units[i];
            u.order = order;
            u.order_seq = seq;
            u.hold_here = false;
            let dest = place_in_wing(&self.stat, u, c);
            self.units[i].dest = dest;
        }
    }
}
