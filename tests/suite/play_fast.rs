//! The play loop's fast path (issue 12) against the simulated game: while the board reads as
//! each move predicts, the next pair is clicked without a careful look (a wait for a still
//! board); any surprise gets a careful look before the next click. The simulated game takes
//! clicks while a removed pair is still on show (as xshisen does), so the loop learns that and
//! clicks planned pairs ahead.
//!
//! A careful look is seen on a shared fake clock: two captures in a row [`Config::still_interval`]
//! apart, where the fast path captures [`Config::fast_poll`] apart.

use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use linkup::board::Board;
use linkup::capture::{CaptureError, Frame, Screen};
use linkup::deal::{Fill, deal};
use linkup::input::{Button, InputError, Pointer, SelectionRule};
use linkup::play::{Clock, Config, Devices, End, Event, Greedy, Outcome, PlayError, play};
use linkup::profile::{Profile, Window};
use linkup::sim::{SimGame, SimPointer, SimReader, SimScreen};
use linkup::solver::{Rules, greedy_plan};

/// A fake clock whose time the screen and pointer below can read.
struct SharedClock(Rc<Cell<Duration>>);

impl Clock for SharedClock {
    fn now(&self) -> Duration {
        self.0.get()
    }

    fn sleep(&mut self, d: Duration) {
        self.0.set(self.0.get() + d);
    }
}

/// A capture and when, or a click and how many pairs the game had removed before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Capture(Duration),
    Click(Button, usize),
}

struct LoggedScreen {
    inner: SimScreen,
    time: Rc<Cell<Duration>>,
    log: Rc<RefCell<Vec<Step>>>,
}

impl Screen for LoggedScreen {
    fn capture(&mut self) -> Result<Frame, CaptureError> {
        self.log.borrow_mut().push(Step::Capture(self.time.get()));
        self.inner.capture()
    }
}

struct LoggedPointer {
    inner: SimPointer,
    game: Rc<RefCell<SimGame>>,
    log: Rc<RefCell<Vec<Step>>>,
}

impl Pointer for LoggedPointer {
    fn click(&mut self, x: i32, y: i32, button: Button) -> Result<(), InputError> {
        let removals = self.game.borrow().removals();
        self.log.borrow_mut().push(Step::Click(button, removals));
        self.inner.click(x, y, button)
    }

    fn position(&mut self) -> Result<(i32, i32), InputError> {
        self.inner.position()
    }
}

/// What one game produced.
struct Run {
    result: Result<Outcome, PlayError>,
    game: Rc<RefCell<SimGame>>,
    events: Vec<Event>,
    log: Vec<Step>,
}

impl Run {
    /// For each stretch of captures between two clicks (or before the first), whether it holds
    /// a careful look: two captures in a row `still` apart.
    fn careful_between_clicks(&self, still: Duration) -> Vec<bool> {
        let mut stretches = Vec::new();
        let mut careful = false;
        let mut previous: Option<Duration> = None;
        let mut captured = false;
        for step in &self.log {
            match *step {
                Step::Capture(t) => {
                    careful |= previous.is_some_and(|p| t.saturating_sub(p) >= still);
                    previous = Some(t);
                    captured = true;
                }
                Step::Click(..) => {
                    if captured {
                        stretches.push(careful);
                    }
                    careful = false;
                    previous = None;
                    captured = false;
                }
            }
        }
        stretches
    }

    /// Whether the first click after the game's `removals`-th removal came after a careful look.
    fn careful_before_first_click_after(&self, removals: usize, still: Duration) -> bool {
        let mut careful = false;
        let mut previous: Option<Duration> = None;
        for step in &self.log {
            match *step {
                Step::Capture(t) => {
                    careful |= previous.is_some_and(|p| t.saturating_sub(p) >= still);
                    previous = Some(t);
                }
                Step::Click(_, before) if before >= removals => return careful,
                Step::Click(..) => {
                    careful = false;
                    previous = None;
                }
            }
        }
        panic!("no click after removal {removals}: {:?}", self.log)
    }
}

fn run(game: SimGame, config: &Config) -> Run {
    let (rows, cols) = (game.board().rows(), game.board().cols());
    let (screen, pointer) = game.into_shared();
    let shared = screen.game();
    let time = Rc::new(Cell::new(Duration::ZERO));
    let log = Rc::new(RefCell::new(Vec::new()));
    let mut screen = LoggedScreen {
        inner: screen,
        time: Rc::clone(&time),
        log: Rc::clone(&log),
    };
    let mut pointer = LoggedPointer {
        inner: pointer,
        game: Rc::clone(&shared),
        log: Rc::clone(&log),
    };
    let mut clock = SharedClock(time);
    let mut events = Vec::new();
    let mut observer = |e: &Event| events.push(e.clone());
    let result = play(
        Devices {
            screen: &mut screen,
            pointer: &mut pointer,
            reader: &mut SimReader::new(rows, cols),
            clock: &mut clock,
        },
        &mut Greedy::default(),
        config,
        &mut observer,
        &AtomicBool::new(false),
    );
    let log = log.borrow().clone();
    Run {
        result,
        game: shared,
        events,
        log,
    }
}

