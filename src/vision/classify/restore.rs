//! Tiles given back where the surroundings' colours alone would read them empty: by the rim
//! all tiles share, their drawing, their own edge, a gap unlike theirs, their paper.

use image::RgbaImage;

use crate::vision::features::{OUTSIDE_BAND, mean_colour, pixel_range};
use crate::vision::{ClassifierSettings, Geometry, Rect};

use super::*;

/// Depth steps of a rim descriptor, from the tile's edge inwards.
const RIM_STEPS: usize = 4;
/// How deep into the tile the rim descriptor reaches, as a fraction of the tile's size.
const RIM_DEPTH: f64 = 0.08;

/// The band just inside a cell's tile rectangle, side by side (top, bottom, left, right) and
/// step by step inwards: the mean colour of each step over the middle 60% of the side.
fn rim(image: &RgbaImage, geometry: &Geometry, i: usize) -> Vec<f32> {
    let pos = geometry.pos_of(i);
    let r = geometry.cell_rect(pos);
    let (dx, dy) = (
        r.w * RIM_DEPTH / RIM_STEPS as f64,
        r.h * RIM_DEPTH / RIM_STEPS as f64,
    );
    let mut out = Vec::with_capacity(4 * RIM_STEPS * 3);
    // A step may be narrower than a pixel on small tiles: it then takes the pixel it lies in
    // (see `mean_colour`; an empty step read as black, on tiles and empty cells alike, had made
    // every rim far from the background's).
    let mut mean = |x0: f64, y0: f64, x1: f64, y1: f64| {
        out.extend(mean_colour(image, (x0, y0, x1, y1), 1));
    };
    let (xm0, xm1) = (r.x + 0.2 * r.w, r.x + 0.8 * r.w);
    let (ym0, ym1) = (r.y + 0.2 * r.h, r.y + 0.8 * r.h);
    for k in 0..RIM_STEPS {
        let (a, b) = (k as f64, k as f64 + 1.0);
        mean(xm0, r.y + a * dy, xm1, r.y + b * dy);
        mean(xm0, r.y + r.h - b * dy, xm1, r.y + r.h - a * dy);
        mean(r.x + a * dx, ym0, r.x + b * dx, ym1);
        mean(r.x + r.w - b * dx, ym0, r.x + r.w - a * dx, ym1);
    }
    out
}

/// RMS difference of two descriptors.
fn rms(a: &[f32], b: &[f32]) -> f32 {
    (a.iter().zip(b).map(|(x, y)| (x - y).powi(2)).sum::<f32>() / a.len().max(1) as f32).sqrt()
}

/// Element-wise median of descriptors.
fn median_descriptor(descriptors: &[&Vec<f32>]) -> Vec<f32> {
    let len = descriptors.first().map_or(0, |d| d.len());
    (0..len)
        .map(|k| {
            let mut v: Vec<f32> = descriptors.iter().map(|d| d[k]).collect();
            let mid = v.len() / 2;
            *v.select_nth_unstable_by(mid, f32::total_cmp).1
        })
        .collect()
}

/// How much drawing the middle of cell `i` shows: the mean colour step (sum over R, G, B)
/// from one pixel to the next, across and down, over the middle 60% of its tile rectangle.
fn middle_activity(image: &RgbaImage, geometry: &Geometry, i: usize) -> f32 {
    activity(image, middle_rect(geometry, i)).unwrap_or(0.0)
}

/// The middle 60% (each way) of the tile rectangle of cell `i`, as (x0, y0, x1, y1).
fn middle_rect(geometry: &Geometry, i: usize) -> (f64, f64, f64, f64) {
    let r = geometry.cell_rect(geometry.pos_of(i));
    (
        r.x + 0.2 * r.w,
        r.y + 0.2 * r.h,
        r.x + 0.8 * r.w,
        r.y + 0.8 * r.h,
    )
}

/// The median drawing ([`middle_activity`]) of the middles of `cells`; `None` for no cell.
fn median_drawing(
    image: &RgbaImage,
    geometry: &Geometry,
    cells: impl IntoIterator<Item = usize>,
) -> Option<f32> {
    let mut drawing: Vec<f32> = cells
        .into_iter()
        .map(|i| middle_activity(image, geometry, i))
        .collect();
    crate::stats::median(&mut drawing)
}

