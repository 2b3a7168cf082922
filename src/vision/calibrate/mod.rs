//! Auto-calibration: where the board is in a screenshot nobody has measured.
//!
//! 1. Straight-edge maps (see [`EdgeMap`]) are projected onto each axis; tile borders line up
//!    down whole columns and rows of the board, so the projections carry narrow peaks repeating
//!    at the pitch. The pitch comes from the autocorrelation of the peaks, checked with a comb
//!    that must beat the same comb shifted by half a pitch (this rejects multiples and halves);
//!    the phase is the comb's best offset; a comb whose teeth alternate (a half or a third of
//!    the pitch, from lines repeating inside the tiles) is never taken as the reference, however
//!    much it collects. x and y are independent (mahjong tiles are tall).
//! 2. The grid the comb defines is laid over the whole image. A cell is a tile candidate when
//!    all four of its sides carry a straight edge that runs the whole side (each third of it)
//!    and stands out from the cell's inside, and the colour just inside its border matches that
//!    of most candidates (so buttons and text, which are neither aligned nor alike, drop out; a
//!    toolbar's long edge plus a text stroke that happen to fall on the comb cover a side only
//!    in part). The board is the bounding box of the largest cluster of candidates. Once the
//!    combs are chosen, that box grows by a row or column on each side where the lattice's
//!    lines run on through a cell (faces busy up to their rim have as much edge inside as on
//!    their border, and are no candidates; see [`CellEvidence::grown_along_lattice`]).
//! 3. Inside that box the pitch and phase are refined against the profiles of the board alone:
//!    a centroid fit, then the comb (one tooth per boundary) that collects the most edge over
//!    a fine grid of pitches and phases, then a robust line through the interior boundaries
//!    (the outer ones have an edge on one side only, or a 3D edge), each boundary registered
//!    against the mean shape of all of them rather than at a centroid, whose window and
//!    weights shift with brightness and with which neighbours are present (see
//!    [`register_fit`]); whole pixels on an unscaled screenshot, fractions on a rescaled one.
//!    Last, every tile border is located on its own in signed (rising / falling) edge
//!    profiles, which keep a tile's leading and trailing borders apart wherever its neighbours
//!    are missing, and one line through all of them over the whole board gives the pitch to a
//!    fraction of a pixel (see [`edge_fit`]); the whole-pixel fit stands when it agrees with
//!    that line to half a pixel over the board.
//!    The gap between tiles is read from the folded profile: a second edge close to the main
//!    one means a gap (or a dividing line), whose width the tile size leaves out, when the
//!    strip between the two edges is unlike the tiles' own colour more often than the cells'
//!    middles are: a 3D edge shows only beside empty cells (the next tile covers it) and an
//!    edge inside the faces (a bright frame saturating) leaves the strip like the tiles.
//!
//! Whole-image lines (menu and status bars) are capped before the pitch search, and a cell
//! counts as a tile candidate only when its weakest side is at least 30% of the strong cells'
//! (the 98th percentile), so a textured background does not pass for tiles.
//!
//! The steps have modules of their own: [`axes`] (step 1), [`extent`] and [`growth`] (step 2),
//! [`refine`] and [`span`] (step 3); [`borders`] ranks the boards the steps give on each
//! candidate lattice, [`halves`] joins cells that cut every tile in half, [`straddle`] moves a
//! lattice half a pitch off onto the tiles, [`centring`] centres the tiles within their cells,
//! and [`marks`] takes in the empty lines a game marks as the board's. This module joins them: the board whose tiles pair, grown, centred on the point
//! most measures of the faces agree on.

use image::RgbaImage;

use crate::board::{Board, Kind, Pos};
use crate::stats::mean_median;
use crate::vision::features::{
    EdgeMap, column_profile, horizontal_edges, peaks_only, row_profile, vertical_edges,
};
use crate::vision::pictures::{face_centre, picture_centre};
use crate::vision::{ClassifierSettings, Geometry, VisionError};

mod axes;
mod borders;
mod centring;
mod extent;
mod growth;
mod halves;
mod marks;
mod refine;
mod span;
mod straddle;

use axes::*;
use borders::*;
use centring::*;
use extent::*;
use growth::*;
use halves::*;
use marks::*;
use refine::*;
use span::*;

/// Smallest pitch considered, in pixels.
pub(super) const MIN_PITCH: f64 = 10.0;
/// Smallest image that can hold a board.
const MIN_SIDE: u32 = 40;

