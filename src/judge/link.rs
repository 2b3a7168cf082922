//! `linkup judge link`: the HDOJ 1175 pair judge of seed 000.
//!
//! Input: cases of `n m`, `n` lines of `m` kinds, `q`, then `q` lines `x1 y1 x2 y2` (1-based),
//! until `0 0`. Output: `YES` or `NO` per query. Queries are independent: nothing is removed.
//!
//! The boards are huge (up to 1000 x 999) and mostly empty, where a search that walks cells is
//! slow. [`LinkIndex`] keeps per-row and per-column prefix counts of tiles, so "is this segment
//! clear" costs O(1), and checks the at most three segments of a link directly: the first and
//! last segments are the straight runs of empty cells out of each tile, and the middle one is
//! any row (or column) both runs reach. A query costs O(n + m).

use crate::board::{Board, EMPTY, Kind, Pos};

use super::{Input, InputError};

/// Largest row count the problem allows.
const MAX_ROWS: u64 = 1000;
/// Largest column count the problem allows.
const MAX_COLS: u64 = 999;

/// A board prepared for answering two-turn link queries quickly.
pub struct LinkIndex<'a> {
    board: &'a Board,
    border: bool,
    /// `row_count[r * (cols + 1) + c]`: tiles in row `r` left of column `c`.
    row_count: Vec<u16>,
    /// `col_count[c * (rows + 1) + r]`: tiles in column `c` above row `r`.
    col_count: Vec<u16>,
}

impl<'a> LinkIndex<'a> {
    /// Indexes `board`; `border` lets paths use the ring outside it.
    pub fn new(board: &'a Board, border: bool) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let mut row_count = vec![0u16; rows * (cols + 1)];
        let mut col_count = vec![0u16; cols * (rows + 1)];
        for (r, line) in board.cells().chunks(cols).enumerate() {
            let counts = &mut row_count[r * (cols + 1)..(r + 1) * (cols + 1)];
            for (c, &kind) in line.iter().enumerate() {
                counts[c + 1] = counts[c] + u16::from(kind != EMPTY);
            }
        }
        for c in 0..cols {
            let counts = &mut col_count[c * (rows + 1)..(c + 1) * (rows + 1)];
            for r in 0..rows {
                counts[r + 1] = counts[r] + u16::from(board.cells()[r * cols + c] != EMPTY);
            }
        }
        LinkIndex {
            board,
            border,
            row_count,
            col_count,
        }
    }

    /// Whether row `r` has no tile strictly between columns `c1` and `c2` (any order; ring rows
    /// and columns count as empty).
    fn row_clear(&self, r: i32, c1: i32, c2: i32) -> bool {
        let rows = self.board.rows() as i32;
        if r < 0 || r >= rows {
            return true;
        }
        let cols = self.board.cols() as i32;
        let (lo, hi) = (c1.min(c2) + 1, c1.max(c2));
        let (lo, hi) = (lo.clamp(0, cols), hi.clamp(0, cols));
        if lo >= hi {
            return true;
        }
        let base = r as usize * (cols as usize + 1);
        self.row_count[base + hi as usize] == self.row_count[base + lo as usize]
    }

    /// Whether column `c` has no tile strictly between rows `r1` and `r2`.
    fn col_clear(&self, c: i32, r1: i32, r2: i32) -> bool {
        let cols = self.board.cols() as i32;
        if c < 0 || c >= cols {
            return true;
        }
        let rows = self.board.rows() as i32;
        let (lo, hi) = (r1.min(r2) + 1, r1.max(r2));
        let (lo, hi) = (lo.clamp(0, rows), hi.clamp(0, rows));
        if lo >= hi {
            return true;
        }
        let base = c as usize * (rows as usize + 1);
        self.col_count[base + hi as usize] == self.col_count[base + lo as usize]
    }

    /// The inclusive range of positions `from` can reach along one axis through empty cells,
    /// where `free(x)` says whether position `x` on that axis is empty and `limit` is the axis
    /// length.
    fn run(&self, from: i32, limit: i32, free: impl Fn(i32) -> bool) -> (i32, i32) {
        let (min, max) = if self.border {
            (-1, limit)
        } else {
            (0, limit - 1)
        };
        let mut lo = from;
        while lo > min && free(lo - 1) {
            lo -= 1;
        }
        let mut hi = from;
        while hi < max && free(hi + 1) {
            hi += 1;
        }
        (lo, hi)
    }

