//! Which tile the game shows as selected.
//!
//! Games mark the selected tile in many ways: xshisen stipples its paper (the plain background
//! of the face) black and white, kshisen tints it yellow, others invert it, frame it with a
//! border inside the tile or an outline just outside, or draw it with other art. Two rules,
//! either of which marks a tile:
//! - **Paper**: the paper colour is the most common colour of all tile faces in the frame; a
//!   tile is selected when much less of its face has that colour than another tile of its kind
//!   (identical faces show the same amount of paper).
//! - **Shared look** (a border or an outline): every tile of a board is drawn on the same
//!   body, so at many places of the tile (its rim, its paper, the gap round it) nearly all
//!   tiles look the same whatever their kind. A tile that differs from the others in a ring
//!   round it or along its edge, on every side judged and in one colour unlike what it
//!   covers, while its middle looks as the others' do, is marked. Places over the wallpaper
//!   (round a tile on an open side) are not judged: wallpaper differs across the window.
//!
//! A kind whose tiles are all marked, such as a matched pair the game still shows, reports
//! none.

use image::RgbaImage;

use super::features::{median_colour, pixel_range};
use super::{ClassifierSettings, Geometry};
use crate::board::{Board, Pos};

/// A pixel is paper when every channel is this close to the paper colour.
const PAPER_TOLERANCE: i32 = 28;

/// A tile is selected when its paper fraction is below this share of its kind's largest.
const SELECTED_SHARE: f32 = 0.7;

/// Tiles whose kind shows less paper than this are never judged (too little to compare).
const MIN_PAPER: f32 = 0.15;

/// How far round the tile box its look is compared, a share of the pitch (an outline drawn
/// just outside the tile).
const AROUND: f64 = 0.15;

/// Rings round the tile where an outline may be drawn: offsets past its edge, a share of
/// [`AROUND`] of a pitch, farthest first.
const OUTSIDE: [f64; 6] = [1.0, 5.0 / 6.0, 4.0 / 6.0, 3.0 / 6.0, 2.0 / 6.0, 1.0 / 6.0];

/// Rings along the tile's edge where a border may be drawn: offsets in from its edge, a share
/// of the tile, outermost first.
const EDGE: [f64; 3] = [0.015, 0.045, 0.075];

/// Places over the tile's middle along each axis.
const MIDDLE: usize = 14;

/// Places along each axis: the outside rings and the edge rings on both sides, the middle.
const PER_AXIS: usize = 2 * (OUTSIDE.len() + EDGE.len()) + MIDDLE;

/// Rings, outermost first: the outside rings, the edge rings, then the middle (one ring).
const RINGS: usize = OUTSIDE.len() + EDGE.len() + 1;

/// Where a tile's look is compared along one axis: each place's offset from the tile's start
/// (pixels, for a tile `size` long at `pitch`) and its ring (outermost 0).
fn axis_places(size: f64, pitch: f64) -> [(f64, usize); PER_AXIS] {
    let mut out = [(0.0, RINGS - 1); PER_AXIS];
    let around = AROUND * pitch;
    for (ring, &o) in OUTSIDE.iter().enumerate() {
        out[ring] = (-o * around, ring);
        out[PER_AXIS - 1 - ring] = (size + o * around, ring);
    }
    for (i, &e) in EDGE.iter().enumerate() {
        let ring = OUTSIDE.len() + i;
        out[ring] = (e * size, ring);
        out[PER_AXIS - 1 - ring] = ((1.0 - e) * size, ring);
    }
    let first = OUTSIDE.len() + EDGE.len();
    for k in 0..MIDDLE {
        out[first + k] = (
            (0.1 + 0.8 * (k as f64 + 0.5) / MIDDLE as f64) * size,
            RINGS - 1,
        );
    }
    out
}

/// Most tiles the shared look is taken from (evenly spread over the board).
const MOST_REFERENCE_TILES: usize = 63;

/// A place looks the same on two tiles when no channel differs by more than this.
const LOOK_TOLERANCE: i32 = 40;

/// A place is shared when at least this share of the tiles look the same there.
const SHARED_BY: f32 = 0.75;

