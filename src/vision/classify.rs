//! Classification: the cells of a known grid to a [`Board`], with no templates.
//!
//! - Empty or tile: the colours of a band just outside the board (background or panel) make a
//!   set of colour bins; a cell whose face is mostly in them is empty. A blank tile face is far
//!   from the background, so it stays a tile, and where tiles stand apart, a cell read empty
//!   that shows none of the colours of the gap round it (a blank tile in a colour the
//!   surroundings show too) is a tile. Where the tiles' paper is the background's
//!   colour, the band just inside each tile's edge (the rim all tiles share: an outline, a
//!   bevel) gives the tiles back. An icon drawn with no tile body leaves most of its cell in
//!   the background's colours; a cell whose middle shows colours its own edge does not is a
//!   tile (an empty cell shows in its middle what it shows along its edge).
//! - Kinds: each face (the tile less a trimmed border) is box-averaged onto a grid of 12 bins
//!   across and whole blocks of 4 x 4 bins down (from an integral image of the board): the same
//!   grid relative to the face at any tile size. Every channel is then minus its mean and divided
//!   by its spread (so brightness, contrast, a tint or a stipple over the whole tile cancel;
//!   JPEG noise averages out in the boxes). Icons drawn straight on a photo or a gradient first
//!   have the ground behind them (read from the ring round each face) moved to one colour, so
//!   copies do not differ by where they lie (see [`take_out_ground`]). Two faces are compared by their worst block of 4 x 4
//!   bins, so that near-duplicates such as 三萬 and 伍萬, which differ in one corner only, stay
//!   apart; a linked pair whose worst window of 2 x 2 bins differs far more than either face
//!   differs from its own copy is parted again (a mark smaller than a block, such as a corner
//!   label, is diluted in its block). The cheap centred comparison runs for every pair and sets
//!   the scale (the median); the shift-tolerant one (half a bin each way) only for pairs near
//!   the threshold. Faces closer than the threshold link up; a group wider than the threshold
//!   is split again by complete linkage. Every kind occurs an even number of times: groups of odd size are
//!   repaired in pairs. Normalisation hides colour, so each face also keeps its paper colour
//!   (the median bin) and, when drawn in one ink, its ink colour: faces whose colours differ
//!   clearly never link (one glyph in many colours, tiles painted in many colours). Faces of
//!   one colour whose shapes all lie close together are one kind even where the shape
//!   threshold would part them: when kinds differ only by colour, the threshold is low and
//!   copies resampled at other sub-pixel offsets had split.

use image::RgbaImage;

use super::features::{
    OUTSIDE_BAND, joined_sides, pixel_range, pixel_range_at_least_one, rect_pixels, rgb_distance,
    side_bands,
};
use super::{ClassifierSettings, Geometry, Reading, Rect, VisionError, check_fits};
use crate::board::{Board, Kind, Pos};

/// A tile face reduced to normalised feature vectors: sampled where the grid says, and also
/// half a bin off in each direction, so that tiles drawn a pixel apart still match.
#[derive(Clone, Debug)]
pub struct Face {
    /// Per channel, per bin, normalised values (all zero for a blank face), for each of the
    /// nine samplings; index 4 is the centred one.
    pub samplings: Vec<Vec<f32>>,
    /// Bins across and down.
    pub bins: (usize, usize),
    /// The centred sampling's colours before normalisation (which hides them): kinds that
    /// differ only by colour, a glyph drawn in many colours or tiles painted in many,
    /// normalise alike.
    pub colours: Colours,
    /// The nine samplings before normalisation (channel-major), for the colours of the
    /// shifted samplings when a comparison needs them.
    pub raw: Vec<Vec<f32>>,
}

/// Bins per side of the blocks whose worst one decides a distance.
const BLOCK: usize = 4;

impl Face {
    /// The centred feature vector.
    pub fn values(&self) -> &[f32] {
        &self.samplings[4]
    }

    /// The share of the centred sampling's bins within `within` (Euclidean, 0-255 levels) of
    /// `colour` (0 when the raw bins are missing).
    fn share_near(&self, colour: [f32; 3], within: f32) -> f32 {
        let per_channel = self.bins.0 * self.bins.1;
        let Some(raw) = self.raw.get(4).filter(|r| r.len() >= 3 * per_channel) else {
            return 0.0;
        };
        let near = (0..per_channel)
            .filter(|&b| {
                let bin = std::array::from_fn(|c| raw[c * per_channel + b]);
                rgb_distance(bin, colour) <= within
            })
            .count();
        near as f32 / per_channel as f32
    }

    /// The block distance of the centred sampling of `self` to the best-aligned sampling of
    /// `other`.
    pub fn distance(&self, other: &Face) -> f32 {
        other.samplings.iter().fold(f32::MAX, |best, v| {
            best.min(block_distance(self.values(), v, self.bins, best))
        })
    }

    /// The block distance of the centred samplings only (cheap, an upper bound of
    /// [`Face::distance`]).
    pub fn centred_distance(&self, other: &Face) -> f32 {
        block_distance(self.values(), other.values(), self.bins, f32::MAX)
    }

    /// The window distance (see [`window_distance`]) of the centred sampling of `self` to
    /// the best-aligned sampling of `other`, or `bound` when none is below it.
    fn window_distance(&self, other: &Face, bound: f32) -> f32 {
        other.samplings.iter().fold(bound, |best, v| {
            best.min(window_distance(self.values(), v, self.bins, best))
        })
    }

    /// The window distance of the centred samplings only (an upper bound of
    /// [`Face::window_distance`]).
    fn centred_window_distance(&self, other: &Face) -> f32 {
        window_distance(self.values(), other.values(), self.bins, f32::MAX)
    }
}

/// A face's two colours: its paper (the colour most of it shows) and its ink (the colour of
/// the bins that differ most from the paper, where a glyph or drawing is).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Colours {
    /// Per channel, the median bin.
    pub paper: [f32; 3],
    /// The mean of the bins weighted by their squared distance from the paper (the paper
    /// itself on a blank face).
    pub ink: [f32; 3],
    /// Whether the face is drawn in one ink (its bins lie between the paper and the ink).
    pub one_ink: bool,
    /// The face's purest colours, at either end of the line from the paper to the ink (the
    /// mean of the bins furthest along it each way): when strokes are thick against the bins,
    /// the median and weighted bins both mix the two colours, the ends much less.
    pub ends: [[f32; 3]; 2],
}

impl Colours {
    /// The colours of channel-major bins (`per_channel` bins per channel).
    fn of(values: &[f32], per_channel: usize) -> Colours {
        let channel = |c: usize| &values[c * per_channel..(c + 1) * per_channel];
        let paper: [f32; 3] = std::array::from_fn(|c| {
            let mut v = channel(c).to_vec();
            let mid = v.len() / 2;
            *v.select_nth_unstable_by(mid, f32::total_cmp).1
        });
        let off: Vec<f32> = (0..per_channel)
            .map(|b| {
                (0..3)
                    .map(|c| (channel(c)[b] - paper[c]).powi(2))
                    .sum::<f32>()
            })
            .collect();
        let weight: f32 = off.iter().sum();
        if weight <= 0.0 {
            return Colours {
                paper,
                ink: paper,
                one_ink: true,
                ends: [paper; 2],
            };
        }
        let ink: [f32; 3] = std::array::from_fn(|c| {
            off.iter().zip(channel(c)).map(|(w, v)| w * v).sum::<f32>() / weight
        });
        // One ink: every bin lies near the line from the paper to the ink (a stroke's edge
        // mixes the two), so their distance off that line is small against its length.
        let axis: [f32; 3] = std::array::from_fn(|c| ink[c] - paper[c]);
        let length2: f32 = axis.iter().map(|v| v * v).sum();
        let mut along = Vec::with_capacity(per_channel);
        let off_line = (0..per_channel)
            .map(|b| {
                let d: [f32; 3] = std::array::from_fn(|c| channel(c)[b] - paper[c]);
                let a = (0..3).map(|c| d[c] * axis[c]).sum::<f32>() / length2.max(1e-6);
                along.push((a, b));
                let perp: f32 = (0..3).map(|c| (d[c] - a * axis[c]).powi(2)).sum();
                off[b] * perp
            })
            .sum::<f32>()
            / weight;
        // The bins furthest along each way, in the order a stable sort by `a` gives (ties by
        // bin), found without sorting them all.
        let order = |x: &(f32, usize), y: &(f32, usize)| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1));
        let end_bins = (per_channel / END_SHARE).max(1);
        along.select_nth_unstable_by(end_bins - 1, order);
        let mut low = along[..end_bins].to_vec();
        low.sort_unstable_by(order);
        along.select_nth_unstable_by(per_channel - end_bins, order);
        let high = &mut along[per_channel - end_bins..];
        high.sort_unstable_by(order);
        let mean_of = |bins: &[(f32, usize)]| -> [f32; 3] {
            std::array::from_fn(|c| {
                bins.iter().map(|&(_, b)| channel(c)[b]).sum::<f32>() / bins.len() as f32
            })
        };
        Colours {
            paper,
            ink,
            one_ink: off_line < 0.06 * length2,
            ends: [mean_of(&low), mean_of(high)],
        }
    }

    /// The paper colour difference (Euclidean, 0-255 levels) or, when both faces are drawn in
    /// one ink, the larger of that and the ink difference. (The weighted ink of a face drawn
    /// in many colours moves with the sampling of small strokes; its shape tells it apart.)
    fn distance(&self, other: &Colours) -> f32 {
        let d = rgb_distance;
        let paper = d(self.paper, other.paper);
        if self.one_ink && other.one_ink {
            let [a, b] = self.ends;
            let [p, q] = other.ends;
            let ends = d(a, p).max(d(b, q)).min(d(a, q).max(d(b, p)));
            paper.max(d(self.ink, other.ink)).max(ends)
        } else {
            paper
        }
    }

    /// [`Colours::distance`] without the papers: the ink difference when both faces are drawn
    /// in one ink, else 0.
    fn ink_distance(&self, other: &Colours) -> f32 {
        if self.one_ink && other.one_ink {
            rgb_distance(self.ink, other.ink)
        } else {
            0.0
        }
    }
}

/// The ends of a one-ink face's colour line are the mean of one in this many of its bins.
const END_SHARE: usize = 20;

/// Values per block in the block-major layout: `BLOCK` x `BLOCK` bins x 3 channels.
const BLOCK_LEN: usize = BLOCK * BLOCK * 3;

/// Where each channel-major value of `nx` x `ny` bins goes in the block-major layout: blocks
/// of `BLOCK` x `BLOCK` bins, each block's values contiguous (zero-padded at the right and
/// bottom), so distances vectorise. Computed once per board, applied to every sampling.
fn block_layout((nx, ny): (usize, usize)) -> Vec<usize> {
    let bx = nx.div_ceil(BLOCK);
    let mut layout = Vec::with_capacity(3 * nx * ny);
    for ch in 0..3 {
        for y in 0..ny {
            for x in 0..nx {
                let block = (y / BLOCK) * bx + x / BLOCK;
                let inner = ((y % BLOCK) * BLOCK + x % BLOCK) * 3 + ch;
                layout.push(block * BLOCK_LEN + inner);
            }
        }
    }
    layout
}

/// The root-mean-square difference over the worst block of `BLOCK` x `BLOCK` bins (all channels):
/// two near-duplicate faces (二萬 and 三萬) differ in one corner only, which a mean over the whole
/// face would dilute, while noise (JPEG, rescaling) spreads evenly over all blocks. Stops early
/// (returning something at least `bound`) once a block is worse than `bound`.
fn block_distance(a: &[f32], b: &[f32], (nx, ny): (usize, usize), bound: f32) -> f32 {
    let bx = nx.div_ceil(BLOCK);
    let bound = if bound < f32::MAX {
        bound * bound
    } else {
        f32::MAX
    };
    let mut worst = 0f32;
    let (mut column, mut row) = (0, 0);
    for (ba, bb) in a.chunks_exact(BLOCK_LEN).zip(b.chunks_exact(BLOCK_LEN)) {
        let sum = block_sum(ba.try_into().unwrap(), bb.try_into().unwrap());
        let w = (nx - column * BLOCK).min(BLOCK);
        let h = (ny - row * BLOCK).min(BLOCK);
        worst = worst.max(sum / (3 * w * h) as f32);
        if worst >= bound {
            break;
        }
        column += 1;
        if column == bx {
            (column, row) = (0, row + 1);
        }
    }
    worst.sqrt()
}

/// The sum of squared differences of two blocks, in eight independent lanes (the compiler keeps
/// them in vector registers) added up in order at the end.
fn block_sum(a: &[f32; BLOCK_LEN], b: &[f32; BLOCK_LEN]) -> f32 {
    // The squares first (one plain loop the compiler vectorises), then the lanes.
    let mut squares = [0f32; BLOCK_LEN];
    for ((s, x), y) in squares.iter_mut().zip(a).zip(b) {
        *s = (x - y) * (x - y);
    }
    let mut lanes = [0f32; 8];
    for chunk in squares.chunks_exact(8) {
        for (lane, s) in lanes.iter_mut().zip(chunk) {
            *lane += s;
        }
    }
    lanes.iter().sum()
}

/// Bins per side of the windows whose worst one decides a [`window_distance`]: a small mark
/// (a corner label) covers about this many bins.
const WINDOW: usize = 2;

/// The root-mean-square difference over the worst window of `WINDOW` x `WINDOW` bins (all
/// channels), the windows at every bin position: a mark smaller than a block (a corner label
/// telling a flower from a season) is diluted in its block, not in a window that covers it.
/// Noise is larger over fewer bins too, so this distance only parts faces together with a
/// comparison to copies (see [`part_local_differences`]). Stops early (returning something at
/// least `bound`) once a window is worse than `bound`.
fn window_distance(a: &[f32], b: &[f32], (nx, ny): (usize, usize), bound: f32) -> f32 {
    let bx = nx.div_ceil(BLOCK);
    // Squared differences per bin (all channels), row-major.
    let mut bin = vec![0f32; nx * ny];
    for (k, (ba, bb)) in a
        .chunks_exact(BLOCK_LEN)
        .zip(b.chunks_exact(BLOCK_LEN))
        .enumerate()
    {
        let (x0, y0) = ((k % bx) * BLOCK, (k / bx) * BLOCK);
        for inner in 0..BLOCK * BLOCK {
            let (x, y) = (x0 + inner % BLOCK, y0 + inner / BLOCK);
            if x < nx && y < ny {
                let o = inner * 3;
                let (d0, d1, d2) = (ba[o] - bb[o], ba[o + 1] - bb[o + 1], ba[o + 2] - bb[o + 2]);
                bin[y * nx + x] = d0 * d0 + d1 * d1 + d2 * d2;
            }
        }
    }
    let (wx, wy) = (WINDOW.min(nx), WINDOW.min(ny));
    let bound = if bound < f32::MAX {
        bound * bound * (3 * wx * wy) as f32
    } else {
        f32::MAX
    };
    // Per window row: each column's sum over the window's rows, then the windows across.
    let mut column = vec![0f32; nx];
    let mut worst = 0f32;
    for y in 0..=ny - wy {
        column.copy_from_slice(&bin[y * nx..(y + 1) * nx]);
        for row in bin[(y + 1) * nx..(y + wy) * nx].chunks_exact(nx) {
            for (c, v) in column.iter_mut().zip(row) {
                *c += v;
            }
        }
        for w in column.windows(wx) {
            worst = worst.max(w.iter().sum());
        }
        if worst >= bound {
            break;
        }
    }
    (worst / (3 * wx * wy) as f32).sqrt()
}

/// Bins across a face, whatever its size: three blocks.
const BINS_ACROSS: usize = 3 * BLOCK;

/// Bins across and down a face of the given size: a fixed number across and whole blocks down
/// in the face's proportions (at least one block), so that a face is compared at the same
/// resolution relative to its size and its blocks cover the same part of it at any tile size.
/// (With bins a fixed number of pixels, small tiles had fewer and relatively larger blocks, in
/// which the one stroke that tells 三萬 from 伍萬 was diluted.)
fn bins(face_w: f64, face_h: f64) -> (usize, usize) {
    let ratio = if face_w > 0.0 && face_h > 0.0 {
        face_h / face_w
    } else {
        1.0
    };
    let blocks_down = ((BINS_ACROSS as f64 * ratio / BLOCK as f64).round() as usize).clamp(1, 8);
    (BINS_ACROSS, blocks_down * BLOCK)
}

