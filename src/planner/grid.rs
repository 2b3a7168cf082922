//! The planner's own board: dense kinds in a padded grid, and a yes/no link test.
//!
//! The planner asks "do these two tiles link?" millions of times and never needs the path, so
//! it keeps a compact grid (a one-cell ring around the board, empty with the border rule, a wall
//! without) and answers with a test that allocates nothing. For at most two turns every link is
//! one of two shapes, horizontal-vertical-horizontal through some column or
//! vertical-horizontal-vertical through some row (the shorter links are the degenerate cases);
//! more turns fall back to a breadth-first search by turns. It also tells which tiles may reach
//! newly freed cells (`sighted`), so a caller can skip retesting the pairs a removal cannot
//! have opened.

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
    ///
    /// Inlined, with the search for more than two turns kept out of line (about 1% fewer
    /// instructions on the hardest deals without gravity).
    #[inline]
    pub fn links(&mut self, a: usize, b: usize) -> bool {
        if self.max_turns <= 2 {
            return self.links_short(a, b);
        }
        self.links_many_turns(a, b)
    }

    /// [`Grid::links`] for more than two turns: a breadth-first search.
    #[cold]
    #[inline(never)]
    fn links_many_turns(&mut self, a: usize, b: usize) -> bool {
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

    /// The bits strictly between bits `x` and `y` (none when they are equal or adjacent).
    fn inside(x: usize, y: usize) -> u64 {
        let (lo, hi) = (x.min(y), x.max(y));
        if hi - lo < 2 {
            0
        } else {
            Self::span(lo + 1, hi - 1)
        }
    }

    /// Bits `lo..=hi` of a word.
    fn span(lo: usize, hi: usize) -> u64 {
        let (lo, hi) = (lo.min(hi), lo.max(hi));
        (!0u64 >> (63 - hi)) & (!0u64 << lo)
    }

    /// The two-shape test for at most two turns, reading `a` and `b` as free.
    #[inline]
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
        // Horizontal, vertical, horizontal through some column; then vertical, horizontal,
        // vertical through some row.
        let one_turn = self.max_turns == 1;
        Self::bridged(
            (row(ra), ca, ra),
            (row(rb), cb, rb),
            one_turn,
            &self.col_occ,
        ) || Self::bridged(
            (col(ca), ra, ca),
            (col(cb), rb, cb),
            one_turn,
            &self.row_occ,
        )
    }

    /// One shape of a link with at most two turns: along a line from each tile (`word` the
    /// line's occupancy with both tiles read as free, `at` the tile's bit in it, `line` the
    /// line's index), then across on some crossing line (`cross`, occupancy per crossing line)
    /// between the two lines. With `one_turn` the crossing must pass through a tile.
    #[inline]
    fn bridged(
        (a_word, a_at, a_line): (u64, usize, usize),
        (b_word, b_at, b_line): (u64, usize, usize),
        one_turn: bool,
        cross: &[u64],
    ) -> bool {
        let (a_lo, a_hi) = Self::run(a_word, a_at);
        let (b_lo, b_hi) = Self::run(b_word, b_at);
        if a_lo.max(b_lo) > a_hi.min(b_hi) {
            return false;
        }
        let mut candidates = Self::span(a_lo.max(b_lo), a_hi.min(b_hi));
        if one_turn {
            candidates &= (1 << a_at) | (1 << b_at);
        }
        // Both lines are free at the candidates (they lie in both runs); the lines strictly
        // between hold neither tile, so a candidate links when its crossing line is free
        // there. The candidates are few: test them one bit at a time.
        let between = Self::inside(a_line, b_line);
        while candidates != 0 {
            let x = candidates.trailing_zeros() as usize;
            if cross[x] & between == 0 {
                return true;
            }
            candidates &= candidates - 1;
        }
        false
    }

    /// The cells holding a tile from which a path of at most `max_turns` turns through free
    /// cells may reach one of the `freed` cells (free themselves), as a bit per padded column
    /// in one word per padded row; a superset (every tile beside the cells such paths cover).
    ///
    /// When cells are freed, a pair that did not link can link afterwards only by a path
    /// through one of them, and then both of its tiles reach that cell: a pair with a tile
    /// outside this set keeps its old answer.
    pub fn sighted(&self, freed: &[usize], out: &mut Vec<u64>) {
        let height = self.row_occ.len();
        out.clear();
        out.resize(height, 0);
        let mut seeds = [0u64; MAX_SIDE + 2];
        for &i in freed {
            let (r, c) = self.rc[i];
            seeds[r as usize] |= 1 << c;
        }
        let seeds = &seeds[..height];
        // The cells a path of one more segment reaches: horizontal runs of the last vertical
        // segments' cells, and vertical runs of the last horizontal ones.
        let mut horizontal = [0u64; MAX_SIDE + 2];
        let mut vertical = [0u64; MAX_SIDE + 2];
        self.fill_rows(seeds, &mut horizontal[..height]);
        self.fill_columns(seeds, &mut vertical[..height]);
        let mut reach = [0u64; MAX_SIDE + 2];
        for r in 0..height {
            reach[r] = horizontal[r] | vertical[r];
        }
        for _ in 0..self.max_turns {
            let (last_h, last_v) = (horizontal, vertical);
            self.fill_rows(&last_v[..height], &mut horizontal[..height]);
            self.fill_columns(&last_h[..height], &mut vertical[..height]);
            for r in 0..height {
                reach[r] |= horizontal[r] | vertical[r];
            }
        }
        for r in 0..height {
            let mut beside = (reach[r] << 1) | (reach[r] >> 1);
            if r > 0 {
                beside |= reach[r - 1];
            }
            if r + 1 < height {
                beside |= reach[r + 1];
            }
            out[r] = beside & self.row_occ[r] & (u64::MAX >> (64 - self.width));
        }
    }

    /// Per row, the free cells in a horizontal run through a cell of `seeds` (all free).
    fn fill_rows(&self, seeds: &[u64], out: &mut [u64]) {
        for (r, (&seed, out)) in seeds.iter().zip(out).enumerate() {
            if seed == 0 {
                *out = 0;
                continue;
            }
            let free = !self.row_occ[r];
            // Kogge-Stone fills towards the high and the low bits.
            let (mut up, mut up_free) = (seed, free);
            let (mut down, mut down_free) = (seed, free);
            for shift in [1, 2, 4, 8, 16, 32] {
                up |= up_free & (up << shift);
                up_free &= up_free << shift;
                down |= down_free & (down >> shift);
                down_free &= down_free >> shift;
            }
            *out = up | down;
        }
    }

    /// Per row, the free cells in a vertical run through a cell of `seeds` (all free).
    fn fill_columns(&self, seeds: &[u64], out: &mut [u64]) {
        let height = seeds.len();
        out.copy_from_slice(seeds);
        for r in 1..height {
            out[r] |= out[r - 1] & !self.row_occ[r];
        }
        for r in (0..height - 1).rev() {
            out[r] |= out[r + 1] & !self.row_occ[r];
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

    /// Every rule set without gravity, with and without the border, up to `max_turns` turns.
    fn rules_without_gravity(max_turns: u8) -> Vec<Rules> {
        (0..=max_turns)
            .flat_map(|max_turns| {
                [false, true].map(|border| Rules {
                    max_turns,
                    border,
                    gravity: false,
                })
            })
            .collect()
    }

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
            for rules in rules_without_gravity(4) {
                check_all(&board, rules);
            }
        }
    }

    /// Every pair that links only once some cells are freed has both tiles in the set
    /// `sighted` gives for those cells (so skipping the other pairs loses no link).
    #[test]
    fn freed_cells_are_sighted_by_every_pair_they_open() {
        use crate::deal::{Fill, deal};
        use crate::planner::mix64;
        let mut opened = 0;
        let mut sighted = Vec::new();
        for seed in 0..60u64 {
            let (rows, cols) = if seed % 2 == 0 { (8, 18) } else { (5, 7) };
            let board = deal(rows, cols, Fill::Xshisen, seed);
            for rules in rules_without_gravity(3) {
                let mut grid = Grid::of_board(&board, rules, |k| k as u16);
                let tiles: Vec<usize> = (0..rows * cols)
                    .map(|i| grid.index(i / cols, i % cols))
                    .collect();
                // Free cells a few at a time, as a game would, checking each step.
                let mut rng =
                    mix64(seed * 8 + u64::from(rules.max_turns) * 2 + u64::from(rules.border));
                for _ in 0..rows * cols / 3 {
                    let mut freed = Vec::new();
                    for _ in 0..2 {
                        rng = mix64(rng);
                        let at = tiles[(rng % tiles.len() as u64) as usize];
                        if grid.get(at) != FREE {
                            freed.push((at, grid.get(at)));
                        }
                    }
                    let linked_before: Vec<(usize, usize, bool)> = pairs(&grid, &tiles)
                        .into_iter()
                        .map(|(a, b)| (a, b, grid.links(a, b)))
                        .collect();
                    for &(at, _) in &freed {
                        grid.set(at, FREE);
                    }
                    let cells: Vec<usize> = freed.iter().map(|&(at, _)| at).collect();
                    grid.sighted(&cells, &mut sighted);
                    let rc = grid.rc.clone();
                    let seen = |i: usize| {
                        let (r, c) = rc[i];
                        sighted[r as usize] & (1 << c) != 0
                    };
                    for (a, b, before) in linked_before {
                        if grid.get(a) == FREE || grid.get(b) == FREE || before {
                            continue;
                        }
                        if grid.links(a, b) {
                            opened += 1;
                            assert!(
                                seen(a) && seen(b),
                                "{:?} {:?} opened by {:?} under {rules:?}",
                                grid.row_col(a),
                                grid.row_col(b),
                                cells.iter().map(|&i| grid.row_col(i)).collect::<Vec<_>>()
                            );
                        }
                    }
                }
            }
        }
        assert!(opened > 1000, "only {opened} pairs opened");
    }

    /// The same-kind pairs of tiles still on the grid.
    fn pairs(grid: &Grid, cells: &[usize]) -> Vec<(usize, usize)> {
        let mut out = Vec::new();
        for (i, &a) in cells.iter().enumerate() {
            for &b in &cells[i + 1..] {
                if grid.get(a) != FREE && grid.get(a) == grid.get(b) {
                    out.push((a, b));
                }
            }
        }
        out
    }
}
