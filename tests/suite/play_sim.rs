//! The play loop end to end against the simulated game: capture, stillness, reading, choice and
//! clicks through the same traits as the real desktop, with a fake clock so it runs instantly.

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use image::RgbaImage;
use linkup::board::{Board, Kind, Pos};
use linkup::capture::{CaptureError, ReplayScreen};
use linkup::input::{Button, Cancel, Click, SelectionRule};
use linkup::planner::Budget;
use linkup::play::{
    Config, Devices, End, Event, FakeClock, Greedy, LiveReader, Outcome, Planned, PlayError,
    Policy, dry_run, play,
};
use linkup::profile::Profile;
use linkup::sim::{SimEvent, SimGame, SimReader};
use linkup::solver::{Rules, greedy_plan};
use linkup::vision::{BoardReader, Geometry, ReadError, Reader, Reading};

/// A full deal: `kinds` kinds, four of each, shuffled by a fixed LCG from `seed`.
fn deal(rows: usize, cols: usize, seed: u64) -> Board {
    let kinds = (rows * cols / 4) as Kind;
    let mut cells: Vec<Kind> = (1..=kinds).flat_map(|k| [k; 4]).collect();
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    for i in (1..cells.len()).rev() {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let j = ((state >> 33) % (i as u64 + 1)) as usize;
        cells.swap(i, j);
    }
    Board::new(rows, cols, cells).unwrap()
}

/// What one simulated game produced.
struct Run {
    result: Result<Outcome, PlayError>,
    game: Rc<RefCell<SimGame>>,
    events: Vec<Event>,
}

/// Plays `game` with the honest sim reader (or `reader`), greedy choice and a fake clock.
fn run_with(
    game: SimGame,
    config: &Config,
    reader: &mut dyn BoardReader,
    stop: &AtomicBool,
) -> Run {
    run_policy(game, config, reader, &mut Greedy::default(), stop)
}

/// [`run_with`] with the pairs chosen by `policy`.
fn run_policy(
    game: SimGame,
    config: &Config,
    reader: &mut dyn BoardReader,
    policy: &mut dyn Policy,
    stop: &AtomicBool,
) -> Run {
    let (mut screen, mut pointer) = game.into_shared();
    let shared = screen.game();
    let mut clock = FakeClock::default();
    let mut events = Vec::new();
    let mut observer = |e: &Event| events.push(e.clone());
    let result = play(
        Devices {
            screen: &mut screen,
            pointer: &mut pointer,
            reader,
            clock: &mut clock,
        },
        policy,
        config,
        &mut observer,
        stop,
    );
    Run {
        result,
        game: shared,
        events,
    }
}

fn run(game: SimGame, config: &Config) -> Run {
    let (rows, cols) = (game.board().rows(), game.board().cols());
    run_with(
        game,
        config,
        &mut SimReader::new(rows, cols),
        &AtomicBool::new(false),
    )
}

/// The loop's settings for a game with `selection`, cancelling as that game does (xshisen a
/// right click, kshisen a second click).
fn config(rules: Rules, selection: SelectionRule) -> Config {
    Config {
        rules,
        selection,
        cancel: match selection {
            SelectionRule::KeepFirst => Cancel::RightClick,
            SelectionRule::DropOnMismatch => Cancel::ClickAgain,
        },
        ..Config::default()
    }
}

fn sim(board: Board, rules: Rules, selection: SelectionRule) -> SimGame {
    SimGame::new(board, rules, selection).unwrap()
}

/// Every click the game received landed on its board.
fn assert_no_stray(game: &Rc<RefCell<SimGame>>) {
    let game = game.borrow();
    assert!(
        game.stray_clicks().is_empty(),
        "stray clicks: {:?}",
        game.stray_clicks()
    );
}

#[test]
fn plays_dealt_boards_exactly_as_the_greedy_plan_with_border_and_gravity() {
    let mut cleared = 0;
    for (border, gravity) in [(true, false), (false, false), (true, true)] {
        let rules = Rules {
            border,
            gravity,
            ..Rules::default()
        };
        for seed in 0..4 {
            let board = deal(6, 8, seed);
            let plan = greedy_plan(&board, rules);
            let run = run(
                sim(board, rules, SelectionRule::KeepFirst),
                &config(rules, SelectionRule::KeepFirst),
            );
            let outcome = run.result.as_ref().unwrap();
            let expected = if plan.is_cleared() {
                cleared += 1;
                End::Cleared
            } else {
                End::Stuck { tiles: plan.left }
            };
            assert_eq!(
                outcome.end, expected,
                "border {border}, gravity {gravity}, seed {seed}"
            );
            assert_eq!(outcome.moves, plan.moves.len());
            assert_eq!(run.game.borrow().board().tiles(), plan.left);
            // Stuck, the loop asks whether look-alike kinds match: those are the only refusals.
            let look_alikes = run
                .events
                .iter()
                .filter(|e| matches!(e, Event::LookAlike { .. }))
                .count();
            if plan.is_cleared() {
                assert_eq!(look_alikes, 0);
            }
            assert_eq!(outcome.refused, look_alikes);
            assert_eq!(run.game.borrow().refused(), look_alikes);
            assert_no_stray(&run.game);
        }
    }
    assert!(
        cleared >= 4,
        "only {cleared} of the dealt boards were cleared"
    );
}

#[test]
fn clears_a_full_xshisen_size_board_with_gravity() {
    let rules = Rules {
        gravity: true,
        ..Rules::shisen_sho()
    };
    let (seed, board) = (0..20)
        .map(|s| (s, deal(8, 18, s)))
        .find(|(_, b)| greedy_plan(b, rules).is_cleared())
        .expect("some full deal is cleared by the greedy plan");
    let run = run(
        sim(board, rules, SelectionRule::KeepFirst)
            .with_linger(3)
            .with_win_dialog(),
        &config(rules, SelectionRule::KeepFirst),
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Cleared, "seed {seed}");
    assert_eq!(outcome.moves, 72);
    assert!(outcome.to_string().starts_with("cleared in "), "{outcome}");
    assert_no_stray(&run.game);
    let medians = outcome.timings.medians();
    assert!(medians.capture.is_some() && medians.read.is_some() && medians.click.is_some());
}

