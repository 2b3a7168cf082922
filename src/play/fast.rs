//! The loop's fast path (issue 12): after a pair is clicked on a board the loop trusts, watch
//! for the board the move predicts instead of waiting for a still board before every move;
//! and in a game that takes clicks while a removal is still on show, click a few planned pairs
//! ahead and verify the board once for all of them.
//!
//! A careful look captures until two frames [`Config::still_interval`] apart agree, then reads
//! the last one. On the fast path the loop captures every [`Config::fast_poll`], reads a frame
//! only when it differs from the one before, and takes the pair as removed as soon as a frame
//! reads exactly as predicted (the pair gone, every other cell as before, nothing selected) and
//! the next frame agrees with it. The next pair is then chosen on that reading and clicked at
//! once. Nothing is clicked on a reading that differs from the prediction: any surprise (a
//! refused pair, tiles that moved, a frame that does not read, the window resized, the
//! prediction not seen within [`Config::fast_timeout`]) hands the pair to the careful look,
//! which settles it as before. A careful look also comes every [`Config::verify_every`] looks.
//!
//! Some games (xshisen) take a matched pair at the click and only draw its removal later. The
//! fast path learns this with one probe: while a removal is on show it clicks the tile the next
//! pair would start with; if that tile shows selected once the removal is drawn, the game takes
//! clicks during removals (the selection is then cancelled as any leftover one); a tile not
//! shown selected hands over to the careful look (the game may draw it late), and after three
//! such probes the game is taken not to accept clicks then. From then on,
//! on a board read as predicted and without gravity, it clicks the following planned pairs
//! right away (a capture before each, so a closed or covered window still stops it), as long
//! as each links on the board last read (so it does not depend on the game having finished the
//! removals before it), does not need the border unless the game was seen to route there, and
//! neither clears the board nor leaves it without a pair (those ends take the careful way).
//! The whole batch is then verified as one prediction.

use super::looks::CellLook;
use super::{
    Config, Frame, NextPair, Pending, Player, Reading, Rules, SelectionRule, Stop, frames_agree,
    pair_gone,
};
use image::RgbaImage;

use crate::board::{Board, EMPTY, Pos};
use crate::input::Button;
use crate::solver::{Move, connect, next_pair};
use crate::vision::Geometry;

/// Most pairs clicked in one batch.
const MOST_AHEAD: usize = 6;

/// Probes whose tile must show selected before the game is taken to accept clicks during a
/// removal. One: on a busy machine a probe can land after the removal and tell wrong (kshisen
/// at 12x24), but more probes told wrong too and each came late in xshisen's huge board
/// (clicks ahead from move 90 to 176 of 288 instead of the first probe); a pair clicked ahead
/// that does not go turns clicking ahead off.
const PROBES_TO_TRUST: usize = 1;

/// What the fast path has done and learned.
#[derive(Debug, Default)]
pub(super) struct FastPath {
    /// Fast looks since the last careful one.
    streak: usize,
    /// Whether the game takes clicks while a removal is still on show (learned by a probe).
    takes_clicks_during_removal: Option<bool>,
    /// The tile clicked as a probe while the pending pair's removal was on show.
    probe: Option<Pos>,
    /// Probes whose tile did not show selected.
    probes_not_taken: usize,
    /// Probes whose tile showed selected.
    probes_taken: usize,
    /// The board the pending pair was chosen on, when the fast path read it as predicted, and
    /// the frame it was read from.
    trusted: Option<(Board, RgbaImage)>,
    /// Pairs clicked before the pending one in this batch, not yet seen removed, each with the
    /// tiles it leaves.
    ahead: Vec<(Move, usize)>,
    /// Moves the policy was already told are removed (to choose the pairs ahead).
    told: Vec<Move>,
    /// Whether a pair that links only round the outside of the board was seen removed.
    border_seen: bool,
}

