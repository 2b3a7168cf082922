//! Tiles centred within their cells: on their bodies past a 3D side, their faces, their pictures.

use image::RgbaImage;

use crate::vision::Geometry;
use crate::vision::features::{pixel_range, sample};
use crate::vision::pictures::{PictureCentre, face_centre, picture_centre};

use super::*;

/// `at` moved by whole pitches to lie nearest `towards`: where the same tile's measure lies
/// when it was taken in another cell of the lattice.
pub(super) fn repeat_nearest(at: f64, towards: f64, pitch: f64) -> f64 {
    at + pitch * ((towards - at) / pitch).round()
}

/// The tiles placed from the edges (`from_edges`) centred on their pictures (see
/// [`centred_on_drawings`]) over the board's cells on the fitted combs (x, y, each with the
/// board's edge profile along it), while the board stays in the image.
pub(super) fn centred_tiles(
    image: &RgbaImage,
    from_edges: Geometry,
    [(x_fit, x_profile), (y_fit, y_profile)]: [(Axis, &[f32]); 2],
    extent: Extent,
) -> Geometry {
    let x_cells = (extent.col0, extent.cols);
    let y_cells = (extent.row0, extent.rows);
    let drawings = [
        drawing_centre(image, (x_fit, x_cells), (y_fit, y_cells), true),
        drawing_centre(image, (y_fit, y_cells), (x_fit, x_cells), false),
    ];
    let folds = [
        EdgeFold::new(x_profile, x_fit, x_cells),
        EdgeFold::new(y_profile, y_fit, y_cells),
    ];
    let framed: [bool; 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => framed_by_edges(fold, centre),
        _ => false,
    });
    let spans = [
        (from_edges.origin[0], from_edges.tile_size[0]),
        (from_edges.origin[1], from_edges.tile_size[1]),
    ];
    let grown: [(f64, f64); 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => side_to_body(spans[i], fold, centre),
        _ => spans[i],
    });
    // A body has its side on both axes: a span grown on one axis alone mixes a face (or a
    // body) on one with an edge in the gap on the other.
    let spans = if (0..2).all(|i| grown[i] != spans[i]) {
        grown
    } else {
        spans
    };
    let off_frame: [bool; 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => off_the_frame(spans[i], fold, centre),
        _ => false,
    });
    let origin = centred_on_drawings(spans, (drawings, framed, off_frame), from_edges.pitch);
    let lattice = [(x_fit.phase, x_fit.pitch), (y_fit.phase, y_fit.pitch)];
    let faces = face_centre(image, lattice[0], lattice[1], x_cells, y_cells)
        .filter(|f| f.spread.iter().all(|&s| s <= PICTURES_AGREE));
    // The pictures (a per-pixel median over the cells, the costly part) only where used.
    let moved = (0..2).any(|i| origin[i] != spans[i].0);
    let pictures = (moved || faces.is_some())
        .then(|| picture_centre(image, lattice[0], lattice[1], x_cells, y_cells))
        .flatten();
    let origin = onto_pictures(origin, spans, pictures, from_edges.pitch);
    let origin = onto_faces(origin, spans, (faces, pictures), from_edges.pitch);
    let tile_size = [spans[0].1, spans[1].1];
    let geometry = Geometry {
        tile_size,
        ..from_edges
    };
    if geometry.fits(image.width(), image.height()) {
        moved_within(geometry, origin, image.width(), image.height())
    } else {
        moved_within(from_edges, origin, image.width(), image.height())
    }
}

/// The board's edge profile folded at the pitch over the board's cells: the mean edge at
/// each whole-pixel offset from the first boundary, as a share of the strongest offset's.
pub(super) struct EdgeFold {
    /// Image coordinate of offset 0's edge.
    pub(super) start: f64,
    pitch: f64,
    /// Mean edge at each offset over the strongest; every value in 0..=1.
    pub(super) shares: Vec<f64>,
}

