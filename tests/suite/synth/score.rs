//! Scoring vision on generated scenes: was the geometry found, how many cells were read right
//! (up to a renaming of kinds), did the reading miss the tiles altogether; and the tables
//! overall, per style and per label, with the worst seeds.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use linkup::board::{Board, Kind, Pos};
use linkup::stats;
use linkup::vision::{ClassifierSettings, Geometry, calibrate, read_board, selected_tiles};

use super::Scene;
use super::paint;
use super::recipe::{Marks, Panel};

/// Largest pitch error (each axis) for a geometry to count as right, in pixels.
pub const PITCH_TOLERANCE: f64 = 0.25;
/// Largest distance of tile (0, 0)'s centre from the truth body or face centre, in pixels.
pub const CENTRE_TOLERANCE: f64 = 1.0;
/// A reading that marks fewer than this share of the drawn tiles as tiles is a false empty.
pub const FALSE_EMPTY_SHARE: f64 = 0.5;

/// How vision did on one scene.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The scene's seed.
    pub seed: u64,
    /// The recipe's labels (the first is `style:...`).
    pub labels: Vec<String>,
    /// Cells in the truth grid.
    pub cells: usize,
    /// Tiles drawn.
    pub tiles: usize,
    /// The error of calibrate or read_board, if any.
    pub error: Option<String>,
    /// The geometry calibrate found, if it found one.
    pub found: Option<Geometry>,
    /// The truth geometry the picture shows (see [`evident_geometry`]).
    pub truth: Geometry,
    /// The truth face within a tile: x, y, width, height from the tile's corner.
    pub face: [f64; 4],
    /// Calibrated geometry within tolerance.
    pub geometry_right: bool,
    /// Cells read right with the calibrated geometry (0 on an error).
    pub cells_right: usize,
    /// The calibrated reading (when there is one) marks far fewer tiles than drawn.
    pub false_empty: bool,
    /// The error of read_board with the true geometry, if any.
    pub true_geometry_error: Option<String>,
    /// Cells read right with the true geometry.
    pub cells_right_true_geometry: usize,
    /// The true-geometry reading marks far fewer tiles than drawn.
    pub false_empty_true_geometry: bool,
    /// `selected_tiles` with the true geometry found exactly the selected tile (or none when
    /// none is).
    pub selection_right: bool,
    /// With the true geometry: cells drawn empty but read as tiles, tiles read as empty.
    pub empty_mistakes_true_geometry: (usize, usize),
    /// How long generating the scene took (set by the caller).
    pub generation: std::time::Duration,
}

impl Outcome {
    /// Geometry right and every cell right.
    pub fn exact(&self) -> bool {
        self.geometry_right && self.cells_right == self.cells
    }

    /// Every cell right when read with the true geometry.
    pub fn exact_true_geometry(&self) -> bool {
        self.cells_right_true_geometry == self.cells
    }

    /// One line on what went wrong.
    pub fn diagnosis(&self) -> String {
        let mut out = String::new();
        if let Some(e) = &self.error {
            let _ = write!(out, "error: {e}; ");
        }
        if let Some(g) = &self.found {
            let right = if self.geometry_right {
                "right"
            } else {
                "wrong"
            };
            let _ = write!(out, "found {g} ({right}); ");
            if !self.geometry_right || std::env::var_os("SYNTH_CENTRES").is_some() {
                let [body, face] = centre_offsets(g, &self.truth, self.face);
                let _ = write!(
                    out,
                    "centre off by ({:.1}, {:.1}) from the body, ({:.1}, {:.1}) from the face; ",
                    body[0], body[1], face[0], face[1]
                );
            }
        }
        let _ = write!(out, "truth {}; ", self.truth);
        let _ = write!(
            out,
            "cells {}/{} (true geometry {}/{}), {} tiles drawn",
            self.cells_right, self.cells, self.cells_right_true_geometry, self.cells, self.tiles
        );
        if self.false_empty {
            out.push_str("; false empty");
        }
        if !self.selection_right {
            out.push_str("; selection missed");
        }
        let (empties_as_tiles, tiles_as_empty) = self.empty_mistakes_true_geometry;
        if empties_as_tiles + tiles_as_empty > 0 {
            let _ = write!(
                out,
                "; true geometry: {empties_as_tiles} empty read as tiles, \
                 {tiles_as_empty} tiles read as empty"
            );
        }
        if self.false_empty_true_geometry {
            out.push_str("; false empty with true geometry");
        }
        if let Some(e) = &self.true_geometry_error {
            let _ = write!(out, "; true geometry error: {e}");
        }
        out
    }
}

