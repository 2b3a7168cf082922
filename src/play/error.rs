//! Why the loop stops with an error: [`PlayError`], one variant per way a game can go wrong.
//! A variant that wraps another stage's error says only `stopped` and keeps that error as its
//! source, so a `{:#}` chain names each cause once.

use thiserror::Error;

use crate::board::Pos;
use crate::capture::{CaptureError, WindowRect};
use crate::input::InputError;
use crate::vision::ReadError;

/// Why the loop stopped with an error.
#[derive(Debug, Error)]
pub enum PlayError {
    /// The window could not be captured: gone, minimised, covered.
    #[error("stopped")]
    Capture(#[from] CaptureError),
    /// The pointer could not be used.
    #[error("stopped")]
    Input(#[from] InputError),
    /// A frame could not be read.
    #[error("stopped")]
    Read(#[from] ReadError),
    /// A click was about to land outside the board; it was not sent.
    #[error(
        "refusing to click at ({x}, {y}): outside the board rectangle {board:?} of the game window at {window:?}"
    )]
    OutsideBoard {
        /// Screen x of the click.
        x: i32,
        /// Screen y of the click.
        y: i32,
        /// The board rectangle in screen pixels, `[left, top, right, bottom]`.
        board: [i32; 4],
        /// The window.
        window: WindowRect,
    },
    /// The pointer is not where linkup left it.
    #[error(
        "stopped: the pointer is at ({found_x}, {found_y}) but linkup left it at ({x}, {y}); someone moved the mouse, so linkup let go of it"
    )]
    PointerMoved {
        /// Where it was left.
        x: i32,
        /// Where it was left.
        y: i32,
        /// Where it is.
        found_x: i32,
        /// Where it is.
        found_y: i32,
    },
    /// The board never stopped changing.
    #[error("stopped: the board did not stay still for two frames in {frames} captures")]
    NeverStill {
        /// Captures taken.
        frames: usize,
    },
    /// The first reading shows no tile: the profile does not match this window.
    #[error(
        "no tile where the profile expects the board: is the game started, and is the profile made for this window size?"
    )]
    NoTilesAtStart,
    /// The board read does not fit in the window's image or has no rows.
    #[error("the reading's board is {board_rows}x{board_cols} but its geometry is {rows}x{cols}")]
    GeometryMismatch {
        /// Board rows.
        board_rows: usize,
        /// Board columns.
        board_cols: usize,
        /// Geometry rows.
        rows: usize,
        /// Geometry columns.
        cols: usize,
    },
    /// Too many pairs were refused in a row: the reading or the rules do not match the game.
    #[error(
        "stopped: the game refused {0} pairs in a row; the board is misread or the profile's rules do not match the game"
    )]
    TooManyRefused(usize),
    /// A selection stays on the board however it is cleared.
    #[error(
        "stopped: tiles {0:?} stay selected after clearing the selection; check the profile's selection rule"
    )]
    SelectionStuck(Vec<Pos>),
}
