//! The tiles' centre found from their silhouettes against the empty cells beside them.
//!
//! Where a tile has an empty cell beside it (or lies on the board's edge), its whole body
//! shows against what the empty cell shows: the panel, the page, the gap's colour. Coming from
//! the empty cell's middle towards the tile, the first pixels unlike it are the body's end, a
//! 3D side and an outline included, while a see-through drop shadow (the ground darkened alike
//! on every channel) and a grid line or dot in the gap (too thin) are passed over. The ends on
//! both sides of an axis, each the median over the tiles that show it, bound the body. Pictures
//! drawn with no body (emoji on the page) end where each picture does, so the ends must agree
//! from tile to tile.

use image::RgbaImage;

use super::Geometry;
use super::features::median_colour;
use crate::board::{Board, Pos};
use crate::stats::median;

/// Least colour step (sum over R, G, B) from the empty cell's own colour for a pixel to be
/// the tile's, on a plain ground: over JPEG noise, under a dark outline on a dark panel.
const BODY_STEP: i32 = 24;

/// On a textured ground the step is this many times the median stray of the empty cell's own
/// pixels from its colour, and [`BODY_STEP_OVER`] more.
const STRAY_TIMES: i32 = 3;

/// See [`STRAY_TIMES`].
const BODY_STEP_OVER: i32 = 12;

/// Fewest pixels in a row, from the body's end inwards, that must be unlike the empty cell: a
/// grid line or a dot in the gap is thinner.
const RUN: i64 = 3;

/// The darkest a see-through shadow leaves its ground (share of its brightness): a darker
/// band is drawn (a tile's outline or its side).
const SHADOW_LEAST: f64 = 0.35;

/// Most the middle half of the tiles' ends may spread, in pixels or as a share of the pitch
/// (whichever is more).
const ENDS_SPREAD: (f64, f64) = (1.5, 0.03);

/// Fewest tiles that must show each end.
const FEWEST_ENDS: usize = 2;

/// The middle share of a tile's length across the axis whose lines are scanned.
const LINES: (f64, f64) = (0.3, 0.7);

/// Most lines scanned per tile end (spread over [`LINES`]).
const MOST_LINES: usize = 12;

/// How far (share of the pitch) from the empty cell's centre its own colour is taken.
const MIDDLE: f64 = 0.2;

/// Tile (0, 0)'s body centre (x, y) from the silhouettes of the tiles of `read` (read on
/// `board`) beside empty cells; `None` where an end of either axis shows on too few tiles or
/// the tiles disagree on it.
pub(super) fn silhouette_centre(
    image: &RgbaImage,
    board: &Geometry,
    read: &Board,
) -> Option<[f64; 2]> {
    let x = axis_centre(image, board, read, 0)?;
    let y = axis_centre(image, board, read, 1)?;
    Some([x, y])
}

/// The body's centre along `axis` (x 0, y 1), in image coordinates, of tile (0, 0).
fn axis_centre(image: &RgbaImage, board: &Geometry, read: &Board, axis: usize) -> Option<f64> {
    // The ends before and after the tiles, from their cells' starts.
    let mut ends: [Vec<f64>; 2] = Default::default();
    for row in 0..board.rows as i32 {
        for col in 0..board.cols as i32 {
            if read.get(Pos { row, col }) == 0 {
                continue;
            }
            for (side, step) in [(0, -1), (1, 1)] {
                let beside = if axis == 0 {
                    Pos {
                        row,
                        col: col + step,
                    }
                } else {
                    Pos {
                        row: row + step,
                        col,
                    }
                };
                // Beyond the board counts as empty.
                if read.get(beside) != 0 {
                    continue;
                }
                let cell = [col as f64, row as f64];
                if let Some(end) = body_end(image, board, cell, axis, step) {
                    ends[side].push(end);
                }
            }
        }
    }
    let most = ENDS_SPREAD.0.max(ENDS_SPREAD.1 * board.pitch[axis]);
    for e in &mut ends {
        if e.len() < FEWEST_ENDS {
            return None;
        }
        e.sort_by(f64::total_cmp);
        let quartile = |q: usize| e[(e.len() - 1) * q / 4];
        if quartile(3) - quartile(1) > most {
            return None;
        }
    }
    let start = median(&mut ends[0])?;
    let end = median(&mut ends[1])?;
    Some(board.origin[axis] + (start + end) / 2.0)
}

