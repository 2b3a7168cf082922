//! The tiles' centre found from their mean picture.
//!
//! Averaged over the tiles of a board, each sampled at its own sub-pixel place on the lattice,
//! the pictures (which differ from kind to kind) blur away, while what every tile shares (the
//! edges of its face, its bevel, its 3D side) stays sharp. A face's edges come in pairs about
//! its centre, and so do its bevel's and the blur of the pictures drawn in its middle; a 3D
//! side on one end has no partner. So the mean tile's edge profile along each axis mirrors
//! best about the faces' centre, measured to a fraction of a pixel however noisy each tile is.

use image::RgbaImage;

use super::Geometry;
use crate::board::Board;
use crate::stats::parabola_vertex;

/// Most tiles averaged (spread over the board).
const MOST_TILES: usize = 64;

/// Fewest tiles whose mean is measured.
const FEWEST_TILES: usize = 4;

/// How far (share of the pitch) the window each tile is sampled in reaches from the box's
/// centre: past the tile's ends, so that both edges of a face are inside at every centre
/// tried.
const REACH: f64 = 0.7;

/// How far (share of the pitch) the centre is sought from the box's centre.
const SEARCH: f64 = 0.15;

/// The nearest (share of the pitch) a pair of edges may lie to the centre they mirror about:
/// a face is wider than this twice, and nearer pairs (the two sides of a grid line, the
/// strokes of the pictures' mean) say little of the face.
const NEAREST_PAIR: f64 = 0.2;

/// The farthest (share of the pitch) a pair of edges may lie from the centre: a little over
/// half a pitch, so that on a board of touching tiles the edge between two tiles pairs with
/// its copy a pitch on about the body's centre (scored on 2,400 generated scenes: stopping
/// short of half a pitch found 24 fewer boards' centres).
const FARTHEST_PAIR: f64 = 0.55;

/// Share of the box across an axis (about its centre) whose edges are summed along it: the
/// middle of the tile, away from the corners and the sides across.
const BAND: f64 = 0.6;

/// The mean of the tiles' pictures: RGB at each sample of a window from `start`.
struct MeanTile {
    start: [f64; 2],
    size: [usize; 2],
    rgb: Vec<[f32; 3]>,
}

impl MeanTile {
    /// The mean over up to [`MOST_TILES`] tiles of `read` (a board read with `geometry`) of a
    /// window reaching [`REACH`] of a pitch round each box's centre, sampled bilinearly at
    /// whole pixels from the window's own start; `None` with fewer than [`FEWEST_TILES`]
    /// windows in the image.
    fn of(image: &RgbaImage, geometry: &Geometry, read: &Board) -> Option<MeanTile> {
        let half = [0, 1].map(|i| (REACH * geometry.pitch[i]).ceil());
        let size = half.map(|h| 2 * h as usize + 1);
        let centre = |i: usize, cell: usize| {
            geometry.origin[i] + cell as f64 * geometry.pitch[i] + geometry.tile_size[i] / 2.0
        };
        let tiles: Vec<usize> = (0..read.cells().len())
            .filter(|&i| read.cells()[i] != 0)
            .collect();
        let step = tiles.len().div_ceil(MOST_TILES).max(1);
        let (w, h) = (image.width() as usize, image.height() as usize);
        let raw = image.as_raw();
        let mut sums = vec![[0f32; 3]; size[0] * size[1]];
        let mut count = 0usize;
        // The first window's start: each tile's window starts a whole number of pitches away.
        let start = [0, 1].map(|i| centre(i, 0) - half[i]);
        for &i in tiles.iter().step_by(step) {
            let (row, col) = (i / read.cols(), i % read.cols());
            // Pixel k's centre lies at k + 0.5.
            let at = [
                centre(0, col) - half[0] - 0.5,
                centre(1, row) - half[1] - 0.5,
            ];
            let corner = at.map(f64::floor);
            if corner[0] < 0.0
                || corner[1] < 0.0
                || corner[0] as usize + size[0] + 1 > w
                || corner[1] as usize + size[1] + 1 > h
            {
                continue;
            }
            let (x0, y0) = (corner[0] as usize, corner[1] as usize);
            let [fx, fy] = [(at[0] - corner[0]) as f32, (at[1] - corner[1]) as f32];
            let weights = [
                (1.0 - fx) * (1.0 - fy),
                fx * (1.0 - fy),
                (1.0 - fx) * fy,
                fx * fy,
            ];
            for j in 0..size[1] {
                for k in 0..size[0] {
                    let sum = &mut sums[j * size[0] + k];
                    for (weight, (dx, dy)) in weights.iter().zip([(0, 0), (1, 0), (0, 1), (1, 1)]) {
                        let p = ((y0 + j + dy) * w + x0 + k + dx) * 4;
                        for c in 0..3 {
                            sum[c] += weight * f32::from(raw[p + c]);
                        }
                    }
                }
            }
            count += 1;
        }
        if count < FEWEST_TILES {
            return None;
        }
        let n = count as f32;
        let rgb = sums.into_iter().map(|s| s.map(|v| v / n)).collect();
        Some(MeanTile { start, size, rgb })
    }