#[test]
fn waits_out_the_connecting_line_under_both_selection_rules() {
    let rules = Rules::shisen_sho();
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let board = (0..20)
            .map(|s| deal(4, 6, s))
            .find(|b| greedy_plan(b, rules).is_cleared())
            .unwrap();
        let run = run(
            sim(board, rules, selection).with_linger(4),
            &config(rules, selection),
        );
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared);
        assert_eq!(
            outcome.refused, 0,
            "{selection:?}: a lingering pair is not a refusal"
        );
        assert_no_stray(&run.game);
    }
}

/// Reports `1 1 2 2` for the true `1 2 2 1` on its first two reads (the loop's first read only
/// learns where the board is; the second chooses the first pair), then reads honestly.
struct Misread {
    inner: SimReader,
    misreads: usize,
}

impl BoardReader for Misread {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.inner.read(frame)?;
        if self.misreads > 0 {
            self.misreads -= 1;
            reading.board = Board::from_rows(&[[1, 1, 2, 2]]);
        }
        Ok(reading)
    }
}

#[test]
fn a_refused_pair_is_counted_and_its_selection_cleared() {
    let rules = Rules::default();
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let board = Board::from_rows(&[[1, 2, 2, 1]]);
        let mut reader = Misread {
            inner: SimReader::new(1, 4),
            misreads: 2,
        };
        let run = run_with(
            sim(board, rules, selection),
            &config(rules, selection),
            &mut reader,
            &AtomicBool::new(false),
        );
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{selection:?}");
        assert_eq!((outcome.moves, outcome.refused), (2, 1), "{selection:?}");
        assert_eq!(run.game.borrow().refused(), 1);
        let deselects = run
            .events
            .iter()
            .filter(|e| matches!(e, Event::Deselect { .. }))
            .count();
        let expected = usize::from(selection == SelectionRule::KeepFirst);
        assert_eq!(deselects, expected, "{selection:?}: {:?}", run.events);
        assert_no_stray(&run.game);
    }
}

/// Reads kind 2 as kind 1 always, as vision may with few tiles left of two look-alike kinds.
struct MergingKinds(SimReader);

impl BoardReader for MergingKinds {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.0.read(frame)?;
        let cells: Vec<Pos> = reading.board.tile_positions().collect();
        for cell in cells {
            if reading.board.get(cell) == 2 {
                reading.board.set(cell, 1);
            }
        }
        Ok(reading)
    }
}

#[test]
fn a_pair_the_game_refused_is_not_clicked_again_on_the_same_board() {
    // The game's 1 2 2 1 read as 1 1 1 1 on every frame: the loop must try the other pairs
    // instead of the refused one until it stops.
    let rules = Rules::default();
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let board = Board::from_rows(&[[1, 2, 2, 1]]);
        let run = run_with(
            sim(board, rules, selection),
            &config(rules, selection),
            &mut MergingKinds(SimReader::new(1, 4)),
            &AtomicBool::new(false),
        );
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{selection:?}: {:?}", run.events);
        assert_eq!(outcome.moves, 2);
        let refused: Vec<(Pos, Pos)> = run
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Refused { a, b, .. } => Some((*a, *b)),
                _ => None,
            })
            .collect();
        assert!(
            !refused.is_empty(),
            "{selection:?}: the misread was never tried"
        );
        let mut unique = refused.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), refused.len(), "{selection:?}: {refused:?}");
        assert_no_stray(&run.game);
    }
}

#[test]
fn a_selection_left_before_the_start_is_cleared_first() {
    let rules = Rules::shisen_sho();
    let board = Board::from_rows(&[[1, 2, 2, 1]]);
    let mut game = sim(board, rules, SelectionRule::KeepFirst);
    let [x, y] = game.geometry().cell_center(Pos::new(0, 1));
    let (sx, sy) = game.window().to_screen(x, y);
    game.click(sx, sy, linkup::input::Button::Left);
    let run = run(game, &config(rules, SelectionRule::KeepFirst));
    assert_eq!(run.result.unwrap().end, End::Cleared);
    assert!(
        matches!(run.events[1], Event::Deselect { .. }),
        "{:?}",
        run.events
    );
}

#[test]
fn a_leftover_selection_is_cancelled_the_way_the_game_answers() {
    let rules = Rules::shisen_sho();
    // The first cancel sent is the configured one; when the game ignores it, the loop tries
    // the other way, sees it work and keeps it (issue 12: learn how a selection is cancelled).
    for (selection, cancel, works) in [
        (
            SelectionRule::KeepFirst,
            Cancel::RightClick,
            Cancel::RightClick,
        ),
        (
            SelectionRule::DropOnMismatch,
            Cancel::ClickAgain,
            Cancel::ClickAgain,
        ),
        (
            SelectionRule::KeepFirst,
            Cancel::ClickAgain,
            Cancel::RightClick,
        ),
        (
            SelectionRule::DropOnMismatch,
            Cancel::RightClick,
            Cancel::ClickAgain,
        ),
    ] {
        let mut game = sim(Board::from_rows(&[[1, 2, 2, 1]]), rules, selection);
        let [x, y] = game.geometry().cell_center(Pos::new(0, 1));
        let (sx, sy) = game.window().to_screen(x, y);
        game.click(sx, sy, Button::Left);
        let config = Config {
            cancel,
            ..config(rules, selection)
        };
        let run = run(game, &config);
        let case = format!("{selection:?} {cancel:?}");
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{case}");
        assert_eq!(outcome.learned.cancel, Some(works), "{case}");
        let button = |c: Cancel| match c {
            Cancel::RightClick => Button::Right,
            Cancel::ClickAgain => Button::Left,
        };
        let deselects: Vec<Button> = run
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Deselect { click } => Some(click.button),
                _ => None,
            })
            .collect();
        let expected = if cancel == works {
            vec![button(cancel)]
        } else {
            vec![button(cancel), button(works)]
        };
        assert_eq!(deselects, expected, "{case}: {:?}", run.events);
        assert!(
            run.events.contains(&Event::LearnedCancel { cancel: works }),
            "{case}: {:?}",
            run.events
        );
        assert_no_stray(&run.game);
    }
}

#[test]
fn follows_the_window_when_it_moves() {
    let rules = Rules::shisen_sho();
    let board = (0..20)
        .map(|s| deal(4, 6, s))
        .find(|b| greedy_plan(b, rules).is_cleared())
        .unwrap();
    let mut game = sim(board, rules, SelectionRule::KeepFirst).with_window_at(0, 0);
    game.schedule(2, SimEvent::MoveWindow(300, 200));
    let run = run(game, &config(rules, SelectionRule::KeepFirst));
    assert_eq!(run.result.unwrap().end, End::Cleared);
    assert_no_stray(&run.game);
    assert!(
        run.game
            .borrow()
            .clicks()
            .iter()
            .any(|c| c.x >= 300 && c.y >= 200)
    );
}

