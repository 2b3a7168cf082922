//! The search with gravity: tiles fall after each removal, so it branches on removable pairs.
//!
//! A removal moves every tile above an emptied cell one cell down, which can break links as
//! well as make them, so the matching argument of the fixed search does not hold and the order
//! of removals matters. The search is a plain depth-first search over removable pairs with a
//! set of dead boards (Zobrist-hashed), and one provably safe move:
//!
//! - *A kind's last pair with nothing above it.* If a kind has exactly two tiles left, they link,
//!   and no other tile is above either of them in its column, removing them at once loses
//!   nothing. Tiles only fall, so no tile will ever be above them; a tile's presence moves only
//!   the tiles above it, so every other tile takes the same positions with or without them; and
//!   every path in any clearing sequence stays a path when two more cells are empty.
//!
//! Proofs of unwinnability, and why they are few. A kind with an odd number of tiles can never
//! be cleared (each removal takes two), so such a board is proven unwinnable without search.
//! Otherwise a verdict of unwinnable comes only from an exhausted search: every removable pair
//! of every position was tried, except where the safe move above stands for all of them. The
//! dead boards it remembers are sound across branches and restarts because the board is the
//! whole state: the same tiles in the same cells have the same futures, however they got there,
//! and a board is recorded dead only when every move from it was searched to the end (a search
//! cut by its limit reports "stopped", never "dead").
//!
//! The cheap proofs of the search without gravity do not carry over. Its blocking sets rest on
//! tiles that never move: a set that cannot lose its first tile with every other tile gone
//! stays stuck. With gravity a removal below a tile moves it, so a set can fall out of its lock,
//! and a tile outside the set can fall into a cell the set's paths needed. What does hold is
//! narrower: a set `S` of whole kinds (every tile left of each) that holds every tile below any
//! of its own tiles cannot move until one of its tiles goes (a tile moves only when one below it
//! goes), so if no two same-kind tiles of `S` link on a grid holding only `S`'s tiles, no tile
//! of `S` ever goes. This lock was tried and dropped: on the 60 deals of seeds 1-1000 that take
//! more than 2,000 nodes it changed the node count by 59 in 613,243 (a kind with a tile free to
//! go leaves the set with every tile above any of its tiles, so the set is nearly always empty),
//! while costing a test per position. Tried again at the tile level, once at the root (a tile
//! leaves the set when a tile of its kind is outside it or when it links to one inside, and
//! every tile above it leaves with it): it proved none of the 28 unwinnable deals of seeds
//! 1-1000. With the border the reason is plain: the top tile of each of the set's columns sees
//! the ring row above the board (every tile above it is out of the set), so two same-kind tiles
//! on top link over it, and a lock needs every kind to keep at most one tile on top of the
//! set's columns, which a deal almost never has.
//!
//! Move ordering: a kind's last pair first (it cannot be needed elsewhere), then pairs with
//! fewer tiles above them (their removal disturbs less of the board).
//!
//! A depth-first search that takes a poor early branch can spend its whole budget under it, so
//! the search restarts with a growing limit (200 positions, 30% more each time, 40 times, then
//! no limit, so it stays complete), breaking ties between equal moves differently each time
//! (and letting a move count one tile more above it than it has, at random, so that near-equal
//! moves trade places too) and keeping the dead boards it has proven. On the 112 deals of seeds
//! 1-1000 that take more than 500 nodes, that one-tile jitter took 528,000 nodes against
//! 740,000 without it (other random bits for it: 582,000-718,000). A position here costs about
//! a tenth of a node of the search without gravity, so ten positions count as one node of the
//! [`Budget`].

use std::collections::HashSet;

use crate::board::{Board, Kind, Pos};
use crate::solver::Rules;

use super::grid::{FREE, Grid, WALL};
use super::{Budget, Found, Meter, Stats, mix64};

#[derive(PartialEq, Eq)]
enum Result {
    Cleared,
    Dead,
    Stopped,
}

struct Search {
    grid: Grid,
    kinds: usize,
    dead: HashSet<u64>,
    removals: Vec<(usize, usize)>,
    best: Vec<(usize, usize)>,
    meter: Meter,
    /// Positions expanded.
    positions: u64,
    /// The position count at which the current restart gives up.
    restart_at: u64,
    /// Breaks ties in the move order (0 on the first run, different on each restart).
    salt: u64,
    /// The grid before each removal of the current line, to undo it (reused, not reallocated).
    saved: Vec<Grid>,
    /// The candidates of each position of the current line (reused, not reallocated).
    moves: Vec<Vec<Candidate>>,
    /// Scratch: the tiles of each kind.
    by_kind: Vec<Vec<usize>>,
    /// The Zobrist hash of the grid, kept up to date by `Search::put`.
    hash: u64,
    /// Tiles on the grid.
    tiles: usize,
}

