//! The search without gravity: tiles never move, so it branches on which tiles pair up.
//!
//! Without gravity a removal only empties cells, and a path through empty cells stays a path
//! when more cells are empty. Three facts follow, and the search rests on them:
//!
//! 1. *Order is free.* A pair that links now still links after any other removals, so any
//!    clearing sequence can remove it first. What matters is only the matching: which tiles of
//!    each kind are paired.
//! 2. *Committed pairs go at once.* Once the search has decided that `t` pairs with `u`, it
//!    removes that pair as soon as it links (by 1, no solution with that matching is lost), and
//!    a kind with two unpaired tiles left has only one choice, so it is committed without a
//!    branch. A kind whose tiles can all be removed right now by one matching is removed at once:
//!    every clearing sequence can be reordered to do that first.
//! 3. *Crossed pairs are dead.* Of two committed pairs that do not link yet, one is removed
//!    first, while the other's two tiles are still in place and every other tile may be gone.
//!    If neither pair links on a board holding just those four tiles, neither can ever go first,
//!    and the position is dead (the `1 2 / 2 1` square is the classic case, but any placement
//!    counts). A pair that cannot link even on an otherwise empty board is dead alone.
//!
//! 4. *Blocking sets are dead.* Generalising 3 to any set of units (committed pairs, and
//!    unpaired tiles): if no committed pair of the set links, and no unpaired tile of the set
//!    links to any unpaired tile of its kind (in the set or not), on a board holding only the
//!    set's tiles, the set never loses its first tile, whatever order the other tiles go in.
//!    The largest such set is found by elimination at every node (see `Search::blocked`); this
//!    also catches a position where nothing consistent with the commitments links at all, and
//!    the classic locks: `1 2 1 2` in a row with no way around, even when other tiles of kind
//!    1 can pair among themselves.
//!
//! 5. *Reasons are kinds, and they are learned.* Every death above is a fact about the commitments
//!    of a few kinds alone (the kinds of the crossed pairs or of the blocking set), so a dead
//!    subtree reports that *conflict set*, and a node whose choices all die reports the union. The
//!    commitments on those kinds are then a *nogood*: no clearing contains them all, whatever the
//!    other kinds do, so a commitment that would complete a learned nogood is refused at once,
//!    anywhere in the search and after restarts (each nogood watches two of its pairs, the way SAT
//!    solvers watch two literals of a clause, so a commitment looks only at the nogoods watching
//!    it). To keep reasons small, a blocking set found by elimination is shrunk first: the units of
//!    each committed kind are taken out in turn, and if the elimination still leaves a set that
//!    blocks itself, that smaller set is the reason (see `Search::shrink`; a trial gives up,
//!    keeping its kind, once it has taken away an eighth of the set: one that fails takes away all
//!    of it). Sets with more than 16 committed kinds are not shrunk: that took most of the time and
//!    rarely gave a nogood short enough to learn. The last 16 sets found are remembered and tried
//!    first at every node: one that still blocks itself (one pass of link tests on a board of its
//!    tiles) is the reason, with no elimination and no shrinking.
//!
//! The search picks an unpaired tile of the kind with the fewest live choices (fail first, and
//! a kind with one choice costs no branch), tries its partners (those that link now first),
//! jumps back over choices a child's conflict set does not mention, and remembers dead
//! positions (removed tiles plus commitments, Zobrist-hashed) in a set. It restarts with a
//! growing node limit (300 nodes, 30% more each time, 40 times, then no limit, so the search
//! stays complete), keeping what it learned and breaking ties between kinds and between
//! partners differently each time.
//!
//! Before the search and between its restarts, randomized *playouts* try their luck (a
//! quarter as many as the next restart's node limit, each charged as a few nodes, so they take
//! about 40% of the time): each removes pairs that link until the board is cleared or stuck,
//! taking a kind that can go whole at once, never a pair that would leave the last two tiles
//! of its kind dead by fact 3, and otherwise the better of two random pairs (the one leaving
//! its kind's last two tiles closer together). Many boards that take the search thousands of
//! nodes fall to a few hundred or thousand playouts; a playout that fails proves nothing, so
//! the complete search still decides the rest.
//!
//! Most of the time goes into link tests, so they are remembered: crossed pairs as a bitset
//! per pair (checked against a bitset of the committed pairs on the board), and links on the
//! real board along the current line of removals (a link found stays a link until the line
//! is undone). The elimination retests a unit only when a tile taken away lies in the rows or
//! columns its paths can use. Below the root a node's elimination starts by replaying its
//! parent's, in order: the child's board holds a subset of the parent's tiles, so a unit whose
//! reason still stands goes without a test, and only units whose kind was committed since (or
//! whose partner was) are tested; a full elimination runs only on what the replay leaves.
//! A playout remembers each pair's last test: a link stays a link,
//! and a failure stands until a removal frees a cell that both tiles may reach within the
//! allowed turns (`Grid::sighted`: bitboard fills of the free runs from the freed cells), since
//! a new path must run through such a cell. That cut a playout's link tests by about 6x. A
//! playout also keeps each kind's list of linking pairs until the kind loses tiles or one of
//! its tiles may reach a freed cell.

use std::collections::{HashMap, HashSet};

use crate::board::{Board, Kind, Pos};
use crate::solver::Rules;

use super::grid::{FREE, Grid};
use super::{Budget, Found, Meter, Stats, mix64};

/// The most pairs a learned nogood may have (longer ones rarely apply and cost checks).
const MAX_NOGOOD: usize = 24;

/// Blocking sets with more committed kinds than this are not shrunk: shrinking costs an
/// elimination per kind, and large sets rarely shrink to a nogood short enough to learn. On
/// 1000 8x18 deals with 150 ms each this settles 10 more than shrinking every set.
const MAX_SHRINK: u32 = 16;

/// A shrinking trial gives up (and keeps its kind) once it has taken away more than this
/// share (one in so many) of the set's tiles beyond its kind's own: a trial that succeeds
/// takes away few, one that fails takes away all. Seeds 69, 365, 423, 6598: 14%, 8%, 3% and
/// 10% fewer instructions a node (callgrind, 5,000 nodes), whole searches -25%, +0.02%,
/// -0.4% and 0 nodes (one in 16: 365 +35% nodes).
const GIVE_UP_SHARE: usize = 8;

/// Playouts before the search starts (about 0.1 ms each on 8x18).
const FIRST_PLAYOUTS: u64 = 50;

/// What a playout costs against the node budget: about as much time as this many nodes.
const PLAYOUT_COST: u64 = 3;

/// Restarts with a node limit of their own; the one after them runs to the end of the budget.
const RESTARTS: usize = 40;

/// The most nogoods a pair may belong to: every commitment of the pair checks them all, so
/// long searches stop learning about pairs that already have this many.
const MAX_WATCH: usize = 2048;

/// No partner.
const NONE: u16 = u16::MAX;

/// How many of the last blocking sets found are remembered and tried first at every node.
const LOCKS: usize = 16;

/// Memo of a pair-level fact: not computed yet, true, false.
const UNKNOWN: u8 = 0;
const YES: u8 = 1;
const NO: u8 = 2;

/// A reversible step, for undoing.
#[derive(Clone, Copy)]
enum Step {
    /// `t` and `u` were committed to each other.
    Commit(u16, u16),
    /// The committed pair `t`, `u` was removed from the board.
    Remove(u16, u16),
}

/// A unit taken away in elimination, with why it could go.
#[derive(Clone, Copy)]
enum Taken {
    /// The committed pair `t`, `u` linked.
    Pair(u16, u16),
    /// The unpaired tile `x` linked to `y`, an unpaired tile of its kind (in the set or not).
    Tile(u16, u16),
}

/// A set of kinds, a bit per kind (kinds from 63 on share the last bit, which only makes
/// the sets larger, never wrong).
type Kinds = u64;

/// The bit of kind `k`.
fn bit(k: usize) -> Kinds {
    1 << k.min(63)
}

/// The two tiles of four `tiles` that are not in the pair `p`.
fn other_two(tiles: &[u16], p: (u16, u16)) -> (u16, u16) {
    let mut others = tiles.iter().copied().filter(|&x| x != p.0 && x != p.1);
    (
        others.next().expect("four tiles"),
        others.next().expect("four tiles"),
    )
}

/// Sets (`on`) or clears bit `id` of a bitset stored as 64-bit words.
fn set_bit(bits: &mut [u64], id: usize, on: bool) {
    let (w, b) = (id / 64, 1u64 << (id % 64));
    if on {
        bits[w] |= b;
    } else {
        bits[w] &= !b;
    }
}

/// The result of a subtree.
///
/// A dead subtree carries its *conflict set* `C`, a set of kinds: no clearing exists whose
/// matching contains the commitments (of the position at the subtree's root) on the kinds in
/// `C`. Every reason the search gives for a death is a fact about committed pairs and unpaired
/// tiles of a few kinds alone (crossed pairs, blocking sets), never about the other tiles, so
/// the set stays small; a branch whose child's conflict set misses the branched kind fails for
/// the same reason whatever the kind's choice, and the search jumps back over the siblings
/// (conflict-directed backjumping).
#[derive(PartialEq, Eq)]
enum Result {
    Cleared,
    Dead(Kinds),
    Stopped,
}

/// A playout's state between its steps.
#[derive(Default)]
struct Playout {
    /// The tiles of each kind still on the playout board.
    left: Vec<Vec<u16>>,
    /// The removals so far.
    out: Vec<(u16, u16)>,
    /// Pair ids of the kinds down to their last two tiles.
    lasts: Vec<usize>,
    /// The pairs the next removal is chosen from.
    candidates: Vec<(u16, u16)>,
    /// Per kind, the pairs of its tiles left that link, as of the generation in `listed`.
    linking: Vec<Vec<(u16, u16)>>,
    /// Per kind, the playout generation at which `linking` was listed.
    listed: Vec<u64>,
    /// Per kind, the last generation at which it lost tiles or a tile of it may have come to
    /// link anew (see `Search::play_remove`).
    changed: Vec<u64>,
}

/// What one step of a playout did.
enum PlayStep {
    /// It removed a pair (or a whole kind).
    Removed,
    /// The playout cannot go on (stuck, or provably dead).
    Stuck,
    /// It removed nothing; the next removal is chosen among the candidates.
    Choose,
}

