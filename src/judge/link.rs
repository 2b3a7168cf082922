//! `linkup judge link`: the HDOJ 1175 pair judge of seed 000.
//!
//! Input: cases of `n m`, `n` lines of `m` kinds, `q`, then `q` lines `x1 y1 x2 y2` (1-based),
//! until `0 0`. Output: `YES` or `NO` per query. Queries are independent: nothing is removed.
//!
//! The boards are huge (up to 1000 x 999) and mostly empty, where a search that walks cells is
//! slow. [`LinkIndex`] keeps the sorted tile positions of every row and column, so "is this
//! segment clear" is a binary search, and checks the at most three segments of a link directly:
//! the first and last segments are the straight runs of empty cells out of each tile, and the
//! middle one is any row (or column) both runs reach. A query costs O((n + m) log k).

use crate::board::{Board, EMPTY, Kind, Pos};

use super::{Input, ParseError};

/// Largest row count the problem allows.
const MAX_ROWS: u64 = 1000;
/// Largest column count the problem allows.
const MAX_COLS: u64 = 999;

/// Sorted positions of the tiles on each line of the board (each row, or each column), stored
/// flat: the tiles of line `i` are `at[start[i]..start[i + 1]]`.
struct LineTiles {
    start: Vec<u32>,
    at: Vec<u32>,
}

impl LineTiles {
    /// Groups `(line, position)` pairs, already sorted by position within each line.
    fn new(lines: usize, tiles: impl Iterator<Item = (usize, u32)> + Clone) -> Self {
        let mut start = vec![0u32; lines + 1];
        for (line, _) in tiles.clone() {
            start[line + 1] += 1;
        }
        for i in 0..lines {
            start[i + 1] += start[i];
        }
        let mut fill = start.clone();
        let mut at = vec![0u32; start[lines] as usize];
        for (line, position) in tiles {
            at[fill[line] as usize] = position;
            fill[line] += 1;
        }
        LineTiles { start, at }
    }

    fn line(&self, i: usize) -> &[u32] {
        &self.at[self.start[i] as usize..self.start[i + 1] as usize]
    }

    /// Whether line `i` has no tile strictly between positions `p` and `q` (any order).
    fn clear_between(&self, i: usize, p: i32, q: i32) -> bool {
        let (lo, hi) = (p.min(q), p.max(q));
        let line = self.line(i);
        let next = line.partition_point(|&x| (x as i32) <= lo);
        next == line.len() || line[next] as i32 >= hi
    }

    /// The nearest tiles on line `i` before and after position `p`, if any.
    fn neighbours(&self, i: usize, p: i32) -> (Option<i32>, Option<i32>) {
        let line = self.line(i);
        let before = line.partition_point(|&x| (x as i32) < p);
        let after = line.partition_point(|&x| (x as i32) <= p);
        (
            before.checked_sub(1).map(|k| line[k] as i32),
            line.get(after).map(|&x| x as i32),
        )
    }
}

/// A board prepared for answering two-turn link queries quickly.
pub struct LinkIndex<'a> {
    board: &'a Board,
    border: bool,
    rows: LineTiles,
    cols: LineTiles,
}

impl<'a> LinkIndex<'a> {
    /// Indexes `board`; `border` lets paths use the ring outside it. Costs one pass over the
    /// cells plus work proportional to the tiles.
    pub fn new(board: &'a Board, border: bool) -> Self {
        let tiles: Vec<(u32, u32)> = board
            .tile_positions()
            .map(|p| (p.row as u32, p.col as u32))
            .collect();
        let rows = LineTiles::new(board.rows(), tiles.iter().map(|&(r, c)| (r as usize, c)));
        let mut by_col = tiles;
        by_col.sort_unstable_by_key(|&(r, c)| (c, r));
        let cols = LineTiles::new(board.cols(), by_col.iter().map(|&(r, c)| (c as usize, r)));
        LinkIndex {
            board,
            border,
            rows,
            cols,
        }
    }

    /// Whether row `r` has no tile strictly between columns `c1` and `c2` (ring rows are empty).
    fn row_clear(&self, r: i32, c1: i32, c2: i32) -> bool {
        r < 0 || r >= self.board.rows() as i32 || self.rows.clear_between(r as usize, c1, c2)
    }

    /// Whether column `c` has no tile strictly between rows `r1` and `r2`.
    fn col_clear(&self, c: i32, r1: i32, r2: i32) -> bool {
        c < 0 || c >= self.board.cols() as i32 || self.cols.clear_between(c as usize, r1, r2)
    }

    /// The inclusive range of positions reachable from `p` along `line` through empty cells,
    /// where `len` is the line's length (the ring is reachable with the border).
    fn run(&self, lines: &LineTiles, line: usize, p: i32, len: i32) -> (i32, i32) {
        let (min, max) = if self.border { (-1, len) } else { (0, len - 1) };
        let (before, after) = lines.neighbours(line, p);
        (before.map_or(min, |x| x + 1), after.map_or(max, |x| x - 1))
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
        // The runs out of each tile reach up to (not onto) the next tile, so a run that ends
        // next to the other tile still meets the other tile's run at a shared cell or at the
        // tile itself; both runs include their own tile.
        //
        // Vertical, horizontal, vertical: a middle row both columns reach.
        let (a_lo, a_hi) = self.run(&self.cols, a.col as usize, a.row, rows);
        let (b_lo, b_hi) = self.run(&self.cols, b.col as usize, b.row, rows);
        let found = (a_lo.max(b_lo)..=a_hi.min(b_hi)).any(|r| self.row_clear(r, a.col, b.col));
        if found {
            return true;
        }
        // Horizontal, vertical, horizontal: a middle column both rows reach.
        let (a_lo, a_hi) = self.run(&self.rows, a.row as usize, a.col, cols);
        let (b_lo, b_hi) = self.run(&self.rows, b.row as usize, b.col, cols);
        (a_lo.max(b_lo)..=a_hi.min(b_hi)).any(|c| self.col_clear(c, a.row, b.row))
    }
}

/// Answers every case of an HDOJ 1175 input; returns the whole output (one line per query), or
/// the first error. `border` lets paths use the ring outside the board.
pub fn judge(input: &[u8], border: bool) -> Result<String, ParseError> {
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
            let mut cell = |what: &str, limit: usize| -> Result<i32, ParseError> {
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