impl EdgeFold {
    /// The fold of `profile` at `axis`'s pitch over boundaries `first..=first + count`;
    /// `None` when the pitch is under 4 pixels or the profile holds no edge.
    pub(super) fn new(profile: &[f32], axis: Axis, (first, count): (i64, usize)) -> Option<Self> {
        let bins = axis.pitch.round() as usize;
        if bins < 4 {
            return None;
        }
        let fold: Vec<f64> = (0..bins)
            .map(|t| comb_sum(profile, axis, (first, count), t as f64))
            .collect();
        let strongest = fold.iter().copied().fold(0.0, f64::max);
        if strongest <= 0.0 {
            return None;
        }
        // A profile index i is the step between pixels i and i + 1: the edge lies at i + 1.
        Some(EdgeFold {
            start: axis.at(first as f64) + 1.0,
            pitch: axis.pitch,
            shares: fold.iter().map(|v| v / strongest).collect(),
        })
    }

    /// Offsets that are local maxima of at least `share` of the strongest.
    fn peaks(&self, share: f64) -> Vec<usize> {
        let n = self.shares.len();
        let at = |i: usize| self.shares[i % n];
        (0..n)
            .filter(|&i| {
                let v = self.shares[i];
                v >= share && v >= at(i + n - 1) && v > at(i + 1)
            })
            .collect()
    }

    /// The image coordinates of the peaks of at least `share` lying in `lo..=hi` (at most a
    /// pitch apart), in increasing order.
    fn peaks_within(&self, share: f64, (lo, hi): (f64, f64)) -> Vec<f64> {
        let mut found: Vec<f64> = self
            .peaks(share)
            .into_iter()
            .map(|i| {
                let at = self.start + i as f64;
                at + self.pitch * ((lo - at) / self.pitch).ceil()
            })
            .filter(|&at| at <= hi)
            .collect();
        found.sort_by(f64::total_cmp);
        found
    }
}

/// How strong an edge of the board's folded edge profile must be, as a share of the
/// strongest, to count as the outer edge of a tile's 3D side (see [`side_to_body`]).
const SIDE_EDGE: f64 = 0.1;

/// How far (pixels) a tile's side edge must lie from the box's own edge and from the next
/// tile's edge to count as an edge of its own.
const SIDE_APART: f64 = 1.5;

/// A tile span (start, size; image coordinates) grown to the outermost edge of its 3D side:
/// tilesets centre the picture on the face, so the pictures' `centre` off the span's centre
/// towards one end says the side lies at the other end. Beyond that end, up to the next
/// tile's near end (a pitch from the span's far end), a side drawn in layers (or a dark
/// outline round it) leaves edges that the span may have stopped on; the outermost peak of
/// the `fold` between the two, of at least [`SIDE_EDGE`] of the strongest and
/// [`SIDE_APART`] from both, is the tile's body edge. A span whose far side shows no such
/// edge (the body already, its gap plain) stands.
pub(super) fn side_to_body((start, size): (f64, f64), fold: &EdgeFold, centre: f64) -> (f64, f64) {
    let end = start + size;
    let middle = start + size / 2.0;
    let off = repeat_nearest(centre, middle, fold.pitch) - middle;
    if off > 0.5 {
        // The side is at the start; the tile before ends a pitch before this one's end.
        let outer = fold.peaks_within(
            SIDE_EDGE,
            (end - fold.pitch + SIDE_APART, start - SIDE_APART),
        );
        match outer.first() {
            Some(&at) => (at, end - at),
            None => (start, size),
        }
    } else if off < -0.5 {
        let outer = fold.peaks_within(
            SIDE_EDGE,
            (end + SIDE_APART, start + fold.pitch - SIDE_APART),
        );
        match outer.last() {
            Some(&at) => (start, at - start),
            None => (start, size),
        }
    } else {
        (start, size)
    }
}

