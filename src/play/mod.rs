//! The play loop: capture, wait until the board is still, read it, check the last pair went,
//! choose the next pair, click it; again until the board is cleared or stuck.
//!
//! [`play`] is a library function driven by traits, so one loop serves the real desktop
//! ([`crate::capture::XcapScreen`], [`crate::input::EnigoPointer`]), `--dry-run`
//! ([`crate::input::RecordingPointer`]) and the simulated game ([`crate::sim`]): a [`Screen`]
//! captures, a [`BoardReader`] turns a frame into a [`Reading`] (vision's job), a [`Policy`]
//! chooses pairs (the solver's), a [`Pointer`] clicks, a [`Clock`] measures and sleeps, and an
//! [`Observer`] hears about every move. Nothing here reads a board from pixels: the loop only
//! compares a tile's pixels from frame to frame (`looks`: is it drawn as it was?).
//!
//! The loop is split by concern: [`policy`] chooses pairs, [`config`] holds its settings,
//! [`events`] is what it reports, [`crate::clock`] its time, [`error`] why it stops, [`recorder`]
//! saves what it saw, [`live`] finds the board with no profile, [`learning`] holds what it learns
//! of the game, `fast` watches for the board a move predicts instead of waiting for a still board,
//! and [`mod@dry_run`] runs it without clicking. One turn of the loop is: look (capture until
//! still, read; or the fast way), settle the last pair (removed, refused, or not yet), clear a
//! leftover selection, act (choose and click). Each step is a method of its own, so learning what a
//! game does (issue 12) is a step that adjusts the loop's own copy of [`Config`] from what it
//! observes: a refused pair tells the selection rule (is the first tile still selected?) and, when
//! it links only round the outside, that the game has no border routing; a cancel that leaves the
//! selection is swapped for the other; a removal shows whether tiles fall and how long it takes on
//! screen; stuck (or with a kind of odd count), a look-alike pair the game removes makes a match
//! group the solver sees as one kind; stuck, the profile's shuffle button or key is used. What was
//! learned is reported as events and in the [`Outcome`]'s [`Learned`].
//!
//! Safety is part of the loop, not of its callers: every click is checked to fall inside the
//! board rectangle of the window before it is sent, the loop stops at once when the pointer is
//! not where it was left (a person has taken the mouse), and it stops cleanly when the caller
//! sets the stop flag (Ctrl-C).

pub use crate::clock;
pub mod config;
pub mod dry_run;
mod emptied;
pub mod error;
pub mod events;
mod fast;
pub mod learning;
pub mod live;
mod looks;
pub mod policy;
pub mod recorder;

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use crate::board::{Board, Kind, Pos};
use crate::capture::{CaptureError, Frame, Screen};
use crate::input::{Button, Cancel, Click, Pointer, SelectionRule};
use crate::solver::{Move, NextPair, Rules, connect, next_pair, remove_pair};
use crate::vision::{BoardReader, Geometry, Reading, frames_agree};

pub use clock::{Clock, FakeClock, SystemClock};
pub use config::{Config, ShuffleAction};
pub use dry_run::{DryRun, dry_run};
pub use error::PlayError;
pub use events::{End, Event, Learned, Medians, Observer, Outcome, Silent, Timings};
pub use live::LiveReader;
pub use policy::{Greedy, Planned, Policy};
pub use recorder::FrameRecorder;

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
        config: config.clone(),
        learned: Learned::default(),
        stop,
        timings: Timings::default(),
        left_at: None,
        geometry: None,
        pairs: 0,
        counts: Counts::default(),
        pending: None,
        started: false,
        removal_times: learning::RemovalTimes::default(),
        kinds: learning::KindGroups::new(&config.match_groups, config.max_look_alikes),
        still_since: Duration::ZERO,
        fast: fast::FastPath::new(config.clicks_during_removal),
        emptied: emptied::EmptiedCells::default(),
        refused_pairs: Vec::new(),
        retried_at: None,
        odd_looks: (0, 0),
        border_retried: false,
        recent_clicks: Vec::new(),
        removed_last: false,
    };
    let end = match player.run() {
        Ok(end) => end,
        Err(Stop::Interrupted) => End::Interrupted,
        Err(Stop::Error(e)) => return Err(e),
    };
    Ok(Outcome {
        end,
        moves: player.counts.moves,
        refused: player.counts.refused,
        dropped: player.counts.dropped,
        shuffles: player.counts.shuffles,
        elapsed: player.dev.clock.now().saturating_sub(start),
        timings: player.timings,
        learned: player.learned,
    })
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

/// What a step of the loop leads to: look at the board again, or go on to the next step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Look,
    GoOn,
}

