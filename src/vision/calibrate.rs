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

use image::RgbaImage;

use crate::board::{Board, Kind, Pos};
use crate::stats::{mean_median, parabola_vertex};

use super::pictures::{PictureCentre, face_centre, picture_centre};

use super::blobs::Region;
use super::features::{
    EdgeMap, column_profile, comb_contrast, commonest_bin, horizontal_edges, outside_band,
    peaks_only, pixel_range, row_profile, sample, signed_profiles, smooth, vertical_edges,
};
use super::{ClassifierSettings, Geometry, VisionError};

/// Smallest pitch considered, in pixels.
pub(super) const MIN_PITCH: f64 = 10.0;
/// Smallest image that can hold a board.
const MIN_SIDE: u32 = 40;

/// Finds the board in a screenshot: rows, columns, origin, pitch and tile size.
///
/// Every kind of a link-up game comes in pairs, so on the right board nearly every tile read
/// has a copy; the first board on which most do is taken, else the one with the most. From
/// the tiles' borders first; then the boards the borders passed over on a finer comb; then
/// from the objects drawn on a lattice (see [`super::blobs`]: tiles with no body, such as
/// emoji drawn on the background, show no cell with four borders), first from the borders
/// again on the objects' pitch, which the image's own periods may have hidden among the
/// candidates (a small board of busy faces on a photo), for each reading of the objects in
/// turn (a later one replaces the best board only with as many tiles); last from the borders
/// at the periods of the edges inside the largest merged objects (a small board of touching
/// tiles in a large, busy frame). Cells that cut every tile in half on an axis are joined in
/// twos there (see [`halves_joined`]). The board then takes in the lines next to it whose
/// tiles pair with its own, and the empty lines the game marks as the board's (dots or grid
/// lines at the cells' corners), and its boxes keep off those marks. Before they grow, the
/// pitch is measured between copies of a kind (see [`super::copies`]) and the tiles move onto
/// the centre most measures of their faces agree on (see [`centred_on_faces`]).
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
    let board = match &reading {
        Some(r) => super::copies::pitch_from_copies(image, &board, &r.board),
        None => board,
    };
    let board = centred_on_faces(image, board, reading);
    Ok(grown_by_marks(image, grown_by_copies(image, board)))
}