/// Most a tile's picture centre may stray from the median of all of them (the median absolute
/// deviation, pixels) for that median to place the tiles: pictures centred on their faces
/// agree to about a pixel, while pictures placed anywhere (or a reading of noise) do not.
const PICTURES_AGREE: f64 = 1.0;

/// The `origin` that [`centred_on_drawings`] moved off the tiles' `spans` (start, size) on an
/// axis, moved instead onto the pictures' centre measured tile by tile (see
/// [`picture_centre`]), when the tiles' pictures agree on it within [`PICTURES_AGREE`]: the
/// fold of the picture energy is pulled by lopsided pictures (a letter heavier on one side, a
/// bamboo's stalks); the extent of each picture is not. An origin that stands on the spans
/// stays: the edges place it to a fraction of a pixel.
pub(super) fn onto_pictures(
    origin: [f64; 2],
    spans: [(f64, f64); 2],
    pictures: Option<PictureCentre>,
    pitch: [f64; 2],
) -> [f64; 2] {
    std::array::from_fn(|i| match pictures {
        Some(PictureCentre { centre, spread })
            if origin[i] != spans[i].0 && spread[i] <= PICTURES_AGREE =>
        {
            let current = origin[i] + spans[i].1 / 2.0;
            // The same tile's picture: the centre may come a whole pitch away.
            let picture = repeat_nearest(centre[i], current, pitch[i]);
            picture - spans[i].1 / 2.0
        }
        _ => origin[i],
    })
}

/// Farthest apart (pixels, each axis) the faces' centre and the pictures' centre may lie for
/// the tiles to move onto them: two measures that agree to a pixel found the face.
const FACES_AND_PICTURES_AGREE: f64 = 1.0;

/// How far (pixels) the faces must lie from the tiles' centre on an axis for the tiles to
/// move: a box within half a pixel of them samples the same pixels, rounded the other way.
const FACES_MOVE: f64 = 0.5;

/// The tiles' `origin` moved onto the midpoint of their faces' centre (the extent of each
/// tile's own ground, see [`face_centre`]) and their pictures' centre (see
/// [`picture_centre`]), when each is agreed on by the tiles within [`PICTURES_AGREE`] and the
/// two lie within [`FACES_AND_PICTURES_AGREE`] of each other on both axes. Either alone errs
/// by a pixel or two on some tilesets (a face's bevel is ground-coloured or not; a picture's
/// faint strokes fall under the step), and rarely both the same way.
pub(super) fn onto_faces(
    origin: [f64; 2],
    spans: [(f64, f64); 2],
    (faces, pictures): (Option<PictureCentre>, Option<PictureCentre>),
    pitch: [f64; 2],
) -> [f64; 2] {
    let (Some(faces), Some(pictures)) = (faces, pictures) else {
        return origin;
    };
    if faces
        .spread
        .iter()
        .chain(&pictures.spread)
        .any(|&s| s > PICTURES_AGREE)
    {
        return origin;
    }
    // The same tile's centres: each may come a whole pitch away.
    let near = |c: f64, i: usize| repeat_nearest(c, origin[i] + spans[i].1 / 2.0, pitch[i]);
    let centres: [(f64, f64); 2] =
        std::array::from_fn(|i| (near(faces.centre[i], i), near(pictures.centre[i], i)));
    if centres
        .iter()
        .any(|(f, p)| (f - p).abs() > FACES_AND_PICTURES_AGREE)
    {
        return origin;
    }
    std::array::from_fn(|i| {
        let moved = (centres[i].0 + centres[i].1) / 2.0 - spans[i].1 / 2.0;
        if (moved - origin[i]).abs() > FACES_MOVE {
            moved
        } else {
            origin[i]
        }
    })
}