/// Whether `found` matches the truth: rows and cols exact, pitch within
/// [`PITCH_TOLERANCE`], and tile (0, 0)'s centre within [`CENTRE_TOLERANCE`] of the truth
/// body centre or face centre.
pub fn geometry_right(found: &Geometry, truth: &Geometry, face: [f64; 4]) -> bool {
    if found.rows != truth.rows || found.cols != truth.cols {
        return false;
    }
    if (0..2).any(|i| (found.pitch[i] - truth.pitch[i]).abs() > PITCH_TOLERANCE) {
        return false;
    }
    let [body, face] = centre_offsets(found, truth, face);
    let length = |d: [f64; 2]| d[0].hypot(d[1]);
    length(body).min(length(face)) <= CENTRE_TOLERANCE
}

/// How far tile (0, 0)'s centre in `found` lies from the truth body centre and from the truth
/// face centre (x, y; positive is right and down).
fn centre_offsets(found: &Geometry, truth: &Geometry, face: [f64; 4]) -> [[f64; 2]; 2] {
    let centre = [
        found.origin[0] + found.tile_size[0] / 2.0,
        found.origin[1] + found.tile_size[1] / 2.0,
    ];
    let body = [
        truth.origin[0] + truth.tile_size[0] / 2.0,
        truth.origin[1] + truth.tile_size[1] / 2.0,
    ];
    let face_centre = [
        truth.origin[0] + face[0] + face[2] / 2.0,
        truth.origin[1] + face[1] + face[3] / 2.0,
    ];
    [
        [centre[0] - body[0], centre[1] - body[1]],
        [centre[0] - face_centre[0], centre[1] - face_centre[1]],
    ]
}

/// The board the picture shows: the truth geometry, or, when nothing but the tiles marks the
/// board (no panel behind it, no grid marks), the rows and columns the drawn tiles span. An
/// empty edge row or column of such a board leaves no trace in the pixels, so no reader can
/// know it is there (and with the border rule it plays as the ring outside the board).
pub fn evident_geometry(scene: &Scene) -> Geometry {
    let truth = scene.geometry;
    let marked = scene.recipe.panel != Panel::None || scene.recipe.marks != Marks::None;
    let tiles: Vec<Pos> = scene.board.tile_positions().collect();
    if marked || tiles.is_empty() {
        return truth;
    }
    let rows = tiles.iter().map(|p| p.row as usize);
    let cols = tiles.iter().map(|p| p.col as usize);
    let (r0, r1) = (rows.clone().min().unwrap_or(0), rows.max().unwrap_or(0));
    let (c0, c1) = (cols.clone().min().unwrap_or(0), cols.max().unwrap_or(0));
    Geometry {
        rows: r1 - r0 + 1,
        cols: c1 - c0 + 1,
        origin: [
            truth.origin[0] + c0 as f64 * truth.pitch[0],
            truth.origin[1] + r0 as f64 * truth.pitch[1],
        ],
        ..truth
    }
}

/// What the reading says at each truth cell: the read cell whose pitch box holds the truth
/// cell's centre (`None` when it lies outside the read grid).
fn read_at_truth_cells(
    truth: &Geometry,
    read_geometry: &Geometry,
    read: &Board,
) -> Vec<Option<Kind>> {
    let mut out = Vec::with_capacity(truth.rows * truth.cols);
    for r in 0..truth.rows {
        for c in 0..truth.cols {
            let [x, y] = truth.cell_center(Pos::new(r as i32, c as i32));
            let col = ((x - read_geometry.origin[0]) / read_geometry.pitch[0]).floor();
            let row = ((y - read_geometry.origin[1]) / read_geometry.pitch[1]).floor();
            let inside = col >= 0.0
                && row >= 0.0
                && (col as usize) < read.cols()
                && (row as usize) < read.rows();
            out.push(inside.then(|| read.get(Pos::new(row as i32, col as i32))));
        }
    }
    out
}

