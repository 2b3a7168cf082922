//! The board found from its objects instead of its tile borders: for games whose tiles have no
//! body (emoji or icons drawn straight on the background), where no cell shows four edges.
//!
//! 1. Pixels on a sharp colour step are marked and the marks grown by a few pixels, so that
//!    each drawn object becomes one blob (its parts and its outline joined). Then by one
//!    pixel: objects that fill their cells, a few pixels apart or with a grid dot between
//!    them, merge into one blob otherwise. Then both again on the image under a slight blur:
//!    a textured panel or a noisy background marks steps everywhere and joins the objects,
//!    and the blur fades its steps more than the objects'. Each reading that finds a board
//!    offers it in turn, read only when the caller passed over the one before (a board whose
//!    tiles do not pair up: emoji on a mottled panel joined in twos and threes).
//! 2. Blobs far smaller than the large ones (grid dots, text) or far from square (text lines,
//!    bars) are dropped; blobs as large as a good part of the image (a photo background) too.
//! 3. The pitch on each axis is the largest period at which the blob centres agree in phase
//!    (the magnitude of their mean phasor, weighted by blob size, at least 90% of the best):
//!    the true pitch and its fractions agree, its multiples do not. Blobs wider or taller
//!    than a cell of it (buttons) then have no say: the lattice is found again without them
//!    where that places the rest better. A least-squares line through the centres, each at
//!    its lattice index, refines pitch and phase; it is reweighted a few times (Tukey's
//!    biweight) so that boxes far off their cells drop out.
//! 4. The board is the box of the largest group of blobs on the lattice whose members lie at
//!    most three cells apart; a blob wider or taller than a cell (a button, a panel) is no
//!    member, even when its centre lies on a lattice point, nor one whose cell leaves the
//!    image (a title bar's buttons above a board near the top). Where the members share one
//!    size a little under the pitch (tiles with a body, a gap between them), that is the
//!    tiles' size, centred in their cells; else a tile is its whole cell.

use image::RgbaImage;

use super::calibrate::MIN_PITCH;
use super::{Geometry, VisionError};

/// Largest pitch considered, in pixels.
const MAX_PITCH: f64 = 400.0;
/// A colour step (largest channel difference across two pixels) that marks an object.
const STEP: i32 = 48;
/// How far marks are grown to join an object's parts, in pixels.
const GROW: usize = 3;
/// How far marks are grown when [`GROW`] finds no board: objects a few pixels apart (emoji
/// filling their cells, a grid dot between them) merge into one blob at [`GROW`].
const TIGHT_GROW: usize = 1;
/// The Gaussian blur (sigma, pixels) under which the colour steps are read again when the
/// image's own steps find no board: a textured panel or a noisy background marks steps
/// everywhere and joins the objects into one.
const SMOOTHING: f32 = 1.0;
/// Times the lattice fit is reweighted to leave out objects whose box is off their cell.
const REWEIGHTS: usize = 6;
/// Residuals beyond this many robust standard deviations get no weight in the lattice fit.
const TUKEY: f64 = 2.5;
/// Largest growth of the pitch (a share of it) when the lattice is found again without the
/// objects that do not fit a cell.
const REFOUND_GROWTH: f64 = 0.15;
/// Largest spread (interquartile, a share of the median) of the objects' sizes for them to
/// be tile bodies of one size.
const BODY_SPREAD: f64 = 0.06;
/// Least size of a tile body, a share of the pitch.
const BODY_LEAST: f64 = 0.75;
/// Fewest blobs on the lattice for a board.
const MIN_BLOBS: usize = 6;

/// One connected object: its bounding box in pixels (`x1`, `y1` exclusive).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Blob {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Blob {
    fn width(&self) -> usize {
        self.x1 - self.x0
    }
    fn height(&self) -> usize {
        self.y1 - self.y0
    }
    fn centre(&self) -> [f64; 2] {
        [
            (self.x0 + self.x1) as f64 / 2.0,
            (self.y0 + self.y1) as f64 / 2.0,
        ]
    }
    fn size(&self) -> f64 {
        ((self.width() * self.height()) as f64).sqrt()
    }
}

/// A box in pixels: columns, then rows (ends exclusive).
pub type Region = ((usize, usize), (usize, usize));

/// An image's objects: its colour-step marks and the objects they make grown by [`GROW`],
/// found once for the board and, when there is none, for the merged objects.
pub struct Objects<'a> {
    image: &'a RgbaImage,
    marks: Vec<bool>,
    grown: Vec<Blob>,
}