/// A band is judged only where it has at least this many shared places.
const MIN_SHARED_PLACES: usize = 12;

/// The share of a ring's unlike places that must be of one colour for a border or outline.
const ONE_COLOUR_SHARE: f32 = 0.6;

/// A tile marked by a ring round or along its edge is unlike the shared look at no more than
/// this share of its middle's shared places.
const BODY_UNCHANGED: f32 = 0.25;

/// Most tiles a game shows selected at once.
const MOST_MARKED: usize = 2;

/// A side of a ring is judged only where it has at least this many shared places.
const MIN_SIDE_PLACES: usize = 3;

/// A tile is marked when it differs at this share of a band's shared places, or more...
const MARKED_SHARE: f32 = 0.5;

/// ...and at least this many times as many as the tile at the 90th percentile...
const MARKED_OVER_OTHERS: f32 = 3.0;

/// ...and as its kind-mates (a kind whose art reaches the tile's edge differs there on every
/// tile of the kind).
const MARKED_OVER_MATES: f32 = 2.0;

/// The tiles of `board` (read from `image` at `geometry`) that look selected, row-major.
pub fn selected_tiles(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    board: &Board,
) -> Vec<Pos> {
    let tiles: Vec<Pos> = board.tile_positions().collect();
    let mates = kind_mates(board, &tiles);
    let mut marked = paper_marked(image, geometry, settings, &tiles, &mates);
    for (m, unlike) in marked.iter_mut().zip(unlike_the_shared_look(
        image, geometry, board, &tiles, &mates,
    )) {
        *m |= unlike;
    }
    // A marked tile must have an unmarked kind-mate: a kind all marked is a matched pair the
    // game still shows, and a lone tile of its kind may be a misread empty cell.
    tiles
        .iter()
        .enumerate()
        .filter(|&(i, _)| marked[i] && mates[i].iter().any(|&j| !marked[j]))
        .map(|(_, &pos)| pos)
        .collect()
}

/// Per tile (in the order of `tiles`), the other tiles of its kind on `board`, in order.
fn kind_mates(board: &Board, tiles: &[Pos]) -> Vec<Vec<usize>> {
    let mut of_kind: std::collections::HashMap<_, Vec<usize>> = std::collections::HashMap::new();
    for (i, &pos) in tiles.iter().enumerate() {
        of_kind.entry(board.get(pos)).or_default().push(i);
    }
    tiles
        .iter()
        .enumerate()
        .map(|(i, &pos)| {
            let kind = &of_kind[&board.get(pos)];
            kind.iter().copied().filter(|&j| j != i).collect()
        })
        .collect()
}

/// Per tile (in the order of `tiles`), whether its face shows much less paper than another
/// tile of its kind (see the module docs).
fn paper_marked(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    tiles: &[Pos],
    mates: &[Vec<usize>],
) -> Vec<bool> {
    // All faces' pixels one after the other; face `i` ends at `ends[i]`.
    let mut pixels = Vec::new();
    let ends: Vec<usize> = tiles
        .iter()
        .map(|&pos| {
            face_pixels(image, geometry, settings.trim, pos, &mut pixels);
            pixels.len()
        })
        .collect();
    let Some(paper) = paper_colour(&pixels) else {
        return vec![false; tiles.len()];
    };
    let fractions: Vec<f32> = (0..tiles.len())
        .map(|i| {
            let face = &pixels[if i == 0 { 0 } else { ends[i - 1] }..ends[i]];
            let on_paper = face.iter().filter(|p| is_paper(p, paper)).count();
            on_paper as f32 / face.len().max(1) as f32
        })
        .collect();
    (0..tiles.len())
        .map(|i| {
            let most = mates[i].iter().map(|&j| fractions[j]).fold(0.0, f32::max);
            most >= MIN_PAPER && fractions[i] < SELECTED_SHARE * most
        })
        .collect()
}

