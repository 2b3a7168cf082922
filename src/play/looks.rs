//! How a cell looks in a frame, kept to tell later whether the game drew it anew: a tile still
//! drawn as it was when the board was read, or a cell the game redrew (its tile taken away).
//! The loop never reads a board from these pixels; it only compares them.

use image::RgbaImage;

use crate::board::Pos;
use crate::vision::Geometry;

/// A colour channel may differ by this much before the pixel counts as changed (noise, dither).
const CHANNEL_TOLERANCE: u8 = 24;

/// The pixels of one cell's tile rectangle, and where in the frame they were.
#[derive(Clone, Debug)]
pub(super) struct CellLook {
    x: u32,
    y: u32,
    pixels: RgbaImage,
}

impl CellLook {
    /// The tile rectangle of `cell` in `image` (clipped to the image).
    pub(super) fn of(image: &RgbaImage, geometry: &Geometry, cell: Pos) -> CellLook {
        let (w, h) = image.dimensions();
        let [x0, y0, x1, y1] = geometry.cell_rect(cell).pixel_bounds(w, h);
        let pixels = image::imageops::crop_imm(image, x0, y0, x1 - x0, y1 - y0).to_image();
        CellLook {
            x: x0,
            y: y0,
            pixels,
        }
    }

    /// The share of the cell's pixels that differ in `image` by more than a small amount in
    /// some colour channel: 0 for a tile drawn as it was, near 1 for a tile taken away. A cell
    /// with no pixels, or one that `image` does not hold, counts as all changed.
    pub(super) fn changed_share(&self, image: &RgbaImage) -> f64 {
        let (w, h) = self.pixels.dimensions();
        let total = u64::from(w) * u64::from(h);
        if total == 0 || self.x + w > image.width() || self.y + h > image.height() {
            return 1.0;
        }
        let changed = self
            .pixels
            .enumerate_pixels()
            .filter(|&(x, y, was)| {
                let now = image.get_pixel(self.x + x, self.y + y);
                was.0
                    .iter()
                    .zip(now.0.iter())
                    .take(3)
                    .any(|(&u, &v)| u.abs_diff(v) > CHANNEL_TOLERANCE)
            })
            .count() as u64;
        changed as f64 / total as f64
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> Geometry {
        Geometry {
            rows: 2,
            cols: 2,
            origin: [4.0, 6.0],
            pitch: [12.0, 14.0],
            tile_size: [10.0, 12.0],
        }
    }

    #[test]
    fn a_cell_redrawn_has_changed_and_one_left_alone_has_not() {
        let before = RgbaImage::from_pixel(40, 40, image::Rgba([200, 180, 150, 255]));
        let g = geometry();
        let look = CellLook::of(&before, &g, Pos::new(1, 1));
        let mut after = before.clone();
        assert_eq!(look.changed_share(&after), 0.0);
        // Noise below the tolerance is no change.
        for x in 16..26 {
            after.put_pixel(x, 20, image::Rgba([210, 190, 160, 255]));
        }
        assert_eq!(look.changed_share(&after), 0.0);
        // The other cell redrawn: this one is unchanged still.
        let other = g.cell_rect(Pos::new(0, 0));
        for y in other.y as u32..(other.y + other.h) as u32 {
            for x in other.x as u32..(other.x + other.w) as u32 {
                after.put_pixel(x, y, image::Rgba([30, 60, 90, 255]));
            }
        }
        assert_eq!(look.changed_share(&after), 0.0);
        // Its left half redrawn.
        for y in 20..32 {
            for x in 16..21 {
                after.put_pixel(x, y, image::Rgba([30, 60, 90, 255]));
            }
        }
        assert!((look.changed_share(&after) - 0.5).abs() < 1e-9);
        assert_eq!(look.changed_share(&RgbaImage::new(20, 20)), 1.0);
    }
}
