//! Boards found from the tiles' borders: candidate lattices, ranked, grown and refined.

use image::RgbaImage;

use crate::stats::mean_median;
use crate::vision::blobs::Region;
use crate::vision::features::{column_profile, row_profile, signed_profiles};
use crate::vision::{Geometry, VisionError};

use super::*;

/// The boards from their tiles' borders at the pitches of the edges inside each of the
/// `merged` objects (see [`super::blobs::Objects::merged`]) that cover most of it: a small
/// board of touching tiles in a large frame, whose pitch the frame's text, buttons and the
/// faces' own strokes hide among the whole image's periods.
pub(super) fn boards_in_merged_objects<'a>(
    edges: &'a Edges,
    merged: Vec<Region>,
) -> impl Iterator<Item = Geometry> + 'a {
    merged.into_iter().filter_map(move |region| {
        find_board_from_borders(edges, Search::Region(region))
            .ok()
            .filter(|board| covers_most_of(pixel_box(board), region))
    })
}

/// Where [`find_board_from_borders`] seeks the board's axes.
#[derive(Clone, Copy)]
pub(super) enum Search<'g> {
    /// Every candidate pitch of the whole image's edges.
    Whole,
    /// The pitches of the board the objects showed, at their best phases over it.
    Objects(&'g Geometry),
    /// Every candidate pitch of the edges inside a box.
    Region(Region),
}

/// The pixel columns and rows a geometry's cells span.
pub(super) fn pixel_box(g: &Geometry) -> ((usize, usize), (usize, usize)) {
    let span = |a: usize, n: usize| {
        let end = g.origin[a] + n as f64 * g.pitch[a];
        (g.origin[a].max(0.0) as usize, end.max(0.0) as usize)
    };
    (span(0, g.cols), span(1, g.rows))
}

/// The board from its tiles' borders (see the module documentation) on the axes `search`
/// gives: the candidate axes of the whole image or of a region, or the pitches of the board
/// the objects showed at their best phases over it (see [`phases_over`]).
pub(super) fn find_board_from_borders(
    edges: &Edges,
    search: Search,
) -> Result<Geometry, VisionError> {
    boards_from_borders(edges, search).map(|(board, _)| board)
}

/// The board of [`find_board_from_borders`], and the boards it passed over on a finer comb,
/// best first: the board before it was seen on a coarser comb (see [`coarser_board`]), when
/// it was, then those of the other pairs of axes whose pitches are the chosen ones or whole
/// fractions of them (see [`ranked_boards`]); each still to be refined (see
/// [`finished_board`]).
pub(super) fn boards_from_borders(
    edges: &Edges,
    search: Search,
) -> Result<(Geometry, Vec<OnAxes>), VisionError> {
    let (w, h) = (edges.image.width(), edges.image.height());
    let (x_axes, y_axes) = match search {
        Search::Whole => (
            find_axes(&axis_peaks(&column_profile(&edges.vertical, 0, h as usize))),
            find_axes(&axis_peaks(&row_profile(&edges.horizontal, 0, w as usize))),
        ),
        Search::Region(((x0, x1), (y0, y1))) => (
            axes_over(&column_profile(&edges.vertical, y0, y1), (x0, x1)),
            axes_over(&row_profile(&edges.horizontal, x0, x1), (y0, y1)),
        ),
        Search::Objects(g) => {
            // The objects' box with half a pitch round it: their cells are centred on them,
            // the tiles' borders a few pixels off.
            let ((x0, x1), (y0, y1)) = pixel_box(g);
            let around = |(a, b): (usize, usize), pitch: f64, limit: u32| {
                let margin = (pitch / 2.0) as usize;
                (a.saturating_sub(margin), (b + margin).min(limit as usize))
            };
            let (xs, ys) = (
                around((x0, x1), g.pitch[0], w),
                around((y0, y1), g.pitch[1], h),
            );
            (
                phases_over(&column_profile(&edges.vertical, ys.0, ys.1), g.pitch[0], xs),
                phases_over(&row_profile(&edges.horizontal, xs.0, xs.1), g.pitch[1], ys),
            )
        }
    };
    if x_axes.is_empty() {
        return Err(no_board("no repeating column edges"));
    }
    if y_axes.is_empty() {
        return Err(no_board("no repeating row edges"));
    }
    // On the objects' pitch the board is known to be there: its tiles may keep their far
    // border a gap inside their cells (see [`Sides::GapInside`]).
    let ((x_axis, y_axis, extent), mut others) =
        ranked_boards(edges, &x_axes, &y_axes, Sides::OnComb).or_else(|first| match search {
            Search::Objects(_) => {
                ranked_boards(edges, &x_axes, &y_axes, Sides::GapInside).map_err(|_| first)
            }
            Search::Whole | Search::Region(_) => Err(first),
        })?;
    // A region's few tiles let strokes down the middle of each face make a comb of their own.
    let (x_axis, y_axis, extent) = match search {
        Search::Region(_) => whole_tiles(edges, (x_axis, y_axis, extent)),
        Search::Whole | Search::Objects(_) => (x_axis, y_axis, extent),
    };
    let board = coarser_board(edges, edges.board(extent, x_axis, y_axis));
    // The same lattice seen with every boundary: a comb at a multiple of the pitch can span
    // a larger box (its cells take in the surroundings) and so be chosen.
    let (x_chosen, y_chosen) = (board.x_axis.pitch, board.y_axis.pitch);
    others.retain(|&(x, y, _)| {
        finer(x.pitch, x_chosen)
            && finer(y.pitch, y_chosen)
            && (x.pitch < x_chosen - 0.5 || y.pitch < y_chosen - 0.5)
    });
    if board.x_axis != x_axis || board.y_axis != y_axis {
        others.insert(0, (x_axis, y_axis, extent));
    }
    let board = grown_on_lattice(edges, board);
    Ok((refine_board(edges, &board), others))
}