/// The mean colour step (sum over R, G, B) from one pixel to the next, across and down, inside
/// `rect` (x0, y0, x1, y1); `None` when it holds under two pixels each way.
fn activity(image: &RgbaImage, rect: (f64, f64, f64, f64)) -> Option<f32> {
    mean_step(image, rect, |a, b| {
        (0..3).map(|c| u32::from(a[c].abs_diff(b[c]))).sum()
    })
}

/// The share of the steps from one pixel to the next, across and down, inside `rect` (x0,
/// y0, x1, y1) in which some channel changes; `None` when it holds under two pixels each way.
fn moving_share(image: &RgbaImage, rect: (f64, f64, f64, f64)) -> Option<f32> {
    mean_step(image, rect, |a, b| u32::from(a[..3] != b[..3]))
}

/// The mean of `step` over the pairs of a pixel and the next, across and down, inside `rect`
/// (x0, y0, x1, y1); `None` when it holds under two pixels each way.
fn mean_step(
    image: &RgbaImage,
    rect: (f64, f64, f64, f64),
    step: impl Fn([u8; 4], [u8; 4]) -> u32,
) -> Option<f32> {
    let (xa, xb) = pixel_range(rect.0, rect.2, image.width());
    let (ya, yb) = pixel_range(rect.1, rect.3, image.height());
    let (mut total, mut count) = (0u64, 0u64);
    for y in ya..yb.saturating_sub(1) {
        for x in xa..xb.saturating_sub(1) {
            let here = image.get_pixel(x, y).0;
            total += u64::from(step(here, image.get_pixel(x + 1, y).0));
            total += u64::from(step(here, image.get_pixel(x, y + 1).0));
            count += 2;
        }
    }
    (count > 0).then(|| total as f32 / count as f32)
}

/// How much drawing the surroundings show: the [`band_activity`] of the band
/// [`OUTSIDE_BAND`] outside the board. `None` when the board touches the image's edges.
fn surroundings_activity(image: &RgbaImage, geometry: &Geometry) -> Option<f32> {
    band_activity(image, geometry, OUTSIDE_BAND)
}

/// The median over the sides in the image of the [`activity`] of the band `near` to `far`
/// (shares of a pitch) outside the board.
fn band_activity(image: &RgbaImage, geometry: &Geometry, (near, far): (f64, f64)) -> Option<f32> {
    let mut sides: Vec<f32> = band_sides(geometry.board_rect(), geometry.pitch, (near, far))
        .into_iter()
        .filter_map(|rect| activity(image, rect))
        .collect();
    crate::stats::median(&mut sides)
}

/// The four sides (left, right, top, bottom) of the band `near` to `far` (shares of the
/// `pitch`) outside the board `b`, as rectangles (x0, y0, x1, y1).
fn band_sides(b: Rect, [px, py]: [f64; 2], (near, far): (f64, f64)) -> [(f64, f64, f64, f64); 4] {
    let (x0, y0, x1, y1) = (b.x, b.y, b.x + b.w, b.y + b.h);
    [
        (x0 - far * px, y0, x0 - near * px, y1),
        (x1 + near * px, y0, x1 + far * px, y1),
        (x0, y0 - far * py, x1, y0 - near * py),
        (x0, y1 + near * py, x1, y1 + far * py),
    ]
}

