//! The tile's span within the pitch: where the tiles end and the gap begins.

use std::ops::Range;

use image::RgbaImage;

use crate::vision::features::{commonest_bin, outside_band, pixel_range, rect_pixels};

use super::*;

/// The colours a gap between tiles is judged by.
#[derive(Clone, Debug)]
pub(super) struct Colours {
    /// The tiles' border colour, one for all (see [`Extent::tile_colour`]).
    pub(super) border: [f32; 3],
    /// Each tile's own colour, when the cells' middles show faces (see [`tiles_own_colours`]).
    pub(super) own: Option<CellColours>,
    /// The colour around the board; `None` when the board fills the image.
    pub(super) background: Option<[f32; 3]>,
}

impl Colours {
    /// The colour most tiles show: the median of their own, else the border colour.
    fn typical(&self) -> [f32; 3] {
        self.own.as_ref().map_or(self.border, |own| own.typical)
    }

    /// The tile colours a strip may be judged against: the one border colour, then each
    /// tile's own. The border colour misses the tiles when the band it is read from lies in
    /// the gap (tiles well inside the pitch on a panel); each tile's own misses them when its
    /// middle is a large glyph or grain, leaving the middles as unlike it as any gap.
    fn references(&self) -> impl Iterator<Item = TileColours<'_>> {
        std::iter::once(TileColours::Uniform(self.border))
            .chain(self.own.as_ref().map(TileColours::PerCell))
    }
}

/// A reference for the tiles' colour: one for all, or each tile's (flat tiles of many colours).
#[derive(Clone, Copy, Debug)]
pub(super) enum TileColours<'a> {
    /// Every tile's.
    Uniform([f32; 3]),
    /// Each cell's own on the board's lattice.
    PerCell(&'a CellColours),
}

/// Each cell's own colour on the board's lattice: the commonest colour of its middle, `None`
/// where the middle shows no face.
#[derive(Clone, Debug)]
pub(super) struct CellColours {
    /// The lattice on x and y, with the board's first column and row on each.
    lattice: [(Axis, i64); 2],
    cols: usize,
    rows: usize,
    /// Row by row.
    colours: Vec<Option<[f32; 3]>>,
    /// The per-channel median of the colours.
    pub(super) typical: [f32; 3],
}

impl TileColours<'_> {
    /// The colour of the tile in cell `across` (counted from the board's first along the axis
    /// the lines cross) at pixel `along` of the other axis; `None` where no tile shows.
    pub(super) fn at(&self, vertical: bool, across: usize, along: usize) -> Option<[f32; 3]> {
        let cells = match self {
            TileColours::Uniform(colour) => return Some(*colour),
            TileColours::PerCell(cells) => cells,
        };
        let (axis, first) = cells.lattice[usize::from(vertical)];
        let offset = (along as f64 + 0.5 - axis.at(first as f64)) / axis.pitch;
        let (cols, rows) = (cells.cols, cells.rows);
        let (count_along, count_across) = if vertical { (rows, cols) } else { (cols, rows) };
        if offset < 0.0 || offset >= count_along as f64 || across >= count_across {
            return None;
        }
        let k = offset as usize;
        let (row, col) = if vertical { (k, across) } else { (across, k) };
        cells.colours[row * cols + col]
    }
}

/// The image seen across one axis: lines at a position along the axis, over `band` of the
/// other one (`vertical`: columns x over rows `band`).
pub(super) struct Across<'a> {
    pub(super) image: &'a RgbaImage,
    pub(super) vertical: bool,
    pub(super) band: (usize, usize),
    pub(super) colours: Colours,
}