/// The board on a pair of axes grown along its lattice and refined, as
/// [`find_board_from_borders`] finishes the board it chooses.
pub(super) fn finished_board(edges: &Edges, (x_axis, y_axis, extent): OnAxes) -> Geometry {
    refine_board(
        edges,
        &grown_on_lattice(edges, edges.board(extent, x_axis, y_axis)),
    )
}

/// The comb at `pitch` over the pixels `band` of an edge profile (the board's, from its
/// objects) at its best phase, then at its second phase (see [`other_phase`]): a board with
/// gaps or a 3D side has two edges a tile's width apart, and the comb on either may be the
/// one whose cells show four sides.
pub(super) fn phases_over(profile: &[f32], pitch: f64, (a, b): (usize, usize)) -> Vec<Axis> {
    let peaks = axis_peaks(&profile[a..b.max(a + 1)]);
    let (phase, _) = best_phase(&peaks, pitch, 0.0, (peaks.len() - 1) as f64);
    let first = Axis { pitch, phase };
    std::iter::once(first)
        .chain(other_phase(&peaks, first))
        .map(|axis| Axis {
            pitch,
            phase: (axis.phase + a as f64).rem_euclid(pitch),
        })
        .collect()
}

/// The board found at twice the pitch on an axis whose cells alternate (see
/// [`cells_alternate`]), when one is found there; else the board as it is. Strokes down the
/// middle of every face (a character's stem) make a comb at half the pitch whose half-tiles
/// still show four sides; the half-tiles are of two kinds, left and right.
fn whole_tiles(
    edges: &Edges,
    (x_axis, y_axis, extent): (Axis, Axis, Extent),
) -> (Axis, Axis, Extent) {
    let doubled = |axis: Axis| {
        [0.0, axis.pitch].map(|shift| Axis {
            pitch: 2.0 * axis.pitch,
            phase: axis.phase + shift,
        })
    };
    let x_cells = (extent.col0, extent.cols);
    let y_cells = (extent.row0, extent.rows);
    if cells_alternate(edges.image, (x_axis, x_cells), (y_axis, y_cells), true) {
        if let Ok(board) = first_board(edges, &doubled(x_axis), &[y_axis], Sides::OnComb) {
            return board;
        }
    }
    if cells_alternate(edges.image, (y_axis, y_cells), (x_axis, x_cells), false) {
        if let Ok(board) = first_board(edges, &[x_axis], &doubled(y_axis), Sides::OnComb) {
            return board;
        }
    }
    (x_axis, y_axis, extent)
}

