//! `--record`: a [`BoardReader`] wrapper that saves every frame it reads and the grid read from
//! it, to look into a game afterwards (the frame behind a refused pair, say).

use std::path::{Path, PathBuf};

use image::RgbaImage;
use thiserror::Error;

use crate::vision::{BoardReader, ReadError, Reading};

/// Why a recording folder cannot be used.
#[derive(Debug, Error)]
pub enum RecordError {
    /// The folder already holds something.
    #[error("{} is not empty; give --record a new or empty folder", dir.display())]
    NotEmpty {
        /// The folder.
        dir: PathBuf,
    },
    /// The folder could not be created.
    #[error("cannot create {}", dir.display())]
    Create {
        /// The folder.
        dir: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// A reader that also saves each frame it reads and the grid it read: `NNNN.png` and
/// `NNNN.txt`, numbered in order.
pub struct FrameRecorder<R> {
    inner: R,
    dir: PathBuf,
    frames: usize,
}

impl<R> FrameRecorder<R> {
    /// Records into `dir`, which must be new or empty (nothing of the user's is overwritten).
    pub fn new(inner: R, dir: &Path) -> Result<Self, RecordError> {
        let used = std::fs::read_dir(dir).is_ok_and(|mut entries| entries.next().is_some());
        if used {
            return Err(RecordError::NotEmpty {
                dir: dir.to_path_buf(),
            });
        }
        std::fs::create_dir_all(dir).map_err(|source| RecordError::Create {
            dir: dir.to_path_buf(),
            source,
        })?;
        Ok(FrameRecorder {
            inner,
            dir: dir.to_path_buf(),
            frames: 0,
        })
    }
}

impl<R: BoardReader> BoardReader for FrameRecorder<R> {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        self.frames += 1;
        let stem = self.dir.join(format!("{:04}", self.frames));
        let reading = self.inner.read(frame);
        let saved = frame
            .save(stem.with_extension("png"))
            .map_err(|e| e.to_string());
        let text = match &reading {
            Ok(r) => {
                let selected: Vec<String> = r.selected.iter().map(ToString::to_string).collect();
                format!("{}selected: {}\n", r.board, selected.join(" "))
            }
            Err(e) => format!("unreadable: {}\n", chain(e)),
        };
        let written = saved.and_then(|()| {
            std::fs::write(stem.with_extension("txt"), text).map_err(|e| e.to_string())
        });
        written.map_err(|e| {
            ReadError::msg(format!("cannot record into {}: {e}", self.dir.display()))
        })?;
        reading
    }
}

/// The error and each of its causes, `: `-joined (as `{:#}` prints an anyhow chain).
fn chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut cause = err.source();
    while let Some(c) = cause {
        text.push_str(": ");
        text.push_str(&c.to_string());
        cause = c.source();
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Board, Pos};
    use crate::vision::Geometry;

    /// A reader that reads every frame as the same one-row board with (0,1) selected.
    struct Fixed;

    impl BoardReader for Fixed {
        fn read(&mut self, _frame: &RgbaImage) -> Result<Reading, ReadError> {
            let geometry = Geometry {
                rows: 1,
                cols: 3,
                origin: [0.0, 0.0],
                pitch: [4.0, 4.0],
                tile_size: [4.0, 4.0],
            };
            let board = "1 1 0".parse::<Board>().expect("a board");
            Ok(Reading {
                selected: vec![Pos::new(0, 1)],
                ..Reading::certain(board, geometry)
            })
        }
    }

    /// A reader that finds every frame too small.
    struct TooSmall;

    impl BoardReader for TooSmall {
        fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
            Err(crate::vision::VisionError::TooSmall {
                width: frame.width(),
                height: frame.height(),
            }
            .into())
        }
    }

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("linkup-record-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn record_saves_each_frame_and_its_grid_in_order() {
        let dir = scratch("frames");
        let mut recorder = FrameRecorder::new(Fixed, &dir).unwrap();
        let frame = RgbaImage::from_pixel(12, 4, image::Rgba([0, 64, 0, 255]));
        for _ in 0..2 {
            recorder.read(&frame).unwrap();
        }
        for n in ["0001", "0002"] {
            let saved = image::open(dir.join(format!("{n}.png")))
                .unwrap()
                .to_rgba8();
            assert_eq!(saved, frame);
            let text = std::fs::read_to_string(dir.join(format!("{n}.txt"))).unwrap();
            assert_eq!(text, "1 1 0\nselected: (0,1)\n");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn record_writes_why_a_frame_did_not_read_with_its_cause() {
        let dir = scratch("unreadable");
        let mut recorder = FrameRecorder::new(TooSmall, &dir).unwrap();
        let frame = RgbaImage::from_pixel(3, 4, image::Rgba([0, 64, 0, 255]));
        assert!(recorder.read(&frame).is_err());
        assert_eq!(
            std::fs::read_to_string(dir.join("0001.txt")).unwrap(),
            "unreadable: cannot read the board: the image is 3x4 pixels, too small to hold a board\n"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn record_refuses_a_folder_with_something_in_it() {
        let dir = scratch("used");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("keep.txt"), "mine").unwrap();
        let err = FrameRecorder::new(Fixed, &dir).err().unwrap();
        assert_eq!(
            err.to_string(),
            format!(
                "{} is not empty; give --record a new or empty folder",
                dir.display()
            )
        );
        assert_eq!(
            std::fs::read_to_string(dir.join("keep.txt")).unwrap(),
            "mine"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
