//! The colours round the board (the background, a panel) that a cell read empty shows.

use image::RgbaImage;

use crate::vision::features::{OUTSIDE_BAND, joined_sides, rect_pixels, side_bands};
use crate::vision::{ClassifierSettings, Geometry};

use super::*;

/// The colours of the background seen just outside the board: a set of colour bins.
///
/// A band outside the board may show one flat colour, a gradient, a texture, a photo, or
/// several of them (a wallpaper behind part of the board, plain grey elsewhere). One colour
/// box around all of that would span most colours, tiles included; a set of small bins
/// holds each of them apart.
#[derive(Clone, Debug)]
pub(super) struct Background {
    /// One flag per colour bin (16 levels per channel): whether the colour is background.
    bins: Vec<bool>,
    /// The mean colour of the most common bin.
    pub(super) dominant: [f32; 3],
    /// The band (depth outside the board, as shares of a pitch) where a panel unlike the
    /// wider surroundings showed and joined these colours, if one did.
    pub(super) panel_band: Option<(f64, f64)>,
    /// The colours of the panels joined (see `panel_band`) alone, if any joined that showed on
    /// every side of the board in colours the wider band seldom shows (under
    /// [`PANEL_APART_SHARE`] of it).
    panel_bins: Option<Vec<bool>>,
}

/// Levels per colour bin, as a shift.
const BIN_SHIFT: u32 = 4;
/// Bins per channel.
pub(super) const BINS: usize = 256 >> BIN_SHIFT;

pub(super) fn bin_of(p: &[u8]) -> usize {
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

    pub(super) fn contains(&self, p: &[u8]) -> bool {
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
pub(super) fn background(
    image: &RgbaImage,
    geometry: &Geometry,
) -> Option<(Background, Option<Background>)> {
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
pub(super) fn mark_widened(bins: &mut [bool], bin: usize) {
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
pub(super) fn empty_only_on_panel(
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
pub(super) const NEAR_PANEL_SHARE: f32 = 0.98;

/// Fraction of a cell's face that lies inside the background's colour box.
pub(super) fn background_fraction(
    image: &RgbaImage,
    rect: (f64, f64, f64, f64),
    bg: &Background,
) -> f32 {
    share_in_colours(image, rect, &bg.bins)
}

/// The colour bin of each pixel of `rect` (x0, y0, x1, y1), row by row.
pub(super) fn bins_in(
    image: &RgbaImage,
    rect: (f64, f64, f64, f64),
) -> impl Iterator<Item = usize> + '_ {
    rect_pixels(image, rect, 1).map(bin_of)
}

/// The share of the pixels of `rect` (x0, y0, x1, y1) whose colour bin is marked in `bins`
/// (1 for a rectangle holding no pixel).
pub(super) fn share_in_colours(
    image: &RgbaImage,
    rect: (f64, f64, f64, f64),
    bins: &[bool],
) -> f32 {
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