/// Cells read right: empty where the truth is empty, and tiles whose read kind maps to the
/// true kind under the best one-to-one renaming of kinds (by overlap counts). A cell outside
/// the read grid counts as read empty.
pub fn cells_right(truth: &Board, read: &[Option<Kind>]) -> usize {
    let read: Vec<Kind> = read.iter().map(|k| k.unwrap_or(0)).collect();
    let true_kinds: Vec<Kind> = distinct(truth.cells());
    let read_kinds: Vec<Kind> = distinct(&read);
    let n = true_kinds.len().max(read_kinds.len());
    let mut overlap = vec![vec![0i64; n]; n];
    let mut right = 0;
    for (&t, &r) in truth.cells().iter().zip(&read) {
        match (t, r) {
            (0, 0) => right += 1,
            (0, _) | (_, 0) => {}
            _ => {
                let ti = true_kinds.binary_search(&t).unwrap_or(0);
                let ri = read_kinds.binary_search(&r).unwrap_or(0);
                overlap[ri][ti] += 1;
            }
        }
    }
    if n == 0 {
        return right;
    }
    let cost: Vec<Vec<i64>> = overlap
        .iter()
        .map(|row| row.iter().map(|&v| -v).collect())
        .collect();
    let assignment = hungarian(&cost);
    right
        + assignment
            .iter()
            .enumerate()
            .map(|(ri, &ti)| overlap[ri][ti] as usize)
            .sum::<usize>()
}

fn distinct(cells: &[Kind]) -> Vec<Kind> {
    let mut kinds: Vec<Kind> = cells.iter().copied().filter(|&k| k != 0).collect();
    kinds.sort_unstable();
    kinds.dedup();
    kinds
}