#[test]
fn stops_at_once_when_a_person_moves_the_pointer() {
    let rules = Rules::shisen_sho();
    let mut game = sim(deal(8, 18, 1), rules, SelectionRule::KeepFirst);
    game.schedule(5, SimEvent::MovePointer(3, 4));
    let run = run(game, &config(rules, SelectionRule::KeepFirst));
    let err = run.result.unwrap_err();
    assert!(
        matches!(
            err,
            PlayError::PointerMoved {
                found_x: 3,
                found_y: 4,
                ..
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("someone moved the mouse"), "{err}");
    let game = run.game.borrow();
    assert_eq!(game.removals(), 5);
    assert_eq!(
        game.clicks().len(),
        10,
        "no click after the pointer was taken"
    );
}

#[test]
fn stops_with_a_clear_message_when_the_window_goes_or_is_covered() {
    let rules = Rules::shisen_sho();
    for (event, needle) in [
        (SimEvent::Close, "has gone"),
        (SimEvent::Cover, "covers the game window"),
    ] {
        let mut game = sim(deal(8, 18, 1), rules, SelectionRule::KeepFirst);
        game.schedule(3, event);
        let run = run(game, &config(rules, SelectionRule::KeepFirst));
        let err = run.result.unwrap_err();
        assert!(
            matches!(
                err,
                PlayError::Capture(CaptureError::WindowGone { .. } | CaptureError::Covered)
            ),
            "{err}"
        );
        let chain = format!("{:#}", anyhow::Error::from(err));
        assert!(chain.starts_with("stopped: "), "{chain}");
        assert!(chain.contains(needle), "{chain}");
        assert_eq!(chain.matches(needle).count(), 1, "{chain}");
        assert_eq!(run.game.borrow().clicks().len(), 6);
    }
}

/// An honest board with a geometry pushed off the window to the right.
struct OffWindow(SimReader);

impl BoardReader for OffWindow {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.0.read(frame)?;
        reading.geometry.origin[0] += 1000.0;
        Ok(reading)
    }
}

#[test]
fn never_sends_a_click_outside_the_window() {
    let rules = Rules::shisen_sho();
    let mut reader = OffWindow(SimReader::new(8, 18));
    let run = run_with(
        sim(deal(8, 18, 1), rules, SelectionRule::KeepFirst),
        &config(rules, SelectionRule::KeepFirst),
        &mut reader,
        &AtomicBool::new(false),
    );
    let err = run.result.unwrap_err();
    assert!(matches!(err, PlayError::OutsideBoard { .. }), "{err}");
    assert!(err.to_string().starts_with("refusing to click at"), "{err}");
    assert!(run.game.borrow().clicks().is_empty());
}

#[test]
fn the_stop_flag_ends_the_game_cleanly_and_max_moves_is_kept() {
    let rules = Rules::shisen_sho();
    let stop = AtomicBool::new(false);
    let (mut screen, mut pointer) =
        sim(deal(8, 18, 1), rules, SelectionRule::KeepFirst).into_shared();
    let game = screen.game();
    let mut observer = |e: &Event| {
        if matches!(e, Event::Removed { moves: 3, .. }) {
            stop.store(true, Ordering::Relaxed);
        }
    };
    let outcome = play(
        Devices {
            screen: &mut screen,
            pointer: &mut pointer,
            reader: &mut SimReader::new(8, 18),
            clock: &mut FakeClock::default(),
        },
        &mut Greedy::default(),
        &config(rules, SelectionRule::KeepFirst),
        &mut observer,
        &stop,
    )
    .unwrap();
    assert_eq!((outcome.end, outcome.moves), (End::Interrupted, 3));
    assert_eq!(game.borrow().removals(), 3);

    let limited = Config {
        max_moves: Some(4),
        ..config(rules, SelectionRule::KeepFirst)
    };
    let run = run(
        sim(deal(8, 18, 1), rules, SelectionRule::KeepFirst),
        &limited,
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::MaxMoves { tiles: 144 - 8 });
    assert_eq!(run.game.borrow().removals(), 4);
}

#[test]
fn a_board_without_a_pair_is_stuck() {
    let rules = Rules::default();
    let board = Board::from_rows(&[[1, 2], [2, 1]]);
    let run = run(
        sim(board, rules, SelectionRule::KeepFirst),
        &config(rules, SelectionRule::KeepFirst),
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Stuck { tiles: 4 });
    assert!(
        outcome
            .to_string()
            .starts_with("stuck: 4 tiles left, no pair")
    );
    assert!(run.game.borrow().clicks().is_empty());
}

/// A game that missed both clicks of the last pair (a busy browser page) is not stuck: when every
/// pair that links was refused, each is tried once more, and the board is cleared.
#[test]
fn the_last_pair_refused_once_is_tried_again_before_the_game_counts_as_stuck() {
    let rules = Rules::default();
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        // 1 1 2 2: the 1s go first (clicks 0 and 1), the game misses the 2s' clicks (2 and 3).
        let board = Board::from_rows(&[[1, 1, 2, 2]]);
        let game = sim(board, rules, selection).with_dropped_clicks(&[2, 3]);
        let run = run(game, &config(rules, selection));
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{selection:?}: {:?}", run.events);
        assert_eq!((outcome.moves, outcome.refused), (2, 1), "{:?}", run.events);
        assert!(
            run.events.contains(&Event::RetryRefused { pairs: 1 }),
            "{:?}",
            run.events
        );
        assert_no_stray(&run.game);
    }
}

/// Reads the board as [`SimReader`] does, but the first `frames` frames with 2 tiles left show
/// `phantom` selected (a browser game's path line drawn along the tile's edge after a removal).
struct PhantomSelection {
    reader: SimReader,
    phantom: Pos,
    frames: usize,
}

impl BoardReader for PhantomSelection {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.reader.read(frame)?;
        if reading.board.tiles() == 2 && self.frames > 0 {
            self.frames -= 1;
            reading.selected = vec![self.phantom];
        }
        Ok(reading)
    }
}

