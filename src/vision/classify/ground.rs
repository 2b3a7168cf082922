//! The ground behind icons drawn straight on a photo or a gradient, read round each face and
//! taken out, and the cells that show it.

use image::RgbaImage;

use crate::board::Pos;
use crate::vision::features::{OUTSIDE_BAND, rect_pixels, rgb_distance};
use crate::vision::{ClassifierSettings, Geometry, Rect};

use super::*;

/// Icons drawn straight on the background (no tile body) show it round them, and on a photo,
/// a gradient or a texture it differs from place to place and from bin to bin: copies of one
/// icon then differ by what lies behind them as much as kinds do. Where the board's faces
/// stand on the background, each face has the background behind it taken out: its bins near
/// the colours of the ring round it (interpolated across from the ring's four sides) are set
/// to one colour shared by all (a texture's grain goes with its colour), the bins on an
/// icon's edge have their share of ground replaced by it, and the face is normalised again.
/// Returns, per tile, whether its face was.
///
/// A face stands on the background when its ring is the background's: on at least
/// [`GROUND_SIDES`] sides it shows the colours outside the board, and on at least two sides
/// (and half of those with a neighbour) it matches the facing side of the next cell's ring, so
/// it follows the place, not the kind. Flat tiles whose paper is one of the background's
/// colours pass too, but their neighbours are mostly other kinds in other colours, and a box
/// found as wide as the pitch puts the gap in the ring of every tile; so the board counts
/// only when [`GROUND_BOARD_SHARE`] of its tiles stand and [`GROUND_SHOWING_SHARE`] show the
/// ground round an icon inside their face. Tiles of one paper that pass lose only their
/// paper's shading: their ground is the shared colour already.
pub(super) fn take_out_ground(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    background: &Background,
    tiles: &[usize],
    faces: &mut [Face],
) -> Vec<bool> {
    let mut scratch: [Vec<u8>; 3] = Default::default();
    let rings: Vec<[[f32; 3]; 4]> = (0..geometry.rows * geometry.cols)
        .map(|i| {
            let pos = geometry.pos_of(i);
            ring_colours(image, geometry, pos, settings.trim, &mut scratch)
        })
        .collect();
    let standing: Vec<bool> = tiles
        .iter()
        .map(|&cell| stands_on_ground(&rings, geometry, background, cell))
        .collect();
    let share = |n: usize| n as f32 / tiles.len().max(1) as f32;
    let count = standing.iter().filter(|&&s| s).count();
    let not_icons = vec![false; tiles.len()];
    if share(count) < GROUND_BOARD_SHARE {
        return not_icons;
    }
    let showing = tiles
        .iter()
        .zip(faces.iter())
        .filter(|&(&cell, face)| shows_own_ground(face, &rings[cell]))
        .count();
    let Some(first) = faces.first() else {
        return not_icons;
    };
    if share(showing) < GROUND_SHOWING_SHARE {
        return not_icons;
    }
    let shared: [f32; 3] = std::array::from_fn(|c| {
        let mut channel: Vec<f32> = rings.iter().flatten().map(|side| side[c]).collect();
        crate::stats::median(&mut channel).unwrap_or(0.0)
    });
    let (nx, ny) = first.bins;
    let layout = block_layout((nx, ny));
    for ((&cell, face), _) in tiles
        .iter()
        .zip(faces.iter_mut())
        .zip(&standing)
        .filter(|(_, s)| **s)
    {
        let ring = &rings[cell];
        let ink = face.colours.ends[1];
        for (k, (sampling, raw)) in face.samplings.iter_mut().zip(&face.raw).enumerate() {
            let moved = ground_moved(raw, ring, shared, ink, (nx, ny), k);
            *sampling = normalised_blocks(&moved, (nx, ny), &layout);
        }
    }
    standing
}