/// Per tile (in the order of `tiles`), whether it differs from the look all tiles share (see
/// the module docs), in some ring of places round it or along its edge: unlike the shared
/// look at [`MARKED_SHARE`] of the ring's shared places on every side judged (a mark goes all
/// the way round), at [`MARKED_OVER_OTHERS`] times the share of the tile at the ring's 90th
/// percentile and at [`MARKED_OVER_MATES`] times its kind-mates', its middle unlike at no more
/// than [`BODY_UNCHANGED`]; a ring where more than [`MOST_MARKED`] tiles stand out marks none.
/// All false with under three tiles (no majority).
fn unlike_the_shared_look(
    image: &RgbaImage,
    geometry: &Geometry,
    board: &Board,
    tiles: &[Pos],
    mates: &[Vec<usize>],
) -> Vec<bool> {
    let mut marked = vec![false; tiles.len()];
    if tiles.len() < 3 {
        return marked;
    }
    let looks = SharedLook::of(image, geometry, board, tiles);
    // A border or an outline leaves the tile's body as it was: a tile whose middle is unlike
    // the shared look too is not a tile with a mark round it (an empty cell read as a tile, a
    // tile of a pair being removed, tint: the paper rule's case).
    let body_unchanged: Vec<bool> = (0..tiles.len())
        .map(|i| {
            looks
                .unlike(i, RINGS - 1)
                .is_none_or(|m| m <= BODY_UNCHANGED)
        })
        .collect();
    for ring in 0..RINGS - 1 {
        let shares: Vec<Option<f32>> = (0..tiles.len()).map(|i| looks.unlike(i, ring)).collect();
        let mut sorted: Vec<f32> = shares.iter().flatten().copied().collect();
        if sorted.len() < 3 {
            continue;
        }
        sorted.sort_by(f32::total_cmp);
        // The 90th percentile, never the largest share (a small board's selected tile).
        let usual = sorted[(sorted.len() * 9 / 10).min(sorted.len() - 2)];
        let passing: Vec<usize> = (0..tiles.len())
            .filter(|&i| {
                let Some(share) = shares[i].filter(|_| body_unchanged[i]) else {
                    return false;
                };
                share >= MARKED_SHARE
                    && share >= MARKED_OVER_OTHERS * usual
                    && share
                        >= MARKED_OVER_MATES
                            * mates[i]
                                .iter()
                                .filter_map(|&j| shares[j])
                                .fold(0.0, f32::max)
            })
            .collect();
        // A game shows one tile selected, two at most: more tiles that stand out stand out
        // for another reason.
        if passing.len() <= MOST_MARKED {
            for i in passing {
                marked[i] = true;
            }
        }
    }
    marked
}

/// The tiles' looks at the places of [`places`], and the look they share at each place: the
/// median over the tiles, where at least [`SHARED_BY`] of them look like it. A place round a
/// tile on a side whose neighbour is open is never judged: the wallpaper shows there, and its
/// look changes across the window (live kshisen jade: a tile at the board's top, on wallpaper
/// lighter than round most open sides, looked outlined; kshisen at 12x24: a tile at the
/// board's right edge).
struct SharedLook {
    /// Per tile, its colours at the places; `None` off the image and round the tile on a side
    /// whose neighbour (top, bottom, left, right) is empty or off the board.
    looks: Vec<Vec<Option<[u8; 3]>>>,
    /// The same looks place by place: entry `k * tiles + i` is tile `i`'s at place `k`.
    by_place: Vec<Option<[u8; 3]>>,
    /// The ring and side of each place (see [`place_rings`]).
    rings: Vec<(usize, usize)>,
    /// The places of each ring.
    ring_places: Vec<Vec<usize>>,
    /// Per place, the look shared by the tiles that show it beside a tile, if shared.
    shared: Vec<Option<[i32; 3]>>,
}

