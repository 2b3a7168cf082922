//! The empty lines a game marks as its board's (dots or grid lines at the cells' corners).

use image::RgbaImage;

use crate::vision::Geometry;

use super::*;

/// `board` grown by the lines of cells next to it whose far corners carry the marks the
/// board's own corners carry (dots or crossing grid lines, see [`corner_mark`]), up to
/// [`MARKED_LINES`] a side: a sparse board may keep no tile in an edge line, which the game
/// still marks as the board's. The board's own corners must carry one mark (see
/// [`shared_mark`]; a board with no marks, or with tiles over its corners, grows nothing), and
/// [`MARKED_SHARE`] of the line's far corners a mark like it. Where as many of the corners
/// round the board's edge carry it, the boxes then keep off the marks (see
/// [`clear_of_marks`]).
pub(super) fn grown_by_marks(image: &RgbaImage, board: Geometry) -> Geometry {
    let radius = (0.05 * board.pitch[0].min(board.pitch[1])).max(1.0);
    let Some(shift) = marks_shift(image, &board, radius) else {
        return board;
    };
    let corner = |g: &Geometry, k: usize, l: usize| corner_at(g, shift, (k, l));
    let own: Vec<Option<[f32; 3]>> = corners(&board)
        .map(|(k, l)| corner_mark(image, corner(&board, k, l), radius))
        .collect();
    let Some(mark) = shared_mark(&own) else {
        return board;
    };
    let alike = |m: &Option<[f32; 3]>| m.is_some_and(|m| alike_marks(&m, &mark));
    let mut grown = board;
    for side in 0..4 {
        for _ in 0..MARKED_LINES {
            let wider = wider_by(side, grown);
            if !wider.fits(image.width(), image.height()) {
                break;
            }
            // The far corners of the new line.
            let far: Vec<[f64; 2]> = match side {
                0 => (0..=wider.cols).map(|k| corner(&wider, k, 0)).collect(),
                1 => (0..=wider.cols)
                    .map(|k| corner(&wider, k, wider.rows))
                    .collect(),
                2 => (0..=wider.rows).map(|l| corner(&wider, 0, l)).collect(),
                _ => (0..=wider.rows)
                    .map(|l| corner(&wider, wider.cols, l))
                    .collect(),
            };
            let marked = far
                .iter()
                .filter(|&&p| alike(&corner_mark(image, p, radius)))
                .count();
            if (marked as f64) < MARKED_SHARE * far.len() as f64 {
                break;
            }
            grown = wider;
        }
    }
    // A mark of the gap shows round the board's edge too; a mark of the tiles' own art (a
    // corner ornament at the same place on every tile) misses the corners after the last
    // line.
    // `own` holds every corner's mark, in the order of `corners`.
    let (rim, marked) = corners(&board)
        .zip(&own)
        .filter(|&((k, l), _)| k == 0 || l == 0 || k == board.cols || l == board.rows)
        .fold((0, 0), |(rim, marked), (_, m)| {
            (rim + 1, marked + usize::from(alike(m)))
        });
    if (marked as f64) < MARKED_SHARE * f64::from(rim) {
        return grown;
    }
    clear_of_marks(grown, shift, radius)
}

/// `board` with its tiles' boxes kept off the marks at the cells' corners (`shift` from the
/// tiles' top-left corners, each mark within `radius` of its place): a box as long as the
/// pitch (within `radius`) takes in the grid lines or dots of the gap, and an empty cell
/// framed by them then reads as a tile (seed 433). On each such axis the box loses as much at
/// both ends as it must at either to leave every point within `radius` of a mark (so its
/// centre, which the earlier steps placed, stays), unless less than
/// [`CLEAR_OF_MARKS_LEAST`] of the pitch would be left. A shorter box stays: the marks lie in
/// its gap, and a 3D tile's box need not be centred between them. So does a box whose marks
/// lie more than two radii inside both its ends: they are the tiles' own art (seed 60).
fn clear_of_marks(mut board: Geometry, shift: [f64; 2], radius: f64) -> Geometry {
    for (a, shift) in shift.into_iter().enumerate() {
        let (pitch, size) = (board.pitch[a], board.tile_size[a]);
        // The mark before the tile, relative to the tile's start; the next is a pitch on.
        let before = shift - (shift / pitch).round() * pitch;
        let cut = (before + radius).max(size - (before + pitch - radius));
        let whole = size >= pitch - radius;
        // Marks well inside the box are the tiles' art, not the gap's.
        let at_an_end =
            before.abs() <= 2.0 * radius || (before + pitch - size).abs() <= 2.0 * radius;
        if whole && at_an_end && cut > 0.0 && size - 2.0 * cut >= CLEAR_OF_MARKS_LEAST * pitch {
            board.origin[a] += cut;
            board.tile_size[a] = size - 2.0 * cut;
        }
    }
    board
}

