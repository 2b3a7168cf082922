//! The planner against a slow obvious reference on small random deals.
//!
//! The reference tries every removable pair at every step (`solver::pairs` and
//! `solver::remove_pair`), remembering only the boards it has already seen fail; nothing else
//! is pruned or reordered. The planner must reach the same verdict, and every plan it returns
//! must replay move by move with `solver::connect`.

use std::collections::HashSet;

use linkup::board::{Board, Kind};
use linkup::planner::{Budget, Verdict, plan};
use linkup::solver::{Rules, connect, pairs, remove_pair};
use proptest::prelude::*;

/// Whether `board` can be cleared: exhaustive search over removable pairs.
fn winnable(board: &Board, rules: Rules, failed: &mut HashSet<Board>) -> bool {
    if board.is_cleared() {
        return true;
    }
    if failed.contains(board) {
        return false;
    }
    for (a, b) in pairs(board, rules) {
        let mut next = board.clone();
        remove_pair(&mut next, a, b, rules);
        if winnable(&next, rules, failed) {
            return true;
        }
    }
    failed.insert(board.clone());
    false
}

/// A shuffled `rows` x `cols` board with every kind `copies` times, and a few cells emptied.
fn deals() -> impl Strategy<Value = Board> {
    (
        4usize..=5,
        4usize..=6,
        prop_oneof![Just(2usize), Just(4usize), Just(6usize)],
    )
        .prop_flat_map(|(rows, cols, copies)| {
            let cells: Vec<Kind> = (0..rows * cols).map(|i| (i / copies) as Kind + 1).collect();
            (
                Just(rows),
                Just(cols),
                Just(cells).prop_shuffle(),
                0usize..3,
            )
        })
        .prop_map(|(rows, cols, mut cells, holes)| {
            // Empty the tiles of the first `holes` kinds, leaving gaps like a game in progress.
            for cell in &mut cells {
                if (*cell as usize) <= holes {
                    *cell = 0;
                }
            }
            Board::new(rows, cols, cells).unwrap()
        })
}

fn rules() -> impl Strategy<Value = Rules> {
    (1u8..=3, any::<bool>(), any::<bool>()).prop_map(|(max_turns, border, gravity)| Rules {
        max_turns,
        border,
        gravity,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(250))]

    #[test]
    fn planner_agrees_with_exhaustive_search(board in deals(), rules in rules()) {
        let expected = winnable(&board, rules, &mut HashSet::new());
        let outcome = plan(&board, rules, Budget::nodes(1_000_000));
        let verdict = outcome.verdict();
        prop_assert_ne!(verdict, Verdict::Unknown);
        prop_assert_eq!(verdict == Verdict::Cleared, expected, "{:?} on\n{}", rules, board);

        let mut replayed = board.clone();
        for m in &outcome.plan.moves {
            let path = connect(&replayed, m.a, m.b, rules);
            prop_assert_eq!(path.as_ref(), Some(&m.path), "move {} {} on\n{}", m.a, m.b, replayed);
            remove_pair(&mut replayed, m.a, m.b, rules);
        }
        prop_assert_eq!(replayed.tiles(), outcome.plan.left);
    }
}

#[test]
fn crossed_squares_are_unwinnable_with_two_turns_only() {
    let board: Board = "1 2\n2 1".parse().unwrap();
    for border in [false, true] {
        let two = Rules {
            max_turns: 2,
            border,
            gravity: false,
        };
        assert_eq!(
            plan(&board, two, Budget::default()).verdict(),
            Verdict::Unwinnable
        );
        // Three turns go round the square, but only through the ring outside the board.
        let three = Rules {
            max_turns: 3,
            ..two
        };
        let expected = if border {
            Verdict::Cleared
        } else {
            Verdict::Unwinnable
        };
        assert_eq!(plan(&board, three, Budget::default()).verdict(), expected);
    }
}