/// A pair clicked but not yet seen removed.
struct Pending {
    mv: Move,
    tiles_before: usize,
    /// The board the pair was chosen on.
    board_before: Board,
    /// For a look-alike pair, its two kinds (the first reading's ids).
    look_alike: Option<[Kind; 2]>,
    /// The board as it should be once the game removes the pair.
    board_after: Board,
    clicked_at: Duration,
    /// Whether the pair was clicked ahead, before the board showed the pair before it removed.
    clicked_ahead: bool,
    /// How the pair's two tiles were drawn when the pair was chosen.
    looks: [looks::CellLook; 2],
}

/// What happened so far, and in a row.
#[derive(Default)]
struct Counts {
    moves: usize,
    refused: usize,
    /// Pairs clicked ahead that the game dropped (clicked during a removal).
    dropped: usize,
    shuffles: usize,
    refused_in_row: usize,
    deselects_in_row: usize,
    /// Whether the last click sent was a cancel, not yet seen to work.
    cancel_sent: bool,
}

struct Player<'a, 'b> {
    dev: Devices<'a>,
    policy: &'b mut dyn Policy,
    observer: &'b mut dyn Observer,
    /// The settings, adjusted by what the loop learns of the game.
    config: Config,
    /// What was learned so far.
    learned: Learned,
    stop: &'b AtomicBool,
    timings: Timings,
    /// Where the pointer was left by the last click.
    left_at: Option<(i32, i32)>,
    /// The last geometry read: the stillness check compares only the board.
    geometry: Option<Geometry>,
    pairs: usize,
    counts: Counts,
    /// The last pair clicked, until the game is seen to take or refuse it.
    pending: Option<Pending>,
    /// Whether the first reading has been seen.
    started: bool,
    /// How long removals took to finish on screen.
    removal_times: learning::RemovalTimes,
    /// When the first of the two frames that agreed in the last look was captured.
    still_since: Duration,
    /// Kinds the game matches although they look different.
    kinds: learning::KindGroups,
    /// The fast path's state ([`fast`]).
    fast: fast::FastPath,
    /// Cells the loop saw emptied, kept empty in what it reads ([`emptied`]).
    emptied: emptied::EmptiedCells,
    /// Pairs the game refused on the board as it is now: never clicked again until a removal,
    /// a shuffle or a change the loop did not expect (two tiles read as one kind that the game
    /// will not match are two kinds, whatever the reading says).
    refused_pairs: Vec<Move>,
    /// The tile count at which every pair that linked had been refused and the loop cleared
    /// `refused_pairs` to try them once more (see [`Player::act`]): once per board.
    retried_at: Option<usize>,
    /// The move count at which the loop last found no pair on an odd reading, and how many
    /// times it looked again there (see [`Player::act`], [`ODD_READING_LOOKS`]).
    odd_looks: (usize, u32),
    /// Whether border routing, learned off, was tried once more (see [`Player::act`]).
    border_retried: bool,
    /// The last cells clicked (up to [`RECENT_CLICKS`]): the only tiles a game can show
    /// selected after a removal.
    recent_clicks: Vec<Pos>,
    /// Whether a removal was counted since the last pair was clicked.
    removed_last: bool,
}

/// How many times [`Player`] looks again at a board with no pair where a kind shows an odd
/// number of tiles, before the game counts as stuck.
const ODD_READING_LOOKS: u32 = 3;

/// How many of the last clicked cells [`Player`] keeps as those a game may show selected.
const RECENT_CLICKS: usize = 8;

impl Player<'_, '_> {
    /// The loop: look, settle the last pair, clear a leftover selection, act.
    fn run(&mut self) -> Result<End, Stop> {
        loop {
            self.check_stop()?;
            let observed = self.look();
            if let Some(end) = self.ended_behind_dialog(&observed) {
                return Ok(end);
            }
            let (frame, reading) = observed?;
            self.start(&reading)?;
            self.kinds.remember_first(&frame.image, &reading);
            let reading = self.kinds.merged(&frame.image, reading);
            if let Some(p) = self.pending.take()
                && self.settle(p, &frame, &reading)? == Next::Look
            {
                continue;
            }
            if self.clear_selection(&frame, &reading)? == Next::Look {
                continue;
            }
            if let Some(end) = self.act(&frame, &reading)? {
                return Ok(end);
            }
        }
    }

    /// The last pair was clicked and now the board is covered or does not read: the games put
    /// their end message over the board (xshisen: "Your time is 00:13." when won, "No pieces
    /// available to get" when stuck). Ends the game when that pair was the last one, or left a
    /// board with no pair and no shuffle.
    fn ended_behind_dialog(&mut self, observed: &Result<(Frame, Reading), Stop>) -> Option<End> {
        let unreadable = matches!(
            observed,
            Err(Stop::Error(
                PlayError::Read(_) | PlayError::Capture(CaptureError::Covered)
            ))
        );
        let p = self.pending.as_ref().filter(|_| unreadable)?;
        let left = p.tiles_before - 2;
        let stuck = next_pair(&p.board_after, self.config.rules, None) == NextPair::Stuck;
        if left != 0 && !(stuck && self.config.shuffle.is_none()) {
            return None;
        }
        self.counts.moves += 1;
        self.observer.event(&Event::Removed {
            moves: self.counts.moves,
            tiles_left: left,
        });
        Some(if left == 0 {
            End::Cleared
        } else {
            End::Stuck { tiles: left }
        })
    }