/// A full deal (four of each kind, as kshisen fills) greedy play clears, from seed `from` on.
fn clearable_deal(rows: usize, cols: usize, from: u64) -> Board {
    (from..from + 50)
        .map(|s| deal(rows, cols, Fill::Kshisen, s))
        .find(|b| greedy_plan(b, Rules::default()).is_cleared())
        .unwrap()
}

/// How many pairs `events` clicked.
fn pairs_clicked(events: &[Event]) -> usize {
    events
        .iter()
        .filter(|e| matches!(e, Event::Pair { .. }))
        .count()
}

#[test]
fn moves_on_a_board_read_as_predicted_are_clicked_without_a_careful_look() {
    let board = clearable_deal(6, 8, 0);
    let config = Config::default();
    let fast = run(
        SimGame::new(board.clone(), Rules::default(), SelectionRule::KeepFirst)
            .unwrap()
            .with_linger(2),
        &config,
    );
    let outcome = fast.result.as_ref().unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    let careful = fast.careful_between_clicks(config.still_interval);
    let looks = careful.iter().filter(|&&c| c).count();
    // The first move, the cancel of the probe and one look in every `verify_every` are
    // careful; the rest not.
    assert!(
        (1..=outcome.moves.div_ceil(config.verify_every) + 2).contains(&looks),
        "{looks} careful looks in {} moves: {careful:?}",
        outcome.moves
    );

    let every_move = Config {
        verify_every: 1,
        ..Config::default()
    };
    let slow = run(
        SimGame::new(board, Rules::default(), SelectionRule::KeepFirst)
            .unwrap()
            .with_linger(2),
        &every_move,
    );
    let slow_outcome = slow.result.as_ref().unwrap();
    assert_eq!(slow_outcome.end, End::Cleared);
    assert_eq!(slow_outcome.moves, outcome.moves);
    assert!(
        slow.careful_between_clicks(every_move.still_interval)
            .iter()
            .all(|&c| c),
        "verify_every 1 looks carefully before every pair"
    );
    assert!(slow_outcome.elapsed > outcome.elapsed);
}

#[test]
fn a_new_deal_on_the_fast_path_gets_a_careful_look_before_the_next_click() {
    let first = clearable_deal(6, 8, 0);
    let second = clearable_deal(6, 8, 100);
    let mut game = SimGame::new(first, Rules::default(), SelectionRule::KeepFirst)
        .unwrap()
        .with_linger(2);
    game.redeal_after(3, second).unwrap();
    let config = Config::default();
    let run = run(game, &config);
    let outcome = run.result.as_ref().unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    // The new deal comes with the third removal: the next click waits for a careful look.
    assert!(
        run.careful_before_first_click_after(3, config.still_interval),
        "{:?}",
        run.log
    );
    assert!(run.game.borrow().stray_clicks().is_empty());
}

#[test]
fn a_refused_pair_on_the_fast_path_gets_a_careful_look_before_the_next_click() {
    // The 1s link only round the top, and this game has no border routing: the first pair is
    // refused with its first tile left selected.
    let rules = Rules {
        border: false,
        ..Rules::default()
    };
    let board = Board::from_rows(&[[5, 6, 6, 5, 7, 7], [1, 2, 2, 1, 3, 3], [8, 9, 9, 8, 4, 4]]);
    let config = Config::default();
    let run = run(
        SimGame::new(board, rules, SelectionRule::KeepFirst)
            .unwrap()
            .with_linger(2),
        &config,
    );
    let outcome = run.result.as_ref().unwrap();
    assert_eq!(outcome.end, End::Cleared, "{:?}", run.events);
    assert_eq!(outcome.refused, 1, "{:?}", run.events);
    assert_eq!(run.game.borrow().refused(), 1);
    let refused_pair = run
        .events
        .iter()
        .position(|e| matches!(e, Event::Refused { .. }))
        .map(|i| pairs_clicked(&run.events[..i]))
        .unwrap();
    // The stretch after the refused pair's clicks ends at the next click (the cancel).
    let careful = run.careful_between_clicks(config.still_interval);
    assert!(careful[refused_pair], "{careful:?}\n{:?}", run.events);
}

#[test]
fn a_game_that_takes_clicks_during_a_removal_gets_planned_pairs_clicked_ahead() {
    let board = clearable_deal(8, 12, 3);
    let run = run(
        SimGame::new(board, Rules::default(), SelectionRule::KeepFirst)
            .unwrap()
            .with_linger(2),
        &Config::default(),
    );
    let outcome = run.result.as_ref().unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    assert_eq!(run.game.borrow().refused(), 0);
    assert!(run.game.borrow().stray_clicks().is_empty());
    // Pair n + 1 clicked before pair n is seen removed, and every pair counted once.
    let mut clicked = 0;
    let mut removed = 0;
    let mut ahead = 0;
    for event in &run.events {
        match event {
            Event::Pair { .. } => {
                clicked += 1;
                if clicked > removed + 1 {
                    ahead += 1;
                }
            }
            Event::Removed { moves, .. } => {
                removed += 1;
                assert_eq!(*moves, removed);
            }
            _ => {}
        }
    }
    assert_eq!((clicked, removed), (outcome.moves, outcome.moves));
    assert!(ahead > outcome.moves / 3, "{ahead} pairs clicked ahead");
}

