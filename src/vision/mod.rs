//! Vision: a frame in, the integer grid out.
//!
//! Everything here is a pure function of an [`image::RgbaImage`] (what a screen capture gives)
//! except [`load_image`], the one loader. [`calibrate`] finds the board in a screenshot it has
//! never seen (rows, columns, origin, pitch and tile size, all in the image's own pixels);
//! [`read_board`] turns the cells of a known [`Geometry`] into a [`crate::board::Board`] by
//! grouping the tile faces by appearance, with no templates; [`Reader`] is the whole way from a
//! frame to a [`Reading`] (cells, kinds named after templates, the selected tile) that every
//! command uses; [`annotate`] draws what was found and a move plan.

mod annotate;
mod blobs;
mod calibrate;
mod classify;
mod copies;
mod features;
mod mean_tile;
mod pictures;
mod reading;
mod selection;
mod silhouette;
mod symmetry;
mod templates;

use std::path::Path;

use image::RgbaImage;
use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::board::Pos;

pub use annotate::annotate;
pub use calibrate::calibrate;
pub use classify::{Face, read_board, tile_faces};
pub use reading::{BoardReader, ReadError, Reader, Reading, frames_agree};
pub use selection::selected_tiles;
pub use templates::{Matcher, Templates, tile_picture};

/// Where the board lies in an image: the grid of cells, in the image's own pixels.
///
/// Cell `(r, c)` starts at `origin + (c * pitch[0], r * pitch[1])` and is `tile_size` big; the
/// pitch is the distance from one cell to the next (tile plus gap), x and y separately.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct Geometry {
    /// Number of rows of cells.
    pub rows: usize,
    /// Number of columns of cells.
    pub cols: usize,
    /// Top-left corner of cell (0, 0): x, y.
    pub origin: [f64; 2],
    /// Distance from one cell to the next: x, y.
    pub pitch: [f64; 2],
    /// Width and height of one tile (the pitch less the gap between tiles).
    pub tile_size: [f64; 2],
}

impl std::fmt::Display for Geometry {
    /// `8x18 board at (33.0, 95.0), pitch 32.00 x 40.00, tiles 30.0 x 38.0`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}x{} board at ({:.1}, {:.1}), pitch {:.2} x {:.2}, tiles {:.1} x {:.1}",
            self.rows,
            self.cols,
            self.origin[0],
            self.origin[1],
            self.pitch[0],
            self.pitch[1],
            self.tile_size[0],
            self.tile_size[1]
        )
    }
}

/// A pixel rectangle with fractional corners: `x`, `y` top-left, `w`, `h` size.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    /// Left edge.
    pub x: f64,
    /// Top edge.
    pub y: f64,
    /// Width.
    pub w: f64,
    /// Height.
    pub h: f64,
}

impl Rect {
    /// Whether the point `(x, y)` lies inside (right and bottom edges excluded).
    pub fn contains(&self, x: f64, y: f64) -> bool {
        x >= self.x && x < self.x + self.w && y >= self.y && y < self.y + self.h
    }

    /// The whole pixels it touches in a `width` x `height` image, as `[x0, y0, x1, y1]`
    /// (ends excluded; empty where it lies outside the image).
    pub fn pixel_bounds(&self, width: u32, height: u32) -> [u32; 4] {
        let clamp = |v: f64, max: u32| (v.max(0.0) as u32).min(max);
        let (x0, y0) = (clamp(self.x, width), clamp(self.y, height));
        let x1 = clamp((self.x + self.w).ceil(), width).max(x0);
        let y1 = clamp((self.y + self.h).ceil(), height).max(y0);
        [x0, y0, x1, y1]
    }
}

impl Geometry {
    /// Whether this board lies on `outer`'s lattice and inside it: the same pitch (within a
    /// quarter of a pitch over the board), cells a whole number of pitches from `outer`'s (within
    /// a quarter of a pitch), and no cell outside `outer`. A board found from a few tiles of a
    /// known board is such a part of it.
    pub fn lies_within(&self, outer: &Geometry) -> bool {
        self.place_within(outer).is_some()
    }