/// `geometry` moved to `origin` when the board still lies in the image, else as it is: the
/// tiles are in the picture, so a move that takes them out of it (a lattice at the wrong
/// pitch whose last cells reach the image's edge) is no better.
pub(super) fn moved_within(
    geometry: Geometry,
    origin: [f64; 2],
    width: u32,
    height: u32,
) -> Geometry {
    let moved = Geometry { origin, ..geometry };
    if moved.fits(width, height) {
        moved
    } else {
        geometry
    }
}

/// How far (a share of the pitch) the tiles' centre may lie from their pictures' centre on
/// both axes and stand: a tile placed between its 3D side's outer edge and its face's far
/// edge (the body) lies half a side off the face's centre.
const OFF_DRAWING: f64 = 0.09;

/// The tiles' origin (x, y) from their spans (start, size; image coordinates), their
/// pictures' centres (see [`drawing_centre`]) and whether two edges frame each centre (see
/// [`framed_by_edges`]): the spans stand when both centres lie within [`OFF_DRAWING`] of a
/// pitch of the pictures' and the pictures are not framed on both axes; otherwise each axis
/// whose span lies more than half a pixel off is moved onto the pictures' centre (an edge
/// inside a 3D side or its shadow, or across the gap, put the span there; tilesets centre
/// the picture on the face). A span near the pictures may still be neither face nor body (a
/// 3D side drawn in layers gives an edge inside the side): when edges centred on the
/// pictures show on both axes and the span lies more than [`FRAMED_WITHIN`] off them on one,
/// the face is there; so it is when a span on either axis meets none of the edges that frame
/// the pictures there (`off_frame`, see [`off_the_frame`]).
pub(super) fn centred_on_drawings(
    spans: [(f64, f64); 2],
    (drawings, framed, off_frame): ([Option<f64>; 2], [bool; 2], [bool; 2]),
    pitch: [f64; 2],
) -> [f64; 2] {
    // How far each span's centre lies from its drawing's (the same tile's: the centre may
    // come a whole pitch away).
    let offsets: [Option<f64>; 2] = std::array::from_fn(|i| {
        let centre = spans[i].0 + spans[i].1 / 2.0;
        drawings[i].map(|c| repeat_nearest(c, centre, pitch[i]) - centre)
    });
    let agree = (0..2).all(|i| offsets[i].is_none_or(|d| d.abs() <= OFF_DRAWING * pitch[i]));
    // A span within the framing tolerance of the pictures on both axes frames them itself.
    let framed_elsewhere = framed.iter().all(|&f| f)
        && offsets
            .iter()
            .any(|d| d.is_some_and(|d| d.abs() > FRAMED_WITHIN));
    let stand = agree && !framed_elsewhere && !off_frame.iter().any(|&f| f);
    std::array::from_fn(|i| match offsets[i] {
        Some(d) if !stand && d.abs() > 0.5 => spans[i].0 + d,
        _ => spans[i].0,
    })
}

/// `profile` summed at the teeth of `axis`'s comb over boundaries `first..=first + count`,
/// each shifted by `t` pixels: the profile folded at the pitch over the board's cells.
pub(super) fn comb_sum(profile: &[f32], axis: Axis, (first, count): (i64, usize), t: f64) -> f64 {
    (0..=count)
        .map(|k| f64::from(sample(profile, axis.at((first + k as i64) as f64) + t)))
        .sum()
}

/// How strong an edge of the board's folded edge profile must be, as a share of the
/// strongest, to frame the pictures (see [`framed_by_edges`]).
const FRAMING_EDGE: f64 = 0.15;

/// How near (pixels) the middle of two framing edges must lie to the pictures' centre.
const FRAMED_WITHIN: f64 = 1.0;

/// Whether the pictures centred at `centre` (image coordinates) are framed: the board's edge
/// `profile` folded at the pitch of `axis` over the board's cells (offsets a pixel apart from
/// boundary `first`) has two peaks of at least [`FRAMING_EDGE`] of its strongest, half a pitch
/// to a pitch apart, whose middle lies within [`FRAMED_WITHIN`] of the centre (a whole number
/// of pitches away counts the same): a face, or a flat tile, drawn around the pictures. Two
/// distinct edges: one edge and its copy a pitch on bound a cell, not a tile's face.
pub(super) fn framed_by_edges(fold: &EdgeFold, centre: f64) -> bool {
    !framing_pairs(fold, centre).is_empty()
}