/// A tile read selected right after a removal, that the loop never clicked, is the removal
/// still being drawn: the loop does not cancel it (a click there would select it) and clears
/// the board.
#[test]
fn a_tile_read_selected_after_a_removal_that_was_never_clicked_is_not_cancelled() {
    let rules = Rules::default();
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        // 1 1 2 2: after the 1s go, (0, 3) reads selected on two frames.
        let board = Board::from_rows(&[[1, 1, 2, 2]]);
        let mut reader = PhantomSelection {
            reader: SimReader::new(1, 4),
            phantom: Pos::new(0, 3),
            frames: 2,
        };
        let run = run_with(
            sim(board, rules, selection),
            &config(rules, selection),
            &mut reader,
            &AtomicBool::new(false),
        );
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{selection:?}: {:?}", run.events);
        assert_eq!(outcome.refused, 0, "{:?}", run.events);
        assert!(
            !run.events
                .iter()
                .any(|e| matches!(e, Event::Deselect { .. })),
            "{selection:?}: {:?}",
            run.events
        );
        assert_no_stray(&run.game);
    }
}

/// The clicks the old `--dry-run` printed: the planner's whole plan on the first reading, each
/// tile's centre in screen pixels.
fn plan_clicks(reading: &Reading, origin: [i32; 2], rules: Rules) -> Vec<Click> {
    let plan = linkup::planner::plan(&reading.board, rules, Budget::default()).plan;
    plan.moves
        .iter()
        .flat_map(|m| [m.a, m.b])
        .map(|cell| {
            let [x, y] = reading.geometry.cell_center(cell);
            Click {
                x: origin[0] + x.round() as i32,
                y: origin[1] + y.round() as i32,
                button: Button::Left,
            }
        })
        .collect()
}

#[test]
fn dry_run_is_the_loop_clicking_the_whole_plan_on_a_screenshot() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let profile = Profile::load(&root.join("calibration/xshisen.toml")).unwrap();
    let image =
        linkup::vision::load_image(&root.join("tests/fixtures/xshisen-fresh-8x18.png")).unwrap();
    let mut reader = profile.reader().unwrap();
    let reading = reader.read(&image).unwrap();
    let origin = [100, 50];
    let mut screen = ReplayScreen::new(vec![image], origin);
    let config = profile.config();
    let mut policy = Planned::new(Budget::default());
    let run = dry_run(&mut screen, &mut reader, &mut policy, &config).unwrap();
    assert_eq!(run.board, reading.board);
    assert_eq!(run.clicks, plan_clicks(&reading, origin, config.rules));
    assert_eq!(run.outcome.end, End::Cleared);
    assert_eq!(run.outcome.moves * 2, reading.board.tiles());
}

/// Reads any frame as a 1x4 board whose last column lies right of the window.
struct Overhanging;

impl BoardReader for Overhanging {
    fn read(&mut self, _frame: &RgbaImage) -> Result<Reading, ReadError> {
        let geometry = Geometry {
            rows: 1,
            cols: 4,
            origin: [0.0, 0.0],
            pitch: [10.0, 10.0],
            tile_size: [10.0, 10.0],
        };
        Ok(Reading::certain(
            "0 0 1 1".parse::<Board>().unwrap(),
            geometry,
        ))
    }
}

#[test]
fn dry_run_refuses_a_click_outside_the_window_as_play_does() {
    let frame = RgbaImage::from_pixel(35, 10, image::Rgba([0, 64, 0, 255]));
    let mut screen = ReplayScreen::new(vec![frame], [0, 0]);
    let err = dry_run(
        &mut screen,
        &mut Overhanging,
        &mut Greedy::default(),
        &Config::default(),
    )
    .unwrap_err();
    assert!(
        matches!(err, PlayError::OutsideBoard { x: 35, y: 5, .. }),
        "{err}"
    );
}

/// A reader that finds the board with vision from the first frame, as `play --window` does
/// with no profile.
fn live_reader() -> LiveReader<impl FnMut(&RgbaImage) -> Result<Reader, ReadError>, Reader> {
    LiveReader::new(|image: &RgbaImage| Ok(Reader::calibrated(image)?))
}

#[test]
fn issue12_plays_with_no_profile_finding_the_board_in_the_first_frame() {
    let rules = Rules::default();
    let board = deal(6, 8, 1);
    let plan = greedy_plan(&board, rules);
    let mut reader = live_reader();
    let run = run_with(
        sim(board, rules, SelectionRule::KeepFirst).with_linger(2),
        &Config::default(),
        &mut reader,
        &AtomicBool::new(false),
    );
    let outcome = run.result.unwrap();
    assert!(plan.is_cleared());
    assert_eq!(outcome.end, End::Cleared);
    assert_eq!((outcome.moves, outcome.refused), (24, 0));
    assert_eq!(reader.calibrations(), 1);
    assert_no_stray(&run.game);
}

#[test]
fn issue12_finds_the_board_again_when_a_new_deal_resizes_the_window_not_when_it_refills() {
    let rules = Rules::default();
    // Another board size (the window resizes), and a new deal of the same size (more tiles).
    for second in [deal(6, 8, 1), deal(4, 6, 5)] {
        let mut game = sim(deal(4, 6, 2), rules, SelectionRule::KeepFirst);
        let size = (second.rows(), second.cols());
        assert!(greedy_plan(&second, rules).is_cleared(), "{size:?}");
        game.redeal_after(3, second).unwrap();
        let mut reader = live_reader();
        let run = run_with(
            game,
            &Config::default(),
            &mut reader,
            &AtomicBool::new(false),
        );
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{size:?}");
        assert_eq!(run.game.borrow().board().tiles(), 0, "{size:?}");
        // The resized window's board is taken; a new deal on the same board keeps it.
        let boards = if size == (6, 8) { 2 } else { 1 };
        assert_eq!(reader.calibrations(), boards, "{size:?}");
        assert_no_stray(&run.game);
    }
}

#[test]
fn issue12_stops_with_a_clear_reason_when_the_board_cannot_be_found_again() {
    let rules = Rules::default();
    let mut game = sim(deal(4, 6, 2), rules, SelectionRule::KeepFirst);
    // The tiles vanish mid-game (no win, no dialog): nothing is left to find.
    game.redeal_after(2, Board::empty(4, 6)).unwrap();
    let mut reader = live_reader();
    let run = run_with(
        game,
        &Config::default(),
        &mut reader,
        &AtomicBool::new(false),
    );
    let err = anyhow::Error::from(run.result.unwrap_err());
    assert!(
        format!("{err:#}")
            .contains("cannot find the board again (the frame no longer reads at the board found)"),
        "{err:#}"
    );
    assert_no_stray(&run.game);
}

