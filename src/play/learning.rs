//! What the loop learns of a game from its answers, as small pure pieces the loop consults:
//! whether a removal let tiles fall ([`gravity_shown`]) and how long a removal takes to finish
//! on screen ([`RemovalTimes`]).

use std::time::Duration;

use crate::board::{Board, Pos};
use crate::solver::{Rules, remove_pair};

/// What a removal of `a` and `b` from `before` shows about gravity, given the board read once
/// it was done (`after`, kinds numbered as the reader likes): `Some(true)` when it is the board
/// with the pair removed and the tiles above dropped (and not the board with two holes),
/// `Some(false)` the reverse, `None` when both boards are the same (nothing above the pair) or
/// the reading is neither (a misread, a new deal).
pub fn gravity_shown(before: &Board, a: Pos, b: Pos, rules: Rules, after: &Board) -> Option<bool> {
    let removed = |gravity: bool| {
        let mut board = before.clone();
        remove_pair(&mut board, a, b, Rules { gravity, ..rules });
        board.renumbered()
    };
    let (dropped, holes) = (removed(true), removed(false));
    if dropped == holes {
        return None;
    }
    let seen = after.renumbered();
    if seen == dropped {
        Some(true)
    } else if seen == holes {
        Some(false)
    } else {
        None
    }
}

/// How long removals took to finish on screen: from the pair's second click to the first of
/// the two frames that agreed on the board without it. Each time is an upper bound (the board
/// cannot show the pair gone before the game removed it; a slow capture on a busy machine only
/// adds), so the estimate is the lower quartile of the last [`RemovalTimes::WINDOW`] removals:
/// slow frames do not move it, and it comes down quickly from a belief that was too long.
#[derive(Clone, Debug, Default)]
pub struct RemovalTimes {
    samples: Vec<Duration>,
}

impl RemovalTimes {
    /// Removals the estimate looks back on.
    pub const WINDOW: usize = 15;
    /// Removals measured before the estimate is reported.
    pub const ENOUGH: usize = 3;

    /// Adds one removal's time.
    pub fn push(&mut self, took: Duration) {
        if self.samples.len() == Self::WINDOW {
            self.samples.remove(0);
        }
        self.samples.push(took);
    }

    /// Removals measured so far (at most [`RemovalTimes::WINDOW`]).
    pub fn len(&self) -> usize {
        self.samples.len()
    }

    /// Whether nothing was measured yet.
    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    /// The lower quartile of the removals kept, once [`RemovalTimes::ENOUGH`] were measured.
    pub fn estimate(&self) -> Option<Duration> {
        if self.samples.len() < Self::ENOUGH {
            return None;
        }
        let mut sorted = self.samples.clone();
        sorted.sort_unstable();
        Some(sorted[sorted.len() / 4])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_is_told_only_by_a_removal_with_tiles_above() {
        let rules = Rules::shisen_sho();
        let before = Board::from_rows(&[[3, 4], [1, 1]]);
        let (a, b) = (Pos::new(1, 0), Pos::new(1, 1));
        let dropped = Board::from_rows(&[[0, 0], [7, 8]]);
        let holes = Board::from_rows(&[[7, 8], [0, 0]]);
        assert_eq!(gravity_shown(&before, a, b, rules, &dropped), Some(true));
        assert_eq!(gravity_shown(&before, a, b, rules, &holes), Some(false));
        let misread = Board::from_rows(&[[7, 7], [0, 0]]);
        assert_eq!(gravity_shown(&before, a, b, rules, &misread), None);
        // Nothing above the pair: both rules leave the same board.
        let top = Board::from_rows(&[[1, 1], [3, 4]]);
        let after = Board::from_rows(&[[0, 0], [3, 4]]);
        let (a, b) = (Pos::new(0, 0), Pos::new(0, 1));
        assert_eq!(gravity_shown(&top, a, b, rules, &after), None);
    }

    #[test]
    fn removal_estimate_is_the_lower_quartile_of_the_last_removals() {
        let mut times = RemovalTimes::default();
        times.push(Duration::from_millis(120));
        times.push(Duration::from_millis(2000));
        assert_eq!(times.estimate(), None);
        times.push(Duration::from_millis(90));
        assert_eq!(times.estimate(), Some(Duration::from_millis(90)));
        for ms in [100, 110, 130, 3000, 2500, 105] {
            times.push(Duration::from_millis(ms));
        }
        // 90 100 105 110 120 130 2000 2500 3000: the third.
        assert_eq!(times.estimate(), Some(Duration::from_millis(105)));
        for _ in 0..RemovalTimes::WINDOW {
            times.push(Duration::from_millis(60));
        }
        assert_eq!(times.len(), RemovalTimes::WINDOW);
        assert_eq!(times.estimate(), Some(Duration::from_millis(60)));
    }
}
