//! `linkup judge gomoku`: the HDOJ 2699 five-in-a-row judge of seed 004.
//!
//! Input: `T`, then `T` boards of 15 rows; a row is one line of exactly 15 cells `.` (empty),
//! `W` (white) or `B` (black). Trailing spaces, tabs and `\r` on a row are ignored; leading ones
//! are not. Blank lines may stand before each board, not inside one. Output: `YES` or `NO` per
//! board.
//!
//! The side to move is white when black has more stones, otherwise black. The answer is YES when
//! it can place one stone on an empty cell so that the new stone lies in a line (row, column or
//! diagonal) of exactly five of its stones; with `overline`, five or more. Fives already on the
//! board do not count. The seed's search starts lines only at a stone and so misses a five whose
//! empty cell comes first; here every empty cell is tried, counting the run through it.

use super::{Input, ParseError};

/// Rows and columns of a board.
pub const SIZE: usize = 15;

/// The four line directions as (row step, column step); the other four are their opposites.
const DIRECTIONS: [(isize, isize); 4] = [(0, 1), (1, 0), (1, 1), (1, -1)];

/// A gomoku board: each cell is `b'.'`, `b'W'` or `b'B'`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GomokuBoard {
    cells: [[u8; SIZE]; SIZE],
}

impl GomokuBoard {
    /// A board from its rows.
    ///
    /// # Panics
    /// If a cell is not `.`, `W` or `B`.
    pub fn new(cells: [[u8; SIZE]; SIZE]) -> Self {
        assert!(
            cells
                .iter()
                .flatten()
                .all(|c| matches!(c, b'.' | b'W' | b'B')),
            "gomoku cells are `.`, `W` or `B`"
        );
        GomokuBoard { cells }
    }

    /// The cell at `row`, `col` (`b'.'`, `b'W'` or `b'B'`).
    pub fn cell(&self, row: usize, col: usize) -> u8 {
        self.cells[row][col]
    }

    /// The colour to move: `b'W'` when black has more stones, otherwise `b'B'`.
    pub fn side_to_move(&self) -> u8 {
        let count = |stone: u8| self.cells.iter().flatten().filter(|&&c| c == stone).count();
        if count(b'B') > count(b'W') {
            b'W'
        } else {
            b'B'
        }
    }

    /// How many `stone`s follow `row`, `col` in the direction `(dr, dc)`, not counting the cell.
    fn run_from(&self, row: usize, col: usize, (dr, dc): (isize, isize), stone: u8) -> usize {
        let mut length = 0;
        let (mut r, mut c) = (row, col);
        loop {
            let (Some(next_r), Some(next_c)) = (r.checked_add_signed(dr), c.checked_add_signed(dc))
            else {
                return length;
            };
            if next_r >= SIZE || next_c >= SIZE || self.cells[next_r][next_c] != stone {
                return length;
            }
            (r, c) = (next_r, next_c);
            length += 1;
        }
    }

    /// Whether the side to move can make five with one stone: exactly five, or five or more
    /// with `overline`.
    ///
    /// ```
    /// use linkup::judge::gomoku::{GomokuBoard, SIZE};
    /// let mut cells = [[b'.'; SIZE]; SIZE];
    /// cells[0][1..5].copy_from_slice(b"BBBB");
    /// cells[9][0..4].copy_from_slice(b"WWWW");
    /// let board = GomokuBoard::new(cells);
    /// assert_eq!(board.side_to_move(), b'B'); // 4 stones each
    /// assert!(board.has_winning_move(false)); // at (0, 0) or (0, 5)
    /// cells[9][4] = b'B';
    /// let board = GomokuBoard::new(cells);
    /// assert_eq!(board.side_to_move(), b'W'); // black has more
    /// assert!(!board.has_winning_move(false)); // white's four is closed at both ends
    /// ```
    pub fn has_winning_move(&self, overline: bool) -> bool {
        let stone = self.side_to_move();
        (0..SIZE).any(|row| {
            (0..SIZE).any(|col| {
                self.cells[row][col] == b'.'
                    && DIRECTIONS.iter().any(|&(dr, dc)| {
                        let length = 1
                            + self.run_from(row, col, (dr, dc), stone)
                            + self.run_from(row, col, (-dr, -dc), stone);
                        length == 5 || (overline && length > 5)
                    })
            })
        })
    }
}

