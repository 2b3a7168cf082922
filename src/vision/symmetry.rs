//! The tiles' faces found by their mirror symmetry.
//!
//! Tilesets draw a tile's picture in the middle of its face, and the face's own frame (a
//! border, a bevel, rounded corners) alike on both sides; a 3D side, a drop shadow or the gap
//! lies on one side only. So each tile looks most alike mirrored about its face's centre,
//! whatever its kind; where most tiles agree on that centre to a pixel, it places the faces
//! more surely than the board's edges, which a 3D side drawn in layers, a bevel or a shadow
//! give several of a pitch apart. The board's centre is where all tiles together mirror best
//! (each weighed alike); a picture that is not symmetric itself (two stacked characters) pulls
//! its own tile's centre away, so where the boxes visibly hold a 3D side at one end, most
//! tiles mirroring better there than about their boxes is enough, and where they hold one on
//! both axes, the sides alone are.

use image::RgbaImage;

use super::Geometry;
use super::features::rgb_distance;
use crate::board::Board;
use crate::stats::{self, parabola_vertex};

/// Share of the tiles whose mirror centre must lie within [`AGREE`] of the board's, on each
/// axis, for the tiles to move onto it.
const AGREEING: f64 = 0.5;

/// Share of the tiles whose mirror centres must agree with the board's on one axis at least,
/// for boxes that hold a 3D side on both axes to move there: tiles drawn with a lopsided
/// gloss and a corner index (jade) mirror about points of their own on both.
const AGREEING_BY_SIDES: f64 = 0.4;

/// Most a tile's mirror centre may lie from the board's (pixels) to agree with it.
const AGREE: f64 = 1.0;

/// Share of the tiles that must look more alike mirrored about the board's mirror centre than
/// about their boxes' centres, for boxes that hold a 3D side to move there when too few tiles'
/// own mirror centres agree (two stacked characters make most mahjong faces mirror best
/// elsewhere on their own).
const PREFERRING: f64 = 0.75;

/// How unlike (mean RGB distance) the strips just inside a box's two ends must be for the box
/// to hold a 3D side at one end.
const SIDE_UNLIKE: f32 = 20.0;

/// Most (mean RGB distance) a 3D side's strip may differ from tile to tile (see
/// [`AxisLines::side_varies`]).
const SIDE_VARIES: f32 = 20.0;

/// Most a face's centre lies from its body's (a share of the pitch): half the widest 3D side.
const SIDE_MOST: f64 = 0.08;

/// How alike (mean RGB distance) the strips of [`SIDE_MOST`] twice just inside a box's two
/// ends must be for the box to be centred on its axis already (no 3D side at either end).
const ENDS_ALIKE: f32 = 15.0;

/// `geometry` with its tiles centred on their mirror centres (see the module docs) where the
/// tiles agree on them on both axes, or the boxes hold a 3D side on both, and the board stays
/// in the image; else as it is. A face moved on one axis alone would mix a face on one with
/// a body on the other, so one axis moves alone only onto a 3D side's face while the other's
/// boxes end alike at both ends.
pub(super) fn onto_mirror_centres(
    image: &RgbaImage,
    geometry: &Geometry,
    board: &Board,
) -> Geometry {
    let lines = [0, 1].map(|axis| AxisLines::new(image, geometry, board, axis));
    let found = lines.each_ref().map(AxisLines::mirror_centre);
    let sides_both = found.iter().all(|c| c.is_some_and(|c| c.by_side))
        && found
            .iter()
            .flatten()
            .any(|c| c.agreeing >= AGREEING_BY_SIDES);
    let mut centres = found.map(|c| c.filter(|c| c.agreed || sides_both));
    if centres.iter().flatten().any(|c| c.by_side) {
        for (centre, lines) in centres.iter_mut().zip(&lines) {
            if centre.is_none() && lines.ends_unlike(2.0 * SIDE_MOST * lines.pitch) < ENDS_ALIKE {
                // Taken after the agreement was asked, so its own is not asked again.
                *centre = Some(MirrorCentre {
                    at: lines.box_centre(),
                    by_side: false,
                    agreed: true,
                    agreeing: 1.0,
                });
            }
        }
    }
    let [Some(x), Some(y)] = centres else {
        return *geometry;
    };
    let moved = Geometry {
        origin: [
            x.at - geometry.tile_size[0] / 2.0,
            y.at - geometry.tile_size[1] / 2.0,
        ],
        ..*geometry
    };
    if moved.fits(image.width(), image.height()) {
        moved
    } else {
        *geometry
    }
}