impl SharedLook {
    /// The looks of `tiles` of `board` in `image` at `geometry`, and what they share.
    fn of(image: &RgbaImage, geometry: &Geometry, board: &Board, tiles: &[Pos]) -> SharedLook {
        let rings = place_rings();
        let looks: Vec<Vec<Option<[u8; 3]>>> = tiles
            .iter()
            .map(|&pos| {
                let open = [(-1, 0), (1, 0), (0, -1), (0, 1)].map(|(dr, dc)| {
                    let n = Pos::new(pos.row + dr, pos.col + dc);
                    !board.contains(n) || board.get(n) == crate::board::EMPTY
                });
                let mut look = places(image, geometry, pos);
                for (place, &(ring, side)) in look.iter_mut().zip(&rings) {
                    if ring < OUTSIDE.len() && side < 4 && open[side] {
                        *place = None;
                    }
                }
                look
            })
            .collect();
        let ring_places = (0..RINGS)
            .map(|ring| (0..rings.len()).filter(|&k| rings[k].0 == ring).collect())
            .collect();
        let by_place = (0..PER_AXIS * PER_AXIS)
            .flat_map(|k| looks.iter().map(move |look| look[k]))
            .collect();
        let mut out = SharedLook {
            looks,
            by_place,
            rings,
            ring_places,
            shared: Vec::new(),
        };
        out.shared = (0..PER_AXIS * PER_AXIS).map(|k| out.shared_at(k)).collect();
        out
    }

    /// Tile `i`'s look at place `k`, unless the place lies round the tile on a side whose
    /// neighbour is open (or off the image).
    fn look(&self, i: usize, k: usize) -> Option<[u8; 3]> {
        self.looks[i][k]
    }

    /// The look the tiles share at place `k`, if at least three of them show it there and
    /// [`SHARED_BY`] of those look like their median.
    fn shared_at(&self, k: usize) -> Option<[i32; 3]> {
        let n = self.looks.len();
        let members = || self.by_place[k * n..(k + 1) * n].iter().flatten().copied();
        let count = members().count();
        if count < 3 {
            return None;
        }
        let step = count.div_ceil(MOST_REFERENCE_TILES);
        // At most MOST_REFERENCE_TILES of them: the step makes it so.
        let mut sample = [[0u8; 3]; MOST_REFERENCE_TILES];
        let mut taken = 0;
        for (slot, p) in sample.iter_mut().zip(members().step_by(step)) {
            *slot = p;
            taken += 1;
        }
        let median = median_colour(&sample[..taken]).map(i32::from);
        let alike = members().filter(|&p| !unlike(p, median)).count();
        (alike as f32 >= SHARED_BY * count as f32).then_some(median)
    }

    /// The share of tile `i`'s shared places in `ring` where it looks unlike the shared look:
    /// the least over the ring's sides with at least [`MIN_SIDE_PLACES`] of them (three sides
    /// at least, round the tile or on its edge); `None` where too little is shared.
    fn unlike(&self, i: usize, ring: usize) -> Option<f32> {
        let mut per_side = [(0usize, 0usize); 5];
        let mut differing = Vec::new();
        let mut covered = Vec::new();
        for &k in &self.ring_places[ring] {
            let (Some(look), Some(shared)) = (self.look(i, k), self.shared[k]) else {
                continue;
            };
            let side = &mut per_side[self.rings[k].1];
            if unlike(look, shared) {
                side.0 += 1;
                differing.push(look);
                covered.push(shared.map(|c| c.clamp(0, 255) as u8));
            }
            side.1 += 1;
        }
        let judged: Vec<f32> = per_side
            .iter()
            .filter(|&&(_, n)| n >= MIN_SIDE_PLACES)
            .map(|&(d, n)| d as f32 / n as f32)
            .collect();
        let total: usize = per_side.iter().map(|s| s.1).sum();
        let middle = ring == RINGS - 1;
        if total < MIN_SHARED_PLACES || judged.is_empty() || !(middle || judged.len() >= 3) {
            return None;
        }
        if !middle {
            // A border or an outline is drawn in one colour; a ring unlike in many colours
            // shows something else through (the background behind a misread neighbour).
            let mark = median_colour(&differing);
            if !mostly_one_colour(&differing, mark) {
                return Some(0.0);
            }
            // ...unlike what it covers: a texture (wallpaper round a tile) strays from its
            // usual look both ways, so what differs is on the whole the usual look.
            if !unlike(mark, median_colour(&covered).map(i32::from)) {
                return Some(0.0);
            }
        }
        Some(judged.into_iter().fold(1.0, f32::min))
    }
}

