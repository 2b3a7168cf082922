//! Which tile the game shows as selected.
//!
//! Games mark the selected tile by changing its paper (the plain background of the face):
//! xshisen stipples it black and white, kshisen tints it yellow, others frame or darken it. The
//! paper colour is the most common colour of all tile faces in the frame; a tile is selected
//! when much less of its face has that colour than another tile of its kind (identical faces
//! show the same amount of paper). A kind whose tiles are all marked, such as a matched pair
//! the game still shows, reports none.

use image::RgbaImage;

use super::features::pixel_range;
use super::{ClassifierSettings, Geometry};
use crate::board::{Board, Pos};

/// A pixel is paper when every channel is this close to the paper colour.
const PAPER_TOLERANCE: i32 = 28;

/// A tile is selected when its paper fraction is below this share of its kind's largest.
const SELECTED_SHARE: f32 = 0.7;

/// Tiles whose kind shows less paper than this are never judged (too little to compare).
const MIN_PAPER: f32 = 0.15;

/// The tiles of `board` (read from `image` at `geometry`) that look selected, row-major.
pub fn selected_tiles(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    board: &Board,
) -> Vec<Pos> {
    let tiles: Vec<Pos> = board.tile_positions().collect();
    let faces: Vec<Vec<[u8; 3]>> = tiles
        .iter()
        .map(|&pos| face_pixels(image, geometry, settings.trim, pos))
        .collect();
    let Some(paper) = paper_colour(&faces) else {
        return Vec::new();
    };
    let fractions: Vec<f32> = faces
        .iter()
        .map(|pixels| {
            let on_paper = pixels.iter().filter(|p| is_paper(p, paper)).count();
            on_paper as f32 / pixels.len().max(1) as f32
        })
        .collect();
    tiles
        .iter()
        .enumerate()
        .filter(|&(i, &pos)| {
            let kind = board.get(pos);
            let most = tiles
                .iter()
                .enumerate()
                .filter(|&(j, &other)| j != i && board.get(other) == kind)
                .map(|(j, _)| fractions[j])
                .fold(0.0, f32::max);
            most >= MIN_PAPER && fractions[i] < SELECTED_SHARE * most
        })
        .map(|(_, &pos)| pos)
        .collect()
}

/// The pixels of a tile's face (the tile less `trim` on every side).
fn face_pixels(image: &RgbaImage, geometry: &Geometry, trim: f64, pos: Pos) -> Vec<[u8; 3]> {
    let r = geometry.cell_rect(pos);
    let (tx, ty) = (r.w * trim, r.h * trim);
    let (xa, xb) = pixel_range(r.x + tx, r.x + r.w - tx, image.width());
    let (ya, yb) = pixel_range(r.y + ty, r.y + r.h - ty, image.height());
    let mut out = Vec::with_capacity(((xb - xa) * (yb - ya)) as usize);
    for y in ya..yb {
        for x in xa..xb {
            let p = image.get_pixel(x, y).0;
            out.push([p[0], p[1], p[2]]);
        }
    }
    out
}

/// The most common colour over all faces (histogram of 16 levels a channel, then the mean of
/// the fullest bin); `None` without pixels.
fn paper_colour(faces: &[Vec<[u8; 3]>]) -> Option<[i32; 3]> {
    let bin = |p: &[u8; 3]| {
        (usize::from(p[0] >> 4) << 8) | (usize::from(p[1] >> 4) << 4) | usize::from(p[2] >> 4)
    };
    let mut counts = vec![0u32; 4096];
    for p in faces.iter().flatten() {
        counts[bin(p)] += 1;
    }
    let (fullest, &count) = counts.iter().enumerate().max_by_key(|&(_, c)| *c)?;
    if count == 0 {
        return None;
    }
    let mut sum = [0u64; 3];
    for p in faces.iter().flatten().filter(|p| bin(p) == fullest) {
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
}