impl FastPath {
    /// The fast path of a game believed (`Some`) to take clicks during a removal or not.
    pub(super) fn new(clicks_during_removal: Option<bool>) -> Self {
        FastPath {
            takes_clicks_during_removal: clicks_during_removal,
            ..FastPath::default()
        }
    }

    /// Whether the next look may be a fast one.
    fn allowed(&self, config: &Config) -> bool {
        self.streak + 1 < config.verify_every
    }

    /// Whether the policy was already told `mv` is removed (so the loop must not tell it
    /// again); forgets it.
    pub(super) fn told_policy(&mut self, mv: &Move) -> bool {
        match self.told.iter().position(|m| m == mv) {
            Some(i) => {
                self.told.swap_remove(i);
                true
            }
            None => false,
        }
    }
}

/// What a frame shows, against the pair clicked last.
enum Seen {
    /// The board as predicted: the pair gone, the rest as before, nothing selected (or only
    /// the probe tile).
    Predicted(Reading),
    /// Not what the prediction says, but it may yet be (the line shown, the removal drawn).
    NotYet(Reading),
    /// Something the prediction did not foresee and that is not on its way to it.
    Surprise,
}

impl Seen {
    /// Compares a reading with what clicking `p` (and the probe click) should lead to.
    fn of(reading: Reading, p: &Pending, selection: SelectionRule, probe: Option<Pos>) -> Seen {
        let tiles = reading.board.tiles();
        let selection_expected = match (reading.selected.as_slice(), probe) {
            ([], _) => true,
            ([t], Some(probe)) => *t == probe,
            _ => false,
        };
        if selection_expected
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
            Seen::NotYet(reading)
        }
    }
}

impl Player<'_, '_> {
    /// Looks at the board: the fast way when a pair is pending on a trusted board and the
    /// careful look is not due, else (or when the fast way gives up) the careful way.
    pub(super) fn look(&mut self) -> Result<(Frame, Reading), Stop> {
        if self.pending.is_none() {
            self.fast.told.clear();
        }
        let fast = self.pending.is_some()
            && self.geometry.is_some()
            && !self.counts.cancel_sent
            && self.fast.allowed(&self.config);
        if fast && let Some((frame, reading)) = self.watch()? {
            // The predicted board is on screen: the removal has finished (for its timing).
            self.still_since = self.dev.clock.now();
            self.fast.streak += 1;
            self.fast.trusted = Some((reading.board.clone(), frame.image.clone()));
            return Ok((frame, reading));
        }
        self.fast.streak = 0;
        self.fast.trusted = None;
        self.fast.probe = None;
        let seen = self.observe();
        if let Ok((_, reading)) = &seen {
            self.count_batch_seen(reading);
        }
        self.fast.ahead.clear();
        seen
    }

    /// After a batch the fast path did not see through: counts as removed each pair before the
    /// pending one whose two cells read empty (pairs are clicked ahead only without gravity, so
    /// only a removal empties a cell; the game may drop any click of the batch, not only the
    /// last ones). The careful settle takes the pending one.
    fn count_batch_seen(&mut self, reading: &Reading) {
        let Some(&(_, first_left)) = self.fast.ahead.first() else {
            return;
        };
        let gone: Vec<Move> = self
            .fast
            .ahead
            .iter()
            .map(|(mv, _)| mv.clone())
            .filter(|mv| pair_gone(mv, &reading.board))
            .collect();
        if gone.len() < self.fast.ahead.len() {
            // A pair clicked ahead did not go: the game dropped a click made during a removal.
            self.learn_clicks_during_removal(false);
        }
        let mut left = first_left + 2;
        for mv in gone {
            left -= 2;
            self.count_removed(&mv, [mv.a, mv.b], left, reading);
        }
    }

