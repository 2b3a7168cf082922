//! Input: clicking at a screen pixel and reading where the pointer is, and how a game answers
//! a click that does not make a pair ([`SelectionRule`]).
//!
//! Everything that moves the mouse goes through [`Pointer`] (named so it does not clash with
//! enigo's own `Mouse` trait). The real one, [`EnigoPointer`] (cargo feature `desktop`), sends
//! XTest events with enigo; [`RecordingPointer`] records the clicks instead, for `--dry-run` and
//! tests; the simulated game has its own (`crate::sim::SimPointer`).

use std::fmt;
use std::io::Write;

use serde::{Deserialize, Serialize};
use thiserror::Error;

/// A mouse button.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Button {
    /// The left button: selects a tile.
    Left,
    /// The right button: xshisen cancels a selection with it.
    Right,
}

/// One click at a screen pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Click {
    /// Screen x.
    pub x: i32,
    /// Screen y.
    pub y: i32,
    /// Which button.
    pub button: Button,
}

impl fmt::Display for Click {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let button = match self.button {
            Button::Left => "left",
            Button::Right => "right",
        };
        write!(f, "{button} click at ({}, {})", self.x, self.y)
    }
}

/// How a game treats a second click that does not make a pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SelectionRule {
    /// xshisen: the first tile stays selected, clicking it again does not deselect it, a right
    /// click cancels the selection.
    KeepFirst,
    /// kshisen: the selection is dropped; clicking a selected tile again deselects it.
    DropOnMismatch,
}

/// How to cancel a selection (a profile's `selection.cancel`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Cancel {
    /// A right click on the selected tile (xshisen).
    #[default]
    RightClick,
    /// A second left click on the selected tile (kshisen); nothing is clicked when no tile is
    /// seen selected.
    ClickAgain,
}

/// Why the pointer could not be moved, clicked or read.
#[derive(Debug, Error)]
pub enum InputError {
    /// The input connection could not be opened.
    #[error(
        "cannot open the input connection: {0}; is DISPLAY set and does the X server have the XTEST extension?"
    )]
    Connect(String),
    /// A click or a move failed.
    #[error("cannot send the {click}: {message}")]
    Send {
        /// The click that failed.
        click: Click,
        /// What the input library said.
        message: String,
    },
    /// The pointer position could not be read.
    #[error("cannot read the pointer position: {0}")]
    Position(String),
}

/// Moves and clicks the pointer.
pub trait Pointer {
    /// Moves the pointer to the screen pixel `(x, y)` and clicks `button` there; the pointer
    /// stays at `(x, y)`.
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError>;

    /// Where the pointer is now, in screen pixels.
    fn position(&mut self) -> Result<(i32, i32), InputError>;
}

impl<P: Pointer + ?Sized> Pointer for &mut P {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        (**self).click(x, y, button)
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        (**self).position()
    }
}

impl<P: Pointer + ?Sized> Pointer for Box<P> {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        (**self).click(x, y, button)
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        (**self).position()
    }
}

/// A pointer that sends nothing: it records each click (and prints it, if asked), and its
/// position is the last click's.
///
/// This is `--dry-run`: the same play loop, with the clicks as a value.
#[derive(Clone, Debug, Default)]
pub struct RecordingPointer {
    clicks: Vec<Click>,
    at: (i32, i32),
    print: bool,
}

impl RecordingPointer {
    /// A recorder whose pointer starts at `(0, 0)`.
    pub fn new() -> Self {
        RecordingPointer::default()
    }

    /// Also prints each click on standard output, one line each (`left click at (x, y)`).
    pub fn printing(mut self) -> Self {
        self.print = true;
        self
    }

    /// The clicks so far, in order.
    pub fn clicks(&self) -> &[Click] {
        &self.clicks
    }
}

impl Pointer for RecordingPointer {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        let click = Click { x, y, button };
        if self.print {
            // A closed pipe loses the listing, not the dry run; its end reports the pipe.
            let _ = writeln!(std::io::stdout().lock(), "{click}");
        }
        self.clicks.push(click);
        self.at = (x, y);
        Ok(())
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        Ok(self.at)
    }
}

#[cfg(feature = "desktop")]
pub use desktop::EnigoPointer;

#[cfg(feature = "desktop")]
mod desktop {
    use enigo::{Coordinate, Direction, Enigo, Mouse, Settings};

    use super::{Button, Click, InputError, Pointer};

    /// The real pointer: XTest events through enigo's pure-Rust x11rb backend.
    ///
    /// enigo stamps every X11 button event with a server-side delay (`Settings::linux_delay`,
    /// 12 ms by default, for the press and again for the release, and the call waits for the
    /// server); [`EnigoPointer::new`] takes it as a parameter so the play loop can use 0.
    pub struct EnigoPointer {
        enigo: Enigo,
    }

    impl EnigoPointer {
        /// Connects to `$DISPLAY`; `delay_ms` is the XTest delay per button event.
        pub fn new(delay_ms: u32) -> Result<Self, InputError> {
            let settings = Settings {
                linux_delay: delay_ms,
                ..Settings::default()
            };
            let enigo = Enigo::new(&settings).map_err(|e| InputError::Connect(e.to_string()))?;
            Ok(EnigoPointer { enigo })
        }
    }

    impl Pointer for EnigoPointer {
        fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
            let click = Click { x, y, button };
            let send = |e: enigo::InputError| InputError::Send {
                click,
                message: e.to_string(),
            };
            self.enigo.move_mouse(x, y, Coordinate::Abs).map_err(send)?;
            let button = match button {
                Button::Left => enigo::Button::Left,
                Button::Right => enigo::Button::Right,
            };
            self.enigo.button(button, Direction::Click).map_err(send)
        }

        fn position(&mut self) -> Result<(i32, i32), InputError> {
            self.enigo
                .location()
                .map_err(|e| InputError::Position(e.to_string()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recorder_records_and_follows_clicks() {
        let mut p = RecordingPointer::new();
        assert_eq!(p.position().unwrap(), (0, 0));
        p.click(5, 6, Button::Left).unwrap();
        p.click(7, 8, Button::Right).unwrap();
        assert_eq!(p.position().unwrap(), (7, 8));
        assert_eq!(p.clicks().len(), 2);
        assert_eq!(p.clicks()[1].to_string(), "right click at (7, 8)");
        assert_eq!(
            serde_json::to_string(&p.clicks()[0]).unwrap(),
            r#"{"x":5,"y":6,"button":"left"}"#
        );
    }
}
