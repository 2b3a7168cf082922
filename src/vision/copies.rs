//! The pitch measured between copies of a kind.
//!
//! Two tiles of a kind are one picture drawn twice, so where the middle of one lies in the
//! image relative to the other (found by matching it there to a fraction of a pixel) is the
//! pitch times the columns and rows between them, whatever the tiles' edges look like. The
//! edges place a board of few lines poorly (a pitch from four rows of emoji with no body, or of
//! 3D tiles whose sides give edges a few pixels apart); many pairs of copies agree on it.

use image::RgbaImage;

use super::Geometry;
use super::features::pixel_range;
use crate::board::{Board, Pos};
use crate::stats::parabola_vertex;

/// Most pairs of copies matched.
const MOST_PAIRS: usize = 48;

/// The middle share of a tile (each axis) matched: clear of a selection's border, a 3D side
/// and the neighbours.
const PATCH_SHARE: f64 = 0.6;

/// Most samples along each axis of a matched patch.
const PATCH_SAMPLES: u32 = 24;

/// The pitch error (a share of the pitch, per line between the copies) the search allows for.
const MOST_ERROR: f64 = 0.015;

/// Widest search (pixels each way) for one pair.
const MOST_SEARCH: i64 = 10;

/// How well a copy must match: the least mean squared difference as a share of the patch's
/// own variance (a misread kind or a selected tile matches far worse).
const MATCHED: f64 = 0.25;

/// Least variance (luma squared) of a matched patch: a blank face places nothing.
const LEAST_VARIANCE: f64 = 25.0;

/// Farthest (pixels) a pair's displacement may lie from the fitted pitch's and count.
const INLIER: f64 = 1.0;

/// Fewest pairs that must agree on an axis's pitch: two, so that a small sparse board (a 4 x 6
/// board of eight tiles, whose edges place its pitch half a pixel off) is measured too; with
/// four, 2 to 3 pairs left those boards as the edges had them (tuning 391, 12393, 39376).
const FEWEST_PAIRS: usize = 2;

/// The largest change of the pitch taken (a share of it).
const MOST_CHANGE: f64 = 0.03;

/// Least move (pixels) of the board's end tiles for a change of the pitch to be taken: the
/// edges place the tiles to a fraction of a pixel, and a change that moves none by more
/// stands for no better fit.
const LEAST_MOVE: f64 = 0.25;

