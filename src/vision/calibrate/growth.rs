//! The board grown to its panel and along its lattice, cell by cell, on the evidence of each.

use image::RgbaImage;

use crate::vision::VisionError;
use crate::vision::features::{EdgeMap, commonest_bin, pixel_range};

use super::*;

/// The share of the board's typical border a cell unlike the tiles' border colour must reach
/// to be a tile (see [`tiles_at`]): a wallpaper's texture above kshisen's board made three
/// such cells at 0.3-0.45 of it, alike each other, and added a row.
pub(super) const UNLIKE_AS_STRONG: f32 = 0.5;

/// A panel's edge over the board's typical border (see [`find_extent`]): a panel may stand out
/// from the surroundings much less than the tiles do.
pub(super) const PANEL_LEVEL: f32 = 0.12;

/// The share of a panel side's edge strength its line must keep beyond the panel's corners
/// to be one edge going on (a menu bar's, a window's) rather than the panel's own side.
const SAME_EDGE: f32 = 0.25;

/// The least edge (per pixel) a panel's side shows, whatever the tiles' borders.
pub(super) const PANEL_FLOOR: f32 = 12.0;

/// The board's cells (first and count, on x then y) grown to the panel the board lies on: a
/// sparse board can keep no tile in its first or last rows or columns, but a game that draws
/// the board on a panel draws the panel round all of its cells, a small margin outside them.
///
/// The panel is a rectangle of straight edges round the box (see [`Panel`]). Each side then
/// takes the whole cells between it and the panel's side (the margin may be up to three
/// quarters of a pitch). Unchanged when no such panel shows.
pub(super) fn grown_to_panel(
    edges: &Edges,
    axes: [Axis; 2],
    cells: [(i64, usize); 2],
    level: f32,
) -> [(i64, usize); 2] {
    let search = Panel {
        maps: [&edges.vertical, &edges.horizontal],
        limits: [
            f64::from(edges.image.width()),
            f64::from(edges.image.height()),
        ],
        axes,
        level,
    };
    let Some(lines) = search.round(cells) else {
        return cells;
    };
    std::array::from_fn(|a| {
        let axis = axes[a];
        let (first, count) = cells[a];
        let whole = |d: f64| (d / axis.pitch + 0.25).floor().max(0.0) as usize;
        let before = whole(axis.at(first as f64) - lines[a][0]);
        let after = whole(lines[a][1] - axis.at((first + count as i64) as f64));
        let start = first - before as i64;
        let end = first + (count + after) as i64;
        if axis.at(start as f64) < -0.5 || axis.at(end as f64) > search.limits[a] + 0.5 {
            return cells[a];
        }
        (start, count + before + after)
    })
}

/// How far (pitches) beyond the board's cells a panel's side may lie when the lines across
/// going on past a nearer line move it there (see [`Panel::round`]).
const PASSED_REACH: f64 = 1.5;

/// The search for a panel round a board: four straight edges, each running the whole side of
/// the rectangle they make unbroken (see [`Panel::is_line`]) and none going on past the sides
/// across it (a menu bar, a side panel or a window's edge does).
struct Panel<'a> {
    /// The vertical and the horizontal edge maps.
    maps: [&'a EdgeMap; 2],
    /// The image's width and height.
    limits: [f64; 2],
    axes: [Axis; 2],
    level: f32,
}

