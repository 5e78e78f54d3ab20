//! The order flashcards, and what a unit does with its card given its status: the status rules
//! come first ("results … supersede any orders"; a Pugnacious unit must close with the nearest
//! enemy; a Nervous one always stops to fire; a Wavering one will not move closer).
//!
//! The restrictions accumulate downwards (the second reading's I-6): a unit at 3 or below fires
//! when it can; at 2 or below it does not move closer either; at 0 it runs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::model::Formation;
use crate::tables::Status;

/// An order card.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "card", rename_all = "snake_case")]
pub enum Order {
    /// Halt: stand where it is, firing at nothing.
    Halt,
    /// Advance straight ahead, up to its move.
    Advance,
    /// Withdraw straight back, facing the enemy.
    Withdraw,
    /// Stand and fire at the nearest enemy in its reach.
    Fire,
    /// Close with an enemy unit (a close assault).
    Charge {
        /// The enemy unit.
        target: u16,
    },
    /// Change formation (it takes the text's turns, standing still).
    Form {
        /// The new formation.
        formation: Formation,
    },
    /// Face about (an infantry line: two turns).
    AboutFace,
    /// Turn to face a bearing up to a quarter turn away (degrees clockwise from north): a
    /// manoeuvre taking as long as facing about.
    Face {
        /// The new facing, whole degrees 0 to 359.
        facing: u16,
    },
}

/// What a unit's situation is when its card is carried out.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Situation {
    /// It has a weapon and an enemy within its reach and arc.
    pub can_fire: bool,
    /// It can move (not in square, not deployed guns, not in the middle of a change).
    pub can_move: bool,
    /// The nearest enemy, if one can be closed with by moving straight ahead.
    pub nearest_ahead: Option<u16>,
}

/// What the unit does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "does", rename_all = "snake_case")]
pub enum Does {
    /// Carries out its card.
    AsOrdered {
        /// The card.
        order: Order,
    },
    /// A Pugnacious unit closes with the nearest enemy, whatever its card.
    ClosesWith {
        /// The nearest enemy.
        target: u16,
    },
    /// A unit at 3 or below stops and fires.
    StopsAndFires,
    /// A unit at 2 or below will not move closer: it stands.
    Stands,
    /// A unit at 0 runs away.
    RunsAway,
}

impl Does {
    /// Why, in the words of a status card, for the umpire and (in words) the players.
    pub fn why(self, status: Status) -> Option<String> {
        match self {
            Does::AsOrdered { .. } => None,
            Does::ClosesWith { .. } => Some(format!("{status}: it must close with the nearest enemy")),
            Does::StopsAndFires => Some(format!("{status}: it stops and fires")),
            Does::Stands => Some(format!("{status}: it will not move closer to the enemy")),
            Does::RunsAway => Some("it is running away".into()),
        }
    }
}

/// Whether an order takes the unit closer to the enemy.
fn forward(order: Order) -> bool {
    matches!(order, Order::Advance | Order::Charge { .. })
}

/// What a unit of `status` does with `order` in `situation`.
pub fn carried_out(status: Status, order: Order, situation: Situation) -> Does {
    match status {
        Status::RunningAway => Does::RunsAway,
        Status::Pugnacious => match situation.nearest_ahead {
            Some(target) if situation.can_move => Does::ClosesWith { target },
            _ => Does::AsOrdered { order },
        },
        Status::Determined | Status::Steady => Does::AsOrdered { order },
        // "Will always stop and fire if the opportunity presents": whatever its card, a
        // withdrawal too (interpretation 8).
        Status::Nervous if situation.can_fire => Does::StopsAndFires,
        Status::Nervous => Does::AsOrdered { order },
        // Wavering and Frightened: fire when they can, never closer.
        _ if situation.can_fire => Does::StopsAndFires,
        _ if forward(order) => Does::Stands,
        _ => Does::AsOrdered { order },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const AHEAD: Situation = Situation { can_fire: false, can_move: true, nearest_ahead: Some(7) };

    #[test]
    fn ea_22_a_pugnacious_unit_closes_with_the_nearest_enemy_whatever_its_card() {
        assert_eq!(carried_out(Status::Pugnacious, Order::Halt, AHEAD), Does::ClosesWith { target: 7 });
        // A square or deployed battery cannot move: "if possible".
        let fixed = Situation { can_move: false, ..AHEAD };
        assert_eq!(carried_out(Status::Pugnacious, Order::Halt, fixed), Does::AsOrdered { order: Order::Halt });
        // It closes rather than stopping to fire.
        let both = Situation { can_fire: true, ..AHEAD };
        assert_eq!(carried_out(Status::Pugnacious, Order::Fire, both), Does::ClosesWith { target: 7 });
    }

    #[test]
    fn ea_23_to_ea_25_nervous_fires_wavering_and_frightened_do_not_close() {
        let in_reach = Situation { can_fire: true, ..AHEAD };
        assert_eq!(carried_out(Status::Nervous, Order::Charge { target: 7 }, in_reach), Does::StopsAndFires);
        // Cavalry have no fire: Nervous horse still charge.
        assert_eq!(
            carried_out(Status::Nervous, Order::Charge { target: 7 }, AHEAD),
            Does::AsOrdered { order: Order::Charge { target: 7 } }
        );
        assert_eq!(carried_out(Status::Wavering, Order::Advance, AHEAD), Does::Stands);
        assert_eq!(carried_out(Status::Wavering, Order::Withdraw, AHEAD), Does::AsOrdered { order: Order::Withdraw });
        assert_eq!(carried_out(Status::Frightened, Order::Charge { target: 7 }, AHEAD), Does::Stands);
        assert_eq!(carried_out(Status::Frightened, Order::Halt, in_reach), Does::StopsAndFires);
        assert_eq!(carried_out(Status::RunningAway, Order::Advance, AHEAD), Does::RunsAway);
        assert_eq!(carried_out(Status::Steady, Order::Advance, in_reach), Does::AsOrdered { order: Order::Advance });
    }
}