    /// The first reading: it must show tiles (else the profile does not fit the window).
    fn start(&mut self, reading: &Reading) -> Result<(), Stop> {
        if self.started {
            return Ok(());
        }
        let tiles = reading.board.tiles();
        if tiles == 0 {
            return Err(PlayError::NoTilesAtStart.into());
        }
        self.started = true;
        self.observer.event(&Event::Start {
            tiles,
            rows: reading.board.rows(),
            cols: reading.board.cols(),
        });
        Ok(())
    }

    /// Decides what became of the pair clicked last: removed, refused, or not yet known (the
    /// game still showing the line or animating; look again until the settle time is up).
    fn settle(&mut self, p: Pending, frame: &Frame, reading: &Reading) -> Result<Next, Stop> {
        let tiles = reading.board.tiles();
        if tiles + 2 == p.tiles_before {
            self.learn_gravity(&p, &reading.board);
            self.learn_removal_time(&p);
            if let Some(kinds) = p.look_alike {
                self.learn_match(kinds);
            }
            self.count_removal(&p, reading);
            return Ok(Next::GoOn);
        }
        let waited = self.dev.clock.now().saturating_sub(p.clicked_at);
        // A reading that fits neither "refused" nor "removed" is most often taken mid-animation
        // (the line drawn over empty cells, tiles falling): look again before believing it.
        // Only the first tile selected is a refusal at once where this game was seen to keep
        // the first tile of a refused pair: a game busy drawing shows the first click taken
        // before it takes the second (kshisen 12x24, when the rule was only believed).
        let first_only = tiles == p.tiles_before
            && reading.selected == [p.mv.a]
            && self.learned.selection == Some(SelectionRule::KeepFirst);
        if !first_only && waited < self.config.settle_timeout {
            self.dev.clock.sleep(self.config.settle_poll);
            self.pending = Some(p);
            return Ok(Next::Look);
        }
        if !self.config.rules.gravity && pair_gone(&p.mv, &reading.board) {
            // Both tiles gone (without gravity only a removal empties a cell), while the count
            // says something else changed too: a pair clicked ahead before this one that the
            // game dropped, or a misreading elsewhere. The pair is removed all the same.
            self.observer.event(&Event::Unexpected {
                expected: p.tiles_before - 2,
                found: tiles,
            });
            self.count_removal(&p, reading);
            return Ok(Next::GoOn);
        }
        let misread = removed_but_one_cell_misread(&p, reading).or_else(|| {
            self.emptied
                .contradicted()
                .then(|| removed_but_both_cells_misread(&p, frame, reading))
                .flatten()
        });
        if let Some(corrected) = misread {
            // Counted removed on the corrected reading; the next look reads the misread cells
            // empty too (they are remembered emptied), so the next pair is chosen without them.
            self.settle(p, frame, &corrected)?;
            return Ok(Next::Look);
        }
        self.not_removed(&p, frame, reading)
    }

    /// The pending pair did not go: a refusal when the board is otherwise as it was (counted,
    /// and learnt from), else a surprise the next look reads afresh.
    fn not_removed(&mut self, p: &Pending, frame: &Frame, reading: &Reading) -> Result<Next, Stop> {
        let tiles = reading.board.tiles();
        if p.clicked_ahead {
            // Not removed: the game dropped a click made during a removal.
            self.learn_clicks_during_removal(false);
        }
        if tiles != p.tiles_before {
            self.policy.refused(&p.mv);
            self.refused_pairs.clear();
            self.observer.event(&Event::Unexpected {
                expected: p.tiles_before - 2,
                found: tiles,
            });
            return Ok(Next::GoOn);
        }
        if p.clicked_ahead {
            return self.dropped(p, frame, reading);
        }
        self.policy.refused(&p.mv);
        self.counts.refused += 1;
        self.refused_pairs.push(p.mv.clone());
        match p.look_alike {
            // A look-alike pair is a question, not a misreading: bounded by its own budget.
            Some(kinds) => self.kinds.refused(kinds),
            None => self.counts.refused_in_row += 1,
        }
        self.observer.event(&Event::Refused {
            a: p.mv.a,
            b: p.mv.b,
            refused: self.counts.refused,
        });
        self.learn_selection(&p.mv, reading);
        if !p.clicked_ahead {
            // A pair clicked ahead may have been dropped for its timing, not its path.
            self.learn_border(&p.mv, reading);
        }
        if self.counts.refused_in_row > self.config.max_refused {
            return Err(PlayError::TooManyRefused(self.counts.refused_in_row).into());
        }
        if !reading.selected.is_empty() {
            self.deselect(frame, reading, &[p.mv.a, p.mv.b])?;
        }
        Ok(Next::Look)
    }