/// Gives back their tiles to cells read as empty by colour whose rim is the tiles' rim, and
/// takes them from wallpaper read as tiles.
///
/// Colour alone cannot tell a tile whose paper is the background's colour (kshisen's light tiles on
/// its plain light-grey background, a blank tile) from an empty cell; the band just inside the
/// tile's edge can, when the game draws every tile with the same rim (an outline, a bevel, a 3D
/// side). The rim is learnt from the cells read as tiles by colour (before the drawing rule adds
/// cells: late in a game with few tiles, cells of lit wallpaper read as drawn would teach the
/// wallpaper as the rim), and used only when they share it closely and it stands clearly apart from
/// what the cells read as empty show in their middles (the background's colour when there are
/// none): flat tiles of many colours share no rim, and icons with no tile body have the panel under
/// them as "rim", so nothing changes for them; nor when the cells read as empty all show the rim
/// and no drawing (see [`rim_of_the_grid`]). The other way round, a cell read as a tile whose edge
/// is unlike the rim and like the background, with little drawing in its middle, is empty (a
/// lighter patch of a wallpaper under an emptied cell).
pub(super) fn restore_tiles_by_rim(
    image: &RgbaImage,
    geometry: &Geometry,
    background: [f32; 3],
    is_tile: &mut [bool],
) {
    let n = is_tile.len();
    let tiles: Vec<usize> = (0..n).filter(|&i| is_tile[i]).collect();
    let empties: Vec<usize> = (0..n).filter(|&i| !is_tile[i]).collect();
    if tiles.len() < 4 {
        return;
    }
    let rims: Vec<Vec<f32>> = (0..n).map(|i| rim(image, geometry, i)).collect();
    let tile_rim = median_descriptor(&tiles.iter().map(|&i| &rims[i]).collect::<Vec<_>>());
    // What an empty cell shows: the typical middle of the cells read as empty (the panel or
    // wallpaper under the board, which the band outside it may not show), else the
    // background's colour. A rim no different from it carries no news: the "rim" of icons
    // drawn with no tile body is the panel they stand on.
    let background = if empties.is_empty() {
        background
    } else {
        let middles: Vec<[f32; 3]> = empties
            .iter()
            .map(|&i| {
                let pos = geometry.pos_of(i);
                mean_colour(image, face_rect(geometry, pos, 0.2), 1)
            })
            .collect();
        std::array::from_fn(|c| {
            let mut channel: Vec<f32> = middles.iter().map(|m| m[c]).collect();
            crate::stats::median(&mut channel).unwrap_or(background[c])
        })
    };
    let empty_rim: Vec<f32> = (0..4 * RIM_STEPS).flat_map(|_| background).collect();
    let to_rim: Vec<f32> = rims.iter().map(|r| rms(r, &tile_rim)).collect();
    let mut spread: Vec<f32> = tiles.iter().map(|&i| to_rim[i]).collect();
    let mid = spread.len() / 2;
    let spread = *spread.select_nth_unstable_by(mid, f32::total_cmp).1;
    let apart = rms(&tile_rim, &empty_rim);
    if apart < RIMS_APART || spread > 0.25 * apart {
        return;
    }
    let limit = (3.0 * spread).max(0.35 * apart);
    let restored_under = rims_parted(image, geometry, &empties, &to_rim, limit);
    let like_rim: Vec<usize> = empties
        .iter()
        .copied()
        .filter(|&i| to_rim[i] < restored_under)
        .collect();
    if !rim_of_the_grid(image, geometry, &empties, like_rim.len()) {
        for &i in &like_rim {
            is_tile[i] = true;
        }
    }
    // The other way: a cell read as a tile by colour (a lighter patch of a wallpaper under an
    // emptied cell) whose edge is far from the tiles' rim and about twice as near the
    // background's, and whose middle shows no drawing, is empty. A selected tile's edge
    // (tinted, outlined, inverted) may be far from the rim, but its face keeps its drawing.
    // Positions in `tiles` of the cells whose edge is unlike the rim.
    let unlike_rim: Vec<usize> = (0..tiles.len())
        .filter(|&t| {
            let i = tiles[t];
            let to_tiles = to_rim[i];
            to_tiles > 2.0 * limit && rms(&rims[i], &empty_rim) < 0.55 * to_tiles
        })
        .collect();
    if unlike_rim.is_empty() {
        return;
    }
    let drawing: Vec<f32> = tiles
        .iter()
        .map(|&i| middle_activity(image, geometry, i))
        .collect();
    let typical = crate::stats::median(&mut drawing.clone()).unwrap_or(0.0);
    for t in unlike_rim {
        if drawing[t] < 0.5 * typical {
            is_tile[tiles[t]] = false;
        }
    }
}

/// The distance from the tiles' rim under which a cell read as empty is given its tile back:
/// `limit`, or less where the `empties` under it (their rims' distance from the tiles' rim in
/// `to_rim`, by cell) fall apart into two groups (see [`natural_break`]) and the far group's
/// middles show under half the drawing the near group's do. The tiles read as empty (their paper
/// the background's colour) share the rim closely and show their pictures; empty cells whose
/// surroundings are only a little unlike the rim (a dark marble under dark tiles, the boxes a pixel
/// or two off the tiles: seed 23257) lie further, and show none. A kind whose pictures reach into
/// the rim (icons with no tile body) lies further too, but drawn (seed 22146).
fn rims_parted(
    image: &RgbaImage,
    geometry: &Geometry,
    empties: &[usize],
    to_rim: &[f32],
    limit: f32,
) -> f32 {
    let mut near: Vec<(f32, usize)> = empties
        .iter()
        .map(|&i| (to_rim[i], i))
        .filter(|&(d, _)| d < limit)
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0));
    let sorted: Vec<f32> = near.iter().map(|&(d, _)| d).collect();
    let Some(at) = natural_break(&sorted) else {
        return limit;
    };
    let drawing = |far: bool| {
        let cells = near.iter().filter(|&&(d, _)| (d >= at) == far);
        median_drawing(image, geometry, cells.map(|&(_, i)| i)).unwrap_or(0.0)
    };
    if drawing(true) < 0.5 * drawing(false) {
        at.min(limit)
    } else {
        limit
    }
}

