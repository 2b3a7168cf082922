//! The full-board planner: a complete clearing sequence whenever one exists, found quickly.
//!
//! Greedy play (the [`crate::solver::greedy_plan`]) takes the first pair it sees and gets stuck
//! on most deals that can be cleared. The planner searches removal sequences depth first, with a
//! transposition set of positions already proven dead, and stops at a node or time budget with
//! the best partial plan it saw (most tiles removed). Greedy play is tried first, and its plan
//! kept when it clears the board.
//!
//! Two searches share the `grid` module's link test:
//!
//! - without gravity (`fixed`) tiles never move and a removal only empties cells, so no pair
//!   that links can stop linking. The only real decision is which tiles of a kind pair up; the
//!   order is free. The search therefore branches on *matchings*, commits to them, removes every
//!   committed pair as soon as it links, proves positions dead from committed pairs that
//!   block each other, and learns from each death which few kinds' commitments caused it.
//!   Randomized playouts run before it and between its restarts, as a cheap portfolio.
//! - with gravity (`falling`) a removal moves the tiles above it, so links can be lost; the
//!   search branches on removable pairs, removes a pair without branching only when it provably
//!   changes nothing else, and remembers dead boards.
//!
//! ```
//! use linkup::board::Board;
//! use linkup::planner::{Budget, plan};
//! use linkup::solver::Rules;
//!
//! // Without the border greedy play gets stuck on this board; the planner clears it.
//! let board: Board = "3 1 3 2\n1 2 3 2\n2 1 3 1".parse().unwrap();
//! let outcome = plan(&board, Rules::hdoj(), Budget::default());
//! assert!(outcome.plan.is_cleared());
//! ```

mod falling;
mod fixed;
pub(crate) mod grid;

use std::time::{Duration, Instant};

use serde::Serialize;

use crate::board::{Board, EMPTY, Kind, Pos};
use crate::solver::{Move, Plan, Rules, connect, greedy_plan, remove_pair};

/// How much search the planner may spend on one board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Most search nodes (positions expanded; without gravity a playout counts as a few nodes,
    /// with gravity ten positions count as one node, as they take about as long).
    pub nodes: u64,
    /// Most wall-clock time, if limited.
    pub time: Option<Duration>,
}

impl Budget {
    /// The default node limit: about 2 s on 8x18 at the most (a node costs about 5-100 us;
    /// without gravity a playout of about 0.1 ms counts as 3 nodes, with gravity ten positions
    /// of about 1.4 us each count as one node).
    pub const DEFAULT_NODES: u64 = 100_000;

    /// A budget of `nodes` nodes and no time limit.
    pub fn nodes(nodes: u64) -> Self {
        Budget { nodes, time: None }
    }
}

impl Default for Budget {
    /// [`Budget::DEFAULT_NODES`] nodes, no time limit (so results do not depend on the machine).
    fn default() -> Self {
        Budget::nodes(Budget::DEFAULT_NODES)
    }
}

/// Why the planner did not search a board; it then keeps greedy play's plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(rename_all = "kebab-case", tag = "reason")]
pub enum Unsearchable {
    /// The board is wider or taller than the planner's bitboards hold.
    #[error(
        "the board is {rows}x{cols}; the planner searches boards of at most {max}x{max} cells \
         (greedy play was used instead)"
    )]
    TooLarge {
        /// Rows of the board.
        rows: usize,
        /// Columns of the board.
        cols: usize,
        /// The most rows and columns the planner searches.
        max: usize,
    },
    /// Some kinds have so many tiles that their pairs would not fit the search's tables.
    #[error(
        "the board has {pairs} pairs of tiles of one kind; the planner searches boards with at \
         most {max} (greedy play was used instead)"
    )]
    TooManyPairs {
        /// Pairs of same-kind tiles on the board.
        pairs: usize,
        /// The most pairs the planner searches.
        max: usize,
    },
}

/// The most same-kind pairs the search without gravity takes: its crossed-pair tables grow
/// with the square of the pairs (8,000 pairs take 16 MB).
pub const MAX_PAIRS: usize = 8_000;

