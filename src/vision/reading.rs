//! The one way from a frame to a [`Reading`]: the board, where it is, how sure each cell is and
//! which tile the game shows as selected.
//!
//! [`Reader`] holds what a reading needs besides the pixels (the geometry, the classifier's
//! settings and the templates that keep kind ids stable) and does the whole job: read the cells,
//! number the kinds after the templates, find the selected tile. `play`, `solve` and `calibrate`
//! all read through it. [`BoardReader`] is the stage trait the play loop drives, so tests and the
//! simulated game can stand in for vision; [`frames_agree`] is the pixel comparison the loop
//! uses to wait for a still board.

use image::RgbaImage;
use thiserror::Error;

use super::{ClassifierSettings, Geometry, Matcher, Templates, VisionError};
use crate::board::{Board, Pos};

/// What was read from a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Reading {
    /// The grid: 0 for an empty cell, kinds numbered 1.. in order of first appearance (or
    /// after the templates, when there are some).
    pub board: Board,
    /// Where each cell is in the frame's image.
    pub geometry: Geometry,
    /// Per cell, row-major, how sure the classifier is of that cell (0 to 1).
    pub confidence: Vec<f32>,
    /// The cells whose confidence is below the settings' threshold.
    pub low_confidence: Vec<Pos>,
    /// Tiles shown as selected (highlighted), if the reader can tell; empty otherwise.
    pub selected: Vec<Pos>,
}

impl Reading {
    /// `board` read at `geometry` with full confidence in every cell and nothing selected (a
    /// simulated game's reading, or a board the loop predicts).
    pub fn certain(board: Board, geometry: Geometry) -> Reading {
        let cells = board.rows() * board.cols();
        Reading {
            board,
            geometry,
            confidence: vec![1.0; cells],
            low_confidence: Vec::new(),
            selected: Vec::new(),
        }
    }
}

/// Why a frame could not be read into a board (any [`BoardReader`]).
#[derive(Debug, Error)]
pub enum ReadError {
    /// Vision could not read the frame.
    #[error("cannot read the board")]
    Vision(#[from] VisionError),
    /// Another reader's reason.
    #[error("cannot read the board: {0}")]
    Other(String),
    /// The board read so far is gone from the frame and cannot be found again.
    #[error("cannot find the board again ({why})")]
    Lost {
        /// What made linkup look for it again.
        why: &'static str,
        /// Why it was not found.
        #[source]
        source: Box<ReadError>,
    },
}

impl ReadError {
    /// An error with a message only.
    pub fn msg(message: impl Into<String>) -> Self {
        ReadError::Other(message.into())
    }
}

/// Reads a captured frame into a board: vision's [`Reader`] does it from pixels; the simulated
/// game has an exact one for tests ([`crate::sim::SimReader`]).
pub trait BoardReader {
    /// The board, its geometry in the image, and any selected tiles.
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError>;
}

impl<R: BoardReader + ?Sized> BoardReader for &mut R {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        (**self).read(frame)
    }
}

impl<R: BoardReader + ?Sized> BoardReader for Box<R> {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        (**self).read(frame)
    }
}

/// Vision's reader: a frame in, a [`Reading`] out, at a known geometry.
#[derive(Clone, Debug)]
pub struct Reader {
    geometry: Geometry,
    settings: ClassifierSettings,
    matcher: Option<Matcher>,
    /// Whether a board with no tile at all is an error (the geometry came from the tiles).
    tiles_required: bool,
}

impl Reader {
    /// A reader of the board at `geometry` (from a profile), numbering kinds after `templates`
    /// when given. A board read empty is a reading, not an error: the game may be over.
    pub fn new(
        geometry: Geometry,
        settings: ClassifierSettings,
        templates: Option<&Templates>,
    ) -> Self {
        Reader {
            geometry,
            settings,
            matcher: templates.map(|t| t.for_geometry(&geometry, &settings)),
            tiles_required: false,
        }
    }

