//! The one random generator: SplitMix64, seeded, the same stream on every machine.
//!
//! Deals ([`crate::deal`]), the generated test screenshots and the planner's Zobrist keys all
//! draw from it, so a seed names the same deal, scene or key everywhere. It is not for secrets.

/// The step SplitMix64 adds to its state each draw (the golden ratio's 64-bit fraction).
const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64 in one call: the value a generator started from `z` draws first.
///
/// A good 64-bit mix on its own (every input bit reaches every output bit), for keys derived
/// from a number.
///
/// ```
/// use linkup::random::{SplitMix64, mix64};
///
/// assert_eq!(mix64(7), SplitMix64::new(7).next_u64());
/// ```
pub fn mix64(z: u64) -> u64 {
    scramble(z.wrapping_add(GAMMA))
}

/// SplitMix64's output function alone: [`mix64`] without the step added first. A hash of a
/// key already spread over 64 bits, such as a seed xor-ed with multiples of coordinates
/// (the generated screenshots' value noise).
///
/// ```
/// use linkup::random::{mix64, scramble};
///
/// assert_eq!(scramble(0x9e37_79b9_7f4a_7c15), mix64(0));
/// ```
pub fn scramble(z: u64) -> u64 {
    let z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    let z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64: a tiny, fast, well-mixed generator; enough for shuffling deals.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator started from `seed`.
    pub fn new(seed: u64) -> Self {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let value = mix64(self.state);
        self.state = self.state.wrapping_add(GAMMA);
        value
    }

    /// A uniform number in `0..n` (`n > 0`), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        assert!(n > 0, "an empty range");
        let threshold = n.wrapping_neg() % n;
        loop {
            let product = u128::from(self.next_u64()) * u128::from(n);
            if (product as u64) >= threshold {
                return (product >> 64) as u64;
            }
        }
    }

    /// Shuffles `items` uniformly (Fisher-Yates from the last item down, one [`below`] a
    /// swap), the way [`crate::deal::deal`] shuffles a board.
    ///
    /// [`below`]: SplitMix64::below
    ///
    /// ```
    /// use linkup::random::SplitMix64;
    ///
    /// let mut cells: Vec<u32> = (0..12).map(|i| i / 4 + 1).collect();
    /// SplitMix64::new(5).shuffle(&mut cells);
    /// cells.sort();
    /// assert_eq!(cells, [1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3]);
    /// ```
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_stream_is_splitmix64s() {
        // The first outputs from seed 0 in the reference implementation (Vigna's splitmix64.c).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn shuffle_is_fisher_yates_from_the_last_item_down() {
        // The deals of every seed (and the figures measured on them) depend on these swaps.
        let mut cells: Vec<u32> = (0..144).collect();
        SplitMix64::new(9).shuffle(&mut cells);
        let mut expected: Vec<u32> = (0..144).collect();
        let mut rng = SplitMix64::new(9);
        for i in (1..expected.len()).rev() {
            let j = rng.below(i as u64 + 1) as usize;
            expected.swap(i, j);
        }
        assert_eq!(cells, expected);
        assert_ne!(cells, (0..144).collect::<Vec<u32>>());
    }

    #[test]
    fn below_stays_in_range_and_hits_every_value() {
        let mut rng = SplitMix64::new(0);
        let mut seen = [false; 7];
        for _ in 0..200 {
            let v = rng.below(7) as usize;
            seen[v] = true;
        }
        assert!(seen.iter().all(|&s| s));
    }
}
