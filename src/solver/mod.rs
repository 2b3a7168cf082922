//! The solver: which pairs link, by which path, and which pair to take next.
//!
//! Pure functions of a [`Board`] and [`Rules`]: no pixels, no I/O. A link is a path of at most
//! `max_turns + 1` straight segments through empty cells, optionally through the ring just
//! outside the board (`border`, the Shisen-Sho rule).

mod ray;

use serde::Serialize;

pub use ray::RaySearch;

use crate::board::{Board, EMPTY, Pos};

/// The rules of one link-up game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Most turns a path may make (2 means at most 3 straight segments).
    pub max_turns: u8,
    /// Whether a path may run through the one-cell ring just outside the board.
    pub border: bool,
    /// Whether tiles above an emptied cell fall down their column after a removal.
    pub gravity: bool,
}

impl Default for Rules {
    /// The Shisen-Sho rules of xshisen and kshisen, as a game profile has them by default: at
    /// most two turns, around the border, no gravity.
    fn default() -> Self {
        Rules::shisen_sho()
    }
}

impl Rules {
    /// The Shisen-Sho rules of xshisen and kshisen: two turns, around the border, no gravity.
    pub fn shisen_sho() -> Self {
        Rules {
            max_turns: 2,
            border: true,
            gravity: false,
        }
    }

    /// The HDOJ 1175 rules: two turns, no border, no gravity.
    pub fn hdoj() -> Self {
        Rules {
            border: false,
            ..Rules::shisen_sho()
        }
    }
}

/// A link: its corner points, from the first tile to the second, both ends included.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Path {
    points: Vec<Pos>,
}

impl Path {
    /// A path through the given corner points.
    pub fn new(points: Vec<Pos>) -> Self {
        Path { points }
    }

    /// The corner points, ends included.
    pub fn points(&self) -> &[Pos] {
        &self.points
    }

    /// Number of turns (corner points minus the two ends).
    pub fn turns(&self) -> usize {
        self.points.len().saturating_sub(2)
    }

    /// Number of steps from one end to the other.
    pub fn len(&self) -> usize {
        self.points
            .windows(2)
            .map(|w| (w[0].row.abs_diff(w[1].row) + w[0].col.abs_diff(w[1].col)) as usize)
            .sum()
    }

    /// Whether the path has no steps.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every cell on the path in order, ends included.
    pub fn cells(&self) -> Vec<Pos> {
        let mut out = Vec::with_capacity(self.len() + 1);
        if let Some(&first) = self.points.first() {
            out.push(first);
        }
        for w in self.points.windows(2) {
            let (dr, dc) = (
                (w[1].row - w[0].row).signum(),
                (w[1].col - w[0].col).signum(),
            );
            let mut p = w[0];
            while p != w[1] {
                p = Pos::new(p.row + dr, p.col + dc);
                out.push(p);
            }
        }
        out
    }
}

/// One removal: two tiles and the path that links them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Move {
    /// The first tile.
    pub a: Pos,
    /// The second tile.
    pub b: Pos,
    /// The link, from `a` to `b`.
    pub path: Path,
}

/// What [`next_pair`] finds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NextPair {
    /// A removable pair.
    Found(Move),
    /// Tiles remain but no pair can be removed: a deadlock.
    Stuck,
    /// No tile is left.
    Cleared,
}

/// The best link between `a` and `b`: fewest turns, then fewest cells.
///
/// `None` when the cells are the same, either is empty or off the board, their kinds differ, or
/// no path within the rules exists.
///
/// ```
/// use linkup::board::{Board, Pos};
/// use linkup::solver::{connect, Rules};
///
/// let board: Board = "1 2 1\n0 0 0".parse().unwrap();
/// let path = connect(&board, Pos::new(0, 0), Pos::new(0, 2), Rules::hdoj()).unwrap();
/// assert_eq!(path.turns(), 2);
/// assert_eq!(path.points(), &[Pos::new(0, 0), Pos::new(1, 0), Pos::new(1, 2), Pos::new(0, 2)]);
/// ```
pub fn connect(board: &Board, a: Pos, b: Pos, rules: Rules) -> Option<Path> {
    RaySearch::new(board, rules).connect(a, b)
}

/// Every removable pair on the board, each once, `a` before `b` in row-major order.
pub fn pairs(board: &Board, rules: Rules) -> Vec<(Pos, Pos)> {
    RaySearch::new(board, rules).pairs()
}

/// The next pair to remove, looked for from `last` (the last removed tile) onward in row-major
/// order, wrapping: seed 002's last-success locality.
pub fn next_pair(board: &Board, rules: Rules, last: Option<Pos>) -> NextPair {
    let mut search = RaySearch::new(board, rules);
    next_pair_with(&mut search, last)
}

