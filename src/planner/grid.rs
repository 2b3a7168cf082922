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
/// The most rows or columns of a board: with the ring around it a row or column of the padded
/// grid fits one 64-bit word.
pub const MAX_SIDE: usize = 62;

/// The padded grid: `rows + 2` by `cols + 2` cells, kind `k` stored as `k + 1`.
#[derive(Clone)]
pub struct Grid {
    /// Padded width, `cols + 2`.
    pub width: usize,
    /// The cells, row-major, padded.
    cells: Vec<u16>,
    /// Per padded row, a bit per padded column set where the cell is not free (and every bit
    /// past the last column set), so runs and segments are a few word operations.
    row_occ: Vec<u64>,
    /// Per padded column, a bit per padded row, likewise.
    col_occ: Vec<u64>,
    /// Row and column of each padded index (saves divisions on the hot path).
    rc: Vec<(u8, u8)>,
    max_turns: u8,
    /// Scratch for the breadth-first fallback: fewest segments to each cell.
    dist: Vec<u8>,
    queue: Vec<usize>,
}

impl Grid {
    /// An empty grid of the board's size under `rules` (at most [`MAX_SIDE`] rows and columns;
    /// [`super::check`] refuses larger boards before a grid is made).
    pub fn empty(rows: usize, cols: usize, rules: Rules) -> Self {
        let width = cols + 2;
        let height = rows + 2;
        assert!(
            rows <= MAX_SIDE && cols <= MAX_SIDE,
            "planner::check refuses larger boards"
        );
        let ring = if rules.border { FREE } else { WALL };
        let mut cells = vec![ring; width * height];
        for r in 1..=rows {
            for c in 1..=cols {
                cells[r * width + c] = FREE;
            }
        }
        let mut grid = Grid {
            width,
            cells: vec![FREE; width * height],
            row_occ: vec![!0 << width; height],
            col_occ: vec![!0 << height; width],
            rc: (0..width * height)
                .map(|i| ((i / width) as u8, (i % width) as u8))
                .collect(),
            max_turns: rules.max_turns,
            dist: Vec::new(),
            queue: Vec::new(),
        };
        for (i, &k) in cells.iter().enumerate() {
            grid.set(i, k);
        }
        grid
    }

    /// The cells, row-major, padded.
    pub fn cells(&self) -> &[u16] {
        &self.cells
    }

    /// The cell at padded index `i`.
    pub fn get(&self, i: usize) -> u16 {
        self.cells[i]
    }

    /// Sets the cell at padded index `i`.
    pub fn set(&mut self, i: usize, k: u16) {
        self.cells[i] = k;
        let (r, c) = self.rc[i];
        let (r, c) = (r as usize, c as usize);
        if k == FREE {
            self.row_occ[r] &= !(1 << c);
            self.col_occ[c] &= !(1 << r);
        } else {
            self.row_occ[r] |= 1 << c;
            self.col_occ[c] |= 1 << r;
        }
    }

    /// Makes this grid a copy of `other` (same size).
    pub fn copy_from(&mut self, other: &Grid) {
        self.cells.copy_from_slice(&other.cells);
        self.row_occ.copy_from_slice(&other.row_occ);
        self.col_occ.copy_from_slice(&other.col_occ);
    }

    /// The grid of `board`, with its kinds mapped through `dense` (board kind to `0..K`).
    pub fn of_board(board: &Board, rules: Rules, dense: impl Fn(u32) -> u16) -> Self {
        let mut grid = Grid::empty(board.rows(), board.cols(), rules);
        for (i, &k) in board.cells().iter().enumerate() {
            if k != crate::board::EMPTY {
                let at = grid.index(i / board.cols(), i % board.cols());
                grid.set(at, dense(k) + 1);
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
        if self.max_turns <= 2 {
            return self.links_short(a, b);
        }
        let (ka, kb) = (self.cells[a], self.cells[b]);
        self.set(a, FREE);
        self.set(b, FREE);
        let linked = self.links_bfs(a, b);
        self.set(a, ka);
        self.set(b, kb);
        linked
    }

    /// The free run through bit `at` (itself free) of an occupancy word: first and last bit.
    fn run(occ: u64, at: usize) -> (usize, usize) {
        let below = occ & ((1 << at) - 1);
        let lo = if below == 0 {
            0
        } else {
            64 - below.leading_zeros() as usize
        };
        let above = occ & !((2 << at) - 1);
        (lo, above.trailing_zeros() as usize - 1)
    }

    /// Bits `lo..=hi` of a word.
    fn span(lo: usize, hi: usize) -> u64 {
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        (!0u64 >> (63 - hi)) & (!0u64 << lo)
    }

    /// The two-shape test for at most two turns, reading `a` and `b` as free.
    fn links_short(&self, a: usize, b: usize) -> bool {
        let ((ra, ca), (rb, cb)) = (self.rc[a], self.rc[b]);
        let (ra, ca, rb, cb) = (ra as usize, ca as usize, rb as usize, cb as usize);
        let row = |r: usize| {
            let mut occ = self.row_occ[r];
            if r == ra {
                occ &= !(1 << ca);
            }
            if r == rb {
                occ &= !(1 << cb);
            }
            occ
        };
        let col = |c: usize| {
            let mut occ = self.col_occ[c];
            if c == ca {
                occ &= !(1 << ra);
            }
            if c == cb {
                occ &= !(1 << rb);
            }
            occ
        };
        if self.max_turns == 0 {
            return (ra == rb && row(ra) & Self::span(ca, cb) == 0)
                || (ca == cb && col(ca) & Self::span(ra, rb) == 0);
        }
        // Horizontal, vertical, horizontal: a column reachable along both rows whose segment
        // between the rows is free.
        let (a_lo, a_hi) = Self::run(row(ra), ca);
        let (b_lo, b_hi) = Self::run(row(rb), cb);
        if a_lo.max(b_lo) <= a_hi.min(b_hi) {
            let mut columns = Self::span(a_lo.max(b_lo), a_hi.min(b_hi));
            if self.max_turns == 1 {
                columns &= (1 << ca) | (1 << cb);
            }
            // Rows `ra` and `rb` are free at these columns (they lie in both runs); the rows
            // strictly between hold neither tile.
            for r in ra.min(rb) + 1..ra.max(rb) {
                if columns == 0 {
                    break;
                }
                columns &= !self.row_occ[r];
            }
            if columns != 0 {
                return true;
            }
        }
        // Vertical, horizontal, vertical.
        let (a_lo, a_hi) = Self::run(col(ca), ra);
        let (b_lo, b_hi) = Self::run(col(cb), rb);
        if a_lo.max(b_lo) <= a_hi.min(b_hi) {
            let mut rows = Self::span(a_lo.max(b_lo), a_hi.min(b_hi));
            if self.max_turns == 1 {
                rows &= (1 << ra) | (1 << rb);
            }
            for c in ca.min(cb) + 1..ca.max(cb) {
                if rows == 0 {
                    break;
                }
                rows &= !self.col_occ[c];
            }
            if rows != 0 {
                return true;
            }
        }
        false
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
                while let Some(n) = next.checked_add_signed(step) {
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
