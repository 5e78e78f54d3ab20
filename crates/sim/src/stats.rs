//! The statistics of a simulation: distributions summed up, and binomial confidence intervals.

use serde::Serialize;

/// A distribution of values, summed up.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Dist {
    /// The mean.
    pub mean: f64,
    /// The median.
    pub median: f64,
    /// The 10th percentile.
    pub p10: f64,
    /// The 90th percentile.
    pub p90: f64,
    /// The least.
    pub min: f64,
    /// The greatest.
    pub max: f64,
}

impl Dist {
    /// The summary of `values` (all zero when there are none).
    pub fn of(values: &[f64]) -> Dist {
        let mut c = Counts::default();
        values.iter().for_each(|&x| c.add(x));
        c.dist()
    }
}

/// A multiset of values kept as counts of each distinct value: its memory grows with the
/// number of distinct values (a side's losses can take at most its strength + 1 values; a
/// battle's length, its turn limit), not with the number of values added. Sums and quantiles
/// are taken in ascending order of value, so they do not depend on the order values came in.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Counts {
    by_value: std::collections::BTreeMap<u64, u64>,
    n: u64,
}

/// A key whose order as an integer is the total order of `f64`.
fn key(x: f64) -> u64 {
    let b = x.to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

fn unkey(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

impl Counts {
    /// Count one more `x`.
    pub fn add(&mut self, x: f64) {
        *self.by_value.entry(key(x)).or_default() += 1;
        self.n += 1;
    }

    /// How many values have been added.
    pub fn len(&self) -> u64 {
        self.n
    }

    /// Whether none have.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// The distinct values in ascending order, each with its count.
    pub fn iter(&self) -> impl Iterator<Item = (f64, u64)> + '_ {
        self.by_value.iter().map(|(&k, &c)| (unkey(k), c))
    }

    /// The value of rank `i` (0-based) in ascending order.
    fn at_rank(&self, i: u64) -> f64 {
        let mut seen = 0;
        for (x, c) in self.iter() {
            seen += c;
            if i < seen {
                return x;
            }
        }
        self.iter().last().map_or(0.0, |(x, _)| x)
    }

    /// The `q` quantile (0 to 1), interpolating between neighbouring values (the "linear"
    /// definition: position `q × (n − 1)` in the sorted values).
    pub fn quantile(&self, q: f64) -> f64 {
        match self.n {
            0 => 0.0,
            1 => self.at_rank(0),
            n => {
                let pos = q.clamp(0.0, 1.0) * (n - 1) as f64;
                let (i, frac) = (pos.floor() as u64, pos - pos.floor());
                let (a, b) = (self.at_rank(i), self.at_rank((i + 1).min(n - 1)));
                a + (b - a) * frac
            }
        }
    }

    /// The summary (all zero when empty).
    pub fn dist(&self) -> Dist {
        if self.n == 0 {
            return Dist::default();
        }
        Dist {
            mean: self.iter().map(|(x, c)| x * c as f64).sum::<f64>() / self.n as f64,
            median: self.quantile(0.5),
            p10: self.quantile(0.1),
            p90: self.quantile(0.9),
            min: self.iter().next().map_or(0.0, |(x, _)| x),
            max: self.iter().last().map_or(0.0, |(x, _)| x),
        }
    }

    /// Counts in `bins` equal bins from `lo` to `hi` (values at `hi` in the last bin; values
    /// outside are left out).
    pub fn histogram(&self, bins: usize, lo: f64, hi: f64) -> Vec<u64> {
        let bins = bins.max(1);
        let mut out = vec![0u64; bins];
        let width = (hi - lo) / bins as f64;
        for (x, c) in self.iter() {
            if !(lo..=hi).contains(&x) || width <= 0.0 {
                continue;
            }
            out[(((x - lo) / width) as usize).min(bins - 1)] += c;
        }
        out
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials ([0, 0] when `n` is 0).
pub fn wilson(k: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 0.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let (n, p) = (n as f64, k as f64 / n as f64);
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    // At the ends the interval reaches 0 or 1 exactly (rounding would leave it a hair short).
    let lo = if k == 0 { 0.0 } else { (centre - half).max(0.0) };
    let hi = if k as f64 == n { 1.0 } else { (centre + half).min(1.0) };
    [lo, hi]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    // The plain definitions, over every value, that the counts must agree with.

    /// The `q` quantile (0 to 1) of sorted values, interpolating between neighbours (the
    /// "linear" definition: position `q × (n − 1)`).
    fn quantile(sorted: &[f64], q: f64) -> f64 {
        match sorted.len() {
            0 => 0.0,
            1 => sorted[0],
            n => {
                let pos = q.clamp(0.0, 1.0) * (n - 1) as f64;
                let (i, frac) = (pos.floor() as usize, pos - pos.floor());
                let next = sorted[(i + 1).min(n - 1)];
                sorted[i] + (next - sorted[i]) * frac
            }
        }
    }

    /// Counts of `values` in `bins` equal bins from `lo` to `hi` (values at `hi` in the last bin;
    /// values outside are left out).
    fn histogram(values: &[f64], bins: usize, lo: f64, hi: f64) -> Vec<u64> {
        let bins = bins.max(1);
        let mut out = vec![0u64; bins];
        let width = (hi - lo) / bins as f64;
        for &x in values {
            if !(lo..=hi).contains(&x) || width <= 0.0 {
                continue;
            }
            let i = (((x - lo) / width) as usize).min(bins - 1);
            out[i] += 1;
        }
        out
    }

    #[test]
    fn quantiles_and_means_of_a_known_sample() {
        let d = Dist::of(&[5.0, 1.0, 4.0, 2.0, 3.0]);
        assert!(near(d.mean, 3.0) && near(d.median, 3.0));
        assert!(near(d.p10, 1.4), "{}", d.p10);
        assert!(near(d.p90, 4.6), "{}", d.p90);
        assert_eq!((d.min, d.max), (1.0, 5.0));
        assert_eq!(Dist::of(&[]), Dist::default());
        assert!(near(Dist::of(&[1.0, 2.0, 3.0, 4.0]).median, 2.5));
    }

    #[test]
    fn the_wilson_interval_matches_worked_values() {
        // 50 of 100: 0.5 ± 0.0962 (to four places).
        let [lo, hi] = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-4 && (hi - 0.5962).abs() < 1e-4, "{lo} {hi}");
        // 0 of 10: from 0 to 0.2775.
        let [lo, hi] = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.2775).abs() < 1e-4, "{hi}");
        assert_eq!(wilson(0, 0), [0.0, 0.0]);
        assert_eq!(wilson(10, 10)[1], 1.0);
    }

    #[test]
    fn counts_agree_with_the_sorted_values_whatever_the_order() {
        let values: Vec<f64> = (0..1000u32).map(|i| f64::from((i * 7919) % 101) * 0.5 - 3.0).collect();
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let mut fwd = Counts::default();
        let mut back = Counts::default();
        values.iter().for_each(|&x| fwd.add(x));
        values.iter().rev().for_each(|&x| back.add(x));
        assert_eq!(fwd, back);
        assert_eq!(fwd.len(), 1000);
        assert!(fwd.iter().count() <= 101, "one entry a distinct value");
        for q in [0.0, 0.1, 0.25, 0.5, 0.77, 0.9, 1.0] {
            assert!(near(fwd.quantile(q), quantile(&sorted, q)), "q {q}");
        }
        let d = fwd.dist();
        assert!(near(d.mean, sorted.iter().sum::<f64>() / 1000.0));
        assert_eq!((d.min, d.max), (sorted[0], sorted[999]));
        assert_eq!(fwd.histogram(7, -3.0, 47.0), histogram(&values, 7, -3.0, 47.0));
    }

    #[test]
    fn histograms_count_every_value_in_range_once() {
        let mut c = Counts::default();
        [0.0, 9.99, 10.0, 50.0, 100.0, -1.0, 101.0].into_iter().for_each(|x| c.add(x));
        let h = c.histogram(10, 0.0, 100.0);
        assert_eq!(h.iter().sum::<u64>(), 5);
        assert_eq!((h[0], h[1], h[5], h[9]), (2, 1, 1, 1));
    }
}
