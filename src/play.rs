//! The play loop: capture, wait until the board is still, read it, check the last pair went,
//! choose the next pair, click it; again until the board is cleared or stuck.
//!
//! [`play`] is a library function driven by traits, so one loop serves the real desktop
//! ([`crate::capture::XcapScreen`], [`crate::input::EnigoPointer`]), `--dry-run`
//! ([`crate::input::RecordingPointer`]) and the simulated game ([`crate::sim`]): a [`Screen`]
//! captures, a [`BoardReader`] turns a frame into a [`Reading`] (vision's job), a [`Policy`]
//! chooses pairs (the solver's), a [`Pointer`] clicks, a [`Clock`] measures and sleeps, and an
//! [`Observer`] hears about every move. Nothing here decides a move from pixels or reads pixels
//! for a move.
//!
//! Safety is part of the loop, not of its callers: every click is checked to fall inside the
//! board rectangle of the window before it is sent, the loop stops at once when the pointer is
//! not where it was left (a person has taken the mouse), and it stops cleanly when the caller
//! sets the stop flag (Ctrl-C).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::Serialize;
use thiserror::Error;

use crate::board::{Board, Pos};
use crate::capture::{CaptureError, Frame, Screen, WindowRect};
use crate::input::{Button, Click, InputError, Pointer, SelectionRule};
use crate::planner::{self, Budget};
use crate::solver::{Move, NextPair, Rules, next_pair, remove_pair};
use crate::vision::{BoardReader, Geometry, ReadError, Reading, frames_agree};

/// What to do when no pair is left.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum ShuffleAction {
    /// Left-click a button at this window pixel `[x, y]` (it must lie inside the window).
    Button([f64; 2]),
}

/// Chooses the next pair on a board; the loop tells it what happened.
pub trait Policy {
    /// The next pair to click, or why there is none.
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair;

    /// The pair was removed by the game.
    fn removed(&mut self, _mv: &Move) {}

    /// The game refused the pair (or the board changed in some other way).
    fn refused(&mut self, _mv: &Move) {}
}

/// The line-ray search with last-success locality: [`crate::solver::next_pair`] from the
/// first tile of the last removed pair.
#[derive(Clone, Debug, Default)]
pub struct Greedy {
    last: Option<Pos>,
}

impl Policy for Greedy {
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair {
        next_pair(board, rules, self.last)
    }

    fn removed(&mut self, mv: &Move) {
        self.last = Some(mv.a);
    }
}

/// The full-board planner: plans the whole game from what it sees and follows the plan while
/// the board is what the plan expects. Any surprise (a refused pair, a misread, a shuffle)
/// makes it plan again from the board as read.
pub struct Planned {
    budget: Budget,
    queue: VecDeque<Move>,
    /// The board (as read) when the front move was chosen, and the rules it was chosen under.
    chosen_on: Option<(Board, Rules)>,
    /// The board the plan expects next, kinds renumbered.
    expected: Option<Board>,
}

impl Planned {
    /// A planner policy searching at most `budget` per plan.
    pub fn new(budget: Budget) -> Self {
        Planned {
            budget,
            queue: VecDeque::new(),
            chosen_on: None,
            expected: None,
        }
    }
}

impl Policy for Planned {
    fn choose(&mut self, board: &Board, rules: Rules) -> NextPair {
        if self.expected.as_ref() != Some(&board.renumbered()) || self.queue.is_empty() {
            self.queue = planner::plan(board, rules, self.budget).plan.moves.into();
        }
        self.chosen_on = Some((board.clone(), rules));
        match self.queue.front() {
            Some(m) => NextPair::Found(m.clone()),
            // The plan could not start (budget): fall back to the line-ray search.
            None => next_pair(board, rules, None),
        }
    }

    fn removed(&mut self, mv: &Move) {
        self.expected = match (self.queue.front(), self.chosen_on.take()) {
            (Some(front), Some((mut board, rules))) if front == mv => {
                self.queue.pop_front();
                remove_pair(&mut board, mv.a, mv.b, rules);
                Some(board.renumbered())
            }
            _ => None,
        };
    }