/// Whether the tile at `cell` stands on the background (see [`take_out_ground`]): its ring
/// (`rings`, every cell's, left, right, top, bottom) shows the `background`'s colours on
/// [`GROUND_SIDES`] sides and matches the facing sides of its neighbours' rings on two (and
/// half of those it has).
fn stands_on_ground(
    rings: &[[[f32; 3]; 4]],
    geometry: &Geometry,
    background: &Background,
    cell: usize,
) -> bool {
    let (rows, cols) = (geometry.rows, geometry.cols);
    let (r, c) = (cell / cols, cell % cols);
    // The neighbour on each side (left, right, top, bottom) and its side that faces it.
    let neighbours = [
        (c > 0).then(|| (cell - 1, 1)),
        (c + 1 < cols).then(|| (cell + 1, 0)),
        (r > 0).then(|| (cell - cols, 3)),
        (r + 1 < rows).then(|| (cell + cols, 2)),
    ];
    let (seen, matching) = neighbours
        .iter()
        .enumerate()
        .filter_map(|(side, n)| n.map(|(j, facing)| (side, j, facing)))
        .fold((0, 0), |(seen, matching), (side, j, facing)| {
            let alike = rgb_distance(rings[cell][side], rings[j][facing]) <= ON_GROUND;
            (seen + 1, matching + usize::from(alike))
        });
    let outside = rings[cell]
        .iter()
        .filter(|side| background.contains(&side.map(|v| v.round() as u8)))
        .count();
    matching >= 2 && 2 * matching >= seen && outside >= GROUND_SIDES
}

/// Sides of a face's ring that must show the background's colours for it to stand on the
/// background (see [`take_out_ground`]): an icon's corner may reach into one.
const GROUND_SIDES: usize = 3;

/// Share of the tiles that must stand on the background for the board's faces to be taken
/// for icons drawn on it (see [`take_out_ground`]). On the scenes looked at, icons on a photo
/// or a gradient passed on 98-100% of their tiles, glyph and 3D boards on at most 27% (full
/// boards of one-paper mahjong tiles on a gradient passed too).
const GROUND_BOARD_SHARE: f32 = 0.75;

/// Share of the tiles that must show the ground round their icon inside their face (see
/// [`shows_own_ground`]) for the board's faces to be taken for icons on the background: icons
/// over a photo or gradient showed it on 70-99% of the tiles (round emoji in a face just
/// inside their box, on the corners only), flat tiles read on a box as wide as the pitch,
/// whose ring is the gap, on 3%.
const GROUND_SHOWING_SHARE: f32 = 0.5;

/// A bin this close (Euclidean, 0-255 levels) to the ground behind it is set to the shared
/// colour (see [`ground_moved`]).
pub(super) const GROUND_NEAR: f32 = 16.0;

/// A bin this far or farther from the ground behind it is the icon's own and stays; between
/// [`GROUND_NEAR`] and this, it moves part of the way to the shared colour, so a bin on the
/// icon's edge does not jump with a level or two of noise.
pub(super) const GROUND_FAR: f32 = 40.0;

/// The per-channel median colour of each side of the ring between a cell's face and its tile
/// box (left, right, top, bottom; see [`ring_sides`]); `scratch` holds the pixels of a side.
fn ring_colours(
    image: &RgbaImage,
    geometry: &Geometry,
    pos: Pos,
    trim: f64,
    scratch: &mut [Vec<u8>; 3],
) -> [[f32; 3]; 4] {
    let (x0, y0, x1, y1) = face_rect(geometry, pos, trim);
    let face = Rect {
        x: x0,
        y: y0,
        w: x1 - x0,
        h: y1 - y0,
    };
    let box_ = geometry.cell_rect(pos);
    let (gx, gy) = ((x0 - box_.x).max(1.0), (y0 - box_.y).max(1.0));
    ring_sides(face, gx, gy).map(|side| {
        scratch.iter_mut().for_each(Vec::clear);
        // Every other pixel each way: a median of a side needs no more.
        for p in rect_pixels(image, side, 2) {
            for (channel, &v) in scratch.iter_mut().zip(p) {
                channel.push(v);
            }
        }
        std::array::from_fn(|c| f32::from(crate::stats::median(&mut scratch[c]).unwrap_or(0)))
    })
}