#[test]
fn issue12_learns_the_selection_rule_from_a_refused_pair_against_the_belief() {
    let rules = Rules::default();
    // Each game answers the opposite of what the loop starts out believing.
    for (game_rule, believed, believed_cancel) in [
        (
            SelectionRule::DropOnMismatch,
            SelectionRule::KeepFirst,
            Cancel::RightClick,
        ),
        (
            SelectionRule::KeepFirst,
            SelectionRule::DropOnMismatch,
            Cancel::ClickAgain,
        ),
    ] {
        let mut reader = Misread {
            inner: SimReader::new(1, 4),
            misreads: 2,
        };
        let config = Config {
            selection: believed,
            cancel: believed_cancel,
            ..Config::default()
        };
        let run = run_with(
            sim(Board::from_rows(&[[1, 2, 2, 1]]), rules, game_rule),
            &config,
            &mut reader,
            &AtomicBool::new(false),
        );
        let case = format!("{game_rule:?}");
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{case}");
        assert_eq!(outcome.refused, 1, "{case}");
        assert_eq!(outcome.learned.selection, Some(game_rule), "{case}");
        // A misread pair says nothing about the border.
        assert_eq!(outcome.learned.border, None, "{case}");
        assert!(
            run.events.contains(&Event::LearnedSelection {
                rule: game_rule,
                believed
            }),
            "{case}: {:?}",
            run.events
        );
        let deselects = run
            .events
            .iter()
            .filter(|e| matches!(e, Event::Deselect { .. }))
            .count();
        match game_rule {
            // Nothing stays selected: nothing to cancel.
            SelectionRule::DropOnMismatch => assert_eq!(deselects, 0, "{:?}", run.events),
            // The first tile stays; the believed click-again does not clear it in this game,
            // so the right click is tried and learned.
            SelectionRule::KeepFirst => {
                assert_eq!(deselects, 2, "{:?}", run.events);
                assert_eq!(outcome.learned.cancel, Some(Cancel::RightClick));
            }
        }
        assert_no_stray(&run.game);
    }
}

#[test]
fn issue12_learns_there_is_no_border_routing_from_a_refused_outside_pair() {
    let game_rules = Rules {
        border: false,
        ..Rules::default()
    };
    // The 1s link only round the top with border routing; without it, once the 2s are gone.
    let board = Board::from_rows(&[[1, 2, 2, 1], [3, 4, 4, 3]]);
    let mut reader = live_reader();
    let run = run_with(
        sim(board, game_rules, SelectionRule::KeepFirst),
        &Config::default(),
        &mut reader,
        &AtomicBool::new(false),
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Cleared, "{:?}", run.events);
    assert_eq!(outcome.refused, 1, "{:?}", run.events);
    assert_eq!(outcome.learned.border, Some(false));
    assert!(
        run.events
            .iter()
            .any(|e| matches!(e, Event::LearnedBorder { border: false, .. })),
        "{:?}",
        run.events
    );
    assert_eq!(run.game.borrow().refused(), 1);
    assert_no_stray(&run.game);
}

/// A border lesson taught by two kinds read as one (a refused pair that linked only round the
/// outside) is tested again when the loop is stuck without the border: the game routes round
/// it, and the board is cleared.
#[test]
fn a_border_lesson_from_kinds_read_as_one_is_tested_again_when_stuck() {
    let rules = Rules::default();
    // Read as 1 5 5 1 6 8 6 8 1 1: the first 1s link only over the top, and the game refuses
    // them (a 1 and a 2); the 6s and 8s link only over the top too.
    let board = Board::from_rows(&[[1, 5, 5, 2, 6, 8, 6, 8, 2, 1]]);
    let run = run_with(
        sim(board, rules, SelectionRule::KeepFirst),
        &config(rules, SelectionRule::KeepFirst),
        &mut MergingKinds(SimReader::new(1, 10)),
        &AtomicBool::new(false),
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Cleared, "{:?}", run.events);
    for lesson in [
        |e: &Event| matches!(e, Event::LearnedBorder { border: false, .. }),
        |e: &Event| matches!(e, Event::BorderRetried { .. }),
    ] {
        assert!(run.events.iter().any(lesson), "{:?}", run.events);
    }
    assert_no_stray(&run.game);
}

#[test]
fn issue12_a_game_with_border_routing_keeps_it() {
    let rules = Rules::default();
    let board = Board::from_rows(&[[1, 2, 2, 1], [3, 4, 4, 3]]);
    let run = run(
        sim(board, rules, SelectionRule::KeepFirst),
        &Config::default(),
    );
    let outcome = run.result.unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    assert_eq!(outcome.learned.border, None);
}

#[test]
fn issue12_learns_gravity_from_a_removal_against_the_belief() {
    // Each game answers the opposite of what the loop starts out believing.
    for game_gravity in [true, false] {
        let game_rules = Rules {
            gravity: game_gravity,
            ..Rules::default()
        };
        let board = (0..40)
            .map(|s| deal(6, 8, s))
            .find(|b| greedy_plan(b, game_rules).is_cleared())
            .unwrap();
        let believed = Config {
            rules: Rules {
                gravity: !game_gravity,
                ..Rules::default()
            },
            ..Config::default()
        };
        let (rows, cols) = (board.rows(), board.cols());
        let (mut screen, mut pointer) =
            sim(board, game_rules, SelectionRule::KeepFirst).into_shared();
        let game = screen.game();
        let mut events = Vec::new();
        let outcome = play(
            Devices {
                screen: &mut screen,
                pointer: &mut pointer,
                reader: &mut SimReader::new(rows, cols),
                clock: &mut FakeClock::default(),
            },
            &mut Planned::new(Budget::default()),
            &believed,
            &mut |e: &Event| events.push(e.clone()),
            &AtomicBool::new(false),
        )
        .unwrap();
        let case = format!("game gravity {game_gravity}");
        assert_eq!(outcome.end, End::Cleared, "{case}: {events:?}");
        assert_eq!(outcome.refused, 0, "{case}");
        assert_eq!(outcome.learned.gravity, Some(game_gravity), "{case}");
        let learned: Vec<&Event> = events
            .iter()
            .filter(|e| matches!(e, Event::LearnedGravity { .. }))
            .collect();
        assert_eq!(
            learned,
            [&Event::LearnedGravity {
                gravity: game_gravity,
                believed: !game_gravity
            }],
            "{case}"
        );
        assert_no_stray(&game);
    }
}

