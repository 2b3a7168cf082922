//! The planner's own board: dense kinds in a padded grid, and a yes/no link test.
//!
//! The planner asks "do these two tiles link?" millions of times and never needs the path, so
//! it keeps a compact grid (a one-cell ring around the board, empty with the border rule, a wall
//! without) and answers with a test that allocates nothing. For at most two turns every link is
//! one of two shapes, horizontal-vertical-horizontal through some column or
//! vertical-horizontal-vertical through some row (the shorter links are the degenerate cases);
//! more turns fall back to a breadth-first search by turns.

use crate::board::Board;
use crate::solver::Rules;

/// A cell no path may enter (outside the ring, or the ring itself without the border rule).
pub const WALL: u16 = u16::MAX;
/// An empty cell.
pub const FREE: u16 = 0;

/// The padded grid: `rows + 2` by `cols + 2` cells, kind `k` stored as `k + 1`.
#[derive(Clone)]
pub struct Grid {
    /// Board rows (without the ring).
    pub rows: usize,
    /// Board columns (without the ring).
    pub cols: usize,
    /// Padded width, `cols + 2`.
    pub width: usize,
    /// The cells, row-major, padded.
    pub cells: Vec<u16>,
    max_turns: u8,
    /// Scratch for the breadth-first fallback: fewest segments to each cell.
    dist: Vec<u8>,
    queue: Vec<usize>,
}

impl Grid {
    /// An empty grid of the board's size under `rules`.
    pub fn empty(rows: usize, cols: usize, rules: Rules) -> Self {
        let width = cols + 2;
        let height = rows + 2;
        let ring = if rules.border { FREE } else { WALL };
        let mut cells = vec![ring; width * height];
        for r in 1..=rows {
            for c in 1..=cols {
                cells[r * width + c] = FREE;
            }
        }
        Grid {
            rows,
            cols,
            width,
            cells,
            max_turns: rules.max_turns,
            dist: Vec::new(),
            queue: Vec::new(),
        }
    }

    /// The grid of `board`, with its kinds mapped through `dense` (board kind to `0..K`).
    pub fn of_board(board: &Board, rules: Rules, dense: impl Fn(u32) -> u16) -> Self {
        let mut grid = Grid::empty(board.rows(), board.cols(), rules);
        for (i, &k) in board.cells().iter().enumerate() {
            if k != crate::board::EMPTY {
                let at = grid.index(i / board.cols(), i % board.cols());
                grid.cells[at] = dense(k) + 1;
            }
        }
        grid
    }

    /// The padded index of board cell (`row`, `col`).
    pub fn index(&self, row: usize, col: usize) -> usize {
        (row + 1) * self.width + col + 1
    }

    /// The board row and column of a padded index.
    pub fn row_col(&self, index: usize) -> (usize, usize) {
        (index / self.width - 1, index % self.width - 1)
    }

    /// Whether the tiles at padded indices `a` and `b` (same kind, both present) link.
    pub fn links(&mut self, a: usize, b: usize) -> bool {
        let (ka, kb) = (self.cells[a], self.cells[b]);
        self.cells[a] = FREE;
        self.cells[b] = FREE;
        let linked = if self.max_turns <= 2 {
            self.links_short(a, b)
        } else {
            self.links_bfs(a, b)
        };
        self.cells[a] = ka;
        self.cells[b] = kb;
        linked
    }

    /// The free run along a row through `at` (itself free): first and last column index.
    fn row_run(&self, at: usize) -> (usize, usize) {
        let (mut lo, mut hi) = (at, at);
        while lo % self.width > 0 && self.cells[lo - 1] == FREE {
            lo -= 1;
        }
        while hi % self.width < self.width - 1 && self.cells[hi + 1] == FREE {
            hi += 1;
        }
        (lo % self.width, hi % self.width)
    }

    /// The free run along a column through `at` (itself free): first and last row.
    fn col_run(&self, at: usize) -> (usize, usize) {
        let w = self.width;
        let (mut lo, mut hi) = (at, at);
        while lo >= w && self.cells[lo - w] == FREE {
            lo -= w;
        }
        while hi + w < self.cells.len() && self.cells[hi + w] == FREE {
            hi += w;
        }
        (lo / w, hi / w)
    }

    /// Whether every cell of column `col` from row `r1` to `r2` (inclusive) is free.
    fn col_free(&self, col: usize, r1: usize, r2: usize) -> bool {
        let (lo, hi) = (r1.min(r2), r1.max(r2));
        (lo..=hi).all(|r| self.cells[r * self.width + col] == FREE)
    }