impl Across<'_> {
    /// The fraction of the places along strips `width` wide centred on lines (image
    /// coordinates, each with the cells across it, counted from the board's first) where some
    /// pixel of the strip's width is unlike those cells' tiles (by `reference`): further from
    /// each tile's colour
    /// than a twelfth of the way to the background's, and at least 30 levels over R, G, B (48
    /// when the background is unknown). Places beside no tile are left out. Taking any pixel
    /// across a narrow strip keeps a thin line that a rescaling has blurred over two pixels.
    fn unlike_tile_fraction(
        &self,
        lines: &[(f64, Range<usize>)],
        width: f64,
        reference: TileColours,
    ) -> Option<f64> {
        let dist = |a: &[f32; 3], b: &[u8]| -> f32 {
            (0..3).map(|c| (a[c] - f32::from(b[c])).abs()).sum()
        };
        let limit = |tile: &[f32; 3]| {
            self.colours.background.map_or(48.0, |bg| {
                ((0..3).map(|c| (bg[c] - tile[c]).abs()).sum::<f32>() / 12.0).max(30.0)
            })
        };
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let (across, along) = if self.vertical { (w, h) } else { (h, w) };
        let raw = self.image.as_raw();
        let (mut unlike, mut total) = (0usize, 0usize);
        for (p, cells) in lines {
            let p = *p;
            // The pixels whose centres lie in the strip, or the one under its centre.
            let (a, b) = pixel_range(p - width / 2.0, p + width / 2.0, across as u32);
            let (a, b) = if b > a {
                (a as usize, b as usize)
            } else if p >= 0.0 && p < across as f64 {
                (p as usize, p as usize + 1)
            } else {
                continue;
            };
            for j in self.band.0..self.band.1.min(along) {
                // At most the two cells beside a strip.
                let mut beside = [[0f32; 3]; 2];
                let mut n = 0;
                for k in cells.clone().take(2) {
                    if let Some(tile) = reference.at(self.vertical, k, j) {
                        beside[n] = tile;
                        n += 1;
                    }
                }
                let tiles = &beside[..n];
                if tiles.is_empty() {
                    continue;
                }
                let any = (a..b).any(|i| {
                    let (x, y) = if self.vertical { (i, j) } else { (j, i) };
                    let o = (y * w + x) * 4;
                    tiles.iter().all(|t| dist(t, &raw[o..o + 3]) > limit(t))
                });
                unlike += usize::from(any);
                total += 1;
            }
        }
        (total > 0).then(|| unlike as f64 / total as f64)
    }

    /// Whether strips `width` wide along `strip` lines part the tiles, seen beside lines
    /// through the cells' middles (`middles`): by either reference for the tiles' colour, the
    /// strips are unlike the tiles over at least half of them and over at least half of what
    /// the middles leave.
    fn strip_parts_tiles(
        &self,
        strip: &[(f64, Range<usize>)],
        middles: &[(f64, Range<usize>)],
        width: f64,
    ) -> bool {
        self.colours.references().any(|reference| {
            let strip = self.unlike_tile_fraction(strip, width, reference);
            let middles = self.unlike_tile_fraction(middles, width, reference);
            match (strip, middles) {
                (Some(strip), Some(cells)) => strip >= 0.5 && strip >= cells + 0.5 * (1.0 - cells),
                _ => true,
            }
        })
    }

    /// The median distance (summed over R, G, B) from the background's colour of the pixels
    /// under lines at `positions` (image coordinates); `None` when the background is unknown
    /// or no line lies in the image.
    fn background_distance(&self, positions: &[f64]) -> Option<f64> {
        let bg = self.colours.background?;
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let (across, along) = if self.vertical { (w, h) } else { (h, w) };
        let raw = self.image.as_raw();
        let mut distances: Vec<f32> = Vec::new();
        for &p in positions {
            if p < 0.0 || p >= across as f64 {
                continue;
            }
            let i = p as usize;
            for j in self.band.0..self.band.1.min(along) {
                let (x, y) = if self.vertical { (i, j) } else { (j, i) };
                let o = (y * w + x) * 4;
                distances.push((0..3).map(|c| (bg[c] - f32::from(raw[o + c])).abs()).sum());
            }
        }
        crate::stats::median(&mut distances).map(f64::from)
    }
}

/// The share of the richest middle's edges a cell's middle must hold to be taken for a tile's
/// (see [`tiles_own_colours`]): a plain cell's middle holds next to none.
const RICH_MIDDLE: f32 = 0.25;