/// Buffers reused from node to node, so that a node allocates nothing once they have grown.
#[derive(Default)]
struct Buffers {
    /// The unpaired tiles of one kind (elimination, choices).
    free: Vec<u16>,
    /// Per committed pair and per kind of an elimination, the length of the log at its last
    /// failed test.
    pair_seen: Vec<usize>,
    kind_seen: Vec<usize>,
    /// The units of a node's elimination: committed pairs, and kinds with unpaired tiles.
    pairs: Vec<(u16, u16)>,
    kinds: Vec<usize>,
    /// Tiles taken away by the replay, and by the elimination after it.
    replayed: Vec<u16>,
    since: Vec<u16>,
    /// The units and log of a smaller set tried in `shrink`.
    trial_pairs: Vec<(u16, u16)>,
    trial_kinds: Vec<usize>,
    trial_log: Vec<u16>,
    /// The choices of the kind `pick_kind` is looking at.
    choices: Vec<Choice>,
    /// Per node depth, the choices of the kind it branches on.
    branches: Vec<Vec<Choice>>,
    /// The state of a playout.
    playout: Playout,
}

/// The state of the trials of one `Search::shrink`, so a trial can give up.
#[derive(Default)]
struct Shrinking {
    /// Whether the trials are running.
    on: bool,
    /// The most tiles the running trial may take away (see `GIVE_UP_SHARE`).
    limit: usize,
    /// Set once the running trial has taken away more than `limit` tiles: it gives up.
    gave_up: bool,
}

/// A blocking set found at some node, kept to be tried at later nodes: its units and kinds.
#[derive(Default)]
struct Lock {
    /// Its committed pairs.
    pairs: Vec<(u16, u16)>,
    /// Its unpaired tiles.
    tiles: Vec<u16>,
    /// The kinds of its units (the reason it gives).
    kinds: Kinds,
}

/// One choice for a tile: its partner, whether the pair links now, and whether the whole kind
/// can be removed now with this choice.
#[derive(Clone, Copy)]
struct Choice {
    t: u16,
    u: u16,
    links_now: bool,
    clears_kind: bool,
}

struct Search {
    grid: Grid,
    /// Scratch grid that stays empty between uses, for the crossed-pair test.
    scratch: Grid,
    /// Scratch grid for the blocking-set test.
    relaxed: Grid,
    /// Board row and column (padded) of each tile.
    tile_rc: Vec<(u8, u8)>,
    max_turns: u8,
    /// Scratch copy of `relaxed`, for shrinking a blocking set.
    saved: Grid,
    /// Per tile, whether it is an unpaired tile still in the blocking set being eliminated.
    in_set: Vec<bool>,
    /// Scratch copy of `in_set`, for shrinking a blocking set.
    saved_in_set: Vec<bool>,
    /// While a blocking set is shrunk, what its trials know (see `Search::shrink`).
    shrinking: Shrinking,
    /// Per node depth of the current line, the units its elimination took away, in order
    /// (`node_depth` is the depth of the node being expanded; the root is 1).
    elim_logs: Vec<Vec<Taken>>,
    node_depth: usize,
    /// The units taken away by the running elimination, when `recording`.
    record: Vec<Taken>,
    recording: bool,
    /// The board as dealt, for playouts.
    initial: Grid,
    /// The board of the current playout.
    play: Grid,
    /// Per pair, its last link test in a playout: the playout generation times two, plus one
    /// if the pair linked (see `play_links`).
    play_tested: Vec<u64>,
    /// Per tile, the last playout generation whose freed cells it may reach.
    play_seen: Vec<u64>,
    /// Playout generation: one more at every playout removal and at every playout's start.
    play_gen: u64,
    /// The generation at which the current playout started.
    play_start: u64,
    /// Scratch for `Grid::sighted`.
    play_sighted: Vec<u64>,
    /// The tile at each padded cell of the board as dealt (`NONE` for none).
    tile_at: Vec<u16>,

    at: Vec<usize>,
    kind: Vec<u16>,
    /// Tiles of each kind.
    tiles_of: Vec<Vec<u16>>,
    /// Pair id of every two tiles of one kind, indexed `t * stride + index_in_kind[u]`.
    pair_of: Vec<u32>,
    /// The most tiles of one kind (the row length of `pair_of`).
    stride: usize,
    /// Per tile, its index among the tiles of its kind.
    index_in_kind: Vec<u16>,
    alive: Vec<bool>,
    partner: Vec<u16>,
    /// Unpaired live tiles per kind.
    unpaired: Vec<u16>,
    /// Committed pairs still on the board.
    pending: Vec<(u16, u16)>,
    steps: Vec<Step>,
    removals: Vec<(u16, u16)>,
    best: Vec<(u16, u16)>,
    tile_key: Vec<u64>,
    hash: u64,
    /// Positions proven dead, with their conflict sets.
    dead: HashMap<u64, Kinds>,
    /// Per pair: does it link with no other tile on the board?
    alone: Vec<u8>,
    /// Words per row of a pair bitset (`pairs` bits).
    words: usize,
    /// The two tiles of each pair.
    pair_tiles: Vec<(u16, u16)>,
    /// Per pair, a row of `words` words: bit `q` is set once the crossed test of the pair
    /// with pair `q` has been made.
    crossed_known: Vec<u64>,
    /// Per pair, likewise: bit `q` is set when the two pairs block each other (neither links
    /// beside the other alone).
    crossed_yes: Vec<u64>,
    /// The committed pairs on the board, as a bitset of pair ids.
    pending_bits: Vec<u64>,
    /// Every committed pair (on the board or removed), as a bitset of pair ids.
    committed_bits: Vec<u64>,
    /// Learned nogoods: sets of pairs (ids) that no clearing contains all of. The first two
    /// pairs of each are its watches (see [`Search::move_watches`]).
    nogoods: Vec<Vec<u32>>,
    /// Per pair, the nogoods that watch it.
    watch: Vec<Vec<u32>>,
    /// Per pair, how many nogoods it belongs to.
    memberships: Vec<u32>,
    /// Per pair, where its last commitment stands on the step stack.
    committed_at: Vec<u32>,
    /// Hashes of the nogoods learned, so each is kept once.
    nogood_keys: HashSet<u64>,
    /// The last blocking sets found (at most `LOCKS`), and the slot the next one takes.
    locks: Vec<Lock>,
    next_lock: usize,
    /// Under test, the remembered locks found to hold, checked against a full elimination.
    #[cfg(test)]
    locks_checked: u64,

    /// A stamp per removal depth (`stamps[d]` names the board after the first `d` removals of
    /// the current line), so a link found on an earlier board of the line is known to hold.
    stamps: Vec<u64>,
    next_stamp: u64,
    /// Per pair, the last link test on the real board: depth, stamp, result. A link on the
    /// board at depth `d` still holds on every later board of the same line (removals only
    /// empty cells); a failure holds only on that very board.
    link_memo: Vec<(u32, u64, bool)>,
    meter: Meter,
    /// The node count at which the current restart gives up.
    restart_at: u64,
    /// Where the scan for the kind to branch on starts (varies between restarts).
    offset: usize,
    buffers: Buffers,
}

/// Runs the search on `board` (kinds mapped by `dense` to `0..kinds`).
pub(super) fn search(
    board: &Board,
    rules: Rules,
    budget: Budget,
    dense: &dyn Fn(Kind) -> u16,
    kinds: usize,
) -> Found {
    let mut search = new_search(board, rules, budget, dense, kinds);
    let mut result = Result::Dead(0);
    if search.force_all() {
        // Restarts with a growing node limit and a different scan order: a search that took
        // a poor early branch gets another start. Dead positions stay dead, so the memo is
        // kept, and the last restart has no limit of its own, so the search stays complete.
        let root = search.steps.len();
        // Short and many: on the 75 hardest of 1000 8x18 deals, 300 nodes growing by 30% for
        // 40 restarts settles 26 within 20k nodes, against 18 for 2000 by 50% for 12.
        let mut limit = 300u64;
        let mut played = 0u64;
        for restart in 0.. {
            // Playouts first and between the restarts with a limit, a quarter as many as the
            // nodes of the next restart (so they take about 40% of the time).
            let batch = match restart {
                0 => FIRST_PLAYOUTS,
                1..RESTARTS => limit / 4,
                _ => 0,
            };
            for _ in 0..batch {
                if !search.meter.spend(PLAYOUT_COST) {
                    break;
                }
                played += 1;
                if let Some(removals) = search.playout(played) {
                    search.removals = removals;
                    result = Result::Cleared;
                    break;
                }
            }
            if result == Result::Cleared {
                break;
            }
            if search.meter.stopped {
                result = Result::Stopped;
                break;
            }
            search.restart_at = if restart < RESTARTS {
                search.meter.nodes + limit
            } else {
                u64::MAX
            };
            search.offset = restart * 7;
            result = search.node();
            if result != Result::Stopped || search.meter.stopped {
                break;
            }
            search.undo_to(root);
            limit = limit * 13 / 10;
        }
    }
    let stats = Stats {
        nodes: search.meter.nodes,
        exhausted: matches!(result, Result::Dead(_)),
        out_of_budget: result == Result::Stopped,
        unsearchable: None,
    };
    let (cleared, chosen) = if result == Result::Cleared {
        (true, &search.removals)
    } else {
        (false, &search.best)
    };
    let removals = chosen
        .iter()
        .map(|&(t, u)| (search.pos(t), search.pos(u)))
        .collect();
    Found {
        removals,
        cleared,
        stats,
    }
}

/// The tiles of a board: the padded cell and dense kind of each, and the tiles of each kind.
struct Tiles {
    at: Vec<usize>,
    kind: Vec<u16>,
    of_kind: Vec<Vec<u16>>,
}

impl Tiles {
    /// The tiles of `grid` in cell order, kinds `0..kinds`.
    fn of_grid(grid: &Grid, kinds: usize) -> Self {
        let mut tiles = Tiles {
            at: Vec::new(),
            kind: Vec::new(),
            of_kind: vec![Vec::new(); kinds],
        };
        for (i, &k) in grid.cells().iter().enumerate() {
            if k != FREE && k != super::grid::WALL {
                let t = tiles.at.len() as u16;
                let d = k - 1;
                tiles.at.push(i);
                tiles.kind.push(d);
                tiles.of_kind[d as usize].push(t);
            }
        }
        tiles
    }
}