/// The pairs of edges (image coordinates, near then far, far less than a pitch on) that frame
/// the pictures centred at `centre` (see [`framed_by_edges`]).
fn framing_pairs(fold: &EdgeFold, centre: f64) -> Vec<(f64, f64)> {
    let bins = fold.shares.len();
    let peaks = fold.peaks(FRAMING_EDGE);
    let framing = |near: f64, far: f64| {
        let size = far - near;
        let middle = fold.start + (near + far) / 2.0;
        let off = middle - centre;
        (0.5 * fold.pitch..=fold.pitch).contains(&size)
            && (off - fold.pitch * (off / fold.pitch).round()).abs() <= FRAMED_WITHIN
    };
    let mut pairs = Vec::new();
    for &near in &peaks {
        for &far in &peaks {
            let (near, far) = (near as f64, far as f64);
            for far in [far, far + bins as f64] {
                if (far != near + bins as f64) && framing(near, far) {
                    pairs.push((fold.start + near, fold.start + far));
                }
            }
        }
    }
    pairs
}

/// How near (pixels) an end of a tile span must lie to an edge of a pair framing the pictures
/// to count as that edge (see [`off_the_frame`]).
const ON_FRAME: f64 = 1.0;

/// Whether the tile span (start, size; image coordinates) misses the edges that frame the
/// pictures centred at `centre`: the pictures are framed (see [`framed_by_edges`]) and
/// neither end of the span lies within [`ON_FRAME`] of an edge of a framing pair (a whole
/// number of pitches away counts the same). The face is between such edges, and a body
/// shares the face's far edge; a span that meets none of them is neither (it reaches across
/// the gap, or stops inside a 3D side on one end and the face on the other).
pub(super) fn off_the_frame((start, size): (f64, f64), fold: &EdgeFold, centre: f64) -> bool {
    let pairs = framing_pairs(fold, centre);
    let near = |a: f64, b: f64| {
        let d = a - b;
        (d - fold.pitch * (d / fold.pitch).round()).abs() <= ON_FRAME
    };
    !pairs.is_empty()
        && !pairs.iter().any(|&(a, b)| {
            [start, start + size]
                .iter()
                .any(|&end| near(end, a) || near(end, b))
        })
}

/// How far from the quietest offset towards the busiest a tile's picture counts as drawn.
const DRAWN: f64 = 0.2;