impl<'a> Objects<'a> {
    /// The objects of `image`.
    pub fn of(image: &'a RgbaImage) -> Self {
        let (w, h) = (image.width() as usize, image.height() as usize);
        let marks = colour_steps(image);
        let grown = objects(&marks, w, h, GROW);
        Objects {
            image,
            marks,
            grown,
        }
    }

    /// The boards of body-less tiles found from the objects drawn on a lattice, one for each
    /// reading of them that finds one, in order: marks grown by [`GROW`], then by
    /// [`TIGHT_GROW`], then both under a blur of [`SMOOTHING`]. Each is read only when the
    /// one before it is passed over (the caller reads the board there and takes the first
    /// whose tiles pair up: a lattice of objects can be the wrong one, emoji on a mottled
    /// panel joined in twos and threes).
    pub fn boards(&self) -> impl Iterator<Item = Geometry> + '_ {
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let blurred = std::cell::OnceCell::new();
        let readings = [
            (false, GROW),
            (false, TIGHT_GROW),
            (true, GROW),
            (true, TIGHT_GROW),
        ];
        readings.into_iter().filter_map(move |(blur, grow)| {
            let found = if !blur && grow == GROW {
                board_of_objects(self.image, &self.grown)
            } else {
                let marks = if blur {
                    blurred.get_or_init(|| {
                        colour_steps(&imageproc::filter::gaussian_blur_f32(self.image, SMOOTHING))
                    })
                } else {
                    &self.marks
                };
                board_of_objects(self.image, &objects(marks, w, h, grow))
            };
            found.ok()
        })
    }

    /// The largest merged objects (see [`merged_objects`]).
    pub fn merged(&self) -> Vec<Region> {
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        merged_objects(&self.grown, w, h)
    }
}

/// Most merged objects [`merged_objects`] gives.
const MOST_MERGED: usize = 2;

/// The boxes of the largest of `objects` in a `w` by `h` image at least two [`MIN_PITCH`] on
/// each side and under half the image on either: where a board's tiles touch, their marks
/// join into one object that bounds the board. Largest first, at most [`MOST_MERGED`].
fn merged_objects(objects: &[Blob], w: usize, h: usize) -> Vec<Region> {
    let smallest = (2.0 * MIN_PITCH) as usize;
    let mut large: Vec<&Blob> = objects
        .iter()
        .filter(|b| b.width() >= smallest && b.height() >= smallest)
        .filter(|b| 2 * b.width() <= w && 2 * b.height() <= h)
        .collect();
    large.sort_by_key(|b| std::cmp::Reverse(b.width() * b.height()));
    large
        .iter()
        .take(MOST_MERGED)
        .map(|b| ((b.x0, b.x1), (b.y0, b.y1)))
        .collect()
}

/// The board of `objects` (see [`objects`]).
fn board_of_objects(image: &RgbaImage, objects: &[Blob]) -> Result<Geometry, VisionError> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let blobs = alike_blobs(objects, w, h);
    if blobs.len() < MIN_BLOBS {
        return Err(no_board("too few alike objects"));
    }
    let axes = lattice_axes(&blobs)?;
    let (blobs, mut axes) = without_oversized(blobs, axes);
    let on_lattice: Vec<([i64; 2], Blob)> = blobs
        .iter()
        .filter(|b| fits_cell(b, &axes))
        .filter_map(|b| lattice_index(&axes, b.centre()).map(|k| (k, *b)))
        .filter(|&(k, _)| cell_in_image(k, &axes, image))
        .collect();
    let group = largest_group(&on_lattice.iter().map(|&(k, _)| k).collect::<Vec<_>>());
    if group.len() < MIN_BLOBS {
        return Err(no_board("too few objects on one lattice"));
    }
    let members: Vec<([i64; 2], Blob)> = group.iter().map(|&i| on_lattice[i]).collect();
    refit_axes(&members, &mut axes);
    lattice_board(image, &members, &axes)
}