    /// Watches for the board the pending pair predicts: the frame and its reading once it is
    /// seen in two agreeing frames, `None` to hand over to the careful look.
    fn watch(&mut self) -> Result<Option<(Frame, Reading)>, Stop> {
        self.check_pointer()?;
        let Some(geometry) = self.geometry else {
            return Ok(None);
        };
        if self.fast.takes_clicks_during_removal == Some(true) && !self.config.rules.gravity {
            self.click_ahead()?;
        }
        let Some(p) = self.pending.as_ref() else {
            return Ok(None);
        };
        // Until the game draws the removals, the tiles of the pairs clicked ahead still show.
        let most_tiles = self
            .fast
            .ahead
            .first()
            .map_or(p.tiles_before, |&(_, left)| left + 2);
        let clicked_at = p.clicked_at;
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
                            if !self.predicted_seen(&reading) {
                                return Ok(None);
                            }
                            return Ok(Some((frame, reading)));
                        }
                        Seen::Surprise => return Ok(None),
                        Seen::NotYet(reading) => {
                            self.probe(&frame, &reading)?;
                            last = Some((frame, Seen::NotYet(reading)));
                            self.dev.clock.sleep(self.config.fast_poll);
                            continue;
                        }
                    }
                }
            }
            let t = self.dev.clock.now();
            let Ok(reading) = self.read(&frame.image) else {
                return Ok(None);
            };
            self.timings
                .read
                .push(self.dev.clock.now().saturating_sub(t));
            let fits = (reading.geometry.rows, reading.geometry.cols)
                == (reading.board.rows(), reading.board.cols())
                && reading.geometry == geometry;
            if !fits || reading.board.tiles() > most_tiles {
                return Ok(None);
            }
            let Some(p) = self.pending.as_ref() else {
                return Ok(None);
            };
            let seen = Seen::of(reading, p, self.config.selection, self.fast.probe);
            last = Some((frame, seen));
            self.dev.clock.sleep(self.config.fast_poll);
        }
    }

    /// The predicted board is on screen: the pairs clicked ahead are removed, the probe (if
    /// one was sent) tells whether the game takes clicks during removals, and a pair that
    /// linked only round the outside tells that the game routes there. False when the probe's
    /// tile does not show selected: the game may yet draw it, so the careful look follows
    /// (and cancels it if it comes); three such probes tell that the game does not take them.
    fn predicted_seen(&mut self, reading: &Reading) -> bool {
        let ahead = std::mem::take(&mut self.fast.ahead);
        for (mv, left) in ahead {
            self.count_removed(&mv, [mv.a, mv.b], left, reading);
        }
        let mut settled = true;
        if let Some(probe) = self.fast.probe.take() {
            if reading.selected == [probe] {
                self.fast.probes_taken += 1;
                if self.fast.probes_taken >= PROBES_TO_TRUST {
                    self.learn_clicks_during_removal(true);
                }
            } else {
                self.fast.probes_not_taken += 1;
                if self.fast.probes_not_taken >= 3 {
                    self.learn_clicks_during_removal(false);
                }
                settled = false;
            }
        }
        if let (Some(p), Some((before, _))) = (self.pending.as_ref(), self.fast.trusted.as_ref())
            && self.config.rules.border
            && needs_border(before, &p.mv, self.config.rules)
        {
            self.fast.border_seen = true;
        }
        settled
    }

    /// What the game showed about clicks made while a removal is on show: taken (a probe's
    /// tile showed selected) or not (three probes' did not, or a pair clicked ahead did not
    /// go). A game seen to drop one is not clicked ahead again; the summary says what was seen.
    pub(super) fn learn_clicks_during_removal(&mut self, taken: bool) {
        let known = self.fast.takes_clicks_during_removal;
        if known == Some(taken) || known == Some(false) {
            return;
        }
        self.fast.takes_clicks_during_removal = Some(taken);
        self.learned.clicks_during_removal = Some(taken);
        self.observer
            .event(&super::Event::LearnedClicksDuringRemoval { taken });
    }

    /// While the pending pair's removal is on show (its tiles still drawn), clicks the first
    /// tile of the next pair once, to learn whether the game takes clicks then.
    fn probe(&mut self, frame: &Frame, reading: &Reading) -> Result<(), Stop> {
        let unknown = self.fast.takes_clicks_during_removal.is_none()
            && self.fast.probe.is_none()
            && self.fast.trusted.is_some()
            && !self.config.rules.gravity;
        let Some(p) = self.pending.as_ref().filter(|_| unknown) else {
            return Ok(());
        };
        if reading.board.tiles() != p.tiles_before {
            return Ok(());
        }
        let NextPair::Found(next) = next_pair(&p.board_after, self.config.rules, None) else {
            return Ok(());
        };
        if next.a == p.mv.a || next.a == p.mv.b {
            return Ok(());
        }
        self.click_cell(frame, &reading.geometry, next.a, Button::Left)?;
        self.fast.probe = Some(next.a);
        Ok(())
    }

    /// Clicks the planned pairs that follow the pending one, while each links on the board last
    /// read (see the module docs); the last one clicked becomes the pending pair.
    fn click_ahead(&mut self) -> Result<(), Stop> {
        let rules = self.config.rules;
        let (Some((trusted, seen)), Some(geometry)) = (self.fast.trusted.clone(), self.geometry)
        else {
            return Ok(());
        };
        while self.fast.ahead.len() + 1 < MOST_AHEAD {
            self.check_stop()?;
            let Some(p) = self.pending.as_ref() else {
                return Ok(());
            };
            let (mv, after) = (p.mv.clone(), p.board_after.clone());
            if !self.fast.told.contains(&mv) {
                self.policy.removed(&mv);
                self.fast.told.push(mv.clone());
            }
            let NextPair::Found(next) = self.policy.choose(&after, rules) else {
                return Ok(());
            };
            if !self.may_click_ahead(&trusted, &after, &next) {
                return Ok(());
            }
            // The window must still be there and uncovered, and both tiles drawn as they were
            // when the board was read (not moved, taken, selected or dealt anew).
            let frame = self.capture()?;
            if !tiles_unchanged(&seen, &frame.image, &geometry, &[next.a, next.b]) {
                return Ok(());
            }
            let reading = Reading::certain(after.clone(), geometry);
            self.fast.ahead.push((mv, after.tiles()));
            self.click_pair(&frame, &reading, next)?;
            if let Some(p) = self.pending.as_mut() {
                p.clicked_ahead = true;
            }
        }
        Ok(())
    }

    /// Whether `next`, chosen on the predicted board `after`, may be clicked before the board
    /// shows `after`: it links on `trusted` (the board last read) as it is, needs the border
    /// only if the game was seen to route there, and leaves tiles and a pair.
    fn may_click_ahead(&self, trusted: &Board, after: &Board, next: &Move) -> bool {
        let rules = self.config.rules;
        let kind = trusted.get(next.a);
        if kind == EMPTY || trusted.get(next.b) != kind || after.get(next.a) != kind {
            return false;
        }
        if connect(trusted, next.a, next.b, rules).is_none() {
            return false;
        }
        if rules.border && !self.fast.border_seen && needs_border(trusted, next, rules) {
            return false;
        }
        let mut then = after.clone();
        crate::solver::remove_pair(&mut then, next.a, next.b, rules);
        then.tiles() > 0 && next_pair(&then, rules, None) != NextPair::Stuck
    }
}

/// Whether the tiles at `cells` look the same in both images (same size; at most 0.1% of their
/// pixels changed, as [`CellLook::changed_share`] counts them).
fn tiles_unchanged(a: &RgbaImage, b: &RgbaImage, geometry: &Geometry, cells: &[Pos]) -> bool {
    a.dimensions() == b.dimensions()
        && cells
            .iter()
            .all(|&cell| CellLook::of(a, geometry, cell).changed_share(b) <= 0.001)
}

/// Whether `mv` links on `board` only round the outside.
fn needs_border(board: &Board, mv: &Move, rules: Rules) -> bool {
    let inside = Rules {
        border: false,
        ..rules
    };
    connect(board, mv.a, mv.b, inside).is_none()
}