/// The ids of the pairs of same-kind tiles (see `Search::pair_id`).
struct PairTable {
    /// Pair id of every two tiles of one kind, indexed `t * stride + index_in_kind[u]`.
    pair_of: Vec<u32>,
    /// The most tiles of one kind.
    stride: usize,
    /// Per tile, its index among the tiles of its kind.
    index_in_kind: Vec<u16>,
    /// The two tiles of each pair.
    pair_tiles: Vec<(u16, u16)>,
}

impl PairTable {
    /// Numbers the pairs of each kind in turn, `n` tiles in all.
    fn new(tiles_of: &[Vec<u16>], n: usize) -> Self {
        let mut pair_base = Vec::with_capacity(tiles_of.len());
        let mut pairs = 0;
        for tiles in tiles_of {
            pair_base.push(pairs);
            pairs += tiles.len() * tiles.len().saturating_sub(1) / 2;
        }
        let stride = tiles_of.iter().map(Vec::len).max().unwrap_or(0);
        let mut table = PairTable {
            pair_of: vec![u32::MAX; n * stride],
            stride,
            index_in_kind: vec![0u16; n],
            pair_tiles: vec![(0, 0); pairs],
        };
        for (k, tiles) in tiles_of.iter().enumerate() {
            let m = tiles.len();
            for (i, &t) in tiles.iter().enumerate() {
                table.index_in_kind[t as usize] = i as u16;
                for (j, &u) in tiles.iter().enumerate().skip(i + 1) {
                    let id = pair_base[k] + i * (2 * m - i - 1) / 2 + (j - i - 1);
                    table.pair_of[t as usize * stride + j] = id as u32;
                    table.pair_of[u as usize * stride + i] = id as u32;
                    table.pair_tiles[id] = (t, u);
                }
            }
        }
        table
    }
}

/// The tile at each padded cell of `grid` (`NONE` for none), from the tiles' cells `at`.
fn tile_at_cells(grid: &Grid, at: &[usize]) -> Vec<u16> {
    let mut tile_at = vec![NONE; grid.cells().len()];
    for (t, &i) in at.iter().enumerate() {
        tile_at[i] = t as u16;
    }
    tile_at
}

/// The (row, column) of each tile's padded cell `at`.
fn tile_rows_cols(grid: &Grid, at: &[usize]) -> Vec<(u8, u8)> {
    at.iter()
        .map(|&i| {
            let (r, c) = grid.row_col(i);
            (r as u8, c as u8)
        })
        .collect()
}

/// The search state for `board` before any commitment.
fn new_search(
    board: &Board,
    rules: Rules,
    budget: Budget,
    dense: &dyn Fn(Kind) -> u16,
    kinds: usize,
) -> Search {
    let grid = Grid::of_board(board, rules, dense);
    let Tiles { at, kind, of_kind } = Tiles::of_grid(&grid, kinds);
    let n = at.len();
    let table = PairTable::new(&of_kind, n);
    let pairs = table.pair_tiles.len();
    let words = pairs.div_ceil(64);
    Search {
        pair_of: table.pair_of,
        stride: table.stride,
        index_in_kind: table.index_in_kind,
        pair_tiles: table.pair_tiles,
        relaxed: grid.clone(),
        saved: grid.clone(),
        in_set: vec![false; n],
        saved_in_set: vec![false; n],
        shrinking: Shrinking::default(),
        elim_logs: Vec::new(),
        node_depth: 0,
        record: Vec::new(),
        recording: false,
        initial: grid.clone(),
        play: grid.clone(),
        play_tested: vec![0; pairs],
        play_seen: vec![0; n],
        play_gen: 0,
        play_start: 0,
        play_sighted: Vec::new(),
        tile_at: tile_at_cells(&grid, &at),
        tile_rc: tile_rows_cols(&grid, &at),
        max_turns: rules.max_turns,
        scratch: Grid::empty(board.rows(), board.cols(), rules),
        grid,
        at,
        kind,
        unpaired: of_kind.iter().map(|t| t.len() as u16).collect(),
        tiles_of: of_kind,
        alive: vec![true; n],
        partner: vec![NONE; n],
        pending: Vec::new(),
        steps: Vec::new(),
        removals: Vec::new(),
        best: Vec::new(),
        tile_key: (0..n as u64).map(|i| mix64(i ^ 0x5eed)).collect(),
        hash: 0,
        dead: HashMap::new(),
        alone: vec![UNKNOWN; pairs],
        words,
        crossed_known: vec![0; pairs * words],
        crossed_yes: vec![0; pairs * words],
        pending_bits: vec![0; words],
        committed_bits: vec![0; words],
        nogoods: Vec::new(),
        watch: vec![Vec::new(); pairs],
        memberships: vec![0; pairs],
        committed_at: vec![0; pairs],
        nogood_keys: HashSet::new(),
        stamps: vec![0],
        next_stamp: 1,
        link_memo: vec![(u32::MAX, 0, false); pairs],
        meter: Meter::new(budget),
        restart_at: u64::MAX,
        offset: 0,
        buffers: Buffers::default(),
        locks: Vec::new(),
        next_lock: 0,
        #[cfg(test)]
        locks_checked: 0,
    }
}

impl Search {
    /// Whether tile `t` is on the board and not committed to a partner.
    fn is_unpaired(&self, t: u16) -> bool {
        self.alive[t as usize] && self.partner[t as usize] == NONE
    }

    /// One randomized playout from the board as dealt: removes pairs that link until the board
    /// is cleared (returns the removals) or no sensible pair is left (returns `None`).
    ///
    /// Each step first removes a kind that can go whole right now (safe by fact 1 of the module
    /// docs). Otherwise it picks at random among the pairs that link, skipping any pair that
    /// would leave the last two tiles of its kind unable to link even alone, or crossed with the
    /// last two of another kind (fact 3); a playout that meets such a dead end stops at once.
    fn playout(&mut self, seed: u64) -> Option<Vec<(u16, u16)>> {
        let mut game = std::mem::take(&mut self.buffers.playout);
        game.left.clone_from(&self.tiles_of);
        game.out.clear();
        let kinds = self.tiles_of.len();
        game.linking.resize_with(kinds, Vec::new);
        game.listed.resize(kinds, 0);
        game.changed.resize(kinds, 0);
        let cleared = self.play_out(&mut game, seed);
        let removals = cleared.then(|| game.out.clone());
        self.buffers.playout = game;
        removals
    }

    /// Plays a playout from the board as dealt with the state `game` (its tiles of each kind
    /// set, no removals); whether it cleared the board.
    fn play_out(&mut self, game: &mut Playout, seed: u64) -> bool {
        self.play.copy_from(&self.initial);
        let n = self.at.len();
        let mut rng = mix64(seed ^ 0xabc);
        self.play_gen += 1;
        self.play_start = self.play_gen;
        while game.out.len() * 2 < n {
            match self.play_last_pairs(game) {
                PlayStep::Removed => continue,
                PlayStep::Stuck => return false,
                PlayStep::Choose => {}
            }
            match self.play_candidates(game) {
                PlayStep::Removed => continue,
                PlayStep::Stuck => return false,
                PlayStep::Choose => {}
            }
            let (t, u) = self.best_of_two(game, &mut rng);
            let k = self.kind[t as usize] as usize;
            self.play_remove(game, k, t, u);
        }
        true
    }

    /// A playout's kinds down to their last two tiles: removes the first such pair that links,
    /// or finds the playout dead (a lone tile, a last pair that cannot link even alone, or two
    /// last pairs crossed); otherwise lists the last pairs' ids in `game.lasts`.
    fn play_last_pairs(&mut self, game: &mut Playout) -> PlayStep {
        game.lasts.clear();
        for k in 0..game.left.len() {
            match game.left[k].len() {
                1 => return PlayStep::Stuck,
                2 => {
                    let (t, u) = (game.left[k][0], game.left[k][1]);
                    if self.play_links(t, u) {
                        self.play_remove(game, k, t, u);
                        return PlayStep::Removed;
                    }
                    if !self.links_alone(t, u) {
                        return PlayStep::Stuck;
                    }
                    let id = self.pair_id(t, u);
                    if game.lasts.iter().any(|&q| self.crossed_ids(id, q)) {
                        return PlayStep::Stuck;
                    }
                    game.lasts.push(id);
                }
                _ => {}
            }
        }
        PlayStep::Choose
    }

    /// The pairs a playout may remove, into `game.candidates`, from kinds of three tiles or
    /// more: a kind of four that can go whole is removed at once; otherwise every pair that
    /// links, except (in a kind of four) one that leaves a last pair dead by fact 3.
    fn play_candidates(&mut self, game: &mut Playout) -> PlayStep {
        game.candidates.clear();
        for k in 0..game.left.len() {
            let m = game.left[k].len();
            if m < 3 {
                continue;
            }
            // A kind's list stands until it loses tiles or one of them may link anew.
            if game.listed[k] < self.play_start || game.changed[k] > game.listed[k] {
                let mut linking = std::mem::take(&mut game.linking[k]);
                linking.clear();
                for i in 0..m {
                    for j in i + 1..m {
                        let (t, u) = (game.left[k][i], game.left[k][j]);
                        if self.play_links(t, u) {
                            linking.push((t, u));
                        }
                    }
                }
                game.linking[k] = linking;
                game.listed[k] = self.play_gen;
            }
            let linking = &game.linking[k];
            if m != 4 {
                game.candidates.extend_from_slice(linking);
                continue;
            }
            // A whole kind that goes now: both pairs of a matching link.
            let whole = linking.iter().find_map(|&p| {
                let rest = other_two(&game.left[k], p);
                linking.contains(&rest).then_some((p, rest))
            });
            if let Some((p, rest)) = whole {
                self.play_remove(game, k, p.0, p.1);
                self.play_remove(game, k, rest.0, rest.1);
                return PlayStep::Removed;
            }
            for i in 0..game.linking[k].len() {
                let (t, u) = game.linking[k][i];
                let rest = other_two(&game.left[k], (t, u));
                if !self.links_alone(rest.0, rest.1) {
                    continue;
                }
                let id = self.pair_id(rest.0, rest.1);
                if game.lasts.iter().any(|&q| self.crossed_ids(id, q)) {
                    continue;
                }
                game.candidates.push((t, u));
            }
        }
        if game.candidates.is_empty() {
            PlayStep::Stuck
        } else {
            PlayStep::Choose
        }
    }