/// Where `sorted` (ascending) falls apart into two groups: between the two sides of the split
/// that parts them most (Otsu's), taken when the far group's median is at least twice the
/// near one's and [`RIMS_APART`] beyond it. `None` when one group is all there is.
fn natural_break(sorted: &[f32]) -> Option<f32> {
    let n = sorted.len();
    let total: f32 = sorted.iter().sum();
    let mut best: Option<(f32, usize)> = None;
    let mut below = 0.0;
    for k in 1..n {
        below += sorted[k - 1];
        let (w0, w1) = (k as f32, (n - k) as f32);
        let (m0, m1) = (below / w0, (total - below) / w1);
        let parted = w0 * w1 * (m1 - m0) * (m1 - m0);
        if best.is_none_or(|(b, _)| parted > b) {
            best = Some((parted, k));
        }
    }
    let (_, k) = best?;
    let median = |v: &[f32]| v[v.len() / 2];
    let (near, far) = (median(&sorted[..k]), median(&sorted[k..]));
    (far >= 2.0 * near && far - near >= RIMS_APART).then(|| (sorted[k - 1] + sorted[k]) / 2.0)
}

/// Fewest levels (the rims' RMS distance) between the near and far groups' medians for
/// [`natural_break`] to part them: the least a rim must differ from the background's to tell
/// tiles by (see [`restore_tiles_by_rim`]).
const RIMS_APART: f32 = 12.0;

/// Whether the "rim" the tiles share is the board's own, not the tiles': every one of the
/// `empties` (cells read as empty, at least a quarter of the board) shows it (`like_rim` of
/// them), and their middles show no drawing (the median under the larger of [`DRAWN_FLOOR`]
/// and twice the surroundings', as in [`restore_drawn_tiles`]). A box that takes in the gap
/// round each tile puts grid lines or a panel's edge in the band inside every cell, empty or
/// not; tiles read as empty by colour (paper of the background's colour) show their pictures,
/// and a board's worth of them is never all blank.
fn rim_of_the_grid(
    image: &RgbaImage,
    geometry: &Geometry,
    empties: &[usize],
    like_rim: usize,
) -> bool {
    let n = geometry.rows * geometry.cols;
    if 4 * empties.len() < n || like_rim < empties.len() {
        return false;
    }
    let floor = surroundings_activity(image, geometry).map_or(DRAWN_FLOOR, drawing_floor);
    median_drawing(image, geometry, empties.iter().copied()).is_some_and(|d| d < floor)
}