/// Where the body of the tile in `cell` (column, row) ends towards the empty cell `step` (-1
/// or 1) along `axis`, from the cell's start: the median over the lines scanned. `None` when
/// the two cells' span leaves the image or too few lines find an end.
fn body_end(
    image: &RgbaImage,
    board: &Geometry,
    cell: [f64; 2],
    axis: usize,
    step: i32,
) -> Option<f64> {
    let other = 1 - axis;
    let start: [f64; 2] = std::array::from_fn(|i| board.origin[i] + cell[i] * board.pitch[i]);
    let size = [f64::from(image.width()), f64::from(image.height())];
    let pitch = board.pitch[axis];
    let tile_centre = start[axis] + board.tile_size[axis] / 2.0;
    let empty_centre = tile_centre + f64::from(step) * pitch;
    let reach = MIDDLE * pitch;
    // The scan reads up to RUN pixels past its last start, which lies within `reach`.
    if reach < RUN as f64
        || empty_centre.min(tile_centre) - reach < 0.0
        || empty_centre.max(tile_centre) + reach >= size[axis]
    {
        return None;
    }
    let (first, last) = (
        start[other] + LINES.0 * board.tile_size[other],
        start[other] + LINES.1 * board.tile_size[other],
    );
    if first < 0.0 || last >= size[other] {
        return None;
    }
    let scan = Scan {
        image,
        axis,
        middle: ((empty_centre - reach) as i64, (empty_centre + reach) as i64),
        towards: -i64::from(step),
        tile_centre: tile_centre as i64,
    };
    let lines = (first as i64, last as i64);
    let every = ((lines.1 - lines.0) as usize).div_ceil(MOST_LINES).max(1);
    let mut found: Vec<f64> = (lines.0..lines.1)
        .step_by(every)
        .filter_map(|line| scan.end(line))
        .map(|edge| edge - start[axis])
        .collect();
    if found.len() < 2 {
        return None;
    }
    median(&mut found)
}

/// One empty cell beside one tile, scanned line by line.
struct Scan<'a> {
    image: &'a RgbaImage,
    /// The axis scanned along (x 0, y 1).
    axis: usize,
    /// The empty cell's middle (first and last pixel along the axis), where its own colour
    /// is taken.
    middle: (i64, i64),
    /// The way to the tile along the axis (1 or -1).
    towards: i64,
    /// The tile's centre along the axis: the scan stops there.
    tile_centre: i64,
}

impl Scan<'_> {
    /// The pixel at `along` the axis on line `line` (R, G, B).
    fn pixel(&self, along: i64, line: i64) -> [u8; 3] {
        let (x, y) = if self.axis == 0 {
            (along, line)
        } else {
            (line, along)
        };
        let p = self.image.get_pixel(x as u32, y as u32).0;
        [p[0], p[1], p[2]]
    }

    /// The body's end on `line` (image coordinate of the edge of its first pixel), coming from
    /// the empty cell's middle: the first of [`RUN`] pixels unlike the cell's own colour (and
    /// not its shadow). `None` when none is found before the tile's centre.
    fn end(&self, line: i64) -> Option<f64> {
        let (m0, m1) = self.middle;
        let middle: Vec<[u8; 3]> = (m0..=m1).map(|a| self.pixel(a, line)).collect();
        let ground = median_colour(&middle).map(i32::from);
        let step_from =
            |p: [u8; 3]| -> i32 { (0..3).map(|c| (i32::from(p[c]) - ground[c]).abs()).sum() };
        let mut strays: Vec<i32> = middle.iter().map(|&p| step_from(p)).collect();
        let stray = median(&mut strays).unwrap_or(0);
        let least = BODY_STEP.max(STRAY_TIMES * stray + BODY_STEP_OVER);
        let unlike = |along: i64| {
            let p = self.pixel(along, line);
            step_from(p) >= least && !shadow_of(p.map(i32::from), ground)
        };
        let mut along = if self.towards > 0 { m1 + 1 } else { m0 - 1 };
        while (along - self.tile_centre) * self.towards < 0 {
            if (0..RUN).all(|i| unlike(along + i * self.towards)) {
                // Coming from the left (top) the body starts at the pixel's near edge.
                let edge = if self.towards > 0 { along } else { along + 1 };
                return Some(edge as f64);
            }
            along += self.towards;
        }
        None
    }
}