/// Each cell's own colour on the board (x and y lattices, each with the board's first column
/// or row and count): the commonest colour (see [`commonest_bin`]) of its middle where the
/// middle holds a face, `None` elsewhere; `None` when no middle holds an edge. A middle holds a
/// face when its edges are in the upper of the two groups all middles' edges part into (see
/// [`crate::stats::upper_group_from`]: a textured panel puts a few edges in every empty cell,
/// seed 275) and at least [`RICH_MIDDLE`] of the most any middle holds. (The cells' border band, by whose colour the board is found, lies in the gap when the
/// tiles sit well inside the pitch: seed 33067, 26 px tiles in a 34 px pitch.)
pub(super) fn tiles_own_colours(
    edges: &Edges,
    lattice: [(Axis, i64, usize); 2],
) -> Option<CellColours> {
    let [(x_axis, col0, cols), (y_axis, row0, rows)] = lattice;
    let (px, py) = (x_axis.pitch, y_axis.pitch);
    let middles: Vec<(f32, (f64, f64, f64, f64))> = (0..rows)
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .map(|(r, c)| {
            let left = x_axis.at((col0 + c as i64) as f64);
            let top = y_axis.at((row0 + r as i64) as f64);
            let middle = (
                left + 0.25 * px,
                top + 0.25 * py,
                left + 0.75 * px,
                top + 0.75 * py,
            );
            let inside = |map| inside_strength(map, middle.0, middle.1, middle.2, middle.3);
            (inside(&edges.vertical) + inside(&edges.horizontal), middle)
        })
        .collect();
    let most = middles.iter().map(|m| m.0).fold(0f32, f32::max);
    if most <= 0.0 {
        return None;
    }
    // A textured panel puts a few edges in every empty cell: the faces are the upper of the
    // two groups the middles' edges part into, when they part.
    let mut details: Vec<f64> = middles.iter().map(|m| f64::from(m.0)).collect();
    let upper = crate::stats::upper_group_from(&mut details).unwrap_or(0.0) as f32;
    let least = upper.max(RICH_MIDDLE * most);
    let colours: Vec<Option<[f32; 3]>> = middles
        .iter()
        .map(|&(detail, middle)| {
            if detail < least {
                return None;
            }
            let pixels = rect_pixels(edges.image, middle, 2).map(|p| [p[0], p[1], p[2]]);
            commonest_bin(pixels).map(|(sums, n)| sums.map(|s| s as f32 / n as f32))
        })
        .collect();
    let typical = std::array::from_fn(|c| {
        let mut v: Vec<f32> = colours.iter().flatten().map(|g| g[c]).collect();
        crate::stats::median(&mut v).unwrap_or(0.0)
    });
    Some(CellColours {
        lattice: [(x_axis, col0), (y_axis, row0)],
        cols,
        rows,
        colours,
        typical,
    })
}

/// The per-channel median colour of a band 15% to 45% of a pitch outside the board's box
/// (`xs`, `ys` in pixels); `None` when too little of it lies in the image.
pub(super) fn outside_colour(
    image: &RgbaImage,
    xs: (usize, usize),
    ys: (usize, usize),
    px: f64,
    py: f64,
) -> Option<[f32; 3]> {
    let (x0, x1, y0, y1) = (xs.0 as f64, xs.1 as f64, ys.0 as f64, ys.1 as f64);
    let mut channels = outside_band(image, [x0, y0, x1, y1], [px, py])?;
    Some(std::array::from_fn(|c| {
        f32::from(crate::stats::median(&mut channels[c]).unwrap_or(0))
    }))
}