/// Restarts with a node limit of their own; the one after them runs to the end of the budget.
const RESTARTS: u32 = 40;

/// The first restart's limit (positions); each next one is 30% larger.
const FIRST_LIMIT: u64 = 200;

/// Positions expanded per node of the budget: a position here costs about a tenth of a node
/// of the search without gravity (1.4 us against 15-30 us on 8x18), and the budget stands for
/// time.
const POSITIONS_PER_NODE: u64 = 10;

/// Runs the search on `board` (kinds mapped by `dense` to `0..kinds`).
pub(super) fn search(
    board: &Board,
    rules: Rules,
    budget: Budget,
    dense: &dyn Fn(Kind) -> u16,
    kinds: usize,
) -> Found {
    let grid = Grid::of_board(board, rules, dense);
    let mut counts = vec![0usize; kinds];
    for &k in grid.cells() {
        if k != FREE && k != WALL {
            counts[k as usize - 1] += 1;
        }
    }
    let mut search = Search {
        grid,
        kinds,
        dead: HashSet::new(),
        removals: Vec::new(),
        best: Vec::new(),
        meter: Meter::new(budget),
        positions: 0,
        restart_at: u64::MAX,
        salt: 0,
        saved: Vec::new(),
        moves: Vec::new(),
        by_kind: vec![Vec::new(); kinds],
        hash: 0,
        tiles: 0,
    };
    search.hash = search.full_hash();
    search.tiles = counts.iter().sum();
    let result = if counts.iter().any(|c| c % 2 == 1) {
        Result::Dead
    } else {
        search.run()
    };
    let cleared = result == Result::Cleared;
    let chosen = if cleared {
        &search.removals
    } else {
        &search.best
    };
    let pos = |i: usize| {
        let (r, c) = search.grid.row_col(i);
        Pos::new(r as i32, c as i32)
    };
    Found {
        removals: chosen.iter().map(|&(a, b)| (pos(a), pos(b))).collect(),
        cleared,
        stats: Stats {
            nodes: search.meter.nodes,
            exhausted: result == Result::Dead,
            out_of_budget: result == Result::Stopped,
            unsearchable: None,
        },
    }
}

/// A removable pair and its ordering key (smaller first).
struct Candidate {
    a: usize,
    b: usize,
    rank: (bool, usize, u64),
    safe: bool,
}

impl Search {
    /// The search with restarts: a growing node limit and a different order of equal moves
    /// each time, so that a poor early choice does not take the whole budget. Dead boards stay
    /// dead across restarts, and the last restart has no limit, so the search stays complete.
    fn run(&mut self) -> Result {
        // On 8x18 with gravity, 200 positions growing by 30% for 40 restarts settled all 1000
        // deals of seeds 1-1000 within the default budget; a first limit of 1000-5000 left 1-4.
        let mut limit = FIRST_LIMIT;
        for restart in 0.. {
            self.restart_at = if restart < RESTARTS {
                self.positions + limit
            } else {
                u64::MAX
            };
            self.salt = u64::from(restart);
            let result = self.node();
            if result != Result::Stopped || self.meter.stopped {
                return result;
            }
            self.removals.clear();
            limit = limit * 13 / 10;
        }
        unreachable!("the last restart has no limit of its own")
    }

    /// The Zobrist key of kind `k` (stored as `k + 1`) at cell `i`.
    fn key(&self, i: usize, k: u16) -> u64 {
        mix64((i * self.kinds + k as usize - 1) as u64 ^ 0x9a5e)
    }

    /// The Zobrist hash of the whole grid (`hash` keeps it up to date after this).
    fn full_hash(&self) -> u64 {
        self.grid
            .cells()
            .iter()
            .enumerate()
            .filter(|&(_, &k)| k != FREE && k != WALL)
            .fold(0, |h, (i, &k)| h ^ self.key(i, k))
    }

    /// Sets cell `i` (not a wall) to `k`, keeping the hash up to date.
    fn put(&mut self, i: usize, k: u16) {
        let old = self.grid.get(i);
        if old != FREE {
            self.hash ^= self.key(i, old);
        }
        if k != FREE {
            self.hash ^= self.key(i, k);
        }
        self.grid.set(i, k);
    }