    /// Best of two random candidates: the pair that leaves the last two tiles of its kind
    /// closer together (a close pair is less likely to be walled in or to wall in others).
    fn best_of_two(&self, game: &Playout, rng: &mut u64) -> (u16, u16) {
        let cand = &game.candidates;
        *rng = mix64(*rng);
        let mut pick = (*rng % cand.len() as u64) as usize;
        *rng = mix64(*rng);
        let other = (*rng % cand.len() as u64) as usize;
        if self.spread_after(&game.left, cand[other]) < self.spread_after(&game.left, cand[pick]) {
            pick = other;
        }
        cand[pick]
    }

    /// Whether `t`, `u` link on the playout board. A link found stays a link; a failed test
    /// stands until a removal frees cells that both tiles may reach (`Grid::sighted`), since
    /// only a path through such a cell can be new.
    fn play_links(&mut self, t: u16, u: u16) -> bool {
        let id = self.pair_id(t, u);
        let last = self.play_tested[id];
        let tested = last >> 1;
        if tested >= self.play_start {
            if last & 1 == 1 {
                return true;
            }
            if self.play_seen[t as usize] <= tested || self.play_seen[u as usize] <= tested {
                return false;
            }
        }
        let linked = self.play.links(self.at[t as usize], self.at[u as usize]);
        self.play_tested[id] = self.play_gen << 1 | u64::from(linked);
        linked
    }

    /// The distance (rows plus columns) between the last two tiles of a kind once the pair
    /// `p` is removed from the tiles `left` (0 when not exactly two would be left).
    fn spread_after(&self, left: &[Vec<u16>], p: (u16, u16)) -> u32 {
        let k = self.kind[p.0 as usize] as usize;
        let mut rest = left[k].iter().filter(|&&x| x != p.0 && x != p.1);
        match (rest.next(), rest.next(), rest.next()) {
            (Some(&a), Some(&b), None) => {
                let ((ra, ca), (rb, cb)) = (self.tile_rc[a as usize], self.tile_rc[b as usize]);
                u32::from(ra.abs_diff(rb)) + u32::from(ca.abs_diff(cb))
            }
            _ => 0,
        }
    }