/// The assignment of rows to columns of the square matrix `cost` with the least total cost
/// (Hungarian method with potentials, O(n^3)): `result[row] = column`.
fn hungarian(cost: &[Vec<i64>]) -> Vec<usize> {
    let n = cost.len();
    let inf = i64::MAX / 4;
    let mut u = vec![0i64; n + 1];
    let mut v = vec![0i64; n + 1];
    let mut p = vec![0usize; n + 1];
    let mut way = vec![0usize; n + 1];
    for i in 1..=n {
        p[0] = i;
        let mut j0 = 0;
        let mut minv = vec![inf; n + 1];
        let mut used = vec![false; n + 1];
        loop {
            used[j0] = true;
            let i0 = p[j0];
            let mut delta = inf;
            let mut j1 = 0;
            for j in 1..=n {
                if !used[j] {
                    let cur = cost[i0 - 1][j - 1] - u[i0] - v[j];
                    if cur < minv[j] {
                        minv[j] = cur;
                        way[j] = j0;
                    }
                    if minv[j] < delta {
                        delta = minv[j];
                        j1 = j;
                    }
                }
            }
            for j in 0..=n {
                if used[j] {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
            if p[j0] == 0 {
                break;
            }
        }
        loop {
            let j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
            if j0 == 0 {
                break;
            }
        }
    }
    let mut result = vec![0; n];
    for j in 1..=n {
        if p[j] > 0 {
            result[p[j] - 1] = j - 1;
        }
    }
    result
}

/// Whether a reading marks far fewer tiles than drawn, at the cells where tiles are drawn.
fn false_empty(truth: &Board, read: &[Option<Kind>]) -> bool {
    let drawn = truth.tiles();
    let seen = truth
        .cells()
        .iter()
        .zip(read)
        .filter(|&(&t, r)| t != 0 && r.is_some_and(|k| k != 0))
        .count();
    drawn > 0 && (seen as f64) < FALSE_EMPTY_SHARE * drawn as f64
}

/// Cells drawn empty but read as tiles, and tiles read as empty (same grid).
fn empty_mistakes(truth: &Board, read: &Board) -> (usize, usize) {
    let pairs = || truth.cells().iter().zip(read.cells());
    (
        pairs().filter(|&(&t, &r)| t == 0 && r != 0).count(),
        pairs().filter(|&(&t, &r)| t != 0 && r == 0).count(),
    )
}

/// Runs calibrate + read_board, and read_board with the true geometry, on `scene`.
pub fn evaluate(scene: &Scene, seed: u64) -> Outcome {
    let settings = ClassifierSettings::default();
    let truth = scene.geometry;
    let evident = evident_geometry(scene);
    let cells = truth.rows * truth.cols;
    let mut outcome = Outcome {
        seed,
        labels: scene.recipe.labels(),
        cells,
        tiles: scene.board.tiles(),
        error: None,
        found: None,
        truth: evident,
        face: scene.face,
        geometry_right: false,
        cells_right: 0,
        false_empty: false,
        true_geometry_error: None,
        cells_right_true_geometry: 0,
        false_empty_true_geometry: false,
        selection_right: false,
        empty_mistakes_true_geometry: (0, 0),
        generation: std::time::Duration::ZERO,
    };
    match calibrate(&scene.image) {
        Err(e) => outcome.error = Some(e.to_string()),
        Ok(found) => {
            outcome.found = Some(found);
            outcome.geometry_right = geometry_right(&found, &evident, scene.face);
            match read_board(&scene.image, &found, &settings) {
                Err(e) => outcome.error = Some(e.to_string()),
                Ok(reading) => {
                    let at = read_at_truth_cells(&truth, &found, &reading.board);
                    outcome.cells_right = cells_right(&scene.board, &at);
                    outcome.false_empty = false_empty(&scene.board, &at);
                }
            }
        }
    }
    match read_board(&scene.image, &truth, &settings) {
        Err(e) => outcome.true_geometry_error = Some(e.to_string()),
        Ok(reading) => {
            let at: Vec<Option<Kind>> = reading.board.cells().iter().map(|&k| Some(k)).collect();
            outcome.cells_right_true_geometry = cells_right(&scene.board, &at);
            outcome.false_empty_true_geometry = false_empty(&scene.board, &at);
            outcome.empty_mistakes_true_geometry = empty_mistakes(&scene.board, &reading.board);
            let selected = selected_tiles(&scene.image, &truth, &settings, &reading.board);
            outcome.selection_right = selected == scene.selected.into_iter().collect::<Vec<_>>();
        }
    }
    outcome
}

/// Totals over a group of outcomes.
#[derive(Default)]
struct Tally {
    scenes: usize,
    geometry_right: usize,
    cells: usize,
    cells_right: usize,
    exact: usize,
    cells_right_true: usize,
    exact_true: usize,
    errors: usize,
    false_empties: usize,
    false_empties_true: usize,
    selection_right: usize,
}

impl Tally {
    fn add(&mut self, o: &Outcome) {
        self.scenes += 1;
        self.geometry_right += usize::from(o.geometry_right);
        self.cells += o.cells;
        self.cells_right += o.cells_right;
        self.exact += usize::from(o.exact());
        self.cells_right_true += o.cells_right_true_geometry;
        self.exact_true += usize::from(o.exact_true_geometry());
        self.errors += usize::from(o.error.is_some());
        self.false_empties += usize::from(o.false_empty);
        self.false_empties_true += usize::from(o.false_empty_true_geometry);
        self.selection_right += usize::from(o.selection_right);
    }

    fn row(&self, name: &str) -> String {
        let pct = |a: usize, b: usize| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        format!(
            "{:<26} {:>6} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>7.1} {:>6} {:>6} {:>6} {:>6.1}",
            name,
            self.scenes,
            pct(self.geometry_right, self.scenes),
            pct(self.cells_right, self.cells),
            pct(self.exact, self.scenes),
            pct(self.cells_right_true, self.cells),
            pct(self.exact_true, self.scenes),
            self.errors,
            self.false_empties,
            self.false_empties_true,
            pct(self.selection_right, self.scenes),
        )
    }
}

/// The report: overall, per style, per label, and the worst 10 seeds.
pub fn report(outcomes: &[Outcome]) -> String {
    let header = format!(
        "{:<26} {:>6} {:>7} {:>7} {:>7} {:>7} {:>7} {:>6} {:>6} {:>6} {:>6}",
        "group",
        "scenes",
        "geom%",
        "cells%",
        "exact%",
        "tcells%",
        "texact%",
        "errors",
        "empty",
        "tempty",
        "sel%"
    );
    let mut out = String::new();
    let _ = writeln!(
        out,
        "geom% geometry right; cells% cells right with the calibrated geometry; exact% scenes read \
         exactly; t* the same with the true geometry; empty/tempty false empties (a reading with \
         under half the drawn tiles); sel% \
         selected_tiles (true geometry) found exactly the selected tile, or none"
    );
    let mut all = Tally::default();
    let mut styles: BTreeMap<String, Tally> = BTreeMap::new();
    let mut labels: BTreeMap<String, Tally> = BTreeMap::new();
    for o in outcomes {
        all.add(o);
        styles.entry(o.labels[0].clone()).or_default().add(o);
        for l in &o.labels[1..] {
            labels.entry(l.clone()).or_default().add(o);
        }
    }
    let _ = writeln!(out, "{header}");
    let _ = writeln!(out, "{}", all.row("all"));
    let _ = writeln!(out, "\nper style\n{header}");
    for (name, t) in &styles {
        let _ = writeln!(out, "{}", t.row(name.trim_start_matches("style:")));
    }
    let _ = writeln!(out, "\nper label\n{header}");
    for (name, t) in &labels {
        let _ = writeln!(out, "{}", t.row(name));
    }
    let mut worst: Vec<&Outcome> = outcomes.iter().filter(|o| !o.exact()).collect();
    // Worst first: fewest cells right, with the found and with the true geometry together.
    let share_right =
        |o: &Outcome| (o.cells_right + o.cells_right_true_geometry) as f64 / o.cells as f64;
    worst.sort_by(|a, b| {
        share_right(a)
            .total_cmp(&share_right(b))
            .then(a.seed.cmp(&b.seed))
    });
    let mut times: Vec<f64> = outcomes
        .iter()
        .map(|o| o.generation.as_secs_f64() * 1e3)
        .collect();
    if let Some(summary) = time_summary(&mut times) {
        let _ = writeln!(
            out,
            "\ngeneration: {summary} a scene (first uses of a tileset or background at a size \
             include rendering it)"
        );
    }
    let _ = writeln!(out, "\nworst seeds");
    for o in worst.iter().take(10) {
        let _ = writeln!(
            out,
            "seed {} [{}]: {}",
            o.seed,
            o.labels.join(" "),
            o.diagnosis()
        );
    }
    out
}

/// The scene with every true cell's body boxed in green and every cell of `found` (when
/// calibrate found a geometry) in magenta, to see at a glance where vision went wrong.
pub fn boxes(scene: &Scene, found: Option<&Geometry>) -> image::RgbaImage {
    let mut img = scene.image.clone();
    let mut draw = |g: &Geometry, colour: paint::Colour| {
        for row in 0..g.rows {
            for col in 0..g.cols {
                let r = g.cell_rect(Pos::new(row as i32, col as i32));
                let (x, y) = (r.x.round() as i64, r.y.round() as i64);
                let (w, h) = (r.w.round() as i64, r.h.round() as i64);
                paint::outline_rect(&mut img, x, y, w, h, 1, colour);
            }
        }
    };
    draw(&scene.geometry, [0, 220, 0, 255]);
    if let Some(g) = found {
        draw(g, [255, 0, 255, 255]);
    }
    img
}

/// `median M ms, 90th percentile P ms, max X ms` of `times` (milliseconds; reordered), by
/// [`linkup::stats`]; `None` when there are none.
pub fn time_summary(times: &mut [f64]) -> Option<String> {
    let median = stats::median(times)?;
    stats::sort(times);
    let p90 = stats::quantile(times, 0.9)?;
    let max = times[times.len() - 1];
    Some(format!(
        "median {median:.0} ms, 90th percentile {p90:.0} ms, max {max:.0} ms"
    ))
}