/// The ground behind bin `b` of sampling `k` (of `nx` x `ny` bins; see
/// [`Integral::samplings`]): the ring's left and right sides blended by where the bin lies
/// across, its top and bottom by where it lies down, and the two averaged.
fn ground_behind(ring: &[[f32; 3]; 4], (nx, ny): (usize, usize), b: usize, k: usize) -> [f32; 3] {
    // Sampling k lies (k % 3 - 1, k / 3 - 1) half bins off the face.
    let (ox, oy) = ((k % 3) as f32 - 1.0, (k / 3) as f32 - 1.0);
    let u = (((b % nx) as f32 + 0.5 + ox / 2.0) / nx as f32).clamp(0.0, 1.0);
    let v = (((b / nx) as f32 + 0.5 + oy / 2.0) / ny as f32).clamp(0.0, 1.0);
    std::array::from_fn(|c| {
        let across = (1.0 - u) * ring[0][c] + u * ring[1][c];
        let down = (1.0 - v) * ring[2][c] + v * ring[3][c];
        (across + down) / 2.0
    })
}

/// Whether at least [`GROUND_SHARE`] of a face's bins lie within [`GROUND_NEAR`] of the ground
/// behind them (see [`ground_behind`]): an icon leaves the ground showing round it inside its
/// face, a tile's body hides it.
fn shows_own_ground(face: &Face, ring: &[[f32; 3]; 4]) -> bool {
    let (nx, ny) = face.bins;
    let per_channel = nx * ny;
    let Some(raw) = face.raw.get(4).filter(|r| r.len() >= 3 * per_channel) else {
        return false;
    };
    let near = (0..per_channel)
        .filter(|&b| {
            let bin = std::array::from_fn(|c| raw[c * per_channel + b]);
            rgb_distance(bin, ground_behind(ring, (nx, ny), b, 4)) <= GROUND_NEAR
        })
        .count();
    near as f32 >= GROUND_SHARE * per_channel as f32
}

/// Sampling `k`'s raw bins (channel-major, `nx` x `ny`; see [`Integral::samplings`]) with the
/// ground taken out (the ground behind each bin: the ring's sides blended by where the bin
/// lies): a bin near the ground is moved towards `shared`, all the way within [`GROUND_NEAR`]
/// of the ground, not at all beyond [`GROUND_FAR`] (the ground's grain with it); a bin within
/// [`GROUND_NEAR`] of the line from the ground to the face's `ink` (an icon's edge cuts bins
/// in two) has the share of ground it mixes in replaced by `shared`, where that moves it more.
pub(super) fn ground_moved(
    raw: &[f32],
    ring: &[[f32; 3]; 4],
    shared: [f32; 3],
    ink: [f32; 3],
    (nx, ny): (usize, usize),
    k: usize,
) -> Vec<f32> {
    let per_channel = nx * ny;
    let mut out = raw.to_vec();
    for b in 0..per_channel {
        let ground = ground_behind(ring, (nx, ny), b, k);
        let bin: [f32; 3] = std::array::from_fn(|c| raw[c * per_channel + b]);
        let near = rgb_distance(bin, ground);
        let near_weight = ((GROUND_FAR - near) / (GROUND_FAR - GROUND_NEAR)).clamp(0.0, 1.0);
        // A bin on the line from the ground to the ink mixes the two: as much ground as it
        // lies near it.
        let line: [f32; 3] = std::array::from_fn(|c| ink[c] - ground[c]);
        let length2: f32 = line.iter().map(|v| v * v).sum();
        let mut mixed = 0.0;
        if length2 > GROUND_FAR * GROUND_FAR {
            let t = (0..3).map(|c| (bin[c] - ground[c]) * line[c]).sum::<f32>() / length2;
            let off = rgb_distance(bin, std::array::from_fn(|c| ground[c] + t * line[c]));
            if (0.0..=1.0).contains(&t) && off <= GROUND_NEAR {
                mixed = 1.0 - t;
            }
        }
        for c in 0..3 {
            out[c * per_channel + b] += if near_weight >= mixed {
                near_weight * (shared[c] - bin[c])
            } else {
                mixed * (shared[c] - ground[c])
            };
        }
    }
    out
}

