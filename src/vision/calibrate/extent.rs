//! The board's extent on a lattice: the largest cluster of cells bordered like tiles.

use crate::vision::VisionError;
use crate::vision::features::EdgeMap;

use super::*;

/// The board's cells in comb coordinates.
#[derive(Clone, Copy, Debug)]
pub(super) struct Extent {
    /// The colour of most tiles' border band (see [`ring_colour`]).
    pub(super) tile_colour: [f32; 3],
    pub(super) row0: i64,
    pub(super) col0: i64,
    pub(super) rows: usize,
    pub(super) cols: usize,
}

/// Edge evidence for one cell side: the strongest straight edge within `across` that runs
/// the whole side, measured as the weakest of its three thirds (a tile's border is one
/// unbroken line; a text stroke or a toolbar's edge that happens to fall on the comb covers
/// part of the side only), and the pixel line it lies on (the window's first when none
/// does).
pub(super) fn side_line(
    map: &EdgeMap,
    across: (f64, f64),
    along: (f64, f64),
    vertical: bool,
) -> (f32, f64) {
    // `across` is the window the line may lie in; `along` the segment.
    let (a0, a1) = along;
    let limit_across = if vertical { map.width } else { map.height };
    let limit_along = if vertical { map.height } else { map.width };
    let lo = across.0.floor().max(0.0) as usize;
    let hi = (across.1.ceil().max(0.0) as usize).min(limit_across.saturating_sub(1));
    let s0 = a0.ceil().max(0.0) as usize;
    let s1 = (a1.floor().max(0.0) as usize).min(limit_along);
    if s1 < s0 + 3 || hi < lo {
        return (0.0, lo as f64);
    }
    let cuts = [s0, s0 + (s1 - s0) / 3, s0 + 2 * (s1 - s0) / 3, s1];
    let (mut best, mut at) = (0f32, lo);
    for p in lo..=hi {
        let segment = |a: usize, b: usize| {
            if vertical {
                map.sum((p, p + 1), (a, b))
            } else {
                map.sum((a, b), (p, p + 1))
            }
        };
        let weakest = cuts
            .windows(2)
            .map(|w| (segment(w[0], w[1]) / (w[1] - w[0]) as f64) as f32)
            .fold(f32::MAX, f32::min);
        if weakest > best {
            (best, at) = (weakest, p);
        }
    }
    (best, at as f64)
}

/// Mean straight-edge strength inside a rectangle.
pub(super) fn inside_strength(map: &EdgeMap, x0: f64, y0: f64, x1: f64, y1: f64) -> f32 {
    let xa = x0.ceil().max(0.0) as usize;
    let xb = (x1.floor().max(0.0) as usize).min(map.width);
    let ya = y0.ceil().max(0.0) as usize;
    let yb = (y1.floor().max(0.0) as usize).min(map.height);
    if xb <= xa || yb <= ya {
        return 0.0;
    }
    (map.sum((xa, xb), (ya, yb)) / ((xb - xa) * (yb - ya)) as f64) as f32
}

/// Which grid cells hold tiles: the bounding box of the largest cluster of them, and how many
/// tile-like cells lie in that box. `outliers` says whether a few far stronger cells may be
/// looked past (see [`board_cells`]); a coarser comb checked against a board already found
/// gets no such second try (over grid lines, its few strong cells hid a comb twice the pitch).
pub(super) fn find_extent(
    edges: &Edges,
    x_axis: Axis,
    y_axis: Axis,
    (outliers, growth, sides): (Outliers, Growth, Sides),
) -> Result<(Extent, usize), VisionError> {
    let mut measured = CellEvidence::measure(edges, x_axis, y_axis)?;
    if sides == Sides::GapInside {
        measured.candidate.clone_from(&measured.loose);
        measured.weakest_side.clone_from(&measured.weakest_loose);
        measured.reach = SPARSE_REACH;
    }
    let (cells, reference, cluster, strong) = board_cells(&measured, outliers)?;
    let mut bounds = cells.grown_box(&cluster, reference, strong);
    if growth == Growth::AlongLattice {
        bounds =
            cells.grown_along_lattice(bounds, (edges.image, [x_axis, y_axis]), reference, strong);
    }
    let (rmin, rmax, cmin, cmax) = bounds;
    if rmax == rmin || cmax == cmin {
        return Err(no_board("the tile-like cells form a single line"));
    }
    let tiles = (0..cells.candidate.len())
        .filter(|&i| {
            cells.candidate[i]
                && (rmin..=rmax).contains(&(i / cells.cols))
                && (cmin..=cmax).contains(&(i % cells.cols))
        })
        .count();
    let [(col0, cols), (row0, rows)] = grown_to_panel(
        edges,
        [x_axis, y_axis],
        [
            (cells.col0 + cmin as i64, cmax - cmin + 1),
            (cells.row0 + rmin as i64, rmax - rmin + 1),
        ],
        (PANEL_LEVEL * strong).max(PANEL_FLOOR),
    );
    let extent = Extent {
        tile_colour: reference,
        row0,
        col0,
        rows,
        cols,
    };
    Ok((extent, tiles))
}

/// Whether [`find_extent`] grows the board's box along its lattice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Growth {
    /// The box of the tile-like cells only.
    None,
    /// Grown by the rows and columns the lattice runs on through (see
    /// [`CellEvidence::grown_along_lattice`]).
    AlongLattice,
}

