//! The board: a grid of tile kinds, `0` for an empty cell and `1..=K` for tiles.
//!
//! Every stage speaks in boards: vision produces one from a frame, the solver reads one and
//! returns moves, the simulated game keeps one. The text form is the seeds' form: one row per
//! line, cells separated by white space, `#` starts a comment.

use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};
use thiserror::Error;

/// A tile kind: `0` is an empty cell, anything else a tile.
pub type Kind = u32;

/// The kind of an empty cell.
pub const EMPTY: Kind = 0;

/// A cell address, 0-based. Rows and columns may be `-1`, `rows` or `cols` on a path that runs
/// through the ring just outside the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Pos {
    /// Row, top to bottom.
    pub row: i32,
    /// Column, left to right.
    pub col: i32,
}

impl Pos {
    /// The cell at `row`, `col`.
    pub const fn new(row: i32, col: i32) -> Self {
        Pos { row, col }
    }
}

impl fmt::Display for Pos {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.row, self.col)
    }
}

impl Serialize for Pos {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        [self.row, self.col].serialize(serializer)
    }
}

/// A rectangular grid of tile kinds.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    rows: usize,
    cols: usize,
    cells: Vec<Kind>,
}

/// Why a board text did not parse.
#[derive(Debug, Error, PartialEq, Eq)]
pub enum BoardError {
    /// A token is not a non-negative integer.
    #[error(
        "line {line}, column {column}: expected a tile kind (a non-negative integer), found `{found}`"
    )]
    BadCell {
        /// 1-based line number.
        line: usize,
        /// 1-based character column where the token starts.
        column: usize,
        /// The offending token.
        found: String,
    },
    /// A row has a different number of cells from the first row.
    #[error("line {line}: expected {expected} cells like the first row, found {found}")]
    RaggedRow {
        /// 1-based line number.
        line: usize,
        /// Cells in the first row.
        expected: usize,
        /// Cells in this row.
        found: usize,
    },
    /// There is no row at all.
    #[error("the board is empty: expected at least one row of tile kinds")]
    NoRows,
    /// The cell vector does not match the dimensions.
    #[error("a {rows}x{cols} board needs {} cells, got {found}", rows * cols)]
    WrongSize {
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Cells given.
        found: usize,
    },
}

impl Board {
    /// A board of `rows` x `cols` cells given in row-major order.
    pub fn new(rows: usize, cols: usize, cells: Vec<Kind>) -> Result<Self, BoardError> {
        if rows == 0 || cols == 0 {
            return Err(BoardError::NoRows);
        }
        if cells.len() != rows * cols {
            return Err(BoardError::WrongSize {
                rows,
                cols,
                found: cells.len(),
            });
        }
        Ok(Board { rows, cols, cells })
    }

    /// An empty board of `rows` x `cols` cells.
    pub fn empty(rows: usize, cols: usize) -> Self {
        Board {
            rows,
            cols,
            cells: vec![EMPTY; rows * cols],
        }
    }

    /// A board from rows of kinds; panics if the rows are ragged (meant for tests and literals).
    pub fn from_rows<R: AsRef<[Kind]>>(rows: &[R]) -> Self {
        let cols = rows.first().map_or(0, |r| r.as_ref().len());
        let cells: Vec<Kind> = rows.iter().flat_map(|r| r.as_ref().to_vec()).collect();
        Board::new(rows.len(), cols, cells).expect("rows of equal length")
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// The cells in row-major order.
    pub fn cells(&self) -> &[Kind] {
        &self.cells
    }

    /// Whether `pos` lies on the board.
    pub fn contains(&self, pos: Pos) -> bool {
        pos.row >= 0
            && pos.col >= 0
            && (pos.row as usize) < self.rows
            && (pos.col as usize) < self.cols
    }

    /// The kind at `pos`; `EMPTY` for any position off the board.
    pub fn get(&self, pos: Pos) -> Kind {
        if self.contains(pos) {
            self.cells[pos.row as usize * self.cols + pos.col as usize]
        } else {
            EMPTY
        }
    }

    /// Sets the kind at `pos`; panics if `pos` is off the board.
    pub fn set(&mut self, pos: Pos, kind: Kind) {
        assert!(
            self.contains(pos),
            "{pos} is off the {}x{} board",
            self.rows,
            self.cols
        );
        self.cells[pos.row as usize * self.cols + pos.col as usize] = kind;
    }

    /// Number of tiles (non-empty cells).
    pub fn tiles(&self) -> usize {
        self.cells.iter().filter(|&&k| k != EMPTY).count()
    }

    /// Whether no tile is left.
    pub fn is_cleared(&self) -> bool {
        self.cells.iter().all(|&k| k == EMPTY)
    }

    /// The positions of every tile in row-major order.
    pub fn tile_positions(&self) -> impl Iterator<Item = Pos> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k != EMPTY)
            .map(|(i, _)| Pos::new((i / self.cols) as i32, (i % self.cols) as i32))
    }

    /// The same board with kinds renumbered `1, 2, ...` in order of first appearance (row-major),
    /// so two readings of one position compare equal whatever ids a classifier gave.
    pub fn renumbered(&self) -> Board {
        let mut ids: Vec<(Kind, Kind)> = Vec::new();
        let cells = self
            .cells
            .iter()
            .map(|&k| {
                if k == EMPTY {
                    return EMPTY;
                }
                match ids.iter().find(|(old, _)| *old == k) {
                    Some(&(_, new)) => new,
                    None => {
                        let new = ids.len() as Kind + 1;
                        ids.push((k, new));
                        new
                    }
                }
            })
            .collect();
        Board { cells, ..*self }
    }

    /// The rows as vectors, for JSON output.
    pub fn to_rows(&self) -> Vec<Vec<Kind>> {
        self.cells.chunks(self.cols).map(<[Kind]>::to_vec).collect()
    }
}