/// Tile (0, 0)'s centre on one axis, and whether the move there is taken for a 3D side.
#[derive(Clone, Copy, Debug)]
struct MirrorCentre {
    /// An image coordinate.
    at: f64,
    /// The boxes hold a 3D side at one end, drawn alike on every tile, and the face lies off
    /// their centres by less than [`SIDE_MOST`].
    by_side: bool,
    /// Enough tiles agree on it (see [`AxisLines::mirror_centre`]); a centre by a 3D side on
    /// both axes needs [`AGREEING_BY_SIDES`] on one of them only.
    agreed: bool,
    /// The share of the tiles whose own mirror centres lie within [`AGREE`] of it.
    agreeing: f64,
}

/// The board's tiles along one axis: each tile's line through its box (see [`TileLine`]) and
/// the box's middle.
struct AxisLines {
    tiles: Vec<(f64, TileLine)>,
    /// Tile (0, 0)'s box start, its size and the pitch, along the axis.
    origin: f64,
    size: f64,
    pitch: f64,
}

impl AxisLines {
    fn new(image: &RgbaImage, g: &Geometry, board: &Board, axis: usize) -> Self {
        let (size, pitch) = (g.tile_size[axis], g.pitch[axis]);
        let inner = (MIRROR_HALF * pitch).round();
        let whole = (size / 2.0).round() + 1.0;
        let reach = 2.0 * REACH * pitch + inner.max(whole) + 2.0;
        let tiles = board
            .tile_positions()
            .filter_map(|pos| {
                let rect = g.cell_rect(pos);
                let (start, across) = if axis == 0 {
                    (rect.x, (rect.y, rect.h))
                } else {
                    (rect.y, (rect.x, rect.w))
                };
                let middle = start + size / 2.0;
                Some((middle, TileLine::new(image, axis, middle, reach, across)?))
            })
            .collect();
        AxisLines {
            tiles,
            origin: g.origin[axis],
            size,
            pitch,
        }
    }

    fn box_centre(&self) -> f64 {
        self.origin + self.size / 2.0
    }

    /// The board's mirror centre (see [`board_mirror_offset`]), agreed when [`AGREEING`] of
    /// the tiles' own mirror centres lie within [`AGREE`] of it, or when the boxes hold a 3D
    /// side and [`PREFERRING`] of the tiles mirror better there than about their boxes; and
    /// the median tile is framed about it (see [`TileLine::framing`], from [`FRAME_FROM`] of
    /// the pitch out to a reach past the box's edge) at least [`FRAMED`] as strongly as about
    /// the box's centre, or the boxes hold a 3D side: a flat tile's box framed by its own edges
    /// stands against a glyph that is not symmetric (a star, a letter), whose mirror centre
    /// lies elsewhere, and a glyph's wide offset is no 3D side. `None` when neither agreed nor by
    /// a 3D side.
    fn mirror_centre(&self) -> Option<MirrorCentre> {
        let reach = REACH * self.pitch;
        let inner = (MIRROR_HALF * self.pitch).round();
        let curves: Vec<AsymmetryCurve> = self
            .tiles
            .iter()
            .filter_map(|(middle, line)| AsymmetryCurve::new(line, *middle, reach, inner))
            .collect();
        let (offset, preferring) = board_mirror_offset(&curves, reach)?;
        let agreeing = curves
            .iter()
            .filter(|c| (c.lowest() - offset).abs() <= AGREE)
            .count();
        let by_side = offset.abs() <= SIDE_MOST * self.pitch
            && self.ends_unlike(2.0 * offset.abs()) >= SIDE_UNLIKE
            && self.side_varies(offset) <= SIDE_VARIES;
        let agreeing = agreeing as f64 / self.tiles.len() as f64;
        let agreed = agreeing >= AGREEING || by_side && preferring >= PREFERRING;
        if !(agreed || by_side) {
            return None;
        }
        let whole = (self.size / 2.0).round() + 1.0;
        let bounds = (FRAME_FROM * self.pitch, whole + reach);
        // The median tile's framing: a few tiles framed by their neighbours (touching tiles of
        // one colour) or by a selection do not sway it.
        let framing = |shift: f64| -> f32 {
            let mut strengths: Vec<f32> = self
                .tiles
                .iter()
                .map(|(middle, line)| line.framing(middle + shift, bounds))
                .collect();
            stats::median(&mut strengths).unwrap_or(0.0)
        };
        (by_side || framing(offset) >= FRAMED * framing(0.0)).then_some(MirrorCentre {
            at: self.box_centre() + offset,
            by_side,
            agreed,
            agreeing,
        })
    }