/// Whether `p` is `ground` darkened alike on every channel, by no more than [`SHADOW_LEAST`]
/// leaves (a drop shadow drawn see-through).
fn shadow_of(p: [i32; 3], ground: [i32; 3]) -> bool {
    let (ps, gs) = (p.iter().sum::<i32>(), ground.iter().sum::<i32>());
    if gs == 0 || ps >= gs {
        return false;
    }
    let k = f64::from(ps) / f64::from(gs);
    k >= SHADOW_LEAST
        && (0..3).all(|c| {
            let g = f64::from(ground[c]);
            (f64::from(p[c]) - k * g).abs() <= 12.0 + 0.1 * g
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::test_pictures::board_4x6;
    use image::Rgba;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    const GROUND: [u8; 3] = [90, 120, 80];

    /// Cells of 48 x 60 from (20, 30) on a green panel, 4 x 6; where `holds`, a body of 40 x 50
    /// at (3, 2) in its cell (a dark blue 6 px side on the left, a light face), with a see-through
    /// shadow 3 px to the left and below and a grid line through the gaps.
    fn board_of_3d_tiles(holds: impl Fn(u32, u32) -> bool) -> RgbaImage {
        let rgba = |[r, g, b]: [u8; 3]| Rgba([r, g, b, 255]);
        let mut image = RgbaImage::from_pixel(340, 300, rgba(GROUND));
        let shadow = GROUND.map(|g| (f64::from(g) * 0.6) as u8);
        for r in 0..4 {
            let line = Rect::at(20, 30 + 60 * r).of_size(48 * 6, 1);
            draw_filled_rect_mut(&mut image, line, rgba([200, 200, 190]));
        }
        for r in 0..4 {
            for c in (0..6).filter(|&c| holds(r, c)) {
                let (x0, y0) = (20 + 48 * c as i32 + 3, 30 + 60 * r as i32 + 2);
                let mut fill = |x: i32, y: i32, w: u32, h: u32, colour: [u8; 3]| {
                    draw_filled_rect_mut(&mut image, Rect::at(x, y).of_size(w, h), rgba(colour));
                };
                fill(x0 - 3, y0 + 3, 40, 50, shadow);
                fill(x0, y0, 40, 50, [235, 230, 210]);
                fill(x0, y0, 6, 50, [50, 50, 110]);
                // A picture that differs from kind to kind.
                let half = 4 + 3 * ((r * 6 + c) % 4);
                fill(x0 + 23 - half as i32, y0 + 10, 2 * half, 30, [160, 30, 30]);
            }
        }
        image
    }

    /// Boxes a few pixels off the bodies.
    const OFF: Geometry = Geometry {
        rows: 4,
        cols: 6,
        origin: [26.0, 30.0],
        pitch: [48.0, 60.0],
        tile_size: [38.0, 50.0],
    };

    #[test]
    fn the_bodies_ends_beside_empty_cells_give_their_centre_past_a_shadow_and_a_grid_line() {
        let holds = |r: u32, c: u32| (r + c) % 3 != 0;
        let image = board_of_3d_tiles(holds);
        let centre = silhouette_centre(&image, &OFF, &board_4x6(holds)).unwrap();
        // The body: x 23 .. 63, y 32 .. 82.
        assert!((centre[0] - 43.0).abs() <= 0.5, "{centre:?}");
        assert!((centre[1] - 57.0).abs() <= 0.5, "{centre:?}");
    }

    #[test]
    fn pictures_with_no_body_give_no_centre() {
        let holds = |r: u32, c: u32| (r + c) % 3 != 0;
        let mut image =
            RgbaImage::from_pixel(340, 300, Rgba([GROUND[0], GROUND[1], GROUND[2], 255]));
        for r in 0..4u32 {
            for c in 0..6u32 {
                if !holds(r, c) {
                    continue;
                }
                // Each kind its own width and height.
                let (w, h) = (10 + 5 * ((r + 2 * c) % 4), 14 + 6 * ((3 * r + c) % 4));
                let (x0, y0) = (20 + 48 * c + 24 - w / 2, 30 + 60 * r + 30 - h / 2);
                for y in y0..y0 + h {
                    for x in x0..x0 + w {
                        image.put_pixel(x, y, Rgba([200, 60, 140, 255]));
                    }
                }
            }
        }
        assert_eq!(silhouette_centre(&image, &OFF, &board_4x6(holds)), None);
    }

    #[test]
    fn a_board_with_no_empty_cell_inside_the_image_gives_no_centre() {
        let holds = |_: u32, _: u32| true;
        let image = board_of_3d_tiles(holds);
        let cramped = image::imageops::crop_imm(&image, 20, 30, 288, 240).to_image();
        let board = Geometry {
            origin: [6.0, 0.0],
            ..OFF
        };
        assert_eq!(silhouette_centre(&cramped, &board, &board_4x6(holds)), None);
    }
}