/// The blobs and their lattice `axes`, found again without the blobs wider or taller than a
/// cell (buttons): these pull the lattice off the tiles, or make a multiple of the pitch
/// agree. The lattice found again stands where it places at least as many of the rest, they
/// agree on it better, and its pitch is not much larger (see [`REFOUND_GROWTH`]: a few small
/// objects left, clutter or parts of tiles, agree at any large pitch).
fn without_oversized(blobs: Vec<Blob>, axes: [(f64, f64); 2]) -> (Vec<Blob>, [(f64, f64); 2]) {
    let fitting: Vec<Blob> = blobs
        .iter()
        .filter(|b| fits_cell(b, &axes))
        .copied()
        .collect();
    if fitting.len() == blobs.len() || fitting.len() < MIN_BLOBS {
        return (blobs, axes);
    }
    let placed = |axes: &[(f64, f64); 2]| {
        fitting
            .iter()
            .filter(|b| fits_cell(b, axes) && lattice_index(axes, b.centre()).is_some())
            .count()
    };
    let weights: Vec<f64> = fitting.iter().map(Blob::size).collect();
    let agreeing = |axes: &[(f64, f64); 2]| -> f64 {
        (0..2)
            .map(|a| {
                let along: Vec<f64> = fitting.iter().map(|b| b.centre()[a]).collect();
                agreement(&along, &weights, axes[a].0).0
            })
            .sum()
    };
    let near = |refound: &[(f64, f64); 2]| {
        (0..2).all(|a| refound[a].0 <= (1.0 + REFOUND_GROWTH) * axes[a].0)
    };
    match lattice_axes(&fitting) {
        Ok(refound)
            if near(&refound)
                && placed(&refound) >= placed(&axes)
                && agreeing(&refound) > agreeing(&axes) =>
        {
            (fitting, refound)
        }
        _ => (blobs, axes),
    }
}

/// The lattice (pitch, phase on each axis) of the blobs' centres (see [`lattice_axis`]).
fn lattice_axes(blobs: &[Blob]) -> Result<[(f64, f64); 2], VisionError> {
    let centres: Vec<[f64; 2]> = blobs.iter().map(Blob::centre).collect();
    let weights: Vec<f64> = blobs.iter().map(Blob::size).collect();
    let smallest = |axis: usize| {
        let mut sizes: Vec<f64> = blobs
            .iter()
            .map(|b| if axis == 0 { b.width() } else { b.height() } as f64)
            .collect();
        sizes.sort_by(f64::total_cmp);
        sizes[sizes.len() / 4].max(MIN_PITCH)
    };
    let mut axes = [(0.0, 0.0); 2];
    for (axis, slot) in axes.iter_mut().enumerate() {
        let along: Vec<f64> = centres.iter().map(|c| c[axis]).collect();
        *slot = lattice_axis(&along, &weights, smallest(axis))
            .ok_or_else(|| no_board("the objects do not repeat at one pitch"))?;
    }
    Ok(axes)
}

fn no_board(why: &str) -> VisionError {
    VisionError::NoBoard(why.to_string())
}

/// The lattice indices of a centre close to a lattice point (within 20% of the pitch) on both
/// axes (pitch, phase).
fn lattice_index(axes: &[(f64, f64); 2], c: [f64; 2]) -> Option<[i64; 2]> {
    let mut out = [0; 2];
    for axis in 0..2 {
        let (pitch, phase) = axes[axis];
        let k = ((c[axis] - phase) / pitch).round();
        if (c[axis] - phase - k * pitch).abs() > 0.2 * pitch {
            return None;
        }
        out[axis] = k as i64;
    }
    Some(out)
}

/// Whether the lattice cell `k` lies in the image (to half a pixel): the tiles of a board in
/// view do, while a title bar's buttons or a menu's words above a board that starts near the
/// top of the image can lie on a lattice point whose cell leaves it.
fn cell_in_image(k: [i64; 2], axes: &[(f64, f64); 2], image: &RgbaImage) -> bool {
    let limits = [f64::from(image.width()), f64::from(image.height())];
    (0..2).all(|a| {
        let (pitch, phase) = axes[a];
        let start = phase + k[a] as f64 * pitch - pitch / 2.0;
        start >= -0.5 && start + pitch <= limits[a] + 0.5
    })
}

/// Whether a blob fits within one cell of the lattice `axes` (pitch, phase), with 10% to
/// spare: a tile's object lies inside its cell, a button or panel wider than a cell does not.
fn fits_cell(blob: &Blob, axes: &[(f64, f64); 2]) -> bool {
    blob.width() as f64 <= 1.1 * axes[0].0 && blob.height() as f64 <= 1.1 * axes[1].0
}

