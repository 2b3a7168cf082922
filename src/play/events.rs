//! What the loop tells the world: an [`Event`] per step for an [`Observer`] (a progress bar, a
//! JSON line), and at the end an [`Outcome`] with how it ended and per-stage [`Timings`].

use std::time::Duration;

use serde::Serialize;

use crate::board::{Kind, Pos};
use crate::input::{Cancel, Click, Keys, SelectionRule};

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
    /// The last pair, clicked during a removal, was not taken and the board is as before: the
    /// game dropped a click. The pair is chosen again on a careful look.
    Dropped {
        /// First tile.
        a: Pos,
        /// Second tile.
        b: Pos,
        /// Dropped pairs so far.
        dropped: usize,
    },
    /// Every pair that links on the board was refused; each is tried once more (a click the
    /// game missed looks like a refusal) before the game counts as stuck.
    RetryRefused {
        /// The pairs refused on this board.
        pairs: usize,
    },
    /// No pair links on a board where some kind shows an odd number of tiles, which no deal of
    /// pairs leaves: a tile misread or caught mid-change, so the board is looked at again.
    OddReading {
        /// Tiles read.
        tiles: usize,
    },
    /// The board changed in a way the last pair does not explain; everything is read again.
    Unexpected {
        /// Tiles expected after the removal.
        expected: usize,
        /// Tiles read.
        found: usize,
    },
    /// A reading put tiles in cells the loop saw emptied, on a board that did not change as a
    /// whole: a misreading (wallpaper under emptied cells read as tiles). The loop plans as if
    /// those cells were empty; reported once per set of cells.
    EmptiedReadAsTiles {
        /// The cells read as tiles.
        cells: Vec<Pos>,
    },
    /// A selection was cleared.
    Deselect {
        /// The click that cleared it.
        click: Click,
    },
    /// No pair was left and the shuffle action was used.
    Shuffle {
        /// The click on the shuffle button, if the game has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        click: Option<Click>,
        /// The shuffle key pressed, if the game has one.
        #[serde(skip_serializing_if = "Option::is_none")]
        keys: Option<Keys>,
    },
    /// The selection seen after a refused pair told how the game treats one; the loop follows
    /// it from now on.
    LearnedSelection {
        /// What the game did.
        rule: SelectionRule,
        /// What the loop believed before (the profile's, else the default).
        believed: SelectionRule,
    },
    /// A selection went after a cancel: the way of cancelling that works (after the other
    /// was tried, if the first cancel left the selection in place).
    LearnedCancel {
        /// The cancel that cleared the selection, used from now on.
        cancel: Cancel,
    },
    /// A pair that links only round the outside of the board was refused although its tiles
    /// read the same again: the game does not route paths round the border.
    LearnedBorder {
        /// Whether paths may run round the outside (always `false`: the reverse is never
        /// assumed).
        border: bool,
        /// The pair refused.
        a: Pos,
        /// The pair refused.
        b: Pos,
    },
    /// Stuck after learning that paths do not run round the outside, the loop routes round it
    /// once more (the lesson came from one refused pair, and a kind misread refuses a pair
    /// just the same); `a` and `b` link that way.
    BorderRetried {
        /// A tile of a pair that links round the outside.
        a: Pos,
        /// Its partner.
        b: Pos,
    },
    /// A removal with tiles above the pair showed whether tiles fall into emptied cells; the
    /// rules follow it from now on.
    LearnedGravity {
        /// Whether the tiles fell.
        gravity: bool,
        /// What the loop believed before (the profile's, the command line's or the default).
        believed: bool,
    },
    /// Tiles remain with no pair of one kind left (or a kind has an odd count): a pair of
    /// look-alike kinds is tried, to see whether the game matches them.
    LookAlike {
        /// First tile.
        a: Pos,
        /// Second tile.
        b: Pos,
        /// The two kinds, in the ids of the game's first reading.
        kinds: [Kind; 2],
    },
    /// The game removed a look-alike pair: its kinds match, and the solver treats the group
    /// as one kind from now on.
    LearnedMatch {
        /// The kinds that match each other, in the ids of the game's first reading.
        group: Vec<Kind>,
    },
    /// Clicks made while a removal is still on show: the game was seen to take them (a
    /// probe click showed selected; pairs are then clicked ahead) or not (three probes did not
    /// show, or a pair clicked ahead did not go; no more pairs are clicked ahead).
    LearnedClicksDuringRemoval {
        /// Whether the game takes them.
        taken: bool,
    },
    /// Enough removals were timed to estimate how long one takes to finish on screen (the
    /// loop waits half of that after clicking a pair; the estimate keeps following the game).
    LearnedTiming {
        /// The estimated time from a pair's second click to the board still without it, ms.
        removal_ms: u64,
    },
}

