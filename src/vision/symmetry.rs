//! The tiles' faces found by their mirror symmetry.
//!
//! Tilesets draw a tile's picture in the middle of its face, and the face's own frame (a
//! border, a bevel, rounded corners) alike on both sides; a 3D side, a drop shadow or the gap
//! lies on one side only. So each tile looks most alike mirrored about its face's centre,
//! whatever its kind; where most tiles agree on that centre to a pixel, it places the faces
//! more surely than the board's edges, which a 3D side drawn in layers, a bevel or a shadow
//! give several of a pitch apart.

use image::RgbaImage;

use super::Geometry;
use super::features::rgb_distance;
use crate::board::Board;
use crate::stats;

/// Share of the tiles whose mirror centre must lie within [`AGREE`] of their median, on each
/// axis, for the tiles to move onto it.
const AGREEING: f64 = 0.5;

/// Most a tile's mirror centre may lie from the median (pixels) to agree with it.
const AGREE: f64 = 1.0;

/// `geometry` with its tiles centred on their mirror centres (see the module docs) when the
/// tiles agree on them on both axes (a face moved on one axis alone would mix a face on one
/// with a body on the other), and the board stays in the image; else as it is.
pub(super) fn onto_mirror_centres(
    image: &RgbaImage,
    geometry: &Geometry,
    board: &Board,
) -> Geometry {
    let centres = [0, 1].map(|axis| agreed_mirror_centre(image, geometry, board, axis));
    let [Some(x), Some(y)] = centres else {
        return *geometry;
    };
    let moved = Geometry {
        origin: [
            x - geometry.tile_size[0] / 2.0,
            y - geometry.tile_size[1] / 2.0,
        ],
        ..*geometry
    };
    if moved.fits(image.width(), image.height()) {
        moved
    } else {
        *geometry
    }
}

/// Tile (0, 0)'s centre on `axis` (an image coordinate) from the median of the tiles' mirror
/// centres, when [`AGREEING`] of them lie within [`AGREE`] of it and the median tile is
/// framed about it (see [`TileLine::framing`], from [`FRAME_FROM`] of the pitch out to a
/// reach past the box's edge) at least [`FRAMED`] as strongly as about the box's centre: a
/// flat tile's box framed by its own edges stands against a glyph that is not symmetric (a
/// star, a letter), whose mirror centre lies elsewhere.
fn agreed_mirror_centre(
    image: &RgbaImage,
    g: &Geometry,
    board: &Board,
    axis: usize,
) -> Option<f64> {
    let size = g.tile_size[axis];
    let reach = REACH * g.pitch[axis];
    let inner = (MIRROR_HALF * g.pitch[axis]).round();
    let whole = (size / 2.0).round() + 1.0;
    let frame_from = FRAME_FROM * g.pitch[axis];
    let tiles: Vec<(f64, TileLine)> = board
        .tile_positions()
        .filter_map(|pos| {
            let rect = g.cell_rect(pos);
            let (start, across) = if axis == 0 {
                (rect.x, (rect.y, rect.h))
            } else {
                (rect.y, (rect.x, rect.w))
            };
            let middle = start + size / 2.0;
            let line = TileLine::new(
                image,
                axis,
                middle,
                2.0 * reach + inner.max(whole) + 2.0,
                across,
            )?;
            Some((middle, line))
        })
        .collect();
    let mut offsets: Vec<f64> = tiles
        .iter()
        .filter_map(|(middle, line)| Some(line.mirror_centre(*middle, reach, inner)? - middle))
        .collect();
    let median = stats::median(&mut offsets)?;
    let agreeing = offsets
        .iter()
        .filter(|&&d| (d - median).abs() <= AGREE)
        .count();
    if (agreeing as f64) < AGREEING * offsets.len() as f64 {
        return None;
    }
    // The median tile's framing: a few tiles framed by their neighbours (touching tiles of
    // one colour) or by a selection do not sway it.
    let framing = |shift: f64| -> f32 {
        let mut strengths: Vec<f32> = tiles
            .iter()
            .map(|(middle, line)| line.framing(middle + shift, (frame_from, whole + reach)))
            .collect();
        stats::median(&mut strengths).unwrap_or(0.0)
    };
    (framing(median) >= FRAMED * framing(0.0)).then_some(g.origin[axis] + size / 2.0 + median)
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

    /// The centre within `reach` of `middle` about which the line looks most alike mirrored
    /// over `half` pixels each side: the best of every half pixel, refined by a parabola.
    fn mirror_centre(&self, middle: f64, reach: f64, half: f64) -> Option<f64> {
        let first = (2.0 * (middle - reach)).ceil() as i64;
        let last = (2.0 * (middle + reach)).floor() as i64;
        let scores: Vec<(f64, f32)> = (first..=last)
            .map(|twice| (twice as f64 / 2.0, self.pixel_asymmetry(twice, half as i64)))
            .collect();
        let best = (0..scores.len()).min_by(|&i, &j| scores[i].1.total_cmp(&scores[j].1))?;
        let score = |i: Option<usize>| {
            i.and_then(|i| scores.get(i))
                .map_or(scores[best].1, |s| s.1)
        };
        let (l, c, r) = (
            score(best.checked_sub(1)),
            scores[best].1,
            score(Some(best + 1)),
        );
        let denominator = l - 2.0 * c + r;
        let shift = if denominator > f32::EPSILON {
            (0.5 * (l - r) / denominator).clamp(-0.5, 0.5)
        } else {
            0.0
        };
        Some(scores[best].0 + f64::from(shift) / 2.0)
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

    #[test]
    fn boxes_on_the_bodies_of_3d_tiles_move_onto_the_faces() {
        let img = three_d_board();
        // The boxes on the bodies: their centres lie 3 px left of the faces' and 3 px below.
        let bodies = board_geometry(ORIGIN.map(f64::from), PITCH.map(f64::from));
        let moved = onto_mirror_centres(&img, &bodies, &full_board());
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
        assert_eq!(moved.tile_size, bodies.tile_size);
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
        let odd = bar(10, 15).mirror_centre(12.0, 3.0, 6.0).unwrap();
        assert!((odd - 12.5).abs() < 0.01, "{odd}");
        let even = bar(20, 24).mirror_centre(21.0, 3.0, 6.0).unwrap();
        assert!((even - 22.0).abs() < 0.01, "{even}");
    }
}