    /// How unlike the strips of `width` pixels (at least one) just inside the two ends of the
    /// median tile's box are, mirrored pixel by pixel (mean RGB distance): a 3D side at one end
    /// makes them unlike, a flat tile's paper alike.
    fn ends_unlike(&self, width: f64) -> f32 {
        let width = width.round().max(1.0) as usize;
        let mut unlike: Vec<f32> = self
            .tiles
            .iter()
            .map(|(middle, line)| {
                let sum: f32 = self
                    .end_strip(*middle, line, true, width)
                    .zip(self.end_strip(*middle, line, false, width))
                    .map(|(a, b)| rgb_distance(a, b))
                    .sum();
                sum / width as f32
            })
            .collect();
        stats::median(&mut unlike).unwrap_or(f32::MAX)
    }

    /// The colours of the `width` pixels just inside the start (or the end) of the box about
    /// `middle`, going in; from a pixel in, since a box's edge pixel mixes the tile with what
    /// lies past it.
    fn end_strip<'a>(
        &self,
        middle: f64,
        line: &'a TileLine,
        start: bool,
        width: usize,
    ) -> impl Iterator<Item = [f32; 3]> + 'a {
        let half = self.size / 2.0;
        (1..=width).map(move |i| {
            let i = i as f64 + 0.5;
            if start {
                line.at(middle - half + i)
            } else {
                line.at(middle + half - i)
            }
        })
    }

    /// How much the strip of `2 |offset|` pixels (at least one) just inside the box's end away
    /// from the face (the 3D side, when `offset` puts the face off the box's centre) differs
    /// from tile to tile: the median tile's mean RGB distance from the strip meaned over all
    /// tiles, pixel by pixel. A 3D side is drawn alike on every tile; the background or the
    /// pictures round an icon with no body are not.
    fn side_varies(&self, offset: f64) -> f32 {
        let width = (2.0 * offset.abs()).round().max(1.0) as usize;
        let strips: Vec<Vec<[f32; 3]>> = self
            .tiles
            .iter()
            .map(|(middle, line)| self.end_strip(*middle, line, offset > 0.0, width).collect())
            .collect();
        let n = strips.len().max(1) as f32;
        let mean: Vec<[f32; 3]> = (0..width)
            .map(|i| {
                let mut sum = [0f32; 3];
                for strip in &strips {
                    for c in 0..3 {
                        sum[c] += strip[i][c];
                    }
                }
                sum.map(|v| v / n)
            })
            .collect();
        let mut varies: Vec<f32> = strips
            .iter()
            .map(|strip| {
                strip
                    .iter()
                    .zip(&mean)
                    .map(|(p, m)| rgb_distance(*p, *m))
                    .sum::<f32>()
                    / width as f32
            })
            .collect();
        stats::median(&mut varies).unwrap_or(f32::MAX)
    }
}