    /// A reader of the board found in `image` by [`super::calibrate`], with the default
    /// settings. Calibration finds a board only where tiles are drawn, so reading none of them
    /// later is an error ([`VisionError::NothingRead`]).
    pub fn calibrated(image: &RgbaImage) -> Result<Self, VisionError> {
        let geometry = super::calibrate(image)?;
        Ok(Reader {
            tiles_required: true,
            ..Reader::new(geometry, ClassifierSettings::default(), None)
        })
    }

    /// Where the board is read.
    pub fn geometry(&self) -> &Geometry {
        &self.geometry
    }

    /// Reads `image`: the cells, kinds numbered after the templates, the selected tile.
    pub fn read(&self, image: &RgbaImage) -> Result<Reading, VisionError> {
        let mut reading = super::read_board(image, &self.geometry, &self.settings)?;
        if self.tiles_required && reading.board.tiles() == 0 {
            return Err(VisionError::NothingRead {
                rows: self.geometry.rows,
                cols: self.geometry.cols,
            });
        }
        if let Some(matcher) = &self.matcher {
            reading = matcher.relabel(image, reading);
        }
        reading.selected =
            super::selected_tiles(image, &self.geometry, &self.settings, &reading.board);
        Ok(reading)
    }
}

impl BoardReader for Reader {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        Ok(Reader::read(self, frame)?)
    }
}

/// Whether two frames of the same window agree: the same size, and at most `tolerance` of the
/// compared pixels differ by more than a small amount in some colour channel. Only the board
/// rectangle is compared when its geometry is known (clocks and scores elsewhere in the window
/// tick).
pub fn frames_agree(
    a: &RgbaImage,
    b: &RgbaImage,
    geometry: Option<&Geometry>,
    tolerance: f64,
) -> bool {
    let (w, h) = a.dimensions();
    if (w, h) != b.dimensions() {
        return false;
    }
    let [x0, y0, x1, y1] = match geometry {
        Some(g) => g.board_rect().pixel_bounds(w, h),
        None => [0, 0, w, h],
    };
    let total = u64::from(x1 - x0) * u64::from(y1 - y0);
    if total == 0 {
        // No part of the board is in the image: nothing to wait for (and nothing to click).
        return true;
    }
    let stride = w as usize * 4;
    let (left, right) = (x0 as usize * 4, x1 as usize * 4);
    let mut differing = 0u64;
    for y in y0 as usize..y1 as usize {
        let row = y * stride;
        let (ra, rb) = (
            &a.as_raw()[row + left..row + right],
            &b.as_raw()[row + left..row + right],
        );
        if ra == rb {
            continue;
        }
        differing += ra
            .chunks_exact(4)
            .zip(rb.chunks_exact(4))
            .filter(|(p, q)| {
                p.iter()
                    .zip(q.iter())
                    .take(3)
                    .any(|(&u, &v)| u.abs_diff(v) > 24)
            })
            .count() as u64;
    }
    differing as f64 <= tolerance * total as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn geometry() -> Geometry {
        Geometry {
            rows: 8,
            cols: 18,
            origin: [33.0, 95.0],
            pitch: [32.0, 40.0],
            tile_size: [30.0, 38.0],
        }
    }

    #[test]
    fn frames_agree_within_tolerance_and_only_on_the_board() {
        let a = RgbaImage::new(640, 454);
        let mut b = a.clone();
        b.put_pixel(5, 5, image::Rgba([255, 255, 255, 255]));
        assert!(!frames_agree(&a, &b, None, 0.0));
        assert!(frames_agree(&a, &b, None, 0.001));
        assert!(frames_agree(&a, &b, Some(&geometry()), 0.0));
        b.put_pixel(100, 200, image::Rgba([255, 255, 255, 255]));
        assert!(!frames_agree(&a, &b, Some(&geometry()), 0.0));
        assert!(!frames_agree(&a, &RgbaImage::new(640, 455), None, 1.0));
    }

    #[test]
    fn a_vision_failure_names_the_board_once_and_keeps_the_cause() {
        let err = ReadError::from(VisionError::TooSmall {
            width: 3,
            height: 4,
        });
        assert_eq!(
            format!("{:#}", anyhow::Error::from(err)),
            "cannot read the board: the image is 3x4 pixels, too small to hold a board"
        );
    }
}