    /// Tiles above board cell `at` in its column, not counting `other`.
    fn tiles_above(&self, at: usize, other: usize) -> usize {
        let w = self.grid.width;
        let mut count = 0;
        let mut i = at;
        while i >= 2 * w {
            i -= w;
            let k = self.grid.get(i);
            if k != FREE && k != WALL && i != other {
                count += 1;
            }
        }
        count
    }

    /// Empties `at` and lets the tiles above it fall one cell.
    fn fall(&mut self, at: usize) {
        let w = self.grid.width;
        let mut i = at;
        while i >= 2 * w {
            let above = self.grid.get(i - w);
            if above != self.grid.get(i) {
                self.put(i, above);
            }
            i -= w;
        }
        self.put(i, FREE);
    }

    /// The removable pairs, best first, into `out`; a safe one alone if there is one.
    fn candidates(&mut self, out: &mut Vec<Candidate>) {
        let mut by_kind = std::mem::take(&mut self.by_kind);
        for tiles in &mut by_kind {
            tiles.clear();
        }
        for (i, &k) in self.grid.cells().iter().enumerate() {
            if k != FREE && k != WALL {
                by_kind[k as usize - 1].push(i);
            }
        }
        self.candidates_of(&by_kind, out);
        self.by_kind = by_kind;
    }

    /// [`Search::candidates`] from the tiles of each kind.
    fn candidates_of(&mut self, by_kind: &[Vec<usize>], out: &mut Vec<Candidate>) {
        out.clear();
        for tiles in by_kind {
            for (x, &a) in tiles.iter().enumerate() {
                for &b in &tiles[x + 1..] {
                    if !self.grid.links(a, b) {
                        continue;
                    }
                    let above = self.tiles_above(a, b) + self.tiles_above(b, a);
                    let last = tiles.len() == 2;
                    let safe = last && above == 0;
                    if safe {
                        out.clear();
                        out.push(Candidate {
                            a,
                            b,
                            rank: (false, 0, 0),
                            safe,
                        });
                        return;
                    }
                    // After the first run, ties are broken in a new pseudo-random order, and a
                    // pair may count one tile more above it than it has, so that near-equal
                    // moves trade places too.
                    let (tie, jitter) = if self.salt == 0 {
                        (0, 0)
                    } else {
                        let tie = mix64((a * self.grid.cells().len() + b) as u64 ^ self.salt);
                        (tie, (tie & 1) as usize)
                    };
                    out.push(Candidate {
                        a,
                        b,
                        rank: (!last, above + jitter, tie),
                        safe,
                    });
                }
            }
        }
        out.sort_by_key(|c| c.rank);
    }

    fn node(&mut self) -> Result {
        self.positions += 1;
        if self.positions % POSITIONS_PER_NODE == 0 {
            self.meter.tick();
        }
        if self.meter.stopped || self.positions >= self.restart_at {
            return Result::Stopped;
        }
        if self.removals.len() > self.best.len() {
            self.best.clone_from(&self.removals);
        }
        if self.tiles == 0 {
            return Result::Cleared;
        }
        let hash = self.hash;
        if self.dead.contains(&hash) {
            return Result::Dead;
        }
        let depth = self.removals.len();
        if self.moves.len() <= depth {
            self.moves.push(Vec::new());
        }
        let mut candidates = std::mem::take(&mut self.moves[depth]);
        self.candidates(&mut candidates);
        if self.saved.len() <= depth {
            self.saved.push(self.grid.clone());
        } else {
            self.saved[depth].copy_from(&self.grid);
        }
        let mut result = Result::Dead;
        for c in &candidates {
            self.removals.push((c.a, c.b));
            let (upper, lower) = (c.a.min(c.b), c.a.max(c.b));
            self.put(upper, FREE);
            self.put(lower, FREE);
            self.fall(upper);
            self.fall(lower);
            self.tiles -= 2;
            result = self.node();
            self.tiles += 2;
            self.grid.copy_from(&self.saved[depth]);
            self.hash = hash;
            if result != Result::Dead {
                break;
            }
            self.removals.pop();
            if c.safe {
                break;
            }
        }
        self.moves[depth] = candidates;
        if result == Result::Dead {
            self.dead.insert(hash);
        }
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_clear_a_deal_plain_depth_first_search_took_half_a_million_positions_for() {
        // Seed 57 on 8x18 with gravity: the search without restarts needed 542,801 positions.
        let board = crate::deal::deal(8, 18, crate::deal::Fill::Xshisen, 57);
        let rules = Rules {
            gravity: true,
            ..Rules::shisen_sho()
        };
        let outcome = super::super::plan(&board, rules, Budget::default());
        assert!(outcome.plan.is_cleared());
        assert!(outcome.stats.nodes < Budget::DEFAULT_NODES);
    }
}