/// The face rectangle of a cell: the tile less `trim` of its size on every side.
fn face_rect(geometry: &Geometry, pos: Pos, trim: f64) -> (f64, f64, f64, f64) {
    let r = geometry.cell_rect(pos);
    let (tx, ty) = (r.w * trim, r.h * trim);
    (r.x + tx, r.y + ty, r.x + r.w - tx, r.y + r.h - ty)
}

/// The normalised face of every cell, row-major.
pub fn tile_faces(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> Vec<Face> {
    let all: Vec<usize> = (0..geometry.rows * geometry.cols).collect();
    faces_of(image, geometry, settings, &all)
}

/// The normalised faces of the tiles at `cells`, in that order.
pub(crate) fn faces_at(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    cells: &[Pos],
) -> Vec<Face> {
    let indices: Vec<usize> = cells
        .iter()
        .map(|p| p.row as usize * geometry.cols + p.col as usize)
        .collect();
    faces_of(image, geometry, settings, &indices)
}

/// The normalised faces of the given cells (row-major indices), in that order.
fn faces_of(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    cells: &[usize],
) -> Vec<Face> {
    let face_w = geometry.tile_size[0] * (1.0 - 2.0 * settings.trim);
    let face_h = geometry.tile_size[1] * (1.0 - 2.0 * settings.trim);
    let (nx, ny) = bins(face_w, face_h);
    // The samplings reach half a bin beyond the faces: one pitch of margin is plenty.
    let b = geometry.board_rect();
    let (px, py) = (geometry.pitch[0], geometry.pitch[1]);
    let (xa, xb) = pixel_range(b.x - px, b.x + b.w + px, image.width());
    let (ya, yb) = pixel_range(b.y - py, b.y + b.h + py, image.height());
    let integral = Integral::new(image, (xa, xb), (ya, yb));
    let layout = block_layout((nx, ny));
    cells
        .iter()
        .map(|&i| {
            let pos = geometry.pos_of(i);
            let rect = face_rect(geometry, pos, settings.trim);
            let (samplings, raw) = integral.samplings(rect, nx, ny, &layout);
            Face {
                samplings,
                bins: (nx, ny),
                colours: Colours::of(&raw[4], nx * ny),
                raw,
            }
        })
        .collect()
}

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
fn take_out_ground(
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
const GROUND_NEAR: f32 = 16.0;

/// A bin this far or farther from the ground behind it is the icon's own and stays; between
/// [`GROUND_NEAR`] and this, it moves part of the way to the shared colour, so a bin on the
/// icon's edge does not jump with a level or two of noise.
const GROUND_FAR: f32 = 40.0;

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
fn ground_moved(
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

/// Raw bins (channel-major, `nx` x `ny` each) normalised (see [`normalisation`]) into the
/// block-major `layout` (see [`block_layout`]); all zeros for a face with almost no contrast.
fn normalised_blocks(values: &[f32], (nx, ny): (usize, usize), layout: &[usize]) -> Vec<f32> {
    let per_channel = nx * ny;
    let mut blocks = vec![0f32; nx.div_ceil(BLOCK) * ny.div_ceil(BLOCK) * BLOCK_LEN];
    if let Some(stats) = normalisation(values, per_channel) {
        for (ch, chunk) in values.chunks(per_channel).enumerate() {
            let (mean, scale) = stats[ch];
            let at = &layout[ch * per_channel..(ch + 1) * per_channel];
            for (&v, &at) in chunk.iter().zip(at) {
                blocks[at] = (v - mean) * scale;
            }
        }
    }
    blocks
}

/// Running sums of R, G, B over a window of the image: any rectangle's sum in four look-ups.
struct Integral {
    x0: u32,
    y0: u32,
    x1: u32,
    y1: u32,
    /// Row stride: the window's width plus one.
    stride: usize,
    /// `sums[(y - y0) * stride + (x - x0)]`: the sum over pixels `x0..x` x `y0..y`.
    sums: Vec<[u32; 3]>,
}

impl Integral {
    fn new(image: &RgbaImage, (x0, x1): (u32, u32), (y0, y1): (u32, u32)) -> Integral {
        let stride = (x1 - x0) as usize + 1;
        let rows = (y1 - y0) as usize + 1;
        let mut sums: Vec<[u32; 3]> = vec![[0; 3]; stride * rows];
        let raw = image.as_raw();
        let w = image.width() as usize;
        for (j, y) in (y0..y1).enumerate() {
            let row = &raw[(y as usize * w + x0 as usize) * 4..(y as usize * w + x1 as usize) * 4];
            // Row `j + 1` of the sums: the running sums of this row added to row `j`.
            let (done, rest) = sums.split_at_mut((j + 1) * stride);
            let above = &done[j * stride + 1..];
            let mut run = [0u32; 3];
            for ((out, up), p) in rest[1..stride]
                .iter_mut()
                .zip(above)
                .zip(row.chunks_exact(4))
            {
                for c in 0..3 {
                    run[c] += u32::from(p[c]);
                }
                *out = [up[0] + run[0], up[1] + run[1], up[2] + run[2]];
            }
        }
        Integral {
            x0,
            y0,
            x1,
            y1,
            stride,
            sums,
        }
    }

    /// Area-averages a rectangle (fractional corners, weighted by how much of each pixel falls
    /// inside, so a tile drawn at a sub-pixel offset gives the same bins) onto `nx` x `ny` bins
    /// and normalises each channel; nine times, moved by half a bin (-1, 0, +1 halves in x and
    /// y, x fastest; index 4 is the rectangle itself). The bin edges of all nine lie on one
    /// lattice of half bins, whose corner sums are computed once. Returns the nine normalised
    /// samplings in the block-major layout `layout` (see [`block_layout`]) and the nine raw
    /// (unnormalised, channel-major) ones.
    fn samplings(
        &self,
        rect: (f64, f64, f64, f64),
        nx: usize,
        ny: usize,
        layout: &[usize],
    ) -> (Vec<Vec<f32>>, Vec<Vec<f32>>) {
        let grid = self.bin_grid(rect, nx, ny);
        let (gx, gy) = (2 * nx + 1, 2 * ny + 1);
        let mut raw = Vec::with_capacity(9);
        let samplings = (0..9)
            .map(|k| {
                let (ox, oy) = (k % 3, k / 3);
                // Bin (bx, by) of this sampling is the grid's point (ox + 2 bx, oy + 2 by).
                let mut values = Vec::with_capacity(3 * nx * ny);
                for ch in 0..3 {
                    for by in 0..ny {
                        let line = &grid[(ch * gy + oy + 2 * by) * gx + ox..][..2 * nx - 1];
                        values.extend(line.iter().step_by(2));
                    }
                }
                let blocks = normalised_blocks(&values, (nx, ny), layout);
                raw.push(values);
                blocks
            })
            .collect();
        (samplings, raw)
    }

    /// The area-averaged colour (see [`Integral::samplings`]) of the `nx` x `ny` bins of
    /// `rect` moved by every whole number of half bins from -1 to `2 nx - 1` across and -1 to
    /// `2 ny - 1` down: channel by channel, `2 nx + 1` across and `2 ny + 1` down. The bins
    /// of the nine samplings are all among them.
    fn bin_grid(&self, rect: (f64, f64, f64, f64), nx: usize, ny: usize) -> Vec<f32> {
        let (x0, y0, x1, y1) = rect;
        let (sx, sy) = ((x1 - x0) / nx as f64 / 2.0, (y1 - y0) / ny as f64 / 2.0);
        // Where each lattice line falls: the running-sum column/row below it and the weight of
        // the one above.
        let split = |v: f64, lo: u32, hi: u32, last: usize| {
            let f = v.clamp(f64::from(lo), f64::from(hi)) - f64::from(lo);
            let i = (f.floor() as usize).min(last);
            (i, (i + 1).min(last), f - i as f64)
        };
        let last_x = (self.x1 - self.x0) as usize;
        let last_y = self.sums.len() / self.stride - 1;
        let (lx, ly) = (2 * nx + 3, 2 * ny + 3);
        let xs: Vec<(usize, usize, f64)> = (0..lx)
            .map(|k| split(x0 - sx + k as f64 * sx, self.x0, self.x1, last_x))
            .collect();
        // A running-sum row interpolated across at the lattice's columns, channel by channel
        // (`ch * lx + i`).
        let across = |y: usize, out: &mut [f64]| {
            let row = &self.sums[y * self.stride..];
            for (i, &(xa, xb, tx)) in xs.iter().enumerate() {
                let (p, q) = (row[xa], row[xb]);
                for ch in 0..3 {
                    out[ch * lx + i] =
                        f64::from(p[ch]) + (f64::from(q[ch]) - f64::from(p[ch])) * tx;
                }
            }
        };
        // Consecutive lattice lines mostly fall between the same rows: the last two rows
        // interpolated are kept (row index, values).
        let mut rows = [
            (usize::MAX, vec![0f64; 3 * lx]),
            (usize::MAX, vec![0f64; 3 * lx]),
        ];
        // Channel by channel (`ch * lx * ly + j * lx + i`), so the bins below read plain rows.
        let plane = lx * ly;
        let mut corners = vec![0f64; 3 * plane];
        for j in 0..ly {
            let (ya, yb, ty) = split(y0 - sy + j as f64 * sy, self.y0, self.y1, last_y);
            for y in [ya, yb] {
                if rows[0].0 != y && rows[1].0 != y {
                    // Replace the row that is not the other one needed.
                    let slot = usize::from(rows[0].0 == ya || rows[0].0 == yb);
                    across(y, &mut rows[slot].1);
                    rows[slot].0 = y;
                }
            }
            let row = |y: usize| &rows[usize::from(rows[0].0 != y)].1;
            let (top, bottom) = (row(ya), row(yb));
            for ch in 0..3 {
                let out = &mut corners[ch * plane + j * lx..ch * plane + (j + 1) * lx];
                let (top, bottom) = (
                    &top[ch * lx..(ch + 1) * lx],
                    &bottom[ch * lx..(ch + 1) * lx],
                );
                for ((c, &t), &b) in out.iter_mut().zip(top).zip(bottom) {
                    *c = t + (b - t) * ty;
                }
            }
        }
        let per_area = 1.0 / (4.0 * sx * sy).max(1e-9);
        // Every bin of every sampling spans two half bins each way from a lattice point: the
        // bins at all `gx` x `gy` such points (channel by channel) hold all nine samplings.
        let (gx, gy) = (2 * nx + 1, 2 * ny + 1);
        let mut grid = vec![0f32; 3 * gx * gy];
        for (line, out) in grid.chunks_exact_mut(gx).enumerate() {
            let (ch, yy) = (line / gy, line % gy);
            let above = &corners[ch * plane + yy * lx..][..gx + 2];
            let below = &corners[ch * plane + (yy + 2) * lx..][..gx + 2];
            for (xx, v) in out.iter_mut().enumerate() {
                let (a, b) = (above[xx], above[xx + 2]);
                let (c, d) = (below[xx], below[xx + 2]);
                *v = ((d - b - c + a) * per_area) as f32;
            }
        }
        grid
    }
}

/// Per channel: subtract the mean, divide by the spread (floored at a third of the largest
/// channel's spread, so a nearly constant channel does not blow up its noise). A face with
/// almost no contrast becomes all zeros.
#[cfg(test)]
fn normalise(values: &mut [f32], per_channel: usize) {
    let Some(stats) = normalisation(values, per_channel) else {
        values.iter_mut().for_each(|v| *v = 0.0);
        return;
    };
    for (ch, chunk) in values.chunks_mut(per_channel).enumerate() {
        let (mean, scale) = stats[ch];
        chunk.iter_mut().for_each(|v| *v = (*v - mean) * scale);
    }
}

/// Per channel of `values` (channel-major, `per_channel` values each), the mean and the scale
/// that normalise it: one over its spread, floored at a third of the largest channel's spread
/// (so a nearly constant channel does not blow up its noise). `None` for a face with almost
/// no contrast, which normalises to all zeros.
fn normalisation(values: &[f32], per_channel: usize) -> Option<[(f32, f32); 3]> {
    let mut stats = [(0f32, 0f32); 3];
    for (ch, chunk) in values.chunks(per_channel).enumerate() {
        let n = chunk.len() as f32;
        let mean = lane_sum(chunk, |v| v) / n;
        let var = lane_sum(chunk, |v| (v - mean) * (v - mean)) / n;
        stats[ch] = (mean, var.sqrt());
    }
    let largest = stats.iter().map(|s| s.1).fold(0.0, f32::max);
    if largest < 4.0 {
        return None;
    }
    Some(stats.map(|(mean, spread)| (mean, 1.0 / spread.max(largest / 3.0))))
}

/// The sum of `f` over `values` in eight independent lanes (a plain float sum waits on every
/// addition in turn; this one vectorises).
fn lane_sum(values: &[f32], f: impl Fn(f32) -> f32) -> f32 {
    let mut lanes = [0f32; 8];
    let chunks = values.chunks_exact(8);
    let rest: f32 = chunks.remainder().iter().map(|&v| f(v)).sum();
    for chunk in chunks {
        for l in 0..8 {
            lanes[l] += f(chunk[l]);
        }
    }
    lanes.iter().sum::<f32>() + rest
}

/// A bin this close (Euclidean, 0-255 levels) to the background under its cell (see
/// [`ground_under_cells`]) shows that background.
const ON_GROUND: f32 = 20.0;

/// Whether at least [`GROUND_SHARE`] of a face's bins are within [`ON_GROUND`] of `ground`:
/// the face is drawn on the background (an icon with no tile body), so its paper is the
/// background's colour where it lies, not a colour of its kind. A tile's body hides the
/// background (else it would read as empty).
fn shows_ground(face: &Face, ground: [f32; 3]) -> bool {
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
fn ground_under_cells(image: &RgbaImage, geometry: &Geometry) -> Vec<[Option<[f32; 3]>; 2]> {
    let b = geometry.board_rect();
    let [px, py] = geometry.pitch;
    let (near, far) = OUTSIDE_BAND;
    let commonest = |x0: f64, y0: f64, x1: f64, y1: f64| -> Option<[f32; 3]> {
        // Every other pixel each way: a band's commonest colour needs no more.
        let pixels = rect_pixels(image, (x0, y0, x1, y1), 2).map(|p| [p[0], p[1], p[2]]);
        let (sums, n) = super::features::commonest_bin(pixels)?;
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

/// The colours of the background seen just outside the board: a set of colour bins.
///
/// A band outside the board may show one flat colour, a gradient, a texture, a photo, or
/// several of them (a wallpaper behind part of the board, plain grey elsewhere). One colour
/// box around all of that would span most colours, tiles included; a set of small bins
/// holds each of them apart.
#[derive(Clone, Debug)]
struct Background {
    /// One flag per colour bin (16 levels per channel): whether the colour is background.
    bins: Vec<bool>,
    /// The mean colour of the most common bin.
    dominant: [f32; 3],
    /// The band (depth outside the board, as shares of a pitch) where a panel unlike the
    /// wider surroundings showed and joined these colours, if one did.
    panel_band: Option<(f64, f64)>,
    /// The colours of the panels joined (see `panel_band`) alone, if any joined that showed on
    /// every side of the board in colours the wider band seldom shows (under
    /// [`PANEL_APART_SHARE`] of it).
    panel_bins: Option<Vec<bool>>,
}

/// Levels per colour bin, as a shift.
const BIN_SHIFT: u32 = 4;
/// Bins per channel.
const BINS: usize = 256 >> BIN_SHIFT;

fn bin_of(p: &[u8]) -> usize {
    let b = |v: u8| usize::from(v >> BIN_SHIFT);
    (b(p[0]) * BINS + b(p[1])) * BINS + b(p[2])
}

impl Background {
    /// The background from band pixels: the most common bins, in order, until they hold 90% of
    /// the band (so a few foreign pixels, such as a matched pair's line routed round the board
    /// or a cursor, stay out), each widened by one bin on every side (compression noise and
    /// shading).
    fn from_band(channels: &[Vec<u8>; 3]) -> Background {
        let n = channels[0].len();
        let counts = bin_counts(channels);
        let mut order: Vec<usize> = (0..counts.len()).filter(|&b| counts[b] > 0).collect();
        order.sort_by(|&a, &b| counts[b].cmp(&counts[a]));
        let top = order.first().copied().unwrap_or(0);
        let mut dominant = [0f32; 3];
        let mut in_top = 0f32;
        for p in band_pixels(channels).filter(|p| bin_of(p) == top) {
            for (d, &v) in dominant.iter_mut().zip(&p) {
                *d += f32::from(v);
            }
            in_top += 1.0;
        }
        let dominant = dominant.map(|v| v / in_top.max(1.0));
        let mut bins = vec![false; counts.len()];
        let mut covered = 0usize;
        for b in order {
            if covered as f64 >= 0.9 * n as f64 {
                break;
            }
            covered += counts[b] as usize;
            mark_widened(&mut bins, b);
        }
        Background {
            bins,
            dominant,
            panel_band: None,
            panel_bins: None,
        }
    }

    /// Adds `other`'s colours.
    fn join(&mut self, other: &Background) {
        for (bin, &also) in self.bins.iter_mut().zip(&other.bins) {
            *bin |= also;
        }
        if let Some(other_panel) = &other.panel_bins {
            let panel = self
                .panel_bins
                .get_or_insert_with(|| vec![false; other_panel.len()]);
            for (bin, &also) in panel.iter_mut().zip(other_panel) {
                *bin |= also;
            }
        }
        self.panel_band = other.panel_band.or(self.panel_band);
    }

    fn contains(&self, p: &[u8]) -> bool {
        self.bins[bin_of(p)]
    }
}

/// The background colours of a band 15% to 45% of a pitch outside the board, and of the
/// board's own margin (6% to 14% of a pitch outside it) when that is mostly another colour: a
/// panel under the board, whose colour every empty cell shows, often ends before the wider
/// band starts. `None` when the board touches the image's edges.
///
/// A colour counts when it is common on one side and shows on another: a menu bar above the
/// board or a side panel beside it borders one side only, while a gradient's or a
/// wallpaper's colours reach round the corners. With one side in the image, that side.
fn background(image: &RgbaImage, geometry: &Geometry) -> Option<(Background, Option<Background>)> {
    let b = geometry.board_rect();
    let rect = [b.x, b.y, b.x + b.w, b.y + b.h];
    // The band of `outside_band`, read once side by side.
    let all_sides = side_bands(image, rect, geometry.pitch, OUTSIDE_BAND);
    let channels = joined_sides(&all_sides)?;
    let sides: Vec<[Vec<u8>; 3]> = all_sides
        .into_iter()
        .filter(|side| side[0].len() >= 30)
        .collect();
    let main: Vec<Background> = sides.iter().map(Background::from_band).collect();
    let present: Vec<Vec<bool>> = sides.iter().map(present_bins).collect();
    let shared: Vec<bool> = (0..BINS * BINS * BINS)
        .map(|bin| {
            sides.len() < 2
                || (0..sides.len()).any(|s| {
                    main[s].bins[bin] && (0..sides.len()).any(|t| t != s && present[t][bin])
                })
        })
        .collect();
    let mut kept: [Vec<u8>; 3] = Default::default();
    for p in band_pixels(&channels).filter(|p| shared[bin_of(p)]) {
        for (k, v) in kept.iter_mut().zip(p) {
            k.push(v);
        }
    }
    let band = if kept[0].len() >= 30 {
        &kept
    } else {
        &channels
    };
    let mut background = Background::from_band(band);
    let unlike_margin = |depth: (f64, f64), background: &Background| {
        panel_margin(image, rect, geometry.pitch, depth, background, band)
    };
    if let Some(margin) = unlike_margin((0.06, 0.14), &background) {
        background.join(&margin);
    }
    // Closer in, a panel whose edge lies within 6% of a pitch of the tiles, or within 3% of
    // the cells' boxes when these span the gaps (a board of objects on a lattice, whose tile
    // is the whole cell); its colours are kept apart, as the band may also catch the tiles
    // when the geometry is a little off.
    let near = unlike_margin((0.01, 0.06), &background)
        .or_else(|| unlike_margin((0.0, 0.03), &background))
        .map(|margin| {
            let mut joined = background.clone();
            joined.join(&margin);
            joined
        });
    Some((background, near))
}

/// The colours of the band `depth` (shares of the `pitch`) outside the board's `rect` as a
/// panel, when most of its pixels lie outside the `background`'s colours; `None` otherwise.
/// A margin like the wider band adds nothing but the few tile pixels (a shadow, a 3D edge)
/// that reach into it. The panel's colours count apart (see [`empty_only_on_panel`]) when it
/// shows on every side of the board in the image and the wider `band` seldom shows them.
fn panel_margin(
    image: &RgbaImage,
    rect: [f64; 4],
    pitch: [f64; 2],
    depth: (f64, f64),
    background: &Background,
    band: &[Vec<u8>; 3],
) -> Option<Background> {
    let sides = side_bands(image, rect, pitch, depth);
    let margin = joined_sides(&sides)?;
    let alike = band_pixels(&margin)
        .filter(|p| background.contains(p))
        .count();
    if 2 * alike >= margin[0].len() {
        return None;
    }
    let panel = Background::from_band(&margin);
    let round_the_board = sides.iter().all(|side| !side[0].is_empty());
    let apart = round_the_board && {
        let in_panel = band_pixels(band).filter(|p| panel.contains(p)).count();
        (in_panel as f32) < PANEL_APART_SHARE * band[0].len() as f32
    };
    Some(Background {
        panel_band: Some(depth),
        panel_bins: apart.then(|| panel.bins.clone()),
        ..panel
    })
}

/// The colour bins holding at least 0.5% of the pixels (and 3 of them), each widened by one
/// bin on every side.
fn present_bins(channels: &[Vec<u8>; 3]) -> Vec<bool> {
    let counts = bin_counts(channels);
    let least = (channels[0].len() as u32 / 200).max(3);
    let mut out = vec![false; counts.len()];
    for (bin, _) in counts.iter().enumerate().filter(|&(_, &c)| c >= least) {
        mark_widened(&mut out, bin);
    }
    out
}

/// The pixels of a band split by channel, as colours.
fn band_pixels(channels: &[Vec<u8>; 3]) -> impl Iterator<Item = [u8; 3]> + '_ {
    channels[0]
        .iter()
        .zip(&channels[1])
        .zip(&channels[2])
        .map(|((&r, &g), &b)| [r, g, b])
}

/// How many pixels of a band fall in each colour bin.
fn bin_counts(channels: &[Vec<u8>; 3]) -> Vec<u32> {
    let mut counts = vec![0u32; BINS * BINS * BINS];
    for p in band_pixels(channels) {
        counts[bin_of(&p)] += 1;
    }
    counts
}

/// Marks `bin` and the bins one step from it on every channel.
fn mark_widened(bins: &mut [bool], bin: usize) {
    let (r, g, b) = (bin / (BINS * BINS), bin / BINS % BINS, bin % BINS);
    for dr in r.saturating_sub(1)..=(r + 1).min(BINS - 1) {
        for dg in g.saturating_sub(1)..=(g + 1).min(BINS - 1) {
            for db in b.saturating_sub(1)..=(b + 1).min(BINS - 1) {
                bins[(dr * BINS + dg) * BINS + db] = true;
            }
        }
    }
}

/// Most share of the band round the board in a panel's colours for these to count apart
/// from it (see [`empty_only_on_panel`]): a photo's darker or lighter margin is no panel.
const PANEL_APART_SHARE: f32 = 0.2;

/// Least share of a face in the colours round the board (panel and all) for a cell that
/// does not show the panel to be empty: nearly all of it.
const OFF_PANEL_SHARE: f32 = 0.9;

/// Where a panel showed round the board (the `background`'s panel colours), makes tiles of
/// the cells read as empty (their `empty_score` in all its colours) that show under
/// `settings.empty_fraction` of the panel's colours and under [`OFF_PANEL_SHARE`] of all:
/// an empty cell shows the panel under the board, or the page round it wholly (a frame round
/// a board with no panel), while a tile whose face is in the page's colour (seed 19302: a
/// quarter of the kinds in the very mint round the panel) shows its drawing too.
fn empty_only_on_panel(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    background: &Background,
    empty_score: &[f32],
    is_tile: &mut [bool],
) {
    let Some(panel) = &background.panel_bins else {
        return;
    };
    for (i, tile) in is_tile.iter_mut().enumerate().filter(|(_, tile)| !**tile) {
        let face = face_rect(geometry, geometry.pos_of(i), settings.trim);
        let on_panel = share_in_colours(image, face, panel);
        *tile = f64::from(on_panel) < settings.empty_fraction && empty_score[i] < OFF_PANEL_SHARE;
    }
}

/// How much of their faces most of the cells that only the panel close to the tiles makes
/// empty (their median) must show in its colours: a panel fills an empty cell, while tiles
/// the band caught (the geometry a little off) keep some of their drawing. A median, not a
/// mean: where the boxes lie a few pixels off the cells, the empty cells along a grid line
/// show a strip of it (seed 20221: 68 of 112 empty cells wholly the panel's colour, 22 of
/// them 81-86%). Taking the panel must also leave a pair of tiles.
const NEAR_PANEL_SHARE: f32 = 0.98;

/// Fraction of a cell's face that lies inside the background's colour box.
fn background_fraction(image: &RgbaImage, rect: (f64, f64, f64, f64), bg: &Background) -> f32 {
    share_in_colours(image, rect, &bg.bins)
}

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
        out.extend(mean_colour(image, (x0, y0, x1, y1)));
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

/// The mean colour of the pixels of `rect` (x0, y0, x1, y1); a rectangle narrower than a pixel
/// takes the pixel it lies in.
fn mean_colour(image: &RgbaImage, rect: (f64, f64, f64, f64)) -> [f32; 3] {
    let (xa, xb) = pixel_range_at_least_one(rect.0, rect.2, image.width());
    let (ya, yb) = pixel_range_at_least_one(rect.1, rect.3, image.height());
    let mut sum = [0f32; 3];
    for y in ya..yb {
        for x in xa..xb {
            let p = image.get_pixel(x, y).0;
            for (s, &v) in sum.iter_mut().zip(&p) {
                *s += f32::from(v);
            }
        }
    }
    let count = ((xb - xa) * (yb - ya)).max(1) as f32;
    sum.map(|s| s / count)
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
    let pos = geometry.pos_of(i);
    let r = geometry.cell_rect(pos);
    activity(
        image,
        (
            r.x + 0.2 * r.w,
            r.y + 0.2 * r.h,
            r.x + 0.8 * r.w,
            r.y + 0.8 * r.h,
        ),
    )
    .unwrap_or(0.0)
}

/// The mean colour step (sum over R, G, B) from one pixel to the next, across and down, inside
/// `rect` (x0, y0, x1, y1); `None` when it holds under two pixels each way.
fn activity(image: &RgbaImage, rect: (f64, f64, f64, f64)) -> Option<f32> {
    let (xa, xb) = pixel_range(rect.0, rect.2, image.width());
    let (ya, yb) = pixel_range(rect.1, rect.3, image.height());
    let step = |a: [u8; 4], b: [u8; 4]| (0..3).map(|c| u32::from(a[c].abs_diff(b[c]))).sum::<u32>();
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
    let b = geometry.board_rect();
    let (x0, y0, x1, y1) = (b.x, b.y, b.x + b.w, b.y + b.h);
    let [px, py] = geometry.pitch;
    let mut sides: Vec<f32> = [
        (x0 - far * px, y0, x0 - near * px, y1),
        (x1 + near * px, y0, x1 + far * px, y1),
        (x0, y0 - far * py, x1, y0 - near * py),
        (x0, y1 + near * py, x1, y1 + far * py),
    ]
    .into_iter()
    .filter_map(|rect| activity(image, rect))
    .collect();
    crate::stats::median(&mut sides)
}

/// Gives back their tiles to cells read as empty by colour whose rim is the tiles' rim, and
/// takes them from wallpaper read as tiles.
///
/// Colour alone cannot tell a tile whose paper is the background's colour (kshisen's light
/// tiles on its plain light-grey background, a blank tile) from an empty cell; the band just
/// inside the tile's edge can, when the game draws every tile with the same rim (an outline, a
/// bevel, a 3D side). The rim is learnt from the cells read as tiles by colour (before the
/// drawing rule adds cells: late in a game with few tiles, cells of lit wallpaper read as
/// drawn would teach the wallpaper as the rim), and used only when they share it closely and it stands clearly apart
/// from what the cells read as empty show in their middles (the background's colour when there
/// are none): flat tiles of many colours share no rim, and icons with no tile body have the
/// panel under them as "rim", so nothing changes for them; nor when the cells read as empty
/// all show the rim and no drawing (see [`rim_of_the_grid`]). The other way round, a cell read
/// as a tile whose edge is unlike the rim and like the background, with little drawing in its
/// middle, is empty (a lighter patch of a wallpaper under an emptied cell).
fn restore_tiles_by_rim(
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
                mean_colour(image, face_rect(geometry, pos, 0.2))
            })
            .collect();
        std::array::from_fn(|c| {
            let mut channel: Vec<f32> = middles.iter().map(|m| m[c]).collect();
            crate::stats::median(&mut channel).unwrap_or(background[c])
        })
    };
    let empty_rim: Vec<f32> = (0..4 * RIM_STEPS).flat_map(|_| background).collect();
    let mut spread: Vec<f32> = tiles.iter().map(|&i| rms(&rims[i], &tile_rim)).collect();
    let mid = spread.len() / 2;
    let spread = *spread.select_nth_unstable_by(mid, f32::total_cmp).1;
    let apart = rms(&tile_rim, &empty_rim);
    if apart < 12.0 || spread > 0.25 * apart {
        return;
    }
    let limit = (3.0 * spread).max(0.35 * apart);
    let like_rim: Vec<usize> = empties
        .iter()
        .copied()
        .filter(|&i| rms(&rims[i], &tile_rim) < limit)
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
            let to_tiles = rms(&rims[i], &tile_rim);
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
    let mut drawing: Vec<f32> = empties
        .iter()
        .map(|&i| middle_activity(image, geometry, i))
        .collect();
    crate::stats::median(&mut drawing).is_some_and(|d| d < floor)
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
fn restore_drawn_tiles(
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
fn restore_by_own_edge(
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
fn drawn_apart_from_edge(
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
fn empty_like_gap(
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
    let mut drawing: Vec<f32> = (0..is_tile.len())
        .filter(|&i| is_tile[i])
        .map(|i| middle_activity(image, geometry, i))
        .collect();
    let typical = crate::stats::median(&mut drawing).unwrap_or(0.0);
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
fn restore_unlike_gap(
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
fn ring_sides(r: Rect, gx: f64, gy: f64) -> [(f64, f64, f64, f64); 4] {
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

/// The colour bin of each pixel of `rect` (x0, y0, x1, y1), row by row.
fn bins_in(image: &RgbaImage, rect: (f64, f64, f64, f64)) -> impl Iterator<Item = usize> + '_ {
    rect_pixels(image, rect, 1).map(bin_of)
}

/// The share of the pixels of `rect` (x0, y0, x1, y1) whose colour bin is marked in `bins`
/// (1 for a rectangle holding no pixel).
fn share_in_colours(image: &RgbaImage, rect: (f64, f64, f64, f64), bins: &[bool]) -> f32 {
    let (mut inside, mut total) = (0usize, 0usize);
    for bin in bins_in(image, rect) {
        inside += usize::from(bins[bin]);
        total += 1;
    }
    if total == 0 {
        1.0
    } else {
        inside as f32 / total as f32
    }
}

/// Reads the board in `image` at the known `geometry`: 0 for empty cells, kinds numbered 1..
/// in row-major order of first appearance, and a confidence per cell.
pub fn read_board(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> Result<Reading, VisionError> {
    read_cells(image, geometry, settings, None).map(|(reading, _)| reading)
}

/// [`read_board`], with each tile's nearest copy among the tiles in the cells `copies_from`
/// (row-major indices) takes (see [`TileCopy`]); `None` for those with fewer than four tiles.
pub(super) fn read_with_copies(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    copies_from: &dyn Fn(usize) -> bool,
) -> Result<(Reading, Option<Vec<TileCopy>>), VisionError> {
    read_cells(image, geometry, settings, Some(copies_from))
}

/// Which cells hold a tile, each cell's empty score (the share of its face in the colours
/// round the board; see [`background`]), and those colours (`None` when the board touches the
/// image's edges).
fn tile_cells(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> (Vec<bool>, Vec<f32>, Option<Background>) {
    let n = geometry.rows * geometry.cols;
    let mut empty_score = vec![0f32; n];
    let mut is_tile = vec![true; n];
    let mut chosen = None;
    if let Some((bg, near)) = &background(image, geometry) {
        chosen = Some(bg.clone());
        // Where a panel showed round the board, in the colours the cells are read by.
        let mut panel_band = bg.panel_band;
        let scores = |bg: &Background| -> Vec<f32> {
            (0..n)
                .map(|i| {
                    let pos = geometry.pos_of(i);
                    background_fraction(image, face_rect(geometry, pos, settings.trim), bg)
                })
                .collect()
        };
        empty_score = scores(bg);
        if let Some(near) = near {
            let with_near = scores(near);
            let limit = settings.empty_fraction as f32;
            // A cell whose middle shows colours its edge does not is a tile either way (an icon
            // with no tile body on the panel): it neither shows the panel is one nor that it
            // is not, and it is a tile left.
            let (drawn, switched): (Vec<usize>, Vec<usize>) = (0..n)
                .filter(|&i| empty_score[i] < limit && with_near[i] >= limit)
                .partition(|&i| drawn_apart_from_edge(image, geometry, settings, i));
            let mut shares: Vec<f32> = switched.iter().map(|&i| with_near[i]).collect();
            let median = crate::stats::median(&mut shares).unwrap_or(0.0);
            let tiles_left = with_near.iter().filter(|&&score| score < limit).count() + drawn.len();
            if switched.is_empty() || (median >= NEAR_PANEL_SHARE && tiles_left >= 2) {
                empty_score = with_near;
                panel_band = near.panel_band;
                chosen = Some(near.clone());
            }
        }
        for (tile, score) in is_tile.iter_mut().zip(&empty_score) {
            *tile = f64::from(*score) < settings.empty_fraction;
        }
        if let Some(chosen) = &chosen {
            empty_only_on_panel(
                image,
                geometry,
                settings,
                chosen,
                &empty_score,
                &mut is_tile,
            );
        }
        empty_like_gap(image, geometry, settings, bg.dominant, &mut is_tile);
        restore_tiles_by_rim(image, geometry, bg.dominant, &mut is_tile);
        restore_drawn_tiles(image, geometry, panel_band, &mut is_tile);
        restore_by_own_edge(image, geometry, settings, &mut is_tile);
        restore_unlike_gap(image, geometry, settings, &mut is_tile);
    }
    (is_tile, empty_score, chosen)
}

/// [`read_board`], and the tiles' copies among those in the cells `copies_from` takes, when
/// given (see [`read_with_copies`]).
fn read_cells(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    copies_from: Option<&dyn Fn(usize) -> bool>,
) -> Result<(Reading, Option<Vec<TileCopy>>), VisionError> {
    check_fits(image, geometry)?;
    let n = geometry.rows * geometry.cols;
    let (is_tile, empty_score, background) = tile_cells(image, geometry, settings);
    let tiles: Vec<usize> = (0..n).filter(|&i| is_tile[i]).collect();
    let mut faces = faces_of(image, geometry, settings, &tiles);
    let icons_on_ground = match &background {
        Some(bg) => take_out_ground(image, geometry, settings, bg, &tiles, &mut faces),
        None => vec![false; tiles.len()],
    };
    let refs: Vec<&Face> = faces.iter().collect();
    let (dist, threshold) = face_distances(&refs, settings);
    let on_ground = || {
        let ground = ground_under_cells(image, geometry);
        tiles
            .iter()
            .zip(&faces)
            .map(|(&cell, face)| {
                ground[cell]
                    .iter()
                    .flatten()
                    .any(|&g| shows_ground(face, g))
            })
            .zip(&icons_on_ground)
            .map(|(by_bands, &by_ring)| by_bands || by_ring)
            .collect()
    };
    let (labels, tile_confidence) = group_faces_at(&refs, on_ground, &dist, threshold);
    let copies = copies_from
        .filter(|_| tiles.len() >= 4)
        .map(|from| copies_of(&tiles, &faces, &dist, from));
    let mut cells = vec![0 as Kind; n];
    let mut confidence = vec![0f32; n];
    for i in 0..n {
        if !is_tile[i] {
            let margin = (empty_score[i] - settings.empty_fraction as f32).abs();
            confidence[i] = (margin / 0.3).min(1.0);
        }
    }
    // Number kinds by first appearance.
    let mut names: Vec<Option<Kind>> = vec![None; tiles.len()];
    let mut next: Kind = 1;
    for (t, &cell) in tiles.iter().enumerate() {
        let label = labels[t];
        let kind = *names[label].get_or_insert_with(|| {
            next += 1;
            next - 1
        });
        cells[cell] = kind;
        confidence[cell] = tile_confidence[t];
    }
    let board = Board::new(geometry.rows, geometry.cols, cells)
        .map_err(|e| VisionError::NoBoard(e.to_string()))?;
    let low_confidence = (0..n)
        .filter(|&i| confidence[i] < settings.low_confidence)
        .map(|i| geometry.pos_of(i))
        .collect();
    let reading = Reading {
        board,
        geometry: *geometry,
        confidence,
        low_confidence,
        selected: Vec::new(),
    };
    Ok((reading, copies))
}

/// The share of `tiles` whose face has a copy (see [`TileCopy`]). Every kind of a link-up board
/// comes in pairs, so on the right geometry nearly every tile has one; cells cut across tiles
/// (a wrong pitch or phase) have fewer.
pub(super) fn twin_share(tiles: &[TileCopy]) -> f64 {
    let twins = tiles.iter().filter(|t| t.copy.is_some()).count();
    twins as f64 / tiles.len().max(1) as f64
}

/// A tile and its nearest copy (see [`read_with_copies`]).
pub(super) struct TileCopy {
    /// The tile's cell (row-major index).
    pub cell: usize,
    /// The cell of the nearest other tile (of those copies are sought among), when its face
    /// lies within [`NO_COPY_SHARE`] of the typical distance between faces.
    pub copy: Option<usize>,
    /// The face shows no drawing (it normalises to nothing), so any blank cell copies it.
    pub blank: bool,
}

/// Each of the tiles at `cells` (row-major indices, with their `faces` and the distances
/// between them, `n * n`) with its nearest copy among the tiles whose cell `from` takes.
fn copies_of(
    cells: &[usize],
    faces: &[Face],
    dist: &[f32],
    from: &dyn Fn(usize) -> bool,
) -> Vec<TileCopy> {
    let n = cells.len();
    let limit = NO_COPY_SHARE * typical_distance(dist, n);
    (0..n)
        .map(|i| {
            let nearest = (0..n)
                .filter(|&j| j != i && from(cells[j]))
                .min_by(|&a, &b| dist[i * n + a].total_cmp(&dist[i * n + b]));
            TileCopy {
                cell: cells[i],
                copy: nearest
                    .filter(|&j| dist[i * n + j] <= limit)
                    .map(|j| cells[j]),
                blank: faces[i].values().iter().all(|&v| v == 0.0),
            }
        })
        .collect()
}

/// [`group_faces_at`], measuring the distances itself.
#[cfg(test)]
fn group_faces(faces: &[&Face], settings: &ClassifierSettings) -> (Vec<usize>, Vec<f32>) {
    let (dist, threshold) = face_distances(faces, settings);
    group_faces_at(faces, || vec![false; faces.len()], &dist, threshold)
}

/// Groups faces into kinds, given the distances between them (`n * n`) and the kind
/// threshold (see [`face_distances`]); returns a label per face (labels `0..groups`) and a
/// confidence. `on_ground()[i]`: face `i`'s paper is the background running on under the
/// board (see [`ground_under_cells`]), not a tile's own colour; asked only when two faces
/// alike in shape differ in colour.
fn group_faces_at(
    faces: &[&Face],
    on_ground: impl Fn() -> Vec<bool>,
    dist: &[f32],
    threshold: f32,
) -> (Vec<usize>, Vec<f32>) {
    let n = faces.len();
    if n == 0 {
        return (Vec::new(), Vec::new());
    }
    // Faces of clearly different colours never link (normalisation hides colour), though the
    // odd-count repair below may still join them: a selected tile is tinted. Only pairs close
    // enough to link need the test.
    let mut linkable = dist.to_vec();
    let mut shifted: Vec<Option<Vec<Colours>>> = vec![None; n];
    let exact = exact_colour_copies(faces, dist, threshold);
    let ground = std::cell::OnceCell::new();
    for i in 0..n {
        for j in i + 1..n {
            if dist[i * n + j] >= threshold {
                continue;
            }
            let apart = colours_apart(faces, i, j, true, &mut shifted)
                || (exact[i] && exact[j] && papers_apart(faces[i], faces[j]));
            // Two icons drawn straight on a gradient show its colours round them: their
            // papers differ with where they lie, not with their kind.
            let apart = apart && {
                let on_ground: &Vec<bool> = ground.get_or_init(&on_ground);
                !(on_ground[i] && on_ground[j]) || colours_apart(faces, i, j, false, &mut shifted)
            };
            if apart {
                linkable[i * n + j] = f32::INFINITY;
                linkable[j * n + i] = f32::INFINITY;
            }
        }
    }
    link_by_colour(faces, dist, threshold, &mut linkable);
    part_local_differences(faces, threshold, &mut linkable);
    let mut groups: Vec<Vec<usize>> = link_groups(&linkable, n, threshold)
        .into_iter()
        .flat_map(|g| split_wide(&linkable, n, g, threshold))
        .flat_map(|g| split_into_pairs(dist, n, g, threshold))
        .collect();
    repair_odd_groups(dist, n, &mut groups);

    let mut labels = vec![0usize; n];
    for (label, g) in groups.iter().enumerate() {
        for &i in g {
            labels[i] = label;
        }
    }
    let confidence = (0..n)
        .map(|i| label_confidence(dist, &groups, &labels, i, threshold))
        .collect();
    (labels, confidence)
}

/// The distance between every pair of faces (`n * n`, row by row) and the kind threshold (see
/// [`kind_threshold`], raised to a few times the copies' own difference, [`copy_noise`]). The cheap centred comparison for every pair sets the scale; the
/// shift-tolerant one only for the pairs close enough to matter.
fn face_distances(faces: &[&Face], settings: &ClassifierSettings) -> (Vec<f32>, f32) {
    let n = faces.len();
    let mut dist = vec![0f32; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let d = faces[i].centred_distance(faces[j]);
            dist[i * n + j] = d;
            dist[j * n + i] = d;
        }
    }
    let threshold =
        kind_threshold(&dist, n, settings).max(COPY_NOISE_FACTOR * copy_noise(&dist, n));
    for i in 0..n {
        for j in i + 1..n {
            let d = dist[i * n + j];
            if d < 1.5 * threshold && d > 0.0 {
                let d = d
                    .min(faces[i].distance(faces[j]))
                    .min(faces[j].distance(faces[i]));
                dist[i * n + j] = d;
                dist[j * n + i] = d;
            }
        }
    }
    (dist, threshold)
}

/// How surely face `i` belongs to its group: its silhouette (the nearest other group's mean
/// distance against its own group's), halved when its group has an odd count.
fn label_confidence(
    dist: &[f32],
    groups: &[Vec<usize>],
    labels: &[usize],
    i: usize,
    threshold: f32,
) -> f32 {
    let n = labels.len();
    let own = &groups[labels[i]];
    let a = if own.len() > 1 {
        own.iter()
            .filter(|&&j| j != i)
            .map(|&j| dist[i * n + j])
            .sum::<f32>()
            / (own.len() - 1) as f32
    } else {
        threshold
    };
    let b = groups
        .iter()
        .enumerate()
        .filter(|&(l, _)| l != labels[i])
        .map(|(_, g)| g.iter().map(|&j| dist[i * n + j]).sum::<f32>() / g.len() as f32)
        .fold(f32::MAX, f32::min);
    let odd = if own.len() % 2 == 1 { 0.5 } else { 1.0 };
    if b == f32::MAX {
        odd
    } else {
        ((b - a) / b.max(a).max(1e-6)).clamp(0.0, 1.0) * odd
    }
}

/// Faces whose paper or ink colours differ by more than this (Euclidean, 0-255 levels) belong
/// to different kinds: well above compression noise and a sub-pixel offset's effect on a
/// stroke, below a glyph or a tile drawn in another colour. Every face in one frame shares its
/// brightness, so no normalisation is needed between them.
const COLOUR_APART: f32 = 44.0;

/// Whether faces `i` and `j` differ clearly in colour: the centred colours of `i` against the
/// best-aligned sampling of `j` (a stroke split between two bins shifts a small face's ink).
/// The shifted samplings' colours of `j` are computed once, and only when the centred ones
/// are apart.
fn colours_apart(
    faces: &[&Face],
    i: usize,
    j: usize,
    papers: bool,
    shifted: &mut [Option<Vec<Colours>>],
) -> bool {
    let (a, b) = (faces[i], faces[j]);
    let apart = |c: &Colours| {
        let d = if papers {
            a.colours.distance(c)
        } else {
            a.colours.ink_distance(c)
        };
        d > COLOUR_APART
    };
    if !apart(&b.colours) {
        return false;
    }
    let per_channel = b.bins.0 * b.bins.1;
    shifted[j]
        .get_or_insert_with(|| b.raw.iter().map(|v| Colours::of(v, per_channel)).collect())
        .iter()
        .all(apart)
}

/// Whether two faces' papers (the commonest colour of their bins, which a stroke's sampling
/// hardly moves) differ by more than [`PAPER_APART`].
fn papers_apart(a: &Face, b: &Face) -> bool {
    rgb_distance(a.colours.paper, b.colours.paper) > PAPER_APART
}

/// Whether each face is painted on a solid paper (see [`solid_paper`]) and has an exact
/// copy: another face under the kind `threshold` in shape and within [`EXACT_COLOUR`] in
/// colour (flat fills copied to a level or two).
fn exact_colour_copies(faces: &[&Face], dist: &[f32], threshold: f32) -> Vec<bool> {
    let n = faces.len();
    (0..n)
        .map(|i| {
            solid_paper(faces[i])
                && (0..n).any(|j| {
                    j != i
                        && dist[i * n + j] < threshold
                        && faces[i].colours.distance(&faces[j].colours) <= EXACT_COLOUR
                })
        })
        .collect()
}

/// Whether most of a face's bins (at least [`SOLID_SHARE`]) lie within [`SOLID_LEVELS`] of its
/// paper: a flat tile with a mark on it, whose paper no sampling moves (on a face mostly
/// drawn, the commonest bin may be the drawing's).
fn solid_paper(face: &Face) -> bool {
    face.share_near(face.colours.paper, SOLID_LEVELS) >= SOLID_SHARE
}

/// Share of a face's bins that must show its paper for the paper to be solid.
const SOLID_SHARE: f32 = 0.5;

/// Farthest (Euclidean, 0-255 levels) a bin may lie from the paper to show it.
const SOLID_LEVELS: f32 = 16.0;

/// Most two faces' colours may differ to be exact copies (see [`exact_colour_copies`]).
const EXACT_COLOUR: f32 = 2.0;

/// The least paper difference (Euclidean, 0-255 levels) that parts two faces that both have
/// an exact copy (see [`exact_colour_copies`]): where copies match to a level or two, a game
/// may paint its kinds in colours closer than [`COLOUR_APART`], which allows for compression,
/// tints and the ink of small strokes sampled at another sub-pixel offset.
const PAPER_APART: f32 = 24.0;

/// Faces whose paper and ink colours differ by at most this (Euclidean, 0-255 levels) show
/// the same colours: above the difference between copies of one kind (up to 15 on the tuning
/// seeds, under JPEG and rescaling, where a stroke's edge falls in other bins), below that
/// between kinds told apart by colour alone (27 or more).
const SAME_COLOUR: f32 = 22.0;

/// How far apart in shape (times the kind threshold) the faces of one colour may lie and still
/// be taken for copies of one kind. Where every kind has one shape the threshold is the
/// copies' own noise, and on a large board a pitch a twentieth of a pixel off drifts copies
/// far apart on it by more (seed 1053: 3.5 thresholds); [`ONE_SHAPE_MOST`] still keeps two
/// shapes apart.
const ONE_SHAPE_FACTOR: f32 = 4.0;

/// The most two faces of one colour may differ in shape (worst block, in units of each
/// channel's spread) and still be taken for copies of one kind, however high the kind
/// threshold: copies of one flat tile differed by up to 0.34 on the tuning seeds (JPEG,
/// rescaling), two glyphs or emoji of one colour by 0.73 or more.
const ONE_SHAPE_MOST: f32 = 0.5;

/// Where colour alone tells kinds apart, links by colour: when the faces of face `i`'s colour
/// (within [`SAME_COLOUR`]) all lie within [`ONE_SHAPE_FACTOR`] thresholds (and
/// [`ONE_SHAPE_MOST`]) of each other in shape, they are copies of one kind whose shapes differ
/// by noise only. Copies of one flat tile, resampled at other sub-pixel offsets, can differ in
/// shape by more than the kind threshold, which is low when every kind has the same glyph (the
/// median distance between faces is then itself small), and split into two kinds. Faces of
/// one colour with clearly different shapes (glyph-only kinds, mahjong faces on one paper) do
/// not pass and keep the shape rule. Sets `linkable` to 0 between two faces of one colour that
/// both pass; it only adds links.
fn link_by_colour(faces: &[&Face], dist: &[f32], threshold: f32, linkable: &mut [f32]) {
    let n = faces.len();
    let limit = (ONE_SHAPE_FACTOR * threshold).min(ONE_SHAPE_MOST);
    let same: Vec<Vec<usize>> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i && faces[i].colours.distance(&faces[j].colours) <= SAME_COLOUR)
                .collect()
        })
        .collect();
    // Faces of one colour mostly share one set: each set is checked once.
    let mut checked: std::collections::HashMap<Vec<usize>, bool> = Default::default();
    let one_kind: Vec<bool> = (0..n)
        .map(|i| {
            if same[i].is_empty() {
                return false;
            }
            let mut members = same[i].clone();
            members.push(i);
            members.sort_unstable();
            *checked.entry(members).or_insert_with_key(|members| {
                members
                    .iter()
                    .enumerate()
                    .all(|(x, &j)| members[x + 1..].iter().all(|&k| dist[j * n + k] < limit))
            })
        })
        .collect();
    for i in 0..n {
        if !one_kind[i] {
            continue;
        }
        for &j in &same[i] {
            if one_kind[j] {
                linkable[i * n + j] = 0.0;
                linkable[j * n + i] = 0.0;
            }
        }
    }
}

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// many kind thresholds: well above what the kind threshold lets through in a whole block.
const LOCAL_APART_FACTOR: f32 = 1.25;

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// (in units of each channel's spread): a clear mark, not the edge of a stroke.
const LOCAL_APART_MIN: f32 = 0.5;

/// A pair parted by [`part_local_differences`] differs in its worst window by more than this
/// many times each face's window distance to its nearest linked face (its copy): the noise of
/// copies (JPEG, rescaling, a selection's tint) stays well under that.
const LOCAL_COPY_FACTOR: f32 = 8.0;

/// Unlinks pairs of faces that the block distance links but that differ clearly in one small
/// place (see [`window_distance`]): kinds such as GNOME postmodern's flowers and seasons,
/// alike but for a small corner label, had merged. A linked pair is parted when its window
/// distance is over [`LOCAL_APART_FACTOR`] times `threshold`, over [`LOCAL_APART_MIN`], and
/// over [`LOCAL_COPY_FACTOR`] times each face's window distance to its nearest linked face
/// (every kind occurs at least twice, so that is mostly a copy: copies' noise spreads over the
/// whole face and never stands out in one window like a mark does).
fn part_local_differences(faces: &[&Face], threshold: f32, linkable: &mut [f32]) {
    let n = faces.len();
    let floor = (LOCAL_APART_FACTOR * threshold).max(LOCAL_APART_MIN);
    // The shift-tolerant distance of a pair, below `bound` (both ways round).
    let aligned = |i: usize, j: usize, bound: f32| -> f32 {
        let d = faces[i].window_distance(faces[j], bound);
        faces[j].window_distance(faces[i], d)
    };
    // The cheap centred distance for every linked pair (an upper bound); the shift-tolerant
    // one only where it matters: the pairs apart by it, and the nearest copies of their faces.
    let mut pairs: Vec<(usize, usize, f32)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if linkable[i * n + j] < threshold {
                pairs.push((i, j, faces[i].centred_window_distance(faces[j])));
            }
        }
    }
    let mut apart: Vec<(usize, usize, f32)> = Vec::new();
    for &(i, j, d) in &pairs {
        if d > floor {
            let d = aligned(i, j, d);
            if d > floor {
                apart.push((i, j, d));
            }
        }
    }
    let mut nearest: Vec<Option<f32>> = vec![None; n];
    for &(i, j, _) in &apart {
        for face in [i, j] {
            if nearest[face].is_none() {
                let near = pairs
                    .iter()
                    .filter(|&&(a, b, _)| a == face || b == face)
                    .fold(f32::MAX, |best, &(a, b, d)| aligned(a, b, best.min(d)));
                nearest[face] = Some(near);
            }
        }
    }
    for (i, j, d) in apart {
        let near = |face: usize| nearest[face].unwrap_or(f32::MAX);
        let copies = near(i).max(near(j));
        if d > LOCAL_COPY_FACTOR * copies {
            linkable[i * n + j] = f32::INFINITY;
            linkable[j * n + i] = f32::INFINITY;
        }
    }
}

/// How many times the copies' own difference (see [`copy_noise`]) two faces may differ and
/// still be the same kind.
const COPY_NOISE_FACTOR: f32 = 3.0;

/// How much copies of one kind differ (compression, rescaling, a sub-pixel offset): the median
/// over faces of the distance to the nearest other face (`dist` is `n * n`). Every kind occurs
/// at least twice, so a face's nearest other face is mostly a copy of its own kind. Faces whose
/// nearest lies over [`NO_COPY_SHARE`] of the typical distance between faces have no copy
/// (wallpaper read as tiles in emptied cells late in a game: live kshisen 12x24, four tiles and
/// five such cells, whose nearest distances set the threshold above every distance and made
/// the 3 and 5 of bamboo one kind) and are left out, unless fewer than [`MIN_WITH_COPY`] faces have one. Kinds told
/// apart only by colour share one shape, so the median distance between all faces is itself
/// copy noise, and a fraction of it split copies of one kind; a threshold of a few times the
/// copy noise keeps them together, and colour parts the kinds. (Tuning seeds, true geometry:
/// 1..200 kind mistakes 161 -> 99 cells, 200..400 94 -> 52; factors 2.5 and 3.5 did about as
/// well, 2 and 4 worse.) 0 for fewer than three faces.
fn copy_noise(dist: &[f32], n: usize) -> f32 {
    if n < 3 {
        return 0.0;
    }
    let mut nearest: Vec<f32> = (0..n)
        .map(|i| {
            (0..n)
                .filter(|&j| j != i)
                .map(|j| dist[i * n + j])
                .fold(f32::MAX, f32::min)
        })
        .collect();
    let limit = NO_COPY_SHARE * typical_distance(dist, n);
    let mut with_copy: Vec<f32> = nearest.iter().copied().filter(|&d| d <= limit).collect();
    if with_copy.len() >= MIN_WITH_COPY {
        return crate::stats::median(&mut with_copy).unwrap_or(0.0);
    }
    crate::stats::median(&mut nearest).unwrap_or(0.0)
}

/// Faces with a copy needed to measure the copy noise on them alone: two kinds' pairs.
const MIN_WITH_COPY: usize = 4;

/// A face whose nearest other face lies further than this share of the typical distance
/// between faces has no copy (see [`copy_noise`]).
const NO_COPY_SHARE: f32 = 0.5;

/// The median distance between all pairs of faces (0 for fewer than two).
fn typical_distance(dist: &[f32], n: usize) -> f32 {
    let mut all: Vec<f32> = (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
        .map(|(i, j)| dist[i * n + j])
        .collect();
    if all.is_empty() {
        return 0.0;
    }
    let mid = all.len() / 2;
    *all.select_nth_unstable_by(mid, f32::total_cmp).1
}

/// The distance below which two faces are the same kind: a fraction of the median distance
/// between all faces (faces of different kinds are nearly unrelated after normalisation, so
/// the median is stable whatever the number of copies of each kind).
fn kind_threshold(dist: &[f32], n: usize, settings: &ClassifierSettings) -> f32 {
    settings.same_kind as f32 * typical_distance(dist, n)
}

/// Single-linkage groups of faces closer than `threshold`.
fn link_groups(dist: &[f32], n: usize, threshold: f32) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..n).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    for i in 0..n {
        for j in i + 1..n {
            if dist[i * n + j] < threshold {
                let (a, b) = (root(&mut parent, i), root(&mut parent, j));
                if a != b {
                    parent[a] = b;
                }
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut index = vec![usize::MAX; n];
    for i in 0..n {
        let r = root(&mut parent, i);
        if index[r] == usize::MAX {
            index[r] = groups.len();
            groups.push(Vec::new());
        }
        groups[index[r]].push(i);
    }
    groups
}

/// Splits a group whose members are not all within `threshold` of each other, by complete
/// linkage: chains of near-duplicates come apart.
fn split_wide(dist: &[f32], n: usize, group: Vec<usize>, threshold: f32) -> Vec<Vec<usize>> {
    let wide = group
        .iter()
        .any(|&i| group.iter().any(|&j| dist[i * n + j] >= threshold));
    if !wide {
        return vec![group];
    }
    let mut clusters: Vec<Vec<usize>> = group.into_iter().map(|i| vec![i]).collect();
    loop {
        let mut best: Option<(usize, usize, f32)> = None;
        for a in 0..clusters.len() {
            for b in a + 1..clusters.len() {
                let d = clusters[a]
                    .iter()
                    .flat_map(|&i| clusters[b].iter().map(move |&j| dist[i * n + j]))
                    .fold(0.0, f32::max);
                if d < threshold && best.is_none_or(|(_, _, e)| d < e) {
                    best = Some((a, b, d));
                }
            }
        }
        let Some((a, b, _)) = best else {
            return clusters;
        };
        let moved = clusters.swap_remove(b);
        clusters[a].extend(moved);
    }
}

/// How much nearer each other than to the rest of their group two faces must be for the
/// group to part into such pairs (see [`split_into_pairs`]).
const PAIR_APART: f32 = 0.7;

/// How far (a share of the kind threshold) every other member of the group must lie from a
/// pair for the group to part: further than the copies' own noise.
const PAIR_OTHERS: f32 = 0.5;

/// A group of six or more faces that falls into pairs, each face's nearest in the group
/// being the face whose nearest it is, at most [`PAIR_APART`] of the way to any other
/// member and every other member at least [`PAIR_OTHERS`] of the kind `threshold` away,
/// parted into those pairs: kinds drawn alike but for one small part (the numbers of one
/// suit over a shared character) lie within a threshold raised by the copies' noise, while
/// copies of one kind stand nearer each other than to any other kind. A group of four stays:
/// one kind's four copies fall into two such pairs about as often as two kinds merge.
fn split_into_pairs(dist: &[f32], n: usize, group: Vec<usize>, threshold: f32) -> Vec<Vec<usize>> {
    if group.len() < 6 || group.len() % 2 == 1 {
        return vec![group];
    }
    let nearest = |i: usize| {
        group
            .iter()
            .copied()
            .filter(|&j| j != i)
            .min_by(|&a, &b| dist[i * n + a].total_cmp(&dist[i * n + b]))
    };
    let mut pairs = Vec::new();
    for &i in &group {
        let Some(j) = nearest(i) else {
            return vec![group];
        };
        if nearest(j) != Some(i) {
            return vec![group];
        }
        let apart = group.iter().filter(|&&k| k != i && k != j).all(|&k| {
            let other = dist[i * n + k].min(dist[j * n + k]);
            dist[i * n + j] <= PAIR_APART * other && other >= PAIR_OTHERS * threshold
        });
        if !apart {
            return vec![group];
        }
        if i < j {
            pairs.push(vec![i, j]);
        }
    }
    pairs
}

/// Mean distance from face `i` to the members of `group`.
fn mean_distance(dist: &[f32], n: usize, i: usize, group: &[usize]) -> f32 {
    group.iter().map(|&j| dist[i * n + j]).sum::<f32>() / group.len().max(1) as f32
}

/// Every kind occurs an even number of times: pairs up groups of odd size, closest first, and
/// either merges them (when one is a single face, such as a selected tile that looked
/// different) or moves the face that fits the other group best.
fn repair_odd_groups(dist: &[f32], n: usize, groups: &mut Vec<Vec<usize>>) {
    loop {
        let odd: Vec<usize> = (0..groups.len())
            .filter(|&g| groups[g].len() % 2 == 1)
            .collect();
        let mut best: Option<(usize, usize, f32)> = None;
        for (x, &a) in odd.iter().enumerate() {
            for &b in &odd[x + 1..] {
                let d = groups[a]
                    .iter()
                    .map(|&i| mean_distance(dist, n, i, &groups[b]))
                    .fold(f32::MAX, f32::min);
                if best.is_none_or(|(_, _, e)| d < e) {
                    best = Some((a, b, d));
                }
            }
        }
        let Some((a, b, _)) = best else {
            return;
        };
        if groups[a].len() == 1 || groups[b].len() == 1 {
            let (keep, gone) = (a.min(b), a.max(b));
            let moved = groups.swap_remove(gone);
            groups[keep].extend(moved);
            continue;
        }
        // Move the face whose move costs least: closer to the other group than to its own.
        let cost = |from: usize, to: usize, i: usize| -> f32 {
            let rest: Vec<usize> = groups[from].iter().copied().filter(|&j| j != i).collect();
            mean_distance(dist, n, i, &groups[to]) - mean_distance(dist, n, i, &rest)
        };
        let mut choice: Option<(usize, usize, usize, f32)> = None;
        for (from, to) in [(a, b), (b, a)] {
            for &i in &groups[from] {
                let c = cost(from, to, i);
                if choice.is_none_or(|(_, _, _, e)| c < e) {
                    choice = Some((from, to, i, c));
                }
            }
        }
        let Some((from, to, i, _)) = choice else {
            return;
        };
        groups[from].retain(|&j| j != i);
        groups[to].push(i);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 11 (seed 850: flat tiles on a busy textured panel with a thin margin, a smooth
    /// wallpaper round it): the texture of an empty cell is the panel's, not a drawing, so
    /// the empty cells stay empty.
    #[test]
    fn an_empty_cell_on_a_textured_panel_is_no_drawn_tile() {
        // 4 x 4 cells of 40 px from (40, 40), tiles 36 px of the kinds of KINDS_4X4; the panel
        // reaches 3 px past them.
        let (kinds, colours) = (KINDS_4X4, KIND_COLOURS);
        let img = RgbaImage::from_fn(240, 240, |x, y| {
            let (fx, fy) = (i64::from(x) - 40, i64::from(y) - 40);
            if (0..160).contains(&fx) && (0..160).contains(&fy) {
                let kind = kinds[(fy / 40) as usize][(fx / 40) as usize];
                let (u, v) = (fx % 40, fy % 40);
                if kind > 0 && (2..38).contains(&u) && (2..38).contains(&v) {
                    let diamond = (u - 20).abs() + (v - 20).abs() < 8;
                    let [r, g, b] = if diamond {
                        [255, 255, 255]
                    } else {
                        colours[kind - 1]
                    };
                    return image::Rgba([r, g, b, 255]);
                }
            }
            if (-1..161).contains(&fx) && (-1..161).contains(&fy) {
                // A busy pink texture: a hash of the position, 40 levels deep.
                let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 41;
                let l = 180 + h as u8;
                return image::Rgba([l, l - 60, l - 30, 255]);
            }
            image::Rgba([225, 220, 190, 255])
        });
        let (origin, tile) = (42.0, 36.0);
        assert_empties_read(&img, origin, tile, &KINDS_4X4);
    }

    /// Issue 11 (seed 19302: touching tiles on a dark panel, a light page round it, and a
    /// quarter of the kinds with faces in the page's very colour): an empty cell shows the
    /// panel, so a face mostly in the page's colour, with a drawing on it, is a tile.
    #[test]
    fn a_tile_in_the_colour_round_the_panel_is_no_empty_cell() {
        // 4 x 4 cells of 40 px from (40, 40), each tile the whole cell with black strokes
        // 2 px wide across it, 10 px apart (a fifth of the face, reaching its edges, so that
        // its middle shows nothing the edge does not); kinds 1 and 3 in the page's mint,
        // the panel, a busy texture busier than the strokes, reaching 6 px past the board.
        const MINT: [u8; 3] = [160, 235, 200];
        let colours = [MINT, [40, 90, 210], MINT, [230, 190, 30]];
        let kinds = [[1, 0, 2, 0], [0, 3, 0, 4], [2, 0, 1, 0], [0, 4, 0, 3]];
        let img = RgbaImage::from_fn(240, 240, |x, y| {
            let (fx, fy) = (i64::from(x) - 40, i64::from(y) - 40);
            if (0..160).contains(&fx) && (0..160).contains(&fy) {
                let kind = kinds[(fy / 40) as usize][(fx / 40) as usize];
                let (u, v) = (fx % 40, fy % 40);
                if kind > 0 {
                    let stroke = if kind % 2 == 1 { u } else { v };
                    let [r, g, b] = if stroke % 10 < 2 {
                        [10, 10, 10]
                    } else {
                        colours[kind - 1]
                    };
                    return image::Rgba([r, g, b, 255]);
                }
            }
            if (-6..166).contains(&fx) && (-6..166).contains(&fy) {
                // A busy dark texture: a hash of the position, 40 levels deep.
                let h = (x.wrapping_mul(73_856_093) ^ y.wrapping_mul(19_349_663)) % 41;
                let l = 40 + h as u8;
                return image::Rgba([l, l - 20, l + 10, 255]);
            }
            image::Rgba([MINT[0], MINT[1], MINT[2], 255])
        });
        assert_empties_read(&img, 40.0, 40.0, &kinds);
    }

    /// Issue 11 (seed 394: a waterfall in a photo behind the board): a cell read as a tile
    /// whose face shows only the gap's colours, with no drawing, is empty; a drawn tile and a
    /// blank tile one colour bin from the gap's colour stay tiles.
    #[test]
    fn a_cell_showing_only_its_gap_is_empty() {
        // One row of five cells, pitch 40, tiles 32 (4 px of gap each side), on grey 128.
        let img = RgbaImage::from_fn(260, 90, |x, y| {
            let (px, py) = (f64::from(x) - 20.0, f64::from(y) - 20.0);
            let col = (px / 40.0).floor() as i32;
            let (tx, ty) = (px - 40.0 * f64::from(col) - 4.0, py - 4.0);
            let in_tile = (0.0..32.0).contains(&tx) && (0.0..32.0).contains(&ty);
            let in_pitch_box = (0.0..40.0).contains(&py) && (0..5).contains(&col);
            match col {
                // A patch of blue behind cell 2 that the band round the board never shows.
                2 if in_pitch_box => image::Rgba([40, 90, 200, 255]),
                // A blank tile of grey 116: one colour bin below the gap's 128.
                3 if in_tile => image::Rgba([116, 116, 116, 255]),
                // Drawn tiles: red with white stripes.
                0 | 1 | 4 if in_tile => {
                    if (tx as i32 / 4) % 2 == 0 {
                        image::Rgba([255, 255, 255, 255])
                    } else {
                        image::Rgba([200, 30, 30, 255])
                    }
                }
                _ => image::Rgba([128, 128, 128, 255]),
            }
        });
        assert_eq!(
            tiles_left_in_a_row(&img, 24.0, 32.0),
            [true, true, false, true, true]
        );
    }

    /// Issue 11 (seed 752: flat tiles 4 px apart on a pink panel, a blank-faced kind in the
    /// dark grey of the photo round the panel, so the colours round the board read it empty):
    /// a cell read empty that shows none of its gap's colours is a tile; an empty cell, which
    /// shows the panel as its gap does, stays empty.
    #[test]
    fn a_blank_tile_unlike_its_gap_is_a_tile() {
        // One row of five cells, pitch 40 from (20, 20), tiles 32 px: cell 1 blank dark grey,
        // cell 2 empty (the pink panel), the others red with white stripes.
        let img = RgbaImage::from_fn(240, 80, |x, y| {
            let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
            let col = px.div_euclid(40);
            let (u, v) = (px.rem_euclid(40), py);
            let in_tile = (0..5).contains(&col) && col != 2 && (4..36).contains(&u);
            if !in_tile || !(4..36).contains(&v) {
                return image::Rgba([180, 90, 140, 255]);
            }
            match col {
                1 => image::Rgba([60, 60, 60, 255]),
                _ if (u / 4) % 2 == 0 => image::Rgba([255, 255, 255, 255]),
                _ => image::Rgba([200, 30, 30, 255]),
            }
        });
        let geometry = Geometry {
            rows: 1,
            cols: 5,
            origin: [24.0, 24.0],
            pitch: [40.0, 40.0],
            tile_size: [32.0, 32.0],
        };
        let mut is_tile = vec![true, false, false, true, true];
        restore_unlike_gap(
            &img,
            &geometry,
            &ClassifierSettings::default(),
            &mut is_tile,
        );
        assert_eq!(is_tile, [true, true, false, true, true]);
    }

    /// Issue 11 (our Tk Shisen-Sho: white tiles with a black outline, the box found 3 px inside
    /// them): a blank-faced tile shows only colours the ring round its box holds (the tiles'
    /// own paper and outline), and it is still a tile; an empty cell is not.
    #[test]
    fn a_blank_tile_inside_a_box_too_small_is_a_tile() {
        // One row of five cells, pitch 40 from (20, 20); tiles 36 px with a 1 px black outline,
        // white paper; cell 2 empty (the grey gap), cell 3 blank, the others a red stripe.
        let img = RgbaImage::from_fn(240, 80, |x, y| {
            let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
            let col = px.div_euclid(40);
            let (u, v) = (px.rem_euclid(40), py);
            let in_tile = (0..5).contains(&col) && col != 2 && (2..38).contains(&u);
            if !in_tile || !(2..38).contains(&v) {
                return image::Rgba([128, 128, 128, 255]);
            }
            if u == 2 || u == 37 || v == 2 || v == 37 {
                image::Rgba([0, 0, 0, 255])
            } else if col != 3 && (17..23).contains(&u) && (8..32).contains(&v) {
                image::Rgba([200, 30, 30, 255])
            } else {
                image::Rgba([255, 255, 255, 255])
            }
        });
        assert_eq!(
            tiles_left_in_a_row(&img, 25.0, 30.0),
            [true, true, false, true, true]
        );
    }

    /// Issue 11 (seed 442: flat tiles with a darker 3D rim on the right and bottom, the box
    /// found on the faces): a dark tile with a faint glyph shows only colours of its own rim,
    /// which lies in the ring round its box on two sides; it is still a tile, and an empty
    /// cell, whose gap shows all round, is not.
    #[test]
    fn a_faint_tile_whose_own_rim_lies_round_its_box_is_a_tile() {
        // One row of five cells, pitch 40 from (20, 20); bodies 34 px, the last 5 px of each
        // a rim; faces 29 px. Cell 2 empty (the grey gap), cell 3 dark grey with a faint bar,
        // the others red with white stripes.
        let img = RgbaImage::from_fn(240, 80, |x, y| {
            let (px, py) = (i64::from(x) - 20, i64::from(y) - 20);
            let col = px.div_euclid(40);
            let (u, v) = (px.rem_euclid(40), py);
            let in_body = (0..5).contains(&col) && col != 2 && (2..36).contains(&u);
            if !in_body || !(2..36).contains(&v) {
                return image::Rgba([128, 128, 128, 255]);
            }
            let rim = u >= 31 || v >= 31;
            let grey = |l: u8| image::Rgba([l, l, l, 255]);
            match (col, rim) {
                (3, true) => grey(50),
                (3, false) if (14..19).contains(&u) && (8..26).contains(&v) => grey(40),
                (3, false) => grey(60),
                (_, true) => image::Rgba([120, 20, 20, 255]),
                _ if (u / 3) % 2 == 0 => grey(255),
                _ => image::Rgba([200, 30, 30, 255]),
            }
        });
        assert_eq!(
            tiles_left_in_a_row(&img, 22.0, 29.0),
            [true, true, false, true, true]
        );
    }

    /// Which cells of a row of five (pitch 40, tiles `tile` px from (`origin`, `origin`)) are
    /// still tiles after [`empty_like_gap`] on a grey 128 background, every cell a tile before.
    fn tiles_left_in_a_row(img: &RgbaImage, origin: f64, tile: f64) -> Vec<bool> {
        let geometry = Geometry {
            rows: 1,
            cols: 5,
            origin: [origin, origin],
            pitch: [40.0, 40.0],
            tile_size: [tile, tile],
        };
        let mut is_tile = vec![true; 5];
        empty_like_gap(
            img,
            &geometry,
            &ClassifierSettings::default(),
            [128.0; 3],
            &mut is_tile,
        );
        is_tile
    }

    /// Kinds of a 4 x 4 board, two of each, half the cells empty (0).
    const KINDS_4X4: [[usize; 4]; 4] = [[1, 0, 2, 0], [0, 3, 0, 4], [2, 0, 1, 0], [0, 4, 0, 3]];
    /// The colour of each kind of [`KINDS_4X4`] (index `kind - 1`).
    const KIND_COLOURS: [[u8; 3]; 4] =
        [[200, 40, 40], [40, 90, 210], [230, 190, 30], [30, 150, 60]];

    /// Asserts that the 4 x 4 board of 40 px cells whose tiles (`tile` px) start at (`origin`,
    /// `origin`) reads its empty cells where `kinds` has them.
    fn assert_empties_read(img: &RgbaImage, origin: f64, tile: f64, kinds: &[[usize; 4]; 4]) {
        let geometry = Geometry {
            rows: 4,
            cols: 4,
            origin: [origin, origin],
            pitch: [40.0, 40.0],
            tile_size: [tile, tile],
        };
        let reading = read_board(img, &geometry, &ClassifierSettings::default()).unwrap();
        let empty: Vec<bool> = reading.board.cells().iter().map(|&k| k == 0).collect();
        let expected: Vec<bool> = kinds.iter().flatten().map(|&k| k == 0).collect();
        assert_eq!(empty, expected);
    }

    /// Issue 11 (seed 496: icons with no tile body on a panel ruled into cells, the tiles'
    /// box the whole cell): the grid lines inside every cell's edge are not a tile's rim, so
    /// the plain cells stay empty.
    #[test]
    fn grid_lines_round_every_cell_are_no_tile_rim() {
        // 4 x 4 cells of 40 px from (20, 20), a 2 px line on every boundary; the kinds of
        // KINDS_4X4 as coloured discs, the empty cells plain panel.
        let (kinds, colours) = (KINDS_4X4, KIND_COLOURS);
        let img = RgbaImage::from_fn(220, 220, |x, y| {
            let (fx, fy) = (i64::from(x) - 20, i64::from(y) - 20);
            let on_board = (-1..161).contains(&fx) && (-1..161).contains(&fy);
            let line = |v: i64| v.rem_euclid(40) == 0 || v.rem_euclid(40) == 39;
            if on_board && (line(fx) || line(fy)) {
                return image::Rgba([120, 60, 140, 255]);
            }
            if (0..160).contains(&fx) && (0..160).contains(&fy) {
                let kind = kinds[(fy / 40) as usize][(fx / 40) as usize];
                let (u, v) = (fx % 40 - 20, fy % 40 - 20);
                if kind > 0 && u * u + v * v < 12 * 12 {
                    let [r, g, b] = colours[kind - 1];
                    return image::Rgba([r, g, b, 255]);
                }
            }
            image::Rgba([190, 150, 200, 255])
        });
        let (origin, tile) = (19.0, 40.0);
        assert_empties_read(&img, origin, tile, &KINDS_4X4);
    }

    /// Issue 11: on the right grid every tile of a board dealt in pairs has a copy; on a grid
    /// half a pitch off, each cell shows halves of two tiles, and those do not repeat.
    #[test]
    fn tiles_have_copies_only_on_the_right_grid() {
        // Kinds by row: A B C D / B D A C.
        let kinds = [[0, 1, 2, 3], [1, 3, 0, 2]];
        let img = crate::vision::test_pictures::patterned_tiles(&kinds, (30, 30), (220, 140));
        let at = |x: f64| Geometry {
            rows: 2,
            cols: 4,
            origin: [x, 30.0],
            pitch: [40.0, 40.0],
            tile_size: [40.0, 40.0],
        };
        let settings = ClassifierSettings::default();
        let cells: Vec<usize> = (0..8).collect();
        let share = |g: &Geometry| {
            let faces = faces_of(&img, g, &settings, &cells);
            let (dist, _) = face_distances(&faces.iter().collect::<Vec<_>>(), &settings);
            twin_share(&copies_of(&cells, &faces, &dist, &|_| true))
        };
        assert_eq!(share(&at(30.0)), 1.0);
        assert!(share(&at(10.0)) < 0.5, "{}", share(&at(10.0)));
    }

    /// Issue 11 (kshisen's plain background): tiles whose paper is the background's colour,
    /// told apart only by their bevel, are tiles; the cells with no bevel stay empty.
    #[test]
    fn tiles_the_colour_of_the_background_are_read_by_their_rim() {
        let geometry = Geometry {
            rows: 3,
            cols: 4,
            origin: [60.0, 50.0],
            pitch: [40.0, 50.0],
            tile_size: [40.0, 50.0],
        };
        let empty = [(1, 1), (1, 2)];
        let with_glyph = [(0, 0), (0, 1), (0, 3), (2, 0), (2, 2), (2, 3)];
        let img = RgbaImage::from_fn(300, 260, |x, y| {
            let grey = |v: u8| image::Rgba([v, v, v, 255]);
            let (fx, fy) = (f64::from(x) - 60.0, f64::from(y) - 50.0);
            if fx < 0.0 || fy < 0.0 || fx >= 160.0 || fy >= 150.0 {
                return grey(238);
            }
            let (r, c) = ((fy / 50.0) as i32, (fx / 40.0) as i32);
            if empty.contains(&(r, c)) {
                return grey(238);
            }
            let (u, v) = (fx % 40.0, fy % 50.0);
            if u < 2.0 || v < 2.0 {
                grey(250)
            } else if u >= 37.0 || v >= 47.0 {
                grey(170)
            } else if with_glyph.contains(&(r, c))
                && (8.0..32.0).contains(&u)
                && (10.0..40.0).contains(&v)
            {
                image::Rgba([40, 90, 160, 255])
            } else {
                grey(238)
            }
        });
        let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
        for r in 0..3 {
            for c in 0..4 {
                let kind = reading.board.get(Pos::new(r, c));
                assert_eq!(kind == 0, empty.contains(&(r, c)), "({r}, {c}) read {kind}");
            }
        }
    }

    /// Issue 11 (a full board read empty): tiles with no rim whose paper is the background's
    /// colour and whose drawing covers a small part of the face are tiles, by their drawing;
    /// the plain cells stay empty.
    #[test]
    fn tiles_with_little_drawing_on_the_background_colour_are_tiles() {
        let geometry = Geometry {
            rows: 3,
            cols: 4,
            origin: [60.0, 50.0],
            pitch: [40.0, 50.0],
            tile_size: [40.0, 50.0],
        };
        let empty = [(1, 1), (1, 2)];
        let img = RgbaImage::from_fn(300, 260, |x, y| {
            let paper = image::Rgba([238, 238, 238, 255]);
            let (fx, fy) = (f64::from(x) - 60.0, f64::from(y) - 50.0);
            if fx < 0.0 || fy < 0.0 || fx >= 160.0 || fy >= 150.0 {
                return paper;
            }
            let (r, c) = ((fy / 50.0) as i32, (fx / 40.0) as i32);
            let (u, v) = (fx % 40.0, fy % 50.0);
            let stroke = (x + y) % 4 < 2;
            if !empty.contains(&(r, c))
                && (14.0..26.0).contains(&u)
                && (18.0..32.0).contains(&v)
                && stroke
            {
                image::Rgba([40, 90, 160, 255])
            } else {
                paper
            }
        });
        let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
        for r in 0..3 {
            for c in 0..4 {
                let kind = reading.board.get(Pos::new(r, c));
                assert_eq!(kind == 0, empty.contains(&(r, c)), "({r}, {c}) read {kind}");
            }
        }
    }

    /// A frame of icons drawn with no tile body: round `icons` (row, col, colour) of `radius`
    /// pixels centred in their cells, on a board `panel` (a colour reaching `margin` pixels
    /// past the board) or straight on the `outside` colour, which has a noise of +-`noise`
    /// levels.
    struct Icons {
        geometry: Geometry,
        outside: [u8; 3],
        noise: u8,
        panel: Option<([u8; 3], f64)>,
        radius: f64,
        icons: Vec<(i32, i32, [u8; 3])>,
    }

    impl Icons {
        fn render(&self) -> RgbaImage {
            let g = &self.geometry;
            let board = g.board_rect();
            RgbaImage::from_fn(320, 300, |x, y| {
                let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                for &(r, c, colour) in &self.icons {
                    let [cx, cy] = g.cell_center(Pos::new(r, c));
                    if (fx - cx).hypot(fy - cy) <= self.radius {
                        return image::Rgba([colour[0], colour[1], colour[2], 255]);
                    }
                }
                if let Some((colour, margin)) = self.panel {
                    let inside = fx >= board.x - margin
                        && fx < board.x + board.w + margin
                        && fy >= board.y - margin
                        && fy < board.y + board.h + margin;
                    if inside {
                        return image::Rgba([colour[0], colour[1], colour[2], 255]);
                    }
                }
                let hash =
                    (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
                let offset = i32::from(self.noise) * 2 + 1;
                let jitter = (hash >> 16) as i32 % offset - i32::from(self.noise);
                let [r, g, b] = self
                    .outside
                    .map(|v| (i32::from(v) + jitter).clamp(0, 255) as u8);
                image::Rgba([r, g, b, 255])
            })
        }

        /// Asserts that exactly the icons' cells read as tiles.
        fn assert_read(&self) {
            let reading = read_board(
                &self.render(),
                &self.geometry,
                &ClassifierSettings::default(),
            )
            .unwrap();
            for r in 0..self.geometry.rows as i32 {
                for c in 0..self.geometry.cols as i32 {
                    let kind = reading.board.get(Pos::new(r, c));
                    let icon = self.icons.iter().any(|&(ir, ic, _)| (ir, ic) == (r, c));
                    assert_eq!(kind != 0, icon, "({r}, {c}) read {kind}");
                }
            }
        }
    }

    const RED: [u8; 3] = [200, 40, 40];
    const BLUE: [u8; 3] = [40, 60, 200];
    /// Two pairs of icons on a 3x4 board.
    const FOUR_ICONS: [(i32, i32, [u8; 3]); 4] =
        [(0, 1, RED), (1, 3, BLUE), (2, 0, RED), (2, 2, BLUE)];

    /// A 3x4 board of 40x48 cells.
    fn large_cells() -> Geometry {
        Geometry {
            rows: 3,
            cols: 4,
            origin: [50.0, 50.0],
            pitch: [40.0, 48.0],
            tile_size: [40.0, 48.0],
        }
    }

    /// Icons of `radius` on a green panel ending 2 px round the board, purple beyond.
    fn icons_on_a_panel(radius: f64) -> Icons {
        Icons {
            geometry: large_cells(),
            outside: [120, 40, 120],
            noise: 0,
            panel: Some(([150, 200, 150], 2.0)),
            radius,
            icons: FOUR_ICONS.to_vec(),
        }
    }

    /// Issue 11 (emoji with no tile body, small cells): the rim steps narrower than a pixel are
    /// read from the pixels they lie in; read as black, they made the icons' rim stand apart
    /// from the background and every empty cell was read as a tile.
    #[test]
    fn empty_cells_stay_empty_beside_icons_on_small_cells() {
        let scene = Icons {
            geometry: Geometry {
                rows: 3,
                cols: 4,
                origin: [60.0, 50.0],
                pitch: [20.0, 24.0],
                tile_size: [20.0, 24.0],
            },
            outside: [200, 200, 200],
            noise: 0,
            panel: None,
            radius: 7.0,
            icons: vec![(0, 0, RED), (0, 2, BLUE), (1, 1, RED), (2, 3, BLUE)],
        };
        scene.assert_read();
    }

    /// Issue 11 (seed 1298: emoji with no tile body on a diagonal gradient): copies of an icon
    /// at either end of the board show different backgrounds round them, so their papers
    /// differ by far more than two kinds' colours do; they are one kind all the same (two
    /// copies at each end had read as two kinds of two).
    #[test]
    fn copies_of_an_icon_over_a_gradient_are_one_kind() {
        let geometry = Geometry {
            rows: 2,
            cols: 8,
            origin: [40.0, 40.0],
            pitch: [40.0, 40.0],
            tile_size: [40.0, 40.0],
        };
        // Violet at the left to brown at the right; dark discs and dark green squares, two
        // of each at either end.
        const NAVY: [u8; 3] = [30, 20, 40];
        const GREEN: [u8; 3] = [20, 60, 20];
        let kind_at = |r: i32, c: i32| match c {
            0 | 7 => Some(if r == 0 { NAVY } else { GREEN }),
            1 | 6 => Some(if r == 0 { GREEN } else { NAVY }),
            _ => None,
        };
        let img = RgbaImage::from_fn(400, 160, |x, y| {
            let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            if let Some(pos) = geometry.cell_at(fx, fy) {
                if let Some(colour) = kind_at(pos.row, pos.col) {
                    let [cx, cy] = geometry.cell_center(pos);
                    let inside = if colour == NAVY {
                        (fx - cx).hypot(fy - cy) <= 10.0
                    } else {
                        (fx - cx).abs() <= 8.0 && (fy - cy).abs() <= 8.0
                    };
                    if inside {
                        return image::Rgba([colour[0], colour[1], colour[2], 255]);
                    }
                }
            }
            let t = f64::from(x) / 400.0;
            let mix = |a: f64, b: f64| (a + (b - a) * t).round() as u8;
            image::Rgba([mix(200.0, 150.0), mix(110.0, 90.0), mix(220.0, 100.0), 255])
        });
        let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
        let board = &reading.board;
        let kind = |r, c| board.get(Pos::new(r, c));
        for (r, c) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            let copy = if c == 0 { 7 } else { 6 };
            assert_ne!(kind(r, c), 0, "{board}");
            assert_eq!(kind(r, c), kind(r, copy), "{board}");
        }
        assert_ne!(kind(0, 0), kind(1, 0), "{board}");
    }

    /// Issue 11 (seed 490: emoji with no tile body over a photo): where the background
    /// behind copies of an icon ranges from light to dark, it changes their normalised faces
    /// as much as another icon would, and copies read as kinds of two or four. With the ground
    /// behind each face taken out (see [`take_out_ground`]) every kind reads whole.
    #[test]
    fn copies_of_icons_over_light_and_dark_ground_are_one_kind() {
        let geometry = Geometry {
            rows: 4,
            cols: 6,
            origin: [40.0, 40.0],
            pitch: [40.0, 40.0],
            tile_size: [40.0, 40.0],
        };
        // Six icons, each half of its cell or less, in one dark ink; every kind four times,
        // on both the light left and the dark right.
        let kind_at = |r: i32, c: i32| (r * 6 + c + 3 * (r % 2)) % 6;
        let inside = |kind: i32, dx: f64, dy: f64| match kind {
            0 => dx.hypot(dy) <= 11.0,
            1 => dx.abs() <= 9.0 && dy.abs() <= 9.0,
            2 => dx.abs() <= 13.0 && dy.abs() <= 5.0,
            3 => dx.abs() <= 5.0 && dy.abs() <= 13.0,
            4 => dx.abs().max(dy.abs()) <= 12.0 && dx.abs().min(dy.abs()) <= 4.0,
            _ => (7.0..=12.0).contains(&dx.hypot(dy)),
        };
        let img = RgbaImage::from_fn(320, 240, |x, y| {
            let (fx, fy) = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            if let Some(pos) = geometry.cell_at(fx, fy) {
                let [cx, cy] = geometry.cell_center(pos);
                if inside(kind_at(pos.row, pos.col), fx - cx, fy - cy) {
                    return image::Rgba([120, 30, 30, 255]);
                }
            }
            // Light at the left to dark at the right, a little lighter down.
            let t = fx / 320.0;
            let level = 235.0 - 160.0 * t + 10.0 * fy / 240.0;
            let v = level.round() as u8;
            image::Rgba([v, v, (level * 0.9).round() as u8, 255])
        });
        let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
        let board = &reading.board;
        let mut kinds: Vec<Vec<Kind>> = vec![Vec::new(); 6];
        for r in 0..4 {
            for c in 0..6 {
                kinds[kind_at(r, c) as usize].push(board.get(Pos::new(r, c)));
            }
        }
        for (kind, read) in kinds.iter().enumerate() {
            assert!(
                read.iter().all(|&k| k != 0 && k == read[0]),
                "kind {kind}: {board}"
            );
        }
        let mut firsts: Vec<Kind> = kinds.iter().map(|read| read[0]).collect();
        firsts.dedup();
        firsts.sort_unstable();
        firsts.dedup();
        assert_eq!(firsts.len(), 6, "{board}");
    }

    /// A bin on the ground behind an icon takes the shared colour, one on the icon keeps its
    /// own, and one between moves part of the way (see [`ground_moved`]).
    #[test]
    fn the_ground_takes_the_shared_colour_the_icon_stays() {
        // One bin per channel, a ring of one colour all round, black ink.
        let ring = [[100.0, 100.0, 100.0]; 4];
        let moved =
            |bin: [f32; 3]| ground_moved(&bin, &ring, [10.0, 20.0, 30.0], [0.0; 3], (1, 1), 4);
        // The ground's grain goes with it.
        assert_eq!(moved([104.0, 100.0, 100.0]), vec![10.0, 20.0, 30.0]);
        assert_eq!(moved([200.0, 40.0, 0.0]), vec![200.0, 40.0, 0.0]);
        let halfway = GROUND_NEAR + (GROUND_FAR - GROUND_NEAR) / 2.0;
        let part = moved([100.0 + halfway, 100.0, 100.0]);
        assert!(
            (part[0] - (100.0 + halfway + 10.0) / 2.0).abs() < 1e-3,
            "{part:?}"
        );
        // Half ink, half ground (an icon's edge): its half of ground takes the shared colour.
        let edge = moved([50.0, 50.0, 50.0]);
        assert!(
            edge.iter()
                .zip([5.0, 10.0, 15.0])
                .all(|(a, b)| (a - b).abs() < 1e-3),
            "{edge:?}"
        );
    }

    /// Issue 11 (emoji with no tile body): icons covering a fifth of their cell on a noisy
    /// background are tiles by their middle, whose colours their edge does not show.
    #[test]
    fn small_icons_with_no_tile_body_are_tiles() {
        let scene = Icons {
            geometry: large_cells(),
            outside: [150, 150, 150],
            noise: 12,
            panel: None,
            radius: 9.0,
            icons: FOUR_ICONS.to_vec(),
        };
        scene.assert_read();
    }

    /// Issue 11 (emoji on a board panel): the rim of icons with no tile body is the panel
    /// under them, no news against what the empty cells show; measured against the colour
    /// outside the panel it had made every empty cell a tile.
    #[test]
    fn icons_on_a_panel_leave_the_empty_cells_empty() {
        icons_on_a_panel(15.0).assert_read();
    }

    /// Issue 11 (emoji on a panel, the board found as objects on a lattice): the panel ends
    /// 1.5 px past the cells' boxes, too close for the margin band to show it, and every empty
    /// cell read as a tile; the band within 3% of a pitch of the boxes shows it.
    #[test]
    fn a_panel_ending_right_at_the_cells_leaves_the_empty_cells_empty() {
        Icons {
            geometry: Geometry {
                rows: 3,
                cols: 4,
                origin: [32.0, 36.0],
                pitch: [64.0, 76.0],
                tile_size: [64.0, 76.0],
            },
            outside: [120, 40, 120],
            noise: 0,
            panel: Some(([150, 200, 150], 1.5)),
            radius: 16.0,
            icons: FOUR_ICONS.to_vec(),
        }
        .assert_read();
    }

    /// Issue 11 (small emoji on a panel close round the board): icons that leave most of their
    /// cell in the panel's colour do not count against the panel being the background.
    #[test]
    fn small_icons_do_not_hide_a_panel_close_round_the_board() {
        icons_on_a_panel(9.0).assert_read();
    }

    /// Issue 11 (kinds that differ only by colour): tiles of one glyph in four colours, each
    /// pixel jittered (compression noise): the copies of a colour differ about as much as the
    /// colours do in shape, and a threshold from the median distance alone split them.
    #[test]
    fn thick_strokes_of_white_on_two_colours_stay_apart_by_their_pure_ends() {
        // Most bins mix the tile's colour with a white glyph half and half; a few are pure.
        let face = |colour: [f32; 3]| -> Colours {
            let bin = |b: usize, c: usize| match b {
                0..=2 => colour[c],
                3..=6 => 255.0,
                _ => (colour[c] + 255.0) / 2.0,
            };
            let values: Vec<f32> = (0..3)
                .flat_map(|c| (0..40).map(move |b| bin(b, c)))
                .collect();
            Colours::of(&values, 40)
        };
        let (brown, grey) = (face([120.0, 70.0, 30.0]), face([60.0, 60.0, 60.0]));
        assert!(brown.one_ink && grey.one_ink);
        let d = rgb_distance;
        assert!(
            d(brown.paper, grey.paper) <= COLOUR_APART,
            "the mixed paper alone is near"
        );
        assert!(brown.distance(&grey) > COLOUR_APART);
        assert!(brown.distance(&face([120.0, 70.0, 30.0])) < 1.0);
    }

    #[test]
    fn one_glyph_in_four_colours_reads_as_four_kinds() {
        let geometry = Geometry {
            rows: 2,
            cols: 4,
            origin: [40.0, 40.0],
            pitch: [36.0, 44.0],
            tile_size: [34.0, 42.0],
        };
        let paper = [[200, 40, 40], [40, 150, 60], [40, 60, 200], [200, 170, 30]];
        // Kind of each cell, row-major: every colour twice.
        let kinds = [0, 1, 2, 3, 2, 0, 3, 1];
        let img = RgbaImage::from_fn(240, 170, |x, y| {
            let hash = (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
            let jitter = (hash >> 16) as i32 % 41 - 20;
            let shade = |v: i32| (v + jitter).clamp(0, 255) as u8;
            let Some(pos) = geometry.cell_at(f64::from(x), f64::from(y)) else {
                return image::Rgba([230, 230, 230, 255]);
            };
            let r = geometry.cell_rect(pos);
            let (u, v) = (f64::from(x) - r.x, f64::from(y) - r.y);
            if u >= r.w || v >= r.h {
                return image::Rgba([230, 230, 230, 255]);
            }
            let cross = (14.0..20.0).contains(&u) && (8.0..34.0).contains(&v)
                || (8.0..26.0).contains(&u) && (18.0..24.0).contains(&v);
            let [pr, pg, pb] = if cross {
                [250, 250, 250]
            } else {
                paper[kinds[pos.row as usize * 4 + pos.col as usize]]
            };
            image::Rgba([shade(pr), shade(pg), shade(pb), 255])
        });
        let reading = read_board(&img, &geometry, &ClassifierSettings::default()).unwrap();
        let cells = reading.board.cells();
        for a in 0..8 {
            for b in 0..8 {
                assert_eq!(
                    cells[a] == cells[b],
                    kinds[a] == kinds[b],
                    "cells {a} and {b} read {:?}",
                    cells
                );
            }
        }
    }

    #[test]
    fn normalise_cancels_brightness_and_contrast() {
        let mut a = vec![
            10.0, 20.0, 30.0, 40.0, 10.0, 20.0, 30.0, 40.0, 5.0, 6.0, 7.0, 8.0,
        ];
        let mut b: Vec<f32> = a.iter().map(|v| v * 0.9 + 7.0).collect();
        normalise(&mut a, 4);
        normalise(&mut b, 4);
        for (x, y) in a.iter().zip(&b) {
            assert!((x - y).abs() < 1e-4);
        }
    }

    #[test]
    fn bins_are_the_same_grid_on_small_and_large_faces() {
        // xshisen's face at 1x and at 0.8x, kshisen's at 2x: three blocks across, four down.
        for (w, h) in [(22.8, 28.9), (16.7, 23.1), (60.8, 79.0)] {
            assert_eq!(bins(w, h), (12, 16), "{w} x {h}");
        }
        assert_eq!(bins(50.0, 20.0), (12, 4));
        assert_eq!(bins(0.0, f64::NAN), (12, 12));
    }

    #[test]
    fn lane_sum_adds_everything() {
        let values: Vec<f32> = (1..=19).map(|v| v as f32).collect();
        assert_eq!(lane_sum(&values, |v| v), 190.0);
        assert_eq!(lane_sum(&values[..3], |v| v * v), 14.0);
    }

    /// Reproducible values in -2..2 (a linear congruential sequence).
    fn wobbly(seed: u32, n: usize) -> Vec<f32> {
        let mut state = seed;
        (0..n)
            .map(|_| {
                state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
                (state >> 8) as f32 / (1u32 << 24) as f32 * 4.0 - 2.0
            })
            .collect()
    }

    #[test]
    fn block_distance_is_the_eight_lane_sum_bit_for_bit() {
        // The sum as first written: eight lanes over the block in order, then the lanes added.
        let reference = |a: &[f32], b: &[f32]| -> f32 {
            let mut worst = 0f32;
            for (ba, bb) in a.chunks_exact(BLOCK_LEN).zip(b.chunks_exact(BLOCK_LEN)) {
                let mut lanes = [0f32; 8];
                for (ca, cb) in ba.chunks_exact(8).zip(bb.chunks_exact(8)) {
                    for l in 0..8 {
                        lanes[l] += (ca[l] - cb[l]) * (ca[l] - cb[l]);
                    }
                }
                worst = worst.max(lanes.iter().sum::<f32>() / (3 * BLOCK * BLOCK) as f32);
            }
            worst.sqrt()
        };
        let len = 3 * 4 * BLOCK_LEN;
        for seed in 0..20 {
            let (a, b) = (wobbly(seed, len), wobbly(seed + 100, len));
            let d = block_distance(&a, &b, (12, 16), f32::MAX);
            assert_eq!(d.to_bits(), reference(&a, &b).to_bits(), "seed {seed}");
        }
    }

    #[test]
    fn colour_ends_are_those_of_a_stable_sort() {
        // Many bins tie along the paper-ink line (two flat colours): the ends are the first and
        // last bins in order, as a stable sort by position along the line leaves them.
        let per_channel = 192;
        let mut values = vec![0f32; 3 * per_channel];
        for b in 0..per_channel {
            let ink = b % 3 == 0;
            for c in 0..3 {
                let level = if ink {
                    40.0 + c as f32
                } else {
                    230.0 - c as f32
                };
                values[c * per_channel + b] = level + (b % 7) as f32 * 0.5;
            }
        }
        let colours = Colours::of(&values, per_channel);
        let channel = |c: usize| &values[c * per_channel..(c + 1) * per_channel];
        let axis: [f32; 3] = std::array::from_fn(|c| colours.ink[c] - colours.paper[c]);
        let length2: f32 = axis.iter().map(|v| v * v).sum();
        let mut along: Vec<(f32, usize)> = (0..per_channel)
            .map(|b| {
                let d: [f32; 3] = std::array::from_fn(|c| channel(c)[b] - colours.paper[c]);
                (
                    (0..3).map(|c| d[c] * axis[c]).sum::<f32>() / length2.max(1e-6),
                    b,
                )
            })
            .collect();
        along.sort_by(|x, y| x.0.total_cmp(&y.0));
        let end_bins = per_channel / END_SHARE;
        let mean_of = |bins: &[(f32, usize)]| -> [f32; 3] {
            std::array::from_fn(|c| {
                bins.iter().map(|&(_, b)| channel(c)[b]).sum::<f32>() / bins.len() as f32
            })
        };
        assert_eq!(
            colours.ends,
            [
                mean_of(&along[..end_bins]),
                mean_of(&along[per_channel - end_bins..])
            ]
        );
    }

    #[test]
    fn a_flat_face_is_all_zeros() {
        let mut a = vec![200.0; 12];
        a[3] = 201.0;
        normalise(&mut a, 4);
        assert!(a.iter().all(|&v| v == 0.0));
    }

    /// A face of one block (4 x 4 bins, 48 values) with paper colour `paper` and white ink: a
    /// fixed pattern plus `offsets` (value index, amount), so that block distances are known.
    fn block_face(paper: [f32; 3], offsets: &[(usize, f32)]) -> Face {
        let mut values: Vec<f32> = (0..BLOCK_LEN)
            .map(|k| if k % 2 == 0 { 1.0 } else { -1.0 })
            .collect();
        for &(k, amount) in offsets {
            values[k] += amount;
        }
        Face {
            samplings: vec![values; 9],
            bins: (BLOCK, BLOCK),
            colours: Colours {
                paper,
                ink: [250.0; 3],
                one_ink: true,
                ends: [paper, [250.0; 3]],
            },
            raw: vec![vec![0.0; BLOCK_LEN]; 9],
        }
    }

    /// The offset that moves a one-block face by `distance`.
    fn moved_by(distance: f32) -> f32 {
        distance * (BLOCK_LEN as f32).sqrt()
    }

    /// The papers of three kinds told apart by colour alone (red, blue, olive).
    const THREE_PAPERS: [[f32; 3]; 3] = [
        [220.0, 50.0, 47.0],
        [38.0, 139.0, 210.0],
        [133.0, 153.0, 0.0],
    ];

    /// Asserts that `group_faces` groups `faces` exactly as `kinds` do.
    fn assert_grouped_as(faces: &[Face], kinds: &[usize]) {
        let faces: Vec<&Face> = faces.iter().collect();
        let (labels, _) = group_faces(&faces, &ClassifierSettings::default());
        assert!(same_grouping(&labels, kinds), "labels {labels:?}");
    }

    /// Whether `labels` group the faces exactly as `kinds` do.
    fn same_grouping(labels: &[usize], kinds: &[usize]) -> bool {
        (0..kinds.len())
            .all(|a| (0..kinds.len()).all(|b| (labels[a] == labels[b]) == (kinds[a] == kinds[b])))
    }

    #[test]
    fn copies_of_one_colour_whose_shapes_differ_by_offset_stay_one_kind() {
        // Issue 11 (glyph-colour seed 133): one glyph in three colours; each kind's copies
        // come at two sub-pixel offsets whose shapes differ by 0.15, above the kind threshold
        // (about 0.14: kinds differ by little more than that in shape, only by colour).
        let papers = THREE_PAPERS;
        let (kind_step, offset_step) = (moved_by(0.3), moved_by(0.15));
        let mut faces = Vec::new();
        let mut kinds = Vec::new();
        for (kind, paper) in papers.iter().enumerate() {
            for copy in 0..4 {
                let offset = if copy % 2 == 0 { 0.0 } else { offset_step };
                faces.push(block_face(*paper, &[(kind, kind_step), (10, offset)]));
                kinds.push(kind);
            }
        }
        assert_grouped_as(&faces, &kinds);
    }

    #[test]
    fn copies_of_one_colour_drifting_across_the_board_stay_one_kind() {
        // Issue 11 (glyph-colour seed 1053): one glyph in three colours on a large board whose
        // pitch is a twentieth of a pixel off, so each kind's copies drift apart in shape
        // with their distance on the board (each with a little noise of its own), the
        // furthest by three and a half kind thresholds.
        let papers = THREE_PAPERS;
        let mut faces = Vec::new();
        let mut kinds = Vec::new();
        for copy in 0..12 {
            for (kind, paper) in papers.iter().enumerate() {
                let drift = moved_by(0.02 * copy as f32);
                let jitter = moved_by(if copy % 2 == 0 { 0.015 } else { -0.015 });
                faces.push(block_face(*paper, &[(10, drift), (20 + kind, jitter)]));
                kinds.push(kind);
            }
        }
        assert_grouped_as(&faces, &kinds);
    }

    /// A face of `paper` with a small mark (shape offsets), its bins all paper.
    fn solid_face(paper: [f32; 3], offsets: &[(usize, f32)]) -> Face {
        let per_channel = BLOCK * BLOCK;
        let bins: Vec<f32> = (0..3 * per_channel)
            .map(|i| paper[i / per_channel])
            .collect();
        Face {
            raw: vec![bins; 9],
            ..block_face(paper, offsets)
        }
    }

    /// Faces of one shape painted `papers`, each copied exactly in colour (twice each, the
    /// copies a little apart in shape: resampling), with the kind each belongs to.
    fn flat_copies(papers: &[[f32; 3]]) -> (Vec<Face>, Vec<usize>) {
        let noise = moved_by(0.05);
        let faces = papers
            .iter()
            .enumerate()
            .flat_map(|(k, &paper)| {
                [
                    solid_face(paper, &[(k, noise)]),
                    solid_face(paper, &[(k + 8, noise)]),
                ]
            })
            .collect();
        let kinds = (0..papers.len()).flat_map(|k| [k, k]).collect();
        (faces, kinds)
    }

    #[test]
    fn exact_copies_of_close_colours_stay_apart() {
        // Our browser game's colour-only tiles: one star on 40 colours, some 32 levels apart
        // (under the 44 that compression and tints need), every copy the same to a level.
        let (faces, kinds) = flat_copies(&[
            [90.0, 160.0, 60.0],
            [90.0, 160.0, 92.0],
            [200.0, 40.0, 40.0],
            [40.0, 40.0, 200.0],
        ]);
        assert_grouped_as(&faces, &kinds);
    }

    #[test]
    fn a_tinted_copy_without_an_exact_copy_keeps_its_kind() {
        // Copies of one colour, one of them tinted 30 levels (selected): no exact copy of its
        // colour, so only the wide colour rule may part it, and 30 is under it.
        let (mut faces, mut kinds) = flat_copies(&[[200.0, 40.0, 40.0], [40.0, 40.0, 200.0]]);
        faces.push(solid_face([90.0, 160.0, 60.0], &[(3, moved_by(0.05))]));
        faces.push(solid_face([90.0, 160.0, 90.0], &[(11, moved_by(0.05))]));
        kinds.extend([2, 2]);
        assert_grouped_as(&faces, &kinds);
    }

    #[test]
    fn two_shapes_of_one_colour_stay_two_kinds() {
        // Two glyphs on one paper, two copies each: copies 0.2 apart (so the kind threshold is
        // 0.6), the glyphs 0.75 apart, within twice the threshold but not alike.
        let paper = [211.0, 54.0, 130.0];
        let glyph = moved_by(0.75);
        let noise = moved_by(0.2);
        let faces = [
            block_face(paper, &[]),
            block_face(paper, &[(20, noise)]),
            block_face(paper, &[(0, glyph)]),
            block_face(paper, &[(0, glyph), (21, noise)]),
        ];
        let faces: Vec<&Face> = faces.iter().collect();
        let (labels, _) = group_faces(&faces, &ClassifierSettings::default());
        assert!(same_grouping(&labels, &[0, 0, 1, 1]), "labels {labels:?}");
    }

    #[test]
    fn kinds_that_differ_by_a_small_corner_mark_stay_apart() {
        // GNOME postmodern's flowers and seasons: alike but for a small label in a corner (a
        // 2 x 2-bin mark, diluted in its 4 x 4-bin block under the kind threshold). Each kind
        // has a copy with noise spread over the whole face, which must stay linked to it; four
        // other kinds set the scale.
        let paper = [230.0, 225.0, 210.0];
        let corner: Vec<usize> = (0..2)
            .flat_map(|y| (0..2).flat_map(move |x| (0..3).map(move |c| (y * BLOCK + x) * 3 + c)))
            .collect();
        let mark: Vec<(usize, f32)> = corner.iter().map(|&k| (k, 0.9)).collect();
        let noise: Vec<(usize, f32)> = (0..BLOCK_LEN)
            .map(|k| (k, 0.03 * ((k * 37 % 7) as f32 - 3.0) / 3.0))
            .collect();
        let with = |a: &[(usize, f32)], b: &[(usize, f32)]| -> Vec<(usize, f32)> {
            a.iter().chain(b).copied().collect()
        };
        let mut faces = vec![
            block_face(paper, &[]),
            block_face(paper, &noise),
            block_face(paper, &mark),
            block_face(paper, &with(&mark, &noise)),
        ];
        let mut kinds = vec![0, 0, 1, 1];
        for other in 0..4 {
            let shape = [(30 + other, moved_by(2.0))];
            faces.push(block_face(paper, &shape));
            faces.push(block_face(paper, &with(&shape, &noise)));
            kinds.extend([2 + other, 2 + other]);
        }
        assert_grouped_as(&faces, &kinds);
    }

    /// The distances (`n * n`) between faces placed at `points` on a line.
    fn line_distances(points: &[f32]) -> Vec<f32> {
        let n = points.len();
        (0..n * n)
            .map(|k| (points[k / n] - points[k % n]).abs())
            .collect()
    }

    #[test]
    fn a_group_of_close_pairs_parts_into_the_pairs() {
        // Three kinds alike but for a small part (one suit's numbers), twins 0.2-0.5 apart,
        // kinds 1.1 apart or more: one group under a threshold the copies' noise raised.
        let points = [0.0f32, 0.3, 1.4, 1.6, 2.8, 3.3];
        let dist = line_distances(&points);
        let parts = split_into_pairs(&dist, points.len(), (0..6).collect(), 2.0);
        assert_eq!(parts, vec![vec![0, 1], vec![2, 3], vec![4, 5]]);
    }

    #[test]
    fn copies_of_one_kind_closer_in_pairs_stay_one_group() {
        // Six copies of one kind in three closer pairs, all within the copies' noise; and
        // a group of four, which may be one kind of four copies, is never parted.
        let points = [0.0f32, 0.02, 0.2, 0.22, 0.4, 0.42];
        let dist = line_distances(&points);
        let group: Vec<usize> = (0..6).collect();
        assert_eq!(split_into_pairs(&dist, 6, group.clone(), 1.0), vec![group]);
        let apart = line_distances(&[0.0f32, 0.3, 1.4, 1.6]);
        let four: Vec<usize> = (0..4).collect();
        assert_eq!(split_into_pairs(&apart, 4, four.clone(), 2.0), vec![four]);
    }

    #[test]
    fn odd_singleton_joins_its_closest_group() {
        // Faces 0, 1, 2 alike; 3 a bit off (a selected tile); 4, 5 another kind.
        let points = [0.0f32, 0.01, 0.02, 0.4, 5.0, 5.01];
        let n = points.len();
        let dist = line_distances(&points);
        let mut groups = vec![vec![0, 1, 2], vec![3], vec![4, 5]];
        repair_odd_groups(&dist, n, &mut groups);
        assert_eq!(groups.len(), 2);
        assert!(groups.iter().all(|g| g.len() % 2 == 0));
    }

    #[test]
    fn faces_with_no_copy_do_not_swell_the_copy_noise() {
        // Two kinds of two exact copies (0.01 apart, 1.9 from each other) and five cells of
        // wallpaper read as tiles, each about 1.5 from everything: the copies' noise is the
        // copies' own, so the two kinds stay apart.
        let n = 9;
        let mut dist = vec![0f32; n * n];
        for i in 0..n {
            for j in 0..n {
                if i != j {
                    dist[i * n + j] = 1.4 + 0.03 * (i + j) as f32;
                }
            }
        }
        for (a, b) in [(5, 7), (6, 8)] {
            dist[a * n + b] = 0.01;
            dist[b * n + a] = 0.01;
        }
        for (a, b) in [(5, 6), (5, 8), (7, 6), (7, 8)] {
            dist[a * n + b] = 1.9;
            dist[b * n + a] = 1.9;
        }
        let noise = copy_noise(&dist, n);
        assert!(noise < 0.1, "copy noise {noise}");
        assert!(COPY_NOISE_FACTOR * noise < 1.9);
    }
}
