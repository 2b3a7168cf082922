//! The line-ray search of seed 002: from a tile, shoot whole straight rays through empty cells;
//! from every empty cell a ray reached, shoot the perpendicular rays; at most `max_turns + 1`
//! rays deep. Each (cell, direction) state keeps the best (turns, length) that reached it, so a
//! ray stops as soon as it runs into a state that is already at least as good; this makes the
//! result exact: fewest turns first, then fewest cells (seed 001).

use crate::board::{Board, EMPTY, Kind, Pos};

use super::{Path, Rules};

/// A cell that no path may enter: outside the board (or outside the ring, with `border`).
const WALL: Kind = Kind::MAX;

/// Cost of a search state: turns in the high bits, cells walked in the low bits, so that
/// comparing two costs as integers compares turns first and length second.
type Cost = u32;
const LEN_BITS: u32 = 24;
const UNSEEN: Cost = Cost::MAX;

fn cost(turns: u32, len: u32) -> Cost {
    (turns << LEN_BITS) | len
}

/// Where a ray state came from: the cell its ray started at and that cell's own state.
#[derive(Clone, Copy)]
struct Parent {
    origin: u32,
    origin_dir: u8,
}

/// A ray to walk: from `origin` (whose own state points `origin_dir`) in direction `dir`.
#[derive(Clone, Copy)]
struct Shot {
    origin: u32,
    origin_dir: u8,
    dir: u8,
    base: Cost,
}

/// A state a later layer turns from: `cell`, reached in direction `dir` at cost `cost`.
#[derive(Clone, Copy)]
struct Frontier {
    cell: u32,
    dir: u8,
    cost: Cost,
}

/// What a search is looking for.
#[derive(Clone, Copy)]
enum Goal {
    /// One given cell; keep the best way to it.
    Cell(usize),
    /// Every tile of this kind; report each the first time it is reached.
    Kind(Kind),
}

/// A reusable line-ray searcher over one board under one set of rules.
///
/// It keeps a padded copy of the board (walls around it, and the empty ring when the rules allow
/// the border) and scratch space, so repeated searches allocate nothing. Removing tiles through
/// [`RaySearch::clear`] keeps it in step with the board.
pub struct RaySearch {
    rules: Rules,
    rows: usize,
    cols: usize,
    width: usize,
    field: Vec<Kind>,
    step: [isize; 4],
    best: Vec<Cost>,
    parent: Vec<Parent>,
    stamp: Vec<u32>,
    generation: u32,
    next: Vec<Frontier>,
    shots: Vec<Shot>,
}

impl RaySearch {
    /// A searcher for `board` under `rules`.
    pub fn new(board: &Board, rules: Rules) -> Self {
        let (rows, cols) = (board.rows(), board.cols());
        let width = cols + 4;
        let height = rows + 4;
        let mut field = vec![WALL; width * height];
        let ring = if rules.border { EMPTY } else { WALL };
        for r in 1..height - 1 {
            for c in 1..width - 1 {
                field[r * width + c] = ring;
            }
        }
        for (i, &kind) in board.cells().iter().enumerate() {
            field[(i / cols + 2) * width + i % cols + 2] = kind;
        }
        let w = width as isize;
        let states = field.len() * 4;
        RaySearch {
            rules,
            rows,
            cols,
            width,
            field,
            step: [-w, 1, w, -1],
            best: vec![UNSEEN; states],
            parent: vec![
                Parent {
                    origin: 0,
                    origin_dir: 0
                };
                states
            ],
            stamp: vec![0; states],
            generation: 0,
            next: Vec::new(),
            shots: Vec::new(),
        }
    }

