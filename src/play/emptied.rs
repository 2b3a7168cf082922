//! Cells the loop saw emptied (issue 12): once the game is seen to remove a pair, its cells stay
//! empty in the board the loop plans on, whatever a later reading says, until the evidence says
//! the board changed as a whole.
//!
//! Late in a game few tiles are left for vision to learn what a tile looks like from, and a
//! patch of wallpaper under emptied cells can read as a pair of tiles (kshisen's 12x24 board
//! with one pair left); clicking it would be refused again and again. A reading that puts
//! tiles in remembered-empty cells is taken as a misreading, not as news: those cells are
//! emptied in the reading and the loop reports them once ([`super::Event::EmptiedReadAsTiles`]).
//! The memory is forgotten, and the reading believed, when:
//! - many of the remembered cells read as tiles (at least a quarter of them): a new deal or a
//!   shuffle that filled the board again;
//! - the board's geometry changes (another board size, a resized window);
//! - the loop itself shuffles, or learns that tiles fall otherwise than it believed (the cells
//!   it remembered were worked out under the other rule).

use crate::board::{EMPTY, Pos};
use crate::vision::{Geometry, Reading};

/// The cells seen emptied, and the geometry they were seen at.
#[derive(Debug, Default)]
pub(super) struct EmptiedCells {
    /// The board's geometry when the cells were seen emptied.
    geometry: Option<Geometry>,
    /// The cells, in the order they were seen emptied.
    cells: Vec<Pos>,
    /// The remembered cells last reported read as tiles, so each set is reported once.
    reported: Vec<Pos>,
    /// Whether the last reading masked put tiles in remembered cells.
    contradicted: bool,
}

impl EmptiedCells {
    /// Remembers each of `cells` that `reading` shows empty (a removal the loop verified).
    pub(super) fn remember(&mut self, cells: impl IntoIterator<Item = Pos>, reading: &Reading) {
        self.geometry = Some(reading.geometry);
        for cell in cells {
            if reading.board.get(cell) == EMPTY && !self.cells.contains(&cell) {
                self.cells.push(cell);
            }
        }
    }

    /// Forgets every cell (the board may have changed as a whole).
    pub(super) fn forget(&mut self) {
        *self = EmptiedCells::default();
    }

    /// Whether the last reading masked read tiles in cells seen emptied (and they were emptied
    /// in it): vision is taking the background for tiles, so it may do so in other cells too.
    pub(super) fn contradicted(&self) -> bool {
        self.contradicted
    }

    /// How many cells are remembered.
    #[cfg(test)]
    fn len(&self) -> usize {
        self.cells.len()
    }

    /// Empties in `reading` the remembered cells it reads as tiles, unless the evidence says the
    /// board changed as a whole (then forgets them, see the module docs). Returns the cells
    /// emptied when they differ from the ones last returned, for the loop to report.
    pub(super) fn mask(&mut self, reading: &mut Reading) -> Option<Vec<Pos>> {
        self.contradicted = false;
        if self.cells.is_empty() {
            return None;
        }
        if !self
            .geometry
            .is_some_and(|g| same_board(&g, &reading.geometry))
        {
            self.forget();
            return None;
        }
        let tiles: Vec<Pos> = self
            .cells
            .iter()
            .copied()
            .filter(|&cell| reading.board.get(cell) != EMPTY)
            .collect();
        if tiles.is_empty() {
            self.reported.clear();
            return None;
        }
        if tiles.len() * 4 >= self.cells.len() {
            self.forget();
            return None;
        }
        self.contradicted = true;
        for &cell in &tiles {
            reading.board.set(cell, EMPTY);
        }
        reading.selected.retain(|s| !tiles.contains(s));
        reading.low_confidence.retain(|s| !tiles.contains(s));
        if tiles == self.reported {
            return None;
        }
        self.reported = tiles.clone();
        Some(tiles)
    }
}

/// Whether two geometries describe the same board: each lies within the other (the same rows
/// and columns, each cell within a quarter of a pitch of where it was).
fn same_board(a: &Geometry, b: &Geometry) -> bool {
    a.lies_within(b) && b.lies_within(a)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Kind};

    fn geometry() -> Geometry {
        Geometry {
            rows: 3,
            cols: 4,
            origin: [10.0, 20.0],
            pitch: [32.0, 40.0],
            tile_size: [30.0, 38.0],
        }
    }

    fn reading(rows: &[[Kind; 4]; 3]) -> Reading {
        let board = Board::from_rows(rows);
        Reading::certain(board, geometry())
    }

    /// Remembers the cells of the first two rows emptied.
    fn emptied_top_rows() -> EmptiedCells {
        let mut emptied = EmptiedCells::default();
        let seen = reading(&[[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        let cells = (0..2).flat_map(|r| (0..4).map(move |c| Pos::new(r, c)));
        emptied.remember(cells, &seen);
        emptied
    }

    #[test]
    fn a_tile_read_in_an_emptied_cell_is_emptied_and_reported_once() {
        let mut emptied = emptied_top_rows();
        let mut phantom = reading(&[[0, 3, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        phantom.selected = vec![Pos::new(0, 1)];
        assert_eq!(emptied.mask(&mut phantom), Some(vec![Pos::new(0, 1)]));
        assert!(emptied.contradicted());
        let cleaned = Board::from_rows(&[[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        assert_eq!(phantom.board, cleaned);
        assert!(phantom.selected.is_empty());
        let mut again = reading(&[[0, 3, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        assert_eq!(emptied.mask(&mut again), None);
        assert_eq!(again.board, cleaned);
        assert!(emptied.contradicted(), "masked again, reported once");
        let mut clean = reading(&[[0, 0, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        assert_eq!(emptied.mask(&mut clean), None);
        assert!(!emptied.contradicted());
    }

    #[test]
    fn only_cells_read_empty_when_the_removal_was_seen_are_remembered() {
        let mut emptied = EmptiedCells::default();
        let seen = reading(&[[0, 5, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        emptied.remember([Pos::new(0, 0), Pos::new(0, 1)], &seen);
        assert_eq!(emptied.len(), 1);
        let mut later = reading(&[[0, 5, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        assert_eq!(emptied.mask(&mut later), None);
        assert_eq!(later.board.get(Pos::new(0, 1)), 5);
    }

    #[test]
    fn a_board_filled_again_or_read_at_another_geometry_is_believed() {
        let mut emptied = emptied_top_rows();
        // Two of the eight cells read as tiles: a quarter, taken as a new deal.
        let mut dealt = reading(&[[3, 3, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        assert_eq!(emptied.mask(&mut dealt), None);
        assert_eq!(dealt.board.tiles(), 6);
        assert_eq!(emptied.len(), 0);

        let mut emptied = emptied_top_rows();
        let mut moved = reading(&[[3, 0, 0, 0], [0, 0, 0, 0], [1, 1, 2, 2]]);
        moved.geometry.origin[0] += 16.0;
        assert_eq!(emptied.mask(&mut moved), None);
        assert_eq!(moved.board.tiles(), 5);
        assert_eq!(emptied.len(), 0);
    }
}