    /// The edge strength between samples k and k + 1 along `axis`: the RGB steps summed over
    /// `band` samples each side of the window's middle across it, blurred by 1-2-1 (an edge
    /// between two samples' places shows in both steps round it).
    fn edges(&self, axis: usize, band: usize) -> Vec<f64> {
        let [nx, ny] = self.size;
        let (along, across) = if axis == 0 { (nx, ny) } else { (ny, nx) };
        let middle = across / 2;
        let rows = middle.saturating_sub(band)..(middle + band + 1).min(across);
        let at = |a: usize, b: usize| {
            if axis == 0 {
                self.rgb[b * nx + a]
            } else {
                self.rgb[a * nx + b]
            }
        };
        let steps: Vec<f64> = (0..along - 1)
            .map(|a| {
                rows.clone()
                    .map(|b| {
                        let (p, q) = (at(a, b), at(a + 1, b));
                        (0..3).map(|c| f64::from((p[c] - q[c]).abs())).sum::<f64>()
                    })
                    .sum()
            })
            .collect();
        let step = |k: Option<usize>| k.and_then(|k| steps.get(k)).copied().unwrap_or(0.0);
        (0..steps.len())
            .map(|k| 0.25 * step(k.checked_sub(1)) + 0.5 * steps[k] + 0.25 * step(Some(k + 1)))
            .collect()
    }
}

/// Tile (0, 0)'s centre (image coordinates) where the mean tile's edge profiles (see the
/// module docs) mirror best, sought within [`SEARCH`] of a pitch of `geometry`'s box centre;
/// `None` when fewer than [`FEWEST_TILES`] tiles of `read` lie in the image or the pitch is
/// under 8 pixels.
pub(super) fn mean_tile_centre(
    image: &RgbaImage,
    geometry: &Geometry,
    read: &Board,
) -> Option<[f64; 2]> {
    if geometry.pitch.iter().any(|&p| p < 8.0)
        || read.rows() != geometry.rows
        || read.cols() != geometry.cols
    {
        return None;
    }
    let mean = MeanTile::of(image, geometry, read)?;
    let centre = |axis: usize| {
        let pitch = geometry.pitch[1 - axis];
        let band = (BAND * geometry.tile_size[1 - axis].min(pitch) / 2.0) as usize;
        let edges = mean.edges(axis, band);
        let mirrored = mirror_centre(&edges, geometry.pitch[axis]);
        // Edge k lies between samples k and k + 1: at start + k + 0.5 (sample s at start + s).
        mean.start[axis] + mirrored + 0.5
    };
    Some([centre(0), centre(1)])
}

