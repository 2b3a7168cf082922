//! A lattice half a pitch off: cells that straddle two tiles, or a tile and the gap beside it.
//!
//! Strokes down the middle of every face (a glyph's stem, drawn alike on every tile of a
//! colour-only tileset) line up down whole columns like the tiles' borders, and the comb may
//! take them for the borders: every cell then holds the right half of one tile and the left
//! half of the next. The tiles still read (each cell shows colour), and the pitch and count
//! are right, so nothing after the comb notices. On the right lattice a cell is one thing, a
//! tile or an empty cell, so its two halves look alike; on the lattice half a pitch off most
//! cells hold two things (a tile and an empty cell, two tiles of different kinds), and their
//! halves differ.

use image::RgbaImage;

use super::Paired;
use crate::vision::Geometry;
use crate::vision::features::mean_colour;

/// How many times less the cells' halves must differ on the lattice half a pitch off than on
/// the board's own for the board to move there.
const STRADDLE_RATIO: f64 = 3.0;

/// `board` moved by half a pitch along an axis where its cells straddle the tiles (see the
/// module doc): where the cells half a pitch on (or back) have halves that differ
/// [`STRADDLE_RATIO`] times less than the board's own, and as large a share of the tiles read
/// there have a copy (the one with the largest share, then the most tiles with a copy).
/// `before` is `board`'s reading; the board and reading returned go together.
pub(super) fn onto_whole_tiles(
    image: &RgbaImage,
    board: Geometry,
    before: Option<Paired>,
) -> (Geometry, Option<Paired>) {
    let Some(read) = &before else {
        return (board, before);
    };
    let mut best: Option<(Geometry, Paired)> = None;
    for axis in 0..2 {
        let Some(own) = halves_differ(image, &board, axis) else {
            continue;
        };
        for sign in [-1.0, 1.0] {
            let mut moved = board;
            moved.origin[axis] += sign * board.pitch[axis] / 2.0;
            if !moved.fits(image.width(), image.height()) {
                continue;
            }
            let Some(there) = halves_differ(image, &moved, axis) else {
                continue;
            };
            if STRADDLE_RATIO * there > own {
                continue;
            }
            let Some(after) = Paired::read(image, &moved) else {
                continue;
            };
            // The straddling cells read as tiles of their own, so the count of tiles with a
            // copy may fall; the share of them may not.
            let better = |b: &Paired| (after.share, after.twins) > (b.share, b.twins);
            if after.share >= read.share && best.as_ref().is_none_or(|(_, b)| better(b)) {
                best = Some((moved, after));
            }
        }
    }
    match best {
        Some((moved, after)) => (moved, Some(after)),
        None => (board, before),
    }
}

/// The mean over `board`'s cells of how far the mean colour of a cell's first half along
/// `axis` (0: x, left and right; 1: y, top and bottom) lies from its second half's (summed
/// over the channels); a cell is a pitch wide, centred on its tile. `None` when no cell lies
/// within the image.
fn halves_differ(image: &RgbaImage, board: &Geometry, axis: usize) -> Option<f64> {
    let (w, h) = (f64::from(image.width()), f64::from(image.height()));
    let mut total = 0.0;
    let mut cells = 0usize;
    for index in 0..board.rows * board.cols {
        let centre = board.cell_center(board.pos_of(index));
        let lo = [0, 1].map(|i| centre[i] - board.pitch[i] / 2.0);
        let hi = [0, 1].map(|i| centre[i] + board.pitch[i] / 2.0);
        if lo[0] < 0.0 || lo[1] < 0.0 || hi[0] > w || hi[1] > h {
            continue;
        }
        let mut first_end = hi;
        first_end[axis] = centre[axis];
        let mut second_start = lo;
        second_start[axis] = centre[axis];
        let a = mean_colour(image, (lo[0], lo[1], first_end[0], first_end[1]), 2);
        let b = mean_colour(image, (second_start[0], second_start[1], hi[0], hi[1]), 2);
        total += (0..3).map(|c| f64::from((a[c] - b[c]).abs())).sum::<f64>();
        cells += 1;
    }
    (cells > 0).then(|| total / cells as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    /// A sparse 4 x 6 board of flat tiles (40 x 40 on a 44 pitch) in six colours, each with
    /// a white stem down its middle, on grey; every other cell empty.
    fn stemmed_board() -> (RgbaImage, Geometry) {
        let colours = [
            [200, 40, 40],
            [40, 160, 40],
            [40, 40, 200],
            [200, 160, 40],
            [160, 40, 160],
            [40, 160, 160],
        ];
        let mut image = RgbaImage::from_pixel(360, 260, Rgba([90, 90, 90, 255]));
        let board = Geometry {
            rows: 4,
            cols: 6,
            origin: [40.0, 30.0],
            pitch: [44.0, 44.0],
            tile_size: [40.0, 40.0],
        };
        for row in 0..4 {
            for col in 0..6 {
                if (row + col) % 2 == 1 {
                    continue;
                }
                let [r, g, b] = colours[(row * 3 + col / 2) % 6];
                let (x, y) = (40 + 44 * col as i32, 30 + 44 * row as i32);
                draw_filled_rect_mut(
                    &mut image,
                    Rect::at(x, y).of_size(40, 40),
                    Rgba([r, g, b, 255]),
                );
                let stem = Rect::at(x + 18, y + 6).of_size(4, 28);
                draw_filled_rect_mut(&mut image, stem, Rgba([255, 255, 255, 255]));
            }
        }
        (image, board)
    }

    #[test]
    fn halves_differ_more_half_a_pitch_off() {
        let (image, board) = stemmed_board();
        let own = halves_differ(&image, &board, 0).unwrap();
        let mut off = board;
        off.origin[0] += 22.0;
        off.cols = 5;
        let there = halves_differ(&image, &off, 0).unwrap();
        assert!(there > STRADDLE_RATIO * own, "own {own:.1}, off {there:.1}");
    }

    #[test]
    fn a_board_half_a_pitch_off_moves_onto_the_tiles() {
        let (image, board) = stemmed_board();
        let mut off = board;
        off.origin[0] -= 22.0;
        let read = Paired::read(&image, &off);
        let (moved, after) = onto_whole_tiles(&image, off, read);
        assert_eq!(moved.origin, board.origin);
        assert!(after.is_some());
    }

    #[test]
    fn a_board_on_its_tiles_stays() {
        let (image, board) = stemmed_board();
        let read = Paired::read(&image, &board);
        let (kept, _) = onto_whole_tiles(&image, board, read);
        assert_eq!(kept, board);
    }
}