/// Whether at least [`ONE_COLOUR_SHARE`] of `colours` lie within [`LOOK_TOLERANCE`] of
/// `median`, their per-channel median (see [`median_colour`]).
fn mostly_one_colour(colours: &[[u8; 3]], median: [u8; 3]) -> bool {
    let median = median.map(i32::from);
    let alike = colours.iter().filter(|&&p| !unlike(p, median)).count();
    alike as f32 >= ONE_COLOUR_SHARE * colours.len() as f32
}

/// Whether two colours differ by more than [`LOOK_TOLERANCE`] in some channel.
fn unlike(look: [u8; 3], shared: [i32; 3]) -> bool {
    (0..3).any(|c| (i32::from(look[c]) - shared[c]).abs() > LOOK_TOLERANCE)
}

/// The colours at the places of [`axis_places`] (both axes) round and over the tile box of
/// `pos`, row-major (`None` off the image).
fn places(image: &RgbaImage, geometry: &Geometry, pos: Pos) -> Vec<Option<[u8; 3]>> {
    let r = geometry.cell_rect(pos);
    let xs = axis_places(r.w, geometry.pitch[0]);
    let ys = axis_places(r.h, geometry.pitch[1]);
    // The pixel column (row) of each place along each axis, `None` off the image.
    let pixel = |start: f64, offset: f64, limit: u32| {
        let v = start + offset;
        (v >= 0.0 && v < f64::from(limit)).then_some(v as usize)
    };
    let columns = xs.map(|(dx, _)| pixel(r.x, dx, image.width()));
    let rows = ys.map(|(dy, _)| pixel(r.y, dy, image.height()));
    let (raw, stride) = (image.as_raw(), image.width() as usize * 4);
    let mut out = Vec::with_capacity(PER_AXIS * PER_AXIS);
    for y in rows {
        out.extend(columns.iter().map(|&x| {
            let at = y? * stride + x? * 4;
            Some([raw[at], raw[at + 1], raw[at + 2]])
        }));
    }
    out
}

/// The ring and side of each place of [`places`] (row-major): the outer of its two axes'
/// rings, on the side (0 top, 1 bottom, 2 left, 3 right) of the axis that gives it; the
/// middle has no side (4).
fn place_rings() -> Vec<(usize, usize)> {
    let rings = axis_places(1.0, 1.0).map(|(_, ring)| ring);
    let half = PER_AXIS / 2;
    (0..PER_AXIS * PER_AXIS)
        .map(|k| {
            let (y, x) = (k / PER_AXIS, k % PER_AXIS);
            let ring = rings[y].min(rings[x]);
            let side = if ring == RINGS - 1 {
                4
            } else if rings[y] == ring {
                usize::from(y >= half)
            } else {
                2 + usize::from(x >= half)
            };
            (ring, side)
        })
        .collect()
}

/// Appends to `out` the pixels of a tile's face (the tile less `trim` on every side).
fn face_pixels(
    image: &RgbaImage,
    geometry: &Geometry,
    trim: f64,
    pos: Pos,
    out: &mut Vec<[u8; 3]>,
) {
    let r = geometry.cell_rect(pos);
    let (tx, ty) = (r.w * trim, r.h * trim);
    let (xa, xb) = pixel_range(r.x + tx, r.x + r.w - tx, image.width());
    let (ya, yb) = pixel_range(r.y + ty, r.y + r.h - ty, image.height());
    let (raw, stride) = (image.as_raw(), image.width() as usize * 4);
    for y in ya as usize..yb as usize {
        let row = &raw[y * stride + xa as usize * 4..y * stride + xb as usize * 4];
        out.extend(row.chunks_exact(4).map(|p| [p[0], p[1], p[2]]));
    }
}

/// The most common colour over all faces (histogram of 16 levels a channel, then the mean of
/// the fullest bin); `None` without pixels.
fn paper_colour(pixels: &[[u8; 3]]) -> Option<[i32; 3]> {
    let bin = |p: &[u8; 3]| {
        (usize::from(p[0] >> 4) << 8) | (usize::from(p[1] >> 4) << 4) | usize::from(p[2] >> 4)
    };
    let mut counts = vec![0u32; 4096];
    for p in pixels {
        counts[bin(p)] += 1;
    }
    let (fullest, &count) = counts.iter().enumerate().max_by_key(|&(_, c)| *c)?;
    if count == 0 {
        return None;
    }
    let mut sum = [0u64; 3];
    for p in pixels.iter().filter(|p| bin(p) == fullest) {
        for c in 0..3 {
            sum[c] += u64::from(p[c]);
        }
    }
    Some(sum.map(|s| (s / u64::from(count)) as i32))
}