    /// The pending pair was clicked ahead, during a removal, and the board is as it was: the game
    /// dropped a click (it was linked on the board read before it was clicked, so its path is
    /// not in question). It is counted as dropped, not refused, and tells nothing of the
    /// selection rule or the border; any selection it left is cleared and the next look chooses
    /// again on a careful reading (no more clicks ahead), so a pair the game truly refuses is
    /// then counted refused.
    fn dropped(&mut self, p: &Pending, frame: &Frame, reading: &Reading) -> Result<Next, Stop> {
        self.counts.dropped += 1;
        self.observer.event(&Event::Dropped {
            a: p.mv.a,
            b: p.mv.b,
            dropped: self.counts.dropped,
        });
        if !reading.selected.is_empty() {
            self.deselect(frame, reading, &[p.mv.a, p.mv.b])?;
        }
        Ok(Next::Look)
    }

    /// After a refused pair, the selection tells the game's rule: the first tile still
    /// selected (xshisen) or nothing selected (kshisen, many browser games). The loop follows
    /// what it saw from then on; a selection of anything else tells nothing.
    fn learn_selection(&mut self, mv: &Move, reading: &Reading) {
        let seen = match reading.selected.as_slice() {
            [] => SelectionRule::DropOnMismatch,
            [first] if *first == mv.a => SelectionRule::KeepFirst,
            _ => return,
        };
        if self.learned.selection == Some(seen) {
            return;
        }
        self.observer.event(&Event::LearnedSelection {
            rule: seen,
            believed: self.config.selection,
        });
        self.learned.selection = Some(seen);
        self.config.selection = seen;
    }

    /// A refused pair whose tiles read the same kind again and that links only round the
    /// outside of the board: the game does not route paths there. Border routing is switched
    /// off and the policy plans again; the reverse is never assumed.
    fn learn_border(&mut self, mv: &Move, reading: &Reading) {
        let rules = self.config.rules;
        if !rules.border {
            return;
        }
        let board = &reading.board;
        let kind = board.get(mv.a);
        if kind == crate::board::EMPTY || board.get(mv.b) != kind {
            return;
        }
        let inside = Rules {
            border: false,
            ..rules
        };
        if connect(board, mv.a, mv.b, inside).is_some()
            || connect(board, mv.a, mv.b, rules).is_none()
        {
            return;
        }
        self.config.rules = inside;
        self.learned.border = Some(false);
        self.observer.event(&Event::LearnedBorder {
            border: false,
            a: mv.a,
            b: mv.b,
        });
    }

    /// A removal with tiles above the pair tells the game's gravity: the board read shows them
    /// fallen down their column or not. The rules follow what was seen, and a policy that
    /// planned under the other rule plans again (its expected board no longer matches).
    fn learn_gravity(&mut self, p: &Pending, after: &Board) {
        let rules = self.config.rules;
        let seen = learning::gravity_shown(&p.board_before, p.mv.a, p.mv.b, rules, after);
        let Some(gravity) = seen.filter(|&g| self.learned.gravity != Some(g)) else {
            return;
        };
        self.config.rules.gravity = gravity;
        self.learned.gravity = Some(gravity);
        if gravity != rules.gravity {
            self.emptied.forget();
        }
        self.observer.event(&Event::LearnedGravity {
            gravity,
            believed: rules.gravity,
        });
    }

    /// Counts the pending pair removed: see [`Self::count_removed`]; the cells it emptied are
    /// those under the rules as now believed (with gravity, the tops of the columns the tiles
    /// fell down).
    fn count_removal(&mut self, p: &Pending, reading: &Reading) {
        let mut after = p.board_before.clone();
        remove_pair(&mut after, p.mv.a, p.mv.b, self.config.rules);
        let emptied: Vec<Pos> = p
            .board_before
            .tile_positions()
            .filter(|&cell| after.get(cell) == crate::board::EMPTY)
            .collect();
        self.count_removed(&p.mv, emptied, reading.board.tiles(), reading);
    }

    /// One more pair (`mv`) removed, leaving `tiles_left`: the cells it emptied that `reading`
    /// shows empty stay empty in later readings, the policy is told (unless it was when the
    /// pair was clicked ahead) and so is the observer.
    fn count_removed(
        &mut self,
        mv: &Move,
        emptied: impl IntoIterator<Item = Pos>,
        tiles_left: usize,
        reading: &Reading,
    ) {
        self.emptied.remember(emptied, reading);
        self.removed_last = true;
        self.counts.moves += 1;
        self.counts.refused_in_row = 0;
        self.refused_pairs.clear();
        if !self.fast.told_policy(mv) {
            self.policy.removed(mv);
        }
        self.observer.event(&Event::Removed {
            moves: self.counts.moves,
            tiles_left,
        });
    }

