//! A tile's face as kinds are compared: box-averaged bins, normalised, with its paper and ink
//! colours.

use image::RgbaImage;

use crate::board::Pos;
use crate::vision::features::{pixel_range, rgb_distance};
use crate::vision::{ClassifierSettings, Geometry};

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
pub(super) const BLOCK: usize = 4;

impl Face {
    /// The centred feature vector.
    pub fn values(&self) -> &[f32] {
        &self.samplings[4]
    }

    /// The share of the centred sampling's bins within `within` (Euclidean, 0-255 levels) of
    /// `colour` (0 when the raw bins are missing).
    pub(super) fn share_near(&self, colour: [f32; 3], within: f32) -> f32 {
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
    pub(super) fn window_distance(&self, other: &Face, bound: f32) -> f32 {
        other.samplings.iter().fold(bound, |best, v| {
            best.min(window_distance(self.values(), v, self.bins, best))
        })
    }

    /// The window distance of the centred samplings only (an upper bound of
    /// [`Face::window_distance`]).
    pub(super) fn centred_window_distance(&self, other: &Face) -> f32 {
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
    pub(super) fn of(values: &[f32], per_channel: usize) -> Colours {
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
    pub(super) fn distance(&self, other: &Colours) -> f32 {
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
    pub(super) fn ink_distance(&self, other: &Colours) -> f32 {
        if self.one_ink && other.one_ink {
            rgb_distance(self.ink, other.ink)
        } else {
            0.0
        }
    }
}

/// The ends of a one-ink face's colour line are the mean of one in this many of its bins.
pub(super) const END_SHARE: usize = 20;

/// Values per block in the block-major layout: `BLOCK` x `BLOCK` bins x 3 channels.
pub(super) const BLOCK_LEN: usize = BLOCK * BLOCK * 3;

/// Where each channel-major value of `nx` x `ny` bins goes in the block-major layout: blocks
/// of `BLOCK` x `BLOCK` bins, each block's values contiguous (zero-padded at the right and
/// bottom), so distances vectorise. Computed once per board, applied to every sampling.
pub(super) fn block_layout((nx, ny): (usize, usize)) -> Vec<usize> {
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
pub(super) fn block_distance(a: &[f32], b: &[f32], (nx, ny): (usize, usize), bound: f32) -> f32 {
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
pub(super) fn bins(face_w: f64, face_h: f64) -> (usize, usize) {
    let ratio = if face_w > 0.0 && face_h > 0.0 {
        face_h / face_w
    } else {
        1.0
    };
    let blocks_down = ((BINS_ACROSS as f64 * ratio / BLOCK as f64).round() as usize).clamp(1, 8);
    (BINS_ACROSS, blocks_down * BLOCK)
}

/// The face rectangle of a cell: the tile less `trim` of its size on every side.
pub(super) fn face_rect(geometry: &Geometry, pos: Pos, trim: f64) -> (f64, f64, f64, f64) {
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
pub(super) fn faces_of(
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

/// Raw bins (channel-major, `nx` x `ny` each) normalised (see [`normalisation`]) into the
/// block-major `layout` (see [`block_layout`]); all zeros for a face with almost no contrast.
pub(super) fn normalised_blocks(
    values: &[f32],
    (nx, ny): (usize, usize),
    layout: &[usize],
) -> Vec<f32> {
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
pub(super) fn normalise(values: &mut [f32], per_channel: usize) {
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
pub(super) fn lane_sum(values: &[f32], f: impl Fn(f32) -> f32) -> f32 {
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
