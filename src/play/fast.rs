//! The loop's fast path (issue 12): after a pair is clicked on a board the loop trusts, watch
//! for the board the move predicts instead of waiting for a still board before every move.
//!
//! A careful look captures until two frames [`Config::still_interval`] apart agree, then reads
//! the last one. On the fast path the loop captures every [`Config::fast_poll`], reads a frame
//! only when it differs from the one before, and takes the pair as removed as soon as a frame
//! reads exactly as predicted (the pair gone, every other cell as before, nothing selected) and
//! the next frame agrees with it. The next pair is then chosen on that reading and clicked at
//! once. Nothing is clicked on a reading that differs from the prediction: any surprise (a
//! refused pair, tiles that moved, a frame that does not read, the window resized, the
//! prediction not seen within [`Config::fast_timeout`]) hands the pair to the careful look,
//! which settles it as before. A careful look also comes every [`Config::verify_every`] moves.

use super::{Config, Frame, Pending, Player, Reading, SelectionRule, Stop, frames_agree};

/// What the fast path has done since the last careful look.
#[derive(Debug, Default)]
pub(super) struct FastPath {
    /// Pairs seen removed on the fast path since the last careful look.
    streak: usize,
}

impl FastPath {
    /// Whether the next look may be a fast one.
    fn allowed(&self, config: &Config) -> bool {
        self.streak + 1 < config.verify_every
    }
}

/// What a frame shows, against the pair clicked last.
enum Seen {
    /// The board as predicted: the pair gone, the rest as before, nothing selected.
    Predicted(Reading),
    /// Not what the prediction says, but it may yet be (the line shown, the removal drawn).
    NotYet,
    /// Something the prediction did not foresee and that is not on its way to it.
    Surprise,
}

impl Seen {
    /// Compares a reading with what clicking `p` should lead to.
    fn of(reading: Reading, p: &Pending, selection: SelectionRule) -> Seen {
        let tiles = reading.board.tiles();
        if reading.selected.is_empty()
            && tiles + 2 == p.tiles_before
            && reading.board.renumbered() == p.board_after.renumbered()
        {
            return Seen::Predicted(reading);
        }
        let gone_elsewhere = tiles + 2 == p.tiles_before;
        let refused_keeping_first = selection == SelectionRule::KeepFirst
            && tiles == p.tiles_before
            && reading.selected == [p.mv.a];
        if gone_elsewhere || refused_keeping_first {
            Seen::Surprise
        } else {
            Seen::NotYet
        }
    }
}

impl Player<'_, '_> {
    /// Looks at the board: the fast way when a pair is pending on a trusted board and the
    /// careful look is not due, else (or when the fast way gives up) the careful way.
    pub(super) fn look(&mut self) -> Result<(Frame, Reading), Stop> {
        let fast = self.pending.is_some()
            && self.geometry.is_some()
            && !self.counts.cancel_sent
            && self.fast.allowed(&self.config);
        if fast && let Some(seen) = self.watch()? {
            self.fast.streak += 1;
            return Ok(seen);
        }
        self.fast.streak = 0;
        self.observe()
    }

    /// Watches for the board the pending pair predicts: the frame and its reading once it is
    /// seen in two agreeing frames, `None` to hand over to the careful look.
    fn watch(&mut self) -> Result<Option<(Frame, Reading)>, Stop> {
        self.check_pointer()?;
        let (Some(p), Some(geometry)) = (self.pending.as_ref(), self.geometry) else {
            return Ok(None);
        };
        let (clicked_at, tiles_before) = (p.clicked_at, p.tiles_before);
        let started = self.dev.clock.now();
        let mut last: Option<(Frame, Seen)> = None;
        loop {
            self.check_stop()?;
            if self.dev.clock.now().saturating_sub(clicked_at) > self.config.fast_timeout {
                return Ok(None);
            }
            let frame = self.capture()?;
            if let Some((before, seen)) = last.take() {
                let same_size = (before.window.width, before.window.height)
                    == (frame.window.width, frame.window.height);
                if !same_size {
                    return Ok(None);
                }
                let still = frames_agree(
                    &before.image,
                    &frame.image,
                    Some(&geometry),
                    self.config.still_tolerance,
                );
                if still {
                    match seen {
                        Seen::Predicted(reading) => {
                            self.timings
                                .wait
                                .push(self.dev.clock.now().saturating_sub(started));
                            return Ok(Some((frame, reading)));
                        }
                        Seen::Surprise => return Ok(None),
                        Seen::NotYet => {
                            last = Some((frame, Seen::NotYet));
                            self.dev.clock.sleep(self.config.fast_poll);
                            continue;
                        }
                    }
                }
            }
            let t = self.dev.clock.now();
            let Ok(reading) = self.dev.reader.read(&frame.image) else {
                return Ok(None);
            };
            self.timings
                .read
                .push(self.dev.clock.now().saturating_sub(t));
            let fits = (reading.geometry.rows, reading.geometry.cols)
                == (reading.board.rows(), reading.board.cols())
                && reading.geometry == geometry;
            if !fits || reading.board.tiles() > tiles_before {
                return Ok(None);
            }
            let Some(p) = self.pending.as_ref() else {
                return Ok(None);
            };
            last = Some((frame, Seen::of(reading, p, self.config.selection)));
            self.dev.clock.sleep(self.config.fast_poll);
        }
    }
}