/// Finds the board in a screenshot: rows, columns, origin, pitch and tile size.
///
/// Every kind of a link-up game comes in pairs, so on the right board nearly every tile read
/// has a copy; the first board on which most do is taken, else the one with the most. From
/// the tiles' borders first; then the boards the borders passed over on a finer comb; then
/// from the objects drawn on a lattice (see `vision::blobs`: tiles with no body, such as
/// emoji drawn on the background, show no cell with four borders), first from the borders
/// again on the objects' pitch, which the image's own periods may have hidden among the
/// candidates (a small board of busy faces on a photo), for each reading of the objects in
/// turn (a later one replaces the best board only with as many tiles); last from the borders
/// at the periods of the edges inside the largest merged objects (a small board of touching
/// tiles in a large, busy frame). Cells that cut every tile in half on an axis are joined in
/// twos there (see `halves_joined`), and a lattice half a pitch off the tiles moves onto them
/// (see `straddle`). The board then takes in the lines next to it whose tiles pair with its
/// own, and the empty lines the game marks as the board's (dots or grid lines at the cells'
/// corners), and its boxes keep off those marks. Before they grow, the pitch is measured
/// between copies of a kind (see `vision::copies`) and the tiles move onto the centre most
/// measures of their faces agree on (see `centred_on_faces`). Last, boxes that fill the pitch
/// on a board whose tiles mostly have no copy are made a little smaller where far more then
/// pair (see `shrunk_to_pairs`).
///
/// Fails with [`VisionError::NoBoard`] when no periodic grid of alike tiles is visible.
pub fn calibrate(image: &RgbaImage) -> Result<Geometry, VisionError> {
    let (w, h) = (image.width(), image.height());
    if w < MIN_SIDE || h < MIN_SIDE {
        return Err(VisionError::TooSmall {
            width: w,
            height: h,
        });
    }
    let edges = Edges::of(image);
    let (board, reading) = paired_board(image, &edges)?;
    let (board, reading) = halves_joined(&edges, board, reading);
    let (board, reading) = straddle::onto_whole_tiles(image, board, reading);
    let board = match &reading {
        Some(r) => super::copies::pitch_from_copies(image, &board, &r.board),
        None => board,
    };
    let before_growth = reading.as_ref().map(HowItRead::of);
    let board = centred_on_faces(image, board, reading);
    let board = grown_by_marks(image, grown_by_copies(image, board));
    Ok(shrunk_to_pairs(image, board, before_growth))
}

/// Share of tiles with a copy under which a board whose boxes fill the pitch is read again
/// with smaller boxes (see [`shrunk_to_pairs`]).
const SHRINK_BELOW: f64 = 0.8;

/// Share of its tiles the classifier is unsure of at which a board whose boxes fill the pitch
/// is read again with smaller boxes (see [`shrunk_to_pairs`]).
const SHRINK_UNSURE: f64 = 0.25;

/// How a board read: the share of its tiles with a copy, and the share the classifier is
/// unsure of.
#[derive(Clone, Copy)]
struct HowItRead {
    paired: f64,
    unsure: f64,
}

impl HowItRead {
    fn of(read: &Paired) -> Self {
        HowItRead {
            paired: read.share,
            unsure: read.unsure as f64 / read.board.tiles().max(1) as f64,
        }
    }

    /// Whether a board whose boxes fill the pitch reads well enough as it is.
    fn well(self) -> bool {
        self.paired >= SHRINK_BELOW && self.unsure < SHRINK_UNSURE
    }
}

/// `board`, whose tiles' boxes fill the pitch, with boxes a little smaller (the same centres)
/// when far more of its tiles then have a copy (0.2 of them more), or when the same cells
/// then hold tiles, as many of them with a copy, and the classifier is unsure of half as many
/// or fewer. On a sparse board whose tiles stand apart on a ruled or textured panel, the edges
/// may give no second edge by the first, and boxes the whole cell leave no gap round them:
/// every empty cell reads as a tile of its own kind (seed 39068: 144 tiles read, 44 drawn).
/// With a gap in the boxes, the empty cells show what the gaps show, and read empty. Small
/// icons on a textured panel with the boxes the whole cell are mostly texture, and kinds
/// merge (seed 40007: 17 kinds read of 21, half the tiles unsure). Boards that read well
/// stay, and so do boards whose reading before they grew (`before_growth`) did, without a
/// reading of their own: lines join a board only where their tiles have copies.
fn shrunk_to_pairs(
    image: &RgbaImage,
    board: Geometry,
    before_growth: Option<HowItRead>,
) -> Geometry {
    if (0..2).any(|i| board.pitch[i] - board.tile_size[i] > 0.5)
        || before_growth.is_some_and(HowItRead::well)
    {
        return board;
    }
    let Some(before) = Paired::read(image, &board) else {
        return board;
    };
    if HowItRead::of(&before).well() {
        return board;
    }
    let mut best = (board, before);
    for share in [0.95, 0.9, 0.85] {
        let size = [0, 1].map(|i| board.pitch[i] * share);
        let smaller = Geometry {
            origin: [0, 1].map(|i| board.origin[i] + (board.tile_size[i] - size[i]) / 2.0),
            tile_size: size,
            ..board
        };
        let Some(read) = Paired::read(image, &smaller) else {
            continue;
        };
        let pairs_more = read.share >= best.1.share + 0.2 && read.board.tiles() >= 4;
        let surer = same_tiles(&read.board, &best.1.board)
            && read.share >= best.1.share
            && 2 * read.unsure <= best.1.unsure;
        if pairs_more || surer {
            best = (smaller, read);
        }
    }
    best.0
}