/// The least share of the pitch a box kept off the marks (see [`clear_of_marks`]) may keep.
const CLEAR_OF_MARKS_LEAST: f64 = 0.6;

/// Where the marks of `board`'s corners lie from its tiles' top-left corners (x, y; the
/// shift at which most of up to [`SAMPLED_CORNERS`] corners spread over the board carry a
/// mark, see [`corner_mark`]), within [`MARKS_REACH`] of a pitch of the middle of the gap
/// before the tiles: tiles drawn in 3D may stand anywhere in their cells. `None` when no
/// shift marks [`OWN_MARKS_ALIKE`] of them.
fn marks_shift(image: &RgbaImage, board: &Geometry, radius: f64) -> Option<[f64; 2]> {
    let all: Vec<(usize, usize)> = corners(board).collect();
    let step = all.len().div_ceil(SAMPLED_CORNERS).max(1);
    let sampled: Vec<(usize, usize)> = all.into_iter().step_by(step).collect();
    let middle = [
        -(board.pitch[0] - board.tile_size[0]) / 2.0,
        -(board.pitch[1] - board.tile_size[1]) / 2.0,
    ];
    // Shifts a radius apart (at least a pixel, as `grown_by_marks` makes the radius).
    let reach = [
        (MARKS_REACH * board.pitch[0] / radius) as i64,
        (MARKS_REACH * board.pitch[1] / radius) as i64,
    ];
    let marked_at = |shift: [f64; 2]| {
        sampled
            .iter()
            .filter(|&&corner| {
                corner_mark(image, corner_at(board, shift, corner), radius).is_some()
            })
            .count()
    };
    // On a tie, the shift nearest the middle of the gap.
    let (best, marked, _) = (-reach[1]..=reach[1])
        .flat_map(|j| (-reach[0]..=reach[0]).map(move |i| (i, j)))
        .map(|(i, j)| {
            let shift = [middle[0] + i as f64 * radius, middle[1] + j as f64 * radius];
            (shift, marked_at(shift), i * i + j * j)
        })
        .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))?;
    (marked as f64 >= OWN_MARKS_ALIKE * sampled.len() as f64).then_some(best)
}

/// The corners (column, row) of `g`'s cells, row by row: `rows + 1` by `cols + 1`.
fn corners(g: &Geometry) -> impl Iterator<Item = (usize, usize)> {
    let cols = g.cols;
    (0..=g.rows).flat_map(move |l| (0..=cols).map(move |k| (k, l)))
}

/// Where corner (`k`, `l`) of `g`'s cells lies (image coordinates), the cells' corners being
/// `shift` from the tiles' top-left corners.
fn corner_at(g: &Geometry, shift: [f64; 2], (k, l): (usize, usize)) -> [f64; 2] {
    [
        g.origin[0] + shift[0] + k as f64 * g.pitch[0],
        g.origin[1] + shift[1] + l as f64 * g.pitch[1],
    ]
}

/// Most corners [`marks_shift`] tries each shift on.
const SAMPLED_CORNERS: usize = 16;

/// How far (a share of the pitch) from the middle of the gap [`marks_shift`] looks for the
/// marks.
const MARKS_REACH: f64 = 0.2;

/// Most lines of marked cells [`grown_by_marks`] adds on a side.
const MARKED_LINES: usize = 2;

/// The share of corners that must carry the board's mark (see [`grown_by_marks`]).
const MARKED_SHARE: f64 = 0.75;

/// The share of the board's own corners that must carry a mark, and one alike (see
/// [`shared_mark`], [`marks_shift`]): less than [`MARKED_SHARE`], as tiles may cover some.
const OWN_MARKS_ALIKE: f64 = 0.5;

/// Least cosine between two marks' colour differences (see [`alike_marks`]) for them to be
/// one mark: a dark dot and a light one, or a dot and a tile's coloured corner, are not.
const MARKS_ALIKE: f32 = 0.8;

/// Smallest colour step (sum over R, G, B) between a corner's middle and the ring round it
/// for the corner to carry a mark: over JPEG noise, under a faint dot's contrast.
const MARK_STEP: f32 = 45.0;