    /// The cell of `outer` that this board's first cell lies on, when this board lies within
    /// `outer` (see [`Geometry::lies_within`]).
    pub fn place_within(&self, outer: &Geometry) -> Option<Pos> {
        let axis = |i: usize, cells: usize, outer_cells: usize| {
            let quarter = outer.pitch[i] / 4.0;
            let offset = (self.origin[i] - outer.origin[i]) / outer.pitch[i];
            let first = offset.round();
            let within = (self.pitch[i] - outer.pitch[i]).abs() * outer_cells as f64 <= quarter
                && (offset - first).abs() * outer.pitch[i] <= quarter
                && first >= 0.0
                && first as usize + cells <= outer_cells;
            within.then_some(first as i32)
        };
        Some(Pos::new(
            axis(1, self.rows, outer.rows)?,
            axis(0, self.cols, outer.cols)?,
        ))
    }

    /// The cell at `index` in row-major order.
    pub fn pos_of(&self, index: usize) -> Pos {
        Pos::new((index / self.cols) as i32, (index % self.cols) as i32)
    }

    /// The tile rectangle of the cell at `pos` (positions off the board extrapolate the grid).
    pub fn cell_rect(&self, pos: Pos) -> Rect {
        Rect {
            x: self.origin[0] + f64::from(pos.col) * self.pitch[0],
            y: self.origin[1] + f64::from(pos.row) * self.pitch[1],
            w: self.tile_size[0],
            h: self.tile_size[1],
        }
    }

    /// The centre of the tile at `pos`, where a click should land.
    pub fn cell_center(&self, pos: Pos) -> [f64; 2] {
        let r = self.cell_rect(pos);
        [r.x + r.w / 2.0, r.y + r.h / 2.0]
    }

    /// The cell whose pitch box (its tile and the gap right of and below it) holds the image
    /// pixel `(x, y)`, or `None` off the board.
    pub fn cell_at(&self, x: f64, y: f64) -> Option<Pos> {
        let col = ((x - self.origin[0]) / self.pitch[0]).floor();
        let row = ((y - self.origin[1]) / self.pitch[1]).floor();
        let inside =
            (0.0..self.cols as f64).contains(&col) && (0.0..self.rows as f64).contains(&row);
        inside.then(|| Pos::new(row as i32, col as i32))
    }

    /// The rectangle covered by the whole board.
    pub fn board_rect(&self) -> Rect {
        Rect {
            x: self.origin[0],
            y: self.origin[1],
            w: (self.cols as f64 - 1.0) * self.pitch[0] + self.tile_size[0],
            h: (self.rows as f64 - 1.0) * self.pitch[1] + self.tile_size[1],
        }
    }

    /// The same grid moved by `dx`, `dy` pixels (from window to screen coordinates and back).
    pub fn translated(&self, dx: f64, dy: f64) -> Geometry {
        Geometry {
            origin: [self.origin[0] + dx, self.origin[1] + dy],
            ..*self
        }
    }

    /// Whether every cell lies inside a `width` x `height` image.
    pub fn fits(&self, width: u32, height: u32) -> bool {
        let r = self.board_rect();
        self.rows > 0
            && self.cols > 0
            && self.pitch.iter().all(|&p| p > 0.0)
            && self.tile_size.iter().all(|&s| s > 0.0)
            && r.x >= -0.5
            && r.y >= -0.5
            && r.x + r.w <= f64::from(width) + 0.5
            && r.y + r.h <= f64::from(height) + 0.5
    }
}

/// Settings of the tile classifier, kept in a profile's `[classifier]` section.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, rename_all = "kebab-case")]
pub struct ClassifierSettings {
    /// Fraction of the tile trimmed from each side before its face is compared (skips the
    /// tile's border, shading and a selection frame).
    pub trim: f64,
    /// Two faces are the same kind when their distance is below this fraction of the typical
    /// distance between different faces.
    pub same_kind: f64,
    /// A cell is empty when at least this fraction of its face looks like the background.
    pub empty_fraction: f64,
    /// Cells whose confidence is below this are reported.
    pub low_confidence: f32,
}

impl Default for ClassifierSettings {
    fn default() -> Self {
        ClassifierSettings {
            trim: 0.12,
            same_kind: 0.32,
            empty_fraction: 0.6,
            low_confidence: 0.5,
        }
    }
}