#[test]
fn issue12_measures_how_long_a_removal_takes_whatever_it_believed() {
    let rules = Rules::default();
    let board = (0..20)
        .map(|s| deal(6, 8, s))
        .find(|b| greedy_plan(b, rules).is_cleared())
        .unwrap();
    // The game shows a removed pair with its line for `shown` ms on its clock; the loop looks
    // every 30 ms (`still_interval`, `settle_poll`) and starts from a removal time far off.
    let mut measured = Vec::new();
    for (shown, believed) in [(100, 1000), (400, 0)] {
        let config = Config {
            removal: Duration::from_millis(believed),
            ..Config::default()
        };
        let game = sim(board.clone(), rules, SelectionRule::KeepFirst)
            .with_removal_time(Duration::from_millis(shown));
        let mut clock = game.clock();
        let (mut screen, mut pointer) = game.into_shared();
        let mut events = Vec::new();
        let outcome = play(
            Devices {
                screen: &mut screen,
                pointer: &mut pointer,
                reader: &mut SimReader::new(6, 8),
                clock: &mut clock,
            },
            &mut Greedy::default(),
            &config,
            &mut |e: &Event| events.push(e.clone()),
            &AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(outcome.end, End::Cleared, "shown {shown} ms");
        assert_eq!(outcome.refused, 0, "shown {shown} ms");
        let ms = outcome.learned.removal_ms.expect("a removal time");
        assert!(
            (shown..=shown + 30).contains(&ms),
            "shown {shown} ms, believed {believed} ms: measured {ms} ms"
        );
        assert!(
            events
                .iter()
                .any(|e| matches!(e, Event::LearnedTiming { .. })),
            "{events:?}"
        );
        measured.push(ms);
    }
    assert!(measured[0] < measured[1], "{measured:?}");
}

/// Reads as the sim reader does, with kinds numbered afresh in every frame (in order of first
/// appearance), as vision does with no templates.
struct Renumbering(SimReader);

impl BoardReader for Renumbering {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.0.read(frame)?;
        reading.board = reading.board.renumbered();
        Ok(reading)
    }
}

/// Of kinds `1..=kinds`, the two of one colour whose faces vision finds nearest: a game that
/// draws one kind two ways draws them alike.
fn look_alike_kinds(kinds: Kind) -> [Kind; 2] {
    let cells: Vec<Kind> = (1..=kinds).collect();
    let board = Board::new(1, cells.len(), cells.clone()).unwrap();
    let mut game = sim(board, Rules::default(), SelectionRule::KeepFirst);
    let faces = linkup::vision::tile_faces(
        &game.render(),
        &game.geometry(),
        &linkup::vision::ClassifierSettings::default(),
    );
    let by_kind: Vec<(Kind, linkup::vision::Face)> = cells.into_iter().zip(faces).collect();
    linkup::play::learning::look_alike_pairs(&by_kind)[0]
}

/// A 6x8 deal whose kinds `a` and `b` the game matches, one tile of `a` drawn as `b` (so both
/// counts are odd), that the greedy plan clears once they are one kind.
fn deal_with_look_alikes([a, b]: [Kind; 2]) -> Board {
    (0..100)
        .map(|seed| {
            let mut board = deal(6, 8, seed);
            let first_a = board.tile_positions().find(|&p| board.get(p) == a).unwrap();
            board.set(first_a, b);
            board
        })
        .find(|board| {
            let mut merged = board.clone();
            for p in board.tile_positions() {
                if board.get(p) == b {
                    merged.set(p, a);
                }
            }
            greedy_plan(&merged, Rules::default()).is_cleared()
        })
        .expect("a deal that clears with the two kinds as one")
}

#[test]
fn issue12_learns_look_alike_kinds_the_game_matches() {
    let rules = Rules::default();
    let alike = look_alike_kinds(12);
    let board = deal_with_look_alikes(alike);
    // Kinds as the first reading numbers them (the reader renumbers every frame).
    let first = board.renumbered();
    let first_id = |k: Kind| {
        let p = board.tile_positions().find(|&p| board.get(p) == k).unwrap();
        first.get(p)
    };
    let mut expected = vec![first_id(alike[0]), first_id(alike[1])];
    expected.sort_unstable();
    let game = sim(board, rules, SelectionRule::KeepFirst).with_match_groups(vec![alike.to_vec()]);
    let mut reader = Renumbering(SimReader::new(6, 8));
    let run = run_policy(
        game,
        &Config::default(),
        &mut reader,
        &mut Planned::new(Budget::default()),
        &AtomicBool::new(false),
    );
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Cleared, "{:?}", run.events);
    assert_eq!(outcome.learned.match_groups, vec![expected.clone()]);
    assert!(
        run.events
            .contains(&Event::LearnedMatch { group: expected }),
        "{:?}",
        run.events
    );
    assert!(
        outcome.refused <= 2 * Config::default().max_refused,
        "{outcome}"
    );
    assert!(
        outcome.learned.to_string().contains("match"),
        "{}",
        outcome.learned
    );
    assert_no_stray(&run.game);
}

#[test]
fn issue12_match_groups_given_are_one_kind_from_the_start() {
    let rules = Rules::default();
    let alike = look_alike_kinds(12);
    let board = deal_with_look_alikes(alike);
    let game = sim(board, rules, SelectionRule::KeepFirst).with_match_groups(vec![alike.to_vec()]);
    let config = Config {
        match_groups: vec![alike.to_vec()],
        ..Config::default()
    };
    let run = run(game, &config);
    let outcome = run.result.unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    assert!(
        !run.events
            .iter()
            .any(|e| matches!(e, Event::LookAlike { .. })),
        "{:?}",
        run.events
    );
}