/// How many times more the cells of even and odd index along an axis must differ (their
/// mean pictures, pixel by pixel) than the cells two apart for the cells to alternate: tiles
/// dealt at random make the two differences alike (the one two apart over half as many cells,
/// so a little larger), though a deal's few kinds and a sparse board's pattern reach 2-3
/// times, rarely 6; halves of tiles (a character's stem down each face) reach about 8.
const ALTERNATE: f64 = 4.0;

/// Whether the board's cells along `along` (an axis, its first cell and count) alternate in
/// look: the mean brightness picture of the cells of even index differs from that of odd
/// index [`ALTERNATE`] times more than the mean picture of index 0 mod 4 from 2 mod 4 (and 1
/// from 3) does. `vertical`: `along` is the x axis. False with under 4 cells along.
pub(super) fn cells_alternate(
    image: &RgbaImage,
    (along, (first, count)): (Axis, (i64, usize)),
    (across, (first_across, count_across)): (Axis, (i64, usize)),
    vertical: bool,
) -> bool {
    let bins = (along.pitch.round() as usize, across.pitch.round() as usize);
    if count < 4 || bins.0 < 4 || bins.1 < 4 {
        return false;
    }
    let (w, h) = (image.width() as i64, image.height() as i64);
    let raw = image.as_raw();
    let mut sums = vec![vec![0f64; bins.0 * bins.1]; 4];
    let mut counts = [0usize; 4];
    for k in first..first + count as i64 {
        for m in first_across..first_across + count_across as i64 {
            let a = (along.at(k as f64) + 1.0).round() as i64;
            let c = (across.at(m as f64) + 1.0).round() as i64;
            let (x, y, cw, ch) = if vertical {
                (a, c, bins.0 as i64, bins.1 as i64)
            } else {
                (c, a, bins.1 as i64, bins.0 as i64)
            };
            if x < 0 || y < 0 || x + cw > w || y + ch > h {
                continue;
            }
            let class = (k - first).rem_euclid(4) as usize;
            counts[class] += 1;
            for j in 0..bins.1 {
                for i in 0..bins.0 {
                    let (px, py) = if vertical {
                        (x + i as i64, y + j as i64)
                    } else {
                        (x + j as i64, y + i as i64)
                    };
                    let at = ((py * w + px) * 4) as usize;
                    let grey: u32 = raw[at..at + 3].iter().map(|&v| u32::from(v)).sum();
                    sums[class][j * bins.0 + i] += f64::from(grey);
                }
            }
        }
    }
    if counts.contains(&0) {
        return false;
    }
    let mean_of = |classes: &[usize]| -> Vec<f64> {
        let n: usize = classes.iter().map(|&c| counts[c]).sum();
        (0..bins.0 * bins.1)
            .map(|p| classes.iter().map(|&c| sums[c][p]).sum::<f64>() / n as f64)
            .collect()
    };
    let apart = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).map(|(p, q)| (p - q).abs()).sum::<f64>() / a.len() as f64
    };
    let between = apart(&mean_of(&[0, 2]), &mean_of(&[1, 3]));
    let within =
        (apart(&mean_of(&[0]), &mean_of(&[2])) + apart(&mean_of(&[1]), &mean_of(&[3]))) / 2.0;
    between > ALTERNATE * within
}

/// The candidate axes (see [`find_axes`]) of the pixels `a..b` of an edge profile, in image
/// coordinates.
fn axes_over(profile: &[f32], (a, b): (usize, usize)) -> Vec<Axis> {
    let b = b.min(profile.len());
    let a = a.min(b);
    find_axes(&axis_peaks(&profile[a..b]))
        .into_iter()
        .map(|axis| Axis {
            pitch: axis.pitch,
            phase: (axis.phase + a as f64).rem_euclid(axis.pitch),
        })
        .collect()
}

/// A board found on a pair of combs, with the pixel bands it spans and its own edge profiles.
pub(super) struct BoardOnAxes {
    pub(super) x_axis: Axis,
    pub(super) y_axis: Axis,
    pub(super) extent: Extent,
    /// Pixel columns and rows (see [`extent_bands`]).
    pub(super) bands: ((usize, usize), (usize, usize)),
    /// Peaks of the board's column profile.
    pub(super) x_profile: Vec<f32>,
    /// Peaks of the board's row profile.
    pub(super) y_profile: Vec<f32>,
}