/// Whether two readings of a board hold tiles in the same cells.
fn same_tiles(a: &Board, b: &Board) -> bool {
    a.cells().len() == b.cells().len()
        && (a.cells().iter().zip(b.cells())).all(|(&x, &y)| (x != 0) == (y != 0))
}

/// `board` with its tiles centred on their faces. Seven measures of tile (0, 0)'s centre each
/// err by a pixel or two on some tilesets, seldom the same way: the boxes from the edges (a
/// 3D side drawn in layers, a bevel), the bodies' silhouettes beside empty cells (see
/// [`super::silhouette`]: an outline as dark as the panel), the faces' mirror centre (see
/// [`super::symmetry`]: two stacked characters), the extent of the faces' ground and of the
/// pictures (see [`face_centre`], [`picture_centre`]: a bevel in the ground's colour, faint
/// strokes), the mirror centre of the mean tile's edges (see [`super::mean_tile`]: a side
/// drawn in layers, a corner index on most kinds) and the pictures' extent across the board
/// (see [`drawing_centre`]: a bevel busier than the ground). Each measure carries votes by how
/// often it is right (see [`VOTES`]); the measure with the most votes within
/// [`MEASURES_AGREE`] of it, with those measures (their median), places the tiles when they
/// hold enough votes;
/// else the mirror centre does where the tiles agree on it (else the boxes stand). A move stands
/// when the cells read there hold the same tiles as before, as many of them have a copy, and
/// at most half as many kinds again: a box moved onto the gap or a neighbour's side (an
/// oversized box, a glyph drawn off its tile's centre) reads the cells otherwise, and one
/// moved off the faces splits kinds into pairs sampled alike (jade on a 12 x 24 board: 25
/// kinds read as 55). `before` is the board's reading (`None` when it did not read: the board
/// stays).
fn centred_on_faces(image: &RgbaImage, board: Geometry, before: Option<Paired>) -> Geometry {
    let Some(before) = before else {
        return board;
    };
    let mirrored = super::symmetry::onto_mirror_centres(image, &board, &before.board);
    let reads_alike = |moved: &Geometry| {
        // Kinds are numbered 1.. by first appearance.
        let kinds = |b: &Board| b.cells().iter().copied().max().unwrap_or(0);
        Paired::read(image, moved).is_some_and(|after| {
            same_tiles(&after.board, &before.board)
                && after.share >= before.share
                && 2 * kinds(&after.board) <= 3 * kinds(&before.board)
        })
    };
    // The mirror step alone, read only where needed (the costly part).
    let by_symmetry = || {
        if mirrored != board && reads_alike(&mirrored) {
            mirrored
        } else {
            board
        }
    };
    let measures = centre_measures(image, &board, &mirrored, &before.board);
    let Some(agreed) = most_agreed(&measures, MEASURES_AGREE, VOTES_NEEDED) else {
        return by_symmetry();
    };
    let moved = Geometry {
        origin: [0, 1].map(|i| agreed[i] - board.tile_size[i] / 2.0),
        ..board
    };
    if moved == board || moved.fits(image.width(), image.height()) && reads_alike(&moved) {
        moved
    } else {
        by_symmetry()
    }
}

/// One measure of tile (0, 0)'s centre (x, y) and the votes it carries.
type Measure = ([f64; 2], u32);

/// Votes of the bodies' silhouettes, the faces' mirror centre, the extent of the faces'
/// ground, the extent of the pictures, the mean tile's mirror centre, the pictures' extent
/// across the board (see [`drawing_centre`]) and the boxes from the edges. Replayed on the
/// logged measures of the 1,177 generated tuning boards of seeds 1..400, 12000..12399 and
/// 33000..33399 whose lattice is right, tile (0, 0)'s centre lies within a pixel of the body's
/// or the face's on 1,100 with these votes (1,088 without the pictures across the board and
/// with boxes at 2, the votes before; held out, 34000..37399: 1,444 of 1,557, against 1,431).
/// A silhouette or a mirror centre alone places the tiles; every other measure needs others
/// beside it (the faces' ground often stops at a bevel on one axis, a box on a layer of a
/// 3D side, the pictures across the board at a faint stroke).
const VOTES: Votes = Votes {
    silhouette: 3,
    mirror: 3,
    faces: 2,
    pictures: 2,
    mean_tile: 1,
    drawings: 1,
    boxes: 1,
};

/// Fewest votes that place the tiles (see [`VOTES`]).
const VOTES_NEEDED: u32 = 3;

/// The votes of each measure of the tiles' centre (see [`VOTES`]).
struct Votes {
    silhouette: u32,
    mirror: u32,
    faces: u32,
    pictures: u32,
    mean_tile: u32,
    drawings: u32,
    boxes: u32,
}