    fn refused(&mut self, _mv: &Move) {
        self.expected = None;
    }
}

/// Time, so tests can fake it.
pub trait Clock {
    /// Time since some fixed start.
    fn now(&self) -> Duration;
    /// Waits `d`.
    fn sleep(&mut self, d: Duration);
}

/// The real clock.
#[derive(Clone, Copy, Debug)]
pub struct SystemClock {
    start: Instant,
}

impl SystemClock {
    /// A clock starting now.
    pub fn new() -> Self {
        SystemClock {
            start: Instant::now(),
        }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn now(&self) -> Duration {
        self.start.elapsed()
    }

    fn sleep(&mut self, d: Duration) {
        std::thread::sleep(d);
    }
}

/// A clock that only moves when slept: tests run instantly and deterministically.
#[derive(Clone, Copy, Debug, Default)]
pub struct FakeClock {
    now: Duration,
}

impl Clock for FakeClock {
    fn now(&self) -> Duration {
        self.now
    }

    fn sleep(&mut self, d: Duration) {
        self.now += d;
    }
}

/// Settings of the loop (the profile and the command line fill them in).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The game's rules.
    pub rules: Rules,
    /// How the game treats a refused second click.
    pub selection: SelectionRule,
    /// What to do when stuck; `None` ends the game as stuck.
    pub shuffle: Option<ShuffleAction>,
    /// Most shuffles before giving up as stuck.
    pub max_shuffles: usize,
    /// Stop after this many removed pairs.
    pub max_moves: Option<usize>,
    /// Wait after each pair is clicked.
    pub pace: Duration,
    /// Wait between the two clicks of a pair.
    pub click_gap: Duration,
    /// Wait between two captures while waiting for a still board.
    pub still_interval: Duration,
    /// Most fraction of compared pixels that may differ between two frames called still.
    pub still_tolerance: f64,
    /// Most captures while waiting for a still board before giving up.
    pub still_max_frames: usize,
    /// How long a clicked pair may stay on the board (the line shown, the removal animated)
    /// before the click counts as refused.
    pub settle_timeout: Duration,
    /// Wait between reads while a clicked pair is still on the board.
    pub settle_poll: Duration,
    /// Most refused pairs in a row before giving up.
    pub max_refused: usize,
    /// How far (pixels, each axis) the pointer may be from where it was left.
    pub pointer_tolerance: i32,
}

impl Default for Config {
    /// Shisen-Sho rules, xshisen's selection, no shuffle, timings for the real games.
    fn default() -> Self {
        Config {
            rules: Rules::shisen_sho(),
            selection: SelectionRule::KeepFirst,
            shuffle: None,
            max_shuffles: 10,
            max_moves: None,
            pace: Duration::ZERO,
            click_gap: Duration::ZERO,
            still_interval: Duration::from_millis(30),
            still_tolerance: 0.001,
            still_max_frames: 200,
            settle_timeout: Duration::from_millis(2500),
            settle_poll: Duration::from_millis(30),
            max_refused: 5,
            pointer_tolerance: 2,
        }
    }
}

/// Something the loop did, for a progress bar or one JSON line per event.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "kebab-case")]
pub enum Event {
    /// The first reading.
    Start {
        /// Tiles on the board.
        tiles: usize,
        /// Board rows.
        rows: usize,
        /// Board columns.
        cols: usize,
    },
    /// A pair was clicked.
    Pair {
        /// 1-based count of pairs clicked.
        n: usize,
        /// First tile.
        a: Pos,
        /// Second tile.
        b: Pos,
        /// The two clicks sent, in screen pixels.
        clicks: [Click; 2],
    },
    /// The game removed the last clicked pair.
    Removed {
        /// Pairs removed so far.
        moves: usize,
        /// Tiles left.
        tiles_left: usize,
    },
    /// The game did not remove the last clicked pair.
    Refused {
        /// First tile.
        a: Pos,
        /// Second tile.
        b: Pos,
        /// Refused pairs so far.
        refused: usize,
    },
    /// The board changed in a way the last pair does not explain; everything is read again.
    Unexpected {
        /// Tiles expected after the removal.
        expected: usize,
        /// Tiles read.
        found: usize,
    },
    /// A selection was cleared.
    Deselect {
        /// The click that cleared it.
        click: Click,
    },
    /// No pair was left and the shuffle action was used.
    Shuffle {
        /// The click on the shuffle button.
        click: Click,
    },
}