/// Gives back their tiles to cells read as empty whose middle shows drawing: at least twice
/// the surroundings' (see [`surroundings_activity`]; or the panel's, in `panel_band` where
/// one showed, when busier, and no busier than a quarter of the cells read as empty show: a
/// panel's margin may be too thin for the wider band to see), at least [`DRAWN_FLOOR`], and
/// at least 60% of the typical tile's when four or more cells are read as tiles.
///
/// An empty cell shows the panel or the wallpaper the surroundings show; colour alone fails
/// when the tiles' paper is the background's colour (a photo wallpaper holding the paper's
/// tones, a panel of the paper's shade), and the whole board then read empty. On tuning seeds
/// no truly empty cell shows over 48% of the tiles' drawing.
pub(super) fn restore_drawn_tiles(
    image: &RgbaImage,
    geometry: &Geometry,
    panel_band: Option<(f64, f64)>,
    is_tile: &mut [bool],
) {
    let Some(wide) = surroundings_activity(image, geometry) else {
        return;
    };
    let n = is_tile.len();
    let empties: Vec<(usize, f32)> = (0..n)
        .filter(|&i| !is_tile[i])
        .map(|i| (i, middle_activity(image, geometry, i)))
        .collect();
    // The panel's drawing, as far as the quieter cells read as empty (a quarter of them)
    // show it: a band that reaches the outer tiles' sides (off a box a little small), or
    // lines round the cells, is busier than the panel's face.
    let mut quiet: Vec<f32> = empties.iter().map(|&(_, d)| d).collect();
    quiet.sort_by(f32::total_cmp);
    let panel = panel_band
        .and_then(|depth| band_activity(image, geometry, depth))
        .zip(quiet.get(quiet.len() / 4))
        .map(|(band, &cells)| band.min(cells));
    let surroundings = panel.map_or(wide, |p| p.max(wide));
    let floor = drawing_floor(surroundings);
    // The tiles' drawing is measured only when some empty cell passes the cheap tests.
    let drawn: Vec<(usize, f32)> = empties
        .into_iter()
        .filter(|&(_, drawing)| drawing >= floor)
        .collect();
    if drawn.is_empty() {
        return;
    }
    let mut drawing: Vec<f32> = (0..n)
        .filter(|&i| is_tile[i])
        .map(|i| middle_activity(image, geometry, i))
        .collect();
    let typical = if drawing.len() >= 4 {
        crate::stats::median(&mut drawing).unwrap_or(0.0)
    } else {
        0.0
    };
    for (i, cell_drawing) in drawn {
        if cell_drawing >= 0.6 * typical {
            is_tile[i] = true;
        }
    }
}

/// Gives back their tiles to cells read as empty whose middle is still where what lies under
/// the board is a texture: a cell whose pixels change from one to the next under
/// [`STILL_SHARE`] as often as those of the stillest side of the band that shows what lies
/// under the board, which change at least [`TEXTURE_LEAST`] of the time. That band is the
/// panel's, in `panel_band`, where one showed, with the band between it and the board (the
/// panel too: a flat panel that ends inside its band leaves that band mostly photo, seed
/// 39393); else the bands from 1% to [`TEXTURE_DEPTH`] of a pitch out. An empty cell shows
/// the texture; a blank-faced tile in one of its colours (a grey tile on a speckled green
/// panel), or a flat tile with a glyph in the texture's colours, shows one colour over most
/// of its face. A flat panel that ends right at the board, with a
/// texture round it, shows in the panel's band (seed 377).
pub(super) fn restore_still_on_texture(
    image: &RgbaImage,
    geometry: &Geometry,
    panel_band: Option<(f64, f64)>,
    is_tile: &mut [bool],
) {
    let b = geometry.board_rect();
    let bands = match panel_band {
        // What lies between the board and the panel's band is the panel too.
        Some((inner, outer)) if inner > 0.01 => vec![(0.01, inner), (inner, outer)],
        Some(depth) => vec![depth],
        None => vec![(0.01, 0.06), (0.06, TEXTURE_DEPTH)],
    };
    let sides = bands
        .into_iter()
        .flat_map(|depth| band_sides(b, geometry.pitch, depth));
    let Some(texture) = sides
        .filter_map(|rect| moving_share(image, rect))
        .min_by(f32::total_cmp)
    else {
        return;
    };
    if texture < TEXTURE_LEAST {
        return;
    }
    for (i, tile) in is_tile.iter_mut().enumerate().filter(|(_, tile)| !**tile) {
        let still = |moving: f32| moving < STILL_SHARE * texture;
        *tile = moving_share(image, middle_rect(geometry, i)).is_some_and(still);
    }
}

/// How far out (as a share of a pitch) the bands that show what lies under the board reach
/// (see [`restore_still_on_texture`]).
const TEXTURE_DEPTH: f64 = 0.14;
/// The least share of pixel steps that change in a texture (see
/// [`restore_still_on_texture`]).
const TEXTURE_LEAST: f32 = 0.85;
/// Most share of a texture's changing steps in a still cell's middle.
const STILL_SHARE: f32 = 0.5;

/// The least drawing (see [`activity`]) that makes an empty-looking cell a tile: above
/// compression noise and a soft gradient.
const DRAWN_FLOOR: f32 = 8.0;

/// The least drawing a cell must show to be drawn where the surroundings show `surroundings`:
/// twice theirs, and at least [`DRAWN_FLOOR`].
fn drawing_floor(surroundings: f32) -> f32 {
    (2.0 * surroundings).max(DRAWN_FLOOR)
}