/// [`next_pair`] on a searcher that is already built.
pub fn next_pair_with(search: &mut RaySearch, last: Option<Pos>) -> NextPair {
    match search.scan_from(last.unwrap_or(Pos::new(0, 0))) {
        Some((a, b)) => {
            let path = search
                .connect(a, b)
                .expect("a partner found by the ray search links");
            NextPair::Found(Move { a, b, path })
        }
        None if search.has_tiles() => NextPair::Stuck,
        None => NextPair::Cleared,
    }
}

/// Removes the pair `a`, `b` from the board, then lets tiles fall if the rules have gravity:
/// every tile above an emptied cell moves one cell down its column.
pub fn remove_pair(board: &mut Board, a: Pos, b: Pos, rules: Rules) {
    board.set(a, EMPTY);
    board.set(b, EMPTY);
    if !rules.gravity {
        return;
    }
    // The upper cell first, so that the lower one has not moved yet when its turn comes.
    let (upper, lower) = if (a.row, a.col) <= (b.row, b.col) {
        (a, b)
    } else {
        (b, a)
    };
    for emptied in [upper, lower] {
        for row in (1..=emptied.row).rev() {
            let above = board.get(Pos::new(row - 1, emptied.col));
            board.set(Pos::new(row, emptied.col), above);
        }
        board.set(Pos::new(0, emptied.col), EMPTY);
    }
}

/// A clearing sequence and where it ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Plan {
    /// The removals in order, each with the cells as they are at that moment.
    pub moves: Vec<Move>,
    /// Tiles left at the end: 0 when the board is cleared, otherwise the plan is stuck.
    pub left: usize,
}

impl Plan {
    /// Whether the plan clears the board.
    pub fn is_cleared(&self) -> bool {
        self.left == 0
    }

    /// `"cleared"` or `"stuck"`.
    pub fn result(&self) -> &'static str {
        if self.is_cleared() {
            "cleared"
        } else {
            "stuck"
        }
    }
}

impl Serialize for Plan {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Json<'a> {
            moves: &'a [Move],
            result: &'a str,
            left: usize,
        }
        Json {
            moves: &self.moves,
            result: self.result(),
            left: self.left,
        }
        .serialize(serializer)
    }
}

impl std::fmt::Display for Plan {
    /// One line per move, `a b` and the path's corner points, then the end state.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, m) in self.moves.iter().enumerate() {
            let path: Vec<String> = m.path.points().iter().map(Pos::to_string).collect();
            writeln!(f, "{:>3}. {} {}  path {}", i + 1, m.a, m.b, path.join(" "))?;
        }
        if self.is_cleared() {
            writeln!(f, "cleared in {} moves", self.moves.len())
        } else {
            writeln!(f, "stuck: {} tiles left, no pair", self.left)
        }
    }
}