/// What the loop learned about the game from its answers; `None` where it saw nothing that
/// tells.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Learned {
    /// How the game treats a refused pair, seen after one.
    pub selection: Option<SelectionRule>,
    /// How a selection is cancelled, seen working.
    pub cancel: Option<Cancel>,
    /// Whether paths may run round the outside of the board: `Some(false)` once a pair that
    /// links only that way was refused.
    pub border: Option<bool>,
    /// Whether tiles fall down their column after a removal, seen after one with tiles above.
    pub gravity: Option<bool>,
    /// How long a removal takes to finish on screen, ms: the lower quartile of the last
    /// removals timed (each an upper bound, to within one capture interval).
    pub removal_ms: Option<u64>,
    /// Whether the game takes clicks made while a removal is still on show, once probes or a
    /// pair clicked ahead told.
    pub clicks_during_removal: Option<bool>,
    /// Kinds that match although they look different (ids of the game's first reading), once
    /// the game accepted a look-alike pair: every group known then (the profile's too).
    pub match_groups: Vec<Vec<Kind>>,
}

impl std::fmt::Display for Learned {
    /// `learned: the game drops the selection after a refused pair; a right click cancels a
    /// selection; no paths round the outside`, or `learned nothing about the game`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut facts = Vec::new();
        match self.selection {
            Some(SelectionRule::KeepFirst) => {
                facts.push("the game keeps the first tile selected after a refused pair")
            }
            Some(SelectionRule::DropOnMismatch) => {
                facts.push("the game drops the selection after a refused pair")
            }
            None => {}
        }
        match self.cancel {
            Some(Cancel::RightClick) => facts.push("a right click cancels a selection"),
            Some(Cancel::ClickAgain) => {
                facts.push("clicking the selected tile again cancels a selection")
            }
            None => {}
        }
        match self.border {
            Some(false) => facts.push("no paths round the outside of the board"),
            Some(true) => facts.push("paths may run round the outside of the board"),
            None => {}
        }
        match self.gravity {
            Some(true) => facts.push("tiles fall into emptied cells"),
            Some(false) => facts.push("tiles stay put after a removal"),
            None => {}
        }
        match self.clicks_during_removal {
            Some(true) => facts.push("the game takes clicks during a removal"),
            Some(false) => facts.push("the game drops clicks during a removal"),
            None => {}
        }
        let removal = self
            .removal_ms
            .map(|ms| format!("a removal takes {ms} ms on screen"));
        facts.extend(removal.as_deref());
        let groups: Vec<String> = self
            .match_groups
            .iter()
            .map(|g| g.iter().map(Kind::to_string).collect::<Vec<_>>().join("~"))
            .collect();
        let groups = (!groups.is_empty()).then(|| format!("kinds {} match", groups.join(", ")));
        facts.extend(groups.as_deref());
        if facts.is_empty() {
            write!(f, "learned nothing about the game")
        } else {
            write!(f, "learned: {}", facts.join("; "))
        }
    }
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
    crate::stats::median(&mut samples.to_vec())
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
    /// Pairs clicked during a removal whose clicks the game dropped (chosen again later).
    pub dropped: usize,
    /// Shuffles used.
    pub shuffles: usize,
    /// Time from start to end.
    pub elapsed: Duration,
    /// Per-stage times.
    pub timings: Timings,
    /// What was learned about the game.
    pub learned: Learned,
}

impl std::fmt::Display for Outcome {
    /// `cleared in 12.3 s, 72 moves, 0 refused clicks`, or `stuck: 8 tiles left, no pair`, ...
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let secs = self.elapsed.as_secs_f64();
        let dropped = match self.dropped {
            0 => String::new(),
            1 => "1 pair dropped during a removal, ".to_string(),
            n => format!("{n} pairs dropped during a removal, "),
        };
        let tail = format!(
            "{} moves, {dropped}{} refused clicks",
            self.moves, self.refused
        );
        match self.end {
            End::Cleared => write!(f, "cleared in {secs:.1} s, {tail}"),
            End::Stuck { tiles } => {
                let why = match self.shuffles {
                    0 => "and no shuffle action (give the profile [shuffle] button = [x, y] or key = \"...\")".to_string(),
                    1 => "after 1 shuffle".to_string(),
                    n => format!("after {n} shuffles"),
                };
                write!(
                    f,
                    "stuck: {tiles} tiles left, no pair {why} ({secs:.1} s, {tail})"
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
            dropped: 0,
            shuffles: 0,
            elapsed: Duration::from_millis(12_345),
            timings: Timings::default(),
            learned: Learned::default(),
        };
        assert_eq!(
            o.to_string(),
            "cleared in 12.3 s, 72 moves, 0 refused clicks"
        );
        let dropped = Outcome {
            dropped: 1,
            ..o.clone()
        };
        assert_eq!(
            dropped.to_string(),
            "cleared in 12.3 s, 72 moves, 1 pair dropped during a removal, 0 refused clicks"
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
    fn learned_says_each_fact_seen() {
        assert_eq!(
            Learned::default().to_string(),
            "learned nothing about the game"
        );
        let learned = Learned {
            selection: Some(SelectionRule::DropOnMismatch),
            cancel: None,
            border: Some(false),
            clicks_during_removal: Some(false),
            ..Learned::default()
        };
        assert_eq!(
            learned.to_string(),
            "learned: the game drops the selection after a refused pair; no paths round the outside of the board; the game drops clicks during a removal"
        );
        let e = Event::LearnedSelection {
            rule: SelectionRule::DropOnMismatch,
            believed: SelectionRule::KeepFirst,
        };
        assert_eq!(
            serde_json::to_string(&e).unwrap(),
            r#"{"event":"learned-selection","rule":"drop-on-mismatch","believed":"keep-first"}"#
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