/// The measures of tile (0, 0)'s centre that [`centred_on_faces`] weighs, with their votes,
/// in order of preference on a tie: the silhouettes' (of the tiles of `read` beside empty
/// cells, see [`super::silhouette`]), the `mirrored` board's (when it moved), the faces',
/// the pictures', the mean tile's (see [`super::mean_tile`]) and `board`'s own.
fn centre_measures(
    image: &RgbaImage,
    board: &Geometry,
    mirrored: &Geometry,
    read: &Board,
) -> Vec<Measure> {
    let centre = |g: &Geometry| [0, 1].map(|i| g.origin[i] + g.tile_size[i] / 2.0);
    let box_centre = centre(board);
    let mut measures: Vec<Measure> = super::silhouette::silhouette_centre(image, board, read)
        .map(|c| (c, VOTES.silhouette))
        .into_iter()
        .collect();
    if mirrored != board {
        measures.push((centre(mirrored), VOTES.mirror));
    }
    // The cells' lattice: a boundary at phase p lies at p + 1, the tiles centred in the cells.
    let lattice = |i: usize| {
        let gap = board.pitch[i] - board.tile_size[i];
        (board.origin[i] - 1.0 - gap / 2.0, board.pitch[i])
    };
    let (cols, rows) = ((0, board.cols), (0, board.rows));
    // The same tile's centre: a measure may come a whole pitch away.
    let near_box =
        |c: [f64; 2]| [0, 1].map(|i| repeat_nearest(c[i], box_centre[i], board.pitch[i]));
    for (measured, votes) in [
        (
            face_centre(image, lattice(0), lattice(1), cols, rows),
            VOTES.faces,
        ),
        (
            picture_centre(image, lattice(0), lattice(1), cols, rows),
            VOTES.pictures,
        ),
    ] {
        if let Some(measured) = measured {
            measures.push((near_box(measured.centre), votes));
        }
    }
    measures.extend(
        super::mean_tile::mean_tile_centre(image, board, read).map(|c| (c, VOTES.mean_tile)),
    );
    let axis = |i: usize| {
        let (phase, pitch) = lattice(i);
        Axis { phase, pitch }
    };
    let (x_cells, y_cells) = ((axis(0), cols), (axis(1), rows));
    if let (Some(x), Some(y)) = (
        drawing_centre(image, x_cells, y_cells, true),
        drawing_centre(image, y_cells, x_cells, false),
    ) {
        measures.push((near_box([x, y]), VOTES.drawings));
    }
    measures.push((box_centre, VOTES.boxes));
    measures
}

/// Farthest apart (pixels) two measures of the tiles' centre may lie to agree.
const MEASURES_AGREE: f64 = 1.0;

/// The median (each axis) of the measures within `agree` of the measure whose measures within
/// `agree` hold the most votes (the first such, on a tie); `None` when those hold fewer than
/// `needed`. A median, not a mean: of three measures on whole pixels, one half a pixel off (a
/// picture drawn a pixel off its face's centre) does not move the other two. (A mean weighted
/// by votes placed more of the generated tuning boards, 1,111 against 1,100, but moved real
/// xshisen tiles at 0.8x by a tenth of a pixel, and their reading split a kind in two.)
fn most_agreed(measures: &[Measure], agree: f64, needed: u32) -> Option<[f64; 2]> {
    let near = |a: &[f64; 2], b: &[f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]) <= agree;
    let support = |p: &[f64; 2]| -> u32 {
        measures
            .iter()
            .filter(|(q, _)| near(p, q))
            .map(|&(_, votes)| votes)
            .sum()
    };
    let (best, _) = measures
        .iter()
        .rev()
        .max_by_key(|(p, _)| support(p))
        .filter(|(p, _)| support(p) >= needed)?;
    let group: Vec<&[f64; 2]> = measures
        .iter()
        .map(|(q, _)| q)
        .filter(|q| near(best, q))
        .collect();
    let median = |i: usize| {
        let mut values: Vec<f64> = group.iter().map(|q| q[i]).collect();
        mean_median(&mut values)
    };
    Some([median(0)?, median(1)?])
}

/// A board read, and the share of its tiles that have a copy (see
/// [`super::classify::twin_share`]; 0 with under four tiles).
struct Paired {
    board: Board,
    share: f64,
    /// How many of the tiles have a copy.
    twins: usize,
    /// How many of the tiles the classifier is unsure of (see [`Reading::low_confidence`]).
    ///
    /// [`Reading::low_confidence`]: crate::vision::Reading::low_confidence
    unsure: usize,
    /// The share and the tiles boards are judged by: without the kind that is the ground
    /// (see [`judged`]).
    judged_share: f64,
    judged_tiles: usize,
}

impl Paired {
    /// The cells at `geometry` read with each tile's nearest copy; `None` when they do not
    /// read.
    fn read(image: &RgbaImage, geometry: &Geometry) -> Option<Self> {
        let settings = ClassifierSettings::default();
        let (reading, copies) =
            super::classify::read_with_copies(image, geometry, &settings, &|_| true).ok()?;
        let copies = copies.unwrap_or_default();
        let (judged_share, judged_tiles) = judged(&reading.board, &copies);
        let unsure = (reading.low_confidence.iter())
            .filter(|&&p| reading.board.get(p) != 0)
            .count();
        Some(Paired {
            unsure,
            board: reading.board,
            share: super::classify::twin_share(&copies),
            twins: copies.iter().filter(|t| t.copy.is_some()).count(),
            judged_share,
            judged_tiles,
        })
    }
}