    /// Reads a frame, keeping the cells seen emptied empty (see [`emptied`]); a misreading of
    /// them is reported once.
    fn read(&mut self, image: &image::RgbaImage) -> Result<Reading, crate::vision::ReadError> {
        let mut reading = self.dev.reader.read(image)?;
        if let Some(cells) = self.emptied.mask(&mut reading) {
            self.observer.event(&Event::EmptiedReadAsTiles { cells });
        }
        Ok(reading)
    }

    /// A removal seen done: the time from the pair's second click to the first still frame
    /// showing it gone joins the estimate, which becomes the loop's removal time (it waits
    /// half of it after clicking a pair before looking).
    fn learn_removal_time(&mut self, p: &Pending) {
        self.removal_times
            .push(self.still_since.saturating_sub(p.clicked_at));
        let Some(estimate) = self.removal_times.estimate() else {
            return;
        };
        self.config.removal = estimate;
        let ms = estimate.as_millis() as u64;
        if self.learned.removal_ms.is_none() {
            self.observer
                .event(&Event::LearnedTiming { removal_ms: ms });
        }
        self.learned.removal_ms = Some(ms);
    }

    /// The game removed a look-alike pair: its kinds match. The solver sees them as one kind
    /// from now on.
    fn learn_match(&mut self, kinds: [Kind; 2]) {
        let group = self.kinds.accepted(kinds);
        self.config.match_groups = self.kinds.groups().to_vec();
        self.learned.match_groups = self.kinds.groups().to_vec();
        self.observer.event(&Event::LearnedMatch { group });
    }

    /// Clears a selection left from before linkup started or by a refused pair.
    ///
    /// A cancel that left the selection in place is switched for the other way of cancelling
    /// (until one is seen to work); one that cleared it is learned as the game's.
    fn clear_selection(&mut self, frame: &Frame, reading: &Reading) -> Result<Next, Stop> {
        let cancel_sent = std::mem::take(&mut self.counts.cancel_sent);
        if reading.selected.is_empty() {
            self.counts.deselects_in_row = 0;
            if cancel_sent && self.learned.cancel.is_none() {
                self.learned.cancel = Some(self.config.cancel);
                self.observer.event(&Event::LearnedCancel {
                    cancel: self.config.cancel,
                });
            }
            return Ok(Next::GoOn);
        }
        if self.removed_last
            && !cancel_sent
            && !reading
                .selected
                .iter()
                .any(|cell| self.recent_clicks.contains(cell))
        {
            // A game selects only what was clicked, and a removal leaves nothing selected: a
            // tile read selected then, that the loop did not click, is the removal still being
            // drawn (a path line along a tile's edge). Cancelling it would select it.
            return Ok(Next::GoOn);
        }
        if cancel_sent && self.learned.cancel.is_none() {
            self.config.cancel = match self.config.cancel {
                Cancel::RightClick => Cancel::ClickAgain,
                Cancel::ClickAgain => Cancel::RightClick,
            };
        }
        self.counts.deselects_in_row += 1;
        if self.counts.deselects_in_row > self.config.max_refused {
            return Err(PlayError::SelectionStuck(reading.selected.clone()).into());
        }
        self.deselect(frame, reading, &reading.selected)?;
        Ok(Next::Look)
    }

    /// Chooses the next pair and clicks it, or shuffles, or ends the game.
    fn act(&mut self, frame: &Frame, reading: &Reading) -> Result<Option<End>, Stop> {
        let tiles = reading.board.tiles();
        if let Some(max) = self.config.max_moves
            && self.counts.moves >= max
        {
            return Ok(Some(End::MaxMoves { tiles }));
        }
        let t = self.dev.clock.now();
        let planned = self.policy.choose(&reading.board, self.config.rules);
        let choice = self.not_refused(planned.clone(), reading);
        self.timings
            .solve
            .push(self.dev.clock.now().saturating_sub(t));
        if choice == NextPair::Stuck
            && matches!(planned, NextPair::Found(_))
            && self.retried_at != Some(tiles)
        {
            // Every pair that links here was refused: a click the game missed (a busy page, a
            // path line still drawn) looks just like a refusal, so each is tried once more, as
            // a person would, before the game counts as stuck. Refusals in a row stay bounded.
            self.retried_at = Some(tiles);
            self.observer.event(&Event::RetryRefused {
                pairs: self.refused_pairs.len(),
            });
            self.refused_pairs.clear();
            self.dev
                .clock
                .sleep(self.config.removal.max(self.config.settle_poll));
            return Ok(None);
        }
        if choice == NextPair::Stuck
            && self.learned.border == Some(false)
            && !self.border_retried
            && let Some(mv) = self.round_the_border(reading)
        {
            // The lesson came from one refused pair, and two kinds read as one refuse a pair
            // just the same: stuck without the border, a pair of another kind routes round it
            // once. Removed, the border stands; refused, it teaches the lesson again.
            self.border_retried = true;
            self.config.rules.border = true;
            self.learned.border = None;
            self.observer
                .event(&Event::BorderRetried { a: mv.a, b: mv.b });
            self.click_pair(frame, reading, mv)?;
            return Ok(None);
        }
        if choice != NextPair::Cleared {
            let stuck = choice == NextPair::Stuck;
            let rules = self.config.rules;
            if let Some((mv, kinds)) = self.kinds.look_alike(&frame.image, reading, rules, stuck) {
                self.observer.event(&Event::LookAlike {
                    a: mv.a,
                    b: mv.b,
                    kinds,
                });
                self.click_pair(frame, reading, mv)?;
                if let Some(p) = self.pending.as_mut() {
                    p.look_alike = Some(kinds);
                }
                return Ok(None);
            }
        }
        match choice {
            NextPair::Cleared => return Ok(Some(End::Cleared)),
            NextPair::Stuck if self.looks_again_at_odd(&reading.board) => {}
            NextPair::Stuck => {
                let shuffle = self.config.shuffle.clone();
                match shuffle {
                    Some(action) if self.counts.shuffles < self.config.max_shuffles => {
                        self.shuffle(frame, action)?;
                    }
                    _ => return Ok(Some(End::Stuck { tiles })),
                }
            }
            NextPair::Found(mv) => self.click_pair(frame, reading, mv)?,
        }
        Ok(None)
    }