fn is_paper(p: &[u8; 3], paper: [i32; 3]) -> bool {
    (0..3).all(|c| (i32::from(p[c]) - paper[c]).abs() <= PAPER_TOLERANCE)
}

#[cfg(test)]
mod tests {
    use super::*;
    use image::Rgba;

    /// Four 10x10 tiles in a row, two kinds; paper white, ink a black bar of `ink` columns.
    fn frame(selected: Option<usize>) -> (RgbaImage, Geometry, Board) {
        let mut image = RgbaImage::from_pixel(60, 20, Rgba([0, 64, 0, 255]));
        let inks = [2, 4, 2, 4];
        for (t, &ink) in inks.iter().enumerate() {
            for y in 5..15 {
                for x in 0..10 {
                    let px = 5 + 12 * t as u32 + x;
                    let colour = if x < ink {
                        [0, 0, 0]
                    } else if selected == Some(t) {
                        [240, 240, 150]
                    } else {
                        [250, 250, 250]
                    };
                    image.put_pixel(px, y, Rgba([colour[0], colour[1], colour[2], 255]));
                }
            }
        }
        let geometry = Geometry {
            rows: 1,
            cols: 4,
            origin: [5.0, 5.0],
            pitch: [12.0, 12.0],
            tile_size: [10.0, 10.0],
        };
        (image, geometry, "1 2 1 2".parse().unwrap())
    }

    #[test]
    fn a_tinted_tile_is_selected_and_its_mate_is_not() {
        let settings = ClassifierSettings::default();
        for t in 0..4 {
            let (image, geometry, board) = frame(Some(t));
            assert_eq!(
                selected_tiles(&image, &geometry, &settings, &board),
                vec![Pos::new(0, t as i32)]
            );
        }
        let (image, geometry, board) = frame(None);
        assert!(selected_tiles(&image, &geometry, &settings, &board).is_empty());
    }

    /// How a test board marks a tile.
    #[derive(Clone, Copy, Debug)]
    enum Mark {
        /// A red frame 2 px wide inside the tile.
        Border,
        /// A red line 1 px wide, 2 px outside the tile.
        Outline,
    }

    /// A board of 24x24 tiles `gap` px apart on a dark green ground, read as `board`: a grey
    /// rim round white paper, and a black bar whose width tells the kind; `marked` tiles
    /// drawn with `mark`.
    fn marked_board(board: &str, gap: u32, marked: &[Pos], mark: Mark) -> (RgbaImage, Geometry) {
        let board: Board = board.parse().unwrap();
        let (tile, pitch) = (24u32, 24 + gap);
        let margin = 10;
        let (w, h) = (
            2 * margin + pitch * board.cols() as u32,
            2 * margin + pitch * board.rows() as u32,
        );
        let mut image = RgbaImage::from_pixel(w, h, Rgba([0, 64, 0, 255]));
        for pos in board.tile_positions() {
            let (x0, y0) = (
                margin + pitch * pos.col as u32,
                margin + pitch * pos.row as u32,
            );
            let ink = 3 * board.get(pos);
            for y in 0..tile {
                for x in 0..tile {
                    let rim = x < 3 || y < 3 || x >= tile - 3 || y >= tile - 3;
                    let colour = if rim {
                        [150, 150, 150]
                    } else if (6..6 + ink).contains(&x) && (6..18).contains(&y) {
                        [0, 0, 0]
                    } else {
                        [250, 250, 250]
                    };
                    image.put_pixel(x0 + x, y0 + y, Rgba([colour[0], colour[1], colour[2], 255]));
                }
            }
            if !marked.contains(&pos) {
                continue;
            }
            let (x0, y0, size, width) = match mark {
                Mark::Border => (x0 as i64, y0 as i64, tile as i64, 2),
                Mark::Outline => (x0 as i64 - 3, y0 as i64 - 3, tile as i64 + 6, 1),
            };
            for y in y0..y0 + size {
                for x in x0..x0 + size {
                    let frame = x < x0 + width
                        || y < y0 + width
                        || x >= x0 + size - width
                        || y >= y0 + size - width;
                    if frame {
                        image.put_pixel(x as u32, y as u32, Rgba([220, 30, 30, 255]));
                    }
                }
            }
        }
        let geometry = Geometry {
            rows: board.rows(),
            cols: board.cols(),
            origin: [f64::from(margin), f64::from(margin)],
            pitch: [f64::from(pitch), f64::from(pitch)],
            tile_size: [f64::from(tile), f64::from(tile)],
        };
        (image, geometry)
    }

