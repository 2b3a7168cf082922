//! `--dry-run` as a value: the same [`play`] loop, with a pointer that records the clicks
//! instead of sending them, in front of a game imagined from one real frame.
//!
//! The window is captured and read once, for real. After that the screen shows that frame
//! again, the reader answers with the board as the recorded clicks would have left it (a pair
//! of left clicks on two tiles of one kind removes them by the rules, gravity included; a
//! cancel clears the selection), and the clock is a [`FakeClock`], so the loop runs at once.
//! Every check of the real loop applies, the one that keeps clicks inside the board included.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;

use image::RgbaImage;

use super::{Config, Devices, FakeClock, Outcome, PlayError, Policy, Silent, play};
use crate::board::{Board, EMPTY, Pos};
use crate::capture::{CaptureError, Frame, Screen};
use crate::input::{Button, Click, InputError, Pointer, RecordingPointer};
use crate::solver::{Rules, remove_pair};
use crate::vision::{BoardReader, ReadError, Reading};

/// What a dry run did: the board first read, the clicks it would send, and how it would end.
#[derive(Clone, Debug)]
pub struct DryRun {
    /// The board read from the one real frame.
    pub board: Board,
    /// The clicks the loop sent to the recording pointer, in order.
    pub clicks: Vec<Click>,
    /// How the imagined game ended.
    pub outcome: Outcome,
}

/// Plays the game in `screen` without clicking: see the module docs. A shuffle or the game's
/// answer to a look-alike pair cannot be imagined, so a board with no pair ends the run as
/// stuck.
pub fn dry_run(
    screen: &mut dyn Screen,
    reader: &mut dyn BoardReader,
    policy: &mut dyn Policy,
    config: &Config,
) -> Result<DryRun, PlayError> {
    let config = Config {
        shuffle: None,
        max_look_alikes: 0,
        ..config.clone()
    };
    let game = Rc::new(RefCell::new(Imagined {
        frame: None,
        first: None,
        now: None,
        rules: config.rules,
        first_click: None,
    }));
    let mut screen = OneFrame {
        inner: screen,
        game: Rc::clone(&game),
    };
    let mut reader = ImaginedReader {
        inner: reader,
        game: Rc::clone(&game),
    };
    let mut pointer = ImaginedPointer {
        recorder: RecordingPointer::new(),
        game: Rc::clone(&game),
    };
    let devices = Devices {
        screen: &mut screen,
        pointer: &mut pointer,
        reader: &mut reader,
        clock: &mut FakeClock::default(),
    };
    let outcome = play(
        devices,
        policy,
        &config,
        &mut Silent,
        &AtomicBool::new(false),
    )?;
    let board = game
        .borrow()
        .first
        .as_ref()
        .map_or_else(|| Board::empty(0, 0), |r| r.board.clone());
    Ok(DryRun {
        board,
        clicks: pointer.recorder.clicks().to_vec(),
        outcome,
    })
}

/// The game as the recorded clicks leave it.
struct Imagined {
    /// The one real frame.
    frame: Option<Frame>,
    /// The reading of the real frame.
    first: Option<Reading>,
    /// The reading as the clicks so far leave it.
    now: Option<Reading>,
    rules: Rules,
    /// The first tile of a pair being clicked.
    first_click: Option<Pos>,
}

impl Imagined {
    /// Takes a click at a screen pixel as the game would.
    fn click(&mut self, x: i32, y: i32, button: Button) {
        let (Some(frame), Some(reading)) = (&self.frame, &mut self.now) else {
            return;
        };
        let (wx, wy) = (x - frame.window.x, y - frame.window.y);
        let cell = reading
            .geometry
            .cell_at(f64::from(wx), f64::from(wy))
            .filter(|&p| reading.board.get(p) != EMPTY);
        let Some(cell) = cell.filter(|_| button == Button::Left) else {
            // A right click (or a click off the tiles) cancels the selection.
            reading.selected.clear();
            self.first_click = None;
            return;
        };
        if let Some(i) = reading.selected.iter().position(|&p| p == cell) {
            // A second click on a selected tile deselects it.
            reading.selected.remove(i);
            self.first_click = None;
            return;
        }
        match self.first_click.take() {
            None => self.first_click = Some(cell),
            Some(a) if a != cell && reading.board.get(a) == reading.board.get(cell) => {
                remove_pair(&mut reading.board, a, cell, self.rules);
            }
            Some(_) => {}
        }
    }
}

/// Captures the real window once, then shows that frame again.
struct OneFrame<'a> {
    inner: &'a mut dyn Screen,
    game: Rc<RefCell<Imagined>>,
}

impl Screen for OneFrame<'_> {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        if let Some(frame) = &self.game.borrow().frame {
            return Ok(frame.clone());
        }
        let frame = self.inner.capture()?;
        self.game.borrow_mut().frame = Some(frame.clone());
        Ok(frame)
    }
}

/// Reads the real frame once, then answers with the imagined board.
struct ImaginedReader<'a> {
    inner: &'a mut dyn BoardReader,
    game: Rc<RefCell<Imagined>>,
}

impl BoardReader for ImaginedReader<'_> {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        if let Some(reading) = &self.game.borrow().now {
            return Ok(reading.clone());
        }
        let reading = self.inner.read(frame)?;
        let mut game = self.game.borrow_mut();
        game.first = Some(reading.clone());
        game.now = Some(reading.clone());
        Ok(reading)
    }
}

/// Records each click and lets the imagined game take it.
struct ImaginedPointer {
    recorder: RecordingPointer,
    game: Rc<RefCell<Imagined>>,
}

impl Pointer for ImaginedPointer {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        self.recorder.click(x, y, button)?;
        self.game.borrow_mut().click(x, y, button);
        Ok(())
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        self.recorder.position()
    }
}