/// Hears every [`Event`].
pub trait Observer {
    /// Called once per event, in order.
    fn event(&mut self, event: &Event);
}

impl<F: FnMut(&Event)> Observer for F {
    fn event(&mut self, event: &Event) {
        self(event)
    }
}

/// An observer that ignores everything.
#[derive(Clone, Copy, Debug, Default)]
pub struct Silent;

impl Observer for Silent {
    fn event(&mut self, _event: &Event) {}
}

/// How long each stage took, every time it ran.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Timings {
    /// One capture.
    pub capture: Vec<Duration>,
    /// Waiting for a still board (captures after the first, and the sleeps between them).
    pub wait: Vec<Duration>,
    /// One read.
    pub read: Vec<Duration>,
    /// One choice of a pair.
    pub solve: Vec<Duration>,
    /// Clicking one pair (checks included).
    pub click: Vec<Duration>,
}

/// The median of each stage; `None` for a stage that never ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Medians {
    /// Capture.
    pub capture: Option<Duration>,
    /// Wait for a still board.
    pub wait: Option<Duration>,
    /// Read.
    pub read: Option<Duration>,
    /// Solve.
    pub solve: Option<Duration>,
    /// Click a pair.
    pub click: Option<Duration>,
}

fn median(samples: &[Duration]) -> Option<Duration> {
    let mut s = samples.to_vec();
    s.sort_unstable();
    s.get(s.len() / 2).copied()
}

impl Timings {
    /// The median of each stage.
    pub fn medians(&self) -> Medians {
        Medians {
            capture: median(&self.capture),
            wait: median(&self.wait),
            read: median(&self.read),
            solve: median(&self.solve),
            click: median(&self.click),
        }
    }
}

/// How a game ended without an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum End {
    /// No tile is left.
    Cleared,
    /// Tiles are left and no pair links (and no shuffle is left).
    Stuck {
        /// Tiles left.
        tiles: usize,
    },
    /// `max_moves` pairs were removed.
    MaxMoves {
        /// Tiles left.
        tiles: usize,
    },
    /// The stop flag was set (Ctrl-C).
    Interrupted,
}

/// The result of a game.
#[derive(Clone, Debug, PartialEq)]
pub struct Outcome {
    /// How it ended.
    pub end: End,
    /// Pairs removed.
    pub moves: usize,
    /// Pairs the game refused.
    pub refused: usize,
    /// Shuffles used.
    pub shuffles: usize,
    /// Time from start to end.
    pub elapsed: Duration,
    /// Per-stage times.
    pub timings: Timings,
}

impl std::fmt::Display for Outcome {
    /// `cleared in 12.3 s, 72 moves, 0 refused clicks`, or `stuck: 8 tiles left, no pair`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let tail = format!("{} moves, {} refused clicks", self.moves, self.refused);
        match self.end {
            End::Cleared => write!(f, "cleared in {secs:.1} s, {tail}"),
            End::Stuck { tiles } => {
                write!(
                    f,
                    "stuck: {tiles} tiles left, no pair ({secs:.1} s, {tail})"
                )
            }
            End::MaxMoves { tiles } => {
                write!(
                    f,
                    "stopped after the most moves: {tiles} tiles left ({secs:.1} s, {tail})"
                )
            }
            End::Interrupted => write!(f, "interrupted after {secs:.1} s, {tail}"),
        }
    }
}