    /// Removes `t`, `u` (of kind `k`) in a playout.
    fn play_remove(&mut self, game: &mut Playout, k: usize, t: u16, u: u16) {
        let freed = [self.at[t as usize], self.at[u as usize]];
        self.play.set(freed[0], FREE);
        self.play.set(freed[1], FREE);
        game.left[k].retain(|&x| x != t && x != u);
        game.out.push((t, u));
        self.play_gen += 1;
        game.changed[k] = self.play_gen;
        self.play.sighted(&freed, &mut self.play_sighted);
        let width = self.play.width;
        for (r, &word) in self.play_sighted.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let v = self.tile_at[r * width + bits.trailing_zeros() as usize];
                if v != NONE {
                    self.play_seen[v as usize] = self.play_gen;
                    game.changed[self.kind[v as usize] as usize] = self.play_gen;
                }
                bits &= bits - 1;
            }
        }
    }

    fn pos(&self, t: u16) -> Pos {
        let (r, c) = self.grid.row_col(self.at[t as usize]);
        Pos::new(r as i32, c as i32)
    }

    /// The id of the pair of two tiles of one kind.
    fn pair_id(&self, t: u16, u: u16) -> usize {
        self.pair_of[t as usize * self.stride + self.index_in_kind[u as usize] as usize] as usize
    }

    fn commit_key(&self, t: u16, u: u16) -> u64 {
        mix64((self.pair_id(t, u) as u64) ^ 0xc0ff_ee00_0000_0000)
    }

    /// Whether `t` and `u` link on the real board, remembered along the line of removals.
    fn links(&mut self, t: u16, u: u16) -> bool {
        let id = self.pair_id(t, u);
        let depth = self.removals.len();
        let (d, stamp, linked) = self.link_memo[id];
        let d = d as usize;
        if d <= depth && self.stamps[d] == stamp && (linked || d == depth) {
            return linked;
        }
        let linked = self.grid.links(self.at[t as usize], self.at[u as usize]);
        self.link_memo[id] = (depth as u32, self.stamps[depth], linked);
        linked
    }

    /// Whether the pair links with no other tile on the board.
    fn links_alone(&mut self, t: u16, u: u16) -> bool {
        let id = self.pair_id(t, u);
        if self.alone[id] == UNKNOWN {
            let (a, b) = (self.at[t as usize], self.at[u as usize]);
            let k = self.kind[t as usize] + 1;
            self.scratch.set(a, k);
            self.scratch.set(b, k);
            let linked = self.scratch.links(a, b);
            self.scratch.set(a, FREE);
            self.scratch.set(b, FREE);
            self.alone[id] = if linked { YES } else { NO };
        }
        self.alone[id] == YES
    }

    /// Whether two disjoint pairs block each other: neither links on a board of just the four.
    fn crossed(&mut self, p: (u16, u16), q: (u16, u16)) -> bool {
        let (ip, iq) = (self.pair_id(p.0, p.1), self.pair_id(q.0, q.1));
        self.crossed_ids(ip, iq)
    }

    /// [`Search::crossed`] by pair ids, remembered in both rows.
    fn crossed_ids(&mut self, ip: usize, iq: usize) -> bool {
        let (w, b) = (iq / 64, 1u64 << (iq % 64));
        if self.crossed_known[ip * self.words + w] & b == 0 {
            let (p, q) = (self.pair_tiles[ip], self.pair_tiles[iq]);
            let cells = [p.0, p.1, q.0, q.1].map(|t| self.at[t as usize]);
            for (&cell, t) in cells.iter().zip([p.0, p.1, q.0, q.1]) {
                self.scratch.set(cell, self.kind[t as usize] + 1);
            }
            let blocked =
                !self.scratch.links(cells[0], cells[1]) && !self.scratch.links(cells[2], cells[3]);
            for &cell in &cells {
                self.scratch.set(cell, FREE);
            }
            for (row, col) in [(ip, iq), (iq, ip)] {
                let (w, b) = (col / 64, 1u64 << (col % 64));
                self.crossed_known[row * self.words + w] |= b;
                if blocked {
                    self.crossed_yes[row * self.words + w] |= b;
                }
            }
        }
        self.crossed_yes[ip * self.words + w] & b != 0
    }

    /// A committed pair on the board that blocks pair `ip` (see [`Search::crossed`]).
    fn crossing_pending(&mut self, ip: usize) -> Option<usize> {
        let row = ip * self.words;
        for w in 0..self.words {
            let mut unknown = self.pending_bits[w] & !self.crossed_known[row + w];
            while unknown != 0 {
                let iq = w * 64 + unknown.trailing_zeros() as usize;
                unknown &= unknown - 1;
                self.crossed_ids(ip, iq);
            }
            let hit = self.pending_bits[w] & self.crossed_yes[row + w];
            if hit != 0 {
                return Some(w * 64 + hit.trailing_zeros() as usize);
            }
        }
        None
    }

    /// Whether committing `t` to `u` would complete a learned nogood; its kinds if so.
    ///
    /// Only the nogoods watching the pair are looked at: while a watch of a nogood is
    /// committed, so are all its pairs but the other watch (see [`Search::move_watches`]), so
    /// the pair completes a nogood exactly when the nogood's other watch is committed. Of
    /// several, the one learned first gives the reason.
    fn completes_nogood(&self, t: u16, u: u16) -> Option<Kinds> {
        let id = self.pair_id(t, u) as u32;
        let g = self.watch[id as usize]
            .iter()
            .copied()
            .filter(|&g| {
                let nogood = &self.nogoods[g as usize];
                let other = if nogood[0] == id {
                    nogood.get(1)
                } else {
                    nogood.first()
                };
                other.is_none_or(|&q| self.is_committed(q))
            })
            .min();
        #[cfg(test)]
        {
            let scanned = (0..self.nogoods.len() as u32).find(|&g| {
                let nogood = &self.nogoods[g as usize];
                nogood.contains(&id) && nogood.iter().all(|&q| q == id || self.is_committed(q))
            });
            assert_eq!(
                g, scanned,
                "the watches disagree with a scan of every nogood"
            );
            tests::NOGOOD_CHECKS.with(|n| n.set(n.get() + 1));
        }
        let g = g?;
        let mut kinds = 0;
        for &q in &self.nogoods[g as usize] {
            kinds |= bit(self.kind[self.pair_tiles[q as usize].0 as usize] as usize);
        }
        Some(kinds)
    }

    /// Whether pair `q` is committed (on the board or removed).
    fn is_committed(&self, q: u32) -> bool {
        self.committed_bits[q as usize / 64] & (1 << (q % 64)) != 0
    }

    /// After pair `q` was committed: each nogood watching it moves that watch to a pair of its
    /// own not committed, when it has one. So a committed watch means every pair of the nogood
    /// but the other watch is committed (two watched pairs per nogood, as SAT solvers watch
    /// two literals per clause); undoing commitments, last first, keeps that true with no work.
    fn move_watches(&mut self, q: u32) {
        let mut i = 0;
        while i < self.watch[q as usize].len() {
            let g = self.watch[q as usize][i] as usize;
            let nogood = &mut self.nogoods[g];
            if nogood[0] != q {
                nogood.swap(0, 1);
            }
            let committed = &self.committed_bits;
            let free = nogood[2.min(nogood.len())..]
                .iter()
                .position(|&r| committed[r as usize / 64] & (1 << (r % 64)) == 0);
            match free {
                Some(j) => {
                    nogood.swap(0, j + 2);
                    self.watch[nogood[0] as usize].push(g as u32);
                    self.watch[q as usize].swap_remove(i);
                }
                None => i += 1,
            }
        }
    }

    /// Learns the nogood of a dead position: its commitments on the kinds in `conflict`.
    fn learn(&mut self, conflict: Kinds) {
        let mut nogood = Vec::new();
        for (k, tiles) in self.tiles_of.iter().enumerate() {
            if conflict & bit(k) == 0 {
                continue;
            }
            for &t in tiles {
                let u = self.partner[t as usize];
                if u != NONE && t < u {
                    nogood.push(self.pair_id(t, u) as u32);
                }
            }
        }
        if nogood.is_empty()
            || nogood.len() > MAX_NOGOOD
            || nogood
                .iter()
                .any(|&q| self.memberships[q as usize] as usize >= MAX_WATCH)
        {
            return;
        }
        nogood.sort_unstable();
        let key = nogood.iter().fold(0u64, |h, &q| mix64(h ^ u64::from(q)));
        if !self.nogood_keys.insert(key) {
            return;
        }
        // Watch the two pairs committed last: undone first, and while either is committed
        // all the others are.
        nogood.sort_unstable_by_key(|&q| std::cmp::Reverse(self.committed_at[q as usize]));
        let g = self.nogoods.len() as u32;
        for &q in &nogood {
            self.memberships[q as usize] += 1;
        }
        for &q in nogood.iter().take(2) {
            self.watch[q as usize].push(g);
        }
        self.nogoods.push(nogood);
    }

    /// Whether committing `t` with `u` (both unpaired) is provably dead: the pair cannot link
    /// alone, or it is crossed with a committed pair on the board (or with `extra`). The reason
    /// is the kinds involved.
    fn doomed(&mut self, t: u16, u: u16, extra: Option<(u16, u16)>) -> Option<Kinds> {
        let own = bit(self.kind[t as usize] as usize);
        if !self.links_alone(t, u) {
            return Some(own);
        }
        if let Some(q) = extra
            && self.crossed((t, u), q)
        {
            return Some(own | bit(self.kind[q.0 as usize] as usize));
        }
        let ip = self.pair_id(t, u);
        self.crossing_pending(ip).map(|iq| {
            let q = self.pair_tiles[iq];
            own | bit(self.kind[q.0 as usize] as usize)
        })
    }

    /// The kinds with at least one committed pair (on the board or removed).
    fn committed_kinds(&self) -> Kinds {
        let mut kinds = 0;
        for (k, tiles) in self.tiles_of.iter().enumerate() {
            if (self.unpaired[k] as usize) < tiles.len() {
                kinds |= bit(k);
            }
        }
        kinds
    }

    /// Commits `t` to `u`, then forces the kind's last two unpaired tiles together if that is
    /// all that is left; on a provably dead result, the kinds that explain it (as for a
    /// dead subtree; the steps taken stay for the caller to undo).
    fn commit(&mut self, t: u16, u: u16) -> std::result::Result<(), Kinds> {
        if let Some(reason) = self.doomed(t, u, None) {
            return Err(reason);
        }
        if let Some(reason) = self.completes_nogood(t, u) {
            return Err(reason);
        }
        self.partner[t as usize] = u;
        self.partner[u as usize] = t;
        let k = self.kind[t as usize] as usize;
        self.unpaired[k] -= 2;
        self.pending.push((t, u));
        let id = self.pair_id(t, u);
        set_bit(&mut self.pending_bits, id, true);
        set_bit(&mut self.committed_bits, id, true);
        self.committed_at[id] = self.steps.len() as u32;
        self.move_watches(id as u32);
        self.hash ^= self.commit_key(t, u);
        self.steps.push(Step::Commit(t, u));
        self.force(k)
    }

    /// Commits the last two unpaired tiles of kind `k` if exactly two are left; `false` if the
    /// kind is dead (one unpaired tile, or a forced pair that is doomed), with the reason.
    fn force(&mut self, k: usize) -> std::result::Result<(), Kinds> {
        match self.unpaired[k] {
            1 => Err(bit(k)),
            2 => {
                let mut free = self.tiles_of[k]
                    .iter()
                    .copied()
                    .filter(|&t| self.is_unpaired(t));
                let (t, u) = (free.next().expect("two"), free.next().expect("two"));
                self.commit(t, u)
            }
            _ => Ok(()),
        }
    }

    /// Forces every kind at the root.
    fn force_all(&mut self) -> bool {
        (0..self.tiles_of.len()).all(|k| self.force(k).is_ok())
    }

    fn remove(&mut self, index: usize) {
        let (t, u) = self.pending.swap_remove(index);
        let id = self.pair_id(t, u);
        set_bit(&mut self.pending_bits, id, false);
        for x in [t, u] {
            self.alive[x as usize] = false;
            self.grid.set(self.at[x as usize], FREE);
        }
        self.hash ^= self.commit_key(t, u) ^ self.tile_key[t as usize] ^ self.tile_key[u as usize];
        self.removals.push((t, u));
        self.stamps.push(self.next_stamp);
        self.next_stamp += 1;
        self.steps.push(Step::Remove(t, u));
    }

    /// Removes committed pairs while any links; returns whether the board is cleared.
    fn settle(&mut self) {
        loop {
            let mut changed = false;
            let mut i = 0;
            while i < self.pending.len() {
                let (t, u) = self.pending[i];
                if self.links(t, u) {
                    self.remove(i);
                    changed = true;
                } else {
                    i += 1;
                }
            }
            if !changed {
                break;
            }
        }
    }

    fn undo_to(&mut self, mark: usize) {
        while self.steps.len() > mark {
            match self.steps.pop().expect("a step above the mark") {
                Step::Commit(t, u) => {
                    let index = self
                        .pending
                        .iter()
                        .rposition(|&p| p == (t, u))
                        .expect("an undone commit is pending");
                    self.pending.swap_remove(index);
                    let id = self.pair_id(t, u);
                    set_bit(&mut self.pending_bits, id, false);
                    set_bit(&mut self.committed_bits, id, false);
                    self.partner[t as usize] = NONE;
                    self.partner[u as usize] = NONE;
                    self.unpaired[self.kind[t as usize] as usize] += 2;
                    self.hash ^= self.commit_key(t, u);
                }
                Step::Remove(t, u) => {
                    for x in [t, u] {
                        self.alive[x as usize] = true;
                        self.grid
                            .set(self.at[x as usize], self.kind[x as usize] + 1);
                    }
                    self.hash ^= self.commit_key(t, u)
                        ^ self.tile_key[t as usize]
                        ^ self.tile_key[u as usize];
                    self.removals.pop();
                    self.stamps.pop();
                    self.pending.push((t, u));
                    let id = self.pair_id(t, u);
                    set_bit(&mut self.pending_bits, id, true);
                }
            }
        }
    }

    /// The live choices for the first unpaired tile of kind `k`, those that clear the kind
    /// first, then those that remove a pair now.
    /// Returns the reasons of the choices left out as doomed.
    fn choices(&mut self, k: usize, out: &mut Vec<Choice>) -> Kinds {
        out.clear();
        let mut why = bit(k);
        let mut free = std::mem::take(&mut self.buffers.free);
        self.free_tiles(k, &mut free);
        let t = free[0];
        for &u in &free[1..] {
            // With four unpaired tiles the choice fixes the other pair too.
            let rest = (free.len() == 4).then(|| other_two(&free, (t, u)));
            if let Some(reason) = self.doomed(t, u, None) {
                why |= reason;
                continue;
            }
            if let Some((v, w)) = rest
                && let Some(reason) = self.doomed(v, w, Some((t, u)))
            {
                why |= reason;
                continue;
            }
            let (links_now, clears_kind) = match rest {
                Some((v, w)) => {
                    let (tu, vw) = (self.links(t, u), self.links(v, w));
                    let clears = (tu && (vw || self.links_after(v, w, (t, u))))
                        || (vw && self.links_after(t, u, (v, w)));
                    (tu || vw, clears)
                }
                None => (self.links(t, u), false),
            };
            out.push(Choice {
                t,
                u,
                links_now,
                clears_kind,
            });
        }
        self.buffers.free = free;
        // Ties are broken by tile order on the first run and in a different pseudo-random order
        // on each restart.
        let salt = self.offset as u64;
        out.sort_by_key(|c| {
            let id = self.pair_id(c.t, c.u) as u64;
            let tie = if salt == 0 { 0 } else { mix64(id ^ salt) };
            (!c.clears_kind, !c.links_now, tie)
        });
        why
    }

    /// The blocking-set test: whether some set of units (committed pairs, and unpaired tiles)
    /// can never lose its first tile.
    ///
    /// The first removal that touches such a set happens while all its tiles are in place, and
    /// every other tile may be gone by then. A committed pair goes with its partner; an unpaired
    /// tile with any unpaired tile of its kind, in the set or not (one outside is on the board
    /// or not, and its cell counts as free either way, being the path's end). So if no pair of
    /// the set's units links on a board holding only the set's tiles, the position is dead,
    /// whatever the order of the other removals. The largest such set is found by elimination:
    /// start from every unit on the real board and repeatedly take away (empty the cells of) a
    /// committed pair that links, or an unpaired tile that links to an unpaired tile of its
    /// kind; whatever cannot be taken away blocks itself. Taking a unit away only empties
    /// cells, so the order of elimination does not matter, and a set that blocks itself is
    /// never taken away. (Taking away the unpaired tiles one at a time, not their whole kind at
    /// once, lets a kind whose other tiles can pair up still lock the tiles it cannot free.)
    ///
    /// Returns the kinds of the blocking set, if there is one.
    fn blocked(&mut self) -> Option<Kinds> {
        if let Some(kinds) = self.remembered_lock() {
            // Unit tests check that a full elimination finds a blocking set too.
            #[cfg(test)]
            {
                let (mut p, mut q) = (self.pending.clone(), Vec::new());
                self.every_unit_in_set(&mut q);
                self.eliminate(&mut p, &mut q, &mut Vec::new());
                assert!(
                    !p.is_empty() || !q.is_empty(),
                    "a remembered lock holds alone"
                );
                self.locks_checked += 1;
            }
            return Some(kinds);
        }
        let depth = self.node_depth;
        if self.elim_logs.len() <= depth {
            self.elim_logs.resize_with(depth + 1, Vec::new);
        }
        let mut kinds = std::mem::take(&mut self.buffers.kinds);
        let mut pairs = std::mem::take(&mut self.buffers.pairs);
        self.every_unit_in_set(&mut kinds);
        self.record.clear();
        pairs.clone_from(&self.pending);
        if depth >= 2 {
            // Unit tests check the replay against a full elimination at every node.
            #[cfg(test)]
            let full = {
                let (mut p, mut q) = (self.pending.clone(), kinds.clone());
                self.eliminate(&mut p, &mut q, &mut Vec::new());
                let left = self.units_left(&p);
                self.every_unit_in_set(&mut q);
                left
            };
            self.recording = true;
            let parent = std::mem::take(&mut self.elim_logs[depth - 1]);
            let mut replayed = std::mem::take(&mut self.buffers.replayed);
            replayed.clear();
            self.replay(&parent, &mut replayed);
            self.buffers.replayed = replayed;
            self.elim_logs[depth - 1] = parent;
            pairs.retain(|&(t, _)| self.relaxed.get(self.at[t as usize]) != FREE);
            kinds.retain(|&k| self.tiles_of[k].iter().any(|&t| self.in_set[t as usize]));
            // Every unit left is tested once on the grid as it is now; then the elimination
            // retests what the units taken away since may have opened.
            let mut since = std::mem::take(&mut self.buffers.since);
            since.clear();
            self.first_pass(&mut pairs, &mut kinds, &mut since);
            if !since.is_empty() {
                self.eliminate(&mut pairs, &mut kinds, &mut since);
            }
            self.buffers.since = since;
            #[cfg(test)]
            assert!(
                self.units_left(&pairs) == full,
                "the replay and a full elimination disagree"
            );
        } else {
            self.recording = true;
            let mut since = std::mem::take(&mut self.buffers.since);
            since.clear();
            self.eliminate(&mut pairs, &mut kinds, &mut since);
            self.buffers.since = since;
        }
        self.recording = false;
        std::mem::swap(&mut self.elim_logs[depth], &mut self.record);
        let set = if pairs.is_empty() && kinds.is_empty() {
            None
        } else {
            self.shrink(&mut pairs, &mut kinds);
            let set = self.kinds_of(&pairs, &kinds);
            self.remember_lock(&pairs, &kinds, set);
            Some(set)
        };
        self.buffers.pairs = pairs;
        self.buffers.kinds = kinds;
        set
    }

    /// The kinds of a remembered blocking set that still blocks itself in this position, if
    /// one does (the newest first).
    ///
    /// A set blocks itself when its units are units here (its committed pairs committed and
    /// on the board, its unpaired tiles on the board and unpaired) and, on a board holding
    /// only its tiles, no pair of it links and no tile of it links to an unpaired tile of its
    /// kind: that is the blocking-set test of `blocked` for this one set, one pass and no
    /// elimination. Its reason is the same (the commitments on its kinds).
    fn remembered_lock(&mut self) -> Option<Kinds> {
        let n = self.locks.len();
        for age in 0..n {
            let i = (self.next_lock + n - 1 - age) % n;
            let lock = std::mem::take(&mut self.locks[i]);
            let holds = self.lock_holds(&lock);
            let kinds = lock.kinds;
            self.locks[i] = lock;
            if holds {
                return Some(kinds);
            }
        }
        None
    }

    /// Whether the blocking set `lock` blocks itself in this position (see
    /// `remembered_lock`).
    fn lock_holds(&mut self, lock: &Lock) -> bool {
        let units_here = lock
            .pairs
            .iter()
            .all(|&(t, u)| self.alive[t as usize] && self.partner[t as usize] == u)
            && lock.tiles.iter().all(|&x| self.is_unpaired(x));
        if !units_here {
            return false;
        }
        let cells = lock.pairs.iter().flat_map(|&(t, u)| [t, u]);
        for x in cells.chain(lock.tiles.iter().copied()) {
            self.scratch
                .set(self.at[x as usize], self.kind[x as usize] + 1);
        }
        let pairs_stay = lock
            .pairs
            .iter()
            .all(|&(t, u)| !self.scratch.links(self.at[t as usize], self.at[u as usize]));
        let holds = pairs_stay
            && lock.tiles.iter().all(|&x| {
                let k = self.kind[x as usize] as usize;
                self.tiles_of[k].iter().all(|&z| {
                    z == x
                        || !self.alive[z as usize]
                        || self.partner[z as usize] != NONE
                        || !self.scratch.links(self.at[x as usize], self.at[z as usize])
                })
            });
        let cells = lock.pairs.iter().flat_map(|&(t, u)| [t, u]);
        for x in cells.chain(lock.tiles.iter().copied()) {
            self.scratch.set(self.at[x as usize], FREE);
        }
        holds
    }

    /// Remembers the blocking set of units `pairs` and the tiles in the set of `kinds`, of
    /// kinds `set`, in place of the oldest remembered.
    fn remember_lock(&mut self, pairs: &[(u16, u16)], kinds: &[usize], set: Kinds) {
        if self.locks.len() < LOCKS {
            self.locks.push(Lock::default());
        }
        let i = self.next_lock % self.locks.len();
        self.next_lock = (i + 1) % LOCKS;
        let mut lock = std::mem::take(&mut self.locks[i]);
        lock.pairs.clear();
        lock.pairs.extend_from_slice(pairs);
        lock.tiles.clear();
        for &k in kinds {
            let inside = self.tiles_of[k]
                .iter()
                .filter(|&&t| self.in_set[t as usize]);
            lock.tiles.extend(inside);
        }
        lock.kinds = set;
        self.locks[i] = lock;
    }

    /// Starts an elimination: the relaxed grid is the real board and every unit is in the set.
    /// Lists the kinds with unpaired tiles in `kinds`.
    fn every_unit_in_set(&mut self, kinds: &mut Vec<usize>) {
        self.relaxed.copy_from(&self.grid);
        kinds.clear();
        kinds.extend((0..self.tiles_of.len()).filter(|&k| self.unpaired[k] > 0));
        for &k in kinds.iter() {
            for &t in &self.tiles_of[k] {
                self.in_set[t as usize] = self.is_unpaired(t);
            }
        }
    }

    /// The units an elimination left: its committed pairs `pairs` and the unpaired tiles still
    /// in the set, both sorted.
    #[cfg(test)]
    fn units_left(&self, pairs: &[(u16, u16)]) -> (Vec<(u16, u16)>, Vec<u16>) {
        let mut pairs = pairs.to_vec();
        pairs.sort_unstable();
        let tiles = (0..self.at.len() as u16)
            .filter(|&t| self.in_set[t as usize] && self.is_unpaired(t))
            .collect();
        (pairs, tiles)
    }

    /// Takes away, on the relaxed grid (the real board, all units in the set), the units the
    /// parent node's elimination took away (`parent`), in its order, logging their tiles.
    ///
    /// The child's board holds a subset of the parent's tiles, so while every unit so far has
    /// gone as in the parent, the grid has at least the free cells it had there, and a unit
    /// whose reason still stands (a committed pair, or an unpaired tile whose partner is still
    /// unpaired) goes without a test: links only grow as cells empty. A unit whose reason
    /// changed (a tile committed since, or a partner committed or removed) is tested; once a
    /// test fails, every later unit is tested too, and the units that fail stay for the
    /// caller's elimination.
    fn replay(&mut self, parent: &[Taken], log: &mut Vec<u16>) {
        let mut checked = false;
        for &taken in parent {
            match taken {
                Taken::Pair(t, u) => {
                    if self.relaxed.get(self.at[t as usize]) == FREE {
                        continue;
                    }
                    if checked && !self.relaxed.links(self.at[t as usize], self.at[u as usize]) {
                        continue;
                    }
                    self.record.push(Taken::Pair(t, u));
                    self.take_away(&[t, u], log);
                }
                Taken::Tile(x, y) => {
                    if self.relaxed.get(self.at[x as usize]) == FREE {
                        continue;
                    }
                    let w = self.partner[x as usize];
                    if w != NONE {
                        // Committed since: the pair goes when it links.
                        if self.relaxed.links(self.at[x as usize], self.at[w as usize]) {
                            self.record.push(Taken::Pair(x, w));
                            self.take_away(&[x, w], log);
                        } else {
                            checked = true;
                        }
                        continue;
                    }
                    let mut witness = None;
                    if self.is_unpaired(y) && (!checked || self.relaxed_link(x, y)) {
                        witness = Some(y);
                    } else {
                        let k = self.kind[x as usize] as usize;
                        for i in 0..self.tiles_of[k].len() {
                            let z = self.tiles_of[k][i];
                            if z != x && z != y && self.is_unpaired(z) && self.relaxed_link(x, z) {
                                witness = Some(z);
                                break;
                            }
                        }
                    }
                    match witness {
                        Some(z) => {
                            self.record.push(Taken::Tile(x, z));
                            self.in_set[x as usize] = false;
                            self.take_away(&[x], log);
                        }
                        None => checked = true,
                    }
                }
            }
        }
    }

    /// Whether two unpaired tiles link on the relaxed grid (or are known to on the real board).
    fn relaxed_link(&mut self, t: u16, u: u16) -> bool {
        self.known_link(t, u) || self.relaxed.links(self.at[t as usize], self.at[u as usize])
    }

    /// One pass of elimination testing every unit (committed pairs `pairs`, unpaired tiles of
    /// `kinds`) on the relaxed grid, logging the tiles taken away.
    fn first_pass(
        &mut self,
        pairs: &mut Vec<(u16, u16)>,
        kinds: &mut Vec<usize>,
        log: &mut Vec<u16>,
    ) {
        let mut i = 0;
        while i < pairs.len() {
            let (t, u) = pairs[i];
            if self.relaxed.links(self.at[t as usize], self.at[u as usize]) {
                self.record.push(Taken::Pair(t, u));
                self.take_away(&[t, u], log);
                pairs.swap_remove(i);
            } else {
                i += 1;
            }
        }
        let mut free = std::mem::take(&mut self.buffers.free);
        let mut i = 0;
        while i < kinds.len() {
            self.free_tiles(kinds[i], &mut free);
            if self.take_away_linked(&free, true, log) {
                kinds.swap_remove(i);
            } else {
                i += 1;
            }
        }
        self.buffers.free = free;
    }

    /// Shrinks a blocking set towards one with few committed kinds, so that the reason for a
    /// death (and the nogood learned from it) is small.
    ///
    /// Each unit of a committed kind is tried out in turn: its tiles are taken away too and the
    /// elimination runs again on the rest; if something still blocks itself, that is the new
    /// (smaller) set, otherwise the unit stays. Every set kept blocks itself on a board of just
    /// its own tiles, which is all the reason needs.
    ///
    /// A trial that has taken away more than one in `GIVE_UP_SHARE` of the set's tiles (beyond
    /// its kind's own) gives up, and its kind stays. A trial that succeeds seldom takes away
    /// that many; one that fails takes away the whole set. Keeping a kind only makes the
    /// reason larger, never wrong: every set kept still blocks itself.
    fn shrink(&mut self, pairs: &mut Vec<(u16, u16)>, kinds: &mut Vec<usize>) {
        let committed = self.committed_kinds();
        let mut tried: Kinds = 0;
        if (self.kinds_of(pairs, kinds) & committed).count_ones() > MAX_SHRINK {
            return;
        }
        let mut tiles = 2 * pairs.len();
        for &k in kinds.iter() {
            tiles += self.tiles_of[k]
                .iter()
                .filter(|&&t| self.in_set[t as usize])
                .count();
        }
        self.shrinking.on = true;
        loop {
            // The next committed kind of the set not tried yet.
            let set = self.kinds_of(pairs, kinds) & committed & !tried;
            if set == 0 {
                break;
            }
            let k = set.trailing_zeros() as usize;
            tried |= bit(k);
            if k < 63 {
                self.try_without(pairs, kinds, bit(k), &mut tiles);
            }
        }
        self.shrinking.on = false;
        self.shrinking.gave_up = false;
    }

    /// One trial of `shrink`: takes the units of the kinds `drop` out of the blocking set of
    /// units `pairs` and `kinds` (`tiles` tiles) and runs the elimination on the rest. If
    /// something still blocks itself, that is the new set; otherwise the set stays as it was.
    fn try_without(
        &mut self,
        pairs: &mut Vec<(u16, u16)>,
        kinds: &mut Vec<usize>,
        drop: Kinds,
        tiles: &mut usize,
    ) {
        self.saved.copy_from(&self.relaxed);
        self.saved_in_set.clone_from(&self.in_set);
        self.shrinking.gave_up = false;
        self.shrinking.limit = usize::MAX;
        let mut p = std::mem::take(&mut self.buffers.trial_pairs);
        let mut q = std::mem::take(&mut self.buffers.trial_kinds);
        let mut log = std::mem::take(&mut self.buffers.trial_log);
        p.clone_from(pairs);
        q.clone_from(kinds);
        log.clear();
        let mut i = 0;
        while i < p.len() {
            let (t, u) = p[i];
            if bit(self.kind[t as usize] as usize) & drop != 0 {
                self.take_away(&[t, u], &mut log);
                p.swap_remove(i);
            } else {
                i += 1;
            }
        }
        let mut free = std::mem::take(&mut self.buffers.free);
        for &k in q.iter().filter(|&&k| bit(k) & drop != 0) {
            self.free_tiles(k, &mut free);
            free.retain(|&t| self.in_set[t as usize]);
            for &t in &free {
                self.in_set[t as usize] = false;
            }
            self.take_away(&free, &mut log);
        }
        self.buffers.free = free;
        q.retain(|&k| bit(k) & drop == 0);
        self.shrinking.limit = log.len() + *tiles / GIVE_UP_SHARE;
        self.eliminate(&mut p, &mut q, &mut log);
        if !self.shrinking.gave_up && (!p.is_empty() || !q.is_empty()) {
            *tiles -= log.len();
            std::mem::swap(pairs, &mut p);
            std::mem::swap(kinds, &mut q);
        } else {
            self.relaxed.copy_from(&self.saved);
            self.in_set.clone_from(&self.saved_in_set);
        }
        self.buffers.trial_pairs = p;
        self.buffers.trial_kinds = q;
        self.buffers.trial_log = log;
    }

    /// The kinds of some units.
    fn kinds_of(&self, pairs: &[(u16, u16)], kinds: &[usize]) -> Kinds {
        let mut set = 0;
        for &(t, _) in pairs {
            set |= bit(self.kind[t as usize] as usize);
        }
        for &k in kinds {
            set |= bit(k);
        }
        set
    }

    /// Elimination on the `relaxed` grid: takes away (empties the cells of) units with a pair
    /// that links until none has; what is left blocks itself.
    ///
    /// `log` lists the tiles taken away from the grid since every unit was last known not to
    /// link on it (empty when the grid is the real board, where committed pairs never link:
    /// `settle` has removed those). A first pass on the real board asks the remembered links;
    /// after that a unit is retested only when a tile taken away since its last test lies where
    /// one of its paths could run: with at most two turns every path between two tiles keeps
    /// to the rows or the columns spanned by them.
    fn eliminate(
        &mut self,
        pairs: &mut Vec<(u16, u16)>,
        kinds: &mut Vec<usize>,
        log: &mut Vec<u16>,
    ) {
        let mut free = std::mem::take(&mut self.buffers.free);
        // Per unit, the length of the log at its last failed test.
        let mut pair_seen = std::mem::take(&mut self.buffers.pair_seen);
        let mut kind_seen = std::mem::take(&mut self.buffers.kind_seen);
        pair_seen.clear();
        pair_seen.resize(pairs.len(), 0);
        kind_seen.clear();
        kind_seen.resize(kinds.len(), 0);
        if log.is_empty() {
            let mut i = 0;
            while i < kinds.len() {
                self.free_tiles(kinds[i], &mut free);
                if self.take_away_linked(&free, false, log) {
                    kinds.swap_remove(i);
                    kind_seen.swap_remove(i);
                } else {
                    i += 1;
                }
            }
        }
        // A trial of `shrink` stops as soon as it gives up.
        while !self.shrinking.gave_up {
            let before = log.len();
            let mut i = 0;
            while i < pairs.len() && !self.shrinking.gave_up {
                let (t, u) = pairs[i];
                if !self.touched(&[t, u], &log[pair_seen[i]..]) {
                    pair_seen[i] = log.len();
                    i += 1;
                    continue;
                }
                let (a, b) = (self.at[t as usize], self.at[u as usize]);
                if self.relaxed.links(a, b) {
                    if self.recording {
                        self.record.push(Taken::Pair(t, u));
                    }
                    self.take_away(&[t, u], log);
                    pairs.swap_remove(i);
                    pair_seen.swap_remove(i);
                } else {
                    pair_seen[i] = log.len();
                    i += 1;
                }
            }
            let mut i = 0;
            while i < kinds.len() && !self.shrinking.gave_up {
                self.free_tiles(kinds[i], &mut free);
                if !self.touched(&free, &log[kind_seen[i]..]) {
                    kind_seen[i] = log.len();
                    i += 1;
                    continue;
                }
                if self.take_away_linked(&free, true, log) {
                    kinds.swap_remove(i);
                    kind_seen.swap_remove(i);
                } else {
                    kind_seen[i] = log.len();
                    i += 1;
                }
            }
            if log.len() == before {
                break;
            }
        }
        self.buffers.free = free;
        self.buffers.pair_seen = pair_seen;
        self.buffers.kind_seen = kind_seen;
    }

    /// Whether taking away the tiles `gone` can make two of `tiles` link where they did not.
    fn touched(&self, tiles: &[u16], gone: &[u16]) -> bool {
        if gone.is_empty() {
            return false;
        }
        if self.max_turns > 2 {
            return true;
        }
        let (mut r0, mut r1, mut c0, mut c1) = (u8::MAX, 0, u8::MAX, 0);
        for &t in tiles {
            let (r, c) = self.tile_rc[t as usize];
            (r0, r1, c0, c1) = (r0.min(r), r1.max(r), c0.min(c), c1.max(c));
        }
        gone.iter().any(|&g| {
            let (r, c) = self.tile_rc[g as usize];
            (r0..=r1).contains(&r) || (c0..=c1).contains(&c)
        })
    }

    /// Takes a unit away in elimination: empties its tiles' cells on the relaxed grid and logs
    /// them.
    fn take_away(&mut self, tiles: &[u16], log: &mut Vec<u16>) {
        for &t in tiles {
            self.relaxed.set(self.at[t as usize], FREE);
        }
        log.extend_from_slice(tiles);
        if self.shrinking.on && log.len() > self.shrinking.limit {
            self.shrinking.gave_up = true;
        }
    }

    /// The live unpaired tiles of kind `k`.
    fn free_tiles(&self, k: usize, out: &mut Vec<u16>) {
        out.clear();
        out.extend(
            self.tiles_of[k]
                .iter()
                .copied()
                .filter(|&t| self.is_unpaired(t)),
        );
    }

    /// Takes away, in elimination, every tile of the set among the unpaired tiles `tiles` (of
    /// one kind) that links to another of them: on the real board, or with `relaxed` on the
    /// relaxed grid (which holds fewer tiles: a remembered link on the real board answers for
    /// it too). A tile outside the set is still a partner, its cell free on the relaxed grid.
    /// Returns whether none of `tiles` is left in the set.
    fn take_away_linked(&mut self, tiles: &[u16], relaxed: bool, log: &mut Vec<u16>) -> bool {
        for (j, &t) in tiles.iter().enumerate() {
            for &u in &tiles[j + 1..] {
                let (t_in, u_in) = (self.in_set[t as usize], self.in_set[u as usize]);
                if !t_in && !u_in {
                    continue;
                }
                // While shrinking no tile of the set links on the real board (the node's
                // elimination took those away), so the remembered links are not asked.
                let linked = if relaxed {
                    (!self.shrinking.on && self.known_link(t, u))
                        || self.relaxed.links(self.at[t as usize], self.at[u as usize])
                } else {
                    self.links(t, u)
                };
                if linked {
                    for (x, inside, y) in [(t, t_in, u), (u, u_in, t)] {
                        if inside {
                            if self.recording {
                                self.record.push(Taken::Tile(x, y));
                            }
                            self.in_set[x as usize] = false;
                            self.take_away(&[x], log);
                        }
                    }
                }
            }
        }
        tiles.iter().all(|&t| !self.in_set[t as usize])
    }

    /// Whether `t` and `u` are remembered to link on the real board (no test is made).
    fn known_link(&self, t: u16, u: u16) -> bool {
        let (d, stamp, linked) = self.link_memo[self.pair_id(t, u)];
        let d = d as usize;
        linked && d <= self.removals.len() && self.stamps[d] == stamp
    }

    /// Whether `v`, `w` link once the pair `p` is gone.
    fn links_after(&mut self, v: u16, w: u16, p: (u16, u16)) -> bool {
        if self.links(v, w) {
            return true;
        }
        let (a, b) = (self.at[p.0 as usize], self.at[p.1 as usize]);
        let (ka, kb) = (self.grid.get(a), self.grid.get(b));
        self.grid.set(a, FREE);
        self.grid.set(b, FREE);
        let linked = self.grid.links(self.at[v as usize], self.at[w as usize]);
        self.grid.set(a, ka);
        self.grid.set(b, kb);
        linked
    }

    /// Expands one node one level deeper than the current one.
    fn node(&mut self) -> Result {
        self.node_depth += 1;
        let result = self.expand();
        self.node_depth -= 1;
        result
    }

    /// Expands one node: settle, check, pick a kind, branch.
    fn expand(&mut self) -> Result {
        if !self.meter.tick() || self.meter.nodes >= self.restart_at {
            return Result::Stopped;
        }
        self.settle();
        if self.removals.len() > self.best.len() {
            self.best.clone_from(&self.removals);
        }
        if self.removals.len() * 2 == self.at.len() {
            return Result::Cleared;
        }
        if let Some(&conflict) = self.dead.get(&self.hash) {
            return Result::Dead(conflict);
        }
        if let Some(conflict) = self.blocked() {
            return self.fail(conflict);
        }
        let depth = self.node_depth;
        if self.buffers.branches.len() <= depth {
            self.buffers.branches.resize_with(depth + 1, Vec::new);
        }
        let mut choices = std::mem::take(&mut self.buffers.branches[depth]);
        let result = match self.pick_kind(&mut choices) {
            Ok((k, why)) => self.branch(k, &choices, why),
            Err(conflict) => self.fail(conflict),
        };
        self.buffers.branches[depth] = choices;
        result
    }

    /// Tries the `choices` of kind `k` in turn (only the first when it clears the kind);
    /// `why` names the kinds of the choices left out as doomed.
    fn branch(&mut self, k: usize, choices: &[Choice], why: Kinds) -> Result {
        let clears = choices[0].clears_kind;
        let mut take = if clears { 1 } else { choices.len() };
        let mut conflict = why;
        let mark = self.steps.len();
        let mut i = 0;
        while i < take {
            let choice = choices[i];
            i += 1;
            match self.commit(choice.t, choice.u) {
                Ok(()) => match self.node() {
                    Result::Dead(c) if c & bit(k) == 0 => {
                        // The failure does not depend on this kind: so do the siblings.
                        self.undo_to(mark);
                        return self.fail(c);
                    }
                    Result::Dead(c) => {
                        conflict |= c;
                        // Clearing the kind now was safe to try alone, but only because of
                        // where the other tiles are; rather than blame every kind, try the
                        // other choices too so the conflict set stays exact.
                        take = choices.len();
                    }
                    other => return other,
                },
                // A forced pair of the same kind is doomed: its reason names kind `k`.
                Err(reason) => conflict |= reason,
            }
            self.undo_to(mark);
        }
        // Kinds with nothing committed constrain nothing.
        let committed = self.committed_kinds();
        self.fail(conflict & committed)
    }

    /// The kind to branch on, with its live choices (into `best`) and why it has no others:
    /// the kind with the fewest, a kind that clears now first. `Err` names the kinds of a dead
    /// end: a kind with a lone tile left or with no live choice.
    fn pick_kind(&mut self, best: &mut Vec<Choice>) -> std::result::Result<(usize, Kinds), Kinds> {
        let mut found: Option<(usize, Kinds)> = None;
        let mut choices = std::mem::take(&mut self.buffers.choices);
        let kinds = self.tiles_of.len();
        let mut dead_end = None;
        for i in 0..kinds {
            let k = (i + self.offset) % kinds;
            if self.unpaired[k] < 2 {
                if self.unpaired[k] == 1 {
                    dead_end = Some(bit(k));
                    break;
                }
                continue;
            }
            let why = self.choices(k, &mut choices);
            if choices.is_empty() {
                dead_end = Some(why);
                break;
            }
            let rank = |c: &[Choice]| (!c[0].clears_kind, c.len(), !c[0].links_now);
            if found.is_none() || rank(&choices) < rank(best) {
                let done = choices[0].clears_kind;
                std::mem::swap(best, &mut choices);
                found = Some((k, why));
                if done {
                    break;
                }
            }
        }
        self.buffers.choices = choices;
        match dead_end {
            Some(conflict) => Err(conflict),
            // Every tile is committed, and `blocked` found a committed pair that links.
            None => Ok(found.expect("settle removes committed pairs that link")),
        }
    }

    /// Records the current position as dead for the kinds in `conflict`.
    fn fail(&mut self, conflict: Kinds) -> Result {
        self.dead.insert(self.hash, conflict);
        self.learn(conflict);
        Result::Dead(conflict)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// How many times `completes_nogood` was checked against a scan of every nogood.
        pub(super) static NOGOOD_CHECKS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    }

    fn run(text: &str, rules: Rules) -> Found {
        search_board(&text.parse().unwrap(), rules, Budget::default())
    }

    /// The search of `board`, its kinds numbered densely as [`super::super::plan`] does.
    fn search_of(board: &Board, rules: Rules, budget: Budget) -> Search {
        let kinds = super::super::kinds(board);
        let dense = |k: Kind| kinds.binary_search(&k).unwrap() as u16;
        new_search(board, rules, budget, &dense, kinds.len())
    }

    /// [`search`] on `board`, its kinds numbered densely.
    fn search_board(board: &Board, rules: Rules, budget: Budget) -> Found {
        let kinds = super::super::kinds(board);
        let dense = |k: Kind| kinds.binary_search(&k).unwrap() as u16;
        search(board, rules, budget, &dense, kinds.len())
    }

    /// Deal `seed` of 8x18 xshisen.
    fn xshisen_deal(seed: u64) -> Board {
        crate::deal::deal(8, 18, crate::deal::Fill::Xshisen, seed)
    }

    #[test]
    fn crossed_square_is_dead_without_search() {
        let found = run("1 2 0\n2 1 0\n3 0 3", Rules::shisen_sho());
        assert!(found.stats.exhausted);
        assert_eq!(found.stats.nodes, 0);
    }

    #[test]
    fn a_row_of_two_kinds_in_turn_is_locked_though_the_kind_has_a_free_pair() {
        // One row without the border: the 1s at 0 and 2 and the 2s at 1 and 3 lock each
        // other, though the 1s at 4 and 5 link: taking away the whole kind of 1 for that pair
        // would free the 2s and miss the lock.
        let board: Board = "1 2 1 2 1 1".parse().unwrap();
        let mut s = search_of(&board, Rules::hdoj(), Budget::default());
        assert!(s.force_all());
        assert_eq!(s.blocked(), Some(0b11));
        let found = run("1 2 1 2 1 1", Rules::hdoj());
        assert!(found.stats.exhausted);
    }

    #[test]
    fn crossed_square_lives_with_three_turns() {
        let rules = Rules {
            max_turns: 3,
            ..Rules::shisen_sho()
        };
        let found = run("1 2\n2 1", rules);
        assert!(found.cleared);
    }

    #[test]
    fn playouts_that_clear_give_valid_removals() {
        let rules = Rules::shisen_sho();
        let mut cleared = 0;
        for deal in 1..6 {
            let board = xshisen_deal(deal);
            let mut s = search_of(&board, rules, Budget::default());
            let grid = s.initial.clone();
            for seed in 0..20 {
                let Some(removals) = s.playout(seed) else {
                    continue;
                };
                cleared += 1;
                let mut g = grid.clone();
                for &(t, u) in &removals {
                    let (a, b) = (s.at[t as usize], s.at[u as usize]);
                    assert_eq!(g.get(a), g.get(b));
                    assert!(
                        g.links(a, b),
                        "deal {deal} playout {seed}: a pair that does not link"
                    );
                    g.set(a, FREE);
                    g.set(b, FREE);
                }
                assert_eq!(removals.len() * 2, s.at.len());
            }
        }
        assert!(cleared > 0, "no playout cleared a board");
    }

    #[test]
    fn the_replayed_elimination_matches_a_full_one_at_every_node() {
        // `blocked` asserts it under test; these deals need thousands of nodes.
        for seed in [11, 69, 126] {
            let found = search_board(
                &xshisen_deal(seed),
                Rules::shisen_sho(),
                Budget::nodes(3_000),
            );
            assert!(found.stats.nodes > 100, "seed {seed}: too small a search");
        }
    }

    #[test]
    fn watched_nogoods_find_what_a_scan_of_every_nogood_finds() {
        // `completes_nogood` scans every nogood under test and asserts the same answer.
        for seed in [69, 6598] {
            NOGOOD_CHECKS.with(|n| n.set(0));
            let found = search_board(
                &xshisen_deal(seed),
                Rules::shisen_sho(),
                Budget::nodes(3_000),
            );
            assert!(found.stats.nodes > 1_000, "seed {seed}: too small a search");
            let checks = NOGOOD_CHECKS.with(|n| n.get());
            assert!(checks > 1_000, "seed {seed}: only {checks} nogood checks");
        }
    }

    #[test]
    fn a_remembered_lock_holds_only_where_elimination_finds_a_set() {
        // `blocked` runs the full elimination whenever a remembered lock holds, under test,
        // and asserts it finds a blocking set too.
        let mut checked = 0;
        for seed in [69, 365] {
            let mut s = search_of(
                &xshisen_deal(seed),
                Rules::shisen_sho(),
                Budget::nodes(3_000),
            );
            assert!(s.force_all());
            s.node();
            checked += s.locks_checked;
        }
        assert!(checked > 10, "only {checked} remembered locks held");
    }

    #[test]
    fn picks_the_matching_that_clears() {
        // Pairing (0,0) with (0,3) first would wall in the 1s below; the search finds the order.
        let found = run("1 2 2 1\n2 1 1 2", Rules::hdoj());
        assert!(found.cleared);
        assert_eq!(found.removals.len(), 4);
    }
}