impl Panel<'_> {
    /// The panel's sides (low and high, on x then y) round the board's `cells`, or `None`.
    ///
    /// Outward from each side of the box, from a quarter pitch inside it (the comb line may lie
    /// beyond a tile's shadow, past a panel's close edge), the first edge running the box's
    /// whole length; then a side that does not run the rectangle's whole length (the tiles'
    /// own edge, beside empty cells the panel covers) gives way to the next edge outward that
    /// does, until all do. So does a side that the lines across go on past, within
    /// [`PASSED_REACH`] of the cells: grid lines round every cell close a rectangle round the
    /// cells that hold tiles, short of an empty edge line, while the panel's sides go on.
    fn round(&self, cells: [(i64, usize); 2]) -> Option<[[f64; 2]; 2]> {
        let ends: [[f64; 2]; 2] = std::array::from_fn(|a| {
            let (first, count) = cells[a];
            let axis = self.axes[a];
            [
                axis.at(first as f64),
                axis.at((first + count as i64) as f64),
            ]
        });
        let mut lines = [[0f64; 2]; 2];
        for a in 0..2 {
            let along = self.inside(1 - a, ends[1 - a]);
            for (side, outward) in [(0, -1.0), (1, 1.0)] {
                let from = ends[a][side] - outward * 0.25 * self.axes[a].pitch;
                lines[a][side] = self.next_line(a, from, outward, along)?;
            }
        }
        for _ in 0..3 {
            let mut moved = false;
            for a in 0..2 {
                let along = self.inside(1 - a, lines[1 - a]);
                for (side, outward) in [(0, -1.0), (1, 1.0)] {
                    // The lines across going on past a side say the panel is wider.
                    let across = self.inside(a, lines[a]);
                    let passed = lines[1 - a]
                        .iter()
                        .any(|&at| self.goes_past(1 - a, at, (lines[a][side], outward), across));
                    let line = self.is_line(a, lines[a][side], along);
                    if line && !passed {
                        continue;
                    }
                    // Past the line's own width first.
                    let mut from = lines[a][side] + outward;
                    while line && self.is_line(a, from, along) {
                        from += outward;
                    }
                    let next = self.next_line(a, from, outward, along)?;
                    let reach = PASSED_REACH * self.axes[a].pitch;
                    if line && (next - ends[a][side]).abs() > reach {
                        continue;
                    }
                    lines[a][side] = next;
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
        let closed = (0..2).all(|a| {
            let along = self.inside(1 - a, lines[1 - a]);
            lines[a]
                .iter()
                .all(|&at| self.is_line(a, at, along) && !self.goes_on(a, at, lines[1 - a], along))
        });
        closed.then_some(lines)
    }

    /// The span between two lines across axis `a`'s, a fifth of a pitch in at each end.
    fn inside(&self, a: usize, [lo, hi]: [f64; 2]) -> (f64, f64) {
        let p = self.axes[a].pitch;
        (lo + 0.2 * p, hi - 0.2 * p)
    }

    /// Whether a straight edge along axis `a`'s lines (vertical for x) at `at` runs `along`
    /// unbroken: each piece of half a pitch carries at least `level` (tiles' edges in a row
    /// with an empty cell break off for a whole cell).
    fn is_line(&self, a: usize, at: f64, along: (f64, f64)) -> bool {
        self.is_line_at(a, at, along, self.level)
    }

    /// [`Self::is_line`] at `level`.
    fn is_line_at(&self, a: usize, at: f64, along: (f64, f64), level: f32) -> bool {
        let map = self.maps[a];
        let piece = (0.5 * self.axes[1 - a].pitch).max(4.0);
        let limit = if a == 0 { map.height } else { map.width };
        let (s0, s1) = (along.0.ceil().max(0.0), along.1.floor().min(limit as f64));
        let (Ok(p), true) = (usize::try_from(at as i64), s1 - s0 >= 3.0) else {
            return false;
        };
        if p >= if a == 0 { map.width } else { map.height } {
            return false;
        }
        let pieces = ((s1 - s0) / piece).ceil().max(1.0) as usize;
        (0..pieces).all(|i| {
            let lo = (s0 + (s1 - s0) * i as f64 / pieces as f64) as usize;
            let hi = (s0 + (s1 - s0) * (i + 1) as f64 / pieces as f64) as usize;
            hi > lo && self.mean_at(a, p, (lo, hi)) >= level
        })
    }

    /// The mean edge (per pixel) on pixel line `p` along axis `a`'s lines (a column for x)
    /// over `lo..hi` (`hi > lo`).
    fn mean_at(&self, a: usize, p: usize, (lo, hi): (usize, usize)) -> f32 {
        let map = self.maps[a];
        let sum = if a == 0 {
            map.sum((p, p + 1), (lo, hi))
        } else {
            map.sum((lo, hi), (p, p + 1))
        };
        (sum / (hi - lo) as f64) as f32
    }

    /// The mean edge (per pixel) of the line along axis `a`'s lines at `at` over `along`.
    fn mean_along(&self, a: usize, at: f64, along: (f64, f64)) -> f32 {
        let map = self.maps[a];
        let limit = if a == 0 { map.height } else { map.width };
        let (lo, hi) = (
            along.0.ceil().max(0.0) as usize,
            (along.1.floor().max(0.0) as usize).min(limit),
        );
        let p = at.max(0.0) as usize;
        if hi <= lo || p >= if a == 0 { map.width } else { map.height } {
            return 0.0;
        }
        self.mean_at(a, p, (lo, hi))
    }

    /// The first line along `along` from `from` on, outward, within 8 pitches.
    fn next_line(&self, a: usize, from: f64, outward: f64, along: (f64, f64)) -> Option<f64> {
        (0..(8.0 * self.axes[a].pitch) as usize)
            .map(|step| from + outward * step as f64)
            .take_while(|&at| at >= 0.0 && at < self.limits[a] - 1.0)
            .find(|&at| self.is_line(a, at, along))
    }

    /// Whether the line along axis `a`'s lines at `at` goes on past the line `end` across it,
    /// `outward` (see [`Self::beyond`]), at [`SAME_EDGE`] of its strength `along` at least;
    /// not when too little of that stretch lies in the image to tell.
    fn goes_past(&self, a: usize, at: f64, (end, outward): (f64, f64), along: (f64, f64)) -> bool {
        let level = self.level.max(SAME_EDGE * self.mean_along(a, at, along));
        self.beyond(a, end, outward)
            .is_some_and(|stretch| self.is_line_at(a, at, stretch, level))
    }

    /// Whether the line at `at` goes on past the lines `across` (see [`Self::beyond`]), or
    /// may: too little of either stretch lies in the image to tell. A panel near the image's
    /// edge shows its end on the other side only. The same edge goes on at [`SAME_EDGE`] of
    /// its strength `along` the panel's side at least: a photo's grain beyond a strong edge
    /// does not.
    fn goes_on(&self, a: usize, at: f64, [lo, hi]: [f64; 2], along: (f64, f64)) -> bool {
        let level = self.level.max(SAME_EDGE * self.mean_along(a, at, along));
        let shown: Vec<(f64, f64)> = [(lo, -1.0), (hi, 1.0)]
            .into_iter()
            .filter_map(|(end, outward)| self.beyond(a, end, outward))
            .collect();
        shown.is_empty()
            || shown
                .into_iter()
                .any(|stretch| self.is_line_at(a, at, stretch, level))
    }

    /// The stretch of a line along axis `a`'s lines a third to two thirds of a pitch past the
    /// line `end` across it, `outward`, within the image; `None` when too little of it is.
    fn beyond(&self, a: usize, end: f64, outward: f64) -> Option<(f64, f64)> {
        let (p, limit) = (self.axes[1 - a].pitch, self.limits[1 - a] - 1.0);
        let (b0, b1) = if outward < 0.0 {
            (end - 0.65 * p, end - 0.35 * p)
        } else {
            (end + 0.35 * p, end + 0.65 * p)
        };
        let (b0, b1) = (b0.max(0.0), b1.min(limit));
        (b1 - b0 >= (0.1 * p).max(4.0)).then_some((b0, b1))
    }
}

/// Whether two border colours are alike: within 60 levels over R, G, B.
pub(super) fn alike_colours(a: &[f32; 3], b: &[f32; 3]) -> bool {
    (0..3).map(|c| (a[c] - b[c]).abs()).sum::<f32>() <= 60.0
}

/// What each cell of the comb's grid over the image shows, row by row.
#[derive(Clone)]
pub(super) struct CellEvidence {
    /// The comb's first whole row and column.
    pub(super) row0: i64,
    pub(super) col0: i64,
    pub(super) rows: usize,
    pub(super) cols: usize,
    /// Four sides with a straight edge standing out from the inside.
    pub(super) candidate: Vec<bool>,
    /// The weakest side's strength.
    pub(super) weakest_side: Vec<f32>,
    /// The same with each side's window widened a gap's width into the cell; only for growing
    /// the board by its last rows and columns, not for finding it.
    pub(super) loose: Vec<bool>,
    pub(super) weakest_loose: Vec<f32>,
    /// The border colour (see [`ring_colour`]), only where a tile may be.
    pub(super) ring: Vec<[f32; 3]>,
    /// Each side's (left, right, top, bottom) strongest straight edge: its strength and its
    /// pixel line's offset from the comb line (see [`side_line`]).
    pub(super) sides: Vec<[(f32, f32); 4]>,
    /// How many cells apart the tiles of one board may lie (see [`largest_cluster`]).
    pub(super) reach: i64,
}

impl CellEvidence {
    /// Measures every whole cell of the comb's grid over the image.
    pub(super) fn measure(edges: &Edges, x_axis: Axis, y_axis: Axis) -> Result<Self, VisionError> {
        let image = edges.image;
        let (vertical, horizontal) = (&edges.vertical, &edges.horizontal);
        let (w, h) = (f64::from(image.width()), f64::from(image.height()));
        let k_first = |axis: Axis| (-axis.phase / axis.pitch).ceil() as i64;
        let k_last =
            |axis: Axis, limit: f64| ((limit - 1.0 - axis.phase) / axis.pitch).floor() as i64;
        let (c0, c1) = (k_first(x_axis), k_last(x_axis, w));
        let (r0, r1) = (k_first(y_axis), k_last(y_axis, h));
        if c1 - c0 < 2 || r1 - r0 < 2 {
            return Err(no_board("the repeating edges span fewer than two cells"));
        }
        let (ncols, nrows) = ((c1 - c0) as usize, (r1 - r0) as usize);
        let (px, py) = (x_axis.pitch, y_axis.pitch);
        let (wx, wy) = ((0.15 * px).max(2.0), (0.15 * py).max(2.0));
        // A tile's border may lie a gap's width inside the cell, from the comb line on the
        // gap's other side: on the last row or column of a board with gaps, nothing lies on
        // that line.
        let (gx, gy) = (wx.max(0.25 * px), wy.max(0.25 * py));
        let n = nrows * ncols;
        let mut cells = CellEvidence {
            row0: r0,
            col0: c0,
            rows: nrows,
            cols: ncols,
            candidate: vec![false; n],
            weakest_side: vec![0f32; n],
            loose: vec![false; n],
            weakest_loose: vec![0f32; n],
            ring: vec![[0f32; 3]; n],
            sides: vec![[(0f32, 0f32); 4]; n],
            reach: 1,
        };
        for j in 0..nrows {
            let top = y_axis.at((r0 + j as i64) as f64);
            let bottom = top + py;
            let rows_inner = (top + 0.2 * py, bottom - 0.2 * py);
            for i in 0..ncols {
                let left = x_axis.at((c0 + i as i64) as f64);
                let right = left + px;
                let cols_inner = (left + 0.2 * px, right - 0.2 * px);
                let lines = |inward: (f64, f64)| {
                    [
                        side_line(vertical, (left - wx, left + inward.0), rows_inner, true),
                        side_line(vertical, (right - inward.0, right + wx), rows_inner, true),
                        side_line(horizontal, (top - wy, top + inward.1), cols_inner, false),
                        side_line(
                            horizontal,
                            (bottom - inward.1, bottom + wy),
                            cols_inner,
                            false,
                        ),
                    ]
                };
                let weakest =
                    |sides: [(f32, f64); 4]| sides.iter().map(|s| s.0).fold(f32::MAX, f32::min);
                let inside =
                    inside_strength(vertical, left + wx, top + wy, right - wx, bottom - wy).max(
                        inside_strength(horizontal, left + wx, top + wy, right - wx, bottom - wy),
                    );
                let strict_lines = lines((wx, wy));
                let (strict, widened) = (weakest(strict_lines), weakest(lines((gx, gy))));
                let at = j * ncols + i;
                let comb = [left, right, top, bottom];
                cells.sides[at] = std::array::from_fn(|s| {
                    (strict_lines[s].0, (strict_lines[s].1 - comb[s]) as f32)
                });
                cells.candidate[at] = strict > 12.0 && strict > 1.2 * inside;
                cells.weakest_side[at] = strict;
                cells.loose[at] = widened > 12.0 && widened > 1.2 * inside;
                cells.weakest_loose[at] = widened;
                // The colour is wanted only where a tile may be.
                if cells.candidate[at] || cells.loose[at] {
                    cells.ring[at] = ring_colour(image, left, top, px, py);
                }
            }
        }
        Ok(cells)
    }

    /// Keeps the candidates whose border colour is that of most candidates or of another
    /// candidate; returns the colour of most (the median per channel).
    pub(super) fn keep_alike_candidates(&mut self) -> Result<[f32; 3], VisionError> {
        let chosen: Vec<usize> = (0..self.candidate.len())
            .filter(|&i| self.candidate[i])
            .collect();
        if chosen.len() < 4 {
            return Err(no_board("no grid of tile-like cells"));
        }
        let reference: [f32; 3] = std::array::from_fn(|c| {
            let mut v: Vec<f32> = chosen.iter().map(|&i| self.ring[i][c]).collect();
            crate::stats::median(&mut v).unwrap_or(0.0)
        });
        // Tiles come in pairs at least: a candidate stays when its border colour is that of
        // most candidates (mahjong tiles share their paper) or of another candidate (flat tiles
        // share their colour with their kind-mates); a button or a patch of text is unlike
        // them all.
        let ring = &self.ring;
        let keep: Vec<bool> = chosen
            .iter()
            .map(|&i| {
                alike_colours(&ring[i], &reference)
                    || chosen
                        .iter()
                        .any(|&j| j != i && alike_colours(&ring[i], &ring[j]))
            })
            .collect();
        for (&i, keep) in chosen.iter().zip(keep) {
            self.candidate[i] = keep;
        }
        Ok(reference)
    }

    /// The box (first and last row, first and last column) of `cluster` grown by the cells
    /// that may join it (see [`CellEvidence::joins`]) within four cells, until nothing more
    /// joins: a sparse board leaves lone tiles a few cells away from the rest.
    pub(super) fn grown_box(
        &self,
        cluster: &[usize],
        reference: [f32; 3],
        strong: f32,
    ) -> (usize, usize, usize, usize) {
        let ncols = self.cols;
        let kept: Vec<usize> = (0..self.candidate.len())
            .filter(|&i| self.candidate[i])
            .collect();
        let mut rmin = cluster.iter().map(|&i| i / ncols).min().unwrap_or(0);
        let mut rmax = cluster.iter().map(|&i| i / ncols).max().unwrap_or(0);
        let mut cmin = cluster.iter().map(|&i| i % ncols).min().unwrap_or(0);
        let mut cmax = cluster.iter().map(|&i| i % ncols).max().unwrap_or(0);
        loop {
            let near = |i: usize| {
                let (r, c) = (i / ncols, i % ncols);
                r + 4 >= rmin && r <= rmax + 4 && c + 4 >= cmin && c <= cmax + 4
            };
            let joining: Vec<usize> = (0..self.candidate.len())
                .filter(|&i| near(i) && self.joins(i, &kept, reference, strong))
                .collect();
            let (r0n, r1n) = joining.iter().fold((rmin, rmax), |(a, b), &i| {
                (a.min(i / ncols), b.max(i / ncols))
            });
            let (c0n, c1n) = joining.iter().fold((cmin, cmax), |(a, b), &i| {
                (a.min(i % ncols), b.max(i % ncols))
            });
            if (r0n, r1n, c0n, c1n) == (rmin, rmax, cmin, cmax) {
                return (rmin, rmax, cmin, cmax);
            }
            (rmin, rmax, cmin, cmax) = (r0n, r1n, c0n, c1n);
        }
    }

    /// Each side's (left, right, top, bottom) offsets from its comb line over the candidates
    /// in a box (first and last row, first and last column), or `None` when fewer than four
    /// candidates lie there.
    fn lattice_offsets(
        &self,
        (rmin, rmax, cmin, cmax): (usize, usize, usize, usize),
    ) -> Option<[Vec<f32>; 4]> {
        let inside: Vec<usize> = (rmin..=rmax)
            .flat_map(|r| (cmin..=cmax).map(move |c| r * self.cols + c))
            .filter(|&i| self.candidate[i])
            .collect();
        (inside.len() >= 4)
            .then(|| std::array::from_fn(|s| inside.iter().map(|&i| self.sides[i][s].1).collect()))
    }

    /// The box (first and last row, first and last column) grown by each row or column next
    /// to it that holds a cell the lattice runs on through: its border colour is that of the
    /// tiles (`reference`), each of its four sides carries a straight edge over
    /// [`OUTLIER_BORDER`] of the typical border `strong`, and each but the one facing away from
    /// the box lies where that side's edge lies on [`LATTICE_SHARE`] of the box's candidates,
    /// within [`LATTICE_SLACK`] of a pitch. A face busy with drawing up to its rim (kshisen's
    /// jade) is no candidate, its inside having as much edge as its border; a texture's
    /// strongest lines fall anywhere in the windows. A side beside an empty cell shows the
    /// tile's own edge, off the line two tiles share when they are drawn in 3D: so any usual
    /// place counts, not only the most usual, and the outer side (beside the background, or a
    /// 3D side) may lie anywhere in its window. Nothing grows when, on some side, under half
    /// the candidates have their edge within the slack of the median's (no sharp lattice: a
    /// texture taken for tiles). One side across from a cell of the tiles' border colour may
    /// fail all this (two touching 3D tiles share a side their rims leave faint, or off the
    /// lattice), as long as the other three hold. One row or column a side: that is what a rim
    /// of such faces hides, and more would let a texture that passes run on over the image.
    pub(super) fn grown_along_lattice(
        &self,
        bounds: (usize, usize, usize, usize),
        (image, [x_axis, y_axis]): (&RgbaImage, [Axis; 2]),
        reference: [f32; 3],
        strong: f32,
    ) -> (usize, usize, usize, usize) {
        let Some(offsets) = self.lattice_offsets(bounds) else {
            return bounds;
        };
        let (px, py) = (x_axis.pitch, y_axis.pitch);
        let slack = [px, px, py, py].map(|p| (LATTICE_SLACK * p).max(1.0) as f32);
        let near = |s: usize, at: f32| {
            offsets[s]
                .iter()
                .filter(|&&o| (o - at).abs() <= slack[s])
                .count() as f32
                / offsets[s].len() as f32
        };
        // A lattice with no line where most of its candidates have that side's edge (cells of a
        // texture taken for tiles, their strongest lines anywhere in the windows) has no lines
        // to run on.
        let sharp = (0..4).all(|s| {
            let mut v = offsets[s].clone();
            crate::stats::median(&mut v).is_some_and(|m| near(s, m) >= 0.5)
        });
        if !sharp {
            return bounds;
        }
        let usual = |s: usize, at: f32| near(s, at) >= LATTICE_SHARE;
        let tile_coloured = |r: i64, c: i64| {
            let (left, top) = (
                x_axis.at((self.col0 + c) as f64),
                y_axis.at((self.row0 + r) as f64),
            );
            alike_colours(&ring_colour(image, left, top, px, py), &reference)
        };
        // `outer`: the side facing away from the box (left, right, top, bottom).
        let continues = |r: usize, c: usize, outer: usize| {
            if !tile_coloured(r as i64, c as i64) {
                return false;
            }
            let (r, c) = (r as i64, c as i64);
            let across = [(r, c - 1), (r, c + 1), (r - 1, c), (r + 1, c)];
            let on_lattice = |s: usize, (strength, at): (f32, f32)| {
                strength > OUTLIER_BORDER * strong && (s == outer || usual(s, at))
            };
            // Two tiles that touch share one side, which their rims may leave faint or off
            // the lattice (3D sides, dark rims against dark rims): one side across from a cell
            // of the tiles' colour may be anything; the other three must carry the lattice
            // (two would pass a strip of background of the tiles' colour between the
            // board's edge and a button bar).
            let mut shown = 0;
            for (s, &side) in self.sides[r as usize * self.cols + c as usize]
                .iter()
                .enumerate()
            {
                if on_lattice(s, side) {
                    shown += 1;
                } else if s == outer || !tile_coloured(across[s].0, across[s].1) {
                    return false;
                }
            }
            shown >= 3
        };
        let (rmin, rmax, cmin, cmax) = bounds;
        (
            rmin - usize::from(rmin > 0 && (cmin..=cmax).any(|c| continues(rmin - 1, c, 2))),
            rmax + usize::from(
                rmax + 1 < self.rows && (cmin..=cmax).any(|c| continues(rmax + 1, c, 3)),
            ),
            cmin - usize::from(cmin > 0 && (rmin..=rmax).any(|r| continues(r, cmin - 1, 0))),
            cmax + usize::from(
                cmax + 1 < self.cols && (rmin..=rmax).any(|r| continues(r, cmax + 1, 1)),
            ),
        )
    }

    /// Whether cell `i` may join the board: a strong candidate, a strong loose cell whose
    /// border colour is that of most candidates or of one `kept`, or a loose cell next to a
    /// `kept` one (sharing a side) whose borders are near the board's typical border in
    /// strength (see [`BORDER_AS_STRONG`]): a face drawn up to its rim hides the tile's own
    /// colour, as on a lone tile at the end of a row.
    pub(super) fn joins(&self, i: usize, kept: &[usize], reference: [f32; 3], strong: f32) -> bool {
        let ring = &self.ring;
        let next_to_kept = || {
            let (r, c) = (i / self.cols, i % self.cols);
            kept.iter().any(|&j| {
                let (rj, cj) = (j / self.cols, j % self.cols);
                r.abs_diff(rj) + c.abs_diff(cj) == 1
            })
        };
        (self.candidate[i] && self.weakest_side[i] > 0.4 * strong)
            || (self.loose[i]
                && self.weakest_loose[i] > 0.4 * strong
                && (alike_colours(&ring[i], &reference)
                    || kept.iter().any(|&j| alike_colours(&ring[i], &ring[j]))))
            || (self.loose[i]
                && self.weakest_loose[i] > BORDER_AS_STRONG * strong
                && next_to_kept())
    }
}

/// How far (a share of the pitch) a side's edge may lie from where the board's candidates
/// have theirs and still continue the lattice (see [`CellEvidence::grown_along_lattice`]):
/// a pixel or two, as rounding and resampling move a line.
const LATTICE_SLACK: f64 = 0.05;

/// The share of the board's candidates whose side must lie where a cell's does for that side
/// to continue the lattice (see [`CellEvidence::grown_along_lattice`]): the tiles beside empty
/// cells, a few among many on a full board, still show where a tile's own edge lies.
const LATTICE_SHARE: f32 = 0.1;

/// A loose cell's weakest side over the board's typical border (the 98th percentile of the
/// cells' weakest sides) at which it joins a kept neighbour whatever its border colour.
const BORDER_AS_STRONG: f32 = 0.6;

/// The most common colour (in bins of 32 levels per channel, then averaged within the bin) of
/// the band just inside a cell's border (10% to 22% of the pitch in): the tile's own background
/// colour, however much of the band the face's drawing covers, as long as no single colour of
/// the drawing covers more.
fn ring_colour(image: &RgbaImage, left: f64, top: f64, px: f64, py: f64) -> [f32; 3] {
    let (a, b) = (0.10, 0.22);
    let (w, h) = (image.width(), image.height());
    let (xa, xb) = pixel_range(left + a * px, left + (1.0 - a) * px, w);
    let (ya, yb) = pixel_range(top + a * py, top + (1.0 - a) * py, h);
    let (ia, ib) = pixel_range(left + b * px, left + (1.0 - b) * px, w);
    let (ja, jb) = pixel_range(top + b * py, top + (1.0 - b) * py, h);
    let band = (ya..yb)
        .flat_map(|y| (xa..xb).map(move |x| (x, y)))
        .filter(|&(x, y)| !((ia..ib).contains(&x) && (ja..jb).contains(&y)))
        .map(|(x, y)| {
            let p = image.get_pixel(x, y).0;
            [p[0], p[1], p[2]]
        });
    match commonest_bin(band) {
        Some((sums, n)) => std::array::from_fn(|c| sums[c] as f32 / n as f32),
        None => [0.0; 3],
    }
}

/// The largest group of marked cells where members lie at most `reach` cells apart on both
/// axes from another member (1: they touch, diagonals included).
pub(super) fn largest_cluster(marked: &[bool], rows: usize, cols: usize, reach: i64) -> Vec<usize> {
    let mut seen = vec![false; marked.len()];
    let mut best = Vec::new();
    for start in 0..marked.len() {
        if !marked[start] || seen[start] {
            continue;
        }
        seen[start] = true;
        let mut group = vec![start];
        let mut next = 0;
        while next < group.len() {
            let (r, c) = ((group[next] / cols) as i64, (group[next] % cols) as i64);
            next += 1;
            for dr in -reach..=reach {
                for dc in -reach..=reach {
                    let (nr, nc) = (r + dr, c + dc);
                    if nr < 0 || nc < 0 || nr >= rows as i64 || nc >= cols as i64 {
                        continue;
                    }
                    let n = nr as usize * cols + nc as usize;
                    if marked[n] && !seen[n] {
                        seen[n] = true;
                        group.push(n);
                    }
                }
            }
        }
        if group.len() > best.len() {
            best = group;
        }
    }
    best
}