/// Why a frame could not be read.
#[derive(Debug, Error)]
pub enum VisionError {
    /// The file is not a PNG or JPEG image, or is damaged.
    #[error("cannot decode the image ({0}); give a PNG or JPEG screenshot")]
    Decode(String),
    /// The file could not be read.
    #[error("cannot read the image")]
    Io(#[from] std::io::Error),
    /// The image is too small to hold a board.
    #[error("the image is {width}x{height} pixels, too small to hold a board")]
    TooSmall {
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
    /// No periodic grid of tiles was found.
    #[error(
        "no board found: {0}; make sure the whole board is visible and not covered by another window"
    )]
    NoBoard(String),
    /// The board was found from its tiles, yet every cell read as empty: a failure to read,
    /// never a cleared game.
    #[error(
        "found a {rows}x{cols} board but read no tile on it (a failure to read, not an empty board); this tile art is not read yet: please report the screenshot"
    )]
    NothingRead {
        /// Rows found.
        rows: usize,
        /// Columns found.
        cols: usize,
    },
    /// A template folder or picture cannot be used.
    #[error("template {}: {what}; write the templates again with `linkup calibrate --templates --force`", file.display())]
    Template {
        /// The folder or picture.
        file: std::path::PathBuf,
        /// What is wrong.
        what: String,
    },
    /// The geometry (from a profile) does not lie inside the image.
    #[error(
        "the board geometry ({rows}x{cols} cells from ({x:.1},{y:.1}) to ({right:.1},{bottom:.1})) does not fit the {width}x{height} image; recalibrate with `linkup calibrate`"
    )]
    GeometryOutside {
        /// Rows in the geometry.
        rows: usize,
        /// Columns in the geometry.
        cols: usize,
        /// Left edge.
        x: f64,
        /// Top edge.
        y: f64,
        /// Right edge.
        right: f64,
        /// Bottom edge.
        bottom: f64,
        /// Image width.
        width: u32,
        /// Image height.
        height: u32,
    },
}

/// Loads a PNG or JPEG file as RGBA; the only function here that does I/O.
pub fn load_image(path: &Path) -> Result<RgbaImage, VisionError> {
    let bytes = std::fs::read(path)?;
    decode_image(&bytes)
}

/// Decodes PNG or JPEG bytes as RGBA.
pub fn decode_image(bytes: &[u8]) -> Result<RgbaImage, VisionError> {
    let image = image::load_from_memory(bytes).map_err(|e| VisionError::Decode(e.to_string()))?;
    Ok(image.to_rgba8())
}

/// Checks that `geometry` lies inside `image`.
pub fn check_fits(image: &RgbaImage, geometry: &Geometry) -> Result<(), VisionError> {
    if geometry.fits(image.width(), image.height()) {
        return Ok(());
    }
    let r = geometry.board_rect();
    Err(VisionError::GeometryOutside {
        rows: geometry.rows,
        cols: geometry.cols,
        x: r.x,
        y: r.y,
        right: r.x + r.w,
        bottom: r.y + r.h,
        width: image.width(),
        height: image.height(),
    })
}

/// Pictures the unit tests of the vision stages share.
#[cfg(test)]
pub(crate) mod test_pictures {
    use image::{Rgba, RgbaImage};

    use crate::board::{Board, Kind};

    /// A 4 x 6 board read with a tile in each cell (row, column) `holds` keeps, of four kinds
    /// in turn.
    pub(crate) fn board_4x6(holds: impl Fn(u32, u32) -> bool) -> Board {
        let cells = (0..24u32)
            .map(|i| {
                if holds(i / 6, i % 6) {
                    (i % 4 + 1) as Kind
                } else {
                    0
                }
            })
            .collect();
        Board::new(4, 6, cells).expect("a 4 x 6 board")
    }

