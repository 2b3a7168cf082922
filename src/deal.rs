//! Random deals the way the real games make them: fill the board with tiles, then shuffle.
//!
//! Both Shisen-Sho programs put every tile on the board and shuffle uniformly; they differ in
//! how many kinds they use and how many copies of each:
//!
//! - **xshisen** uses 36 kinds. Its standard 8x18 board holds each kind 4 times; the larger
//!   boards (`-large` 12x24, `-huge` 16x36) keep the same 36 kinds and raise the copies, to 8 and
//!   16. *Assumption:* the fill deals kind `i % 36` to the `i`-th cell, so any size whose cell
//!   count is a multiple of 36 gets equal copies (144 cells: 4, 288: 8, 576: 16).
//! - **kshisen** has 42 faces and fills its board with groups of 4 of each face in turn, cycling
//!   when it runs out: cell `i` gets face `(i / 4) % 42`. Boards up to 168 cells hold some faces
//!   4 times and leave the rest out; 12x24 (288 cells) holds 30 faces 8 times and 12 faces 4
//!   times. Its sizes run from 6x14 to 16x30.
//!
//! The shuffle is Fisher-Yates driven by [`SplitMix64`] (the crate's one generator,
//! [`crate::random`]) from the seed, so a seed names a deal on every machine.

use crate::board::{Board, Kind};
use crate::random::SplitMix64;

/// How a game fills its board before shuffling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Fill {
    /// xshisen: 36 kinds, cycled one tile at a time.
    Xshisen,
    /// kshisen: 42 faces, cycled four tiles at a time.
    Kshisen,
}

impl Fill {
    /// The kind (from 1) of the `i`-th tile laid down.
    pub fn kind(self, i: usize) -> Kind {
        let k = match self {
            Fill::Xshisen => i % 36,
            Fill::Kshisen => (i / 4) % 42,
        };
        k as Kind + 1
    }
}

impl std::str::FromStr for Fill {
    type Err = String;

    /// `xshisen` or `kshisen`.
    fn from_str(name: &str) -> Result<Self, String> {
        match name {
            "xshisen" => Ok(Fill::Xshisen),
            "kshisen" => Ok(Fill::Kshisen),
            other => Err(format!(
                "unknown fill `{other}`: expected `xshisen` or `kshisen`"
            )),
        }
    }
}

/// A `rows` x `cols` board filled the way `fill` does it and shuffled uniformly from `seed`.
///
/// ```
/// use linkup::deal::{Fill, deal};
///
/// let board = deal(8, 18, Fill::Xshisen, 1);
/// assert_eq!(board.tiles(), 144);
/// assert_eq!(board, deal(8, 18, Fill::Xshisen, 1));
/// ```
pub fn deal(rows: usize, cols: usize, fill: Fill, seed: u64) -> Board {
    let mut cells: Vec<Kind> = (0..rows * cols).map(|i| fill.kind(i)).collect();
    SplitMix64::new(seed).shuffle(&mut cells);
    Board::new(rows, cols, cells).expect("rows * cols cells")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn copies(board: &Board) -> std::collections::BTreeMap<Kind, usize> {
        let mut counts = std::collections::BTreeMap::new();
        for &k in board.cells() {
            *counts.entry(k).or_default() += 1;
        }
        counts
    }

    #[test]
    fn xshisen_sizes_hold_36_kinds_in_equal_copies() {
        for (rows, cols, n) in [(8, 18, 4), (12, 24, 8), (16, 36, 16)] {
            let counts = copies(&deal(rows, cols, Fill::Xshisen, 3));
            assert_eq!(counts.len(), 36);
            assert!(
                counts.values().all(|&c| c == n),
                "{rows}x{cols}: {counts:?}"
            );
        }
    }

    #[test]
    fn kshisen_12x24_has_30_faces_of_8_and_12_of_4() {
        let counts = copies(&deal(12, 24, Fill::Kshisen, 3));
        assert_eq!(counts.len(), 42);
        assert_eq!(counts.values().filter(|&&c| c == 8).count(), 30);
        assert_eq!(counts.values().filter(|&&c| c == 4).count(), 12);
        let small = copies(&deal(6, 14, Fill::Kshisen, 3));
        assert_eq!(small.len(), 21);
        assert!(small.values().all(|&c| c == 4));
    }

    #[test]
    fn seeds_name_deals() {
        assert_eq!(deal(8, 18, Fill::Xshisen, 9), deal(8, 18, Fill::Xshisen, 9));
        assert_ne!(
            deal(8, 18, Fill::Xshisen, 9),
            deal(8, 18, Fill::Xshisen, 10)
        );
    }
}
