//! The tile's span within the pitch: where the tiles end and the gap begins.

use image::RgbaImage;

use crate::vision::features::{outside_band, pixel_range};

use super::*;

/// The colours a gap between tiles is judged by.
#[derive(Clone, Copy, Debug)]
pub(super) struct Colours {
    /// The tiles' own border colour.
    pub(super) tile: [f32; 3],
    /// The colour around the board; `None` when the board fills the image.
    pub(super) background: Option<[f32; 3]>,
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
    /// The fraction of the places along strips `width` wide centred on `positions` (image
    /// coordinates) where some pixel of the strip's width is unlike the tiles' own colour:
    /// further from it than a twelfth of the way to the background's, and at least 30 levels
    /// over R, G, B (48 when the background is unknown). Taking any pixel across a narrow strip
    /// keeps a thin line that a rescaling has blurred over two pixels.
    fn unlike_tile_fraction(&self, positions: &[f64], width: f64) -> Option<f64> {
        let tile = self.colours.tile;
        let dist = |a: &[f32; 3], b: &[u8]| -> f32 {
            (0..3).map(|c| (a[c] - f32::from(b[c])).abs()).sum()
        };
        let limit = self.colours.background.map_or(48.0, |bg| {
            ((0..3).map(|c| (bg[c] - tile[c]).abs()).sum::<f32>() / 12.0).max(30.0)
        });
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let (across, along) = if self.vertical { (w, h) } else { (h, w) };
        let raw = self.image.as_raw();
        let (mut unlike, mut total) = (0usize, 0usize);
        for &p in positions {
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
                let any = (a..b).any(|i| {
                    let (x, y) = if self.vertical { (i, j) } else { (j, i) };
                    let o = (y * w + x) * 4;
                    dist(&tile, &raw[o..o + 3]) > limit
                });
                unlike += usize::from(any);
                total += 1;
            }
        }
        (total > 0).then(|| unlike as f64 / total as f64)
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
/// strip between them is unlike the tiles' own colour, over at least half of it and over at
/// least half of what the middles of the cells leave (a gap or a dividing line runs beside
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
    // boundaries (a profile index i is the step between pixels i and i + 1).
    let lines = |offset: f64| -> Vec<f64> {
        (1..count)
            .map(|k| start + k as f64 * axis.pitch + offset + 1.0)
            .collect()
    };
    let parts_tiles = |(a, b): (f64, f64)| -> bool {
        let width = (b - a).min(1.5);
        let strip = across.unlike_tile_fraction(&lines((a + b) / 2.0), width);
        let cells = across.unlike_tile_fraction(&lines(t_main + axis.pitch / 2.0), width);
        match (strip, cells) {
            (Some(strip), Some(cells)) => strip >= 0.5 && strip >= cells + 0.5 * (1.0 - cells),
            _ => true,
        }
    };
    let strip_of = |t: f64| (t.min(t_main), t.max(t_main));
    let chosen = second.map(|(t, _)| strip_of(t)).filter(|&s| parts_tiles(s));
    // A 3D side drawn in layers puts edges inside it, and the strongest one after the main
    // edge may bound a layer, not the gap. The gap is where the background shows: when the
    // chosen strip is further from the background's colour than the tiles are (tile art), a
    // strip from the main edge to a neighbouring edge less than half as far replaces it.
    let background_like = |(a, b): (f64, f64)| across.background_distance(&lines((a + b) / 2.0));
    let chosen = chosen.map(|strip| {
        let (Some(own), Some(bg)) = (background_like(strip), across.colours.background) else {
            return strip;
        };
        let tile_to_bg: f64 = (0..3)
            .map(|c| f64::from((bg[c] - across.colours.tile[c]).abs()))
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
