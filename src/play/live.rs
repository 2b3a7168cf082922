//! Reading a game no profile describes: [`LiveReader`] finds the board in the first frame and
//! finds it again whenever the window's size changes, a frame no longer reads at the geometry
//! found, or the board grows (a new deal, another board size), so `play --window` needs no
//! profile.

use image::RgbaImage;

use crate::vision::{BoardReader, ReadError, Reading};

/// A board reader that finds the board itself: `find` calibrates a reader from a frame (vision's
/// [`crate::vision::Reader::calibrated`] in `play`), and is called again when the frame stops
/// matching the board found. A board that cannot be found again stops the read with
/// [`ReadError::Lost`].
pub struct LiveReader<F, R> {
    find: F,
    reader: Option<R>,
    /// The image size the reader was calibrated on.
    size: (u32, u32),
    /// Tiles in the last reading.
    tiles: usize,
    /// How many times the board was found (the first time included).
    calibrations: usize,
}

impl<F, R> LiveReader<F, R>
where
    F: FnMut(&RgbaImage) -> Result<R, ReadError>,
    R: BoardReader,
{
    /// A reader that calibrates with `find` on the first frame it is given.
    pub fn new(find: F) -> Self {
        LiveReader {
            find,
            reader: None,
            size: (0, 0),
            tiles: 0,
            calibrations: 0,
        }
    }

    /// How many times the board was found so far (1 after the first frame).
    pub fn calibrations(&self) -> usize {
        self.calibrations
    }

    /// Finds the board in `frame` and reads it with the reader found.
    fn calibrate_and_read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reader = (self.find)(frame)?;
        let reading = reader.read(frame)?;
        self.calibrations += 1;
        self.reader = Some(reader);
        self.size = frame.dimensions();
        self.tiles = reading.board.tiles();
        Ok(reading)
    }

    /// Finds the board again because of `why`; an error says the board is lost.
    fn recalibrate(&mut self, frame: &RgbaImage, why: &'static str) -> Result<Reading, ReadError> {
        self.calibrate_and_read(frame)
            .map_err(|source| ReadError::Lost {
                why,
                source: Box::new(source),
            })
    }
}

impl<F, R> BoardReader for LiveReader<F, R>
where
    F: FnMut(&RgbaImage) -> Result<R, ReadError>,
    R: BoardReader,
{
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let Some(reader) = self.reader.as_mut() else {
            return self.calibrate_and_read(frame);
        };
        if frame.dimensions() != self.size {
            return self.recalibrate(frame, "the window changed size");
        }
        match reader.read(frame) {
            Err(_) => self.recalibrate(frame, "the frame no longer reads at the board found"),
            Ok(reading) if reading.board.tiles() > self.tiles => {
                self.recalibrate(frame, "the board has more tiles than before")
            }
            Ok(reading) => {
                self.tiles = reading.board.tiles();
                Ok(reading)
            }
        }
    }
}