#[test]
fn issue12_clicks_taken_during_a_removal_are_learned_saved_and_believed_next_time() {
    let board = clearable_deal(8, 12, 3);
    let game = || {
        SimGame::new(board.clone(), Rules::default(), SelectionRule::KeepFirst)
            .unwrap()
            .with_linger(2)
    };
    let deselects = |run: &Run| {
        run.events
            .iter()
            .filter(|e| matches!(e, Event::Deselect { .. }))
            .count()
    };
    let probing = run(game(), &Config::default());
    let learned = probing.result.as_ref().unwrap().learned.clone();
    assert_eq!(learned.clicks_during_removal, Some(true));
    assert!(
        learned
            .to_string()
            .contains("the game takes clicks during a removal"),
        "{learned}"
    );
    assert!(
        probing
            .events
            .contains(&Event::LearnedClicksDuringRemoval { taken: true })
    );
    // Each probe's tile was cancelled once the removal was drawn.
    assert!(deselects(&probing) > 0);

    let window = Window {
        title: Some("Simulated".to_string()),
        app_name: None,
        size: None,
    };
    let geometry = game().geometry();
    let text = Profile::new(window, geometry)
        .with_learned(&learned)
        .to_toml();
    assert!(text.contains("clicks-during-removal = true"), "{text}");
    let config = Profile::from_toml(&text).unwrap().config();
    assert_eq!(config.clicks_during_removal, Some(true));

    // Believed from the start: no probe, so nothing to cancel.
    let informed = run(game(), &config);
    let outcome = informed.result.as_ref().unwrap();
    assert_eq!((outcome.end, outcome.refused), (End::Cleared, 0));
    assert_eq!(deselects(&informed), 0, "{:?}", informed.events);
    assert_eq!(outcome.learned.clicks_during_removal, None);
}

/// A game that takes clicks during a removal and shows each removal for two frames.
fn lingering_game() -> SimGame {
    SimGame::new(
        clearable_deal(8, 12, 3),
        Rules::default(),
        SelectionRule::KeepFirst,
    )
    .unwrap()
    .with_linger(2)
}

/// The numbers (among all the game's clicks) of the two clicks of one pair of the first batch
/// of three or more pairs clicked without a removal seen between them (`last`: its last pair,
/// the one pending when the batch is verified; else its second), in a run of
/// [`lingering_game`] where the game takes every click.
fn clicks_of_batch_pair(last: bool) -> Vec<usize> {
    let first = run(lingering_game(), &Config::default());
    let mut pairs = Vec::new();
    let mut batches = vec![Vec::new()];
    for event in &first.events {
        match event {
            Event::Pair { clicks, .. } => {
                batches.last_mut().unwrap().push(pairs.len());
                pairs.push(*clicks);
            }
            Event::Removed { .. } => batches.push(Vec::new()),
            _ => {}
        }
    }
    let batch = batches
        .iter()
        .find(|b| b.len() >= 3)
        .expect("a batch of three pairs");
    let chosen = if last {
        batch[batch.len() - 1]
    } else {
        batch[1]
    };
    let all = first.game.borrow().clicks().to_vec();
    let mut at = 0;
    let mut numbers = Vec::new();
    for (i, clicks) in pairs.iter().enumerate().take(chosen + 1) {
        for click in clicks {
            at += all[at..].iter().position(|c| c == click).unwrap();
            if i == chosen {
                numbers.push(at);
            }
            at += 1;
        }
    }
    numbers
}

/// [`lingering_game`] played with the clicks of one pair of its first batch dropped (see
/// [`clicks_of_batch_pair`]): the game cleared, no pair refused on either side, every removal
/// counted once and no click astray. The run, for what a test checks besides.
fn run_dropping_batch_pair(last: bool) -> Run {
    let numbers = clicks_of_batch_pair(last);
    let dropped = run(
        lingering_game().with_dropped_clicks(&numbers),
        &Config::default(),
    );
    {
        let outcome = dropped.result.as_ref().unwrap();
        let game = dropped.game.borrow();
        assert_eq!(outcome.end, End::Cleared, "{:?}", dropped.events);
        assert_eq!((outcome.refused, game.refused()), (0, 0));
        assert_eq!(outcome.moves, game.removals());
        assert!(game.stray_clicks().is_empty());
    }
    dropped
}

#[test]
fn a_pair_in_the_middle_of_a_batch_that_the_game_drops_leaves_the_rest_counted_right() {
    run_dropping_batch_pair(false);
}

#[test]
fn the_last_pair_of_a_batch_that_the_game_drops_is_counted_dropped_not_refused() {
    let dropped = run_dropping_batch_pair(true);
    let outcome = dropped.result.as_ref().unwrap();
    assert_eq!(outcome.dropped, 1, "{:?}", dropped.events);
    assert_eq!(outcome.learned.clicks_during_removal, Some(false));
}