/// Refines each axis (pitch, phase) by a robust least-squares line through the members' box
/// centres at their lattice indices, where it leaves the pitch by under 5%. A box centre is
/// off its cell's centre by a pixel or two with the object's shape, and by far more when the
/// box is not the object's (joined to a grid dot at a cell corner, a faint part left
/// unmarked): the fit is reweighted a few times with Tukey's biweight, so those drop out.
fn refit_axes(members: &[([i64; 2], Blob)], axes: &mut [(f64, f64); 2]) {
    for (axis, slot) in axes.iter_mut().enumerate() {
        let mut points: Vec<(f64, f64, f64)> = members
            .iter()
            .map(|(k, b)| (k[axis] as f64, b.centre()[axis], 1.0))
            .collect();
        let Some(mut fit) = least_squares(&points) else {
            continue;
        };
        for _ in 0..REWEIGHTS {
            let residuals: Vec<f64> = points
                .iter()
                .map(|&(k, x, _)| x - fit.1 - k * fit.0)
                .collect();
            let mut spread: Vec<f64> = residuals.iter().map(|r| r.abs()).collect();
            spread.sort_by(f64::total_cmp);
            // The median absolute residual as a standard deviation, at least a pixel.
            let scale = (1.4826 * spread[spread.len() / 2]).max(1.0);
            for (point, r) in points.iter_mut().zip(&residuals) {
                let u = r / (TUKEY * scale);
                point.2 = if u.abs() < 1.0 {
                    (1.0 - u * u).powi(2)
                } else {
                    0.0
                };
            }
            match least_squares(&points) {
                Some(next) => fit = next,
                None => break,
            }
        }
        if (fit.0 - slot.0).abs() < 0.05 * slot.0 {
            *slot = fit;
        }
    }
}

/// The board spanned by the members (lattice index, object) on the lattice `axes`; fails when
/// it is a single line or leaves the image.
fn lattice_board(
    image: &RgbaImage,
    members: &[([i64; 2], Blob)],
    axes: &[(f64, f64); 2],
) -> Result<Geometry, VisionError> {
    let low = |axis: usize| members.iter().map(|(k, _)| k[axis]).min().unwrap_or(0);
    let high = |axis: usize| members.iter().map(|(k, _)| k[axis]).max().unwrap_or(0);
    let (cols, rows) = (
        (high(0) - low(0) + 1) as usize,
        (high(1) - low(1) + 1) as usize,
    );
    if rows < 2 || cols < 2 {
        return Err(no_board("the objects form a single line"));
    }
    let origin = [0, 1].map(|axis| {
        let (pitch, phase) = axes[axis];
        phase + low(axis) as f64 * pitch - pitch / 2.0
    });
    let (w, h) = (f64::from(image.width()), f64::from(image.height()));
    let right = origin[0] + cols as f64 * axes[0].0;
    let bottom = origin[1] + rows as f64 * axes[1].0;
    if origin[0] < -0.5 || origin[1] < -0.5 || right > w + 0.5 || bottom > h + 0.5 {
        return Err(no_board("the objects' lattice leaves the image"));
    }
    let tile_size = [0, 1].map(|axis| body_size(members, axis, axes[axis].0));
    Ok(Geometry {
        rows,
        cols,
        origin: [0, 1].map(|a| origin[a] + (axes[a].0 - tile_size[a]) / 2.0),
        pitch: [axes[0].0, axes[1].0],
        tile_size,
    })
}

/// The members' common size along `axis` when they share one (tiles with a body, a gap
/// between them), else the `pitch` (icons of many sizes: the cell is all that is known).
fn body_size(members: &[([i64; 2], Blob)], axis: usize, pitch: f64) -> f64 {
    let mut sizes: Vec<f64> = members
        .iter()
        .map(|(_, b)| if axis == 0 { b.width() } else { b.height() } as f64)
        .collect();
    sizes.sort_by(f64::total_cmp);
    let n = sizes.len();
    let (q1, median, q3) = (sizes[n / 4], sizes[n / 2], sizes[3 * n / 4]);
    let shared = q3 - q1 <= BODY_SPREAD * median;
    if shared && median <= pitch - 1.0 && median >= BODY_LEAST * pitch {
        median
    } else {
        pitch
    }
}

/// The pixels (row-major) on a sharp colour step (at least [`STEP`] on a channel) to the
/// next pixel right or below.
fn colour_steps(image: &RgbaImage) -> Vec<bool> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let px = |x: usize, y: usize| -> [i32; 3] {
        let i = 4 * (y * w + x);
        [raw[i] as i32, raw[i + 1] as i32, raw[i + 2] as i32]
    };
    let step = |a: [i32; 3], b: [i32; 3]| (0..3).map(|c| (a[c] - b[c]).abs()).max().unwrap_or(0);
    let mut marks = vec![false; w * h];
    for y in 0..h.saturating_sub(1) {
        for x in 0..w.saturating_sub(1) {
            let here = px(x, y);
            marks[y * w + x] = step(here, px(x + 1, y)) >= STEP || step(here, px(x, y + 1)) >= STEP;
        }
    }
    marks
}

