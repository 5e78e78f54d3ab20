//! The finite choices offered to computer players: orders to wings.

use super::*;

impl Battle {
    /// The orders worth offering a wing now: attack each enemy wing or objective, hold each
    /// objective or where it stands, withdraw 12" towards its rear, stand in reserve (less the
    /// order it already has, unless some of its units, halted under control after a pursuit
    /// test, need it again as fresh orders). In a big battle only the [`NEAREST_PLACES`] enemy
    /// wings and objectives nearest the wing are offered.
    pub fn order_candidates(&self, w: usize, out: &mut Vec<Action>) {
        self.order_candidates_among(w, &self.wing_centres(), &self.wings_held(), out);
    }

    /// For each wing, whether some of its units halted under control (after a pursuit test)
    /// and need its order again.
    pub(super) fn wings_held(&self) -> Vec<bool> {
        let mut held = vec![false; self.wings.len()];
        for u in self.units.iter().filter(|u| u.present() && u.hold_here) {
            if let Some(h) = held.get_mut(usize::from(u.wing)) {
                *h = true;
            }
        }
        held
    }

    /// [`Battle::order_candidates`] with the wings' centres, and which wings are held
    /// ([`Battle::wings_held`]), worked out once for every wing.
    pub(super) fn order_candidates_among(
        &self,
        w: usize,
        centres: &[Option<Point>],
        held: &[bool],
        out: &mut Vec<Action>,
    ) {
        let side = self.stat.wings[w].side;
        let Some(here) = centres.get(w).copied().flatten() else { return };
        let mut orders: Vec<Order> = Vec::new();
        let enemies = centres
            .iter()
            .enumerate()
            .filter_map(|(v, c)| c.filter(|_| self.stat.wings[v].side != side).map(|c| (v, c)));
        for (_, c) in volley_table::nearest(here, enemies, NEAREST_PLACES) {
            orders.push(Order::Attack { at: round_point(c) });
        }
        let objectives = self.stat.objective_centres.iter().enumerate().filter_map(|(i, c)| c.map(|c| (i, c)));
        for (_, c) in volley_table::nearest(here, objectives, NEAREST_PLACES) {
            orders.push(Order::Attack { at: round_point(c) });
            orders.push(Order::Hold { at: round_point(c) });
        }
        orders.push(Order::Hold { at: round_point(here) });
        // The side's own wagons: to guard them, or to clear an enemy out of their park.
        let park = round_point(self.stat.parks[usize::from(side) & 1].0);
        orders.push(Order::Attack { at: park });
        orders.push(Order::Hold { at: park });
        let back = self.stat.table.clamp(here.toward(self.rear_heading(side), 12.0));
        orders.push(Order::WithdrawTo { at: round_point(back) });
        orders.push(Order::Reserve);
        let current =
            self.dispatches.iter().rev().find(|d| usize::from(d.wing) == w).map_or(self.wings[w].order, |d| d.order);
        // The order in effect again, when some of the wing's units halted under control need it.
        let held = held.get(w).copied().unwrap_or(false);
        if held {
            orders.insert(0, current);
        }
        // Each order once, at its first place in the list: an order of the same kind to a place
        // within [`SAME_PLACE`] of an earlier one is that order (an enemy wing drawn up on an
        // objective is one place to attack; its words, by the ground, would be the same).
        let key = |o: &Order| match *o {
            Order::Attack { at } => (0u8, Some(at)),
            Order::Hold { at } => (1, Some(at)),
            Order::MoveTo { at } => (2, Some(at)),
            Order::WithdrawTo { at } => (3, Some(at)),
            Order::Reserve => (4, None),
        };
        let mut seen: Vec<(u8, Option<Point>)> = Vec::with_capacity(orders.len());
        for o in orders {
            let (kind, at) = key(&o);
            // (Places farther apart that the ground names alike, "at the ridge", are one place to
            // a general too — he orders the wing to the ridge, and it goes for the enemy nearest
            // its place there: the nearer is offered, the lists being nearest first. Their words
            // are made only for such a pair.)
            let again = seen.iter().any(|&(k, p)| {
                k == kind
                    && match (p, at) {
                        (Some(p), Some(q)) => {
                            p.dist(q) < SAME_PLACE || self.stat.place_words(p) == self.stat.place_words(q)
                        }
                        _ => true,
                    }
            });
            if (o == current && !held) || again {
                continue;
            }
            seen.push((kind, at));
            let a = Action::Order { wing: w as u16, order: o };
            if self.check_order(side, w as u16, &o).is_ok() {
                out.push(a);
            }
        }
    }

    pub(super) fn candidates(&self, side: SideId, out: &mut Vec<Action>) {
        out.push(Action::EndOrders);
        let (centres, held) = (self.wing_centres(), self.wings_held());
        for w in 0..self.wings.len() {
            if self.stat.wings[w].side == side && !self.dispatches.iter().any(|d| usize::from(d.wing) == w) {
                self.order_candidates_among(w, &centres, &held, out);
            }
        }
    }
}