    /// Whether every cell of row `row` from column `c1` to `c2` (inclusive) is free.
    fn row_free(&self, row: usize, c1: usize, c2: usize) -> bool {
        let (lo, hi) = (c1.min(c2), c1.max(c2));
        self.cells[row * self.width + lo..=row * self.width + hi]
            .iter()
            .all(|&k| k == FREE)
    }

    /// The two-shape test for at most two turns; `a` and `b` are already cleared.
    fn links_short(&self, a: usize, b: usize) -> bool {
        let w = self.width;
        let (ra, ca) = (a / w, a % w);
        let (rb, cb) = (b / w, b % w);
        if self.max_turns == 0 {
            return (ra == rb && self.row_free(ra, ca, cb)) || (ca == cb && self.col_free(ca, ra, rb));
        }
        let (a_lo, a_hi) = self.row_run(a);
        let (b_lo, b_hi) = self.row_run(b);
        let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
        let through_column = |c: usize| lo <= c && c <= hi && self.col_free(c, ra, rb);
        if self.max_turns == 1 {
            if through_column(ca) || through_column(cb) {
                return true;
            }
        } else if (lo..=hi).any(through_column) {
            return true;
        }
        let (a_lo, a_hi) = self.col_run(a);
        let (b_lo, b_hi) = self.col_run(b);
        let (lo, hi) = (a_lo.max(b_lo), a_hi.min(b_hi));
        let through_row = |r: usize| lo <= r && r <= hi && self.row_free(r, ca, cb);
        if self.max_turns == 1 {
            through_row(ra) || through_row(rb)
        } else {
            (lo..=hi).any(through_row)
        }
    }

    /// Breadth-first search by segments for any number of turns; `a` and `b` are cleared.
    fn links_bfs(&mut self, a: usize, b: usize) -> bool {
        const UNSEEN: u8 = u8::MAX;
        let max_segments = u32::from(self.max_turns) + 1;
        self.dist.clear();
        self.dist.resize(self.cells.len(), UNSEEN);
        self.queue.clear();
        self.dist[a] = 0;
        self.queue.push(a);
        let w = self.width as isize;
        let mut head = 0;
        while head < self.queue.len() {
            let at = self.queue[head];
            head += 1;
            let d = self.dist[at];
            if u32::from(d) >= max_segments {
                continue;
            }
            for step in [-w, 1, w, -1] {
                let mut next = at;
                loop {
                    let Some(n) = next.checked_add_signed(step) else {
                        break;
                    };
                    if n >= self.cells.len()
                        || (step == 1 && n % self.width == 0)
                        || (step == -1 && next % self.width == 0)
                        || self.cells[n] != FREE
                    {
                        break;
                    }
                    if n == b {
                        return true;
                    }
                    if self.dist[n] <= d {
                        break;
                    }
                    if self.dist[n] == UNSEEN {
                        self.dist[n] = d + 1;
                        self.queue.push(n);
                    }
                    next = n;
                }
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Pos;
    use crate::solver::connect;

    fn check_all(board: &Board, rules: Rules) {
        let mut grid = Grid::of_board(board, rules, |k| k as u16);
        let tiles: Vec<Pos> = board.tile_positions().collect();
        for &p in &tiles {
            for &q in &tiles {
                if p < q && board.get(p) == board.get(q) {
                    let (i, j) = (
                        grid.index(p.row as usize, p.col as usize),
                        grid.index(q.row as usize, q.col as usize),
                    );
                    assert_eq!(
                        grid.links(i, j),
                        connect(board, p, q, rules).is_some(),
                        "{p} {q} under {rules:?} on\n{board}"
                    );
                }
            }
        }
    }

    #[test]
    fn agrees_with_connect_on_fixed_boards() {
        let boards = [
            "1 2 1\n0 0 0",
            "1 2 1",
            "1 0 2 1\n2 0 0 0\n2 2 2 2",
            "1 2\n2 1",
            "1 1 2 3\n3 2 0 1\n2 0 3 1\n1 2 3 0",
            "3 1 2 2\n1 3 3 1\n2 1 0 3",
        ];
        for text in boards {
            let board: Board = text.parse().unwrap();
            for max_turns in 0..=4 {
                for border in [false, true] {
                    let rules = Rules {
                        max_turns,
                        border,
                        gravity: false,
                    };
                    check_all(&board, rules);
                }
            }
        }
    }
}