/// The bounding boxes of the objects: connected regions of the `w` by `h` colour-step
/// `marks` grown by `r` pixels.
fn objects(marks: &[bool], w: usize, h: usize, r: usize) -> Vec<Blob> {
    let grown = grow(marks, w, h, r);
    components(&grown, w, h)
        .into_iter()
        .map(|b| Blob {
            x0: (b.x0 + r).min(b.x1),
            y0: (b.y0 + r).min(b.y1),
            x1: b.x1.saturating_sub(r).max(b.x0 + 1),
            y1: b.y1.saturating_sub(r).max(b.y0 + 1),
        })
        .collect()
}

/// `marks` grown by `r` pixels in every direction (a square neighbourhood).
fn grow(marks: &[bool], w: usize, h: usize, r: usize) -> Vec<bool> {
    let mut across = vec![false; w * h];
    for y in 0..h {
        let row = &marks[y * w..(y + 1) * w];
        let mut last: Option<usize> = None;
        // Distance to the nearest mark on the left, then on the right.
        for x in 0..w {
            if row[x] {
                last = Some(x);
            }
            across[y * w + x] = last.is_some_and(|l| x - l <= r);
        }
        last = None;
        for x in (0..w).rev() {
            if row[x] {
                last = Some(x);
            }
            across[y * w + x] |= last.is_some_and(|l| l - x <= r);
        }
    }
    let mut out = vec![false; w * h];
    for x in 0..w {
        let mut last: Option<usize> = None;
        for y in 0..h {
            if across[y * w + x] {
                last = Some(y);
            }
            out[y * w + x] = last.is_some_and(|l| y - l <= r);
        }
        last = None;
        for y in (0..h).rev() {
            if across[y * w + x] {
                last = Some(y);
            }
            out[y * w + x] |= last.is_some_and(|l| l - y <= r);
        }
    }
    out
}