/// The centre of the tiles' pictures along one axis (image coordinates, in the board's
/// first cell): the colour steps along the other axis, over the middle of each cell, folded
/// at the pitch across the board's cells. A face's picture changes along both axes, while a
/// tile's edges, its 3D side and shadow and a plain gap do not change along their own length,
/// so the fold rises over the pictures and is low between them. The pictures' extent is the
/// run of offsets above [`DRAWN`] of the way from the quietest offset to the busiest, grown
/// from the cell's middle, with its ends placed between offsets; tilesets draw the picture
/// centred on the face, however they draw the side, the shadow or the gap (3D tiles' edges
/// give a box between face and body as often as one of them). `vertical`: the x axis.
///
/// `None` when nothing is drawn or the run covers the whole pitch.
pub(super) fn drawing_centre(
    image: &RgbaImage,
    (along, (first, count)): (Axis, (i64, usize)),
    (across, (first_across, count_across)): (Axis, (i64, usize)),
    vertical: bool,
) -> Option<f64> {
    let energy = cross_steps(image, across, (first_across, count_across), vertical);
    let bins = along.pitch.round() as usize;
    if bins < 4 {
        return None;
    }
    let scale = bins as f64 / along.pitch;
    let mut fold = vec![0f64; bins];
    // A profile index i is the step between pixels i and i + 1: the boundary lies at i + 1.
    let cell_start = |k: i64| along.at(k as f64) + 1.0;
    for k in first..first + count as i64 {
        let start = cell_start(k);
        let (lo, hi) = pixel_range(start, start + along.pitch, energy.len() as u32);
        for (p, &e) in energy
            .iter()
            .enumerate()
            .take(hi as usize)
            .skip(lo as usize)
        {
            // Bin i holds offsets around (i + 0.5) / scale; split each pixel between two.
            let q = (p as f64 + 0.5 - start) * scale - 0.5;
            let i = q.floor();
            let f = q - i;
            let i = i.rem_euclid(bins as f64) as usize;
            fold[i] += e * (1.0 - f);
            fold[(i + 1) % bins] += e * f;
        }
    }
    let fold: Vec<f64> = (0..bins)
        .map(|i| (fold[(i + bins - 1) % bins] + 2.0 * fold[i] + fold[(i + 1) % bins]) / 4.0)
        .collect();
    let (low, high) = fold
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    if high <= low {
        return None;
    }
    let level = low + DRAWN * (high - low);
    let run = drawn_run(&fold, level)?;
    Some(cell_start(first) + (run + 0.5) / scale)
}

/// The middle (in bins) of the run of a periodic `fold` at or above `level` that holds the
/// middle bin (or the nearest bin at that level), its ends placed where the fold crosses the
/// level between bins; `None` when the run goes all the way round.
pub(super) fn drawn_run(fold: &[f64], level: f64) -> Option<f64> {
    let n = fold.len();
    let at = |i: i64| fold[i.rem_euclid(n as i64) as usize];
    let middle = (n / 2) as i64;
    let seed = (0..n as i64)
        .flat_map(|d| [middle - d, middle + d])
        .find(|&i| at(i) >= level)?;
    let (mut left, mut right) = (seed, seed);
    while at(left - 1) >= level {
        left -= 1;
        if right - left + 1 >= n as i64 {
            return None;
        }
    }
    while at(right + 1) >= level {
        right += 1;
        if right - left + 1 >= n as i64 {
            return None;
        }
    }
    let crossing = |below: f64, above: f64| (level - below) / (above - below);
    let left_end = (left - 1) as f64 + crossing(at(left - 1), at(left));
    let right_end = right as f64 + 1.0 - crossing(at(right + 1), at(right));
    Some((left_end + right_end) / 2.0)
}

/// For each pixel column (`vertical`) or row, the colour steps along it (between each pixel
/// and the next one down, or to the right) summed over the middle three fifths of the
/// `count` cells of `across` from boundary `first`: how busy the pictures are at each
/// offset, not counting lines that run along the axis.
fn cross_steps(
    image: &RgbaImage,
    across: Axis,
    (first, count): (i64, usize),
    vertical: bool,
) -> Vec<f64> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let step = |a: usize, b: usize| -> f64 {
        (0..3)
            .map(|c| f64::from((i16::from(raw[a + c]) - i16::from(raw[b + c])).unsigned_abs()))
            .sum()
    };
    let (len, limit) = if vertical { (w, h) } else { (h, w) };
    let mut energy = vec![0f64; len];
    for k in first..first + count as i64 {
        let start = across.at(k as f64) + 1.0;
        let (lo, hi) = pixel_range(
            start + 0.2 * across.pitch,
            start + 0.8 * across.pitch,
            limit.saturating_sub(1) as u32,
        );
        for j in lo as usize..hi as usize {
            for (i, e) in energy.iter_mut().enumerate() {
                let (here, next) = if vertical {
                    ((j * w + i) * 4, ((j + 1) * w + i) * 4)
                } else {
                    ((i * w + j) * 4, (i * w + j + 1) * 4)
                };
                *e += step(here, next);
            }
        }
    }
    energy
}
