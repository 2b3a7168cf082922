//! The annotated picture of a reading: the detected grid, each cell's kind id, and each move's
//! path drawn and numbered in order. Lines and boxes are imageproc's; digits come from a
//! built-in 3x5 bitmap font.

use image::{Rgba, RgbaImage};
use imageproc::drawing::{draw_filled_rect_mut, draw_hollow_rect_mut, draw_line_segment_mut};
use imageproc::rect::Rect;

use super::Geometry;
use crate::board::{Board, EMPTY, Pos};
use crate::solver::Move;

/// 3x5 bitmaps of the digits 0-9, one row per 3 bits, top row first.
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// Colours for the paths, cycled in move order.
const PATH_COLOURS: [[u8; 3]; 6] = [
    [230, 25, 75],
    [0, 130, 200],
    [245, 130, 48],
    [145, 30, 180],
    [60, 180, 75],
    [240, 50, 230],
];

const GRID: Rgba<u8> = Rgba([255, 0, 255, 255]);
const INK: Rgba<u8> = Rgba([0, 0, 0, 255]);
const PAPER: Rgba<u8> = Rgba([255, 255, 160, 255]);

/// Draws the grid, the kinds of `board` and the numbered paths of `moves` over a copy of
/// `image`.
pub fn annotate(
    image: &RgbaImage,
    geometry: &Geometry,
    board: &Board,
    moves: &[Move],
) -> RgbaImage {
    let mut out = image.clone();
    let scale = ((geometry.tile_size[0].min(geometry.tile_size[1]) / 16.0).floor() as u32).max(1);
    for r in 0..geometry.rows {
        for c in 0..geometry.cols {
            let pos = Pos::new(r as i32, c as i32);
            let rect = geometry.cell_rect(pos);
            draw_rect(&mut out, rect.x, rect.y, rect.w, rect.h, GRID);
            let kind = board.get(pos);
            if kind != EMPTY {
                draw_label(
                    &mut out,
                    &kind.to_string(),
                    rect.x + 2.0,
                    rect.y + 2.0,
                    scale,
                    INK,
                    PAPER,
                );
            }
        }
    }
    for (index, m) in moves.iter().enumerate() {
        let [r, g, b] = PATH_COLOURS[index % PATH_COLOURS.len()];
        let colour = Rgba([r, g, b, 255]);
        let points: Vec<[f64; 2]> = m
            .path
            .points()
            .iter()
            .map(|&p| geometry.cell_center(p))
            .collect();
        for pair in points.windows(2) {
            draw_line(&mut out, pair[0], pair[1], colour);
        }
        if let Some(&[x, y]) = points.first() {
            draw_label(
                &mut out,
                &(index + 1).to_string(),
                x,
                y,
                scale,
                Rgba([255, 255, 255, 255]),
                colour,
            );
        }
    }
    out
}

/// `value` rounded and held within one pixel (`margin`) outside `0..size`, so lines and
/// rectangles far off the picture cost no more than ones at its edge and draw the same pixels.
fn clamp_to(value: f64, size: u32, margin: i32) -> i32 {
    let limit = i64::from(size) + i64::from(margin);
    (value.round() as i64).clamp(-i64::from(margin), limit) as i32
}

/// The 1-pixel outline of the cells from `x`, `y` (rounded) to `x + w`, `y + h` (rounded,
/// exclusive).
fn draw_rect(image: &mut RgbaImage, x: f64, y: f64, w: f64, h: f64, colour: Rgba<u8>) {
    let (width, height) = image.dimensions();
    let (x0, y0) = (clamp_to(x, width, 1), clamp_to(y, height, 1));
    let (x1, y1) = (clamp_to(x + w, width, 1), clamp_to(y + h, height, 1));
    if x1 <= x0 || y1 <= y0 {
        return;
    }
    let rect = Rect::at(x0, y0).of_size((x1 - x0) as u32, (y1 - y0) as u32);
    draw_hollow_rect_mut(image, rect, colour);
}