/// `g` with its pitch on each axis measured between copies of a kind read on `board` (see the
/// module docs), the board's middle kept where it is; an axis with fewer than
/// [`FEWEST_PAIRS`] pairs agreeing (within [`INLIER`]), or fewer than half of its pairs, keeps
/// its pitch, and so does one whose change would pass [`MOST_CHANGE`] of the pitch or move the
/// board's end tiles by less than [`LEAST_MOVE`].
pub(super) fn pitch_from_copies(image: &RgbaImage, g: &Geometry, board: &Board) -> Geometry {
    let luma = Luma::of(image, g);
    let luma = |x: i64, y: i64| luma.at(x, y);
    // Per axis: (the kind, lines between the copies, displacement less the pitch's).
    let mut observed: [Vec<(usize, f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (kind, a, b) in copy_pairs(board) {
        let lines = [f64::from(b.col - a.col), f64::from(b.row - a.row)];
        if let Some(error) = matched_displacement(&luma, g, a, lines) {
            for axis in 0..2 {
                observed[axis].push((kind, lines[axis], error[axis]));
            }
        }
    }
    let mut fitted = *g;
    for (axis, observed) in observed.iter().enumerate() {
        let Some(change) = pitch_change(observed) else {
            continue;
        };
        let lines = if axis == 0 { g.cols } else { g.rows };
        let middle = (lines as f64 - 1.0) / 2.0;
        if change.abs() > MOST_CHANGE * g.pitch[axis] || change.abs() * middle < LEAST_MOVE {
            continue;
        }
        fitted.pitch[axis] += change;
        fitted.origin[axis] -= middle * change;
        fitted.tile_size[axis] = fitted.tile_size[axis].min(fitted.pitch[axis]);
    }
    if fitted.fits(image.width(), image.height()) {
        fitted
    } else {
        *g
    }
}

/// An image's luma, pixel by pixel, over the board and as far around it as a copy is sought.
struct Luma {
    left: i64,
    top: i64,
    width: i64,
    height: i64,
    values: Vec<f64>,
}

impl Luma {
    fn of(image: &RgbaImage, g: &Geometry) -> Self {
        let board = g.board_rect();
        let margin = (MOST_SEARCH + 2) as f64;
        let (x0, x1) = (board.x - margin, board.x + board.w + margin);
        let (y0, y1) = (board.y - margin, board.y + board.h + margin);
        let (left, right) = pixel_range(x0, x1, image.width());
        let (top, bottom) = pixel_range(y0, y1, image.height());
        let [left, top, right, bottom] = [left, top, right, bottom].map(i64::from);
        let values = (top..bottom)
            .flat_map(|y| (left..right).map(move |x| (x, y)))
            .map(|(x, y)| {
                let [r, g, b, _] = image.get_pixel(x as u32, y as u32).0;
                0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b)
            })
            .collect();
        Luma {
            left,
            top,
            width: right - left,
            height: bottom - top,
            values,
        }
    }

    /// The luma at pixel (`x`, `y`); `None` outside the image or the part read.
    fn at(&self, x: i64, y: i64) -> Option<f64> {
        let (x, y) = (x - self.left, y - self.top);
        ((0..self.width).contains(&x) && (0..self.height).contains(&y))
            .then(|| self.values[(y * self.width + x) as usize])
    }
}

/// Up to [`MOST_PAIRS`] pairs of tiles of one kind (with its index): each kind's first tile
/// with each of its other tiles, kind by kind.
fn copy_pairs(board: &Board) -> Vec<(usize, Pos, Pos)> {
    let mut by_kind: Vec<Vec<Pos>> = Vec::new();
    for pos in board.tile_positions() {
        let kind = board.get(pos) as usize;
        if by_kind.len() < kind {
            by_kind.resize(kind, Vec::new());
        }
        by_kind[kind - 1].push(pos);
    }
    by_kind
        .iter()
        .enumerate()
        .flat_map(|(kind, tiles)| tiles.iter().skip(1).map(move |&b| (kind, tiles[0], b)))
        .take(MOST_PAIRS)
        .collect()
}

/// Where the copy `lines` (columns, rows) from tile `a` lies, less where the pitch puts it
/// (pixels, x and y): tile `a`'s middle matched over the image near the copy's place (sum of
/// squared luma differences at whole pixels, the first least on a tie, refined by a parabola
/// on each axis). `None` when the patch is blank, leaves the image, or matches nowhere well
/// (see [`MATCHED`]) or at the search's edge.
fn matched_displacement(
    luma: &impl Fn(i64, i64) -> Option<f64>,
    g: &Geometry,
    a: Pos,
    lines: [f64; 2],
) -> Option<[f64; 2]> {
    let rect = g.cell_rect(a);
    let start = [
        (rect.x + rect.w * (1.0 - PATCH_SHARE) / 2.0).round() as i64,
        (rect.y + rect.h * (1.0 - PATCH_SHARE) / 2.0).round() as i64,
    ];
    let size = [rect.w * PATCH_SHARE, rect.h * PATCH_SHARE];
    let step = size.map(|s| ((s / f64::from(PATCH_SAMPLES)).ceil() as i64).max(1));
    let samples = [0, 1].map(|i| (size[i] as i64 / step[i]).max(1));
    let offsets: Vec<(i64, i64)> = (0..samples[1])
        .flat_map(|j| (0..samples[0]).map(move |i| (i * step[0], j * step[1])))
        .collect();
    let patch: Vec<f64> = offsets
        .iter()
        .map(|&(dx, dy)| luma(start[0] + dx, start[1] + dy))
        .collect::<Option<_>>()?;
    let n = patch.len() as f64;
    let mean = patch.iter().sum::<f64>() / n;
    let variance = patch.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / n;
    if variance < LEAST_VARIANCE {
        return None;
    }
    let expected = [lines[0] * g.pitch[0], lines[1] * g.pitch[1]];
    let base = expected.map(|e| e.round() as i64);
    let reach = [0, 1].map(|i| {
        let r = (MOST_ERROR * g.pitch[i] * lines[i].abs()).ceil() as i64 + 2;
        r.min(MOST_SEARCH)
    });
    let width = 2 * reach[0] + 1;
    // The mean squared difference at a shift, given up (infinite) once past `bound`: the
    // least and its four neighbours are measured in full below.
    let ssd = |sx: i64, sy: i64, bound: f64| -> Option<f64> {
        let mut sum = 0.0;
        for (&(dx, dy), &v) in offsets.iter().zip(&patch) {
            let w = luma(start[0] + base[0] + sx + dx, start[1] + base[1] + sy + dy)?;
            sum += (w - v).powi(2);
            if sum > bound * n {
                return Some(f64::INFINITY);
            }
        }
        Some(sum / n)
    };
    let mut scores: Vec<Option<f64>> = Vec::new();
    let mut lowest = f64::INFINITY;
    for sy in -reach[1]..=reach[1] {
        for sx in -reach[0]..=reach[0] {
            let score = ssd(sx, sy, lowest);
            if let Some(v) = score {
                lowest = lowest.min(v);
            }
            scores.push(score);
        }
    }
    let best = scores.iter().position(|s| *s == Some(lowest))?;
    if !lowest.is_finite() || lowest > MATCHED * variance {
        return None;
    }
    let (bx, by) = (best as i64 % width, best as i64 / width);
    let at = |x: i64, y: i64| -> Option<f64> {
        let inside = (0..width).contains(&x) && (0..=2 * reach[1]).contains(&y);
        if !inside {
            return None;
        }
        ssd(x - reach[0], y - reach[1], f64::INFINITY)
    };
    let refined = [
        parabola_vertex(at(bx - 1, by)?, lowest, at(bx + 1, by)?),
        parabola_vertex(at(bx, by - 1)?, lowest, at(bx, by + 1)?),
    ];
    Some([
        (base[0] + bx - reach[0]) as f64 + refined[0] - expected[0],
        (base[1] + by - reach[1]) as f64 + refined[1] - expected[1],
    ])
}

/// The change of the pitch that fits the `observed` pairs (kind, lines from the kind's first
/// tile, displacement less the pitch's) by least squares over the tiles, the first tile of
/// each kind among them (at no lines and no displacement), each kind with an offset of its
/// own: where a tile lies is measured from its kind's first tile, which has a place of its own
/// (a game that draws tiles at whole pixels of a fractional pitch puts every tile up to half a
/// pixel off the lattice). Refitted on the pairs within [`INLIER`] of a robust first fit (the
/// median change per line). `None` with fewer than [`FEWEST_PAIRS`] such pairs across lines,
/// or fewer than half the pairs across lines.
fn pitch_change(observed: &[(usize, f64, f64)]) -> Option<f64> {
    let across: Vec<(usize, f64, f64)> = observed
        .iter()
        .copied()
        .filter(|&(_, k, _)| k != 0.0)
        .collect();
    let mut each: Vec<f64> = across.iter().map(|&(_, k, e)| e / k).collect();
    let start = crate::stats::median(&mut each)?;
    let inlier = |&(_, k, e): &(usize, f64, f64)| (e - start * k).abs() <= INLIER;
    let kept = across.iter().filter(|p| inlier(p)).count();
    if kept < FEWEST_PAIRS || 2 * kept < across.len() {
        return None;
    }
    // Each kind's inliers with its first tile (0 lines, no displacement).
    let last = observed.iter().map(|&(kind, ..)| kind).max()?;
    let (mut num, mut den) = (0.0, 0.0);
    for kind in 0..=last {
        let mut points: Vec<(f64, f64)> = vec![(0.0, 0.0)];
        points.extend(
            observed
                .iter()
                .filter(|p| p.0 == kind && inlier(p))
                .map(|&(_, k, e)| (k, e)),
        );
        let n = points.len() as f64;
        let (mk, me) = points
            .iter()
            .fold((0.0, 0.0), |(a, b), &(k, e)| (a + k / n, b + e / n));
        for (k, e) in points {
            num += (k - mk) * (e - me);
            den += (k - mk) * (k - mk);
        }
    }
    (den > 0.0).then(|| num / den)
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;
    use crate::board::Kind;

    /// A 4 x 6 board of flat grey tiles each with a kind's pattern of dark squares, placed at
    /// `pitch` (rounded to whole pixels tile by tile) from (20, 30).
    fn board_image(pitch: [f64; 2]) -> (RgbaImage, Board) {
        let kinds: Vec<Kind> = (0..24).map(|i| (i % 5 + 1) as Kind).collect();
        board_of(pitch, kinds)
    }

    /// [`board_image`] with the `kinds` given (row-major, 0 for an empty cell).
    fn board_of(pitch: [f64; 2], kinds: Vec<Kind>) -> (RgbaImage, Board) {
        let (rows, cols) = (4usize, 6usize);
        let board = Board::new(rows, cols, kinds.clone()).unwrap();
        let mut img = RgbaImage::from_pixel(400, 400, Rgba([40, 90, 40, 255]));
        for r in 0..rows {
            for c in 0..cols {
                let x0 = (20.0 + c as f64 * pitch[0]).round() as u32;
                let y0 = (30.0 + r as f64 * pitch[1]).round() as u32;
                let kind = kinds[r * cols + c];
                if kind == 0 {
                    continue;
                }
                for y in 0..40 {
                    for x in 0..30 {
                        // No shift of a few pixels repeats the pattern.
                        let ink = ((x / 5) * 7 + (y / 5) * 4 + kind) % 5 == 0;
                        let v = if ink { 30 } else { 220 };
                        img.put_pixel(x0 + x, y0 + y, Rgba([v, v, v, 255]));
                    }
                }
            }
        }
        (img, board)
    }

    #[test]
    fn the_pitch_is_measured_between_copies() {
        // Whole pixels: tiles drawn at a fractional pitch round to a lattice of their own.
        let truth = [34.0, 45.0];
        let (img, board) = board_image(truth);
        // Found a little off on both axes, centred on the board's middle.
        let found = Geometry {
            rows: 4,
            cols: 6,
            origin: [20.0 + 2.5 * 0.3, 30.0 + 1.5 * 0.4],
            pitch: [33.7, 44.6],
            tile_size: [30.0, 40.0],
        };
        let fitted = fitted_to(&img, &found, &board, truth);
        // The middle stays.
        let middle = |g: &Geometry| g.origin[0] + 2.5 * g.pitch[0];
        assert!((middle(&fitted) - middle(&found)).abs() < 1e-9);
    }

    /// Tuning 12393 (a 4 x 6 board of eight tiles): two pairs of copies that agree measure
    /// the pitch.
    #[test]
    fn two_pairs_of_copies_measure_the_pitch() {
        let truth = [34.0, 45.0];
        let mut kinds: Vec<Kind> = vec![0; 24];
        for (cell, kind) in [(0, 1), (15, 1), (8, 2), (23, 2)] {
            kinds[cell] = kind;
        }
        let (img, board) = board_of(truth, kinds);
        let found = Geometry {
            rows: 4,
            cols: 6,
            origin: [20.0 + 2.5 * 0.4, 30.0 + 1.5 * 0.5],
            pitch: [33.6, 44.5],
            tile_size: [30.0, 40.0],
        };
        fitted_to(&img, &found, &board, truth);
    }

    /// `found` with its pitch measured between copies, asserted within 0.1 px of `truth`.
    fn fitted_to(img: &RgbaImage, found: &Geometry, board: &Board, truth: [f64; 2]) -> Geometry {
        let fitted = pitch_from_copies(img, found, board);
        for axis in 0..2 {
            assert!(
                (fitted.pitch[axis] - truth[axis]).abs() < 0.1,
                "{fitted:?} against {truth:?}"
            );
        }
        fitted
    }

    #[test]
    fn blank_tiles_leave_the_pitch() {
        let img = RgbaImage::from_pixel(400, 400, Rgba([200, 200, 200, 255]));
        let board = Board::new(2, 2, vec![1, 1, 1, 1]).unwrap();
        let g = Geometry {
            rows: 2,
            cols: 2,
            origin: [20.0, 20.0],
            pitch: [40.0, 50.0],
            tile_size: [36.0, 46.0],
        };
        assert_eq!(pitch_from_copies(&img, &g, &board), g);
    }

    #[test]
    fn a_least_squares_change_drops_outliers() {
        let observed = [
            (0, 1.0, 0.3),
            (0, 2.0, 0.6),
            (1, -1.0, -0.3),
            (1, 3.0, 0.9),
            (2, 1.0, 4.0),
        ];
        let change = pitch_change(&observed).unwrap();
        assert!((change - 0.3).abs() < 1e-9, "{change}");
        assert_eq!(pitch_change(&observed[..1]), None);
    }
}