/// Where the tiles, taken together, look most alike mirrored (an offset from their boxes'
/// centres within `reach`, every quarter pixel refined by a parabola): each tile's asymmetry
/// curve in units of its own mean, so that busy faces do not outvote plain ones, summed over
/// the tiles. Also the share of the tiles that look more alike mirrored there than about their
/// boxes' centres. `None` with no curve.
fn board_mirror_offset(curves: &[AsymmetryCurve], reach: f64) -> Option<(f64, f64)> {
    const STEP: f64 = 0.25;
    if curves.is_empty() {
        return None;
    }
    let steps = (reach / STEP).floor() as i64;
    let offsets: Vec<f64> = (-steps..=steps).map(|j| j as f64 * STEP).collect();
    let sums: Vec<f64> = offsets
        .iter()
        .map(|&d| curves.iter().map(|c| c.at(d) / c.mean).sum())
        .collect();
    let (best, shift) = refined_minimum(&sums)?;
    let offset = offsets[best] + shift * STEP;
    let preferring = curves.iter().filter(|c| c.at(offset) < c.at(0.0)).count();
    Some((offset, preferring as f64 / curves.len() as f64))
}

/// The index of the least of `values` and where a parabola through it and its neighbours
/// bottoms out, within half a step of it (0 when flat or at an end, the end's value standing
/// for the missing neighbour); `None` when empty.
fn refined_minimum(values: &[f64]) -> Option<(usize, f64)> {
    let best = (0..values.len()).min_by(|&i, &j| values[i].total_cmp(&values[j]))?;
    let around = |i: Option<usize>| {
        i.and_then(|i| values.get(i))
            .copied()
            .unwrap_or(values[best])
    };
    let (l, c, r) = (
        around(best.checked_sub(1)),
        values[best],
        around(Some(best + 1)),
    );
    Some((best, parabola_vertex(l, c, r)))
}

/// One tile's asymmetry (see [`TileLine::pixel_asymmetry`]) about every half pixel within a
/// reach of its box's middle, read at any offset from the middle by linear interpolation.
struct AsymmetryCurve {
    middle: f64,
    /// Image coordinate of the first centre; the others follow every half pixel.
    first: f64,
    scores: Vec<f64>,
    mean: f64,
}

impl AsymmetryCurve {
    /// `None` when the tile mirrors perfectly everywhere (a blank line).
    fn new(line: &TileLine, middle: f64, reach: f64, half: f64) -> Option<Self> {
        let first = (2.0 * (middle - reach)).ceil() as i64;
        let last = (2.0 * (middle + reach)).floor() as i64;
        let scores: Vec<f64> = (first..=last)
            .map(|twice| f64::from(line.pixel_asymmetry(twice, half as i64)))
            .collect();
        let mean = scores.iter().sum::<f64>() / scores.len() as f64;
        (scores.len() >= 2 && mean > 1e-6).then_some(AsymmetryCurve {
            middle,
            first: first as f64 / 2.0,
            scores,
            mean,
        })
    }

    /// The offset from the middle about which the tile looks most alike mirrored: the best
    /// half pixel, refined by a parabola.
    fn lowest(&self) -> f64 {
        let (best, shift) = refined_minimum(&self.scores).unwrap_or((0, 0.0));
        self.first + (best as f64 + shift) / 2.0 - self.middle
    }

    /// The asymmetry about `middle + offset`.
    fn at(&self, offset: f64) -> f64 {
        let u =
            (2.0 * (self.middle + offset - self.first)).clamp(0.0, (self.scores.len() - 1) as f64);
        let i = (u.floor() as usize).min(self.scores.len() - 2);
        let f = u - i as f64;
        self.scores[i] * (1.0 - f) + self.scores[i + 1] * f
    }
}

/// How strongly (a share of the boxes' framing) the tiles must be framed about their mirror
/// centres to move onto them.
const FRAMED: f32 = 0.7;

/// Nearest (a share of the pitch) a face's edges may lie to its centre.
const FRAME_FROM: f64 = 0.3;

/// How far (a share of the pitch) from a box's centre its tile's mirror centre is sought.
const REACH: f64 = 0.15;

/// Half the window (a share of the pitch) over which a tile's mirror centre is sought: the
/// middle of the face, clear of a 3D side or a gap.
const MIRROR_HALF: f64 = 0.3;

/// A tile's mean colour across the middle half of it, pixel by pixel along one axis.
struct TileLine {
    /// Image coordinate of the first pixel.
    first: i64,
    colours: Vec<[f32; 3]>,
}