/// The mark at `p` (image coordinates): how the mean colour of the pixels within `radius` of
/// it differs from the median of the ring 2 to 3 radii out (R, G, B), when by [`MARK_STEP`]
/// or more (summed); `None` otherwise, or when the ring leaves the image. The pixels within
/// half the radius stand for the disc when they step further: a faint dot of a few pixels,
/// spread over the disc, falls under the step (seed 24038). A mark drawn see-through over a
/// gradient or a photo changes its colour, not the way it differs.
fn corner_mark(image: &RgbaImage, p: [f64; 2], radius: f64) -> Option<[f32; 3]> {
    let (w, h) = (f64::from(image.width()), f64::from(image.height()));
    let reach = 3.0 * radius;
    if p[0] - reach < 0.0 || p[1] - reach < 0.0 || p[0] + reach >= w || p[1] + reach >= h {
        return None;
    }
    // The disc, and its middle half as wide: a dot smaller than the disc shows there whole.
    let mut sums = [[0f32; 3]; 2];
    let mut counts = [0f32; 2];
    let mut ring: [Vec<u8>; 3] = Default::default();
    let (x0, x1) = ((p[0] - reach).floor() as u32, (p[0] + reach).ceil() as u32);
    let (y0, y1) = ((p[1] - reach).floor() as u32, (p[1] + reach).ceil() as u32);
    for y in y0..=y1.min(image.height() - 1) {
        for x in x0..=x1.min(image.width() - 1) {
            let d = (f64::from(x) + 0.5 - p[0]).hypot(f64::from(y) + 0.5 - p[1]);
            let px = image.get_pixel(x, y).0;
            if d <= radius {
                for (disc, within) in [radius, radius / 2.0].into_iter().enumerate() {
                    if d <= within {
                        for c in 0..3 {
                            sums[disc][c] += f32::from(px[c]);
                        }
                        counts[disc] += 1.0;
                    }
                }
            } else if (2.0 * radius..=reach).contains(&d) {
                for c in 0..3 {
                    ring[c].push(px[c]);
                }
            }
        }
    }
    if counts[0] == 0.0 || ring[0].is_empty() {
        return None;
    }
    // Each channel's quartiles and median over the ring.
    let quartiles: [[f32; 3]; 3] = std::array::from_fn(|c| {
        let v = &mut ring[c];
        v.sort_unstable();
        let at = |q: usize| f32::from(v[(v.len() - 1) * q / 4]);
        [at(1), at(2), at(3)]
    });
    // The disc's step over the ring's median, or the middle's when it holds a few pixels
    // and steps further.
    let (difference, step) = (0..2)
        .filter(|&disc| disc == 0 || counts[disc] >= CORE_PIXELS)
        .map(|disc| {
            let difference: [f32; 3] =
                std::array::from_fn(|c| sums[disc][c] / counts[disc] - quartiles[c][1]);
            (difference, difference.iter().map(|d| d.abs()).sum::<f32>())
        })
        .max_by(|a, b| a.1.total_cmp(&b.1))?;
    // A mark stands on one ground; an edge through the corner (a panel's, a tile's) parts
    // the ring in two.
    let spread: f32 = quartiles.iter().map(|q| q[2] - q[0]).sum();
    (step >= MARK_STEP && spread <= RING_SPREAD * step).then_some(difference)
}

/// The least pixels the middle of a corner's disc must hold to stand for it (see
/// [`corner_mark`]): fewer are JPEG noise.
const CORE_PIXELS: f32 = 4.0;

/// Most the ring round a mark may spread (the sum over R, G, B of its interquartile ranges),
/// as a share of the mark's step (see [`corner_mark`]): grid lines crossing a corner fill a
/// small part of the ring, an edge through it half.
const RING_SPREAD: f32 = 1.0;

/// The mark most of `marks` carry (see [`corner_mark`]; the per-channel median of those
/// marked), when [`OWN_MARKS_ALIKE`] of them carry one, and as many one like it (see
/// [`alike_marks`]).
fn shared_mark(marks: &[Option<[f32; 3]>]) -> Option<[f32; 3]> {
    let present: Vec<[f32; 3]> = marks.iter().flatten().copied().collect();
    if (present.len() as f64) < OWN_MARKS_ALIKE * marks.len() as f64 {
        return None;
    }
    let typical: [f32; 3] = std::array::from_fn(|c| {
        let mut v: Vec<f32> = present.iter().map(|m| m[c]).collect();
        crate::stats::median(&mut v).unwrap_or(0.0)
    });
    let alike = present.iter().filter(|m| alike_marks(m, &typical)).count();
    (alike as f64 >= OWN_MARKS_ALIKE * marks.len() as f64).then_some(typical)
}

/// Whether two marks (see [`corner_mark`]) differ from their surroundings the same way: the
/// cosine of their colour differences is at least [`MARKS_ALIKE`].
fn alike_marks(a: &[f32; 3], b: &[f32; 3]) -> bool {
    let dot: f32 = (0..3).map(|c| a[c] * b[c]).sum();
    let norm = |v: &[f32; 3]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot >= MARKS_ALIKE * norm(a) * norm(b)
}