    /// Whether the loop, finding no pair on `board`, waits to look at it again: a deal of
    /// pairs never leaves a kind with an odd number of tiles, so such a reading is off (a
    /// tile caught while the game redraws it). At most [`ODD_READING_LOOKS`] times a move.
    fn looks_again_at_odd(&mut self, board: &Board) -> bool {
        let moves = self.counts.moves;
        let looks = if self.odd_looks.0 == moves {
            self.odd_looks.1
        } else {
            0
        };
        if looks >= ODD_READING_LOOKS || !learning::has_odd_kind(board) {
            return false;
        }
        self.odd_looks = (moves, looks + 1);
        self.observer.event(&Event::OddReading {
            tiles: board.tiles(),
        });
        self.dev
            .clock
            .sleep(self.config.removal.max(self.config.settle_poll));
        true
    }

    /// A pair that links on `reading` round the outside of the board, of a kind none of the
    /// pairs refused on this board is read as (those may be two kinds read as one).
    fn round_the_border(&self, reading: &Reading) -> Option<Move> {
        let board = &reading.board;
        let rules = Rules {
            border: true,
            ..self.config.rules
        };
        let suspect: Vec<Kind> = self.refused_pairs.iter().map(|m| board.get(m.a)).collect();
        first_linking_pair(board, rules, |a, _| !suspect.contains(&board.get(a)))
    }

    /// `choice`, unless the game refused that pair on this board: then the first other pair
    /// that links on `reading` and was not refused, or [`NextPair::Stuck`] when every one was
    /// (the look-alike pairs come next).
    fn not_refused(&self, choice: NextPair, reading: &Reading) -> NextPair {
        let refused = |a: Pos, b: Pos| {
            self.refused_pairs
                .iter()
                .any(|m| (m.a, m.b) == (a, b) || (m.a, m.b) == (b, a))
        };
        match choice {
            NextPair::Found(mv) if refused(mv.a, mv.b) => {
                first_linking_pair(&reading.board, self.config.rules, |a, b| !refused(a, b))
                    .map_or(NextPair::Stuck, NextPair::Found)
            }
            other => other,
        }
    }

    /// Asks the game for a shuffle (its button or its key), then waits as after a pair; the
    /// next look reads the board the shuffle dealt.
    fn shuffle(&mut self, frame: &Frame, action: ShuffleAction) -> Result<(), Stop> {
        let event = match action {
            ShuffleAction::Button(at) => Event::Shuffle {
                click: Some(self.click_in_window(frame, at, Button::Left)?),
                keys: None,
            },
            ShuffleAction::Key(keys) => {
                self.check_stop()?;
                self.check_pointer()?;
                self.dev.pointer.press(&keys)?;
                Event::Shuffle {
                    click: None,
                    keys: Some(keys),
                }
            }
        };
        self.counts.shuffles += 1;
        self.emptied.forget();
        self.refused_pairs.clear();
        self.observer.event(&event);
        self.dev
            .clock
            .sleep(self.config.pace.max(self.config.removal / 2));
        Ok(())
    }