/// Whether the planner can search `board`, and why not.
pub fn check(board: &Board) -> Result<(), Unsearchable> {
    let max = grid::MAX_SIDE;
    if board.rows() > max || board.cols() > max {
        return Err(Unsearchable::TooLarge {
            rows: board.rows(),
            cols: board.cols(),
            max,
        });
    }
    let mut counts = std::collections::HashMap::new();
    for &k in board.cells().iter().filter(|&&k| k != EMPTY) {
        *counts.entry(k).or_insert(0usize) += 1;
    }
    let pairs: usize = counts.values().map(|&m| m * m.saturating_sub(1) / 2).sum();
    if pairs > MAX_PAIRS {
        return Err(Unsearchable::TooManyPairs {
            pairs,
            max: MAX_PAIRS,
        });
    }
    Ok(())
}

/// What the search did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Search nodes expanded (without gravity a playout counts as a few nodes; with gravity
    /// ten positions count as one node).
    pub nodes: u64,
    /// The whole search space was explored without a clearing sequence: the board is proven
    /// unwinnable.
    pub exhausted: bool,
    /// The budget ran out before the search finished.
    pub out_of_budget: bool,
    /// Set when the board was not searched at all (the plan is greedy play's).
    pub unsearchable: Option<Unsearchable>,
}

/// The planner's verdict on a board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// A clearing sequence was found.
    Cleared,
    /// No clearing sequence exists.
    Unwinnable,
    /// The budget ran out first.
    Unknown,
}

/// A plan and how it was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanOutcome {
    /// The clearing sequence, or when there is none (or none was found) the longest partial
    /// sequence seen; each move names the cells at the moment of its removal.
    pub plan: Plan,
    /// What the search did.
    pub stats: Stats,
}

impl PlanOutcome {
    /// Cleared, proven unwinnable, or unknown (budget ran out).
    pub fn verdict(&self) -> Verdict {
        if self.plan.is_cleared() {
            Verdict::Cleared
        } else if self.stats.exhausted {
            Verdict::Unwinnable
        } else {
            Verdict::Unknown
        }
    }
}

/// What a search hands back: removals by cell, and its statistics.
struct Found {
    removals: Vec<(Pos, Pos)>,
    cleared: bool,
    stats: Stats,
}

/// Node and clock accounting shared by both searches.
struct Meter {
    budget: Budget,
    start: Instant,
    nodes: u64,
    stopped: bool,
}

impl Meter {
    fn new(budget: Budget) -> Self {
        Meter {
            budget,
            start: Instant::now(),
            nodes: 0,
            stopped: false,
        }
    }

    /// Counts a node; `false` once the budget is spent.
    fn tick(&mut self) -> bool {
        self.spend(1)
    }

    /// Counts `nodes` nodes' worth of work; `false` once the budget is spent. The clock is
    /// read every time (about 20 ns, against 10 us and more for a node), since a node on a
    /// large board with more than two turns can take milliseconds.
    fn spend(&mut self, nodes: u64) -> bool {
        if self.stopped {
            return false;
        }
        self.nodes += nodes;
        if self.nodes > self.budget.nodes {
            self.stopped = true;
        } else if let Some(limit) = self.budget.time
            && self.start.elapsed() >= limit
        {
            self.stopped = true;
        }
        !self.stopped
    }
}

pub(crate) use crate::random::mix64;

/// The kinds on `board` in increasing order, for mapping kinds to `0..K`.
fn kinds(board: &Board) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = board
        .cells()
        .iter()
        .copied()
        .filter(|&k| k != EMPTY)
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// Plans a clearing sequence for `board` under `rules` within `budget`.
///
/// Greedy play is tried first and its plan kept when it clears the board (no search, zero
/// nodes). When the board can be cleared and the budget suffices, the plan clears it. Otherwise the
/// plan is the longest partial sequence seen (never shorter than greedy play's), and
/// [`Stats::exhausted`] tells whether the board was proven unwinnable.
///
/// Boards the search cannot take (see [`check`]: more than 62 rows or columns, or more than
/// [`MAX_PAIRS`] same-kind pairs) get greedy play's plan, with the reason in
/// [`Stats::unsearchable`] and the verdict [`Verdict::Unknown`] unless greedy play cleared them.
pub fn plan(board: &Board, rules: Rules, budget: Budget) -> PlanOutcome {
    // Greedy play costs a fraction of a millisecond and clears many deals (most large kshisen
    // deals, where the search would branch over eight copies of a kind): try it first.
    let greedy = greedy_plan(board, rules);
    if greedy.is_cleared() {
        return PlanOutcome {
            plan: greedy,
            stats: Stats::default(),
        };
    }
    if let Err(reason) = check(board) {
        return PlanOutcome {
            plan: greedy,
            stats: Stats {
                unsearchable: Some(reason),
                ..Stats::default()
            },
        };
    }
    let kinds = kinds(board);
    let dense = |k: Kind| kinds.binary_search(&k).expect("a kind on the board") as u16;
    let found = if rules.gravity {
        falling::search(board, rules, budget, &dense, kinds.len())
    } else {
        fixed::search(board, rules, budget, &dense, kinds.len())
    };
    let mut plan = replay(board, rules, &found.removals);
    if !found.cleared && greedy.moves.len() > plan.moves.len() {
        plan = greedy;
    }
    PlanOutcome {
        plan,
        stats: found.stats,
    }
}