/// Reads board `number` (1-based): skips blank lines, then reads 15 rows.
fn read_board(input: &mut Input, number: u64) -> Result<GomokuBoard, ParseError> {
    let mut cells = [[b'.'; SIZE]; SIZE];
    let mut row = 0;
    while row < SIZE {
        let expected = || {
            format!(
                "row {} of board {number}: {SIZE} cells of `.`, `W` or `B`",
                row + 1
            )
        };
        let line = input.line();
        let Some(text) = input.next_line() else {
            return Err(ParseError::Truncated {
                line,
                expected: expected(),
            });
        };
        let text = text.trim_ascii_end();
        if row == 0 && text.is_empty() {
            continue; // blank lines before a board
        }
        let valid = text.len() == SIZE && text.iter().all(|c| matches!(c, b'.' | b'W' | b'B'));
        if !valid {
            return Err(ParseError::Malformed {
                line,
                expected: expected(),
                found: String::from_utf8_lossy(text).chars().take(20).collect(),
            });
        }
        cells[row].copy_from_slice(text);
        row += 1;
    }
    Ok(GomokuBoard::new(cells))
}

/// Answers every board of an HDOJ 2699 input; returns the whole output (`YES` or `NO` per
/// board), or the first error. `overline` counts six or more in a row as a five.
pub fn judge(input: &[u8], overline: bool) -> Result<String, ParseError> {
    let mut input = Input::new(input);
    let boards = input.uint("the board count T", u64::from(u32::MAX))?;
    let line = input.line();
    let rest = input.next_line().unwrap_or_default();
    if !rest.trim_ascii().is_empty() {
        return Err(ParseError::Malformed {
            line,
            expected: "the end of the line after the board count T".to_string(),
            found: String::from_utf8_lossy(rest.trim_ascii())
                .chars()
                .take(20)
                .collect(),
        });
    }
    let mut out = String::new();
    for number in 1..=boards {
        let board = read_board(&mut input, number)?;
        out.push_str(if board.has_winning_move(overline) {
            "YES\n"
        } else {
            "NO\n"
        });
    }
    if !input.at_end() {
        let token = input.token("the end of input")?;
        return Err(input.malformed(&format!("the end of input after {boards} boards"), token));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A board from 15 row strings.
    fn board(rows: [&str; SIZE]) -> GomokuBoard {
        let mut cells = [[b'.'; SIZE]; SIZE];
        for (row, text) in cells.iter_mut().zip(rows) {
            row.copy_from_slice(text.as_bytes());
        }
        GomokuBoard::new(cells)
    }

    /// The judge input for `boards`, rows joined by `\n`, boards separated by a blank line.
    fn input_for(boards: &[GomokuBoard]) -> String {
        let mut text = format!("{}\n", boards.len());
        for board in boards {
            for row in &board.cells {
                text.push_str(std::str::from_utf8(row).unwrap());
                text.push('\n');
            }
            text.push('\n');
        }
        text
    }

    /// Every maximal run of `stone` on the board as (cells in order), over all rows, columns and
    /// diagonals, found by walking each whole line from its first cell.
    fn runs(cells: &[[u8; SIZE]; SIZE], stone: u8) -> Vec<Vec<(usize, usize)>> {
        let mut lines: Vec<Vec<(usize, usize)>> = Vec::new();
        for i in 0..SIZE {
            lines.push((0..SIZE).map(|j| (i, j)).collect());
            lines.push((0..SIZE).map(|j| (j, i)).collect());
        }
        for d in 0..2 * SIZE - 1 {
            // Cells with row - col == d - (SIZE - 1), and cells with row + col == d.
            let falling = (0..SIZE).filter_map(|r| (r + SIZE - 1).checked_sub(d).map(|c| (r, c)));
            lines.push(falling.filter(|&(_, c)| c < SIZE).collect());
            let rising = (0..SIZE).filter_map(|r| d.checked_sub(r).map(|c| (r, c)));
            lines.push(rising.filter(|&(_, c)| c < SIZE).collect());
        }
        let mut found = Vec::new();
        for line in lines {
            let mut run = Vec::new();
            for (r, c) in line {
                if cells[r][c] == stone {
                    run.push((r, c));
                } else if !run.is_empty() {
                    found.push(std::mem::take(&mut run));
                }
            }
            if !run.is_empty() {
                found.push(run);
            }
        }
        found
    }

    /// Tries every empty cell: places the stone and looks for a winning run that was not on the
    /// board before.
    fn has_winning_move_by_scan(board: &GomokuBoard, overline: bool) -> bool {
        let stone = board.side_to_move();
        let wins = |run: &Vec<(usize, usize)>| run.len() == 5 || (overline && run.len() > 5);
        let before = runs(&board.cells, stone);
        (0..SIZE * SIZE).any(|i| {
            let (r, c) = (i / SIZE, i % SIZE);
            if board.cells[r][c] != b'.' {
                return false;
            }
            let mut after = board.cells;
            after[r][c] = stone;
            runs(&after, stone)
                .iter()
                .any(|run| wins(run) && !before.contains(run))
        })
    }

    /// Boards of random density with a bias towards one colour, so both verdicts occur.
    fn random_board() -> impl Strategy<Value = GomokuBoard> {
        (0u32..=6, 0u32..=6, 1u32..=6).prop_flat_map(|(white, black, empty)| {
            let cell = prop_oneof![
                white => Just(b'W'),
                black => Just(b'B'),
                empty => Just(b'.'),
            ];
            prop::collection::vec(cell, SIZE * SIZE).prop_map(|cells| {
                let mut rows = [[b'.'; SIZE]; SIZE];
                for (row, chunk) in rows.iter_mut().zip(cells.chunks(SIZE)) {
                    row.copy_from_slice(chunk);
                }
                GomokuBoard::new(rows)
            })
        })
    }

    proptest! {
        #[test]
        fn matches_the_scan(board in random_board()) {
            prop_assert_eq!(board.has_winning_move(false), has_winning_move_by_scan(&board, false));
            prop_assert_eq!(board.has_winning_move(true), has_winning_move_by_scan(&board, true));
        }

        #[test]
        fn judge_answers_each_board(boards in prop::collection::vec(random_board(), 0..4)) {
            let expected: String = boards
                .iter()
                .map(|b| if has_winning_move_by_scan(b, false) { "YES\n" } else { "NO\n" })
                .collect();
            prop_assert_eq!(judge(input_for(&boards).as_bytes(), false).unwrap(), expected);
        }
    }

    const EMPTY_ROW: &str = "...............";

    /// A board with `row` at row 7, white stones in row 0 and black ones in row 14.
    fn with_row(row: &str, white: &str, black: &str) -> GomokuBoard {
        let mut rows = [EMPTY_ROW; SIZE];
        rows[7] = row;
        rows[0] = white;
        rows[14] = black;
        board(rows)
    }

    #[test]
    fn issue5_five_starting_at_the_empty_cell() {
        // Black to move (4 each). The only five starts at the empty cell (7, 10) and runs to the
        // board's edge; a search that starts lines at a stone never sees it.
        let at_edge = with_row("...........BBBB", "W.W.W.W........", EMPTY_ROW);
        assert!(at_edge.has_winning_move(false));
        // The same with a white stone closing the far end.
        let blocked = with_row("......BBBBW....", "W.W.W..........", EMPTY_ROW);
        assert!(blocked.has_winning_move(false));
        // A diagonal falling to the left from the empty corner cell (0, 10), closed by white.
        let diagonal = board([
            EMPTY_ROW,
            ".........B.....",
            "........B......",
            ".......B.......",
            "......B........",
            ".....W.........",
            "W.W.W..........",
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
            EMPTY_ROW,
        ]);
        assert!(diagonal.has_winning_move(false));
        let input = input_for(&[at_edge, blocked, diagonal]);
        assert_eq!(judge(input.as_bytes(), false).unwrap(), "YES\nYES\nYES\n");
    }

    #[test]
    fn six_is_not_five_unless_overline() {
        // Black to move; filling the gap makes six.
        let six = with_row("....BB.BBB.....", "W.W.W.W.W......", EMPTY_ROW);
        assert!(!six.has_winning_move(false));
        assert!(six.has_winning_move(true));
        // Filling a gap next to an existing five makes six: no new five.
        let extends_five = with_row("....BBBBB......", "W.W.W.W.W......", EMPTY_ROW);
        assert!(!extends_five.has_winning_move(false));
        assert!(extends_five.has_winning_move(true));
    }

    #[test]
    fn the_side_to_move_depends_on_the_counts() {
        // Four white stones in a row; black has more stones, so white moves and wins.
        let white_moves = with_row("WWWW...........", EMPTY_ROW, "B.B.B.B.B......");
        assert_eq!(white_moves.side_to_move(), b'W');
        assert!(white_moves.has_winning_move(false));
        // Equal counts: black moves, and white's four does not help it.
        let black_moves = with_row("WWWW...........", EMPTY_ROW, "B.B.B.B........");
        assert_eq!(black_moves.side_to_move(), b'B');
        assert!(!black_moves.has_winning_move(false));
    }

    #[test]
    fn rows_may_end_in_spaces_or_cr_and_boards_may_be_separated_by_blank_lines() {
        let mut text = String::from("2 \r\n\r\n");
        for _ in 0..2 {
            for row in 0..SIZE {
                let cells = if row == 3 {
                    "BBBB...W.W.W.W."
                } else {
                    EMPTY_ROW
                };
                let end = if row == 0 { "  \r\n" } else { "\r\n" };
                text.push_str(cells);
                text.push_str(end);
            }
            text.push_str(" \r\n");
        }
        // Black moves (4 each) and completes `BBBB`: YES on both boards.
        assert_eq!(judge(text.as_bytes(), false).unwrap(), "YES\nYES\n");
    }

    #[test]
    fn a_short_row_is_an_error_with_its_line() {
        let mut text = String::from("1\n");
        for row in 0..SIZE {
            text.push_str(if row == 4 { "......" } else { EMPTY_ROW });
            text.push('\n');
        }
        assert_eq!(
            judge(text.as_bytes(), false).unwrap_err().to_string(),
            "line 6: expected row 5 of board 1: 15 cells of `.`, `W` or `B`, found `......`"
        );
    }

    #[test]
    fn a_blank_line_inside_a_board_is_an_error() {
        let text = format!("1\n{EMPTY_ROW}\n\n");
        assert_eq!(
            judge(text.as_bytes(), false).unwrap_err().to_string(),
            "line 3: expected row 2 of board 1: 15 cells of `.`, `W` or `B`, found ``"
        );
    }

    #[test]
    fn missing_boards_and_extra_input_are_errors() {
        let text = format!(
            "2\n{}",
            input_for(&[board([EMPTY_ROW; SIZE])])
                .split_once('\n')
                .unwrap()
                .1
        );
        assert_eq!(
            judge(text.as_bytes(), false).unwrap_err().to_string(),
            "line 18: input ends early: expected row 1 of board 2: 15 cells of `.`, `W` or `B`"
        );
        let text = format!("{}x\n", input_for(&[board([EMPTY_ROW; SIZE])]));
        assert_eq!(
            judge(text.as_bytes(), false).unwrap_err().to_string(),
            "line 18: expected the end of input after 1 boards, found `x`"
        );
        assert_eq!(
            judge(b"1 2\n", false).unwrap_err().to_string(),
            "line 1: expected the end of the line after the board count T, found `2`"
        );
        assert_eq!(
            judge(b"", false).unwrap_err().to_string(),
            "line 1: input ends early: expected the board count T"
        );
    }
}