/// The share of the tiles of `board` with a copy and how many tiles it holds, leaving out
/// the kind that is the ground (see [`ground_kind`]): the share is never more than with it, and
/// 0 when under four tiles are left (as for any reading of so few).
fn judged(board: &Board, copies: &[super::classify::TileCopy]) -> (f64, usize) {
    let share = super::classify::twin_share(copies);
    let Some(ground) = ground_kind(board) else {
        return (share, board.tiles());
    };
    let kinds = board.cells();
    let rest: Vec<_> = copies.iter().filter(|t| kinds[t.cell] != ground).collect();
    let twins = rest.iter().filter(|t| t.copy.is_some()).count();
    let rest_share = if rest.len() < 4 {
        0.0
    } else {
        twins as f64 / rest.len() as f64
    };
    (rest_share.min(share), rest.len())
}

/// Fewest cells of one kind that may be the ground (see [`ground_kind`]).
const GROUND_LEAST: usize = 8;

/// The kind of `board` that is the ground the empty cells show, not tiles: one holding over a
/// third of the tiles, and at least [`GROUND_LEAST`]. A link-up game spreads its tiles over
/// many kinds, a few copies each, but cells boxed over the gaps between them (the tiles' size
/// taken as the whole pitch) take in the panel and its marks round every empty cell, so the
/// empty cells read as tiles, all alike, and all copies of each other.
fn ground_kind(board: &Board) -> Option<Kind> {
    let mut counts: std::collections::HashMap<Kind, usize> = std::collections::HashMap::new();
    for &k in board.cells().iter().filter(|&&k| k != 0) {
        *counts.entry(k).or_default() += 1;
    }
    let tiles: usize = counts.values().sum();
    let (&kind, &most) = counts
        .iter()
        .max_by_key(|&(&k, &n)| (n, std::cmp::Reverse(k)))?;
    (most >= GROUND_LEAST && 3 * most > tiles).then_some(kind)
}

/// The board of [`calibrate`] before [`grown_by_copies`]: the first whose tiles mostly have
/// copies (see [`PAIRED`]) among the borders' board, the boards they passed over, the board
/// on the objects' pitch, the objects' own and those in the merged objects; else the one
/// with the most. With it, its reading (`None` when it did not read).
fn paired_board(
    image: &RgbaImage,
    edges: &Edges,
) -> Result<(Geometry, Option<Paired>), VisionError> {
    let mut choice = Choice::default();
    let first = match boards_from_borders(edges, Search::Whole) {
        Ok((board, others)) => {
            if choice.paired(image, board) && choice.enough_tiles() {
                return Ok(choice.into_best());
            }
            // Borders that cut across the tiles (a comb at a multiple of the pitch, or one
            // set by the edges of the surroundings) read faces that do not pair up.
            for on_axes in others.into_iter().take(PASSED_OVER) {
                let other = finished_board(edges, on_axes);
                if choice.paired(image, other) && choice.enough_tiles() {
                    return Ok(choice.into_best());
                }
            }
            None
        }
        Err(first) => Some(first),
    };
    let found = super::blobs::Objects::of(image);
    for (reading, objects) in found.boards().enumerate() {
        // Tiles with a body whose pitch the image's own periods (a photo, busy faces) hid
        // among the candidates: their borders on the objects' pitch, when they hold the
        // objects' board.
        let borders = find_board_from_borders(edges, Search::Objects(&objects))
            .ok()
            .filter(|borders| covers_most_of(pixel_box(borders), pixel_box(&objects)));
        for board in borders.into_iter().chain([on_panel(edges, objects)]) {
            // The objects' later readings replace the best board only with as many tiles:
            // read at a tighter growth or under a blur, clutter (buttons, text) shows small
            // lattices too.
            let taken = if reading == 0 {
                choice.paired(image, board)
            } else {
                choice.paired_up(image, board)
            };
            if taken {
                return Ok(choice.into_best());
            }
        }
    }
    for board in boards_in_merged_objects(edges, found.merged()) {
        if choice.paired(image, board) {
            return Ok(choice.into_best());
        }
    }
    // No board at all: the borders found none, so `first` holds their error.
    match choice.best {
        Some(best) => Ok(best),
        None => Err(first.unwrap_or_else(|| no_board("no grid of tile-like cells"))),
    }
}

/// The objects' `board` grown to the panel it lies on (see [`grown_to_panel`]): a sparse
/// board's empty edge rows and columns hold no object, but the panel shows them.
fn on_panel(edges: &Edges, board: Geometry) -> Geometry {
    let gap = |i: usize| board.pitch[i] - board.tile_size[i];
    let axes = [0, 1].map(|i| Axis {
        pitch: board.pitch[i],
        phase: board.origin[i] - gap(i) / 2.0,
    });
    let cells = [(0, board.cols), (0, board.rows)];
    let grown = grown_to_panel(edges, axes, cells, PANEL_FLOOR);
    if grown == cells {
        return board;
    }
    let [(col0, cols), (row0, rows)] = grown;
    Geometry {
        rows,
        cols,
        origin: [
            axes[0].at(col0 as f64) + gap(0) / 2.0,
            axes[1].at(row0 as f64) + gap(1) / 2.0,
        ],
        ..board
    }
}

