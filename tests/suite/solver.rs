//! The solver against a slow obvious reference: Dijkstra over (cell, direction) states, costing
//! (turns, cells) lexicographically, one cell at a time.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use linkup::board::{Board, EMPTY, Pos};
use linkup::judge::link::LinkIndex;
use linkup::solver::{NextPair, Path, Rules, connect, next_pair, pairs};
use proptest::prelude::*;

const DIRS: [(i32, i32); 4] = [(-1, 0), (0, 1), (1, 0), (0, -1)];

/// Whether a path may pass through `p` (an empty cell, or the ring when the border is allowed).
fn passable(board: &Board, rules: Rules, p: Pos) -> bool {
    let (rows, cols) = (board.rows() as i32, board.cols() as i32);
    if board.contains(p) {
        return board.get(p) == EMPTY;
    }
    rules.border && p.row >= -1 && p.col >= -1 && p.row <= rows && p.col <= cols
}

/// The fewest (turns, cells) of any link from `a` to `b`, by plain Dijkstra.
fn reference(board: &Board, a: Pos, b: Pos, rules: Rules) -> Option<(usize, usize)> {
    if a == b || !board.contains(a) || !board.contains(b) {
        return None;
    }
    if board.get(a) == EMPTY || board.get(a) != board.get(b) {
        return None;
    }
    let mut heap = BinaryHeap::new();
    let mut seen = std::collections::HashSet::new();
    for d in 0..4 {
        heap.push(Reverse((0usize, 0usize, a.row, a.col, d)));
    }
    while let Some(Reverse((turns, len, r, c, d))) = heap.pop() {
        if !seen.insert((r, c, d)) {
            continue;
        }
        if d >= 4 {
            return Some((turns, len)); // arrived at b
        }
        for (nd, &(dr, dc)) in DIRS.iter().enumerate() {
            if (r, c) != (a.row, a.col) && nd != d && (nd + 2) % 4 == d {
                continue; // no U-turns
            }
            if (r, c) == (a.row, a.col) && nd != d {
                continue; // the start state fixes the first direction
            }
            let nt = turns + usize::from(nd != d);
            if nt > rules.max_turns as usize {
                continue;
            }
            let next = Pos::new(r + dr, c + dc);
            if next == b {
                // Arriving is a state of its own: the first one popped is the best.
                heap.push(Reverse((nt, len + 1, b.row, b.col, 4 + nd)));
                continue;
            }
            if passable(board, rules, next) {
                heap.push(Reverse((nt, len + 1, next.row, next.col, nd)));
            }
        }
    }
    None
}

/// Checks that `path` is a legal link from `a` to `b` under `rules`.
fn check_path(board: &Board, a: Pos, b: Pos, rules: Rules, path: &Path) {
    let points = path.points();
    assert_eq!(points.first(), Some(&a));
    assert_eq!(points.last(), Some(&b));
    assert!(
        path.turns() <= rules.max_turns as usize,
        "too many turns: {points:?}"
    );
    for w in points.windows(2) {
        assert!(
            w[0].row == w[1].row || w[0].col == w[1].col,
            "not straight: {points:?}"
        );
        assert_ne!(w[0], w[1], "zero-length segment: {points:?}");
    }
    for w in points.windows(3) {
        let straight = (w[0].row == w[1].row && w[1].row == w[2].row)
            || (w[0].col == w[1].col && w[1].col == w[2].col);
        assert!(!straight, "a corner point that is not a turn: {points:?}");
    }
    let cells = path.cells();
    for &p in &cells[1..cells.len() - 1] {
        assert!(passable(board, rules, p), "path crosses {p}: {points:?}");
    }
}

fn arb_board() -> impl Strategy<Value = Board> {
    (1usize..=12, 1usize..=12).prop_flat_map(|(rows, cols)| {
        let cell = prop_oneof![3 => Just(0u32), 2 => 1u32..=4];
        proptest::collection::vec(cell, rows * cols)
            .prop_map(move |cells| Board::new(rows, cols, cells).unwrap())
    })
}

fn arb_rules() -> impl Strategy<Value = Rules> {
    (any::<bool>(), prop_oneof![4 => Just(2u8), 1 => 0u8..=4]).prop_map(|(border, max_turns)| {
        Rules {
            max_turns,
            border,
            gravity: false,
        }
    })
}

fn all_cells(board: &Board) -> Vec<Pos> {
    (0..board.rows() as i32)
        .flat_map(|r| (0..board.cols() as i32).map(move |c| Pos::new(r, c)))
        .collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn connect_matches_the_reference(board in arb_board(), rules in arb_rules()) {
        let cells = all_cells(&board);
        for &a in &cells {
            for &b in &cells {
                let fast = connect(&board, a, b, rules);
                let slow = reference(&board, a, b, rules);
                prop_assert_eq!(
                    fast.as_ref().map(|p| (p.turns(), p.len())),
                    slow,
                    "{} -> {} on\n{}", a, b, board
                );
                if let Some(path) = &fast {
                    check_path(&board, a, b, rules, path);
                    let back = connect(&board, b, a, rules).expect("links both ways");
                    prop_assert_eq!((back.turns(), back.len()), (path.turns(), path.len()));
                }
            }
        }
    }

    #[test]
    fn judge_index_agrees_with_connect(board in arb_board(), border in any::<bool>()) {
        let rules = Rules { max_turns: 2, border, gravity: false };
        let index = LinkIndex::new(&board, border);
        let cells = all_cells(&board);
        for &a in &cells {
            for &b in &cells {
                prop_assert_eq!(
                    index.links(a, b),
                    connect(&board, a, b, rules).is_some(),
                    "{} -> {} on\n{}", a, b, board
                );
            }
        }
    }

    #[test]
    fn pairs_and_next_pair_agree_with_connect(board in arb_board(), rules in arb_rules()) {
        let cells = all_cells(&board);
        let mut expected = Vec::new();
        for &a in &cells {
            for &b in &cells {
                if a < b && connect(&board, a, b, rules).is_some() {
                    expected.push((a, b));
                }
            }
        }
        prop_assert_eq!(pairs(&board, rules), expected.clone());
        let last = cells[cells.len() / 2];
        match next_pair(&board, rules, Some(last)) {
            NextPair::Found(m) => {
                let key = if m.a < m.b { (m.a, m.b) } else { (m.b, m.a) };
                prop_assert!(expected.contains(&key));
                check_path(&board, m.a, m.b, rules, &m.path);
                // Locality: no tile between `last` and `m.a` (in scan order) had a partner.
                let n = cells.len();
                let start = cells.iter().position(|&p| p == last).unwrap();
                let found = cells.iter().position(|&p| p == m.a).unwrap();
                for k in 0..(found + n - start) % n {
                    let p = cells[(start + k) % n];
                    prop_assert!(!expected.iter().any(|&(x, y)| x == p || y == p), "{} was skipped", p);
                }
            }
            NextPair::Stuck => prop_assert!(expected.is_empty() && board.tiles() > 0),
            NextPair::Cleared => prop_assert_eq!(board.tiles(), 0),
        }
    }
}