/// Why the loop stopped with an error.
#[derive(Debug, Error)]
pub enum PlayError {
    /// The window could not be captured: gone, minimised, covered.
    #[error("stopped: {0}")]
    Capture(#[from] CaptureError),
    /// The pointer could not be used.
    #[error("stopped: {0}")]
    Input(#[from] InputError),
    /// A frame could not be read.
    #[error("stopped: {0}")]
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

/// The OS-facing parts the loop drives.
pub struct Devices<'a> {
    /// Captures the window.
    pub screen: &'a mut dyn Screen,
    /// Clicks.
    pub pointer: &'a mut dyn Pointer,
    /// Reads frames.
    pub reader: &'a mut dyn BoardReader,
    /// Measures and sleeps.
    pub clock: &'a mut dyn Clock,
}

enum Stop {
    Interrupted,
    Error(PlayError),
}

impl<E: Into<PlayError>> From<E> for Stop {
    fn from(e: E) -> Self {
        Stop::Error(e.into())
    }
}

/// A pair clicked but not yet seen removed.
struct Pending {
    mv: Move,
    tiles_before: usize,
    /// The board as it should be once the game removes the pair.
    board_after: Board,
    clicked_at: Duration,
}

struct Player<'a, 'b> {
    dev: Devices<'a>,
    policy: &'b mut dyn Policy,
    observer: &'b mut dyn Observer,
    config: &'b Config,
    stop: &'b AtomicBool,
    timings: Timings,
    /// Where the pointer was left by the last click.
    left_at: Option<(i32, i32)>,
    /// The last geometry read: the stillness check compares only the board.
    geometry: Option<Geometry>,
    pairs: usize,
}

/// Plays one game until the board is cleared, stuck, `max_moves` is reached or `stop` is set.
///
/// Errors stop the loop at once: the window gone or covered, a click that would land outside
/// the board (not sent), the pointer moved by someone else, a frame that cannot be read.
pub fn play(
    dev: Devices<'_>,
    policy: &mut dyn Policy,
    config: &Config,
    observer: &mut dyn Observer,
    stop: &AtomicBool,
) -> Result<Outcome, PlayError> {
    let start = dev.clock.now();
    let mut player = Player {
        dev,
        policy,
        observer,
        config,
        stop,
        timings: Timings::default(),
        left_at: None,
        geometry: None,
        pairs: 0,
    };
    let mut counts = Counts::default();
    let end = match player.run(&mut counts) {
        Ok(end) => end,
        Err(Stop::Interrupted) => End::Interrupted,
        Err(Stop::Error(e)) => return Err(e),
    };
    Ok(Outcome {
        end,
        moves: counts.moves,
        refused: counts.refused,
        shuffles: counts.shuffles,
        elapsed: player.dev.clock.now().saturating_sub(start),
        timings: player.timings,
    })
}

#[derive(Default)]
struct Counts {
    moves: usize,
    refused: usize,
    shuffles: usize,
}

impl Player<'_, '_> {
    fn run(&mut self, counts: &mut Counts) -> Result<End, Stop> {
        let mut pending: Option<Pending> = None;
        let mut refused_in_row = 0;
        let mut deselects_in_row = 0;
        let mut started = false;
        loop {
            self.check_stop()?;
            let observed = self.observe();
            let unreadable = matches!(
                &observed,
                Err(Stop::Error(
                    PlayError::Read(_) | PlayError::Capture(CaptureError::Covered)
                ))
            );
            if let (true, Some(p)) = (unreadable, &pending) {
                // The last pair was clicked and now the board is covered or does not read:
                // the games put their end message over the board (xshisen: "Your time is
                // 00:13." when won, "No pieces available to get" when stuck).
                let left = p.tiles_before - 2;
                let stuck = next_pair(&p.board_after, self.config.rules, None) == NextPair::Stuck;
                if left == 0 || (stuck && self.config.shuffle.is_none()) {
                    counts.moves += 1;
                    self.observer.event(&Event::Removed {
                        moves: counts.moves,
                        tiles_left: left,
                    });
                    return Ok(if left == 0 {
                        End::Cleared
                    } else {
                        End::Stuck { tiles: left }
                    });
                }
            }
            let (frame, reading) = observed?;
            let tiles = reading.board.tiles();
            if !started {
                if tiles == 0 {
                    return Err(PlayError::NoTilesAtStart.into());
                }
                started = true;
                self.observer.event(&Event::Start {
                    tiles,
                    rows: reading.board.rows(),
                    cols: reading.board.cols(),
                });
            }
            if let Some(p) = pending.take() {
                if tiles + 2 == p.tiles_before {
                    counts.moves += 1;
                    refused_in_row = 0;
                    self.policy.removed(&p.mv);
                    self.observer.event(&Event::Removed {
                        moves: counts.moves,
                        tiles_left: tiles,
                    });
                } else if tiles == p.tiles_before {
                    let first_only = reading.selected == [p.mv.a]
                        && self.config.selection == SelectionRule::KeepFirst;
                    let waited = self.dev.clock.now().saturating_sub(p.clicked_at);
                    if !first_only && waited < self.config.settle_timeout {
                        // The game may still be showing the line or animating the removal.
                        self.dev.clock.sleep(self.config.settle_poll);
                        pending = Some(p);
                        continue;
                    }
                    counts.refused += 1;
                    refused_in_row += 1;
                    self.policy.refused(&p.mv);
                    self.observer.event(&Event::Refused {
                        a: p.mv.a,
                        b: p.mv.b,
                        refused: counts.refused,
                    });
                    if refused_in_row > self.config.max_refused {
                        return Err(PlayError::TooManyRefused(refused_in_row).into());
                    }
                    self.deselect(&frame, &reading, &[p.mv.a, p.mv.b])?;
                    continue;
                } else {
                    // A reading that fits neither "refused" nor "removed" is most often taken
                    // mid-animation (the line drawn over empty cells, tiles falling): look again
                    // until the settle time is up before believing it.
                    let waited = self.dev.clock.now().saturating_sub(p.clicked_at);
                    if waited < self.config.settle_timeout {
                        self.dev.clock.sleep(self.config.settle_poll);
                        pending = Some(p);
                        continue;
                    }
                    self.policy.refused(&p.mv);
                    self.observer.event(&Event::Unexpected {
                        expected: p.tiles_before - 2,
                        found: tiles,
                    });
                }
            }
            if !reading.selected.is_empty() {
                // A leftover selection (from before linkup started, or a refused pair).
                deselects_in_row += 1;
                if deselects_in_row > self.config.max_refused {
                    return Err(PlayError::SelectionStuck(reading.selected.clone()).into());
                }
                let selected = reading.selected.clone();
                self.deselect(&frame, &reading, &selected)?;
                continue;
            }
            deselects_in_row = 0;
            if let Some(max) = self.config.max_moves
                && counts.moves >= max
            {
                return Ok(End::MaxMoves { tiles });
            }
            let t = self.dev.clock.now();
            let choice = self.policy.choose(&reading.board, self.config.rules);
            self.timings
                .solve
                .push(self.dev.clock.now().saturating_sub(t));
            match choice {
                NextPair::Cleared => return Ok(End::Cleared),
                NextPair::Stuck => match self.config.shuffle {
                    Some(ShuffleAction::Button(at))
                        if counts.shuffles < self.config.max_shuffles =>
                    {
                        let click = self.click_in_window(&frame, at, Button::Left)?;
                        counts.shuffles += 1;
                        self.observer.event(&Event::Shuffle { click });
                        self.dev.clock.sleep(self.config.pace);
                    }
                    _ => return Ok(End::Stuck { tiles }),
                },
                NextPair::Found(mv) => {
                    let t = self.dev.clock.now();
                    let first = self.click_cell(&frame, &reading.geometry, mv.a, Button::Left)?;
                    self.dev.clock.sleep(self.config.click_gap);
                    let second = self.click_cell(&frame, &reading.geometry, mv.b, Button::Left)?;
                    let clicked_at = self.dev.clock.now();
                    self.timings.click.push(clicked_at.saturating_sub(t));
                    self.pairs += 1;
                    self.observer.event(&Event::Pair {
                        n: self.pairs,
                        a: mv.a,
                        b: mv.b,
                        clicks: [first, second],
                    });
                    let mut board_after = reading.board.clone();
                    remove_pair(&mut board_after, mv.a, mv.b, self.config.rules);
                    pending = Some(Pending {
                        mv,
                        tiles_before: tiles,
                        board_after,
                        clicked_at,
                    });
                    self.dev.clock.sleep(self.config.pace);
                }
            }
        }
    }

    fn check_stop(&self) -> Result<(), Stop> {
        if self.stop.load(Ordering::Relaxed) {
            Err(Stop::Interrupted)
        } else {
            Ok(())
        }
    }

    fn capture(&mut self) -> Result<Frame, Stop> {
        let t = self.dev.clock.now();
        let frame = self.dev.screen.capture()?;
        self.timings
            .capture
            .push(self.dev.clock.now().saturating_sub(t));
        Ok(frame)
    }

    /// Captures until two consecutive frames agree, then reads the last one.
    fn observe(&mut self) -> Result<(Frame, Reading), Stop> {
        self.check_pointer()?;
        let mut frame = self.capture()?;
        if self.geometry.is_none() {
            // Learn where the board is, so that clocks and scores elsewhere in the window do
            // not count as motion; a frame caught mid-animation may not read, which is fine.
            if let Ok(reading) = self.dev.reader.read(&frame.image) {
                self.geometry = Some(reading.geometry);
            }
        }
        let waiting = self.dev.clock.now();
        let mut frames = 1;
        loop {
            self.check_stop()?;
            if frames >= self.config.still_max_frames {
                return Err(PlayError::NeverStill { frames }.into());
            }
            self.dev.clock.sleep(self.config.still_interval);
            let next = self.capture()?;
            frames += 1;
            let still = (frame.window.width, frame.window.height)
                == (next.window.width, next.window.height)
                && frames_agree(
                    &frame.image,
                    &next.image,
                    self.geometry.as_ref(),
                    self.config.still_tolerance,
                );
            frame = next;
            if still {
                break;
            }
        }
        self.timings
            .wait
            .push(self.dev.clock.now().saturating_sub(waiting));
        let t = self.dev.clock.now();
        let reading = self.dev.reader.read(&frame.image)?;
        self.timings
            .read
            .push(self.dev.clock.now().saturating_sub(t));
        let g = reading.geometry;
        if (g.rows, g.cols) != (reading.board.rows(), reading.board.cols()) {
            return Err(PlayError::GeometryMismatch {
                board_rows: reading.board.rows(),
                board_cols: reading.board.cols(),
                rows: g.rows,
                cols: g.cols,
            }
            .into());
        }
        self.geometry = Some(g);
        Ok((frame, reading))
    }

    /// Stops if the pointer is not where the last click left it.
    fn check_pointer(&mut self) -> Result<(), Stop> {
        if let Some((x, y)) = self.left_at {
            let (found_x, found_y) = self.dev.pointer.position()?;
            let tol = self.config.pointer_tolerance;
            if (found_x - x).abs() > tol || (found_y - y).abs() > tol {
                return Err(PlayError::PointerMoved {
                    x,
                    y,
                    found_x,
                    found_y,
                }
                .into());
            }
        }
        Ok(())
    }

    /// Clicks the centre of `cell`, after checking it lies inside the board rectangle.
    fn click_cell(
        &mut self,
        frame: &Frame,
        geometry: &Geometry,
        cell: Pos,
        button: Button,
    ) -> Result<Click, Stop> {
        let [cx, cy] = geometry.cell_center(cell);
        let (x, y) = frame.window.to_screen(cx, cy);
        let (wx, wy) = (f64::from(x - frame.window.x), f64::from(y - frame.window.y));
        let on_board = cell.row >= 0
            && cell.col >= 0
            && (cell.row as usize) < geometry.rows
            && (cell.col as usize) < geometry.cols;
        let rect = geometry.board_rect();
        if !on_board || !rect.contains(wx, wy) || !frame.window.contains(x, y) {
            let (l, t) = frame.window.to_screen(rect.x, rect.y);
            let (r, b) = frame.window.to_screen(rect.x + rect.w, rect.y + rect.h);
            return Err(PlayError::OutsideBoard {
                x,
                y,
                board: [l, t, r, b],
                window: frame.window,
            }
            .into());
        }
        self.send(x, y, button)
    }

    /// Clicks a window pixel (the shuffle button), after checking it lies inside the window.
    fn click_in_window(
        &mut self,
        frame: &Frame,
        at: [f64; 2],
        button: Button,
    ) -> Result<Click, Stop> {
        let (x, y) = frame.window.to_screen(at[0], at[1]);
        if !frame.window.contains(x, y) {
            let w = frame.window;
            return Err(PlayError::OutsideBoard {
                x,
                y,
                board: [w.x, w.y, w.x + w.width as i32, w.y + w.height as i32],
                window: w,
            }
            .into());
        }
        self.send(x, y, button)
    }

    fn send(&mut self, x: i32, y: i32, button: Button) -> Result<Click, Stop> {
        self.check_stop()?;
        self.check_pointer()?;
        self.dev.pointer.click(x, y, button)?;
        self.left_at = Some((x, y));
        Ok(Click { x, y, button })
    }

    /// Clears a selection the way the game wants: xshisen a right click, kshisen a second
    /// click on the selected tile. `cells` are the candidates; the first on the board is used.
    fn deselect(&mut self, frame: &Frame, reading: &Reading, cells: &[Pos]) -> Result<(), Stop> {
        let target = reading
            .selected
            .first()
            .copied()
            .or_else(|| cells.first().copied());
        let Some(cell) = target else {
            return Ok(());
        };
        let click = match self.config.selection {
            SelectionRule::KeepFirst => {
                self.click_cell(frame, &reading.geometry, cell, Button::Right)?
            }
            SelectionRule::DropOnMismatch => {
                if reading.selected.is_empty() {
                    return Ok(());
                }
                self.click_cell(frame, &reading.geometry, cell, Button::Left)?
            }
        };
        self.observer.event(&Event::Deselect { click });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_pick_the_middle() {
        let t = Timings {
            capture: [3, 1, 2].map(Duration::from_millis).to_vec(),
            ..Timings::default()
        };
        let m = t.medians();
        assert_eq!(m.capture, Some(Duration::from_millis(2)));
        assert_eq!(m.read, None);
    }

    #[test]
    fn outcome_says_cleared_in_t_s_m_moves() {
        let o = Outcome {
            end: End::Cleared,
            moves: 72,
            refused: 0,
            shuffles: 0,
            elapsed: Duration::from_millis(12_345),
            timings: Timings::default(),
        };
        assert_eq!(
            o.to_string(),
            "cleared in 12.3 s, 72 moves, 0 refused clicks"
        );
        let stuck = Outcome {
            end: End::Stuck { tiles: 8 },
            ..o
        };
        assert!(
            stuck
                .to_string()
                .starts_with("stuck: 8 tiles left, no pair")
        );
    }

    #[test]
    fn events_serialize_as_tagged_json() {
        let e = Event::Removed {
            moves: 3,
            tiles_left: 138,
        };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"removed","moves":3,"tiles_left":138}"#
        );
    }
}