/// Turns removals into moves with their paths, replaying them on a copy of the board.
fn replay(board: &Board, rules: Rules, removals: &[(Pos, Pos)]) -> Plan {
    let mut board = board.clone();
    let mut moves = Vec::with_capacity(removals.len());
    for &(a, b) in removals {
        let path = connect(&board, a, b, rules)
            .unwrap_or_else(|| panic!("planner bug: {a} {b} does not link on\n{board}"));
        remove_pair(&mut board, a, b, rules);
        moves.push(Move { a, b, path });
    }
    Plan {
        moves,
        left: board.tiles(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    fn rules(border: bool, gravity: bool) -> Rules {
        Rules {
            max_turns: 2,
            border,
            gravity,
        }
    }

    #[test]
    fn clears_where_greedy_gets_stuck() {
        // Found by dealing 3x4 boards until greedy got stuck on one.
        let b = board("3 1 3 2\n1 2 3 2\n2 1 3 1");
        let rules = rules(false, false);
        assert!(!greedy_plan(&b, rules).is_cleared());
        let outcome = plan(&b, rules, Budget::default());
        assert_eq!(outcome.verdict(), Verdict::Cleared);
        assert_eq!(outcome.plan.moves.len(), 6);
    }

    #[test]
    fn crossed_pairs_are_proven_unwinnable() {
        for border in [false, true] {
            let outcome = plan(&board("1 2\n2 1"), rules(border, false), Budget::default());
            assert_eq!(outcome.verdict(), Verdict::Unwinnable);
            assert!(outcome.plan.moves.is_empty());
        }
    }

    #[test]
    fn a_lone_tile_is_unwinnable_but_the_rest_is_played() {
        let outcome = plan(&board("1 1 2"), rules(false, false), Budget::default());
        assert_eq!(outcome.verdict(), Verdict::Unwinnable);
        assert_eq!(outcome.plan.moves.len(), 1);
        assert_eq!(outcome.plan.left, 1);
        let outcome = plan(&board("1 1 2"), rules(false, true), Budget::default());
        assert_eq!(outcome.verdict(), Verdict::Unwinnable);
    }

    #[test]
    fn gravity_moves_name_the_cells_after_earlier_falls() {
        // The 2s link only after the 1s go and the top 2 falls next to the other.
        let b = board("2 0\n1 1\n3 2\n3 0");
        let outcome = plan(&b, rules(false, true), Budget::default());
        assert_eq!(outcome.verdict(), Verdict::Cleared);
        let mut replayed = b.clone();
        for m in &outcome.plan.moves {
            assert!(connect(&replayed, m.a, m.b, rules(false, true)).is_some());
            remove_pair(&mut replayed, m.a, m.b, rules(false, true));
        }
        assert!(replayed.is_cleared());
    }

    #[test]
    fn budget_stops_the_search_with_a_partial_plan() {
        let b = crate::deal::deal(8, 18, crate::deal::Fill::Xshisen, 7);
        let outcome = plan(&b, Rules::shisen_sho(), Budget::nodes(1));
        assert!(outcome.stats.nodes <= 2);
        if !outcome.plan.is_cleared() {
            assert!(outcome.stats.out_of_budget);
            assert_eq!(outcome.verdict(), Verdict::Unknown);
        }
    }

    #[test]
    fn empty_board_is_cleared() {
        let outcome = plan(&Board::empty(2, 2), rules(true, true), Budget::default());
        assert_eq!(outcome.verdict(), Verdict::Cleared);
    }
}