/// The pair of axes whose comb shows the largest board, with that board's cells; the first
/// error when none does. A later pair replaces an earlier one only with a board covering over
/// half as much again (a texture, a keypad or dots at a small pitch also make a grid of alike
/// four-sided cells, and can come first; the same board seen on a multiple of the pitch covers
/// no more), or with more cells at the same pitches (the comb at another phase: one on an edge
/// inside the tiles cuts the first or last row). A pair whose pitches are not the earlier
/// pair's, nor whole multiples or fractions of them, on both axes also replaces it when its
/// tile-like cells cover over half as much again as any pair's so far (their count times a
/// cell's area): on a small or sparse board a comb a few percent off the pitch, or at a
/// fraction of it on one axis, spans about the same box with far fewer whole tiles. (Against
/// any pair's, not the earlier one's: that may be the right pitches at a poor phase, whose
/// other phase covered more but kept the same box.)
pub(super) fn first_board(
    edges: &Edges,
    x_axes: &[Axis],
    y_axes: &[Axis],
    sides: Sides,
) -> Result<OnAxes, VisionError> {
    ranked_boards(edges, x_axes, y_axes, sides).map(|(best, _)| best)
}

/// A board on a pair of axes: the x axis, the y axis and the board's cells.
type OnAxes = (Axis, Axis, Extent);