#[test]
fn issue12_a_board_with_no_pair_is_shuffled_by_the_profiles_button_or_key() {
    let rules = Rules::default();
    let keys: linkup::input::Keys = "ctrl+s".parse().unwrap();
    // The button sits in the menu bar, outside the board: the one click allowed there.
    let button = [100, 16];
    for action in [
        linkup::play::ShuffleAction::Button([f64::from(button[0]), f64::from(button[1])]),
        linkup::play::ShuffleAction::Key(keys.clone()),
    ] {
        let board = Board::from_rows(&[[1, 2], [2, 1]]);
        let game = sim(board, rules, SelectionRule::KeepFirst)
            .with_shuffle_button(button)
            .with_shuffle_key(keys.clone());
        let config = Config {
            shuffle: Some(action.clone()),
            ..Config::default()
        };
        let run = run(game, &config);
        let outcome = run.result.unwrap();
        assert_eq!(outcome.end, End::Cleared, "{action:?}: {:?}", run.events);
        assert_eq!((outcome.shuffles, outcome.moves), (1, 2), "{action:?}");
        assert_eq!(run.game.borrow().shuffles(), 1);
        let shuffle = run
            .events
            .iter()
            .find(|e| matches!(e, Event::Shuffle { .. }))
            .unwrap();
        let json = serde_json::to_string(shuffle).unwrap();
        match action {
            linkup::play::ShuffleAction::Button(_) => {
                assert!(json.contains(r#""click":"#), "{json}")
            }
            linkup::play::ShuffleAction::Key(_) => {
                assert_eq!(json, r#"{"event":"shuffle","keys":"ctrl+s"}"#)
            }
        }
        assert_no_stray(&run.game);
    }
}

#[test]
fn issue12_a_board_with_no_pair_and_no_shuffle_stops_saying_why() {
    let rules = Rules::default();
    let board = Board::from_rows(&[[1, 2], [2, 1]]);
    let game =
        sim(board, rules, SelectionRule::KeepFirst).with_shuffle_key("ctrl+s".parse().unwrap());
    let run = run(game, &Config::default());
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Stuck { tiles: 4 });
    assert_eq!(run.game.borrow().shuffles(), 0);
    assert!(
        outcome
            .to_string()
            .starts_with("stuck: 4 tiles left, no pair and no shuffle action (give the profile [shuffle] button = [x, y] or key = \"...\")"),
        "{outcome}"
    );
}

#[test]
fn issue12_what_a_game_taught_is_saved_and_the_next_run_starts_informed() {
    // A game with gravity and look-alike kinds, played by a loop that believes neither.
    let game_rules = Rules {
        gravity: true,
        ..Rules::default()
    };
    let alike = look_alike_kinds(12);
    let board = deal_with_look_alikes(alike);
    let mut game =
        sim(board, game_rules, SelectionRule::KeepFirst).with_match_groups(vec![alike.to_vec()]);
    let mut reader = Renumbering(SimReader::new(6, 8));
    let first_frame = game.render();
    let first = reader.read(&first_frame).unwrap();
    let run = run_policy(
        game,
        &Config::default(),
        &mut reader,
        &mut Planned::new(Budget::default()),
        &AtomicBool::new(false),
    );
    let learned = run.result.unwrap().learned;
    assert_eq!(learned.gravity, Some(true));
    assert_eq!(learned.match_groups.len(), 1, "{:?}", run.events);
    let removal_ms = learned.removal_ms.expect("removals timed");

    let window = linkup::profile::Window {
        title: Some("Simulated".to_string()),
        app_name: None,
        size: Some([first_frame.width(), first_frame.height()]),
    };
    let profile = Profile::new(window, first.geometry).with_learned(&learned);
    let templates =
        linkup::vision::Templates::from_reading(&first_frame, &first.geometry, &first.board);
    let folder = tempfile::tempdir().unwrap();
    let catalogue = linkup::catalogue::Catalogue {
        working: folder.path().join("calibration"),
        config: Some(folder.path().join("config")),
    };
    let path = catalogue
        .save("learnt", &profile, Some(&templates), false)
        .unwrap();
    assert_eq!(path, folder.path().join("config/learnt.toml"));
    let again = catalogue
        .save("learnt", &profile, Some(&templates), false)
        .unwrap_err();
    assert_eq!(
        again.to_string(),
        format!("{} exists; give --force to overwrite it", path.display())
    );
    catalogue
        .save("learnt", &profile, Some(&templates), true)
        .unwrap();

    let found = catalogue.find("learnt").unwrap();
    assert_eq!(found.source, linkup::catalogue::Source::Config(path));
    let loaded = found.profile().unwrap();
    let config = loaded.config();
    assert!(config.rules.gravity);
    assert_eq!(config.match_groups, learned.match_groups);
    assert_eq!(config.removal, Duration::from_millis(removal_ms));
    // One template per kind of the first reading, named by its id (the ids the match groups
    // are in), beside the profile.
    let dir = loaded.templates.clone().unwrap();
    assert_eq!(dir, folder.path().join("config/templates/learnt"));
    let saved = linkup::vision::Templates::load(&dir).unwrap();
    let mut kinds: Vec<Kind> = first.board.cells().to_vec();
    kinds.retain(|&k| k != 0);
    kinds.sort_unstable();
    kinds.dedup();
    assert_eq!(saved.kinds(), kinds);
}

/// Reads as the sim reader does, and once `below` tiles or fewer are left, also reads a pair of
/// tiles of kind 36 in two side-by-side cells that held tiles in the first frame and are empty
/// now (wallpaper under emptied cells read as tiles, as vision did on kshisen's 12x24 board).
struct Phantoms {
    inner: SimReader,
    below: usize,
    first: Option<Board>,
    cells: Option<[Pos; 2]>,
}

impl Phantoms {
    fn new(inner: SimReader, below: usize) -> Self {
        Phantoms {
            inner,
            below,
            first: None,
            cells: None,
        }
    }

    /// Two side-by-side cells emptied since the first frame, if there are any.
    fn emptied_pair(&self, board: &Board) -> Option<[Pos; 2]> {
        let first = self.first.as_ref()?;
        let emptied = |p: Pos| first.get(p) != 0 && board.get(p) == 0;
        (0..board.rows() as i32)
            .flat_map(|r| (1..board.cols() as i32).map(move |c| Pos::new(r, c)))
            .map(|p| [Pos::new(p.row, p.col - 1), p])
            .find(|&[a, b]| emptied(a) && emptied(b))
    }
}

impl BoardReader for Phantoms {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.inner.read(frame)?;
        let board = &mut reading.board;
        if self.first.is_none() {
            self.first = Some(board.clone());
        }
        if self.cells.is_none() && board.tiles() <= self.below {
            self.cells = self.emptied_pair(board);
        }
        for cell in self.cells.into_iter().flatten() {
            if board.get(cell) == 0 {
                board.set(cell, 36);
            }
        }
        Ok(reading)
    }
}

#[test]
fn issue12_tiles_read_late_in_cells_seen_emptied_stay_empty() {
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let mut reader = Phantoms::new(SimReader::new(6, 8), 10);
        let run = assert_clears_deal_one(selection, &mut reader);
        let phantoms = reader.cells.expect("the reader put a phantom pair");
        let reported: Vec<&Event> = run
            .events
            .iter()
            .filter(|e| matches!(e, Event::EmptiedReadAsTiles { .. }))
            .collect();
        assert_eq!(
            reported,
            [&Event::EmptiedReadAsTiles {
                cells: phantoms.to_vec()
            }],
            "{selection:?}"
        );
    }
}