/// A two-pixel-wide straight line between the pixels nearest `a` and `b` (a path segment, so
/// horizontal or vertical).
fn draw_line(image: &mut RgbaImage, a: [f64; 2], b: [f64; 2], colour: Rgba<u8>) {
    let (width, height) = image.dimensions();
    let point = |p: [f64; 2]| (clamp_to(p[0], width, 2), clamp_to(p[1], height, 2));
    let ((ax, ay), (bx, by)) = (point(a), point(b));
    for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
        draw_line_segment_mut(
            image,
            ((ax + dx) as f32, (ay + dy) as f32),
            ((bx + dx) as f32, (by + dy) as f32),
            colour,
        );
    }
}

/// Draws `text` (digits only) with its top-left corner at `x`, `y` on a filled box.
fn draw_label(
    image: &mut RgbaImage,
    text: &str,
    x: f64,
    y: f64,
    scale: u32,
    ink: Rgba<u8>,
    paper: Rgba<u8>,
) {
    let (width, height) = image.dimensions();
    let digits: Vec<usize> = text
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .collect();
    // No label is drawn larger than the picture (a profile may give any tile size).
    let scale = scale.clamp(1, width.max(height).clamp(1, 1 << 16));
    let (box_width, box_height) = ((digits.len() as u32 * 4 + 1) * scale, 7 * scale);
    let x0 = clamp_to(x, width, box_width as i32);
    let y0 = clamp_to(y, height, box_height as i32);
    let s = scale as i32;
    draw_filled_rect_mut(
        image,
        Rect::at(x0, y0).of_size(box_width, box_height),
        paper,
    );
    for (i, &d) in digits.iter().enumerate() {
        let left = x0 + s + i as i32 * 4 * s;
        for (row, bits) in DIGITS[d].iter().enumerate() {
            for col in 0..3 {
                if bits & (0b100 >> col) != 0 {
                    let dot =
                        Rect::at(left + col * s, y0 + s + row as i32 * s).of_size(scale, scale);
                    draw_filled_rect_mut(image, dot, ink);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_draw_inside_the_image_only() {
        let mut img = RgbaImage::new(10, 10);
        draw_label(&mut img, "12", 6.0, 6.0, 1, INK, PAPER);
        assert_eq!(*img.get_pixel(6, 6), PAPER);
        assert_eq!(*img.get_pixel(8, 7), INK);
    }

    #[test]
    fn far_or_huge_cells_draw_quickly_and_only_what_shows() {
        let image = RgbaImage::from_pixel(40, 30, Rgba([9, 9, 9, 255]));
        let board = Board::from_rows(&[[1, 2], [2, 1]]);
        for (origin, pitch, tile) in [
            ([-1e12, -1e12], [1e11, 1e11], [9e10, 9e10]),
            ([1e12, 5.0], [10.0, 10.0], [8.0, 8.0]),
            ([2.0, 2.0], [1e15, 1e15], [1e15, 1e15]),
            ([f64::NAN, 2.0], [f64::INFINITY, 10.0], [f64::NAN, 8.0]),
        ] {
            let geometry = Geometry {
                rows: 2,
                cols: 2,
                origin,
                pitch,
                tile_size: tile,
            };
            let out = annotate(&image, &geometry, &board, &[]);
            assert_eq!(out.dimensions(), image.dimensions());
        }
    }

    #[test]
    fn a_cell_outline_is_one_pixel_on_its_edge() {
        let mut img = RgbaImage::new(10, 10);
        draw_rect(&mut img, 2.0, 3.0, 4.0, 5.0, GRID);
        let drawn: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| **p == GRID)
            .map(|(x, y, _)| (x, y))
            .collect();
        // 4 x 5 cells: 2 * 4 + 2 * 3 edge pixels, from (2, 3) to (5, 7).
        assert_eq!(drawn.len(), 14);
        assert!(drawn.contains(&(2, 3)) && drawn.contains(&(5, 7)));
        assert!(!drawn.contains(&(3, 4)));
    }
}