/// The board with the largest share of tiles with a copy so far (see [`Paired`]).
#[derive(Default)]
struct Choice {
    best: Option<(Geometry, Option<Paired>)>,
}

impl Choice {
    /// Keeps `board` when it pairs better than the best one (see [`pairs_better`]; the first
    /// board kept on a tie; see [`nested_better`] for a board on the best one's lattice);
    /// whether it reaches [`PAIRED`]. Shares and tiles are those without the ground (see
    /// [`judged`]).
    fn paired(&mut self, image: &RgbaImage, board: Geometry) -> bool {
        let read = Paired::read(image, &board);
        let share = read.as_ref().map_or(0.0, |r| r.judged_share);
        let better = |(best, best_read): &(Geometry, Option<Paired>)| {
            nested_better(image, (&board, read.as_ref()), (best, best_read.as_ref()))
                .unwrap_or_else(|| match (read.as_ref(), best_read.as_ref()) {
                    (Some(read), Some(best_read)) => {
                        pairs_better((&board, read), (best, best_read))
                    }
                    _ => share > 0.0,
                })
        };
        if self.best.as_ref().is_none_or(better) {
            self.best = Some((board, read));
        }
        share >= PAIRED
    }

    /// [`Self::paired`], but keeping `board` over the best so far only when it also reads at
    /// least as many tiles (a lattice in the clutter reads few, and may pair them all), or
    /// when it reaches [`PAIRED`] on a finer lattice within the best one (see
    /// [`finer_within`]).
    fn paired_up(&mut self, image: &RgbaImage, board: Geometry) -> bool {
        let Some(read) = Paired::read(image, &board) else {
            return false;
        };
        let better = match &self.best {
            Some((best_board, Some(best))) => {
                let (share, tiles) = (read.judged_share, read.judged_tiles);
                nested_better(image, (&board, Some(&read)), (best_board, Some(best))).unwrap_or(
                    share > best.judged_share
                        && (tiles >= best.judged_tiles
                            || share >= PAIRED && finer_within(&board, best_board)),
                )
            }
            _ => true,
        };
        let reached = read.judged_share >= PAIRED;
        if better {
            self.best = Some((board, Some(read)));
        }
        reached && better
    }

    /// Whether the board kept holds at least [`FEWEST_TAKEN_AT_ONCE`] tiles (without the
    /// ground).
    fn enough_tiles(&self) -> bool {
        self.best.as_ref().is_some_and(|(_, read)| {
            read.as_ref()
                .is_some_and(|r| r.judged_tiles >= FEWEST_TAKEN_AT_ONCE)
        })
    }

    /// The board kept, with its reading; after [`Self::paired`] said it reached [`PAIRED`].
    fn into_best(self) -> (Geometry, Option<Paired>) {
        self.best.expect("paired() kept the board it found paired")
    }
}

/// Whether `board` lies mostly within `coarser` on a lattice at most two thirds of its pitch
/// on an axis: the cells of a coarse lattice over a sparse board (a comb at three pitches
/// and a bit) each hold a piece of a tile or two, and read as more tiles than the board has.
fn finer_within(board: &Geometry, coarser: &Geometry) -> bool {
    covers_most_of(pixel_box(coarser), pixel_box(board))
        && (0..2).any(|i| 2.0 * coarser.pitch[i] >= 3.0 * board.pitch[i])
}

/// Whether `board` pairs better than `best` (each with its reading): more of its tiles have
/// a copy, and when most of the best board's do (see [`MOSTLY_PAIRED`]), its tiles with a copy
/// cover at least half as much of the image. A lattice over part of the board (half the rows,
/// cutting every tile across) may read a few tiles that all pair, where the board read all of
/// them and a selected tile, drawn otherwise, has no copy (seed 36026). The area, not the
/// count: a lattice at half the pitch reads each tile as four. On a tie in share, the board
/// whose paired tiles cover at least twice the area is better (seed 39223: the whole board
/// against two of its columns on another lattice, both all paired); twice, so that the same
/// board a hundredth of a pixel in pitch apart stays the first one read.
fn pairs_better(
    (board, read): (&Geometry, &Paired),
    (best, best_read): (&Geometry, &Paired),
) -> bool {
    let paired_area =
        |r: &Paired, g: &Geometry| r.judged_share * r.judged_tiles as f64 * g.pitch[0] * g.pitch[1];
    let (area, best_area) = (paired_area(read, board), paired_area(best_read, best));
    if read.judged_share == best_read.judged_share {
        return area >= 2.0 * best_area;
    }
    read.judged_share > best_read.judged_share
        && (best_read.judged_share < MOSTLY_PAIRED || 2.0 * area >= best_area)
}