impl TileLine {
    /// The line along `axis` over `middle - reach..=middle + reach` (image coordinates), the
    /// colours meaned over the middle half of `across` (start, size); `None` when it leaves
    /// the image.
    fn new(
        image: &RgbaImage,
        axis: usize,
        middle: f64,
        reach: f64,
        (across_start, across_size): (f64, f64),
    ) -> Option<Self> {
        let (limit, across_limit) = if axis == 0 {
            (image.width(), image.height())
        } else {
            (image.height(), image.width())
        };
        let first = (middle - reach).floor() as i64;
        let last = (middle + reach).ceil() as i64;
        if first < 0 || last >= i64::from(limit) {
            return None;
        }
        let a0 = (across_start + across_size * 0.25).max(0.0).round() as u32;
        let a1 = ((across_start + across_size * 0.75).round() as u32).min(across_limit);
        if a1 <= a0 {
            return None;
        }
        let colours = (first..=last)
            .map(|t| {
                let mut sum = [0f32; 3];
                for a in a0..a1 {
                    let (x, y) = if axis == 0 {
                        (t as u32, a)
                    } else {
                        (a, t as u32)
                    };
                    let p = image.get_pixel(x, y).0;
                    for (s, v) in sum.iter_mut().zip(p) {
                        *s += f32::from(v);
                    }
                }
                sum.map(|s| s / (a1 - a0) as f32)
            })
            .collect();
        Some(TileLine { first, colours })
    }

    /// The colour at image coordinate `at` (a pixel's middle is at its index + 0.5), linearly
    /// between pixels; the end pixels beyond the line.
    fn at(&self, at: f64) -> [f32; 3] {
        let u = (at - 0.5 - self.first as f64).clamp(0.0, (self.colours.len() - 1) as f64);
        let i = (u.floor() as usize).min(self.colours.len() - 1);
        let j = (i + 1).min(self.colours.len() - 1);
        let f = (u - i as f64) as f32;
        std::array::from_fn(|c| self.colours[i][c] * (1.0 - f) + self.colours[j][c] * f)
    }

    /// How strongly the line is framed about `centre`: the strongest pair of steps at
    /// `centre - h` and `centre + h`, for `h` (every half pixel) in `lo..=hi`, a pair being as
    /// strong as its weaker step.
    fn framing(&self, centre: f64, (lo, hi): (f64, f64)) -> f32 {
        let step = |x: f64| rgb_distance(self.at(x - 0.5), self.at(x + 0.5));
        let (first, last) = ((2.0 * lo).ceil() as i64, (2.0 * hi).floor() as i64);
        (first..=last)
            .map(|twice| {
                let h = twice as f64 / 2.0;
                step(centre - h).min(step(centre + h))
            })
            .fold(0.0, f32::max)
    }