/// How deep the edge of a cell reaches, as a fraction of its tile size: the colours an empty
/// cell shows (see [`restore_by_own_edge`]).
const EDGE_DEPTH: f64 = 0.1;
/// An empty cell's middle shows at least this share of its pixels in its edge's colours; on
/// tuning seeds, real fixtures and generated scenes alike, every empty cell showed 99.7% or
/// more, while emoji drawn with no tile body showed less than 95% in most cells.
const OWN_EDGE_SHARE: f32 = 0.97;

/// Gives back their tiles to cells read as empty whose middle shows colours their own edge
/// does not.
///
/// An icon drawn with no tile body (an emoji on the board) leaves most of its cell in the
/// background's colours, so the share of background read it as empty; yet an empty cell shows
/// the same colours in its middle as along its edge (a wallpaper or a gradient changes little
/// over a cell, a line through it crosses its edge too), while the icon stands in the middle
/// with background all round it. Compared with its own edge, not with the surroundings, a
/// cell needs no colour of the board's surroundings to be right.
pub(super) fn restore_by_own_edge(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    is_tile: &mut [bool],
) {
    for (i, tile) in is_tile.iter_mut().enumerate() {
        if !*tile && drawn_apart_from_edge(image, geometry, settings, i) {
            *tile = true;
        }
    }
}

/// Whether the middle of cell `i` (its face) shows colours its own edge does not: less than
/// [`OWN_EDGE_SHARE`] of the face's pixels in the colours of the band along the edge of its
/// pitch box (the tile and half the gap round it, where an icon with no body leaves the
/// background showing).
pub(super) fn drawn_apart_from_edge(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    i: usize,
) -> bool {
    let pos = geometry.pos_of(i);
    let r = geometry.cell_rect(pos);
    let (gx, gy) = gap_per_side(geometry);
    let pitch_box = Rect {
        x: r.x - gx,
        y: r.y - gy,
        w: geometry.pitch[0].max(r.w),
        h: geometry.pitch[1].max(r.h),
    };
    let edge = edge_colours(image, pitch_box);
    let middle = face_rect(geometry, pos, settings.trim);
    share_in_colours(image, middle, &edge) < OWN_EDGE_SHARE
}

/// The width in pixels of the gap on each side of a tile (half the space between tiles), across
/// and down; 0 where tiles touch or overlap.
fn gap_per_side(geometry: &Geometry) -> (f64, f64) {
    (
        (geometry.pitch[0] - geometry.tile_size[0]).max(0.0) / 2.0,
        (geometry.pitch[1] - geometry.tile_size[1]).max(0.0) / 2.0,
    )
}

/// The least width in pixels of the gap on each side of a tile (half the space between
/// tiles) for [`empty_like_gap`] to judge its cell.
const GAP_LEAST: f64 = 1.5;

/// The least share of a face's pixels in the very colour bins of the gap round it (not the
/// widened ones) for [`empty_like_gap`] to make it empty: a blank tile of a colour next to
/// the gap's falls in the widened bins only (a teal tile on a blue panel: 0%), an empty cell
/// mostly in the very bins (83% or more on the tuning seeds).
const GAP_EXACT_SHARE: f32 = 0.5;

/// Makes empty the cells read as tiles whose face shows nothing but the colours of the gap
/// round the tile (at least [`OWN_EDGE_SHARE`] of its pixels in them, widened, and
/// [`GAP_EXACT_SHARE`] in the very bins): what lies behind the board shows in the gaps and in
/// an empty cell alike, where the colours round the board may miss a patch of it (a
/// waterfall in a photo behind the board), while a tile shows its body or its drawing there;
/// and on three sides at least (see [`shows_all_round`]). Only where tiles stand at least
/// [`GAP_LEAST`] pixels apart, and only for cells with little drawing (see
/// [`GAP_DRAWING_SHARE`]) that are not mostly the tiles' own paper (see [`blank_paper`]).
pub(super) fn empty_like_gap(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    background: [f32; 3],
    is_tile: &mut [bool],
) {
    let (gx, gy) = gap_per_side(geometry);
    if gx < GAP_LEAST || gy < GAP_LEAST {
        return;
    }
    let like_gap: Vec<usize> = (0..is_tile.len())
        .filter(|&i| is_tile[i])
        .filter(|&i| {
            let pos = geometry.pos_of(i);
            let sides = ring_sides(geometry.cell_rect(pos), gx, gy);
            let ring = BinSet::of(image, &sides);
            let face = face_rect(geometry, pos, settings.trim);
            share_in_colours(image, face, &ring.widened) >= OWN_EDGE_SHARE
                && share_in_colours(image, face, &ring.exact) >= GAP_EXACT_SHARE
                && shows_all_round(image, face, &sides)
        })
        .collect();
    if like_gap.is_empty() {
        return;
    }
    // A "gap" that is the tiles' own rim (a tile size found smaller than the tiles) holds
    // their colours too: only cells with little drawing against the typical tile's go.
    let tiles = (0..is_tile.len()).filter(|&i| is_tile[i]);
    let typical = median_drawing(image, geometry, tiles).unwrap_or(0.0);
    let faint: Vec<usize> = like_gap
        .into_iter()
        .filter(|&i| middle_activity(image, geometry, i) < GAP_DRAWING_SHARE * typical)
        .collect();
    let paper = blank_paper(image, geometry, settings, background, is_tile, &faint);
    for i in faint {
        if !paper.contains(&i) {
            is_tile[i] = false;
        }
    }
}