/// Where [`find_extent`] looks for a cell's sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Sides {
    /// Within a few pixels of the comb's lines.
    OnComb,
    /// Also up to a gap's width inside the cell (the loose windows of [`CellEvidence`]): on a
    /// board with gaps the comb lies on one side of each gap, on the borders a tile shares
    /// with the next, so a tile with no neighbour keeps its far border a gap inside its cell,
    /// and on a sparse board of such tiles no cell shows four sides on the comb's lines.
    /// Looser cells pass more easily over a texture: only on the objects' pitch, where the
    /// objects showed a board (see [`calibrate`]); there the tiles of a sparse board may also
    /// lie a few cells apart (see [`SPARSE_REACH`]).
    GapInside,
}

/// How many cells apart the tiles of a board the objects showed may lie (see
/// [`Sides::GapInside`]), and those of any board where no four tiles touch (see
/// [`tiles_at`]): a sparse board's tiles, as in [`super::blobs`].
const SPARSE_REACH: i64 = 3;

/// Whether [`find_extent`] may look for the typical border below a few outlying cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outliers {
    /// The 98th percentile is the typical border.
    Typical,
    /// When the cells at the 98th percentile hold no board, below them (see [`find_extent`]).
    LookPast,
}

/// The board's typical border among the cells' weakest sides under `below`: their 98th
/// percentile (a sparse board's tiles may be few among the comb's cells).
fn typical_border(weakest_side: &[f32], below: f32) -> f32 {
    let mut v: Vec<f32> = weakest_side
        .iter()
        .copied()
        .filter(|&s| s < below)
        .collect();
    v.sort_by(f32::total_cmp);
    v.get(v.len() * 98 / 100).copied().unwrap_or(0.0)
}

/// How many times more tiles than outlying cells the board found below them must hold (see
/// [`find_extent`]): a few faces stand out, not a tenth of the board.
const FEW_OUTLIERS: usize = 10;

/// The tile-like cells of the largest board at the board's typical border (see [`tiles_at`]).
/// Tile borders are sharp and alike all over the board; texture and clutter that happen to
/// line up with the comb are much weaker than the typical border. A few faces can draw a frame
/// along their border (kshisen's white dragon), far stronger than the rest; when the cells
/// that strong hold no board and `outliers` allows, the typical border is sought below them,
/// and the board found there stands when it holds [`FEW_OUTLIERS`] times as many tiles.
fn board_cells(
    measured: &CellEvidence,
    outliers: Outliers,
) -> Result<(CellEvidence, [f32; 3], Vec<usize>, f32), VisionError> {
    let strong = typical_border(&measured.weakest_side, f32::MAX);
    let first = match tiles_at(measured, strong) {
        Err(first) if outliers == Outliers::LookPast => first,
        found => return found,
    };
    let level = OUTLIER_BORDER * strong;
    let below = typical_border(&measured.weakest_side, level);
    let over = |level: f32| {
        (0..measured.candidate.len())
            .filter(|&i| measured.candidate[i] && measured.weakest_side[i] > level)
            .count()
    };
    let outlying = over(level);
    // Every tile below is a candidate over the lower level: no need to look when too few are.
    if below <= 0.0 || over(OUTLIER_BORDER * below) < outlying * FEW_OUTLIERS {
        return Err(first);
    }
    match tiles_at(measured, below) {
        Ok(found) if outlying * FEW_OUTLIERS <= found.2.len() => Ok(found),
        _ => Err(first),
    }
}

/// The share of the board's typical border a tile's weakest side must reach to be a tile, and
/// under which the typical border is sought again when the cells over it hold no board.
pub(super) const OUTLIER_BORDER: f32 = 0.3;

/// The tile-like cells at the typical border `strong`: the evidence with its candidates kept,
/// their border colour (see [`CellEvidence::keep_alike_candidates`]), their largest cluster,
/// and `strong`. A candidate unlike the tiles' colour must reach [`UNLIKE_AS_STRONG`] of the
/// typical border. When no four candidates touch, the cluster may hold tiles up to
/// [`SPARSE_REACH`] cells apart: a sparse board's tiles may all stand apart (the box then
/// grows by the tiles near it, see [`CellEvidence::grown_box`]).
pub(super) fn tiles_at(
    measured: &CellEvidence,
    strong: f32,
) -> Result<(CellEvidence, [f32; 3], Vec<usize>, f32), VisionError> {
    let mut cells = measured.clone();
    for (c, &s) in cells.candidate.iter_mut().zip(&cells.weakest_side) {
        *c = *c && s > OUTLIER_BORDER * strong;
    }
    let reference = cells.keep_alike_candidates()?;
    // A tile unlike most in colour is a tile of its own colour (flat tiles), drawn with the
    // board's sharp borders; a texture beside the board makes weak four-sided cells alike each
    // other but not the tiles.
    for i in 0..cells.candidate.len() {
        if cells.weakest_side[i] < UNLIKE_AS_STRONG * strong
            && !alike_colours(&cells.ring[i], &reference)
        {
            cells.candidate[i] = false;
        }
    }
    let mut cluster = largest_cluster(&cells.candidate, cells.rows, cells.cols, cells.reach);
    if cluster.len() < 4 && cells.reach < SPARSE_REACH {
        cluster = largest_cluster(&cells.candidate, cells.rows, cells.cols, SPARSE_REACH);
    }
    if cluster.len() < 4 {
        return Err(no_board("too few tile-like cells in one place"));
    }
    Ok((cells, reference, cluster, strong))
}