    /// How unlike the line is mirrored about `twice / 2` (a pixel's edge or middle) over `half`
    /// pixels each side: the sum of squared colour differences of the pixels mirrored pairwise
    /// (about an edge the pixels each side of it, about a middle those each side of that
    /// pixel; none interpolated, so no centre is favoured by smoothing).
    fn pixel_asymmetry(&self, twice: i64, half: i64) -> f32 {
        let colour = |x: i64| {
            let i = (x - self.first).clamp(0, self.colours.len() as i64 - 1);
            self.colours[i as usize]
        };
        let k = twice.div_euclid(2);
        let far_start = if twice % 2 == 0 { k } else { k + 1 };
        (0..half)
            .map(|i| {
                let (p, q) = (colour(k - 1 - i), colour(far_start + i));
                (0..3).map(|c| (p[c] - q[c]).powi(2)).sum::<f32>()
            })
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use image::Rgba;

    use super::*;

    const PITCH: [u32; 2] = [40, 50];
    const ORIGIN: [u32; 2] = [30, 20];

    fn fill(img: &mut RgbaImage, (x, y, w, h): (u32, u32, u32, u32), colour: [u8; 3]) {
        for py in y..y + h {
            for px in x..x + w {
                img.put_pixel(px, py, Rgba([colour[0], colour[1], colour[2], 255]));
            }
        }
    }

    /// A 3x4 board of touching 3D tiles: a 6 px side in two shades on the left and along the
    /// bottom of each body, an outlined paper face with a picture centred on it, one of three
    /// kinds.
    fn three_d_board() -> RgbaImage {
        let mut img = RgbaImage::from_pixel(240, 200, Rgba([60, 90, 60, 255]));
        for row in 0..3 {
            for col in 0..4 {
                let (x, y) = (ORIGIN[0] + col * PITCH[0], ORIGIN[1] + row * PITCH[1]);
                fill(&mut img, (x, y, PITCH[0], PITCH[1]), [40, 120, 40]);
                fill(
                    &mut img,
                    (x + 3, y, PITCH[0] - 3, PITCH[1] - 3),
                    [200, 180, 140],
                );
                // The face: 34 x 44 at (x + 6, y), in a 1 px outline.
                fill(&mut img, (x + 6, y, 34, 44), [90, 80, 60]);
                fill(&mut img, (x + 7, y + 1, 32, 42), [240, 235, 220]);
                let kind = (row * 4 + col) % 3;
                let side = 8 + 4 * kind;
                fill(
                    &mut img,
                    (x + 6 + 17 - side / 2, y + 22 - side / 2, side, side),
                    [30, 30, 30],
                );
            }
        }
        img
    }

    fn board_geometry(origin: [f64; 2], tile_size: [f64; 2]) -> Geometry {
        Geometry {
            rows: 3,
            cols: 4,
            origin,
            pitch: PITCH.map(f64::from),
            tile_size,
        }
    }

    fn full_board() -> Board {
        Board::from_rows(&[[1, 2, 3, 1], [2, 3, 1, 2], [3, 1, 2, 3]])
    }

    /// Asserts that tile (0, 0) of `moved` is centred within half a pixel of the face of
    /// [`three_d_board`]'s first tile on both axes.
    fn assert_on_the_faces(moved: &Geometry) {
        let centre = [
            moved.origin[0] + moved.tile_size[0] / 2.0,
            moved.origin[1] + moved.tile_size[1] / 2.0,
        ];
        let face_centre = [
            f64::from(ORIGIN[0]) + 6.0 + 17.0,
            f64::from(ORIGIN[1]) + 22.0,
        ];
        for axis in 0..2 {
            assert!(
                (centre[axis] - face_centre[axis]).abs() <= 0.5,
                "axis {axis}: {centre:?} for the faces' {face_centre:?}"
            );
        }
    }

    #[test]
    fn boxes_on_the_bodies_of_3d_tiles_move_onto_the_faces() {
        let img = three_d_board();
        // The boxes on the bodies: their centres lie 3 px left of the faces' and 3 px below.
        let bodies = board_geometry(ORIGIN.map(f64::from), PITCH.map(f64::from));
        let moved = onto_mirror_centres(&img, &bodies, &full_board());
        assert_on_the_faces(&moved);
        assert_eq!(moved.tile_size, bodies.tile_size);
    }

    #[test]
    fn boxes_with_a_3d_side_on_both_axes_move_onto_the_faces_whose_pictures_disagree() {
        // The 3D board with each face's picture drawn high, in the middle or low by kind
        // (stacked characters): most tiles mirror best about points of their own down, and
        // the sides on both axes, with the tiles agreeing across, settle it.
        let mut img = three_d_board();
        for row in 0..3 {
            for col in 0..4 {
                let (x, y) = (ORIGIN[0] + col * PITCH[0], ORIGIN[1] + row * PITCH[1]);
                fill(&mut img, (x + 7, y + 1, 32, 42), [240, 235, 220]);
                let kind = (row * 4 + col) % 3;
                let picture = (x + 17, y + 13 + 4 * kind, 12, 10);
                fill(&mut img, picture, [30, 30, 30]);
            }
        }
        let bodies = board_geometry(ORIGIN.map(f64::from), PITCH.map(f64::from));
        assert_on_the_faces(&onto_mirror_centres(&img, &bodies, &full_board()));
    }

    /// Touching bodies 40 x 50 with a 6 px strip on the left only (its colour `strip(row,
    /// col)`) and a framed face; the face's picture sits high, in the middle or low by kind,
    /// so the tiles disagree on a centre down.
    fn one_sided_board(strip: impl Fn(u32, u32) -> [u8; 3]) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(240, 200, Rgba([60, 90, 60, 255]));
        for row in 0..3 {
            for col in 0..4 {
                let (x, y) = (ORIGIN[0] + col * PITCH[0], ORIGIN[1] + row * PITCH[1]);
                fill(&mut img, (x, y, 6, PITCH[1]), strip(row, col));
                fill(&mut img, (x + 6, y, 34, PITCH[1]), [90, 80, 60]);
                fill(&mut img, (x + 7, y + 1, 32, PITCH[1] - 2), [240, 235, 220]);
                let kind = (row * 4 + col) % 3;
                let picture = (x + 6 + 12, y + 12 + 10 * kind, 10, 8);
                fill(&mut img, picture, [30, 30, 30]);
            }
        }
        img
    }