/// Most share of a face's pixels in the colours (widened) of the gap round its cell for
/// [`restore_unlike_gap`] to make the cell a tile.
const UNLIKE_GAP_SHARE: f32 = 0.1;

/// Makes tiles of the cells read as empty whose face shows hardly any of the colours of the
/// gap round it (under [`UNLIKE_GAP_SHARE`]): what lies behind the board shows in the gaps
/// and in an empty cell alike, so a cell unlike its gap holds something drawn over the board,
/// a blank-faced tile of a colour the surroundings also show (a dark grey tile by a dark
/// photo). Only where tiles stand at least [`GAP_LEAST`] pixels apart.
pub(super) fn restore_unlike_gap(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    is_tile: &mut [bool],
) {
    let (gx, gy) = gap_per_side(geometry);
    if gx < GAP_LEAST || gy < GAP_LEAST {
        return;
    }
    for (i, tile) in is_tile.iter_mut().enumerate().filter(|(_, tile)| !**tile) {
        let pos = geometry.pos_of(i);
        let ring = BinSet::of(image, &ring_sides(geometry.cell_rect(pos), gx, gy));
        let face = face_rect(geometry, pos, settings.trim);
        *tile = share_in_colours(image, face, &ring.widened) < UNLIKE_GAP_SHARE;
    }
}

/// The least share of a face's pixels in the very colour bin of the tiles' paper (see
/// [`blank_paper`]) for a blank tile: half, as [`GAP_EXACT_SHARE`] asks of the gap's.
const PAPER_SHARE: f32 = 0.5;

/// Those of the `faint` cells (read as tiles, showing little drawing) whose face is mostly the
/// tiles' paper: the commonest colour bin of the faces of the other cells read as tiles,
/// when it is not the `background`'s. A tile box found a little smaller than the tiles puts
/// their own paper and outline in the ring round each cell, and a blank-faced tile then
/// shows nothing but "gap" colours; an empty cell shows what lies behind the board.
fn blank_paper(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    background: [f32; 3],
    is_tile: &[bool],
    faint: &[usize],
) -> Vec<usize> {
    if faint.is_empty() {
        return Vec::new();
    }
    let rect = |i: usize| {
        let pos = geometry.pos_of(i);
        face_rect(geometry, pos, settings.trim)
    };
    let mut counts = vec![0u32; BINS * BINS * BINS];
    for i in (0..is_tile.len()).filter(|&i| is_tile[i] && !faint.contains(&i)) {
        for bin in bins_in(image, rect(i)) {
            counts[bin] += 1;
        }
    }
    let Some((paper, &count)) = counts.iter().enumerate().max_by_key(|&(_, c)| c) else {
        return Vec::new();
    };
    if count == 0 || paper == bin_of(&background.map(|v| v.round() as u8)) {
        return Vec::new();
    }
    let mut bins = vec![false; counts.len()];
    bins[paper] = true;
    faint
        .iter()
        .copied()
        .filter(|&i| share_in_colours(image, rect(i), &bins) >= PAPER_SHARE)
        .collect()
}

/// A cell [`empty_like_gap`] makes empty shows less drawing than this share of the typical
/// tile's (the share [`restore_drawn_tiles`] takes for a tile): on the tuning seeds empty
/// cells over a photo showed at most 12 against the tiles' 45; tiles whose rim a tile size
/// found too small took for a gap showed 55 or more against about 70.
const GAP_DRAWING_SHARE: f32 = 0.6;

