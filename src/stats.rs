//! Medians, quantiles and the parabola's vertex, written once: the play loop's stage timings,
//! vision's typical sizes and distances and its sub-pixel refinements, the planner bench's
//! figures.
//!
//! Two medians are in use and both are here: [`median`], the middle value (the upper of the
//! middle two for an even count), which is always one of the samples; and [`mean_median`], the
//! mean of the middle two, for measurements where a value between two samples is right.
//! Floats are ordered with `total_cmp`, so a NaN sorts last instead of panicking.

use std::cmp::Ordering;
use std::time::Duration;

/// A sample type with a total order (floats by `total_cmp`).
pub trait Sample: Copy {
    /// Compares two samples.
    fn order(&self, other: &Self) -> Ordering;
}

macro_rules! sample_by_ord {
    ($($t:ty),*) => {$(
        impl Sample for $t {
            fn order(&self, other: &Self) -> Ordering {
                self.cmp(other)
            }
        }
    )*};
}

sample_by_ord!(u8, u16, u32, u64, usize, i32, i64, Duration);

impl Sample for f32 {
    fn order(&self, other: &Self) -> Ordering {
        self.total_cmp(other)
    }
}

impl Sample for f64 {
    fn order(&self, other: &Self) -> Ordering {
        self.total_cmp(other)
    }
}

/// Sorts `values` in increasing order.
pub fn sort<T: Sample>(values: &mut [T]) {
    values.sort_unstable_by(T::order);
}

/// The middle value of `values` (the upper of the middle two for an even count); `None` when
/// empty. Reorders `values`.
///
/// ```
/// use linkup::stats::median;
///
/// assert_eq!(median(&mut [5, 1, 4, 2]), Some(4));
/// assert_eq!(median::<u32>(&mut []), None);
/// ```
pub fn median<T: Sample>(values: &mut [T]) -> Option<T> {
    if values.is_empty() {
        return None;
    }
    let middle = values.len() / 2;
    Some(*values.select_nth_unstable_by(middle, T::order).1)
}

/// The median as the mean of the middle two values for an even count; `None` when empty.
/// Reorders `values`.
///
/// ```
/// use linkup::stats::mean_median;
///
/// assert_eq!(mean_median(&mut [5.0, 1.0, 4.0, 2.0]), Some(3.0));
/// ```
pub fn mean_median(values: &mut [f64]) -> Option<f64> {
    let upper = median(values)?;
    if values.len() % 2 == 1 {
        return Some(upper);
    }
    // After the selection, the lower middle value is the largest of the lower half.
    let lower = values[..values.len() / 2]
        .iter()
        .copied()
        .max_by(f64::total_cmp)?;
    Some((lower + upper) / 2.0)
}

/// The value at quantile `q` (0 to 1) of `sorted` by nearest rank: the smallest value with at
/// least a fraction `q` of the values at or below it; `None` when empty.
///
/// ```
/// use linkup::stats::quantile;
///
/// let sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
/// assert_eq!(quantile(&sorted, 0.5), Some(5));
/// assert_eq!(quantile(&sorted, 0.95), Some(10));
/// ```
pub fn quantile<T: Copy>(sorted: &[T], q: f64) -> Option<T> {
    if sorted.is_empty() {
        return None;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    Some(sorted[rank - 1])
}

/// Where a parabola through three values a step apart, the middle the least or the greatest,
/// bottoms out or peaks: an offset from the middle, within half a step (0 when the three are
/// level).
///
/// ```
/// use linkup::stats::parabola_vertex;
///
/// assert_eq!(parabola_vertex(4.0, 1.0, 4.0), 0.0);
/// assert_eq!(parabola_vertex(3.0, 1.0, 1.0), 0.5);
/// assert_eq!(parabola_vertex(-2.0, 0.0, -1.0), 1.0 / 6.0);
/// ```
pub fn parabola_vertex(left: f64, middle: f64, right: f64) -> f64 {
    let curvature = left - 2.0 * middle + right;
    if curvature.abs() > 1e-9 {
        (0.5 * (left - right) / curvature).clamp(-0.5, 0.5)
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The obvious reference: sort, then index.
    fn sorted_median(values: &[u32]) -> Option<u32> {
        let mut v = values.to_vec();
        v.sort_unstable();
        v.get(v.len() / 2).copied()
    }

    #[test]
    fn median_is_the_sorted_middle_for_every_length() {
        let mut rng = crate::random::SplitMix64::new(3);
        for len in 0..40 {
            let values: Vec<u32> = (0..len).map(|_| rng.below(10) as u32).collect();
            assert_eq!(
                median(&mut values.clone()),
                sorted_median(&values),
                "{values:?}"
            );
        }
    }

    #[test]
    fn mean_median_takes_the_middle_two_of_an_even_count() {
        assert_eq!(mean_median(&mut []), None);
        assert_eq!(mean_median(&mut [3.0]), Some(3.0));
        assert_eq!(mean_median(&mut [9.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(mean_median(&mut [9.0, 2.0, 1.0, 3.0]), Some(2.5));
        assert_eq!(mean_median(&mut [2.0, 2.0, 7.0, 7.0]), Some(4.5));
    }

    #[test]
    fn nan_sorts_last_instead_of_panicking() {
        let mut values = [f64::NAN, 1.0, 2.0];
        assert_eq!(median(&mut values), Some(2.0));
        sort(&mut values);
        assert!(values[2].is_nan());
    }

    #[test]
    fn quantiles_use_nearest_rank() {
        let v: Vec<u32> = (1..=10).collect();
        assert_eq!(quantile(&v, 0.0), Some(1));
        assert_eq!(quantile(&v, 0.5), Some(5));
        assert_eq!(quantile(&v, 0.9), Some(9));
        assert_eq!(quantile(&v, 0.95), Some(10));
        assert_eq!(quantile(&v, 1.0), Some(10));
        assert_eq!(quantile::<u32>(&[], 0.5), None);
    }

    #[test]
    fn durations_are_samples() {
        let mut times = [3, 1, 2].map(Duration::from_millis);
        assert_eq!(median(&mut times), Some(Duration::from_millis(2)));
    }
}