/// The greedy clearing sequence: repeated [`next_pair`] with locality until the board is
/// cleared or stuck.
pub fn greedy_plan(board: &Board, rules: Rules) -> Plan {
    let mut board = board.clone();
    let mut moves = Vec::new();
    let mut search = RaySearch::new(&board, rules);
    let mut last = None;
    while let NextPair::Found(m) = next_pair_with(&mut search, last) {
        last = Some(m.a);
        remove_pair(&mut board, m.a, m.b, rules);
        if rules.gravity {
            search = RaySearch::new(&board, rules);
        } else {
            search.clear(m.a, m.b);
        }
        moves.push(m);
    }
    Plan {
        moves,
        left: board.tiles(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        text.parse().unwrap()
    }

    const NO_BORDER: Rules = Rules {
        max_turns: 2,
        border: false,
        gravity: false,
    };
    const BORDER: Rules = Rules {
        max_turns: 2,
        border: true,
        gravity: false,
    };

    #[test]
    fn straight_link() {
        let b = board("1 0 0 1");
        let path = connect(&b, Pos::new(0, 0), Pos::new(0, 3), NO_BORDER).unwrap();
        assert_eq!(path.points(), &[Pos::new(0, 0), Pos::new(0, 3)]);
        assert_eq!(path.len(), 3);
    }

    #[test]
    fn adjacent_tiles_link() {
        let b = board("1 1");
        let path = connect(&b, Pos::new(0, 0), Pos::new(0, 1), NO_BORDER).unwrap();
        assert_eq!(path.turns(), 0);
    }

    #[test]
    fn one_turn_link() {
        let b = board("1 0\n2 1");
        let path = connect(&b, Pos::new(0, 0), Pos::new(1, 1), NO_BORDER).unwrap();
        assert_eq!(
            path.points(),
            &[Pos::new(0, 0), Pos::new(0, 1), Pos::new(1, 1)]
        );
    }

    #[test]
    fn blocked_without_border_open_with_it() {
        let b = board("1 2 1");
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(0, 2), NO_BORDER), None);
        let path = connect(&b, Pos::new(0, 0), Pos::new(0, 2), BORDER).unwrap();
        assert_eq!(path.turns(), 2);
        assert!(path.points()[1].row == -1 || path.points()[1].row == 1);
    }

    #[test]
    fn three_turns_are_too_many_by_default() {
        // Right, down, right, up: 3 turns.
        let b = board("1 0 2 1\n2 0 0 0\n2 2 2 2");
        let rules = NO_BORDER;
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(0, 3), rules), None);
        let more = Rules {
            max_turns: 3,
            ..rules
        };
        assert_eq!(
            connect(&b, Pos::new(0, 0), Pos::new(0, 3), more)
                .unwrap()
                .turns(),
            3
        );
    }

    #[test]
    fn fewest_cells_among_fewest_turns() {
        // Two 2-turn paths exist: via row 1 (short) or via row 3 (long).
        let b = board("1 2 1\n0 0 0\n0 0 0\n0 0 0");
        let path = connect(&b, Pos::new(0, 0), Pos::new(0, 2), NO_BORDER).unwrap();
        assert_eq!(path.len(), 4);
    }

    #[test]
    fn refuses_same_cell_empty_and_different_kinds() {
        let b = board("1 0 2 1");
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(0, 0), BORDER), None);
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(0, 1), BORDER), None);
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(0, 2), BORDER), None);
        assert_eq!(connect(&b, Pos::new(0, 0), Pos::new(5, 5), BORDER), None);
    }

    #[test]
    fn pairs_lists_each_pair_once() {
        let b = board("1 1 0\n2 0 2");
        let p = pairs(&b, NO_BORDER);
        assert_eq!(
            p,
            vec![
                (Pos::new(0, 0), Pos::new(0, 1)),
                (Pos::new(1, 0), Pos::new(1, 2))
            ]
        );
    }

    #[test]
    fn next_pair_starts_at_last_success() {
        let b = board("1 1 0\n2 0 2");
        match next_pair(&b, NO_BORDER, Some(Pos::new(1, 0))) {
            NextPair::Found(m) => assert_eq!((m.a, m.b), (Pos::new(1, 0), Pos::new(1, 2))),
            other => panic!("expected a pair, got {other:?}"),
        }
        match next_pair(&b, NO_BORDER, Some(Pos::new(1, 2))) {
            NextPair::Found(m) => assert_eq!((m.a, m.b), (Pos::new(1, 2), Pos::new(1, 0))),
            other => panic!("expected a pair, got {other:?}"),
        }
    }

    #[test]
    fn next_pair_reports_stuck_and_cleared() {
        assert_eq!(
            next_pair(&board("1 2\n2 1"), NO_BORDER, None),
            NextPair::Stuck
        );
        assert_eq!(next_pair(&board("0 0"), NO_BORDER, None), NextPair::Cleared);
    }

    #[test]
    fn gravity_drops_tiles_above_removed_cells() {
        let mut b = board("3 4\n1 5\n2 1\n1 6");
        remove_pair(
            &mut b,
            Pos::new(1, 0),
            Pos::new(3, 0),
            Rules {
                gravity: true,
                ..NO_BORDER
            },
        );
        assert_eq!(b, board("0 4\n0 5\n3 1\n2 6"));
    }

    #[test]
    fn greedy_plan_clears_a_simple_board() {
        let plan = greedy_plan(&board("1 2 2 1\n3 0 0 3"), NO_BORDER);
        assert_eq!(plan.moves.len(), 3);
        assert!(plan.is_cleared());
        let json = serde_json::to_string(&plan).unwrap();
        assert!(
            json.starts_with(r#"{"moves":[{"a":[0,1],"b":[0,2],"path":[[0,1],[0,2]]}"#),
            "{json}"
        );
        assert!(json.ends_with(r#""result":"cleared","left":0}"#), "{json}");
    }

    #[test]
    fn path_cells_walks_every_step() {
        let p = Path::new(vec![Pos::new(0, 0), Pos::new(0, 2), Pos::new(1, 2)]);
        assert_eq!(
            p.cells(),
            vec![
                Pos::new(0, 0),
                Pos::new(0, 1),
                Pos::new(0, 2),
                Pos::new(1, 2)
            ]
        );
    }
}