/// The ring `gx` by `gy` pixels wide just outside the rectangle `r` as four rectangles (x0,
/// y0, x1, y1): its left and right sides, then its top and bottom with the corners.
pub(super) fn ring_sides(r: Rect, gx: f64, gy: f64) -> [(f64, f64, f64, f64); 4] {
    let (x0, y0, x1, y1) = (r.x, r.y, r.x + r.w, r.y + r.h);
    [
        (x0 - gx, y0, x0, y1),
        (x1, y0, x1 + gx, y1),
        (x0 - gx, y0 - gy, x1 + gx, y0),
        (x0 - gx, y1, x1 + gx, y1 + gy),
    ]
}

/// The colour bins some pixels fall in: as they are, and widened by one bin on every side.
struct BinSet {
    exact: Vec<bool>,
    widened: Vec<bool>,
}

impl BinSet {
    /// The bins of the pixels of the `rects` (x0, y0, x1, y1).
    fn of(image: &RgbaImage, rects: &[(f64, f64, f64, f64)]) -> Self {
        let mut exact = vec![false; BINS * BINS * BINS];
        let mut widened = exact.clone();
        for bin in rects.iter().flat_map(|&rect| bins_in(image, rect)) {
            if !exact[bin] {
                exact[bin] = true;
                mark_widened(&mut widened, bin);
            }
        }
        BinSet { exact, widened }
    }
}

/// The least share of a face's pixels in the colours (widened) of one side of the ring round
/// its cell for [`empty_like_gap`] to count that side.
const GAP_SIDE_SHARE: f32 = 0.4;

/// Whether the `face`'s colours show (see [`GAP_SIDE_SHARE`]) on three of the four sides of
/// its cell at least, the `sides` of the ring round it given as rectangles (see
/// [`ring_sides`]). What lies behind the board shows all round an empty cell, where a photo's
/// streak may still hide it on one side; a tile box found smaller than its tile puts the
/// tile's own rim or paper in the ring on two sides (one per axis for a 3D rim, both ends of
/// one axis for a box too narrow).
fn shows_all_round(
    image: &RgbaImage,
    face: (f64, f64, f64, f64),
    sides: &[(f64, f64, f64, f64); 4],
) -> bool {
    sides
        .iter()
        .map(|&side| BinSet::of(image, &[side]))
        .filter(|side| share_in_colours(image, face, &side.widened) >= GAP_SIDE_SHARE)
        .count()
        >= 3
}

/// The colour bins (widened by one bin on every side) of the band [`EDGE_DEPTH`] deep inside
/// the rectangle's edge, all four sides.
fn edge_colours(image: &RgbaImage, r: Rect) -> Vec<bool> {
    let (xa, xb) = pixel_range(r.x, r.x + r.w, image.width());
    let (ya, yb) = pixel_range(r.y, r.y + r.h, image.height());
    let (dx, dy) = (
        (r.w * EDGE_DEPTH).round().max(1.0) as u32,
        (r.h * EDGE_DEPTH).round().max(1.0) as u32,
    );
    let raw = image.as_raw();
    let w = image.width() as usize;
    let mut bins = vec![false; BINS * BINS * BINS];
    for y in ya..yb {
        let whole_row = y < ya + dy || y + dy >= yb;
        for x in xa..xb {
            if whole_row || x < xa + dx || x + dx >= xb {
                let p = (y as usize * w + x as usize) * 4;
                let bin = bin_of(&raw[p..p + 3]);
                if !bins[bin] {
                    mark_widened(&mut bins, bin);
                }
            }
        }
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rims_fall_apart_only_into_two_groups_well_apart() {
        // Tiles read as empty near the rim, empty cells on a dark marble further (seed
        // 23257): parted between the groups, a stray tile among the near ones.
        let two = [5.0, 5.0, 6.0, 7.0, 8.0, 12.0, 18.0, 19.0, 21.0, 24.0];
        let at = natural_break(&two).unwrap();
        assert!((12.0..18.0).contains(&at), "{at}");
        // One group spread out, or two groups too near in levels, stay whole.
        assert_eq!(natural_break(&[5.0, 7.0, 9.0, 11.0, 13.0, 15.0]), None);
        assert_eq!(natural_break(&[2.0, 3.0, 3.0, 4.0, 6.0, 7.0]), None);
        assert_eq!(natural_break(&[4.0]), None);
        assert_eq!(natural_break(&[]), None);
    }
}