/// A bin this close (Euclidean, 0-255 levels) to the background under its cell (see
/// [`ground_under_cells`]) shows that background.
const ON_GROUND: f32 = 20.0;

/// Whether at least [`GROUND_SHARE`] of a face's bins are within [`ON_GROUND`] of `ground`:
/// the face is drawn on the background (an icon with no tile body), so its paper is the
/// background's colour where it lies, not a colour of its kind. A tile's body hides the
/// background (else it would read as empty).
pub(super) fn shows_ground(face: &Face, ground: [f32; 3]) -> bool {
    face.share_near(ground, ON_GROUND) >= GROUND_SHARE
}

/// The share of a face's bins in the background's colour that shows it is drawn on the
/// background (see [`shows_ground`]).
const GROUND_SHARE: f32 = 0.15;

/// Per cell (row-major), the colours the background outside the board would show there if it
/// ran on under the board smoothly: the commonest colour of the band outside each end of the
/// cell's row, interpolated across, and of its column, interpolated down (`None` where a band
/// lies outside the image). Both are right on a gradient; a side panel or a menu bar on one
/// side spoils one of them, a photo both.
pub(super) fn ground_under_cells(
    image: &RgbaImage,
    geometry: &Geometry,
) -> Vec<[Option<[f32; 3]>; 2]> {
    let b = geometry.board_rect();
    let [px, py] = geometry.pitch;
    let (near, far) = OUTSIDE_BAND;
    let commonest = |x0: f64, y0: f64, x1: f64, y1: f64| -> Option<[f32; 3]> {
        // Every other pixel each way: a band's commonest colour needs no more.
        let pixels = rect_pixels(image, (x0, y0, x1, y1), 2).map(|p| [p[0], p[1], p[2]]);
        let (sums, n) = crate::vision::features::commonest_bin(pixels)?;
        (n >= 8).then(|| sums.map(|v| v as f32 / n as f32))
    };
    let rows: Vec<[Option<[f32; 3]>; 2]> = (0..geometry.rows)
        .map(|r| {
            let (y0, y1) = (b.y + r as f64 * py, b.y + (r + 1) as f64 * py);
            [
                commonest(b.x - far * px, y0, b.x - near * px, y1),
                commonest(b.x + b.w + near * px, y0, b.x + b.w + far * px, y1),
            ]
        })
        .collect();
    let cols: Vec<[Option<[f32; 3]>; 2]> = (0..geometry.cols)
        .map(|c| {
            let (x0, x1) = (b.x + c as f64 * px, b.x + (c + 1) as f64 * px);
            [
                commonest(x0, b.y - far * py, x1, b.y - near * py),
                commonest(x0, b.y + b.h + near * py, x1, b.y + b.h + far * py),
            ]
        })
        .collect();
    let blend = |a: [f32; 3], b: [f32; 3], t: f32| -> [f32; 3] {
        std::array::from_fn(|c| a[c] + (b[c] - a[c]) * t)
    };
    (0..geometry.rows * geometry.cols)
        .map(|i| {
            let (r, c) = (i / geometry.cols, i % geometry.cols);
            let [left, right] = rows[r];
            let [top, bottom] = cols[c];
            let u = (c as f32 + 0.5) / geometry.cols as f32;
            let v = (r as f32 + 0.5) / geometry.rows as f32;
            [
                left.zip(right).map(|(a, b)| blend(a, b, u)),
                top.zip(bottom).map(|(a, b)| blend(a, b, v)),
            ]
        })
        .collect()
}