    /// Whether `a` and `b` can be linked with at most two turns.
    pub fn links(&self, a: Pos, b: Pos) -> bool {
        let board = self.board;
        if a == b || !board.contains(a) || !board.contains(b) {
            return false;
        }
        let kind: Kind = board.get(a);
        if kind == EMPTY || board.get(b) != kind {
            return false;
        }
        let (rows, cols) = (board.rows() as i32, board.cols() as i32);
        let empty = |r: i32, c: i32| board.get(Pos::new(r, c)) == EMPTY;

        // Vertical, horizontal, vertical: a middle row both columns reach.
        let (a_lo, a_hi) = self.run(a.row, rows, |r| empty(r, a.col));
        let (b_lo, b_hi) = self.run(b.row, rows, |r| empty(r, b.col));
        let found = (a_lo.max(b_lo)..=a_hi.min(b_hi)).any(|r| self.row_clear(r, a.col, b.col));
        if found {
            return true;
        }
        // Horizontal, vertical, horizontal: a middle column both rows reach.
        let (a_lo, a_hi) = self.run(a.col, cols, |c| empty(a.row, c));
        let (b_lo, b_hi) = self.run(b.col, cols, |c| empty(b.row, c));
        (a_lo.max(b_lo)..=a_hi.min(b_hi)).any(|c| self.col_clear(c, a.row, b.row))
    }
}

/// Answers every case of an HDOJ 1175 input; returns the whole output (one line per query), or
/// the first error. `border` lets paths use the ring outside the board.
pub fn judge(input: &[u8], border: bool) -> Result<String, InputError> {
    let mut input = Input::new(input);
    let mut out = String::new();
    loop {
        if input.at_end() {
            break; // tolerate a missing `0 0` at the very end
        }
        let n = input.uint("the row count n", MAX_ROWS)?;
        let m = input.uint("the column count m", MAX_COLS)?;
        if n == 0 && m == 0 {
            break;
        }
        if n == 0 || m == 0 {
            return Err(input.out_of_range(format!(
                "a board needs at least one row and one column, found {n} x {m}"
            )));
        }
        let (n, m) = (n as usize, m as usize);
        let mut cells = Vec::with_capacity(n * m);
        for _ in 0..n * m {
            cells.push(
                input.uint("a tile kind (a non-negative integer)", u64::from(u32::MAX))? as Kind,
            );
        }
        let board = Board::new(n, m, cells).expect("n * m cells were read");
        let index = LinkIndex::new(&board, border);
        let q = input.uint("the query count q", u64::from(u32::MAX))?;
        for _ in 0..q {
            let mut cell = |what: &str, limit: usize| -> Result<i32, InputError> {
                let v = input.uint(what, u64::MAX)?;
                if v == 0 || v > limit as u64 {
                    return Err(input
                        .out_of_range(format!("{what} must be between 1 and {limit}, found {v}")));
                }
                Ok(v as i32 - 1)
            };
            let x1 = cell("a query row x1", n)?;
            let y1 = cell("a query column y1", m)?;
            let x2 = cell("a query row x2", n)?;
            let y2 = cell("a query column y2", m)?;
            let yes = index.links(Pos::new(x1, y1), Pos::new(x2, y2));
            out.push_str(if yes { "YES\n" } else { "NO\n" });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "3 4\n1 2 3 4\n0 0 0 0\n4 3 2 1\n4\n1 1 3 4\n1 1 2 4\n1 1 3 3\n2 1 2 4\n\
                          3 4\n0 1 4 3\n0 2 4 1\n0 0 0 0\n2\n1 1 2 4\n1 3 2 3\n0 0\n";

    #[test]
    fn hdoj_1175_sample() {
        assert_eq!(
            judge(SAMPLE.as_bytes(), false).unwrap(),
            "YES\nNO\nNO\nNO\nNO\nYES\n"
        );
    }

    #[test]
    fn border_opens_the_outside() {
        let input = b"1 3\n1 2 1\n1\n1 1 1 3\n0 0\n";
        assert_eq!(judge(input, false).unwrap(), "NO\n");
        assert_eq!(judge(input, true).unwrap(), "YES\n");
    }

    #[test]
    fn queries_are_independent() {
        // After a YES nothing is removed and no state carries over to the next query.
        let input = b"2 2\n1 1\n2 2\n3\n1 1 1 2\n2 1 2 2\n1 1 2 1\n0 0\n";
        assert_eq!(judge(input, false).unwrap(), "YES\nYES\nNO\n");
    }

    #[test]
    fn truncated_input_is_an_error_with_a_line() {
        let err = judge(b"2 2\n1 1\n2\n", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: input ends early: expected a tile kind (a non-negative integer)"
        );
    }

    #[test]
    fn query_outside_the_board_is_an_error() {
        let err = judge(b"1 2\n1 1\n1\n1 1 1 3\n0 0\n", false).unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 4: a query column y2 must be between 1 and 2, found 3"
        );
    }
}
