//! Classification: the cells of a known grid to a [`Board`], with no templates.
//!
//! - Empty or tile: the colours of a band just outside the board (background or panel) make a
//!   set of colour bins; a cell whose face is mostly in them is empty. A blank tile face is far
//!   from the background, so it stays a tile, and where tiles stand apart, a cell read empty
//!   that shows none of the colours of the gap round it (a blank tile in a colour the
//!   surroundings show too) is a tile. Where the tiles' paper is the background's
//!   colour, the band just inside each tile's edge (the rim all tiles share: an outline, a
//!   bevel) gives the tiles back. An icon drawn with no tile body leaves most of its cell in
//!   the background's colours; a cell whose middle shows colours its own edge does not is a
//!   tile (an empty cell shows in its middle what it shows along its edge). Where what lies
//!   under the board is a texture, a cell read empty whose middle is still (one flat colour,
//!   a glyph on it) is a tile: an empty cell shows the texture.
//! - Kinds: each face (the tile less a trimmed border) is box-averaged onto a grid of 12 bins
//!   across and whole blocks of 4 x 4 bins down (from an integral image of the board): the same
//!   grid relative to the face at any tile size. Every channel is then minus its mean and divided
//!   by its spread (so brightness, contrast, a tint or a stipple over the whole tile cancel; JPEG
//!   noise averages out in the boxes). Icons drawn straight on a photo or a gradient first have the
//!   ground behind them (read from the ring round each face) moved to one colour, so copies do not
//!   differ by where they lie (see [`take_out_ground`]). Two faces are compared by their worst
//!   block of 4 x 4 bins, so that near-duplicates such as 三萬 and 伍萬, which differ in one corner
//!   only, stay apart; a linked pair whose worst window of 2 x 2 bins differs far more than either
//!   face differs from its own copy is parted again (a mark smaller than a block, such as a corner
//!   label, is diluted in its block). The cheap centred comparison runs for every pair and sets the
//!   scale (the median); the shift-tolerant one (half a bin each way) only for pairs near the
//!   threshold. Faces closer than the threshold link up; a group wider than the threshold is split
//!   again by complete linkage. Every kind occurs an even number of times: groups of odd size are
//!   repaired in pairs. Normalisation hides colour, so each face also keeps its paper colour (the
//!   median bin) and, when drawn in one ink, its ink colour: faces whose colours differ clearly
//!   never link (one glyph in many colours, tiles painted in many colours). Faces of one colour
//!   whose shapes all lie close together are one kind even where the shape threshold would part
//!   them: when kinds differ only by colour, the threshold is low and copies resampled at other
//!   sub-pixel offsets had split.
//!
//! The parts have modules of their own: [`background`] (the colours round the board),
//! [`restore`] (tiles given back that those colours alone would read empty), [`faces`] (a
//! face's descriptor), [`ground`] (the ground behind icons on a photo) and [`kinds`] (faces
//! grouped into kinds). This module reads the cells with them.

use image::RgbaImage;

use crate::board::{Board, Kind};
use crate::vision::{ClassifierSettings, Geometry, Reading, VisionError, check_fits};

mod background;
mod faces;
mod ground;
mod kinds;
mod restore;

use background::*;
use faces::*;
use ground::*;
use kinds::*;
use restore::*;

pub(crate) use faces::faces_at;
pub use faces::{Face, tile_faces};