    /// Clicks both tiles of `mv` and remembers the pair until the game answers.
    fn click_pair(&mut self, frame: &Frame, reading: &Reading, mv: Move) -> Result<(), Stop> {
        let t = self.dev.clock.now();
        let first = self.click_cell(frame, &reading.geometry, mv.a, Button::Left)?;
        self.dev.clock.sleep(self.config.click_gap);
        let second = self.click_cell(frame, &reading.geometry, mv.b, Button::Left)?;
        self.removed_last = false;
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
        let looks =
            [mv.a, mv.b].map(|cell| looks::CellLook::of(&frame.image, &reading.geometry, cell));
        self.pending = Some(Pending {
            mv,
            tiles_before: reading.board.tiles(),
            board_before: reading.board.clone(),
            look_alike: None,
            board_after,
            clicked_at,
            clicked_ahead: false,
            looks,
        });
        self.dev
            .clock
            .sleep(self.config.pace.max(self.config.removal / 2));
        Ok(())
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
        let mut frame_at = self.dev.clock.now();
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
            let next_at = self.dev.clock.now();
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
                self.still_since = frame_at;
                break;
            }
            frame_at = next_at;
        }
        self.timings
            .wait
            .push(self.dev.clock.now().saturating_sub(waiting));
        let t = self.dev.clock.now();
        let reading = self.read(&frame.image)?;
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
        self.recent_clicks.push(cell);
        let excess = self.recent_clicks.len().saturating_sub(RECENT_CLICKS);
        self.recent_clicks.drain(..excess);
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

    /// Clears a selection the way the profile's `cancel` says: xshisen a right click, kshisen a
    /// second click on the selected tile. `cells` are the candidates; the first on the board is
    /// used.
    fn deselect(&mut self, frame: &Frame, reading: &Reading, cells: &[Pos]) -> Result<(), Stop> {
        let target = reading
            .selected
            .first()
            .copied()
            .or_else(|| cells.first().copied());
        let Some(cell) = target else {
            return Ok(());
        };
        let click = match self.config.cancel {
            Cancel::RightClick => self.click_cell(frame, &reading.geometry, cell, Button::Right)?,
            Cancel::ClickAgain => {
                if reading.selected.is_empty() {
                    return Ok(());
                }
                self.click_cell(frame, &reading.geometry, cell, Button::Left)?
            }
        };
        self.counts.cancel_sent = true;
        self.observer.event(&Event::Deselect { click });
        Ok(())
    }
}

/// The first pair of [`crate::solver::pairs`] on `board` under `rules` that `keep` takes, with
/// its path.
fn first_linking_pair(
    board: &Board,
    rules: Rules,
    keep: impl Fn(Pos, Pos) -> bool,
) -> Option<Move> {
    crate::solver::pairs(board, rules)
        .into_iter()
        .filter(|&(a, b)| keep(a, b))
        .find_map(|(a, b)| {
            let path = connect(board, a, b, rules)?;
            Some(Move { a, b, path })
        })
}

/// Whether both of the pair's cells show empty on `board`: without gravity, only the pair's
/// removal empties them.
fn pair_gone(mv: &Move, board: &Board) -> bool {
    board.get(mv.a) == crate::board::EMPTY && board.get(mv.b) == crate::board::EMPTY
}

/// The cells a reading shows otherwise than the board predicted after the pending pair's
/// removal, compared tile or empty (so a renumbering of kinds does not matter), when each is a
/// cell the removal emptied; `None` when the reading is of another size or shows any other
/// difference.
fn misread_emptied_cells(p: &Pending, reading: &Reading) -> Option<Vec<Pos>> {
    let (before, after) = (&p.board_before, &p.board_after);
    if (reading.board.rows(), reading.board.cols()) != (after.rows(), after.cols()) {
        return None;
    }
    let is_tile = |kind: &Kind| *kind != crate::board::EMPTY;
    let cols = after.cols();
    after
        .cells()
        .iter()
        .zip(reading.board.cells())
        .enumerate()
        .filter(|(_, (a, r))| is_tile(a) != is_tile(r))
        .map(|(index, _)| {
            let cell = Pos::new((index / cols) as i32, (index % cols) as i32);
            (is_tile(&before.get(cell)) && !is_tile(&after.get(cell))).then_some(cell)
        })
        .collect()
}

/// `reading` with `cells` empty and not selected.
fn with_cells_emptied(reading: &Reading, cells: &[Pos]) -> Reading {
    let mut corrected = reading.clone();
    for &cell in cells {
        corrected.board.set(cell, crate::board::EMPTY);
    }
    corrected.selected.retain(|s| !cells.contains(s));
    corrected
}

/// A game removes a pair as a whole, so a reading that shows the board predicted after the pair's
/// removal but for one cell the removal emptied, read as a tile, shows the pair removed and that
/// cell misread (the background behind it taken for a tile, as late in a game with few tiles left
/// to learn from). Returns the reading with that cell empty; `None` for any other reading.
fn removed_but_one_cell_misread(p: &Pending, reading: &Reading) -> Option<Reading> {
    match misread_emptied_cells(p, reading)?.as_slice() {
        [cell] => Some(with_cells_emptied(reading, &[*cell])),
        _ => None,
    }
}