    const FULL: &str = "1 2 3 1\n2 3 1 2\n3 1 2 3";

    #[test]
    fn a_tile_framed_inside_or_outlined_outside_is_selected() {
        let settings = ClassifierSettings::default();
        // An outline is judged only between tiles (round an open side the wallpaper shows), so
        // on every side of a tile in the board's middle; a border inside any tile.
        let (middle, corners) = (Pos::new(1, 1), [Pos::new(0, 0), Pos::new(2, 3)]);
        let cases = [
            (Mark::Border, 0, vec![middle, corners[0], corners[1]]),
            (Mark::Border, 6, vec![middle, corners[0], corners[1]]),
            (Mark::Outline, 6, vec![middle, Pos::new(1, 2)]),
        ];
        for (mark, gap, cells) in cases {
            for cell in cells {
                let board: Board = FULL.parse().unwrap();
                let (image, geometry) = marked_board(FULL, gap, &[cell], mark);
                assert_eq!(
                    selected_tiles(&image, &geometry, &settings, &board),
                    vec![cell],
                    "{mark:?} gap {gap} {cell:?}"
                );
            }
        }
    }

    #[test]
    fn tiles_alone_or_many_standing_out_are_not_selected() {
        let settings = ClassifierSettings::default();
        // A tile with no neighbour on a board without gaps: its surroundings differ all round.
        let sparse = "1 2 3 1 0 0\n2 3 1 2 0 3\n3 1 2 0 0 0";
        let board: Board = sparse.parse().unwrap();
        let (image, geometry) = marked_board(sparse, 0, &[], Mark::Border);
        assert!(selected_tiles(&image, &geometry, &settings, &board).is_empty());
        // Three framed tiles are no selection.
        let three = [Pos::new(0, 0), Pos::new(1, 1), Pos::new(2, 2)];
        let board: Board = FULL.parse().unwrap();
        let (image, geometry) = marked_board(FULL, 6, &three, Mark::Border);
        assert!(selected_tiles(&image, &geometry, &settings, &board).is_empty());
    }

    /// [`mostly_one_colour`] against the colours' own median.
    fn one_colour(colours: &[[u8; 3]]) -> bool {
        mostly_one_colour(colours, median_colour(colours))
    }

    #[test]
    fn kind_mates_are_the_other_tiles_of_the_kind_in_order() {
        let board: Board = "1 2 0 1\n3 1 2 0".parse().unwrap();
        let tiles: Vec<Pos> = board.tile_positions().collect();
        // Tiles in order: 1 2 1 | 3 1 2.
        assert_eq!(
            kind_mates(&board, &tiles),
            vec![vec![2, 4], vec![5], vec![0, 4], vec![], vec![0, 2], vec![1]]
        );
    }

    #[test]
    fn a_mark_is_one_colour_and_background_showing_through_is_not() {
        let red = vec![[220, 30, 30]; 10];
        assert!(one_colour(&red));
        let mut with_some_noise = red.clone();
        with_some_noise.extend([[90, 60, 20], [140, 120, 40], [30, 30, 30]]);
        assert!(one_colour(&with_some_noise));
        // A textured wallpaper: browns and yellows of many shades.
        let texture: Vec<[u8; 3]> = (0..20u8)
            .map(|i| [60 + 9 * i, 40 + (i % 5) * 25, 10 + (i % 3) * 30])
            .collect();
        assert!(!one_colour(&texture));
    }
}