/// `board` with its tiles centred on their faces. Five measures of tile (0, 0)'s centre each
/// err by a pixel or two on some tilesets, seldom the same way: the boxes from the edges (a
/// 3D side drawn in layers, a bevel), the faces' mirror centre (see [`super::symmetry`]: two
/// stacked characters), the extent of the faces' ground and of the pictures (see
/// [`face_centre`], [`picture_centre`]: a bevel in the ground's colour, faint strokes), and
/// the mirror centre of the mean tile's edges (see [`super::mean_tile`]: a side drawn in
/// layers, a corner index on most kinds). The
/// measure most others lie within [`MEASURES_AGREE`] of, with those (their median), places
/// the tiles; with no two agreeing, the mirror centre does where the tiles agree on it (else
/// the boxes stand). A move stands when the cells read there hold the same tiles as before,
/// as many of them have a copy, and at most half as many kinds again: a box moved onto the
/// gap or a neighbour's side (an oversized box, a glyph drawn off its tile's centre) reads
/// the cells otherwise, and one moved off the faces splits kinds into pairs sampled alike
/// (jade on a 12 x 24 board: 25 kinds read as 55). `before` is the board's reading (`None`
/// when it did not read: the board stays).
fn centred_on_faces(image: &RgbaImage, board: Geometry, before: Option<Paired>) -> Geometry {
    let Some(before) = before else {
        return board;
    };
    let mirrored = super::symmetry::onto_mirror_centres(image, &board, &before.board);
    let reads_alike = |moved: &Geometry| {
        let tiles = |b: &Board| b.cells().iter().map(|&k| k != 0).collect::<Vec<_>>();
        // Kinds are numbered 1.. by first appearance.
        let kinds = |b: &Board| b.cells().iter().copied().max().unwrap_or(0);
        Paired::read(image, moved).is_some_and(|after| {
            tiles(&after.board) == tiles(&before.board)
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
    let Some(agreed) = most_agreed(&measures, MEASURES_AGREE) else {
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

/// The measures of tile (0, 0)'s centre that [`centred_on_faces`] weighs, in order of
/// preference on a tie: the `mirrored` board's (when it moved), the faces', the pictures',
/// the mean tile's (over the tiles of `read`, see [`super::mean_tile`]) and `board`'s own.
fn centre_measures(
    image: &RgbaImage,
    board: &Geometry,
    mirrored: &Geometry,
    read: &Board,
) -> Vec<[f64; 2]> {
    let centre = |g: &Geometry| [0, 1].map(|i| g.origin[i] + g.tile_size[i] / 2.0);
    let box_centre = centre(board);
    let mut measures = Vec::new();
    if mirrored != board {
        measures.push(centre(mirrored));
    }
    // The cells' lattice: a boundary at phase p lies at p + 1, the tiles centred in the cells.
    let lattice = |i: usize| {
        let gap = board.pitch[i] - board.tile_size[i];
        (board.origin[i] - 1.0 - gap / 2.0, board.pitch[i])
    };
    let (cols, rows) = ((0, board.cols), (0, board.rows));
    for measured in [
        face_centre(image, lattice(0), lattice(1), cols, rows),
        picture_centre(image, lattice(0), lattice(1), cols, rows),
    ]
    .into_iter()
    .flatten()
    {
        // The same tile's centre: it may come a whole pitch away.
        measures.push([0, 1].map(|i| {
            let c = measured.centre[i];
            c + board.pitch[i] * ((box_centre[i] - c) / board.pitch[i]).round()
        }));
    }
    measures.extend(super::mean_tile::mean_tile_centre(image, board, read));
    measures.push(box_centre);
    measures
}

/// Farthest apart (pixels) two measures of the tiles' centre may lie to agree.
const MEASURES_AGREE: f64 = 1.0;

/// The median (each axis) of the points within `agree` of the point that has the most others
/// within `agree` of it (the first such, on a tie); `None` when no two points lie that near.
/// A median, not a mean: of three measures on whole pixels, one half a pixel off (a picture
/// drawn a pixel off its face's centre) does not move the other two.
fn most_agreed(points: &[[f64; 2]], agree: f64) -> Option<[f64; 2]> {
    let near = |a: &[f64; 2], b: &[f64; 2]| (a[0] - b[0]).hypot(a[1] - b[1]) <= agree;
    let support = |p: &[f64; 2]| points.iter().filter(|q| near(p, q)).count();
    let best = points
        .iter()
        .rev()
        .max_by_key(|p| support(p))
        .filter(|p| support(p) >= 2)?;
    let group: Vec<&[f64; 2]> = points.iter().filter(|q| near(best, q)).collect();
    let median = |i: usize| {
        let mut values: Vec<f64> = group.iter().map(|q| q[i]).collect();
        mean_median(&mut values)
    };
    Some([median(0)?, median(1)?])
}

/// `board` with its cells joined in twos along an axis where they cut every tile in half
/// (a comb at half the pitch; seed 397): the halves of a tile always lie side by side, and
/// the two halves of a kind seldom read alike, so hardly a kind shows in cells of both
/// parities, while on the right lattice most kinds do. Joined where [`halves_begin`] says
/// the kinds show halves, at the parities it gives, when [`JOINED_PAIRED`] of the joined
/// board's tiles have copies; then on the other axis too (quarters). A board that reads
/// most of its cells empty may be halves too, with too few kinds read to say so (seed
/// 19359): it is joined, at either parity, where the joined board reads more tiles and
/// [`PAIRED`] of them have copies. The borders' own test (see [`whole_tiles`]) asks the
/// cells' mean pictures, which tiles of many colours blur (glyph-colour boards); this asks
/// the kinds read, whichever way the board was found. `before` is `board`'s reading; the
/// board and reading returned go together.
fn halves_joined(
    edges: &Edges,
    mut board: Geometry,
    mut before: Option<Paired>,
) -> (Geometry, Option<Paired>) {
    let image = edges.image;
    // Cells may be quarters of the tiles: joined along one axis, then the other.
    for axis in 0..2 {
        let Some(read) = &before else {
            break;
        };
        let lines = [board.cols, board.rows][axis];
        let joined_from = |first: usize| {
            let mut joined = board;
            joined.origin[axis] += first as f64 * board.pitch[axis];
            joined.tile_size[axis] += board.pitch[axis];
            joined.pitch[axis] *= 2.0;
            let count = (lines - first).div_ceil(2);
            if axis == 0 {
                joined.cols = count;
            } else {
                joined.rows = count;
            }
            on_boundaries(edges, joined, axis)
        };
        let said = halves_begin(&read.board, axis);
        // Boxes that halve the tiles may read most of them empty, when the band round the
        // board (whose colours are the empty cells') runs over a line of tiles: joined at
        // either parity, such a board reads more tiles, paired.
        let mostly_empty = 2 * read.board.tiles() < board.rows * board.cols;
        let firsts: &[usize] = if mostly_empty { &[0, 1] } else { &said };
        let best = firsts
            .iter()
            .filter_map(|&first| Some((first, joined_from(first)?)))
            .filter(|(_, joined)| joined.fits(image.width(), image.height()))
            .filter_map(|(first, joined)| Some((first, joined, Paired::read(image, &joined)?)))
            .filter(|(first, _, after)| {
                if said.contains(first) {
                    after.share >= JOINED_PAIRED
                } else {
                    after.share >= PAIRED && after.board.tiles() > read.board.tiles()
                }
            })
            .map(|(_, joined, after)| (joined, after))
            // Joined off the tiles' phase, the board loses the half tiles at its ends.
            .max_by_key(|(_, after)| after.board.tiles());
        if let Some((joined, after)) = best {
            let (joined, after) = on_joined_borders(edges, joined, after);
            (board, before) = (joined, Some(after));
        }
    }
    (board, before)
}

/// The `joined` board found again from the tiles' borders on its pitch (see
/// [`Search::Objects`]), when that board has as many rows and columns and reads as many tiles
/// with at least as large a share of copies: the halves' comb carries its own pitch error
/// twice over (seed 12121: 29.30 px halves of 57.57 px tiles), and their cells are not the
/// tiles' boxes. `after` is `joined`'s reading; the board and reading returned go together.
fn on_joined_borders(edges: &Edges, joined: Geometry, after: Paired) -> (Geometry, Paired) {
    let found = find_board_from_borders(edges, Search::Objects(&joined))
        .ok()
        .filter(|board| board.rows == joined.rows && board.cols == joined.cols)
        .filter(|board| board.fits(edges.image.width(), edges.image.height()));
    let Some(board) = found else {
        return (joined, after);
    };
    match Paired::read(edges.image, &board) {
        Some(read) if read.share >= after.share && read.board.tiles() >= after.board.tiles() => {
            (board, read)
        }
        _ => (joined, after),
    }
}

/// `board` (halves just joined) moved along `axis` onto its cells' boundaries at their best
/// phase (see [`best_phase`]) in the board's edge profile, the box kept off the gap where
/// the boundaries show its two sides (see [`tile_between_gaps`]): halves cut off the tiles'
/// own phase join into cells that straddle two tiles (seed 397: halves a fifth of a tile
/// off). `None` when the cells' middles show a border too (see [`HALVES_EDGE`]): they were
/// whole tiles.
fn on_boundaries(edges: &Edges, mut board: Geometry, axis: usize) -> Option<Geometry> {
    let ((x0, x1), (y0, y1)) = pixel_box(&board);
    let profile = if axis == 0 {
        peaks_only(&column_profile(&edges.vertical, y0, y1), 4)
    } else {
        peaks_only(&row_profile(&edges.horizontal, x0, x1), 4)
    };
    let pitch = board.pitch[axis];
    let lines = [board.cols, board.rows][axis];
    let lo = board.origin[axis];
    let (phase, _) = best_phase(&profile, pitch, lo, lo + lines as f64 * pitch);
    let first = phase + ((lo - phase) / pitch).floor() * pitch;
    let teeth = |from: f64| -> f64 {
        (0..=lines)
            .map(|k| f64::from(sample(&profile, from + k as f64 * pitch)))
            .sum()
    };
    // Halves of one tile meet with no border; tiles side by side (a sorted deal, each kind
    // down one column) meet with one as strong as every other.
    if teeth(first + pitch / 2.0) > HALVES_EDGE * teeth(first) {
        return None;
    }
    // A profile index i is the step between pixels i and i + 1: the edge lies at i + 1.
    let cells = (((lo - phase) / pitch).floor() as i64, lines);
    let (start, size) = tile_between_gaps(&profile, Axis { pitch, phase }, cells)
        .unwrap_or((phase + 1.0, board.tile_size[axis].min(pitch)));
    board.origin[axis] = start + ((lo - start) / pitch).round() * pitch;
    board.tile_size[axis] = size;
    Some(board)
}

/// How strong, as a share of the strongest, the edge across a gap must be for
/// [`tile_between_gaps`] to see the gap.
const GAP_SIDE_EDGE: f64 = 0.5;

/// The narrowest gap (pixels) [`tile_between_gaps`] sees: a 3D tile's bevel draws a second
/// edge a pixel or two inside its face (seed 47).
const NARROWEST_GAP: i64 = 3;

/// Where a tile starts (an image coordinate, any one of the board's) and its size along the
/// comb `axis` over the `cells` (first boundary, count; see [`EdgeFold::new`]) of an edge
/// `profile`, when the profile folded at the pitch shows a gap: its strongest edge and the
/// nearest other edge of at least [`GAP_SIDE_EDGE`] of it from [`NARROWEST_GAP`] to a quarter
/// of a pitch away, the gap's two sides. `None` when it shows one edge (tiles that touch).
fn tile_between_gaps(profile: &[f32], axis: Axis, cells: (i64, usize)) -> Option<(f64, f64)> {
    let fold = EdgeFold::new(profile, axis, cells)?;
    let n = fold.shares.len() as i64;
    let share = |offset: i64| fold.shares[offset.rem_euclid(n) as usize];
    let strongest = (0..n).max_by(|&a, &b| share(a).total_cmp(&share(b)))?;
    let reach = (axis.pitch / 4.0) as i64;
    // The distance to the first such edge after (`sign` 1) or before (-1) the strongest.
    let side = |sign: i64| {
        (NARROWEST_GAP..=reach).find(|&d| {
            let at = strongest + sign * d;
            share(at) >= GAP_SIDE_EDGE && share(at) >= share(at - 1) && share(at) >= share(at + 1)
        })
    };
    let edge = fold.start + strongest as f64;
    match (side(-1), side(1)) {
        (Some(before), Some(after)) if before < after => Some((edge, axis.pitch - before as f64)),
        (_, Some(after)) => Some((edge + after as f64, axis.pitch - after as f64)),
        (Some(before), None) => Some((edge, axis.pitch - before as f64)),
        (None, None) => None,
    }
}

/// Most the edge where two joined halves meet may be, against the edge at the joined cells'
/// boundaries (see [`on_boundaries`]): halves read 0.001-0.1 (glyph-colour seeds), the
/// sorted xshisen fixture's tiles 0.93.
const HALVES_EDGE: f64 = 0.25;

/// Where the pairs of half tiles of `board` may begin along `axis` (0 columns, 1 rows; see
/// [`halves_joined`]): the parities of the line a pair's first half is on, when the board's
/// kinds and tiles say its cells are halves (none otherwise).
///
/// The kinds say so when at least [`HALVES_KINDS`] of them lie on lines of one parity and
/// none on both (or at most one in [`HALVES_MIXED`], with twice as many on one), counting
/// the kinds with two tiles or more on two lines or more, but for a kind whose tiles mostly
/// ([`HALVES_SIDE_BY_SIDE`]) have their other half beside them read as the same kind (the
/// two halves of a blank face look alike). The tiles say where a pair begins:
/// [`HALVES_SIDE_BY_SIDE`] of them lie in a pair of tiles beginning at that parity; when at
/// neither (a half lattice off the tiles' phase reads the cells that straddle the gap
/// between two tiles as empty), a pair may begin at either parity the kinds allow.
fn halves_begin(board: &Board, axis: usize) -> Vec<usize> {
    let (rows, cols) = (board.rows(), board.cols());
    let lines = [cols, rows][axis];
    if lines < 4 {
        return Vec::new();
    }
    let kind = |r: usize, c: usize| board.get(Pos::new(r as i32, c as i32));
    // Each tile as (row, column, its line along `axis`).
    let tiles: Vec<(usize, usize, usize)> = board
        .tile_positions()
        .map(|p| (p.row as usize, p.col as usize))
        .map(|(r, c)| (r, c, [c, r][axis]))
        .collect();
    // The kind in a tile's other half, with the pairs beginning on lines of parity `first`
    // (`None` beyond the board).
    let other_half = |first: usize, (r, c, at): (usize, usize, usize)| -> Option<Kind> {
        let other = if (at + first) % 2 == 0 {
            at + 1
        } else {
            at.checked_sub(1)?
        };
        let (r, c) = if axis == 0 { (r, other) } else { (other, c) };
        (r < rows && c < cols).then(|| kind(r, c))
    };
    // Per parity a pair may begin at: whether the kinds say halves, and whether the tiles lie
    // in pairs side by side.
    let said: Vec<(usize, bool)> = (0..2)
        .filter_map(|first| {
            let mut kinds: std::collections::HashMap<Kind, HalvesOfKind> = Default::default();
            for &tile in &tiles {
                let (r, c, at) = tile;
                let entry = kinds.entry(kind(r, c)).or_default();
                entry.tiles += 1;
                entry.parities[at % 2] = true;
                entry.lines = Some(
                    entry
                        .lines
                        .map_or((at, at), |(a, b)| (a.min(at), b.max(at))),
                );
                if other_half(first, tile).is_none_or(|other| other == kind(r, c)) {
                    entry.twins += 1;
                }
            }
            // The kinds that could show on both parities: two tiles or more on two lines or
            // more (a kind's pair in one row falls on one parity whatever the lattice), not
            // mostly beside a half like them (a blank face's).
            let repeated: Vec<&HalvesOfKind> = kinds
                .values()
                .filter(|k| k.tiles >= 2 && k.lines.is_some_and(|(a, b)| a < b))
                .filter(|k| (k.twins as f64) < least_share(k.tiles))
                .collect();
            let mixed = repeated
                .iter()
                .filter(|k| k.parities[0] && k.parities[1])
                .count();
            let side_by_side = tiles
                .iter()
                .filter(|&&tile| other_half(first, tile).is_some_and(|other| other != 0))
                .count();
            // A kind on both parities asks for twice the evidence of those on one.
            let fewest = if mixed == 0 {
                HALVES_KINDS
            } else {
                2 * HALVES_KINDS
            };
            (repeated.len() - mixed >= fewest && mixed * HALVES_MIXED <= repeated.len())
                .then_some((first, side_by_side as f64 >= least_share(tiles.len())))
        })
        .collect();
    let side_by_side: Vec<usize> = said.iter().filter(|s| s.1).map(|s| s.0).collect();
    if side_by_side.is_empty() {
        said.into_iter().map(|s| s.0).collect()
    } else {
        side_by_side
    }
}

/// One kind's tiles on a board read as halves along an axis (see [`halves_begin`]).
#[derive(Default)]
struct HalvesOfKind {
    tiles: usize,
    /// Whether a tile lies on a line of each parity.
    parities: [bool; 2],
    /// The first and last line its tiles lie on.
    lines: Option<(usize, usize)>,
    /// Tiles whose other half reads as the same kind, or lies beyond the board.
    twins: usize,
}

/// [`HALVES_SIDE_BY_SIDE`] of `n`.
fn least_share(n: usize) -> f64 {
    HALVES_SIDE_BY_SIDE * n as f64
}

/// A board's kinds say its cells are halves with at most one kind in `HALVES_MIXED` on
/// lines of both parities, and then only with twice [`HALVES_KINDS`] on one (see
/// [`halves_begin`]): a half read wrong puts a kind on both (seed 13041: 1 of 21), while on
/// a sparse board of whole tiles, 8 of 9 kinds of two tiles fell on one parity (seed 240).
const HALVES_MIXED: usize = 8;

/// Fewest kinds with two tiles or more for [`halves_joined`] to judge a board (a few kinds
/// can all fall on one parity by chance).
const HALVES_KINDS: usize = 6;

/// The share of tiles that must lie in a pair of tiles side by side (see [`halves_begin`]):
/// a half lattice off the tiles' phase reads some halves as empty (seed 47: 0.76).
const HALVES_SIDE_BY_SIDE: f64 = 0.7;

/// The share of the joined board's tiles that must have a copy (see [`halves_joined`]):
/// halves pair more surely than whole faces, read before the tiles are centred (seed 397: 1.0
/// halved, 0.85 joined; seed 649: 0.55).
const JOINED_PAIRED: f64 = 0.5;

/// A board read, and the share of its tiles that have a copy (see
/// [`super::classify::twin_share`]; 0 with under four tiles).
struct Paired {
    board: Board,
    share: f64,
}

impl Paired {
    /// The cells at `geometry` read with each tile's nearest copy; `None` when they do not
    /// read.
    fn read(image: &RgbaImage, geometry: &Geometry) -> Option<Self> {
        let settings = ClassifierSettings::default();
        let (reading, copies) =
            super::classify::read_with_copies(image, geometry, &settings, &|_| true).ok()?;
        Some(Paired {
            board: reading.board,
            share: copies.map_or(0.0, |c| super::classify::twin_share(&c)),
        })
    }
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
            if choice.paired(image, board) {
                return Ok(choice.into_best());
            }
            // Borders that cut across the tiles (a comb at a multiple of the pitch, or one
            // set by the edges of the surroundings) read faces that do not pair up.
            for on_axes in others.into_iter().take(PASSED_OVER) {
                let other = finished_board(edges, on_axes);
                if choice.paired(image, other) {
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
    /// Keeps `board` when more of its tiles have a copy than the best one's (the first board
    /// kept on a tie); whether it reaches [`PAIRED`].
    fn paired(&mut self, image: &RgbaImage, board: Geometry) -> bool {
        let read = Paired::read(image, &board);
        let share = read.as_ref().map_or(0.0, |r| r.share);
        let best_share =
            |(_, best): &(Geometry, Option<Paired>)| best.as_ref().map_or(0.0, |b| b.share);
        if self
            .best
            .as_ref()
            .is_none_or(|best| share > best_share(best))
        {
            self.best = Some((board, read));
        }
        share >= PAIRED
    }

    /// [`Self::paired`], but keeping `board` over the best so far only when it also reads at
    /// least as many tiles (a lattice in the clutter reads few, and may pair them all).
    fn paired_up(&mut self, image: &RgbaImage, board: Geometry) -> bool {
        let Some(read) = Paired::read(image, &board) else {
            return false;
        };
        let better = match &self.best {
            Some((_, Some(best))) => {
                read.share > best.share && read.board.tiles() >= best.board.tiles()
            }
            _ => true,
        };
        let reached = read.share >= PAIRED;
        if better {
            self.best = Some((board, Some(read)));
        }
        reached && better
    }

    /// The board kept, with its reading; after [`Self::paired`] said it reached [`PAIRED`].
    fn into_best(self) -> (Geometry, Option<Paired>) {
        self.best.expect("paired() kept the board it found paired")
    }
}

/// `board` grown by the row or column next to each side whose tiles, read with the rest, have
/// copies in the board (see [`super::classify::read_with_copies`]; the nearest of the board's
/// tiles, read as the same kind): at least one, and [`LINE_COPIES`] of them. A line of tiles
/// the borders left out (a last row of 3D tiles whose far border is off the comb) pairs with
/// the board; buttons, text or a texture beside it do not. The four lines are read at once.
fn grown_by_copies(image: &RgbaImage, board: Geometry) -> Geometry {
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
    let mut grown = board;
    for &side in &sides {
        // Tiles of the line with a copy of their kind among the board's drawn tiles (blank
        // cells outside a board, a panel read as tiles, copy each other): the nearest of
        // those, not of all the tiles, as the line's own may look more alike (each box holds
        // the same strip of what lies past the board).
        let in_line: Vec<bool> = copies
            .iter()
            .filter(|t| on_line(side, t.cell))
            .map(|t| !t.blank && t.copy.is_some_and(|copy| kinds[copy] == kinds[t.cell]))
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

/// `board` grown by the lines of cells next to it whose far corners carry the marks the
/// board's own corners carry (dots or crossing grid lines, see [`corner_mark`]), up to
/// [`MARKED_LINES`] a side: a sparse board may keep no tile in an edge line, which the game
/// still marks as the board's. The board's own corners must carry one mark (see
/// [`shared_mark`]; a board with no marks, or with tiles over its corners, grows nothing), and
/// [`MARKED_SHARE`] of the line's far corners a mark like it. Where as many of the corners
/// round the board's edge carry it, the boxes then keep off the marks (see
/// [`clear_of_marks`]).
fn grown_by_marks(image: &RgbaImage, board: Geometry) -> Geometry {
    let radius = (0.05 * board.pitch[0].min(board.pitch[1])).max(1.0);
    let Some(shift) = marks_shift(image, &board, radius) else {
        return board;
    };
    let corner = |g: &Geometry, k: usize, l: usize| corner_at(g, shift, (k, l));
    let own: Vec<Option<[f32; 3]>> = corners(&board)
        .map(|(k, l)| corner_mark(image, corner(&board, k, l), radius))
        .collect();
    let Some(mark) = shared_mark(&own) else {
        return board;
    };
    let alike = |m: &Option<[f32; 3]>| m.is_some_and(|m| alike_marks(&m, &mark));
    let mut grown = board;
    for side in 0..4 {
        for _ in 0..MARKED_LINES {
            let wider = wider_by(side, grown);
            if !wider.fits(image.width(), image.height()) {
                break;
            }
            // The far corners of the new line.
            let far: Vec<[f64; 2]> = match side {
                0 => (0..=wider.cols).map(|k| corner(&wider, k, 0)).collect(),
                1 => (0..=wider.cols)
                    .map(|k| corner(&wider, k, wider.rows))
                    .collect(),
                2 => (0..=wider.rows).map(|l| corner(&wider, 0, l)).collect(),
                _ => (0..=wider.rows)
                    .map(|l| corner(&wider, wider.cols, l))
                    .collect(),
            };
            let marked = far
                .iter()
                .filter(|&&p| alike(&corner_mark(image, p, radius)))
                .count();
            if (marked as f64) < MARKED_SHARE * far.len() as f64 {
                break;
            }
            grown = wider;
        }
    }
    // A mark of the gap shows round the board's edge too; a mark of the tiles' own art (a
    // corner ornament at the same place on every tile) misses the corners after the last
    // line.
    // `own` holds every corner's mark, in the order of `corners`.
    let (rim, marked) = corners(&board)
        .zip(&own)
        .filter(|&((k, l), _)| k == 0 || l == 0 || k == board.cols || l == board.rows)
        .fold((0, 0), |(rim, marked), (_, m)| {
            (rim + 1, marked + usize::from(alike(m)))
        });
    if (marked as f64) < MARKED_SHARE * f64::from(rim) {
        return grown;
    }
    clear_of_marks(grown, shift, radius)
}

/// `board` with its tiles' boxes kept off the marks at the cells' corners (`shift` from the
/// tiles' top-left corners, each mark within `radius` of its place): a box as long as the
/// pitch (within `radius`) takes in the grid lines or dots of the gap, and an empty cell
/// framed by them then reads as a tile (seed 433). On each such axis the box loses as much at
/// both ends as it must at either to leave every point within `radius` of a mark (so its
/// centre, which the earlier steps placed, stays), unless less than
/// [`CLEAR_OF_MARKS_LEAST`] of the pitch would be left. A shorter box stays: the marks lie in
/// its gap, and a 3D tile's box need not be centred between them.
fn clear_of_marks(mut board: Geometry, shift: [f64; 2], radius: f64) -> Geometry {
    for (a, shift) in shift.into_iter().enumerate() {
        let (pitch, size) = (board.pitch[a], board.tile_size[a]);
        // The mark before the tile, relative to the tile's start; the next is a pitch on.
        let before = shift - (shift / pitch).round() * pitch;
        let cut = (before + radius).max(size - (before + pitch - radius));
        let whole = size >= pitch - radius;
        if whole && cut > 0.0 && size - 2.0 * cut >= CLEAR_OF_MARKS_LEAST * pitch {
            board.origin[a] += cut;
            board.tile_size[a] = size - 2.0 * cut;
        }
    }
    board
}

/// The least share of the pitch a box kept off the marks (see [`clear_of_marks`]) may keep.
const CLEAR_OF_MARKS_LEAST: f64 = 0.6;

/// Where the marks of `board`'s corners lie from its tiles' top-left corners (x, y; the
/// shift at which most of up to [`SAMPLED_CORNERS`] corners spread over the board carry a
/// mark, see [`corner_mark`]), within [`MARKS_REACH`] of a pitch of the middle of the gap
/// before the tiles: tiles drawn in 3D may stand anywhere in their cells. `None` when no
/// shift marks [`OWN_MARKS_ALIKE`] of them.
fn marks_shift(image: &RgbaImage, board: &Geometry, radius: f64) -> Option<[f64; 2]> {
    let all: Vec<(usize, usize)> = corners(board).collect();
    let step = all.len().div_ceil(SAMPLED_CORNERS).max(1);
    let sampled: Vec<(usize, usize)> = all.into_iter().step_by(step).collect();
    let middle = [
        -(board.pitch[0] - board.tile_size[0]) / 2.0,
        -(board.pitch[1] - board.tile_size[1]) / 2.0,
    ];
    // Shifts a radius apart (at least a pixel, as `grown_by_marks` makes the radius).
    let reach = [
        (MARKS_REACH * board.pitch[0] / radius) as i64,
        (MARKS_REACH * board.pitch[1] / radius) as i64,
    ];
    let marked_at = |shift: [f64; 2]| {
        sampled
            .iter()
            .filter(|&&corner| {
                corner_mark(image, corner_at(board, shift, corner), radius).is_some()
            })
            .count()
    };
    // On a tie, the shift nearest the middle of the gap.
    let (best, marked, _) = (-reach[1]..=reach[1])
        .flat_map(|j| (-reach[0]..=reach[0]).map(move |i| (i, j)))
        .map(|(i, j)| {
            let shift = [middle[0] + i as f64 * radius, middle[1] + j as f64 * radius];
            (shift, marked_at(shift), i * i + j * j)
        })
        .max_by(|a, b| a.1.cmp(&b.1).then(b.2.cmp(&a.2)))?;
    (marked as f64 >= OWN_MARKS_ALIKE * sampled.len() as f64).then_some(best)
}

/// The corners (column, row) of `g`'s cells, row by row: `rows + 1` by `cols + 1`.
fn corners(g: &Geometry) -> impl Iterator<Item = (usize, usize)> {
    let cols = g.cols;
    (0..=g.rows).flat_map(move |l| (0..=cols).map(move |k| (k, l)))
}

/// Where corner (`k`, `l`) of `g`'s cells lies (image coordinates), the cells' corners being
/// `shift` from the tiles' top-left corners.
fn corner_at(g: &Geometry, shift: [f64; 2], (k, l): (usize, usize)) -> [f64; 2] {
    [
        g.origin[0] + shift[0] + k as f64 * g.pitch[0],
        g.origin[1] + shift[1] + l as f64 * g.pitch[1],
    ]
}

/// Most corners [`marks_shift`] tries each shift on.
const SAMPLED_CORNERS: usize = 16;

/// How far (a share of the pitch) from the middle of the gap [`marks_shift`] looks for the
/// marks.
const MARKS_REACH: f64 = 0.2;

/// Most lines of marked cells [`grown_by_marks`] adds on a side.
const MARKED_LINES: usize = 2;

/// The share of corners that must carry the board's mark (see [`grown_by_marks`]).
const MARKED_SHARE: f64 = 0.75;

/// The share of the board's own corners that must carry a mark, and one alike (see
/// [`shared_mark`], [`marks_shift`]): less than [`MARKED_SHARE`], as tiles may cover some.
const OWN_MARKS_ALIKE: f64 = 0.5;

/// Least cosine between two marks' colour differences (see [`alike_marks`]) for them to be
/// one mark: a dark dot and a light one, or a dot and a tile's coloured corner, are not.
const MARKS_ALIKE: f32 = 0.8;

/// Smallest colour step (sum over R, G, B) between a corner's middle and the ring round it
/// for the corner to carry a mark: over JPEG noise, under a faint dot's contrast.
const MARK_STEP: f32 = 45.0;

/// The mark at `p` (image coordinates): how the mean colour of the pixels within `radius` of
/// it differs from the median of the ring 2 to 3 radii out (R, G, B), when by [`MARK_STEP`]
/// or more (summed); `None` otherwise, or when the ring leaves the image. A mark drawn
/// see-through over a gradient or a photo changes its colour, not the way it differs.
fn corner_mark(image: &RgbaImage, p: [f64; 2], radius: f64) -> Option<[f32; 3]> {
    let (w, h) = (f64::from(image.width()), f64::from(image.height()));
    let reach = 3.0 * radius;
    if p[0] - reach < 0.0 || p[1] - reach < 0.0 || p[0] + reach >= w || p[1] + reach >= h {
        return None;
    }
    let mut middle = [0f32; 3];
    let mut count = 0f32;
    let mut ring: [Vec<u8>; 3] = Default::default();
    let (x0, x1) = ((p[0] - reach).floor() as u32, (p[0] + reach).ceil() as u32);
    let (y0, y1) = ((p[1] - reach).floor() as u32, (p[1] + reach).ceil() as u32);
    for y in y0..=y1.min(image.height() - 1) {
        for x in x0..=x1.min(image.width() - 1) {
            let d = (f64::from(x) + 0.5 - p[0]).hypot(f64::from(y) + 0.5 - p[1]);
            let px = image.get_pixel(x, y).0;
            if d <= radius {
                for c in 0..3 {
                    middle[c] += f32::from(px[c]);
                }
                count += 1.0;
            } else if (2.0 * radius..=reach).contains(&d) {
                for c in 0..3 {
                    ring[c].push(px[c]);
                }
            }
        }
    }
    if count == 0.0 || ring[0].is_empty() {
        return None;
    }
    let middle = middle.map(|v| v / count);
    // Each channel's quartiles and median over the ring.
    let quartiles: [[f32; 3]; 3] = std::array::from_fn(|c| {
        let v = &mut ring[c];
        v.sort_unstable();
        let at = |q: usize| f32::from(v[(v.len() - 1) * q / 4]);
        [at(1), at(2), at(3)]
    });
    let difference: [f32; 3] = std::array::from_fn(|c| middle[c] - quartiles[c][1]);
    let step: f32 = difference.iter().map(|d| d.abs()).sum();
    // A mark stands on one ground; an edge through the corner (a panel's, a tile's) parts
    // the ring in two.
    let spread: f32 = quartiles.iter().map(|q| q[2] - q[0]).sum();
    (step >= MARK_STEP && spread <= RING_SPREAD * step).then_some(difference)
}

/// Most the ring round a mark may spread (the sum over R, G, B of its interquartile ranges),
/// as a share of the mark's step (see [`corner_mark`]): grid lines crossing a corner fill a
/// small part of the ring, an edge through it half.
const RING_SPREAD: f32 = 1.0;

/// The mark most of `marks` carry (see [`corner_mark`]; the per-channel median of those
/// marked), when [`OWN_MARKS_ALIKE`] of them carry one, and as many one like it (see
/// [`alike_marks`]).
fn shared_mark(marks: &[Option<[f32; 3]>]) -> Option<[f32; 3]> {
    let present: Vec<[f32; 3]> = marks.iter().flatten().copied().collect();
    if (present.len() as f64) < OWN_MARKS_ALIKE * marks.len() as f64 {
        return None;
    }
    let typical: [f32; 3] = std::array::from_fn(|c| {
        let mut v: Vec<f32> = present.iter().map(|m| m[c]).collect();
        crate::stats::median(&mut v).unwrap_or(0.0)
    });
    let alike = present.iter().filter(|m| alike_marks(m, &typical)).count();
    (alike as f64 >= OWN_MARKS_ALIKE * marks.len() as f64).then_some(typical)
}

/// Whether two marks (see [`corner_mark`]) differ from their surroundings the same way: the
/// cosine of their colour differences is at least [`MARKS_ALIKE`].
fn alike_marks(a: &[f32; 3], b: &[f32; 3]) -> bool {
    let dot: f32 = (0..3).map(|c| a[c] * b[c]).sum();
    let norm = |v: &[f32; 3]| v.iter().map(|x| x * x).sum::<f32>().sqrt();
    dot >= MARKS_ALIKE * norm(a) * norm(b)
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

/// The boards from their tiles' borders at the pitches of the edges inside each of the
/// `merged` objects (see [`super::blobs::Objects::merged`]) that cover most of it: a small
/// board of touching tiles in a large frame, whose pitch the frame's text, buttons and the
/// faces' own strokes hide among the whole image's periods.
fn boards_in_merged_objects<'a>(
    edges: &'a Edges,
    merged: Vec<Region>,
) -> impl Iterator<Item = Geometry> + 'a {
    merged.into_iter().filter_map(move |region| {
        find_board_from_borders(edges, Search::Region(region))
            .ok()
            .filter(|board| covers_most_of(pixel_box(board), region))
    })
}

/// Where [`find_board_from_borders`] seeks the board's axes.
#[derive(Clone, Copy)]
enum Search<'g> {
    /// Every candidate pitch of the whole image's edges.
    Whole,
    /// The pitches of the board the objects showed, at their best phases over it.
    Objects(&'g Geometry),
    /// Every candidate pitch of the edges inside a box.
    Region(Region),
}

/// The pixel columns and rows a geometry's cells span.
fn pixel_box(g: &Geometry) -> ((usize, usize), (usize, usize)) {
    let span = |a: usize, n: usize| {
        let end = g.origin[a] + n as f64 * g.pitch[a];
        (g.origin[a].max(0.0) as usize, end.max(0.0) as usize)
    };
    (span(0, g.cols), span(1, g.rows))
}

/// The board from its tiles' borders (see the module documentation) on the axes `search`
/// gives: the candidate axes of the whole image or of a region, or the pitches of the board
/// the objects showed at their best phases over it (see [`phases_over`]).
fn find_board_from_borders(edges: &Edges, search: Search) -> Result<Geometry, VisionError> {
    boards_from_borders(edges, search).map(|(board, _)| board)
}

/// The board of [`find_board_from_borders`], and the boards it passed over on a finer comb,
/// best first: the board before it was seen on a coarser comb (see [`coarser_board`]), when
/// it was, then those of the other pairs of axes whose pitches are the chosen ones or whole
/// fractions of them (see [`ranked_boards`]); each still to be refined (see
/// [`finished_board`]).
fn boards_from_borders(
    edges: &Edges,
    search: Search,
) -> Result<(Geometry, Vec<OnAxes>), VisionError> {
    let (w, h) = (edges.image.width(), edges.image.height());
    let (x_axes, y_axes) = match search {
        Search::Whole => (
            find_axes(&axis_peaks(&column_profile(&edges.vertical, 0, h as usize))),
            find_axes(&axis_peaks(&row_profile(&edges.horizontal, 0, w as usize))),
        ),
        Search::Region(((x0, x1), (y0, y1))) => (
            axes_over(&column_profile(&edges.vertical, y0, y1), (x0, x1)),
            axes_over(&row_profile(&edges.horizontal, x0, x1), (y0, y1)),
        ),
        Search::Objects(g) => {
            // The objects' box with half a pitch round it: their cells are centred on them,
            // the tiles' borders a few pixels off.
            let ((x0, x1), (y0, y1)) = pixel_box(g);
            let around = |(a, b): (usize, usize), pitch: f64, limit: u32| {
                let margin = (pitch / 2.0) as usize;
                (a.saturating_sub(margin), (b + margin).min(limit as usize))
            };
            let (xs, ys) = (
                around((x0, x1), g.pitch[0], w),
                around((y0, y1), g.pitch[1], h),
            );
            (
                phases_over(&column_profile(&edges.vertical, ys.0, ys.1), g.pitch[0], xs),
                phases_over(&row_profile(&edges.horizontal, xs.0, xs.1), g.pitch[1], ys),
            )
        }
    };
    if x_axes.is_empty() {
        return Err(no_board("no repeating column edges"));
    }
    if y_axes.is_empty() {
        return Err(no_board("no repeating row edges"));
    }
    // On the objects' pitch the board is known to be there: its tiles may keep their far
    // border a gap inside their cells (see [`Sides::GapInside`]).
    let ((x_axis, y_axis, extent), mut others) =
        ranked_boards(edges, &x_axes, &y_axes, Sides::OnComb).or_else(|first| match search {
            Search::Objects(_) => {
                ranked_boards(edges, &x_axes, &y_axes, Sides::GapInside).map_err(|_| first)
            }
            Search::Whole | Search::Region(_) => Err(first),
        })?;
    // A region's few tiles let strokes down the middle of each face make a comb of their own.
    let (x_axis, y_axis, extent) = match search {
        Search::Region(_) => whole_tiles(edges, (x_axis, y_axis, extent)),
        Search::Whole | Search::Objects(_) => (x_axis, y_axis, extent),
    };
    let board = coarser_board(edges, edges.board(extent, x_axis, y_axis));
    // The same lattice seen with every boundary: a comb at a multiple of the pitch can span
    // a larger box (its cells take in the surroundings) and so be chosen.
    let (x_chosen, y_chosen) = (board.x_axis.pitch, board.y_axis.pitch);
    others.retain(|&(x, y, _)| {
        finer(x.pitch, x_chosen)
            && finer(y.pitch, y_chosen)
            && (x.pitch < x_chosen - 0.5 || y.pitch < y_chosen - 0.5)
    });
    if board.x_axis != x_axis || board.y_axis != y_axis {
        others.insert(0, (x_axis, y_axis, extent));
    }
    let board = grown_on_lattice(edges, board);
    Ok((refine_board(edges, &board), others))
}

/// The board on a pair of axes grown along its lattice and refined, as
/// [`find_board_from_borders`] finishes the board it chooses.
fn finished_board(edges: &Edges, (x_axis, y_axis, extent): OnAxes) -> Geometry {
    refine_board(
        edges,
        &grown_on_lattice(edges, edges.board(extent, x_axis, y_axis)),
    )
}

/// The comb at `pitch` over the pixels `band` of an edge profile (the board's, from its
/// objects) at its best phase, then at its second phase (see [`other_phase`]): a board with
/// gaps or a 3D side has two edges a tile's width apart, and the comb on either may be the
/// one whose cells show four sides.
fn phases_over(profile: &[f32], pitch: f64, (a, b): (usize, usize)) -> Vec<Axis> {
    let peaks = axis_peaks(&profile[a..b.max(a + 1)]);
    let (phase, _) = best_phase(&peaks, pitch, 0.0, (peaks.len() - 1) as f64);
    let first = Axis { pitch, phase };
    std::iter::once(first)
        .chain(other_phase(&peaks, first))
        .map(|axis| Axis {
            pitch,
            phase: (axis.phase + a as f64).rem_euclid(pitch),
        })
        .collect()
}

/// The board found at twice the pitch on an axis whose cells alternate (see
/// [`cells_alternate`]), when one is found there; else the board as it is. Strokes down the
/// middle of every face (a character's stem) make a comb at half the pitch whose half-tiles
/// still show four sides; the half-tiles are of two kinds, left and right.
fn whole_tiles(
    edges: &Edges,
    (x_axis, y_axis, extent): (Axis, Axis, Extent),
) -> (Axis, Axis, Extent) {
    let doubled = |axis: Axis| {
        [0.0, axis.pitch].map(|shift| Axis {
            pitch: 2.0 * axis.pitch,
            phase: axis.phase + shift,
        })
    };
    let x_cells = (extent.col0, extent.cols);
    let y_cells = (extent.row0, extent.rows);
    if cells_alternate(edges.image, (x_axis, x_cells), (y_axis, y_cells), true) {
        if let Ok(board) = first_board(edges, &doubled(x_axis), &[y_axis], Sides::OnComb) {
            return board;
        }
    }
    if cells_alternate(edges.image, (y_axis, y_cells), (x_axis, x_cells), false) {
        if let Ok(board) = first_board(edges, &[x_axis], &doubled(y_axis), Sides::OnComb) {
            return board;
        }
    }
    (x_axis, y_axis, extent)
}

/// How many times more the cells of even and odd index along an axis must differ (their
/// mean pictures, pixel by pixel) than the cells two apart for the cells to alternate: tiles
/// dealt at random make the two differences alike (the one two apart over half as many cells,
/// so a little larger), though a deal's few kinds and a sparse board's pattern reach 2-3
/// times, rarely 6; halves of tiles (a character's stem down each face) reach about 8.
const ALTERNATE: f64 = 4.0;

/// Whether the board's cells along `along` (an axis, its first cell and count) alternate in
/// look: the mean brightness picture of the cells of even index differs from that of odd
/// index [`ALTERNATE`] times more than the mean picture of index 0 mod 4 from 2 mod 4 (and 1
/// from 3) does. `vertical`: `along` is the x axis. False with under 4 cells along.
fn cells_alternate(
    image: &RgbaImage,
    (along, (first, count)): (Axis, (i64, usize)),
    (across, (first_across, count_across)): (Axis, (i64, usize)),
    vertical: bool,
) -> bool {
    let bins = (along.pitch.round() as usize, across.pitch.round() as usize);
    if count < 4 || bins.0 < 4 || bins.1 < 4 {
        return false;
    }
    let (w, h) = (image.width() as i64, image.height() as i64);
    let raw = image.as_raw();
    let mut sums = vec![vec![0f64; bins.0 * bins.1]; 4];
    let mut counts = [0usize; 4];
    for k in first..first + count as i64 {
        for m in first_across..first_across + count_across as i64 {
            let a = (along.at(k as f64) + 1.0).round() as i64;
            let c = (across.at(m as f64) + 1.0).round() as i64;
            let (x, y, cw, ch) = if vertical {
                (a, c, bins.0 as i64, bins.1 as i64)
            } else {
                (c, a, bins.1 as i64, bins.0 as i64)
            };
            if x < 0 || y < 0 || x + cw > w || y + ch > h {
                continue;
            }
            let class = (k - first).rem_euclid(4) as usize;
            counts[class] += 1;
            for j in 0..bins.1 {
                for i in 0..bins.0 {
                    let (px, py) = if vertical {
                        (x + i as i64, y + j as i64)
                    } else {
                        (x + j as i64, y + i as i64)
                    };
                    let at = ((py * w + px) * 4) as usize;
                    let grey: u32 = raw[at..at + 3].iter().map(|&v| u32::from(v)).sum();
                    sums[class][j * bins.0 + i] += f64::from(grey);
                }
            }
        }
    }
    if counts.contains(&0) {
        return false;
    }
    let mean_of = |classes: &[usize]| -> Vec<f64> {
        let n: usize = classes.iter().map(|&c| counts[c]).sum();
        (0..bins.0 * bins.1)
            .map(|p| classes.iter().map(|&c| sums[c][p]).sum::<f64>() / n as f64)
            .collect()
    };
    let apart = |a: &[f64], b: &[f64]| {
        a.iter().zip(b).map(|(p, q)| (p - q).abs()).sum::<f64>() / a.len() as f64
    };
    let between = apart(&mean_of(&[0, 2]), &mean_of(&[1, 3]));
    let within =
        (apart(&mean_of(&[0]), &mean_of(&[2])) + apart(&mean_of(&[1]), &mean_of(&[3]))) / 2.0;
    between > ALTERNATE * within
}

/// The candidate axes (see [`find_axes`]) of the pixels `a..b` of an edge profile, in image
/// coordinates.
fn axes_over(profile: &[f32], (a, b): (usize, usize)) -> Vec<Axis> {
    let b = b.min(profile.len());
    let a = a.min(b);
    find_axes(&axis_peaks(&profile[a..b]))
        .into_iter()
        .map(|axis| Axis {
            pitch: axis.pitch,
            phase: (axis.phase + a as f64).rem_euclid(axis.pitch),
        })
        .collect()
}

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

/// A board found on a pair of combs, with the pixel bands it spans and its own edge profiles.
struct BoardOnAxes {
    x_axis: Axis,
    y_axis: Axis,
    extent: Extent,
    /// Pixel columns and rows (see [`extent_bands`]).
    bands: ((usize, usize), (usize, usize)),
    /// Peaks of the board's column profile.
    x_profile: Vec<f32>,
    /// Peaks of the board's row profile.
    y_profile: Vec<f32>,
}

/// The pair of axes whose comb shows the largest board, with that board's cells; the first
/// error when none does. A later pair replaces an earlier one only with a board covering over
/// half as much again (a texture, a keypad or dots at a small pitch also make a grid of alike
/// four-sided cells, and can come first; the same board seen on a multiple of the pitch covers
/// no more), or with more cells at the same pitches (the comb at another phase: one on an edge
/// inside the tiles cuts the first or last row). A pair whose pitches are not the earlier
/// pair's, nor whole multiples or fractions of them, on both axes also replaces it when its
/// tile-like cells cover over half as much again as any pair's so far (their count times a
/// cell's area): on a small or sparse board a comb a few percent off the pitch, or at a
/// fraction of it on one axis, spans about the same box with far fewer whole tiles. (Against
/// any pair's, not the earlier one's: that may be the right pitches at a poor phase, whose
/// other phase covered more but kept the same box.)
fn first_board(
    edges: &Edges,
    x_axes: &[Axis],
    y_axes: &[Axis],
    sides: Sides,
) -> Result<OnAxes, VisionError> {
    ranked_boards(edges, x_axes, y_axes, sides).map(|(best, _)| best)
}

/// A board on a pair of axes: the x axis, the y axis and the board's cells.
type OnAxes = (Axis, Axis, Extent);

/// The board [`first_board`] chooses, and the boards of the other pairs of axes, those whose
/// tile-like cells cover most first.
fn ranked_boards(
    edges: &Edges,
    x_axes: &[Axis],
    y_axes: &[Axis],
    sides: Sides,
) -> Result<(OnAxes, Vec<OnAxes>), VisionError> {
    let mut first_error = None;
    let mut best: Option<(Axis, Axis, Extent, f64)> = None;
    // Every board found, with the area its tile-like cells cover.
    let mut found: Vec<(OnAxes, f64)> = Vec::new();
    // The most any pair's tile-like cells covered so far.
    let mut most_covered = 0f64;
    for &x_axis in x_axes {
        for &y_axis in y_axes {
            if !plausible_aspect(x_axis.pitch, y_axis.pitch) {
                continue;
            }
            match find_extent(
                edges,
                x_axis,
                y_axis,
                (Outliers::LookPast, Growth::None, sides),
            ) {
                Ok((extent, tiles)) => {
                    let covered = tiles as f64 * x_axis.pitch * y_axis.pitch;
                    let area = (extent.rows * extent.cols) as f64 * x_axis.pitch * y_axis.pitch;
                    // Much larger, or the same lattice at another phase with more cells.
                    let better = best.as_ref().is_none_or(|&(bx, by, be, a)| {
                        let same_pitch = (bx.pitch - x_axis.pitch).abs() < 0.5
                            && (by.pitch - y_axis.pitch).abs() < 0.5;
                        let other_lattice = !commensurate(bx.pitch, x_axis.pitch)
                            || !commensurate(by.pitch, y_axis.pitch);
                        area > 1.5 * a
                            || (other_lattice && covered > 1.5 * most_covered)
                            || (same_pitch && extent.rows * extent.cols > be.rows * be.cols)
                    });
                    most_covered = most_covered.max(covered);
                    if better {
                        best = Some((x_axis, y_axis, extent, area));
                    }
                    found.push(((x_axis, y_axis, extent), covered));
                }
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    }
    let Some((bx, by, best_extent, _)) = best else {
        return Err(first_error.unwrap_or_else(|| no_board("no grid of tile-like cells")));
    };
    found.sort_by(|a, b| b.1.total_cmp(&a.1));
    let others = found
        .into_iter()
        .map(|(board, _)| board)
        .filter(|&(x, y, _)| x != bx || y != by)
        .collect();
    Ok(((bx, by, best_extent), others))
}

/// Whether `fine` is `coarse` or a whole fraction of it, within 3%.
fn finer(fine: f64, coarse: f64) -> bool {
    fine <= coarse * 1.03 && commensurate(fine, coarse)
}

/// Whether one pitch is the other or a whole multiple of it, within 3%: the same lattice,
/// seen with every boundary or every k-th.
fn commensurate(a: f64, b: f64) -> bool {
    let ratio = a.max(b) / a.min(b).max(f64::MIN_POSITIVE);
    (ratio - ratio.round()).abs() <= 0.03 * ratio
}

/// The same board seen on a coarser comb when one fits, else `board`. A comb at a fraction of
/// the true pitch (strokes repeating inside the faces) still finds cells with four sides; over
/// the board alone, its true boundaries stand out as every k-th tooth.
fn coarser_board(edges: &Edges, board: BoardOnAxes) -> BoardOnAxes {
    let extent = board.extent;
    let x_coarse = coarsen(&board.x_profile, board.x_axis, extent.col0, extent.cols);
    let y_coarse = coarsen(&board.y_profile, board.y_axis, extent.row0, extent.rows);
    if x_coarse.is_none() && y_coarse.is_none() {
        return board;
    }
    let (xa, ya) = (
        x_coarse.unwrap_or(board.x_axis),
        y_coarse.unwrap_or(board.y_axis),
    );
    if !plausible_aspect(xa.pitch, ya.pitch) {
        return board;
    }
    let (w, h) = (edges.image.width(), edges.image.height());
    // The same board seen coarser, or nothing.
    match find_extent(
        edges,
        xa,
        ya,
        (Outliers::Typical, Growth::None, Sides::OnComb),
    ) {
        Ok((coarse, _)) if covers_most_of(extent_bands(coarse, xa, ya, w, h), board.bands) => {
            edges.board(coarse, xa, ya)
        }
        _ => board,
    }
}

/// The board grown by the rows and columns next to it that its lattice runs on through (see
/// [`CellEvidence::grown_along_lattice`]), found again on its own combs; `board` when that
/// finds no box holding it. Only once the combs are chosen: on a wrong comb over a texture,
/// growing would make a larger board that beats the right one.
fn grown_on_lattice(edges: &Edges, board: BoardOnAxes) -> BoardOnAxes {
    let (x_axis, y_axis) = (board.x_axis, board.y_axis);
    let found = find_extent(
        edges,
        x_axis,
        y_axis,
        (Outliers::LookPast, Growth::AlongLattice, Sides::OnComb),
    );
    let old = board.extent;
    match found {
        Ok((grown, _))
            if grown.row0 <= old.row0
                && grown.col0 <= old.col0
                && grown.row0 + grown.rows as i64 >= old.row0 + old.rows as i64
                && grown.col0 + grown.cols as i64 >= old.col0 + old.cols as i64
                && grown.rows * grown.cols > old.rows * old.cols =>
        {
            edges.board(grown, x_axis, y_axis)
        }
        _ => board,
    }
}

/// The geometry refined against the board's own profiles: pitch and phase (see
/// [`fine_comb`]), then where the tiles start in each cell and their size (see [`tile_span`]).
fn refine_board(edges: &Edges, board: &BoardOnAxes) -> Geometry {
    let image = edges.image;
    let extent = board.extent;
    let ((x0, x1), (y0, y1)) = board.bands;
    let (x_rise, x_fall) = signed_profiles(image, true, y0, y1);
    let (y_rise, y_fall) = signed_profiles(image, false, x0, x1);
    let x_fit = fine_comb(
        &board.x_profile,
        [&x_rise, &x_fall],
        &[
            refine_axis(&board.x_profile, board.x_axis, extent.col0, extent.cols),
            board.x_axis,
        ],
        extent.col0,
        extent.cols,
    );
    let y_fit = fine_comb(
        &board.y_profile,
        [&y_rise, &y_fall],
        &[
            refine_axis(&board.y_profile, board.y_axis, extent.row0, extent.rows),
            board.y_axis,
        ],
        extent.row0,
        extent.rows,
    );
    let colours = Colours {
        tile: extent.tile_colour,
        background: outside_colour(image, (x0, x1), (y0, y1), x_fit.pitch, y_fit.pitch),
    };
    let x_span = tile_span(
        &board.x_profile,
        x_fit,
        (extent.col0, extent.cols),
        &Across {
            image,
            vertical: true,
            band: (y0, y1),
            colours,
        },
    );
    let y_span = tile_span(
        &board.y_profile,
        y_fit,
        (extent.row0, extent.rows),
        &Across {
            image,
            vertical: false,
            band: (x0, x1),
            colours,
        },
    );
    // A gap between tiles runs both ways: a strip that parts the tiles along one axis only
    // is a drawn side (3D tiles that touch) or a line inside the faces, not a gap.
    let ((x_start, x_size), (y_start, y_size)) = match (x_span.parted, y_span.parted) {
        (Some(x), Some(y)) => (x, y),
        _ => (x_span.whole, y_span.whole),
    };
    // A profile index i measures the step between pixels i and i + 1: the edge lies at i + 1.
    let from_edges = Geometry {
        rows: extent.rows,
        cols: extent.cols,
        origin: [x_start + 1.0, y_start + 1.0],
        pitch: [x_fit.pitch, y_fit.pitch],
        tile_size: [x_size, y_size],
    };
    centred_tiles(
        image,
        from_edges,
        [(x_fit, &board.x_profile), (y_fit, &board.y_profile)],
        extent,
    )
}

/// The tiles placed from the edges (`from_edges`) centred on their pictures (see
/// [`centred_on_drawings`]) over the board's cells on the fitted combs (x, y, each with the
/// board's edge profile along it), while the board stays in the image.
fn centred_tiles(
    image: &RgbaImage,
    from_edges: Geometry,
    [(x_fit, x_profile), (y_fit, y_profile)]: [(Axis, &[f32]); 2],
    extent: Extent,
) -> Geometry {
    let x_cells = (extent.col0, extent.cols);
    let y_cells = (extent.row0, extent.rows);
    let drawings = [
        drawing_centre(image, (x_fit, x_cells), (y_fit, y_cells), true),
        drawing_centre(image, (y_fit, y_cells), (x_fit, x_cells), false),
    ];
    let folds = [
        EdgeFold::new(x_profile, x_fit, x_cells),
        EdgeFold::new(y_profile, y_fit, y_cells),
    ];
    let framed: [bool; 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => framed_by_edges(fold, centre),
        _ => false,
    });
    let spans = [
        (from_edges.origin[0], from_edges.tile_size[0]),
        (from_edges.origin[1], from_edges.tile_size[1]),
    ];
    let grown: [(f64, f64); 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => side_to_body(spans[i], fold, centre),
        _ => spans[i],
    });
    // A body has its side on both axes: a span grown on one axis alone mixes a face (or a
    // body) on one with an edge in the gap on the other.
    let spans = if (0..2).all(|i| grown[i] != spans[i]) {
        grown
    } else {
        spans
    };
    let off_frame: [bool; 2] = std::array::from_fn(|i| match (&folds[i], drawings[i]) {
        (Some(fold), Some(centre)) => off_the_frame(spans[i], fold, centre),
        _ => false,
    });
    let origin = centred_on_drawings(spans, (drawings, framed, off_frame), from_edges.pitch);
    let lattice = [(x_fit.phase, x_fit.pitch), (y_fit.phase, y_fit.pitch)];
    let faces = face_centre(image, lattice[0], lattice[1], x_cells, y_cells)
        .filter(|f| f.spread.iter().all(|&s| s <= PICTURES_AGREE));
    // The pictures (a per-pixel median over the cells, the costly part) only where used.
    let moved = (0..2).any(|i| origin[i] != spans[i].0);
    let pictures = (moved || faces.is_some())
        .then(|| picture_centre(image, lattice[0], lattice[1], x_cells, y_cells))
        .flatten();
    let origin = onto_pictures(origin, spans, pictures, from_edges.pitch);
    let origin = onto_faces(origin, spans, (faces, pictures), from_edges.pitch);
    let tile_size = [spans[0].1, spans[1].1];
    let geometry = Geometry {
        tile_size,
        ..from_edges
    };
    if geometry.fits(image.width(), image.height()) {
        moved_within(geometry, origin, image.width(), image.height())
    } else {
        moved_within(from_edges, origin, image.width(), image.height())
    }
}

/// The board's edge profile folded at the pitch over the board's cells: the mean edge at
/// each whole-pixel offset from the first boundary, as a share of the strongest offset's.
struct EdgeFold {
    /// Image coordinate of offset 0's edge.
    start: f64,
    pitch: f64,
    /// Mean edge at each offset over the strongest; every value in 0..=1.
    shares: Vec<f64>,
}

impl EdgeFold {
    /// The fold of `profile` at `axis`'s pitch over boundaries `first..=first + count`;
    /// `None` when the pitch is under 4 pixels or the profile holds no edge.
    fn new(profile: &[f32], axis: Axis, (first, count): (i64, usize)) -> Option<Self> {
        let bins = axis.pitch.round() as usize;
        if bins < 4 {
            return None;
        }
        let fold: Vec<f64> = (0..bins)
            .map(|t| comb_sum(profile, axis, (first, count), t as f64))
            .collect();
        let strongest = fold.iter().copied().fold(0.0, f64::max);
        if strongest <= 0.0 {
            return None;
        }
        // A profile index i is the step between pixels i and i + 1: the edge lies at i + 1.
        Some(EdgeFold {
            start: axis.at(first as f64) + 1.0,
            pitch: axis.pitch,
            shares: fold.iter().map(|v| v / strongest).collect(),
        })
    }

    /// Offsets that are local maxima of at least `share` of the strongest.
    fn peaks(&self, share: f64) -> Vec<usize> {
        let n = self.shares.len();
        let at = |i: usize| self.shares[i % n];
        (0..n)
            .filter(|&i| {
                let v = self.shares[i];
                v >= share && v >= at(i + n - 1) && v > at(i + 1)
            })
            .collect()
    }

    /// The image coordinates of the peaks of at least `share` lying in `lo..=hi` (at most a
    /// pitch apart), in increasing order.
    fn peaks_within(&self, share: f64, (lo, hi): (f64, f64)) -> Vec<f64> {
        let mut found: Vec<f64> = self
            .peaks(share)
            .into_iter()
            .map(|i| {
                let at = self.start + i as f64;
                at + self.pitch * ((lo - at) / self.pitch).ceil()
            })
            .filter(|&at| at <= hi)
            .collect();
        found.sort_by(f64::total_cmp);
        found
    }
}

/// How strong an edge of the board's folded edge profile must be, as a share of the
/// strongest, to count as the outer edge of a tile's 3D side (see [`side_to_body`]).
const SIDE_EDGE: f64 = 0.1;

/// How far (pixels) a tile's side edge must lie from the box's own edge and from the next
/// tile's edge to count as an edge of its own.
const SIDE_APART: f64 = 1.5;

/// A tile span (start, size; image coordinates) grown to the outermost edge of its 3D side:
/// tilesets centre the picture on the face, so the pictures' `centre` off the span's centre
/// towards one end says the side lies at the other end. Beyond that end, up to the next
/// tile's near end (a pitch from the span's far end), a side drawn in layers (or a dark
/// outline round it) leaves edges that the span may have stopped on; the outermost peak of
/// the `fold` between the two, of at least [`SIDE_EDGE`] of the strongest and
/// [`SIDE_APART`] from both, is the tile's body edge. A span whose far side shows no such
/// edge (the body already, its gap plain) stands.
fn side_to_body((start, size): (f64, f64), fold: &EdgeFold, centre: f64) -> (f64, f64) {
    let end = start + size;
    let middle = start + size / 2.0;
    let off = centre + fold.pitch * ((middle - centre) / fold.pitch).round() - middle;
    if off > 0.5 {
        // The side is at the start; the tile before ends a pitch before this one's end.
        let outer = fold.peaks_within(
            SIDE_EDGE,
            (end - fold.pitch + SIDE_APART, start - SIDE_APART),
        );
        match outer.first() {
            Some(&at) => (at, end - at),
            None => (start, size),
        }
    } else if off < -0.5 {
        let outer = fold.peaks_within(
            SIDE_EDGE,
            (end + SIDE_APART, start + fold.pitch - SIDE_APART),
        );
        match outer.last() {
            Some(&at) => (start, at - start),
            None => (start, size),
        }
    } else {
        (start, size)
    }
}

/// Most a tile's picture centre may stray from the median of all of them (the median absolute
/// deviation, pixels) for that median to place the tiles: pictures centred on their faces
/// agree to about a pixel, while pictures placed anywhere (or a reading of noise) do not.
const PICTURES_AGREE: f64 = 1.0;

/// The `origin` that [`centred_on_drawings`] moved off the tiles' `spans` (start, size) on an
/// axis, moved instead onto the pictures' centre measured tile by tile (see
/// [`picture_centre`]), when the tiles' pictures agree on it within [`PICTURES_AGREE`]: the
/// fold of the picture energy is pulled by lopsided pictures (a letter heavier on one side, a
/// bamboo's stalks); the extent of each picture is not. An origin that stands on the spans
/// stays: the edges place it to a fraction of a pixel.
fn onto_pictures(
    origin: [f64; 2],
    spans: [(f64, f64); 2],
    pictures: Option<PictureCentre>,
    pitch: [f64; 2],
) -> [f64; 2] {
    std::array::from_fn(|i| match pictures {
        Some(PictureCentre { centre, spread })
            if origin[i] != spans[i].0 && spread[i] <= PICTURES_AGREE =>
        {
            let current = origin[i] + spans[i].1 / 2.0;
            // The same tile's picture: the centre may come a whole pitch away.
            let picture = centre[i] + pitch[i] * ((current - centre[i]) / pitch[i]).round();
            picture - spans[i].1 / 2.0
        }
        _ => origin[i],
    })
}

/// Farthest apart (pixels, each axis) the faces' centre and the pictures' centre may lie for
/// the tiles to move onto them: two measures that agree to a pixel found the face.
const FACES_AND_PICTURES_AGREE: f64 = 1.0;

/// How far (pixels) the faces must lie from the tiles' centre on an axis for the tiles to
/// move: a box within half a pixel of them samples the same pixels, rounded the other way.
const FACES_MOVE: f64 = 0.5;

/// The tiles' `origin` moved onto the midpoint of their faces' centre (the extent of each
/// tile's own ground, see [`face_centre`]) and their pictures' centre (see
/// [`picture_centre`]), when each is agreed on by the tiles within [`PICTURES_AGREE`] and the
/// two lie within [`FACES_AND_PICTURES_AGREE`] of each other on both axes. Either alone errs
/// by a pixel or two on some tilesets (a face's bevel is ground-coloured or not; a picture's
/// faint strokes fall under the step), and rarely both the same way.
fn onto_faces(
    origin: [f64; 2],
    spans: [(f64, f64); 2],
    (faces, pictures): (Option<PictureCentre>, Option<PictureCentre>),
    pitch: [f64; 2],
) -> [f64; 2] {
    let (Some(faces), Some(pictures)) = (faces, pictures) else {
        return origin;
    };
    if faces
        .spread
        .iter()
        .chain(&pictures.spread)
        .any(|&s| s > PICTURES_AGREE)
    {
        return origin;
    }
    // The same tile's centres: each may come a whole pitch away.
    let near = |c: f64, i: usize| {
        let current = origin[i] + spans[i].1 / 2.0;
        c + pitch[i] * ((current - c) / pitch[i]).round()
    };
    let centres: [(f64, f64); 2] =
        std::array::from_fn(|i| (near(faces.centre[i], i), near(pictures.centre[i], i)));
    if centres
        .iter()
        .any(|(f, p)| (f - p).abs() > FACES_AND_PICTURES_AGREE)
    {
        return origin;
    }
    std::array::from_fn(|i| {
        let moved = (centres[i].0 + centres[i].1) / 2.0 - spans[i].1 / 2.0;
        if (moved - origin[i]).abs() > FACES_MOVE {
            moved
        } else {
            origin[i]
        }
    })
}

/// `geometry` moved to `origin` when the board still lies in the image, else as it is: the
/// tiles are in the picture, so a move that takes them out of it (a lattice at the wrong
/// pitch whose last cells reach the image's edge) is no better.
fn moved_within(geometry: Geometry, origin: [f64; 2], width: u32, height: u32) -> Geometry {
    let moved = Geometry { origin, ..geometry };
    if moved.fits(width, height) {
        moved
    } else {
        geometry
    }
}

/// How far (a share of the pitch) the tiles' centre may lie from their pictures' centre on
/// both axes and stand: a tile placed between its 3D side's outer edge and its face's far
/// edge (the body) lies half a side off the face's centre.
const OFF_DRAWING: f64 = 0.09;

/// The tiles' origin (x, y) from their spans (start, size; image coordinates), their
/// pictures' centres (see [`drawing_centre`]) and whether two edges frame each centre (see
/// [`framed_by_edges`]): the spans stand when both centres lie within [`OFF_DRAWING`] of a
/// pitch of the pictures' and the pictures are not framed on both axes; otherwise each axis
/// whose span lies more than half a pixel off is moved onto the pictures' centre (an edge
/// inside a 3D side or its shadow, or across the gap, put the span there; tilesets centre
/// the picture on the face). A span near the pictures may still be neither face nor body (a
/// 3D side drawn in layers gives an edge inside the side): when edges centred on the
/// pictures show on both axes and the span lies more than [`FRAMED_WITHIN`] off them on one,
/// the face is there; so it is when a span on either axis meets none of the edges that frame
/// the pictures there (`off_frame`, see [`off_the_frame`]).
fn centred_on_drawings(
    spans: [(f64, f64); 2],
    (drawings, framed, off_frame): ([Option<f64>; 2], [bool; 2], [bool; 2]),
    pitch: [f64; 2],
) -> [f64; 2] {
    // How far each span's centre lies from its drawing's (the same tile's: the centre may
    // come a whole pitch away).
    let offsets: [Option<f64>; 2] = std::array::from_fn(|i| {
        let centre = spans[i].0 + spans[i].1 / 2.0;
        drawings[i].map(|c| c + pitch[i] * ((centre - c) / pitch[i]).round() - centre)
    });
    let agree = (0..2).all(|i| offsets[i].is_none_or(|d| d.abs() <= OFF_DRAWING * pitch[i]));
    // A span within the framing tolerance of the pictures on both axes frames them itself.
    let framed_elsewhere = framed.iter().all(|&f| f)
        && offsets
            .iter()
            .any(|d| d.is_some_and(|d| d.abs() > FRAMED_WITHIN));
    let stand = agree && !framed_elsewhere && !off_frame.iter().any(|&f| f);
    std::array::from_fn(|i| match offsets[i] {
        Some(d) if !stand && d.abs() > 0.5 => spans[i].0 + d,
        _ => spans[i].0,
    })
}

/// `profile` summed at the teeth of `axis`'s comb over boundaries `first..=first + count`,
/// each shifted by `t` pixels: the profile folded at the pitch over the board's cells.
fn comb_sum(profile: &[f32], axis: Axis, (first, count): (i64, usize), t: f64) -> f64 {
    (0..=count)
        .map(|k| f64::from(sample(profile, axis.at((first + k as i64) as f64) + t)))
        .sum()
}

/// How strong an edge of the board's folded edge profile must be, as a share of the
/// strongest, to frame the pictures (see [`framed_by_edges`]).
const FRAMING_EDGE: f64 = 0.15;

/// How near (pixels) the middle of two framing edges must lie to the pictures' centre.
const FRAMED_WITHIN: f64 = 1.0;

/// Whether the pictures centred at `centre` (image coordinates) are framed: the board's edge
/// `profile` folded at the pitch of `axis` over the board's cells (offsets a pixel apart from
/// boundary `first`) has two peaks of at least [`FRAMING_EDGE`] of its strongest, half a pitch
/// to a pitch apart, whose middle lies within [`FRAMED_WITHIN`] of the centre (a whole number
/// of pitches away counts the same): a face, or a flat tile, drawn around the pictures. Two
/// distinct edges: one edge and its copy a pitch on bound a cell, not a tile's face.
fn framed_by_edges(fold: &EdgeFold, centre: f64) -> bool {
    !framing_pairs(fold, centre).is_empty()
}

/// The pairs of edges (image coordinates, near then far, far less than a pitch on) that frame
/// the pictures centred at `centre` (see [`framed_by_edges`]).
fn framing_pairs(fold: &EdgeFold, centre: f64) -> Vec<(f64, f64)> {
    let bins = fold.shares.len();
    let peaks = fold.peaks(FRAMING_EDGE);
    let framing = |near: f64, far: f64| {
        let size = far - near;
        let middle = fold.start + (near + far) / 2.0;
        let off = middle - centre;
        (0.5 * fold.pitch..=fold.pitch).contains(&size)
            && (off - fold.pitch * (off / fold.pitch).round()).abs() <= FRAMED_WITHIN
    };
    let mut pairs = Vec::new();
    for &near in &peaks {
        for &far in &peaks {
            let (near, far) = (near as f64, far as f64);
            for far in [far, far + bins as f64] {
                if (far != near + bins as f64) && framing(near, far) {
                    pairs.push((fold.start + near, fold.start + far));
                }
            }
        }
    }
    pairs
}

/// How near (pixels) an end of a tile span must lie to an edge of a pair framing the pictures
/// to count as that edge (see [`off_the_frame`]).
const ON_FRAME: f64 = 1.0;

/// Whether the tile span (start, size; image coordinates) misses the edges that frame the
/// pictures centred at `centre`: the pictures are framed (see [`framed_by_edges`]) and
/// neither end of the span lies within [`ON_FRAME`] of an edge of a framing pair (a whole
/// number of pitches away counts the same). The face is between such edges, and a body
/// shares the face's far edge; a span that meets none of them is neither (it reaches across
/// the gap, or stops inside a 3D side on one end and the face on the other).
fn off_the_frame((start, size): (f64, f64), fold: &EdgeFold, centre: f64) -> bool {
    let pairs = framing_pairs(fold, centre);
    let near = |a: f64, b: f64| {
        let d = a - b;
        (d - fold.pitch * (d / fold.pitch).round()).abs() <= ON_FRAME
    };
    !pairs.is_empty()
        && !pairs.iter().any(|&(a, b)| {
            [start, start + size]
                .iter()
                .any(|&end| near(end, a) || near(end, b))
        })
}

/// How far from the quietest offset towards the busiest a tile's picture counts as drawn.
const DRAWN: f64 = 0.2;

/// The centre of the tiles' pictures along one axis (image coordinates, in the board's
/// first cell): the colour steps along the other axis, over the middle of each cell, folded
/// at the pitch across the board's cells. A face's picture changes along both axes, while a
/// tile's edges, its 3D side and shadow and a plain gap do not change along their own length,
/// so the fold rises over the pictures and is low between them. The pictures' extent is the
/// run of offsets above [`DRAWN`] of the way from the quietest offset to the busiest, grown
/// from the cell's middle, with its ends placed between offsets; tilesets draw the picture
/// centred on the face, however they draw the side, the shadow or the gap (3D tiles' edges
/// give a box between face and body as often as one of them). `vertical`: the x axis.
///
/// `None` when nothing is drawn or the run covers the whole pitch.
fn drawing_centre(
    image: &RgbaImage,
    (along, (first, count)): (Axis, (i64, usize)),
    (across, (first_across, count_across)): (Axis, (i64, usize)),
    vertical: bool,
) -> Option<f64> {
    let energy = cross_steps(image, across, (first_across, count_across), vertical);
    let bins = along.pitch.round() as usize;
    if bins < 4 {
        return None;
    }
    let scale = bins as f64 / along.pitch;
    let mut fold = vec![0f64; bins];
    // A profile index i is the step between pixels i and i + 1: the boundary lies at i + 1.
    let cell_start = |k: i64| along.at(k as f64) + 1.0;
    for k in first..first + count as i64 {
        let start = cell_start(k);
        let (lo, hi) = pixel_range(start, start + along.pitch, energy.len() as u32);
        for (p, &e) in energy
            .iter()
            .enumerate()
            .take(hi as usize)
            .skip(lo as usize)
        {
            // Bin i holds offsets around (i + 0.5) / scale; split each pixel between two.
            let q = (p as f64 + 0.5 - start) * scale - 0.5;
            let i = q.floor();
            let f = q - i;
            let i = i.rem_euclid(bins as f64) as usize;
            fold[i] += e * (1.0 - f);
            fold[(i + 1) % bins] += e * f;
        }
    }
    let fold: Vec<f64> = (0..bins)
        .map(|i| (fold[(i + bins - 1) % bins] + 2.0 * fold[i] + fold[(i + 1) % bins]) / 4.0)
        .collect();
    let (low, high) = fold
        .iter()
        .fold((f64::MAX, f64::MIN), |(l, h), &v| (l.min(v), h.max(v)));
    if high <= low {
        return None;
    }
    let level = low + DRAWN * (high - low);
    let run = drawn_run(&fold, level)?;
    Some(cell_start(first) + (run + 0.5) / scale)
}

/// The middle (in bins) of the run of a periodic `fold` at or above `level` that holds the
/// middle bin (or the nearest bin at that level), its ends placed where the fold crosses the
/// level between bins; `None` when the run goes all the way round.
fn drawn_run(fold: &[f64], level: f64) -> Option<f64> {
    let n = fold.len();
    let at = |i: i64| fold[i.rem_euclid(n as i64) as usize];
    let middle = (n / 2) as i64;
    let seed = (0..n as i64)
        .flat_map(|d| [middle - d, middle + d])
        .find(|&i| at(i) >= level)?;
    let (mut left, mut right) = (seed, seed);
    while at(left - 1) >= level {
        left -= 1;
        if right - left + 1 >= n as i64 {
            return None;
        }
    }
    while at(right + 1) >= level {
        right += 1;
        if right - left + 1 >= n as i64 {
            return None;
        }
    }
    let crossing = |below: f64, above: f64| (level - below) / (above - below);
    let left_end = (left - 1) as f64 + crossing(at(left - 1), at(left));
    let right_end = right as f64 + 1.0 - crossing(at(right + 1), at(right));
    Some((left_end + right_end) / 2.0)
}

/// For each pixel column (`vertical`) or row, the colour steps along it (between each pixel
/// and the next one down, or to the right) summed over the middle three fifths of the
/// `count` cells of `across` from boundary `first`: how busy the pictures are at each
/// offset, not counting lines that run along the axis.
fn cross_steps(
    image: &RgbaImage,
    across: Axis,
    (first, count): (i64, usize),
    vertical: bool,
) -> Vec<f64> {
    let (w, h) = (image.width() as usize, image.height() as usize);
    let raw = image.as_raw();
    let step = |a: usize, b: usize| -> f64 {
        (0..3)
            .map(|c| f64::from((i16::from(raw[a + c]) - i16::from(raw[b + c])).unsigned_abs()))
            .sum()
    };
    let (len, limit) = if vertical { (w, h) } else { (h, w) };
    let mut energy = vec![0f64; len];
    for k in first..first + count as i64 {
        let start = across.at(k as f64) + 1.0;
        let (lo, hi) = pixel_range(
            start + 0.2 * across.pitch,
            start + 0.8 * across.pitch,
            limit.saturating_sub(1) as u32,
        );
        for j in lo as usize..hi as usize {
            for (i, e) in energy.iter_mut().enumerate() {
                let (here, next) = if vertical {
                    ((j * w + i) * 4, ((j + 1) * w + i) * 4)
                } else {
                    ((i * w + j) * 4, (i * w + j + 1) * 4)
                };
                *e += step(here, next);
            }
        }
    }
    energy
}

/// The pixel columns and rows the board's cells span, clipped to the image.
fn extent_bands(
    extent: Extent,
    x_axis: Axis,
    y_axis: Axis,
    w: u32,
    h: u32,
) -> ((usize, usize), (usize, usize)) {
    let band = |lo: f64, hi: f64, limit: u32| {
        (
            lo.max(0.0) as usize,
            (hi.max(0.0) as usize).min(limit as usize),
        )
    };
    (
        band(
            x_axis.at(extent.col0 as f64),
            x_axis.at((extent.col0 + extent.cols as i64) as f64),
            w,
        ),
        band(
            y_axis.at(extent.row0 as f64),
            y_axis.at((extent.row0 + extent.rows as i64) as f64),
            h,
        ),
    )
}

/// Whether cells of these pitches could hold link-up tiles: square, taller than wide, or not
/// much wider than tall. Combs at a fraction of the pitch on one axis (lines repeating inside
/// the faces) make cells several times wider than tall, or taller than wide.
fn plausible_aspect(x_pitch: f64, y_pitch: f64) -> bool {
    (0.5..=2.5).contains(&(y_pitch / x_pitch))
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

/// The axis `k` times coarser when, over the board's `count` cells from boundary `first`, one
/// class of every `k`-th boundary collects far more edge than every other class: the board's
/// true boundaries under a comb at `1 / k` of the pitch (strokes repeating inside the faces
/// still make cells with four sides). `None` when no class stands out.
fn coarsen(profile: &[f32], axis: Axis, first: i64, count: usize) -> Option<Axis> {
    /// How many times the next class the strongest class must collect.
    const STANDS_OUT: f64 = 2.5;
    let reach = (0.06 * axis.pitch).max(1.0);
    // Interior boundaries only: the board's outer ones face the surroundings and stand out
    // whatever the pitch.
    let teeth: Vec<f64> = (1..count as i64)
        .map(|j| {
            let x = axis.at((first + j) as f64);
            let lo = (x - reach).round().max(0.0) as usize;
            let hi = ((x + reach).round().max(0.0) as usize).min(profile.len().saturating_sub(1));
            profile
                .get(lo..=hi)
                .map_or(0.0, |s| s.iter().copied().fold(0.0, f32::max))
                .into()
        })
        .collect();
    let mut best: Option<(f64, Axis)> = None;
    for k in 2..=8usize {
        if teeth.len() / k < 3 || axis.pitch * k as f64 > 400.0 {
            break;
        }
        // Each class by its median, so one strong line does not carry a class.
        let means: Vec<f64> = (0..k)
            .map(|r| {
                let mut class: Vec<f64> = teeth.iter().skip(r).step_by(k).copied().collect();
                mean_median(&mut class).unwrap_or(0.0)
            })
            .collect();
        let (strongest, top) = means
            .iter()
            .copied()
            .enumerate()
            .max_by(|a, b| a.1.total_cmp(&b.1))?;
        let next = means
            .iter()
            .enumerate()
            .filter(|&(r, _)| r != strongest)
            .map(|(_, &v)| v)
            .fold(0.0, f64::max);
        let ratio = top / next.max(f64::MIN_POSITIVE);
        if top > 0.0 && ratio >= STANDS_OUT && best.is_none_or(|(b, _)| ratio > b) {
            let coarse = Axis {
                pitch: axis.pitch * k as f64,
                phase: axis.at((first + 1 + strongest as i64) as f64),
            };
            best = Some((ratio, coarse));
        }
    }
    best.map(|(_, axis)| axis)
}

fn no_board(why: &str) -> VisionError {
    VisionError::NoBoard(why.to_string())
}

/// A periodic axis: boundaries at `phase + k * pitch` in profile coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Axis {
    pitch: f64,
    phase: f64,
}

impl Axis {
    /// Position of boundary `k` (fractional `k` allowed).
    fn at(self, k: f64) -> f64 {
        self.phase + k * self.pitch
    }
}

/// The pitch and phase of the strongest repeating peaks in a profile, the same pitch at its
/// second phase (see [`other_phase`]), then the other candidates in order of comb contrast
/// (the other maxima of the autocorrelation and the multiples of the first): when the first is
/// a fraction of the true pitch (strokes repeating inside the tiles, text, a texture), no board
/// is found on it and the next is tried.
fn find_axes(peaks: &[f32]) -> Vec<Axis> {
    let Some((first, scored)) = find_axis(peaks) else {
        return Vec::new();
    };
    let hi = (peaks.len() - 1) as f64;
    let max_pitch = (peaks.len() as f64 / 3.0).min(400.0);
    let mut others: Vec<(Axis, f64)> = scored;
    for k in 2..=8 {
        let pitch = first.pitch * f64::from(k);
        if pitch > max_pitch {
            break;
        }
        let (phase, score) = best_phase(peaks, pitch, 0.0, hi);
        others.push((Axis { pitch, phase }, score));
    }
    others.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut axes = vec![first];
    axes.extend(other_phase(peaks, first));
    for (axis, _) in others {
        if axes.iter().all(|a| (a.pitch - axis.pitch).abs() > 0.5) {
            axes.push(axis);
        }
    }
    axes.truncate(5);
    axes
}

/// The peaks of an edge profile the axes are sought in (see [`find_axes`]), smoothed and
/// capped (see [`cap_outliers`]).
fn axis_peaks(profile: &[f32]) -> Vec<f32> {
    cap_outliers(&smooth(&peaks_only(profile, 5)))
}

/// The first axis at its second-best phase, when that collects at least half as much and lies
/// a few pixels away: an edge repeating inside every tile (an inner frame, a 3D side) can
/// collect more than the tiles' borders over the whole image, and a comb on it cuts every
/// tile in two, so no cell shows four borders.
fn other_phase(peaks: &[f32], axis: Axis) -> Option<Axis> {
    let contrast = phase_contrasts(peaks, axis.pitch, 0.0, (peaks.len() - 1) as f64);
    let steps = contrast.len();
    let best = contrast.iter().map(|c| c.1).fold(0.0, f64::max);
    let apart = |phase: f64| {
        let d = (phase - axis.phase).rem_euclid(axis.pitch);
        d.min(axis.pitch - d) >= 3.0
    };
    (0..steps)
        .filter(|&i| {
            let (prev, next) = (
                contrast[(i + steps - 1) % steps].1,
                contrast[(i + 1) % steps].1,
            );
            let v = contrast[i].1;
            v >= 0.5 * best && v >= prev && v > next
        })
        .map(|i| contrast[i])
        .filter(|&(phase, _)| apart(phase))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(phase, _)| Axis {
            pitch: axis.pitch,
            phase,
        })
}

/// The chosen axis of a peak profile (see [`find_axes`]) and every candidate with its score.
fn find_axis(peaks: &[f32]) -> Option<(Axis, Vec<(Axis, f64)>)> {
    let n = peaks.len();
    let max_pitch = (n as f64 / 3.0).min(400.0);
    if max_pitch <= MIN_PITCH {
        return None;
    }
    let hi = (n - 1) as f64;
    let scored: Vec<(Axis, f64)> = candidate_pitches(peaks, max_pitch)
        .into_iter()
        .map(|pitch| {
            let (phase, score) = best_phase(peaks, pitch, 0.0, hi);
            (Axis { pitch, phase }, score)
        })
        .filter(|&(_, score)| score > 0.0)
        .collect();
    let chosen = choose_axis(peaks, &scored)?;
    Some((chosen, scored))
}

/// Candidate pitches up to `max_pitch`: local maxima of the peaks' autocorrelation of at
/// least 30% of its best, refined by a parabola.
fn candidate_pitches(peaks: &[f32], max_pitch: f64) -> Vec<f64> {
    let n = peaks.len();
    let mean = peaks.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64;
    let centred: Vec<f64> = peaks.iter().map(|&v| f64::from(v) - mean).collect();
    let lags = MIN_PITCH as usize - 2..=max_pitch as usize + 1;
    let auto: Vec<(usize, f64)> = lags
        .map(|lag| {
            let s: f64 = centred[..n - lag]
                .iter()
                .zip(&centred[lag..])
                .map(|(a, b)| a * b)
                .sum();
            (lag, s / (n - lag) as f64)
        })
        .collect();
    let best = auto.iter().map(|&(_, v)| v).fold(0.0, f64::max);
    if best <= 0.0 {
        return Vec::new();
    }
    let mut candidates = Vec::new();
    for i in 1..auto.len() - 1 {
        let (lag, v) = auto[i];
        if (lag as f64) < MIN_PITCH || v < 0.3 * best {
            continue;
        }
        if v >= auto[i - 1].1 && v > auto[i + 1].1 {
            let shift = parabola_vertex(auto[i - 1].1, v, auto[i + 1].1);
            candidates.push(lag as f64 + shift);
        }
    }
    candidates
}

/// The axis chosen among the scored combs. The comb sums over teeth, so a multiple of the
/// pitch misses boundaries and scores less, while clutter (menu bars, status lines) can still
/// favour one. A half pitch can score as well as the pitch, but every other tooth of it falls
/// mid-tile and collects nothing. Take the smallest pitch that scores at least half the best,
/// divides the best pitch a whole number of times (texture and glyph strokes give unrelated
/// small periods), in phase with it, and whose teeth do not alternate.
fn choose_axis(peaks: &[f32], scored: &[(Axis, f64)]) -> Option<Axis> {
    let top = scored.iter().map(|&(_, s)| s).fold(0.0, f64::max);
    // The reference is the best comb whose teeth do not alternate: one that does is a half or
    // a third of the true pitch (glyphs or a tile's inner frame repeating inside the tiles) and
    // no true pitch is a multiple of it.
    let steady: Vec<(Axis, f64)> = scored
        .iter()
        .copied()
        .filter(|&(axis, _)| !alternates(peaks, axis))
        .collect();
    let pool = if steady.is_empty() { scored } else { &steady };
    let best = pool.iter().max_by(|a, b| a.1.total_cmp(&b.1))?.0;
    // ... and whose teeth include the best comb's teeth (a true pitch under a multiple of it).
    let divides = |axis: Axis| {
        let ratio = best.pitch / axis.pitch;
        let steps = (best.phase - axis.phase) / axis.pitch;
        (ratio - ratio.round()).abs() < 0.08 * ratio.round().max(1.0)
            && (steps - steps.round()).abs() < 0.15
    };
    Some(
        steady
            .iter()
            .filter(|&&(axis, score)| score >= 0.5 * top && divides(axis))
            .min_by(|a, b| a.0.pitch.total_cmp(&b.0.pitch))
            .map_or(best, |&(axis, _)| axis),
    )
}

/// Caps a peak profile at its 97th percentile: a line across the whole image (a menu bar, a
/// status bar) otherwise outweighs every tile boundary, and one such line decides which teeth
/// of a comb look strong.
fn cap_outliers(peaks: &[f32]) -> Vec<f32> {
    let mut sorted = peaks.to_vec();
    sorted.sort_by(f32::total_cmp);
    let Some(&cap) = sorted.get(sorted.len() * 97 / 100) else {
        return peaks.to_vec();
    };
    if cap <= 0.0 {
        return peaks.to_vec();
    }
    peaks.iter().map(|&v| v.min(cap)).collect()
}

/// Whether the comb's even teeth collect much more (or much less) than its odd teeth: the
/// mark of a comb at half the true pitch.
fn alternates(profile: &[f32], axis: Axis) -> bool {
    // Teeth collected by residue modulo 2 and modulo 3: at a half or a third of the true pitch
    // one residue class collects (nearly) everything.
    let mut sums = [[0f64; 3]; 2];
    let mut k = 0usize;
    let mut x = axis.phase;
    while x < (profile.len() - 1) as f64 {
        let tooth =
            f64::from(sample(profile, x)) - f64::from(sample(profile, x + axis.pitch / 2.0));
        sums[0][k % 2] += tooth.max(0.0);
        sums[1][k % 3] += tooth.max(0.0);
        k += 1;
        x += axis.pitch;
    }
    let uneven = |v: &[f64]| {
        let lo = v.iter().copied().fold(f64::MAX, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        lo < 0.4 * hi
    };
    uneven(&sums[0][..2]) || uneven(&sums[1])
}

/// The phase in `0..pitch` (quarter-pixel steps) with the best comb contrast, and that contrast.
fn best_phase(profile: &[f32], pitch: f64, lo: f64, hi: f64) -> (f64, f64) {
    phase_contrasts(profile, pitch, lo, hi)
        .into_iter()
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .unwrap_or((0.0, 0.0))
}

/// Every phase in `0..pitch` (quarter-pixel steps) with its comb contrast.
fn phase_contrasts(profile: &[f32], pitch: f64, lo: f64, hi: f64) -> Vec<(f64, f64)> {
    let steps = (pitch * 4.0).ceil() as usize;
    (0..steps)
        .map(|i| {
            let phase = i as f64 / 4.0;
            (phase, comb_contrast(profile, pitch, phase, lo, hi))
        })
        .collect()
}

/// The board's cells in comb coordinates.
#[derive(Clone, Copy, Debug)]
struct Extent {
    /// The colour of most tiles' border band (see [`ring_colour`]).
    tile_colour: [f32; 3],
    row0: i64,
    col0: i64,
    rows: usize,
    cols: usize,
}

/// Edge evidence for one cell side: the strongest straight edge within `across` that runs
/// the whole side, measured as the weakest of its three thirds (a tile's border is one
/// unbroken line; a text stroke or a toolbar's edge that happens to fall on the comb covers
/// part of the side only), and the pixel line it lies on (the window's first when none
/// does).
fn side_line(map: &EdgeMap, across: (f64, f64), along: (f64, f64), vertical: bool) -> (f32, f64) {
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
fn inside_strength(map: &EdgeMap, x0: f64, y0: f64, x1: f64, y1: f64) -> f32 {
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
fn find_extent(
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
enum Growth {
    /// The box of the tile-like cells only.
    None,
    /// Grown by the rows and columns the lattice runs on through (see
    /// [`CellEvidence::grown_along_lattice`]).
    AlongLattice,
}

/// Where [`find_extent`] looks for a cell's sides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sides {
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
enum Outliers {
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
const OUTLIER_BORDER: f32 = 0.3;

/// The tile-like cells at the typical border `strong`: the evidence with its candidates kept,
/// their border colour (see [`CellEvidence::keep_alike_candidates`]), their largest cluster,
/// and `strong`. A candidate unlike the tiles' colour must reach [`UNLIKE_AS_STRONG`] of the
/// typical border. When no four candidates touch, the cluster may hold tiles up to
/// [`SPARSE_REACH`] cells apart: a sparse board's tiles may all stand apart (the box then
/// grows by the tiles near it, see [`CellEvidence::grown_box`]).
fn tiles_at(
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

/// The share of the board's typical border a cell unlike the tiles' border colour must reach
/// to be a tile (see [`tiles_at`]): a wallpaper's texture above kshisen's board made three
/// such cells at 0.3-0.45 of it, alike each other, and added a row.
const UNLIKE_AS_STRONG: f32 = 0.5;

/// A panel's edge over the board's typical border (see [`find_extent`]): a panel may stand out
/// from the surroundings much less than the tiles do.
const PANEL_LEVEL: f32 = 0.12;

/// The share of a panel side's edge strength its line must keep beyond the panel's corners
/// to be one edge going on (a menu bar's, a window's) rather than the panel's own side.
const SAME_EDGE: f32 = 0.25;

/// The least edge (per pixel) a panel's side shows, whatever the tiles' borders.
const PANEL_FLOOR: f32 = 12.0;

/// The board's cells (first and count, on x then y) grown to the panel the board lies on: a
/// sparse board can keep no tile in its first or last rows or columns, but a game that draws
/// the board on a panel draws the panel round all of its cells, a small margin outside them.
///
/// The panel is a rectangle of straight edges round the box (see [`Panel`]). Each side then
/// takes the whole cells between it and the panel's side (the margin may be up to three
/// quarters of a pitch). Unchanged when no such panel shows.
fn grown_to_panel(
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
    /// does, until all do.
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
                    if !self.is_line(a, lines[a][side], along) {
                        let from = lines[a][side] + outward;
                        lines[a][side] = self.next_line(a, from, outward, along)?;
                        moved = true;
                    }
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

    /// Whether the line at `at` goes on past the lines `across` (a third to two thirds of a
    /// pitch beyond them), or may: too little of either stretch lies in the image to tell. A
    /// panel near the image's edge shows its end on the other side only. The same edge goes
    /// on at [`SAME_EDGE`] of its strength `along` the panel's side at least: a photo's
    /// grain beyond a strong edge does not.
    fn goes_on(&self, a: usize, at: f64, [lo, hi]: [f64; 2], along: (f64, f64)) -> bool {
        let level = self.level.max(SAME_EDGE * self.mean_along(a, at, along));
        let (p, limit) = (self.axes[1 - a].pitch, self.limits[1 - a] - 1.0);
        let shown: Vec<(f64, f64)> = [
            (lo - 0.65 * p, lo - 0.35 * p),
            (hi + 0.35 * p, hi + 0.65 * p),
        ]
        .into_iter()
        .map(|(b0, b1)| (b0.max(0.0), b1.min(limit)))
        .filter(|(b0, b1)| b1 - b0 >= (0.1 * p).max(4.0))
        .collect();
        shown.is_empty()
            || shown
                .into_iter()
                .any(|stretch| self.is_line_at(a, at, stretch, level))
    }
}

/// Whether two border colours are alike: within 60 levels over R, G, B.
fn alike_colours(a: &[f32; 3], b: &[f32; 3]) -> bool {
    (0..3).map(|c| (a[c] - b[c]).abs()).sum::<f32>() <= 60.0
}

/// What each cell of the comb's grid over the image shows, row by row.
#[derive(Clone)]
struct CellEvidence {
    /// The comb's first whole row and column.
    row0: i64,
    col0: i64,
    rows: usize,
    cols: usize,
    /// Four sides with a straight edge standing out from the inside.
    candidate: Vec<bool>,
    /// The weakest side's strength.
    weakest_side: Vec<f32>,
    /// The same with each side's window widened a gap's width into the cell; only for growing
    /// the board by its last rows and columns, not for finding it.
    loose: Vec<bool>,
    weakest_loose: Vec<f32>,
    /// The border colour (see [`ring_colour`]), only where a tile may be.
    ring: Vec<[f32; 3]>,
    /// Each side's (left, right, top, bottom) strongest straight edge: its strength and its
    /// pixel line's offset from the comb line (see [`side_line`]).
    sides: Vec<[(f32, f32); 4]>,
    /// How many cells apart the tiles of one board may lie (see [`largest_cluster`]).
    reach: i64,
}

impl CellEvidence {
    /// Measures every whole cell of the comb's grid over the image.
    fn measure(edges: &Edges, x_axis: Axis, y_axis: Axis) -> Result<Self, VisionError> {
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
    fn keep_alike_candidates(&mut self) -> Result<[f32; 3], VisionError> {
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
    fn grown_box(
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
    fn grown_along_lattice(
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
    fn joins(&self, i: usize, kept: &[usize], reference: [f32; 3], strong: f32) -> bool {
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
fn largest_cluster(marked: &[bool], rows: usize, cols: usize, reach: i64) -> Vec<usize> {
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

/// Sub-pixel pitch and phase: the centre of mass of the edge near each of the board's
/// `count + 1` boundaries, then a least-squares line through them (twice, dropping boundaries
/// that sit more than a pixel and a half off the first line).
fn refine_axis(profile: &[f32], axis: Axis, first: i64, count: usize) -> Axis {
    let mut fit = axis;
    let mut keep = vec![true; count + 1];
    for round in 0..4 {
        // A wide window first, then a narrow one that leaves out the tile's own content.
        let half = if round == 0 {
            0.15 * fit.pitch
        } else {
            (0.07 * fit.pitch).max(2.5)
        };
        let centres: Vec<Option<(f64, f64)>> = (0..=count)
            .map(|k| {
                let guess = fit.at((first + k as i64) as f64);
                let lo = (guess - half).ceil().max(0.0) as usize;
                let hi = ((guess + half).floor().max(0.0) as usize).min(profile.len() - 1);
                let (mut mass, mut moment) = (0f64, 0f64);
                for (x, &v) in profile.iter().enumerate().take(hi + 1).skip(lo) {
                    mass += f64::from(v);
                    moment += f64::from(v) * x as f64;
                }
                (mass > 0.0).then(|| (moment / mass, mass))
            })
            .collect();
        let points: Vec<(f64, f64, f64)> = centres
            .iter()
            .enumerate()
            .filter(|&(k, _)| keep[k])
            .filter_map(|(k, c)| c.map(|(x, m)| ((first + k as i64) as f64, x, m)))
            .collect();
        if points.len() < 2 {
            return fit;
        }
        let w: f64 = points.iter().map(|p| p.2).sum();
        let mk = points.iter().map(|p| p.2 * p.0).sum::<f64>() / w;
        let mx = points.iter().map(|p| p.2 * p.1).sum::<f64>() / w;
        let skk: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.0 - mk)).sum();
        let skx: f64 = points.iter().map(|p| p.2 * (p.0 - mk) * (p.1 - mx)).sum();
        if skk <= 0.0 {
            return fit;
        }
        let pitch = skx / skk;
        if (pitch - axis.pitch).abs() > 0.05 * axis.pitch {
            return fit;
        }
        fit = Axis {
            pitch,
            phase: mx - pitch * mk,
        };
        if round == 0 {
            for (k, c) in centres.iter().enumerate() {
                keep[k] =
                    c.is_some_and(|(x, _)| (x - fit.at((first + k as i64) as f64)).abs() <= 1.5);
            }
        }
    }
    fit
}

/// Most the borders' pitch may drift from the whole-pixel fit over the board (pixels) for the
/// whole-pixel fit to stand, exact, as on a screenshot at the game's own scale. Whole pixels
/// cannot show a drift under half a pixel (every boundary rounds to the pixel it would at the
/// whole pitch), yet copies of kinds that differ only by colour, read half a pixel apart, part
/// (seed 423: a frame rescaled to 44.07 px a row over 8 rows read as 44.00).
const WHOLE_PIXELS_DRIFT: f64 = 0.25;

/// The pitch and phase (within 1% and a fifth of a pitch of one of `starts`) whose comb of
/// `count + 1` teeth over the board collects the most edge: a centroid fit leans towards the
/// board's outer boundaries, which have an edge on one side only, while every tooth of the
/// right comb lands on a peak. Of the combs found near each start, the one whose typical
/// interior tooth is strongest is refined: the centroid fit can pull the pitch 2-3% off (a 3D
/// side or a gap weighs on one side of each boundary), where the comb that found the board
/// was right, and the other way round.
fn fine_comb(
    profile: &[f32],
    signed: [&[f32]; 2],
    starts: &[Axis],
    first: i64,
    count: usize,
) -> Axis {
    let collect = |a: Axis| comb_sum(profile, a, (first, count), 0.0);
    // The typical interior tooth: the board's outer boundaries (and a panel's edge beside
    // them) can outweigh the rest in a sum.
    let interior_median = |a: Axis| -> f64 {
        let mut teeth: Vec<f64> = (1..count)
            .map(|k| f64::from(sample(profile, a.at((first + k as i64) as f64))))
            .collect();
        mean_median(&mut teeth).unwrap_or(0.0)
    };
    let search =
        |centre: Axis, pitch_span: f64, pitch_step: f64, phase_span: f64, phase_step: f64| {
            let mut best = (centre, collect(centre));
            let np = (pitch_span / pitch_step).round() as i64;
            let nq = (phase_span / phase_step).round() as i64;
            for i in -np..=np {
                let pitch = centre.pitch + i as f64 * pitch_step;
                // Keep the board's first boundary where it is while the pitch changes.
                let anchor = centre.at(first as f64) - pitch * first as f64;
                for j in -nq..=nq {
                    let a = Axis {
                        pitch,
                        phase: anchor + j as f64 * phase_step,
                    };
                    let v = collect(a);
                    if v > best.1 {
                        best = (a, v);
                    }
                }
            }
            best.0
        };
    // The refined start, given first, is often the start itself: search it once.
    let mut distinct = starts.to_vec();
    distinct.dedup();
    let coarse = distinct
        .iter()
        .map(|&start| {
            search(
                start,
                0.01 * start.pitch,
                0.002 * start.pitch,
                0.2 * start.pitch,
                0.25,
            )
        })
        .max_by(|a, b| interior_median(*a).total_cmp(&interior_median(*b)))
        .unwrap_or(starts[0]);
    let fine = search(
        coarse,
        0.002 * coarse.pitch,
        0.0002 * coarse.pitch,
        0.5,
        0.05,
    );
    let registered = register_fit(profile, fine, first, count);
    let start = registered.map_or(fine, |(a, _)| a);
    match (registered, edge_fit(signed, start, first, count)) {
        // Whole pixels agree with the borders over the board: keep them exact.
        (Some((whole, true)), Some(edges))
            if (edges.pitch - whole.pitch).abs() * count as f64 <= WHOLE_PIXELS_DRIFT =>
        {
            whole
        }
        (_, Some(edges)) => edges,
        (_, None) => start,
    }
}

/// The pitch and phase that put the board's interior boundaries on a line (the outer
/// boundaries have an edge on one side only, or a 3D edge, and are left out).
///
/// A boundary is often several edges a pixel or two apart (an outline, a shadow, a gap) whose
/// strengths depend on which neighbours are present and on the brightness, so no single edge
/// or centroid marks every boundary at the same point. Instead:
/// 1. each boundary is put at its strongest edge near the comb's tooth and a robust line
///    (Theil-Sen) goes through them: most boundaries agree on one edge of the group and the
///    line ignores the rest;
/// 2. around that line each boundary is registered, at whole-pixel shifts, against the mean
///    shape of all of them (the whole group of edges); on a screenshot at the game's own
///    scale most then lie exactly on one robust line, which is the answer;
/// 3. otherwise (a rescaled screenshot, boundaries between pixels) the registration is
///    repeated twice on a smoothed profile to a fraction of a pixel.
///
/// `None` with fewer than two interior boundaries or when a fit leaves the comb by 1% or more.
fn register_fit(profile: &[f32], axis: Axis, first: i64, count: usize) -> Option<(Axis, bool)> {
    if count < 3 || profile.len() < 3 {
        return None;
    }
    let reach = (0.04 * axis.pitch).max(2.0);
    let interior = |fit: Axis| -> Vec<(f64, f64)> {
        (1..count)
            .map(|k| {
                let kk = (first + k as i64) as f64;
                (kk, fit.at(kk))
            })
            .collect()
    };
    let line = |points: &[(f64, f64)]| {
        theil_sen(points)
            .filter(|&(pitch, _)| (pitch - axis.pitch).abs() < 0.01 * axis.pitch)
            .map(|(pitch, phase)| Axis { pitch, phase })
    };
    let peaks: Vec<(f64, f64)> = interior(axis)
        .into_iter()
        .filter_map(|(kk, guess)| Some((kk, strongest_near(profile, guess, reach)?)))
        .collect();
    let rough = line(&peaks).unwrap_or(axis);
    // On a screenshot at the game's own scale the boundaries sit on whole pixels: registered at
    // whole-pixel shifts, most lie exactly on one line, which is the answer.
    let whole = register(profile, &interior(rough), reach, false);
    let fit = line(&whole)?;
    let on_line = whole
        .iter()
        .filter(|&&(kk, x)| (x - fit.at(kk)).abs() < 0.05)
        .count();
    if 3 * on_line >= 2 * whole.len() {
        return Some((fit, true));
    }
    // A rescaled screenshot: boundaries fall between pixels; register to a fraction of one.
    let smoothed = smooth(&smooth(profile));
    let mut fit = fit;
    for _ in 0..2 {
        fit = line(&register(&smoothed, &interior(fit), reach, true))?;
    }
    Some((fit, false))
}

/// The pitch from every tile border on the board, to a fraction of a pixel. In each signed
/// profile (see [`signed_profiles`]) a tile's border sits at one offset from the boundary (read
/// from the profile folded at the pitch). The boundaries where that border is present are
/// registered against the mean shape of all of them (see [`register`]); a robust line (the
/// median of the slopes between borders of the same profile, a median intercept per profile)
/// drops the borders more than a third of a pixel off, and least squares through the rest, with
/// a common slope and an intercept per profile, gives the pitch. Each border is measured where it
/// is, whichever neighbours a tile has, and the slope comes from the whole extent of the board,
/// so a sparse board gets the pitch of a full one. The phase keeps `axis`'s boundary at the
/// board's middle (the tile span places the tiles afterwards).
///
/// `None` with fewer than three borders kept, or when the fit leaves `axis` by 1% or more.
fn edge_fit(signed: [&[f32]; 2], axis: Axis, first: i64, count: usize) -> Option<Axis> {
    // (profile, k, position) of every border found.
    let points: Vec<(usize, f64, f64)> = signed
        .iter()
        .enumerate()
        .flat_map(|(class, raw)| {
            signed_borders(raw, axis, first, count)
                .into_iter()
                .map(move |(kk, x)| (class, kk, x))
        })
        .collect();
    let kept = borders_on_a_line(&points)?;
    let pitch = common_slope(&kept)?;
    if (pitch - axis.pitch).abs() >= 0.01 * axis.pitch {
        return None;
    }
    // The comb stays where `axis` put it at the board's middle.
    let mid = first as f64 + count as f64 / 2.0;
    Some(Axis {
        pitch,
        phase: axis.at(mid) - pitch * mid,
    })
}

/// The borders (boundary index, registered position) of one signed profile near the comb's
/// `count + 1` boundaries from `first`: the comb is shifted by up to 30% of a pitch to where
/// the profile's folded edge is strongest; a boundary counts where this border is present (a
/// tile on that side of it, at least 30% of the typical height), registered against the mean
/// shape of all of them.
fn signed_borders(raw: &[f32], axis: Axis, first: i64, count: usize) -> Vec<(f64, f64)> {
    let profile = peaks_only(raw, 4);
    if profile.len() < 3 {
        return Vec::new();
    }
    let folded = |t: f64| comb_sum(&profile, axis, (first, count), t);
    let steps = (0.3 * axis.pitch / 0.25) as i64;
    let Some(offset) = (-steps..=steps)
        .map(|i| i as f64 * 0.25)
        .max_by(|&a, &b| folded(a).total_cmp(&folded(b)))
    else {
        return Vec::new();
    };
    let near = (0.03 * axis.pitch).max(1.5);
    let present: Vec<(f64, f64, f32)> = (0..=count)
        .filter_map(|k| {
            let kk = (first + k as i64) as f64;
            let guess = axis.at(kk) + offset;
            let peak = strongest_near(&profile, guess, near)?;
            Some((kk, guess, profile[peak as usize]))
        })
        .collect();
    let mut heights: Vec<f64> = present.iter().map(|p| f64::from(p.2)).collect();
    let Some(typical) = mean_median(&mut heights) else {
        return Vec::new();
    };
    let boundaries: Vec<(f64, f64)> = present
        .iter()
        .filter(|p| f64::from(p.2) >= 0.3 * typical)
        .map(|p| (p.0, p.1))
        .collect();
    register(&smooth(&profile), &boundaries, near, true)
}

/// The borders (profile, k, position) within a third of a pixel of a robust line: the median
/// of the slopes between borders of the same profile, and each profile's median intercept.
/// `None` with fewer than three kept.
fn borders_on_a_line(points: &[(usize, f64, f64)]) -> Option<Vec<(usize, f64, f64)>> {
    let mut slopes: Vec<f64> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            if a.0 == b.0 && a.1 != b.1 {
                slopes.push((b.2 - a.2) / (b.1 - a.1));
            }
        }
    }
    let slope = mean_median(&mut slopes)?;
    let intercepts: Vec<Option<f64>> = (0..2)
        .map(|class| {
            let mut v: Vec<f64> = points
                .iter()
                .filter(|p| p.0 == class)
                .map(|p| p.2 - slope * p.1)
                .collect();
            mean_median(&mut v)
        })
        .collect();
    let kept: Vec<(usize, f64, f64)> = points
        .iter()
        .filter(|p| intercepts[p.0].is_some_and(|c| (c + slope * p.1 - p.2).abs() <= 1.0 / 3.0))
        .copied()
        .collect();
    (kept.len() >= 3).then_some(kept)
}

/// The least-squares slope through borders (profile, k, position) with a common slope and an
/// intercept per profile; `None` when all share one k.
fn common_slope(kept: &[(usize, f64, f64)]) -> Option<f64> {
    let means: Vec<(f64, f64)> = (0..2)
        .map(|class| {
            let (n, sk, sx) = kept
                .iter()
                .filter(|p| p.0 == class)
                .fold((0f64, 0f64, 0f64), |(n, sk, sx), p| {
                    (n + 1.0, sk + p.1, sx + p.2)
                });
            if n > 0.0 {
                (sk / n, sx / n)
            } else {
                (0.0, 0.0)
            }
        })
        .collect();
    let (skk, skx) = kept.iter().fold((0f64, 0f64), |(skk, skx), p| {
        let (mk, mx) = means[p.0];
        (skk + (p.1 - mk) * (p.1 - mk), skx + (p.1 - mk) * (p.2 - mx))
    });
    (skk > 0.0).then(|| skx / skk)
}

/// The index of the largest value of `profile` within `reach` of `centre` (ties to the one
/// nearer the centre); `None` when there is no edge there.
fn strongest_near(profile: &[f32], centre: f64, reach: f64) -> Option<f64> {
    let lo = (centre - reach).ceil().max(0.0) as usize;
    let hi = ((centre + reach).floor().max(0.0) as usize).min(profile.len().checked_sub(1)?);
    let i = (lo..=hi).max_by(|&a, &b| {
        profile[a].total_cmp(&profile[b]).then(
            (b as f64 - centre)
                .abs()
                .total_cmp(&(a as f64 - centre).abs()),
        )
    })?;
    (profile[i] > 0.0).then_some(i as f64)
}

/// Each boundary `(k, x)` moved to where the profile around it best matches the mean profile
/// around all of them: the correlation at whole-pixel shifts within `reach`, its peak placed to
/// a fraction of a pixel by a parabola when `subpixel` (give a smoothed profile then, so that a
/// boundary drawn between two pixels correlates as well as one on a pixel).
fn register(
    profile: &[f32],
    boundaries: &[(f64, f64)],
    reach: f64,
    subpixel: bool,
) -> Vec<(f64, f64)> {
    let at = |i: i64| -> f64 {
        usize::try_from(i)
            .ok()
            .and_then(|i| profile.get(i))
            .map_or(0.0, |&v| f64::from(v))
    };
    let half = (2.5 * reach).max(3.0).round() as i64;
    let shifts = reach.ceil() as i64;
    let shape: Vec<f64> = (-half..=half)
        .map(|t| {
            boundaries
                .iter()
                .map(|&(_, c)| at(c.round() as i64 + t))
                .sum::<f64>()
        })
        .collect();
    let correlation = |centre: i64| -> f64 {
        (-half..=half)
            .zip(&shape)
            .map(|(t, &w)| w * at(centre + t))
            .sum()
    };
    boundaries
        .iter()
        .map(|&(kk, c)| {
            let r = c.round() as i64;
            let scores: Vec<f64> = (-shifts..=shifts).map(|s| correlation(r + s)).collect();
            let best = (0..scores.len())
                .max_by(|&a, &b| {
                    scores[a]
                        .total_cmp(&scores[b])
                        // Ties (a flat correlation) go to the smallest shift.
                        .then((b as i64 - shifts).abs().cmp(&(a as i64 - shifts).abs()))
                })
                .unwrap_or(shifts as usize);
            let frac = if subpixel && best > 0 && best + 1 < scores.len() {
                parabola_vertex(scores[best - 1], scores[best], scores[best + 1])
            } else {
                0.0
            };
            (kk, (r + best as i64 - shifts) as f64 + frac)
        })
        .collect()
}

/// The line `x = phase + k * pitch` through `(k, x)` points by Theil-Sen: the median of the
/// pairwise slopes, then the median intercept. A boundary whose shape differs from the rest (a
/// tile beside an empty cell) can register a pixel off; a median ignores it where least squares
/// would lean towards it. `None` with fewer than two distinct `k`.
fn theil_sen(points: &[(f64, f64)]) -> Option<(f64, f64)> {
    let mut slopes: Vec<f64> = Vec::new();
    for (i, a) in points.iter().enumerate() {
        for b in &points[i + 1..] {
            if b.0 != a.0 {
                slopes.push((b.1 - a.1) / (b.0 - a.0));
            }
        }
    }
    let slope = mean_median(&mut slopes)?;
    let mut intercepts: Vec<f64> = points.iter().map(|p| p.1 - slope * p.0).collect();
    Some((slope, mean_median(&mut intercepts)?))
}

/// The colours a gap between tiles is judged by.
#[derive(Clone, Copy, Debug)]
struct Colours {
    /// The tiles' own border colour.
    tile: [f32; 3],
    /// The colour around the board; `None` when the board fills the image.
    background: Option<[f32; 3]>,
}

/// The image seen across one axis: lines at a position along the axis, over `band` of the
/// other one (`vertical`: columns x over rows `band`).
struct Across<'a> {
    image: &'a RgbaImage,
    vertical: bool,
    band: (usize, usize),
    colours: Colours,
}

impl Across<'_> {
    /// The fraction of the places along strips `width` wide centred on `positions` (image
    /// coordinates) where some pixel of the strip's width is unlike the tiles' own colour:
    /// further from it than a twelfth of the way to the background's, and at least 30 levels
    /// over R, G, B (48 when the background is unknown). Taking any pixel across a narrow strip
    /// keeps a thin line that a rescaling has blurred over two pixels.
    fn unlike_tile_fraction(&self, positions: &[f64], width: f64) -> Option<f64> {
        let tile = self.colours.tile;
        let dist = |a: &[f32; 3], b: &[u8]| -> f32 {
            (0..3).map(|c| (a[c] - f32::from(b[c])).abs()).sum()
        };
        let limit = self.colours.background.map_or(48.0, |bg| {
            ((0..3).map(|c| (bg[c] - tile[c]).abs()).sum::<f32>() / 12.0).max(30.0)
        });
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let (across, along) = if self.vertical { (w, h) } else { (h, w) };
        let raw = self.image.as_raw();
        let (mut unlike, mut total) = (0usize, 0usize);
        for &p in positions {
            // The pixels whose centres lie in the strip, or the one under its centre.
            let (a, b) = pixel_range(p - width / 2.0, p + width / 2.0, across as u32);
            let (a, b) = if b > a {
                (a as usize, b as usize)
            } else if p >= 0.0 && p < across as f64 {
                (p as usize, p as usize + 1)
            } else {
                continue;
            };
            for j in self.band.0..self.band.1.min(along) {
                let any = (a..b).any(|i| {
                    let (x, y) = if self.vertical { (i, j) } else { (j, i) };
                    let o = (y * w + x) * 4;
                    dist(&tile, &raw[o..o + 3]) > limit
                });
                unlike += usize::from(any);
                total += 1;
            }
        }
        (total > 0).then(|| unlike as f64 / total as f64)
    }

    /// The median distance (summed over R, G, B) from the background's colour of the pixels
    /// under lines at `positions` (image coordinates); `None` when the background is unknown
    /// or no line lies in the image.
    fn background_distance(&self, positions: &[f64]) -> Option<f64> {
        let bg = self.colours.background?;
        let (w, h) = (self.image.width() as usize, self.image.height() as usize);
        let (across, along) = if self.vertical { (w, h) } else { (h, w) };
        let raw = self.image.as_raw();
        let mut distances: Vec<f32> = Vec::new();
        for &p in positions {
            if p < 0.0 || p >= across as f64 {
                continue;
            }
            let i = p as usize;
            for j in self.band.0..self.band.1.min(along) {
                let (x, y) = if self.vertical { (i, j) } else { (j, i) };
                let o = (y * w + x) * 4;
                distances.push((0..3).map(|c| (bg[c] - f32::from(raw[o + c])).abs()).sum());
            }
        }
        crate::stats::median(&mut distances).map(f64::from)
    }
}

/// The per-channel median colour of a band 15% to 45% of a pitch outside the board's box
/// (`xs`, `ys` in pixels); `None` when too little of it lies in the image.
fn outside_colour(
    image: &RgbaImage,
    xs: (usize, usize),
    ys: (usize, usize),
    px: f64,
    py: f64,
) -> Option<[f32; 3]> {
    let (x0, x1, y0, y1) = (xs.0 as f64, xs.1 as f64, ys.0 as f64, ys.1 as f64);
    let mut channels = outside_band(image, [x0, y0, x1, y1], [px, py])?;
    Some(std::array::from_fn(|c| {
        f32::from(crate::stats::median(&mut channels[c]).unwrap_or(0))
    }))
}

/// Where the tiles start (profile coordinates) and how long they are, from the board profile
/// folded at the pitch: the whole pitch from the main edge, and the tiles less a strip when a
/// second edge within 30% of a pitch of the main one marks a gap (or a line between the tiles),
/// kept by the caller only when the other axis shows one too. A strip marks a gap when the strip between them is unlike the tiles' own colour, over at
/// least half of it and over at least half of what the middles of the cells leave (a gap or a
/// dividing line runs beside every tile; a 3D edge shows only beside an empty cell, the next
/// tile covering it elsewhere, and an edge drawn inside the faces leaves the strip as much
/// like the tiles as the cells' middles are).
fn tile_span(profile: &[f32], axis: Axis, (first, count): (i64, usize), across: &Across) -> Span {
    let start = axis.at(first as f64);
    let folded = |t: f64| comb_sum(profile, axis, (first, count), t) / (count + 1) as f64;
    let reach = 0.3 * axis.pitch;
    let step = 0.25;
    let n = (reach / step) as i64;
    let values: Vec<(f64, f64)> = (-n..=n)
        .map(|i| (i as f64 * step, folded(i as f64 * step)))
        .collect();
    let Some(&(t_main, main)) = values.iter().max_by(|a, b| a.1.total_cmp(&b.1)) else {
        return Span {
            whole: (start, axis.pitch),
            parted: None,
        };
    };
    // The local maxima strong enough to bound a strip, the main edge among them.
    let peaks: Vec<(f64, f64)> = (1..values.len() - 1)
        .map(|i| (i, values[i]))
        .filter(|&(i, (t, v))| {
            t == t_main
                || ((t - t_main).abs() >= 1.5
                    && v >= 0.35 * main
                    && v >= values[i - 1].1
                    && v > values[i + 1].1)
        })
        .map(|(_, peak)| peak)
        .collect();
    let second = peaks
        .iter()
        .filter(|&&(t, _)| t != t_main)
        .copied()
        .max_by(|a, b| a.1.total_cmp(&b.1));
    // Lines through the middle of the strip from a to b (offsets, a < b) at the interior
    // boundaries (a profile index i is the step between pixels i and i + 1).
    let lines = |offset: f64| -> Vec<f64> {
        (1..count)
            .map(|k| start + k as f64 * axis.pitch + offset + 1.0)
            .collect()
    };
    let parts_tiles = |(a, b): (f64, f64)| -> bool {
        let width = (b - a).min(1.5);
        let strip = across.unlike_tile_fraction(&lines((a + b) / 2.0), width);
        let cells = across.unlike_tile_fraction(&lines(t_main + axis.pitch / 2.0), width);
        match (strip, cells) {
            (Some(strip), Some(cells)) => strip >= 0.5 && strip >= cells + 0.5 * (1.0 - cells),
            _ => true,
        }
    };
    let strip_of = |t: f64| (t.min(t_main), t.max(t_main));
    let chosen = second.map(|(t, _)| strip_of(t)).filter(|&s| parts_tiles(s));
    // A 3D side drawn in layers puts edges inside it, and the strongest one after the main
    // edge may bound a layer, not the gap. The gap is where the background shows: when the
    // chosen strip is further from the background's colour than the tiles are (tile art), a
    // strip from the main edge to a neighbouring edge less than half as far replaces it.
    let background_like = |(a, b): (f64, f64)| across.background_distance(&lines((a + b) / 2.0));
    let chosen = chosen.map(|strip| {
        let (Some(own), Some(bg)) = (background_like(strip), across.colours.background) else {
            return strip;
        };
        let tile_to_bg: f64 = (0..3)
            .map(|c| f64::from((bg[c] - across.colours.tile[c]).abs()))
            .sum();
        if own <= tile_to_bg {
            return strip;
        }
        peaks
            .windows(2)
            .map(|pair| (pair[0].0, pair[1].0))
            .filter(|&(a, b)| b - a >= 1.5 && (a, b) != strip && (a == t_main || b == t_main))
            .filter_map(|s| background_like(s).map(|d| (s, d)))
            .filter(|&(s, d)| d < 0.5 * own && parts_tiles(s))
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map_or(strip, |(s, _)| s)
    });
    let whole = (start + t_main, axis.pitch);
    let parted = chosen.map(|(a, b)| (start + b, axis.pitch - (b - a)));
    Span { whole, parted }
}

/// Where the tiles start along one axis and how long they are (profile coordinates).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Span {
    /// The tiles as long as the pitch, from the main edge.
    whole: (f64, f64),
    /// The tiles less the strip that parts them, when one does.
    parted: Option<(f64, f64)>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 11 (seed 624: a last row of 3D tiles left out): the row next to the board whose
    /// tiles have copies in the board joins it; the empty lines round it do not.
    #[test]
    fn a_line_of_tiles_with_copies_in_the_board_joins_it() {
        // Four rows of four patterned tiles, each kind four times (a link-up board holds
        // every kind an even number of times, which the reading's kinds rely on).
        let kinds = [[0, 1, 2, 3], [1, 3, 0, 2], [2, 0, 3, 1], [3, 2, 1, 0]];
        let img = crate::vision::test_pictures::patterned_tiles(&kinds, (60, 50), (300, 260));
        let three_rows = Geometry {
            rows: 3,
            cols: 4,
            origin: [62.0, 52.0],
            pitch: [40.0, 40.0],
            tile_size: [36.0, 36.0],
        };
        let grown = grown_by_copies(&img, three_rows);
        assert_eq!((grown.rows, grown.cols), (4, 4));
        assert_eq!(grown.origin, three_rows.origin);
    }
    use image::Rgba;

    /// A synthetic board: `rows` x `cols` light tiles with a dark mark, on a dark background.
    fn synthetic(rows: u32, cols: u32, pitch: (u32, u32), gap: u32) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(400, 300, Rgba([20, 60, 20, 255]));
        for r in 0..rows {
            for c in 0..cols {
                let (x0, y0) = (37 + c * pitch.0, 41 + r * pitch.1);
                for y in y0..y0 + pitch.1 - gap {
                    for x in x0..x0 + pitch.0 - gap {
                        img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                    }
                }
                // A mark of one of five kinds around the middle of the face, as tilesets
                // centre their pictures.
                let mark = (r * cols + c) % 5;
                let (mx, my) = (x0 + (pitch.0 - gap) / 2 - 4, y0 + (pitch.1 - gap) / 2 - 3);
                for d in 0..6 {
                    img.put_pixel(mx + mark * 2, my + d, Rgba([200, 0, 0, 255]));
                    img.put_pixel(mx + 8 - mark * 2, my + d, Rgba([200, 0, 0, 255]));
                }
            }
        }
        img
    }

    /// Cells of `half` x 40 pixels in 4 rows of 8 from (0, 0): halves of tiles, a dark side on
    /// the left of every other cell (`halves`), or whole tiles with a mark of one of five kinds.
    fn cells_of(halves: bool, half: u32) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(8 * half, 160, Rgba([230, 230, 220, 255]));
        for r in 0..4u32 {
            for c in 0..8u32 {
                let (x0, y0) = (c * half, r * 40);
                let dark = if halves {
                    c % 2 == 0
                } else {
                    (r * 8 + c * 3) % 5 < 2
                };
                let width = if halves { 4 } else { 3 + (r * 8 + c) % 5 };
                if dark {
                    for y in y0..y0 + 40 {
                        for x in x0..x0 + width {
                            img.put_pixel(x, y, Rgba([40, 40, 40, 255]));
                        }
                    }
                }
            }
        }
        img
    }

    #[test]
    fn halves_of_tiles_alternate_and_tiles_do_not() {
        let along = |pitch: f64| (Axis { pitch, phase: -1.0 }, (0, 8));
        let across = (
            Axis {
                pitch: 40.0,
                phase: -1.0,
            },
            (0, 4),
        );
        assert!(cells_alternate(
            &cells_of(true, 20),
            along(20.0),
            across,
            true
        ));
        assert!(!cells_alternate(
            &cells_of(false, 20),
            along(20.0),
            across,
            true
        ));
        // Along the other axis the rows are alike.
        assert!(!cells_alternate(
            &cells_of(true, 20),
            across,
            along(20.0),
            false
        ));
    }

    #[test]
    fn finds_a_synthetic_board_with_gaps() {
        let g = calibrate(&synthetic(5, 8, (30, 38), 2)).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.pitch[0] - 30.0).abs() < 0.3, "{g:?}");
        assert!((g.pitch[1] - 38.0).abs() < 0.38, "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
        assert!((g.origin[1] - 41.0).abs() < 1.0, "{g:?}");
        assert!((g.tile_size[0] - 28.0).abs() < 1.0, "{g:?}");
    }

    /// [`synthetic`]'s 5 x 8 tiles with gaps, the faces of the last column striped black
    /// every other pixel up to near their rim; `touching`: each of them also fills the gap to
    /// its neighbour in the column before.
    fn busy_last_column(touching: bool) -> RgbaImage {
        let mut img = synthetic(5, 8, (30, 38), 2);
        for r in 0..5 {
            let (x0, y0) = (37 + 7 * 30, 41 + r * 38);
            if touching {
                for y in y0..y0 + 36 {
                    for x in x0 - 2..x0 {
                        img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                    }
                }
            }
            for y in y0 + 5..y0 + 31 {
                for x in (x0 + 4..x0 + 24).step_by(2) {
                    img.put_pixel(x, y, Rgba([0, 0, 0, 255]));
                }
            }
        }
        img
    }

    #[test]
    fn a_rim_of_busy_faces_joins_the_board_its_lattice_runs_on_through() {
        // 5 x 8 tiles with gaps; the faces of the last column striped black every other
        // pixel up to near their rim, so that their insides have more edge than their borders
        // (kshisen's jade) and they are no candidates.
        let img = busy_last_column(false);
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn a_rim_of_busy_faces_joins_the_board_across_the_side_it_shares_with_a_tile() {
        // As above, but each face of the last column touches its neighbour in the column
        // before (no gap between them): the side they share shows no edge on the lattice, the
        // busy face's first stripe standing out instead.
        let img = busy_last_column(true);
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn the_borders_are_sought_on_a_given_pitch_at_its_best_phase() {
        // The objects' board (see `calibrate`): the board's borders found on its pitches,
        // with no candidate axes; their box holds the objects' board.
        let img = synthetic(5, 8, (30, 38), 2);
        let edges = Edges::of(&img);
        let objects = Geometry {
            rows: 4,
            cols: 8,
            origin: [38.0, 42.0],
            pitch: [30.2, 37.9],
            tile_size: [26.0, 34.0],
        };
        let g = find_board_from_borders(&edges, Search::Objects(&objects)).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8), "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
        assert!((g.pitch[1] - 38.0).abs() < 0.25, "{g:?}");
        assert!(covers_most_of(pixel_box(&g), pixel_box(&objects)));
    }

    /// Light 32 x 40 tiles with a mark at a 40 x 48 pitch from (37, 41), none beside another
    /// (rows 0, 2 and 4 only, columns apart): 8 px gaps, so every tile's far border lies a gap
    /// inside its cell on the comb through the near ones.
    fn lone_tiles_with_gaps() -> RgbaImage {
        let mut img = RgbaImage::from_pixel(400, 300, Rgba([20, 60, 20, 255]));
        let cells = [
            (0, 0),
            (0, 3),
            (0, 5),
            (2, 1),
            (2, 4),
            (4, 0),
            (4, 2),
            (4, 5),
        ];
        for (r, c) in cells {
            let (x0, y0) = (37 + c * 40, 41 + r * 48);
            for y in y0..y0 + 40 {
                for x in x0..x0 + 32 {
                    img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                }
            }
            for y in y0 + 14..y0 + 26 {
                for x in x0 + 12..x0 + 20 {
                    img.put_pixel(x, y, Rgba([200, 0, 0, 255]));
                }
            }
        }
        img
    }

    #[test]
    fn lone_tiles_with_gaps_are_found_on_the_objects_board() {
        let img = lone_tiles_with_gaps();
        let edges = Edges::of(&img);
        // The objects' board: cells centred on the tiles.
        let objects = Geometry {
            rows: 5,
            cols: 6,
            origin: [33.0, 37.0],
            pitch: [40.0, 48.0],
            tile_size: [40.0, 48.0],
        };
        let ((x0, x1), (y0, y1)) = pixel_box(&objects);
        let xs = phases_over(&column_profile(&edges.vertical, y0, y1), 40.0, (x0, x1));
        let ys = phases_over(&row_profile(&edges.horizontal, x0, x1), 48.0, (y0, y1));
        assert!(first_board(&edges, &xs, &ys, Sides::OnComb).is_err());
        let g = find_board_from_borders(&edges, Search::Objects(&objects)).unwrap();
        assert_eq!((g.rows, g.cols), (5, 6), "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
        assert!((g.origin[1] - 41.0).abs() < 1.0, "{g:?}");
        assert!((g.tile_size[0] - 32.0).abs() < 1.5, "{g:?}");
    }

    #[test]
    fn a_side_drawn_along_one_axis_only_is_part_of_the_tiles() {
        // Touching tiles 30 x 38 with a 6 px darker side at the left of each (a 3D side) and a
        // dark line under each: a strip parts the tiles across x only, so it is no gap.
        let mut img = synthetic(5, 8, (30, 38), 0);
        for r in 0..5 {
            for c in 0..8 {
                let (x0, y0) = (37 + c * 30, 41 + r * 38);
                for y in y0..y0 + 38 {
                    for x in x0..x0 + 6 {
                        img.put_pixel(x, y, Rgba([150, 140, 110, 255]));
                    }
                }
                for x in x0..x0 + 30 {
                    img.put_pixel(x, y0 + 37, Rgba([40, 40, 40, 255]));
                }
            }
        }
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (5, 8));
        assert!((g.tile_size[0] - 30.0).abs() < 0.5, "{g:?}");
        assert!((g.origin[0] - 37.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn a_second_edge_is_a_gap_only_where_the_strip_parts_the_tiles() {
        // Boundaries at 20 + 40k, a second edge 6 px after each.
        let mut profile = vec![0f32; 400];
        for k in 0..9 {
            profile[20 + 40 * k] = 10.0;
            profile[26 + 40 * k] = 6.0;
        }
        let axis = Axis {
            pitch: 40.0,
            phase: 20.0,
        };
        let tile = Rgba([235, 235, 235, 255]);
        let background = Rgba([90, 60, 30, 255]);
        let colours = Colours {
            tile: [235.0; 3],
            background: Some([90.0, 60.0, 30.0]),
        };
        // The strip (pixels 21..27 after each boundary) shows the tiles' colour: a 3D edge
        // covered by the next tile, or a line inside the faces. Not a gap.
        let plain = RgbaImage::from_pixel(400, 50, tile);
        let across = Across {
            image: &plain,
            vertical: true,
            band: (0, 50),
            colours,
        };
        let span = tile_span(&profile, axis, (0, 8), &across);
        assert_eq!((span.whole, span.parted), ((20.0, 40.0), None));
        // The strip shows the background all along: a gap the tile size leaves out.
        let gapped = RgbaImage::from_fn(400, 50, |x, _| {
            if (21..27).contains(&(x % 40)) {
                background
            } else {
                tile
            }
        });
        let across = Across {
            image: &gapped,
            ..across
        };
        let span = tile_span(&profile, axis, (0, 8), &across);
        assert_eq!(
            (span.whole, span.parted),
            ((20.0, 40.0), Some((26.0, 34.0)))
        );
    }

    #[test]
    fn a_layer_of_the_side_is_no_gap_where_the_background_shows_beside_it() {
        // Boundaries at 20 + 40k; the strongest second edge 6 px before each bounds the dark
        // bottom layer of a 3D side (pixels 15..21), a weaker one 5 px after bounds the
        // background (pixels 21..26) between the tiles: the gap.
        let mut profile = vec![0f32; 400];
        for k in 0..9 {
            profile[14 + 40 * k] = 8.0;
            profile[20 + 40 * k] = 10.0;
            profile[25 + 40 * k] = 5.0;
        }
        let axis = Axis {
            pitch: 40.0,
            phase: 20.0,
        };
        let image = RgbaImage::from_fn(400, 50, |x, _| match x % 40 {
            15..=20 => Rgba([20, 20, 20, 255]),
            21..=25 => Rgba([120, 160, 140, 255]),
            _ => Rgba([235, 235, 235, 255]),
        });
        let across = Across {
            image: &image,
            vertical: true,
            band: (0, 50),
            colours: Colours {
                tile: [235.0; 3],
                background: Some([120.0, 160.0, 140.0]),
            },
        };
        let span = tile_span(&profile, axis, (0, 8), &across);
        assert_eq!(
            (span.whole, span.parted),
            ((20.0, 40.0), Some((25.0, 35.0)))
        );
    }

    #[test]
    fn a_third_of_the_pitch_that_scores_best_is_not_the_reference() {
        // Tile borders every 60 px and two weaker lines inside each tile a third apart: the
        // comb at 20 px collects the most, but its teeth alternate (one in three is strong).
        let mut profile = vec![0f32; 900];
        for k in 0..14 {
            profile[30 + 60 * k] = 10.0;
            profile[31 + 60 * k] = 10.0;
            profile[50 + 60 * k] = 4.0;
            profile[70 + 60 * k] = 4.0;
        }
        let axis = find_axes(&axis_peaks(&profile))[0];
        assert!((axis.pitch - 60.0).abs() < 0.5, "{axis:?}");
    }

    #[test]
    fn the_multiples_of_a_fraction_of_the_pitch_are_candidates() {
        // Strokes every 12 px inside tiles 60 px apart: when 12 px is chosen, 60 px is among
        // the candidates tried next.
        let mut profile = vec![0f32; 900];
        for x in (30..870).step_by(12) {
            profile[x] = 6.0;
        }
        for k in 0..14 {
            profile[30 + 60 * k] = 10.0;
        }
        let axes = find_axes(&axis_peaks(&profile));
        assert!(
            axes.iter().any(|a| (a.pitch - 60.0).abs() < 0.5),
            "{axes:?}"
        );
    }

    #[test]
    fn the_comb_refined_is_the_one_whose_interior_teeth_are_strong() {
        // Boundaries every 40 px from 20, and a panel's strong edges 8 px outside the board:
        // a comb 4% wider puts its end teeth on the panel and collects more in sum.
        let mut profile = vec![0f32; 480];
        for k in 0..=10 {
            profile[20 + 40 * k] = 10.0;
        }
        profile[12] = 100.0;
        profile[428] = 100.0;
        let silent = vec![0f32; 480];
        let wide = Axis {
            pitch: 41.6,
            phase: 12.0,
        };
        let right = Axis {
            pitch: 40.0,
            phase: 20.0,
        };
        for starts in [[wide, right], [right, wide]] {
            let fit = fine_comb(&profile, [&silent, &silent], &starts, 0, 10);
            assert!((fit.pitch - 40.0).abs() < 0.05, "{fit:?}");
            assert!((fit.at(5.0) - 220.0).abs() < 0.5, "{fit:?}");
        }
    }

    /// Issue 11 (seed 423: a frame rescaled to a pitch of 44.07 px over 8 rows): a drift of
    /// half a pixel over the board, which whole pixels cannot show, is not taken for none. At
    /// that drift the copies of kinds that differ only by colour part.
    #[test]
    fn a_pitch_a_fraction_off_whole_pixels_is_measured() {
        let pitch = 44.07;
        // Light tiles of 36 px with a dark mark, each drawn by the share of each pixel it
        // covers, as a rescaled frame draws them.
        let img = RgbaImage::from_fn(460, 440, |x, y| {
            // The share of pixel `v` that the span `from..to` of every cell covers.
            let cover = |v: u32, (from, to): (f64, f64)| -> f64 {
                let (a, b) = (f64::from(v), f64::from(v) + 1.0);
                let k = ((a - 20.0) / pitch).floor().clamp(0.0, 8.0);
                let (t0, t1) = (20.0 + k * pitch + from, 20.0 + k * pitch + to);
                if !(0.0..8.0).contains(&k) {
                    return 0.0;
                }
                (b.min(t1) - a.max(t0)).clamp(0.0, 1.0)
            };
            let tile = cover(x, (0.0, 36.0)) * cover(y, (0.0, 36.0));
            let mark = cover(x, (12.0, 24.0)) * cover(y, (10.0, 14.0));
            let level = 30.0 + tile * (235.0 - 30.0) - mark * (235.0 - 40.0);
            Rgba([level as u8, level as u8, level as u8, 255])
        });
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (8, 8));
        assert!((g.pitch[0] - pitch).abs() < 0.05, "{g:?}");
        assert!((g.pitch[1] - pitch).abs() < 0.05, "{g:?}");
    }

    /// Issue 11 (seed 813: a sparse board of flat tiles on a photo): a board none of whose
    /// tiles touches another is found, its tiles a cell or two apart.
    #[test]
    fn a_board_of_tiles_that_touch_none_is_found() {
        let (pitch, tile) = (30u32, 26u32);
        let mut img = RgbaImage::from_pixel(400, 320, Rgba([20, 60, 20, 255]));
        let (rows, cols) = ([0u32, 2, 5, 7], [0u32, 3, 5, 8, 10]);
        for (i, (r, c)) in rows
            .iter()
            .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
            .enumerate()
        {
            let (x0, y0) = (31 + c * pitch, 43 + r * pitch);
            for y in y0..y0 + tile {
                for x in x0..x0 + tile {
                    img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                }
            }
            // One of five kinds, four tiles each: two bars at a spacing of their own.
            let mark = i as u32 % 5;
            for d in 0..8 {
                img.put_pixel(x0 + 9 + mark, y0 + 9 + d, Rgba([200, 0, 0, 255]));
                img.put_pixel(x0 + 17 - mark, y0 + 9 + d, Rgba([200, 0, 0, 255]));
            }
        }
        // The borders' comb on the whole image: boundaries at x = 31 + 30k, y = 43 + 30k.
        let edges = Edges::of(&img);
        let (x_axis, y_axis) = (
            Axis {
                pitch: 30.0,
                phase: 30.0,
            },
            Axis {
                pitch: 30.0,
                phase: 42.0,
            },
        );
        assert_cells_and_board(&img, &edges, (x_axis, y_axis), (8, 11, 20));
    }

    /// Issue 11 (seeds 728, 812, 971: sparse boards whose edge lines keep no tile): a line
    /// of cells whose far corners carry the board's dots joins it; the ground past the dots
    /// does not.
    #[test]
    fn empty_edge_lines_marked_by_dots_join_the_board() {
        let (pitch, tile) = (30u32, 24u32);
        let mut img = RgbaImage::from_pixel(400, 320, Rgba([70, 110, 160, 255]));
        // Dots on every corner of 6 x 10 cells from (40, 50), the tiles in the middle 4 x 8.
        for l in 0..=6u32 {
            for k in 0..=10u32 {
                let (x, y) = (40 + k * pitch, 50 + l * pitch);
                for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                    img.put_pixel(x - 1 + dx, y - 1 + dy, Rgba([20, 30, 50, 255]));
                }
            }
        }
        for i in 0..32u32 {
            let (r, c) = (1 + i / 8, 1 + i % 8);
            let (x0, y0) = (43 + c * pitch, 53 + r * pitch);
            for y in y0..y0 + tile {
                for x in x0..x0 + tile {
                    img.put_pixel(x, y, Rgba([240, 240, 230, 255]));
                }
            }
            let mark = i % 4;
            for d in 0..8 {
                img.put_pixel(x0 + 7 + mark, y0 + 8 + d, Rgba([200, 0, 0, 255]));
                img.put_pixel(x0 + 15 - mark, y0 + 8 + d, Rgba([200, 0, 0, 255]));
            }
        }
        let tiles_only = Geometry {
            rows: 4,
            cols: 8,
            origin: [73.0, 83.0],
            pitch: [30.0, 30.0],
            tile_size: [24.0, 24.0],
        };
        let grown = grown_by_marks(&img, tiles_only);
        assert_eq!((grown.rows, grown.cols), (6, 10), "{grown:?}");
        assert_eq!(grown.origin, [43.0, 53.0]);
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (6, 10), "{g:?}");
    }

    /// Issue 11 (seed 433: grid lines in the gaps, the box as long as the pitch): the box keeps
    /// off the lines, so empty cells framed by them read as empty.
    #[test]
    fn a_box_as_long_as_the_pitch_keeps_off_the_grid_lines() {
        let pitch = 30u32;
        let mut img = RgbaImage::from_pixel(400, 320, Rgba([40, 50, 70, 255]));
        // Light lines one pixel wide round 6 x 10 cells from (40, 50).
        for k in 0..=10u32 {
            for y in 50..=50 + 6 * pitch {
                img.put_pixel(40 + k * pitch, y, Rgba([200, 200, 210, 255]));
            }
        }
        for l in 0..=6u32 {
            for x in 40..=40 + 10 * pitch {
                img.put_pixel(x, 50 + l * pitch, Rgba([200, 200, 210, 255]));
            }
        }
        // Tiles of 24 px on every other cell, four kinds by a bar's place.
        let mut kinds = vec![0u32; 60];
        for i in (0..60).filter(|i| (i / 10 + i % 10) % 2 == 0) {
            let (r, c) = (i as u32 / 10, i as u32 % 10);
            let (x0, y0) = (44 + c * pitch, 54 + r * pitch);
            for y in y0..y0 + 24 {
                for x in x0..x0 + 24 {
                    img.put_pixel(x, y, Rgba([60, 120, 130, 255]));
                }
            }
            let kind = (i as u32 / 2) % 4;
            for d in 0..10 {
                img.put_pixel(x0 + 4 + 4 * kind, y0 + 7 + d, Rgba([240, 240, 240, 255]));
            }
            kinds[i] = kind + 1;
        }
        let whole_cells = Geometry {
            rows: 6,
            cols: 10,
            origin: [40.0, 50.0],
            pitch: [30.0, 30.0],
            tile_size: [30.0, 30.0],
        };
        let g = grown_by_marks(&img, whole_cells);
        for a in 0..2 {
            // The line before the first tile at 40 or 50, the next a pitch on.
            let line = [40.0, 50.0][a];
            assert!(g.origin[a] >= line + 1.0, "{g:?}");
            assert!(g.origin[a] + g.tile_size[a] <= line + 30.0, "{g:?}");
            assert!(g.tile_size[a] >= 18.0, "{g:?}");
        }
        let read = crate::vision::read_board(&img, &g, &ClassifierSettings::default()).unwrap();
        let empty: Vec<bool> = read.board.cells().iter().map(|&k| k == 0).collect();
        let drawn_empty: Vec<bool> = kinds.iter().map(|&k| k == 0).collect();
        assert_eq!(empty, drawn_empty, "{}", read.board);
    }

    /// Issue 11 (seed 397: a comb at half the pitch): cells that are halves of tiles show no
    /// kind in columns of both parities and lie side by side; a board read on the tiles'
    /// own lattice mixes its kinds' parities. Seeds 12210 and 12227: a blank kind's halves
    /// read alike, and halves off the tiles' phase read every other cell empty; seeds 13041
    /// and 240: one kind misread onto both parities among many, or among a few by chance.
    #[test]
    fn halves_of_tiles_are_told_from_tiles() {
        // Six kinds of tile, each read as a left half (odd kind) and a right half (even).
        let halves: Board = "1 2 3 4 5 6 7 8 9 10 11 12\n3 4 1 2 7 8 5 6 11 12 9 10"
            .parse()
            .unwrap();
        assert!(halves_begin(&halves, 0).contains(&0));
        assert!(halves_begin(&halves, 1).is_empty());
        let tiles: Board = "1 2 3 4 5 6\n2 1 4 3 6 5\n3 4 5 6 1 2\n6 5 2 1 4 3"
            .parse()
            .unwrap();
        assert!(halves_begin(&tiles, 0).is_empty());
        assert!(halves_begin(&tiles, 1).is_empty());
        // A blank kind (13) reads alike in both halves, side by side.
        let blank: Board = "1 2 13 13 3 4 5 6 7 8 9 10 11 12\n3 4 1 2 13 13 7 8 5 6 11 12 9 10"
            .parse()
            .unwrap();
        assert!(halves_begin(&blank, 0).contains(&0));
        // A half lattice off the tiles' phase: the cells straddling two tiles read empty.
        let straddling: Board = "1 0 2 0 3 0 4 0 5 0 6 0\n2 0 1 0 4 0 3 0 6 0 5 0"
            .parse()
            .unwrap();
        assert_eq!(halves_begin(&straddling, 0), vec![0, 1]);
        assert!(halves_begin(&straddling, 1).is_empty());
        // One half misread (row 3, column 1: a left half of kind 1) among 23 kinds of halves.
        let misread: Board = "1 2 3 4 5 6 7 8 9 10 11 12\n\
                              13 14 15 16 17 18 19 20 21 22 23 24\n\
                              3 4 1 2 7 8 5 6 11 12 9 10\n\
                              15 1 13 14 19 20 17 18 23 24 21 22"
            .parse()
            .unwrap();
        assert!(halves_begin(&misread, 0).contains(&0));
        // Whole tiles of a sparse board: 8 of 9 kinds on one parity by chance.
        let sparse: Board = "1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0 9 0\n\
                             0 9 1 0 2 0 3 0 4 0 5 0 6 0 7 0 8 0"
            .parse()
            .unwrap();
        assert!(halves_begin(&sparse, 0).is_empty());
        // Each kind's pair in one row (seed 14127) says nothing of the rows' parities.
        let rowwise: Board = "1 0 1 2 0 2\n3 3 0 4 0 4\n5 0 5 6 6 0\n7 7 0 0 8 8"
            .parse()
            .unwrap();
        assert!(halves_begin(&rowwise, 1).is_empty());
    }

    /// The first axes `find_axes` gives for an image, across x and y.
    fn first_axes(image: &RgbaImage) -> (Axis, Axis) {
        let (w, h) = image.dimensions();
        let x = find_axes(&axis_peaks(&column_profile(
            &vertical_edges(image),
            0,
            h as usize,
        )))[0];
        let y = find_axes(&axis_peaks(&row_profile(
            &horizontal_edges(image),
            0,
            w as usize,
        )))[0];
        (x, y)
    }

    #[test]
    fn the_larger_of_two_grids_is_the_board_whichever_comes_first() {
        // The board of 5 x 8 tiles on the left, and a patch of small squares on the right (a
        // texture, a keypad): both are grids of alike cells with four sides.
        let background = Rgba([20, 60, 20, 255]);
        let mut board = RgbaImage::from_pixel(560, 300, background);
        image::imageops::replace(&mut board, &synthetic(5, 8, (30, 38), 2), 0, 0);
        let mut patch = RgbaImage::from_pixel(560, 300, background);
        for r in 0..7u32 {
            for c in 0..7u32 {
                for y in 0..14 {
                    for x in 0..14 {
                        patch.put_pixel(
                            420 + c * 16 + x,
                            60 + r * 16 + y,
                            Rgba([200, 200, 90, 255]),
                        );
                    }
                }
            }
        }
        let mut both = board.clone();
        for (x, y, p) in patch.enumerate_pixels() {
            if *p != background {
                both.put_pixel(x, y, *p);
            }
        }
        let (bx, by) = first_axes(&board);
        let (px, py) = first_axes(&patch);
        assert!((px.pitch - 16.0).abs() < 0.5, "{px:?}");
        let edges = Edges::of(&both);
        for (xs, ys) in [([px, bx], [py, by]), ([bx, px], [by, py])] {
            let (x, _, extent) = first_board(&edges, &xs, &ys, Sides::OnComb).unwrap();
            assert!((x.pitch - 30.0).abs() < 0.5, "{x:?}");
            assert_eq!((extent.rows, extent.cols), (5, 8));
        }
    }

    #[test]
    fn a_board_is_as_large_as_its_tiles_not_its_box() {
        // The board of 5 x 8 tiles on the left; on the right, squares on a 40 px lattice (no
        // whole multiple of the board's pitches): four touching and four more up to four cells
        // apart, whose box (6 x 6 cells) is larger than the board but whose squares cover much
        // less.
        let background = Rgba([20, 60, 20, 255]);
        let mut board = RgbaImage::from_pixel(640, 400, background);
        image::imageops::replace(&mut board, &synthetic(5, 8, (30, 38), 2), 0, 0);
        let mut patch = RgbaImage::from_pixel(640, 400, background);
        let squares = [
            (0, 0),
            (0, 1),
            (1, 0),
            (1, 1),
            (0, 4),
            (4, 0),
            (4, 4),
            (5, 5),
        ];
        for (r, c) in squares {
            for y in 0..36 {
                for x in 0..36 {
                    patch.put_pixel(330 + c * 40 + x, 60 + r * 40 + y, Rgba([200, 200, 90, 255]));
                }
            }
        }
        let mut both = board.clone();
        for (x, y, p) in patch.enumerate_pixels() {
            if *p != background {
                both.put_pixel(x, y, *p);
            }
        }
        let (bx, by) = first_axes(&board);
        let (px, py) = first_axes(&patch);
        assert!(
            (px.pitch - 40.0).abs() < 0.5 && (py.pitch - 40.0).abs() < 0.5,
            "{px:?} {py:?}"
        );
        let edges = Edges::of(&both);
        let (_, _, sparse) = first_board(&edges, &[px], &[py], Sides::OnComb).unwrap();
        assert_eq!((sparse.rows, sparse.cols), (6, 6));
        for (xs, ys) in [([px, bx], [py, by]), ([bx, px], [by, py])] {
            let (x, _, extent) = first_board(&edges, &xs, &ys, Sides::OnComb).unwrap();
            assert!((x.pitch - 30.0).abs() < 0.5, "{x:?}");
            assert_eq!((extent.rows, extent.cols), (5, 8));
        }
    }

    #[test]
    fn the_second_phase_of_the_pitch_is_a_candidate() {
        // Tile borders every 40 px from 20, and an inner frame 10 px inside every tile that
        // collects more: when the frame's comb is the first axis, the borders' is the second.
        let mut profile = vec![0f32; 600];
        for k in 0..14 {
            profile[20 + 40 * k] = 10.0;
            profile[30 + 40 * k] = 12.0;
        }
        let frame = Axis {
            pitch: 40.0,
            phase: 30.0,
        };
        let borders = other_phase(&profile, frame).unwrap();
        assert_eq!((borders.pitch, borders.phase), (40.0, 20.0));
        // With nothing else repeating at the pitch, there is no second phase.
        let mut alone = vec![0f32; 600];
        for k in 0..14 {
            alone[30 + 40 * k] = 12.0;
        }
        assert_eq!(other_phase(&alone, frame), None);
    }

    #[test]
    fn theil_sen_ignores_a_minority_of_outliers() {
        let mut points: Vec<(f64, f64)> =
            (0..10).map(|k| (k as f64, 3.0 + 40.0 * k as f64)).collect();
        points[2].1 += 1.0;
        points[7].1 -= 1.0;
        let (slope, intercept) = theil_sen(&points).unwrap();
        assert!((slope - 40.0).abs() < 1e-9 && (intercept - 3.0).abs() < 1e-9);
        assert_eq!(theil_sen(&[(1.0, 5.0)]), None);
    }

    /// A profile with a group of edges at each boundary `start + k * pitch`: a main edge and,
    /// at some boundaries, a stronger one a pixel before it (a tile beside an empty cell).
    fn boundary_profile(start: f64, pitch: f64, stronger_before: &[usize]) -> Vec<f32> {
        let mut profile = vec![0f32; 520];
        for k in 0..=10 {
            let at = start + k as f64 * pitch;
            // Area-sampled: an edge between two pixels shares its weight between them.
            let i = at.floor() as usize;
            let t = (at - at.floor()) as f32;
            profile[i] += 10.0 * (1.0 - t);
            profile[i + 1] += 10.0 * t;
            if stronger_before.contains(&k) {
                profile[i - 1] += 14.0;
            }
            profile[i + 2] += 3.0;
        }
        profile
    }

    #[test]
    fn registration_lands_on_whole_pixels_whatever_the_boundary_mix() {
        let profile = boundary_profile(20.0, 40.0, &[1, 2, 6]);
        let start = Axis {
            pitch: 40.15,
            phase: 19.4,
        };
        let fit = register_fit(&profile, start, 0, 10).unwrap().0;
        assert!((fit.pitch - 40.0).abs() < 1e-9, "{fit:?}");
        assert!((fit.at(5.0) - 220.0).abs() < 1e-9, "{fit:?}");
    }

    #[test]
    fn registration_finds_a_fractional_pitch() {
        let profile = boundary_profile(20.3, 41.6, &[]);
        let start = Axis {
            pitch: 41.5,
            phase: 20.0,
        };
        let fit = register_fit(&profile, start, 0, 10).unwrap().0;
        assert!((fit.pitch - 41.6).abs() < 0.02, "{fit:?}");
    }

    /// An area-sampled peak of `height` at fractional position `at`, spread over three pixels.
    fn add_peak(profile: &mut [f32], at: f64, height: f32) {
        for (i, v) in profile.iter_mut().enumerate() {
            let d = (i as f64 - at).abs();
            *v += height * (1.0 - d / 1.5).max(0.0) as f32;
        }
    }

    #[test]
    fn edge_fit_finds_the_pitch_of_a_sparse_rescaled_board() {
        // Tiles' leading borders in one profile, trailing borders (2 px before the next
        // boundary) in the other; many tiles missing, so whole boundaries lack one border.
        let (start, pitch) = (20.3, 25.58 + 0.02);
        let mut rise = vec![0f32; 560];
        let mut fall = vec![0f32; 560];
        for k in 0..20 {
            let at = start + k as f64 * pitch;
            if k % 3 != 1 && k < 20 {
                add_peak(&mut rise, at, 30.0);
            }
            if k % 4 != 2 && k > 0 {
                add_peak(&mut fall, at - 2.0, 25.0);
            }
        }
        let guess = Axis {
            pitch: 25.55,
            phase: 20.0,
        };
        let fit = edge_fit([&rise, &fall], guess, 0, 19).unwrap();
        assert!((fit.pitch - pitch).abs() < 0.005, "{fit:?}");
    }

    #[test]
    fn a_side_is_an_edge_only_where_it_runs_the_whole_side() {
        let mut img = RgbaImage::from_pixel(60, 90, Rgba([20, 20, 20, 255]));
        for y in 0..90 {
            // x = 10: an edge all the way down; x = 40: one down the lower two thirds only.
            for x in 10..60 {
                if x < 40 || y < 30 {
                    img.put_pixel(x, y, Rgba([230, 230, 230, 255]));
                }
            }
        }
        let map = vertical_edges(&img);
        assert!(side_line(&map, (7.5, 11.5), (5.0, 85.0), true).0 > 100.0);
        assert_eq!(side_line(&map, (37.5, 41.5), (5.0, 85.0), true).0, 0.0);
    }

    /// Tiles drawn in 3D, `pitch` apart with a gap of `gap`: a body whose side, `side` px
    /// deep, shows on the left and at the bottom in two layers (a dark base 3 px deep, a
    /// lighter band), a light face flush with the body's top right corner, and on each face a
    /// picture of bars (one of five kinds) spanning the face's middle, so that the pictures
    /// are centred on the face. Returns the image, tile (0, 0)'s face centre and its body's.
    fn three_d_board(
        rows: u32,
        cols: u32,
        pitch: (u32, u32),
        (gap, side): (u32, u32),
    ) -> (RgbaImage, [f64; 2], [f64; 2]) {
        let mut img = RgbaImage::from_pixel(520, 460, Rgba([60, 90, 140, 255]));
        let (bw, bh) = (pitch.0 - gap, pitch.1 - gap);
        let (fw, fh) = (bw - side, bh - side);
        let (left, top) = (31, 27);
        for r in 0..rows {
            for c in 0..cols {
                let (x0, y0) = (left + c * pitch.0, top + r * pitch.1);
                for y in y0..y0 + bh {
                    for x in x0..x0 + bw {
                        // The outer layer of the side, then a lighter band, then the face.
                        let depth = (x - x0).min(y0 + bh - 1 - y);
                        let colour = match depth {
                            d if d < 3 => Rgba([30, 110, 60, 255]),
                            d if d < side => Rgba([200, 190, 150, 255]),
                            _ => Rgba([240, 236, 225, 255]),
                        };
                        img.put_pixel(x, y, colour);
                    }
                }
                let (fx, fy) = (x0 + side, y0);
                let kind = (r * cols + c) % 5;
                let ink = Rgba([150, 20 + 40 * kind as u8, 30, 255]);
                // Two horizontal bars across the picture's width, two vertical bars down its
                // height: the picture spans the face's middle, inset 6 px on every side.
                for i in 0..2 {
                    let y = fy + 8 + (kind + 3 * i) * (fh - 18) / 8;
                    let x = fx + 7 + (kind + 3 * i) * (fw - 16) / 8;
                    for t in 0..2 {
                        for xx in fx + 6..fx + fw - 6 {
                            img.put_pixel(xx, y + t, ink);
                        }
                        for yy in fy + 6..fy + fh - 6 {
                            img.put_pixel(x + t, yy, ink);
                        }
                    }
                }
            }
        }
        let face_centre = [
            f64::from(left + side) + f64::from(fw) / 2.0,
            f64::from(top) + f64::from(fh) / 2.0,
        ];
        let body_centre = [
            f64::from(left) + f64::from(bw) / 2.0,
            f64::from(top) + f64::from(bh) / 2.0,
        ];
        (img, face_centre, body_centre)
    }

    #[test]
    fn the_pictures_centre_is_the_faces_centre_whatever_the_side() {
        let (img, face, _) = three_d_board(6, 8, (50, 62), (5, 8));
        let axes = |pitch: f64, at: f64| Axis {
            pitch,
            phase: at - 1.0,
        };
        // Combs on the body's edges, and on the outer layer's inner edge.
        for (x0, y0) in [(31.0, 27.0), (34.0, 30.0)] {
            let (x, y) = (axes(50.0, x0), axes(62.0, y0));
            let cx = drawing_centre(&img, (x, (0, 8)), (y, (0, 6)), true).unwrap();
            let cy = drawing_centre(&img, (y, (0, 6)), (x, (0, 8)), false).unwrap();
            assert!((cx - face[0]).abs() < 0.5, "x {cx} face {face:?}");
            assert!((cy - face[1]).abs() < 0.5, "y {cy} face {face:?}");
        }
    }

    #[test]
    fn a_run_over_a_level_grows_from_the_middle_and_wraps_round() {
        // Bins 3..=6 at the level or over it; the ends cross the level half-way to the bins
        // beside them.
        let fold = [0.0, 0.0, 0.0, 4.0, 5.0, 5.0, 3.0, 1.0, 0.0, 0.0];
        let middle = drawn_run(&fold, 2.0).unwrap();
        assert!((middle - (2.5 + 6.5) / 2.0).abs() < 1e-9, "{middle}");
        // A run across the end of the period.
        let wrapped = [5.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 2.0, 4.0, 5.0];
        let middle = drawn_run(&wrapped, 2.0).unwrap();
        assert!((middle - (7.0 + 11.5) / 2.0).abs() < 1e-9, "{middle}");
        assert_eq!(drawn_run(&[3.0; 6], 2.0), None);
    }

    #[test]
    fn tiles_moved_onto_their_pictures_go_where_the_tiles_measured_them() {
        let spans = [(100.0, 40.0), (200.0, 50.0)];
        let pitch = [44.0, 54.0];
        let measured = |spread: f64| {
            Some(PictureCentre {
                centre: [121.5, 226.0],
                spread: [spread, spread],
            })
        };
        // x was moved (onto the fold's centre, 123.0); y stands on its span.
        let moved = [123.0 - 20.0, 200.0];
        // Onto the measured centre, a pitch away counting the same; y stays.
        let far = Some(PictureCentre {
            centre: [121.5 - 44.0, 226.0],
            spread: [0.5, 0.5],
        });
        assert_eq!(onto_pictures(moved, spans, far, pitch), [101.5, 200.0]);
        assert_eq!(
            onto_pictures(moved, spans, measured(0.5), pitch),
            [101.5, 200.0]
        );
        // Pictures that disagree, or none measured: the move stands.
        assert_eq!(onto_pictures(moved, spans, measured(2.0), pitch), moved);
        assert_eq!(onto_pictures(moved, spans, None, pitch), moved);
    }

    #[test]
    fn tiles_move_onto_faces_and_pictures_only_where_the_two_agree() {
        let spans = [(100.0, 40.0), (200.0, 50.0)];
        let pitch = [44.0, 54.0];
        let origin = [101.0, 201.0];
        let centre = |x: f64, y: f64, spread: f64| {
            Some(PictureCentre {
                centre: [x, y],
                spread: [spread, spread],
            })
        };
        // Half a pixel apart on x, a pitch and a pixel apart on y: the midpoint.
        let both = (
            centre(121.5, 226.5, 0.5),
            centre(122.0, 226.5 + 54.0 + 1.0, 0.5),
        );
        assert_eq!(onto_faces(origin, spans, both, pitch), [101.75, 202.0]);
        // Within half a pixel of the tiles' centre on x: x stays.
        let near = (centre(121.0, 226.5, 0.5), centre(121.4, 227.5, 0.5));
        assert_eq!(onto_faces(origin, spans, near, pitch), [101.0, 202.0]);
        // Two pixels apart on y, or either spread wide, or either missing: the tiles stay.
        let apart = (centre(121.5, 226.0, 0.5), centre(121.5, 228.0, 0.5));
        assert_eq!(onto_faces(origin, spans, apart, pitch), origin);
        let spread = (centre(121.5, 226.0, 1.5), centre(121.5, 226.0, 0.5));
        assert_eq!(onto_faces(origin, spans, spread, pitch), origin);
        let one = (None, centre(121.5, 226.0, 0.5));
        assert_eq!(onto_faces(origin, spans, one, pitch), origin);
    }

    #[test]
    fn tiles_move_onto_their_pictures_only_when_far_off_them() {
        let pitch = [50.0, 60.0];
        // Both spans' centres (25, 30) within 9% of a pitch of the pictures': they stand.
        let spans = [(0.0, 50.0), (0.0, 60.0)];
        let near = [Some(29.0), Some(26.0)];
        let unframed = [false, false];
        assert_eq!(
            centred_on_drawings(spans, (near, unframed, unframed), pitch),
            [0.0, 0.0]
        );
        // y 6 px off (10%): both axes move onto the pictures (a pitch away counts the same).
        let far = [Some(79.0), Some(24.0)];
        assert_eq!(
            centred_on_drawings(spans, (far, unframed, unframed), pitch),
            [4.0, -6.0]
        );
        // Within half a pixel an axis stays; no picture, no move.
        let close = [Some(25.4), Some(24.0)];
        assert_eq!(
            centred_on_drawings(spans, (close, unframed, unframed), pitch),
            [0.0, -6.0]
        );
        assert_eq!(
            centred_on_drawings(spans, ([None, None], unframed, unframed), pitch),
            [0.0, 0.0]
        );
    }

    #[test]
    fn tiles_near_their_pictures_move_onto_them_when_edges_frame_them_both_ways() {
        let pitch = [50.0, 60.0];
        let spans = [(0.0, 50.0), (0.0, 60.0)];
        let near = [Some(29.0), Some(26.0)];
        // Edges centred on the pictures on both axes: a face there, the spans move.
        assert_eq!(
            centred_on_drawings(spans, (near, [true, true], [false, false]), pitch),
            [4.0, -4.0]
        );
        // On one axis only: the spans stand.
        assert_eq!(
            centred_on_drawings(spans, (near, [true, false], [false, false]), pitch),
            [0.0, 0.0]
        );
        // Spans within a pixel of the pictures on both axes frame them already: they stand.
        let closer = [Some(25.9), Some(29.2)];
        assert_eq!(
            centred_on_drawings(spans, (closer, [true, true], [false, false]), pitch),
            [0.0, 0.0]
        );
    }

    /// A board's edge profile folded at a pitch of 40 from boundary 9 (edges at 10 + offset):
    /// a strong edge at offset 0 (the body's outer edge), a layer inside the side at 4, the
    /// face's edge at 8 and the far edge at 36 shared by face and body; a weak stroke at 20.
    fn layered_side_fold() -> EdgeFold {
        let mut profile = vec![0f32; 130];
        for k in 0..3 {
            let base = 9 + 40 * k;
            profile[base] = 100.0;
            profile[base + 4] = 60.0;
            profile[base + 8] = 30.0;
            profile[base + 20] = 10.0;
            profile[base + 36] = 90.0;
        }
        let axis = Axis {
            pitch: 40.0,
            phase: 9.0,
        };
        EdgeFold::new(&profile, axis, (0, 2)).unwrap()
    }

    #[test]
    fn pictures_are_framed_by_two_edges_centred_on_them() {
        let fold = layered_side_fold();
        // The face 18..46 is centred at 32: framed, also a pitch away; the body 10..46
        // (centre 28) and the box 14..46 (centre 30) frame their own centres too.
        assert!(framed_by_edges(&fold, 32.0));
        assert!(framed_by_edges(&fold, 72.5));
        assert!(framed_by_edges(&fold, 28.0));
        // The stroke is too weak to count as an edge: 20 (between it and the body's outer
        // edge) is not framed; nor are 25 and 65 (25 a pitch on), 3 px from any pair's middle;
        // nor 26, half a pitch from the far edge, which only that edge and its copy a pitch
        // on bound.
        assert!(!framed_by_edges(&fold, 20.0));
        assert!(!framed_by_edges(&fold, 25.0));
        assert!(!framed_by_edges(&fold, 65.0));
        assert!(!framed_by_edges(&fold, 26.0));
    }

    #[test]
    fn a_span_that_meets_no_framing_edge_is_off_the_frame() {
        // Edges at 10 (body), 14 (a layer inside the side), 18 (the face) and 46 (the far
        // edge of face and body); the face 18..46 frames 32, and so do the edges at 14 and 50
        // (the body's edge a pitch on).
        let fold = layered_side_fold();
        // The face, the body and a box from the side's layer all meet a framing edge.
        assert!(!off_the_frame((18.0, 28.0), &fold, 32.0));
        assert!(!off_the_frame((10.0, 36.0), &fold, 32.0));
        assert!(!off_the_frame((54.5, 31.5), &fold, 72.0));
        // A span 12..42 meets none (each end 2 px or more from one).
        assert!(off_the_frame((12.0, 30.0), &fold, 32.0));
        // Pictures nothing frames: no frame to be off.
        assert!(!off_the_frame((12.0, 30.0), &fold, 20.0));
    }

    #[test]
    fn tiles_off_the_edges_that_frame_their_pictures_move_onto_them() {
        let pitch = [50.0, 60.0];
        let spans = [(0.0, 50.0), (0.0, 60.0)];
        let near = [Some(29.0), Some(26.0)];
        // Framed on y alone, within 9% of a pitch: the spans stand while they meet the
        // framing edges, and both move when the y span meets none.
        assert_eq!(
            centred_on_drawings(spans, (near, [false, true], [false, false]), pitch),
            [0.0, 0.0]
        );
        assert_eq!(
            centred_on_drawings(spans, (near, [false, true], [false, true]), pitch),
            [4.0, -4.0]
        );
    }

    #[test]
    fn a_span_inside_a_layered_side_grows_to_the_body() {
        // Each tile's body edge at 10 (+ 40k), a layer inside its side at 14, the face's edge
        // at 18 and the far edge at 46 shared by face and body (see layered_side_fold).
        let fold = layered_side_fold();
        // The pictures centred on the face (32, or a pitch on): the side is at the start. A
        // span on the layer grows to the body's outer edge; the body stands.
        assert_eq!(side_to_body((14.0, 32.0), &fold, 32.0), (10.0, 36.0));
        assert_eq!(side_to_body((14.0, 32.0), &fold, 72.0), (10.0, 36.0));
        assert_eq!(side_to_body((10.0, 36.0), &fold, 32.0), (10.0, 36.0));
        // Pictures centred on the span (the face itself) say nothing of where a side is.
        assert_eq!(side_to_body((18.0, 28.0), &fold, 32.0), (18.0, 28.0));
        assert_eq!(side_to_body((14.0, 32.0), &fold, 30.0), (14.0, 32.0));
        // The pictures at 28, left of the span 18..46: the side is at its end, where the
        // next tile's edges at 50 and 54 lie before its start at 58; the outermost wins.
        assert_eq!(side_to_body((18.0, 28.0), &fold, 28.0), (18.0, 36.0));
    }

    #[test]
    fn a_move_that_takes_the_board_out_of_the_image_is_not_made() {
        let g = Geometry {
            rows: 2,
            cols: 3,
            origin: [10.0, 4.0],
            pitch: [30.0, 40.0],
            tile_size: [28.0, 38.0],
        };
        // The board ends at x 98 and y 82 in a 100 x 90 image.
        assert_eq!(moved_within(g, [11.5, 2.0], 100, 90).origin, [11.5, 2.0]);
        assert_eq!(moved_within(g, [13.0, 4.0], 100, 90).origin, [10.0, 4.0]);
        assert_eq!(moved_within(g, [10.0, -3.0], 100, 90).origin, [10.0, 4.0]);
    }

    #[test]
    fn three_d_tiles_are_centred_on_their_face_or_body() {
        // Issue 11: the tile box landed between face and body, an edge inside the 3D side
        // taken for the tile's.
        let (img, face, body) = three_d_board(6, 8, (50, 62), (5, 14));
        let g = calibrate(&img).unwrap();
        assert_eq!((g.rows, g.cols), (6, 8), "{g:?}");
        let centre = [
            g.origin[0] + g.tile_size[0] / 2.0,
            g.origin[1] + g.tile_size[1] / 2.0,
        ];
        let off = |target: [f64; 2]| (centre[0] - target[0]).hypot(centre[1] - target[1]);
        assert!(
            off(face).min(off(body)) <= 1.0,
            "{g:?}: centre {centre:?}, face {face:?}, body {body:?}"
        );
    }

    /// One row of `cols` cells: kept tiles (strict, paper-coloured) at `tiles`, and at `lone`
    /// a loose cell as strong as them whose face hides its paper.
    fn one_row(cols: usize, tiles: &[usize], lone: usize) -> CellEvidence {
        let paper = [230.0, 225.0, 200.0];
        let mut cells = CellEvidence {
            row0: 0,
            col0: 0,
            rows: 1,
            cols,
            candidate: vec![false; cols],
            weakest_side: vec![0.0; cols],
            loose: vec![false; cols],
            weakest_loose: vec![0.0; cols],
            ring: vec![[0.0; 3]; cols],
            sides: vec![[(0.0, 0.0); 4]; cols],
            reach: 1,
        };
        for &i in tiles {
            cells.candidate[i] = true;
            cells.loose[i] = true;
            cells.weakest_side[i] = 140.0;
            cells.weakest_loose[i] = 140.0;
            cells.ring[i] = paper;
        }
        cells.loose[lone] = true;
        cells.weakest_loose[lone] = 120.0;
        cells.ring[lone] = [180.0, 85.0, 77.0];
        cells
    }

    #[test]
    fn a_strong_loose_cell_of_another_colour_joins_only_next_to_a_tile() {
        let paper = [230.0, 225.0, 200.0];
        let next_to = one_row(6, &[0, 1, 2, 3], 4);
        assert!(next_to.joins(4, &[0, 1, 2, 3], paper, 140.0));
        // The same cell a cell away from the tiles is clutter, not a tile.
        let apart = one_row(6, &[0, 1, 2, 3], 5);
        assert!(!apart.joins(5, &[0, 1, 2, 3], paper, 140.0));
        // And next to them but weaker than the board's borders.
        let mut weak = one_row(6, &[0, 1, 2, 3], 4);
        weak.weakest_loose[4] = 70.0;
        assert!(!weak.joins(4, &[0, 1, 2, 3], paper, 140.0));
    }

    #[test]
    fn weak_cells_unlike_the_tiles_are_no_tiles_strong_ones_are() {
        // Row 1: six tiles of paper at the typical border (60); above them, two texture cells
        // alike each other but not the paper, at 22; and one flat tile of another colour at 60.
        let paper = [230.0, 225.0, 200.0];
        let brown = [90.0, 70.0, 30.0];
        let mut cells = CellEvidence {
            row0: 0,
            col0: 0,
            rows: 2,
            cols: 6,
            candidate: vec![false; 12],
            weakest_side: vec![0.0; 12],
            loose: vec![false; 12],
            weakest_loose: vec![0.0; 12],
            ring: vec![[0.0; 3]; 12],
            sides: vec![[(0.0, 0.0); 4]; 12],
            reach: 1,
        };
        for (i, strength, ring) in (6..12)
            .map(|i| (i, 60.0, paper))
            .chain([(1, 22.0, brown), (4, 22.0, brown)])
        {
            cells.candidate[i] = true;
            cells.weakest_side[i] = strength;
            cells.ring[i] = ring;
        }
        let (_, _, cluster, _) = tiles_at(&cells, 60.0).unwrap();
        assert_eq!(cluster, (6..12).collect::<Vec<_>>());
        cells.weakest_side[4] = 60.0;
        let (_, _, mut cluster, _) = tiles_at(&cells, 60.0).unwrap();
        cluster.sort_unstable();
        assert_eq!(cluster, [4, 6, 7, 8, 9, 10, 11]);
    }

    /// A 4 x 6 board of 30 x 38 cells at (60, 60) whose first and last columns are empty (and
    /// a cell in each of the next), on a panel 8 px larger than the board (`panel`), or
    /// between two lines down the whole image at the same places (`lines`: a window's or a
    /// side panel's edges), in an image `height` pixels high.
    fn sparse_on_panel(panel: bool, lines: bool, height: u32) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(400, height, Rgba([20, 60, 20, 255]));
        let mut fill = |x0: u32, x1: u32, y0: u32, y1: u32, colour: [u8; 3]| {
            for y in y0..y1 {
                for x in x0..x1 {
                    img.put_pixel(x, y, Rgba([colour[0], colour[1], colour[2], 255]));
                }
            }
        };
        if panel {
            fill(52, 248, 52, 220, [120, 80, 40]);
        }
        if lines {
            fill(51, 53, 0, height, [200, 200, 200]);
            fill(247, 249, 0, height, [200, 200, 200]);
        }
        // The outer tiles' own edges break off at an empty cell (a panel's edge does not).
        let empty = [(1, 1), (2, 4)];
        for r in 0..4 {
            for c in (1..5).filter(|&c| !empty.contains(&(r, c))) {
                let (x0, y0) = (60 + c * 30, 60 + r * 38);
                fill(x0, x0 + 28, y0, y0 + 36, [240, 240, 230]);
                let mark = (r * 6 + c) % 5;
                fill(
                    x0 + 8 + mark * 2,
                    x0 + 10 + mark * 2,
                    y0 + 12,
                    y0 + 24,
                    [200, 0, 0],
                );
            }
        }
        img
    }

    #[test]
    fn a_board_on_a_panel_spans_the_panel_whatever_its_edge_columns_hold() {
        // The panel's foot 10 px above the image's: its sides show they end at its top.
        for height in [300, 230] {
            let g = calibrate(&sparse_on_panel(true, false, height)).unwrap();
            assert_eq!((g.rows, g.cols), (4, 6), "{height}: {g:?}");
            assert!((g.origin[0] - 60.0).abs() < 1.0, "{height}: {g:?}");
            assert!((g.pitch[0] - 30.0).abs() < 0.3, "{height}: {g:?}");
        }
        // Lines that go on past the board are no panel: the tiles alone give the board.
        let g = calibrate(&sparse_on_panel(false, true, 300)).unwrap();
        assert_eq!((g.rows, g.cols), (4, 4), "{g:?}");
        assert!((g.origin[0] - 90.0).abs() < 1.0, "{g:?}");
    }

    #[test]
    fn the_objects_board_grows_to_its_panel_past_a_grainy_corner() {
        let mut img = sparse_on_panel(true, false, 300);
        // A wallpaper's grain where the panel's right side would go on above it.
        for y in 0..52 {
            for x in 246..250 {
                let v = if (x + y) % 2 == 0 { 35 } else { 5 };
                img.put_pixel(x, y, Rgba([v, 60, 20, 255]));
            }
        }
        let edges = Edges::of(&img);
        // The objects span the four middle columns, the whole cells.
        let objects = Geometry {
            rows: 4,
            cols: 4,
            origin: [90.0, 60.0],
            pitch: [30.0, 38.0],
            tile_size: [30.0, 38.0],
        };
        let g = on_panel(&edges, objects);
        assert_eq!((g.rows, g.cols), (4, 6), "{g:?}");
        assert!((g.origin[0] - 60.0).abs() < 0.5, "{g:?}");
        // Lines down the whole image are no panel.
        let lines = sparse_on_panel(false, true, 300);
        assert_eq!(on_panel(&Edges::of(&lines), objects), objects);
    }

    /// Touching 30 x 38 tiles, `rows` x `cols` from (37, 41), parted by a faint line, three of
    /// them with a dark frame drawn just inside their border (kshisen's white dragon).
    fn faint_borders_and_three_framed(rows: u32, cols: u32) -> RgbaImage {
        let mut img = RgbaImage::from_pixel(400, 300, Rgba([60, 40, 20, 255]));
        let framed = [(1, 2), (3, 7), (4, 4)];
        for r in 0..rows {
            for c in 0..cols {
                let (x0, y0) = (37 + c * 30, 41 + r * 38);
                for y in y0..y0 + 38 {
                    for x in x0..x0 + 30 {
                        let faint = x == x0 || y == y0;
                        let (dx, dy) = ((x - x0).min(x0 + 29 - x), (y - y0).min(y0 + 37 - y));
                        let frame = framed.contains(&(r, c)) && (2..4).contains(&dx.min(dy));
                        let v = if frame {
                            0
                        } else if faint {
                            200
                        } else {
                            235
                        };
                        img.put_pixel(x, y, Rgba([v, v, v.saturating_sub(10), 255]));
                    }
                }
                // A small mark of one of five kinds in the middle.
                let mark = (r * cols + c) % 5;
                for d in 0..6 {
                    img.put_pixel(x0 + 11 + mark * 2, y0 + 16 + d, Rgba([200, 0, 0, 255]));
                }
            }
        }
        img
    }

    #[test]
    fn a_few_faces_framed_along_their_border_do_not_set_the_typical_border() {
        let img = faint_borders_and_three_framed(6, 10);
        let edges = Edges::of(&img);
        let (x_axis, y_axis) = (
            Axis {
                pitch: 30.0,
                phase: 7.0,
            },
            Axis {
                pitch: 38.0,
                phase: 3.0,
            },
        );
        // At the 98th percentile the framed faces alone are tiles.
        assert!(
            find_extent(
                &edges,
                x_axis,
                y_axis,
                (Outliers::Typical, Growth::None, Sides::OnComb)
            )
            .is_err()
        );
        assert_cells_and_board(&img, &edges, (x_axis, y_axis), (6, 10, 60));
    }

    /// Asserts that the tile-like cells on the axes make a board of (rows, cols) holding
    /// `tiles` (see [`find_extent`], looking past outliers), and that calibrate finds a board
    /// of that size.
    fn assert_cells_and_board(
        img: &RgbaImage,
        edges: &Edges,
        (x_axis, y_axis): (Axis, Axis),
        (rows, cols, tiles): (usize, usize, usize),
    ) {
        let (extent, found) = find_extent(
            edges,
            x_axis,
            y_axis,
            (Outliers::LookPast, Growth::None, Sides::OnComb),
        )
        .unwrap();
        assert_eq!((extent.rows, extent.cols, found), (rows, cols, tiles));
        let g = calibrate(img).unwrap();
        assert_eq!((g.rows, g.cols), (rows, cols), "{g:?}");
    }

    #[test]
    fn the_measures_most_agree_on_give_their_median() {
        // Two measures a pixel apart outvote one far off; the lone one stands for nothing.
        let points = [[10.0, 20.0], [10.6, 20.6], [14.0, 16.0]];
        let agreed = most_agreed(&points, 1.0).unwrap();
        assert!((agreed[0] - 10.3).abs() < 1e-9 && (agreed[1] - 20.3).abs() < 1e-9);
        // No two agree: no centre.
        assert_eq!(
            most_agreed(&[[0.0, 0.0], [3.0, 0.0], [0.0, 3.0]], 1.0),
            None
        );
        // Two groups as large: the first point's group.
        let tie = most_agreed(&[[0.0, 0.0], [5.0, 5.0], [0.5, 0.0], [5.0, 5.5]], 1.0);
        assert_eq!(tie, Some([0.25, 0.0]));
        // A point with two others near it draws from both, though they lie 1.6 apart.
        let chain = most_agreed(&[[0.0, 0.0], [0.8, 0.0], [-0.8, 0.0], [9.0, 9.0]], 1.0);
        assert_eq!(chain, Some([0.0, 0.0]));
        // Two on whole pixels and one half a pixel off: the median stays on the two.
        let rounded = most_agreed(&[[48.0, 114.0], [48.0, 114.5], [48.0, 114.0]], 1.0);
        assert_eq!(rounded, Some([48.0, 114.0]));
    }

    #[test]
    fn a_blank_image_has_no_board() {
        let img = RgbaImage::from_pixel(300, 200, Rgba([90, 90, 90, 255]));
        assert!(matches!(calibrate(&img), Err(VisionError::NoBoard(_))));
    }
}