    #[test]
    fn boxes_with_a_3d_side_on_one_axis_move_onto_the_faces_on_that_axis_alone() {
        let img = one_sided_board(|_, _| [40, 120, 40]);
        let bodies = board_geometry(ORIGIN.map(f64::from), PITCH.map(f64::from));
        let moved = onto_mirror_centres(&img, &bodies, &full_board());
        let face_centre_x = f64::from(ORIGIN[0]) + 6.0 + 17.0;
        let moved_x = moved.origin[0] + moved.tile_size[0] / 2.0;
        assert!(
            (moved_x - face_centre_x).abs() <= 0.5,
            "x {moved_x} for the faces' {face_centre_x}"
        );
        assert_eq!(moved.origin[1], bodies.origin[1], "the boxes moved down");
    }

    #[test]
    fn a_strip_that_differs_from_tile_to_tile_is_no_3d_side() {
        // The strip takes the colour of what lies there (a photo, an icon's surroundings).
        let img = one_sided_board(|row, col| {
            let v = (row * 4 + col) as u8;
            [20 + 37 * (v % 5), 200 - 29 * (v % 7), 60 + 45 * (v % 4)]
        });
        let bodies = board_geometry(ORIGIN.map(f64::from), PITCH.map(f64::from));
        assert_eq!(onto_mirror_centres(&img, &bodies, &full_board()), bodies);
    }

    #[test]
    fn flat_tiles_framed_by_their_edges_keep_their_boxes_round_a_lopsided_glyph() {
        // Flat tiles 34 x 44 with 6 px gaps, each with the same L drawn off its centre.
        let mut img = RgbaImage::from_pixel(240, 200, Rgba([230, 230, 230, 255]));
        for row in 0..3 {
            for col in 0..4 {
                let (x, y) = (ORIGIN[0] + col * PITCH[0], ORIGIN[1] + row * PITCH[1]);
                fill(&mut img, (x, y, 34, 44), [50, 80, 160]);
                fill(&mut img, (x + 8, y + 8, 5, 26), [255, 255, 255]);
                fill(&mut img, (x + 8, y + 29, 16, 5), [255, 255, 255]);
            }
        }
        let boxes = board_geometry(ORIGIN.map(f64::from), [34.0, 44.0]);
        assert_eq!(onto_mirror_centres(&img, &boxes, &full_board()), boxes);
    }

    #[test]
    fn a_line_mirrored_about_a_pixel_edge_or_middle_is_found_there() {
        // A dark bar of 5 px (a middle at 12.5) and one of 4 px (an edge at 22).
        let line = |colours: Vec<f32>| TileLine {
            first: 0,
            colours: colours.into_iter().map(|v| [v; 3]).collect(),
        };
        let bar = |from: usize, to: usize| {
            line(
                (0..32)
                    .map(|i| if (from..to).contains(&i) { 0.0 } else { 200.0 })
                    .collect(),
            )
        };
        let centre = |line: TileLine, middle: f64| {
            middle
                + AsymmetryCurve::new(&line, middle, 3.0, 6.0)
                    .unwrap()
                    .lowest()
        };
        let odd = centre(bar(10, 15), 12.0);
        assert!((odd - 12.5).abs() < 0.01, "{odd}");
        let even = centre(bar(20, 24), 21.0);
        assert!((even - 22.0).abs() < 0.01, "{even}");
    }
}