/// A reading that read tiles in cells seen emptied (vision taking the background for tiles, as
/// late in a game on kshisen's 12x24 board) may do the same to the pair just removed: both its
/// cells read as tiles although neither is drawn as it was when the pair was clicked. When
/// every other cell is as predicted after the removal and neither of the two shows selected,
/// the pair is removed and both cells misread: returns the reading with them empty. A refused
/// pair's tiles are drawn as before (the first may stay selected, but then the second is not
/// redrawn), so this does not take a refused pair for a removal.
fn removed_but_both_cells_misread(
    p: &Pending,
    frame: &Frame,
    reading: &Reading,
) -> Option<Reading> {
    let mut cells = misread_emptied_cells(p, reading)?;
    let mut pair = [p.mv.a, p.mv.b];
    cells.sort_unstable();
    pair.sort_unstable();
    let redrawn = p
        .looks
        .iter()
        .all(|look| look.changed_share(&frame.image) >= REDRAWN_SHARE);
    let selected = pair.iter().any(|c| reading.selected.contains(c));
    (cells == pair && redrawn && !selected).then(|| with_cells_emptied(reading, &pair))
}

/// The share of a tile's pixels that must be drawn anew for it to count as taken away: a tile
/// replaced by the background changes most of them, one drawn as before almost none.
const REDRAWN_SHARE: f64 = 0.25;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::capture::WindowRect;
    use image::{Rgba, RgbaImage};

    const BACKGROUND: Rgba<u8> = Rgba([90, 90, 90, 255]);

    fn geometry() -> Geometry {
        Geometry {
            rows: 1,
            cols: 4,
            origin: [2.0, 2.0],
            pitch: [14.0, 14.0],
            tile_size: [12.0, 12.0],
        }
    }

    /// `board` drawn: each tile a square of its own colour on a grey background.
    fn frame(board: &Board) -> Frame {
        let mut image = RgbaImage::from_pixel(60, 16, BACKGROUND);
        for cell in board.tile_positions() {
            paint(
                &mut image,
                cell,
                Rgba([40 * board.get(cell) as u8, 200, 120, 255]),
            );
        }
        let window = WindowRect {
            x: 0,
            y: 0,
            width: 60,
            height: 16,
        };
        Frame { image, window }
    }

    fn paint(image: &mut RgbaImage, cell: Pos, colour: Rgba<u8>) {
        let r = geometry().cell_rect(cell);
        for y in r.y as u32..(r.y + r.h) as u32 {
            for x in r.x as u32..(r.x + r.w) as u32 {
                image.put_pixel(x, y, colour);
            }
        }
    }

    fn reading(board: Board) -> Reading {
        Reading::certain(board, geometry())
    }

    /// The pair of 1s of `1 1 2 2` clicked on its drawn frame.
    fn pending() -> Pending {
        let before = Board::from_rows(&[[1, 1, 2, 2]]);
        let (a, b) = (Pos::new(0, 0), Pos::new(0, 1));
        let rules = Rules::default();
        let path = connect(&before, a, b, rules).expect("the 1s link");
        let mut after = before.clone();
        remove_pair(&mut after, a, b, rules);
        let shown = frame(&before);
        Pending {
            mv: Move { a, b, path },
            tiles_before: 4,
            board_before: before,
            look_alike: None,
            board_after: after,
            clicked_at: Duration::ZERO,
            clicked_ahead: false,
            looks: [a, b].map(|cell| looks::CellLook::of(&shown.image, &geometry(), cell)),
        }
    }

    #[test]
    fn a_pair_redrawn_as_background_but_read_as_tiles_is_removed() {
        let p = pending();
        let shown = frame(&p.board_after);
        let misread = reading(Board::from_rows(&[[7, 8, 2, 2]]));
        let corrected = removed_but_both_cells_misread(&p, &shown, &misread).expect("removed");
        assert_eq!(corrected.board, p.board_after);
        // Any other cell read otherwise than predicted: not this case.
        let other = reading(Board::from_rows(&[[7, 8, 2, 0]]));
        assert!(removed_but_both_cells_misread(&p, &shown, &other).is_none());
    }

    #[test]
    fn a_refused_pair_drawn_as_before_is_not_taken_for_removed() {
        let p = pending();
        let as_before = reading(p.board_before.clone());
        // Nothing selected after the refusal (kshisen, many browser games).
        let unchanged = frame(&p.board_before);
        assert!(removed_but_both_cells_misread(&p, &unchanged, &as_before).is_none());
        // The first tile kept selected (xshisen): only it is redrawn.
        let mut first_kept = frame(&p.board_before);
        paint(&mut first_kept.image, p.mv.a, Rgba([250, 250, 40, 255]));
        assert!(removed_but_both_cells_misread(&p, &first_kept, &as_before).is_none());
        // Both redrawn but one read as selected: not taken as gone either.
        let mut both = frame(&p.board_after);
        paint(&mut both.image, p.mv.b, Rgba([250, 250, 40, 255]));
        let mut selected = reading(Board::from_rows(&[[7, 8, 2, 2]]));
        selected.selected = vec![p.mv.b];
        assert!(removed_but_both_cells_misread(&p, &both, &selected).is_none());
    }
}
