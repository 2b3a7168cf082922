//! Reading a game no profile describes: [`LiveReader`] finds the board in the first frame and
//! finds it again whenever the window's size changes, a frame no longer reads at the geometry
//! found, or the board grows by more than a pair (a new deal, another board size) and the board
//! found again is not a part of the one read, so `play --window` needs no profile.
//!
//! Growth by one tile or one pair is not a new board: late in a game, with few tiles left, one
//! reading may miss a tile or take a pair of background cells for tiles, and the board found
//! again from so few tiles is often wrong (a few rows or columns, shifted). Nor is growth into
//! less than a quarter of the empty cells: a new deal fills the board, while a lit patch of
//! wallpaper read as tiles covers a part of it.

use image::RgbaImage;

use crate::vision::{BoardReader, ReadError, Reading};

/// More tiles than the last reading that are still taken as a misreading, not a new board.
const MOST_MISREAD: usize = 2;

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

    /// How many boards were taken so far (1 after the first frame): a board found again that
    /// lies within the one read does not count.
    pub fn calibrations(&self) -> usize {
        self.calibrations
    }

    /// Finds the board in `frame` and reads it with the reader found.
    fn calibrate_and_read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reader = (self.find)(frame)?;
        let reading = reader.read(frame)?;
        self.size = frame.dimensions();
        Ok(self.adopt(reader, reading))
    }

    /// Reads on from now with `reader`, which found the board of `reading`.
    fn adopt(&mut self, reader: R, reading: Reading) -> Reading {
        self.calibrations += 1;
        self.reader = Some(reader);
        self.tiles = reading.board.tiles();
        reading
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

impl<F, R> LiveReader<F, R>
where
    F: FnMut(&RgbaImage) -> Result<R, ReadError>,
    R: BoardReader,
{
    /// `reading` has more tiles than the last one: the board is found again and taken if it
    /// reads at least as many tiles and does not lie within the one read
    /// ([`crate::vision::Geometry::lies_within`]: a new deal on the same board, or a part of it
    /// found from the few tiles a late misreading adds). Else, or if no board is found,
    /// `reading` stands: a board found from a few tiles late in a game is often wrong.
    fn grown(&mut self, frame: &RgbaImage, reading: Reading) -> Reading {
        let found = (self.find)(frame).and_then(|mut reader| Ok((reader.read(frame)?, reader)));
        match found {
            Ok((found, reader))
                if !found.geometry.lies_within(&reading.geometry)
                    && found.board.tiles() >= reading.board.tiles() =>
            {
                self.adopt(reader, found)
            }
            _ => {
                self.tiles = reading.board.tiles();
                reading
            }
        }
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
            Ok(reading) if grew_as_a_deal(self.tiles, &reading) => Ok(self.grown(frame, reading)),
            Ok(reading) => {
                self.tiles = reading.board.tiles();
                Ok(reading)
            }
        }
    }
}

/// Whether `reading` has so many more tiles than the `before` of the last reading that it may
/// show a new board: more than a pair more, and at least a quarter of the cells that were empty
/// (a new deal fills the board). Fewer are a misreading: late in a game, with few tiles to learn
/// from, a lit patch of kshisen's wallpaper read as 46 tiles over a board with 4, and the board
/// found again from that frame was the wallpaper's texture (22x59 cells of 13 px).
fn grew_as_a_deal(before: usize, reading: &Reading) -> bool {
    let cells = reading.board.rows() * reading.board.cols();
    let grown = reading.board.tiles().saturating_sub(before);
    grown > MOST_MISREAD && grown * 4 >= cells.saturating_sub(before)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Board;
    use crate::vision::Geometry;

    /// A reader whose frame's first pixel says how many tiles it shows (red) and the pitch
    /// less 10 (green).
    struct CountingReader {
        /// The pitch of the board found, from the frame it was found in.
        pitch: f64,
    }

    /// Finds a board whose pitch the frame's first pixel says.
    fn find(frame: &RgbaImage) -> Result<CountingReader, ReadError> {
        let pitch = 10.0 + f64::from(frame.get_pixel(0, 0)[1]);
        Ok(CountingReader { pitch })
    }

    impl BoardReader for CountingReader {
        fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
            let tiles = usize::from(frame.get_pixel(0, 0)[0]);
            let pitch = self.pitch;
            let cells = (0..64).map(|i| u32::from(i < tiles)).collect();
            let geometry = Geometry {
                rows: 4,
                cols: 16,
                origin: [0.0, 0.0],
                pitch: [pitch, pitch],
                tile_size: [9.0, 9.0],
            };
            let board = Board::new(4, 16, cells).expect("64 cells");
            Ok(Reading::certain(board, geometry))
        }
    }

    fn frame(tiles: u8, pitch_over_10: u8) -> RgbaImage {
        RgbaImage::from_pixel(160, 40, image::Rgba([tiles, pitch_over_10, 0, 255]))
    }

    #[test]
    fn a_tile_or_pair_too_many_is_not_a_new_board_but_another_board_is() {
        let mut live = LiveReader::new(find);
        // Six tiles left, one misread as empty, then seen again; then a pair of background
        // cells read as tiles.
        for tiles in [6, 5, 6, 4, 6] {
            let tiles_read = live.read(&frame(tiles, 0)).unwrap().board.tiles();
            assert_eq!(tiles_read, usize::from(tiles));
        }
        assert_eq!(live.calibrations(), 1);
        // Wallpaper read as tiles in 14 of the 58 empty cells (under a quarter): a misreading.
        let misread = live.read(&frame(20, 5)).unwrap();
        assert_eq!(
            (misread.geometry.pitch, live.calibrations()),
            ([10.0, 10.0], 1)
        );
        live.read(&frame(6, 0)).unwrap();
        live.read(&frame(40, 0)).unwrap();
        assert_eq!(
            live.calibrations(),
            1,
            "a new deal on the same board keeps it"
        );
        live.read(&frame(8, 0)).unwrap();
        let read = live.read(&frame(40, 5)).unwrap();
        assert_eq!(live.calibrations(), 2, "another board is taken");
        assert_eq!(read.geometry.pitch, [15.0, 15.0]);
        let resized = RgbaImage::from_pixel(200, 50, image::Rgba([40, 0, 0, 255]));
        live.read(&resized).unwrap();
        assert_eq!(live.calibrations(), 3, "a resized window is found again");
    }
}