/// Plays the 6x8 deal of seed 1 (the game lingers two frames on a removal) through `reader`
/// under `selection`, and asserts it was cleared in 24 moves with nothing refused and no
/// stray click.
fn assert_clears_deal_one(selection: SelectionRule, reader: &mut dyn BoardReader) -> Run {
    let rules = Rules::default();
    let run = run_with(
        sim(deal(6, 8, 1), rules, selection).with_linger(2),
        &config(rules, selection),
        reader,
        &AtomicBool::new(false),
    );
    let outcome = run.result.as_ref().unwrap();
    assert_eq!(outcome.end, End::Cleared, "{selection:?}: {:?}", run.events);
    assert_eq!((outcome.moves, outcome.refused), (24, 0), "{selection:?}");
    assert_eq!(run.game.borrow().board().tiles(), 0);
    assert_no_stray(&run.game);
    run
}

#[test]
fn issue12_a_new_deal_late_in_the_game_is_read_in_full() {
    let rules = Rules::default();
    let second = deal(6, 8, 5);
    assert!(greedy_plan(&second, rules).is_cleared());
    let mut game = sim(deal(6, 8, 1), rules, SelectionRule::KeepFirst).with_linger(2);
    // 40 cells seen emptied, then every cell dealt anew at the same size.
    game.redeal_after(20, second).unwrap();
    let run = run(game, &Config::default());
    let outcome = run.result.unwrap();
    assert_eq!(outcome.end, End::Cleared);
    assert_eq!(outcome.refused, 0);
    // The game's own count: the loop does not see the removals a new deal cuts short.
    assert_eq!(run.game.borrow().removals(), 44);
    assert_eq!(run.game.borrow().board().tiles(), 0);
    assert!(
        !run.events
            .iter()
            .any(|e| matches!(e, Event::EmptiedReadAsTiles { .. })),
        "{:?}",
        run.events
    );
    assert_no_stray(&run.game);
}

/// Reads as the sim reader does, and once `below` tiles or fewer are left, goes on reading one
/// cell of the next pair removed as the tile it held, from the first frame that shows the pair
/// gone (the background under it read as a tile, as vision did on kshisen's 12x24 board).
struct HalfPhantom {
    inner: SimReader,
    below: usize,
    last: Option<Board>,
    cell: Option<(Pos, Kind)>,
}

impl BoardReader for HalfPhantom {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.inner.read(frame)?;
        let board = &mut reading.board;
        if let (None, Some(last)) = (self.cell, &self.last) {
            if board.tiles() <= self.below {
                self.cell = last
                    .tile_positions()
                    .find(|&p| board.get(p) == 0)
                    .map(|p| (p, last.get(p)));
            }
        }
        self.last = Some(board.clone());
        if let Some((cell, kind)) = self.cell {
            if board.get(cell) == 0 {
                board.set(cell, kind);
            }
        }
        Ok(reading)
    }
}

#[test]
fn issue12_a_pair_read_half_gone_is_removed_and_its_misread_cell_kept_empty() {
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let mut reader = HalfPhantom {
            inner: SimReader::new(6, 8),
            below: 12,
            last: None,
            cell: None,
        };
        assert_clears_deal_one(selection, &mut reader);
        assert!(reader.cell.is_some(), "the reader put a phantom tile");
    }
}

/// Reads as the sim reader does, and once `below` tiles or fewer are left, goes on reading as
/// tiles (of kinds that pair with nothing) one cell emptied early in the game and both cells of
/// the next pair removed, from the first frame that shows that pair gone: a burst of the
/// background read as tiles that takes in the pair just removed, as vision did on kshisen's
/// 12x24 board, where the loop took such a pair for refused and ended "stuck" on a cleared board.
struct BurstPhantoms {
    inner: SimReader,
    below: usize,
    first: Option<Board>,
    last: Option<Board>,
    cells: Vec<(Pos, Kind)>,
}

impl BoardReader for BurstPhantoms {
    fn read(&mut self, frame: &RgbaImage) -> Result<Reading, ReadError> {
        let mut reading = self.inner.read(frame)?;
        let board = &mut reading.board;
        let first = self.first.get_or_insert_with(|| board.clone());
        if let Some(last) = self.last.as_ref().filter(|_| self.cells.is_empty())
            && board.tiles() <= self.below
        {
            let gone: Vec<Pos> = last
                .tile_positions()
                .filter(|&p| board.get(p) == 0)
                .collect();
            let early = first
                .tile_positions()
                .find(|&p| last.get(p) == 0 && board.get(p) == 0);
            if let ([a, b], Some(early)) = (gone.as_slice(), early) {
                self.cells = vec![(early, 36), (*a, 37), (*b, 38)];
            }
        }
        self.last = Some(board.clone());
        for &(cell, kind) in &self.cells {
            if board.get(cell) == 0 {
                board.set(cell, kind);
            }
        }
        Ok(reading)
    }
}

#[test]
fn a_pair_read_still_there_in_a_burst_of_misread_background_is_removed() {
    for selection in [SelectionRule::KeepFirst, SelectionRule::DropOnMismatch] {
        let mut reader = BurstPhantoms {
            inner: SimReader::new(6, 8),
            below: 12,
            first: None,
            last: None,
            cells: Vec::new(),
        };
        let run = assert_clears_deal_one(selection, &mut reader);
        assert_eq!(reader.cells.len(), 3, "the reader put its phantoms");
        let misread: Vec<&Event> = run
            .events
            .iter()
            .filter(|e| matches!(e, Event::EmptiedReadAsTiles { .. }))
            .collect();
        assert!(!misread.is_empty(), "{selection:?}: {:?}", run.events);
    }
}

#[test]
fn a_game_slow_to_take_the_second_click_is_waited_for_not_taken_as_refusing() {
    let rules = Rules::default();
    let game = sim(deal(6, 8, 1), rules, SelectionRule::KeepFirst).with_second_click_late(6);
    // The rule the game follows is believed but not yet seen: the first tile shown selected
    // alone is not a refusal until the settle time is up.
    let run = run(game, &config(rules, SelectionRule::KeepFirst));
    let outcome = run.result.as_ref().unwrap();
    assert_eq!(outcome.end, End::Cleared, "{:?}", run.events);
    assert_eq!((outcome.refused, run.game.borrow().refused()), (0, 0));
    assert_eq!(outcome.moves, 24);
    assert_no_stray(&run.game);
}