/// Full-size deals whose verdicts were settled by long searches (older planners, millions of
/// nodes): the default budget now settles them, and agrees. Seeds 126 and 282 went past the
/// default budget until blocking sets took unpaired tiles away one at a time (a few hundred
/// nodes since).
#[test]
fn full_size_deals_get_their_known_verdicts() {
    use linkup::deal::{Fill, deal};
    let rules = Rules::shisen_sho();
    for (seed, expected) in [
        (22, Verdict::Cleared),
        (44, Verdict::Cleared),
        (28, Verdict::Unwinnable),
        (42, Verdict::Unwinnable),
        (126, Verdict::Unwinnable),
        (282, Verdict::Unwinnable),
    ] {
        let board = deal(8, 18, Fill::Xshisen, seed);
        let outcome = plan(&board, rules, Budget::default());
        assert_eq!(outcome.verdict(), expected, "seed {seed}");
    }
}

/// Issue 13: a 70x70 board made `plan --planner` panic. Boards the search cannot take now get
/// greedy play's plan and the reason, whatever their size.
#[test]
fn issue13_boards_too_large_to_search_get_greedy_play_and_a_reason() {
    use linkup::planner::{MAX_PAIRS, Unsearchable, check};
    // Kinds in a repeating diagonal pattern: greedy play gets stuck somewhere on it or not, but
    // the planner must not search it and must not panic.
    let (rows, cols) = (70, 70);
    let cells: Vec<Kind> = (0..rows * cols)
        .map(|i| ((i / cols + 3 * (i % cols)) % 1225) as Kind + 1)
        .collect();
    let board = Board::new(rows, cols, cells).unwrap();
    let reason = Unsearchable::TooLarge {
        rows: 70,
        cols: 70,
        max: 62,
    };
    assert_eq!(check(&board), Err(reason));
    let rules = Rules::shisen_sho();
    let outcome = plan(&board, rules, Budget::default());
    assert_eq!(outcome.stats.unsearchable, Some(reason));
    assert_eq!(outcome.stats.nodes, 0);
    assert_eq!(outcome.plan, linkup::solver::greedy_plan(&board, rules));
    assert!(reason.to_string().contains("at most 62x62"));

    // One kind filling a 20x20 board: 79,800 pairs, too many for the pair tables.
    let board = Board::new(20, 20, vec![1; 400]).unwrap();
    assert_eq!(
        check(&board),
        Err(Unsearchable::TooManyPairs {
            pairs: 79_800,
            max: MAX_PAIRS
        })
    );
    assert!(plan(&board, rules, Budget::default()).plan.is_cleared());

    // The largest board the search takes is searched.
    let board = Board::new(62, 62, (0..62 * 62).map(|i| i / 4 + 1).collect()).unwrap();
    assert_eq!(check(&board), Ok(()));
}

/// With more than two turns every link test on a large board is a breadth-first search, and a
/// node can take milliseconds: the node budget alone would run for many minutes, so the clock
/// must stop the search (it is read at every node). The bound is far above the limit: this
/// checks that the search ends, not how fast it is.
#[test]
fn a_time_limit_stops_a_search_whose_nodes_are_slow() {
    use std::time::{Duration, Instant};
    // 225 kinds of four tiles, shuffled from a fixed seed.
    let mut cells: Vec<Kind> = (0..900).map(|i| i / 4 + 1).collect();
    linkup::random::SplitMix64::new(1).shuffle(&mut cells);
    let board = Board::new(30, 30, cells).unwrap();
    assert_eq!(linkup::planner::check(&board), Ok(()));
    let rules = Rules {
        max_turns: 3,
        border: true,
        gravity: false,
    };
    let budget = Budget {
        nodes: u64::MAX,
        time: Some(Duration::from_millis(200)),
    };
    let start = Instant::now();
    let outcome = plan(&board, rules, budget);
    assert!(start.elapsed() < Duration::from_secs(30));
    if outcome.verdict() == Verdict::Unknown {
        assert!(outcome.stats.out_of_budget);
    }
}
