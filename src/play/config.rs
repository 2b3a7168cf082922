//! The loop's settings: rules, selection rule, shuffle action, pacing and the limits that stop
//! a game going wrong. A profile turns itself into one ([`crate::profile::Profile::config`]).

use std::time::Duration;

use crate::board::Kind;
use crate::input::{Cancel, Keys, SelectionRule};
use crate::solver::Rules;

/// What to do when no pair is left.
#[derive(Clone, Debug, PartialEq)]
pub enum ShuffleAction {
    /// Left-click a button at this window pixel `[x, y]` (it must lie inside the window): the
    /// one click linkup sends outside the board, and only because a profile names it.
    Button([f64; 2]),
    /// Press this key combination (the game's window has the focus once a tile was clicked).
    Key(Keys),
}

/// Settings of the loop (the profile and the command line fill them in).
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// The game's rules.
    pub rules: Rules,
    /// How the game treats a refused second click.
    pub selection: SelectionRule,
    /// How to cancel a selection.
    pub cancel: Cancel,
    /// Kinds the game matches although they look different, in the ids of the game's first
    /// reading (a profile's template ids); the solver treats each group as one kind.
    pub match_groups: Vec<Vec<Kind>>,
    /// What to do when stuck; `None` ends the game as stuck.
    pub shuffle: Option<ShuffleAction>,
    /// Most shuffles before giving up as stuck.
    pub max_shuffles: usize,
    /// Stop after this many removed pairs.
    pub max_moves: Option<usize>,
    /// Wait after each pair is clicked.
    pub pace: Duration,
    /// How long a removal takes to finish on screen: the profile's `removal-ms` at first, then
    /// what the loop measures. After clicking a pair the loop waits the larger of `pace` and
    /// half of this before it looks.
    pub removal: Duration,
    /// Whether the game takes clicks made while a removal is still on show (the profile's
    /// belief); `None`: the loop probes. A game seen to drop a pair clicked ahead is not
    /// clicked ahead again, whatever this says.
    pub clicks_during_removal: Option<bool>,
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
    /// Most look-alike pairs the game may refuse in a game before the loop stops asking
    /// whether look-alike kinds match (0: never asks).
    pub max_look_alikes: usize,
    /// How far (pixels, each axis) the pointer may be from where it was left.
    pub pointer_tolerance: i32,
    /// The fast path: a careful look (waiting for a still board) at least every this many
    /// moves; between them a pair counts as removed, and the next one is clicked, as soon as
    /// two frames in a row agree and read as the board predicted. 1 looks carefully every move.
    pub verify_every: usize,
    /// Wait between captures on the fast path.
    pub fast_poll: Duration,
    /// How long the fast path watches for the predicted board before looking carefully.
    pub fast_timeout: Duration,
}

impl Default for Config {
    /// Shisen-Sho rules, xshisen's selection and cancel, no shuffle, timings for the real games.
    fn default() -> Self {
        Config {
            rules: Rules::shisen_sho(),
            selection: SelectionRule::KeepFirst,
            cancel: Cancel::RightClick,
            match_groups: Vec::new(),
            shuffle: None,
            max_shuffles: 10,
            max_moves: None,
            pace: Duration::ZERO,
            removal: Duration::ZERO,
            clicks_during_removal: None,
            click_gap: Duration::ZERO,
            still_interval: Duration::from_millis(30),
            still_tolerance: 0.001,
            still_max_frames: 200,
            settle_timeout: Duration::from_millis(2500),
            settle_poll: Duration::from_millis(30),
            max_refused: 5,
            max_look_alikes: 10,
            pointer_tolerance: 2,
            verify_every: 8,
            fast_poll: Duration::from_millis(2),
            fast_timeout: Duration::from_secs(1),
        }
    }
}
