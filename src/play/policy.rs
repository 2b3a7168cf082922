//! Policies: who chooses the next pair. [`Greedy`] is the line-ray search from the last removed
//! tile; [`Planned`] plans the whole game and follows the plan while the board is as expected.

use std::collections::VecDeque;

use crate::board::{Board, Pos};
use crate::planner::{self, Budget};
use crate::solver::{Move, NextPair, Rules, next_pair, remove_pair};

/// Chooses the next pair on a board; the loop tells it what happened.
pub trait Policy {
    /// The next pair to click, or why there is none.
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair;

    /// The pair was removed by the game.
    fn removed(&mut self, _mv: &Move) {}

    /// The game refused the pair (or the board changed in some other way).
    fn refused(&mut self, _mv: &Move) {}
}

/// The line-ray search with last-success locality: [`crate::solver::next_pair`] from the
/// first tile of the last removed pair.
#[derive(Clone, Debug, Default)]
pub struct Greedy {
    last: Option<Pos>,
}

impl Policy for Greedy {
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair {
        next_pair(board, rules, self.last)
    }

    fn removed(&mut self, mv: &Move) {
        self.last = Some(mv.a);
    }
}

/// The full-board planner: plans the whole game from what it sees and follows the plan while
/// the board is what the plan expects. Any surprise (a refused pair, a misread, a shuffle)
/// makes it plan again from the board as read.
pub struct Planned {
    budget: Budget,
    queue: VecDeque<Move>,
    /// The board (as read) when the front move was chosen, and the rules it was chosen under.
    chosen_on: Option<(Board, Rules)>,
    /// The board the plan expects next, kinds renumbered.
    expected: Option<Board>,
}

impl Planned {
    /// A planner policy searching at most `budget` per plan.
    pub fn new(budget: Budget) -> Self {
        Planned {
            budget,
            queue: VecDeque::new(),
            chosen_on: None,
            expected: None,
        }
    }
}

impl Policy for Planned {
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair {
        if self.expected.as_ref() != Some(&board.renumbered()) || self.queue.is_empty() {
            self.queue = planner::plan(board, rules, self.budget).plan.moves.into();
        }
        self.chosen_on = Some((board.clone(), rules));
        match self.queue.front() {
            Some(m) => NextPair::Found(m.clone()),
            // The plan could not start (budget): fall back to the line-ray search.
            None => next_pair(board, rules, None),
        }
    }

    fn removed(&mut self, mv: &Move) {
        self.expected = match (self.queue.front(), self.chosen_on.take()) {
            (Some(front), Some((mut board, rules))) if front == mv => {
                self.queue.pop_front();
                remove_pair(&mut board, mv.a, mv.b, rules);
                Some(board.renumbered())
            }
            _ => None,
        };
    }

    fn refused(&mut self, _mv: &Move) {
        self.expected = None;
    }
}