/// Where (in edge indices, to a fraction) the profile `edges` mirrors best: the centre c near
/// the profile's middle, within [`SEARCH`] of `pitch`, that maximises the sum over the pairs
/// of edges at c - t and c + t ([`NEAREST_PAIR`] to [`FARTHEST_PAIR`] of the pitch away) of
/// the weaker of the two.
fn mirror_centre(edges: &[f64], pitch: f64) -> f64 {
    let n = edges.len();
    let nearest = (NEAREST_PAIR * pitch).round() as usize;
    let farthest = (FARTHEST_PAIR * pitch).round() as usize;
    // Centres at half indices: m / 2. For m even the centre is an edge (t = 0 pairs it with
    // itself); for m odd it lies between edges m / 2 and m / 2 + 1.
    let score = |m: usize| {
        (nearest..=farthest)
            .filter_map(|t| {
                let (lo, hi) = ((m / 2).checked_sub(t)?, m / 2 + m % 2 + t);
                (hi < n).then(|| edges[lo].min(edges[hi]))
            })
            .sum::<f64>()
    };
    let reach = (SEARCH * pitch).ceil() as usize;
    // The profile's middle, (n - 1) / 2, in half indices.
    let m_middle = n - 1;
    let candidates = m_middle.saturating_sub(2 * reach)..=(m_middle + 2 * reach).min(2 * n - 2);
    let scores: Vec<(usize, f64)> = candidates.map(|m| (m, score(m))).collect();
    let best = scores
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.1.total_cmp(&b.1.1))
        .map_or(0, |(i, _)| i);
    let vertex = if best > 0 && best + 1 < scores.len() {
        parabola_vertex(scores[best - 1].1, scores[best].1, scores[best + 1].1)
    } else {
        0.0
    };
    // m / 2 is an edge index for m even; for m odd the middle of two.
    (scores[best].0 as f64 + vertex) / 2.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vision::test_pictures::board_4x6;
    use image::Rgba;
    use imageproc::drawing::draw_filled_rect_mut;
    use imageproc::rect::Rect;

    /// A board of 4 x 6 cells at pitch 44 x 54 from (20, 30) on a green ground, with a tile
    /// `width` x 50 in each cell `holds` keeps: each body a 6 px brown side on the left and a
    /// light face (x0 + 6 .. x0 + width, y0 .. y0 + 50), with a dark bar of a size that
    /// changes with the kind, centred on the face but drawn in the face's top half on half the
    /// kinds (a picture lopsided on its own).
    fn board_of_3d_tiles(width: u32, holds: impl Fn(u32, u32) -> bool) -> RgbaImage {
        let mut image = RgbaImage::from_pixel(320, 280, Rgba([30, 90, 40, 255]));
        for r in 0..4u32 {
            for c in (0..6u32).filter(|&c| holds(r, c)) {
                let (x0, y0) = ((20 + c * 44) as i32, (30 + r * 54) as i32);
                let mut fill = |x: i32, y: i32, w: u32, h: u32, [r, g, b]: [u8; 3]| {
                    let rect = Rect::at(x, y).of_size(w, h);
                    draw_filled_rect_mut(&mut image, rect, Rgba([r, g, b, 255]));
                };
                fill(x0, y0, width, 50, [235, 230, 210]);
                fill(x0, y0, 6, 50, [120, 100, 60]);
                let kind = (r * 6 + c) % 4;
                let half = 4 + 3 * kind;
                let middle = x0 + (6 + width as i32) / 2;
                let height = if kind % 2 == 0 { 34 } else { 17 };
                fill(
                    middle - half as i32,
                    y0 + 8,
                    2 * half,
                    height,
                    [40, 40, 160],
                );
            }
        }
        image
    }

    /// Boxes a few pixels off the tiles, as the edges may give them.
    const OFF: Geometry = Geometry {
        rows: 4,
        cols: 6,
        origin: [23.0, 28.0],
        pitch: [44.0, 54.0],
        tile_size: [40.0, 50.0],
    };

    #[test]
    fn tiles_apart_mirror_about_their_faces_centre() {
        // Every other column: nothing beside a tile but the ground.
        let holds = |_: u32, c: u32| c % 2 == 0;
        let image = board_of_3d_tiles(40, holds);
        let centre = mean_tile_centre(&image, &OFF, &board_4x6(holds)).unwrap();
        // The face: x 26 .. 60, y 30 .. 80.
        assert!((centre[0] - 43.0).abs() <= 0.5, "{centre:?}");
        assert!((centre[1] - 55.0).abs() <= 0.5, "{centre:?}");
    }

    #[test]
    fn touching_tiles_mirror_about_their_face_or_body() {
        let holds = |_: u32, _: u32| true;
        let image = board_of_3d_tiles(44, holds);
        let centre = mean_tile_centre(&image, &OFF, &board_4x6(holds)).unwrap();
        // The face x 26 .. 64 (centre 45), the body 20 .. 64 (centre 42).
        let off = [45.0, 42.0].map(|x: f64| (centre[0] - x).abs());
        assert!(off[0] <= 0.5 || off[1] <= 0.5, "{centre:?}");
        assert!((centre[1] - 55.0).abs() <= 0.5, "{centre:?}");
    }

    #[test]
    fn too_few_tiles_or_a_board_of_another_size_give_no_centre() {
        let holds = |r: u32, c: u32| r == 0 && c < 2;
        let image = board_of_3d_tiles(40, holds);
        assert_eq!(mean_tile_centre(&image, &OFF, &board_4x6(holds)), None);
        let other = Board::new(3, 6, vec![1; 18]).unwrap();
        assert_eq!(mean_tile_centre(&image, &OFF, &other), None);
    }
}