/// The board [`first_board`] chooses, and the boards of the other pairs of axes, those whose
/// tile-like cells cover most first.
fn ranked_boards(
    edges: &Edges,
    x_axes: &[Axis],
    y_axes: &[Axis],
    sides: Sides,
) -> Result<(OnAxes, Vec<OnAxes>), VisionError> {
    let mut first_error = None;
    let mut best: Option<(Axis, Axis, Extent, f64)> = None;
    // Every board found, with the area its tile-like cells cover.
    let mut found: Vec<(OnAxes, f64)> = Vec::new();
    // The most any pair's tile-like cells covered so far.
    let mut most_covered = 0f64;
    for &x_axis in x_axes {
        for &y_axis in y_axes {
            if !plausible_aspect(x_axis.pitch, y_axis.pitch) {
                continue;
            }
            match find_extent(
                edges,
                x_axis,
                y_axis,
                (Outliers::LookPast, Growth::None, sides),
            ) {
                Ok((extent, tiles)) => {
                    let covered = tiles as f64 * x_axis.pitch * y_axis.pitch;
                    let area = (extent.rows * extent.cols) as f64 * x_axis.pitch * y_axis.pitch;
                    // Much larger, or the same lattice at another phase with more cells.
                    let better = best.as_ref().is_none_or(|&(bx, by, be, a)| {
                        let same_pitch = (bx.pitch - x_axis.pitch).abs() < 0.5
                            && (by.pitch - y_axis.pitch).abs() < 0.5;
                        let other_lattice = !commensurate(bx.pitch, x_axis.pitch)
                            || !commensurate(by.pitch, y_axis.pitch);
                        area > 1.5 * a
                            || (other_lattice && covered > 1.5 * most_covered)
                            || (same_pitch && extent.rows * extent.cols > be.rows * be.cols)
                    });
                    most_covered = most_covered.max(covered);
                    if better {
                        best = Some((x_axis, y_axis, extent, area));
                    }
                    found.push(((x_axis, y_axis, extent), covered));
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    let Some((bx, by, best_extent, _)) = best else {
        return Err(first_error.unwrap_or_else(|| no_board("no grid of tile-like cells")));
    };
    found.sort_by(|a, b| b.1.total_cmp(&a.1));
    let others = found
        .into_iter()
        .map(|(board, _)| board)
        .filter(|&(x, y, _)| x != bx || y != by)
        .collect();
    Ok(((bx, by, best_extent), others))
}

/// Whether `fine` is `coarse` or a whole fraction of it, within 3%.
fn finer(fine: f64, coarse: f64) -> bool {
    fine <= coarse * 1.03 && commensurate(fine, coarse)
}

/// Whether one pitch is the other or a whole multiple of it, within 3%: the same lattice,
/// seen with every boundary or every k-th.
fn commensurate(a: f64, b: f64) -> bool {
    let ratio = a.max(b) / a.min(b).max(f64::MIN_POSITIVE);
    (ratio - ratio.round()).abs() <= 0.03 * ratio
}

/// The same board seen on a coarser comb when one fits, else `board`. A comb at a fraction of
/// the true pitch (strokes repeating inside the faces) still finds cells with four sides; over
/// the board alone, its true boundaries stand out as every k-th tooth.
fn coarser_board(edges: &Edges, board: BoardOnAxes) -> BoardOnAxes {
    let extent = board.extent;
    let x_coarse = coarsen(&board.x_profile, board.x_axis, extent.col0, extent.cols);
    let y_coarse = coarsen(&board.y_profile, board.y_axis, extent.row0, extent.rows);
    if x_coarse.is_none() && y_coarse.is_none() {
        return board;
    }
    let (xa, ya) = (
        x_coarse.unwrap_or(board.x_axis),
        y_coarse.unwrap_or(board.y_axis),
    );
    if !plausible_aspect(xa.pitch, ya.pitch) {
        return board;
    }
    let (w, h) = (edges.image.width(), edges.image.height());
    // The same board seen coarser, or nothing.
    match find_extent(
        edges,
        xa,
        ya,
        (Outliers::Typical, Growth::None, Sides::OnComb),
    ) {
        Ok((coarse, _)) if covers_most_of(extent_bands(coarse, xa, ya, w, h), board.bands) => {
            edges.board(coarse, xa, ya)
        }
        _ => board,
    }
}

/// The board grown by the rows and columns next to it that its lattice runs on through (see
/// [`CellEvidence::grown_along_lattice`]), found again on its own combs; `board` when that
/// finds no box holding it. Only once the combs are chosen: on a wrong comb over a texture,
/// growing would make a larger board that beats the right one.
fn grown_on_lattice(edges: &Edges, board: BoardOnAxes) -> BoardOnAxes {
    let (x_axis, y_axis) = (board.x_axis, board.y_axis);
    let found = find_extent(
        edges,
        x_axis,
        y_axis,
        (Outliers::LookPast, Growth::AlongLattice, Sides::OnComb),
    );
    let old = board.extent;
    match found {
        Ok((grown, _))
            if grown.row0 <= old.row0
                && grown.col0 <= old.col0
                && grown.row0 + grown.rows as i64 >= old.row0 + old.rows as i64
                && grown.col0 + grown.cols as i64 >= old.col0 + old.cols as i64
                && grown.rows * grown.cols > old.rows * old.cols =>
        {
            edges.board(grown, x_axis, y_axis)
        }
        _ => board,
    }
}

/// The geometry refined against the board's own profiles: pitch and phase (see
/// [`fine_comb`]), then where the tiles start in each cell and their size (see [`tile_span`]).
fn refine_board(edges: &Edges, board: &BoardOnAxes) -> Geometry {
    let image = edges.image;
    let extent = board.extent;
    let ((x0, x1), (y0, y1)) = board.bands;
    let (x_rise, x_fall) = signed_profiles(image, true, y0, y1);
    let (y_rise, y_fall) = signed_profiles(image, false, x0, x1);
    let x_fit = fine_comb(
        &board.x_profile,
        [&x_rise, &x_fall],
        &[
            refine_axis(&board.x_profile, board.x_axis, extent.col0, extent.cols),
            board.x_axis,
        ],
        extent.col0,
        extent.cols,
    );
    let y_fit = fine_comb(
        &board.y_profile,
        [&y_rise, &y_fall],
        &[
            refine_axis(&board.y_profile, board.y_axis, extent.row0, extent.rows),
            board.y_axis,
        ],
        extent.row0,
        extent.rows,
    );
    let colours = Colours {
        tile: extent.tile_colour,
        background: outside_colour(image, (x0, x1), (y0, y1), x_fit.pitch, y_fit.pitch),
    };
    let x_span = tile_span(
        &board.x_profile,
        x_fit,
        (extent.col0, extent.cols),
        &Across {
            image,
            vertical: true,
            band: (y0, y1),
            colours,
        },
    );
    let y_span = tile_span(
        &board.y_profile,
        y_fit,
        (extent.row0, extent.rows),
        &Across {
            image,
            vertical: false,
            band: (x0, x1),
            colours,
        },
    );
    // A gap between tiles runs both ways: a strip that parts the tiles along one axis only
    // is a drawn side (3D tiles that touch) or a line inside the faces, not a gap.
    let ((x_start, x_size), (y_start, y_size)) = match (x_span.parted, y_span.parted) {
        (Some(x), Some(y)) => (x, y),
        _ => (x_span.whole, y_span.whole),
    };
    // A profile index i measures the step between pixels i and i + 1: the edge lies at i + 1.
    let from_edges = Geometry {
        rows: extent.rows,
        cols: extent.cols,
        origin: [x_start + 1.0, y_start + 1.0],
        pitch: [x_fit.pitch, y_fit.pitch],
        tile_size: [x_size, y_size],
    };
    centred_tiles(
        image,
        from_edges,
        [(x_fit, &board.x_profile), (y_fit, &board.y_profile)],
        extent,
    )
}

/// The pixel columns and rows the board's cells span, clipped to the image.
pub(super) fn extent_bands(
    extent: Extent,
    x_axis: Axis,
    y_axis: Axis,
    w: u32,
    h: u32,
) -> ((usize, usize), (usize, usize)) {
    let band = |lo: f64, hi: f64, limit: u32| {
        (
            lo.max(0.0) as usize,
            (hi.max(0.0) as usize).min(limit as usize),
        )
    };
    (
        band(
            x_axis.at(extent.col0 as f64),
            x_axis.at((extent.col0 + extent.cols as i64) as f64),
            w,
        ),
        band(
            y_axis.at(extent.row0 as f64),
            y_axis.at((extent.row0 + extent.rows as i64) as f64),
            h,
        ),
    )
}

/// Whether cells of these pitches could hold link-up tiles: square, taller than wide, or not
/// much wider than tall. Combs at a fraction of the pitch on one axis (lines repeating inside
/// the faces) make cells several times wider than tall, or taller than wide.
fn plausible_aspect(x_pitch: f64, y_pitch: f64) -> bool {
    (0.5..=2.5).contains(&(y_pitch / x_pitch))
}

/// The axis `k` times coarser when, over the board's `count` cells from boundary `first`, one
/// class of every `k`-th boundary collects far more edge than every other class: the board's
/// true boundaries under a comb at `1 / k` of the pitch (strokes repeating inside the faces
/// still make cells with four sides). `None` when no class stands out.
fn coarsen(profile: &[f32], axis: Axis, first: i64, count: usize) -> Option<Axis> {
    /// How many times the next class the strongest class must collect.
    const STANDS_OUT: f64 = 2.5;
    let reach = (0.06 * axis.pitch).max(1.0);
    // Interior boundaries only: the board's outer ones face the surroundings and stand out
    // whatever the pitch.
    let teeth: Vec<f64> = (1..count as i64)
        .map(|j| {
            let x = axis.at((first + j) as f64);
            let lo = (x - reach).round().max(0.0) as usize;
            let hi = ((x + reach).round().max(0.0) as usize).min(profile.len().saturating_sub(1));
            profile
                .get(lo..=hi)
                .map_or(0.0, |s| s.iter().copied().fold(0.0, f32::max))
                .into()
        })
        .collect();
    let mut best: Option<(f64, Axis)> = None;
    for k in 2..=8usize {
        if teeth.len() / k < 3 || axis.pitch * k as f64 > 400.0 {
            break;
        }
        // Each class by its median, so one strong line does not carry a class.
        let means: Vec<f64> = (0..k)
            .map(|r| {
                let mut class: Vec<f64> = teeth.iter().skip(r).step_by(k).copied().collect();
                mean_median(&mut class).unwrap_or(0.0)
            })
            .collect();
        let (strongest, top) = means
            .iter()
            .copied()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        let next = means
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != strongest)
            .map(|(_, &v)| v)
            .fold(0.0, f64::max);
        let ratio = top / next.max(f64::MIN_POSITIVE);
        if top > 0.0 && ratio >= STANDS_OUT && best.is_none_or(|(b, _)| ratio > b) {
            let coarse = Axis {
                pitch: axis.pitch * k as f64,
                phase: axis.at((first + 1 + strongest as i64) as f64),
            };
            best = Some((ratio, coarse));
        }
    }
    best.map(|(_, axis)| axis)
}