/// Reads the board in `image` at the known `geometry`: 0 for empty cells, kinds numbered 1..
/// in row-major order of first appearance, and a confidence per cell.
pub fn read_board(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> Result<Reading, VisionError> {
    read_cells(image, geometry, settings, None).map(|(reading, _)| reading)
}

/// [`read_board`], with each tile's nearest copy among the tiles in the cells `copies_from`
/// (row-major indices) takes (see [`TileCopy`]); `None` for those with fewer than four tiles.
pub(super) fn read_with_copies(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    copies_from: &dyn Fn(usize) -> bool,
) -> Result<(Reading, Option<Vec<TileCopy>>), VisionError> {
    read_cells(image, geometry, settings, Some(copies_from))
}

/// Which cells hold a tile, each cell's empty score (the share of its face in the colours
/// round the board; see [`background`]), and those colours (`None` when the board touches the
/// image's edges).
fn tile_cells(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
) -> (Vec<bool>, Vec<f32>, Option<Background>) {
    let n = geometry.rows * geometry.cols;
    let mut empty_score = vec![0f32; n];
    let mut is_tile = vec![true; n];
    let mut chosen = None;
    if let Some((bg, near)) = &background(image, geometry) {
        chosen = Some(bg.clone());
        // Where a panel showed round the board, in the colours the cells are read by.
        let mut panel_band = bg.panel_band;
        let scores = |bg: &Background| -> Vec<f32> {
            (0..n)
                .map(|i| {
                    let pos = geometry.pos_of(i);
                    background_fraction(image, face_rect(geometry, pos, settings.trim), bg)
                })
                .collect()
        };
        empty_score = scores(bg);
        if let Some(near) = near {
            let with_near = scores(near);
            let limit = settings.empty_fraction as f32;
            // A cell whose middle shows colours its edge does not is a tile either way (an icon
            // with no tile body on the panel): it neither shows the panel is one nor that it
            // is not, and it is a tile left.
            let (drawn, switched): (Vec<usize>, Vec<usize>) = (0..n)
                .filter(|&i| empty_score[i] < limit && with_near[i] >= limit)
                .partition(|&i| drawn_apart_from_edge(image, geometry, settings, i));
            let mut shares: Vec<f32> = switched.iter().map(|&i| with_near[i]).collect();
            let median = crate::stats::median(&mut shares).unwrap_or(0.0);
            let tiles_left = with_near.iter().filter(|&&score| score < limit).count() + drawn.len();
            if switched.is_empty() || (median >= NEAR_PANEL_SHARE && tiles_left >= 2) {
                empty_score = with_near;
                panel_band = near.panel_band;
                chosen = Some(near.clone());
            }
        }
        for (tile, score) in is_tile.iter_mut().zip(&empty_score) {
            *tile = f64::from(*score) < settings.empty_fraction;
        }
        if let Some(chosen) = &chosen {
            empty_only_on_panel(
                image,
                geometry,
                settings,
                chosen,
                &empty_score,
                &mut is_tile,
            );
        }
        empty_like_gap(image, geometry, settings, bg.dominant, &mut is_tile);
        restore_tiles_by_rim(image, geometry, bg.dominant, &mut is_tile);
        restore_drawn_tiles(image, geometry, panel_band, &mut is_tile);
        restore_still_on_texture(image, geometry, panel_band, &mut is_tile);
        restore_by_own_edge(image, geometry, settings, &mut is_tile);
        restore_unlike_gap(image, geometry, settings, &mut is_tile);
    }
    (is_tile, empty_score, chosen)
}

/// [`read_board`], and the tiles' copies among those in the cells `copies_from` takes, when
/// given (see [`read_with_copies`]).
fn read_cells(
    image: &RgbaImage,
    geometry: &Geometry,
    settings: &ClassifierSettings,
    copies_from: Option<&dyn Fn(usize) -> bool>,
) -> Result<(Reading, Option<Vec<TileCopy>>), VisionError> {
    check_fits(image, geometry)?;
    let n = geometry.rows * geometry.cols;
    let (is_tile, empty_score, background) = tile_cells(image, geometry, settings);
    let tiles: Vec<usize> = (0..n).filter(|&i| is_tile[i]).collect();
    let mut faces = faces_of(image, geometry, settings, &tiles);
    let icons_on_ground = match &background {
        Some(bg) => take_out_ground(image, geometry, settings, bg, &tiles, &mut faces),
        None => vec![false; tiles.len()],
    };
    let refs: Vec<&Face> = faces.iter().collect();
    let (dist, threshold) = face_distances(&refs, settings);
    let on_ground = || {
        let ground = ground_under_cells(image, geometry);
        tiles
            .iter()
            .zip(&faces)
            .map(|(&cell, face)| {
                ground[cell]
                    .iter()
                    .flatten()
                    .any(|&g| shows_ground(face, g))
            })
            .zip(&icons_on_ground)
            .map(|(by_bands, &by_ring)| by_bands || by_ring)
            .collect()
    };
    let (labels, tile_confidence) = group_faces_at(&refs, on_ground, &dist, threshold);
    let copies = copies_from
        .filter(|_| tiles.len() >= 4)
        .map(|from| copies_of(&tiles, &faces, &dist, from));
    let mut cells = vec![0 as Kind; n];
    let mut confidence = vec![0f32; n];
    for i in 0..n {
        if !is_tile[i] {
            let margin = (empty_score[i] - settings.empty_fraction as f32).abs();
            confidence[i] = (margin / 0.3).min(1.0);
        }
    }
    // Number kinds by first appearance.
    let mut names: Vec<Option<Kind>> = vec![None; tiles.len()];
    let mut next: Kind = 1;
    for (t, &cell) in tiles.iter().enumerate() {
        let label = labels[t];
        let kind = *names[label].get_or_insert_with(|| {
            next += 1;
            next - 1
        });
        cells[cell] = kind;
        confidence[cell] = tile_confidence[t];
    }
    let board = Board::new(geometry.rows, geometry.cols, cells)
        .map_err(|e| VisionError::NoBoard(e.to_string()))?;
    let low_confidence = (0..n)
        .filter(|&i| confidence[i] < settings.low_confidence)
        .map(|i| geometry.pos_of(i))
        .collect();
    let reading = Reading {
        board,
        geometry: *geometry,
        confidence,
        low_confidence,
        selected: Vec::new(),
    };
    Ok((reading, copies))
}

/// The share of `tiles` whose face has a copy (see [`TileCopy`]). Every kind of a link-up board
/// comes in pairs, so on the right geometry nearly every tile has one; cells cut across tiles
/// (a wrong pitch or phase) have fewer.
pub(super) fn twin_share(tiles: &[TileCopy]) -> f64 {
    let twins = tiles.iter().filter(|t| t.copy.is_some()).count();
    twins as f64 / tiles.len().max(1) as f64
}

/// A tile and its nearest copy (see [`read_with_copies`]).
pub(super) struct TileCopy {
    /// The tile's cell (row-major index).
    pub cell: usize,
    /// The cell of the nearest other tile (of those copies are sought among), when its face
    /// lies within [`NO_COPY_SHARE`] of the typical distance between faces.
    pub copy: Option<usize>,
    /// The face shows no drawing (it normalises to nothing), so any blank cell copies it.
    pub blank: bool,
}

/// Each of the tiles at `cells` (row-major indices, with their `faces` and the distances
/// between them, `n * n`) with its nearest copy among the tiles whose cell `from` takes.
fn copies_of(
    cells: &[usize],
    faces: &[Face],
    dist: &[f32],
    from: &dyn Fn(usize) -> bool,
) -> Vec<TileCopy> {
    let n = cells.len();
    let limit = NO_COPY_SHARE * typical_distance(dist, n);
    (0..n)
        .map(|i| {
            let nearest = (0..n)
                .filter(|&j| j != i && from(cells[j]))
                .min_by(|&a, &b| dist[i * n + a].total_cmp(&dist[i * n + b]));
            TileCopy {
                cell: cells[i],
                copy: nearest
                    .filter(|&j| dist[i * n + j] <= limit)
                    .map(|j| cells[j]),
                blank: faces[i].values().iter().all(|&v| v == 0.0),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests;