/// Where the tiles start (profile coordinates) and how long they are, from the board profile
/// folded at the pitch: the whole pitch from the main edge, and the tiles less a strip when a
/// second edge within 30% of a pitch of the main one marks a gap (or a line between the tiles),
/// kept by the caller only when the other axis shows one too. A strip marks a gap when the
/// strip between them is unlike the tiles' colour (by either of [`Colours::references`]), over
/// at least half of it and over at least half of what the middles of the cells leave (a gap or a dividing line runs beside
/// every tile; a 3D edge shows only beside an empty cell, the next tile covering it elsewhere,
/// and an edge drawn inside the faces leaves the strip as much like the tiles as the cells'
/// middles are).
pub(super) fn tile_span(
    profile: &[f32],
    axis: Axis,
    (first, count): (i64, usize),
    across: &Across,
) -> Span {
    let start = axis.at(first as f64);
    let folded = |t: f64| comb_sum(profile, axis, (first, count), t) / (count + 1) as f64;
    let reach = 0.3 * axis.pitch;
    let step = 0.25;
    let n = (reach / step) as i64;
    let values: Vec<(f64, f64)> = (-n..=n)
        .map(|i| (i as f64 * step, folded(i as f64 * step)))
        .collect();
    let Some(&(t_main, main)) = values.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Span {
            whole: (start, axis.pitch),
            parted: None,
        };
    };
    let peaks = strip_bounds(&values, (t_main, main));
    let second = peaks
        .iter()
        .filter(|&&(t, _)| t != t_main)
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1));
    // Lines through the middle of the strip from a to b (offsets, a < b) at the interior
    // boundaries (a profile index i is the step between pixels i and i + 1), each with the
    // cells whose tiles it is judged against: a strip lies between the cells before and
    // after its boundary, a cell's middle in the cell after it.
    let lines = |offset: f64, cells: usize| -> Vec<(f64, Range<usize>)> {
        (1..count)
            .map(|k| {
                let at = start + k as f64 * axis.pitch + offset + 1.0;
                (at, k + 1 - cells..k + 1)
            })
            .collect()
    };
    let parts_tiles = |(a, b): (f64, f64)| -> bool {
        let width = (b - a).min(1.5);
        across.strip_parts_tiles(
            &lines((a + b) / 2.0, 2),
            &lines(t_main + axis.pitch / 2.0, 1),
            width,
        )
    };
    let strip_of = |t: f64| (t.min(t_main), t.max(t_main));
    let chosen = second.map(|(t, _)| strip_of(t)).filter(|&s| parts_tiles(s));
    // A 3D side drawn in layers puts edges inside it, and the strongest one after the main
    // edge may bound a layer, not the gap. The gap is where the background shows: when the
    // chosen strip is further from the background's colour than the tiles are (tile art), a
    // strip from the main edge to a neighbouring edge less than half as far replaces it.
    let background_like = |(a, b): (f64, f64)| {
        let positions: Vec<f64> = lines((a + b) / 2.0, 2).iter().map(|l| l.0).collect();
        across.background_distance(&positions)
    };
    let chosen = chosen.map(|strip| {
        let (Some(own), Some(bg)) = (background_like(strip), across.colours.background) else {
            return strip;
        };
        let tile_to_bg: f64 = (0..3)
            .map(|c| f64::from((bg[c] - across.colours.typical()[c]).abs()))
            .sum();
        if own <= tile_to_bg {
            return strip;
        }
        peaks
            .windows(2)
            .map(|pair| (pair[0].0, pair[1].0))
            .filter(|&(a, b)| b - a >= 1.5 && (a, b) != strip && (a == t_main || b == t_main))
            .filter_map(|s| background_like(s).map(|d| (s, d)))
            .filter(|&(s, d)| d < 0.5 * own && parts_tiles(s))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(strip, |(s, _)| s)
    });
    let whole = (start + t_main, axis.pitch);
    let parted = chosen.map(|(a, b)| (start + b, axis.pitch - (b - a)));
    Span { whole, parted }
}

/// The local maxima of the folded profile `values` (offset, strength) strong enough to bound a
/// strip, the main edge at `t_main` among them.
fn strip_bounds(values: &[(f64, f64)], (t_main, main): (f64, f64)) -> Vec<(f64, f64)> {
    (1..values.len() - 1)
        .map(|i| (i, values[i]))
        .filter(|&(i, (t, v))| {
            t == t_main
                || ((t - t_main).abs() >= 1.5
                    && v >= 0.35 * main
                    && v >= values[i - 1].1
                    && v > values[i + 1].1)
        })
        .map(|(_, peak)| peak)
        .collect()
}

/// Where the tiles start along one axis and how long they are (profile coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Span {
    /// The tiles as long as the pitch, from the main edge.
    pub(super) whole: (f64, f64),
    /// The tiles less the strip that parts them, when one does.
    pub(super) parted: Option<(f64, f64)>,
}