    /// A `width` by `height` picture of rows of four patterned tiles, one row per entry of
    /// `kinds`, on a plain ground: 40 px cells from `origin`, each tile its cell less 2 px a
    /// side, each kind (0-3) drawn in a pattern of its own.
    pub(crate) fn patterned_tiles(
        kinds: &[[usize; 4]],
        origin: (i64, i64),
        (width, height): (u32, u32),
    ) -> RgbaImage {
        let ground = Rgba([90, 120, 90, 255]);
        let rows = kinds.len() as i64;
        RgbaImage::from_fn(width, height, |x, y| {
            let (fx, fy) = (i64::from(x) - origin.0, i64::from(y) - origin.1);
            if !(0..160).contains(&fx) || !(0..40 * rows).contains(&fy) {
                return ground;
            }
            let (u, v) = (fx % 40, fy % 40);
            if !(2..38).contains(&u) || !(2..38).contains(&v) {
                return ground;
            }
            let dark = match kinds[(fy / 40) as usize][(fx / 40) as usize] {
                0 => (u / 4) % 2 == 0,
                1 => (v / 6) % 2 == 0,
                2 => ((u + v) / 5) % 2 == 0,
                _ => u < 20 && v < 20,
            };
            if dark {
                Rgba([30, 30, 60, 255])
            } else {
                Rgba([240, 235, 220, 255])
            }
        })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_rect_covers_every_pixel_it_touches_within_the_image() {
        let r = |x, y, w, h| super::Rect { x, y, w, h };
        assert_eq!(r(2.5, 3.0, 4.0, 2.2).pixel_bounds(100, 100), [2, 3, 7, 6]);
        assert_eq!(
            r(-3.0, 90.0, 10.0, 20.0).pixel_bounds(100, 100),
            [0, 90, 7, 100]
        );
        assert_eq!(
            r(120.0, 5.0, 10.0, 10.0).pixel_bounds(100, 100),
            [100, 5, 100, 15]
        );
        assert_eq!(
            r(-30.0, -30.0, 10.0, 10.0).pixel_bounds(100, 100),
            [0, 0, 0, 0]
        );
    }

    #[test]
    fn a_part_of_a_board_lies_within_it_and_another_board_does_not() {
        let board = Geometry {
            rows: 12,
            cols: 24,
            origin: [40.0, 90.0],
            pitch: [30.0, 38.0],
            tile_size: [28.0, 36.0],
        };
        let part = Geometry {
            rows: 3,
            cols: 5,
            origin: [40.0 + 4.0 * 30.0 + 1.5, 90.0 + 7.0 * 38.0 - 2.0],
            pitch: [30.1, 37.9],
            tile_size: [28.0, 36.0],
        };
        assert!(part.lies_within(&board));
        assert_eq!(part.place_within(&board), Some(Pos::new(7, 4)));
        assert!(board.lies_within(&board));
        let shifted = Geometry {
            origin: [part.origin[0] + 15.0, part.origin[1]],
            ..part
        };
        assert!(!shifted.lies_within(&board), "half a pitch off the lattice");
        let beyond = Geometry { cols: 21, ..part };
        assert!(!beyond.lies_within(&board), "past the last column");
        let larger_pitch = Geometry {
            pitch: [33.0, 38.0],
            ..part
        };
        assert!(!larger_pitch.lies_within(&board));
        assert!(!board.lies_within(&part));
    }

    use super::*;

    fn geometry() -> Geometry {
        Geometry {
            rows: 2,
            cols: 3,
            origin: [10.0, 20.0],
            pitch: [32.0, 40.0],
            tile_size: [30.0, 38.0],
        }
    }

    #[test]
    fn cell_rect_and_center_follow_the_pitch() {
        let g = geometry();
        let r = g.cell_rect(Pos::new(1, 2));
        assert_eq!((r.x, r.y, r.w, r.h), (74.0, 60.0, 30.0, 38.0));
        assert_eq!(g.cell_center(Pos::new(0, 0)), [25.0, 39.0]);
        assert_eq!(g.cell_at(74.0 + 15.0, 60.0 + 19.0), Some(Pos::new(1, 2)));
        assert_eq!(g.cell_at(9.0, 30.0), None);
        assert_eq!(g.cell_at(106.0, 30.0), None);
        let board = g.board_rect();
        assert_eq!(
            (board.x, board.y, board.w, board.h),
            (10.0, 20.0, 94.0, 78.0)
        );
        assert!(board.contains(10.0, 20.0));
        assert!(!board.contains(104.0, 30.0));
    }

    #[test]
    fn fits_checks_the_far_corner() {
        let g = geometry();
        assert!(g.fits(104, 98));
        assert!(!g.fits(103, 98));
        let err = check_fits(&RgbaImage::new(50, 50), &g).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the board geometry (2x3 cells from (10.0,20.0) to (104.0,98.0)) does not fit the 50x50 image; recalibrate with `linkup calibrate`"
        );
    }
}
