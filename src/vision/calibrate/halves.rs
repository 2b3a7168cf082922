//! Cells joined in twos where a comb at half the pitch cut every tile in half.

use crate::board::{Board, Kind, Pos};
use crate::vision::Geometry;
use crate::vision::features::{column_profile, peaks_only, row_profile, sample};

use super::*;

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
pub(super) fn halves_joined(
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
pub(super) fn halves_begin(board: &Board, axis: usize) -> Vec<usize> {
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