/// Whether `board` should replace `best` (each with its reading) when one lies on the other's
/// lattice within it with fewer cells (see [`Geometry::place_within`]); `None` when they are
/// not so nested, or the rule says nothing. The longer board stands when it has more tiles
/// with a copy and its tiles beyond the shorter one have copies in it (see [`pair_inside`]):
/// a board that leaves out lines of the game's tiles is short, though the empty cells of a
/// textured panel, read as tiles without copies, lower the longer one's share. The shorter
/// board replaces the longer one when it has as many tiles with a copy and a larger share of
/// them: the longer one's extra cells hold nothing that pairs.
fn nested_better(
    image: &RgbaImage,
    (board, read): (&Geometry, Option<&Paired>),
    (best, best_read): (&Geometry, Option<&Paired>),
) -> Option<bool> {
    let (read, best_read) = (read?, best_read?);
    let cells = |g: &Geometry| g.rows * g.cols;
    if let Some(at) = board
        .place_within(best)
        .filter(|_| cells(board) < cells(best))
    {
        if best_read.twins > read.twins && pair_inside(image, best, (board, at)) {
            Some(false)
        } else {
            (read.twins >= best_read.twins && read.share > best_read.share).then_some(true)
        }
    } else if let Some(at) = best
        .place_within(board)
        .filter(|_| cells(best) < cells(board))
    {
        (read.twins > best_read.twins && pair_inside(image, board, (best, at))).then_some(true)
    } else {
        None
    }
}

/// Whether the tiles of `outer` beyond `inner` (which lies within it from `outer`'s cell `at`,
/// see [`Geometry::place_within`]) have copies in `inner`: at least one, and [`LINE_COPIES`]
/// of them (as lines join a board in [`grown_by_copies`]). The game's tiles pair with the
/// board's; a texture, buttons or text on the same lattice beside it do not.
fn pair_inside(image: &RgbaImage, outer: &Geometry, (inner, at): (&Geometry, Pos)) -> bool {
    let inside = |cell: usize| {
        let pos = outer.pos_of(cell);
        (at.row..at.row + inner.rows as i32).contains(&pos.row)
            && (at.col..at.col + inner.cols as i32).contains(&pos.col)
    };
    let settings = ClassifierSettings::default();
    let Ok((_, Some(copies))) = super::classify::read_with_copies(image, outer, &settings, &inside)
    else {
        return false;
    };
    let beyond: Vec<bool> = copies
        .iter()
        .filter(|t| !inside(t.cell))
        .map(|t| t.copy.is_some())
        .collect();
    let paired = beyond.iter().filter(|&&p| p).count();
    paired > 0 && paired as f64 >= LINE_COPIES * beyond.len() as f64
}

/// `board` grown, line by line, by the row or column next to each side whose tiles, read with
/// the rest, have copies in the board (see [`super::classify::read_with_copies`]; the nearest
/// of the board's tiles, read as the same kind): at least one, and [`LINE_COPIES`] of them. A
/// line of tiles the borders left out (a last row of 3D tiles whose far border is off the
/// comb) pairs with the board; buttons, text or a texture beside it do not. The four lines
/// of a pass are read at once.
fn grown_by_copies(image: &RgbaImage, mut board: Geometry) -> Geometry {
    for _ in 0..MOST_GROWTH_PASSES {
        let grown = grown_by_lines_with_copies(image, board);
        if grown == board {
            break;
        }
        board = grown;
    }
    board
}

/// Most passes of [`grown_by_copies`]: each takes in at most a line on each side (seed
/// 12350: touching flat tiles on a photo, whose borders showed only beside empty cells, the
/// board two columns and a row short).
const MOST_GROWTH_PASSES: usize = 8;

/// One pass of [`grown_by_copies`]: `board` grown by each side's next line whose tiles have
/// copies in the board.
fn grown_by_lines_with_copies(image: &RgbaImage, board: Geometry) -> Geometry {
    let settings = super::ClassifierSettings::default();
    let sides: Vec<usize> = (0..4)
        .filter(|&side| wider_by(side, board).fits(image.width(), image.height()))
        .collect();
    let wider = sides.iter().fold(board, |g, &side| wider_by(side, g));
    let on_line = |side: usize, cell: usize| {
        let (r, c) = (cell / wider.cols, cell % wider.cols);
        sides.contains(&side)
            && match side {
                0 => r == 0,
                1 => r == wider.rows - 1,
                2 => c == 0,
                _ => c == wider.cols - 1,
            }
    };
    let in_board = |cell: usize| (0..4).all(|side| !on_line(side, cell));
    let read = super::classify::read_with_copies(image, &wider, &settings, &in_board);
    let Ok((reading, Some(copies))) = read else {
        return board;
    };
    let kinds = reading.board.cells();
    // The board's own tiles: cells it reads empty may read as tiles among the wider cells
    // (slivers of the board's edge tiles past it shift the classifier's line between empty
    // and tile), and pair with the slivers. Read once, and only when a line's copy is asked
    // about.
    let own = std::cell::OnceCell::new();
    let top = usize::from(sides.contains(&0));
    let left = usize::from(sides.contains(&2));
    let a_board_tile = |cell: usize| {
        let (r, c) = (cell / wider.cols, cell % wider.cols);
        let own = own.get_or_init(|| {
            super::classify::read_board(image, &board, &settings)
                .ok()
                .map(|r| r.board)
        });
        own.as_ref().is_none_or(|own| {
            r.checked_sub(top)
                .zip(c.checked_sub(left))
                .is_some_and(|(r, c)| {
                    c < own.cols() && own.cells().get(r * own.cols() + c).is_some_and(|&k| k != 0)
                })
        })
    };
    let mut grown = board;
    for &side in &sides {
        // Tiles of the line with a copy among the board's cells (the nearest of those, not of
        // all the tiles, as the line's own may look more alike: each box holds the same strip
        // of what lies past the board) and their kind among the board's drawn tiles (blank
        // cells outside a board, a panel read as tiles, copy each other). The copy need not be
        // of their kind: where kinds differ only by colour, the nearest shape is any kind's.
        let in_line: Vec<bool> = copies
            .iter()
            .filter(|t| on_line(side, t.cell))
            .map(|t| {
                let of_kind = |cell: usize| kinds[cell] == kinds[t.cell] && a_board_tile(cell);
                !t.blank && t.copy.is_some() && (0..kinds.len()).any(|c| in_board(c) && of_kind(c))
            })
            .collect();
        let paired = in_line.iter().filter(|&&copy| copy).count();
        if paired >= 1 && paired as f64 >= LINE_COPIES * in_line.len() as f64 {
            grown = wider_by(side, grown);
        }
    }
    grown
}

