//! Command and control: how long an order takes to reach a wing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Minutes to write the overall order.
pub const WRITE_MINUTES: u32 = 10;
/// Minutes to transmit it.
pub const TRANSMIT_MINUTES: u32 = 10;
/// Minutes per battalion or cavalry regiment in the wing (all of them, moving or not).
pub const PER_UNIT_MINUTES: u32 = 2;
/// Minutes in a bound.
pub const BOUND_MINUTES: u32 = 10;

/// A general's quality, which scales the time his orders take.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum General {
    /// 60% of the time.
    Exceptional,
    /// 80%.
    Good,
    /// 100%.
    Average,
    /// 150%.
    Poor,
    /// 200%.
    Useless,
}

impl General {
    /// The quality in a word: `average`.
    pub fn name(self) -> &'static str {
        match self {
            General::Exceptional => "exceptional",
            General::Good => "good",
            General::Average => "average",
            General::Poor => "poor",
            General::Useless => "useless",
        }
    }

    /// The quality with its article: `an average`.
    pub fn words(self) -> &'static str {
        match self {
            General::Exceptional => "an exceptional",
            General::Good => "a good",
            General::Average => "an average",
            General::Poor => "a poor",
            General::Useless => "a useless",
        }
    }

    /// The percentage of the standard time his orders take.
    pub fn percent(self) -> u32 {
        match self {
            General::Exceptional => 60,
            General::Good => 80,
            General::Average => 100,
            General::Poor => 150,
            General::Useless => 200,
        }
    }
}

/// Minutes and bounds (of 10 minutes, rounded up) before an order to a wing of `units`
/// battalions and cavalry regiments takes effect. The general's percentage scales the whole
/// time, rounded up to the minute.
pub fn order_delay(units: u32, general: General) -> (u32, u32) {
    let standard = WRITE_MINUTES + TRANSMIT_MINUTES + PER_UNIT_MINUTES * units;
    let minutes = (standard * general.percent()).div_ceil(100);
    (minutes, minutes.div_ceil(BOUND_MINUTES))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_texts_example_12_battalions_and_2_regiments_under_an_average_general() {
        assert_eq!(order_delay(12 + 2, General::Average), (48, 5));
    }

    #[test]
    fn the_generals_quality_scales_the_time() {
        assert_eq!(order_delay(14, General::Exceptional), (29, 3));
        assert_eq!(order_delay(14, General::Good), (39, 4));
        assert_eq!(order_delay(14, General::Poor), (72, 8));
        assert_eq!(order_delay(14, General::Useless), (96, 10));
        assert_eq!(order_delay(0, General::Average), (20, 2));
    }
}