    /// The rules this searcher applies.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    fn index(&self, pos: Pos) -> usize {
        (pos.row + 2) as usize * self.width + (pos.col + 2) as usize
    }

    fn pos(&self, index: usize) -> Pos {
        Pos::new(
            (index / self.width) as i32 - 2,
            (index % self.width) as i32 - 2,
        )
    }

    fn on_board(&self, pos: Pos) -> bool {
        pos.row >= 0
            && pos.col >= 0
            && (pos.row as usize) < self.rows
            && (pos.col as usize) < self.cols
    }

    /// The kind at `pos` as the searcher sees it.
    pub fn kind(&self, pos: Pos) -> Kind {
        if self.on_board(pos) {
            self.field[self.index(pos)]
        } else {
            EMPTY
        }
    }

    /// Sets the kind at an on-board `pos` (for example `EMPTY` after a removal).
    pub fn set(&mut self, pos: Pos, kind: Kind) {
        assert!(self.on_board(pos), "{pos} is off the board");
        let i = self.index(pos);
        self.field[i] = kind;
    }

    /// Empties both cells of a removed pair (no gravity: the caller rebuilds for that).
    pub fn clear(&mut self, a: Pos, b: Pos) {
        self.set(a, EMPTY);
        self.set(b, EMPTY);
    }

    fn state_cost(&self, state: usize) -> Cost {
        if self.stamp[state] == self.generation {
            self.best[state]
        } else {
            UNSEEN
        }
    }

    fn begin(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.stamp.fill(0);
            self.generation = 1;
        }
        self.next.clear();
    }

    /// Runs the layered ray search from `start`. `found` is called for every goal cell reached,
    /// with the goal's index, the cost and the ray that reached it; it returns `true` to stop
    /// once the current layer is done (the layer is finished so that its shortest path wins).
    fn search(
        &mut self,
        start: usize,
        goal: Goal,
        found: &mut dyn FnMut(usize, Cost, Parent) -> bool,
    ) {
        self.begin();
        let max_turns = u32::from(self.rules.max_turns);
        let mut shots = std::mem::take(&mut self.shots);
        shots.clear();
        for dir in 0..4u8 {
            shots.push(Shot {
                origin: start as u32,
                origin_dir: dir,
                dir,
                base: cost(0, 0),
            });
        }
        for turns in 0..=max_turns {
            let mut done = false;
            for &shot in &shots {
                done |= self.shoot(start, shot, turns, goal, found);
            }
            if done || turns == max_turns {
                break;
            }
            shots.clear();
            for f in &self.next {
                if self.state_cost(f.cell as usize * 4 + f.dir as usize) != f.cost {
                    continue; // improved after it was queued
                }
                for dir in [(f.dir + 1) % 4, (f.dir + 3) % 4] {
                    shots.push(Shot {
                        origin: f.cell,
                        origin_dir: f.dir,
                        dir,
                        base: f.cost,
                    });
                }
            }
            self.next.clear();
            if shots.is_empty() {
                break;
            }
        }
        self.shots = shots;
    }

    /// Walks one ray; returns whether `found` asked to stop.
    fn shoot(
        &mut self,
        start: usize,
        shot: Shot,
        turns: u32,
        goal: Goal,
        found: &mut dyn FnMut(usize, Cost, Parent) -> bool,
    ) -> bool {
        let dir = shot.dir;
        let step = self.step[dir as usize];
        let parent = Parent {
            origin: shot.origin,
            origin_dir: shot.origin_dir,
        };
        let mut cell = shot.origin as usize;
        let mut len = shot.base & ((1 << LEN_BITS) - 1);
        loop {
            cell = cell.wrapping_add_signed(step);
            len += 1;
            let here = cost(turns, len);
            let kind = self.field[cell];
            if kind != EMPTY {
                let hit = match goal {
                    Goal::Cell(target) => cell == target,
                    Goal::Kind(k) => kind == k && cell != start,
                };
                return hit && found(cell, here, parent);
            }
            let state = cell * 4 + dir as usize;
            if self.state_cost(state) <= here {
                return false;
            }
            self.stamp[state] = self.generation;
            self.best[state] = here;
            self.parent[state] = parent;
            if turns < u32::from(self.rules.max_turns) {
                self.next.push(Frontier {
                    cell: cell as u32,
                    dir,
                    cost: here,
                });
            }
        }
    }

    /// The corner points from `start` to the goal reached by a ray from `parent`.
    fn trace(&self, start: usize, goal: usize, mut parent: Parent) -> Path {
        let mut points = vec![self.pos(goal)];
        loop {
            let origin = parent.origin as usize;
            points.push(self.pos(origin));
            if origin == start {
                break;
            }
            parent = self.parent[origin * 4 + parent.origin_dir as usize];
        }
        points.reverse();
        Path::new(points)
    }

    /// Whether `a` and `b` may be linked at all: distinct, on the board, same non-empty kind.
    fn linkable(&self, a: Pos, b: Pos) -> bool {
        a != b
            && self.on_board(a)
            && self.on_board(b)
            && self.kind(a) != EMPTY
            && self.kind(a) == self.kind(b)
    }

    /// The best path linking `a` and `b` (fewest turns, then fewest cells), if any.
    pub fn connect(&mut self, a: Pos, b: Pos) -> Option<Path> {
        if !self.linkable(a, b) {
            return None;
        }
        let (start, target) = (self.index(a), self.index(b));
        let mut best: Option<(Cost, Parent)> = None;
        self.search(start, Goal::Cell(target), &mut |_, c, parent| {
            if best.is_none_or(|(b, _)| c < b) {
                best = Some((c, parent));
            }
            true
        });
        best.map(|(_, parent)| self.trace(start, target, parent))
    }

    /// Calls `each` with every tile of `a`'s kind that `a` can link with, nearest in turns first.
    pub fn partners(&mut self, a: Pos, each: &mut dyn FnMut(Pos)) {
        let kind = self.kind(a);
        if kind == EMPTY {
            return;
        }
        let start = self.index(a);
        let width = self.width;
        let mut seen: Vec<usize> = Vec::new();
        self.search(start, Goal::Kind(kind), &mut |cell, _, _| {
            if !seen.contains(&cell) {
                seen.push(cell);
                each(Pos::new(
                    (cell / width) as i32 - 2,
                    (cell % width) as i32 - 2,
                ));
            }
            false
        });
    }

    /// The first tile of `a`'s kind that `a` can link with (fewest turns), if any.
    pub fn first_partner(&mut self, a: Pos) -> Option<Pos> {
        let kind = self.kind(a);
        if kind == EMPTY {
            return None;
        }
        let start = self.index(a);
        let mut first: Option<(Cost, usize)> = None;
        self.search(start, Goal::Kind(kind), &mut |cell, c, _| {
            if first.is_none_or(|(best, at)| (c, cell) < (best, at)) {
                first = Some((c, cell));
            }
            true
        });
        first.map(|(_, cell)| self.pos(cell))
    }

    /// Every removable pair, each once, `a` before `b` in row-major order.
    pub fn pairs(&mut self) -> Vec<(Pos, Pos)> {
        let mut out = Vec::new();
        for row in 0..self.rows as i32 {
            for col in 0..self.cols as i32 {
                let a = Pos::new(row, col);
                let mut partners = Vec::new();
                self.partners(a, &mut |b| {
                    if b > a {
                        partners.push(b);
                    }
                });
                partners.sort();
                out.extend(partners.into_iter().map(|b| (a, b)));
            }
        }
        out
    }

    /// Seed 002's FindPath: scan the tiles in row-major order starting at `from` (wrapping) and
    /// return the first one with a partner, with that partner.
    pub fn scan_from(&mut self, from: Pos) -> Option<(Pos, Pos)> {
        let cells = self.rows * self.cols;
        let first = if self.on_board(from) {
            from.row as usize * self.cols + from.col as usize
        } else {
            0
        };
        for k in 0..cells {
            let i = (first + k) % cells;
            let a = Pos::new((i / self.cols) as i32, (i % self.cols) as i32);
            if self.kind(a) == EMPTY {
                continue;
            }
            if let Some(b) = self.first_partner(a) {
                return Some((a, b));
            }
        }
        None
    }

    /// Whether any tile is left on the board.
    pub fn has_tiles(&self) -> bool {
        (0..self.rows).any(|r| {
            let row = (r + 2) * self.width + 2;
            self.field[row..row + self.cols].iter().any(|&k| k != EMPTY)
        })
    }
}