/// `g` one line wider on `side`: 0 top, 1 bottom, 2 left, 3 right.
fn wider_by(side: usize, mut g: Geometry) -> Geometry {
    match side {
        0 => (g.rows, g.origin[1]) = (g.rows + 1, g.origin[1] - g.pitch[1]),
        1 => g.rows += 1,
        2 => (g.cols, g.origin[0]) = (g.cols + 1, g.origin[0] - g.pitch[0]),
        _ => g.cols += 1,
    }
    g
}

/// The share of a line's tiles that must have a copy for the line to join the board (see
/// [`grown_by_copies`]).
const LINE_COPIES: f64 = 0.75;

/// How many of the boards the borders passed over (see [`boards_from_borders`]) are read
/// when the board chosen has too few tiles with a copy.
const PASSED_OVER: usize = 4;

/// The share of tiles with a copy (see [`Paired`]) at which a board is taken without
/// a look at the others: boards read right reach 0.97 or more on 95% of the tuning scenes
/// (1..999), boards cut across the tiles mostly under 0.7. Below it the others are read too,
/// and one replaces the board only with a larger share, so a high bar costs readings, not
/// boards: on tuning, 0.98 against 0.9 read 264 cells right that were wrong, 16 wrong that
/// were right.
const PAIRED: f64 = 0.98;

/// Fewest tiles a board from the borders must read to be taken at [`PAIRED`] without a look
/// at the others: a lattice at another pitch over two columns of tiles whose kinds differ only
/// by colour reads 16 tiles that all pair (seed 39223, an 8 x 14 board).
const FEWEST_TAKEN_AT_ONCE: usize = 24;

/// The share of tiles with a copy above which a board gives way only to one whose tiles with a
/// copy cover at least half as much of the image (see [`Choice::paired`]).
const MOSTLY_PAIRED: f64 = 0.9;

/// The image with its straight-edge maps.
struct Edges<'a> {
    image: &'a RgbaImage,
    vertical: EdgeMap,
    horizontal: EdgeMap,
}

impl<'a> Edges<'a> {
    /// `image` with its straight-edge maps.
    fn of(image: &'a RgbaImage) -> Self {
        Edges {
            image,
            vertical: vertical_edges(image),
            horizontal: horizontal_edges(image),
        }
    }

    /// The board found on these axes with its bands and its own edge profiles: its columns'
    /// over its rows and its rows' over its columns.
    fn board(&self, extent: Extent, x_axis: Axis, y_axis: Axis) -> BoardOnAxes {
        let (w, h) = (self.image.width(), self.image.height());
        let bands = extent_bands(extent, x_axis, y_axis, w, h);
        let ((x0, x1), (y0, y1)) = bands;
        BoardOnAxes {
            x_axis,
            y_axis,
            extent,
            bands,
            x_profile: peaks_only(&column_profile(&self.vertical, y0, y1), 4),
            y_profile: peaks_only(&row_profile(&self.horizontal, x0, x1), 4),
        }
    }
}

/// Whether box `a` (pixel columns, rows) covers at least 80% of box `b`.
fn covers_most_of(
    a: ((usize, usize), (usize, usize)),
    b: ((usize, usize), (usize, usize)),
) -> bool {
    let overlap = |p: (usize, usize), q: (usize, usize)| p.1.min(q.1).saturating_sub(p.0.max(q.0));
    let area = (b.0.1 - b.0.0) * (b.1.1 - b.1.0);
    overlap(a.0, b.0) * overlap(a.1, b.1) * 5 >= area * 4
}

fn no_board(why: &str) -> VisionError {
    VisionError::NoBoard(why.to_string())
}

#[cfg(test)]
mod tests;