/// The bounding box of every 4-connected region of `mask`.
fn components(mask: &[bool], w: usize, h: usize) -> Vec<Blob> {
    let mut seen = vec![false; w * h];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    for start in 0..w * h {
        if !mask[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut b = Blob {
            x0: usize::MAX,
            y0: usize::MAX,
            x1: 0,
            y1: 0,
        };
        while let Some(i) = stack.pop() {
            let (x, y) = (i % w, i / w);
            b.x0 = b.x0.min(x);
            b.y0 = b.y0.min(y);
            b.x1 = b.x1.max(x + 1);
            b.y1 = b.y1.max(y + 1);
            let mut visit = |j: usize| {
                if mask[j] && !seen[j] {
                    seen[j] = true;
                    stack.push(j);
                }
            };
            if x > 0 {
                visit(i - 1);
            }
            if x + 1 < w {
                visit(i + 1);
            }
            if y > 0 {
                visit(i - w);
            }
            if y + 1 < h {
                visit(i + w);
            }
        }
        out.push(b);
    }
    out
}

/// The blobs that could be tiles: near square, not tiny beside the large ones, and not a
/// large part of the image.
fn alike_blobs(blobs: &[Blob], w: usize, h: usize) -> Vec<Blob> {
    let plausible: Vec<Blob> = blobs
        .iter()
        .copied()
        .filter(|b| {
            let (bw, bh) = (b.width() as f64, b.height() as f64);
            bw >= MIN_PITCH / 2.0
                && bh >= MIN_PITCH / 2.0
                && bw.max(bh) <= 2.5 * bw.min(bh)
                && bw <= (w as f64 / 3.0).min(MAX_PITCH)
                && bh <= (h as f64 / 3.0).min(MAX_PITCH)
        })
        .collect();
    if plausible.is_empty() {
        return plausible;
    }
    let mut sizes: Vec<f64> = plausible.iter().map(Blob::size).collect();
    sizes.sort_by(f64::total_cmp);
    let large = sizes[sizes.len() * 3 / 4];
    plausible
        .into_iter()
        .filter(|b| b.size() >= 0.4 * large)
        .collect()
}

/// Pitch and phase (a centre at `phase + k * pitch`) of weighted positions: the largest
/// period whose mean phasor is at least 90% of the best, refined to the local maximum.
/// `smallest`: the smallest pitch worth trying (the objects do not overlap).
fn lattice_axis(positions: &[f64], weights: &[f64], smallest: f64) -> Option<(f64, f64)> {
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let span = positions.iter().copied().fold(f64::MIN, f64::max)
        - positions.iter().copied().fold(f64::MAX, f64::min);
    let largest = (span / 1.5).min(MAX_PITCH);
    if largest < smallest {
        return None;
    }
    let steps: Vec<(f64, f64)> = std::iter::successors(Some(smallest), |&p| Some(p + 0.25))
        .take_while(|&p| p <= largest)
        .map(|p| (p, agreement(positions, weights, p).0))
        .collect();
    let best = steps.iter().map(|&(_, a)| a).fold(0.0, f64::max);
    if best < 0.5 {
        return None;
    }
    // The largest local maximum near the best: multiples of the true pitch cancel out.
    let index = (1..steps.len().saturating_sub(1)).rev().find(|&i| {
        let a = steps[i].1;
        a >= 0.9 * best && a >= steps[i - 1].1 && a >= steps[i + 1].1
    })?;
    let pitch = steps[index].0;
    Some((pitch, agreement(positions, weights, pitch).1))
}

/// How well weighted positions agree in phase at `pitch` (the magnitude of their mean
/// phasor, 0 to 1) and the phase they agree on.
fn agreement(positions: &[f64], weights: &[f64], pitch: f64) -> (f64, f64) {
    let (mut re, mut im, mut total) = (0.0, 0.0, 0.0);
    for (&x, &wt) in positions.iter().zip(weights) {
        let angle = std::f64::consts::TAU * x / pitch;
        re += wt * angle.cos();
        im += wt * angle.sin();
        total += wt;
    }
    let phase = im.atan2(re).rem_euclid(std::f64::consts::TAU) / std::f64::consts::TAU * pitch;
    (re.hypot(im) / total.max(f64::MIN_POSITIVE), phase)
}

/// The indices of the largest group of lattice cells whose members lie at most three cells
/// apart (on both axes) from another member.
fn largest_group(cells: &[[i64; 2]]) -> Vec<usize> {
    let mut group_of = vec![usize::MAX; cells.len()];
    let mut best: Vec<usize> = Vec::new();
    for start in 0..cells.len() {
        if group_of[start] != usize::MAX {
            continue;
        }
        group_of[start] = start;
        let mut members = vec![start];
        let mut next = 0;
        while next < members.len() {
            let here = cells[members[next]];
            next += 1;
            for (j, c) in cells.iter().enumerate() {
                if group_of[j] == usize::MAX
                    && (c[0] - here[0]).abs() <= 3
                    && (c[1] - here[1]).abs() <= 3
                {
                    group_of[j] = start;
                    members.push(j);
                }
            }
        }
        if members.len() > best.len() {
            best = members;
        }
    }
    best
}

/// The weighted least-squares line `x = phase + k * pitch` through `(k, x, weight)` points,
/// as `(pitch, phase)`; `None` with fewer than two distinct `k` or no weight.
fn least_squares(points: &[(f64, f64, f64)]) -> Option<(f64, f64)> {
    let total: f64 = points.iter().map(|p| p.2).sum();
    if total <= 0.0 {
        return None;
    }
    let mean_k = points.iter().map(|p| p.2 * p.0).sum::<f64>() / total;
    let mean_x = points.iter().map(|p| p.2 * p.1).sum::<f64>() / total;
    let skk: f64 = points.iter().map(|p| p.2 * (p.0 - mean_k).powi(2)).sum();
    if skk <= 1e-12 {
        return None;
    }
    let skx: f64 = points
        .iter()
        .map(|p| p.2 * (p.0 - mean_k) * (p.1 - mean_x))
        .sum();
    let pitch = skx / skk;
    Some((pitch, mean_x - pitch * mean_k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// The board of `image`'s objects.
    fn find_board_from_objects(image: &RgbaImage) -> Result<Geometry, VisionError> {
        Objects::of(image)
            .boards()
            .next()
            .ok_or_else(|| no_board("too few alike objects on one lattice"))
    }

    /// Discs of a few colours at a 40 x 44 lattice from (60, 50), on a light background with
    /// a line of "text" above and a large button beside.
    fn discs(rows: usize, cols: usize, skip: &[(usize, usize)]) -> RgbaImage {
        discs_sized(rows, cols, skip, (50.0, 14.0))
    }

    /// [`discs`] from `top` (the lattice's first row) with discs of radius `radius`.
    fn discs_sized(
        rows: usize,
        cols: usize,
        skip: &[(usize, usize)],
        (top, radius): (f64, f64),
    ) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(520, 400, Rgba([230, 230, 240, 255]));
        let colours = [[200, 30, 30], [30, 150, 30], [30, 30, 200], [200, 160, 0]];
        for r in 0..rows {
            for c in 0..cols {
                if skip.contains(&(r, c)) {
                    continue;
                }
                let (cx, cy) = (60.0 + 20.0 + c as f64 * 40.0, top + 22.0 + r as f64 * 44.0);
                let colour = colours[(r * cols + c) % colours.len()];
                for y in 0..400u32 {
                    for x in 0..520u32 {
                        let (dx, dy) = (f64::from(x) - cx, f64::from(y) - cy);
                        if dx * dx + dy * dy <= radius * radius {
                            img.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
                        }
                    }
                }
            }
        }
        for i in 0..20u32 {
            for y in 20..30 {
                img.put_pixel(60 + i * 7, y, Rgba([0, 0, 0, 255]));
            }
        }
        img
    }

    #[test]
    fn touching_tiles_merge_into_one_object_that_bounds_them() {
        // 3 x 4 touching tiles of 30 x 36 with a dark outline, a short text line beside.
        let mut img = RgbaImage::from_pixel(400, 300, Rgba([90, 160, 90, 255]));
        for r in 0..3u32 {
            for c in 0..4u32 {
                let (x0, y0) = (150 + c * 30, 100 + r * 36);
                for y in y0..y0 + 36 {
                    for x in x0..x0 + 30 {
                        let outline = x == x0 || y == y0 || x == x0 + 29 || y == y0 + 35;
                        let v = if outline { 20 } else { 240 };
                        img.put_pixel(x, y, Rgba([v, v, v, 255]));
                    }
                }
            }
        }
        for x in (20..80).step_by(3) {
            img.put_pixel(x, 20, Rgba([0, 0, 0, 255]));
        }
        // A step marks the pixel before it: the box starts a pixel before the tiles.
        let objects = Objects::of(&img);
        assert!(objects.boards().next().is_none());
        assert_eq!(objects.merged(), vec![((149, 270), (99, 208))]);
    }

    /// The centre of tile (0, 0): the discs' cells are centred on them, whether the tile box
    /// is the cell or the disc.
    fn first_centre(g: &Geometry) -> [f64; 2] {
        [0, 1].map(|a| g.origin[a] + g.tile_size[a] / 2.0)
    }

    #[test]
    fn objects_of_one_size_are_the_tiles_bodies_and_of_many_sizes_only_their_cells() {
        let at = |k: i64, size: usize| {
            let x0 = 100 + k as usize * 40;
            (
                [k, 0],
                Blob {
                    x0,
                    y0: 10,
                    x1: x0 + size,
                    y1: 10 + size,
                },
            )
        };
        let bodies: Vec<_> = (0..8).map(|k| at(k, 34 + (k % 2) as usize)).collect();
        assert_eq!(body_size(&bodies, 0, 40.0), 35.0);
        let icons: Vec<_> = (0..8).map(|k| at(k, 24 + 2 * k as usize)).collect();
        assert_eq!(body_size(&icons, 0, 40.0), 40.0);
        // Drawings far smaller than their cells (glyphs on touching tiles) are no bodies.
        let glyphs: Vec<_> = (0..8).map(|k| at(k, 26)).collect();
        assert_eq!(body_size(&glyphs, 0, 40.0), 40.0);
    }

    #[test]
    fn finds_a_lattice_of_discs() {
        let g = find_board_from_objects(&discs(5, 8, &[(0, 0), (2, 3)])).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[0] - 40.0).abs() < 0.3, "{:?}", g.pitch);
        assert!((g.pitch[1] - 44.0).abs() < 0.3, "{:?}", g.pitch);
        assert!((first_centre(&g)[0] - 80.0).abs() < 1.0, "{g:?}");
        assert!((first_centre(&g)[1] - 72.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn a_button_wider_than_a_cell_is_not_a_tile() {
        // A 100 x 44 button centred on the lattice point of row 6, column 1, two rows below
        // the board: close enough to join the board's group if it counted.
        let mut img = discs(5, 8, &[]);
        for y in 314..358 {
            for x in 70..170 {
                img.put_pixel(x, y, Rgba([90, 90, 90, 255]));
            }
        }
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[1] - 44.0).abs() < 0.3, "{:?}", g.pitch);
    }

    #[test]
    fn buttons_below_the_board_do_not_set_its_pitch() {
        // Four buttons 100 x 50 px whose centres lie 243 px below the first row: with their
        // weight, the centres agree best on a lattice of 47.5 px (the rows lie 44 px apart),
        // and the least-squares refit may move it by 5% at most.
        let mut img = discs(5, 8, &[]);
        for b in 0..4u32 {
            for y in 290..340 {
                for x in 40 + b * 120..140 + b * 120 {
                    img.put_pixel(x, y, Rgba([90, 90, 90, 255]));
                }
            }
        }
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
        assert!((g.pitch[1] - 44.0).abs() < 0.3, "{:?}", g.pitch);
    }

    #[test]
    fn objects_joined_to_a_mark_do_not_bend_the_lattice() {
        // Every disc of the last column is joined to a bar reaching 12 px to its right (as an
        // emoji joined to a grid dot): those boxes' centres sit 6 px right of their cells.
        let mut img = discs(5, 8, &[]);
        for r in 0..5u32 {
            let (cx, cy) = (80 + 7 * 40, 72 + r * 44);
            for y in cy - 2..=cy + 2 {
                for x in cx + 10..cx + 26 {
                    img.put_pixel(x, y, Rgba([60, 60, 60, 255]));
                }
            }
        }
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[0] - 40.0).abs() < 0.1, "{:?}", g.pitch);
        assert!((first_centre(&g)[0] - 80.0).abs() < 0.5, "{g:?}");
    }

    /// Issue 11 (seed 388: small emoji on a mottled panel): a texture whose neighbouring
    /// pixels differ by more than [`STEP`] marks steps everywhere, and the objects join into
    /// one at either growth; read again under a slight blur the texture's steps fade and the
    /// drawn objects' edges stay.
    #[test]
    fn objects_on_a_noisy_texture_are_found_under_a_blur() {
        let mut img = discs(5, 8, &[]);
        for (x, y, p) in img.enumerate_pixels_mut() {
            let hash = (x.wrapping_mul(7919) ^ y.wrapping_mul(104_729)).wrapping_mul(2_654_435_761);
            let jitter = (hash >> 16) as i32 % 71 - 35;
            for c in 0..3 {
                p[c] = (i32::from(p[c]) + jitter).clamp(0, 255) as u8;
            }
        }
        let (w, h) = (img.width() as usize, img.height() as usize);
        let marks = colour_steps(&img);
        for grow in [GROW, TIGHT_GROW] {
            assert!(board_of_objects(&img, &objects(&marks, w, h, grow)).is_err());
        }
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[0] - 40.0).abs() < 0.3, "{:?}", g.pitch);
        assert!((g.pitch[1] - 44.0).abs() < 0.3, "{:?}", g.pitch);
        assert!((first_centre(&g)[0] - 80.0).abs() < 1.0, "{g:?}");
        assert!((first_centre(&g)[1] - 72.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn objects_a_few_pixels_apart_are_found_apart() {
        // Discs 35 px across at a 40 px pitch: 5 px apart in a row, which marks grown by 3 px
        // join into one bar per row.
        let img = discs_sized(5, 8, &[], (50.0, 17.5));
        let (w, h) = (img.width() as usize, img.height() as usize);
        assert!(board_of_objects(&img, &objects(&colour_steps(&img), w, h, GROW)).is_err());
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[0] - 40.0).abs() < 0.3, "{:?}", g.pitch);
        assert!((first_centre(&g)[0] - 80.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn a_button_whose_cell_leaves_the_image_is_no_tile() {
        // The board from y = 30; a 17 x 17 button centred on the lattice point a row above
        // (y = 8, column 5), whose cell starts at y = -14, within three cells of the board.
        let mut img = discs_sized(5, 8, &[], (30.0, 14.0));
        for y in 0..17 {
            for x in 272..289 {
                img.put_pixel(x, y, Rgba([200, 60, 60, 255]));
            }
        }
        let g = find_board_from_objects(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.origin[1] - 30.0).abs() < 1.0, "{:?}", g.origin);
    }

    #[test]
    fn a_blank_picture_has_no_board() {
        let img = RgbaImage::from_pixel(300, 200, Rgba([10, 20, 30, 255]));
        assert!(matches!(
            find_board_from_objects(&img),
            Err(VisionError::NoBoard(_))
        ));
    }

    #[test]
    fn the_largest_group_joins_cells_three_apart() {
        let cells = [[0, 0], [3, 0], [6, 3], [20, 20], [21, 20]];
        let mut group = largest_group(&cells);
        group.sort_unstable();
        assert_eq!(group, vec![0, 1, 2]);
    }
}
