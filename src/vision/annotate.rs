//! The annotated picture of a reading: the detected grid, each cell's kind id, and each move's
//! path drawn and numbered in order. Digits come from a built-in 3x5 bitmap font.

use image::{Rgba, RgbaImage};

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

fn put(image: &mut RgbaImage, x: i64, y: i64, colour: Rgba<u8>) {
    if x >= 0 && y >= 0 && (x as u32) < image.width() && (y as u32) < image.height() {
        image.put_pixel(x as u32, y as u32, colour);
    }
}

fn draw_rect(image: &mut RgbaImage, x: f64, y: f64, w: f64, h: f64, colour: Rgba<u8>) {
    let (x0, y0) = (x.round() as i64, y.round() as i64);
    let (x1, y1) = ((x + w).round() as i64 - 1, (y + h).round() as i64 - 1);
    for px in x0..=x1 {
        put(image, px, y0, colour);
        put(image, px, y1, colour);
    }
    for py in y0..=y1 {
        put(image, x0, py, colour);
        put(image, x1, py, colour);
    }
}

/// A two-pixel-wide straight line.
fn draw_line(image: &mut RgbaImage, a: [f64; 2], b: [f64; 2], colour: Rgba<u8>) {
    let steps = (b[0] - a[0]).abs().max((b[1] - a[1]).abs()).ceil().max(1.0) as i64;
    for s in 0..=steps {
        let t = s as f64 / steps as f64;
        let x = (a[0] + t * (b[0] - a[0])).round() as i64;
        let y = (a[1] + t * (b[1] - a[1])).round() as i64;
        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
            put(image, x + dx, y + dy, colour);
        }
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
    let s = i64::from(scale);
    let (x0, y0) = (x.round() as i64, y.round() as i64);
    let digits: Vec<usize> = text
        .chars()
        .filter_map(|c| c.to_digit(10))
        .map(|d| d as usize)
        .collect();
    let width = digits.len() as i64 * 4 * s + s;
    for py in y0..y0 + 7 * s {
        for px in x0..x0 + width {
            put(image, px, py, paper);
        }
    }
    for (i, &d) in digits.iter().enumerate() {
        let left = x0 + s + i as i64 * 4 * s;
        for (row, bits) in DIGITS[d].iter().enumerate() {
            for col in 0..3 {
                if bits & (0b100 >> col) != 0 {
                    for dy in 0..s {
                        for dx in 0..s {
                            put(
                                image,
                                left + col * s + dx,
                                y0 + s + row as i64 * s + dy,
                                ink,
                            );
                        }
                    }
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
}