impl FromStr for Board {
    type Err = BoardError;

    /// Parses the text form: one row per line, cells separated by white space, `#` comments,
    /// blank lines ignored.
    fn from_str(text: &str) -> Result<Self, BoardError> {
        let mut cells = Vec::new();
        let mut cols = None;
        let mut rows = 0;
        for (index, raw) in text.lines().enumerate() {
            let line = index + 1;
            let content = raw.split('#').next().unwrap_or("");
            let mut count = 0;
            for (column, token) in tokens(content) {
                let kind = token.parse::<Kind>().map_err(|_| BoardError::BadCell {
                    line,
                    column,
                    found: token.to_string(),
                })?;
                cells.push(kind);
                count += 1;
            }
            if count == 0 {
                continue;
            }
            match cols {
                None => cols = Some(count),
                Some(expected) if expected != count => {
                    return Err(BoardError::RaggedRow {
                        line,
                        expected,
                        found: count,
                    });
                }
                Some(_) => {}
            }
            rows += 1;
        }
        let cols = cols.ok_or(BoardError::NoRows)?;
        Board::new(rows, cols, cells)
    }
}

/// The white-space separated tokens of a line with their 1-based character columns.
fn tokens(line: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = line.char_indices().peekable();
    std::iter::from_fn(move || {
        while rest.next_if(|(_, c)| c.is_whitespace()).is_some() {}
        let &(start, _) = rest.peek()?;
        let mut end = line.len();
        while let Some(&(i, c)) = rest.peek() {
            if c.is_whitespace() {
                end = i;
                break;
            }
            rest.next();
        }
        let column = line[..start].chars().count() + 1;
        Some((column, &line[start..end]))
    })
}

impl fmt::Display for Board {
    /// Writes the text form with columns aligned.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let width = self
            .cells
            .iter()
            .map(|k| k.to_string().len())
            .max()
            .unwrap_or(1);
        for row in self.cells.chunks(self.cols) {
            let line: Vec<String> = row.iter().map(|k| format!("{k:>width$}")).collect();
            writeln!(f, "{}", line.join(" "))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_rows_comments_and_blank_lines() {
        let board: Board = "# a comment\n1 2 0\n\n0 2 1  # trailing\n".parse().unwrap();
        assert_eq!((board.rows(), board.cols()), (2, 3));
        assert_eq!(board.get(Pos::new(1, 2)), 1);
        assert_eq!(board.tiles(), 4);
    }

    #[test]
    fn bad_token_names_line_and_column() {
        let err = "1 2\n3 x4\n".parse::<Board>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2, column 3: expected a tile kind (a non-negative integer), found `x4`"
        );
    }

    #[test]
    fn ragged_row_is_an_error() {
        let err = "1 2\n3\n".parse::<Board>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "line 2: expected 2 cells like the first row, found 1"
        );
    }

    #[test]
    fn empty_text_is_an_error() {
        assert_eq!("# nothing\n".parse::<Board>(), Err(BoardError::NoRows));
    }

    #[test]
    fn display_round_trips() {
        let board = Board::from_rows(&[[1, 10, 0], [0, 10, 1]]);
        let text = board.to_string();
        assert_eq!(text, " 1 10  0\n 0 10  1\n");
        assert_eq!(text.parse::<Board>().unwrap(), board);
    }

    #[test]
    fn renumbered_ignores_kind_ids() {
        let a = Board::from_rows(&[[7, 0, 3], [3, 7, 9]]);
        let b = Board::from_rows(&[[2, 0, 5], [5, 2, 1]]);
        assert_eq!(a.renumbered(), b.renumbered());
        assert_eq!(a.renumbered(), Board::from_rows(&[[1, 0, 2], [2, 1, 3]]));
    }

    #[test]
    fn off_board_reads_as_empty() {
        let board = Board::from_rows(&[[1]]);
        assert_eq!(board.get(Pos::new(-1, 0)), EMPTY);
        assert_eq!(board.get(Pos::new(0, 1)), EMPTY);
    }
}
